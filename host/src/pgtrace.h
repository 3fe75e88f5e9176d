/*
 * Lane-activity traces: the run-length blocks of TRACE frames (docs/protocol.md
 * section 9, docs/power-gating.md section 7) decoded and written as a VCD
 * file that GTKWave opens.
 *
 * Blocks arrive per SM in time order, but the SMs' blocks interleave, so the
 * changes are kept and sorted by cycle when the file is written.
 */
#ifndef WG_PGTRACE_H
#define WG_PGTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Block kinds (header bits 7:0). */
#define WG_PGT_KIND_LANES 1u
/* Lane-field values that are not lanes. */
#define WG_PGT_LANE_ISSUE 62u /* the SM's issue-control state (S1..S4 as 0..3) */
#define WG_PGT_LANE_NONE 63u  /* no change: only the time advances */
#define WG_PGT_MAX_LANES 62u

/* Lane states, as in docs/power-gating.md section 1. */
enum wg_pgt_state { WG_PGT_ACTIVE = 0, WG_PGT_IDLE = 1, WG_PGT_SLEEP = 2, WG_PGT_WAKE = 3 };

struct wg_pgtrace;

/*
 * num_sms SMs of units x simd_width lanes each (at most WG_PGT_MAX_LANES).
 * Returns 0, WG_EINVAL or WG_ENOMEM.
 */
int wg_pgtrace_create(struct wg_pgtrace **tr, unsigned num_sms, unsigned units, unsigned simd_width);
void wg_pgtrace_destroy(struct wg_pgtrace *tr);

/*
 * Decodes the payload of one TRACE frame (nwords 32-bit words, host order).
 * A malformed block is an error naming the word offset within this payload and
 * what is wrong; nothing of that payload is kept then (the changes of earlier
 * payloads stay).
 */
int wg_pgtrace_feed(struct wg_pgtrace *tr, const uint32_t *words, size_t nwords, char *err, size_t errlen);

/* Changes kept so far. */
size_t wg_pgtrace_changes(const struct wg_pgtrace *tr);

/*
 * Writes the VCD: one 2-bit signal per lane (scope smN.uU, signal lLL) and
 * one per SM for the issue-control state, one time unit per cycle. Values
 * before a signal's first change are x.
 */
int wg_pgtrace_write_vcd(struct wg_pgtrace *tr, FILE *out);

#endif
