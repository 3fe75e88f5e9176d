/*
 * nn (CUDA suite, docs/suite.md): nearest neighbours, Rodinia style
 * (kernels/cuda/nn.cu, kernel nn_distance): the device computes the distance
 * of every record (latitude, longitude) to a target, the host selects the
 * NN_K nearest. Distances are checked against double precision with
 * |got - exp| <= 2^-22 * |exp| + 2^-20 (sqrtf is correctly rounded; the
 * squares may be contracted into an FFMA: a few ulp of the sum); the
 * selection is checked by distance: every selected record's exact distance
 * must be within that tolerance of the k-th smallest exact distance or below.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define BLOCK 256
#define NN_K 8
#define RTOL (1.0 / 4194304.0)
#define ATOL (1.0 / 1048576.0)

struct nn_params {
	uint64_t loc, dist;
	int32_t n;
	float lat, lng;
};

static const char usage[] =
	"Nearest neighbours (kernels/cuda/nn.cu): distances of random records to a target\n"
	"on the device, selection of the 8 nearest on the host.\n"
	"--n N: number of records (small 2048, default 1000000).";

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct nn_params p;
	struct wgk_rng rng;
	struct wgk k;
	float (*loc)[2], *dist, *ref;
	double *sorted, kth;
	uint32_t n, i, j, best[NN_K];
	size_t bad;
	int ret;

	wgk_init_ptx(&k, "nn", usage, argc, argv);
	n = (uint32_t)wgk_size(&k, 2048, 1000000);

	wgk_rng_init(&rng, k.opt.seed, 0);
	loc = wgk_xmalloc(&k, (size_t)n * sizeof(*loc));
	for (i = 0; i < n; i++) {
		loc[i][0] = wgk_rng_f32(&rng, -90.0f, 90.0f);
		loc[i][1] = wgk_rng_f32(&rng, -180.0f, 180.0f);
	}
	memset(&p, 0, sizeof(p));
	p.n = (int32_t)n;
	p.lat = 30.0f;
	p.lng = 90.0f;

	ref = wgk_xmalloc(&k, (size_t)n * 4);
	sorted = wgk_xmalloc(&k, (size_t)n * sizeof(double));
	for (i = 0; i < n; i++) {
		double dlat = (double)p.lat - loc[i][0], dlng = (double)p.lng - loc[i][1];

		sorted[i] = sqrt(dlat * dlat + dlng * dlng);
		ref[i] = (float)sorted[i];
	}

	p.loc = wgk_alloc_copy(&k, loc, (size_t)n * sizeof(*loc));
	p.dist = wgk_alloc(&k, (size_t)n * 4);
	wgk_launch(&k, "nn_distance", (wg_dim3){ wgk_div_up(n, BLOCK), 1, 1 }, (wg_dim3){ BLOCK, 1, 1 }, &p,
		   sizeof(p), 0);
	dist = wgk_xmalloc(&k, (size_t)n * 4);
	wgk_download(&k, dist, p.dist, (size_t)n * 4);
	bad = wgk_cmp_f32(&k, "dist", dist, ref, n, RTOL, ATOL);

	/* Host-side selection of the NN_K nearest from the device's distances (first index wins ties). */
	for (j = 0; j < NN_K && j < n; j++) {
		uint32_t m = UINT32_MAX;

		for (i = 0; i < n; i++) {
			int taken = 0;

			for (uint32_t t = 0; t < j; t++)
				taken |= best[t] == i;
			if (!taken && (m == UINT32_MAX || dist[i] < dist[m]))
				m = i;
		}
		best[j] = m;
	}
	qsort(sorted, n, sizeof(double), cmp_double);
	kth = sorted[(NN_K < n ? NN_K : n) - 1];
	for (j = 0; j < NN_K && j < n; j++) {
		double d = sqrt(pow((double)p.lat - loc[best[j]][0], 2) + pow((double)p.lng - loc[best[j]][1], 2));

		if (d > kth + RTOL * kth + ATOL) {
			fprintf(stderr, "nn: selected record %u at distance %.9g, the %d-th nearest is at %.9g\n",
				best[j], d, NN_K, kth);
			bad++;
		}
		printf("nn: %u: record %u (%.4f, %.4f) at %.6f\n", j, best[j], loc[best[j]][0], loc[best[j]][1],
		       dist[best[j]]);
	}
	ret = wgk_finish(&k, bad, "%u", n);
	free(loc);
	free(dist);
	free(ref);
	free(sorted);
	return ret;
}
