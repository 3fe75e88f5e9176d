/*
 * PTX lexer and parser (docs/ptx.md section 2).
 *
 * The text is split into tokens (identifiers and dotted opcodes as one
 * token, numbers, punctuation), then parsed into module directives,
 * kernels (.entry) with their parameters, declarations and statements.
 * Anything the frontend does not support is an error naming the line and
 * the construct; parsing stops at the first error.
 */
#include "ptx.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "warpgate.h"

enum tkind { T_EOF, T_ID, T_NUM, T_STR, T_PUNCT };

struct tok {
	uint8_t kind;
	char punct;
	unsigned line;
	const char *s; /* start in the source */
	size_t len;
};

struct pctx {
	const char *src, *p;
	unsigned line;
	const char *file;
	FILE *diag;
	struct tok t; /* current token */
	int failed;
	int oom;
};

static int perr(struct pctx *c, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int perr(struct pctx *c, unsigned line, const char *fmt, ...)
{
	va_list ap;

	if (c->failed)
		return WG_ESYNTAX;
	c->failed = 1;
	if (c->diag) {
		fprintf(c->diag, "%s:%u: error: ", c->file, line);
		va_start(ap, fmt);
		vfprintf(c->diag, fmt, ap);
		va_end(ap);
		fputc('\n', c->diag);
	}
	return WG_ESYNTAX;
}

static int id_start(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '$' || ch == '%' ||
	       ch == '.';
}

static int id_char(int ch)
{
	return id_start(ch) || (ch >= '0' && ch <= '9');
}

/* Next token into c->t; lexical errors set c->failed. */
static void next(struct pctx *c)
{
	const char *p = c->p;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\f' || *p == '\v') {
			if (*p == '\n')
				c->line++;
			p++;
		}
		if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			unsigned start = c->line;

			p += 2;
			while (*p && !(p[0] == '*' && p[1] == '/')) {
				if (*p == '\n')
					c->line++;
				p++;
			}
			if (!*p) {
				perr(c, start, "unterminated comment");
				c->t.kind = T_EOF;
				c->p = p;
				return;
			}
			p += 2;
			continue;
		}
		break;
	}
	c->t.line = c->line;
	c->t.s = p;
	if (!*p) {
		c->t.kind = T_EOF;
		c->t.len = 0;
	} else if (id_start((unsigned char)*p)) {
		const char *q = p;

		while (id_char((unsigned char)*q))
			q++;
		c->t.kind = T_ID;
		c->t.len = (size_t)(q - p);
		p = q;
	} else if (*p >= '0' && *p <= '9') {
		const char *q = p;

		while (id_char((unsigned char)*q) ||
		       ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E') && !(p[0] == '0' && (p[1] == 'x' ||
			p[1] == 'X' || p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D'))))
			q++;
		c->t.kind = T_NUM;
		c->t.len = (size_t)(q - p);
		p = q;
	} else if (*p == '"') {
		const char *q = p + 1;

		while (*q && *q != '"' && *q != '\n')
			q++;
		if (*q != '"') {
			perr(c, c->line, "unterminated string");
			c->t.kind = T_EOF;
			c->p = q;
			return;
		}
		c->t.kind = T_STR;
		c->t.len = (size_t)(q + 1 - p);
		p = q + 1;
	} else {
		c->t.kind = T_PUNCT;
		c->t.punct = *p;
		c->t.len = 1;
		if (!strchr("{}()[],;+-!@<>|:=", *p)) {
			unsigned char ch = (unsigned char)*p;

			if (ch >= 0x20 && ch < 0x7f)
				perr(c, c->line, "unexpected character '%c'", ch);
			else
				perr(c, c->line, "unexpected byte 0x%02x", ch);
			c->t.kind = T_EOF;
		}
		p++;
	}
	c->p = p;
}

static int is_punct(const struct pctx *c, char ch)
{
	return c->t.kind == T_PUNCT && c->t.punct == ch;
}

static int is_word(const struct pctx *c, const char *w)
{
	return c->t.kind == T_ID && c->t.len == strlen(w) && !memcmp(c->t.s, w, c->t.len);
}

/* Token text for messages (at most 60 characters). */
static const char *ttext(const struct pctx *c, char *buf, size_t len)
{
	size_t n = c->t.len < 60 ? c->t.len : 60;

	if (c->t.kind == T_EOF)
		return "end of file";
	if (n >= len)
		n = len - 1;
	memcpy(buf, c->t.s, n);
	buf[n] = 0;
	return buf;
}

