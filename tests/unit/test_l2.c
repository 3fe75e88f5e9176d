/*
 * cmocka tests of one L2 slice (host/src/l2.c), on a small geometry worked by
 * hand: "2:128:4,L:B:m:W,A:2:2,4" = 2 sets of 4 ways of 128 B lines (line
 * number ln = addr / 128, set = ln mod 2), 2 MSHR entries merging at most 2
 * requests each, a miss queue of 4; hit latency 10, so a request pushed at t
 * is looked up at t + 10 at the earliest, one look-up per cycle.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cache_str.h"
#include "l2.h"
#include "warpgate.h"

static struct wg_l2 *make(const char *geom, uint32_t latency, uint32_t in_queue, uint32_t out_queue)
{
	struct wg_l2_params p = { .latency = latency, .in_queue = in_queue, .out_queue = out_queue };
	struct wg_l2 *l2 = NULL;
	char err[200];

	assert_int_equal(wg_cache_str_parse(geom, &p.geom, err, sizeof(err)), 0);
	assert_int_equal(wg_l2_create(&l2, &p), 0);
	return l2;
}

static int setup(void **state)
{
	*state = make("2:128:4,L:B:m:W,A:2:2,4", 10, 2, 8);
	return 0;
}

static int teardown(void **state)
{
	wg_l2_destroy(*state);
	return 0;
}

static void push(struct wg_l2 *l2, uint64_t t, uint64_t id, int cmd, uint64_t addr, uint32_t sectors, uint32_t partial)
{
	struct wg_l2_req r = { .id = id, .addr = addr, .sectors = sectors, .partial = partial, .cmd = (uint8_t)cmd };

	assert_int_equal(wg_l2_push(l2, t, &r), 0);
}

static void expect_reply(struct wg_l2 *l2, uint64_t id, uint64_t cycle, int hit)
{
	struct wg_l2_reply y;

	assert_int_equal(wg_l2_pop(l2, &y), 1);
	assert_int_equal(y.id, id);
	assert_int_equal(y.cycle, cycle);
	assert_int_equal(y.hit, hit);
}

static void expect_no_reply(struct wg_l2 *l2)
{
	struct wg_l2_reply y;

	assert_int_equal(wg_l2_pop(l2, &y), 0);
}

static void expect_dram(struct wg_l2 *l2, uint64_t addr, uint32_t bytes, int write, uint64_t cycle)
{
	struct wg_l2_dram_req d;

	assert_int_equal(wg_l2_pop_dram(l2, &d), 1);
	assert_int_equal(d.addr, addr);
	assert_int_equal(d.bytes, bytes);
	assert_int_equal(d.write, write);
	assert_int_equal(d.cycle, cycle);
}

static void expect_no_dram(struct wg_l2 *l2)
{
	struct wg_l2_dram_req d;

	assert_int_equal(wg_l2_pop_dram(l2, &d), 0);
}

static void read_hits_after_its_fill(void **state)
{
	struct wg_l2 *l2 = *state;
	const struct wg_l2_stats *st = wg_l2_stats(l2);

	/* Pushed at 0, looked up at 10: miss, one 32 B DRAM read of sector 0. */
	push(l2, 0, 1, WG_L2_READ, 0x0, 0x1, 0);
	assert_int_equal(wg_l2_advance(l2, 10), 0);
	expect_dram(l2, 0x0, 32, 0, 10);
	expect_no_reply(l2);
	/* Data back at 50: valid from 51, when the waiting read is answered. */
	assert_int_equal(wg_l2_fill(l2, 50, 0x0, 32), 0);
	assert_int_equal(wg_l2_advance(l2, 50), 0);
	expect_no_reply(l2);
	assert_int_equal(wg_l2_advance(l2, 51), 0);
	expect_reply(l2, 1, 51, 0);
	/* The same sector again: pushed at 60, a hit at 60 + 10 with no DRAM traffic. */
	push(l2, 60, 2, WG_L2_READ, 0x10, 0x1, 0);
	assert_int_equal(wg_l2_advance(l2, 70), 0);
	expect_reply(l2, 2, 70, 1);
	expect_no_dram(l2);
	assert_int_equal(st->reads, 2);
	assert_int_equal(st->hits, 1);
	assert_int_equal(st->misses, 1);
	assert_int_equal(st->dram_reads, 1);
	assert_int_equal(st->fills, 1);
}

