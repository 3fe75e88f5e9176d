// cfd.cu: finite-volume Euler solver on an unstructured grid in the manner
// of Rodinia's cfd (euler3d): five conserved variables per cell (density,
// momentum x/y/z, energy, structure of arrays), CFD_NNB faces per cell with
// a neighbour index (-1: wall, -2: far field) and a face normal. Per
// iteration the host launches cfd_copy (saves the variables),
// cfd_step_factor, then CFD_RK times cfd_flux and cfd_time_step. cfd_flux
// gathers the neighbours' variables at irregular addresses and spends many FP operations (pressure, speed of
// sound: sqrtf, divisions) on each face with many values live: a high
// register count per thread.

#define CFD_NNB 4
#define CFD_NVAR 5
#define CFD_RK 3
#define CFD_GAMMA 1.4f

struct cfd_ff {
	float v[CFD_NVAR];	// far-field variables
	float fc[3][4];		// their flux contributions: rows x, y, z; columns mx, my, mz, e
	float smoothing;	// dissipation coefficient
};

__device__ float cfd_pressure(float rho, float e, float speed_sqd)
{
	return (CFD_GAMMA - 1.0f) * (e - 0.5f * rho * speed_sqd);
}

__device__ float cfd_sound(float rho, float p)
{
	return sqrtf(CFD_GAMMA * p / rho);
}

extern "C" __global__ void cfd_step_factor(const float *var, const float *area, float *step, int nc)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= nc)
		return;
	float rho = var[i];
	float vx = var[i + nc] / rho, vy = var[i + 2 * nc] / rho, vz = var[i + 3 * nc] / rho;
	float e = var[i + 4 * nc];
	float sq = vx * vx + vy * vy + vz * vz;
	float p = cfd_pressure(rho, e, sq);
	step[i] = 0.5f / (sqrtf(area[i]) * (sqrtf(sq) + cfd_sound(rho, p)));
}

extern "C" __global__ void cfd_flux(const int *nbr, const float *normal, const float *var, float *flux, int nc,
				   cfd_ff ff)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= nc)
		return;
	float rho = var[i], mx = var[i + nc], my = var[i + 2 * nc], mz = var[i + 3 * nc], e = var[i + 4 * nc];
	float vx = mx / rho, vy = my / rho, vz = mz / rho;
	float sq = vx * vx + vy * vy + vz * vz;
	float p = cfd_pressure(rho, e, sq);
	float sos = cfd_sound(rho, p);
	float speed = sqrtf(sq);
	// Flux contributions of the cell: rows x, y, z.
	float fxx = mx * vx + p, fxy = mx * vy, fxz = mx * vz;
	float fyx = fxy, fyy = my * vy + p, fyz = my * vz;
	float fzx = fxz, fzy = fyz, fzz = mz * vz + p;
	float fex = vx * (e + p), fey = vy * (e + p), fez = vz * (e + p);
	float f_rho = 0.0f, f_mx = 0.0f, f_my = 0.0f, f_mz = 0.0f, f_e = 0.0f;

	for (int j = 0; j < CFD_NNB; j++) {
		int nb = nbr[i + j * nc];
		float nx = normal[i + (j * 3 + 0) * nc];
		float ny = normal[i + (j * 3 + 1) * nc];
		float nz = normal[i + (j * 3 + 2) * nc];
		float nlen = sqrtf(nx * nx + ny * ny + nz * nz);

		if (nb >= 0) {
			float rho_n = var[nb], mx_n = var[nb + nc], my_n = var[nb + 2 * nc];
			float mz_n = var[nb + 3 * nc], e_n = var[nb + 4 * nc];
			float vx_n = mx_n / rho_n, vy_n = my_n / rho_n, vz_n = mz_n / rho_n;
			float sq_n = vx_n * vx_n + vy_n * vy_n + vz_n * vz_n;
			float p_n = cfd_pressure(rho_n, e_n, sq_n);
			float sos_n = cfd_sound(rho_n, p_n);
			float factor = -nlen * ff.smoothing * 0.5f * (speed + sqrtf(sq_n) + sos + sos_n);
			f_rho += factor * (rho - rho_n);
			f_mx += factor * (mx - mx_n);
			f_my += factor * (my - my_n);
			f_mz += factor * (mz - mz_n);
			f_e += factor * (e - e_n);
			f_rho += 0.5f * (nx * (mx + mx_n) + ny * (my + my_n) + nz * (mz + mz_n));
			f_mx += 0.5f * (nx * (fxx + mx_n * vx_n + p_n) + ny * (fyx + my_n * vx_n) + nz * (fzx + mz_n * vx_n));
			f_my += 0.5f * (nx * (fxy + mx_n * vy_n) + ny * (fyy + my_n * vy_n + p_n) + nz * (fzy + mz_n * vy_n));
			f_mz += 0.5f * (nx * (fxz + mx_n * vz_n) + ny * (fyz + my_n * vz_n) + nz * (fzz + mz_n * vz_n + p_n));
			f_e += 0.5f * (nx * (fex + vx_n * (e_n + p_n)) + ny * (fey + vy_n * (e_n + p_n)) +
				       nz * (fez + vz_n * (e_n + p_n)));
		} else if (nb == -1) {
			f_mx += nx * p;
			f_my += ny * p;
			f_mz += nz * p;
		} else {
			f_rho += 0.5f * (nx * (mx + ff.v[1]) + ny * (my + ff.v[2]) + nz * (mz + ff.v[3]));
			f_mx += 0.5f * (nx * (fxx + ff.fc[0][0]) + ny * (fyx + ff.fc[1][0]) + nz * (fzx + ff.fc[2][0]));
			f_my += 0.5f * (nx * (fxy + ff.fc[0][1]) + ny * (fyy + ff.fc[1][1]) + nz * (fzy + ff.fc[2][1]));
			f_mz += 0.5f * (nx * (fxz + ff.fc[0][2]) + ny * (fyz + ff.fc[1][2]) + nz * (fzz + ff.fc[2][2]));
			f_e += 0.5f * (nx * (fex + ff.fc[0][3]) + ny * (fey + ff.fc[1][3]) + nz * (fez + ff.fc[2][3]));
		}
	}
	flux[i] = f_rho;
	flux[i + nc] = f_mx;
	flux[i + 2 * nc] = f_my;
	flux[i + 3 * nc] = f_mz;
	flux[i + 4 * nc] = f_e;
}

// Runge-Kutta stage k (0..CFD_RK-1): var = old + step / (CFD_RK - k) / area * flux.
extern "C" __global__ void cfd_time_step(const float *old, float *var, const float *step, const float *area,
					 const float *flux, int nc, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= nc)
		return;
	float factor = step[i] / (float)(CFD_RK - k) / area[i];
	for (int v = 0; v < CFD_NVAR; v++)
		var[i + v * nc] = old[i + v * nc] + factor * flux[i + v * nc];
}

// dst = src (the host saves the variables before the Runge-Kutta stages).
extern "C" __global__ void cfd_copy(float *dst, const float *src, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		dst[i] = src[i];
}
