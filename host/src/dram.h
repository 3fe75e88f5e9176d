/*
 * GDDR5 model of one memory channel (docs/memory-models.md, "GDDR5").
 *
 * One instance per channel: 16 banks in 4 bank groups, one row buffer per
 * bank (open-page policy), a bounded request queue served FR-FCFS, the
 * GPGPU-Sim timing string ("nbk=16:CCD=2:RRD=6:...") in DRAM command-clock
 * cycles. Addresses are channel-local: the caller (the L2 layer) picks the
 * channel and removes its bits; the mapping here splits the rest into bank,
 * row and column. Times at the interface are core cycles (uint64_t) and the
 * model follows the time contract of docs/memory-models.md: requests are
 * pushed in time order, advance(t) makes every completion at or before t
 * poppable, and results do not depend on how far advance() jumps.
 * Timing only: the data lives in host/src/gmem.c.
 */
#ifndef WG_DRAM_H
#define WG_DRAM_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "dram_timing.h"

/* ---- address mapping ----------------------------------------------------- */

/*
 * Bit masks over the channel-local byte address. Bank, row and column are
 * the masked bits gathered from low to high (bit i of the bank number is the
 * i-th lowest set bit of bank_mask). The bank group is the bank number's top
 * log2(nbkgrp) bits, as in GPGPU-Sim. A request is served from the bank and
 * row of its first byte.
 */
struct wg_dram_mapping {
	uint64_t bank_mask, row_mask, col_mask;
};

/*
 * GPGPU-Sim's GTX480 map without its channel field: 64 B bursts (S), bank bit
 * 8, column bits 6-7 and 9-12, bank bits 13-15, row bits 16-27.
 */
#define WG_DRAM_MAPPING_DEFAULT "0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"

/*
 * Parse a map string: one letter per address bit, most significant first,
 * '.' ignored: R row, B bank, C column, S byte within a burst, 0 unused.
 * At most 64 bits. WG_ECONFIG with err naming the character otherwise.
 */
int wg_dram_mapping_parse(struct wg_dram_mapping *m, const char *s, char *err, size_t errlen);

/* ---- channel parameters -------------------------------------------------- */

struct wg_dram_params {
	struct wg_dram_timing timing;
	struct wg_dram_mapping map;
	uint32_t core_clock_mhz; /* clock of the interface times */
	uint32_t dram_clock_mhz; /* command clock */
	uint32_t queue_size;     /* requests queued per channel */
	uint32_t bus_bytes;      /* data bus width in bytes: 2 chips x 32 bit = 8 */
	uint32_t burst_len;      /* beats per burst: 8 */
	uint32_t beats_per_clk;  /* data beats per command clock: 4 (GDDR5) */
};

/* Parameters of one channel from a configuration (dram_timing, clocks, dram_queue; default map). */
int wg_dram_params_from_config(struct wg_dram_params *p, const struct wg_config *c, char *err, size_t errlen);

/* ---- the model ----------------------------------------------------------- */

struct wg_dram;

struct wg_dram_req {
	uint64_t id;    /* opaque, returned in the completion */
	uint64_t addr;  /* channel-local byte address, 32 B aligned */
	uint32_t bytes; /* 32, 64, 96 or 128 */
	uint8_t write;  /* 0 read, 1 write */
};

struct wg_dram_done {
	uint64_t id;
	uint64_t stamp; /* core cycle of the push */
	uint64_t cycle; /* core cycle at which the read data is available / the write is done */
	uint8_t write;
};

struct wg_dram_stats {
	uint64_t reads, writes;        /* requests served (last burst issued) */
	uint64_t activates, precharges;
	uint64_t row_hits;             /* requests served without a row command of their own */
	uint64_t row_misses;           /* requests that needed an activate (reads + writes = hits + misses) */
	uint64_t row_conflicts;        /* misses that also needed a precharge of another row */
	uint64_t queue_full;           /* pushes refused */
	uint64_t bus_busy;             /* DRAM cycles the data bus carried bursts */
	uint64_t latency_sum;          /* sum of (cycle - stamp) over served requests, core cycles */
	uint32_t max_queue;            /* highest queue occupancy */
};

/* A channel; p is copied. WG_EINVAL on inconsistent parameters, WG_ENOMEM. */
int wg_dram_create(struct wg_dram **m, const struct wg_dram_params *p);
/* A channel from a configuration; err explains WG_ECONFIG. */
int wg_dram_create_from_config(struct wg_dram **m, const struct wg_config *c, char *err, size_t errlen);
void wg_dram_destroy(struct wg_dram *m);

/* Current time (core cycles): the last advance() or push stamp, 0 at creation. */
uint64_t wg_dram_now(const struct wg_dram *m);
/* 1 when a push stamped now would be accepted, 0 when the queue is full. */
int wg_dram_can_accept(const struct wg_dram *m);
/*
 * Enqueue r at core cycle stamp (>= now; the model first advances to stamp).
 * WG_EINVAL for a stamp in the past or a malformed request, WG_ENOMEM when
 * the queue is full (counted in stats.queue_full; the caller holds the request).
 */
int wg_dram_push(struct wg_dram *m, uint64_t stamp, const struct wg_dram_req *r);
/* Process up to core cycle t (>= now; WG_EINVAL otherwise). */
int wg_dram_advance(struct wg_dram *m, uint64_t t);
/* Pop the next completion with cycle <= now, in (cycle, service order): 1 popped, 0 none. */
int wg_dram_pop(struct wg_dram *m, struct wg_dram_done *d);
/*
 * Earliest core cycle at which a completion can become poppable given the
 * requests already pushed (a lower bound when some are not yet scheduled),
 * UINT64_MAX when the channel holds nothing. For skipping idle time.
 */
uint64_t wg_dram_next_event(const struct wg_dram *m);
/* Requests queued (not yet fully issued to the banks). */
uint32_t wg_dram_queued(const struct wg_dram *m);
const struct wg_dram_stats *wg_dram_stats(const struct wg_dram *m);

/* Decode a channel-local address (for tests and traces). */
void wg_dram_decode(const struct wg_dram *m, uint64_t addr, uint32_t *bank, uint32_t *group, uint64_t *row,
                    uint64_t *col);

#endif