static void sector_miss_on_a_present_line_fetches_only_missing_sectors(void **state)
{
	struct wg_l2 *l2 = *state;
	const struct wg_l2_stats *st = wg_l2_stats(l2);
	uint32_t valid, dirty, pending;

	push(l2, 0, 1, WG_L2_READ, 0x0, 0x1, 0);
	assert_int_equal(wg_l2_advance(l2, 10), 0);
	expect_dram(l2, 0x0, 32, 0, 10);
	assert_int_equal(wg_l2_fill(l2, 20, 0x0, 32), 0);
	assert_int_equal(wg_l2_advance(l2, 21), 0);
	expect_reply(l2, 1, 21, 0);
	/* Sectors 1-2 of the present line (looked up at 40): one 64 B read from byte 32. */
	push(l2, 30, 2, WG_L2_READ, 0x0, 0x6, 0);
	assert_int_equal(wg_l2_advance(l2, 40), 0);
	expect_dram(l2, 0x20, 64, 0, 40);
	/* Sectors 0-1 at 51: 0 valid, 1 coming: it waits in the same MSHR entry, no DRAM read. */
	push(l2, 41, 3, WG_L2_READ, 0x0, 0x3, 0);
	assert_int_equal(wg_l2_advance(l2, 51), 0);
	expect_no_dram(l2);
	assert_int_equal(wg_l2_probe(l2, 0x0, &valid, &dirty, &pending), 1);
	assert_int_equal(valid, 0x1);
	assert_int_equal(pending, 0x6);
	assert_int_equal(wg_l2_fill(l2, 60, 0x20, 64), 0);
	assert_int_equal(wg_l2_advance(l2, 61), 0);
	expect_reply(l2, 2, 61, 0);
	expect_reply(l2, 3, 61, 0);
	assert_int_equal(wg_l2_probe(l2, 0x0, &valid, &dirty, &pending), 1);
	assert_int_equal(valid, 0x7);
	assert_int_equal(dirty, 0);
	assert_int_equal(pending, 0);
	assert_int_equal(st->misses, 3);
	assert_int_equal(st->sector_misses, 2);
	assert_int_equal(st->mshr_merges, 1);
	assert_int_equal(st->dram_reads, 2);
	assert_int_equal(st->dram_read_bytes, 32 + 64);
}

static void lru_evicts_the_least_recently_used_way_of_a_full_set(void **state)
{
	struct wg_l2 *l2 = *state;
	const struct wg_l2_stats *st = wg_l2_stats(l2);

	/*
	 * Set 0 holds even line numbers. Whole-sector writes allocate without a
	 * fill: ln 0, 2, 4, 6 (looked up at 10..13) fill the 4 ways; ln 0 is
	 * written again at 14 and ln 4 read at 15, so the LRU order is 2, 6, 0, 4.
	 */
	push(l2, 0, 1, WG_L2_WRITE, 0 * 128, 0xF, 0);
	push(l2, 1, 2, WG_L2_WRITE, 2 * 128, 0xF, 0);
	push(l2, 2, 3, WG_L2_WRITE, 4 * 128, 0xF, 0);
	push(l2, 3, 4, WG_L2_WRITE, 6 * 128, 0xF, 0);
	push(l2, 4, 5, WG_L2_WRITE, 0 * 128, 0x1, 0);
	push(l2, 5, 6, WG_L2_READ, 4 * 128, 0x1, 0);
	/* ln 8 at 16 evicts ln 2; ln 10 at 17 evicts ln 6. Both dirty: one 128 B write each. */
	push(l2, 6, 7, WG_L2_WRITE, 8 * 128, 0xF, 0);
	push(l2, 7, 8, WG_L2_WRITE, 10 * 128, 0xF, 0);
	assert_int_equal(wg_l2_advance(l2, 17), 0);
	for (uint64_t id = 1; id <= 8; id++)
		expect_reply(l2, id, 9 + id, id == 5 || id == 6); /* acks at their look-up */
	expect_dram(l2, 2 * 128, 128, 1, 16);
	expect_dram(l2, 6 * 128, 128, 1, 17);
	expect_no_dram(l2);
	assert_int_equal(wg_l2_probe(l2, 0 * 128, NULL, NULL, NULL), 1);
	assert_int_equal(wg_l2_probe(l2, 2 * 128, NULL, NULL, NULL), 0);
	assert_int_equal(wg_l2_probe(l2, 4 * 128, NULL, NULL, NULL), 1);
	assert_int_equal(wg_l2_probe(l2, 6 * 128, NULL, NULL, NULL), 0);
	assert_int_equal(wg_l2_probe(l2, 8 * 128, NULL, NULL, NULL), 1);
	assert_int_equal(wg_l2_probe(l2, 10 * 128, NULL, NULL, NULL), 1);
	assert_int_equal(st->evictions, 2);
	assert_int_equal(st->dirty_evictions, 2);
	assert_int_equal(st->writes, 7);
	assert_int_equal(st->hits, 2);
	assert_int_equal(st->dram_reads, 0);
}

