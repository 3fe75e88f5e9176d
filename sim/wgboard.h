/*
 * wgboard: the Verilated board core (rtl/wg_board_core.sv: the RTL link engine
 * wg_link and the GPU top wg_gpu) as a C library (implemented in
 * sim/wgboard.cpp; docs/board.md section 2).
 *
 * The caller is the board's transport: it hands the core the bytes the host
 * sent (wgboard_rx), runs the link clock (wgboard_step / wgboard_run) and
 * takes the bytes the core sent (wgboard_tx). Everything between, frames,
 * CRC, sequence numbers, ACK/NAK, retransmission, commands and events, is the
 * RTL's. Link cycles in which the core holds still (no byte coming in, the
 * engine and the GPU idle: wg_board_core's idle_o) are counted without being
 * evaluated, which changes nothing the core does.
 *
 * Every function returns 0 or a negative WG_E* code (host/include/warpgate.h)
 * unless it says otherwise.
 */
#ifndef WGBOARD_H
#define WGBOARD_H

#include <stddef.h>
#include <stdint.h>

#include "wggpu.h"

#ifdef __cplusplus
extern "C" {
#endif

struct wgboard;

struct wgboard_opts {
	const char *trace_fst; /* FST waveform of the whole core; NULL: none */
	int no_skip;           /* evaluate idle link cycles too (tests: skipping changes nothing) */
	/* Link-delay emulation for tests: each link cycle no byte is offered to the core with
	 * probability rx_idle/1000 and none taken from it with tx_idle/1000 (seeded). */
	uint32_t rx_idle, tx_idle;
	uint64_t seed;
};

/* An error the engine's receiver saw (rep_* of wg_board_core: the fields of struct wg_link_report). */
struct wgboard_report {
	uint32_t code;   /* WGL_E_* */
	uint8_t type;
	uint32_t seq;
	uint64_t offset; /* in the engine's received byte stream */
	uint32_t expected, actual;
};

#define WGBOARD_REPORT_CODES 16

struct wgboard_counts {
	uint64_t link_cycles;   /* link clock cycles, skipped ones included */
	uint64_t skipped;       /* ... of which the core held still and was not evaluated */
	uint64_t rx_bytes, tx_bytes;
	uint64_t cmds, events;  /* commands the GPU took, events the engine took */
	uint64_t events_by_kind[8];
	uint64_t reports[WGBOARD_REPORT_CODES]; /* engine reports per code */
};

int wgboard_create(struct wgboard **b, const struct wgboard_opts *opts); /* opts may be NULL */
void wgboard_destroy(struct wgboard *b);
/* The build the core's HELLO announces (every field of struct wggpu_info). */
void wgboard_info(const struct wgboard *b, struct wggpu_info *info);

/* Queue n bytes from the host (copied); they enter the core one per link cycle while it takes them. */
int wgboard_rx(struct wgboard *b, const uint8_t *p, size_t n);
size_t wgboard_rx_pending(const struct wgboard *b);
/* Take up to n bytes the core has sent; returns how many. */
size_t wgboard_tx(struct wgboard *b, uint8_t *p, size_t n);
size_t wgboard_tx_pending(const struct wgboard *b);

/* Run n link cycles. */
void wgboard_step(struct wgboard *b, uint64_t n);
/*
 * Run until the core holds still with no byte left to take (returns 1), at most
 * max link cycles (returns 0 when they ran out first). With waits_too, a core
 * that only waits for the host (wgboard_waiting) counts as still as well.
 */
int wgboard_run(struct wgboard *b, uint64_t max, int waits_too);
/* 1: the core holds still and no queued byte is left to take (wg_board_core idle_o). */
int wgboard_idle(const struct wgboard *b);
/*
 * 1: the same, except that the engine's retransmission or NAK timer runs: it waits
 * for the host's ACK or a lost command frame, and only those timers move.
 */
int wgboard_waiting(const struct wgboard *b);

/* Link state: 1 once HELLO was exchanged; failed: a fatal link error (a new HELLO restarts). */
int wgboard_up(const struct wgboard *b);
int wgboard_failed(const struct wgboard *b);
/* The oldest engine report not yet taken: 1 = one taken, 0 = none (at most 64 are kept). */
int wgboard_report(struct wgboard *b, struct wgboard_report *r);
void wgboard_counts(const struct wgboard *b, struct wgboard_counts *c);

uint64_t wgboard_cycle(const struct wgboard *b); /* target cycles run */
uint64_t wgboard_grant(const struct wgboard *b);
int wgboard_error(const struct wgboard *b);

#ifdef __cplusplus
}
#endif
#endif
