/*
 * lib (CUDA suite, docs/suite.md): LIBOR market model Monte-Carlo
 * (kernels/cuda/lib.cu, kernel lib_paths): one thread per path, 80 forward
 * rates over 40 time steps, then a portfolio of 15 swaptions. The reference
 * replays every path in double precision with the same random numbers (the
 * polar method's uniforms are exact in FP32, so both take the same
 * rejection decisions). Tolerance per path value:
 * |got - exp| <= 2e-3 + 1e-4 * |exp|. The FP32 path carries a relative
 * error of a few 1e-6 (expf through the SFU's ex2 and 40 chained steps);
 * the swaption values B + rate * S - 1 cancel to about 1e-2 and are scaled
 * by 100 and summed over 15 options, which turns that into up to about
 * 1e-3 absolute.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define LIB_NN 80
#define LIB_NMAT 40
#define LIB_NOPT 15
#define BLOCK 64
#define ATOL 2e-3
#define RTOL 1e-4

struct lib_consts {
	float lambda[LIB_NN];
	float swaprate[LIB_NOPT];
	int32_t maturity[LIB_NOPT];
	float l0, delta;
};

struct lib_params {
	uint64_t value;
	int32_t npath;
	uint32_t seed;
	struct lib_consts c;
};

static const char usage[] =
	"LIBOR market model Monte-Carlo (kernels/cuda/lib.cu): one thread per path, a\n"
	"portfolio of swaptions valued per path; checked against a double-precision replay.\n"
	"--n N: number of paths (small 128, default 4096).";

static float uniform(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return (float)((int32_t)(x >> 21) - 1024) * (1.0f / 1024.0f);
}

static double normal(uint32_t *s)
{
	float u, v, r;

	do {
		u = uniform(s);
		v = uniform(s);
		r = u * u + v * v;	/* exact */
	} while (r >= 1.0f || r == 0.0f);
	return u * sqrt(-2.0 * log((double)r) / r);
}

static double path_value(const struct lib_consts *c, uint32_t seed, uint32_t path)
{
	double L[LIB_NN], B[LIB_NN], S[LIB_NN], b = 1.0, a = 0.0, v = 0.0;
	uint32_t s = (seed ^ (path * 0x9e3779b9u)) | 1u;
	int i, n;

	for (i = 0; i < LIB_NN; i++)
		L[i] = c->l0;
	for (n = 0; n < LIB_NMAT; n++) {
		double sqez = sqrt((double)c->delta) * normal(&s), w = 0.0;

		for (i = n + 1; i < LIB_NN; i++) {
			double lam = c->lambda[i - n - 1], con1 = c->delta * lam;

			w += con1 * L[i] / (1.0 + c->delta * L[i]);
			L[i] *= exp(con1 * w + lam * (sqez - 0.5 * con1));
		}
	}
	for (n = LIB_NMAT; n < LIB_NN; n++) {
		b = b / (1.0 + c->delta * L[n]);
		a = a + c->delta * b;
		B[n] = b;
		S[n] = a;
	}
	for (i = 0; i < LIB_NOPT; i++) {
		int m = c->maturity[i] + LIB_NMAT - 1;
		double swapval = B[m] + c->swaprate[i] * S[m] - 1.0;

		if (swapval < 0.0)
			v += -100.0 * swapval;
	}
	for (n = 0; n < LIB_NMAT; n++)
		v = v / (1.0 + c->delta * L[n]);
	return v;
}

int main(int argc, char **argv)
{
	static const int32_t maturity[LIB_NOPT] = { 4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40 };
	static const float swaprate[LIB_NOPT] = { .045f, .05f, .055f, .045f, .05f, .055f, .045f, .05f,
						  .055f, .045f, .05f, .055f, .045f, .05f, .055f };
	struct lib_params p;
	struct wgk k;
	float *value, *ref;
	double mean = 0.0;
	uint32_t npath, i;
	size_t bad;
	int ret;

	wgk_init_ptx(&k, "lib", usage, argc, argv);
	npath = (uint32_t)wgk_size(&k, 128, 4096);

	memset(&p, 0, sizeof(p));
	for (i = 0; i < LIB_NN; i++)
		p.c.lambda[i] = 0.2f;
	memcpy(p.c.swaprate, swaprate, sizeof(swaprate));
	memcpy(p.c.maturity, maturity, sizeof(maturity));
	p.c.l0 = 0.05f;
	p.c.delta = 0.25f;
	p.npath = (int32_t)npath;
	p.seed = (uint32_t)(k.opt.seed * 0x2545f491u);

	ref = wgk_xmalloc(&k, (size_t)npath * 4);
	for (i = 0; i < npath; i++) {
		double v = path_value(&p.c, p.seed, i);

		ref[i] = (float)v;
		mean += v / npath;
	}

	value = wgk_xmalloc(&k, (size_t)npath * 4);
	p.value = wgk_alloc(&k, (size_t)npath * 4);
	wgk_launch(&k, "lib_paths", (wg_dim3){ wgk_div_up(npath, BLOCK), 1, 1 }, (wg_dim3){ BLOCK, 1, 1 }, &p,
		   sizeof(p), 0);
	wgk_download(&k, value, p.value, (size_t)npath * 4);
	bad = wgk_cmp_f32(&k, "value", value, ref, npath, RTOL, ATOL);
	printf("lib: %u paths, portfolio value %.6f\n", npath, mean);
	ret = wgk_finish(&k, bad, "%u", npath);
	free(value);
	free(ref);
	return ret;
}
