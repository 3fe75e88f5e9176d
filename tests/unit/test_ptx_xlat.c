/*
 * PTX -> assembly translation (host/src/ptx_xlat.c, docs/ptx.md sections 2,
 * 3, 5 and 6): each instruction group on a small kernel whose register
 * allocation is worked out by hand, the 64-bit rules, FP modifiers,
 * parameters, reconvergence labels, spill code, and the error messages.
 *
 * Every kernel below starts with
 *   ld.param.u64 %rd1, [k_p0];   -> R0 (live to the final store)
 *   ld.param.u32 %r1, [k_p1];    -> R1
 * and ends with st.global.u32 [%rd1], %rN; ret; so the first value
 * computed in the body takes R2 (linear scan, lowest free register).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "isa.h"
#include "ptx.h"
#include "warpgate.h"

static char out_text[65536];
static char diag_text[4096];

/* Translate a kernel body; *asm text normalised to "GUARD OP" lines in out_text. Returns the code. */
static int xlat_full(const char *params, const char *regs, const char *body, int assemble)
{
	char src[8192];
	char *text = NULL;
	struct wg_image img = { 0 };
	FILE *d = fmemopen(diag_text, sizeof(diag_text), "w");
	int rc;

	memset(diag_text, 0, sizeof(diag_text));
	snprintf(src, sizeof(src),
	         ".version 9.0\n.target sm_75\n.address_size 64\n"
	         ".visible .entry k(%s)\n{\n%s\n"
	         "\tld.param.u64 %%rd1, [k_p0];\n"
	         "\tld.param.u32 %%r1, [k_p1];\n"
	         "%s"
	         "\tret;\n}\n",
	         params ? params : ".param .u64 k_p0, .param .u32 k_p1",
	         regs ? regs : ".reg .pred %p<9>; .reg .b32 %r<20>; .reg .f32 %f<20>; .reg .b64 %rd<20>;", body);
	rc = wg_ptx_translate(src, "t.ptx", &text, assemble ? &img : NULL, d);
	fclose(d);
	out_text[0] = 0;
	if (text) {
		/* keep instruction lines, without comments and repeated blanks */
		char *save = NULL, *line;

		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *c = strchr(line, ';'), buf[256];
			size_t n = 0;

			if (c)
				*c = 0;
			for (char *p = line; *p; p++)
				if (!(*p == ' ' && (n == 0 || buf[n - 1] == ' ')) && n < sizeof(buf) - 1)
					buf[n++] = *p;
			while (n && buf[n - 1] == ' ')
				n--;
			buf[n] = 0;
			if (n && strlen(out_text) + n + 2 < sizeof(out_text)) {
				strcat(out_text, buf);
				strcat(out_text, "\n");
			}
		}
	}
	free(text);
	wg_image_free(&img);
	return rc;
}

static int xlat(const char *body)
{
	return xlat_full(NULL, NULL, body, 1);
}

static void has(const char *line)
{
	char want[300];

	snprintf(want, sizeof(want), "\n%s\n", line);
	if (!strstr(out_text, want) && strncmp(out_text, want + 1, strlen(want + 1))) {
		fprintf(stderr, "missing line '%s' in:\n%s\n%s", line, out_text, diag_text);
		fail();
	}
}

static void err_has(const char *msg)
{
	if (!strstr(diag_text, msg)) {
		fprintf(stderr, "missing error '%s' in:\n%s", msg, diag_text);
		fail();
	}
}

#define END "\tst.global.u32 [%rd1], %r2;\n"

