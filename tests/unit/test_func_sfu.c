/* cmocka tests of the golden model: the SFU instructions (docs/isa.md section 7, docs/sfu.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "func_fixture.h"

#define ONE 0x3F800000u
#define TWO 0x40000000u
#define FOUR 0x40800000u
#define EIGHT 0x41000000u
#define HALF 0x3F000000u
#define QUARTER 0x3E800000u
#define PZERO 0x00000000u
#define NZERO 0x80000000u
#define PINF 0x7F800000u
#define NINF 0xFF800000u
#define QNAN 0x7FC00000u
#define CNAN 0x7FFFFFFFu     /* the canonical NaN */
#define NAN_NEG 0xFFC00001u
#define FMAX 0x7F7FFFFFu
#define DMIN 0x00000001u     /* smallest subnormal, 2^-149 */
#define NMIN 0x00800000u     /* smallest normal, 2^-126 */
#define NEG(x) ((x) ^ 0x80000000u)

/* Powers of two and the special operands give exact results (docs/sfu.md section 3). */
static void mufu_rcp_rsq_sqrt_exact_cases(void **state)
{
	static const struct fx_case rcp[] = {
		{ TWO, 0, 0, HALF }, { NEG(FOUR), 0, 0, NEG(QUARTER) }, { ONE, 0, 0, ONE },
		{ PZERO, 0, 0, PINF }, { NZERO, 0, 0, NINF }, { PINF, 0, 0, PZERO }, { NINF, 0, 0, NZERO },
		{ QNAN, 0, 0, CNAN }, { NAN_NEG, 0, 0, CNAN },
		{ 0x00400000u, 0, 0, 0x7F000000u },  /* 1/2^-127 = 2^127 (subnormal operand) */
		{ DMIN, 0, 0, PINF },                /* 1/2^-149 = 2^149 overflows */
		{ 0x7F000000u, 0, 0, 0x00400000u },  /* 1/2^127 = 2^-127 = 2^22 x 2^-149, subnormal */
	};
	static const struct fx_case rsq[] = {
		{ FOUR, 0, 0, HALF }, { QUARTER, 0, 0, TWO }, { PZERO, 0, 0, PINF }, { NZERO, 0, 0, NINF },
		{ PINF, 0, 0, PZERO }, { NEG(ONE), 0, 0, CNAN }, { NINF, 0, 0, CNAN }, { QNAN, 0, 0, CNAN },
		{ 0x00000008u, 0, 0, 0x64000000u },  /* 1/sqrt(2^-146) = 2^73 */
	};
	static const struct fx_case sq[] = {
		{ FOUR, 0, 0, TWO }, { 0x41800000u, 0, 0, FOUR }, { QUARTER, 0, 0, HALF },
		{ PZERO, 0, 0, PZERO }, { NZERO, 0, 0, NZERO }, { PINF, 0, 0, PINF }, { NEG(TWO), 0, 0, CNAN },
		{ 0x00000002u, 0, 0, 0x1A800000u },  /* sqrt(2^-148) = 2^-74 */
	};

	FX_CASES(*state, "MUFU.RCP R4, R1", rcp);
	FX_CASES(*state, "MUFU.RSQ R4, R1", rsq);
	FX_CASES(*state, "MUFU.SQRT R4, R1", sq);
}

static void mufu_ex2_lg2_exact_cases(void **state)
{
	static const struct fx_case ex2[] = {
		{ 0x40400000u, 0, 0, EIGHT },        /* 2^3 */
		{ NEG(ONE), 0, 0, HALF },            /* 2^-1 */
		{ PZERO, 0, 0, ONE }, { NZERO, 0, 0, ONE },
		{ 0x2E800000u, 0, 0, ONE },          /* 2^(2^-34): 1 + 4e-11 rounds to 1 */
		{ PINF, 0, 0, PINF }, { NINF, 0, 0, PZERO }, { QNAN, 0, 0, CNAN },
		{ 0x43000000u, 0, 0, PINF },         /* 2^128 overflows */
		{ 0xC3150000u, 0, 0, DMIN },         /* 2^-149 */
		{ 0xC3160000u, 0, 0, PZERO },        /* 2^-150: tie, to even = 0 */
		{ 0xC3000000u, 0, 0, 0x00200000u },  /* 2^-128: subnormal */
	};
	static const struct fx_case lg2[] = {
		{ EIGHT, 0, 0, 0x40400000u },        /* 3 */
		{ QUARTER, 0, 0, 0xC0000000u },      /* -2 */
		{ ONE, 0, 0, PZERO },
		{ DMIN, 0, 0, 0xC3150000u },         /* -149 */
		{ PZERO, 0, 0, NINF }, { NZERO, 0, 0, NINF }, { PINF, 0, 0, PINF },
		{ NEG(ONE), 0, 0, CNAN }, { NINF, 0, 0, CNAN }, { NAN_NEG, 0, 0, CNAN },
	};

	FX_CASES(*state, "MUFU.EX2 R4, R1", ex2);
	FX_CASES(*state, "MUFU.LG2 R4, R1", lg2);
}

