// Many values live at once: more than 63 registers force the allocator to spill.
#define K 80
extern "C" __global__ void manylive(const unsigned *in, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned x = in[i];
	unsigned v[K];
#pragma unroll
	for (int k = 0; k < K; k++)
		v[k] = x * (2 * k + 1) + (x >> (k & 7)) + k;
	unsigned s = 0;
#pragma unroll
	for (int k = 0; k < K; k++)
		s = (s ^ v[K - 1 - k]) * 3u + v[k];
	out[i] = s;
}
