/*
 * saxpy: y = a * x + y on FP32 with FFMA. The grid is capped so that most
 * threads run the grid-stride loop several times.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define BLOCK 256
#define MAX_CTAS 120

/* Parameter buffer, as .param in saxpy.s lays it out. */
struct saxpy_params {
	uint32_t n;
	float a;
	uint64_t x, y;
};

static const char usage[] =
	"y = a * x + y on n FP32 values with FFMA (kernel saxpy, grid-stride loop over\n"
	"at most 120 CTAs of 256 threads).\n"
	"--n N: vector length (small 6000, default 1000000).";

int main(int argc, char **argv)
{
	struct saxpy_params p;
	struct wgk_rng rng;
	struct wgk k;
	int ret;
	float *x, *y, *ref;
	size_t bad, bytes;
	uint32_t n, i, ctas;
	wg_dim3 grid, block = { BLOCK, 1, 1 };

	wgk_init(&k, "saxpy", usage, argc, argv);
	n = (uint32_t)wgk_size(&k, 6000, 1000000);
	bytes = (size_t)n * 4;
	ctas = wgk_div_up(n, BLOCK);
	if (ctas > MAX_CTAS)
		ctas = MAX_CTAS;
	grid = (wg_dim3){ ctas, 1, 1 };

	x = wgk_xmalloc(&k, bytes);
	y = wgk_xmalloc(&k, bytes);
	ref = wgk_xmalloc(&k, bytes);
	wgk_rng_init(&rng, k.opt.seed, 0);
	memset(&p, 0, sizeof(p));
	p.n = n;
	p.a = wgk_rng_f32(&rng, -4.0f, 4.0f);
	for (i = 0; i < n; i++) {
		x[i] = wgk_rng_f32(&rng, -100.0f, 100.0f);
		y[i] = wgk_rng_f32(&rng, -100.0f, 100.0f);
		ref[i] = fmaf(p.a, x[i], y[i]);
	}

	p.x = wgk_alloc_copy(&k, x, bytes);
	p.y = wgk_alloc_copy(&k, y, bytes);
	wgk_launch(&k, "saxpy", grid, block, &p, sizeof(p), 0);
	wgk_download(&k, y, p.y, bytes);

	/* fmaf rounds once like FFMA: the match must be exact. */
	bad = wgk_cmp_f32(&k, "y", y, ref, n, 0.0, 0.0);
	ret = wgk_finish(&k, bad, "%u", n);
	free(x);
	free(y);
	free(ref);
	return ret;
}
