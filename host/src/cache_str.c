/* GPGPU-Sim cache configuration strings (docs/memory-models.md section 4.1). */
#include "cache_str.h"

#include <stdio.h>
#include <string.h>

#include "warpgate.h"

#define MAX_FIELDS 20
#define MAX_NUMBER (1u << 24)

struct field {
	const char *s;  /* first character (not terminated) */
	size_t len;
	unsigned col;   /* 1-based column */
	unsigned group; /* 0-based comma-separated group */
	unsigned num;   /* 1-based field number */
};

struct parser {
	const char *str;
	struct field f[MAX_FIELDS];
	unsigned nf;
	unsigned ngroups;
	char *err;
	size_t errlen;
};

static int fail(struct parser *p, const struct field *f, const char *name, const char *what)
{
	snprintf(p->err, p->errlen, "cache string '%s': field %u '%s' at column %u: %s, got '%.*s'", p->str,
	         f->num, name, f->col, what, (int)f->len, f->s);
	return WG_ECONFIG;
}

static int number(struct parser *p, const struct field *f, const char *name, uint32_t min, uint32_t *out)
{
	uint64_t v = 0;
	char what[80];

	if (!f->len)
		return fail(p, f, name, "expected an unsigned integer");
	for (size_t i = 0; i < f->len; i++) {
		if (f->s[i] < '0' || f->s[i] > '9')
			return fail(p, f, name, "expected an unsigned integer");
		v = v * 10 + (uint64_t)(f->s[i] - '0');
		if (v > MAX_NUMBER) {
			snprintf(what, sizeof(what), "expected at most %u", MAX_NUMBER);
			return fail(p, f, name, what);
		}
	}
	if (v < min) {
		snprintf(what, sizeof(what), "expected at least %u", min);
		return fail(p, f, name, what);
	}
	*out = (uint32_t)v;
	return 0;
}

/* One letter out of allowed; what describes the choices for the message. */
static int letter(struct parser *p, const struct field *f, const char *name, const char *allowed, const char *what,
                  char *out)
{
	if (f->len != 1 || !strchr(allowed, f->s[0]))
		return fail(p, f, name, what);
	*out = f->s[0];
	return 0;
}

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static int split(struct parser *p)
{
	const char *s = p->str, *start = s;
	unsigned group = 0;

	p->nf = 0;
	for (;; s++) {
		if (*s == ':' || *s == ',' || *s == '\0') {
			if (p->nf == MAX_FIELDS) {
				snprintf(p->err, p->errlen, "cache string '%s': more than %d fields", p->str, MAX_FIELDS);
				return WG_ECONFIG;
			}
			p->f[p->nf] = (struct field){ start, (size_t)(s - start), (unsigned)(start - p->str) + 1, group,
			                              p->nf + 1 };
			p->nf++;
			if (*s == '\0')
				break;
			if (*s == ',')
				group++;
			start = s + 1;
		}
	}
	p->ngroups = group + 1;
	return 0;
}

/* Index of the first field of group g and the number of fields in it. */
static unsigned group_fields(const struct parser *p, unsigned g, unsigned *first)
{
	unsigned n = 0;

	*first = 0;
	for (unsigned i = 0; i < p->nf; i++) {
		if (p->f[i].group != g)
			continue;
		if (!n)
			*first = i;
		n++;
	}
	return n;
}

static int bad_group(struct parser *p, unsigned g, unsigned first, unsigned n, const char *expect)
{
	snprintf(p->err, p->errlen, "cache string '%s': group %u (from field %u at column %u) has %u field%s, expected %s",
	         p->str, g + 1, p->f[first].num, p->f[first].col, n, n == 1 ? "" : "s", expect);
	return WG_ECONFIG;
}

static int parse_geometry(struct parser *p, struct wg_cache_geom *g)
{
	unsigned i, n = group_fields(p, 0, &i);
	int rc;

	if (n == 4) {
		if ((rc = letter(p, &p->f[i], "type", "NS", "expected N (normal) or S (sector)", &g->type)))
			return rc;
		i++;
	} else if (n != 3) {
		return bad_group(p, 0, i, n, "3 (sets:line:assoc) or 4 (type:sets:line:assoc)");
	}
	if ((rc = number(p, &p->f[i], "sets", 1, &g->sets)))
		return rc;
	if (!is_pow2(g->sets))
		return fail(p, &p->f[i], "sets", "expected a power of two");
	if ((rc = number(p, &p->f[i + 1], "line", 1, &g->line)))
		return rc;
	if (!is_pow2(g->line) || g->line < 32 || g->line > 1024)
		return fail(p, &p->f[i + 1], "line", "expected a power of two from 32 to 1024 bytes");
	return number(p, &p->f[i + 2], "assoc", 1, &g->assoc);
}