static void fifo_replacement_ignores_reuse(void **state)
{
	struct wg_l2 *l2 = make("1:128:2,F:B:m:W,A:2:2,4", 10, 2, 8);

	(void)state;
	/* One set of 2 ways: ln 0, ln 1, ln 0 again (a hit), then ln 2 evicts ln 0, the oldest. */
	push(l2, 0, 1, WG_L2_WRITE, 0, 0xF, 0);
	push(l2, 1, 2, WG_L2_WRITE, 128, 0xF, 0);
	push(l2, 2, 3, WG_L2_READ, 0, 0x1, 0);
	push(l2, 3, 4, WG_L2_WRITE, 256, 0xF, 0);
	assert_int_equal(wg_l2_advance(l2, 13), 0);
	expect_dram(l2, 0, 128, 1, 13);
	assert_int_equal(wg_l2_probe(l2, 0, NULL, NULL, NULL), 0);
	assert_int_equal(wg_l2_probe(l2, 128, NULL, NULL, NULL), 1);
	wg_l2_destroy(l2);
}

static void dirty_eviction_writes_back_only_the_dirty_sectors(void **state)
{
	struct wg_l2 *l2 = *state;
	const struct wg_l2_stats *st = wg_l2_stats(l2);
	uint32_t valid, dirty;

	/* Set 1: ln 1 read whole (clean after its fill at 21), then sectors 0 and 2 written at 40. */
	push(l2, 0, 1, WG_L2_READ, 128, 0xF, 0);
	assert_int_equal(wg_l2_advance(l2, 10), 0);
	expect_dram(l2, 128, 128, 0, 10);
	assert_int_equal(wg_l2_fill(l2, 20, 128, 128), 0);
	push(l2, 30, 2, WG_L2_WRITE, 128, 0x5, 0);
	assert_int_equal(wg_l2_advance(l2, 40), 0);
	assert_int_equal(wg_l2_probe(l2, 128, &valid, &dirty, NULL), 1);
	assert_int_equal(valid, 0xF);
	assert_int_equal(dirty, 0x5);
	/* ln 3, 5, 7 fill the other ways (51..53); ln 9 at 54 evicts ln 1: two 32 B writes. */
	push(l2, 41, 3, WG_L2_WRITE, 3 * 128, 0xF, 0);
	push(l2, 42, 4, WG_L2_WRITE, 5 * 128, 0xF, 0);
	push(l2, 43, 5, WG_L2_WRITE, 7 * 128, 0xF, 0);
	push(l2, 44, 6, WG_L2_WRITE, 9 * 128, 0xF, 0);
	assert_int_equal(wg_l2_advance(l2, 54), 0);
	expect_dram(l2, 128, 32, 1, 54);
	expect_dram(l2, 128 + 64, 32, 1, 54);
	expect_no_dram(l2);
	assert_int_equal(wg_l2_probe(l2, 128, NULL, NULL, NULL), 0);
	assert_int_equal(st->dirty_evictions, 1);
	assert_int_equal(st->dram_writes, 2);
	assert_int_equal(st->dram_write_bytes, 64);
}

