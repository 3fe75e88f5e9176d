/*
 * PTX -> warpgate assembly (docs/ptx.md sections 3 and 5).
 *
 * Each PTX statement becomes one or more ISA instructions over virtual
 * registers (one per PTX register; 64-bit values are represented by their
 * low 32 bits). Temporaries (materialised immediates, special registers,
 * addresses, intermediate results) are computed unguarded; only the
 * instruction that writes a PTX register or has an effect carries the
 * statement's guard. The CFG, liveness and linear-scan allocation
 * (ptx_cfg.c, ptx_ra.c) then give physical registers, and the emitter
 * prints assembly with explicit reconvergence labels (immediate
 * post-dominators) and spill code, which the assembler turns into an image.
 */
#include "ptx.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "warpgate.h"

/* ------------------------------------------------------------------------ */
/* Context                                                                  */

struct rent {
	char name[WG_PTX_NAME_MAX];
	int32_t vreg;
	uint8_t bits; /* 0 pred, 8, 16, 32, 64 */
	uint8_t f64;  /* .f64: unsupported on use */
	uint8_t used;
};

struct sym {
	const char *name;
	uint8_t space; /* enum wg_ptx_space */
	uint32_t off;
};

/* Provenance of a PTX register over all its definitions: VF_SEXT / VF_ZEXT when every
 * one is a sign- / zero-extension of a 32-bit value (then a 64-bit compare is a 32-bit
 * one), VF_PADDR when it holds a parameter's address (its offset in the parameter bank). */
enum { VF_SEXT = 1, VF_ZEXT = 2, VF_PADDR = 4 };

struct vflag {
	char name[WG_PTX_NAME_MAX];
	uint8_t f;
};

struct xctx {
	const struct wg_ptx_module *m;
	const struct wg_ptx_kernel *pk;
	struct wg_px_code *c;
	struct wg_kernel *k;
	FILE *diag;
	unsigned line;
	const struct wg_ptx_stmt *st;
	int failed, oom;
	/* registers: open-addressing hash of rent */
	struct rent *regs;
	uint32_t rcap, rused;
	/* shared / local symbols */
	struct sym *syms;
	uint32_t nsyms;
	/* labels: PTX label name -> label number (linear search is fine for nvcc sizes; hashed below) */
	int32_t *lhash;
	uint32_t lcap;
	/* the guard of the current statement (applied to its final instruction) */
	int32_t guard;
	int gneg;
	/* parameter names in the image, and index among the image's parameters (padding
	 * parameters for .align 16 shift it), per PTX parameter */
	char (*pname)[WG_NAME_MAX];
	uint32_t *pimg;
	/* provenance of the registers a statement writes (vprov(), before translation) */
	struct vflag *vf;
	uint32_t nvf;
};

