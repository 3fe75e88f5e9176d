/*
 * The special-function unit's reference arithmetic (docs/sfu.md). The MUFU
 * functions are written in integer arithmetic only, step for step as
 * rtl/wg_sfu_mufu.sv computes them, so that the golden model and the RTL give
 * the same bits. FDIV and FSQRT are the host's IEEE operations (correctly
 * rounded; the build uses -ffp-contract=off and the golden model runs in
 * round-to-nearest-even), which the RTL's digit recurrence matches.
 */
#include "sfu.h"

#include <math.h>
#include <string.h>

#include "isa.h"
#include "sfu_table.h"

#define CANON_NAN 0x7FFFFFFFu
#define TB 23 /* bits of the interpolation variable t */
#define TF 30 /* fraction bits of a table value */

static int is_nan(uint32_t a)
{
	return (a & 0x7FFFFFFFu) > 0x7F800000u;
}

static int clz64(uint64_t v)
{
	return v ? __builtin_clzll(v) : 64;
}

uint32_t wg_sfu_pack(int sign, uint64_t v, int k, int sticky)
{
	uint32_t s = sign ? 0x80000000u : 0;
	int n, b, sh;
	uint64_t mant;

	if (!v)
		return s;
	n = 63 - clz64(v);        /* v's most significant bit */
	b = n + k + 127;          /* biased exponent of the result */
	if (b >= 255)
		return s | 0x7F800000u;
	sh = n - 23;              /* low bits of v below the result's last bit */
	if (b < 1)
		sh = -149 - k;    /* subnormal: the last bit is 2^-149 */
	if (sh <= 0) {
		mant = v << -sh;  /* exact (sh >= -63 here: v is at most 24 bits then) */
	} else {
		int rnd, st;

		if (sh > 64) {
			mant = 0;
			rnd = 0;
			st = 1;
		} else {
			mant = sh == 64 ? 0 : v >> sh;
			rnd = (int)(v >> (sh - 1) & 1);
			st = sh == 1 ? 0 : (v & ((1ull << (sh - 1)) - 1)) != 0;
		}
		st |= sticky;
		if (rnd && (st || (mant & 1)))
			mant++;
	}
	/* mant < 2^24 with the hidden bit (or a subnormal's < 2^23, possibly
	 * rounded up to 2^23); a carry out of the mantissa bumps the exponent. */
	mant += b >= 1 ? (uint64_t)(b - 1) << 23 : 0;
	if (mant >= 0x7F800000u)
		return s | 0x7F800000u;
	return s | (uint32_t)mant;
}

/* y = c0 + c1 s + c2 s^2 with s = t / 2^23, floor after each product. */
static int64_t eval(unsigned row, uint32_t t)
{
	const int32_t *c = wg_sfu_tab[row];
	int64_t t2 = (int64_t)((uint64_t)t * t >> TB);

	return (int64_t)c[0] + (((int64_t)c[1] * t) >> TB) + (((int64_t)c[2] * t2) >> TB);
}

/* A finite non-zero operand as m x 2^e, m = 1.f (f: 23 bits), subnormals normalised. */
static void unpack(uint32_t a, uint32_t *f, int *e)
{
	uint32_t ex = a >> 23 & 0xFF, fr = a & 0x7FFFFFu;

	if (ex) {
		*f = fr;
		*e = (int)ex - 127;
	} else {
		int lz = __builtin_clz(fr) - 8; /* fr's msb to bit 23 */

		*f = (fr << lz) & 0x7FFFFFu;
		*e = -126 - lz;
	}
}

static uint32_t mufu_rcp(uint32_t a)
{
	uint32_t s = a & 0x80000000u, f;
	int e;
	int64_t y;

	if (is_nan(a))
		return CANON_NAN;
	if ((a & 0x7FFFFFFFu) == 0x7F800000u)
		return s;
	if (!(a & 0x7FFFFFFFu))
		return s | 0x7F800000u;
	unpack(a, &f, &e);
	y = f ? eval(WG_SFU_TAB_RCP + (f >> 16), (f & 0xFFFF) << 7) : 1ll << TF;
	return wg_sfu_pack(!!s, (uint64_t)y, -TF - e, 0);
}

