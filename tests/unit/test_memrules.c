/*
 * cmocka tests of the memory pipeline's counting rules (host/src/memrules.c,
 * docs/memory-pipeline.md section 1): the seeds' examples with their exact
 * transactions, edge cases (partial masks, 64 B halves, 8/16-byte threads,
 * lines one address bit apart, the top of the address space, THREAD kind),
 * shared-memory passes for strides, broadcasts and wide accesses, and random
 * accesses against reference formulations written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "memrules.h"

#define FULL 0xFFFFFFFFu

static uint64_t rng = 0x243F6A8885A308D3ull;

static uint32_t rnd(uint32_t n)
{
	uint64_t z = (rng += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return n ? (uint32_t)(z % n) : (uint32_t)z;
}

static void consecutive(uint32_t *a, uint32_t base, unsigned bytes)
{
	for (unsigned l = 0; l < 32; l++)
		a[l] = base + bytes * l;
}

static unsigned coal(enum wg_coal_kind k, uint32_t mask, const uint32_t *a, unsigned lg)
{
	return wg_coalesce(k, mask, a, lg, NULL);
}

/* Properties every result has: lanes partition mask, each led by the lowest unserved lane, aligned, contained. */
static void check_partition(enum wg_coal_kind k, uint32_t mask, const uint32_t *a, unsigned lg,
                            const struct wg_coal_tx *tx, unsigned n)
{
	uint32_t pend = mask;

	for (unsigned t = 0; t < n; t++) {
		uint32_t bytes = 1u << tx[t].size;

		assert_true(tx[t].lanes != 0);
		assert_int_equal(tx[t].lanes & ~pend, 0);
		assert_int_equal(__builtin_ctz(tx[t].lanes), __builtin_ctz(pend));
		assert_int_equal(tx[t].addr & (bytes - 1), 0);
		if (k == WG_COAL_THREAD)
			assert_int_equal(tx[t].size, lg);
		else
			assert_true(tx[t].size >= 5 && tx[t].size <= 7);
		for (uint32_t m = tx[t].lanes; m; m &= m - 1) {
			uint32_t x = a[__builtin_ctz(m)];

			assert_true(x - tx[t].addr < bytes && x - tx[t].addr + (1u << lg) <= bytes);
		}
		pend &= ~tx[t].lanes;
	}
	assert_int_equal(pend, 0);
}

/* ------------------------------------------------------------------------ */
/* The seeds' examples                                                       */

static void consecutive_words_are_one_line(void **state)
{
	uint32_t a[32];
	struct wg_coal_tx tx[32];

	(void)state;
	consecutive(a, 0x1000, 4);
	assert_int_equal(wg_coalesce(WG_COAL_LINE, FULL, a, 2, tx), 1);
	assert_int_equal(tx[0].addr, 0x1000);
	assert_int_equal(tx[0].size, 7);
	assert_int_equal(tx[0].lanes, FULL);
	assert_int_equal(wg_coalesce(WG_COAL_STORE, FULL, a, 2, tx), 1);
	assert_int_equal(tx[0].size, 7);
	/* non-caching: the four segments of the line */
	assert_int_equal(wg_coalesce(WG_COAL_SEG, FULL, a, 2, tx), 4);
	assert_int_equal(tx[3].addr, 0x1060);
	assert_int_equal(tx[3].size, 5);
	assert_int_equal(tx[3].lanes, 0xFF000000u);
}

static void permuted_in_one_line_is_one_line(void **state)
{
	uint32_t a[32];

	(void)state;
	for (unsigned rep = 0; rep < 50; rep++) {
		consecutive(a, 0x7f80, 4);
		for (unsigned i = 31; i > 0; i--) {
			unsigned j = rnd(i + 1);
			uint32_t t = a[i];

			a[i] = a[j];
			a[j] = t;
		}
		assert_int_equal(coal(WG_COAL_LINE, FULL, a, 2), 1);
		assert_int_equal(coal(WG_COAL_STORE, FULL, a, 2), 1);
	}
}

