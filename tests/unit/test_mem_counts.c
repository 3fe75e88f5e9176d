/*
 * Whole-kernel tests of the memory pipeline's counters (docs/memory-pipeline.md
 * sections 1 and 2) through libwarpgate: small kernels reproduce the seeds'
 * examples (a caching load of consecutive words, permuted in one line, 32
 * scattered lines, LDG.CG over two 128 B regions touching six segments, stores
 * over three non-contiguous segments, shared strides 1/2/32 and a broadcast,
 * 64- and 128-bit shared accesses, local words of every thread) and edge cases
 * (partial warps, an empty execution mask, the local interleave of a grid whose
 * thread count is not a multiple of 32, atomics), and the exact counter values
 * are read with wg_stats_counter.
 *
 * The target is WG_TEST_TARGET (default func; `make mem-count-test`, part of `make test`,
 * runs func and sim). Counters 0..14 and 23 must be equal
 * on every target: each case lists its non-zero ones and every other one must
 * be 0. The sim target's own counters (L1, memory port) are checked where a
 * case gives them (expect_sim), with the default Kepler mode and 16 KB L1
 * unless the case sets an option.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "warpgate.h"

#define BUF_BYTES (256u << 10)

/* Every kernel: lane l's offset off[l], its global address buf + off[l] in R3, tid in R0. */
#define PROLOGUE(name, extra)                  \
	".kernel " name "\n"                   \
	".regs 8\n"                            \
	".shared 4096\n"                       \
	".local 8\n"                           \
	".param ptr buf\n"                     \
	".param u32[32] off\n"                 \
	"    S2R R0, SR_TID.X\n"               \
	"    S2R R7, SR_LANEID\n"              \
	"    SHL R1, R7, 2\n"                  \
	"    LDC.32 R2, [R1+off]\n"            \
	"    LDC.32 R3, [buf]\n"               \
	"    IADD R3, R3, R2\n" extra "    EXIT\n"

static const char src[] =
	PROLOGUE("gld", "    LDG.32 R4, [R3]\n")
	PROLOGUE("gldcg", "    LDG.CG.32 R4, [R3]\n")
	PROLOGUE("gld64", "    LDG.64 R4, [R3]\n")
	PROLOGUE("gst", "    STG.32 [R3], R0\n")
	PROLOGUE("gld_tid", "    LDC.32 R5, [buf]\n    SHL R6, R0, 2\n    IADD R5, R5, R6\n    LDG.32 R4, [R5]\n")
	PROLOGUE("gld_pred", "    ISETP.EQ P0, R0, 1000\n@P0 LDG.32 R4, [R3]\n    LDG.32 R5, [R3]\n")
	PROLOGUE("gld_twice", "    LDG.32 R4, [R3]\n    AND R6, R4, 0\n    IADD R6, R3, R6\n    LDG.32 R5, [R6]\n")
	PROLOGUE("shared32", "    STS.32 [R2], R0\n    LDS.32 R4, [R2]\n")
	PROLOGUE("shared64", "    IADD R5, R0, 7\n    MOV R4, R0\n    STS.64 [R2], R4\n    LDS.64 R4, [R2]\n")
	PROLOGUE("shared128", "    MOV R4, R0\n    MOV R5, R0\n    MOV R6, R0\n    MOV R7, R0\n"
	                      "    STS.128 [R2], R4\n    LDS.128 R4, [R2]\n")
	PROLOGUE("local32", "    STL.32 [0], R0\n    LDL.32 R4, [0]\n")
	PROLOGUE("local32_w1", "    STL.32 [4], R0\n    LDL.32 R4, [4]\n")
	PROLOGUE("local64", "    IADD R5, R0, 7\n    MOV R4, R0\n    STL.64 [0], R4\n    LDL.64 R4, [0]\n")
	PROLOGUE("atomg", "    ATOMG.ADD RZ, [R3], 1\n")
	PROLOGUE("atomg5", "    ISETP.LT.U32 P0, R0, 5\n@P0 ATOMG.ADD R4, [R3], 1\n")
	PROLOGUE("atoms", "    ATOMS.ADD RZ, [R2], 1\n");

enum pattern { P_ZERO, P_CONSEC4, P_CONSEC8, P_CONSEC16, P_PERMUTED, P_SCATTERED, P_SIX, P_THREE, P_STRIDE2,
               P_STRIDE32 };

struct mcase {
	const char *test;       /* what it shows */
	const char *kernel;
	enum pattern pat;       /* off[] */
	uint32_t threads, ctas;
	const char *expect;     /* counters 0..14, 23: the non-zero ones ("name=value ...") */
	const char *expect_sim; /* other counters on the sim target */
	const char *sim_option; /* a sim option for this case (reset to the default afterwards) */
};

