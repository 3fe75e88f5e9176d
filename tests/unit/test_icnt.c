/*
 * cmocka tests of the interconnect (host/src/icnt.c). The fixture has 3 SM
 * ports and 2 partition ports, 32 B flits, latency 4, 4 waiting packets per
 * source and 8 credits per destination. A packet pushed at t starts at t + 1
 * at the earliest; n flits started at s hold both ports in s .. s+n-1 and
 * arrive at s + n - 1 + 4. A write of 128 B with its 8 B header is 136 B:
 * 5 flits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "icnt.h"
#include "warpgate.h"

#define WRITE_PKT 136 /* 8 B header + 128 B: 5 flits */

static struct wg_icnt *make(uint32_t in_queue, uint32_t out_queue)
{
	struct wg_icnt_params p = {
		.num_sms = 3, .num_parts = 2, .flit_bytes = 32, .latency = 4, .in_queue = in_queue, .out_queue = out_queue,
	};
	struct wg_icnt *n = NULL;

	assert_int_equal(wg_icnt_create(&n, &p), 0);
	return n;
}

static int setup(void **state)
{
	*state = make(4, 8);
	return 0;
}

static int teardown(void **state)
{
	wg_icnt_destroy(*state);
	return 0;
}

static void expect_pkt(struct wg_icnt *n, enum wg_icnt_net net, uint32_t dst, uint64_t id, uint64_t start,
                       uint64_t cycle)
{
	struct wg_icnt_pkt p;

	assert_int_equal(wg_icnt_pop(n, net, dst, &p), 1);
	assert_int_equal(p.id, id);
	assert_int_equal(p.start, start);
	assert_int_equal(p.cycle, cycle);
	assert_int_equal(p.dst, dst);
}

static void expect_none(struct wg_icnt *n, enum wg_icnt_net net, uint32_t dst)
{
	struct wg_icnt_pkt p;

	assert_int_equal(wg_icnt_pop(n, net, dst, &p), 0);
}

static void interleave_is_256_byte_chunks_round_robin_over_partitions(void **state)
{
	(void)state;
	assert_int_equal(wg_icnt_partition(0x000, 6), 0);
	assert_int_equal(wg_icnt_partition(0x0FF, 6), 0);
	assert_int_equal(wg_icnt_partition(0x100, 6), 1);
	assert_int_equal(wg_icnt_partition(0x5FF, 6), 5);
	assert_int_equal(wg_icnt_partition(0x600, 6), 0);
	/* Chunk 6 is partition 0's second chunk: local 0x100 + offset. */
	assert_int_equal(wg_icnt_local_addr(0x600, 6), 0x100);
	assert_int_equal(wg_icnt_local_addr(0x6FF, 6), 0x1FF);
	assert_int_equal(wg_icnt_local_addr(0x5FF, 6), 0x0FF);
	for (uint64_t a = 0; a < 64 * 1024; a += 52)
		assert_int_equal(wg_icnt_global_addr(wg_icnt_local_addr(a, 6), wg_icnt_partition(a, 6), 6), a);
	assert_int_equal(wg_icnt_flits(8, 32), 1);
	assert_int_equal(wg_icnt_flits(32, 32), 1);
	assert_int_equal(wg_icnt_flits(33, 32), 2);
	assert_int_equal(wg_icnt_flits(WRITE_PKT, 32), 5);
}

static void isolated_packet_arrives_after_serialization_and_latency(void **state)
{
	struct wg_icnt *n = *state;

	/* One header flit pushed at 10: starts 11, arrives 11 + 0 + 4 = 15. */
	assert_int_equal(wg_icnt_push(n, 10, WG_ICNT_REQ, 0, 1, 8, 7), 0);
	assert_int_equal(wg_icnt_advance(n, 14), 0);
	expect_none(n, WG_ICNT_REQ, 1);
	assert_int_equal(wg_icnt_advance(n, 15), 0);
	expect_pkt(n, WG_ICNT_REQ, 1, 7, 11, 15);
	assert_int_equal(wg_icnt_stats(n)->stall_cycles[WG_ICNT_REQ], 0);
	assert_int_equal(wg_icnt_next_event(n), UINT64_MAX);
}

