// test_sfu: Verilator test of the special-function unit (rtl/wg_sfu.sv,
// docs/sfu.md) against the C reference host/src/sfu.c.
//
// Two dispatch ports (schedulers) offer warp instructions at random; the
// write-back and retire consumers take beats at random; lanes are powered off
// and on at random while idle. Every instruction's write-back beat (port, warp,
// register, mask = execution mask, data of the executing lanes) and retire beat
// (warp, seq, pc, masks, destination, data) must match the reference, in
// order. Phases:
//   special  every MUFU function and every iterative operation on the special
//            operand classes (+-0, +-inf, NaNs, subnormals, powers of two,
//            extreme exponents, integer corner cases) crossed with each other
//   sweep    MUFU: consecutive bit patterns around the tables' binades and a
//            stride through all 2^32 patterns; FDIV/FSQRT/IDIV/IREM: random
//   mixed    random instruction mix, random execution masks (empty ones too)
// Expected values are the reference's; the reference itself is checked against
// libm and hand-worked values by tests/unit/test_sfu.c and test_func_sfu.c.
#include "Vwg_sfu.h"
#include "harness.h"

extern "C" {
#include "isa.h"
#include "sfu.h"
}

#include <deque>
#include <vector>

#ifndef SFU_LANES
#define SFU_LANES 4
#endif

static const unsigned kWarps = 8, kWarpW = 3, kUopW = 203, kSched = 2;

struct Insn {
	unsigned port, warp, op, mod, rd;
	uint32_t pc, exec, active, seq;
	uint32_t a[32], b[32];
	uint32_t want[32];
};

static uint32_t ref(const Insn &in, unsigned t)
{
	switch (in.op) {
	case WG_OP_MUFU: return wg_sfu_mufu(in.mod, in.a[t]);
	case WG_OP_FDIV: return wg_sfu_fdiv(in.a[t], in.b[t]);
	case WG_OP_FSQRT: return wg_sfu_fsqrt(in.a[t]);
	case WG_OP_IDIV: return wg_sfu_idiv(in.a[t], in.b[t], in.mod);
	default: return wg_sfu_irem(in.a[t], in.b[t], in.mod);
	}
}

template <class W>
static void set_bits(W &w, unsigned lsb, unsigned width, uint64_t v)
{
	for (unsigned i = 0; i < width; i++) {
		unsigned b = lsb + i;
		uint32_t m = 1u << (b % 32);
		if ((v >> i) & 1)
			w[b / 32] |= m;
		else
			w[b / 32] &= ~m;
	}
}

template <class W>
static uint64_t get_bits(const W &w, unsigned lsb, unsigned width)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < width; i++) {
		unsigned b = lsb + i;
		v |= (uint64_t)((w[b / 32] >> (b % 32)) & 1) << i;
	}
	return v;
}

struct Tb {
	wg::Harness<Vwg_sfu> &h;
	std::deque<Insn> pending[kSched];  // waiting to be offered, per port
	std::deque<Insn> inflight;         // accepted, in order
	std::deque<Insn> wb_q;             // write-back beats still expected, in order
	uint32_t seq = 1;
	unsigned accepted = 0, retired = 0, written = 0;
	unsigned offer_pct = 80, wb_pct = 70, ret_pct = 70, sleep_pct = 0;

	explicit Tb(wg::Harness<Vwg_sfu> &hh) : h(hh) {}

	void add(unsigned op, unsigned mod, const uint32_t *a, const uint32_t *b, uint32_t exec)
	{
		Insn in{};
		in.port = (unsigned)h.rand(kSched);
		in.warp = (unsigned)h.rand(kWarps / kSched) * kSched + in.port;
		in.op = op;
		in.mod = mod;
		in.rd = h.chance(10) ? WG_REG_RZ : (unsigned)h.rand(63);
		in.pc = (uint32_t)h.rand(1u << 18);
		in.exec = exec;
		in.active = exec | (uint32_t)h.rng();
		in.seq = seq++ & 0xFFFF;
		for (unsigned t = 0; t < 32; t++) {
			in.a[t] = a[t];
			in.b[t] = b ? b[t] : (uint32_t)h.rng();
			in.want[t] = ref(in, t);
		}
		pending[in.port].push_back(in);
	}

