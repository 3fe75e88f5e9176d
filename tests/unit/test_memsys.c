/*
 * cmocka tests of the memory system (host/src/memsys.c) with the GTX480
 * configuration: 15 SMs, 6 channels, L2 slices of 64 sets x 16 ways x 128 B,
 * L2 hit latency rop_latency = 120, dram_latency = 100, GDDR5 at 924 MHz for
 * a 700 MHz core; interconnect of 32 B flits and latency 8. Packet sizes: an
 * 8 B header plus data, so a read request is 1 flit, a 32 B read reply 2,
 * a 128 B write request 5, a write acknowledgement 1. A packet of n flits
 * pushed at t into an idle network arrives at t + 1 + (n - 1) + 8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json.h"
#include "memsys.h"
#include "warpgate.h"

#define BASE 0x00100000u /* WG_GMEM_BASE: chunk 4096, partition 4096 mod 6 = 4 */

static int setup(void **state)
{
	struct wg_config c;
	struct wg_memsys *m = NULL;
	char err[256];

	wg_config_default(&c);
	assert_int_equal(wg_memsys_create_from_config(&m, &c, err, sizeof(err)), 0);
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	wg_memsys_destroy(*state);
	return 0;
}

static void push(struct wg_memsys *m, uint64_t t, uint64_t id, uint32_t sm, int cmd, uint32_t addr, uint32_t bytes)
{
	struct wg_mem_req r = { .id = id, .sm = sm, .cmd = (uint8_t)cmd, .addr = addr, .bytes = bytes };

	assert_int_equal(wg_memsys_push(m, t, &r), 0);
}

static struct wg_mem_done wait_done(struct wg_memsys *m, uint64_t limit)
{
	struct wg_mem_done d;

	for (;;) {
		uint64_t next = wg_memsys_next_event(m);

		if (wg_memsys_pop(m, &d))
			return d;
		assert_true(next <= limit);
		assert_int_equal(wg_memsys_advance(m, next), 0);
	}
}

static void isolated_read_costs_icnt_l2_miss_dram_and_return(void **state)
{
	struct wg_memsys *m = *state;
	const struct wg_memsys_stats *st;
	struct wg_mem_done d;

	/*
	 * A 32 B read pushed at 0 (SM 0, partition 4):
	 *   request, 1 flit: leaves at 1, arrives 1 + 0 + 8         =   9
	 *   L2: looked up at 9 + rop_latency 120, a miss           = 129
	 *   GDDR5 (docs/memory-models.md 2.6): stamped 129, DRAM cycle ceil(129 x 33/25) = 171:
	 *     ACT 171, RD 183, data 195..197, core ceil(197 x 25/33) = 150   (+21)
	 *   dram_latency: the data reaches the L2 at 150 + 100      = 250
	 *   fill valid and the read answered one cycle later        = 251
	 *   reply, 8 + 32 B = 2 flits: leaves 252, arrives 252 + 1 + 8 = 261
	 */
	push(m, 0, 42, 0, WG_MEM_READ, BASE, 32);
	assert_int_equal(wg_memsys_advance(m, 260), 0);
	assert_int_equal(wg_memsys_pop(m, &d), 0);
	assert_int_equal(wg_memsys_advance(m, 261), 0);
	assert_int_equal(wg_memsys_pop(m, &d), 1);
	assert_int_equal(d.id, 42);
	assert_int_equal(d.cycle, 261);
	assert_int_equal(d.l2_hit, 0);
	/* The same sector again at 300: 9 + 120 + 10 = 139 cycles, a hit. */
	push(m, 300, 43, 0, WG_MEM_READ, BASE, 32);
	d = wait_done(m, 1000);
	assert_int_equal(d.id, 43);
	assert_int_equal(d.cycle, 439);
	assert_int_equal(d.l2_hit, 1);
	st = wg_memsys_stats(m);
	assert_int_equal(st->l2_read_transactions, 2);
	assert_int_equal(st->l2_hits, 1);
	assert_int_equal(st->l2_misses, 1);
	assert_int_equal(st->dram_reads, 1);
	assert_int_equal(st->dram_row_hits, 0);
	assert_true(st->l2_hit_rate == 0.5);
	assert_true(st->avg_mem_latency == (261.0 + 139.0) / 2);
	assert_int_equal(wg_l2_stats(wg_memsys_l2(m, 4))->reads, 2);
	assert_int_equal(wg_memsys_outstanding(m), 0);
}

