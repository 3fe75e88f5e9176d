/*
 * Constrained-random kernel generator (rkgen.h, docs/cosim.md "Random kernels").
 *
 * Register plan of every kernel (.regs 48):
 *   R0 linear tid in the CTA       R1 global thread id      R2 own output area
 *   R3 input buffer                R4 counter buffer         R5 own exchange slot (shared)
 *   R6, R7 address temporaries     R8, R9 loop counters      R10, R11 trip counts
 *   R12 sink (clock values, returns of contended atomics; never read)
 *   R13 scratch                    R14 own shared atomic slot  R15 scratch
 *   R16..R47 the value pool: every random instruction reads and writes these
 *   (and reads R0, R1, RZ).
 * Predicates: P0..P4 random, P5 breaks and wrap-around, P6 loop latches.
 *
 * Memory plan:
 *   in   INB bytes of random words, read-only, any aligned index
 *   out  256 bytes per thread: words 0..31 the final dump of the pool,
 *        words 32..63 random stores, loads and atomics of the thread itself
 *   cnt  64 words: word op (port atomic encoding) gets ATOMG.op from every
 *        thread, commutative ops only (INC/DEC with one fixed bound)
 *   shared: A = 16-byte exchange slot per thread (written between barriers
 *        a and b, read anywhere else), B = 16 counter words (ATOMS, read only
 *        between a and b), C = 16-byte own slot per thread (STS/LDS/ATOMS
 *        of the thread itself)
 *   local 64 bytes per thread, all written in the prologue
 *   param in, out, cnt pointers and ten u32 words (64 bytes)
 */
#include "rkgen.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

#define REGS 48
#define POOL0 16
#define NPOOL 32
#define SINK 12
#define INB 4096u
#define OUTB 256u
#define NCNT 64u
#define LOCALB 64u
#define PARAMB 64u
#define INC_BOUND 1000u
#define DEC_BOUND 500u
#define QUOTA_MOD 12u

struct gen {
	uint64_t rng;
	char *buf;
	size_t len, cap;
	int err;
	uint32_t threads;  /* per CTA */
	uint32_t sh_b, sh_c; /* shared offsets of regions B and C */
	unsigned label;
	unsigned budget;   /* instructions left for random items */
	const struct wg_isa_entry **quota;
	size_t nquota, quota_pos;
	const struct wg_isa_entry **pickable;
	size_t npickable;
};

static uint64_t rnd(struct gen *g)
{
	uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t below(struct gen *g, uint32_t n)
{
	return n ? (uint32_t)(rnd(g) % n) : 0;
}

static int chance(struct gen *g, unsigned percent)
{
	return below(g, 100) < percent;
}

static void emit(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			g->err = WG_EINVAL;
			return;
		}
		if (g->len + (size_t)n < g->cap) {
			g->len += (size_t)n;
			return;
		}
		{
			size_t cap = 2 * g->cap + (size_t)n + 1024;
			char *b = realloc(g->buf, cap);

			if (!b) {
				g->err = WG_ENOMEM;
				return;
			}
			g->buf = b;
			g->cap = cap;
		}
	}
}

/* ------------------------------------------------------------------------ */
/* Operands                                                                  */

static unsigned pool(struct gen *g)
{
	return POOL0 + below(g, NPOOL);
}

/* A pool register group of n registers, aligned to n. */
static unsigned pool_group(struct gen *g, unsigned n)
{
	return POOL0 + n * below(g, NPOOL / n);
}

/* A source register: mostly the pool, sometimes the thread ids or RZ. */
static void src_reg(struct gen *g, char *out, size_t len)
{
	uint32_t r = below(g, 20);

	if (r == 0)
		snprintf(out, len, "R0");
	else if (r == 1)
		snprintf(out, len, "R1");
	else if (r == 2)
		snprintf(out, len, "RZ");
	else
		snprintf(out, len, "R%u", pool(g));
}

static void imm(struct gen *g, char *out, size_t len, int fp)
{
	static const char *const floats[] = { "1.5", "-2.0", "0.25", "3e3", "-1e-3", "inf", "-inf", "nan",
		                              "0.0", "-0.0", "1e-40", "65536.5", "-7.75", "2.5", "1e30" };

	if (fp && chance(g, 60)) {
		snprintf(out, len, "%s", floats[below(g, sizeof(floats) / sizeof(floats[0]))]);
		return;
	}
	switch (below(g, 4)) {
	case 0: snprintf(out, len, "%u", below(g, 40)); break;
	case 1: snprintf(out, len, "-%u", 1 + below(g, 300)); break;
	default: snprintf(out, len, "0x%x", (uint32_t)rnd(g)); break;
	}
}