static void mshr_merges_two_reads_into_one_dram_read(void **state)
{
	struct wg_l2 *l2 = *state;
	const struct wg_l2_stats *st = wg_l2_stats(l2);

	push(l2, 0, 1, WG_L2_READ, 0x0, 0x1, 0);
	push(l2, 1, 2, WG_L2_READ, 0x8, 0x1, 0);
	assert_int_equal(wg_l2_advance(l2, 11), 0);
	expect_dram(l2, 0x0, 32, 0, 10);
	expect_no_dram(l2);
	assert_int_equal(st->mshr_merges, 1);
	assert_int_equal(wg_l2_fill(l2, 30, 0x0, 32), 0);
	assert_int_equal(wg_l2_advance(l2, 31), 0);
	expect_reply(l2, 1, 31, 0);
	expect_reply(l2, 2, 31, 0);
	assert_int_equal(st->dram_reads, 1);
	assert_int_equal(st->misses, 2);
}

static void full_mshrs_stall_the_head_and_a_full_queue_refuses_pushes(void **state)
{
	struct wg_l2 *l2 = *state;
	const struct wg_l2_stats *st = wg_l2_stats(l2);
	struct wg_l2_req r = { .id = 99, .addr = 0x2000, .sectors = 0x1, .cmd = WG_L2_READ };

	/* Three lines, two entries: ln 0 at 10, ln 1 at 11, ln 2 finds no entry from 12 on. */
	push(l2, 0, 1, WG_L2_READ, 0 * 128, 0x1, 0);
	push(l2, 0, 2, WG_L2_READ, 1 * 128, 0x1, 0);
	push(l2, 0, 3, WG_L2_READ, 2 * 128, 0x1, 0);
	assert_int_equal(wg_l2_advance(l2, 30), 0);
	expect_dram(l2, 0 * 128, 32, 0, 10);
	expect_dram(l2, 1 * 128, 32, 0, 11);
	expect_no_dram(l2);
	assert_int_equal(st->stall_mshr, 19); /* cycles 12 .. 30 */
	/* The queue holds latency + in_queue = 12 requests: 1 waiting + 11 more, then refusal. */
	for (uint64_t i = 0; i < 11; i++) {
		assert_int_equal(wg_l2_can_accept(l2), 1);
		push(l2, 30, 10 + i, WG_L2_READ, 0x1000 + i * 128, 0x1, 0);
	}
	assert_int_equal(wg_l2_can_accept(l2), 0);
	assert_int_equal(wg_l2_push(l2, 30, &r), WG_ENOMEM);
	assert_int_equal(st->queue_full, 1);
	/* ln 0's data at 30 frees its entry at 31: ln 2 is looked up in that same cycle. */
	assert_int_equal(wg_l2_fill(l2, 30, 0, 32), 0);
	assert_int_equal(wg_l2_advance(l2, 31), 0);
	expect_reply(l2, 1, 31, 0);
	expect_dram(l2, 2 * 128, 32, 0, 31);
	assert_int_equal(st->stall_mshr, 19);
	assert_int_equal(wg_l2_can_accept(l2), 1);
}

static void merge_limit_stalls_the_third_request_to_a_line(void **state)
{
	struct wg_l2 *l2 = *state;
	const struct wg_l2_stats *st = wg_l2_stats(l2);

	/* Max merge 2: the third read of ln 0 (ready at 12) waits until the fill frees the entry at 21. */
	push(l2, 0, 1, WG_L2_READ, 0, 0x1, 0);
	push(l2, 1, 2, WG_L2_READ, 0, 0x1, 0);
	push(l2, 2, 3, WG_L2_READ, 0, 0x1, 0);
	assert_int_equal(wg_l2_advance(l2, 15), 0);
	assert_int_equal(wg_l2_fill(l2, 20, 0, 32), 0);
	assert_int_equal(wg_l2_advance(l2, 21), 0);
	expect_reply(l2, 1, 21, 0);
	expect_reply(l2, 2, 21, 0);
	expect_reply(l2, 3, 21, 1); /* then a hit in the same cycle */
	assert_int_equal(st->stall_merge, 9); /* cycles 12 .. 20 */
	assert_int_equal(st->dram_reads, 1);
}

