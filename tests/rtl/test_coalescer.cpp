// test_coalescer: wg_coalescer against docs/memory-pipeline.md sections 1.1 and 4.1.
//   Directed: the seeds' examples (one 128 B line in order and permuted, three
//   non-contiguous store segments, 32 scattered addresses, the six-segment
//   non-caching example, a 64 B store, 8 and 16 B per thread, THREAD kind,
//   partial masks) with their transaction counts, addresses and sizes.
//   Random: accesses of every kind, size and mask, addresses clustered in a few
//   lines or segments, consecutive, equal or random, against a reference model of
//   the rules written here (range containment rather than the RTL's bit
//   comparisons), with random back-pressure and back-to-back accesses.
//   Every transaction is checked (addr, size, lanes, bmask, last), the lanes of an
//   access must partition its mask with each transaction led by the lowest unserved
//   lane, the protocol (first transaction the cycle after acceptance, a beat held
//   until it fires, in_ready_o) every cycle, and with no back-pressure the rate of
//   one transaction per cycle without a bubble between accesses.
// Built twice (sim/coalescer.mk): COAL_LANES 32 is wg_coalescer; COAL_LANES < 32 is
// wg_coalescer_scan with LANES = COAL_LANES (the same transactions; each one offered
// 32 / COAL_LANES scan cycles after the access is accepted or the previous one fired).
#include "Vwg_coalescer.h"

#ifndef COAL_LANES
#define COAL_LANES 32
#endif
// Scan cycles before each transaction.
static const unsigned kScan = COAL_LANES < 32 ? 32 / COAL_LANES : 0;
#include "harness.h"

#include <deque>
#include <vector>

enum { LINE = 0, SEG = 1, STORE = 2, THREAD = 3 };
static const char *kind_name[] = {"LINE", "SEG", "STORE", "THREAD"};

struct Access {
	unsigned kind = LINE, size = 2;
	uint32_t mask = 0xFFFFFFFFu;
	uint32_t addr[32] = {};
};

struct Tx {
	uint32_t addr = 0;
	unsigned size = 0;
	uint32_t lanes = 0;
	uint32_t bm[4] = {};
	bool last = false;
	bool operator==(const Tx &o) const
	{
		return addr == o.addr && size == o.size && lanes == o.lanes && bm[0] == o.bm[0] && bm[1] == o.bm[1] &&
		       bm[2] == o.bm[2] && bm[3] == o.bm[3] && last == o.last;
	}
	bool operator!=(const Tx &o) const { return !(*this == o); }
};

static unsigned lowest(uint32_t m)
{
	return (unsigned)__builtin_ctz(m);
}

// Reference model: the rules of section 1.1, formulated with address ranges.
static std::vector<Tx> reference(const Access &a)
{
	std::vector<Tx> out;
	uint32_t pend = a.mask;
	while (pend) {
		unsigned leader = lowest(pend);
		uint32_t la = a.addr[leader];
		uint32_t line = la & ~127u;
		Tx t;
		if (a.kind == THREAD) {
			t.addr = la;
			t.size = a.size;
			t.lanes = 1u << leader;
		} else {
			bool seg_touched[4] = {false, false, false, false};
			for (unsigned j = 0; j < 32; j++)
				if ((pend >> j & 1) && a.addr[j] >= line && a.addr[j] - line < 128)
					seg_touched[(a.addr[j] - line) / 32] = true;
			if (a.kind == LINE) {
				t.size = 7;
			} else if (a.kind == SEG) {
				t.size = 5;
			} else {
				unsigned half = (la - line) / 64;
				if (seg_touched[0] && seg_touched[1] && seg_touched[2] && seg_touched[3])
					t.size = 7;
				else if (seg_touched[2 * half] && seg_touched[2 * half + 1])
					t.size = 6;
				else
					t.size = 5;
			}
			uint32_t bytes = 1u << t.size;
			t.addr = la / bytes * bytes;
			for (unsigned j = 0; j < 32; j++)
				if ((pend >> j & 1) && a.addr[j] >= t.addr && a.addr[j] - t.addr < bytes)
					t.lanes |= 1u << j;
		}
		for (unsigned j = 0; j < 32; j++) {
			if (!(t.lanes >> j & 1))
				continue;
			for (unsigned b = 0; b < (1u << a.size); b++) {
				unsigned byte = (a.addr[j] + b) & 127;
				t.bm[byte / 32] |= 1u << (byte % 32);
			}
		}
		pend &= ~t.lanes;
		t.last = pend == 0;
		out.push_back(t);
	}
	return out;
}

