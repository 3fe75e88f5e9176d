/*
 * cmocka tests of the CTA dispatcher (host/src/dispatch.c, docs/dispatch.md).
 *
 * Numbers are worked out for the GTX480 configuration: 15 SMs, 48 warp
 * slots, 8 CTA slots, 32768 registers in 2 register files (one per
 * scheduler) of 32768 / 32 / 2 = 512 warp-rows, 48 KB shared memory
 * allocated in 128-byte rows, 2 x 16 lanes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "config.h"
#include "dispatch.h"
#include "warpgate.h"

struct fixture {
	struct wg_config cfg;
	struct wg_dispatch *d;
	struct wg_occupancy occ;
	char err[320];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	wg_config_default(&f->cfg);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	wg_dispatch_destroy(f->d);
	free(f);
	return 0;
}

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9)
		fail_msg("got %.12g, want %.12g", got, want);
}

static struct wg_dispatch_kernel shape(uint32_t threads, uint32_t regs, uint32_t smem)
{
	struct wg_dispatch_kernel k = { threads, regs, smem };
	return k;
}

static wg_dim3 dim(uint32_t x, uint32_t y, uint32_t z)
{
	wg_dim3 g = { x, y, z };
	return g;
}

/* Create the dispatcher with policy and start a 1-D kernel of n CTAs at cycle 0. */
static void start(struct fixture *f, const char *policy, struct wg_dispatch_kernel k, uint32_t n)
{
	assert_int_equal(wg_config_set(&f->cfg, "cta_policy", policy, f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_dispatch_create(&f->d, &f->cfg), 0);
	assert_int_equal(wg_dispatch_start(f->d, &k, dim(n, 1, 1), 0), 0);
}

static void expect_next(struct fixture *f, uint64_t now, uint64_t cta, uint32_t sm)
{
	uint64_t c = ~0ull;
	uint32_t s = ~0u;

	assert_int_equal(wg_dispatch_next(f->d, now, &c, &s), 1);
	if (c != cta || s != sm)
		fail_msg("at cycle %llu got CTA %llu on SM %u, want CTA %llu on SM %u", (unsigned long long)now,
		         (unsigned long long)c, s, (unsigned long long)cta, sm);
}

static void expect_none(struct fixture *f, uint64_t now)
{
	uint64_t c;
	uint32_t s;

	assert_int_equal(wg_dispatch_next(f->d, now, &c, &s), 0);
}

static int occupancy(struct fixture *f, uint32_t threads, uint32_t regs, uint32_t smem)
{
	struct wg_dispatch_kernel k = shape(threads, regs, smem);

	return wg_dispatch_occupancy(&f->cfg, &k, &f->occ, f->err, sizeof(f->err));
}

/* ---------------------------------------------------------------- occupancy */

static void occupancy_256_threads_20_regs_is_6_by_threads_and_registers(void **state)
{
	struct fixture *f = *state;

	/* 256 threads = 8 warps: 48 / 8 = 6 by warp slots; registers: 512 / 20 = 25 warps per file,
	   x 2 files = 50 usable warp slots, 50 / 8 = 6: both bound it at 6 (threads reported first) */
	assert_int_equal(occupancy(f, 256, 20, 0), 0);
	assert_int_equal(f->occ.warps_per_cta, 8);
	assert_int_equal(f->occ.by_threads, 6);
	assert_int_equal(f->occ.reg_warp_slots, 50);
	assert_int_equal(f->occ.by_regs, 6);
	assert_int_equal(f->occ.by_ctas, 8);
	assert_int_equal(f->occ.by_smem, UINT32_MAX);
	assert_int_equal(f->occ.ctas, 6);
	assert_int_equal(f->occ.limits, WG_LIMIT_THREADS | WG_LIMIT_REGS);
	assert_int_equal(f->occ.limit, WG_LIMIT_THREADS);
}

static void occupancy_limited_by_threads_alone(void **state)
{
	struct fixture *f = *state;

	/* 500 threads round up to 16 warps: 48 / 16 = 3; registers 2 x (512 / 16) = 64 slots, 64 / 16 = 4 */
	assert_int_equal(occupancy(f, 500, 16, 1024), 0);
	assert_int_equal(f->occ.warps_per_cta, 16);
	assert_int_equal(f->occ.by_threads, 3);
	assert_int_equal(f->occ.by_regs, 4);
	assert_int_equal(f->occ.by_smem, 48);
	assert_int_equal(f->occ.ctas, 3);
	assert_int_equal(f->occ.limits, WG_LIMIT_THREADS);
	assert_string_equal(wg_dispatch_limit_name(f->occ.limit), "threads");
}

static void occupancy_limited_by_registers(void **state)
{
	struct fixture *f = *state;

	/* 256 threads x 32 registers: 2 x (512 / 32) = 32 slots, 32 / 8 = 4 (threads allow 6) */
	assert_int_equal(occupancy(f, 256, 32, 0), 0);
	assert_int_equal(f->occ.ctas, 4);
	assert_int_equal(f->occ.limits, WG_LIMIT_REGS);
	assert_string_equal(wg_dispatch_limit_name(f->occ.limit), "registers");
}

static void occupancy_follows_the_register_files_not_the_register_total(void **state)
{
	struct fixture *f = *state;

	/* 224 threads (7 warps) x 47 registers: 7 x 32 x 47 = 10528 registers per CTA, and
	   32768 / 10528 = 3 CTAs by the total; but a file of 512 rows holds 512 / 47 = 10 warps,
	   so 20 warp slots are usable: 20 / 7 = 2, which is what the SM accepts */
	assert_int_equal(occupancy(f, 224, 47, 0), 0);
	assert_int_equal(f->occ.reg_warp_slots, 20);
	assert_int_equal(f->occ.ctas, 2);
	assert_int_equal(f->occ.limit, WG_LIMIT_REGS);
}

static void occupancy_limited_by_shared_memory_in_128_byte_rows(void **state)
{
	struct fixture *f = *state;

	/* 12000 bytes -> 94 rows = 12032 bytes; 49152 / 12032 = 4 (threads 24, registers 51, slots 8) */
	assert_int_equal(occupancy(f, 64, 10, 12000), 0);
	assert_int_equal(f->occ.smem_per_cta, 12032);
	assert_int_equal(f->occ.ctas, 4);
	assert_int_equal(f->occ.limits, WG_LIMIT_SMEM);
	/* the 16/48 split: 3250 bytes -> 26 rows = 3328; 16384 / 3328 = 4 (5 x 3328 = 16640 > 16384),
	   although 5 x 3250 = 16250 bytes would fit unrounded */
	f->cfg.shmem_bytes = 16384;
	assert_int_equal(occupancy(f, 64, 10, 3250), 0);
	assert_int_equal(f->occ.smem_per_cta, 3328);
	assert_int_equal(f->occ.ctas, 4);
	assert_string_equal(wg_dispatch_limit_name(f->occ.limit), "shared memory");
}

static void occupancy_limited_by_cta_slots(void **state)
{
	struct fixture *f = *state;

	/* 64 threads x 8 registers: threads 48 / 2 = 24, registers 2 x 64 / 2 = 64, 8 slots */
	assert_int_equal(occupancy(f, 64, 8, 0), 0);
	assert_int_equal(f->occ.by_threads, 24);
	assert_int_equal(f->occ.by_regs, 64);
	assert_int_equal(f->occ.ctas, 8);
	assert_int_equal(f->occ.limits, WG_LIMIT_CTAS);
	assert_string_equal(wg_dispatch_limit_name(f->occ.limit), "CTA slots");
}

static void cta_that_fits_nowhere_names_resource_and_numbers(void **state)
{
	struct fixture *f = *state;
	struct wg_dispatch_kernel k = shape(992, 33, 0);

	/* 31 warps x 33 registers = 32736 registers <= 32768 in total, but each file of 512 rows holds
	   512 / 33 = 15 warps: 30 usable slots < 31 */
	assert_int_equal(wg_dispatch_create(&f->d, &f->cfg), 0);
	assert_int_equal(wg_dispatch_start(f->d, &k, dim(4, 1, 1), 0), WG_ELAUNCH);
	assert_non_null(strstr(wg_dispatch_error(f->d), "registers: 31 warps of 33 x 32 registers need 31 warp "
	                                                "slots whose registers fit, the SM has 30"));
	assert_int_equal(occupancy(f, 992, 33, 0), WG_ELAUNCH);
	assert_int_equal(f->occ.ctas, 0);
	assert_int_equal(f->occ.limit, WG_LIMIT_REGS);

	/* 49153 bytes -> 49280 in rows > 49152 */
	assert_int_equal(occupancy(f, 64, 8, 49153), WG_ELAUNCH);
	assert_non_null(strstr(f->err, "shared memory: 49153 bytes per CTA (49280 in 128-byte rows) exceed the "
	                               "49152 shared bytes"));
	/* a scaled SM with 8 warp slots: 512 threads need 16 */
	f->cfg.max_warps_per_sm = 8;
	assert_int_equal(occupancy(f, 512, 8, 0), WG_ELAUNCH);
	assert_non_null(strstr(f->err, "threads: 512 threads per CTA need 16 warp slots, the SM has 8"));
	f->cfg.max_warps_per_sm = 48;
	assert_int_equal(occupancy(f, 1056, 8, 0), WG_ELAUNCH);
	assert_non_null(strstr(f->err, "threads: 1056 threads per CTA exceed max_threads_per_cta 1024"));
	/* the dispatcher refuses to start: nothing to issue */
	assert_int_equal(wg_dispatch_finished(f->d), 1);
	assert_int_equal(occupancy(f, 64, 0, 0), WG_EINVAL);
	assert_int_equal(occupancy(f, 0, 8, 0), WG_EINVAL);
}

/*
 * A slot-by-slot model of the SM's acceptance rule, written from
 * rtl/wg_cta_ctrl.sv (cta_ready_o): the lowest free CTA slot c must have its
 * shared window (c + 1) x R <= the split's shared bytes, R = shared bytes
 * rounded up to 128; ceil(threads / 32) warp slots must be free among the
 * usable ones, slot w usable when (w / S + 1) x regs <= rows per register
 * file; a launch takes the lowest free usable warp slots.
 */
struct rtl_sm {
	uint8_t cvalid[32];
	int8_t owner[64]; /* CTA slot owning warp slot w, -1 free */
};

static int rtl_launch(const struct wg_config *c, const struct wg_dispatch_kernel *k, struct rtl_sm *m)
{
	uint32_t sched = c->schedulers, rows = c->regs_per_sm / 32 / sched;
	uint32_t nw = (k->threads + 31) >> 5, nfree = 0, smem_rnd = (k->smem_bytes + 127) & ~127u;
	int cslot = -1;

	for (uint32_t w = 0; w < c->max_warps_per_sm; w++)
		if ((w / sched + 1) * k->regs <= rows && m->owner[w] < 0)
			nfree++;
	for (uint32_t s = 0; s < c->max_ctas_per_sm && cslot < 0; s++)
		if (!m->cvalid[s])
			cslot = (int)s;
	if (cslot < 0 || (uint64_t)cslot * smem_rnd + smem_rnd > c->shmem_bytes || nw > nfree || !nw)
		return -1;
	m->cvalid[cslot] = 1;
	for (uint32_t w = 0; w < c->max_warps_per_sm && nw; w++)
		if ((w / sched + 1) * k->regs <= rows && m->owner[w] < 0) {
			m->owner[w] = (int8_t)cslot;
			nw--;
		}
	return cslot;
}

static void rtl_release(const struct wg_config *c, struct rtl_sm *m, int slot)
{
	m->cvalid[slot] = 0;
	for (uint32_t w = 0; w < c->max_warps_per_sm; w++)
		if (m->owner[w] == slot)
			m->owner[w] = -1;
}

static void occupancy_is_what_the_sms_cta_control_accepts(void **state)
{
	struct fixture *f = *state;
	static const uint32_t threads[] = { 1, 32, 64, 96, 100, 192, 256, 288, 384, 500, 640, 768, 992, 1024 };
	static const uint32_t smem[] = { 0, 1, 128, 129, 3000, 3250, 6144, 12000, 16384, 24577, 49152 };
	uint32_t lcg = 12345, checked = 0, refused = 0;

	for (int split = 0; split < 2; split++) {
		f->cfg.shmem_bytes = split ? 16384 : 49152;
		for (uint32_t regs = 1; regs <= 63; regs++)
			for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++)
				for (size_t m = 0; m < sizeof(smem) / sizeof(smem[0]); m++) {
					struct wg_dispatch_kernel k = shape(threads[t], regs, smem[m]);
					struct rtl_sm sm;
					int slots[32], n = 0, rc;

					memset(&sm, 0, sizeof(sm));
					memset(sm.owner, -1, sizeof(sm.owner));
					rc = wg_dispatch_occupancy(&f->cfg, &k, &f->occ, f->err, sizeof(f->err));
					assert_int_equal(rc, f->occ.ctas ? 0 : WG_ELAUNCH);
					/* fill: the SM takes exactly occ.ctas CTAs */
					while ((slots[n] = rtl_launch(&f->cfg, &k, &sm)) >= 0)
						n++;
					if (n != (int)f->occ.ctas)
						fail_msg("%u threads x %u regs, %u shared bytes, split %d: SM takes %d, "
						         "occupancy %u", threads[t], regs, smem[m], split, n, f->occ.ctas);
					refused += !n;
					/* completions in any order: after each, exactly one more CTA is taken */
					for (int step = 0; n && step < 12; step++) {
						lcg = lcg * 1103515245u + 12345u;
						int i = (int)((lcg >> 16) % (uint32_t)n);
						rtl_release(&f->cfg, &sm, slots[i]);
						slots[i] = rtl_launch(&f->cfg, &k, &sm);
						assert_true(slots[i] >= 0);
						assert_int_equal(rtl_launch(&f->cfg, &k, &sm), -1);
					}
					checked++;
				}
	}
	assert_int_equal(checked, 2 * 63 * 14 * 11);
	assert_true(refused > 0); /* some shapes fit nowhere (e.g. 1024 threads x 63 registers) */
}

