// test_int_alu: wg_int_alu against a C reference written from docs/isa.md section 7.
//
//   1. hand-checked values (the expected results are written out, so they check the
//      reference as well as the RTL);
//   2. every integer instruction of the ISA table (host/src/isa_table.h) on every pair
//      of a set of edge values (0, 1, -1, INT_MIN, INT_MAX, shift amounts 31/32/33, ...);
//   3. random vectors (--count=N, default 1000000) over every integer instruction,
//      with operands biased towards edge values;
//   4. agreement with the golden model: the same operations as a kernel, assembled and
//      run by the functional model (host/src/func.c) with both of its interpreters,
//      register and immediate forms of B; its results are compared with the reference
//      and the RTL;
//   5. opcodes that are not integer ALU operations give result 0 and predicate 0.
// Ends with "N passed, M failed"; exit status 0 only when nothing failed.
//
// The first part of this file is the reference; test_simd_unit.cpp includes it with
// WG_INT_REF_ONLY defined.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "isa.h"
}

// ---- Reference (docs/isa.md section 7) ------------------------------------------------

// Result of integer opcode op / mod on a, b, c with SEL selector psel; *pred gets the
// ISETP predicate (false for other opcodes), which is also the result of ISETP.
// Opcodes that are not integer ALU operations give 0.
static uint32_t int_ref(unsigned op, unsigned mod, uint32_t a, uint32_t b, uint32_t c, bool psel,
                        bool *pred)
{
	*pred = false;
	switch (op) {
	case WG_OP_MOV: return b;
	case WG_OP_IADD: return a + b;
	case WG_OP_ISUB: return a - b;
	case WG_OP_IMUL:
	case WG_OP_IMAD: {
		// low 32 bits, or the high 32 bits of the 64-bit signed / unsigned product
		uint32_t r;
		if (mod == 0)
			r = a * b;
		else if (mod == 1)
			r = (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32);
		else
			r = (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32);
		return op == WG_OP_IMAD ? r + c : r;
	}
	case WG_OP_IMIN:
		if (mod == 0)
			return (int32_t)a < (int32_t)b ? a : b;
		return a < b ? a : b;
	case WG_OP_IMAX:
		if (mod == 0)
			return (int32_t)a > (int32_t)b ? a : b;
		return a > b ? a : b;
	case WG_OP_IABS: return (a & 0x80000000u) ? 0u - a : a; // |INT_MIN| = INT_MIN
	case WG_OP_AND: return a & b;
	case WG_OP_OR: return a | b;
	case WG_OP_XOR: return a ^ b;
	case WG_OP_NOT: return ~a;
	case WG_OP_SHL: return b >= 32 ? 0 : a << b;
	case WG_OP_SHR: {
		bool fill = mod == 1 && (a & 0x80000000u);
		if (b >= 32)
			return fill ? 0xFFFFFFFFu : 0;
		uint32_t r = a >> b;
		if (fill && b)
			r |= ~(0xFFFFFFFFu >> b);
		return r;
	}
	case WG_OP_POPC: {
		uint32_t n = 0;
		for (int i = 0; i < 32; i++)
			n += (a >> i) & 1;
		return n;
	}
	case WG_OP_CLZ: {
		uint32_t n = 0;
		for (int i = 31; i >= 0 && !((a >> i) & 1); i--)
			n++;
		return n;
	}
	case WG_OP_BREV: {
		uint32_t r = 0;
		for (int i = 0; i < 32; i++)
			r |= ((a >> i) & 1u) << (31 - i);
		return r;
	}
	case WG_OP_SEL: return psel ? a : b;
	case WG_OP_ISETP:
	case WG_OP_ISETPU: {
		bool lt = op == WG_OP_ISETP ? (int32_t)a < (int32_t)b : a < b;
		bool eq = a == b;
		bool p;
		switch (mod) {
		case 0: p = eq; break;
		case 1: p = !eq; break;
		case 2: p = lt; break;
		case 3: p = lt || eq; break;
		case 4: p = !lt && !eq; break;
		case 5: p = !lt; break;
		default: p = false; break; // not an ISA condition
		}
		*pred = p;
		return p;
	}
	default: return 0;
	}
}

