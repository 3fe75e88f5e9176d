/*
 * cmocka tests of the golden model: the SIMT reconvergence stack,
 * predication, barriers, scheduling order and statistics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "func_fixture.h"

struct out_params {
	uint64_t out;
};

/* Every test kernel ends by storing R2 to out[linear tid + ctaid.x * ntid.x]. */
#define STORE_R2_AND_EXIT                       \
	"store:\n"                              \
	"    S2R R3, SR_TID.X\n"                \
	"    S2R R4, SR_CTAID.X\n"              \
	"    S2R R5, SR_NTID.X\n"               \
	"    IMAD R3, R4, R5, R3\n"             \
	"    SHL R3, R3, 2\n"                   \
	"    LDC.32 R4, [out]\n"                \
	"    IADD R4, R4, R3\n"                 \
	"    STG.32 [R4], R2\n"                 \
	"    EXIT\n"

static const uint32_t *run_out(struct fx *f, const char *src, wg_dim3 grid, wg_dim3 block)
{
	uint32_t n = grid.x * block.x * block.y * block.z;
	struct out_params p = { fx_alloc(f, n * 4 + 4) };

	fx_run(f, fx_asm(f, src), grid, block, &p, 0);
	return fx_ptr(f, (uint32_t)p.out, n * 4);
}

static const char ifelse_src[] =
	".kernel ifelse\n"
	".regs 6\n"
	".param ptr out\n"
	"    S2R R0, SR_TID.X\n"          /* 0 */
	"    AND R1, R0, 1\n"             /* 1 */
	"    ISETP.EQ P0, R1, 1\n"        /* 2 */
	"@P0 BRA odd\n"                   /* 3: reconverges at store */
	"    IADD R2, R0, 100\n"          /* 4 */
	"    BRA store\n"                 /* 5 */
	"odd:\n"
	"    IADD R2, R0, 200\n"          /* 6 */
	STORE_R2_AND_EXIT;                /* 7.. */

static void if_else_runs_the_taken_side_first_and_reconverges(void **state)
{
	struct fx *f = *state;
	char path[64];
	char *log;
	struct fx_ret r[32];
	const uint32_t *o;
	unsigned n;
	static const uint32_t pcs[] = { 0, 1, 2, 3, 6, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const uint32_t act[] = { ~0u, ~0u, ~0u, ~0u, 0xAAAAAAAAu, 0x55555555u, 0x55555555u, ~0u, ~0u,
		                        ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u };

	fx_log_begin(f, path);
	o = run_out(f, ifelse_src, fx_dim(1, 1, 1), fx_dim(32, 1, 1));
	log = fx_log_end(f, path);
	for (uint32_t t = 0; t < 32; t++)
		assert_int_equal(o[t], t + (t & 1 ? 200 : 100));
	n = fx_log_lines(log, 0, 0, r, 32);
	assert_int_equal(n, 16);
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(r[i].pc, pcs[i]);
		assert_int_equal(r[i].active, act[i]);
	}
	assert_int_equal(r[3].exec, 0xAAAAAAAAu);
	assert_int_equal(f->st.branches, 2);
	assert_int_equal(f->st.divergent_branches, 1);
	free(log);
}

/* Per lane: for i = 0..: acc += ((i + tid) & 1) ? i : 1000; break when i >= tid % 7. */
static void nested_divergence_in_a_loop_with_break(void **state)
{
	struct fx *f = *state;
	const uint32_t *o = run_out(f,
		".kernel loopbrk\n"
		".regs 8\n"
		".param ptr out\n"
		"    S2R R0, SR_TID.X\n"
		"    MOV R6, 7\n"
		"    IMUL.HI.U32 R7, R0, 0x24924925\n"  /* R7 = tid / 7 */
		"    IMUL R7, R7, 7\n"
		"    ISUB R6, R0, R7\n"                 /* R6 = tid % 7 */
		"    MOV R1, 0\n"
		"    MOV R2, 0\n"
		"loop:\n"
		"    IADD R3, R1, R0\n"
		"    AND R3, R3, 1\n"
		"    ISETP.EQ P1, R3, 0\n"
		"@P1 BRA even\n"
		"    IADD R2, R2, R1\n"
		"    BRA next\n"
		"even:\n"
		"    IADD R2, R2, 1000\n"
		"next:\n"
		"    ISETP.GE P0, R1, R6\n"
		"@P0 BRA store\n"
		"    IADD R1, R1, 1\n"
		"    BRA loop\n"
		STORE_R2_AND_EXIT,
		fx_dim(2, 1, 1), fx_dim(64, 1, 1));

	for (uint32_t g = 0; g < 128; g++) {
		uint32_t tid = g % 64, acc = 0;

		for (uint32_t i = 0;; i++) {
			acc += ((i + tid) & 1) ? i : 1000;
			if (i >= tid % 7)
				break;
		}
		assert_int_equal(o[g], acc);
	}
	assert_true(f->st.divergent_branches > 0);
}

