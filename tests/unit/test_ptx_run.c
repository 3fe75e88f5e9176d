/*
 * CUDA kernels (tests/ptx/NAME.cu, compiled by nvcc -ptx into tests/ptx/NAME.ptx) run
 * through the PTX frontend and libwarpgate, each result checked against a C
 * reference computed here.
 *
 * The target is WG_TEST_TARGET (default func). `make ptx-test` (part of
 * `make test`) runs func and sim; on sim every retired instruction is checked in
 * lockstep against the golden model (the sim target's default, docs/cosim.md).
 * The SFU kernels (tests/ptx/sfu.cu) are skipped while the ISA has no MUFU/FDIV/
 * IDIV instructions.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "isa.h"
#include "warpgate.h"

static struct wg_device *dev;
static const char *target;

static int setup(void **state)
{
	target = getenv("WG_TEST_TARGET");
	if (!target || !*target)
		target = "func";
	if (wg_open(&dev, target, NULL))
		return -1;
	if (!strcmp(target, "sim") && wg_set_option(dev, "lockstep", "1")) /* every retired instruction checked */
		return -1;
	return 0;
}

static int teardown(void **state)
{
	wg_close(dev);
	return 0;
}

static void check(int rc, const char *what)
{
	if (rc) {
		fprintf(stderr, "%s: %s: %s\n", what, wg_strerror(rc), wg_last_error(dev));
		fail();
	}
}

static struct wg_module *load(const char *name)
{
	struct wg_module *mod = NULL;
	char path[256];

	snprintf(path, sizeof(path), "tests/ptx/%s.ptx", name);
	check(wg_module_load(dev, &mod, path), path);
	return mod;
}

static uint64_t up(const void *src, size_t bytes)
{
	uint64_t d = 0;

	check(wg_malloc(dev, &d, bytes), "wg_malloc");
	check(wg_memcpy_htod(dev, d, src, bytes), "wg_memcpy_htod");
	return d;
}

static void down(void *dst, uint64_t src, size_t bytes)
{
	check(wg_memcpy_dtoh(dev, dst, src, bytes), "wg_memcpy_dtoh");
}

static void run(struct wg_module *mod, const char *kernel, uint32_t grid, uint32_t block, const void *p, size_t n)
{
	check(wg_launch(dev, mod, kernel, (wg_dim3){ grid, 1, 1 }, (wg_dim3){ block, 1, 1 }, p, n, 0), kernel);
	check(wg_synchronize(dev), kernel);
}

/* xorshift32, deterministic inputs */
static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static float rndf(float lo, float hi)
{
	return lo + (hi - lo) * (float)(rnd() >> 8) / 16777216.0f;
}

struct p3 { /* (ptr, ptr, u32): in, out, n */
	uint64_t a, b;
	uint32_t n;
};

/* vecadd: c[i] = a[i] + b[i] for i < n, n = 1000 over 8 CTAs of 128 (the last one partial). */
static void vecadd_int(void **state)
{
	enum { N = 1000 };
	struct {
		uint64_t a, b, c;
		uint32_t n;
	} p;
	uint32_t a[N], b[N], c[N + 24];
	struct wg_module *mod = load("vecadd");

	for (int i = 0; i < N; i++) {
		a[i] = rnd();
		b[i] = rnd();
	}
	memset(c, 0xee, sizeof(c));
	p.a = up(a, sizeof(a));
	p.b = up(b, sizeof(b));
	p.c = up(c, sizeof(c));
	p.n = N;
	run(mod, "vecadd", 8, 128, &p, sizeof(p));
	down(c, p.c, sizeof(c));
	for (int i = 0; i < N; i++)
		assert_int_equal(c[i], a[i] + b[i]);
	for (int i = N; i < N + 24; i++)
		assert_int_equal(c[i], 0xeeeeeeeeu); /* threads past n store nothing */
}

