/*
 * gen_sfu_tab: print host/src/sfu_table.h, the coefficient tables of the MUFU
 * approximations (docs/sfu.md section 3) and the bits of 1/(2 pi) used by the
 * sine/cosine range reduction.
 *
 *   gen_sfu_tab > host/src/sfu_table.h      (make sfu-tables)
 *
 * Each function g is split into segments of width h on its table variable z;
 * in a segment z = z0 + h s, s in [0, 1), and g(z) x 2^30 is interpolated by
 * a0 + a1 s + a2 s^2 at the three Chebyshev nodes of [0, 1]. The coefficients
 * are rounded to integers c0, c1, c2; the evaluation (host/src/sfu.c, eval)
 * uses t = s x 2^23. The table is computed with libm in double precision and
 * committed; the RTL package rtl/wg_sfu_tab_pkg.sv is derived from the
 * committed header (host/tools/gen_sfu_sv.c), so both models always use the
 * same integers whatever libm does on another machine.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F 30 /* fraction bits of a table value */

enum { FN_RCP, FN_RSQ, FN_SQRT, FN_EX2, FN_LG2, FN_SIN, FN_COUNT };

static const struct {
	const char *name;
	unsigned base, n;
	const char *what;
} fns[FN_COUNT] = {
	[FN_RCP] = { "RCP", 0, 128, "1/m, m = 1 + (j + s)/128" },
	[FN_RSQ] = { "RSQ", 128, 256, "1/sqrt(z), z = (1 + (j%128 + s)/128) x (j < 128 ? 1 : 2)" },
	[FN_SQRT] = { "SQRT", 384, 256, "sqrt(z) / 2, z as for RSQ" },
	[FN_EX2] = { "EX2", 640, 128, "2^r, r = (j + s)/128" },
	[FN_LG2] = { "LG2", 768, 128, "log2(1 + u)/u, m = 1 + (j + s)/128, u = m - 1 (m < 1.5) or m/2 - 1" },
	[FN_SIN] = { "SIN", 896, 128, "sin(pi w/2)/w, w = (j + s)/128" },
};

/* g(z) in [0.5, 2) for segment j of function fn at s in [0, 1). */
static double g(unsigned fn, unsigned j, double s)
{
	double m, z, u;

	switch (fn) {
	case FN_RCP:
		return 1.0 / (1.0 + (j + s) / 128.0);
	case FN_RSQ:
	case FN_SQRT:
		z = (1.0 + ((j & 127) + s) / 128.0) * ((j >> 7) ? 2.0 : 1.0);
		return fn == FN_RSQ ? 1.0 / sqrt(z) : sqrt(z) / 2.0;
	case FN_EX2:
		return exp2((j + s) / 128.0);
	case FN_LG2:
		m = 1.0 + (j + s) / 128.0;
		u = m < 1.5 ? m - 1.0 : m / 2.0 - 1.0;
		return log1p(u) / u / M_LN2;
	default:
		z = (j + s) / 128.0;
		return sin(M_PI / 2.0 * z) / z;
	}
}

/* Quadratic through (s_i, y_i), as a0 + a1 s + a2 s^2 (Lagrange). */
static void fit(const double s[3], const double y[3], double a[3])
{
	a[0] = a[1] = a[2] = 0.0;
	for (int i = 0; i < 3; i++) {
		double d = 1.0, p0, p1, p2;
		int j = (i + 1) % 3, k = (i + 2) % 3;

		d = (s[i] - s[j]) * (s[i] - s[k]);
		/* (s - sj)(s - sk) = s^2 - (sj + sk) s + sj sk */
		p2 = 1.0;
		p1 = -(s[j] + s[k]);
		p0 = s[j] * s[k];
		a[0] += y[i] * p0 / d;
		a[1] += y[i] * p1 / d;
		a[2] += y[i] * p2 / d;
	}
}

/* ---- 1/(2 pi) to 192 bits: pi by Machin's formula in 384-bit fixed point ---- */

#define NL 12 /* limbs of 32 bits; limb 0 is the integer part */

static void big_divs(uint32_t *a, uint32_t d)
{
	uint64_t r = 0;

	for (int i = 0; i < NL; i++) {
		uint64_t cur = r << 32 | a[i];

		a[i] = (uint32_t)(cur / d);
		r = cur % d;
	}
}

static void big_add(uint32_t *a, const uint32_t *b, int sub)
{
	int64_t c = 0;

	for (int i = NL - 1; i >= 0; i--) {
		int64_t v = (int64_t)a[i] + (sub ? -(int64_t)b[i] : (int64_t)b[i]) + c;

		a[i] = (uint32_t)v;
		c = v >> 32;
	}
}

static int big_is_zero(const uint32_t *a)
{
	for (int i = 0; i < NL; i++)
		if (a[i])
			return 0;
	return 1;
}

static int big_ge(const uint32_t *a, const uint32_t *b)
{
	for (int i = 0; i < NL; i++)
		if (a[i] != b[i])
			return a[i] > b[i];
	return 1;
}

