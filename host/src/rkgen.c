/*
 * Constrained-random kernel generator (rkgen.h, docs/cosim.md "Random kernels").
 *
 * Register plan of every kernel (.regs 52):
 *   R0 linear tid in the CTA       R1 global thread id      R2 own output area
 *   R3 input buffer                R4 counter buffer         R5 own exchange slot (shared)
 *   R6, R7 address temporaries     R8, R9 loop counters      R10, R11 trip counts
 *   R12 sink (clock values, returns of contended atomics; never read)
 *   R13 scratch                    R14 own shared atomic slot  R15 scratch
 *   R16..R47 the value pool: every random instruction reads and writes these
 *   (and reads R0, R1, RZ).
 *   R48 lane (R0 & 31)             R49 warp index in the grid (CTA x warps per CTA + R0 / 32)
 *   R50 the warp's part of region P of out    R51 the warp's block of shared region D
 * Predicates: P0..P4 random, P5 breaks, wrap-around and lane guards (set right
 * before use), P6 loop latches.
 *
 * Memory plan:
 *   in   INB bytes of random words, read-only: any aligned index, and warp
 *        access patterns (consecutive, strided by 2/4/32 words, permuted in
 *        lines, scattered over lines, broadcast) for LDG and LDG.CG
 *   out  256 bytes per thread: words 0..31 the final dump of the pool,
 *        words 32..63 random stores, loads and atomics of the thread itself;
 *        then region P: P_WARP bytes per warp of the grid, in which every
 *        pattern store or atomic instruction (a "site") has its own area
 *        at the same offset, so no two warps ever write the same byte.
 *        Within its area a warp's STG lanes write coalescing patterns (full
 *        lines, half lines, one segment per line, mapped segments, one
 *        segment or line per lane, lanes colliding on one address: the
 *        highest lane's bytes stay); ATOMG sites apply any operation with
 *        lanes colliding (lane order) and keep the results
 *   cnt  64 words: word op (port atomic encoding) gets ATOMG.op from every
 *        thread, commutative ops only (INC/DEC with one fixed bound)
 *   shared: A = 16-byte exchange slot per thread (written between barriers
 *        a and b, read anywhere else), B = 16 counter words (ATOMS, read only
 *        between a and b), C = 16-byte own slot per thread (STS/LDS/ATOMS
 *        of the thread itself), D = a block of DRB bytes (DRB/128 rows of the
 *        32 banks) per warp, written by all threads before the prologue's
 *        barrier, then loaded, stored and updated atomically only by its
 *        warp with bank-conflict patterns (stride 1, 2, 32 and others,
 *        broadcast, permutations; lanes colliding)
 *   local LOCALB (64) bytes per thread, written in the prologue; in
 *        spill kernels (.local 576..2112) eight 16-byte chunks CS bytes apart
 *        from byte 64 are also written in the prologue (STL.32/64/128),
 *        read back (LDL) later, sometimes rewritten; a warp's chunks share
 *        few L1 sets, so that the SM's 16 KB L1 evicts dirty local lines
 *        even with one warp; stores go anywhere in the window,
 *        loads only where every thread reaching them has written (the
 *        prologue's bytes, or a store earlier in the same block)
 *   param in, out, cnt pointers and ten u32 words (64 bytes)
 */
#include "rkgen.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

#define REGS 52
#define POOL0 16
#define NPOOL 32
#define SINK 12
#define LANE 48
#define GWARP 49
#define PBASE 50
#define DBASE 51
#define INB 16384u
#define OUTB 256u
#define NCNT 64u
#define LOCALB 64u
#define NCHUNK 8u
#define PARAMB 64u
#define INC_BOUND 1000u
#define DEC_BOUND 500u
#define QUOTA_MOD 12u
#define PQUOTA_MOD 48u
#define P_WARP 8192u /* bytes of region P per warp */
#define D_MAX 16384u /* bytes of shared region D per CTA (8 KB with 32 rows per warp) */

