/* Unit tests of the assembler (host/src/asm.c, docs/isa.md sections 2, 4 and 10). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm.h"
#include "image.h"
#include "isa.h"
#include "warpgate.h"

/* One assembler run: the image, the return code and everything written to diag. */
struct run {
	struct wg_image img;
	int ret;
	char *diag;
	size_t diag_len;
};

static int setup(void **state)
{
	struct run *r = calloc(1, sizeof(*r));

	*state = r;
	return r ? 0 : -1;
}

static void reset(struct run *r)
{
	wg_image_free(&r->img);
	free(r->diag);
	r->diag = NULL;
	r->diag_len = 0;
	r->ret = 0;
}

static int teardown(void **state)
{
	struct run *r = *state;

	reset(r);
	free(r);
	return 0;
}

static void assemble(struct run *r, const char *src)
{
	FILE *f;

	reset(r);
	f = open_memstream(&r->diag, &r->diag_len);
	assert_non_null(f);
	r->ret = wg_asm_string(&r->img, src, "t.s", f);
	fclose(f);
}

/* Assemble; expect success without any diagnostic. Returns the first kernel. */
static const struct wg_kernel *ok(struct run *r, const char *src)
{
	assemble(r, src);
	if (r->ret || r->diag_len)
		fail_msg("assembly failed (%d):\n%s", r->ret, r->diag);
	assert_true(r->img.nkernels >= 1);
	return &r->img.kernels[0];
}

/* Assemble; expect WG_ESYNTAX, an empty image and `first` as the first diagnostic line. */
static void bad(struct run *r, const char *src, const char *first)
{
	size_t n = strlen(first);

	assemble(r, src);
	if (r->ret != WG_ESYNTAX)
		fail_msg("expected WG_ESYNTAX, got %d; diag:\n%s", r->ret, r->diag);
	assert_int_equal(r->img.nkernels, 0);
	assert_null(r->img.kernels);
	if (strncmp(r->diag, first, n))
		fail_msg("first diagnostic:\n%s\nexpected:\n%s", r->diag, first);
	/* Every error names what was expected. */
	for (const char *l = r->diag; (l = strstr(l, ": error: ")); l++) {
		const char *eol = strchr(l, '\n');
		const char *exp = strstr(l, "expected");

		assert_true(exp && exp < eol);
	}
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static struct wg_insn insn(const struct wg_kernel *k, uint32_t pc)
{
	struct wg_insn in;
	char why[160];

	assert_true(pc < k->ninsns);
	if (wg_isa_decode(k->code[pc], &in, why, sizeof(why)))
		fail_msg("pc %u does not decode: %s", pc, why);
	return in;
}

static uint32_t fbits(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b;
}

#define KHEAD ".kernel k\n.regs 16\n"

/* ------------------------------------------------------------------------ */
/* Formats                                                                  */

static void assembles_every_operand_format(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, ".kernel f\n"
					  ".regs 16\n"
					  ".param u32 n\n"
					  ".param ptr p\n"
					  "\tNOP\n"
					  "\tMOV R1, 0x10\n"
					  "\tMOV R2, R1\n"
					  "\tIABS R3, R2\n"
					  "\tIADD R4, R3, -5\n"
					  "\tFFMA R5, R4, 2.0, R3\n"
					  "\tSEL R6, R5, R4, !P2\n"
					  "\tISETP.LT.U32 P3, R6, 100\n"
					  "\tPLOP.XOR P4, !P3, PT\n"
					  "\tS2R R7, SR_WARPID\n"
					  "\tLDG.128 R8, [R1+0x20]\n"
					  "\tSTS.64 [R2-8], R12\n"
					  "\tATOMG.MAX.S32 R13, [R1], R2\n"
					  "\tATOMS.CAS R14, [R3], 7, R15\n"
					  "\tBAR.SYNC 15\n"
					  "\tLDC.32 R0, [p]\n"
					  "\tEXIT\n");
	struct wg_insn in;

	assert_string_equal(k->name, "f");
	assert_int_equal(k->regs, 16);
	assert_int_equal(k->ninsns, 17);
	in = insn(k, 0);
	assert_int_equal(in.op, WG_OP_NOP);
	assert_int_equal(in.gp, WG_PRED_PT);
	in = insn(k, 1);
	assert_int_equal(in.op, WG_OP_MOV);
	assert_int_equal(in.rd, 1);
	assert_int_equal(in.bimm, 1);
	assert_int_equal(in.b, 0x10);
	in = insn(k, 2);
	assert_int_equal(in.bimm, 0);
	assert_int_equal(in.b, 1);
	in = insn(k, 3);
	assert_int_equal(in.op, WG_OP_IABS);
	assert_int_equal(in.rd, 3);
	assert_int_equal(in.ra, 2);
	in = insn(k, 4);
	assert_int_equal(in.b, 0xFFFFFFFBu);
	in = insn(k, 5);
	assert_int_equal(in.op, WG_OP_FFMA);
	assert_int_equal(in.b, fbits(2.0f));
	assert_int_equal(in.rc, 3);
	in = insn(k, 6);
	assert_int_equal(in.op, WG_OP_SEL);
	assert_int_equal(in.bimm, 0);
	assert_int_equal(in.b, 4);
	assert_int_equal(in.rc, 8 | 2);
	in = insn(k, 7);
	assert_ptr_equal(in.e, wg_isa_find("ISETP.LT.U32"));
	assert_int_equal(in.rd, 3);
	assert_int_equal(in.ra, 6);
	assert_int_equal(in.b, 100);
	in = insn(k, 8);
	assert_ptr_equal(in.e, wg_isa_find("PLOP.XOR"));
	assert_int_equal(in.rd, 4);
	assert_int_equal(in.ra, 8 | 3);
	assert_int_equal(in.rc, 7);
	in = insn(k, 9);
	assert_int_equal(in.b, WG_SR_WARPID);
	in = insn(k, 10);
	assert_ptr_equal(in.e, wg_isa_find("LDG.128"));
	assert_int_equal(in.rd, 8);
	assert_int_equal(in.ra, 1);
	assert_int_equal(in.b, 0x20);
	in = insn(k, 11);
	assert_ptr_equal(in.e, wg_isa_find("STS.64"));
	assert_int_equal(in.ra, 2);
	assert_int_equal(in.rc, 12);
	assert_int_equal(in.b, (uint32_t)-8);
	in = insn(k, 12);
	assert_ptr_equal(in.e, wg_isa_find("ATOMG.MAX.S32"));
	assert_int_equal(in.rd, 13);
	assert_int_equal(in.ra, 1);
	assert_int_equal(in.b, 2);
	in = insn(k, 13);
	assert_ptr_equal(in.e, wg_isa_find("ATOMS.CAS"));
	assert_int_equal(in.bimm, 1);
	assert_int_equal(in.b, 7);
	assert_int_equal(in.rc, 15);
	in = insn(k, 14);
	assert_int_equal(in.op, WG_OP_BAR);
	assert_int_equal(in.b, 15);
	in = insn(k, 15);
	assert_int_equal(in.ra, WG_REG_RZ);
	assert_int_equal(in.b, 8);
}

