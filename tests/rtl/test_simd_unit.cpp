// test_simd_unit: wg_simd_unit with random warp instructions (docs/simd-unit.md).
//
// Built once per parameter set (sim/simd.mk): SIMD_WIDTH, HAS_FP, DIRECT (with DIRECT = 0
// every time below after the transfer is one cycle later; in_ready_o is not). Every cycle
// the test checks, against a model of the documented contract:
//   - in_ready_o: high except for the P - 1 cycles after each accepted instruction;
//   - out_valid_o exactly P + FP32_LATENCY + 1 cycles after each accepted instruction and
//     never otherwise, with its tag and its execution mask;
//   - out_data_o / out_pred_o of every thread in the mask: integer operations against
//     the reference of test_int_alu.cpp, FP operations against the C float / fmaf
//     reference tests/rtl/fp32_ref.h (canonical NaN 0x7FFFFFFF), or 0 without HAS_FP;
//   - lane_busy_o: lane l is busy in cycle t+1+p exactly when slot p*W' + l of the
//     instruction accepted in cycle t holds a thread of its mask (so masked-off lanes never
//     are).
// P and the slots follow the power-gating modes of each instruction (docs/power-gating.md
// section 3): without them P = PASSES and slot k is thread k on all W' = SIMD_WIDTH lanes;
// split (in_split_i) uses W' = SIMD_WIDTH / 2 lanes in twice the passes; compaction
// (in_compact_i) puts the active threads, in order, in the lowest slots, in max(1,
// ceil(active / W')) passes. Results are those of the threads whatever the modes.
// Instructions are integer and FP, issued back to back at the full rate or with gaps,
// with random execution masks (full, empty, single thread, halves, low runs, random).
// Lanes are put to sleep (lane_en_i = 0) and woken at random while the unit runs: a
// lane sleeps only once its last work has left it, and no instruction puts a thread on
// a sleeping lane (the wrapper's assertions check both).
//   --count=N   random instructions (default 200000)
// Ends with "N passed, M failed"; exit status 0 only when nothing failed.
#define WG_INT_REF_ONLY
#include "test_int_alu.cpp" // int_ref(), int_alu_entry()
#undef WG_INT_REF_ONLY

#include "Vwg_simd_unit.h"
#include "fp32_ref.h"
#include "harness.h"

#include <deque>
#include <vector>

#ifndef SIMD_WIDTH
#define SIMD_WIDTH 16
#endif
#ifndef HAS_FP
#define HAS_FP 1
#endif
#ifndef DIRECT
#define DIRECT 1 /* wg_simd_unit's DIRECT: 0 loads pass 0 from the pass buffer, a cycle later */
#endif
#ifndef WG_FP32_LATENCY
#error "WG_FP32_LATENCY (wg_fp32_pkg::FP32_LATENCY) must be defined by the build"
#endif

static const unsigned kW = SIMD_WIDTH;
static const unsigned kPasses = 32 / SIMD_WIDTH;
static const unsigned kLd = DIRECT ? 0 : 1; // cycles from the transfer to pass 0's load
static const unsigned kLatency = kPasses + WG_FP32_LATENCY + 1 + kLd;
static const uint32_t kLaneMask = SIMD_WIDTH >= 32 ? 0xFFFFFFFFu : ((1u << SIMD_WIDTH) - 1);

using H = wg::Harness<Vwg_simd_unit>;

struct Insn {
	unsigned op, mod, tag;
	bool split, compact;
	uint32_t exec, psel;
	uint32_t a[32], b[32], c[32];
	uint64_t fire; // cycle accepted
};

struct Expect {
	uint64_t cycle;
	unsigned op, mod, tag;
	uint32_t exec;
	uint32_t data[32];
	uint32_t pred;
	uint32_t a[32], b[32], c[32]; // for messages
};

static std::vector<const struct wg_isa_entry *> g_int_ops, g_fp_ops;

static bool is_fp_op(unsigned op)
{
	return op >= WG_OP_FADD && op <= WG_OP_FRND;
}

