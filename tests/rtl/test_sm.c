/*
 * test_sm: the Verilated SM (libwgsim) against the golden model (wg_func).
 *
 * Each case assembles a kernel, fills device memory, runs the launch on the
 * golden model and on the RTL (memory port served from a copy of the same
 * device memory with a fixed latency), and compares every allocation byte
 * for byte. Usage: test_sm [--latency=N] [--gto] [--fermi] [--l1-48k] [--only=NAME] [--trace=FILE]
 *                          [--bench=N (matmul N x N, prints cycles/s)] [-v]
 *                          [--pg (lane power gating on) --pg-idle=N --pg-wake=N --pg-bet=N --blackout]
 *                          [--pg-trace (the lane-activity trace over every run; prints its records)]
 *
 * Power gating (docs/power-gating.md): every case also checks the RTL's accounting against
 * one formed here from every cycle's lane states (wgsim's shadow): the lane counters, the
 * idle-interval histogram, and the oracle metric of section 6.1 from the RTL histogram
 * (host/src/energy.c) against the sum over the traced intervals themselves, for every BET
 * 1..1025. With --pg the lanes are gated, and results must still equal the golden model's.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "asm.h"
#include "config.h"
#include "energy.h"
#include "func.h"
#include "gmem.h"
#include "launch.h"
#include "simfit.h"
#include "wgsim.h"

static unsigned g_latency = 20;
static int g_pg, g_pg_blackout, g_pg_trace;
static uint32_t g_pg_idle = 5, g_pg_wake = 3, g_pg_bet = 100;
static uint64_t g_pg_sleep_total, g_pg_events_total, g_pg_stall_total;
static int g_gto, g_verbose, g_repeat = 1;
static uint32_t g_l1ctrl; /* L1_CTRL bits 0 (Fermi mode) and 1 (48 KB L1) */
static struct wgsim_info g_info; /* the model's build parameters */
static const char *g_only, *g_trace, *g_from;
/* The golden and RTL retire logs of the running case: one pair per process, so
 * that test runs in parallel (--gto next to the default) do not share them. */
static char g_gold_path[64], g_rtl_path[64];

struct buf {
	uint32_t addr, size;
};

struct tcase {
	const char *name;
	const char *src;   /* inline source, or NULL */
	const char *file;  /* kernels/x.s */
	const char *kernel;
	wg_dim3 grid, block;
	uint32_t dyn_shared;
	uint32_t local_total; /* bytes of local memory region (set by the run) */
	uint8_t params[256];
	uint32_t nbufs;
	struct buf bufs[16];
};

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return rng_state >> 8;
}

static uint32_t alloc_buf(struct wg_gmem *g, struct tcase *t, uint32_t bytes, int fill)
{
	uint32_t a;
	if (wg_gmem_alloc(g, bytes, &a)) {
		fprintf(stderr, "alloc failed\n");
		exit(2);
	}
	uint8_t *p = wg_gmem_ptr(g, a, bytes);
	for (uint32_t i = 0; i < bytes; i++)
		p[i] = fill == 1 ? (uint8_t)rnd() : fill == 2 ? 0xFF : 0;
	t->bufs[t->nbufs].addr = a;
	t->bufs[t->nbufs].size = bytes;
	t->nbufs++;
	return a;
}

static void put32(uint8_t *p, uint32_t off, uint32_t v)
{
	memcpy(p + off, &v, 4);
}

static void put_f32(struct wg_gmem *g, uint32_t a, uint32_t n)
{
	float *f = (float *)wg_gmem_ptr(g, a, 4 * n);
	for (uint32_t i = 0; i < n; i++)
		f[i] = (float)((int)(rnd() % 2000) - 1000) / 37.0f;
}

/* ------------------------------------------------------------------------ */
/* Cases                                                                     */

static const char src_store[] =
	".kernel store\n.regs 4\n.param ptr out\n"
	"    S2R R0, SR_TID.X\n    S2R R1, SR_CTAID.X\n    S2R R2, SR_NTID.X\n"
	"    IMAD R0, R1, R2, R0\n    SHL R1, R0, 2\n    LDC.32 R2, [out]\n    IADD R2, R2, R1\n"
	"    IMAD R3, R0, 3, R0\n    STG.32 [R2], R3\n    EXIT\n";

static const char src_loop[] =
	".kernel loop\n.regs 6\n.param ptr out\n"
	"    S2R R0, SR_TID.X\n    MOV R1, 0\n    MOV R2, 0\n"
	"top:\n    IADD R1, R1, R2\n    IADD R2, R2, 1\n    ISETP.LT P0, R2, 10\n@P0 BRA top\n"
	"    SHL R3, R0, 2\n    LDC.32 R4, [out]\n    IADD R4, R4, R3\n    STG.32 [R4], R1\n    EXIT\n";

static const char src_diverge[] =
	".kernel diverge\n.regs 6\n.param ptr out\n"
	"    S2R R0, SR_TID.X\n    MOV R1, 100\n    AND R2, R0, 1\n    ISETP.EQ P0, R2, 0\n"
	"@P0 BRA even\n    IADD R1, R1, R0\n    AND R3, R0, 2\n    ISETP.NE P1, R3, 0\n@P1 BRA skip\n"
	"    IMUL R1, R1, 3\nskip:\n    BRA join\neven:\n    ISUB R1, R1, R0\njoin:\n"
	"    ISETP.GT P2, R0, 40\n@P2 EXIT\n    IADD R1, R1, 7\n"
	"    SHL R3, R0, 2\n    LDC.32 R4, [out]\n    IADD R4, R4, R3\n    STG.32 [R4], R1\n    EXIT\n";

static const char src_barrier[] =
	".kernel bar\n.regs 8\n.shared 512\n.param ptr out\n"
	"    S2R R0, SR_TID.X\n    S2R R1, SR_NTID.X\n    SHL R2, R0, 2\n    IMAD R3, R0, 5, R0\n"
	"    STS.32 [R2], R3\n    BAR.SYNC 0\n    ISUB R4, R1, R0\n    IADD R4, R4, -1\n"
	"    SHL R4, R4, 2\n    LDS.32 R5, [R4]\n    LDS.U8 R6, [R4+1]\n    IADD R5, R5, R6\n"
	"    LDC.32 R7, [out]\n    IADD R7, R7, R2\n    STG.32 [R7], R5\n    EXIT\n";

static const char src_atomic[] =
	".kernel atom\n.regs 6\n.shared 128\n.param ptr out\n"
	"    S2R R0, SR_TID.X\n    AND R1, R0, 7\n    SHL R1, R1, 2\n    ATOMS.ADD RZ, [R1], R0\n"
	"    BAR.SYNC 0\n    LDS.32 R3, [R1]\n    LDC.32 R4, [out]\n    ATOMG.ADD RZ, [R4], 1\n"
	"    IADD R4, R4, 4\n    ATOMG.MAX.S32 RZ, [R4], R3\n    IADD R4, R4, 4\n    ATOMG.OR RZ, [R4], R0\n"
	"    IADD R4, R4, 4\n    ATOMG.INC RZ, [R4], 1000\n    MOV R1, 64\n    ATOMS.XOR RZ, [R1], R0\n    EXIT\n";