static void stores_to_three_non_contiguous_segments_are_three(void **state)
{
	uint32_t a[32];
	struct wg_coal_tx tx[32];

	(void)state;
	/* segments 0 and 2 of line A, segment 1 of line B (tests/rtl/test_coalescer.cpp) */
	for (unsigned i = 0; i < 32; i++) {
		uint32_t seg = i < 8 ? 0x4000 : i < 16 ? 0x4040 : i < 24 ? 0x9020 : 0x4000;

		a[i] = seg + 4 * (i % 8);
	}
	assert_int_equal(wg_coalesce(WG_COAL_STORE, FULL, a, 2, tx), 3);
	assert_int_equal(tx[0].addr, 0x4000);
	assert_int_equal(tx[0].size, 5);
	assert_int_equal(tx[0].lanes, 0xFF0000FFu);
	assert_int_equal(tx[1].addr, 0x4040);
	assert_int_equal(tx[1].size, 5);
	assert_int_equal(tx[1].lanes, 0x0000FF00u);
	assert_int_equal(tx[2].addr, 0x9020);
	assert_int_equal(tx[2].size, 5);
	assert_int_equal(tx[2].lanes, 0x00FF0000u);
}

static void scattered_addresses_are_32(void **state)
{
	uint32_t a[32];
	struct wg_coal_tx tx[32];

	(void)state;
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x100000 + 0x1000 * ((i * 7) % 32) + 4 * i;
	for (unsigned k = WG_COAL_LINE; k <= WG_COAL_THREAD; k++) {
		unsigned want = k == WG_COAL_LINE ? 7 : k == WG_COAL_THREAD ? 2 : 5;

		assert_int_equal(wg_coalesce(k, FULL, a, 2, tx), 32);
		for (unsigned t = 0; t < 32; t++) {
			assert_int_equal(tx[t].size, want);
			assert_int_equal(tx[t].lanes, 1u << t);
		}
		check_partition(k, FULL, a, 2, tx, 32);
	}
}

static void non_caching_over_two_regions_is_six_segments(void **state)
{
	static const uint32_t segs[6] = { 0x20000, 0x20020, 0x20060, 0x35080, 0x350c0, 0x350e0 };
	uint32_t a[32];
	struct wg_coal_tx tx[32];

	(void)state;
	for (unsigned rep = 0; rep < 20; rep++) {
		for (unsigned i = 0; i < 32; i++)
			a[i] = segs[rnd(6)] + 4 * rnd(8);
		for (unsigned k = 0; k < 6; k++) /* every segment touched */
			a[5 * k] = segs[k] + 4 * k;
		assert_int_equal(wg_coalesce(WG_COAL_SEG, FULL, a, 2, tx), 6);
		for (unsigned t = 0; t < 6; t++)
			assert_int_equal(tx[t].size, 5);
		check_partition(WG_COAL_SEG, FULL, a, 2, tx, 6);
		assert_int_equal(coal(WG_COAL_LINE, FULL, a, 2), 2);   /* caching: two lines */
		assert_int_equal(coal(WG_COAL_STORE, FULL, a, 2), 4);  /* stores: 2 x 64 B + 2 x 32 B */
	}
}

/* ------------------------------------------------------------------------ */
/* Edge cases of the coalescer                                               */

static void empty_mask_makes_nothing(void **state)
{
	uint32_t a[32] = { 0 };

	(void)state;
	for (unsigned k = WG_COAL_LINE; k <= WG_COAL_THREAD; k++)
		assert_int_equal(coal(k, 0, a, 2), 0);
	assert_int_equal(wg_smem_passes(0, a, 4), 0);
}