static void exit_inside_divergence_removes_lanes_everywhere(void **state)
{
	struct fx *f = *state;
	char path[64];
	char *log;
	struct fx_ret r[64];
	unsigned n;
	const uint32_t *o;
	static const uint32_t pcs[] = { 0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14, 15, 6, 7, 8 };
	static const uint32_t act[] = { ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, 0x3FFu, 0x3FFu, 0x3FFu, 0x3FFu,
		                        0x3E0u, 0x3E0u, 0x3E0u, 0xFFFFFC00u, 0xFFFFFC00u, 0xFFFFFC00u };

	fx_log_begin(f, path);
	o = run_out(f,
		".kernel divexit\n"
		".regs 6\n"
		".param ptr out\n"
		"    S2R R0, SR_TID.X\n"         /* 0 */
		"    SHL R3, R0, 2\n"
		"    LDC.32 R4, [out]\n"
		"    IADD R4, R4, R3\n"
		"    ISETP.LT P0, R0, 10\n"
		"@P0 BRA early\n"                /* 5: both sides end in EXIT, no reconvergence */
		"    MOV R2, 2\n"
		"    STG.32 [R4], R2\n"
		"    EXIT\n"                     /* 8 */
		"early:\n"
		"    MOV R2, 1\n"                /* 9 */
		"    STG.32 [R4], R2\n"
		"    ISETP.LT P1, R0, 5\n"
		"@P1 EXIT\n"                     /* 12: lanes 0..4 leave */
		"    MOV R2, 3\n"
		"    STG.32 [R4], R2\n"
		"    EXIT\n",                    /* 15 */
		fx_dim(1, 1, 1), fx_dim(64, 1, 1));
	log = fx_log_end(f, path);
	for (uint32_t t = 0; t < 64; t++)
		assert_int_equal(o[t], t < 5 ? 1 : t < 10 ? 3 : 2);

	/* warp 0: the taken side (lanes 0..9) runs first and exits in two steps, then lanes 10..31 */
	n = fx_log_lines(log, 0, 0, r, 64);
	assert_int_equal(n, 16);
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(r[i].pc, pcs[i]);
		assert_int_equal(r[i].active, act[i]);
	}
	assert_int_equal(r[9].exec, 0x1Fu);
	/* warp 1 never diverges */
	n = fx_log_lines(log, 0, 1, r, 64);
	assert_int_equal(n, 9);
	assert_int_equal(r[8].pc, 8);
	free(log);
}

static void guarded_exit_keeps_the_other_lanes_running(void **state)
{
	struct fx *f = *state;
	const uint32_t *o;
	struct out_params p;

	p.out = fx_alloc(f, 64 * 4);
	memset(fx_ptr(f, (uint32_t)p.out, 256), 0xFF, 256);
	fx_run(f, fx_asm(f,
		".kernel gexit\n"
		".regs 6\n"
		".param ptr out\n"
		"    S2R R0, SR_TID.X\n"
		"    AND R1, R0, 3\n"
		"    ISETP.EQ P0, R1, 0\n"
		"@P0 EXIT\n"
		"    MOV R2, 7\n"
		STORE_R2_AND_EXIT),
	       fx_dim(1, 1, 1), fx_dim(64, 1, 1), &p, 0);
	o = fx_ptr(f, (uint32_t)p.out, 256);
	for (uint32_t t = 0; t < 64; t++)
		assert_int_equal(o[t], t % 4 ? 7 : 0xFFFFFFFFu);
	assert_int_equal(f->st.divergent_branches, 0);
}