/* 128-bit stores: STG/STS/STL.128, RZ as the register group, guarded halves of a warp. */
static const char src_st128[] =
	".kernel st128\n.regs 20\n.shared 1024\n.local 32\n.param ptr out\n"
	"    S2R R0, SR_TID.X\n    SHL R1, R0, 4\n    LDC.32 R2, [out]\n    IADD R3, R2, R1\n"
	"    IMAD R4, R0, 3, R0\n    XOR R5, R0, 0x55aa0000\n    SHL R6, R0, 20\n    NOT R7, R0\n"
	"    STG.128 [R3], R4\n    STS.128 [R1], R4\n    STL.128 [16], R4\n    STL.128 [0], RZ\n"
	"    AND R8, R0, 1\n    ISETP.EQ P0, R8, 1\n@P0 STG.128 [R3+1024], RZ\n@!P0 STG.128 [R3+1024], R4\n"
	"    BAR.SYNC 0\n    XOR R12, R0, 1\n    SHL R12, R12, 4\n    LDS.128 R8, [R12]\n"
	"    STG.128 [R3+2048], R8\n    LDL.128 R12, [0]\n    LDL.128 R16, [16]\n"
	"    STG.128 [R3+3072], R12\n    STG.128 [R3+4096], R16\n    BAR.SYNC 0\n@P0 STS.128 [R1+0], RZ\n"
	"    BAR.SYNC 0\n    LDS.128 R8, [R1]\n    STG.128 [R3+5120], R8\n    EXIT\n";

/* Wide and sub-word loads into the result rows, every source and row count: LDG.128 on 3 of
 * 4 lanes (4 rows; lanes tid % 4 == 0 keep R4..R7 = tid, 16 tid, tid, 16 tid), LDG.64 (2 rows),
 * LDG.S16 (row 0 sign-extended), LDS.64 of the neighbour's words 2, 3 (in, in + 16 n) and LDS.S8
 * of its word 1's low byte (16 n & 0xFF: negative for n = 8..15, 24..31, ...), issued right
 * after the LDG.128 (shared results while responses are written), LDC.64 / LDC.128 broadcast
 * ({in, 0}, {in, 0, out, 0}) and LDC.64 per lane (even lanes {in, 0}, odd {out, 0}). Region k of
 * the output (1024 bytes) holds each thread's 16 bytes at out + 1024 k + 16 tid. */
static const char src_ldwide[] =
	".kernel ldwide\n.regs 28\n.shared 1024\n.param ptr in\n.param ptr out\n"
	"    S2R R0, SR_TID.X\n    SHL R1, R0, 4\n    LDC.32 R2, [in]\n    IADD R3, R2, R1\n"
	"    STS.128 [R1], R0\n    LDC.32 R20, [out]\n    IADD R21, R20, R1\n"
	"    MOV R4, R0\n    MOV R5, R1\n    MOV R6, R0\n    MOV R7, R1\n"
	"    AND R8, R0, 3\n    ISETP.NE P0, R8, 0\n    XOR R12, R0, 1\n    SHL R12, R12, 4\n    BAR.SYNC 0\n"
	"@P0 LDG.128 R4, [R3]\n    LDS.64 R14, [R12+8]\n    LDG.64 R8, [R3+1024]\n    LDS.S8 R16, [R12+4]\n"
	"    LDG.S16 R10, [R3+2050]\n    LDC.64 R18, [in]\n    AND R11, R0, 1\n    SHL R11, R11, 3\n"
	"    LDC.64 R22, [R11+in]\n    LDC.128 R24, [in]\n"
	"    STG.128 [R21], R4\n    STG.64 [R21+1024], R8\n    STG.64 [R21+1032], R14\n"
	"    STG.32 [R21+2048], R10\n    STG.32 [R21+2052], R16\n    STG.64 [R21+2056], R18\n"
	"    STG.64 [R21+3072], R22\n    STG.128 [R21+4096], R24\n    EXIT\n";

/* ATOMS.ADD.F32: own words (special values, immediate B), lane-ordered sum of warp 0. */
static const char src_atomf[] =
	".kernel atomf\n.regs 12\n.shared 512\n.param ptr in\n.param ptr out\n"
	"    S2R R0, SR_TID.X\n    SHL R1, R0, 2\n    LDC.32 R2, [in]\n    IADD R2, R2, R1\n"
	"    LDG.32 R3, [R2]\n    LDG.32 R4, [R2+256]\n    STS.32 [R1], R3\n"
	"    ATOMS.ADD.F32 R5, [R1], R4\n    LDS.32 R6, [R1]\n    ATOMS.ADD.F32 RZ, [R1], 0.1\n    LDS.32 R7, [R1]\n"
	"    I2F.F32.U32 R8, R0\n    FMUL R8, R8, 0.1\n    ISETP.LT P0, R0, 32\n    MOV R10, 448\n"
	"@P0 ATOMS.ADD.F32 R9, [R10], R8\n    BAR.SYNC 0\n    LDS.32 R10, [R10]\n    MOV R8, 448\n"
	"    LDC.32 R2, [out]\n    SHL R11, R0, 4\n    IADD R11, R2, R11\n    STG.128 [R11], R4\n"
	"    SHL R11, R0, 3\n    IADD R11, R2, R11\n    STG.64 [R11+1024], R8\n    IADD R11, R2, R1\n"
	"    STG.32 [R11+1536], R10\n    EXIT\n";

static void setup_out(struct wg_gmem *g, struct tcase *t, uint32_t words)
{
	uint32_t o = alloc_buf(g, t, 4 * words, 0);
	put32(t->params, 0, o);
}

static void setup_vecadd(struct wg_gmem *g, struct tcase *t, int fp)
{
	uint32_t n = 1000;
	uint32_t a = alloc_buf(g, t, 4 * n, 1), b = alloc_buf(g, t, 4 * n, 1), c = alloc_buf(g, t, 4 * n, 0);
	if (fp) {
		put_f32(g, a, n);
		put_f32(g, b, n);
	}
	put32(t->params, 0, a);
	put32(t->params, 8, b);
	put32(t->params, 16, c);
	put32(t->params, 24, n);
	t->grid = (wg_dim3){ (n + 127) / 128, 1, 1 };
	t->block = (wg_dim3){ 128, 1, 1 };
}

static void setup_saxpy(struct wg_gmem *g, struct tcase *t)
{
	uint32_t n = 1500;
	uint32_t x = alloc_buf(g, t, 4 * n, 1), y = alloc_buf(g, t, 4 * n, 1);
	float a = 2.5f;
	put_f32(g, x, n);
	put_f32(g, y, n);
	put32(t->params, 0, n);
	memcpy(t->params + 4, &a, 4);
	put32(t->params, 8, x);
	put32(t->params, 16, y);
	t->grid = (wg_dim3){ 4, 1, 1 };
	t->block = (wg_dim3){ 128, 1, 1 };
}

