// test_l1: wg_l1 (through tests/rtl/tb_l1.sv: the L1 with a behavioural row array)
// against a reference memory (docs/memory-pipeline.md sections 3 and 4.4). Built by
// sim/l1.mk at the default geometry (64 sets, 6 ways, 8 MSHRs) and at a small one
// (8 sets, 2 ways, 2 MSHRs); the geometry comes in as L1_* macros.
//
// The test serves the memory port from a C++ memory: requests are applied when the
// port accepts them (reads see every write accepted before), responses come back
// after a random latency in random order, mreq_ready_i is randomly low. Every LSU
// request is checked against a reference memory updated in request-acceptance order:
// the L1 must be invisible (a read returns the latest data, whether from the L1 or
// memory). Dirty local data must reach memory by eviction or flush: after a flush the
// C++ memory equals the reference. Every request is answered exactly once; port tags
// are unique among outstanding requests; uncached requests reach the port unchanged.
// Directed: hit after miss, LRU eviction with a dirty write-back, MSHR merge, full-line
// store miss without a fetch, partial store miss with fetch and merge, a global store
// and an atomic invalidating lines, uncached accesses to dirty lines, 2-way vs 6-way,
// flush (counts of hits, misses, merges, write-backs and fills asserted).
// Random: mixed traffic over a few sets (evictions, merges, MSHRs full) with flushes
// and geometry changes. --scale=N lengthens it.
#include "Vtb_l1.h"
#include "harness.h"

#include <array>
#include <ctime>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

#ifndef L1_DMEM
#define L1_DMEM 65536
#endif
#ifndef L1_SETS
#define L1_SETS 64
#endif
#ifndef L1_WAYS
#define L1_WAYS 6
#endif
#ifndef L1_MSHRS
#define L1_MSHRS 8
#endif

static const unsigned ROWS = L1_DMEM / 128;
static const unsigned NTAGS = 64;   // TAG_W = 6
static const unsigned MEMTAG_LOW = 6; // MEM_TAG_W = 8: class in bits 7:6

typedef std::array<uint8_t, 128> Line;

enum { RD = 0, WR = 1, AT = 2 };

struct Req {
	uint64_t id = 0;
	int cmd = RD;
	uint32_t addr = 0;
	int size = 7;
	uint8_t wmask[128] = {};
	uint8_t wdata[128] = {};
	bool cache = true, local = true;
	int aop = 0;
	uint32_t ab = 0, ac = 0;
	int warp = 0, pc = 0, lane = 0;
	int tag = -1;
};

struct Pending {
	Req r;
	Line exp;
	uint8_t cmp[128];
};

struct MemRsp {
	unsigned tag;
	Line data;
	uint64_t due;
};

static uint32_t atom_apply(int op, uint32_t old, uint32_t b, uint32_t c)
{
	switch (op) {
	case 0: return old + b;
	case 1: return (int32_t)old < (int32_t)b ? old : b;
	case 2: return (int32_t)old > (int32_t)b ? old : b;
	case 3: return b;
	case 4: return old == b ? c : old;
	case 5: return old & b;
	case 6: return old | b;
	case 7: return old ^ b;
	case 8: return old < b ? old : b;
	case 9: return old > b ? old : b;
	case 10: return old >= b ? 0 : old + 1;
	case 11: return (old == 0 || old > b) ? b : old - 1;
	default: return old;
	}
}

struct T {
	wg::Harness<Vtb_l1> &h;
	// Memories: the port's (mem) and the reference (ref); a line not present holds
	// its initial pattern.
	std::unordered_map<uint32_t, Line> mem, ref;
	// LSU side.
	std::deque<Req> offer;
	bool offering = false;
	unsigned gap_pct = 0;           // chance of not offering in a cycle (random phase)
	std::map<int, Pending> out;     // by LSU tag
	std::map<uint64_t, bool> done;  // request id -> answered with rsp_hit_o
	uint64_t next_id = 1;
	// Memory side.
	std::vector<MemRsp> mrsp;
	bool presenting = false;
	MemRsp cur;
	std::map<unsigned, int> mem_out; // outstanding port tags
	unsigned ready_pct = 100, lat_min = 1, lat_max = 1;
	bool hold = false;              // responses held back
	// Counts.
	uint64_t n_hit = 0, n_miss = 0, n_merge = 0, n_wb = 0, n_fill = 0, n_pt = 0, n_wbreq = 0, n_cached = 0;
	uint64_t n_rsp = 0, n_hit_rsp = 0;
	// Classes: cached writes and cached local requests, as accepted and as counted by the L1.
	uint64_t n_cached_wr = 0, n_cached_local = 0, n_evt_wr = 0, n_evt_local = 0;
	// Configuration.
	unsigned ways = 2, smem_rows = 0;
	bool fermi = true;