static void mufu_sin_cos_special_cases(void **state)
{
	static const struct fx_case sn[] = {
		{ PZERO, 0, 0, PZERO }, { NZERO, 0, 0, NZERO },
		{ 0x39000000u, 0, 0, 0x39000000u },  /* |x| < 2^-12: sin x = x */
		{ DMIN, 0, 0, DMIN },
		{ PINF, 0, 0, CNAN }, { NINF, 0, 0, CNAN }, { QNAN, 0, 0, CNAN },
	};
	static const struct fx_case cs[] = {
		{ PZERO, 0, 0, ONE }, { NZERO, 0, 0, ONE }, { 0xB9000000u, 0, 0, ONE },
		{ PINF, 0, 0, CNAN }, { QNAN, 0, 0, CNAN },
	};

	FX_CASES(*state, "MUFU.SIN R4, R1", sn);
	FX_CASES(*state, "MUFU.COS R4, R1", cs);
}

static double bits_d(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return (double)f;
}

/* Run `body` over 1024 lanes of x and check R4 against `ref` within max_err
 * (ulp of the exact result, or absolute when abs_err). */
static void near(struct fx *f, const char *body, const uint32_t *x, double (*ref)(double), double max_err,
                 int abs_err)
{
	static uint32_t y[1024], z[1024], out[1024];

	fx_lanes(f, body, 1024, x, y, z, out);
	for (unsigned i = 0; i < 1024; i++) {
		double e = ref(bits_d(x[i])), g = bits_d(out[i]), err;
		int ex;

		frexp(e, &ex);
		err = abs_err ? fabs(g - e) : fabs(g - e) / ldexp(1.0, ex - 24);
		if (!(err <= max_err))
			fail_msg("%s: x=0x%08x (%a): got 0x%08x (%a), exact %a, error %g", body, x[i], bits_d(x[i]),
			         out[i], g, e, err);
	}
}

static double rcp_d(double x) { return 1.0 / x; }
static double rsq_d(double x) { return 1.0 / sqrt(x); }

/* Values spread over a range: x = lo + (hi - lo) i / 1024 rounded to FP32. */
static void spread(uint32_t *x, double lo, double hi)
{
	for (unsigned i = 0; i < 1024; i++)
		x[i] = fx_fbits((float)(lo + (hi - lo) * (i + 0.5) / 1024.0));
}

/* The accuracy of docs/sfu.md section 4 on ordinary operands. */
static void mufu_results_are_within_the_documented_error(void **state)
{
	static uint32_t x[1024];

	spread(x, 0.001, 1000.0);
	near(*state, "MUFU.RCP R4, R1", x, rcp_d, 1.0, 0);
	near(*state, "MUFU.RSQ R4, R1", x, rsq_d, 1.0, 0);
	near(*state, "MUFU.SQRT R4, R1", x, sqrt, 1.0, 0);
	near(*state, "MUFU.LG2 R4, R1", x, log2, 1.0, 0);
	spread(x, 0.5, 2.0); /* lg2 near 1: relative error stays small */
	near(*state, "MUFU.LG2 R4, R1", x, log2, 1.0, 0);
	spread(x, -120.0, 120.0);
	near(*state, "MUFU.EX2 R4, R1", x, exp2, 1.0, 0);
	spread(x, -M_PI, M_PI);
	near(*state, "MUFU.SIN R4, R1", x, sin, 0x1p-22, 1);
	near(*state, "MUFU.COS R4, R1", x, cos, 0x1p-22, 1);
	spread(x, -1e6, 1e6); /* reduction of larger arguments */
	near(*state, "MUFU.SIN R4, R1", x, sin, 0x1p-22, 1);
	near(*state, "MUFU.COS R4, R1", x, cos, 0x1p-22, 1);
}