static void two_packets_on_one_port_serialize_with_exact_stall_count(void **state)
{
	struct wg_icnt *n = *state;

	/*
	 * SM 0 sends two 5-flit writes to partition 0 at 10. A: ports busy 11..15,
	 * arrives 15 + 4 = 19. B waits in cycles 11..15 (5 stall cycles), starts
	 * at 16, arrives 16 + 4 + 4 = 24.
	 */
	assert_int_equal(wg_icnt_push(n, 10, WG_ICNT_REQ, 0, 0, WRITE_PKT, 1), 0);
	assert_int_equal(wg_icnt_push(n, 10, WG_ICNT_REQ, 0, 0, WRITE_PKT, 2), 0);
	assert_int_equal(wg_icnt_advance(n, 19), 0);
	expect_pkt(n, WG_ICNT_REQ, 0, 1, 11, 19);
	expect_none(n, WG_ICNT_REQ, 0);
	assert_int_equal(wg_icnt_sm_stall_cycles(n, 0), 5);
	assert_int_equal(wg_icnt_advance(n, 24), 0);
	expect_pkt(n, WG_ICNT_REQ, 0, 2, 16, 24);
	assert_int_equal(wg_icnt_sm_stall_cycles(n, 0), 5);
	assert_int_equal(wg_icnt_sm_stall_cycles(n, 1), 0);
	assert_int_equal(wg_icnt_stats(n)->stall_cycles[WG_ICNT_REQ], 5);
	assert_int_equal(wg_icnt_stats(n)->flits[WG_ICNT_REQ], 10);
	assert_int_equal(wg_icnt_stats(n)->packets[WG_ICNT_REQ], 2);
}

static void two_sms_to_different_partitions_go_in_parallel(void **state)
{
	struct wg_icnt *n = *state;

	assert_int_equal(wg_icnt_push(n, 10, WG_ICNT_REQ, 0, 0, WRITE_PKT, 1), 0);
	assert_int_equal(wg_icnt_push(n, 10, WG_ICNT_REQ, 1, 1, WRITE_PKT, 2), 0);
	assert_int_equal(wg_icnt_advance(n, 19), 0);
	expect_pkt(n, WG_ICNT_REQ, 0, 1, 11, 19);
	expect_pkt(n, WG_ICNT_REQ, 1, 2, 11, 19);
	assert_int_equal(wg_icnt_stats(n)->stall_cycles[WG_ICNT_REQ], 0);
}

static void two_sms_to_one_partition_take_turns_and_the_loser_stalls(void **state)
{
	struct wg_icnt *n = *state;

	/* Partition 0's port goes to SM 0 first (round-robin from 0), SM 1 waits 11..15. */
	assert_int_equal(wg_icnt_push(n, 10, WG_ICNT_REQ, 1, 0, WRITE_PKT, 2), 0);
	assert_int_equal(wg_icnt_push(n, 10, WG_ICNT_REQ, 0, 0, WRITE_PKT, 1), 0);
	assert_int_equal(wg_icnt_advance(n, 24), 0);
	expect_pkt(n, WG_ICNT_REQ, 0, 1, 11, 19);
	expect_pkt(n, WG_ICNT_REQ, 0, 2, 16, 24);
	assert_int_equal(wg_icnt_sm_stall_cycles(n, 0), 0);
	assert_int_equal(wg_icnt_sm_stall_cycles(n, 1), 5);
	/*
	 * Partition 0 granted SM 1 last, so its next turn starts at SM 2, which has
	 * nothing, then SM 0: pushed together at 30, SM 0 starts at 31 and SM 1
	 * waits 31..35 (5 more stall cycles), starts at 36.
	 */
	assert_int_equal(wg_icnt_push(n, 30, WG_ICNT_REQ, 1, 0, WRITE_PKT, 4), 0);
	assert_int_equal(wg_icnt_push(n, 30, WG_ICNT_REQ, 0, 0, WRITE_PKT, 3), 0);
	assert_int_equal(wg_icnt_advance(n, 44), 0);
	expect_pkt(n, WG_ICNT_REQ, 0, 3, 31, 39);
	expect_pkt(n, WG_ICNT_REQ, 0, 4, 36, 44);
	assert_int_equal(wg_icnt_sm_stall_cycles(n, 1), 10);
}

