// test_simt_stack: wg_simt_stack against docs/isa.md section 4 (built with
// NUM_WARPS=4, STACK_DEPTH=16, NUM_PORTS=1 by sim/sm.mk).
//   uniform / not-taken / divergent branches, reconvergence pops, nested
//   divergence, EXIT inside a divergent path, EXIT of all lanes, overflow,
//   a parked request released by the barrier, two warps interleaved.
#include "Vwg_simt_stack.h"
#include "harness.h"

static const uint32_t NONE = 0x3FFFF;
enum { ADV = 0, BRA = 1, EXIT = 2 };

struct T {
	wg::Harness<Vwg_simt_stack> &h;

	static uint32_t bits(const uint32_t *w, unsigned lsb, unsigned n)
	{
		uint64_t v = 0;
		for (unsigned i = 0; i < n; i++)
			v |= (uint64_t)((w[(lsb + i) / 32] >> ((lsb + i) % 32)) & 1) << i;
		return (uint32_t)v;
	}
	uint32_t act(unsigned w) { return bits(h.top->act_o.data(), 32 * w, 32); }
	uint32_t rpc(unsigned w) { return bits(h.top->rpc_o.data(), 18 * w, 18); }

	void init(unsigned w, uint32_t mask)
	{
		h.top->init_valid_i = 1;
		h.top->init_warp_i = w;
		h.top->init_mask_i = mask;
		h.tick();
		h.top->init_valid_i = 0;
	}

	void req(unsigned w, unsigned op, uint32_t pc, uint32_t exec, uint32_t target = 0, uint32_t reconv = NONE,
	         bool park = false)
	{
		h.top->req_valid_i = 1;
		h.top->req_warp_i = w;
		h.top->req_op_i = op;
		h.top->req_park_i = park;
		h.top->req_pc_i = pc;
		h.top->req_exec_i = exec;
		h.top->req_target_i = target;
		h.top->req_reconv_i = reconv;
		h.tick();
		h.top->req_valid_i = 0;
	}

	// Waits for the result: returns pc of the resume, or -1 for done, -2 for a fault, -3 timeout.
	long result(unsigned *warp = nullptr)
	{
		for (int i = 0; i < 200; i++) {
			h.eval();
			if (h.top->resume_valid_o) {
				if (warp)
					*warp = h.top->resume_warp_o;
				long pc = h.top->resume_pc_o;
				h.tick();
				return pc;
			}
			if (h.top->done_valid_o) {
				if (warp)
					*warp = h.top->done_warp_o;
				h.tick();
				return -1;
			}
			if (h.top->fault_o) {
				h.tick();
				return -2;
			}
			h.tick();
		}
		return -3;
	}
};

