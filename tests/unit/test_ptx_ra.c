/*
 * Linear-scan register allocation (host/src/ptx_ra.c, docs/ptx.md section 4)
 * on hand-built straight-line code: reuse of a register freed by the
 * instruction that writes, spills of general registers and of predicates
 * (with the scratch registers they reserve), slots and .regs.
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

static void op(struct wg_px_code *c, int32_t def, int32_t s0, int32_t s1)
{
	struct wg_px_insn *in = wg_px_append(c, WG_PX_OP, 1);

	assert_non_null(in);
	in->def = def;
	in->src[0] = s0;
	in->src[1] = s1;
}

static void finish(struct wg_px_code *c, struct wg_px_cfg *g)
{
	assert_non_null(wg_px_append(c, WG_PX_EXIT, 1));
	assert_int_equal(wg_px_cfg_build(g, c), 0);
	assert_int_equal(wg_px_liveness(g, c), 0);
}

/*
 * 0: v0 =           interval [1,6]
 * 1: v1 =           [3,4]
 * 2: v2 = v0, v1    [5,6]   v1 ends at 4: v2 takes its R1
 * 3: v3 = v2, v0    [7,7]   v0 and v2 end at 6: v3 takes R0
 */
static void register_freed_by_last_use_is_reused(void **state)
{
	struct wg_px_code c = { 0 };
	struct wg_px_cfg g;
	struct wg_px_ra ra;
	int v[4];

	for (int i = 0; i < 4; i++)
		v[i] = wg_px_new_vreg(&c, WG_PX_GPR);
	op(&c, v[0], -1, -1);
	op(&c, v[1], -1, -1);
	op(&c, v[2], v[0], v[1]);
	op(&c, v[3], v[2], v[0]);
	finish(&c, &g);
	assert_int_equal(wg_px_regalloc(&ra, &c, &g, NULL), 0);
	assert_int_equal(ra.phys[v[0]], 0);
	assert_int_equal(ra.phys[v[1]], 1);
	assert_int_equal(ra.phys[v[2]], 1);
	assert_int_equal(ra.phys[v[3]], 0);
	assert_int_equal(ra.regs, 2);
	assert_int_equal(ra.nspilled, 0);
	assert_int_equal(ra.gpr_scratch, -1);
	wg_px_ra_free(&ra);
	wg_px_cfg_free(&g);
	wg_px_code_free(&c);
}

/*
 * Seven values live at once with 6 registers: the first scan spills, so the
 * allocation is redone with 3 registers (R3..R5 are scratch).
 *   i=0..6: v_i =                  v0 [1,14] v1 [3,14] v2 [5,16] v3 [7,16]
 *   7: v7 = v0, v1                  v4 [9,18] v5 [11,18] v6 [13,20] v7 [15,20]
 *   8: v8 = v2, v3                  v8 [17,22] v9 [19,22] v10 [21,24] v11 [23,24]
 *   9: v9 = v4, v5                  v12 [25,25]
 *  10: v10 = v6, v7
 *  11: v11 = v8, v9
 *  12: v12 = v10, v11
 * With 3 registers: v0 R0, v1 R1, v2 R2; v3..v6 find none free and end no
 * earlier than the last active one (v2, 16), so they are spilled themselves;
 * v7 takes R0 (v0, v1 expired at 14), v8 R1, v9 R2, v10 R0, v11 R1, v12 R0.
 * Slots from spill_base 16 in vreg order: v3 16, v4 20, v5 24, v6 28.
 */
static void seven_live_values_in_six_registers_spill(void **state)
{
	struct wg_px_code c = { 0 };
	struct wg_px_cfg g;
	struct wg_px_ra ra;
	struct wg_px_ra_opts o = { .gprs = 6, .spill_base = 16 };
	int v[13];
	static const int expect[13] = { 0, 1, 2, WG_PX_SPILLED, WG_PX_SPILLED, WG_PX_SPILLED, WG_PX_SPILLED, 0, 1, 2, 0,
	                                 1, 0 };

	for (int i = 0; i < 13; i++)
		v[i] = wg_px_new_vreg(&c, WG_PX_GPR);
	for (int i = 0; i < 7; i++)
		op(&c, v[i], -1, -1);
	op(&c, v[7], v[0], v[1]);
	op(&c, v[8], v[2], v[3]);
	op(&c, v[9], v[4], v[5]);
	op(&c, v[10], v[6], v[7]);
	op(&c, v[11], v[8], v[9]);
	op(&c, v[12], v[10], v[11]);
	finish(&c, &g);
	assert_int_equal(wg_px_regalloc(&ra, &c, &g, &o), 0);
	for (int i = 0; i < 13; i++)
		assert_int_equal(ra.phys[v[i]], expect[i]);
	assert_int_equal(ra.nspilled, 4);
	assert_int_equal(ra.gpr_scratch, 3);
	assert_int_equal(ra.pred_scratch, -1);
	assert_int_equal(ra.slot[v[3]], 16);
	assert_int_equal(ra.slot[v[6]], 28);
	assert_int_equal(ra.local_end, 32);
	assert_int_equal(ra.regs, 6); /* R0..R2 and the scratch R3..R5 */
	wg_px_ra_free(&ra);
	wg_px_cfg_free(&g);
	wg_px_code_free(&c);
}

