/*
 * cmocka tests of the GDDR5 channel model (host/src/dram.c) and the DRAM
 * timing string (host/src/dram_timing.c).
 *
 * Unless a test says otherwise the channel runs the GTX480 timing string
 *   nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2
 * with both clocks at 924 MHz, so that core cycles equal DRAM cycles and the
 * numbers below can be read straight off the constraints. Derived values:
 *   burst = BL 8 / 4 beats per clock = 2 cycles of data bus, 64 B per burst
 *   tRCDWR = RCD - (WL + 1) = 7          (activate to write)
 *   tRTW   = CL + burst + 2 - WL = 12    (read command to write command)
 *   tWTR   = WL + burst + CDLR = 11      (write command to read command)
 *   tWTP   = WL + burst + WR = 18        (write command to precharge)
 * Default map 0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS: bank bits 8, 13, 14, 15
 * (bank group = bank >> 2 = address bits 14-15), rows from bit 16.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "dram.h"
#include "warpgate.h"

#define GTX480_TIMING "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2"

struct fixture {
	struct wg_dram_params p;
	struct wg_dram *m;
	char err[256];
};

static void make_params(struct wg_dram_params *p, const char *timing, uint32_t core_mhz, uint32_t dram_mhz)
{
	char err[256];

	memset(p, 0, sizeof(*p));
	assert_int_equal(wg_dram_timing_parse(&p->timing, timing, err, sizeof(err)), 0);
	assert_int_equal(wg_dram_mapping_parse(&p->map, WG_DRAM_MAPPING_DEFAULT, err, sizeof(err)), 0);
	p->core_clock_mhz = core_mhz;
	p->dram_clock_mhz = dram_mhz;
	p->queue_size = 32;
	p->bus_bytes = 8;
	p->burst_len = 8;
	p->beats_per_clk = 4;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	make_params(&f->p, GTX480_TIMING, 924, 924);
	assert_int_equal(wg_dram_create(&f->m, &f->p), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	wg_dram_destroy(f->m);
	free(f);
	return 0;
}

/* Replace the fixture's channel by one with other parameters. */
static void recreate(struct fixture *f)
{
	wg_dram_destroy(f->m);
	f->m = NULL;
	assert_int_equal(wg_dram_create(&f->m, &f->p), 0);
}

/* Spread v over the set bits of mask, low to high (inverse of the model's decode). */
static uint64_t scatter(uint64_t v, uint64_t mask)
{
	uint64_t a = 0;

	for (unsigned k = 0; mask; k++, mask &= mask - 1)
		if (v >> k & 1)
			a |= mask & -mask;
	return a;
}

/* Channel-local address of 64-byte column col of row in bank. */
static uint64_t addr_of(const struct fixture *f, uint32_t bank, uint64_t row, uint64_t col)
{
	return scatter(bank, f->p.map.bank_mask) | scatter(row, f->p.map.row_mask) | scatter(col, f->p.map.col_mask);
}

static void push(struct fixture *f, uint64_t stamp, uint64_t id, uint64_t addr, uint32_t bytes, int write)
{
	struct wg_dram_req r = { .id = id, .addr = addr, .bytes = bytes, .write = (uint8_t)write };

	assert_int_equal(wg_dram_push(f->m, stamp, &r), 0);
}

/* Advance to t and expect exactly one completion, of id, at cycle. */
static void expect_done(struct fixture *f, uint64_t t, uint64_t id, uint64_t cycle)
{
	struct wg_dram_done d;

	assert_int_equal(wg_dram_advance(f->m, t), 0);
	assert_int_equal(wg_dram_pop(f->m, &d), 1);
	assert_int_equal(d.id, id);
	assert_int_equal(d.cycle, cycle);
}

static void expect_none(struct fixture *f, uint64_t t)
{
	struct wg_dram_done d;

	assert_int_equal(wg_dram_advance(f->m, t), 0);
	assert_int_equal(wg_dram_pop(f->m, &d), 0);
}

/* ---- timing string ------------------------------------------------------- */

static void gtx480_timing_string_parses_every_field(void **state)
{
	struct fixture *f = *state;
	const struct wg_dram_timing *t = &f->p.timing;

	assert_int_equal(t->nbk, 16);
	assert_int_equal(t->tCCD, 2);
	assert_int_equal(t->tRRD, 6);
	assert_int_equal(t->tRCD, 12);
	assert_int_equal(t->tRAS, 28);
	assert_int_equal(t->tRP, 12);
	assert_int_equal(t->tRC, 40);
	assert_int_equal(t->CL, 12);
	assert_int_equal(t->WL, 4);
	assert_int_equal(t->tCDLR, 5);
	assert_int_equal(t->tWR, 12);
	assert_int_equal(t->nbkgrp, 4);
	assert_int_equal(t->tCCDL, 3);
	assert_int_equal(t->tRTPL, 2);
}

