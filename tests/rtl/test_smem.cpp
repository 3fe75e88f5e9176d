// test_smem: wg_smem on wg_dmem (tests/rtl/tb_smem.sv) against docs/memory-pipeline.md
// sections 1.2, 4.2, 4.3 and the atomic coding of docs/sm.md 2.3. Built by sim/smem.mk
// with -DDMEM_BYTES / -DHAS_FP / -DSMEM_LANES matching the Verilator parameters (LANES <
// 32: the narrow engine of docs/fpga.md 3.3; only the cycle counts differ).
//   directed  pass counts (stride 1, 2, 32 words, broadcast, 64/128-bit, partial masks),
//             byte stores merged into one word, same-address stores (highest lane wins),
//             atomics (ADD on one address, CAS chain, INC/DEC, ADD.F32), latencies,
//             denied passes (row-port reads / writes) that repeat without counting,
//             clears with priority over an access
//   random    loads / stores / atomics with random masks, sizes and clustered addresses
//             against a reference memory (with no row traffic: the cycles of wg_smem's
//             timing rule too), with random row-port traffic on the upper half
//             of the array (its reads checked too) and clears of rows the running access
//             does not touch; the whole array is compared at the end.
// The shared-memory accesses use the lower half of the array, the row port the upper half
// (the two users never share a row, as in the SM).
#include "Vtb_smem.h"
#include "harness.h"
#include "fp32_ref.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#ifndef DMEM_BYTES
#define DMEM_BYTES 65536
#endif
#ifndef HAS_FP
#define HAS_FP 1
#endif
#ifndef WG_FP32_LATENCY
#define WG_FP32_LATENCY 4
#endif
#ifndef SMEM_LANES
#define SMEM_LANES 32
#endif

static const unsigned ROWS = DMEM_BYTES / 128;
static const unsigned SMEM_TOP = DMEM_BYTES / 2;  // accesses below, row-port traffic above
enum { OP_LD = 0, OP_ST = 1, OP_ATOM = 2 };
// Lane groups a narrow pass scans (LANES 4: 8). wg_smem's header: with no denial, P passes
// take P + 1 cycles (loads) or P (stores) from the accept edge to out_valid_o at 32 lanes;
// with LANES < 32 each pass is G scan cycles and the access, and a load's last data is
// handed out over G cycles after its capture cycle: (P + 1)(G + 1) and P(G + 1) cycles
// (LANES 4: a 1-pass load 18, a 32-pass load 297, a 1-pass store 9, 32 passes 288).
static const unsigned GROUPS = 32 / SMEM_LANES;
static const bool NARROW = SMEM_LANES < 32;
static uint64_t ld_cycles(unsigned p)
{
	return NARROW ? (uint64_t)(p + 1) * (GROUPS + 1) : p + 1;
}
static uint64_t st_cycles(unsigned p)
{
	return NARROW ? (uint64_t)p * (GROUPS + 1) : p;
}
enum { A_ADD, A_MINS, A_MAXS, A_EXCH, A_CAS, A_AND, A_OR, A_XOR, A_MINU, A_MAXU, A_INC, A_DEC, A_FADD };

struct Access {
	unsigned op = OP_LD, size = 2, aop = 0;
	uint32_t mask = 0;
	uint32_t addr[32] = {};
	uint8_t wdata[32][16] = {};
	uint32_t b[32] = {}, c[32] = {};
};

struct Result {
	uint8_t data[32][16];
	unsigned passes;
	uint64_t cycles;  // from the accept edge to the edge after out_valid_o was seen
};

static uint32_t atom_ref(unsigned op, uint32_t old, uint32_t b, uint32_t c)
{
	switch (op) {
	case A_ADD: return old + b;
	case A_MINS: return (int32_t)old < (int32_t)b ? old : b;
	case A_MAXS: return (int32_t)old > (int32_t)b ? old : b;
	case A_EXCH: return b;
	case A_CAS: return old == b ? c : old;
	case A_AND: return old & b;
	case A_OR: return old | b;
	case A_XOR: return old ^ b;
	case A_MINU: return old < b ? old : b;
	case A_MAXU: return old > b ? old : b;
	case A_INC: return old >= b ? 0 : old + 1;
	case A_DEC: return (old == 0 || old > b) ? b : old - 1;
	case A_FADD: {
		int pred;
		return fp32_ref(FP32_REF_FADD, 0, old, b, 0, &pred);
	}
	default: return old;
	}
}

struct Test {
	wg::Harness<Vtb_smem> &h;
	std::vector<uint8_t> mem;  // reference array

	// Background traffic.
	bool row_traffic = false;
	unsigned row_rd_pct = 0, row_wr_pct = 0, clr_pct = 0;
	std::set<unsigned> busy_rows;  // rows the running access touches (no clears there)
	bool clr_pending = false;
	unsigned clr_row = 0;
	uint64_t row_reads = 0, row_writes = 0, clears = 0, denied_rd = 0, denied_wr = 0;

