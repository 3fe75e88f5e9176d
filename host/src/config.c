/* Configuration files: "key = value" lines over the built-in GTX480 defaults (docs/config.md). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cache_str.h"
#include "dispatch.h"
#include "dram_timing.h"
#include "energy.h"
#include "warpgate.h"

enum key_type { KT_U32, KT_U64, KT_STR, KT_F64 };

struct key_desc {
	const char *key;
	enum key_type type;
	size_t offset;
	uint64_t min, max;
	const char *help;
	double fmin, fmax; /* KT_F64 range */
};

#define U32(k, f, lo, hi, h) { k, KT_U32, offsetof(struct wg_config, f), lo, hi, h, 0, 0 }
#define U64(k, f, lo, hi, h) { k, KT_U64, offsetof(struct wg_config, f), lo, hi, h, 0, 0 }
#define STR(k, f, h) { k, KT_STR, offsetof(struct wg_config, f), 0, 0, h, 0, 0 }
#define F64(k, f, lo, hi, h) { k, KT_F64, offsetof(struct wg_config, f), 0, 0, h, lo, hi }

static const struct key_desc keys[] = {
	STR("name", name, "configuration name"),
	U32("n_sm", num_sms, 1, 64, "streaming multiprocessors (cores)"),
	U32("core_clock_mhz", core_clock_mhz, 1, 10000, "SM clock"),
	U32("warp_size", warp_size, 32, 32, "threads per warp (fixed)"),
	U32("max_warps_per_sm", max_warps_per_sm, 1, 64, "resident warp slots per SM"),
	U32("max_threads_per_cta", max_threads_per_cta, 32, 1024, "threads per CTA"),
	U32("max_ctas_per_sm", max_ctas_per_sm, 1, 32, "resident CTAs per SM"),
	U32("regs_per_sm", regs_per_sm, 64, 1u << 20, "32-bit registers per SM"),
	U32("reg_banks", reg_banks, 1, 64, "register file banks"),
	U32("simd_width", simd_width, 1, 32, "lanes per SIMD unit"),
	U32("simd_units", simd_units, 1, 4, "SIMD units per SM"),
	U32("schedulers", schedulers, 1, 4, "warp schedulers per SM"),
	U32("shmem_l1_bytes", shmem_l1_bytes, 0, 1u << 20, "bytes of the array shared by L1 and shared memory"),
	U32("shmem_bytes", shmem_bytes, 0, 1u << 20, "shared memory part of that array"),
	U32("shmem_banks", shmem_banks, 1, 64, "shared memory banks of 4 bytes"),
	STR("dl1", dl1, "L1 data cache, GPGPU-Sim syntax sets:line:assoc"),
	U32("l1_cache_global", l1_cache_global, 0, 1, "1 = Fermi mode (L1 caches global loads)"),
	U64("global_mem_bytes", global_mem_bytes, 1u << 20, 0xFFE00000ull, "device global memory"),
	U32("mem_channels", mem_channels, 1, 32, "memory channels (L2 slices)"),
	STR("dl2", dl2, "L2 slice per channel, GPGPU-Sim syntax"),
	STR("dram_timing", dram_timing, "GDDR5 timing, GPGPU-Sim syntax"),
	U32("dram_clock_mhz", dram_clock_mhz, 1, 10000, "DRAM command clock"),
	U32("dram_queue", dram_queue, 1, 1024, "DRAM request queue per channel"),
	U32("rop_latency", rop_latency, 0, 10000, "L2 (ROP) latency in core cycles"),
	U32("dram_latency", dram_latency, 0, 10000, "DRAM latency in core cycles"),
	U32("sm_mem_latency", sm_mem_latency, 1, 10000, "SM memory port to the interconnect, core cycles"),
	U32("cta_dispatch_latency", cta_dispatch_latency, 1, 100000, "CTA completion to the next launch on that SM"),
	U32("bet_cycles", bet_cycles, 1, 100000, "power-gating break-even time"),
	U32("wakeup_cycles", wakeup_cycles, 0, 100000, "power-gating wake-up latency"),
	U32("idle_detect_cycles", idle_detect_cycles, 0, 100000, "idle cycles before a lane is gated"),
	U32("pg_lane", pg_lane, 0, 1, "power gating: lane policy on"),
	U32("pg_unit", pg_unit, 0, 1, "power gating: SIMD-unit level on"),
	U32("pg_core", pg_core, 0, 1, "power gating: core level on"),
	U32("pg_issue_ctrl", pg_issue_ctrl, 0, 1, "power gating: warp issue control on"),
	U32("pg_compaction", pg_compaction, 0, 1, "power gating: thread compaction on"),
	U32("pg_blackout", pg_blackout, 0, 1, "power gating: a gated lane stays off at least bet_cycles"),
	U32("pg_slice_cycles", pg_slice_cycles, 1, 65535, "power gating: issue-control time slice (16-bit PG_SLICE)"),
	STR("pg_down_pct", pg_down_pct, "power gating: utilisation bands of S1, S2, S3 (percent list)"),
	STR("pg_up_pct", pg_up_pct, "power gating: up thresholds of S2, S3, S4 (percent list)"),
	F64("pg_lane_leak_mw", pg_lane_leak_mw, 0.0, 1e6, "leakage power of one powered lane, mW"),
	F64("pg_sleep_leak_pct", pg_sleep_leak_pct, 0.0, 100.0, "leakage left while a lane sleeps, %"),
	STR("pg_bet_mode", pg_bet_mode, "BET: given (bet_cycles) or circuit (from pg_switch_pj, pg_recharge_pj)"),
	F64("pg_switch_pj", pg_switch_pj, 0.0, 1e9, "sleep-transistor switching energy per gating event, pJ"),
	F64("pg_recharge_pj", pg_recharge_pj, 0.0, 1e9, "virtual-rail recharge energy per wake-up, pJ"),
	STR("pg_dyn_pj", pg_dyn_pj, "dynamic energy per thread operation, class=pJ list"),
	STR("cta_policy", cta_policy, "CTA dispatch: rr, consolidate or congestion"),
	F64("cta_alpha", cta_alpha, 0.0, 1000.0, "congestion metric: weight of the stall rate"),
	F64("cta_beta", cta_beta, 0.0, 1000.0, "congestion metric: weight of 1 / ALU utilisation"),
	F64("cta_threshold", cta_threshold, 1e-6, 1e6, "congestion metric from which SMs are shed"),
	F64("cta_slowdown_pct", cta_slowdown_pct, 0.0, 1000.0, "slowdown budget of the congestion policy, %"),
	U32("cta_min_sms", cta_min_sms, 1, 64, "fewest SMs the congestion policy keeps"),
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

void wg_config_default(struct wg_config *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->name, "gtx480");
	c->num_sms = 15;
	c->core_clock_mhz = 700;
	c->warp_size = 32;
	c->max_warps_per_sm = 48;
	c->max_threads_per_cta = 1024;
	c->max_ctas_per_sm = 8;
	c->regs_per_sm = 32768;
	c->reg_banks = 16;
	c->simd_width = 16;
	c->simd_units = 2;
	c->schedulers = 2;
	c->shmem_l1_bytes = 65536;
	c->shmem_bytes = 49152;
	c->shmem_banks = 32;
	strcpy(c->dl1, "32:128:4");
	c->l1_cache_global = 0;
	c->global_mem_bytes = 1536ull << 20;
	c->mem_channels = 6;
	strcpy(c->dl2, "64:128:16");
	strcpy(c->dram_timing, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2");
	c->dram_clock_mhz = 924;
	c->dram_queue = 32;
	c->rop_latency = 120;
	c->dram_latency = 100;
	c->sm_mem_latency = 32;
	c->cta_dispatch_latency = 40;
	c->bet_cycles = 100;
	c->wakeup_cycles = 3;
	c->idle_detect_cycles = 5;
	c->pg_slice_cycles = 100;
	strcpy(c->pg_down_pct, "75,50,25");
	strcpy(c->pg_up_pct, "60,40,20");
	c->pg_lane_leak_mw = 2.0;
	c->pg_sleep_leak_pct = 5.0;
	strcpy(c->pg_bet_mode, "given");
	strcpy(c->pg_dyn_pj, "int=1.0,imul=2.5,fp=2.0,sfu=8.0");
	strcpy(c->cta_policy, "rr");
	c->cta_alpha = 0.5;
	c->cta_beta = 1.0;
	c->cta_threshold = 4.0;
	c->cta_slowdown_pct = 5.0;
	c->cta_min_sms = 8;
}

static const struct key_desc *find_key(const char *key)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].key, key))
			return &keys[i];
	return NULL;
}

