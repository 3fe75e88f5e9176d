/*
 * A scripted stand-in for the wgsim API (sim/wgsim.h) for testing the sim
 * target's plumbing before the RTL exists. It executes nothing: CTAs are
 * accepted (up to max_resident at a time) and finish cta_cycles later once
 * their scripted memory requests have been answered; a test injects memory
 * requests, retire beats and faults from the hooks and inspects what the
 * host wrote (kernel registers, imem, cmem) and answered. Tests only: the
 * product never links it.
 */
#ifndef WGSIM_FAKE_H
#define WGSIM_FAKE_H

#include "../../sim/wgsim.h"

struct wgsim_fake_ctl {
	uint64_t cta_cycles;    /* cycles a CTA stays resident (0: 5) */
	uint32_t max_resident;  /* CTAs resident at once (0: 2) */
	void (*on_launch)(struct wgsim *s, uint32_t linear, void *ctx); /* a CTA was accepted */
	void (*on_step)(struct wgsim *s, uint64_t cycle, void *ctx);
	/* a kernel-register write (addr < 32), e.g. L1_CTRL (16) with its flush bit */
	void (*on_cfg)(struct wgsim *s, uint32_t addr, uint32_t value, void *ctx);
	void *ctx;
	uint64_t mem[27];       /* values of the memory-pipeline counters (cnt_mem_o) wgsim_counters reports */
	int no_fp, no_sfu;      /* wgsim_info reports an SM built without FP32 / the SFU */
};

extern struct wgsim_fake_ctl wgsim_fake;

struct wgsim_fake_rsp {
	uint64_t cycle;          /* cycle the response was pushed */
	uint32_t tag;
	uint8_t rdata[WGSIM_MEM_BYTES];
};

void wgsim_fake_push_mreq(struct wgsim *s, const struct wgsim_mreq *r);
void wgsim_fake_push_retire(struct wgsim *s, const struct wgsim_retire *r);
void wgsim_fake_set_fault(struct wgsim *s, const struct wgsim_fault *f);
uint32_t wgsim_fake_cfg(const struct wgsim *s, uint32_t addr);
const uint64_t *wgsim_fake_imem(const struct wgsim *s);
const uint8_t *wgsim_fake_cmem(const struct wgsim *s);
size_t wgsim_fake_nlaunched(const struct wgsim *s);
uint32_t wgsim_fake_launched(const struct wgsim *s, size_t i); /* linear ids in acceptance order */
size_t wgsim_fake_nrsp(const struct wgsim *s);
const struct wgsim_fake_rsp *wgsim_fake_rsp(const struct wgsim *s, size_t i);
const char *wgsim_fake_trace(const struct wgsim *s); /* trace_fst given at creation, or "" */

#endif
