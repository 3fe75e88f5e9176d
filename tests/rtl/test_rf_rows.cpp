// test_rf_rows: wg_rf_rows (warp rows over a register file moved in beats) against a
// functional model of its row interface (docs/regfile.md section 12).
//
// Built once per parameter set (sim/rtl.mk): RR_NUM_WARPS, RR_NUM_REGS, RR_NUM_BANKS,
// RR_LANES (LANES_PER_ROW), RR_WR_BLOCKS_RD. What is checked:
//   - a row response returns, for every thread, the value of the last row write accepted
//     in the cycle of the read's accept or before it, or of a write accepted after it while
//     the read is pending, never an older one (the register file's ordering rule, which the
//     scheduler's scoreboard relies on); responses in request order with their tags, and a
//     response stays until taken;
//   - a row write occupies the port PARTS cycles: not ready (and wr_busy_o) for the
//     PARTS-1 cycles after its accept, ready again after them; a write to RZ none;
//   - the register file counts PARTS writes per row write;
//   - a lone read's response comes 3 + PARTS cycles after its accept, one of no register
//     (all sources RZ) 4 cycles after it, 5 with PARTS > 1 (the gather register is cleared);
//   - table writes wait for a walk to end (tbl_ready_o low meanwhile).
// The RAMs start with random contents: threads of rows never cleared or written are not
// compared.
#include "Vwg_rf_rows.h"
#include "harness.h"

#include <array>
#include <deque>
#include <vector>

#ifndef RR_NUM_WARPS
#define RR_NUM_WARPS 4
#endif
#ifndef RR_NUM_REGS
#define RR_NUM_REGS 4096
#endif
#ifndef RR_NUM_BANKS
#define RR_NUM_BANKS 4
#endif
#ifndef RR_LANES
#define RR_LANES 4
#endif
#ifndef RR_WR_BLOCKS_RD
#define RR_WR_BLOCKS_RD 1
#endif

namespace {

constexpr unsigned NW = RR_NUM_WARPS;
constexpr unsigned WS = 32;
constexpr unsigned LANES = RR_LANES;
constexpr unsigned PARTS = WS / LANES;
constexpr unsigned WROWS = RR_NUM_REGS / WS;
constexpr unsigned RZ = 63;
constexpr unsigned NSRC = 3;

using H = wg::Harness<Vwg_rf_rows>;
using Row = std::array<uint32_t, WS>;

struct Expect {
	unsigned tag, warp, row[3];
	Row data[NSRC];
	uint32_t known[NSRC]; // thread bit set: the value is defined
	// Values of row writes accepted after the read's accept, while it is pending: the
	// read may return them too (its later parts are read later).
	std::vector<uint32_t> later[NSRC][WS];
};

struct Bench {
	H &h;
	std::vector<Row> mem;
	std::vector<uint32_t> known;
	std::vector<unsigned> base, nregs;
	std::deque<Expect> pending;
	uint64_t row_writes = 0, rows_read = 0, wr_refused = 0;
	int walk_left = 0; // cycles the port stays busy after a row write's accept

	explicit Bench(H &hh) : h(hh), mem(WROWS), known(WROWS, 0), base(NW, 0), nregs(NW, 0) {}

	// Inputs of one cycle.
	struct In {
		bool tbl = false, tbl_clear = true;
		unsigned tbl_warp = 0, tbl_base = 0, tbl_nregs = 0;
		bool req = false;
		unsigned req_warp = 0, src[NSRC] = { RZ, RZ, RZ }, tag = 0;
		bool wr = false;
		unsigned wr_warp = 0, wr_reg = 0;
		uint32_t wr_mask = 0;
		Row wr_data{};
		bool rsp_ready = true;
	};

	void drive(const In &in)
	{
		auto *t = h.top;
		t->tbl_valid_i = in.tbl;
		t->tbl_warp_i = in.tbl_warp;
		t->tbl_base_i = in.tbl_base;
		t->tbl_nregs_i = in.tbl_nregs;
		t->tbl_clear_i = in.tbl_clear;
		t->req_valid_i = in.req;
		t->req_warp_i = in.req_warp;
		t->req_src_i = in.src[0] | in.src[1] << 6 | in.src[2] << 12;
		t->req_tag_i = in.tag & 0xff;
		t->wr_valid_i = in.wr;
		t->wr_warp_i = in.wr_warp;
		t->wr_reg_i = in.wr_reg;
		t->wr_mask_i = in.wr_mask;
		for (unsigned l = 0; l < WS; l++)
			t->wr_data_i[l] = in.wr_data[l];
		t->rsp_ready_i = in.rsp_ready;
	}