static int xerr(struct xctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int op_is(const struct wg_ptx_stmt *s, const char *base);
static struct vflag *vfind(const struct xctx *x, const char *name);
static uint8_t imm_ext(int64_t v);

static int xerr(struct xctx *x, const char *fmt, ...)
{
	va_list ap;

	if (x->failed)
		return WG_ESYNTAX;
	x->failed = 1;
	if (x->diag) {
		fprintf(x->diag, "%s:%u: error: ", x->m->file, x->line);
		va_start(ap, fmt);
		vfprintf(x->diag, fmt, ap);
		va_end(ap);
		fputc('\n', x->diag);
	}
	return WG_ESYNTAX;
}

static int xoom(struct xctx *x)
{
	if (!x->oom && x->diag)
		fprintf(x->diag, "%s: error: out of memory\n", x->m->file);
	x->oom = 1;
	x->failed = 1;
	return WG_ENOMEM;
}

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

/* ------------------------------------------------------------------------ */
/* Registers                                                                */

/* Find the declaration of a register name: exact, or prefix<N> with N < count. */
static const struct wg_ptx_regdecl *find_decl(const struct wg_ptx_kernel *pk, const char *name)
{
	for (uint32_t i = 0; i < pk->nregs; i++) {
		const struct wg_ptx_regdecl *d = &pk->regs[i];
		size_t n = strlen(d->name);

		if (!d->count) {
			if (!strcmp(d->name, name))
				return d;
			continue;
		}
		if (strncmp(d->name, name, n) || !name[n])
			continue;
		{
			const char *q = name + n;
			char *end;
			unsigned long idx;

			if (*q < '0' || *q > '9' || (q[0] == '0' && q[1]))
				continue;
			idx = strtoul(q, &end, 10);
			if (!*end && idx < d->count)
				return d;
		}
	}
	return NULL;
}

static unsigned type_bits(const char *t)
{
	if (!strcmp(t, "pred"))
		return 0;
	if ((t[0] == 'b' || t[0] == 'u' || t[0] == 's' || t[0] == 'f') && t[1]) {
		int b = atoi(t + 1);

		if (b == 8 || b == 16 || b == 32 || b == 64)
			return (unsigned)b;
	}
	return 1; /* unknown */
}

/* The register entry of a PTX register name; NULL (no error) when it is not a register. */
static struct rent *lookup_reg(struct xctx *x, const char *name)
{
	uint32_t h, i;
	const struct wg_ptx_regdecl *d;

	if (!x->rcap) {
		x->rcap = 256;
		while (x->rcap < 4 * x->pk->nregs)
			x->rcap *= 2;
		x->regs = calloc(x->rcap, sizeof(*x->regs));
		if (!x->regs) {
			x->rcap = 0;
			xoom(x);
			return NULL;
		}
	}
	h = hash_str(name);
	for (i = h & (x->rcap - 1);; i = (i + 1) & (x->rcap - 1)) {
		if (!x->regs[i].name[0])
			break;
		if (!strcmp(x->regs[i].name, name))
			return &x->regs[i];
	}
	d = find_decl(x->pk, name);
	if (!d)
		return NULL;
	{
		if (2 * (x->rused + 1) > x->rcap) { /* grow and retry */
			struct rent *old = x->regs;
			uint32_t ocap = x->rcap;

			x->rcap *= 2;
			x->regs = calloc(x->rcap, sizeof(*x->regs));
			if (!x->regs) {
				x->regs = old;
				x->rcap = ocap;
				xoom(x);
				return NULL;
			}
			for (uint32_t j = 0; j < ocap; j++) {
				if (!old[j].name[0])
					continue;
				for (i = hash_str(old[j].name) & (x->rcap - 1); x->regs[i].name[0]; i = (i + 1) & (x->rcap - 1))
					;
				x->regs[i] = old[j];
			}
			free(old);
			for (i = h & (x->rcap - 1); x->regs[i].name[0]; i = (i + 1) & (x->rcap - 1))
				;
		}
	}
	{
		struct rent *r = &x->regs[i];
		unsigned bits = type_bits(d->type);
		int v;

		if (bits == 1) {
			xerr(x, "unsupported register type '.%s' of '%s'", d->type, name);
			return NULL;
		}
		v = wg_px_new_vreg(x->c, bits ? WG_PX_GPR : WG_PX_PRED);
		if (v < 0) {
			xoom(x);
			return NULL;
		}
		snprintf(r->name, sizeof(r->name), "%s", name);
		x->rused++;
		r->vreg = v;
		r->bits = (uint8_t)bits;
		r->f64 = !strcmp(d->type, "f64");
		return r;
	}
}

static int temp(struct xctx *x, unsigned cls)
{
	int v = wg_px_new_vreg(x->c, cls);

	if (v < 0)
		return xoom(x);
	return v;
}

/* ------------------------------------------------------------------------ */
/* Emission helpers                                                         */

/* A source operand: a vreg or a 32-bit immediate. */
struct sv {
	int32_t v;
	uint32_t imm;
	int is_imm;
};

static struct wg_px_insn *emit(struct xctx *x, int guarded, int32_t def, int32_t s0, int32_t s1, int32_t s2,
                               const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static struct wg_px_insn *emit(struct xctx *x, int guarded, int32_t def, int32_t s0, int32_t s1, int32_t s2,
                               const char *fmt, ...)
{
	struct wg_px_insn *in;
	va_list ap;

	if (x->failed)
		return NULL;
	in = wg_px_append(x->c, WG_PX_OP, x->line);
	if (!in) {
		xoom(x);
		return NULL;
	}
	if (guarded) {
		in->guard = x->guard;
		in->gneg = (uint8_t)x->gneg;
	}
	in->def = def;
	in->src[0] = s0;
	in->src[1] = s1;
	in->src[2] = s2;
	va_start(ap, fmt);
	vsnprintf(in->text, sizeof(in->text), fmt, ap);
	va_end(ap);
	return in;
}

/* Make a register out of a source (materialising an immediate). */
static int32_t reg_of(struct xctx *x, struct sv s)
{
	int32_t t;

	if (!s.is_imm)
		return s.v;
	if (s.imm == 0)
		return -3; /* RZ */
	t = temp(x, WG_PX_GPR);
	if (t < 0)
		return t;
	emit(x, 0, t, -1, -1, -1, "MOV {d}, 0x%x", s.imm);
	return t;
}

/* Text of operand slot k for register r (RZ for -3). */
static const char *rtext(int32_t r, int k)
{
	static const char *const slot[3] = { "{0}", "{1}", "{2}" };

	return r == -3 ? "RZ" : slot[k];
}

static int32_t rsrc(int32_t r)
{
	return r == -3 ? -1 : r;
}

/* OP d, A, B */
static void e_rab(struct xctx *x, int guarded, const char *op, int32_t d, struct sv a, struct sv b)
{
	int32_t ra = reg_of(x, a);
	char bt[16];

	if (b.is_imm)
		snprintf(bt, sizeof(bt), "0x%x", b.imm);
	else
		snprintf(bt, sizeof(bt), "{1}");
	emit(x, guarded, d, rsrc(ra), b.is_imm ? -1 : b.v, -1, "%s {d}, %s, %s", op, rtext(ra, 0), bt);
}

/* OP d, A, B, C */
static void e_rabc(struct xctx *x, int guarded, const char *op, int32_t d, struct sv a, struct sv b, struct sv cc)
{
	int32_t ra = reg_of(x, a), rc = reg_of(x, cc);
	char bt[16];

	if (b.is_imm)
		snprintf(bt, sizeof(bt), "0x%x", b.imm);
	else
		snprintf(bt, sizeof(bt), "{1}");
	emit(x, guarded, d, rsrc(ra), b.is_imm ? -1 : b.v, rsrc(rc), "%s {d}, %s, %s, %s", op, rtext(ra, 0), bt,
	     rtext(rc, 2));
}

/* OP d, A */
static void e_ra(struct xctx *x, int guarded, const char *op, int32_t d, struct sv a)
{
	int32_t ra = reg_of(x, a);

	emit(x, guarded, d, rsrc(ra), -1, -1, "%s {d}, %s", op, rtext(ra, 0));
}

/* MOV d, B */
static void e_mov(struct xctx *x, int guarded, int32_t d, struct sv b)
{
	if (b.is_imm)
		emit(x, guarded, d, -1, -1, -1, "MOV {d}, 0x%x", b.imm);
	else
		emit(x, guarded, d, -1, b.v, -1, "MOV {d}, {1}");
}

/* PLOP.op d, [!]a, [!]c; a/c = -1 for PT */
static void e_plop(struct xctx *x, int guarded, const char *op, int32_t d, int32_t a, int nega, int32_t c, int negc)
{
	emit(x, guarded, d, a, -1, c, "PLOP.%s {d}, %s%s, %s%s", op, nega ? "!" : "", a < 0 ? "PT" : "{0}",
	     negc ? "!" : "", c < 0 ? "PT" : "{2}");
}

/* ------------------------------------------------------------------------ */
/* Operands                                                                 */

static const struct {
	const char *ptx, *sr;
} sregs[] = {
	{ "%tid.x", "SR_TID.X" },       { "%tid.y", "SR_TID.Y" },       { "%tid.z", "SR_TID.Z" },
	{ "%ntid.x", "SR_NTID.X" },     { "%ntid.y", "SR_NTID.Y" },     { "%ntid.z", "SR_NTID.Z" },
	{ "%ctaid.x", "SR_CTAID.X" },   { "%ctaid.y", "SR_CTAID.Y" },   { "%ctaid.z", "SR_CTAID.Z" },
	{ "%nctaid.x", "SR_NCTAID.X" }, { "%nctaid.y", "SR_NCTAID.Y" }, { "%nctaid.z", "SR_NCTAID.Z" },
	{ "%laneid", "SR_LANEID" },     { "%warpid", "SR_WARPID" },     { "%smid", "SR_SMID" },
	{ "%clock", "SR_CLOCK" },       { "%clock_hi", "SR_CLOCKHI" },
};

static const char *sreg_of(const char *name)
{
	for (size_t i = 0; i < sizeof(sregs) / sizeof(sregs[0]); i++)
		if (!strcmp(sregs[i].ptx, name))
			return sregs[i].sr;
	return NULL;
}

static const struct sym *find_sym(const struct xctx *x, const char *name)
{
	for (uint32_t i = 0; i < x->nsyms; i++)
		if (!strcmp(x->syms[i].name, name))
			return &x->syms[i];
	return NULL;
}

static int find_param(const struct xctx *x, const char *name)
{
	for (uint32_t i = 0; i < x->pk->nparams; i++)
		if (!strcmp(x->pk->params[i].name, name))
			return (int)i;
	return -1;
}

/* A register operand that must be a PTX register of the given class (1 = pred). */
static struct rent *need_reg(struct xctx *x, const struct wg_ptx_opnd *o, int pred, const char *what)
{
	struct rent *r;

	if (o->kind != WG_PTX_O_REG)
		return xerr(x, "expected a register as %s of '%s'", what, x->st->op), NULL;
	r = lookup_reg(x, o->name);
	if (!r) {
		if (!x->failed)
			xerr(x, "undeclared register '%s' in '%s'", o->name, x->st->op);
		return NULL;
	}
	if (r->f64)
		return xerr(x, "unsupported .f64 register '%s' in '%s'", o->name, x->st->op), NULL;
	if (pred && r->bits)
		return xerr(x, "expected a predicate as %s of '%s', found '%s'", what, x->st->op, o->name), NULL;
	if (!pred && !r->bits)
		return xerr(x, "expected a general register as %s of '%s', found predicate '%s'", what, x->st->op,
			    o->name), NULL;
	r->used = 1;
	return r;
}

/* Destination register vreg (general), or -1 on error. */
static int32_t dst(struct xctx *x, const struct wg_ptx_opnd *o)
{
	struct rent *r;

	if (o->kind == WG_PTX_O_REG && !strcmp(o->name, "_"))
		return -3; /* sink */
	r = need_reg(x, o, 0, "the destination");
	return r ? r->vreg : -1;
}

static int32_t pdst(struct xctx *x, const struct wg_ptx_opnd *o)
{
	struct rent *r = need_reg(x, o, 1, "the destination");

	return r ? r->vreg : -1;
}

/*
 * A general source operand for a value of `bits` bits (64: low word).
 * fp: integer literals are converted to FP32.
 */
static struct sv src(struct xctx *x, const struct wg_ptx_opnd *o, unsigned bits, int fp)
{
	struct sv s = { -1, 0, 0 };

	switch (o->kind) {
	case WG_PTX_O_INT:
		s.is_imm = 1;
		if (fp) {
			float f = (float)o->ival;

			memcpy(&s.imm, &f, 4);
		} else if (bits == 64) {
			s.imm = (uint32_t)(uint64_t)o->ival;
		} else if (o->ival < -2147483648LL || o->ival > 4294967295LL) {
			xerr(x, "immediate %lld does not fit 32 bits in '%s'", (long long)o->ival, x->st->op);
		} else {
			s.imm = (uint32_t)o->ival;
		}
		return s;
	case WG_PTX_O_F32:
		s.is_imm = 1;
		s.imm = o->fbits;
		return s;
	case WG_PTX_O_F64:
		xerr(x, "unsupported FP64 literal in '%s'", x->st->op);
		return s;
	case WG_PTX_O_REG: {
		const char *sr = sreg_of(o->name);
		const struct sym *sy;
		struct rent *r;
		int pi;

		if (sr) {
			s.v = temp(x, WG_PX_GPR);
			emit(x, 0, s.v, -1, -1, -1, "S2R {d}, %s", sr);
			return s;
		}
		if (o->name[0] == '%' && !lookup_reg(x, o->name) && !x->failed) {
			xerr(x, "unknown register '%s' in '%s' (not declared, and not a supported special register)", o->name, x->st->op);
			return s;
		}
		if ((sy = find_sym(x, o->name))) {
			s.is_imm = 1;
			s.imm = sy->off;
			return s;
		}
		if ((pi = find_param(x, o->name)) >= 0 && op_is(x->st, "mov")) {
			s.is_imm = 1; /* its address: the offset in the parameter bank (vprov() checks the uses) */
			s.imm = x->k->params[x->pimg[pi]].offset;
			return s;
		}
		if (pi >= 0) {
			xerr(x, "unsupported use of parameter '%s' as a value in '%s' (use ld.param)", o->name, x->st->op);
			return s;
		}
		r = need_reg(x, o, 0, "a source");
		if (r) {
			if (r->bits < bits && r->bits == 32 && bits == 64) {
				/* a 32-bit register read as 64 bits: only in cvt; elsewhere PTX forbids it */
			}
			s.v = r->vreg;
		}
		return s;
	}
	case WG_PTX_O_ADDR:
		if (o->neg == 2) { /* symbol+offset as a value */
			const struct sym *sy = find_sym(x, o->name);

			if (!sy) {
				xerr(x, "unknown symbol '%s' in '%s'", o->name, x->st->op);
				return s;
			}
			s.is_imm = 1;
			s.imm = sy->off + (uint32_t)o->ival;
			return s;
		}
		xerr(x, "unexpected memory operand in '%s'", x->st->op);
		return s;
	default:
		xerr(x, "unexpected vector operand in '%s'", x->st->op);
		return s;
	}
}

/* A predicate source (may be negated); returns vreg, *neg set. */
static int32_t psrc(struct xctx *x, const struct wg_ptx_opnd *o, int *neg)
{
	struct rent *r;

	*neg = o->neg == 1;
	if (o->kind == WG_PTX_O_INT) {
		/* constant predicate: PT or !PT */
		*neg = o->ival == 0;
		return -1;
	}
	r = need_reg(x, o, 1, "a predicate source");
	return r ? r->vreg : -2;
}

/* ------------------------------------------------------------------------ */
/* Modifiers                                                                */

struct mods {
	int n;
	char part[10][32];
	uint8_t used[10];
};

static int split_op(struct xctx *x, const char *op, char *base, size_t blen, struct mods *md)
{
	const char *p = strchr(op, '.');
	size_t n = p ? (size_t)(p - op) : strlen(op);

	memset(md, 0, sizeof(*md));
	if (n >= blen)
		return xerr(x, "unsupported instruction '%s'", op);
	memcpy(base, op, n);
	base[n] = 0;
	while (p) {
		const char *q = strchr(p + 1, '.');
		size_t len = q ? (size_t)(q - p - 1) : strlen(p + 1);

		if (md->n == 10 || len >= 32 || !len)
			return xerr(x, "unsupported instruction '%s'", op);
		memcpy(md->part[md->n], p + 1, len);
		md->part[md->n][len] = 0;
		md->n++;
		p = q;
	}
	return 0;
}

static int take(struct mods *md, const char *w)
{
	for (int i = 0; i < md->n; i++)
		if (!md->used[i] && !strcmp(md->part[i], w)) {
			md->used[i] = 1;
			return 1;
		}
	return 0;
}

/* Whether modifier w is present (not taken). */
static int has(const struct mods *md, const char *w)
{
	for (int i = 0; i < md->n; i++)
		if (!strcmp(md->part[i], w))
			return 1;
	return 0;
}

/* Take a type modifier; returns its bits (0 pred) and kind letter, or -1. */
static int take_type(struct mods *md, char *kind)
{
	for (int i = md->n; i-- > 0;) {
		const char *t = md->part[i];
		unsigned b;

		if (md->used[i])
			continue;
		b = type_bits(t);
		if (b == 1)
			continue;
		md->used[i] = 1;
		*kind = t[0] == 'p' ? 'p' : t[0];
		return (int)b;
	}
	return -1;
}

static int check_mods(struct xctx *x, const struct mods *md)
{
	for (int i = 0; i < md->n; i++)
		if (!md->used[i])
			return xerr(x, "unsupported modifier '.%s' in '%s'", md->part[i], x->st->op);
	return 0;
}

/* FP rounding and flags: .rn default; .ftz rejected unless allow_ftz; .sat reported. */
static int fp_mods(struct xctx *x, struct mods *md, int allow_ftz, int *sat)
{
	take(md, "rn");
	if (take(md, "ftz") && !allow_ftz)
		return xerr(x, "unsupported .ftz in '%s' (the ISA keeps subnormals)", x->st->op);
	*sat = take(md, "sat");
	for (int i = 0; i < md->n; i++)
		if (!md->used[i] && (!strcmp(md->part[i], "rz") || !strcmp(md->part[i], "rm") ||
				     !strcmp(md->part[i], "rp")))
			return xerr(x, "unsupported rounding '.%s' in '%s' (only .rn)", md->part[i], x->st->op);
	return 0;
}

/*
 * The exact FP32 operations add, sub, mul, fma, mad: the ISA has every PTX rounding
 * (.rn default, .rz, .rm, .rp) and .ftz (docs/isa.md section 7). *op becomes base
 * with the ISA's suffixes ("FFMA.RM", "FADD.RZ.FTZ"); .sat is reported.
 */
static int fp_exact_mods(struct xctx *x, struct mods *md, const char *base, const char **op, int *sat)
{
	static const char *const names[4][8] = {
		{ "FADD", "FADD.RZ", "FADD.RM", "FADD.RP", "FADD.FTZ", "FADD.RZ.FTZ", "FADD.RM.FTZ", "FADD.RP.FTZ" },
		{ "FSUB", "FSUB.RZ", "FSUB.RM", "FSUB.RP", "FSUB.FTZ", "FSUB.RZ.FTZ", "FSUB.RM.FTZ", "FSUB.RP.FTZ" },
		{ "FMUL", "FMUL.RZ", "FMUL.RM", "FMUL.RP", "FMUL.FTZ", "FMUL.RZ.FTZ", "FMUL.RM.FTZ", "FMUL.RP.FTZ" },
		{ "FFMA", "FFMA.RZ", "FFMA.RM", "FFMA.RP", "FFMA.FTZ", "FFMA.RZ.FTZ", "FFMA.RM.FTZ", "FFMA.RP.FTZ" },
	};
	static const char *const rnd[4] = { "rn", "rz", "rm", "rp" };
	int b = !strcmp(base, "FADD") ? 0 : !strcmp(base, "FSUB") ? 1 : !strcmp(base, "FMUL") ? 2 : 3;
	unsigned mode = 0, n = 0;

	for (unsigned i = 0; i < 4; i++)
		if (take(md, rnd[i])) {
			mode = i;
			n++;
		}
	if (n > 1)
		return xerr(x, "more than one rounding in '%s'", x->st->op);
	if (take(md, "ftz"))
		mode |= 4;
	*sat = take(md, "sat");
	*op = names[b][mode];
	return 0;
}

static int need_ops(struct xctx *x, int n)
{
	if (x->st->nops != n)
		return xerr(x, "'%s' takes %d operands, found %d", x->st->op, n, x->st->nops);
	return 0;
}

/* Write result r (a temp) to d under the guard, applying .sat for FP32 when asked. */
static void finish_f32(struct xctx *x, const char *op, int32_t d, struct sv a, struct sv b, int sat)
{
	if (!sat) {
		e_rab(x, 1, op, d, a, b);
		return;
	}
	{
		int32_t t = temp(x, WG_PX_GPR), u = temp(x, WG_PX_GPR);
		struct sv st = { t, 0, 0 }, su = { u, 0, 0 }, zero = { -1, 0, 1 }, one = { -1, 0x3f800000u, 1 };

		e_rab(x, 0, op, t, a, b);
		e_rab(x, 0, "FMAX", u, st, zero); /* NaN -> +0 (maxNum), -0 -> +0 */
		e_rab(x, 1, "FMIN", d, su, one);
	}
}

/*
 * An 8/16-bit value extended to 32 bits (sign- or zero-), for the operations
 * whose result depends on the bits above it. 8/16-bit registers hold their
 * value in the low bits; the bits above are unspecified (docs/ptx.md section 2).
 */
static struct sv narrow(struct xctx *x, struct sv a, int bits, int sgn)
{
	int32_t t;

	if (bits >= 32)
		return a;
	if (a.is_imm) {
		uint32_t m = (1u << bits) - 1, v = a.imm & m;

		if (sgn && (v >> (bits - 1)))
			v |= ~m;
		a.imm = v;
		return a;
	}
	t = temp(x, WG_PX_GPR);
	if (sgn) {
		e_rab(x, 0, "SHL", t, a, (struct sv){ -1, (uint32_t)(32 - bits), 1 });
		e_rab(x, 0, "SHR.S32", t, (struct sv){ t, 0, 0 }, (struct sv){ -1, (uint32_t)(32 - bits), 1 });
	} else {
		e_rab(x, 0, "AND", t, a, (struct sv){ -1, (1u << bits) - 1, 1 });
	}
	return (struct sv){ t, 0, 0 };
}

/* ------------------------------------------------------------------------ */
/* Instructions                                                             */

static int lower_arith(struct xctx *x, const char *base, struct mods *md)
{
	const struct wg_ptx_stmt *s = x->st;
	char kind;
	int bits, sat = 0, isf;
	int32_t d;

	if (!strcmp(base, "mul") || !strcmp(base, "mad")) {
		int lo = take(md, "lo"), hi = take(md, "hi"), wide = take(md, "wide");
		int mad = base[1] == 'a';

		bits = take_type(md, &kind);
		if (bits < 0)
			return xerr(x, "missing type in '%s'", s->op);
		if (kind == 'f') {
			if (bits != 32)
				return xerr(x, "unsupported type in '%s' (FP32 only)", s->op);
			const char *fop;

			if (fp_exact_mods(x, md, mad ? "FFMA" : "FMUL", &fop, &sat) || check_mods(x, md) ||
			    need_ops(x, mad ? 4 : 3))
				return WG_ESYNTAX;
			d = dst(x, &s->ops[0]);
			if (!mad) {
				finish_f32(x, fop, d, src(x, &s->ops[1], 32, 1), src(x, &s->ops[2], 32, 1), sat);
			} else if (!sat) {
				e_rabc(x, 1, fop, d, src(x, &s->ops[1], 32, 1), src(x, &s->ops[2], 32, 1),
				       src(x, &s->ops[3], 32, 1));
			} else {
				int32_t t = temp(x, WG_PX_GPR);
				struct sv st = { t, 0, 0 }, zero = { -1, 0, 1 };

				e_rabc(x, 0, fop, t, src(x, &s->ops[1], 32, 1), src(x, &s->ops[2], 32, 1),
				       src(x, &s->ops[3], 32, 1));
				finish_f32(x, "FADD", d, st, zero, 1);
			}
			return x->failed ? WG_ESYNTAX : 0;
		}
		if (check_mods(x, md) || need_ops(x, mad ? 4 : 3))
			return WG_ESYNTAX;
		if (lo + hi + wide != 1)
			return xerr(x, "'%s' needs exactly one of .lo, .hi, .wide", s->op);
		if (bits != 32 && !(bits == 64 && lo))
			return xerr(x, "unsupported type in '%s' (32-bit integers%s)", s->op,
				    hi ? "; .hi of 64 bits needs the high half" : ", .lo of 64 bits");
		{
			const char *op;
			unsigned sb = wide ? 32 : (unsigned)bits;

			if (hi)
				op = kind == 's' ? (mad ? "IMAD.HI.S32" : "IMUL.HI.S32") : (mad ? "IMAD.HI.U32" : "IMUL.HI.U32");
			else
				op = mad ? "IMAD" : "IMUL";
			d = dst(x, &s->ops[0]);
			if (mad)
				e_rabc(x, 1, op, d, src(x, &s->ops[1], sb, 0), src(x, &s->ops[2], sb, 0),
				       src(x, &s->ops[3], wide ? 64 : sb, 0));
			else
				e_rab(x, 1, op, d, src(x, &s->ops[1], sb, 0), src(x, &s->ops[2], sb, 0));
		}
		return x->failed ? WG_ESYNTAX : 0;
	}
	if (!strcmp(base, "fma")) {
		const char *fop;

		bits = take_type(md, &kind);
		if (bits != 32 || kind != 'f')
			return xerr(x, "unsupported type in '%s' (FP32 only)", s->op);
		if (!has(md, "rn") && !has(md, "rz") && !has(md, "rm") && !has(md, "rp"))
			return xerr(x, "'%s' needs a rounding modifier (.rn .rz .rm .rp)", s->op);
		if (fp_exact_mods(x, md, "FFMA", &fop, &sat) || check_mods(x, md) || need_ops(x, 4))
			return WG_ESYNTAX;
		d = dst(x, &s->ops[0]);
		if (!sat) {
			e_rabc(x, 1, fop, d, src(x, &s->ops[1], 32, 1), src(x, &s->ops[2], 32, 1), src(x, &s->ops[3], 32, 1));
		} else {
			int32_t t = temp(x, WG_PX_GPR);
			struct sv st = { t, 0, 0 }, zero = { -1, 0, 1 };

			e_rabc(x, 0, fop, t, src(x, &s->ops[1], 32, 1), src(x, &s->ops[2], 32, 1), src(x, &s->ops[3], 32, 1));
			finish_f32(x, "FADD", d, st, zero, 1);
		}
		return x->failed ? WG_ESYNTAX : 0;
	}
	/* add sub min max and or xor shl shr div rem */
	bits = take_type(md, &kind);
	if (bits < 0)
		return xerr(x, "missing type in '%s'", s->op);
	isf = kind == 'f';
	if (isf && bits != 32)
		return xerr(x, "unsupported type in '%s' (FP32 only)", s->op);
	if (kind == 'p') {
		int n1, n2;
		int32_t a, b;
		const char *op = !strcmp(base, "and") ? "AND" : !strcmp(base, "or") ? "OR" : !strcmp(base, "xor") ? "XOR" : NULL;

		if (!op || check_mods(x, md) || need_ops(x, 3))
			return op ? WG_ESYNTAX : xerr(x, "unsupported instruction '%s'", s->op);
		d = pdst(x, &s->ops[0]);
		a = psrc(x, &s->ops[1], &n1);
		b = psrc(x, &s->ops[2], &n2);
		e_plop(x, 1, op, d, a, n1, b, n2);
		return x->failed ? WG_ESYNTAX : 0;
	}
	if (need_ops(x, 3))
		return WG_ESYNTAX;
	if (isf) {
		const char *op = NULL;

		if (!strcmp(base, "add"))
			op = "FADD";
		else if (!strcmp(base, "sub"))
			op = "FSUB";
		else if (!strcmp(base, "min") || !strcmp(base, "max")) {
			if (take(md, "ftz"))
				return xerr(x, "unsupported .ftz in '%s' (the ISA keeps subnormals)", s->op);
			if (check_mods(x, md))
				return WG_ESYNTAX;
			d = dst(x, &s->ops[0]);
			e_rab(x, 1, base[1] == 'i' ? "FMIN" : "FMAX", d, src(x, &s->ops[1], 32, 1), src(x, &s->ops[2], 32, 1));
			return x->failed ? WG_ESYNTAX : 0;
		} else if (!strcmp(base, "div")) {
			int approx = take(md, "approx"), full = take(md, "full");

			if (fp_mods(x, md, approx || full, &sat) || check_mods(x, md))
				return WG_ESYNTAX;
			if (sat)
				return xerr(x, "unsupported .sat in '%s'", s->op);
			d = dst(x, &s->ops[0]);
			if (approx) { /* a * rcp(b) */
				int32_t t = temp(x, WG_PX_GPR);
				struct sv st = { t, 0, 0 };

				e_ra(x, 0, "MUFU.RCP", t, src(x, &s->ops[2], 32, 1));
				e_rab(x, 1, "FMUL", d, src(x, &s->ops[1], 32, 1), st);
			} else { /* .rn and .full: correctly rounded */
				e_rab(x, 1, "FDIV", d, src(x, &s->ops[1], 32, 1), src(x, &s->ops[2], 32, 1));
			}
			return x->failed ? WG_ESYNTAX : 0;
		}
		if (!op)
			return xerr(x, "unsupported instruction '%s'", s->op);
		if (fp_exact_mods(x, md, op, &op, &sat) || check_mods(x, md))
			return WG_ESYNTAX;
		d = dst(x, &s->ops[0]);
		finish_f32(x, op, d, src(x, &s->ops[1], 32, 1), src(x, &s->ops[2], 32, 1), sat);
		return x->failed ? WG_ESYNTAX : 0;
	}
	{
		const char *op = NULL;
		int ring = 0; /* low word of the result depends only on low words: 64 bits allowed */
		unsigned bbits = (unsigned)bits;

		if (!strcmp(base, "add"))
			op = "IADD", ring = 1;
		else if (!strcmp(base, "sub"))
			op = "ISUB", ring = 1;
		else if (!strcmp(base, "and"))
			op = "AND", ring = 1;
		else if (!strcmp(base, "or"))
			op = "OR", ring = 1;
		else if (!strcmp(base, "xor"))
			op = "XOR", ring = 1;
		else if (!strcmp(base, "shl"))
			op = "SHL", ring = 1, bbits = 32;
		else if (!strcmp(base, "shr"))
			op = kind == 's' ? "SHR.S32" : "SHR.U32", bbits = 32;
		else if (!strcmp(base, "min"))
			op = kind == 's' ? "IMIN.S32" : "IMIN.U32";
		else if (!strcmp(base, "max"))
			op = kind == 's' ? "IMAX.S32" : "IMAX.U32";
		else if (!strcmp(base, "div"))
			op = kind == 's' ? "IDIV.S32" : "IDIV.U32";
		else if (!strcmp(base, "rem"))
			op = kind == 's' ? "IREM.S32" : "IREM.U32";
		if (!op)
			return xerr(x, "unsupported instruction '%s'", s->op);
		if (check_mods(x, md))
			return WG_ESYNTAX;
		if (bits == 64 && !ring)
			return xerr(x, "unsupported 64-bit '%s' (needs the high half; docs/ptx.md)", s->op);
		if ((!strcmp(base, "min") || !strcmp(base, "max") || !strcmp(base, "div") || !strcmp(base, "rem")) &&
		    kind == 'b')
			return xerr(x, "unsupported type in '%s'", s->op);
		d = dst(x, &s->ops[0]);
		if (bits < 32 && !ring) { /* 8/16 bits: extend what the result depends on */
			struct sv a = narrow(x, src(x, &s->ops[1], 32, 0), bits, kind == 's');
			struct sv b = src(x, &s->ops[2], 32, 0);

			if (strcmp(base, "shr"))
				b = narrow(x, b, bits, kind == 's');
			e_rab(x, 1, op, d, a, b);
			return x->failed ? WG_ESYNTAX : 0;
		}
		e_rab(x, 1, op, d, src(x, &s->ops[1], (unsigned)bits, 0), src(x, &s->ops[2], bbits, 0));
		return x->failed ? WG_ESYNTAX : 0;
	}
}

static int lower_unary(struct xctx *x, const char *base, struct mods *md)
{
	const struct wg_ptx_stmt *s = x->st;
	char kind;
	int bits = take_type(md, &kind);
	int32_t d;

	if (bits < 0)
		return xerr(x, "missing type in '%s'", s->op);
	if (need_ops(x, 2))
		return WG_ESYNTAX;
	if (kind == 'p') {
		int n1;
		int32_t a;

		if (strcmp(base, "not") || check_mods(x, md))
			return x->failed ? WG_ESYNTAX : xerr(x, "unsupported instruction '%s'", s->op);
		d = pdst(x, &s->ops[0]);
		a = psrc(x, &s->ops[1], &n1);
		e_plop(x, 1, "AND", d, a, !n1, -1, 0);
		return x->failed ? WG_ESYNTAX : 0;
	}
	if (kind == 'f') {
		const char *mufu = NULL;
		int sat = 0;

		if (bits != 32)
			return xerr(x, "unsupported type in '%s' (FP32 only)", s->op);
		if (!strcmp(base, "neg") || !strcmp(base, "abs")) {
			if (take(md, "ftz"))
				return xerr(x, "unsupported .ftz in '%s' (the ISA keeps subnormals)", s->op);
			if (check_mods(x, md))
				return WG_ESYNTAX;
			d = dst(x, &s->ops[0]);
			e_rab(x, 1, base[0] == 'n' ? "XOR" : "AND", d, src(x, &s->ops[1], 32, 1),
			      (struct sv){ -1, base[0] == 'n' ? 0x80000000u : 0x7fffffffu, 1 });
			return x->failed ? WG_ESYNTAX : 0;
		}
		if (!strcmp(base, "rcp") || !strcmp(base, "sqrt")) {
			if (!take(md, "approx")) {
				if (!take(md, "rn"))
					return xerr(x, "unsupported rounding in '%s' (.approx or .rn)", s->op);
				if (fp_mods(x, md, 0, &sat) || check_mods(x, md))
					return WG_ESYNTAX;
				d = dst(x, &s->ops[0]);
				if (base[0] == 'r')
					e_rab(x, 1, "FDIV", d, (struct sv){ -1, 0x3f800000u, 1 }, src(x, &s->ops[1], 32, 1));
				else
					e_ra(x, 1, "FSQRT", d, src(x, &s->ops[1], 32, 1));
				return x->failed ? WG_ESYNTAX : 0;
			}
			mufu = base[0] == 'r' ? "MUFU.RCP" : "MUFU.SQRT";
		} else if (!strcmp(base, "rsqrt") || !strcmp(base, "ex2") || !strcmp(base, "lg2") || !strcmp(base, "sin") ||
			   !strcmp(base, "cos")) {
			if (!take(md, "approx"))
				return xerr(x, "'%s' needs .approx", s->op);
			mufu = base[0] == 'r' ? "MUFU.RSQ" : base[0] == 'e' ? "MUFU.EX2" : base[0] == 'l' ? "MUFU.LG2" :
			       base[0] == 's' ? "MUFU.SIN" : "MUFU.COS";
		} else {
			return xerr(x, "unsupported instruction '%s'", s->op);
		}
		take(md, "ftz"); /* approximate functions: accepted, subnormals kept */
		if (check_mods(x, md))
			return WG_ESYNTAX;
		d = dst(x, &s->ops[0]);
		e_ra(x, 1, mufu, d, src(x, &s->ops[1], 32, 1));
		return x->failed ? WG_ESYNTAX : 0;
	}
	if (check_mods(x, md))
		return WG_ESYNTAX;
	if ((bits == 8 || bits == 16) && strcmp(base, "not") && strcmp(base, "neg"))
		return xerr(x, "unsupported %d-bit arithmetic in '%s'", bits, s->op);
	d = dst(x, &s->ops[0]);
	if (!strcmp(base, "not")) {
		e_ra(x, 1, "NOT", d, src(x, &s->ops[1], (unsigned)bits, 0));
	} else if (!strcmp(base, "neg") && kind == 's') {
		e_rab(x, 1, "ISUB", d, (struct sv){ -1, 0, 1 }, src(x, &s->ops[1], (unsigned)bits, 0));
	} else if (bits == 64) {
		return xerr(x, "unsupported 64-bit '%s' (needs the high half; docs/ptx.md)", s->op);
	} else if (!strcmp(base, "abs") && kind == 's') {
		e_ra(x, 1, "IABS", d, src(x, &s->ops[1], 32, 0));
	} else if (!strcmp(base, "popc") && kind == 'b') {
		e_ra(x, 1, "POPC", d, src(x, &s->ops[1], 32, 0));
	} else if (!strcmp(base, "clz") && kind == 'b') {
		e_ra(x, 1, "CLZ", d, src(x, &s->ops[1], 32, 0));
	} else if (!strcmp(base, "brev") && kind == 'b') {
		e_ra(x, 1, "BREV", d, src(x, &s->ops[1], 32, 0));
	} else {
		return xerr(x, "unsupported instruction '%s'", s->op);
	}
	return x->failed ? WG_ESYNTAX : 0;
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of {b:a} */
static int lower_shf(struct xctx *x, struct mods *md)
{
	const struct wg_ptx_stmt *s = x->st;
	int left = take(md, "l"), right = take(md, "r"), wrap = take(md, "wrap"), clamp = take(md, "clamp");
	char kind;
	int bits = take_type(md, &kind);
	int32_t d, n, m, t1, t2;
	struct sv a, b, c;

	if (left + right != 1 || wrap + clamp != 1 || bits != 32 || check_mods(x, md) || need_ops(x, 4))
		return x->failed ? WG_ESYNTAX : xerr(x, "unsupported form of '%s'", s->op);
	d = dst(x, &s->ops[0]);
	a = src(x, &s->ops[1], 32, 0);
	b = src(x, &s->ops[2], 32, 0);
	c = src(x, &s->ops[3], 32, 0);
	n = temp(x, WG_PX_GPR);
	m = temp(x, WG_PX_GPR);
	t1 = temp(x, WG_PX_GPR);
	t2 = temp(x, WG_PX_GPR);
	/* n = shift (wrap: c & 31, clamp: min(c, 32)), m = 32 - n; SHL/SHR give 0 for 32 */
	if (wrap)
		e_rab(x, 0, "AND", n, c, (struct sv){ -1, 31, 1 });
	else
		e_rab(x, 0, "IMIN.U32", n, c, (struct sv){ -1, 32, 1 });
	e_rab(x, 0, "ISUB", m, (struct sv){ -1, 32, 1 }, (struct sv){ n, 0, 0 });
	if (left) { /* (b << n) | (a >> (32 - n)) */
		e_rab(x, 0, "SHL", t1, b, (struct sv){ n, 0, 0 });
		e_rab(x, 0, "SHR.U32", t2, a, (struct sv){ m, 0, 0 });
	} else { /* (a >> n) | (b << (32 - n)) */
		e_rab(x, 0, "SHR.U32", t1, a, (struct sv){ n, 0, 0 });
		e_rab(x, 0, "SHL", t2, b, (struct sv){ m, 0, 0 });
	}
	e_rab(x, 1, "OR", d, (struct sv){ t1, 0, 0 }, (struct sv){ t2, 0, 0 });
	return x->failed ? WG_ESYNTAX : 0;
}

static const char *icmp(const char *cc, int *is_unsigned)
{
	static const struct {
		const char *p, *isa;
		int u;
	} t[] = { { "eq", "EQ", -1 }, { "ne", "NE", -1 }, { "lt", "LT", -1 }, { "le", "LE", -1 }, { "gt", "GT", -1 },
		  { "ge", "GE", -1 }, { "lo", "LT", 1 },  { "ls", "LE", 1 },  { "hi", "GT", 1 },  { "hs", "GE", 1 } };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(cc, t[i].p)) {
			if (t[i].u == 1)
				*is_unsigned = 1;
			return t[i].isa;
		}
	return NULL;
}

/* VF_SEXT / VF_ZEXT of a 64-bit integer operand: a register's provenance, an immediate's range */
static uint8_t opnd_ext(const struct xctx *x, const struct wg_ptx_opnd *o)
{
	const struct vflag *v;

	if (o->kind == WG_PTX_O_INT)
		return imm_ext(o->ival);
	if (o->kind == WG_PTX_O_REG && (v = vfind(x, o->name)))
		return v->f & (VF_SEXT | VF_ZEXT);
	return 0;
}

static int lower_setp(struct xctx *x, struct mods *md)
{
	const struct wg_ptx_stmt *s = x->st;
	char kind;
	int bits, uns = 0, negate = 0, n3 = 0;
	const char *cc = NULL, *comb = NULL;
	char op[32];
	int32_t d, t, p3 = -1;
	int ftz;

	if (md->n < 2)
		return xerr(x, "unsupported form of '%s'", s->op);
	if (take(md, "and"))
		comb = "AND";
	else if (take(md, "or"))
		comb = "OR";
	else if (take(md, "xor"))
		comb = "XOR";
	ftz = take(md, "ftz");
	bits = take_type(md, &kind);
	if (bits < 0 || md->used[0])
		return xerr(x, "unsupported form of '%s'", s->op);
	md->used[0] = 1;
	if (kind == 'f') {
		static const struct {
			const char *p, *isa;
			int neg;
		} f[] = { { "eq", "EQ", 0 },  { "ne", "NE", 0 },  { "lt", "LT", 0 },  { "le", "LE", 0 },
			  { "gt", "GT", 0 },  { "ge", "GE", 0 },  { "num", "NUM", 0 }, { "nan", "NAN", 0 },
			  { "equ", "NE", 1 }, { "neu", "EQ", 1 }, { "ltu", "GE", 1 }, { "leu", "GT", 1 },
			  { "gtu", "LE", 1 }, { "geu", "LT", 1 } };

		if (bits != 32)
			return xerr(x, "unsupported type in '%s' (FP32 only)", s->op);
		if (ftz)
			return xerr(x, "unsupported .ftz in '%s' (the ISA keeps subnormals)", s->op);
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (!strcmp(md->part[0], f[i].p)) {
				cc = f[i].isa;
				negate = f[i].neg;
			}
		if (!cc)
			return xerr(x, "unsupported comparison '.%s' in '%s'", md->part[0], s->op);
		snprintf(op, sizeof(op), "FSETP.%s", cc);
	} else {
		if (ftz)
			return xerr(x, "unsupported .ftz in '%s'", s->op);
		if (kind == 'p')
			return xerr(x, "unsupported type in '%s' (integers or FP32)", s->op);
		cc = icmp(md->part[0], &uns);
		if (!cc)
			return xerr(x, "unsupported comparison '.%s' in '%s'", md->part[0], s->op);
		if (kind == 'u')
			uns = 1;
		if (kind == 'b' && strcmp(cc, "EQ") && strcmp(cc, "NE") && !uns)
			return xerr(x, "comparison '.%s' needs a signed or unsigned type in '%s'", md->part[0], s->op);
		if (bits == 64 && need_ops(x, 3) == 0) {
			/* exact on the low words when both are sign-extensions (any compare) or both
			 * zero-extensions (unsigned, eq, ne) of 32-bit values */
			uint8_t fa = opnd_ext(x, &s->ops[1]), fb = opnd_ext(x, &s->ops[2]), both = fa & fb;
			int eq = !strcmp(cc, "EQ") || !strcmp(cc, "NE");

			if (!((both & VF_SEXT) || ((both & VF_ZEXT) && (uns || eq))))
				return xerr(x, "unsupported 64-bit comparison '%s' (needs the high half unless both operands are 32-bit values extended alike; docs/ptx.md)",
					    s->op);
			if ((both & VF_ZEXT) && !(both & VF_SEXT))
				uns = 1;
		}
		snprintf(op, sizeof(op), "ISETP.%s%s", cc, uns ? ".U32" : "");
	}
	if (check_mods(x, md))
		return WG_ESYNTAX;
	if (need_ops(x, comb ? 4 : 3))
		return WG_ESYNTAX;
	d = pdst(x, &s->ops[0]);
	if (comb)
		p3 = psrc(x, &s->ops[3], &n3);
	{
		struct sv a = src(x, &s->ops[1], 32, kind == 'f'), b = src(x, &s->ops[2], 32, kind == 'f');

		if (kind != 'f' && bits < 32) { /* compare the extended 8/16-bit values */
			a = narrow(x, a, bits, !uns);
			b = narrow(x, b, bits, !uns);
		}
		if (!comb && !negate) {
			e_rab(x, 1, op, d, a, b);
			return x->failed ? WG_ESYNTAX : 0;
		}
		t = temp(x, WG_PX_PRED);
		e_rab(x, 0, op, t, a, b);
	}
	if (comb)
		e_plop(x, 1, comb, d, t, negate, p3, n3);
	else
		e_plop(x, 1, "AND", d, t, 1, -1, 0);
	return x->failed ? WG_ESYNTAX : 0;
}

static int lower_selp(struct xctx *x, struct mods *md)
{
	const struct wg_ptx_stmt *s = x->st;
	char kind;
	int bits = take_type(md, &kind), neg;
	int32_t d, p, a;
	struct sv b;

	if (bits < 8 || kind == 'p' || (kind == 'f' && bits != 32) || check_mods(x, md) || need_ops(x, 4))
		return x->failed ? WG_ESYNTAX : xerr(x, "unsupported type in '%s'", s->op);
	d = dst(x, &s->ops[0]);
	a = reg_of(x, src(x, &s->ops[1], (unsigned)bits, kind == 'f'));
	b = src(x, &s->ops[2], (unsigned)bits, kind == 'f');
	p = psrc(x, &s->ops[3], &neg);
	if (p == -1) { /* constant predicate */
		if (neg)
			e_mov(x, 1, d, b);
		else
			e_mov(x, 1, d, (struct sv){ rsrc(a), 0, a == -3 });
		return x->failed ? WG_ESYNTAX : 0;
	}
	if (b.is_imm)
		emit(x, 1, d, rsrc(a), p, -1, "SEL {d}, %s, 0x%x, %s{1}", rtext(a, 0), b.imm, neg ? "!" : "");
	else
		emit(x, 1, d, rsrc(a), b.v, p, "SEL {d}, %s, {1}, %s{2}", rtext(a, 0), neg ? "!" : "");
	return x->failed ? WG_ESYNTAX : 0;
}

static int lower_mov(struct xctx *x, struct mods *md)
{
	const struct wg_ptx_stmt *s = x->st;
	char kind;
	int bits = take_type(md, &kind);
	int32_t d;

	if (bits < 0 || check_mods(x, md) || need_ops(x, 2))
		return x->failed ? WG_ESYNTAX : xerr(x, "missing type in '%s'", s->op);
	if (kind == 'p') {
		int neg;
		int32_t a;

		d = pdst(x, &s->ops[0]);
		a = psrc(x, &s->ops[1], &neg);
		if (a == -1)
			e_plop(x, 1, "AND", d, -1, neg, -1, 0);
		else
			e_plop(x, 1, "AND", d, a, neg, -1, 0);
		return x->failed ? WG_ESYNTAX : 0;
	}
	if (kind == 'f' && bits != 32)
		return xerr(x, "unsupported type in '%s' (FP32 only)", s->op);
	if (s->ops[1].kind == WG_PTX_O_VEC || s->ops[0].kind == WG_PTX_O_VEC)
		return xerr(x, "unsupported vector pack/unpack in '%s'", s->op);
	d = dst(x, &s->ops[0]);
	if (s->ops[1].kind == WG_PTX_O_REG && sreg_of(s->ops[1].name)) {
		emit(x, 1, d, -1, -1, -1, "S2R {d}, %s", sreg_of(s->ops[1].name));
		return x->failed ? WG_ESYNTAX : 0;
	}
	e_mov(x, 1, d, src(x, &s->ops[1], (unsigned)bits, kind == 'f'));
	return x->failed ? WG_ESYNTAX : 0;
}

static int lower_cvt(struct xctx *x, struct mods *md)
{
	const struct wg_ptx_stmt *s = x->st;
	char dk, sk;
	int sb, db;
	int32_t d;
	struct sv a;
	const char *rnd = NULL;
	int ftz, sat;

	/* cvt.frnd?.dtype.stype: the two types are the last two parts */
	if (md->n < 2)
		return xerr(x, "unsupported form of '%s'", s->op);
	sb = (int)type_bits(md->part[md->n - 1]);
	db = (int)type_bits(md->part[md->n - 2]);
	sk = md->part[md->n - 1][0];
	dk = md->part[md->n - 2][0];
	if (sb <= 1 || db <= 1)
		return xerr(x, "unsupported types in '%s'", s->op);
	md->used[md->n - 1] = md->used[md->n - 2] = 1;
	if ((sk == 'f' && sb != 32) || (dk == 'f' && db != 32))
		return xerr(x, "unsupported conversion '%s' (FP32 only)", s->op);
	ftz = take(md, "ftz");
	sat = take(md, "sat");
	if (sat && !(dk == 'f' && sk == 'f'))
		return xerr(x, "unsupported .sat in '%s' (only cvt.sat.f32.f32)", s->op);
	for (int i = 0; i < md->n; i++) {
		static const char *const r[] = { "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi" };

		for (int j = 0; j < 8; j++)
			if (!md->used[i] && !strcmp(md->part[i], r[j])) {
				md->used[i] = 1;
				rnd = r[j];
			}
	}
	if (check_mods(x, md) || need_ops(x, 2))
		return WG_ESYNTAX;
	if (ftz)
		return xerr(x, "unsupported .ftz in '%s' (the ISA keeps subnormals)", s->op);
	d = dst(x, &s->ops[0]);
	a = src(x, &s->ops[1], (unsigned)sb, sk == 'f');
	if (x->failed)
		return WG_ESYNTAX;
	if (dk == 'f' && sk == 'f') { /* cvt(.rXi)(.sat).f32.f32: round to integral, clamp to [0, 1] */
		char op[16];

		if (rnd && strlen(rnd) != 3 && strcmp(rnd, "rn"))
			return xerr(x, "unsupported rounding '.%s' in '%s'", rnd, s->op);
		if (rnd && strlen(rnd) == 3) {
			int32_t t = sat ? temp(x, WG_PX_GPR) : d;

			snprintf(op, sizeof(op), "FRND.R%c", rnd[1] - 32);
			e_ra(x, !sat, op, t, a);
			a = (struct sv){ t, 0, 0 };
		}
		if (sat)
			finish_f32(x, "FADD", d, a, (struct sv){ -1, 0, 1 }, 1);
		else if (!rnd || strlen(rnd) != 3)
			e_mov(x, 1, d, a);
	} else if (dk == 'f') { /* int -> f32 */
		if (sb == 64)
			return xerr(x, "unsupported conversion '%s' from 64 bits (needs the high half; docs/ptx.md)", s->op);
		if (rnd && strcmp(rnd, "rn"))
			return xerr(x, "unsupported rounding '.%s' in '%s' (only .rn)", rnd, s->op);
		if (sb < 32) {
			int32_t t = temp(x, WG_PX_GPR);

			if (sk == 's') {
				e_rab(x, 0, "SHL", t, a, (struct sv){ -1, (uint32_t)(32 - sb), 1 });
				e_rab(x, 0, "SHR.S32", t, (struct sv){ t, 0, 0 }, (struct sv){ -1, (uint32_t)(32 - sb), 1 });
			} else {
				e_rab(x, 0, "AND", t, a, (struct sv){ -1, (1u << sb) - 1, 1 });
			}
			a = (struct sv){ t, 0, 0 };
		}
		e_ra(x, 1, sk == 's' ? "I2F.F32.S32" : "I2F.F32.U32", d, a);
	} else if (sk == 'f') { /* f32 -> int */
		char op[24];

		if (!rnd || strlen(rnd) != 3)
			return xerr(x, "'%s' needs an integer rounding (.rni .rzi .rmi .rpi)", s->op);
		if (db != 32)
			return xerr(x, "unsupported conversion '%s' (to 32-bit integers only)", s->op);
		snprintf(op, sizeof(op), "F2I.%s32.R%c", dk == 's' ? "S" : "U", rnd[1] - 32);
		e_ra(x, 1, op, d, a);
	} else { /* int -> int: low word; narrow types are extended into 32 bits */
		int w = sb < db ? sb : db; /* bits that survive */
		char ek = sb < db ? sk : dk; /* extension by the narrower type */

		if (rnd)
			return xerr(x, "unexpected rounding in integer conversion '%s'", s->op);
		if (w >= 32) {
			e_mov(x, 1, d, a);
		} else if (ek == 's') {
			int32_t t = temp(x, WG_PX_GPR);

			e_rab(x, 0, "SHL", t, a, (struct sv){ -1, (uint32_t)(32 - w), 1 });
			e_rab(x, 1, "SHR.S32", d, (struct sv){ t, 0, 0 }, (struct sv){ -1, (uint32_t)(32 - w), 1 });
		} else {
			e_rab(x, 1, "AND", d, a, (struct sv){ -1, (1u << w) - 1, 1 });
		}
	}
	return x->failed ? WG_ESYNTAX : 0;
}

/* Memory address: base vreg (-3 = RZ) and offset. space: what the instruction names. */
static int address(struct xctx *x, const struct wg_ptx_opnd *o, int space, int32_t *base, int64_t *off)
{
	struct rent *r;
	const struct sym *sy;

	if (o->kind != WG_PTX_O_ADDR || o->neg == 2)
		return xerr(x, "expected a memory operand [addr] in '%s'", x->st->op);
	*off = o->ival;
	*base = -3;
	if (!o->name[0])
		return 0;
	if ((sy = find_sym(x, o->name))) {
		if (space != (sy->space == WG_PTX_SHARED ? 's' : 'l'))
			return xerr(x, "symbol '%s' is not in the state space of '%s'", o->name, x->st->op);
		*off += sy->off;
		return 0;
	}
	r = lookup_reg(x, o->name);
	if (!r)
		return x->failed ? WG_ESYNTAX : xerr(x, "unknown address '%s' in '%s'", o->name, x->st->op);
	if (!r->bits || r->f64)
		return xerr(x, "bad address register '%s' in '%s'", o->name, x->st->op);
	r->used = 1;
	*base = r->vreg;
	return 0;
}

static int check_off(struct xctx *x, int64_t off)
{
	if (off < -2147483648LL || off > 2147483647LL)
		return xerr(x, "address offset %lld out of range in '%s'", (long long)off, x->st->op);
	return 0;
}

static const char *width_sfx(int bits, char kind, int load)
{
	if (bits == 8)
		return load && kind == 's' ? "S8" : (load ? "U8" : "8");
	if (bits == 16)
		return load && kind == 's' ? "S16" : (load ? "U16" : "16");
	return "32";
}

/* ld / st / atom / red */
static int lower_mem(struct xctx *x, const char *base, struct mods *md)
{
	const struct wg_ptx_stmt *s = x->st;
	int load = !strcmp(base, "ld"), store = !strcmp(base, "st");
	int space = 'g', nc = 0, cg = 0, vec = 1, bits;
	char kind;
	const char *pfx;

	take(md, "weak");
	take(md, "volatile");
	take(md, "relaxed");
	take(md, "acquire");
	take(md, "release");
	take(md, "gpu");
	take(md, "cta");
	take(md, "sys");
	if (take(md, "global"))
		space = 'g';
	else if (take(md, "shared"))
		space = 's';
	else if (take(md, "local"))
		space = 'l';
	else if (take(md, "param"))
		space = 'p';
	else if (take(md, "const"))
		return xerr(x, "unsupported constant space in '%s' (__constant__)", s->op);
	/* no state space: generic addressing, taken as global (docs/ptx.md) */
	nc = take(md, "nc");
	take(md, "ca");
	take(md, "cs");
	take(md, "lu");
	take(md, "cv");
	take(md, "wb");
	take(md, "wt");
	cg = take(md, "cg");
	take(md, "L1::evict_last");
	take(md, "L2::128B");
	if (take(md, "v2"))
		vec = 2;
	else if (take(md, "v4"))
		vec = 4;
	if (!load && !store) { /* atom / red */
		const char *op = NULL;
		int ret = !strcmp(base, "atom"), is_cas = 0;
		int32_t d = -3, addr, b_reg;
		int64_t off;
		struct sv b;

		if (space == 'p' || space == 'l')
			return xerr(x, "unsupported state space in '%s' (global or shared)", s->op);
		bits = take_type(md, &kind);
		if (bits != 32)
			return xerr(x, "unsupported type in '%s' (32-bit atomics only)", s->op);
		if (take(md, "add"))
			op = kind == 'f' ? "ADD.F32" : "ADD";
		else if (take(md, "min"))
			op = kind == 's' ? "MIN.S32" : kind == 'u' ? "MIN.U32" : NULL;
		else if (take(md, "max"))
			op = kind == 's' ? "MAX.S32" : kind == 'u' ? "MAX.U32" : NULL;
		else if (take(md, "exch"))
			op = "EXCH";
		else if (take(md, "cas"))
			op = "CAS", is_cas = 1;
		else if (take(md, "and"))
			op = "AND";
		else if (take(md, "or"))
			op = "OR";
		else if (take(md, "xor"))
			op = "XOR";
		else if (take(md, "inc"))
			op = kind == 'u' ? "INC" : NULL;
		else if (take(md, "dec"))
			op = kind == 'u' ? "DEC" : NULL;
		if (!op)
			return xerr(x, "unsupported atomic operation '%s'", s->op);
		if (!strcmp(op, "ADD.F32"))
			take(md, "rn");
		if (check_mods(x, md) || need_ops(x, (ret ? 3 : 2) + is_cas))
			return WG_ESYNTAX;
		if (ret)
			d = dst(x, &s->ops[0]);
		if (address(x, &s->ops[ret], space == 's' ? 's' : 'g', &addr, &off) || check_off(x, off))
			return WG_ESYNTAX;
		if (off) { /* ATOM takes [Ra] only */
			int32_t t = temp(x, WG_PX_GPR);

			e_rab(x, 0, "IADD", t, (struct sv){ rsrc(addr), 0, addr == -3 }, (struct sv){ -1, (uint32_t)off, 1 });
			addr = t;
		}
		b = src(x, &s->ops[ret + 1], 32, kind == 'f');
		pfx = space == 's' ? "ATOMS" : "ATOMG";
		if (x->failed)
			return WG_ESYNTAX;
		if (is_cas) {
			struct sv c = src(x, &s->ops[ret + 2], 32, 0);
			int32_t rc = reg_of(x, c);

			b_reg = b.is_imm ? -1 : b.v;
			if (b.is_imm)
				emit(x, 1, d == -3 ? -1 : d, rsrc(addr), -1, rsrc(rc), "%s.CAS %s, [%s], 0x%x, %s", pfx,
				     d == -3 ? "RZ" : "{d}", rtext(addr, 0), b.imm, rtext(rc, 2));
			else
				emit(x, 1, d == -3 ? -1 : d, rsrc(addr), b_reg, rsrc(rc), "%s.CAS %s, [%s], {1}, %s", pfx,
				     d == -3 ? "RZ" : "{d}", rtext(addr, 0), rtext(rc, 2));
		} else if (b.is_imm) {
			emit(x, 1, d == -3 ? -1 : d, rsrc(addr), -1, -1, "%s.%s %s, [%s], 0x%x", pfx, op,
			     d == -3 ? "RZ" : "{d}", rtext(addr, 0), b.imm);
		} else {
			emit(x, 1, d == -3 ? -1 : d, rsrc(addr), b.v, -1, "%s.%s %s, [%s], {1}", pfx, op,
			     d == -3 ? "RZ" : "{d}", rtext(addr, 0));
		}
		return x->failed ? WG_ESYNTAX : 0;
	}
	bits = take_type(md, &kind);
	if (bits <= 0)
		return xerr(x, "missing type in '%s'", s->op);
	if (check_mods(x, md) || need_ops(x, 2))
		return WG_ESYNTAX;
	if (kind == 'f' && bits != 32)
		return xerr(x, "unsupported type in '%s' (FP32 only)", s->op);
	if (bits == 64 && !(load && space == 'p' && vec == 1))
		return xerr(x, "unsupported 64-bit %s '%s' (64-bit data needs the high half; docs/ptx.md)",
			    load ? "load" : "store", s->op);
	{
		const struct wg_ptx_opnd *mem = &s->ops[load ? 1 : 0], *val = &s->ops[load ? 0 : 1];
		int32_t addr;
		int64_t off;

		if ((vec > 1) != (val->kind == WG_PTX_O_VEC) || (vec > 1 && val->nvec != vec))
			return xerr(x, "vector width and operand do not match in '%s'", s->op);
		if (space == 'p') {
			const struct vflag *vf;
			int pi;

			if (!load)
				return xerr(x, "unsupported store to parameter space '%s'", s->op);
			if (mem->kind == WG_PTX_O_ADDR && mem->neg != 2 && find_param(x, mem->name) < 0 &&
			    (vf = vfind(x, mem->name)) && (vf->f & VF_PADDR)) {
				/* through a register holding a parameter's address: LDC [Ra+imm] */
				if (address(x, mem, 'p', &addr, &off) || check_off(x, off))
					return WG_ESYNTAX;
				for (int e = 0; e < vec; e++) {
					struct wg_ptx_opnd one = { 0 };
					int32_t d;

					one.kind = WG_PTX_O_REG;
					snprintf(one.name, sizeof(one.name), "%s", vec > 1 ? val->vec[e] : val->name);
					d = dst(x, &one);
					if (d == -3)
						continue;
					emit(x, 1, d, rsrc(addr), -1, -1, "LDC.%s {d}, [%s%+lld]",
					     width_sfx(bits == 64 ? 32 : bits, kind, 1), rtext(addr, 0),
					     (long long)(off + e * (bits / 8)));
				}
				return x->failed ? WG_ESYNTAX : 0;
			}
			if (mem->kind != WG_PTX_O_ADDR || (pi = find_param(x, mem->name)) < 0)
				return xerr(x, "ld.param needs a kernel parameter [name+offset] in '%s'", s->op);
			off = (int64_t)x->k->params[x->pimg[pi]].offset + mem->ival;
			if (mem->ival < 0 ||
			    (uint64_t)mem->ival + (unsigned)(bits / 8) * (unsigned)vec > x->k->params[x->pimg[pi]].size)
				return xerr(x, "'%s' reads past parameter '%s'", s->op, mem->name);
			for (int e = 0; e < vec; e++) {
				struct wg_ptx_opnd one = { 0 };
				int32_t d;

				one.kind = WG_PTX_O_REG;
				snprintf(one.name, sizeof(one.name), "%s", vec > 1 ? val->vec[e] : val->name);
				d = dst(x, &one);
				if (d == -3)
					continue;
				if (mem->ival + e * (bits / 8))
					emit(x, 1, d, -1, -1, -1, "LDC.%s {d}, [%s+%lld]", width_sfx(bits == 64 ? 32 : bits, kind, 1),
					     x->pname[pi], (long long)(mem->ival + e * (bits / 8)));
				else
					emit(x, 1, d, -1, -1, -1, "LDC.%s {d}, [%s]", width_sfx(bits == 64 ? 32 : bits, kind, 1),
					     x->pname[pi]);
			}
			return x->failed ? WG_ESYNTAX : 0;
		}
		if (address(x, mem, space == 'g' ? 'g' : space, &addr, &off))
			return WG_ESYNTAX;
		pfx = space == 's' ? (load ? "LDS" : "STS") : space == 'l' ? (load ? "LDL" : "STL") :
		      (load ? (cg ? "LDG.CG" : "LDG") : "STG");
		(void)nc; /* ld.global.nc: read-only data, cached like any global load */
		for (int e = 0; e < vec; e++) {
			int64_t eo = off + (int64_t)e * (bits / 8);
			const char *w = width_sfx(bits, kind, load);

			if (check_off(x, eo))
				return WG_ESYNTAX;
			if (load) {
				struct wg_ptx_opnd one = { 0 };
				int32_t d;

				one.kind = WG_PTX_O_REG;
				snprintf(one.name, sizeof(one.name), "%s", vec > 1 ? val->vec[e] : val->name);
				d = dst(x, &one);
				if (d == -3)
					continue;
				emit(x, 1, d, rsrc(addr), -1, -1, "%s.%s {d}, [%s%+lld]", pfx, w, rtext(addr, 0), (long long)eo);
			} else {
				struct wg_ptx_opnd one = { 0 };
				struct sv v;
				int32_t rv;

				if (vec > 1) {
					one.kind = WG_PTX_O_REG;
					snprintf(one.name, sizeof(one.name), "%s", val->vec[e]);
					v = src(x, &one, (unsigned)bits, kind == 'f');
				} else {
					v = src(x, val, (unsigned)bits, kind == 'f');
				}
				rv = reg_of(x, v);
				emit(x, 1, -1, rsrc(addr), -1, rsrc(rv), "%s.%s [%s%+lld], %s", pfx, w, rtext(addr, 0), (long long)eo,
				     rtext(rv, 2));
			}
		}
	}
	return x->failed ? WG_ESYNTAX : 0;
}

static int32_t label_of(struct xctx *x, const char *name)
{
	uint32_t h = hash_str(name), i;

	if (!x->lcap) {
		x->lcap = 64;
		while (x->lcap < 4 * x->pk->nstmts + 4)
			x->lcap *= 2;
		x->lhash = malloc(x->lcap * sizeof(*x->lhash));
		if (!x->lhash) {
			x->lcap = 0;
			return xoom(x);
		}
		for (i = 0; i < x->lcap; i++)
			x->lhash[i] = -1;
	}
	for (i = h & (x->lcap - 1); x->lhash[i] >= 0; i = (i + 1) & (x->lcap - 1))
		if (!strcmp(x->c->labels[x->lhash[i]], name))
			return x->lhash[i];
	{
		int l;

		if (strlen(name) >= WG_NAME_MAX)
			return xerr(x, "label '%s' longer than %d characters", name, WG_NAME_MAX - 1);
		l = wg_px_new_label(x->c, name);
		if (l < 0)
			return xoom(x);
		x->lhash[i] = l;
		return l;
	}
}

static int lower_stmt(struct xctx *x, const struct wg_ptx_stmt *s)
{
	char base[32];
	struct mods md;

	x->st = s;
	x->line = s->line;
	x->guard = -1;
	x->gneg = 0;
	if (s->is_label) {
		int32_t l = label_of(x, s->op);
		struct wg_px_insn *in;

		if (l < 0)
			return WG_ESYNTAX;
		for (uint32_t i = 0; i < x->c->n; i++)
			if (x->c->insns[i].kind == WG_PX_LABEL && x->c->insns[i].label == l)
				return xerr(x, "duplicate label '%s'", s->op);
		in = wg_px_append(x->c, WG_PX_LABEL, s->line);
		if (!in)
			return xoom(x);
		in->label = l;
		return 0;
	}
	if (s->guard[0]) {
		struct rent *r = lookup_reg(x, s->guard);

		if (!r || r->bits)
			return x->failed ? WG_ESYNTAX : xerr(x, "guard '%s' of '%s' is not a predicate register", s->guard, s->op);
		r->used = 1;
		x->guard = r->vreg;
		x->gneg = s->gneg;
	}
	if (split_op(x, s->op, base, sizeof(base), &md))
		return WG_ESYNTAX;
	if (!strcmp(base, "add") || !strcmp(base, "sub") || !strcmp(base, "mul") || !strcmp(base, "mad") ||
	    !strcmp(base, "fma") || !strcmp(base, "min") || !strcmp(base, "max") || !strcmp(base, "and") ||
	    !strcmp(base, "or") || !strcmp(base, "xor") || !strcmp(base, "shl") || !strcmp(base, "shr") ||
	    !strcmp(base, "div") || !strcmp(base, "rem"))
		return lower_arith(x, base, &md);
	if (!strcmp(base, "not") || !strcmp(base, "neg") || !strcmp(base, "abs") || !strcmp(base, "popc") ||
	    !strcmp(base, "clz") || !strcmp(base, "brev") || !strcmp(base, "rcp") || !strcmp(base, "sqrt") ||
	    !strcmp(base, "rsqrt") || !strcmp(base, "ex2") || !strcmp(base, "lg2") || !strcmp(base, "sin") ||
	    !strcmp(base, "cos"))
		return lower_unary(x, base, &md);
	if (!strcmp(base, "shf"))
		return lower_shf(x, &md);
	if (!strcmp(base, "setp"))
		return lower_setp(x, &md);
	if (!strcmp(base, "selp"))
		return lower_selp(x, &md);
	if (!strcmp(base, "mov"))
		return lower_mov(x, &md);
	if (!strcmp(base, "cvt"))
		return lower_cvt(x, &md);
	if (!strcmp(base, "cvta")) {
		char kind;
		int bits;

		if (!take(&md, "to") || !take(&md, "global"))
			return xerr(x, "unsupported instruction '%s' (only cvta.to.global: generic shared/local pointers are not supported)",
				    s->op);
		bits = take_type(&md, &kind);
		if (bits < 32 || check_mods(x, &md) || need_ops(x, 2))
			return x->failed ? WG_ESYNTAX : xerr(x, "unsupported form of '%s'", s->op);
		e_mov(x, 1, dst(x, &s->ops[0]), src(x, &s->ops[1], 64, 0));
		return x->failed ? WG_ESYNTAX : 0;
	}
	if (!strcmp(base, "ld") || !strcmp(base, "st") || !strcmp(base, "atom") || !strcmp(base, "red"))
		return lower_mem(x, base, &md);
	if (!strcmp(base, "bar") || !strcmp(base, "barrier")) {
		take(&md, "aligned");
		if (!take(&md, "sync") || check_mods(x, &md))
			return x->failed ? WG_ESYNTAX : xerr(x, "unsupported instruction '%s'", s->op);
		if (s->nops != 1 || s->ops[0].kind != WG_PTX_O_INT || s->ops[0].ival < 0 || s->ops[0].ival > 15)
			return xerr(x, "'%s' needs one constant barrier id 0..15 (no thread count)", s->op);
		emit(x, 1, -1, -1, -1, -1, "BAR.SYNC %lld", (long long)s->ops[0].ival);
		return x->failed ? WG_ESYNTAX : 0;
	}
	if (!strcmp(base, "membar") || !strcmp(base, "fence")) {
		int cta = take(&md, "cta");

		if (!cta && !take(&md, "gl") && !take(&md, "gpu") && !take(&md, "sys"))
			return xerr(x, "unsupported instruction '%s'", s->op);
		take(&md, "sc");
		take(&md, "acq_rel");
		if (check_mods(x, &md) || need_ops(x, 0))
			return WG_ESYNTAX;
		emit(x, 1, -1, -1, -1, -1, "MEMBAR.%s", cta ? "CTA" : "GL");
		return x->failed ? WG_ESYNTAX : 0;
	}
	if (!strcmp(base, "bra")) {
		struct wg_px_insn *in;
		int32_t l;

		take(&md, "uni");
		if (check_mods(x, &md) || need_ops(x, 1))
			return WG_ESYNTAX;
		if (s->ops[0].kind != WG_PTX_O_REG)
			return xerr(x, "'%s' needs a label", s->op);
		l = label_of(x, s->ops[0].name);
		if (l < 0)
			return WG_ESYNTAX;
		in = wg_px_append(x->c, WG_PX_BRA, s->line);
		if (!in)
			return xoom(x);
		in->label = l;
		in->guard = x->guard;
		in->gneg = (uint8_t)x->gneg;
		return 0;
	}
	if (!strcmp(base, "ret") || !strcmp(base, "exit")) {
		struct wg_px_insn *in;

		take(&md, "uni");
		if (check_mods(x, &md) || need_ops(x, 0))
			return WG_ESYNTAX;
		in = wg_px_append(x->c, WG_PX_EXIT, s->line);
		if (!in)
			return xoom(x);
		in->guard = x->guard;
		in->gneg = (uint8_t)x->gneg;
		return 0;
	}
	return xerr(x, "unsupported instruction '%s'", s->op);
}

/* ------------------------------------------------------------------------ */
/* Kernel set-up                                                            */

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

static int image_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= WG_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		int ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_' || ch == '.' || ch == '$' ||
			 (i && ch >= '0' && ch <= '9');

		if (!ok)
			return 0;
	}
	return 1;
}

