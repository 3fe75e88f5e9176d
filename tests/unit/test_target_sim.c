/*
 * cmocka tests of the sim target's plumbing (host/src/target_sim.c) on the
 * scripted wgsim stand-in (tests/sim_fake/): kernel set-up, CTA dispatch
 * order, the memory port (reads, byte-masked writes, atomics, latency),
 * error messages of bad accesses and SM faults, the watchdog, the retire
 * stream restored to program order, statistics and options, the L1 set-up
 * and flush (L1_CTRL, write-backs served before the launch ends) and the
 * memory-pipeline counters carried into the statistics. The stand-in
 * executes nothing, so lockstep is off here; lockstep itself is tested in
 * test_lockstep.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "func_fixture.h"
#include "target.h"

/* The stand-in is compiled into this test (the unit-test rule links one object and the library). */
#include "../sim_fake/wgsim_fake.c"

extern const struct wg_target_ops wg_target_sim;

struct tfx {
	struct fx *f;
	void *priv;
	struct wgsim *s; /* the stand-in of the current target instance */
	uint32_t buf;    /* a 256-byte buffer, bytes i = i */
	int scenario;
	uint64_t req_cycle;
	uint32_t l1_writes[8];   /* L1_CTRL values written, in order */
	unsigned nl1;
	int busy_at_flush;       /* wgsim_busy when the flush was written */
	uint32_t wb_addr;        /* where the scripted write-back goes */
};

static struct tfx *T;

static int setup(void **state)
{
	struct tfx *t = calloc(1, sizeof(*t));
	struct wg_err err = { { 0 } };

	fx_setup(state);
	t->f = *state;
	memset(&wgsim_fake, 0, sizeof(wgsim_fake));
	assert_int_equal(wg_target_sim.create(&t->priv, t->f->gmem, &t->f->cfg, &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "lockstep", "0", &err), 0);
	t->s = *(struct wgsim **)t->priv; /* first member of the target's state */
	t->buf = fx_alloc(t->f, 256);
	for (unsigned i = 0; i < 256; i++)
		((uint8_t *)fx_ptr(t->f, t->buf, 256))[i] = (uint8_t)i;
	T = t;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tfx *t = *state;
	void *f = t->f;

	wg_target_sim.destroy(t->priv);
	free(t);
	memset(&wgsim_fake, 0, sizeof(wgsim_fake));
	return fx_teardown(&f);
}

static int launch(struct tfx *t, const char *src, wg_dim3 grid, wg_dim3 block, const void *params,
                  struct wg_stats *st, struct wg_retire_log *log)
{
	struct wg_launch l = { 0 };

	l.kernel = fx_asm(t->f, src);
	l.grid = grid;
	l.block = block;
	l.params = params;
	l.threads_per_cta = block.x * block.y * block.z;
	l.warps_per_cta = (l.threads_per_cta + 31) / 32;
	l.ctas = (uint64_t)grid.x * grid.y * grid.z;
	memset(st, 0, sizeof(*st));
	memset(&t->f->err, 0, sizeof(t->f->err));
	return wg_target_sim.launch(t->priv, &l, st, log, &t->f->err);
}

static const char small_src[] =
	".kernel k\n"
	".regs 4\n"
	".local 16\n"
	".param u32 a\n"
	".param u32 b\n"
	"    S2R R0, SR_TID.X\n"
	"    LDC.32 R1, [a]\n"
	"    EXIT\n";