	explicit Test(wg::Harness<Vtb_smem> &hh) : h(hh), mem(DMEM_BYTES, 0) {}

	uint32_t rd32(uint32_t a) const
	{
		return mem[a] | mem[a + 1] << 8 | mem[a + 2] << 16 | (uint32_t)mem[a + 3] << 24;
	}
	void wr32(uint32_t a, uint32_t v)
	{
		for (int i = 0; i < 4; i++)
			mem[a + i] = (uint8_t)(v >> (8 * i));
	}

	void idle_inputs()
	{
		h.top->in_valid_i = 0;
		h.top->clr_valid_i = 0;
		h.top->r_re_i = 0;
		h.top->r_we_i = 0;
	}

	// One clock cycle with the background traffic of this cycle.
	void cycle()
	{
		auto *t = h.top;
		bool rd = false, wr = false;
		unsigned rrow = 0, wrow = 0;
		uint8_t wbytes[128];
		bool wen[128];
		t->r_re_i = 0;
		t->r_we_i = 0;
		if (row_traffic) {
			unsigned half = ROWS / 2;
			if (h.chance(row_rd_pct)) {
				rd = true;
				rrow = half + (unsigned)h.rand(half);
			}
			if (h.chance(row_wr_pct)) {
				do
					wrow = half + (unsigned)h.rand(half);
				while (rd && wrow == rrow);
				wr = true;
			}
			if (rd) {
				t->r_re_i = 1;
				t->r_rrow_i = rrow;
			}
			if (wr) {
				t->r_we_i = 1;
				t->r_wrow_i = wrow;
				unsigned kind = (unsigned)h.rand(3);
				for (int i = 0; i < 128; i++) {
					wbytes[i] = (uint8_t)h.rand(256);
					wen[i] = kind == 0 ? true : kind == 1 ? h.chance(50) : h.chance(5);
				}
				for (int i = 0; i < 32; i++) {
					uint32_t wv = 0;
					for (int j = 0; j < 4; j++)
						wv |= (uint32_t)wbytes[4 * i + j] << (8 * j);
					t->r_wdata_i[i] = wv;
				}
				for (int i = 0; i < 4; i++) {
					uint32_t m = 0;
					for (int j = 0; j < 32; j++)
						m |= (uint32_t)wen[32 * i + j] << j;
					t->r_wbe_i[i] = m;
				}
			}
			if (!clr_pending && h.chance(clr_pct)) {
				unsigned r;
				int tries = 0;
				do
					r = (unsigned)h.rand(half);
				while (busy_rows.count(r) && ++tries < 100);
				if (!busy_rows.count(r)) {
					clr_pending = true;
					clr_row = r;
				}
			}
		}
		t->clr_valid_i = clr_pending;
		t->clr_row_i = clr_row;
		h.eval();
		bool bank_rd = t->b_re_o != 0, bank_wr = t->b_we_o != 0;
		if (bank_rd && !t->b_rgnt_o)
			denied_rd++;
		if (bank_wr && !t->b_wgnt_o)
			denied_wr++;
		CHECK(h, t->b_rgnt_o == !rd && t->b_wgnt_o == !wr, "grants follow the row port");
		bool clr_done = clr_pending && t->clr_ready_o;
		h.tick();
		if (clr_done) {
			std::fill(mem.begin() + 128 * clr_row, mem.begin() + 128 * clr_row + 128, 0);
			clr_pending = false;
			clears++;
		}
		if (wr) {
			for (int i = 0; i < 128; i++)
				if (wen[i])
					mem[128 * wrow + i] = wbytes[i];
			row_writes++;
		}
		if (rd) {
			h.eval();
			bool ok = true;
			for (int i = 0; i < 32; i++)
				ok &= t->rdata_o[i] == rd32(128 * rrow + 4 * i);
			CHECK(h, ok, "row read of row %u", rrow);
			row_reads++;
		}
		t->r_re_i = 0;
		t->r_we_i = 0;
		t->clr_valid_i = 0;
	}

	void finish_clear()
	{
		bool saved = row_traffic;
		row_traffic = false;
		for (int i = 0; clr_pending && i < 1000; i++)
			cycle();
		row_traffic = saved;
	}

	// The results of every thread, read a lane group at a time through out_grp_i.
	void read_results(uint8_t data[32][16])
	{
		auto *t = h.top;
		for (unsigned g = 0; g < GROUPS; g++) {
			t->out_grp_i = g;
			h.eval();
			for (unsigned k = 0; k < SMEM_LANES; k++)
				for (int j = 0; j < 16; j++)
					data[g * SMEM_LANES + k][j] =
						(uint8_t)(t->out_gdata_o[4 * k + j / 4] >> (8 * (j % 4)));
		}
		t->out_grp_i = 0;
		h.eval();
	}