static void integer_arithmetic(void **state)
{
	/* r2 = r1 + 5 (R2); r3 = r2 * r1 (R3); r2 = mad.lo(r3, 7, r2); mul.hi, min, shifts */
	assert_int_equal(xlat("\tadd.s32 %r2, %r1, 5;\n"
	                      "\tmul.lo.s32 %r3, %r2, %r1;\n"
	                      "\tmad.lo.s32 %r2, %r3, 7, %r2;\n"
	                      "\tmul.hi.u32 %r4, %r2, %r1;\n"
	                      "\tmin.s32 %r5, %r4, -3;\n"
	                      "\tshr.s32 %r6, %r5, 2;\n"
	                      "\tneg.s32 %r7, %r6;\n"
	                      "\tsub.s32 %r2, %r7, %r1;\n" END),
	                 0);
	has("LDC.32 R0, [k_p0]");
	has("LDC.32 R1, [k_p1]");
	has("IADD R2, R1, 0x5");
	has("IMUL R3, R2, R1");
	has("IMAD R2, R3, 0x7, R2");   /* r3 dies here; the result takes r2's register */
	/* r2 is written again by the last sub: its interval spans to the store, so it keeps R2 */
	has("IMUL.HI.U32 R3, R2, R1"); /* r3 died at the mad: r4 takes R3 */
	has("IMIN.S32 R3, R3, 0xfffffffd");
	has("SHR.S32 R3, R3, 0x2");
	has("ISUB R3, RZ, R3");
	has("ISUB R2, R3, R1");
	has("STG.32 [R0+0], R2");
	has("EXIT");
}

static void sixty_four_bit_address_arithmetic(void **state)
{
	/* address = rd1 + (s64)r1 * 4, then + 8 */
	assert_int_equal(xlat("\tcvta.to.global.u64 %rd2, %rd1;\n"
	                      "\tmul.wide.s32 %rd3, %r1, 4;\n"
	                      "\tadd.s64 %rd4, %rd2, %rd3;\n"
	                      "\tshl.b64 %rd5, %rd4, 0;\n"
	                      "\tld.global.u32 %r2, [%rd5+8];\n" END),
	                 0);
	has("MOV R2, R0");        /* rd1 lives on to the store: rd2 gets its own register */
	has("IMUL R1, R1, 0x4");  /* r1 dies: rd3 reuses R1 */
	has("IADD R1, R2, R1");
	has("SHL R1, R1, 0x0");
	has("LDG.32 R1, [R1+8]");
	has("STG.32 [R0+0], R1");
}

static void sixty_four_bit_high_half_is_an_error(void **state)
{
	assert_int_equal(xlat("\tshr.u64 %rd2, %rd1, 3;\n" END), WG_ESYNTAX);
	err_has("t.ptx:9: error: unsupported 64-bit 'shr.u64' (needs the high half; docs/ptx.md)");
	assert_int_equal(xlat("\tsetp.lt.u64 %p1, %rd1, 3;\n" END), WG_ESYNTAX);
	err_has("t.ptx:9: error: unsupported 64-bit comparison 'setp.lt.u64'");
	assert_int_equal(xlat("\tld.global.u64 %rd2, [%rd1];\n" END), WG_ESYNTAX);
	err_has("unsupported 64-bit load 'ld.global.u64'");
	assert_int_equal(xlat("\tcvt.rn.f32.u64 %f1, %rd1;\n" END), WG_ESYNTAX);
	err_has("from 64 bits");
}

static void fp32_arithmetic_and_modifiers(void **state)
{
	assert_int_equal(xlat("\tmov.b32 %f1, %r1;\n"
	                      "\tfma.rn.f32 %f2, %f1, 0f40000000, %f1;\n"
	                      "\tadd.sat.f32 %f3, %f2, %f1;\n"
	                      "\tabs.f32 %f4, %f3;\n"
	                      "\tmov.b32 %r2, %f4;\n" END),
	                 0);
	/* f1 = R1 (r1 dies at the move, which is left out); 2.0 is FFMA's immediate B */
	has("FFMA R2, R1, 0x40000000, R1");
	has("FADD R1, R2, R1");
	has("FMAX R1, R1, 0x0");
	has("FMIN R1, R1, 0x3f800000");
	has("AND R1, R1, 0x7fffffff");
	/* .ftz stays an error where the ISA has no flush (min, max) */
	assert_int_equal(xlat("\tmov.b32 %f1, %r1;\n\tmax.ftz.f32 %f2, %f1, %f1;\n" END), WG_ESYNTAX);
	err_has("t.ptx:10: error: unsupported .ftz in 'max.ftz.f32' (the ISA keeps subnormals)");
	assert_int_equal(xlat("\tmov.b32 %f1, %r1;\n\tadd.rz.rm.f32 %f2, %f1, %f1;\n" END), WG_ESYNTAX);
	err_has("t.ptx:10: error: more than one rounding in 'add.rz.rm.f32'");
	assert_int_equal(xlat("\tmov.b32 %f1, %r1;\n\tfma.f32 %f2, %f1, %f1, %f1;\n" END), WG_ESYNTAX);
	err_has("'fma.f32' needs a rounding modifier (.rn .rz .rm .rp)");
}

