/*
 * test_board_core: the Verilated board core (rtl/wg_board_core.sv through
 * sim/wgboard.h: the RTL link engine in front of the GPU top) driven from C,
 * with host/src/link.c as the host. Time is the link clock: the host's
 * link polls with the number of link cycles run as its clock.
 *
 *   build/board/test_board_core     (make board-core-test)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "link.h"
#include "wgboard.h"
#include "wggpu.h"
#include "warpgate.h"

#define MAXEV 64
#define HOST_RTO 20000 /* link cycles */
#define GRANT_AT 500

struct fx {
	struct wgboard *core;
	struct wg_link *host;
	struct wggpu_ev ev[MAXEV];
	unsigned nev;
	uint64_t now;     /* link cycles run */
	uint64_t sent;    /* host bytes handed to the core */
	uint64_t bad_at;  /* flip a bit of the host byte at this offset (UINT64_MAX: none) */
	uint64_t bad_ev;  /* ... of the core's byte at this offset */
	uint64_t got;     /* core bytes handed to the host */
	uint8_t *trace;   /* every byte the core sent */
	size_t ntrace;
};

static int on_event(void *arg, const struct wg_link_rec *r)
{
	struct fx *x = arg;
	const struct wg_link_ev *e = r->ev;

	if (!e || x->nev == MAXEV)
		return 0;
	memset(&x->ev[x->nev], 0, sizeof(x->ev[0]));
	x->ev[x->nev].kind = e->kind;
	x->ev[x->nev].sm = e->sm;
	x->ev[x->nev].cycle = e->cycle;
	x->ev[x->nev].busy = e->busy;
	memcpy(x->ev[x->nev].cnt, e->cnt, sizeof(x->ev[0].cnt));
	x->nev++;
	return 0;
}

static struct fx *fx_new(int no_skip)
{
	struct fx *x = calloc(1, sizeof(*x));
	struct wgboard_opts o = { .no_skip = no_skip };
	struct wg_link_params p = { 0 };

	assert_non_null(x);
	assert_int_equal(wgboard_create(&x->core, &o), 0);
	p.role = WGL_ROLE_HOST;
	p.rto = HOST_RTO;
	p.max_retries = 8;
	p.on_rec = on_event;
	p.arg = x;
	assert_int_equal(wg_link_create(&x->host, &p), 0);
	x->bad_at = x->bad_ev = UINT64_MAX;
	x->trace = malloc(1 << 20);
	assert_non_null(x->trace);
	return x;
}

static void fx_free(struct fx *x)
{
	wg_link_destroy(x->host);
	wgboard_destroy(x->core);
	free(x->trace);
	free(x);
}

/* Host frames into the core, `cycles` link cycles, the core's bytes to the host, the host's timers. */
static void pump(struct fx *x, uint64_t cycles)
{
	const uint8_t *f;
	size_t len, n;
	uint8_t buf[4096];

	while (wg_link_tx_next(x->host, &f, &len) == 1) {
		uint8_t *copy = malloc(len);

		assert_non_null(copy);
		memcpy(copy, f, len);
		if (x->bad_at >= x->sent && x->bad_at < x->sent + len)
			copy[x->bad_at - x->sent] ^= 0x10;
		x->sent += len;
		assert_int_equal(wgboard_rx(x->core, copy, len), 0);
		free(copy);
	}
	wgboard_step(x->core, cycles);
	x->now += cycles;
	while ((n = wgboard_tx(x->core, buf, sizeof(buf))) > 0) {
		assert_true(x->ntrace + n <= (1u << 20));
		memcpy(x->trace + x->ntrace, buf, n);
		x->ntrace += n;
		if (x->bad_ev >= x->got && x->bad_ev < x->got + n)
			buf[x->bad_ev - x->got] ^= 0x10;
		x->got += n;
		assert_int_equal(wg_link_rx(x->host, buf, n), 0);
	}
	assert_int_equal(wg_link_poll(x->host, x->now), 0);
}

