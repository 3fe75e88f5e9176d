/*
 * lud (CUDA suite, docs/suite.md): blocked LU decomposition without
 * pivoting, Rodinia style (kernels/cuda/lud.cu): for each 16 x 16 diagonal
 * block the host launches lud_diagonal, then (unless it is the last)
 * lud_perimeter and lud_internal. The matrix is random in [-1, 1) plus n on
 * the diagonal (diagonally dominant: no pivoting needed, little growth). The
 * in-place factors (unit lower L below the diagonal, U on and above) are
 * checked against a double-precision Doolittle LU with the classic error
 * scale: element (i, j) may differ by 2^-14 * s, s = sum_k |L_ik| |U_kj| over
 * k <= min(i, j), divided by |U_jj| for the L part. FP32 accumulates about
 * n * 2^-24 of s (2^-16 at n = 256); a missing or misplaced update moves an
 * element by a whole term.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define LUD_BS 16
#define RTOL (1.0 / 16384.0)

struct lud_params {
	uint64_t m;
	int32_t n, off;
};

static const char usage[] =
	"Blocked LU decomposition (kernels/cuda/lud.cu, Rodinia's lud): diagonal, perimeter\n"
	"and internal kernels per diagonal block; checked against a double-precision LU.\n"
	"--n N: matrix order, a multiple of 16 (small 48, default 256).";

int main(int argc, char **argv)
{
	struct lud_params p;
	struct wgk_rng rng;
	struct wgk k;
	float *a, *got, *e;
	double *lu, *scale;
	uint32_t n, i, j, q, nb, b;
	size_t bad;
	int ret;

	wgk_init_ptx(&k, "lud", usage, argc, argv);
	n = (uint32_t)wgk_size(&k, 48, 256);
	if (n % LUD_BS || n > 4096)
		wgk_die(&k, "--n: the order must be a multiple of %d, at most 4096", LUD_BS);

	wgk_rng_init(&rng, k.opt.seed, 0);
	a = wgk_xmalloc(&k, (size_t)n * n * 4);
	lu = wgk_xmalloc(&k, (size_t)n * n * sizeof(double));
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			a[i * n + j] = wgk_rng_f32(&rng, -1.0f, 1.0f) + (i == j ? (float)n : 0.0f);
			lu[i * n + j] = a[i * n + j];
		}

	/* Reference: right-looking Doolittle LU in double, then the error scale. */
	for (q = 0; q < n; q++)
		for (i = q + 1; i < n; i++) {
			double l = lu[i * n + q] /= lu[q * n + q];

			for (j = q + 1; j < n; j++)
				lu[i * n + j] -= l * lu[q * n + j];
		}
	scale = wgk_xmalloc(&k, (size_t)n * n * sizeof(double));
	e = wgk_xmalloc(&k, (size_t)n * n * 4);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double s = 0.0;

			for (q = 0; q <= (i < j ? i : j); q++)
				s += fabs(q == i ? 1.0 : lu[i * n + q]) * fabs(lu[q * n + j]);
			scale[i * n + j] = i > j ? s / fabs(lu[j * n + j]) : s;
			e[i * n + j] = (float)lu[i * n + j];
		}

	memset(&p, 0, sizeof(p));
	p.m = wgk_alloc_copy(&k, a, (size_t)n * n * 4);
	p.n = (int32_t)n;
	nb = n / LUD_BS;
	for (b = 0; b < nb; b++) {
		p.off = (int32_t)(b * LUD_BS);
		wgk_launch(&k, "lud_diagonal", (wg_dim3){ 1, 1, 1 }, (wg_dim3){ LUD_BS, 1, 1 }, &p, sizeof(p), 0);
		if (b + 1 == nb)
			break;
		wgk_launch(&k, "lud_perimeter", (wg_dim3){ nb - b - 1, 1, 1 }, (wg_dim3){ 2 * LUD_BS, 1, 1 }, &p,
			   sizeof(p), 0);
		wgk_launch(&k, "lud_internal", (wg_dim3){ nb - b - 1, nb - b - 1, 1 }, (wg_dim3){ LUD_BS, LUD_BS, 1 },
			   &p, sizeof(p), 0);
	}
	got = wgk_xmalloc(&k, (size_t)n * n * 4);
	wgk_download(&k, got, p.m, (size_t)n * n * 4);
	bad = wgk_cmp_f32_scaled(&k, "lu", got, e, scale, (size_t)n * n, RTOL);
	printf("lud: %u x %u matrix, %u diagonal blocks, %u launches\n", n, n, nb, k.launches);
	ret = wgk_finish(&k, bad, "%u", n);
	free(a);
	free(lu);
	free(scale);
	free(e);
	free(got);
	return ret;
}
