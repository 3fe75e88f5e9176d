/*
 * wgsim: the Verilated SM as a C library (implemented in sim/wgsim.cpp).
 *
 * A cycle-level port interface: the caller (libwarpgate's "sim" target, RTL
 * tests) writes kernel set-up, offers CTA launches and memory responses,
 * advances the clock, and takes memory requests, CTA completions, retire
 * beats and faults from queues. Port semantics: docs/sm.md. Every function
 * returns 0 or a negative WG_E* code (host/include/warpgate.h).
 */
#ifndef WGSIM_H
#define WGSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WGSIM_MEM_BYTES 128 /* must equal the RTL's MEM_BYTES */

struct wgsim;

/* Build-time parameters of the Verilated model (read back from it). */
struct wgsim_info {
	uint32_t num_warps, simd_width, num_simd, num_regs, num_ctas;
	uint32_t smem_bytes, imem_depth, cmem_bytes, stack_depth, has_fp; /* smem_bytes: L1_CTRL split 0 (48 KB) */
	uint32_t mem_tag_bits;
	uint32_t has_sfu;   /* 0: SFU-class instructions are illegal (docs/sfu.md) */
	uint32_t retire_en; /* 0: no retire port, wgsim_retire_pop never returns a beat */
	uint32_t lsu_lanes; /* threads per cycle of the memory pipeline (docs/fpga.md section 3.3) */
};

struct wgsim_opts {
	const char *trace_fst; /* FST waveform file, NULL = no tracing */
	uint64_t trace_start;  /* first cycle traced */
	uint32_t sm_id;
	int pg_shadow; /* keep the power-gating accounting from every cycle's lane states too */
};

int wgsim_create(struct wgsim **s, const struct wgsim_opts *opts); /* opts may be NULL */
void wgsim_destroy(struct wgsim *s);
void wgsim_info(const struct wgsim *s, struct wgsim_info *info);
void wgsim_reset(struct wgsim *s); /* a few cycles of reset; clears the queues */

/* Kernel set-up (docs/sm.md section 2.1); applied over the next cycles. */
int wgsim_cfg_write(struct wgsim *s, uint32_t addr, uint32_t value);
int wgsim_imem_write(struct wgsim *s, uint32_t pc, const uint64_t *words, uint32_t n);
int wgsim_cmem_write(struct wgsim *s, const uint8_t *bytes, uint32_t n); /* from offset 0 */

/* CTA launch: queued and offered on the port until accepted. */
int wgsim_cta_launch(struct wgsim *s, uint32_t x, uint32_t y, uint32_t z, uint32_t linear);
uint32_t wgsim_cta_pending(const struct wgsim *s); /* launches not yet accepted */
int wgsim_cta_done(struct wgsim *s, uint32_t *linear); /* 1 = one popped, 0 = none */

/* Memory port. */
struct wgsim_mreq {
	uint64_t cycle; /* cycle the request was accepted */
	uint32_t tag;
	uint8_t cmd;    /* 0 read, 1 write, 2 atomic */
	uint8_t size;   /* log2 bytes */
	uint8_t atom_op;
	uint8_t local;
	uint8_t wb;     /* write-back of a dirty L1 line (mreq_wb_o): debug fields 0 */
	uint32_t addr;
	uint32_t atom_b, atom_c;
	uint32_t warp, pc, lane;
	uint8_t wmask[WGSIM_MEM_BYTES];  /* 1 per enabled byte of the aligned block */
	uint8_t wdata[WGSIM_MEM_BYTES];  /* bytes of the aligned block */
};
int wgsim_mreq_pop(struct wgsim *s, struct wgsim_mreq *r); /* 1 = one popped, 0 = none */
/* Queue a response; it is presented on the port from the next cycle on. */
int wgsim_mrsp_push(struct wgsim *s, uint32_t tag, const uint8_t rdata[WGSIM_MEM_BYTES]);

/* Retire beats (docs/sm.md section 2.5). */
struct wgsim_retire {
	uint64_t cycle;
	uint32_t warp, cta_linear, wic, seq, pc;
	uint32_t active, exec;
	uint8_t dst, reg, beat, last;
	uint32_t data[32];
};
int wgsim_retire_pop(struct wgsim *s, struct wgsim_retire *r); /* 1 = one popped, 0 = none */