	// Drive inputs for this cycle (before eval), sample outputs after eval, tick.
	void cycle()
	{
		Vwg_sfu *t = h.top;
		bool offer[kSched];

		for (unsigned p = 0; p < kSched; p++) {
			offer[p] = !pending[p].empty() && h.chance(offer_pct);
			if (!offer[p])
				continue;
			const Insn &in = pending[p].front();
			set_bits(t->in_uop_i, p * kUopW + 197, 6, in.op);
			set_bits(t->in_uop_i, p * kUopW + 194, 3, in.mod);
			set_bits(t->in_uop_i, p * kUopW + 184, 6, in.rd);
			set_bits(t->in_uop_i, p * kUopW + 85, 18, in.pc);
			set_bits(t->in_uop_i, p * kUopW + 76, 3, in.rd == WG_REG_RZ ? 0 : 1);
			t->in_warp_i = (t->in_warp_i & ~(7u << (p * kWarpW))) | (in.warp << (p * kWarpW));
			t->in_exec_i = (t->in_exec_i & ~(0xFFFFFFFFull << (32 * p))) | ((uint64_t)in.exec << (32 * p));
			t->in_active_i = (t->in_active_i & ~(0xFFFFFFFFull << (32 * p))) | ((uint64_t)in.active << (32 * p));
			t->in_seq_i = (t->in_seq_i & ~(0xFFFFu << (16 * p))) | (in.seq << (16 * p));
			for (unsigned l = 0; l < 32; l++) {
				t->in_rows_i[(p * 3072 + l * 32) / 32] = in.a[l];
				t->in_rows_i[(p * 3072 + 1024 + l * 32) / 32] = in.b[l];
				t->in_rows_i[(p * 3072 + 2048 + l * 32) / 32] = (uint32_t)h.rng(); // C: unused
			}
		}
		t->in_valid_i = (offer[0] ? 1 : 0) | (offer[1] ? 2 : 0);
		t->wb_ready_i = (h.chance(wb_pct) ? 1 : 0) | (h.chance(wb_pct) ? 2 : 0);
		t->ret_ready_i = h.chance(ret_pct);
		// Power a lane off or on now and then, only while it is idle.
		if (sleep_pct && h.chance(sleep_pct)) {
			unsigned l = (unsigned)h.rand(SFU_LANES);
			uint64_t en = t->lane_en_i, bit = 1ull << l;
			if (!(en & bit) || !((uint64_t)t->lane_busy_o & bit))
				t->lane_en_i = en ^ bit;
		}
		h.eval();

		for (unsigned p = 0; p < kSched; p++) {
			if (offer[p] && (t->in_ready_o >> p & 1)) {
				inflight.push_back(pending[p].front());
				if (pending[p].front().rd != WG_REG_RZ)
					wb_q.push_back(pending[p].front());
				pending[p].pop_front();
				accepted++;
			}
		}
		CHECK(h, (t->in_ready_o & (t->in_ready_o - 1)) == 0, "one port accepted at a time");
		// Write-back beat.
		uint32_t wbv = t->wb_valid_o;
		CHECK(h, (wbv & (wbv - 1)) == 0, "write-back to one port at a time (0x%x)", wbv);
		if (wbv & t->wb_ready_i) {
			if (CHECK(h, !wb_q.empty(), "write-back beat without an instruction")) {
				const Insn &in = wb_q.front();
				CHECK(h, wbv == (1u << in.port), "write-back port %x, want %u", wbv, in.port);
				CHECK(h, t->wb_warp_o == in.warp, "wb warp %u, want %u", t->wb_warp_o, in.warp);
				CHECK(h, t->wb_reg_o == in.rd, "wb reg %u, want %u", t->wb_reg_o, in.rd);
				CHECK(h, t->wb_mask_o == in.exec, "wb mask %08x, want %08x", t->wb_mask_o, in.exec);
				for (unsigned l = 0; l < 32; l++) {
					if (!(in.exec >> l & 1))
						continue;
					uint32_t got = t->wb_data_o[l];
					if (!CHECK(h, got == in.want[l], "op %u.%u lane %u a=%08x b=%08x: got %08x, want %08x", in.op,
					           in.mod, l, in.a[l], in.b[l], got, in.want[l]))
						break;
				}
				wb_q.pop_front();
				written++;
			}
		}
		// Retire beat.
		if (t->ret_valid_o && t->ret_ready_i) {
			if (CHECK(h, !inflight.empty(), "retire beat without an instruction")) {
				const Insn &in = inflight.front();
				const auto &m = t->ret_meta_o;
				CHECK(h, get_bits(m, 0, 6) == in.warp, "retire warp");
				CHECK(h, get_bits(m, 6, 16) == in.seq, "retire seq %u, want %u", (unsigned)get_bits(m, 6, 16), in.seq);
				CHECK(h, get_bits(m, 22, 18) == in.pc, "retire pc");
				CHECK(h, get_bits(m, 40, 32) == in.active, "retire active");
				CHECK(h, get_bits(m, 72, 32) == in.exec, "retire exec");
				CHECK(h, get_bits(m, 104, 2) == (in.rd == WG_REG_RZ ? 0u : 1u), "retire dst");
				CHECK(h, get_bits(m, 106, 6) == in.rd, "retire reg");
				CHECK(h, get_bits(m, 112, 3) == 4, "retire beat 0, last");
				for (unsigned l = 0; l < 32; l++) {
					if (!(in.exec >> l & 1))
						continue;
					if (!CHECK(h, t->ret_data_o[l] == in.want[l], "retire op %u.%u lane %u a=%08x: got %08x, want %08x",
					           in.op, in.mod, l, in.a[l], t->ret_data_o[l], in.want[l]))
						break;
				}
				inflight.pop_front();
				retired++;
			}
		}
		h.tick();
	}

