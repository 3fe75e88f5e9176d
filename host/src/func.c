/*
 * The functional golden model ("func" target): exact ISA semantics of
 * docs/isa.md, no timing. docs/golden-model.md describes its behaviour.
 *
 * Layout for speed: each launch's code is decoded once into an array of
 * struct dinsn (operands already turned into register-file rows, immediates
 * of register-or-immediate operands broadcast into 32-lane rows), and a
 * warp's registers are stored lane-contiguous, r[row][lane], so that the
 * per-lane loops of the ALU instructions run over contiguous arrays that
 * gcc vectorises. Row 63 is RZ and stays zero; writes to RZ go to the sink
 * row 64. Predicates are 32-bit lane masks; slot 7 (PT) is all ones and
 * writes to PT go to the sink slot 8.
 */
#include "func.h"

#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa.h"
#include "memrules.h"
#include "sfu.h"
#include "warpgate.h"

#define LANES 32
#define ROW_RZ 63
#define ROW_SINK 64
#define NROWS 66
#define PRED_PT 7
#define PRED_SINK 8
#define NPRED 9
#define FULL_MASK 0xFFFFFFFFu
#define CANON_NAN 0x7FFFFFFFu
/* A split always pushes two entries whose masks are strictly smaller than
 * the splitting one, so 1 + 2 x 31 entries suffice for 32 lanes. */
#define STACK_MAX 64

#define unlikely(x) __builtin_expect(!!(x), 0)
/* Helpers of the interpreter loop: inlined into each of its clones (see run_warp). */
#define HOT static inline __attribute__((always_inline))

/* Handlers. Kinds before K_BRA have no effect when the execution mask is empty. */
enum kind {
	K_NOP,
	K_MOV, K_IADD, K_ISUB, K_IMUL, K_IMULHS, K_IMULHU, K_IMAD, K_IMADHS, K_IMADHU,
	K_IMINS, K_IMINU, K_IMAXS, K_IMAXU, K_IABS, K_AND, K_OR, K_XOR, K_NOT,
	K_SHL, K_SHRU, K_SHRS, K_POPC, K_CLZ, K_BREV, K_SEL, K_ISETP, K_ISETPU, K_PLOP,
	K_FADD, K_FSUB, K_FMUL, K_FFMA, K_FARITH, K_FMIN, K_FMAX, K_FSETP, K_I2FS, K_I2FU, K_F2I, K_FRND,
	K_MUFU, K_FDIV, K_FSQRT, K_IDIVS, K_IDIVU, K_IREMS, K_IREMU,
	K_S2R, K_LD, K_ST, K_ATOM,
	K_BRA, K_BAR, K_EXIT, K_ILLEGAL,
};

enum space { SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_PARAM };

/* What a memory instruction counts (docs/memory-pipeline.md sections 1 and 2). */
enum mkind { MK_NONE, MK_GLD, MK_GLDCG, MK_GST, MK_GATOM, MK_LLD, MK_LST, MK_SLD, MK_SST, MK_SATOM, MK_LDC };

static const char *const space_names[] = { "global", "shared", "local", "param" };

/* Atomic operations: ATOMG/ATOMS mods 0..7, then ATOMGX/ATOMSX mods 0..4 at 8.. */
enum atom_op {
	A_ADD, A_MINS, A_MAXS, A_EXCH, A_CAS, A_AND, A_OR, A_XOR,
	A_MINU, A_MAXU, A_INC, A_DEC, A_FADD,
};

/* Condition codes of ISETP/FSETP. */
enum cc { CC_EQ, CC_NE, CC_LT, CC_LE, CC_GT, CC_GE, CC_NUM, CC_NAN };

struct dinsn {
	uint8_t kind;
	uint8_t cls;
	uint8_t sub;    /* cc, rounding/type, width, atomic op, PLOP op */
	uint8_t space;
	uint8_t gp;     /* guard predicate slot */
	uint8_t rd;     /* destination row (ROW_SINK for RZ) or predicate slot */
	uint8_t ra;     /* source row, or predicate slot (PLOP) */
	uint8_t rb;     /* source row when B is a register */
	uint8_t rc;     /* source row, or predicate slot (SEL, PLOP) */
	uint8_t bytes;  /* LD/ST: bytes per lane */
	uint8_t nregs;  /* LD/ST: registers per lane */
	uint8_t dst;    /* retire log: enum wg_retire_dst */
	uint8_t dreg;   /* retire log: register or predicate number */
	uint8_t skip;   /* retire log: target-dependent values */
	uint8_t mk;     /* memory counters: enum mkind */
	uint32_t gxor;  /* guard: FULL_MASK when negated */
	uint32_t xa, xc; /* predicate operand negations (PLOP, SEL) */
	uint32_t imm;   /* memory offset, branch target, barrier id, special register */
	uint32_t reconv;
	uint32_t mci;   /* memory counters: 1 + index of the instruction's struct mcache, 0 none */
	const uint32_t *bimm; /* broadcast immediate B, NULL when B is a register */
};

/*
 * The last access of a global or shared load or store and its transaction
 * count (or passes): the warps of a kernel mostly repeat an access pattern at
 * other addresses. The count is the same for the same mask and the same
 * addresses relative to the leader's 128-byte line (global) or the leader's
 * word (shared, in words), so key holds those (0 for inactive lanes).
 */
struct mcache {
	uint32_t mask, ntx;
	uint32_t key[LANES];
};

struct sentry {
	uint32_t pc, rpc, mask;
};

enum wstate { W_RUN, W_WAIT, W_DONE };

struct warp {
	uint32_t r[NROWS][LANES];
	uint32_t p[NPRED + 3];
	struct sentry stk[STACK_MAX];
	uint32_t sp;
	uint32_t lanes;  /* lanes that exist (partial last warp) */
	uint32_t tid0;   /* linear thread id of lane 0 */
	uint32_t index;  /* warp index in the CTA */
	uint32_t state;  /* enum wstate */
	uint32_t bar;    /* barrier id while waiting */
} __attribute__((aligned(64)));

struct run;

struct wg_func {
	struct wg_gmem *gmem;
	struct wg_config cfg;
	int (*run)(struct run *R, struct warp *w); /* the interpreter for this CPU */
	/* Buffers kept across launches. */
	struct warp *warps;
	size_t cap_warps;
	uint8_t *shared;
	size_t cap_shared;
	uint8_t *local;
	size_t cap_local;
};

/* State of one launch. */
struct run {
	struct wg_func *f;
	const struct wg_launch *l;
	const struct wg_kernel *k;
	struct dinsn *code;
	uint32_t ninsns;
	struct mcache *mcache;             /* per global/shared load and store (dinsn.mci) */
	uint32_t (*imm)[LANES];
	struct warp *warps;
	uint32_t nwarps, nthreads;
	uint8_t *shared;
	uint32_t shared_win;
	uint8_t *local;
	uint32_t local_win;
	const uint8_t *params;
	uint32_t param_win;
	uint32_t ctaid[3];
	uint32_t cta;         /* linear CTA id (low 32 bits) */
	uint64_t cw[WG_CLASS_COUNT], ct[WG_CLASS_COUNT];
	uint64_t branches, divergent, barriers;
	uint64_t gld, gst, shld, shst, lld, lst, atoms;
	uint64_t mc[WG_MEMCNT_COUNT];      /* memory-pipeline counters (enum wg_memcnt) */
	uint8_t mcp_i[2];                  /* the memory access being executed: counters ... */
	uint32_t mcp_v[2];                 /* ... and what it adds when it completes */
	struct wg_retire_log *log;
	struct wg_err *err;
	/* Lockstep stepping (wg_func_ls_*): unused by wg_func_run. */
	int ls_mode;                       /* enum wg_func_ls_mode */
	const struct wg_func_ls_rec *obs;  /* observed record of the step (CHECK) */
	struct wg_func_ls_rec *rec;        /* record of the step */
	uint32_t local_base;               /* device address of the local region (wg_func_run: 0) */
	uint32_t total_threads;            /* threads in the grid (local interleave) */
};

static const uint32_t lanebit[LANES] __attribute__((aligned(64))) = {
	1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
	1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
	1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
	1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};

/* ------------------------------------------------------------------------ */
/* Scalar semantics                                                          */

