// test_regfile: wg_regfile against a cycle-level reference model of
// docs/regfile.md, plus directed cases with hand-computed timings.
//
// Built once per parameter set (sim/rtl.mk): RF_NUM_WARPS, RF_NUM_REGS,
// RF_NUM_BANKS, RF_LANES (LANES_PER_ROW), RF_WR_BLOCKS_RD. The model predicts
// every output of every cycle (handshakes, response tag/part/data, busy flags,
// counters); each directed case also checks its own expected cycle counts,
// worked out by hand from the pipeline description, so that the model and
// the RTL cannot share a timing mistake unnoticed. The RAMs start with random
// contents (--x-initial unique), so reads of rows that were never cleared or
// written are compared only where the model knows the value.
#include "Vwg_regfile.h"
#include "harness.h"

#include <algorithm>
#include <array>
#include <vector>

#ifndef RF_NUM_WARPS
#define RF_NUM_WARPS 48
#endif
#ifndef RF_NUM_REGS
#define RF_NUM_REGS 32768
#endif
#ifndef RF_NUM_BANKS
#define RF_NUM_BANKS 16
#endif
#ifndef RF_LANES
#define RF_LANES 32
#endif
#ifndef RF_WR_BLOCKS_RD
#define RF_WR_BLOCKS_RD 1
#endif
#ifndef RF_RANDOM_CYCLES
#define RF_RANDOM_CYCLES 40000
#endif

namespace {

constexpr unsigned NW = RF_NUM_WARPS;
constexpr unsigned WS = 32;
constexpr unsigned NB = RF_NUM_BANKS;
constexpr unsigned LANES = RF_LANES;
constexpr unsigned PARTS = WS / LANES;
constexpr unsigned WROWS = RF_NUM_REGS / WS;
constexpr bool WRB = RF_WR_BLOCKS_RD;
constexpr unsigned RZ = 63;
constexpr unsigned NSRC = 3;
constexpr unsigned TAG_MASK = 0xff;

using H = wg::Harness<Vwg_regfile>;
using Operand = std::array<uint32_t, WS>; // one register of a warp, by thread
const Operand kZero{};

// Verilator port words: wide ports are VlWide, narrower ones plain integers.
template <std::size_t N>
uint32_t word_get(const VlWide<N> &w, unsigned i) { return w[i]; }
inline uint32_t word_get(QData w, unsigned i) { return static_cast<uint32_t>(w >> (32 * i)); }
inline uint32_t word_get(IData w, unsigned i) { return i ? 0 : w; }
template <std::size_t N>
void word_set(VlWide<N> &w, unsigned i, uint32_t v) { w[i] = v; }
inline void word_set(QData &w, unsigned i, uint32_t v)
{
	w = (w & ~(0xffffffffull << (32 * i))) | (static_cast<QData>(v) << (32 * i));
}
inline void word_set(IData &w, unsigned i, uint32_t v) { if (!i) w = v; }

struct Inputs {
	bool tbl_valid = false;
	unsigned tbl_warp = 0, tbl_base = 0, tbl_nregs = 0;
	bool tbl_clear = false;
	bool req_valid = false;
	unsigned req_warp = 0, src[NSRC] = { RZ, RZ, RZ }, tag = 0;
	bool wr_valid = false;
	unsigned wr_warp = 0, wr_reg = 0, wr_part = 0;
	uint32_t wr_mask = 0;
	uint32_t wr_data[LANES] = {};
	bool rsp_ready = true;
};

struct Outputs {
	bool tbl_ready, clr_busy, req_ready, wr_ready, rsp_valid, rsp_last, idle;
	unsigned rsp_tag, rsp_part;
	uint32_t data[NSRC][LANES];
	bool known[NSRC][LANES]; // model only: value is defined
	uint32_t cnt_rd, cnt_wr, cnt_bank, cnt_wconf;
};

// ---------------------------------------------------------------------------
// Reference model: the pipeline of docs/regfile.md, one call of step() per cycle.
// ---------------------------------------------------------------------------
class Model {
public:
	Model() : mem_(WROWS * WS, 0), known_(WROWS * WS, false), base_(NW, 0), nregs_(NW, 0) {}

	static unsigned bank_of(unsigned wrow) { return wrow % NB; }
	static unsigned addr_of(unsigned wrow, unsigned part) { return (wrow / NB) * PARTS + part; }

	// Combinational outputs of this cycle for inputs `in`.
	Outputs comb(const Inputs &in) const
	{
		Outputs o{};
		Derived d = derive(in);
		o.tbl_ready = !clr_run_;
		o.wr_ready = !clr_run_;
		o.clr_busy = clr_run_;
		o.req_ready = d.req_ready;
		o.rsp_valid = rsp_.valid;
		o.rsp_last = rsp_.last;
		o.rsp_tag = rsp_.tag;
		o.rsp_part = rsp_.part;
		for (unsigned s = 0; s < NSRC; s++)
			for (unsigned l = 0; l < LANES; l++) {
				o.data[s][l] = coll_[s][l];
				o.known[s][l] = coll_known_[s][l];
			}
		o.idle = !dec_.valid && !read_.valid && !out_.valid && !rsp_.valid && !wdec_.valid && !wwr_.en &&
		         !clr_run_;
		o.cnt_rd = cnt_rd_;
		o.cnt_wr = cnt_wr_;
		o.cnt_bank = cnt_bank_;
		o.cnt_wconf = cnt_wconf_;
		return o;
	}