static const char *op_name(unsigned op, unsigned mod)
{
	const struct wg_isa_entry *e = wg_isa_lookup((uint8_t)op, (uint8_t)mod);
	return e ? e->mnemonic : "?";
}

// Thread t's expected result and predicate.
static uint32_t expect_thread(const Insn &in, unsigned t, bool *pred)
{
	if (is_fp_op(in.op)) {
		if (!HAS_FP) {
			*pred = false;
			return 0;
		}
		int p;
		uint32_t r = fp32_ref(in.op - WG_OP_FADD, in.mod, in.a[t], in.b[t], in.c[t], &p);
		*pred = p != 0;
		return r;
	}
	return int_ref(in.op, in.mod, in.a[t], in.b[t], in.c[t], (in.psel >> t) & 1, pred);
}

// ---- stimulus ------------------------------------------------------------------------
static const uint32_t kIntEdges[] = { 0, 1, 2, 31, 32, 33, 0x7FFFFFFF, 0x80000000, 0x80000001,
	                              0xFFFFFFFF, 0xFFFFFFFE, 0x55555555, 0x0000FFFF, 0x12345678 };
static const uint32_t kFpEdges[] = { 0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000,
	                             0xFF800000, 0x7FC00000, 0x7FFFFFFF, 0xFFC00001, 0x00000001,
	                             0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x4F000000, 0xCF000000,
	                             0x3F000000, 0x4B800000, 0x3EFFFFFF };

static uint32_t rand_int(H &h)
{
	uint64_t r = h.rng();
	switch (r % 8) {
	case 0: return kIntEdges[(r >> 8) % (sizeof kIntEdges / sizeof kIntEdges[0])];
	case 1: return (uint32_t)((int32_t)((r >> 8) % 81) - 40);
	case 2: return (uint32_t)((r >> 8) % 70);
	default: return (uint32_t)(r >> 16);
	}
}

static uint32_t rand_fp(H &h)
{
	uint64_t r = h.rng();
	uint32_t sign = (uint32_t)(r >> 63) << 31;
	switch (r % 8) {
	case 0: return kFpEdges[(r >> 8) % (sizeof kFpEdges / sizeof kFpEdges[0])];
	case 1: { // small integers, halves and quarters (rounding ties)
		float f = (float)((int32_t)((r >> 8) % 401) - 200) / 4.0f;
		uint32_t u;
		memcpy(&u, &f, 4);
		return u;
	}
	case 2: return (uint32_t)(r >> 20); // any bit pattern
	case 3: // subnormal or tiny
		return sign | (uint32_t)((r >> 8) & 0x00FFFFFF);
	case 4: // large: around the integer conversion limits
		return sign | ((uint32_t)(150 + (r >> 8) % 12) << 23) | (uint32_t)((r >> 20) & 0x7FFFFF);
	default: // near 1.0: additions with cancellation
		return sign | ((uint32_t)(120 + (r >> 8) % 16) << 23) | (uint32_t)((r >> 20) & 0x7FFFFF);
	}
}

static uint32_t rand_exec(H &h, uint32_t allowed)
{
	uint32_t m;
	switch (h.rand(10)) {
	case 0: m = 0xFFFFFFFFu; break;
	case 1: m = 0; break;
	case 2: m = 1u << h.rand(32); break;
	case 3: m = h.chance(50) ? 0x0000FFFFu : 0xFFFF0000u; break;
	case 4: { // a run of low threads (a compacted warp)
		unsigned n = (unsigned)h.rand(33);
		m = n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
		break;
	}
	case 5: m = (uint32_t)h.rng() & (uint32_t)h.rng(); break; // sparse
	case 6: m = (uint32_t)h.rng() | (uint32_t)h.rng(); break; // dense
	default: m = (uint32_t)h.rng(); break;
	}
	return m & allowed;
}

// The schedule of an instruction: passes, and the thread of each slot (-1: none).
struct Sched {
	unsigned passes, lanes; // lanes in use (W')
	int thr[32];
};

