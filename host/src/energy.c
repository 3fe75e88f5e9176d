/* Power-gating metric and lane energy model (docs/power-gating.md section 6). */
#include "energy.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "json.h"
#include "warpgate.h"

void wg_pg_counts_clear(struct wg_pg_counts *c)
{
	memset(c, 0, sizeof(*c));
}

void wg_pg_counts_add(struct wg_pg_counts *acc, const struct wg_pg_counts *c)
{
	unsigned i;

	acc->lanes += c->lanes;
	acc->lane_cycles += c->lane_cycles;
	acc->active += c->active;
	acc->idle += c->idle;
	acc->sleep += c->sleep;
	acc->wake += c->wake;
	acc->events += c->events;
	acc->wake_stall += c->wake_stall;
	for (i = 1; i <= WG_PG_HIST_BINS; i++)
		acc->hist[i] += c->hist[i];
	acc->over_count += c->over_count;
	acc->over_sum += c->over_sum;
	acc->hist_lost += c->hist_lost;
	acc->core_active += c->core_active;
	acc->core_sleep += c->core_sleep;
	acc->skipped += c->skipped;
	for (i = 0; i < WG_CLASS_COUNT; i++)
		acc->thread_ops[i] += c->thread_ops[i];
}

void wg_pg_hist_record(struct wg_pg_counts *c, uint64_t len)
{
	if (len == 0)
		return;
	if (len <= WG_PG_HIST_BINS) {
		c->hist[len]++;
	} else {
		c->over_count++;
		c->over_sum += len;
	}
}

uint64_t wg_pg_intervals(const struct wg_pg_counts *c)
{
	uint64_t n = c->over_count;
	unsigned l;

	for (l = 1; l <= WG_PG_HIST_BINS; l++)
		n += c->hist[l];
	return n;
}

uint64_t wg_pg_interval_cycles(const struct wg_pg_counts *c)
{
	uint64_t n = c->over_sum;
	unsigned l;

	for (l = 1; l <= WG_PG_HIST_BINS; l++)
		n += c->hist[l] * l;
	return n;
}

int wg_pg_counts_check(const struct wg_pg_counts *c, char *err, size_t errlen)
{
	uint64_t states = c->active + c->idle + c->sleep + c->wake;
	uint64_t off = c->idle + c->sleep + c->wake;
	uint64_t hist = wg_pg_interval_cycles(c);

	if (states != c->lane_cycles) {
		snprintf(err, errlen,
			 "lane states add up to %llu lane-cycles (active %llu, idle %llu, sleep %llu, wake %llu), expected %llu",
			 (unsigned long long)states, (unsigned long long)c->active, (unsigned long long)c->idle,
			 (unsigned long long)c->sleep, (unsigned long long)c->wake, (unsigned long long)c->lane_cycles);
		return WG_EINVAL;
	}
	if (c->hist_lost == 0 && hist != off) {
		snprintf(err, errlen,
			 "idle-interval histogram holds %llu cycles, expected idle + sleep + wake = %llu",
			 (unsigned long long)hist, (unsigned long long)off);
		return WG_EINVAL;
	}
	return 0;
}

int wg_pg_counts_from_sm(const struct wg_pg_sm *sm, const uint64_t *thread_ops, struct wg_pg_counts *c, char *err,
                         size_t errlen)
{
	uint32_t i, u, l;

	wg_pg_counts_clear(c);
	if (sm->lanes > WG_PG_MAX_LANES || sm->units > WG_PG_MAX_UNITS || !sm->units || sm->lanes % sm->units) {
		snprintf(err, errlen, "%u lanes in %u units: not a build the power accounting holds (at most %u lanes "
		         "in %u units, as many in each)", sm->lanes, sm->units, WG_PG_MAX_LANES, WG_PG_MAX_UNITS);
		return WG_EINVAL;
	}
	c->lanes = sm->lanes;
	c->lane_cycles = (uint64_t)sm->lanes * sm->cycles;
	for (i = 0; i < sm->lanes; i++) {
		c->active += sm->active[i];
		c->idle += sm->idle[i];
		c->sleep += sm->sleep[i];
		c->wake += sm->wake[i];
		c->events += sm->events[i];
	}
	for (u = 0; u < sm->units; u++) {
		for (l = 1; l <= WG_PG_HIST_BINS; l++)
			c->hist[l] += sm->hist[u][l];
		c->over_count += sm->over_count[u];
		c->over_sum += sm->over_sum[u];
		c->hist_lost += sm->lost[u];
	}
	c->wake_stall = sm->wake_stall;
	c->core_active = sm->core_active;
	c->core_sleep = sm->core_sleep;
	c->skipped = sm->skipped;
	for (i = 0; thread_ops && i < WG_CLASS_COUNT; i++)
		c->thread_ops[i] = thread_ops[i];
	/* every lane on its own: its four states add up to the window */
	for (i = 0; i < sm->lanes; i++) {
		uint64_t t = sm->active[i] + sm->idle[i] + sm->sleep[i] + sm->wake[i];

		if (t != sm->cycles) {
			snprintf(err, errlen, "lane %u (unit %u lane %u): active %llu + idle %llu + sleep %llu + wake %llu = "
			         "%llu, not the %llu cycles counted", i, i / (sm->lanes / sm->units),
			         i % (sm->lanes / sm->units), (unsigned long long)sm->active[i],
			         (unsigned long long)sm->idle[i], (unsigned long long)sm->sleep[i],
			         (unsigned long long)sm->wake[i], (unsigned long long)t, (unsigned long long)sm->cycles);
			return WG_EMISMATCH;
		}
	}
	return wg_pg_counts_check(c, err, errlen) ? WG_EMISMATCH : 0;
}