static void setup_registers_dispatch_and_statistics(void **state)
{
	struct tfx *t = *state;
	uint32_t params[2] = { 0x11223344, 0x55667788 };
	struct wg_stats st;
	uint64_t in_use = wg_gmem_in_use(t->f->gmem);

	assert_int_equal(launch(t, small_src, fx_dim(3, 2, 1), fx_dim(40, 1, 1), params, &st, NULL), 0);
	assert_int_equal(wgsim_fake_cfg(t->s, 0), 0);
	assert_int_equal(wgsim_fake_cfg(t->s, 1), 4);
	assert_int_equal(wgsim_fake_cfg(t->s, 3), 16);
	assert_true(wgsim_fake_cfg(t->s, 4) >= WG_GMEM_BASE);
	assert_int_equal(wgsim_fake_cfg(t->s, 5), 40);
	assert_int_equal(wgsim_fake_cfg(t->s, 8), 3);
	assert_int_equal(wgsim_fake_cfg(t->s, 9), 2);
	assert_int_equal(wgsim_fake_cfg(t->s, 11), 40);
	assert_int_equal(wgsim_fake_cfg(t->s, 12), 8);
	assert_int_equal(wgsim_fake_cfg(t->s, 14), 240);
	assert_memory_equal(wgsim_fake_cmem(t->s), params, 8);
	assert_memory_equal(wgsim_fake_imem(t->s), t->f->img.kernels[0].code, 3 * 8);
	assert_int_equal(wgsim_fake_nlaunched(t->s), 6);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(wgsim_fake_launched(t->s, i), i);
	assert_int_equal(st.ctas, 6);
	assert_int_equal(st.warps, 12);
	assert_int_equal(st.threads, 240);
	assert_true(st.cycles >= 15); /* two CTAs at a time, 5 cycles each */
	assert_int_equal(wg_gmem_in_use(t->f->gmem), in_use); /* the local region is freed */
}

static void launch_that_does_not_fit_is_refused(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;
	static const char big[] = ".kernel k\n.regs 63\n    EXIT\n";

	assert_int_equal(launch(t, big, fx_dim(1, 1, 1), fx_dim(1024, 1, 1), NULL, &st, NULL), WG_ELAUNCH);
	assert_non_null(strstr(t->f->err.msg, "kernel 'k': launch does not fit the SM"));
}

/* An SM built without the SFU (or FP32) decodes their instructions as illegal: refused at set-up. */
static void launch_needing_a_unit_the_sm_lacks_is_refused(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;
	struct wg_err err = { { 0 } };
	static const char sfu[] = ".kernel k\n.regs 4\n    MOV R1, 2\n    MUFU.RCP R2, R1\n    EXIT\n";
	static const char fp[] = ".kernel k\n.regs 4\n    MOV R1, 2\n    NOP\n    FADD R2, R1, R1\n    EXIT\n";

	/* A new model reads wgsim_info again: no SFU. */
	wgsim_fake.no_sfu = 1;
	assert_int_equal(wg_target_sim.set_option(t->priv, "trace_fst", "", &err), 0);
	assert_int_equal(launch(t, sfu, fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, &st, NULL), WG_ELAUNCH);
	assert_non_null(strstr(t->f->err.msg, "kernel 'k': launch does not fit the SM: pc 1 uses the SFU"));
	assert_int_equal(launch(t, fp, fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, &st, NULL), 0);
	/* No FP32 either. */
	wgsim_fake.no_fp = 1;
	assert_int_equal(wg_target_sim.set_option(t->priv, "trace_fst", "", &err), 0);
	assert_int_equal(launch(t, fp, fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, &st, NULL), WG_ELAUNCH);
	assert_non_null(strstr(t->f->err.msg, "pc 2 uses FP32, the SM is built without it (HAS_FP 0)"));
}

/* Scenarios driven from the stand-in's hooks. */
enum { SC_MEM, SC_BAD_ADDR, SC_FAULT, SC_RETIRE, SC_FAR };

static void beat(struct wgsim *s, uint32_t slot, uint32_t cta, uint32_t wic, uint32_t seq, uint32_t pc, uint8_t dst,
                 uint8_t reg, uint8_t b, uint8_t last, uint32_t base)
{
	struct wgsim_retire r = { 0 };

	r.warp = slot;
	r.cta_linear = cta;
	r.wic = wic;
	r.seq = seq;
	r.pc = pc;
	r.active = r.exec = 0x3;
	r.dst = dst;
	r.reg = reg;
	r.beat = b;
	r.last = last;
	for (unsigned l = 0; l < 32; l++)
		r.data[l] = base + l;
	wgsim_fake_push_retire(s, &r);
}