/*
 * Five predicates live at once with 4: the redo has 1 predicate (P1..P3
 * scratch) and reserves R60..R62 for the transfers.
 *   i=0..4: p_i =          p0 [1,10] p1 [3,10] p2 [5,12] p3 [7,12] p4 [9,14]
 *   5: w0 = p0, p1
 *   6: w1 = p2, p3
 *   7: w2 = p4
 * p0 takes P0; p1..p4 end no earlier than p0: spilled. w0..w2 take R0.
 */
static void predicates_spill_through_a_register(void **state)
{
	struct wg_px_code c = { 0 };
	struct wg_px_cfg g;
	struct wg_px_ra ra;
	struct wg_px_ra_opts o = { .preds = 4 };
	int p[5], w[3];

	for (int i = 0; i < 5; i++)
		p[i] = wg_px_new_vreg(&c, WG_PX_PRED);
	for (int i = 0; i < 3; i++)
		w[i] = wg_px_new_vreg(&c, WG_PX_GPR);
	for (int i = 0; i < 5; i++)
		op(&c, p[i], -1, -1);
	op(&c, w[0], p[0], p[1]);
	op(&c, w[1], p[2], p[3]);
	op(&c, w[2], p[4], -1);
	finish(&c, &g);
	assert_int_equal(wg_px_regalloc(&ra, &c, &g, &o), 0);
	assert_int_equal(ra.phys[p[0]], 0);
	for (int i = 1; i < 5; i++)
		assert_int_equal(ra.phys[p[i]], WG_PX_SPILLED);
	for (int i = 0; i < 3; i++)
		assert_int_equal(ra.phys[w[i]], 0);
	assert_int_equal(ra.nspilled, 4);
	assert_int_equal(ra.pred_scratch, 1);
	assert_int_equal(ra.gpr_scratch, 60);
	assert_int_equal(ra.regs, 63);
	assert_int_equal(ra.local_end, 16);
	wg_px_ra_free(&ra);
	wg_px_cfg_free(&g);
	wg_px_code_free(&c);
}

/* A value live around a loop keeps its register through the whole loop body. */
static void loop_carried_value_keeps_its_register(void **state)
{
	struct wg_px_code c = { 0 };
	struct wg_px_cfg g;
	struct wg_px_ra ra;
	struct wg_px_insn *in;
	int acc, t, p, l;

	acc = wg_px_new_vreg(&c, WG_PX_GPR);
	t = wg_px_new_vreg(&c, WG_PX_GPR);
	p = wg_px_new_vreg(&c, WG_PX_PRED);
	l = wg_px_new_label(&c, "L");
	op(&c, acc, -1, -1);         /* 0: acc = */
	in = wg_px_append(&c, WG_PX_LABEL, 1); /* 1: L: */
	in->label = l;
	op(&c, t, acc, -1);          /* 2: t = acc      t would fit acc's register if acc died here */
	op(&c, p, t, -1);            /* 3: p = t */
	in = wg_px_append(&c, WG_PX_BRA, 1); /* 4: @p BRA L  (acc is read again at 2) */
	in->label = l;
	in->guard = p;
	finish(&c, &g);
	assert_int_equal(wg_px_regalloc(&ra, &c, &g, NULL), 0);
	assert_int_equal(ra.phys[acc], 0);
	assert_int_equal(ra.phys[t], 1); /* acc is live-out of the loop block: not R0 */
	wg_px_ra_free(&ra);
	wg_px_cfg_free(&g);
	wg_px_code_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(register_freed_by_last_use_is_reused),
		cmocka_unit_test(seven_live_values_in_six_registers_spill),
		cmocka_unit_test(predicates_spill_through_a_register),
		cmocka_unit_test(loop_carried_value_keeps_its_register),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