/* -------------------------------------------------------------- round-robin */

static void round_robin_fills_15_sms_in_turn_and_refills_on_completion(void **state)
{
	struct fixture *f = *state;

	/* 768 threads = 24 warps: 48 / 24 = 2 CTAs per SM; 40 CTAs > 30 places */
	start(f, "rr", shape(768, 8, 0), 40);
	assert_int_equal(wg_dispatch_stats(f->d)->occ.ctas, 2);
	for (uint32_t i = 0; i < 30; i++)
		expect_next(f, 0, i, i % 15); /* CTA i to SM i mod 15: two rounds */
	expect_none(f, 0);
	/* SM 3 finishes CTA 3: CTA 30 goes there */
	assert_int_equal(wg_dispatch_done(f->d, 3, 3, 100), 0);
	expect_next(f, 100, 30, 3);
	expect_none(f, 100);
	/* SMs 1 and 0 each finish one: the turn resumes after SM 3, so SM 0 (reached first
	   from SM 4 on) gets CTA 31 and SM 1 CTA 32 */
	assert_int_equal(wg_dispatch_done(f->d, 1, 16, 150), 0);
	assert_int_equal(wg_dispatch_done(f->d, 0, 0, 150), 0);
	expect_next(f, 150, 31, 0);
	expect_next(f, 150, 32, 1);
	expect_none(f, 150);
	assert_int_equal(wg_dispatch_stats(f->d)->sms_used, 15);
	assert_int_equal(wg_dispatch_stats(f->d)->gateable, 0);
}