struct Stats {
	uint64_t accesses = 0, txs = 0, by_kind[4] = {}, tx_by_size[8] = {};
};

struct T {
	wg::Harness<Vwg_coalescer> &h;
	Stats st;

	void drive(const Access &a)
	{
		h.top->in_kind_i = a.kind;
		h.top->in_size_i = a.size;
		h.top->in_mask_i = a.mask;
		for (unsigned i = 0; i < 32; i++)
			h.top->in_addr_i[i] = a.addr[i];
	}

	void garbage()
	{
		h.top->in_kind_i = h.rand(4);
		h.top->in_size_i = h.rand(8);
		h.top->in_mask_i = (uint32_t)h.rng();
		for (unsigned i = 0; i < 32; i++)
			h.top->in_addr_i[i] = (uint32_t)h.rng();
	}

	Tx sample()
	{
		Tx t;
		t.addr = h.top->tx_addr_o;
		t.size = h.top->tx_size_o;
		t.lanes = h.top->tx_lanes_o;
		for (unsigned k = 0; k < 4; k++)
			t.bm[k] = h.top->tx_bmask_o[k];
		t.last = h.top->tx_last_o;
		return t;
	}

	static void show(const char *what, const Tx &t)
	{
		printf("    %s addr %08x size %u lanes %08x bmask %08x%08x%08x%08x last %d\n", what, t.addr, t.size,
		       t.lanes, t.bm[3], t.bm[2], t.bm[1], t.bm[0], t.last);
	}

	// Checks an access's transactions against the reference model.
	bool compare(const Access &a, const std::vector<Tx> &got, const char *tag)
	{
		std::vector<Tx> exp = reference(a);
		bool ok = true;
		ok &= CHECK(h, got.size() == exp.size(), "%s: %s size %u mask %08x: %zu transactions, expected %zu", tag,
		            kind_name[a.kind], a.size, a.mask, got.size(), exp.size());
		uint32_t served = 0;
		for (size_t k = 0; k < got.size(); k++) {
			const Tx &t = got[k];
			ok &= CHECK(h, t.lanes != 0 && (t.lanes & served) == 0 && (t.lanes & ~a.mask) == 0,
			            "%s: tx %zu lanes %08x overlap served %08x or leave mask %08x", tag, k, t.lanes, served,
			            a.mask);
			ok &= CHECK(h, t.lanes && lowest(t.lanes) == lowest(a.mask & ~served),
			            "%s: tx %zu not led by the lowest unserved lane", tag, k);
			served |= t.lanes;
			if (k < exp.size() && t != exp[k]) {
				ok &= CHECK(h, false, "%s: %s size %u mask %08x: transaction %zu differs", tag,
				            kind_name[a.kind], a.size, a.mask, k);
				show("got", t);
				show("exp", exp[k]);
			}
		}
		ok &= CHECK(h, served == a.mask, "%s: lanes served %08x, mask %08x", tag, served, a.mask);
		if (!ok && h.failed() <= 20) {
			printf("    access %s size %u mask %08x addresses:", kind_name[a.kind], a.size, a.mask);
			for (unsigned i = 0; i < 32; i++)
				printf("%s%08x", i % 8 ? " " : "\n      ", a.addr[i]);
			printf("\n");
		}
		return ok;
	}