static void on_launch(struct wgsim *s, uint32_t linear, void *ctx)
{
	struct tfx *t = ctx;
	struct wgsim_mreq q = { 0 };

	if (linear != 0)
		return;
	switch (t->scenario) {
	case SC_MEM:
		q.tag = 1; q.cmd = 0; q.size = 2; q.addr = t->buf + 8;
		wgsim_fake_push_mreq(s, &q);
		memset(&q, 0, sizeof(q));
		q.tag = 2; q.cmd = 1; q.size = 2; q.addr = t->buf + 12;
		q.wmask[(t->buf + 12) % 128] = 1; q.wdata[(t->buf + 12) % 128] = 0xAB;
		q.wmask[(t->buf + 14) % 128] = 1; q.wdata[(t->buf + 14) % 128] = 0xCD;
		wgsim_fake_push_mreq(s, &q);
		memset(&q, 0, sizeof(q));
		q.tag = 3; q.cmd = 2; q.size = 2; q.addr = t->buf + 32; q.atom_op = 12; /* ADD.F32 */
		q.atom_b = 0x7F800000u;                                            /* +inf */
		wgsim_fake_push_mreq(s, &q);
		memset(&q, 0, sizeof(q));
		q.tag = 4; q.cmd = 2; q.size = 2; q.addr = t->buf + 36; q.atom_op = 4; /* CAS */
		q.atom_b = 0x27262524u; q.atom_c = 7;
		wgsim_fake_push_mreq(s, &q);
		t->req_cycle = wgsim_cycle(s);
		break;
	case SC_BAD_ADDR:
		beat(s, 5, 0, 1, 0, 0, 0, 0, 0, 1, 0);
		q.tag = 1; q.cmd = 0; q.size = 2; q.addr = 0x10; q.warp = 5; q.pc = 7; q.lane = 3;
		wgsim_fake_push_mreq(s, &q);
		break;
	case SC_FAULT: {
		struct wgsim_fault f = { .code = 2, .warp = 9, .pc = 1, .lane = 4, .addr = 0x1002, .cta_linear = 0 };

		wgsim_fake_set_fault(s, &f);
		break;
	}
	case SC_RETIRE:
		/* warp 0: seq 1 (a 2-register load) retires before seq 0 */
		beat(s, 0, 0, 0, 1, 1, 1, 4, 0, 0, 0x100);
		beat(s, 0, 0, 0, 1, 1, 1, 5, 1, 1, 0x200);
		beat(s, 0, 0, 0, 0, 0, 2, 1, 0, 1, 0);
		beat(s, 0, 0, 0, 2, 2, 0, 0, 0, 1, 0);
		break;
	case SC_FAR:
		/* warp 0: a load (seq 0) still waiting on a slow memory while the warp's 299
		 * independent instructions after it retire, newest first: 300 instructions in
		 * flight, more than the initial window of 64 */
		for (uint32_t n = 299; n >= 1; n--)
			beat(s, 0, 0, 0, n, n % 3, 0, 0, 0, 1, 0);
		beat(s, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0);
		break;
	}
}

static void memory_port_reads_writes_atomics_with_latency(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;
	struct wg_err err = { { 0 } };
	uint8_t *m = fx_ptr(t->f, t->buf, 256);
	uint32_t w;

	assert_int_equal(wg_target_sim.set_option(t->priv, "mem_latency", "7", &err), 0);
	t->scenario = SC_MEM;
	wgsim_fake.on_launch = on_launch;
	wgsim_fake.ctx = t;
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL), 0);
	assert_int_equal(wgsim_fake_nrsp(t->s), 4);
	for (size_t i = 0; i < 4; i++)
		assert_true(wgsim_fake_rsp(t->s, i)->cycle >= t->req_cycle + 7);
	assert_int_equal(wgsim_fake_rsp(t->s, 0)->tag, 1);
	memcpy(&w, wgsim_fake_rsp(t->s, 0)->rdata + (t->buf + 8) % 128, 4);
	assert_int_equal(w, 0x0B0A0908);
	assert_int_equal(m[12], 0xAB);
	assert_int_equal(m[13], 13); /* not enabled */
	assert_int_equal(m[14], 0xCD);
	memcpy(&w, m + 32, 4);
	assert_int_equal(w, 0x7F800000u); /* finite + inf */
	memcpy(&w, wgsim_fake_rsp(t->s, 2)->rdata + (t->buf + 32) % 128, 4);
	assert_int_equal(w, 0x23222120); /* the old word */
	memcpy(&w, m + 36, 4);
	assert_int_equal(w, 7); /* CAS matched */
}

