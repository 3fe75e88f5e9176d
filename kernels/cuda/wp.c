/*
 * wp (CUDA suite, docs/suite.md): a weather-like column model
 * (kernels/cuda/wp.cu, kernel wp_step): temperature, humidity and two wind
 * components on an nx x ny x nz grid, advection and diffusion from the
 * horizontal and vertical neighbours and a saturation adjustment, one launch
 * per time step. Checked against a double-precision replay; tolerance per
 * field, normwise: |got - exp| <= 1e-5 * max |field|. FP32 carries about
 * 1e-7 relative per operation over a few tens of operations per step, and
 * the saturation humidity goes through expf (the SFU's ex2) and a division;
 * the adjustment is continuous in its inputs, so near-ties in the
 * condensation test cost nothing. A wrong neighbour or coefficient moves
 * the fields by far more (about 1e-3 of the norm per step).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define BX 32
#define BY 4
#define RTOL 1e-5

struct wp_coef {
	float dt, rdx, rdy, kh, kv, lv;
};

struct wp_params {
	uint64_t in[4], out[4];	/* t, q, u, v */
	int32_t nx, ny, nz;
	struct wp_coef c;
};

static const char usage[] =
	"Weather-like column model (kernels/cuda/wp.cu): four fields, advection, diffusion\n"
	"and saturation adjustment, one launch per time step; checked against double precision.\n"
	"--n N: time steps (small 2 on 32 x 16 x 8, default 10 on 128 x 128 x 32).";

static double qsat(double t)
{
	return 3.8e-3 * exp(17.27 * (t - 273.15) / (t - 35.86));
}

static void cpu_step(double *const in[4], double *const out[4], uint32_t nx, uint32_t ny, uint32_t nz,
		     const struct wp_coef *c)
{
	size_t plane = (size_t)nx * ny;

	for (uint32_t k = 0; k < nz; k++)
		for (uint32_t j = 0; j < ny; j++)
			for (uint32_t i = 0; i < nx; i++) {
				size_t x = k * plane + j * (size_t)nx + i;
				double n[4];

				for (int f = 0; f < 4; f++)
					n[f] = in[f][x];
				if (i && j && i + 1 < nx && j + 1 < ny) {
					double uc = in[2][x], vc = in[3][x];

					for (int f = 0; f < 4; f++) {
						const double *a = in[f];
						double up = k + 1 < nz ? a[x + plane] : a[x];
						double dn = k ? a[x - plane] : a[x];
						double adv = uc * (a[x + 1] - a[x - 1]) * c->rdx +
							     vc * (a[x + nx] - a[x - nx]) * c->rdy;
						double dif = c->kh * (a[x + 1] + a[x - 1] + a[x + nx] + a[x - nx] -
								      4.0 * a[x]) + c->kv * (up + dn - 2.0 * a[x]);

						n[f] = a[x] + c->dt * (dif - adv);
					}
					double qs = qsat(n[0]);
					if (n[1] > qs) {
						double cond = 0.5 * (n[1] - qs);
						n[1] -= cond;
						n[0] += c->lv * cond;
					}
				}
				for (int f = 0; f < 4; f++)
					out[f][x] = n[f];
			}
}

int main(int argc, char **argv)
{
	static const char *const field[4] = { "t", "q", "u", "v" };
	struct wp_params p;
	struct wgk_rng rng;
	struct wgk k;
	double *ref[2][4];
	float *h[4], *e;
	uint64_t d[2][4];
	uint32_t nx, ny, nz, steps, s;
	size_t n, i, bad = 0;
	int ret, f;

	wgk_init_ptx(&k, "wp", usage, argc, argv);
	steps = (uint32_t)wgk_size(&k, 2, 10);
	nx = k.opt.small ? 32 : 128;
	ny = k.opt.small ? 16 : 128;
	nz = k.opt.small ? 8 : 32;
	n = (size_t)nx * ny * nz;

	/* Initial state: a lapse rate with noise, humidity near saturation, winds. */
	wgk_rng_init(&rng, k.opt.seed, 0);
	for (f = 0; f < 4; f++) {
		h[f] = wgk_xmalloc(&k, n * 4);
		ref[0][f] = wgk_xmalloc(&k, n * sizeof(double));
		ref[1][f] = wgk_xmalloc(&k, n * sizeof(double));
	}
	for (i = 0; i < n; i++) {
		float t = 300.0f - 3.0f * (float)(i / ((size_t)nx * ny)) + wgk_rng_f32(&rng, -2.0f, 2.0f);

		h[0][i] = t;
		h[1][i] = (float)qsat(t) * wgk_rng_f32(&rng, 0.7f, 1.1f);
		h[2][i] = wgk_rng_f32(&rng, -10.0f, 10.0f);
		h[3][i] = wgk_rng_f32(&rng, -10.0f, 10.0f);
	}
	memset(&p, 0, sizeof(p));
	p.nx = (int32_t)nx;
	p.ny = (int32_t)ny;
	p.nz = (int32_t)nz;
	p.c = (struct wp_coef){ .dt = 10.0f, .rdx = 1.0f / 2000.0f, .rdy = 1.0f / 2000.0f, .kh = 0.005f,
				.kv = 0.005f, .lv = 2500.0f };
	for (f = 0; f < 4; f++) {
		for (i = 0; i < n; i++)
			ref[0][f][i] = h[f][i];
		d[0][f] = wgk_alloc_copy(&k, h[f], n * 4);
		d[1][f] = wgk_alloc(&k, n * 4);
	}

	for (s = 0; s < steps; s++) {
		for (f = 0; f < 4; f++) {
			p.in[f] = d[s & 1][f];
			p.out[f] = d[(s + 1) & 1][f];
		}
		wgk_launch(&k, "wp_step", (wg_dim3){ wgk_div_up(nx, BX), wgk_div_up(ny, BY), 1 }, (wg_dim3){ BX, BY, 1 },
			   &p, sizeof(p), 0);
		cpu_step(ref[s & 1], ref[(s + 1) & 1], nx, ny, nz, &p.c);
	}

	e = wgk_xmalloc(&k, n * 4);
	for (f = 0; f < 4; f++) {
		double max = 0.0;

		wgk_download(&k, h[f], d[steps & 1][f], n * 4);
		for (i = 0; i < n; i++) {
			e[i] = (float)ref[steps & 1][f][i];
			max = fabs(ref[steps & 1][f][i]) > max ? fabs(ref[steps & 1][f][i]) : max;
		}
		bad += wgk_cmp_f32(&k, field[f], h[f], e, n, 0.0, RTOL * max);
	}
	printf("wp: %u x %u x %u grid, %u steps\n", nx, ny, nz, steps);
	ret = wgk_finish(&k, bad, "%ux%ux%u,steps=%u", nx, ny, nz, steps);
	for (f = 0; f < 4; f++) {
		free(h[f]);
		free(ref[0][f]);
		free(ref[1][f]);
	}
	free(e);
	return ret;
}