/* saxpy: y = fma(alpha, x, y) (fma.rn.f32 -> FFMA, ld.global.nc), parameters u32, f32, ptr, ptr. */
static void saxpy_fma(void **state)
{
	enum { N = 700 };
	struct {
		uint32_t n;
		float alpha;
		uint64_t x, y;
	} p;
	float x[N], y[N], out[N];
	struct wg_module *mod = load("vecadd");

	for (int i = 0; i < N; i++) {
		x[i] = rndf(-100, 100);
		y[i] = rndf(-100, 100);
	}
	p.n = N;
	p.alpha = 1.37f;
	p.x = up(x, sizeof(x));
	p.y = up(y, sizeof(y));
	run(mod, "saxpy", 6, 128, &p, sizeof(p));
	down(out, p.y, sizeof(out));
	for (int i = 0; i < N; i++)
		assert_true(out[i] == fmaf(x[i], p.alpha, y[i]));
}

/* scale4: float4 through ld.global.nc.v4.f32 / st.global.v4.f32 (split into four words). */
static void scale4_vector_ldst(void **state)
{
	enum { N4 = 100 };
	struct {
		uint64_t in, out;
		float s;
		uint32_t n4;
	} p;
	float in[4 * N4], out[4 * N4];
	struct wg_module *mod = load("vecadd");

	for (int i = 0; i < 4 * N4; i++)
		in[i] = rndf(-10, 10);
	p.in = up(in, sizeof(in));
	memset(out, 0, sizeof(out));
	p.out = up(out, sizeof(out));
	p.s = -2.5f;
	p.n4 = N4;
	run(mod, "scale4", 2, 64, &p, sizeof(p));
	down(out, p.out, sizeof(out));
	for (int i = 0; i < 4 * N4; i++)
		assert_true(out[i] == in[i] * -2.5f);
}

/* nest: four-way divergent if/else with a data-dependent loop inside one arm. */
static void nest_divergent_if_else_and_loop(void **state)
{
	enum { N = 300 };
	struct p3 p;
	int32_t in[N], out[N];
	struct wg_module *mod = load("diverge");

	for (int i = 0; i < N; i++)
		in[i] = (int32_t)(rnd() % 2000) - 1000;
	p.a = up(in, sizeof(in));
	p.b = up(in, sizeof(in));
	p.n = N;
	run(mod, "nest", 3, 128, &p, sizeof(p));
	down(out, p.b, sizeof(out));
	for (int i = 0; i < N; i++) {
		int32_t v = in[i], r;

		if (v & 1)
			r = (v & 2) ? v * 3 : v - 7;
		else if (v & 4)
			r = v ^ 0x55;
		else {
			r = 0;
			for (int k = 0; k < (v & 15); k++)
				r += k * v;
		}
		assert_int_equal(out[i], r);
	}
}

/* collatz: a while loop with a break whose trip count differs per lane. */
static void collatz_loop_with_break(void **state)
{
	enum { N = 200 };
	struct {
		uint64_t in, out;
		uint32_t n, limit;
	} p;
	uint32_t in[N], out[N];
	struct wg_module *mod = load("diverge");

	for (int i = 0; i < N; i++)
		in[i] = 1 + rnd() % 300;
	p.in = up(in, sizeof(in));
	p.out = up(in, sizeof(in));
	p.n = N;
	p.limit = 60;
	run(mod, "collatz", 2, 128, &p, sizeof(p));
	down(out, p.out, sizeof(out));
	for (int i = 0; i < N; i++) {
		uint32_t x = in[i], steps = 0;

		while (x != 1 && steps < p.limit) {
			x = (x & 1) ? 3 * x + 1 : x >> 1;
			steps++;
		}
		assert_int_equal(out[i], steps);
	}
}