static void active_cycles_count_cycles_with_a_cta_resident(void **state)
{
	struct fixture *f = *state;
	const struct wg_dispatch_stats *st;

	/* 2 SMs, 1024 threads = 32 warps: 1 CTA per SM; 3 CTAs */
	f->cfg.num_sms = 2;
	start(f, "rr", shape(1024, 8, 0), 3);
	expect_next(f, 0, 0, 0);
	expect_next(f, 0, 1, 1);
	expect_none(f, 0);
	assert_int_equal(wg_dispatch_done(f->d, 1, 1, 100), 0); /* SM 1 busy 0..100 */
	expect_next(f, 120, 2, 1);                              /* idle 100..120, busy again */
	assert_int_equal(wg_dispatch_done(f->d, 0, 0, 130), 0); /* SM 0 busy 0..130 */
	assert_int_equal(wg_dispatch_finished(f->d), 0);
	expect_none(f, 130);
	assert_int_equal(wg_dispatch_done(f->d, 1, 2, 300), 0); /* SM 1 busy 120..300 */
	assert_int_equal(wg_dispatch_finished(f->d), 1);
	st = wg_dispatch_stats(f->d);
	assert_int_equal(st->active_cycles[0], 130);
	assert_int_equal(st->active_cycles[1], 100 + 180);
	assert_int_equal(st->active_cycles_total, 410);
	assert_int_equal(st->ctas_per_sm[0], 1);
	assert_int_equal(st->ctas_per_sm[1], 2);
	assert_int_equal(st->max_resident[1], 1);
	assert_int_equal(st->ctas_done, 3);
	assert_int_equal(st->start, 0);
	assert_int_equal(st->end, 300);
	expect_none(f, 300);
}

