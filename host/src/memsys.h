/*
 * The memory system outside the SMs, as the GPU driver uses it
 * (docs/memory-models.md section 5): SM requests cross the interconnect
 * (host/src/icnt.h) to the L2 slice of their partition (host/src/l2.h); L2
 * misses and write-backs go to that channel's GDDR5 (host/src/dram.h);
 * replies cross back. One partition per memory channel, addresses
 * interleaved in 256 B chunks (wg_icnt_partition). Follows the time contract
 * of docs/memory-models.md section 1; timing only.
 */
#ifndef WG_MEMSYS_H
#define WG_MEMSYS_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "dram.h"
#include "icnt.h"
#include "l2.h"

struct wg_json;

/* Packet sizes on the interconnect: a header, plus the data it carries. */
#define WG_MEMSYS_HEADER_BYTES 8u
/* Interconnect defaults (no configuration keys): 32 B flits, 8 cycles, 8 waiting packets, 16 credits. */
#define WG_MEMSYS_FLIT_BYTES 32u
#define WG_MEMSYS_ICNT_LATENCY 8u
#define WG_MEMSYS_ICNT_IN_QUEUE 8u
#define WG_MEMSYS_ICNT_OUT_QUEUE 16u

enum wg_mem_cmd {
	WG_MEM_READ = 0,
	WG_MEM_WRITE = 1,
	WG_MEM_ATOMIC = 2,
};

/* One SM request (a transaction of the SM's memory port, docs/sm.md 2.3). */
struct wg_mem_req {
	uint64_t id;     /* opaque, returned in the completion */
	uint32_t sm;
	uint32_t addr;   /* device byte address */
	uint32_t bytes;  /* 1..128: read size, write data, atomic operands; [addr, addr+bytes) within one aligned 128 B block */
	uint8_t cmd;     /* enum wg_mem_cmd */
	uint8_t local;   /* local-memory access (carried to the completion) */
	uint8_t sectors; /* 32 B sectors of the aligned 128 B block accessed; 0 = those [addr, addr+bytes) touches */
	uint8_t partial; /* writes: sectors of `sectors` whose 32 bytes are not all written (byte enables) */
};

struct wg_mem_done {
	uint64_t id;
	uint64_t stamp;  /* push */
	uint64_t cycle;  /* the reply reached the SM */
	uint32_t sm;
	uint8_t cmd, local;
	uint8_t l2_hit;  /* answered by the L2 look-up, no fill waited for */
};

struct wg_memsys_params {
	uint32_t num_sms;
	uint32_t channels;          /* partitions: L2 slices and GDDR5 channels */
	struct wg_icnt_params icnt; /* its num_sms / num_parts are set from the two above */
	struct wg_l2_params l2;     /* per slice; line 128 or 256 B */
	struct wg_dram_params dram; /* per channel */
	uint32_t dram_latency;      /* core cycles added to each DRAM read before its data reaches the L2 */
};

/*
 * Everything from a configuration: n_sm, mem_channels, dl2, rop_latency
 * (the L2 hit latency), dram_latency, the GDDR5 keys; the interconnect
 * defaults above. err explains WG_ECONFIG.
 */
int wg_memsys_params_from_config(struct wg_memsys_params *p, const struct wg_config *c, char *err, size_t errlen);

/* Statistics under the names of the JSON output. */
struct wg_memsys_stats {
	uint64_t requests;                /* pushed */
	uint64_t completed;               /* popped or ready to pop */
	uint64_t refused;                 /* pushes refused (queue full) */
	uint64_t l2_read_transactions;    /* L2 look-ups by kind */
	uint64_t l2_write_transactions;
	uint64_t l2_atomic_transactions;
	uint64_t l2_hits, l2_misses;
	double l2_hit_rate;               /* hits / (hits + misses), 0 without look-ups */
	uint64_t dram_reads, dram_writes; /* DRAM requests served (32..128 B each) */
	uint64_t dram_read_bytes, dram_write_bytes;
	uint64_t dram_row_hits;
	uint64_t latency_sum;             /* sum over completions of cycle - stamp */
	double avg_mem_latency;           /* latency_sum / completed, core cycles */
	uint64_t icnt_stall_cycles;       /* both networks, every sender */
	const uint64_t *icnt_stall_cycles_sm; /* [num_sms]: each SM's request-port stall cycles */
};

struct wg_memsys;

int wg_memsys_create(struct wg_memsys **m, const struct wg_memsys_params *p);
int wg_memsys_create_from_config(struct wg_memsys **m, const struct wg_config *c, char *err, size_t errlen);
void wg_memsys_destroy(struct wg_memsys *m);

uint64_t wg_memsys_now(const struct wg_memsys *m);
/* 1 when SM sm's port takes a push stamped now. */
int wg_memsys_can_accept(const struct wg_memsys *m, uint32_t sm);
/* WG_EINVAL (stamp in the past, malformed request), WG_ENOMEM (the SM's port queue is full). */
int wg_memsys_push(struct wg_memsys *m, uint64_t stamp, const struct wg_mem_req *r);
int wg_memsys_advance(struct wg_memsys *m, uint64_t t);
/* Next completion with cycle <= now, in cycle order (ties by SM): 1 popped, 0 none. */
int wg_memsys_pop(struct wg_memsys *m, struct wg_mem_done *d);
/* Earliest cycle > now at which something can happen; UINT64_MAX when empty. */
uint64_t wg_memsys_next_event(const struct wg_memsys *m);
/* Requests pushed whose completion has not been popped. */
uint64_t wg_memsys_outstanding(const struct wg_memsys *m);
/*
 * The lookahead: a request pushed at t never completes before
 * t + wg_memsys_min_latency() (an L2 hit whose request and reply are one
 * flit each: 2 x (1 + icnt latency) + L2 hit latency).
 */
uint64_t wg_memsys_min_latency(const struct wg_memsys *m);

/* Cumulative interconnect stall cycles of SM sm's request port, readable at any time. */
uint64_t wg_memsys_sm_stall_cycles(const struct wg_memsys *m, uint32_t sm);
/* The statistics now (the struct lives in m until the next call). */
const struct wg_memsys_stats *wg_memsys_stats(struct wg_memsys *m);
/* The statistics as a JSON object named key (NULL inside arrays). */
void wg_memsys_stats_json(struct wg_memsys *m, struct wg_json *j, const char *key);

/* The models, for tests and detailed statistics. */
const struct wg_icnt *wg_memsys_icnt(const struct wg_memsys *m);
const struct wg_l2 *wg_memsys_l2(const struct wg_memsys *m, uint32_t channel);
const struct wg_dram *wg_memsys_dram(const struct wg_memsys *m, uint32_t channel);

#endif
