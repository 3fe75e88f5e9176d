/* Unit tests of the disassembler (host/src/disasm.c): canonical text and asm(disasm(x)) == x. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "disasm.h"
#include "image.h"
#include "isa.h"
#include "warpgate.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static char *disasm_text(const struct wg_image *img)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(wg_disasm_image(img, f), 0);
	fclose(f);
	return text;
}

static void assemble_ok(struct wg_image *img, const char *src)
{
	char *diag = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&diag, &len);
	int ret = wg_asm_string(img, src, "t.s", f);

	fclose(f);
	if (ret || strstr(diag, "error"))
		fail_msg("assembly failed (%d):\n%s\nsource:\n%s", ret, diag, src);
	free(diag);
}

/*
 * asm(disasm(img)) must serialize to exactly the bytes of img, and the
 * disassembly of the result must be the same text.
 */
static void check_round_trip(const struct wg_image *img)
{
	uint8_t *a, *b;
	size_t alen, blen;
	struct wg_image back;
	char *text, *text2;

	assert_int_equal(wg_image_serialize(img, &a, &alen), 0);
	text = disasm_text(img);
	assemble_ok(&back, text);
	assert_int_equal(wg_image_serialize(&back, &b, &blen), 0);
	if (alen != blen || memcmp(a, b, alen)) {
		for (size_t i = 0; i < alen && i < blen; i++)
			if (a[i] != b[i]) {
				fail_msg("round trip differs at byte %zu (sizes %zu/%zu); text:\n%s", i, alen, blen, text);
				break;
			}
		fail_msg("round trip sizes differ %zu/%zu; text:\n%s", alen, blen, text);
	}
	text2 = disasm_text(&back);
	assert_string_equal(text, text2);
	free(text2);
	free(text);
	free(a);
	free(b);
	wg_image_free(&back);
}

/* ------------------------------------------------------------------------ */
/* Canonical text                                                           */

static const char canon_src[] = ".kernel k\n"
				".regs 16\n"
				".param u32 n\n"
				".param u8[16] key\n"
				".param ptr R5\n"
				"loop:\n"
				"\tiadd r1, r2, -1\n"
				"\tFADD R1, R2, 1.5\n"
				"\tFADD R1, R2, 0x7fc00000\n"
				"\tFMUL R1, R2, 1\n"
				"\tFFMA R1, R2, 1.0, RZ\n"
				"\tFMAX R1, R2, nan\n"
				"\tFMIN R1, R2, -inf\n"
				"\tFADD R1, R2, 0.1\n"
				"\tFSUB R1, R2, -0.0\n"
				"\tFSETP.NAN P2, R2, 1e10\n"
				"\tMOV R1, 1.5\n"
				"\tLDC.32 R1, [n]\n"
				"\tLDC.32 R1, [key+4]\n"
				"\tLDC.U8 R1, [R2+key]\n"
				"\tLDC.64 R2, [24]\n"
				"\tLDG.32 R1, [R2-0x10]\n"
				"\tSTS.64 [0x20], R2\n"
				"\tSTL.32 [-4], R1\n"
				"\tLDG.32 R1, [R2]\n"
				"\tLDG.CG.32 R1, [R2-0x80000000]\n"
				"\tSEL R1, R2, 5, !P3\n"
				"\tPLOP.AND P0, !P1, PT\n"
				"\tS2R R0, SR_LANEID\n"
				"\tBAR.SYNC 3\n"
				"\tATOMG.CAS R1, [R2], R3, R4\n"
				"\tATOMS.ADD.F32 RZ, [R1], 0.5\n"
				"\tATOMG.ADD R1, [R2], 1\n"
				"\t@PT NOP\n"
				"\t@!PT NOP\n"
				"\t@!P0 BRA loop\n"
				"\t@P6 BRA out, none\n"
				"\tMEMBAR.GL\n"
				"out:\n"
				"\tEXIT\n";

