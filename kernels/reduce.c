/*
 * reduce: sum of n 32-bit integers. A first launch of CTAS CTAs leaves one
 * partial sum per CTA (grid-stride loop, then a shared-memory tree with
 * BAR.SYNC); a second launch of one CTA folds the partial sums. Both the
 * partial sums and the total are checked.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define BLOCK 256	/* a power of two: the tree halves it */

/* Parameter buffer, as .param in reduce.s lays it out. */
struct reduce_params {
	uint32_t n;
	uint64_t in, out;
};

static const char usage[] =
	"Sum of n 32-bit integers (mod 2^32): kernel reduce on 8 (small) or 64 CTAs of\n"
	"256 threads gives one partial sum per CTA, a second launch on one CTA the total.\n"
	"--n N: number of elements (small 10007, default 1000003).";

int main(int argc, char **argv)
{
	struct reduce_params p;
	struct wgk_rng rng;
	struct wgk k;
	int ret;
	uint32_t *in, *part, *ref, total, n, i, ctas;
	uint64_t d_part, d_total;
	size_t bad;
	wg_dim3 block = { BLOCK, 1, 1 };

	wgk_init(&k, "reduce", usage, argc, argv);
	n = (uint32_t)wgk_size(&k, 10007, 1000003);
	ctas = k.opt.small ? 8 : 64;
	if (ctas > wgk_div_up(n, BLOCK))
		ctas = wgk_div_up(n, BLOCK);

	in = wgk_xmalloc(&k, (size_t)n * 4);
	part = wgk_xmalloc(&k, (size_t)ctas * 4);
	ref = wgk_xmalloc(&k, (size_t)ctas * 4 + 4);

	/* Element i belongs to CTA (i / BLOCK) % ctas in the grid-stride loop. */
	wgk_rng_init(&rng, k.opt.seed, 0);
	for (i = 0; i < n; i++) {
		in[i] = wgk_rng_u32(&rng);
		ref[(i / BLOCK) % ctas] += in[i];
	}
	for (i = 0; i < ctas; i++)
		ref[ctas] += ref[i];

	memset(&p, 0, sizeof(p));
	p.n = n;
	p.in = wgk_alloc_copy(&k, in, (size_t)n * 4);
	d_part = wgk_alloc(&k, (size_t)ctas * 4);
	d_total = wgk_alloc(&k, 4);
	wgk_memset(&k, d_part, 0xff, (size_t)ctas * 4);
	wgk_memset(&k, d_total, 0xff, 4);
	p.out = d_part;
	wgk_launch(&k, "reduce", (wg_dim3){ ctas, 1, 1 }, block, &p, sizeof(p), BLOCK * 4);

	p.n = ctas;
	p.in = d_part;
	p.out = d_total;
	wgk_launch(&k, "reduce", (wg_dim3){ 1, 1, 1 }, block, &p, sizeof(p), BLOCK * 4);

	wgk_download(&k, part, d_part, (size_t)ctas * 4);
	wgk_download(&k, &total, d_total, 4);
	bad = wgk_cmp_u32(&k, "partial", part, ref, ctas);
	bad += wgk_cmp_u32(&k, "total", &total, &ref[ctas], 1);
	ret = wgk_finish(&k, bad, "%u", n);
	free(in);
	free(part);
	free(ref);
	return ret;
}
