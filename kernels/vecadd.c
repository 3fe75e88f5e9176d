/*
 * vecadd: c = a + b on 32-bit integers (kernel vecadd) and on FP32
 * (kernel vecadd_f32), one element per thread, n not a multiple of the
 * block size so that the last CTA has idle threads.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define BLOCK 256

/* Parameter buffer of both kernels, as .param in vecadd.s lays it out. */
struct vecadd_params {
	uint64_t a, b, c;
	uint32_t n;
};

static const char usage[] =
	"c = a + b on n 32-bit integers, then on n FP32 values (kernels vecadd, vecadd_f32).\n"
	"--n N: vector length (small 5000, default 1000000).";

int main(int argc, char **argv)
{
	struct vecadd_params p;
	struct wgk_rng rng;
	struct wgk k;
	int ret;
	uint32_t *ia, *ib, *ic, *iref;
	float *fa, *fb, *fc, *fref;
	size_t bad = 0, bytes;
	uint32_t n, i;
	wg_dim3 grid, block = { BLOCK, 1, 1 };

	wgk_init(&k, "vecadd", usage, argc, argv);
	n = (uint32_t)wgk_size(&k, 5000, 1000000);
	bytes = (size_t)n * 4;
	grid = (wg_dim3){ wgk_div_up(n, BLOCK), 1, 1 };

	ia = wgk_xmalloc(&k, bytes);
	ib = wgk_xmalloc(&k, bytes);
	ic = wgk_xmalloc(&k, bytes);
	iref = wgk_xmalloc(&k, bytes);
	fa = wgk_xmalloc(&k, bytes);
	fb = wgk_xmalloc(&k, bytes);
	fc = wgk_xmalloc(&k, bytes);
	fref = wgk_xmalloc(&k, bytes);

	wgk_rng_init(&rng, k.opt.seed, 0);
	for (i = 0; i < n; i++) {
		ia[i] = wgk_rng_u32(&rng);
		ib[i] = wgk_rng_u32(&rng);
		iref[i] = ia[i] + ib[i];
		fa[i] = wgk_rng_f32(&rng, -1000.0f, 1000.0f);
		fb[i] = wgk_rng_f32(&rng, -1000.0f, 1000.0f);
		fref[i] = fa[i] + fb[i];
	}

	/* Integers. */
	memset(&p, 0, sizeof(p));
	p.n = n;
	p.a = wgk_alloc_copy(&k, ia, bytes);
	p.b = wgk_alloc_copy(&k, ib, bytes);
	p.c = wgk_alloc(&k, bytes);
	wgk_memset(&k, p.c, 0, bytes);
	wgk_launch(&k, "vecadd", grid, block, &p, sizeof(p), 0);
	wgk_download(&k, ic, p.c, bytes);
	bad += wgk_cmp_u32(&k, "vecadd c", ic, iref, n);

	/* FP32: one IEEE rounding on both sides, so the match must be exact. */
	wgk_upload(&k, p.a, fa, bytes);
	wgk_upload(&k, p.b, fb, bytes);
	wgk_memset(&k, p.c, 0, bytes);
	wgk_launch(&k, "vecadd_f32", grid, block, &p, sizeof(p), 0);
	wgk_download(&k, fc, p.c, bytes);
	bad += wgk_cmp_f32(&k, "vecadd_f32 c", fc, fref, n, 0.0, 0.0);

	ret = wgk_finish(&k, bad, "%u", n);
	free(ia);
	free(ib);
	free(ic);
	free(iref);
	free(fa);
	free(fb);
	free(fc);
	free(fref);
	return ret;
}
