/* cmocka tests of the golden model: loads, stores and atomics in every memory space. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "func_fixture.h"
#include "memrules.h"

struct io_params {
	uint64_t in, out;
};

static void fill_pattern(uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(0x80 + 37 * i);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check_loads(struct fx *f, const char *ld)
{
	char src[2048];
	uint8_t in[64];
	uint32_t want[16];
	const uint32_t *out;
	struct io_params p;

	snprintf(src, sizeof(src),
	         ".kernel loads\n"
	         ".regs 24\n"
	         ".param ptr in\n"
	         ".param ptr out\n"
	         "    LDC.32 R0, [in]\n"
	         "    LDC.32 R1, [out]\n"
	         "    %1$s.U8 R4, [R0]\n"
	         "    %1$s.S8 R5, [R0]\n"
	         "    %1$s.U8 R6, [R0+1]\n"
	         "    %1$s.S8 R7, [R0+1]\n"
	         "    %1$s.U16 R8, [R0+2]\n"
	         "    %1$s.S16 R9, [R0+2]\n"
	         "    %1$s.S16 R10, [R0+6]\n"
	         "    %1$s.32 R11, [R0+4]\n"
	         "    %1$s.64 R12, [R0+8]\n"
	         "    %1$s.128 R16, [R0+32]\n"
	         "    IADD R0, R0, 40\n"
	         "    %1$s.32 R14, [R0-24]\n"          /* negative offsets wrap modulo 2^32 */
	         "    %1$s.U8 R15, [R0-7]\n"
	         "    STG.128 [R1], R4\n"
	         "    STG.128 [R1+16], R8\n"
	         "    STG.128 [R1+32], R12\n"
	         "    STG.128 [R1+48], R16\n"
	         "    EXIT\n",
	         ld);
	fill_pattern(in, sizeof(in));
	in[6] = 0xFF;
	in[7] = 0x7F;
	p.in = fx_upload(f, in, sizeof(in));
	p.out = fx_alloc(f, 64);
	fx_run(f, fx_asm(f, src), fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	out = fx_ptr(f, (uint32_t)p.out, 64);

	want[0] = in[0];
	want[1] = (uint32_t)(int32_t)(int8_t)in[0];
	want[2] = in[1];
	want[3] = (uint32_t)(int32_t)(int8_t)in[1];
	want[4] = (uint32_t)in[2] | (uint32_t)in[3] << 8;
	want[5] = (uint32_t)(int32_t)(int16_t)want[4];
	want[6] = 0x7FFF; /* bytes 6,7 = ff 7f: positive */
	want[7] = le32(in + 4);
	want[8] = le32(in + 8);
	want[9] = le32(in + 12);
	want[10] = le32(in + 16);
	want[11] = in[33];
	for (int i = 0; i < 4; i++)
		want[12 + i] = le32(in + 32 + 4 * i);
	assert_true(in[0] & 0x80); /* the S8 case is negative */
	assert_true(in[3] & 0x80); /* the S16 case is negative */
	assert_int_equal(want[1] >> 8, 0xFFFFFF);
	assert_int_equal(want[5] >> 16, 0xFFFF);
	for (int i = 0; i < 16; i++)
		if (out[i] != want[i])
			print_error("%s word %d: got 0x%08x, want 0x%08x\n", ld, i, out[i], want[i]);
	assert_memory_equal(out, want, sizeof(want));
	assert_int_equal(f->st.gld_bytes, 1 + 1 + 1 + 1 + 2 + 2 + 2 + 4 + 8 + 16 + 4 + 1);
	assert_int_equal(f->st.gst_bytes, 64);
}

static void global_loads_of_every_width_and_sign_extension(void **state)
{
	check_loads(*state, "LDG");
}

static void non_caching_global_loads_match(void **state)
{
	check_loads(*state, "LDG.CG");
}

