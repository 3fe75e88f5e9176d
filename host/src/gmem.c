/*
 * Device global memory held on the host.
 *
 * The whole device range [WG_GMEM_BASE, WG_GMEM_BASE + capacity) is reserved
 * with one anonymous, non-reserving mapping, so that the host address of a
 * device address is a constant offset away and pages are only backed once
 * they are touched. Allocations are 256-byte aligned blocks placed first-fit;
 * the live ones are kept in an array sorted by address, which wg_gmem_ptr
 * searches (binary search behind a one-entry cache of the last hit).
 *
 * An allocation of n bytes occupies n rounded up to WG_GMEM_ALIGN bytes of
 * the device range, but only its n bytes are accessible: an access to the
 * padding is out of range, as it would be for the device program. An
 * allocation of 0 bytes still takes one aligned block (so its address is
 * unique) and has no accessible bytes. Freed blocks are zeroed (whole pages
 * are returned to the kernel with MADV_DONTNEED), so a new allocation always
 * reads as zero.
 */
#include "gmem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "warpgate.h"

struct gmem_block {
	uint32_t addr;  /* device address of the first byte */
	uint32_t size;  /* accessible bytes, as requested */
	uint64_t span;  /* bytes of the device range taken (size rounded up, >= WG_GMEM_ALIGN) */
};

struct wg_gmem {
	uint8_t *host;      /* host address of WG_GMEM_BASE */
	uint64_t capacity;  /* bytes reserved */
	struct gmem_block *blocks; /* live allocations sorted by addr */
	size_t nblocks, cap_blocks;
	size_t last;        /* index of the last block wg_gmem_ptr found */
	uint64_t in_use, peak;
	size_t page;
};

int wg_gmem_create(struct wg_gmem **gp, uint64_t capacity)
{
	struct wg_gmem *g;
	void *m;

	if (!gp)
		return WG_EINVAL;
	*gp = NULL;
	capacity &= ~(uint64_t)(WG_GMEM_ALIGN - 1);
	if (!capacity || capacity > (1ull << 32) - WG_GMEM_BASE)
		return WG_EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return WG_ENOMEM;
	m = mmap(NULL, (size_t)capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
	         0);
	if (m == MAP_FAILED) {
		free(g);
		return WG_ENOMEM;
	}
	g->host = m;
	g->capacity = capacity;
	g->page = (size_t)sysconf(_SC_PAGESIZE);
	*gp = g;
	return 0;
}

void wg_gmem_destroy(struct wg_gmem *g)
{
	if (!g)
		return;
	munmap(g->host, (size_t)g->capacity);
	free(g->blocks);
	free(g);
}

static uint64_t round_span(uint64_t bytes)
{
	if (!bytes)
		return WG_GMEM_ALIGN;
	return (bytes + WG_GMEM_ALIGN - 1) & ~(uint64_t)(WG_GMEM_ALIGN - 1);
}

int wg_gmem_alloc(struct wg_gmem *g, uint64_t bytes, uint32_t *addr)
{
	uint64_t span, off = 0;
	size_t i;

	if (!g || !addr)
		return WG_EINVAL;
	if (bytes > g->capacity)
		return WG_ENOMEM;
	span = round_span(bytes);

	/* First fit: the gap before block i is [off, blocks[i].addr - base). */
	for (i = 0; i < g->nblocks; i++) {
		uint64_t start = g->blocks[i].addr - WG_GMEM_BASE;

		if (start - off >= span)
			break;
		off = start + g->blocks[i].span;
	}
	if (g->capacity - off < span)
		return WG_ENOMEM;

	if (g->nblocks == g->cap_blocks) {
		size_t cap = g->cap_blocks ? 2 * g->cap_blocks : 64;
		struct gmem_block *nb = realloc(g->blocks, cap * sizeof(*nb));

		if (!nb)
			return WG_ENOMEM;
		g->blocks = nb;
		g->cap_blocks = cap;
	}
	memmove(&g->blocks[i + 1], &g->blocks[i], (g->nblocks - i) * sizeof(*g->blocks));
	g->blocks[i] = (struct gmem_block){
		.addr = (uint32_t)(WG_GMEM_BASE + off),
		.size = (uint32_t)bytes,
		.span = span,
	};
	g->nblocks++;
	g->last = i;
	g->in_use += bytes;
	if (g->in_use > g->peak)
		g->peak = g->in_use;
	*addr = g->blocks[i].addr;
	return 0;
}

