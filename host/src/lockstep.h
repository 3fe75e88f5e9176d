/*
 * Lockstep co-simulation (docs/cosim.md): every warp instruction a device
 * under test (the RTL through the "sim" target, or a second golden model
 * for self-checks) retires is compared with the golden model executing the
 * same warp's next instruction, and every global write and global atomic
 * it sends to the memory port is compared with what the golden model
 * expects. Local stores stay in the device's write-back L1
 * (docs/memory-pipeline.md section 3): they are checked through later
 * local loads, and the L1's write-backs are not compared. The first
 * difference stops the run with a message naming the cycle, CTA, warp, pc,
 * lane, expected and actual values.
 */
#ifndef WG_LOCKSTEP_H
#define WG_LOCKSTEP_H

#include <stdint.h>

#include "func.h"
#include "launch.h"
#include "retire.h"
#include "stats.h"

#define WG_LS_MEM_BYTES 128 /* bytes of one memory-port block (WGSIM_MEM_BYTES) */

/* Every lockstep difference returns this code; the message starts with "lockstep:". */
#define WG_ELOCKSTEP WG_EMISMATCH

/* A write or atomic request as the memory port carries it (docs/sm.md 2.3). */
struct wg_ls_req {
	uint64_t cycle;
	uint32_t slot, pc, lane; /* debug fields: warp slot, pc, (first) lane */
	uint8_t cmd;             /* 0 read (ignored), 1 write, 2 atomic */
	uint8_t size;            /* log2 bytes */
	uint8_t atom_op;         /* port encoding */
	uint8_t local;
	uint8_t wb;              /* write-back of a dirty L1 line: not matched (debug fields 0) */
	uint32_t addr;           /* address of the access, aligned to its size */
	uint32_t atom_b, atom_c;
	uint8_t wmask[WG_LS_MEM_BYTES]; /* enabled bytes of the aligned block */
	uint8_t wdata[WG_LS_MEM_BYTES];
};

struct wg_lockstep;

/*
 * Start checking launch l against the golden model f (which must not be
 * running anything else). local_base is the device address of the
 * launch's local-memory region (docs/sm.md section 4).
 */
int wg_lockstep_begin(struct wg_lockstep **ls, struct wg_func *f, const struct wg_launch *l, uint32_t local_base,
                      struct wg_err *err);
/* Frees ls (any state); adds the golden model's counters to st when st != NULL. */
void wg_lockstep_destroy(struct wg_lockstep *ls, struct wg_stats *st);

/*
 * One warp instruction retired by the device under test, in the warp's
 * program order: obs->cta, obs->warp, pc, masks, destination and values
 * (dst/reg/nregs/vals/pred as in the retire log; nmem ignored). slot is the
 * warp slot that the memory requests of this warp carry.
 */
int wg_lockstep_retire(struct wg_lockstep *ls, uint32_t slot, uint64_t cycle, const struct wg_func_ls_rec *obs,
                       struct wg_err *err);
/*
 * A request on the memory port. Reads and write-backs (r->wb) are not
 * matched. A write may be a coalesced access carrying bytes of several
 * lanes of one store instruction: each enabled byte is matched against
 * the pending expectations of the request's warp slot and pc, those of the
 * oldest such instruction; where several of its lanes wrote the byte, the
 * device's byte must be the highest lane's (the golden model applies lanes
 * in ascending order) and all of them count as seen.
 */
int wg_lockstep_mreq(struct wg_lockstep *ls, const struct wg_ls_req *r, struct wg_err *err);
/* The device under test reports CTA cta finished. */
int wg_lockstep_cta_done(struct wg_lockstep *ls, uint32_t cta, uint64_t cycle, struct wg_err *err);
/* End of the launch: every CTA finished on both sides, every expected write seen. */
int wg_lockstep_end(struct wg_lockstep *ls, uint64_t cycle, struct wg_err *err);

/* Warp instructions compared so far. */
uint64_t wg_lockstep_checked(const struct wg_lockstep *ls);

/*
 * Self-check without the RTL: a second golden model (dut) runs the launch
 * as the device under test, stepping warps of up to resident_ctas CTAs one
 * instruction at a time in a random order, with its memory requests
 * delayed at random around their retirement, and is checked in lockstep
 * against ref. Global memory is the devices' shared gmem (dut writes it).
 * mutate (may be NULL) may alter each record before it is checked (tests
 * of the checker). The dut's retire log goes to log when log != NULL.
 */
struct wg_selfcheck_opts {
	uint64_t seed;
	uint32_t resident_ctas;  /* 0: 4 */
	uint32_t max_delay;      /* request delay in steps, 0: 8 */
	uint32_t local_base;     /* pretend device address of the local region, 0: 0x80000000 */
	/*
	 * The device under test sends what the memory pipeline sends: global
	 * stores coalesced (memrules.h, WG_COAL_STORE; the highest lane's bytes
	 * where lanes overlap), atomics per thread, local stores as L1
	 * write-backs (wb) only. per_lane = 1: one write request per lane
	 * instead of coalesced stores, without the bytes that a higher lane of
	 * the instruction overwrites.
	 */
	int per_lane;
	void (*mutate)(void *ctx, struct wg_func_ls_rec *rec, uint64_t index);
	void *ctx;
};

int wg_lockstep_selfcheck(struct wg_func *dut, struct wg_func *ref, const struct wg_launch *l,
                          const struct wg_selfcheck_opts *opts, struct wg_stats *st, struct wg_retire_log *log,
                          struct wg_err *err);

/* Compare two records; 0 when equal, else a description of the first difference in why. */
int wg_lockstep_compare(const struct wg_func_ls_rec *exp, const struct wg_func_ls_rec *act, char *why,
                        size_t len);

#endif
