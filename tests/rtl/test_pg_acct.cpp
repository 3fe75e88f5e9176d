// test_pg_acct: wg_pg_acct (docs/power-gating.md section 4) against a reference model of
// lane states, gating events and idle intervals. PG_LANES, PG_BINS from sim/pg.mk.
//
//   directed:   hand-worked intervals of two lanes (close, events, over-length, en gaps);
//   simd:       lanes moving in groups like the lanes of SIMD units (active at least the two
//               passes of a warp instruction; divergence switching random lanes off), 200k
//               cycles: per-lane counters and every histogram bin exact, nothing lost;
//   stress:     every lane toggling on its own every few cycles: intervals are lost, and
//               recorded + lost = all intervals, counters still exact;
//   clear:      clear_i in the middle of a run zeroes every counter and bin;
//   readout:    the bins read with clk_rd_i edges alone (clk_i off, as wg_gpu reads a page)
//               equal the model's, and nothing else moves while clk_i is off;
//   sweep:      after a clear, the sweep runs on clk_pg_i edges alone (clk_i off, as wg_gpu
//               sweeps an idle SM's histograms): ready_o rises after exactly PG_BINS of them,
//               every bin is 0, and those edges (and more after the sweep) count nothing,
//               with en_i high and lanes changing state; counting on clk_i then resumes
//               from 0 and is exact.
#include "Vwg_pg_acct.h"
#include "harness.h"

#include <vector>

#ifndef PG_LANES
#define PG_LANES 32
#endif
#ifndef PG_BINS
#define PG_BINS 1024
#endif

namespace {

constexpr unsigned L = PG_LANES;
static_assert(L <= 32, "state_i is driven as one 64-bit word");
constexpr unsigned BINS = PG_BINS;
// bits of rd_lane_i (LIDX_W of the RTL)
constexpr unsigned LIDX_BITS = L > 1 ? 32 - __builtin_clz(L - 1) : 1;
using H = wg::Harness<Vwg_pg_acct>;
enum { ACTIVE = 0, IDLE = 1, SLEEP = 2, WAKE = 3 };

struct Model {
	uint64_t cnt[L][4] = {};
	uint64_t events[L] = {};
	unsigned prev[L] = {};
	uint64_t len[L] = {};
	std::vector<uint64_t> hist = std::vector<uint64_t>(BINS + 1, 0);
	uint64_t over_count = 0, over_sum = 0, intervals = 0;