struct wgsim_fault {
	uint32_t code, warp, pc, lane, addr, cta_linear;
};
int wgsim_fault(const struct wgsim *s, struct wgsim_fault *f); /* 1 = the SM has faulted */

/* Advance n cycles (stops early, returning 1, when the SM faults). */
int wgsim_step(struct wgsim *s, uint64_t n);
uint64_t wgsim_cycle(const struct wgsim *s);
int wgsim_busy(const struct wgsim *s); /* a CTA resident or a request outstanding */

/*
 * Counters of the SM (docs/sm-pipeline.md), then the memory-pipeline
 * counters of cnt_mem_o under the names of docs/memory-pipeline.md
 * section 2; names and values.
 */
struct wgsim_counter {
	const char *name;
	uint64_t value;
};
/* Fills up to max entries; returns the number of counters. */
int wgsim_counters(const struct wgsim *s, struct wgsim_counter *out, int max);

/*
 * Power-gating accounting (docs/power-gating.md section 4). The window opens when the
 * histogram sweep after reset is over (wgsim_reset waits for it) and runs until
 * wgsim_pg_close, which records the open idle intervals and stops counting (the SM's
 * CFG_PG_CTRL close strobe, written with the policy bits last written); it steps the
 * model until the histogram engines are idle. wgsim_pg_read then reads every counter
 * and both histograms (1024 clocked reads per unit, on an idle SM). Lane i is lane
 * i mod simd_width of unit i / simd_width.
 */
#define WGSIM_PG_MAX_LANES 64
#define WGSIM_PG_MAX_UNITS 4
#define WGSIM_PG_BINS 1024
struct wgsim_pg {
	uint32_t lanes, units;
	uint64_t cycles;                  /* cycles counted (the window) */
	uint64_t active[WGSIM_PG_MAX_LANES], idle[WGSIM_PG_MAX_LANES];
	uint64_t sleep[WGSIM_PG_MAX_LANES], wake[WGSIM_PG_MAX_LANES];
	uint64_t events[WGSIM_PG_MAX_LANES];
	uint64_t unit_sleep[WGSIM_PG_MAX_UNITS], unit_events[WGSIM_PG_MAX_UNITS];
	uint64_t over_count[WGSIM_PG_MAX_UNITS], over_sum[WGSIM_PG_MAX_UNITS], lost[WGSIM_PG_MAX_UNITS];
	uint64_t hist[WGSIM_PG_MAX_UNITS][WGSIM_PG_BINS + 1]; /* hist[u][L], L = 1..1024 */
	uint64_t wake_stall, core_active, core_sleep, core_events, core_wake_stall;
	uint64_t trace_lost; /* lane-activity trace records lost (section 7.2) */
};
int wgsim_pg_close(struct wgsim *s);
int wgsim_pg_read(struct wgsim *s, struct wgsim_pg *pg);
/*
 * With opts.pg_shadow: the same counters (lanes, units' histograms, lost 0), formed here
 * from the lane states of every counted cycle (pg_state_o, pg_count_o) since the last
 * wgsim_reset, with the open intervals closed at the last counted cycle; and the length
 * of every idle interval in lens[0 .. *n-1] (valid until the next wgsim_reset).
 */
/*
 * Lane-activity trace (docs/power-gating.md section 7): the window is set with the kernel
 * registers PGT_FROM, PGT_TO, PGT_HI (25..27, or wgsim_pgt_window); the SM's 64-bit records are taken every
 * cycle (the stream never waits) and kept here, across wgsim_reset, until popped.
 * Copies up to max of them, oldest first, into recs; returns the number copied.
 */
size_t wgsim_pgt_pop(struct wgsim *s, uint64_t *recs, size_t max);
/*
 * The trace window [from, to) in window cycles (to = 2^48 - 1: unbounded, from = to: none):
 * written to the kernel registers by every later wgsim_reset during the histogram sweep,
 * so that it holds from the window's first cycle on. -1 (WG_EINVAL) above 2^48 - 1.
 */
int wgsim_pgt_window(struct wgsim *s, uint64_t from, uint64_t to);
size_t wgsim_pgt_pending(const struct wgsim *s);

int wgsim_pg_shadow(struct wgsim *s, struct wgsim_pg *pg, const uint64_t **lens, size_t *n);

#ifdef __cplusplus
}
#endif
#endif