/* The special-function unit's instructions (docs/isa.md sections 7 and 9):
 * MUFU mod 0..6, FDIV, FSQRT, IDIV/IREM mod 0 signed, 1 unsigned. */
static void assembles_sfu_instructions(void **state)
{
	struct run *r = *state;
	static const struct {
		uint8_t op, mod, bimm;
		uint32_t b;
	} want[] = {
		{ WG_OP_MUFU, 0, 0, 0 }, { WG_OP_MUFU, 1, 0, 0 }, { WG_OP_MUFU, 2, 0, 0 },
		{ WG_OP_MUFU, 3, 0, 0 }, { WG_OP_MUFU, 4, 0, 0 }, { WG_OP_MUFU, 5, 0, 0 },
		{ WG_OP_MUFU, 6, 0, 0 }, { WG_OP_FDIV, 0, 0, 3 }, { WG_OP_FDIV, 0, 1, 0x3FC00000u },
		{ WG_OP_FSQRT, 0, 0, 0 }, { WG_OP_IDIV, 0, 0, 3 }, { WG_OP_IDIV, 1, 1, 7 },
		{ WG_OP_IREM, 0, 1, 0xFFFFFFF9u }, { WG_OP_IREM, 1, 0, 3 },
	};
	const struct wg_kernel *k = ok(r, KHEAD "MUFU.RCP R1, R2\n"
						"MUFU.RSQ R1, R2\n"
						"MUFU.SQRT R1, R2\n"
						"MUFU.EX2 R1, R2\n"
						"MUFU.LG2 R1, R2\n"
						"mufu.sin R1, R2\n"
						"MUFU.COS R1, R2\n"
						"FDIV R1, R2, R3\n"
						"FDIV R1, R2, 1.5\n"
						"FSQRT R1, R2\n"
						"IDIV.S32 R1, R2, R3\n"
						"IDIV.U32 R1, R2, 7\n"
						"IREM.S32 R1, R2, -7\n"
						"IREM.U32 R1, R2, R3\n"
						"EXIT\n");

	for (uint32_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct wg_insn in = insn(k, i);

		assert_int_equal(in.op, want[i].op);
		assert_int_equal(in.mod, want[i].mod);
		assert_int_equal(in.e->cls, WG_CLASS_SFU);
		assert_int_equal(in.rd, 1);
		assert_int_equal(in.ra, 2);
		assert_int_equal(in.bimm, want[i].bimm);
		assert_int_equal(in.b, want[i].b);
	}
	bad(r, KHEAD "MUFU R1, R2\nEXIT\n", "t.s:3:1: error: unknown mnemonic 'MUFU'");
	bad(r, KHEAD "MUFU.RCP R1, R2, R3\nEXIT\n", "t.s:3:");
	bad(r, KHEAD "FSQRT R1, R2, 2.0\nEXIT\n", "t.s:3:");
}

static void assembles_guards(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "@P0 NOP\n"
						"@!P3 NOP\n"
						"@PT NOP\n"
						"@!PT NOP\n"
						"@!p6 nop\n"
						"  NOP\n"
						"EXIT\n");

	assert_int_equal(insn(k, 0).gp, 0);
	assert_int_equal(insn(k, 0).gneg, 0);
	assert_int_equal(insn(k, 1).gp, 3);
	assert_int_equal(insn(k, 1).gneg, 1);
	assert_int_equal(insn(k, 3).gp, 7);
	assert_int_equal(insn(k, 3).gneg, 1);
	assert_int_equal(insn(k, 4).gp, 6);
	assert_int_equal(insn(k, 4).gneg, 1);
	/* @PT is the unguarded encoding. */
	assert_int_equal(k->code[2], k->code[5]);
}

static void assembles_integer_immediates(void **state)
{
	struct run *r = *state;
	static const uint32_t want[] = { 42, 0x1f, 0xFFFFFFD6u, 0xFFFFFFF0u, 0xFFFFFFFFu,
					 0x80000000u, 0xFFFFFFFFu, 7, 0, 10 };
	const struct wg_kernel *k = ok(r, KHEAD "MOV R0, 42\n"
						"MOV R0, 0x1F\n"
						"MOV R0, -42\n"
						"MOV R0, -0x10\n"
						"MOV R0, 4294967295\n"
						"MOV R0, -2147483648\n"
						"MOV R0, 0XFFFFFFFF\n"
						"MOV R0, +7\n"
						"MOV R0, 0\n"
						"MOV R0, 010\n"
						"EXIT\n");

	for (uint32_t i = 0; i < 10; i++) {
		struct wg_insn in = insn(k, i);

		assert_int_equal(in.bimm, 1);
		assert_int_equal(in.b, want[i]);
	}
}

static void assembles_float_literals_as_ieee_bits(void **state)
{
	struct run *r = *state;
	const uint32_t want[] = {
		0x3FC00000u, fbits(-2e-3f), 0x7F800000u, 0xFF800000u, 0x7FFFFFFFu, 0xFFFFFFFFu, fbits(1e10f),
		0x3F800000u, 0x00000000u, 0x80000000u, fbits(100.0f), 0x00800000u, 0x00000001u, 0x3DCCCCCDu,
	};
	const struct wg_kernel *k = ok(r, KHEAD "FADD R0, R0, 1.5\n"
						"FADD R0, R0, -2e-3\n"
						"FADD R0, R0, inf\n"
						"FADD R0, R0, -INF\n"
						"FADD R0, R0, nan\n"
						"FADD R0, R0, -nan\n"
						"FMUL R0, R0, 1e10\n"
						"FMUL R0, R0, 1.\n"
						"FMIN R0, R0, 0.0\n"
						"FMAX R0, R0, -0.0\n"
						"FSETP.GT P0, R0, 1E+2\n"
						"MOV R0, 1.17549435e-38\n"
						"MOV R0, 1e-45\n"
						"MOV R0, 0.1\n"
						"EXIT\n");

	for (uint32_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct wg_insn in = insn(k, i);

		assert_int_equal(in.bimm, 1);
		if (in.b != want[i])
			fail_msg("pc %u: 0x%08x, expected 0x%08x", i, in.b, want[i]);
	}
}