static void stores_of_every_width_write_only_their_bytes(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel stores\n"
		".regs 8\n"
		".param ptr in\n"
		".param ptr out\n"
		"    LDC.32 R0, [out]\n"
		"    MOV R4, 0x44332211\n"
		"    MOV R5, 0x88776655\n"
		"    MOV R6, 0xccbbaa99\n"
		"    MOV R7, 0x00ffeedd\n"
		"    STG.8 [R0+1], R4\n"
		"    STG.16 [R0+4], R4\n"
		"    STG.32 [R0+8], R4\n"
		"    STG.64 [R0+16], R4\n"
		"    STG.128 [R0+32], R4\n"
		"    STG.128 [R0+48], RZ\n" /* RZ group stores zeros */
		"    STG.64 [R0+64], RZ\n"
		"    EXIT\n");
	uint8_t want[80];
	struct io_params p = { 0, fx_alloc(f, 80) };
	static const uint8_t v[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		                       0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00 };

	memset(fx_ptr(f, (uint32_t)p.out, 80), 0xEE, 80);
	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	memset(want, 0xEE, sizeof(want));
	want[1] = 0x11;
	memcpy(want + 4, v, 2);
	memcpy(want + 8, v, 4);
	memcpy(want + 16, v, 8);
	memcpy(want + 32, v, 16);
	memset(want + 48, 0, 24);
	assert_memory_equal(fx_ptr(f, (uint32_t)p.out, 80), want, 80);
	assert_int_equal(f->st.gst_bytes, 1 + 2 + 4 + 8 + 16 + 16 + 8);
}

static void vector_load_into_rz_discards(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel ldrz\n"
		".regs 8\n"
		".param ptr in\n"
		".param ptr out\n"
		"    LDC.32 R0, [in]\n"
		"    LDC.32 R1, [out]\n"
		"    LDG.128 RZ, [R0]\n"
		"    LDG.64 RZ, [R0]\n"
		"    LDG.32 RZ, [R0]\n"
		"    IADD R2, RZ, 5\n"
		"    STG.32 [R1], R2\n"
		"    EXIT\n");
	uint8_t in[16];
	struct io_params p;

	fill_pattern(in, 16);
	p.in = fx_upload(f, in, 16);
	p.out = fx_alloc(f, 4);
	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	assert_int_equal(*(uint32_t *)fx_ptr(f, (uint32_t)p.out, 4), 5);
}

struct ldc_params {
	uint8_t a;
	int8_t b;
	uint16_t c;
	int16_t d;
	uint16_t pad0;
	uint32_t e;
	float g;
	uint64_t h;
	uint64_t out;
};

static void ldc_reads_parameters_by_name_and_offset(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel params\n"
		".regs 16\n"
		".param u8 a\n"
		".param s8 b\n"
		".param u16 c\n"
		".param s16 d\n"
		".param u32 e\n"
		".param f32 g\n"
		".param u64 h\n"
		".param ptr out\n"
		"    LDC.U8 R0, [a]\n"
		"    LDC.S8 R1, [b]\n"
		"    LDC.U16 R2, [c]\n"
		"    LDC.S16 R3, [d]\n"
		"    LDC.32 R4, [e]\n"
		"    LDC.32 R5, [g]\n"
		"    LDC.64 R6, [h]\n"
		"    LDC.128 R8, [0]\n"
		"    LDC.32 R12, [h+4]\n"
		"    LDC.32 R13, [out]\n"
		"    STG.128 [R13], R0\n"
		"    STG.128 [R13+16], R4\n"
		"    STG.128 [R13+32], R8\n"
		"    STG.32 [R13+48], R12\n"
		"    EXIT\n");
	struct ldc_params p = { 0xF0, -3, 0xBEEF, -2, 0, 0xCAFEF00D, 1.5f, 0x0123456789ABCDEFull, 0 };
	uint32_t want[13], words[4];

	assert_int_equal(k->param_bytes, sizeof(p));
	p.out = fx_alloc(f, 52);
	memcpy(words, &p, 16);
	want[0] = 0xF0;
	want[1] = 0xFFFFFFFDu;
	want[2] = 0xBEEF;
	want[3] = 0xFFFFFFFEu;
	want[4] = 0xCAFEF00Du;
	want[5] = 0x3FC00000u;
	want[6] = 0x89ABCDEFu;
	want[7] = 0x01234567u;
	memcpy(want + 8, words, 16);
	want[12] = 0x01234567u;
	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	assert_memory_equal(fx_ptr(f, (uint32_t)p.out, 52), want, 52);
}

