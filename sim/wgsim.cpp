// wgsim: the Verilated SM (rtl/wg_sm.sv) behind the C API of sim/wgsim.h.
//
// Each cycle: the queued inputs are driven (at most one kernel-register,
// instruction-memory and parameter-store write, the oldest pending CTA
// launch and memory response), the model settles with the clock low, the
// handshakes of the cycle are sampled (valid && ready), then the clock rises.
// Memory requests, CTA completions and retire beats go to queues that the
// caller pops; the SM's ready inputs for them are always high.
#include "wgsim.h"

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <cstring>
#include <deque>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "Vwg_sm.h"

// Build-time parameters (sim/sm.mk passes the same values to Verilator).
#ifndef WGSIM_NUM_WARPS
#define WGSIM_NUM_WARPS 48
#endif
#ifndef WGSIM_SIMD_WIDTH
#define WGSIM_SIMD_WIDTH 16
#endif
#ifndef WGSIM_NUM_SIMD
#define WGSIM_NUM_SIMD 2
#endif
#ifndef WGSIM_NUM_REGS
#define WGSIM_NUM_REGS 32768
#endif
#ifndef WGSIM_NUM_CTAS
#define WGSIM_NUM_CTAS 8
#endif
#ifndef WGSIM_SMEM_BYTES
#define WGSIM_SMEM_BYTES 49152
#endif
#ifndef WGSIM_IMEM_DEPTH
#define WGSIM_IMEM_DEPTH 4096
#endif
#ifndef WGSIM_CMEM_BYTES
#define WGSIM_CMEM_BYTES 4096
#endif
#ifndef WGSIM_STACK_DEPTH
#define WGSIM_STACK_DEPTH 64
#endif
#ifndef WGSIM_HAS_FP
#define WGSIM_HAS_FP 1
#endif
#ifndef WGSIM_MEM_TAG_W
#define WGSIM_MEM_TAG_W 8
#endif
#ifndef WGSIM_HAS_SFU
#define WGSIM_HAS_SFU 1
#endif
#ifndef WGSIM_RETIRE_EN
#define WGSIM_RETIRE_EN 1
#endif
#ifndef WGSIM_LSU_LANES
#define WGSIM_LSU_LANES 32
#endif

namespace {

constexpr int kEinval = -1;   // WG_EINVAL
constexpr int kEnomem = -2;   // WG_ENOMEM
constexpr uint32_t kCfgPgCtrl = 21; // wg_sm_pkg::CFG_PG_CTRL
constexpr uint32_t kPgClose = 1u << 8, kPgClear = 1u << 9;
constexpr uint32_t kCfgPgtFrom = 25; // wg_sm_pkg::CFG_PGT_FROM, then PGT_TO, PGT_HI

struct Launch {
	uint32_t x, y, z, linear;
};
struct Rsp {
	uint32_t tag;
	uint8_t rdata[WGSIM_MEM_BYTES];
};
struct Write {
	uint32_t addr;
	uint64_t data;
};

} // namespace

struct wgsim {
	std::unique_ptr<VerilatedContext> ctx;
	Vwg_sm *top = nullptr;
#if VM_TRACE_FST
	VerilatedFstC *fst = nullptr;
#endif
	wgsim_opts opts{};
	uint64_t cycle = 0;
	std::deque<Write> cfg, imem, cmem;
	std::deque<Launch> launches;
	std::deque<Rsp> rsps;
	std::deque<wgsim_mreq> mreqs;
	std::deque<wgsim_retire> retires;
	std::deque<uint32_t> dones;
	uint32_t pg_ctrl = 0; // CFG_PG_CTRL as last written, without the strobes
	// Shadow accounting (opts.pg_shadow): per lane counters and the open interval's length.
	std::vector<uint64_t> sh_cnt;  // lane * 5 + state (0..3), + 4 events
	std::vector<uint64_t> sh_len;
	std::vector<uint8_t> sh_prev;
	std::vector<uint64_t> sh_lens; // closed intervals
	uint64_t sh_cycles = 0;
	std::vector<uint64_t> pgt;     // lane-activity trace records not yet popped
	size_t pgt_head = 0;
	uint32_t pgt_regs[3] = {};     // PGT_FROM, PGT_TO, PGT_HI written at every reset
};