	// Runs one access; returns the RTL's results.
	Result run(const Access &a)
	{
		auto *t = h.top;
		Result res{};
		busy_rows.clear();
		unsigned bytes = 1u << a.size;
		for (int l = 0; l < 32; l++)
			if (a.mask >> l & 1)
				for (unsigned k = 0; k < bytes; k += 4)
					busy_rows.insert((a.addr[l] + k) / 128);
		t->in_op_i = a.op;
		t->in_size_i = a.size;
		t->in_mask_i = a.mask;
		t->in_aop_i = a.aop;
		for (int l = 0; l < 32; l++) {
			t->in_addr_i[l] = a.addr[l];
			t->in_ab_i[l] = a.b[l];
			t->in_ac_i[l] = a.c[l];
			for (int w = 0; w < 4; w++) {
				uint32_t v = 0;
				for (int j = 0; j < 4; j++)
					v |= (uint32_t)a.wdata[l][4 * w + j] << (8 * j);
				t->in_wdata_i[4 * l + w] = v;
			}
		}
		t->in_valid_i = 1;
		h.eval();
		int n = 0;
		while (!t->in_ready_o && n++ < 100) {
			cycle();
			t->in_valid_i = 1;
			h.eval();
		}
		CHECK(h, t->in_ready_o, "in_ready_o");
		cycle();  // accepted at this edge
		uint64_t start = h.cycle();
		// Scramble the inputs: the access must have been taken. The narrow engine reads
		// the addresses and operands until out_valid_o (they must hold); it registers
		// only the op, size, mask and atomic op.
		t->in_valid_i = 0;
		t->in_op_i = (unsigned)h.rand(3);
		t->in_size_i = (unsigned)h.rand(5);
		t->in_mask_i = (uint32_t)h.rng();
		t->in_aop_i = (unsigned)h.rand(16);
		if (!NARROW) {
			for (int i = 0; i < 32; i++) {
				t->in_addr_i[i] = (uint32_t)h.rng();
				t->in_ab_i[i] = (uint32_t)h.rng();
				t->in_ac_i[i] = (uint32_t)h.rng();
			}
			for (int i = 0; i < 128; i++)
				t->in_wdata_i[i] = (uint32_t)h.rng();
		}
		bool done = false;
		for (int i = 0; i < 2000 && !done; i++) {
			h.eval();
			CHECK(h, !t->in_ready_o || t->out_valid_o, "in_ready_o low while busy");
			if (t->out_valid_o) {
				done = true;
				res.passes = t->out_passes_o;
				read_results(res.data);
				res.cycles = h.cycle() - start;
			}
			cycle();
			if (done) {
				h.eval();
				CHECK(h, !t->out_valid_o, "out_valid_o is a one-cycle pulse");
				// The results hold after out_valid_o (wg_lsu reads them over several cycles).
				uint8_t again[32][16];
				read_results(again);
				CHECK(h, memcmp(again, res.data, sizeof again) == 0,
				      "results changed in the cycle after out_valid_o");
			}
		}
		CHECK(h, done, "access finished");
		busy_rows.clear();
		return res;
	}

	// Reference: passes and expected data; applies the access to mem.
	unsigned reference(const Access &a, uint8_t exp[32][16])
	{
		unsigned bytes = 1u << a.size, nw = a.size <= 2 ? 1 : bytes / 4, passes = 0;
		if (a.op == OP_ATOM) {
			for (int l = 0; l < 32; l++) {
				if (!(a.mask >> l & 1))
					continue;
				uint32_t old = rd32(a.addr[l]);
				wr32(a.addr[l], atom_ref(a.aop, old, a.b[l], a.c[l]));
				for (int j = 0; j < 4; j++)
					exp[l][j] = (uint8_t)(old >> (8 * j));
				passes++;
			}
			return passes;
		}
		std::map<unsigned, std::set<uint32_t>> words;
		for (int l = 0; l < 32; l++)
			if (a.mask >> l & 1)
				for (unsigned k = 0; k < nw; k++) {
					uint32_t w = a.addr[l] / 4 + k;
					words[w % 32].insert(w);
				}
		for (auto &kv : words)
			passes = std::max(passes, (unsigned)kv.second.size());
		for (int l = 0; l < 32; l++) {
			if (!(a.mask >> l & 1))
				continue;
			for (unsigned j = 0; j < bytes; j++) {
				if (a.op == OP_LD)
					exp[l][j] = mem[a.addr[l] + j];
				else
					mem[a.addr[l] + j] = a.wdata[l][j];
			}
		}
		return passes;
	}

