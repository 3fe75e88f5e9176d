// test_compact: wg_compact (docs/power-gating.md section 3.3) through tests/rtl/tb_compact.sv,
// against a C reference model of the schedule. CMP_LANES from sim/rtl.mk (16: the GTX480 unit;
// lanes in use 16, or 8 when split).
//
//   directed:  hand-worked schedules (divergent halves, empty mask, one thread, all threads)
//              at both widths, compaction on and off;
//   random:    masks of many shapes (uniform, sparse, dense, runs, single threads), both
//              widths, on and off: slot mask, passes, every slot's thread (0 in an empty
//              slot) and bit. wg_simd_unit reads operands and writes results through the slot
//              table; test_simd_unit checks the results under compaction and splitting.
#include "Vtb_compact.h"
#include "harness.h"

#include <vector>

#ifndef CMP_LANES
#define CMP_LANES 16
#endif

namespace {

using H = wg::Harness<Vtb_compact>;
constexpr unsigned LANES = CMP_LANES;

struct Ref {
	uint32_t slot_mask;
	unsigned passes;
	int src[32]; // thread in slot k, -1 = none
};

// The schedule of docs/power-gating.md 3.3: active threads, in thread order, in the lowest slots.
Ref schedule(bool en, bool half, uint32_t mask)
{
	Ref r{};
	unsigned w = half && LANES > 1 ? LANES / 2 : LANES;
	if (!en) {
		r.slot_mask = mask;
		r.passes = 32 / w;
		for (int k = 0; k < 32; k++)
			r.src[k] = k;
		return r;
	}
	std::vector<int> act;
	for (int t = 0; t < 32; t++)
		if (mask >> t & 1)
			act.push_back(t);
	for (int k = 0; k < 32; k++)
		r.src[k] = k < (int)act.size() ? act[k] : -1;
	r.slot_mask = act.size() == 32 ? 0xffffffffu : (1u << act.size()) - 1;
	r.passes = act.empty() ? 1 : (unsigned)(act.size() + w - 1) / w;
	return r;
}

// Thread of slot k in the 160-bit slot table.
unsigned thr_of(const VlWide<5> &w, unsigned k)
{
	unsigned bit = k * 5, v = 0;
	for (unsigned i = 0; i < 5; i++, bit++)
		v |= (w[bit / 32] >> (bit % 32) & 1u) << i;
	return v;
}

struct Bench {
	H &h;
	uint32_t bits;

	explicit Bench(H &hh) : h(hh) {}

	void randomise() { bits = static_cast<uint32_t>(h.rng()); }

	unsigned thr(unsigned k) const { return thr_of(h.top->slot_thr_o, k); }

