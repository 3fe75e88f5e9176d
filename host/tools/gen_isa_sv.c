/*
 * gen_isa_sv: print rtl/wg_isa_pkg.sv, the SystemVerilog view of the warpgate
 * ISA, from the one instruction table (host/src/isa.h, host/src/isa_table.h,
 * docs/isa.md).
 *
 *   gen_isa_sv > rtl/wg_isa_pkg.sv
 *
 * Everything the RTL decoder needs comes from the table and from the C
 * helpers in host/src/isa.c: opcode values, formats and classes of every
 * (op, mod) pair, which general registers each row reads and writes (probed
 * through wg_isa_check_regs), load/store widths and special-register numbers.
 * Only the SystemVerilog names of opcodes, formats and classes are listed
 * here; the program fails when the table holds an opcode without a name.
 * The output is deterministic (no dates, no paths), so sim/rtl.mk can check
 * that the committed file is up to date with a plain diff.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	unsigned op;
	const char *name;
} op_names[] = {
	{ WG_OP_ILLEGAL, "ILLEGAL" }, { WG_OP_NOP, "NOP" },       { WG_OP_MOV, "MOV" },
	{ WG_OP_IADD, "IADD" },       { WG_OP_ISUB, "ISUB" },     { WG_OP_IMUL, "IMUL" },
	{ WG_OP_IMAD, "IMAD" },       { WG_OP_IMIN, "IMIN" },     { WG_OP_IMAX, "IMAX" },
	{ WG_OP_IABS, "IABS" },       { WG_OP_AND, "AND" },       { WG_OP_OR, "OR" },
	{ WG_OP_XOR, "XOR" },         { WG_OP_NOT, "NOT" },       { WG_OP_SHL, "SHL" },
	{ WG_OP_SHR, "SHR" },         { WG_OP_POPC, "POPC" },     { WG_OP_CLZ, "CLZ" },
	{ WG_OP_BREV, "BREV" },       { WG_OP_SEL, "SEL" },       { WG_OP_ISETP, "ISETP" },
	{ WG_OP_ISETPU, "ISETPU" },   { WG_OP_PLOP, "PLOP" },     { WG_OP_FADD, "FADD" },
	{ WG_OP_FSUB, "FSUB" },       { WG_OP_FMUL, "FMUL" },     { WG_OP_FFMA, "FFMA" },
	{ WG_OP_FMIN, "FMIN" },       { WG_OP_FMAX, "FMAX" },     { WG_OP_FSETP, "FSETP" },
	{ WG_OP_I2F, "I2F" },         { WG_OP_F2I, "F2I" },       { WG_OP_FRND, "FRND" },
	{ WG_OP_MUFU, "MUFU" },       { WG_OP_FDIV, "FDIV" },     { WG_OP_FSQRT, "FSQRT" },
	{ WG_OP_IDIV, "IDIV" },       { WG_OP_IREM, "IREM" },     { WG_OP_LDG, "LDG" },       { WG_OP_LDGCG, "LDGCG" },
	{ WG_OP_LDS, "LDS" },         { WG_OP_LDL, "LDL" },       { WG_OP_LDC, "LDC" },
	{ WG_OP_STG, "STG" },         { WG_OP_STS, "STS" },       { WG_OP_STL, "STL" },
	{ WG_OP_ATOMG, "ATOMG" },     { WG_OP_ATOMGX, "ATOMGX" }, { WG_OP_ATOMS, "ATOMS" },
	{ WG_OP_ATOMSX, "ATOMSX" },   { WG_OP_S2R, "S2R" },       { WG_OP_BRA, "BRA" },
	{ WG_OP_BAR, "BAR" },         { WG_OP_EXIT, "EXIT" },     { WG_OP_MEMBAR, "MEMBAR" },
};

static const char *const fmt_names[] = {
	[WG_FMT_N] = "N",       [WG_FMT_RB] = "RB",     [WG_FMT_RA] = "RA",
	[WG_FMT_RAB] = "RAB",   [WG_FMT_RABC] = "RABC", [WG_FMT_SEL] = "SEL",
	[WG_FMT_SETP] = "SETP", [WG_FMT_PLOP] = "PLOP", [WG_FMT_S2R] = "S2R",
	[WG_FMT_LD] = "LD",     [WG_FMT_ST] = "ST",     [WG_FMT_ATOM] = "ATOM",
	[WG_FMT_CAS] = "CAS",   [WG_FMT_BRA] = "BRA",   [WG_FMT_BAR] = "BAR",
};
_Static_assert(ARRAY_LEN(fmt_names) == WG_FMT_COUNT, "a format has no name");

static const char *const width_names[] = {
	[WG_W_U8] = "U8", [WG_W_S8] = "S8", [WG_W_U16] = "U16", [WG_W_S16] = "S16",
	[WG_W_32] = "32", [WG_W_64] = "64", [WG_W_128] = "128",
};

/* Bit positions (docs/isa.md section 2); check_fields() verifies them against
 * wg_isa_encode, so they cannot drift from the C encoder. */
