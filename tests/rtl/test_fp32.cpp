// test_fp32: rtl/wg_fp32_unit.sv against the C reference (tests/rtl/fp32_ref.h).
//
//   test_fp32 [--count=N] [--seed=N] [--trace[=FILE]] [--timeout=N]
//
// Phases: hand-checked vectors, directed edge cases (value grids, rounding ties at every
// position, cancellation, overflow/underflow, conversion boundaries), then N random
// operations per op class (default 5000000). One operation is issued per cycle with
// occasional idle cycles; every result must come out exactly FP32_LATENCY cycles later,
// bit-identical to the reference. The first mismatches are printed with the operation,
// the inputs and both results; the run ends with "N passed, M failed" (one check per
// operation, per hand-checked vector against the reference, and after reset) and a
// non-zero exit on any failure. --seed, --trace and --timeout are the options of
// sim/harness.h.
//
// No floating-point arithmetic happens in this file: values are built as bit patterns
// and all arithmetic is in the reference's own translation unit.

#include "Vwg_fp32_unit.h"
#include "harness.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fp32_ref.h"

namespace {

constexpr unsigned kLatency = 4;  // wg_fp32_pkg::FP32_LATENCY
constexpr unsigned kRing = 8;     // > kLatency

enum Op : unsigned {
	FADD = FP32_REF_FADD,
	FSUB = FP32_REF_FSUB,
	FMUL = FP32_REF_FMUL,
	FFMA = FP32_REF_FFMA,
	FMIN = FP32_REF_FMIN,
	FMAX = FP32_REF_FMAX,
	FSETP = FP32_REF_FSETP,
	I2F = FP32_REF_I2F,
	F2I = FP32_REF_F2I,
	FRND = FP32_REF_FRND,
	NOPS = FP32_REF_NOPS
};

constexpr uint32_t kQNaN = FP32_REF_QNAN;
constexpr uint32_t kSign = 0x80000000u;
constexpr uint32_t kOne = 0x3F800000u;

// --- random numbers (xorshift64*) ---------------------------------------------------
struct Rng {
	uint64_t s;
	explicit Rng(uint64_t seed) : s(seed ? seed : 0x9E3779B97F4A7C15ull) {}
	uint64_t next()
	{
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		return s * 0x2545F4914F6CDD1Dull;
	}
	uint32_t u32() { return (uint32_t)(next() >> 32); }
	unsigned below(unsigned n) { return (unsigned)(((next() >> 32) * n) >> 32); }
	int range(int lo, int hi) { return lo + (int)below((unsigned)(hi - lo + 1)); }
};

uint32_t pack(unsigned sign, int exp, uint32_t mant)
{
	return (sign ? kSign : 0u) | ((uint32_t)exp & 0xFFu) << 23 | (mant & 0x7FFFFFu);
}
unsigned exp_of(uint32_t x) { return (x >> 23) & 0xFFu; }

// Interesting values: zeros, subnormal and normal extremes, infinities, NaNs with
// payloads, values near 1 and near the integer-precision limits.
const uint32_t kValues[] = {
	0x00000000, 0x00000001, 0x00000002, 0x00000003, 0x00400000, 0x007FFFFF, 0x007FFFFE,
	0x00800000, 0x00800001, 0x00FFFFFF, 0x01000000, 0x0C000000, 0x1F800000, 0x33800000,
	0x33800001, 0x34000000, 0x3DCCCCCD, 0x3EAAAAAB, 0x3F000000, 0x3F000001, 0x3F7FFFFF,
	0x3F800000, 0x3F800001, 0x3FC00000, 0x3FFFFFFF, 0x40000000, 0x40200000, 0x40400000,
	0x4B000000, 0x4B000001, 0x4B7FFFFF, 0x4B800000, 0x4EFFFFFF, 0x4F000000, 0x4F7FFFFF,
	0x4F800000, 0x5F000000, 0x7E800000, 0x7F000000, 0x7F7FFFFE, 0x7F7FFFFF, 0x7F800000,
	0x7F800001, 0x7FC00000, 0x7FFFFFFF, 0x7FA5A5A5,
};
constexpr size_t kNumValues = sizeof kValues / sizeof kValues[0];

uint32_t value(size_t i)  // both signs
{
	return kValues[i / 2] ^ ((i & 1) ? kSign : 0u);
}
constexpr size_t kNumSigned = 2 * kNumValues;

// --- the device under test ----------------------------------------------------------
using H = wg::Harness<Vwg_fp32_unit>;

struct Expect {
	bool valid;
	unsigned op, mod;
	uint32_t a, b, c, result;
	int pred;
};

class Bench {
public:
	explicit Bench(H &h) : h_(h)
	{
		memset(ring_, 0, sizeof ring_);
		h_.top->valid_i = 0;
		h_.reset();
		CHECK(h_, !h_.top->valid_o, "valid_o after reset");
	}

