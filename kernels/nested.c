/*
 * nested: a loop with a per-thread trip count, nested data-dependent
 * if/else and a break (see nested.s). Kernel nested places the break at
 * the join of the if/else, kernel nested_break inside the else arm; both
 * must give the CPU result. The warp instructions of each are printed: the
 * difference is the cost of the later reconvergence.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define BLOCK 256
#define VALUE_RANGE 1024
#define LIMIT 900	/* an even v above it breaks: about 6% of the trips */

/* Parameter buffer of both kernels, as .param in nested.s lays it out. */
struct nested_params {
	uint32_t n, limit;
	uint64_t in, out;
};

static const char usage[] =
	"Loop with a per-thread trip count, nested if/else on data and a break, as\n"
	"kernel nested (break at the join) and kernel nested_break (break in the else arm).\n"
	"--n N: number of threads (small 3001, default 200000).";

static uint32_t nested_ref(const uint32_t *in, uint32_t n, uint32_t i, uint32_t limit)
{
	uint32_t trips = (i & 15) + 1, acc = 0, idx = i, v;

	while (trips--) {
		v = in[idx];
		if (v & 1) {
			if (v & 2)
				acc += v;
			else
				acc ^= v << 1;
			acc += idx;
		} else {
			acc = acc * 3 + 1;
			if (v > limit)
				break;
		}
		if (++idx == n)
			idx = 0;
	}
	return acc;
}

int main(int argc, char **argv)
{
	static const char *const kernels[] = { "nested", "nested_break" };
	struct nested_params p;
	struct wgk_rng rng;
	struct wgk k;
	int ret;
	uint32_t *in, *out, *ref, n, i;
	int64_t before, after;
	size_t bad = 0, bytes;
	unsigned int kn;

	wgk_init(&k, "nested", usage, argc, argv);
	n = (uint32_t)wgk_size(&k, 3001, 200000);
	bytes = (size_t)n * 4;
	in = wgk_xmalloc(&k, bytes);
	out = wgk_xmalloc(&k, bytes);
	ref = wgk_xmalloc(&k, bytes);
	wgk_rng_init(&rng, k.opt.seed, 0);
	for (i = 0; i < n; i++)
		in[i] = wgk_rng_below(&rng, VALUE_RANGE);
	for (i = 0; i < n; i++)
		ref[i] = nested_ref(in, n, i, LIMIT);

	memset(&p, 0, sizeof(p));
	p.n = n;
	p.limit = LIMIT;
	p.in = wgk_alloc_copy(&k, in, bytes);
	p.out = wgk_alloc(&k, bytes);
	for (kn = 0; kn < 2; kn++) {
		wgk_memset(&k, p.out, 0, bytes);
		before = wgk_stat(&k, "inst_executed");
		wgk_launch(&k, kernels[kn], (wg_dim3){ wgk_div_up(n, BLOCK), 1, 1 }, (wg_dim3){ BLOCK, 1, 1 },
			   &p, sizeof(p), 0);
		after = wgk_stat(&k, "inst_executed");
		wgk_download(&k, out, p.out, bytes);
		bad += wgk_cmp_u32(&k, kernels[kn], out, ref, n);
		if (before >= 0 && after >= 0)
			printf("nested: %-12s %" PRId64 " warp instructions\n", kernels[kn], after - before);
	}
	ret = wgk_finish(&k, bad, "%u", n);
	free(in);
	free(out);
	free(ref);
	return ret;
}
