/*
 * cmocka tests of the constrained-random kernel generator (host/src/rkgen.c):
 * for seeds 1..200 every kernel assembles, runs on the golden model without
 * a fault, gives the same memory image twice, and over those seeds every
 * mnemonic of the ISA table appears. A third run steps the kernel through
 * the golden model's stepping API with shadow registers, so that every warp
 * memory access is seen with its lanes' addresses; over the seeds every
 * access pattern the memory pipeline distinguishes must appear
 * (docs/memory-pipeline.md): global loads (LDG and LDG.CG, every width)
 * consecutive, strided by 2, 4 and 32 words, permuted within lines,
 * scattered over a few lines, broadcast and divergent; global stores of
 * every width coalesced into 128, 64 and 32 byte accesses, scattered, lanes
 * colliding with different data, divergent; shared loads and stores of
 * every width conflict-free, with 2-way and 32-way bank conflicts,
 * broadcast, colliding stores; local loads and stores of 32, 64 and 128
 * bits, also divergent, and local data that a 16 KB L1 (64 sets x 2 ways,
 * LRU, write-back) evicts dirty and reloads; atomics of every kind with
 * lanes colliding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "func_fixture.h"
#include "rkgen.h"

#define SEEDS 200

/* Run rk on a fresh memory; returns the output buffers concatenated (free it). */
static uint8_t *run_rk(const struct wg_rk *rk, const struct wg_kernel *k, size_t *len)
{
	struct wg_config cfg;
	struct wg_gmem *g;
	struct wg_func *f;
	struct wg_launch l = { 0 };
	struct wg_stats st = { 0 };
	struct wg_err err = { { 0 } };
	uint64_t addr[WG_RK_MAXBUF];
	uint8_t params[64], *out;
	size_t total = 0, pos = 0;
	int rc;

	wg_config_default(&cfg);
	assert_int_equal(wg_gmem_create(&g, 64u << 20), 0);
	assert_int_equal(wg_func_create(&f, g, &cfg), 0);
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		uint32_t a;

		assert_int_equal(wg_gmem_alloc(g, rk->bufs[i].bytes, &a), 0);
		addr[i] = a;
		wg_rk_fill(&rk->bufs[i], wg_gmem_ptr(g, a, rk->bufs[i].bytes));
		total += rk->bufs[i].bytes;
	}
	wg_rk_params(rk, addr, params);
	l.kernel = k;
	l.grid = rk->grid;
	l.block = rk->block;
	l.params = params;
	l.dyn_shared = rk->dyn_shared;
	l.threads_per_cta = rk->block.x * rk->block.y * rk->block.z;
	l.warps_per_cta = (l.threads_per_cta + 31) / 32;
	l.ctas = (uint64_t)rk->grid.x * rk->grid.y * rk->grid.z;
	rc = wg_func_run(f, &l, &st, NULL, &err);
	if (rc)
		print_error("seed %llu: %s\n", (unsigned long long)rk->seed, err.msg);
	assert_int_equal(rc, 0);
	assert_true(st.warp_insts > 0);
	out = malloc(total);
	assert_non_null(out);
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		memcpy(out + pos, wg_gmem_ptr(g, (uint32_t)addr[i], rk->bufs[i].bytes), rk->bufs[i].bytes);
		pos += rk->bufs[i].bytes;
	}
	*len = total;
	wg_func_destroy(f);
	wg_gmem_destroy(g);
	return out;
}

/* ------------------------------------------------------------------------ */
/* Coverage of the memory pipeline's access patterns                         */

enum { GL_CONSEC, GL_STRIDE2, GL_STRIDE4, GL_STRIDE32, GL_PERM, GL_SCATTER, GL_BCAST, GL_DIVERGENT, GL_N };
static const char *const gl_names[GL_N] = { "consecutive", "stride 2 words", "stride 4 words", "stride 32 words",
	                                    "permuted in lines", "scattered over lines", "broadcast", "divergent" };
enum { GS_TX128, GS_TX64, GS_TX32, GS_SCATTER, GS_COLLIDE, GS_DIVERGENT, GS_N };
static const char *const gs_names[GS_N] = { "128 B access", "64 B access", "32 B access",
	                                    "16+ accesses", "lanes colliding (different data)", "divergent" };