static void dump(wgsim *s)
{
#if VM_TRACE_FST
	if (s->fst && s->cycle >= s->opts.trace_start)
		s->fst->dump(s->ctx->time());
#endif
	s->ctx->timeInc(1);
}

// A clock edge with the inputs as they are (reset sweep, histogram reads).
static void shadow_sample(wgsim *s);

// The trace record offered in the cycle being evaluated (pgt_ready_i is always 1).
static inline void pgt_sample(wgsim *s)
{
	if (s->top->pgt_valid_o)
		s->pgt.push_back(s->top->pgt_rec_o);
}

/*
 * The SM's clock, its power-gating clock and its histogram read clock, which have an edge at
 * every SM edge (wg_sm); the single-SM model gives them no edges of their own.
 */
static inline void set_clk(Vwg_sm *t, int v)
{
	t->clk_i = v;
	t->clk_pg_i = v;
	t->clk_hist_i = v;
}

static void raw_tick(wgsim *s)
{
	set_clk(s->top, 0);
	s->top->eval();
	shadow_sample(s);
	pgt_sample(s);
	dump(s);
	set_clk(s->top, 1);
	s->top->eval();
	dump(s);
	s->cycle++;
}

static int pg_busy(const wgsim *s)
{
	return s->top->pg_busy_o;
}

constexpr unsigned kLanes = WGSIM_NUM_SIMD * WGSIM_SIMD_WIDTH;

static void shadow_clear(wgsim *s)
{
	s->sh_cnt.assign(kLanes * 5, 0);
	s->sh_len.assign(kLanes, 0);
	s->sh_prev.assign(kLanes, 0);
	s->sh_lens.clear();
	s->sh_cycles = 0;
}

// The lane states of the cycle being evaluated (clock low, before the edge).
static void shadow_sample(wgsim *s)
{
	if (!s->opts.pg_shadow || !s->top->pg_count_o)
		return;
	uint64_t st = (uint64_t)s->top->pg_state_o;
	static_assert(kLanes <= 32, "pg_state_o is read as one 64-bit word");
	s->sh_cycles++;
	for (unsigned l = 0; l < kLanes; l++) {
		unsigned v = (unsigned)(st >> (2 * l)) & 3;
		s->sh_cnt[l * 5 + v]++;
		if (s->sh_prev[l] == 1 && v == 2)
			s->sh_cnt[l * 5 + 4]++;
		s->sh_prev[l] = (uint8_t)v;
		if (v == 0) {
			if (s->sh_len[l])
				s->sh_lens.push_back(s->sh_len[l]);
			s->sh_len[l] = 0;
		} else {
			s->sh_len[l]++;
		}
	}
}

