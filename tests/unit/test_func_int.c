/* cmocka tests of the golden model: integer, predicate and special-register instructions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "func_fixture.h"

static void mov_add_sub_wrap_modulo_2_32(void **state)
{
	static const struct fx_case add[] = {
		{ 1, 2, 0, 3 },
		{ 0xFFFFFFFFu, 1, 0, 0 },
		{ 0x7FFFFFFFu, 1, 0, 0x80000000u },
		{ 0x80000000u, 0x80000000u, 0, 0 },
	};
	static const struct fx_case sub[] = {
		{ 1, 2, 0, 0xFFFFFFFFu },
		{ 0, 0x80000000u, 0, 0x80000000u },
		{ 5, 5, 0, 0 },
	};
	static const struct fx_case mov[] = {
		{ 1, 2, 3, 0xDEADBEEFu },
	};
	static const struct fx_case imm[] = {
		{ 10, 0, 0, 10 - 0x10 },
		{ 0, 0, 0, 0xFFFFFFF0u },
	};

	FX_CASES(*state, "IADD R4, R1, R2", add);
	FX_CASES(*state, "ISUB R4, R1, R2", sub);
	FX_CASES(*state, "MOV R4, 0xdeadbeef", mov);
	FX_CASES(*state, "IADD R4, R1, -0x10", imm);
}

static void imul_low_and_high_signed_unsigned(void **state)
{
	static const struct fx_case lo[] = {
		{ 3, 5, 0, 15 },
		{ 0xFFFFFFFFu, 0xFFFFFFFFu, 0, 1 },
		{ 0x10000u, 0x10000u, 0, 0 },
		{ 0x12345678u, 0x9ABCDEF0u, 0, 0x12345678u * 0x9ABCDEF0u },
	};
	static const struct fx_case hs[] = {
		{ 0xFFFFFFFFu, 1, 0, 0xFFFFFFFFu },          /* -1 x 1 = -1 */
		{ 0xFFFFFFFFu, 0xFFFFFFFFu, 0, 0 },          /* -1 x -1 = 1 */
		{ 0x80000000u, 0x80000000u, 0, 0x40000000u }, /* 2^62 */
		{ 0x80000000u, 2, 0, 0xFFFFFFFFu },          /* -2^32 */
		{ 0x10000u, 0x10000u, 0, 1 },
		{ 0x7FFFFFFFu, 0x80000000u, 0, 0xC0000000u },
	};
	static const struct fx_case hu[] = {
		{ 0xFFFFFFFFu, 1, 0, 0 },
		{ 0xFFFFFFFFu, 0xFFFFFFFFu, 0, 0xFFFFFFFEu },
		{ 0x80000000u, 0x80000000u, 0, 0x40000000u },
		{ 0x80000000u, 2, 0, 1 },
		{ 0x7FFFFFFFu, 0x80000000u, 0, 0x3FFFFFFFu },
	};
	static const struct fx_case mad[] = {
		{ 3, 5, 7, 22 },
		{ 0xFFFFFFFFu, 2, 3, 1 },
	};
	static const struct fx_case madhs[] = {
		{ 0xFFFFFFFFu, 1, 5, 4 },
		{ 0x80000000u, 2, 1, 0 },
	};
	static const struct fx_case madhu[] = {
		{ 0xFFFFFFFFu, 0xFFFFFFFFu, 2, 0 },
		{ 0x80000000u, 2, 1, 2 },
	};

	FX_CASES(*state, "IMUL R4, R1, R2", lo);
	FX_CASES(*state, "IMUL.HI.S32 R4, R1, R2", hs);
	FX_CASES(*state, "IMUL.HI.U32 R4, R1, R2", hu);
	FX_CASES(*state, "IMAD R4, R1, R2, R3", mad);
	FX_CASES(*state, "IMAD.HI.S32 R4, R1, R2, R3", madhs);
	FX_CASES(*state, "IMAD.HI.U32 R4, R1, R2, R3", madhu);
}

