/*
 * The warpgate disassembler: prints an image as assembly source that the
 * assembler turns back into the identical image (docs/isa.md section 10).
 *
 * Canonical forms: mnemonics as in the instruction table, R0..R62/RZ,
 * P0..P6/PT, hex immediates (FP32 literals for FP operands when they read
 * back to the same bits), memory operands [Ra+0x10], and BRA always with
 * its explicit reconvergence point (label, pc or none).
 */
#include "disasm.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "warpgate.h"

/* Appends to a bounded buffer, counting the full length like snprintf. */
struct sbuf {
	char *buf;
	size_t len, pos;
};

static void sb_printf(struct sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s->pos < s->len ? s->buf + s->pos : NULL, s->pos < s->len ? s->len - s->pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->pos += (size_t)n;
}

static void sb_reg(struct sbuf *s, unsigned r)
{
	if (r == WG_REG_RZ)
		sb_printf(s, "RZ");
	else
		sb_printf(s, "R%u", r);
}

/* A predicate operand: bit 3 = negate when with_neg. */
static void sb_pred(struct sbuf *s, unsigned p, int with_neg)
{
	if (with_neg && (p & 8))
		sb_printf(s, "!");
	if ((p & 7) == WG_PRED_PT)
		sb_printf(s, "PT");
	else
		sb_printf(s, "P%u", p & 7);
}

/* Does the B operand of this instruction hold an FP32 value? */
static int b_is_float(const struct wg_isa_entry *e)
{
	switch (e->op) {
	case WG_OP_FADD:
	case WG_OP_FSUB:
	case WG_OP_FMUL:
	case WG_OP_FFMA:
	case WG_OP_FMIN:
	case WG_OP_FMAX:
	case WG_OP_FSETP:
	case WG_OP_FDIV:
		return 1;
	case WG_OP_ATOMGX:
	case WG_OP_ATOMSX:
		return e->mod == 4; /* .ADD.F32 */
	default:
		return 0;
	}
}

/*
 * The shortest FP32 literal that reads back (strtof) to exactly these bits,
 * with a '.' or an exponent so that it lexes as a float; 0 if none exists
 * (NaNs other than the canonical one).
 */
static int float_literal(uint32_t bits, char *out, size_t len)
{
	float f;

	if (bits == 0x7FFFFFFFu || bits == 0xFFFFFFFFu) {
		snprintf(out, len, "%snan", bits >> 31 ? "-" : "");
		return 1;
	}
	if ((bits & 0x7F800000u) == 0x7F800000u) {
		if (bits & 0x007FFFFFu)
			return 0;
		snprintf(out, len, "%sinf", bits >> 31 ? "-" : "");
		return 1;
	}
	memcpy(&f, &bits, sizeof(f));
	for (int prec = 1; prec <= 9; prec++) {
		char tmp[48];
		float g;
		uint32_t gb;

		snprintf(tmp, sizeof(tmp), "%.*g", prec, (double)f);
		g = strtof(tmp, NULL);
		memcpy(&gb, &g, sizeof(gb));
		if (gb != bits)
			continue;
		if (!strpbrk(tmp, ".eE"))
			strcat(tmp, ".0");
		snprintf(out, len, "%s", tmp);
		return 1;
	}
	return 0;
}

static void sb_imm(struct sbuf *s, uint32_t v, int as_float)
{
	char lit[48];

	if (as_float && float_literal(v, lit, sizeof(lit)))
		sb_printf(s, "%s", lit);
	else
		sb_printf(s, "0x%x", v);
}

static void sb_b(struct sbuf *s, const struct wg_insn *in)
{
	if (in->bimm)
		sb_imm(s, in->b, b_is_float(in->e));
	else
		sb_reg(s, in->b & 63);
}

/* Would the assembler read this name as a register inside a memory operand? */
static int looks_like_gpr(const char *n)
{
	if (n[0] != 'R' && n[0] != 'r')
		return 0;
	if ((n[1] == 'Z' || n[1] == 'z') && !n[2])
		return 1;
	if (!n[1])
		return 0;
	for (n++; *n; n++)
		if (*n < '0' || *n > '9')
			return 0;
	return 1;
}