static void predicated_off_instructions_issue_but_do_nothing(void **state)
{
	struct fx *f = *state;
	const uint32_t *o = run_out(f,
		".kernel predoff\n"
		".regs 6\n"
		".param ptr out\n"
		"    MOV R2, 5\n"
		"@P3 IADD R2, R2, 1\n"       /* P3 is false everywhere */
		"@P3 BRA skip\n"             /* empty execution mask: falls through */
		"    IADD R2, R2, 10\n"
		"@!PT EXIT\n"
		"skip:\n"
		STORE_R2_AND_EXIT,
		fx_dim(1, 1, 1), fx_dim(32, 1, 1));

	for (int t = 0; t < 32; t++)
		assert_int_equal(o[t], 15);
	assert_int_equal(f->st.warp_insts, 14);
	assert_int_equal(f->st.thread_insts, 11 * 32);
	assert_int_equal(f->st.branches, 1);
	assert_int_equal(f->st.divergent_branches, 0);
}

static const char exchange_src[] =
	".kernel xchg\n"
	".regs 8\n"
	".shared 1024\n"
	".param ptr out\n"
	"    S2R R0, SR_TID.X\n"
	"    SHL R1, R0, 2\n"
	"    IMUL R2, R0, R0\n"
	"    IADD R2, R2, 1\n"
	"    STS.32 [R1], R2\n"
	"%s"
	"    XOR R1, R1, 0x3fc\n"        /* (255 - tid) * 4 */
	"    LDS.32 R2, [R1]\n"
	STORE_R2_AND_EXIT;

static void barrier_exchanges_shared_data_across_warps(void **state)
{
	struct fx *f = *state;
	char src[1024];
	const uint32_t *o;

	snprintf(src, sizeof(src), exchange_src, "    BAR.SYNC 0\n");
	o = run_out(f, src, fx_dim(2, 1, 1), fx_dim(256, 1, 1));
	for (uint32_t g = 0; g < 512; g++) {
		uint32_t other = 255 - g % 256;

		assert_int_equal(o[g], other * other + 1);
	}
	assert_int_equal(f->st.barriers, 2 * 8);
	assert_int_equal(f->st.class_warp[WG_CLASS_BARRIER], 2 * 8);
}

static void without_barrier_a_warp_runs_to_its_end_first(void **state)
{
	struct fx *f = *state;
	char src[1024];
	const uint32_t *o;

	/* Warp w runs to EXIT before warp w+1 starts: it sees only the words of warps <= w. */
	snprintf(src, sizeof(src), exchange_src, "");
	o = run_out(f, src, fx_dim(1, 1, 1), fx_dim(256, 1, 1));
	for (uint32_t t = 0; t < 256; t++) {
		uint32_t other = 255 - t;

		assert_int_equal(o[t], other / 32 <= t / 32 ? other * other + 1 : 0);
	}
}

static void barrier_deadlock_is_reported(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel dead\n"
		".regs 2\n"
		"    S2R R0, SR_WARPID\n"
		"    ISETP.EQ P0, R0, 0\n"
		"@P0 BRA w0\n"
		"    BAR.SYNC 1\n"
		"    EXIT\n"
		"w0:\n"
		"    BAR.SYNC 0\n"
		"    EXIT\n");

	assert_int_equal(fx_launch(f, k, fx_dim(2, 1, 1), fx_dim(96, 1, 1), NULL, 0), WG_EDEADLOCK);
	FX_EXPECT_ERROR(f, WG_EDEADLOCK, "kernel 'dead': CTA (0,0,0): barrier deadlock",
	                "warp 0 at barrier 0", "warp 1 at barrier 1", "warp 2 at barrier 1");
	assert_int_equal(f->st.kernels, 0);
	assert_int_equal(f->st.ctas, 1);
}