static void assembles_memory_operand_forms(void **state)
{
	struct run *r = *state;
	static const struct {
		uint8_t ra;
		uint32_t off;
	} want[] = {
		{ 1, 0 }, { 1, 16 }, { 1, (uint32_t)-16 }, { WG_REG_RZ, 0x40 }, { WG_REG_RZ, (uint32_t)-4 },
		{ 1, 4 }, { WG_REG_RZ, 8 }, { 1, 0xFFFFFFF0u }, { 2, 3 },
	};
	const struct wg_kernel *k = ok(r, KHEAD "LDG.32 R0, [R1]\n"
						"LDS.U8 R0, [R1+16]\n"
						"LDL.S16 R0, [R1-16]\n"
						"LDG.CG.32 R0, [0x40]\n"
						"LDS.32 R0, [-4]\n"
						"STG.32 [ R1 + 4 ], R0\n"
						"STS.8 [RZ+8], R0\n"
						"STL.16 [R1+0xfffffff0], R0\n"
						"LDG.S8 R0, [R2+1+2]\n"
						"EXIT\n");

	for (uint32_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct wg_insn in = insn(k, i);

		assert_int_equal(in.ra, want[i].ra);
		assert_int_equal(in.b, want[i].off);
	}
}

static void ldc_accepts_parameter_names_for_offsets(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD ".param u32 n\n"
						".param f32 a\n"
						".param u8[16] key\n"
						".param ptr out\n"
						"LDC.32 R0, [n]\n"
						"LDC.32 R0, [a]\n"
						"LDC.32 R0, [key+4]\n"
						"LDC.U8 R0, [R2+key]\n"
						"LDC.64 R0, [out]\n"
						"LDC.U8 R0, [key-1]\n"
						"EXIT\n");
	static const uint32_t off[] = { 0, 4, 12, 8, 24, 7 };

	assert_int_equal(k->nparams, 4);
	assert_int_equal(k->param_bytes, 32);
	for (uint32_t i = 0; i < 6; i++)
		assert_int_equal(insn(k, i).b, off[i]);
	assert_int_equal(insn(k, 3).ra, 2);
}

static void mnemonics_registers_and_directives_ignore_case(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, ".KERNEL k\n.Regs 4\n"
					  "iadd r1, r2, rz\n"
					  "ldg.cg.32 r0, [r3]\n"
					  "isetp.ge.u32 p0, r1, r2\n"
					  "s2r r0, sr_tid.x\n"
					  "Loop: bra loop\n"
					  "loop: exit\n");

	assert_ptr_equal(insn(k, 0).e, wg_isa_find("IADD"));
	assert_int_equal(insn(k, 0).b, WG_REG_RZ);
	assert_ptr_equal(insn(k, 1).e, wg_isa_find("LDG.CG.32"));
	assert_ptr_equal(insn(k, 2).e, wg_isa_find("ISETP.GE.U32"));
	assert_int_equal(insn(k, 3).b, WG_SR_TID_X);
	/* Labels are case-sensitive: "Loop" and "loop" are two labels. */
	assert_int_equal(k->nlabels, 2);
	assert_int_equal(insn(k, 4).b, 5);
}

static void comments_blank_lines_and_label_placement(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, "; leading comment\r\n"
					  "\r\n"
					  "// another\n"
					  ".kernel k ; trailing\n"
					  ".regs 2 // trailing\n"
					  "a: b : NOP ; two labels on one line\n"
					  "\n"
					  "c:\n"
					  "   EXIT//no space\n"
					  "d:");

	assert_int_equal(k->ninsns, 2);
	assert_int_equal(k->nlabels, 4);
	assert_string_equal(k->labels[0].name, "a");
	assert_int_equal(k->labels[0].pc, 0);
	assert_string_equal(k->labels[1].name, "b");
	assert_string_equal(k->labels[2].name, "c");
	assert_int_equal(k->labels[2].pc, 1);
	assert_string_equal(k->labels[3].name, "d");
	assert_int_equal(k->labels[3].pc, 2); /* after the last instruction */
}

static void labels_are_stored_sorted_by_pc_then_name(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "zeta:\n"
						"NOP\n"
						"beta:\n"
						"alpha:\n"
						"$x.1:\n"
						"NOP\n"
						"_y:\n"
						"EXIT\n");
	static const char *const names[] = { "zeta", "$x.1", "alpha", "beta", "_y" };
	static const uint32_t pcs[] = { 0, 1, 1, 1, 2 };

	assert_int_equal(k->nlabels, 5);
	for (int i = 0; i < 5; i++) {
		assert_string_equal(k->labels[i].name, names[i]);
		assert_int_equal(k->labels[i].pc, pcs[i]);
	}
}

static void directives_fill_the_kernel_headers(void **state)
{
	struct run *r = *state;

	ok(r, ".kernel first\n"
	      ".regs 63\n"
	      ".shared 4096\n"
	      ".local 0x40\n"
	      ".param u8 flag\n"
	      ".param f64 scale\n"
	      ".param s16[3] v\n"
	      "EXIT\n"
	      ".kernel second\n"
	      ".regs 1\n"
	      "EXIT\n");
	assert_int_equal(r->img.nkernels, 2);
	const struct wg_kernel *k = &r->img.kernels[0];

	assert_int_equal(k->regs, 63);
	assert_int_equal(k->shared_bytes, 4096);
	assert_int_equal(k->local_bytes, 64);
	assert_int_equal(k->nparams, 3);
	assert_int_equal(k->params[1].offset, 8);
	assert_int_equal(k->params[2].offset, 16);
	assert_int_equal(k->params[2].count, 3);
	assert_int_equal(k->params[2].type, WG_PT_S16);
	assert_int_equal(k->param_bytes, 24);
	k = &r->img.kernels[1];
	assert_string_equal(k->name, "second");
	assert_int_equal(k->regs, 1);
	assert_int_equal(k->shared_bytes, 0);
	assert_int_equal(k->param_bytes, 0);
	assert_non_null(wg_image_find(&r->img, "first"));
}