	// Runs an access and checks it against the reference. want_passes < 0: not checked
	// beyond the reference. With no row traffic and no clear the cycles are checked too:
	// none for no thread (out_valid_o the cycle after the accept), loads and stores by
	// ld_cycles / st_cycles, atomics 2 per thread (ADD.F32: 3 + FP32 latency).
	// Returns the RTL result.
	Result check(const Access &a, const char *what, int want_passes = -1)
	{
		uint8_t exp[32][16];
		memset(exp, 0, sizeof exp);
		bool quiet = !row_traffic && !clr_pending;
		Result r = run(a);
		unsigned ref_passes = reference(a, exp);
		CHECK(h, r.passes == ref_passes, "%s: passes %u, reference %u", what, r.passes, ref_passes);
		if (quiet) {
			uint64_t want = a.mask == 0                ? 0
			                : a.op == OP_LD            ? ld_cycles(ref_passes)
			                : a.op == OP_ST            ? st_cycles(ref_passes)
			                : a.aop == A_FADD && HAS_FP ? (uint64_t)ref_passes * (3 + WG_FP32_LATENCY)
			                                           : 2ull * ref_passes;
			CHECK(h, r.cycles == want, "%s: %llu cycles for %u passes, expected %llu", what,
			      (unsigned long long)r.cycles, ref_passes, (unsigned long long)want);
		}
		if (want_passes >= 0)
			CHECK(h, r.passes == (unsigned)want_passes, "%s: passes %u, expected %d", what, r.passes,
			      want_passes);
		if (a.op != OP_ST) {
			unsigned n = a.op == OP_ATOM ? 4 : 1u << a.size;
			for (int l = 0; l < 32; l++) {
				if (!(a.mask >> l & 1))
					continue;
				bool ok = memcmp(r.data[l], exp[l], n) == 0;
				CHECK(h, ok, "%s: lane %d data (addr %05x, size %u, op %u aop %u) got %02x%02x%02x%02x exp %02x%02x%02x%02x",
				      what, l, a.addr[l], a.size, a.op, a.aop, r.data[l][3], r.data[l][2], r.data[l][1],
				      r.data[l][0], exp[l][3], exp[l][2], exp[l][1], exp[l][0]);
			}
		}
		return r;
	}

	// Reads every row through the row port and compares with the reference.
	void check_array(const char *what)
	{
		auto *t = h.top;
		idle_inputs();
		unsigned bad = 0;
		for (unsigned row = 0; row < ROWS; row++) {
			t->r_re_i = 1;
			t->r_rrow_i = row;
			h.tick();
			h.eval();
			for (int i = 0; i < 32; i++)
				if (t->rdata_o[i] != rd32(128 * row + 4 * i)) {
					if (bad++ < 5)
						printf("  %s: row %u word %d: %08x, reference %08x\n", what, row, i, t->rdata_o[i],
						       rd32(128 * row + 4 * i));
				}
		}
		t->r_re_i = 0;
		CHECK(h, bad == 0, "%s: %u array words differ", what, bad);
	}

	// Fills the array through the row port with random bytes.
	void fill_random()
	{
		auto *t = h.top;
		idle_inputs();
		for (unsigned row = 0; row < ROWS; row++) {
			t->r_we_i = 1;
			t->r_wrow_i = row;
			for (int i = 0; i < 32; i++) {
				uint32_t v = (uint32_t)h.rng();
				t->r_wdata_i[i] = v;
				wr32(128 * row + 4 * i, v);
			}
			for (int i = 0; i < 4; i++)
				t->r_wbe_i[i] = 0xFFFFFFFFu;
			h.tick();
		}
		t->r_we_i = 0;
	}
};

static Access load(unsigned size, uint32_t mask, uint32_t base, uint32_t stride_bytes)
{
	Access a;
	a.op = OP_LD;
	a.size = size;
	a.mask = mask;
	for (int l = 0; l < 32; l++)
		a.addr[l] = base + l * stride_bytes;
	return a;
}