static void fdiv_rounds_correctly_and_keeps_subnormals(void **state)
{
	static const struct fx_case c[] = {
		{ ONE, 0x40400000u, 0, 0x3EAAAAABu },      /* 1/3 = 0x1.555555p-2, rounds up */
		{ TWO, 0x40400000u, 0, 0x3F2AAAABu },      /* 2/3 */
		{ 0x40E00000u, TWO, 0, 0x40600000u },      /* 7/2 = 3.5 exact */
		{ ONE, PZERO, 0, PINF }, { NEG(ONE), PZERO, 0, NINF }, { ONE, NZERO, 0, NINF },
		{ PZERO, PZERO, 0, CNAN }, { PINF, PINF, 0, CNAN }, { PINF, TWO, 0, PINF },
		{ TWO, NINF, 0, NZERO }, { PZERO, TWO, 0, PZERO }, { QNAN, ONE, 0, CNAN },
		{ NMIN, TWO, 0, 0x00400000u },             /* gradual underflow */
		{ DMIN, TWO, 0, PZERO },                   /* 2^-150: tie, to even = 0 */
		{ 0x00000003u, TWO, 0, 0x00000002u },      /* 1.5 x 2^-149: tie, to even = 2 */
		{ FMAX, HALF, 0, PINF },                   /* overflow */
		{ DMIN, 0x3F000000u, 0, 0x00000002u },     /* subnormal / 0.5 */
		{ 0x00000003u, 0x00000002u, 0, 0x3FC00000u }, /* subnormal / subnormal = 1.5 */
	};

	FX_CASES(*state, "FDIV R4, R1, R2", c);
}

static void fsqrt_rounds_correctly(void **state)
{
	static const struct fx_case c[] = {
		{ FOUR, 0, 0, TWO }, { TWO, 0, 0, 0x3FB504F3u }, /* sqrt 2 = 1.41421354 (RN) */
		{ PZERO, 0, 0, PZERO }, { NZERO, 0, 0, NZERO }, { PINF, 0, 0, PINF },
		{ NEG(ONE), 0, 0, CNAN }, { NINF, 0, 0, CNAN }, { QNAN, 0, 0, CNAN },
		{ DMIN, 0, 0, 0x1A3504F3u },                  /* sqrt(2^-149) = sqrt 2 x 2^-75 */
	};

	FX_CASES(*state, "FSQRT R4, R1", c);
}

static void idiv_irem_signed_unsigned_and_special_cases(void **state)
{
	static const struct fx_case ds[] = {
		{ 7, 2, 0, 3 }, { (uint32_t)-7, 2, 0, (uint32_t)-3 }, { 7, (uint32_t)-2, 0, (uint32_t)-3 },
		{ (uint32_t)-7, (uint32_t)-2, 0, 3 }, { 5, 0, 0, 0xFFFFFFFFu }, { (uint32_t)-5, 0, 0, 0xFFFFFFFFu },
		{ 0x80000000u, 0xFFFFFFFFu, 0, 0x80000000u }, { 0, 3, 0, 0 },
	};
	static const struct fx_case du[] = {
		{ 0xFFFFFFFFu, 2, 0, 0x7FFFFFFFu }, { 7, 2, 0, 3 }, { 5, 0, 0, 0xFFFFFFFFu },
		{ 0x80000000u, 0xFFFFFFFFu, 0, 0 },
	};
	static const struct fx_case rs[] = {
		{ 7, 2, 0, 1 }, { (uint32_t)-7, 2, 0, (uint32_t)-1 }, { 7, (uint32_t)-2, 0, 1 },
		{ 5, 0, 0, 5 }, { (uint32_t)-5, 0, 0, (uint32_t)-5 }, { 0x80000000u, 0xFFFFFFFFu, 0, 0 },
	};
	static const struct fx_case ru[] = {
		{ 0x80000000u, 3, 0, 2 },                  /* 2^31 = 3 x 715827882 + 2 */
		{ 0xFFFFFFFFu, 0x10000u, 0, 0xFFFFu }, { 5, 0, 0, 5 },
	};

	FX_CASES(*state, "IDIV.S32 R4, R1, R2", ds);
	FX_CASES(*state, "IDIV.U32 R4, R1, R2", du);
	FX_CASES(*state, "IREM.S32 R4, R1, R2", rs);
	FX_CASES(*state, "IREM.U32 R4, R1, R2", ru);
}

static void sfu_immediate_operands(void **state)
{
	static const struct fx_case c[] = {
		{ 0x40C00000u, 0, 0, 0x40000000u },          /* 6 / 3 */
	};
	static const struct fx_case d[] = {
		{ 100, 0, 0, (uint32_t)-14 },                 /* 100 / -7 */
	};

	FX_CASES(*state, "FDIV R4, R1, 3.0", c);
	FX_CASES(*state, "IDIV.S32 R4, R1, -7", d);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(mufu_rcp_rsq_sqrt_exact_cases),
		T(mufu_ex2_lg2_exact_cases),
		T(mufu_sin_cos_special_cases),
		T(mufu_results_are_within_the_documented_error),
		T(fdiv_rounds_correctly_and_keeps_subnormals),
		T(fsqrt_rounds_correctly),
		T(idiv_irem_signed_unsigned_and_special_cases),
		T(sfu_immediate_operands),
	};

	return FX_RUN_BOTH("func_sfu", tests);
}