/* reduce_sum: shared-memory tree with bar.sync; 5 CTAs of 128 threads, 2 elements each. */
static void reduce_shared_with_barriers(void **state)
{
	enum { N = 1200, CTAS = 5 };
	struct p3 p;
	int32_t in[N], part[CTAS];
	struct wg_module *mod = load("reduce");

	for (int i = 0; i < N; i++)
		in[i] = (int32_t)(rnd() % 1000);
	p.a = up(in, sizeof(in));
	memset(part, 0, sizeof(part));
	p.b = up(part, sizeof(part));
	p.n = N;
	run(mod, "reduce_sum", CTAS, 128, &p, sizeof(p));
	down(part, p.b, sizeof(part));
	for (int c = 0; c < CTAS; c++) {
		int32_t s = 0;

		for (int i = c * 256; i < c * 256 + 256 && i < N; i++)
			s += in[i];
		assert_int_equal(part[c], s);
	}
}

/* histo: shared add/max, global add/min/max (signed and unsigned)/or/and/xor/inc/dec/exch/cas/add.f32. */
static void atomics_global_and_shared(void **state)
{
	enum { N = 500, BINS = 16 };
	struct {
		uint64_t in, hist, stats, fsum;
		uint32_t n;
	} p;
	uint32_t in[N], hist[2 * BINS] = { 0 }, eh[2 * BINS] = { 0 };
	int32_t stats[11], init[11] = { 0x7fffffff, -5, 0, -1, 0, 990, 3, 0, 0, -1, 0 };
	float fsum = 0, efsum = 0;
	uint32_t emin = 0xffffffffu, emax = 0, eor = 0, eand = 0xffffffffu, exor = 0, einc = 990, edec = 3;
	int32_t smin = 0x7fffffff, smax = -5;
	struct wg_module *mod = load("atomics");
	int cas_ok = 0;

	for (int i = 0; i < N; i++)
		in[i] = rnd() % 100000;
	p.in = up(in, sizeof(in));
	p.hist = up(hist, sizeof(hist));
	p.stats = up(init, sizeof(init));
	p.fsum = up(&fsum, sizeof(fsum));
	p.n = N;
	run(mod, "histo", 4, 128, &p, sizeof(p));
	down(hist, p.hist, sizeof(hist));
	down(stats, p.stats, sizeof(stats));
	down(&fsum, p.fsum, sizeof(fsum));
	for (int i = 0; i < N; i++) {
		uint32_t v = in[i];

		eh[v % BINS]++;
		if (v > eh[BINS + (v >> 4) % BINS])
			eh[BINS + (v >> 4) % BINS] = v;
		smin = (int32_t)v < smin ? (int32_t)v : smin;
		smax = (int32_t)v > smax ? (int32_t)v : smax;
		eor |= 1u << (v & 31);
		eand &= ~(1u << (v & 7));
		exor ^= v;
		einc = einc >= 1000 ? 0 : einc + 1;
		edec = (edec == 0 || edec > 1000) ? 1000 : edec - 1;
		emin = v < emin ? v : emin;
		emax = v > emax ? v : emax;
		efsum += (float)(v & 7); /* small integers: exact in any order */
		if ((int32_t)v + 1 == stats[8])
			cas_ok = 1;
	}
	for (int b = 0; b < 2 * BINS; b++)
		assert_int_equal(hist[b], eh[b]);
	assert_int_equal(stats[0], smin);
	assert_int_equal(stats[1], smax);
	assert_int_equal((uint32_t)stats[2], eor);
	assert_int_equal((uint32_t)stats[3], eand);
	assert_int_equal((uint32_t)stats[4], exor);
	assert_int_equal((uint32_t)stats[5], einc);
	assert_int_equal((uint32_t)stats[6], edec);
	assert_int_equal(stats[7], 42);
	assert_true(cas_ok); /* the first thread's v + 1 won; later CAS saw non-zero */
	assert_int_equal((uint32_t)stats[9], emin);
	assert_int_equal((uint32_t)stats[10], emax);
	assert_true(fsum == efsum);
}

