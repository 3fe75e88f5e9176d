/* The coalescer and shared-memory bank rules of docs/memory-pipeline.md section 1 (memrules.h). */
#include "memrules.h"

#include <string.h>

/* Lanes of m whose address, masked with amask, equals base. */
static uint32_t match(uint32_t m, const uint32_t *addr, uint32_t base, uint32_t amask)
{
	uint32_t r = 0;

	for (unsigned l = 0; l < WG_MR_LANES; l++)
		r |= (uint32_t)((addr[l] & amask) == base) << l;
	return r & m;
}

unsigned wg_coalesce(enum wg_coal_kind kind, uint32_t mask, const uint32_t addr[WG_MR_LANES], unsigned log2size,
                     struct wg_coal_tx *tx)
{
	uint32_t pend = mask;
	unsigned n = 0;

	while (pend) {
		unsigned lead = (unsigned)__builtin_ctz(pend);
		uint32_t la = addr[lead], base, lanes;
		unsigned size;

		switch (kind) {
		case WG_COAL_THREAD:
			base = la;
			size = log2size;
			lanes = 1u << lead;
			break;
		case WG_COAL_SEG:
			base = la & ~31u;
			size = 5;
			lanes = match(pend, addr, base, ~31u);
			break;
		case WG_COAL_LINE:
			base = la & ~127u;
			size = 7;
			lanes = match(pend, addr, base, ~127u);
			break;
		default: { /* WG_COAL_STORE */
			uint32_t line = la & ~127u, in_line = match(pend, addr, line, ~127u), segs = 0;
			unsigned half = (la >> 6) & 1;

			for (uint32_t m = in_line; m; m &= m - 1)
				segs |= 1u << ((addr[__builtin_ctz(m)] >> 5) & 3);
			if (segs == 0xF) {
				base = line;
				size = 7;
				lanes = in_line;
			} else if (((segs >> (2 * half)) & 3) == 3) {
				base = la & ~63u;
				size = 6;
				lanes = match(in_line, addr, base, ~63u);
			} else {
				base = la & ~31u;
				size = 5;
				lanes = match(in_line, addr, base, ~31u);
			}
			break;
		}
		}
		if (tx) {
			tx[n].addr = base;
			tx[n].size = (uint8_t)size;
			tx[n].lanes = lanes;
		}
		n++;
		pend &= ~lanes;
	}
	return n;
}

unsigned wg_smem_passes(uint32_t mask, const uint32_t addr[WG_MR_LANES], unsigned bytes)
{
	unsigned nw = bytes > 4 ? bytes / 4 : 1, n = 0, best = 0;
	uint32_t words[WG_MR_LANES * 4], first[WG_MR_BANKS], have = 0;
	int8_t next[WG_MR_LANES * 4], head[WG_MR_BANKS];
	uint8_t cnt[WG_MR_BANKS];

	if (nw > 4)
		nw = 4;
	if (!mask)
		return 0;
	/* the common case: at most one distinct word per bank (conflict free, broadcasts) is one pass */
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t w0 = addr[__builtin_ctz(m)] / 4;

		for (unsigned k = 0; k < nw; k++) {
			uint32_t w = w0 + k;
			unsigned b = w % WG_MR_BANKS;

			if (!(have >> b & 1)) {
				have |= 1u << b;
				first[b] = w;
			} else if (first[b] != w) {
				goto count;
			}
		}
	}
	return 1;
count:
	/* distinct words per bank, each bank's list threaded through next[] */
	memset(head, -1, sizeof(head));
	memset(cnt, 0, sizeof(cnt));
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);

		for (unsigned k = 0; k < nw; k++) {
			uint32_t w = addr[l] / 4 + k;
			unsigned b = w % WG_MR_BANKS;
			int j;

			for (j = head[b]; j >= 0; j = next[j])
				if (words[j] == w)
					break;
			if (j >= 0)
				continue; /* a word already needed: served in the same pass */
			words[n] = w;
			next[n] = head[b];
			head[b] = (int8_t)n;
			n++;
			if (++cnt[b] > best)
				best = cnt[b];
		}
	}
	return best;
}