static void min_max_signed_unsigned_and_abs(void **state)
{
	static const struct fx_case mins[] = {
		{ 0xFFFFFFFFu, 1, 0, 0xFFFFFFFFu },
		{ 0x80000000u, 0x7FFFFFFFu, 0, 0x80000000u },
		{ 4, 4, 0, 4 },
	};
	static const struct fx_case minu[] = {
		{ 0xFFFFFFFFu, 1, 0, 1 },
		{ 0x80000000u, 0x7FFFFFFFu, 0, 0x7FFFFFFFu },
	};
	static const struct fx_case maxs[] = {
		{ 0xFFFFFFFFu, 1, 0, 1 },
		{ 0x80000000u, 0x7FFFFFFFu, 0, 0x7FFFFFFFu },
	};
	static const struct fx_case maxu[] = {
		{ 0xFFFFFFFFu, 1, 0, 0xFFFFFFFFu },
		{ 0x80000000u, 0x7FFFFFFFu, 0, 0x80000000u },
	};
	static const struct fx_case abs[] = {
		{ 0xFFFFFFFBu, 0, 0, 5 },
		{ 5, 0, 0, 5 },
		{ 0, 0, 0, 0 },
		{ 0x80000000u, 0, 0, 0x80000000u }, /* |INT_MIN| wraps to itself */
		{ 0x80000001u, 0, 0, 0x7FFFFFFFu },
	};

	FX_CASES(*state, "IMIN.S32 R4, R1, R2", mins);
	FX_CASES(*state, "IMIN.U32 R4, R1, R2", minu);
	FX_CASES(*state, "IMAX.S32 R4, R1, R2", maxs);
	FX_CASES(*state, "IMAX.U32 R4, R1, R2", maxu);
	FX_CASES(*state, "IABS R4, R1", abs);
}

static void bitwise_logic(void **state)
{
	static const struct fx_case and[] = { { 0xF0F0F0F0u, 0xFF00FF00u, 0, 0xF000F000u } };
	static const struct fx_case or[] = { { 0xF0F0F0F0u, 0xFF00FF00u, 0, 0xFFF0FFF0u } };
	static const struct fx_case xor[] = { { 0xF0F0F0F0u, 0xFF00FF00u, 0, 0x0FF00FF0u } };
	static const struct fx_case not[] = { { 0xF0F0F0F0u, 0, 0, 0x0F0F0F0Fu }, { 0, 0, 0, 0xFFFFFFFFu } };
	static const struct fx_case fneg[] = { { 0x3F800000u, 0, 0, 0xBF800000u } };

	FX_CASES(*state, "AND R4, R1, R2", and);
	FX_CASES(*state, "OR R4, R1, R2", or);
	FX_CASES(*state, "XOR R4, R1, R2", xor);
	FX_CASES(*state, "NOT R4, R1", not);
	FX_CASES(*state, "XOR R4, R1, 0x80000000", fneg);
}

static void shifts_by_32_or_more(void **state)
{
	static const struct fx_case shl[] = {
		{ 1, 0, 0, 1 },
		{ 1, 31, 0, 0x80000000u },
		{ 1, 32, 0, 0 },
		{ 0xFFFFFFFFu, 33, 0, 0 },
		{ 0xFFFFFFFFu, 0xFFFFFFFFu, 0, 0 },
		{ 3, 1, 0, 6 },
	};
	static const struct fx_case shru[] = {
		{ 0x80000000u, 31, 0, 1 },
		{ 0x80000000u, 32, 0, 0 },
		{ 0xFFFFFFFFu, 100, 0, 0 },
		{ 0xFFFFFFFFu, 4, 0, 0x0FFFFFFFu },
	};
	static const struct fx_case shrs[] = {
		{ 0x80000000u, 31, 0, 0xFFFFFFFFu },
		{ 0x80000000u, 32, 0, 0xFFFFFFFFu },
		{ 0x80000000u, 0xFFFFFFFFu, 0, 0xFFFFFFFFu },
		{ 0x7FFFFFFFu, 40, 0, 0 },
		{ 0xFFFFFF00u, 4, 0, 0xFFFFFFF0u },
		{ 0x40000000u, 1, 0, 0x20000000u },
	};
	static const struct fx_case imm[] = {
		{ 0x80000001u, 0, 0, 0x00000008u },
	};
	static const struct fx_case imm32[] = {
		{ 0x80000001u, 0, 0, 0xFFFFFFFFu },
	};

	FX_CASES(*state, "SHL R4, R1, R2", shl);
	FX_CASES(*state, "SHR.U32 R4, R1, R2", shru);
	FX_CASES(*state, "SHR.S32 R4, R1, R2", shrs);
	FX_CASES(*state, "SHL R4, R1, 3", imm);
	FX_CASES(*state, "SHR.S32 R4, R1, 32", imm32);
}

