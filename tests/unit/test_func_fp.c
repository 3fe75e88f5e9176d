/* cmocka tests of the golden model: FP32 instructions (docs/isa.md section 7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "func_fixture.h"

#define ONE 0x3F800000u
#define TWO 0x40000000u
#define HALF 0x3F000000u
#define PZERO 0x00000000u
#define NZERO 0x80000000u
#define PINF 0x7F800000u
#define NINF 0xFF800000u
#define QNAN 0x7FC00000u
#define CNAN 0x7FFFFFFFu     /* the canonical NaN */
#define NAN_NEG 0xFFC00001u  /* a NaN with sign and payload */
#define SNAN 0x7F800001u     /* a signalling NaN */
#define FMAX 0x7F7FFFFFu
#define DMIN 0x00000001u     /* smallest subnormal */
#define NMIN 0x00800000u     /* smallest normal */
#define NEG(x) ((x) ^ 0x80000000u)

static void fadd_rounding_zeros_and_infinities(void **state)
{
	static const struct fx_case c[] = {
		{ ONE, TWO, 0, 0x40400000u },
		{ ONE, 0x34000000u, 0, 0x3F800001u },     /* 1 + 2^-23 exact */
		{ ONE, 0x33800000u, 0, ONE },             /* 1 + 2^-24: tie, to even */
		{ 0x3F800001u, 0x33800000u, 0, 0x3F800002u }, /* tie, odd -> up to even */
		{ ONE, NEG(ONE), 0, PZERO },              /* x + -x = +0 */
		{ NZERO, NZERO, 0, NZERO },
		{ NZERO, PZERO, 0, PZERO },
		{ FMAX, FMAX, 0, PINF },                  /* overflow */
		{ PINF, NINF, 0, CNAN },                  /* invalid */
		{ PINF, ONE, 0, PINF },
		{ DMIN, DMIN, 0, 0x00000002u },           /* subnormals kept */
		{ NMIN, NEG(DMIN), 0, 0x007FFFFFu },      /* normal - subnormal = subnormal */
		{ QNAN, ONE, 0, CNAN },
		{ NAN_NEG, ONE, 0, CNAN },
		{ SNAN, ONE, 0, CNAN },
	};

	FX_CASES(*state, "FADD R4, R1, R2", c);
}

static void fsub_and_fmul(void **state)
{
	static const struct fx_case sub[] = {
		{ ONE, ONE, 0, PZERO },
		{ NZERO, PZERO, 0, NZERO },
		{ NZERO, NZERO, 0, PZERO },
		{ PINF, PINF, 0, CNAN },
		{ 0x40400000u, ONE, 0, TWO },
	};
	static const struct fx_case mul[] = {
		{ TWO, 0x40400000u, 0, 0x40C00000u },
		{ NMIN, HALF, 0, 0x00400000u },           /* gradual underflow */
		{ DMIN, HALF, 0, PZERO },                 /* 2^-150: tie to even 0 */
		{ 0x00000003u, HALF, 0, 0x00000002u },    /* 1.5 ulp -> 2 (even) */
		{ NEG(ONE), PZERO, 0, NZERO },
		{ PZERO, PINF, 0, CNAN },
		{ FMAX, TWO, 0, PINF },
		{ NEG(FMAX), TWO, 0, NINF },
		{ QNAN, PZERO, 0, CNAN },
	};
	static const struct fx_case imm[] = {
		{ TWO, 0, 0, 0x40200000u }, /* 2 * 1.25 */
	};

	FX_CASES(*state, "FSUB R4, R1, R2", sub);
	FX_CASES(*state, "FMUL R4, R1, R2", mul);
	FX_CASES(*state, "FMUL R4, R1, 1.25", imm);
}

static void ffma_rounds_once(void **state)
{
	/* a = b = 1 + 2^-12, c = -(1 + 2^-11): a*b = 1 + 2^-11 + 2^-24 exactly. */
	static const struct fx_case fused[] = {
		{ 0x3F800800u, 0x3F800800u, 0xBF801000u, 0x33800000u }, /* 2^-24 */
		{ TWO, 0x40400000u, ONE, 0x40E00000u },
		{ PINF, PZERO, ONE, CNAN },
		{ ONE, ONE, QNAN, CNAN },
		{ ONE, NEG(ONE), ONE, PZERO },
		{ NZERO, ONE, NZERO, NZERO },
		{ FMAX, TWO, NEG(FMAX), FMAX },          /* no overflow in the intermediate */
	};
	static const struct fx_case separate[] = {
		{ 0x3F800800u, 0x3F800800u, 0xBF801000u, PZERO }, /* the product rounds first */
		{ FMAX, TWO, NEG(FMAX), PINF },
	};

	FX_CASES(*state, "FFMA R4, R1, R2, R3", fused);
	FX_CASES(*state, "FMUL R5, R1, R2\nFADD R4, R5, R3", separate);
}