enum { SH_MIN, SH_STRIDE2, SH_32WAY, SH_BCAST, SH_COLLIDE, SH_DIVERGENT, SH_N };
static const char *const sh_names[SH_N] = { "fewest passes (stride 1)", "stride 2", "32 passes", "broadcast",
	                                    "lanes colliding (different data)", "divergent" };
enum { LO_ANY, LO_DIVERGENT, LO_N };
enum { AT_COLLIDE_ORDERED, AT_ALL_ONE_WORD, AT_N };

struct cov {
	uint32_t gl[2][7][GL_N]; /* LDG, LDG.CG x width mod */
	uint32_t gs[7][GS_N];    /* STG x width mod */
	uint32_t sh[2][7][SH_N]; /* LDS, STS x width mod */
	uint32_t lo[2][7][LO_N]; /* LDL, STL x width mod */
	uint32_t at[2][AT_N];    /* ATOMG, ATOMS */
	/* local memory through a 16 KB L1 model (per seed, then summed) */
	uint32_t spill_seeds, evict_seeds, reload_seeds;
	uint64_t dirty_evictions, reloads;
};

/* Transactions of a store (docs/memory-pipeline.md 1.1, STORE); counts by size into n128/n64/n32. */
static unsigned store_tx(uint32_t mask, const uint32_t *addr, unsigned bytes, unsigned *n128, unsigned *n64,
                         unsigned *n32)
{
	unsigned tx = 0;

	while (mask) {
		unsigned lead = (unsigned)__builtin_ctz(mask);
		uint32_t line = addr[lead] & ~127u, segs = 0, served = 0, lo, hi;

		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);

			if ((addr[l] & ~127u) == line)
				segs |= 1u << ((addr[l] >> 5) & 3);
		}
		if (segs == 15) {
			lo = line;
			hi = line + 128;
			(*n128)++;
		} else if (((segs >> (((addr[lead] >> 6) & 1) * 2)) & 3) == 3) {
			lo = addr[lead] & ~63u;
			hi = lo + 64;
			(*n64)++;
		} else {
			lo = addr[lead] & ~31u;
			hi = lo + 32;
			(*n32)++;
		}
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);

			if (addr[l] >= lo && addr[l] + bytes <= hi)
				served |= 1u << l;
		}
		mask &= ~served;
		tx++;
	}
	return tx;
}

/* Shared-memory passes (docs/memory-pipeline.md 1.2): most distinct words needed in one bank. */
static unsigned smem_passes(uint32_t mask, const uint32_t *addr, unsigned bytes)
{
	uint32_t words[32 * 4];
	unsigned n = 0, most = 0;

	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);

		for (unsigned k = 0; k < (bytes + 3) / 4; k++) {
			uint32_t w = addr[l] / 4 + k, i;

			for (i = 0; i < n && words[i] != w; i++)
				;
			if (i == n)
				words[n++] = w;
		}
	}
	for (unsigned b = 0; b < 32; b++) {
		unsigned c = 0;

		for (unsigned i = 0; i < n; i++)
			c += words[i] % 32 == b;
		if (c > most)
			most = c;
	}
	return most;
}

/* Two lanes of mask write overlapping bytes with different data. */
static int collide(uint32_t mask, const uint32_t *addr, unsigned bytes, const uint32_t (*data)[4])
{
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned a = (unsigned)__builtin_ctz(m);

		for (uint32_t m2 = m & (m - 1); m2; m2 &= m2 - 1) {
			unsigned b = (unsigned)__builtin_ctz(m2);

			if (addr[a] == addr[b] && memcmp(data[a], data[b], bytes < 4 ? bytes : (bytes & ~3u)) &&
			    (bytes >= 4 || (data[a][0] ^ data[b][0]) & ((1u << (8 * bytes)) - 1)))
				return 1;
		}
	}
	return 0;
}

