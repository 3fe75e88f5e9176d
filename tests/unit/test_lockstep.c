/*
 * cmocka tests of lockstep co-simulation (host/src/lockstep.c) and the
 * golden model's stepping API: the self-check (a second golden model
 * stepping warps of several CTAs in random order) passes on random kernels
 * and racing atomics, and every kind of difference injected into the
 * device-under-test's records is caught with cycle, CTA, warp, pc and lane.
 * The memory pipeline's requests: coalesced stores (the highest lane's bytes
 * win, every lane counts as seen, the oldest instruction of a pc first),
 * local stores kept in the L1 (never expected on the port) and L1
 * write-backs (never matched).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "func_fixture.h"
#include "lockstep.h"
#include "memrules.h"
#include "rkgen.h"

struct ls_fx {
	struct fx *f;
	struct wg_func *dut;
	struct wg_image img;
	uint64_t addr[WG_RK_MAXBUF];
	uint8_t params[64];
	struct wg_launch l;
};

/* Set up rkgen kernel seed in the fixture's memory. */
static const struct wg_kernel *rk_setup(struct fx *f, struct wg_rk *rk, uint64_t seed, uint8_t *params,
                                        struct wg_launch *l)
{
	const struct wg_kernel *k;
	uint64_t addr[WG_RK_MAXBUF];

	assert_int_equal(wg_rkgen(rk, seed), 0);
	k = fx_asm(f, rk->src);
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		addr[i] = fx_alloc(f, rk->bufs[i].bytes);
		wg_rk_fill(&rk->bufs[i], fx_ptr(f, (uint32_t)addr[i], rk->bufs[i].bytes));
	}
	wg_rk_params(rk, addr, params);
	memset(l, 0, sizeof(*l));
	l->kernel = k;
	l->grid = rk->grid;
	l->block = rk->block;
	l->params = params;
	l->dyn_shared = rk->dyn_shared;
	l->threads_per_cta = rk->block.x * rk->block.y * rk->block.z;
	l->warps_per_cta = (l->threads_per_cta + 31) / 32;
	l->ctas = (uint64_t)rk->grid.x * rk->grid.y * rk->grid.z;
	return k;
}

static int selfcheck(struct fx *f, const struct wg_launch *l, const struct wg_selfcheck_opts *o)
{
	struct wg_func *dut;
	struct wg_stats st = { 0 };
	int rc;

	assert_int_equal(wg_func_create(&dut, f->gmem, &f->cfg), 0);
	memset(&f->err, 0, sizeof(f->err));
	rc = wg_lockstep_selfcheck(dut, f->func, l, o, &st, NULL, &f->err);
	wg_func_destroy(dut);
	return rc;
}

static void selfcheck_passes_on_random_kernels(void **state)
{
	struct fx *f = *state;

	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct wg_rk rk;
		struct wg_launch l;
		uint8_t params[64];
		struct wg_selfcheck_opts o = { .seed = seed, .resident_ctas = 1 + seed % 5, .max_delay = 1 + seed % 20,
		                               .per_lane = seed % 4 == 0 };
		int rc;

		rk_setup(f, &rk, seed, params, &l);
		rc = selfcheck(f, &l, &o);
		if (rc)
			print_error("seed %llu: %s\n", (unsigned long long)seed, f->err.msg);
		assert_int_equal(rc, 0);
		wg_rk_free(&rk);
	}
}

/* Racing global atomics whose returned values steer control flow and reach memory (as BFS does). */
static const char race_src[] =
	".kernel race\n"
	".regs 8\n"
	".param ptr ctr\n"
	".param ptr out\n"
	"    S2R R0, SR_TID.X\n"
	"    S2R R1, SR_CTAID.X\n"
	"    S2R R2, SR_NTID.X\n"
	"    IMAD R1, R1, R2, R0\n"
	"    LDC.32 R3, [ctr]\n"
	"    ATOMG.ADD R4, [R3], 1\n"           /* queue position: timing dependent */
	"    IADD R5, R3, 4\n"
	"    ATOMG.CAS R6, [R5], 0, R1\n"       /* first claimer wins */
	"    ISETP.EQ P0, R6, 0\n"
	"@P0 IADD R4, R4, 1000\n"
	"    LDC.32 R7, [out]\n"
	"    SHL R2, R4, 2\n"
	"    AND R2, R2, 0xffc\n"
	"    IADD R7, R7, R2\n"
	"    STG.32 [R7], R1\n"
	"    EXIT\n";

