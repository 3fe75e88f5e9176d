// Global and shared atomics: histogram in shared memory, then global add, min, max, or, and,
// xor, inc, dec, exch, cas and FP32 add; shared max. Every final value is order independent
// (cas: the result is one of the candidates).
#define BINS 16
extern "C" __global__ void histo(const unsigned *in, unsigned *hist, int *stats, float *fsum, int n)
{
	__shared__ unsigned sh[BINS];
	__shared__ unsigned mx[BINS];
	unsigned t = threadIdx.x;
	if (t < BINS) {
		sh[t] = 0;
		mx[t] = 0;
	}
	__syncthreads();
	int i = blockIdx.x * blockDim.x + t;
	if (i < n) {
		unsigned v = in[i];
		atomicAdd(&sh[v % BINS], 1u);
		atomicMax(&mx[(v >> 4) % BINS], v);
		atomicMin(&stats[0], (int)v);
		atomicMax(&stats[1], (int)v);
		atomicOr((unsigned *)&stats[2], 1u << (v & 31));
		atomicAnd((unsigned *)&stats[3], ~(1u << (v & 7)));
		atomicXor((unsigned *)&stats[4], v);
		atomicInc((unsigned *)&stats[5], 1000u);
		atomicDec((unsigned *)&stats[6], 1000u);
		atomicExch(&stats[7], 42);
		atomicCAS(&stats[8], 0, (int)v + 1);
		atomicMin((unsigned *)&stats[9], v);
		atomicMax((unsigned *)&stats[10], v);
		atomicAdd(fsum, (float)(v & 7));
	}
	__syncthreads();
	if (t < BINS) {
		atomicAdd(&hist[t], sh[t]);
		atomicMax(&hist[BINS + t], mx[t]);
	}
}