struct gen {
	uint64_t rng;
	char *buf;
	size_t len, cap;
	int err;
	uint32_t threads;  /* per CTA */
	uint32_t wpc, nw;  /* warps per CTA, warps in the grid */
	uint32_t sh_b, sh_c; /* shared offsets of regions B and C */
	uint32_t sh_d, drb;  /* shared region D, bytes per warp (a power of two, >= 128) */
	uint32_t localb;     /* local bytes per thread */
	uint32_t cs;         /* spill chunk stride (0: no spill chunks) */
	uint32_t p_warp;     /* bytes of region P per warp allocated so far */
	uint8_t rot[64][8];  /* per opcode and width: the next access pattern (rotating) */
	unsigned force;      /* 1 + the pattern the next memory access must use, unguarded */
	unsigned label;
	unsigned budget;   /* instructions left for random items */
	const struct wg_isa_entry **quota;
	size_t nquota, quota_pos;
	const struct wg_isa_entry **pickable;
	size_t npickable;
	struct pq { const struct wg_isa_entry *e; unsigned pat; } *pquota; /* pattern quota */
	size_t npquota, pquota_pos;
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
	if (!g->force && chance(g, percent))
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

static unsigned lg2(uint32_t v)
{
	return v ? 31u - (unsigned)__builtin_clz(v) : 0;
}

/* A lane-structured guard: P5 from the lane (first or last lanes, alternating groups, one lane). */
static void lane_guard(struct gen *g, char *gd, size_t len)
{
	switch (below(g, 4)) {
	case 0: emit(g, "    ISETP.LT.U32 P5, R%u, %u\n", LANE, 1 + below(g, 31)); break;
	case 1: emit(g, "    ISETP.GE.U32 P5, R%u, %u\n", LANE, 1 + below(g, 31)); break;
	case 2:
		emit(g, "    AND R13, R%u, %u\n", LANE, 1u << below(g, 5));
		emit(g, "    ISETP.NE P5, R13, 0\n");
		break;
	default: emit(g, "    ISETP.EQ P5, R%u, %u\n", LANE, below(g, 32)); break;
	}
	snprintf(gd, len, "@%sP5 ", chance(g, 25) ? "!" : "");
}

/* Sometimes replace the random guard by a lane guard (only some lanes access). */
static const char *maybe_lane_guard(struct gen *g, const char *gd, char *buf, size_t len)
{
	if (g->force || !chance(g, 25))
		return gd;
	lane_guard(g, buf, len);
	return buf;
}

/* The next of n access patterns for rows of op and mod: every pattern in turn, from a random start. */
static unsigned next_pattern(struct gen *g, unsigned op, unsigned mod, unsigned n)
{
	uint8_t *r = &g->rot[op & 63][mod & 7];

	if (g->force) {
		unsigned p = g->force - 1;

		g->force = 0;
		return p % n;
	}
	if (!*r)
		*r = (uint8_t)(1 + below(g, 240));
	return (*r)++ % n;
}

/* R<rd> = lane << k (k may be 0). */
static void emit_lane_shl(struct gen *g, unsigned rd, unsigned k)
{
	emit(g, "    SHL R%u, R%u, %u\n", rd, LANE, k);
}

/* R<rd> = lane * m. */
static void emit_lane_mul(struct gen *g, unsigned rd, uint32_t m)
{
	if (!(m & (m - 1)))
		emit_lane_shl(g, rd, lg2(m));
	else
		emit(g, "    IMUL R%u, R%u, %u\n", rd, LANE, m);
}

/*
 * R<rd> = a permutation of the lanes within aligned groups of n (a power of
 * two): (lane & ~(n-1)) | (((lane * a) ^ x) & (n-1)), a odd; R<tmp> scratch.
 */
static void emit_perm(struct gen *g, unsigned rd, unsigned n, unsigned tmp)
{
	unsigned a = 1 + 2 * below(g, 16), x = below(g, n);

	emit(g, "    IMUL R%u, R%u, %u\n", rd, LANE, a);
	emit(g, "    XOR R%u, R%u, %u\n", rd, rd, x);
	emit(g, "    AND R%u, R%u, %u\n", rd, rd, n - 1);
	if (n < 32) {
		emit(g, "    AND R%u, R%u, %u\n", tmp, LANE, 31 & ~(n - 1));
		emit(g, "    OR R%u, R%u, R%u\n", rd, rd, tmp);
	}
}

/*
 * A global load of the input buffer with a warp access pattern: consecutive,
 * strided by 2, 4 or 32 words (elements of 8 or 16 bytes), permuted within
 * lines, scattered over 2..32 lines, or one address for all threads.
 */
static void emit_gload_pattern(struct gen *g, const struct wg_isa_entry *en, const char *gd, unsigned rd)
{
	static const unsigned strides[] = { 2, 4, 32 }, sps[] = { 1, 2, 3, 5 };
	const char *mn = en->mnemonic;
	unsigned s = wg_width_bytes(en->mod), e = s < 4 ? 4 : s, j = s < 4 ? s * below(g, 4 / s) : 0;
	unsigned p = next_pattern(g, en->op, en->mod, 7), nl = 2, sp = 1, breg = 3;
	uint32_t span, base, room, sb = 0;

	switch (p) {
	case 0: /* consecutive */
		sb = s;
		span = 32 * s;
		j = 0;
		break;
	case 1: /* every thread the same address */
		span = e;
		break;
	case 2: /* permuted within lines (groups of 128 / e lanes) */
		span = 32 * e;
		break;
	case 3: { /* scattered: lane -> one of nl lines sp lines apart, the lanes of a line packed */
		unsigned lo = e / 4 > 2 ? e / 4 : 2;

		nl = lo << below(g, 6 - lg2(lo));
		sp = sps[below(g, 4)];
		if (((nl - 1) * sp + 1) * 128 > INB)
			sp = 3;
		span = ((nl - 1) * sp + 1) * 128;
		break;
	}
	default: /* strided by 2, 4 or 32 words (elements) */
		sb = strides[p - 4] * e;
		span = 31 * sb + e;
		break;
	}
	room = INB - span;
	base = chance(g, 70) ? 128 * below(g, room / 128 + 1) : s * below(g, room / s + 1);
	if (room - base >= 256 && chance(g, 15)) { /* the warps at different lines */
		uint32_t m = 1u << lg2((room - base) / 128);

		emit(g, "    IMUL R13, R%u, %u\n", GWARP, 128 * (1 + 2 * below(g, 4)));
		emit(g, "    AND R13, R13, %u\n", (m - 1) * 128);
		emit(g, "    IADD R13, R13, R3\n");
		breg = 13;
	}
	switch (p) {
	case 1:
		emit(g, "%s%s R%u, [R%u+%u]\n", gd, mn, rd, breg, base + j);
		return;
	case 2:
		emit_perm(g, 7, 128 / e < 32 ? 128 / e : 32, 6);
		emit(g, "    IMAD R6, R7, %u, R%u\n", e, breg);
		break;
	case 3: {
		unsigned a = 1 + 2 * below(g, 16), x = below(g, nl);

		emit(g, "    IMUL R7, R%u, %u\n", LANE, a);
		emit(g, "    XOR R7, R7, %u\n", x);
		emit(g, "    AND R7, R7, %u\n", nl - 1);
		emit(g, "    SHR.U32 R6, R%u, %u\n", LANE, lg2(nl));
		emit(g, "    IMAD R6, R6, %u, R%u\n", e, breg);
		emit(g, "    IMAD R6, R7, %u, R6\n", 128 * sp);
		break;
	}
	default:
		emit(g, "    IMAD R6, R%u, %u, R%u\n", LANE, sb, breg);
		break;
	}
	emit(g, "%s%s R%u, [R6+%u]\n", gd, mn, rd, base + j);
}

/* Reserve area bytes in every warp's part of region P; the offset there (-1 when full). */
static long p_alloc(struct gen *g, uint32_t area)
{
	long off = g->p_warp;

	if (g->p_warp + area > P_WARP)
		return -1;
	g->p_warp += area;
	return off;
}

/*
 * A global store with a coalescing pattern into a fresh area of the warp's
 * part of region P: R6 = R50 + f(lane), the store at R6 + the area's offset;
 * f injective except in the colliding pattern (groups of lanes on one
 * address with different values: the highest lane's bytes stay).
 */
static int emit_gstore_pattern(struct gen *g, const struct wg_isa_entry *en, const char *gd, unsigned rs)
{
	const char *mn = en->mnemonic;
	unsigned s = wg_width_bytes(en->mod), l = 32 / s; /* lanes per 32-byte segment */
	unsigned kind = next_pattern(g, en->op, en->mod, 6), off = 0, a = 1 + 2 * below(g, 16), m = 1 + below(g, 5);
	uint32_t area;
	long site;

	if (kind == 1 && s == 1)
		kind = 2;
	/* the area first, so that a full region falls back before any code */
	switch (kind) {
	case 0: off = chance(g, 25) ? s * below(g, 128 / s) : 0; area = (32 * s + off + 127) & ~127u; break;
	case 1: area = 64 / s >= 32 ? 128 : (32 * s / 64) * 128; off = 64 * below(g, 2); break;
	case 2: area = l >= 32 ? 128 : s * 128; off = 32 * below(g, 4); break;
	case 3: area = 32u << (lg2(s > 4 ? s : 4) + below(g, 6 - lg2(s > 4 ? s : 4))); break;
	case 4: area = chance(g, 20) ? 4096 : 1024; off = s * below(g, 32 / s); break;
	default: area = ((32 >> m) * s + 127) & ~127u; break;
	}
	site = p_alloc(g, area);
	if (site < 0) {
		kind = 0;
		off = 0;
		area = (32 * s + 127) & ~127u;
		site = p_alloc(g, area);
		if (site < 0)
			return 0;
	}
	switch (kind) {
	case 1:
	case 2: { /* h lanes per half line (64 / s) or per segment (32 / s), one group per line */
		unsigned h = kind == 1 ? 64 / s : l;

		if (h < 32) {
			emit(g, "    SHR.U32 R13, R%u, %u\n", LANE, lg2(h));
			emit(g, "    IMAD R13, R13, 128, R%u\n", PBASE);
			emit(g, "    AND R7, R%u, %u\n", LANE, h - 1);
			emit(g, "    IMAD R6, R7, %u, R13\n", s);
			break;
		}
		/* all lanes in one half line or segment */
		__attribute__((fallthrough));
	}
	case 0: /* consecutive: full lines (or from an offset in the first line) */
		emit(g, "    IMAD R6, R%u, %u, R%u\n", LANE, s, PBASE);
		break;
	case 3: { /* the lanes of each segment's worth on distinct segments of the area */
		unsigned ns = area / 32, ng = 32 / l;

		if (ng > 1) {
			emit(g, "    SHR.U32 R13, R%u, %u\n", LANE, lg2(l));
			emit(g, "    IMUL R13, R13, %u\n", a);
			emit(g, "    XOR R13, R13, %u\n", below(g, ns));
			emit(g, "    AND R13, R13, %u\n", ns - 1);
			emit(g, "    IMAD R13, R13, 32, R%u\n", PBASE);
		} else {
			off = 32 * below(g, ns);
		}
		emit(g, "    XOR R7, R%u, %u\n", LANE, below(g, l));
		emit(g, "    AND R7, R7, %u\n", l - 1);
		emit(g, "    IMAD R6, R7, %u, R%u\n", s, ng > 1 ? 13 : PBASE);
		break;
	}
	case 4: /* one segment (area 1 KB) or one line (4 KB) per lane */
		emit_perm(g, 7, 32, 13);
		emit(g, "    IMAD R6, R7, %u, R%u\n", area == 4096 ? 128 : 32, PBASE);
		break;
	default: /* groups of 2^m lanes on one address */
		emit_perm(g, 7, 32, 13);
		emit(g, "    SHR.U32 R7, R7, %u\n", m);
		emit(g, "    IMAD R6, R7, %u, R%u\n", s, PBASE);
		break;
	}
	emit(g, "%s%s [R6+%ld], R%u\n", gd, mn, site + off, rs);
	return 1;
}

/*
 * R7 (or R<DBASE> with the offset in *imm) = an address in the warp's block
 * of shared region D with a bank pattern for accesses of s bytes: stride
 * 1 or 2 words (elements), 32 words, 3, 4, 8 or 16 words (elements),
 * wrapping in the block; one word for all; a permutation; a random word.
 * Returns the base register.
 */
static unsigned emit_dsh_addr(struct gen *g, const struct wg_isa_entry *en, unsigned s, uint32_t *imm)
{
	static const unsigned strides[] = { 3, 4, 8, 16 };
	unsigned e = s < 4 ? 4 : s, j = s < 4 ? s * below(g, 4 / s) : 0, p = next_pattern(g, en->op, en->mod, 7);
	uint32_t sb;

	*imm = j;
	switch (p) {
	case 0: /* stride 1 or 2 words (elements of 8 or 16 bytes) */
	case 1: sb = (p + 1) * e; break;
	case 2: sb = 128; break; /* stride 32 words: one bank (two or four for 64 and 128 bits) */
	case 3: sb = strides[below(g, 4)] * e; break;
	case 4: /* broadcast */
		*imm = e * below(g, g->drb / e) + j;
		return DBASE;
	case 5:
		emit_perm(g, 7, 32, 13);
		if (32 * e <= g->drb) {
			emit(g, "    IMAD R7, R7, %u, R%u\n", e, DBASE);
			return 7;
		}
		emit(g, "    SHL R7, R7, %u\n", lg2(e));
		goto wrap;
	default: /* a random word */
		emit(g, "    AND R7, R%u, 0x%x\n", pool(g), (g->drb - 1) & ~(s - 1));
		*imm = 0;
		goto add;
	}
	if (32 * sb <= g->drb) {
		emit(g, "    IMAD R7, R%u, %u, R%u\n", LANE, sb, DBASE);
		return 7;
	}
	emit_lane_mul(g, 7, sb);
wrap:
	emit(g, "    AND R7, R7, 0x%x\n", (g->drb - 1) & ~(s - 1));
add:
	emit(g, "    IADD R7, R7, R%u\n", DBASE);
	return 7;
}

/* A local offset of s bytes that every thread has written since the prologue. */
static uint32_t local_def(struct gen *g, unsigned s)
{
	if (g->cs && chance(g, 60))
		return 64 + g->cs * below(g, NCHUNK) + s * below(g, 16 / s);
	return s * below(g, LOCALB / s);
}

/* Access patterns of the rows of op (0: none); the pattern quota walks through them. */
static unsigned npatterns(unsigned op)
{
	switch (op) {
	case WG_OP_LDG:
	case WG_OP_LDGCG: return 7;
	case WG_OP_STG: return 6;
	case WG_OP_LDS:
	case WG_OP_STS: return 7;
	default: return 0;
	}
}

static void emit_load(struct gen *g, const struct wg_isa_entry *e, const char *gd)
{
	unsigned mod = e->mod, bytes = wg_width_bytes(mod);
	unsigned rd = dst_for(g, mod);
	const char *mn = e->mnemonic;
	char lg[16];

	switch (e->op) {
	case WG_OP_LDG:
	case WG_OP_LDGCG:
		if (g->force || chance(g, 65)) {
			emit_gload_pattern(g, e, maybe_lane_guard(g, gd, lg, sizeof(lg)), rd);
		} else if (chance(g, 30)) { /* the thread's own words */
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
		if (g->force || chance(g, 55)) { /* the warp's block of region D, bank patterns */
			uint32_t off = 0;
			unsigned ra;

			gd = maybe_lane_guard(g, gd, lg, sizeof(lg));
			ra = emit_dsh_addr(g, e, bytes, &off);
			emit(g, "%s%s R%u, [R%u+%u]\n", gd, mn, rd, ra, off);
		} else if (chance(g, 50)) { /* any exchange slot (region A is written only between barriers a and b) */
			emit(g, "    AND R13, R%u, 0x%x\n", pool(g), (g->threads * 16 - 1) & ~15u);
			emit(g, "    ISETP.GE.U32 P5, R13, %u\n", g->threads * 16);
			emit(g, "@P5 MOV R13, R5\n");
			emit(g, "%s%s R%u, [R13+%u]\n", gd, mn, rd, bytes * below(g, 16 / bytes));
		} else { /* own slot in region C */
			emit(g, "%s%s R%u, [R14+%u]\n", gd, mn, rd, bytes * below(g, 16 / bytes));
		}
		break;
	case WG_OP_LDL:
		if (chance(g, 20))
			gd = maybe_lane_guard(g, gd, lg, sizeof(lg));
		if (chance(g, 50)) {
			emit(g, "%s%s R%u, [%u]\n", gd, mn, rd, local_def(g, bytes));
		} else if (g->cs && chance(g, 60)) { /* a chunk picked by the thread */
			emit(g, "    AND R7, R%u, %u\n", pool(g), NCHUNK - 1);
			emit(g, "    SHL R7, R7, %u\n", lg2(g->cs));
			emit(g, "%s%s R%u, [R7+%u]\n", gd, mn, rd, 64 + bytes * below(g, 16 / bytes));
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
	char lg[16];

	switch (e->op) {
	case WG_OP_STG:
		if ((g->force || chance(g, 70)) && emit_gstore_pattern(g, e, maybe_lane_guard(g, gd, lg, sizeof(lg)), rs))
			break;
		emit(g, "%s%s [R2+%u], R%u\n", gd, mn, 128 + bytes * below(g, 128 / bytes), rs);
		break;
	case WG_OP_STS:
		if (g->force || chance(g, 55)) { /* the warp's block of region D; colliding lanes: the highest stays */
			uint32_t off = 0;
			unsigned ra;

			gd = maybe_lane_guard(g, gd, lg, sizeof(lg));
			ra = emit_dsh_addr(g, e, bytes, &off);
			emit(g, "%s%s [R%u+%u], R%u\n", gd, mn, ra, off, rs);
		} else { /* own slot in region C */
			emit(g, "%s%s [R14+%u], R%u\n", gd, mn, bytes * below(g, 16 / bytes), rs);
		}
		break;
	default: /* STL: anywhere in the window */
		if (chance(g, 20))
			gd = maybe_lane_guard(g, gd, lg, sizeof(lg));
		if (chance(g, 50)) {
			emit(g, "%s%s [%u], R%u\n", gd, mn, bytes * below(g, g->localb / bytes), rs);
		} else {
			uint32_t w = 1u << lg2(g->localb);

			emit(g, "    AND R7, R%u, 0x%x\n", pool(g), (chance(g, 50) ? LOCALB - 1 : w - 1) & ~(bytes - 1));
			emit(g, "%s%s [R7], R%u\n", gd, mn, rs);
		}
		break;
	}
}

static void emit_atomic(struct gen *g, const struct wg_isa_entry *e, const char *gd)
{
	int shared = e->op == WG_OP_ATOMS || e->op == WG_OP_ATOMSX;
	unsigned port = e->mod + ((e->op == WG_OP_ATOMGX || e->op == WG_OP_ATOMSX) ? 8 : 0);
	/*
	 * Where: 0 a counter (commutative updates, results discarded), 1 the
	 * thread's own word, 2 a word of the warp's own (shared region D or an
	 * area of region P): lanes applied in lane order, any operation.
	 */
	unsigned where = chance(g, 35) ? 2 : (port == 3 || port == 4 || port == 12 || chance(g, 30)) ? 1 : 0;
	char b[32], c[16], lg[16];
	unsigned rd = where ? pool(g) : SINK;

	if (where == 2 && !shared && g->p_warp + 128 > P_WARP)
		where = 1;
	if (port == 10 || port == 11)
		snprintf(b, sizeof(b), "%u", port == 10 ? INC_BOUND : DEC_BOUND);
	else
		opnd_b(g, b, sizeof(b), port == 12);
	if (where == 2 && (port == 10 || port == 11) && chance(g, 50))
		snprintf(b, sizeof(b), "%u", below(g, 8));
	if (where && port != 10 && port != 11 && chance(g, 50))
		snprintf(b, sizeof(b), "R%u", pool(g));
	if (!where && chance(g, 30))
		rd = 63; /* RZ: a reduction */
	if (where == 2) {
		gd = maybe_lane_guard(g, gd, lg, sizeof(lg));
		if (shared) {
			uint32_t off = 0;
			unsigned ra = emit_dsh_addr(g, e, 4, &off);

			if (ra == DBASE)
				emit(g, "    IADD R7, R%u, %u\n", DBASE, off);
			else if (off)
				emit(g, "    IADD R7, R7, %u\n", off);
		} else { /* 2^k words of a 128-byte area, lanes colliding */
			long site = p_alloc(g, 128);
			unsigned n = 1u << below(g, 6);

			if (n > 1) {
				emit(g, "    IMUL R7, R%u, %u\n", LANE, 1 + 2 * below(g, 16));
				emit(g, "    XOR R7, R7, %u\n", below(g, n));
				emit(g, "    AND R7, R7, %u\n", n - 1);
				emit(g, "    IMAD R7, R7, 4, R%u\n", PBASE);
				emit(g, "    IADD R7, R7, %ld\n", site);
			} else {
				emit(g, "    IADD R7, R%u, %ld\n", PBASE, site + 4 * below(g, 32));
			}
		}
	} else if (shared) {
		if (where)
			emit(g, "    MOV R7, R14\n");
		else
			emit(g, "    MOV R7, %u\n", g->sh_b + 4 * (port & 15));
	} else {
		if (where)
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
	int fp = e->cls == WG_CLASS_FP || e->op == WG_OP_FDIV;

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

/* The next access of the pattern quota: the whole warp (top level, no guard). */
static void emit_pquota(struct gen *g)
{
	const struct pq *q = &g->pquota[g->pquota_pos++];

	g->force = 1 + q->pat;
	emit_entry(g, q->e);
	g->force = 0;
}

static void gen_item(struct gen *g, unsigned depth, unsigned loops, int brk_label)
{
	uint32_t r = below(g, 100);

	if (r < 12 && depth < 4 && g->budget > 8) { /* if / else */
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
	if (r < 19 && loops < 2 && depth < 4 && g->budget > 8) { /* counted loop */
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
	if (r < 23 && brk_label >= 0) { /* break out of the innermost loop */
		emit_cond(g, 5);
		emit(g, "@P5 BRA L%d_brk\n", brk_label);
		return;
	}
	if (r < 26 && g->budget > 4) { /* spill and fill: a local store read back later in the same block */
		static const unsigned mods[] = { 4, 5, 6 };
		unsigned mod = mods[below(g, 3)], bytes = wg_width_bytes(mod), n = wg_width_regs(mod);
		uint32_t off = bytes * below(g, g->localb / bytes);

		emit(g, "    STL.%u [%u], R%u\n", 8 * bytes, off, pool_group(g, n));
		g->budget--;
		for (unsigned i = below(g, 3); i && g->budget; i--)
			gen_item(g, depth, loops, brk_label);
		emit(g, "    LDL.%u R%u, [%u]\n", 8 * bytes, pool_group(g, n), off);
		return;
	}
	if (!depth && g->pquota_pos < g->npquota && chance(g, 35)) {
		emit_pquota(g);
	} else {
		emit_entry(g, next_entry(g));
	}
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

/* Local memory: the prologue's 64 bytes, and the spill chunks. */
static void gen_spill_chunk(struct gen *g, unsigned j)
{
	uint32_t off = 64 + g->cs * j;

	switch (below(g, 5)) {
	case 0:
		emit(g, "    STL.64 [%u], R%u\n", off, pool_group(g, 2));
		emit(g, "    STL.64 [%u], R%u\n", off + 8, pool_group(g, 2));
		break;
	case 1:
		for (unsigned i = 0; i < 4; i++)
			emit(g, "    STL.32 [%u], R%u\n", off + 4 * i, pool(g));
		break;
	default:
		emit(g, "    STL.128 [%u], R%u\n", off, pool_group(g, 4));
		break;
	}
}

/* At the top level, after the prologue: read spill chunks back, sometimes write some again. */
static void gen_refill(struct gen *g)
{
	if (!g->cs)
		return;
	for (unsigned i = 1 + below(g, 3); i; i--) {
		static const char *const w[] = { "32", "64", "128" };
		unsigned k = below(g, 3), bytes = 4u << k;

		emit(g, "    LDL.%s R%u, [%u]\n", w[k], pool_group(g, 1u << k),
		     64 + g->cs * below(g, NCHUNK) + bytes * below(g, 16 / bytes));
	}
	if (chance(g, 40))
		gen_spill_chunk(g, below(g, NCHUNK));
}

int wg_rkgen(struct wg_rk *rk, uint64_t seed)
{
	struct gen g = { 0 };
	uint32_t total, sh_total, q = 0, pq = 0, dr, nst, rounds, nsh32 = 0;
	const struct wg_isa_entry *sh32[16];
	int rc;

	memset(rk, 0, sizeof(*rk));
	rk->seed = seed;
	g.rng = seed * 0x2545F4914F6CDD1Dull + 0x1234567ull;
	g.cap = 16384;
	g.buf = malloc(g.cap);
	g.pickable = calloc(wg_isa_table_len, sizeof(*g.pickable));
	g.quota = calloc(wg_isa_table_len, sizeof(*g.quota));
	g.pquota = calloc(wg_isa_table_len, sizeof(*g.pquota));
	if (!g.buf || !g.pickable || !g.quota || !g.pquota) {
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
		if (e->op == WG_OP_LDS || e->op == WG_OP_STS)
			sh32[nsh32++] = e;
		for (unsigned p = 0; p < npatterns(e->op); p++)
			if (pq++ % PQUOTA_MOD == seed % PQUOTA_MOD && g.npquota < wg_isa_table_len)
				g.pquota[g.npquota++] = (struct pq){ e, p };
	}
	snprintf(rk->name, sizeof(rk->name), "rk%llu", (unsigned long long)seed);
	g.localb = LOCALB;
	if (chance(&g, 35)) { /* a spill kernel: eight chunks 64..256 bytes apart */
		g.cs = 64u << below(&g, 3);
		g.localb = 64 + NCHUNK * g.cs;
	}
	pick_launch(&g, rk);
	total = g.threads * rk->grid.x * rk->grid.y * rk->grid.z;
	g.wpc = (g.threads + 31) / 32;
	g.nw = g.wpc * rk->grid.x * rk->grid.y * rk->grid.z;
	g.sh_b = g.threads * 16;
	g.sh_c = g.sh_b + 64;
	/* region D: rows per warp such that the prologue writes it in at most 8 rounds */
	g.sh_d = (g.sh_c + g.threads * 16 + 127) & ~127u;
	for (dr = 32; dr > 1; dr /= 2)
		if (g.wpc * dr * 128 <= (dr == 32 ? D_MAX / 2 : D_MAX) && (g.wpc * dr * 8 + g.threads - 1) / g.threads <= 8)
			break;
	if (dr > 1 && chance(&g, 25))
		dr /= 2;
	g.drb = dr * 128;
	sh_total = g.sh_d + g.wpc * g.drb;
	rk->dyn_shared = chance(&g, 30) ? 16 * (1 + below(&g, 4)) : 0;
	g.budget = 20 + below(&g, 64);

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
	emit(&g, ".kernel %s\n.regs %u\n.shared %u\n.local %u\n", rk->name, REGS, sh_total - rk->dyn_shared,
	     g.localb);
	emit(&g, ".param ptr in\n.param ptr out\n.param ptr cnt\n");
	for (unsigned i = 0; i < 10; i++)
		emit(&g, ".param u32 k%u\n", i);
	/* prologue: ids, bases, pool, local, shared counters */
	emit(&g, "    S2R R13, SR_TID.X\n    S2R R14, SR_TID.Y\n    S2R R15, SR_NTID.X\n");
	emit(&g, "    IMAD R0, R14, R15, R13\n    S2R R14, SR_TID.Z\n    S2R R6, SR_NTID.Y\n");
	emit(&g, "    IMUL R6, R6, R15\n    IMAD R0, R14, R6, R0\n");
	emit(&g, "    S2R R13, SR_CTAID.X\n    S2R R14, SR_CTAID.Y\n    S2R R15, SR_NCTAID.X\n");
	emit(&g, "    IMAD R13, R14, R15, R13\n    IMAD R1, R13, %u, R0\n", g.threads);
	emit(&g, "    SHR.U32 R15, R0, 5\n    IMAD R%u, R13, %u, R15\n", GWARP, g.wpc);
	emit(&g, "    AND R%u, R0, 31\n    SHL R%u, R15, %u\n    IADD R%u, R%u, %u\n", LANE, DBASE, lg2(g.drb), DBASE,
	     DBASE, g.sh_d);
	emit(&g, "    LDC.32 R%u, [out]\n    IADD R%u, R%u, %u\n", PBASE, PBASE, PBASE, total * OUTB);
	emit(&g, "    IMAD R%u, R%u, %u, R%u\n", PBASE, GWARP, P_WARP, PBASE);
	emit(&g, "    LDC.32 R2, [out]\n    SHL R13, R1, 8\n    IADD R2, R2, R13\n");
	emit(&g, "    LDC.32 R3, [in]\n    LDC.32 R4, [cnt]\n    SHL R5, R0, 4\n");
	emit(&g, "    IADD R14, R5, %u\n", g.sh_c);
	for (unsigned i = 0; i < NPOOL / 4; i++) {
		emit(&g, "    IMUL R6, R1, %u\n", 16 * (2 * i + 1) + 16 * below(&g, 8));
		emit(&g, "    AND R6, R6, 0x%x\n    IADD R6, R6, R3\n", INB / 2 - 16);
		emit(&g, "    LDG.128 R%u, [R6+%u]\n", POOL0 + 4 * i, 16 * below(&g, INB / 32));
	}
	for (unsigned i = below(&g, 4); i; i--)
		emit(&g, "    I2F.F32.S32 R%u, R%u\n", pool(&g), pool(&g));
	for (unsigned i = 0; i < LOCALB / 16; i++)
		emit(&g, "    STL.128 [%u], R%u\n", 16 * i, pool_group(&g, 4));
	for (unsigned j = 0; g.cs && j < NCHUNK; j++)
		gen_spill_chunk(&g, j);
	emit(&g, "    STS.128 [R14], R%u\n", pool_group(&g, 4));
	emit(&g, "    ISETP.EQ P0, R0, 0\n");
	for (unsigned i = 0; i < 4; i++)
		emit(&g, "@P0 STS.128 [%u], R%u\n", g.sh_b + 16 * i, pool_group(&g, 4));
	/* region D: 16-byte stripe i by thread i mod threads */
	nst = g.wpc * g.drb / 16;
	rounds = (nst + g.threads - 1) / g.threads;
	emit(&g, "    SHL R7, R0, 4\n");
	for (unsigned r = 0; r < rounds; r++) {
		const char *gd = "    ";

		if (r == rounds - 1 && nst % g.threads) {
			emit(&g, "    ISETP.LT.U32 P5, R0, %u\n", nst - g.threads * r);
			gd = "@P5 ";
		}
		emit(&g, "%sSTS.128 [R7+%u], R%u\n", gd, g.sh_d + 16 * g.threads * r, pool_group(&g, 4));
	}
	emit(&g, "    BAR.SYNC %u\n", below(&g, 16)); /* the counters are set before any atomic */

	/* phases */
	for (unsigned ph = 1 + below(&g, 3); ph; ph--) {
		gen_block(&g, 0, 0, -1);
		gen_exchange(&g);
		gen_refill(&g);
	}
	g.budget += 8;
	gen_block(&g, 0, 0, -1);
	while (g.quota_pos < g.nquota)
		emit_entry(&g, g.quota[g.quota_pos++]);
	while (g.pquota_pos < g.npquota)
		emit_pquota(&g);
	for (unsigned i = 0; g.drb == 4096 && nsh32 && i < 2; i++) { /* 32-way bank conflicts of two rows */
		g.force = 1 + 2;
		emit_entry(&g, sh32[(i ? 7 * seed + 3 : seed) % nsh32]);
		g.force = 0;
	}
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
	if (g.p_warp) /* with region P */
		rk->bufs[1].bytes = total * OUTB + (g.nw - 1) * P_WARP + g.p_warp;
	rc = g.err;
	if (!rc) {
		rk->src = g.buf;
		g.buf = NULL;
	}
out:
	free(g.buf);
	free(g.pickable);
	free(g.quota);
	free(g.pquota);
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
