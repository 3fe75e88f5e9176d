/* A small JSON reader: text -> tree with positions (jsonr.h). */
#include "jsonr.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpgate.h"

struct parser {
	const char *p, *end;
	const char *name;
	uint32_t line;
	const char *line_start;
	char *err;
	size_t errlen;
	int failed; /* WG_ESYNTAX or WG_ENOMEM once an error is recorded */
};

static uint32_t col_of(const struct parser *ps, const char *at)
{
	return (uint32_t)(at - ps->line_start) + 1;
}

static void fail_at(struct parser *ps, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail_at(struct parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return;
	ps->failed = WG_ESYNTAX;
	if (!ps->err || !ps->errlen)
		return;
	n = snprintf(ps->err, ps->errlen, "%s:%" PRIu32 ":%" PRIu32 ": ", ps->name, ps->line, col_of(ps, at));
	if (n < 0 || (size_t)n >= ps->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void fail_nomem(struct parser *ps)
{
	if (ps->failed)
		return;
	ps->failed = WG_ENOMEM;
	if (ps->err && ps->errlen)
		snprintf(ps->err, ps->errlen, "%s: out of host memory", ps->name);
}

/* What stands at p, for messages: "'x'", "end of input", "a control character". */
static const char *describe(const struct parser *ps, const char *at, char *buf, size_t n)
{
	unsigned char c;

	if (at >= ps->end)
		return "end of input";
	c = (unsigned char)*at;
	if (c < 0x20 || c >= 0x7f)
		snprintf(buf, n, "byte 0x%02x", c);
	else
		snprintf(buf, n, "'%c'", c);
	return buf;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;
		if (c == '\n') {
			ps->line++;
			ps->line_start = ps->p + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return;
		}
		ps->p++;
	}
}

static void free_value(struct wg_jv *v)
{
	while (v) {
		struct wg_jv *next = v->next;
		free_value(v->child);
		free(v->s);
		free(v->key);
		free(v);
		v = next;
	}
}

static struct wg_jv *new_value(struct parser *ps, enum wg_jv_type t)
{
	struct wg_jv *v = calloc(1, sizeof(*v));

	if (!v) {
		fail_nomem(ps);
		return NULL;
	}
	v->type = t;
	v->line = ps->line;
	v->col = col_of(ps, ps->p);
	return v;
}

static int hex4(const char *s, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *dst, uint32_t cp)
{
	if (cp < 0x80) {
		dst[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		dst[0] = (char)(0xc0 | (cp >> 6));
		dst[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		dst[0] = (char)(0xe0 | (cp >> 12));
		dst[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		dst[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	dst[0] = (char)(0xf0 | (cp >> 18));
	dst[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	dst[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	dst[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at ps->p (the opening quote); returns the decoded text or NULL. */
static char *parse_string(struct parser *ps)
{
	const char *open = ps->p, *q;
	char *out, *o;
	char buf[16];

	/* The decoded text is never longer than the source. */
	for (q = open + 1; q < ps->end && *q != '"'; q++)
		if (*q == '\\' && q + 1 < ps->end)
			q++;
	out = malloc((size_t)(q - open) + 1);
	if (!out) {
		fail_nomem(ps);
		return NULL;
	}
	o = out;
	ps->p++;
	for (;;) {
		if (ps->p >= ps->end) {
			fail_at(ps, open, "string not closed before the end of input");
			goto bad;
		}
		unsigned char c = (unsigned char)*ps->p;
		if (c == '"') {
			ps->p++;
			break;
		}
		if (c < 0x20) {
			fail_at(ps, ps->p, "%s in a string (control characters must be escaped)",
			        describe(ps, ps->p, buf, sizeof(buf)));
			goto bad;
		}
		if (c != '\\') {
			*o++ = (char)c;
			ps->p++;
			continue;
		}
		const char *esc = ps->p;
		if (ps->p + 1 >= ps->end) {
			fail_at(ps, open, "string not closed before the end of input");
			goto bad;
		}
		char e = ps->p[1];
		ps->p += 2;
		switch (e) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			uint32_t cp, lo;
			if (ps->end - ps->p < 4 || hex4(ps->p, &cp)) {
				fail_at(ps, esc, "'\\u' needs four hexadecimal digits");
				goto bad;
			}
			ps->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' || hex4(ps->p + 2, &lo) ||
				    lo < 0xdc00 || lo > 0xdfff) {
					fail_at(ps, esc, "high surrogate \\u%04" PRIx32 " without its low surrogate", cp);
					goto bad;
				}
				ps->p += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				fail_at(ps, esc, "low surrogate \\u%04" PRIx32 " without a high one", cp);
				goto bad;
			}
			/* 6 or 12 source bytes give at most 4 output bytes */
			o += put_utf8(o, cp);
			break;
		}
		default:
			fail_at(ps, esc, "unknown escape '\\%s'", describe(ps, esc + 1, buf, sizeof(buf)));
			goto bad;
		}
	}
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static struct wg_jv *parse_number(struct parser *ps)
{
	const char *s = ps->p, *q = s;
	char buf[16], tmp[64];
	int integer = 1;
	struct wg_jv *v;
	size_t n;

	if (q < ps->end && *q == '-')
		q++;
	if (q >= ps->end || !is_digit(*q)) {
		fail_at(ps, q, "expected a digit, found %s", describe(ps, q, buf, sizeof(buf)));
		return NULL;
	}
	if (*q == '0' && q + 1 < ps->end && is_digit(q[1])) {
		fail_at(ps, s, "number with a leading zero");
		return NULL;
	}
	while (q < ps->end && is_digit(*q))
		q++;
	if (q < ps->end && *q == '.') {
		integer = 0;
		q++;
		if (q >= ps->end || !is_digit(*q)) {
			fail_at(ps, q, "expected a digit after '.', found %s", describe(ps, q, buf, sizeof(buf)));
			return NULL;
		}
		while (q < ps->end && is_digit(*q))
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		integer = 0;
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= ps->end || !is_digit(*q)) {
			fail_at(ps, q, "expected a digit in the exponent, found %s", describe(ps, q, buf, sizeof(buf)));
			return NULL;
		}
		while (q < ps->end && is_digit(*q))
			q++;
	}
	n = (size_t)(q - s);
	if (n >= sizeof(tmp)) {
		fail_at(ps, s, "number of %zu characters (at most %zu)", n, sizeof(tmp) - 1);
		return NULL;
	}
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	v = new_value(ps, WG_JV_NUMBER);
	if (!v)
		return NULL;
	v->d = strtod(tmp, NULL);
	if (integer) {
		errno = 0;
		if (tmp[0] == '-') {
			long long x = strtoll(tmp, NULL, 10);
			if (!errno) {
				v->i = x;
				v->flags |= WG_JV_INT;
			}
		} else {
			unsigned long long x = strtoull(tmp, NULL, 10);
			if (!errno) {
				v->u = x;
				v->flags |= WG_JV_UINT;
				if (x <= (unsigned long long)INT64_MAX) {
					v->i = (int64_t)x;
					v->flags |= WG_JV_INT;
				}
			}
		}
	}
	ps->p = q;
	return v;
}

static struct wg_jv *parse_value(struct parser *ps, int depth);

/* An array or object at ps->p; members read until the closing bracket. */
static struct wg_jv *parse_container(struct parser *ps, int depth)
{
	int is_obj = *ps->p == '{';
	char close = is_obj ? '}' : ']';
	const char *what = is_obj ? "object" : "array";
	struct wg_jv *v = new_value(ps, is_obj ? WG_JV_OBJECT : WG_JV_ARRAY), **tail;
	uint32_t open_line = ps->line, open_col = col_of(ps, ps->p);
	char buf[16];

	if (!v)
		return NULL;
	if (depth >= WG_JSONR_MAX_DEPTH) {
		fail_at(ps, ps->p, "nesting deeper than %d levels", WG_JSONR_MAX_DEPTH);
		goto bad;
	}
	tail = &v->child;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return v;
	}
	for (;;) {
		char *key = NULL;
		struct wg_jv *m;

		skip_ws(ps);
		if (is_obj) {
			if (ps->p >= ps->end || *ps->p != '"') {
				fail_at(ps, ps->p, "expected a member name (a string) in the object opened at %" PRIu32
				        ":%" PRIu32 ", found %s", open_line, open_col, describe(ps, ps->p, buf, sizeof(buf)));
				goto bad;
			}
			key = parse_string(ps);
			if (!key)
				goto bad;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				fail_at(ps, ps->p, "expected ':' after the member name \"%s\", found %s", key,
				        describe(ps, ps->p, buf, sizeof(buf)));
				free(key);
				goto bad;
			}
			ps->p++;
			skip_ws(ps);
		}
		m = parse_value(ps, depth + 1);
		if (!m) {
			free(key);
			goto bad;
		}
		m->key = key;
		*tail = m;
		tail = &m->next;
		v->len++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return v;
		}
		fail_at(ps, ps->p, "expected ',' or '%c' in the %s opened at %" PRIu32 ":%" PRIu32 ", found %s", close,
		        what, open_line, open_col, describe(ps, ps->p, buf, sizeof(buf)));
		goto bad;
	}
bad:
	free_value(v);
	return NULL;
}

static struct wg_jv *parse_literal(struct parser *ps, const char *word, enum wg_jv_type t, int b)
{
	size_t n = strlen(word);
	struct wg_jv *v;

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) ||
	    (ps->p + n < ps->end && ((ps->p[n] >= 'a' && ps->p[n] <= 'z') || is_digit(ps->p[n])))) {
		const char *q = ps->p;
		while (q < ps->end && q - ps->p < 20 && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')))
			q++;
		fail_at(ps, ps->p, "unknown word '%.*s' (expected a value)", (int)(q - ps->p), ps->p);
		return NULL;
	}
	v = new_value(ps, t);
	if (!v)
		return NULL;
	v->d = b;
	v->i = b;
	v->u = (uint64_t)b;
	ps->p += n;
	return v;
}

static struct wg_jv *parse_value(struct parser *ps, int depth)
{
	char buf[16];

	skip_ws(ps);
	if (ps->p >= ps->end) {
		fail_at(ps, ps->p, "expected a value, found end of input");
		return NULL;
	}
	switch (*ps->p) {
	case '{':
	case '[': return parse_container(ps, depth);
	case '"': {
		struct wg_jv *v = new_value(ps, WG_JV_STRING);
		if (!v)
			return NULL;
		v->s = parse_string(ps);
		if (!v->s) {
			free(v);
			return NULL;
		}
		return v;
	}
	case 't': return parse_literal(ps, "true", WG_JV_BOOL, 1);
	case 'f': return parse_literal(ps, "false", WG_JV_BOOL, 0);
	case 'n': return parse_literal(ps, "null", WG_JV_NULL, 0);
	default:
		if (*ps->p == '-' || is_digit(*ps->p))
			return parse_number(ps);
		if ((*ps->p >= 'a' && *ps->p <= 'z') || (*ps->p >= 'A' && *ps->p <= 'Z'))
			return parse_literal(ps, "\x01", WG_JV_NULL, 0); /* reports the unknown word */
		fail_at(ps, ps->p, "expected a value, found %s", describe(ps, ps->p, buf, sizeof(buf)));
		return NULL;
	}
}

int wg_jsonr_parse(struct wg_jsonr **doc, const char *text, size_t len, const char *name, char *err,
                   size_t errlen)
{
	struct parser ps = { text, text + len, name ? name : "(json)", 1, text, err, errlen, 0 };
	struct wg_jsonr *d;
	char buf[16];

	*doc = NULL;
	if (err && errlen)
		err[0] = '\0';
	d = calloc(1, sizeof(*d));
	if (!d) {
		fail_nomem(&ps);
		return WG_ENOMEM;
	}
	snprintf(d->name, sizeof(d->name), "%s", ps.name);
	d->root = parse_value(&ps, 0);
	if (d->root) {
		skip_ws(&ps);
		if (ps.p < ps.end)
			fail_at(&ps, ps.p, "%s after the top-level value", describe(&ps, ps.p, buf, sizeof(buf)));
	}
	if (ps.failed) {
		wg_jsonr_free(d);
		return ps.failed;
	}
	*doc = d;
	return 0;
}

int wg_jsonr_load(struct wg_jsonr **doc, const char *path, char *err, size_t errlen)
{
	FILE *f;
	char *text = NULL;
	long size;
	int ret;

	*doc = NULL;
	f = fopen(path, "rb");
	if (!f) {
		ret = errno == ENOENT ? WG_ENOENT : WG_EIO;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return ret;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		fclose(f);
		return WG_EIO;
	}
	text = malloc((size_t)size + 1);
	if (!text) {
		snprintf(err, errlen, "%s: out of host memory (%ld bytes)", path, size);
		fclose(f);
		return WG_ENOMEM;
	}
	if (fread(text, 1, (size_t)size, f) != (size_t)size) {
		snprintf(err, errlen, "%s: short read", path);
		free(text);
		fclose(f);
		return WG_EIO;
	}
	fclose(f);
	ret = wg_jsonr_parse(doc, text, (size_t)size, path, err, errlen);
	free(text);
	return ret;
}

void wg_jsonr_free(struct wg_jsonr *doc)
{
	if (!doc)
		return;
	free_value(doc->root);
	free(doc);
}

const struct wg_jv *wg_jsonr_member(const struct wg_jv *v, const char *key)
{
	if (!v || v->type != WG_JV_OBJECT)
		return NULL;
	for (const struct wg_jv *m = v->child; m; m = m->next)
		if (!strcmp(m->key, key))
			return m;
	return NULL;
}

const struct wg_jv *wg_jsonr_elem(const struct wg_jv *v, size_t i)
{
	const struct wg_jv *e;

	if (!v || v->type != WG_JV_ARRAY || i >= v->len)
		return NULL;
	for (e = v->child; i--; e = e->next)
		;
	return e;
}

/* One step of a path: a member, or an element by decimal index. */
static const struct wg_jv *step(const struct wg_jv *v, const char *seg)
{
	if (v && v->type == WG_JV_ARRAY) {
		char *end;
		unsigned long long i;

		if (!is_digit(seg[0]))
			return NULL;
		errno = 0;
		i = strtoull(seg, &end, 10);
		if (errno || *end)
			return NULL;
		return wg_jsonr_elem(v, (size_t)i);
	}
	return wg_jsonr_member(v, seg);
}

/*
 * Walks path; returns the value or NULL, and in *last the deepest value
 * reached and in *prefix the path to it (for messages).
 */
static const struct wg_jv *walk(const struct wg_jv *v, const char *path, const struct wg_jv **last, char *prefix,
                                size_t plen)
{
	char seg[128];
	const char *p = path;

	if (last)
		*last = v;
	if (prefix && plen)
		prefix[0] = '\0';
	if (!path || !*path)
		return v;
	while (v) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		const struct wg_jv *next;

		if (n >= sizeof(seg))
			return NULL;
		memcpy(seg, p, n);
		seg[n] = '\0';
		next = step(v, seg);
		if (!next)
			return NULL;
		v = next;
		if (last)
			*last = v;
		if (prefix && plen)
			snprintf(prefix, plen, "%.*s", (int)((p + n) - path), path);
		if (!dot)
			return v;
		p = dot + 1;
	}
	return NULL;
}

const struct wg_jv *wg_jsonr_path(const struct wg_jv *v, const char *path)
{
	return walk(v, path, NULL, NULL, 0);
}

const char *wg_jsonr_type_name(enum wg_jv_type t)
{
	switch (t) {
	case WG_JV_NULL: return "null";
	case WG_JV_BOOL: return "a boolean";
	case WG_JV_NUMBER: return "a number";
	case WG_JV_STRING: return "a string";
	case WG_JV_ARRAY: return "an array";
	case WG_JV_OBJECT: return "an object";
	}
	return "a value";
}

/* Looks path up below v (or the root); WG_ENOENT with a message when missing. */
static int lookup(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, const struct wg_jv **out,
                  char *err, size_t errlen)
{
	const struct wg_jv *last;
	char prefix[256];

	if (!v)
		v = doc->root;
	*out = walk(v, path, &last, prefix, sizeof(prefix));
	if (*out)
		return 0;
	if (last && last->type == WG_JV_ARRAY)
		snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": no element '%s' (the array '%s' has %zu)", doc->name,
		         last->line, last->col, path, prefix[0] ? prefix : "(top)", last->len);
	else if (last && last->type == WG_JV_OBJECT)
		snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": no member '%s' in the object '%s'", doc->name,
		         last->line, last->col, path, prefix[0] ? prefix : "(top)");
	else if (last)
		snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": no member '%s': '%s' is %s", doc->name, last->line,
		         last->col, path, prefix[0] ? prefix : "(top)", wg_jsonr_type_name(last->type));
	else
		snprintf(err, errlen, "%s: no member '%s'", doc->name, path);
	return WG_ENOENT;
}