static void racing_atomics_are_adopted(void **state)
{
	struct fx *f = *state;
	struct { uint64_t ctr, out; } p = { fx_alloc(f, 8), fx_alloc(f, 4096) };
	struct wg_launch l = { 0 };
	struct wg_selfcheck_opts o = { .seed = 3, .resident_ctas = 3 };

	l.kernel = fx_asm(f, race_src);
	l.grid = fx_dim(4, 1, 1);
	l.block = fx_dim(64, 1, 1);
	l.params = (const uint8_t *)&p;
	for (uint64_t s = 1; s <= 5; s++) {
		o.seed = s;
		memset(fx_ptr(f, (uint32_t)p.ctr, 8), 0, 8);
		if (selfcheck(f, &l, &o))
			print_error("%s\n", f->err.msg);
		assert_int_equal(f->err.msg[0], '\0');
	}
}

/* Mutations of the device under test's records. */
struct mut {
	int kind;
	uint64_t hits;
};

enum { M_VALUE, M_EXEC, M_STORE_DATA, M_DROP_STORE, M_PC, M_PRED, M_EXTRA_STORE };

/* A global store (local stores stay in the device's L1 and are not compared on the port). */
static int global_store(const struct wg_func_ls_mem *m)
{
	return m->cmd == 1 && !m->local;
}

static void mutate(void *ctx, struct wg_func_ls_rec *r, uint64_t index)
{
	struct mut *m = ctx;

	if (m->hits || index < 200)
		return;
	switch (m->kind) {
	case M_VALUE:
		if (r->dst == WG_RD_REG && r->exec && !r->skip && r->cls == WG_CLASS_INT) {
			r->vals[__builtin_ctz(r->exec)][0] ^= 0x10;
			m->hits++;
		}
		break;
	case M_EXEC:
		if (r->exec && r->exec == r->active && r->cls == WG_CLASS_INT) {
			r->exec &= r->exec - 1;
			m->hits++;
		}
		break;
	case M_STORE_DATA:
		if (r->nmem && global_store(&r->mem[0])) {
			r->mem[0].data[0] ^= 1;
			m->hits++;
		}
		break;
	case M_DROP_STORE:
		if (r->nmem && global_store(&r->mem[r->nmem - 1])) {
			r->nmem--;
			m->hits++;
		}
		break;
	case M_PC:
		r->pc++;
		m->hits++;
		break;
	case M_PRED:
		if (r->dst == WG_RD_PRED && r->exec) {
			r->pred ^= r->exec & -r->exec;
			m->hits++;
		}
		break;
	case M_EXTRA_STORE:
		if (r->nmem && global_store(&r->mem[0]) && r->nmem < WG_FUNC_LS_MAXMEM) {
			r->mem[r->nmem] = r->mem[0];
			r->mem[r->nmem].addr += 0x40000;
			r->nmem++;
			m->hits++;
		}
		break;
	}
}

static void check_mutation_opts(struct fx *f, int kind, const char *needle, int per_lane)
{
	struct wg_rk rk;
	struct wg_launch l;
	uint8_t params[64];
	struct mut m = { kind, 0 };
	struct wg_selfcheck_opts o = { .seed = 11, .resident_ctas = 2, .mutate = mutate, .ctx = &m,
	                               .per_lane = per_lane };
	int rc;

	rk_setup(f, &rk, 5, params, &l);
	rc = selfcheck(f, &l, &o);
	assert_int_equal(m.hits, 1);
	if (rc != WG_ELOCKSTEP || !strstr(f->err.msg, needle))
		print_error("mutation %d: rc %d, message: %s (expected \"%s\")\n", kind, rc, f->err.msg, needle);
	assert_int_equal(rc, WG_ELOCKSTEP);
	assert_non_null(strstr(f->err.msg, "lockstep: cycle "));
	assert_non_null(strstr(f->err.msg, "kernel 'rk5': CTA ("));
	assert_non_null(strstr(f->err.msg, needle));
	wg_rk_free(&rk);
}

/* Coalesced stores, then the same with one request per lane. */
static void check_mutation(struct fx *f, int kind, const char *needle)
{
	check_mutation_opts(f, kind, needle, 0);
	check_mutation_opts(f, kind, needle, 1);
}