static void branch_targets_may_be_labels_or_pcs(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "@P0 BRA 2\n"
						"@P1 BRA end, 3\n"
						"NOP\n"
						"end: EXIT\n");

	assert_int_equal(insn(k, 0).b, 2);
	assert_int_equal(insn(k, 1).b, 3);
	assert_int_equal(k->nlabels, 1);
}

/* ------------------------------------------------------------------------ */
/* Reconvergence: immediate post-dominators                                 */

static uint32_t reconv_at(const struct wg_kernel *k, uint32_t pc)
{
	struct wg_insn in = insn(k, pc);

	assert_int_equal(in.op, WG_OP_BRA);
	return in.reconv;
}

static void reconv_of_if_else_is_the_join(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "ISETP.EQ P0, R0, 0\n" /* 0 */
						"@P0 BRA else\n"       /* 1 */
						"IADD R1, R1, 1\n"     /* 2 */
						"BRA join\n"           /* 3 */
						"else: IADD R1, R1, 2\n"
						"join: EXIT\n");       /* 5 */

	assert_int_equal(reconv_at(k, 1), 5);
	assert_int_equal(reconv_at(k, 3), 5); /* unconditional: its target */
}

static void reconv_of_nested_ifs(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "@P0 BRA outer\n" /* 0 */
						"IADD R1, R1, 1\n"
						"@P1 BRA inner\n" /* 2 */
						"IADD R1, R1, 2\n"
						"inner: IADD R1, R1, 3\n" /* 4 */
						"@!P2 BRA skip\n"         /* 5 */
						"IADD R1, R1, 4\n"
						"skip: IADD R1, R1, 5\n"  /* 7 */
						"outer: EXIT\n");         /* 8 */

	assert_int_equal(reconv_at(k, 0), 8);
	assert_int_equal(reconv_at(k, 2), 4);
	assert_int_equal(reconv_at(k, 5), 7);
}

static void reconv_of_loop_with_break(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "MOV R0, 0\n"                /* 0 */
						"top: IADD R0, R0, 1\n"      /* 1 */
						"ISETP.EQ P1, R0, 5\n"       /* 2 */
						"@P1 BRA done\n"             /* 3: break */
						"ISETP.LT P0, R0, 10\n"      /* 4 */
						"@P0 BRA top\n"              /* 5: back edge */
						"IADD R2, R2, 1\n"           /* 6 */
						"done: EXIT\n");             /* 7 */

	assert_int_equal(reconv_at(k, 3), 7);
	assert_int_equal(reconv_at(k, 5), 7);
}

static void reconv_of_while_loop_is_the_exit_block(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "top: ISETP.GE P0, R0, R1\n" /* 0 */
						"@P0 BRA out\n"              /* 1 */
						"IADD R0, R0, 1\n"           /* 2 */
						"BRA top\n"                  /* 3 */
						"out: STG.32 [R2], R0\n"     /* 4 */
						"EXIT\n");

	assert_int_equal(reconv_at(k, 1), 4);
	assert_int_equal(reconv_at(k, 3), 0);
}

static void reconv_is_none_when_paths_only_meet_at_exit(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "ISETP.EQ P0, R0, 0\n"
						"@P0 BRA out\n" /* 1 */
						"EXIT\n"
						"out: IADD R1, R1, 1\n"
						"EXIT\n");

	assert_int_equal(reconv_at(k, 1), WG_RECONV_NONE);
}

static void reconv_sees_guarded_exit_as_exit_and_fall_through(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "@P0 BRA skip\n" /* 0 */
						"@P1 EXIT\n"     /* 1: some lanes leave */
						"IADD R1, R1, 1\n"
						"skip: EXIT\n"   /* 3 */
						".kernel k2\n.regs 2\n"
						"@P0 BRA skip\n" /* 0 */
						"@P1 NOP\n"
						"skip: EXIT\n");

	/* Paths from pc 0 meet only at the exit: lanes may leave at pc 1. */
	assert_int_equal(reconv_at(k, 0), WG_RECONV_NONE);
	assert_int_equal(reconv_at(&r->img.kernels[1], 0), 2);
}

static void reconv_treats_pt_as_unguarded_and_not_pt_as_conditional(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "@!PT BRA b\n" /* 0: conditional */
						"IADD R1, R1, 1\n"
						"b: @PT BRA d\n" /* 2: unconditional */
						"IADD R1, R1, 2\n"
						"d: EXIT\n");

	assert_int_equal(reconv_at(k, 0), 2);
	assert_int_equal(reconv_at(k, 2), 4);
	/* An unguarded BRA that skips the end is no fall-through. */
	ok(r, KHEAD "BRA 0\n");
	assert_int_equal(reconv_at(&r->img.kernels[0], 0), WG_RECONV_NONE); /* endless: never exits */
}

static void reconv_ignores_paths_that_never_exit(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "@P0 BRA spin\n" /* 0 */
						"EXIT\n"         /* 1 */
						"spin: BRA spin\n");

	assert_int_equal(reconv_at(k, 0), 1);
	assert_int_equal(reconv_at(k, 2), WG_RECONV_NONE);
}

static void explicit_reconv_equal_to_the_ipdom_is_silent(void **state)
{
	struct run *r = *state;
	const struct wg_kernel *k = ok(r, KHEAD "@P0 BRA else, join\n"
						"NOP\n"
						"BRA join, 4\n"
						"else: NOP\n"
						"join: EXIT\n"
						".kernel e\n.regs 1\n"
						"@P0 BRA x, none\n"
						"EXIT\n"
						"x: EXIT\n");

	assert_int_equal(reconv_at(k, 0), 4);
	assert_int_equal(reconv_at(&r->img.kernels[1], 0), WG_RECONV_NONE);
}