static Sched schedule(const Insn &in)
{
	Sched s{};
	bool split = in.split && kW >= 2;
	s.lanes = split ? kW / 2 : kW;
	unsigned n = 0;
	for (unsigned k = 0; k < 32; k++)
		s.thr[k] = -1;
	if (!in.compact) {
		for (unsigned t = 0; t < 32; t++)
			if ((in.exec >> t) & 1)
				s.thr[t] = (int)t;
		s.passes = 32 / s.lanes;
		return s;
	}
	for (unsigned t = 0; t < 32; t++)
		if ((in.exec >> t) & 1)
			s.thr[n++] = (int)t;
	s.passes = n ? (n + s.lanes - 1) / s.lanes : 1;
	return s;
}

// Lanes busy in pass p of a schedule.
static uint32_t pass_lanes(const Sched &s, unsigned p)
{
	uint32_t m = 0;
	for (unsigned l = 0; l < s.lanes; l++)
		if (p * s.lanes + l < 32 && s.thr[p * s.lanes + l] >= 0)
			m |= 1u << l;
	return m;
}

// Threads whose lane is awake.
static uint32_t awake_threads(uint32_t lane_en)
{
	uint32_t m = 0;
	for (unsigned p = 0; p < kPasses; p++)
		m |= (lane_en & kLaneMask) << (p * kW);
	return m;
}

static void random_insn(H &h, Insn &in, uint32_t allowed)
{
	bool fp = !g_fp_ops.empty() && h.chance(45);
	const struct wg_isa_entry *e = fp ? g_fp_ops[h.rand(g_fp_ops.size())] : g_int_ops[h.rand(g_int_ops.size())];
	in.op = e->op;
	in.mod = e->mod;
	in.tag = (unsigned)h.rand(256);
	in.exec = rand_exec(h, allowed);
	in.psel = (uint32_t)h.rng();
	bool fp_operands = fp && e->op != WG_OP_I2F;
	// Sometimes one value for the whole warp (a uniform operand or an immediate).
	bool uniform_b = h.chance(15);
	for (unsigned t = 0; t < 32; t++) {
		in.a[t] = fp_operands ? rand_fp(h) : rand_int(h);
		in.b[t] = uniform_b && t ? in.b[0] : fp_operands ? rand_fp(h) : rand_int(h);
		in.c[t] = fp_operands ? rand_fp(h) : rand_int(h);
	}
	if (fp && e->op == WG_OP_FFMA && h.chance(30)) {
		// c close to -(a*b): cancellation in the fused sum
		for (unsigned t = 0; t < 32; t++)
			in.c[t] = fp32_ref_mul(in.a[t], in.b[t]) ^ 0x80000000u ^ (uint32_t)h.rand(4);
	}
}

static void drive(Vwg_simd_unit *top, bool valid, const Insn &in)
{
	top->in_valid_i = valid;
	top->in_op_i = in.op;
	top->in_mod_i = in.mod;
	top->in_tag_i = in.tag;
	top->in_exec_i = in.exec;
	top->in_psel_i = in.psel;
	top->in_split_i = in.split;
	top->in_compact_i = in.compact;
	for (unsigned t = 0; t < 32; t++) {
		top->in_a_i[t] = in.a[t];
		top->in_b_i[t] = in.b[t];
		top->in_c_i[t] = in.c[t];
	}
}

// ---- the run ----------------------------------------------------------------------------
struct Stats {
	unsigned insns = 0, int_insns = 0, fp_insns = 0, results = 0, sleeps = 0, wakes = 0, split = 0, compact = 0;
	uint64_t busy_lane_cycles = 0, stalled = 0;
};