static uint32_t f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static void directed(Test &t)
{
	auto &h = t.h;
	// Loads: pass counts by the rule and latency (P passes: out_valid_o ld_cycles(P) edges
	// after the accept edge; no row traffic).
	struct {
		unsigned size;
		uint32_t mask, base, stride;
		int passes;
		const char *what;
	} lds[] = {
		{ 2, 0xFFFFFFFF, 0x100, 4, 1, "LD.32 stride 1 word" },
		{ 2, 0xFFFFFFFF, 0x100, 8, 2, "LD.32 stride 2 words" },
		{ 2, 0xFFFFFFFF, 0x104, 12, 1, "LD.32 stride 3 words" },
		{ 2, 0xFFFFFFFF, 0x000, 128, 32, "LD.32 stride 32 words" },
		{ 2, 0xFFFFFFFF, 0x244, 0, 1, "LD.32 broadcast" },
		{ 3, 0xFFFFFFFF, 0x200, 8, 2, "LD.64 stride 1" },
		{ 4, 0xFFFFFFFF, 0x400, 16, 4, "LD.128 stride 1" },
		{ 4, 0xFFFFFFFF, 0x400, 0, 1, "LD.128 broadcast" },
		{ 4, 0x0000FFFF, 0x000, 128, 16, "LD.128 stride 32 words, 16 lanes" },
		{ 2, 0x0000000F, 0x000, 128, 4, "LD.32 stride 32 words, 4 lanes" },
		{ 2, 0x80000001, 0x000, 8, 1, "LD.32 stride 2, lanes 0 and 31" },
		{ 2, 0x00010001, 0x000, 8, 2, "LD.32 stride 2, lanes 0 and 16" },
		{ 2, 0x00000100, 0x3C0, 4, 1, "LD.32 one lane" },
		{ 0, 0xFFFFFFFF, 0x101, 1, 1, "LD.U8 stride 1 byte" },
		{ 1, 0xFFFFFFFF, 0x102, 2, 1, "LD.U16 stride 1 half" },
		{ 0, 0xFFFFFFFF, 0x000, 64, 16, "LD.U8 stride 64 bytes" },
	};
	for (auto &c : lds) {
		Result r = t.check(load(c.size, c.mask, c.base, c.stride), c.what, c.passes);
		CHECK(h, r.cycles == ld_cycles(r.passes), "%s: %llu cycles for %u passes", c.what,
		      (unsigned long long)r.cycles, r.passes);
	}

	// Stores.
	{
		Access a = load(2, 0xFFFFFFFF, 0x800, 4);
		a.op = OP_ST;
		for (int l = 0; l < 32; l++)
			for (int j = 0; j < 16; j++)
				a.wdata[l][j] = (uint8_t)(l * 16 + j + 1);
		Result r = t.check(a, "ST.32 stride 1", 1);
		CHECK(h, r.cycles == st_cycles(1), "ST.32 stride 1: %llu cycles", (unsigned long long)r.cycles);
		a = load(2, 0xFFFFFFFF, 0x040, 128);
		a.op = OP_ST;
		r = t.check(a, "ST.32 stride 32 words", 32);
		CHECK(h, r.cycles == st_cycles(32), "ST.32 stride 32: %llu cycles", (unsigned long long)r.cycles);
		a = load(4, 0xFFFFFFFF, 0x600, 16);
		a.op = OP_ST;
		for (int l = 0; l < 32; l++)
			for (int j = 0; j < 16; j++)
				a.wdata[l][j] = (uint8_t)(h.rng());
		t.check(a, "ST.128 stride 1", 4);
		t.check(load(4, 0xFFFFFFFF, 0x600, 16), "LD.128 after ST.128", 4);
		a = load(3, 0xAAAAAAAA, 0x900, 8);
		a.op = OP_ST;
		t.check(a, "ST.64 odd lanes (lanes 1, 17 share banks)", 2);
	}
	// Byte stores of 4 lanes into one word: one pass, merged word.
	{
		Access a = load(0, 0x0000000F, 0xA00, 1);
		a.op = OP_ST;
		for (int l = 0; l < 4; l++)
			a.wdata[l][0] = (uint8_t)(0x11 * (l + 1));
		t.check(a, "ST.U8 4 lanes, one word", 1);
		CHECK(h, t.rd32(0xA00) == 0x44332211u, "merged word %08x", t.rd32(0xA00));
		Result r = t.check(load(2, 1, 0xA00, 0), "LD.32 of the merged word", 1);
		uint32_t v = r.data[0][0] | r.data[0][1] << 8 | r.data[0][2] << 16 | (uint32_t)r.data[0][3] << 24;
		CHECK(h, v == 0x44332211u, "RTL merged word %08x", v);
		// 16-bit stores of lanes 0, 1 into one word, lanes 2..31 into 15 more words.
		a = load(1, 0xFFFFFFFF, 0xA40, 2);
		a.op = OP_ST;
		for (int l = 0; l < 32; l++) {
			a.wdata[l][0] = (uint8_t)l;
			a.wdata[l][1] = (uint8_t)(0x80 + l);
		}
		t.check(a, "ST.U16 stride 1", 1);
	}
	// Same-address stores: the highest lane wins.
	{
		Access a = load(2, 0xFFFFFFFF, 0xB00, 0);
		a.op = OP_ST;
		for (int l = 0; l < 32; l++)
			for (int j = 0; j < 4; j++)
				a.wdata[l][j] = (uint8_t)(l + 16 * j);
		t.check(a, "ST.32 all lanes one address", 1);
		CHECK(h, t.rd32(0xB00) == 0x4F3F2F1Fu, "highest lane: %08x", t.rd32(0xB00));
		t.check(load(2, 1, 0xB00, 0), "LD.32 of the word all lanes stored", 1);
		a.mask = 0x00020008;  // lanes 3 and 17
		t.check(a, "ST.32 lanes 3 and 17 one address", 1);
		CHECK(h, t.rd32(0xB00) == 0x41312111u, "lane 17 wins: %08x", t.rd32(0xB00));
		// Byte stores of lanes 5 and 9 to one byte, lane 7 to the next byte.
		a = load(0, 0, 0xB40, 0);
		a.op = OP_ST;
		a.mask = (1u << 5) | (1u << 7) | (1u << 9);
		a.addr[7] = 0xB41;
		for (int l = 0; l < 32; l++)
			a.wdata[l][0] = (uint8_t)(0xA0 + l);
		t.check(a, "ST.U8 lanes 5, 9 one byte, 7 the next", 1);
		CHECK(h, (t.rd32(0xB40) & 0xFFFF) == 0xA7A9, "bytes %04x", t.rd32(0xB40) & 0xFFFF);
		t.check(load(2, 1, 0xB40, 0), "LD.32 back", 1);
	}
	t.check_array("after directed stores");

	// Atomics.
	{
		// 32 x ADD on one address: the sum; old values are the running sums in lane order.
		Access z = load(2, 1, 0xC00, 0);
		z.op = OP_ST;
		t.check(z, "zero");
		Access a = load(2, 0xFFFFFFFF, 0xC00, 0);
		a.op = OP_ATOM;
		a.aop = A_ADD;
		for (int l = 0; l < 32; l++)
			a.b[l] = l + 1;
		Result r = t.check(a, "ATOM.ADD 32 lanes one address", 32);
		CHECK(h, t.rd32(0xC00) == 528, "sum %u", t.rd32(0xC00));
		uint32_t run = 0;
		bool ok = true;
		for (int l = 0; l < 32; l++) {
			uint32_t old = r.data[l][0] | r.data[l][1] << 8 | r.data[l][2] << 16 | (uint32_t)r.data[l][3] << 24;
			ok &= old == run;
			run += l + 1;
		}
		CHECK(h, ok, "old values in lane order");
		CHECK(h, r.cycles == 64, "ATOM: 2 cycles per thread (%llu)", (unsigned long long)r.cycles);
		Result r2 = t.check(load(2, 1, 0xC00, 0), "LD after ATOM.ADD", 1);
		CHECK(h, r2.data[0][0] == (528 & 0xFF) && r2.data[0][1] == 2, "RTL sum");

		// ADD on distinct addresses, partial mask: one thread per pass anyway.
		a = load(2, 0x0F0F0F0F, 0xC80, 4);
		a.op = OP_ATOM;
		a.aop = A_ADD;
		t.check(a, "ATOM.ADD 16 lanes distinct", 16);

		// CAS chain: lane l swaps l -> l + 1, so each sees the previous lane's value.
		z = load(2, 1, 0xD00, 0);
		z.op = OP_ST;
		memset(z.wdata, 0, sizeof z.wdata);
		t.check(z, "zero");
		a = load(2, 0xFFFFFFFF, 0xD00, 0);
		a.op = OP_ATOM;
		a.aop = A_CAS;
		for (int l = 0; l < 32; l++) {
			a.b[l] = l;
			a.c[l] = l + 1;
		}
		t.check(a, "ATOM.CAS chain", 32);
		CHECK(h, t.rd32(0xD00) == 32, "CAS chain result %u", t.rd32(0xD00));
		for (int l = 0; l < 32; l++)
			a.b[l] = 1000 + l;
		t.check(a, "ATOM.CAS all failing", 32);
		CHECK(h, t.rd32(0xD00) == 32, "CAS unchanged %u", t.rd32(0xD00));

		// INC / DEC wrapping on one address.
		a = load(2, 0xFFFFFFFF, 0xD40, 0);
		a.op = OP_ATOM;
		a.aop = A_INC;
		for (int l = 0; l < 32; l++)
			a.b[l] = 5;
		t.check(a, "ATOM.INC wrap 5", 32);
		a.aop = A_DEC;
		for (int l = 0; l < 32; l++)
			a.b[l] = 3 + (l & 3);
		t.check(a, "ATOM.DEC wrap", 32);
		// The other integer operations, each on a few addresses with conflicts.
		for (unsigned op = A_MINS; op <= A_MAXU; op++) {
			a = load(2, 0xFFFFFFFF, 0xD80 + 0x10 * op, 0);
			for (int l = 0; l < 32; l++) {
				a.addr[l] = 0xD80 + 0x10 * op + 4 * (l % 3);
				a.b[l] = (uint32_t)h.rng() >> (l & 7) * 4;
				if (l & 8)
					a.b[l] = -a.b[l];
				a.c[l] = (uint32_t)h.rng();
			}
			a.op = OP_ATOM;
			a.aop = op;
			t.check(a, "ATOM integer op");
		}
		if (HAS_FP) {
			a = load(2, 0xFFFFFFFF, 0xE40, 0);
			for (int l = 0; l < 32; l++) {
				a.addr[l] = 0xE40 + 4 * (l % 2);
				a.b[l] = f2u(1.5f + (float)l * 0.25f);
			}
			a.b[7] = f2u(1e-40f);   // subnormal
			a.b[9] = f2u(-3.0e38f);
			a.b[10] = f2u(-3.0e38f);  // overflow to -inf
			a.op = OP_ATOM;
			a.aop = A_FADD;
			Result rf = t.check(a, "ATOM.ADD.F32", 32);
			CHECK(h, rf.cycles == 32u * (3 + WG_FP32_LATENCY), "ADD.F32: %llu cycles",
			      (unsigned long long)rf.cycles);
			t.check(load(2, 3, 0xE40, 4), "LD after ADD.F32", 1);
		}
	}

	// No active thread: done at once, zero passes.
	{
		Access a = load(2, 0, 0x100, 4);
		t.check(a, "LD no thread", 0);
		a.op = OP_ST;
		t.check(a, "ST no thread", 0);
		a.op = OP_ATOM;
		t.check(a, "ATOM no thread", 0);
	}

	// Denied passes repeat and do not count: row reads during a load, row writes during a
	// store, both during atomics (the row port's rows are in the upper half).
	{
		t.row_traffic = true;
		t.row_rd_pct = 60;
		t.row_wr_pct = 60;
		uint64_t d0 = t.denied_rd + t.denied_wr;
		Result r = t.check(load(2, 0xFFFFFFFF, 0x0, 128), "LD stride 32 with row traffic", 32);
		CHECK(h, r.cycles > ld_cycles(32), "denials took cycles (%llu)", (unsigned long long)r.cycles);
		Access s = load(2, 0xFFFFFFFF, 0x0, 128);
		s.op = OP_ST;
		for (int l = 0; l < 32; l++)
			s.wdata[l][0] = (uint8_t)l;
		r = t.check(s, "ST stride 32 with row traffic", 32);
		CHECK(h, r.cycles > st_cycles(32), "denials took cycles (%llu)", (unsigned long long)r.cycles);
		Access a = load(2, 0xFFFFFFFF, 0xC00, 0);
		a.op = OP_ATOM;
		a.aop = A_ADD;
		for (int l = 0; l < 32; l++)
			a.b[l] = 1;
		t.check(a, "ATOM.ADD with row traffic", 32);
		CHECK(h, t.denied_rd + t.denied_wr > d0 + 20, "passes were denied");
		t.row_traffic = false;
		t.row_rd_pct = t.row_wr_pct = 0;
	}

	// A clear has priority over the access: a held clear stalls a load.
	{
		auto *top = h.top;
		Access a = load(2, 0xFFFFFFFF, 0x0, 128);
		Access s = a;
		s.op = OP_ST;
		for (int l = 0; l < 32; l++)
			s.wdata[l][0] = (uint8_t)(l + 1);
		t.check(s, "ST before clear", 32);
		// Start the load, then clear row 40 (not touched) for 5 cycles while it runs.
		t.clr_pending = true;
		t.clr_row = 40;
		top->clr_valid_i = 1;
		uint8_t exp[32][16];
		Result r = t.run(a);  // the clear happens in the accept cycle (held clr_valid)
		t.reference(a, exp);
		CHECK(h, r.passes == 32 && r.cycles == ld_cycles(32), "load after clear: %u passes %llu cycles", r.passes,
		      (unsigned long long)r.cycles);
		bool ok = true;
		for (int l = 0; l < 32; l++)
			ok &= memcmp(r.data[l], exp[l], 4) == 0;
		CHECK(h, ok, "load data around the clear");
		// Now with clears held during the passes.
		unsigned stall = 0;
		top->in_op_i = OP_LD;
		top->in_size_i = 2;
		top->in_mask_i = 0xFFFFFFFF;
		for (int l = 0; l < 32; l++)
			top->in_addr_i[l] = 128 * l;
		top->in_valid_i = 1;
		h.eval();
		h.tick();  // accepted
		top->in_valid_i = 0;
		for (int i = 0; i < 8; i++) {
			top->clr_valid_i = 1;
			top->clr_row_i = 40 + i;
			h.eval();
			CHECK(h, top->clr_ready_o && top->b_we_o == 0xFFFFFFFF && top->b_re_o == 0, "clear first");
			h.tick();
			std::fill(t.mem.begin() + 128 * (40 + i), t.mem.begin() + 128 * (41 + i), 0);
			stall++;
		}
		top->clr_valid_i = 0;
		uint64_t start = h.cycle();
		h.eval();
		while (!top->out_valid_o && h.cycle() - start < 2000) {
			h.tick();
			h.eval();
		}
		CHECK(h, top->out_valid_o && top->out_passes_o == 32, "load after held clears: passes %u",
		      top->out_passes_o);
		// 32 lanes: the passes wait for the clears, then 33 cycles. Narrow: the first
		// pass's scan (G cycles) goes on under the clears and its access waits for the
		// cycle after them, G + 1 or 9 cycles after the accept edge, whichever is later;
		// the clears took 8 of those (LANES 4: 9 + 31 * 9 + 8 + 2 - 9 = 289).
		uint64_t want = NARROW ? std::max<uint64_t>(GROUPS + 1, 9) + 31ull * (GROUPS + 1) + GROUPS + 2 - 9 : 33;
		CHECK(h, h.cycle() - start == want, "load took %llu cycles after the clears, expected %llu",
		      (unsigned long long)(h.cycle() - start), (unsigned long long)want);
		h.tick();
		t.check_array("after clears");
	}
}

