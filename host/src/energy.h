/*
 * Power-gating accounting on the host: the paper's net-saved-cycles metric
 * from an idle-interval histogram, the online controller's figure, and the
 * lane energy model (docs/power-gating.md section 6).
 *
 * The inputs are the RTL's power-gating counters (section 4) summed over the
 * SMs of interest; nothing here depends on a target.
 */
#ifndef WG_ENERGY_H
#define WG_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"

struct wg_config;
struct wg_json;

/* Exact histogram bins: hist[L] for L = 1..WG_PG_HIST_BINS (hist[0] unused). */
#define WG_PG_HIST_BINS 1024
/* Largest BET the histogram answers exactly (section 6.1). */
#define WG_PG_BET_MAX (WG_PG_HIST_BINS + 1)

struct wg_pg_counts {
	uint32_t lanes;         /* lanes counted (all SMs together) */
	uint64_t lane_cycles;   /* their lane-cycles: sum over SMs of lanes x SM cycles */
	uint64_t active, idle, sleep, wake; /* lane-cycles in each state */
	uint64_t events;        /* gating events (idle -> sleep) */
	uint64_t wake_stall;    /* wake-up stall cycles */
	uint64_t hist[WG_PG_HIST_BINS + 1];
	uint64_t over_count;    /* intervals longer than WG_PG_HIST_BINS */
	uint64_t over_sum;      /* and the sum of their lengths */
	uint64_t hist_lost;     /* intervals the RTL could not record (must be 0) */
	uint64_t core_active, core_sleep; /* SM-cycles */
	uint64_t skipped;       /* SM-cycles of the windows that idle skipping did not clock (docs/gpu.md 4.3) */
	uint64_t thread_ops[WG_CLASS_COUNT]; /* thread operations per class (dynamic energy) */
};

/*
 * One SM's power-gating counters as its read port gives them (docs/power-gating.md
 * section 4.1), for one window: what the sim target reads through sim/wgsim.h and the gpu
 * and board targets through the counter pages of docs/gpu.md section 4.3. Lane i is lane
 * i mod (lanes / units) of unit i / (lanes / units).
 */
#define WG_PG_MAX_LANES 64
#define WG_PG_MAX_UNITS 4
struct wg_pg_sm {
	uint32_t lanes, units;
	uint64_t cycles;        /* cycles counted (the window, 0xC00) */
	uint64_t skipped;       /* target cycles of the window the SM was not clocked (0xC08; gpu only) */
	uint64_t active[WG_PG_MAX_LANES], idle[WG_PG_MAX_LANES], sleep[WG_PG_MAX_LANES], wake[WG_PG_MAX_LANES];
	uint64_t events[WG_PG_MAX_LANES];
	uint64_t unit_sleep[WG_PG_MAX_UNITS], unit_events[WG_PG_MAX_UNITS];
	uint64_t over_count[WG_PG_MAX_UNITS], over_sum[WG_PG_MAX_UNITS], lost[WG_PG_MAX_UNITS];
	uint64_t hist[WG_PG_MAX_UNITS][WG_PG_HIST_BINS + 1]; /* hist[u][L], L = 1..1024 */
	uint64_t wake_stall, core_active, core_sleep, core_events, core_wake_stall;
};

/*
 * The counts of one SM's window (lanes, lane_cycles = lanes x cycles, the states summed
 * over lanes, the units' histograms summed) with its thread operations per class
 * (thread_ops may be NULL: none). Every target builds its `power` object from these
 * (wg_pg_counts_add over SMs and launches, then wg_power_to_json_sms). Returns 0, WG_EINVAL
 * for more lanes or units than the struct holds or lanes not a multiple of units, or
 * WG_EMISMATCH when the window is inconsistent (wg_pg_counts_check; c is filled all the same,
 * the reason in err).
 */
int wg_pg_counts_from_sm(const struct wg_pg_sm *sm, const uint64_t *thread_ops, struct wg_pg_counts *c, char *err,
                         size_t errlen);

void wg_pg_counts_clear(struct wg_pg_counts *c);
/* acc += c, field by field (SMs or launches summed). */
void wg_pg_counts_add(struct wg_pg_counts *acc, const struct wg_pg_counts *c);
/* Adds one idle interval of len cycles to the histogram (len >= 1). */
void wg_pg_hist_record(struct wg_pg_counts *c, uint64_t len);

/*
 * Consistency of a closed window (section 4): the states add up to
 * lane_cycles, and the histogram's cycles equal idle + sleep + wake.
 * Returns 0, or WG_EINVAL with what differs in err.
 */
int wg_pg_counts_check(const struct wg_pg_counts *c, char *err, size_t errlen);

