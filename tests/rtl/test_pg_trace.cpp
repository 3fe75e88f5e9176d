// test_pg_trace: wg_pg_trace (docs/power-gating.md section 7.2) against a C reference of the
// record encoding. PGT_LANES, PGT_QDEPTH from sim/rtl.mk.
//
//   directed:  a hand-worked window (START with every lane, changes, ISSUE, END at to),
//              a 48-bit START cycle and a gap split by ADVANCE records, the window closed
//              by counting stopping;
//   random:    random state streams (lanes moving in groups like SIMD units) with random
//              windows, counting gaps and window rewrites, the stream always drained: no
//              loss, and the records equal the reference's exactly;
//   full:      the same with the stream drained on a few cycles only and lanes changing
//              every cycle: records are lost; decoded, every traced cycle outside the
//              LOST .. SYNC/END spans shows the lanes' true states, every SYNC/END counts
//              exactly the records of its lost cycles, and lost_o is their sum.
#include "Vwg_pg_trace.h"
#include "harness.h"

#include <type_traits>
#include <vector>

#ifndef PGT_LANES
#define PGT_LANES 32
#endif
#ifndef PGT_QDEPTH
#define PGT_QDEPTH 4
#endif

namespace {

constexpr unsigned L = PGT_LANES;
constexpr unsigned NG = (L + 31) / 32;
constexpr uint64_t DMAX = 0xFFFFFF;
constexpr uint64_t NEVER = (1ull << 48) - 1;
using H = wg::Harness<Vwg_pg_trace>;
enum { ACTIVE = 0, IDLE = 1, SLEEP = 2, WAKE = 3 };
enum { T_LANES = 0, T_ISSUE = 1, T_ADVANCE = 2, T_START = 3, T_LOST = 4, T_SYNC = 5, T_END = 6 };

uint64_t rec(uint64_t delta, unsigned type, unsigned state = 0, unsigned group = 0, uint32_t payload = 0)
{
	return delta | (uint64_t)type << 24 | (uint64_t)state << 28 | (uint64_t)group << 30 | (uint64_t)payload << 32;
}

// One cycle as the block sees it.
struct Cyc {
	bool count;
	uint64_t cycle, from, to;
	unsigned st[L];
	unsigned iss;
	bool traced() const { return count && cycle >= from && cycle < to; }
};

// The reference encoder: the records of a stream of cycles when nothing is lost.
struct Enc {
	bool in = false;
	uint64_t last_t = 0;
	unsigned seen[L] = {};
	unsigned seen_iss = 0;
	std::vector<uint64_t> out;

	void emit(uint64_t t, unsigned type, unsigned state = 0, unsigned group = 0, uint32_t payload = 0)
	{
		uint64_t d = t - last_t;
		while (d > DMAX) {
			out.push_back(rec(DMAX, T_ADVANCE));
			d -= DMAX;
		}
		out.push_back(rec(d, type, state, group, payload));
		last_t = t;
	}
	// Records of the changes (every lane when full); returns their number, emits when asked.
	static unsigned changes(const unsigned *prev, unsigned prev_iss, const Cyc &c, bool full, Enc *e)
	{
		unsigned n = 0;
		for (unsigned g = 0; g < NG; g++)
			for (unsigned s = 0; s < 4; s++) {
				uint32_t m = 0;
				for (unsigned b = 0; b < 32 && g * 32 + b < L; b++) {
					unsigned l = g * 32 + b;
					if ((full || c.st[l] != prev[l]) && c.st[l] == s)
						m |= 1u << b;
				}
				if (m) {
					n++;
					if (e)
						e->emit(c.cycle, T_LANES, s, g, m);
				}
			}
		if (full || c.iss != prev_iss) {
			n++;
			if (e)
				e->emit(c.cycle, T_ISSUE, c.iss);
		}
		return n;
	}
	void step(const Cyc &c)
	{
		bool tr = c.traced();
		if (in && !tr) {
			emit(c.cycle, T_END);
			in = false;
		} else if (!in && tr) {
			out.push_back(rec(c.cycle >> 32 & 0xFFFF, T_START, 0, 0, (uint32_t)c.cycle));
			last_t = c.cycle;
			changes(seen, seen_iss, c, true, this);
			in = true;
		} else if (tr) {
			changes(seen, seen_iss, c, false, this);
		}
		if (tr) {
			for (unsigned l = 0; l < L; l++)
				seen[l] = c.st[l];
			seen_iss = c.iss;
		}
	}
};

template <class T>
void set_state(T &port, const unsigned *st)
{
	if constexpr (std::is_integral<T>::value) {
		uint64_t v = 0;
		for (unsigned l = 0; l < L; l++)
			v |= (uint64_t)st[l] << (2 * l);
		port = (T)v;
	} else {
		for (unsigned w = 0; w < (2 * L + 31) / 32; w++)
			port[w] = 0;
		for (unsigned l = 0; l < L; l++)
			port[2 * l / 32] |= (uint32_t)st[l] << (2 * l % 32);
	}
}

struct Bench {
	H &h;
	std::vector<Cyc> hist; // every cycle driven since the last reset
	std::vector<uint64_t> got;
	unsigned ready_pct = 100;