	static Line pattern(uint32_t line)
	{
		Line l;
		for (unsigned i = 0; i < 128; i++) {
			uint32_t x = (line * 128 + i) * 2654435761u;
			l[i] = (uint8_t)(x >> 24);
		}
		return l;
	}
	static Line &get(std::unordered_map<uint32_t, Line> &m, uint32_t line)
	{
		auto it = m.find(line);
		if (it == m.end())
			it = m.emplace(line, pattern(line)).first;
		return it->second;
	}

	template <size_t N>
	static void set_wide(VlWide<N> &w, const uint8_t *b, unsigned nbytes)
	{
		for (unsigned i = 0; i < N; i++)
			w[i] = 0;
		for (unsigned i = 0; i < nbytes; i++)
			w[i / 4] |= (uint32_t)b[i] << (8 * (i % 4));
	}
	template <size_t N>
	static void get_wide(const VlWide<N> &w, uint8_t *b, unsigned nbytes)
	{
		for (unsigned i = 0; i < nbytes; i++)
			b[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
	}
	template <size_t N>
	static void set_bits(VlWide<N> &w, const uint8_t *bits, unsigned n)
	{
		for (unsigned i = 0; i < N; i++)
			w[i] = 0;
		for (unsigned i = 0; i < n; i++)
			if (bits[i])
				w[i / 32] |= 1u << (i % 32);
	}
	template <size_t N>
	static void get_bits(const VlWide<N> &w, uint8_t *bits, unsigned n)
	{
		for (unsigned i = 0; i < n; i++)
			bits[i] = (w[i / 32] >> (i % 32)) & 1;
	}

	void configure(unsigned nways)
	{
		ways = nways;
		smem_rows = ROWS - nways * L1_SETS;
		h.top->ways_i = ways;
		h.top->smem_rows_i = smem_rows;
	}

	int free_tag()
	{
		unsigned start = (unsigned)h.rand(NTAGS);
		for (unsigned i = 0; i < NTAGS; i++) {
			unsigned t = (start + i) % NTAGS;
			if (!out.count((int)t))
				return (int)t;
		}
		return -1;
	}

	// At the acceptance of a request: its expected answer, and its effect on the reference.
	void accept(const Req &r)
	{
		Pending p;
		p.r = r;
		memset(p.cmp, 0, sizeof(p.cmp));
		uint32_t line = r.addr >> 7, off = r.addr & 127;
		Line &l = get(ref, line);
		p.exp = l;
		if (r.cmd == RD) {
			unsigned n = r.cache ? 128 : (1u << r.size);
			unsigned o = r.cache ? 0 : off;
			for (unsigned i = 0; i < n; i++)
				p.cmp[o + i] = 1;
		} else if (r.cmd == WR) {
			for (unsigned i = 0; i < 128; i++)
				if (r.wmask[i])
					l[i] = r.wdata[i];
		} else {
			uint32_t old;
			memcpy(&old, &l[off & ~3u], 4);
			uint32_t nw = atom_apply(r.aop, old, r.ab, r.ac);
			memcpy(&l[off & ~3u], &nw, 4);
			for (unsigned i = 0; i < 4; i++)
				p.cmp[(off & ~3u) + i] = 1;
		}
		if (r.cache && r.cmd != AT) {
			n_cached++;
			n_cached_wr += r.cmd == WR;
			n_cached_local += r.local;
		}
		out[r.tag] = p;
	}

	// Memory side: a request accepted by the port.
	void mem_request(const Req &q, unsigned tag, bool wb)
	{
		unsigned cls = tag >> MEMTAG_LOW, low = tag & ((1u << MEMTAG_LOW) - 1);
		CHECK(h, !mem_out.count(tag), "port tag %u reused while outstanding", tag);
		CHECK(h, (q.addr & ((1u << q.size) - 1)) == 0, "port address %08x not aligned to size %d", q.addr, q.size);
		mem_out[tag] = 1;
		uint32_t line = q.addr >> 7, off = q.addr & 127;
		Line &l = get(mem, line);
		MemRsp r;
		r.tag = tag;
		r.data = l;
		if (cls == 0) {
			n_fill++;
			CHECK(h, q.cmd == RD && q.size == 7 && !wb, "fill: read of a line (cmd %d size %d)", q.cmd, q.size);
		} else if (cls == 1) {
			n_wbreq++;
			bool all = true;
			for (unsigned i = 0; i < 128; i++)
				all = all && q.wmask[i];
			CHECK(h, wb && q.cmd == WR && q.size == 7 && all, "write-back: full-line write with mreq_wb_o");
			CHECK(h, q.warp == 0 && q.pc == 0 && q.lane == 0, "write-back: debug fields 0");
		} else if (cls == 2) {
			n_pt++;
			auto it = out.find((int)low);
			if (CHECK(h, it != out.end(), "uncached request with LSU tag %u not outstanding", low)) {
				const Req &o = it->second.r;
				CHECK(h, !wb && q.cmd == o.cmd && q.addr == o.addr && q.size == o.size && q.local == o.local &&
				             q.warp == o.warp && q.pc == o.pc && q.lane == o.lane,
				      "uncached request passed unchanged (tag %u: cmd %d/%d addr %08x/%08x size %d/%d)", low, q.cmd,
				      o.cmd, q.addr, o.addr, q.size, o.size);
				if (o.cmd == WR) {
					bool same = true;
					for (unsigned i = 0; i < 128; i++)
						same = same && q.wmask[i] == o.wmask[i] && (!o.wmask[i] || q.wdata[i] == o.wdata[i]);
					CHECK(h, same, "uncached store: mask and data passed unchanged");
				}
				if (o.cmd == AT)
					CHECK(h, q.aop == o.aop && q.ab == o.ab && q.ac == o.ac, "atomic operands passed unchanged");
			}
		} else {
			CHECK(h, false, "port tag %u of an unknown class", tag);
		}
		if (q.cmd == WR) {
			for (unsigned i = 0; i < 128; i++)
				if (q.wmask[i])
					l[i] = q.wdata[i];
			for (auto &b : r.data)
				b = (uint8_t)h.rand(256); // a write's response carries no data
		} else if (q.cmd == AT) {
			CHECK(h, q.size == 2, "atomic of a word");
			uint32_t old;
			memcpy(&old, &l[off & ~3u], 4);
			uint32_t nw = atom_apply(q.aop, old, q.ab, q.ac);
			memcpy(&l[off & ~3u], &nw, 4);
		}
		r.due = h.cycle() + lat_min + h.rand(lat_max - lat_min + 1);
		mrsp.push_back(r);
	}

	// One clock cycle.
	void step()
	{
		auto *t = h.top;
		// LSU request.
		if (!offering && !offer.empty() && !h.chance(gap_pct)) {
			Req &r = offer.front();
			if (r.tag < 0)
				r.tag = free_tag();
			if (r.tag >= 0)
				offering = true;
		}
		t->req_valid_i = offering;
		if (offering) {
			const Req &r = offer.front();
			t->req_tag_i = r.tag;
			t->req_cmd_i = r.cmd;
			t->req_addr_i = r.addr;
			t->req_size_i = r.size;
			set_bits(t->req_wmask_i, r.wmask, 128);
			set_wide(t->req_wdata_i, r.wdata, 128);
			t->req_cache_i = r.cache;
			t->req_local_i = r.local;
			t->req_aop_i = r.aop;
			t->req_ab_i = r.ab;
			t->req_ac_i = r.ac;
			t->req_warp_i = r.warp;
			t->req_pc_i = r.pc;
			t->req_lane_i = r.lane;
		}
		// Memory response: a random due one, held until taken.
		if (!presenting && !hold && !mrsp.empty()) {
			std::vector<size_t> due;
			for (size_t i = 0; i < mrsp.size(); i++)
				if (mrsp[i].due <= h.cycle())
					due.push_back(i);
			if (!due.empty()) {
				size_t k = due[h.rand(due.size())];
				cur = mrsp[k];
				mrsp.erase(mrsp.begin() + (long)k);
				presenting = true;
			}
		}
		t->mrsp_valid_i = presenting;
		if (presenting) {
			t->mrsp_tag_i = cur.tag;
			set_wide(t->mrsp_rdata_i, cur.data.data(), 128);
		}
		t->mreq_ready_i = h.chance(ready_pct);
		h.eval();

		// Sample.
		bool req_fire = t->req_valid_i && t->req_ready_o;
		bool mreq_fire = t->mreq_valid_o && t->mreq_ready_i;
		bool mrsp_fire = t->mrsp_valid_i && t->mrsp_ready_o;
		Req q;
		unsigned qtag = 0;
		bool qwb = false;
		if (mreq_fire) {
			qtag = t->mreq_tag_o;
			qwb = t->mreq_wb_o;
			q.cmd = t->mreq_cmd_o;
			q.addr = t->mreq_addr_o;
			q.size = t->mreq_size_o;
			get_bits(t->mreq_wmask_o, q.wmask, 128);
			get_wide(t->mreq_wdata_o, q.wdata, 128);
			q.aop = t->mreq_atom_op_o;
			q.ab = t->mreq_atom_b_o;
			q.ac = t->mreq_atom_c_o;
			q.local = t->mreq_local_o;
			q.warp = t->mreq_warp_o;
			q.pc = t->mreq_pc_o;
			q.lane = t->mreq_lane_o;
		}
		if (t->rsp_valid_o) {
			n_rsp++;
			n_hit_rsp += t->rsp_hit_o;
			int tag = t->rsp_tag_o;
			auto it = out.find(tag);
			if (CHECK(h, it != out.end(), "response for tag %d not outstanding", tag)) {
				Pending &p = it->second;
				uint8_t got[128];
				get_wide(t->rsp_data_o, got, 128);
				int bad = -1;
				for (unsigned i = 0; i < 128; i++)
					if (p.cmp[i] && got[i] != p.exp[i]) {
						bad = i;
						break;
					}
				CHECK(h, bad < 0, "response data of request %llu (cmd %d cache %d addr %08x size %d): byte %d is %02x, expected %02x",
				      (unsigned long long)p.r.id, p.r.cmd, p.r.cache, p.r.addr, p.r.size, bad,
				      bad >= 0 ? got[bad] : 0, bad >= 0 ? p.exp[bad] : 0);
				CHECK(h, !t->rsp_hit_o || (p.r.cache && p.r.cmd != AT), "rsp_hit_o only for cached requests");
				done[p.r.id] = t->rsp_hit_o;
				out.erase(it);
			}
		}
		n_hit += t->hit_o;
		n_miss += t->miss_o;
		n_merge += t->merge_o;
		n_wb += t->wb_o;
		if (t->hit_o || t->miss_o) {
			n_evt_wr += t->cnt_write_o;
			n_evt_local += t->cnt_local_o;
		}
		CHECK(h, !(t->merge_o && !t->miss_o), "a merge is a miss");
		CHECK(h, !(t->hit_o && t->miss_o), "hit and miss in one cycle");
		h.tick();

		// Apply.
		if (req_fire) {
			accept(offer.front());
			offer.pop_front();
			offering = false;
		}
		if (mrsp_fire) {
			mem_out.erase(cur.tag);
			presenting = false;
		}
		if (mreq_fire)
			mem_request(q, qtag, qwb);
	}

	bool quiet() { return offer.empty() && out.empty() && mrsp.empty() && !presenting; }

	// Run until every request is answered and the L1 is idle.
	bool drain(uint64_t max = 200000)
	{
		bool saved = hold;
		hold = false;
		for (uint64_t i = 0; i < max; i++) {
			h.eval();
			if (quiet() && !h.top->busy_o) {
				hold = saved;
				return true;
			}
			step();
		}
		hold = saved;
		return false;
	}
	void steps(unsigned n)
	{
		while (n--)
			step();
	}

	uint64_t push(Req r)
	{
		r.id = next_id++;
		offer.push_back(r);
		return r.id;
	}
	// Run until request id is answered.
	bool wait(uint64_t id, uint64_t max = 100000)
	{
		for (uint64_t i = 0; i < max && !done.count(id); i++)
			step();
		return done.count(id) != 0;
	}

	void flush()
	{
		h.top->flush_i = 1;
		step();
		h.top->flush_i = 0;
		CHECK(h, drain(), "flush finishes");
	}

	// Memory equals the reference on every line either has seen.
	void compare_memory(const char *when)
	{
		unsigned bad = 0;
		for (auto &kv : ref) {
			Line &m = get(mem, kv.first);
			if (m != kv.second && bad++ < 3)
				CHECK(h, false, "%s: memory line %08x differs from the reference", when, kv.first << 7);
		}
		for (auto &kv : mem) {
			Line &r = get(ref, kv.first);
			if (r != kv.second && bad++ < 3)
				CHECK(h, false, "%s: memory line %08x differs from the reference", when, kv.first << 7);
		}
		CHECK(h, bad == 0, "%s: memory equals the reference (%u lines differ)", when, bad);
	}

	// Request builders.
	static uint32_t laddr(unsigned set, unsigned tag, uint32_t base = 0x00100000)
	{
		return base + ((tag * L1_SETS) + set) * 128;
	}
	Req cread(uint32_t addr, bool local = true)
	{
		Req r;
		r.cmd = RD;
		r.addr = addr & ~127u;
		r.size = 7;
		r.cache = true;
		r.local = local;
		r.warp = (int)h.rand(48);
		r.pc = (int)h.rand(1 << 18);
		r.lane = (int)h.rand(32);
		return r;
	}
	Req cwrite(uint32_t addr, bool full)
	{
		Req r = cread(addr, true);
		r.cmd = WR;
		for (unsigned i = 0; i < 128; i++) {
			r.wdata[i] = (uint8_t)h.rand(256);
			r.wmask[i] = full ? 1 : 0;
		}
		if (!full) {
			unsigned pat = (unsigned)h.rand(3);
			for (unsigned i = 0; i < 128; i++) {
				if (pat == 0)
					r.wmask[i] = h.chance(30);
				else if (pat == 1)
					r.wmask[i] = (i / 4) % 3 == 0; // every third word
				else
					r.wmask[i] = i >= 32 && i < 96; // two segments
			}
		}
		return r;
	}
	Req uread(uint32_t addr, int size)
	{
		Req r = cread(addr, false);
		r.cache = false;
		r.size = size;
		r.addr = addr & ~((1u << size) - 1);
		return r;
	}
	Req gstore(uint32_t addr, int size)
	{
		Req r = uread(addr, size);
		r.cmd = WR;
		uint32_t off = r.addr & 127;
		for (unsigned i = 0; i < 128; i++) {
			r.wdata[i] = (uint8_t)h.rand(256);
			r.wmask[i] = i >= off && i < off + (1u << size) && (size < 5 || h.chance(70));
		}
		return r;
	}
	Req atomic(uint32_t addr, int op)
	{
		Req r = uread(addr, 2);
		r.cmd = AT;
		r.aop = op;
		r.ab = (uint32_t)h.rand(1u << 31);
		r.ac = (uint32_t)h.rand(1u << 31);
		return r;
	}
};

struct Counts {
	uint64_t hit, miss, merge, wb, fill, pt;
};

int main(int argc, char **argv)
{
	wg::Harness<Vtb_l1> h(argc, argv, "test_l1", 20000000);
	T t{h};
	printf("test_l1: DMEM %u, %u sets, %u ways, %u MSHRs\n", L1_DMEM, L1_SETS, L1_WAYS, L1_MSHRS);
	h.top->mode_i = 1;
	h.top->flush_i = 0;
	h.top->req_valid_i = 0;
	h.top->mrsp_valid_i = 0;
	h.top->mreq_ready_i = 1;
	t.configure(2);
	h.reset();
	CHECK(h, t.drain(1000), "reset walk ends");
	t.lat_min = 5;
	t.lat_max = 5;

	auto snap = [&]() { return Counts{t.n_hit, t.n_miss, t.n_merge, t.n_wbreq, t.n_fill, t.n_pt}; };
	auto delta = [&](const Counts &a, uint64_t hit, uint64_t miss, uint64_t merge, uint64_t wb, uint64_t fill,
	                 const char *what) {
		Counts b = snap();
		CHECK(h, b.hit - a.hit == hit && b.miss - a.miss == miss && b.merge - a.merge == merge && b.wb - a.wb == wb &&
		             b.fill - a.fill == fill,
		      "%s: hit %llu miss %llu merge %llu wb %llu fill %llu (expected %llu %llu %llu %llu %llu)", what,
		      (unsigned long long)(b.hit - a.hit), (unsigned long long)(b.miss - a.miss),
		      (unsigned long long)(b.merge - a.merge), (unsigned long long)(b.wb - a.wb),
		      (unsigned long long)(b.fill - a.fill), (unsigned long long)hit, (unsigned long long)miss,
		      (unsigned long long)merge, (unsigned long long)wb, (unsigned long long)fill);
	};

	// --- Hit after miss --------------------------------------------------------
	{
		Counts c = snap();
		uint64_t a = t.push(t.cread(T::laddr(1, 0)));
		CHECK(h, t.wait(a) && !t.done[a], "first read misses");
		uint64_t b = t.push(t.cread(T::laddr(1, 0)));
		CHECK(h, t.wait(b) && t.done[b], "second read hits (rsp_hit_o)");
		CHECK(h, t.drain(), "drained");
		delta(c, 1, 1, 0, 0, 1, "hit after miss");
	}

	// --- LRU eviction with a dirty write-back (2 ways) ---------------------------
	{
		uint32_t A = T::laddr(2, 0), B = T::laddr(2, 1), C = T::laddr(2, 2);
		Counts c = snap();
		// (A way being filled is never a victim: each step waits for the previous.)
		t.push(t.cwrite(A, true));   // miss, whole line: no fetch; A dirty
		t.push(t.cread(B));          // miss, fill
		CHECK(h, t.drain(), "drained");
		t.push(t.cread(A));          // hit: A most recent
		t.push(t.cread(C));          // miss: evicts B (clean)
		CHECK(h, t.drain(), "drained");
		delta(c, 1, 3, 0, 0, 2, "A stored, B read, A hit, C evicts B");
		c = snap();
		uint64_t b = t.push(t.cread(B)); // miss: evicts A (dirty): write-back
		CHECK(h, t.drain(), "drained");
		CHECK(h, !t.done[b], "B missed");
		delta(c, 0, 1, 0, 1, 1, "B evicts dirty A");
		CHECK(h, T::get(t.mem, A >> 7) == T::get(t.ref, A >> 7), "A's data reached memory");
		c = snap();
		t.push(t.cread(A));          // refetched: data checked against the reference
		CHECK(h, t.drain(), "drained");
		delta(c, 0, 1, 0, 0, 1, "A read again");
	}

	// --- Ways being filled are never victims: a miss waits while all are pending ---
	{
		Counts c = snap();
		t.hold = true;
		t.push(t.cread(T::laddr(2, 4)));
		t.push(t.cread(T::laddr(2, 5)));
		uint64_t z = t.push(t.cread(T::laddr(2, 6)));
		t.steps(40);
		CHECK(h, t.n_fill - c.fill == 2 && t.n_wbreq == c.wb && !t.done.count(z),
		      "third miss waits for a way (fills %llu)", (unsigned long long)(t.n_fill - c.fill));
		t.hold = false;
		CHECK(h, t.drain(), "drained");
		delta(c, 0, 3, 0, 0, 3, "misses into pending ways");
	}

	// --- MSHR merge: two misses on one line, one fill ---------------------------
	{
		uint32_t D = T::laddr(3, 0);
		Counts c = snap();
		t.hold = true;
		uint64_t a = t.push(t.cread(D)), b = t.push(t.cread(D, false));
		t.steps(30);
		CHECK(h, !t.done.count(a) && !t.done.count(b), "both wait for the fill");
		t.hold = false;
		CHECK(h, t.drain(), "drained");
		CHECK(h, t.done.count(a) && t.done.count(b) && !t.done[a] && !t.done[b], "both answered from the fill");
		delta(c, 0, 2, 1, 0, 1, "merge");
	}

	// --- Hits are not blocked by outstanding misses (non-blocking) ----------------
	{
		uint32_t D = T::laddr(3, 0), E = T::laddr(4, 0);
		t.hold = true;
		uint64_t a = t.push(t.cread(E));
		uint64_t b = t.push(t.cread(D));
		t.steps(20);
		CHECK(h, t.done.count(b) && t.done[b] && !t.done.count(a), "a hit is answered while a miss is outstanding");
		t.hold = false;
		CHECK(h, t.drain(), "drained");
	}

	// --- A stream of hits does not starve other responses ------------------------
	{
		uint32_t D = T::laddr(3, 0);
		uint64_t u = t.push(t.uread(T::laddr(4, 1), 5));
		uint64_t f = t.push(t.cread(T::laddr(4, 2)));
		for (unsigned i = 0; i < 120; i++)
			t.push(t.cread(D));
		while (!t.offer.empty() && !(t.done.count(u) && t.done.count(f)))
			t.step();
		CHECK(h, t.done.count(u) && t.done.count(f) && t.offer.size() > 60,
		      "uncached and fill responses answered during the hit stream (%zu hits left)", t.offer.size());
		CHECK(h, t.drain(), "drained");
	}

	// --- Full-line store miss: no fetch -----------------------------------------
	{
		uint32_t F = T::laddr(5, 0);
		Counts c = snap();
		uint64_t a = t.push(t.cwrite(F, true));
		CHECK(h, t.wait(a) && !t.done[a], "full store miss answered");
		uint64_t b = t.push(t.cread(F));
		CHECK(h, t.drain() && t.done[b], "read hits the stored line");
		delta(c, 1, 1, 0, 0, 0, "full-line store miss");
	}

	// --- Partial store miss: fetch, merge; a read merged behind it ---------------
	{
		uint32_t G = T::laddr(6, 0);
		Counts c = snap();
		t.hold = true;
		uint64_t a = t.push(t.cwrite(G, false));
		uint64_t b = t.push(t.cread(G));
		t.steps(30);
		CHECK(h, !t.done.count(a) && !t.done.count(b), "store and read wait for the fill");
		t.hold = false;
		CHECK(h, t.drain(), "drained");
		delta(c, 0, 2, 1, 0, 1, "partial store miss + merged read");
		c = snap();
		uint64_t d = t.push(t.cread(G));
		CHECK(h, t.drain() && t.done[d], "merged line hits");
		delta(c, 1, 0, 0, 0, 0, "merged line");
		// A second partial store to the now dirty line hits.
		c = snap();
		t.push(t.cwrite(G, false));
		t.push(t.cread(G));
		CHECK(h, t.drain(), "drained");
		delta(c, 2, 0, 0, 0, 0, "store hit, read hit");
	}

	// --- Global store invalidates; atomics too ------------------------------------
	{
		uint32_t H = T::laddr(7, 0, 0x00800000);
		Counts c = snap();
		t.push(t.cread(H, false));   // Fermi: a cached global load
		CHECK(h, t.drain(), "drained");
		t.push(t.cread(H, false));
		CHECK(h, t.drain(), "drained");
		delta(c, 1, 1, 0, 0, 1, "global line cached");
		c = snap();
		t.push(t.gstore(H + 32, 5));
		t.push(t.cread(H, false));
		CHECK(h, t.drain(), "drained");
		delta(c, 0, 1, 0, 0, 1, "global store invalidated the line");
		c = snap();
		t.push(t.atomic(H + 8, 0));
		t.push(t.cread(H, false));
		CHECK(h, t.drain(), "drained");
		delta(c, 0, 1, 0, 0, 1, "atomic invalidated the line");
		// A non-caching read leaves the line cached.
		c = snap();
		t.push(t.uread(H + 64, 5));
		t.push(t.cread(H, false));
		CHECK(h, t.drain(), "drained");
		delta(c, 1, 0, 0, 0, 0, "non-caching read keeps the line");
	}

	// --- Uncached accesses to a dirty line: written back first ---------------------
	{
		uint32_t K = T::laddr(0, 0);
		Counts c = snap();
		t.push(t.cwrite(K, false));
		t.push(t.uread(K + 32, 5));   // write-back, then the read sees the store
		t.push(t.cread(K));           // still valid (clean): hit
		t.push(t.cwrite(K, false));   // dirty again
		t.push(t.atomic(K + 4, 3));   // write-back, invalidate, atomic
		t.push(t.cread(K));           // miss
		CHECK(h, t.drain(), "drained");
		delta(c, 2, 2, 0, 2, 2, "uncached accesses to a dirty line");
		CHECK(h, T::get(t.mem, K >> 7) == T::get(t.ref, K >> 7), "memory holds the line");
	}

	// --- 2-way vs 6-way -------------------------------------------------------------
	if (L1_WAYS >= 6) {
		t.flush();
		t.configure(6);
		Counts c = snap();
		for (unsigned i = 0; i < 6; i++)
			t.push(t.cread(T::laddr(9, i)));
		CHECK(h, t.drain(), "drained");
		for (unsigned i = 0; i < 6; i++)
			t.push(t.cread(T::laddr(9, i)));
		CHECK(h, t.drain(), "drained");
		delta(c, 6, 6, 0, 0, 6, "6 ways: six lines of a set stay");
		t.flush();
		t.configure(2);
		c = snap();
		for (unsigned i = 0; i < 3; i++) {
			t.push(t.cread(T::laddr(9, i)));
			CHECK(h, t.drain(), "drained");
		}
		t.push(t.cread(T::laddr(9, 0)));
		CHECK(h, t.drain(), "drained");
		t.push(t.cread(T::laddr(9, 2)));
		CHECK(h, t.drain(), "drained");
		delta(c, 1, 4, 0, 0, 4, "2 ways: the third line evicts the first");
	}

	// --- Flush -------------------------------------------------------------------------
	{
		t.flush();
		Counts c = snap();
		for (unsigned i = 0; i < 4; i++)
			t.push(t.cwrite(T::laddr(1 + i, 3), i & 1));
		t.push(t.cread(T::laddr(5, 3)));
		CHECK(h, t.drain(), "drained");
		uint64_t fills = t.n_fill - c.fill;
		c = snap();
		t.flush();
		delta(c, 0, 0, 0, 4, 0, "flush writes back the four dirty lines");
		t.compare_memory("after flush");
		c = snap();
		t.push(t.cread(T::laddr(1, 3)));
		t.push(t.cread(T::laddr(5, 3)));
		CHECK(h, t.drain(), "drained");
		delta(c, 0, 2, 0, 0, 2, "all invalid after the flush");
		CHECK(h, fills == 3, "two partial stores and a read fetched (%llu)", (unsigned long long)fills);
	}

	// --- Random traffic ------------------------------------------------------------------
	{
		uint64_t cached0 = t.n_cached, hm0 = t.n_hit + t.n_miss;
		Counts c0 = snap();
		uint64_t cycles = h.scaled(120000);
		uint64_t end = h.cycle() + cycles, next_flush = h.cycle() + 15000;
		t.ready_pct = 70;
		t.lat_min = 1;
		t.lat_max = 60;
		t.gap_pct = 20;
		// Lines: a few sets (evictions in any geometry), two regions (local, global).
		// Phases alternate between many lines per set (evictions) and few (hits).
		const unsigned nsets = 3;
		unsigned phase = 0;
		auto pick = [&]() {
			unsigned ntags = (phase & 2) ? 3 : 9;
			uint32_t base = h.chance(50) ? 0x00200000 : 0x00900000;
			return T::laddr(1 + (unsigned)h.rand(nsets) * 5, (unsigned)h.rand(ntags), base);
		};
		while (h.cycle() < end) {
			while (t.offer.size() < 4) {
				uint32_t a = pick();
				unsigned k = (unsigned)h.rand(100);
				bool fermi = h.top->mode_i;
				if (k < 30) {
					t.push(t.cread(a, fermi ? h.chance(50) : true));
				} else if (k < 55) {
					t.push(t.cwrite(a, h.chance(40)));
				} else if (k < 67) {
					int s = (int)h.rand(8);
					t.push(t.uread(a + (uint32_t)h.rand(128), s));
				} else if (k < 85) {
					int s = h.chance(70) ? 5 + (int)h.rand(3) : (int)h.rand(5);
					t.push(t.gstore(a + (uint32_t)h.rand(128), s));
				} else {
					t.push(t.atomic(a + (uint32_t)h.rand(128), (int)h.rand(12)));
				}
			}
			t.step();
			if (h.cycle() >= next_flush) {
				// Drain, flush, compare, maybe change mode and geometry.
				CHECK(h, t.drain(), "random: drained before a flush");
				t.flush();
				t.compare_memory("random: flush");
				phase++;
				h.top->mode_i = (phase % 3) != 1;
				if (L1_WAYS >= 6)
					t.configure((phase & 1) ? 6 : 2);
				next_flush = h.cycle() + 15000;
			}
		}
		CHECK(h, t.drain(), "random: drained");
		t.flush();
		t.compare_memory("random: end");
		CHECK(h, t.n_hit + t.n_miss - hm0 == t.n_cached - cached0,
		      "every cached request counted once as hit or miss (%llu vs %llu)",
		      (unsigned long long)(t.n_hit + t.n_miss - hm0), (unsigned long long)(t.n_cached - cached0));
		printf("test_l1: random: %llu cached requests, %llu hits, %llu misses, %llu merges, %llu write-backs, "
		       "%llu fills, %llu uncached\n",
		       (unsigned long long)(t.n_cached - cached0), (unsigned long long)(t.n_hit - c0.hit),
		       (unsigned long long)(t.n_miss - c0.miss), (unsigned long long)(t.n_merge - c0.merge),
		       (unsigned long long)(t.n_wbreq - c0.wb), (unsigned long long)(t.n_fill - c0.fill),
		       (unsigned long long)(t.n_pt - c0.pt));
	}
	CHECK(h, t.n_evt_wr == t.n_cached_wr && t.n_evt_local == t.n_cached_local,
	      "hit/miss classes: writes %llu of %llu, local %llu of %llu", (unsigned long long)t.n_evt_wr,
	      (unsigned long long)t.n_cached_wr, (unsigned long long)t.n_evt_local, (unsigned long long)t.n_cached_local);
	CHECK(h, t.n_wb == t.n_wbreq, "wb_o pulses (%llu) equal write-back requests (%llu)", (unsigned long long)t.n_wb,
	      (unsigned long long)t.n_wbreq);
	CHECK(h, t.out.empty(), "every request answered");

	// --- Idle cost (CPU time; the tb's row array included) ---------------------------------
	{
		h.top->req_valid_i = 0;
		h.top->mrsp_valid_i = 0;
		clock_t c0 = clock();
		h.ticks(200000);
		double s = double(clock() - c0) / CLOCKS_PER_SEC;
		printf("test_l1: idle: %.0f ns per cycle (CPU time, with the tb's row array and harness)\n", s / 200000 * 1e9);
	}
	return h.finish();
}