/* add/sub/mul/fma/mad .rn .rz .rm .rp, .ftz and .sat map onto the ISA's FP32 modes. */
static void fp32_directed_rounding_and_ftz(void **state)
{
	assert_int_equal(xlat("\tmov.b32 %f1, %r1;\n"
	                      "\tfma.rm.f32 %f2, %f1, 0f437C0000, 0f4B400001;\n"
	                      "\tadd.rz.ftz.f32 %f3, %f2, %f1;\n"
	                      "\tsub.rp.sat.f32 %f4, %f3, %f1;\n"
	                      "\tmul.rm.ftz.f32 %f5, %f4, %f1;\n"
	                      "\tmad.rp.ftz.f32 %f6, %f5, %f1, %f2;\n"
	                      "\tmul.rn.ftz.f32 %f7, %f6, %f1;\n"
	                      "\tmov.b32 %r2, %f7;\n" END),
	                 0);
	/* the addend 0f4B400001 goes through a register: the ISA's B slot holds one immediate */
	has("FFMA.RM R2, R1, 0x437c0000, R2");
	has("FADD.RZ.FTZ R3, R2, R1");
	has("FSUB.RP R3, R3, R1");          /* .sat: then FMAX 0, FMIN 1.0 */
	has("FMAX R3, R3, 0x0");
	has("FMUL.RM.FTZ R3, R3, R1");
	has("FFMA.RP.FTZ R2, R3, R1, R2");
	has("FMUL.FTZ R1, R2, R1");
}

static void setp_selp_and_predicate_logic(void **state)
{
	assert_int_equal(xlat("\tsetp.lt.u32 %p1, %r1, 10;\n"
	                      "\tmov.b32 %f1, %r1;\n"
	                      "\tsetp.gtu.f32 %p2, %f1, 0f00000000;\n"
	                      "\tsetp.ne.and.s32 %p3, %r1, 0, %p1;\n"
	                      "\tor.pred %p4, %p3, %p2;\n"
	                      "\tnot.pred %p5, %p4;\n"
	                      "\tselp.b32 %r2, %r1, 7, %p5;\n" END),
	                 0);
	has("ISETP.LT.U32 P0, R1, 0xa");
	has("MOV R2, R1");                  /* r1 is read later: f1 gets its own register */
	has("FSETP.LE P1, R2, 0x0");        /* gtu = !(le), ordered */
	has("PLOP.AND P1, !P1, PT");
	has("ISETP.NE P2, R1, 0x0");        /* temporary, then .and with p1 */
	has("PLOP.AND P0, P2, P0");
	has("PLOP.OR P0, P0, P1");
	has("PLOP.AND P0, !P0, PT");
	has("SEL R1, R1, 0x7, P0");
}

static void conversions(void **state)
{
	assert_int_equal(xlat("\tcvt.rn.f32.s32 %f1, %r1;\n"
	                      "\tcvt.rzi.s32.f32 %r2, %f1;\n"
	                      "\tcvt.s32.s8 %r3, %r2;\n"
	                      "\tcvt.u16.u32 %r4, %r3;\n"
	                      "\tcvt.rmi.f32.f32 %f2, %f1;\n"
	                      "\tmov.b32 %r5, %f2;\n"
	                      "\tadd.s32 %r2, %r4, %r5;\n" END),
	                 0);
	has("I2F.F32.S32 R1, R1");
	has("F2I.S32.RZ R2, R1");
	has("SHL R3, R2, 0x18");            /* r2 is written again at the end: it keeps R2 */
	has("SHR.S32 R3, R3, 0x18");
	has("AND R3, R3, 0xffff");
	has("FRND.RM R1, R1");
	has("IADD R2, R3, R1");
}

