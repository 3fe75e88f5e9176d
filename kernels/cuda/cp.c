/*
 * cp (CUDA suite, docs/suite.md): Coulombic potential of random point
 * charges on a 2-D grid slice (kernels/cuda/cp.cu, kernel cp_energy), one
 * launch per chunk of CP_MAX_ATOMS atoms passed by value. Checked against a
 * double-precision direct sum with a tolerance relative to the sum of the
 * magnitudes of the terms (the potential cancels between charges of both
 * signs): |got - exp| <= 2^-13 * sum_j |q_j| / r_j. That covers rsqrtf's
 * approximation (a few ulp, 2^-21 relative), the FP32 rounding of positions
 * and FP32 accumulation over up to a few thousand atoms, and still catches a
 * missing or doubled atom (about 1/natoms of the scale each).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define CP_UNROLL 4
#define CP_MAX_ATOMS 240
#define BX 16
#define BY 8
#define SPACING 0.5f
#define RTOL (1.0 / 8192.0)

/* Parameter buffer of cp_energy, laid out as nvcc lays out its arguments. */
struct cp_params {
	uint64_t grid;
	int32_t nx;
	float spacing, z;
	int32_t natoms;
	float atoms[CP_MAX_ATOMS][4] __attribute__((aligned(16)));	/* x, y, z, charge */
};

static const char usage[] =
	"Coulombic potential on a grid slice (kernels/cuda/cp.cu): direct summation over\n"
	"random atoms with rsqrtf, one launch per chunk of 240 atoms.\n"
	"--n N: number of atoms (small 100 on a 128 x 16 slice, default 1000 on 256 x 256).";

int main(int argc, char **argv)
{
	struct cp_params p;
	struct wgk_rng rng;
	struct wgk k;
	float (*atom)[4], *grid, *ref;
	double *scale;
	uint32_t nx, ny, natoms, i, j, first;
	size_t n, bad;
	int ret;

	wgk_init_ptx(&k, "cp", usage, argc, argv);
	natoms = (uint32_t)wgk_size(&k, 100, 1000);
	nx = k.opt.small ? 128 : 256;
	ny = k.opt.small ? 16 : 256;
	n = (size_t)nx * ny;

	wgk_rng_init(&rng, k.opt.seed, 0);
	atom = wgk_xmalloc(&k, (size_t)natoms * sizeof(*atom));
	for (j = 0; j < natoms; j++) {
		atom[j][0] = wgk_rng_f32(&rng, 0.0f, SPACING * (float)nx);
		atom[j][1] = wgk_rng_f32(&rng, 0.0f, SPACING * (float)ny);
		atom[j][2] = wgk_rng_f32(&rng, 1.0f, 4.0f);	/* off the slice z = 0 */
		atom[j][3] = wgk_rng_f32(&rng, -1.0f, 1.0f);
	}

	/* Reference: double direct sum and the sum of the terms' magnitudes. */
	ref = wgk_xmalloc(&k, n * 4);
	scale = wgk_xmalloc(&k, n * sizeof(double));
	for (i = 0; i < n; i++) {
		double x = (double)SPACING * (i % nx), y = (double)SPACING * (i / nx), e = 0.0, s = 0.0;

		for (j = 0; j < natoms; j++) {
			double dx = x - atom[j][0], dy = y - atom[j][1], dz = 0.0 - atom[j][2];
			double t = atom[j][3] / sqrt(dx * dx + dy * dy + dz * dz);

			e += t;
			s += fabs(t);
		}
		ref[i] = (float)e;
		scale[i] = s;
	}

	memset(&p, 0, sizeof(p));
	grid = wgk_xmalloc(&k, n * 4);
	p.grid = wgk_alloc_copy(&k, grid, n * 4);	/* zeroed: the launches accumulate */
	p.nx = (int32_t)nx;
	p.spacing = SPACING;
	p.z = 0.0f;
	for (first = 0; first < natoms; first += CP_MAX_ATOMS) {
		p.natoms = (int32_t)(natoms - first < CP_MAX_ATOMS ? natoms - first : CP_MAX_ATOMS);
		memcpy(p.atoms, atom[first], (size_t)p.natoms * sizeof(*atom));
		wgk_launch(&k, "cp_energy", (wg_dim3){ nx / (BX * CP_UNROLL), ny / BY, 1 }, (wg_dim3){ BX, BY, 1 }, &p,
			   sizeof(p), 0);
	}
	wgk_download(&k, grid, p.grid, n * 4);
	bad = wgk_cmp_f32_scaled(&k, "energy", grid, ref, scale, n, RTOL);
	printf("cp: %u x %u points, %u atoms, %u launches\n", nx, ny, natoms, k.launches);
	ret = wgk_finish(&k, bad, "%ux%u,atoms=%u", nx, ny, natoms);
	free(atom);
	free(grid);
	free(ref);
	free(scale);
	return ret;
}