static void store_sizes_follow_the_touched_segments(void **state)
{
	uint32_t a[32];
	struct wg_coal_tx tx[32];

	(void)state;
	/* both segments of one 64 B half: one 64 B access */
	consecutive(a, 0x2040, 4);
	assert_int_equal(wg_coalesce(WG_COAL_STORE, 0x0000FFFFu, a, 2, tx), 1);
	assert_int_equal(tx[0].addr, 0x2040);
	assert_int_equal(tx[0].size, 6);
	/* one word in each of them: still 64 B */
	assert_int_equal(wg_coalesce(WG_COAL_STORE, 0x00000101u, a, 2, tx), 1);
	assert_int_equal(tx[0].size, 6);
	/* segments 1 and 2 (not one half): two 32 B */
	consecutive(a, 0x2020, 4);
	assert_int_equal(wg_coalesce(WG_COAL_STORE, 0x0000FFFFu, a, 2, tx), 2);
	assert_int_equal(tx[0].size, 5);
	assert_int_equal(tx[1].size, 5);
	/* segments 0, 1, 2: 64 B then 32 B */
	consecutive(a, 0x2000, 4);
	assert_int_equal(wg_coalesce(WG_COAL_STORE, 0x00FFFFFFu, a, 2, tx), 2);
	assert_int_equal(tx[0].addr, 0x2000);
	assert_int_equal(tx[0].size, 6);
	assert_int_equal(tx[1].addr, 0x2040);
	assert_int_equal(tx[1].size, 5);
	/* segments 0 and 3: two 32 B; lanes 0 and 31 alone: two */
	consecutive(a, 0x3000, 4);
	assert_int_equal(wg_coalesce(WG_COAL_STORE, 0xFF0000FFu, a, 2, tx), 2);
	assert_int_equal(tx[1].addr, 0x3060);
	assert_int_equal(coal(WG_COAL_STORE, 0x80000001u, a, 2), 2);
	/* the leader in the upper half: 64 B of that half, then the lower segment */
	for (unsigned l = 0; l < 32; l++)
		a[l] = l < 16 ? 0x5040 + 4 * l : 0x5000 + 4 * (l - 16) % 32;
	assert_int_equal(wg_coalesce(WG_COAL_STORE, FULL, a, 2, tx), 2);
	assert_int_equal(tx[0].addr, 0x5040);
	assert_int_equal(tx[0].size, 6);
	assert_int_equal(tx[1].addr, 0x5000);
	assert_int_equal(tx[1].size, 5);
	/* every lane on one address: one 32 B store, one line, one segment */
	for (unsigned l = 0; l < 32; l++)
		a[l] = 0x6044;
	assert_int_equal(wg_coalesce(WG_COAL_STORE, FULL, a, 2, tx), 1);
	assert_int_equal(tx[0].addr, 0x6040);
	assert_int_equal(tx[0].size, 5);
	assert_int_equal(coal(WG_COAL_LINE, FULL, a, 2), 1);
	assert_int_equal(coal(WG_COAL_SEG, FULL, a, 2), 1);
	assert_int_equal(coal(WG_COAL_THREAD, FULL, a, 2), 32);
}

static void wide_and_narrow_threads(void **state)
{
	uint32_t a[32];
	struct wg_coal_tx tx[32];

	(void)state;
	consecutive(a, 0x8000, 8);
	assert_int_equal(wg_coalesce(WG_COAL_LINE, FULL, a, 3, tx), 2);
	assert_int_equal(tx[0].lanes, 0x0000FFFFu);
	assert_int_equal(tx[1].addr, 0x8080);
	consecutive(a, 0x8000, 16);
	assert_int_equal(wg_coalesce(WG_COAL_LINE, FULL, a, 4, tx), 4);
	for (unsigned k = 0; k < 4; k++) {
		assert_int_equal(tx[k].addr, 0x8000 + 128 * k);
		assert_int_equal(tx[k].lanes, 0xFFu << (8 * k));
	}
	assert_int_equal(coal(WG_COAL_STORE, FULL, a, 4), 4);
	assert_int_equal(coal(WG_COAL_SEG, FULL, a, 4), 16);
	consecutive(a, 0x8010, 1);
	assert_int_equal(wg_coalesce(WG_COAL_LINE, FULL, a, 0, tx), 1);
	assert_int_equal(coal(WG_COAL_SEG, FULL, a, 0), 2);
	assert_int_equal(coal(WG_COAL_STORE, FULL, a, 0), 1); /* bytes 16..47: segments 0 and 1, one 64 B half */
	consecutive(a, 0xA000, 8);
	assert_int_equal(wg_coalesce(WG_COAL_THREAD, 0x80100188u, a, 3, tx), 5);
	assert_int_equal(tx[0].lanes, 1u << 3);
	assert_int_equal(tx[0].addr, 0xA000 + 8 * 3);
	assert_int_equal(tx[0].size, 3);
	assert_int_equal(tx[4].lanes, 1u << 31);
}

static void lines_one_address_bit_apart(void **state)
{
	(void)state;
	for (unsigned bit = 7; bit < 32; bit++) {
		uint32_t a[32] = { 0 };

		a[0] = 0x12345680u & ~(1u << bit);
		a[1] = a[0] ^ (1u << bit);
		assert_int_equal(coal(WG_COAL_LINE, 3, a, 2), 2);
		assert_int_equal(coal(WG_COAL_STORE, 3, a, 2), 2);
	}
	for (unsigned bit = 5; bit < 7; bit++) {
		uint32_t a[32] = { 0 };

		a[0] = 0x12345600u;
		a[1] = a[0] | (1u << bit);
		assert_int_equal(coal(WG_COAL_LINE, 3, a, 2), 1);
		assert_int_equal(coal(WG_COAL_SEG, 3, a, 2), 2);
	}
}

