// test_ram_2c: wg_ram_1r1w_2c against an array model. Two kinds of edge, at random: both
// clocks (clk_i and rclk_i together, as when the writer's clock runs) and rclk_i alone (the
// writer's clock off, as in a histogram readout). Checks: a read shows the addressed word
// after an rclk_i edge with re_i and holds otherwise; a write happens only at a clk_i edge,
// never at an rclk_i edge alone, however we_i is driven. RAM_DEPTH, RAM_WIDTH from
// sim/rtl.mk. The array starts random (--x-initial unique): it is filled first.
#include "Vwg_ram_1r1w_2c.h"
#include "harness.h"

#include <vector>

#ifndef RAM_DEPTH
#define RAM_DEPTH 64
#endif
#ifndef RAM_WIDTH
#define RAM_WIDTH 32
#endif

namespace {

using H = wg::Harness<Vwg_ram_1r1w_2c>;
constexpr uint32_t kMask = RAM_WIDTH >= 32 ? 0xffffffffu : (1u << RAM_WIDTH) - 1;

// An edge of rclk_i alone, clk_i held low.
void read_edge(H &h)
{
	auto *t = h.top;
	t->clk_i = 0;
	t->rclk_i = 0;
	h.eval();
	t->rclk_i = 1;
	h.eval();
	t->rclk_i = 0;
	h.eval();
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_ram_2c", 1000000);
	auto *t = h.top;
	h.also_clock = [&h](int v) { h.top->rclk_i = v; };
	std::vector<uint32_t> mem(RAM_DEPTH, 0);
	uint32_t rdata = 0;
	bool known = false;

	t->we_i = 0;
	t->re_i = 0;
	h.reset();
	for (unsigned a = 0; a < RAM_DEPTH; a++) {
		mem[a] = static_cast<uint32_t>(h.rng()) & kMask;
		t->we_i = 1;
		t->waddr_i = a;
		t->wdata_i = mem[a];
		h.tick();
	}
	t->we_i = 0;
	unsigned reads_alone = 0, refused_writes = 0;
	for (unsigned i = 0; i < h.scaled(20000); i++) {
		bool alone = h.rng() % 3 == 0;
		unsigned wa = h.rng() % RAM_DEPTH, ra = h.rng() % RAM_DEPTH;
		bool we = h.rng() % 2, re = h.rng() % 2;
		uint32_t wd = static_cast<uint32_t>(h.rng()) & kMask;
		if (!alone && we && re && wa == ra)
			ra = (ra + 1) % RAM_DEPTH; // undefined at one edge: never done
		t->we_i = we;
		t->waddr_i = wa;
		t->wdata_i = wd;
		t->re_i = re;
		t->raddr_i = ra;
		if (alone) {
			read_edge(h);
			reads_alone += re;
			refused_writes += we;
		} else {
			h.tick();
			if (we)
				mem[wa] = wd;
		}
		if (re) {
			rdata = mem[ra];
			known = true;
		}
		if (alone && re && we && wa == ra)
			CHECK(h, t->rdata_o == rdata, "edge %u: read of %u alone with a write offered to it: 0x%x, expected 0x%x",
			      i, ra, t->rdata_o, rdata);
		if (known)
			CHECK(h, t->rdata_o == rdata, "edge %u (%s): rdata 0x%x, expected 0x%x", i, alone ? "rclk_i alone" : "both",
			      t->rdata_o, rdata);
	}
	CHECK(h, reads_alone > 1000 && refused_writes > 1000, "too few lone read edges (%u) or offered writes (%u)",
	      reads_alone, refused_writes);
	// Every word as the model has it: no lone rclk_i edge wrote.
	t->we_i = 0;
	for (unsigned a = 0; a < RAM_DEPTH; a++) {
		t->re_i = 1;
		t->raddr_i = a;
		read_edge(h);
		CHECK(h, t->rdata_o == mem[a], "word %u: 0x%x, expected 0x%x", a, t->rdata_o, mem[a]);
	}
	return h.finish();
}