static int parse_policies(struct parser *p, struct wg_cache_geom *g)
{
	unsigned i, n = group_fields(p, 1, &i);
	int rc;

	if (n != 4 && n != 5)
		return bad_group(p, 1, i, n, "4 or 5 (replacement:write:allocation:write-allocate[:index])");
	if ((rc = letter(p, &p->f[i], "replacement", "LF", "expected L (LRU) or F (FIFO)", &g->replacement)) ||
	    (rc = letter(p, &p->f[i + 1], "write policy", "RBTEL",
	                 "expected R (read-only), B (write-back), T (write-through), E (write-evict) or L (local "
	                 "write-back, global write-through)",
	                 &g->write_policy)) ||
	    (rc = letter(p, &p->f[i + 2], "allocation", "mfs", "expected m (on miss), f (on fill) or s (streaming)",
	                 &g->alloc_policy)) ||
	    (rc = letter(p, &p->f[i + 3], "write allocation", "NWFL",
	                 "expected N (none), W (write-allocate), F (fetch-on-write) or L (lazy fetch-on-read)",
	                 &g->write_alloc)))
		return rc;
	if (n == 5)
		return letter(p, &p->f[i + 4], "set index", "LFHXC",
		              "expected L (linear), F (Fermi hash), H (ipoly hash), X (xor) or C (custom)", &g->set_index);
	return 0;
}

static int parse_queues(struct parser *p, struct wg_cache_geom *g)
{
	unsigned i, n = group_fields(p, 2, &i);
	int rc;

	if (n != 3)
		return bad_group(p, 2, i, n, "3 (MSHR type:entries:max merge)");
	if ((rc = letter(p, &p->f[i], "MSHR type", "AFST",
	                 "expected A (associative), F (texture FIFO), S (sector associative) or T (sector FIFO)",
	                 &g->mshr_type)) ||
	    (rc = number(p, &p->f[i + 1], "MSHR entries", 1, &g->mshr_entries)) ||
	    (rc = number(p, &p->f[i + 2], "MSHR max merge", 1, &g->mshr_max_merge)))
		return rc;

	n = group_fields(p, 3, &i);
	if (n != 1 && n != 2)
		return bad_group(p, 3, i, n, "1 or 2 (miss queue[:result FIFO])");
	if ((rc = number(p, &p->f[i], "miss queue", 1, &g->miss_queue)))
		return rc;
	if (n == 2 && (rc = number(p, &p->f[i + 1], "result FIFO", 0, &g->result_fifo)))
		return rc;

	if (p->ngroups == 5) {
		n = group_fields(p, 4, &i);
		if (n != 1)
			return bad_group(p, 4, i, n, "1 (data port width)");
		if ((rc = number(p, &p->f[i], "data port width", 0, &g->port_width)))
			return rc;
	}
	return 0;
}

int wg_cache_str_parse(const char *s, struct wg_cache_geom *g, char *err, size_t errlen)
{
	struct parser p = { .str = s, .err = err, .errlen = errlen };
	int rc;

	if (!s || !g)
		return WG_EINVAL;
	*g = (struct wg_cache_geom){
		.type = 'N', .replacement = 'L', .write_policy = 'B', .alloc_policy = 'm', .write_alloc = 'W',
		.set_index = 'L', .mshr_type = 'A', .mshr_entries = 32, .mshr_max_merge = 4, .miss_queue = 4,
	};
	if (!strcmp(s, "none")) {
		snprintf(err, errlen, "cache string 'none': a disabled cache is not supported");
		return WG_ECONFIG;
	}
	if ((rc = split(&p)))
		return rc;
	if (p.ngroups != 1 && p.ngroups != 4 && p.ngroups != 5) {
		snprintf(err, errlen,
		         "cache string '%s': %u comma-separated groups, expected 1 (sets:line:assoc) or 4 to 5 "
		         "(sets:line:assoc,R:W:A:WA,M:E:G,Q[,P])",
		         s, p.ngroups);
		return WG_ECONFIG;
	}
	if ((rc = parse_geometry(&p, g)))
		return rc;
	if (p.ngroups == 1)
		return 0;
	g->full = 1;
	if ((rc = parse_policies(&p, g)) || (rc = parse_queues(&p, g)))
		return rc;
	return 0;
}

uint64_t wg_cache_geom_bytes(const struct wg_cache_geom *g)
{
	return (uint64_t)g->sets * g->line * g->assoc;
}