struct out_params {
	uint64_t out;
};

static void shared_window_is_static_plus_dynamic(void **state)
{
	struct fx *f = *state;
	/* 16 static + 48 dynamic bytes: 16 threads each own one word; the last word is at 60. */
	const struct wg_kernel *k = fx_asm(f,
		".kernel shwin\n"
		".regs 12\n"
		".shared 16\n"
		".param ptr out\n"
		"    S2R R0, SR_TID.X\n"
		"    SHL R1, R0, 2\n"
		"    IMUL R2, R0, 3\n"
		"    STS.32 [R1], R2\n"
		"    XOR R1, R1, 60\n"             /* read the mirror thread's word */
		"    LDS.32 R3, [R1]\n"
		"    LDS.U16 R4, [62]\n"
		"    LDS.U8 R5, [63]\n"
		"    LDC.32 R11, [out]\n"
		"    SHL R1, R0, 4\n"
		"    IADD R11, R11, R1\n"
		"    STG.32 [R11], R3\n"
		"    STG.32 [R11+4], R4\n"
		"    STG.32 [R11+8], R5\n"
		"    LDS.128 R4, [48]\n"
		"    STG.32 [R11+12], R7\n"
		"    EXIT\n");
	struct out_params p = { fx_alloc(f, 16 * 16) };
	const uint32_t *o;

	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(16, 1, 1), &p, 48);
	o = fx_ptr(f, (uint32_t)p.out, 256);
	for (uint32_t t = 0; t < 16; t++) {
		assert_int_equal(o[4 * t], 3 * (15 - t));
		assert_int_equal(o[4 * t + 1], 0);       /* high half of 45 */
		assert_int_equal(o[4 * t + 2], 0);
		assert_int_equal(o[4 * t + 3], 3 * 15);  /* word 15 of LDS.128 [48] */
	}
	assert_int_equal(f->st.shst_bytes, 16 * 4);
	assert_int_equal(f->st.shld_bytes, 16 * (4 + 2 + 1 + 16));
}

static void shared_memory_is_per_cta_and_starts_zero(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel shcta\n"
		".regs 8\n"
		".shared 4\n"
		".param ptr out\n"
		"    S2R R0, SR_CTAID.X\n"
		"    LDS.32 R1, [0]\n"        /* what the previous CTA left would show here */
		"    ATOMS.ADD RZ, [RZ], 1\n"
		"    LDC.32 R2, [out]\n"
		"    SHL R3, R0, 2\n"
		"    IADD R2, R2, R3\n"
		"    S2R R4, SR_TID.X\n"
		"    ISETP.EQ P0, R4, 0\n"
		"    LDS.32 R5, [0]\n"
		"    IADD R1, R1, R5\n"
		"@P0 STG.32 [R2], R1\n"
		"    EXIT\n");
	struct out_params p = { fx_alloc(f, 4 * 4) };
	const uint32_t *o;

	fx_run(f, k, fx_dim(4, 1, 1), fx_dim(32, 1, 1), &p, 0);
	o = fx_ptr(f, (uint32_t)p.out, 16);
	for (int c = 0; c < 4; c++)
		assert_int_equal(o[c], 32);
}

