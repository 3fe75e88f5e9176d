/*
 * The warpgate assembler (docs/isa.md sections 2, 4 and 10).
 *
 * Source is read line by line. Each kernel collects its instructions, labels
 * and branch references; when the kernel ends (next .kernel or end of
 * file) labels are resolved, the reconvergence pc of every BRA is computed
 * as the immediate post-dominator of its basic block, and the kernel is
 * appended to the image. Errors are reported as "file:line:col: error:
 * what, expected what" and parsing goes on, up to MAX_ERRORS.
 */
#include "asm.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "isa.h"
#include "warpgate.h"

#define MAX_ERRORS 20

/* ------------------------------------------------------------------------ */
/* Immediate post-dominators                                                */

enum flow {
	FLOW_NEXT,      /* falls through only */
	FLOW_JUMP,      /* unguarded BRA: target only */
	FLOW_BRANCH,    /* guarded BRA: target and fall-through */
	FLOW_EXIT,      /* unguarded EXIT: virtual exit only */
	FLOW_EXIT_NEXT, /* guarded EXIT: virtual exit and fall-through */
};

#define UNDEF UINT32_MAX

static uint32_t intersect(const uint32_t *ipdom, const uint32_t *po, uint32_t x, uint32_t y)
{
	while (x != y) {
		while (po[x] < po[y])
			x = ipdom[x];
		while (po[y] < po[x])
			y = ipdom[y];
	}
	return x;
}

int wg_asm_reconv(const uint64_t *code, uint32_t n, uint32_t *out, uint32_t *pc_out)
{
	uint8_t *flow = NULL, *leader = NULL;
	uint32_t *target = NULL, *block_of = NULL, *bstart = NULL, *succ = NULL;
	uint32_t *pred_idx = NULL, *preds = NULL, *po = NULL, *order = NULL, *ipdom = NULL;
	uint32_t *stack = NULL, *edge = NULL;
	uint32_t nb = 0, exitn, npo = 0, sp = 0;
	struct wg_insn in;
	int ret = 0;

	if (pc_out)
		*pc_out = 0;
	if (!n)
		return WG_ESYNTAX;
	if (!code || !out || n >= WG_PC_MAX)
		return WG_EINVAL;

	flow = calloc(n, 1);
	leader = calloc((size_t)n + 1, 1);
	target = calloc(n, sizeof(*target));
	block_of = calloc(n, sizeof(*block_of));
	if (!flow || !leader || !target || !block_of) {
		ret = WG_ENOMEM;
		goto out;
	}

	/* Classify instructions and find the leaders of basic blocks. */
	leader[0] = 1;
	for (uint32_t pc = 0; pc < n; pc++) {
		int uncond;

		if (wg_isa_decode(code[pc], &in, NULL, 0)) {
			ret = WG_EILLEGAL;
			goto fail_pc;
		}
		uncond = in.gp == WG_PRED_PT && !in.gneg;
		if (in.op == WG_OP_BRA) {
			if (in.b >= n) {
				ret = WG_EINVAL;
				goto fail_pc;
			}
			flow[pc] = uncond ? FLOW_JUMP : FLOW_BRANCH;
			target[pc] = in.b;
			leader[in.b] = 1;
			leader[pc + 1] = 1;
		} else if (in.op == WG_OP_EXIT) {
			flow[pc] = uncond ? FLOW_EXIT : FLOW_EXIT_NEXT;
			leader[pc + 1] = 1;
		} else {
			flow[pc] = FLOW_NEXT;
		}
		continue;
fail_pc:
		if (pc_out)
			*pc_out = pc;
		goto out;
	}
	if (flow[n - 1] != FLOW_JUMP && flow[n - 1] != FLOW_EXIT) {
		if (pc_out)
			*pc_out = n - 1;
		ret = WG_ESYNTAX;
		goto out;
	}

	for (uint32_t pc = 0; pc < n; pc++) {
		if (leader[pc])
			nb++;
		block_of[pc] = nb - 1;
	}
	exitn = nb;
	bstart = malloc(nb * sizeof(*bstart));
	succ = malloc((size_t)nb * 2 * sizeof(*succ));
	pred_idx = calloc((size_t)nb + 2, sizeof(*pred_idx));
	preds = malloc((size_t)nb * 2 * sizeof(*preds));
	po = malloc(((size_t)nb + 1) * sizeof(*po));
	order = malloc(((size_t)nb + 1) * sizeof(*order));
	ipdom = malloc(((size_t)nb + 1) * sizeof(*ipdom));
	stack = malloc(((size_t)nb + 1) * sizeof(*stack));
	edge = malloc(((size_t)nb + 1) * sizeof(*edge));
	if (!bstart || !succ || !pred_idx || !preds || !po || !order || !ipdom || !stack || !edge) {
		ret = WG_ENOMEM;
		goto out;
	}

	/* Successors of each block, from its last instruction. */
	for (uint32_t pc = 0; pc < n; pc++) {
		uint32_t b = block_of[pc];

		if (leader[pc])
			bstart[b] = pc;
		if (!leader[pc + 1] && pc + 1 < n)
			continue;
		uint32_t next = pc + 1 < n ? block_of[pc + 1] : UNDEF;
		uint32_t *s = &succ[2 * b];

		s[0] = s[1] = UNDEF;
		switch (flow[pc]) {
		case FLOW_NEXT: s[0] = next; break;
		case FLOW_JUMP: s[0] = block_of[target[pc]]; break;
		case FLOW_BRANCH: s[0] = block_of[target[pc]]; s[1] = next; break;
		case FLOW_EXIT: s[0] = exitn; break;
		case FLOW_EXIT_NEXT: s[0] = exitn; s[1] = next; break;
		}
	}

	/* Predecessor lists (the reverse graph) in compressed form. */
	for (uint32_t b = 0; b < nb; b++)
		for (int i = 0; i < 2; i++)
			if (succ[2 * b + i] != UNDEF)
				pred_idx[succ[2 * b + i] + 1]++;
	for (uint32_t v = 0; v <= nb; v++)
		pred_idx[v + 1] += pred_idx[v];
	{
		uint32_t *fill = edge; /* reused as a fill cursor */

		for (uint32_t v = 0; v <= nb; v++)
			fill[v] = pred_idx[v];
		for (uint32_t b = 0; b < nb; b++)
			for (int i = 0; i < 2; i++)
				if (succ[2 * b + i] != UNDEF)
					preds[fill[succ[2 * b + i]]++] = b;
	}

	/* Depth-first search of the reverse graph from the exit: postorder. */
	for (uint32_t v = 0; v <= nb; v++) {
		po[v] = UNDEF;
		ipdom[v] = UNDEF;
		edge[v] = pred_idx[v];
	}
	stack[sp++] = exitn;
	po[exitn] = 0; /* visited mark; renumbered below */
	while (sp) {
		uint32_t v = stack[sp - 1];

		if (edge[v] < pred_idx[v + 1]) {
			uint32_t u = preds[edge[v]++];

			if (po[u] == UNDEF) {
				po[u] = 0;
				stack[sp++] = u;
			}
			continue;
		}
		sp--;
		order[npo] = v;
		po[v] = npo++;
	}

	/* Cooper, Harvey and Kennedy's iteration, on the reverse graph. */
	ipdom[exitn] = exitn;
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t i = npo - 1; i-- > 0;) {
			uint32_t b = order[i], d = UNDEF;

			for (int j = 0; j < 2; j++) {
				uint32_t s = succ[2 * b + j];

				if (s == UNDEF || ipdom[s] == UNDEF)
					continue;
				d = d == UNDEF ? s : intersect(ipdom, po, s, d);
			}
			if (d != ipdom[b]) {
				ipdom[b] = d;
				changed = 1;
			}
		}
	}

	for (uint32_t pc = 0; pc < n; pc++) {
		if (flow[pc] != FLOW_JUMP && flow[pc] != FLOW_BRANCH)
			continue;
		uint32_t d = ipdom[block_of[pc]];

		out[pc] = d == UNDEF || d == exitn ? WG_RECONV_NONE : bstart[d];
	}