/* Operand B: register or immediate. */
static void opnd_b(struct gen *g, char *out, size_t len, int fp)
{
	if (chance(g, 35))
		imm(g, out, len, fp);
	else
		src_reg(g, out, len);
}

static void pred_src(struct gen *g, char *out, size_t len)
{
	uint32_t p = below(g, 8);

	snprintf(out, len, "%s%s", chance(g, 30) ? "!" : "", p == 7 ? "PT" : (char[3]){ 'P', (char)('0' + p), 0 });
}

/* An optional guard prefix. */
static void guard(struct gen *g, char *out, size_t len, unsigned percent)
{
	if (chance(g, percent))
		snprintf(out, len, "@%sP%u ", chance(g, 40) ? "!" : "", below(g, 7));
	else
		snprintf(out, len, "    ");
}

/* ------------------------------------------------------------------------ */
/* Instructions of one table row                                             */

/* Destination group and suffix of a load/store of mod. */
static unsigned dst_for(struct gen *g, unsigned mod)
{
	unsigned n = wg_width_regs(mod);

	return pool_group(g, n);
}

static void emit_load(struct gen *g, const struct wg_isa_entry *e, const char *gd)
{
	unsigned mod = e->mod, bytes = wg_width_bytes(mod);
	unsigned rd = dst_for(g, mod);
	const char *mn = e->mnemonic;

	switch (e->op) {
	case WG_OP_LDG:
	case WG_OP_LDGCG:
		if (chance(g, 30)) { /* the thread's own words */
			unsigned off = 128 + bytes * below(g, 128 / bytes);

			emit(g, "%s%s R%u, [R2+%u]\n", gd, mn, rd, off);
		} else if (chance(g, 50)) {
			emit(g, "    AND R6, R%u, 0x%x\n", pool(g), (INB - 1) & ~(bytes - 1));
			emit(g, "    IADD R6, R6, R3\n");
			emit(g, "%s%s R%u, [R6]\n", gd, mn, rd);
		} else {
			unsigned off = bytes * below(g, INB / 2 / bytes);

			emit(g, "    AND R6, R%u, 0x%x\n", pool(g), (INB / 2 - 1) & ~(bytes - 1));
			emit(g, "    IADD R6, R6, R3\n");
			emit(g, "%s%s R%u, [R6+%u]\n", gd, mn, rd, off);
		}
		break;
	case WG_OP_LDS:
		if (chance(g, 50)) { /* any exchange slot (region A is written only between barriers a and b) */
			emit(g, "    AND R13, R%u, 0x%x\n", pool(g), (g->threads * 16 - 1) & ~15u);
			emit(g, "    ISETP.GE.U32 P5, R13, %u\n", g->threads * 16);
			emit(g, "@P5 MOV R13, R5\n");
			emit(g, "%s%s R%u, [R13+%u]\n", gd, mn, rd, bytes * below(g, 16 / bytes));
		} else { /* own slot in region C */
			emit(g, "%s%s R%u, [R14+%u]\n", gd, mn, rd, bytes * below(g, 16 / bytes));
		}
		break;
	case WG_OP_LDL:
		if (chance(g, 50)) {
			emit(g, "%s%s R%u, [%u]\n", gd, mn, rd, bytes * below(g, LOCALB / bytes));
		} else {
			emit(g, "    AND R7, R%u, 0x%x\n", pool(g), (LOCALB - 1) & ~(bytes - 1));
			emit(g, "%s%s R%u, [R7]\n", gd, mn, rd);
		}
		break;
	default: /* LDC */
		if (chance(g, 50)) {
			static const char *const names[] = { "in", "out", "cnt", "k0", "k1", "k2" };
			unsigned off = bytes * below(g, PARAMB / bytes);

			if (bytes == 4 && chance(g, 50))
				emit(g, "%s%s R%u, [%s]\n", gd, mn, rd, names[below(g, 6)]);
			else
				emit(g, "%s%s R%u, [%u]\n", gd, mn, rd, off);
		} else {
			emit(g, "    AND R7, R%u, 0x%x\n", pool(g), (PARAMB - 1) & ~(bytes - 1));
			emit(g, "%s%s R%u, [R7]\n", gd, mn, rd);
		}
		break;
	}
}