static void big_shl1(uint32_t *a)
{
	for (int i = 0; i < NL; i++)
		a[i] = a[i] << 1 | (i + 1 < NL ? a[i + 1] >> 31 : 0);
}

/* acc += sign x mul x atan(1/n) */
static void add_atan(uint32_t *acc, unsigned n, unsigned mul, int sub)
{
	uint32_t pw[NL] = { 0 }, term[NL];

	pw[0] = mul;
	big_divs(pw, n); /* mul / n */
	for (unsigned k = 0; !big_is_zero(pw); k++) {
		memcpy(term, pw, sizeof(term));
		big_divs(term, 2 * k + 1);
		big_add(acc, term, sub ^ (int)(k & 1));
		big_divs(pw, n * n);
	}
}

static void inv_two_pi(uint64_t out[3])
{
	uint32_t pi[NL] = { 0 }, r[NL] = { 0 };

	add_atan(pi, 5, 16, 0);
	add_atan(pi, 239, 4, 1);
	big_shl1(pi); /* 2 pi */
	r[0] = 1;
	memset(out, 0, 3 * sizeof(*out));
	for (int bit = 0; bit < 192; bit++) { /* restoring division: fraction bits of 1/(2 pi) */
		big_shl1(r);
		if (big_ge(r, pi)) {
			big_add(r, pi, 1);
			out[bit / 64] |= 1ull << (63 - bit % 64);
		}
	}
	if (fabs(ldexp((double)out[0], -64) - 1.0 / (2.0 * M_PI)) > 1e-16) {
		fprintf(stderr, "gen_sfu_tab: 1/(2 pi) came out wrong\n");
		exit(1);
	}
}

int main(void)
{
	const double node[3] = { (1.0 - cos(M_PI / 6.0)) / 2.0, 0.5, (1.0 + cos(M_PI / 6.0)) / 2.0 };
	int64_t c[1024][3];
	int64_t max1 = 0, max2 = 0;
	uint64_t ip[3];

	for (unsigned fn = 0; fn < FN_COUNT; fn++) {
		for (unsigned j = 0; j < fns[fn].n; j++) {
			double y[3], a[3];

			for (int i = 0; i < 3; i++)
				y[i] = ldexp(g(fn, j, node[i]), F);
			fit(node, y, a);
			for (int i = 0; i < 3; i++)
				c[fns[fn].base + j][i] = (int64_t)llround(a[i]);
			if (llabs(c[fns[fn].base + j][1]) > max1)
				max1 = llabs(c[fns[fn].base + j][1]);
			if (llabs(c[fns[fn].base + j][2]) > max2)
				max2 = llabs(c[fns[fn].base + j][2]);
		}
	}
	if (max1 >= (1 << 25) || max2 >= (1 << 19)) {
		fprintf(stderr, "gen_sfu_tab: coefficients too wide (c1 %lld, c2 %lld)\n", (long long)max1,
		        (long long)max2);
		return 1;
	}
	inv_two_pi(ip);

	printf("/*\n"
	       " * MUFU coefficient tables (docs/sfu.md section 3).\n"
	       " *\n"
	       " * GENERATED by host/tools/gen_sfu_tab.c (make sfu-tables); do not edit.\n"
	       " * Row {c0, c1, c2} of segment j: g(z0 + h s) x 2^30 ~ c0 + c1 s + c2 s^2.\n"
	       " * c0 fits 32 bits unsigned, c1 26 bits and c2 20 bits signed.\n"
	       " * Included by host/src/sfu.c and host/tools/gen_sfu_sv.c only.\n"
	       " */\n"
	       "#ifndef WG_SFU_TABLE_H\n#define WG_SFU_TABLE_H\n\n#include <stdint.h>\n\n");
	for (unsigned fn = 0; fn < FN_COUNT; fn++)
		printf("#define WG_SFU_TAB_%s %u /* %u rows: %s */\n", fns[fn].name, fns[fn].base, fns[fn].n,
		       fns[fn].what);
	printf("#define WG_SFU_TAB_ROWS 1024\n\n");
	printf("/* 1/(2 pi): fraction bits 1..192, most significant word first. */\n");
	printf("static const uint64_t wg_sfu_inv2pi[3] = {\n\t0x%016llXull, 0x%016llXull, 0x%016llXull,\n};\n\n",
	       (unsigned long long)ip[0], (unsigned long long)ip[1], (unsigned long long)ip[2]);
	printf("static const int32_t wg_sfu_tab[WG_SFU_TAB_ROWS][3] = {\n");
	for (unsigned fn = 0; fn < FN_COUNT; fn++) {
		printf("\t/* %s */\n", fns[fn].name);
		for (unsigned j = 0; j < fns[fn].n; j++) {
			const int64_t *r = c[fns[fn].base + j];

			printf("\t{ %lld, %lld, %lld },\n", (long long)r[0], (long long)r[1], (long long)r[2]);
		}
	}
	printf("};\n\n#endif\n");
	return ferror(stdout) ? 1 : 0;
}