/* localarr: a 16-word local array (__local_depot) written with st.local.v4 and read at run-time indices. */
static void local_array_runtime_index(void **state)
{
	enum { N = 150 };
	struct p3 p;
	int32_t in[N], out[N];
	struct wg_module *mod = load("localarr");

	for (int i = 0; i < N; i++)
		in[i] = (int32_t)(rnd() % 10000) - 5000;
	p.a = up(in, sizeof(in));
	p.b = up(in, sizeof(in));
	p.n = N;
	run(mod, "localarr", 2, 96, &p, sizeof(p));
	down(out, p.b, sizeof(out));
	for (int i = 0; i < N; i++) {
		int32_t a[16], v = in[i], s = 0;

		for (int k = 0; k < 16; k++)
			a[k] = v * k + (k ^ v);
		for (int k = 0; k < 16; k++)
			s += a[(v + k * 5) & 15] * (k + 1);
		assert_int_equal(out[i], s);
	}
}

/* manylive: 80 values live at once; the allocator spills (checked in test_ptx_ra) and the result holds. */
static void spills_keep_values(void **state)
{
	enum { N = 100, K = 80 };
	struct p3 p;
	uint32_t in[N], out[N];
	struct wg_module *mod = load("spill");

	for (int i = 0; i < N; i++)
		in[i] = rnd();
	p.a = up(in, sizeof(in));
	p.b = up(in, sizeof(in));
	p.n = N;
	run(mod, "manylive", 2, 64, &p, sizeof(p));
	down(out, p.b, sizeof(out));
	for (int i = 0; i < N; i++) {
		uint32_t x = in[i], v[K], s = 0;

		for (int k = 0; k < K; k++)
			v[k] = x * (uint32_t)(2 * k + 1) + (x >> (k & 7)) + (uint32_t)k;
		for (int k = 0; k < K; k++)
			s = (s ^ v[K - 1 - k]) * 3u + v[k];
		assert_int_equal(out[i], s);
	}
}

/* params_struct: a 16-byte aligned struct by value (CUDA offsets: out 0, n 8, c 16..272,
 * idx 272, in 280, m 288; 304 bytes), read in a loop through its address in a register;
 * k = idx[i] compared as a sign-extended 64-bit value (k >= 0, k == -1). Integer-valued
 * floats keep every sum exact whether or not nvcc fused x * w + y. */
struct pstruct {
	uint64_t out;
	int32_t n;
	float c[16][4] __attribute__((aligned(16)));
	uint64_t idx, in;
	int32_t m;
};

static void struct_parameter_by_value_and_wide_compare(void **state)
{
	enum { N = 200, M = 11 };
	struct pstruct p;
	int32_t idx[N];
	float in[3 * N], out[N];
	struct wg_module *mod = load("params");

	assert_int_equal(sizeof(p), 304);
	assert_int_equal(offsetof(struct pstruct, idx), 272);
	memset(&p, 0, sizeof(p));
	for (int j = 0; j < 16; j++)
		for (int e = 0; e < 4; e++)
			p.c[j][e] = (float)((int)(rnd() % 17) - 8);
	for (int i = 0; i < N; i++)
		idx[i] = (int32_t)(rnd() % (N + 2)) - 2; /* -2 .. N-1 */
	for (int i = 0; i < 3 * N; i++)
		in[i] = (float)(rnd() % 1000);
	p.out = up(in, sizeof(out));
	p.n = N;
	p.idx = up(idx, sizeof(idx));
	p.in = up(in, sizeof(in));
	p.m = M;
	run(mod, "params_struct", 2, 128, &p, sizeof(p));
	down(out, p.out, sizeof(out));
	for (int i = 0; i < N; i++) {
		int k = idx[i];
		float r = -1.0f;

		if (k >= 0) {
			r = in[k] + in[k + N];
			for (int j = 0; j < M; j++)
				r += p.c[j][0] * p.c[j][3] + p.c[j][1];
		} else if (k == -1) {
			r = in[i + 2 * N];
		}
		assert_float_equal(out[i], r, 0.0f);
	}
}