	// Advance one clock edge.
	void step(const Inputs &in)
	{
		Derived d = derive(in);
		bool tbl_fire = in.tbl_valid && !clr_run_;
		bool wr_fire = in.wr_valid && !clr_run_;
		bool req_fire = in.req_valid && d.req_ready;

		// RF_READ: the banks are read before this cycle's write lands.
		Pass read_next = read_;
		if (d.read_fire) {
			for (unsigned s = 0; s < NSRC; s++) {
				if (!(read_.take >> s & 1))
					continue;
				for (unsigned l = 0; l < LANES; l++) {
					unsigned i = read_.wrow[s] * WS + read_.part * LANES + l;
					read_next.data[s][l] = mem_[i];
					read_next.known[s][l] = known_[i];
				}
			}
		}
		// RF_OUT: the pass goes into the collector (RZ sources zeroed); a
		// last pass makes the collector a response.
		if (in.rsp_ready)
			rsp_.valid = false;
		if (out_.valid && !d.stall) {
			for (unsigned s = 0; s < NSRC; s++)
				for (unsigned l = 0; l < LANES; l++) {
					if (out_.take >> s & 1) {
						coll_[s][l] = out_.data[s][l];
						coll_known_[s][l] = out_.known[s][l];
					} else if (out_.zero >> s & 1) {
						coll_[s][l] = 0;
						coll_known_[s][l] = true;
					}
				}
			if (out_.last_pass) {
				rsp_.valid = true;
				rsp_.tag = out_.tag;
				rsp_.part = out_.part;
				rsp_.last = out_.last_part;
			}
		}
		if (!d.stall) {
			out_ = read_next;
			out_.valid = d.read_fire;
		}
		// RF_DEC -> RF_READ
		if (d.dec_issue) {
			read_ = d.pass;
			read_.valid = true;
		} else if (d.read_fire) {
			read_.valid = false;
		}
		// RF_BASE -> RF_DEC
		if (req_fire) {
			dec_.valid = true;
			dec_.tag = in.tag & TAG_MASK;
			dec_.part = 0;
			dec_.zero = 0;
			for (unsigned s = 0; s < NSRC; s++) {
				dec_.wrow[s] = (base_[in.req_warp] + in.src[s]) % (1u << wrow_bits());
				if (in.src[s] == RZ)
					dec_.zero |= 1u << s;
			}
			dec_.rem = ~dec_.zero & 7;
		} else if (d.dec_issue) {
			if (d.last_pass) {
				dec_.rem = ~dec_.zero & 7;
				if (d.last_part)
					dec_.valid = false;
				dec_.part = d.last_part ? 0 : dec_.part + 1;
			} else {
				dec_.rem &= ~d.pass.take;
			}
		}

		// WR_WRITE lands at the end of the cycle.
		for (unsigned b = 0; b < NB; b++) {
			if (!(wwr_.en >> b & 1))
				continue;
			unsigned wrow = (wwr_.addr[b] / PARTS) * NB + b, part = wwr_.addr[b] % PARTS;
			for (unsigned l = 0; l < LANES; l++)
				if (wwr_.mask >> l & 1) {
					mem_[wrow * WS + part * LANES + l] = wwr_.data[l];
					known_[wrow * WS + part * LANES + l] = true;
				}
		}
		// WR_DEC -> WR_WRITE (the clear has the slot when WR_DEC is empty).
		bool clr_issue = clr_run_ && !wdec_.valid;
		WWrite wn{};
		if (clr_issue) {
			for (unsigned b = 0; b < NB; b++) {
				unsigned row = clr_cur_ + ((b - clr_cur_) & (NB - 1));
				if (row < clr_end_) {
					wn.en |= 1u << b;
					wn.addr[b] = addr_of(row, clr_part_);
				}
			}
			wn.mask = lane_mask();
		} else if (wdec_.valid) {
			unsigned b = bank_of(wdec_.wrow);
			wn.en = 1u << b;
			wn.addr[b] = addr_of(wdec_.wrow, wdec_.part);
			wn.mask = wdec_.mask;
			std::copy(wdec_.data, wdec_.data + LANES, wn.data);
		}
		wwr_ = wn;
		// WR_BASE -> WR_DEC
		wdec_.valid = wr_fire && in.wr_reg != RZ;
		if (wdec_.valid) {
			wdec_.wrow = (base_[in.wr_warp] + in.wr_reg) % (1u << wrow_bits());
			wdec_.part = in.wr_part;
			wdec_.mask = in.wr_mask & lane_mask();
			std::copy(in.wr_data, in.wr_data + LANES, wdec_.data);
		}
		// Clear walk.
		if (!clr_run_) {
			if (tbl_fire && in.tbl_clear) {
				clr_run_ = true;
				clr_cur_ = in.tbl_base;
				clr_end_ = in.tbl_base + in.tbl_nregs;
				clr_part_ = 0;
			}
		} else if (clr_issue) {
			if (clr_part_ == PARTS - 1) {
				clr_part_ = 0;
				clr_cur_ += NB;
				if (clr_cur_ >= clr_end_)
					clr_run_ = false;
			} else {
				clr_part_++;
			}
		}
		// Thread table.
		if (tbl_fire) {
			base_[in.tbl_warp] = in.tbl_base;
			nregs_[in.tbl_warp] = in.tbl_nregs;
		}
		// Counters.
		cnt_rd_ += req_fire;
		cnt_wr_ += wr_fire && in.wr_reg != RZ;
		cnt_bank_ += d.dec_issue && d.extra;
		cnt_wconf_ += d.wconf_count;
	}

	unsigned base(unsigned w) const { return base_[w]; }
	unsigned nregs(unsigned w) const { return nregs_[w]; }
	bool clearing() const { return clr_run_; }

	// Value of thread t of register r of warp w as the array holds it now.
	bool value(unsigned w, unsigned r, unsigned t, uint32_t *v) const
	{
		unsigned i = ((base_[w] + r) % WROWS) * WS + t;
		*v = mem_[i];
		return known_[i];
	}