static void emit_store(struct gen *g, const struct wg_isa_entry *e, const char *gd)
{
	unsigned mod = e->mod, bytes = wg_width_bytes(mod);
	unsigned rs = dst_for(g, mod);
	const char *mn = e->mnemonic;

	switch (e->op) {
	case WG_OP_STG:
		emit(g, "%s%s [R2+%u], R%u\n", gd, mn, 128 + bytes * below(g, 128 / bytes), rs);
		break;
	case WG_OP_STS: /* own slot in region C */
		emit(g, "%s%s [R14+%u], R%u\n", gd, mn, bytes * below(g, 16 / bytes), rs);
		break;
	default: /* STL */
		if (chance(g, 50)) {
			emit(g, "%s%s [%u], R%u\n", gd, mn, bytes * below(g, LOCALB / bytes), rs);
		} else {
			emit(g, "    AND R7, R%u, 0x%x\n", pool(g), (LOCALB - 1) & ~(bytes - 1));
			emit(g, "%s%s [R7], R%u\n", gd, mn, rs);
		}
		break;
	}
}

static void emit_atomic(struct gen *g, const struct wg_isa_entry *e, const char *gd)
{
	int shared = e->op == WG_OP_ATOMS || e->op == WG_OP_ATOMSX;
	unsigned port = e->mod + ((e->op == WG_OP_ATOMGX || e->op == WG_OP_ATOMSX) ? 8 : 0);
	/* EXCH, CAS and ADD.F32 depend on the order: the thread's own word only */
	int own = port == 3 || port == 4 || port == 12 || chance(g, 30);
	char b[32], c[16];
	unsigned rd = own ? pool(g) : SINK;

	if (port == 10 || port == 11)
		snprintf(b, sizeof(b), "%u", port == 10 ? INC_BOUND : DEC_BOUND);
	else
		opnd_b(g, b, sizeof(b), port == 12);
	if (own && port != 10 && port != 11 && chance(g, 50))
		snprintf(b, sizeof(b), "R%u", pool(g));
	if (!own && chance(g, 30))
		rd = 63; /* RZ: a reduction */
	if (shared) {
		if (own)
			emit(g, "    MOV R7, R14\n");
		else
			emit(g, "    MOV R7, %u\n", g->sh_b + 4 * (port & 15));
	} else {
		if (own)
			emit(g, "    IADD R7, R2, %u\n", 128 + 4 * below(g, 32));
		else
			emit(g, "    IADD R7, R4, %u\n", 4 * port);
	}
	if (rd == 63)
		snprintf(c, sizeof(c), "RZ");
	else
		snprintf(c, sizeof(c), "R%u", rd);
	if (e->fmt == WG_FMT_CAS)
		emit(g, "%s%s %s, [R7], %s, R%u\n", gd, e->mnemonic, c, b, pool(g));
	else
		emit(g, "%s%s %s, [R7], %s\n", gd, e->mnemonic, c, b);
}