static const struct mcase cases[] = {
	/* seed examples */
	{ "32 x 4 B consecutive: one line", "gld", P_CONSEC4, 32, 1,
	  "gld_requests=1 gld_transactions=1 ldc_requests=2",
	  "mem_requests=1 mem_read_bytes=128 mem_write_bytes=0 l1_global_load_hit=0 l1_global_load_miss=0", NULL },
	{ "permuted within one line: one line", "gld", P_PERMUTED, 32, 1,
	  "gld_requests=1 gld_transactions=1 ldc_requests=2", "mem_requests=1 mem_read_bytes=128", NULL },
	{ "32 scattered lines: 32", "gld", P_SCATTERED, 32, 1,
	  "gld_requests=1 gld_transactions=32 ldc_requests=2", "mem_requests=32 mem_read_bytes=4096", NULL },
	{ "non-caching over two 128 B regions, six segments: 6", "gldcg", P_SIX, 32, 1,
	  "gld_requests=1 gld_transactions=6 ldc_requests=2", "mem_requests=6 mem_read_bytes=192", NULL },
	{ "caching over the same two regions: 2 lines", "gld", P_SIX, 32, 1,
	  "gld_requests=1 gld_transactions=2 ldc_requests=2", "mem_requests=2 mem_read_bytes=256", NULL },
	{ "stores over three non-contiguous segments: 3 (lanes 24..31 on lanes 0..7's words)", "gst", P_THREE, 32, 1,
	  "gst_requests=1 gst_transactions=3 ldc_requests=2", "mem_requests=3 mem_write_bytes=96", NULL },
	{ "stores over the two regions: 2 x 64 B + 2 x 32 B", "gst", P_SIX, 32, 1,
	  "gst_requests=1 gst_transactions=4 ldc_requests=2", "mem_requests=4", NULL },
	{ "stores of 32 consecutive words: one 128 B access", "gst", P_CONSEC4, 32, 1,
	  "gst_requests=1 gst_transactions=1 ldc_requests=2", "mem_requests=1 mem_write_bytes=128", NULL },
	{ "32 scattered stores: 32", "gst", P_SCATTERED, 32, 1,
	  "gst_requests=1 gst_transactions=32 ldc_requests=2", "mem_requests=32 mem_write_bytes=128", NULL },
	{ "shared stride 1: 1 pass", "shared32", P_CONSEC4, 32, 1,
	  "shared_load_requests=1 shared_load_transactions=1 shared_store_requests=1 shared_store_transactions=1 "
	  "ldc_requests=2", "mem_requests=0", NULL },
	{ "shared stride 2: 2 passes", "shared32", P_STRIDE2, 32, 1,
	  "shared_load_requests=1 shared_load_transactions=2 shared_store_requests=1 shared_store_transactions=2 "
	  "ldc_requests=2", NULL, NULL },
	{ "shared stride 32: 32 passes", "shared32", P_STRIDE32, 32, 1,
	  "shared_load_requests=1 shared_load_transactions=32 shared_store_requests=1 shared_store_transactions=32 "
	  "ldc_requests=2", NULL, NULL },
	{ "shared, every thread on one word: 1 pass (broadcast; the highest lane's store)", "shared32", P_ZERO, 32, 1,
	  "shared_load_requests=1 shared_load_transactions=1 shared_store_requests=1 shared_store_transactions=1 "
	  "ldc_requests=2", NULL, NULL },
	{ "shared 64-bit stride 1: 2 passes", "shared64", P_CONSEC8, 32, 1,
	  "shared_load_requests=1 shared_load_transactions=2 shared_store_requests=1 shared_store_transactions=2 "
	  "ldc_requests=2", NULL, NULL },
	{ "shared 128-bit stride 1: 4 passes", "shared128", P_CONSEC16, 32, 1,
	  "shared_load_requests=1 shared_load_transactions=4 shared_store_requests=1 shared_store_transactions=4 "
	  "ldc_requests=2", NULL, NULL },
	{ "local: one word per thread, one line each way", "local32", P_ZERO, 32, 1,
	  "local_load_requests=1 local_load_transactions=1 local_store_requests=1 local_store_transactions=1 "
	  "ldc_requests=2",
	  "l1_local_store_miss=1 l1_local_store_hit=0 l1_local_load_hit=1 l1_local_load_miss=0 l1_writebacks=1 "
	  "mem_requests=1 mem_read_bytes=0 mem_write_bytes=128", NULL },
	/* edge cases */
	{ "8 B per thread, consecutive: 2 lines", "gld64", P_CONSEC8, 32, 1,
	  "gld_requests=1 gld_transactions=2 ldc_requests=2", "mem_requests=2 mem_read_bytes=256", NULL },
	{ "a partial second warp: one line each", "gld_tid", P_ZERO, 40, 1,
	  "gld_requests=2 gld_transactions=2 ldc_requests=6", "mem_requests=2", NULL },
	{ "an empty execution mask makes no request", "gld_pred", P_CONSEC4, 32, 1,
	  "gld_requests=1 gld_transactions=1 ldc_requests=2", "mem_requests=1", NULL },
	{ "local, 64-bit: two word requests each way", "local64", P_ZERO, 32, 1,
	  "local_load_requests=2 local_load_transactions=2 local_store_requests=2 local_store_transactions=2 "
	  "ldc_requests=2",
	  "l1_local_store_miss=2 l1_local_load_hit=2 l1_writebacks=2 mem_requests=2 mem_write_bytes=256", NULL },
	{ "local, two CTAs: the second CTA's words in the next line", "local32", P_ZERO, 32, 2,
	  "local_load_requests=2 local_load_transactions=2 local_store_requests=2 local_store_transactions=2 "
	  "ldc_requests=4", "l1_writebacks=2", NULL },
	{ "local word 1 of 40 threads: bytes 160..319 of the region", "local32_w1", P_ZERO, 40, 1,
	  "local_load_requests=2 local_load_transactions=3 local_store_requests=2 local_store_transactions=4 "
	  "ldc_requests=4", "l1_writebacks=2", NULL },
	{ "global atomics: one warp instruction, a request per thread", "atomg", P_CONSEC4, 32, 1,
	  "atom_count=1 atomic_transactions=32 ldc_requests=2", "mem_requests=32", NULL },
	{ "global atomics of 5 threads", "atomg5", P_ZERO, 32, 1,
	  "atom_count=1 atomic_transactions=5 ldc_requests=2", "mem_requests=5", NULL },
	{ "shared atomics: one per thread", "atoms", P_CONSEC4, 32, 1,
	  "shared_atom_transactions=32 ldc_requests=2", "mem_requests=0", NULL },
	{ "Fermi mode: a line loaded twice misses, then hits", "gld_twice", P_CONSEC4, 32, 1,
	  "gld_requests=2 gld_transactions=2 ldc_requests=2",
	  "l1_global_load_miss=1 l1_global_load_hit=1 mem_requests=1 mem_read_bytes=128", "l1_mode=fermi" },
};