static void round_robin_leaves_sms_without_ctas_gateable_at_the_end(void **state)
{
	struct fixture *f = *state;

	/* 5 CTAs on 15 SMs: SMs 0..4, one each; SMs 5..14 never get one */
	start(f, "rr", shape(256, 20, 0), 5);
	for (uint32_t i = 0; i < 5; i++)
		expect_next(f, 0, i, i);
	expect_none(f, 0);
	assert_int_equal(wg_dispatch_stats(f->d)->gateable, 0); /* not known before the end */
	for (uint32_t i = 0; i < 5; i++)
		assert_int_equal(wg_dispatch_done(f->d, i, i, 10 + i), 0);
	assert_int_equal(wg_dispatch_stats(f->d)->gateable, 0x7FE0);
	assert_int_equal(wg_dispatch_stats(f->d)->active_cycles_total, 10 + 11 + 12 + 13 + 14);
}

/* ------------------------------------------------------------ consolidation */

static void consolidation_packs_12_ctas_of_occupancy_4_into_3_sms(void **state)
{
	struct fixture *f = *state;
	const struct wg_dispatch_stats *st;

	/* 256 threads x 32 registers: 4 per SM; 12 <= 60 places: ceil(12 / 4) = 3 SMs, in turn */
	start(f, "consolidate", shape(256, 32, 0), 12);
	for (uint32_t i = 0; i < 12; i++)
		expect_next(f, 0, i, i % 3);
	expect_none(f, 0);
	st = wg_dispatch_stats(f->d);
	assert_int_equal(st->sms_used, 3);
	assert_int_equal(st->gateable, 0x7FF8); /* SMs 3..14 */
	for (uint32_t s = 0; s < 15; s++)
		assert_int_equal(st->ctas_per_sm[s], s < 3 ? 4 : 0);
	/* completions refill nothing: every CTA is out */
	assert_int_equal(wg_dispatch_done(f->d, 1, 4, 500), 0);
	expect_none(f, 500);
}

static void consolidation_of_the_papers_100_ctas_uses_13_of_15_sms(void **state)
{
	struct fixture *f = *state;
	const struct wg_dispatch_stats *st;

	/* paper 3.1.1: 8 CTAs per SM, 120 places, 100 CTAs -> ceil(100 / 8) = 13 SMs;
	   in turn over 13: 100 = 7 x 13 + 9, so SMs 0..8 get 8 and SMs 9..12 get 7 */
	start(f, "consolidate", shape(64, 8, 0), 100);
	for (uint32_t i = 0; i < 100; i++)
		expect_next(f, 0, i, i % 13);
	expect_none(f, 0);
	st = wg_dispatch_stats(f->d);
	assert_int_equal(st->sms_used, 13);
	assert_int_equal(st->gateable, (1u << 13) | (1u << 14));
	for (uint32_t s = 0; s < 15; s++)
		assert_int_equal(st->ctas_per_sm[s], s < 9 ? 8 : s < 13 ? 7 : 0);
}

static void kernel_larger_than_the_gpu_uses_every_sm(void **state)
{
	struct fixture *f = *state;

	/* 2 per SM, 40 CTAs > 30 places: consolidation cannot leave an SM out, it issues as rr */
	start(f, "consolidate", shape(768, 8, 0), 40);
	for (uint32_t i = 0; i < 30; i++)
		expect_next(f, 0, i, i % 15);
	expect_none(f, 0);
	assert_int_equal(wg_dispatch_stats(f->d)->sms_used, 15);
	assert_int_equal(wg_dispatch_stats(f->d)->gateable, 0);
	assert_int_equal(wg_dispatch_done(f->d, 14, 29, 50), 0);
	expect_next(f, 50, 30, 14);
}