static void popc_clz_brev(void **state)
{
	static const struct fx_case popc[] = {
		{ 0, 0, 0, 0 }, { 0xFFFFFFFFu, 0, 0, 32 }, { 0x0F0F0001u, 0, 0, 9 }, { 0x80000000u, 0, 0, 1 },
	};
	static const struct fx_case clz[] = {
		{ 0, 0, 0, 32 }, { 1, 0, 0, 31 }, { 0x80000000u, 0, 0, 0 }, { 0x0000FFFFu, 0, 0, 16 },
	};
	static const struct fx_case brev[] = {
		{ 1, 0, 0, 0x80000000u },
		{ 0x12345678u, 0, 0, 0x1E6A2C48u },
		{ 0xFFFF0000u, 0, 0, 0x0000FFFFu },
		{ 0, 0, 0, 0 },
	};

	FX_CASES(*state, "POPC R4, R1", popc);
	FX_CASES(*state, "CLZ R4, R1", clz);
	FX_CASES(*state, "BREV R4, R1", brev);
}

static void sel_picks_by_predicate_and_negation(void **state)
{
	static const struct fx_case sel[] = {
		{ 1, 0, 0, 100 }, /* z != 0 false -> b */
		{ 1, 0, 7, 1 },
		{ 9, 0, 0xFFFFFFFFu, 9 },
	};
	static const struct fx_case nsel[] = {
		{ 1, 0, 0, 1 },
		{ 1, 0, 7, 100 },
	};

	FX_CASES(*state, "ISETP.NE P3, R3, 0\nSEL R4, R1, 100, P3", sel);
	FX_CASES(*state, "ISETP.NE P3, R3, 0\nSEL R4, R1, 100, !P3", nsel);
}

/* Bit i of the result: condition i of ISETP (EQ NE LT LE GT GE signed, then unsigned). */
static const char isetp_body[] =
	"MOV R4, 0\n"
	"MOV R5, 1\n"
	"ISETP.EQ P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 0\n OR R4, R4, R6\n"
	"ISETP.NE P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 1\n OR R4, R4, R6\n"
	"ISETP.LT P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 2\n OR R4, R4, R6\n"
	"ISETP.LE P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 3\n OR R4, R4, R6\n"
	"ISETP.GT P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 4\n OR R4, R4, R6\n"
	"ISETP.GE P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 5\n OR R4, R4, R6\n"
	"ISETP.EQ.U32 P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 6\n OR R4, R4, R6\n"
	"ISETP.NE.U32 P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 7\n OR R4, R4, R6\n"
	"ISETP.LT.U32 P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 8\n OR R4, R4, R6\n"
	"ISETP.LE.U32 P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 9\n OR R4, R4, R6\n"
	"ISETP.GT.U32 P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 10\n OR R4, R4, R6\n"
	"ISETP.GE.U32 P0, R1, R2\n SEL R6, R5, 0, P0\n SHL R6, R6, 11\n OR R4, R4, R6\n";

static uint32_t isetp_want(uint32_t a, uint32_t b)
{
	int32_t sa = (int32_t)a, sb = (int32_t)b;

	return (uint32_t)((a == b) | (a != b) << 1 | (sa < sb) << 2 | (sa <= sb) << 3 | (sa > sb) << 4 |
	                  (sa >= sb) << 5 | (a == b) << 6 | (a != b) << 7 | (a < b) << 8 | (a <= b) << 9 |
	                  (a > b) << 10 | (a >= b) << 11);
}

static void isetp_signed_versus_unsigned(void **state)
{
	static const uint32_t v[] = { 0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 5 };
	struct fx_case c[36];
	unsigned n = 0;

	for (unsigned i = 0; i < 6; i++)
		for (unsigned j = 0; j < 6; j++, n++)
			c[n] = (struct fx_case){ v[i], v[j], 0, isetp_want(v[i], v[j]) };
	/* -1 < 1 signed, but 0xFFFFFFFF > 1 unsigned */
	assert_int_equal(isetp_want(0xFFFFFFFFu, 1) & 0x104, 0x004);
	fx_cases(*state, isetp_body, c, n);
}

static void isetp_with_immediate_operand(void **state)
{
	static const struct fx_case c[] = {
		{ 0xFFFFFFFFu, 0, 0, 1 },
		{ 2, 0, 0, 0 },
	};

	FX_CASES(*state, "MOV R5, 1\nISETP.LT P1, R1, 2\nSEL R4, R5, 0, P1", c);
}