static void explicit_reconv_that_differs_warns_and_is_used(void **state)
{
	struct run *r = *state;

	assemble(r, KHEAD "@P0 BRA else, mid\n" /* line 3 */
			  "NOP\n"
			  "mid: BRA join\n"
			  "else: NOP\n"
			  "join: EXIT\n"
			  "@P1 BRA join, 0\n" /* unreachable, line 8: ipdom is the exit */
			  "EXIT\n");
	assert_int_equal(r->ret, 0);
	assert_string_equal(r->diag,
			    "t.s:3:15: warning: reconvergence point pc 2 ('mid') differs from the immediate "
			    "post-dominator pc 4 ('join'), using pc 2 ('mid')\n"
			    "t.s:8:15: warning: reconvergence point pc 0 differs from the immediate "
			    "post-dominator none, using pc 0\n");
	assert_int_equal(reconv_at(&r->img.kernels[0], 0), 2);
	assert_int_equal(reconv_at(&r->img.kernels[0], 5), 0);
}

static void asm_reconv_helper_reports_fall_through_and_bad_code(void **state)
{
	uint64_t code[4];
	uint32_t out[4] = { 0 }, pc = 99;
	struct wg_insn in;

	(void)state;
	wg_insn_init(&in, wg_isa_find("NOP"));
	code[0] = wg_isa_encode(&in);
	wg_insn_init(&in, wg_isa_find("BRA"));
	in.gp = 0;
	in.b = 3;
	code[1] = wg_isa_encode(&in);
	wg_insn_init(&in, wg_isa_find("EXIT"));
	code[2] = wg_isa_encode(&in);
	in.gp = 1;
	code[3] = wg_isa_encode(&in); /* @P1 EXIT: falls through at the end */
	assert_int_equal(wg_asm_reconv(code, 4, out, &pc), WG_ESYNTAX);
	assert_int_equal(pc, 3);
	in.gp = WG_PRED_PT;
	code[3] = wg_isa_encode(&in);
	assert_int_equal(wg_asm_reconv(code, 4, out, &pc), 0);
	assert_int_equal(out[1], WG_RECONV_NONE);
	assert_int_equal(out[0], 0); /* untouched */
	code[2] = 0;
	assert_int_equal(wg_asm_reconv(code, 4, out, &pc), WG_EILLEGAL);
	assert_int_equal(pc, 2);
	wg_insn_init(&in, wg_isa_find("BRA"));
	in.b = 9;
	code[2] = wg_isa_encode(&in);
	assert_int_equal(wg_asm_reconv(code, 4, out, &pc), WG_EINVAL);
	assert_int_equal(pc, 2);
	assert_int_equal(wg_asm_reconv(code, 0, out, &pc), WG_ESYNTAX);
}

static void asm_reconv_handles_a_long_chain_of_branches(void **state)
{
	enum { N = 60001 };
	uint64_t *code = calloc(N, sizeof(*code));
	uint32_t *out = calloc(N, sizeof(*out)), pc;
	struct wg_insn in;

	(void)state;
	/* pc 2i: @P0 BRA 2i+2 (skips pc 2i+1: NOP); last: EXIT. Every ipdom is the next block. */
	for (uint32_t i = 0; i + 1 < N; i += 2) {
		wg_insn_init(&in, wg_isa_find("BRA"));
		in.gp = 0;
		in.b = i + 2;
		code[i] = wg_isa_encode(&in);
		wg_insn_init(&in, wg_isa_find("NOP"));
		code[i + 1] = wg_isa_encode(&in);
	}
	wg_insn_init(&in, wg_isa_find("EXIT"));
	code[N - 1] = wg_isa_encode(&in);
	assert_int_equal(wg_asm_reconv(code, N, out, &pc), 0);
	for (uint32_t i = 0; i + 1 < N; i += 2)
		assert_int_equal(out[i], i + 2);
	free(code);
	free(out);
}

/* ------------------------------------------------------------------------ */
/* Errors: each class with its exact position                               */

static void error_unknown_mnemonic(void **state)
{
	struct run *r = *state;

	bad(r, KHEAD "\tFOO R1, R2\n\tEXIT\n",
	    "t.s:3:2: error: unknown mnemonic 'FOO', expected an instruction of docs/isa.md section 9");
	bad(r, KHEAD "  @P0 IADD.X R1, R1, 1\nEXIT\n", "t.s:3:7: error: unknown mnemonic 'IADD.X'");
	bad(r, KHEAD "STG.S8 [R1], R2\nEXIT\n", "t.s:3:1: error: unknown mnemonic 'STG.S8'");
}

static void error_wrong_operand_count(void **state)
{
	struct run *r = *state;

	bad(r, KHEAD "IADD R1, R2\nEXIT\n", "t.s:3:1: error: IADD has 2 operands, expected 3: Rd, Ra, B");
	bad(r, KHEAD "EXIT R1\n", "t.s:3:6: error: EXIT has 1 operand, expected no operands");
	bad(r, KHEAD "FFMA R1, R2, R3, R4, R5\nEXIT\n",
	    "t.s:3:22: error: FFMA has 5 operands, expected 4: Rd, Ra, B, Rc");
	bad(r, KHEAD "BRA\n", "t.s:3:1: error: BRA has 0 operands, expected 1 or 2: target[, reconv]");
	bad(r, KHEAD "BRA a, b, c\na: EXIT\n", "t.s:3:11: error: BRA has 3 operands, expected 1 or 2");
	bad(r, KHEAD "IADD R1, , R2\nEXIT\n", "t.s:3:10: error: empty operand, expected Rd, Ra, B");
	bad(r, KHEAD "IADD R1, R2, 3,\nEXIT\n", "t.s:3:15: error: trailing ',', expected another operand");
}