	// One cycle. Returns what fired.
	struct Fired {
		bool tbl, req, wr, rsp;
	};
	Fired cycle(const In &in)
	{
		auto *t = h.top;
		drive(in);
		h.eval();
		Fired f{ in.tbl && t->tbl_ready_o, in.req && t->req_ready_o, in.wr && t->wr_ready_o,
		         t->rsp_valid_o && in.rsp_ready };
		bool walking = walk_left > 0;
		CHECK(h, t->wr_busy_o == walking, "wr_busy %u, the model %s a walk", t->wr_busy_o,
		      walking ? "is in" : "has no");
		if (walking) {
			CHECK(h, !t->wr_ready_o, "write port ready during a walk (%d cycles left)", walk_left);
			CHECK(h, !t->tbl_ready_o, "table ready during a walk");
		} else if (!t->clr_busy_o && !(PARTS > 1 && f.tbl && in.tbl_clear)) {
			CHECK(h, t->wr_ready_o, "write port not ready after its walk");
		} else if (PARTS > 1 && f.tbl && in.tbl_clear) {
			CHECK(h, !t->wr_ready_o, "write port ready in the cycle a clear is accepted");
		}
		wr_refused += in.wr && !t->wr_ready_o;
		if (t->rsp_valid_o) {
			if (CHECK(h, !pending.empty(), "response with no request")) {
				const Expect &e = pending.front();
				CHECK(h, t->rsp_tag_o == e.tag, "tag %u expected %u", t->rsp_tag_o, e.tag);
				unsigned bad = 0, fs = 0, fl = 0;
				uint32_t got0 = 0, exp0 = 0;
				for (unsigned s = 0; s < NSRC; s++)
					for (unsigned l = 0; l < WS; l++) {
						uint32_t got = t->rsp_data_o[s * WS + l];
						bool ok = !(e.known[s] >> l & 1) || got == e.data[s][l];
						for (uint32_t v : e.later[s][l])
							ok = ok || got == v;
						if (!ok && !bad++)
							fs = s, fl = l, got0 = got, exp0 = e.data[s][l];
					}
				CHECK(h, bad == 0,
				      "tag %u (warp %u, rows %u %u %u): %u threads differ, first operand %u thread %u: 0x%08x expected 0x%08x",
				      e.tag, e.warp, e.row[0], e.row[1], e.row[2], bad, fs, fl, got0, exp0);
			}
		}
		// The model: a write accepted in this cycle is seen by a read accepted in it.
		if (walk_left > 0)
			walk_left--;
		if (f.wr && in.wr_reg != RZ) {
			unsigned r = base[in.wr_warp] + in.wr_reg;
			for (unsigned l = 0; l < WS; l++)
				if (in.wr_mask >> l & 1)
					mem[r][l] = in.wr_data[l];
			known[r] |= in.wr_mask;
			for (Expect &e : pending)
				for (unsigned s = 0; s < NSRC; s++)
					if (e.row[s] == r)
						for (unsigned l = 0; l < WS; l++)
							if (in.wr_mask >> l & 1)
								e.later[s][l].push_back(in.wr_data[l]);
			if (getenv("RR_DEBUG"))
				printf("cycle %" PRIu64 ": write warp %u row %u mask %08x data0 %08x\n", h.cycle(), in.wr_warp, r,
				       in.wr_mask, in.wr_data[0]);
			row_writes++;
			walk_left = PARTS - 1;
		}
		if (f.tbl) {
			if (getenv("RR_DEBUG"))
				printf("cycle %" PRIu64 ": launch warp %u rows %u+%u\n", h.cycle(), in.tbl_warp, in.tbl_base, in.tbl_nregs);
			base[in.tbl_warp] = in.tbl_base;
			nregs[in.tbl_warp] = in.tbl_nregs;
			if (in.tbl_clear)
				for (unsigned r = in.tbl_base; r < in.tbl_base + in.tbl_nregs; r++) {
					mem[r].fill(0);
					known[r] = ~0u;
				}
		}
		if (f.req) {
			Expect e{};
			e.tag = in.tag & 0xff;
			e.warp = in.req_warp;
			for (unsigned s = 0; s < NSRC; s++) {
				e.row[s] = in.src[s] == RZ ? ~0u : base[in.req_warp] + in.src[s];
				if (in.src[s] == RZ) {
					e.data[s].fill(0);
					e.known[s] = ~0u;
				} else {
					unsigned r = base[in.req_warp] + in.src[s];
					e.data[s] = mem[r];
					e.known[s] = known[r];
				}
			}
			pending.push_back(e);
		}
		if (f.rsp && !pending.empty()) {
			pending.pop_front();
			rows_read++;
		}
		h.tick();
		return f;
	}

	void idle(unsigned n)
	{
		In in;
		while (n--)
			cycle(in);
	}

