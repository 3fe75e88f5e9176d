/*
 * wggpu: the Verilated GPU top (rtl/wg_gpu.sv) as a C library
 * (implemented in sim/wggpu.cpp).
 *
 * The caller is the host side of the link: it queues commands (set-up, CTA
 * launches and memory responses stamped with the target cycle they take
 * effect, time grants) and takes events (memory requests, CTA completions,
 * faults, retire beats, counters, "target time reached"), each stamped with
 * the target cycle it happened in. wggpu_tick advances the link clock; the
 * SMs' target time advances only up to the granted cycle. Command and event
 * semantics: docs/gpu.md. Every function returns 0 or a negative WG_E* code
 * (host/include/warpgate.h) unless it says otherwise.
 */
#ifndef WGGPU_H
#define WGGPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WGGPU_MEM_BYTES 128
#define WGGPU_CNT_WORDS 52 /* 1664-bit counter snapshot, docs/gpu.md section 4.2 */

struct wggpu;

enum wggpu_op {
	WGGPU_NOP = 0,
	WGGPU_RESET = 1,    /* reset every SM, empty every queue, cycle and grant 0 */
	WGGPU_CFG = 2,      /* addr = kernel register, data[0..3] = value */
	WGGPU_IMEM = 3,     /* addr = pc, data[0..7] = instruction word */
	WGGPU_CMEM = 4,     /* addr = word index, data[0..3] = value */
	WGGPU_LAUNCH = 5,   /* sm, at, addr = linear CTA id, data[0..5] = x, y, z (16 bits each) */
	WGGPU_MRSP = 6,     /* sm, at, tag, data = 128 bytes */
	WGGPU_GRANT = 7,    /* at = the new grant */
	WGGPU_LANE_EN = 8,  /* data[0..3] = lane enables (bit per lane) */
	WGGPU_CNT_READ = 9, /* sm: snapshot of its counters as a COUNTERS event */
};

enum wggpu_kind {
	WGGPU_EV_MREQ = 0,
	WGGPU_EV_DONE = 1,
	WGGPU_EV_FAULT = 2,
	WGGPU_EV_RETIRE = 3,
	WGGPU_EV_REACHED = 4,
	WGGPU_EV_COUNTERS = 5,
	WGGPU_EV_ERROR = 6,
};

enum wggpu_err { WGGPU_ERR_LATE = 1, WGGPU_ERR_GRANT = 2, WGGPU_ERR_SM = 3, WGGPU_ERR_OP = 4 };

struct wggpu_cmd {
	uint8_t op, sm, all; /* all: every SM (CFG, IMEM, CMEM, LANE_EN) */
	uint64_t at;
	uint32_t addr, tag;
	uint8_t data[WGGPU_MEM_BYTES]; /* little-endian */
};

struct wggpu_ev {
	uint8_t kind, sm;
	uint64_t cycle;
	/* MREQ */
	uint32_t tag, addr, atom_b, atom_c, warp, pc, lane;
	uint8_t cmd, size, atom_op, local, wb;
	uint8_t wmask[WGGPU_MEM_BYTES], wdata[WGGPU_MEM_BYTES];
	/* DONE: linear; FAULT: code, fwarp, fpc, flane, faddr, linear */
	uint32_t linear, code, fwarp, fpc, flane, faddr;
	/* RETIRE */
	uint32_t rwarp, rwic, rseq, rpc, ractive, rexec;
	uint8_t rdst, rreg, rbeat, rlast;
	uint32_t rdata[32];
	/* REACHED: SMs still busy (CTA resident or request outstanding), SM i = bit i */
	uint64_t busy;
	/* COUNTERS: the SM's counter buses, LSB first (docs/gpu.md section 4.2) */
	uint32_t cnt[WGGPU_CNT_WORDS];
	/* ERROR */
	uint8_t err;
};

/* The build's parameters (wg_gpu's, docs/gpu.md section 1): what a HELLO announces. */
struct wggpu_info {
	uint32_t num_sms, num_warps, simd_width, num_simd, num_regs, num_ctas;
	uint32_t imem_depth, cmem_bytes, mem_tag_bits, rsp_depth, launch_depth, retire_en;
	uint32_t rf_banks, dmem_bytes, l1_sets, l1_mshrs, stack_depth, has_fp;
};

/* Link-delay emulation for tests: each link cycle the command side idles with
 * probability cmd_idle/1000 and the event side with ev_idle/1000 (seeded). */
struct wggpu_opts {
	const char *trace_fst;
	uint32_t cmd_idle, ev_idle;
	uint64_t seed;
};

int wggpu_create(struct wggpu **g, const struct wggpu_opts *opts); /* opts may be NULL */
void wggpu_destroy(struct wggpu *g);
void wggpu_info(const struct wggpu *g, struct wggpu_info *info);

int wggpu_push(struct wggpu *g, const struct wggpu_cmd *c); /* queued, driven in order */
size_t wggpu_cmds_pending(const struct wggpu *g);
int wggpu_pop(struct wggpu *g, struct wggpu_ev *e); /* 1 = one popped, 0 = none */

void wggpu_tick(struct wggpu *g, uint64_t n); /* n link clock cycles */
uint64_t wggpu_link_cycles(const struct wggpu *g);
uint64_t wggpu_cycle(const struct wggpu *g); /* target cycles run */
uint64_t wggpu_grant(const struct wggpu *g);
int wggpu_error(const struct wggpu *g);

#ifdef __cplusplus
}
#endif
#endif
