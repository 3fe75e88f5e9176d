// test_sreg: wg_sreg (S2R rows) against a model: the thread-index table written at CTA launch,
// every special register's row for any warp, and the one read port shared by two schedulers
// (round-robin grant in the request's cycle, the granted port's row, zero without a grant).
// 4 warps, 2 CTA slots, 2 ports (sim/rtl.mk).
#include "Vwg_sreg.h"
#include "harness.h"

#include <array>
#include <cstdint>

namespace {

constexpr unsigned NW = 4, NC = 2, NP = 2, TID_W = 26;
using H = wg::Harness<Vwg_sreg>;

// Special register numbers (docs/isa.md section 5, rtl/wg_isa_pkg.sv).
enum : unsigned {
	TID_X, TID_Y, TID_Z, NTID_X, NTID_Y, NTID_Z, CTAID_X, CTAID_Y, CTAID_Z, NCTAID_X, NCTAID_Y, NCTAID_Z,
	LANEID, WARPID, SMID, CLOCK, CLOCKHI, NUM_SR
};

template <size_t N>
void put(VlWide<N> &w, unsigned lsb, unsigned width, uint64_t v)
{
	for (unsigned i = 0; i < width; i++) {
		unsigned b = lsb + i;
		if (v >> i & 1)
			w[b / 32] |= 1u << (b % 32);
		else
			w[b / 32] &= ~(1u << (b % 32));
	}
}

struct Tid {
	uint32_t x, y, z; // 10, 10, 6 bits
};

struct Model {
	std::array<std::array<Tid, 32>, NW> tid{};
	std::array<unsigned, NW> wic{}, cta{};
	std::array<std::array<uint32_t, 3>, NC> ctaid{};
	std::array<uint32_t, 3> ntid{}, nctaid{};
	uint32_t smid = 0;
	uint64_t clock = 0;
	unsigned ptr = 0; // round-robin pointer: the port served first