static void value_difference_is_caught(void **state)
{
	check_mutation(*state, M_VALUE, "differs: expected");
}

static void exec_mask_difference_is_caught(void **state)
{
	check_mutation(*state, M_EXEC, "execution mask differs");
}

static void store_data_difference_is_caught(void **state)
{
	check_mutation(*state, M_STORE_DATA, "store data differs");
}

static void missing_store_is_caught(void **state)
{
	check_mutation(*state, M_DROP_STORE, "never reached the memory port");
}

static void pc_difference_is_caught(void **state)
{
	check_mutation(*state, M_PC, "pc differs");
}

static void predicate_difference_is_caught(void **state)
{
	check_mutation(*state, M_PRED, "differs: expected");
}

static void unexpected_store_is_caught(void **state)
{
	check_mutation(*state, M_EXTRA_STORE, "unexpected write");
}

static void compare_reports_the_first_difference(void **state)
{
	struct wg_func_ls_rec *a = calloc(2, sizeof(*a)), *b = a + 1;
	char why[256];

	(void)state;
	a->pc = b->pc = 5;
	a->active = b->active = a->exec = b->exec = 0x6;
	a->dst = b->dst = WG_RD_REG;
	a->reg = b->reg = 3;
	a->nregs = b->nregs = 2;
	assert_int_equal(wg_lockstep_compare(a, b, why, sizeof(why)), 0);
	b->vals[0][1] = 9; /* lane 0 is not in exec */
	assert_int_equal(wg_lockstep_compare(a, b, why, sizeof(why)), 0);
	b->vals[2][1] = 9;
	assert_int_equal(wg_lockstep_compare(a, b, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "lane 2: R4 differs: expected 00000000, actual 00000009"));
	b->skip = 1; /* SR_CLOCK */
	assert_int_equal(wg_lockstep_compare(a, b, why, sizeof(why)), 0);
	b->nregs = 4;
	assert_int_equal(wg_lockstep_compare(a, b, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "destination differs: expected R3x2, actual R3x4"));
	free(a);
}

/*
 * The device may retire a released warp's instruction before the last
 * arrival's BAR.SYNC: lockstep keeps it until the golden model releases the
 * barrier.
 */
static const char bar_src[] =
	".kernel bar\n"
	".regs 4\n"
	".shared 256\n"
	".param ptr out\n"
	"    S2R R0, SR_TID.X\n"
	"    SHL R1, R0, 2\n"
	"    STS.32 [R1], R0\n"
	"    BAR.SYNC 0\n"
	"    XOR R1, R1, 4\n"
	"    LDS.32 R2, [R1]\n"
	"    LDC.32 R3, [out]\n"
	"    SHL R1, R0, 2\n"
	"    IADD R3, R3, R1\n"
	"    STG.32 [R3], R2\n"
	"    EXIT\n";