static void error_wrong_operand_kind(void **state)
{
	struct run *r = *state;

	bad(r, KHEAD "IADD P0, R1, R2\nEXIT\n",
	    "t.s:3:6: error: bad operand 'P0', expected a register R0..R62 or RZ");
	bad(r, KHEAD "ISETP.EQ R0, R1, R2\nEXIT\n",
	    "t.s:3:10: error: bad operand 'R0', expected a predicate P0..P6 or PT");
	bad(r, KHEAD "ISETP.EQ !P0, R1, R2\nEXIT\n", "t.s:3:10: error: bad operand '!P0', expected a predicate P0");
	bad(r, KHEAD "MOV R1, foo\nEXIT\n",
	    "t.s:3:9: error: bad operand 'foo', expected a register R0..R62/RZ or an immediate");
	bad(r, KHEAD "S2R R0, SR_BOGUS\nEXIT\n", "t.s:3:9: error: unknown special register 'SR_BOGUS'");
	bad(r, KHEAD "LDG.32 R1, R2\nEXIT\n",
	    "t.s:3:12: error: bad memory operand 'R2', expected [Ra], [Ra+imm], [Ra-imm] or [imm]");
	bad(r, KHEAD "STG.32 [R1+R2], R3\nEXIT\n", "t.s:3:12: error: register 'R2' in an address offset");
	bad(r, KHEAD "PLOP.AND P0, R1, P2\nEXIT\n", "t.s:3:14: error: bad operand 'R1', expected a predicate [!]P0");
	bad(r, KHEAD "ATOMG.ADD R1, [R2+4], R3\nEXIT\n",
	    "t.s:3:19: error: address offset '4' for ATOMG.ADD, expected [Ra]");
	bad(r, KHEAD "ATOMS.EXCH R1, [8], R3\nEXIT\n", "t.s:3:17: error: address offset '8' for ATOMS.EXCH");
	bad(r, KHEAD "LDG.32 R1, []\nEXIT\n", "t.s:3:12: error: empty memory operand '[]', expected [Ra+imm]");
}

static void error_register_out_of_range(void **state)
{
	struct run *r = *state;

	bad(r, KHEAD "MOV R63, 1\nEXIT\n", "t.s:3:5: error: register 'R63' out of range, expected R0..R62 or RZ");
	bad(r, KHEAD "MOV R1, R100\nEXIT\n", "t.s:3:9: error: register 'R100' out of range");
	bad(r, KHEAD "ISETP.EQ P7, R1, 0\nEXIT\n",
	    "t.s:3:10: error: predicate 'P7' out of range, expected P0..P6 or PT");
	bad(r, KHEAD "@P7 EXIT\n", "t.s:3:1: error: bad guard '@P7', expected @P0..@P6, @PT");
}

static void error_register_beyond_regs(void **state)
{
	struct run *r = *state;

	bad(r, ".kernel k\n.regs 4\nMOV R4, 1\nEXIT\n",
	    "t.s:3:5: error: register R4 beyond the kernel's .regs 4, expected R0..R3 or RZ");
	bad(r, ".kernel k\n.regs 4\nIADD R1, R2, R9\nEXIT\n", "t.s:3:14: error: register R9 beyond");
	bad(r, ".kernel k\n.regs 3\nLDG.64 R2, [R0]\nEXIT\n",
	    "t.s:3:8: error: register group R2..R3 beyond the kernel's .regs 3, expected R0..R2");
	bad(r, ".kernel k\n.regs 4\nLDG.32 R0, [R5+4]\nEXIT\n", "t.s:3:13: error: register R5 beyond");
	/* RZ is always allowed. */
	ok(r, ".kernel k\n.regs 1\nMOV RZ, RZ\nLDG.128 RZ, [RZ]\nEXIT\n");
}

static void error_misaligned_register_group(void **state)
{
	struct run *r = *state;

	bad(r, KHEAD "LDG.64 R1, [R0]\nEXIT\n",
	    "t.s:3:8: error: register group R1..R2 is misaligned, expected an even register");
	bad(r, KHEAD "STS.128 [R0], R6\nEXIT\n",
	    "t.s:3:15: error: register group R6..R9 is misaligned, expected a multiple-of-4 register");
	bad(r, ".kernel k\n.regs 63\nLDL.128 R60, [R0]\nEXIT\n",
	    "t.s:3:9: error: register group R60..R63 runs past R62, expected a group within R0..R62");
}

static void error_bad_immediates(void **state)
{
	struct run *r = *state;

	bad(r, KHEAD "MOV R1, 0xZZ\nEXIT\n", "t.s:3:9: error: bad immediate '0xZZ'");
	bad(r, KHEAD "MOV R1, x12\nEXIT\n",
	    "t.s:3:9: error: bad operand 'x12', expected a register R0..R62/RZ or an immediate");
	bad(r, KHEAD "MOV R1, 12abc\nEXIT\n",
	    "t.s:3:9: error: bad immediate '12abc', expected a decimal, hex (0x..) or FP32 literal (1.5, -2e-3, inf, nan)");
	bad(r, KHEAD "MOV R1, 4294967296\nEXIT\n",
	    "t.s:3:9: error: immediate '4294967296' out of range, expected -2147483648..4294967295");
	bad(r, KHEAD "MOV R1, -2147483649\nEXIT\n", "t.s:3:9: error: immediate '-2147483649' out of range");
	bad(r, KHEAD "MOV R1, 0x1FFFFFFFF\nEXIT\n", "t.s:3:9: error: immediate '0x1FFFFFFFF' out of range");
	bad(r, KHEAD "FADD R1, R1, 1e39\nEXIT\n",
	    "t.s:3:14: error: FP32 literal '1e39' out of range, expected a finite binary32 value, inf or nan");
	bad(r, KHEAD "MOV R1, 1.5.2\nEXIT\n", "t.s:3:9: error: bad immediate '1.5.2'");
	bad(r, KHEAD "MOV R1, 1e\nEXIT\n", "t.s:3:9: error: bad immediate '1e'");
	bad(r, KHEAD "LDG.32 R1, [R2+1.5]\nEXIT\n",
	    "t.s:3:16: error: bad address offset '1.5', expected an integer");
	bad(r, KHEAD "LDG.32 R1, [R2+0x100000000]\nEXIT\n",
	    "t.s:3:16: error: address offset out of range, expected -2147483648..4294967295");
	bad(r, KHEAD "BAR.SYNC 16\nEXIT\n", "t.s:3:10: error: bad barrier id '16', expected an integer 0..15");
	bad(r, KHEAD "BAR.SYNC 1.0\nEXIT\n", "t.s:3:10: error: bad barrier id '1.0'");
}

