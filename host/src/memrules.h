/*
 * The memory pipeline's counting rules (docs/memory-pipeline.md section 1) as
 * pure functions: how many transactions the coalescer makes of one warp
 * access to global or local memory, and how many passes a shared-memory
 * access takes over the 32 banks. The golden model counts with them, the
 * lockstep self-check coalesces its device-under-test's stores with them,
 * and the RTL (wg_coalescer, wg_smem) implements the same rules.
 */
#ifndef WG_MEMRULES_H
#define WG_MEMRULES_H

#include <stdint.h>

#define WG_MR_LANES 32
#define WG_MR_BANKS 32

/* Coalescer kinds (the encoding of wg_coalescer's in_kind_i). */
enum wg_coal_kind {
	WG_COAL_LINE = 0,   /* caching loads (LDG, LDL): the leader's 128 B line */
	WG_COAL_SEG = 1,    /* non-caching loads (LDG.CG): the leader's 32 B segment */
	WG_COAL_STORE = 2,  /* stores (STG, STL): 128, 64 or 32 B, never wider than needed */
	WG_COAL_THREAD = 3, /* global atomics: one transaction per thread */
};

/* One transaction of a coalesced access. */
struct wg_coal_tx {
	uint32_t addr;  /* start address, aligned to its size */
	uint8_t size;   /* log2 bytes: 7, 6 or 5; WG_COAL_THREAD: the access's log2 size */
	uint32_t lanes; /* threads it serves (the transactions of an access partition its mask) */
};

/*
 * The transactions of one warp access, in the coalescer's order (each led by
 * the lowest unserved lane). mask: threads that access; addr[l]: byte
 * address of thread l (naturally aligned, so every access lies in one 32 B
 * segment); log2size: 0..4 (1..16 bytes per thread). Writes them to tx
 * (room for WG_MR_LANES) when tx != NULL and returns their number (0 when
 * mask is 0).
 */
unsigned wg_coalesce(enum wg_coal_kind kind, uint32_t mask, const uint32_t addr[WG_MR_LANES], unsigned log2size,
                     struct wg_coal_tx *tx);

/*
 * Passes of one shared-memory load or store (section 1.2): the largest
 * number of distinct 4-byte words that the threads of mask need in one
 * bank (bank = (address / 4) mod 32); a thread of 8 or 16 bytes needs 2 or 4
 * consecutive words. addr[l] is thread l's byte offset (naturally aligned;
 * a window base that is a multiple of 4 changes nothing), bytes 1..16.
 * Returns 0 when mask is 0.
 */
unsigned wg_smem_passes(uint32_t mask, const uint32_t addr[WG_MR_LANES], unsigned bytes);

/*
 * Device address of byte off of thread gtid's local memory (docs/sm.md
 * section 4): base + (off / 4) x 4 x total_threads + 4 x gtid + off mod 4.
 */
static inline uint32_t wg_local_addr(uint32_t base, uint32_t total_threads, uint32_t gtid, uint32_t off)
{
	return base + (off / 4) * 4 * total_threads + 4 * gtid + off % 4;
}

#endif