static void early_retire_after_barrier_is_kept(void **state)
{
	struct fx *f = *state;
	struct { uint64_t out; } p = { fx_alloc(f, 256) };
	struct wg_launch l = { 0 };
	struct wg_func *dut;
	struct wg_func_ls *d;
	struct wg_lockstep *ls;
	struct wg_func_ls_rec *r = calloc(1, sizeof(*r)), *held = calloc(1, sizeof(*held));
	struct wg_err err = { { 0 } };
	uint64_t cyc = 0;

	l.kernel = fx_asm(f, bar_src);
	l.grid = fx_dim(1, 1, 1);
	l.block = fx_dim(64, 1, 1);
	l.params = (const uint8_t *)&p;
	assert_int_equal(wg_func_create(&dut, f->gmem, &f->cfg), 0);
	assert_int_equal(wg_func_ls_begin(dut, &l, WG_FUNC_LS_EXEC, 0x80000000u, &d, &err), 0);
	assert_int_equal(wg_func_ls_cta_begin(d, 0, &err), 0);
	assert_int_equal(wg_lockstep_begin(&ls, f->func, &l, 0x80000000u, &err), 0);
	/* warp 0 up to and including its BAR.SYNC: checked at once */
	for (int i = 0; i < 4; i++) {
		assert_int_equal(wg_func_ls_step(d, 0, 0, NULL, r, &err), 0);
		assert_int_equal(wg_lockstep_retire(ls, 0, ++cyc, r, &err), 0);
	}
	/* warp 1 arrives; the device reports warp 0's next instruction before warp 1's BAR.SYNC */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(wg_func_ls_step(d, 0, 1, NULL, r, &err), 0);
		assert_int_equal(wg_lockstep_retire(ls, 1, ++cyc, r, &err), 0);
	}
	assert_int_equal(wg_func_ls_step(d, 0, 1, NULL, held, &err), 0); /* warp 1's BAR.SYNC */
	assert_int_equal(wg_func_ls_step(d, 0, 0, NULL, r, &err), 0);    /* warp 0's XOR */
	assert_int_equal(wg_lockstep_retire(ls, 0, ++cyc, r, &err), 0);  /* kept */
	assert_int_equal(wg_lockstep_retire(ls, 1, ++cyc, held, &err), 0);
	/* the rest in order, stores as requests after their retirement */
	for (uint32_t w = 0; w < 2; w++) {
		while (wg_func_ls_warp(d, 0, w, NULL) == WG_FUNC_WARP_RUN) {
			assert_int_equal(wg_func_ls_step(d, 0, w, NULL, r, &err), 0);
			if (wg_lockstep_retire(ls, w, ++cyc, r, &err))
				print_error("%s\n", err.msg);
			assert_int_equal(err.msg[0], '\0');
			for (uint32_t i = 0; i < r->nmem; i++) {
				struct wg_ls_req q = { 0 };

				q.cycle = cyc;
				q.slot = w;
				q.pc = r->pc;
				q.lane = r->mem[i].lane;
				q.cmd = 1;
				q.size = 2;
				q.addr = r->mem[i].addr;
				memset(q.wmask + (q.addr & 127), 1, 4);
				memcpy(q.wdata + (q.addr & 127), r->mem[i].data, 4);
				assert_int_equal(wg_lockstep_mreq(ls, &q, &err), 0);
			}
		}
	}
	assert_int_equal(wg_lockstep_checked(ls), 2 * 11);
	assert_int_equal(wg_lockstep_cta_done(ls, 0, ++cyc, &err), 0);
	assert_int_equal(wg_lockstep_end(ls, cyc, &err), 0);
	wg_lockstep_destroy(ls, NULL);
	wg_func_ls_end(d, NULL);
	wg_func_destroy(dut);
	free(r);
	free(held);
}

static void end_reports_unfinished_warps(void **state)
{
	struct fx *f = *state;
	struct { uint64_t out; } p = { fx_alloc(f, 256) };
	struct wg_launch l = { 0 };
	struct wg_func *dut;
	struct wg_func_ls *d;
	struct wg_lockstep *ls;
	struct wg_func_ls_rec *r = calloc(1, sizeof(*r));
	struct wg_err err = { { 0 } };

	l.kernel = fx_asm(f, bar_src);
	l.grid = fx_dim(1, 1, 1);
	l.block = fx_dim(32, 1, 1);
	l.params = (const uint8_t *)&p;
	assert_int_equal(wg_func_create(&dut, f->gmem, &f->cfg), 0);
	assert_int_equal(wg_func_ls_begin(dut, &l, WG_FUNC_LS_EXEC, 0x80000000u, &d, &err), 0);
	assert_int_equal(wg_func_ls_cta_begin(d, 0, &err), 0);
	assert_int_equal(wg_lockstep_begin(&ls, f->func, &l, 0x80000000u, &err), 0);
	assert_int_equal(wg_func_ls_step(d, 0, 0, NULL, r, &err), 0);
	assert_int_equal(wg_lockstep_retire(ls, 0, 1, r, &err), 0);
	assert_int_equal(wg_lockstep_cta_done(ls, 0, 2, &err), 0);
	assert_int_equal(wg_lockstep_end(ls, 3, &err), WG_ELOCKSTEP);
	assert_non_null(strstr(err.msg, "CTA (0,0,0) warp 0 pc 1: the golden model's warp has not finished"));
	wg_lockstep_destroy(ls, NULL);
	wg_func_ls_end(d, NULL);
	wg_func_destroy(dut);
	free(r);
}

/* ------------------------------------------------------------------------ */
/* The memory pipeline's requests, driven by hand                            */

