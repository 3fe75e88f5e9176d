// wgjtag: the Verilated JTAG debug port as a C library (sim/wgjtag.h).
#include "wgjtag.h"

#include <memory>
#include <new>

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include "Vtb_jtag.h"
#include "warpgate.h"

struct wgjtag {
	std::unique_ptr<VerilatedContext> ctx;
	Vtb_jtag *top = nullptr;
#if VM_TRACE_FST
	VerilatedFstC *trace = nullptr;
#endif
	uint64_t now_ps = 0;     // simulated time
	uint64_t next_clk_ps = 0; // next clk_i edge
	uint32_t clk_half_ps = 5000;
	uint32_t tck_half_ps = 50000;
	uint64_t clk_cycles = 0;
	unsigned err_base = 0;
};

namespace {

void settle(wgjtag *j)
{
	j->ctx->time(j->now_ps);
	j->top->eval();
#if VM_TRACE_FST
	if (j->trace)
		j->trace->dump(j->now_ps);
#endif
}

// Simulate every clk_i edge up to and including time t, then stand at t.
void advance(wgjtag *j, uint64_t t)
{
	while (j->next_clk_ps <= t) {
		j->now_ps = j->next_clk_ps;
		j->top->clk_i = !j->top->clk_i;
		if (j->top->clk_i) // as counter 0 does: 0 at an edge in reset, else + 1
			j->clk_cycles = j->top->rst_ni ? j->clk_cycles + 1 : 0;
		settle(j);
		j->next_clk_ps += j->clk_half_ps;
	}
	j->now_ps = t;
}

} // namespace

extern "C" {

int wgjtag_open(struct wgjtag **out, const struct wgjtag_cfg *cfg)
{
	if (!out || !cfg)
		return WG_EINVAL;
	*out = nullptr;
	uint32_t clk_ps = cfg->clk_ps ? cfg->clk_ps : 10000;
	if (clk_ps < 2)
		return WG_EINVAL;
	wgjtag *j = new (std::nothrow) wgjtag;
	if (!j)
		return WG_ENOMEM;
	j->clk_half_ps = clk_ps / 2;
	j->tck_half_ps = cfg->tck_half_ps ? cfg->tck_half_ps : 50000;
	j->ctx.reset(new VerilatedContext);
	j->ctx->fatalOnError(false); // assertion failures are counted (wgjtag_errors)
	j->ctx->errorLimit(1 << 30);
	j->ctx->randReset(2);
	j->ctx->randSeed(static_cast<int>(cfg->seed & 0x7fffffff) | 1);
	j->top = new Vtb_jtag(j->ctx.get(), "top");
#if VM_TRACE_FST
	if (cfg->trace_path) {
		j->ctx->traceEverOn(true);
		j->trace = new VerilatedFstC;
		j->top->trace(j->trace, 99);
		j->trace->open(cfg->trace_path);
	}
#else
	if (cfg->trace_path) {
		wgjtag_close(j);
		return WG_ENOTSUP;
	}
#endif
	j->top->clk_i = 0;
	j->top->tck_i = 0;
	j->top->tms_i = 1;
	j->top->tdi_i = 0;
	j->top->trst_ni = 1;
	j->top->rst_ni = 0;
	j->top->cnt_ext_i = 0;
	j->top->link_up_i = 0;
	j->top->link_fail_i = 0;
	j->next_clk_ps = j->clk_half_ps + cfg->clk_phase_ps;
	settle(j);
	j->top->trst_ni = 0; // a falling edge: the asynchronous reset acts on events
	settle(j);
	wgjtag_run_clk(j, 4);
	j->top->trst_ni = 1;
	j->top->rst_ni = 1;
	settle(j);
	j->err_base = j->ctx->errorCount();
	*out = j;
	return 0;
}

void wgjtag_close(struct wgjtag *j)
{
	if (!j)
		return;
	if (j->top)
		j->top->final();
#if VM_TRACE_FST
	if (j->trace) {
		j->trace->close();
		delete j->trace;
	}
#endif
	delete j->top;
	delete j;
}

int wgjtag_pins(struct wgjtag *j, int tck, int tms, int tdi)
{
	if ((tck | tms | tdi) & ~1)
		return WG_EINVAL;
	advance(j, j->now_ps + j->tck_half_ps);
	j->top->tck_i = tck;
	j->top->tms_i = tms;
	j->top->tdi_i = tdi;
	settle(j);
	return 0;
}

int wgjtag_tdo(const struct wgjtag *j)
{
	return j->top->tdo_oe_o ? j->top->tdo_o : 1;
}

void wgjtag_reset_pins(struct wgjtag *j, int trst, int srst)
{
	j->top->trst_ni = !trst;
	j->top->rst_ni = !srst;
	settle(j);
}

void wgjtag_run_clk(struct wgjtag *j, uint64_t n)
{
	advance(j, j->now_ps + n * 2 * j->clk_half_ps);
}

int wgjtag_set_tck_half(struct wgjtag *j, uint32_t tck_half_ps)
{
	if (!tck_half_ps)
		return WG_EINVAL;
	j->tck_half_ps = tck_half_ps;
	return 0;
}

void wgjtag_set_cnt_ext(struct wgjtag *j, unsigned idx, uint32_t value)
{
	if (idx == 2)
		j->top->cnt_ext_i = (j->top->cnt_ext_i & 0xffffffff00000000ull) | value;
	else if (idx == 3)
		j->top->cnt_ext_i = (j->top->cnt_ext_i & 0xffffffffull) | (uint64_t)value << 32;
	settle(j);
}

void wgjtag_set_link(struct wgjtag *j, int up, int fail)
{
	j->top->link_up_i = up != 0;
	j->top->link_fail_i = fail != 0;
	settle(j);
}

uint32_t wgjtag_ctrl(const struct wgjtag *j, unsigned idx)
{
	return idx < 4 ? j->top->ctrl_o[idx] : 0;
}

uint32_t wgjtag_ctrl_writes(const struct wgjtag *j, unsigned idx)
{
	return idx < 4 ? j->top->ctrl_writes_o[idx] : 0;
}

int wgjtag_halt(const struct wgjtag *j)
{
	return j->top->halt_o;
}

int wgjtag_halted(const struct wgjtag *j)
{
	return j->top->halted_o;
}

int wgjtag_tap_state(const struct wgjtag *j)
{
	return j->top->tap_state_o;
}

uint64_t wgjtag_clk_cycles(const struct wgjtag *j)
{
	return j->clk_cycles;
}

unsigned wgjtag_errors(const struct wgjtag *j)
{
	return static_cast<unsigned>(j->ctx->errorCount()) - j->err_base;
}

} // extern "C"
