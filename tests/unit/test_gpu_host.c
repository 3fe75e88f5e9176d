/*
 * cmocka tests of the host side of the GPU link (host/src/gpu_host.c)
 * against a scripted GPU behind the transport vtable: no RTL. The fake keeps
 * the GPU top's contract (docs/gpu.md): target time moves only up to the
 * grant, events carry their cycle, timed commands take effect at their
 * cycle, and a timed command that arrives late is a protocol error.
 *
 * A fake CTA (linear id c) on SM s, started at cycle t0:
 *   t0 + 3          reads the word in[c]           (tag = its CTA slot)
 *   response r      writes out[c] = in[c] + 1      at r + 2 (tag = slot + 8)
 *   r + 5           DONE
 * with at most 2 CTAs resident per SM. Events of one cycle come out with
 * the SMs in descending order, so the host's (cycle, SM) sort matters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "asm.h"
#include "config.h"
#include "gmem.h"
#include "gpu_host.h"
#include "image.h"
#include "warpgate.h"

#define NSM 3
#define SLOTS 2
#define MAXEV 4096
#define MAXCMD 4096

struct fcta {
	int used;
	uint32_t linear;
	uint64_t t0, rsp;   /* start, read response (0: none yet) */
	int wrote;
};

struct fsm {
	uint64_t lq_at[64];
	uint32_t lq_lin[64];
	int lq_n;
	struct fcta cta[SLOTS];
	uint32_t done_ctas;
	uint64_t rsp_at[16]; /* per tag: response due (0 none) */
	uint32_t rsp_word[16];
};

struct fake {
	uint64_t cycle, grant;
	int reached_pending, late, error;
	uint32_t cfg[32], params[64];
	uint32_t in_addr, out_addr;
	struct fsm sm[NSM];
	struct wggpu_ev ev[MAXEV];
	int nev, evhead;
	uint64_t link;
	int fault_at_cta; /* CTA id that faults at its start (-1: none) */
	/* power-gating pages (pg set: every SM serves the window of pg_counter / pg_bin) */
	int pg, pg_lost1;
	uint32_t hist_pages[2]; /* histogram pages read, per unit, over all SMs */
};

static void emit(struct fake *f, const struct wggpu_ev *e)
{
	assert_true(f->nev < MAXEV);
	f->ev[f->nev++] = *e;
}

static void fake_step(struct fake *f)
{
	uint64_t c = f->cycle;
	struct wggpu_ev out[NSM * 8];
	int nout = 0;

	for (int s = 0; s < NSM; s++) {
		struct fsm *m = &f->sm[s];

		/* responses due now */
		for (int t = 0; t < 16; t++) {
			if (!m->rsp_at[t] || m->rsp_at[t] > c)
				continue;
			m->rsp_at[t] = 0;
			if (t < SLOTS)
				m->cta[t].rsp = c;
		}
		/* CTAs */
		for (int k = 0; k < SLOTS; k++) {
			struct fcta *x = &m->cta[k];
			struct wggpu_ev e;

			if (!x->used)
				continue;
			memset(&e, 0, sizeof(e));
			e.sm = (uint8_t)s;
			e.cycle = c;
			if (c == x->t0 + 3) {
				e.kind = WGGPU_EV_MREQ;
				e.cmd = 0;
				e.size = 2;
				e.tag = (uint32_t)k;
				e.addr = f->in_addr + 4 * x->linear;
				e.warp = (uint32_t)k;
				out[nout++] = e;
			}
			if (x->rsp && c == x->rsp + 2) {
				uint32_t v = m->rsp_word[k] + 1, off = (f->out_addr + 4 * x->linear) & 127;

				e.kind = WGGPU_EV_MREQ;
				e.cmd = 1;
				e.size = 2;
				e.tag = (uint32_t)k + 8;
				e.addr = f->out_addr + 4 * x->linear;
				memcpy(e.wdata + off, &v, 4);
				memset(e.wmask + off, 1, 4);
				out[nout++] = e;
			}
			if (x->rsp && c == x->rsp + 5) {
				e.kind = WGGPU_EV_DONE;
				e.linear = x->linear;
				out[nout++] = e;
				x->used = 0;
				m->done_ctas++;
			}
		}
		/* a queued launch whose time has come takes a free slot */
		if (m->lq_n && m->lq_at[0] <= c) {
			for (int k = 0; k < SLOTS; k++) {
				if (m->cta[k].used)
					continue;
				memset(&m->cta[k], 0, sizeof(m->cta[k]));
				m->cta[k].used = 1;
				m->cta[k].linear = m->lq_lin[0];
				m->cta[k].t0 = c;
				if ((int)m->lq_lin[0] == f->fault_at_cta) {
					struct wggpu_ev e;

					memset(&e, 0, sizeof(e));
					e.kind = WGGPU_EV_FAULT;
					e.sm = (uint8_t)s;
					e.cycle = c;
					e.code = 2;
					e.fwarp = 5;
					e.fpc = 7;
					e.flane = 3;
					e.faddr = 0x1234;
					e.linear = m->lq_lin[0];
					out[nout++] = e;
				}
				memmove(m->lq_at, m->lq_at + 1, (size_t)(m->lq_n - 1) * sizeof(m->lq_at[0]));
				memmove(m->lq_lin, m->lq_lin + 1, (size_t)(m->lq_n - 1) * sizeof(m->lq_lin[0]));
				m->lq_n--;
				break;
			}
		}
	}
	/* SMs in descending order within a cycle */
	for (int s = NSM - 1; s >= 0; s--)
		for (int i = 0; i < nout; i++)
			if (out[i].sm == s)
				emit(f, &out[i]);
	f->cycle++;
}