/* RSQ (sq = 0) and MUFU.SQRT (sq = 1). */
static uint32_t mufu_rsq_sqrt(uint32_t a, int sq)
{
	uint32_t f;
	int e, odd, h;
	int64_t y;

	if (is_nan(a))
		return CANON_NAN;
	if (!(a & 0x7FFFFFFFu))
		return sq ? a : (a & 0x80000000u) | 0x7F800000u;
	if (a & 0x80000000u)
		return CANON_NAN;
	if (a == 0x7F800000u)
		return sq ? a : 0;
	unpack(a, &f, &e);
	odd = e & 1;
	h = e >> 1; /* floor(e / 2): x = (m x 2^odd) x 2^(2h) */
	if (!f && !odd)
		y = sq ? 1ll << (TF - 1) : 1ll << TF;
	else
		y = eval((sq ? WG_SFU_TAB_SQRT : WG_SFU_TAB_RSQ) + (unsigned)odd * 128 + (f >> 16), (f & 0xFFFF) << 7);
	return sq ? wg_sfu_pack(0, (uint64_t)y, h + 1 - TF, 0) : wg_sfu_pack(0, (uint64_t)y, -h - TF, 0);
}

static uint32_t mufu_ex2(uint32_t a)
{
	uint32_t ex = a >> 23 & 0xFF, fr;
	int64_t x, i;
	int64_t y;

	if (is_nan(a))
		return CANON_NAN;
	if (ex >= 127 + 8) /* |a| >= 256, or infinite */
		return (a & 0x80000000u) ? 0 : 0x7F800000u;
	/* x = a x 2^30 rounded toward zero: 1.f x 2^(ex - 127 + 30 - 23). */
	if (ex < 127 - 30 - 1) {
		x = 0;
	} else {
		uint64_t m = (a & 0x7FFFFFu) | 0x800000u;
		int sh = (int)ex - 127 + 30 - 23;

		x = (int64_t)(sh >= 0 ? m << sh : m >> -sh);
	}
	if (a & 0x80000000u)
		x = -x;
	i = x >> 30;          /* floor */
	fr = (uint32_t)(x & 0x3FFFFFFF);
	y = fr ? eval(WG_SFU_TAB_EX2 + (fr >> 23), fr & 0x7FFFFF) : 1ll << TF;
	return wg_sfu_pack(0, (uint64_t)y, (int)i - TF, 0);
}

static uint32_t mufu_lg2(uint32_t a)
{
	uint32_t f;
	int e;
	int64_t u, y, r;

	if (is_nan(a))
		return CANON_NAN;
	if (!(a & 0x7FFFFFFFu))
		return 0xFF800000u;
	if (a & 0x80000000u)
		return CANON_NAN;
	if (a == 0x7F800000u)
		return a;
	unpack(a, &f, &e);
	/* m >= 1.5: x = (m/2) x 2^(e+1), u = m/2 - 1 in [-1/4, 0); else u = m - 1. */
	if (f >= 0x400000u) {
		e++;
		u = (int64_t)f - 0x800000;      /* u x 2^24 */
	} else {
		u = (int64_t)f * 2;
	}
	y = eval(WG_SFU_TAB_LG2 + (f >> 16), (f & 0xFFFF) << 7); /* log2(1+u)/u x 2^30 */
	r = ((int64_t)e << 54) + u * y;  /* log2(x) x 2^54 */
	return r < 0 ? wg_sfu_pack(1, (uint64_t)-r, -54, 0) : wg_sfu_pack(0, (uint64_t)r, -54, 0);
}