// An integer ALU instruction: an entry of the ISA table (opcodes MOV..ISETPU, without
// PLOP, which works on predicates only).
static bool int_alu_entry(const struct wg_isa_entry *e)
{
	return e->op >= WG_OP_MOV && e->op <= WG_OP_ISETPU;
}

#ifndef WG_INT_REF_ONLY

#include "Vwg_int_alu.h"
#include "harness.h"

extern "C" {
#include "asm.h"
#include "config.h"
#include "func.h"
#include "gmem.h"
#include "image.h"
}

#include <string>
#include <vector>

using H = wg::Harness<Vwg_int_alu>;

struct Vec {
	uint32_t a, b, c;
	bool psel;
};

static std::vector<const struct wg_isa_entry *> g_ops; // the integer instructions

static void collect_ops()
{
	for (size_t i = 0; i < wg_isa_table_len; i++)
		if (int_alu_entry(&wg_isa_table[i]))
			g_ops.push_back(&wg_isa_table[i]);
}

static const uint32_t kEdges[] = {
	0x00000000, 0x00000001, 0x00000002, 0x00000003, 0x0000001F, 0x00000020, 0x00000021,
	0x0000003F, 0x00000040, 0x000000FF, 0x00007FFF, 0x00008000, 0x0000FFFF, 0x00010000,
	0x12345678, 0x55555555, 0x7FFFFFFE, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xAAAAAAAA,
	0xDEADBEEF, 0xFFFF0000, 0xFFFFFFE0, 0xFFFFFFFE, 0xFFFFFFFF, 0x01000000, 0xF0000000,
};
static const size_t kNumEdges = sizeof(kEdges) / sizeof(kEdges[0]);

// An operand biased towards edge values: full random, edges, small signed values,
// shift amounts around 32, powers of two and their neighbours.
static uint32_t rand_operand(H &h)
{
	uint64_t r = h.rng();
	switch (r % 10) {
	case 0: return kEdges[(r >> 8) % kNumEdges];
	case 1: return (uint32_t)((int32_t)((r >> 8) % 81) - 40);
	case 2: return (uint32_t)((r >> 8) % 70);
	case 3: {
		uint32_t p = 1u << ((r >> 8) % 32);
		return p + (uint32_t)((int32_t)((r >> 16) % 3) - 1);
	}
	default: return (uint32_t)(r >> 16);
	}
}

static const char *op_name(unsigned op, unsigned mod)
{
	const struct wg_isa_entry *e = wg_isa_lookup((uint8_t)op, (uint8_t)mod);
	return e ? e->mnemonic : "(not an ALU op)";
}

// Drive the ALU, settle it, compare with the reference (and with an expected value
// when given). Returns true when everything matched.
static bool check_alu(H &h, unsigned op, unsigned mod, const Vec &v, const uint32_t *want = nullptr,
                      const bool *want_pred = nullptr)
{
	auto *t = h.top;
	t->op_i = op;
	t->mod_i = mod;
	t->a_i = v.a;
	t->b_i = v.b;
	t->c_i = v.c;
	t->psel_i = v.psel;
	h.eval();
	bool rp;
	uint32_t r = int_ref(op, mod, v.a, v.b, v.c, v.psel, &rp);
	bool ok = true;
	if (want) {
		ok &= CHECK(h, r == *want && rp == *want_pred, "reference: %s a=0x%08x b=0x%08x c=0x%08x p=%d: "
		            "0x%08x/%d, hand-checked 0x%08x/%d", op_name(op, mod), v.a, v.b, v.c, v.psel, r, rp,
		            *want, *want_pred);
	}
	ok &= CHECK(h, t->result_o == r && (bool)t->pred_o == rp,
	            "%s a=0x%08x b=0x%08x c=0x%08x psel=%d: result 0x%08x pred %d, expected 0x%08x pred %d",
	            op_name(op, mod), v.a, v.b, v.c, v.psel, t->result_o, t->pred_o, r, rp);
	return ok;
}