static void write_is_acknowledged_by_the_l2_without_dram(void **state)
{
	struct wg_memsys *m = *state;
	struct wg_mem_done d;

	/*
	 * 128 B write at 0: 136 B = 5 flits, leaves 1..5, arrives 5 + 8 = 13;
	 * looked up at 133 (whole sectors: allocated, no fill); the 1-flit
	 * acknowledgement leaves at 134 and arrives at 142.
	 */
	push(m, 0, 1, 3, WG_MEM_WRITE, BASE + 0x100, 128);
	d = wait_done(m, 1000);
	assert_int_equal(d.cycle, 142);
	assert_int_equal(d.sm, 3);
	assert_int_equal(d.cmd, WG_MEM_WRITE);
	assert_int_equal(wg_memsys_stats(m)->dram_reads, 0);
	assert_int_equal(wg_memsys_stats(m)->l2_write_transactions, 1);
	/* BASE + 0x100 is chunk 4097: partition 5. */
	assert_int_equal(wg_l2_stats(wg_memsys_l2(m, 5))->writes, 1);
}

static void back_to_back_writes_count_the_sms_stall_cycles(void **state)
{
	struct wg_memsys *m = *state;

	/*
	 * SM 2 pushes three 5-flit writes at 0 (to three partitions). The port
	 * sends them in 1..5, 6..10, 11..15; a packet waits in cycles 1..10: 10
	 * stall cycles for SM 2, none for the others.
	 */
	push(m, 0, 1, 2, WG_MEM_WRITE, BASE, 128);
	push(m, 0, 2, 2, WG_MEM_WRITE, BASE + 0x100, 128);
	push(m, 0, 3, 2, WG_MEM_WRITE, BASE + 0x200, 128);
	assert_int_equal(wg_memsys_advance(m, 400), 0);
	assert_int_equal(wg_memsys_sm_stall_cycles(m, 2), 10);
	assert_int_equal(wg_memsys_sm_stall_cycles(m, 0), 0);
	assert_int_equal(wg_memsys_stats(m)->icnt_stall_cycles_sm[2], 10);
	assert_int_equal(wg_memsys_stats(m)->completed, 3);
}

static void full_sm_port_refuses_the_push(void **state)
{
	struct wg_memsys *m = *state;
	struct wg_mem_req r = { .id = 99, .sm = 1, .cmd = WG_MEM_READ, .addr = BASE, .bytes = 128 };

	for (uint64_t i = 0; i < WG_MEMSYS_ICNT_IN_QUEUE; i++)
		push(m, 5, i, 1, WG_MEM_READ, BASE + 128 * (uint32_t)i, 128);
	assert_int_equal(wg_memsys_can_accept(m, 1), 0);
	assert_int_equal(wg_memsys_can_accept(m, 0), 1);
	assert_int_equal(wg_memsys_push(m, 5, &r), WG_ENOMEM);
	assert_int_equal(wg_memsys_stats(m)->refused, 1);
	/* One read request leaves per cycle: at 6 there is room again. */
	assert_int_equal(wg_memsys_advance(m, 6), 0);
	assert_int_equal(wg_memsys_can_accept(m, 1), 1);
}

static void bad_requests_are_rejected(void **state)
{
	struct wg_memsys *m = *state;
	struct wg_mem_req r = { .sm = 15, .cmd = WG_MEM_READ, .addr = BASE, .bytes = 4 };

	assert_int_equal(wg_memsys_push(m, 0, &r), WG_EINVAL); /* no SM 15 */
	r.sm = 0;
	r.addr = BASE + 120;
	r.bytes = 16; /* crosses a 128 B block */
	assert_int_equal(wg_memsys_push(m, 0, &r), WG_EINVAL);
	r.addr = BASE;
	r.partial = 1; /* partial on a read */
	assert_int_equal(wg_memsys_push(m, 0, &r), WG_EINVAL);
	r.partial = 0;
	assert_int_equal(wg_memsys_advance(m, 10), 0);
	assert_int_equal(wg_memsys_push(m, 9, &r), WG_EINVAL); /* in the past */
	assert_int_equal(wg_memsys_advance(m, 9), WG_EINVAL);
}