int main(int argc, char **argv)
{
	wg::Harness<Vwg_simt_stack> h(argc, argv, "test_simt_stack", 100000);
	T t{h};
	h.top->init_valid_i = 0;
	h.top->req_valid_i = 0;
	h.top->release_i = 0;
	h.reset();

	// Sequential advance and uniform / not-taken branches.
	t.init(0, 0xFFFFFFFF);
	t.req(0, ADV, 0, 0xFFFFFFFF);
	long r0 = t.result();
	CHECK(h, r0 == 1, "ADV: pc + 1 (got %ld)", r0);
	t.req(0, BRA, 1, 0xFFFFFFFF, 7);
	CHECK(h, t.result() == 7, "uniform branch");
	t.req(0, BRA, 7, 0, 3);
	CHECK(h, t.result() == 8, "branch taken by no lane");
	CHECK(h, t.act(0) == 0xFFFFFFFF && t.rpc(0) == NONE, "mask unchanged");

	// Divergence: taken side first, then the fall-through, then the join.
	t.req(0, BRA, 5, 0x0000FFFF, 10, 20);
	CHECK(h, t.result() == 10, "divergent: taken side first");
	CHECK(h, t.act(0) == 0x0000FFFF && t.rpc(0) == 20, "taken lanes, rpc 20 (act %08x rpc %u)", t.act(0), t.rpc(0));
	t.req(0, ADV, 19, 0x0000FFFF);
	CHECK(h, t.result() == 6, "at the reconvergence pc: pop to the fall-through side");
	CHECK(h, t.act(0) == 0xFFFF0000, "fall-through lanes");
	t.req(0, ADV, 19, 0xFFFF0000);
	CHECK(h, t.result() == 20, "both sides done: the join");
	CHECK(h, t.act(0) == 0xFFFFFFFF && t.rpc(0) == NONE, "merged mask");

	// Nested divergence: inner join at 15, outer at 30.
	t.req(0, BRA, 20, 0x000000FF, 21, 30);
	CHECK(h, t.result() == 21, "outer taken");
	t.req(0, BRA, 21, 0x0000000F, 25, 28);
	CHECK(h, t.result() == 25, "inner taken");
	CHECK(h, t.act(0) == 0x0000000F, "inner taken lanes");
	t.req(0, ADV, 27, 0x0000000F);
	CHECK(h, t.result() == 22, "inner fall-through");
	CHECK(h, t.act(0) == 0x000000F0, "inner fall-through lanes");
	t.req(0, ADV, 27, 0x000000F0);
	CHECK(h, t.result() == 28, "inner join");
	CHECK(h, t.act(0) == 0x000000FF && t.rpc(0) == 30, "outer taken lanes again");
	t.req(0, ADV, 29, 0x000000FF);
	CHECK(h, t.result() == 21, "outer fall-through (pc + 1 of the branch)");
	CHECK(h, t.act(0) == 0xFFFFFF00, "outer fall-through lanes");
	t.req(0, BRA, 21, 0xFFFFFF00, 30);
	CHECK(h, t.result() == 30, "uniform branch to the join pops");
	CHECK(h, t.act(0) == 0xFFFFFFFF && t.rpc(0) == NONE, "all lanes");

	// EXIT inside a divergent path: the taken side leaves entirely.
	t.req(0, BRA, 30, 0x0000FFFF, 40, 50);
	CHECK(h, t.result() == 40, "taken");
	t.req(0, EXIT, 40, 0x0000FFFF);
	CHECK(h, t.result() == 31, "empty side popped: the other side runs");
	CHECK(h, t.act(0) == 0xFFFF0000, "remaining lanes");
	t.req(0, ADV, 49, 0xFFFF0000);
	CHECK(h, t.result() == 50, "join");
	CHECK(h, t.act(0) == 0xFFFF0000, "exited lanes stay out of the merged mask (act %08x)", t.act(0));
	// Partial EXIT (guarded): the warp goes on at pc + 1.
	t.req(0, EXIT, 50, 0x00FF0000);
	CHECK(h, t.result() == 51, "partial exit");
	CHECK(h, t.act(0) == 0xFF000000, "lanes left");
	t.req(0, EXIT, 51, 0xFF000000);
	CHECK(h, t.result() == -1, "last lanes exit: warp done");

	// Overflow: STACK_DEPTH = 16 entries; each divergent branch pushes two.
	t.init(1, 0xFFFFFFFF);
	long r = 0;
	int n = 0;
	for (n = 0; n < 10 && r >= 0; n++) {
		t.req(1, BRA, 100 + n, 1u << n, 200 + n, 300);
		r = t.result();
	}
	CHECK(h, r == -2, "overflow fault after the stack fills (r %ld after %d branches)", r, n);
	CHECK(h, n == 8, "7 divergent branches fit in 16 entries, the 8th overflows (n %d)", n);

	// Parked request (BAR.SYNC): nothing until the release.
	t.init(2, 0x0000FFFF);
	t.req(2, ADV, 4, 0x0000FFFF, 0, NONE, true);
	h.ticks(20);
	h.eval();
	CHECK(h, !h.top->resume_valid_o, "parked request waits");
	h.top->release_i = 1u << 2;
	h.tick();
	h.top->release_i = 0;
	CHECK(h, t.result() == 5, "released: pc + 1");

	// Two warps with requests in the same cycle window are both served.
	t.init(3, 0xFFFFFFFF);
	t.req(2, ADV, 5, 0x0000FFFF);
	t.req(3, BRA, 0, 0xFFFFFFFF, 9);
	unsigned w1 = 9, w2 = 9;
	long r1 = t.result(&w1), r2 = t.result(&w2);
	CHECK(h, (w1 == 2 && r1 == 6 && w2 == 3 && r2 == 9) || (w1 == 3 && r1 == 9 && w2 == 2 && r2 == 6),
	      "both warps resumed (w%u pc %ld, w%u pc %ld)", w1, r1, w2, r2);
	return h.finish();
}