static int expect(struct pctx *c, char ch, const char *where)
{
	char b[64];

	if (c->failed)
		return WG_ESYNTAX;
	if (!is_punct(c, ch))
		return perr(c, c->t.line, "expected '%c' %s, found '%s'", ch, where, ttext(c, b, sizeof(b)));
	next(c);
	return c->failed ? WG_ESYNTAX : 0;
}

/* Copy the current identifier into out (WG_PTX_NAME_MAX). */
static int take_name(struct pctx *c, char *out, const char *what)
{
	char b[64];

	if (c->failed)
		return WG_ESYNTAX;
	if (c->t.kind != T_ID)
		return perr(c, c->t.line, "expected %s, found '%s'", what, ttext(c, b, sizeof(b)));
	if (c->t.len >= WG_PTX_NAME_MAX)
		return perr(c, c->t.line, "%s of %zu characters, expected at most %d", what, c->t.len,
			    WG_PTX_NAME_MAX - 1);
	memcpy(out, c->t.s, c->t.len);
	out[c->t.len] = 0;
	next(c);
	return c->failed ? WG_ESYNTAX : 0;
}

/* Integer literal: decimal, 0x hex, 0 octal, 0b binary, optional U suffix. */
static int parse_int_text(const char *s, size_t len, int64_t *v)
{
	char buf[80];
	char *end;
	int base = 10;
	const char *d;
	unsigned long long u;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (buf[len - 1] == 'U' || buf[len - 1] == 'u')
		buf[--len] = 0;
	if (!len)
		return -1;
	d = buf;
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
		base = 16;
		d = buf + 2;
	} else if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) {
		base = 2;
		d = buf + 2;
	} else if (buf[0] == '0' && buf[1]) {
		base = 8;
		d = buf + 1;
	}
	if (!*d)
		return -1;
	errno = 0;
	u = strtoull(d, &end, base);
	if (errno || *end)
		return -1;
	*v = (int64_t)u;
	return 0;
}

/* Number token -> operand (integer, 0f float, 0d double, decimal float). */
static int parse_number(struct pctx *c, int neg, struct wg_ptx_opnd *o)
{
	char b[80];
	const char *s = c->t.s;
	size_t len = c->t.len;

	if (len >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
		int64_t v;
		char hx[80];

		if (len != 10 || len >= sizeof(hx))
			return perr(c, c->t.line, "bad FP32 literal '%s', expected 0f and 8 hex digits", ttext(c, b, sizeof(b)));
		snprintf(hx, sizeof(hx), "0x%.*s", 8, s + 2);
		if (parse_int_text(hx, strlen(hx), &v))
			return perr(c, c->t.line, "bad FP32 literal '%s', expected 0f and 8 hex digits", ttext(c, b, sizeof(b)));
		o->kind = WG_PTX_O_F32;
		o->fbits = (uint32_t)v ^ (neg ? 0x80000000u : 0);
	} else if (len >= 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
		o->kind = WG_PTX_O_F64;
	} else if (memchr(s, '.', len) || ((memchr(s, 'e', len) || memchr(s, 'E', len)) &&
					   !(len > 1 && (s[1] == 'x' || s[1] == 'X')))) {
		char buf[80];
		char *end;
		float f;

		if (len >= sizeof(buf))
			return perr(c, c->t.line, "bad number '%s'", ttext(c, b, sizeof(b)));
		memcpy(buf, s, len);
		buf[len] = 0;
		errno = 0;
		f = strtof(buf, &end);
		if (*end || errno)
			return perr(c, c->t.line, "bad number '%s'", ttext(c, b, sizeof(b)));
		if (neg)
			f = -f;
		o->kind = WG_PTX_O_F32;
		memcpy(&o->fbits, &f, 4);
	} else {
		int64_t v;

		if (parse_int_text(s, len, &v))
			return perr(c, c->t.line, "bad integer '%s'", ttext(c, b, sizeof(b)));
		o->kind = WG_PTX_O_INT;
		o->ival = neg ? (int64_t)(0 - (uint64_t)v) : v;
	}
	next(c);
	return c->failed ? WG_ESYNTAX : 0;
}