static void top_of_the_address_space(void **state)
{
	uint32_t a[32];
	struct wg_coal_tx tx[32];

	(void)state;
	consecutive(a, 0xFFFFFF80u, 4);
	assert_int_equal(wg_coalesce(WG_COAL_STORE, FULL, a, 2, tx), 1);
	assert_int_equal(tx[0].addr, 0xFFFFFF80u);
	consecutive(a, 0xFFFFFFC0u, 4); /* wraps to 0 after lane 15 */
	assert_int_equal(wg_coalesce(WG_COAL_LINE, FULL, a, 2, tx), 2);
	assert_int_equal(tx[1].addr, 0);
	assert_int_equal(tx[1].lanes, 0xFFFF0000u);
}

/* ------------------------------------------------------------------------ */
/* Shared-memory passes                                                      */

static void shared_strides_and_broadcast(void **state)
{
	uint32_t a[32];

	(void)state;
	consecutive(a, 0, 4);
	assert_int_equal(wg_smem_passes(FULL, a, 4), 1);   /* stride 1 */
	consecutive(a, 0, 8);
	assert_int_equal(wg_smem_passes(FULL, a, 4), 2);   /* stride 2 words */
	consecutive(a, 0, 128);
	assert_int_equal(wg_smem_passes(FULL, a, 4), 32);  /* stride 32 words */
	consecutive(a, 0, 0);
	assert_int_equal(wg_smem_passes(FULL, a, 4), 1);   /* one word: broadcast */
	consecutive(a, 0, 8);
	assert_int_equal(wg_smem_passes(FULL, a, 8), 2);   /* 64-bit, stride 1 */
	consecutive(a, 0, 16);
	assert_int_equal(wg_smem_passes(FULL, a, 16), 4);  /* 128-bit, stride 1 */
	consecutive(a, 0, 4 * 33);
	assert_int_equal(wg_smem_passes(FULL, a, 4), 1);   /* stride 33: no conflict */
	consecutive(a, 0, 4 * 16);
	assert_int_equal(wg_smem_passes(FULL, a, 4), 16);  /* stride 16: two banks */
	consecutive(a, 0, 4 * 3);
	assert_int_equal(wg_smem_passes(FULL, a, 4), 1);   /* odd strides are conflict free */
	consecutive(a, 0, 1);
	assert_int_equal(wg_smem_passes(FULL, a, 1), 1);   /* bytes: 8 words */
	consecutive(a, 0, 2);
	assert_int_equal(wg_smem_passes(FULL, a, 2), 1);
	consecutive(a, 0x100, 128);
	assert_int_equal(wg_smem_passes(0x00010001u, a, 4), 2);  /* partial mask */
	assert_int_equal(wg_smem_passes(0x00000001u, a, 16), 1);
	/* a window base that is a multiple of 4 changes nothing */
	consecutive(a, 0x1234, 8);
	assert_int_equal(wg_smem_passes(FULL, a, 4), 2);
	/* two words per bank, each needed by several threads */
	for (unsigned l = 0; l < 32; l++)
		a[l] = 4 * (l % 16) + (l & 16 ? 128 : 0);
	assert_int_equal(wg_smem_passes(FULL, a, 4), 2);
	for (unsigned l = 0; l < 32; l++)
		a[l] = 4 * (l % 4);
	assert_int_equal(wg_smem_passes(FULL, a, 4), 1);
}

/* ------------------------------------------------------------------------ */
/* Random accesses against references                                       */

/* The rules with address ranges (as tests/rtl/test_coalescer.cpp). */
static unsigned ref_coalesce(unsigned kind, uint32_t mask, const uint32_t *a, unsigned lg, struct wg_coal_tx *out)
{
	uint32_t pend = mask;
	unsigned n = 0;

	while (pend) {
		unsigned lead = (unsigned)__builtin_ctz(pend), size;
		uint32_t la = a[lead], line = la & ~127u, start, lanes = 0;
		int seg[4] = { 0, 0, 0, 0 };

		if (kind == WG_COAL_THREAD) {
			out[n].addr = la;
			out[n].size = (uint8_t)lg;
			out[n].lanes = 1u << lead;
			pend &= ~out[n++].lanes;
			continue;
		}
		for (unsigned j = 0; j < 32; j++)
			if ((pend >> j & 1) && a[j] >= line && a[j] - line < 128)
				seg[(a[j] - line) / 32] = 1;
		if (kind == WG_COAL_LINE) {
			size = 7;
		} else if (kind == WG_COAL_SEG) {
			size = 5;
		} else {
			unsigned half = (la - line) / 64;

			size = seg[0] && seg[1] && seg[2] && seg[3] ? 7 : seg[2 * half] && seg[2 * half + 1] ? 6 : 5;
		}
		start = la / (1u << size) * (1u << size);
		for (unsigned j = 0; j < 32; j++)
			if ((pend >> j & 1) && a[j] >= start && a[j] - start < (1u << size))
				lanes |= 1u << j;
		out[n].addr = start;
		out[n].size = (uint8_t)size;
		out[n].lanes = lanes;
		pend &= ~lanes;
		n++;
	}
	return n;
}

