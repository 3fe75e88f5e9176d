// wp.cu: a weather-like column model in the manner of the WP benchmark (a
// numerical weather prediction code): one thread per horizontal grid
// column marches up through WP levels and updates four fields (temperature,
// humidity, two wind components) by advection and diffusion from its four
// horizontal neighbours and the levels above and below, then applies a
// saturation adjustment (Tetens' formula: expf and a division) that
// condenses excess humidity and releases latent heat. Three levels of four
// fields plus the neighbours' values and the coefficients are live at once:
// many registers per thread. Edge columns keep their values.

struct wp_coef {
	float dt;	// time step
	float rdx;	// 1 / (2 dx)
	float rdy;	// 1 / (2 dy)
	float kh;	// horizontal diffusion (per step and unit of the Laplacian)
	float kv;	// vertical diffusion
	float lv;	// latent heat / heat capacity
};

extern "C" __global__ void wp_step(const float *t, const float *q, const float *u, const float *v, float *t2,
				   float *q2, float *u2, float *v2, int nx, int ny, int nz, wp_coef c)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int j = blockIdx.y * blockDim.y + threadIdx.y;

	if (i >= nx || j >= ny)
		return;
	int plane = nx * ny;
	int idx = j * nx + i;
	bool edge = i == 0 || j == 0 || i == nx - 1 || j == ny - 1;
	float tb = t[idx], qb = q[idx], ub = u[idx], vb = v[idx];	// level below
	float tc = tb, qc = qb, uc = ub, vc = vb;			// this level

	for (int k = 0; k < nz; k++, idx += plane) {
		float ta, qa, ua, va;					// level above
		if (k + 1 < nz) {
			ta = t[idx + plane];
			qa = q[idx + plane];
			ua = u[idx + plane];
			va = v[idx + plane];
		} else {
			ta = tc;
			qa = qc;
			ua = uc;
			va = vc;
		}
		float tn = tc, qn = qc, un = uc, vn = vc;
		if (!edge) {
			float te = t[idx + 1], tw = t[idx - 1], tnn = t[idx + nx], ts = t[idx - nx];
			float qe = q[idx + 1], qw = q[idx - 1], qnn = q[idx + nx], qs = q[idx - nx];
			float ue = u[idx + 1], uw = u[idx - 1], unn = u[idx + nx], us = u[idx - nx];
			float ve = v[idx + 1], vw = v[idx - 1], vnn = v[idx + nx], vs = v[idx - nx];

			float adv_t = uc * (te - tw) * c.rdx + vc * (tnn - ts) * c.rdy;
			float adv_q = uc * (qe - qw) * c.rdx + vc * (qnn - qs) * c.rdy;
			float adv_u = uc * (ue - uw) * c.rdx + vc * (unn - us) * c.rdy;
			float adv_v = uc * (ve - vw) * c.rdx + vc * (vnn - vs) * c.rdy;
			float dif_t = c.kh * (te + tw + tnn + ts - 4.0f * tc) + c.kv * (ta + tb - 2.0f * tc);
			float dif_q = c.kh * (qe + qw + qnn + qs - 4.0f * qc) + c.kv * (qa + qb - 2.0f * qc);
			float dif_u = c.kh * (ue + uw + unn + us - 4.0f * uc) + c.kv * (ua + ub - 2.0f * uc);
			float dif_v = c.kh * (ve + vw + vnn + vs - 4.0f * vc) + c.kv * (va + vb - 2.0f * vc);
			tn = tc + c.dt * (dif_t - adv_t);
			qn = qc + c.dt * (dif_q - adv_q);
			un = uc + c.dt * (dif_u - adv_u);
			vn = vc + c.dt * (dif_v - adv_v);

			// Saturation adjustment: condense half the excess over the
			// saturation humidity, warming the air.
			float qsat = 3.8e-3f * expf(17.27f * (tn - 273.15f) / (tn - 35.86f));
			if (qn > qsat) {
				float cond = 0.5f * (qn - qsat);
				qn -= cond;
				tn += c.lv * cond;
			}
		}
		t2[idx] = tn;
		q2[idx] = qn;
		u2[idx] = un;
		v2[idx] = vn;
		tb = tc; qb = qc; ub = uc; vb = vc;
		tc = ta; qc = qa; uc = ua; vc = va;
	}
}