static void bad_l2_string_is_a_config_error(void **state)
{
	struct wg_config c;
	struct wg_memsys *m = NULL;
	char err[256];

	(void)state;
	wg_config_default(&c);
	strcpy(c.dl2, "64:64:16");
	assert_int_equal(wg_memsys_create_from_config(&m, &c, err, sizeof(err)), WG_EINVAL);
	assert_null(m);
	strcpy(c.dl2, "64:128:16,L:T:m:W,A:32:4,4");
	assert_int_equal(wg_memsys_create_from_config(&m, &c, err, sizeof(err)), WG_ECONFIG);
	assert_non_null(strstr(err, "dl2: write policy"));
}

/*
 * A mixed stream: the SMs in turn issue reads of 4..128 B, writes and
 * atomics over a 4 MB window with reuse, one request every `gap` cycles in
 * total. Pushes happen at their stamps (a refused one is offered again each
 * next cycle); the harness moves time in the given steps and pops at step ends.
 */
#define SWEEP_REQS 3000

struct sweep {
	uint64_t cycle[SWEEP_REQS], hit[SWEEP_REQS];
	uint64_t min_seen, at_min, end;
	struct wg_memsys_stats st;
	uint64_t stall_sm[15];
};

static void run_sweep(const unsigned *steps, unsigned nsteps, unsigned gap, struct sweep *out)
{
	struct wg_config c;
	struct wg_memsys *m = NULL;
	char err[256];
	uint32_t x = 2024;
	unsigned next = 0, done = 0, k = 0;
	uint64_t t = 0, minlat, stamp;
	int rc;

	wg_config_default(&c);
	assert_int_equal(wg_memsys_create_from_config(&m, &c, err, sizeof(err)), 0);
	minlat = wg_memsys_min_latency(m);
	memset(out, 0, sizeof(*out));
	out->min_seen = UINT64_MAX;
	while (done < SWEEP_REQS) {
		uint64_t end = t + steps[k++ % nsteps];
		struct wg_mem_done d;

		while (next < SWEEP_REQS && (uint64_t)next * gap <= end) {
			struct wg_mem_req r = { .id = next, .sm = next % 15 };
			uint32_t kind;

			x = x * 1103515245u + 12345u;
			kind = (x >> 16) % 8;
			r.cmd = kind < 5 ? WG_MEM_READ : kind < 7 ? WG_MEM_WRITE : WG_MEM_ATOMIC;
			/*
			 * A third in 64 KB (reuse), a third in 4 MB (misses), a third on 64
			 * lines 48 KB apart: 6 partitions x 64 sets x 128 B, so all in one
			 * set of one slice, whose 16 ways they overflow (dirty evictions).
			 */
			switch ((x >> 8) % 3) {
			case 0:
				r.addr = BASE + x % (64u << 10);
				break;
			case 1:
				r.addr = BASE + x % (4u << 20);
				break;
			default:
				r.addr = BASE + (x >> 4) % 64 * 49152u + x % 128;
				break;
			}
			r.bytes = r.cmd == WG_MEM_ATOMIC ? 4 : (x >> 20) % 3 == 0 ? 4 : (x >> 20) % 3 == 1 ? 32 : 128;
			r.addr &= ~(r.bytes - 1);
			if (r.cmd == WG_MEM_WRITE && r.bytes == 4)
				r.partial = (uint8_t)(1u << ((r.addr & 127) / 32));
			/* A refused request is held and offered again every cycle (at exact stamps). */
			stamp = (uint64_t)next * gap;
			if (stamp < wg_memsys_now(m))
				stamp = wg_memsys_now(m);
			while ((rc = wg_memsys_push(m, stamp, &r)) == WG_ENOMEM)
				stamp++;
			assert_int_equal(rc, 0);
			next++;
		}
		if (end > wg_memsys_now(m))
			assert_int_equal(wg_memsys_advance(m, end), 0);
		while (wg_memsys_pop(m, &d)) {
			uint64_t lat = d.cycle - d.stamp;

			assert_true(d.cycle <= wg_memsys_now(m));
			out->cycle[d.id] = d.cycle;
			out->hit[d.id] = d.l2_hit;
			if (lat < out->min_seen)
				out->min_seen = lat;
			out->at_min += lat == minlat;
			done++;
		}
		t = end > wg_memsys_now(m) ? end : wg_memsys_now(m);
		assert_true(t < 10000000);
	}
	out->end = t;
	out->st = *wg_memsys_stats(m);
	memcpy(out->stall_sm, out->st.icnt_stall_cycles_sm, sizeof(out->stall_sm));
	out->st.icnt_stall_cycles_sm = NULL;
	wg_memsys_destroy(m);
}