static void shared_local_param_and_vector_memory(void **state)
{
	assert_int_equal(xlat_full(".param .u64 k_p0, .param .u32 k_p1, .param .align 8 .b8 k_p2[16]",
	                           ".reg .pred %p<9>; .reg .b32 %r<20>; .reg .f32 %f<20>; .reg .b64 %rd<20>;\n"
	                           ".shared .align 4 .b8 sa[8];\n.shared .align 16 .b8 sb[64];\n"
	                           ".local .align 16 .b8 __local_depot0[32];\n.reg .b64 %SPL;\n",
	                           "\tmov.u64 %SPL, __local_depot0;\n"
	                           "\tld.param.u32 %r3, [k_p2+12];\n"
	                           "\tmov.u32 %r4, sb;\n"
	                           "\tst.shared.u32 [%r4+4], %r3;\n"
	                           "\tld.shared.u32 %r5, [sa+4];\n"
	                           "\tst.local.v2.u32 [%SPL+8], {%r5, %r1};\n"
	                           "\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n"
	                           "\tld.local.u32 %r2, [%SPL+12];\n" END,
	                           1),
	                 0);
	has(".shared 80");         /* sa at 0 (8 bytes), sb at 16 (aligned 16, 64 bytes) */
	has(".local 32");
	has(".param u64[2] k_p2"); /* .align 8 .b8 [16] */
	has("MOV R2, 0x0");        /* %SPL = the depot's offset */
	has("LDC.32 R3, [k_p2+12]");
	has("MOV R4, 0x10");
	has("STS.32 [R4+4], R3");
	has("LDS.32 R3, [RZ+4]");
	has("STL.32 [R2+8], R3");
	has("STL.32 [R2+12], R1");
	has("LDG.32 R1, [R0+0]");  /* four words; f1..f4 are dead, so they share R1 */
	has("LDG.32 R1, [R0+12]");
	has("LDL.32 R1, [R2+12]");
}

static void atomics(void **state)
{
	assert_int_equal(xlat_full(NULL,
	                           ".reg .pred %p<9>; .reg .b32 %r<20>; .reg .f32 %f<20>; .reg .b64 %rd<20>;\n"
	                           ".shared .align 4 .b8 sh[64];\n",
	                           "\tatom.global.add.u32 %r2, [%rd1+8], %r1;\n"
	                           "\tatom.global.cas.b32 %r3, [%rd1], 0, %r2;\n"
	                           "\tred.global.max.s32 [%rd1], %r3;\n"
	                           "\tatom.shared.inc.u32 %r4, [sh+4], 100;\n"
	                           "\tatom.global.add.f32 %f1, [%rd1], 0f3F800000;\n"
	                           "\tmov.b32 %r5, %f1;\n"
	                           "\tadd.s32 %r2, %r4, %r5;\n" END,
	                           1),
	                 0);
	has("IADD R2, R0, 0x8"); /* ATOM takes [Ra] only */
	has("ATOMG.ADD R1, [R2], R1");
	has("ATOMG.CAS R2, [R0], 0x0, R1");
	has("ATOMG.MAX.S32 RZ, [R0], R2");
	has("IADD R2, RZ, 0x4");            /* sh + 4 */
	has("ATOMS.INC R2, [R2], 0x64");
	has("ATOMG.ADD.F32 R3, [R0], 0x3f800000");
	has("IADD R1, R2, R3");
}

static void branches_get_post_dominator_reconvergence(void **state)
{
	/* if (r1 < 10) r2 = 1; else r2 = 2; then a loop; the join is L2, the loop's exit follows it */
	assert_int_equal(xlat("\tsetp.lt.s32 %p1, %r1, 10;\n"
	                      "\t@%p1 bra L1;\n"
	                      "\tmov.u32 %r2, 2;\n"
	                      "\tbra.uni L2;\n"
	                      "L1:\n"
	                      "\tmov.u32 %r2, 1;\n"
	                      "L2:\n"
	                      "\tadd.s32 %r2, %r2, 1;\n"
	                      "\tsetp.lt.s32 %p2, %r2, %r1;\n"
	                      "\t@%p2 bra L2;\n"
	                      "\t@!%p1 ret;\n" END),
	                 0);
	has("@P0 BRA L1, L2");
	has("BRA L2, L2");
	has("@P1 BRA L2, .B4"); /* the loop's latch block reconverges at the next block, labelled .B4 */
	has(".B4:");
	has("@!P0 EXIT");
	assert_string_equal(diag_text, ""); /* the assembler agrees: no warning */
}

