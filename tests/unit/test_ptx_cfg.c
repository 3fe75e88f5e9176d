/*
 * Control-flow graph, immediate post-dominators and liveness of translated
 * code (host/src/ptx_cfg.c, docs/ptx.md sections 4 and 5), on code built by
 * hand with wg_px_append.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ptx.h"
#include "warpgate.h"

static struct wg_px_insn *op(struct wg_px_code *c, int32_t def, int32_t s0, int32_t s1)
{
	struct wg_px_insn *in = wg_px_append(c, WG_PX_OP, 1);

	assert_non_null(in);
	in->def = def;
	in->src[0] = s0;
	in->src[1] = s1;
	snprintf(in->text, sizeof(in->text), "IADD {d}, {0}, {1}");
	return in;
}

static void bra(struct wg_px_code *c, int32_t label, int32_t guard)
{
	struct wg_px_insn *in = wg_px_append(c, WG_PX_BRA, 1);

	assert_non_null(in);
	in->label = label;
	in->guard = guard;
}

static void lab(struct wg_px_code *c, int32_t label)
{
	struct wg_px_insn *in = wg_px_append(c, WG_PX_LABEL, 1);

	assert_non_null(in);
	in->label = label;
}

static void exit_(struct wg_px_code *c, int32_t guard)
{
	struct wg_px_insn *in = wg_px_append(c, WG_PX_EXIT, 1);

	assert_non_null(in);
	in->guard = guard;
}

/*
 * if/else diamond:
 *   0 OP v1 = v0          b0
 *   1 @p BRA L1           b0 -> b2 (target), b1 (fall-through)
 *   2 OP v2 = v1          b1
 *   3 BRA L2              b1 -> b3
 *   4 L1:                 b2
 *   5 OP v2 = v1          b2 -> b3 (falls through)
 *   6 L2:                 b3
 *   7 OP v3 = v2          b3
 *   8 EXIT                b3 -> exit (4)
 * ipdom: b0, b1, b2 -> b3; b3 -> exit.
 */
static void diamond_reconverges_at_join(void **state)
{
	struct wg_px_code c = { 0 };
	struct wg_px_cfg g;
	int p, v0, v1, v2, v3, l1, l2;

	p = wg_px_new_vreg(&c, WG_PX_PRED);
	v0 = wg_px_new_vreg(&c, WG_PX_GPR);
	v1 = wg_px_new_vreg(&c, WG_PX_GPR);
	v2 = wg_px_new_vreg(&c, WG_PX_GPR);
	v3 = wg_px_new_vreg(&c, WG_PX_GPR);
	l1 = wg_px_new_label(&c, "L1");
	l2 = wg_px_new_label(&c, "L2");
	op(&c, v1, v0, -1);
	bra(&c, l1, p);
	op(&c, v2, v1, -1);
	bra(&c, l2, -1);
	lab(&c, l1);
	op(&c, v2, v1, -1);
	lab(&c, l2);
	op(&c, v3, v2, -1);
	exit_(&c, -1);
	assert_int_equal(wg_px_cfg_build(&g, &c), 0);
	assert_int_equal(g.nblocks, 4);
	assert_int_equal(g.start[2], 4);
	assert_int_equal(g.succ[0][0], 2);
	assert_int_equal(g.succ[0][1], 1);
	assert_int_equal(g.succ[1][0], 3);
	assert_int_equal(g.succ[1][1], WG_PX_NONE);
	assert_int_equal(g.succ[2][0], 3);
	assert_int_equal(g.succ[3][0], 4);
	assert_int_equal(g.ipdom[0], 3);
	assert_int_equal(g.ipdom[1], 3);
	assert_int_equal(g.ipdom[2], 3);
	assert_int_equal(g.ipdom[3], 4);

	/* liveness: v0 and p live into b0 only; v1 out of b0 into b1 and b2; v2 out of b1, b2 into b3 */
	assert_int_equal(wg_px_liveness(&g, &c), 0);
	assert_true(wg_px_live(g.live_in, g.words, 0, (uint32_t)v0));
	assert_true(wg_px_live(g.live_in, g.words, 0, (uint32_t)p));
	assert_false(wg_px_live(g.live_out, g.words, 0, (uint32_t)v0));
	assert_true(wg_px_live(g.live_out, g.words, 0, (uint32_t)v1));
	assert_true(wg_px_live(g.live_in, g.words, 1, (uint32_t)v1));
	assert_true(wg_px_live(g.live_in, g.words, 2, (uint32_t)v1));
	assert_false(wg_px_live(g.live_in, g.words, 3, (uint32_t)v1));
	assert_true(wg_px_live(g.live_out, g.words, 1, (uint32_t)v2));
	assert_true(wg_px_live(g.live_out, g.words, 2, (uint32_t)v2));
	assert_true(wg_px_live(g.live_in, g.words, 3, (uint32_t)v2));
	assert_false(wg_px_live(g.live_in, g.words, 1, (uint32_t)v2)); /* killed in b1 before any use */
	assert_false(wg_px_live(g.live_out, g.words, 3, (uint32_t)v3));
	wg_px_cfg_free(&g);
	wg_px_code_free(&c);
}