static int fake_busy(const struct fake *f)
{
	uint64_t b = 0;

	for (int s = 0; s < NSM; s++)
		for (int k = 0; k < SLOTS; k++)
			if (f->sm[s].cta[k].used)
				b |= 1ull << s;
	return (int)b;
}

/*
 * The power-gating window every SM serves when pg is set (docs/power-gating.md section 4.1):
 * 2 units x 4 lanes, 2000 cycles counted.
 *   unit 0, each lane: idle intervals of 3, 3, 60 and 500 cycles (idle 566, active 1434):
 *           bins 3: 8, 60: 4, 500: 4
 *   unit 1, each lane: intervals of 7 and 1500 (idle 1507, active 493): bin 7: 4, and 4
 *           intervals longer than 1024, summing to 6000; pg_lost1 intervals lost
 */
static uint64_t pg_counter(const struct fake *f, uint32_t a)
{
	if (a < 8 * 8) {
		uint32_t lane = a / 8, k = a % 8, u = lane / 4;

		if (k == 0)
			return u ? 493 : 1434;
		if (k == 1)
			return u ? 1507 : 566;
		return 0;
	}
	switch (a) {
	case 0x800 + 8 + 2: return 4;
	case 0x800 + 8 + 3: return 6000;
	case 0x800 + 8 + 4: return (uint64_t)f->pg_lost1;
	case 0xC00: return 2000;
	default: return 0;
	}
}

/* histogram address h = u x 1024 + L - 1 */
static uint32_t pg_bin(uint32_t h)
{
	switch (h) {
	case 3 - 1: return 8;
	case 60 - 1: return 4;
	case 500 - 1: return 4;
	case 1024 + 7 - 1: return 4;
	default: return 0;
	}
}

