/* cmocka tests of the lane-activity trace decoder and VCD writer (host/src/pgtrace.[ch]). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pgtrace.h"
#include "warpgate.h"

struct fixture {
	struct wg_pgtrace *tr;
	char err[200];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	/* 2 SMs of 2 units x 2 lanes. */
	assert_int_equal(wg_pgtrace_create(&f->tr, 2, 2, 2), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	wg_pgtrace_destroy(f->tr);
	free(f);
	return 0;
}

static uint32_t hdr(unsigned kind, unsigned sm, unsigned len)
{
	return kind | sm << 8 | len << 16;
}

static uint32_t chg(unsigned lane, unsigned st, unsigned delta)
{
	return lane | st << 6 | delta << 8;
}

static char *vcd(struct wg_pgtrace *tr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_int_equal(wg_pgtrace_write_vcd(tr, out), 0);
	fclose(out);
	return buf;
}

static void two_sms_interleaved_are_written_in_cycle_order(void **state)
{
	struct fixture *f = *state;
	/*
	 * SM 1 from cycle 100: lane 0 idle at 100, lane 3 asleep at 105, issue state S2 at 105.
	 * SM 0 from cycle 102: lane 1 waking at 102, nothing for 10 cycles, lane 2 active at 113.
	 */
	const uint32_t words[] = {
		hdr(1, 1, 5), 100, 0, chg(0, WG_PGT_IDLE, 0), chg(3, WG_PGT_SLEEP, 5), chg(WG_PGT_LANE_ISSUE, 1, 0),
		hdr(1, 0, 5), 102, 0, chg(1, WG_PGT_WAKE, 0), chg(WG_PGT_LANE_NONE, 0, 10), chg(2, WG_PGT_ACTIVE, 1),
	};
	char *text;

	assert_int_equal(wg_pgtrace_feed(f->tr, words, sizeof(words) / 4, f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_pgtrace_changes(f->tr), 5);
	text = vcd(f->tr);
	/* Signals: SM 0 issue '!', lanes '"' '#' '$' '%'; SM 1 issue '&', lanes '\'' '(' ')' '*'. */
	assert_string_equal(text,
			    "$comment warpgate lane-activity trace: 0 active, 1 idle, 2 sleep, 3 wake; issue: S1..S4 as 0..3 $end\n"
			    "$timescale 1ns $end\n$comment one time unit is one SM cycle $end\n$scope module gpu $end\n"
			    "$scope module sm0 $end\n$var wire 2 ! issue $end\n"
			    "$scope module u0 $end\n$var wire 2 \" l00 $end\n$var wire 2 # l01 $end\n$upscope $end\n"
			    "$scope module u1 $end\n$var wire 2 $ l00 $end\n$var wire 2 % l01 $end\n$upscope $end\n"
			    "$upscope $end\n"
			    "$scope module sm1 $end\n$var wire 2 & issue $end\n"
			    "$scope module u0 $end\n$var wire 2 ' l00 $end\n$var wire 2 ( l01 $end\n$upscope $end\n"
			    "$scope module u1 $end\n$var wire 2 ) l00 $end\n$var wire 2 * l01 $end\n$upscope $end\n"
			    "$upscope $end\n"
			    "$upscope $end\n$enddefinitions $end\n"
			    "#100\n$dumpvars\nbxx !\nbxx \"\nbxx #\nbxx $\nbxx %\nbxx &\nbxx '\nbxx (\nbxx )\nbxx *\n$end\n"
			    "b01 '\n"
			    "#102\nb11 #\n"
			    "#105\nb10 *\nb01 &\n"
			    "#113\nb00 $\n");
	free(text);
}

static void bad_blocks_are_named_and_drop_their_payload(void **state)
{
	struct fixture *f = *state;
	const uint32_t good[] = { hdr(1, 0, 3), 10, 0, chg(0, WG_PGT_IDLE, 0) };
	const uint32_t kind[] = { hdr(1, 0, 3), 20, 0, chg(0, WG_PGT_SLEEP, 0), hdr(2, 0, 2), 0, 0 };
	const uint32_t sm[] = { hdr(1, 2, 2), 0, 0 };
	const uint32_t trunc[] = { hdr(1, 1, 4), 0, 0, chg(0, 0, 0) };
	const uint32_t nobase[] = { hdr(1, 1, 1), 0 };
	const uint32_t lane[] = { hdr(1, 1, 3), 30, 0, chg(4, WG_PGT_IDLE, 0) };
	const uint32_t back[] = { hdr(1, 0, 3), 9, 0, chg(1, WG_PGT_IDLE, 0) };

	assert_int_equal(wg_pgtrace_feed(f->tr, good, 4, f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_pgtrace_feed(f->tr, kind, 7, f->err, sizeof(f->err)), WG_EINVAL);
	assert_string_equal(f->err, "TRACE word 4: unknown block kind 2");
	assert_int_equal(wg_pgtrace_feed(f->tr, sm, 3, f->err, sizeof(f->err)), WG_EINVAL);
	assert_string_equal(f->err, "TRACE word 0: SM 2, the GPU has 2");
	assert_int_equal(wg_pgtrace_feed(f->tr, trunc, 4, f->err, sizeof(f->err)), WG_EINVAL);
	assert_string_equal(f->err, "TRACE word 0: block of 4 words runs past the end of the frame");
	assert_int_equal(wg_pgtrace_feed(f->tr, nobase, 2, f->err, sizeof(f->err)), WG_EINVAL);
	assert_string_equal(f->err, "TRACE word 0: block of 1 words has no base cycle (at least 2 words)");
	assert_int_equal(wg_pgtrace_feed(f->tr, lane, 4, f->err, sizeof(f->err)), WG_EINVAL);
	assert_string_equal(f->err, "TRACE word 3: lane 4, the SM has 4");
	/* SM 0's last change was at cycle 10: a block from 9 goes back in time. */
	assert_int_equal(wg_pgtrace_feed(f->tr, back, 4, f->err, sizeof(f->err)), WG_EINVAL);
	assert_string_equal(f->err, "TRACE word 1: SM 0 block starts at cycle 9, before its last change at 10");
	/* Only the good payload was kept, the first block of 'kind' too was dropped. */
	assert_int_equal(wg_pgtrace_changes(f->tr), 1);
}

static void sixty_four_bit_base_and_long_gaps(void **state)
{
	struct fixture *f = *state;
	/* Base 2^32 + 5; a gap of 2^24 - 1 cycles, then another change 1 cycle later. */
	const uint32_t words[] = { hdr(1, 0, 4), 5, 1, chg(WG_PGT_LANE_NONE, 0, 0xFFFFFF), chg(0, WG_PGT_SLEEP, 1) };
	char *text;

	assert_int_equal(wg_pgtrace_feed(f->tr, words, 5, f->err, sizeof(f->err)), 0);
	text = vcd(f->tr);
	/* 4294967301 + 16777215 + 1 = 4311744517, the first (and only) change: the dump starts there. */
	assert_non_null(strstr(text, "#4311744517\n$dumpvars\n"));
	assert_non_null(strstr(text, "$end\nb10 \"\n"));
	free(text);
}

static void sizes_out_of_range_are_refused(void **state)
{
	struct wg_pgtrace *tr = NULL;
	(void)state;
	assert_int_equal(wg_pgtrace_create(&tr, 0, 2, 16), WG_EINVAL);
	assert_int_equal(wg_pgtrace_create(&tr, 15, 4, 16), WG_EINVAL); /* 64 lanes > 62 */
	assert_null(tr);
	assert_int_equal(wg_pgtrace_create(&tr, 15, 2, 16), 0); /* the GTX480 */
	wg_pgtrace_destroy(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(two_sms_interleaved_are_written_in_cycle_order, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_blocks_are_named_and_drop_their_payload, setup, teardown),
		cmocka_unit_test_setup_teardown(sixty_four_bit_base_and_long_gaps, setup, teardown),
		cmocka_unit_test(sizes_out_of_range_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