/* ------------------------------------------------------- congestion-aware */

/*
 * The congestion tests run 100 CTAs of 768 threads (2 per SM, 30 places, so
 * the kernel is larger than the GPU and the metric decides). Lanes = 2 x 16.
 */
static void start_congestion(struct fixture *f, const char *budget_pct)
{
	assert_int_equal(wg_config_set(&f->cfg, "cta_slowdown_pct", budget_pct, f->err, sizeof(f->err)), 0);
	start(f, "congestion", shape(768, 8, 0), 100);
	assert_int_equal(wg_dispatch_wants_sample(f->d), 1);
	for (uint32_t i = 0; i < 30; i++)
		expect_next(f, 0, i, i % 15); /* the first wave goes to every SM */
	expect_none(f, 0);
}

static void feed(struct fixture *f, uint32_t sm, uint64_t cycles, uint64_t icnt, uint64_t issue, uint64_t lanes)
{
	struct wg_dispatch_sample s = { cycles, icnt, issue, lanes };

	assert_int_equal(wg_dispatch_sample(f->d, sm, &s), 0);
}

/* Two SMs measured: 2000 cycles, 800 interconnect stall cycles (0.4), 8000 lane-instructions
   (8000 / (32 x 2000) = 0.125): metric 0.5 x 0.4 + 1 / 0.125 = 8.2, core share 4 / 8.2. */
static void feed_congested(struct fixture *f)
{
	feed(f, 0, 1000, 600, 300, 2000);
	feed(f, 1, 1000, 200, 500, 6000);
}

static void congestion_below_threshold_keeps_every_sm(void **state)
{
	struct fixture *f = *state;
	const struct wg_dispatch_decision *dc;

	start_congestion(f, "5");
	/* every SM: 1000 cycles, 200 stall cycles (0.2), 16000 lane-instructions (0.5):
	   metric 0.5 x 0.2 + 1 / 0.5 = 2.1 < 4 */
	for (uint32_t s = 0; s < 15; s++)
		feed(f, s, 1000, 200, 300, 16000);
	assert_int_equal(wg_dispatch_done(f->d, 14, 14, 1000), 0);
	assert_int_equal(wg_dispatch_wants_sample(f->d), 0);
	dc = &wg_dispatch_stats(f->d)->decision;
	assert_int_equal(dc->reason, WG_DECIDE_BELOW_THRESHOLD);
	assert_int_equal(dc->samples, 15);
	assert_int_equal(dc->at, 1000);
	assert_near(dc->stall_rate, 0.2);
	assert_near(dc->alu_util, 0.5);
	assert_near(dc->issue_stall_rate, 300.0 / 2000.0);
	assert_near(dc->metric, 2.1);
	assert_int_equal(dc->sms, 15);
	assert_near(dc->predicted_slowdown, 0.0);
	expect_next(f, 1000, 30, 14); /* SM 14 is refilled */
	assert_int_equal(wg_dispatch_stats(f->d)->gateable, 0);
}

static void congestion_above_threshold_sheds_sms_within_the_budget(void **state)
{
	struct fixture *f = *state;
	const struct wg_dispatch_stats *st;

	start_congestion(f, "5");
	feed_congested(f);
	assert_int_equal(wg_dispatch_done(f->d, 14, 14, 1000), 0);
	st = wg_dispatch_stats(f->d);
	assert_int_equal(st->decision.reason, WG_DECIDE_CONGESTED);
	assert_int_equal(st->decision.samples, 2);
	assert_near(st->decision.stall_rate, 0.4);
	assert_near(st->decision.alu_util, 0.125);
	assert_near(st->decision.issue_stall_rate, 800.0 / (2.0 * 2000.0));
	assert_near(st->decision.metric, 8.2);
	assert_near(st->decision.core_share, 4.0 / 8.2);
	/* (4 / 8.2) x (15 / 14 - 1) = 3.48% <= 5%; with 13 SMs 7.50% > 5%: 14 SMs */
	assert_int_equal(st->decision.sms, 14);
	assert_near(st->decision.predicted_slowdown, 4.0 / 8.2 / 14.0);
	assert_int_equal(st->sms_used, 14);
	assert_int_equal(st->gateable, 1u << 14);
	/* SM 14 finished its CTA but is not refilled; SMs 0..13 are full */
	expect_none(f, 1000);
	assert_int_equal(wg_dispatch_done(f->d, 2, 17, 1100), 0);
	expect_next(f, 1100, 30, 2);
	/* SM 14 drains: after its last CTA it gets nothing until the end */
	assert_int_equal(wg_dispatch_done(f->d, 14, 29, 1200), 0);
	expect_none(f, 1200);
	assert_int_equal(wg_dispatch_stats(f->d)->active_cycles[14], 1200);
	assert_int_equal(wg_dispatch_stats(f->d)->ctas_per_sm[14], 2);
}