static void fmin_fmax_nan_and_signed_zero(void **state)
{
	static const struct fx_case mn[] = {
		{ ONE, TWO, 0, ONE },
		{ TWO, ONE, 0, ONE },
		{ NEG(ONE), ONE, 0, NEG(ONE) },
		{ ONE, QNAN, 0, ONE },
		{ QNAN, ONE, 0, ONE },
		{ NAN_NEG, NEG(TWO), 0, NEG(TWO) },
		{ QNAN, NAN_NEG, 0, CNAN },
		{ PZERO, NZERO, 0, NZERO },
		{ NZERO, PZERO, 0, NZERO },
		{ NINF, ONE, 0, NINF },
		{ DMIN, PZERO, 0, PZERO },
		{ NEG(DMIN), NZERO, 0, NEG(DMIN) },
	};
	static const struct fx_case mx[] = {
		{ ONE, TWO, 0, TWO },
		{ NEG(ONE), ONE, 0, ONE },
		{ ONE, QNAN, 0, ONE },
		{ QNAN, NEG(ONE), 0, NEG(ONE) },
		{ SNAN, QNAN, 0, CNAN },
		{ PZERO, NZERO, 0, PZERO },
		{ NZERO, PZERO, 0, PZERO },
		{ PINF, FMAX, 0, PINF },
		{ DMIN, PZERO, 0, DMIN },
	};

	FX_CASES(*state, "FMIN R4, R1, R2", mn);
	FX_CASES(*state, "FMAX R4, R1, R2", mx);
}

/* Bit i: FSETP condition i (EQ NE LT LE GT GE NUM NAN). */
static const char fsetp_body[] =
	"MOV R4, 0\n MOV R5, 1\n"
	"FSETP.EQ P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 0\n OR R4, R4, R6\n"
	"FSETP.NE P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 1\n OR R4, R4, R6\n"
	"FSETP.LT P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 2\n OR R4, R4, R6\n"
	"FSETP.LE P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 3\n OR R4, R4, R6\n"
	"FSETP.GT P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 4\n OR R4, R4, R6\n"
	"FSETP.GE P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 5\n OR R4, R4, R6\n"
	"FSETP.NUM P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 6\n OR R4, R4, R6\n"
	"FSETP.NAN P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 7\n OR R4, R4, R6\n";

static void fsetp_ordered_comparisons(void **state)
{
	/*              EQ NE LT LE GT GE NUM NAN */
#define B(eq, ne, lt, le, gt, ge, num, nan) \
	((eq) | (ne) << 1 | (lt) << 2 | (le) << 3 | (gt) << 4 | (ge) << 5 | (num) << 6 | (nan) << 7)
	static const struct fx_case c[] = {
		{ ONE, TWO, 0, B(0, 1, 1, 1, 0, 0, 1, 0) },
		{ TWO, ONE, 0, B(0, 1, 0, 0, 1, 1, 1, 0) },
		{ ONE, ONE, 0, B(1, 0, 0, 1, 0, 1, 1, 0) },
		{ PZERO, NZERO, 0, B(1, 0, 0, 1, 0, 1, 1, 0) },  /* +0 == -0 */
		{ QNAN, ONE, 0, B(0, 0, 0, 0, 0, 0, 0, 1) },     /* NaN: every ordered compare false */
		{ ONE, NAN_NEG, 0, B(0, 0, 0, 0, 0, 0, 0, 1) },
		{ QNAN, QNAN, 0, B(0, 0, 0, 0, 0, 0, 0, 1) },
		{ NINF, PINF, 0, B(0, 1, 1, 1, 0, 0, 1, 0) },
		{ DMIN, PZERO, 0, B(0, 1, 0, 0, 1, 1, 1, 0) },
	};
#undef B

	FX_CASES(*state, fsetp_body, c);
}