static void access_outside_allocations_names_the_warp(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;

	t->scenario = SC_BAD_ADDR;
	wgsim_fake.on_launch = on_launch;
	wgsim_fake.ctx = t;
	assert_int_equal(launch(t, small_src, fx_dim(2, 1, 1), fx_dim(64, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL),
	                 WG_EFAULT);
	assert_non_null(strstr(t->f->err.msg,
	                       "kernel 'k': CTA (0,0,0) warp 1 pc 7 lane 3: global load of 4 bytes at 0x00000010 is "
	                       "outside every allocation"));
}

static void sm_fault_becomes_an_error(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;

	t->scenario = SC_FAULT;
	wgsim_fake.on_launch = on_launch;
	wgsim_fake.ctx = t;
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL),
	                 WG_EFAULT);
	assert_non_null(strstr(t->f->err.msg, "kernel 'k': CTA (0,0,0) warp slot 9 pc 1 lane 4: misaligned address at "
	                                      "0x00001002"));
}

static void watchdog_stops_a_stuck_launch(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;
	struct wg_err err = { { 0 } };

	wgsim_fake.cta_cycles = 1000000;
	assert_int_equal(wg_target_sim.set_option(t->priv, "watchdog", "500", &err), 0);
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL),
	                 WG_ETIMEOUT);
	assert_non_null(strstr(t->f->err.msg, "kernel 'k': no instruction retired for"));
}

static void retire_beats_become_log_lines_in_program_order(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;
	char path[64], *log;
	struct fx_ret r[8];

	t->scenario = SC_RETIRE;
	wgsim_fake.on_launch = on_launch;
	wgsim_fake.ctx = t;
	fx_log_begin(t->f, path);
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(2, 1, 1), (uint32_t[]){ 1, 2 }, &st, t->f->log),
	                 0);
	log = fx_log_end(t->f, path);
	assert_non_null(strstr(log, "# kernel k grid 1 1 1 block 2 1 1\n"));
	assert_int_equal(fx_log_lines(log, 0, 0, r, 8), 3);
	assert_int_equal(r[0].pc, 0);
	assert_string_equal(r[0].dst, "P1");
	assert_int_equal(r[1].pc, 1);
	assert_string_equal(r[1].dst, "R4x2");
	assert_int_equal(strncmp(r[1].values, "00000100:00000200 00000101:00000201\n", 36), 0);
	assert_int_equal(r[2].pc, 2);
	assert_string_equal(r[2].dst, "-");
	assert_int_equal(st.warp_insts, 3);
	free(log);
}

static void retire_window_grows_past_a_slow_load(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;
	char path[64], *log;
	struct fx_ret r[300];

	t->scenario = SC_FAR;
	wgsim_fake.on_launch = on_launch;
	wgsim_fake.ctx = t;
	fx_log_begin(t->f, path);
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(2, 1, 1), (uint32_t[]){ 1, 2 }, &st, t->f->log),
	                 0);
	log = fx_log_end(t->f, path);
	assert_int_equal(fx_log_lines(log, 0, 0, r, 300), 300);
	for (unsigned i = 0; i < 300; i++) /* program order restored: pc = seq % 3 */
		assert_int_equal(r[i].pc, i % 3);
	assert_int_equal(st.warp_insts, 300);
	free(log);
}