/* Index of the block containing addr (in its span), or -1. */
static long find_block(const struct wg_gmem *g, uint32_t addr)
{
	size_t lo = 0, hi = g->nblocks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct gmem_block *b = &g->blocks[mid];

		if (addr < b->addr)
			hi = mid;
		else if ((uint64_t)(addr - b->addr) >= b->span)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

/* Zero [off, off+len) of the reservation, giving whole pages back. */
static void zero_range(struct wg_gmem *g, uint64_t off, uint64_t len)
{
	uint64_t page = g->page, first, last;

	first = (off + page - 1) & ~(page - 1);
	last = (off + len) & ~(page - 1);
	if (first >= last || madvise(g->host + first, (size_t)(last - first), MADV_DONTNEED)) {
		memset(g->host + off, 0, (size_t)len);
		return;
	}
	memset(g->host + off, 0, (size_t)(first - off));
	memset(g->host + last, 0, (size_t)(off + len - last));
}

int wg_gmem_free(struct wg_gmem *g, uint32_t addr)
{
	long i;
	struct gmem_block b;

	if (!g)
		return WG_EINVAL;
	i = find_block(g, addr);
	if (i < 0 || g->blocks[i].addr != addr)
		return WG_EINVAL; /* double free, or not the base of an allocation */
	b = g->blocks[i];
	/* Bytes beyond size were never accessible, so they are still zero. */
	zero_range(g, b.addr - WG_GMEM_BASE, b.size);
	memmove(&g->blocks[i], &g->blocks[i + 1], (g->nblocks - (size_t)i - 1) * sizeof(*g->blocks));
	g->nblocks--;
	g->last = 0;
	g->in_use -= b.size;
	return 0;
}

uint8_t *wg_gmem_ptr(struct wg_gmem *g, uint32_t addr, uint32_t bytes)
{
	const struct gmem_block *b;
	long i;

	if (g->last < g->nblocks) {
		b = &g->blocks[g->last];
		if (addr - b->addr < b->size && bytes <= b->size - (addr - b->addr))
			return g->host + (addr - WG_GMEM_BASE);
	}
	i = find_block(g, addr);
	if (i < 0)
		return NULL;
	b = &g->blocks[i];
	if (addr - b->addr >= b->size || bytes > b->size - (addr - b->addr))
		return NULL;
	g->last = (size_t)i;
	return g->host + (addr - WG_GMEM_BASE);
}

int wg_gmem_next(const struct wg_gmem *g, uint32_t *addr, uint32_t *size)
{
	size_t lo = 0, hi = g->nblocks;

	/* First block with addr > *addr (0 starts at the first block). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->blocks[mid].addr <= *addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == g->nblocks)
		return 0;
	*addr = g->blocks[lo].addr;
	*size = g->blocks[lo].size;
	return 1;
}

int wg_gmem_clone(const struct wg_gmem *src, struct wg_gmem **dstp)
{
	struct wg_gmem *dst;
	int rc = wg_gmem_create(&dst, src->capacity);

	if (rc)
		return rc;
	dst->blocks = malloc((src->nblocks ? src->nblocks : 1) * sizeof(*dst->blocks));
	if (!dst->blocks) {
		wg_gmem_destroy(dst);
		return WG_ENOMEM;
	}
	memcpy(dst->blocks, src->blocks, src->nblocks * sizeof(*dst->blocks));
	dst->nblocks = dst->cap_blocks = src->nblocks;
	dst->in_use = src->in_use;
	dst->peak = src->peak;
	for (size_t i = 0; i < src->nblocks; i++) {
		uint64_t off = src->blocks[i].addr - WG_GMEM_BASE;
		memcpy(dst->host + off, src->host + off, src->blocks[i].size);
	}
	*dstp = dst;
	return 0;
}

uint64_t wg_gmem_in_use(const struct wg_gmem *g)
{
	return g ? g->in_use : 0;
}

uint64_t wg_gmem_peak(const struct wg_gmem *g)
{
	return g ? g->peak : 0;
}