static int fake_push(void *ctx, const struct wggpu_cmd *c)
{
	struct fake *f = ctx;
	struct wggpu_ev e;

	switch (c->op) {
	case WGGPU_RESET: {
		uint32_t in = f->in_addr, out = f->out_addr;
		int fa = f->fault_at_cta, pg = f->pg, lost1 = f->pg_lost1;
		uint64_t link = f->link;

		memset(f, 0, sizeof(*f));
		f->in_addr = in;
		f->out_addr = out;
		f->fault_at_cta = fa;
		f->link = link;
		f->pg = pg;
		f->pg_lost1 = lost1;
		break;
	}
	case WGGPU_CFG:
		assert_true(c->all);
		memcpy(&f->cfg[c->addr & 31], c->data, 4);
		break;
	case WGGPU_CMEM:
		memcpy(&f->params[c->addr & 63], c->data, 4);
		break;
	case WGGPU_IMEM:
	case WGGPU_LANE_EN:
		break;
	case WGGPU_LAUNCH: {
		struct fsm *m = &f->sm[c->sm];

		if (c->at < f->cycle)
			f->late++;
		assert_true(m->lq_n < 64);
		m->lq_at[m->lq_n] = c->at;
		m->lq_lin[m->lq_n++] = c->addr;
		break;
	}
	case WGGPU_MRSP: {
		struct fsm *m = &f->sm[c->sm];
		uint32_t off = (f->in_addr & 127);

		if (c->at < f->cycle)
			f->late++;
		if (c->tag < SLOTS) {
			uint32_t lin = m->cta[c->tag].linear;

			off = (f->in_addr + 4 * lin) & 127;
			memcpy(&m->rsp_word[c->tag], c->data + off, 4);
			m->rsp_at[c->tag] = c->at ? c->at : 1;
		}
		break;
	}
	case WGGPU_GRANT:
		if (c->at < f->grant)
			f->error++;
		f->grant = c->at;
		f->reached_pending = 1;
		break;
	case WGGPU_CNT_READ:
		memset(&e, 0, sizeof(e));
		e.kind = WGGPU_EV_COUNTERS;
		e.sm = c->sm;
		e.cycle = f->cycle;
		if (c->addr < 0x1000) { /* power-gating pages (0x1000 on): a window of 0 cycles */
			e.cnt[0] = (uint32_t)f->cycle;
			e.cnt[4] = 10 * f->sm[c->sm].done_ctas; /* warp instructions */
			e.cnt[6] = 320 * f->sm[c->sm].done_ctas;
		} else if (f->pg && c->addr < 0x2000) { /* 26 counters from address addr - 0x1000 */
			for (uint32_t i = 0; i < 26; i++) {
				uint64_t v = pg_counter(f, c->addr - 0x1000 + i);

				e.cnt[2 * i] = (uint32_t)v;
				e.cnt[2 * i + 1] = (uint32_t)(v >> 32);
			}
		} else if (f->pg) { /* 52 bins from histogram address addr - 0x2000 */
			uint32_t h = c->addr - 0x2000;

			for (uint32_t i = 0; i < 52; i++)
				e.cnt[i] = h + i < 2 * 1024 ? pg_bin(h + i) : 0;
			f->hist_pages[h / 1024 < 2 ? h / 1024 : 1]++;
		}
		emit(f, &e);
		break;
	default:
		return WG_EINVAL;
	}
	return 0;
}

static int fake_run(void *ctx, uint64_t n)
{
	struct fake *f = ctx;

	f->link += n;
	while (f->cycle < f->grant)
		fake_step(f);
	if (f->reached_pending) {
		struct wggpu_ev e;

		memset(&e, 0, sizeof(e));
		e.kind = WGGPU_EV_REACHED;
		e.cycle = f->cycle;
		e.busy = (uint64_t)fake_busy(f);
		emit(f, &e);
		f->reached_pending = 0;
	}
	return 0;
}

static int fake_pop(void *ctx, struct wggpu_ev *e)
{
	struct fake *f = ctx;

	if (f->evhead == f->nev) {
		f->evhead = f->nev = 0;
		return 0;
	}
	*e = f->ev[f->evhead++];
	return 1;
}

static uint64_t fake_link(void *ctx)
{
	return ((struct fake *)ctx)->link;
}

static const struct wg_gpu_port_ops fake_ops = {
	.name = "fake GPU",
	.push = fake_push,
	.run = fake_run,
	.pop = fake_pop,
	.link_cycles = fake_link,
};

/* ------------------------------------------------------------------------ */

struct fx {
	struct fake f;
	struct wg_gmem *g;
	struct wg_config cfg;
	struct wg_gpu_host_opts o;
	struct wggpu_info info;
	struct wg_kernel k;
	uint64_t code[1];
	uint32_t in, out;
	struct wg_gpu_host_totals tot;
	struct wg_stats st;
	struct wg_err err;
};

static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));
	uint32_t *p;

	assert_non_null(x);
	assert_int_equal(wg_gmem_create(&x->g, 1u << 20), 0);
	assert_int_equal(wg_gmem_alloc(x->g, 4 * 64, &x->in), 0);
	assert_int_equal(wg_gmem_alloc(x->g, 4 * 64, &x->out), 0);
	p = (uint32_t *)wg_gmem_ptr(x->g, x->in, 4 * 64);
	for (int i = 0; i < 64; i++)
		p[i] = 1000 + 7 * (uint32_t)i;
	wg_config_default(&x->cfg);
	x->cfg.num_sms = NSM;
	x->cfg.max_ctas_per_sm = SLOTS;
	wg_gpu_host_opts_default(&x->o);
	x->o.mem_fixed = 1;
	x->o.mem_latency = 50;
	x->info.num_sms = NSM;
	x->info.num_warps = 48;
	x->info.num_regs = 32768;
	x->info.num_ctas = SLOTS;
	x->info.imem_depth = 4096;
	x->info.cmem_bytes = 4096;
	x->info.mem_tag_bits = 4;
	strcpy(x->k.name, "fake");
	x->k.regs = 8;
	x->k.ninsns = 1;
	x->k.code = x->code;
	x->k.param_bytes = 0;
	x->f.in_addr = x->in;
	x->f.out_addr = x->out;
	x->f.fault_at_cta = -1;
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fx *x = *state;

	wg_gpu_host_totals_free(&x->tot);
	wg_gmem_destroy(x->g);
	free(x);
	return 0;
}