	// Runs accesses back to back. ready_pct: chance of tx_ready_i per cycle; gap_pct:
	// chance that the next access is not yet offered in a cycle. Returns the transactions
	// per access; *cycles: from the first offer to the last transaction, inclusive.
	std::vector<std::vector<Tx>> run(const std::vector<Access> &accs, unsigned ready_pct, unsigned gap_pct,
	                                 const char *tag, uint64_t *cycles = nullptr)
	{
		std::vector<std::vector<Tx>> got(accs.size());
		size_t next = 0, done = 0;
		std::deque<size_t> inflight;   // accepted, not finished (at most one)
		bool offering = false, held = false;
		int wait = -1;                 // cycles until the next transaction is due (-1: none)
		Tx held_tx;
		uint64_t start = h.cycle();
		bool started = false;
		uint64_t guard = 0;
		while (done < accs.size()) {
			if (++guard > 100000000ull) {
				CHECK(h, false, "%s: no progress", tag);
				break;
			}
			if (next < accs.size() && (offering || !h.chance(gap_pct))) {
				offering = true;
				h.top->in_valid_i = 1;
				drive(accs[next]);
				if (!started) {
					started = true;
					start = h.cycle();
				}
			} else {
				h.top->in_valid_i = 0;
				garbage();
			}
			bool ready = h.chance(ready_pct);
			h.top->tx_ready_i = ready;
			h.eval();

			bool valid = h.top->tx_valid_o;
			if (kScan == 0 || valid)
				CHECK(h, valid == !inflight.empty(), "%s: tx_valid_o %d with %zu accesses in flight", tag, valid,
				      inflight.size());
			if (wait == 0)
				CHECK(h, valid, "%s: no transaction %u cycles after acceptance or the last one", tag, kScan + 1);
			else if (wait > 0)
				CHECK(h, !valid, "%s: a transaction %d cycles early", tag, wait);
			Tx t;
			if (valid) {
				t = sample();
				if (held && t != held_tx) {
					CHECK(h, false, "%s: transaction changed while waiting for tx_ready_i", tag);
					show("before", held_tx);
					show("now", t);
				}
			}
			bool fire = valid && ready;
			bool exp_in_ready = inflight.empty() || (fire && t.last);
			CHECK(h, h.top->in_ready_o == exp_in_ready, "%s: in_ready_o %d, expected %d", tag, h.top->in_ready_o,
			      exp_in_ready);
			held = valid && !ready;
			held_tx = t;
			if (wait > 0)
				wait--;
			else if (wait == 0 && valid)
				wait = -1;
			if (fire && !t.last)
				wait = (int)kScan;
			if (fire && !inflight.empty()) {
				size_t cur = inflight.front();
				got[cur].push_back(t);
				st.txs++;
				st.tx_by_size[t.size & 7]++;
				if (t.last || got[cur].size() > 64) {
					compare(accs[cur], got[cur], tag);
					inflight.pop_front();
					done++;
					if (cycles)
						*cycles = h.cycle() - start + 1;
				}
			}
			if (h.top->in_valid_i && h.top->in_ready_o) {
				inflight.push_back(next);
				st.accesses++;
				st.by_kind[accs[next].kind & 3]++;
				next++;
				offering = false;
				wait = (int)kScan;
			}
			h.tick();
		}
		h.top->in_valid_i = 0;
		h.top->tx_ready_i = 0;
		h.eval();
		return got;
	}

	std::vector<Tx> one(const Access &a, const char *tag)
	{
		return run(std::vector<Access>{a}, 100, 0, tag)[0];
	}
};

static Access consecutive(unsigned kind, unsigned size, uint32_t base, uint32_t mask = 0xFFFFFFFFu)
{
	Access a;
	a.kind = kind;
	a.size = size;
	a.mask = mask;
	for (unsigned i = 0; i < 32; i++)
		a.addr[i] = base + (i << size);
	return a;
}

static bool all_bytes(const Tx &t)
{
	return t.bm[0] == ~0u && t.bm[1] == ~0u && t.bm[2] == ~0u && t.bm[3] == ~0u;
}