static void atomics_read_modify_write_their_sector(void **state)
{
	struct wg_l2 *l2 = *state;
	const struct wg_l2_stats *st = wg_l2_stats(l2);
	uint32_t dirty;

	/* Two atomics on sector 2 (bytes 64..95): a miss at 10 and a merge at 11. */
	push(l2, 0, 1, WG_L2_ATOMIC, 0x40, 0x4, 0);
	push(l2, 1, 2, WG_L2_ATOMIC, 0x44, 0x4, 0);
	assert_int_equal(wg_l2_advance(l2, 11), 0);
	expect_dram(l2, 0x40, 32, 0, 10);
	expect_no_dram(l2);
	/* Data at 20, valid at 21: each atomic holds the bank 2 cycles, answered at 21 and 23. */
	assert_int_equal(wg_l2_fill(l2, 20, 0x40, 32), 0);
	assert_int_equal(wg_l2_advance(l2, 23), 0);
	expect_reply(l2, 1, 21, 0);
	expect_reply(l2, 2, 23, 0);
	assert_int_equal(wg_l2_probe(l2, 0x40, NULL, &dirty, NULL), 1);
	assert_int_equal(dirty, 0x4);
	/* A hit at 40 answers at 40 and holds the bank for 41: the read behind it goes at 42. */
	push(l2, 30, 3, WG_L2_ATOMIC, 0x48, 0x4, 0);
	push(l2, 30, 4, WG_L2_READ, 0x40, 0x4, 0);
	assert_int_equal(wg_l2_advance(l2, 42), 0);
	expect_reply(l2, 3, 40, 1);
	expect_reply(l2, 4, 42, 1);
	assert_int_equal(st->atomics, 3);
	assert_int_equal(st->hits, 2);
	assert_int_equal(st->misses, 2);
}

static void partial_sector_write_fetches_the_sector_and_is_acknowledged_at_once(void **state)
{
	struct wg_l2 *l2 = *state;
	const struct wg_l2_stats *st = wg_l2_stats(l2);
	uint32_t valid, dirty, pending;

	/* Sector 0 written whole, sector 1 in part, line absent: a miss that fetches sector 1 only. */
	push(l2, 0, 1, WG_L2_WRITE, 0x0, 0x3, 0x2);
	assert_int_equal(wg_l2_advance(l2, 10), 0);
	expect_reply(l2, 1, 10, 0);
	expect_dram(l2, 0x20, 32, 0, 10);
	assert_int_equal(wg_l2_probe(l2, 0x0, &valid, &dirty, &pending), 1);
	assert_int_equal(valid, 0x1);
	assert_int_equal(dirty, 0x3);
	assert_int_equal(pending, 0x2);
	/* A read of sector 1 (looked up at 21) waits for that fill (data at 30, answered at 31). */
	push(l2, 11, 2, WG_L2_READ, 0x20, 0x2, 0);
	assert_int_equal(wg_l2_fill(l2, 30, 0x20, 32), 0);
	assert_int_equal(wg_l2_advance(l2, 31), 0);
	expect_reply(l2, 2, 31, 0);
	assert_int_equal(wg_l2_probe(l2, 0x0, &valid, &dirty, &pending), 1);
	assert_int_equal(valid, 0x3);
	assert_int_equal(dirty, 0x3);
	/* A partial write of a valid sector is a hit with no DRAM traffic. */
	push(l2, 40, 3, WG_L2_WRITE, 0x0, 0x1, 0x1);
	assert_int_equal(wg_l2_advance(l2, 50), 0);
	expect_reply(l2, 3, 50, 1);
	expect_no_dram(l2);
	assert_int_equal(st->writes, 2);
	assert_int_equal(st->misses, 2);
	assert_int_equal(st->hits, 1);
}