/* Uniform byte stride between consecutive lanes (all of them active); -1 if none. */
static int64_t uniform_stride(const uint32_t *addr)
{
	int64_t d = (int64_t)addr[1] - addr[0];

	for (unsigned l = 2; l < 32; l++)
		if ((int64_t)addr[l] - addr[l - 1] != d)
			return -1;
	return d;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void classify_gload(uint32_t *c, uint32_t exec, uint32_t present, const uint32_t *addr, unsigned bytes)
{
	unsigned e = bytes < 4 ? 4 : bytes;
	uint32_t sorted[32], lines[32];
	unsigned nl = 0;
	int64_t d;
	int perm = 1;

	if (exec && exec != present)
		c[GL_DIVERGENT]++;
	if (exec != 0xFFFFFFFFu)
		return;
	d = uniform_stride(addr);
	if (d == 0)
		c[GL_BCAST]++;
	else if (d == bytes)
		c[GL_CONSEC]++;
	else if (d == 2 * e)
		c[GL_STRIDE2]++;
	else if (d == 4 * e)
		c[GL_STRIDE4]++;
	else if (d == 32 * e)
		c[GL_STRIDE32]++;
	if (d >= 0)
		return;
	memcpy(sorted, addr, sizeof(sorted));
	qsort(sorted, 32, sizeof(sorted[0]), cmp_u32);
	for (unsigned l = 0; l < 32; l++) {
		unsigned i;

		perm &= sorted[l] == sorted[0] + l * e;
		for (i = 0; i < nl && lines[i] != sorted[l] / 128; i++)
			;
		if (i == nl)
			lines[nl++] = sorted[l] / 128;
	}
	if (perm)
		c[GL_PERM]++;
	else if (nl >= 2 && nl <= 16)
		c[GL_SCATTER]++;
}

static void classify_gstore(uint32_t *c, uint32_t exec, uint32_t present, const uint32_t *addr, unsigned bytes,
                            const uint32_t (*data)[4])
{
	unsigned n128 = 0, n64 = 0, n32 = 0, tx;

	if (!exec)
		return;
	if (exec != present)
		c[GS_DIVERGENT]++;
	tx = store_tx(exec, addr, bytes, &n128, &n64, &n32);
	c[GS_TX128] += n128 > 0;
	c[GS_TX64] += n64 > 0;
	c[GS_TX32] += n32 > 0;
	c[GS_SCATTER] += tx >= 16;
	c[GS_COLLIDE] += collide(exec, addr, bytes, data);
}

static void classify_shared(uint32_t *c, int store, uint32_t exec, uint32_t present, const uint32_t *addr,
                            unsigned bytes, const uint32_t (*data)[4])
{
	unsigned e = bytes < 4 ? 4 : bytes, passes;
	int distinct = 1;

	if (!exec)
		return;
	if (exec != present)
		c[SH_DIVERGENT]++;
	if (store)
		c[SH_COLLIDE] += collide(exec, addr, bytes, data);
	if (exec != 0xFFFFFFFFu)
		return;
	passes = smem_passes(exec, addr, bytes);
	for (unsigned a = 0; a < 32 && distinct; a++)
		for (unsigned b = a + 1; b < 32 && distinct; b++)
			distinct = addr[a] != addr[b];
	if (distinct && passes == e / 4)
		c[SH_MIN]++;
	if (uniform_stride(addr) == 2 * (int64_t)e)
		c[SH_STRIDE2]++;
	if (passes == 32)
		c[SH_32WAY]++;
	if (uniform_stride(addr) == 0)
		c[SH_BCAST]++;
}

/* An L1 of 64 sets x 2 ways (LRU, write-back, write-allocate) for the local lines of one kernel. */
struct l1 {
	uint32_t tag[64][2];
	uint8_t valid[64][2], dirty[64][2], age[64]; /* age: way to replace */
	uint8_t *evicted;                             /* per line: was evicted dirty */
	uint32_t nlines;
	uint64_t evictions, reloads;
};

static void l1_access(struct l1 *c, uint32_t line, int store)
{
	unsigned s = line % 64, w;

	for (w = 0; w < 2; w++)
		if (c->valid[s][w] && c->tag[s][w] == line)
			break;
	if (w == 2) {
		w = c->age[s];
		if (c->valid[s][w] && c->dirty[s][w]) {
			c->evictions++;
			c->evicted[c->tag[s][w]] = 1;
		}
		if (!store && c->evicted[line])
			c->reloads++;
		c->valid[s][w] = 1;
		c->dirty[s][w] = 0;
		c->tag[s][w] = line;
	}
	c->dirty[s][w] |= (uint8_t)store;
	c->age[s] = (uint8_t)(1 - w);
}

/* Step rk through the golden model (CTA after CTA, warps in turn) and classify its memory accesses. */
static void cover_rk(const struct wg_rk *rk, const struct wg_kernel *k, struct cov *cv)
{
	struct wg_config cfg;
	struct wg_gmem *g;
	struct wg_func *f;
	struct wg_func_ls *s;
	struct wg_launch l = { 0 };
	struct wg_err err = { { 0 } };
	struct wg_func_ls_rec *rec = malloc(sizeof(*rec));
	struct l1 c1 = { 0 };
	uint64_t addr64[WG_RK_MAXBUF];
	uint8_t params[64];
	uint32_t threads = rk->block.x * rk->block.y * rk->block.z, nwarps = (threads + 31) / 32, total;
	uint32_t(*regs)[64][32] = calloc(nwarps, sizeof(*regs));
	uint64_t ctas = (uint64_t)rk->grid.x * rk->grid.y * rk->grid.z;

	assert_non_null(rec);
	assert_non_null(regs);
	total = (uint32_t)(threads * ctas);
	wg_config_default(&cfg);
	assert_int_equal(wg_gmem_create(&g, 64u << 20), 0);
	assert_int_equal(wg_func_create(&f, g, &cfg), 0);
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		uint32_t a;

		assert_int_equal(wg_gmem_alloc(g, rk->bufs[i].bytes, &a), 0);
		addr64[i] = a;
		wg_rk_fill(&rk->bufs[i], wg_gmem_ptr(g, a, rk->bufs[i].bytes));
	}
	wg_rk_params(rk, addr64, params);
	l.kernel = k;
	l.grid = rk->grid;
	l.block = rk->block;
	l.params = params;
	l.dyn_shared = rk->dyn_shared;
	l.threads_per_cta = threads;
	l.warps_per_cta = nwarps;
	l.ctas = ctas;
	c1.nlines = (uint32_t)(((uint64_t)k->local_bytes * total + 127) / 128);
	c1.evicted = calloc(c1.nlines + 1, 1);
	assert_non_null(c1.evicted);
	assert_int_equal(wg_func_ls_begin(f, &l, WG_FUNC_LS_EXEC, 0, &s, &err), 0);
	for (uint32_t cta = 0; cta < ctas; cta++) {
		int running = 1;

		memset(regs, 0, nwarps * sizeof(*regs));
		assert_int_equal(wg_func_ls_cta_begin(s, cta, &err), 0);
		while (running) {
			running = 0;
			for (uint32_t w = 0; w < nwarps; w++) {
				uint32_t pc, addr[32] = { 0 }, data[32][4] = { { 0 } }, present, exec, bytes = 0;
				struct wg_insn in;
				int rc, mem;

				if (wg_func_ls_warp(s, cta, w, &pc) != WG_FUNC_WARP_RUN)
					continue;
				running = 1;
				assert_int_equal(wg_isa_decode(k->code[pc], &in, NULL, 0), 0);
				mem = in.e->fmt == WG_FMT_LD || in.e->fmt == WG_FMT_ST || in.e->fmt == WG_FMT_ATOM ||
				      in.e->fmt == WG_FMT_CAS;
				if (mem) {
					bytes = in.e->fmt == WG_FMT_LD || in.e->fmt == WG_FMT_ST ? wg_width_bytes(in.mod) : 4;
					for (unsigned ln = 0; ln < 32; ln++) {
						addr[ln] = regs[w][in.ra][ln] +
						           (in.e->fmt == WG_FMT_LD || in.e->fmt == WG_FMT_ST ? in.b : 0);
						for (unsigned q = 0; in.e->fmt == WG_FMT_ST && q < wg_width_regs(in.mod); q++)
							data[ln][q] = in.rc == 63 ? 0 : regs[w][in.rc + q][ln];
					}
				}
				rc = wg_func_ls_step(s, cta, w, NULL, rec, &err);
				if (rc)
					print_error("seed %llu: %s\n", (unsigned long long)rk->seed, err.msg);
				assert_int_equal(rc, 0);
				exec = rec->exec;
				present = threads - 32 * w >= 32 ? 0xFFFFFFFFu : (1u << (threads - 32 * w)) - 1;
				if (mem) {
					switch (in.op) {
					case WG_OP_LDG:
					case WG_OP_LDGCG:
						classify_gload(cv->gl[in.op == WG_OP_LDGCG][in.mod], exec, present, addr, bytes);
						break;
					case WG_OP_STG:
						classify_gstore(cv->gs[in.mod], exec, present, addr, bytes,
						                (const uint32_t(*)[4])data);
						break;
					case WG_OP_LDS:
					case WG_OP_STS:
						classify_shared(cv->sh[in.op == WG_OP_STS][in.mod], in.op == WG_OP_STS, exec,
						                present, addr, bytes, (const uint32_t(*)[4])data);
						break;
					case WG_OP_LDL:
					case WG_OP_STL: {
						uint32_t *c = cv->lo[in.op == WG_OP_STL][in.mod];
						uint32_t seen[128], ns = 0;

						c[LO_ANY] += exec != 0;
						c[LO_DIVERGENT] += exec && exec != present;
						/* each 4-byte word at its interleaved address (docs/sm.md section 4) */
						for (uint32_t m = exec; m; m &= m - 1) {
							unsigned ln = (unsigned)__builtin_ctz(m);

							for (uint32_t o = 0; o < bytes; o += 4) {
								uint32_t a = addr[ln] + o, gtid = cta * threads + 32 * w + ln;
								uint32_t line = ((a / 4) * 4 * total + 4 * gtid) / 128, i;

								for (i = 0; i < ns && seen[i] != line; i++)
									;
								if (i == ns && ns < 128)
									seen[ns++] = line;
							}
						}
						for (uint32_t i = 0; i < ns; i++)
							if (seen[i] < c1.nlines)
								l1_access(&c1, seen[i], in.op == WG_OP_STL);
						break;
					}
					case WG_OP_ATOMG:
					case WG_OP_ATOMGX:
					case WG_OP_ATOMS:
					case WG_OP_ATOMSX: {
						unsigned port = in.mod + (in.op == WG_OP_ATOMGX || in.op == WG_OP_ATOMSX ? 8 : 0);
						int sh = in.op == WG_OP_ATOMS || in.op == WG_OP_ATOMSX, same = 0, all = exec != 0;

						for (uint32_t m = exec; m; m &= m - 1) {
							unsigned a = (unsigned)__builtin_ctz(m);

							all &= addr[a] == addr[__builtin_ctz(exec)];
							for (uint32_t m2 = m & (m - 1); m2; m2 &= m2 - 1)
								same |= addr[a] == addr[__builtin_ctz(m2)];
						}
						/* order-dependent operations with their results kept, lanes colliding */
						if (same && in.rd != 63 && in.rd != 12 && (port == 3 || port == 4 || port == 12))
							cv->at[sh][AT_COLLIDE_ORDERED]++;
						if (all && exec == 0xFFFFFFFFu)
							cv->at[sh][AT_ALL_ONE_WORD]++;
						break;
					}
					default:
						break;
					}
				}
				if (rec->dst == WG_RD_REG && rec->reg != 63)
					for (uint32_t m = exec; m; m &= m - 1) {
						unsigned ln = (unsigned)__builtin_ctz(m);

						for (unsigned q = 0; q < rec->nregs && rec->reg + q < 63; q++)
							regs[w][rec->reg + q][ln] = rec->vals[ln][q];
					}
			}
		}
		wg_func_ls_cta_end(s, cta);
	}
	wg_func_ls_end(s, NULL);
	cv->spill_seeds += k->local_bytes > 64;
	cv->evict_seeds += c1.evictions > 0;
	cv->reload_seeds += c1.reloads > 0;
	cv->dirty_evictions += c1.evictions;
	cv->reloads += c1.reloads;
	free(c1.evicted);
	free(regs);
	free(rec);
	wg_func_destroy(f);
	wg_gmem_destroy(g);
}