/* Pad the image's parameters with a u8[n] '_padN' so that they end at a multiple of a
 * (the image's types align to at most 8: a 16-byte aligned struct is placed this way). */
static int pad_params(struct xctx *x, uint32_t a, uint32_t *npad)
{
	const struct wg_kernel *k = x->k;
	uint32_t end = k->nparams ? k->params[k->nparams - 1].offset + k->params[k->nparams - 1].size : 0;
	char name[WG_NAME_MAX];
	int rc;

	if (!(end % a))
		return 0;
	snprintf(name, sizeof(name), "_pad%u", (*npad)++);
	for (uint32_t i = 0; i < x->pk->nparams; i++)
		if (!strcmp(x->pk->params[i].name, name))
			return xerr(x, "parameter name '%s' is reserved (padding before a 16-byte aligned parameter)", name);
	rc = wg_kernel_add_param(x->k, name, WG_PT_U8, align_up(end, a) - end);
	if (rc == WG_ENOMEM)
		return xoom(x);
	return rc ? xerr(x, "parameters overflow the parameter buffer (at most 4096 bytes)") : 0;
}

/* ------------------------------------------------------------------------ */
/* Register provenance (docs/ptx.md section 2)                              */

static int stmt_writes(const struct wg_ptx_stmt *s)
{
	static const char *const nodst[] = { "st", "red", "bra", "bar", "barrier", "membar", "fence", "ret", "exit" };
	char base[16];
	size_t n = strcspn(s->op, ".");

	if (s->is_label || !s->nops || n >= sizeof(base))
		return 0;
	memcpy(base, s->op, n);
	base[n] = 0;
	for (size_t i = 0; i < sizeof(nodst) / sizeof(nodst[0]); i++)
		if (!strcmp(base, nodst[i]))
			return 0;
	return s->ops[0].kind == WG_PTX_O_REG;
}