/* L1_CTRL writes; the flush (after the first launch) writes back one dirty line. */
static void on_cfg(struct wgsim *s, uint32_t addr, uint32_t value, void *ctx)
{
	struct tfx *t = ctx;
	struct wgsim_mreq q = { 0 };

	if (addr != 16)
		return;
	if (t->nl1 < 8)
		t->l1_writes[t->nl1++] = value;
	if (!(value & 4) || !wgsim_fake_nlaunched(s))
		return;
	t->busy_at_flush = wgsim_busy(s);
	q.tag = 9;
	q.cmd = 1;
	q.size = 7;
	q.wb = 1;
	q.local = 1;
	q.addr = t->wb_addr;
	for (unsigned i = 0; i < 128; i++) {
		q.wmask[i] = 1;
		q.wdata[i] = (uint8_t)(0xA0 + i);
	}
	wgsim_fake_push_mreq(s, &q);
	wgsim_fake.mem[WG_MC_L1_WB]++;
	wgsim_fake.mem[WG_MC_MEM_WR_BYTES] += 128;
	wgsim_fake.mem[WG_MC_LDC_REQ] = (uint32_t)(wgsim_fake.mem[WG_MC_LDC_REQ] + 3); /* 32 bits, as the RTL's */
}

/* Every accepted CTA counts one LDG request of two lines, as the RTL's cnt_mem_o would. */
static void on_launch_count(struct wgsim *s, uint32_t linear, void *ctx)
{
	(void)s;
	(void)linear;
	(void)ctx;
	wgsim_fake.mem[WG_MC_GLD_REQ] += 1;
	wgsim_fake.mem[WG_MC_GLD_TX] += 2;
}

static void l1_is_set_up_and_flushed_after_the_last_cta(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;
	struct wg_err err = { { 0 } };
	const uint8_t *m;

	t->wb_addr = fx_alloc(t->f, 128);
	wgsim_fake.on_cfg = on_cfg;
	wgsim_fake.on_launch = on_launch_count;
	wgsim_fake.ctx = t;
	wgsim_fake.mem[WG_MC_GLD_REQ] = 1000; /* counters before the launch do not count */
	wgsim_fake.mem[WG_MC_LDC_REQ] = 0xFFFFFFFFu;
	/* defaults: Kepler, 48 KB shared / 16 KB L1 */
	assert_int_equal(launch(t, small_src, fx_dim(3, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL), 0);
	assert_int_equal(t->nl1, 2);
	assert_int_equal(t->l1_writes[0], 4); /* set-up: flush (an empty L1), mode 0, split 0 */
	assert_int_equal(t->l1_writes[1], 4); /* after the last CTA */
	assert_int_equal(t->busy_at_flush, 0);
	m = fx_ptr(t->f, t->wb_addr, 128);
	for (unsigned i = 0; i < 128; i++)
		assert_int_equal(m[i], (uint8_t)(0xA0 + i)); /* the write-back reached device memory */
	assert_int_equal(wgsim_fake_rsp(t->s, wgsim_fake_nrsp(t->s) - 1)->tag, 9); /* and was answered */
	assert_int_equal(st.mem[WG_MC_GLD_REQ], 3);
	assert_int_equal(st.mem[WG_MC_GLD_TX], 6);
	assert_int_equal(st.mem[WG_MC_L1_WB], 1);
	assert_int_equal(st.mem[WG_MC_MEM_WR_BYTES], 128);
	assert_int_equal(st.mem[WG_MC_LDC_REQ], 3); /* across the 32-bit wrap */
	assert_int_equal(st.mem[WG_MC_GST_REQ], 0);
	/* Fermi mode, 16 KB shared / 48 KB L1 */
	t->nl1 = 0;
	assert_int_equal(wg_target_sim.set_option(t->priv, "l1_mode", "fermi", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "l1_split", "48", &err), 0);
	wgsim_fake.on_launch = NULL;
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL), 0);
	assert_int_equal(t->nl1, 2);
	assert_int_equal(t->l1_writes[0], 7);
	assert_int_equal(t->l1_writes[1], 7);
	assert_int_equal(st.mem[WG_MC_L1_WB], 1);
	assert_int_equal(st.mem[WG_MC_GLD_REQ], 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "l1_mode", "kepler", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "l1_split", "16", &err), 0);
	t->nl1 = 0;
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL), 0);
	assert_int_equal(t->l1_writes[0], 4);
}

static void write_back_outside_allocations_is_an_error(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;

	t->wb_addr = 0x80;
	wgsim_fake.on_cfg = on_cfg;
	wgsim_fake.ctx = t;
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL),
	                 WG_EFAULT);
	assert_non_null(strstr(t->f->err.msg, "kernel 'k': L1 write-back of 128 bytes at 0x00000080 writes bytes "
	                                      "outside every allocation"));
}

