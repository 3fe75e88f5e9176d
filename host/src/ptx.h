/*
 * The PTX frontend (docs/ptx.md): PTX text as nvcc writes it -> warpgate
 * assembly (docs/isa.md) -> kernel image.
 *
 *   parse (ptx.c)          PTX text -> struct wg_ptx_module (statements, declarations)
 *   translate (ptx_xlat.c) each kernel -> struct wg_px_code: ISA instructions over
 *                          virtual registers, labels and branches
 *   CFG (ptx_cfg.c)        basic blocks, immediate post-dominators, liveness
 *   allocate (ptx_ra.c)    linear scan into R0..R62 / P0..P6, spills through LDL/STL
 *   emit (ptx_xlat.c)      assembly text, then the assembler (asm.c)
 *
 * Every error names the input file, the PTX line and the construct:
 * "k.ptx:57: unsupported instruction 'vote.sync.ballot.b32'".
 */
#ifndef WG_PTX_H
#define WG_PTX_H

#include <stdint.h>
#include <stdio.h>

#include "image.h"

/* ------------------------------------------------------------------------ */
/* Parsed PTX                                                               */

#define WG_PTX_NAME_MAX 128 /* identifiers, including NUL */
#define WG_PTX_MAX_OPS 6

enum wg_ptx_okind {
	WG_PTX_O_REG,  /* %r1, %tid.x, a kernel parameter or variable name: name */
	WG_PTX_O_INT,  /* integer literal: ival */
	WG_PTX_O_F32,  /* 0fXXXXXXXX or a decimal float literal: fbits */
	WG_PTX_O_ADDR, /* [name], [name+imm], [imm]: name ("" when absent), ival = offset */
	WG_PTX_O_VEC,  /* {a, b, c, d}: names in vec[], nvec of them */
	WG_PTX_O_F64,  /* 0dXXXXXXXXXXXXXXXX: kept to report it */
};

struct wg_ptx_opnd {
	uint8_t kind;
	uint8_t neg; /* !%p */
	uint8_t nvec;
	char name[WG_PTX_NAME_MAX];
	char vec[4][WG_PTX_NAME_MAX];
	int64_t ival;
	uint32_t fbits;
};

struct wg_ptx_stmt {
	unsigned line;
	int is_label;               /* a label: name in op */
	char op[WG_PTX_NAME_MAX];   /* "ld.global.u32", or the label name */
	char guard[WG_PTX_NAME_MAX]; /* "" when unguarded */
	int gneg;
	int nops;
	struct wg_ptx_opnd ops[WG_PTX_MAX_OPS];
};

enum wg_ptx_space { WG_PTX_SHARED, WG_PTX_LOCAL };

/* .shared / .local variable (array) declaration. */
struct wg_ptx_var {
	char name[WG_PTX_NAME_MAX];
	unsigned line;
	uint8_t space;     /* enum wg_ptx_space */
	uint8_t is_extern; /* .extern .shared x[] : dynamic shared memory */
	uint32_t align;
	uint32_t size;     /* bytes */
};

/* .reg declaration: %r<9> (count 9, names %r0..%r8) or a single name (count 0). */
struct wg_ptx_regdecl {
	char name[WG_PTX_NAME_MAX];
	char type[8]; /* "pred", "b32", "u64", "f32", ... */
	unsigned line;
	uint32_t count;
};

struct wg_ptx_param {
	char name[WG_PTX_NAME_MAX];
	char type[8]; /* "u32", "u64", "f32", "b8", ... */
	unsigned line;
	uint32_t align; /* .align N, 0 when absent */
	uint32_t count; /* array elements, 0 for a scalar */
};

struct wg_ptx_kernel {
	char name[WG_PTX_NAME_MAX];
	unsigned line;
	uint32_t nparams;
	struct wg_ptx_param *params;
	uint32_t nregs;
	struct wg_ptx_regdecl *regs;
	uint32_t nvars;
	struct wg_ptx_var *vars;
	uint32_t nstmts;
	struct wg_ptx_stmt *stmts;
};

struct wg_ptx_module {
	char file[256];
	unsigned version_major, version_minor;
	unsigned address_size;
	uint32_t nvars; /* module-scope .shared variables */
	struct wg_ptx_var *vars;
	uint32_t nkernels;
	struct wg_ptx_kernel *kernels;
};

/*
 * Parse PTX text (NUL-terminated). Errors go to diag (may be NULL) as
 * "file:line: error: ..."; returns 0, WG_ESYNTAX (bad or unsupported input)
 * or WG_ENOMEM. The module is freed on error.
 */
int wg_ptx_parse(struct wg_ptx_module *m, const char *src, const char *filename, FILE *diag);
void wg_ptx_free(struct wg_ptx_module *m);

/* True when text looks like PTX: a .version directive before any other statement. */
int wg_ptx_sniff(const char *text, size_t len);

/* ------------------------------------------------------------------------ */
/* Translated code: ISA instructions over virtual registers                  */

enum wg_px_class { WG_PX_GPR, WG_PX_PRED };

/*
 * One instruction. text is the assembly with placeholders for registers:
 * {d} the destination, {0} {1} {2} the sources, written in the template's
 * order; the guard is printed separately. Virtual registers are numbered
 * from 0; -1 = absent.
 */
enum wg_px_kind {
	WG_PX_OP,    /* any non-control instruction */
	WG_PX_LABEL, /* a label: label = its number */
	WG_PX_BRA,   /* BRA to label; guarded when guard >= 0 */
	WG_PX_EXIT,  /* EXIT; guarded when guard >= 0 */
};

#define WG_PX_TEXT_MAX 160

