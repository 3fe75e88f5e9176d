/* cmocka tests of the SFU reference arithmetic (host/src/sfu.c, docs/sfu.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "isa.h"
#include "sfu.h"

static double d_of(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return (double)f;
}

/* pack: value (v + sticky) x 2^k to binary32, round to nearest even. */
static void pack_rounds_to_nearest_even_with_subnormals(void **state)
{
	(void)state;
	assert_int_equal(wg_sfu_pack(0, 1, 0, 0), 0x3F800000u);              /* 1 */
	assert_int_equal(wg_sfu_pack(1, 3, -1, 0), 0xBFC00000u);             /* -1.5 */
	assert_int_equal(wg_sfu_pack(0, 0, 5, 0), 0);                        /* +0 */
	assert_int_equal(wg_sfu_pack(1, 0, 5, 0), 0x80000000u);              /* -0 */
	/* 2^24 + 1: halfway between 2^24 and 2^24 + 2: tie, to even (2^24) */
	assert_int_equal(wg_sfu_pack(0, (1u << 24) + 1, 0, 0), 0x4B800000u);
	/* ... but a sticky bit makes it more than half: up */
	assert_int_equal(wg_sfu_pack(0, (1u << 24) + 1, 0, 1), 0x4B800001u);
	/* 2^24 + 3: tie between +2 and +4, to even (+4) */
	assert_int_equal(wg_sfu_pack(0, (1u << 24) + 3, 0, 0), 0x4B800002u);
	/* all ones in 25 bits: rounds up to 2^25 (mantissa carry into the exponent) */
	assert_int_equal(wg_sfu_pack(0, (1u << 25) - 1, 0, 0), 0x4C000000u);
	assert_int_equal(wg_sfu_pack(0, 1, 128, 0), 0x7F800000u);            /* 2^128: overflow */
	assert_int_equal(wg_sfu_pack(0, (1ull << 25) - 1, 103, 0), 0x7F800000u); /* rounds up to 2^128 */
	assert_int_equal(wg_sfu_pack(0, 1, -149, 0), 0x00000001u);           /* smallest subnormal */
	assert_int_equal(wg_sfu_pack(0, 1, -150, 0), 0);                     /* 2^-150: tie, to 0 */
	assert_int_equal(wg_sfu_pack(0, 1, -150, 1), 0x00000001u);           /* just above: up */
	assert_int_equal(wg_sfu_pack(0, 3, -150, 0), 0x00000002u);           /* 1.5 x 2^-149: to 2 */
	assert_int_equal(wg_sfu_pack(0, 1ull << 63, -63 - 126, 0), 0x00800000u); /* 2^-126 from a 64-bit v */
	assert_int_equal(wg_sfu_pack(0, (1ull << 63) | 1, -300, 0), 0);      /* far below: 0 */
	assert_int_equal(wg_sfu_pack(0, 0xFFFFFFull, -150, 0), 0x00800000u); /* 0x7FFFFF.8 x 2^-149: tie, odd, up to the smallest normal */
}

static double ulp_of(double y)
{
	int e;

	if (fabs(y) < 0x1p-126)
		return 0x1p-149;
	frexp(y, &e);
	return ldexp(1.0, e - 24);
}

/* Max error in ulp of fn over count inputs from bit pattern lo, stepping by step. */
static double sweep(unsigned fn, uint32_t lo, uint32_t step, uint32_t count, double (*ref)(double), int absolute)
{
	double worst = 0.0;

	for (uint32_t i = 0; i < count; i++) {
		uint32_t a = lo + i * step;
		double e = ref(d_of(a)), g = d_of(wg_sfu_mufu(fn, a));
		double err = absolute ? fabs(g - e) : fabs(g - e) / ulp_of(e);

		if (!(err <= worst))
			worst = err != err ? 1e9 : err;
	}
	return worst;
}

static double rcp_d(double x) { return 1.0 / x; }
static double rsq_d(double x) { return 1.0 / sqrt(x); }