static const struct wg_param *param_at(const struct wg_kernel *k, uint32_t off)
{
	if (!k)
		return NULL;
	for (uint32_t i = 0; i < k->nparams; i++)
		if (k->params[i].offset == off && !looks_like_gpr(k->params[i].name))
			return &k->params[i];
	return NULL;
}

static void sb_mem(struct sbuf *s, const struct wg_kernel *k, const struct wg_insn *in)
{
	int32_t off = (int32_t)in->b;
	const struct wg_param *pa = in->op == WG_OP_LDC ? param_at(k, in->b) : NULL;
	uint32_t mag = off < 0 ? 0u - (uint32_t)off : (uint32_t)off;

	sb_printf(s, "[");
	if (in->ra == WG_REG_RZ) {
		if (pa)
			sb_printf(s, "%s", pa->name);
		else
			sb_printf(s, "%s0x%x", off < 0 ? "-" : "", mag);
	} else {
		sb_reg(s, in->ra);
		if (pa && off)
			sb_printf(s, "+%s", pa->name);
		else if (off)
			sb_printf(s, "%c0x%x", off < 0 ? '-' : '+', mag);
	}
	sb_printf(s, "]");
}

/* The first label at pc, or NULL. Labels are sorted by pc. */
static const char *label_at(const struct wg_kernel *k, uint32_t pc)
{
	uint32_t lo = 0, hi;

	if (!k || !k->nlabels)
		return NULL;
	hi = k->nlabels;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (k->labels[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < k->nlabels && k->labels[lo].pc == pc ? k->labels[lo].name : NULL;
}

static void sb_target(struct sbuf *s, const struct wg_kernel *k, uint32_t pc, int reconv)
{
	const char *l;

	if (reconv && pc == WG_RECONV_NONE) {
		sb_printf(s, "none");
		return;
	}
	l = label_at(k, pc);
	/* In the reconvergence slot the word none is the keyword, not a label. */
	if (l && !(reconv && !strcasecmp(l, "none")))
		sb_printf(s, "%s", l);
	else
		sb_printf(s, "%u", pc);
}

int wg_disasm_insn(const struct wg_kernel *k, uint32_t pc, const struct wg_insn *in, char *buf, size_t len)
{
	struct sbuf s = { .buf = buf, .len = len };
	const struct wg_isa_entry *e = in->e;

	(void)pc;
	if (buf && len)
		buf[0] = 0;
	if (!e) {
		sb_printf(&s, "<illegal>");
		return (int)s.pos;
	}
	if (in->gp != WG_PRED_PT || in->gneg) {
		sb_printf(&s, "@");
		sb_pred(&s, (unsigned)(in->gneg << 3 | in->gp), 1);
		sb_printf(&s, " ");
	}
	sb_printf(&s, "%s", e->mnemonic);
	if (e->fmt != WG_FMT_N)
		sb_printf(&s, " ");
	switch (e->fmt) {
	case WG_FMT_N:
		break;
	case WG_FMT_RB:
		sb_reg(&s, in->rd);
		sb_printf(&s, ", ");
		sb_b(&s, in);
		break;
	case WG_FMT_RA:
		sb_reg(&s, in->rd);
		sb_printf(&s, ", ");
		sb_reg(&s, in->ra);
		break;
	case WG_FMT_RAB:
	case WG_FMT_RABC:
	case WG_FMT_SEL:
		sb_reg(&s, in->rd);
		sb_printf(&s, ", ");
		sb_reg(&s, in->ra);
		sb_printf(&s, ", ");
		sb_b(&s, in);
		if (e->fmt == WG_FMT_RABC) {
			sb_printf(&s, ", ");
			sb_reg(&s, in->rc);
		} else if (e->fmt == WG_FMT_SEL) {
			sb_printf(&s, ", ");
			sb_pred(&s, in->rc, 1);
		}
		break;
	case WG_FMT_SETP:
		sb_pred(&s, in->rd, 0);
		sb_printf(&s, ", ");
		sb_reg(&s, in->ra);
		sb_printf(&s, ", ");
		sb_b(&s, in);
		break;
	case WG_FMT_PLOP:
		sb_pred(&s, in->rd, 0);
		sb_printf(&s, ", ");
		sb_pred(&s, in->ra, 1);
		sb_printf(&s, ", ");
		sb_pred(&s, in->rc, 1);
		break;
	case WG_FMT_S2R: {
		const char *sr = wg_sreg_name(in->b);

		sb_reg(&s, in->rd);
		if (sr)
			sb_printf(&s, ", %s", sr);
		else
			sb_printf(&s, ", %u", in->b);
		break;
	}
	case WG_FMT_LD:
		sb_reg(&s, in->rd);
		sb_printf(&s, ", ");
		sb_mem(&s, k, in);
		break;
	case WG_FMT_ST:
		sb_mem(&s, k, in);
		sb_printf(&s, ", ");
		sb_reg(&s, in->rc);
		break;
	case WG_FMT_ATOM:
	case WG_FMT_CAS:
		sb_reg(&s, in->rd);
		sb_printf(&s, ", [");
		sb_reg(&s, in->ra);
		sb_printf(&s, "], ");
		sb_b(&s, in);
		if (e->fmt == WG_FMT_CAS) {
			sb_printf(&s, ", ");
			sb_reg(&s, in->rc);
		}
		break;
	case WG_FMT_BRA:
		sb_target(&s, k, in->b, 0);
		sb_printf(&s, ", ");
		sb_target(&s, k, in->reconv, 1);
		break;
	case WG_FMT_BAR:
		sb_printf(&s, "%u", in->b);
		break;
	default:
		break;
	}
	return (int)s.pos;
}

static int disasm_kernel(const struct wg_kernel *k, FILE *out)
{
	uint32_t li = 0;
	char *buf;
	size_t cap = 256;
	int ret = 0;

	buf = malloc(cap);
	if (!buf)
		return WG_ENOMEM;
	fprintf(out, ".kernel %s\n", k->name);
	fprintf(out, ".regs %u\n", k->regs);
	if (k->shared_bytes)
		fprintf(out, ".shared %u\n", k->shared_bytes);
	if (k->local_bytes)
		fprintf(out, ".local %u\n", k->local_bytes);
	for (uint32_t i = 0; i < k->nparams; i++) {
		const struct wg_param *p = &k->params[i];
		const char *t = wg_ptype_name(p->type);

		if (!t) {
			ret = WG_EINVAL;
			goto out;
		}
		if (p->count == 1)
			fprintf(out, ".param %s %s", t, p->name);
		else
			fprintf(out, ".param %s[%u] %s", t, p->count, p->name);
		fprintf(out, "%*s; offset %u, %u bytes\n", 1, "", p->offset, p->size);
	}
	if (k->nparams)
		fprintf(out, "; %u parameter bytes\n", k->param_bytes);
	for (uint32_t pc = 0; pc < k->ninsns; pc++) {
		struct wg_insn in;
		char why[160];
		int n;

		for (; li < k->nlabels && k->labels[li].pc <= pc; li++)
			fprintf(out, "%s:\n", k->labels[li].name);
		if (wg_isa_decode(k->code[pc], &in, why, sizeof(why))) {
			fprintf(out, "\t; pc %u: illegal instruction 0x%016llx: %s\n", pc,
				(unsigned long long)k->code[pc], why);
			ret = WG_EILLEGAL;
			continue;
		}
		n = wg_disasm_insn(k, pc, &in, buf, cap);
		if ((size_t)n >= cap) {
			char *nb = realloc(buf, (size_t)n + 1);

			if (!nb) {
				ret = WG_ENOMEM;
				goto out;
			}
			buf = nb;
			cap = (size_t)n + 1;
			wg_disasm_insn(k, pc, &in, buf, cap);
		}
		fprintf(out, "\t%s\n", buf);
	}
	for (; li < k->nlabels; li++)
		fprintf(out, "%s:\n", k->labels[li].name);
out:
	free(buf);
	return ret;
}

int wg_disasm_image(const struct wg_image *img, FILE *out)
{
	int ret = 0;

	if (!img || !out || (img->nkernels && !img->kernels))
		return WG_EINVAL;
	fprintf(out, "; warpgate kernel image: %u kernel%s\n", img->nkernels, img->nkernels == 1 ? "" : "s");
	for (uint32_t i = 0; i < img->nkernels; i++) {
		int r;

		fprintf(out, "\n");
		r = disasm_kernel(&img->kernels[i], out);
		if (r && !ret)
			ret = r;
	}
	if (ferror(out) && !ret)
		ret = WG_EIO;
	return ret;
}