static void cmd(struct fx *x, uint8_t op, uint8_t sm, uint64_t at)
{
	struct wg_link_cmd c;

	memset(&c, 0, sizeof(c));
	c.op = op;
	c.sm = sm;
	c.at = at;
	assert_int_equal(wg_link_put_cmd(x->host, &c), 0);
}

static void hello(struct fx *x)
{
	for (int i = 0; i < 100 && !wg_link_up(x->host); i++)
		pump(x, 100);
	assert_true(wg_link_up(x->host));
}

/* RESET and GRANT to GRANT_AT; once REACHED is in, CNT_READ of SM 0 (the host reads counters
 * while the GPU stands at its grant); each answer waited for at most `limit` link cycles. */
static void grant_and_read(struct fx *x, uint64_t limit)
{
	cmd(x, WGGPU_RESET, 0, 0);
	cmd(x, WGGPU_GRANT, 0, GRANT_AT);
	assert_int_equal(wg_link_flush(x->host), 0);
	for (uint64_t t = 0; t < limit && x->nev < 1; t += 200)
		pump(x, 200);
	cmd(x, WGGPU_CNT_READ, 0, 0);
	assert_int_equal(wg_link_flush(x->host), 0);
	for (uint64_t t = 0; t < limit && x->nev < 2; t += 200)
		pump(x, 200);
}

/* The answers to grant_and_read, worked by hand: no CTA, so target time runs from 0 to the
 * grant and stands; REACHED at 500 with no SM busy; the snapshot, taken at the grant, counts
 * 500 cycles (words 0-1) and nothing else ran (word 4, warp instructions, 0). */
static void expect_answers(const struct fx *x)
{
	assert_int_equal(x->nev, 2);
	assert_int_equal(x->ev[0].kind, WGGPU_EV_REACHED);
	assert_int_equal(x->ev[0].cycle, GRANT_AT);
	assert_int_equal(x->ev[0].busy, 0);
	assert_int_equal(x->ev[1].kind, WGGPU_EV_COUNTERS);
	assert_int_equal(x->ev[1].cnt[0], GRANT_AT);
	assert_int_equal(x->ev[1].cnt[1], 0);
	assert_int_equal(x->ev[1].cnt[4], 0);
	assert_int_equal(wgboard_cycle(x->core), GRANT_AT);
}

static void the_hello_reply_announces_the_whole_build(void **state)
{
	struct fx *x = fx_new(0);
	const struct wg_link_info *p;
	struct wggpu_info in;

	(void)state;
	hello(x);
	assert_true(wgboard_up(x->core));
	wgboard_info(x->core, &in);
	p = wg_link_peer(x->host);
	assert_non_null(p);
	assert_int_equal(p->role, WGL_ROLE_GPU);
	assert_int_equal(p->num_sms, in.num_sms);
	assert_int_equal(p->num_warps, in.num_warps);
	assert_int_equal(p->simd_width, in.simd_width);
	assert_int_equal(p->num_simd, in.num_simd);
	assert_int_equal(p->num_regs, in.num_regs);
	assert_int_equal(p->num_ctas, in.num_ctas);
	assert_int_equal(p->imem_depth, in.imem_depth);
	assert_int_equal(p->cmem_bytes, in.cmem_bytes);
	assert_int_equal(p->mem_tag_bits, in.mem_tag_bits);
	assert_int_equal(p->rsp_depth, in.rsp_depth);
	assert_int_equal(p->launch_depth, in.launch_depth);
	assert_int_equal(p->retire_en, in.retire_en);
	/* the fields the C board path once sent as 0: the RTL parameters (wg_gpu's defaults) */
	assert_int_equal(p->rf_banks, 16);
	assert_int_equal(p->dmem_bytes, 65536);
	assert_int_equal(p->l1_sets, 64);
	assert_int_equal(p->l1_mshrs, 8);
	assert_int_equal(p->stack_depth, 64);
	assert_int_equal(p->has_fp, 1);
	assert_int_equal(p->rf_banks, in.rf_banks);
	assert_int_equal(p->has_fp, in.has_fp);
	assert_int_equal(p->cnt_words, WGGPU_CNT_WORDS);
	fx_free(x);
}