enum {
	SEND_HIGHEST,      /* coalesced stores, the highest lane's bytes where lanes overlap */
	SEND_LOWEST,       /* coalesced stores, the lowest lane's bytes (wrong) */
	SEND_LOCAL_PLAIN,  /* also every local store word as an ordinary write (wrong: they stay in L1) */
	SEND_WB,           /* also an L1 write-back of every local store's line, garbage data */
	SEND_WB_AS_WRITE,  /* the same without the wb flag (wrong) */
	SEND_WB_READ,      /* a write-back that is not a write (wrong) */
};

struct drv {
	int mode;
	int hold;          /* send a warp's requests after its last instruction */
	int reverse;       /* ... in reverse order */
	struct wg_ls_req *q;
	size_t n, cap;
};

static struct wg_ls_req *drv_new(struct drv *d, uint64_t cyc, uint32_t slot, uint32_t pc)
{
	struct wg_ls_req *q;

	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 64;
		d->q = realloc(d->q, d->cap * sizeof(*d->q));
		assert_non_null(d->q);
	}
	q = &d->q[d->n++];
	memset(q, 0, sizeof(*q));
	q->cycle = cyc;
	q->slot = slot;
	q->pc = pc;
	q->cmd = 1;
	return q;
}

/* The requests of record r of warp slot `slot` as the test's device sends them. */
static void drv_requests(struct drv *d, const struct wg_func_ls_rec *r, uint32_t slot, uint64_t cyc)
{
	uint32_t mask = 0, addr[32] = { 0 };
	uint8_t idx[32] = { 0 };
	struct wg_coal_tx tx[32];
	unsigned ntx, lg = 2;

	for (uint32_t i = 0; i < r->nmem; i++) {
		const struct wg_func_ls_mem *m = &r->mem[i];
		struct wg_ls_req *q;

		if (m->cmd != 1)
			continue;
		if (!m->local) {
			mask |= 1u << m->lane;
			addr[m->lane] = m->addr;
			idx[m->lane] = (uint8_t)i;
			lg = (unsigned)__builtin_ctz(m->size);
			continue;
		}
		if (d->mode == SEND_LOCAL_PLAIN) {
			q = drv_new(d, cyc, slot, r->pc);
			q->lane = m->lane;
			q->local = 1;
			q->size = (uint8_t)__builtin_ctz(m->size);
			q->addr = m->addr;
			memset(q->wmask + (m->addr & 127), 1, m->size);
			memcpy(q->wdata + (m->addr & 127), m->data, m->size);
		} else if (d->mode >= SEND_WB) {
			q = drv_new(d, cyc, 0, 0);
			q->wb = d->mode != SEND_WB_AS_WRITE;
			q->cmd = d->mode == SEND_WB_READ ? 0 : 1;
			q->local = 1;
			q->size = 7;
			q->addr = m->addr & ~127u;
			memset(q->wmask, 1, sizeof(q->wmask));
			for (unsigned b = 0; b < 128; b++)
				q->wdata[b] = (uint8_t)(b * 37 + m->lane);
		}
	}
	ntx = wg_coalesce(WG_COAL_STORE, mask, addr, lg, tx);
	for (unsigned t = 0; t < ntx; t++) {
		struct wg_ls_req *q = drv_new(d, cyc, slot, r->pc);

		q->addr = tx[t].addr;
		q->size = tx[t].size;
		q->lane = (uint32_t)__builtin_ctz(tx[t].lanes);
		for (unsigned k = 0; k < 32; k++) {
			unsigned l = d->mode == SEND_LOWEST ? 31 - k : k;
			const struct wg_func_ls_mem *m = &r->mem[idx[l]];

			if (!(tx[t].lanes >> l & 1))
				continue;
			memset(q->wmask + (m->addr & 127), 1, m->size);
			memcpy(q->wdata + (m->addr & 127), m->data, m->size);
		}
	}
}

static int drv_send(struct wg_lockstep *ls, struct drv *d, struct wg_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < d->n && !rc; i++)
		rc = wg_lockstep_mreq(ls, &d->q[d->reverse ? d->n - 1 - i : i], err);
	d->n = 0;
	return rc;
}

/*
 * One CTA of l on a golden model as the device under test (EXEC), warp by
 * warp to completion, every record checked in lockstep, its stores sent as
 * d says. Returns the first error (message in err).
 */
