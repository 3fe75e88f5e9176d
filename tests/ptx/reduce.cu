// Shared-memory tree reduction with __syncthreads, one partial sum per CTA.
#define BLOCK 128
extern "C" __global__ void reduce_sum(const int *in, int *partial, int n)
{
	__shared__ int buf[BLOCK];
	unsigned t = threadIdx.x;
	unsigned i = blockIdx.x * BLOCK * 2 + t;
	int s = 0;
	if (i < n)
		s = in[i];
	if (i + BLOCK < n)
		s += in[i + BLOCK];
	buf[t] = s;
	__syncthreads();
	for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
		if (t < stride)
			buf[t] += buf[t + stride];
		__syncthreads();
	}
	if (t == 0)
		partial[blockIdx.x] = buf[0];
}