/* The counters every target counts (docs/memory-pipeline.md section 2: 0..14 and 23). */
static const char *const common[] = {
	"gld_requests", "gld_transactions", "gst_requests", "gst_transactions", "local_load_requests",
	"local_load_transactions", "local_store_requests", "local_store_transactions", "shared_load_requests",
	"shared_load_transactions", "shared_store_requests", "shared_store_transactions", "shared_atom_transactions",
	"atom_count", "atomic_transactions", "ldc_requests",
};

static const uint32_t six_segs[6] = { 0x0, 0x20, 0x60, 0x15080, 0x150c0, 0x150e0 };

static uint32_t offset(enum pattern p, unsigned l)
{
	switch (p) {
	case P_CONSEC4: return 4 * l;
	case P_CONSEC8: return 8 * l;
	case P_CONSEC16: return 16 * l;
	case P_PERMUTED: return 4 * ((7 * l + 3) % 32);
	case P_SCATTERED: return 0x1000 * ((7 * l) % 32) + 4 * l;
	case P_SIX: return six_segs[l % 6] + 4 * ((l / 6) % 8);
	/* segments 0 and 2 of line A (lanes 0..7 and 24..31 on the same words), segment 1 of line B */
	case P_THREE: return (l < 8 || l >= 24 ? 0x0 : l < 16 ? 0x40 : 0x5020) + 4 * (l % 8);
	case P_STRIDE2: return 8 * l;
	case P_STRIDE32: return 128 * l;
	default: return 0;
	}
}

struct params {
	uint64_t buf;
	uint32_t off[32];
};

struct st {
	struct wg_device *dev;
	struct wg_module *mod;
	const char *target;
	uint64_t buf;
	char path[64];
};

static int group_setup(void **state)
{
	struct st *s = calloc(1, sizeof(*s));
	const char *t = getenv("WG_TEST_TARGET");
	FILE *f;
	int fd;

	assert_non_null(s);
	s->target = t && *t ? t : "func";
	strcpy(s->path, "/tmp/wg_memcounts_XXXXXX.s");
	fd = mkstemps(s->path, 2);
	assert_true(fd >= 0);
	close(fd);
	f = fopen(s->path, "w");
	assert_non_null(f);
	fputs(src, f);
	fclose(f);
	if (wg_open(&s->dev, s->target, NULL)) {
		fprintf(stderr, "mem_counts: cannot open target '%s'\n", s->target);
		return -1;
	}
	if (wg_module_load(s->dev, &s->mod, s->path)) {
		fprintf(stderr, "mem_counts: %s\n", wg_last_error(s->dev));
		return -1;
	}
	assert_int_equal(wg_malloc(s->dev, &s->buf, BUF_BYTES), 0);
	*state = s;
	return 0;
}

