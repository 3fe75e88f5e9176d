/*
 * Configuration of the modelled GPU (docs/config.md). Files hold
 * "key = value" lines; values that GPGPU-Sim users know (cache geometry,
 * DRAM timing) keep GPGPU-Sim's string syntax.
 */
#ifndef WG_CONFIG_H
#define WG_CONFIG_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#define WG_CFG_STR 160

struct wg_config {
	char name[WG_CFG_STR];
	/* GPU */
	uint32_t num_sms;              /* n_sm */
	uint32_t core_clock_mhz;       /* core_clock_mhz */
	/* SM */
	uint32_t warp_size;            /* warp_size (fixed 32) */
	uint32_t max_warps_per_sm;     /* max_warps_per_sm */
	uint32_t max_threads_per_cta;  /* max_threads_per_cta */
	uint32_t max_ctas_per_sm;      /* max_ctas_per_sm */
	uint32_t regs_per_sm;          /* regs_per_sm (32-bit registers) */
	uint32_t reg_banks;            /* reg_banks */
	uint32_t simd_width;           /* simd_width */
	uint32_t simd_units;           /* simd_units */
	uint32_t schedulers;           /* schedulers */
	uint32_t shmem_l1_bytes;       /* shmem_l1_bytes: the shared/L1 array */
	uint32_t shmem_bytes;          /* shmem_bytes: the shared part (16 or 48 KB) */
	uint32_t shmem_banks;          /* shmem_banks */
	char dl1[WG_CFG_STR];          /* dl1: GPGPU-Sim cache string */
	uint32_t l1_cache_global;      /* l1_cache_global: 0 Kepler mode, 1 Fermi mode */
	/* memory */
	uint64_t global_mem_bytes;     /* global_mem_bytes */
	uint32_t mem_channels;         /* mem_channels */
	char dl2[WG_CFG_STR];          /* dl2: per channel */
	char dram_timing[WG_CFG_STR];  /* dram_timing */
	uint32_t dram_clock_mhz;       /* dram_clock_mhz */
	uint32_t dram_queue;           /* dram_queue */
	uint32_t rop_latency;          /* rop_latency */
	uint32_t dram_latency;         /* dram_latency */
	uint32_t sm_mem_latency;       /* sm_mem_latency: SM memory port to the interconnect (a fixed pipeline) */
	uint32_t cta_dispatch_latency; /* cta_dispatch_latency: CTA completion to the next launch on that SM */
	/* power gating */
	uint32_t bet_cycles;           /* bet_cycles */
	uint32_t wakeup_cycles;        /* wakeup_cycles */
	uint32_t idle_detect_cycles;   /* idle_detect_cycles */
	uint32_t pg_lane;              /* pg_lane: lane policy on (docs/power-gating.md section 5) */
	uint32_t pg_unit;              /* pg_unit: SIMD-unit level on */
	uint32_t pg_core;              /* pg_core: core level on */
	uint32_t pg_issue_ctrl;        /* pg_issue_ctrl: warp issue control (section 3) */
	uint32_t pg_compaction;        /* pg_compaction: thread compaction (section 3.3) */
	uint32_t pg_blackout;          /* pg_blackout: a gated lane stays off at least bet_cycles */
	uint32_t pg_slice_cycles;      /* pg_slice_cycles: issue-control time slice */
	char pg_down_pct[WG_CFG_STR];  /* pg_down_pct: utilisation bands of S1..S3, percent */
	char pg_up_pct[WG_CFG_STR];    /* pg_up_pct: up thresholds of S2..S4, percent */
	/* energy model (docs/power-gating.md section 6.2) */
	double pg_lane_leak_mw;        /* pg_lane_leak_mw: leakage of one powered lane */
	double pg_sleep_leak_pct;      /* pg_sleep_leak_pct: leakage left asleep, % */
	char pg_bet_mode[WG_CFG_STR];  /* pg_bet_mode: given (bet_cycles) or circuit */
	double pg_switch_pj;           /* pg_switch_pj: sleep-transistor switching per event */
	double pg_recharge_pj;         /* pg_recharge_pj: virtual-rail recharge per wake-up */
	char pg_dyn_pj[WG_CFG_STR];    /* pg_dyn_pj: class=pJ list, per thread operation */
	/* CTA dispatch (docs/dispatch.md) */
	char cta_policy[WG_CFG_STR];   /* cta_policy: rr, consolidate or congestion */
	double cta_alpha;              /* cta_alpha: weight of the stall rate */
	double cta_beta;               /* cta_beta: weight of 1 / ALU utilisation */
	double cta_threshold;          /* cta_threshold: metric from which a kernel counts as congested */
	double cta_slowdown_pct;       /* cta_slowdown_pct: slowdown budget, percent */
	uint32_t cta_min_sms;          /* cta_min_sms: fewest SMs the congestion policy keeps */
};

/* The built-in default: the GTX480 of the paper's Table 1 (configs/gtx480.cfg). */
void wg_config_default(struct wg_config *c);

/*
 * Load a file over the defaults. Errors name path:line and the key; err
 * receives the message. Returns 0 or WG_ECONFIG / WG_ENOENT.
 */
int wg_config_load(struct wg_config *c, const char *path, char *err, size_t errlen);
/* Apply one "key = value" setting (also used for command-line overrides). */
int wg_config_set(struct wg_config *c, const char *key, const char *value, char *err, size_t errlen);
/*
 * The power-gating mode (docs/power-gating.md section 5), also accepted by wg_config_set as
 * the key "pg": off (every policy off), normal (lane gating by idle detect: pg_lane), issue
 * (+ pg_issue_ctrl), comp (+ pg_compaction), mix (both).
 */
int wg_config_set_pg(struct wg_config *c, const char *mode, char *err, size_t errlen);
/* Write every key as a loadable file. */
void wg_config_write(const struct wg_config *c, FILE *out);

/*
 * Parses a list of three percentages "a,b,c" (pg_down_pct, pg_up_pct), each 0..100.
 * Errors name the position and the item.
 */
int wg_config_parse_pct3(const char *s, uint32_t out[3], char *err, size_t errlen);

#endif