static void emit_entry(struct gen *g, const struct wg_isa_entry *e)
{
	char gd[16], a[16], b[32], c[16], p[8];
	int fp = e->cls == WG_CLASS_FP;

	guard(g, gd, sizeof(gd), 20);
	switch (e->fmt) {
	case WG_FMT_N:
		emit(g, "%s%s\n", gd, e->mnemonic);
		break;
	case WG_FMT_RB:
		opnd_b(g, b, sizeof(b), 0);
		emit(g, "%s%s R%u, %s\n", gd, e->mnemonic, pool(g), b);
		break;
	case WG_FMT_RA:
		src_reg(g, a, sizeof(a));
		emit(g, "%s%s R%u, %s\n", gd, e->mnemonic, pool(g), a);
		break;
	case WG_FMT_RAB:
		src_reg(g, a, sizeof(a));
		opnd_b(g, b, sizeof(b), fp);
		emit(g, "%s%s R%u, %s, %s\n", gd, e->mnemonic, pool(g), a, b);
		break;
	case WG_FMT_RABC:
		src_reg(g, a, sizeof(a));
		opnd_b(g, b, sizeof(b), fp);
		src_reg(g, c, sizeof(c));
		emit(g, "%s%s R%u, %s, %s, %s\n", gd, e->mnemonic, pool(g), a, b, c);
		break;
	case WG_FMT_SEL:
		src_reg(g, a, sizeof(a));
		opnd_b(g, b, sizeof(b), 0);
		pred_src(g, p, sizeof(p));
		emit(g, "%s%s R%u, %s, %s, %s\n", gd, e->mnemonic, pool(g), a, b, p);
		break;
	case WG_FMT_SETP:
		src_reg(g, a, sizeof(a));
		opnd_b(g, b, sizeof(b), fp);
		emit(g, "%s%s P%u, %s, %s\n", gd, e->mnemonic, below(g, 5), a, b);
		break;
	case WG_FMT_PLOP: {
		char q[8];

		pred_src(g, p, sizeof(p));
		pred_src(g, q, sizeof(q));
		emit(g, "%s%s P%u, %s, %s\n", gd, e->mnemonic, below(g, 5), p, q);
		break;
	}
	case WG_FMT_S2R: {
		unsigned sr = below(g, WG_SR_COUNT);
		unsigned rd = (sr == WG_SR_CLOCK || sr == WG_SR_CLOCKHI) ? SINK : pool(g);

		emit(g, "%sS2R R%u, %s\n", gd, rd, wg_sreg_name(sr));
		break;
	}
	case WG_FMT_LD:
		emit_load(g, e, gd);
		break;
	case WG_FMT_ST:
		emit_store(g, e, gd);
		break;
	case WG_FMT_ATOM:
	case WG_FMT_CAS:
		emit_atomic(g, e, gd);
		break;
	default: /* BRA, BAR, EXIT: structural only */
		break;
	}
}

/* ------------------------------------------------------------------------ */
/* Structure                                                                 */

static const struct wg_isa_entry *next_entry(struct gen *g)
{
	if (g->quota_pos < g->nquota && chance(g, 40))
		return g->quota[g->quota_pos++];
	return g->pickable[below(g, (uint32_t)g->npickable)];
}

/* A thread-dependent predicate into P<p>. */
static void emit_cond(struct gen *g, unsigned p)
{
	static const char *const cc[] = { "EQ", "NE", "LT", "LE", "GT", "GE" };

	switch (below(g, 3)) {
	case 0:
		emit(g, "    AND R13, R0, %u\n", 1u << below(g, 6));
		emit(g, "    ISETP.%s P%u, R13, 0\n", chance(g, 50) ? "EQ" : "NE", p);
		break;
	case 1:
		emit(g, "    ISETP.%s%s P%u, R%u, R%u\n", cc[below(g, 6)], chance(g, 50) ? ".U32" : "", p, pool(g),
		     pool(g));
		break;
	default:
		emit(g, "    AND R13, R%u, 7\n", pool(g));
		emit(g, "    ISETP.LT.U32 P%u, R13, %u\n", p, 1 + below(g, 7));
		break;
	}
}

static void gen_block(struct gen *g, unsigned depth, unsigned loops, int brk_label);

static void gen_item(struct gen *g, unsigned depth, unsigned loops, int brk_label)
{
	uint32_t r = below(g, 100);

	if (r < 10 && depth < 4 && g->budget > 8) { /* if / else */
		unsigned l = g->label++;
		unsigned p = below(g, 5);
		int has_else = chance(g, 60);

		emit_cond(g, p);
		emit(g, "@%sP%u BRA L%u_%s\n", chance(g, 50) ? "!" : "", p, l, has_else ? "else" : "end");
		gen_block(g, depth + 1, loops, brk_label);
		if (has_else) {
			emit(g, "    BRA L%u_end\n", l);
			emit(g, "L%u_else:\n", l);
			gen_block(g, depth + 1, loops, brk_label);
		}
		emit(g, "L%u_end:\n", l);
		return;
	}
	if (r < 17 && loops < 2 && depth < 4 && g->budget > 8) { /* counted loop */
		unsigned l = g->label++;
		unsigned ctr = 8 + loops, trip = 10 + loops;

		if (chance(g, 40))
			emit(g, "    MOV R%u, %u\n", trip, 1 + below(g, 3));
		else {
			emit(g, "    AND R%u, R%u, 3\n", trip, chance(g, 50) ? 0 : pool(g));
			emit(g, "    IADD R%u, R%u, 1\n", trip, trip);
		}
		emit(g, "    MOV R%u, 0\n", ctr);
		emit(g, "L%u_top:\n", l);
		gen_block(g, depth + 1, loops + 1, (int)l);
		emit(g, "    IADD R%u, R%u, 1\n", ctr, ctr);
		emit(g, "    ISETP.LT.U32 P6, R%u, R%u\n", ctr, trip);
		emit(g, "@P6 BRA L%u_top\n", l);
		emit(g, "L%u_brk:\n", l);
		return;
	}
	if (r < 21 && brk_label >= 0) { /* break out of the innermost loop */
		emit_cond(g, 5);
		emit(g, "@P5 BRA L%d_brk\n", brk_label);
		return;
	}
	emit_entry(g, next_entry(g));
	if (g->budget)
		g->budget--;
}