/* Every pattern of the memory pipeline appeared over the seeds; returns the number missing. */
static unsigned check_coverage(const struct cov *cv)
{
	static const char *const gl_ops[2] = { "LDG", "LDG.CG" }, *const sh_ops[2] = { "LDS", "STS" };
	static const char *const lo_ops[2] = { "LDL", "STL" }, *const at_ops[2] = { "ATOMG", "ATOMS" };
	static const unsigned st_mods[] = { 0, 2, 4, 5, 6 };
	unsigned missing = 0;

	if (getenv("RKGEN_COV")) {
		for (unsigned op = 0; op < 2; op++)
			for (unsigned mod = 0; mod < 7; mod++) {
				fprintf(stderr, "%-6s %2u:", gl_ops[op], wg_width_bytes(mod));
				for (unsigned p = 0; p < GL_N; p++)
					fprintf(stderr, " %4u", cv->gl[op][mod][p]);
				fprintf(stderr, "\n");
			}
		for (unsigned i = 0; i < 5; i++) {
			fprintf(stderr, "STG    %2u:", wg_width_bytes(st_mods[i]));
			for (unsigned p = 0; p < GS_N; p++)
				fprintf(stderr, " %4u", cv->gs[st_mods[i]][p]);
			fprintf(stderr, "\n");
		}
		for (unsigned op = 0; op < 2; op++)
			for (unsigned mod = 0; mod < 7; mod++) {
				fprintf(stderr, "%-6s %2u:", sh_ops[op], wg_width_bytes(mod));
				for (unsigned p = 0; p < SH_N; p++)
					fprintf(stderr, " %4u", cv->sh[op][mod][p]);
				fprintf(stderr, "\n");
			}
		for (unsigned op = 0; op < 2; op++)
			for (unsigned mod = 0; mod < 7; mod++)
				fprintf(stderr, "%-6s %2u: %4u %4u\n", lo_ops[op], wg_width_bytes(mod), cv->lo[op][mod][0],
				        cv->lo[op][mod][1]);
		fprintf(stderr, "ATOMG %u %u ATOMS %u %u\n", cv->at[0][0], cv->at[0][1], cv->at[1][0], cv->at[1][1]);
	}
	for (unsigned op = 0; op < 2; op++)
		for (unsigned mod = 0; mod < 7; mod++)
			for (unsigned p = 0; p < GL_N; p++)
				if (!cv->gl[op][mod][p]) {
					print_error("%s width %u: no %s access\n", gl_ops[op], wg_width_bytes(mod), gl_names[p]);
					missing++;
				}
	for (unsigned i = 0; i < 5; i++)
		for (unsigned p = 0; p < GS_N; p++)
			if (!cv->gs[st_mods[i]][p]) {
				print_error("STG width %u: no %s\n", wg_width_bytes(st_mods[i]), gs_names[p]);
				missing++;
			}
	for (unsigned op = 0; op < 2; op++)
		for (unsigned mod = 0; mod < 7; mod++) {
			if (op && mod != 0 && mod != 2 && mod < 4)
				continue; /* no STS.S8 / STS.S16 */
			for (unsigned p = 0; p < SH_N; p++)
				if (!cv->sh[op][mod][p] && (op || p != SH_COLLIDE)) {
					print_error("%s width %u: no %s\n", sh_ops[op], wg_width_bytes(mod), sh_names[p]);
					missing++;
				}
		}
	for (unsigned op = 0; op < 2; op++)
		for (unsigned mod = 4; mod < 7; mod++)
			for (unsigned p = 0; p < LO_N; p++)
				if (!cv->lo[op][mod][p]) {
					print_error("%s width %u: no %s access\n", lo_ops[op], wg_width_bytes(mod),
					            p ? "divergent" : "");
					missing++;
				}
	for (unsigned op = 0; op < 2; op++) {
		if (!cv->at[op][AT_COLLIDE_ORDERED]) {
			print_error("%s: no EXCH/CAS/ADD.F32 with lanes on one word and results kept\n", at_ops[op]);
			missing++;
		}
		if (!cv->at[op][AT_ALL_ONE_WORD]) {
			print_error("%s: no full warp on one word\n", at_ops[op]);
			missing++;
		}
	}
	/* local data that the L1 evicts dirty and reloads, in a good share of the kernels */
	if (cv->spill_seeds < SEEDS / 5 || cv->evict_seeds < SEEDS / 5 || cv->reload_seeds < SEEDS / 10) {
		print_error("local memory: %u spill kernels, %u with dirty evictions, %u with reloads of evicted lines\n",
		            cv->spill_seeds, cv->evict_seeds, cv->reload_seeds);
		missing++;
	}
	return missing;
}