static void spilled_predicates_and_registers_round_trip(void **state)
{
	/* eight predicates live at once: more than P0..P6 */
	char body[4096] = "";

	for (int i = 1; i <= 8; i++)
		snprintf(body + strlen(body), sizeof(body) - strlen(body), "\tsetp.eq.s32 %%p%d, %%r1, %d;\n", i, i);
	for (int i = 1; i <= 8; i++)
		snprintf(body + strlen(body), sizeof(body) - strlen(body), "\t@%%p%d add.s32 %%r1, %%r1, %d;\n", i, i);
	strcat(body, "\tmov.u32 %r2, %r1;\n" END);
	assert_int_equal(xlat(body), 0);
	has(".regs 63");
	has("SEL R60, RZ, 1, !P5"); /* a spilled predicate goes through R60 */
	has("STL.32 [0x0], R60");
	has("LDL.32 R60, [0x0]");
	has("ISETP.NE.U32 P4, R60, 0"); /* reloaded as the guard */
	assert_string_equal(diag_text, "");
}

static void sfu_and_division_mapping(void **state)
{
	/* translated only (img NULL): the assembler knows MUFU/FDIV/IDIV once the SFU is in the ISA */
	assert_int_equal(xlat_full(NULL, NULL,
	                           "\tmov.b32 %f1, %r1;\n"
	                           "\tdiv.rn.f32 %f2, %f1, %f1;\n"
	                           "\tdiv.approx.f32 %f3, %f2, %f1;\n"
	                           "\trcp.rn.f32 %f4, %f3;\n"
	                           "\trcp.approx.ftz.f32 %f5, %f4;\n"
	                           "\tsqrt.rn.f32 %f6, %f5;\n"
	                           "\tsqrt.approx.f32 %f7, %f6;\n"
	                           "\tex2.approx.ftz.f32 %f8, %f7;\n"
	                           "\tsin.approx.f32 %f9, %f8;\n"
	                           "\tmov.b32 %r3, %f9;\n"
	                           "\tdiv.s32 %r4, %r3, %r1;\n"
	                           "\trem.u32 %r2, %r4, 3;\n" END,
	                           0),
	                 0);
	/* r1 is read again by div.s32: f1..f9 live in R2 (with R3 for the second operand) */
	has("MOV R2, R1");
	has("FDIV R3, R2, R2");
	has("MUFU.RCP R2, R2");
	has("FMUL R2, R3, R2");
	has("MOV R3, 0x3f800000");
	has("FDIV R2, R3, R2");
	has("MUFU.RCP R2, R2");
	has("FSQRT R2, R2");
	has("MUFU.SQRT R2, R2");
	has("MUFU.EX2 R2, R2");
	has("MUFU.SIN R2, R2");
	has("IDIV.S32 R1, R2, R1");
	has("IREM.U32 R1, R1, 0x3");
	assert_int_equal(xlat("\tmov.b32 %f1, %r1;\n\tdiv.rz.f32 %f2, %f1, %f1;\n" END), WG_ESYNTAX);
	err_has("unsupported rounding '.rz'");
}