	// Launch warp w at rows [b, b + n), cleared; waits for the clear.
	void launch(unsigned w, unsigned b, unsigned n)
	{
		In in;
		in.tbl = true;
		in.tbl_warp = w;
		in.tbl_base = b;
		in.tbl_nregs = n;
		for (unsigned i = 0; i < 200 && !cycle(in).tbl; i++) {
		}
		for (unsigned i = 0; i < 400 && h.top->clr_busy_o; i++)
			idle(1);
		CHECK(h, !h.top->clr_busy_o, "clear of warp %u done", w);
	}

	Row random_row()
	{
		Row r;
		for (auto &v : r)
			v = static_cast<uint32_t>(h.rng());
		return r;
	}

	// Inputs offering a read of warp w's registers a, b, c (RZ for none).
	static In read_req(unsigned w, unsigned a, unsigned b, unsigned c, unsigned tag)
	{
		In in;
		in.req = true;
		in.req_warp = w;
		in.src[0] = a, in.src[1] = b, in.src[2] = c;
		in.tag = tag;
		return in;
	}

	// Inputs offering a row write of random data to warp w's register r.
	In write_req(unsigned w, unsigned r, uint32_t mask)
	{
		In in;
		in.wr = true;
		in.wr_warp = w;
		in.wr_reg = r;
		in.wr_mask = mask;
		in.wr_data = random_row();
		return in;
	}

	// Offer a read until it is accepted.
	void read(unsigned w, unsigned a, unsigned b, unsigned c, unsigned tag)
	{
		In in = read_req(w, a, b, c, tag);
		while (!cycle(in).req) {
		}
	}

