/* Statistics counters collected by every target, and their JSON form. */
#ifndef WG_STATS_H
#define WG_STATS_H

#include <stdint.h>
#include <stdio.h>
#include "isa.h"

struct wg_json;

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
	uint64_t atom_count;            /* thread atomic operations (global + shared) */
	uint64_t cycles;                /* target cycles (0 on func) */
	double host_seconds;            /* wall time spent running kernels */
};

void wg_stats_clear(struct wg_stats *s);
void wg_stats_add(struct wg_stats *acc, const struct wg_stats *s);
/* Writes the members of s as fields of the current JSON object. */
void wg_stats_to_json(const struct wg_stats *s, struct wg_json *j);

#endif