	bool busy() const
	{
		return !pending[0].empty() || !pending[1].empty() || !inflight.empty() || !wb_q.empty();
	}

	void drain(const char *phase)
	{
		uint64_t start = h.cycle();
		while (busy() && h.cycle() - start < 20000000)
			cycle();
		CHECK(h, !busy(), "%s: everything retired (%zu in flight)", phase, inflight.size());
		for (int i = 0; i < 20; i++)
			cycle();
		CHECK(h, h.top->idle_o, "%s: idle afterwards", phase);
		CHECK(h, h.top->wb_valid_o == 0 && !h.top->ret_valid_o, "%s: no stray beats", phase);
	}
};

// Special operand classes.
static const uint32_t kSpecialF[] = {
	0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u, 0x7F800001u,
	0x00000001u, 0x80000001u, 0x007FFFFFu, 0x00400000u, 0x00800000u, 0x80800000u, 0x7F7FFFFFu,
	0xFF7FFFFFu, 0x3F800000u, 0xBF800000u, 0x40000000u, 0x3F000000u, 0x40490FDBu, 0xC0490FDBu,
	0x3FC90FDBu, 0x43000000u, 0xC3160000u, 0xC3150000u, 0x42FE0000u, 0x39000000u, 0x45800000u,
	0x7E800000u, 0x00000003u, 0x3F7FFFFFu, 0x3F800001u,
};
static const uint32_t kSpecialI[] = {
	0, 1, 2, 3, 7, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFF9u, 0x10000u, 0x12345678u,
	0x80000001u, 100, 0xFFFFFF9Cu, 31,
};

static void fill_from(uint32_t *x, const uint32_t *cls, unsigned ncls, unsigned off)
{
	for (unsigned t = 0; t < 32; t++)
		x[t] = cls[(off + t) % ncls];
}

