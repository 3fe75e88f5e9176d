// lps.cu: one Jacobi iteration of the 3-D Laplace equation in the manner of
// the LPS benchmark: a CTA owns an LPS_BX x LPS_BY column of the grid and
// marches through it plane by plane; each plane's tile and its one-point
// halo go through shared memory (two barriers per plane), the planes above
// and below stay in registers. Boundary points keep their (Dirichlet)
// values. Memory bound with a regular, coalesced access pattern.

#define LPS_BX 32
#define LPS_BY 4

extern "C" __global__ void lps_jacobi(const float *u1, float *u2, int nx, int ny, int nz)
{
	__shared__ float tile[LPS_BY + 2][LPS_BX + 2];
	int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
	int i = blockIdx.x * LPS_BX + threadIdx.x;
	int j = blockIdx.y * LPS_BY + threadIdx.y;
	int plane = nx * ny;
	int idx = i + j * nx;
	bool edge_ij = i == 0 || i == nx - 1 || j == 0 || j == ny - 1;
	const float sixth = 1.0f / 6.0f;
	float below = 0.0f, here = u1[idx], above;

	for (int k = 0; k < nz; k++) {
		above = k + 1 < nz ? u1[idx + plane] : 0.0f;
		tile[ty][tx] = here;
		if (threadIdx.x == 0 && i > 0)
			tile[ty][0] = u1[idx - 1];
		if (threadIdx.x == LPS_BX - 1 && i < nx - 1)
			tile[ty][LPS_BX + 1] = u1[idx + 1];
		if (threadIdx.y == 0 && j > 0)
			tile[0][tx] = u1[idx - nx];
		if (threadIdx.y == LPS_BY - 1 && j < ny - 1)
			tile[LPS_BY + 1][tx] = u1[idx + nx];
		__syncthreads();
		float v;
		if (edge_ij || k == 0 || k == nz - 1)
			v = here;
		else
			v = (tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx] + below +
			     above) * sixth;
		u2[idx] = v;
		__syncthreads();
		below = here;
		here = above;
		idx += plane;
	}
}