static int op_is(const struct wg_ptx_stmt *s, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(s->op, base, n) && (s->op[n] == '.' || !s->op[n]);
}

static struct vflag *vfind(const struct xctx *x, const char *name)
{
	for (uint32_t i = 0; i < x->nvf; i++)
		if (!strcmp(x->vf[i].name, name))
			return &x->vf[i];
	return NULL;
}

static uint8_t imm_ext(int64_t v)
{
	return (uint8_t)((v >= -2147483648LL && v <= 2147483647LL ? VF_SEXT : 0) |
			 (v >= 0 && v <= 4294967295LL ? VF_ZEXT : 0));
}

/* The flags one definition gives its destination. */
static uint8_t def_flags(const struct xctx *x, const struct wg_ptx_stmt *s)
{
	const struct wg_ptx_opnd *a = s->nops > 1 ? &s->ops[1] : NULL;
	const struct vflag *v;

	if (!a)
		return 0;
	if (op_is(s, "mov") && s->nops == 2) {
		if (a->kind == WG_PTX_O_INT)
			return imm_ext(a->ival);
		if (a->kind == WG_PTX_O_REG && find_param(x, a->name) >= 0)
			return VF_PADDR;
		if (a->kind == WG_PTX_O_REG && find_sym(x, a->name))
			return VF_SEXT | VF_ZEXT;
		if (a->kind == WG_PTX_O_REG && (v = vfind(x, a->name)))
			return v->f;
		return 0;
	}
	if (op_is(s, "cvt") && s->nops == 2 && a->kind == WG_PTX_O_REG) {
		const char *st = strrchr(s->op, '.'), *dt;

		if (!st)
			return 0;
		for (dt = st - 1; dt > s->op && *dt != '.'; dt--)
			;
		if (strncmp(dt, ".s64.", 5) && strncmp(dt, ".u64.", 5))
			return 0;
		if (!strcmp(st, ".s32") || !strcmp(st, ".s16") || !strcmp(st, ".s8"))
			return VF_SEXT;
		if (!strcmp(st, ".u16") || !strcmp(st, ".u8"))
			return VF_SEXT | VF_ZEXT;
		if (!strcmp(st, ".u32"))
			return VF_ZEXT;
		if (!strcmp(st, ".s64") || !strcmp(st, ".u64") || !strcmp(st, ".b64"))
			return (v = vfind(x, a->name)) ? v->f & (VF_SEXT | VF_ZEXT) : 0;
		return 0;
	}
	if (op_is(s, "ld") && s->nops == 2 && s->ops[0].kind == WG_PTX_O_REG) { /* a 32-bit or narrower load */
		const char *t = strrchr(s->op, '.');

		if (!t)
			return 0;
		if (!strcmp(t, ".s32") || !strcmp(t, ".s16") || !strcmp(t, ".s8"))
			return VF_SEXT;
		if (!strcmp(t, ".u16") || !strcmp(t, ".u8"))
			return VF_SEXT | VF_ZEXT;
		if (!strcmp(t, ".u32"))
			return VF_ZEXT;
		return 0;
	}
	if ((op_is(s, "add") || op_is(s, "sub")) && s->nops == 3) {
		const struct vflag *b = s->ops[2].kind == WG_PTX_O_REG ? vfind(x, s->ops[2].name) : NULL;

		v = a->kind == WG_PTX_O_REG ? vfind(x, a->name) : NULL;
		if ((v && (v->f & VF_PADDR)) || (op_is(s, "add") && b && (b->f & VF_PADDR)))
			return VF_PADDR;
	}
	return 0;
}

