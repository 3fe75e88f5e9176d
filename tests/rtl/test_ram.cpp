// test_ram: wg_ram_1r1w against an array model: synchronous read, read data
// held while re_i is low, write-enable groups. RAM_DEPTH, RAM_WIDTH and
// RAM_GRAIN (EN_GRAIN) from sim/rtl.mk. The array starts random
// (--x-initial unique): it is filled before the random phase.
#include "Vwg_ram_1r1w.h"
#include "harness.h"

#include <vector>

#ifndef RAM_DEPTH
#define RAM_DEPTH 100
#endif
#ifndef RAM_WIDTH
#define RAM_WIDTH 32
#endif
#ifndef RAM_GRAIN
#define RAM_GRAIN 8
#endif

namespace {

using H = wg::Harness<Vwg_ram_1r1w>;
constexpr unsigned kGroups = RAM_GRAIN ? RAM_WIDTH / RAM_GRAIN : 1;
constexpr uint32_t kMask = RAM_WIDTH >= 32 ? 0xffffffffu : (1u << RAM_WIDTH) - 1;

struct Model {
	std::vector<uint32_t> mem = std::vector<uint32_t>(RAM_DEPTH, 0);
	uint32_t rdata = 0;
	bool rdata_known = false;
};

uint32_t merge(uint32_t old, uint32_t data, uint32_t be)
{
	if (!RAM_GRAIN)
		return data & kMask;
	uint32_t out = old;
	for (unsigned g = 0; g < kGroups; g++)
		if (be >> g & 1) {
			uint32_t gm = (RAM_GRAIN >= 32 ? 0xffffffffu : ((1u << RAM_GRAIN) - 1)) << (g * RAM_GRAIN);
			out = (out & ~gm) | (data & gm);
		}
	return out & kMask;
}

void step(H &h, Model &m, bool we, unsigned waddr, uint32_t wdata, uint32_t wbe, bool re, unsigned raddr)
{
	auto *t = h.top;
	t->we_i = we;
	t->waddr_i = waddr;
	t->wdata_i = wdata & kMask;
	t->wbe_i = wbe & ((1u << kGroups) - 1);
	t->re_i = re;
	t->raddr_i = raddr;
	h.tick();
	if (re) {
		m.rdata = m.mem[raddr];
		m.rdata_known = true;
	}
	if (we)
		m.mem[waddr] = merge(m.mem[waddr], wdata, wbe);
	h.eval();
	if (m.rdata_known)
		CHECK(h, t->rdata_o == m.rdata, "rdata 0x%x expected 0x%x", t->rdata_o, m.rdata);
}

void test_fill_and_read(H &h, Model &m)
{
	for (unsigned a = 0; a < RAM_DEPTH; a++)
		step(h, m, true, a, a * 0x01010101u + 0x11, ~0u, false, 0);
	for (unsigned a = 0; a < RAM_DEPTH; a++)
		step(h, m, false, 0, 0, 0, true, a);
	// Read data stays while re_i is low, even when the word is overwritten.
	step(h, m, false, 0, 0, 0, true, 7);
	uint32_t held = h.top->rdata_o;
	step(h, m, true, 7, 0xdeadbeef, ~0u, false, 0);
	step(h, m, false, 0, 0, 0, false, 0);
	CHECK(h, h.top->rdata_o == held, "read data held while re_i is low");
	step(h, m, false, 0, 0, 0, true, 7);
	CHECK(h, h.top->rdata_o == (0xdeadbeefu & kMask), "then the new word");
}

void test_groups(H &h, Model &m)
{
	if (!RAM_GRAIN)
		return;
	for (unsigned g = 0; g < kGroups; g++) {
		step(h, m, true, 3, 0, ~0u, false, 0);
		step(h, m, true, 3, 0xffffffffu, 1u << g, false, 0);
		step(h, m, false, 0, 0, 0, true, 3);
	}
}

void test_random(H &h, Model &m, unsigned cycles)
{
	for (unsigned c = 0; c < cycles; c++) {
		bool we = h.chance(50), re = h.chance(50);
		unsigned wa = h.rand(RAM_DEPTH), ra = h.rand(RAM_DEPTH);
		if (we && re && wa == ra) // same address in one cycle: undefined, never done
			ra = (ra + 1) % RAM_DEPTH;
		step(h, m, we, wa, static_cast<uint32_t>(h.rng()), static_cast<uint32_t>(h.rng()), re, ra);
	}
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_ram", 1000000);
	Model m;
	h.top->we_i = 0;
	h.top->re_i = 0;
	h.reset();
	printf("%s: DEPTH %d WIDTH %d EN_GRAIN %d\n", h.name(), RAM_DEPTH, RAM_WIDTH, RAM_GRAIN);
	test_fill_and_read(h, m);
	test_groups(h, m);
	test_random(h, m, h.scaled(50000));
	return h.finish();
}