static void plop_with_negations(void **state)
{
	/* P0 = x & 1, P1 = y & 1; 12 results: AND/OR/XOR for each negation pair. */
	static const char body[] =
		"AND R5, R1, 1\n ISETP.NE P0, R5, 0\n"
		"AND R5, R2, 1\n ISETP.NE P1, R5, 0\n"
		"MOV R4, 0\n MOV R5, 1\n"
		"PLOP.AND P2, P0, P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 0\n OR R4, R4, R6\n"
		"PLOP.AND P2, !P0, P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 1\n OR R4, R4, R6\n"
		"PLOP.AND P2, P0, !P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 2\n OR R4, R4, R6\n"
		"PLOP.AND P2, !P0, !P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 3\n OR R4, R4, R6\n"
		"PLOP.OR P2, P0, P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 4\n OR R4, R4, R6\n"
		"PLOP.OR P2, !P0, P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 5\n OR R4, R4, R6\n"
		"PLOP.OR P2, P0, !P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 6\n OR R4, R4, R6\n"
		"PLOP.OR P2, !P0, !P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 7\n OR R4, R4, R6\n"
		"PLOP.XOR P2, P0, P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 8\n OR R4, R4, R6\n"
		"PLOP.XOR P2, !P0, P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 9\n OR R4, R4, R6\n"
		"PLOP.XOR P2, P0, !P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 10\n OR R4, R4, R6\n"
		"PLOP.XOR P2, !P0, !P1\n SEL R6, R5, 0, P2\n SHL R6, R6, 11\n OR R4, R4, R6\n";
	struct fx_case c[4];

	for (unsigned i = 0; i < 4; i++) {
		unsigned a = i & 1, b = i >> 1, na = !a, nb = !b;

		c[i] = (struct fx_case){ a, b, 0,
		                         (a & b) | (na & b) << 1 | (a & nb) << 2 | (na & nb) << 3 | (a | b) << 4 |
		                                 (na | b) << 5 | (a | nb) << 6 | (na | nb) << 7 | (a ^ b) << 8 |
		                                 (na ^ b) << 9 | (a ^ nb) << 10 | (na ^ nb) << 11 };
	}
	fx_cases(*state, body, c, 4);
}

static void rz_and_pt_discard_writes(void **state)
{
	static const struct fx_case c[] = {
		{ 5, 0, 0, 7 },
	};

	/* RZ stays 0 after a write; PT stays true after PLOP/ISETP write false into it. */
	FX_CASES(*state,
	         "IADD RZ, R1, 5\n"
	         "ISETP.EQ PT, R1, 0\n"
	         "PLOP.AND PT, P0, P0\n"
	         "MOV R4, RZ\n"
	         "@PT IADD R4, R4, 7\n"
	         "@!PT IADD R4, R4, 100\n",
	         c);
}

static void guarded_alu_leaves_disabled_lanes_unchanged(void **state)
{
	static const struct fx_case c[] = {
		{ 0, 0, 0, 42 },
		{ 1, 0, 0, 2 },
		{ 2, 0, 0, 42 },
		{ 3, 0, 0, 4 },
	};

	FX_CASES(*state,
	         "MOV R4, 42\n"
	         "AND R5, R1, 1\n"
	         "ISETP.EQ P1, R5, 1\n"
	         "@P1 IADD R4, R1, 1\n",
	         c);
}

static void registers_and_predicates_start_at_zero(void **state)
{
	static const struct fx_case c[] = {
		{ 0, 0, 0, 0x11 },
	};

	/* R7 never written; P5 never written (false); @!P5 runs. */
	FX_CASES(*state,
	         "MOV R4, 0x10\n"
	         "IADD R4, R4, R7\n"
	         "@!P5 IADD R4, R4, 1\n"
	         "@P5 IADD R4, R4, 0x100\n",
	         c);
}

struct sreg_params {
	uint64_t out;
};