/* Is operand i of s a use of a parameter address that the translation supports: a
 * source of mov/add/sub whose result is a parameter address, or ld.param's address? */
static int paddr_use_ok(const struct xctx *x, const struct wg_ptx_stmt *s, int i)
{
	const struct vflag *d = stmt_writes(s) ? vfind(x, s->ops[0].name) : NULL;

	if (op_is(s, "ld") && strstr(s->op, ".param") && i == 1)
		return 1;
	if (op_is(s, "mov") || op_is(s, "add") || (op_is(s, "sub") && i == 1))
		return i > 0 && d && (d->f & VF_PADDR);
	return 0;
}

static int vprov(struct xctx *x)
{
	const struct wg_ptx_kernel *pk = x->pk;
	int changed = 1;

	x->vf = calloc((size_t)pk->nstmts + 1, sizeof(*x->vf));
	if (!x->vf)
		return xoom(x);
	for (uint32_t i = 0; i < pk->nstmts; i++)
		if (stmt_writes(&pk->stmts[i]) && !vfind(x, pk->stmts[i].ops[0].name)) {
			snprintf(x->vf[x->nvf].name, sizeof(x->vf[0].name), "%s", pk->stmts[i].ops[0].name);
			x->vf[x->nvf++].f = VF_SEXT | VF_ZEXT;
		}
	/* extensions: the greatest fixed point (all, then clear what a definition breaks);
	 * parameter addresses: the least (none, then set what a definition makes one) */
	while (changed) {
		changed = 0;
		for (uint32_t i = 0; i < pk->nstmts; i++) {
			const struct wg_ptx_stmt *s = &pk->stmts[i];
			struct vflag *v;
			uint8_t g, f;

			if (!stmt_writes(s))
				continue;
			v = vfind(x, s->ops[0].name);
			g = def_flags(x, s);
			f = (uint8_t)((v->f & g & (VF_SEXT | VF_ZEXT)) | ((v->f | g) & VF_PADDR));
			if (s->guard[0] && !(g & VF_PADDR))
				f &= (uint8_t)~VF_PADDR; /* guarded: keeps another value */
			if (f != v->f) {
				v->f = f;
				changed = 1;
			}
		}
	}
	for (uint32_t i = 0; i < pk->nstmts; i++) {
		const struct wg_ptx_stmt *s = &pk->stmts[i];
		const struct vflag *v;

		x->line = s->line;
		if (s->is_label)
			continue;
		if (stmt_writes(s) && (v = vfind(x, s->ops[0].name)) && (v->f & VF_PADDR) && !(def_flags(x, s) & VF_PADDR))
			return xerr(x, "register '%s' holds a parameter's address and another value in '%s' (unsupported)",
				    s->ops[0].name, s->op);
		for (int o = 0; o < s->nops; o++) {
			const struct wg_ptx_opnd *op = &s->ops[o];

			if ((op->kind != WG_PTX_O_REG && op->kind != WG_PTX_O_ADDR) || (o == 0 && stmt_writes(s)))
				continue;
			v = vfind(x, op->name);
			if (v && (v->f & VF_PADDR) && !paddr_use_ok(x, s, o))
				return xerr(x, "unsupported use of a parameter's address '%s' in '%s' (only ld.param may read through it)",
					    op->name, s->op);
		}
	}
	return 0;
}