static void setup_reduce(struct wg_gmem *g, struct tcase *t)
{
	uint32_t n = 3000;
	uint32_t in = alloc_buf(g, t, 4 * n, 1), out = alloc_buf(g, t, 4 * 4, 0);
	put32(t->params, 0, n);
	put32(t->params, 8, in);
	put32(t->params, 16, out);
	t->grid = (wg_dim3){ 4, 1, 1 };
	t->block = (wg_dim3){ 128, 1, 1 };
	t->dyn_shared = 128 * 4;
}

static void setup_nested(struct wg_gmem *g, struct tcase *t)
{
	uint32_t n = 300;
	uint32_t in = alloc_buf(g, t, 4 * n, 1), out = alloc_buf(g, t, 4 * n, 0);
	uint32_t *p = (uint32_t *)wg_gmem_ptr(g, in, 4 * n);
	for (uint32_t i = 0; i < n; i++)
		p[i] = rnd() % 1000;
	put32(t->params, 0, n);
	put32(t->params, 4, 900);
	put32(t->params, 8, in);
	put32(t->params, 16, out);
	t->grid = (wg_dim3){ (n + 63) / 64, 1, 1 };
	t->block = (wg_dim3){ 64, 1, 1 };
}

static void setup_hist(struct wg_gmem *g, struct tcase *t, int global)
{
	uint32_t n = 3000;
	uint32_t d = alloc_buf(g, t, n, 1), h = alloc_buf(g, t, 1024, 0);
	put32(t->params, 0, n);
	put32(t->params, 8, d);
	put32(t->params, 16, h);
	t->grid = (wg_dim3){ global ? (n + 127) / 128 : 3, 1, 1 };
	t->block = (wg_dim3){ 128, 1, 1 };
}

static void setup_matmul_n(struct wg_gmem *g, struct tcase *t, uint32_t n)
{
	uint32_t a = alloc_buf(g, t, 4 * n * n, 1), b = alloc_buf(g, t, 4 * n * n, 1), c = alloc_buf(g, t, 4 * n * n, 0);
	put_f32(g, a, n * n);
	put_f32(g, b, n * n);
	put32(t->params, 0, n);
	put32(t->params, 8, a);
	put32(t->params, 16, b);
	put32(t->params, 24, c);
	t->grid = (wg_dim3){ n / 16, n / 16, 1 };
	t->block = (wg_dim3){ 16, 16, 1 };
}

static void setup_matmul(struct wg_gmem *g, struct tcase *t)
{
	setup_matmul_n(g, t, 32);
}

static void setup_bfs(struct wg_gmem *g, struct tcase *t)
{
	uint32_t V = 300, E = 0, deg[300];
	for (uint32_t v = 0; v < V; v++) {
		deg[v] = rnd() % 6;
		E += deg[v];
	}
	uint32_t rp = alloc_buf(g, t, 4 * (V + 1), 0), ci = alloc_buf(g, t, 4 * (E ? E : 1), 0);
	uint32_t nf = 100;
	uint32_t fr = alloc_buf(g, t, 4 * nf, 0), nx = alloc_buf(g, t, 4 * V, 0), cnt = alloc_buf(g, t, 4, 0);
	uint32_t dist = alloc_buf(g, t, 4 * V, 2);
	uint32_t *prp = (uint32_t *)wg_gmem_ptr(g, rp, 4 * (V + 1));
	uint32_t *pci = (uint32_t *)wg_gmem_ptr(g, ci, 4 * (E ? E : 1));
	uint32_t *pfr = (uint32_t *)wg_gmem_ptr(g, fr, 4 * nf);
	uint32_t *pd = (uint32_t *)wg_gmem_ptr(g, dist, 4 * V);
	uint32_t e = 0;
	for (uint32_t v = 0; v < V; v++) {
		prp[v] = e;
		for (uint32_t k = 0; k < deg[v]; k++)
			pci[e++] = rnd() % V;
	}
	prp[V] = e;
	for (uint32_t i = 0; i < nf; i++) {
		pfr[i] = i * 3;
		pd[i * 3] = 2;
	}
	put32(t->params, 0, nf);
	put32(t->params, 4, 2);
	put32(t->params, 8, rp);
	put32(t->params, 16, ci);
	put32(t->params, 24, fr);
	put32(t->params, 32, nx);
	put32(t->params, 40, cnt);
	put32(t->params, 48, dist);
	t->grid = (wg_dim3){ (nf + 63) / 64, 1, 1 };
	t->block = (wg_dim3){ 64, 1, 1 };
}

/*
 * Many-CTA launches: more CTAs than the SM holds at once (8 CTA slots, 48 warp
 * slots), so CTA and warp slots are released and reused while other CTAs run,
 * with full (256 threads, 8 warps) and partial (96 threads, 3 warps) CTAs.
 */
static void setup_saxpy_many(struct wg_gmem *g, struct tcase *t, uint32_t ctas, uint32_t block)
{
	uint32_t n = ctas * block + ctas * block / 3; /* a second grid-stride pass for some threads */
	uint32_t x = alloc_buf(g, t, 4 * n, 1), y = alloc_buf(g, t, 4 * n, 1);
	float a = -1.75f;
	put_f32(g, x, n);
	put_f32(g, y, n);
	put32(t->params, 0, n);
	memcpy(t->params + 4, &a, 4);
	put32(t->params, 8, x);
	put32(t->params, 16, y);
	t->grid = (wg_dim3){ ctas, 1, 1 };
	t->block = (wg_dim3){ block, 1, 1 };
}

static void setup_reduce_many(struct wg_gmem *g, struct tcase *t, uint32_t ctas, uint32_t block)
{
	uint32_t n = ctas * block * 2 - 77;
	uint32_t in = alloc_buf(g, t, 4 * n, 1), out = alloc_buf(g, t, 4 * ctas, 0);
	put32(t->params, 0, n);
	put32(t->params, 8, in);
	put32(t->params, 16, out);
	t->grid = (wg_dim3){ ctas, 1, 1 };
	t->block = (wg_dim3){ block, 1, 1 };
	t->dyn_shared = block * 4;
}

static void setup_hist_many(struct wg_gmem *g, struct tcase *t, uint32_t ctas, uint32_t block)
{
	uint32_t n = ctas * block + 1234;
	uint32_t d = alloc_buf(g, t, n, 1), h = alloc_buf(g, t, 1024, 0);
	put32(t->params, 0, n);
	put32(t->params, 8, d);
	put32(t->params, 16, h);
	t->grid = (wg_dim3){ ctas, 1, 1 };
	t->block = (wg_dim3){ block, 1, 1 };
}

static void s_saxpy_m256(struct wg_gmem *g, struct tcase *t) { setup_saxpy_many(g, t, 48, 256); }
static void s_saxpy_m96(struct wg_gmem *g, struct tcase *t) { setup_saxpy_many(g, t, 44, 96); }
static void s_reduce_m256(struct wg_gmem *g, struct tcase *t) { setup_reduce_many(g, t, 42, 256); }
static void s_reduce_m96(struct wg_gmem *g, struct tcase *t) { setup_reduce_many(g, t, 46, 96); }
static void s_hists_m256(struct wg_gmem *g, struct tcase *t) { setup_hist_many(g, t, 41, 256); }
static void s_hists_m96(struct wg_gmem *g, struct tcase *t) { setup_hist_many(g, t, 45, 96); }
static void s_histg_m96(struct wg_gmem *g, struct tcase *t) { setup_hist_many(g, t, 43, 96); }

