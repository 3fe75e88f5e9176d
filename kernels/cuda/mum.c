/*
 * mum (CUDA suite, docs/suite.md): exact matching of short queries against a
 * reference sequence, MUMmerGPU style (kernels/cuda/mum.cu, kernel
 * mum_match). The host builds a k-mer index of the reference (bucket
 * offsets per 8-mer, then the positions in each bucket in ascending order);
 * each thread reports its query's longest exact match that starts with an
 * indexed 8-mer (length, reference position, query position; the first one
 * found on ties). Integer results: checked exactly against the same search
 * on the CPU.
 *
 * Queries: substrings of the reference of 24 to 64 bases with about one
 * substitution in 12 bases, one query in 8 random (few or no hits); the
 * reference repeats a few segments so that some buckets hold many positions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define MUM_K 8
#define NBUCKET (1u << (2 * MUM_K))
#define BLOCK 64

struct mum_params {
	uint64_t ref;
	int32_t reflen;
	uint64_t bucket, pos, qry, qoff;
	int32_t nq;
	uint64_t best_len, best_ref, best_qpos;
};

static const char usage[] =
	"Short-query exact matching against a reference with a k-mer index\n"
	"(kernels/cuda/mum.cu, MUMmerGPU style); checked exactly against the CPU.\n"
	"--n N: number of queries (small 128 against 8192 bases, default 16384 against 1M bases).";

static void cpu_match(const uint8_t *ref, uint32_t reflen, const uint32_t *bucket, const uint32_t *pos,
		      const uint8_t *s, uint32_t len, int32_t out[3])
{
	int32_t blen = 0, bref = -1, bq = -1;
	uint32_t code = 0, st, t, b;

	for (t = 0; t + 1 < MUM_K && t < len; t++)
		code = (code << 2) | s[t];
	for (st = 0; st + MUM_K <= len; st++) {
		code = ((code << 2) | s[st + MUM_K - 1]) & (NBUCKET - 1);
		for (b = bucket[code]; b < bucket[code + 1]; b++) {
			uint32_t p = pos[b], m = MUM_K;

			while (st + m < len && p + m < reflen && ref[p + m] == s[st + m])
				m++;
			if ((int32_t)m > blen) {
				blen = (int32_t)m;
				bref = (int32_t)p;
				bq = (int32_t)st;
			}
		}
	}
	out[0] = blen;
	out[1] = bref;
	out[2] = bq;
}

int main(int argc, char **argv)
{
	struct mum_params p;
	struct wgk_rng rng;
	struct wgk k;
	uint8_t *ref, *qry;
	uint32_t *bucket, *pos, *qoff, *fill, reflen, nq, i, q, total = 0, code = 0;
	int32_t *got[3], *exp[3], out[3];
	uint64_t matched = 0;
	size_t bad = 0;
	int ret;

	wgk_init_ptx(&k, "mum", usage, argc, argv);
	nq = (uint32_t)wgk_size(&k, 128, 16384);
	reflen = k.opt.small ? 8192 : 1u << 20;

	/* Reference: random bases, every 16th 1 KB block a copy of an earlier one. */
	wgk_rng_init(&rng, k.opt.seed, 0);
	ref = wgk_xmalloc(&k, reflen);
	for (i = 0; i < reflen; i++)
		ref[i] = (uint8_t)wgk_rng_below(&rng, 4);
	for (i = 1024 * 16; i + 1024 <= reflen; i += 1024 * 16)
		memcpy(ref + i, ref + wgk_rng_below(&rng, i - 1024), 1024);

	/* k-mer index: counts, prefix sums, then the positions in ascending order. */
	bucket = wgk_xmalloc(&k, (NBUCKET + 1) * 4);
	fill = wgk_xmalloc(&k, NBUCKET * 4);
	pos = wgk_xmalloc(&k, (size_t)reflen * 4);
	for (i = 0; i < reflen; i++) {
		code = ((code << 2) | ref[i]) & (NBUCKET - 1);
		if (i + 1 >= MUM_K)
			bucket[code + 1]++;
	}
	for (i = 0; i < NBUCKET; i++)
		bucket[i + 1] += bucket[i];
	code = 0;
	for (i = 0; i < reflen; i++) {
		code = ((code << 2) | ref[i]) & (NBUCKET - 1);
		if (i + 1 >= MUM_K)
			pos[bucket[code] + fill[code]++] = i + 1 - MUM_K;
	}

	/* Queries, concatenated; qoff[q] .. qoff[q+1] is query q. */
	qoff = wgk_xmalloc(&k, ((size_t)nq + 1) * 4);
	qry = wgk_xmalloc(&k, (size_t)nq * 64);
	for (q = 0; q < nq; q++) {
		uint32_t len = 24 + wgk_rng_below(&rng, 41), at = wgk_rng_below(&rng, reflen - len);
		int random = wgk_rng_below(&rng, 8) == 0;

		qoff[q] = total;
		for (i = 0; i < len; i++) {
			uint8_t b = random ? (uint8_t)wgk_rng_below(&rng, 4) : ref[at + i];

			if (wgk_rng_below(&rng, 12) == 0)
				b = (uint8_t)((b + 1 + wgk_rng_below(&rng, 3)) & 3);
			qry[total++] = b;
		}
	}
	qoff[nq] = total;

	for (i = 0; i < 3; i++) {
		got[i] = wgk_xmalloc(&k, (size_t)nq * 4);
		exp[i] = wgk_xmalloc(&k, (size_t)nq * 4);
	}
	for (q = 0; q < nq; q++) {
		cpu_match(ref, reflen, bucket, pos, qry + qoff[q], qoff[q + 1] - qoff[q], out);
		for (i = 0; i < 3; i++)
			exp[i][q] = out[i];
		matched += out[0];
	}

	memset(&p, 0, sizeof(p));
	p.ref = wgk_alloc_copy(&k, ref, reflen);
	p.reflen = (int32_t)reflen;
	p.bucket = wgk_alloc_copy(&k, bucket, (NBUCKET + 1) * 4);
	p.pos = wgk_alloc_copy(&k, pos, (size_t)(reflen - MUM_K + 1) * 4);
	p.qry = wgk_alloc_copy(&k, qry, total);
	p.qoff = wgk_alloc_copy(&k, qoff, ((size_t)nq + 1) * 4);
	p.nq = (int32_t)nq;
	p.best_len = wgk_alloc(&k, (size_t)nq * 4);
	p.best_ref = wgk_alloc(&k, (size_t)nq * 4);
	p.best_qpos = wgk_alloc(&k, (size_t)nq * 4);
	wgk_launch(&k, "mum_match", (wg_dim3){ wgk_div_up(nq, BLOCK), 1, 1 }, (wg_dim3){ BLOCK, 1, 1 }, &p,
		   sizeof(p), 0);
	wgk_download(&k, got[0], p.best_len, (size_t)nq * 4);
	wgk_download(&k, got[1], p.best_ref, (size_t)nq * 4);
	wgk_download(&k, got[2], p.best_qpos, (size_t)nq * 4);
	bad += wgk_cmp_i32(&k, "best_len", got[0], exp[0], nq);
	bad += wgk_cmp_i32(&k, "best_ref", got[1], exp[1], nq);
	bad += wgk_cmp_i32(&k, "best_qpos", got[2], exp[2], nq);
	printf("mum: %u queries (%u bases) against %u bases, mean longest match %.1f\n", nq, total, reflen,
	       (double)matched / nq);
	ret = wgk_finish(&k, bad, "%u", nq);
	for (i = 0; i < 3; i++) {
		free(got[i]);
		free(exp[i]);
	}
	free(ref);
	free(qry);
	free(bucket);
	free(fill);
	free(pos);
	free(qoff);
	return ret;
}