int wg_pg_oracle_saved(const struct wg_pg_counts *c, uint32_t bet, uint64_t *saved)
{
	uint64_t s = 0;
	unsigned l;

	if (bet == 0 || bet > WG_PG_BET_MAX)
		return WG_EINVAL;
	for (l = bet; l <= WG_PG_HIST_BINS; l++)
		s += c->hist[l] * (l - bet);
	/* Intervals over the histogram are at least 1025 >= bet cycles long. */
	s += c->over_sum - (uint64_t)bet * c->over_count;
	*saved = s;
	return 0;
}

int64_t wg_pg_online_saved(const struct wg_pg_counts *c, uint32_t bet)
{
	return (int64_t)c->sleep - (int64_t)(c->events * bet);
}

int wg_energy_parse_dyn(const char *s, double dyn[WG_CLASS_COUNT], char *err, size_t errlen)
{
	const char *p = s;
	unsigned i;

	for (i = 0; i < WG_CLASS_COUNT; i++)
		dyn[i] = 0.0;
	while (*p) {
		const char *item = p, *eq = strchr(p, '=');
		size_t namelen;
		unsigned cls;
		char *end;
		double v;

		if (!eq) {
			snprintf(err, errlen, "at character %u: '%s' is not class=pJ", (unsigned)(item - s) + 1, item);
			return WG_EINVAL;
		}
		namelen = (size_t)(eq - item);
		for (cls = 0; cls < WG_CLASS_COUNT; cls++) {
			const char *name = wg_class_name(cls);
			if (strlen(name) == namelen && !strncmp(name, item, namelen))
				break;
		}
		if (cls == WG_CLASS_COUNT) {
			snprintf(err, errlen, "at character %u: unknown operation class '%.*s'", (unsigned)(item - s) + 1,
				 (int)namelen, item);
			return WG_EINVAL;
		}
		errno = 0;
		v = strtod(eq + 1, &end);
		if (errno || end == eq + 1 || (*end && *end != ',') || !isfinite(v) || v < 0.0) {
			snprintf(err, errlen, "at character %u: energy of '%.*s' is not a number >= 0",
				 (unsigned)(eq + 1 - s) + 1, (int)namelen, item);
			return WG_EINVAL;
		}
		dyn[cls] = v;
		p = *end == ',' ? end + 1 : end;
		if (*end == ',' && !*p) {
			snprintf(err, errlen, "at character %u: list ends with ','", (unsigned)(end - s) + 1);
			return WG_EINVAL;
		}
	}
	return 0;
}

int wg_energy_params_from_config(const struct wg_config *cfg, struct wg_energy_params *p, char *err, size_t errlen)
{
	char msg[160];

	memset(p, 0, sizeof(*p));
	p->clock_mhz = cfg->core_clock_mhz;
	p->lane_leak_mw = cfg->pg_lane_leak_mw;
	p->sleep_leak_pct = cfg->pg_sleep_leak_pct;
	p->bet_cycles = cfg->bet_cycles;
	p->switch_pj = cfg->pg_switch_pj;
	p->recharge_pj = cfg->pg_recharge_pj;
	if (!strcmp(cfg->pg_bet_mode, "given")) {
		p->bet_mode = WG_BET_GIVEN;
	} else if (!strcmp(cfg->pg_bet_mode, "circuit")) {
		p->bet_mode = WG_BET_CIRCUIT;
	} else {
		snprintf(err, errlen, "pg_bet_mode is '%s', expected given or circuit", cfg->pg_bet_mode);
		return WG_ECONFIG;
	}
	if (wg_energy_parse_dyn(cfg->pg_dyn_pj, p->dyn_pj, msg, sizeof(msg))) {
		snprintf(err, errlen, "pg_dyn_pj: %s", msg);
		return WG_ECONFIG;
	}
	return 0;
}