struct wg_px_insn {
	uint8_t kind;
	uint8_t gneg;
	int32_t guard; /* predicate vreg or -1 */
	int32_t def;   /* vreg or -1 */
	int32_t src[3];
	int32_t label; /* LABEL: its number; BRA: the target */
	unsigned line; /* PTX line, 0 for none */
	char text[WG_PX_TEXT_MAX];
};

struct wg_px_code {
	uint32_t n, cap;
	struct wg_px_insn *insns;
	uint32_t nvregs, cap_vregs;
	uint8_t *vclass; /* enum wg_px_class per vreg */
	uint32_t nlabels, cap_labels;
	char (*labels)[WG_NAME_MAX]; /* label names ("" = generated: L<number>) */
};

void wg_px_code_free(struct wg_px_code *c);
int wg_px_new_vreg(struct wg_px_code *c, unsigned cls); /* vreg number or WG_ENOMEM */
int wg_px_new_label(struct wg_px_code *c, const char *name); /* label number or WG_ENOMEM */
/* Append an instruction; returns a pointer to it (NULL when out of memory). */
struct wg_px_insn *wg_px_append(struct wg_px_code *c, unsigned kind, unsigned line);

/* ------------------------------------------------------------------------ */
/* Control-flow graph (ptx_cfg.c)                                           */

#define WG_PX_NONE UINT32_MAX

struct wg_px_cfg {
	uint32_t nblocks;    /* blocks 0..nblocks-1; the virtual exit is number nblocks */
	uint32_t *start;     /* first instruction of each block */
	uint32_t *end;       /* one past the last instruction */
	uint32_t (*succ)[2]; /* successors (WG_PX_NONE = absent; nblocks = exit) */
	uint32_t *ipdom;     /* immediate post-dominator; nblocks = exit; WG_PX_NONE = none (cannot reach exit) */
	uint32_t *block_of;  /* block of each instruction */
	/* liveness: bitsets of vregs, words per set = (nvregs + 63) / 64 */
	uint32_t words;
	uint64_t *live_in, *live_out;
};

/*
 * Build the CFG of code (basic blocks split at labels and after BRA/EXIT;
 * successors as docs/isa.md section 4 defines them) and the immediate
 * post-dominator of every block. Returns 0, WG_ESYNTAX when the last
 * instruction can fall through, WG_ENOMEM.
 */
int wg_px_cfg_build(struct wg_px_cfg *g, const struct wg_px_code *c);
/* Live-in / live-out sets of every block (a guarded definition does not kill). */
int wg_px_liveness(struct wg_px_cfg *g, const struct wg_px_code *c);
void wg_px_cfg_free(struct wg_px_cfg *g);
static inline int wg_px_live(const uint64_t *set, uint32_t words, uint32_t blk, uint32_t v)
{
	return (int)((set[(size_t)blk * words + v / 64] >> (v % 64)) & 1);
}

/* ------------------------------------------------------------------------ */
/* Register allocation (ptx_ra.c)                                           */

#define WG_PX_SPILLED (-2) /* phys[v] of a spilled vreg */
#define WG_PX_UNUSED (-1)  /* a vreg never defined or used */

struct wg_px_ra_opts {
	uint32_t gprs;  /* allocatable general registers, 0: 63 (R0..R62) */
	uint32_t preds; /* allocatable predicates, 0: 7 (P0..P6) */
	uint32_t spill_base; /* local byte offset of the first spill slot */
};

struct wg_px_ra {
	int32_t *phys;      /* per vreg: register number, WG_PX_SPILLED or WG_PX_UNUSED */
	uint32_t *slot;     /* per vreg: spill slot byte offset (spilled ones) */
	uint32_t regs;      /* .regs: highest general register used + 1 (scratch included), at least 1 */
	uint32_t nspilled;  /* spilled vregs (both classes) */
	uint32_t local_end; /* spill_base + 4 * slots */
	int gpr_scratch;    /* first of 3 scratch registers (-1: none) */
	int pred_scratch;   /* first of 3 scratch predicates (-1: none) */
};

/*
 * Linear-scan allocation over the liveness of g. Spilled vregs get a 4-byte
 * slot in local memory; the emitter reloads them into scratch registers
 * (three general registers at the top of the allocatable range, and three
 * predicates P4..P6 when predicates spill). 0 or WG_ENOMEM.
 */
int wg_px_regalloc(struct wg_px_ra *ra, const struct wg_px_code *c, const struct wg_px_cfg *g,
                   const struct wg_px_ra_opts *opts);
void wg_px_ra_free(struct wg_px_ra *ra);

/* ------------------------------------------------------------------------ */
/* Translation (ptx_xlat.c)                                                 */

/*
 * Translate one parsed kernel into code over virtual registers; fills the
 * image kernel's name, parameters, shared and local sizes (not code).
 * Errors go to diag as "file:line: error: ...". 0, WG_ESYNTAX, WG_ENOMEM.
 */
int wg_ptx_lower(const struct wg_ptx_module *m, const struct wg_ptx_kernel *pk, struct wg_px_code *c,
                 struct wg_kernel *k, FILE *diag);

/*
 * The whole pipeline: PTX text -> assembly text (*asm_out, malloc'd, with
 * "; ptx N" comments) -> image (img may be NULL to skip assembling).
 * 0, WG_ESYNTAX, WG_ENOMEM.
 */
int wg_ptx_translate(const char *src, const char *filename, char **asm_out, struct wg_image *img, FILE *diag);
int wg_ptx_translate_file(const char *path, char **asm_out, struct wg_image *img, FILE *diag);

#endif
