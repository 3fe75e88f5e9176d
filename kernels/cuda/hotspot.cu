// hotspot.cu: chip thermal simulation in the manner of Rodinia's hotspot:
// an explicit finite-difference step of the temperature grid from the power
// map, HS_PYRAMID steps per launch. A CTA loads an HS_BLOCK x HS_BLOCK tile
// of temperature and power into shared memory and iterates on it; each step
// the valid region shrinks by one point on every side (the halo), so CTAs
// overlap by 2 * HS_PYRAMID points and only the inner part is written back.
// Grid edges reflect (the missing neighbour is the point itself). Shared
// memory, barriers per step, idle lanes in the shrinking border.

#define HS_BLOCK 16

struct hs_coef {
	float step_div_cap;	// time step / heat capacity
	float rx_1, ry_1, rz_1;	// 1 / thermal resistances (x, y, to ambient)
	float amb;		// ambient temperature
};

extern "C" __global__ void hotspot_step(const float *power, const float *temp_in, float *temp_out, int nx, int ny,
					int pyramid, hs_coef c)
{
	__shared__ float tp[HS_BLOCK][HS_BLOCK];
	__shared__ float pw[HS_BLOCK][HS_BLOCK];
	__shared__ float tn[HS_BLOCK][HS_BLOCK];
	int tx = threadIdx.x, ty = threadIdx.y;
	int small = HS_BLOCK - 2 * pyramid;	// output points per CTA and dimension
	int x = blockIdx.x * small - pyramid + tx;	// this thread's grid point
	int y = blockIdx.y * small - pyramid + ty;
	bool inside = x >= 0 && x < nx && y >= 0 && y < ny;

	if (inside) {
		tp[ty][tx] = temp_in[y * nx + x];
		pw[ty][tx] = power[y * nx + x];
	}
	__syncthreads();

	// The tile's part that lies in the grid: [lo, hi] in tile coordinates.
	int xlo = x - tx < 0 ? -(x - tx) : 0;
	int ylo = y - ty < 0 ? -(y - ty) : 0;
	int xhi = (x - tx) + HS_BLOCK - 1 >= nx ? HS_BLOCK - 1 - ((x - tx) + HS_BLOCK - nx) : HS_BLOCK - 1;
	int yhi = (y - ty) + HS_BLOCK - 1 >= ny ? HS_BLOCK - 1 - ((y - ty) + HS_BLOCK - ny) : HS_BLOCK - 1;
	int w = tx - 1 < xlo ? xlo : tx - 1, e = tx + 1 > xhi ? xhi : tx + 1;
	int s = ty - 1 < ylo ? ylo : ty - 1, n = ty + 1 > yhi ? yhi : ty + 1;
	bool computed = false;

	for (int it = 0; it < pyramid; it++) {
		computed = false;
		if (tx >= it + 1 && tx <= HS_BLOCK - it - 2 && ty >= it + 1 && ty <= HS_BLOCK - it - 2 && inside) {
			computed = true;
			float t = tp[ty][tx];
			tn[ty][tx] = t + c.step_div_cap * (pw[ty][tx] + (tp[n][tx] + tp[s][tx] - 2.0f * t) * c.ry_1 +
							   (tp[ty][e] + tp[ty][w] - 2.0f * t) * c.rx_1 +
							   (c.amb - t) * c.rz_1);
		}
		__syncthreads();
		if (it == pyramid - 1)
			break;
		if (computed)
			tp[ty][tx] = tn[ty][tx];
		__syncthreads();
	}
	if (computed)
		temp_out[y * nx + x] = tn[ty][tx];
}