	explicit Bench(H &hh) : h(hh) {}

	void reset()
	{
		auto *t = h.top;
		t->count_i = 0;
		t->clear_i = 0;
		t->rec_ready_i = 1;
		t->from_i = 0;
		t->to_i = 0;
		h.reset();
		hist.clear();
		got.clear();
	}
	// One cycle: drive c, take a record when offered and ready.
	void step(const Cyc &c)
	{
		auto *t = h.top;
		t->count_i = c.count;
		t->cycle_i = c.cycle;
		t->from_i = c.from;
		t->to_i = c.to;
		set_state(t->state_i, c.st);
		t->issue_i = c.iss;
		t->rec_ready_i = ready_pct >= 100 || h.chance(ready_pct);
		h.eval();
		if (t->rec_valid_o && t->rec_ready_i)
			got.push_back(t->rec_o);
		h.tick();
		hist.push_back(c);
	}
	// Drain with counting off (the last cycle of hist repeated, not counted).
	void drain()
	{
		Cyc c = hist.empty() ? Cyc{} : hist.back();
		c.cycle += c.count; // the SM's window counter has moved past the last counted cycle
		c.count = false;
		unsigned saved = ready_pct;
		ready_pct = 100;
		for (int i = 0; i < 200; i++)
			step(c);
		ready_pct = saved;
		h.eval();
		CHECK(h, !h.top->busy_o && !h.top->rec_valid_o, "block still busy after draining");
	}
	std::vector<uint64_t> reference() const
	{
		Enc e;
		for (const Cyc &c : hist)
			e.step(c);
		return e.out;
	}
};

void check_equal(H &h, const std::vector<uint64_t> &got, const std::vector<uint64_t> &exp, const char *phase)
{
	CHECK(h, got.size() == exp.size(), "%s: %zu records, expected %zu", phase, got.size(), exp.size());
	for (size_t i = 0; i < got.size() && i < exp.size(); i++) {
		if (got[i] != exp[i]) {
			CHECK(h, false, "%s: record %zu is %016llx, expected %016llx", phase, i, (unsigned long long)got[i],
			      (unsigned long long)exp[i]);
			return;
		}
	}
}

Cyc idle_cyc(uint64_t cycle, uint64_t from, uint64_t to)
{
	Cyc c{};
	c.count = true;
	c.cycle = cycle;
	c.from = from;
	c.to = to;
	for (unsigned l = 0; l < L; l++)
		c.st[l] = IDLE;
	return c;
}

void directed(H &h)
{
	Bench b(h);
	b.reset();
	// Window [10, 30); every lane idle, issue S1; cycle 16 lanes 0..3 active; 18 lanes 0..3
	// idle and lane 5 asleep; 19 issue S3; 32 lane 0 active (after the window: no record).
	for (uint64_t c = 0; c < 35; c++) {
		Cyc x = idle_cyc(c, 10, 30);
		if (c >= 16 && c < 18)
			for (unsigned l = 0; l < 4; l++)
				x.st[l] = ACTIVE;
		if (c >= 18)
			x.st[5] = SLEEP;
		if (c >= 19)
			x.iss = 2;
		if (c >= 32)
			x.st[0] = ACTIVE;
		b.step(x);
	}
	b.drain();
	std::vector<uint64_t> exp;
	exp.push_back(10ull << 32 | 3u << 24); // START at 10: cycle bits 47:32 (0) in delta, 31:0 in payload
	for (unsigned g = 0; g < NG; g++) {    // every lane idle: one LANES record per group, delta 0
		unsigned n = L - 32 * g < 32 ? L - 32 * g : 32;
		uint32_t m = n == 32 ? 0xFFFFFFFFu : (1u << n) - 1;
		exp.push_back((uint64_t)m << 32 | (uint64_t)g << 30 | 1u << 28);
	}
	exp.push_back(1u << 24);                            // ISSUE S1, delta 0
	exp.push_back(0xFull << 32 | 6);                    // 16: lanes 0..3 active, delta 6
	exp.push_back(0xFull << 32 | 1u << 28 | 2);         // 18: lanes 0..3 idle, delta 2
	exp.push_back(0x20ull << 32 | 2u << 28);            //     lane 5 asleep, delta 0
	exp.push_back(2u << 28 | 1u << 24 | 1);             // 19: ISSUE S3, delta 1
	exp.push_back(6u << 24 | 11);                       // 30: END, delta 11, nothing lost
	check_equal(h, b.got, exp, "directed window");
	check_equal(h, b.got, b.reference(), "directed window (reference)");

	// A START at cycle 2^32 + 5 and a gap of 2^25 + 7 cycles: 2 x (2^24 - 1) = 33554430 in
	// two ADVANCE records, then lane 0's change with delta 9.
	b.reset();
	const uint64_t t0 = (1ull << 32) + 5, t1 = t0 + (1ull << 25) + 7;
	Cyc x = idle_cyc(t0, 1ull << 32, NEVER);
	b.step(x);
	x = idle_cyc(t1, 1ull << 32, NEVER);
	x.st[0] = ACTIVE;
	b.step(x);
	// Counting stops (the close strobe): cycle_i stays at t1 + 1, the first cycle not traced.
	x.cycle = t1 + 1;
	x.count = false;
	b.step(x);
	b.drain();
	exp.clear();
	exp.push_back(5ull << 32 | 3u << 24 | 1); // START: delta field = cycle bits 47:32 = 1, payload 5
	for (unsigned g = 0; g < NG; g++) {
		unsigned n = L - 32 * g < 32 ? L - 32 * g : 32;
		exp.push_back((uint64_t)(n == 32 ? 0xFFFFFFFFu : (1u << n) - 1) << 32 | (uint64_t)g << 30 | 1u << 28);
	}
	exp.push_back(1u << 24);
	exp.push_back(2u << 24 | DMAX);
	exp.push_back(2u << 24 | DMAX);
	exp.push_back(1ull << 32 | 9);       // lane 0 active, delta 9
	exp.push_back(6u << 24 | 1);         // END at t1 + 1
	check_equal(h, b.got, exp, "48-bit START and ADVANCE");
	check_equal(h, b.got, b.reference(), "48-bit START and ADVANCE (reference)");
	CHECK(h, h.top->lost_o == 0, "directed: %llu records lost", (unsigned long long)h.top->lost_o);
}

// A random stream. Lanes move in groups (SIMD units of 16, or 8) with divergence; fast
// makes every lane change on its own almost every cycle.
void random_run(H &h, Bench &b, uint64_t n, bool fast)
{
	unsigned st[L], iss = 0, quiet = 0;
	uint64_t cycle = 0, from = h.rand(50), to = from + 200 + h.rand(2000);
	for (unsigned l = 0; l < L; l++)
		st[l] = IDLE;
	for (uint64_t i = 0; i < n; i++) {
		Cyc c{};
		bool event = false, gap = false;
		// Without fast, every change is followed by enough quiet cycles for its entry's
		// records (marker, 4 per group, ISSUE, ADVANCE): nothing may be lost.
		bool may = fast || quiet == 0;
		c.count = !(may && h.rand(1000) < (fast ? 30u : 2u));
		event |= !c.count;
		if (may && h.rand(1000) < (fast ? 10u : 3u)) { // a new window, sometimes open already, sometimes empty
			from = cycle + h.rand(100) - (cycle >= 50 ? 50 : 0);
			to = h.chance(10) ? from : from + h.rand(3000);
			event = true;
		}
		if (fast) {
			for (unsigned l = 0; l < L; l++)
				if (h.chance(40))
					st[l] = (unsigned)h.rand(4);
		} else if (may && h.chance(20)) {
			unsigned w = h.chance(50) ? 16 : 8, g0 = (unsigned)h.rand((L + w - 1) / w) * w;
			unsigned s = (unsigned)h.rand(4);
			for (unsigned l = g0; l < g0 + w && l < L; l++)
				if (!h.chance(10))
					st[l] = s;
			event = true;
		}
		if (may && h.rand(1000) < (fast ? 20u : 5u)) {
			iss = (unsigned)h.rand(4);
			event = true;
		}
		c.cycle = cycle;
		c.from = from;
		c.to = to;
		for (unsigned l = 0; l < L; l++)
			c.st[l] = st[l];
		c.iss = iss;
		b.step(c);
		if (c.count) {
			gap = may && h.chance(1);
			cycle += gap ? 1 + h.rand(1ull << 26) : 1; // rare long gaps: ADVANCE
		}
		if (quiet)
			quiet--;
		if (event || gap)
			quiet = 4 * NG + 8;
	}
	b.drain();
}

void random_exact(H &h)
{
	Bench b(h);
	b.reset();
	random_run(h, b, h.scaled(100000), false);
	CHECK(h, h.top->lost_o == 0, "random: %llu records lost with the stream always drained",
	      (unsigned long long)h.top->lost_o);
	std::vector<uint64_t> exp = b.reference();
	check_equal(h, b.got, exp, "random");
	unsigned starts = 0, advances = 0;
	for (uint64_t r : b.got) {
		starts += (r >> 24 & 15) == T_START;
		advances += (r >> 24 & 15) == T_ADVANCE;
	}
	CHECK(h, starts > 10 && advances > 10, "random: only %u windows and %u ADVANCE records", starts, advances);
	printf("random: %zu records, %u windows\n", b.got.size(), starts);
}

// Decodes the records and checks them against the cycles driven (losses allowed).
void check_decoded(H &h, const Bench &b, const char *phase)
{
	// Per traced cycle: the records the reference would give it (lost-count check).
	std::vector<unsigned> nrec(b.hist.size(), 0);
	{
		unsigned prev[L] = {}, prev_iss = 0;
		bool have = false;
		for (size_t i = 0; i < b.hist.size(); i++) {
			const Cyc &c = b.hist[i];
			if (!c.traced())
				continue;
			nrec[i] = Enc::changes(prev, prev_iss, c, !have, nullptr);
			for (unsigned l = 0; l < L; l++)
				prev[l] = c.st[l];
			prev_iss = c.iss;
			have = true;
		}
	}
	// Decode into (time, kind, ...) and walk the cycles.
	struct Ev {
		uint64_t t;
		unsigned type, state, group;
		uint32_t payload;
	};
	std::vector<Ev> ev;
	uint64_t t = 0;
	for (uint64_t r : b.got) {
		unsigned type = r >> 24 & 15;
		if (type == T_START)
			t = (r & 0xFFFF) << 32 | r >> 32;
		else
			t += r & DMAX;
		if (type != T_ADVANCE)
			ev.push_back({t, type, (unsigned)(r >> 28 & 3), (unsigned)(r >> 30 & 3), (uint32_t)(r >> 32)});
	}
	int cur[L], cur_iss = -1;
	bool in = false, lost = false;
	uint64_t lost_expect = 0, lost_total = 0, checked = 0;
	unsigned losses = 0, bad = 0;
	size_t k = 0;
	for (unsigned l = 0; l < L; l++)
		cur[l] = -1;
	for (size_t i = 0; i < b.hist.size(); i++) {
		const Cyc &c = b.hist[i];
		bool tr = c.traced();
		for (; k < ev.size() && ev[k].t <= c.cycle && (ev[k].t < c.cycle || tr || in); k++) {
			const Ev &e = ev[k];
			if (e.t != c.cycle && e.type != T_END) {
				if (bad++ < 3)
					CHECK(h, false, "%s: record type %u at cycle %llu, not a traced cycle", phase, e.type,
					      (unsigned long long)e.t);
				continue;
			}
			switch (e.type) {
			case T_START:
				in = true;
				lost = false;
				break;
			case T_LOST:
				lost = true;
				losses++;
				lost_expect = 0;
				break;
			case T_SYNC:
			case T_END:
				if (lost || e.payload) {
					if (e.payload != lost_expect && getenv("PGT_DEBUG")) {
						for (size_t j = i > 40 ? i - 40 : 0; j <= i; j++)
							printf("  hist %zu cycle %llu count %d traced %d nrec %u\n", j,
							       (unsigned long long)b.hist[j].cycle, b.hist[j].count, b.hist[j].traced(), nrec[j]);
						for (size_t q = k > 10 ? k - 10 : 0; q <= k; q++)
							printf("  ev %zu t %llu type %u\n", q, (unsigned long long)ev[q].t, ev[q].type);
					}
					CHECK(h, e.payload == lost_expect, "%s: %s at %llu counts %u lost records, expected %llu",
					      phase, e.type == T_SYNC ? "SYNC" : "END", (unsigned long long)e.t, e.payload,
					      (unsigned long long)lost_expect);
					lost_total += e.payload;
				}
				lost = false;
				if (e.type == T_END) {
					in = false;
					for (unsigned l = 0; l < L; l++)
						cur[l] = -1;
				}
				break;
			case T_LANES:
				for (unsigned bit = 0; bit < 32; bit++)
					if (e.payload >> bit & 1)
						cur[e.group * 32 + bit] = (int)e.state;
				break;
			case T_ISSUE:
				cur_iss = (int)e.state;
				break;
			default:
				CHECK(h, false, "%s: unknown record type %u", phase, e.type);
			}
		}
		if (lost && tr)
			lost_expect += nrec[i];
		if (in && tr && !lost) {
			checked++;
			for (unsigned l = 0; l < L; l++)
				if (cur[l] != (int)c.st[l] && bad++ < 3)
					CHECK(h, false, "%s: cycle %llu lane %u decoded %d, is %u", phase, (unsigned long long)c.cycle,
					      l, cur[l], c.st[l]);
			if (cur_iss != (int)c.iss && bad++ < 3)
				CHECK(h, false, "%s: cycle %llu issue state decoded %d, is %u", phase, (unsigned long long)c.cycle,
				      cur_iss, c.iss);
		}
		if (tr && !in && b.ready_pct >= 100 && h.top->lost_o == 0 && bad++ < 3) {
			// A window may start late only while the queue is short of slots.
			CHECK(h, false, "%s: cycle %llu traced but no START", phase, (unsigned long long)c.cycle);
		}
	}
	CHECK(h, k == ev.size(), "%s: %zu records after the last cycle", phase, ev.size() - k);
	CHECK(h, lost_total == h.top->lost_o, "%s: SYNC/END count %llu lost records, lost_o %llu", phase,
	      (unsigned long long)lost_total, (unsigned long long)h.top->lost_o);
	CHECK(h, checked > 300, "%s: only %llu cycles checked", phase, (unsigned long long)checked);
	printf("%s: %zu records, %u losses, %llu records lost, %llu cycles checked\n", phase, b.got.size(), losses,
	       (unsigned long long)lost_total, (unsigned long long)checked);
	if (b.ready_pct < 100)
		CHECK(h, losses > 10, "%s: the queue never overflowed (%u losses)", phase, losses);
}

void full_queue(H &h)
{
	Bench b(h);
	b.reset();
	b.ready_pct = 30;
	random_run(h, b, h.scaled(50000), true);
	check_decoded(h, b, "full queue");
	// The same decoder on the drained stream: nothing lost, every traced cycle decoded.
	b.reset();
	b.ready_pct = 100;
	random_run(h, b, h.scaled(20000), false);
	check_decoded(h, b, "drained");
	// clear_i zeroes the lost count.
	h.top->clear_i = 1;
	h.tick();
	h.top->clear_i = 0;
	h.eval();
	CHECK(h, h.top->lost_o == 0, "clear_i leaves lost_o at %llu", (unsigned long long)h.top->lost_o);
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_pg_trace");
	directed(h);
	random_exact(h);
	full_queue(h);
	return h.finish();
}
