/* Unit tests of the instruction table and the word encoding (host/src/isa.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "isa.h"
#include "warpgate.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned rnd_below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* A register 0..62 or RZ. */
static uint8_t rnd_reg(void)
{
	return rnd_below(8) ? (uint8_t)rnd_below(WG_NUM_GPR) : WG_REG_RZ;
}

/* The base of an aligned group of n registers inside R0..R62, or RZ. */
static uint8_t rnd_group(unsigned n)
{
	if (!rnd_below(8))
		return WG_REG_RZ;
	return (uint8_t)(rnd_below(WG_NUM_GPR / n) * n);
}

static void rnd_b(struct wg_insn *in)
{
	in->bimm = (uint8_t)rnd_below(2);
	in->b = in->bimm ? (uint32_t)rnd() : rnd_reg();
}

/* Random field values that form a legal instruction of row e. */
static void rnd_insn(const struct wg_isa_entry *e, struct wg_insn *in)
{
	unsigned n = wg_width_regs(e->mod);

	wg_insn_init(in, e);
	in->gp = (uint8_t)rnd_below(8);
	in->gneg = (uint8_t)rnd_below(2);
	switch (e->fmt) {
	case WG_FMT_N:
		break;
	case WG_FMT_RB:
		in->rd = rnd_reg();
		rnd_b(in);
		break;
	case WG_FMT_RA:
		in->rd = rnd_reg();
		in->ra = rnd_reg();
		break;
	case WG_FMT_RAB:
	case WG_FMT_RABC:
		in->rd = rnd_reg();
		in->ra = rnd_reg();
		rnd_b(in);
		if (e->fmt == WG_FMT_RABC)
			in->rc = rnd_reg();
		break;
	case WG_FMT_SEL:
		in->rd = rnd_reg();
		in->ra = rnd_reg();
		rnd_b(in);
		in->rc = (uint8_t)rnd_below(16);
		break;
	case WG_FMT_SETP:
		in->rd = (uint8_t)rnd_below(8);
		in->ra = rnd_reg();
		rnd_b(in);
		break;
	case WG_FMT_PLOP:
		in->rd = (uint8_t)rnd_below(8);
		in->ra = (uint8_t)rnd_below(16);
		in->rc = (uint8_t)rnd_below(16);
		break;
	case WG_FMT_S2R:
		in->rd = rnd_reg();
		in->b = rnd_below(WG_SR_COUNT);
		break;
	case WG_FMT_LD:
		in->rd = rnd_group(n);
		in->ra = rnd_reg();
		in->b = (uint32_t)rnd();
		break;
	case WG_FMT_ST:
		in->rc = rnd_group(n);
		in->ra = rnd_reg();
		in->b = (uint32_t)rnd();
		break;
	case WG_FMT_ATOM:
	case WG_FMT_CAS:
		in->rd = rnd_reg();
		in->ra = rnd_reg();
		rnd_b(in);
		if (e->fmt == WG_FMT_CAS)
			in->rc = rnd_reg();
		break;
	case WG_FMT_BRA:
		in->b = rnd_below(WG_PC_MAX);
		in->reconv = rnd_below(4) ? rnd_below(WG_PC_MAX) : WG_RECONV_NONE;
		break;
	case WG_FMT_BAR:
		in->b = rnd_below(WG_NUM_BARRIERS);
		break;
	default:
		fail_msg("row %s has unknown format %u", e->mnemonic, e->fmt);
	}
}

/* ------------------------------------------------------------------------ */

static void table_op_mod_pairs_are_unique(void **state)
{
	(void)state;
	for (size_t i = 0; i < wg_isa_table_len; i++)
		for (size_t j = i + 1; j < wg_isa_table_len; j++)
			if (wg_isa_table[i].op == wg_isa_table[j].op && wg_isa_table[i].mod == wg_isa_table[j].mod)
				fail_msg("%s and %s share op %u mod %u", wg_isa_table[i].mnemonic,
					 wg_isa_table[j].mnemonic, wg_isa_table[i].op, wg_isa_table[i].mod);
}

static void table_mnemonics_are_unique_ignoring_case(void **state)
{
	(void)state;
	for (size_t i = 0; i < wg_isa_table_len; i++)
		for (size_t j = i + 1; j < wg_isa_table_len; j++)
			if (!strcasecmp(wg_isa_table[i].mnemonic, wg_isa_table[j].mnemonic))
				fail_msg("mnemonic %s appears twice", wg_isa_table[i].mnemonic);
}