static void run(H &h, unsigned count, Stats &st)
{
	auto *top = h.top;
	std::deque<Expect> outq;             // accepted instructions, oldest first
	std::vector<uint32_t> busy_expect;   // lane_busy_o per cycle (indexed by cycle)
	std::vector<uint64_t> lane_free(kW, 0); // first cycle at which lane l holds no work
	uint64_t cyc = 0, last_fire = 0, last_passes = kPasses;
	bool fired_once = false;
	uint32_t lane_en = kLaneMask;
	unsigned issued = 0;
	unsigned rate = 90; // percent of cycles in which an instruction is offered
	Insn in = {};

	top->lane_en_i = lane_en;
	drive(top, false, in);
	h.reset();

	while (issued < count || !outq.empty()) {
		// Change the issue rate now and then: full rate, gaps, idle stretches.
		if (h.rand(500) == 0) {
			static const unsigned rates[] = { 100, 100, 90, 60, 25, 5 };
			rate = rates[h.rand(6)];
		}
		bool expect_ready = !fired_once || cyc >= last_fire + last_passes;

		// Power gating between instructions: only while no pass of an accepted
		// instruction is still to be loaded. A lane goes to sleep only when its work
		// has left it; any lane may wake.
		if (expect_ready && h.rand(300) == 0) {
			uint32_t want = (uint32_t)h.rng() & kLaneMask;
			if (h.chance(20))
				want = kLaneMask;
			uint32_t next = lane_en;
			for (unsigned l = 0; l < kW; l++) {
				bool on = (want >> l) & 1, was = (lane_en >> l) & 1;
				if (on && !was) {
					next |= 1u << l;
					st.wakes++;
				} else if (!on && was && cyc >= lane_free[l]) {
					next &= ~(1u << l);
					st.sleeps++;
				}
			}
			lane_en = next;
		}
		top->lane_en_i = lane_en;

		bool offer = issued < count && h.chance(rate);
		if (offer) {
			random_insn(h, in, awake_threads(lane_en));
			// Power-gating modes on a third of the instructions each, kept only when every
			// lane the schedule uses is awake (without them it is: awake_threads).
			in.split = kW >= 2 && h.chance(33);
			in.compact = h.chance(33);
			Sched sc = schedule(in);
			for (unsigned p = 0; p < sc.passes; p++)
				if (pass_lanes(sc, p) & ~lane_en)
					in.split = in.compact = false;
		} else if (h.chance(50)) {
			random_insn(h, in, 0xFFFFFFFFu); // junk on the inputs while not valid
			in.split = h.chance(50);
			in.compact = h.chance(50);
		}
		drive(top, offer, in);
		h.eval();

		// --- outputs of this cycle ---
		CHECK(h, top->in_ready_o == expect_ready, "in_ready_o %d, expected %d", top->in_ready_o, expect_ready);
		uint32_t busy = cyc < busy_expect.size() ? busy_expect[cyc] : 0;
		CHECK(h, top->lane_busy_o == busy, "lane_busy_o 0x%x, expected 0x%x", top->lane_busy_o, busy);
		st.busy_lane_cycles += __builtin_popcount(top->lane_busy_o);

		bool want_out = !outq.empty() && outq.front().cycle == cyc;
		CHECK(h, top->out_valid_o == want_out, "out_valid_o %d, expected %d", top->out_valid_o, want_out);
		if (want_out && top->out_valid_o) {
			const Expect &x = outq.front();
			CHECK(h, top->out_tag_o == x.tag, "%s: out_tag_o %u, expected %u", op_name(x.op, x.mod),
			      top->out_tag_o, x.tag);
			CHECK(h, top->out_mask_o == x.exec, "%s: out_mask_o 0x%08x, expected 0x%08x", op_name(x.op, x.mod),
			      top->out_mask_o, x.exec);
			for (unsigned t = 0; t < 32; t++) {
				if (!((x.exec >> t) & 1))
					continue;
				uint32_t got = top->out_data_o[t];
				bool gp = (top->out_pred_o >> t) & 1, wp = (x.pred >> t) & 1;
				CHECK(h, got == x.data[t] && gp == wp,
				      "%s thread %u (lane %u, pass %u): a=0x%08x b=0x%08x c=0x%08x: result 0x%08x pred %d, "
				      "expected 0x%08x pred %d", op_name(x.op, x.mod), t, t % kW, t / kW, x.a[t], x.b[t],
				      x.c[t], got, gp, x.data[t], wp);
				st.results++;
			}
		}
		if (want_out)
			outq.pop_front();

		// --- the transfer ---
		if (offer && top->in_ready_o) {
			Expect x;
			Sched sc = schedule(in);
			x.cycle = cyc + sc.passes + WG_FP32_LATENCY + 1 + kLd;
			x.op = in.op;
			x.mod = in.mod;
			x.tag = in.tag;
			x.exec = in.exec;
			x.pred = 0;
			for (unsigned t = 0; t < 32; t++) {
				bool p = false;
				x.data[t] = expect_thread(in, t, &p);
				x.pred |= (uint32_t)p << t;
				x.a[t] = in.a[t];
				x.b[t] = in.b[t];
				x.c[t] = in.c[t];
			}
			outq.push_back(x);
			if (busy_expect.size() < cyc + 1 + kLd + sc.passes)
				busy_expect.resize(cyc + 1 + kLd + sc.passes + 1024, 0);
			for (unsigned p = 0; p < sc.passes; p++) {
				uint32_t lanes = pass_lanes(sc, p);
				busy_expect[cyc + 1 + kLd + p] = lanes;
				for (unsigned l = 0; l < kW; l++)
					if ((lanes >> l) & 1)
						lane_free[l] = cyc + 1 + kLd + p + WG_FP32_LATENCY + 1;
			}
			last_fire = cyc;
			last_passes = sc.passes;
			fired_once = true;
			st.split += in.split && kW >= 2;
			st.compact += in.compact;
			issued++;
			st.insns++;
			if (is_fp_op(in.op))
				st.fp_insns++;
			else
				st.int_insns++;
		} else if (offer) {
			st.stalled++;
		}

		h.tick();
		cyc++;
	}
}