out:
	free(flow);
	free(leader);
	free(target);
	free(block_of);
	free(bstart);
	free(succ);
	free(pred_idx);
	free(preds);
	free(po);
	free(order);
	free(ipdom);
	free(stack);
	free(edge);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Assembler state                                                          */

enum ref_kind { REF_NONE, REF_PC, REF_LABEL, REF_NOWHERE };

struct ref {
	uint8_t kind;
	uint32_t pc;
	char name[WG_NAME_MAX];
	unsigned line, col;
};

struct a_bra {
	uint32_t pc;
	struct ref target, reconv;
};

struct a_insn {
	struct wg_insn in;
	unsigned line, col;
};

struct a_label {
	char name[WG_NAME_MAX];
	uint32_t pc;
	unsigned line, col;
};

struct a_kernel {
	struct wg_kernel k;
	unsigned line, col;
	int have_regs, have_shared, have_local, code_started, regs_reported, too_long;
	int nerr_start;
	struct a_insn *insns;
	uint32_t ninsns, cap_insns;
	struct a_bra *bras;
	uint32_t nbras, cap_bras;
	struct a_label *labels;
	uint32_t nlabels, cap_labels;
	uint32_t *hash; /* label index + 1, open addressing */
	uint32_t hash_cap;
};

struct kname {
	char name[WG_NAME_MAX];
	unsigned line;
};

struct actx {
	const char *file;
	FILE *diag;
	int nerrors;
	int stop;
	int oom;
	struct wg_image *img;
	struct a_kernel *cur;
	struct kname *knames;
	uint32_t nknames;
	char *line; /* the current line, comments cut off */
	unsigned lineno;
};

struct opnd {
	char *t;
	unsigned col;
};

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                              */

static void vdiag(struct actx *a, unsigned line, unsigned col, const char *kind, const char *fmt, va_list ap)
{
	if (!a->diag)
		return;
	fprintf(a->diag, "%s:%u:%u: %s: ", a->file, line, col, kind);
	vfprintf(a->diag, fmt, ap);
	fputc('\n', a->diag);
}

static void verror(struct actx *a, unsigned line, unsigned col, const char *fmt, va_list ap)
{
	if (a->stop)
		return;
	vdiag(a, line, col, "error", fmt, ap);
	if (++a->nerrors >= MAX_ERRORS) {
		if (a->diag)
			fprintf(a->diag, "%s: too many errors (%d), stopping\n", a->file, a->nerrors);
		a->stop = 1;
	}
}