// ---- 1. hand-checked values ------------------------------------------------------------
struct Known {
	unsigned op, mod;
	uint32_t a, b, c;
	bool psel;
	uint32_t result;
	bool pred;
};

static const Known kKnown[] = {
	{ WG_OP_MOV, 0, 1, 7, 0, 0, 7, 0 },
	{ WG_OP_IADD, 0, 0xFFFFFFFF, 1, 0, 0, 0, 0 },
	{ WG_OP_IADD, 0, 0x7FFFFFFF, 1, 0, 0, 0x80000000, 0 },
	{ WG_OP_ISUB, 0, 0, 1, 0, 0, 0xFFFFFFFF, 0 },
	{ WG_OP_ISUB, 0, 0x80000000, 1, 0, 0, 0x7FFFFFFF, 0 },
	{ WG_OP_IMUL, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, 1, 0 },
	{ WG_OP_IMUL, 0, 0x10000, 0x10000, 0, 0, 0, 0 },
	{ WG_OP_IMUL, 1, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, 0, 0 },          // -1 * -1 = 1
	{ WG_OP_IMUL, 2, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, 0xFFFFFFFE, 0 }, // (2^32-1)^2
	{ WG_OP_IMUL, 1, 0x80000000, 0x80000000, 0, 0, 0x40000000, 0 }, // 2^62
	{ WG_OP_IMUL, 2, 0x80000000, 0x80000000, 0, 0, 0x40000000, 0 },
	{ WG_OP_IMUL, 1, 0x80000000, 1, 0, 0, 0xFFFFFFFF, 0 },
	{ WG_OP_IMUL, 2, 0x80000000, 2, 0, 0, 1, 0 },
	{ WG_OP_IMUL, 1, 0xFFFFFFFE, 3, 0, 0, 0xFFFFFFFF, 0 },          // -6
	{ WG_OP_IMUL, 2, 0xFFFFFFFE, 3, 0, 0, 2, 0 },
	{ WG_OP_IMUL, 1, 0x7FFFFFFF, 0x80000000, 0, 0, 0xC0000000, 0 }, // -2^62 + 2^31
	{ WG_OP_IMAD, 0, 3, 4, 5, 0, 17, 0 },
	{ WG_OP_IMAD, 0, 0x10000, 0x10000, 7, 0, 7, 0 },
	{ WG_OP_IMAD, 1, 0xFFFFFFFF, 1, 1, 0, 0, 0 },                  // hi(-1) + 1
	{ WG_OP_IMAD, 2, 0xFFFFFFFF, 0xFFFFFFFF, 2, 0, 0, 0 },          // 0xFFFFFFFE + 2
	{ WG_OP_IMIN, 0, 0xFFFFFFFF, 1, 0, 0, 0xFFFFFFFF, 0 },
	{ WG_OP_IMIN, 1, 0xFFFFFFFF, 1, 0, 0, 1, 0 },
	{ WG_OP_IMAX, 0, 0x80000000, 0x7FFFFFFF, 0, 0, 0x7FFFFFFF, 0 },
	{ WG_OP_IMAX, 1, 0x80000000, 0x7FFFFFFF, 0, 0, 0x80000000, 0 },
	{ WG_OP_IABS, 0, 0x80000000, 0, 0, 0, 0x80000000, 0 },
	{ WG_OP_IABS, 0, 0xFFFFFFFF, 0, 0, 0, 1, 0 },
	{ WG_OP_IABS, 0, 0x80000001, 0, 0, 0, 0x7FFFFFFF, 0 },
	{ WG_OP_IABS, 0, 5, 0, 0, 0, 5, 0 },
	{ WG_OP_IABS, 0, 0, 0, 0, 0, 0, 0 },
	{ WG_OP_AND, 0, 0xF0F0F0F0, 0xFF00FF00, 0, 0, 0xF000F000, 0 },
	{ WG_OP_OR, 0, 0xF0F0F0F0, 0xFF00FF00, 0, 0, 0xFFF0FFF0, 0 },
	{ WG_OP_XOR, 0, 0xF0F0F0F0, 0xFF00FF00, 0, 0, 0x0FF00FF0, 0 },
	{ WG_OP_NOT, 0, 0, 0x12345678, 0, 0, 0xFFFFFFFF, 0 },
	{ WG_OP_SHL, 0, 1, 0, 0, 0, 1, 0 },
	{ WG_OP_SHL, 0, 1, 31, 0, 0, 0x80000000, 0 },
	{ WG_OP_SHL, 0, 1, 32, 0, 0, 0, 0 },
	{ WG_OP_SHL, 0, 1, 33, 0, 0, 0, 0 },
	{ WG_OP_SHL, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, 0, 0 },
	{ WG_OP_SHL, 0, 0xFFFFFFFF, 0x100, 0, 0, 0, 0 },               // not taken mod 32
	{ WG_OP_SHR, 0, 0x80000000, 0, 0, 0, 0x80000000, 0 },
	{ WG_OP_SHR, 0, 0x80000000, 31, 0, 0, 1, 0 },
	{ WG_OP_SHR, 0, 0x80000000, 32, 0, 0, 0, 0 },
	{ WG_OP_SHR, 0, 0xFFFFFFFF, 33, 0, 0, 0, 0 },
	{ WG_OP_SHR, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, 0, 0 },
	{ WG_OP_SHR, 1, 0x80000000, 0, 0, 0, 0x80000000, 0 },
	{ WG_OP_SHR, 1, 0x80000000, 1, 0, 0, 0xC0000000, 0 },
	{ WG_OP_SHR, 1, 0x80000000, 31, 0, 0, 0xFFFFFFFF, 0 },
	{ WG_OP_SHR, 1, 0x80000000, 32, 0, 0, 0xFFFFFFFF, 0 },
	{ WG_OP_SHR, 1, 0x80000000, 33, 0, 0, 0xFFFFFFFF, 0 },
	{ WG_OP_SHR, 1, 0x80000000, 0xFFFFFFFF, 0, 0, 0xFFFFFFFF, 0 },
	{ WG_OP_SHR, 1, 0x7FFFFFFF, 32, 0, 0, 0, 0 },
	{ WG_OP_SHR, 1, 0x7FFFFFFF, 30, 0, 0, 1, 0 },
	{ WG_OP_POPC, 0, 0, 0, 0, 0, 0, 0 },
	{ WG_OP_POPC, 0, 0xFFFFFFFF, 0, 0, 0, 32, 0 },
	{ WG_OP_POPC, 0, 0x80000001, 0, 0, 0, 2, 0 },
	{ WG_OP_CLZ, 0, 0, 0, 0, 0, 32, 0 },
	{ WG_OP_CLZ, 0, 1, 0, 0, 0, 31, 0 },
	{ WG_OP_CLZ, 0, 0x00010000, 0, 0, 0, 15, 0 },
	{ WG_OP_CLZ, 0, 0x80000000, 0, 0, 0, 0, 0 },
	{ WG_OP_CLZ, 0, 0xFFFFFFFF, 0, 0, 0, 0, 0 },
	{ WG_OP_BREV, 0, 1, 0, 0, 0, 0x80000000, 0 },
	{ WG_OP_BREV, 0, 0x12345678, 0, 0, 0, 0x1E6A2C48, 0 },
	{ WG_OP_BREV, 0, 0xF0000000, 0, 0, 0, 0x0000000F, 0 },
	{ WG_OP_SEL, 0, 5, 6, 0, 1, 5, 0 },
	{ WG_OP_SEL, 0, 5, 6, 0, 0, 6, 0 },
	{ WG_OP_ISETP, 0, 5, 5, 0, 0, 1, 1 },
	{ WG_OP_ISETP, 1, 5, 5, 0, 0, 0, 0 },
	{ WG_OP_ISETP, 2, 0xFFFFFFFF, 0, 0, 0, 1, 1 },                 // -1 < 0
	{ WG_OP_ISETPU, 2, 0xFFFFFFFF, 0, 0, 0, 0, 0 },                // 2^32-1 < 0
	{ WG_OP_ISETP, 3, 5, 5, 0, 0, 1, 1 },
	{ WG_OP_ISETP, 4, 5, 5, 0, 0, 0, 0 },
	{ WG_OP_ISETP, 4, 0x7FFFFFFF, 0x80000000, 0, 0, 1, 1 },
	{ WG_OP_ISETPU, 4, 0x7FFFFFFF, 0x80000000, 0, 0, 0, 0 },
	{ WG_OP_ISETP, 5, 0x80000000, 0x7FFFFFFF, 0, 0, 0, 0 },
	{ WG_OP_ISETPU, 5, 0x80000000, 0x7FFFFFFF, 0, 0, 1, 1 },
	{ WG_OP_ISETPU, 3, 0, 0xFFFFFFFF, 0, 0, 1, 1 },
	{ WG_OP_NOP, 0, 1, 2, 3, 1, 0, 0 },
	{ WG_OP_PLOP, 0, 1, 2, 3, 1, 0, 0 },
	{ WG_OP_FADD, 0, 0x3F800000, 0x3F800000, 0, 0, 0, 0 },
	{ WG_OP_FSETP, 0, 0x3F800000, 0x3F800000, 0, 0, 0, 0 },
	{ WG_OP_LDG, 4, 1, 2, 3, 0, 0, 0 },
};