static const struct {
	const char *name;
	unsigned lsb, width;
} fields[] = {
	{ "OP", 58, 6 },  { "BIMM", 57, 1 }, { "GNEG", 56, 1 }, { "GP", 53, 3 },
	{ "RD", 47, 6 },  { "RA", 41, 6 },   { "RC", 35, 6 },   { "MOD", 32, 3 },
	{ "B", 0, 32 },   { "RB", 0, 6 },    { "SR", 0, 8 },    { "RECONV", 35, 18 },
};

static unsigned clog2(unsigned n)
{
	unsigned w = 0;
	while ((1u << w) < n)
		w++;
	return w ? w : 1;
}

static void die(const char *msg, const char *what)
{
	fprintf(stderr, "gen_isa_sv: %s%s%s\n", msg, what ? ": " : "", what ? what : "");
	exit(1);
}

static const char *op_name(unsigned op)
{
	for (size_t i = 0; i < ARRAY_LEN(op_names); i++)
		if (op_names[i].op == op)
			return op_names[i].name;
	return NULL;
}

/* SR_TID.X -> SR_TID_X */
static void sreg_ident(unsigned sr, char *out, size_t len)
{
	const char *n = wg_sreg_name(sr);
	size_t i;
	if (!n)
		die("special register without a name", NULL);
	for (i = 0; n[i] && i + 1 < len; i++)
		out[i] = isalnum((unsigned char)n[i]) ? (char)toupper((unsigned char)n[i]) : '_';
	out[i] = 0;
}

/* Does row e name general register `field` as an operand? Probed by giving
 * that field register 1 (all others RZ) and a kernel one register wide. */
enum probe { PROBE_RD, PROBE_RA, PROBE_RC };
static int uses_gpr(const struct wg_isa_entry *e, enum probe p)
{
	struct wg_insn in;
	wg_insn_init(&in, e);
	in.rd = in.ra = in.rc = WG_REG_RZ;
	in.b = WG_REG_RZ;
	in.bimm = 0;
	if (p == PROBE_RD)
		in.rd = 1;
	else if (p == PROBE_RA)
		in.ra = 1;
	else
		in.rc = 1;
	return wg_isa_check_regs(&in, 1, NULL, 0) != 0;
}

static uint64_t field_of(uint64_t w, const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(fields); i++)
		if (!strcmp(fields[i].name, name))
			return (w >> fields[i].lsb) & ((1ull << fields[i].width) - 1);
	die("unknown field", name);
	return 0;
}

static void check_fields(void)
{
	struct wg_insn in;
	uint64_t w;

	for (size_t i = 0; i < wg_isa_table_len; i++) {
		wg_insn_init(&in, &wg_isa_table[i]);
		w = wg_isa_encode(&in);
		if (field_of(w, "OP") != wg_isa_table[i].op || field_of(w, "MOD") != wg_isa_table[i].mod)
			die("op/mod field positions disagree with wg_isa_encode", wg_isa_table[i].mnemonic);
	}
	wg_insn_init(&in, wg_isa_find("IMAD"));
	in.rd = 0x2A, in.ra = 0x15, in.rc = 0x33, in.b = 0x27, in.gp = 5, in.gneg = 1;
	w = wg_isa_encode(&in);
	if (field_of(w, "RD") != 0x2A || field_of(w, "RA") != 0x15 || field_of(w, "RC") != 0x33 ||
	    field_of(w, "RB") != 0x27 || field_of(w, "GP") != 5 || field_of(w, "GNEG") != 1 ||
	    field_of(w, "BIMM") != 0)
		die("register/guard field positions disagree with wg_isa_encode", "IMAD");
	in.bimm = 1, in.b = 0xDEADBEEF;
	w = wg_isa_encode(&in);
	if (field_of(w, "B") != 0xDEADBEEF || field_of(w, "BIMM") != 1)
		die("immediate field positions disagree with wg_isa_encode", "IMAD");
	wg_insn_init(&in, wg_isa_find("S2R"));
	in.b = WG_SR_COUNT - 1;
	if (field_of(wg_isa_encode(&in), "SR") != WG_SR_COUNT - 1)
		die("special-register field disagrees with wg_isa_encode", "S2R");
	wg_insn_init(&in, wg_isa_find("BRA"));
	in.reconv = 0x2A5A5, in.b = 0x1234;
	w = wg_isa_encode(&in);
	if (field_of(w, "RECONV") != 0x2A5A5 || field_of(w, "B") != 0x1234)
		die("branch field positions disagree with wg_isa_encode", "BRA");
}