static int wrong_type(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, const char *expected,
                      char *err, size_t errlen)
{
	snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": '%s' is %s, expected %s", doc->name, v->line, v->col,
	         path && *path ? path : "(top)", v->type == WG_JV_NUMBER ? "a number out of range" :
	         wg_jsonr_type_name(v->type), expected);
	return WG_EINVAL;
}

int wg_jsonr_get_u64(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, uint64_t *out, char *err,
                     size_t errlen)
{
	const struct wg_jv *x;
	int ret = lookup(doc, v, path, &x, err, errlen);

	if (ret)
		return ret;
	if (x->type != WG_JV_NUMBER || !(x->flags & WG_JV_UINT)) {
		if (x->type == WG_JV_NUMBER)
			snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": '%s' is %g, expected an unsigned integer",
			         doc->name, x->line, x->col, path, x->d);
		else
			wrong_type(doc, x, path, "an unsigned integer", err, errlen);
		return WG_EINVAL;
	}
	*out = x->u;
	return 0;
}

int wg_jsonr_get_i64(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, int64_t *out, char *err,
                     size_t errlen)
{
	const struct wg_jv *x;
	int ret = lookup(doc, v, path, &x, err, errlen);

	if (ret)
		return ret;
	if (x->type != WG_JV_NUMBER || !(x->flags & WG_JV_INT)) {
		if (x->type == WG_JV_NUMBER)
			snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": '%s' is %g, expected a 64-bit integer",
			         doc->name, x->line, x->col, path, x->d);
		else
			wrong_type(doc, x, path, "an integer", err, errlen);
		return WG_EINVAL;
	}
	*out = x->i;
	return 0;
}

