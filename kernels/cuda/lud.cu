// lud.cu: blocked LU decomposition (no pivoting; Doolittle: unit lower
// triangle) in the manner of Rodinia's lud. For each diagonal block, in
// order: lud_diagonal factors the block in shared memory (one CTA, one row
// per thread, the active rows shrink: divergence), lud_perimeter solves the
// blocks to its right (U) and below (L) against it (one CTA per pair of
// blocks, half the threads each), and lud_internal updates the trailing
// matrix with the product of the two perimeter strips (a CTA per block,
// 16 x 16 shared tiles, an FFMA chain per element). The host launches the
// three kernels once per diagonal block.

#define LUD_BS 16

extern "C" __global__ void lud_diagonal(float *m, int n, int off)
{
	__shared__ float d[LUD_BS][LUD_BS];
	int t = threadIdx.x;

	for (int i = 0; i < LUD_BS; i++)
		d[i][t] = m[(off + i) * n + off + t];
	__syncthreads();
	for (int k = 0; k < LUD_BS - 1; k++) {
		if (t > k) {
			float l = d[t][k] / d[k][k];
			d[t][k] = l;
			for (int j = k + 1; j < LUD_BS; j++)
				d[t][j] -= l * d[k][j];
		}
		__syncthreads();
	}
	for (int i = 0; i < LUD_BS; i++)
		m[(off + i) * n + off + t] = d[i][t];
}

// CTA b: block row off/BS, block column off/BS + 1 + b (threads 0..BS-1:
// one column each, forward substitution with the unit lower triangle) and
// the mirrored block below the diagonal (threads BS..2BS-1: one row each,
// solving against the upper triangle).
extern "C" __global__ void lud_perimeter(float *m, int n, int off)
{
	__shared__ float d[LUD_BS][LUD_BS];
	__shared__ float r[LUD_BS][LUD_BS];
	__shared__ float c[LUD_BS][LUD_BS];
	int t = threadIdx.x;
	int blk = off + (blockIdx.x + 1) * LUD_BS;

	if (t < LUD_BS) {
		for (int i = 0; i < LUD_BS; i++) {
			d[i][t] = m[(off + i) * n + off + t];
			r[i][t] = m[(off + i) * n + blk + t];
		}
	} else {
		int u = t - LUD_BS;
		for (int i = 0; i < LUD_BS; i++)
			c[i][u] = m[(blk + i) * n + off + u];
	}
	__syncthreads();
	if (t < LUD_BS) {
		for (int i = 1; i < LUD_BS; i++)
			for (int j = 0; j < i; j++)
				r[i][t] -= d[i][j] * r[j][t];
	} else {
		int u = t - LUD_BS;
		for (int j = 0; j < LUD_BS; j++) {
			for (int k = 0; k < j; k++)
				c[u][j] -= c[u][k] * d[k][j];
			c[u][j] /= d[j][j];
		}
	}
	__syncthreads();
	if (t < LUD_BS) {
		for (int i = 0; i < LUD_BS; i++)
			m[(off + i) * n + blk + t] = r[i][t];
	} else {
		int u = t - LUD_BS;
		for (int i = 0; i < LUD_BS; i++)
			m[(blk + i) * n + off + u] = c[i][u];
	}
}

// CTA (bx, by): the trailing block at block row off/BS + 1 + by, block
// column off/BS + 1 + bx, minus (its L strip) x (its U strip).
extern "C" __global__ void lud_internal(float *m, int n, int off)
{
	__shared__ float l[LUD_BS][LUD_BS];
	__shared__ float u[LUD_BS][LUD_BS];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = off + (blockIdx.y + 1) * LUD_BS + ty;
	int col = off + (blockIdx.x + 1) * LUD_BS + tx;

	l[ty][tx] = m[row * n + off + tx];
	u[ty][tx] = m[(off + ty) * n + col];
	__syncthreads();
	float sum = 0.0f;
	for (int k = 0; k < LUD_BS; k++)
		sum += l[ty][k] * u[k][tx];
	m[row * n + col] -= sum;
}