int main(void)
{
	unsigned fmt_w = clog2(WG_FMT_COUNT), cls_w = clog2(WG_CLASS_COUNT), sr_w = clog2(WG_SR_COUNT);
	char id[32];

	check_fields();
	for (size_t i = 0; i < wg_isa_table_len; i++) {
		const struct wg_isa_entry *e = &wg_isa_table[i];
		if (!op_name(e->op))
			die("opcode without a SystemVerilog name (add it to op_names)", e->mnemonic);
		if (e->fmt >= WG_FMT_COUNT || e->cls >= WG_CLASS_COUNT || e->mod > 7)
			die("table row out of range", e->mnemonic);
		if (uses_gpr(e, PROBE_RD) != !!wg_fmt_writes_rd(e->fmt))
			die("wg_fmt_writes_rd and wg_isa_check_regs disagree", e->mnemonic);
	}
	for (size_t i = 0; i < ARRAY_LEN(op_names); i++)
		for (size_t j = i + 1; j < ARRAY_LEN(op_names); j++)
			if (op_names[i].op == op_names[j].op || !strcmp(op_names[i].name, op_names[j].name))
				die("duplicate opcode name", op_names[i].name);

	printf("// wg_isa_pkg: the warpgate ISA (docs/isa.md) for the RTL.\n"
	       "//\n"
	       "// GENERATED by host/tools/gen_isa_sv.c from the instruction table in\n"
	       "// host/src/isa_table.h; do not edit. Regenerate with `make rtl-isa-pkg`;\n"
	       "// `make rtl-test` fails when this file is out of date.\n"
	       "`default_nettype none\n\n"
	       "package wg_isa_pkg;\n\n"
	       "  // A table of constants: each block uses the entries it needs, so unused\n"
	       "  // ones are expected here (and only here).\n"
	       "  /* verilator lint_off UNUSEDPARAM */\n\n");

	printf("  // Instruction word fields: lowest bit and width.\n");
	printf("  localparam int unsigned INSN_W = 64;\n");
	for (size_t i = 0; i < ARRAY_LEN(fields); i++)
		printf("  localparam int unsigned %s_LSB = %u;\n  localparam int unsigned %s_W = %u;\n",
		       fields[i].name, fields[i].lsb, fields[i].name, fields[i].width);

	printf("\n  // Registers, predicates, control flow.\n");
	printf("  localparam int unsigned REG_W = 6;\n");
	printf("  localparam int unsigned NUM_GPR = %u;  // R0..R%u\n", WG_NUM_GPR, WG_NUM_GPR - 1);
	printf("  localparam logic [5:0] REG_RZ = 6'd%u;  // reads 0, writes discarded\n", WG_REG_RZ);
	printf("  localparam int unsigned PRED_W = 3;\n");
	printf("  localparam logic [2:0] PRED_PT = 3'd%u;  // always true\n", WG_PRED_PT);
	printf("  localparam int unsigned WARP_SIZE = %u;\n", WG_WARP_SIZE);
	printf("  localparam int unsigned PC_W = 18;\n");
	printf("  localparam logic [17:0] RECONV_NONE = 18'h%05X;\n", WG_RECONV_NONE);
	printf("  localparam int unsigned NUM_BARRIERS = %u;\n", WG_NUM_BARRIERS);

	printf("\n  // Opcodes (the op field).\n");
	for (size_t i = 0; i < ARRAY_LEN(op_names); i++)
		printf("  localparam logic [5:0] OP_%s = 6'd%u;\n", op_names[i].name, op_names[i].op);

	printf("\n  // Operand formats.\n  localparam int unsigned FMT_W = %u;\n", fmt_w);
	for (unsigned f = 0; f < WG_FMT_COUNT; f++)
		printf("  localparam logic [%u:0] FMT_%s = %u'd%u;\n", fmt_w - 1, fmt_names[f], fmt_w, f);

	printf("\n  // Operation classes (statistics, energy model).\n  localparam int unsigned CLASS_W = %u;\n",
	       cls_w);
	for (unsigned c = 0; c < WG_CLASS_COUNT; c++) {
		const char *n = wg_class_name(c);
		printf("  localparam logic [%u:0] CLASS_", cls_w - 1);
		for (const char *p = n; *p; p++)
			putchar(toupper((unsigned char)*p));
		printf(" = %u'd%u;\n", cls_w, c);
	}

	printf("\n  // Load/store width modifiers (the mod field of LD/ST formats).\n");
	for (unsigned w = 0; w < ARRAY_LEN(width_names); w++)
		printf("  localparam logic [2:0] W_%s = 3'd%u;\n", width_names[w], w);

	printf("\n  // Special registers (S2R).\n  localparam int unsigned SR_NUM_W = %u;\n", sr_w);
	printf("  localparam int unsigned NUM_SR = %u;\n", WG_SR_COUNT);
	for (unsigned s = 0; s < WG_SR_COUNT; s++) {
		sreg_ident(s, id, sizeof(id));
		printf("  localparam logic [%u:0] %s = %u'd%u;\n", sr_w - 1, id, sr_w, s);
	}
	printf("\n  /* verilator lint_on UNUSEDPARAM */\n");

	printf("\n  // What the decoder needs to know about one (op, mod) pair.\n"
	       "  typedef struct packed {\n"
	       "    logic               legal;  // (op, mod) is a row of the instruction table\n"
	       "    logic [FMT_W-1:0]   fmt;\n"
	       "    logic [CLASS_W-1:0] cls;\n"
	       "    logic               has_b;  // B is register-or-immediate: reads rb when bimm = 0\n"
	       "    logic               wr_rd;  // writes general register rd (LD: rd..rd+n-1)\n"
	       "    logic               rd_ra;  // reads general register ra\n"
	       "    logic               rd_rc;  // reads general register rc (ST: rc..rc+n-1)\n"
	       "  } insn_info_t;\n\n");

	printf("  function automatic insn_info_t insn_info(input logic [OP_W-1:0] op,\n"
	       "                                           input logic [MOD_W-1:0] mod);\n"
	       "    case ({op, mod})\n");
	for (size_t i = 0; i < wg_isa_table_len; i++) {
		const struct wg_isa_entry *e = &wg_isa_table[i];
		printf("      {OP_%s, 3'd%u}: insn_info = {1'b1, FMT_%s, CLASS_", op_name(e->op), e->mod,
		       fmt_names[e->fmt]);
		for (const char *p = wg_class_name(e->cls); *p; p++)
			putchar(toupper((unsigned char)*p));
		printf(", 1'b%d, 1'b%d, 1'b%d, 1'b%d};  // %s\n", !!wg_fmt_has_b(e->fmt),
		       uses_gpr(e, PROBE_RD), uses_gpr(e, PROBE_RA), uses_gpr(e, PROBE_RC), e->mnemonic);
	}
	printf("      default: insn_info = '0;  // illegal instruction\n"
	       "    endcase\n"
	       "  endfunction\n\n");

	printf("  // Bytes moved per thread by a load/store width modifier (0: invalid).\n"
	       "  function automatic logic [4:0] width_bytes(input logic [2:0] mod);\n"
	       "    case (mod)\n");
	for (unsigned m = 0; m < 8; m++)
		printf("      3'd%u: width_bytes = 5'd%u;\n", m, wg_width_bytes(m));
	printf("      default: width_bytes = 5'd0;\n    endcase\n  endfunction\n\n");

	printf("  // Registers per thread read or written by a load/store width modifier.\n"
	       "  function automatic logic [2:0] width_regs(input logic [2:0] mod);\n"
	       "    case (mod)\n");
	for (unsigned m = 0; m < 8; m++)
		printf("      3'd%u: width_regs = 3'd%u;\n", m, wg_width_regs(m));
	printf("      default: width_regs = 3'd1;\n    endcase\n  endfunction\n\n");

	printf("endpackage\n");
	return ferror(stdout) ? 1 : 0;
}