static void barrier_waits_only_for_unfinished_warps(void **state)
{
	struct fx *f = *state;
	const uint32_t *o = run_out(f,
		".kernel early\n"
		".regs 6\n"
		".param ptr out\n"
		"    S2R R0, SR_WARPID\n"
		"    MOV R2, 1\n"
		"    ISETP.NE P0, R0, 1\n"
		"@P0 BRA store\n"            /* all warps but 1 store and exit */
		"    BAR.SYNC 3\n"
		"    MOV R2, 2\n"
		"    BAR.SYNC 3\n"
		"    MOV R2, 3\n"
		STORE_R2_AND_EXIT,
		fx_dim(1, 1, 1), fx_dim(128, 1, 1));

	for (uint32_t t = 0; t < 128; t++)
		assert_int_equal(o[t], t / 32 == 1 ? 3 : 1);
	assert_int_equal(f->st.barriers, 2);
}

static void guarded_off_barrier_does_not_arrive(void **state)
{
	struct fx *f = *state;
	const uint32_t *o = run_out(f,
		".kernel gbar\n"
		".regs 6\n"
		".shared 4\n"
		".param ptr out\n"
		"    S2R R0, SR_WARPID\n"
		"    ISETP.EQ P0, R0, 0\n"
		"@P0 BAR.SYNC 0\n"           /* only warp 0 arrives; warp 1 passes and finishes */
		"@!P0 STS.32 [RZ], R0\n"
		"    LDS.32 R2, [RZ]\n"
		STORE_R2_AND_EXIT,
		fx_dim(1, 1, 1), fx_dim(64, 1, 1));

	/* warp 0 waits until warp 1 has finished, so it sees warp 1's store */
	for (uint32_t t = 0; t < 64; t++)
		assert_int_equal(o[t], 1);
	assert_int_equal(f->st.barriers, 1);
	assert_int_equal(f->st.class_warp[WG_CLASS_BARRIER], 2);
}

static void divergent_warp_arrives_with_its_partial_mask(void **state)
{
	struct fx *f = *state;
	const uint32_t *o = run_out(f,
		".kernel divbar\n"
		".regs 6\n"
		".shared 256\n"
		".param ptr out\n"
		"    S2R R0, SR_TID.X\n"
		"    SHL R1, R0, 2\n"
		"    STS.32 [R1], R0\n"
		"    ISETP.LT P0, R0, 16\n"
		"@P0 BRA low\n"
		"    BAR.SYNC 0\n"
		"    BRA join\n"
		"low:\n"
		"    BAR.SYNC 0\n"
		"join:\n"
		"    XOR R1, R1, 0xfc\n"        /* (63 - tid) * 4 */
		"    LDS.32 R2, [R1]\n"
		STORE_R2_AND_EXIT,
		fx_dim(1, 1, 1), fx_dim(64, 1, 1));

	for (uint32_t t = 0; t < 64; t++)
		assert_int_equal(o[t], 63 - t);
	/* warp 0 arrives twice (each side of its divergence), warp 1 once */
	assert_int_equal(f->st.barriers, 3);
}

static void partial_last_warp_has_only_its_threads(void **state)
{
	struct fx *f = *state;
	char path[64];
	char *log;
	struct fx_ret r[64];
	const uint32_t *o;
	struct out_params p;
	unsigned n;

	p.out = fx_alloc(f, 48 * 4);
	memset(fx_ptr(f, (uint32_t)p.out, 48 * 4), 0xEE, 48 * 4);
	fx_log_begin(f, path);
	fx_run(f, fx_asm(f,
		".kernel partial\n"
		".regs 6\n"
		".param ptr out\n"
		"    S2R R2, SR_LANEID\n"
		"    S2R R1, SR_WARPID\n"
		"    IMAD R2, R1, 1000, R2\n"
		STORE_R2_AND_EXIT),
	       fx_dim(1, 1, 1), fx_dim(40, 1, 1), &p, 0);
	log = fx_log_end(f, path);
	o = fx_ptr(f, (uint32_t)p.out, 48 * 4);
	for (uint32_t t = 0; t < 40; t++)
		assert_int_equal(o[t], (t / 32) * 1000 + t % 32);
	for (uint32_t t = 40; t < 48; t++)
		assert_int_equal(o[t], 0xEEEEEEEEu);
	n = fx_log_lines(log, 0, 1, r, 64);
	assert_int_equal(n, 12);
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(r[i].active, 0xFFu);
		assert_int_equal(r[i].exec, 0xFFu);
	}
	assert_int_equal(f->st.warps, 2);
	assert_int_equal(f->st.threads, 40);
	assert_int_equal(f->st.thread_insts, 12 * 40);
	free(log);
}