static void test_known(H &h)
{
	unsigned bad = h.failed();
	for (const Known &k : kKnown) {
		Vec v = { k.a, k.b, k.c, k.psel };
		check_alu(h, k.op, k.mod, v, &k.result, &k.pred);
	}
	printf("test_int_alu: %zu hand-checked values%s\n", sizeof(kKnown) / sizeof(kKnown[0]),
	       h.failed() == bad ? "" : " (FAILURES)");
}

// ---- 2. edge-value grid ------------------------------------------------------------------
static void test_edges(H &h)
{
	unsigned n = 0, bad = h.failed();
	for (const auto *e : g_ops)
		for (size_t i = 0; i < kNumEdges; i++)
			for (size_t j = 0; j < kNumEdges; j++) {
				Vec v = { kEdges[i], kEdges[j], kEdges[(i * 7 + j * 3) % kNumEdges], ((i + j) & 1) != 0 };
				check_alu(h, e->op, e->mod, v);
				n++;
			}
	printf("test_int_alu: %u edge-value vectors over %zu instructions%s\n", n, g_ops.size(),
	       h.failed() == bad ? "" : " (FAILURES)");
}

// ---- 3. random vectors --------------------------------------------------------------------
static void test_random(H &h, unsigned count)
{
	unsigned bad = h.failed();
	for (unsigned i = 0; i < count; i++) {
		Vec v = { rand_operand(h), rand_operand(h), rand_operand(h), (h.rng() & 1) != 0 };
		if (h.rand(50) == 0) {
			// any opcode that is not an integer ALU one: result 0, predicate 0
			unsigned op;
			do
				op = (unsigned)h.rand(64);
			while (op >= WG_OP_MOV && op <= WG_OP_ISETPU && op != WG_OP_PLOP);
			check_alu(h, op, (unsigned)h.rand(8), v);
		} else {
			const auto *e = g_ops[h.rand(g_ops.size())];
			check_alu(h, e->op, e->mod, v);
		}
	}
	printf("test_int_alu: %u random vectors%s\n", count, h.failed() == bad ? "" : " (FAILURES)");
}