static void a_grant_and_a_counter_read_are_answered_through_the_engine(void **state)
{
	struct fx *x = fx_new(0);
	struct wgboard_counts c;

	(void)state;
	hello(x);
	grant_and_read(x, 100000);
	expect_answers(x);
	wgboard_counts(x->core, &c);
	assert_int_equal(c.cmds, 3);
	assert_int_equal(c.events, 2);
	assert_int_equal(c.events_by_kind[WGGPU_EV_REACHED], 1);
	assert_int_equal(c.events_by_kind[WGGPU_EV_COUNTERS], 1);
	/* once the host has acknowledged the events the core holds still */
	pump(x, 2000);
	assert_true(wgboard_idle(x->core));
	fx_free(x);
}

static void skipping_idle_link_cycles_changes_no_byte(void **state)
{
	struct fx *a = fx_new(0), *b = fx_new(1);
	struct wgboard_counts ca, cb;

	(void)state;
	hello(a);
	hello(b);
	grant_and_read(a, 100000);
	grant_and_read(b, 100000);
	for (int i = 0; i < 20; i++) {
		pump(a, 1000);
		pump(b, 1000);
	}
	expect_answers(a);
	expect_answers(b);
	wgboard_counts(a->core, &ca);
	wgboard_counts(b->core, &cb);
	assert_int_equal(ca.link_cycles, cb.link_cycles);
	assert_true(ca.skipped > 10000); /* most of the 20000 cycles after the answers */
	assert_int_equal(cb.skipped, 0);
	assert_int_equal(a->ntrace, b->ntrace);
	assert_memory_equal(a->trace, b->trace, a->ntrace);
	fx_free(a);
	fx_free(b);
}

static void a_damaged_command_byte_is_reported_and_the_frame_sent_again(void **state)
{
	struct fx *x = fx_new(0);
	struct wgboard_report r;
	struct wg_link_stats s;
	int crc = 0;

	(void)state;
	hello(x);
	/* the command frame after HELLO (112 bytes): a payload byte of its first record */
	x->bad_at = x->sent + 16 + 2;
	grant_and_read(x, 200000);
	expect_answers(x);
	while (wgboard_report(x->core, &r) == 1)
		crc |= r.code == WGL_E_CRC;
	assert_true(crc);
	wg_link_stats(x->host, &s);
	assert_true(s.remote_errors[WGL_E_CRC] >= 1); /* the engine's LERR */
	assert_true(s.tx_retx >= 1);                  /* the host's timeout sent it again */
	fx_free(x);
}

static void a_damaged_event_byte_is_caught_by_the_host_and_sent_again(void **state)
{
	struct fx *x = fx_new(0);
	struct wg_link_stats s;

	(void)state;
	hello(x);
	/* the first event frame after the HELLO reply (112 bytes): a payload byte */
	x->bad_ev = x->got + 16 + 4;
	grant_and_read(x, 3000000); /* the engine's retransmission timeout: 1000000 link cycles */
	expect_answers(x);
	wg_link_stats(x->host, &s);
	assert_true(s.errors[WGL_E_CRC] >= 1);
	fx_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_hello_reply_announces_the_whole_build),
		cmocka_unit_test(a_grant_and_a_counter_read_are_answered_through_the_engine),
		cmocka_unit_test(skipping_idle_link_cycles_changes_no_byte),
		cmocka_unit_test(a_damaged_command_byte_is_reported_and_the_frame_sent_again),
		cmocka_unit_test(a_damaged_event_byte_is_caught_by_the_host_and_sent_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