static int group_teardown(void **state)
{
	struct st *s = *state;

	if (s) {
		wg_close(s->dev);
		unlink(s->path);
		free(s);
	}
	return 0;
}

/* The value of name in a "name=value ..." list, or -1 when it is not listed. */
static int64_t listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, name, n) && p[n] == '=')
			return strtoll(p + n + 1, NULL, 10);
		p = strchr(p, ' ');
	}
	return -1;
}

static int check_counter(struct st *s, const struct mcase *c, const char *name, int64_t want)
{
	uint64_t v = 0;

	assert_int_equal(wg_stats_counter(s->dev, name, &v), 0);
	if ((int64_t)v == want)
		return 0;
	print_error("%s: %s: %s = %llu, expected %lld\n", s->target, c->test, name, (unsigned long long)v,
	            (long long)want);
	return 1;
}

/* Run case c; returns the number of counters that differ (each printed). */
static int run_case(struct st *s, const struct mcase *c)
{
	struct params p = { .buf = s->buf };
	int bad = 0, rc, sim = !strcmp(s->target, "sim");

	for (unsigned l = 0; l < 32; l++)
		p.off[l] = offset(c->pat, l);
	assert_int_equal(wg_memset(s->dev, s->buf, 0, BUF_BYTES), 0);
	if (sim && c->sim_option)
		assert_int_equal(wg_set_option_kv(s->dev, c->sim_option), 0);
	assert_int_equal(wg_stats_reset(s->dev), 0);
	rc = wg_launch(s->dev, s->mod, c->kernel, (wg_dim3){ c->ctas, 1, 1 }, (wg_dim3){ c->threads, 1, 1 }, &p,
	               sizeof(p), 0);
	if (wg_synchronize(s->dev) || rc) { /* (synchronize also clears the failure) */
		print_error("%s: %s: %s\n", s->target, c->test, wg_last_error(s->dev));
		fail();
	}
	if (sim && c->sim_option) {
		char reset[64];

		snprintf(reset, sizeof(reset), "%.*s=%s", (int)(strchr(c->sim_option, '=') - c->sim_option),
		         c->sim_option, !strncmp(c->sim_option, "l1_mode", 7) ? "kepler" : "16");
		assert_int_equal(wg_set_option_kv(s->dev, reset), 0);
	}
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		int64_t want = listed(c->expect, common[i]);

		bad += check_counter(s, c, common[i], want < 0 ? 0 : want);
	}
	if (sim && c->expect_sim) {
		for (const char *q = c->expect_sim; *q;) {
			char name[64];
			size_t n;

			while (*q == ' ')
				q++;
			n = strcspn(q, "=");
			assert_true(n < sizeof(name));
			snprintf(name, sizeof(name), "%.*s", (int)n, q);
			bad += check_counter(s, c, name, listed(c->expect_sim, name));
			q += strcspn(q, " ");
		}
	}
	return bad;
}

static void seed_examples_and_edge_cases(void **state)
{
	struct st *s = *state;
	int bad = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		bad += run_case(s, &cases[i]);
	assert_int_equal(bad, 0);
}

/* The overlapping stores left the highest lane's words; the derived replays agree with the counters. */
static void three_segment_store_leaves_the_highest_lanes(void **state)
{
	struct st *s = *state;
	uint32_t out[0x5040 / 4];
	uint64_t v = 0;

	const struct mcase *c = NULL;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]) && !c; i++)
		if (cases[i].pat == P_THREE && !strcmp(cases[i].kernel, "gst"))
			c = &cases[i];
	assert_non_null(c);
	assert_int_equal(run_case(s, c), 0);
	assert_int_equal(wg_memcpy_dtoh(s->dev, out, s->buf, sizeof(out)), 0);
	for (unsigned l = 0; l < 8; l++) {
		assert_int_equal(out[l], 24 + l);            /* lanes 24..31 over lanes 0..7 */
		assert_int_equal(out[0x40 / 4 + l], 8 + l);  /* lanes 8..15 */
		assert_int_equal(out[0x5020 / 4 + l], 16 + l); /* lanes 16..23 */
	}
	assert_int_equal(wg_stats_counter(s->dev, "gst_replays", &v), 0);
	assert_int_equal(v, 2);
	assert_int_equal(wg_stats_counter(s->dev, "no_such_counter", &v), WG_ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_examples_and_edge_cases),
		cmocka_unit_test(three_segment_store_leaves_the_highest_lanes),
	};

	return cmocka_run_group_tests_name("mem_counts", tests, group_setup, group_teardown);
}
