// Vector add, integer and FP32, one element per thread.
extern "C" __global__ void vecadd(const int *a, const int *b, int *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(int n, float alpha, const float *__restrict__ x, float *__restrict__ y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = alpha * x[i] + y[i];
}

// float4 loads and stores (vector ld/st .v4).
extern "C" __global__ void scale4(const float4 *__restrict__ in, float4 *__restrict__ out, float s, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n4) {
		float4 v = in[i];
		v.x *= s; v.y *= s; v.z *= s; v.w *= s;
		out[i] = v;
	}
}