/* Exhaustive over the binades that define each function's table (the
 * results elsewhere differ only in the exponent), dense elsewhere. The bounds
 * are the figures of docs/sfu.md section 4, rounded up. */
static void mufu_accuracy_over_dense_sweeps(void **state)
{
	(void)state;
	assert_true(sweep(WG_MUFU_RCP, 0x3F800000u, 1, 1u << 23, rcp_d, 0) < 0.78);        /* [1, 2) */
	assert_true(sweep(WG_MUFU_RSQ, 0x3F800000u, 1, 1u << 24, rsq_d, 0) < 0.61);        /* [1, 4) */
	assert_true(sweep(WG_MUFU_SQRT, 0x3F800000u, 1, 1u << 24, sqrt, 0) < 0.56);        /* [1, 4) */
	assert_true(sweep(WG_MUFU_LG2, 0x3F000000u, 1, 1u << 24, log2, 0) < 0.58);         /* [0.5, 2) */
	assert_true(sweep(WG_MUFU_LG2, 0x00000001u, 127, 1u << 24, log2, 0) < 0.58);       /* all positives */
	assert_true(sweep(WG_MUFU_EX2, 0x00000000u, 61, 0x43000000u / 61, exp2, 0) < 0.54); /* [0, 128) */
	assert_true(sweep(WG_MUFU_EX2, 0x80000000u, 61, 0x42FC0000u / 61, exp2, 0) < 0.54); /* (-126, 0] */
	/* sin, cos: absolute error on [-pi, pi] (0x40490FDB = pi rounded) and beyond */
	assert_true(sweep(WG_MUFU_SIN, 0x00000000u, 7, 0x40490FDBu / 7, sin, 1) < 0x1.3p-25);
	assert_true(sweep(WG_MUFU_SIN, 0x80000000u, 7, 0x40490FDBu / 7, sin, 1) < 0x1.3p-25);
	assert_true(sweep(WG_MUFU_COS, 0x00000000u, 7, 0x40490FDBu / 7, cos, 1) < 0x1.3p-25);
	assert_true(sweep(WG_MUFU_SIN, 0x40490FDBu, 127, (0x7F800000u - 0x40490FDBu) / 127, sin, 1) < 0x1.3p-25);
	assert_true(sweep(WG_MUFU_COS, 0xC0490FDBu, 127, (0xFF800000u - 0xC0490FDBu) / 127, cos, 1) < 0x1.3p-25);
}

static void mufu_unknown_function_gives_nan(void **state)
{
	(void)state;
	assert_int_equal(wg_sfu_mufu(7, 0x3F800000u), 0x7FFFFFFFu);
}

/* FDIV and FSQRT equal the correctly rounded double results rounded once more
 * to binary32 (double has more than 2 x 24 + 2 bits, so this is exact). */
static void fdiv_fsqrt_match_correctly_rounded_results(void **state)
{
	uint32_t x = 12345;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		uint32_t a, b, q;
		float fq;

		x = x * 1664525u + 1013904223u;
		a = x;
		x = x * 1664525u + 1013904223u;
		b = x;
		fq = (float)(d_of(a) / d_of(b));
		memcpy(&q, &fq, 4);
		if (fq != fq)
			q = 0x7FFFFFFFu;
		assert_int_equal(wg_sfu_fdiv(a, b), q);
		fq = (float)sqrt(d_of(a));
		memcpy(&q, &fq, 4);
		if (fq != fq)
			q = 0x7FFFFFFFu;
		assert_int_equal(wg_sfu_fsqrt(a), q);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pack_rounds_to_nearest_even_with_subnormals),
		cmocka_unit_test(mufu_accuracy_over_dense_sweeps),
		cmocka_unit_test(mufu_unknown_function_gives_nan),
		cmocka_unit_test(fdiv_fsqrt_match_correctly_rounded_results),
	};

	return cmocka_run_group_tests_name("sfu", tests, NULL, NULL);
}
