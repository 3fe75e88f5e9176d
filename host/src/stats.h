/* Statistics counters collected by every target, and their JSON form. */
#ifndef WG_STATS_H
#define WG_STATS_H

#include <stdint.h>
#include <stdio.h>
#include "isa.h"

struct wg_json;

/*
 * The memory-pipeline counters of docs/memory-pipeline.md section 2, in its
 * index order (the RTL's cnt_mem_o). The sim target fills all of them; the
 * golden model counts 0..14 and 23 (WG_MC_FUNC_MASK) by the same rules.
 */
enum wg_memcnt {
	WG_MC_GLD_REQ = 0,          /* gld_requests: warp LDG / LDG.CG instructions */
	WG_MC_GLD_TX = 1,           /* gld_transactions: their lines or segments */
	WG_MC_GST_REQ = 2,          /* gst_requests: warp STG instructions */
	WG_MC_GST_TX = 3,           /* gst_transactions: their 32/64/128 B accesses */
	WG_MC_LOCAL_LD_REQ = 4,     /* local_load_requests: LDL word requests */
	WG_MC_LOCAL_LD_TX = 5,      /* local_load_transactions */
	WG_MC_LOCAL_ST_REQ = 6,     /* local_store_requests: STL word requests */
	WG_MC_LOCAL_ST_TX = 7,      /* local_store_transactions */
	WG_MC_SHARED_LD_REQ = 8,    /* shared_load_requests: warp LDS instructions */
	WG_MC_SHARED_LD_TX = 9,     /* shared_load_transactions: their passes */
	WG_MC_SHARED_ST_REQ = 10,   /* shared_store_requests: warp STS instructions */
	WG_MC_SHARED_ST_TX = 11,    /* shared_store_transactions: their passes */
	WG_MC_SHARED_ATOM_TX = 12,  /* shared_atom_transactions: ATOMS thread operations */
	WG_MC_ATOM_COUNT = 13,      /* atom_count: warp ATOMG instructions */
	WG_MC_ATOM_TX = 14,         /* atomic_transactions: their per-thread requests */
	WG_MC_L1_GLD_HIT = 15,      /* l1_global_load_hit */
	WG_MC_L1_GLD_MISS = 16,     /* l1_global_load_miss */
	WG_MC_L1_LLD_HIT = 17,      /* l1_local_load_hit */
	WG_MC_L1_LLD_MISS = 18,     /* l1_local_load_miss */
	WG_MC_L1_LST_HIT = 19,      /* l1_local_store_hit */
	WG_MC_L1_LST_MISS = 20,     /* l1_local_store_miss */
	WG_MC_L1_WB = 21,           /* l1_writebacks */
	WG_MC_L1_MERGE = 22,        /* l1_mshr_merges */
	WG_MC_LDC_REQ = 23,         /* ldc_requests: warp LDC instructions */
	WG_MC_MEM_REQ = 24,         /* mem_requests: requests on the SM's memory port */
	WG_MC_MEM_RD_BYTES = 25,    /* mem_read_bytes */
	WG_MC_MEM_WR_BYTES = 26,    /* mem_write_bytes */
	WG_MEMCNT_COUNT = 27
};

/* The counters the golden model counts (bit i = counter i). */
#define WG_MC_FUNC_MASK (0x7FFFu | 1u << WG_MC_LDC_REQ)

/* Names of the memory counters in index order (nvprof names where one exists). */
extern const char *const wg_memcnt_names[WG_MEMCNT_COUNT];
/* Index of a memory counter by name, or -1. */
int wg_memcnt_index(const char *name);

struct wg_stats {
	uint64_t kernels;               /* launches completed */
	uint64_t ctas, warps, threads;  /* launched */
	uint64_t warp_insts;            /* warp instructions issued (nvprof inst_executed) */
	uint64_t thread_insts;          /* sum of execution-mask popcounts (thread_inst_executed) */
	uint64_t class_warp[WG_CLASS_COUNT];
	uint64_t class_thread[WG_CLASS_COUNT];
	uint64_t branches;              /* BRA warp instructions with a non-empty active mask */
	uint64_t divergent_branches;    /* of which split the warp */
	uint64_t barriers;              /* warp arrivals at BAR.SYNC */
	uint64_t gld_bytes, gst_bytes;  /* global load/store bytes requested by threads */
	uint64_t shld_bytes, shst_bytes;
	uint64_t local_ld_bytes, local_st_bytes;
	uint64_t atom_ops;              /* thread atomic operations (global + shared) */
	uint64_t mem[WG_MEMCNT_COUNT];  /* memory-pipeline counters, enum wg_memcnt */
	uint64_t cycles;                /* target cycles (0 on func) */
	double host_seconds;            /* wall time spent running kernels */
};

void wg_stats_clear(struct wg_stats *s);
void wg_stats_add(struct wg_stats *acc, const struct wg_stats *s);
/* Writes the members of s as fields of the current JSON object. */
void wg_stats_to_json(const struct wg_stats *s, struct wg_json *j);
/*
 * The integer counter called name in the JSON form (a top-level name such as
 * "inst_executed", a memory counter such as "gld_transactions", or a derived
 * replay count such as "gld_replays") into *value. 0, or WG_ENOENT for an
 * unknown name.
 */
int wg_stats_value(const struct wg_stats *s, const char *name, uint64_t *value);

#endif
