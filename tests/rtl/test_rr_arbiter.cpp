// test_rr_arbiter: wg_rr_arbiter against a pointer model; round-robin order,
// bounded waiting, lock, and constrained-random traffic. ARB_N from sim/rtl.mk.
#include "Vwg_rr_arbiter.h"
#include "harness.h"

#include <vector>

#ifndef ARB_N
#define ARB_N 5
#endif

namespace {

constexpr unsigned N = ARB_N;
using H = wg::Harness<Vwg_rr_arbiter>;

struct Model {
	unsigned ptr = 0; // highest-priority requester
	bool lock = false;
	unsigned lock_idx = 0;

	// Index granted for requests req (valid when req != 0).
	unsigned pick(uint32_t req) const
	{
		if (lock && (req >> lock_idx & 1))
			return lock_idx;
		for (unsigned k = 0; k < N; k++) {
			unsigned i = (ptr + k) % N;
			if (req >> i & 1)
				return i;
		}
		return 0;
	}
};

// One cycle: drive, check against the model, clock. Returns the granted
// index, or -1 when nothing was granted.
int step(H &h, Model &m, uint32_t req, bool lock, bool ready)
{
	auto *t = h.top;
	t->req_i = req;
	t->lock_i = lock;
	t->ready_i = ready;
	h.eval();
	bool valid = req != 0;
	unsigned idx = m.pick(req);
	CHECK(h, t->valid_o == valid, "valid %d for req 0x%x", t->valid_o, req);
	if (valid) {
		CHECK(h, t->idx_o == idx, "idx %u expected %u (req 0x%x, ptr %u, lock %d/%u)", t->idx_o, idx, req, m.ptr,
		      m.lock, m.lock_idx);
		CHECK(h, t->gnt_o == (1u << idx), "gnt 0x%x expected 0x%x", t->gnt_o, 1u << idx);
	} else {
		CHECK(h, t->gnt_o == 0, "gnt 0x%x without requests", t->gnt_o);
	}
	h.tick();
	if (valid && ready && !lock)
		m.ptr = (idx + 1) % N;
	m.lock = valid && lock;
	m.lock_idx = idx;
	return valid && ready ? static_cast<int>(idx) : -1;
}

const uint32_t kAll = N >= 32 ? 0xffffffffu : (1u << N) - 1;

void test_rotation(H &h, Model &m)
{
	// Everyone requests: grants go round in index order, starting after the
	// last one served.
	int first = step(h, m, kAll, false, true);
	for (unsigned k = 1; k < 3 * N; k++) {
		int g = step(h, m, kAll, false, true);
		CHECK(h, g == static_cast<int>((first + k) % N), "grant %d, expected %u", g, (first + k) % N);
	}
	// Without ready the grant stays and the pointer does not move.
	int g0 = step(h, m, kAll, false, false);
	(void)g0;
	unsigned idx = h.top->idx_o;
	step(h, m, kAll, false, false);
	h.eval();
	CHECK(h, h.top->idx_o == idx, "no rotation without ready");
}

void test_lock(H &h, Model &m)
{
	if (N < 2)
		return;
	// Lock a burst on one requester while all request.
	step(h, m, kAll, false, true);
	h.eval();
	unsigned idx = h.top->idx_o;
	for (unsigned k = 0; k < 5; k++) {
		int g = step(h, m, kAll, true, true);
		CHECK(h, g == static_cast<int>(idx), "locked burst: grant %d, expected %u", g, idx);
	}
	// Releasing the lock moves on.
	int g = step(h, m, kAll, false, true);
	CHECK(h, g == static_cast<int>(idx), "last beat of the burst");
	g = step(h, m, kAll, false, true);
	CHECK(h, g == static_cast<int>((idx + 1) % N), "after the burst: %d", g);
	// A locked requester that drops its request loses the lock.
	step(h, m, kAll, true, false);
	h.eval();
	unsigned held = h.top->idx_o;
	uint32_t others = kAll & ~(1u << held);
	step(h, m, others, false, true);
	CHECK(h, !(h.top->gnt_o >> held & 1), "dropped request not granted");
}

void test_fairness(H &h, Model &m, unsigned cycles)
{
	// Requesters keep their request until served; nobody waits for more than
	// N-1 other grants.
	std::vector<unsigned> waited(N, 0);
	uint32_t req = 0;
	unsigned worst = 0;
	for (unsigned c = 0; c < cycles; c++) {
		for (unsigned i = 0; i < N; i++)
			if (!(req >> i & 1) && h.chance(40))
				req |= 1u << i;
		int g = step(h, m, req, false, h.chance(70));
		if (g >= 0) {
			req &= ~(1u << g);
			for (unsigned i = 0; i < N; i++)
				if ((req >> i & 1) && i != static_cast<unsigned>(g))
					waited[i]++;
			worst = std::max(worst, waited[g]);
			waited[g] = 0;
		}
	}
	CHECK(h, worst <= N - 1, "a requester waited for %u other grants (N = %u)", worst, N);
}

void test_random(H &h, Model &m, unsigned cycles)
{
	for (unsigned c = 0; c < cycles; c++)
		step(h, m, static_cast<uint32_t>(h.rng()) & kAll, h.chance(20), h.chance(60));
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_rr_arbiter", 1000000);
	Model m;
	h.top->req_i = 0;
	h.top->lock_i = 0;
	h.top->ready_i = 0;
	h.reset();
	printf("%s: N %u\n", h.name(), N);
	test_rotation(h, m);
	test_lock(h, m);
	test_fairness(h, m, h.scaled(20000));
	test_random(h, m, h.scaled(50000));
	return h.finish();
}
