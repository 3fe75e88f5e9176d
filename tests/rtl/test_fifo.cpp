// test_fifo: wg_fifo, or wg_fifo_ram (FIFO_RAM 1), against a std::deque model, directed and
// constrained-random. Built once per parameter set (sim/rtl.mk): FIFO_DEPTH, FIFO_WIDTH,
// FIFO_FT, FIFO_RAM. wg_fifo_ram's head written in the cycle it became the head is offered
// a cycle later than wg_fifo's (the model's `fresh`).
#ifndef FIFO_RAM
#define FIFO_RAM 0
#endif
#if FIFO_RAM
#include "Vwg_fifo_ram.h"
using Top = Vwg_fifo_ram;
#else
#include "Vwg_fifo.h"
using Top = Vwg_fifo;
#endif
#include "harness.h"

#include <deque>

#ifndef FIFO_DEPTH
#define FIFO_DEPTH 4
#endif
#ifndef FIFO_WIDTH
#define FIFO_WIDTH 32
#endif
#ifndef FIFO_FT
#define FIFO_FT 0
#endif

using H = wg::Harness<Top>;

static const uint32_t kMask = FIFO_WIDTH >= 32 ? 0xffffffffu : ((1u << FIFO_WIDTH) - 1);

struct Model {
	std::deque<uint32_t> q;
	bool fresh = false; // FIFO_RAM: the head was written last cycle and is not offered yet
};

// Drive one cycle with the given inputs, check every output against the
// model, then clock and update the model. Returns {in_fire, out_fire}.
static std::pair<bool, bool> step(H &h, Model &m, bool in_valid, uint32_t data, bool out_ready, bool flush)
{
	auto *t = h.top;
	t->in_valid_i = in_valid;
	t->in_data_i = data & kMask;
	t->out_ready_i = out_ready;
	t->flush_i = flush;
	h.eval();

	size_t n = m.q.size();
	bool exp_ready = !flush && n < FIFO_DEPTH;
	bool passthru = FIFO_FT && n == 0;
	bool exp_valid = !flush && ((n > 0 && !m.fresh) || (passthru && in_valid));
	CHECK(h, t->in_ready_o == exp_ready, "in_ready %d, expected %d (count %zu)", t->in_ready_o, exp_ready, n);
	CHECK(h, t->out_valid_o == exp_valid, "out_valid %d, expected %d (count %zu)", t->out_valid_o, exp_valid, n);
	if (exp_valid) {
		uint32_t exp = n ? m.q.front() : (data & kMask);
		CHECK(h, t->out_data_o == exp, "out_data 0x%x, expected 0x%x", t->out_data_o, exp);
	}
	CHECK(h, t->count_o == n, "count %u, expected %zu", t->count_o, n);
	CHECK(h, t->full_o == (n == FIFO_DEPTH), "full %d (count %zu)", t->full_o, n);
	CHECK(h, t->empty_o == (n == 0), "empty %d (count %zu)", t->empty_o, n);
#if FIFO_RAM
	CHECK(h, t->fresh_o == m.fresh, "fresh %d, expected %d (count %zu)", t->fresh_o, m.fresh, n);
#endif

	bool in_fire = t->in_valid_i && t->in_ready_o;
	bool out_fire = t->out_valid_o && t->out_ready_i;
	h.tick();

	if (flush) {
		m.q.clear();
		m.fresh = false;
	} else {
		if (out_fire && n > 0)
			m.q.pop_front();
		// wg_fifo_ram: a word written into the head's slot is read from the RAM a cycle later
		m.fresh = FIFO_RAM && in_fire && m.q.empty();
		if (in_fire && !(out_fire && n == 0))
			m.q.push_back(data & kMask);
	}
	return { in_fire, out_fire };
}

