/*
 * lps (CUDA suite, docs/suite.md): Jacobi iterations of the 3-D Laplace
 * equation (kernels/cuda/lps.cu, kernel lps_jacobi), one launch per
 * iteration, boundary values fixed. The kernel sums the six neighbours in
 * source order and multiplies by the FP32 constant 1/6, without FMA, so the
 * FP32 reference here, summing in the same order, must match exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define LPS_BX 32
#define LPS_BY 4

struct lps_params {
	uint64_t u1, u2;
	int32_t nx, ny, nz;
};

static const char usage[] =
	"3-D Laplace / Jacobi solver with shared-memory tiles (kernels/cuda/lps.cu), one\n"
	"launch per iteration; checked exactly against an FP32 CPU reference.\n"
	"--n N: iterations (small 2 on 64 x 8 x 8, default 10 on 128 x 128 x 64).";

static void cpu_jacobi(const float *u1, float *u2, uint32_t nx, uint32_t ny, uint32_t nz)
{
	const float sixth = 1.0f / 6.0f;
	size_t plane = (size_t)nx * ny;

	for (uint32_t z = 0; z < nz; z++)
		for (uint32_t j = 0; j < ny; j++)
			for (uint32_t i = 0; i < nx; i++) {
				size_t x = i + j * (size_t)nx + z * plane;

				if (i == 0 || j == 0 || z == 0 || i == nx - 1 || j == ny - 1 || z == nz - 1)
					u2[x] = u1[x];
				else
					u2[x] = (u1[x - 1] + u1[x + 1] + u1[x - nx] + u1[x + nx] + u1[x - plane] +
						 u1[x + plane]) * sixth;
			}
}

int main(int argc, char **argv)
{
	struct lps_params p;
	struct wgk_rng rng;
	struct wgk k;
	float *a, *b, *t, *got;
	uint64_t d[2];
	uint32_t nx, ny, nz, iters, it;
	size_t n, i, bad;
	int ret;

	wgk_init_ptx(&k, "lps", usage, argc, argv);
	iters = (uint32_t)wgk_size(&k, 2, 10);
	nx = k.opt.small ? 64 : 128;
	ny = k.opt.small ? 8 : 128;
	nz = k.opt.small ? 8 : 64;
	n = (size_t)nx * ny * nz;

	wgk_rng_init(&rng, k.opt.seed, 0);
	a = wgk_xmalloc(&k, n * 4);
	b = wgk_xmalloc(&k, n * 4);
	for (i = 0; i < n; i++)
		a[i] = wgk_rng_f32(&rng, 0.0f, 1.0f);
	d[0] = wgk_alloc_copy(&k, a, n * 4);
	d[1] = wgk_alloc(&k, n * 4);

	memset(&p, 0, sizeof(p));
	p.nx = (int32_t)nx;
	p.ny = (int32_t)ny;
	p.nz = (int32_t)nz;
	for (it = 0; it < iters; it++) {
		p.u1 = d[it & 1];
		p.u2 = d[(it + 1) & 1];
		wgk_launch(&k, "lps_jacobi", (wg_dim3){ nx / LPS_BX, ny / LPS_BY, 1 }, (wg_dim3){ LPS_BX, LPS_BY, 1 },
			   &p, sizeof(p), 0);
		cpu_jacobi(a, b, nx, ny, nz);
		t = a;
		a = b;
		b = t;
	}
	got = wgk_xmalloc(&k, n * 4);
	wgk_download(&k, got, d[iters & 1], n * 4);
	bad = wgk_cmp_f32(&k, "u", got, a, n, 0.0, 0.0);
	printf("lps: %u x %u x %u grid, %u iterations\n", nx, ny, nz, iters);
	ret = wgk_finish(&k, bad, "%ux%ux%u,iters=%u", nx, ny, nz, iters);
	free(a);
	free(b);
	free(got);
	return ret;
}