static void error_duplicate_and_undefined_labels(void **state)
{
	struct run *r = *state;

	bad(r, KHEAD "a: NOP\nNOP\n  a: EXIT\n",
	    "t.s:5:3: error: duplicate label 'a' (first defined at line 3), expected a new name");
	bad(r, KHEAD "@P0 BRA nowhere\nEXIT\n",
	    "t.s:3:9: error: undefined label 'nowhere', expected a label of kernel 'k'");
	bad(r, KHEAD "@P0 BRA x, nowhere\nx: EXIT\n", "t.s:3:12: error: undefined label 'nowhere'");
	/* Labels are local to their kernel. */
	bad(r, KHEAD "a: EXIT\n.kernel k2\n.regs 1\nBRA a\n",
	    "t.s:6:5: error: undefined label 'a', expected a label of kernel 'k2'");
	bad(r, KHEAD "@P0 BRA end\nEXIT\nend:\n",
	    "t.s:3:9: error: label 'end' is past the last instruction, expected a label on an instruction");
	bad(r, KHEAD "@P0 BRA 2\nEXIT\n",
	    "t.s:3:9: error: branch target 2 beyond the kernel's 2 instructions, expected 0..1");
	bad(r, KHEAD "@P0 BRA 0, 5\nEXIT\n", "t.s:3:12: error: reconvergence pc 5 beyond the kernel's 2 instructions");
	bad(r, KHEAD "@P0 BRA -1\nEXIT\n", "t.s:3:9: error: bad branch target '-1', expected a label or a pc");
	bad(r, KHEAD "@P0 BRA a, 1.5\na: EXIT\n",
	    "t.s:3:12: error: bad reconvergence point '1.5', expected a label or a pc");
	bad(r, KHEAD "1x: EXIT\n", "t.s:3:1: error: bad label name '1x', expected [A-Za-z_.$][A-Za-z0-9_.$]*");
	bad(r, KHEAD "a23456789012345678901234567890123456789012345678901234567890abcd: EXIT\n",
	    "t.s:3:1: error: label name of 64 characters, expected at most 63");
}

static void error_kernel_structure(void **state)
{
	struct run *r = *state;

	bad(r, ".kernel k\n.regs 1\nEXIT\n\n.kernel k\n.regs 1\nEXIT\n",
	    "t.s:5:9: error: duplicate kernel 'k' (first defined at line 1), expected a new name");
	bad(r, ".kernel k\n  EXIT\n",
	    "t.s:2:3: error: missing .regs in kernel 'k', expected .regs N before the first instruction");
	bad(r, "\tEXIT\n", "t.s:1:2: error: instruction outside a kernel, expected .kernel first");
	bad(r, "top:\n", "t.s:1:1: error: label 'top' outside a kernel, expected .kernel first");
	bad(r, ".regs 4\n", "t.s:1:1: error: '.regs' outside a kernel, expected .kernel first");
	bad(r, ".kernel k\n.regs 2\n", "t.s:1:9: error: kernel 'k' has no instructions, expected at least one (EXIT)");
	bad(r, ".kernel k\n", "t.s:1:9: error: kernel 'k' has no .regs, expected .regs N (1..63)");
	bad(r, "; nothing\n", "t.s:1:1: error: no kernel in the source, expected a .kernel directive");
	bad(r, "", "t.s:1:1: error: no kernel in the source");
	bad(r, KHEAD "IADD R1, R1, 1\n",
	    "t.s:3:1: error: kernel 'k' can fall through past its last instruction, expected an unguarded EXIT or BRA at the end");
	bad(r, KHEAD "EXIT\n  @P0 EXIT\n", "t.s:4:3: error: kernel 'k' can fall through");
	bad(r, KHEAD "EXIT\n@!PT BRA 0\n", "t.s:4:1: error: kernel 'k' can fall through");
	bad(r, ".kernel 9k\n", "t.s:1:9: error: bad kernel name '9k', expected [A-Za-z_.$][A-Za-z0-9_.$]*");
	bad(r, ".kernel\n", "t.s:1:8: error: missing kernel name, expected .kernel NAME");
	bad(r, ".kernel a-b\n", "t.s:1:10: error: bad character '-' in the kernel name");
	bad(r, ".kernel a b\n.regs 1\nEXIT\n", "t.s:1:11: error: unexpected 'b' after .kernel NAME, expected end of line");
}

static void error_bad_directives(void **state)
{
	struct run *r = *state;

	bad(r, ".kernel k\n.foo 3\n",
	    "t.s:2:1: error: unknown directive '.foo', expected .kernel, .regs, .shared, .local or .param");
	bad(r, ".kernel k\n.regs 0\n", "t.s:2:7: error: value '0' for .regs out of range, expected 1..63");
	bad(r, ".kernel k\n.regs 64\n", "t.s:2:7: error: value '64' for .regs out of range");
	bad(r, ".kernel k\n.regs x\n", "t.s:2:7: error: bad value 'x' for .regs, expected an integer 1..63");
	bad(r, ".kernel k\n.regs\n", "t.s:2:6: error: missing value after .regs, expected an integer 1..63");
	bad(r, ".kernel k\n.regs 8 9\n", "t.s:2:9: error: unexpected '9' after .regs N, expected end of line");
	bad(r, ".kernel k\n.regs 8\n.regs 9\n", "t.s:3:1: error: second .regs in kernel 'k', expected one");
	bad(r, KHEAD "EXIT\n.shared 16\n",
	    "t.s:4:1: error: '.shared' after the first instruction of kernel 'k', expected it before the code");
	bad(r, KHEAD ".shared -1\nEXIT\n", "t.s:3:9: error: value '-1' for .shared out of range, expected 0..4294967295");
	bad(r, KHEAD ".local 1.5\nEXIT\n", "t.s:3:8: error: bad value '1.5' for .local");
	bad(r, KHEAD ".param u33 x\nEXIT\n",
	    "t.s:3:8: error: bad parameter type, expected u8 s8 u16 s16 u32 s32 f32 u64 s64 f64 ptr or an array like u8[16]");
	bad(r, KHEAD ".param u8[0] x\nEXIT\n", "t.s:3:11: error: bad array length '0', expected an integer 1..4096");
	bad(r, KHEAD ".param u8[4 x\nEXIT\n", "t.s:3:13: error: missing ']' in the parameter type, expected TYPE[N]");
	bad(r, KHEAD ".param u32\nEXIT\n", "t.s:3:11: error: missing parameter name, expected .param TYPE NAME");
	bad(r, KHEAD ".param u32 x\n.param f32 x\nEXIT\n",
	    "t.s:4:12: error: duplicate parameter 'x', expected a new name");
	bad(r, KHEAD ".param u8[4000] a\n.param u32[100] b\nEXIT\n",
	    "t.s:4:8: error: parameter 'b' overflows the parameter buffer, expected at most 4096 bytes in all");
	bad(r, KHEAD ".param u32 2x\nEXIT\n", "t.s:3:12: error: bad parameter name '2x'");
}

