// wggpu: the Verilated GPU top (rtl/wg_gpu.sv) behind the C API of sim/wggpu.h.
//
// Each link cycle: the oldest queued command is driven (unless the link-delay
// emulation idles the command side), the model settles with the clock low,
// the handshakes are sampled (command taken, event taken), then the clock
// rises. Events go to a queue the caller pops.
#include "wggpu.h"

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <cstring>
#include <deque>
#include <memory>
#include <new>

#include "Vwg_gpu.h"

// Build-time parameters (sim/gpu.mk passes the same values to Verilator).
#include "wggpu_params.h"

namespace {
constexpr int kEinval = -1; // WG_EINVAL
constexpr int kEnomem = -2; // WG_ENOMEM
#if !VM_TRACE_FST
constexpr int kEnotsup = -13; // WG_ENOTSUP
#endif

uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

template <typename W> void set_bytes(W &w, const uint8_t *b, unsigned n)
{
	for (unsigned i = 0; i < n / 4; i++)
		w.data()[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
		              (uint32_t)b[4 * i + 3] << 24;
}

template <typename W> void get_bytes(uint8_t *b, const W &w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		b[i] = (uint8_t)(w.data()[i / 4] >> (8 * (i % 4)));
}
} // namespace

struct wggpu {
	std::unique_ptr<VerilatedContext> ctx;
	Vwg_gpu *top = nullptr;
#if VM_TRACE_FST
	VerilatedFstC *fst = nullptr;
#endif
	wggpu_opts opts{};
	uint64_t rng = 1;
	uint64_t link_cycles = 0;
	std::deque<wggpu_cmd> cmds;
	std::deque<wggpu_ev> evs;
};

static void dump(wggpu *g)
{
#if VM_TRACE_FST
	if (g->fst)
		g->fst->dump(g->ctx->time());
#endif
	g->ctx->timeInc(1);
}

static void drive(wggpu *g, bool valid)
{
	Vwg_gpu *t = g->top;
	t->cmd_valid_i = valid;
	if (!valid)
		return;
	const wggpu_cmd &c = g->cmds.front();
	t->cmd_op_i = c.op;
	t->cmd_sm_i = c.sm;
	t->cmd_all_i = c.all;
	t->cmd_at_i = c.at;
	t->cmd_addr_i = c.addr;
	t->cmd_tag_i = c.tag;
	set_bytes(t->cmd_data_i, c.data, WGGPU_MEM_BYTES);
}

static void take_event(wggpu *g)
{
	Vwg_gpu *t = g->top;
	wggpu_ev e;
	memset(&e, 0, sizeof(e));
	e.kind = t->ev_kind_o;
	e.sm = t->ev_sm_o;
	e.cycle = t->ev_cycle_o;
	switch (e.kind) {
	case WGGPU_EV_MREQ:
		e.tag = t->ev_mreq_tag_o;
		e.cmd = t->ev_mreq_cmd_o;
		e.addr = t->ev_mreq_addr_o;
		e.size = t->ev_mreq_size_o;
		for (unsigned i = 0; i < WGGPU_MEM_BYTES; i++)
			e.wmask[i] = (t->ev_mreq_wmask_o.data()[i / 32] >> (i % 32)) & 1;
		get_bytes(e.wdata, t->ev_mreq_wdata_o, WGGPU_MEM_BYTES);
		e.atom_op = t->ev_mreq_atom_op_o;
		e.atom_b = t->ev_mreq_atom_b_o;
		e.atom_c = t->ev_mreq_atom_c_o;
		e.local = t->ev_mreq_local_o;
		e.wb = t->ev_mreq_wb_o;
		e.warp = t->ev_mreq_warp_o;
		e.pc = t->ev_mreq_pc_o;
		e.lane = t->ev_mreq_lane_o;
		break;
	case WGGPU_EV_DONE: e.linear = t->ev_done_linear_o; break;
	case WGGPU_EV_FAULT:
		e.code = t->ev_fault_code_o;
		e.fwarp = t->ev_fault_warp_o;
		e.fpc = t->ev_fault_pc_o;
		e.flane = t->ev_fault_lane_o;
		e.faddr = t->ev_fault_addr_o;
		e.linear = t->ev_fault_cta_linear_o;
		break;
	case WGGPU_EV_RETIRE:
		e.rwarp = t->ev_ret_warp_o;
		e.linear = t->ev_ret_cta_linear_o;
		e.rwic = t->ev_ret_wic_o;
		e.rseq = t->ev_ret_seq_o;
		e.rpc = t->ev_ret_pc_o;
		e.ractive = t->ev_ret_active_o;
		e.rexec = t->ev_ret_exec_o;
		e.rdst = t->ev_ret_dst_o;
		e.rreg = t->ev_ret_reg_o;
		e.rbeat = t->ev_ret_beat_o;
		e.rlast = t->ev_ret_last_o;
		memcpy(e.rdata, t->ev_ret_data_o.data(), sizeof(e.rdata));
		break;
	case WGGPU_EV_REACHED: e.busy = (uint64_t)t->ev_busy_o; break;
	case WGGPU_EV_COUNTERS:
		for (unsigned i = 0; i < WGGPU_CNT_WORDS; i++)
			e.cnt[i] = t->ev_cnt_o.data()[i];
		break;
	case WGGPU_EV_ERROR: e.err = t->ev_err_code_o; break;
	default: break;
	}
	g->evs.push_back(e);
}

// Nothing can change until a command arrives: target time stands at the grant, no event is
// offered and the GPU is out of reset (cmd_ready_o with no command driven). Every register of
// wg_gpu and the SMs holds, so skipping the evaluation is exact.
static bool quiescent(wggpu *g)
{
	Vwg_gpu *t = g->top;
	return g->cmds.empty() && !t->running_o && !t->ev_valid_o && !t->cmd_valid_i && t->cmd_ready_o;
}

static void link_cycle(wggpu *g)
{
	Vwg_gpu *t = g->top;
	if (quiescent(g)) {
		g->link_cycles++;
		return;
	}
	bool cmd_on = !g->cmds.empty() && !(g->opts.cmd_idle && splitmix(&g->rng) % 1000 < g->opts.cmd_idle);
	bool ev_on = !(g->opts.ev_idle && splitmix(&g->rng) % 1000 < g->opts.ev_idle);
	drive(g, cmd_on);
	t->ev_ready_i = ev_on;
	t->clk_i = 0;
	t->eval();
	dump(g);
	bool cmd_fire = t->cmd_valid_i && t->cmd_ready_o;
	if (t->ev_valid_o && t->ev_ready_i)
		take_event(g);
	t->clk_i = 1;
	t->eval();
	dump(g);
	if (cmd_fire)
		g->cmds.pop_front();
	g->link_cycles++;
}

extern "C" {

int wggpu_create(struct wggpu **gp, const struct wggpu_opts *opts)
{
	if (!gp)
		return kEinval;
	wggpu *g = new (std::nothrow) wggpu;
	if (!g)
		return kEnomem;
	if (opts)
		g->opts = *opts;
	g->rng = g->opts.seed ? g->opts.seed : 1;
	g->ctx.reset(new VerilatedContext);
	g->ctx->debug(0);
	g->ctx->randReset(0);
	g->top = new Vwg_gpu(g->ctx.get(), "gpu");
	if (g->opts.trace_fst) {
#if VM_TRACE_FST
		g->ctx->traceEverOn(true);
		g->fst = new VerilatedFstC;
		g->top->trace(g->fst, 99);
		g->fst->open(g->opts.trace_fst);
#else
		delete g->top;
		delete g;
		return kEnotsup; // built without tracing: make gpu-lib GPU_TRACE=1
#endif
	}
	Vwg_gpu *t = g->top;
	t->rst_ni = 0;
	t->cmd_valid_i = 0;
	t->ev_ready_i = 0;
	for (int i = 0; i < 4; i++) {
		t->clk_i = 0;
		t->eval();
		dump(g);
		t->clk_i = 1;
		t->eval();
		dump(g);
	}
	t->rst_ni = 1;
	*gp = g;
	return 0;
}

void wggpu_destroy(struct wggpu *g)
{
	if (!g)
		return;
	g->top->final();
#if VM_TRACE_FST
	if (g->fst) {
		g->fst->close();
		delete g->fst;
	}
#endif
	delete g->top;
	delete g;
}

void wggpu_info(const struct wggpu *g, struct wggpu_info *info)
{
	(void)g;
	info->num_sms = WGGPU_NUM_SMS;
	info->num_warps = WGGPU_NUM_WARPS;
	info->simd_width = WGGPU_SIMD_WIDTH;
	info->num_simd = WGGPU_NUM_SIMD;
	info->num_regs = WGGPU_NUM_REGS;
	info->num_ctas = WGGPU_NUM_CTAS;
	info->imem_depth = WGGPU_IMEM_DEPTH;
	info->cmem_bytes = WGGPU_CMEM_BYTES;
	info->mem_tag_bits = WGGPU_MEM_TAG_W;
	info->rsp_depth = 1u << WGGPU_MEM_TAG_W;
	info->launch_depth = WGGPU_NUM_CTAS;
	info->retire_en = WGGPU_RETIRE_EN;
	info->rf_banks = WGGPU_RF_BANKS;
	info->dmem_bytes = WGGPU_DMEM_BYTES;
	info->l1_sets = WGGPU_L1_SETS;
	info->l1_mshrs = WGGPU_L1_MSHRS;
	info->stack_depth = WGGPU_STACK_DEPTH;
	info->has_fp = WGGPU_HAS_FP;
}

int wggpu_push(struct wggpu *g, const struct wggpu_cmd *c)
{
	if (!g || !c || c->op > WGGPU_CNT_READ)
		return kEinval;
	g->cmds.push_back(*c);
	return 0;
}

size_t wggpu_cmds_pending(const struct wggpu *g)
{
	return g->cmds.size();
}

int wggpu_pop(struct wggpu *g, struct wggpu_ev *e)
{
	if (g->evs.empty())
		return 0;
	*e = g->evs.front();
	g->evs.pop_front();
	return 1;
}

void wggpu_tick(struct wggpu *g, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		link_cycle(g);
}

uint64_t wggpu_link_cycles(const struct wggpu *g)
{
	return g->link_cycles;
}

uint64_t wggpu_cycle(const struct wggpu *g)
{
	return g->top->cycle_o;
}

uint64_t wggpu_grant(const struct wggpu *g)
{
	return g->top->grant_o;
}

int wggpu_error(const struct wggpu *g)
{
	return g->top->error_o;
}

} // extern "C"