static void replies_use_their_own_network_and_count_partition_stalls(void **state)
{
	struct wg_icnt *n = *state;
	const struct wg_icnt_stats *st = wg_icnt_stats(n);

	/* A request and a reply at the same time do not compete: different networks. */
	assert_int_equal(wg_icnt_push(n, 0, WG_ICNT_REQ, 2, 1, WRITE_PKT, 1), 0);
	assert_int_equal(wg_icnt_push(n, 0, WG_ICNT_RSP, 1, 2, WRITE_PKT, 2), 0);
	/* Partition 1 sends a second 5-flit reply, to SM 0: it waits for its own port in 1..5. */
	assert_int_equal(wg_icnt_push(n, 0, WG_ICNT_RSP, 1, 0, WRITE_PKT, 3), 0);
	assert_int_equal(wg_icnt_advance(n, 13), 0);
	expect_pkt(n, WG_ICNT_REQ, 1, 1, 1, 9);
	expect_pkt(n, WG_ICNT_RSP, 2, 2, 1, 9);
	expect_none(n, WG_ICNT_RSP, 0);
	assert_int_equal(wg_icnt_advance(n, 14), 0);
	expect_pkt(n, WG_ICNT_RSP, 0, 3, 6, 14);
	assert_int_equal(st->part_stall[1], 5);
	assert_int_equal(st->sm_stall[2], 0);
	assert_int_equal(st->stall_cycles[WG_ICNT_RSP], 5);
}

static void exhausted_credits_hold_senders_until_the_consumer_pops(void **state)
{
	struct wg_icnt *n = make(4, 2);

	(void)state;
	/*
	 * Three 1-flit packets SM 0 -> partition 0 at 0, 2 credits: A starts 1
	 * (arrives 5), B starts 2 (arrives 6), C waits for a credit. A popped
	 * after cycle 5: C starts 6, arrives 10. SM 0 stalls in 1 (B waits), 2..5
	 * (C waits): 5 cycles.
	 */
	for (uint64_t id = 1; id <= 3; id++)
		assert_int_equal(wg_icnt_push(n, 0, WG_ICNT_REQ, 0, 0, 8, id), 0);
	assert_int_equal(wg_icnt_advance(n, 5), 0);
	expect_pkt(n, WG_ICNT_REQ, 0, 1, 1, 5);
	assert_int_equal(wg_icnt_advance(n, 10), 0);
	expect_pkt(n, WG_ICNT_REQ, 0, 2, 2, 6);
	expect_pkt(n, WG_ICNT_REQ, 0, 3, 6, 10);
	assert_int_equal(wg_icnt_sm_stall_cycles(n, 0), 5);
	wg_icnt_destroy(n);
}

static void full_source_queue_refuses_the_push(void **state)
{
	struct wg_icnt *n = *state;

	for (uint64_t id = 0; id < 4; id++)
		assert_int_equal(wg_icnt_push(n, 0, WG_ICNT_REQ, 0, 0, 8, id), 0);
	assert_int_equal(wg_icnt_can_accept(n, WG_ICNT_REQ, 0), 0);
	assert_int_equal(wg_icnt_can_accept(n, WG_ICNT_REQ, 1), 1);
	assert_int_equal(wg_icnt_push(n, 0, WG_ICNT_REQ, 0, 0, 8, 9), WG_ENOMEM);
	assert_int_equal(wg_icnt_stats(n)->queue_full[WG_ICNT_REQ], 1);
	/* At 1 the first one leaves: room again. */
	assert_int_equal(wg_icnt_advance(n, 1), 0);
	assert_int_equal(wg_icnt_can_accept(n, WG_ICNT_REQ, 0), 1);
}

static void bad_pushes_are_rejected(void **state)
{
	struct wg_icnt *n = *state;

	assert_int_equal(wg_icnt_advance(n, 5), 0);
	assert_int_equal(wg_icnt_push(n, 4, WG_ICNT_REQ, 0, 0, 8, 1), WG_EINVAL);
	assert_int_equal(wg_icnt_push(n, 5, WG_ICNT_REQ, 3, 0, 8, 1), WG_EINVAL); /* no SM 3 */
	assert_int_equal(wg_icnt_push(n, 5, WG_ICNT_REQ, 0, 2, 8, 1), WG_EINVAL); /* no partition 2 */
	assert_int_equal(wg_icnt_push(n, 5, WG_ICNT_RSP, 2, 0, 8, 1), WG_EINVAL); /* no partition 2 */
	assert_int_equal(wg_icnt_advance(n, 4), WG_EINVAL);
}

/* Random traffic on both networks; consumers pop at step ends (enough credits that this changes nothing). */
#define DET_PKTS 400
#define DET_END 2000

