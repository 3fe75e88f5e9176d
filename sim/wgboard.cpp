// wgboard: the Verilated board core (rtl/wg_board_core.sv) behind the C API of sim/wgboard.h.
//
// Each link cycle: the oldest queued host byte is offered on the rx port, the model settles
// with the clock low, the handshakes are sampled (byte taken, byte sent, command taken, event
// taken, a report), then the clock rises. Once the core says it holds still (idle_o, with no
// byte offered), cycles are only counted until the next byte is queued: wg_board_core holds
// every register then, so skipping the evaluation is exact.
#include "wgboard.h"

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <cstring>
#include <deque>
#include <memory>
#include <new>
#include <vector>

#include "Vwg_board_core.h"

// Build-time parameters (sim/board.mk passes the same values to Verilator; the defaults are
// wg_board_core's).
#include "wggpu_params.h"

namespace {
constexpr int kEinval = -1; // WG_EINVAL
constexpr int kEnomem = -2; // WG_ENOMEM
#if !VM_TRACE_FST
constexpr int kEnotsup = -13; // WG_ENOTSUP
#endif
constexpr size_t kTxCap = 1u << 20; // bytes sent and not yet taken before the core waits
constexpr size_t kReports = 64;

uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
} // namespace

struct wgboard {
	std::unique_ptr<VerilatedContext> ctx;
	Vwg_board_core *top = nullptr;
#if VM_TRACE_FST
	VerilatedFstC *fst = nullptr;
#endif
	wgboard_opts opts{};
	std::vector<uint8_t> rx; // queued host bytes from rx_head on
	size_t rx_head = 0;
	std::deque<uint8_t> tx;
	std::deque<struct wgboard_report> reps;
	uint64_t rng = 1;
	struct wgboard_counts n{};
	bool still = false; // the last evaluated cycle left the core idle with no byte offered
};

static void dump(wgboard *b)
{
#if VM_TRACE_FST
	if (b->fst)
		b->fst->dump(b->ctx->time());
#endif
	b->ctx->timeInc(1);
}

static size_t rx_left(const wgboard *b)
{
	return b->rx.size() - b->rx_head;
}

static void sample(wgboard *b)
{
	Vwg_board_core *t = b->top;

	if (t->rx_valid_i && t->rx_ready_o) {
		b->rx_head++;
		b->n.rx_bytes++;
		if (b->rx_head == b->rx.size()) {
			b->rx.clear();
			b->rx_head = 0;
		} else if (b->rx_head >= 65536 && b->rx_head * 2 >= b->rx.size()) {
			b->rx.erase(b->rx.begin(), b->rx.begin() + (long)b->rx_head);
			b->rx_head = 0;
		}
	}
	if (t->tx_valid_o && t->tx_ready_i) {
		b->tx.push_back(t->tx_data_o);
		b->n.tx_bytes++;
	}
	if (t->cmd_fire_o)
		b->n.cmds++;
	if (t->ev_fire_o) {
		b->n.events++;
		b->n.events_by_kind[t->ev_kind_o & 7]++;
	}
	if (t->rep_valid_o) {
		struct wgboard_report r;
		r.code = t->rep_code_o;
		r.type = t->rep_type_o;
		r.seq = t->rep_seq_o;
		r.offset = t->rep_off_o;
		r.expected = t->rep_exp_o;
		r.actual = t->rep_act_o;
		b->n.reports[r.code % WGBOARD_REPORT_CODES]++;
		if (b->reps.size() < kReports)
			b->reps.push_back(r);
	}
}

static void link_cycle(wgboard *b)
{
	Vwg_board_core *t = b->top;
	bool left = rx_left(b) != 0;

	if (b->still && !left && !b->opts.no_skip) {
		b->n.link_cycles++;
		b->n.skipped++;
		return;
	}
	bool have = left && !(b->opts.rx_idle && splitmix(&b->rng) % 1000 < b->opts.rx_idle);
	bool room = b->tx.size() < kTxCap && !(b->opts.tx_idle && splitmix(&b->rng) % 1000 < b->opts.tx_idle);
	t->rx_valid_i = have;
	t->rx_data_i = have ? b->rx[b->rx_head] : 0;
	t->tx_ready_i = room;
	t->clk_i = 0;
	t->eval();
	dump(b);
	// idle_o says what the coming edge does with no byte offered.
	b->still = !left && t->idle_o && !t->tx_valid_o;
	sample(b);
	t->clk_i = 1;
	t->eval();
	dump(b);
	b->n.link_cycles++;
}

