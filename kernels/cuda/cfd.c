/*
 * cfd (CUDA suite, docs/suite.md): finite-volume Euler solver on an
 * unstructured grid, Rodinia style (kernels/cuda/cfd.cu). The grid is a
 * lattice of cells numbered in random order (the neighbour indices jump
 * through memory like an unstructured mesh's): faces +x, -x, +y, -y; the
 * x ends are far field, the y ends walls; face normals are unit lattice
 * directions tilted by up to 0.02 in z. The cells start at the far-field
 * state (Mach 0.5) perturbed by 1%. Per iteration: cfd_copy, cfd_step_factor,
 * then three times cfd_flux and cfd_time_step. Checked against a
 * double-precision replay; tolerance per variable, normwise:
 * |got - exp| <= 1e-5 * max |variable|, the momentum components sharing the
 * largest momentum magnitude (momentum y and z stay near 0 while their
 * fluxes cancel terms of the size of the pressure, 1). A flux sums a few
 * tens of O(1) terms to about 1e-2 per face (FP32: about 1e-7 absolute
 * each), a stage adds a third of it; divisions and sqrtf are correctly
 * rounded in FP32.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define CFD_NNB 4
#define CFD_NVAR 5
#define CFD_RK 3
#define GAMMA 1.4
#define BLOCK 128
#define RTOL 1e-5

struct cfd_ff {
	float v[CFD_NVAR];
	float fc[3][4];
	float smoothing;
};

struct step_params {
	uint64_t var, area, step;
	int32_t nc;
};

struct flux_params {
	uint64_t nbr, normal, var, flux;
	int32_t nc;
	struct cfd_ff ff;
};

struct time_params {
	uint64_t old, var, step, area, flux;
	int32_t nc, k;
};

struct copy_params {
	uint64_t dst, src;
	int32_t n;
};

static const char usage[] =
	"Unstructured-grid Euler solver (kernels/cuda/cfd.cu, Rodinia's cfd): step factor,\n"
	"flux and 3-stage Runge-Kutta per iteration; checked against double precision.\n"
	"--n N: iterations (small 1 on 32 x 32 cells, default 3 on 256 x 256 cells).";

/* Pressure, speed of sound, velocity of a state (rho, mx, my, mz, e). */
static void state(const double *w, double *p, double *c, double vel[3], double *speed)
{
	double sq;

	for (int d = 0; d < 3; d++)
		vel[d] = w[1 + d] / w[0];
	sq = vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2];
	*p = (GAMMA - 1.0) * (w[4] - 0.5 * w[0] * sq);
	*c = sqrt(GAMMA * *p / w[0]);
	*speed = sqrt(sq);
}

/* Flux contributions fc[d][c] of a state: direction d, variable c (mx, my, mz, e). */
static void contrib(const double *w, double fc[3][4])
{
	double p, c, v[3], s;

	state(w, &p, &c, v, &s);
	for (int d = 0; d < 3; d++) {
		for (int m = 0; m < 3; m++)
			fc[d][m] = w[1 + m] * v[d] + (m == d ? p : 0.0);
		fc[d][3] = v[d] * (w[4] + p);
	}
}

struct mesh {
	uint32_t nc;
	int32_t *nbr;		/* [j * nc + i] */
	float *normal;		/* [(j * 3 + d) * nc + i] */
	float *area;
};

static void cpu_flux(const struct mesh *m, const double *var, double *flux, const struct cfd_ff *ff)
{
	uint32_t nc = m->nc;

	for (uint32_t i = 0; i < nc; i++) {
		double w[CFD_NVAR], wn[CFD_NVAR], fc[3][4], fcn[3][4], f[CFD_NVAR] = { 0 }, p, c, v[3], s;

		for (int q = 0; q < CFD_NVAR; q++)
			w[q] = var[i + q * nc];
		state(w, &p, &c, v, &s);
		contrib(w, fc);
		for (int j = 0; j < CFD_NNB; j++) {
			int32_t nb = m->nbr[i + j * nc];
			double n[3], nlen;

			for (int d = 0; d < 3; d++)
				n[d] = m->normal[i + (j * 3 + d) * nc];
			nlen = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
			if (nb == -1) {
				for (int d = 0; d < 3; d++)
					f[1 + d] += n[d] * p;
				continue;
			}
			if (nb >= 0) {
				double pn, cn, vn[3], sn;

				for (int q = 0; q < CFD_NVAR; q++)
					wn[q] = var[nb + q * nc];
				state(wn, &pn, &cn, vn, &sn);
				contrib(wn, fcn);
				double factor = -nlen * ff->smoothing * 0.5 * (s + sn + c + cn);
				for (int q = 0; q < CFD_NVAR; q++)
					f[q] += factor * (w[q] - wn[q]);
			} else {
				for (int q = 0; q < CFD_NVAR; q++)
					wn[q] = ff->v[q];
				for (int d = 0; d < 3; d++)
					for (int q = 0; q < 4; q++)
						fcn[d][q] = ff->fc[d][q];
			}
			for (int d = 0; d < 3; d++) {
				f[0] += 0.5 * n[d] * (w[1 + d] + wn[1 + d]);
				for (int q = 0; q < 4; q++)
					f[1 + q] += 0.5 * n[d] * (fc[d][q] + fcn[d][q]);
			}
		}
		for (int q = 0; q < CFD_NVAR; q++)
			flux[i + q * nc] = f[q];
	}
}

