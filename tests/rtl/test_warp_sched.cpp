// test_warp_sched: wg_warp_sched (built with NUM_WARPS=8, NUM_SIMD=1 by sim/sm.mk).
//   LRR and GTO pick order over ready warps; a read-after-write hazard holds
//   the reader until the write-back clears the scoreboard; a predicate guard
//   forms the execution mask; the predicate file against a model (SETP write-backs,
//   PLOP at issue, both in one cycle, launch clears).
#include "Vwg_warp_sched.h"
#include "harness.h"

#include <cstdlib>
#include <vector>

// uop_t of rtl/wg_sm_pkg.sv, fields from the most significant end.
struct Uop {
	uint32_t op = 3, mod = 0, gneg = 0, gp = 7, rd = 63, ra = 63, rc = 63, rf_a = 63, rf_b = 63, rf_c = 63;
	uint32_t bimm = 0, imm = 0, reconv = 0x3FFFF, pc = 0, cls = 0, unit = 0, nwr = 0, wr_pd = 0, illegal = 0;
	uint32_t stop = 0, adv = 0;
	uint64_t rmask = 0;
	uint32_t pmask = 0;
};

static const unsigned UOP_W = 203; // wg_sm_pkg::UOP_W

static void pack(const Uop &u, uint32_t *w)
{
	unsigned pos = UOP_W;
	for (unsigned i = 0; i < (UOP_W + 31) / 32; i++)
		w[i] = 0;
	auto put = [&](uint64_t v, unsigned n) {
		pos -= n;
		for (unsigned i = 0; i < n; i++)
			if ((v >> i) & 1)
				w[(pos + i) / 32] |= 1u << ((pos + i) % 32);
	};
	put(u.op, 6); put(u.mod, 3); put(u.gneg, 1); put(u.gp, 3); put(u.rd, 6); put(u.ra, 6); put(u.rc, 6);
	put(u.rf_a, 6); put(u.rf_b, 6); put(u.rf_c, 6); put(u.bimm, 1); put(u.imm, 32); put(u.reconv, 18);
	put(u.pc, 18); put(u.cls, 4); put(u.unit, 2); put(u.nwr, 3); put(u.wr_pd, 1); put(u.illegal, 1);
	put(u.stop, 1); put(u.adv, 1); put(u.rmask, 64); put(u.pmask, 8);
}

// IADD rd, ra, 1
static Uop iadd(unsigned rd, unsigned ra, unsigned pc)
{
	Uop u;
	u.rd = rd;
	u.ra = ra;
	u.rf_a = ra;
	u.bimm = 1;
	u.imm = 1;
	u.pc = pc;
	u.nwr = 1;
	u.rmask = (1ull << rd) | (1ull << ra);
	u.pmask = 0;
	return u;
}

struct T {
	wg::Harness<Vwg_warp_sched> &h;
	void push(unsigned warp, const Uop &u)
	{
		h.top->ib_valid_i = 1;
		h.top->ib_warp_i = warp;
		pack(u, h.top->ib_uop_i.data());
		h.tick();
		h.top->ib_valid_i = 0;
	}
	void init(unsigned warp)
	{
		h.top->init_valid_i = 1;
		h.top->init_warp_i = warp;
		h.tick();
		h.top->init_valid_i = 0;
	}
	// Issue order over n cycles (warp per issue).
	std::vector<unsigned> run(unsigned cycles)
	{
		std::vector<unsigned> order;
		for (unsigned i = 0; i < cycles; i++) {
			h.eval();
			if (h.top->is_valid_o && h.top->is_ready_i) {
				order.push_back(h.top->is_warp_o);
				if (getenv("WS_DEBUG"))
					printf("cycle %lu issue warp %u exec %08x\n", (unsigned long)h.cycle(), h.top->is_warp_o,
					       h.top->is_exec_o);
			}
			h.tick();
		}
		return order;
	}
};

// The predicate file against a model: every cycle a random SETP write-back (lanes merged
// under wb_pexec_i) and now and then a launch of a random warp; instructions issued one at a
// time, each a PLOP (its result merged under the execution mask) or a probe, and every issue's
// execution mask (guard), SEL lanes (psel) and PLOP lanes (pval) checked against the model. A
// write-back and a PLOP may write the same word in one cycle (the PLOP's is the later write),
// a launch in the same cycle clears the warp's eight predicates after both.
static const unsigned OP_PLOP = 22; // wg_isa_pkg::OP_PLOP

static uint32_t rnd32() { return ((uint32_t)rand() << 16) ^ (uint32_t)rand(); }

