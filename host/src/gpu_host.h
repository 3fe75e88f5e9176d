/*
 * The host side of the link to the GPU top (docs/gpu.md, docs/gpu-target.md):
 * runs one launch on NUM_SMS SMs in target time. It sets the kernel up,
 * dispatches CTAs, applies every memory request to global memory
 * (memserve.h), times it through the memory models and answers it, and
 * grants target time conservatively, so that results and cycle counts do
 * not depend on the transport or on how fast it is.
 *
 * The transport is a small vtable over the GPU top's command and event
 * records (sim/wggpu.h): the in-process Verilated GPU (target "gpu") and
 * the framed link to the board model (target "board", docs/board.md).
 */
#ifndef WG_GPU_HOST_H
#define WG_GPU_HOST_H

#include <stdint.h>

#include "../../sim/wggpu.h"
#include "config.h"
#include "dispatch.h"
#include "energy.h"
#include "gmem.h"
#include "json.h"
#include "launch.h"
#include "memsys.h"
#include "stats.h"

struct wg_gpu_port_ops {
	const char *name;
	int (*push)(void *ctx, const struct wggpu_cmd *c);  /* queue a command: 0 or WG_E* */
	int (*run)(void *ctx, uint64_t link_cycles);          /* move the link on: 0 or WG_E* */
	int (*pop)(void *ctx, struct wggpu_ev *e);            /* 1 an event, 0 none, or WG_E* */
	uint64_t (*link_cycles)(void *ctx);                   /* link cycles so far (statistics) */
};

/* Target options (wg_set_option / --option KEY=VALUE), docs/gpu-target.md. */
struct wg_gpu_host_opts {
	uint32_t sched;            /* 0 lrr, 1 gto */
	uint32_t l1_ctrl;          /* L1_CTRL mode and split bits (l1_mode, l1_split) */
	uint32_t grant_window;     /* grant at most this many cycles at a time (0: the whole lookahead) */
	uint32_t cmd_idle, ev_idle; /* link_idle=CMD,EV: per mille idle link cycles (tests) */
	uint64_t link_seed;
	uint64_t watchdog;         /* cycles without any event before the run is stopped */
	uint32_t mem_latency;      /* mem_model=fixed: every request answered after this many cycles */
	int mem_fixed;             /* 1: fixed latency instead of the memory models */
};

void wg_gpu_host_opts_default(struct wg_gpu_host_opts *o);
/* One option; WG_ENOTSUP for an unknown key (err lists the known ones), WG_EINVAL for a bad value. */
int wg_gpu_host_option(struct wg_gpu_host_opts *o, const char *key, const char *value, struct wg_err *err);

/* Counters summed over launches (the target's part of the JSON statistics). */
struct wg_gpu_host_totals {
	uint32_t nsms;
	uint64_t launches, cycles, warp_insts, mem_reqs, grants, link_cycles;
	uint64_t *sm_active, *sm_ctas, *sm_warp_insts; /* per SM: the SM's counters, CTAs dispatched */
	uint64_t *sm_busy_cycles;                      /* per SM: cycles with a CTA resident (dispatcher) */
	uint64_t *sm_gateable_kernels;                 /* per SM: launches the policy left it without CTAs */
	char policy[16];
	struct wg_dispatch_decision decision;          /* the last launch's congestion decision */
	int mem_models;                                /* mem: sums over launches with the memory models */
	struct wg_memsys_stats mem;
	uint64_t cnt[WGGPU_CNT_WORDS];                 /* the SM counter words, summed over SMs */
	double host_seconds;
	/* power gating (docs/power-gating.md section 6.3): per SM and in total, summed over launches */
	struct wg_pg_counts *pg_sm, *pg_total;
	struct wg_energy_params energy;                /* the last launch's energy model */
	int energy_ok;
	char energy_why[200];
	uint64_t pg_pages;                             /* power-gating pages read (CNT_READs) */
	double pg_seconds;                             /* wall time spent closing and reading them */
};

void wg_gpu_host_totals_free(struct wg_gpu_host_totals *t);
void wg_gpu_host_totals_json(const struct wg_gpu_host_totals *t, const struct wg_gpu_host_opts *o,
                             struct wg_json *j);

struct wg_gpu_host_env {
	const struct wg_gpu_port_ops *ops;
	void *ctx;
	const struct wggpu_info *info;
	struct wg_gmem *gmem;
	const struct wg_config *cfg;
	const struct wg_gpu_host_opts *opts;
};

/*
 * Does the GPU build (a HELLO's or wggpu_info's parameters) hold what the configuration
 * describes? Capacity: n_sm, max_warps_per_sm, max_ctas_per_sm, regs_per_sm and
 * shmem_l1_bytes may not exceed the build's SMs, warp slots, CTA slots, registers and
 * L1/shared array; the lanes (simd_width x simd_units) must be the build's, since the
 * dispatcher's ALU utilisation counts them. A build field of 0 (not announced) is not
 * checked. The build's register banks, L1 geometry, stack depth and FP unit are what the
 * RTL has; the configuration's reg_banks, dl1 and shmem_banks describe the func and sim
 * targets and are not compared. Returns 0, or WG_ECONFIG with a message in why naming the
 * key and both values.
 */
int wg_gpu_host_check_build(const struct wg_config *cfg, const struct wggpu_info *in, char *why, size_t n);

/* Run launch l to completion; adds to st and tot. Errors name the kernel, CTA, warp, pc, lane. */
int wg_gpu_host_launch(const struct wg_gpu_host_env *env, const struct wg_launch *l, struct wg_stats *st,
                       struct wg_gpu_host_totals *tot, struct wg_err *err);

#endif