static void table_rows_are_well_formed(void **state)
{
	(void)state;
	assert_true(wg_isa_table_len > 100);
	for (size_t i = 0; i < wg_isa_table_len; i++) {
		const struct wg_isa_entry *e = &wg_isa_table[i];

		assert_non_null(e->mnemonic);
		assert_true(e->mnemonic[0] >= 'A' && e->mnemonic[0] <= 'Z');
		for (const char *c = e->mnemonic; *c; c++)
			assert_true((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.');
		assert_in_range(e->op, 1, WG_OP_COUNT - 1);
		assert_in_range(e->mod, 0, 7);
		assert_in_range(e->fmt, 0, WG_FMT_COUNT - 1);
		assert_in_range(e->cls, 0, WG_CLASS_COUNT - 1);
	}
}

static void table_lookup_and_find_return_every_row(void **state)
{
	(void)state;
	for (size_t i = 0; i < wg_isa_table_len; i++) {
		const struct wg_isa_entry *e = &wg_isa_table[i];
		char lower[32];

		assert_ptr_equal(wg_isa_lookup(e->op, e->mod), e);
		assert_ptr_equal(wg_isa_find(e->mnemonic), e);
		snprintf(lower, sizeof(lower), "%s", e->mnemonic);
		for (char *c = lower; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c - 'A' + 'a');
		assert_ptr_equal(wg_isa_find(lower), e);
	}
	assert_null(wg_isa_find("IADD.X"));
	assert_null(wg_isa_find(""));
	assert_null(wg_isa_lookup(0, 0));
	assert_null(wg_isa_lookup(WG_OP_MUFU, 7));
	assert_null(wg_isa_lookup(WG_OP_IDIV, 2));
	assert_null(wg_isa_lookup(39, 0));
}

static void table_spot_checks_match_the_spec(void **state)
{
	const struct wg_isa_entry *e;

	(void)state;
	e = wg_isa_find("F2I.U32.RM");
	assert_non_null(e);
	assert_int_equal(e->op, WG_OP_F2I);
	assert_int_equal(e->mod, 1 | 2 << 1);
	e = wg_isa_find("LDG.CG.128");
	assert_int_equal(e->op, WG_OP_LDGCG);
	assert_int_equal(e->mod, WG_W_128);
	e = wg_isa_find("ATOMS.ADD.F32");
	assert_int_equal(e->op, WG_OP_ATOMSX);
	assert_int_equal(e->mod, 4);
	assert_int_equal(e->cls, WG_CLASS_ATOMIC);
	e = wg_isa_find("ISETP.LE.U32");
	assert_int_equal(e->op, WG_OP_ISETPU);
	assert_int_equal(e->mod, 3);
	e = wg_isa_find("STS.16");
	assert_int_equal(e->mod, WG_W_U16);
	assert_int_equal(e->fmt, WG_FMT_ST);
	assert_null(wg_isa_find("STG.S8"));
	e = wg_isa_find("ATOMG.CAS");
	assert_int_equal(e->fmt, WG_FMT_CAS);
}

static void encode_decode_round_trip_every_row_random_fields(void **state)
{
	(void)state;
	for (size_t i = 0; i < wg_isa_table_len; i++) {
		const struct wg_isa_entry *e = &wg_isa_table[i];

		for (int iter = 0; iter < 300; iter++) {
			struct wg_insn in, out;
			char why[160] = "";
			uint64_t w;

			rnd_insn(e, &in);
			w = wg_isa_encode(&in);
			if (wg_isa_decode(w, &out, why, sizeof(why)))
				fail_msg("%s: word 0x%016llx rejected: %s", e->mnemonic, (unsigned long long)w, why);
			assert_ptr_equal(out.e, e);
			assert_int_equal(out.op, e->op);
			assert_int_equal(out.mod, e->mod);
			assert_int_equal(out.gp, in.gp);
			assert_int_equal(out.gneg, in.gneg);
			assert_int_equal(out.bimm, in.bimm);
			assert_int_equal(out.rd, in.rd);
			assert_int_equal(out.ra, in.ra);
			assert_int_equal(out.rc, in.rc);
			assert_int_equal(out.b, in.b);
			if (e->fmt == WG_FMT_BRA)
				assert_int_equal(out.reconv, in.reconv);
			assert_int_equal(wg_isa_encode(&out), w);
			assert_int_equal(w >> 58, e->op);
			assert_int_equal((w >> 32) & 7, e->mod);
		}
	}
}

static void encode_places_fields_at_documented_bits(void **state)
{
	struct wg_insn in;
	uint64_t w;

	(void)state;
	/* @!P2 IADD R5, R6, 0x12345678 */
	wg_insn_init(&in, wg_isa_find("IADD"));
	in.gneg = 1;
	in.gp = 2;
	in.rd = 5;
	in.ra = 6;
	in.bimm = 1;
	in.b = 0x12345678;
	w = wg_isa_encode(&in);
	assert_int_equal(w, (uint64_t)WG_OP_IADD << 58 | 1ull << 57 | 1ull << 56 | 2ull << 53 | 5ull << 47 |
				6ull << 41 | 0x12345678);
	/* BRA 7, reconv none, unguarded */
	wg_insn_init(&in, wg_isa_find("BRA"));
	in.b = 7;
	w = wg_isa_encode(&in);
	assert_int_equal(w, (uint64_t)WG_OP_BRA << 58 | 7ull << 53 | 0x3FFFFull << 35 | 7);
	/* Unguarded NOP: gp = 7 */
	wg_insn_init(&in, wg_isa_find("NOP"));
	assert_int_equal(wg_isa_encode(&in), (uint64_t)WG_OP_NOP << 58 | 7ull << 53);
}

static void decode_rejects_unknown_opcodes_and_modifiers(void **state)
{
	(void)state;
	for (unsigned op = 0; op < 64; op++) {
		for (unsigned mod = 0; mod < 8; mod++) {
			uint64_t w = (uint64_t)op << 58 | (uint64_t)mod << 32 | 7ull << 53;
			struct wg_insn in;
			char why[160] = "";
			int ret = wg_isa_decode(w, &in, why, sizeof(why));

			if (wg_isa_lookup((uint8_t)op, (uint8_t)mod))
				continue;
			assert_int_equal(ret, WG_EILLEGAL);
			assert_non_null(strstr(why, "unknown opcode"));
		}
	}
	/* All-zero memory traps. */
	struct wg_insn in;

	assert_int_equal(wg_isa_decode(0, &in, NULL, 0), WG_EILLEGAL);
}

/* Bits of the word that a format may use (docs/isa.md section 2). */
static uint64_t field_mask(unsigned fmt, int bimm)
{
	const uint64_t always = 0x3Full << 58 | 1ull << 56 | 7ull << 53 | 7ull << 32;
	const uint64_t rd = 0x3Full << 47, ra = 0x3Full << 41, rc = 0x3Full << 35;
	const uint64_t b = 1ull << 57 | (bimm ? 0xFFFFFFFFull : 0x3F);

	switch (fmt) {
	case WG_FMT_N: return always;
	case WG_FMT_RB: return always | rd | b;
	case WG_FMT_RA: return always | rd | ra;
	case WG_FMT_RAB: return always | rd | ra | b;
	case WG_FMT_RABC: return always | rd | ra | rc | b;
	case WG_FMT_SEL: return always | rd | ra | 0xFull << 35 | b;
	case WG_FMT_SETP: return always | 7ull << 47 | ra | b;
	case WG_FMT_PLOP: return always | 7ull << 47 | 0xFull << 41 | 0xFull << 35;
	case WG_FMT_S2R: return always | rd | 0x1F;
	case WG_FMT_LD: return always | rd | ra | 0xFFFFFFFFull;
	case WG_FMT_ST: return always | ra | rc | 0xFFFFFFFFull;
	case WG_FMT_ATOM: return always | rd | ra | b;
	case WG_FMT_CAS: return always | rd | ra | rc | b;
	case WG_FMT_BRA: return always | 0x3FFFFull << 35 | 0x3FFFF;
	case WG_FMT_BAR: return always | 0xF;
	default: return 0;
	}
}

static void decode_rejects_nonzero_unused_fields(void **state)
{
	(void)state;
	for (size_t i = 0; i < wg_isa_table_len; i++) {
		const struct wg_isa_entry *e = &wg_isa_table[i];

		for (int bimm = 0; bimm <= wg_fmt_has_b(e->fmt); bimm++) {
			struct wg_insn in, out;
			uint64_t base, mask = field_mask(e->fmt, bimm);

			wg_insn_init(&in, e);
			in.bimm = (uint8_t)bimm;
			base = wg_isa_encode(&in);
			assert_int_equal(wg_isa_decode(base, &out, NULL, 0), 0);
			for (int bit = 0; bit < 64; bit++) {
				char why[160] = "";

				if (mask >> bit & 1)
					continue;
				if (!wg_isa_decode(base ^ 1ull << bit, &out, why, sizeof(why)))
					fail_msg("%s (bimm=%d): bit %d set in an unused field was accepted", e->mnemonic,
						 bimm, bit);
				assert_true(why[0] != 0);
			}
		}
	}
}

static uint64_t word(const char *mn, unsigned rd, unsigned ra, unsigned rc, int bimm, uint32_t b)
{
	struct wg_insn in;

	wg_insn_init(&in, wg_isa_find(mn));
	in.rd = (uint8_t)rd;
	in.ra = (uint8_t)ra;
	in.rc = (uint8_t)rc;
	in.bimm = (uint8_t)bimm;
	in.b = b;
	return wg_isa_encode(&in);
}

static void decode_rejects_bad_predicate_fields(void **state)
{
	struct wg_insn in;

	(void)state;
	for (unsigned v = 8; v < 64; v++) {
		assert_int_equal(wg_isa_decode(word("ISETP.EQ", v, 0, 0, 0, 0), &in, NULL, 0), WG_EILLEGAL);
		assert_int_equal(wg_isa_decode(word("FSETP.NAN", v, 0, 0, 1, 0), &in, NULL, 0), WG_EILLEGAL);
		assert_int_equal(wg_isa_decode(word("PLOP.AND", v, 0, 0, 0, 0), &in, NULL, 0), WG_EILLEGAL);
	}
	for (unsigned v = 16; v < 64; v++) {
		assert_int_equal(wg_isa_decode(word("PLOP.OR", 0, v, 0, 0, 0), &in, NULL, 0), WG_EILLEGAL);
		assert_int_equal(wg_isa_decode(word("PLOP.XOR", 0, 0, v, 0, 0), &in, NULL, 0), WG_EILLEGAL);
		assert_int_equal(wg_isa_decode(word("SEL", 0, 0, v, 0, 0), &in, NULL, 0), WG_EILLEGAL);
	}
	/* Every legal value: PT and the negate bit. */
	assert_int_equal(wg_isa_decode(word("PLOP.AND", 7, 15, 15, 0, 0), &in, NULL, 0), 0);
	assert_int_equal(wg_isa_decode(word("SEL", 1, 2, 15, 1, 5), &in, NULL, 0), 0);
}

static void decode_rejects_misaligned_vector_registers(void **state)
{
	struct wg_insn in;
	char why[160];

	(void)state;
	for (unsigned r = 0; r < 64; r++) {
		int ok64 = r == WG_REG_RZ || (r % 2 == 0 && r + 1 <= 62);
		int ok128 = r == WG_REG_RZ || (r % 4 == 0 && r + 3 <= 62);

		assert_int_equal(wg_isa_decode(word("LDG.64", r, 1, 0, 0, 0), &in, why, sizeof(why)),
				 ok64 ? 0 : WG_EILLEGAL);
		assert_int_equal(wg_isa_decode(word("LDS.128", r, 1, 0, 0, 0), &in, why, sizeof(why)),
				 ok128 ? 0 : WG_EILLEGAL);
		assert_int_equal(wg_isa_decode(word("STL.64", 0, 1, r, 0, 0), &in, why, sizeof(why)),
				 ok64 ? 0 : WG_EILLEGAL);
		assert_int_equal(wg_isa_decode(word("STG.128", 0, 1, r, 0, 0), &in, why, sizeof(why)),
				 ok128 ? 0 : WG_EILLEGAL);
		/* Scalar widths take any register. */
		assert_int_equal(wg_isa_decode(word("LDC.S16", r, 1, 0, 0, 0), &in, NULL, 0), 0);
	}
	assert_int_equal(wg_isa_decode(word("LDG.128", 62, 0, 0, 0, 0), &in, why, sizeof(why)), WG_EILLEGAL);
	assert_non_null(strstr(why, "misaligned"));
}

static void decode_rejects_out_of_range_values(void **state)
{
	struct wg_insn in;
	char why[160];

	(void)state;
	assert_int_equal(wg_isa_decode(word("S2R", 1, 0, 0, 0, WG_SR_COUNT - 1), &in, NULL, 0), 0);
	assert_int_equal(wg_isa_decode(word("S2R", 1, 0, 0, 0, WG_SR_COUNT), &in, why, sizeof(why)), WG_EILLEGAL);
	assert_int_equal(wg_isa_decode(word("BAR.SYNC", 0, 0, 0, 0, 15), &in, NULL, 0), 0);
	assert_int_equal(wg_isa_decode(word("BAR.SYNC", 0, 0, 0, 0, 16), &in, why, sizeof(why)), WG_EILLEGAL);
	assert_int_equal(wg_isa_decode(word("BRA", 0, 0, 0, 0, WG_PC_MAX - 1), &in, NULL, 0), 0);
	assert_int_equal(wg_isa_decode(word("BRA", 0, 0, 0, 0, WG_PC_MAX), &in, why, sizeof(why)), WG_EILLEGAL);
	assert_int_equal(wg_isa_decode(word("BRA", 0, 0, 0, 0, 1) | 1ull << 57, &in, NULL, 0), WG_EILLEGAL);
	/* Register B must not carry bits above bit 5. */
	assert_int_equal(wg_isa_decode(word("IADD", 1, 2, 0, 0, 3), &in, NULL, 0), 0);
	assert_int_equal(wg_isa_decode(word("IADD", 1, 2, 0, 0, 3) | 1u << 6, &in, NULL, 0), WG_EILLEGAL);
	/* Loads take no bimm. */
	assert_int_equal(wg_isa_decode(word("LDG.32", 1, 2, 0, 0, 4) | 1ull << 57, &in, NULL, 0), WG_EILLEGAL);
}

static void check_regs_limits_each_register_operand(void **state)
{
	struct wg_insn in;
	char why[160];

	(void)state;
#define CHECK(w, regs, want)                                                                        \
	do {                                                                                        \
		assert_int_equal(wg_isa_decode((w), &in, NULL, 0), 0);                              \
		assert_int_equal(wg_isa_check_regs(&in, (regs), why, sizeof(why)), (want));         \
	} while (0)
	CHECK(word("IADD", 7, 6, 0, 0, 5), 8, 0);
	CHECK(word("IADD", 8, 6, 0, 0, 5), 8, WG_EILLEGAL);
	CHECK(word("IADD", 7, 8, 0, 0, 5), 8, WG_EILLEGAL);
	CHECK(word("IADD", 7, 6, 0, 0, 8), 8, WG_EILLEGAL);            /* register B */
	CHECK(word("IADD", 7, 6, 0, 1, 200), 8, 0);                    /* immediate B is no register */
	CHECK(word("IADD", WG_REG_RZ, WG_REG_RZ, 0, 0, WG_REG_RZ), 1, 0); /* RZ always */
	CHECK(word("FFMA", 1, 2, 9, 0, 3), 8, WG_EILLEGAL);             /* rc */
	CHECK(word("LDG.128", 4, 0, 0, 0, 0), 8, 0);                    /* R4..R7 */
	CHECK(word("LDG.128", 4, 0, 0, 0, 0), 7, WG_EILLEGAL);
	CHECK(word("STS.64", 0, 0, 6, 0, 0), 8, 0);
	CHECK(word("STS.64", 0, 0, 6, 0, 0), 7, WG_EILLEGAL);
	CHECK(word("ISETP.EQ", 6, 0, 0, 1, 0), 1, 0);                   /* Pd is a predicate */
	CHECK(word("SEL", 0, 0, 15, 1, 0), 1, 0);                       /* Pc is a predicate */
	CHECK(word("PLOP.AND", 6, 15, 15, 0, 0), 1, 0);
	CHECK(word("ATOMG.CAS", 1, 2, 3, 0, 4), 4, WG_EILLEGAL);
	CHECK(word("ATOMG.CAS", 1, 2, 3, 0, 4), 5, 0);
	CHECK(word("S2R", 2, 0, 0, 0, 3), 2, WG_EILLEGAL);
#undef CHECK
	assert_non_null(strstr(why, "S2R"));
}

static void names_of_special_registers_and_classes(void **state)
{
	(void)state;
	for (unsigned i = 0; i < WG_SR_COUNT; i++) {
		assert_non_null(wg_sreg_name(i));
		assert_int_equal(wg_sreg_find(wg_sreg_name(i)), (int)i);
	}
	assert_null(wg_sreg_name(WG_SR_COUNT));
	assert_int_equal(wg_sreg_find("sr_ctaid.y"), WG_SR_CTAID_Y);
	assert_int_equal(wg_sreg_find("SR_FOO"), -1);
	assert_string_equal(wg_class_name(WG_CLASS_LDST_PARAM), "ldst_param");
	assert_string_equal(wg_class_name(99), "?");
	assert_int_equal(wg_width_bytes(WG_W_S16), 2);
	assert_int_equal(wg_width_bytes(WG_W_128), 16);
	assert_int_equal(wg_width_bytes(7), 0);
	assert_int_equal(wg_width_regs(WG_W_64), 2);
	assert_int_equal(wg_width_regs(WG_W_U8), 1);
	assert_true(wg_fmt_has_b(WG_FMT_CAS));
	assert_false(wg_fmt_has_b(WG_FMT_LD));
	assert_true(wg_fmt_writes_rd(WG_FMT_LD));
	assert_false(wg_fmt_writes_rd(WG_FMT_SETP));
}

static uint64_t word_of(const char *mn)
{
	struct wg_insn in;
	const struct wg_isa_entry *e = wg_isa_find(mn);
	assert_non_null(e);
	wg_insn_init(&in, e);
	return wg_isa_encode(&in);
}

static void needs_names_the_optional_units_and_their_first_pc(void **state)
{
	uint32_t first[2];
	(void)state;
	/* Integer, memory and control only: nothing optional. */
	uint64_t plain[] = { word_of("IADD"), word_of("LDG.32"), word_of("ATOMG.ADD"), word_of("ATOMS.INC"),
			     word_of("EXIT") };
	assert_int_equal(wg_isa_needs(plain, 5, first), 0);
	assert_int_equal(first[0], UINT32_MAX);
	assert_int_equal(first[1], UINT32_MAX);
	/* FFMA at pc 2 needs FP; MUFU.RCP at pc 3 and IDIV.S32 at pc 4 need the SFU (first: 3). */
	uint64_t mixed[] = { word_of("IADD"), word_of("NOP"), word_of("FFMA"), word_of("MUFU.RCP"),
			     word_of("FADD"), word_of("EXIT") };
	assert_int_equal(wg_isa_needs(mixed, 6, first), WG_NEED_FP | WG_NEED_SFU);
	assert_int_equal(first[0], 2);
	assert_int_equal(first[1], 3);
	/* The FP32 atomics use the LSU's FP adder: FP, in both spaces; the integer ones do not. */
	uint64_t atom[] = { word_of("ATOMG.MIN.U32"), word_of("ATOMS.ADD.F32") };
	assert_int_equal(wg_isa_needs(atom, 2, first), WG_NEED_FP);
	assert_int_equal(first[0], 1);
	atom[1] = word_of("ATOMG.ADD.F32");
	assert_int_equal(wg_isa_needs(atom, 2, NULL), WG_NEED_FP);
	/* A conversion is class FP; an undecodable word is skipped. */
	uint64_t conv[] = { ~0ull, word_of("I2F.F32.S32") };
	assert_int_equal(wg_isa_needs(conv, 2, first), WG_NEED_FP);
	assert_int_equal(first[0], 1);
	assert_int_equal(wg_isa_needs(conv, 1, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_op_mod_pairs_are_unique),
		cmocka_unit_test(needs_names_the_optional_units_and_their_first_pc),
		cmocka_unit_test(table_mnemonics_are_unique_ignoring_case),
		cmocka_unit_test(table_rows_are_well_formed),
		cmocka_unit_test(table_lookup_and_find_return_every_row),
		cmocka_unit_test(table_spot_checks_match_the_spec),
		cmocka_unit_test(encode_decode_round_trip_every_row_random_fields),
		cmocka_unit_test(encode_places_fields_at_documented_bits),
		cmocka_unit_test(decode_rejects_unknown_opcodes_and_modifiers),
		cmocka_unit_test(decode_rejects_nonzero_unused_fields),
		cmocka_unit_test(decode_rejects_bad_predicate_fields),
		cmocka_unit_test(decode_rejects_misaligned_vector_registers),
		cmocka_unit_test(decode_rejects_out_of_range_values),
		cmocka_unit_test(check_regs_limits_each_register_operand),
		cmocka_unit_test(names_of_special_registers_and_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
