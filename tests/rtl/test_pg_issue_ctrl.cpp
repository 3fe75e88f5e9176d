// test_pg_issue_ctrl: wg_pg_issue_ctrl (docs/power-gating.md section 3.2), 2 SIMD units of
// 16 lanes (32 ALU lanes).
//
//   directed:  every transition of the 4-state machine with hand-worked utilisation figures
//              at the boundaries (exactly 75 %, 60 %, 50 %, 40 %, 25 %, 20 % and one busy
//              lane-cycle below), the unit modes and lanes in use of each state, restart,
//              issue control off, run-time thresholds and slice lengths (0 counts as 1);
//   random:    random busy lanes, slice lengths and thresholds against a reference model of
//              the rule, every cycle: state, modes, lanes in use, last slice's utilisation;
//   counters:  cycles per state and state changes equal the model's, and clear_i zeroes them.
#include "Vwg_pg_issue_ctrl.h"
#include "harness.h"

namespace {

using H = wg::Harness<Vwg_pg_issue_ctrl>;
constexpr unsigned LANES = 32;

struct Model {
	unsigned state = 0, cyc = 0;
	uint64_t acc = 0, util = 0, st[4] = {}, chg = 0;

	// One cycle, by docs/power-gating.md section 3.2.
	void step(bool en, bool restart, unsigned slice, const unsigned *down, const unsigned *up, unsigned busy)
	{
		unsigned len = slice ? slice : 1;
		uint64_t total = acc + busy;
		bool end = cyc + 1 >= len;
		auto ge = [&](unsigned pct) { return total * 100 >= (uint64_t)pct * len * LANES; };
		unsigned next = state;

		st[state]++;
		if (!en || restart) {
			next = 0;
		} else if (end) {
			unsigned band = ge(down[0]) ? 0 : ge(down[1]) ? 1 : ge(down[2]) ? 2 : 3;
			if (band > state)
				next = band;
			else if (state > 0 && ge(up[state - 1]))
				next = state - 1;
		}
		if (next != state)
			chg++;
		if (restart || end) {
			cyc = 0;
			acc = 0;
		} else {
			cyc++;
			acc = total;
		}
		if (end && !restart)
			util = total;
		state = next;
	}
};

struct Bench {
	H &h;
	Model m;
	unsigned slice = 100;
	unsigned down[3] = { 75, 50, 25 };
	unsigned up[3] = { 60, 40, 20 };
	bool en = true;

	explicit Bench(H &hh) : h(hh) {}

	void apply()
	{
		auto *t = h.top;
		t->en_i = en;
		t->slice_cycles_i = slice;
		t->down_pct_i = down[0] | down[1] << 8 | down[2] << 16;
		t->up_pct_i = up[0] | up[1] << 8 | up[2] << 16;
	}

	// One cycle with `busy` lanes (the lowest ones) computing.
	void cycle(unsigned busy, bool restart = false)
	{
		auto *t = h.top;
		apply();
		t->busy_i = busy >= 32 ? 0xffffffffu : (1u << busy) - 1;
		t->restart_i = restart;
		t->clear_i = 0;
		h.tick();
		m.step(en, restart, slice, down, up, busy);
		t->restart_i = 0;
	}

	// A whole slice with n busy lane-cycles, spread evenly: n / len lanes in every cycle,
	// one more in the first n % len cycles.
	void slice_with(uint64_t n)
	{
		unsigned len = slice ? slice : 1;
		for (unsigned c = 0; c < len; c++)
			cycle(static_cast<unsigned>(n / len + (c < n % len ? 1 : 0)));
	}