static void pred_file_test(wg::Harness<Vwg_warp_sched> &h, T &t)
{
	uint32_t model[8][8] = {};
	uint32_t act[8];
	auto rd = [&](unsigned w, unsigned n) { return n == 7 ? 0xFFFFFFFFu : model[w][n]; };
	srand(7);
	h.top->halt_i = 1;
	h.top->sched_gto_i = 0;
	for (unsigned w = 0; w < 8; w++) {
		t.init(w);
		for (unsigned n = 0; n < 8; n++)
			model[w][n] = 0;
		act[w] = rnd32() | 1;
		h.top->act_i[w] = act[w];
	}
	h.top->halt_i = 0;
	unsigned issues = 0, plops = 0, same_word = 0, clears = 0, mism = 0;
	for (unsigned step = 0; step < 3000 && mism < 5; step++) {
		unsigned w = rand() % 8;
		bool plop = rand() % 2;
		Uop u;
		u.gp = rand() % 8;
		u.gneg = rand() % 2;
		u.ra = rand() % 16;
		u.rc = rand() % 16;
		u.mod = rand() % 3;
		if (plop) {
			u.op = OP_PLOP;
			u.rd = rand() % 8;
			u.wr_pd = 1;
		}
		t.push(w, u);
		bool issued = false;
		for (unsigned c = 0; c < 6 && !issued; c++) {
			// A write-back this cycle (and maybe a launch of another warp).
			bool wb = rand() % 2;
			unsigned ww = rand() % 8, wp = rand() % 8;
			if (plop && rand() % 4 == 0) {
				ww = w;
				wp = u.rd;
			}
			uint32_t wval = rnd32(), wexec = rnd32();
			bool clr = rand() % 16 == 0;
			unsigned cw = rand() % 8;
			h.top->wb_valid_i = wb;
			h.top->wb_pwr_i = wb;
			h.top->wb_warp_i = ww;
			h.top->wb_preg_i = wp;
			h.top->wb_pval_i = wval;
			h.top->wb_pexec_i = wexec;
			h.top->wb_rmask_i = 0;
			h.top->wb_pmask_i = 0;
			h.top->init_valid_i = clr && cw != w;
			h.top->init_warp_i = cw;
			h.eval();
			uint32_t plop_new = 0;
			bool plop_wr = false;
			if (h.top->is_valid_o && h.top->is_ready_i) {
				issued = true;
				issues++;
				CHECK(h, h.top->is_warp_o == w, "issued warp %u, expected %u", h.top->is_warp_o, w);
				uint32_t guard = rd(w, u.gp) ^ (u.gneg ? 0xFFFFFFFFu : 0);
				uint32_t exec = act[w] & guard;
				uint32_t pa = rd(w, u.ra & 7) ^ ((u.ra & 8) ? 0xFFFFFFFFu : 0);
				uint32_t pc = rd(w, u.rc & 7) ^ ((u.rc & 8) ? 0xFFFFFFFFu : 0);
				uint32_t res = u.mod == 0 ? (pa & pc) : u.mod == 1 ? (pa | pc) : (pa ^ pc);
				bool ok = h.top->is_exec_o == exec && h.top->is_psel_o == pc;
				if (plop)
					ok = ok && h.top->is_pval_o == (res & exec);
				if (!ok)
					mism++;
				CHECK(h, ok, "warp %u gp %u%s rc %u ra %u: exec %08x psel %08x pval %08x, model %08x %08x %08x", w,
				      u.gp, u.gneg ? "!" : "", u.rc, u.ra, h.top->is_exec_o, h.top->is_psel_o, h.top->is_pval_o,
				      exec, pc, res & exec);
				if (plop && u.rd != 7) {
					plop_wr = true;
					plop_new = (model[w][u.rd] & ~exec) | (res & exec);
				}
			}
			h.tick();
			if (wb) // P7 too: it is stored, and reads as true
				model[ww][wp] = (model[ww][wp] & ~wexec) | (wval & wexec);
			if (plop_wr) {
				plops++;
				if (wb && ww == w && wp == u.rd)
					same_word++;
				model[w][u.rd] = plop_new;
			}
			if (clr && cw != w) {
				clears++;
				for (unsigned n = 0; n < 8; n++)
					model[cw][n] = 0;
			}
		}
		CHECK(h, issued, "step %u: the instruction of warp %u issued", step, w);
		h.top->wb_valid_i = 0;
		h.top->wb_pwr_i = 0;
		h.top->init_valid_i = 0;
	}
	printf("predicate file: %u issues, %u PLOP writes (%u with a write-back to the same word), %u launches\n",
	       issues, plops, same_word, clears);
	CHECK(h, issues == 3000 && same_word > 20 && clears > 100, "the test reached its cases");
}

