// wgtop: the Verilated board top (rtl/wg_board_top.sv) behind the C API of sim/wgtop.h.
//
// Each IFCLK cycle: the FX2's outputs are applied with the clock low and the model settles,
// then the clock rises. A cycle in which the top is idle (idle_o) with the same inputs is not
// evaluated: wg_board_top holds every register then, so skipping is exact. After a JTAG pin
// change the next JTAG_SYNC_CYCLES cycles are evaluated whatever idle_o says: a command the
// TAP hands over passes a two-stage synchroniser in the IFCLK domain (wg_jtag_dtm) before
// the top's idle_o can see it.
#include "wgtop.h"

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <memory>
#include <new>

#include "Vwg_board_top.h"

namespace {
constexpr int kEinval = -1; // WG_EINVAL
constexpr int kEnomem = -2; // WG_ENOMEM
#if !VM_TRACE_FST
constexpr int kEnotsup = -13; // WG_ENOTSUP
#endif
} // namespace

struct wgtop {
	std::unique_ptr<VerilatedContext> ctx;
	Vwg_board_top *top = nullptr;
#if VM_TRACE_FST
	VerilatedFstC *fst = nullptr;
#endif
	wgtop_opts opts{};
	struct wgtop_counts n{};
	bool still = false;   // the last cycle left the top idle with these inputs
	bool waiting = false; // ... or waiting for the host (wait_o: only the link's timers run)
	int stop_on_wait = 0; // wgtop_run_fx2 returns 2 when the top waits
	int force = 0;        // cycles still to evaluate after a JTAG pin change
	wgtop_fx2_in last{};
};

namespace {
constexpr int kJtagSyncCycles = 4; // JTAG_SYNC_CYCLES: the synchroniser's two stages and margin
} // namespace

static void dump(wgtop *t)
{
#if VM_TRACE_FST
	if (t->fst)
		t->fst->dump(t->ctx->time());
#endif
	t->ctx->timeInc(1);
}

static bool same_in(const wgtop_fx2_in &a, const wgtop_fx2_in &b)
{
	return a.fd == b.fd && !a.flaga_n == !b.flaga_n && !a.flagb_n == !b.flagb_n && !a.rst_n == !b.rst_n;
}

extern "C" {

int wgtop_create(struct wgtop **tp, const struct wgtop_opts *opts)
{
	if (!tp)
		return kEinval;
	wgtop *t = new (std::nothrow) wgtop;
	if (!t)
		return kEnomem;
	if (opts)
		t->opts = *opts;
	t->ctx.reset(new VerilatedContext);
	t->ctx->debug(0);
	t->ctx->randReset(0);
	t->top = new Vwg_board_top(t->ctx.get(), "top");
	if (t->opts.trace_fst) {
#if VM_TRACE_FST
		t->ctx->traceEverOn(true);
		t->fst = new VerilatedFstC;
		t->top->trace(t->fst, 99);
		t->fst->open(t->opts.trace_fst);
#else
		delete t->top;
		delete t;
		return kEnotsup;
#endif
	}
	Vwg_board_top *v = t->top;
	v->ifclk_i = 0;
	v->fx2_rst_ni = 0;
	v->btn_rst_i = 0;
	v->flaga_ni = 0;
	v->flagb_ni = 1;
	v->fd_i = 0;
	v->tck_i = 0;
	v->tms_i = 1;
	v->tdi_i = 0;
	v->trst_ni = 0;
	v->eval();
	v->trst_ni = 1;
	v->eval();
	*tp = t;
	return 0;
}

void wgtop_destroy(struct wgtop *t)
{
	if (!t)
		return;
	t->top->final();
#if VM_TRACE_FST
	if (t->fst) {
		t->fst->close();
		delete t->fst;
	}
#endif
	delete t->top;
	delete t;
}

void wgtop_fx2_out(const struct wgtop *t, struct fx2_pins *p)
{
	const Vwg_board_top *v = t->top;

	p->fd = v->fd_o;
	p->fd_oe = v->fd_oe_o;
	p->slrd_n = v->slrd_no;
	p->slwr_n = v->slwr_no;
	p->sloe_n = v->sloe_no;
	p->pktend_n = v->pktend_no;
	p->fifoadr = v->fifoadr_o;
}

void wgtop_cycle(struct wgtop *t, const struct wgtop_fx2_in *in)
{
	Vwg_board_top *v = t->top;

	t->n.cycles++;
	if (t->force > 0) {
		t->force--;
	} else if (t->still && same_in(*in, t->last) && !t->opts.no_skip) {
		t->n.skipped++;
		return;
	}
	t->last = *in;
	v->fd_i = in->fd;
	v->flaga_ni = in->flaga_n != 0;
	v->flagb_ni = in->flagb_n != 0;
	v->fx2_rst_ni = in->rst_n != 0;
	v->ifclk_i = 0;
	v->eval();
	dump(t);
	// idle_o says what the coming edge does with these inputs.
	t->still = v->idle_o;
	t->waiting = v->wait_o;
	v->ifclk_i = 1;
	v->eval();
	dump(t);
}

int wgtop_idle(const struct wgtop *t)
{
	return t->still || t->top->idle_o;
}

int wgtop_waiting(const struct wgtop *t)
{
	return t->waiting || t->top->wait_o;
}

void wgtop_stop_on_wait(struct wgtop *t, int on)
{
	t->stop_on_wait = on != 0;
}

unsigned wgtop_leds(const struct wgtop *t)
{
	return t->top->led_o;
}

int wgtop_run_fx2(struct wgtop *t, struct fx2_model *m, int rst_n, uint64_t max, uint64_t *ran)
{
	uint64_t i;
	int idle = 0;

	for (i = 0; i < max; i++) {
		struct fx2_pins p;
		struct wgtop_fx2_in in;

		wgtop_fx2_out(t, &p);
		in.fd = fx2_fd(m, &p);
		in.flaga_n = fx2_flaga_n(m);
		in.flagb_n = fx2_flagb_n(m);
		in.rst_n = rst_n;
		if (t->force == 0 && t->still && same_in(in, t->last) && !t->opts.no_skip && !in.flaga_n) {
			idle = 1; // the top holds still and EP2 is empty: only the USB side can change that
			break;
		}
		if (t->stop_on_wait && t->force == 0 && t->waiting && same_in(in, t->last) && !in.flaga_n) {
			idle = 2; // only the link's timers run: the host is to speak next
			break;
		}
		wgtop_cycle(t, &in);
		fx2_edge(m, &p); // both sides sample at the same edge
	}
	if (ran)
		*ran = i;
	return idle;
}

int wgtop_jtag(struct wgtop *t, int tck, int tms, int tdi, int trst_n)
{
	Vwg_board_top *v = t->top;

	v->tck_i = tck != 0;
	v->tms_i = tms != 0;
	v->tdi_i = tdi != 0;
	v->trst_ni = trst_n != 0;
	v->eval();
	t->still = false; // a JTAG command may be under way in the IFCLK domain
	t->waiting = false;
	t->force = kJtagSyncCycles;
	return v->tdo_oe_o ? (int)v->tdo_o : -1;
}

void wgtop_counts(const struct wgtop *t, struct wgtop_counts *c)
{
	*c = t->n;
}

} // extern "C"