static void local_memory_is_private_per_thread(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel loc\n"
		".regs 12\n"
		".local 32\n"
		".param ptr out\n"
		"    S2R R0, SR_TID.X\n"
		"    LDL.32 R8, [28]\n"           /* starts zero */
		"    IMUL R4, R0, 3\n"
		"    IADD R5, R0, 1000\n"
		"    MOV R6, 0x11223344\n"
		"    NOT R7, R0\n"
		"    STL.32 [0], R4\n"
		"    STL.16 [4], R5\n"
		"    STL.8 [7], R0\n"
		"    STL.64 [8], R4\n"
		"    STL.128 [16], R4\n"
		"    LDL.32 R1, [0]\n"
		"    LDL.U16 R2, [4]\n"
		"    LDL.U8 R3, [7]\n"
		"    LDL.128 R4, [16]\n"
		"    LDL.64 R10, [8]\n"
		"    IADD R9, R10, R11\n"
		"    LDC.32 R10, [out]\n"
		"    SHL R11, R0, 5\n"
		"    IADD R10, R10, R11\n"
		"    STG.128 [R10], R0\n"
		"    STG.128 [R10+16], R4\n"
		"    STG.32 [R10+16], R8\n"
		"    STG.32 [R10+28], R9\n"
		"    EXIT\n");
	struct out_params p = { fx_alloc(f, 96 * 32) };
	const uint32_t *o;

	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(96, 1, 1), &p, 0);
	o = fx_ptr(f, (uint32_t)p.out, 96 * 32);
	for (uint32_t t = 0; t < 96; t++) {
		const uint32_t *r = o + 8 * t;

		assert_int_equal(r[0], t);
		assert_int_equal(r[1], 3 * t);
		assert_int_equal(r[2], t + 1000);
		assert_int_equal(r[3], t & 0xFF);
		assert_int_equal(r[4], 0);          /* LDL [28] before any store */
		assert_int_equal(r[5], t + 1000);
		assert_int_equal(r[6], 0x11223344);
		assert_int_equal(r[7], 3 * t + t + 1000);
	}
	assert_int_equal(f->st.local_st_bytes, 96 * (4 + 2 + 1 + 8 + 16));
	assert_int_equal(f->st.local_ld_bytes, 96 * (4 + 4 + 2 + 1 + 16 + 8));
}

static void same_address_stores_keep_the_highest_lane(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel same\n"
		".regs 4\n"
		".param ptr out\n"
		"    S2R R0, SR_LANEID\n"
		"    LDC.32 R1, [out]\n"
		"    ISETP.LT P0, R0, 20\n"
		"    STG.32 [R1], R0\n"
		"@P0 STG.32 [R1+4], R0\n"
		"    STS.32 [0], R0\n"
		"    LDS.32 R2, [0]\n"
		"    STG.32 [R1+8], R2\n"
		"    EXIT\n");
	struct out_params p = { fx_alloc(f, 12) };
	const uint32_t *o;

	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(32, 1, 1), &p, 4);
	o = fx_ptr(f, (uint32_t)p.out, 12);
	assert_int_equal(o[0], 31);
	assert_int_equal(o[1], 19);
	assert_int_equal(o[2], 31);
}

static void uniform_address_loads_respect_the_execution_mask(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel uni\n"
		".regs 6\n"
		".shared 8\n"
		".param u32 n\n"
		".param ptr out\n"
		"    S2R R0, SR_LANEID\n"
		"    MOV R3, 0xabcd1234\n"
		"    STS.32 [RZ], R3\n"
		"    MOV R2, 7\n"
		"    ISETP.LT P0, R0, 5\n"
		"    ISETP.GE P1, R0, 5\n"
		"    ISETP.LT P2, R0, 10\n"
		"    PLOP.AND P1, P1, P2\n"
		"@P0 LDC.32 R2, [n]\n"          /* lanes 0..4 */
		"@P1 LDS.S16 R2, [2]\n"         /* lanes 5..9 */
		"    LDC.U8 R4, [n+1]\n"        /* every lane */
		"    IADD R2, R2, R4\n"
		"    LDC.32 R4, [out]\n"
		"    S2R R5, SR_TID.X\n"
		"    SHL R5, R5, 2\n"
		"    IADD R4, R4, R5\n"
		"    STG.32 [R4], R2\n"
		"    EXIT\n");
	struct {
		uint32_t n, pad;
		uint64_t out;
	} p = { 0x00000500u, 0, fx_alloc(f, 40 * 4) };
	const uint32_t *o;

	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(40, 1, 1), &p, 0);
	o = fx_ptr(f, (uint32_t)p.out, 40 * 4);
	for (uint32_t t = 0; t < 40; t++) {
		uint32_t lane = t % 32, want = lane < 5 ? 0x500u : lane < 10 ? 0xFFFFABCDu : 7;

		assert_int_equal(o[t], want + 5);
	}
}

