// Divergent if/else nests and loops with data-dependent trip counts.
extern "C" __global__ void nest(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = in[i];
	int r;
	if (v & 1) {
		if (v & 2)
			r = v * 3;
		else
			r = v - 7;
	} else {
		if (v & 4) {
			r = v ^ 0x55;
		} else {
			r = 0;
			for (int k = 0; k < (v & 15); k++)
				r += k * v;
		}
	}
	out[i] = r;
}

// Collatz steps: a while loop whose trip count differs per lane, with a break.
extern "C" __global__ void collatz(const unsigned *in, unsigned *out, int n, unsigned limit)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned x = in[i], steps = 0;
	while (x != 1) {
		if (steps >= limit)
			break;
		x = (x & 1) ? 3 * x + 1 : x >> 1;
		steps++;
	}
	out[i] = steps;
}
