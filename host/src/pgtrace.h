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
#define WG_PGT_KIND_RECORDS 2u /* the SM's 64-bit records (docs/power-gating.md section 7.2) */
/* Record types of kind 2. */
enum wg_pgt_rec {
	WG_PGT_R_LANES = 0, WG_PGT_R_ISSUE = 1, WG_PGT_R_ADVANCE = 2, WG_PGT_R_START = 3,
	WG_PGT_R_LOST = 4, WG_PGT_R_SYNC = 5, WG_PGT_R_END = 6
};
/* Lane-field values that are not lanes. */
#define WG_PGT_LANE_ISSUE 62u /* the SM's issue-control state (S1..S4 as 0..3) */
#define WG_PGT_LANE_NONE 63u  /* no change: only the time advances */
#define WG_PGT_MAX_LANES 62u

/* Lane states, as in docs/power-gating.md section 1. */
enum wg_pgt_state { WG_PGT_ACTIVE = 0, WG_PGT_IDLE = 1, WG_PGT_SLEEP = 2, WG_PGT_WAKE = 3 };
/* Not known: outside a window (kind 2), between LOST and SYNC; x in the VCD. */
#define WG_PGT_UNKNOWN 4u

struct wg_pg_counts;

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

/* What the kind-2 records said, over all SMs. */
struct wg_pgtrace_summary {
	uint64_t records;       /* kind-2 records decoded */
	uint64_t windows;       /* START records */
	uint64_t losses;        /* LOST records */
	uint64_t lost_records;  /* records lost, as SYNC and END count them */
};
void wg_pgtrace_summary(const struct wg_pgtrace *tr, struct wg_pgtrace_summary *sum);

/*
 * The idle intervals rebuilt from the changes (docs/power-gating.md section 7.4): per lane,
 * maximal runs of cycles not active while its state is known, cut where it becomes
 * unknown (END, LOST) and where a window starts. *lens (malloc'd, the caller frees) gets
 * their lengths, *n their number. Returns 0 or WG_ENOMEM.
 */
int wg_pgtrace_intervals(struct wg_pgtrace *tr, uint64_t **lens, size_t *n);

/*
 * The check of section 7.4: the paper's metric from the histogram c (energy.h) against
 * the same sum over the trace's intervals for every BET in 1..max_bet (at most
 * WG_PG_HIST_BINS), and the intervals' number and cycles. Returns 0 when they agree, 1
 * when not (why names the first difference), WG_E* on errors; a trace with losses
 * cannot agree (why says so).
 */
int wg_pgtrace_check_oracle(struct wg_pgtrace *tr, const struct wg_pg_counts *c, uint32_t max_bet, char *why,
			    size_t whylen);

/*
 * Writes the VCD: one 2-bit signal per lane (scope smN.uU, signal lLL) and
 * one per SM for the issue-control state, one time unit per cycle. Values
 * before a signal's first change, and unknown ones, are x; of several changes
 * of one signal in one cycle only the last is written.
 */
int wg_pgtrace_write_vcd(struct wg_pgtrace *tr, FILE *out);

#endif