/* ------------------------------------------------------------------------ */
/* Atomics                                                                   */

struct atom_params {
	uint64_t word, out, b;
};

struct atom_case {
	const char *op;
	uint32_t init;
	uint32_t (*f)(uint32_t old, uint32_t b, uint32_t c);
	uint32_t (*bval)(unsigned lane);
};

static uint32_t f_add(uint32_t o, uint32_t b, uint32_t c) { (void)c; return o + b; }
static uint32_t f_mins(uint32_t o, uint32_t b, uint32_t c) { (void)c; return (int32_t)o < (int32_t)b ? o : b; }
static uint32_t f_maxs(uint32_t o, uint32_t b, uint32_t c) { (void)c; return (int32_t)o > (int32_t)b ? o : b; }
static uint32_t f_minu(uint32_t o, uint32_t b, uint32_t c) { (void)c; return o < b ? o : b; }
static uint32_t f_maxu(uint32_t o, uint32_t b, uint32_t c) { (void)c; return o > b ? o : b; }
static uint32_t f_exch(uint32_t o, uint32_t b, uint32_t c) { (void)o; (void)c; return b; }
static uint32_t f_cas(uint32_t o, uint32_t b, uint32_t c) { return o == b ? c : o; }
static uint32_t f_and(uint32_t o, uint32_t b, uint32_t c) { (void)c; return o & b; }
static uint32_t f_or(uint32_t o, uint32_t b, uint32_t c) { (void)c; return o | b; }
static uint32_t f_xor(uint32_t o, uint32_t b, uint32_t c) { (void)c; return o ^ b; }
static uint32_t f_inc(uint32_t o, uint32_t b, uint32_t c) { (void)c; return o >= b ? 0 : o + 1; }
static uint32_t f_dec(uint32_t o, uint32_t b, uint32_t c) { (void)c; return (o == 0 || o > b) ? b : o - 1; }

static uint32_t f_fadd(uint32_t o, uint32_t b, uint32_t c)
{
	float x, y, r;

	(void)c;
	memcpy(&x, &o, 4);
	memcpy(&y, &b, 4);
	r = x + y;
	memcpy(&o, &r, 4);
	return o;
}

static uint32_t b_lane(unsigned lane) { return lane * 7 + 1; }
static uint32_t b_signed(unsigned lane) { return lane * 0x10000001u - 0x40000000u * (lane % 3); }
static uint32_t b_bits(unsigned lane) { return ~(1u << lane) ^ (lane * 0x01010101u); }
static uint32_t b_small(unsigned lane) { return lane % 3 + 3; }
static uint32_t b_cas(unsigned lane) { return lane < 5 ? 100 + lane : 100 + lane % 5; }

static uint32_t b_float(unsigned lane)
{
	float v = lane == 0 ? 16777216.0f : (lane % 4 == 3 ? 3.0f : 1.0f);
	uint32_t u;

	memcpy(&u, &v, 4);
	return u;
}

static const struct atom_case atom_cases[] = {
	{ "ADD", 0xFFFFFF00u, f_add, b_lane },
	{ "MIN.S32", 0x7FFFFFFFu, f_mins, b_signed },
	{ "MAX.S32", 0x80000000u, f_maxs, b_signed },
	{ "MIN.U32", 0xFFFFFFFFu, f_minu, b_signed },
	{ "MAX.U32", 0, f_maxu, b_signed },
	{ "EXCH", 0x12345678u, f_exch, b_lane },
	{ "CAS", 100, f_cas, b_cas },
	{ "AND", 0xFFFFFFFFu, f_and, b_bits },
	{ "OR", 0, f_or, b_bits },
	{ "XOR", 0x5A5A5A5Au, f_xor, b_bits },
	{ "INC", 0, f_inc, b_small },
	{ "DEC", 1, f_dec, b_small },
	{ "ADD.F32", 0, f_fadd, b_float },
};