HOT float u2f(uint32_t u)
{
	float x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

HOT uint32_t f2u(float x)
{
	uint32_t u;

	memcpy(&u, &x, sizeof(u));
	return u;
}

/* The bits of an FP32 result, any NaN made the canonical NaN. */
HOT uint32_t fres(float x)
{
	return x != x ? CANON_NAN : f2u(x);
}

HOT int is_nan(uint32_t u)
{
	return (u & 0x7FFFFFFFu) > 0x7F800000u;
}

/* IEEE 754 minNum / maxNum with -0 < +0. */
HOT uint32_t fmin_bits(uint32_t ua, uint32_t ub)
{
	float x = u2f(ua), y = u2f(ub);

	if (is_nan(ua))
		return is_nan(ub) ? CANON_NAN : ub;
	if (is_nan(ub))
		return ua;
	if (x < y)
		return ua;
	if (y < x)
		return ub;
	return ua | ub; /* equal: differ at most in the sign of a zero */
}

HOT uint32_t fmax_bits(uint32_t ua, uint32_t ub)
{
	float x = u2f(ua), y = u2f(ub);

	if (is_nan(ua))
		return is_nan(ub) ? CANON_NAN : ub;
	if (is_nan(ub))
		return ua;
	if (x > y)
		return ua;
	if (y > x)
		return ub;
	return ua & ub;
}

/* FP32 rounded to an integral value: mode 0 RN, 1 RZ, 2 RM, 3 RP. */
HOT float round_mode(float x, unsigned mode)
{
	switch (mode) {
	case 0: return rintf(x); /* the run sets round-to-nearest-even */
	case 1: return truncf(x);
	case 2: return floorf(x);
	default: return ceilf(x);
	}
}

/* FTZ operand: a subnormal becomes the zero of its sign. */
HOT uint32_t ftz_bits(uint32_t u)
{
	return (u & 0x7F800000u) ? u : (u & 0x80000000u);
}

/*
 * FADD/FSUB/FMUL/FFMA with a rounding mode or FTZ (docs/isa.md section 7):
 * sub = (op - FADD) << 3 | rounding | ftz << 2. The host's FPU rounds in the
 * mode for the whole warp; the volatile operands keep the arithmetic between
 * the two fesetround calls. FTZ flushes the operands, then a subnormal result.
 */
static __attribute__((noinline)) void farith_lanes(unsigned sub, const uint32_t *A, const uint32_t *B,
                                                   const uint32_t *C, uint32_t *t)
{
	static const int fe_mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
	unsigned op = sub >> 3, ftz = sub & 4;
	volatile float va, vb, vc, vr;

	fesetround(fe_mode[sub & 3]);
	for (unsigned l = 0; l < LANES; l++) {
		uint32_t a = A[l], b = B[l], c = C[l], r;

		if (ftz) {
			a = ftz_bits(a);
			b = ftz_bits(b);
			c = ftz_bits(c);
		}
		va = u2f(a);
		vb = u2f(b);
		vc = u2f(c);
		switch (op) {
		case 0: vr = va + vb; break;
		case 1: vr = va - vb; break;
		case 2: vr = va * vb; break;
		default: vr = fmaf(va, vb, vc); break;
		}
		r = fres(vr);
		t[l] = ftz ? ftz_bits(r) : r;
	}
	fesetround(FE_TONEAREST);
}

/* F2I: mod = unsigned | rounding << 1. */
HOT uint32_t f2i(uint32_t u, unsigned mod)
{
	float x = u2f(u), r;

	if (x != x)
		return 0;
	r = round_mode(x, mod >> 1);
	if (mod & 1) {
		if (r <= 0.0f)
			return 0;
		if (r >= 4294967296.0f)
			return 0xFFFFFFFFu;
		return (uint32_t)r;
	}
	if (r >= 2147483648.0f)
		return 0x7FFFFFFFu;
	if (r < -2147483648.0f)
		return 0x80000000u;
	return (uint32_t)(int32_t)r;
}

/* Lane count of a mask without a library call (no popcnt instruction in the base ISA). */
HOT uint32_t popc32(uint32_t x)
{
	x = x - (x >> 1 & 0x55555555u);
	x = (x & 0x33333333u) + (x >> 2 & 0x33333333u);
	x = (x + (x >> 4)) & 0x0F0F0F0Fu;
	return x * 0x01010101u >> 24;
}

HOT uint32_t brev32(uint32_t x)
{
	x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
	x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
	x = (x >> 4 & 0x0F0F0F0Fu) | (x & 0x0F0F0F0Fu) << 4;
	x = (x >> 8 & 0x00FF00FFu) | (x & 0x00FF00FFu) << 8;
	return x >> 16 | x << 16;
}

HOT uint32_t atom_apply(unsigned op, uint32_t old, uint32_t b, uint32_t c)
{
	switch (op) {
	case A_ADD: return old + b;
	case A_MINS: return (int32_t)old < (int32_t)b ? old : b;
	case A_MAXS: return (int32_t)old > (int32_t)b ? old : b;
	case A_EXCH: return b;
	case A_CAS: return old == b ? c : old;
	case A_AND: return old & b;
	case A_OR: return old | b;
	case A_XOR: return old ^ b;
	case A_MINU: return old < b ? old : b;
	case A_MAXU: return old > b ? old : b;
	case A_INC: return old >= b ? 0 : old + 1;
	case A_DEC: return (old == 0 || old > b) ? b : old - 1;
	default: return fres(u2f(old) + u2f(b)); /* A_FADD */
	}
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */

static int fault(struct run *R, const struct warp *w, uint32_t pc, int lane, int rc, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int fault(struct run *R, const struct warp *w, uint32_t pc, int lane, int rc, const char *fmt, ...)
{
	char *p = R->err->msg;
	size_t len = sizeof(R->err->msg);
	int n;
	va_list ap;

	n = snprintf(p, len, "kernel '%s': CTA (%u,%u,%u)", R->k->name, R->ctaid[0], R->ctaid[1], R->ctaid[2]);
	if (w && n > 0 && (size_t)n < len)
		n += snprintf(p + n, len - (size_t)n, " warp %u pc %u", w->index, pc);
	if (lane >= 0 && n > 0 && (size_t)n < len)
		n += snprintf(p + n, len - (size_t)n, " lane %d", lane);
	if (n > 0 && (size_t)n < len - 2) {
		p[n++] = ':';
		p[n++] = ' ';
		va_start(ap, fmt);
		vsnprintf(p + n, len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* ------------------------------------------------------------------------ */
/* Decoding                                                                  */

static uint8_t read_row(unsigned r)
{
	return (uint8_t)r; /* RZ (63) is the zero row */
}

static uint8_t write_row(unsigned r)
{
	return r == WG_REG_RZ ? ROW_SINK : (uint8_t)r;
}

static uint8_t pred_write(unsigned p)
{
	return p == PRED_PT ? PRED_SINK : (uint8_t)p;
}

static int decode_kind(const struct wg_insn *in, struct dinsn *d)
{
	static const uint8_t simple[WG_OP_COUNT][3] = {
		[WG_OP_MOV] = { K_MOV }, [WG_OP_IADD] = { K_IADD },
		[WG_OP_ISUB] = { K_ISUB }, [WG_OP_IMUL] = { K_IMUL, K_IMULHS, K_IMULHU },
		[WG_OP_IMAD] = { K_IMAD, K_IMADHS, K_IMADHU }, [WG_OP_IMIN] = { K_IMINS, K_IMINU },
		[WG_OP_IMAX] = { K_IMAXS, K_IMAXU }, [WG_OP_IABS] = { K_IABS }, [WG_OP_AND] = { K_AND },
		[WG_OP_OR] = { K_OR }, [WG_OP_XOR] = { K_XOR }, [WG_OP_NOT] = { K_NOT },
		[WG_OP_SHL] = { K_SHL }, [WG_OP_SHR] = { K_SHRU, K_SHRS }, [WG_OP_POPC] = { K_POPC },
		[WG_OP_CLZ] = { K_CLZ }, [WG_OP_BREV] = { K_BREV }, [WG_OP_SEL] = { K_SEL },
		[WG_OP_FADD] = { K_FADD }, [WG_OP_FSUB] = { K_FSUB }, [WG_OP_FMUL] = { K_FMUL },
		[WG_OP_FFMA] = { K_FFMA }, [WG_OP_FMIN] = { K_FMIN }, [WG_OP_FMAX] = { K_FMAX },
		[WG_OP_I2F] = { K_I2FS, K_I2FU }, [WG_OP_S2R] = { K_S2R }, [WG_OP_BRA] = { K_BRA },
		[WG_OP_BAR] = { K_BAR }, [WG_OP_EXIT] = { K_EXIT },
		[WG_OP_FDIV] = { K_FDIV }, [WG_OP_FSQRT] = { K_FSQRT }, [WG_OP_IDIV] = { K_IDIVS, K_IDIVU },
		[WG_OP_IREM] = { K_IREMS, K_IREMU },
	};

	d->sub = in->mod;
	switch (in->op) {
	case WG_OP_ISETP: d->kind = K_ISETP; return 0;
	case WG_OP_ISETPU: d->kind = K_ISETPU; return 0;
	case WG_OP_PLOP: d->kind = K_PLOP; return 0;
	case WG_OP_FSETP: d->kind = K_FSETP; return 0;
	case WG_OP_F2I: d->kind = K_F2I; return 0;
	case WG_OP_FRND: d->kind = K_FRND; return 0;
	case WG_OP_FADD: case WG_OP_FSUB: case WG_OP_FMUL: case WG_OP_FFMA:
		if (in->mod) { /* a directed rounding or FTZ: the slow path */
			d->kind = K_FARITH;
			d->sub = (uint8_t)((in->op - WG_OP_FADD) << 3 | in->mod);
			return 0;
		}
		break;
	case WG_OP_MUFU: d->kind = K_MUFU; return 0;
	case WG_OP_LDG: case WG_OP_LDGCG: case WG_OP_LDS: case WG_OP_LDL: case WG_OP_LDC:
		d->kind = K_LD;
		d->space = in->op == WG_OP_LDS ? SP_SHARED : in->op == WG_OP_LDL ? SP_LOCAL :
		           in->op == WG_OP_LDC ? SP_PARAM : SP_GLOBAL;
		d->mk = in->op == WG_OP_LDS ? MK_SLD : in->op == WG_OP_LDL ? MK_LLD : in->op == WG_OP_LDC ? MK_LDC :
		        in->op == WG_OP_LDGCG ? MK_GLDCG : MK_GLD;
		return 0;
	case WG_OP_STG: case WG_OP_STS: case WG_OP_STL:
		d->kind = K_ST;
		d->space = in->op == WG_OP_STS ? SP_SHARED : in->op == WG_OP_STL ? SP_LOCAL : SP_GLOBAL;
		d->mk = in->op == WG_OP_STS ? MK_SST : in->op == WG_OP_STL ? MK_LST : MK_GST;
		return 0;
	case WG_OP_ATOMG: case WG_OP_ATOMGX: case WG_OP_ATOMS: case WG_OP_ATOMSX:
		d->kind = K_ATOM;
		d->space = (in->op == WG_OP_ATOMS || in->op == WG_OP_ATOMSX) ? SP_SHARED : SP_GLOBAL;
		d->sub = (uint8_t)(in->mod + ((in->op == WG_OP_ATOMGX || in->op == WG_OP_ATOMSX) ? A_MINU : 0));
		d->mk = d->space == SP_SHARED ? MK_SATOM : MK_GATOM;
		return 0;
	default:
		break;
	}
	if (in->op == WG_OP_NOP || in->op == WG_OP_MEMBAR) {
		d->kind = K_NOP; /* MEMBAR: memory operations are applied in order already */
		return 0;
	}
	if (in->op < WG_OP_COUNT && in->mod < 3 && simple[in->op][in->mod]) {
		d->kind = simple[in->op][in->mod];
		return 0;
	}
	return -1;
}

static void decode_one(const struct wg_insn *in, struct dinsn *d, uint32_t (*immrow)[LANES])
{
	unsigned fmt = in->e->fmt;

	d->cls = in->e->cls;
	d->gp = in->gp;
	d->gxor = in->gneg ? FULL_MASK : 0;
	d->dst = WG_RD_NONE;
	d->ra = read_row(in->ra);
	d->rc = read_row(in->rc);
	d->rd = write_row(in->rd);
	if (wg_fmt_has_b(fmt)) {
		if (in->bimm) {
			for (unsigned l = 0; l < LANES; l++)
				(*immrow)[l] = in->b;
			d->bimm = *immrow;
		} else {
			d->rb = read_row(in->b);
		}
	}
	if (wg_fmt_writes_rd(fmt) && in->rd != WG_REG_RZ) {
		d->dst = WG_RD_REG;
		d->dreg = in->rd;
	}
	d->nregs = 1;
	switch (fmt) {
	case WG_FMT_SEL:
		d->rc = in->rc & 7;
		d->xc = (in->rc & 8) ? FULL_MASK : 0;
		break;
	case WG_FMT_SETP:
	case WG_FMT_PLOP:
		d->rd = pred_write(in->rd & 7);
		d->ra = fmt == WG_FMT_PLOP ? (in->ra & 7) : d->ra;
		d->xa = (fmt == WG_FMT_PLOP && (in->ra & 8)) ? FULL_MASK : 0;
		d->rc = in->rc & 7;
		d->xc = (in->rc & 8) ? FULL_MASK : 0;
		if ((in->rd & 7) != PRED_PT) {
			d->dst = WG_RD_PRED;
			d->dreg = in->rd & 7;
		}
		break;
	case WG_FMT_S2R:
		d->imm = in->b;
		d->skip = in->b == WG_SR_CLOCK || in->b == WG_SR_CLOCKHI;
		break;
	case WG_FMT_LD:
	case WG_FMT_ST:
		d->imm = in->b;
		d->bytes = (uint8_t)wg_width_bytes(in->mod);
		d->nregs = (uint8_t)wg_width_regs(in->mod);
		break;
	case WG_FMT_ATOM:
	case WG_FMT_CAS:
		d->bytes = 4;
		break;
	case WG_FMT_BRA:
		d->imm = in->b;
		d->reconv = in->reconv;
		break;
	case WG_FMT_BAR:
		d->imm = in->b;
		break;
	default:
		break;
	}
}

/* Decode the kernel into r->code (and broadcast immediates into r->imm). */
static int decode_kernel(struct run *R)
{
	const struct wg_kernel *k = R->k;
	struct wg_insn in;
	uint32_t nimm = 0, used = 0;

	R->ninsns = k->ninsns;
	R->code = calloc(k->ninsns ? k->ninsns : 1, sizeof(*R->code));
	if (!R->code)
		return WG_ENOMEM;
	for (uint32_t pc = 0; pc < k->ninsns; pc++)
		if (!wg_isa_decode(k->code[pc], &in, NULL, 0) && wg_fmt_has_b(in.e->fmt) && in.bimm)
			nimm++;
	if (nimm) {
		R->imm = aligned_alloc(64, (size_t)nimm * sizeof(*R->imm));
		if (!R->imm)
			return WG_ENOMEM;
	}
	for (uint32_t pc = 0; pc < k->ninsns; pc++) {
		struct dinsn *d = &R->code[pc];

		if (wg_isa_decode(k->code[pc], &in, NULL, 0) || wg_isa_check_regs(&in, k->regs, NULL, 0) ||
		    decode_kind(&in, d)) {
			*d = (struct dinsn){ .kind = K_ILLEGAL, .gp = PRED_PT, .cls = WG_CLASS_CONTROL };
			continue;
		}
		decode_one(&in, d, (wg_fmt_has_b(in.e->fmt) && in.bimm) ? &R->imm[used++] : NULL);
	}
	for (uint32_t pc = 0, n = 0; pc < k->ninsns; pc++) {
		struct dinsn *d = &R->code[pc];

		if (d->kind != K_ILLEGAL && (d->mk == MK_GLD || d->mk == MK_GLDCG || d->mk == MK_GST ||
		                             d->mk == MK_SLD || d->mk == MK_SST))
			d->mci = ++n;
		if (pc + 1 == k->ninsns && n) {
			R->mcache = calloc(n, sizeof(*R->mcache)); /* mask 0: empty (a counted access has a lane) */
			if (!R->mcache)
				return WG_ENOMEM;
		}
	}
	return 0;
}

static int illegal(struct run *R, const struct warp *w, uint32_t pc)
{
	char why[256] = "";
	struct wg_insn in;
	uint64_t word = R->k->code[pc];

	if (!wg_isa_decode(word, &in, why, sizeof(why)))
		if (!wg_isa_check_regs(&in, R->k->regs, why, sizeof(why)))
			snprintf(why, sizeof(why), "%s is not executable", in.e->mnemonic);
	return fault(R, w, pc, -1, WG_EILLEGAL, "illegal instruction 0x%016llx: %s", (unsigned long long)word, why);
}

/* ------------------------------------------------------------------------ */
/* Register write-back                                                       */

HOT void wb(uint32_t *restrict dst, const uint32_t *restrict t, uint32_t exec)
{
	if (exec == FULL_MASK) {
		memcpy(dst, t, LANES * sizeof(*t));
		return;
	}
	for (unsigned l = 0; l < LANES; l++)
		dst[l] = (exec & lanebit[l]) ? t[l] : dst[l];
}

HOT void pwb(struct warp *w, unsigned slot, uint32_t val, uint32_t exec)
{
	w->p[slot] = (w->p[slot] & ~exec) | (val & exec);
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */

enum mem_why { MW_OK, MW_ALIGN, MW_RANGE };

/* Host address of one lane's access, or NULL with *why set. */
static uint8_t *lane_addr(struct run *R, unsigned space, unsigned lane, const struct warp *w, uint32_t a,
                          unsigned size, enum mem_why *why)
{
	uint8_t *p = NULL;

	if (a & (size - 1)) {
		*why = MW_ALIGN;
		return NULL;
	}
	switch (space) {
	case SP_GLOBAL:
		p = wg_gmem_ptr(R->f->gmem, a, size);
		break;
	case SP_SHARED:
		if (R->shared_win >= size && a <= R->shared_win - size)
			p = R->shared + a;
		break;
	case SP_LOCAL:
		if (R->local_win >= size && a <= R->local_win - size)
			p = R->local + (size_t)(w->tid0 + lane) * R->local_win + a;
		break;
	default:
		if (R->param_win >= size && a <= R->param_win - size)
			p = (uint8_t *)(uintptr_t)R->params + a;
		break;
	}
	if (!p)
		*why = MW_RANGE;
	return p;
}

/*
 * Resolve the host address of every lane in exec, in ascending lane order.
 * Returns the first lane whose access is invalid (with *why), or -1; hp[]
 * is filled for the lanes below it.
 */
static int resolve(struct run *R, const struct warp *w, unsigned space, uint32_t exec, const uint32_t *addr,
                   unsigned size, uint8_t **hp, enum mem_why *why)
{
	for (uint32_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);

		hp[l] = lane_addr(R, space, l, w, addr[l], size, why);
		if (!hp[l])
			return (int)l;
	}
	return -1;
}

static __attribute__((noinline, cold)) int mem_fault(struct run *R, const struct warp *w, uint32_t pc,
                                                     const struct dinsn *d, int lane, uint32_t a,
                                                     enum mem_why why)
{
	const char *what = d->kind == K_LD ? "load" : d->kind == K_ST ? "store" : "atomic";
	const char *sp = space_names[d->space];

	if (why == MW_ALIGN)
		return fault(R, w, pc, lane, WG_EFAULT, "%s %s of %u bytes at 0x%08x is misaligned (not a multiple of %u)",
		             sp, what, d->bytes, a, d->bytes);
	switch (d->space) {
	case SP_GLOBAL:
		return fault(R, w, pc, lane, WG_EFAULT, "%s %s of %u bytes at 0x%08x is outside every allocation", sp,
		             what, d->bytes, a);
	case SP_SHARED:
		return fault(R, w, pc, lane, WG_EFAULT,
		             "%s %s of %u bytes at 0x%08x is outside the shared window of %u bytes", sp, what,
		             d->bytes, a, R->shared_win);
	case SP_LOCAL:
		return fault(R, w, pc, lane, WG_EFAULT,
		             "%s %s of %u bytes at 0x%08x is outside the local window of %u bytes per thread", sp,
		             what, d->bytes, a, R->local_win);
	default:
		return fault(R, w, pc, lane, WG_EFAULT,
		             "%s %s of %u bytes at 0x%08x is outside the parameter buffer of %u bytes", sp, what,
		             d->bytes, a, R->param_win);
	}
}

HOT uint32_t ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

HOT void st32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* The request counter of a global or shared load or store; its transaction counter is the next one. */
static inline unsigned mc_req(const struct dinsn *d)
{
	return d->mk == MK_GST ? WG_MC_GST_REQ : d->mk == MK_SLD ? WG_MC_SHARED_LD_REQ :
	       d->mk == MK_SST ? WG_MC_SHARED_ST_REQ : WG_MC_GLD_REQ;
}

/*
 * The memory-pipeline counters of an access with a non-empty exec, computed
 * from its address registers before it executes (a load may overwrite them)
 * and added by mem_stats when it completes (a faulting access counts
 * nothing): docs/memory-pipeline.md, requests and transactions of the
 * coalescer, shared-memory passes. Local accesses are coalesced at their
 * interleaved device addresses (docs/sm.md section 4) from R->local_base:
 * wg_func_run uses 0, which gives the same counts as any 128-byte aligned
 * base (device allocations are 256-byte aligned).
 */
static __attribute__((noinline)) void mem_count(struct run *R, const struct warp *w, const struct dinsn *d,
                                                uint32_t exec)
{
	uint32_t addr[LANES] __attribute__((aligned(64)));
	const uint32_t *A = w->r[d->ra];
	unsigned lg = (unsigned)__builtin_ctz(d->bytes), req, tx;
	uint32_t nreq = 1, ntx = 0, imm = d->imm;

	switch (d->mk) {
	case MK_GLD:
	case MK_GLDCG:
	case MK_GST:
	case MK_SLD:
	case MK_SST: {
		int shared = d->mk == MK_SLD || d->mk == MK_SST;
		struct mcache *c = &R->mcache[d->mci - 1];
		unsigned sh = shared ? 2 : 0;
		uint32_t lead = A[__builtin_ctz(exec)] + imm, base = shared ? lead >> 2 : lead & ~127u;

		/* a new pattern (mem_count_cached did not find it): count it and keep it */
		req = mc_req(d);
		tx = req + 1;
		for (unsigned l = 0; l < LANES; l++) {
			addr[l] = A[l] + imm;
			c->key[l] = (exec & lanebit[l]) ? (addr[l] >> sh) - base : 0;
		}
		c->mask = exec;
		if (shared)
			ntx = wg_smem_passes(exec, addr, d->bytes);
		else
			ntx = wg_coalesce(d->mk == MK_GLD ? WG_COAL_LINE : d->mk == MK_GLDCG ? WG_COAL_SEG : WG_COAL_STORE,
			                  exec, addr, lg, NULL);
		c->ntx = ntx;
		break;
	}
	case MK_GATOM:
		req = WG_MC_ATOM_COUNT;
		tx = WG_MC_ATOM_TX;
		ntx = popc32(exec); /* WG_COAL_THREAD: one per thread */
		break;
	case MK_SATOM:
		req = tx = WG_MC_SHARED_ATOM_TX;
		nreq = 0;
		ntx = popc32(exec);
		break;
	case MK_LLD:
	case MK_LST: {
		/* 8 and 16 bytes: one request per 4-byte word index, each coalesced on its own */
		unsigned nw = d->bytes > 4 ? d->bytes / 4u : 1u, wl = d->bytes > 4 ? 2u : lg;
		uint32_t dev[LANES] = { 0 }, gtid0 = R->cta * R->nthreads + w->tid0;
		int st = d->mk == MK_LST;

		req = st ? WG_MC_LOCAL_ST_REQ : WG_MC_LOCAL_LD_REQ;
		tx = st ? WG_MC_LOCAL_ST_TX : WG_MC_LOCAL_LD_TX;
		nreq = nw;
		for (unsigned l = 0; l < LANES; l++)
			addr[l] = A[l] + imm;
		for (unsigned k = 0; k < nw; k++) {
			for (uint32_t m = exec; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctz(m);

				dev[l] = wg_local_addr(R->local_base, R->total_threads, gtid0 + l, addr[l] + 4 * k);
			}
			ntx += wg_coalesce(st ? WG_COAL_STORE : WG_COAL_LINE, exec, dev, wl, NULL);
		}
		break;
	}
	default: /* MK_LDC */
		req = tx = WG_MC_LDC_REQ;
		break;
	}
	R->mcp_i[0] = (uint8_t)req;
	R->mcp_v[0] = nreq;
	R->mcp_i[1] = (uint8_t)tx;
	R->mcp_v[1] = ntx;
}

/*
 * mem_count for a global or shared load or store whose pattern is the one
 * kept in its struct mcache (the same code in both interpreter builds, so
 * the comparison is vectorised for the CPU): returns 1 when it counted.
 */
HOT int mem_count_cached(struct run *R, const struct warp *w, const struct dinsn *d, uint32_t exec)
{
	const struct mcache *c;
	const uint32_t *A = w->r[d->ra];
	uint32_t imm = d->imm, lead, base, diff = 0;
	unsigned sh;

	if (!d->mci)
		return 0;
	c = &R->mcache[d->mci - 1];
	if (c->mask != exec)
		return 0;
	sh = (d->mk == MK_SLD || d->mk == MK_SST) ? 2 : 0;
	lead = A[__builtin_ctz(exec)] + imm;
	base = sh ? lead >> 2 : lead & ~127u;
	if (exec == FULL_MASK) {
		for (unsigned l = 0; l < LANES; l++)
			diff |= (((A[l] + imm) >> sh) - base) ^ c->key[l];
	} else {
		for (unsigned l = 0; l < LANES; l++)
			diff |= ((((A[l] + imm) >> sh) - base) ^ c->key[l]) & ((exec & lanebit[l]) ? FULL_MASK : 0);
	}
	if (diff)
		return 0;
	R->mcp_i[0] = (uint8_t)mc_req(d);
	R->mcp_v[0] = 1;
	R->mcp_i[1] = (uint8_t)(mc_req(d) + 1);
	R->mcp_v[1] = c->ntx;
	return 1;
}

/* Bytes, atomic operations and memory-pipeline counters (mem_count) of a completed access. */
HOT void mem_stats(struct run *R, const struct dinsn *d, uint32_t exec)
{
	uint64_t n = exec == FULL_MASK ? LANES : popc32(exec);

	R->mc[R->mcp_i[0]] += R->mcp_v[0];
	R->mc[R->mcp_i[1]] += R->mcp_v[1];
	if (d->kind == K_ATOM) {
		R->atoms += n;
		return;
	}
	n *= d->bytes;
	switch (d->space) {
	case SP_GLOBAL: *(d->kind == K_LD ? &R->gld : &R->gst) += n; break;
	case SP_SHARED: *(d->kind == K_LD ? &R->shld : &R->shst) += n; break;
	case SP_LOCAL: *(d->kind == K_LD ? &R->lld : &R->lst) += n; break;
	default: break;
	}
}

/*
 * Any access, lane by lane, in ascending lane order: the lanes below the
 * first invalid one take effect, then the fault is reported.
 */
static __attribute__((noinline)) int mem_slow(struct run *R, struct warp *w, const struct dinsn *d, uint32_t pc,
                                              uint32_t exec, const uint32_t *addr)
{
	uint8_t *hp[LANES];
	unsigned size = d->bytes;
	enum mem_why why = MW_OK;
	uint32_t m;
	int bad;

	bad = resolve(R, w, d->space, exec, addr, size, hp, &why);
	m = bad < 0 ? exec : exec & (lanebit[bad] - 1);

	if (d->kind == K_LD) {
		unsigned step = d->rd < ROW_RZ ? 1 : 0;
		uint32_t *D0 = w->r[d->rd], *D1 = w->r[d->rd + step];
		uint32_t *D2 = w->r[d->rd + 2 * step], *D3 = w->r[d->rd + 3 * step];

		for (; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			const uint8_t *p = hp[l];
			uint16_t h;

			switch (d->sub) {
			case WG_W_U8: D0[l] = p[0]; break;
			case WG_W_S8: D0[l] = (uint32_t)(int32_t)(int8_t)p[0]; break;
			case WG_W_U16: memcpy(&h, p, 2); D0[l] = h; break;
			case WG_W_S16: memcpy(&h, p, 2); D0[l] = (uint32_t)(int32_t)(int16_t)h; break;
			case WG_W_32: D0[l] = ld32(p); break;
			case WG_W_64: D0[l] = ld32(p); D1[l] = ld32(p + 4); break;
			default:
				D0[l] = ld32(p);
				D1[l] = ld32(p + 4);
				D2[l] = ld32(p + 8);
				D3[l] = ld32(p + 12);
				break;
			}
		}
	} else if (d->kind == K_ST) {
		unsigned step = d->rc < ROW_RZ ? 1 : 0;
		const uint32_t *S0 = w->r[d->rc], *S1 = w->r[d->rc + step];
		const uint32_t *S2 = w->r[d->rc + 2 * step], *S3 = w->r[d->rc + 3 * step];

		for (; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			uint8_t *p = hp[l];
			uint16_t h;

			switch (d->sub) {
			case WG_W_U8: p[0] = (uint8_t)S0[l]; break;
			case WG_W_U16: h = (uint16_t)S0[l]; memcpy(p, &h, 2); break;
			case WG_W_32: st32(p, S0[l]); break;
			case WG_W_64: st32(p, S0[l]); st32(p + 4, S1[l]); break;
			default:
				st32(p, S0[l]);
				st32(p + 4, S1[l]);
				st32(p + 8, S2[l]);
				st32(p + 12, S3[l]);
				break;
			}
		}
	} else {
		const uint32_t *B = d->bimm ? d->bimm : w->r[d->rb];
		const uint32_t *C = w->r[d->rc];
		uint32_t *D = w->r[d->rd];

		for (; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			uint32_t old = ld32(hp[l]);

			st32(hp[l], atom_apply(d->sub, old, B[l], C[l]));
			D[l] = old;
		}
	}
	if (unlikely(bad >= 0))
		return mem_fault(R, w, pc, d, bad, addr[bad], why);
	mem_stats(R, d, exec);
	return 0;
}


/*
 * Fast path check: every lane in exec is aligned and inside the window (for
 * global memory: inside one allocation). Then the host address of lane l is
 * *base + addr[l] + l * *stride.
 */
HOT int mem_fast(struct run *R, const struct warp *w, unsigned space, uint32_t exec, const uint32_t *addr,
                 unsigned size, uintptr_t *base, size_t *stride)
{
	uint32_t lo = 0xFFFFFFFFu, hi = 0, orr = 0, win;
	uint8_t *p;

	for (unsigned l = 0; l < LANES; l++) {
		uint32_t on = (exec & lanebit[l]) ? FULL_MASK : 0;
		uint32_t a = addr[l];

		lo = (a | ~on) < lo ? (a | ~on) : lo;
		hi = (a & on) > hi ? (a & on) : hi;
		orr |= a & on;
	}
	if (orr & (size - 1))
		return 0;
	*stride = 0;
	switch (space) {
	case SP_GLOBAL:
		if ((uint64_t)hi - lo + size > 0xFFFFFFFFu)
			return 0;
		p = wg_gmem_ptr(R->f->gmem, lo, hi - lo + size);
		if (!p)
			return 0;
		*base = (uintptr_t)p - lo;
		return 1;
	case SP_SHARED:
		win = R->shared_win;
		*base = (uintptr_t)R->shared;
		break;
	case SP_LOCAL:
		win = R->local_win;
		*base = (uintptr_t)(R->local + (size_t)w->tid0 * win);
		*stride = win;
		break;
	default:
		win = R->param_win;
		*base = (uintptr_t)R->params;
		break;
	}
	return win >= size && hi <= win - size;
}

/* Lanes of mask m, ascending, as l. */
#define FOR_MASK(m) for (uint32_t m_ = (m), l; m_ && (l = (uint32_t)__builtin_ctz(m_), 1); m_ &= m_ - 1)
#define HADDR(l) ((uint8_t *)(base + addr[l] + (l) * stride))
/* stmt for every lane of exec (l = lane), ascending; a plain loop for a full warp. */
#define EACH_LANE(...)                                                  \
	do {                                                            \
		if (exec == FULL_MASK) {                                \
			for (uint32_t l = 0; l < LANES; l++) {          \
				__VA_ARGS__;                            \
			}                                               \
		} else {                                                \
			FOR_MASK(exec) {                                \
				__VA_ARGS__;                            \
			}                                               \
		}                                                       \
	} while (0)

HOT int do_mem(struct run *R, struct warp *w, const struct dinsn *d, uint32_t pc, uint32_t exec)
{
	uint32_t addr[LANES] __attribute__((aligned(64)));
	const uint32_t *A = w->r[d->ra];
	uintptr_t base;
	size_t stride;

	if (!mem_count_cached(R, w, d, exec))
		mem_count(R, w, d, exec);
	for (unsigned l = 0; l < LANES; l++)
		addr[l] = A[l] + d->imm;
	if (unlikely(!mem_fast(R, w, d->space, exec, addr, d->bytes, &base, &stride)))
		return mem_slow(R, w, d, pc, exec, addr);

	if (d->kind == K_LD) {
		unsigned step = d->rd < ROW_RZ ? 1 : 0;
		uint32_t *D0 = w->r[d->rd], *D1 = w->r[d->rd + step];
		uint32_t *D2 = w->r[d->rd + 2 * step], *D3 = w->r[d->rd + 3 * step];
		uint16_t h;

		if (d->ra == ROW_RZ && d->space != SP_LOCAL && d->nregs == 1) {
			/* one address for every lane (LDC [param], LDS [imm]): load once */
			const uint8_t *p = HADDR(0u);
			uint32_t v, t[LANES];

			switch (d->sub) {
			case WG_W_U8: v = p[0]; break;
			case WG_W_S8: v = (uint32_t)(int32_t)(int8_t)p[0]; break;
			case WG_W_U16: memcpy(&h, p, 2); v = h; break;
			case WG_W_S16: memcpy(&h, p, 2); v = (uint32_t)(int32_t)(int16_t)h; break;
			default: v = ld32(p); break;
			}
			for (unsigned l = 0; l < LANES; l++)
				t[l] = v;
			wb(D0, t, exec);
			mem_stats(R, d, exec);
			return 0;
		}
		switch (d->sub) {
		case WG_W_U8: EACH_LANE(D0[l] = *HADDR(l)); break;
		case WG_W_S8: EACH_LANE(D0[l] = (uint32_t)(int32_t)(int8_t)*HADDR(l)); break;
		case WG_W_U16: EACH_LANE(memcpy(&h, HADDR(l), 2); D0[l] = h); break;
		case WG_W_S16: EACH_LANE(memcpy(&h, HADDR(l), 2); D0[l] = (uint32_t)(int32_t)(int16_t)h); break;
		case WG_W_32: EACH_LANE(D0[l] = ld32(HADDR(l))); break;
		case WG_W_64: EACH_LANE(D0[l] = ld32(HADDR(l)); D1[l] = ld32(HADDR(l) + 4)); break;
		default:
			EACH_LANE(D0[l] = ld32(HADDR(l)); D1[l] = ld32(HADDR(l) + 4); D2[l] = ld32(HADDR(l) + 8);
			          D3[l] = ld32(HADDR(l) + 12));
			break;
		}
	} else if (d->kind == K_ST) {
		unsigned step = d->rc < ROW_RZ ? 1 : 0;
		const uint32_t *S0 = w->r[d->rc], *S1 = w->r[d->rc + step];
		const uint32_t *S2 = w->r[d->rc + 2 * step], *S3 = w->r[d->rc + 3 * step];
		uint16_t h;

		switch (d->sub) {
		case WG_W_U8: EACH_LANE(*HADDR(l) = (uint8_t)S0[l]); break;
		case WG_W_U16: EACH_LANE(h = (uint16_t)S0[l]; memcpy(HADDR(l), &h, 2)); break;
		case WG_W_32: EACH_LANE(st32(HADDR(l), S0[l])); break;
		case WG_W_64: EACH_LANE(st32(HADDR(l), S0[l]); st32(HADDR(l) + 4, S1[l])); break;
		default:
			EACH_LANE(st32(HADDR(l), S0[l]); st32(HADDR(l) + 4, S1[l]); st32(HADDR(l) + 8, S2[l]);
			          st32(HADDR(l) + 12, S3[l]));
			break;
		}
	} else {
		const uint32_t *B = d->bimm ? d->bimm : w->r[d->rb];
		const uint32_t *C = w->r[d->rc];
		uint32_t *D = w->r[d->rd];

		FOR_MASK(exec) {
			uint8_t *p = HADDR(l);
			uint32_t old = ld32(p);

			st32(p, atom_apply(d->sub, old, B[l], C[l]));
			D[l] = old;
		}
	}
	mem_stats(R, d, exec);
	return 0;
}


/* ------------------------------------------------------------------------ */
/* Lockstep memory accesses                                                  */

uint32_t wg_func_atom_apply(unsigned op, uint32_t old, uint32_t b, uint32_t c)
{
	return atom_apply(op, old, b, c);
}

static struct wg_func_ls_mem *ls_mem_add(struct run *R, unsigned lane, uint8_t cmd, uint32_t addr, unsigned size,
                                         int local)
{
	struct wg_func_ls_rec *rec = R->rec;
	struct wg_func_ls_mem *m;

	if (rec->nmem >= WG_FUNC_LS_MAXMEM)
		return NULL;
	m = &rec->mem[rec->nmem++];
	memset(m, 0, sizeof(*m));
	m->addr = addr;
	m->lane = (uint8_t)lane;
	m->cmd = cmd;
	m->size = (uint8_t)size;
	m->local = (uint8_t)local;
	return m;
}

/* The bytes a store of lane l writes (bytes of d, little-endian), into out. */
static void store_bytes(const struct warp *w, const struct dinsn *d, unsigned l, uint8_t *out)
{
	unsigned step = d->rc < ROW_RZ ? 1 : 0;

	for (unsigned k = 0; k < 4 && 4 * k < d->bytes; k++) {
		uint32_t v = w->r[d->rc + k * step][l];
		unsigned n = d->bytes < 4 ? d->bytes : 4;

		for (unsigned i = 0; i < n; i++)
			out[4 * k + i] = (uint8_t)(v >> (8 * i));
	}
}

/* List the stores and atomics of a completed access as the memory port carries them.
 * B and C are an atomic's operand rows as they were before the access (its Rd may be
 * one of them). */
static void ls_record(struct run *R, const struct warp *w, const struct dinsn *d, uint32_t exec,
                      const uint32_t *addr, const uint32_t *B, const uint32_t *C)
{
	for (uint32_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint8_t bytes[16];
		struct wg_func_ls_mem *e;

		if (d->kind == K_ATOM) {
			e = ls_mem_add(R, l, 2, addr[l], 4, 0);
			if (e) {
				e->atom_op = d->sub;
				e->atom_b = B[l];
				e->atom_c = d->sub == A_CAS ? C[l] : 0;
			}
			continue;
		}
		store_bytes(w, d, l, bytes);
		if (d->space == SP_GLOBAL) {
			e = ls_mem_add(R, l, 1, addr[l], d->bytes, 0);
			if (e)
				memcpy(e->data, bytes, d->bytes);
			continue;
		}
		/* local: word by word at interleaved device addresses (docs/sm.md section 4) */
		for (unsigned off = 0; off < d->bytes; off += 4) {
			uint32_t a = addr[l] + off;
			uint32_t gtid = R->cta * R->nthreads + w->tid0 + l;
			uint32_t dev = wg_local_addr(R->local_base, R->total_threads, gtid, a);
			unsigned n = d->bytes < 4 ? d->bytes : 4;

			e = ls_mem_add(R, l, 1, dev, n, 1);
			if (e)
				memcpy(e->data, bytes + off, n);
		}
	}
}

/* Adopt the observed values of the destination registers (global loads, atomics). */
static void ls_adopt(struct run *R, struct warp *w, const struct dinsn *d, uint32_t exec)
{
	const struct wg_func_ls_rec *o = R->obs;

	if (!o || d->dst != WG_RD_REG || o->dst != WG_RD_REG || o->reg != d->dreg || o->nregs != d->nregs)
		return; /* nothing to adopt, or a difference the comparison reports */
	for (uint32_t m = exec & o->exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);

		for (unsigned k = 0; k < d->nregs; k++)
			w->r[d->rd + k][l] = o->vals[l][k];
	}
}

/*
 * A memory instruction in lockstep mode. Shared, local and param accesses
 * use the model's own memory; global ones are checked and adopted (CHECK)
 * or performed (EXEC). Stores and atomics that reach the memory port are
 * listed in R->rec.
 */
static __attribute__((noinline)) int ls_mem(struct run *R, struct warp *w, const struct dinsn *d, uint32_t pc,
                                            uint32_t exec)
{
	uint32_t addr[LANES], B[LANES], C[LANES];
	const uint32_t *A = w->r[d->ra];
	int rc;

	for (unsigned l = 0; l < LANES; l++)
		addr[l] = A[l] + d->imm;
	if (d->kind == K_ATOM) {
		/* the atomic's operands before its destination is written */
		memcpy(B, d->bimm ? d->bimm : w->r[d->rb], sizeof(B));
		memcpy(C, w->r[d->rc], sizeof(C));
	}
	if (d->space != SP_GLOBAL || R->ls_mode == WG_FUNC_LS_EXEC) {
		rc = do_mem(R, w, d, pc, exec);
		if (rc)
			return rc;
		if (d->space == SP_GLOBAL ? d->kind != K_LD : d->space == SP_LOCAL && d->kind == K_ST)
			ls_record(R, w, d, exec, addr, B, C);
		if (d->space == SP_SHARED && d->kind == K_ATOM && R->ls_mode == WG_FUNC_LS_CHECK)
			ls_adopt(R, w, d, exec);
		return 0;
	}
	if (!mem_count_cached(R, w, d, exec))
		mem_count(R, w, d, exec);
	for (uint32_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		enum mem_why why = MW_OK;

		if (!lane_addr(R, SP_GLOBAL, l, w, addr[l], d->bytes, &why))
			return mem_fault(R, w, pc, d, (int)l, addr[l], why);
	}
	if (d->kind != K_ST)
		ls_adopt(R, w, d, exec);
	if (d->kind != K_LD)
		ls_record(R, w, d, exec, addr, B, C);
	mem_stats(R, d, exec);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Per-lane ALU loops                                                        */

#define FOR_LANES for (unsigned l = 0; l < LANES; l++)

/* t[l] = expr of x = A[l], y = B[l], z = C[l]. */
#define ALU(expr)                                                             \
	do {                                                                  \
		const uint32_t *A_ = w->r[d->ra];                             \
		const uint32_t *B_ = d->bimm ? d->bimm : w->r[d->rb];         \
		const uint32_t *C_ = w->r[d->rc];                             \
		uint32_t t_[LANES] __attribute__((aligned(64)));              \
		FOR_LANES {                                                   \
			uint32_t x = A_[l], y = B_[l], z = C_[l];             \
			(void)x;                                              \
			(void)y;                                              \
			(void)z;                                              \
			t_[l] = (expr);                                       \
		}                                                             \
		wb(w->r[d->rd], t_, exec);                                    \
	} while (0)

/* Predicate mask of cond over x = A[l], y = B[l]. */
#define SETP(cond)                                                            \
	do {                                                                  \
		const uint32_t *A_ = w->r[d->ra];                             \
		const uint32_t *B_ = d->bimm ? d->bimm : w->r[d->rb];         \
		uint32_t m_ = 0;                                              \
		FOR_LANES {                                                   \
			uint32_t x = A_[l], y = B_[l];                        \
			m_ |= (cond) ? lanebit[l] : 0;                        \
		}                                                             \
		pmask = m_;                                                   \
	} while (0)

HOT uint32_t isetp(const struct warp *w, const struct dinsn *d, int uns)
{
	uint32_t pmask = 0;

	if (uns) {
		switch (d->sub) {
		case CC_EQ: SETP(x == y); break;
		case CC_NE: SETP(x != y); break;
		case CC_LT: SETP(x < y); break;
		case CC_LE: SETP(x <= y); break;
		case CC_GT: SETP(x > y); break;
		default: SETP(x >= y); break;
		}
	} else {
		switch (d->sub) {
		case CC_EQ: SETP(x == y); break;
		case CC_NE: SETP(x != y); break;
		case CC_LT: SETP((int32_t)x < (int32_t)y); break;
		case CC_LE: SETP((int32_t)x <= (int32_t)y); break;
		case CC_GT: SETP((int32_t)x > (int32_t)y); break;
		default: SETP((int32_t)x >= (int32_t)y); break;
		}
	}
	return pmask;
}

HOT uint32_t fsetp(const struct warp *w, const struct dinsn *d)
{
	uint32_t pmask = 0;

	switch (d->sub) {
	case CC_EQ: SETP(u2f(x) == u2f(y)); break;
	case CC_NE: SETP(u2f(x) < u2f(y) || u2f(x) > u2f(y)); break;
	case CC_LT: SETP(u2f(x) < u2f(y)); break;
	case CC_LE: SETP(u2f(x) <= u2f(y)); break;
	case CC_GT: SETP(u2f(x) > u2f(y)); break;
	case CC_GE: SETP(u2f(x) >= u2f(y)); break;
	case CC_NUM: SETP(!is_nan(x) && !is_nan(y)); break;
	default: SETP(is_nan(x) || is_nan(y)); break;
	}
	return pmask;
}

/* Warp instructions issued so far in this launch, this one included. */
static uint64_t issued(const struct run *R)
{
	uint64_t n = 0;

	for (unsigned c = 0; c < WG_CLASS_COUNT; c++)
		n += R->cw[c];
	return n;
}

HOT void s2r(struct run *R, struct warp *w, const struct dinsn *d, uint32_t exec)
{
	const struct wg_launch *L = R->l;
	uint32_t t[LANES], v = 0;
	int per_lane = 1;

	switch (d->imm) {
	case WG_SR_TID_X:
	case WG_SR_TID_Y:
	case WG_SR_TID_Z: {
		/* step (x, y, z) through the warp's linear thread ids */
		uint32_t x = w->tid0 % L->block.x, y = w->tid0 / L->block.x % L->block.y;
		uint32_t z = w->tid0 / (L->block.x * L->block.y);
		unsigned which = d->imm - WG_SR_TID_X;

		FOR_LANES {
			t[l] = which == 0 ? x : which == 1 ? y : z;
			if (++x == L->block.x) {
				x = 0;
				if (++y == L->block.y) {
					y = 0;
					z++;
				}
			}
		}
		break;
	}
	case WG_SR_LANEID: FOR_LANES t[l] = l; break;
	default:
		per_lane = 0;
		switch (d->imm) {
		case WG_SR_NTID_X: v = L->block.x; break;
		case WG_SR_NTID_Y: v = L->block.y; break;
		case WG_SR_NTID_Z: v = L->block.z; break;
		case WG_SR_CTAID_X: v = R->ctaid[0]; break;
		case WG_SR_CTAID_Y: v = R->ctaid[1]; break;
		case WG_SR_CTAID_Z: v = R->ctaid[2]; break;
		case WG_SR_NCTAID_X: v = L->grid.x; break;
		case WG_SR_NCTAID_Y: v = L->grid.y; break;
		case WG_SR_NCTAID_Z: v = L->grid.z; break;
		case WG_SR_WARPID: v = w->index; break;
		case WG_SR_SMID: v = 0; break;
		case WG_SR_CLOCK: v = (uint32_t)issued(R); break;
		case WG_SR_CLOCKHI: v = (uint32_t)(issued(R) >> 32); break;
		default: break;
		}
		break;
	}
	if (!per_lane)
		FOR_LANES t[l] = v;
	wb(w->r[d->rd], t, exec);
}

/* ------------------------------------------------------------------------ */
/* Retire log                                                                */

static void retire(struct run *R, const struct warp *w, const struct dinsn *d, uint32_t pc, uint32_t active,
                   uint32_t exec)
{
	uint32_t vals[LANES][4];
	struct wg_retire_rec rec = {
		.cta = R->cta,
		.warp = w->index,
		.pc = pc,
		.active = active,
		.exec = exec,
		.dst = d->dst,
		.reg = d->dreg,
		.nregs = d->nregs,
		.skip_values = d->skip,
		.vals = (const uint32_t (*)[4])vals,
	};

	if (d->dst == WG_RD_REG) {
		for (uint32_t m = exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);

			for (unsigned k = 0; k < d->nregs; k++)
				vals[l][k] = w->r[d->rd + k][l];
		}
	} else if (d->dst == WG_RD_PRED) {
		rec.pred = w->p[d->rd];
	}
	wg_retire_write(R->log, &rec);
}


/* The retired instruction into R->rec (lockstep), and into the log when one is open. */
static void ls_retire(struct run *R, const struct warp *w, const struct dinsn *d, uint32_t pc, uint32_t active,
                      uint32_t exec)
{
	struct wg_func_ls_rec *rec = R->rec;

	rec->cta = R->cta;
	rec->warp = w->index;
	rec->pc = pc;
	rec->active = active;
	rec->exec = exec;
	rec->dst = d->dst;
	rec->reg = d->dreg;
	rec->nregs = d->dst == WG_RD_REG ? d->nregs : 1;
	rec->skip = d->skip;
	rec->cls = d->cls;
	rec->pred = 0;
	if (d->dst == WG_RD_REG) {
		for (uint32_t m = exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);

			for (unsigned k = 0; k < d->nregs; k++)
				rec->vals[l][k] = w->r[d->rd + k][l];
		}
	} else if (d->dst == WG_RD_PRED) {
		rec->pred = w->p[d->rd];
	}
	if (R->log)
		retire(R, w, d, pc, active, exec);
}

/* ------------------------------------------------------------------------ */
/* The interpreter                                                           */

/*
 * Execute the instruction at the top of warp w's stack. Returns 0 when the
 * warp can go on, 1 when it finished or waits at a barrier, or a negative
 * WG_E* with R->err filled in. ls (a constant at every call site) selects
 * the lockstep variant: global memory is adopted or recorded (ls_mem) and
 * the retired instruction goes to R->rec (ls_retire).
 */
HOT int exec_one(struct run *R, struct warp *w, const int ls)
{
	struct sentry *top = &w->stk[w->sp - 1];
	const uint32_t pc = top->pc;
	const struct dinsn *d;
	uint32_t active, exec, pmask;
	int yield = 0, rc;

	if (unlikely(pc >= R->ninsns)) {
		if (pc == WG_RECONV_NONE)
			return fault(R, w, pc, -1, WG_EILLEGAL,
			             "lanes 0x%08x reached reconvergence point 'none' (a path without EXIT)",
			             top->mask);
		return fault(R, w, pc, -1, WG_EILLEGAL,
		             "pc runs past the last instruction (the kernel has %u instructions)", R->ninsns);
	}
	d = &R->code[pc];
	active = top->mask;
	exec = active & (w->p[d->gp] ^ d->gxor);
	R->cw[d->cls]++;
	R->ct[d->cls] += exec == FULL_MASK ? LANES : popc32(exec);
	if (!exec && d->kind < K_BRA)
		goto next;

	switch (d->kind) {
	case K_NOP: break;
	case K_MOV: ALU(y); break;
	case K_IADD: ALU(x + y); break;
	case K_ISUB: ALU(x - y); break;
	case K_IMUL: ALU(x * y); break;
	case K_IMULHS: ALU((uint32_t)((uint64_t)((int64_t)(int32_t)x * (int32_t)y) >> 32)); break;
	case K_IMULHU: ALU((uint32_t)((uint64_t)x * y >> 32)); break;
	case K_IMAD: ALU(x * y + z); break;
	case K_IMADHS: ALU((uint32_t)((uint64_t)((int64_t)(int32_t)x * (int32_t)y) >> 32) + z); break;
	case K_IMADHU: ALU((uint32_t)((uint64_t)x * y >> 32) + z); break;
	case K_IMINS: ALU((int32_t)x < (int32_t)y ? x : y); break;
	case K_IMINU: ALU(x < y ? x : y); break;
	case K_IMAXS: ALU((int32_t)x > (int32_t)y ? x : y); break;
	case K_IMAXU: ALU(x > y ? x : y); break;
	case K_IABS: ALU((int32_t)x < 0 ? 0u - x : x); break;
	case K_AND: ALU(x & y); break;
	case K_OR: ALU(x | y); break;
	case K_XOR: ALU(x ^ y); break;
	case K_NOT: ALU(~x); break;
	case K_SHL:
		if (d->bimm && d->bimm[0] < 32) {
			uint32_t s = d->bimm[0];

			ALU(x << s);
		} else {
			ALU(y >= 32 ? 0 : x << (y & 31));
		}
		break;
	case K_SHRU:
		if (d->bimm && d->bimm[0] < 32) {
			uint32_t s = d->bimm[0];

			ALU(x >> s);
		} else {
			ALU(y >= 32 ? 0 : x >> (y & 31));
		}
		break;
	case K_SHRS:
		if (d->bimm) {
			uint32_t s = d->bimm[0] < 32 ? d->bimm[0] : 31;

			ALU((uint32_t)((int32_t)x >> s));
		} else {
			ALU((uint32_t)((int32_t)x >> (y >= 32 ? 31 : (y & 31))));
		}
		break;
	case K_POPC: ALU(popc32(x)); break;
	case K_CLZ: ALU(x ? (uint32_t)__builtin_clz(x) : 32u); break;
	case K_BREV: ALU(brev32(x)); break;
	case K_SEL: {
		uint32_t ps = w->p[d->rc] ^ d->xc;
		const uint32_t *A = w->r[d->ra];
		const uint32_t *B = d->bimm ? d->bimm : w->r[d->rb];
		uint32_t t[LANES] __attribute__((aligned(64)));

		FOR_LANES t[l] = (ps & lanebit[l]) ? A[l] : B[l];
		wb(w->r[d->rd], t, exec);
		break;
	}
	case K_ISETP: pwb(w, d->rd, isetp(w, d, 0), exec); break;
	case K_ISETPU: pwb(w, d->rd, isetp(w, d, 1), exec); break;
	case K_PLOP: {
		uint32_t pa = w->p[d->ra] ^ d->xa, pc2 = w->p[d->rc] ^ d->xc;

		pmask = d->sub == 0 ? (pa & pc2) : d->sub == 1 ? (pa | pc2) : (pa ^ pc2);
		pwb(w, d->rd, pmask, exec);
		break;
	}
	case K_FADD: ALU(fres(u2f(x) + u2f(y))); break;
	case K_FSUB: ALU(fres(u2f(x) - u2f(y))); break;
	case K_FMUL: ALU(fres(u2f(x) * u2f(y))); break;
	case K_FFMA: ALU(fres(fmaf(u2f(x), u2f(y), u2f(z)))); break;
	case K_FARITH: {
		uint32_t t[LANES] __attribute__((aligned(64)));

		farith_lanes(d->sub, w->r[d->ra], d->bimm ? d->bimm : w->r[d->rb], w->r[d->rc], t);
		wb(w->r[d->rd], t, exec);
		break;
	}
	case K_FMIN: ALU(fmin_bits(x, y)); break;
	case K_FMAX: ALU(fmax_bits(x, y)); break;
	case K_FSETP: pwb(w, d->rd, fsetp(w, d), exec); break;
	case K_I2FS: ALU(f2u((float)(int32_t)x)); break;
	case K_I2FU: ALU(f2u((float)x)); break;
	case K_F2I: ALU(f2i(x, d->sub)); break;
	case K_FRND: ALU(fres(round_mode(u2f(x), d->sub))); break;
	case K_MUFU: ALU(wg_sfu_mufu(d->sub, x)); break;
	case K_FDIV: ALU(wg_sfu_fdiv(x, y)); break;
	case K_FSQRT: ALU(wg_sfu_fsqrt(x)); break;
	case K_IDIVS: ALU(wg_sfu_idiv(x, y, 0)); break;
	case K_IDIVU: ALU(wg_sfu_idiv(x, y, 1)); break;
	case K_IREMS: ALU(wg_sfu_irem(x, y, 0)); break;
	case K_IREMU: ALU(wg_sfu_irem(x, y, 1)); break;
	case K_S2R: s2r(R, w, d, exec); break;
	case K_LD:
	case K_ST:
	case K_ATOM:
		rc = ls ? ls_mem(R, w, d, pc, exec) : do_mem(R, w, d, pc, exec);
		if (unlikely(rc))
			return rc;
		break;

	case K_BRA:
		R->branches++;
		if (exec == active) {
			top->pc = d->imm;
		} else if (!exec) {
			top->pc = pc + 1;
		} else {
			if (unlikely(w->sp + 2 > STACK_MAX))
				return fault(R, w, pc, -1, WG_EILLEGAL, "SIMT reconvergence stack overflow");
			R->divergent++;
			top->pc = d->reconv;
			top[1] = (struct sentry){ pc + 1, d->reconv, active & ~exec };
			top[2] = (struct sentry){ d->imm, d->reconv, exec };
			w->sp += 2;
			top += 2;
		}
		goto ctl;

	case K_EXIT:
		if (exec) {
			uint32_t sp = w->sp;

			for (uint32_t i = 0; i < sp; i++)
				w->stk[i].mask &= ~exec;
			while (sp && !w->stk[sp - 1].mask)
				sp--;
			if (!sp) {
				w->sp = 0;
				w->state = W_DONE;
				if (ls)
					ls_retire(R, w, d, pc, active, exec);
				else if (unlikely(R->log))
					retire(R, w, d, pc, active, exec);
				return 1;
			}
			if (sp == w->sp)
				top->pc = pc + 1;
			w->sp = sp;
			top = &w->stk[sp - 1];
		} else {
			top->pc = pc + 1;
		}
		goto ctl;

	case K_BAR:
		if (exec) {
			w->state = W_WAIT;
			w->bar = d->imm;
			R->barriers++;
			yield = 1;
		}
		break;

	default:
		return illegal(R, w, pc);
	}
next:
	top->pc = pc + 1;
ctl:
	if (ls)
		ls_retire(R, w, d, pc, active, exec);
	else if (unlikely(R->log))
		retire(R, w, d, pc, active, exec);
	while (top->pc == top->rpc && w->sp > 1) {
		w->sp--;
		top--;
	}
	return yield;
}

/*
 * Run warp w until it finishes, waits at a barrier or faults. Returns 0 or
 * a negative WG_E* with R->err filled in. The body is compiled twice (see
 * run_warp_v3 below) together with every HOT helper.
 */
HOT int run_warp(struct run *R, struct warp *w)
{
	for (;;) {
		int rc = exec_one(R, w, 0);

		if (rc)
			return rc < 0 ? rc : 0;
	}
}

/*
 * The interpreter for x86-64-v3 (AVX2, FMA, BMI, POPCNT): the per-lane loops
 * run 8 lanes per instruction and FFMA is one instruction instead of a
 * library call. Both versions compute bit-identical results (IEEE 754
 * operations, no flush to zero, FP contraction off).
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WG_HAVE_V3 1
__attribute__((target("arch=x86-64-v3"))) static int run_warp_v3(struct run *R, struct warp *w)
{
	return run_warp(R, w);
}
#endif

static int run_warp_base(struct run *R, struct warp *w)
{
	return run_warp(R, w);
}

/* Barrier bookkeeping after warp w ran: release or detect a deadlock. */
static int check_barrier(struct run *R, uint32_t alive)
{
	struct warp *ws = R->warps;
	uint32_t id = WG_NUM_BARRIERS, same = 1;

	for (uint32_t i = 0; i < R->nwarps; i++) {
		if (ws[i].state == W_DONE)
			continue;
		if (ws[i].state == W_RUN)
			return 0;
		if (id == WG_NUM_BARRIERS)
			id = ws[i].bar;
		else if (ws[i].bar != id)
			same = 0;
	}
	if (!alive)
		return 0;
	if (same) {
		for (uint32_t i = 0; i < R->nwarps; i++)
			if (ws[i].state == W_WAIT)
				ws[i].state = W_RUN;
		return 0;
	}
	{
		char list[320] = "";
		size_t len = 0;

		for (uint32_t i = 0; i < R->nwarps && len < sizeof(list) - 32; i++) {
			if (ws[i].state != W_WAIT)
				continue;
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%swarp %u at barrier %u",
			                        len ? ", " : "", i, ws[i].bar);
		}
		return fault(R, NULL, 0, -1, WG_EDEADLOCK,
		             "barrier deadlock: every unfinished warp waits, at different barriers (%s)", list);
	}
}

static int run_cta(struct run *R)
{
	uint32_t nw = R->nwarps, alive = nw, waiting = 0;
	const struct wg_kernel *k = R->k;

	for (uint32_t i = 0; i < nw; i++) {
		struct warp *w = &R->warps[i];
		uint32_t nlanes = R->nthreads - 32 * i;

		memset(w->r, 0, (size_t)k->regs * sizeof(w->r[0]));
		memset(w->r[ROW_RZ], 0, sizeof(w->r[0]));
		memset(w->p, 0, sizeof(w->p));
		w->p[PRED_PT] = FULL_MASK;
		w->lanes = nlanes >= 32 ? FULL_MASK : (1u << nlanes) - 1;
		w->tid0 = 32 * i;
		w->index = i;
		w->state = W_RUN;
		w->bar = 0;
		w->sp = 1;
		w->stk[0] = (struct sentry){ 0, WG_RECONV_NONE, w->lanes };
	}
	if (R->shared_win)
		memset(R->shared, 0, R->shared_win);
	if (R->local_win)
		memset(R->local, 0, (size_t)R->local_win * R->nthreads);

	for (uint32_t i = 0; alive; i = i + 1 == nw ? 0 : i + 1) {
		struct warp *w = &R->warps[i];
		int rc;

		if (w->state != W_RUN)
			continue;
		rc = R->f->run(R, w);
		if (rc)
			return rc;
		if (w->state == W_DONE)
			alive--;
		else
			waiting++;
		if (alive && waiting == alive) {
			rc = check_barrier(R, alive);
			if (rc)
				return rc;
			waiting = 0;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Launch                                                                    */

static int check_fit(struct run *R)
{
	const struct wg_config *c = &R->f->cfg;
	const struct wg_launch *l = R->l;
	const char *name = R->k->name;
	uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;
	uint64_t warps = (threads + 31) / 32;
	uint64_t regs = (uint64_t)R->k->regs * warps * 32;
	uint64_t shared = (uint64_t)R->k->shared_bytes + l->dyn_shared;
	char *msg = R->err->msg;
	size_t len = sizeof(R->err->msg);

	if (!threads || !l->grid.x || !l->grid.y || !l->grid.z) {
		snprintf(msg, len, "kernel '%s': empty launch: grid (%u,%u,%u), block (%u,%u,%u)", name, l->grid.x,
		         l->grid.y, l->grid.z, l->block.x, l->block.y, l->block.z);
		return WG_ELAUNCH;
	}
	if (threads > c->max_threads_per_cta) {
		snprintf(msg, len, "kernel '%s': launch does not fit one SM: %llu threads per CTA exceed "
		         "max_threads_per_cta %u", name, (unsigned long long)threads, c->max_threads_per_cta);
		return WG_ELAUNCH;
	}
	if (warps > c->max_warps_per_sm) {
		snprintf(msg, len, "kernel '%s': launch does not fit one SM: %llu warps per CTA exceed "
		         "max_warps_per_sm %u", name, (unsigned long long)warps, c->max_warps_per_sm);
		return WG_ELAUNCH;
	}
	if (regs > c->regs_per_sm) {
		snprintf(msg, len, "kernel '%s': launch does not fit one SM: %u registers x %llu threads "
		         "(whole warps) = %llu registers exceed regs_per_sm %u", name, R->k->regs,
		         (unsigned long long)(warps * 32), (unsigned long long)regs, c->regs_per_sm);
		return WG_ELAUNCH;
	}
	if (shared > c->shmem_bytes) {
		snprintf(msg, len, "kernel '%s': launch does not fit one SM: %u static + %u dynamic shared "
		         "bytes exceed shmem_bytes %u", name, R->k->shared_bytes, l->dyn_shared, c->shmem_bytes);
		return WG_ELAUNCH;
	}
	if (R->k->param_bytes && !l->params) {
		snprintf(msg, len, "kernel '%s': %u parameter bytes expected, none given", name, R->k->param_bytes);
		return WG_EINVAL;
	}
	R->nthreads = (uint32_t)threads;
	R->nwarps = (uint32_t)warps;
	R->shared_win = (uint32_t)shared;
	R->local_win = R->k->local_bytes;
	R->param_win = R->k->param_bytes;
	R->params = l->params;
	return 0;
}

/* Grow the buffers kept in f to this launch's needs. */
static int reserve(struct run *R)
{
	struct wg_func *f = R->f;
	size_t local = (size_t)R->local_win * R->nthreads;

	if (R->nwarps > f->cap_warps) {
		struct warp *ws = aligned_alloc(64, R->nwarps * sizeof(*ws));

		if (!ws)
			return WG_ENOMEM;
		memset(ws, 0, R->nwarps * sizeof(*ws));
		free(f->warps);
		f->warps = ws;
		f->cap_warps = R->nwarps;
	}
	if (R->shared_win > f->cap_shared) {
		uint8_t *s = malloc(R->shared_win);

		if (!s)
			return WG_ENOMEM;
		free(f->shared);
		f->shared = s;
		f->cap_shared = R->shared_win;
	}
	if (local > f->cap_local) {
		uint8_t *s = malloc(local);

		if (!s)
			return WG_ENOMEM;
		free(f->local);
		f->local = s;
		f->cap_local = local;
	}
	R->warps = f->warps;
	R->shared = f->shared;
	R->local = f->local;
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void add_stats(const struct run *R, struct wg_stats *st, uint64_t ctas)
{
	st->ctas += ctas;
	st->warps += ctas * R->nwarps;
	st->threads += ctas * R->nthreads;
	for (unsigned c = 0; c < WG_CLASS_COUNT; c++) {
		st->class_warp[c] += R->cw[c];
		st->class_thread[c] += R->ct[c];
		st->warp_insts += R->cw[c];
		st->thread_insts += R->ct[c];
	}
	st->branches += R->branches;
	st->divergent_branches += R->divergent;
	st->barriers += R->barriers;
	st->gld_bytes += R->gld;
	st->gst_bytes += R->gst;
	st->shld_bytes += R->shld;
	st->shst_bytes += R->shst;
	st->local_ld_bytes += R->lld;
	st->local_st_bytes += R->lst;
	st->atom_ops += R->atoms;
	for (unsigned i = 0; i < WG_MEMCNT_COUNT; i++)
		st->mem[i] += R->mc[i];
}

int wg_func_run(struct wg_func *f, const struct wg_launch *l, struct wg_stats *st, struct wg_retire_log *log,
                struct wg_err *err)
{
	struct run *R;
	struct wg_err dummy;
	double t0 = now_seconds();
	uint64_t ctas = 0, total;
	int rc, old_round;

	if (!err)
		err = &dummy;
	err->msg[0] = '\0';
	if (!f || !l || !l->kernel || !st) {
		snprintf(err->msg, sizeof(err->msg), "wg_func_run: invalid arguments");
		return WG_EINVAL;
	}
	R = calloc(1, sizeof(*R));
	if (!R)
		return WG_ENOMEM;
	R->f = f;
	R->l = l;
	R->k = l->kernel;
	R->log = log;
	R->err = err;

	rc = check_fit(R);
	if (rc)
		goto out_free;
	R->total_threads = (uint32_t)((uint64_t)l->grid.x * l->grid.y * l->grid.z * R->nthreads);
	rc = decode_kernel(R);
	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "kernel '%s': out of host memory", R->k->name);
		goto out_code;
	}
	rc = reserve(R);
	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "kernel '%s': out of host memory for %u warps, %u shared "
		         "bytes and %u local bytes per thread", R->k->name, R->nwarps, R->shared_win, R->local_win);
		goto out_code;
	}
	if (log)
		fprintf(wg_retire_file(log), "# kernel %s grid %u %u %u block %u %u %u\n", R->k->name, l->grid.x,
		        l->grid.y, l->grid.z, l->block.x, l->block.y, l->block.z);

	old_round = fegetround();
	fesetround(FE_TONEAREST);
	total = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
	R->ctaid[0] = R->ctaid[1] = R->ctaid[2] = 0;
	for (ctas = 0; ctas < total;) {
		R->cta = (uint32_t)ctas;
		ctas++;
		rc = run_cta(R);
		if (rc)
			break;
		if (++R->ctaid[0] == l->grid.x) {
			R->ctaid[0] = 0;
			if (++R->ctaid[1] == l->grid.y) {
				R->ctaid[1] = 0;
				R->ctaid[2]++;
			}
		}
	}
	fesetround(old_round);
	add_stats(R, st, ctas);
	if (!rc)
		st->kernels++;

out_code:
	free(R->code);
	free(R->imm);
	free(R->mcache);
out_free:
	st->host_seconds += now_seconds() - t0;
	free(R);
	return rc;
}

int wg_func_create(struct wg_func **fp, struct wg_gmem *gmem, const struct wg_config *cfg)
{
	struct wg_func *f;

	if (!fp || !gmem || !cfg)
		return WG_EINVAL;
	*fp = NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return WG_ENOMEM;
	f->gmem = gmem;
	f->cfg = *cfg;
	f->run = run_warp_base;
#ifdef WG_HAVE_V3
	/* WG_FUNC_BASELINE=1 selects the baseline interpreter (tests run both). */
	if (!getenv("WG_FUNC_BASELINE")) {
		__builtin_cpu_init();
		if (__builtin_cpu_supports("x86-64-v3"))
			f->run = run_warp_v3;
	}
#endif
	*fp = f;
	return 0;
}

void wg_func_destroy(struct wg_func *f)
{
	if (!f)
		return;
	free(f->warps);
	free(f->shared);
	free(f->local);
	free(f);
}

/* ------------------------------------------------------------------------ */
/* Stepping API (lockstep co-simulation)                                    */

struct ls_cta {
	int used;
	uint32_t linear, ctaid[3];
	uint32_t alive;
	struct warp *warps;
	uint8_t *shared, *local;
};

struct wg_func_ls {
	struct run R;
	struct wg_err dummy;
	struct ls_cta *ctas;
	uint32_t nctas;
	uint64_t begun; /* CTAs begun (statistics) */
};

int wg_func_ls_begin(struct wg_func *f, const struct wg_launch *l, int mode, uint32_t local_base,
                     struct wg_func_ls **sp, struct wg_err *err)
{
	struct wg_func_ls *s;
	struct run *R;
	int rc;

	if (!f || !l || !l->kernel || !sp)
		return WG_EINVAL;
	*sp = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return WG_ENOMEM;
	R = &s->R;
	R->f = f;
	R->l = l;
	R->k = l->kernel;
	R->err = err ? err : &s->dummy;
	R->err->msg[0] = '\0';
	R->ls_mode = mode;
	R->local_base = local_base;
	rc = check_fit(R);
	if (!rc) {
		R->total_threads = (uint32_t)((uint64_t)l->grid.x * l->grid.y * l->grid.z * R->nthreads);
		rc = decode_kernel(R);
		if (rc)
			snprintf(R->err->msg, sizeof(R->err->msg), "kernel '%s': out of host memory", R->k->name);
	}
	if (rc) {
		free(R->code);
		free(R->imm);
		free(R->mcache);
		free(s);
		return rc;
	}
	*sp = s;
	return 0;
}

void wg_func_ls_end(struct wg_func_ls *s, struct wg_stats *st)
{
	uint64_t ctas = 0;

	if (!s)
		return;
	for (uint32_t i = 0; i < s->nctas; i++) {
		free(s->ctas[i].warps);
		free(s->ctas[i].shared);
		free(s->ctas[i].local);
	}
	if (st) {
		ctas = s->begun;
		add_stats(&s->R, st, ctas);
	}
	free(s->ctas);
	free(s->R.code);
	free(s->R.imm);
	free(s->R.mcache);
	free(s);
}

static struct ls_cta *ls_find(const struct wg_func_ls *s, uint32_t cta)
{
	for (uint32_t i = 0; i < s->nctas; i++)
		if (s->ctas[i].used && s->ctas[i].linear == cta)
			return &s->ctas[i];
	return NULL;
}

int wg_func_ls_cta_begin(struct wg_func_ls *s, uint32_t cta, struct wg_err *err)
{
	struct run *R = &s->R;
	const struct wg_launch *l = R->l;
	struct ls_cta *c = NULL;

	if (!err)
		err = &s->dummy;
	if ((uint64_t)cta >= (uint64_t)l->grid.x * l->grid.y * l->grid.z || ls_find(s, cta)) {
		snprintf(err->msg, sizeof(err->msg), "kernel '%s': CTA %u is outside the grid or already running",
		         R->k->name, cta);
		return WG_EINVAL;
	}
	for (uint32_t i = 0; i < s->nctas && !c; i++)
		if (!s->ctas[i].used)
			c = &s->ctas[i];
	if (!c) {
		struct ls_cta *n = realloc(s->ctas, (s->nctas + 1) * sizeof(*n));

		if (!n)
			return WG_ENOMEM;
		s->ctas = n;
		c = &s->ctas[s->nctas++];
		memset(c, 0, sizeof(*c));
		c->warps = aligned_alloc(64, R->nwarps * sizeof(*c->warps));
		c->shared = malloc(R->shared_win ? R->shared_win : 1);
		c->local = malloc((size_t)R->local_win * R->nthreads + 1);
		if (!c->warps || !c->shared || !c->local) {
			snprintf(err->msg, sizeof(err->msg), "kernel '%s': out of host memory", R->k->name);
			return WG_ENOMEM;
		}
	}
	c->used = 1;
	c->linear = cta;
	c->ctaid[0] = cta % l->grid.x;
	c->ctaid[1] = cta / l->grid.x % l->grid.y;
	c->ctaid[2] = cta / l->grid.x / l->grid.y;
	c->alive = R->nwarps;
	R->warps = c->warps;
	R->shared = c->shared;
	R->local = c->local;
	R->cta = cta;
	memset(c->warps, 0, R->nwarps * sizeof(*c->warps));
	/* run_cta's initialisation, without running */
	for (uint32_t i = 0; i < R->nwarps; i++) {
		struct warp *w = &c->warps[i];
		uint32_t nlanes = R->nthreads - 32 * i;

		w->p[PRED_PT] = FULL_MASK;
		w->lanes = nlanes >= 32 ? FULL_MASK : (1u << nlanes) - 1;
		w->tid0 = 32 * i;
		w->index = i;
		w->state = W_RUN;
		w->sp = 1;
		w->stk[0] = (struct sentry){ 0, WG_RECONV_NONE, w->lanes };
	}
	if (R->shared_win)
		memset(c->shared, 0, R->shared_win);
	if (R->local_win)
		memset(c->local, 0, (size_t)R->local_win * R->nthreads);
	s->begun++;
	return 0;
}

void wg_func_ls_cta_end(struct wg_func_ls *s, uint32_t cta)
{
	struct ls_cta *c = s ? ls_find(s, cta) : NULL;

	if (c)
		c->used = 0;
}

uint32_t wg_func_ls_warps(const struct wg_func_ls *s)
{
	return s->R.nwarps;
}

int wg_func_ls_warp(const struct wg_func_ls *s, uint32_t cta, uint32_t warp, uint32_t *pc)
{
	const struct ls_cta *c = ls_find(s, cta);
	const struct warp *w;

	if (!c || warp >= s->R.nwarps)
		return WG_ENOENT;
	w = &c->warps[warp];
	if (pc)
		*pc = w->sp ? w->stk[w->sp - 1].pc : 0;
	return (int)w->state;
}

int wg_func_ls_step(struct wg_func_ls *s, uint32_t cta, uint32_t warp, const struct wg_func_ls_rec *obs,
                    struct wg_func_ls_rec *out, struct wg_err *err)
{
	struct run *R = &s->R;
	struct ls_cta *c = ls_find(s, cta);
	struct warp *w;
	int rc;

	if (!err)
		err = &s->dummy;
	err->msg[0] = '\0';
	if (!c || warp >= R->nwarps) {
		snprintf(err->msg, sizeof(err->msg), "kernel '%s': CTA %u warp %u is not running", R->k->name, cta,
		         warp);
		return WG_ENOENT;
	}
	w = &c->warps[warp];
	R->err = err;
	R->obs = obs;
	R->rec = out;
	R->cta = c->linear;
	R->ctaid[0] = c->ctaid[0];
	R->ctaid[1] = c->ctaid[1];
	R->ctaid[2] = c->ctaid[2];
	R->warps = c->warps;
	R->shared = c->shared;
	R->local = c->local;
	if (w->state != W_RUN)
		return fault(R, w, w->sp ? w->stk[w->sp - 1].pc : 0, -1, WG_EINVAL, "the warp %s",
		             w->state == W_DONE ? "has finished" : "waits at a barrier");
	out->nmem = 0;
	if (fegetround() != FE_TONEAREST)
		fesetround(FE_TONEAREST);
	rc = exec_one(R, w, 1);
	if (rc < 0)
		return rc;
	out->state = (uint8_t)w->state;
	if (w->state == W_DONE)
		c->alive--;
	if (w->state != W_RUN && c->alive) {
		uint32_t waiting = 0;

		for (uint32_t i = 0; i < R->nwarps; i++)
			waiting += c->warps[i].state == W_WAIT;
		if (waiting == c->alive)
			return check_barrier(R, c->alive);
	}
	return 0;
}

void wg_func_ls_log(struct wg_retire_log *log, const struct wg_func_ls_rec *r)
{
	struct wg_retire_rec rec = {
		.cta = r->cta,
		.warp = r->warp,
		.pc = r->pc,
		.active = r->active,
		.exec = r->exec,
		.dst = r->dst,
		.reg = r->reg,
		.nregs = r->nregs,
		.skip_values = r->skip,
		.pred = r->pred,
		.vals = (const uint32_t (*)[4])r->vals,
	};

	wg_retire_write(log, &rec);
}