static void unsupported_constructs_name_line_and_construct(void **state)
{
	assert_int_equal(xlat("\tvote.sync.ballot.b32 %r2, %p1, -1;\n" END), WG_ESYNTAX);
	err_has("t.ptx:9: error: unsupported instruction 'vote.sync.ballot.b32'");
	assert_int_equal(xlat("\tadd.s32 %r2, %r1, %r99;\n" END), WG_ESYNTAX);
	err_has("t.ptx:9: error: unknown register '%r99' in 'add.s32' (not declared, and not a supported special register)");
	assert_int_equal(xlat("\tbra L9;\n" END), WG_ESYNTAX);
	err_has("branch to undefined label 'L9'");
	assert_int_equal(xlat("\tmov.u32 %r2, %lanemask_lt;\n" END), WG_ESYNTAX);
	err_has("unknown register '%lanemask_lt'");
	assert_int_equal(xlat("\tcvta.shared.u64 %rd2, %rd1;\n" END), WG_ESYNTAX);
	err_has("generic shared/local pointers are not supported");
	assert_int_equal(xlat("\tbar.sync 0, 64;\n" END), WG_ESYNTAX);
	err_has("needs one constant barrier id");
	assert_int_equal(xlat_full(".param .u64 k_p0, .param .u32 k_p1, .param .align 32 .b8 k_s[32]", NULL, END, 1),
	                 WG_ESYNTAX);
	err_has("unsupported parameter alignment 32 of 'k_s' (at most 16)");
}

static void special_registers_and_barrier(void **state)
{
	assert_int_equal(xlat("\tmov.u32 %r2, %laneid;\n"
	                      "\tmov.u32 %r3, %warpid;\n"
	                      "\tbar.sync 0;\n"
	                      "\tmembar.gl;\n"
	                      "\tadd.s32 %r2, %r2, %r3;\n"
	                      "\tadd.s32 %r2, %r2, %nctaid.y;\n" END),
	                 0);
	has("S2R R1, SR_LANEID"); /* r1 is dead: R1 is free */
	has("S2R R2, SR_WARPID");
	has("BAR.SYNC 0");
	has("MEMBAR.GL");
	has("S2R R2, SR_NCTAID.Y");
}

static void align16_struct_parameter_is_padded_like_cuda(void **state)
{
	/* CUDA offsets: k_p0 0, k_p1 8, k_s 16 (align 16) .. 48, k_p3 48; buffer 64 (rounded to
	 * 16). The image aligns to 8 at most: u8[4] before k_s, u8[12] after k_p3. */
	assert_int_equal(xlat_full(".param .u64 k_p0, .param .u32 k_p1, .param .align 16 .b8 k_s[32], .param .u32 k_p3",
	                           NULL, "\tld.param.u32 %r2, [k_s+20];\n" END, 1),
	                 0);
	has(".param u8[4] _pad0");
	has(".param u64[4] k_s");
	has(".param u32 k_p3");
	has(".param u8[12] _pad1");
	has("LDC.32 R1, [k_s+20]"); /* r1 is dead: R1 is free */
	/* a PTX parameter named like the padding is refused, not overlaid */
	assert_int_equal(xlat_full(".param .u64 k_p0, .param .u32 k_p1, .param .align 16 .b8 k_s[16], .param .u32 _pad0",
	                           NULL, END, 1),
	                 WG_ESYNTAX);
	err_has("parameter name '_pad0' is reserved");
}

static void parameter_address_in_a_register_reads_through_ldc(void **state)
{
	/* k_s is at 16 (after u8[4] padding): mov gives 0x10; +8, then ld.param [+4] = k_s+12.
	 * rd2 takes R1 (r1 is dead), rd3 reuses it, and the load result reuses it again. */
	assert_int_equal(xlat_full(".param .u64 k_p0, .param .u32 k_p1, .param .align 16 .b8 k_s[32]", NULL,
	                           "\tmov.b64 %rd2, k_s;\n"
	                           "\tadd.s64 %rd3, %rd2, 8;\n"
	                           "\tld.param.u32 %r2, [%rd3+4];\n" END, 1),
	                 0);
	has("MOV R1, 0x10");
	has("IADD R1, R1, 0x8");
	has("LDC.32 R1, [R1+4]");
	has("STG.32 [R0+0], R1");
	/* any other use of the address is an error: it is no device address */
	assert_int_equal(xlat("\tmov.b64 %rd2, k_p0;\n\tld.global.u32 %r2, [%rd2];\n" END), WG_ESYNTAX);
	err_has("t.ptx:10: error: unsupported use of a parameter's address '%rd2' in 'ld.global.u32'");
	assert_int_equal(xlat("\tmov.b64 %rd2, k_p0;\n\tcvt.u32.u64 %r2, %rd2;\n" END), WG_ESYNTAX);
	err_has("unsupported use of a parameter's address '%rd2' in 'cvt.u32.u64'");
	/* a register that also holds another value */
	assert_int_equal(xlat("\tmov.b64 %rd2, k_p0;\n\tmov.b64 %rd2, %rd1;\n\tld.param.u32 %r2, [%rd2];\n" END),
	                 WG_ESYNTAX);
	err_has("t.ptx:10: error: register '%rd2' holds a parameter's address and another value");
}