static void gen_block(struct gen *g, unsigned depth, unsigned loops, int brk_label)
{
	unsigned n = 1 + below(g, depth ? 5 : 10);

	for (unsigned i = 0; i < n && g->budget; i++)
		gen_item(g, depth, loops, brk_label);
}

/* The exchange through shared memory: barrier a, own slot, counters, barrier b, others' slots. */
static void gen_exchange(struct gen *g)
{
	uint32_t t = g->threads, m = 1;
	unsigned bar_a = below(g, 16), bar_b = below(g, 16);

	while (2 * m <= t)
		m *= 2;
	emit(g, "    BAR.SYNC %u\n", bar_a);
	switch (below(g, 3)) {
	case 0:
		emit(g, "    STS.128 [R5], R%u\n", pool_group(g, 4));
		break;
	case 1:
		emit(g, "    STS.64 [R5], R%u\n", pool_group(g, 2));
		emit(g, "    STS.32 [R5+8], R%u\n", pool(g));
		emit(g, "    STS.16 [R5+12], R%u\n", pool(g));
		emit(g, "    STS.8 [R5+14], R%u\n", pool(g));
		emit(g, "    STS.8 [R5+15], R%u\n", pool(g));
		break;
	default:
		for (unsigned i = 0; i < 4; i++)
			emit(g, "    STS.32 [R5+%u], R%u\n", 4 * i, pool(g));
		break;
	}
	for (unsigned i = below(g, 3); i; i--)
		emit(g, "    LDS.32 R%u, [%u]\n", pool(g), g->sh_b + 4 * below(g, 16));
	emit(g, "    BAR.SYNC %u\n", bar_b);
	for (unsigned i = 1 + below(g, 3); i; i--) {
		static const char *const w[] = { "U8", "S8", "U16", "S16", "32", "64", "128" };
		unsigned mod = below(g, 7), bytes = wg_width_bytes(mod);

		emit(g, "    AND R13, R%u, %u\n", pool(g), m - 1);
		emit(g, "    IADD R13, R13, R0\n");
		emit(g, "    ISETP.GE.U32 P5, R13, %u\n", t);
		emit(g, "@P5 IADD R13, R13, -%u\n", t);
		emit(g, "    SHL R13, R13, 4\n");
		emit(g, "    LDS.%s R%u, [R13+%u]\n", w[mod], dst_for(g, mod), bytes * below(g, 16 / bytes));
	}
}

static void pick_launch(struct gen *g, struct wg_rk *rk)
{
	static const wg_dim3 blocks[] = {
		{ 32, 1, 1 }, { 64, 1, 1 }, { 48, 1, 1 }, { 100, 1, 1 }, { 128, 1, 1 }, { 96, 1, 1 },
		{ 16, 4, 1 }, { 8, 4, 2 }, { 33, 1, 1 }, { 256, 1, 1 }, { 20, 3, 2 }, { 160, 1, 1 },
		{ 1, 1, 1 }, { 7, 5, 1 },
	};
	const wg_dim3 *b = &blocks[below(g, sizeof(blocks) / sizeof(blocks[0]))];

	rk->block = *b;
	rk->grid.x = 1 + below(g, 4);
	rk->grid.y = chance(g, 25) ? 2 : 1;
	rk->grid.z = 1;
	g->threads = b->x * b->y * b->z;
}