static int setup_params(struct xctx *x)
{
	const struct wg_ptx_kernel *pk = x->pk;

	uint32_t npad = 0, align16 = 0;

	x->pname = calloc((size_t)pk->nparams + 1, sizeof(*x->pname));
	x->pimg = calloc((size_t)pk->nparams + 1, sizeof(*x->pimg));
	if (!x->pname || !x->pimg)
		return xoom(x);
	for (uint32_t i = 0; i < pk->nparams; i++) {
		const struct wg_ptx_param *p = &pk->params[i];
		const char *t = p->type;
		unsigned type, bits = type_bits(t);
		uint32_t count = 1;
		int rc;

		x->line = p->line;
		if (bits == 1 || !bits)
			return xerr(x, "unsupported parameter type '.%s' of '%s'", t, p->name);
		if (p->count) { /* array: element type from .align */
			uint32_t a = p->align ? p->align : bits / 8, esz = bits / 8;
			uint64_t bytes = (uint64_t)p->count * esz;

			if (a < esz)
				a = esz;
			if (a > 16)
				return xerr(x, "unsupported parameter alignment %u of '%s' (at most 16)", a, p->name);
			if (bytes % a)
				return xerr(x, "parameter '%s' of %llu bytes is not a multiple of its alignment %u", p->name,
					    (unsigned long long)bytes, a);
			type = a == 1 ? WG_PT_U8 : a == 2 ? WG_PT_U16 : a == 4 ? WG_PT_U32 : WG_PT_U64;
			count = (uint32_t)(bytes / (a > 8 ? 8 : a));
			if (a == 16) { /* u64[N/8] at the next multiple of 16: padding before it */
				align16 = 1;
				if (pad_params(x, 16, &npad))
					return WG_ESYNTAX;
			}
		} else {
			if (p->align && p->align != bits / 8)
				return xerr(x, "unsupported .align %u of scalar parameter '%s'", p->align, p->name);
			if (t[0] == 'f')
				type = bits == 32 ? WG_PT_F32 : bits == 64 ? WG_PT_F64 : WG_PT_COUNT;
			else if (bits == 64)
				type = WG_PT_PTR; /* .u64/.s64/.b64: a device pointer or 64-bit integer, 8 bytes */
			else if (t[0] == 's')
				type = bits == 8 ? WG_PT_S8 : bits == 16 ? WG_PT_S16 : WG_PT_S32;
			else
				type = bits == 8 ? WG_PT_U8 : bits == 16 ? WG_PT_U16 : WG_PT_U32;
			if (type == WG_PT_COUNT)
				return xerr(x, "unsupported parameter type '.%s' of '%s'", t, p->name);
		}
		if (image_name_ok(p->name))
			snprintf(x->pname[i], WG_NAME_MAX, "%.63s", p->name);
		else
			snprintf(x->pname[i], WG_NAME_MAX, "p%u", i);
		for (uint32_t j = 0; j < i; j++)
			if (!strcmp(x->pname[j], x->pname[i]))
				return xerr(x, "duplicate parameter '%s'", p->name);
		if (wg_kernel_find_param(x->k, x->pname[i]))
			return xerr(x, "parameter name '%s' is reserved (padding before a 16-byte aligned parameter)",
				    p->name);
		x->pimg[i] = x->k->nparams;
		rc = wg_kernel_add_param(x->k, x->pname[i], type, count);
		if (rc == WG_ENOMEM)
			return xoom(x);
		if (rc)
			return xerr(x, "parameter '%s' overflows the parameter buffer (at most 4096 bytes)", p->name);
	}
	/* CUDA rounds the buffer up to the largest alignment: 16 with an .align 16 array */
	return align16 ? pad_params(x, 16, &npad) : 0;
}

