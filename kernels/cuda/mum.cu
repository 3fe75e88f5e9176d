// mum.cu: exact matching of many short queries against a reference sequence
// in the manner of MUMmerGPU: one thread per query finds, for every start
// position in the query, the reference positions that share its first
// MUM_K bases (a k-mer index built by the host: bucket offsets, positions)
// and extends each candidate to the right as long as the bases agree. It
// keeps the longest match. Byte loads at data-dependent reference positions
// (irregular), loops whose trip counts depend on bucket sizes and match
// lengths (divergent), little arithmetic.

#define MUM_K 8	// k-mer length; 2 bits per base: 4^8 buckets

extern "C" __global__ void mum_match(const unsigned char *ref, int reflen, const unsigned int *bucket,
				     const unsigned int *pos, const unsigned char *qry, const unsigned int *qoff,
				     int nq, int *best_len, int *best_ref, int *best_qpos)
{
	int q = blockIdx.x * blockDim.x + threadIdx.x;

	if (q >= nq)
		return;
	const unsigned char *s = qry + qoff[q];
	int len = (int)(qoff[q + 1] - qoff[q]);
	int blen = 0, bref = -1, bq = -1;
	unsigned int code = 0;

	for (int t = 0; t < MUM_K - 1 && t < len; t++)
		code = (code << 2) | s[t];
	for (int st = 0; st + MUM_K <= len; st++) {
		code = ((code << 2) | s[st + MUM_K - 1]) & ((1u << (2 * MUM_K)) - 1);
		for (unsigned int b = bucket[code]; b < bucket[code + 1]; b++) {
			int p = (int)pos[b];
			int m = MUM_K;
			while (st + m < len && p + m < reflen && ref[p + m] == s[st + m])
				m++;
			if (m > blen) {
				blen = m;
				bref = p;
				bq = st;
			}
		}
	}
	best_len[q] = blen;
	best_ref[q] = bref;
	best_qpos[q] = bq;
}