	bool run(bool en, bool half, uint32_t mask, const char *what)
	{
		auto *t = h.top;
		Ref r = schedule(en, half, mask);
		t->en_i = en;
		t->half_i = half;
		t->mask_i = mask;
		t->bits_i = bits;
		h.eval();
		bool ok = true;
		ok &= CHECK(h, t->slot_mask_o == r.slot_mask, "%s: mask %08x en %d half %d: slot mask %08x, want %08x",
		            what, mask, en, half, t->slot_mask_o, r.slot_mask);
		ok &= CHECK(h, t->passes_o == r.passes, "%s: mask %08x en %d half %d: passes %u, want %u", what, mask, en,
		            half, t->passes_o, r.passes);
		for (unsigned k = 0; k < 32 && ok; k++) {
			unsigned want = r.src[k] < 0 ? 0 : (unsigned)r.src[k];
			ok &= CHECK(h, thr(k) == want, "%s: mask %08x en %d half %d: slot %u holds thread %u, want %u", what,
			            mask, en, half, k, thr(k), want);
			if (r.src[k] >= 0)
				ok &= CHECK(h, (t->bits_o >> k & 1) == (bits >> r.src[k] & 1), "%s: mask %08x: bit of slot %u",
				            what, mask, k);
			else
				ok &= CHECK(h, !(t->bits_o >> k & 1), "%s: mask %08x: empty slot %u has a bit", what, mask, k);
		}
		h.tick();
		return ok;
	}
};

void directed(H &h, Bench &b)
{
	auto *t = h.top;
	b.randomise();
	if (LANES == 16) {
		// Threads 0..3 and 16..19 (a divergent warp, both halves): 8 threads.
		// 16 lanes: slots 0..7 = threads 0,1,2,3,16,17,18,19, one pass (instead of 2).
		b.run(true, false, 0x000f000fu, "halves, 16 lanes");
		CHECK(h, t->passes_o == 1 && t->slot_mask_o == 0xffu, "halves: 1 pass in slots 0..7");
		CHECK(h, b.thr(4) == 16, "halves: slot 4 = thread 16");
		// 8 lanes (split): still one pass of 8 (instead of 4).
		b.run(true, true, 0x000f000fu, "halves, 8 lanes");
		CHECK(h, t->passes_o == 1, "halves split: 1 pass");
		// Upper half of the warp, 8 lanes: 16 threads in 2 passes (instead of 4), slot 0 = thread 16,
		// slot 8 (pass 1, lane 0) = thread 24.
		b.run(true, true, 0xffff0000u, "upper half, 8 lanes");
		CHECK(h, t->passes_o == 2 && t->slot_mask_o == 0xffffu, "upper half split: 2 passes, slots 0..15");
		CHECK(h, b.thr(8) == 24, "upper half split: slot 8 = thread 24");
		// 17 threads on 16 lanes: 2 passes; on 8 lanes: 3 passes.
		b.run(true, false, 0x0001ffffu, "17 threads, 16 lanes");
		CHECK(h, t->passes_o == 2, "17 threads: 2 passes");
		b.run(true, true, 0x8000ffffu, "17 threads, 8 lanes");
		CHECK(h, t->passes_o == 3, "17 threads split: 3 passes");
		CHECK(h, b.thr(16) == 31, "17 threads split: slot 16 = thread 31");
	}
	// Empty mask: one pass, no slot. One thread: slot 0. All threads: identity, 32 / W passes.
	b.run(true, false, 0, "empty");
	CHECK(h, t->passes_o == 1 && t->slot_mask_o == 0, "empty: 1 pass, no slot");
	b.run(true, false, 1u << 29, "thread 29");
	CHECK(h, b.thr(0) == 29 && t->slot_mask_o == 1, "thread 29 in slot 0");
	b.run(true, false, 0xffffffffu, "full");
	CHECK(h, t->passes_o == 32 / LANES, "full warp: %u passes", 32 / LANES);
	// Off: identity and the unit's fixed passes whatever the mask.
	b.run(false, false, 0x00000001u, "off");
	CHECK(h, t->passes_o == 32 / LANES && t->slot_mask_o == 1, "off: fixed passes");
	if (LANES > 1) {
		b.run(false, true, 0x00000001u, "off, split");
		CHECK(h, t->passes_o == 64 / LANES, "off split: %u passes", 64 / LANES);
	}
}

uint32_t random_mask(H &h)
{
	switch (h.rng() % 7) {
	case 0:
		return static_cast<uint32_t>(h.rng());
	case 1: { // sparse
		uint32_t m = 0;
		for (int i = 0; i < 32; i++)
			m |= (h.rng() % 10 == 0 ? 1u : 0u) << i;
		return m;
	}
	case 2: { // dense
		uint32_t m = 0;
		for (int i = 0; i < 32; i++)
			m |= (h.rng() % 10 != 0 ? 1u : 0u) << i;
		return m;
	}
	case 3: { // one run of threads
		unsigned a = h.rng() % 32, n = 1 + h.rng() % (32 - a);
		return (n == 32 ? 0xffffffffu : ((1u << n) - 1)) << a;
	}
	case 4:
		return 1u << (h.rng() % 32);
	case 5:
		return h.rng() % 2 ? 0xffffffffu : 0;
	default: // every other thread, or an interleaved pattern
		return h.rng() % 2 ? 0x55555555u : 0xaaaaaaaau & static_cast<uint32_t>(h.rng());
	}
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_compact");
	Bench b(h);
	h.reset();
	directed(h, b);
	for (uint64_t i = 0; i < h.scaled(30000); i++) {
		b.randomise();
		bool en = h.rng() % 4 != 0, half = LANES > 1 && h.rng() % 2;
		if (!b.run(en, half, random_mask(h), "random"))
			break;
	}
	return h.finish();
}