	void end(uint64_t n)
	{
		intervals++;
		if (n <= BINS) {
			hist[n]++;
		} else {
			over_count++;
			over_sum += n;
		}
	}
	void step(bool en, const unsigned *st, bool close)
	{
		for (unsigned l = 0; l < L; l++) {
			if (en) {
				cnt[l][st[l]]++;
				if (prev[l] == IDLE && st[l] == SLEEP)
					events[l]++;
				prev[l] = st[l];
				if (st[l] == ACTIVE) {
					if (len[l])
						end(len[l]);
					len[l] = 0;
				} else {
					len[l]++;
				}
			}
			if (close && len[l]) {
				end(len[l]);
				len[l] = 0;
			}
		}
	}
};

uint64_t lane_word(const VlWide<(L * 48 + 31) / 32> &w, unsigned l)
{
	uint64_t v = 0;
	for (unsigned b = 0; b < 48; b++) {
		unsigned bit = l * 48 + b;
		v |= static_cast<uint64_t>(w[bit / 32] >> (bit % 32) & 1) << b;
	}
	return v;
}

void drive(H &h, Model &m, bool en, const unsigned *st, bool close)
{
	auto *t = h.top;
	uint64_t v = 0;
	for (unsigned l = 0; l < L; l++)
		v |= static_cast<uint64_t>(st[l]) << (2 * l);
	t->state_i = v;
	t->en_i = en;
	t->close_i = close;
	t->clear_i = 0;
	h.tick();
	m.step(en, st, close);
}

void wait_idle(H &h)
{
	auto *t = h.top;
	t->en_i = 0;
	t->close_i = 0;
	t->clear_i = 0;
	t->hist_re_i = 0;
	CHECK(h, h.wait_until([&] { return !t->busy_o; }, 5 * L + 2 * BINS + 10), "busy_o stays high");
}

// One edge with clk_i held low: of clk_rd_i alone (with_pg false: as wg_gpu reads a histogram
// page), or of clk_pg_i with clk_rd_i, which has all its edges (as wg_gpu clocks an idle SM's
// sweep).
void side_edge(H &h, bool with_pg)
{
	auto *t = h.top;
	t->clk_i = 0;
	t->clk_pg_i = 0;
	t->clk_rd_i = 0;
	h.eval();
	t->clk_pg_i = with_pg;
	t->clk_rd_i = 1;
	h.eval();
	t->clk_pg_i = 0;
	t->clk_rd_i = 0;
	h.eval();
}

void rd_edge(H &h) { side_edge(h, false); }
void pg_edge(H &h) { side_edge(h, true); }

// Every bin, read with whole clock cycles or, with rd_clock_only, with clk_rd_i edges alone.
std::vector<uint64_t> read_hist(H &h, bool rd_clock_only = false)
{
	auto *t = h.top;
	std::vector<uint64_t> bins(BINS + 1, 0);
	wait_idle(h);
	for (unsigned a = 0; a < BINS; a++) {
		t->hist_re_i = 1;
		t->hist_raddr_i = a;
		if (rd_clock_only)
			rd_edge(h);
		else
			h.tick();
		bins[a + 1] = t->hist_rdata_o; // address a holds bin a + 1
	}
	t->hist_re_i = 0;
	h.eval();
	return bins;
}

void check_counters(H &h, const Model &m, const char *phase)
{
	auto *t = h.top;
	h.eval();
	for (unsigned l = 0; l < L; l++) {
		CHECK(h, lane_word(t->active_o, l) == m.cnt[l][ACTIVE], "%s: lane %u active %llu expected %llu", phase, l,
		      (unsigned long long)lane_word(t->active_o, l), (unsigned long long)m.cnt[l][ACTIVE]);
		CHECK(h, lane_word(t->idle_o, l) == m.cnt[l][IDLE], "%s: lane %u idle", phase, l);
		CHECK(h, lane_word(t->sleep_o, l) == m.cnt[l][SLEEP], "%s: lane %u sleep", phase, l);
		CHECK(h, lane_word(t->wake_o, l) == m.cnt[l][WAKE], "%s: lane %u wake", phase, l);
		CHECK(h, lane_word(t->events_o, l) == m.events[l], "%s: lane %u events %llu expected %llu", phase, l,
		      (unsigned long long)lane_word(t->events_o, l), (unsigned long long)m.events[l]);
	}
	// The read port (combinational, what the SM reads): every lane's five counters, and 0 for
	// k 5..7 and for a lane past the last (where rd_lane_i can name one); nothing when rd_re_i
	// is low.
	for (unsigned l = 0; l <= L && l < (1u << LIDX_BITS); l++) {
		for (unsigned k = 0; k < 8; k++) {
			t->rd_re_i = 1;
			t->rd_lane_i = l;
			t->rd_k_i = k;
			h.eval();
			uint64_t want = 0;
			if (l < L)
				want = k < 4 ? m.cnt[l][k] : k == 4 ? m.events[l] : 0;
			CHECK(h, t->rd_data_o == want, "%s: read port lane %u k %u: %llu expected %llu", phase, l, k,
			      (unsigned long long)t->rd_data_o, (unsigned long long)want);
		}
	}
	t->rd_lane_i = 0;
	t->rd_k_i = 0;
	t->rd_re_i = 0;
	h.eval();
	CHECK(h, t->rd_data_o == 0, "%s: read port without rd_re_i reads %llu", phase, (unsigned long long)t->rd_data_o);
}

// Histogram exactly equal to the model's (nothing may be lost).
// Every bin, and the over / lost counts, equal the model's; the bins read with whole cycles or,
// with rd_clock_only, with clk_rd_i edges alone.
void check_hist_exact(H &h, const Model &m, const char *phase, bool rd_clock_only = false)
{
	std::vector<uint64_t> bins = read_hist(h, rd_clock_only);
	auto *t = h.top;
	unsigned bad = 0;
	CHECK(h, t->lost_o == 0, "%s: %llu intervals lost", phase, (unsigned long long)t->lost_o);
	for (unsigned b = 1; b <= BINS; b++) {
		if (bins[b] != m.hist[b] && bad++ < 5)
			CHECK(h, false, "%s: bin %u holds %llu, expected %llu", phase, b, (unsigned long long)bins[b],
			      (unsigned long long)m.hist[b]);
	}
	CHECK(h, bad == 0, "%s: %u bins differ", phase, bad);
	CHECK(h, t->over_count_o == m.over_count, "%s: over_count %llu expected %llu", phase,
	      (unsigned long long)t->over_count_o, (unsigned long long)m.over_count);
	CHECK(h, t->over_sum_o == m.over_sum, "%s: over_sum %llu expected %llu", phase,
	      (unsigned long long)t->over_sum_o, (unsigned long long)m.over_sum);
}

// Bins of the model that hold intervals.
unsigned bins_used(const Model &m)
{
	unsigned n = 0;
	for (unsigned b = 1; b <= BINS; b++)
		n += m.hist[b] != 0;
	return n;
}

// Every interval recorded in a bin, over the bins, or counted lost.
void check_conserved(H &h, const Model &m, const char *phase)
{
	std::vector<uint64_t> bins = read_hist(h);
	auto *t = h.top;
	uint64_t recorded = t->over_count_o;
	for (unsigned b = 1; b <= BINS; b++)
		recorded += bins[b];
	CHECK(h, recorded + t->lost_o == m.intervals, "%s: %llu recorded + %llu lost != %llu intervals", phase,
	      (unsigned long long)recorded, (unsigned long long)t->lost_o, (unsigned long long)m.intervals);
}

void reset(H &h)
{
	auto *t = h.top;
	t->en_i = 0;
	t->close_i = 0;
	t->clear_i = 0;
	t->hist_re_i = 0;
	h.reset();
	wait_idle(h); // the reset sweep of the histogram RAM
}

void directed(H &h)
{
	Model m;
	unsigned st[L];
	reset(h);
	auto run = [&](unsigned n, unsigned s0, unsigned s1, bool en = true, bool close = false) {
		for (unsigned i = 0; i < n; i++) {
			for (unsigned l = 0; l < L; l++)
				st[l] = ACTIVE;
			st[0] = s0;
			if (L > 1)
				st[1] = s1;
			drive(h, m, en, st, close && i == n - 1);
		}
	};
	// Lane 0: 3 active, 5 idle, 1 active -> one interval of 5.
	// Lane 1: 2 active, 2 idle, 3 sleep (one event), 1 wake, 1 active -> one interval of 6.
	run(2, ACTIVE, ACTIVE);
	run(1, ACTIVE, IDLE);
	run(1, IDLE, IDLE);
	run(3, IDLE, SLEEP);
	run(1, IDLE, WAKE);
	run(1, ACTIVE, ACTIVE);
	// en low: nothing counts, intervals do not grow.
	run(4, IDLE, SLEEP, false);
	// Lane 0 idle 1500 cycles with a close at the end: one interval over the bins.
	run(1500, IDLE, ACTIVE, true, true);
	// Lane 0 continues idle after the close: a new interval of 2, closed by activity.
	run(2, IDLE, ACTIVE);
	run(1, ACTIVE, ACTIVE);
	CHECK(h, m.hist[5] == 1 && m.hist[6] == 1 && m.hist[2] == 1, "model: bins 5, 6, 2");
	CHECK(h, m.over_count == 1 && m.over_sum == 1500, "model: 1500 over the bins");
	CHECK(h, m.events[1] == 1, "model: lane 1 gated once");
	check_counters(h, m, "directed");
	check_hist_exact(h, m, "directed");
}

void simd(H &h)
{
	Model m;
	unsigned st[L], group_state[2] = { ACTIVE, ACTIVE }, group_left[2] = { 1, 1 };
	uint32_t diverge[2] = { 0, 0 };
	reset(h);
	uint64_t n = h.scaled(200000);
	for (uint64_t c = 0; c < n; c++) {
		for (unsigned g = 0; g < 2; g++) {
			if (--group_left[g] == 0) {
				unsigned r = h.rng() % 100;
				if (group_state[g] == ACTIVE)
					group_state[g] = r < 60 ? IDLE : SLEEP;
				else
					group_state[g] = ACTIVE;
				// Runs from 1 to ~2000 cycles, most short.
				unsigned scale = (h.rng() % 8 == 0) ? 2000 : (h.rng() % 2 ? 40 : 4);
				group_left[g] = 1 + h.rng() % scale;
				// A warp instruction occupies a 16-lane unit for two passes.
				if (group_state[g] == ACTIVE && group_left[g] < 2)
					group_left[g] = 2;
				// A divergent stretch switches a random half of the group's lanes off.
				diverge[g] = (h.rng() % 4 == 0) ? static_cast<uint32_t>(h.rng()) : 0;
			}
		}
		for (unsigned l = 0; l < L; l++) {
			unsigned g = l < L / 2 ? 0 : 1;
			st[l] = group_state[g];
			if (st[l] == ACTIVE && (diverge[g] >> (l % 32) & 1))
				st[l] = IDLE;
			if (st[l] == SLEEP && group_left[g] <= 3)
				st[l] = WAKE; // the last cycles of a sleep are the wake-up
		}
		bool en = h.rng() % 10 != 0;
		bool close = h.rng() % 20000 == 0;
		drive(h, m, en, st, close);
	}
	// Close everything: the tail intervals count.
	for (unsigned l = 0; l < L; l++)
		st[l] = IDLE;
	drive(h, m, false, st, true);
	check_counters(h, m, "simd");
	CHECK(h, m.intervals > 1000, "simd: only %llu intervals", (unsigned long long)m.intervals);
	h.eval();
	uint64_t lost = h.top->lost_o;
	std::printf("  simd: %llu intervals, %llu lost\n", (unsigned long long)m.intervals, (unsigned long long)lost);
	if (lost == 0) {
		check_hist_exact(h, m, "simd");
	} else {
		// Bursts of many different lengths can still overrun the two slots of a lane
		// (rarely, at this traffic): then every interval is recorded or counted lost.
		check_conserved(h, m, "simd");
		CHECK(h, lost * 2000 < m.intervals, "simd: %llu of %llu intervals lost", (unsigned long long)lost,
		      (unsigned long long)m.intervals);
	}
}

void stress(H &h)
{
	Model m;
	unsigned st[L];
	reset(h);
	uint64_t n = h.scaled(50000);
	for (uint64_t c = 0; c < n; c++) {
		for (unsigned l = 0; l < L; l++)
			st[l] = (h.rng() % 3 == 0) ? ACTIVE : static_cast<unsigned>(1 + h.rng() % 3);
		drive(h, m, true, st, false);
	}
	for (unsigned l = 0; l < L; l++)
		st[l] = IDLE;
	drive(h, m, false, st, true);
	check_counters(h, m, "stress");
	check_conserved(h, m, "stress");
	auto *t = h.top;
	if (L > 2)
		CHECK(h, t->lost_o > 0, "stress: expected lost intervals with %u lanes toggling independently", L);
	std::printf("  stress: %llu intervals, %llu lost (%.1f%%)\n", (unsigned long long)m.intervals,
		    (unsigned long long)t->lost_o, 100.0 * t->lost_o / (m.intervals ? m.intervals : 1));
}

void clear(H &h)
{
	Model m;
	unsigned st[L];
	reset(h);
	for (unsigned c = 0; c < 3000; c++) {
		for (unsigned l = 0; l < L; l++)
			st[l] = (c / (7 + l)) % 2 ? IDLE : ACTIVE;
		drive(h, m, true, st, false);
	}
	auto *t = h.top;
	t->clear_i = 1;
	h.tick();
	t->clear_i = 0;
	Model z; // after clear: everything 0 (open intervals dropped too)
	wait_idle(h);
	check_counters(h, z, "after clear");
	check_hist_exact(h, z, "after clear");
	// Counting resumes from zero.
	for (unsigned c = 0; c < 2000; c++) {
		for (unsigned l = 0; l < L; l++)
			st[l] = (c / (3 + l / 4)) % 2 ? SLEEP : ACTIVE; // 4 lanes per period
		drive(h, z, true, st, c == 1999);
	}
	check_counters(h, z, "after clear, counting again");
	check_hist_exact(h, z, "after clear, counting again");
}

void readout(H &h)
{
	Model m;
	unsigned st[L];
	reset(h);
	for (unsigned c = 0; c < 4000; c++) {
		for (unsigned l = 0; l < L; l++)
			st[l] = (c / (5 + l % 7)) % 3 ? IDLE : ((c / 11) % 2 ? SLEEP : ACTIVE);
		drive(h, m, true, st, c == 3999);
	}
	auto *t = h.top;
	check_hist_exact(h, m, "readout: read with clk_rd_i alone", true);
	unsigned nonzero = bins_used(m);
	CHECK(h, nonzero >= 3, "readout: only %u bins hold intervals: the phase tests nothing", nonzero);
	// clk_i off: lanes changing state with en_i high move nothing, however many read edges.
	t->en_i = 1;
	for (unsigned i = 0; i < 64; i++) {
		t->state_i = (i & 1) ? ~0ull : 0;
		t->hist_re_i = 1;
		t->hist_raddr_i = i % BINS;
		rd_edge(h);
	}
	t->en_i = 0;
	t->hist_re_i = 0;
	check_counters(h, m, "readout: after read edges with clk_i off");
	check_hist_exact(h, m, "readout: after read edges with clk_i off");
}

void sweep(H &h)
{
	Model m;
	unsigned st[L];
	reset(h);
	for (unsigned c = 0; c < 3000; c++) {
		for (unsigned l = 0; l < L; l++)
			st[l] = (c / (4 + l % 5)) % 2 ? IDLE : ACTIVE;
		drive(h, m, true, st, c == 2999);
	}
	unsigned nonzero = bins_used(m);
	CHECK(h, nonzero >= 3, "sweep: only %u bins hold intervals: the phase tests nothing", nonzero);
	check_hist_exact(h, m, "sweep: before the clear");
	auto *t = h.top;
	// The clear: one whole cycle (an edge of every clock), as the SM's strobe.
	t->en_i = 0;
	t->clear_i = 1;
	h.tick();
	t->clear_i = 0;
	h.eval();
	CHECK(h, t->busy_o && !t->ready_o, "sweep: no sweep after clear_i");
	// The sweep on clk_pg_i edges alone; en_i high and lanes changing state: nothing counts.
	t->en_i = 1;
	unsigned edges = 0;
	while (!t->ready_o && edges < 2 * BINS) {
		t->state_i = (edges & 1) ? 0x5555555555555555ull : 0xAAAAAAAAAAAAAAAAull;
		pg_edge(h);
		edges++;
	}
	CHECK(h, edges == BINS, "sweep: ready_o after %u clk_pg_i edges, expected %u", edges, BINS);
	CHECK(h, !t->busy_o, "sweep: busy_o high after the sweep");
	// More clk_pg_i edges after the sweep (a power-gating clock edge without an SM edge) and
	// clk_rd_i edges: still nothing counts.
	for (unsigned i = 0; i < 40; i++) {
		t->state_i = (i & 1) ? ~0ull : 0;
		if (i % 2)
			pg_edge(h);
		else
			rd_edge(h);
	}
	t->en_i = 0;
	Model z;
	check_counters(h, z, "sweep: after clk_pg_i edges alone");
	check_hist_exact(h, z, "sweep: after the sweep, read with clk_rd_i alone", true);
	// Counting on clk_i resumes from 0.
	for (unsigned c = 0; c < 2000; c++) {
		for (unsigned l = 0; l < L; l++)
			st[l] = (c / (3 + l / 4)) % 2 ? SLEEP : ACTIVE;
		drive(h, z, true, st, c == 1999);
	}
	check_counters(h, z, "sweep: counting again");
	check_hist_exact(h, z, "sweep: counting again");
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_pg_acct", 50000000);
	h.also_clock = [&h](int v) {
		h.top->clk_pg_i = v;
		h.top->clk_rd_i = v;
	};
	directed(h);
	simd(h);
	stress(h);
	clear(h);
	readout(h);
	sweep(h);
	return h.finish();
}