	// A warp has something in flight (its table entry must not change).
	bool any_in_flight() const
	{
		return dec_.valid || read_.valid || out_.valid || rsp_.valid || wdec_.valid || wwr_.en || clr_run_;
	}

private:
	struct Pass {
		bool valid = false;
		unsigned ben = 0, baddr[NB] = {}, take = 0, zero = 0, wrow[NSRC] = {}, sbank[NSRC] = {};
		unsigned part = 0, tag = 0;
		bool last_pass = false, last_part = false;
		uint32_t data[NSRC][LANES] = {};
		bool known[NSRC][LANES] = {};
	};
	struct Req {
		bool valid = false;
		unsigned wrow[NSRC] = {}, zero = 0, rem = 0, part = 0, tag = 0;
	};
	struct Rsp {
		bool valid = false, last = false;
		unsigned tag = 0, part = 0;
	};
	struct WDec {
		bool valid = false;
		unsigned wrow = 0, part = 0;
		uint32_t mask = 0, data[LANES] = {};
	};
	struct WWrite {
		unsigned en = 0, addr[NB] = {};
		uint32_t mask = 0, data[LANES] = {};
	};
	struct Derived {
		bool stall, wconf, read_fire, dec_issue, last_pass, last_part, extra, req_ready;
		unsigned wconf_count;
		Pass pass;
	};

	static unsigned wrow_bits()
	{
		unsigned b = 0;
		while ((1u << b) < WROWS)
			b++;
		return b ? b : 1;
	}
	static uint32_t lane_mask() { return LANES >= 32 ? 0xffffffffu : (1u << LANES) - 1; }

	Derived derive(const Inputs &in) const
	{
		Derived d{};
		d.stall = out_.valid && rsp_.valid && !in.rsp_ready;
		d.wconf = false;
		if (read_.valid)
			for (unsigned b = 0; b < NB; b++)
				if ((read_.ben >> b & 1) && (wwr_.en >> b & 1) && (WRB || read_.baddr[b] == wwr_.addr[b]))
					d.wconf = true;
		d.read_fire = read_.valid && !d.stall && !d.wconf;
		d.wconf_count = read_.valid && d.wconf && !d.stall;
		bool read_free = !read_.valid || d.read_fire;
		d.dec_issue = dec_.valid && read_free;
		// The pass RF_DEC would issue: sources in order, skipping a source whose
		// bank already serves a different row in this pass.
		Pass &p = d.pass;
		p.take = 0;
		for (unsigned s = 0; s < NSRC; s++) {
			p.wrow[s] = dec_.wrow[s];
			p.sbank[s] = bank_of(dec_.wrow[s]);
			if (!(dec_.rem >> s & 1))
				continue;
			bool ok = true;
			for (unsigned t = 0; t < s; t++)
				if ((p.take >> t & 1) && p.sbank[t] == p.sbank[s] && dec_.wrow[t] != dec_.wrow[s])
					ok = false;
			if (ok)
				p.take |= 1u << s;
		}
		p.ben = 0;
		for (unsigned s = 0; s < NSRC; s++)
			if (p.take >> s & 1) {
				p.ben |= 1u << p.sbank[s];
				p.baddr[p.sbank[s]] = addr_of(dec_.wrow[s], dec_.part);
			}
		p.zero = dec_.zero;
		p.part = dec_.part;
		p.tag = dec_.tag;
		d.last_pass = (dec_.rem & ~p.take) == 0;
		d.last_part = dec_.part == PARTS - 1 || dec_.zero == 7; // all RZ: one beat
		p.last_pass = d.last_pass;
		p.last_part = d.last_pass && d.last_part;
		d.extra = (~dec_.rem & ~dec_.zero & 7) != 0;
		d.req_ready = !dec_.valid || (d.dec_issue && d.last_pass && d.last_part);
		return d;
	}

	std::vector<uint32_t> mem_;
	std::vector<bool> known_;
	std::vector<unsigned> base_, nregs_;
	Req dec_;
	Pass read_, out_;
	Rsp rsp_;
	uint32_t coll_[NSRC][LANES] = {};
	bool coll_known_[NSRC][LANES] = {};
	WDec wdec_;
	WWrite wwr_;
	bool clr_run_ = false;
	unsigned clr_cur_ = 0, clr_end_ = 0, clr_part_ = 0;
	uint32_t cnt_rd_ = 0, cnt_wr_ = 0, cnt_bank_ = 0, cnt_wconf_ = 0;
};

// ---------------------------------------------------------------------------
// Driving the RTL.
// ---------------------------------------------------------------------------
struct Bench {
	H &h;
	Model m;
	Outputs last{};  // the model's outputs of the last cycle run
	Inputs cur;      // inputs of the next cycle (defaults: idle, rsp_ready)

	explicit Bench(H &hh) : h(hh) {}

	void drive(const Inputs &in)
	{
		auto *t = h.top;
		t->tbl_valid_i = in.tbl_valid;
		t->tbl_warp_i = in.tbl_warp;
		t->tbl_base_i = in.tbl_base;
		t->tbl_nregs_i = in.tbl_nregs;
		t->tbl_clear_i = in.tbl_clear;
		t->req_valid_i = in.req_valid;
		t->req_warp_i = in.req_warp;
		t->req_src_i = in.src[0] | in.src[1] << 6 | in.src[2] << 12;
		t->req_tag_i = in.tag & TAG_MASK;
		t->wr_valid_i = in.wr_valid;
		t->wr_warp_i = in.wr_warp;
		t->wr_reg_i = in.wr_reg;
		t->wr_part_i = in.wr_part;
		t->wr_mask_i = in.wr_mask & (LANES >= 32 ? 0xffffffffu : (1u << LANES) - 1);
		for (unsigned l = 0; l < LANES; l++)
			word_set(t->wr_data_i, l, in.wr_data[l]);
		t->rsp_ready_i = in.rsp_ready;
	}

