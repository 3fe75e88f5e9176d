/*
 * matmul: C = A * B for N x N FP32 matrices, 16 x 16 tiles staged in shared
 * memory. The default size is the golden model's speed benchmark.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define TILE 16

/* Parameter buffer, as .param in matmul.s lays it out. */
struct matmul_params {
	uint32_t n;
	uint64_t a, b, c;
};

static const char usage[] =
	"C = A * B for N x N FP32 matrices in 16 x 16 shared-memory tiles (kernel matmul,\n"
	"grid (N/16, N/16) of 16 x 16 threads).\n"
	"--n N: matrix order, a multiple of 16 (small 48, default 256).";

int main(int argc, char **argv)
{
	struct matmul_params p;
	struct wgk_rng rng;
	struct wgk k;
	int ret;
	float *a, *b, *c, *ref, acc;
	uint32_t n, i, j, l;
	size_t bad, bytes;

	wgk_init(&k, "matmul", usage, argc, argv);
	n = (uint32_t)wgk_size(&k, 48, 256);
	if (n % TILE || n > 4096)
		wgk_die(&k, "--n: the matrix order must be a multiple of %d, at most 4096", TILE);
	bytes = (size_t)n * n * 4;

	a = wgk_xmalloc(&k, bytes);
	b = wgk_xmalloc(&k, bytes);
	c = wgk_xmalloc(&k, bytes);
	ref = wgk_xmalloc(&k, bytes);
	wgk_rng_init(&rng, k.opt.seed, 0);
	for (i = 0; i < n * n; i++) {
		a[i] = wgk_rng_f32(&rng, -1.0f, 1.0f);
		b[i] = wgk_rng_f32(&rng, -1.0f, 1.0f);
	}
	/* Same order of fused multiply-adds as every thread of the kernel. */
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			acc = 0.0f;
			for (l = 0; l < n; l++)
				acc = fmaf(a[i * n + l], b[l * n + j], acc);
			ref[i * n + j] = acc;
		}
	}

	memset(&p, 0, sizeof(p));
	p.n = n;
	p.a = wgk_alloc_copy(&k, a, bytes);
	p.b = wgk_alloc_copy(&k, b, bytes);
	p.c = wgk_alloc(&k, bytes);
	wgk_memset(&k, p.c, 0, bytes);
	wgk_launch(&k, "matmul", (wg_dim3){ n / TILE, n / TILE, 1 }, (wg_dim3){ TILE, TILE, 1 }, &p, sizeof(p), 0);
	wgk_download(&k, c, p.c, bytes);

	/*
	 * The reference rounds exactly as the kernel does, so the results are
	 * expected to be bit-identical; the tolerance (relative 1e-5, absolute
	 * N * 1e-6, well above the typical rounding error of a sum of N
	 * products of magnitude <= 1) would also admit another summation order.
	 */
	bad = wgk_cmp_f32(&k, "c", c, ref, (size_t)n * n, 1e-5, n * 1e-6);
	ret = wgk_finish(&k, bad, "%ux%u", n, n);
	free(a);
	free(b);
	free(c);
	free(ref);
	return ret;
}