static int have_sfu(void)
{
	return wg_isa_find("FDIV") != NULL;
}

/* fdivs: div.rn, sqrt.rn, rcp.rn exact; div.approx, rsqrt, ex2, lg2, sin, cos approximate. */
static void sfu_fp_division_and_functions(void **state)
{
	enum { N = 100 };
	struct {
		uint64_t a, b, out;
		uint32_t n;
	} p;
	float a[N], b[N], out[8 * N];
	struct wg_module *mod;

	if (!have_sfu())
		skip();
	mod = load("sfu");
	for (int i = 0; i < N; i++) {
		a[i] = rndf(-50, 50);
		b[i] = rndf(0.5f, 20) * (i & 1 ? -1 : 1);
	}
	p.a = up(a, sizeof(a));
	p.b = up(b, sizeof(b));
	p.out = up(out, sizeof(out));
	p.n = N;
	run(mod, "fdivs", 2, 64, &p, sizeof(p));
	down(out, p.out, sizeof(out));
	for (int i = 0; i < N; i++) {
		float x = a[i], y = b[i];
		float *o = &out[8 * i];

		assert_true(o[0] == x / y);
		assert_true(o[1] == sqrtf(fabsf(x)));
		assert_true(fabsf(o[2] - x / y) <= 1e-4f * fabsf(x / y) + 1e-30f);
		assert_true(fabsf(o[3] - 1.0f / sqrtf(fabsf(y) + 1.0f)) <= 1e-4f);
		assert_true(fabsf(o[4] - expf(x * 0.01f)) <= 1e-4f * expf(x * 0.01f));
		assert_true(fabsf(o[5] - logf(fabsf(y) + 1.0f)) <= 1e-4f);
		assert_true(fabsf(o[6] - (sinf(x) + cosf(y))) <= 1e-3f);
		assert_true(o[7] == 1.0f / y);
	}
}

/* idivs: div/rem .s32 and .u32 (nvcc forms rem as a - (a / b) * b). */
static void sfu_integer_division(void **state)
{
	enum { N = 100 };
	struct {
		uint64_t a, b, out;
		uint32_t n;
	} p;
	int32_t a[N], b[N], out[4 * N];
	struct wg_module *mod;

	if (!have_sfu())
		skip();
	mod = load("sfu");
	for (int i = 0; i < N; i++) {
		a[i] = (int32_t)rnd();
		b[i] = (int32_t)(rnd() % 2000) - 1000;
		if (!b[i])
			b[i] = 7;
	}
	p.a = up(a, sizeof(a));
	p.b = up(b, sizeof(b));
	p.out = up(out, sizeof(out));
	p.n = N;
	run(mod, "idivs", 2, 64, &p, sizeof(p));
	down(out, p.out, sizeof(out));
	for (int i = 0; i < N; i++) {
		assert_int_equal(out[4 * i + 0], a[i] / b[i]);
		assert_int_equal(out[4 * i + 1], a[i] % b[i]);
		assert_int_equal((uint32_t)out[4 * i + 2], (uint32_t)a[i] / (uint32_t)b[i]);
		assert_int_equal((uint32_t)out[4 * i + 3], (uint32_t)a[i] % (uint32_t)b[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vecadd_int),
		cmocka_unit_test(saxpy_fma),
		cmocka_unit_test(scale4_vector_ldst),
		cmocka_unit_test(nest_divergent_if_else_and_loop),
		cmocka_unit_test(collatz_loop_with_break),
		cmocka_unit_test(reduce_shared_with_barriers),
		cmocka_unit_test(atomics_global_and_shared),
		cmocka_unit_test(local_array_runtime_index),
		cmocka_unit_test(spills_keep_values),
		cmocka_unit_test(struct_parameter_by_value_and_wide_compare),
		cmocka_unit_test(sfu_fp_division_and_functions),
		cmocka_unit_test(sfu_integer_division),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