int wg_config_set_pg(struct wg_config *c, const char *mode, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		uint32_t lane, issue, comp;
	} modes[] = {
		{ "off", 0, 0, 0 }, { "normal", 1, 0, 0 }, { "issue", 1, 1, 0 }, { "comp", 1, 0, 1 }, { "mix", 1, 1, 1 },
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (mode && !strcmp(mode, modes[i].name)) {
			c->pg_lane = modes[i].lane;
			c->pg_issue_ctrl = modes[i].issue;
			c->pg_compaction = modes[i].comp;
			return 0;
		}
	}
	snprintf(err, errlen, "value of 'pg' is '%s', expected off, normal, issue, comp or mix", mode ? mode : "");
	return WG_ECONFIG;
}

int wg_config_set(struct wg_config *c, const char *key, const char *value, char *err, size_t errlen)
{
	if (key && !strcmp(key, "pg"))
		return wg_config_set_pg(c, value, err, errlen);
	const struct key_desc *k = find_key(key);
	char *end;

	if (!k) {
		snprintf(err, errlen, "unknown key '%s'", key);
		return WG_ECONFIG;
	}
	if (k->type == KT_STR) {
		if (strlen(value) >= WG_CFG_STR) {
			snprintf(err, errlen, "value of '%s' is longer than %d characters", key, WG_CFG_STR - 1);
			return WG_ECONFIG;
		}
		if (!strcmp(key, "cta_policy") && wg_dispatch_policy_parse(value, NULL)) {
			snprintf(err, errlen, "value of 'cta_policy' is '%s', expected rr, consolidate or congestion", value);
			return WG_ECONFIG;
		}
		if (!strcmp(key, "dram_timing")) {
			struct wg_dram_timing t;
			char msg[200];

			if (wg_dram_timing_parse(&t, value, msg, sizeof(msg))) {
				snprintf(err, errlen, "dram_timing: %s", msg);
				return WG_ECONFIG;
			}
		}
		if (!strcmp(key, "pg_bet_mode") && strcmp(value, "given") && strcmp(value, "circuit")) {
			snprintf(err, errlen, "value of 'pg_bet_mode' is '%s', expected given or circuit", value);
			return WG_ECONFIG;
		}
		if (!strcmp(key, "pg_down_pct") || !strcmp(key, "pg_up_pct")) {
			uint32_t pct[3];
			char msg[200];

			if (wg_config_parse_pct3(value, pct, msg, sizeof(msg))) {
				snprintf(err, errlen, "%s: %s", key, msg);
				return WG_ECONFIG;
			}
			/* the bands of S1, S2, S3 are floors of one scale: they must not increase */
			if (key[3] == 'd' && !(pct[0] >= pct[1] && pct[1] >= pct[2])) {
				snprintf(err, errlen, "%s: '%s' increases; the floors of S1, S2, S3 must not (e.g. 75,50,25)",
				         key, value);
				return WG_ECONFIG;
			}
		}
		if (!strcmp(key, "pg_dyn_pj")) {
			double dyn[WG_CLASS_COUNT];
			char msg[200];

			if (wg_energy_parse_dyn(value, dyn, msg, sizeof(msg))) {
				snprintf(err, errlen, "pg_dyn_pj: %s", msg);
				return WG_ECONFIG;
			}
		}
		if (!strcmp(key, "dl1") || !strcmp(key, "dl2")) {
			struct wg_cache_geom g;
			char msg[200];

			if (wg_cache_str_parse(value, &g, msg, sizeof(msg))) {
				snprintf(err, errlen, "%s: %s", key, msg);
				return WG_ECONFIG;
			}
		}
		strcpy((char *)c + k->offset, value);
		return 0;
	}
	if (k->type == KT_F64) {
		errno = 0;
		double d = strtod(value, &end);
		if (errno || end == value || *end || !isfinite(d)) {
			snprintf(err, errlen, "value of '%s' is '%s', expected a number", key, value);
			return WG_ECONFIG;
		}
		if (d < k->fmin || d > k->fmax) {
			snprintf(err, errlen, "value of '%s' is %g, expected %g..%g", key, d, k->fmin, k->fmax);
			return WG_ECONFIG;
		}
		*(double *)((char *)c + k->offset) = d;
		return 0;
	}
	errno = 0;
	unsigned long long v = strtoull(value, &end, 0);
	/* Size suffixes for byte counts: K, M, G (powers of two). */
	if (end != value && (*end == 'K' || *end == 'M' || *end == 'G') && end[1] == '\0') {
		v <<= *end == 'K' ? 10 : *end == 'M' ? 20 : 30;
		end++;
	}
	if (errno || end == value || *end || value[0] == '-') {
		snprintf(err, errlen, "value of '%s' is '%s', expected an unsigned integer", key, value);
		return WG_ECONFIG;
	}
	if (v < k->min || v > k->max) {
		snprintf(err, errlen, "value of '%s' is %llu, expected %llu..%llu", key, v,
		         (unsigned long long)k->min, (unsigned long long)k->max);
		return WG_ECONFIG;
	}
	if (k->type == KT_U32)
		*(uint32_t *)((char *)c + k->offset) = (uint32_t)v;
	else
		*(uint64_t *)((char *)c + k->offset) = v;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int check_consistency(const struct wg_config *c, char *err, size_t errlen)
{
	if (c->shmem_bytes > c->shmem_l1_bytes) {
		snprintf(err, errlen, "shmem_bytes (%u) exceeds shmem_l1_bytes (%u)", c->shmem_bytes, c->shmem_l1_bytes);
		return WG_ECONFIG;
	}
	if (c->max_threads_per_cta > c->max_warps_per_sm * c->warp_size) {
		snprintf(err, errlen, "max_threads_per_cta (%u) exceeds max_warps_per_sm x warp_size (%u)",
		         c->max_threads_per_cta, c->max_warps_per_sm * c->warp_size);
		return WG_ECONFIG;
	}
	return 0;
}

int wg_config_load(struct wg_config *c, const char *path, char *err, size_t errlen)
{
	char line[512], msg[300];
	unsigned lineno = 0;
	int rc = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return WG_ENOENT;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%u: line longer than %zu characters", path, lineno, sizeof(line) - 2);
			rc = WG_ECONFIG;
			goto out;
		}
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *s = trim(line);
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errlen, "%s:%u: expected 'key = value', got '%s'", path, lineno, s);
			rc = WG_ECONFIG;
			goto out;
		}
		*eq = '\0';
		char *key = trim(s), *value = trim(eq + 1);
		if (!*key || !*value) {
			snprintf(err, errlen, "%s:%u: expected 'key = value' with both parts non-empty", path, lineno);
			rc = WG_ECONFIG;
			goto out;
		}
		rc = wg_config_set(c, key, value, msg, sizeof(msg));
		if (rc) {
			snprintf(err, errlen, "%s:%u: %s", path, lineno, msg);
			goto out;
		}
	}
	rc = check_consistency(c, msg, sizeof(msg));
	if (rc)
		snprintf(err, errlen, "%s: %s", path, msg);