static void test_fill_drain(H &h, Model &m)
{
	// Fill to full without reading, check full, then drain in order.
	for (unsigned i = 0; i < FIFO_DEPTH; i++)
		CHECK(h, step(h, m, true, 0x100 + i, false, false).first, "write %u accepted", i);
	CHECK(h, !step(h, m, true, 0xdead, false, false).first, "write into a full FIFO refused");
	for (unsigned i = 0; i < FIFO_DEPTH; i++)
		CHECK(h, step(h, m, false, 0, true, false).second, "read %u", i);
	CHECK(h, m.q.empty());
	step(h, m, false, 0, true, false);
}

static void test_latency(H &h, Model &m)
{
	// A word written into an empty FIFO shows at the output in the same cycle
	// (fall-through), the next one, or (wg_fifo_ram) the one after.
	auto *t = h.top;
	t->in_valid_i = 1;
	t->in_data_i = 0x5a & kMask;
	t->out_ready_i = 0;
	t->flush_i = 0;
	h.eval();
	CHECK(h, t->out_valid_o == FIFO_FT, "same-cycle output only with FALL_THROUGH");
	step(h, m, true, 0x5a, false, false);
	t->in_valid_i = 0;
	h.eval();
#if FIFO_RAM
	CHECK(h, !t->out_valid_o && t->count_o == 1 && t->fresh_o, "wg_fifo_ram: stored, not offered yet");
	step(h, m, false, 0, false, false);
	h.eval();
#endif
	CHECK(h, t->out_valid_o && t->out_data_o == (0x5a & kMask), "output one cycle after the write");
	step(h, m, false, 0, true, false);
}

static void test_throughput(H &h, Model &m)
{
	// Continuous input and output: one word per cycle (DEPTH 1 without
	// fall-through: one per two cycles, since a full FIFO does not accept;
	// wg_fifo_ram: one per three, its only slot being the head's).
	unsigned outs = 0;
	for (unsigned i = 0; i < 100; i++)
		outs += step(h, m, true, i, true, false).second;
	unsigned expect_min = (FIFO_DEPTH == 1 && !FIFO_FT) ? (FIFO_RAM ? 32 : 49) : (FIFO_RAM ? 98 : 99);
	CHECK(h, outs >= expect_min, "%u words out of 100 cycles", outs);
	while (!m.q.empty())
		step(h, m, false, 0, true, false);
}

static void test_flush(H &h, Model &m)
{
	for (unsigned i = 0; i < FIFO_DEPTH; i++)
		step(h, m, true, i, false, false);
	step(h, m, true, 0x77, true, true);
	CHECK(h, h.top->empty_o && h.top->count_o == 0, "empty after flush");
	step(h, m, true, 0x78, true, false);
	step(h, m, false, 0, true, false);
}

static void test_random(H &h, Model &m, unsigned cycles)
{
	unsigned pin = 0, pout = 0;
	uint64_t ins = 0, outs = 0;
	for (unsigned c = 0; c < cycles; c++) {
		if (c % 500 == 0) {
			pin = 10 + h.rand(90);
			pout = 10 + h.rand(90);
		}
		auto f = step(h, m, h.chance(pin), (uint32_t)h.rng(), h.chance(pout), h.chance(1));
		ins += f.first;
		outs += f.second;
	}
	CHECK(h, ins > cycles / 10 && outs > cycles / 10, "%" PRIu64 " in, %" PRIu64 " out", ins, outs);
}

int main(int argc, char **argv)
{
	H h(argc, argv, "test_fifo", 1000000);
	Model m;
	h.top->in_valid_i = 0;
	h.top->out_ready_i = 0;
	h.top->flush_i = 0;
	h.reset();
	printf("%s: %s DEPTH %d WIDTH %d FALL_THROUGH %d\n", h.name(), FIFO_RAM ? "wg_fifo_ram" : "wg_fifo",
	       FIFO_DEPTH, FIFO_WIDTH, FIFO_FT);
	test_fill_drain(h, m);
	test_latency(h, m);
	test_throughput(h, m);
	test_flush(h, m);
	test_random(h, m, h.scaled(50000));
	return h.finish();
}