/* Address operand after '[': [name], [name+imm], [name-imm], [imm]. */
static int parse_addr(struct pctx *c, struct wg_ptx_opnd *o)
{
	char b[64];

	o->kind = WG_PTX_O_ADDR;
	o->name[0] = 0;
	o->ival = 0;
	if (c->t.kind == T_ID) {
		if (take_name(c, o->name, "address"))
			return WG_ESYNTAX;
		if (is_punct(c, '+') || is_punct(c, '-')) {
			int neg = is_punct(c, '-');
			struct wg_ptx_opnd n = { 0 };

			next(c);
			if (is_punct(c, '-')) { /* [%rd+-16] */
				neg = !neg;
				next(c);
			}
			if (c->t.kind != T_NUM)
				return perr(c, c->t.line, "expected an offset in the address, found '%s'",
					    ttext(c, b, sizeof(b)));
			if (parse_number(c, neg, &n))
				return WG_ESYNTAX;
			if (n.kind != WG_PTX_O_INT)
				return perr(c, c->t.line, "expected an integer offset in the address");
			o->ival = n.ival;
		}
	} else if (c->t.kind == T_NUM || is_punct(c, '-')) {
		struct wg_ptx_opnd n = { 0 };
		int neg = is_punct(c, '-');

		if (neg)
			next(c);
		if (parse_number(c, neg, &n))
			return WG_ESYNTAX;
		if (n.kind != WG_PTX_O_INT)
			return perr(c, c->t.line, "expected an integer address");
		o->ival = n.ival;
	} else {
		return perr(c, c->t.line, "expected an address, found '%s'", ttext(c, b, sizeof(b)));
	}
	return expect(c, ']', "after the address");
}

static int parse_operand(struct pctx *c, struct wg_ptx_opnd *o)
{
	char b[64];

	memset(o, 0, sizeof(*o));
	if (is_punct(c, '[')) {
		next(c);
		return parse_addr(c, o);
	}
	if (is_punct(c, '{')) {
		next(c);
		o->kind = WG_PTX_O_VEC;
		for (;;) {
			if (o->nvec == 4)
				return perr(c, c->t.line, "vector operand of more than 4 elements");
			if (take_name(c, o->vec[o->nvec], "a register in the vector operand"))
				return WG_ESYNTAX;
			o->nvec++;
			if (is_punct(c, ','))
				next(c);
			else
				break;
		}
		return expect(c, '}', "after the vector operand");
	}
	if (is_punct(c, '!')) {
		next(c);
		o->neg = 1;
		if (take_name(c, o->name, "a predicate after '!'"))
			return WG_ESYNTAX;
		o->kind = WG_PTX_O_REG;
		return 0;
	}
	if (is_punct(c, '-')) {
		next(c);
		if (c->t.kind != T_NUM)
			return perr(c, c->t.line, "expected a number after '-', found '%s'", ttext(c, b, sizeof(b)));
		return parse_number(c, 1, o);
	}
	if (c->t.kind == T_NUM)
		return parse_number(c, 0, o);
	if (c->t.kind == T_ID) {
		o->kind = WG_PTX_O_REG;
		if (take_name(c, o->name, "an operand"))
			return WG_ESYNTAX;
		if (is_punct(c, '+')) { /* symbol+offset as a value: sym+4 */
			struct wg_ptx_opnd n = { 0 };

			next(c);
			if (c->t.kind != T_NUM || parse_number(c, 0, &n) || n.kind != WG_PTX_O_INT)
				return perr(c, c->t.line, "expected an integer after '+'");
			o->kind = WG_PTX_O_ADDR; /* a symbol address with an offset, used as a value */
			o->ival = n.ival;
			o->neg = 2; /* marks "value, not memory" */
		}
		return 0;
	}
	return perr(c, c->t.line, "expected an operand, found '%s'", ttext(c, b, sizeof(b)));
}

static int grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	void *p;
	uint32_t ncap;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return WG_ENOMEM;
	memset((char *)p + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
	*arr = p;
	*cap = ncap;
	return 0;
}