static void i2f_rounds_to_nearest_even(void **state)
{
	static const struct fx_case s[] = {
		{ 0, 0, 0, PZERO },
		{ 1, 0, 0, ONE },
		{ 0xFFFFFFFFu, 0, 0, NEG(ONE) },
		{ 16777216u, 0, 0, 0x4B800000u },
		{ 16777217u, 0, 0, 0x4B800000u }, /* 2^24 + 1: tie, to even (down) */
		{ 16777219u, 0, 0, 0x4B800002u }, /* 2^24 + 3: tie, to even (up) */
		{ 0x80000000u, 0, 0, 0xCF000000u },
		{ 0x7FFFFFFFu, 0, 0, 0x4F000000u },
	};
	static const struct fx_case u[] = {
		{ 0xFFFFFFFFu, 0, 0, 0x4F800000u },
		{ 0x80000000u, 0, 0, 0x4F000000u },
		{ 16777217u, 0, 0, 0x4B800000u },
		{ 0x80000080u, 0, 0, 0x4F000000u }, /* tie at 2^31 + 2^7: to even */
		{ 0x80000181u, 0, 0, 0x4F000002u },
	};

	FX_CASES(*state, "I2F.F32.S32 R4, R1", s);
	FX_CASES(*state, "I2F.F32.U32 R4, R1", u);
}

static void f2i_every_rounding(void **state)
{
	uint32_t v[] = { fx_fbits(2.5f), fx_fbits(-2.5f), fx_fbits(1.5f), fx_fbits(-0.5f), fx_fbits(0.5f),
		         fx_fbits(-1.9f), fx_fbits(3.5f), NZERO, DMIN, NEG(DMIN) };
	/* rows: RN RZ RM RP for S32 */
	static const int32_t want[4][10] = {
		{ 2, -2, 2, 0, 0, -2, 4, 0, 0, 0 },
		{ 2, -2, 1, 0, 0, -1, 3, 0, 0, 0 },
		{ 2, -3, 1, -1, 0, -2, 3, 0, 0, -1 },
		{ 3, -2, 2, 0, 1, -1, 4, 0, 1, 0 },
	};
	static const char *const body[4] = { "F2I.S32.RN R4, R1", "F2I.S32.RZ R4, R1", "F2I.S32.RM R4, R1",
		                             "F2I.S32.RP R4, R1" };
	struct fx_case c[10];

	for (int r = 0; r < 4; r++) {
		for (int i = 0; i < 10; i++)
			c[i] = (struct fx_case){ v[i], 0, 0, (uint32_t)want[r][i] };
		fx_cases(*state, body[r], c, 10);
	}
}

static void f2i_saturates_and_maps_nan_to_zero(void **state)
{
	static const struct fx_case s[] = {
		{ 0x4F32D05Eu, 0, 0, 0x7FFFFFFFu },  /* 3e9 */
		{ 0xCF32D05Eu, 0, 0, 0x80000000u },  /* -3e9 */
		{ PINF, 0, 0, 0x7FFFFFFFu },
		{ NINF, 0, 0, 0x80000000u },
		{ QNAN, 0, 0, 0 },
		{ NAN_NEG, 0, 0, 0 },
		{ 0x4EFFFFFFu, 0, 0, 2147483520u },  /* largest float below 2^31 */
		{ 0x4F000000u, 0, 0, 0x7FFFFFFFu },  /* 2^31 */
		{ 0xCF000000u, 0, 0, 0x80000000u },  /* -2^31 fits */
	};
	const struct fx_case u[] = {
		{ NEG(ONE), 0, 0, 0 },
		{ 0x4F7FFFFFu, 0, 0, 4294967040u },  /* largest float below 2^32 */
		{ 0x4F800000u, 0, 0, 0xFFFFFFFFu },  /* 2^32 */
		{ 0x4FA7D8C0u, 0, 0, 0xFFFFFFFFu },  /* 5.632e9 */
		{ PINF, 0, 0, 0xFFFFFFFFu },
		{ NINF, 0, 0, 0 },
		{ QNAN, 0, 0, 0 },
		{ 0x4F000000u, 0, 0, 0x80000000u },  /* 2^31 */
		{ fx_fbits(2.5f), 0, 0, 2 },
	};
	const struct fx_case urm[] = {
		{ fx_fbits(-0.5f), 0, 0, 0 }, /* rounds to -1, saturates to 0 */
		{ fx_fbits(2.5f), 0, 0, 2 },
	};
	const struct fx_case urp[] = {
		{ fx_fbits(-0.5f), 0, 0, 0 },
		{ fx_fbits(0.5f), 0, 0, 1 },
		{ fx_fbits(4294967040.0f), 0, 0, 4294967040u },
	};
	const struct fx_case urz[] = {
		{ fx_fbits(-0.9f), 0, 0, 0 },
		{ fx_fbits(7.9f), 0, 0, 7 },
	};

	FX_CASES(*state, "F2I.S32.RN R4, R1", s);
	FX_CASES(*state, "F2I.U32.RN R4, R1", u);
	FX_CASES(*state, "F2I.U32.RM R4, R1", urm);
	FX_CASES(*state, "F2I.U32.RP R4, R1", urp);
	FX_CASES(*state, "F2I.U32.RZ R4, R1", urz);
}