/* Passes: the most distinct words of one bank, by brute force. */
static unsigned ref_passes(uint32_t mask, const uint32_t *a, unsigned bytes)
{
	uint32_t w[128];
	unsigned n = 0, best = 0, nw = bytes > 4 ? bytes / 4 : 1;

	for (unsigned l = 0; l < 32; l++)
		for (unsigned k = 0; (mask >> l & 1) && k < nw; k++) {
			uint32_t x = a[l] / 4 + k;
			unsigned i;

			for (i = 0; i < n && w[i] != x; i++)
				;
			if (i == n)
				w[n++] = x;
		}
	for (unsigned b = 0; b < 32; b++) {
		unsigned c = 0;

		for (unsigned i = 0; i < n; i++)
			c += w[i] % 32 == b;
		best = c > best ? c : best;
	}
	return best;
}

static void random_accesses_match_the_references(void **state)
{
	(void)state;
	for (unsigned it = 0; it < 20000; it++) {
		unsigned lg = rnd(5), style = rnd(4), kind = rnd(4);
		uint32_t a[32], mask = rnd(4) ? (uint32_t)rnd(0) | (uint32_t)rnd(0) : FULL;
		uint32_t base = (uint32_t)rnd(0) & ~((1u << lg) - 1), span = 1u << (6 + rnd(6));
		struct wg_coal_tx t1[32], t2[32];
		unsigned n1, n2;

		for (unsigned l = 0; l < 32; l++) {
			uint32_t x;

			switch (style) {
			case 0: x = base + (l << lg); break;                       /* consecutive */
			case 1: x = base + (rnd(span) & ~((1u << lg) - 1)); break; /* clustered */
			case 2: x = base; break;                                   /* all equal */
			default: x = (uint32_t)rnd(0); break;                      /* random */
			}
			a[l] = x & ~((1u << lg) - 1);
		}
		n1 = wg_coalesce(kind, mask, a, lg, t1);
		n2 = ref_coalesce(kind, mask, a, lg, t2);
		assert_int_equal(n1, n2);
		assert_int_equal(n1, coal(kind, mask, a, lg));
		for (unsigned t = 0; t < n1; t++) {
			assert_int_equal(t1[t].addr, t2[t].addr);
			assert_int_equal(t1[t].size, t2[t].size);
			assert_int_equal(t1[t].lanes, t2[t].lanes);
		}
		check_partition(kind, mask, a, lg, t1, n1);
		/* shared: offsets in a 48 KB window */
		for (unsigned l = 0; l < 32; l++)
			a[l] &= 0xBFFF;
		assert_int_equal(wg_smem_passes(mask, a, 1u << lg), ref_passes(mask, a, 1u << lg));
	}
}

static void local_addresses_interleave_words(void **state)
{
	(void)state;
	/* docs/sm.md section 4: byte off of thread gtid */
	assert_int_equal(wg_local_addr(0x200000, 256, 0, 0), 0x200000);
	assert_int_equal(wg_local_addr(0x200000, 256, 5, 0), 0x200000 + 20);
	assert_int_equal(wg_local_addr(0x200000, 256, 5, 3), 0x200000 + 23);
	assert_int_equal(wg_local_addr(0x200000, 256, 5, 4), 0x200000 + 1024 + 20);
	assert_int_equal(wg_local_addr(0x200000, 100, 7, 13), 0x200000 + 3 * 400 + 28 + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(consecutive_words_are_one_line),
		cmocka_unit_test(permuted_in_one_line_is_one_line),
		cmocka_unit_test(stores_to_three_non_contiguous_segments_are_three),
		cmocka_unit_test(scattered_addresses_are_32),
		cmocka_unit_test(non_caching_over_two_regions_is_six_segments),
		cmocka_unit_test(empty_mask_makes_nothing),
		cmocka_unit_test(store_sizes_follow_the_touched_segments),
		cmocka_unit_test(wide_and_narrow_threads),
		cmocka_unit_test(lines_one_address_bit_apart),
		cmocka_unit_test(top_of_the_address_space),
		cmocka_unit_test(shared_strides_and_broadcast),
		cmocka_unit_test(random_accesses_match_the_references),
		cmocka_unit_test(local_addresses_interleave_words),
	};

	return cmocka_run_group_tests_name("memrules", tests, NULL, NULL);
}