/* ------------------------------------------------------------------------ */
/* RTL run                                                                   */

struct pend {
	uint64_t due;
	uint32_t tag;
	uint8_t data[WGSIM_MEM_BYTES];
};

static uint32_t atom(unsigned op, uint32_t old, uint32_t b, uint32_t c)
{
	float f;
	switch (op) {
	case 0: return old + b;
	case 1: return (int32_t)old < (int32_t)b ? old : b;
	case 2: return (int32_t)old > (int32_t)b ? old : b;
	case 3: return b;
	case 4: return old == b ? c : old;
	case 5: return old & b;
	case 6: return old | b;
	case 7: return old ^ b;
	case 8: return old < b ? old : b;
	case 9: return old > b ? old : b;
	case 10: return old >= b ? 0 : old + 1;
	case 11: return (old == 0 || old > b) ? b : old - 1;
	case 12: {
		float x, y;
		memcpy(&x, &old, 4);
		memcpy(&y, &b, 4);
		f = x + y;
		uint32_t r;
		memcpy(&r, &f, 4);
		if (isnan(f))
			r = 0x7FFFFFFFu;
		return r;
	}
	default: return old;
	}
}

/* Retire beats -> retire-log records (docs/retire-log.md), kept per (cta, warp, seq). */
struct rrec {
	uint32_t cta, warp, seq, order;
	struct wg_retire_rec r;
	uint32_t vals[32][4];
};
static struct rrec *g_recs;
static uint32_t g_nrecs, g_caprecs;
/* Records being assembled, per warp slot and sequence number: the beats of a
 * multi-register record from the LSU may interleave with another unit's record of
 * the same warp. */
#define OPEN_PER_WARP 16
static struct rrec g_open[64][OPEN_PER_WARP];

static void beat_in(const struct wgsim_retire *b)
{
	struct rrec *o = &g_open[b->warp & 63][b->seq % OPEN_PER_WARP];
	if (b->beat == 0) {
		memset(o, 0, sizeof(*o));
		o->cta = b->cta_linear;
		o->warp = b->wic;
		o->seq = b->seq;
		o->r.cta = b->cta_linear;
		o->r.warp = b->wic;
		o->r.pc = b->pc;
		o->r.active = b->active;
		o->r.exec = b->exec;
		o->r.dst = b->dst == 1 ? WG_RD_REG : b->dst == 2 ? WG_RD_PRED : WG_RD_NONE;
		o->r.reg = b->reg;
		o->r.nregs = 1;
		o->r.pred = b->data[0];
	} else if (o->seq != b->seq) {
		fprintf(stderr, "test_sm: retire beat %u of warp slot %u seq %u while seq %u is open\n",
		        (unsigned)b->beat, (unsigned)b->warp, (unsigned)b->seq, (unsigned)o->seq);
		exit(1);
	}
	if (b->dst == 1) {
		for (int l = 0; l < 32; l++)
			o->vals[l][b->beat] = b->data[l];
		o->r.nregs = (uint8_t)(b->beat + 1);
	}
	if (b->last) {
		if (g_nrecs == g_caprecs) {
			g_caprecs = g_caprecs ? 2 * g_caprecs : 4096;
			g_recs = realloc(g_recs, g_caprecs * sizeof(*g_recs));
		}
		o->order = g_nrecs;
		g_recs[g_nrecs++] = *o;
	}
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rrec *x = a, *y = b;
	if (x->cta != y->cta)
		return x->cta < y->cta ? -1 : 1;
	if (x->warp != y->warp)
		return x->warp < y->warp ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return 0;
}

struct rtl_result {
	uint64_t cycles, winst;
	double secs;
	int fault;
};

static int run_rtl(struct wgsim *s, struct wg_gmem *g, const struct wg_kernel *k, const struct tcase *t,
                   struct rtl_result *res)
{
	uint32_t threads = t->block.x * t->block.y * t->block.z;
	uint32_t nctas = t->grid.x * t->grid.y * t->grid.z;
	static struct pend q[1 << 12];
	uint32_t qh = 0, qt = 0, done = 0;
	struct wgsim_mreq r;

	wgsim_reset(s);
	wgsim_cfg_write(s, 0, 0);
	wgsim_cfg_write(s, 1, k->regs);
	wgsim_cfg_write(s, 2, k->shared_bytes + t->dyn_shared);
	wgsim_cfg_write(s, 3, k->local_bytes);
	uint32_t local_base = 0;
	if (k->local_bytes && wg_gmem_alloc(g, k->local_bytes * threads * nctas, &local_base)) {
		fprintf(stderr, "local alloc failed\n");
		return -1;
	}
	wgsim_cfg_write(s, 4, local_base);
	wgsim_cfg_write(s, 5, t->block.x);
	wgsim_cfg_write(s, 6, t->block.y);
	wgsim_cfg_write(s, 7, t->block.z);
	wgsim_cfg_write(s, 8, t->grid.x);
	wgsim_cfg_write(s, 9, t->grid.y);
	wgsim_cfg_write(s, 10, t->grid.z);
	wgsim_cfg_write(s, 11, threads);
	wgsim_cfg_write(s, 12, k->param_bytes);
	wgsim_cfg_write(s, 13, g_gto);
	wgsim_cfg_write(s, 14, threads * nctas);
	wgsim_cfg_write(s, 15, 0);
	wgsim_cfg_write(s, 16, g_l1ctrl | 4); /* L1 mode and split; start empty */
	if (g_pg) {
		wgsim_cfg_write(s, 21, 1u | (g_pg_blackout ? 8u : 0)); /* PG_CTRL: lanes, blackout */
		wgsim_cfg_write(s, 22, g_pg_bet);                      /* PG_BET */
		wgsim_cfg_write(s, 23, g_pg_idle);                     /* PG_IDLE */
		wgsim_cfg_write(s, 24, g_pg_wake);                     /* PG_WAKE */
	}
	wgsim_imem_write(s, 0, k->code, k->ninsns);
	wgsim_cmem_write(s, t->params, k->param_bytes);
	wgsim_step(s, k->ninsns + 40);
	for (uint32_t z = 0, lin = 0; z < t->grid.z; z++)
		for (uint32_t y = 0; y < t->grid.y; y++)
			for (uint32_t x = 0; x < t->grid.x; x++, lin++)
				wgsim_cta_launch(s, x, y, z, lin);