static void frnd_every_rounding(void **state)
{
	const struct fx_case rn[] = {
		{ fx_fbits(2.5f), 0, 0, fx_fbits(2.0f) },
		{ fx_fbits(3.5f), 0, 0, fx_fbits(4.0f) },
		{ fx_fbits(-0.5f), 0, 0, NZERO },
		{ fx_fbits(-2.5f), 0, 0, fx_fbits(-2.0f) },
		{ DMIN, 0, 0, PZERO },
		{ PINF, 0, 0, PINF },
		{ QNAN, 0, 0, CNAN },
		{ NAN_NEG, 0, 0, CNAN },
		{ 0x7E967699u, 0, 0, 0x7E967699u }, /* 1e38 is integral */
		{ 0x4B000001u, 0, 0, 0x4B000001u }, /* 2^23 + 1 */
	};
	const struct fx_case rz[] = {
		{ fx_fbits(-1.5f), 0, 0, fx_fbits(-1.0f) },
		{ fx_fbits(1.9f), 0, 0, ONE },
		{ fx_fbits(-0.2f), 0, 0, NZERO },
	};
	const struct fx_case rm[] = {
		{ fx_fbits(-1.5f), 0, 0, fx_fbits(-2.0f) },
		{ NZERO, 0, 0, NZERO },
		{ DMIN, 0, 0, PZERO },
		{ NEG(DMIN), 0, 0, NEG(ONE) },
	};
	const struct fx_case rp[] = {
		{ fx_fbits(-0.5f), 0, 0, NZERO },
		{ fx_fbits(1.1f), 0, 0, TWO },
		{ DMIN, 0, 0, ONE },
		{ NINF, 0, 0, NINF },
	};

	FX_CASES(*state, "FRND.RN R4, R1", rn);
	FX_CASES(*state, "FRND.RZ R4, R1", rz);
	FX_CASES(*state, "FRND.RM R4, R1", rm);
	FX_CASES(*state, "FRND.RP R4, R1", rp);
}

static void fp_immediates_and_bit_negation(void **state)
{
	static const struct fx_case c[] = {
		{ ONE, 0, 0, 0x3FC00000u }, /* 1 + 0.5 */
	};
	static const struct fx_case absn[] = {
		{ NEG(TWO), 0, 0, TWO },
		{ NAN_NEG, 0, 0, 0x7FC00001u }, /* AND is a bit operation: no canonicalisation */
	};

	FX_CASES(*state, "FADD R4, R1, 0.5", c);
	FX_CASES(*state, "AND R4, R1, 0x7fffffff", absn);
}

/* Directed rounding (mod 1 RZ, 2 RM, 3 RP), worked by hand: 1 + 2^-24 is a tie,
 * 1 + 2^-149 lies just above 1; overflow goes to infinity only when the mode rounds
 * away from zero; x + (-x) is -0 in RM only. */
static void fadd_directed_rounding(void **state)
{
	static const struct fx_case rz[] = {
		{ ONE, 0x33800000u, 0, ONE },
		{ NEG(ONE), NEG(DMIN), 0, NEG(ONE) },
		{ FMAX, FMAX, 0, FMAX },                  /* overflow: largest finite */
		{ NEG(FMAX), NEG(FMAX), 0, NEG(FMAX) },
		{ ONE, NEG(ONE), 0, PZERO },
	};
	static const struct fx_case rm[] = {
		{ ONE, 0x33800000u, 0, ONE },
		{ NEG(ONE), NEG(DMIN), 0, 0xBF800001u },  /* down, away from zero */
		{ FMAX, FMAX, 0, FMAX },
		{ NEG(FMAX), NEG(FMAX), 0, NINF },
		{ ONE, NEG(ONE), 0, NZERO },              /* x + -x = -0 */
		{ PZERO, NZERO, 0, NZERO },
		{ PZERO, PZERO, 0, PZERO },
	};
	static const struct fx_case rp[] = {
		{ ONE, 0x33800000u, 0, 0x3F800001u },
		{ ONE, DMIN, 0, 0x3F800001u },
		{ FMAX, DMIN, 0, PINF },                  /* past the largest finite: inf */
		{ NEG(FMAX), NEG(FMAX), 0, NEG(FMAX) },
		{ ONE, NEG(ONE), 0, PZERO },
	};

	FX_CASES(*state, "FADD.RZ R4, R1, R2", rz);
	FX_CASES(*state, "FADD.RM R4, R1, R2", rm);
	FX_CASES(*state, "FADD.RP R4, R1, R2", rp);
	FX_CASES(*state, "FSUB.RM R4, R1, R2", ((const struct fx_case[]){ { ONE, ONE, 0, NZERO } }));
}