// ---- 4. agreement with the golden model ------------------------------------------------
// A kernel computes every variant for n vectors {a, b, c, p} (16 bytes each) and stores
// variant k of vector i at out[k * n + i]. SETP variants store the predicate as 0/1.
struct KVariant {
	const struct wg_isa_entry *e;
	bool imm;     // B is an immediate
	uint32_t bv;  // its value
	bool neg;     // SEL: negated predicate
};

static std::vector<KVariant> kernel_variants()
{
	std::vector<KVariant> v;
	for (const auto *e : g_ops) {
		v.push_back({ e, false, 0, false });
		if (e->op == WG_OP_SEL)
			v.push_back({ e, false, 0, true });
	}
	// Immediate forms: the golden model has separate paths for immediate shifts.
	static const uint32_t shifts[] = { 0, 1, 5, 31, 32, 33, 0x80000000, 0xFFFFFFFF };
	for (const auto *e : g_ops) {
		if (e->op == WG_OP_SHL || e->op == WG_OP_SHR)
			for (uint32_t s : shifts)
				v.push_back({ e, true, s, false });
	}
	for (const auto *e : g_ops) {
		const char *m = e->mnemonic;
		if (!strcmp(m, "IADD"))
			v.push_back({ e, true, 0xFFFFFFFF, false });
		if (!strcmp(m, "IMUL.HI.S32") || !strcmp(m, "IMAD.HI.U32") || !strcmp(m, "IMAD"))
			v.push_back({ e, true, 0xFFFFFFF9, false });
		if (!strcmp(m, "IMIN.U32") || !strcmp(m, "IMAX.S32") || !strcmp(m, "ISETP.LT") ||
		    !strcmp(m, "ISETP.GE.U32"))
			v.push_back({ e, true, 0x80000000, false });
		if (!strcmp(m, "MOV") || !strcmp(m, "AND") || !strcmp(m, "SEL"))
			v.push_back({ e, true, 0xFF00FF00, false });
	}
	return v;
}