	uint64_t c0 = wgsim_cycle(s), limit = 20000000;
	clock_t t0 = clock();
	int flushing = 0;
	/* Run until every CTA is done, then flush the L1 (L1_CTRL bit 2) and run until idle. */
	while (done < nctas || !flushing || wgsim_busy(s)) {
		if (done == nctas && !flushing) {
			wgsim_cfg_write(s, 16, 4);
			flushing = 1;
		}
		if (wgsim_step(s, 1)) {
			struct wgsim_fault f;
			wgsim_fault(s, &f);
			printf("  RTL fault code %u warp %u pc %u lane %u addr 0x%08x cta %u at cycle %" PRIu64 "\n",
			       f.code, f.warp, f.pc, f.lane, f.addr, f.cta_linear, wgsim_cycle(s) - c0);
			res->fault = 1;
			return -1;
		}
		while (wgsim_mreq_pop(s, &r)) {
			struct pend *p = &q[qt++ & 4095];
			uint32_t bytes = 1u << r.size, off = r.addr & (WGSIM_MEM_BYTES - 1);
			uint8_t *m = wg_gmem_ptr(g, r.addr, bytes);
			memset(p->data, 0, sizeof(p->data));
			p->tag = r.tag;
			p->due = wgsim_cycle(s) + g_latency;
			if (bytes > 16 && r.cmd != 2) {
				/* a segment or line: bytes outside allocations read as zero; written ones must be inside */
				uint32_t block = r.addr - off;
				for (uint32_t i = off; i < off + bytes; i++) {
					uint8_t *b = wg_gmem_ptr(g, block + i, 1);
					if (r.cmd == 1 && r.wmask[i] && !b) {
						printf("  RTL write outside allocations: addr 0x%08x warp %u pc %u\n", block + i, r.warp,
						       r.pc);
						res->fault = 1;
						return -1;
					}
					if (b && r.cmd == 0)
						p->data[i] = *b;
					else if (b && r.wmask[i])
						*b = r.wdata[i];
				}
				continue;
			}
			if (!m) {
				printf("  RTL access outside allocations: addr 0x%08x size %u warp %u pc %u lane %u\n", r.addr,
				       bytes, r.warp, r.pc, r.lane);
				res->fault = 1;
				return -1;
			}
			if (r.cmd == 0) {
				memcpy(p->data + off, m, bytes);
			} else if (r.cmd == 1) {
				for (uint32_t i = 0; i < bytes; i++)
					if (r.wmask[off + i])
						m[i] = r.wdata[off + i];
			} else {
				uint32_t old;
				memcpy(&old, m, 4);
				uint32_t nv = atom(r.atom_op, old, r.atom_b, r.atom_c);
				memcpy(m, &nv, 4);
				memcpy(p->data + off, &old, 4);
			}
		}
		while (qh != qt && q[qh & 4095].due <= wgsim_cycle(s)) {
			wgsim_mrsp_push(s, q[qh & 4095].tag, q[qh & 4095].data);
			qh++;
		}
		while (wgsim_cta_done(s, NULL))
			done++;
		{
			struct wgsim_retire b;
			while (wgsim_retire_pop(s, &b))
				beat_in(&b);
		}
		if (wgsim_cycle(s) - c0 > limit) {
			printf("  RTL timeout after %" PRIu64 " cycles (%u of %u CTAs done)\n", limit, done, nctas);
			return -1;
		}
	}
	res->secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	res->cycles = wgsim_cycle(s) - c0;
	struct wgsim_counter cn[128];
	int nc = wgsim_counters(s, cn, 128);
	for (int i = 0; i < nc && i < 128; i++) {
		if (!strcmp(cn[i].name, "warp_insts"))
			res->winst = cn[i].value;
		if (g_verbose && cn[i].value)
			printf("    %-24s %" PRIu64 "\n", cn[i].name, cn[i].value);
	}
	return 0;
}

/* The RTL's power-gating accounting against the shadow formed from every cycle's lane states. */
static int check_pg(struct wgsim *s, const char *name)
{
	static struct wgsim_pg rtl, sh;
	static struct wg_pg_counts c;
	const uint64_t *lens;
	size_t n;
	int bad = 0;

	if (wgsim_pg_close(s) || wgsim_pg_read(s, &rtl) || wgsim_pg_shadow(s, &sh, &lens, &n)) {
		printf("FAIL %s: power-gating counters could not be read\n", name);
		return 0;
	}
	if (rtl.cycles != sh.cycles) {
		printf("FAIL %s: power gating: %" PRIu64 " cycles counted, %" PRIu64 " traced\n", name, rtl.cycles, sh.cycles);
		bad++;
	}
	wg_pg_counts_clear(&c);
	c.lanes = rtl.lanes;
	c.lane_cycles = (uint64_t)rtl.lanes * rtl.cycles;
	for (uint32_t l = 0; l < rtl.lanes; l++) {
		if (rtl.active[l] != sh.active[l] || rtl.idle[l] != sh.idle[l] || rtl.sleep[l] != sh.sleep[l] ||
		    rtl.wake[l] != sh.wake[l] || rtl.events[l] != sh.events[l]) {
			if (bad++ < 4)
				printf("FAIL %s: power gating: lane %u counters (active idle sleep wake events) %" PRIu64 " %" PRIu64
				       " %" PRIu64 " %" PRIu64 " %" PRIu64 ", traced %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
				       " %" PRIu64 "\n", name, l, rtl.active[l], rtl.idle[l], rtl.sleep[l], rtl.wake[l],
				       rtl.events[l], sh.active[l], sh.idle[l], sh.sleep[l], sh.wake[l], sh.events[l]);
		}
		c.active += rtl.active[l];
		c.idle += rtl.idle[l];
		c.sleep += rtl.sleep[l];
		c.wake += rtl.wake[l];
		c.events += rtl.events[l];
	}
	for (uint32_t u = 0; u < rtl.units; u++) {
		for (uint32_t b = 1; b <= WGSIM_PG_BINS; b++)
			c.hist[b] += rtl.hist[u][b];
		c.over_count += rtl.over_count[u];
		c.over_sum += rtl.over_sum[u];
		c.hist_lost += rtl.lost[u];
	}
	if (c.hist_lost) {
		printf("FAIL %s: power gating: %" PRIu64 " idle intervals lost by the RTL histogram\n", name, c.hist_lost);
		bad++;
	}
	for (uint32_t b = 1; b <= WGSIM_PG_BINS; b++) {
		if (c.hist[b] != sh.hist[0][b] && bad++ < 8)
			printf("FAIL %s: power gating: histogram bin %u holds %" PRIu64 ", traced %" PRIu64 "\n", name, b,
			       c.hist[b], sh.hist[0][b]);
	}
	if (c.over_count != sh.over_count[0] || c.over_sum != sh.over_sum[0]) {
		printf("FAIL %s: power gating: over 1024: %" PRIu64 " intervals, %" PRIu64 " cycles; traced %" PRIu64
		       ", %" PRIu64 "\n", name, c.over_count, c.over_sum, sh.over_count[0], sh.over_sum[0]);
		bad++;
	}
	/* The oracle of section 6.1 from the RTL histogram against the traced intervals themselves. */
	for (uint32_t bet = 1; bet <= WG_PG_BET_MAX; bet++) {
		uint64_t direct = 0, from_hist = 0;
		for (size_t i = 0; i < n; i++)
			if (lens[i] >= bet)
				direct += lens[i] - bet;
		if (wg_pg_oracle_saved(&c, bet, &from_hist) || from_hist != direct) {
			if (bad++ < 12)
				printf("FAIL %s: power gating: oracle_saved(%u) %" PRIu64 " from the histogram, %" PRIu64
				       " from the trace\n", name, bet, from_hist, direct);
		}
	}
	{
		char why[200];
		if (wg_pg_counts_check(&c, why, sizeof(why))) {
			printf("FAIL %s: power gating: %s\n", name, why);
			bad++;
		}
	}
	if (g_pg && rtl.cycles) {
		uint64_t w = 0;
		for (uint32_t l = 0; l < rtl.lanes; l++)
			w += rtl.wake[l];
		if (w != 0 && c.events == 0) {
			printf("FAIL %s: power gating: lanes woke without ever sleeping\n", name);
			bad++;
		}
	}
	g_pg_sleep_total += c.sleep;
	g_pg_events_total += c.events;
	g_pg_stall_total += rtl.wake_stall;
	if (g_verbose)
		printf("    pg: %" PRIu64 " cycles, %zu intervals, sleep %" PRIu64 ", events %" PRIu64 ", wake-up stalls %" PRIu64
		       "\n", rtl.cycles, n, c.sleep, c.events, rtl.wake_stall);
	return bad == 0;
}