double wg_energy_leak_pj(const struct wg_energy_params *p)
{
	/* mW x (1 / MHz) = mW x us = nJ; x 1000 for pJ. */
	return p->lane_leak_mw / p->clock_mhz * 1000.0;
}

int wg_energy_bet(const struct wg_energy_params *p, uint32_t *bet, double *gate_pj)
{
	double saved_per_cycle = wg_energy_leak_pj(p) * (1.0 - p->sleep_leak_pct / 100.0);

	if (p->bet_mode == WG_BET_GIVEN) {
		*bet = p->bet_cycles;
		*gate_pj = p->bet_cycles * saved_per_cycle;
		return 0;
	}
	if (!(saved_per_cycle > 0.0))
		return WG_EINVAL;
	double b = ceil((p->switch_pj + p->recharge_pj) / saved_per_cycle);
	if (b > 100000.0)
		return WG_EINVAL;
	*bet = b < 1.0 ? 1 : (uint32_t)b;
	*gate_pj = p->switch_pj + p->recharge_pj;
	return 0;
}

int wg_energy_compute(const struct wg_pg_counts *c, const struct wg_energy_params *p, struct wg_energy *e)
{
	double leak = wg_energy_leak_pj(p), keep = p->sleep_leak_pct / 100.0;
	unsigned i;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = wg_energy_bet(p, &e->bet, &e->gate_pj);
	if (ret)
		return ret;
	for (i = 0; i < WG_CLASS_COUNT; i++)
		e->dynamic_pj += (double)c->thread_ops[i] * p->dyn_pj[i];
	e->leak_nogating_pj = (double)c->lane_cycles * leak;
	e->leak_gated_pj = (double)(c->active + c->idle + c->wake) * leak + (double)c->sleep * leak * keep;
	e->overhead_pj = (double)c->events * e->gate_pj;
	e->total_pj = e->dynamic_pj + e->leak_gated_pj + e->overhead_pj;
	double base = e->dynamic_pj + e->leak_nogating_pj;
	e->saving_pct = base > 0.0 ? 100.0 * (1.0 - e->total_pj / base) : 0.0;
	e->oracle_ok = wg_pg_oracle_saved(c, e->bet, &e->oracle_saved) == 0;
	if (!e->oracle_ok)
		e->oracle_saved = 0;
	e->oracle_total_pj = base - (double)e->oracle_saved * leak * (1.0 - keep);
	e->online_saved = wg_pg_online_saved(c, e->bet);
	return 0;
}

static double share(double part, uint64_t whole)
{
	return whole ? part / (double)whole : 0.0;
}

/* The fields of section 6.3 into the current JSON object. */
static int power_fields(const struct wg_pg_counts *c, const struct wg_energy_params *p, struct wg_json *j)
{
	static const uint32_t curve[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, WG_PG_HIST_BINS };
	const unsigned ncurve = sizeof(curve) / sizeof(curve[0]);
	struct wg_energy e;
	unsigned i;
	int ret = wg_energy_compute(c, p, &e), bet_listed = 0;

	if (ret)
		return ret;
	wg_json_u64(j, "lanes", c->lanes);
	wg_json_u64(j, "lane_cycles", c->lane_cycles);
	wg_json_u64(j, "lane_active", c->active);
	wg_json_u64(j, "lane_idle", c->idle);
	wg_json_u64(j, "lane_sleep", c->sleep);
	wg_json_u64(j, "lane_wake", c->wake);
	wg_json_u64(j, "gating_events", c->events);
	wg_json_u64(j, "wakeup_stall_cycles", c->wake_stall);
	wg_json_u64(j, "bet", e.bet);
	wg_json_str(j, "bet_mode", p->bet_mode == WG_BET_GIVEN ? "given" : "circuit");
	if (e.oracle_ok) {
		wg_json_u64(j, "oracle_saved", e.oracle_saved);
		wg_json_double(j, "oracle_share", share((double)e.oracle_saved, c->lane_cycles));
	}
	/* the fixed points in ascending order, the run's BET in its place when it is not one of them */
	wg_json_begin_array(j, "oracle_curve");
	for (unsigned k = 0;;) {
		uint32_t b;
		uint64_t s;

		if (!bet_listed && e.oracle_ok && (k == ncurve || e.bet <= curve[k])) {
			b = e.bet;
			bet_listed = 1;
			k += k < ncurve && curve[k] == b;
		} else if (k < ncurve) {
			b = curve[k++];
		} else {
			break;
		}
		if (wg_pg_oracle_saved(c, b, &s))
			continue;
		wg_json_begin_array(j, NULL);
		wg_json_u64(j, NULL, b);
		wg_json_double(j, NULL, share((double)s, c->lane_cycles));
		wg_json_end_array(j);
	}
	wg_json_end_array(j);
	wg_json_i64(j, "online_saved", e.online_saved);
	wg_json_double(j, "online_share", share((double)e.online_saved, c->lane_cycles));
	wg_json_u64(j, "idle_intervals", wg_pg_intervals(c));
	wg_json_u64(j, "idle_interval_cycles", wg_pg_interval_cycles(c));
	wg_json_bool(j, "hist_exact", c->hist_lost == 0);
	wg_json_u64(j, "core_active_cycles", c->core_active);
	wg_json_u64(j, "core_sleep_cycles", c->core_sleep);
	wg_json_u64(j, "skipped_cycles", c->skipped);
	wg_json_begin_object(j, "energy_pj");
	wg_json_double(j, "leak_lane_cycle", wg_energy_leak_pj(p));
	wg_json_double(j, "sleep_leak_pct", p->sleep_leak_pct);
	wg_json_double(j, "gate_event", e.gate_pj);
	wg_json_double(j, "dynamic", e.dynamic_pj);
	/* the classes the model prices (pg_dyn_pj > 0): thread operations x pJ each */
	wg_json_begin_object(j, "dynamic_by_class");
	for (i = 0; i < WG_CLASS_COUNT; i++)
		if (p->dyn_pj[i] > 0.0)
			wg_json_double(j, wg_class_name(i), (double)c->thread_ops[i] * p->dyn_pj[i]);
	wg_json_end_object(j);
	wg_json_double(j, "leak_nogating", e.leak_nogating_pj);
	wg_json_double(j, "leak_gated", e.leak_gated_pj);
	wg_json_double(j, "overhead", e.overhead_pj);
	wg_json_double(j, "total", e.total_pj);
	wg_json_double(j, "saving_pct", e.saving_pct);
	if (e.oracle_ok)
		wg_json_double(j, "oracle_total", e.oracle_total_pj);
	wg_json_end_object(j);
	return 0;
}