static void congestion_slowdown_budget_bounds_the_sms_shed(void **state)
{
	struct fixture *f = *state;
	/* core share s = 4 / 8.2 = 0.4878; predicted slowdown s x (15 / n - 1):
	   budget 0%:   only n = 15 (0);
	   budget 20%:  n = 11 gives 17.7%, n = 10 would give 24.4%;
	   budget 100%: n = 5 would do (15 / 5 - 1 = 2, x s = 97.6%), cta_min_sms clamps to 8 (42.7%) */
	static const struct {
		const char *budget;
		uint32_t sms;
	} cases[] = { { "0", 15 }, { "5", 14 }, { "20", 11 }, { "100", 8 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct wg_dispatch_decision *dc;
		double budget = atof(cases[i].budget) / 100.0, share = 4.0 / 8.2;

		start_congestion(f, cases[i].budget);
		feed_congested(f);
		assert_int_equal(wg_dispatch_done(f->d, 0, 0, 1000), 0);
		dc = &wg_dispatch_stats(f->d)->decision;
		assert_int_equal(dc->sms, cases[i].sms);
		assert_true(dc->predicted_slowdown <= budget);
		assert_near(dc->predicted_slowdown, share * (15.0 / cases[i].sms - 1.0));
		if (cases[i].sms > 8) /* one SM fewer would break the budget */
			assert_true(share * (15.0 / (cases[i].sms - 1) - 1.0) > budget);
		wg_dispatch_destroy(f->d);
		f->d = NULL;
	}
}

static void congestion_threshold_is_inclusive(void **state)
{
	struct fixture *f = *state;

	/* 8000 lane-instructions in 1000 cycles: utilisation 0.25, no stall: metric exactly 4 =
	   threshold: congested, core share 1; budget 10%: 14 SMs (1 / 14 = 7.1%; 13: 15.4%) */
	start_congestion(f, "10");
	feed(f, 0, 1000, 0, 0, 8000);
	assert_int_equal(wg_dispatch_done(f->d, 0, 0, 1000), 0);
	assert_int_equal(wg_dispatch_stats(f->d)->decision.reason, WG_DECIDE_CONGESTED);
	assert_near(wg_dispatch_stats(f->d)->decision.metric, 4.0);
	assert_int_equal(wg_dispatch_stats(f->d)->decision.sms, 14);
	wg_dispatch_destroy(f->d);
	f->d = NULL;
	/* one lane-instruction more: metric 32000 / 8001 = 3.9995 < 4: every SM */
	start_congestion(f, "10");
	feed(f, 0, 1000, 0, 0, 8001);
	assert_int_equal(wg_dispatch_done(f->d, 0, 0, 1000), 0);
	assert_int_equal(wg_dispatch_stats(f->d)->decision.reason, WG_DECIDE_BELOW_THRESHOLD);
	assert_int_equal(wg_dispatch_stats(f->d)->decision.sms, 15);
}

static void congestion_without_alu_work_goes_to_the_fewest_sms(void **state)
{
	struct fixture *f = *state;

	/* utilisation 0: 1 / 0 makes the metric infinite, core share 0: cta_min_sms = 8 */
	start_congestion(f, "5");
	feed(f, 3, 1000, 900, 0, 0);
	assert_int_equal(wg_dispatch_done(f->d, 3, 3, 1000), 0);
	assert_true(isinf(wg_dispatch_stats(f->d)->decision.metric));
	assert_int_equal(wg_dispatch_stats(f->d)->decision.sms, 8);
	assert_int_equal(wg_dispatch_stats(f->d)->gateable, 0x7F00);
	/* SM 3 (kept) is refilled */
	expect_next(f, 1000, 30, 3);
}

static void congestion_without_sample_keeps_every_sm(void **state)
{
	struct fixture *f = *state;

	start_congestion(f, "5");
	assert_int_equal(wg_dispatch_done(f->d, 5, 20, 700), 0);
	assert_int_equal(wg_dispatch_stats(f->d)->decision.reason, WG_DECIDE_NO_SAMPLE);
	assert_int_equal(wg_dispatch_stats(f->d)->decision.sms, 15);
	expect_next(f, 700, 30, 5);
}

static void congestion_kernel_that_fits_is_consolidated(void **state)
{
	struct fixture *f = *state;

	/* paper 3.1: a kernel whose CTAs all fit at once is packed (3.1.1), no measurement needed */
	start(f, "congestion", shape(256, 32, 0), 12);
	assert_int_equal(wg_dispatch_wants_sample(f->d), 0);
	assert_int_equal(wg_dispatch_stats(f->d)->sms_used, 3);
	for (uint32_t i = 0; i < 12; i++)
		expect_next(f, 0, i, i % 3);
	assert_int_equal(wg_dispatch_stats(f->d)->decision.reason, WG_DECIDE_NONE);
}

static void inconsistent_samples_are_rejected(void **state)
{
	struct fixture *f = *state;
	struct wg_dispatch_sample s = { 1000, 1001, 0, 0 };

	start_congestion(f, "5");
	assert_int_equal(wg_dispatch_sample(f->d, 0, &s), WG_EINVAL); /* stall > cycles */
	s.icnt_stall_cycles = 0;
	s.lane_insts = 32001;                                        /* > 32 lanes x 1000 */
	assert_int_equal(wg_dispatch_sample(f->d, 0, &s), WG_EINVAL);
	s.lane_insts = 0;
	s.issue_stall_cycles = 2001;                                 /* > 2 schedulers x 1000 */
	assert_int_equal(wg_dispatch_sample(f->d, 0, &s), WG_EINVAL);
	assert_int_equal(wg_dispatch_sample(f->d, 15, &s), WG_EINVAL); /* no SM 15 */
	assert_non_null(strstr(wg_dispatch_error(f->d), "SM 15"));
}

/* ------------------------------------------------------ contract and misuse */

static void time_must_not_go_backwards(void **state)
{
	struct fixture *f = *state;

	start(f, "rr", shape(1024, 8, 0), 20);
	expect_next(f, 100, 0, 0);
	assert_int_equal(wg_dispatch_done(f->d, 0, 0, 99), WG_EINVAL);
	assert_non_null(strstr(wg_dispatch_error(f->d), "cycle 99 after cycle 100"));
	uint64_t c;
	uint32_t s;
	assert_int_equal(wg_dispatch_next(f->d, 50, &c, &s), WG_EINVAL);
	/* nothing changed: CTA 0 is still resident on SM 0 */
	assert_int_equal(wg_dispatch_done(f->d, 0, 0, 100), 0);
	assert_int_equal(wg_dispatch_stats(f->d)->active_cycles[0], 0);
}

static void misuse_is_reported(void **state)
{
	struct fixture *f = *state;
	struct wg_dispatch_kernel k = shape(64, 8, 0);

	start(f, "rr", shape(64, 8, 0), 3);
	expect_next(f, 0, 0, 0);
	assert_int_equal(wg_dispatch_done(f->d, 1, 0, 5), WG_EINVAL); /* CTA 0 is on SM 0 */
	assert_non_null(strstr(wg_dispatch_error(f->d), "CTA 0 is not resident on SM 1"));
	assert_int_equal(wg_dispatch_done(f->d, 15, 0, 5), WG_EINVAL);
	assert_int_equal(wg_dispatch_start(f->d, &k, dim(1, 1, 1), 5), WG_EINVAL); /* still running */
	assert_int_equal(wg_dispatch_done(f->d, 0, 0, 5), 0);
	assert_int_equal(wg_dispatch_done(f->d, 0, 0, 5), WG_EINVAL); /* twice */

	struct wg_config bad = f->cfg;
	struct wg_dispatch *d2 = NULL;
	strcpy(bad.cta_policy, "greedy");
	assert_int_equal(wg_dispatch_create(&d2, &bad), WG_ECONFIG);
	assert_null(d2);
	assert_int_equal(wg_dispatch_create(&d2, &f->cfg), 0);
	assert_int_equal(wg_dispatch_start(d2, &k, dim(0, 1, 1), 0), WG_EINVAL);
	assert_non_null(strstr(wg_dispatch_error(d2), "empty grid (0,1,1)"));
	wg_dispatch_destroy(d2);
}

static void cta_index_is_x_fastest(void **state)
{
	(void)state;
	wg_dim3 g = { 4, 3, 2 }, id;

	id = wg_dispatch_cta_index(g, 17); /* 17 = 1 + 4 x (1 + 3 x 1) */
	assert_int_equal(id.x, 1);
	assert_int_equal(id.y, 1);
	assert_int_equal(id.z, 1);
	id = wg_dispatch_cta_index(g, 23);
	assert_int_equal(id.x, 3);
	assert_int_equal(id.y, 2);
	assert_int_equal(id.z, 1);
}

/* ------------------------------------------------------ whole kernels */

/*
 * A small event-driven driver: CTA i runs 300 + (37 i mod 101) cycles from
 * its issue; the driver issues at every completion time, feeding samples
 * when asked. Checks the invariants and returns the end cycle.
 */
static uint64_t run_kernel(struct fixture *f, const char *policy, uint32_t ctas)
{
	const uint32_t n = 200;
	uint64_t end_of[200], issued = 0, now = 0;
	uint32_t sm_of[200];
	uint8_t state_of[200] = { 0 }; /* 0 waiting, 1 running, 2 done */
	const struct wg_dispatch_stats *st;

	assert_true(ctas <= n);
	start(f, policy, shape(768, 8, 0), ctas);
	for (;;) {
		uint64_t c;
		uint32_t s;
		int rc;

		while ((rc = wg_dispatch_next(f->d, now, &c, &s)) == 1) {
			assert_true(c < ctas);
			assert_int_equal(state_of[c], 0);
			state_of[c] = 1;
			sm_of[c] = s;
			end_of[c] = now + 300 + (37 * c) % 101;
			issued++;
		}
		assert_int_equal(rc, 0);
		/* the earliest completion (lowest id on ties) */
		uint64_t best = ~0ull, when = ~0ull;
		for (uint64_t i = 0; i < ctas; i++)
			if (state_of[i] == 1 && end_of[i] < when) {
				when = end_of[i];
				best = i;
			}
		if (best == ~0ull)
			break;
		now = when;
		if (wg_dispatch_wants_sample(f->d)) {
			/* every SM alike: stall rate 0.5, utilisation 0.1: metric 0.25 + 10 = 10.25 */
			for (uint32_t sm = 0; sm < f->cfg.num_sms; sm++)
				feed(f, sm, now, now / 2, 0, now * 32 / 10);
		}
		assert_int_equal(wg_dispatch_done(f->d, sm_of[best], best, now), 0);
		state_of[best] = 2;
	}
	assert_int_equal(issued, ctas);
	assert_int_equal(wg_dispatch_finished(f->d), 1);
	st = wg_dispatch_stats(f->d);
	assert_int_equal(st->ctas_done, ctas);
	uint64_t sum = 0;
	for (uint32_t s = 0; s < f->cfg.num_sms; s++) {
		sum += st->ctas_per_sm[s];
		assert_true(st->max_resident[s] <= st->occ.ctas);
		assert_true(st->active_cycles[s] <= st->end - st->start);
	}
	assert_int_equal(sum, ctas);
	return st->end;
}

static void whole_kernels_issue_every_cta_once_and_repeat_exactly(void **state)
{
	struct fixture *f = *state;
	static const char *const policies[] = { "rr", "consolidate", "congestion" };

	for (size_t p = 0; p < 3; p++) {
		struct wg_dispatch_stats first;

		run_kernel(f, policies[p], 100);
		first = *wg_dispatch_stats(f->d);
		wg_dispatch_destroy(f->d);
		f->d = NULL;
		run_kernel(f, policies[p], 100);
		assert_memory_equal(&first, wg_dispatch_stats(f->d), sizeof(first));
		if (p == 2) {
			/* metric 10.25, share 4 / 10.25 = 0.390: 14 SMs (2.8%; 13: 6.0%); SM 14 ran only
			   its first wave of 2 CTAs */
			assert_int_equal(first.decision.sms, 14);
			assert_int_equal(first.ctas_per_sm[14], 2);
			assert_int_equal(first.gateable, 1u << 14);
		}
		wg_dispatch_destroy(f->d);
		f->d = NULL;
	}
}

static void dispatcher_is_reusable_for_the_next_kernel(void **state)
{
	struct fixture *f = *state;
	struct wg_dispatch_kernel k = shape(256, 32, 0);

	run_kernel(f, "consolidate", 10);
	uint64_t end = wg_dispatch_stats(f->d)->end;
	/* 10 CTAs of 2 per SM fit: ceil(10 / 2) = 5 SMs */
	assert_int_equal(wg_dispatch_stats(f->d)->sms_used, 5);
	assert_int_equal(wg_dispatch_start(f->d, &k, dim(12, 1, 1), end), 0);
	assert_int_equal(wg_dispatch_stats(f->d)->sms_used, 3);
	assert_int_equal(wg_dispatch_stats(f->d)->ctas_done, 0);
	assert_int_equal(wg_dispatch_stats(f->d)->start, end);
	expect_next(f, end, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(occupancy_256_threads_20_regs_is_6_by_threads_and_registers, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(occupancy_limited_by_threads_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(occupancy_limited_by_registers, setup, teardown),
		cmocka_unit_test_setup_teardown(occupancy_follows_the_register_files_not_the_register_total, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(occupancy_limited_by_shared_memory_in_128_byte_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(occupancy_limited_by_cta_slots, setup, teardown),
		cmocka_unit_test_setup_teardown(cta_that_fits_nowhere_names_resource_and_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(occupancy_is_what_the_sms_cta_control_accepts, setup, teardown),
		cmocka_unit_test_setup_teardown(round_robin_fills_15_sms_in_turn_and_refills_on_completion, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(active_cycles_count_cycles_with_a_cta_resident, setup, teardown),
		cmocka_unit_test_setup_teardown(round_robin_leaves_sms_without_ctas_gateable_at_the_end, setup, teardown),
		cmocka_unit_test_setup_teardown(consolidation_packs_12_ctas_of_occupancy_4_into_3_sms, setup, teardown),
		cmocka_unit_test_setup_teardown(consolidation_of_the_papers_100_ctas_uses_13_of_15_sms, setup, teardown),
		cmocka_unit_test_setup_teardown(kernel_larger_than_the_gpu_uses_every_sm, setup, teardown),
		cmocka_unit_test_setup_teardown(congestion_below_threshold_keeps_every_sm, setup, teardown),
		cmocka_unit_test_setup_teardown(congestion_above_threshold_sheds_sms_within_the_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(congestion_slowdown_budget_bounds_the_sms_shed, setup, teardown),
		cmocka_unit_test_setup_teardown(congestion_threshold_is_inclusive, setup, teardown),
		cmocka_unit_test_setup_teardown(congestion_without_alu_work_goes_to_the_fewest_sms, setup, teardown),
		cmocka_unit_test_setup_teardown(congestion_without_sample_keeps_every_sm, setup, teardown),
		cmocka_unit_test_setup_teardown(congestion_kernel_that_fits_is_consolidated, setup, teardown),
		cmocka_unit_test_setup_teardown(inconsistent_samples_are_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(time_must_not_go_backwards, setup, teardown),
		cmocka_unit_test_setup_teardown(misuse_is_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(cta_index_is_x_fastest, setup, teardown),
		cmocka_unit_test_setup_teardown(whole_kernels_issue_every_cta_once_and_repeat_exactly, setup, teardown),
		cmocka_unit_test_setup_teardown(dispatcher_is_reusable_for_the_next_kernel, setup, teardown),
	};
	return cmocka_run_group_tests_name("dispatch", tests, NULL, NULL);
}