static std::string kernel_source(const std::vector<KVariant> &vars)
{
	std::string s =
		".kernel alu\n"
		".regs 11\n"
		".param ptr in\n"
		".param ptr out\n"
		".param u32 n\n"
		"    S2R R0, SR_CTAID.X\n"
		"    S2R R1, SR_NTID.X\n"
		"    S2R R2, SR_TID.X\n"
		"    IMAD R0, R0, R1, R2\n"   // R0 = i
		"    LDC.32 R1, [n]\n"
		"    ISETP.GE.U32 P0, R0, R1\n"
		"@P0 EXIT\n"
		"    SHL R7, R1, 2\n"         // R7 = n * 4: stride between variants
		"    SHL R1, R0, 4\n"
		"    LDC.32 R8, [in]\n"
		"    IADD R1, R1, R8\n"
		"    LDG.32 R2, [R1]\n"       // a
		"    LDG.32 R3, [R1+4]\n"     // b
		"    LDG.32 R4, [R1+8]\n"     // c
		"    LDG.32 R5, [R1+12]\n"    // p (SEL selects a when non-zero)
		"    ISETP.NE P1, R5, 0\n"
		"    MOV R9, 1\n"
		"    LDC.32 R8, [out]\n"
		"    SHL R10, R0, 2\n"
		"    IADD R8, R8, R10\n";     // R8 = &out[i]
	char line[128], bstr[24];
	for (const KVariant &v : vars) {
		const char *m = v.e->mnemonic;
		if (v.imm)
			snprintf(bstr, sizeof bstr, "0x%X", v.bv);
		else
			snprintf(bstr, sizeof bstr, "R3");
		switch (v.e->fmt) {
		case WG_FMT_RB: snprintf(line, sizeof line, "    %s R6, %s\n", m, bstr); break;
		case WG_FMT_RA: snprintf(line, sizeof line, "    %s R6, R2\n", m); break;
		case WG_FMT_RAB: snprintf(line, sizeof line, "    %s R6, R2, %s\n", m, bstr); break;
		case WG_FMT_RABC: snprintf(line, sizeof line, "    %s R6, R2, %s, R4\n", m, bstr); break;
		case WG_FMT_SEL:
			snprintf(line, sizeof line, "    %s R6, R2, %s, %sP1\n", m, bstr, v.neg ? "!" : "");
			break;
		case WG_FMT_SETP:
			snprintf(line, sizeof line, "    %s P2, R2, %s\n    SEL R6, R9, 0, P2\n", m, bstr);
			break;
		default: snprintf(line, sizeof line, "    ; %s: format not handled\n", m); break;
		}
		s += line;
		s += "    STG.32 [R8], R6\n    IADD R8, R8, R7\n";
	}
	s += "    EXIT\n";
	return s;
}