static const char *const canon_text[] = {
	"IADD R1, R2, 0xffffffff",
	"FADD R1, R2, 1.5",
	"FADD R1, R2, 0x7fc00000",
	"FMUL R1, R2, 1e-45",
	"FFMA R1, R2, 1.0, RZ",
	"FMAX R1, R2, nan",
	"FMIN R1, R2, -inf",
	"FADD R1, R2, 0.1",
	"FSUB R1, R2, -0.0",
	"FSETP.NAN P2, R2, 1e+10",
	"MOV R1, 0x3fc00000",
	"LDC.32 R1, [n]",
	"LDC.32 R1, [0x8]",
	"LDC.U8 R1, [R2+key]",
	"LDC.64 R2, [0x18]",
	"LDG.32 R1, [R2-0x10]",
	"STS.64 [0x20], R2",
	"STL.32 [-0x4], R1",
	"LDG.32 R1, [R2]",
	"LDG.CG.32 R1, [R2-0x80000000]",
	"SEL R1, R2, 0x5, !P3",
	"PLOP.AND P0, !P1, PT",
	"S2R R0, SR_LANEID",
	"BAR.SYNC 3",
	"ATOMG.CAS R1, [R2], R3, R4",
	"ATOMS.ADD.F32 RZ, [R1], 0.5",
	"ATOMG.ADD R1, [R2], 0x1",
	"NOP",
	"@!PT NOP",
	"@!P0 BRA loop, 30",
	"@P6 BRA out, none",
	"MEMBAR.GL",
	"EXIT",
};

static void insn_text_is_canonical(void **state)
{
	struct wg_image img;
	const struct wg_kernel *k;
	char buf[128];

	(void)state;
	assemble_ok(&img, canon_src);
	k = &img.kernels[0];
	assert_int_equal(k->ninsns, sizeof(canon_text) / sizeof(canon_text[0]));
	for (uint32_t pc = 0; pc < k->ninsns; pc++) {
		struct wg_insn in;
		int n;

		assert_int_equal(wg_isa_decode(k->code[pc], &in, NULL, 0), 0);
		n = wg_disasm_insn(k, pc, &in, buf, sizeof(buf));
		assert_int_equal(n, strlen(buf));
		if (strcmp(buf, canon_text[pc]))
			fail_msg("pc %u: '%s', expected '%s'", pc, buf, canon_text[pc]);
	}
	check_round_trip(&img);
	wg_image_free(&img);
}

static void insn_text_without_kernel_uses_numbers(void **state)
{
	struct wg_image img;
	struct wg_insn in;
	char buf[64], small[8];
	int n;

	(void)state;
	assemble_ok(&img, ".kernel k\n.regs 4\n.param u32 n\ntop: LDC.32 R1, [n]\n@P0 BRA top\nEXIT\n");
	assert_int_equal(wg_isa_decode(img.kernels[0].code[1], &in, NULL, 0), 0);
	wg_disasm_insn(NULL, 1, &in, buf, sizeof(buf));
	assert_string_equal(buf, "@P0 BRA 0, 2");
	assert_int_equal(wg_isa_decode(img.kernels[0].code[0], &in, NULL, 0), 0);
	wg_disasm_insn(NULL, 0, &in, buf, sizeof(buf));
	assert_string_equal(buf, "LDC.32 R1, [0x0]");
	/* Truncation: the full length is returned, the buffer stays terminated. */
	n = wg_disasm_insn(&img.kernels[0], 0, &in, small, sizeof(small));
	assert_int_equal(n, strlen("LDC.32 R1, [n]"));
	assert_string_equal(small, "LDC.32 ");
	wg_image_free(&img);
}

static void image_text_has_directives_params_and_labels(void **state)
{
	struct wg_image img;
	char *text;

	(void)state;
	assemble_ok(&img, ".kernel first\n.regs 8\n.shared 128\n.local 16\n"
			  ".param u8[16] key\n.param ptr out\n"
			  "a: b: NOP\nEXIT\nend:\n"
			  ".kernel second\n.regs 1\nEXIT\n");
	text = disasm_text(&img);
	assert_non_null(strstr(text, "\n.kernel first\n.regs 8\n.shared 128\n.local 16\n"
				     ".param u8[16] key ; offset 0, 16 bytes\n"
				     ".param ptr out ; offset 16, 8 bytes\n"
				     "; 24 parameter bytes\n"
				     "a:\nb:\n\tNOP\n\tEXIT\nend:\n"));
	assert_non_null(strstr(text, "\n.kernel second\n.regs 1\n\tEXIT\n"));
	assert_null(strstr(text, ".kernel second\n.regs 1\n.shared"));
	free(text);
	check_round_trip(&img);
	wg_image_free(&img);
}

