/*
 * hotspot (CUDA suite, docs/suite.md): chip thermal simulation, Rodinia
 * style (kernels/cuda/hotspot.cu, kernel hotspot_step): HS_PYRAMID explicit
 * steps per launch on shared-memory tiles with a shrinking halo. The chip
 * constants are Rodinia's (16 mm die, 0.5 mm thick silicon); the power map
 * is scaled so that a step heats a cell by up to 0.2 K. Checked against a
 * double-precision grid iteration; tolerance normwise
 * |got - exp| <= 1e-5 * max |T| (about 3 mK): FP32 rounds the 330 K
 * temperatures to 2^-16 K, a step adds a few such roundings (and FFMA
 * contraction changes which), and errors only average out under the
 * diffusion. A missing step or a wrong neighbour costs 0.1 K or more.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define HS_BLOCK 16
#define HS_PYRAMID 2
#define RTOL 1e-5

struct hs_coef {
	float step_div_cap, rx_1, ry_1, rz_1, amb;
};

struct hs_params {
	uint64_t power, temp_in, temp_out;
	int32_t nx, ny, pyramid;
	struct hs_coef c;
};

static const char usage[] =
	"Chip thermal simulation (kernels/cuda/hotspot.cu, Rodinia's hotspot): 2 steps\n"
	"per launch on shared-memory tiles with halo; checked against double precision.\n"
	"--n N: time steps, even (small 4 on 32 x 32, default 20 on 512 x 512).";

int main(int argc, char **argv)
{
	const double chip = 0.016, t_chip = 0.0005, spec_heat = 1.75e6, k_si = 100.0, factor_chip = 0.5,
		     max_pd = 3.0e6, precision = 0.001;
	struct hs_params p;
	struct wgk_rng rng;
	struct wgk k;
	float *pw, *temp, *e;
	double *ref[2], gw, gh, cap, rx, ry, rz, step, max = 0.0;
	uint64_t d[2];
	uint32_t nx, ny, steps, s, x, y, cx, cy, outw;
	size_t n, i, bad;
	int ret;

	wgk_init_ptx(&k, "hotspot", usage, argc, argv);
	steps = (uint32_t)wgk_size(&k, 4, 20);
	if (steps % HS_PYRAMID)
		wgk_die(&k, "--n: the number of steps must be a multiple of %d", HS_PYRAMID);
	nx = ny = k.opt.small ? 32 : 512;
	n = (size_t)nx * ny;

	gw = chip / nx;
	gh = chip / ny;
	cap = factor_chip * spec_heat * t_chip * gw * gh;
	rx = gw / (2.0 * k_si * t_chip * gh);
	ry = gh / (2.0 * k_si * t_chip * gw);
	rz = t_chip / (k_si * gh * gw);
	step = precision / (max_pd / (factor_chip * t_chip * spec_heat));
	memset(&p, 0, sizeof(p));
	p.c = (struct hs_coef){ .step_div_cap = (float)(step / cap), .rx_1 = (float)(1.0 / rx),
				.ry_1 = (float)(1.0 / ry), .rz_1 = (float)(1.0 / rz), .amb = 80.0f };
	p.nx = (int32_t)nx;
	p.ny = (int32_t)ny;
	p.pyramid = HS_PYRAMID;

	wgk_rng_init(&rng, k.opt.seed, 0);
	pw = wgk_xmalloc(&k, n * 4);
	temp = wgk_xmalloc(&k, n * 4);
	ref[0] = wgk_xmalloc(&k, n * sizeof(double));
	ref[1] = wgk_xmalloc(&k, n * sizeof(double));
	for (i = 0; i < n; i++) {
		temp[i] = wgk_rng_f32(&rng, 320.0f, 340.0f);
		pw[i] = wgk_rng_f32(&rng, 0.0f, 0.2f) / p.c.step_div_cap;
		ref[0][i] = temp[i];
	}
	p.power = wgk_alloc_copy(&k, pw, n * 4);
	d[0] = wgk_alloc_copy(&k, temp, n * 4);
	d[1] = wgk_alloc(&k, n * 4);

	/* Reference: every step on the whole grid, reflecting edges. */
	for (s = 0; s < steps; s++) {
		const double *t = ref[s & 1];
		double *o = ref[(s + 1) & 1];

		for (y = 0; y < ny; y++)
			for (x = 0; x < nx; x++) {
				size_t c = (size_t)y * nx + x;
				double tc = t[c], tn = t[y + 1 < ny ? c + nx : c], ts = t[y ? c - nx : c];
				double te = t[x + 1 < nx ? c + 1 : c], tw = t[x ? c - 1 : c];

				o[c] = tc + (double)p.c.step_div_cap *
					    (pw[c] + (tn + ts - 2.0 * tc) * p.c.ry_1 + (te + tw - 2.0 * tc) * p.c.rx_1 +
					     (p.c.amb - tc) * p.c.rz_1);
			}
	}

	outw = HS_BLOCK - 2 * HS_PYRAMID;
	cx = wgk_div_up(nx, outw);
	cy = wgk_div_up(ny, outw);
	for (s = 0; s < steps / HS_PYRAMID; s++) {
		p.temp_in = d[s & 1];
		p.temp_out = d[(s + 1) & 1];
		wgk_launch(&k, "hotspot_step", (wg_dim3){ cx, cy, 1 }, (wg_dim3){ HS_BLOCK, HS_BLOCK, 1 }, &p, sizeof(p),
			   0);
	}
	wgk_download(&k, temp, d[(steps / HS_PYRAMID) & 1], n * 4);
	e = wgk_xmalloc(&k, n * 4);
	for (i = 0; i < n; i++) {
		e[i] = (float)ref[steps & 1][i];
		max = fabs(ref[steps & 1][i]) > max ? fabs(ref[steps & 1][i]) : max;
	}
	bad = wgk_cmp_f32(&k, "temp", temp, e, n, 0.0, RTOL * max);
	printf("hotspot: %u x %u grid, %u steps in %u launches of %u x %u CTAs\n", nx, ny, steps, k.launches, cx, cy);
	ret = wgk_finish(&k, bad, "%ux%u,steps=%u", nx, ny, steps);
	free(pw);
	free(temp);
	free(e);
	free(ref[0]);
	free(ref[1]);
	return ret;
}