static int drive(struct fx *f, const struct wg_launch *l, struct drv *d, struct wg_err *err)
{
	struct wg_func *dut;
	struct wg_func_ls *g;
	struct wg_lockstep *ls;
	struct wg_func_ls_rec *r = calloc(1, sizeof(*r));
	uint64_t cyc = 0;
	int rc = 0;

	assert_non_null(r);
	memset(err, 0, sizeof(*err));
	assert_int_equal(wg_func_create(&dut, f->gmem, &f->cfg), 0);
	assert_int_equal(wg_func_ls_begin(dut, l, WG_FUNC_LS_EXEC, 0x80000000u, &g, err), 0);
	assert_int_equal(wg_func_ls_cta_begin(g, 0, err), 0);
	assert_int_equal(wg_lockstep_begin(&ls, f->func, l, 0x80000000u, err), 0);
	for (uint32_t w = 0; w < wg_func_ls_warps(g) && !rc; w++) {
		while (!rc && wg_func_ls_warp(g, 0, w, NULL) == WG_FUNC_WARP_RUN) {
			assert_int_equal(wg_func_ls_step(g, 0, w, NULL, r, err), 0);
			rc = wg_lockstep_retire(ls, w, ++cyc, r, err);
			drv_requests(d, r, w, cyc);
			if (!rc && !d->hold)
				rc = drv_send(ls, d, err);
		}
		if (!rc)
			rc = drv_send(ls, d, err);
	}
	if (!rc)
		rc = wg_lockstep_cta_done(ls, 0, ++cyc, err);
	if (!rc)
		rc = wg_lockstep_end(ls, cyc, err);
	wg_lockstep_destroy(ls, NULL);
	wg_func_ls_end(g, NULL);
	wg_func_destroy(dut);
	free(r);
	free(d->q);
	d->q = NULL;
	d->n = d->cap = 0;
	return rc;
}

static void one_cta(struct wg_launch *l, const struct wg_kernel *k, uint32_t threads, const void *params)
{
	memset(l, 0, sizeof(*l));
	l->kernel = k;
	l->grid = fx_dim(1, 1, 1);
	l->block = fx_dim(threads, 1, 1);
	l->params = params;
	l->threads_per_cta = threads;
	l->warps_per_cta = (threads + 31) / 32;
	l->ctas = 1;
}

/* Lanes 2k and 2k+1 store to word k, twice from the same pc with other values. */
static const char overlap_src[] =
	".kernel ov\n"
	".regs 6\n"
	".param ptr out\n"
	"    S2R R0, SR_TID.X\n"
	"    SHR.U32 R1, R0, 1\n"
	"    SHL R1, R1, 2\n"
	"    LDC.32 R2, [out]\n"
	"    IADD R2, R2, R1\n"
	"    MOV R4, 2\n"
	"loop:\n"
	"    SHL R3, R0, 8\n"
	"    IADD R3, R3, R4\n"
	"    STG.32 [R2], R3\n"
	"    IADD R4, R4, -1\n"
	"    ISETP.NE P0, R4, 0\n"
	"@P0 BRA loop\n"
	"    EXIT\n";

static void coalesced_stores_take_the_highest_lane(void **state)
{
	struct fx *f = *state;
	struct { uint64_t out; } p = { fx_alloc(f, 256) };
	struct wg_launch l;
	struct wg_err err;
	struct drv d = { 0 };

	one_cta(&l, fx_asm(f, overlap_src), 64, &p);
	/* right away, or after the warp's last instruction (both iterations of the store pending) */
	d.mode = SEND_HIGHEST;
	if (drive(f, &l, &d, &err))
		print_error("%s\n", err.msg);
	assert_int_equal(err.msg[0], '\0');
	d.hold = 1;
	if (drive(f, &l, &d, &err))
		print_error("%s\n", err.msg);
	assert_int_equal(err.msg[0], '\0');
	/* a request carrying lane 0's bytes where lane 1 wrote too */
	d.hold = 0;
	d.mode = SEND_LOWEST;
	assert_int_equal(drive(f, &l, &d, &err), WG_ELOCKSTEP);
	assert_non_null(strstr(err.msg, "CTA (0,0,0) warp 0 pc 8 lane 1: global store data differs at"));
	assert_non_null(strstr(err.msg, "expected byte 01, actual 00"));
	/* the second iteration's request before the first's: matched against the oldest instruction */
	d.mode = SEND_HIGHEST;
	d.hold = 1;
	d.reverse = 1;
	assert_int_equal(drive(f, &l, &d, &err), WG_ELOCKSTEP);
	assert_non_null(strstr(err.msg, "global store data differs"));
	assert_non_null(strstr(err.msg, "expected byte 02, actual 01"));
}