// Random access generator.
static Access random_access(wg::Harness<Vwg_coalescer> &h)
{
	Access a;
	a.kind = h.rand(4);
	a.size = h.rand(5);
	unsigned r = h.rand(100);
	if (r < 30)
		a.mask = 0xFFFFFFFFu;
	else if (r < 40)
		a.mask = 1u << h.rand(32);
	else if (r < 55)
		a.mask = (uint32_t)h.rng() & (uint32_t)h.rng() & (uint32_t)h.rng();
	else
		a.mask = (uint32_t)h.rng();
	if (a.mask == 0)
		a.mask = 1u << h.rand(32);
	uint32_t align = ~((1u << a.size) - 1);
	unsigned mode = h.rand(6);
	uint32_t base = (uint32_t)h.rng() & ~127u;
	if (h.chance(10))
		base |= 0xFFFFFF00u; // near the top of the address space
	switch (mode) {
	case 0: { // a few lines, any offset
		uint32_t lines[4];
		unsigned n = 1 + h.rand(4);
		for (unsigned k = 0; k < n; k++)
			lines[k] = h.chance(40)   ? base + 128 * (uint32_t)h.rand(4)
			           : h.chance(50) ? base ^ (1u << (7 + h.rand(25))) // differs in one line bit
			                          : (uint32_t)h.rng() & ~127u;
		for (unsigned i = 0; i < 32; i++)
			a.addr[i] = lines[h.rand(n)] + ((uint32_t)h.rand(128) & align);
		break;
	}
	case 1: { // a few segments of one or two lines
		uint32_t segs[6];
		unsigned n = 1 + h.rand(6);
		for (unsigned k = 0; k < n; k++)
			segs[k] = base + 128 * (uint32_t)h.rand(2) + 32 * (uint32_t)h.rand(4);
		for (unsigned i = 0; i < 32; i++)
			a.addr[i] = segs[h.rand(n)] + ((uint32_t)h.rand(32) & align);
		break;
	}
	case 2: { // consecutive (or strided), possibly crossing lines
		uint32_t start = (base + (uint32_t)h.rand(256)) & align;
		uint32_t stride = (1u << a.size) * (h.chance(70) ? 1 : 1 + (uint32_t)h.rand(4));
		for (unsigned i = 0; i < 32; i++)
			a.addr[i] = start + i * stride;
		if (h.chance(30)) // permuted
			for (unsigned i = 31; i > 0; i--)
				std::swap(a.addr[i], a.addr[h.rand(i + 1)]);
		break;
	}
	case 3: { // one address for all lanes, or two
		uint32_t x = ((uint32_t)h.rng()) & align, y = ((uint32_t)h.rng()) & align;
		for (unsigned i = 0; i < 32; i++)
			a.addr[i] = h.chance(80) ? x : y;
		break;
	}
	default: // random
		for (unsigned i = 0; i < 32; i++)
			a.addr[i] = (uint32_t)h.rng() & align;
		break;
	}
	// Inactive lanes carry garbage, not even aligned (the RTL must ignore them).
	for (unsigned i = 0; i < 32; i++)
		if (!(a.mask >> i & 1))
			a.addr[i] = (uint32_t)h.rng();
	return a;
}

