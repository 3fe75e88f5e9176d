// Special functions and division.
extern "C" __global__ void fdivs(const float *a, const float *b, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = a[i], y = b[i];
	out[8 * i + 0] = x / y;
	out[8 * i + 1] = sqrtf(fabsf(x));
	out[8 * i + 2] = __fdividef(x, y);
	out[8 * i + 3] = rsqrtf(fabsf(y) + 1.0f);
	out[8 * i + 4] = __expf(x * 0.01f);
	out[8 * i + 5] = __logf(fabsf(y) + 1.0f);
	out[8 * i + 6] = __sinf(x) + __cosf(y);
	out[8 * i + 7] = 1.0f / y;
}

extern "C" __global__ void idivs(const int *a, const int *b, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int x = a[i], y = b[i];
	unsigned ux = (unsigned)x, uy = (unsigned)y;
	out[4 * i + 0] = x / y;
	out[4 * i + 1] = x % y;
	out[4 * i + 2] = (int)(ux / uy);
	out[4 * i + 3] = (int)(ux % uy);
}
