/* C reference of the FP32 unit (docs/isa.md section 7, docs/fp32.md).
 *
 * Included as a header it only declares the reference. Compiled on its own as C
 * with FP32_REF_IMPLEMENTATION defined, it is the reference's translation unit:
 *   cc -x c -std=gnu11 -O2 -ffp-contract=off -DFP32_REF_IMPLEMENTATION -c fp32_ref.h
 * It must stay a separate translation unit built with -ffp-contract=off (and
 * without -ffast-math), so that a + b, a * b stay single IEEE operations and
 * fmaf is the only fused one. FADD/FSUB/FMUL/FFMA with a directed rounding (mod =
 * rounding | ftz << 2) switch the host's rounding mode around the one operation; the
 * unit is compiled with -frounding-math so the compiler keeps the operation there.
 */
#ifndef WG_FP32_REF_H
#define WG_FP32_REF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* op: wg_fp32_pkg::fp32_op_e (the ISA opcode minus 24). */
enum fp32_ref_op {
	FP32_REF_FADD,
	FP32_REF_FSUB,
	FP32_REF_FMUL,
	FP32_REF_FFMA,
	FP32_REF_FMIN,
	FP32_REF_FMAX,
	FP32_REF_FSETP,
	FP32_REF_I2F,
	FP32_REF_F2I,
	FP32_REF_FRND,
	FP32_REF_NOPS
};

#define FP32_REF_QNAN 0x7FFFFFFFu

/* The unit's result for op/mod on a, b, c; *pred gets the FSETP predicate (0 for
 * other operations). result is the predicate zero-extended for FSETP. */
uint32_t fp32_ref(unsigned op, unsigned mod, uint32_t a, uint32_t b, uint32_t c, int *pred);

/* Assembly spelling of op/mod ("FSETP.LT", "F2I.U32.RM", ...). */
const char *fp32_ref_name(unsigned op, unsigned mod);

/* The rounded product a * b as computed by the host (test stimulus only). */
uint32_t fp32_ref_mul(uint32_t a, uint32_t b);

/* Value of the bits as a double, for messages. */
double fp32_ref_value(uint32_t a);

#ifdef __cplusplus
}
#endif

#ifdef FP32_REF_IMPLEMENTATION

#include <fenv.h>
#include <math.h>
#include <string.h>