static void shared_capacity_follows_the_split(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;
	struct wg_err err = { { 0 } };
	static const char shared_src[] = ".kernel k\n.regs 4\n.shared 20000\n    EXIT\n";

	assert_int_equal(launch(t, shared_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, &st, NULL), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "l1_split", "48", &err), 0);
	assert_int_equal(launch(t, shared_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, &st, NULL), WG_ELAUNCH);
	assert_non_null(strstr(t->f->err.msg, "20000 static + 0 dynamic shared bytes exceed the SM's 16384 (l1_split=48)"));
}

/* Kernel-register writes in order (address, value), for the power-gating controls. */
static uint32_t cfg_log[64][2];
static unsigned ncfg_log;

static void on_cfg_log(struct wgsim *s, uint32_t addr, uint32_t value, void *ctx)
{
	(void)s;
	(void)ctx;
	if (ncfg_log < 64) {
		cfg_log[ncfg_log][0] = addr;
		cfg_log[ncfg_log][1] = value;
		ncfg_log++;
	}
}

/* The value last written to a kernel register, -1 if none; *pos its index in the log. */
static long cfg_value(uint32_t addr, unsigned *pos)
{
	long v = -1;

	for (unsigned i = 0; i < ncfg_log; i++)
		if (cfg_log[i][0] == addr) {
			v = cfg_log[i][1];
			*pos = i;
		}
	return v;
}

static void pg_issue_options_reach_the_kernel_registers(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;
	struct wg_err err = { { 0 } };
	unsigned p17 = 0, p18 = 0, p19 = 0, p20 = 0, p16 = 0;

	wgsim_fake.on_cfg = on_cfg_log;
	/* defaults (docs/sm.md 2.1): both modes off, T = 100, 75/50/25, 60/40/20 */
	ncfg_log = 0;
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL), 0);
	assert_int_equal(cfg_value(17, &p17), 0);
	assert_int_equal(cfg_value(18, &p18), 100);
	assert_int_equal(cfg_value(19, &p19), 75 | 50 << 8 | 25 << 16);
	assert_int_equal(cfg_value(20, &p20), 60 | 40 << 8 | 20 << 16);
	/* PG_ISSUE after the thresholds and the slice: its write restarts the machine with them */
	cfg_value(16, &p16);
	assert_true(p17 > p18 && p17 > p19 && p17 > p20);
	/* every control set */
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_issue_ctrl", "1", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_compaction", "1", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_slice_cycles", "50", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_down_pct", "80,60,30", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_up_pct", "70,50,25", &err), 0);
	ncfg_log = 0;
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL), 0);
	assert_int_equal(cfg_value(17, &p17), 3); /* bit 0 issue control, bit 1 compaction */
	assert_int_equal(cfg_value(18, &p18), 50);
	assert_int_equal(cfg_value(19, &p19), 80 | 60 << 8 | 30 << 16);
	assert_int_equal(cfg_value(20, &p20), 70 | 50 << 8 | 25 << 16);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_issue_ctrl", "0", &err), 0);
	ncfg_log = 0;
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL), 0);
	assert_int_equal(cfg_value(17, &p17), 2); /* compaction alone */
	/* bad values name the option and the form */
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_issue_ctrl", "2", &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_slice_cycles", "0", &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_slice_cycles", "65536", &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_down_pct", "75,50", &err), WG_EINVAL);
	assert_non_null(strstr(err.msg, "pg_down_pct")); /* the message names the key */
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_down_pct", "50,75,25", &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_up_pct", "60,40,101", &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_up_pct", "60,40,20,", &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_up_pct", NULL, &err), WG_EINVAL);
}