static int run(struct fx *x, uint32_t ctas)
{
	struct wg_gpu_host_env env = {
		.ops = &fake_ops, .ctx = &x->f, .info = &x->info, .gmem = x->g, .cfg = &x->cfg, .opts = &x->o,
	};
	struct wg_launch l = {
		.kernel = &x->k,
		.grid = { ctas, 1, 1 },
		.block = { 32, 1, 1 },
		.threads_per_cta = 32,
		.warps_per_cta = 1,
		.ctas = ctas,
	};

	wg_stats_clear(&x->st);
	memset(&x->err, 0, sizeof(x->err));
	return wg_gpu_host_launch(&env, &l, &x->st, &x->tot, &x->err);
}

/*
 * A launch of 3 CTAs on a build with 2 x 4 lanes whose SMs serve the fake's power-gating
 * window (pg_counter, pg_bin) with lost1 intervals lost in unit 1. Checks what does not depend
 * on the losses: the window's bins and long intervals, summed over the 3 SMs, and unit 0's
 * pages: its 4 x 566 idle lane-cycles are all in bins (nothing over 1024); pages of 52 bins,
 * 4 at a time: bins 1..208 hold the 8 intervals of 3 (24 cycles), 209..416 nothing, 417..624
 * the 4 x 60 + 4 x 500 = 2240 that complete 2264: 12 of its 20 pages per SM.
 */
static const struct wg_pg_counts *pg_run(struct fx *x, int lost1)
{
	const struct wg_pg_counts *t;

	x->info.simd_width = 4;
	x->info.num_simd = 2;
	x->cfg.simd_width = 4;
	x->cfg.simd_units = 2;
	x->f.pg = 1;
	x->f.pg_lost1 = lost1;
	assert_int_equal(run(x, 3), 0);
	t = x->tot.pg_total;
	assert_non_null(t);
	assert_int_equal(t->hist[3], 3 * 8);
	assert_int_equal(t->hist[60], 3 * 4);
	assert_int_equal(t->hist[500], 3 * 4);
	assert_int_equal(t->hist[7], 3 * 4);
	assert_int_equal(t->over_count, 3 * 4);
	assert_int_equal(t->over_sum, 3 * 6000);
	assert_int_equal(x->f.hist_pages[0], 3 * 12);
	return t;
}

static void histogram_pages_are_read_until_the_idle_cycles_are_accounted_for(void **state)
{
	struct fx *x = *state;

	/* unit 1: 4 x 1507 idle lane-cycles - 6000 over 1024 = 28 = 4 x 7, in its first 4 pages */
	assert_int_equal(pg_run(x, 0)->hist_lost, 0);
	assert_int_equal(x->f.hist_pages[1], 3 * 4);
}

static void a_unit_with_lost_intervals_has_every_page_read(void **state)
{
	struct fx *x = *state;

	/* lost intervals: the bins cannot be expected to add up, all 20 pages of unit 1 are read */
	assert_int_equal(pg_run(x, 1)->hist_lost, 3);
	assert_int_equal(x->f.hist_pages[1], 3 * 20);
}

static void one_cta_takes_the_hand_worked_cycles(void **state)
{
	struct fx *x = *state;
	uint32_t v;

	/*
	 * launch at 0, read at 3, response at 3 + 50 = 53, write at 55, DONE at 58:
	 * the kernel's cycles are the last completion + 1 = 59
	 */
	assert_int_equal(run(x, 1), 0);
	assert_int_equal(x->st.cycles, 59);
	assert_int_equal(x->st.ctas, 1);
	assert_int_equal(x->st.warp_insts, 10);
	memcpy(&v, wg_gmem_ptr(x->g, x->out, 4), 4);
	assert_int_equal(v, 1001);
	assert_int_equal(x->f.late, 0);
	assert_int_equal(x->tot.mem_reqs, 2);
}