	uint32_t value(unsigned warp, unsigned num, unsigned lane) const
	{
		const Tid &t = tid[warp][lane];
		switch (num) {
		case TID_X: return t.x;
		case TID_Y: return t.y;
		case TID_Z: return t.z;
		case NTID_X: case NTID_Y: case NTID_Z: return ntid[num - NTID_X];
		case CTAID_X: case CTAID_Y: case CTAID_Z: return ctaid[cta[warp]][num - CTAID_X];
		case NCTAID_X: case NCTAID_Y: case NCTAID_Z: return nctaid[num - NCTAID_X];
		case LANEID: return lane;
		case WARPID: return wic[warp];
		case SMID: return smid;
		case CLOCK: return static_cast<uint32_t>(clock);
		case CLOCKHI: return static_cast<uint32_t>(clock >> 32);
		default: return 0; // not a special register: zero
		}
	}
};

void drive_state(H &h, const Model &m)
{
	auto *t = h.top;
	t->warp_wic_i = 0;
	t->warp_cta_i = 0;
	for (unsigned w = 0; w < NW; w++) {
		t->warp_wic_i |= m.wic[w] << (5 * w);
		t->warp_cta_i |= m.cta[w] << w;
	}
	for (unsigned c = 0; c < NC; c++)
		for (unsigned k = 0; k < 3; k++)
			put(t->cta_id_i, c * 48 + k * 16, 16, m.ctaid[c][k]);
	t->ntid_i = 0;
	t->nctaid_i = 0;
	for (unsigned k = 0; k < 3; k++) {
		t->ntid_i |= static_cast<uint64_t>(m.ntid[k]) << (16 * k);
		t->nctaid_i |= static_cast<uint64_t>(m.nctaid[k]) << (16 * k);
	}
	t->sm_id_i = m.smid;
	t->clock_i = m.clock;
}

// Writes warp w's thread indices (one cycle).
void write_tid(H &h, Model &m, unsigned w)
{
	auto *t = h.top;
	for (unsigned l = 0; l < 32; l++) {
		Tid v{static_cast<uint32_t>(h.rand(1024)), static_cast<uint32_t>(h.rand(1024)),
		      static_cast<uint32_t>(h.rand(64))};
		m.tid[w][l] = v;
		put(t->tid_row_i, l * TID_W, 10, v.x);
		put(t->tid_row_i, l * TID_W + 10, 10, v.y);
		put(t->tid_row_i, l * TID_W + 20, 6, v.z);
	}
	t->tid_we_i = 1;
	t->tid_warp_i = w;
	t->rd_en_i = 0;
	h.tick();
	t->tid_we_i = 0;
}

void randomise(H &h, Model &m)
{
	for (unsigned w = 0; w < NW; w++) {
		m.wic[w] = static_cast<unsigned>(h.rand(32));
		m.cta[w] = static_cast<unsigned>(h.rand(NC));
	}
	for (auto &c : m.ctaid)
		for (auto &v : c)
			v = static_cast<uint32_t>(h.rand(65536));
	for (unsigned k = 0; k < 3; k++) {
		m.ntid[k] = static_cast<uint32_t>(h.rand(65536));
		m.nctaid[k] = static_cast<uint32_t>(h.rand(65536));
	}
	m.smid = static_cast<uint32_t>(h.rand(256));
	m.clock = h.rng();
}

// One cycle of reads: requests en (bit p: port p), each port's warp and register. Checks the
// grant and the row against the model, then clocks. Returns the granted port, or -1.
int read_cycle(H &h, Model &m, unsigned en, const unsigned warp[NP], const unsigned num[NP])
{
	auto *t = h.top;
	drive_state(h, m);
	t->rd_en_i = en;
	t->rd_warp_i = 0;
	t->rd_num_i = 0;
	for (unsigned p = 0; p < NP; p++) {
		t->rd_warp_i |= warp[p] << (2 * p);
		t->rd_num_i |= num[p] << (5 * p);
	}
	h.eval();
	int g = -1;
	for (unsigned k = 0; k < NP; k++) {
		unsigned p = (m.ptr + k) % NP;
		if (en >> p & 1) {
			g = static_cast<int>(p);
			break;
		}
	}
	unsigned gnt = g < 0 ? 0 : 1u << g;
	CHECK(h, t->rd_gnt_o == gnt, "grant 0x%x, expected 0x%x (requests 0x%x, pointer %u)", t->rd_gnt_o, gnt, en,
	      m.ptr);
	unsigned bad = 0;
	for (unsigned l = 0; l < 32; l++) {
		uint32_t want = g < 0 ? 0 : m.value(warp[g], num[g], l);
		if (t->rd_row_o[l] != want && bad++ < 3)
			CHECK(h, false, "port %d warp %u register %u lane %u: 0x%08x, expected 0x%08x", g,
			      g < 0 ? 0 : warp[g], g < 0 ? 0 : num[g], l, t->rd_row_o[l], want);
	}
	CHECK(h, bad == 0, "%u lanes of the row differ", bad);
	h.tick();
	if (g >= 0)
		m.ptr = (static_cast<unsigned>(g) + 1) % NP;
	return g;
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_sreg", 100000); // about 21,000 cycles at scale 1
	Model m;
	h.reset();
	randomise(h, m);
	for (unsigned w = 0; w < NW; w++)
		write_tid(h, m, w);

	// Every register of every warp on each port alone, then on both.
	for (unsigned p = 0; p < NP; p++)
		for (unsigned w = 0; w < NW; w++)
			for (unsigned n = 0; n < NUM_SR; n++) {
				unsigned warp[NP] = {w, NW - 1 - w}, num[NP] = {n, (n + 3) % NUM_SR};
				int g = read_cycle(h, m, 1u << p, warp, num);
				CHECK(h, g == static_cast<int>(p), "port %u alone not granted (%d)", p, g);
			}

	// No request: no grant, a zero row.
	{
		unsigned warp[NP] = {1, 2}, num[NP] = {TID_X, CLOCK};
		CHECK(h, read_cycle(h, m, 0, warp, num) == -1, "a grant without a request");
	}

	// Both ports hold their S2R: each is served within two cycles, alternately.
	{
		unsigned warp[NP] = {0, 3}, num[NP] = {TID_Y, WARPID};
		int prev = -1;
		for (int k = 0; k < 8; k++) {
			int g = read_cycle(h, m, 3, warp, num);
			CHECK(h, g >= 0 && g != prev, "cycle %d of two requests: port %d after %d", k, g, prev);
			prev = g;
		}
	}

	// Random requests, registers (numbers 17..31 are not special registers: zero rows),
	// values and table rewrites.
	uint64_t served[NP] = {0, 0};
	for (uint64_t i = 0; i < h.scaled(20000); i++) {
		if (h.chance(3))
			write_tid(h, m, static_cast<unsigned>(h.rand(NW)));
		if (h.chance(10))
			randomise(h, m);
		m.clock += 1;
		unsigned warp[NP], num[NP];
		for (unsigned p = 0; p < NP; p++) {
			warp[p] = static_cast<unsigned>(h.rand(NW));
			num[p] = static_cast<unsigned>(h.chance(90) ? h.rand(NUM_SR) : h.rand(32));
		}
		int g = read_cycle(h, m, static_cast<unsigned>(h.rand(4)), warp, num);
		if (g >= 0)
			served[g]++;
	}
	CHECK(h, served[0] > 0 && served[1] > 0, "random phase: port 0 served %llu, port 1 %llu",
	      static_cast<unsigned long long>(served[0]), static_cast<unsigned long long>(served[1]));
	return h.finish();
}
