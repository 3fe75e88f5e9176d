/*
 * histogram: 256-bin histogram of n bytes, first through per-CTA shared
 * bins (hist_shared: ATOMS.ADD, then ATOMG.ADD to merge), then with one
 * global atomic per byte (hist_global). Half of the bytes take one of four
 * hot values, so lanes of a warp often hit the same counter.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define BLOCK 256
#define BINS 256

/* Parameter buffer of both kernels, as .param in histogram.s lays it out. */
struct hist_params {
	uint32_t n;
	uint64_t data, hist;
};

static const char usage[] =
	"256-bin histogram of n bytes: kernel hist_shared (shared-memory bins with ATOMS,\n"
	"merged with ATOMG, grid-stride loop over 8 or 60 CTAs), then kernel hist_global\n"
	"(one ATOMG per byte).\n"
	"--n N: number of bytes (small 20001, default 1000000).";

int main(int argc, char **argv)
{
	static const uint8_t hot[4] = { 0x00, 0x20, 0x65, 0xff };
	struct hist_params p;
	struct wgk_rng rng;
	struct wgk k;
	int ret;
	uint32_t hist[BINS], ref[BINS], n, i, ctas;
	uint8_t *data;
	size_t bad;
	wg_dim3 block = { BLOCK, 1, 1 };

	wgk_init(&k, "histogram", usage, argc, argv);
	n = (uint32_t)wgk_size(&k, 20001, 1000000);
	data = wgk_xmalloc(&k, n);
	memset(ref, 0, sizeof(ref));
	wgk_rng_init(&rng, k.opt.seed, 0);
	for (i = 0; i < n; i++) {
		uint32_t r = wgk_rng_u32(&rng);

		data[i] = (r & 1) ? hot[(r >> 1) & 3] : (uint8_t)(r >> 8);
		ref[data[i]]++;
	}

	memset(&p, 0, sizeof(p));
	p.n = n;
	p.data = wgk_alloc_copy(&k, data, n);
	p.hist = wgk_alloc(&k, sizeof(hist));

	ctas = k.opt.small ? 8 : 60;
	if (ctas > wgk_div_up(n, BLOCK))
		ctas = wgk_div_up(n, BLOCK);
	wgk_memset(&k, p.hist, 0, sizeof(hist));
	wgk_launch(&k, "hist_shared", (wg_dim3){ ctas, 1, 1 }, block, &p, sizeof(p), 0);
	wgk_download(&k, hist, p.hist, sizeof(hist));
	bad = wgk_cmp_u32(&k, "hist_shared bin", hist, ref, BINS);

	wgk_memset(&k, p.hist, 0, sizeof(hist));
	wgk_launch(&k, "hist_global", (wg_dim3){ wgk_div_up(n, BLOCK), 1, 1 }, block, &p, sizeof(p), 0);
	wgk_download(&k, hist, p.hist, sizeof(hist));
	bad += wgk_cmp_u32(&k, "hist_global bin", hist, ref, BINS);

	ret = wgk_finish(&k, bad, "%u", n);
	free(data);
	return ret;
}