// Runs the kernel in the functional golden model (host/src/func.c, through the same
// calls as its own tests; the interpreter is chosen when the model is created, by
// WG_FUNC_BASELINE); out gets nvars * n words. Returns 0 or -1.
static int run_golden(const std::string &src, const std::vector<Vec> &vecs, size_t nvars,
                      std::vector<uint32_t> &out)
{
	struct wg_config cfg;
	struct wg_gmem *gmem = nullptr;
	struct wg_func *func = nullptr;
	struct wg_image img;
	struct wg_stats st;
	struct wg_err err;
	struct wg_launch l;
	uint32_t n = (uint32_t)vecs.size(), din = 0, dout = 0;
	struct {
		uint64_t in, out;
		uint32_t n, pad;
	} params;
	const struct wg_kernel *k;
	uint32_t *in, *res;
	int rc = -1;

	memset(&img, 0, sizeof img);
	memset(&st, 0, sizeof st);
	memset(&err, 0, sizeof err);
	memset(&l, 0, sizeof l);
	out.assign(nvars * n, 0xCCCCCCCCu);
	wg_config_default(&cfg);
	if (wg_gmem_create(&gmem, 64u << 20) || wg_func_create(&func, gmem, &cfg)) {
		printf("test_int_alu: cannot create the golden model\n");
		goto done;
	}
	if (wg_asm_string(&img, src.c_str(), "test_int_alu_kernel.s", stdout) ||
	    !(k = wg_image_find(&img, "alu"))) {
		printf("test_int_alu: the kernel does not assemble\n");
		goto done;
	}
	if (wg_gmem_alloc(gmem, 16ull * n, &din) || wg_gmem_alloc(gmem, 4ull * nvars * n, &dout) ||
	    !(in = (uint32_t *)wg_gmem_ptr(gmem, din, 16 * n)) ||
	    !(res = (uint32_t *)wg_gmem_ptr(gmem, dout, (uint32_t)(4 * nvars * n)))) {
		printf("test_int_alu: golden model memory\n");
		goto done;
	}
	for (uint32_t i = 0; i < n; i++) {
		in[4 * i] = vecs[i].a;
		in[4 * i + 1] = vecs[i].b;
		in[4 * i + 2] = vecs[i].c;
		in[4 * i + 3] = vecs[i].psel;
	}
	params = { din, dout, n, 0 };
	l.kernel = k;
	l.grid = wg_dim3{ (n + 255) / 256, 1, 1 };
	l.block = wg_dim3{ 256, 1, 1 };
	l.params = (const uint8_t *)&params;
	l.threads_per_cta = 256;
	l.warps_per_cta = 8;
	l.ctas = l.grid.x;
	if (wg_func_run(func, &l, &st, nullptr, &err)) {
		printf("test_int_alu: golden model run: %s\n", err.msg);
		goto done;
	}
	memcpy(out.data(), res, out.size() * 4);
	rc = 0;
done:
	wg_image_free(&img);
	wg_func_destroy(func);
	wg_gmem_destroy(gmem);
	return rc;
}

