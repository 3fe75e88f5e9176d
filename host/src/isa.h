/* warpgate ISA: instruction table, encoding and decoding (docs/isa.md). */
#ifndef WG_ISA_H
#define WG_ISA_H

#include <stdint.h>
#include <stddef.h>

#define WG_NUM_GPR 63    /* R0..R62 */
#define WG_REG_RZ 63     /* zero register */
#define WG_PRED_PT 7     /* always-true predicate */
#define WG_WARP_SIZE 32
#define WG_RECONV_NONE 0x3FFFFu
#define WG_PC_MAX 0x3FFFFu /* kernels hold fewer instructions than this */
#define WG_NUM_BARRIERS 16

enum wg_opcode {
	WG_OP_ILLEGAL = 0,
	WG_OP_NOP = 1,
	WG_OP_MOV = 2,
	WG_OP_IADD = 3,
	WG_OP_ISUB = 4,
	WG_OP_IMUL = 5,
	WG_OP_IMAD = 6,
	WG_OP_IMIN = 7,
	WG_OP_IMAX = 8,
	WG_OP_IABS = 9,
	WG_OP_AND = 10,
	WG_OP_OR = 11,
	WG_OP_XOR = 12,
	WG_OP_NOT = 13,
	WG_OP_SHL = 14,
	WG_OP_SHR = 15,
	WG_OP_POPC = 16,
	WG_OP_CLZ = 17,
	WG_OP_BREV = 18,
	WG_OP_SEL = 19,
	WG_OP_ISETP = 20,
	WG_OP_ISETPU = 21,
	WG_OP_PLOP = 22,
	WG_OP_FADD = 24,
	WG_OP_FSUB = 25,
	WG_OP_FMUL = 26,
	WG_OP_FFMA = 27,
	WG_OP_FMIN = 28,
	WG_OP_FMAX = 29,
	WG_OP_FSETP = 30,
	WG_OP_I2F = 31,
	WG_OP_F2I = 32,
	WG_OP_FRND = 33,
	WG_OP_MUFU = 34,
	WG_OP_FDIV = 35,
	WG_OP_FSQRT = 36,
	WG_OP_IDIV = 37,
	WG_OP_IREM = 38,
	WG_OP_LDG = 40,
	WG_OP_LDGCG = 41,
	WG_OP_LDS = 42,
	WG_OP_LDL = 43,
	WG_OP_LDC = 44,
	WG_OP_STG = 45,
	WG_OP_STS = 46,
	WG_OP_STL = 47,
	WG_OP_ATOMG = 48,
	WG_OP_ATOMGX = 49,
	WG_OP_ATOMS = 50,
	WG_OP_ATOMSX = 51,
	WG_OP_S2R = 56,
	WG_OP_BRA = 57,
	WG_OP_BAR = 58,
	WG_OP_EXIT = 59,
	WG_OP_MEMBAR = 60,
	WG_OP_COUNT = 64
};

/* Operand signatures (docs/isa.md section 2, "Formats"). */
enum wg_fmt {
	WG_FMT_N,
	WG_FMT_RB,
	WG_FMT_RA,
	WG_FMT_RAB,
	WG_FMT_RABC,
	WG_FMT_SEL,
	WG_FMT_SETP,
	WG_FMT_PLOP,
	WG_FMT_S2R,
	WG_FMT_LD,
	WG_FMT_ST,
	WG_FMT_ATOM,
	WG_FMT_CAS,
	WG_FMT_BRA,
	WG_FMT_BAR,
	WG_FMT_COUNT
};

/* Operation classes, for statistics and the energy model. */
enum wg_class {
	WG_CLASS_INT,
	WG_CLASS_IMUL,
	WG_CLASS_FP,
	WG_CLASS_SFU,
	WG_CLASS_LDST_GLOBAL,
	WG_CLASS_LDST_SHARED,
	WG_CLASS_LDST_LOCAL,
	WG_CLASS_LDST_PARAM,
	WG_CLASS_ATOMIC,
	WG_CLASS_BRANCH,
	WG_CLASS_BARRIER,
	WG_CLASS_CONTROL,
	WG_CLASS_COUNT
};

/* MUFU functions (the mod field of MUFU). */
enum wg_mufu {
	WG_MUFU_RCP = 0,
	WG_MUFU_RSQ = 1,
	WG_MUFU_SQRT = 2,
	WG_MUFU_EX2 = 3,
	WG_MUFU_LG2 = 4,
	WG_MUFU_SIN = 5,
	WG_MUFU_COS = 6
};