int main(int argc, char **argv)
{
	wg::Harness<Vwg_coalescer> h(argc, argv, "test_coalescer", 50000000);
	T t{h};
	h.top->in_valid_i = 0;
	h.top->tx_ready_i = 0;
	h.reset();
	h.eval();
	CHECK(h, h.top->in_ready_o && !h.top->tx_valid_o, "idle after reset");

	// 32 threads x 4 B consecutive, one aligned 128 B line.
	{
		std::vector<Tx> r = t.one(consecutive(LINE, 2, 0x1000), "consecutive LINE");
		CHECK(h, r.size() == 1 && r[0].addr == 0x1000 && r[0].size == 7 && r[0].lanes == ~0u && all_bytes(r[0]),
		      "consecutive 4 B: one 128 B line (%zu)", r.size());
		r = t.one(consecutive(STORE, 2, 0x1000), "consecutive STORE");
		CHECK(h, r.size() == 1 && r[0].addr == 0x1000 && r[0].size == 7 && all_bytes(r[0]),
		      "consecutive 4 B store: one 128 B access (%zu)", r.size());
		r = t.one(consecutive(SEG, 2, 0x1000), "consecutive SEG");
		CHECK(h, r.size() == 4 && r[3].addr == 0x1060 && r[3].size == 5 && r[3].lanes == 0xFF000000u,
		      "consecutive 4 B non-caching: four segments (%zu)", r.size());
	}
	// All 32 addresses inside one line, permuted.
	{
		Access a = consecutive(LINE, 2, 0x7f80);
		for (unsigned i = 31; i > 0; i--)
			std::swap(a.addr[i], a.addr[h.rand(i + 1)]);
		std::vector<Tx> r = t.one(a, "permuted LINE");
		CHECK(h, r.size() == 1 && r[0].addr == 0x7f80 && r[0].size == 7 && all_bytes(r[0]),
		      "permuted within a line: one transaction (%zu)", r.size());
	}
	// Stores to segments 0 and 2 of line A and segment 1 of line B: three 32 B accesses.
	{
		Access a;
		a.kind = STORE;
		a.size = 2;
		for (unsigned i = 0; i < 32; i++) {
			uint32_t seg = i < 8 ? 0x4000 : i < 16 ? 0x4040 : i < 24 ? 0x9020 : 0x4000;
			a.addr[i] = seg + 4 * (i % 8);
		}
		std::vector<Tx> r = t.one(a, "three segments");
		CHECK(h, r.size() == 3, "three non-contiguous segments: three accesses (%zu)", r.size());
		if (r.size() == 3)
			CHECK(h, r[0].addr == 0x4000 && r[0].size == 5 && r[0].lanes == 0xFF0000FFu && r[1].addr == 0x4040 &&
			             r[1].size == 5 && r[1].lanes == 0x0000FF00u && r[2].addr == 0x9020 && r[2].size == 5 &&
			             r[2].lanes == 0x00FF0000u,
			      "three 32 B accesses, A seg 0, A seg 2, B seg 1");
	}
	// 32 scattered addresses in different lines: 32 transactions for every kind.
	{
		for (unsigned kind = 0; kind < 4; kind++) {
			Access a;
			a.kind = kind;
			a.size = 2;
			for (unsigned i = 0; i < 32; i++)
				a.addr[i] = 0x100000 + 0x1000 * ((i * 7) % 32) + 4 * i;
			std::vector<Tx> r = t.one(a, "scattered");
			unsigned want_size = kind == LINE ? 7 : kind == THREAD ? 2 : 5;
			bool sizes = true;
			for (const Tx &x : r)
				sizes &= x.size == want_size;
			CHECK(h, r.size() == 32 && sizes, "scattered %s: 32 transactions of size %u (%zu)", kind_name[kind],
			      want_size, r.size());
		}
	}
	// Non-caching example: two 128 B regions, six distinct segments.
	{
		static const uint32_t segs[6] = {0x20000, 0x20020, 0x20060, 0x35080, 0x350c0, 0x350e0};
		Access a;
		a.kind = SEG;
		a.size = 2;
		for (unsigned i = 0; i < 32; i++)
			a.addr[i] = segs[h.rand(6)] + 4 * (uint32_t)h.rand(8);
		for (unsigned k = 0; k < 6; k++) // every segment touched
			a.addr[5 * k] = segs[k] + 4 * k;
		std::vector<Tx> r = t.one(a, "six segments");
		bool ok = r.size() == 6;
		for (const Tx &x : r)
			ok &= x.size == 5;
		CHECK(h, ok, "non-caching, six segments: six 32 B transactions (%zu)", r.size());
		a.kind = LINE;
		CHECK(h, t.one(a, "six segments LINE").size() == 2, "the same as caching loads: two lines");
		a.kind = STORE;
		CHECK(h, t.one(a, "six segments STORE").size() == 4, "the same as stores: 2 x 64 B + 2 x 32 B");
	}
	// A store covering both segments of one 64 B half only: one 64 B access.
	{
		Access a = consecutive(STORE, 2, 0x2040, 0x0000FFFF);
		std::vector<Tx> r = t.one(a, "64 B store");
		CHECK(h, r.size() == 1 && r[0].addr == 0x2040 && r[0].size == 6 && r[0].lanes == 0xFFFF &&
		             r[0].bm[0] == 0 && r[0].bm[1] == 0 && r[0].bm[2] == ~0u && r[0].bm[3] == ~0u,
		      "64 B half: one 64 B access (%zu)", r.size());
		// Only one word in each of the two segments: still one 64 B access.
		a.mask = 0x00000101;
		r = t.one(a, "64 B store sparse");
		CHECK(h, r.size() == 1 && r[0].size == 6 && r[0].bm[2] == 0x0000000Fu && r[0].bm[3] == 0x0000000Fu,
		      "64 B half, one word per segment: one 64 B access (%zu)", r.size());
		// Segments 1 and 2 (not one half): two 32 B accesses.
		a = consecutive(STORE, 2, 0x2020, 0x0000FFFF);
		r = t.one(a, "straddling store");
		CHECK(h, r.size() == 2 && r[0].size == 5 && r[1].size == 5, "segments 1 and 2: two 32 B accesses (%zu)",
		      r.size());
		// Three segments 0, 1, 2: 64 B then 32 B.
		a = consecutive(STORE, 2, 0x2000, 0x00FFFFFF);
		r = t.one(a, "three contiguous segments");
		CHECK(h, r.size() == 2 && r[0].size == 6 && r[0].addr == 0x2000 && r[1].size == 5 && r[1].addr == 0x2040,
		      "segments 0, 1, 2: 64 B + 32 B (%zu)", r.size());
	}
	// 8 and 16 bytes per thread, consecutive: 2 resp. 4 lines.
	{
		std::vector<Tx> r = t.one(consecutive(LINE, 3, 0x8000), "8 B LINE");
		CHECK(h, r.size() == 2 && r[0].addr == 0x8000 && r[0].lanes == 0x0000FFFFu && r[1].addr == 0x8080 &&
		             r[1].lanes == 0xFFFF0000u && all_bytes(r[0]) && all_bytes(r[1]),
		      "8 B per thread: two lines (%zu)", r.size());
		r = t.one(consecutive(LINE, 4, 0x8000), "16 B LINE");
		bool ok = r.size() == 4;
		for (unsigned k = 0; ok && k < 4; k++)
			ok &= r[k].addr == 0x8000 + 128 * k && r[k].size == 7 && r[k].lanes == 0xFFu << (8 * k) && all_bytes(r[k]);
		CHECK(h, ok, "16 B per thread: four lines (%zu)", r.size());
		r = t.one(consecutive(STORE, 4, 0x8000), "16 B STORE");
		CHECK(h, r.size() == 4, "16 B per thread stores: four 128 B accesses (%zu)", r.size());
		r = t.one(consecutive(LINE, 0, 0x8010), "1 B LINE");
		CHECK(h, r.size() == 1 && r[0].lanes == ~0u && r[0].bm[0] == 0xFFFF0000u && r[0].bm[1] == 0x0000FFFFu &&
		             r[0].bm[2] == 0 && r[0].bm[3] == 0,
		      "1 B per thread: one line, bytes 16..47 (%zu)", r.size());
	}
	// THREAD kind, five active lanes: five transactions in lane order.
	{
		Access a = consecutive(THREAD, 3, 0xA000, (1u << 3) | (1u << 7) | (1u << 8) | (1u << 20) | (1u << 31));
		std::vector<Tx> r = t.one(a, "THREAD");
		static const unsigned lanes[5] = {3, 7, 8, 20, 31};
		bool ok = r.size() == 5;
		for (unsigned k = 0; ok && k < 5; k++)
			ok &= r[k].lanes == 1u << lanes[k] && r[k].addr == 0xA000 + 8 * lanes[k] && r[k].size == 3 &&
			      r[k].last == (k == 4);
		CHECK(h, ok, "THREAD, five lanes: five transactions in lane order (%zu)", r.size());
	}
	// Partial masks.
	{
		std::vector<Tx> r = t.one(consecutive(LINE, 2, 0x3000, 0x0F0F00F0u), "partial LINE");
		CHECK(h, r.size() == 1 && r[0].lanes == 0x0F0F00F0u && r[0].bm[0] == 0xFFFF0000u && r[0].bm[1] == 0 &&
		             r[0].bm[2] == 0x0000FFFFu && r[0].bm[3] == 0x0000FFFFu,
		      "partial mask: one line, only the active lanes' bytes (%zu)", r.size());
		r = t.one(consecutive(STORE, 2, 0x3000, 0xFF0000FFu), "partial STORE");
		CHECK(h, r.size() == 2 && r[0].size == 5 && r[0].addr == 0x3000 && r[1].size == 5 && r[1].addr == 0x3060,
		      "store, segments 0 and 3: two 32 B accesses (%zu)", r.size());
		r = t.one(consecutive(SEG, 2, 0x3000, 0x80000000u), "lane 31 only");
		CHECK(h, r.size() == 1 && r[0].lanes == 0x80000000u && r[0].addr == 0x3060 && r[0].bm[3] == 0xF0000000u,
		      "lane 31 alone (%zu)", r.size());
		r = t.one(consecutive(STORE, 2, 0x3000, 0x80000001u), "lanes 0 and 31");
		CHECK(h, r.size() == 2, "store, lanes 0 and 31: two 32 B accesses (%zu)", r.size());
	}
	// Lines that differ in one address bit only (each bit of the line comparison).
	{
		for (unsigned bit = 7; bit < 32; bit++) {
			Access a = consecutive(LINE, 2, 0x12345680u & ~(1u << bit), 0x00000003u);
			a.addr[1] = a.addr[0] ^ (1u << bit);
			std::vector<Tx> r = t.one(a, "one bit apart");
			CHECK(h, r.size() == 2 && r[0].lanes == 1 && r[1].lanes == 2,
			      "lines differing in address bit %u: two transactions (%zu)", bit, r.size());
		}
	}
	// Same address from every lane (a store: one 32 B access; a load: one line).
	{
		Access a;
		a.kind = STORE;
		a.size = 2;
		for (unsigned i = 0; i < 32; i++)
			a.addr[i] = 0x5554;
		std::vector<Tx> r = t.one(a, "same address");
		CHECK(h, r.size() == 1 && r[0].size == 5 && r[0].addr == 0x5540 && r[0].lanes == ~0u &&
		             r[0].bm[2] == 0x00F00000u,
		      "same address: one 32 B access (%zu)", r.size());
	}

	// Back to back without back-pressure: one transaction per kScan + 1 cycles (wg_coalescer:
	// one per cycle), no bubble between accesses.
	{
		std::vector<Access> accs;
		uint64_t ntx = 0;
		for (unsigned k = 0; k < 200; k++) {
			accs.push_back(random_access(h));
			ntx += reference(accs.back()).size();
		}
		uint64_t cycles = 0;
		t.run(accs, 100, 0, "back to back", &cycles);
		uint64_t exp_cycles = ntx * (kScan + 1) + 1;
		CHECK(h, cycles == exp_cycles, "200 accesses, %" PRIu64 " transactions in %" PRIu64 " cycles (expected %" PRIu64 ")",
		      ntx, cycles, exp_cycles);
	}

	// Random, with back-pressure and gaps between accesses.
	uint64_t n_random = h.scaled(60000);
	{
		static const unsigned ready[4] = {100, 80, 50, 10};
		static const unsigned gap[4] = {0, 20, 50, 90};
		for (uint64_t done = 0; done < n_random;) {
			std::vector<Access> accs;
			for (unsigned k = 0; k < 500; k++)
				accs.push_back(random_access(h));
			t.run(accs, ready[h.rand(4)], gap[h.rand(4)], "random");
			done += accs.size();
		}
	}

	printf("test_coalescer: %" PRIu64 " accesses (LINE %" PRIu64 ", SEG %" PRIu64 ", STORE %" PRIu64
	       ", THREAD %" PRIu64 "), %" PRIu64 " transactions (128 B %" PRIu64 ", 64 B %" PRIu64 ", 32 B %" PRIu64
	       ", thread-sized %" PRIu64 ")\n",
	       t.st.accesses, t.st.by_kind[0], t.st.by_kind[1], t.st.by_kind[2], t.st.by_kind[3], t.st.txs,
	       t.st.tx_by_size[7], t.st.tx_by_size[6], t.st.tx_by_size[5],
	       t.st.tx_by_size[0] + t.st.tx_by_size[1] + t.st.tx_by_size[2] + t.st.tx_by_size[3] + t.st.tx_by_size[4]);
	return h.finish();
}