int wg_rkgen(struct wg_rk *rk, uint64_t seed)
{
	struct gen g = { 0 };
	uint32_t total, sh_total, q = 0;
	int rc;

	memset(rk, 0, sizeof(*rk));
	rk->seed = seed;
	g.rng = seed * 0x2545F4914F6CDD1Dull + 0x1234567ull;
	g.cap = 16384;
	g.buf = malloc(g.cap);
	g.pickable = calloc(wg_isa_table_len, sizeof(*g.pickable));
	g.quota = calloc(wg_isa_table_len, sizeof(*g.quota));
	if (!g.buf || !g.pickable || !g.quota) {
		rc = WG_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < wg_isa_table_len; i++) {
		const struct wg_isa_entry *e = &wg_isa_table[i];

		if (e->fmt == WG_FMT_BRA || e->fmt == WG_FMT_BAR || e->op == WG_OP_EXIT)
			continue;
		g.pickable[g.npickable++] = e;
		if (q++ % QUOTA_MOD == seed % QUOTA_MOD)
			g.quota[g.nquota++] = e;
	}
	snprintf(rk->name, sizeof(rk->name), "rk%llu", (unsigned long long)seed);
	pick_launch(&g, rk);
	total = g.threads * rk->grid.x * rk->grid.y * rk->grid.z;
	g.sh_b = g.threads * 16;
	g.sh_c = g.sh_b + 64;
	sh_total = g.sh_c + g.threads * 16;
	rk->dyn_shared = chance(&g, 30) ? 16 * (1 + below(&g, 4)) : 0;
	g.budget = 40 + below(&g, 120);

	/* buffers and parameters */
	rk->nbufs = 3;
	rk->bufs[0] = (struct wg_rk_buf){ "in", INB, 0, WG_RK_FILL_RANDOM, rnd(&g), 0 };
	rk->bufs[1] = (struct wg_rk_buf){ "out", total * OUTB, 8, WG_RK_FILL_ZERO, 0, 1 };
	rk->bufs[2] = (struct wg_rk_buf){ "cnt", NCNT * 4, 16, WG_RK_FILL_RANDOM, rnd(&g), 1 };
	rk->param_bytes = PARAMB;
	for (unsigned i = 24; i < PARAMB; i += 4) {
		uint32_t v = (uint32_t)rnd(&g);

		memcpy(rk->params + i, &v, 4);
	}

	emit(&g, "; random kernel, seed %llu: grid %u %u %u, block %u %u %u, dynamic shared %u\n",
	     (unsigned long long)seed, rk->grid.x, rk->grid.y, rk->grid.z, rk->block.x, rk->block.y, rk->block.z,
	     rk->dyn_shared);
	emit(&g, ".kernel %s\n.regs %u\n.shared %u\n.local %u\n", rk->name, REGS, sh_total - rk->dyn_shared, LOCALB);
	emit(&g, ".param ptr in\n.param ptr out\n.param ptr cnt\n");
	for (unsigned i = 0; i < 10; i++)
		emit(&g, ".param u32 k%u\n", i);
	/* prologue: ids, bases, pool, local, shared counters */
	emit(&g, "    S2R R13, SR_TID.X\n    S2R R14, SR_TID.Y\n    S2R R15, SR_NTID.X\n");
	emit(&g, "    IMAD R0, R14, R15, R13\n    S2R R14, SR_TID.Z\n    S2R R6, SR_NTID.Y\n");
	emit(&g, "    IMUL R6, R6, R15\n    IMAD R0, R14, R6, R0\n");
	emit(&g, "    S2R R13, SR_CTAID.X\n    S2R R14, SR_CTAID.Y\n    S2R R15, SR_NCTAID.X\n");
	emit(&g, "    IMAD R13, R14, R15, R13\n    IMAD R1, R13, %u, R0\n", g.threads);
	emit(&g, "    LDC.32 R2, [out]\n    SHL R13, R1, 8\n    IADD R2, R2, R13\n");
	emit(&g, "    LDC.32 R3, [in]\n    LDC.32 R4, [cnt]\n    SHL R5, R0, 4\n");
	emit(&g, "    IADD R14, R5, %u\n", g.sh_c);
	for (unsigned i = 0; i < NPOOL / 4; i++) {
		emit(&g, "    IMUL R6, R1, %u\n", 16 * (2 * i + 1) + 16 * below(&g, 8));
		emit(&g, "    IADD R6, R6, %u\n", 16 * below(&g, 256));
		emit(&g, "    AND R6, R6, 0x%x\n    IADD R6, R6, R3\n", INB - 16);
		emit(&g, "    LDG.128 R%u, [R6]\n", POOL0 + 4 * i);
	}
	for (unsigned i = below(&g, 4); i; i--)
		emit(&g, "    I2F.F32.S32 R%u, R%u\n", pool(&g), pool(&g));
	for (unsigned i = 0; i < LOCALB / 16; i++)
		emit(&g, "    STL.128 [%u], R%u\n", 16 * i, pool_group(&g, 4));
	emit(&g, "    STS.128 [R14], R%u\n", pool_group(&g, 4));
	emit(&g, "    ISETP.EQ P0, R0, 0\n");
	for (unsigned i = 0; i < 4; i++)
		emit(&g, "@P0 STS.128 [%u], R%u\n", g.sh_b + 16 * i, pool_group(&g, 4));
	emit(&g, "    BAR.SYNC %u\n", below(&g, 16)); /* the counters are set before any atomic */

	/* phases */
	for (unsigned ph = 1 + below(&g, 3); ph; ph--) {
		gen_block(&g, 0, 0, -1);
		gen_exchange(&g);
	}
	g.budget += 8;
	gen_block(&g, 0, 0, -1);
	while (g.quota_pos < g.nquota)
		emit_entry(&g, g.quota[g.quota_pos++]);
	/* epilogue: some threads may leave early; the rest dump the pool */
	if (chance(&g, 50)) {
		emit_cond(&g, 4);
		emit(&g, "@P4 EXIT\n");
		g.budget = 4;
		gen_block(&g, 0, 0, -1);
	}
	for (unsigned i = 0; i < NPOOL / 4; i++)
		emit(&g, "    STG.128 [R2+%u], R%u\n", 16 * i, POOL0 + 4 * i);
	emit(&g, "    EXIT\n");
	rc = g.err;
	if (!rc) {
		rk->src = g.buf;
		g.buf = NULL;
	}
out:
	free(g.buf);
	free(g.pickable);
	free(g.quota);
	return rc;
}