	// Cycles from the accept of a read offered to an idle register file to its response.
	uint64_t read_latency(unsigned w, unsigned a, unsigned b, unsigned c, unsigned tag)
	{
		CHECK(h, cycle(read_req(w, a, b, c, tag)).req, "read accepted at once");
		uint64_t acc = h.cycle() - 1;
		for (unsigned i = 0; i < 4 * PARTS + 20; i++) {
			h.eval();
			if (h.top->rsp_valid_o)
				return h.cycle() - acc;
			idle(1);
		}
		return 0;
	}
};

// A lone read's latency; a write and a read of the same register in the same cycle, then
// a read right after the next write: both return the new row; the port's timing.
void test_directed(Bench &b)
{
	H &h = b.h;
	b.launch(0, 0, 8);
	b.launch(1, 8, 8);
	uint64_t lat = b.read_latency(0, 1, 2, 1, 3); // two banks: one pass a part
	CHECK(h, lat == 3 + PARTS, "response %" PRIu64 " cycles after the accept, expected %u", lat, 3 + PARTS);
	// A read of no register: wg_regfile's one beat, plus a cycle to clear the gather register.
	lat = b.read_latency(0, RZ, RZ, RZ, 4);
	CHECK(h, lat == (PARTS > 1 ? 5u : 4u), "all-RZ response %" PRIu64 " cycles after the accept", lat);

	Bench::In in = b.write_req(0, 3, ~0u);
	in.req = true;
	in.req_warp = 0;
	in.src[0] = 3, in.src[1] = 3, in.src[2] = RZ;
	in.tag = 5;
	auto f = b.cycle(in);
	CHECK(h, f.wr && f.req, "write and read accepted together");
	// The next row write waits PARTS - 1 cycles; a read of its row in the cycle after.
	Bench::In in2 = b.write_req(1, 2, 0x0f0f0f0fu);
	unsigned waited = 0;
	while (!b.cycle(in2).wr && waited < 100)
		waited++;
	CHECK(h, waited == PARTS - 1, "second row write waited %u cycles, expected %u", waited, PARTS - 1);
	b.read(1, 2, RZ, 2, 9);
	b.idle(3 * PARTS + 10);
	CHECK(h, b.pending.empty(), "%zu responses missing", b.pending.size());
	CHECK(h, b.rows_read == 4, "%" PRIu64 " rows read, expected 4", b.rows_read);
	// A write to RZ takes the port for its accept only.
	CHECK(h, b.cycle(b.write_req(0, RZ, ~0u)).wr, "write to RZ accepted");
	h.eval();
	CHECK(h, h.top->wr_ready_o && !h.top->wr_busy_o, "no walk after a write to RZ");
	b.idle(2);
}

// Every port at once with random backpressure; launches only while nothing is in flight.
void test_random(Bench &b, unsigned cycles)
{
	H &h = b.h;
	std::vector<bool> live(NW, false);
	unsigned nextbase = 0;
	for (unsigned w = 0; w < NW; w++) {
		unsigned n = 4 + h.rand(12);
		if (nextbase + n > WROWS)
			break;
		b.launch(w, nextbase, n);
		live[w] = true;
		nextbase += n;
	}
	unsigned p_req = 60, p_wr = 40, p_rdy = 80;
	Bench::In in;
	uint64_t cnt_wr0 = h.top->cnt_wr_o, writes0 = b.row_writes;
	for (unsigned c = 0; c < cycles; c++) {
		if (c % 500 == 0) {
			p_req = 20 + h.rand(80);
			p_wr = 10 + h.rand(90);
			p_rdy = h.chance(20) ? 100 : 20 + h.rand(80);
		}
		std::vector<unsigned> ws;
		for (unsigned w = 0; w < NW; w++)
			if (live[w])
				ws.push_back(w);
		if (!in.req && h.chance(p_req)) {
			unsigned w = ws[h.rand(ws.size())];
			in.req = true;
			in.req_warp = w;
			bool allz = h.chance(5); // reads no register: one beat in wg_regfile
			for (unsigned s = 0; s < NSRC; s++)
				in.src[s] = (allz || h.chance(15)) ? RZ : h.rand(b.nregs[w]);
			in.tag = h.rand(256);
		}
		if (!in.wr && h.chance(p_wr)) {
			unsigned w = ws[h.rand(ws.size())];
			in.wr = true;
			in.wr_warp = w;
			in.wr_reg = h.chance(3) ? RZ : h.rand(b.nregs[w]);
			in.wr_mask = h.chance(50) ? ~0u : static_cast<uint32_t>(h.rng());
			in.wr_data = b.random_row();
		}
		in.rsp_ready = h.chance(p_rdy);
		auto f = b.cycle(in);
		if (f.req)
			in.req = false;
		if (f.wr)
			in.wr = false;
	}
	in.req = in.wr = false;
	in.rsp_ready = true;
	for (unsigned i = 0; i < 200 && !b.pending.empty(); i++)
		b.cycle(in);
	b.idle(PARTS + 4);
	CHECK(h, b.pending.empty(), "%zu responses missing", b.pending.size());
	CHECK(h, h.top->idle_o, "idle at the end");
	CHECK(h, b.rows_read > cycles / (4 * PARTS + 8), "%" PRIu64 " rows read in %u cycles", b.rows_read, cycles);
	CHECK(h, PARTS == 1 || b.wr_refused > 0, "no row write ever waited for a walk");
	uint64_t beats = static_cast<uint32_t>(h.top->cnt_wr_o - cnt_wr0);
	CHECK(h, beats == (b.row_writes - writes0) * PARTS, "register file counted %" PRIu64 " writes for %" PRIu64
	      " row writes of %u parts", beats, b.row_writes - writes0, PARTS);
}

// A launch requested during a walk waits for it.
void test_launch_after_walk(Bench &b)
{
	H &h = b.h;
	CHECK(h, b.cycle(b.write_req(0, 1, ~0u)).wr, "row write accepted");
	unsigned waited = 0;
	Bench::In t;
	t.tbl = true;
	t.tbl_warp = NW - 1;
	t.tbl_base = WROWS - 4;
	t.tbl_nregs = 4;
	while (!b.cycle(t).tbl && waited < 100)
		waited++;
	CHECK(h, waited == PARTS - 1, "launch waited %u cycles, expected %u", waited, PARTS - 1);
	for (unsigned i = 0; i < 100 && h.top->clr_busy_o; i++)
		b.idle(1);
	b.read(NW - 1, 0, 3, 1, 77);
	b.idle(3 * PARTS + 10);
	CHECK(h, b.pending.empty(), "%zu responses missing", b.pending.size());

	// A launch and a row write offered in the same cycle: the launch goes, the write waits
	// for the clear (a walk must not run into it), then reads of both warps see both.
	Bench::In both = b.write_req(0, 2, ~0u);
	both.tbl = true;
	both.tbl_warp = NW - 1;
	both.tbl_base = WROWS - 8;
	both.tbl_nregs = 8;
	auto f = b.cycle(both);
	CHECK(h, f.tbl && (PARTS == 1 || !f.wr), "launch %d, row write %d in the same cycle", f.tbl, f.wr);
	both.tbl = false;
	for (unsigned i = 0; i < 100 && !f.wr; i++)
		f = b.cycle(both);
	CHECK(h, f.wr, "row write accepted after the clear");
	b.read(0, 2, 1, RZ, 0);
	b.read(NW - 1, 7, 1, RZ, 0);
	b.idle(3 * PARTS + 10);
	CHECK(h, b.pending.empty(), "%zu responses missing", b.pending.size());
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_rf_rows", 2000000);
	Bench b(h);
	b.drive(Bench::In());
	h.reset();
	printf("%s: %u warps, %u registers, %u banks, %u lanes per row (%u parts), %s banks\n", h.name(), NW,
	       RR_NUM_REGS, RR_NUM_BANKS, LANES, PARTS, RR_WR_BLOCKS_RD ? "single-ported" : "dual-ported");
	test_directed(b);
	test_random(b, h.scaled(30000));
	test_launch_after_walk(b);
	return h.finish();
}