int main(int argc, char **argv)
{
	unsigned count = 200000;
	std::vector<char *> args;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "--count=", 8))
			count = (unsigned)strtoul(argv[i] + 8, nullptr, 0);
		else
			args.push_back(argv[i]);
	}
	H h((int)args.size(), args.data(), "test_simd_unit");

	for (size_t i = 0; i < wg_isa_table_len; i++) {
		const struct wg_isa_entry *e = &wg_isa_table[i];
		if (int_alu_entry(e))
			g_int_ops.push_back(e);
		else if (is_fp_op(e->op))
			g_fp_ops.push_back(e);
	}
	// 28 FP rows with round-to-nearest, and 28 more with a directed rounding or FTZ
	// (FADD/FSUB/FMUL/FFMA x .RZ/.RM/.RP/.FTZ combinations, docs/isa.md).
	CHECK(h, g_int_ops.size() == 37 && g_fp_ops.size() == 56, "%zu integer and %zu FP instructions in the "
	      "ISA table, expected 37 and 56", g_int_ops.size(), g_fp_ops.size());
	printf("%s: SIMD_WIDTH %u, HAS_FP %d, DIRECT %d: %u passes, latency %u\n", h.name(), kW, HAS_FP, DIRECT,
	       kPasses, kLatency);

	Stats st;
	run(h, count, st);
	printf("%s: %u instructions (%u split, %u compacted)\n", h.name(), st.insns, st.split, st.compact);
	CHECK(h, st.insns < 100 || (st.split > st.insns / 10 && st.compact > st.insns / 10),
	      "too few instructions with power-gating modes: %u split, %u compacted", st.split, st.compact);
	printf("%s: %u instructions (%u integer, %u FP), %u thread results checked, %" PRIu64
	       " offers stalled, %u lane sleeps, %u wake-ups, lanes busy %.1f%% of lane-cycles\n",
	       h.name(), st.insns, st.int_insns, st.fp_insns, st.results, st.stalled, st.sleeps, st.wakes,
	       100.0 * (double)st.busy_lane_cycles / ((double)h.cycle() * kW));
	return h.finish();
}