// A random access in the lower half of the array.
static Access random_access(Test &t)
{
	auto &h = t.h;
	Access a;
	unsigned r = (unsigned)h.rand(100);
	a.op = r < 40 ? OP_LD : r < 75 ? OP_ST : OP_ATOM;
	a.size = a.op == OP_ATOM ? 2 : (unsigned)h.rand(5);
	if (a.op == OP_ATOM)
		a.aop = (unsigned)h.rand(HAS_FP ? 13 : 12);
	unsigned bytes = 1u << a.size;
	switch (h.rand(5)) {
	case 0: a.mask = 0xFFFFFFFF; break;
	case 1: a.mask = (uint32_t)h.rng(); break;
	case 2: a.mask = (uint32_t)h.rng() & (uint32_t)h.rng() & (uint32_t)h.rng(); break;
	case 3: a.mask = 1u << h.rand(32); break;
	default: a.mask = (uint32_t)h.rng() | (uint32_t)h.rng(); break;
	}
	// Addresses: strided, clustered on a few words, broadcast, or random.
	uint32_t base = (uint32_t)h.rand(SMEM_TOP);
	unsigned pat = (unsigned)h.rand(4);
	static const unsigned strides[] = { 1, 2, 3, 4, 8, 16, 31, 32, 33, 64 };
	unsigned stride = strides[h.rand(10)];
	uint32_t hot[8];
	unsigned nhot = 1 + (unsigned)h.rand(8);
	uint32_t win = 256u << h.rand(6);
	for (unsigned i = 0; i < nhot; i++)
		hot[i] = (base + (uint32_t)h.rand(win)) % SMEM_TOP;
	unsigned unit = a.size <= 2 && h.chance(50) ? 4 : bytes;
	for (int l = 0; l < 32; l++) {
		uint32_t ad;
		switch (pat) {
		case 0: ad = base + l * stride * unit; break;
		case 1: ad = hot[h.rand(nhot)] + (uint32_t)h.rand(4) * (h.chance(50) ? bytes : 128); break;
		case 2: ad = base; break;
		default: ad = (uint32_t)h.rand(SMEM_TOP); break;
		}
		a.addr[l] = (ad % SMEM_TOP) & ~(bytes - 1);
		for (int j = 0; j < 16; j++)
			a.wdata[l][j] = (uint8_t)h.rng();
		switch (h.rand(4)) {
		case 0: a.b[l] = (uint32_t)h.rand(8); break;
		case 1: a.b[l] = t.rd32(a.addr[l] & ~3u); break;  // CAS hits sometimes
		default: a.b[l] = (uint32_t)h.rng(); break;
		}
		a.c[l] = h.chance(20) ? a.b[l] : (uint32_t)h.rng();
		if (a.aop == A_FADD && h.chance(80)) {
			float f = ((float)h.rand(2000) - 1000.0f) / (float)(1 + h.rand(64));
			a.b[l] = f2u(f);
		}
	}
	return a;
}