/*
 * 32 lanes of one warp apply op to one word with per-lane operand b
 * (and, for CAS, new value 100 + lane + 1); returns are checked against
 * ascending lane order.
 */
static void check_atomic(struct fx *f, const struct atom_case *ac, int shared)
{
	char src[2048];
	uint32_t b[32], want_old[32], word = ac->init;
	const char *sp = shared ? "ATOMS" : "ATOMG";
	struct atom_params p;
	const uint32_t *o;
	int is_cas = !strcmp(ac->op, "CAS");

	for (unsigned l = 0; l < 32; l++) {
		b[l] = ac->bval(l);
		want_old[l] = word;
		word = ac->f(word, b[l], 100 + l + 1);
	}
	snprintf(src, sizeof(src),
	         ".kernel atom\n"
	         ".regs 10\n"
	         ".shared 16\n"
	         ".param ptr word\n"
	         ".param ptr out\n"
	         ".param ptr b\n"
	         "    S2R R0, SR_TID.X\n"
	         "    SHL R1, R0, 2\n"
	         "    LDC.32 R2, [b]\n"
	         "    IADD R2, R2, R1\n"
	         "    LDG.32 R3, [R2]\n"
	         "    LDC.32 R4, [word]\n"
	         "    IADD R7, R0, 101\n"
	         "%s"
	         "    %s.%s R5, [R4], R3%s\n"
	         "%s"
	         "    LDC.32 R6, [out]\n"
	         "    IADD R6, R6, R1\n"
	         "    STG.32 [R6], R5\n"
	         "    EXIT\n",
	         shared ? "    LDG.32 R8, [R4]\n    MOV R4, 8\n    STS.32 [R4], R8\n" : "", sp, ac->op,
	         is_cas ? ", R7" : "",
	         shared ? "    LDS.32 R8, [R4]\n    LDC.32 R9, [word]\n    STG.32 [R9], R8\n" : "");
	p.word = fx_upload(f, &ac->init, 4);
	p.b = fx_upload(f, b, sizeof(b));
	p.out = fx_alloc(f, 128);
	fx_run(f, fx_asm(f, src), fx_dim(1, 1, 1), fx_dim(32, 1, 1), &p, 0);
	o = fx_ptr(f, (uint32_t)p.out, 128);
	for (unsigned l = 0; l < 32; l++)
		if (o[l] != want_old[l])
			print_error("%s.%s lane %u: returned 0x%08x, want 0x%08x\n", sp, ac->op, l, o[l], want_old[l]);
	assert_memory_equal(o, want_old, 128);
	assert_int_equal(*(uint32_t *)fx_ptr(f, (uint32_t)p.word, 4), word);
	assert_int_equal(f->st.atom_ops, 32);
	assert_int_equal(f->st.class_warp[WG_CLASS_ATOMIC], 1);
}

static void global_atomics_apply_lanes_in_ascending_order(void **state)
{
	for (size_t i = 0; i < sizeof(atom_cases) / sizeof(atom_cases[0]); i++)
		check_atomic(*state, &atom_cases[i], 0);
}

static void shared_atomics_apply_lanes_in_ascending_order(void **state)
{
	for (size_t i = 0; i < sizeof(atom_cases) / sizeof(atom_cases[0]); i++)
		check_atomic(*state, &atom_cases[i], 1);
}

