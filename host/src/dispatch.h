/*
 * CTA dispatcher of the host (docs/dispatch.md): which SM each CTA of a
 * kernel launch goes to, and when.
 *
 * The occupancy of one SM is computed by the rules of the SM's CTA control
 * (rtl/wg_cta_ctrl.sv), so the dispatcher never offers a CTA that the SM
 * would refuse. Three policies, chosen by the configuration key cta_policy:
 * "rr" (round-robin over every SM), "consolidate" (a kernel whose CTAs all
 * fit at once is packed into the fewest SMs) and "congestion" (the paper's
 * congestion-aware CTA issue: at the first CTA completion the metric
 * alpha x stall_rate + beta / ALU_utilisation decides how many SMs the rest
 * of the kernel uses, within the slowdown budget).
 *
 * Time contract of the host models: times are uint64_t core cycles, every
 * call that carries a time is at or after the previous one (WG_EINVAL
 * otherwise), and the results depend only on the calls and their times.
 */
#ifndef WG_DISPATCH_H
#define WG_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "warpgate.h"

/* SMs one dispatcher can drive (the configuration allows n_sm up to 64). */
#define WG_DISPATCH_MAX_SMS 64
/* Shared memory is allocated per CTA in rows of the L1/shared array. */
#define WG_DISPATCH_SMEM_ROW 128u

enum wg_cta_policy {
	WG_CTA_RR = 0,          /* "rr" */
	WG_CTA_CONSOLIDATE = 1, /* "consolidate" */
	WG_CTA_CONGESTION = 2,  /* "congestion" */
};

/* Policy by name; policy may be NULL (validation only). WG_EINVAL for an unknown name. */
int wg_dispatch_policy_parse(const char *name, enum wg_cta_policy *policy);
const char *wg_dispatch_policy_name(enum wg_cta_policy policy);

/* What the dispatcher needs to know of a kernel launch. */
struct wg_dispatch_kernel {
	uint32_t threads;    /* threads per CTA (block x * y * z), >= 1 */
	uint32_t regs;       /* registers per thread (.regs), 1..63 */
	uint32_t smem_bytes; /* shared bytes per CTA: static + dynamic */
};

/* Resources that bound the CTAs resident on one SM (bits of wg_occupancy.limits). */
#define WG_LIMIT_THREADS 0x1u /* warp slots: max_warps_per_sm */
#define WG_LIMIT_REGS 0x2u    /* warp slots whose register rows fit */
#define WG_LIMIT_SMEM 0x4u    /* shared memory (the split's shared part) */
#define WG_LIMIT_CTAS 0x8u    /* CTA slots: max_ctas_per_sm */

struct wg_occupancy {
	uint32_t ctas;          /* CTAs resident on one SM at once; 0: the CTA fits nowhere */
	uint32_t limits;        /* WG_LIMIT_* of every resource whose bound equals ctas */
	uint32_t limit;         /* the first of them in the order threads, regs, smem, ctas */
	uint32_t warps_per_cta; /* ceil(threads / 32) */
	uint32_t by_threads;    /* max_warps_per_sm / warps_per_cta (0 above max_threads_per_cta) */
	uint32_t by_regs;       /* reg_warp_slots / warps_per_cta, warp slots not counted */
	uint32_t by_smem;       /* shmem_bytes / smem_per_cta (UINT32_MAX without shared memory) */
	uint32_t by_ctas;       /* max_ctas_per_sm */
	uint32_t reg_warp_slots; /* schedulers x floor(rows per register file / regs) */
	uint32_t smem_per_cta;  /* shared bytes rounded up to WG_DISPATCH_SMEM_ROW */
};

/*
 * Occupancy of one SM for kernel k under configuration c. Returns 0, or
 * WG_ELAUNCH when not even one CTA fits (err names the resource and the
 * numbers; o is filled either way), WG_EINVAL for threads 0 or regs outside
 * 1..63.
 */
int wg_dispatch_occupancy(const struct wg_config *c, const struct wg_dispatch_kernel *k, struct wg_occupancy *o,
                          char *err, size_t errlen);
/* "threads", "registers", "shared memory", "CTA slots" for one WG_LIMIT_* bit. */
const char *wg_dispatch_limit_name(uint32_t limit);

/*
 * Measurements of one SM for the congestion-aware policy, counted from the
 * kernel's start (wg_dispatch_start) to the moment they are fed. A later
 * sample of the same SM replaces the earlier one.
 */
struct wg_dispatch_sample {
	uint64_t cycles;             /* SM cycles in the window (<= the window's length) */
	uint64_t icnt_stall_cycles;  /* cycles in which the interconnect held back a transfer
	                                from or to this SM (either direction), <= cycles */
	uint64_t issue_stall_cycles; /* scheduler-cycles without issue (the SM's stall_* counters),
	                                <= schedulers x cycles; recorded, not in the metric */
	uint64_t lane_insts;         /* lane-instructions issued to the SIMD units (the active
	                                lanes of every SIMD-class warp instruction),
	                                <= simd_width x simd_units x cycles */
};