int main(int argc, char **argv)
{
	wg::Harness<Vtb_smem> h(argc, argv, "test_smem", 5000000);
	Test t(h);
	t.idle_inputs();
	h.reset();

	// Power-up contents are random: clear every row through the clear port.
	for (unsigned row = 0; row < ROWS; row++) {
		h.top->clr_valid_i = 1;
		h.top->clr_row_i = row;
		h.eval();
		CHECK(h, h.top->clr_ready_o, "clear ready");
		h.tick();
	}
	h.top->clr_valid_i = 0;
	t.check_array("after clearing every row");
	t.fill_random();
	t.check_array("after row-port fill");

	directed(t);

	// Random accesses: some phases quiet, some with row-port traffic and clears.
	uint64_t n = h.scaled(20000);
	for (uint64_t i = 0; i < n; i++) {
		if (i % 500 == 0) {
			t.row_traffic = (i / 500) % 3 != 0;
			t.row_rd_pct = (unsigned)h.rand(50);
			t.row_wr_pct = (unsigned)h.rand(50);
			t.clr_pct = (unsigned)h.rand(10);
			if (h.chance(30)) {
				// Refill the shared half with random bytes (clears zero it).
				t.finish_clear();
				t.fill_random();
			}
		}
		Access a = random_access(t);
		t.check(a, "random");
		if (i % 1000 == 999) {
			t.finish_clear();
			t.check_array("random phase");
		}
	}
	t.finish_clear();
	t.check_array("end");
	printf("test_smem: DMEM_BYTES %u HAS_FP %d LANES %d: %llu random accesses, row port %llu reads %llu writes, "
	       "%llu clears, %llu denied bank reads, %llu denied bank writes\n",
	       DMEM_BYTES, HAS_FP, SMEM_LANES, (unsigned long long)n, (unsigned long long)t.row_reads,
	       (unsigned long long)t.row_writes, (unsigned long long)t.clears, (unsigned long long)t.denied_rd,
	       (unsigned long long)t.denied_wr);
	return h.finish();
}