static void ctas_run_in_linear_order_x_fastest(void **state)
{
	struct fx *f = *state;
	const uint32_t *o = run_out(f,
		".kernel order\n"
		".regs 8\n"
		".param ptr out\n"
		"    LDC.32 R0, [out]\n"
		"    ATOMG.ADD R2, [R0], 1\n"     /* ticket, one per thread */
		"    S2R R3, SR_CTAID.X\n"
		"    S2R R4, SR_CTAID.Y\n"
		"    S2R R5, SR_CTAID.Z\n"
		"    IMAD R5, R5, 2, R4\n"        /* (z * 2 + y) * 3 + x */
		"    IMAD R5, R5, 3, R3\n"
		"    IADD R5, R5, 1\n"
		"    SHL R5, R5, 2\n"
		"    IADD R0, R0, R5\n"
		"    S2R R6, SR_TID.X\n"
		"    ISETP.EQ P0, R6, 0\n"
		"@P0 STG.32 [R0], R2\n"
		"    EXIT\n",
		fx_dim(3, 2, 2), fx_dim(4, 1, 1));

	assert_int_equal(o[0], 48);
	for (uint32_t c = 0; c < 12; c++)
		assert_int_equal(o[1 + c], 4 * c);
	assert_int_equal(f->st.ctas, 12);
}

static void statistics_count_instructions_threads_and_classes(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel stats\n"
		".regs 6\n"
		".param ptr out\n"
		"    S2R R0, SR_TID.X\n"
		"    ISETP.LT P0, R0, 8\n"
		"@P0 IADD R1, R0, 1\n"
		"    FADD R2, R1, 1.0\n"
		"    IMUL R3, R0, R0\n"
		"    LDC.32 R4, [out]\n"
		"    SHL R5, R0, 2\n"
		"    IADD R4, R4, R5\n"
		"    STG.32 [R4], R3\n"
		"    EXIT\n");
	struct out_params p = { fx_alloc(f, 40 * 4) };
	const struct wg_stats *s = &f->st;

	fx_run(f, k, fx_dim(3, 1, 1), fx_dim(40, 1, 1), &p, 0);
	assert_int_equal(s->kernels, 1);
	assert_int_equal(s->ctas, 3);
	assert_int_equal(s->warps, 6);
	assert_int_equal(s->threads, 120);
	assert_int_equal(s->warp_insts, 3 * 2 * 10);
	assert_int_equal(s->thread_insts, 3 * (9 * 40 + 8));
	assert_int_equal(s->class_warp[WG_CLASS_INT], 3 * 2 * 5);
	assert_int_equal(s->class_thread[WG_CLASS_INT], 3 * (4 * 40 + 8));
	assert_int_equal(s->class_warp[WG_CLASS_FP], 6);
	assert_int_equal(s->class_thread[WG_CLASS_FP], 120);
	assert_int_equal(s->class_warp[WG_CLASS_IMUL], 6);
	assert_int_equal(s->class_warp[WG_CLASS_LDST_PARAM], 6);
	assert_int_equal(s->class_warp[WG_CLASS_LDST_GLOBAL], 6);
	assert_int_equal(s->class_warp[WG_CLASS_CONTROL], 6);
	assert_int_equal(s->class_thread[WG_CLASS_CONTROL], 120);
	assert_int_equal(s->gst_bytes, 3 * 160);
	assert_int_equal(s->gld_bytes, 0);
	assert_int_equal(s->branches, 0);
	assert_true(s->host_seconds >= 0.0);
}

static void uniform_loop_never_diverges(void **state)
{
	struct fx *f = *state;
	const uint32_t *o = run_out(f,
		".kernel uloop\n"
		".regs 6\n"
		".param ptr out\n"
		"    MOV R1, 0\n"
		"    MOV R2, 0\n"
		"loop:\n"
		"    IADD R2, R2, R1\n"
		"    IADD R1, R1, 1\n"
		"    ISETP.LT P0, R1, 100\n"
		"@P0 BRA loop\n"
		STORE_R2_AND_EXIT,
		fx_dim(1, 1, 1), fx_dim(64, 1, 1));

	for (int t = 0; t < 64; t++)
		assert_int_equal(o[t], 4950);
	assert_int_equal(f->st.branches, 2 * 100);
	assert_int_equal(f->st.divergent_branches, 0);
}