static void bad_inputs_are_rejected(void **state)
{
	struct wg_l2 *l2 = *state;
	struct wg_l2_req r = { .id = 1, .addr = 0, .sectors = 0x10, .cmd = WG_L2_READ };
	struct wg_l2_params p = { .latency = 1, .in_queue = 1, .out_queue = 1 };
	struct wg_l2 *other = NULL;
	char err[200];

	assert_int_equal(wg_l2_push(l2, 0, &r), WG_EINVAL); /* sector 4 of a 4-sector line */
	r.sectors = 0x1;
	r.partial = 0x1; /* partial on a read */
	assert_int_equal(wg_l2_push(l2, 0, &r), WG_EINVAL);
	r.partial = 0;
	assert_int_equal(wg_l2_advance(l2, 5), 0);
	assert_int_equal(wg_l2_push(l2, 4, &r), WG_EINVAL); /* stamp in the past */
	assert_int_equal(wg_l2_fill(l2, 5, 0, 32), WG_EINVAL); /* nothing being fetched */
	assert_int_equal(wg_cache_str_parse("64:128:16,L:T:m:W,A:32:4,4", &p.geom, err, sizeof(err)), 0);
	assert_int_equal(wg_l2_create(&other, &p), WG_EINVAL); /* write-through is not modelled */
	assert_null(other);
}

static void params_from_the_gtx480_config(void **state)
{
	struct wg_config c;
	struct wg_l2_params p;
	char err[200];

	(void)state;
	wg_config_default(&c);
	assert_int_equal(wg_l2_params_from_config(&p, &c, err, sizeof(err)), 0);
	assert_int_equal(p.geom.sets, 64);
	assert_int_equal(p.geom.assoc, 16);
	assert_int_equal(p.latency, 120); /* rop_latency */
	strcpy(c.dl2, "64:128:16,L:B:f:W,A:32:4,4");
	assert_int_equal(wg_l2_params_from_config(&p, &c, err, sizeof(err)), WG_ECONFIG);
	assert_non_null(strstr(err, "dl2: allocation (on miss: m) 'f' is not modelled"));
}

/*
 * A mixed stream run with a fixed-latency DRAM driven by the test: every DRAM
 * read generated at cycle g is filled at g + 40. The harness moves time in
 * the given steps (at most 40, so fills are known before they are due) and
 * pops at step ends; the queues are large enough that popping later changes
 * nothing. Every run ends at DET_END. Returns the replies (id, cycle) in order.
 */
#define DET_REQS 300
#define DET_FILL_LAT 40
#define DET_END 3000 /* every run stops here, long after the last request */

struct det_run {
	uint64_t id[DET_REQS], cycle[DET_REQS];
	unsigned n;
	struct wg_l2_stats st;
};