out:
	fclose(f);
	return rc;
}

/* The shortest of %.15g / %.17g that reads back as the same double. */
static void write_f64(FILE *out, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, out);
}

void wg_config_write(const struct wg_config *c, FILE *out)
{
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key_desc *k = &keys[i];
		const char *p = (const char *)c + k->offset;
		fprintf(out, "%-20s = ", k->key);
		if (k->type == KT_STR)
			fprintf(out, "%s", p);
		else if (k->type == KT_F64)
			write_f64(out, *(const double *)p);
		else if (k->type == KT_U32)
			fprintf(out, "%u", *(const uint32_t *)p);
		else
			fprintf(out, "%llu", (unsigned long long)*(const uint64_t *)p);
		fprintf(out, "    # %s\n", k->help);
	}
}

int wg_config_parse_pct3(const char *s, uint32_t out[3], char *err, size_t errlen)
{
	const char *p = s;

	for (int i = 0; i < 3; i++) {
		char *end;
		unsigned long v;

		if (*p < '0' || *p > '9') {
			snprintf(err, errlen, "item %d at position %d: '%s' is not a percentage 0..100", i + 1,
			         (int)(p - s) + 1, p);
			return WG_EINVAL;
		}
		v = strtoul(p, &end, 10);
		if (v > 100) {
			snprintf(err, errlen, "item %d at position %d: %lu is above 100", i + 1, (int)(p - s) + 1, v);
			return WG_EINVAL;
		}
		out[i] = (uint32_t)v;
		p = end;
		if (i < 2) {
			if (*p != ',') {
				snprintf(err, errlen, "position %d: expected ',' after item %d, found '%s'", (int)(p - s) + 1,
				         i + 1, *p ? p : "the end");
				return WG_EINVAL;
			}
			p++;
		}
	}
	if (*p) {
		snprintf(err, errlen, "position %d: '%s' after the third item", (int)(p - s) + 1, p);
		return WG_EINVAL;
	}
	return 0;
}
