// Kernel arguments passed by value: a 16-byte aligned struct (float4 members) after an
// int, walked in a loop of run-time length (nvcc keeps its address in a register and
// reads it with ld.param through it), and a 64-bit compare of a sign-extended int.
struct coef {
	float4 v[16];
};

extern "C" __global__ void params_struct(float *out, int n, struct coef c, const int *idx, const float *in,
					 int m)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n)
		return;
	int k = idx[i];
	float r = -1.0f;
	if (k >= 0) {
		r = in[k] + in[k + n];
		for (int j = 0; j < m; j++)
			r += c.v[j].x * c.v[j].w + c.v[j].y;
	} else if (k == -1) {
		r = in[i + 2 * n];
	}
	out[i] = r;
}