/* Load/store width modifiers (the mod field of LD/ST formats). */
enum wg_width {
	WG_W_U8 = 0,
	WG_W_S8 = 1,
	WG_W_U16 = 2,
	WG_W_S16 = 3,
	WG_W_32 = 4,
	WG_W_64 = 5,
	WG_W_128 = 6
};

/* Special registers (S2R). */
enum wg_sreg {
	WG_SR_TID_X, WG_SR_TID_Y, WG_SR_TID_Z,
	WG_SR_NTID_X, WG_SR_NTID_Y, WG_SR_NTID_Z,
	WG_SR_CTAID_X, WG_SR_CTAID_Y, WG_SR_CTAID_Z,
	WG_SR_NCTAID_X, WG_SR_NCTAID_Y, WG_SR_NCTAID_Z,
	WG_SR_LANEID, WG_SR_WARPID, WG_SR_SMID,
	WG_SR_CLOCK, WG_SR_CLOCKHI,
	WG_SR_COUNT
};

/* One row of the instruction table. */
struct wg_isa_entry {
	const char *mnemonic;
	uint8_t op;
	uint8_t mod;
	uint8_t fmt;
	uint8_t cls;
};

/* A decoded instruction. Register fields are the raw 6-bit numbers. */
struct wg_insn {
	const struct wg_isa_entry *e; /* table row; NULL only on decode failure */
	uint8_t op, mod, bimm, gneg, gp;
	uint8_t rd, ra, rc;
	uint32_t b;      /* immediate, or rb when !bimm in formats with B */
	uint32_t reconv; /* BRA: reconvergence pc or WG_RECONV_NONE */
};

extern const struct wg_isa_entry wg_isa_table[];
extern const size_t wg_isa_table_len;

/* Table lookups. */
const struct wg_isa_entry *wg_isa_lookup(uint8_t op, uint8_t mod);
const struct wg_isa_entry *wg_isa_find(const char *mnemonic); /* case-insensitive */
const char *wg_class_name(unsigned cls);
const char *wg_sreg_name(unsigned sr); /* "SR_TID.X"; NULL when out of range */
int wg_sreg_find(const char *name);   /* case-insensitive; -1 if unknown */

/* Operand properties of a format. */
int wg_fmt_has_b(unsigned fmt);  /* B is register-or-immediate */
int wg_fmt_writes_rd(unsigned fmt);

/* Bytes moved per thread by a load/store width modifier (0 if invalid). */
unsigned wg_width_bytes(unsigned mod);
/* Registers written/read per thread by a width modifier (1, 2 or 4). */
unsigned wg_width_regs(unsigned mod);

/* Encode: packs the fields of insn (insn->e gives op/mod/format). */
uint64_t wg_isa_encode(const struct wg_insn *insn);

/*
 * Decode a word. Returns 0, or a negative error with a message in why
 * (why may be NULL) when the word is an illegal instruction: unknown op/mod,
 * non-zero unused fields, bad predicate numbers, misaligned vector registers.
 * Register limits of a particular kernel (.regs) are checked by
 * wg_isa_check_regs.
 */
int wg_isa_decode(uint64_t word, struct wg_insn *insn, char *why, size_t whylen);

/* Check every register operand against a kernel's registers per thread. */
int wg_isa_check_regs(const struct wg_insn *insn, unsigned regs, char *why, size_t whylen);

/*
 * Optional units a piece of code needs (an SM built without one decodes these
 * instructions as illegal, rtl/wg_decode.sv): WG_NEED_FP for class FP and the
 * FP32 atomics (ATOM*.ADD.F32, the LSU's FP32 adder), WG_NEED_SFU for class SFU.
 * Words that do not decode are ignored (the assembler and the loader reject them).
 * When first_pc is not NULL it gets, per need bit, the first pc needing it
 * (first_pc[0] FP, first_pc[1] SFU; UINT32_MAX when none).
 */
enum { WG_NEED_FP = 1u << 0, WG_NEED_SFU = 1u << 1 };
unsigned wg_isa_needs(const uint64_t *code, uint32_t n, uint32_t first_pc[2]);

/* Build an instruction from a table row with everything else zero/unguarded. */
void wg_insn_init(struct wg_insn *insn, const struct wg_isa_entry *e);

#endif