static void timing_string_order_blanks_and_positional_form(void **state)
{
	struct fixture *f = *state;
	struct wg_dram_timing a, b;

	/* Any order, ';' separators and blanks (GPGPU-Sim files split the string over lines). */
	assert_int_equal(wg_dram_timing_parse(&a, "CL=12 : WL=4;nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
	                                          "  CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2", f->err, sizeof(f->err)), 0);
	assert_memory_equal(&a, &f->p.timing, sizeof(a));
	/* Legacy positional form, all 14 fields. */
	assert_int_equal(wg_dram_timing_parse(&b, "16:2:6:12:28:12:40:12:4:5:12:4:3:2", f->err, sizeof(f->err)), 0);
	assert_memory_equal(&b, &f->p.timing, sizeof(b));
	/* Bank-group fields are optional: 1 group, CCDL = RTPL = 0. */
	assert_int_equal(wg_dram_timing_parse(&b, "16:2:6:12:28:12:40:12:4:5:12", f->err, sizeof(f->err)), 0);
	assert_int_equal(b.nbkgrp, 1);
	assert_int_equal(b.tCCDL, 0);
	assert_int_equal(b.tRTPL, 0);
	assert_int_equal(wg_dram_timing_parse(&b, "nbk=8:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12",
	                                      f->err, sizeof(f->err)), 0);
	assert_int_equal(b.nbk, 8);
	assert_int_equal(b.nbkgrp, 1);
}

/* Parse s, expect WG_ECONFIG and a message containing want; the output is untouched. */
static void expect_timing_error(struct fixture *f, const char *s, const char *want)
{
	struct wg_dram_timing t;

	memset(&t, 0xAB, sizeof(t));
	f->err[0] = '\0';
	assert_int_equal(wg_dram_timing_parse(&t, s, f->err, sizeof(f->err)), WG_ECONFIG);
	if (!strstr(f->err, want))
		fail_msg("'%s': message '%s' lacks '%s'", s, f->err, want);
	for (size_t i = 0; i < sizeof(t); i++)
		assert_int_equal(((unsigned char *)&t)[i], 0xAB);
}