static void reconv_slot_never_prints_a_label_named_none(void **state)
{
	struct wg_image img;
	char buf[64];
	struct wg_insn in;

	(void)state;
	/* A label called "none" at the reconvergence pc must print as a number there. */
	assemble_ok(&img, ".kernel k\n.regs 1\n@P0 BRA none\nNOP\nnone: EXIT\n");
	assert_int_equal(wg_isa_decode(img.kernels[0].code[0], &in, NULL, 0), 0);
	assert_int_equal(in.reconv, 2);
	wg_disasm_insn(&img.kernels[0], 0, &in, buf, sizeof(buf));
	assert_string_equal(buf, "@P0 BRA none, 2");
	check_round_trip(&img);
	wg_image_free(&img);
}

static void disasm_reports_an_illegal_word(void **state)
{
	struct wg_image img;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assemble_ok(&img, ".kernel k\n.regs 1\nNOP\nEXIT\n");
	img.kernels[0].code[0] = 0;
	f = open_memstream(&text, &len);
	assert_int_equal(wg_disasm_image(&img, f), WG_EILLEGAL);
	fclose(f);
	assert_non_null(strstr(text, "; pc 0: illegal instruction 0x0000000000000000"));
	free(text);
	wg_image_free(&img);
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                              */

static void round_trip_of_a_varied_program(void **state)
{
	struct wg_image img;

	(void)state;
	assemble_ok(&img, "; a varied program\n"
			  ".kernel saxpy\n"
			  ".regs 12\n"
			  ".param u32 n\n"
			  ".param f32 a\n"
			  ".param ptr x\n"
			  ".param ptr y\n"
			  "\tS2R R0, SR_CTAID.X\n"
			  "\tS2R R1, SR_NTID.X\n"
			  "\tS2R R2, SR_TID.X\n"
			  "\tIMAD R0, R0, R1, R2\n"
			  "\tLDC.32 R1, [n]\n"
			  "\tISETP.GE.U32 P0, R0, R1\n"
			  "\t@P0 EXIT\n"
			  "\tLDC.32 R3, [x]\n"
			  "\tLDC.32 R4, [y]\n"
			  "\tSHL R5, R0, 2\n"
			  "\tIADD R3, R3, R5\n"
			  "\tIADD R4, R4, R5\n"
			  "\tLDG.32 R6, [R3]\n"
			  "\tLDG.32 R7, [R4]\n"
			  "\tLDC.32 R1, [a]\n"
			  "\tFFMA R7, R6, R1, R7\n"
			  "\tSTG.32 [R4], R7\n"
			  "\tEXIT\n"
			  "\n"
			  ".kernel reduce\n"
			  ".regs 16\n"
			  ".shared 1024\n"
			  ".param ptr in\n"
			  ".param ptr out\n"
			  ".param u32[4] dims\n"
			  "\tS2R R0, SR_TID.X\n"
			  "\tSHL R1, R0, 2\n"
			  "\tLDC.32 R2, [in]\n"
			  "\tIADD R2, R2, R1\n"
			  "\tLDG.128 R4, [R2+0x10]\n"
			  "\tSTS.128 [R1], R4\n"
			  "\tBAR.SYNC 0\n"
			  "\tMOV R3, 128\n"
			  "loop:\n"
			  "\tISETP.LT.U32 P1, R0, R3\n"
			  "\t@!P1 BRA skip\n"
			  "\tSHL R8, R3, 2\n"
			  "\tIADD R8, R8, R1\n"
			  "\tLDS.32 R9, [R8]\n"
			  "\tLDS.32 R10, [R1]\n"
			  "\tFADD R10, R10, R9\n"
			  "\tSTS.32 [R1], R10\n"
			  "skip:\n"
			  "\tBAR.SYNC 1\n"
			  "\tSHR.U32 R3, R3, 1\n"
			  "\tISETP.NE P2, R3, 0\n"
			  "\t@P2 BRA loop\n"
			  "\tISETP.EQ P3, R0, 0\n"
			  "\t@!P3 EXIT\n"
			  "\tLDS.32 R11, [RZ]\n"
			  "\tLDC.32 R12, [out]\n"
			  "\tATOMG.ADD.F32 RZ, [R12], R11\n"
			  "\tLDC.32 R13, [dims+8]\n"
			  "\tPLOP.OR P4, !P3, P2\n"
			  "\tSEL R14, R13, -3.25, P4\n"
			  "\tF2I.S32.RZ R14, R14\n"
			  "\tI2F.F32.U32 R15, R14\n"
			  "\tFRND.RM R15, R15\n"
			  "\tFSETP.NUM P5, R15, R15\n"
			  "\tMEMBAR.CTA\n"
			  "\tATOMS.INC R1, [R1], 0x10\n"
			  "\t@P5 BRA done, none\n"
			  "\tIMUL.HI.S32 R1, R1, R2\n"
			  "\tIMAD.HI.U32 R1, R1, R2, R3\n"
			  "\tPOPC R1, R1\n"
			  "\tCLZ R1, R1\n"
			  "\tBREV R1, R1\n"
			  "\tNOT R1, R1\n"
			  "\tXOR R1, R1, 0x80000000\n"
			  "\tAND R1, R1, 0x7fffffff\n"
			  "\tOR R1, R1, R2\n"
			  "\tIMIN.S32 R1, R1, -7\n"
			  "\tIMAX.U32 R1, R1, R2\n"
			  "\tSTL.16 [R1+6], R2\n"
			  "\tLDL.S8 R2, [R1-1]\n"
			  "\tMUFU.RCP R1, R2\n"
			  "\tMUFU.RSQ R1, R2\n"
			  "\tMUFU.SQRT R1, R2\n"
			  "\tMUFU.EX2 R1, R2\n"
			  "\tMUFU.LG2 R1, R2\n"
			  "\tMUFU.SIN R1, R2\n"
			  "\tMUFU.COS R1, R2\n"
			  "\tFDIV R1, R2, R3\n"
			  "\tFDIV R1, R2, -0.75\n"
			  "\tFSQRT R1, R2\n"
			  "\tIDIV.S32 R1, R2, -3\n"
			  "\tIDIV.U32 R1, R2, R3\n"
			  "\tIREM.S32 R1, R2, R3\n"
			  "\tIREM.U32 R1, R2, 10\n"
			  "done:\n"
			  "\tEXIT\n");
	check_round_trip(&img);
	wg_image_free(&img);
}

static void round_trip_of_every_fp32_immediate_class(void **state)
{
	static const uint32_t special[] = {
		0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
		0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7FFFFFFF, 0xFFFFFFFF, 0x7F800001, 0x3F800000,
		0x3DCCCCCD, 0x4B000000, 0x4B7FFFFF, 0x33800000,
	};
	struct wg_image img;
	struct wg_kernel *k;
	struct wg_insn in;

	(void)state;
	rng = 0xF00DFACEull;
	assemble_ok(&img, ".kernel k\n.regs 2\nFADD R0, R1, 0\nEXIT\n");
	k = &img.kernels[0];
	assert_int_equal(wg_isa_decode(k->code[0], &in, NULL, 0), 0);
	for (int i = 0; i < 3000; i++) {
		in.b = i < (int)(sizeof(special) / sizeof(special[0])) ? special[i] : (uint32_t)rnd();
		in.e = wg_isa_find(i % 3 == 0 ? "FADD" : i % 3 == 1 ? "FSETP.LE" : "ATOMG.ADD.F32");
		in.op = in.e->op;
		in.mod = in.e->mod;
		in.rd = in.e->fmt == WG_FMT_SETP ? 1 : 0;
		k->code[0] = wg_isa_encode(&in);
		check_round_trip(&img);
	}
	wg_image_free(&img);
}

/* Valid names, including ones that look like keywords, registers or numbers. */
static const char *const tricky_names[] = {
	"none", "NONE", "R1", "rz", "P0", "PT", ".5", "$", "_", "EXIT", ".regs", "SR_TID.X", "inf", "nan",
	"a.b$c", "r07", "L_0009", "x", "loop", ".kernel",
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", /* 63 characters */
};

static void rnd_name(char *out, int tricky)
{
	static const char first[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.$";
	static const char rest[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.$0123456789";
	unsigned n;

	if (tricky && below(3) == 0) {
		strcpy(out, tricky_names[below(sizeof(tricky_names) / sizeof(tricky_names[0]))]);
		return;
	}
	n = 1 + below(12);
	out[0] = first[below(sizeof(first) - 1)];
	for (unsigned i = 1; i < n; i++)
		out[i] = rest[below(sizeof(rest) - 1)];
	out[n] = 0;
}

static uint8_t rnd_reg(unsigned regs)
{
	return below(6) ? (uint8_t)below(regs) : WG_REG_RZ;
}

static uint8_t rnd_group(unsigned regs, unsigned n)
{
	unsigned groups = regs / n;

	if (!groups || !below(6))
		return WG_REG_RZ;
	return (uint8_t)(below(groups) * n);
}

static void rnd_b(struct wg_insn *in, unsigned regs)
{
	static const uint32_t nice[] = { 0, 1, 2, 0x3F800000, 0xBF800000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF };

	in->bimm = (uint8_t)below(2);
	if (!in->bimm)
		in->b = rnd_reg(regs);
	else
		in->b = below(2) ? (uint32_t)rnd() : nice[below(8)];
}

/* A random legal instruction that respects the kernel's registers. */
static uint64_t rnd_insn(const struct wg_kernel *k, uint32_t n)
{
	/* One in eight is a branch, so that labels and reconvergence points get exercised. */
	const struct wg_isa_entry *e = below(8) ? &wg_isa_table[below((unsigned)wg_isa_table_len)]
						: wg_isa_find("BRA");
	unsigned w = wg_width_regs(e->mod), regs = k->regs;
	struct wg_insn in;

	wg_insn_init(&in, e);
	in.gp = (uint8_t)below(8);
	in.gneg = (uint8_t)below(2);
	switch (e->fmt) {
	case WG_FMT_RB:
		in.rd = rnd_reg(regs);
		rnd_b(&in, regs);
		break;
	case WG_FMT_RA:
		in.rd = rnd_reg(regs);
		in.ra = rnd_reg(regs);
		break;
	case WG_FMT_RAB:
	case WG_FMT_RABC:
	case WG_FMT_ATOM:
	case WG_FMT_CAS:
		in.rd = rnd_reg(regs);
		in.ra = rnd_reg(regs);
		rnd_b(&in, regs);
		if (e->fmt == WG_FMT_RABC || e->fmt == WG_FMT_CAS)
			in.rc = rnd_reg(regs);
		break;
	case WG_FMT_SEL:
		in.rd = rnd_reg(regs);
		in.ra = rnd_reg(regs);
		rnd_b(&in, regs);
		in.rc = (uint8_t)below(16);
		break;
	case WG_FMT_SETP:
		in.rd = (uint8_t)below(8);
		in.ra = rnd_reg(regs);
		rnd_b(&in, regs);
		break;
	case WG_FMT_PLOP:
		in.rd = (uint8_t)below(8);
		in.ra = (uint8_t)below(16);
		in.rc = (uint8_t)below(16);
		break;
	case WG_FMT_S2R:
		in.rd = rnd_reg(regs);
		in.b = below(WG_SR_COUNT);
		break;
	case WG_FMT_LD:
	case WG_FMT_ST:
		if (e->fmt == WG_FMT_LD)
			in.rd = rnd_group(regs, w);
		else
			in.rc = rnd_group(regs, w);
		in.ra = rnd_reg(regs);
		if (e->op == WG_OP_LDC && k->nparams && below(2))
			in.b = k->params[below(k->nparams)].offset;
		else
			in.b = below(3) ? below(64) : (uint32_t)rnd();
		break;
	case WG_FMT_BRA:
		in.b = below(n);
		in.reconv = below(4) ? below(n) : WG_RECONV_NONE;
		break;
	case WG_FMT_BAR:
		in.b = below(WG_NUM_BARRIERS);
		break;
	default:
		break;
	}
	return wg_isa_encode(&in);
}

static int name_used(const char (*names)[WG_NAME_MAX], unsigned n, const char *s)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return 1;
	return 0;
}

static int cmp_label(const void *x, const void *y)
{
	const struct wg_label *a = x, *b = y;

	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void rnd_kernel(struct wg_kernel *k, const char (*knames)[WG_NAME_MAX], unsigned nk)
{
	char used[24][WG_NAME_MAX];
	unsigned nused = 0;
	uint32_t n;

	do
		rnd_name(k->name, 1);
	while (name_used(knames, nk, k->name));
	k->regs = 1 + below(WG_NUM_GPR);
	k->shared_bytes = below(3) ? 0 : (uint32_t)rnd();
	k->local_bytes = below(3) ? 0 : below(4096);
	for (unsigned i = 0, np = below(7); i < np; i++) {
		char name[WG_NAME_MAX];

		rnd_name(name, 1);
		if (wg_kernel_find_param(k, name))
			continue;
		assert_int_equal(wg_kernel_add_param(k, name, below(WG_PT_COUNT), below(4) ? 1 : 1 + below(20)), 0);
	}
	n = 1 + below(40);
	k->ninsns = n;
	k->code = calloc(n, sizeof(*k->code));
	for (uint32_t pc = 0; pc + 1 < n; pc++)
		k->code[pc] = rnd_insn(k, n);
	{
		struct wg_insn in;

		wg_insn_init(&in, wg_isa_find(below(4) ? "EXIT" : "BRA"));
		in.b = below(n);
		in.reconv = below(2) ? WG_RECONV_NONE : below(n);
		if (in.e->fmt != WG_FMT_BRA)
			in.b = 0;
		k->code[n - 1] = wg_isa_encode(&in);
	}
	k->labels = calloc(24, sizeof(*k->labels));
	for (unsigned i = 0, nl = below(24); i < nl; i++) {
		char name[WG_NAME_MAX];

		rnd_name(name, 1);
		if (name_used(used, nused, name))
			continue;
		strcpy(used[nused++], name);
		strcpy(k->labels[k->nlabels].name, name);
		k->labels[k->nlabels++].pc = below(n + 1);
	}
	qsort(k->labels, k->nlabels, sizeof(*k->labels), cmp_label);
}

static void round_trip_of_random_valid_images(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 400; seed++) {
		struct wg_image img = { 0 }, parsed;
		char knames[3][WG_NAME_MAX];
		char err[512];
		uint8_t *buf;
		size_t len;

		rng = 0x9E3779B97F4A7C15ull * seed;
		img.nkernels = 1 + below(3);
		img.kernels = calloc(img.nkernels, sizeof(*img.kernels));
		for (unsigned i = 0; i < img.nkernels; i++) {
			rnd_kernel(&img.kernels[i], (const char(*)[WG_NAME_MAX])knames, i);
			strcpy(knames[i], img.kernels[i].name);
		}
		/* The generator must produce valid images: the strict parser accepts them. */
		assert_int_equal(wg_image_serialize(&img, &buf, &len), 0);
		if (wg_image_parse(&parsed, buf, len, "random.wgk", err, sizeof(err)))
			fail_msg("seed %u: generated image rejected: %s", seed, err);
		wg_image_free(&parsed);
		free(buf);
		check_round_trip(&img);
		wg_image_free(&img);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(insn_text_is_canonical),
		cmocka_unit_test(insn_text_without_kernel_uses_numbers),
		cmocka_unit_test(image_text_has_directives_params_and_labels),
		cmocka_unit_test(reconv_slot_never_prints_a_label_named_none),
		cmocka_unit_test(disasm_reports_an_illegal_word),
		cmocka_unit_test(round_trip_of_a_varied_program),
		cmocka_unit_test(round_trip_of_every_fp32_immediate_class),
		cmocka_unit_test(round_trip_of_random_valid_images),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