static void pg_trace_window_reaches_the_kernel_registers(void **state)
{
	struct tfx *t = *state;
	struct wg_stats st;
	struct wg_err err = { { 0 } };
	char path[] = "/tmp/wg-test-pgtrace-XXXXXX";
	unsigned pos;
	int fd = mkstemp(path);
	FILE *f;
	char head[64] = "";

	assert_true(fd >= 0);
	close(fd);
	wgsim_fake.on_cfg = on_cfg_log;
	/* no trace: an empty window */
	ncfg_log = 0;
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL), 0);
	assert_int_equal(cfg_value(25, &pos), 0);
	assert_int_equal(cfg_value(26, &pos), 0);
	/* bad values name the option */
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_trace", "/nonexistent-dir/x.vcd", &err), WG_EIO);
	assert_string_equal(err.msg, "pg_trace: cannot write '/nonexistent-dir/x.vcd'");
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_trace_to", "12x", &err), WG_EINVAL);
	assert_non_null(strstr(err.msg, "pg_trace_to"));
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_trace_from", "281474976710655", &err), WG_EINVAL);
	/* window [2^32 + 7, 2^33 + 9): FROM, TO low words, HI = 1 | 2 << 16 (the fake counts no
	 * cycles, so the first launch's window cycles are the run's) */
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_trace", path, &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_trace_from", "4294967303", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "pg_trace_to", "8589934601", &err), 0);
	ncfg_log = 0;
	assert_int_equal(launch(t, small_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1), (uint32_t[]){ 1, 2 }, &st, NULL), 0);
	assert_int_equal(cfg_value(25, &pos), 7);
	assert_int_equal(cfg_value(26, &pos), 9);
	assert_int_equal(cfg_value(27, &pos), 1 | 2 << 16);
	/* the VCD was written (no records from the fake: the header and an empty dump) */
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(head, sizeof(head), f));
	fclose(f);
	assert_non_null(strstr(head, "$comment warpgate lane-activity trace"));
	unlink(path);
}

static void options(void **state)
{
	struct tfx *t = *state;
	struct wg_err err = { { 0 } };

	assert_int_equal(wg_target_sim.set_option(t->priv, "nosuch", "1", &err), WG_ENOTSUP);
	assert_int_equal(wg_target_sim.set_option(t->priv, "lockstep", "maybe", &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "lockstep", "end", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "mem_latency", "0", &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "sched", "gto", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "l1_mode", "fermi", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "l1_mode", "maxwell", &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "l1_split", "48", &err), 0);
	assert_int_equal(wg_target_sim.set_option(t->priv, "l1_split", "32", &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "l1_split", NULL, &err), WG_EINVAL);
	assert_int_equal(wg_target_sim.set_option(t->priv, "trace_fst", "/tmp/x.fst", &err), 0);
	assert_string_equal(wgsim_fake_trace(*(struct wgsim **)t->priv), "/tmp/x.fst");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(setup_registers_dispatch_and_statistics, setup, teardown),
		cmocka_unit_test_setup_teardown(launch_that_does_not_fit_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(launch_needing_a_unit_the_sm_lacks_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(memory_port_reads_writes_atomics_with_latency, setup, teardown),
		cmocka_unit_test_setup_teardown(access_outside_allocations_names_the_warp, setup, teardown),
		cmocka_unit_test_setup_teardown(sm_fault_becomes_an_error, setup, teardown),
		cmocka_unit_test_setup_teardown(watchdog_stops_a_stuck_launch, setup, teardown),
		cmocka_unit_test_setup_teardown(retire_beats_become_log_lines_in_program_order, setup, teardown),
		cmocka_unit_test_setup_teardown(retire_window_grows_past_a_slow_load, setup, teardown),
		cmocka_unit_test_setup_teardown(l1_is_set_up_and_flushed_after_the_last_cta, setup, teardown),
		cmocka_unit_test_setup_teardown(write_back_outside_allocations_is_an_error, setup, teardown),
		cmocka_unit_test_setup_teardown(shared_capacity_follows_the_split, setup, teardown),
		cmocka_unit_test_setup_teardown(pg_issue_options_reach_the_kernel_registers, setup, teardown),
		cmocka_unit_test_setup_teardown(pg_trace_window_reaches_the_kernel_registers, setup, teardown),
		cmocka_unit_test_setup_teardown(options, setup, teardown),
	};

	return cmocka_run_group_tests_name("target_sim", tests, NULL, NULL);
}
