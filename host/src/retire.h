/*
 * The retire log: one line per warp instruction retired, for lockstep
 * comparison of targets (format in docs/retire-log.md).
 */
#ifndef WG_RETIRE_H
#define WG_RETIRE_H

#include <stdint.h>
#include <stdio.h>

struct wg_retire_log;

int wg_retire_open(struct wg_retire_log **log, const char *path);
void wg_retire_close(struct wg_retire_log *log);
FILE *wg_retire_file(struct wg_retire_log *log);

/* Destination kinds of a retired instruction. */
enum wg_retire_dst { WG_RD_NONE, WG_RD_REG, WG_RD_PRED };

struct wg_retire_rec {
	uint32_t cta;     /* linear CTA id */
	uint32_t warp;    /* warp index within the CTA */
	uint32_t pc;
	uint32_t active;  /* SIMT active mask */
	uint32_t exec;    /* execution mask (active & guard) */
	uint8_t dst;      /* enum wg_retire_dst */
	uint8_t reg;      /* first destination register or predicate */
	uint8_t nregs;    /* registers per lane (1, 2 or 4) */
	uint8_t skip_values; /* values are target-dependent (SR_CLOCK) */
	uint32_t pred;    /* WG_RD_PRED: predicate after the write; printed ANDed with exec */
	const uint32_t (*vals)[4]; /* WG_RD_REG: [lane][0..nregs-1] */
};

void wg_retire_write(struct wg_retire_log *log, const struct wg_retire_rec *r);

#endif