/* Idle intervals in the histogram and their cycles. */
uint64_t wg_pg_intervals(const struct wg_pg_counts *c);
uint64_t wg_pg_interval_cycles(const struct wg_pg_counts *c);

/*
 * The oracle: sum over intervals with L >= bet of (L - bet). WG_EINVAL for
 * bet = 0 or bet > WG_PG_BET_MAX (the histogram cannot answer exactly).
 */
int wg_pg_oracle_saved(const struct wg_pg_counts *c, uint32_t bet, uint64_t *saved);
/* The online controller: sleep lane-cycles - events x bet (may be negative). */
int64_t wg_pg_online_saved(const struct wg_pg_counts *c, uint32_t bet);

enum wg_bet_mode { WG_BET_GIVEN = 0, WG_BET_CIRCUIT = 1 };

struct wg_energy_params {
	double clock_mhz;         /* core_clock_mhz */
	double lane_leak_mw;      /* pg_lane_leak_mw */
	double sleep_leak_pct;    /* pg_sleep_leak_pct */
	enum wg_bet_mode bet_mode; /* pg_bet_mode */
	uint32_t bet_cycles;      /* bet_cycles (given mode) */
	double switch_pj;         /* pg_switch_pj (circuit mode) */
	double recharge_pj;       /* pg_recharge_pj (circuit mode) */
	double dyn_pj[WG_CLASS_COUNT]; /* pg_dyn_pj, per thread operation */
};

/* Parameters from a configuration (section 6.2). Errors name the key. */
int wg_energy_params_from_config(const struct wg_config *cfg, struct wg_energy_params *p, char *err, size_t errlen);

/*
 * Parses a pg_dyn_pj list "class=pJ,class=pJ" (class names of wg_class_name)
 * into dyn (classes not named are 0). Errors name the position and the item.
 */
int wg_energy_parse_dyn(const char *s, double dyn[WG_CLASS_COUNT], char *err, size_t errlen);

/* Leakage energy of one powered lane-cycle, pJ. */
double wg_energy_leak_pj(const struct wg_energy_params *p);

/*
 * The BET in cycles and the energy of one gating event in pJ (section 6.2).
 * WG_EINVAL when the circuit mode cannot give one (no leakage to save) or the
 * result exceeds 100000 cycles.
 */
int wg_energy_bet(const struct wg_energy_params *p, uint32_t *bet, double *gate_pj);

struct wg_energy {
	uint32_t bet;
	double gate_pj;         /* one gating event */
	double dynamic_pj;
	double leak_nogating_pj;
	double leak_gated_pj;
	double overhead_pj;
	double total_pj;        /* dynamic + leak_gated + overhead */
	double saving_pct;      /* against dynamic + leak_nogating */
	uint64_t oracle_saved;  /* at bet (0 and oracle_ok = 0 when bet > WG_PG_BET_MAX) */
	int oracle_ok;
	double oracle_total_pj; /* the oracle's total energy at bet */
	int64_t online_saved;
};

int wg_energy_compute(const struct wg_pg_counts *c, const struct wg_energy_params *p, struct wg_energy *e);

/*
 * Writes the object "power" of docs/power-gating.md section 6.3 (totals)
 * into the current JSON object. Returns the result of wg_energy_compute.
 */
int wg_power_to_json(const struct wg_pg_counts *c, const struct wg_energy_params *p, struct wg_json *j);
/*
 * The same with the SMs' own figures: "power" holds the totals and an array "per_sm"
 * of objects with the same keys, one per SM (none when nsm is 0).
 */
int wg_power_to_json_sms(const struct wg_pg_counts *total, const struct wg_pg_counts *per_sm, unsigned nsm,
                         const struct wg_energy_params *p, struct wg_json *j);

/*
 * The SM's power-gating kernel registers 17..24 (rtl/wg_sm_pkg.sv, docs/sm.md section 2.1,
 * docs/power-gating.md section 5) from a configuration: regs[0] = PG_ISSUE (bit 0
 * pg_issue_ctrl, 1 pg_compaction; its write restarts the issue control, so it is written
 * last), PG_SLICE (pg_slice_cycles), PG_DOWN and PG_UP (pg_down_pct, pg_up_pct: three
 * percentages in bytes 0..2), PG_CTRL (bit 0 pg_lane, 1 pg_unit, 2 pg_core, 3 pg_blackout),
 * PG_BET (the energy model's BET, section 6.2), PG_IDLE (idle_detect_cycles), PG_WAKE
 * (wakeup_cycles). Errors name the key.
 */
#define WG_PG_REG_FIRST 17
#define WG_PG_NREGS 8
int wg_pg_regs(const struct wg_config *c, uint32_t regs[WG_PG_NREGS], char *err, size_t errlen);

#endif