/* A statement: [@[!]%p] op operands ; or label: */
static int parse_stmt(struct pctx *c, struct wg_ptx_kernel *k, uint32_t *cap)
{
	struct wg_ptx_stmt *s;
	char b[64];

	if (grow((void **)&k->stmts, cap, k->nstmts + 1, sizeof(*k->stmts))) {
		c->oom = 1;
		return WG_ENOMEM;
	}
	s = &k->stmts[k->nstmts];
	memset(s, 0, sizeof(*s));
	s->line = c->t.line;
	if (is_punct(c, '@')) {
		next(c);
		if (is_punct(c, '!')) {
			s->gneg = 1;
			next(c);
		}
		if (take_name(c, s->guard, "a guard predicate after '@'"))
			return WG_ESYNTAX;
	}
	if (take_name(c, s->op, "an instruction"))
		return WG_ESYNTAX;
	if (!s->guard[0] && is_punct(c, ':')) {
		next(c);
		s->is_label = 1;
		k->nstmts++;
		return c->failed ? WG_ESYNTAX : 0;
	}
	while (!is_punct(c, ';')) {
		if (c->t.kind == T_EOF || c->failed)
			return perr(c, s->line, "missing ';' after '%s'", s->op);
		if (s->nops == WG_PTX_MAX_OPS)
			return perr(c, s->line, "too many operands for '%s'", s->op);
		if (parse_operand(c, &s->ops[s->nops]))
			return WG_ESYNTAX;
		s->nops++;
		if (is_punct(c, '|')) /* setp p|q: second destination */
			return perr(c, s->line, "unsupported two-destination form of '%s'", s->op);
		if (is_punct(c, ','))
			next(c);
		else if (!is_punct(c, ';'))
			return perr(c, c->t.line, "expected ',' or ';' after an operand of '%s', found '%s'", s->op,
				    ttext(c, b, sizeof(b)));
	}
	next(c);
	k->nstmts++;
	return c->failed ? WG_ESYNTAX : 0;
}

/* Optional ".align N"; returns the alignment or 0. */
static int parse_align(struct pctx *c, uint32_t *align)
{
	*align = 0;
	if (is_word(c, ".align")) {
		int64_t v;
		char b[64];

		next(c);
		if (c->t.kind != T_NUM || parse_int_text(c->t.s, c->t.len, &v) || v < 1 || v > 4096 || (v & (v - 1)))
			return perr(c, c->t.line, "bad .align '%s', expected a power of two", ttext(c, b, sizeof(b)));
		*align = (uint32_t)v;
		next(c);
	}
	return c->failed ? WG_ESYNTAX : 0;
}

/* ".type" word -> "type" (max 7 characters). */
static int take_type(struct pctx *c, char *out, const char *what)
{
	char b[64];

	if (c->t.kind != T_ID || c->t.s[0] != '.' || c->t.len < 2 || c->t.len > 8)
		return perr(c, c->t.line, "expected %s, found '%s'", what, ttext(c, b, sizeof(b)));
	memcpy(out, c->t.s + 1, c->t.len - 1);
	out[c->t.len - 1] = 0;
	next(c);
	return c->failed ? WG_ESYNTAX : 0;
}

static unsigned type_bytes(const char *t)
{
	size_t n = strlen(t);

	if (!strcmp(t, "pred"))
		return 0;
	if (n >= 2 && (t[0] == 'b' || t[0] == 'u' || t[0] == 's' || t[0] == 'f')) {
		int bits = atoi(t + 1);

		if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
			return (unsigned)bits / 8;
	}
	return 0;
}

/* .shared / .local declaration after the space word: [.align N] .type name[N]...; */
static int parse_var(struct pctx *c, struct wg_ptx_var *v, unsigned space, int is_extern)
{
	char type[8];
	unsigned line = c->t.line;
	uint64_t size;
	char b[64];

	memset(v, 0, sizeof(*v));
	v->line = line;
	v->space = (uint8_t)space;
	v->is_extern = (uint8_t)is_extern;
	if (parse_align(c, &v->align))
		return WG_ESYNTAX;
	if (take_type(c, type, "a type in the variable declaration"))
		return WG_ESYNTAX;
	if (!type_bytes(type))
		return perr(c, line, "unsupported variable type '.%s'", type);
	if (!v->align)
		v->align = type_bytes(type);
	if (take_name(c, v->name, "a variable name"))
		return WG_ESYNTAX;
	size = type_bytes(type);
	while (is_punct(c, '[')) {
		int64_t n;

		next(c);
		if (is_punct(c, ']')) {
			if (!is_extern)
				return perr(c, line, "array '%s' without a size", v->name);
			size = 0;
			next(c);
			continue;
		}
		if (c->t.kind != T_NUM || parse_int_text(c->t.s, c->t.len, &n) || n < 1 || n > (1 << 24))
			return perr(c, c->t.line, "bad array size '%s' of '%s'", ttext(c, b, sizeof(b)), v->name);
		size *= (uint64_t)n;
		if (size > (1u << 24))
			return perr(c, line, "variable '%s' larger than 16 MiB", v->name);
		next(c);
		if (expect(c, ']', "after the array size"))
			return WG_ESYNTAX;
	}
	if (is_punct(c, '='))
		return perr(c, line, "unsupported initializer of '%s'", v->name);
	v->size = (uint32_t)size;
	return expect(c, ';', "after the variable declaration");
}