int main(int argc, char **argv)
{
	wg::Harness<Vwg_sfu> h(argc, argv, "test_sfu", 200000000);
	Tb tb(h);
	uint32_t a[32], b[32];
	const unsigned nf = sizeof(kSpecialF) / 4, ni = sizeof(kSpecialI) / 4;

	h.top->lane_en_i = (1ull << SFU_LANES) - 1;
	h.reset();

	// Figures (printed, not checked): cycles from dispatch to the retire beat of
	// one warp instruction, and cycles per instruction of 16 back-to-back ones.
	tb.offer_pct = tb.wb_pct = tb.ret_pct = 100;
	for (unsigned k = 0; k < 4; k++) {
		static const unsigned ops[] = { WG_OP_MUFU, WG_OP_FDIV, WG_OP_FSQRT, WG_OP_IDIV };
		static const char *const names[] = { "MUFU", "FDIV", "FSQRT", "IDIV/IREM" };
		for (unsigned t = 0; t < 32; t++) {
			a[t] = 0x3FC00000u + t;
			b[t] = 0x40400000u + t;
		}
		uint64_t c0 = h.cycle();
		tb.add(ops[k], 0, a, b, 0xFFFFFFFFu);
		tb.drain("latency");
		uint64_t lat = h.cycle() - c0 - 20, c1 = h.cycle();
		for (unsigned n = 0; n < 16; n++)
			tb.add(ops[k], 0, a, b, 0xFFFFFFFFu);
		tb.drain("throughput");
		printf("test_sfu: SFU_LANES=%d %-9s latency %3u cycles, %5.1f cycles per warp instruction\n", SFU_LANES,
		       names[k], (unsigned)lat, (double)(h.cycle() - c1 - 20 - lat) / 15.0);
	}
	tb.offer_pct = 80;
	tb.wb_pct = tb.ret_pct = 70;

	// special: every MUFU function on every class; FDIV on every pair of classes;
	// FSQRT on every class; IDIV/IREM on every pair of integer classes.
	for (unsigned fn = 0; fn < 7; fn++) {
		fill_from(a, kSpecialF, nf, 0);
		tb.add(WG_OP_MUFU, fn, a, nullptr, 0xFFFFFFFFu);
	}
	for (unsigned i = 0; i < nf; i++) {
		for (unsigned t = 0; t < 32; t++) {
			a[t] = kSpecialF[i];
			b[t] = kSpecialF[t % nf];
		}
		tb.add(WG_OP_FDIV, 0, a, b, 0xFFFFFFFFu);
	}
	fill_from(a, kSpecialF, nf, 0);
	tb.add(WG_OP_FSQRT, 0, a, nullptr, 0xFFFFFFFFu);
	for (unsigned i = 0; i < ni; i++) {
		for (unsigned t = 0; t < 32; t++) {
			a[t] = kSpecialI[i];
			b[t] = kSpecialI[t % ni];
		}
		for (unsigned op = WG_OP_IDIV; op <= WG_OP_IREM; op++)
			for (unsigned mod = 0; mod < 2; mod++)
				tb.add(op, mod, a, b, 0xFFFFFFFFu);
	}
	tb.drain("special");

	// sweep: consecutive patterns at the tables' binades and a stride through all
	// patterns, every MUFU function (for the lane pipeline, one group per cycle).
	static const uint32_t bases[] = { 0x3F800000u, 0x40000000u, 0x00000000u, 0x40490000u, 0xC2FC0000u, 0x3F3FF000u };
	for (unsigned fn = 0; fn < 7; fn++) {
		for (uint32_t base : bases)
			for (uint32_t i = 0; i < 4096; i += 32) {
				for (unsigned t = 0; t < 32; t++)
					a[t] = base + i + t;
				tb.add(WG_OP_MUFU, fn, a, nullptr, 0xFFFFFFFFu);
			}
		for (uint64_t p = 0; p < (1ull << 32); p += 32ull * 65537u) {
			for (unsigned t = 0; t < 32; t++)
				a[t] = (uint32_t)(p + (uint64_t)t * 65537u + fn);
			tb.add(WG_OP_MUFU, fn, a, nullptr, 0xFFFFFFFFu);
		}
		tb.drain("sweep");
	}
	for (unsigned n = 0; n < h.scaled(60); n++) {
		for (unsigned t = 0; t < 32; t++) {
			a[t] = (uint32_t)h.rng();
			b[t] = h.chance(20) ? (uint32_t)h.rand(16) : (uint32_t)h.rng() >> h.rand(32);
		}
		tb.add(WG_OP_FDIV, 0, a, b, 0xFFFFFFFFu);
		tb.add(WG_OP_FSQRT, 0, a, nullptr, 0xFFFFFFFFu);
		tb.add(WG_OP_IDIV, n & 1, a, b, 0xFFFFFFFFu);
		tb.add(WG_OP_IREM, (n >> 1) & 1, a, b, 0xFFFFFFFFu);
	}
	tb.drain("sweep iterative");

	// mixed: random instructions and masks, random lane power-off, slow consumers.
	tb.sleep_pct = 5;
	tb.wb_pct = 40;
	tb.ret_pct = 50;
	for (unsigned n = 0; n < h.scaled(400); n++) {
		unsigned k = (unsigned)h.rand(12), op, mod = 0;
		uint32_t exec = h.chance(10) ? 0 : h.chance(30) ? 0xFFFFFFFFu : (uint32_t)h.rng() & (uint32_t)h.rng();
		if (k < 7) {
			op = WG_OP_MUFU;
			mod = k;
		} else {
			op = k == 7 ? WG_OP_FDIV : k == 8 ? WG_OP_FSQRT : k < 11 ? WG_OP_IDIV : WG_OP_IREM;
			mod = (unsigned)h.rand(2) * (op >= WG_OP_IDIV);
		}
		for (unsigned t = 0; t < 32; t++) {
			a[t] = h.chance(10) ? kSpecialF[h.rand(nf)] : (uint32_t)h.rng();
			b[t] = h.chance(10) ? kSpecialI[h.rand(ni)] : (uint32_t)h.rng();
			if (op == WG_OP_MUFU && h.chance(50))
				a[t] = (a[t] & 0x807FFFFFu) | (uint32_t)(112 + h.rand(30)) << 23; // |a| in [2^-15, 2^15)
		}
		tb.add(op, mod, a, b, exec);
		if (h.chance(5))
			tb.drain("mixed");
	}
	tb.sleep_pct = 0;
	h.top->lane_en_i = (1ull << SFU_LANES) - 1;
	tb.drain("mixed");
	CHECK(h, tb.retired == tb.accepted, "every accepted instruction retired (%u of %u)", tb.retired, tb.accepted);
	printf("test_sfu: SFU_LANES=%d: %u warp instructions, %u write-backs\n", SFU_LANES, tb.retired, tb.written);
	return h.finish();
}