static void set_wide(uint32_t *w, const uint8_t *bytes, unsigned n)
{
	for (unsigned i = 0; i < n / 4; i++)
		w[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 | (uint32_t)bytes[4 * i + 2] << 16 |
		       (uint32_t)bytes[4 * i + 3] << 24;
}

static void get_wide(uint8_t *bytes, const uint32_t *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		bytes[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
}

// One clock cycle. Returns 1 when the SM has faulted.
static int cycle(wgsim *s)
{
	Vwg_sm *t = s->top;

	t->cfg_we_i = !s->cfg.empty();
	if (t->cfg_we_i) {
		t->cfg_addr_i = s->cfg.front().addr;
		t->cfg_wdata_i = (uint32_t)s->cfg.front().data;
	}
	t->imem_we_i = !s->imem.empty();
	if (t->imem_we_i) {
		t->imem_addr_i = s->imem.front().addr;
		t->imem_wdata_i = s->imem.front().data;
	}
	t->cmem_we_i = !s->cmem.empty();
	if (t->cmem_we_i) {
		t->cmem_addr_i = s->cmem.front().addr;
		t->cmem_wdata_i = (uint32_t)s->cmem.front().data;
	}
	t->cta_valid_i = !s->launches.empty();
	if (t->cta_valid_i) {
		const Launch &l = s->launches.front();
		t->cta_id_i = (uint64_t)(l.x & 0xFFFF) | (uint64_t)(l.y & 0xFFFF) << 16 | (uint64_t)(l.z & 0xFFFF) << 32;
		t->cta_linear_i = l.linear;
	}
	t->mrsp_valid_i = !s->rsps.empty();
	if (t->mrsp_valid_i) {
		t->mrsp_tag_i = s->rsps.front().tag;
		set_wide(t->mrsp_rdata_i.data(), s->rsps.front().rdata, WGSIM_MEM_BYTES);
	}
	t->mreq_ready_i = 1;
	t->done_ready_i = 1;
	t->ret_ready_i = 1;

	set_clk(t, 0);
	t->eval();
	shadow_sample(s);
	pgt_sample(s);
	dump(s);

	bool cta_fire = t->cta_valid_i && t->cta_ready_o;
	bool rsp_fire = t->mrsp_valid_i && t->mrsp_ready_o;
	if (t->mreq_valid_o) {
		wgsim_mreq r;
		r.cycle = s->cycle;
		r.tag = t->mreq_tag_o;
		r.cmd = t->mreq_cmd_o;
		r.size = t->mreq_size_o;
		r.atom_op = t->mreq_atom_op_o;
		r.local = t->mreq_local_o;
		r.wb = t->mreq_wb_o;
		r.addr = t->mreq_addr_o;
		r.atom_b = t->mreq_atom_b_o;
		r.atom_c = t->mreq_atom_c_o;
		r.warp = t->mreq_warp_o;
		r.pc = t->mreq_pc_o;
		r.lane = t->mreq_lane_o;
		for (unsigned i = 0; i < WGSIM_MEM_BYTES; i++)
			r.wmask[i] = (t->mreq_wmask_o.data()[i / 32] >> (i % 32)) & 1;
		get_wide(r.wdata, t->mreq_wdata_o.data(), WGSIM_MEM_BYTES);
		s->mreqs.push_back(r);
	}
	if (t->done_valid_o)
		s->dones.push_back(t->done_linear_o);
	if (t->ret_valid_o) {
		wgsim_retire r;
		r.cycle = s->cycle;
		r.warp = t->ret_warp_o;
		r.cta_linear = t->ret_cta_linear_o;
		r.wic = t->ret_wic_o;
		r.seq = t->ret_seq_o;
		r.pc = t->ret_pc_o;
		r.active = t->ret_active_o;
		r.exec = t->ret_exec_o;
		r.dst = t->ret_dst_o;
		r.reg = t->ret_reg_o;
		r.beat = t->ret_beat_o;
		r.last = t->ret_last_o;
		memcpy(r.data, t->ret_data_o.data(), sizeof(r.data));
		s->retires.push_back(r);
	}

	set_clk(t, 1);
	t->eval();
	dump(s);
	s->cycle++;

	if (!s->cfg.empty())
		s->cfg.pop_front();
	if (!s->imem.empty())
		s->imem.pop_front();
	if (!s->cmem.empty())
		s->cmem.pop_front();
	if (cta_fire)
		s->launches.pop_front();
	if (rsp_fire)
		s->rsps.pop_front();
	return t->fault_valid_o ? 1 : 0;
}

extern "C" {

int wgsim_create(struct wgsim **sp, const struct wgsim_opts *opts)
{
	if (!sp)
		return kEinval;
	wgsim *s = new (std::nothrow) wgsim;
	if (!s)
		return kEnomem;
	if (opts)
		s->opts = *opts;
	s->ctx.reset(new VerilatedContext);
	s->ctx->debug(0);
	s->ctx->randReset(0);
	s->top = new Vwg_sm(s->ctx.get(), "sm");
	s->top->sm_id_i = s->opts.sm_id & 0xFF;
	shadow_clear(s);
	/* No lane forced off: the power-gating controller drives the lanes. */
	s->top->pg_re_i = 0;
	s->top->pg_hist_re_i = 0;
	s->top->pgt_ready_i = 1;
	using lane_t = std::remove_reference<decltype(s->top->lane_en_i)>::type;
	s->top->lane_en_i = static_cast<lane_t>(WGSIM_NUM_SIMD * WGSIM_SIMD_WIDTH >= 64
	                                            ? ~0ull
	                                            : (1ull << (WGSIM_NUM_SIMD * WGSIM_SIMD_WIDTH)) - 1);
	if (s->opts.trace_fst) {
#if VM_TRACE_FST
		s->ctx->traceEverOn(true);
		s->fst = new VerilatedFstC;
		s->top->trace(s->fst, 99);
		s->fst->open(s->opts.trace_fst);
#endif
	}
	wgsim_reset(s);
	*sp = s;
	return 0;
}

void wgsim_destroy(struct wgsim *s)
{
	if (!s)
		return;
	s->top->final();
#if VM_TRACE_FST
	if (s->fst) {
		s->fst->close();
		delete s->fst;
	}
#endif
	delete s->top;
	delete s;
}

void wgsim_info(const struct wgsim *s, struct wgsim_info *info)
{
	(void)s;
	info->num_warps = WGSIM_NUM_WARPS;
	info->simd_width = WGSIM_SIMD_WIDTH;
	info->num_simd = WGSIM_NUM_SIMD;
	info->num_regs = WGSIM_NUM_REGS;
	info->num_ctas = WGSIM_NUM_CTAS;
	info->smem_bytes = WGSIM_SMEM_BYTES;
	info->imem_depth = WGSIM_IMEM_DEPTH;
	info->cmem_bytes = WGSIM_CMEM_BYTES;
	info->stack_depth = WGSIM_STACK_DEPTH;
	info->has_fp = WGSIM_HAS_FP;
	info->mem_tag_bits = WGSIM_MEM_TAG_W;
	info->has_sfu = WGSIM_HAS_SFU;
	info->retire_en = WGSIM_RETIRE_EN;
	info->lsu_lanes = WGSIM_LSU_LANES;
}

void wgsim_reset(struct wgsim *s)
{
	s->cfg.clear();
	s->imem.clear();
	s->cmem.clear();
	s->launches.clear();
	s->rsps.clear();
	s->mreqs.clear();
	s->retires.clear();
	s->dones.clear();
	Vwg_sm *t = s->top;
	t->rst_ni = 0;
	t->cfg_we_i = 0;
	t->imem_we_i = 0;
	t->cmem_we_i = 0;
	t->cta_valid_i = 0;
	t->mrsp_valid_i = 0;
	for (int i = 0; i < 4; i++) {
		set_clk(t, 0);
		t->eval();
		dump(s);
		set_clk(t, 1);
		t->eval();
		dump(s);
		s->cycle++;
	}
	t->rst_ni = 1;
	s->pg_ctrl = 0;
	shadow_clear(s);
	// The trace window, written while the histograms are swept (before the window opens).
	for (uint32_t i = 0; i < 3; i++) {
		t->cfg_we_i = 1;
		t->cfg_addr_i = kCfgPgtFrom + i;
		t->cfg_wdata_i = s->pgt_regs[i];
		raw_tick(s);
	}
	t->cfg_we_i = 0;
	// The power-gating histograms are swept after reset (1024 cycles); the window opens then.
	for (int i = 0; i < 4096 && pg_busy(s); i++)
		raw_tick(s);
	s->mreqs.clear();
	s->retires.clear();
	s->dones.clear();
}

int wgsim_cfg_write(struct wgsim *s, uint32_t addr, uint32_t value)
{
	if (!s || addr >= 32) // cfg_addr_i is 5 bits (L1_CTRL is 16)
		return kEinval;
	if (addr == kCfgPgCtrl)
		s->pg_ctrl = value & ~(kPgClose | kPgClear);
	s->cfg.push_back({addr, value});
	return 0;
}

int wgsim_imem_write(struct wgsim *s, uint32_t pc, const uint64_t *words, uint32_t n)
{
	if (!s || (!words && n) || (uint64_t)pc + n > WGSIM_IMEM_DEPTH)
		return kEinval;
	for (uint32_t i = 0; i < n; i++)
		s->imem.push_back({pc + i, words[i]});
	return 0;
}

int wgsim_cmem_write(struct wgsim *s, const uint8_t *bytes, uint32_t n)
{
	if (!s || (!bytes && n) || n > WGSIM_CMEM_BYTES)
		return kEinval;
	for (uint32_t i = 0; i < n; i += 4) {
		uint32_t w = 0;
		for (uint32_t k = 0; k < 4 && i + k < n; k++)
			w |= (uint32_t)bytes[i + k] << (8 * k);
		s->cmem.push_back({i / 4, w});
	}
	return 0;
}

int wgsim_cta_launch(struct wgsim *s, uint32_t x, uint32_t y, uint32_t z, uint32_t linear)
{
	if (!s)
		return kEinval;
	s->launches.push_back({x, y, z, linear});
	return 0;
}

uint32_t wgsim_cta_pending(const struct wgsim *s)
{
	return (uint32_t)s->launches.size();
}

int wgsim_cta_done(struct wgsim *s, uint32_t *linear)
{
	if (s->dones.empty())
		return 0;
	if (linear)
		*linear = s->dones.front();
	s->dones.pop_front();
	return 1;
}

int wgsim_mreq_pop(struct wgsim *s, struct wgsim_mreq *r)
{
	if (s->mreqs.empty())
		return 0;
	if (r)
		*r = s->mreqs.front();
	s->mreqs.pop_front();
	return 1;
}

int wgsim_mrsp_push(struct wgsim *s, uint32_t tag, const uint8_t rdata[WGSIM_MEM_BYTES])
{
	if (!s || tag >= (1u << WGSIM_MEM_TAG_W))
		return kEinval;
	Rsp r;
	r.tag = tag;
	if (rdata)
		memcpy(r.rdata, rdata, WGSIM_MEM_BYTES);
	else
		memset(r.rdata, 0, WGSIM_MEM_BYTES);
	s->rsps.push_back(r);
	return 0;
}

int wgsim_retire_pop(struct wgsim *s, struct wgsim_retire *r)
{
	if (s->retires.empty())
		return 0;
	if (r)
		*r = s->retires.front();
	s->retires.pop_front();
	return 1;
}

int wgsim_fault(const struct wgsim *s, struct wgsim_fault *f)
{
	const Vwg_sm *t = s->top;
	if (!t->fault_valid_o)
		return 0;
	if (f) {
		f->code = t->fault_code_o;
		f->warp = t->fault_warp_o;
		f->pc = t->fault_pc_o;
		f->lane = t->fault_lane_o;
		f->addr = t->fault_addr_o;
		f->cta_linear = t->fault_cta_linear_o;
	}
	return 1;
}

int wgsim_step(struct wgsim *s, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (cycle(s))
			return 1;
	return 0;
}

uint64_t wgsim_cycle(const struct wgsim *s)
{
	return s->cycle;
}

int wgsim_busy(const struct wgsim *s)
{
	return s->top->busy_o || !s->launches.empty() || !s->rsps.empty();
}

int wgsim_counters(const struct wgsim *s, struct wgsim_counter *out, int max)
{
	static const char *const cls_names[12] = {
		"class_int",          "class_imul",        "class_fp",         "class_sfu",
		"class_ldst_global",  "class_ldst_shared", "class_ldst_local", "class_ldst_param",
		"class_atomic",       "class_branch",      "class_barrier",    "class_control"
	};
	// cnt_mem_o, counter i in bits [32*i +: 32] (docs/memory-pipeline.md section 2, same order)
	static const char *const mem_names[27] = {
		"gld_requests",         "gld_transactions",         "gst_requests",
		"gst_transactions",     "local_load_requests",      "local_load_transactions",
		"local_store_requests", "local_store_transactions", "shared_load_requests",
		"shared_load_transactions", "shared_store_requests", "shared_store_transactions",
		"shared_atom_transactions", "atom_count",           "atomic_transactions",
		"l1_global_load_hit",   "l1_global_load_miss",      "l1_local_load_hit",
		"l1_local_load_miss",   "l1_local_store_hit",       "l1_local_store_miss",
		"l1_writebacks",        "l1_mshr_merges",           "ldc_requests",
		"mem_requests",         "mem_read_bytes",           "mem_write_bytes"
	};
	// cnt_exec_o, counter i in bits [32*i +: 32] (wg_sm_pkg::EC_*; docs/sm-pipeline.md)
	static const char *const exec_names[16] = {
		"branches",            "divergent_branches",  "local_load_bytes",   "local_store_bytes",
		"threads_int",         "threads_imul",        "threads_fp",         "threads_sfu",
		"threads_ldst_global", "threads_ldst_shared", "threads_ldst_local", "threads_ldst_param",
		"threads_atomic",      "threads_branch",      "threads_barrier",    "threads_control"
	};
	const Vwg_sm *t = s->top;
	wgsim_counter all[80];
	int n = 0;
	all[n++] = { "cycles", t->cnt_cycles_o };
	all[n++] = { "active_cycles", t->cnt_active_o };
	all[n++] = { "warp_insts", t->cnt_winst_o };
	all[n++] = { "thread_insts", t->cnt_tinst_o };
	for (int i = 0; i < 12; i++)
		all[n++] = { cls_names[i], (uint64_t)t->cnt_class_o.data()[i] };
	all[n++] = { "stall_no_instruction", t->cnt_stall_idle_o };
	all[n++] = { "stall_scoreboard", t->cnt_stall_hazard_o };
	all[n++] = { "stall_pipeline_busy", t->cnt_stall_busy_o };
	all[n++] = { "rf_bank_conflicts", t->cnt_bank_conf_o };
	all[n++] = { "rf_write_port_waits", t->cnt_wr_conf_o };
	for (int i = 0; i < 27; i++)
		all[n++] = { mem_names[i], (uint64_t)t->cnt_mem_o.data()[i] };
	for (int i = 0; i < 16; i++)
		all[n++] = { exec_names[i], (uint64_t)t->cnt_exec_o.data()[i] };
	// Warp issue control (docs/power-gating.md section 3): cycles in S1..S4 (48 bits each
	// in cnt_pg_state_o) and state changes.
	static const char *const pg_names[4] = { "pg_state_cycles_s1", "pg_state_cycles_s2", "pg_state_cycles_s3",
		                                 "pg_state_cycles_s4" };
	for (int i = 0; i < 4; i++) {
		uint64_t v = 0;
		for (int b = 0; b < 48; b++) {
			int bit = i * 48 + b;
			v |= (uint64_t)(t->cnt_pg_state_o.data()[bit / 32] >> (bit % 32) & 1) << b;
		}
		all[n++] = { pg_names[i], v };
	}
	all[n++] = { "pg_state_changes", (uint64_t)t->cnt_pg_changes_o };
	for (int i = 0; i < n && i < max; i++)
		out[i] = all[i];
	return n;
}

static uint64_t pg_word(wgsim *s, uint32_t addr)
{
	Vwg_sm *t = s->top;
	t->pg_re_i = 1;
	t->pg_raddr_i = addr;
	t->eval();
	uint64_t v = t->pg_rdata_o;
	t->pg_re_i = 0;
	t->eval();
	return v;
}

int wgsim_pg_close(struct wgsim *s)
{
	if (!s)
		return kEinval;
	s->cfg.push_back({kCfgPgCtrl, s->pg_ctrl | kPgClose});
	// The write, the close strobe, then the engines drain (a few cycles per pending interval).
	for (int i = 0; i < 100000; i++) {
		if (cycle(s))
			return 1;
		if (s->cfg.empty() && i > 3 && !pg_busy(s) && (pg_word(s, 0xC06) & 2))
			return 0;
	}
	return kEinval;
}

int wgsim_pg_read(struct wgsim *s, struct wgsim_pg *pg)
{
	if (!s || !pg)
		return kEinval;
	memset(pg, 0, sizeof(*pg));
	pg->lanes = WGSIM_NUM_SIMD * WGSIM_SIMD_WIDTH;
	pg->units = WGSIM_NUM_SIMD;
	static_assert(WGSIM_NUM_SIMD * WGSIM_SIMD_WIDTH <= WGSIM_PG_MAX_LANES, "lanes");
	static_assert(WGSIM_NUM_SIMD <= WGSIM_PG_MAX_UNITS, "units");
	for (uint32_t l = 0; l < pg->lanes; l++) {
		pg->active[l] = pg_word(s, l * 8 + 0);
		pg->idle[l] = pg_word(s, l * 8 + 1);
		pg->sleep[l] = pg_word(s, l * 8 + 2);
		pg->wake[l] = pg_word(s, l * 8 + 3);
		pg->events[l] = pg_word(s, l * 8 + 4);
	}
	for (uint32_t u = 0; u < pg->units; u++) {
		pg->unit_sleep[u] = pg_word(s, 0x800 + u * 8 + 0);
		pg->unit_events[u] = pg_word(s, 0x800 + u * 8 + 1);
		pg->over_count[u] = pg_word(s, 0x800 + u * 8 + 2);
		pg->over_sum[u] = pg_word(s, 0x800 + u * 8 + 3);
		pg->lost[u] = pg_word(s, 0x800 + u * 8 + 4);
	}
	pg->cycles = pg_word(s, 0xC00);
	pg->wake_stall = pg_word(s, 0xC01);
	pg->core_active = pg_word(s, 0xC02);
	pg->core_sleep = pg_word(s, 0xC03);
	pg->core_events = pg_word(s, 0xC04);
	pg->core_wake_stall = pg_word(s, 0xC05);
	pg->trace_lost = pg_word(s, 0xC07);
	if (pg_busy(s))
		return kEinval; // the engines still hold intervals: close first
	Vwg_sm *t = s->top;
	for (uint32_t u = 0; u < pg->units; u++) {
		for (uint32_t a = 0; a < WGSIM_PG_BINS; a++) {
			t->pg_hist_re_i = 1;
			t->pg_hist_addr_i = u * WGSIM_PG_BINS + a;
			raw_tick(s);
			pg->hist[u][a + 1] = t->pg_hist_data_o; // address a holds bin a + 1
		}
	}
	t->pg_hist_re_i = 0;
	t->eval();
	return 0;
}

size_t wgsim_pgt_pop(struct wgsim *s, uint64_t *recs, size_t max)
{
	size_t n = s->pgt.size() - s->pgt_head;
	if (n > max)
		n = max;
	if (n)
		memcpy(recs, s->pgt.data() + s->pgt_head, n * sizeof(*recs));
	s->pgt_head += n;
	if (s->pgt_head == s->pgt.size()) {
		s->pgt.clear();
		s->pgt_head = 0;
	}
	return n;
}

int wgsim_pgt_window(struct wgsim *s, uint64_t from, uint64_t to)
{
	constexpr uint64_t kMax = (1ull << 48) - 1;
	if (!s || from > kMax || to > kMax)
		return kEinval;
	s->pgt_regs[0] = (uint32_t)from;
	s->pgt_regs[1] = (uint32_t)to;
	s->pgt_regs[2] = (uint32_t)(from >> 32) | (uint32_t)(to >> 32) << 16;
	return 0;
}

size_t wgsim_pgt_pending(const struct wgsim *s)
{
	return s->pgt.size() - s->pgt_head;
}

int wgsim_pg_shadow(struct wgsim *s, struct wgsim_pg *pg, const uint64_t **lens, size_t *n)
{
	if (!s || !pg || !s->opts.pg_shadow)
		return kEinval;
	memset(pg, 0, sizeof(*pg));
	pg->lanes = kLanes;
	pg->units = WGSIM_NUM_SIMD;
	pg->cycles = s->sh_cycles;
	for (unsigned l = 0; l < kLanes; l++) {
		pg->active[l] = s->sh_cnt[l * 5 + 0];
		pg->idle[l] = s->sh_cnt[l * 5 + 1];
		pg->sleep[l] = s->sh_cnt[l * 5 + 2];
		pg->wake[l] = s->sh_cnt[l * 5 + 3];
		pg->events[l] = s->sh_cnt[l * 5 + 4];
		if (s->sh_len[l]) { // open at the end of the window: closed there
			s->sh_lens.push_back(s->sh_len[l]);
			s->sh_len[l] = 0;
		}
	}
	// The intervals of all lanes into unit 0's histogram (the host adds the units anyway).
	for (uint64_t len : s->sh_lens) {
		if (len <= WGSIM_PG_BINS) {
			pg->hist[0][len]++;
		} else {
			pg->over_count[0]++;
			pg->over_sum[0] += len;
		}
	}
	if (lens)
		*lens = s->sh_lens.data();
	if (n)
		*n = s->sh_lens.size();
	return 0;
}

} // extern "C"