static void no_request_completes_before_the_min_latency(void **state)
{
	static const unsigned one[] = { 1 };
	static const unsigned gaps[] = { 7, 1 };
	static struct sweep s;
	struct wg_memsys *m = *state;
	uint64_t minlat = wg_memsys_min_latency(m);

	/* 2 x (1 flit + 8) + 120 = 138: a request and a reply of one flit around an L2 hit. */
	assert_int_equal(minlat, 138);
	/* Sparse (every 7 cycles) and dense (every cycle: queues, merges, stalls). */
	for (unsigned g = 0; g < 2; g++) {
		run_sweep(one, 1, gaps[g], &s);
		assert_true(s.min_seen >= minlat);
		assert_true(s.at_min > 0); /* the bound is reached: 4 B hits and writes */
		assert_true(s.st.l2_hits > 0 && s.st.l2_misses > 0 && s.st.dram_writes > 0);
	}
	assert_true(s.st.icnt_stall_cycles > 0);
}

static void results_do_not_depend_on_advance_steps(void **state)
{
	static const unsigned one[] = { 1 }, big[] = { 997 }, mixed[] = { 1, 50, 3, 400, 17 };
	static struct sweep a, b, c;

	(void)state;
	run_sweep(one, 1, 2, &a);
	run_sweep(big, 1, 2, &b);
	run_sweep(mixed, 5, 2, &c);
	assert_memory_equal(a.cycle, b.cycle, sizeof(a.cycle));
	assert_memory_equal(a.cycle, c.cycle, sizeof(a.cycle));
	assert_memory_equal(a.hit, b.hit, sizeof(a.hit));
	assert_memory_equal(a.hit, c.hit, sizeof(a.hit));
	/* Statistics at the same final time (the runs stop at different step ends). */
	assert_int_equal(a.st.l2_hits, b.st.l2_hits);
	assert_int_equal(a.st.l2_misses, c.st.l2_misses);
	assert_int_equal(a.st.latency_sum, b.st.latency_sum);
	assert_int_equal(a.st.latency_sum, c.st.latency_sum);
	assert_int_equal(a.st.icnt_stall_cycles, b.st.icnt_stall_cycles);
	assert_memory_equal(a.stall_sm, c.stall_sm, sizeof(a.stall_sm));
}

static void statistics_are_written_under_their_json_names(void **state)
{
	struct wg_memsys *m = *state;
	struct wg_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	push(m, 0, 1, 0, WG_MEM_READ, BASE, 32);
	(void)wait_done(m, 1000);
	wg_json_init(&j, f);
	wg_json_begin_object(&j, NULL);
	wg_memsys_stats_json(m, &j, "memory_system");
	wg_json_end_object(&j);
	wg_json_finish(&j);
	fclose(f);
	static const char *const names[] = {
		"\"l2_read_transactions\": 1", "\"l2_write_transactions\": 0", "\"l2_atomic_transactions\": 0",
		"\"l2_hits\": 0", "\"l2_misses\": 1", "\"l2_hit_rate\": 0", "\"dram_reads\": 1", "\"dram_writes\": 0",
		"\"dram_row_hits\": 0", "\"avg_mem_latency\": 261", "\"icnt_stall_cycles\": 0", "\"icnt_stall_cycles_sm\": [",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strstr(buf, names[i]))
			fail_msg("missing %s in %s", names[i], buf);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(isolated_read_costs_icnt_l2_miss_dram_and_return, setup, teardown),
		cmocka_unit_test_setup_teardown(write_is_acknowledged_by_the_l2_without_dram, setup, teardown),
		cmocka_unit_test_setup_teardown(back_to_back_writes_count_the_sms_stall_cycles, setup, teardown),
		cmocka_unit_test_setup_teardown(full_sm_port_refuses_the_push, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_requests_are_rejected, setup, teardown),
		cmocka_unit_test(bad_l2_string_is_a_config_error),
		cmocka_unit_test_setup_teardown(no_request_completes_before_the_min_latency, setup, teardown),
		cmocka_unit_test(results_do_not_depend_on_advance_steps),
		cmocka_unit_test_setup_teardown(statistics_are_written_under_their_json_names, setup, teardown),
	};
	return cmocka_run_group_tests_name("memsys", tests, NULL, NULL);
}