static void every_cta_runs_once_and_round_robin_fills_the_sms(void **state)
{
	struct fx *x = *state;
	const uint32_t *out;

	/*
	 * 10 CTAs, 3 SMs x 2 slots: the first wave is CTAs 0..5 (rr: SM s gets s and s + 3;
	 * the fake starts one CTA per SM and cycle, so 0..2 start at 0 and finish at 58,
	 * 3..5 start at 1 and finish at 59). Each completion refills its SM 40 cycles
	 * (cta_dispatch_latency) later: CTAs 6..8 on SMs 0..2 at 98, CTA 9 on SM 0 at 99.
	 */
	assert_int_equal(run(x, 10), 0);
	out = (const uint32_t *)wg_gmem_ptr(x->g, x->out, 40);
	for (int i = 0; i < 10; i++)
		assert_int_equal(out[i], 1001 + 7 * (uint32_t)i);
	assert_int_equal(x->st.ctas, 10);
	assert_int_equal(x->tot.sm_ctas[0] + x->tot.sm_ctas[1] + x->tot.sm_ctas[2], 10);
	assert_int_equal(x->tot.sm_ctas[0], 4); /* CTAs 0, 3, then the first refills (6, 9) */
	assert_int_equal(x->tot.sm_ctas[1], 3);
	assert_int_equal(x->tot.sm_ctas[2], 3);
	/* CTA 9: started at 99, read at 102, answered at 152, done at 157 */
	assert_int_equal(x->st.cycles, 158);
	assert_int_equal(x->f.late, 0);
}

static void grant_size_does_not_change_target_time(void **state)
{
	struct fx *x = *state;
	uint64_t cycles[4];
	const uint32_t windows[4] = { 0, 1, 7, 33 };

	for (int w = 0; w < 4; w++) {
		x->o.grant_window = windows[w];
		memset(wg_gmem_ptr(x->g, x->out, 4 * 64), 0, 4 * 64);
		assert_int_equal(run(x, 13), 0);
		cycles[w] = x->st.cycles;
		assert_int_equal(x->f.late, 0);
		assert_int_equal(((const uint32_t *)wg_gmem_ptr(x->g, x->out, 4 * 13))[12], 1001 + 7 * 12);
	}
	assert_int_equal(cycles[1], cycles[0]);
	assert_int_equal(cycles[2], cycles[0]);
	assert_int_equal(cycles[3], cycles[0]);
}

static void memory_models_give_the_same_results_under_any_grant_size(void **state)
{
	struct fx *x = *state;
	uint64_t c0 = 0;

	/* the memory system (interconnect, L2, GDDR5) instead of the fixed latency */
	x->o.mem_fixed = 0;
	for (int w = 0; w < 3; w++) {
		x->o.grant_window = w == 0 ? 0 : w == 1 ? 1 : 5;
		assert_int_equal(run(x, 9), 0);
		assert_int_equal(x->f.late, 0);
		if (w == 0)
			c0 = x->st.cycles;
		assert_int_equal(x->st.cycles, c0);
	}
	/* an isolated read costs at least the memory system's lookahead plus the port pipeline */
	assert_true(c0 > 3 + 138 + 32);
	assert_int_equal(((const uint32_t *)wg_gmem_ptr(x->g, x->out, 4 * 9))[8], 1001 + 7 * 8);
	assert_true(x->tot.mem_models);
	assert_true(x->tot.mem.l2_read_transactions >= 9);
}

static void a_fault_names_the_sm_and_cta(void **state)
{
	struct fx *x = *state;

	x->f.fault_at_cta = 4; /* rr: CTA 4 starts on SM 1 at cycle 0 */
	assert_int_equal(run(x, 6), WG_EFAULT);
	assert_non_null(strstr(x->err.msg, "kernel 'fake': SM 1 CTA (4,0,0) warp slot 5 pc 7"));
	assert_non_null(strstr(x->err.msg, "misaligned address lane 3 at 0x00001234"));
}

static void a_cta_that_fits_nowhere_is_refused(void **state)
{
	struct fx *x = *state;

	x->k.regs = 63;
	x->cfg.regs_per_sm = 1024; /* 32 x 63 rows > 512 per register file */
	assert_int_equal(run(x, 1), WG_ELAUNCH);
	assert_non_null(strstr(x->err.msg, "kernel 'fake': launch does not fit"));
}

static void congestion_policy_samples_without_late_commands(void **state)
{
	struct fx *x = *state;
	uint64_t c0 = 0;

	/* the decision waits for a sample point; launches must still never be late */
	strcpy(x->cfg.cta_policy, "congestion");
	for (int w = 0; w < 2; w++) {
		x->o.grant_window = w ? 3 : 0;
		assert_int_equal(run(x, 20), 0);
		assert_int_equal(x->f.late, 0);
		assert_int_equal(x->st.ctas, 20);
		if (!w)
			c0 = x->st.cycles;
		assert_int_equal(x->st.cycles, c0);
	}
	assert_int_not_equal(x->tot.decision.reason, WG_DECIDE_NONE);
}