static void nested_ifs_reconverging_at_one_point(void **state)
{
	struct fx *f = *state;
	const uint32_t *o = run_out(f,
		".kernel nest\n"
		".regs 6\n"
		".param ptr out\n"
		"    S2R R0, SR_LANEID\n"
		"    MOV R2, 0\n"
		"    AND R1, R0, 1\n"
		"    ISETP.EQ P0, R1, 0\n"
		"@P0 BRA store\n"           /* even lanes done */
		"    IADD R2, R2, 1\n"
		"    AND R1, R0, 2\n"
		"    ISETP.EQ P1, R1, 0\n"
		"@P1 BRA store\n"           /* lanes 1 mod 4 done */
		"    IADD R2, R2, 2\n"
		"    AND R1, R0, 4\n"
		"    ISETP.EQ P2, R1, 0\n"
		"@P2 BRA store\n"
		"    IADD R2, R2, 4\n"
		STORE_R2_AND_EXIT,
		fx_dim(1, 1, 1), fx_dim(32, 1, 1));

	for (uint32_t t = 0; t < 32; t++) {
		uint32_t want = (t & 1) ? 1 + ((t & 2) ? 2 + ((t & 4) ? 4 : 0) : 0) : 0;

		assert_int_equal(o[t], want);
	}
	assert_int_equal(f->st.divergent_branches, 3);
}

/* Every iteration one lane leaves the loop: the deepest stack a break loop needs, inside an if. */
static void break_loop_leaving_one_lane_per_iteration(void **state)
{
	struct fx *f = *state;
	const uint32_t *o = run_out(f,
		".kernel deep\n"
		".regs 6\n"
		".param ptr out\n"
		"    S2R R0, SR_LANEID\n"
		"    MOV R2, 1000\n"
		"    ISETP.EQ P2, R0, 31\n"
		"@P2 BRA store\n"                /* lane 31 skips the loop */
		"    MOV R1, 0\n"
		"    MOV R2, 0\n"
		"loop:\n"
		"    AND R3, R1, 1\n"
		"    ISETP.EQ P1, R3, R0\n"     /* an if/else inside the loop, too */
		"@P1 BRA odd\n"
		"    IADD R2, R2, 1\n"
		"    BRA next\n"
		"odd:\n"
		"    IADD R2, R2, 100\n"
		"next:\n"
		"    ISETP.GE P0, R1, R0\n"
		"@P0 BRA store\n"
		"    IADD R1, R1, 1\n"
		"    BRA loop\n"
		STORE_R2_AND_EXIT,
		fx_dim(1, 1, 1), fx_dim(32, 1, 1));

	for (uint32_t t = 0; t < 32; t++) {
		uint32_t want = 0;

		if (t == 31) {
			want = 1000;
		} else {
			for (uint32_t i = 0; i <= t; i++)
				want += (i & 1) == t ? 100 : 1;
		}
		assert_int_equal(o[t], want);
	}
	assert_true(f->st.divergent_branches >= 31);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(if_else_runs_the_taken_side_first_and_reconverges),
		T(nested_divergence_in_a_loop_with_break),
		T(exit_inside_divergence_removes_lanes_everywhere),
		T(guarded_exit_keeps_the_other_lanes_running),
		T(predicated_off_instructions_issue_but_do_nothing),
		T(barrier_exchanges_shared_data_across_warps),
		T(without_barrier_a_warp_runs_to_its_end_first),
		T(barrier_deadlock_is_reported),
		T(barrier_waits_only_for_unfinished_warps),
		T(guarded_off_barrier_does_not_arrive),
		T(divergent_warp_arrives_with_its_partial_mask),
		T(partial_last_warp_has_only_its_threads),
		T(ctas_run_in_linear_order_x_fastest),
		T(statistics_count_instructions_threads_and_classes),
		T(uniform_loop_never_diverges),
		T(nested_ifs_reconverging_at_one_point),
		T(break_loop_leaving_one_lane_per_iteration),
	};

	return FX_RUN_BOTH("func_simt", tests);
}