enum wg_dispatch_reason {
	WG_DECIDE_NONE = 0,        /* no decision (not the congestion policy, or not yet) */
	WG_DECIDE_NO_SAMPLE,       /* congestion policy, no measured cycle: every SM kept */
	WG_DECIDE_BELOW_THRESHOLD, /* metric < cta_threshold: not congested, every SM kept */
	WG_DECIDE_CONGESTED,       /* metric >= cta_threshold: fewest SMs within the budget */
};

/* The congestion-aware policy's decision (docs/dispatch.md section 4). */
struct wg_dispatch_decision {
	enum wg_dispatch_reason reason;
	uint64_t at;                 /* cycle of the first CTA completion */
	uint32_t samples;            /* SMs whose sample was used */
	uint32_t sms;                /* SMs kept for the rest of the kernel */
	double stall_rate;           /* sum icnt_stall_cycles / sum cycles */
	double issue_stall_rate;     /* sum issue_stall_cycles / (schedulers x sum cycles) */
	double alu_util;             /* sum lane_insts / (lanes x sum cycles) */
	double metric;               /* alpha x stall_rate + beta / alu_util (INFINITY when util is 0) */
	double core_share;           /* cta_threshold / metric: share of the time that scales with SMs */
	double predicted_slowdown;   /* core_share x (n_sm / sms - 1), a fraction */
};

/* Per-kernel statistics (reset by wg_dispatch_start). */
struct wg_dispatch_stats {
	enum wg_cta_policy policy;
	struct wg_occupancy occ;
	uint64_t ctas;               /* CTAs in the grid */
	uint64_t ctas_done;
	uint64_t start;              /* cycle of wg_dispatch_start */
	uint64_t end;                /* cycle of the last completion (valid once finished) */
	uint32_t sms_used;           /* SMs the policy issues to now (after the decision, if any) */
	uint64_t gateable;           /* bit s: the policy left SM s without CTAs (excluded by
	                                consolidation or the congestion decision; once the kernel
	                                has finished also every SM that received no CTA) */
	uint64_t ctas_per_sm[WG_DISPATCH_MAX_SMS];
	uint64_t active_cycles[WG_DISPATCH_MAX_SMS]; /* cycles with at least one CTA resident */
	uint64_t active_cycles_total;                /* sum over SMs (the paper's core-level figure) */
	uint32_t max_resident[WG_DISPATCH_MAX_SMS];  /* most CTAs resident at once */
	struct wg_dispatch_decision decision;
};

struct wg_dispatch;

/* A dispatcher for configuration c (n_sm, SM limits, cta_* keys; c is copied). */
int wg_dispatch_create(struct wg_dispatch **d, const struct wg_config *c);
void wg_dispatch_destroy(struct wg_dispatch *d);

/*
 * Start a kernel of grid.x * grid.y * grid.z CTAs at cycle now. The previous
 * kernel must have finished. WG_ELAUNCH when a CTA fits on no SM
 * (wg_dispatch_error names the resource and the numbers).
 */
int wg_dispatch_start(struct wg_dispatch *d, const struct wg_dispatch_kernel *k, wg_dim3 grid, uint64_t now);
/*
 * The next CTA to issue at cycle now: returns 1 with its linear id (x
 * fastest) and SM, or 0 when the policy issues nothing now (every CTA
 * issued, or no SM it uses has a free place). Call it until it returns 0.
 */
int wg_dispatch_next(struct wg_dispatch *d, uint64_t now, uint64_t *cta, uint32_t *sm);
/* CTA cta finished on SM sm at cycle now (the SM's done port). */
int wg_dispatch_done(struct wg_dispatch *d, uint32_t sm, uint64_t cta, uint64_t now);
/* 1 while the congestion-aware policy waits for its decision: feed samples before each done. */
int wg_dispatch_wants_sample(const struct wg_dispatch *d);
/* Measurements of SM sm since the kernel's start (ignored once the decision is made). */
int wg_dispatch_sample(struct wg_dispatch *d, uint32_t sm, const struct wg_dispatch_sample *s);
/* 1 when every CTA of the kernel has finished (or no kernel was started). */
int wg_dispatch_finished(const struct wg_dispatch *d);
const struct wg_dispatch_stats *wg_dispatch_stats(const struct wg_dispatch *d);
/* The message of the last failure, "" if none. */
const char *wg_dispatch_error(const struct wg_dispatch *d);
/* CTA index (x, y, z) of a linear id in grid (x fastest). */
wg_dim3 wg_dispatch_cta_index(wg_dim3 grid, uint64_t linear);

#endif