static void error_at(struct actx *a, unsigned line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void warn_at(struct actx *a, unsigned line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int err(struct actx *a, const char *p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void error_at(struct actx *a, unsigned line, unsigned col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(a, line, col, fmt, ap);
	va_end(ap);
}

static void warn_at(struct actx *a, unsigned line, unsigned col, const char *fmt, ...)
{
	va_list ap;

	if (a->stop)
		return;
	va_start(ap, fmt);
	vdiag(a, line, col, "warning", fmt, ap);
	va_end(ap);
}

static void out_of_memory(struct actx *a)
{
	if (!a->oom && a->diag)
		fprintf(a->diag, "%s: error: out of memory\n", a->file);
	a->oom = 1;
	a->stop = 1;
	a->nerrors++;
}

static unsigned col_of(const struct actx *a, const char *p)
{
	return (unsigned)(p - a->line) + 1;
}

/* Error at a position in the current line. Always returns -1. */
static int err(struct actx *a, const char *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(a, a->lineno, col_of(a, p), fmt, ap);
	va_end(ap);
	return -1;
}

/* ------------------------------------------------------------------------ */
/* Lexical helpers                                                          */

static int is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int is_xdigit(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int ident_start(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '.' || c == '$';
}

static int ident_char(int c)
{
	return ident_start(c) || is_digit(c);
}

static char *skip_ws(char *p)
{
	while (is_ws((unsigned char)*p))
		p++;
	return p;
}

static char *word_end(char *p)
{
	while (ident_char((unsigned char)*p))
		p++;
	return p;
}

static int is_ident(const char *s)
{
	if (!ident_start((unsigned char)*s))
		return 0;
	while (*++s)
		if (!ident_char((unsigned char)*s))
			return 0;
	return 1;
}

/* Register syntax R<digits> or RZ (case-insensitive). Sets *r (99 when too large). */
static int gpr_syntax(const char *s, unsigned *r)
{
	unsigned v = 0;
	int nd = 0;

	if (s[0] != 'R' && s[0] != 'r')
		return 0;
	if ((s[1] == 'Z' || s[1] == 'z') && !s[2]) {
		*r = WG_REG_RZ;
		return 1;
	}
	for (s++; is_digit((unsigned char)*s); s++, nd++)
		v = v < 1000 ? v * 10 + (unsigned)(*s - '0') : v;
	if (!nd || *s)
		return 0;
	*r = v;
	return 1;
}

/* Predicate syntax P<digits> or PT (case-insensitive). Sets *p (99 when too large). */
static int pred_syntax(const char *s, unsigned *p)
{
	unsigned v = 0;
	int nd = 0;

	if (s[0] != 'P' && s[0] != 'p')
		return 0;
	if ((s[1] == 'T' || s[1] == 't') && !s[2]) {
		*p = WG_PRED_PT;
		return 1;
	}
	for (s++; is_digit((unsigned char)*s); s++, nd++)
		v = v < 1000 ? v * 10 + (unsigned)(*s - '0') : v;
	if (!nd || *s)
		return 0;
	*p = v;
	return 1;
}

enum num_kind { NUM_BAD, NUM_INT, NUM_FLOAT, NUM_FLOAT_RANGE };

/*
 * Lex a whole token as a number: [+-]? (0x hex | decimal) for integers,
 * [+-]? digits [. digits*] [e [+-] digits] with a '.' or an exponent for
 * FP32, and [+-]? inf / nan. Integers give *ival (magnitude saturated just
 * above 2^32, with its sign); floats give their IEEE bits in *fbits.
 */
static enum num_kind lex_number(const char *s, int64_t *ival, uint32_t *fbits)
{
	const char *q = s;
	int neg = 0;
	uint64_t mag = 0;

	if (*q == '+' || *q == '-')
		neg = *q++ == '-';
	if (!strcasecmp(q, "inf")) {
		*fbits = neg ? 0xFF800000u : 0x7F800000u;
		return NUM_FLOAT;
	}
	if (!strcasecmp(q, "nan")) {
		/* The ISA's canonical NaN (docs/isa.md section 7), or its negation. */
		*fbits = neg ? 0xFFFFFFFFu : 0x7FFFFFFFu;
		return NUM_FLOAT;
	}
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		q += 2;
		if (!*q)
			return NUM_BAD;
		for (; *q; q++) {
			if (!is_xdigit((unsigned char)*q))
				return NUM_BAD;
			unsigned d = is_digit((unsigned char)*q) ? (unsigned)(*q - '0')
								 : (unsigned)((*q | 0x20) - 'a' + 10);
			mag = mag > 0x1FFFFFFFFull ? mag : mag * 16 + d;
		}
		*ival = neg ? -(int64_t)mag : (int64_t)mag;
		return NUM_INT;
	}
	if (!is_digit((unsigned char)*q))
		return NUM_BAD;
	int is_float = 0;

	while (is_digit((unsigned char)*q)) {
		mag = mag > 0x1FFFFFFFFull ? mag : mag * 10 + (unsigned)(*q - '0');
		q++;
	}
	if (*q == '.') {
		is_float = 1;
		for (q++; is_digit((unsigned char)*q); q++)
			;
	}
	if (*q == 'e' || *q == 'E') {
		is_float = 1;
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if (!is_digit((unsigned char)*q))
			return NUM_BAD;
		while (is_digit((unsigned char)*q))
			q++;
	}
	if (*q)
		return NUM_BAD;
	if (!is_float) {
		*ival = neg ? -(int64_t)mag : (int64_t)mag;
		return NUM_INT;
	}
	/* The whole token has the syntax of a decimal float: strtof reads all of it. */
	float f = strtof(s, NULL);

	if (isinf(f))
		return NUM_FLOAT_RANGE;
	memcpy(fbits, &f, sizeof(*fbits));
	return NUM_FLOAT;
}

/* ------------------------------------------------------------------------ */
/* Kernels and labels                                                       */

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct a_label *label_find(struct a_kernel *ak, const char *name)
{
	if (!ak->hash_cap)
		return NULL;
	for (uint32_t i = name_hash(name) & (ak->hash_cap - 1);; i = (i + 1) & (ak->hash_cap - 1)) {
		uint32_t v = ak->hash[i];

		if (!v)
			return NULL;
		if (!strcmp(ak->labels[v - 1].name, name))
			return &ak->labels[v - 1];
	}
}

static int label_hash_insert(struct a_kernel *ak, uint32_t idx)
{
	if (2 * (ak->nlabels + 1) > ak->hash_cap) {
		uint32_t ncap = ak->hash_cap ? ak->hash_cap * 2 : 64;
		uint32_t *nh = calloc(ncap, sizeof(*nh));

		if (!nh)
			return WG_ENOMEM;
		free(ak->hash);
		ak->hash = nh;
		ak->hash_cap = ncap;
		for (uint32_t j = 0; j < ak->nlabels; j++)
			if (j != idx)
				label_hash_insert(ak, j);
	}
	uint32_t mask = ak->hash_cap - 1;

	for (uint32_t i = name_hash(ak->labels[idx].name) & mask;; i = (i + 1) & mask) {
		if (!ak->hash[i]) {
			ak->hash[i] = idx + 1;
			return 0;
		}
	}
}

static void kernel_state_free(struct a_kernel *ak)
{
	if (!ak)
		return;
	free(ak->k.params);
	free(ak->k.labels);
	free(ak->k.code);
	free(ak->insns);
	free(ak->bras);
	free(ak->labels);
	free(ak->hash);
	free(ak);
}

static int grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	uint32_t ncap = *cap ? *cap * 2 : 16;

	while (ncap < need)
		ncap *= 2;
	void *p = realloc(*arr, (size_t)ncap * elem);

	if (!p)
		return WG_ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static void define_label(struct actx *a, char *name, char *end)
{
	struct a_kernel *ak = a->cur;
	size_t len = (size_t)(end - name);
	char saved = *end;
	struct a_label *l, *prev;

	*end = 0;
	if (!is_ident(name)) {
		err(a, name, "bad label name '%s', expected [A-Za-z_.$][A-Za-z0-9_.$]*", name);
		goto out;
	}
	if (len >= WG_NAME_MAX) {
		err(a, name, "label name of %zu characters, expected at most %d", len, WG_NAME_MAX - 1);
		goto out;
	}
	if (!ak) {
		err(a, name, "label '%s' outside a kernel, expected .kernel first", name);
		goto out;
	}
	prev = label_find(ak, name);
	if (prev) {
		err(a, name, "duplicate label '%s' (first defined at line %u), expected a new name", name,
		    prev->line);
		goto out;
	}
	if (ak->too_long)
		goto out; /* reported when the instruction count overflowed */
	if (grow((void **)&ak->labels, &ak->cap_labels, ak->nlabels + 1, sizeof(*ak->labels))) {
		out_of_memory(a);
		goto out;
	}
	l = &ak->labels[ak->nlabels];
	memset(l, 0, sizeof(*l));
	memcpy(l->name, name, len);
	l->pc = ak->ninsns;
	l->line = a->lineno;
	l->col = col_of(a, name);
	if (label_hash_insert(ak, ak->nlabels)) {
		out_of_memory(a);
		goto out;
	}
	ak->nlabels++;
out:
	*end = saved;
}

static int cmp_label_pc(const void *x, const void *y)
{
	const struct wg_label *l = x, *r = y;

	if (l->pc != r->pc)
		return l->pc < r->pc ? -1 : 1;
	return strcmp(l->name, r->name);
}

static void ref_text(const struct a_kernel *ak, uint32_t pc, char *buf, size_t len)
{
	if (pc == WG_RECONV_NONE) {
		snprintf(buf, len, "none");
		return;
	}
	for (uint32_t i = 0; i < ak->nlabels; i++) {
		if (ak->labels[i].pc == pc) {
			snprintf(buf, len, "pc %u ('%s')", pc, ak->labels[i].name);
			return;
		}
	}
	snprintf(buf, len, "pc %u", pc);
}

/* Resolve a branch reference; -1 after reporting an error. */
static int resolve_ref(struct actx *a, struct a_kernel *ak, struct ref *r, const char *what, uint32_t *pc)
{
	uint32_t n = ak->ninsns;

	switch (r->kind) {
	case REF_NOWHERE:
		*pc = WG_RECONV_NONE;
		return 0;
	case REF_PC:
		if (r->pc >= n) {
			error_at(a, r->line, r->col, "%s %u beyond the kernel's %u instructions, expected 0..%u", what,
				 r->pc, n, n - 1);
			return -1;
		}
		*pc = r->pc;
		return 0;
	case REF_LABEL: {
		struct a_label *l = label_find(ak, r->name);

		if (!l) {
			error_at(a, r->line, r->col, "undefined label '%s', expected a label of kernel '%s'", r->name,
				 ak->k.name);
			return -1;
		}
		if (l->pc >= n) {
			error_at(a, r->line, r->col,
				 "label '%s' is past the last instruction, expected a label on an instruction", r->name);
			return -1;
		}
		*pc = l->pc;
		return 0;
	}
	default:
		return -1;
	}
}

static void finish_kernel(struct actx *a)
{
	struct a_kernel *ak = a->cur;
	uint32_t *rc = NULL, n, bad = 0;
	struct wg_kernel *kk;
	int ret;

	if (!ak)
		return;
	a->cur = NULL;
	n = ak->ninsns;
	if (a->stop)
		goto out;
	if (!ak->have_regs && !ak->regs_reported)
		error_at(a, ak->line, ak->col, "kernel '%s' has no .regs, expected .regs N (1..63)", ak->k.name);
	if (!n) {
		error_at(a, ak->line, ak->col, "kernel '%s' has no instructions, expected at least one (EXIT)",
			 ak->k.name);
		goto out;
	}
	for (uint32_t i = 0; i < ak->nbras; i++) {
		struct a_bra *br = &ak->bras[i];
		struct wg_insn *in = &ak->insns[br->pc].in;
		uint32_t pc;

		if (!resolve_ref(a, ak, &br->target, "branch target", &pc))
			in->b = pc;
		if (br->reconv.kind != REF_NONE && !resolve_ref(a, ak, &br->reconv, "reconvergence pc", &pc))
			in->reconv = pc;
	}
	if (a->nerrors > ak->nerr_start || a->stop)
		goto out;

	ak->k.code = malloc(n * sizeof(*ak->k.code));
	rc = malloc(n * sizeof(*rc));
	if (!ak->k.code || !rc) {
		out_of_memory(a);
		goto out;
	}
	for (uint32_t pc = 0; pc < n; pc++)
		ak->k.code[pc] = wg_isa_encode(&ak->insns[pc].in);
	ret = wg_asm_reconv(ak->k.code, n, rc, &bad);
	if (ret == WG_ESYNTAX) {
		error_at(a, ak->insns[bad].line, ak->insns[bad].col,
			 "kernel '%s' can fall through past its last instruction, expected an unguarded EXIT or BRA at the end",
			 ak->k.name);
		goto out;
	}
	if (ret) {
		if (ret == WG_ENOMEM)
			out_of_memory(a);
		else
			error_at(a, ak->insns[bad].line, ak->insns[bad].col, "cannot analyse the control flow of kernel '%s'",
				 ak->k.name);
		goto out;
	}
	for (uint32_t i = 0; i < ak->nbras; i++) {
		struct a_bra *br = &ak->bras[i];
		struct wg_insn *in = &ak->insns[br->pc].in;

		if (br->reconv.kind == REF_NONE) {
			in->reconv = rc[br->pc];
		} else if (in->reconv != rc[br->pc]) {
			char given[WG_NAME_MAX + 24], ipd[WG_NAME_MAX + 24];

			ref_text(ak, in->reconv, given, sizeof(given));
			ref_text(ak, rc[br->pc], ipd, sizeof(ipd));
			warn_at(a, br->reconv.line, br->reconv.col,
				"reconvergence point %s differs from the immediate post-dominator %s, using %s", given, ipd,
				given);
		}
		ak->k.code[br->pc] = wg_isa_encode(in);
	}

	/* Labels sorted by pc, then name. */
	if (ak->nlabels) {
		ak->k.labels = calloc(ak->nlabels, sizeof(*ak->k.labels));
		if (!ak->k.labels) {
			out_of_memory(a);
			goto out;
		}
		for (uint32_t i = 0; i < ak->nlabels; i++) {
			memcpy(ak->k.labels[i].name, ak->labels[i].name, WG_NAME_MAX);
			ak->k.labels[i].pc = ak->labels[i].pc;
		}
		qsort(ak->k.labels, ak->nlabels, sizeof(*ak->k.labels), cmp_label_pc);
		ak->k.nlabels = ak->nlabels;
	}
	ak->k.ninsns = n;

	kk = realloc(a->img->kernels, (a->img->nkernels + 1) * sizeof(*kk));
	if (!kk) {
		out_of_memory(a);
		goto out;
	}
	a->img->kernels = kk;
	kk[a->img->nkernels++] = ak->k;
	memset(&ak->k, 0, sizeof(ak->k)); /* now owned by the image */
out:
	free(rc);
	kernel_state_free(ak);
}

/* ------------------------------------------------------------------------ */
/* Directives                                                               */

/* The rest of the line must be empty. */
static int expect_eol(struct actx *a, char *p, const char *after)
{
	p = skip_ws(p);
	if (*p)
		return err(a, p, "unexpected '%s' after %s, expected end of line", p, after);
	return 0;
}

/* An integer argument token in [lo, hi]; *pp advanced past it. */
static int dir_uint(struct actx *a, char **pp, const char *dir, int64_t lo, int64_t hi, int64_t *v)
{
	char *p = skip_ws(*pp), *e = p, saved;
	uint32_t fb;
	enum num_kind k;

	while (*e && !is_ws((unsigned char)*e))
		e++;
	if (e == p)
		return err(a, p, "missing value after %s, expected an integer %lld..%lld", dir, (long long)lo,
			   (long long)hi);
	saved = *e;
	*e = 0;
	k = lex_number(p, v, &fb);
	if (k != NUM_INT) {
		err(a, p, "bad value '%s' for %s, expected an integer %lld..%lld", p, dir, (long long)lo,
		    (long long)hi);
		*e = saved;
		return -1;
	}
	if (*v < lo || *v > hi) {
		err(a, p, "value '%s' for %s out of range, expected %lld..%lld", p, dir, (long long)lo,
		    (long long)hi);
		*e = saved;
		return -1;
	}
	*e = saved;
	*pp = e;
	return 0;
}

static int need_kernel(struct actx *a, char *p, const char *dir)
{
	if (!a->cur)
		return err(a, p, "'%s' outside a kernel, expected .kernel first", dir);
	if (a->cur->code_started)
		return err(a, p, "'%s' after the first instruction of kernel '%s', expected it before the code", dir,
			   a->cur->k.name);
	return 0;
}

static void dir_kernel(struct actx *a, char *p)
{
	char *name = skip_ws(p), *e = word_end(name), saved;
	struct a_kernel *ak;
	size_t len = (size_t)(e - name);
	int bad = 0, errs_before;

	finish_kernel(a);
	if (a->stop)
		return;
	errs_before = a->nerrors; /* any error on this line taints the kernel */
	if (!len && !*e) {
		err(a, name, "missing kernel name, expected .kernel NAME");
		bad = 1;
	} else if (!len || (*e && !is_ws((unsigned char)*e))) {
		err(a, e, "bad character '%c' in the kernel name, expected [A-Za-z_.$][A-Za-z0-9_.$]*", *e);
		bad = 1;
	}
	saved = *e;
	*e = 0;
	if (!bad && !is_ident(name)) {
		err(a, name, "bad kernel name '%s', expected [A-Za-z_.$][A-Za-z0-9_.$]*", name);
		bad = 1;
	}
	if (!bad && len >= WG_NAME_MAX) {
		err(a, name, "kernel name of %zu characters, expected at most %d", len, WG_NAME_MAX - 1);
		bad = 1;
	}
	if (!bad) {
		for (uint32_t i = 0; i < a->nknames; i++) {
			if (!strcmp(a->knames[i].name, name)) {
				err(a, name, "duplicate kernel '%s' (first defined at line %u), expected a new name", name,
				    a->knames[i].line);
				break;
			}
		}
	}
	ak = calloc(1, sizeof(*ak));
	if (!ak) {
		*e = saved;
		out_of_memory(a);
		return;
	}
	if (!bad)
		memcpy(ak->k.name, name, len);
	else
		strcpy(ak->k.name, "?");
	ak->line = a->lineno;
	ak->col = col_of(a, name);
	ak->nerr_start = errs_before;
	ak->k.regs = WG_NUM_GPR;
	a->cur = ak;
	if (!bad) {
		struct kname *kn = realloc(a->knames, (a->nknames + 1) * sizeof(*kn));

		if (!kn) {
			*e = saved;
			out_of_memory(a);
			return;
		}
		a->knames = kn;
		memset(&kn[a->nknames], 0, sizeof(*kn));
		memcpy(kn[a->nknames].name, name, len);
		kn[a->nknames++].line = a->lineno;
	}
	*e = saved;
	if (!bad)
		expect_eol(a, e, ".kernel NAME");
}

static void dir_param(struct actx *a, char *dir, char *p)
{
	struct a_kernel *ak = a->cur;
	char *t = skip_ws(p), *te = word_end(t), *name, *ne, tsaved, nsaved;
	int64_t count = 1;
	int type;

	if (need_kernel(a, dir, ".param"))
		return;
	if (te == t)
		goto bad_type;
	tsaved = *te;
	*te = 0;
	type = wg_ptype_find(t);
	*te = tsaved;
	if (type < 0)
		goto bad_type;
	p = te;
	if (*p == '[') {
		char *c = skip_ws(p + 1), *ce = c, csaved;
		uint32_t fb;

		while (*ce && *ce != ']' && !is_ws((unsigned char)*ce))
			ce++;
		csaved = *ce;
		*ce = 0;
		if (lex_number(c, &count, &fb) != NUM_INT || count < 1 || count > 4096) {
			err(a, c, "bad array length '%s', expected an integer 1..4096", c);
			*ce = csaved;
			return;
		}
		*ce = csaved;
		p = skip_ws(ce);
		if (*p != ']') {
			err(a, p, "missing ']' in the parameter type, expected TYPE[N]");
			return;
		}
		p++;
	}
	if (*p && !is_ws((unsigned char)*p))
		goto bad_type;
	name = skip_ws(p);
	ne = word_end(name);
	if (ne == name) {
		err(a, name, "missing parameter name, expected .param TYPE NAME");
		return;
	}
	if (*ne && !is_ws((unsigned char)*ne)) {
		err(a, ne, "bad character '%c' in the parameter name, expected [A-Za-z0-9_.$]", *ne);
		return;
	}
	nsaved = *ne;
	*ne = 0;
	if (!is_ident(name)) {
		err(a, name, "bad parameter name '%s', expected [A-Za-z_.$][A-Za-z0-9_.$]*", name);
	} else if ((size_t)(ne - name) >= WG_NAME_MAX) {
		err(a, name, "parameter name of %zu characters, expected at most %d", (size_t)(ne - name),
		    WG_NAME_MAX - 1);
	} else if (wg_kernel_find_param(&ak->k, name)) {
		err(a, name, "duplicate parameter '%s', expected a new name", name);
	} else {
		int ret = wg_kernel_add_param(&ak->k, name, (unsigned)type, (uint32_t)count);

		if (ret == WG_ENOMEM)
			out_of_memory(a);
		else if (ret)
			err(a, t, "parameter '%s' overflows the parameter buffer, expected at most 4096 bytes in all",
			    name);
	}
	*ne = nsaved;
	expect_eol(a, ne, ".param TYPE NAME");
	return;
bad_type:
	err(a, t, "bad parameter type, expected u8 s8 u16 s16 u32 s32 f32 u64 s64 f64 ptr or an array like u8[16]");
}

static void parse_directive(struct actx *a, char *p)
{
	char *e = word_end(p), saved = *e;
	int64_t v;

	*e = 0;
	if (!strcasecmp(p, ".kernel")) {
		*e = saved;
		if (*e && !is_ws((unsigned char)*e)) {
			err(a, e, "unexpected '%c' after .kernel, expected a space and a kernel name", *e);
			return;
		}
		dir_kernel(a, e);
	} else if (!strcasecmp(p, ".regs")) {
		*e = saved;
		if (need_kernel(a, p, ".regs"))
			return;
		if (a->cur->have_regs) {
			err(a, p, "second .regs in kernel '%s', expected one", a->cur->k.name);
			return;
		}
		if (dir_uint(a, &e, ".regs", 1, WG_NUM_GPR, &v))
			return;
		a->cur->have_regs = 1;
		a->cur->k.regs = (uint32_t)v;
		expect_eol(a, e, ".regs N");
	} else if (!strcasecmp(p, ".shared") || !strcasecmp(p, ".local")) {
		int is_shared = p[1] == 's' || p[1] == 'S';
		const char *dir = is_shared ? ".shared" : ".local";

		*e = saved;
		if (need_kernel(a, p, dir))
			return;
		if (is_shared ? a->cur->have_shared : a->cur->have_local) {
			err(a, p, "second %s in kernel '%s', expected one", dir, a->cur->k.name);
			return;
		}
		if (dir_uint(a, &e, dir, 0, UINT32_MAX, &v))
			return;
		if (is_shared) {
			a->cur->have_shared = 1;
			a->cur->k.shared_bytes = (uint32_t)v;
		} else {
			a->cur->have_local = 1;
			a->cur->k.local_bytes = (uint32_t)v;
		}
		expect_eol(a, e, is_shared ? ".shared N" : ".local N");
	} else if (!strcasecmp(p, ".param")) {
		*e = saved;
		dir_param(a, p, e);
	} else {
		err(a, p, "unknown directive '%s', expected .kernel, .regs, .shared, .local or .param", p);
		*e = saved;
	}
}

/* ------------------------------------------------------------------------ */
/* Operands                                                                 */

static const char *const fmt_syntax[WG_FMT_COUNT] = {
	[WG_FMT_N] = "no operands",
	[WG_FMT_RB] = "Rd, B",
	[WG_FMT_RA] = "Rd, Ra",
	[WG_FMT_RAB] = "Rd, Ra, B",
	[WG_FMT_RABC] = "Rd, Ra, B, Rc",
	[WG_FMT_SEL] = "Rd, Ra, B, [!]Pc",
	[WG_FMT_SETP] = "Pd, Ra, B",
	[WG_FMT_PLOP] = "Pd, [!]Pa, [!]Pc",
	[WG_FMT_S2R] = "Rd, SR_name",
	[WG_FMT_LD] = "Rd, [Ra+imm]",
	[WG_FMT_ST] = "[Ra+imm], Rc",
	[WG_FMT_ATOM] = "Rd, [Ra], B",
	[WG_FMT_CAS] = "Rd, [Ra], B, Rc",
	[WG_FMT_BRA] = "target[, reconv]",
	[WG_FMT_BAR] = "a barrier id 0..15",
};

static const uint8_t fmt_nops[WG_FMT_COUNT] = {
	[WG_FMT_N] = 0,    [WG_FMT_RB] = 2,   [WG_FMT_RA] = 2,   [WG_FMT_RAB] = 3,  [WG_FMT_RABC] = 4,
	[WG_FMT_SEL] = 4,  [WG_FMT_SETP] = 3, [WG_FMT_PLOP] = 3, [WG_FMT_S2R] = 2,  [WG_FMT_LD] = 2,
	[WG_FMT_ST] = 2,   [WG_FMT_ATOM] = 3, [WG_FMT_CAS] = 4,  [WG_FMT_BRA] = 2,  [WG_FMT_BAR] = 1,
};

/* A general register, or a group of n for vector accesses. */
static int op_gpr(struct actx *a, struct opnd *o, unsigned n, uint8_t *out)
{
	unsigned r, regs = a->cur->k.regs;

	if (!gpr_syntax(o->t, &r))
		return err(a, o->t, "bad operand '%s', expected a register R0..R62 or RZ", o->t);
	if (r > WG_NUM_GPR - 1 && r != WG_REG_RZ)
		return err(a, o->t, "register '%s' out of range, expected R0..R62 or RZ", o->t);
	if (r == WG_REG_RZ && (o->t[1] == 'Z' || o->t[1] == 'z')) {
		*out = WG_REG_RZ;
		return 0;
	}
	if (r == WG_REG_RZ)
		return err(a, o->t, "register '%s' out of range, expected R0..R62 or RZ", o->t);
	if (n > 1 && r % n)
		return err(a, o->t, "register group R%u..R%u is misaligned, expected %s register", r, r + n - 1,
			   n == 2 ? "an even" : "a multiple-of-4");
	if (r + n - 1 > WG_NUM_GPR - 1)
		return err(a, o->t, "register group R%u..R%u runs past R62, expected a group within R0..R62", r,
			   r + n - 1);
	if (r + n > regs) {
		if (n > 1)
			return err(a, o->t, "register group R%u..R%u beyond the kernel's .regs %u, expected R0..R%u",
				   r, r + n - 1, regs, regs - 1);
		return err(a, o->t, "register R%u beyond the kernel's .regs %u, expected R0..R%u or RZ", r, regs,
			   regs - 1);
	}
	*out = (uint8_t)r;
	return 0;
}

/* A predicate, optionally negated with '!' when allow_neg; returns neg<<3 | number. */
static int op_pred(struct actx *a, struct opnd *o, int allow_neg, uint8_t *out)
{
	const char *t = o->t;
	unsigned p, neg = 0;

	if (*t == '!' && allow_neg) {
		neg = 1;
		t++;
	}
	if (!pred_syntax(t, &p))
		return err(a, o->t, "bad operand '%s', expected a predicate %sP0..P6 or PT", o->t,
			   allow_neg ? "[!]" : "");
	if (p > WG_PRED_PT || (p == WG_PRED_PT && !(t[1] == 'T' || t[1] == 't')))
		return err(a, o->t, "predicate '%s' out of range, expected P0..P6 or PT", o->t);
	*out = (uint8_t)(neg << 3 | p);
	return 0;
}

/* A 32-bit immediate: integer in -2^31..2^32-1, or (allow_float) an FP32 literal. */
static int imm32(struct actx *a, const char *t, int allow_float, uint32_t *out)
{
	int64_t v;
	uint32_t fb;

	switch (lex_number(t, &v, &fb)) {
	case NUM_INT:
		if (v < -(int64_t)0x80000000 || v > (int64_t)0xFFFFFFFF)
			return err(a, t, "immediate '%s' out of range, expected -2147483648..4294967295", t);
		*out = (uint32_t)v;
		return 0;
	case NUM_FLOAT:
		if (!allow_float)
			return err(a, t, "FP32 literal '%s' here, expected an integer", t);
		*out = fb;
		return 0;
	case NUM_FLOAT_RANGE:
		return err(a, t, "FP32 literal '%s' out of range, expected a finite binary32 value, inf or nan", t);
	default:
		return err(a, t, "bad immediate '%s', expected a decimal, hex (0x..) or FP32 literal (1.5, -2e-3, inf, nan)",
			   t);
	}
}

/* Operand B: register or 32-bit immediate. */
static int op_b(struct actx *a, struct opnd *o, struct wg_insn *in)
{
	unsigned r;
	uint8_t reg;

	if (gpr_syntax(o->t, &r)) {
		if (op_gpr(a, o, 1, &reg))
			return -1;
		in->bimm = 0;
		in->b = reg;
		return 0;
	}
	if (!is_digit((unsigned char)o->t[0]) && o->t[0] != '-' && o->t[0] != '+' && strcasecmp(o->t, "inf") &&
	    strcasecmp(o->t, "nan"))
		return err(a, o->t, "bad operand '%s', expected a register R0..R62/RZ or an immediate", o->t);
	if (imm32(a, o->t, 1, &in->b))
		return -1;
	in->bimm = 1;
	return 0;
}

/*
 * Memory operand: '[' [Ra] {(+|-) term} ']' where a term is an integer or,
 * when params is set (LDC), a parameter name standing for its offset.
 */
static int op_mem(struct actx *a, struct opnd *o, int allow_off, int params, const char *mn, uint8_t *base,
		  uint32_t *off)
{
	char *t = o->t, *p, *close;
	size_t len = strlen(t);
	int64_t sum = 0;
	int first = 1, has_base = 0;

	if (t[0] != '[' || t[len - 1] != ']')
		return err(a, t, "bad memory operand '%s', expected %s", t,
			   allow_off ? "[Ra], [Ra+imm], [Ra-imm] or [imm]" : "[Ra]");
	close = t + len - 1;
	*close = 0;
	*base = WG_REG_RZ;
	p = skip_ws(t + 1);
	if (!*p) {
		*close = ']';
		return err(a, t, "empty memory operand '[]', expected %s", allow_off ? "[Ra+imm]" : "[Ra]");
	}
	while (*p) {
		int neg = 0;
		char *w, *we, saved;
		unsigned r;

		if (*p == '+' || *p == '-') {
			neg = *p == '-';
			p = skip_ws(p + 1);
		} else if (!first) {
			err(a, p, "unexpected '%c' in memory operand, expected '+', '-' or ']'", *p);
			goto fail;
		}
		w = p;
		we = word_end(w);
		if (we == w) {
			err(a, w, "unexpected '%c' in memory operand, expected a register, offset%s", *w ? *w : ']',
			    params ? " or parameter name" : "");
			goto fail;
		}
		saved = *we;
		*we = 0;
		if (gpr_syntax(w, &r)) {
			struct opnd ro = { .t = w, .col = o->col };

			if (!first || neg) {
				err(a, w, "register '%s' in an address offset, expected an integer%s", w,
				    params ? " or a parameter name" : "");
				*we = saved;
				goto fail;
			}
			if (op_gpr(a, &ro, 1, base)) {
				*we = saved;
				goto fail;
			}
			has_base = 1;
		} else if (!allow_off) {
			err(a, w, "address offset '%s' for %s, expected [Ra]", w, mn);
			*we = saved;
			goto fail;
		} else if (is_digit((unsigned char)*w)) {
			int64_t v;
			uint32_t fb;

			if (lex_number(w, &v, &fb) != NUM_INT) {
				err(a, w, "bad address offset '%s', expected an integer", w);
				*we = saved;
				goto fail;
			}
			sum += neg ? -v : v;
		} else if (params) {
			const struct wg_param *pa = wg_kernel_find_param(&a->cur->k, w);

			if (!pa) {
				err(a, w, "unknown parameter '%s', expected a parameter of kernel '%s'", w, a->cur->k.name);
				*we = saved;
				goto fail;
			}
			sum += neg ? -(int64_t)pa->offset : (int64_t)pa->offset;
		} else {
			err(a, w, "bad address offset '%s', expected an integer", w);
			*we = saved;
			goto fail;
		}
		if (sum < -(int64_t)0x80000000 || sum > (int64_t)0xFFFFFFFF) {
			err(a, w, "address offset out of range, expected -2147483648..4294967295");
			*we = saved;
			goto fail;
		}
		*we = saved;
		p = skip_ws(we);
		first = 0;
	}
	*close = ']';
	if (!allow_off && !has_base)
		return err(a, t, "memory operand '%s' for %s, expected [Ra]", t, mn);
	*off = (uint32_t)sum;
	return 0;
fail:
	*close = ']';
	return -1;
}

/* Branch target or reconvergence reference. */
static int op_ref(struct actx *a, struct opnd *o, int allow_none, struct ref *r)
{
	const char *what = allow_none ? "reconvergence point" : "branch target";

	memset(r, 0, sizeof(*r));
	r->line = a->lineno;
	r->col = o->col;
	if (is_digit((unsigned char)o->t[0])) {
		int64_t v;
		uint32_t fb;

		if (lex_number(o->t, &v, &fb) != NUM_INT)
			return err(a, o->t, "bad %s '%s', expected a label or a pc", what, o->t);
		if (v >= WG_PC_MAX)
			return err(a, o->t, "%s %s out of range, expected a pc below %u", what, o->t, WG_PC_MAX);
		r->kind = REF_PC;
		r->pc = (uint32_t)v;
		return 0;
	}
	if (allow_none && !strcasecmp(o->t, "none")) {
		r->kind = REF_NOWHERE;
		return 0;
	}
	if (!is_ident(o->t))
		return err(a, o->t, "bad %s '%s', expected a label or a pc%s", what, o->t, allow_none ? " or none" : "");
	if (strlen(o->t) >= WG_NAME_MAX)
		return err(a, o->t, "label name of %zu characters, expected at most %d", strlen(o->t), WG_NAME_MAX - 1);
	r->kind = REF_LABEL;
	strcpy(r->name, o->t);
	return 0;
}

static int op_sreg(struct actx *a, struct opnd *o, uint32_t *out)
{
	int sr = wg_sreg_find(o->t);

	if (sr < 0)
		return err(a, o->t, "unknown special register '%s', expected SR_TID.X .. SR_CLOCKHI (docs/isa.md section 5)",
			   o->t);
	*out = (uint32_t)sr;
	return 0;
}

/* Operands of one instruction, by format; o[] holds exactly the format's count (BRA: 1 or 2). */
static int parse_operands(struct actx *a, const struct wg_isa_entry *e, struct opnd *o, struct wg_insn *in,
			  struct a_bra *br)
{
	unsigned n = wg_width_regs(e->mod);
	uint32_t zero;
	int64_t v;

	switch (e->fmt) {
	case WG_FMT_N:
		return 0;
	case WG_FMT_RB:
		if (op_gpr(a, &o[0], 1, &in->rd))
			return -1;
		return op_b(a, &o[1], in);
	case WG_FMT_RA:
		if (op_gpr(a, &o[0], 1, &in->rd))
			return -1;
		return op_gpr(a, &o[1], 1, &in->ra);
	case WG_FMT_RAB:
	case WG_FMT_RABC:
	case WG_FMT_SEL:
		if (op_gpr(a, &o[0], 1, &in->rd) || op_gpr(a, &o[1], 1, &in->ra) || op_b(a, &o[2], in))
			return -1;
		if (e->fmt == WG_FMT_RABC)
			return op_gpr(a, &o[3], 1, &in->rc);
		if (e->fmt == WG_FMT_SEL)
			return op_pred(a, &o[3], 1, &in->rc);
		return 0;
	case WG_FMT_SETP:
		if (op_pred(a, &o[0], 0, &in->rd) || op_gpr(a, &o[1], 1, &in->ra))
			return -1;
		return op_b(a, &o[2], in);
	case WG_FMT_PLOP:
		if (op_pred(a, &o[0], 0, &in->rd) || op_pred(a, &o[1], 1, &in->ra))
			return -1;
		return op_pred(a, &o[2], 1, &in->rc);
	case WG_FMT_S2R:
		if (op_gpr(a, &o[0], 1, &in->rd))
			return -1;
		return op_sreg(a, &o[1], &in->b);
	case WG_FMT_LD:
		if (op_gpr(a, &o[0], n, &in->rd))
			return -1;
		return op_mem(a, &o[1], 1, e->op == WG_OP_LDC, e->mnemonic, &in->ra, &in->b);
	case WG_FMT_ST:
		if (op_mem(a, &o[0], 1, 0, e->mnemonic, &in->ra, &in->b))
			return -1;
		return op_gpr(a, &o[1], n, &in->rc);
	case WG_FMT_ATOM:
	case WG_FMT_CAS:
		if (op_gpr(a, &o[0], 1, &in->rd) || op_mem(a, &o[1], 0, 0, e->mnemonic, &in->ra, &zero) ||
		    op_b(a, &o[2], in))
			return -1;
		return e->fmt == WG_FMT_CAS ? op_gpr(a, &o[3], 1, &in->rc) : 0;
	case WG_FMT_BRA:
		if (op_ref(a, &o[0], 0, &br->target))
			return -1;
		return o[1].t ? op_ref(a, &o[1], 1, &br->reconv) : 0;
	case WG_FMT_BAR:
		if (lex_number(o[0].t, &v, &zero) != NUM_INT || v < 0 || v >= WG_NUM_BARRIERS)
			return err(a, o[0].t, "bad barrier id '%s', expected an integer 0..15", o[0].t);
		in->b = (uint32_t)v;
		return 0;
	default:
		return err(a, o[0].t ? o[0].t : a->line, "unsupported instruction format %u", e->fmt);
	}
}

/* ------------------------------------------------------------------------ */
/* Instructions                                                             */

static void parse_insn(struct actx *a, char *p)
{
	struct a_kernel *ak = a->cur;
	struct opnd ops[8];
	unsigned nops = 0, want;
	const struct wg_isa_entry *e;
	struct wg_insn in;
	struct a_bra br;
	char *mn, *me, *guard = NULL, msaved;
	uint8_t gp = WG_PRED_PT, gneg = 0;
	char why[160];

	if (*p == '@') {
		char *g = p + 1, *ge;
		unsigned pr;

		guard = p;
		if (*g == '!') {
			gneg = 1;
			g++;
		}
		ge = word_end(g);
		msaved = *ge;
		*ge = 0;
		if (!pred_syntax(g, &pr) || pr > WG_PRED_PT ||
		    (pr == WG_PRED_PT && g[1] != 'T' && g[1] != 't')) {
			err(a, p, "bad guard '%s', expected @P0..@P6, @PT or a negated form such as @!P0", p);
			*ge = msaved;
			return;
		}
		*ge = msaved;
		gp = (uint8_t)pr;
		if (*ge && !is_ws((unsigned char)*ge)) {
			err(a, ge, "unexpected '%c' after the guard, expected a space and an instruction", *ge);
			return;
		}
		p = skip_ws(ge);
		if (!*p) {
			err(a, p, "guard without an instruction, expected an instruction after '%s'", guard);
			return;
		}
	}
	mn = p;
	me = word_end(mn);
	if (me == mn) {
		err(a, mn, "unexpected '%c', expected an instruction, a label or a directive", *mn);
		return;
	}
	if (*me && !is_ws((unsigned char)*me)) {
		err(a, me, "unexpected '%c' after the mnemonic, expected a space", *me);
		return;
	}
	msaved = *me;
	*me = 0;
	if (!ak) {
		err(a, guard ? guard : mn, "instruction outside a kernel, expected .kernel first");
		*me = msaved;
		return;
	}
	e = wg_isa_find(mn);
	if (!e) {
		err(a, mn, "unknown mnemonic '%s', expected an instruction of docs/isa.md section 9", mn);
		*me = msaved;
		return;
	}
	*me = msaved;
	if (!ak->have_regs && !ak->regs_reported) {
		err(a, guard ? guard : mn, "missing .regs in kernel '%s', expected .regs N before the first instruction",
		    ak->k.name);
		ak->regs_reported = 1;
	}
	ak->code_started = 1;
	if (ak->ninsns >= WG_PC_MAX - 1) {
		if (!ak->too_long)
			err(a, mn, "kernel '%s' has too many instructions, expected at most %u", ak->k.name,
			    WG_PC_MAX - 1);
		ak->too_long = 1;
		return;
	}

	/* Split the operands at commas. */
	p = skip_ws(me);
	memset(ops, 0, sizeof(ops));
	while (*p) {
		char *s = p, *c = strchr(p, ','), *end;

		end = c ? c : p + strlen(p);
		while (end > s && is_ws((unsigned char)end[-1]))
			end--;
		if (end == s) {
			err(a, s, "empty operand, expected %s", fmt_syntax[e->fmt]);
			return;
		}
		if (nops < sizeof(ops) / sizeof(ops[0])) {
			ops[nops].t = s;
			ops[nops].col = col_of(a, s);
		}
		nops++;
		*end = 0;
		if (!c)
			break;
		p = skip_ws(c + 1);
		if (!*p) {
			err(a, c, "trailing ',', expected another operand: %s", fmt_syntax[e->fmt]);
			return;
		}
	}
	want = fmt_nops[e->fmt];
	if (nops > want || (nops < want && !(e->fmt == WG_FMT_BRA && nops == 1))) {
		char exp[64];

		if (!want)
			snprintf(exp, sizeof(exp), "no operands");
		else
			snprintf(exp, sizeof(exp), "%s%u: %s", e->fmt == WG_FMT_BRA ? "1 or " : "", want,
				 fmt_syntax[e->fmt]);
		err(a, nops > want ? ops[want].t : mn, "%s has %u operand%s, expected %s", e->mnemonic, nops,
		    nops == 1 ? "" : "s", exp);
		return;
	}

	wg_insn_init(&in, e);
	in.gp = gp;
	in.gneg = gneg;
	memset(&br, 0, sizeof(br));
	if (parse_operands(a, e, ops, &in, &br))
		return;
	if (e->fmt != WG_FMT_BRA) {
		struct wg_insn chk;
		uint64_t w = wg_isa_encode(&in);

		if (wg_isa_decode(w, &chk, why, sizeof(why)) ||
		    wg_isa_check_regs(&chk, ak->k.regs, why, sizeof(why))) {
			err(a, mn, "illegal instruction (%s), expected a valid %s", why, e->mnemonic);
			return;
		}
	}
	if (grow((void **)&ak->insns, &ak->cap_insns, ak->ninsns + 1, sizeof(*ak->insns))) {
		out_of_memory(a);
		return;
	}
	if (e->fmt == WG_FMT_BRA) {
		if (grow((void **)&ak->bras, &ak->cap_bras, ak->nbras + 1, sizeof(*ak->bras))) {
			out_of_memory(a);
			return;
		}
		br.pc = ak->ninsns;
		ak->bras[ak->nbras++] = br;
	}
	ak->insns[ak->ninsns].in = in;
	ak->insns[ak->ninsns].line = a->lineno;
	ak->insns[ak->ninsns].col = col_of(a, guard ? guard : mn);
	ak->ninsns++;
}

/* ------------------------------------------------------------------------ */
/* Lines                                                                    */

static void parse_line(struct actx *a, char *s)
{
	char *p;

	a->line = s;
	for (p = s; *p; p++) {
		if (*p == ';' || (p[0] == '/' && p[1] == '/')) {
			*p = 0;
			break;
		}
	}
	p = s;
	for (;;) {
		char *e, *c;

		p = skip_ws(p);
		if (!*p)
			return;
		if (!ident_char((unsigned char)*p))
			break;
		e = word_end(p);
		c = skip_ws(e);
		if (*c != ':')
			break;
		define_label(a, p, e);
		if (a->stop)
			return;
		p = c + 1;
	}
	if (*p == '.')
		parse_directive(a, p);
	else
		parse_insn(a, p);
}

int wg_asm_string(struct wg_image *img, const char *src, const char *filename, FILE *diag)
{
	struct actx a = { .file = filename ? filename : "<string>", .diag = diag, .img = img };
	char *buf = NULL;
	size_t cap = 0;
	const char *p;
	int ret = 0;

	if (!img || !src)
		return WG_EINVAL;
	img->nkernels = 0;
	img->kernels = NULL;
	for (p = src, a.lineno = 1; *p && !a.stop; a.lineno++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len + 1 > cap) {
			char *nb = realloc(buf, len + 1);

			if (!nb) {
				out_of_memory(&a);
				break;
			}
			buf = nb;
			cap = len + 1;
		}
		memcpy(buf, p, len);
		buf[len] = 0;
		parse_line(&a, buf);
		p += len;
		if (*p == '\n')
			p++;
	}
	finish_kernel(&a);
	if (!a.nerrors && !img->nkernels)
		error_at(&a, 1, 1, "no kernel in the source, expected a .kernel directive");
	if (a.nerrors) {
		wg_image_free(img);
		ret = a.oom ? WG_ENOMEM : WG_ESYNTAX;
	}
	free(buf);
	free(a.knames);
	return ret;
}

int wg_asm_file(struct wg_image *img, const char *path, FILE *diag)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f;
	int ret;

	if (!img || !path)
		return WG_EINVAL;
	img->nkernels = 0;
	img->kernels = NULL;
	f = fopen(path, "r");
	if (!f) {
		ret = errno == ENOENT ? WG_ENOENT : WG_EIO;
		if (diag)
			fprintf(diag, "%s: error: cannot open: %s\n", path, strerror(errno));
		return ret;
	}
	for (;;) {
		if (cap - len < 2) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, ncap);

			if (!nb) {
				ret = WG_ENOMEM;
				goto out;
			}
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + len, 1, cap - len - 1, f);

		len += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		if (diag)
			fprintf(diag, "%s: error: read error\n", path);
		ret = WG_EIO;
		goto out;
	}
	buf[len] = 0;
	if (memchr(buf, 0, len)) {
		const char *z = memchr(buf, 0, len), *ls = buf;
		unsigned line = 1;

		for (const char *q = buf; q < z; q++)
			if (*q == '\n') {
				line++;
				ls = q + 1;
			}
		if (diag)
			fprintf(diag, "%s:%u:%u: error: NUL byte in the source, expected text\n", path, line,
				(unsigned)(z - ls) + 1);
		ret = WG_ESYNTAX;
		goto out;
	}
	ret = wg_asm_string(img, buf, path, diag);
out:
	free(buf);
	fclose(f);
	return ret;
}