int wg_power_to_json(const struct wg_pg_counts *c, const struct wg_energy_params *p, struct wg_json *j)
{
	return wg_power_to_json_sms(c, NULL, 0, p, j);
}

int wg_power_to_json_sms(const struct wg_pg_counts *total, const struct wg_pg_counts *per_sm, unsigned nsm,
                         const struct wg_energy_params *p, struct wg_json *j)
{
	struct wg_energy e;
	int ret = wg_energy_compute(total, p, &e);

	if (ret)
		return ret;
	wg_json_begin_object(j, "power");
	ret = power_fields(total, p, j);
	if (nsm) {
		wg_json_begin_array(j, "per_sm");
		for (unsigned i = 0; i < nsm && !ret; i++) {
			wg_json_begin_object(j, NULL);
			ret = power_fields(&per_sm[i], p, j);
			wg_json_end_object(j);
		}
		wg_json_end_array(j);
	}
	wg_json_end_object(j);
	return ret;
}

int wg_pg_regs(const struct wg_config *c, uint32_t regs[WG_PG_NREGS], char *err, size_t errlen)
{
	struct wg_energy_params ep;
	uint32_t down[3], up[3], bet;
	double gate_pj;
	int rc;

	rc = wg_energy_params_from_config(c, &ep, err, errlen);
	if (rc)
		return rc;
	if (wg_energy_bet(&ep, &bet, &gate_pj)) {
		snprintf(err, errlen, "pg_bet_mode: the energy model gives no break-even time below 100000 cycles");
		return WG_EINVAL;
	}
	rc = wg_config_parse_pct3(c->pg_down_pct, down, err, errlen);
	if (!rc)
		rc = wg_config_parse_pct3(c->pg_up_pct, up, err, errlen);
	if (rc)
		return rc;
	/* kernel registers 17.. (rtl/wg_sm_pkg.sv): PG_ISSUE, PG_SLICE, PG_DOWN, PG_UP, PG_CTRL, PG_BET,
	 * PG_IDLE, PG_WAKE; a write of PG_ISSUE restarts the issue control in S1, so write it last */
	regs[0] = (c->pg_issue_ctrl ? 1u : 0) | (c->pg_compaction ? 2u : 0);
	regs[1] = c->pg_slice_cycles;
	regs[2] = down[0] | down[1] << 8 | down[2] << 16;
	regs[3] = up[0] | up[1] << 8 | up[2] << 16;
	regs[4] = (c->pg_lane ? 1u : 0) | (c->pg_unit ? 2u : 0) | (c->pg_core ? 4u : 0) | (c->pg_blackout ? 8u : 0);
	regs[5] = bet;
	regs[6] = c->idle_detect_cycles;
	regs[7] = c->wakeup_cycles;
	return 0;
}