	// One cycle issuing op.
	void issue(unsigned op, unsigned mod, uint32_t a, uint32_t b, uint32_t c)
	{
		Expect &e = ring_[n_ % kRing];
		e.valid = true;
		e.op = op;
		e.mod = mod;
		e.a = a;
		e.b = b;
		e.c = c;
		e.result = fp32_ref(op, mod, a, b, c, &e.pred);
		auto *t = h_.top;
		t->valid_i = 1;
		t->op_i = op;
		t->mod_i = mod;
		t->a_i = a;
		t->b_i = b;
		t->c_i = c;
		cycle();
	}
	// An idle cycle, with garbage on the data inputs.
	void idle(uint32_t noise)
	{
		ring_[n_ % kRing].valid = false;
		auto *t = h_.top;
		t->valid_i = 0;
		t->op_i = noise % NOPS;
		t->mod_i = noise >> 8;
		t->a_i = noise * 0x9E3779B9u;
		t->b_i = noise ^ 0x5A5A5A5Au;
		t->c_i = ~noise;
		cycle();
	}
	void drain()
	{
		for (unsigned i = 0; i <= kLatency; i++)
			idle(i);
	}
	uint64_t passed(unsigned op) const { return pass_[op]; }
	uint64_t failed(unsigned op) const { return fail_[op]; }

private:
	// The inputs of cycle n_ are applied; after the clock edge the outputs belong to
	// the operation of cycle n_ + 1 - kLatency.
	void cycle()
	{
		h_.tick();
		n_++;
		const Expect &e = ring_[(n_ + kRing - kLatency) % kRing];
		bool want = n_ >= kLatency && e.valid;
		auto *t = h_.top;

		if (!want) {  // counted only when it fails
			if (t->valid_o)
				CHECK(h_, !t->valid_o, "valid_o without an operation");
			return;
		}
		uint32_t got = t->result_o;
		int got_pred = t->pred_o;
		bool ok = t->valid_o && got == e.result && got_pred == e.pred;
		(ok ? pass_ : fail_)[e.op]++;
		CHECK(h_, ok,
		      "%s a=%08x (%.9g) b=%08x (%.9g) c=%08x (%.9g): rtl valid %d %08x (%.9g) pred %d,"
		      " reference %08x (%.9g) pred %d",
		      fp32_ref_name(e.op, e.mod), e.a, fp32_ref_value(e.a), e.b, fp32_ref_value(e.b),
		      e.c, fp32_ref_value(e.c), t->valid_o, got, fp32_ref_value(got), got_pred,
		      e.result, fp32_ref_value(e.result), e.pred);
	}