struct det_run {
	uint64_t id[DET_PKTS], cycle[DET_PKTS];
	unsigned n;
	uint64_t sm_stall[3], part_stall[2];
	struct wg_icnt_stats st;
};

static void det_run(const unsigned *steps, unsigned nsteps, struct det_run *out)
{
	struct wg_icnt *n = make(DET_PKTS, DET_PKTS);
	uint32_t x = 777;
	unsigned next = 0, k = 0;
	uint64_t t = 0;

	memset(out, 0, sizeof(*out));
	while (t < DET_END) {
		uint64_t end = t + steps[k++ % nsteps];
		struct wg_icnt_pkt p;

		if (end > DET_END)
			end = DET_END;
		while (next < DET_PKTS && next * 3u <= end) {
			enum wg_icnt_net net;
			uint32_t src, dst, bytes;

			x = x * 1103515245u + 12345u;
			net = (x >> 16) & 1 ? WG_ICNT_RSP : WG_ICNT_REQ;
			src = (x >> 17) % (net == WG_ICNT_REQ ? 3 : 2);
			dst = (x >> 20) % (net == WG_ICNT_REQ ? 2 : 3);
			bytes = (x >> 24) & 1 ? WRITE_PKT : 8;
			assert_int_equal(wg_icnt_push(n, next * 3u, net, src, dst, bytes, next), 0);
			next++;
		}
		assert_int_equal(wg_icnt_advance(n, end), 0);
		for (int net = 0; net < 2; net++)
			for (uint32_t d = 0; d < 3; d++)
				while (wg_icnt_pop(n, net, d, &p)) {
					out->id[out->n] = p.id;
					out->cycle[out->n++] = p.cycle;
				}
		t = end;
	}
	out->st = *wg_icnt_stats(n);
	memcpy(out->sm_stall, out->st.sm_stall, sizeof(out->sm_stall));
	memcpy(out->part_stall, out->st.part_stall, sizeof(out->part_stall));
	out->st.sm_stall = out->st.part_stall = NULL;
	wg_icnt_destroy(n);
}

static void results_do_not_depend_on_advance_steps(void **state)
{
	static const unsigned one[] = { 1 }, big[] = { 500 }, mixed[] = { 3, 1, 77, 10 };
	static struct det_run a, b, c;
	uint64_t ca[DET_PKTS], cb[DET_PKTS], cc[DET_PKTS];

	(void)state;
	det_run(one, 1, &a);
	det_run(big, 1, &b);
	det_run(mixed, 4, &c);
	assert_int_equal(a.n, DET_PKTS);
	/* Pops come port by port: compare each packet's arrival, indexed by id. */
	for (unsigned i = 0; i < DET_PKTS; i++) {
		ca[a.id[i]] = a.cycle[i];
		cb[b.id[i]] = b.cycle[i];
		cc[c.id[i]] = c.cycle[i];
	}
	assert_memory_equal(ca, cb, sizeof(ca));
	assert_memory_equal(ca, cc, sizeof(ca));
	assert_memory_equal(&a.st, &b.st, sizeof(a.st));
	assert_memory_equal(&a.st, &c.st, sizeof(a.st));
	assert_memory_equal(a.sm_stall, b.sm_stall, sizeof(a.sm_stall));
	assert_memory_equal(a.part_stall, c.part_stall, sizeof(a.part_stall));
	assert_true(a.st.stall_cycles[0] > 0 && a.st.stall_cycles[1] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interleave_is_256_byte_chunks_round_robin_over_partitions),
		cmocka_unit_test_setup_teardown(isolated_packet_arrives_after_serialization_and_latency, setup, teardown),
		cmocka_unit_test_setup_teardown(two_packets_on_one_port_serialize_with_exact_stall_count, setup, teardown),
		cmocka_unit_test_setup_teardown(two_sms_to_different_partitions_go_in_parallel, setup, teardown),
		cmocka_unit_test_setup_teardown(two_sms_to_one_partition_take_turns_and_the_loser_stalls, setup, teardown),
		cmocka_unit_test_setup_teardown(replies_use_their_own_network_and_count_partition_stalls, setup, teardown),
		cmocka_unit_test(exhausted_credits_hold_senders_until_the_consumer_pops),
		cmocka_unit_test_setup_teardown(full_source_queue_refuses_the_push, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_pushes_are_rejected, setup, teardown),
		cmocka_unit_test(results_do_not_depend_on_advance_steps),
	};
	return cmocka_run_group_tests_name("icnt", tests, NULL, NULL);
}