static void kernels_assemble_run_and_are_deterministic(void **state)
{
	uint8_t seen[512] = { 0 };
	unsigned missing = 0;
	struct cov *cv = calloc(1, sizeof(*cv));

	assert_non_null(cv);

	(void)state;
	assert_true(wg_isa_table_len <= sizeof(seen));
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct wg_rk rk, rk2;
		struct wg_image img = { 0 };
		const struct wg_kernel *k;
		uint8_t *a, *b;
		size_t la, lb;
		int rc;

		assert_int_equal(wg_rkgen(&rk, seed), 0);
		assert_int_equal(wg_rkgen(&rk2, seed), 0);
		assert_string_equal(rk.src, rk2.src); /* same seed, same kernel */
		assert_memory_equal(&rk.grid, &rk2.grid, sizeof(rk.grid));
		wg_rk_free(&rk2);
		rc = wg_asm_string(&img, rk.src, rk.name, stderr);
		if (rc)
			print_error("seed %llu does not assemble:\n%s\n", (unsigned long long)seed, rk.src);
		assert_int_equal(rc, 0);
		k = wg_image_find(&img, rk.name);
		assert_non_null(k);
		for (uint32_t pc = 0; pc < k->ninsns; pc++) {
			struct wg_insn in;

			assert_int_equal(wg_isa_decode(k->code[pc], &in, NULL, 0), 0);
			seen[in.e - wg_isa_table] = 1;
		}
		a = run_rk(&rk, k, &la);
		b = run_rk(&rk, k, &lb);
		cover_rk(&rk, k, cv);
		assert_int_equal(la, lb);
		assert_memory_equal(a, b, la);
		free(a);
		free(b);
		wg_image_free(&img);
		wg_rk_free(&rk);
	}
	for (size_t i = 0; i < wg_isa_table_len; i++) {
		if (!seen[i]) {
			print_error("mnemonic %s never generated in seeds 1..%d\n", wg_isa_table[i].mnemonic, SEEDS);
			missing++;
		}
	}
	assert_int_equal(missing, 0);
	print_message("rkgen: seeds 1..%d: %u spill kernels, %u with dirty L1 evictions (%llu), %u reloading "
	              "evicted lines (%llu)\n", SEEDS, cv->spill_seeds, cv->evict_seeds,
	              (unsigned long long)cv->dirty_evictions, cv->reload_seeds, (unsigned long long)cv->reloads);
	assert_int_equal(check_coverage(cv), 0);
	free(cv);
}