int main(int argc, char **argv)
{
	wg::Harness<Vwg_warp_sched> h(argc, argv, "test_warp_sched", 100000);
	T t{h};
	for (unsigned i = 0; i < 8; i++)
		h.top->act_i[i] = 0xFFFFFFFF;
	h.top->quiet_i = 0xFF;
	h.top->ib_valid_i = 0;
	h.top->init_valid_i = 0;
	h.top->wb_valid_i = 0;
	h.top->lwb_valid_i = 0;
	h.top->cid_i = 0;
	h.top->is_ready_i = 1;
	h.top->halt_i = 1;
	h.reset();

	// LRR: two independent instructions in each of warps 0..3.
	h.top->sched_gto_i = 0;
	for (unsigned w = 0; w < 4; w++) {
		t.init(w);
		t.push(w, iadd(1, 0, 0));
		t.push(w, iadd(2, 0, 1));
	}
	h.top->halt_i = 0;
	std::vector<unsigned> o = t.run(20);
	std::vector<unsigned> lrr = { 0, 1, 2, 3, 0, 1, 2, 3 };
	CHECK(h, o == lrr, "LRR order 0 1 2 3 0 1 2 3 (got %zu issues, first %u %u %u %u)", o.size(),
	      o.size() > 0 ? o[0] : 99, o.size() > 1 ? o[1] : 99, o.size() > 2 ? o[2] : 99, o.size() > 3 ? o[3] : 99);

	// GTO: the same load; the two most recent warps keep priority while ready.
	h.top->halt_i = 1;
	h.top->sched_gto_i = 1;
	for (unsigned w = 0; w < 4; w++) {
		t.init(w);
		t.push(w, iadd(3, 0, 2));
		t.push(w, iadd(4, 0, 3));
	}
	h.top->halt_i = 0;
	o = t.run(20);
	// Greedy pairs: a b a b, then the other two c d c d (LRR would interleave all four).
	bool pairs = o.size() == 8 && o[0] == o[2] && o[1] == o[3] && o[4] == o[6] && o[5] == o[7] &&
	             o[0] != o[1] && o[4] != o[5] && o[4] != o[0] && o[4] != o[1] && o[5] != o[0] && o[5] != o[1];
	CHECK(h, pairs, "GTO keeps two warps until they run dry (got %zu issues: %u %u %u %u %u %u)", o.size(),
	      o.size() > 0 ? o[0] : 99, o.size() > 1 ? o[1] : 99, o.size() > 2 ? o[2] : 99, o.size() > 3 ? o[3] : 99,
	      o.size() > 4 ? o[4] : 99, o.size() > 5 ? o[5] : 99);

	// Scoreboard: warp 5 writes R1 then reads it; the reader waits for the write-back.
	h.top->halt_i = 1;
	h.top->sched_gto_i = 0;
	t.init(5);
	t.push(5, iadd(1, 0, 0));
	t.push(5, iadd(2, 1, 1));
	h.top->halt_i = 0;
	o = t.run(10);
	CHECK(h, o.size() == 1 && o[0] == 5, "only the writer issues (%zu issues)", o.size());
	h.top->wb_valid_i = 1;
	h.top->wb_warp_i = 5;
	h.top->wb_rmask_i = 1ull << 1;
	h.tick();
	h.top->wb_valid_i = 0;
	h.top->wb_rmask_i = 0;
	o = t.run(5);
	CHECK(h, o.size() == 1 && o[0] == 5, "the reader issues after the write-back (%zu issues)", o.size());

	// Guard predicate: @!P0 (P0 = 0 after launch) executes on every active lane; @P0 on none.
	h.top->halt_i = 1;
	t.init(6);
	h.top->act_i[6] = 0x0000FFFF;
	Uop g = iadd(7, 0, 0);
	g.gp = 0;
	g.gneg = 1;
	t.push(6, g);
	h.top->halt_i = 0;
	bool seen = false;
	for (int i = 0; i < 5 && !seen; i++) {
		h.eval();
		if (h.top->is_valid_o && h.top->is_warp_o == 6) {
			seen = true;
			CHECK(h, h.top->is_exec_o == 0x0000FFFF && h.top->is_active_o == 0x0000FFFF, "exec = active & !P0");
		}
		h.tick();
	}
	CHECK(h, seen, "guarded instruction issued");

	pred_file_test(h, t);
	return h.finish();
}
