/*
 * The functional side of the SM's memory port (docs/sm.md section 2.3):
 * applies one request to the device's global memory and builds the response
 * block. Targets call it once per request, in target-time order; timing is
 * the memory models' business (docs/memory-models.md), not this module's.
 */
#ifndef WG_MEMSERVE_H
#define WG_MEMSERVE_H

#include <stdint.h>

#include "gmem.h"
#include "lockstep.h"

/*
 * Apply r to g: a read fills rdata (the aligned WG_LS_MEM_BYTES block, the
 * request's bytes at their offsets, zero elsewhere); a write stores the
 * enabled bytes; an atomic (4 bytes) stores the new value and returns the old
 * one in rdata. Segment and line reads (32..128 B) read bytes outside every
 * allocation as zero; everything else must lie inside one allocation.
 * Returns 0, or WG_EFAULT with *why set to a phrase that completes
 * "<access> ... <why>" (e.g. "is outside every allocation"); nothing is
 * written then.
 */
int wg_memserve(struct wg_gmem *g, const struct wg_ls_req *r, uint8_t rdata[WG_LS_MEM_BYTES], const char **why);

#endif