static int setup_vars(struct xctx *x)
{
	const struct wg_ptx_kernel *pk = x->pk;
	uint32_t n = pk->nvars + x->m->nvars, shared = 0, local = 0, ext = 0;

	x->syms = calloc((size_t)n + 1, sizeof(*x->syms));
	if (!x->syms)
		return xoom(x);
	for (int pass = 0; pass < 2; pass++) {
		uint32_t cnt = pass ? pk->nvars : x->m->nvars;
		const struct wg_ptx_var *vars = pass ? pk->vars : x->m->vars;

		for (uint32_t i = 0; i < cnt; i++) {
			const struct wg_ptx_var *v = &vars[i];
			struct sym *sy = &x->syms[x->nsyms];

			x->line = v->line;
			if (find_sym(x, v->name))
				return xerr(x, "duplicate variable '%s'", v->name);
			sy->name = v->name;
			sy->space = v->space;
			if (v->is_extern) {
				ext = ext > v->align ? ext : v->align;
				x->nsyms++;
				continue; /* placed after the static variables */
			}
			if (v->space == WG_PTX_SHARED) {
				shared = align_up(shared, v->align);
				sy->off = shared;
				shared += v->size;
			} else {
				local = align_up(local, v->align);
				sy->off = local;
				local += v->size;
			}
			if (shared > (1u << 24) || local > (1u << 24))
				return xerr(x, "variables larger than 16 MiB");
			x->nsyms++;
		}
	}
	if (ext) /* dynamic shared memory starts at the end of the static window */
		shared = align_up(shared, ext > 16 ? ext : 16);
	for (uint32_t i = 0; i < x->nsyms; i++) {
		int is_ext = 0;

		for (uint32_t j = 0; j < x->m->nvars; j++)
			if (x->syms[i].name == x->m->vars[j].name && x->m->vars[j].is_extern)
				is_ext = 1;
		if (is_ext)
			x->syms[i].off = shared;
	}
	x->k->shared_bytes = shared;
	x->k->local_bytes = align_up(local, 4);
	return 0;
}

int wg_ptx_lower(const struct wg_ptx_module *m, const struct wg_ptx_kernel *pk, struct wg_px_code *c,
                 struct wg_kernel *k, FILE *diag)
{
	struct xctx x = { 0 };
	int rc = 0;

	memset(c, 0, sizeof(*c));
	memset(k, 0, sizeof(*k));
	x.m = m;
	x.pk = pk;
	x.c = c;
	x.k = k;
	x.diag = diag;
	x.line = pk->line;
	if (!image_name_ok(pk->name)) {
		rc = xerr(&x, "kernel name '%s' is not usable (1..%d characters of [A-Za-z0-9_.$])", pk->name,
			  WG_NAME_MAX - 1);
		goto out;
	}
	snprintf(k->name, sizeof(k->name), "%.63s", pk->name);
	if (setup_params(&x) || setup_vars(&x) || vprov(&x))
		goto out;
	for (uint32_t i = 0; i < pk->nstmts && !x.failed; i++)
		lower_stmt(&x, &pk->stmts[i]);
	if (!x.failed) {
		/* every branch target must be defined */
		uint8_t *def = calloc((size_t)c->nlabels + 1, 1);

		if (!def) {
			xoom(&x);
			goto out;
		}
		for (uint32_t i = 0; i < c->n; i++)
			if (c->insns[i].kind == WG_PX_LABEL)
				def[c->insns[i].label] = 1;
		for (uint32_t i = 0; i < c->n && !x.failed; i++)
			if (c->insns[i].kind == WG_PX_BRA && !def[c->insns[i].label]) {
				x.line = c->insns[i].line;
				xerr(&x, "branch to undefined label '%s'", c->labels[c->insns[i].label]);
			}
		free(def);
	}
	if (!x.failed && !c->n) {
		x.line = pk->line;
		xerr(&x, "kernel '%s' has no instructions", pk->name);
	}
	if (!x.failed) { /* a kernel that can run off its end gets an EXIT (PTX: implicit ret) */
		uint32_t i = c->n;

		while (i > 0 && c->insns[i - 1].kind == WG_PX_LABEL)
			i--;
		if (i < c->n || !i || !((c->insns[i - 1].kind == WG_PX_EXIT || c->insns[i - 1].kind == WG_PX_BRA) &&
					c->insns[i - 1].guard < 0)) {
			if (!wg_px_append(c, WG_PX_EXIT, 0))
				xoom(&x);
		}
	}
out:
	rc = x.oom ? WG_ENOMEM : x.failed ? WG_ESYNTAX : rc;
	free(x.regs);
	free(x.syms);
	free(x.lhash);
	free(x.pname);
	free(x.pimg);
	free(x.vf);
	if (rc) {
		wg_px_code_free(c);
		free(k->params);
		memset(k, 0, sizeof(*k));
	}
	return rc;
}