/* ------------------------------------------------------------------------ */

typedef void (*setup_fn)(struct wg_gmem *, struct tcase *);

static void s_store(struct wg_gmem *g, struct tcase *t) { setup_out(g, t, 256); t->grid = (wg_dim3){ 2, 1, 1 }; t->block = (wg_dim3){ 100, 1, 1 }; }
static void s_loop(struct wg_gmem *g, struct tcase *t) { setup_out(g, t, 64); t->grid = (wg_dim3){ 1, 1, 1 }; t->block = (wg_dim3){ 64, 1, 1 }; }
static void s_div(struct wg_gmem *g, struct tcase *t) { setup_out(g, t, 64); t->grid = (wg_dim3){ 1, 1, 1 }; t->block = (wg_dim3){ 64, 1, 1 }; }
static void s_bar(struct wg_gmem *g, struct tcase *t) { setup_out(g, t, 128); t->grid = (wg_dim3){ 1, 1, 1 }; t->block = (wg_dim3){ 128, 1, 1 }; }
static void s_atom(struct wg_gmem *g, struct tcase *t) { setup_out(g, t, 8); t->grid = (wg_dim3){ 2, 1, 1 }; t->block = (wg_dim3){ 96, 1, 1 }; }
static void s_st128(struct wg_gmem *g, struct tcase *t)
{
	put32(t->params, 0, alloc_buf(g, t, 6144, 2));
	t->grid = (wg_dim3){ 2, 1, 1 };
	t->block = (wg_dim3){ 48, 1, 1 };
}
static void s_ldwide(struct wg_gmem *g, struct tcase *t)
{
	uint32_t in = alloc_buf(g, t, 4096, 1), out = alloc_buf(g, t, 5120, 2);
	put32(t->params, 0, in);
	put32(t->params, 8, out);
	t->grid = (wg_dim3){ 2, 1, 1 };
	t->block = (wg_dim3){ 64, 1, 1 };
}
static void s_atomf(struct wg_gmem *g, struct tcase *t)
{
	/* a (words 0..63) + b (words 64..127): random bits, then special pairs */
	static const uint32_t sp[][2] = {
		{ 0x00000001, 0x00000001 }, { 0x00400000, 0x00400001 }, { 0x80000000, 0x80000000 },
		{ 0x00000000, 0x80000000 }, { 0x7F800000, 0xFF800000 }, { 0x7F800000, 0x3F800000 },
		{ 0x7FC00001, 0x3F800000 }, { 0xFF800001, 0x7F800001 }, { 0x7F7FFFFF, 0x7F7FFFFF },
		{ 0x3F800000, 0x33800000 }, { 0x3F800001, 0x33800000 }, { 0x80800000, 0x00800001 },
		{ 0x4B000000, 0xCAFFFFFF }, { 0x3F800000, 0xBF800000 }, { 0x807FFFFF, 0x00000001 },
	};
	uint32_t in = alloc_buf(g, t, 512, 1), out = alloc_buf(g, t, 2048, 0);
	uint8_t *p = wg_gmem_ptr(g, in, 512);
	for (uint32_t i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
		put32(p, 4 * (2 * i + 1), sp[i][0]);
		put32(p, 256 + 4 * (2 * i + 1), sp[i][1]);
	}
	put32(t->params, 0, in);
	put32(t->params, 8, out);
	t->grid = (wg_dim3){ 2, 1, 1 };
	t->block = (wg_dim3){ 64, 1, 1 };
}
static void s_vecadd(struct wg_gmem *g, struct tcase *t) { setup_vecadd(g, t, 0); }
static void s_vecaddf(struct wg_gmem *g, struct tcase *t) { setup_vecadd(g, t, 1); }
static void s_hists(struct wg_gmem *g, struct tcase *t) { setup_hist(g, t, 0); }
static void s_histg(struct wg_gmem *g, struct tcase *t) { setup_hist(g, t, 1); }

static const struct {
	const char *name, *src, *file, *kernel;
	setup_fn setup;
} cases[] = {
	{ "store", src_store, NULL, "store", s_store },
	{ "loop", src_loop, NULL, "loop", s_loop },
	{ "diverge", src_diverge, NULL, "diverge", s_div },
	{ "barrier", src_barrier, NULL, "bar", s_bar },
	{ "atomic", src_atomic, NULL, "atom", s_atom },
	{ "vecadd", NULL, "kernels/vecadd.s", "vecadd", s_vecadd },
	{ "vecadd_f32", NULL, "kernels/vecadd.s", "vecadd_f32", s_vecaddf },
	{ "saxpy", NULL, "kernels/saxpy.s", "saxpy", setup_saxpy },
	{ "reduce", NULL, "kernels/reduce.s", "reduce", setup_reduce },
	{ "nested", NULL, "kernels/nested.s", "nested", setup_nested },
	{ "nested_break", NULL, "kernels/nested.s", "nested_break", setup_nested },
	{ "hist_shared", NULL, "kernels/histogram.s", "hist_shared", s_hists },
	{ "hist_global", NULL, "kernels/histogram.s", "hist_global", s_histg },
	{ "matmul", NULL, "kernels/matmul.s", "matmul", setup_matmul },
	{ "bfs_step", NULL, "kernels/bfs.s", "bfs_step", setup_bfs },
	{ "saxpy_many256", NULL, "kernels/saxpy.s", "saxpy", s_saxpy_m256 },
	{ "saxpy_many96", NULL, "kernels/saxpy.s", "saxpy", s_saxpy_m96 },
	{ "reduce_many256", NULL, "kernels/reduce.s", "reduce", s_reduce_m256 },
	{ "reduce_many96", NULL, "kernels/reduce.s", "reduce", s_reduce_m96 },
	{ "hist_shared_many256", NULL, "kernels/histogram.s", "hist_shared", s_hists_m256 },
	{ "hist_shared_many96", NULL, "kernels/histogram.s", "hist_shared", s_hists_m96 },
	{ "hist_global_many96", NULL, "kernels/histogram.s", "hist_global", s_histg_m96 },
	{ "st128", src_st128, NULL, "st128", s_st128 },
	{ "atom_f32", src_atomf, NULL, "atomf", s_atomf },
	{ "ldwide", src_ldwide, NULL, "ldwide", s_ldwide },
};