static int parse_reg(struct pctx *c, struct wg_ptx_kernel *k, uint32_t *cap)
{
	char type[8];
	unsigned line = c->t.line;

	if (take_type(c, type, "a register type"))
		return WG_ESYNTAX;
	for (;;) {
		struct wg_ptx_regdecl *r;
		char b[64];

		if (grow((void **)&k->regs, cap, k->nregs + 1, sizeof(*k->regs))) {
			c->oom = 1;
			return WG_ENOMEM;
		}
		r = &k->regs[k->nregs];
		memset(r, 0, sizeof(*r));
		r->line = line;
		snprintf(r->type, sizeof(r->type), "%s", type);
		if (take_name(c, r->name, "a register name"))
			return WG_ESYNTAX;
		if (is_punct(c, '<')) {
			int64_t n;

			next(c);
			if (c->t.kind != T_NUM || parse_int_text(c->t.s, c->t.len, &n) || n < 1 || n > 1000000)
				return perr(c, c->t.line, "bad register count '%s'", ttext(c, b, sizeof(b)));
			r->count = (uint32_t)n;
			next(c);
			if (expect(c, '>', "after the register count"))
				return WG_ESYNTAX;
		}
		k->nregs++;
		if (!is_punct(c, ','))
			break;
		next(c);
	}
	return expect(c, ';', "after the register declaration");
}

static int parse_params(struct pctx *c, struct wg_ptx_kernel *k)
{
	uint32_t cap = 0;

	if (expect(c, '(', "after the kernel name"))
		return WG_ESYNTAX;
	while (!is_punct(c, ')')) {
		struct wg_ptx_param *p;
		char b[64];

		if (!is_word(c, ".param"))
			return perr(c, c->t.line, "expected .param in the parameter list of '%s', found '%s'", k->name,
				    ttext(c, b, sizeof(b)));
		if (grow((void **)&k->params, &cap, k->nparams + 1, sizeof(*k->params))) {
			c->oom = 1;
			return WG_ENOMEM;
		}
		p = &k->params[k->nparams];
		memset(p, 0, sizeof(*p));
		p->line = c->t.line;
		next(c);
		if (is_word(c, ".ptr"))
			return perr(c, p->line, "unsupported .ptr parameter attribute");
		if (parse_align(c, &p->align) || take_type(c, p->type, "a parameter type"))
			return WG_ESYNTAX;
		if (is_word(c, ".ptr")) {
			next(c);
			if (is_word(c, ".global"))
				next(c);
			if (parse_align(c, &p->align))
				return WG_ESYNTAX;
		}
		if (take_name(c, p->name, "a parameter name"))
			return WG_ESYNTAX;
		if (is_punct(c, '[')) {
			int64_t n;

			next(c);
			if (c->t.kind != T_NUM || parse_int_text(c->t.s, c->t.len, &n) || n < 1 || n > 4096)
				return perr(c, c->t.line, "bad array size '%s' of parameter '%s'",
					    ttext(c, b, sizeof(b)), p->name);
			p->count = (uint32_t)n;
			next(c);
			if (expect(c, ']', "after the array size"))
				return WG_ESYNTAX;
		}
		k->nparams++;
		if (is_punct(c, ','))
			next(c);
		else if (!is_punct(c, ')'))
			return perr(c, c->t.line, "expected ',' or ')' in the parameter list, found '%s'",
				    ttext(c, b, sizeof(b)));
	}
	next(c);
	return c->failed ? WG_ESYNTAX : 0;
}

/* Skip a performance directive's operands (.maxntid 256, 1, 1). */
static void skip_directive_args(struct pctx *c)
{
	next(c);
	while (c->t.kind == T_NUM || is_punct(c, ','))
		next(c);
}