static float ref_f(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

static uint32_t ref_u(float f)
{
	uint32_t u;

	if (isnan(f))
		return FP32_REF_QNAN;
	memcpy(&u, &f, sizeof u);
	return u;
}

static int ref_is_nan(uint32_t u)
{
	return (u & 0x7FFFFFFFu) > 0x7F800000u;
}

/* minNum/maxNum with -0 < +0: a NaN operand is ignored. */
static uint32_t ref_minmax(uint32_t a, uint32_t b, int want_max)
{
	float x = ref_f(a), y = ref_f(b);

	if (ref_is_nan(a))
		return ref_is_nan(b) ? FP32_REF_QNAN : b;
	if (ref_is_nan(b))
		return a;
	if (x < y)
		return want_max ? b : a;
	if (y < x)
		return want_max ? a : b;
	/* equal values: identical bits, or +0 and -0 */
	return want_max ? (a & b) : (a | b);
}

static int ref_setp(uint32_t a, uint32_t b, unsigned cc)
{
	float x = ref_f(a), y = ref_f(b);
	int unord = ref_is_nan(a) || ref_is_nan(b);

	switch (cc & 7) {
	case 0: return !unord && x == y;
	case 1: return !unord && x != y;
	case 2: return !unord && x < y;
	case 3: return !unord && x <= y;
	case 4: return !unord && x > y;
	case 5: return !unord && x >= y;
	case 6: return !unord;
	default: return unord;
	}
}

/* Integral value by rounding mode: 0 RN, 1 RZ, 2 RM, 3 RP. */
static float ref_round(float x, unsigned rm)
{
	switch (rm & 3) {
	case 0: return nearbyintf(x);
	case 1: return truncf(x);
	case 2: return floorf(x);
	default: return ceilf(x);
	}
}

static uint32_t ref_f2i(uint32_t a, unsigned mod)
{
	float x = ref_f(a), r;

	if (isnan(x))
		return 0;
	r = ref_round(x, mod >> 1);
	if (mod & 1) {
		if (r < 0.0f)
			return 0;
		if (r >= 4294967296.0f)
			return 0xFFFFFFFFu;
		return (uint32_t)r;
	}
	if (r >= 2147483648.0f)
		return 0x7FFFFFFFu;
	if (r < -2147483648.0f)
		return 0x80000000u;
	return (uint32_t)(int32_t)r;
}

/* FTZ: a subnormal becomes the zero of its sign. */
static uint32_t ref_ftz(uint32_t u)
{
	return (u & 0x7F800000u) ? u : (u & 0x80000000u);
}

/* FADD/FSUB/FMUL/FFMA with mod = rounding (0 RN, 1 RZ, 2 RM, 3 RP) | ftz << 2:
 * the IEEE operation in that rounding mode on FTZ-flushed operands, then a subnormal
 * result flushed. */
static uint32_t ref_arith(unsigned op, unsigned mod, uint32_t a, uint32_t b, uint32_t c)
{
	static const int modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
	volatile float x, y, z, r;
	uint32_t u;

	if (mod & 4) {
		a = ref_ftz(a);
		b = ref_ftz(b);
		c = ref_ftz(c);
	}
	x = ref_f(a);
	y = ref_f(b);
	z = ref_f(c);
	fesetround(modes[mod & 3]);
	switch (op) {
	case FP32_REF_FADD: r = x + y; break;
	case FP32_REF_FSUB: r = x - y; break;
	case FP32_REF_FMUL: r = x * y; break;
	default: r = fmaf(x, y, z); break;
	}
	fesetround(FE_TONEAREST);
	u = ref_u(r);
	return (mod & 4) ? ref_ftz(u) : u;
}

uint32_t fp32_ref(unsigned op, unsigned mod, uint32_t a, uint32_t b, uint32_t c, int *pred)
{
	float x = ref_f(a);

	*pred = 0;
	switch (op) {
	case FP32_REF_FADD:
	case FP32_REF_FSUB:
	case FP32_REF_FMUL:
	case FP32_REF_FFMA: return ref_arith(op, mod & 7, a, b, c);
	case FP32_REF_FMIN: return ref_minmax(a, b, 0);
	case FP32_REF_FMAX: return ref_minmax(a, b, 1);
	case FP32_REF_FSETP: *pred = ref_setp(a, b, mod); return (uint32_t)*pred;
	case FP32_REF_I2F:
		return ref_u((mod & 1) ? (float)a : (float)(int32_t)a);
	case FP32_REF_F2I: return ref_f2i(a, mod & 7);
	case FP32_REF_FRND: return ref_u(ref_round(x, mod & 3));
	default: return 0;
	}
}

const char *fp32_ref_name(unsigned op, unsigned mod)
{
	static const char *const setp[8] = { "FSETP.EQ", "FSETP.NE", "FSETP.LT", "FSETP.LE",
					     "FSETP.GT", "FSETP.GE", "FSETP.NUM", "FSETP.NAN" };
	static const char *const f2i[8] = { "F2I.S32.RN", "F2I.U32.RN", "F2I.S32.RZ", "F2I.U32.RZ",
					    "F2I.S32.RM", "F2I.U32.RM", "F2I.S32.RP", "F2I.U32.RP" };
	static const char *const frnd[4] = { "FRND.RN", "FRND.RZ", "FRND.RM", "FRND.RP" };
	static const char *const arith[4][8] = {
		{ "FADD", "FADD.RZ", "FADD.RM", "FADD.RP", "FADD.FTZ", "FADD.RZ.FTZ", "FADD.RM.FTZ", "FADD.RP.FTZ" },
		{ "FSUB", "FSUB.RZ", "FSUB.RM", "FSUB.RP", "FSUB.FTZ", "FSUB.RZ.FTZ", "FSUB.RM.FTZ", "FSUB.RP.FTZ" },
		{ "FMUL", "FMUL.RZ", "FMUL.RM", "FMUL.RP", "FMUL.FTZ", "FMUL.RZ.FTZ", "FMUL.RM.FTZ", "FMUL.RP.FTZ" },
		{ "FFMA", "FFMA.RZ", "FFMA.RM", "FFMA.RP", "FFMA.FTZ", "FFMA.RZ.FTZ", "FFMA.RM.FTZ", "FFMA.RP.FTZ" },
	};

	switch (op) {
	case FP32_REF_FADD:
	case FP32_REF_FSUB:
	case FP32_REF_FMUL:
	case FP32_REF_FFMA: return arith[op][mod & 7];
	case FP32_REF_FMIN: return "FMIN";
	case FP32_REF_FMAX: return "FMAX";
	case FP32_REF_FSETP: return setp[mod & 7];
	case FP32_REF_I2F: return (mod & 1) ? "I2F.F32.U32" : "I2F.F32.S32";
	case FP32_REF_F2I: return f2i[mod & 7];
	case FP32_REF_FRND: return frnd[mod & 3];
	default: return "?";
	}
}

uint32_t fp32_ref_mul(uint32_t a, uint32_t b)
{
	float p = ref_f(a) * ref_f(b);
	uint32_t u;

	memcpy(&u, &p, sizeof u);
	return u;
}

double fp32_ref_value(uint32_t a)
{
	return (double)ref_f(a);
}

#endif /* FP32_REF_IMPLEMENTATION */

#endif /* WG_FP32_REF_H */
