/*
 * Device global memory, held on the host. Device addresses are 32-bit; the
 * allocator hands out 256-byte aligned blocks from [WG_GMEM_BASE, base +
 * capacity). Address 0 and everything outside a live allocation is invalid,
 * including the padding between an allocation's last byte and the next
 * 256-byte boundary. A 0-byte allocation gets an address of its own with no
 * accessible bytes.
 */
#ifndef WG_GMEM_H
#define WG_GMEM_H

#include <stdint.h>
#include <stddef.h>

#define WG_GMEM_BASE 0x00100000u
#define WG_GMEM_ALIGN 256u

struct wg_gmem;

int wg_gmem_create(struct wg_gmem **g, uint64_t capacity); /* capacity <= 4 GiB - base */
void wg_gmem_destroy(struct wg_gmem *g);
int wg_gmem_alloc(struct wg_gmem *g, uint64_t bytes, uint32_t *addr);
int wg_gmem_free(struct wg_gmem *g, uint32_t addr); /* addr must be an allocation's base */

/*
 * Host pointer to [addr, addr+bytes) when the range lies inside one live
 * allocation, else NULL. Hot path of every target: keep it cheap.
 */
uint8_t *wg_gmem_ptr(struct wg_gmem *g, uint32_t addr, uint32_t bytes);

/*
 * Live allocations in address order: start with *addr = 0; each call moves to
 * the first allocation above *addr, fills *addr and *size and returns 1, or
 * returns 0 after the last one.
 */
int wg_gmem_next(const struct wg_gmem *g, uint32_t *addr, uint32_t *size);

/* A new gmem holding the same allocations at the same addresses with the same contents. */
int wg_gmem_clone(const struct wg_gmem *src, struct wg_gmem **dst);

/* Bytes allocated now, and the high-water mark. */
uint64_t wg_gmem_in_use(const struct wg_gmem *g);
uint64_t wg_gmem_peak(const struct wg_gmem *g);

#endif
