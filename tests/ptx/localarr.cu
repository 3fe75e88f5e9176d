// A per-thread local array indexed at run time (the __local_depot stack frame).
extern "C" __global__ void localarr(const int *in, int *out, int n)
{
	int a[16];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = in[i];
	for (int k = 0; k < 16; k++)
		a[k] = v * k + (k ^ v);
	int s = 0;
	for (int k = 0; k < 16; k++)
		s += a[(v + k * 5) & 15] * (k + 1);
	out[i] = s;
}