static void different_seeds_give_different_kernels(void **state)
{
	struct wg_rk a, b;

	(void)state;
	assert_int_equal(wg_rkgen(&a, 7), 0);
	assert_int_equal(wg_rkgen(&b, 8), 0);
	assert_true(strcmp(a.src, b.src) != 0);
	wg_rk_free(&a);
	wg_rk_free(&b);
}

static void save_and_load_round_trip(void **state)
{
	struct wg_rk a, b;
	char dir[] = "/tmp/wg_rk_XXXXXX", path[4096], err[256], cmd[4200];

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(wg_rkgen(&a, 42), 0);
	assert_int_equal(wg_rk_save(&a, dir, path, sizeof(path)), 0);
	assert_int_equal(wg_rk_load(&b, path, err, sizeof(err)), 0);
	assert_string_equal(a.src, b.src);
	assert_string_equal(a.name, b.name);
	assert_int_equal(a.seed, b.seed);
	assert_memory_equal(&a.grid, &b.grid, sizeof(a.grid));
	assert_memory_equal(&a.block, &b.block, sizeof(a.block));
	assert_int_equal(a.dyn_shared, b.dyn_shared);
	assert_int_equal(a.nbufs, b.nbufs);
	assert_memory_equal(a.bufs, b.bufs, sizeof(a.bufs));
	assert_int_equal(a.param_bytes, b.param_bytes);
	assert_memory_equal(a.params, b.params, a.param_bytes);
	wg_rk_free(&a);
	wg_rk_free(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernels_assemble_run_and_are_deterministic),
		cmocka_unit_test(different_seeds_give_different_kernels),
		cmocka_unit_test(save_and_load_round_trip),
	};

	return cmocka_run_group_tests_name("rkgen", tests, NULL, NULL);
}