/* SIN (cos = 0) and COS (cos = 1). */
static uint32_t mufu_sincos(uint32_t a, int cos)
{
	uint32_t ex = a >> 23 & 0xFF, q, s;
	uint64_t m, cw, u, w, wt;
	int e, sh;
	unsigned __int128 p;
	int64_t y;

	if (ex == 0xFF)
		return CANON_NAN;
	if (ex < 127 - 12) /* |a| < 2^-12: sin a rounds to a, cos a to 1 */
		return cos ? 0x3F800000u : a;
	m = (a & 0x7FFFFFu) | 0x800000u;
	e = (int)ex - 127 - 23; /* |a| = m x 2^e, e in [-35, 104] */
	/* The 64 bits of 1/(2 pi) at fraction bits s+1 .. s+64, s = max(e, 0):
	 * the bits above give whole turns. */
	sh = e > 0 ? e : 0;
	{
		unsigned __int128 hi = (unsigned __int128)wg_sfu_inv2pi[0] << 64 | wg_sfu_inv2pi[1];
		unsigned lo_sh = 128 - (unsigned)sh;  /* window [sh, sh + 64) of the 192 bits */

		if (sh == 0)
			cw = wg_sfu_inv2pi[0];
		else if (sh < 64)
			cw = (uint64_t)(hi >> (64 - sh));
		else
			cw = (uint64_t)((((unsigned __int128)wg_sfu_inv2pi[1] << 64 | wg_sfu_inv2pi[2]) >> (lo_sh)));
	}
	p = (unsigned __int128)m * cw;
	u = (uint64_t)(e < 0 ? p >> -e : p); /* turns x 2^64, modulo whole turns */
	if (a & 0x80000000u)
		u = -u;
	if (cos)
		u += 1ull << 62;
	q = (uint32_t)(u >> 62);
	w = u & ((1ull << 62) - 1);  /* position in the quadrant x 2^62 */
	if (q & 1) {
		w = (1ull << 62) - w;
		if (w == 1ull << 62)
			return (q & 2) ? 0xBF800000u : 0x3F800000u;
	}
	s = q >> 1;
	if (!w)
		return s ? 0x80000000u : 0;
	y = eval(WG_SFU_TAB_SIN + (uint32_t)(w >> 55), (uint32_t)(w >> 32) & 0x7FFFFF); /* sin(pi w/2)/w x 2^30 */
	wt = w >> 22;                /* w x 2^40 */
	p = (unsigned __int128)wt * (uint64_t)y;  /* sin x 2^70 */
	return wg_sfu_pack((int)s, (uint64_t)(p >> 8), -62, 0);
}

uint32_t wg_sfu_mufu(unsigned fn, uint32_t a)
{
	switch (fn) {
	case WG_MUFU_RCP: return mufu_rcp(a);
	case WG_MUFU_RSQ: return mufu_rsq_sqrt(a, 0);
	case WG_MUFU_SQRT: return mufu_rsq_sqrt(a, 1);
	case WG_MUFU_EX2: return mufu_ex2(a);
	case WG_MUFU_LG2: return mufu_lg2(a);
	case WG_MUFU_SIN: return mufu_sincos(a, 0);
	case WG_MUFU_COS: return mufu_sincos(a, 1);
	default: return CANON_NAN;
	}
}

static float u2f(uint32_t u)
{
	float x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

static uint32_t fres(float x)
{
	uint32_t u;

	if (x != x)
		return CANON_NAN;
	memcpy(&u, &x, sizeof(u));
	return u;
}

uint32_t wg_sfu_fdiv(uint32_t a, uint32_t b)
{
	return fres(u2f(a) / u2f(b));
}

uint32_t wg_sfu_fsqrt(uint32_t a)
{
	return fres(sqrtf(u2f(a)));
}

uint32_t wg_sfu_idiv(uint32_t a, uint32_t b, int is_unsigned)
{
	if (!b)
		return 0xFFFFFFFFu;
	if (is_unsigned)
		return a / b;
	if (a == 0x80000000u && b == 0xFFFFFFFFu)
		return a;
	return (uint32_t)((int32_t)a / (int32_t)b);
}

uint32_t wg_sfu_irem(uint32_t a, uint32_t b, int is_unsigned)
{
	if (!b)
		return a;
	if (is_unsigned)
		return a % b;
	if (a == 0x80000000u && b == 0xFFFFFFFFu)
		return 0;
	return (uint32_t)((int32_t)a % (int32_t)b);
}