static void atomic_add_f32_rounds_each_step(void **state)
{
	/* 2^24, then +1 (a tie that rounds back to even) and +3 steps: rounding each step differs from the exact sum. */
	uint32_t word = 0;
	float exact = 16777216.0f + 23.0f + 24.0f;

	for (unsigned l = 0; l < 32; l++)
		word = f_fadd(word, b_float(l), 0);
	assert_int_not_equal(word, fx_fbits(exact));
	check_atomic(*state, &atom_cases[12], 0);
	check_atomic(*state, &atom_cases[12], 1);
}

static void atomic_reduction_across_ctas(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel count\n"
		".regs 4\n"
		".shared 4\n"
		".param ptr out\n"
		"    LDC.32 R0, [out]\n"
		"    S2R R1, SR_TID.X\n"
		"    ATOMG.ADD RZ, [R0], 1\n"
		"    ATOMG.MAX.U32 RZ, [R0], R1\n"
		"    ATOMS.ADD RZ, [RZ], 2\n"
		"    BAR.SYNC 0\n"
		"    LDS.32 R2, [0]\n"
		"    IADD R0, R0, 4\n"
		"    ATOMG.MAX.U32 RZ, [R0], R2\n"
		"    EXIT\n");
	struct out_params p = { fx_alloc(f, 8) };
	const uint32_t *o;

	fx_run(f, k, fx_dim(7, 1, 1), fx_dim(100, 1, 1), &p, 0);
	o = fx_ptr(f, (uint32_t)p.out, 8);
	assert_int_equal(o[1], 200); /* every CTA's shared counter */
	assert_int_equal(o[0], 700); /* 700 increments, then MAX with thread ids below 100 */
	assert_int_equal(f->st.atom_ops, 7 * 100 * 4);
}

static void cas_loop_adds_every_thread_id(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel casloop\n"
		".regs 6\n"
		".param ptr out\n"
		"    S2R R0, SR_TID.X\n"
		"    LDC.32 R1, [out]\n"
		"retry:\n"
		"    LDG.32 R2, [R1]\n"
		"    IADD R3, R2, R0\n"
		"    ATOMG.CAS R4, [R1], R2, R3\n"
		"    ISETP.NE P0, R4, R2\n"
		"@P0 BRA retry\n"
		"    EXIT\n");
	struct out_params p = { fx_alloc(f, 4) };

	fx_run(f, k, fx_dim(3, 1, 1), fx_dim(80, 1, 1), &p, 0);
	assert_int_equal(*(uint32_t *)fx_ptr(f, (uint32_t)p.out, 4), 3 * (79 * 80 / 2));
	/* each lane of a warp succeeds in a later round: 32 rounds for a full warp */
	assert_true(f->st.divergent_branches > 0);
}

/*
 * Memory-pipeline counters (docs/memory-pipeline.md): every warp of two CTAs uses its
 * own stride and mask at the same pcs (the model keeps the last pattern of each
 * instruction), compared with the rules applied here warp by warp.
 */