	// One cycle: drive, compare every output with the model, clock both.
	const Outputs &cycle(const Inputs &in)
	{
		drive(in);
		h.eval();
		const Outputs e = m.comb(in);
		auto *t = h.top;
		CHECK(h, t->tbl_ready_o == e.tbl_ready, "tbl_ready %d expected %d", t->tbl_ready_o, e.tbl_ready);
		CHECK(h, t->clr_busy_o == e.clr_busy, "clr_busy %d expected %d", t->clr_busy_o, e.clr_busy);
		CHECK(h, t->wr_ready_o == e.wr_ready, "wr_ready %d expected %d", t->wr_ready_o, e.wr_ready);
		CHECK(h, t->req_ready_o == e.req_ready, "req_ready %d expected %d", t->req_ready_o, e.req_ready);
		CHECK(h, t->rsp_valid_o == e.rsp_valid, "rsp_valid %d expected %d", t->rsp_valid_o, e.rsp_valid);
		CHECK(h, t->idle_o == e.idle, "idle %d expected %d", t->idle_o, e.idle);
		if (e.rsp_valid && t->rsp_valid_o) {
			CHECK(h, t->rsp_tag_o == e.rsp_tag, "rsp_tag %u expected %u", t->rsp_tag_o, e.rsp_tag);
			CHECK(h, t->rsp_part_o == e.rsp_part, "rsp_part %u expected %u", t->rsp_part_o, e.rsp_part);
			CHECK(h, t->rsp_last_o == e.rsp_last, "rsp_last %u expected %u", t->rsp_last_o, e.rsp_last);
			unsigned bad = 0, first_s = 0, first_l = 0;
			uint32_t got0 = 0, exp0 = 0;
			for (unsigned s = 0; s < NSRC; s++)
				for (unsigned l = 0; l < LANES; l++) {
					uint32_t got = word_get(t->rsp_data_o, s * LANES + l);
					if (e.known[s][l] && got != e.data[s][l] && !bad++) {
						first_s = s, first_l = l, got0 = got, exp0 = e.data[s][l];
					}
				}
			CHECK(h, bad == 0, "tag %u part %u: %u lanes differ, first operand %u lane %u: 0x%08x expected 0x%08x",
			      e.rsp_tag, e.rsp_part, bad, first_s, first_l, got0, exp0);
		}
		CHECK(h, t->cnt_rd_req_o == e.cnt_rd, "cnt_rd_req %u expected %u", t->cnt_rd_req_o, e.cnt_rd);
		CHECK(h, t->cnt_wr_o == e.cnt_wr, "cnt_wr %u expected %u", t->cnt_wr_o, e.cnt_wr);
		CHECK(h, t->cnt_bank_conf_o == e.cnt_bank, "cnt_bank_conf %u expected %u", t->cnt_bank_conf_o,
		      e.cnt_bank);
		CHECK(h, t->cnt_wr_conf_o == e.cnt_wconf, "cnt_wr_conf %u expected %u", t->cnt_wr_conf_o, e.cnt_wconf);
		h.tick();
		m.step(in);
		last = e;
		return last;
	}

	void idle(unsigned n)
	{
		Inputs in;
		while (n--)
			cycle(in);
	}

	// Launch a warp: table write (with clear), wait for the clear. Returns the
	// number of cycles clr_busy_o was high.
	unsigned launch(unsigned warp, unsigned base, unsigned nregs, bool clear = true)
	{
		Inputs in;
		in.tbl_valid = true;
		in.tbl_warp = warp;
		in.tbl_base = base;
		in.tbl_nregs = nregs;
		in.tbl_clear = clear;
		while (!cycle(in).tbl_ready) {
		}
		Inputs none;
		unsigned busy = 0;
		while (cycle(none).clr_busy)
			busy++;
		return busy;
	}

	// Write all parts of register r of warp w (lanes in mask get vals[thread]).
	void write(unsigned w, unsigned r, const uint32_t *vals, uint32_t mask_per_part = 0xffffffffu)
	{
		for (unsigned p = 0; p < PARTS; p++) {
			Inputs in;
			in.wr_valid = true;
			in.wr_warp = w;
			in.wr_reg = r;
			in.wr_part = p;
			in.wr_mask = mask_per_part & (LANES >= 32 ? 0xffffffffu : (1u << LANES) - 1);
			for (unsigned l = 0; l < LANES; l++)
				in.wr_data[l] = vals[p * LANES + l];
			while (!cycle(in).wr_ready) {
			}
		}
	}

	struct ReadResult {
		uint64_t accept = 0;             // cycle of req_fire
		std::vector<uint64_t> beats;     // cycles of each response beat
		std::vector<std::array<uint32_t, WS>> op; // op[s][thread]
	};

	// Read one request, idle otherwise; responses taken at once.
	ReadResult read(unsigned w, unsigned ra, unsigned rb, unsigned rc, unsigned tag = 0x5a)
	{
		ReadResult r;
		r.op.resize(NSRC);
		Inputs in;
		in.req_valid = true;
		in.req_warp = w;
		in.src[0] = ra, in.src[1] = rb, in.src[2] = rc;
		in.tag = tag;
		for (;;) {
			uint64_t c = h.cycle();
			bool fired = cycle(in).req_ready;
			if (fired) {
				r.accept = c;
				break;
			}
		}
		Inputs none;
		const unsigned want = (ra == RZ && rb == RZ && rc == RZ) ? 1 : PARTS; // all RZ: one beat
		for (unsigned guard = 0; r.beats.size() < want && guard < 100; guard++) {
			uint64_t c = h.cycle();
			drive(none);
			h.eval();
			if (h.top->rsp_valid_o) {
				unsigned p = h.top->rsp_part_o;
				for (unsigned s = 0; s < NSRC; s++)
					for (unsigned l = 0; l < LANES; l++)
						r.op[s][p * LANES + l] = word_get(h.top->rsp_data_o, s * LANES + l);
				CHECK(h, h.top->rsp_tag_o == (tag & TAG_MASK), "tag");
				r.beats.push_back(c);
			}
			cycle(none);
		}
		CHECK(h, r.beats.size() == want, "%zu beats, expected %u", r.beats.size(), want);
		return r;
	}