static void det_run(const unsigned *steps, unsigned nsteps, struct det_run *out)
{
	struct wg_l2 *l2 = make("4:128:2,L:B:m:W,A:4:2,1000", 7, 1000, 1000);
	uint64_t fill_at[4 * DET_REQS], fill_addr[4 * DET_REQS];
	uint32_t fill_bytes[4 * DET_REQS];
	unsigned nfill = 0, fhead = 0, next = 0, k = 0;
	uint32_t x = 12345;
	uint64_t t = 0;

	memset(out, 0, sizeof(*out));
	while (t < DET_END) {
		uint64_t end = t + steps[k++ % nsteps];
		struct wg_l2_dram_req d;
		struct wg_l2_reply y;

		if (end > DET_END)
			end = DET_END;
		/* Push requests (one every 3 cycles) and known fills up to end, in stamp order. */
		for (;;) {
			uint64_t rs = next < DET_REQS ? 3 * (uint64_t)next : UINT64_MAX;
			uint64_t fs = fhead < nfill ? fill_at[fhead] : UINT64_MAX;

			if (rs > end && fs > end)
				break;
			if (fs <= rs) {
				assert_int_equal(wg_l2_fill(l2, fs, fill_addr[fhead], fill_bytes[fhead]), 0);
				fhead++;
			} else {
				struct wg_l2_req r = { .id = next };

				x = x * 1103515245u + 12345u;
				r.cmd = (uint8_t)((x >> 16) % 3);
				r.addr = ((x >> 8) % 24) * 128; /* 24 lines over 8 ways: hits, misses, evictions */
				r.sectors = 1u << ((x >> 20) % 4) | 1u << ((x >> 24) % 4);
				if (r.cmd == WG_L2_WRITE && (x >> 28) % 2)
					r.partial = r.sectors & 0x3;
				if (r.cmd == WG_L2_ATOMIC)
					r.sectors = 1u << ((x >> 20) % 4);
				assert_int_equal(wg_l2_push(l2, rs, &r), 0);
				next++;
			}
		}
		assert_int_equal(wg_l2_advance(l2, end), 0);
		while (wg_l2_pop_dram(l2, &d))
			if (!d.write) {
				fill_at[nfill] = d.cycle + DET_FILL_LAT;
				fill_addr[nfill] = d.addr;
				fill_bytes[nfill++] = d.bytes;
			}
		while (wg_l2_pop(l2, &y)) {
			out->id[out->n] = y.id;
			out->cycle[out->n++] = y.cycle;
		}
		t = end;
	}
	assert_int_equal(wg_l2_busy(l2), 0);
	out->st = *wg_l2_stats(l2);
	wg_l2_destroy(l2);
}

static void results_do_not_depend_on_advance_steps(void **state)
{
	static const unsigned one[] = { 1 }, big[] = { 40 }, mixed[] = { 1, 13, 40, 7, 2 };
	static struct det_run a, b, c;

	(void)state;
	det_run(one, 1, &a);
	det_run(big, 1, &b);
	det_run(mixed, 5, &c);
	assert_int_equal(a.n, DET_REQS);
	assert_memory_equal(a.id, b.id, sizeof(a.id));
	assert_memory_equal(a.cycle, b.cycle, sizeof(a.cycle));
	assert_memory_equal(&a.st, &b.st, sizeof(a.st));
	assert_memory_equal(a.id, c.id, sizeof(a.id));
	assert_memory_equal(a.cycle, c.cycle, sizeof(a.cycle));
	assert_memory_equal(&a.st, &c.st, sizeof(a.st));
	/* The stream exercised every path. */
	assert_true(a.st.hits > 0 && a.st.misses > 0 && a.st.mshr_merges > 0 && a.st.dirty_evictions > 0);
	assert_true(a.st.stall_mshr > 0 || a.st.stall_merge > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(read_hits_after_its_fill, setup, teardown),
		cmocka_unit_test_setup_teardown(sector_miss_on_a_present_line_fetches_only_missing_sectors, setup, teardown),
		cmocka_unit_test_setup_teardown(lru_evicts_the_least_recently_used_way_of_a_full_set, setup, teardown),
		cmocka_unit_test(fifo_replacement_ignores_reuse),
		cmocka_unit_test_setup_teardown(dirty_eviction_writes_back_only_the_dirty_sectors, setup, teardown),
		cmocka_unit_test_setup_teardown(mshr_merges_two_reads_into_one_dram_read, setup, teardown),
		cmocka_unit_test_setup_teardown(full_mshrs_stall_the_head_and_a_full_queue_refuses_pushes, setup, teardown),
		cmocka_unit_test_setup_teardown(merge_limit_stalls_the_third_request_to_a_line, setup, teardown),
		cmocka_unit_test_setup_teardown(atomics_read_modify_write_their_sector, setup, teardown),
		cmocka_unit_test_setup_teardown(partial_sector_write_fetches_the_sector_and_is_acknowledged_at_once, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(bad_inputs_are_rejected, setup, teardown),
		cmocka_unit_test(params_from_the_gtx480_config),
		cmocka_unit_test(results_do_not_depend_on_advance_steps),
	};
	return cmocka_run_group_tests_name("l2", tests, NULL, NULL);
}