/*
 * loop with an early exit:
 *   0 L0:                  b0
 *   1 OP v0 = v0           b0
 *   2 @p EXIT              b0 -> exit (3), b1
 *   3 @q BRA L0            b1 -> b0, b2
 *   4 OP v1 = v0           b2
 *   5 EXIT                 b2 -> exit
 * Every path reaches the exit, none joins before it: ipdom of b0 and b1 is the exit
 * (BRA reconv none). v0 is live around the loop: into b0 and b1, out of b0 and b1.
 */
static void loop_with_exit_has_no_join(void **state)
{
	struct wg_px_code c = { 0 };
	struct wg_px_cfg g;
	int p, q, v0, v1, l0;

	p = wg_px_new_vreg(&c, WG_PX_PRED);
	q = wg_px_new_vreg(&c, WG_PX_PRED);
	v0 = wg_px_new_vreg(&c, WG_PX_GPR);
	v1 = wg_px_new_vreg(&c, WG_PX_GPR);
	l0 = wg_px_new_label(&c, "L0");
	lab(&c, l0);
	op(&c, v0, v0, -1);
	exit_(&c, p);
	bra(&c, l0, q);
	op(&c, v1, v0, -1);
	exit_(&c, -1);
	assert_int_equal(wg_px_cfg_build(&g, &c), 0);
	assert_int_equal(g.nblocks, 3);
	assert_int_equal(g.succ[0][0], 3);
	assert_int_equal(g.succ[0][1], 1);
	assert_int_equal(g.succ[1][0], 0);
	assert_int_equal(g.succ[1][1], 2);
	assert_int_equal(g.ipdom[0], 3);
	assert_int_equal(g.ipdom[1], 3);
	assert_int_equal(g.ipdom[2], 3);
	assert_int_equal(wg_px_liveness(&g, &c), 0);
	assert_true(wg_px_live(g.live_in, g.words, 0, (uint32_t)v0));
	assert_true(wg_px_live(g.live_out, g.words, 1, (uint32_t)v0));
	assert_true(wg_px_live(g.live_in, g.words, 1, (uint32_t)q));
	assert_true(wg_px_live(g.live_out, g.words, 1, (uint32_t)q)); /* read again in the next iteration */
	wg_px_cfg_free(&g);
	wg_px_code_free(&c);
}

/* A guarded definition keeps the old value for lanes whose guard is false: it does not kill. */
static void guarded_definition_does_not_kill(void **state)
{
	struct wg_px_code c = { 0 };
	struct wg_px_cfg g;
	struct wg_px_insn *in;
	int p, v0, v1;

	p = wg_px_new_vreg(&c, WG_PX_PRED);
	v0 = wg_px_new_vreg(&c, WG_PX_GPR);
	v1 = wg_px_new_vreg(&c, WG_PX_GPR);
	in = op(&c, v0, v1, -1); /* @p v0 = v1 */
	in->guard = p;
	op(&c, v1, v0, -1);
	exit_(&c, -1);
	assert_int_equal(wg_px_cfg_build(&g, &c), 0);
	assert_int_equal(wg_px_liveness(&g, &c), 0);
	assert_true(wg_px_live(g.live_in, g.words, 0, (uint32_t)v0));
	assert_true(wg_px_live(g.live_in, g.words, 0, (uint32_t)v1));
	assert_true(wg_px_live(g.live_in, g.words, 0, (uint32_t)p));
	wg_px_cfg_free(&g);
	wg_px_code_free(&c);
}

static void falling_off_the_end_is_rejected(void **state)
{
	struct wg_px_code c = { 0 };
	struct wg_px_cfg g;
	int p = wg_px_new_vreg(&c, WG_PX_PRED), v = wg_px_new_vreg(&c, WG_PX_GPR);

	op(&c, v, -1, -1);
	assert_int_equal(wg_px_cfg_build(&g, &c), WG_ESYNTAX);
	exit_(&c, p); /* guarded: still falls through */
	assert_int_equal(wg_px_cfg_build(&g, &c), WG_ESYNTAX);
	wg_px_code_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(diamond_reconverges_at_join),
		cmocka_unit_test(loop_with_exit_has_no_join),
		cmocka_unit_test(guarded_definition_does_not_kill),
		cmocka_unit_test(falling_off_the_end_is_rejected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