static void memory_counters_follow_every_pattern(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel pat\n"
		".regs 8\n"
		".shared 8192\n"
		".param ptr buf\n"
		"    S2R R0, SR_LANEID\n"
		"    S2R R1, SR_WARPID\n"
		"    IADD R2, R1, 1\n"
		"    IMUL R3, R0, R2\n"
		"    SHL R3, R3, 2\n"          /* lane x (warp + 1) words */
		"    IMUL R4, R1, 3\n"
		"    IADD R4, R4, 5\n"
		"    ISETP.LT.U32 P0, R0, R4\n" /* lanes below 3 x warp + 5 */
		"    LDC.32 R5, [buf]\n"
		"    IADD R5, R5, R3\n"
		"@P0 LDG.32 R6, [R5]\n"
		"@P0 STG.32 [R5], R0\n"
		"@P0 LDG.CG.32 R6, [R5]\n"
		"@P0 STS.32 [R3], R0\n"
		"@P0 LDS.32 R6, [R3]\n"
		"    EXIT\n");
	struct { uint64_t buf; } p = { fx_alloc(f, 8192) };
	uint64_t want[WG_MEMCNT_COUNT] = { 0 };

	for (unsigned cta = 0; cta < 2; cta++) {
		for (unsigned w = 0; w < 8; w++) {
			uint32_t a[32], s[32], mask = 3 * w + 5 >= 32 ? 0xFFFFFFFFu : (1u << (3 * w + 5)) - 1;

			for (unsigned l = 0; l < 32; l++) {
				s[l] = 4 * l * (w + 1);
				a[l] = (uint32_t)p.buf + s[l];
			}
			want[WG_MC_LDC_REQ]++;
			want[WG_MC_GLD_REQ] += 2;
			want[WG_MC_GLD_TX] += wg_coalesce(WG_COAL_LINE, mask, a, 2, NULL) + wg_coalesce(WG_COAL_SEG, mask, a, 2, NULL);
			want[WG_MC_GST_REQ]++;
			want[WG_MC_GST_TX] += wg_coalesce(WG_COAL_STORE, mask, a, 2, NULL);
			want[WG_MC_SHARED_ST_REQ]++;
			want[WG_MC_SHARED_ST_TX] += wg_smem_passes(mask, s, 4);
			want[WG_MC_SHARED_LD_REQ]++;
			want[WG_MC_SHARED_LD_TX] += wg_smem_passes(mask, s, 4);
		}
	}
	fx_run(f, k, fx_dim(2, 1, 1), fx_dim(256, 1, 1), &p, 0);
	for (unsigned i = 0; i < WG_MEMCNT_COUNT; i++) {
		if (f->st.mem[i] != want[i])
			print_error("%s: %llu, want %llu\n", wg_memcnt_names[i], (unsigned long long)f->st.mem[i],
			            (unsigned long long)want[i]);
		assert_int_equal(f->st.mem[i], want[i]);
	}
	/* by hand, lines + segments of warps 0..7: 1+1, 1+2, 1+4, 2+7, 3+11, 4+15, 5+20, 7+26 */
	assert_int_equal(want[WG_MC_GLD_TX], 2 * (2 + 3 + 5 + 9 + 14 + 19 + 25 + 33));
}

/* A faulting access counts nothing; the accesses before it do. */
static void faulting_access_is_not_counted(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel flt\n"
		".regs 4\n"
		".param ptr buf\n"
		"    S2R R0, SR_TID.X\n"
		"    SHL R0, R0, 2\n"
		"    LDC.32 R1, [buf]\n"
		"    IADD R1, R1, R0\n"
		"    LDG.32 R2, [R1]\n"
		"    LDG.32 R2, [R0+16]\n"   /* outside every allocation */
		"    EXIT\n");
	struct { uint64_t buf; } p = { fx_alloc(f, 128) };

	assert_int_equal(fx_launch(f, k, fx_dim(1, 1, 1), fx_dim(32, 1, 1), &p, 0), WG_EFAULT);
	assert_int_equal(f->st.mem[WG_MC_GLD_REQ], 1);
	assert_int_equal(f->st.mem[WG_MC_GLD_TX], 1);
	assert_int_equal(f->st.mem[WG_MC_LDC_REQ], 1);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(global_loads_of_every_width_and_sign_extension),
		T(non_caching_global_loads_match),
		T(stores_of_every_width_write_only_their_bytes),
		T(vector_load_into_rz_discards),
		T(ldc_reads_parameters_by_name_and_offset),
		T(shared_window_is_static_plus_dynamic),
		T(shared_memory_is_per_cta_and_starts_zero),
		T(local_memory_is_private_per_thread),
		T(same_address_stores_keep_the_highest_lane),
		T(uniform_address_loads_respect_the_execution_mask),
		T(global_atomics_apply_lanes_in_ascending_order),
		T(shared_atomics_apply_lanes_in_ascending_order),
		T(atomic_add_f32_rounds_each_step),
		T(atomic_reduction_across_ctas),
		T(cas_loop_adds_every_thread_id),
		T(memory_counters_follow_every_pattern),
		T(faulting_access_is_not_counted),
	};

	return FX_RUN_BOTH("func_mem", tests);
}