static void error_parameter_names_in_memory_operands(void **state)
{
	struct run *r = *state;

	bad(r, KHEAD ".param u32 n\nLDC.32 R1, [nope]\nEXIT\n",
	    "t.s:4:13: error: unknown parameter 'nope', expected a parameter of kernel 'k'");
	bad(r, KHEAD ".param u32 n\nLDG.32 R1, [n]\nEXIT\n",
	    "t.s:4:13: error: bad address offset 'n', expected an integer");
	bad(r, KHEAD ".param u32 n\nLDC.32 R1, [n+m]\nEXIT\n", "t.s:4:15: error: unknown parameter 'm'");
}

static void error_guards_and_stray_characters(void **state)
{
	struct run *r = *state;

	bad(r, KHEAD "@Q EXIT\n", "t.s:3:1: error: bad guard '@Q', expected @P0..@P6, @PT or a negated form such as @!P0");
	bad(r, KHEAD "@P0\nEXIT\n", "t.s:3:4: error: guard without an instruction, expected an instruction after '@P0'");
	bad(r, KHEAD "@P0,EXIT\n", "t.s:3:4: error: unexpected ',' after the guard, expected a space and an instruction");
	bad(r, KHEAD "# not a comment\nEXIT\n",
	    "t.s:3:1: error: unexpected '#', expected an instruction, a label or a directive");
	bad(r, KHEAD "EXIT # done\n", "t.s:3:6: error: EXIT has 1 operand, expected no operands");
	bad(r, KHEAD "IADD,R1\nEXIT\n", "t.s:3:5: error: unexpected ',' after the mnemonic, expected a space");
}

static void errors_are_all_reported_in_one_pass(void **state)
{
	struct run *r = *state;

	bad(r, KHEAD "FOO\n"              /* 3 */
		     "NOP\n"
		     "MOV R99, 1\n"       /* 5 */
		     "NOP\n"
		     "@P0 BRA missing\n" /* 7 */
		     "EXIT\n",
	    "t.s:3:1: error: unknown mnemonic 'FOO'");
	assert_int_equal(count(r->diag, ": error: "), 3);
	assert_non_null(strstr(r->diag, "\nt.s:5:5: error: register 'R99' out of range"));
	assert_non_null(strstr(r->diag, "\nt.s:7:9: error: undefined label 'missing'"));
}

static void errors_stop_after_twenty(void **state)
{
	struct run *r = *state;
	char src[2048] = KHEAD;

	for (int i = 0; i < 30; i++)
		strcat(src, "BOGUS\n");
	strcat(src, "EXIT\n");
	bad(r, src, "t.s:3:1: error: unknown mnemonic 'BOGUS'");
	assert_int_equal(count(r->diag, ": error: "), 20);
	assert_non_null(strstr(r->diag, "t.s:22:1: error: unknown mnemonic 'BOGUS'"));
	assert_non_null(strstr(r->diag, "t.s: too many errors (20), stopping\n"));
}

static void asm_file_reads_a_file_and_reports_open_failures(void **state)
{
	struct run *r = *state;
	char path[] = "/tmp/wg_test_asm_XXXXXX";
	int fd = mkstemp(path);
	static const char src[] = ".kernel k\n.regs 1\nEXIT\n";
	static const char nul[] = ".kernel k\n.regs 1\nEX\0IT\n";
	FILE *f;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, src, sizeof(src) - 1), (ssize_t)sizeof(src) - 1);
	close(fd);
	reset(r);
	f = open_memstream(&r->diag, &r->diag_len);
	assert_int_equal(wg_asm_file(&r->img, path, f), 0);
	fflush(f);
	assert_int_equal(r->diag_len, 0);
	assert_int_equal(r->img.nkernels, 1);
	wg_image_free(&r->img);

	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, nul, sizeof(nul) - 1), (ssize_t)sizeof(nul) - 1);
	close(fd);
	assert_int_equal(wg_asm_file(&r->img, path, f), WG_ESYNTAX);
	fflush(f);
	assert_non_null(strstr(r->diag, ":3:3: error: NUL byte in the source, expected text"));
	unlink(path);

	assert_int_equal(wg_asm_file(&r->img, "/nonexistent/k.s", f), WG_ENOENT);
	fclose(f);
	assert_non_null(strstr(r->diag, "/nonexistent/k.s: error: cannot open: "));
	assert_int_equal(r->img.nkernels, 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(assembles_every_operand_format),
		T(assembles_sfu_instructions),
		T(assembles_guards),
		T(assembles_integer_immediates),
		T(assembles_float_literals_as_ieee_bits),
		T(assembles_memory_operand_forms),
		T(ldc_accepts_parameter_names_for_offsets),
		T(mnemonics_registers_and_directives_ignore_case),
		T(comments_blank_lines_and_label_placement),
		T(labels_are_stored_sorted_by_pc_then_name),
		T(directives_fill_the_kernel_headers),
		T(branch_targets_may_be_labels_or_pcs),
		T(reconv_of_if_else_is_the_join),
		T(reconv_of_nested_ifs),
		T(reconv_of_loop_with_break),
		T(reconv_of_while_loop_is_the_exit_block),
		T(reconv_is_none_when_paths_only_meet_at_exit),
		T(reconv_sees_guarded_exit_as_exit_and_fall_through),
		T(reconv_treats_pt_as_unguarded_and_not_pt_as_conditional),
		T(reconv_ignores_paths_that_never_exit),
		T(explicit_reconv_equal_to_the_ipdom_is_silent),
		T(explicit_reconv_that_differs_warns_and_is_used),
		cmocka_unit_test(asm_reconv_helper_reports_fall_through_and_bad_code),
		cmocka_unit_test(asm_reconv_handles_a_long_chain_of_branches),
		T(error_unknown_mnemonic),
		T(error_wrong_operand_count),
		T(error_wrong_operand_kind),
		T(error_register_out_of_range),
		T(error_register_beyond_regs),
		T(error_misaligned_register_group),
		T(error_bad_immediates),
		T(error_duplicate_and_undefined_labels),
		T(error_kernel_structure),
		T(error_bad_directives),
		T(error_parameter_names_in_memory_operands),
		T(error_guards_and_stray_characters),
		T(errors_are_all_reported_in_one_pass),
		T(errors_stop_after_twenty),
		T(asm_file_reads_a_file_and_reports_open_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