static void fmul_ffma_directed_rounding_and_subnormals(void **state)
{
	static const struct fx_case mul_rm[] = {
		{ PZERO, 0x40A00000u, 0, PZERO },         /* +0 * 5 stays +0 in RM */
		{ NZERO, 0x40A00000u, 0, NZERO },
		{ DMIN, HALF, 0, PZERO },                 /* 2^-150 down */
		{ DMIN, NEG(HALF), 0, 0x80000001u },      /* -2^-150 down: -2^-149 */
		{ 0x00000003u, HALF, 0, DMIN },           /* 1.5 ulp down */
	};
	static const struct fx_case mul_rp[] = {
		{ DMIN, HALF, 0, DMIN },                  /* 2^-150 up: smallest subnormal */
		{ 0x00000003u, HALF, 0, 0x00000002u },
		{ 0x3F800800u, 0x3F800800u, 0, 0x3F801001u }, /* 1 + 2^-11 + 2^-24 up */
	};
	static const struct fx_case fma_rz[] = {
		{ ONE, ONE, 0x33800000u, ONE },
		{ FMAX, TWO, ONE, FMAX },
	};
	static const struct fx_case fma_rm[] = {
		{ ONE, ONE, NEG(ONE), NZERO },
		{ NZERO, ONE, PZERO, NZERO },             /* -0 + +0 = -0 in RM */
		{ FMAX, NEG(TWO), ONE, NINF },
	};

	FX_CASES(*state, "FMUL.RM R4, R1, R2", mul_rm);
	FX_CASES(*state, "FMUL.RP R4, R1, R2", mul_rp);
	FX_CASES(*state, "FFMA.RZ R4, R1, R2, R3", fma_rz);
	FX_CASES(*state, "FFMA.RM R4, R1, R2, R3", fma_rm);
}

/* FTZ: subnormal operands count as zeros of their sign, subnormal results become them. */
static void ftz_flushes_operands_and_results(void **state)
{
	static const struct fx_case add[] = {
		{ DMIN, DMIN, 0, PZERO },
		{ ONE, DMIN, 0, ONE },
		{ NMIN, NEG(DMIN), 0, NMIN },
	};
	static const struct fx_case mul[] = {
		{ NMIN, HALF, 0, PZERO },                 /* 2^-127 flushed */
		{ NEG(NMIN), HALF, 0, NZERO },
		/* 2^-126 - 2^-150: a tie between 0x007FFFFF and 2^-126, to even: normal, kept */
		{ 0x3F7FFFFFu, NMIN, 0, NMIN },
	};
	static const struct fx_case mul_rz[] = {
		{ 0x3F7FFFFFu, NMIN, 0, PZERO },          /* RZ: 0x007FFFFF, subnormal: flushed */
	};
	static const struct fx_case fma[] = {
		{ NMIN, ONE, NEG(DMIN), NMIN },
	};

	FX_CASES(*state, "FADD.FTZ R4, R1, R2", add);
	FX_CASES(*state, "FMUL.FTZ R4, R1, R2", mul);
	FX_CASES(*state, "FMUL.RZ.FTZ R4, R1, R2", mul_rz);
	FX_CASES(*state, "FFMA.FTZ R4, R1, R2, R3", fma);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(fadd_rounding_zeros_and_infinities),
		T(fsub_and_fmul),
		T(ffma_rounds_once),
		T(fadd_directed_rounding),
		T(fmul_ffma_directed_rounding_and_subnormals),
		T(ftz_flushes_operands_and_results),
		T(fmin_fmax_nan_and_signed_zero),
		T(fsetp_ordered_comparisons),
		T(i2f_rounds_to_nearest_even),
		T(f2i_every_rounding),
		T(f2i_saturates_and_maps_nan_to_zero),
		T(frnd_every_rounding),
		T(fp_immediates_and_bit_negation),
	};

	return FX_RUN_BOTH("func_fp", tests);
}