	void restart() { cycle(0, true); }
};

// Expected unit modes and lanes in use per state (split_o, unit_on_o: bit u = unit u).
struct Modes {
	unsigned split, unit_on;
	uint32_t in_use;
};
constexpr Modes MODES[4] = {
	{ 0, 3, 0xffffffffu }, // S1: both units, all 32 lanes
	{ 2, 3, 0x00ffffffu }, // S2: unit 1 split: its lanes 0..7 (bits 16..23)
	{ 0, 1, 0x0000ffffu }, // S3: unit 0 only
	{ 1, 1, 0x000000ffu }, // S4: unit 0 split: lanes 0..7
};

void check_state(H &h, unsigned want, const char *what)
{
	auto *t = h.top;
	h.eval();
	CHECK(h, t->state_o == want, "%s: state S%u, want S%u", what, t->state_o + 1, want + 1);
	CHECK(h, t->split_o == MODES[want].split && t->unit_on_o == MODES[want].unit_on &&
	                 t->in_use_o == MODES[want].in_use,
	      "%s: modes of S%u: split %x unit_on %x in_use %08x", what, want + 1, t->split_o, t->unit_on_o,
	      t->in_use_o);
}

void check_counters(H &h, const Model &m, const char *what)
{
	auto *t = h.top;
	for (unsigned s = 0; s < 4; s++) {
		uint64_t v = 0;
		for (unsigned b = 0; b < 48; b++) {
			unsigned bit = s * 48 + b;
			v |= static_cast<uint64_t>(t->cnt_state_o[bit / 32] >> (bit % 32) & 1) << b;
		}
		CHECK(h, v == m.st[s], "%s: cycles in S%u %llu, want %llu", what, s + 1, (unsigned long long)v,
		      (unsigned long long)m.st[s]);
	}
	CHECK(h, t->cnt_changes_o == m.chg, "%s: state changes %llu, want %llu", what,
	      (unsigned long long)t->cnt_changes_o, (unsigned long long)m.chg);
}

void directed(H &h, Bench &b)
{
	// Slice T = 100 cycles of 32 lanes: 3200 lane-cycles; 1 % = 32 lane-cycles.
	b.restart();
	check_state(h, 0, "after restart");

	// S1, U = 2400 / 3200 = 75 % exactly: band S1, stays.
	b.slice_with(2400);
	check_state(h, 0, "S1 at 75 %");
	CHECK(h, h.top->util_o == 2400, "util_o %u, want 2400", h.top->util_o);
	// S1, U = 2399 / 3200 = 74.97 %: band [50, 75) -> S2.
	b.slice_with(2399);
	check_state(h, 1, "S1 at 74.97 %");
	// S2, U = 1919 / 3200 = 59.97 %: band S2, below the up threshold 60: stays.
	b.slice_with(1919);
	check_state(h, 1, "S2 at 59.97 %");
	// S2, U = 1920 / 3200 = 60 % exactly: up -> S1.
	b.slice_with(1920);
	check_state(h, 0, "S2 at 60 %");
	// S1, U = 1599 / 3200 = 49.97 %: band [25, 50) -> S3 directly.
	b.slice_with(1599);
	check_state(h, 2, "S1 at 49.97 %");
	// S3, U = 1279 / 3200 = 39.97 %: stays (up at 40).
	b.slice_with(1279);
	check_state(h, 2, "S3 at 39.97 %");
	// S3, U = 1280 / 3200 = 40 % exactly: up -> S2.
	b.slice_with(1280);
	check_state(h, 1, "S3 at 40 %");
	// S2, U = 1600 / 3200 = 50 % exactly: band S2, 50 < 60: stays.
	b.slice_with(1600);
	check_state(h, 1, "S2 at 50 %");
	// S2, U = 1599 / 3200 = 49.97 %: band S3 -> S3.
	b.slice_with(1599);
	check_state(h, 2, "S2 at 49.97 %");
	// S3, U = 800 / 3200 = 25 % exactly: band S3, 25 < 40: stays.
	b.slice_with(800);
	check_state(h, 2, "S3 at 25 %");
	// S3, U = 799 / 3200 = 24.97 %: band S4 -> S4.
	b.slice_with(799);
	check_state(h, 3, "S3 at 24.97 %");
	// S4, U = 639 / 3200 = 19.97 %: stays (up at 20).
	b.slice_with(639);
	check_state(h, 3, "S4 at 19.97 %");
	// S4, U = 640 / 3200 = 20 % exactly: up -> S3.
	b.slice_with(640);
	check_state(h, 2, "S4 at 20 %");
	// S3 -> S4 with nothing busy, then S4 at 100 %: one state up only (S3), then S2, S1.
	b.slice_with(0);
	check_state(h, 3, "S3 at 0 %");
	b.slice_with(3200);
	check_state(h, 2, "S4 at 100 %");
	b.slice_with(3200);
	check_state(h, 1, "S3 at 100 %");
	b.slice_with(3200);
	check_state(h, 0, "S2 at 100 %");
	// S1 -> S4 directly at 0 %; S2 -> S4 directly: S1 at 60 % -> S2, then 24.97 % -> S4.
	b.slice_with(0);
	check_state(h, 3, "S1 at 0 %");
	b.slice_with(3200);
	b.slice_with(3200);
	b.slice_with(3200);
	check_state(h, 0, "back to S1");
	b.slice_with(1920);
	check_state(h, 1, "S1 at 60 %");
	b.slice_with(799);
	check_state(h, 3, "S2 at 24.97 %");

	// The decision takes effect in the cycle after the slice's last cycle only.
	b.slice_with(3200);
	check_state(h, 2, "S4 at 100 %");
	for (int i = 0; i < 99; i++) {
		b.cycle(32);
		check_state(h, 2, "inside a slice");
	}
	b.cycle(32);
	check_state(h, 1, "after the 100th cycle");

	// Restart in the middle of a slice: S1 at once, and a new slice starts: 50 cycles at
	// 32 lanes before it count nothing; the next 100 at 16 lanes give exactly 50 %: S2.
	for (int i = 0; i < 50; i++)
		b.cycle(32);
	b.restart();
	check_state(h, 0, "restart");
	b.slice_with(1600);
	check_state(h, 1, "S1 at 50 % after restart");

	// Issue control off: S1 in the next cycle, and it stays whatever U is.
	b.en = false;
	b.cycle(0);
	check_state(h, 0, "off");
	b.slice_with(0);
	b.slice_with(0);
	check_state(h, 0, "off at 0 %");
	CHECK(h, h.top->util_o == 0, "util_o measured while off: %u", h.top->util_o);
	b.en = true;
	b.restart();

	// Run-time thresholds: down 80/60/30, up 70/50/25. 80 % of 3200 = 2560.
	b.down[0] = 80; b.down[1] = 60; b.down[2] = 30;
	b.up[0] = 70; b.up[1] = 50; b.up[2] = 25;
	b.slice_with(2560);
	check_state(h, 0, "S1 at 80 % (floor 80)");
	b.slice_with(2559);
	check_state(h, 1, "S1 at 79.97 % (floor 80)");
	b.slice_with(2239); // 69.97 %: below up 70
	check_state(h, 1, "S2 at 69.97 % (up 70)");
	b.slice_with(1919); // 59.97 %: band [30, 60) -> S3
	check_state(h, 2, "S2 at 59.97 % (floor 60)");
	b.slice_with(959);  // 29.97 %: band S4
	check_state(h, 3, "S3 at 29.97 % (floor 30)");
	b.slice_with(800);  // 25 % exactly: up 25 -> S3
	check_state(h, 2, "S4 at 25 % (up 25)");
	b.down[0] = 75; b.down[1] = 50; b.down[2] = 25;
	b.up[0] = 60; b.up[1] = 40; b.up[2] = 20;

	// Slice length 10: 320 lane-cycles; 239 = 74.69 % -> S2 from S1.
	b.restart();
	b.slice = 10;
	b.slice_with(239);
	check_state(h, 1, "T = 10 at 74.69 %");
	// Slice length 0 counts as 1: every cycle is a slice; 32 lanes = 100 % -> S1.
	b.slice = 0;
	b.cycle(32);
	check_state(h, 0, "T = 0 (1) at 100 %");
	b.cycle(0);
	check_state(h, 3, "T = 0 (1) at 0 %");
	b.slice = 100;
	b.restart();
	check_counters(h, b.m, "directed");
}

void random_run(H &h, Bench &b)
{
	auto *t = h.top;
	unsigned level = 16;
	for (uint64_t i = 0; i < h.scaled(200000); i++) {
		if (h.rng() % 5000 == 0) {
			b.slice = static_cast<unsigned>(h.rng() % 6 == 0 ? h.rng() % 4 : 20 + h.rng() % 200);
			unsigned d2 = h.rng() % 40, d1 = d2 + h.rng() % 40, d0 = d1 + h.rng() % 40;
			b.down[0] = d0; b.down[1] = d1; b.down[2] = d2;
			for (auto &u : b.up)
				u = static_cast<unsigned>(h.rng() % 101);
		}
		if (h.rng() % 300 == 0)
			level = static_cast<unsigned>(h.rng() % 33);
		unsigned busy = level;
		if (h.rng() % 4 == 0)
			busy = static_cast<unsigned>(h.rng() % 33);
		b.en = h.rng() % 20000 != 0;
		b.cycle(busy, h.rng() % 50000 == 0);
		h.eval();
		unsigned s = b.m.state;
		if (!CHECK(h, t->state_o == s && t->split_o == MODES[s].split && t->unit_on_o == MODES[s].unit_on &&
		                      t->in_use_o == MODES[s].in_use && t->util_o == b.m.util,
		           "random: state S%u util %u, model S%u util %llu", t->state_o + 1, t->util_o, s + 1,
		           (unsigned long long)b.m.util))
			return;
	}
	check_counters(h, b.m, "random");
	uint64_t visited = 0;
	for (auto c : b.m.st)
		visited += c != 0;
	CHECK(h, visited == 4 && b.m.chg > 100, "random run visits every state (%llu) and changes often (%llu)",
	      (unsigned long long)visited, (unsigned long long)b.m.chg);

	// clear_i zeroes the counters.
	t->clear_i = 1;
	h.tick();
	t->clear_i = 0;
	b.m = Model();
	b.m.state = t->state_o;
	check_counters(h, b.m, "after clear");
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_pg_issue_ctrl");
	h.also_clock = [&h](int v) { h.top->clk_pg_i = v; }; // every edge of clk_i (wg_pg_issue_ctrl)
	Bench b(h);
	auto *t = h.top;

	b.apply();
	t->busy_i = 0;
	t->restart_i = 0;
	t->clear_i = 0;
	h.reset();
	check_state(h, 0, "reset");
	check_counters(h, b.m, "reset");

	directed(h, b);
	Bench r(h);
	r.m.state = t->state_o;
	// The counters keep counting across phases: carry them over.
	for (unsigned s = 0; s < 4; s++)
		r.m.st[s] = b.m.st[s];
	r.m.chg = b.m.chg;
	r.m.cyc = b.m.cyc;
	r.m.acc = b.m.acc;
	r.m.util = b.m.util;
	random_run(h, r);
	return h.finish();
}