/* Golden log lines grouped by (cta, warp) in order; RTL records sorted by (cta, warp, seq). */
struct line {
	uint32_t cta, warp, idx;
	char *text;
};
static int cmp_line(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	if (x->cta != y->cta)
		return x->cta < y->cta ? -1 : 1;
	if (x->warp != y->warp)
		return x->warp < y->warp ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static struct line *read_log(const char *path, uint32_t *n)
{
	FILE *f = fopen(path, "r");
	char buf[8192];
	struct line *v = NULL;
	uint32_t cap = 0;
	*n = 0;
	if (!f)
		return NULL;
	while (fgets(buf, sizeof(buf), f)) {
		if (buf[0] == '#')
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 4096;
			v = realloc(v, cap * sizeof(*v));
		}
		sscanf(buf, "%u %u", &v[*n].cta, &v[*n].warp);
		v[*n].idx = *n;
		v[*n].text = strdup(buf);
		(*n)++;
	}
	fclose(f);
	qsort(v, *n, sizeof(*v), cmp_line);
	return v;
}

/* Returns the number of mismatching records (first few printed). */
static uint32_t compare_retire(const char *gold_path)
{
	const char *rtl_path = g_rtl_path;
	struct wg_retire_log *lg;
	uint32_t ng, nr, bad = 0;
	if (getenv("WG_DBG_CTA"))
		for (uint32_t i = 0; i < g_nrecs; i++)
			if (g_recs[i].cta == (uint32_t)atoi(getenv("WG_DBG_CTA")) && g_recs[i].r.pc >= 28 && g_recs[i].r.pc <= 36)
				printf("  dbg order %u cta %u warp %u pc %u seq %u\n", g_recs[i].order, g_recs[i].cta,
				       g_recs[i].warp, g_recs[i].r.pc, g_recs[i].seq);
	qsort(g_recs, g_nrecs, sizeof(*g_recs), cmp_rec);
	if (wg_retire_open(&lg, rtl_path))
		return 1;
	for (uint32_t i = 0; i < g_nrecs; i++) {
		g_recs[i].r.vals = (const uint32_t (*)[4])g_recs[i].vals;
		wg_retire_write(lg, &g_recs[i].r);
	}
	wg_retire_close(lg);
	struct line *a = read_log(gold_path, &ng), *b = read_log(rtl_path, &nr);
	uint32_t i = 0, j = 0;
	while (i < ng && j < nr) {
		if (a[i].cta != b[j].cta || a[i].warp != b[j].warp) {
			/* one side has more records for this warp */
			if (bad++ < 3)
				printf("  retire: cta %u warp %u: record counts differ (golden next: %s)", a[i].cta, a[i].warp,
				       a[i].text);
			if (cmp_line(&a[i], &b[j]) < 0)
				i++;
			else
				j++;
			continue;
		}
		if (strcmp(a[i].text, b[j].text) && bad++ < 3)
			printf("  retire mismatch:\n    golden %s    rtl    %s", a[i].text, b[j].text);
		i++;
		j++;
	}
	if (i < ng || j < nr) {
		bad += (ng - i) + (nr - j);
		printf("  retire: %u golden, %u rtl records\n", ng, nr);
	}
	for (uint32_t k = 0; k < ng; k++)
		free(a[k].text);
	for (uint32_t k = 0; k < nr; k++)
		free(b[k].text);
	free(a);
	free(b);
	return bad;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* 1 passed, 0 failed, -1 skipped (the launch does not fit this build of the SM). */
static int run_case(struct wgsim *s, int ci, uint32_t bench_n)
{
	struct tcase t;
	struct wg_image img = { 0 };
	struct wg_gmem *g0 = NULL, *g1 = NULL;
	struct wg_func *f = NULL;
	struct wg_config cfg;
	struct wg_stats st;
	struct wg_err err;
	int rc, ok = 0;

	memset(&t, 0, sizeof(t));
	rng_state = 12345 + ci;
	rc = cases[ci].src ? wg_asm_string(&img, cases[ci].src, cases[ci].name, stderr)
	                   : wg_asm_file(&img, cases[ci].file, stderr);
	if (rc) {
		printf("FAIL %s: assembly failed (%d)\n", cases[ci].name, rc);
		return 0;
	}
	const struct wg_kernel *k = wg_image_find(&img, cases[ci].kernel);
	if (!k) {
		printf("FAIL %s: no kernel %s\n", cases[ci].name, cases[ci].kernel);
		goto out;
	}
	wg_gmem_create(&g0, 1u << 30);
	if (bench_n)
		setup_matmul_n(g0, &t, bench_n);
	else
		cases[ci].setup(g0, &t);
	wg_gmem_clone(g0, &g1);

	/* Golden model. */
	wg_config_default(&cfg);
	wg_func_create(&f, g0, &cfg);
	struct wg_launch l = {
		.kernel = k,
		.grid = t.grid,
		.block = t.block,
		.params = t.params,
		.dyn_shared = t.dyn_shared,
		.threads_per_cta = t.block.x * t.block.y * t.block.z,
		.warps_per_cta = (t.block.x * t.block.y * t.block.z + 31) / 32,
		.ctas = (uint64_t)t.grid.x * t.grid.y * t.grid.z,
	};
	/* A board set of configs/boards.mk may be too small for the case: skipped, with the reason. */
	char why[160];
	if (wg_sim_misfit(&g_info, k, &l, (g_l1ctrl & 2) != 0, why, sizeof(why))) {
		printf("SKIP %-13s does not fit this SM: %s\n", cases[ci].name, why);
		ok = -1;
		goto out;
	}
	wg_stats_clear(&st);
	struct wg_retire_log *glog = NULL;
	if (!bench_n)
		wg_retire_open(&glog, g_gold_path);
	rc = wg_func_run(f, &l, &st, glog, &err);
	if (glog)
		wg_retire_close(glog);
	g_nrecs = 0;
	if (rc) {
		printf("FAIL %s: golden model: %s\n", cases[ci].name, err.msg);
		goto out;
	}

	struct rtl_result res = { 0 };
	if (run_rtl(s, g1, k, &t, &res)) {
		printf("FAIL %s: RTL run\n", cases[ci].name);
		goto out;
	}
	ok = bench_n ? 1 : check_pg(s, cases[ci].name);
	if (!strcmp(cases[ci].name, "bfs_step")) {
		/* The next frontier's order follows the order of the atomic appends: compare it as a set. */
		uint32_t n0, n1;
		memcpy(&n0, wg_gmem_ptr(g0, t.bufs[4].addr, 4), 4);
		memcpy(&n1, wg_gmem_ptr(g1, t.bufs[4].addr, 4), 4);
		if (n0 == n1 && n0 <= t.bufs[3].size / 4) {
			qsort(wg_gmem_ptr(g0, t.bufs[3].addr, 4 * n0), n0, 4, cmp_u32);
			qsort(wg_gmem_ptr(g1, t.bufs[3].addr, 4 * n1), n1, 4, cmp_u32);
		}
	}
	for (uint32_t b = 0; b < t.nbufs; b++) {
		uint8_t *p0 = wg_gmem_ptr(g0, t.bufs[b].addr, t.bufs[b].size);
		uint8_t *p1 = wg_gmem_ptr(g1, t.bufs[b].addr, t.bufs[b].size);
		if (memcmp(p0, p1, t.bufs[b].size)) {
			uint32_t i = 0;
			while (p0[i] == p1[i])
				i++;
			i &= ~3u;
			uint32_t v0, v1;
			memcpy(&v0, p0 + i, 4);
			memcpy(&v1, p1 + i, 4);
			printf("FAIL %s: buffer %u differs at byte %u: golden 0x%08x rtl 0x%08x\n", cases[ci].name, b, i,
			       v0, v1);
			if (g_verbose) {
				uint32_t nd = 0;
				for (uint32_t j = 0; j + 4 <= t.bufs[b].size; j += 4)
					if (memcmp(p0 + j, p1 + j, 4) && nd++ < 64)
						printf(" %u", j / 4);
				printf("\n  %u words differ\n", nd);
			}
			ok = 0;
		}
	}
	if (!bench_n && g_info.retire_en) {
		uint32_t bad = compare_retire(g_gold_path);
		if (bad && !strcmp(cases[ci].name, "bfs_step")) {
			/* Atomics of different warps apply in another order: the values they return differ. */
			printf("note %s: %u retire records differ (order of atomics between warps)\n", cases[ci].name, bad);
		} else if (bad) {
			printf("FAIL %s: %u retire records differ from the golden model\n", cases[ci].name, bad);
			ok = 0;
		}
	}
	printf("%s %-13s %8" PRIu64 " cycles  %7" PRIu64 " warp insts  IPC %.3f  %.0f cycles/s\n", ok ? "PASS" : "FAIL",
	       cases[ci].name, res.cycles, res.winst, res.cycles ? (double)res.winst / (double)res.cycles : 0.0,
	       res.secs > 0 ? (double)res.cycles / res.secs : 0.0);
out:
	if (f)
		wg_func_destroy(f);
	if (g0)
		wg_gmem_destroy(g0);
	if (g1)
		wg_gmem_destroy(g1);
	wg_image_free(&img);
	return ok;
}

int main(int argc, char **argv)
{
	uint32_t bench = 0;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--latency=", 10))
			g_latency = (unsigned)atoi(argv[i] + 10);
		else if (!strcmp(argv[i], "--gto"))
			g_gto = 1;
		else if (!strcmp(argv[i], "--fermi"))
			g_l1ctrl |= 1;
		else if (!strcmp(argv[i], "--l1-48k"))
			g_l1ctrl |= 2;
		else if (!strncmp(argv[i], "--only=", 7))
			g_only = argv[i] + 7;
		else if (!strncmp(argv[i], "--from=", 7))
			g_from = argv[i] + 7;
		else if (!strncmp(argv[i], "--trace=", 8))
			g_trace = argv[i] + 8;
		else if (!strncmp(argv[i], "--bench=", 8))
			bench = (uint32_t)atoi(argv[i] + 8);
		else if (!strncmp(argv[i], "--repeat=", 9))
			g_repeat = atoi(argv[i] + 9);
		else if (!strcmp(argv[i], "-v"))
			g_verbose = 1;
		else if (!strcmp(argv[i], "--pg-trace"))
			g_pg_trace = 1;
		else if (!strcmp(argv[i], "--pg"))
			g_pg = 1;
		else if (!strcmp(argv[i], "--blackout"))
			g_pg_blackout = 1;
		else if (!strncmp(argv[i], "--pg-idle=", 10))
			g_pg_idle = (uint32_t)atoi(argv[i] + 10);
		else if (!strncmp(argv[i], "--pg-wake=", 10))
			g_pg_wake = (uint32_t)atoi(argv[i] + 10);
		else if (!strncmp(argv[i], "--pg-bet=", 9))
			g_pg_bet = (uint32_t)atoi(argv[i] + 9);
		else {
			fprintf(stderr, "usage: %s [--latency=N] [--gto] [--fermi] [--l1-48k] [--only=NAME] [--trace=FILE] [--bench=N] [-v] [--pg] [--pg-idle=N] [--pg-wake=N] [--pg-bet=N] [--blackout] [--pg-trace]\n",
			        argv[0]);
			return 2;
		}
	}
	snprintf(g_gold_path, sizeof(g_gold_path), "/tmp/wg_test_sm_gold.%ld.log", (long)getpid());
	snprintf(g_rtl_path, sizeof(g_rtl_path), "/tmp/wg_test_sm_rtl.%ld.log", (long)getpid());
	struct wgsim *s;
	struct wgsim_opts o = { .trace_fst = g_trace, .trace_start = 0, .sm_id = 0, .pg_shadow = !bench };
	if (wgsim_create(&s, &o)) {
		fprintf(stderr, "wgsim_create failed\n");
		return 1;
	}
	if (g_pg_trace)
		wgsim_pgt_window(s, 0, (1ull << 48) - 1);
	wgsim_info(s, &g_info);
	printf("SM: %u warps, %u x %u lanes, %u registers, %u CTAs, %u shared bytes, FP %u, SFU %u, retire port %u, "
	       "LSU %u lanes per cycle\n", g_info.num_warps, g_info.num_simd, g_info.simd_width, g_info.num_regs,
	       g_info.num_ctas, g_info.smem_bytes, g_info.has_fp, g_info.has_sfu, g_info.retire_en, g_info.lsu_lanes);
	int pass = 0, fail = 0, skip = 0;
	if (bench) {
		int ci = 13; /* matmul */
		pass = run_case(s, ci, bench) == 1;
		fail = !pass;
	} else {
		for (int i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++) {
			if (g_only && strcmp(g_only, cases[i].name))
				continue;
			if (g_from && strcmp(g_from, cases[i].name))
				continue;
			g_from = NULL;
			for (int r = 0; r < g_repeat; r++) {
				int rc = run_case(s, i, 0);
				if (rc < 0)
					skip++;
				else if (rc)
					pass++;
				else
					fail++;
			}
		}
	}
	if (g_pg_trace)
		printf("lane-activity trace: %zu records\n", wgsim_pgt_pending(s));
	wgsim_destroy(s);
	unlink(g_gold_path);
	unlink(g_rtl_path);
	if (g_pg && !bench) {
		/* The lanes were gated at all: otherwise the run above proves nothing about gating. */
		printf("power gating: %" PRIu64 " lane-cycles asleep, %" PRIu64 " gating events, %" PRIu64
		       " wake-up stall cycles\n", g_pg_sleep_total, g_pg_events_total, g_pg_stall_total);
		if (!g_pg_sleep_total || !g_pg_events_total || !g_pg_stall_total) {
			printf("FAIL: --pg: no lane slept, or no instruction waited for a wake-up\n");
			fail++;
		}
	}
	printf("%d passed, %d failed, %d skipped (do not fit this SM)\n", pass, fail, skip);
	if (!pass && !fail) {
		printf("FAIL: no case ran\n");
		return 1;
	}
	return fail ? 1 : 0;
}