	H &h_;
	Expect ring_[kRing];
	uint64_t n_ = 0;
	uint64_t pass_[NOPS] = {}, fail_[NOPS] = {};
};

// --- hand-checked vectors (independent of the C library) -----------------------------
struct Golden {
	unsigned op, mod;
	uint32_t a, b, c, result;
};

const Golden kGolden[] = {
	// round to nearest even at the last place; overflow by rounding
	{ FADD, 0, 0x3F800000, 0x33800000, 0, 0x3F800000 },  // 1 + 2^-24: tie, even
	{ FADD, 0, 0x3F800001, 0x33800000, 0, 0x3F800002 },  // odd: up
	{ FADD, 0, 0x3F800000, 0x33800001, 0, 0x3F800001 },  // above the tie
	{ FADD, 0, 0x7F7FFFFF, 0x73000000, 0, 0x7F800000 },  // max + half ulp: to inf
	{ FADD, 0, 0x7F7FFFFF, 0x72FFFFFF, 0, 0x7F7FFFFF },
	{ FADD, 0, 0x00000001, 0x00000001, 0, 0x00000002 },  // subnormals add exactly
	{ FADD, 0, 0x007FFFFF, 0x00000001, 0, 0x00800000 },  // into the normal range
	// signs of zero
	{ FADD, 0, 0x00000000, 0x80000000, 0, 0x00000000 },
	{ FADD, 0, 0x80000000, 0x80000000, 0, 0x80000000 },
	{ FSUB, 0, 0x3F800000, 0x3F800000, 0, 0x00000000 },
	{ FSUB, 0, 0xBF800000, 0xBF800000, 0, 0x00000000 },
	{ FSUB, 0, 0x80000000, 0x00000000, 0, 0x80000000 },
	{ FMUL, 0, 0x80000000, 0x40A00000, 0, 0x80000000 },
	{ FMUL, 0, 0x00000001, 0xBF000000, 0, 0x80000000 },  // -2^-150: tie to -0
	{ FMUL, 0, 0x00000001, 0x3F400000, 0, 0x00000001 },  // 0.75 ulp: up
	{ FMUL, 0, 0x00000003, 0x3F000000, 0, 0x00000002 },  // 1.5 ulp: tie to even
	{ FMUL, 0, 0x00800000, 0x3F000000, 0, 0x00400000 },  // exact subnormal
	{ FMUL, 0, 0x7F7FFFFF, 0x40000000, 0, 0x7F800000 },
	{ FMUL, 0, 0x3F800800, 0x3F800800, 0, 0x3F801000 },  // (1+2^-12)^2: tie, even
	// NaN: canonical, invalid operations
	{ FMUL, 0, 0x7F800000, 0x00000000, 0, kQNaN },
	{ FADD, 0, 0x7F800000, 0xFF800000, 0, kQNaN },
	{ FADD, 0, 0x7F800001, 0x3F800000, 0, kQNaN },
	{ FFMA, 0, 0x7F800000, 0x3F800000, 0xFF800000, kQNaN },
	{ FFMA, 0, 0x00000000, 0x7F800000, 0x7FC00000, kQNaN },
	{ FFMA, 0, 0x3F800000, 0x3F800000, 0x7F800000, 0x7F800000 },
	// fused: (1+2^-12)^2 - (1+2^-11) = 2^-24 (separately rounded: 0)
	{ FFMA, 0, 0x3F800800, 0x3F800800, 0xBF801000, 0x33800000 },
	{ FFMA, 0, 0x00000000, 0x3F800000, 0x80000000, 0x00000000 },
	{ FFMA, 0, 0x80000000, 0x3F800000, 0x80000000, 0x80000000 },
	{ FFMA, 0, 0x3F800000, 0x00000001, 0x00000001, 0x00000002 },
	// directed rounding: mod = rounding (1 RZ, 2 RM, 3 RP) | ftz << 2
	{ FADD, 1, 0x3F800000, 0x33800000, 0, 0x3F800000 },  // RZ 1 + 2^-24 (a tie): 1
	{ FADD, 2, 0x3F800000, 0x33800000, 0, 0x3F800000 },  // RM: 1
	{ FADD, 3, 0x3F800000, 0x33800000, 0, 0x3F800001 },  // RP: 1 + 2^-23
	{ FADD, 3, 0x3F800000, 0x00000001, 0, 0x3F800001 },  // RP 1 + 2^-149: up
	{ FADD, 1, 0x3F800000, 0x00000001, 0, 0x3F800000 },  // RZ: 1
	{ FADD, 2, 0xBF800000, 0x80000001, 0, 0xBF800001 },  // RM -1 - 2^-149: down
	{ FADD, 3, 0xBF800000, 0x80000001, 0, 0xBF800000 },  // RP: -1
	{ FADD, 1, 0xBF800000, 0x80000001, 0, 0xBF800000 },  // RZ: -1
	{ FMUL, 3, 0x3F800800, 0x3F800800, 0, 0x3F801001 },  // RP (1+2^-12)^2 = 1+2^-11+2^-24
	{ FMUL, 1, 0x3F800800, 0x3F800800, 0, 0x3F801000 },  // RZ
	{ FFMA, 1, 0x3F800000, 0x3F800000, 0x33800000, 0x3F800000 },  // RZ 1*1 + 2^-24
	{ FFMA, 3, 0x3F800000, 0x3F800000, 0x33800000, 0x3F800001 },  // RP
	// overflow: infinity when the mode rounds away from zero, else the largest finite
	{ FADD, 1, 0x7F7FFFFF, 0x7F7FFFFF, 0, 0x7F7FFFFF },  // RZ max + max
	{ FADD, 2, 0x7F7FFFFF, 0x7F7FFFFF, 0, 0x7F7FFFFF },  // RM
	{ FADD, 3, 0x7F7FFFFF, 0x7F7FFFFF, 0, 0x7F800000 },  // RP
	{ FADD, 1, 0xFF7FFFFF, 0xFF7FFFFF, 0, 0xFF7FFFFF },  // RZ -max - max
	{ FADD, 2, 0xFF7FFFFF, 0xFF7FFFFF, 0, 0xFF800000 },  // RM
	{ FADD, 3, 0xFF7FFFFF, 0xFF7FFFFF, 0, 0xFF7FFFFF },  // RP
	{ FADD, 3, 0x7F7FFFFF, 0x00000001, 0, 0x7F800000 },  // RP max + 2^-149: past max
	{ FADD, 1, 0x7F7FFFFF, 0x73000000, 0, 0x7F7FFFFF },  // RZ max + half ulp
	{ FMUL, 1, 0x7F7FFFFF, 0x40000000, 0, 0x7F7FFFFF },  // RZ max * 2
	{ FMUL, 2, 0x7F7FFFFF, 0xC0000000, 0, 0xFF800000 },  // RM max * -2
	{ FFMA, 3, 0x7F7FFFFF, 0xC0000000, 0x3F800000, 0xFF7FFFFF },  // RP max * -2 + 1
	// signed zeros: x + (-x) is -0 in RM only; +0 products stay +0
	{ FADD, 2, 0x3F800000, 0xBF800000, 0, 0x80000000 },  // RM 1 + -1
	{ FADD, 3, 0x3F800000, 0xBF800000, 0, 0x00000000 },  // RP 1 + -1
	{ FSUB, 2, 0x3F800000, 0x3F800000, 0, 0x80000000 },  // RM 1 - 1
	{ FADD, 2, 0x00000000, 0x80000000, 0, 0x80000000 },  // RM +0 + -0
	{ FADD, 2, 0x00000000, 0x00000000, 0, 0x00000000 },  // RM +0 + +0
	{ FFMA, 2, 0x3F800000, 0x3F800000, 0xBF800000, 0x80000000 },  // RM 1*1 - 1
	{ FFMA, 2, 0x80000000, 0x3F800000, 0x00000000, 0x80000000 },  // RM -0*1 + +0
	{ FFMA, 3, 0x80000000, 0x3F800000, 0x00000000, 0x00000000 },  // RP -0*1 + +0
	{ FMUL, 2, 0x00000000, 0x40A00000, 0, 0x00000000 },  // RM +0 * 5
	{ FMUL, 2, 0x80000000, 0x40A00000, 0, 0x80000000 },  // RM -0 * 5
	// subnormal results
	{ FMUL, 1, 0x00000003, 0x3F000000, 0, 0x00000001 },  // RZ 1.5 ulp
	{ FMUL, 2, 0x00000003, 0x3F000000, 0, 0x00000001 },  // RM
	{ FMUL, 3, 0x00000003, 0x3F000000, 0, 0x00000002 },  // RP
	{ FMUL, 3, 0x00000001, 0x3F000000, 0, 0x00000001 },  // RP 2^-150: smallest subnormal
	{ FMUL, 2, 0x00000001, 0x3F000000, 0, 0x00000000 },  // RM: +0
	{ FMUL, 2, 0x00000001, 0xBF000000, 0, 0x80000001 },  // RM -2^-150
	{ FMUL, 3, 0x00000001, 0xBF000000, 0, 0x80000000 },  // RP: -0
	// FTZ: subnormal operands and results are zeros of their sign
	{ FADD, 4, 0x00000001, 0x00000001, 0, 0x00000000 },
	{ FADD, 7, 0x3F800000, 0x00000001, 0, 0x3F800000 },  // RP: 1 + 0, exact
	{ FMUL, 4, 0x00800000, 0x3F000000, 0, 0x00000000 },  // 2^-127 flushed
	{ FMUL, 4, 0x80800000, 0x3F000000, 0, 0x80000000 },
	{ FMUL, 7, 0x3F7FFFFF, 0x00800000, 0, 0x00800000 },  // RP: rounds up to 2^-126
	{ FMUL, 5, 0x3F7FFFFF, 0x00800000, 0, 0x00000000 },  // RZ: subnormal, flushed
	{ FSUB, 6, 0x00000001, 0x00000001, 0, 0x80000000 },  // RM: +0 - +0 = -0
	{ FFMA, 4, 0x00800000, 0x3F800000, 0x80000001, 0x00800000 },
	// minNum / maxNum
	{ FMIN, 0, 0x80000000, 0x00000000, 0, 0x80000000 },
	{ FMIN, 0, 0x00000000, 0x80000000, 0, 0x80000000 },
	{ FMAX, 0, 0x80000000, 0x00000000, 0, 0x00000000 },
	{ FMIN, 0, 0x7FC00000, 0x3F800000, 0, 0x3F800000 },
	{ FMAX, 0, 0xBF800000, 0xFF800001, 0, 0xBF800000 },
	{ FMIN, 0, 0x7FC00000, 0xFFC00000, 0, kQNaN },
	{ FMIN, 0, 0xFF800000, 0x7F7FFFFF, 0, 0xFF800000 },
	// compares: ordered, +0 == -0
	{ FSETP, 0, 0x00000000, 0x80000000, 0, 1 },
	{ FSETP, 1, 0x7FC00000, 0x3F800000, 0, 0 },
	{ FSETP, 1, 0x3F800000, 0x3F800001, 0, 1 },
	{ FSETP, 2, 0x80000000, 0x00000000, 0, 0 },
	{ FSETP, 3, 0x80000000, 0x00000000, 0, 1 },
	{ FSETP, 2, 0xFF800000, 0x7F800000, 0, 1 },
	{ FSETP, 5, 0x7FC00000, 0x7FC00000, 0, 0 },
	{ FSETP, 6, 0x3F800000, 0x7F800000, 0, 1 },
	{ FSETP, 7, 0x3F800000, 0xFF800001, 0, 1 },
	// integer to float
	{ I2F, 0, 16777217, 0, 0, 0x4B800000 },  // 2^24 + 1: tie, even
	{ I2F, 0, 16777219, 0, 0, 0x4B800002 },  // 2^24 + 3: tie, up
	{ I2F, 0, 0x80000000, 0, 0, 0xCF000000 },
	{ I2F, 0, 0x7FFFFFFF, 0, 0, 0x4F000000 },
	{ I2F, 0, 0xFFFFFFFF, 0, 0, 0xBF800000 },
	{ I2F, 1, 0xFFFFFFFF, 0, 0, 0x4F800000 },
	{ I2F, 1, 0xFFFFFF80, 0, 0, 0x4F800000 },  // tie above an odd significand
	{ I2F, 1, 0xFFFFFF7F, 0, 0, 0x4F7FFFFF },
	{ I2F, 0, 0, 0, 0, 0x00000000 },
	// float to integer: mod = unsigned | rounding << 1 (RN 0, RZ 1, RM 2, RP 3)
	{ F2I, 0, 0x40200000, 0, 0, 2 },            // RN 2.5
	{ F2I, 0, 0x40600000, 0, 0, 4 },            // RN 3.5
	{ F2I, 0, 0xC0200000, 0, 0, 0xFFFFFFFE },   // RN -2.5
	{ F2I, 2, 0xC0200000, 0, 0, 0xFFFFFFFE },   // RZ -2.5
	{ F2I, 4, 0xC0200000, 0, 0, 0xFFFFFFFD },   // RM -2.5
	{ F2I, 6, 0xC0200000, 0, 0, 0xFFFFFFFE },   // RP -2.5
	{ F2I, 6, 0x40200000, 0, 0, 3 },            // RP 2.5
	{ F2I, 4, 0xBF000000, 0, 0, 0xFFFFFFFF },   // RM -0.5
	{ F2I, 1, 0xBECCCCCD, 0, 0, 0 },            // U32 RN -0.4
	{ F2I, 1, 0xBF4CCCCD, 0, 0, 0 },            // U32 RN -0.8: -1 saturates to 0
	{ F2I, 7, 0x3E800000, 0, 0, 1 },            // U32 RP 0.25
	{ F2I, 0, 0x4F000000, 0, 0, 0x7FFFFFFF },   // 2^31
	{ F2I, 0, 0x4EFFFFFF, 0, 0, 0x7FFFFF80 },
	{ F2I, 0, 0xCF000000, 0, 0, 0x80000000 },   // -2^31
	{ F2I, 0, 0xCF000001, 0, 0, 0x80000000 },
	{ F2I, 1, 0x4F800000, 0, 0, 0xFFFFFFFF },   // 2^32
	{ F2I, 1, 0x4F7FFFFF, 0, 0, 0xFFFFFF00 },
	{ F2I, 0, 0x7FC00000, 0, 0, 0 },
	{ F2I, 1, 0xFF800000, 0, 0, 0 },
	{ F2I, 0, 0xFF800000, 0, 0, 0x80000000 },
	{ F2I, 0, 0x7F800000, 0, 0, 0x7FFFFFFF },
	// round to integral
	{ FRND, 0, 0x40200000, 0, 0, 0x40000000 },  // RN 2.5 -> 2
	{ FRND, 0, 0xBF000000, 0, 0, 0x80000000 },  // RN -0.5 -> -0
	{ FRND, 3, 0xBF000000, 0, 0, 0x80000000 },  // RP -0.5 -> -0
	{ FRND, 2, 0x3F000000, 0, 0, 0x00000000 },  // RM 0.5 -> +0
	{ FRND, 2, 0xBDCCCCCD, 0, 0, 0xBF800000 },  // RM -0.1 -> -1
	{ FRND, 3, 0x3DCCCCCD, 0, 0, 0x3F800000 },  // RP 0.1 -> 1
	{ FRND, 1, 0xBFF33333, 0, 0, 0xBF800000 },  // RZ -1.9 -> -1
	{ FRND, 0, 0x4AFFFFFF, 0, 0, 0x4B000000 },  // RN 8388607.5 -> 2^23
	{ FRND, 3, 0x00000001, 0, 0, 0x3F800000 },
	{ FRND, 0, 0x7FA00000, 0, 0, kQNaN },
	{ FRND, 2, 0xFF800000, 0, 0, 0xFF800000 },
};

// --- directed cases ---------------------------------------------------------------
void directed(Bench &tb, Rng &r, uint64_t &count)
{
	auto go = [&](unsigned op, unsigned mod, uint32_t a, uint32_t b, uint32_t c) {
		tb.issue(op, mod, a, b, c);
		count++;
	};

	// Value grids: all pairs for the two-operand operations, all triples for FFMA.
	for (size_t i = 0; i < kNumSigned; i++) {
		for (size_t j = 0; j < kNumSigned; j++) {
			uint32_t a = value(i), b = value(j);
			for (unsigned mod = 0; mod < 8; mod++) {
				go(FADD, mod, a, b, 0);
				go(FSUB, mod, a, b, 0);
				go(FMUL, mod, a, b, 0);
			}
			go(FMIN, 0, a, b, 0);
			go(FMAX, 0, a, b, 0);
			for (unsigned cc = 0; cc < 8; cc++)
				go(FSETP, cc, a, b, 0);
			for (size_t k = 0; k < kNumSigned; k++) {
				go(FFMA, 0, a, b, value(k));
				go(FFMA, 1 + r.below(7), a, b, value(k));
			}
		}
		for (unsigned mod = 0; mod < 8; mod++) {
			go(F2I, mod, value(i), 0, 0);
			go(I2F, mod & 1, value(i), 0, 0);
			go(FRND, mod & 3, value(i), 0, 0);
		}
	}

	// Ties and near-ties at every rounding position of an addition, for results in
	// every binade class (normal, first normal, subnormal) and both parities.
	const int exps[] = { 1, 2, 24, 25, 100, 127, 128, 200, 253, 254 };
	for (int ea : exps) {
		for (uint32_t ma : { 0u, 1u, 0x7FFFFFu, 0x400001u, 0x2AAAAAu }) {
			for (int k = 0; k <= 50; k++) {
				int eb = ea - k;
				for (uint32_t mb : { 0u, 1u, 0x7FFFFFu, 0x400000u }) {
					uint32_t a = pack(0, ea, ma);
					// below the normal range: the subnormal at the matching scale
					uint32_t b = eb >= 1 ? pack(0, eb, mb)
							     : (0x800000u | mb) >> (1 - eb > 31 ? 31 : 1 - eb);
					for (unsigned mod = 0; mod < 8; mod++) {
						go(FADD, mod, a, b, 0);
						go(FADD, mod, a, b ^ kSign, 0);
						go(FSUB, mod, a ^ kSign, b, 0);
						go(FFMA, mod, a, kOne, b ^ kSign);
					}
				}
			}
		}
	}

	// Products (1 + 2^-i)(1 + 2^-j) = 1 + 2^-i + 2^-j + 2^-(i+j): exact ties and
	// near-ties, scaled to normal, subnormal-boundary, subnormal and overflow results.
	const int scales[][2] = { { 127, 127 }, { 60, 68 }, { 30, 90 }, { 40, 70 }, { 20, 90 },
				  { 1, 127 }, { 1, 150 }, { 190, 190 }, { 200, 181 }, { 10, 100 } };
	for (auto &s : scales) {
		for (int i = 1; i <= 23; i++) {
			for (int j = 1; j <= 23; j++) {
				uint32_t a = pack(0, s[0], 1u << (23 - i));
				uint32_t b = pack(r.below(2), s[1], 1u << (23 - j));
				for (unsigned mod = 0; mod < 8; mod++) {
					go(FMUL, mod, a, b, 0);
					go(FMUL, mod, a | 1u, b, 0);
					go(FFMA, mod, a, b, 0x80000000);
				}
				// fused difference: a*b - fl(a*b) is the exact rounding error
				go(FFMA, 0, a, b, fp32_ref_mul(a, b) ^ kSign);
				go(FFMA, 0, a | 1u, b | 1u, fp32_ref_mul(a | 1u, b | 1u) ^ kSign);
				go(FFMA, 1 + r.below(7), a | 1u, b | 1u, fp32_ref_mul(a | 1u, b | 1u) ^ kSign);
			}
		}
	}

	// Catastrophic cancellation: x - y for y within a few ulps of x, all binades.
	for (int e = 0; e <= 254; e++) {
		for (int t = 0; t < 8; t++) {
			uint32_t a = pack(r.below(2), e, r.u32());
			int32_t d = r.range(-4, 4);
			uint32_t b = a + (uint32_t)d;
			if (exp_of(b) == 255)
				b = a;
			unsigned mod = r.below(8);
			go(FSUB, mod, a, b, 0);
			go(FADD, mod, a, b ^ kSign, 0);
			go(FFMA, mod, a, kOne, b ^ kSign);
		}
	}

	// Overflow and underflow of products and sums near the limits.
	for (int t = 0; t < 20000; t++) {
		int ea = r.range(1, 254);
		int target = r.below(2) ? r.range(-30, 3) : r.range(250, 258);  // biased
		int eb = target + 127 - ea;
		if (eb < 0 || eb > 254)
			continue;
		uint32_t a = pack(r.below(2), ea, r.u32() & ~((1u << r.below(24)) - 1));
		uint32_t b = pack(r.below(2), eb, r.u32() & ~((1u << r.below(24)) - 1));
		unsigned mod = r.below(2) ? 0 : r.below(8);
		go(FMUL, mod, a, b, 0);
		go(FFMA, mod, a, b, pack(r.below(2), r.range(0, 3), r.u32()));
	}

	// Integer to float: 2^k, 2^k +- 1, ties at the 24-bit boundary, both signs.
	for (int k = 0; k < 32; k++) {
		uint32_t p = 1u << k;
		for (uint32_t x : { p, p - 1, p + 1, p + 3, p | (p >> 24), p | (p >> 25),
				    p | (p >> 25) | 1u, ~p, ~(p - 1), 0u - p }) {
			go(I2F, 0, x, 0, 0);
			go(I2F, 1, x, 0, 0);
		}
	}

	// Float to integer and round to integral: halves, saturation boundaries.
	std::vector<uint32_t> conv;
	for (uint32_t h : { 0x3F000000u, 0x3FC00000u, 0x40200000u, 0x40600000u, 0x3EFFFFFFu,
			    0x3F000001u, 0x3F7FFFFFu, 0x4AFFFFFFu, 0x4B000000u, 0x4B7FFFFFu,
			    0x4EFFFFFFu, 0x4F000000u, 0x4F000001u, 0x4F7FFFFFu, 0x4F800000u,
			    0x00000001u, 0x00800000u, 0x3E800000u, 0x3F400000u, 0x7F800000u,
			    0x7FC00000u, 0x7F800001u, 0x00000000u })
		conv.push_back(h);
	for (int k = 0; k < 40; k++)  // n + 0.5 and n +- 1 ulp
		for (int d = -1; d <= 1; d++) {
			uint32_t x = pack(0, 127 + (k % 23) + 1, (uint32_t)(0x400000u >> (k % 23)));
			conv.push_back(x + (uint32_t)d);
		}
	for (uint32_t x : conv)
		for (uint32_t s : { 0u, kSign }) {
			for (unsigned mod = 0; mod < 8; mod++)
				go(F2I, mod, x ^ s, 0, 0);
			for (unsigned mod = 0; mod < 4; mod++)
				go(FRND, mod, x ^ s, 0, 0);
		}
}

// --- random operands ------------------------------------------------------------------
uint32_t rand_mant(Rng &r)
{
	switch (r.below(8)) {
	case 0: return 0;
	case 1: return 0x7FFFFF;
	case 2: return 1u << r.below(23);
	case 3: return (1u << r.below(24)) - 1;
	case 4: return 0x7FFFFF & ~((1u << r.below(24)) - 1);
	case 5:
	case 6: return r.u32() & ~((1u << r.below(24)) - 1);  // short significand
	default: return r.u32();
	}
}

int rand_exp(Rng &r)
{
	switch (r.below(8)) {
	case 0: return r.range(0, 3);
	case 1: return r.range(251, 254);
	case 2: return r.range(115, 140);
	case 3: return r.below(16) ? r.range(0, 254) : 255;
	default: return r.range(0, 254);
	}
}

uint32_t rand_operand(Rng &r)
{
	switch (r.below(16)) {
	case 0:
	case 1:
	case 2: return r.u32();
	case 3: return value(r.below((unsigned)kNumSigned));
	default: return pack(r.below(2), rand_exp(r), rand_mant(r));
	}
}

int clamp_exp(int e) { return e < 0 ? 0 : e > 254 ? 254 : e; }

void random_op(Bench &tb, Rng &r, unsigned op)
{
	uint32_t a = rand_operand(r), b = rand_operand(r), c = 0;
	unsigned mod = 0;

	switch (op) {
	case FADD:
	case FSUB:
		switch (r.below(8)) {
		case 0:
		case 1: b = pack(r.below(2), clamp_exp((int)exp_of(a) + r.range(-3, 3)), rand_mant(r)); break;
		case 2:
		case 3: b = pack(r.below(2), clamp_exp((int)exp_of(a) + r.range(-30, 30)), rand_mant(r)); break;
		case 4: b = (a + (uint32_t)r.range(-3, 3)) ^ (r.below(2) ? kSign : 0u); break;
		default: break;
		}
		break;
	case FMUL:
		if (r.below(3) == 0) {
			int target = r.below(3) ? r.range(-30, 5) : r.range(248, 258);
			b = pack(r.below(2), clamp_exp(target + 127 - (int)exp_of(a)), rand_mant(r));
		}
		break;
	case FFMA: {
		int ep = (int)exp_of(a) + (int)exp_of(b) - 127;
		switch (r.below(8)) {
		case 0:
		case 1: c = (fp32_ref_mul(a, b) + (uint32_t)r.range(-3, 3)) ^ kSign; break;
		case 2:
		case 3:
		case 4: c = pack(r.below(2), clamp_exp(ep + r.range(-50, 50)), rand_mant(r)); break;
		case 5: c = pack(r.below(2), clamp_exp(ep + r.range(-3, 3)), rand_mant(r)); break;
		default: c = rand_operand(r); break;
		}
		if (r.below(16) == 0) {  // products near underflow / overflow
			int target = r.below(2) ? r.range(-40, 5) : r.range(248, 258);
			b = pack(r.below(2), clamp_exp(target + 127 - (int)exp_of(a)), rand_mant(r));
		}
		break;
	}
	case FMIN:
	case FMAX:
	case FSETP:
		switch (r.below(8)) {
		case 0: b = a; break;
		case 1: b = a ^ kSign; break;
		case 2: b = a + (uint32_t)r.range(-1, 1); break;
		case 3: b = pack(r.below(2), 255, r.u32() | 1u); break;
		case 4: b = r.below(2) ? 0u : kSign; a = r.below(2) ? a : (a & kSign); break;
		default: break;
		}
		if (r.below(2)) {
			uint32_t t = a;
			a = b;
			b = t;
		}
		mod = op == FSETP ? r.below(8) : 0;
		break;
	case I2F: {
		unsigned s = r.below(32);
		a = r.u32() >> s;
		int lsb = 32 - (int)s - 24;  // last significand bit of the result
		if (lsb > 0 && r.below(2)) {  // exact tie or just off it
			a &= ~((1u << lsb) - 1);
			a |= 1u << (lsb - 1);
			a += (uint32_t)r.range(-1, 1);
		}
		if (r.below(2))
			a = 0u - a;
		mod = r.below(2);
		break;
	}
	case F2I:
	case FRND:
		if (r.below(8)) {
			int e = op == F2I ? r.range(100, 165) : r.range(110, 155);
			a = pack(r.below(2), e, rand_mant(r));
		}
		mod = op == F2I ? r.below(8) : r.below(4);
		break;
	default: break;
	}
	if (op <= FFMA)  // half round to nearest, half any rounding and FTZ
		mod = r.below(2) ? 0 : r.below(8);
	tb.issue(op, mod, a, b, c);
}

// Takes this test's own options out of argv (the rest goes to the harness).
uint64_t take_count(int &argc, char **argv, uint64_t count)
{
	int out = 1;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--count=", 8)) {
			count = strtoull(argv[i] + 8, nullptr, 0);
		} else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
			count = strtoull(argv[++i], nullptr, 0);
		} else {
			argv[out++] = argv[i];
		}
	}
	argc = out;
	return count;
}

}  // namespace

