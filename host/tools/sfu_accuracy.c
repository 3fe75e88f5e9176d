/*
 * sfu_accuracy: measure the MUFU approximations of host/src/sfu.c against libm
 * in double precision (docs/sfu.md section 4 lists the figures).
 *
 *   sfu_accuracy [stride]     (make sfu-accuracy)
 *
 * Every binary32 input whose bit pattern is a multiple of stride (default 1:
 * all 2^32 patterns; the make target uses a small odd stride) is evaluated;
 * per function the tool prints the largest error in units in the last place
 * of the exact result (ulp of a binary32 with the exact result's exponent;
 * 2^-149 in the subnormal range) and the input where it occurs, and for SIN
 * and COS the largest absolute error on [-pi, pi] and on the whole range.
 * Inputs whose exact result is not finite in binary32 are skipped when the
 * approximation gives the right infinity.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "sfu.h"

static double u2d(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return (double)f;
}

static double exact(unsigned fn, double x)
{
	switch (fn) {
	case WG_MUFU_RCP: return 1.0 / x;
	case WG_MUFU_RSQ: return 1.0 / sqrt(x);
	case WG_MUFU_SQRT: return sqrt(x);
	case WG_MUFU_EX2: return exp2(x);
	case WG_MUFU_LG2: return log2(x);
	case WG_MUFU_SIN: return sin(x);
	default: return cos(x);
	}
}

static double ulp_of(double y)
{
	int e;

	y = fabs(y);
	if (y < ldexp(1.0, -126))
		return ldexp(1.0, -149);
	frexp(y, &e); /* y = f x 2^e, f in [0.5, 1) */
	return ldexp(1.0, e - 24);
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "RCP", "RSQ", "SQRT", "EX2", "LG2", "SIN", "COS" };
	uint64_t stride = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	double worst[7] = { 0 }, abs_pi[2] = { 0 }, abs_all[2] = { 0 };
	uint32_t where[7] = { 0 }, where_pi[2] = { 0 }, where_all[2] = { 0 };
	uint64_t n = 0;

	if (!stride)
		stride = 1;
	for (uint64_t p = 0; p < (1ull << 32); p += stride) {
		uint32_t a = (uint32_t)p;
		double x = u2d(a);

		if (x != x)
			continue;
		n++;
		for (unsigned fn = 0; fn < 7; fn++) {
			uint32_t r = wg_sfu_mufu(fn, a);
			double y = exact(fn, x), got = u2d(r), err;

			if (y != y) {
				if (r != 0x7FFFFFFFu) {
					printf("%s(0x%08x): 0x%08x, expected NaN\n", names[fn], a, r);
					return 1;
				}
				continue;
			}
			if (isinf(got) || isinf(y)) {
				/* the exact result rounds to infinity (or is infinite) */
				if (!isinf(got) || (got > 0) != (y > 0) || fabs(y) < 0x1.ffffffp+127) {
					printf("%s(0x%08x): 0x%08x, exact %a\n", names[fn], a, r, y);
					return 1;
				}
				continue;
			}
			err = fabs(got - y) / ulp_of(y);
			if (err > worst[fn]) {
				worst[fn] = err;
				where[fn] = a;
			}
			if (fn >= WG_MUFU_SIN) {
				double ae = fabs(got - y);

				if (fabs(x) <= M_PI && ae > abs_pi[fn - WG_MUFU_SIN]) {
					abs_pi[fn - WG_MUFU_SIN] = ae;
					where_pi[fn - WG_MUFU_SIN] = a;
				}
				if (ae > abs_all[fn - WG_MUFU_SIN]) {
					abs_all[fn - WG_MUFU_SIN] = ae;
					where_all[fn - WG_MUFU_SIN] = a;
				}
			}
		}
	}
	printf("%llu inputs (stride %llu)\n", (unsigned long long)n, (unsigned long long)stride);
	for (unsigned fn = 0; fn < 7; fn++) {
		printf("%-5s max %.3f ulp at 0x%08x (%a)", names[fn], worst[fn], where[fn], u2d(where[fn]));
		if (fn >= WG_MUFU_SIN)
			printf("; abs err [-pi,pi] 2^%.2f at %a, all inputs 2^%.2f at %a", log2(abs_pi[fn - 5]),
			       u2d(where_pi[fn - 5]), log2(abs_all[fn - 5]), u2d(where_all[fn - 5]));
		printf("\n");
	}
	return 0;
}
