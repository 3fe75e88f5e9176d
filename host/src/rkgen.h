/*
 * Constrained-random kernel generator for co-simulation (docs/cosim.md):
 * from a seed, an assembly source (host/src/asm.h) and a launch
 * description (grid, block, dynamic shared bytes, buffers, parameters).
 * Every generated kernel terminates, never faults and computes the same
 * final memory image on every target whatever the warp and CTA
 * interleaving: nested divergence, bounded loops with thread-dependent trip
 * counts and breaks, predication, barriers in uniform control flow only,
 * race-free shared memory (own slots, barrier, others' slots, a block per
 * warp with bank-conflict patterns), global outputs no two warps share
 * (stores with coalescing patterns, lanes of one instruction colliding),
 * read-only inputs loaded with coalescing patterns, local memory (spill
 * kernels large enough for the L1 to evict dirty lines) and parameter
 * memory, and atomics on the thread's own words, on the warp's own words
 * (lane order) or as commutative updates of counters whose returned values
 * go nowhere. Over seeds every mnemonic of the ISA table appears (a quota
 * of the table per seed) and every access pattern of every memory row (a
 * pattern quota). Same seed, same kernel. docs/cosim.md "Random kernels".
 */
#ifndef WG_RKGEN_H
#define WG_RKGEN_H

#include <stddef.h>
#include <stdint.h>

#include "warpgate.h"

#define WG_RK_MAXBUF 4

enum wg_rk_fill { WG_RK_FILL_ZERO, WG_RK_FILL_RANDOM };

struct wg_rk_buf {
	char name[16];
	uint32_t bytes;
	uint32_t param_offset; /* its device address goes here (8-byte ptr parameter) */
	uint32_t fill;         /* enum wg_rk_fill */
	uint64_t fill_seed;
	int output;            /* written by the kernel (compared at the end) */
};

struct wg_rk {
	uint64_t seed;
	char name[32];      /* kernel name */
	char *src;          /* assembly source (malloc'd) */
	wg_dim3 grid, block;
	uint32_t dyn_shared;
	uint32_t nbufs;
	struct wg_rk_buf bufs[WG_RK_MAXBUF];
	uint32_t param_bytes;
	uint8_t params[64]; /* scalar parameters; pointer slots are filled by wg_rk_params */
};

int wg_rkgen(struct wg_rk *rk, uint64_t seed);
void wg_rk_free(struct wg_rk *rk);

/* Initial contents of buffer b (b->bytes bytes). */
void wg_rk_fill(const struct wg_rk_buf *b, uint8_t *out);
/* The parameter buffer, with addrs[i] the device address of bufs[i]. */
void wg_rk_params(const struct wg_rk *rk, const uint64_t *addrs, uint8_t *out);

/*
 * Keep a kernel for replay: DIR/NAME.s and DIR/NAME.launch (text: seed,
 * grid, block, dynamic shared bytes, buffers, parameter bytes). The path
 * of the .launch file goes to path (may be NULL).
 */
int wg_rk_save(const struct wg_rk *rk, const char *dir, char *path, size_t len);
/* Read a kept kernel back (the .launch file; the source next to it). */
int wg_rk_load(struct wg_rk *rk, const char *launch_path, char *err, size_t errlen);

#endif
