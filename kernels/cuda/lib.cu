// lib.cu: LIBOR market model Monte-Carlo in the manner of the LIB benchmark:
// one thread per path evolves LIB_NN forward rates over LIB_NMAT time steps
// (a per-thread loop nest with expf in the inner loop) and values a
// portfolio of swaptions at the end (a division per rate, a discount loop).
// The rates live in a per-thread array (local memory). The normal variates
// come from a per-thread xorshift generator and Marsaglia's polar method:
// its rejection loop runs a data-dependent number of times (divergence), and
// each accepted pair costs a logf, a division and a sqrtf. The model's
// constants are passed by value (the constant bank; the original keeps them
// in constant memory).

#define LIB_NN 80	// forward rates
#define LIB_NMAT 40	// time steps (maturity of the first swaption)
#define LIB_NOPT 15	// swaptions in the portfolio

struct lib_consts {
	float lambda[LIB_NN];	// volatilities
	float swaprate[LIB_NOPT];
	int maturity[LIB_NOPT];	// in steps after LIB_NMAT
	float l0;		// initial forward rate
	float delta;		// time step (years)
};

// Uniform in [-1, 1) on a 2^-10 grid: u*u + v*v is then exact in FP32, so the
// rejection test does not depend on rounding (or on FMA contraction).
__device__ float lib_uniform(unsigned int *s)
{
	unsigned int x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return (float)((int)(x >> 21) - 1024) * (1.0f / 1024.0f);
}

__device__ float lib_normal(unsigned int *s)
{
	float u, v, r;

	do {
		u = lib_uniform(s);
		v = lib_uniform(s);
		r = u * u + v * v;
	} while (r >= 1.0f || r == 0.0f);
	return u * sqrtf(-2.0f * logf(r) / r);
}

extern "C" __global__ void lib_paths(float *value, int npath, unsigned int seed, lib_consts c)
{
	float L[LIB_NN], B[LIB_NN], S[LIB_NN];
	int path = blockIdx.x * blockDim.x + threadIdx.x;

	if (path >= npath)
		return;
	unsigned int s = (seed ^ ((unsigned int)path * 0x9e3779b9u)) | 1u;
	for (int i = 0; i < LIB_NN; i++)
		L[i] = c.l0;

	// Path evolution.
	float sqdelta = sqrtf(c.delta);
	for (int n = 0; n < LIB_NMAT; n++) {
		float sqez = sqdelta * lib_normal(&s);
		float v = 0.0f;
		for (int i = n + 1; i < LIB_NN; i++) {
			float lam = c.lambda[i - n - 1];
			float con1 = c.delta * lam;
			v += con1 * L[i] / (1.0f + c.delta * L[i]);
			float vrat = expf(con1 * v + lam * (sqez - 0.5f * con1));
			L[i] = L[i] * vrat;
		}
	}

	// Portfolio: bond prices and annuities from the first maturity on.
	float b = 1.0f, a = 0.0f;
	for (int n = LIB_NMAT; n < LIB_NN; n++) {
		b = b / (1.0f + c.delta * L[n]);
		a = a + c.delta * b;
		B[n] = b;
		S[n] = a;
	}
	float v = 0.0f;
	for (int i = 0; i < LIB_NOPT; i++) {
		int m = c.maturity[i] + LIB_NMAT - 1;
		float swapval = B[m] + c.swaprate[i] * S[m] - 1.0f;
		if (swapval < 0.0f)
			v += -100.0f * swapval;
	}
	// Discount to time 0.
	for (int n = 0; n < LIB_NMAT; n++)
		v = v / (1.0f + c.delta * L[n]);
	value[path] = v;
}