/* ------------------------------------------------------------------------ */
/* Emission                                                                 */

struct obuf {
	char *p;
	size_t n, cap;
	int oom;
};

static void out(struct obuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out(struct obuf *o, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (o->oom)
		return;
	for (;;) {
		size_t room = o->cap - o->n;

		va_start(ap, fmt);
		len = vsnprintf(o->p ? o->p + o->n : NULL, o->p ? room : 0, fmt, ap);
		va_end(ap);
		if (len < 0) {
			o->oom = 1;
			return;
		}
		if (o->p && (size_t)len < room) {
			o->n += (size_t)len;
			return;
		}
		{
			size_t ncap = o->cap ? o->cap * 2 : 4096;
			char *np;

			while (ncap < o->n + (size_t)len + 1)
				ncap *= 2;
			np = realloc(o->p, ncap);
			if (!np) {
				o->oom = 1;
				return;
			}
			o->p = np;
			o->cap = ncap;
		}
	}
}

static void label_name(const struct wg_px_code *c, int32_t l, char *buf, size_t len)
{
	if (c->labels[l][0])
		snprintf(buf, len, "%s", c->labels[l]);
	else
		snprintf(buf, len, ".L%d", (int)l);
}

/* Register text for vreg v in the emitted instruction (after spill substitution). */
static void reg_text(const struct wg_px_code *c, const struct wg_px_ra *ra, int32_t v, const char *spilled_name,
                     char *buf, size_t len)
{
	int32_t p = ra->phys[v];

	if (p == WG_PX_SPILLED)
		snprintf(buf, len, "%s", spilled_name);
	else if (p < 0)
		snprintf(buf, len, "%s", c->vclass[v] == WG_PX_PRED ? "PT" : "RZ");
	else
		snprintf(buf, len, "%c%d", c->vclass[v] == WG_PX_PRED ? 'P' : 'R', (int)p);
}

static void emit_insn(struct obuf *o, const struct wg_px_code *c, const struct wg_px_ra *ra, const struct wg_px_insn *in,
                      unsigned *last_line)
{
	char names[4][16] = { "", "", "", "" }; /* d, 0, 1, 2 */
	char guard[24] = "", gname[16] = "";
	char text[160];
	int gk = 0, pk = 1;
	const char *t;
	size_t n = 0;

	/* Reloads: guard, predicate sources, then general sources. */
	if (in->guard >= 0) {
		if (ra->phys[in->guard] == WG_PX_SPILLED) {
			snprintf(gname, sizeof(gname), "P%d", ra->pred_scratch);
			out(o, "          LDL.32 R%d, [0x%x]\n          ISETP.NE.U32 %s, R%d, 0\n", ra->gpr_scratch, ra->slot[in->guard],
			    gname, ra->gpr_scratch);
		} else {
			reg_text(c, ra, in->guard, "", gname, sizeof(gname));
		}
		snprintf(guard, sizeof(guard), "@%s%s ", in->gneg ? "!" : "", gname);
	}
	for (int j = 0; j < 3; j++) {
		int32_t v = in->src[j];

		if (v < 0)
			continue;
		if (ra->phys[v] != WG_PX_SPILLED) {
			reg_text(c, ra, v, "", names[j + 1], sizeof(names[0]));
		} else if (c->vclass[v] == WG_PX_PRED) {
			snprintf(names[j + 1], sizeof(names[0]), "P%d", ra->pred_scratch + pk);
			out(o, "          LDL.32 R%d, [0x%x]\n          ISETP.NE.U32 %s, R%d, 0\n", ra->gpr_scratch, ra->slot[v],
			    names[j + 1], ra->gpr_scratch);
			pk++;
		}
	}
	for (int j = 0; j < 3; j++) {
		int32_t v = in->src[j];

		if (v < 0 || ra->phys[v] != WG_PX_SPILLED || c->vclass[v] != WG_PX_GPR)
			continue;
		snprintf(names[j + 1], sizeof(names[0]), "R%d", ra->gpr_scratch + gk);
		out(o, "          LDL.32 %s, [0x%x]\n", names[j + 1], ra->slot[v]);
		gk++;
	}
	if (in->def < 0)
		snprintf(names[0], sizeof(names[0]), "RZ");
	else {
		if (ra->phys[in->def] == WG_PX_SPILLED)
			snprintf(names[0], sizeof(names[0]), c->vclass[in->def] == WG_PX_PRED ? "P%d" : "R%d",
				 c->vclass[in->def] == WG_PX_PRED ? ra->pred_scratch + 1 : ra->gpr_scratch);
		else
			reg_text(c, ra, in->def, "", names[0], sizeof(names[0]));
	}
	/* Substitute the placeholders. */
	for (t = in->text; *t && n + 8 < sizeof(text);) {
		if (t[0] == '{' && t[2] == '}' && (t[1] == 'd' || (t[1] >= '0' && t[1] <= '2'))) {
			const char *nm = names[t[1] == 'd' ? 0 : t[1] - '0' + 1];
			size_t l = strlen(nm);

			memcpy(text + n, nm, l);
			n += l;
			t += 3;
		} else {
			text[n++] = *t++;
		}
	}
	text[n] = 0;
	{
		char a[16], b[16];

		/* a move onto itself (coalesced by the allocator) is left out */
		if (sscanf(text, "MOV %15[^,], %15s", a, b) == 2 && !strcmp(a, b) && in->def >= 0 &&
		    ra->phys[in->def] != WG_PX_SPILLED)
			return;
	}
	if (in->line && in->line != *last_line)
		out(o, "    %-6s%-44s ; ptx %u\n", guard, text, in->line);
	else
		out(o, "    %-6s%s\n", guard, text);
	*last_line = in->line ? in->line : *last_line;
	/* Spill stores of the definition, under the same guard. */
	if (in->def >= 0 && ra->phys[in->def] == WG_PX_SPILLED) {
		if (c->vclass[in->def] == WG_PX_PRED)
			out(o, "    %-6sSEL R%d, RZ, 1, !%s\n", guard, ra->gpr_scratch, names[0]);
		out(o, "    %-6sSTL.32 [0x%x], R%d\n", guard, ra->slot[in->def], ra->gpr_scratch);
	}
}

static int emit_kernel(struct obuf *o, const struct wg_px_code *c, const struct wg_kernel *k, const struct wg_px_cfg *g,
                       const struct wg_px_ra *ra, const char *file)
{
	uint8_t *need = calloc((size_t)g->nblocks + 1, 1);
	unsigned last_line = 0;

	if (!need)
		return WG_ENOMEM;
	/* Blocks that are reconvergence points but start without a label get one. */
	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t d;

		if (c->insns[i].kind != WG_PX_BRA)
			continue;
		d = g->ipdom[g->block_of[i]];
		if (d != WG_PX_NONE && d < g->nblocks && c->insns[g->start[d]].kind != WG_PX_LABEL)
			need[d] = 1;
	}
	out(o, "\n; %s: kernel %s (translated from PTX)\n.kernel %s\n.regs %u\n", file, k->name, k->name, ra->regs);
	out(o, ".shared %u\n.local %u\n", k->shared_bytes, ra->local_end);
	for (uint32_t i = 0; i < k->nparams; i++) {
		const struct wg_param *p = &k->params[i];

		if (p->count > 1)
			out(o, ".param %s[%u] %s\n", wg_ptype_name(p->type), p->count, p->name);
		else
			out(o, ".param %s %s\n", wg_ptype_name(p->type), p->name);
	}
	if (ra->nspilled)
		out(o, "; %u values spilled to local memory at 0x%x..0x%x\n", ra->nspilled, ra->local_end - 4 * ra->nspilled,
		    ra->local_end);
	for (uint32_t i = 0; i < c->n; i++) {
		const struct wg_px_insn *in = &c->insns[i];
		char ln[WG_NAME_MAX + 8];

		if (g->start[g->block_of[i]] == i && need[g->block_of[i]])
			out(o, ".B%u:\n", g->block_of[i]);
		switch (in->kind) {
		case WG_PX_LABEL:
			label_name(c, in->label, ln, sizeof(ln));
			out(o, "%s:\n", ln);
			break;
		case WG_PX_OP:
			emit_insn(o, c, ra, in, &last_line);
			break;
		case WG_PX_EXIT:
		case WG_PX_BRA: {
			struct wg_px_insn tmp = *in;
			char rc[WG_NAME_MAX + 8];
			uint32_t d = g->ipdom[g->block_of[i]];

			if (in->kind == WG_PX_EXIT) {
				snprintf(tmp.text, sizeof(tmp.text), "EXIT");
			} else {
				label_name(c, in->label, ln, sizeof(ln));
				if (d == WG_PX_NONE || d >= g->nblocks)
					snprintf(rc, sizeof(rc), "none");
				else if (c->insns[g->start[d]].kind == WG_PX_LABEL)
					label_name(c, c->insns[g->start[d]].label, rc, sizeof(rc));
				else
					snprintf(rc, sizeof(rc), ".B%u", d);
				snprintf(tmp.text, sizeof(tmp.text), "BRA %s, %s", ln, rc);
			}
			tmp.def = tmp.src[0] = tmp.src[1] = tmp.src[2] = -1;
			emit_insn(o, c, ra, &tmp, &last_line);
			break;
		}
		}
	}
	free(need);
	return o->oom ? WG_ENOMEM : 0;
}

static int translate_kernel(const struct wg_ptx_module *m, const struct wg_ptx_kernel *pk, struct obuf *o, FILE *diag)
{
	struct wg_px_code c;
	struct wg_kernel k;
	struct wg_px_cfg g;
	struct wg_px_ra ra;
	struct wg_px_ra_opts opts = { 0 };
	int rc;

	rc = wg_ptx_lower(m, pk, &c, &k, diag);
	if (rc)
		return rc;
	rc = wg_px_cfg_build(&g, &c);
	if (rc) {
		if (diag)
			fprintf(diag, "%s:%u: error: kernel '%s': %s\n", m->file, pk->line, pk->name,
				rc == WG_ENOMEM ? "out of memory" : "malformed control flow");
		goto out_code;
	}
	rc = wg_px_liveness(&g, &c);
	if (!rc) {
		opts.spill_base = k.local_bytes;
		rc = wg_px_regalloc(&ra, &c, &g, &opts);
	}
	if (rc) {
		if (diag)
			fprintf(diag, "%s: error: out of memory\n", m->file);
		goto out_cfg;
	}
	rc = emit_kernel(o, &c, &k, &g, &ra, m->file);
	wg_px_ra_free(&ra);
out_cfg:
	wg_px_cfg_free(&g);
out_code:
	wg_px_code_free(&c);
	free(k.params);
	return rc;
}

int wg_ptx_translate(const char *src, const char *filename, char **asm_out, struct wg_image *img, FILE *diag)
{
	struct wg_ptx_module m;
	struct obuf o = { 0 };
	int rc;

	if (asm_out)
		*asm_out = NULL;
	rc = wg_ptx_parse(&m, src, filename, diag);
	if (rc)
		return rc;
	out(&o, "; %s: warpgate assembly translated from PTX %u.%u (docs/ptx.md)\n", m.file, m.version_major,
	    m.version_minor);
	for (uint32_t i = 0; i < m.nkernels && !rc; i++)
		rc = translate_kernel(&m, &m.kernels[i], &o, diag);
	if (!rc && o.oom)
		rc = WG_ENOMEM;
	if (!rc && img) {
		char asmname[300];

		snprintf(asmname, sizeof(asmname), "%s (translated)", m.file);
		rc = wg_asm_string(img, o.p, asmname, diag);
		if (rc)
			rc = WG_ESYNTAX;
	}
	wg_ptx_free(&m);
	if (!rc && asm_out)
		*asm_out = o.p;
	else
		free(o.p);
	return rc;
}

int wg_ptx_translate_file(const char *path, char **asm_out, struct wg_image *img, FILE *diag)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (!f) {
		if (diag)
			fprintf(diag, "%s: error: cannot open the file\n", path);
		return WG_ENOENT;
	}
	for (;;) {
		size_t got;

		if (cap - n < 65536) {
			char *nb = realloc(buf, cap + 65536 + 1);

			if (!nb) {
				free(buf);
				fclose(f);
				return WG_ENOMEM;
			}
			buf = nb;
			cap += 65536;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		if (diag)
			fprintf(diag, "%s: error: read failure\n", path);
		return WG_EIO;
	}
	fclose(f);
	buf[n] = 0;
	if (strlen(buf) != n) {
		free(buf);
		if (diag)
			fprintf(diag, "%s: error: NUL byte in the file, expected PTX text\n", path);
		return WG_ESYNTAX;
	}
	rc = wg_ptx_translate(buf, path, asm_out, img, diag);
	free(buf);
	return rc;
}