static void test_golden(H &h, unsigned nrand)
{
	std::vector<KVariant> vars = kernel_variants();
	std::string src = kernel_source(vars);

	std::vector<Vec> vecs;
	for (size_t i = 0; i < kNumEdges; i++)
		for (size_t j = 0; j < kNumEdges; j++)
			vecs.push_back({ kEdges[i], kEdges[j], kEdges[(i * 5 + j) % kNumEdges], ((i ^ j) & 1) != 0 });
	for (unsigned i = 0; i < nrand; i++)
		vecs.push_back({ rand_operand(h), rand_operand(h), rand_operand(h), (h.rng() & 1) != 0 });

	// Reference and RTL results, once.
	std::vector<uint32_t> ref(vars.size() * vecs.size()), rtl(ref.size());
	for (size_t k = 0; k < vars.size(); k++) {
		const KVariant &kv = vars[k];
		for (size_t i = 0; i < vecs.size(); i++) {
			Vec v = vecs[i];
			if (kv.imm)
				v.b = kv.bv;
			if (kv.neg)
				v.psel = !v.psel;
			bool p;
			ref[k * vecs.size() + i] = int_ref(kv.e->op, kv.e->mod, v.a, v.b, v.c, v.psel, &p);
			h.top->op_i = kv.e->op;
			h.top->mod_i = kv.e->mod;
			h.top->a_i = v.a;
			h.top->b_i = v.b;
			h.top->c_i = v.c;
			h.top->psel_i = v.psel;
			h.eval();
			rtl[k * vecs.size() + i] = h.top->result_o;
		}
	}

	for (int baseline = 0; baseline < 2; baseline++) {
		const char *which = baseline ? "baseline interpreter" : "default interpreter";
		if (baseline)
			setenv("WG_FUNC_BASELINE", "1", 1);
		else
			unsetenv("WG_FUNC_BASELINE");
		std::vector<uint32_t> gold;
		int rc = run_golden(src, vecs, vars.size(), gold);
		unsetenv("WG_FUNC_BASELINE");
		if (!CHECK(h, rc == 0, "golden model (%s) did not run", which))
			continue;
		unsigned bad = h.failed();
		for (size_t k = 0; k < vars.size(); k++) {
			const KVariant &kv = vars[k];
			for (size_t i = 0; i < vecs.size(); i++) {
				size_t x = k * vecs.size() + i;
				uint32_t b = kv.imm ? kv.bv : vecs[i].b;
				CHECK(h, gold[x] == ref[x], "golden model (%s) and reference disagree: %s%s%s a=0x%08x "
				      "b=0x%08x c=0x%08x p=%d: func 0x%08x, reference 0x%08x", which, kv.e->mnemonic,
				      kv.imm ? " (immediate B)" : "", kv.neg ? " (!P)" : "", vecs[i].a, b, vecs[i].c,
				      vecs[i].psel, gold[x], ref[x]);
				CHECK(h, gold[x] == rtl[x], "golden model (%s) and RTL disagree: %s%s a=0x%08x b=0x%08x "
				      "c=0x%08x: func 0x%08x, RTL 0x%08x", which, kv.e->mnemonic,
				      kv.imm ? " (immediate B)" : "", vecs[i].a, b, vecs[i].c, gold[x], rtl[x]);
			}
		}
		printf("test_int_alu: golden model (%s): %zu variants x %zu vectors%s\n", which, vars.size(),
		       vecs.size(), h.failed() == bad ? "" : " (FAILURES)");
	}
}

int main(int argc, char **argv)
{
	unsigned count = 1000000, golden = 8192;
	std::vector<char *> args;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "--count=", 8))
			count = (unsigned)strtoul(argv[i] + 8, nullptr, 0);
		else if (!strncmp(argv[i], "--golden=", 9))
			golden = (unsigned)strtoul(argv[i] + 9, nullptr, 0);
		else
			args.push_back(argv[i]);
	}
	H h((int)args.size(), args.data(), "test_int_alu");

	collect_ops();
	CHECK(h, g_ops.size() == 37, "%zu integer ALU instructions in the ISA table, expected 37", g_ops.size());
	test_known(h);
	test_edges(h);
	test_random(h, count);
	test_golden(h, golden);
	return h.finish();
}

#endif // WG_INT_REF_ONLY