void wg_rk_free(struct wg_rk *rk)
{
	if (!rk)
		return;
	free(rk->src);
	rk->src = NULL;
}

void wg_rk_fill(const struct wg_rk_buf *b, uint8_t *out)
{
	struct gen g = { .rng = b->fill_seed };

	if (b->fill == WG_RK_FILL_ZERO) {
		memset(out, 0, b->bytes);
		return;
	}
	for (uint32_t i = 0; i < b->bytes; i += 4) {
		uint32_t v = (uint32_t)rnd(&g);

		/* a quarter of the words are small integers or ordinary floats */
		switch (v & 7) {
		case 0: v >>= 24; break;
		case 1: v = (v & 0x807FFFFFu) | 0x3F800000u; break;
		default: break;
		}
		memcpy(out + i, &v, b->bytes - i < 4 ? b->bytes - i : 4);
	}
}

void wg_rk_params(const struct wg_rk *rk, const uint64_t *addrs, uint8_t *out)
{
	memcpy(out, rk->params, rk->param_bytes);
	for (uint32_t i = 0; i < rk->nbufs; i++)
		memcpy(out + rk->bufs[i].param_offset, &addrs[i], 8);
}

/* ------------------------------------------------------------------------ */
/* Keeping kernels for replay                                                */

int wg_rk_save(const struct wg_rk *rk, const char *dir, char *path, size_t len)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s.s", dir, rk->name);
	f = fopen(p, "w");
	if (!f)
		return errno == ENOENT ? WG_ENOENT : WG_EIO;
	fputs(rk->src, f);
	if (fclose(f))
		return WG_EIO;
	snprintf(p, sizeof(p), "%s/%s.launch", dir, rk->name);
	f = fopen(p, "w");
	if (!f)
		return WG_EIO;
	fprintf(f, "# warpgate cosim launch v1\nseed %llu\nkernel %s\nsource %s.s\n", (unsigned long long)rk->seed,
	        rk->name, rk->name);
	fprintf(f, "grid %u %u %u\nblock %u %u %u\ndyn_shared %u\n", rk->grid.x, rk->grid.y, rk->grid.z, rk->block.x,
	        rk->block.y, rk->block.z, rk->dyn_shared);
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		const struct wg_rk_buf *b = &rk->bufs[i];

		fprintf(f, "buffer %s %u %u %s %llu %d\n", b->name, b->bytes, b->param_offset,
		        b->fill == WG_RK_FILL_ZERO ? "zero" : "random", (unsigned long long)b->fill_seed, b->output);
	}
	fprintf(f, "params %u", rk->param_bytes);
	for (uint32_t i = 0; i < rk->param_bytes; i++)
		fprintf(f, " %02x", rk->params[i]);
	fprintf(f, "\n");
	if (fclose(f))
		return WG_EIO;
	if (path)
		snprintf(path, len, "%s", p);
	return 0;
}