extern "C" {

int wgboard_create(struct wgboard **bp, const struct wgboard_opts *opts)
{
	if (!bp)
		return kEinval;
	wgboard *b = new (std::nothrow) wgboard;
	if (!b)
		return kEnomem;
	if (opts)
		b->opts = *opts;
	b->rng = b->opts.seed ? b->opts.seed : 1;
	b->ctx.reset(new VerilatedContext);
	b->ctx->debug(0);
	b->ctx->randReset(0);
	b->top = new Vwg_board_core(b->ctx.get(), "board");
	if (b->opts.trace_fst) {
#if VM_TRACE_FST
		b->ctx->traceEverOn(true);
		b->fst = new VerilatedFstC;
		b->top->trace(b->fst, 99);
		b->fst->open(b->opts.trace_fst);
#else
		delete b->top;
		delete b;
		return kEnotsup; // built without tracing: make board-lib GPU_TRACE=1
#endif
	}
	Vwg_board_core *t = b->top;
	t->rst_ni = 0;
	t->rx_valid_i = 0;
	t->rx_data_i = 0;
	t->tx_ready_i = 0;
	t->jcfg_valid_i = 0; // the debug port's kernel register writes: a board top's (wgtop)
	t->jcfg_addr_i = 0;
	t->jcfg_data_i = 0;
	for (int i = 0; i < 4; i++) {
		t->clk_i = 0;
		t->eval();
		dump(b);
		t->clk_i = 1;
		t->eval();
		dump(b);
	}
	t->rst_ni = 1;
	*bp = b;
	return 0;
}

void wgboard_destroy(struct wgboard *b)
{
	if (!b)
		return;
	b->top->final();
#if VM_TRACE_FST
	if (b->fst) {
		b->fst->close();
		delete b->fst;
	}
#endif
	delete b->top;
	delete b;
}

void wgboard_info(const struct wgboard *b, struct wggpu_info *info)
{
	(void)b;
	memset(info, 0, sizeof(*info));
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

int wgboard_rx(struct wgboard *b, const uint8_t *p, size_t n)
{
	if (!b || (!p && n))
		return kEinval;
	b->rx.insert(b->rx.end(), p, p + n);
	if (n)
		b->still = false;
	return 0;
}

size_t wgboard_rx_pending(const struct wgboard *b)
{
	return rx_left(b);
}

size_t wgboard_tx(struct wgboard *b, uint8_t *p, size_t n)
{
	size_t k = b->tx.size() < n ? b->tx.size() : n;

	std::copy(b->tx.begin(), b->tx.begin() + (long)k, p);
	b->tx.erase(b->tx.begin(), b->tx.begin() + (long)k);
	if (k)
		b->still = false; // tx_ready_i may have held the core
	return k;
}

size_t wgboard_tx_pending(const struct wgboard *b)
{
	return b->tx.size();
}

void wgboard_step(struct wgboard *b, uint64_t n)
{
	if (b->still && !rx_left(b) && !b->opts.no_skip) {
		b->n.link_cycles += n;
		b->n.skipped += n;
		return;
	}
	for (uint64_t i = 0; i < n; i++)
		link_cycle(b);
}

int wgboard_idle(const struct wgboard *b)
{
	Vwg_board_core *t = b->top;

	return !rx_left(b) && (b->still || (t->idle_o && !t->rx_valid_i && !t->tx_valid_o));
}

int wgboard_waiting(const struct wgboard *b)
{
	Vwg_board_core *t = b->top;

	return !rx_left(b) && (b->still || (t->wait_o && !t->rx_valid_i && !t->tx_valid_o));
}

int wgboard_run(struct wgboard *b, uint64_t max, int waits_too)
{
	for (uint64_t i = 0; i < max; i++) {
		if (wgboard_idle(b) || (waits_too && wgboard_waiting(b)))
			return 1;
		link_cycle(b);
	}
	return wgboard_idle(b) || (waits_too && wgboard_waiting(b));
}

int wgboard_up(const struct wgboard *b)
{
	return b->top->up_o;
}

int wgboard_failed(const struct wgboard *b)
{
	return b->top->failed_o;
}

int wgboard_report(struct wgboard *b, struct wgboard_report *r)
{
	if (b->reps.empty())
		return 0;
	*r = b->reps.front();
	b->reps.pop_front();
	return 1;
}

void wgboard_counts(const struct wgboard *b, struct wgboard_counts *c)
{
	*c = b->n;
}

uint64_t wgboard_cycle(const struct wgboard *b)
{
	return b->top->cycle_o;
}

uint64_t wgboard_grant(const struct wgboard *b)
{
	return b->top->grant_o;
}

int wgboard_error(const struct wgboard *b)
{
	return b->top->error_o;
}

} // extern "C"