static void sixty_four_bit_compare_of_extended_32_bit_values(void **state)
{
	/* rd2 = (s64)r1: a sign-extension, so s64 > -1 is the 32-bit signed compare of the low
	 * words; rd3 = (u64)r1: a zero-extension, so u64 < 100 is the unsigned 32-bit one. */
	assert_int_equal(xlat("\tcvt.s64.s32 %rd2, %r1;\n"
	                      "\tsetp.gt.s64 %p1, %rd2, -1;\n"
	                      "\tcvt.u64.u32 %rd3, %r1;\n"
	                      "\tsetp.lt.u64 %p2, %rd3, 100;\n"
	                      "\tmov.u64 %rd4, 7;\n"
	                      "\tsetp.ne.s64 %p3, %rd2, %rd4;\n"
	                      "\tand.pred %p1, %p1, %p2;\n"
	                      "\tand.pred %p1, %p1, %p3;\n"
	                      "\tselp.u32 %r2, 1, 0, %p1;\n" END),
	                 0);
	has("MOV R2, R1");                  /* rd2 (r1 lives on) */
	has("ISETP.GT P0, R2, 0xffffffff"); /* -1 fits 32 bits signed */
	has("ISETP.LT.U32 P1, R1, 0x64");   /* rd3 takes R1 as r1 dies: its MOV R1, R1 is dropped */
	has("MOV R1, 0x7");                 /* rd4 = 7 reuses R1 (rd3 died) */
	has("ISETP.NE P2, R2, R1");
	/* a zero-extension compared as signed, and a value of unknown high half: errors */
	assert_int_equal(xlat("\tcvt.u64.u32 %rd2, %r1;\n\tsetp.lt.s64 %p1, %rd2, 5;\n" END), WG_ESYNTAX);
	err_has("t.ptx:10: error: unsupported 64-bit comparison 'setp.lt.s64'");
	assert_int_equal(xlat("\tcvt.s64.s32 %rd2, %r1;\n\tadd.s64 %rd2, %rd2, 1;\n\tsetp.lt.s64 %p1, %rd2, 5;\n" END),
	                 WG_ESYNTAX);
	err_has("t.ptx:11: error: unsupported 64-bit comparison 'setp.lt.s64'");
	/* a bare 'cvt' / 'ld' (no types) is the translator's error, not the pre-pass's */
	assert_int_equal(xlat("\tcvt %rd2, %r1;\n" END), WG_ESYNTAX);
	assert_int_equal(xlat("\tld %r2, [%rd1];\n" END), WG_ESYNTAX);
	err_has("t.ptx:9: error:");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(integer_arithmetic),
		cmocka_unit_test(sixty_four_bit_address_arithmetic),
		cmocka_unit_test(sixty_four_bit_high_half_is_an_error),
		cmocka_unit_test(fp32_arithmetic_and_modifiers),
		cmocka_unit_test(fp32_directed_rounding_and_ftz),
		cmocka_unit_test(setp_selp_and_predicate_logic),
		cmocka_unit_test(conversions),
		cmocka_unit_test(shared_local_param_and_vector_memory),
		cmocka_unit_test(atomics),
		cmocka_unit_test(branches_get_post_dominator_reconvergence),
		cmocka_unit_test(spilled_predicates_and_registers_round_trip),
		cmocka_unit_test(sfu_and_division_mapping),
		cmocka_unit_test(unsupported_constructs_name_line_and_construct),
		cmocka_unit_test(special_registers_and_barrier),
		cmocka_unit_test(align16_struct_parameter_is_padded_like_cuda),
		cmocka_unit_test(parameter_address_in_a_register_reads_through_ldc),
		cmocka_unit_test(sixty_four_bit_compare_of_extended_32_bit_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