static void timing_string_errors_name_the_parameter_and_position(void **state)
{
	struct fixture *f = *state;

	/* "nbk=16:CCD=2:" is 13 characters: field 3 starts at offset 13. */
	expect_timing_error(f, "nbk=16:CCD=2:XYZ=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12",
	                    "unknown parameter 'XYZ' (field 3, offset 13)");
	expect_timing_error(f, "nbk=16:CCD=2:RRD=x:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12",
	                    "parameter 'RRD' (field 3, offset 13): 'x' is not an unsigned integer");
	expect_timing_error(f, "nbk=16:CCD=-2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12",
	                    "parameter 'CCD' (field 2, offset 7): '-2' is not");
	expect_timing_error(f, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=:WL=4:CDLR=5:WR=12",
	                    "parameter 'CL' (field 8, offset 45): '' is not");
	expect_timing_error(f, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=999999:WL=4:CDLR=5:WR=12",
	                    "parameter 'CL' (field 8");
	expect_timing_error(f, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5", "missing parameter 'WR'");
	expect_timing_error(f, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:CCD=3",
	                    "parameter 'CCD' (field 12, offset 69) repeats field 2");
	expect_timing_error(f, "nbk=16:CCD=2::RCD=12", "field 3 (offset 13) is empty");
	expect_timing_error(f, "nbk=16:CCD=2:RRD", "field 3 'RRD' (offset 13): expected name=value");
	expect_timing_error(f, "nbk=12:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12",
	                    "parameter 'nbk' (field 1, offset 0): 12 is not a power of two");
	expect_timing_error(f, "nbk=4:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=8",
	                    "parameter 'nbkgrp' (field 12, offset 68): 8 is not a power of two <= nbk (4)");
	/* Positional: field 7 is RC; too few and too many fields. */
	expect_timing_error(f, "16:2:6:12:28:12:4x:12:4:5:12", "parameter 'RC' (field 7, offset 16)");
	expect_timing_error(f, "16:2:6:12:28:12:40:12:4", "missing parameter 'CDLR'");
	expect_timing_error(f, "16:2:6:12:28:12:40:12:4:5:12:4:3:2:1", "field 15 (offset 35): more than 14");
	expect_timing_error(f, "", "parameter 'nbk' (field 1, offset 0) is empty");
}

static void address_map_string_is_checked(void **state)
{
	struct fixture *f = *state;
	struct wg_dram_mapping m;

	/* Default: bank bits 8, 13-15; columns 6-7 and 9-12; rows 16-27. */
	assert_int_equal(f->p.map.bank_mask, 0xE100);
	assert_int_equal(f->p.map.col_mask, 0x1EC0);
	assert_int_equal(f->p.map.row_mask, 0xFFF0000);
	assert_int_equal(wg_dram_mapping_parse(&m, "RRBBCCSS", f->err, sizeof(f->err)), 0);
	assert_int_equal(m.row_mask, 0xC0);
	assert_int_equal(m.bank_mask, 0x30);
	assert_int_equal(m.col_mask, 0x0C);
	assert_int_equal(wg_dram_mapping_parse(&m, "RRXBCCSS", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, "character 3 'X' (bit 5)"));
	/* Three bank bits cannot address 16 banks. */
	struct wg_dram *bad = (struct wg_dram *)f;
	f->p.map.bank_mask = 0x6100;
	assert_int_equal(wg_dram_create(&bad, &f->p), WG_EINVAL);
	assert_null(bad);
}

/* ---- single requests ------------------------------------------------------ */

static void isolated_read_to_closed_bank_is_act_rcd_cl_burst(void **state)
{
	struct fixture *f = *state;
	const struct wg_dram_stats *st = wg_dram_stats(f->m);

	/* ACT at 0, RD at 0 + tRCD = 12, data 12 + CL = 24 .. 24 + 2 = 26. */
	push(f, 0, 7, addr_of(f, 0, 0, 0), 32, 0);
	expect_none(f, 25);
	expect_done(f, 26, 7, 26);
	assert_int_equal(st->activates, 1);
	assert_int_equal(st->reads, 1);
	assert_int_equal(st->row_misses, 1);
	assert_int_equal(st->row_hits, 0);
	assert_int_equal(st->bus_busy, 2); /* one burst: 32 B still costs 2 cycles */
	assert_int_equal(st->latency_sum, 26);
}

static void read_of_128_bytes_is_two_bursts_tccdl_apart(void **state)
{
	struct fixture *f = *state;
	const struct wg_dram_stats *st = wg_dram_stats(f->m);

	/*
	 * 128 B = 2 bursts of 64 B in one bank, hence one bank group: the second
	 * RD waits tCCDL = 3 (not tCCD = 2). RD at 12 and 15, last data 15 + 12
	 * = 27 .. 29: the bus carries data 4 of the 5 cycles 24..29.
	 */
	push(f, 0, 1, addr_of(f, 0, 0, 0), 128, 0);
	expect_none(f, 28);
	expect_done(f, 29, 1, 29);
	assert_int_equal(st->bus_busy, 4);
}

static void row_hit_after_the_row_is_open_costs_cl_plus_burst(void **state)
{
	struct fixture *f = *state;
	const struct wg_dram_stats *st = wg_dram_stats(f->m);

	push(f, 0, 1, addr_of(f, 0, 0, 0), 32, 0);
	expect_done(f, 26, 1, 26);
	/* Row 0 stays open (open page): RD at 30, data 42..44. */
	push(f, 30, 2, addr_of(f, 0, 0, 5), 32, 0);
	expect_none(f, 43);
	expect_done(f, 44, 2, 44);
	assert_int_equal(st->activates, 1);
	assert_int_equal(st->precharges, 0);
	assert_int_equal(st->row_hits, 1);
	assert_int_equal(st->row_misses, 1);
	assert_int_equal(st->latency_sum, 26 + 14);
}

static void second_read_to_open_row_follows_at_column_spacing(void **state)
{
	struct fixture *f = *state;

	/* Open row 0 of bank 0 (group 0), of bank 1 (group 0) and of bank 4 (group 1). */
	push(f, 0, 1, addr_of(f, 0, 0, 0), 32, 0);
	push(f, 0, 2, addr_of(f, 1, 0, 0), 32, 0);
	push(f, 0, 3, addr_of(f, 4, 0, 0), 32, 0);
	assert_int_equal(wg_dram_advance(f->m, 100), 0);
	assert_int_equal(wg_dram_stats(f->m)->activates, 3);
	while (wg_dram_pop(f->m, &(struct wg_dram_done){ 0 }))
		;
	/*
	 * At 100, three row hits: bank 0 RD at 100. Bank 4 is in another group:
	 * tCCD = 2 -> RD at 102. Bank 1 shares group 0 with bank 0: tCCDL from
	 * 100 -> 103 (and tCCD from 102 -> 104): RD at 104. Data ends CL + burst
	 * = 14 later: 114, 116, 118. Pushed in the order bank 0, bank 1, bank 4:
	 * FR-FCFS takes the oldest legal hit, so bank 4 overtakes bank 1.
	 */
	push(f, 100, 10, addr_of(f, 0, 0, 1), 32, 0);
	push(f, 100, 11, addr_of(f, 1, 0, 1), 32, 0);
	push(f, 100, 12, addr_of(f, 4, 0, 1), 32, 0);
	expect_done(f, 114, 10, 114);
	expect_done(f, 116, 12, 116);
	expect_done(f, 118, 11, 118);
	assert_int_equal(wg_dram_stats(f->m)->row_hits, 3);
}

static void read_to_another_row_waits_tras_then_trp(void **state)
{
	struct fixture *f = *state;
	const struct wg_dram_stats *st = wg_dram_stats(f->m);

	/*
	 * A: bank 0 row 0, B: bank 0 row 1, both at 0. ACT(row 0) at 0, RD A at
	 * 12 (done 26). B may precharge once A's hit is served, but not before
	 * ACT + tRAS = 28 (RD + tRTPL = 14 is earlier): PRE at 28. ACT(row 1) at
	 * max(PRE + tRP, ACT + tRC) = max(40, 40) = 40, RD at 52, data to 66.
	 */
	push(f, 0, 1, addr_of(f, 0, 0, 0), 32, 0);
	push(f, 0, 2, addr_of(f, 0, 1, 0), 32, 0);
	expect_done(f, 26, 1, 26);
	expect_none(f, 65);
	expect_done(f, 66, 2, 66);
	assert_int_equal(st->activates, 2);
	assert_int_equal(st->precharges, 1);
	assert_int_equal(st->row_misses, 2);
	assert_int_equal(st->row_conflicts, 1);
	assert_int_equal(st->row_hits, 0);
}

static void trc_delays_the_activate_when_longer_than_tras_plus_trp(void **state)
{
	struct fixture *f = *state;

	/* Same as above with tRC = 50: PRE at 28, ACT at max(40, 0 + 50) = 50, RD 62, data to 76. */
	make_params(&f->p, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=50:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2",
	            924, 924);
	recreate(f);
	push(f, 0, 1, addr_of(f, 0, 0, 0), 32, 0);
	push(f, 0, 2, addr_of(f, 0, 1, 0), 32, 0);
	expect_done(f, 26, 1, 26);
	expect_none(f, 75);
	expect_done(f, 76, 2, 76);
}

static void two_banks_open_in_parallel_trrd_apart(void **state)
{
	struct fixture *f = *state;

	/*
	 * Bank 0 and bank 1, different rows, at 0: ACT bank 0 at 0, ACT bank 1
	 * at tRRD = 6. RD bank 0 at 12 (done 26); RD bank 1 at 6 + tRCD = 18
	 * (tCCDL from 12 is 15, earlier): done 32. The same bank would have
	 * finished the second at 66 (test above).
	 */
	push(f, 0, 1, addr_of(f, 0, 0, 0), 32, 0);
	push(f, 0, 2, addr_of(f, 1, 3, 0), 32, 0);
	expect_done(f, 26, 1, 26);
	expect_none(f, 31);
	expect_done(f, 32, 2, 32);
	assert_int_equal(wg_dram_stats(f->m)->activates, 2);
	assert_int_equal(wg_dram_stats(f->m)->precharges, 0);
}

static void frfcfs_serves_a_younger_row_hit_before_an_older_miss(void **state)
{
	struct fixture *f = *state;
	const struct wg_dram_stats *st = wg_dram_stats(f->m);
	struct wg_dram_done d;

	push(f, 0, 1, addr_of(f, 0, 0, 0), 32, 0); /* opens row 0 of bank 0 */
	expect_done(f, 26, 1, 26);
	/*
	 * At 100: X (older) wants row 1 of bank 0, Y (younger) hits row 0. Y's RD
	 * goes first at 100 (done 114). X: PRE at max(ACT 0 + tRAS, RD 100 +
	 * tRTPL) = 102, ACT at 102 + tRP = 114, RD at 126, data to 140. In FCFS
	 * order X would have finished first.
	 */
	push(f, 100, 20, addr_of(f, 0, 1, 0), 32, 0);
	push(f, 100, 21, addr_of(f, 0, 0, 1), 32, 0);
	assert_int_equal(wg_dram_advance(f->m, 200), 0);
	assert_int_equal(wg_dram_pop(f->m, &d), 1);
	assert_int_equal(d.id, 21);
	assert_int_equal(d.cycle, 114);
	assert_int_equal(d.stamp, 100);
	assert_int_equal(wg_dram_pop(f->m, &d), 1);
	assert_int_equal(d.id, 20);
	assert_int_equal(d.cycle, 140);
	assert_int_equal(wg_dram_pop(f->m, &d), 0);
	assert_int_equal(st->row_hits, 1);
	assert_int_equal(st->row_misses, 2);
	assert_int_equal(st->row_conflicts, 1);
	assert_int_equal(st->latency_sum, 26 + 14 + 40);
}

static void open_row_with_a_waiting_hit_is_not_precharged(void **state)
{
	struct fixture *f = *state;
	struct wg_dram_done d;

	/* Open row 0 of bank 0 (ACT 0, RD 12) and of bank 4 (ACT 6, RD 18). */
	push(f, 0, 1, addr_of(f, 0, 0, 0), 32, 0);
	push(f, 0, 2, addr_of(f, 4, 0, 0), 32, 0);
	/* At 100 a write hits bank 4: WR at 100, data 104..106. */
	push(f, 100, 3, addr_of(f, 4, 0, 1), 32, 1);
	/*
	 * At 101, X (older) wants row 1 of bank 0 and Y hits row 0 of bank 0.
	 * Y must wait for WR + tWTR = 111; X's precharge would be legal at once
	 * (ACT 0 + tRAS long past) but would destroy Y's hit, so it waits for Y:
	 * RD Y at 111 (done 125), PRE at RD + tRTPL = 113, ACT at 113 + tRP =
	 * 125, RD X at 137, data to 151.
	 */
	push(f, 101, 4, addr_of(f, 0, 1, 0), 32, 0);
	push(f, 101, 5, addr_of(f, 0, 0, 1), 32, 0);
	assert_int_equal(wg_dram_advance(f->m, 200), 0);
	assert_int_equal(wg_dram_pop(f->m, &d), 1);
	assert_int_equal(d.cycle, 26);
	assert_int_equal(wg_dram_pop(f->m, &d), 1);
	assert_int_equal(d.cycle, 32);
	assert_int_equal(wg_dram_pop(f->m, &d), 1);
	assert_int_equal(d.id, 3);
	assert_int_equal(d.cycle, 106);
	assert_int_equal(wg_dram_pop(f->m, &d), 1);
	assert_int_equal(d.id, 5);
	assert_int_equal(d.cycle, 125);
	assert_int_equal(wg_dram_pop(f->m, &d), 1);
	assert_int_equal(d.id, 4);
	assert_int_equal(d.cycle, 151);
	assert_int_equal(wg_dram_stats(f->m)->row_hits, 2);
	assert_int_equal(wg_dram_stats(f->m)->row_conflicts, 1);
	assert_int_equal(wg_dram_stats(f->m)->precharges, 1);
}

static void write_then_read_waits_for_write_data_plus_tcdlr(void **state)
{
	struct fixture *f = *state;
	struct wg_dram_done d;

	/*
	 * W (write) and R (read), bank 0 row 0, at 0. ACT at 0 for W. WR at
	 * ACT + tRCDWR = 7, write data 11..13: W done at 13. R: tRCD allows 12,
	 * but the last write data (13) + tCDLR 5 = 18: RD at 18, data to 32
	 * (alone it would have been 26).
	 */
	push(f, 0, 1, addr_of(f, 0, 0, 0), 32, 1);
	push(f, 0, 2, addr_of(f, 0, 0, 1), 32, 0);
	expect_done(f, 13, 1, 13);
	expect_none(f, 31);
	assert_int_equal(wg_dram_pop(f->m, &d), 0);
	expect_done(f, 32, 2, 32);
	/*
	 * Read to write: at 40 a read (RD 40, data 52..54), at 41 a write: WR no
	 * earlier than RD + tRTW = 52, its data 56..58: done 58.
	 */
	push(f, 40, 3, addr_of(f, 0, 0, 2), 32, 0);
	push(f, 41, 4, addr_of(f, 0, 0, 3), 32, 1);
	expect_done(f, 54, 3, 54);
	expect_none(f, 57);
	expect_done(f, 58, 4, 58);
	assert_int_equal(wg_dram_stats(f->m)->writes, 2);
	assert_int_equal(wg_dram_stats(f->m)->reads, 2);
}

static void write_recovery_delays_the_precharge(void **state)
{
	struct fixture *f = *state;

	/*
	 * With RAS=10 and RC=22 (so that tWR is the binding constraint): W writes
	 * row 0 of bank 0 at 0 (ACT 0, WR at tRCDWR = 7, data 11..13, done 13);
	 * at 14 a read of row 1. PRE waits for the last write data (13) + tWR 12
	 * = 25 (= WR + tWTP = 7 + 18), later than ACT + tRAS = 10: PRE at 25,
	 * ACT at 25 + tRP = 37 (tRC allows 22), RD at 37 + tRCD = 49, data to 63.
	 */
	make_params(&f->p, "nbk=16:CCD=2:RRD=6:RCD=12:RAS=10:RP=12:RC=22:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2",
	            924, 924);
	recreate(f);
	push(f, 0, 1, addr_of(f, 0, 0, 0), 32, 1);
	expect_done(f, 13, 1, 13);
	push(f, 14, 2, addr_of(f, 0, 1, 0), 32, 0);
	expect_none(f, 62);
	expect_done(f, 63, 2, 63);
}

/* ---- clocks --------------------------------------------------------------- */

static void core_and_dram_clocks_convert_by_exact_ratio(void **state)
{
	struct fixture *f = *state;

	/*
	 * 700 MHz core, 924 MHz DRAM: 924/700 = 33/25. A read stamped at core
	 * cycle 10 arrives at DRAM cycle ceil(10 * 33 / 25) = ceil(13.2) = 14:
	 * ACT 14, RD 26, data ends at DRAM boundary 40 = core time 40 * 25 / 33
	 * = 30.3, seen at core cycle 31.
	 */
	make_params(&f->p, GTX480_TIMING, 700, 924);
	recreate(f);
	push(f, 10, 1, addr_of(f, 0, 0, 0), 32, 0);
	expect_none(f, 30);
	expect_done(f, 31, 1, 31);
	/* 128 B at core 100: DRAM 132; ACT 132, RD 144 and 147, data to 161 -> ceil(161 * 25 / 33) = 122. */
	push(f, 100, 2, addr_of(f, 2, 0, 0), 128, 0);
	expect_none(f, 121);
	expect_done(f, 122, 2, 122);
}

static void channel_from_the_gtx480_config(void **state)
{
	struct fixture *f = *state;
	struct wg_config c;
	struct wg_dram *m;
	struct wg_dram_done d;
	struct wg_dram_req r = { .id = 5, .addr = 0, .bytes = 32, .write = 0 };

	wg_config_default(&c);
	assert_int_equal(wg_dram_create_from_config(&m, &c, f->err, sizeof(f->err)), 0);
	/* Stamp 0 -> DRAM 0: data ends at 26 -> ceil(26 * 25 / 33) = ceil(19.7) = 20. */
	assert_int_equal(wg_dram_push(m, 0, &r), 0);
	assert_int_equal(wg_dram_advance(m, 19), 0);
	assert_int_equal(wg_dram_pop(m, &d), 0);
	assert_int_equal(wg_dram_advance(m, 20), 0);
	assert_int_equal(wg_dram_pop(m, &d), 1);
	assert_int_equal(d.cycle, 20);
	wg_dram_destroy(m);

	strcpy(c.dram_timing, "nbk=16:CCD=2");
	assert_int_equal(wg_dram_create_from_config(&m, &c, f->err, sizeof(f->err)), WG_ECONFIG);
	assert_null(m);
	assert_non_null(strstr(f->err, "dram_timing: missing parameter 'RRD'"));
}

/* ---- queue and contract --------------------------------------------------- */

static void full_queue_refuses_until_a_request_is_issued(void **state)
{
	struct fixture *f = *state;
	const struct wg_dram_stats *st = wg_dram_stats(f->m);
	struct wg_dram_req r = { .id = 99, .addr = addr_of(f, 3, 0, 0), .bytes = 32 };

	/* 32 reads (dram_queue = 32), all to row 0 of bank 0. */
	for (uint32_t i = 0; i < 32; i++) {
		assert_true(wg_dram_can_accept(f->m));
		push(f, 0, i, addr_of(f, 0, 0, i), 32, 0);
	}
	assert_false(wg_dram_can_accept(f->m));
	assert_int_equal(wg_dram_push(f->m, 0, &r), WG_ENOMEM);
	assert_int_equal(wg_dram_push(f->m, 12, &r), WG_ENOMEM);
	assert_int_equal(st->queue_full, 2);
	assert_int_equal(st->max_queue, 32);
	/* The first RD issues in DRAM cycle 12, which advance(12) leaves open; after advance(13) a slot is free. */
	assert_false(wg_dram_can_accept(f->m));
	assert_int_equal(wg_dram_advance(f->m, 13), 0);
	assert_true(wg_dram_can_accept(f->m));
	assert_int_equal(wg_dram_queued(f->m), 31);
	assert_int_equal(wg_dram_push(f->m, 13, &r), 0);
	assert_int_equal(st->max_queue, 32);
}

static void pushes_in_the_past_and_bad_requests_are_rejected(void **state)
{
	struct fixture *f = *state;
	struct wg_dram_req r = { .id = 1, .addr = 0, .bytes = 32 };

	assert_int_equal(wg_dram_advance(f->m, 50), 0);
	assert_int_equal(wg_dram_now(f->m), 50);
	assert_int_equal(wg_dram_push(f->m, 49, &r), WG_EINVAL);
	assert_int_equal(wg_dram_advance(f->m, 49), WG_EINVAL);
	r.bytes = 48;
	assert_int_equal(wg_dram_push(f->m, 50, &r), WG_EINVAL);
	r.bytes = 160;
	assert_int_equal(wg_dram_push(f->m, 50, &r), WG_EINVAL);
	r.bytes = 0;
	assert_int_equal(wg_dram_push(f->m, 50, &r), WG_EINVAL);
	r.bytes = 64;
	r.addr = 16;
	assert_int_equal(wg_dram_push(f->m, 50, &r), WG_EINVAL);
	assert_int_equal(wg_dram_queued(f->m), 0);
	/* A push stamped later moves the model's time. */
	r.addr = 0;
	assert_int_equal(wg_dram_push(f->m, 60, &r), 0);
	assert_int_equal(wg_dram_now(f->m), 60);
}

static void next_event_bounds_and_then_names_the_completion(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(wg_dram_next_event(f->m), UINT64_MAX);
	push(f, 0, 1, addr_of(f, 0, 0, 0), 32, 0);
	/* Not yet scheduled: no earlier than DRAM 0 + min(CL, WL) + burst = 6. */
	assert_int_equal(wg_dram_next_event(f->m), 6);
	/* After DRAM cycle 12 the RD is issued and the completion known: 26. */
	assert_int_equal(wg_dram_advance(f->m, 13), 0);
	assert_int_equal(wg_dram_next_event(f->m), 26);
	expect_done(f, 26, 1, 26);
	assert_int_equal(wg_dram_next_event(f->m), UINT64_MAX);
}

/* ---- mapping -------------------------------------------------------------- */

/* 16 reads at stride 256 B, all pushed at 0; returns the last completion cycle. */
static uint64_t strided_stream(struct fixture *f)
{
	struct wg_dram_done d;
	uint64_t last = 0;

	for (uint64_t i = 0; i < 16; i++)
		push(f, 0, i, i * 256, 32, 0);
	assert_int_equal(wg_dram_advance(f->m, 100000), 0);
	while (wg_dram_pop(f->m, &d))
		last = d.cycle;
	return last;
}

static void address_map_decides_row_hits_of_a_strided_stream(void **state)
{
	struct fixture *f = *state;
	const struct wg_dram_stats *st;
	uint64_t t_default, t_rows;

	/*
	 * Default map: address bit 8 is bank bit 0 and bits 9-12 are columns, so
	 * 16 x 256 B alternate banks 0 and 1 in row 0: 2 activates, 14 hits.
	 */
	t_default = strided_stream(f);
	st = wg_dram_stats(f->m);
	assert_int_equal(st->activates, 2);
	assert_int_equal(st->row_hits, 14);
	assert_int_equal(st->row_misses, 2);
	assert_int_equal(st->row_conflicts, 0);
	/*
	 * Rows in bits 6-17, banks in 18-21: the same stream is 16 rows of bank
	 * 0, each a conflict with the previous: 16 activates, 15 precharges.
	 */
	assert_int_equal(wg_dram_mapping_parse(&f->p.map, "CCCCCCCC.CCBBBBRR.RRRRRRRR.RRSSSSSS", f->err, sizeof(f->err)),
	                 0);
	recreate(f);
	t_rows = strided_stream(f);
	st = wg_dram_stats(f->m);
	assert_int_equal(st->activates, 16);
	assert_int_equal(st->precharges, 15);
	assert_int_equal(st->row_hits, 0);
	assert_int_equal(st->row_conflicts, 15);
	/* Row after row of one bank: 15 x tRC = 600 cycles apart at least. */
	assert_true(t_rows >= 15 * 40 + 26);
	assert_true(t_default < 100);
}

/* ---- determinism ---------------------------------------------------------- */

struct gen_req {
	uint64_t stamp;
	struct wg_dram_req r;
};

#define NREQ 3000

static void make_stream(struct gen_req *g, const struct fixture *f)
{
	uint64_t x = 0x9E3779B97F4A7C15ull, t = 0;

	for (int i = 0; i < NREQ; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t v = (uint32_t)(x >> 32);
		/* Bursts of requests separated by idle gaps. */
		t += (v & 63) == 0 ? 100 + (v >> 24) : (v >> 3) & 1;
		g[i].stamp = t;
		g[i].r.id = (uint64_t)i;
		g[i].r.write = (v >> 5) % 4 == 0;
		g[i].r.bytes = 32u * (1 + (v >> 7) % 4);
		g[i].r.addr = addr_of(f, (v >> 9) % 16, (v >> 13) % 3, (v >> 15) % 64);
	}
}

/*
 * Drive the stream: a refused request is held and retried every cycle; the
 * model is advanced at every cycle with pending requests and otherwise
 * every `step` cycles (0: never in between). Returns the completions.
 */
static size_t drive(struct fixture *f, const struct gen_req *g, uint64_t step, struct wg_dram_done *out)
{
	size_t n = 0;
	int next = 0;
	uint64_t t = 0;

	while (next < NREQ || wg_dram_next_event(f->m) != UINT64_MAX) {
		if (next < NREQ && g[next].stamp <= t) {
			assert_int_equal(wg_dram_advance(f->m, t), 0);
			while (next < NREQ && g[next].stamp <= t) {
				int ok = wg_dram_can_accept(f->m);

				assert_int_equal(wg_dram_push(f->m, t, &g[next].r), ok ? 0 : WG_ENOMEM);
				if (!ok)
					break; /* held until the next cycle */
				next++;
			}
		} else if (step && t % step == 0) {
			assert_int_equal(wg_dram_advance(f->m, t), 0);
		} else if (!step && next == NREQ) {
			assert_int_equal(wg_dram_advance(f->m, UINT32_MAX), 0);
		}
		while (n < NREQ && wg_dram_pop(f->m, &out[n]))
			n++;
		t++;
		if (t > (uint64_t)UINT32_MAX)
			break;
	}
	return n;
}

static void expect_same(const struct wg_dram_done *a, const struct wg_dram_done *b, const struct wg_dram_stats *sa,
                        const struct wg_dram_stats *sb)
{
	for (int i = 0; i < NREQ; i++) {
		assert_int_equal(a[i].id, b[i].id);
		assert_int_equal(a[i].stamp, b[i].stamp);
		assert_int_equal(a[i].cycle, b[i].cycle);
		assert_int_equal(a[i].write, b[i].write);
	}
	assert_int_equal(sa->reads, sb->reads);
	assert_int_equal(sa->writes, sb->writes);
	assert_int_equal(sa->activates, sb->activates);
	assert_int_equal(sa->precharges, sb->precharges);
	assert_int_equal(sa->row_hits, sb->row_hits);
	assert_int_equal(sa->row_misses, sb->row_misses);
	assert_int_equal(sa->row_conflicts, sb->row_conflicts);
	assert_int_equal(sa->queue_full, sb->queue_full);
	assert_int_equal(sa->bus_busy, sb->bus_busy);
	assert_int_equal(sa->latency_sum, sb->latency_sum);
	assert_int_equal(sa->max_queue, sb->max_queue);
}

static void results_do_not_depend_on_advance_step(void **state)
{
	struct fixture *f = *state;
	static struct gen_req g[NREQ];
	static struct wg_dram_done a[NREQ], b[NREQ], c[NREQ];
	struct wg_dram_stats sa, sb, sc;

	for (int clocks = 0; clocks < 2; clocks++) {
		/* Equal clocks: step 1 is a plain cycle-by-cycle run of the DRAM. */
		make_params(&f->p, GTX480_TIMING, clocks ? 700 : 924, 924);
		make_stream(g, f);
		recreate(f);
		assert_int_equal(drive(f, g, 1, a), NREQ);
		sa = *wg_dram_stats(f->m);
		recreate(f);
		assert_int_equal(drive(f, g, 7, b), NREQ);
		sb = *wg_dram_stats(f->m);
		recreate(f);
		assert_int_equal(drive(f, g, 0, c), NREQ);
		sc = *wg_dram_stats(f->m);
		expect_same(a, b, &sa, &sb);
		expect_same(a, c, &sa, &sc);
		/* The stream exercised every path. */
		assert_true(sa.queue_full > 0);
		assert_int_equal(sa.max_queue, 32);
		assert_true(sa.row_hits > 0 && sa.row_conflicts > 0);
		assert_int_equal(sa.reads + sa.writes, NREQ);
		assert_int_equal(sa.row_hits + sa.row_misses, NREQ);
		uint64_t writes = 0;
		for (int i = 0; i < NREQ; i++)
			writes += g[i].r.write;
		assert_int_equal(sa.writes, writes);
		/* Completions come out in cycle order, each after its stamp. */
		for (int i = 1; i < NREQ; i++)
			assert_true(a[i].cycle >= a[i - 1].cycle);
		for (int i = 0; i < NREQ; i++)
			assert_true(a[i].cycle > a[i].stamp);
	}
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(gtx480_timing_string_parses_every_field),
		T(timing_string_order_blanks_and_positional_form),
		T(timing_string_errors_name_the_parameter_and_position),
		T(address_map_string_is_checked),
		T(isolated_read_to_closed_bank_is_act_rcd_cl_burst),
		T(read_of_128_bytes_is_two_bursts_tccdl_apart),
		T(row_hit_after_the_row_is_open_costs_cl_plus_burst),
		T(second_read_to_open_row_follows_at_column_spacing),
		T(read_to_another_row_waits_tras_then_trp),
		T(trc_delays_the_activate_when_longer_than_tras_plus_trp),
		T(two_banks_open_in_parallel_trrd_apart),
		T(frfcfs_serves_a_younger_row_hit_before_an_older_miss),
		T(open_row_with_a_waiting_hit_is_not_precharged),
		T(write_then_read_waits_for_write_data_plus_tcdlr),
		T(write_recovery_delays_the_precharge),
		T(core_and_dram_clocks_convert_by_exact_ratio),
		T(channel_from_the_gtx480_config),
		T(full_queue_refuses_until_a_request_is_issued),
		T(pushes_in_the_past_and_bad_requests_are_rejected),
		T(next_event_bounds_and_then_names_the_completion),
		T(address_map_decides_row_hits_of_a_strided_stream),
		T(results_do_not_depend_on_advance_step),
	};
	return cmocka_run_group_tests_name("dram", tests, NULL, NULL);
}