	// Expected operands of (w, r) from the model's array (RZ reads 0).
	std::array<uint32_t, WS> expect(unsigned w, unsigned r)
	{
		std::array<uint32_t, WS> v{};
		if (r != RZ)
			for (unsigned t = 0; t < WS; t++)
				m.value(w, r, t, &v[t]);
		return v;
	}
};

std::array<uint32_t, WS> pattern(uint32_t seed)
{
	std::array<uint32_t, WS> v{};
	for (unsigned t = 0; t < WS; t++)
		v[t] = seed * 0x9e3779b1u + t * 0x01000193u + 1;
	return v;
}

// Cycles a clear of nregs rows takes (docs/regfile.md): windows of NB rows,
// PARTS cycles each, at least one window.
unsigned clear_cycles(unsigned nregs)
{
	unsigned windows = nregs ? (nregs + NB - 1) / NB : 1;
	return windows * PARTS;
}

// ---------------------------------------------------------------------------
// Directed cases.
// ---------------------------------------------------------------------------

// Launch several warps with different bases; the clear takes the documented
// time and every register then reads 0 although the RAMs start random.
void test_launch_clear(Bench &b)
{
	H &h = b.h;
	unsigned per = std::min(63u, WROWS / NW);
	unsigned nwarps = std::min(NW, 4u);
	for (unsigned w = 0; w < nwarps; w++) {
		unsigned n = std::max(1u, per - w);
		unsigned busy = b.launch(w, w * per, n);
		CHECK(h, busy == clear_cycles(n), "warp %u: clear of %u rows took %u cycles, expected %u", w, n, busy,
		      clear_cycles(n));
	}
	for (unsigned w = 0; w < nwarps; w++) {
		unsigned n = std::max(1u, per - w);
		for (unsigned r = 0; r < n; r += 3) {
			auto rr = b.read(w, r, std::min(r + 1, n - 1), std::min(r + 2, n - 1));
			bool zero = true;
			for (unsigned s = 0; s < NSRC; s++)
				for (unsigned t = 0; t < WS; t++)
					zero &= rr.op[s][t] == 0;
			CHECK(h, zero, "warp %u R%u..R%u read 0 after launch", w, r, r + 2);
		}
	}
}

// Latency and throughput without conflicts.
void test_latency(Bench &b)
{
	H &h = b.h;
	b.launch(0, 0, 16);
	auto v = pattern(7);
	b.write(0, 5, v.data());
	b.idle(4);
	auto r = b.read(0, 5, RZ, RZ);
	CHECK(h, r.beats[0] == r.accept + 4, "first beat %" PRIu64 " cycles after acceptance, expected 4",
	      r.beats[0] - r.accept);
	for (unsigned p = 1; p < PARTS; p++)
		CHECK(h, r.beats[p] == r.beats[p - 1] + 1, "beat %u follows the previous one", p);
	CHECK(h, r.op[0] == v && r.op[1] == kZero && r.op[2] == kZero,
	      "R5 read back, RZ reads 0");

	// All sources RZ: one pass, one beat (part 0, last) of zeros, same latency.
	r = b.read(0, RZ, RZ, RZ);
	CHECK(h, r.beats[0] == r.accept + 4, "all-RZ read latency %" PRIu64, r.beats[0] - r.accept);
	CHECK(h, r.op[0] == kZero && r.op[1] == kZero && r.op[2] == kZero, "all-RZ read gives zeros");

	// Back to back: one request per PARTS cycles, one beat per cycle.
	Inputs in;
	in.req_valid = true;
	in.req_warp = 0;
	in.src[0] = 1, in.src[1] = 2, in.src[2] = 3; // three banks (NB >= 4) or conflicts (NB < 4)
	unsigned accepted = 0, beats = 0;
	const unsigned n = 40;
	for (unsigned c = 0; c < n; c++) {
		in.tag = c;
		const Outputs &o = b.cycle(in);
		accepted += o.req_ready;
		beats += o.rsp_valid;
	}
	b.idle(8);
	if (NB >= 4)
		CHECK(h, accepted >= (n - 1) / PARTS && beats >= n - 4, "%u requests, %u beats in %u cycles", accepted,
		      beats, n);
}

// Bank conflicts: sources in one bank but different rows cost one cycle per
// extra row, per part; the same register twice or RZ costs nothing.
void test_bank_conflicts(Bench &b)
{
	H &h = b.h;
	// Warp 0 gets enough rows for three rows in one bank.
	unsigned n = std::min({ 63u, WROWS, std::max(WROWS / NW, 2 * NB + 1) });
	b.launch(0, 0, n);
	for (unsigned r = 0; r < n; r++) {
		auto v = pattern(100 + r);
		b.write(0, r, v.data());
	}
	b.idle(4);
	struct Case {
		unsigned ra, rb, rc, passes;
		const char *what;
	};
	std::vector<Case> cases = {
		{ 0, 1, 2, NB >= 3 ? 1u : (NB == 2 ? 2u : 3u), "three rows in different banks" },
		{ 0, NB, RZ, NB > 1 ? 2u : 2u, "ra, rb one bank apart" },
		{ 1, 1, 1, 1, "one register three times" },
		{ 0, 1, NB, NB > 1 ? 2u : 3u, "ra, rc share a bank" },
		{ 0, NB, 2 * NB, 3, "all three in one bank" },
		{ RZ, NB, RZ, 1, "RZ sources never conflict" },
		{ 2, 2, NB + 2, 2, "a repeated register and a conflicting one" },
	};
	for (const Case &c : cases) {
		if (c.ra != RZ && c.ra >= n)
			continue;
		if ((c.rb != RZ && c.rb >= n) || (c.rc != RZ && c.rc >= n))
			continue;
		uint32_t before = h.top->cnt_bank_conf_o;
		auto r = b.read(0, c.ra, c.rb, c.rc);
		uint64_t last = r.beats.back() - r.accept;
		uint64_t expect = 3 + uint64_t(PARTS) * c.passes;
		CHECK(h, last == expect, "%s: last beat after %" PRIu64 " cycles, expected %" PRIu64, c.what, last, expect);
		b.idle(1);
		CHECK(h, h.top->cnt_bank_conf_o - before == PARTS * (c.passes - 1), "%s: %u conflict cycles counted, expected %u",
		      c.what, h.top->cnt_bank_conf_o - before, PARTS * (c.passes - 1));
		CHECK(h, r.op[0] == b.expect(0, c.ra) && r.op[1] == b.expect(0, c.rb) && r.op[2] == b.expect(0, c.rc),
		      "%s: operands", c.what);
	}
}

// Base add: the same register number of different warps lands in different
// rows; a warp whose base overlaps another's sees the other's registers.
void test_base_add(Bench &b)
{
	H &h = b.h;
	unsigned nw = std::min(NW, 4u);
	unsigned per = std::min(8u, WROWS / nw);
	for (unsigned w = 0; w < nw; w++)
		b.launch(w, (nw - 1 - w) * per, per);
	for (unsigned w = 0; w < nw; w++) {
		auto v = pattern(1000 + w);
		b.write(w, 3, v.data());
	}
	b.idle(4);
	for (unsigned w = 0; w < nw; w++) {
		auto r = b.read(w, 3, RZ, RZ);
		CHECK(h, r.op[0] == pattern(1000 + w), "warp %u R3 is its own", w);
	}
	if (nw >= 2) {
		// Warp nw-1 moves to warp 0's region without a clear: its R3 is warp 0's R3.
		b.launch(nw - 1, (nw - 1) * per, per, false);
		CHECK(h, b.m.base(nw - 1) == (nw - 1) * per, "base updated");
		auto r = b.read(nw - 1, 3, RZ, RZ);
		CHECK(h, r.op[0] == pattern(1000), "aliased row: warp %u R3 is warp 0's", nw - 1);
		// R(per-1) of warp nw-1 is row (nw-1)*per + per - 1, warp 0's R(per-1).
	}
}

// Write/read hazards (docs/regfile.md "Hazards").
void test_hazards(Bench &b)
{
	H &h = b.h;
	b.launch(0, 0, std::min({ 63u, WROWS, std::max(2 * NB + 2, NB + 6) }));
	auto old_v = pattern(50), new_v = pattern(51), other = pattern(52);
	b.write(0, 4, old_v.data());
	b.write(0, 4 + NB, other.data());
	b.idle(4);

	auto write_in = [&](Inputs &in, unsigned reg, const std::array<uint32_t, WS> &v, unsigned part) {
		in.wr_valid = true;
		in.wr_warp = 0;
		in.wr_reg = reg;
		in.wr_part = part;
		in.wr_mask = LANES >= 32 ? 0xffffffffu : (1u << LANES) - 1;
		for (unsigned l = 0; l < LANES; l++)
			in.wr_data[l] = v[part * LANES + l];
	};
	auto read_in = [&](Inputs &in, unsigned ra) {
		in.req_valid = true;
		in.req_warp = 0;
		in.src[0] = ra, in.src[1] = RZ, in.src[2] = RZ;
		in.tag = 0x33;
	};
	// Collect beats of one outstanding read while running `first` then idle cycles.
	auto run = [&](std::vector<Inputs> seq, uint64_t *accept, std::vector<uint64_t> *beats,
	               std::array<uint32_t, WS> *got) {
		seq.resize(seq.size() + PARTS * 4 + 8);
		for (auto &in : seq) {
			uint64_t c = h.cycle();
			b.drive(in);
			h.eval();
			if (h.top->rsp_valid_o) {
				unsigned p = h.top->rsp_part_o;
				for (unsigned l = 0; l < LANES; l++)
					(*got)[p * LANES + l] = word_get(h.top->rsp_data_o, l);
				beats->push_back(c);
			}
			if (in.req_valid && h.top->req_ready_o)
				*accept = c;
			b.cycle(in);
		}
	};

	// 1. Write and read of one register in the same cycle: the read returns the
	//    new value and waits one cycle per part for the bank.
	{
		std::vector<Inputs> seq(PARTS);
		for (unsigned p = 0; p < PARTS; p++)
			write_in(seq[p], 4, new_v, p);
		read_in(seq[0], 4);
		uint64_t acc = 0;
		std::vector<uint64_t> beats;
		std::array<uint32_t, WS> got{};
		uint32_t wc = h.top->cnt_wr_conf_o;
		run(seq, &acc, &beats, &got);
		// Single-ported banks: the read of part 0 waits until the write of the
		// last part is done (the writes use the bank in cycles t+2..t+1+PARTS).
		// Dual-ported: only the write of part 0 (same word) costs a cycle.
		uint64_t expect = WRB ? 4 + PARTS : 5;
		CHECK(h, got == new_v, "same-cycle write then read: new value");
		CHECK(h, beats.size() == PARTS && beats[0] == acc + expect,
		      "same cycle: first beat after %" PRIu64 ", expected %" PRIu64, beats.empty() ? 0 : beats[0] - acc,
		      expect);
		CHECK(h, h.top->cnt_wr_conf_o - wc >= 1, "write conflict counted");
	}
	// 2. Write in cycle t, read in t+1: new value, no extra cycle.
	{
		std::vector<Inputs> seq(PARTS + 1);
		for (unsigned p = 0; p < PARTS; p++)
			write_in(seq[p], 4, old_v, p);
		read_in(seq[1], 4);
		if (PARTS == 1) {
			// nothing else
		}
		uint64_t acc = 0;
		std::vector<uint64_t> beats;
		std::array<uint32_t, WS> got{};
		run(seq, &acc, &beats, &got);
		if (PARTS == 1) {
			CHECK(h, got == old_v, "write at t, read at t+1: new value");
			CHECK(h, beats.size() == 1 && beats[0] == acc + 4, "write at t, read at t+1: latency %" PRIu64,
			      beats.empty() ? 0 : beats[0] - acc);
		} else {
			CHECK(h, got == old_v, "write of all parts from t, read at t+1: new value in every part");
		}
	}
	// 3. Read in cycle t, write of the same register in t+1: the read returns
	//    the old value (it reads the array before the write lands).
	if (PARTS == 1) {
		std::vector<Inputs> seq(2);
		read_in(seq[0], 4);
		write_in(seq[1], 4, new_v, 0);
		uint64_t acc = 0;
		std::vector<uint64_t> beats;
		std::array<uint32_t, WS> got{};
		run(seq, &acc, &beats, &got);
		CHECK(h, got == old_v, "read at t, write at t+1: old value");
		CHECK(h, beats.size() == 1 && beats[0] == acc + 4, "read at t, write at t+1: latency 4");
		auto r = b.read(0, 4, RZ, RZ);
		CHECK(h, r.op[0] == new_v, "then the new value");
	}
	// 4. A write to another row of the read's bank in the read's RF_READ cycle:
	//    one cycle lost with single-ported banks, none with dual-ported ones.
	if (NB > 1 && PARTS == 1) {
		std::vector<Inputs> seq(1);
		write_in(seq[0], 4 + NB, other, 0);
		read_in(seq[0], 4);
		uint64_t acc = 0;
		std::vector<uint64_t> beats;
		std::array<uint32_t, WS> got{};
		uint32_t wc = h.top->cnt_wr_conf_o;
		run(seq, &acc, &beats, &got);
		uint64_t expect = WRB ? 5 : 4;
		CHECK(h, beats.size() == 1 && beats[0] == acc + expect, "same bank, other row: latency %" PRIu64 " expected %" PRIu64,
		      beats.empty() ? 0 : beats[0] - acc, expect);
		CHECK(h, h.top->cnt_wr_conf_o - wc == (WRB ? 1u : 0u), "write conflicts counted: %u",
		      h.top->cnt_wr_conf_o - wc);
	}
	// 5. A write to another bank never delays a read.
	if (NB > 1 && PARTS == 1) {
		std::vector<Inputs> seq(1);
		write_in(seq[0], 5, other, 0);
		read_in(seq[0], 4);
		uint64_t acc = 0;
		std::vector<uint64_t> beats;
		std::array<uint32_t, WS> got{};
		run(seq, &acc, &beats, &got);
		CHECK(h, beats.size() == 1 && beats[0] == acc + 4, "other bank: latency 4");
	}
	// 6. Partial masks keep the other lanes; writes to RZ are dropped.
	{
		auto base_v = b.expect(0, 4);
		auto v = pattern(77);
		uint32_t mask = 0x5555aaaau & (LANES >= 32 ? 0xffffffffu : (1u << LANES) - 1);
		b.write(0, 4, v.data(), mask);
		uint32_t wr_before = h.top->cnt_wr_o;
		b.write(0, RZ, v.data());
		b.idle(1);
		CHECK(h, h.top->cnt_wr_o == wr_before, "writes to RZ are not counted");
		b.idle(3);
		auto r = b.read(0, 4, RZ, RZ);
		bool ok = true;
		for (unsigned t = 0; t < WS; t++) {
			bool on = mask >> (t % LANES) & 1;
			ok &= r.op[0][t] == (on ? v[t] : base_v[t]);
		}
		CHECK(h, ok, "masked write keeps the other lanes");
	}
}

// Backpressure: a held response stays put, nothing is lost or reordered.
void test_backpressure(Bench &b)
{
	H &h = b.h;
	b.launch(0, 0, 8);
	for (unsigned r = 0; r < 8; r++) {
		auto v = pattern(200 + r);
		b.write(0, r, v.data());
	}
	b.idle(4);
	std::vector<unsigned> order;
	Inputs in;
	unsigned sent = 0;
	for (unsigned c = 0; c < 200 && order.size() < 8 * PARTS; c++) {
		in.req_valid = sent < 8;
		in.req_warp = 0;
		in.src[0] = sent % 8, in.src[1] = (sent + 3) % 8, in.src[2] = RZ;
		in.tag = sent;
		in.rsp_ready = (c / 5) % 2 == 1; // ready in bursts of 5 cycles
		const Outputs &o = b.cycle(in);
		if (in.req_valid && o.req_ready)
			sent++;
		if (o.rsp_valid && in.rsp_ready)
			order.push_back(o.rsp_tag);
	}
	bool in_order = order.size() == 8 * PARTS;
	for (unsigned i = 0; in_order && i < order.size(); i++)
		in_order = order[i] == i / PARTS;
	CHECK(h, in_order, "responses of 8 requests in order under backpressure (%zu beats)", order.size());
	b.idle(4);
}

// A clear running while other warps read: their reads continue (and wait for
// the clear's bank writes when banks are single-ported).
void test_clear_during_reads(Bench &b)
{
	H &h = b.h;
	if (NW < 2)
		return;
	unsigned per = std::min(16u, WROWS / 2);
	b.launch(0, 0, per);
	for (unsigned r = 0; r < per; r++) {
		auto v = pattern(300 + r);
		b.write(0, r, v.data());
	}
	b.idle(4);
	Inputs in;
	in.tbl_valid = true;
	in.tbl_warp = 1;
	in.tbl_base = per;
	in.tbl_nregs = per;
	in.tbl_clear = true;
	unsigned got = 0;
	for (unsigned c = 0; c < 60; c++) {
		in.req_valid = true;
		in.req_warp = 0;
		in.src[0] = c % per, in.src[1] = RZ, in.src[2] = RZ;
		in.tag = c;
		const Outputs &o = b.cycle(in);
		if (o.tbl_ready)
			in.tbl_valid = false;
		got += o.rsp_valid;
	}
	in = Inputs();
	b.idle(10);
	CHECK(h, got > 20, "reads of warp 0 went on during the clear of warp 1 (%u beats)", got);
	auto r = b.read(1, per - 1, 0, RZ);
	CHECK(h, r.op[0] == kZero && r.op[1] == kZero,
	      "warp 1 cleared");
}

// ---------------------------------------------------------------------------
// Constrained random: every port at once, warps relaunched with different
// bases, random backpressure; the model checks every cycle.
// ---------------------------------------------------------------------------
void test_random(Bench &b, unsigned cycles)
{
	H &h = b.h;
	unsigned live_w = std::min(NW, 8u);
	std::vector<bool> live(NW, false);
	unsigned p_req = 60, p_wr = 40, p_rdy = 80;
	uint64_t beats = 0;
	Inputs in;
	for (unsigned c = 0; c < cycles; c++) {
		if (c % 1000 == 0) {
			p_req = 20 + h.rand(80);
			p_wr = 10 + h.rand(70);
			p_rdy = h.chance(20) ? 100 : 30 + h.rand(70);
		}
		// Keep a pending request or write until it is accepted (valid/ready rule).
		// A launch waits for an empty pipeline (a warp's table entry only
		// changes while nothing of it is in flight); no new traffic meanwhile.
		if (!in.tbl_valid && h.chance(1)) {
			unsigned w = h.rand(live_w);
			unsigned n = 1 + h.rand(std::min(63u, WROWS / 2));
			in.tbl_valid = true;
			in.tbl_warp = w;
			in.tbl_nregs = n;
			in.tbl_base = h.rand(WROWS - n + 1);
			in.tbl_clear = !h.chance(5);
		}
		if (!in.req_valid && !in.tbl_valid && h.chance(p_req)) {
			std::vector<unsigned> ws;
			for (unsigned w = 0; w < live_w; w++)
				if (live[w] && !(in.tbl_valid && in.tbl_warp == w))
					ws.push_back(w);
			if (!ws.empty()) {
				unsigned w = ws[h.rand(ws.size())];
				unsigned n = b.m.nregs(w);
				in.req_valid = true;
				in.req_warp = w;
				for (unsigned s = 0; s < NSRC; s++)
					in.src[s] = h.chance(15) ? RZ : (h.chance(30) ? in.src[0] % n : h.rand(n));
				in.tag = h.rand(256);
			}
		}
		if (!in.wr_valid && !in.tbl_valid && h.chance(p_wr)) {
			std::vector<unsigned> ws;
			for (unsigned w = 0; w < live_w; w++)
				if (live[w] && !(in.tbl_valid && in.tbl_warp == w))
					ws.push_back(w);
			if (!ws.empty()) {
				unsigned w = ws[h.rand(ws.size())];
				in.wr_valid = true;
				in.wr_warp = w;
				in.wr_reg = h.chance(3) ? RZ : h.rand(b.m.nregs(w));
				in.wr_part = h.rand(PARTS);
				in.wr_mask = static_cast<uint32_t>(h.chance(50) ? ~0u : h.rng());
				for (unsigned l = 0; l < LANES; l++)
					in.wr_data[l] = static_cast<uint32_t>(h.rng());
			}
		}
		in.rsp_ready = h.chance(p_rdy);
		Inputs drive = in;
		if (drive.tbl_valid && (in.req_valid || in.wr_valid || b.m.any_in_flight()))
			drive.tbl_valid = false;
		const Outputs &o = b.cycle(drive);
		if (drive.tbl_valid && o.tbl_ready) {
			live[drive.tbl_warp] = true;
			in.tbl_valid = false;
		}
		if (in.req_valid && o.req_ready)
			in.req_valid = false;
		if (in.wr_valid && o.wr_ready)
			in.wr_valid = false;
		beats += o.rsp_valid && in.rsp_ready;
	}
	b.idle(40);
	CHECK(h, beats > cycles / 20, "%" PRIu64 " response beats in %u cycles", beats, cycles);
	CHECK(h, h.top->idle_o, "idle at the end");
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_regfile", 5000000);
	Bench b(h);
	b.drive(Inputs());
	h.reset();
	printf("%s: %u warps, %u registers, %u banks, %u lanes per row (%u parts), %s banks\n", h.name(), NW,
	       RF_NUM_REGS, NB, LANES, PARTS, WRB ? "single-ported" : "dual-ported");
	test_launch_clear(b);
	test_latency(b);
	test_bank_conflicts(b);
	test_base_add(b);
	test_hazards(b);
	test_backpressure(b);
	test_clear_during_reads(b);
	test_random(b, h.scaled(RF_RANDOM_CYCLES));
	return h.finish();
}