int main(int argc, char **argv)
{
	uint64_t count = take_count(argc, argv, 5000000);
	H h(argc, argv, "test_fp32", (count * NOPS + 2000000) * 2);
	Bench tb(h);
	Rng r(h.seed());

	// Hand-checked vectors: the reference must agree with them too.
	for (const Golden &g : kGolden) {
		int pred;
		uint32_t ref = fp32_ref(g.op, g.mod, g.a, g.b, g.c, &pred);
		CHECK(h, ref == g.result, "reference vs hand-checked vector: %s a=%08x b=%08x c=%08x"
		      " expected %08x reference %08x", fp32_ref_name(g.op, g.mod), g.a, g.b, g.c,
		      g.result, ref);
		tb.issue(g.op, g.mod, g.a, g.b, g.c);
	}

	uint64_t ndirected = 0;
	directed(tb, r, ndirected);

	// Random: count per class, in runs of one class, with occasional idle cycles.
	uint64_t left[NOPS];
	for (unsigned op = 0; op < NOPS; op++)
		left[op] = count;
	uint64_t total = count * NOPS;
	unsigned op = 0;
	for (uint64_t n = 0; n < total;) {
		if (r.below(16) == 0) {
			tb.idle(r.u32());
			continue;
		}
		if (r.below(4) == 0)
			op = r.below(NOPS);
		if (!left[op]) {
			op = (op + 1) % NOPS;
			continue;
		}
		random_op(tb, r, op);
		left[op]--;
		n++;
	}
	tb.drain();

	static const char *const names[NOPS] = { "FADD", "FSUB", "FMUL", "FFMA", "FMIN",
						 "FMAX", "FSETP", "I2F", "F2I", "FRND" };
	for (unsigned o = 0; o < NOPS; o++)
		printf("  %-6s %10" PRIu64 " passed %8" PRIu64 " failed\n", names[o], tb.passed(o),
		       tb.failed(o));
	printf("test_fp32: %zu hand-checked, %" PRIu64 " directed, %" PRIu64
	       " random per op class\n", sizeof kGolden / sizeof kGolden[0], ndirected, count);
	return h.finish();
}