static void special_registers_give_thread_cta_and_warp_ids(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel sregs\n"
		".regs 16\n"
		".param ptr out\n"
		"    S2R R0, SR_TID.X\n"
		"    S2R R1, SR_TID.Y\n"
		"    S2R R2, SR_TID.Z\n"
		"    S2R R3, SR_NTID.X\n"
		"    S2R R4, SR_NTID.Y\n"
		"    S2R R5, SR_NTID.Z\n"
		"    S2R R6, SR_CTAID.X\n"
		"    S2R R7, SR_CTAID.Y\n"
		"    S2R R8, SR_CTAID.Z\n"
		"    S2R R9, SR_NCTAID.X\n"
		"    S2R R10, SR_NCTAID.Y\n"
		"    S2R R11, SR_NCTAID.Z\n"
		"    S2R R12, SR_LANEID\n"
		"    S2R R13, SR_WARPID\n"
		"    S2R R14, SR_SMID\n"
		/* record of 32 words at g*128, g = linear CTA id * threads + linear tid */
		"    IMAD R15, R8, R10, R7\n"
		"    IMAD R15, R15, R9, R6\n"
		"    IMUL R15, R15, R3\n"
		"    IMUL R15, R15, R4\n"
		"    IMUL R15, R15, R5\n"
		"    IMAD R13, R13, 32, R12\n"
		"    IADD R15, R15, R13\n"
		"    SHL R15, R15, 7\n"
		"    LDC.32 R12, [out]\n"
		"    IADD R15, R15, R12\n"
		"    STG.128 [R15], R0\n"
		"    STG.128 [R15+16], R4\n"
		"    STG.128 [R15+32], R8\n"
		"    S2R R12, SR_LANEID\n"
		"    S2R R13, SR_WARPID\n"
		"    S2R R0, SR_CLOCK\n"
		"    S2R R1, SR_CLOCK\n"
		"    S2R R2, SR_CLOCKHI\n"
		"    STG.64 [R15+48], R12\n"
		"    STG.32 [R15+56], R14\n"
		"    STG.64 [R15+64], R0\n"
		"    STG.32 [R15+72], R2\n"
		"    EXIT\n");
	wg_dim3 grid = { 3, 2, 2 }, block = { 5, 4, 3 };
	uint32_t threads = 60, ctas = 12;
	struct sreg_params p = { fx_alloc(f, ctas * threads * 128) };
	const uint32_t *o;

	fx_run(f, k, grid, block, &p, 0);
	o = fx_ptr(f, (uint32_t)p.out, ctas * threads * 128);
	for (uint32_t cz = 0; cz < 2; cz++)
	for (uint32_t cy = 0; cy < 2; cy++)
	for (uint32_t cx = 0; cx < 3; cx++)
	for (uint32_t t = 0; t < threads; t++) {
		uint32_t g = ((cz * 2 + cy) * 3 + cx) * threads + t;
		const uint32_t *r = o + g * 32;
		const uint32_t want[15] = { t % 5, t / 5 % 4, t / 20, 5, 4, 3, cx, cy, cz, 3, 2, 2, t % 32, t / 32, 0 };

		for (int i = 0; i < 15; i++)
			assert_int_equal(r[i], want[i]);
		/* SR_CLOCK counts issued warp instructions: +1 per instruction of the warp. */
		assert_int_equal(r[17] - r[16], 1);
		assert_int_equal(r[18], 0);
		/* CTAs run one after the other in linear order */
		if (g >= threads)
			assert_true(r[16] > o[(g - threads) * 32 + 16]);
	}
}

static void clock_counts_warp_instructions_of_the_launch(void **state)
{
	static const struct fx_case c[] = {
		{ 0, 0, 0, 0 },
	};
	struct fx *f = *state;
	uint32_t x = 0, out = 0;

	/* S2R is the 12th instruction issued by the only warp: the clock reads the count so far, itself included. */
	fx_lanes(f, "S2R R4, SR_CLOCK\n", 1, &x, &x, &x, &out);
	assert_int_equal(out, 12);
	FX_CASES(f, "S2R R4, SR_CLOCKHI", c);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(mov_add_sub_wrap_modulo_2_32),
		T(imul_low_and_high_signed_unsigned),
		T(min_max_signed_unsigned_and_abs),
		T(bitwise_logic),
		T(shifts_by_32_or_more),
		T(popc_clz_brev),
		T(sel_picks_by_predicate_and_negation),
		T(isetp_signed_versus_unsigned),
		T(isetp_with_immediate_operand),
		T(plop_with_negations),
		T(rz_and_pt_discard_writes),
		T(guarded_alu_leaves_disabled_lanes_unchanged),
		T(registers_and_predicates_start_at_zero),
		T(special_registers_give_thread_cta_and_warp_ids),
		T(clock_counts_warp_instructions_of_the_launch),
	};

	return FX_RUN_BOTH("func_int", tests);
}