int main(int argc, char **argv)
{
	static const char *const name[CFD_NVAR] = { "density", "momentum_x", "momentum_y", "momentum_z", "energy" };
	struct step_params ps;
	struct flux_params pf;
	struct time_params pt;
	struct copy_params pc;
	struct wgk_rng rng;
	struct mesh m;
	struct wgk k;
	double ffw[CFD_NVAR], ffc[3][4], *var, *old, *flux, *step;
	float *h, *e;
	uint32_t side, nc, *perm, iters, it, x, y, i, j;
	size_t bad = 0, nv;
	int ret, q;

	wgk_init_ptx(&k, "cfd", usage, argc, argv);
	iters = (uint32_t)wgk_size(&k, 1, 3);
	side = k.opt.small ? 32 : 256;
	nc = m.nc = side * side;
	nv = (size_t)nc * CFD_NVAR;

	/* Far field: rho 1.4, p 1 (speed of sound 1), Mach 0.5 along x. */
	ffw[0] = 1.4;
	ffw[1] = 1.4 * 0.5;
	ffw[2] = ffw[3] = 0.0;
	ffw[4] = 1.0 / (GAMMA - 1.0) + 0.5 * 1.4 * 0.25;
	memset(&pf, 0, sizeof(pf));
	for (q = 0; q < CFD_NVAR; q++)
		pf.ff.v[q] = (float)ffw[q];
	for (q = 0; q < CFD_NVAR; q++)
		ffw[q] = pf.ff.v[q];	/* what the device sees */
	contrib(ffw, ffc);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			pf.ff.fc[i][j] = (float)ffc[i][j];
	pf.ff.smoothing = 0.2f;

	/* Mesh: lattice cell (x, y) is cell perm[y * side + x]. */
	wgk_rng_init(&rng, k.opt.seed, 0);
	perm = wgk_xmalloc(&k, (size_t)nc * 4);
	for (i = 0; i < nc; i++)
		perm[i] = i;
	for (i = nc - 1; i > 0; i--) {
		uint32_t r = wgk_rng_below(&rng, i + 1), t = perm[i];

		perm[i] = perm[r];
		perm[r] = t;
	}
	m.nbr = wgk_xmalloc(&k, (size_t)nc * CFD_NNB * 4);
	m.normal = wgk_xmalloc(&k, (size_t)nc * CFD_NNB * 3 * 4);
	m.area = wgk_xmalloc(&k, (size_t)nc * 4);
	for (y = 0; y < side; y++)
		for (x = 0; x < side; x++) {
			uint32_t c = perm[y * side + x];
			int32_t nb[CFD_NNB] = {
				x + 1 < side ? (int32_t)perm[y * side + x + 1] : -2,
				x ? (int32_t)perm[y * side + x - 1] : -2,
				y + 1 < side ? (int32_t)perm[(y + 1) * side + x] : -1,
				y ? (int32_t)perm[(y - 1) * side + x] : -1,
			};
			static const float dir[CFD_NNB][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };

			m.area[c] = wgk_rng_f32(&rng, 0.8f, 1.2f);
			for (j = 0; j < CFD_NNB; j++) {
				m.nbr[c + j * nc] = nb[j];
				m.normal[c + (j * 3 + 0) * nc] = dir[j][0];
				m.normal[c + (j * 3 + 1) * nc] = dir[j][1];
				m.normal[c + (j * 3 + 2) * nc] = wgk_rng_f32(&rng, -0.02f, 0.02f);
			}
		}

	h = wgk_xmalloc(&k, nv * 4);
	var = wgk_xmalloc(&k, nv * sizeof(double));
	old = wgk_xmalloc(&k, nv * sizeof(double));
	flux = wgk_xmalloc(&k, nv * sizeof(double));
	step = wgk_xmalloc(&k, (size_t)nc * sizeof(double));
	for (i = 0; i < nc; i++)
		for (q = 0; q < CFD_NVAR; q++) {
			h[i + q * nc] = pf.ff.v[q] + wgk_rng_f32(&rng, -0.01f, 0.01f) * (q == 2 || q == 3 ? 0.7f : pf.ff.v[q]);
			var[i + q * nc] = h[i + q * nc];
		}

	memset(&ps, 0, sizeof(ps));
	memset(&pt, 0, sizeof(pt));
	memset(&pc, 0, sizeof(pc));
	pf.nbr = wgk_alloc_copy(&k, m.nbr, (size_t)nc * CFD_NNB * 4);
	pf.normal = wgk_alloc_copy(&k, m.normal, (size_t)nc * CFD_NNB * 3 * 4);
	ps.area = pt.area = wgk_alloc_copy(&k, m.area, (size_t)nc * 4);
	ps.var = pf.var = pt.var = pc.src = wgk_alloc_copy(&k, h, nv * 4);
	pt.old = pc.dst = wgk_alloc(&k, nv * 4);
	ps.step = pt.step = wgk_alloc(&k, (size_t)nc * 4);
	pf.flux = pt.flux = wgk_alloc(&k, nv * 4);
	ps.nc = pf.nc = pt.nc = (int32_t)nc;
	pc.n = (int32_t)nv;

	for (it = 0; it < iters; it++) {
		wg_dim3 g = { wgk_div_up(nc, BLOCK), 1, 1 }, b = { BLOCK, 1, 1 };

		wgk_launch(&k, "cfd_copy", (wg_dim3){ wgk_div_up(nv, BLOCK), 1, 1 }, b, &pc, sizeof(pc), 0);
		wgk_launch(&k, "cfd_step_factor", g, b, &ps, sizeof(ps), 0);
		for (int s = 0; s < CFD_RK; s++) {
			pt.k = s;
			wgk_launch(&k, "cfd_flux", g, b, &pf, sizeof(pf), 0);
			wgk_launch(&k, "cfd_time_step", g, b, &pt, sizeof(pt), 0);
		}

		/* The same iteration in double. */
		memcpy(old, var, nv * sizeof(double));
		for (i = 0; i < nc; i++) {
			double w[CFD_NVAR], p, c, v[3], s;

			for (q = 0; q < CFD_NVAR; q++)
				w[q] = var[i + q * nc];
			state(w, &p, &c, v, &s);
			step[i] = 0.5 / (sqrt((double)m.area[i]) * (s + c));
		}
		for (int s = 0; s < CFD_RK; s++) {
			cpu_flux(&m, var, flux, &pf.ff);
			for (i = 0; i < nc; i++)
				for (q = 0; q < CFD_NVAR; q++)
					var[i + q * nc] = old[i + q * nc] +
							  step[i] / (CFD_RK - s) / m.area[i] * flux[i + q * nc];
		}
	}

	wgk_download(&k, h, pt.var, nv * 4);
	e = wgk_xmalloc(&k, (size_t)nc * 4);
	for (q = 0; q < CFD_NVAR; q++) {
		double max = 0.0;

		for (i = 0; i < nc; i++) {
			double a = q >= 1 && q <= 3 ? sqrt(var[i + nc] * var[i + nc] + var[i + 2 * nc] * var[i + 2 * nc] +
							   var[i + 3 * nc] * var[i + 3 * nc]) : fabs(var[i + q * nc]);

			e[i] = (float)var[i + q * nc];
			max = a > max ? a : max;
		}
		bad += wgk_cmp_f32(&k, name[q], h + (size_t)q * nc, e, nc, 0.0, RTOL * max);
	}
	printf("cfd: %u cells, %u iterations, %u launches\n", nc, iters, k.launches);
	ret = wgk_finish(&k, bad, "%u,iters=%u", nc, iters);
	free(perm);
	free(m.nbr);
	free(m.normal);
	free(m.area);
	free(h);
	free(e);
	free(var);
	free(old);
	free(flux);
	free(step);
	return ret;
}