static int parse_kernel(struct pctx *c, struct wg_ptx_module *m, uint32_t *kcap)
{
	struct wg_ptx_kernel *k;
	uint32_t scap = 0, rcap = 0, vcap = 0;
	char b[64];
	int depth = 0;

	if (grow((void **)&m->kernels, kcap, m->nkernels + 1, sizeof(*m->kernels))) {
		c->oom = 1;
		return WG_ENOMEM;
	}
	k = &m->kernels[m->nkernels++];
	memset(k, 0, sizeof(*k));
	k->line = c->t.line;
	next(c); /* .entry */
	if (take_name(c, k->name, "a kernel name"))
		return WG_ESYNTAX;
	if (is_punct(c, '(') && parse_params(c, k))
		return WG_ESYNTAX;
	while (is_word(c, ".maxntid") || is_word(c, ".reqntid") || is_word(c, ".minnctapersm") ||
	       is_word(c, ".maxnreg") || is_word(c, ".maxnctapersm") || is_word(c, ".noreturn"))
		skip_directive_args(c);
	if (is_punct(c, ';'))
		return perr(c, k->line, "kernel '%s' has no body (a declaration only)", k->name);
	if (expect(c, '{', "at the start of the kernel body"))
		return WG_ESYNTAX;
	for (;;) {
		if (c->failed)
			return WG_ESYNTAX;
		if (c->t.kind == T_EOF)
			return perr(c, k->line, "kernel '%s' has no closing '}'", k->name);
		if (is_punct(c, '}')) {
			next(c);
			if (!depth)
				return c->failed ? WG_ESYNTAX : 0;
			depth--;
			continue;
		}
		if (is_punct(c, '{')) { /* nested scope: register names are flat in nvcc output */
			depth++;
			next(c);
			continue;
		}
		if (is_word(c, ".reg")) {
			next(c);
			if (parse_reg(c, k, &rcap))
				return WG_ESYNTAX;
			continue;
		}
		if (is_word(c, ".shared") || is_word(c, ".local")) {
			unsigned space = is_word(c, ".shared") ? WG_PTX_SHARED : WG_PTX_LOCAL;

			if (grow((void **)&k->vars, &vcap, k->nvars + 1, sizeof(*k->vars))) {
				c->oom = 1;
				return WG_ENOMEM;
			}
			next(c);
			if (parse_var(c, &k->vars[k->nvars], space, 0))
				return WG_ESYNTAX;
			k->nvars++;
			continue;
		}
		if (is_word(c, ".pragma") || is_word(c, ".loc") || is_word(c, ".file")) {
			unsigned l = c->t.line; /* .loc has no ';': the directive ends with its line */

			next(c);
			while (c->t.kind != T_EOF && c->t.line == l && !is_punct(c, ';') && !c->failed)
				next(c);
			if (is_punct(c, ';'))
				next(c);
			continue;
		}
		if (c->t.kind == T_ID && c->t.s[0] == '.')
			return perr(c, c->t.line, "unsupported directive '%s' in kernel '%s'", ttext(c, b, sizeof(b)),
				    k->name);
		if (parse_stmt(c, k, &scap))
			return WG_ESYNTAX;
	}
}