int wg_jsonr_get_double(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, double *out,
                        char *err, size_t errlen)
{
	const struct wg_jv *x;
	int ret = lookup(doc, v, path, &x, err, errlen);

	if (ret)
		return ret;
	if (x->type != WG_JV_NUMBER)
		return wrong_type(doc, x, path, "a number", err, errlen);
	*out = x->d;
	return 0;
}

int wg_jsonr_get_bool(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, int *out, char *err,
                      size_t errlen)
{
	const struct wg_jv *x;
	int ret = lookup(doc, v, path, &x, err, errlen);

	if (ret)
		return ret;
	if (x->type != WG_JV_BOOL)
		return wrong_type(doc, x, path, "true or false", err, errlen);
	*out = x->i != 0;
	return 0;
}

int wg_jsonr_get_str(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, const char **out,
                     char *err, size_t errlen)
{
	const struct wg_jv *x;
	int ret = lookup(doc, v, path, &x, err, errlen);

	if (ret)
		return ret;
	if (x->type != WG_JV_STRING)
		return wrong_type(doc, x, path, "a string", err, errlen);
	*out = x->s;
	return 0;
}

int wg_jsonr_get(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, enum wg_jv_type type,
                 const struct wg_jv **out, char *err, size_t errlen)
{
	const struct wg_jv *x;
	int ret = lookup(doc, v, path, &x, err, errlen);

	if (ret)
		return ret;
	if (x->type != type)
		return wrong_type(doc, x, path, wg_jsonr_type_name(type), err, errlen);
	*out = x;
	return 0;
}
