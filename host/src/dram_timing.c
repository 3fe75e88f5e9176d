/* GPGPU-Sim's DRAM timing string: named or positional fields (docs/memory-models.md section 2.2). */
#include "dram_timing.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "warpgate.h"

struct param_desc {
	const char *name;
	size_t offset;
	int required;
	uint32_t def;
};

#define P(n, f, req, d) { n, offsetof(struct wg_dram_timing, f), req, d }

/* In the order of the positional form. */
static const struct param_desc params[] = {
	P("nbk", nbk, 1, 0),  P("CCD", tCCD, 1, 0), P("RRD", tRRD, 1, 0),   P("RCD", tRCD, 1, 0),
	P("RAS", tRAS, 1, 0), P("RP", tRP, 1, 0),   P("RC", tRC, 1, 0),     P("CL", CL, 1, 0),
	P("WL", WL, 1, 0),    P("CDLR", tCDLR, 1, 0), P("WR", tWR, 1, 0),   P("nbkgrp", nbkgrp, 0, 1),
	P("CCDL", tCCDL, 0, 0), P("RTPL", tRTPL, 0, 0),
};

#define NPARAMS (sizeof(params) / sizeof(params[0]))
#define NREQUIRED 11

/* A field of the string: [start, end) after trimming, its number and offset. */
struct field {
	const char *start, *end;
	unsigned number;
	size_t offset;
};

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static int find_param(const char *name, size_t len)
{
	for (size_t i = 0; i < NPARAMS; i++)
		if (strlen(params[i].name) == len && !strncmp(params[i].name, name, len))
			return (int)i;
	return -1;
}

/* Decimal digits only, at most WG_DRAM_TIMING_MAX. */
static int parse_value(const char *p, const char *end, uint32_t *v)
{
	uint64_t x = 0;

	if (p == end)
		return -1;
	for (; p < end; p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		x = x * 10 + (uint64_t)(*p - '0');
		if (x > WG_DRAM_TIMING_MAX)
			return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

static void trim(const char **start, const char **end)
{
	while (*start < *end && isspace((unsigned char)**start))
		(*start)++;
	while (*end > *start && isspace((unsigned char)(*end)[-1]))
		(*end)--;
}

/* Where a parameter was given, for messages. */
struct origin {
	int given;
	unsigned number;
	size_t offset;
};

static void where(char *buf, size_t len, const struct origin *o)
{
	if (o->given)
		snprintf(buf, len, " (field %u, offset %zu)", o->number, o->offset);
	else
		snprintf(buf, len, " (default)");
}

int wg_dram_timing_parse(struct wg_dram_timing *out, const char *s, char *err, size_t errlen)
{
	struct wg_dram_timing t;
	struct origin org[NPARAMS];
	int named;
	unsigned nfields = 0;
	const char *p;
	char at[64];

	if (!out || !s) {
		snprintf(err, errlen, "no DRAM timing string");
		return WG_EINVAL;
	}
	memset(&t, 0, sizeof(t));
	memset(org, 0, sizeof(org));
	for (size_t i = 0; i < NPARAMS; i++)
		*(uint32_t *)((char *)&t + params[i].offset) = params[i].def;
	named = strchr(s, '=') != NULL;

	p = s;
	for (;;) {
		struct field f;
		const char *e = p;
		int idx;
		uint32_t v;

		while (*e && *e != ':' && *e != ';')
			e++;
		f.start = p;
		f.end = e;
		trim(&f.start, &f.end);
		f.number = ++nfields;
		f.offset = (size_t)(f.start - s);
		if (f.start == f.end) {
			if (!named && nfields <= NPARAMS)
				snprintf(err, errlen, "parameter '%s' (field %u, offset %zu) is empty", params[nfields - 1].name,
				         f.number, (size_t)(p - s));
			else
				snprintf(err, errlen, "field %u (offset %zu) is empty", f.number, (size_t)(p - s));
			return WG_ECONFIG;
		}
		if (named) {
			const char *eq = memchr(f.start, '=', (size_t)(f.end - f.start));
			const char *ns = f.start, *ne, *vs;

			if (!eq) {
				snprintf(err, errlen, "field %u '%.*s' (offset %zu): expected name=value", f.number,
				         (int)(f.end - f.start), f.start, f.offset);
				return WG_ECONFIG;
			}
			ne = eq;
			vs = eq + 1;
			trim(&ns, &ne);
			trim(&vs, &f.end);
			idx = find_param(ns, (size_t)(ne - ns));
			if (idx < 0) {
				snprintf(err, errlen, "unknown parameter '%.*s' (field %u, offset %zu)", (int)(ne - ns), ns,
				         f.number, f.offset);
				return WG_ECONFIG;
			}
			if (org[idx].given) {
				snprintf(err, errlen, "parameter '%s' (field %u, offset %zu) repeats field %u", params[idx].name,
				         f.number, f.offset, org[idx].number);
				return WG_ECONFIG;
			}
			f.start = vs;
		} else {
			if (nfields > NPARAMS) {
				snprintf(err, errlen, "field %u (offset %zu): more than %zu positional fields", f.number,
				         f.offset, NPARAMS);
				return WG_ECONFIG;
			}
			idx = (int)nfields - 1;
		}
		if (parse_value(f.start, f.end, &v)) {
			snprintf(err, errlen, "parameter '%s' (field %u, offset %zu): '%.*s' is not an unsigned integer <= %u",
			         params[idx].name, f.number, f.offset, (int)(f.end - f.start), f.start, WG_DRAM_TIMING_MAX);
			return WG_ECONFIG;
		}
		*(uint32_t *)((char *)&t + params[idx].offset) = v;
		org[idx] = (struct origin){ 1, f.number, f.offset };
		if (!*e)
			break;
		p = e + 1;
	}

	if (!named && nfields < NREQUIRED) {
		snprintf(err, errlen, "missing parameter '%s': positional form has %u fields, needs %d to %zu",
		         params[nfields].name, nfields, NREQUIRED, NPARAMS);
		return WG_ECONFIG;
	}
	for (size_t i = 0; i < NPARAMS; i++) {
		if (params[i].required && !org[i].given) {
			snprintf(err, errlen, "missing parameter '%s'", params[i].name);
			return WG_ECONFIG;
		}
	}
	if (!is_pow2(t.nbk) || t.nbk > 1024) {
		where(at, sizeof(at), &org[0]);
		snprintf(err, errlen, "parameter 'nbk'%s: %u is not a power of two in 1..1024", at, t.nbk);
		return WG_ECONFIG;
	}
	if (!is_pow2(t.nbkgrp) || t.nbkgrp > t.nbk) {
		where(at, sizeof(at), &org[11]);
		snprintf(err, errlen, "parameter 'nbkgrp'%s: %u is not a power of two <= nbk (%u)", at, t.nbkgrp, t.nbk);
		return WG_ECONFIG;
	}
	*out = t;
	return 0;
}