int wg_rk_load(struct wg_rk *rk, const char *launch_path, char *err, size_t errlen)
{
	char line[4096], src_name[256] = "", p[4096];
	FILE *f = fopen(launch_path, "r");
	unsigned lineno = 0;
	long n;

	memset(rk, 0, sizeof(*rk));
	if (!f) {
		snprintf(err, errlen, "%s: cannot open", launch_path);
		return WG_ENOENT;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long u;
		int ok = 1;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "seed %llu", &u) == 1) {
			rk->seed = u;
		} else if (!strncmp(line, "kernel ", 7)) {
			ok = sscanf(line, "kernel %31s", rk->name) == 1;
		} else if (!strncmp(line, "source ", 7)) {
			ok = sscanf(line, "source %255s", src_name) == 1;
		} else if (!strncmp(line, "grid ", 5)) {
			ok = sscanf(line, "grid %u %u %u", &rk->grid.x, &rk->grid.y, &rk->grid.z) == 3;
		} else if (!strncmp(line, "block ", 6)) {
			ok = sscanf(line, "block %u %u %u", &rk->block.x, &rk->block.y, &rk->block.z) == 3;
		} else if (!strncmp(line, "dyn_shared ", 11)) {
			ok = sscanf(line, "dyn_shared %u", &rk->dyn_shared) == 1;
		} else if (!strncmp(line, "buffer ", 7) && rk->nbufs < WG_RK_MAXBUF) {
			struct wg_rk_buf *b = &rk->bufs[rk->nbufs];
			char fill[16];

			ok = sscanf(line, "buffer %15s %u %u %15s %llu %d", b->name, &b->bytes, &b->param_offset, fill, &u,
			            &b->output) == 6;
			b->fill = strcmp(fill, "zero") ? WG_RK_FILL_RANDOM : WG_RK_FILL_ZERO;
			b->fill_seed = u;
			rk->nbufs++;
		} else if (!strncmp(line, "params ", 7)) {
			char *s = line + 7, *end;

			rk->param_bytes = (uint32_t)strtoul(s, &end, 10);
			ok = end != s && rk->param_bytes <= sizeof(rk->params);
			for (uint32_t i = 0; ok && i < rk->param_bytes; i++) {
				s = end;
				rk->params[i] = (uint8_t)strtoul(s, &end, 16);
				ok = end != s;
			}
		} else {
			ok = 0;
		}
		if (!ok) {
			snprintf(err, errlen, "%s:%u: cannot parse: %s", launch_path, lineno, line);
			fclose(f);
			return WG_EFORMAT;
		}
	}
	fclose(f);
	/* the source next to the launch file */
	{
		const char *slash = strrchr(launch_path, '/');
		int dlen = slash ? (int)(slash - launch_path) : 1;

		snprintf(p, sizeof(p), "%.*s/%s", dlen, slash ? launch_path : ".", src_name);
	}
	f = fopen(p, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open the kernel source", p);
		return WG_ENOENT;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	rk->src = malloc((size_t)(n > 0 ? n : 0) + 1);
	if (!rk->src || (n > 0 && fread(rk->src, 1, (size_t)n, f) != (size_t)n)) {
		fclose(f);
		free(rk->src);
		rk->src = NULL;
		snprintf(err, errlen, "%s: cannot read", p);
		return WG_EIO;
	}
	rk->src[n > 0 ? n : 0] = '\0';
	fclose(f);
	return 0;
}