/* Local stores and loads, then a global store of what was loaded. */
static const char local_src[] =
	".kernel loc\n"
	".regs 6\n"
	".local 8\n"
	".param ptr out\n"
	"    S2R R0, SR_TID.X\n"
	"    STL.32 [4], R0\n"
	"    IADD R1, R0, 7\n"
	"    STL.32 [0], R1\n"
	"    LDL.32 R2, [4]\n"
	"    LDL.32 R3, [0]\n"
	"    IADD R2, R2, R3\n"
	"    LDC.32 R4, [out]\n"
	"    SHL R5, R0, 2\n"
	"    IADD R4, R4, R5\n"
	"    STG.32 [R4], R2\n"
	"    EXIT\n";

static void local_stores_are_not_expected_on_the_port(void **state)
{
	struct fx *f = *state;
	struct { uint64_t out; } p = { fx_alloc(f, 256) };
	struct wg_launch l;
	struct wg_err err;
	struct drv d = { 0 };

	one_cta(&l, fx_asm(f, local_src), 40, &p);
	d.mode = SEND_HIGHEST; /* local stores never reach the port */
	if (drive(f, &l, &d, &err))
		print_error("%s\n", err.msg);
	assert_int_equal(err.msg[0], '\0');
	d.mode = SEND_LOCAL_PLAIN; /* a local store on the port, not as a write-back */
	assert_int_equal(drive(f, &l, &d, &err), WG_ELOCKSTEP);
	assert_non_null(strstr(err.msg, "unexpected write request at 0x800000"));
}

static void write_backs_are_not_matched(void **state)
{
	struct fx *f = *state;
	struct { uint64_t out; } p = { fx_alloc(f, 256) };
	struct wg_launch l;
	struct wg_err err;
	struct drv d = { 0 };

	one_cta(&l, fx_asm(f, local_src), 40, &p);
	d.mode = SEND_WB; /* whole lines of garbage, debug fields 0 */
	if (drive(f, &l, &d, &err))
		print_error("%s\n", err.msg);
	assert_int_equal(err.msg[0], '\0');
	d.hold = 1;
	if (drive(f, &l, &d, &err))
		print_error("%s\n", err.msg);
	assert_int_equal(err.msg[0], '\0');
	d.hold = 0;
	d.mode = SEND_WB_AS_WRITE;
	assert_int_equal(drive(f, &l, &d, &err), WG_ELOCKSTEP);
	/* STL [4] of thread 0 first: 0x80000000 + 4 x 40 threads, line 0x80000080 */
	if (!strstr(err.msg, "unexpected write request at 0x80000080 (128 bytes) from warp slot 0"))
		print_error("%s\n", err.msg);
	assert_non_null(strstr(err.msg, "unexpected write request at 0x80000080 (128 bytes) from warp slot 0"));
	d.mode = SEND_WB_READ;
	assert_int_equal(drive(f, &l, &d, &err), WG_ELOCKSTEP);
	assert_non_null(strstr(err.msg, "L1 write-back request at 0x80000080 is not a write"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(selfcheck_passes_on_random_kernels, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(racing_atomics_are_adopted, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(value_difference_is_caught, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(exec_mask_difference_is_caught, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(store_data_difference_is_caught, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(missing_store_is_caught, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(pc_difference_is_caught, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(predicate_difference_is_caught, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(unexpected_store_is_caught, fx_setup, fx_teardown),
		cmocka_unit_test(compare_reports_the_first_difference),
		cmocka_unit_test_setup_teardown(early_retire_after_barrier_is_kept, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(end_reports_unfinished_warps, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(coalesced_stores_take_the_highest_lane, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(local_stores_are_not_expected_on_the_port, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(write_backs_are_not_matched, fx_setup, fx_teardown),
	};

	return FX_RUN_BOTH("lockstep", tests);
}