static void options_are_checked(void **state)
{
	struct fx *x = *state;

	assert_int_equal(wg_gpu_host_option(&x->o, "sched", "gto", &x->err), 0);
	assert_int_equal(x->o.sched, 1);
	assert_int_equal(wg_gpu_host_option(&x->o, "link_idle", "300,100", &x->err), 0);
	assert_int_equal(x->o.cmd_idle, 300);
	assert_int_equal(x->o.ev_idle, 100);
	assert_int_equal(wg_gpu_host_option(&x->o, "link_idle", "300", &x->err), WG_EINVAL);
	assert_non_null(strstr(x->err.msg, "link_idle"));
	assert_int_equal(wg_gpu_host_option(&x->o, "mem_latency", "0", &x->err), WG_EINVAL);
	assert_int_equal(wg_gpu_host_option(&x->o, "frobnicate", "1", &x->err), WG_ENOTSUP);
	assert_non_null(strstr(x->err.msg, "grant_window"));
}

static void a_build_short_of_the_configuration_is_named(void **state)
{
	struct wg_config c;
	struct wggpu_info in = {
		.num_sms = 15, .num_warps = 48, .simd_width = 16, .num_simd = 2, .num_regs = 32768, .num_ctas = 8,
		.dmem_bytes = 65536,
	};
	char why[200];

	(void)state;
	wg_config_default(&c); /* the GTX480: exactly the default build */
	assert_int_equal(wg_gpu_host_check_build(&c, &in, why, sizeof(why)), 0);
	c.num_sms = 4; /* fewer SMs than the build: fine */
	c.regs_per_sm = 16384;
	assert_int_equal(wg_gpu_host_check_build(&c, &in, why, sizeof(why)), 0);
	c.max_ctas_per_sm = 9;
	assert_int_equal(wg_gpu_host_check_build(&c, &in, why, sizeof(why)), WG_ECONFIG);
	assert_string_equal(why, "the configuration's max_ctas_per_sm = 9 exceeds the GPU build's 8 CTA slots per SM "
	                         "(NUM_CTAS)");
	c.max_ctas_per_sm = 8;
	c.shmem_l1_bytes = 128 * 1024;
	assert_int_equal(wg_gpu_host_check_build(&c, &in, why, sizeof(why)), WG_ECONFIG);
	assert_non_null(strstr(why, "shmem_l1_bytes = 131072 exceeds the GPU build's 65536"));
	in.dmem_bytes = 0; /* not announced: not checked */
	assert_int_equal(wg_gpu_host_check_build(&c, &in, why, sizeof(why)), 0);
	c.simd_units = 1; /* 16 lanes configured, 32 built */
	assert_int_equal(wg_gpu_host_check_build(&c, &in, why, sizeof(why)), WG_ECONFIG);
	assert_non_null(strstr(why, "simd_width = 16, simd_units = 1 differ from the GPU build's 16 x 2 lanes"));
	c.simd_units = 2;
	c.num_sms = 16;
	assert_int_equal(wg_gpu_host_check_build(&c, &in, why, sizeof(why)), WG_ECONFIG);
	assert_non_null(strstr(why, "n_sm = 16 exceeds the GPU build's 15 SMs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_build_short_of_the_configuration_is_named),
		cmocka_unit_test_setup_teardown(one_cta_takes_the_hand_worked_cycles, setup, teardown),
		cmocka_unit_test_setup_teardown(every_cta_runs_once_and_round_robin_fills_the_sms, setup, teardown),
		cmocka_unit_test_setup_teardown(grant_size_does_not_change_target_time, setup, teardown),
		cmocka_unit_test_setup_teardown(memory_models_give_the_same_results_under_any_grant_size, setup, teardown),
		cmocka_unit_test_setup_teardown(a_fault_names_the_sm_and_cta, setup, teardown),
		cmocka_unit_test_setup_teardown(a_cta_that_fits_nowhere_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(congestion_policy_samples_without_late_commands, setup, teardown),
		cmocka_unit_test_setup_teardown(options_are_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(histogram_pages_are_read_until_the_idle_cycles_are_accounted_for, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(a_unit_with_lost_intervals_has_every_page_read, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