int wg_ptx_parse(struct wg_ptx_module *m, const char *src, const char *filename, FILE *diag)
{
	struct pctx c = { 0 };
	uint32_t kcap = 0, vcap = 0;
	char b[64];
	int have_version = 0, rc = 0;

	memset(m, 0, sizeof(*m));
	snprintf(m->file, sizeof(m->file), "%s", filename ? filename : "<ptx>");
	if (!src)
		return WG_EINVAL;
	c.src = c.p = src;
	c.line = 1;
	c.file = m->file;
	c.diag = diag;
	next(&c);
	while (c.t.kind != T_EOF && !c.failed) {
		unsigned line = c.t.line;

		if (is_word(&c, ".version")) {
			int64_t v;
			const char *dot;

			next(&c);
			dot = c.t.kind == T_NUM ? memchr(c.t.s, '.', c.t.len) : NULL;
			if (!dot || parse_int_text(c.t.s, (size_t)(dot - c.t.s), &v))
				rc = perr(&c, line, "bad .version, expected MAJOR.MINOR");
			else {
				int64_t mi;

				m->version_major = (unsigned)v;
				if (parse_int_text(dot + 1, c.t.len - (size_t)(dot + 1 - c.t.s), &mi))
					mi = 0;
				m->version_minor = (unsigned)mi;
				have_version = 1;
				next(&c);
			}
		} else if (!have_version) {
			rc = perr(&c, line, "expected a .version directive first, found '%s'", ttext(&c, b, sizeof(b)));
		} else if (is_word(&c, ".target")) {
			next(&c);
			while (c.t.kind == T_ID && c.t.line == line) {
				next(&c);
				if (is_punct(&c, ','))
					next(&c);
			}
		} else if (is_word(&c, ".address_size")) {
			int64_t v;

			next(&c);
			if (c.t.kind != T_NUM || parse_int_text(c.t.s, c.t.len, &v) || (v != 32 && v != 64))
				rc = perr(&c, line, "bad .address_size, expected 32 or 64");
			else {
				m->address_size = (unsigned)v;
				next(&c);
			}
		} else if (is_word(&c, ".file") || is_word(&c, ".loc")) {
			next(&c);
			while (c.t.kind != T_EOF && c.t.line == line && !c.failed)
				next(&c);
		} else if (is_word(&c, ".visible") || is_word(&c, ".weak")) {
			next(&c);
		} else if (is_word(&c, ".entry")) {
			rc = parse_kernel(&c, m, &kcap);
		} else if (is_word(&c, ".extern") || is_word(&c, ".shared")) {
			int ext = is_word(&c, ".extern");

			if (ext)
				next(&c);
			if (is_word(&c, ".func")) {
				rc = perr(&c, line, "unsupported external function declaration (calls are not supported)");
			} else if (!is_word(&c, ".shared")) {
				rc = perr(&c, line, "unsupported module-scope declaration '%s'", ttext(&c, b, sizeof(b)));
			} else {
				next(&c);
				if (grow((void **)&m->vars, &vcap, m->nvars + 1, sizeof(*m->vars))) {
					c.oom = 1;
					rc = WG_ENOMEM;
				} else if (!(rc = parse_var(&c, &m->vars[m->nvars], WG_PTX_SHARED, ext))) {
					m->nvars++;
				}
			}
		} else if (is_word(&c, ".func")) {
			rc = perr(&c, line, "unsupported device function (.func); inline it (__forceinline__)");
		} else if (is_word(&c, ".global") || is_word(&c, ".const")) {
			rc = perr(&c, line, "unsupported module-scope variable in '%s' space (__device__/__constant__)",
				  ttext(&c, b, sizeof(b)) + 1);
		} else {
			rc = perr(&c, line, "unsupported module-scope statement '%s'", ttext(&c, b, sizeof(b)));
		}
		if (rc)
			break;
	}
	if (!rc && c.failed)
		rc = WG_ESYNTAX;
	if (!rc && c.oom)
		rc = WG_ENOMEM;
	if (!rc && !have_version)
		rc = perr(&c, c.line, "no .version directive: not a PTX file");
	if (!rc && !m->nkernels)
		rc = perr(&c, c.line, "no kernel (.entry) in the file");
	if (rc) {
		if (c.oom && diag)
			fprintf(diag, "%s: error: out of memory\n", m->file);
		wg_ptx_free(m);
		return c.oom ? WG_ENOMEM : WG_ESYNTAX;
	}
	return 0;
}

void wg_ptx_free(struct wg_ptx_module *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nkernels; i++) {
		free(m->kernels[i].params);
		free(m->kernels[i].regs);
		free(m->kernels[i].vars);
		free(m->kernels[i].stmts);
	}
	free(m->kernels);
	free(m->vars);
	m->kernels = NULL;
	m->vars = NULL;
	m->nkernels = m->nvars = 0;
}

int wg_ptx_sniff(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		char ch = text[i];

		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
			i++;
		} else if (ch == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				i++;
		} else if (ch == '/' && i + 1 < len && text[i + 1] == '*') {
			i += 2;
			while (i + 1 < len && !(text[i] == '*' && text[i + 1] == '/'))
				i++;
			i += 2;
		} else {
			return len - i >= 9 && !memcmp(text + i, ".version", 8) &&
			       (text[i + 8] == ' ' || text[i + 8] == '\t');
		}
	}
	return 0;
}
