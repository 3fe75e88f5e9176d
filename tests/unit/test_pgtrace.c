/* cmocka tests of the lane-activity trace decoder and VCD writer (host/src/pgtrace.[ch]). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "energy.h"
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
	const uint32_t kind[] = { hdr(1, 0, 3), 20, 0, chg(0, WG_PGT_SLEEP, 0), hdr(3, 0, 2), 0, 0 };
	const uint32_t sm[] = { hdr(1, 2, 2), 0, 0 };
	const uint32_t trunc[] = { hdr(1, 1, 4), 0, 0, chg(0, 0, 0) };
	const uint32_t nobase[] = { hdr(1, 1, 1), 0 };
	const uint32_t lane[] = { hdr(1, 1, 3), 30, 0, chg(4, WG_PGT_IDLE, 0) };
	const uint32_t back[] = { hdr(1, 0, 3), 9, 0, chg(1, WG_PGT_IDLE, 0) };

	assert_int_equal(wg_pgtrace_feed(f->tr, good, 4, f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_pgtrace_feed(f->tr, kind, 7, f->err, sizeof(f->err)), WG_EINVAL);
	assert_string_equal(f->err, "TRACE word 4: unknown block kind 3");
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

/* Kind-2 records (docs/power-gating.md section 7.2). */
static uint64_t rec(uint64_t delta, unsigned type, unsigned state, unsigned group, uint32_t payload)
{
	return delta | (uint64_t)type << 24 | (uint64_t)state << 28 | (uint64_t)group << 30 | (uint64_t)payload << 32;
}

/* A kind-2 block of SM sm: header, base, the records as word pairs. */
static size_t block2(uint32_t *w, unsigned sm, uint64_t base, const uint64_t *r, size_t n)
{
	w[0] = hdr(WG_PGT_KIND_RECORDS, sm, (unsigned)(2 + 2 * n));
	w[1] = (uint32_t)base;
	w[2] = (uint32_t)(base >> 32);
	for (size_t i = 0; i < n; i++) {
		w[3 + 2 * i] = (uint32_t)r[i];
		w[4 + 2 * i] = (uint32_t)(r[i] >> 32);
	}
	return 3 + 2 * n;
}

/*
 * Checks a VCD against the IEEE 1364 section 18 syntax that GTKWave reads: declaration
 * commands closed by $end, $var wire 2 <id> <name> $end in scopes that nest and close,
 * $enddefinitions, then #time (increasing) and vector changes b<bits> <id> of declared
 * ids with as many bits as declared. Returns the number of value changes, -1 if bad.
 */
static long vcd_parse(const char *text, unsigned *nvars)
{
	char ids[256][8];
	unsigned nid = 0;
	int depth = 0, defs = 1, dump = 0;
	long changes = 0;
	unsigned long long last = 0;
	int have_time = 0;
	const char *p = text;
	char tok[64];
	int n;

	while (sscanf(p, " %63s%n", tok, &n) == 1) {
		p += n;
		if (defs) {
			if (!strcmp(tok, "$var")) {
				char type[16], id[8], name[32], end[8];
				unsigned width;
				if (sscanf(p, " %15s %u %7s %31s %7s%n", type, &width, id, name, end, &n) != 5 ||
				    strcmp(type, "wire") || width != 2 || strcmp(end, "$end") || nid == 256)
					return -1;
				p += n;
				strcpy(ids[nid++], id);
			} else if (!strcmp(tok, "$scope")) {
				char kind[16], name[32], end[8];
				if (sscanf(p, " %15s %31s %7s%n", kind, name, end, &n) != 3 || strcmp(end, "$end"))
					return -1;
				p += n;
				depth++;
			} else if (!strcmp(tok, "$upscope")) {
				if (sscanf(p, " %7s%n", tok, &n) != 1 || strcmp(tok, "$end") || depth-- == 0)
					return -1;
				p += n;
			} else if (!strcmp(tok, "$enddefinitions")) {
				if (sscanf(p, " %7s%n", tok, &n) != 1 || strcmp(tok, "$end") || depth)
					return -1;
				p += n;
				defs = 0;
			} else if (!strcmp(tok, "$comment") || !strcmp(tok, "$timescale") || !strcmp(tok, "$date") ||
				   !strcmp(tok, "$version")) {
				const char *e = strstr(p, "$end");
				if (!e)
					return -1;
				p = e + 4;
			} else {
				return -1;
			}
			continue;
		}
		if (tok[0] == '#') {
			char *end;
			unsigned long long t = strtoull(tok + 1, &end, 10);
			if (*end || (have_time && t <= last))
				return -1;
			last = t;
			have_time = 1;
		} else if (!strcmp(tok, "$dumpvars")) {
			dump = 1;
		} else if (!strcmp(tok, "$end")) {
			if (!dump)
				return -1;
			dump = 0;
		} else if (tok[0] == 'b') {
			char id[8];
			unsigned k;
			if (strlen(tok) != 3 || strspn(tok + 1, "01xz") != 2 || !have_time)
				return -1;
			if (sscanf(p, " %7s%n", id, &n) != 1)
				return -1;
			p += n;
			for (k = 0; k < nid && strcmp(ids[k], id); k++)
				;
			if (k == nid)
				return -1;
			changes++;
		} else {
			return -1;
		}
	}
	*nvars = nid;
	return defs || dump ? -1 : changes;
}

static void records_decode_into_changes_unknowns_and_a_vcd(void **state)
{
	struct wg_pgtrace *tr;
	char err[200], *text;
	uint32_t w[64];
	unsigned nvars;
	/*
	 * 1 SM of 1 unit x 4 lanes, base 1000. START at window cycle 5 (1005): lanes 0..3 idle,
	 * issue S1. 1008: lanes 0, 1 active. 1010: lost (lanes and issue x). 1013: SYNC (3
	 * lost): lanes 0..2 idle, lane 3 asleep, issue S4. 1013 + 2^24 - 1 + 2: END.
	 */
	const uint64_t r[] = {
		rec(0, WG_PGT_R_START, 0, 0, 5),    rec(0, WG_PGT_R_LANES, WG_PGT_IDLE, 0, 0xF),
		rec(0, WG_PGT_R_ISSUE, 0, 0, 0),    rec(3, WG_PGT_R_LANES, WG_PGT_ACTIVE, 0, 0x3),
		rec(2, WG_PGT_R_LOST, 0, 0, 0),     rec(3, WG_PGT_R_SYNC, 0, 0, 3),
		rec(0, WG_PGT_R_LANES, WG_PGT_IDLE, 0, 0x7), rec(0, WG_PGT_R_LANES, WG_PGT_SLEEP, 0, 0x8),
		rec(0, WG_PGT_R_ISSUE, 3, 0, 0),    rec(0xFFFFFF, WG_PGT_R_ADVANCE, 0, 0, 0),
		rec(2, WG_PGT_R_END, 0, 0, 0),
	};
	struct wg_pgtrace_summary sum;
	size_t n;

	(void)state;
	assert_int_equal(wg_pgtrace_create(&tr, 1, 1, 4), 0);
	n = block2(w, 0, 1000, r, 6);                     /* the records in two blocks: the chain continues */
	n += block2(w + n, 0, 0, r + 6, 5);
	assert_int_equal(wg_pgtrace_feed(tr, w, n, err, sizeof(err)), 0);
	wg_pgtrace_summary(tr, &sum);
	assert_int_equal(sum.records, 11);
	assert_int_equal(sum.windows, 1);
	assert_int_equal(sum.losses, 1);
	assert_int_equal(sum.lost_records, 3);
	/* 4 + 1 + 2 + 5 (LOST) + 3 + 1 + 1 + 5 (END) */
	assert_int_equal(wg_pgtrace_changes(tr), 22);
	text = vcd(tr);
	/* Signals: issue '!', lanes '"' '#' '$' '%'. At 1013 + 16777215 + 2 = 16778230 every signal x. */
	assert_non_null(strstr(text, "#1005\n$dumpvars\nbxx !\nbxx \"\nbxx #\nbxx $\nbxx %\n$end\n"
				     "b01 \"\nb01 #\nb01 $\nb01 %\nb00 !\n"
				     "#1008\nb00 \"\nb00 #\n"
				     "#1010\nbxx \"\nbxx #\nbxx $\nbxx %\nbxx !\n"
				     "#1013\nb01 \"\nb01 #\nb01 $\nb10 %\nb11 !\n"
				     "#16778230\nbxx \"\nbxx #\nbxx $\nbxx %\nbxx !\n"));
	assert_true(vcd_parse(text, &nvars) == 27); /* 5 in $dumpvars, then 5 + 2 + 5 + 5 + 5 */
	assert_int_equal(nvars, 5);
	free(text);
	wg_pgtrace_destroy(tr);
}

static void bad_records_are_named(void **state)
{
	struct wg_pgtrace *tr;
	char err[200];
	uint32_t w[32];
	const uint64_t start = rec(0, WG_PGT_R_START, 0, 0, 100);
	const uint64_t before[] = { rec(1, WG_PGT_R_LANES, 0, 0, 1) };
	const uint64_t type[] = { start, rec(1, 9, 0, 0, 0) };
	const uint64_t lane[] = { start, rec(1, WG_PGT_R_LANES, 0, 1, 1) }; /* group 1: lane 32 */
	const uint64_t back[] = { rec(0, WG_PGT_R_START, 0, 0, 50) };
	size_t n;

	(void)state;
	assert_int_equal(wg_pgtrace_create(&tr, 2, 2, 16), 0);
	n = block2(w, 1, 0, before, 1);
	assert_int_equal(wg_pgtrace_feed(tr, w, n, err, sizeof(err)), WG_EINVAL);
	assert_string_equal(err, "TRACE word 3: SM 1 record of type 0 before its first START");
	n = block2(w, 0, 0, type, 2);
	assert_int_equal(wg_pgtrace_feed(tr, w, n, err, sizeof(err)), WG_EINVAL);
	assert_string_equal(err, "TRACE word 5: unknown record type 9");
	n = block2(w, 0, 0, lane, 2);
	assert_int_equal(wg_pgtrace_feed(tr, w, n, err, sizeof(err)), WG_EINVAL);
	assert_string_equal(err, "TRACE word 6: lane 32, the SM has 32");
	n = block2(w, 0, 0, lane, 2);
	w[0] = hdr(WG_PGT_KIND_RECORDS, 0, 5); /* 2 base words + 3 record words */
	assert_int_equal(wg_pgtrace_feed(tr, w, 6, err, sizeof(err)), WG_EINVAL);
	assert_string_equal(err, "TRACE word 0: block of 5 words: an odd number of record words");
	/* nothing of those payloads was kept, not even the STARTs */
	assert_int_equal(wg_pgtrace_changes(tr), 0);
	n = block2(w, 0, 0, &start, 1);
	assert_int_equal(wg_pgtrace_feed(tr, w, n, err, sizeof(err)), 0);
	n = block2(w, 0, 0, back, 1);
	assert_int_equal(wg_pgtrace_feed(tr, w, n, err, sizeof(err)), WG_EINVAL);
	assert_string_equal(err, "TRACE word 3: SM 0 window starts at cycle 50, before its last record at 100");
	wg_pgtrace_destroy(tr);
}

static void intervals_are_cut_at_windows_and_match_the_histogram(void **state)
{
	struct wg_pgtrace *tr;
	struct wg_pg_counts *c = calloc(1, sizeof(*c));
	char err[200], why[200];
	uint32_t w[64];
	uint64_t *lens;
	size_t n, k;
	/*
	 * 1 SM of 1 x 2 lanes. Launch 1 (base 0): START at 0, lane 0 idle, lane 1 active; 4:
	 * lane 0 active, lane 1 idle; 6: lane 1 asleep; END at 10. Launch 2 (base 10): START at
	 * 0 (cycle 10), both idle; 3: lane 0 active; END at 5 (cycle 15).
	 * Intervals: lane 0 [0,4) = 4, [10,13) = 3; lane 1 [4,10) = 6 (idle then asleep: one
	 * interval, cut at END), [10,15) = 5. Lane 0 at 13..15 active: none.
	 */
	const uint64_t l1[] = {
		rec(0, WG_PGT_R_START, 0, 0, 0), rec(0, WG_PGT_R_LANES, WG_PGT_ACTIVE, 0, 2),
		rec(0, WG_PGT_R_LANES, WG_PGT_IDLE, 0, 1), rec(0, WG_PGT_R_ISSUE, 0, 0, 0),
		rec(4, WG_PGT_R_LANES, WG_PGT_ACTIVE, 0, 1), rec(0, WG_PGT_R_LANES, WG_PGT_IDLE, 0, 2),
		rec(2, WG_PGT_R_LANES, WG_PGT_SLEEP, 0, 2), rec(4, WG_PGT_R_END, 0, 0, 0),
	};
	const uint64_t l2[] = {
		rec(0, WG_PGT_R_START, 0, 0, 0), rec(0, WG_PGT_R_LANES, WG_PGT_IDLE, 0, 3),
		rec(0, WG_PGT_R_ISSUE, 0, 0, 0), rec(3, WG_PGT_R_LANES, WG_PGT_ACTIVE, 0, 1),
		rec(2, WG_PGT_R_END, 0, 0, 0),
	};
	const uint64_t want[] = { 3, 4, 5, 6 };

	(void)state;
	assert_non_null(c);
	assert_int_equal(wg_pgtrace_create(&tr, 1, 1, 2), 0);
	n = block2(w, 0, 0, l1, 8);
	assert_int_equal(wg_pgtrace_feed(tr, w, n, err, sizeof(err)), 0);
	n = block2(w, 0, 10, l2, 5);
	assert_int_equal(wg_pgtrace_feed(tr, w, n, err, sizeof(err)), 0);
	assert_int_equal(wg_pgtrace_intervals(tr, &lens, &n), 0);
	assert_int_equal(n, 4);
	for (k = 0; k < n; k++) { /* any order: sort the four */
		for (size_t m = k + 1; m < n; m++)
			if (lens[m] < lens[k]) {
				uint64_t x = lens[k];
				lens[k] = lens[m];
				lens[m] = x;
			}
		assert_int_equal(lens[k], want[k]);
	}
	free(lens);
	/* The histogram of the same intervals agrees at every BET ... */
	for (k = 0; k < 4; k++)
		wg_pg_hist_record(c, want[k]);
	assert_int_equal(wg_pgtrace_check_oracle(tr, c, WG_PG_HIST_BINS, why, sizeof(why)), 0);
	/* ... one of 5 cycles recorded as 2 + 3 has the same cycles but not the same count ... */
	wg_pg_counts_clear(c);
	wg_pg_hist_record(c, 3);
	wg_pg_hist_record(c, 4);
	wg_pg_hist_record(c, 6);
	wg_pg_hist_record(c, 2);
	wg_pg_hist_record(c, 3);
	assert_int_equal(wg_pgtrace_check_oracle(tr, c, WG_PG_HIST_BINS, why, sizeof(why)), 1);
	assert_string_equal(why, "the trace has 4 idle intervals of 18 cycles, the histogram 5 of 18");
	/* ... and 6 recorded as 7 (with 5 as 4) keeps count and cycles but differs at BET 5:
	 * trace (5 - 5) + (6 - 5) = 1, histogram (7 - 5) = 2. */
	wg_pg_counts_clear(c);
	wg_pg_hist_record(c, 3);
	wg_pg_hist_record(c, 4);
	wg_pg_hist_record(c, 4);
	wg_pg_hist_record(c, 7);
	assert_int_equal(wg_pgtrace_check_oracle(tr, c, WG_PG_HIST_BINS, why, sizeof(why)), 1);
	assert_string_equal(why, "at BET 5 the histogram saves 2 lane-cycles, the trace 1");
	wg_pgtrace_destroy(tr);
	free(c);
}

static void a_random_multi_sm_trace_gives_a_well_formed_vcd(void **state)
{
	struct wg_pgtrace *tr;
	char err[200], *text;
	uint32_t *w = malloc(sizeof(uint32_t) * (3 + 2 * 4000));
	uint64_t r[4000];
	unsigned nvars, seed = 7;
	long ch;

	(void)state;
	assert_int_equal(wg_pgtrace_create(&tr, 3, 2, 16), 0);
	/* Per SM: START, then random LANES / ISSUE / ADVANCE records, LOST and SYNC, END. */
	for (unsigned sm = 0; sm < 3; sm++) {
		size_t n = 0;
		r[n++] = rec(0, WG_PGT_R_START, 0, 0, 10 * sm);
		r[n++] = rec(0, WG_PGT_R_LANES, WG_PGT_IDLE, 0, 0xFFFFFFFFu);
		r[n++] = rec(0, WG_PGT_R_ISSUE, 0, 0, 0);
		while (n < 3990) {
			seed = seed * 1103515245u + 12345u;
			unsigned k = seed >> 16 & 15;
			if (k < 12)
				r[n++] = rec(seed >> 8 & 3, WG_PGT_R_LANES, k & 3, 0, seed * 2654435761u);
			else if (k < 14)
				r[n++] = rec(1, WG_PGT_R_ISSUE, seed >> 4 & 3, 0, 0);
			else if (k == 14)
				r[n++] = rec(0xFFFFFF, WG_PGT_R_ADVANCE, 0, 0, 0);
			else {
				r[n++] = rec(1, WG_PGT_R_LOST, 0, 0, 0);
				r[n++] = rec(5, WG_PGT_R_SYNC, 0, 0, 9);
				r[n++] = rec(0, WG_PGT_R_LANES, WG_PGT_SLEEP, 0, 0xFFFFFFFFu);
				r[n++] = rec(0, WG_PGT_R_ISSUE, 3, 0, 0);
			}
		}
		r[n++] = rec(1, WG_PGT_R_END, 0, 0, 0);
		assert_int_equal(wg_pgtrace_feed(tr, w, block2(w, sm, 0, r, n), err, sizeof(err)), 0);
	}
	text = vcd(tr);
	ch = vcd_parse(text, &nvars);
	assert_true(ch > 3 * 3000);
	assert_int_equal(nvars, 3 * 33);
	/* the parser rejects an undeclared id and a time going back */
	assert_true(vcd_parse("$enddefinitions $end\n#1\nb01 !\n", &nvars) == -1);
	assert_true(vcd_parse("$scope module a $end\n$var wire 2 ! l $end\n$upscope $end\n$enddefinitions $end\n"
			      "#2\nb01 !\n#1\nb00 !\n", &nvars) == -1);
	free(text);
	free(w);
	wg_pgtrace_destroy(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(two_sms_interleaved_are_written_in_cycle_order, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_blocks_are_named_and_drop_their_payload, setup, teardown),
		cmocka_unit_test_setup_teardown(sixty_four_bit_base_and_long_gaps, setup, teardown),
		cmocka_unit_test(sizes_out_of_range_are_refused),
		cmocka_unit_test(records_decode_into_changes_unknowns_and_a_vcd),
		cmocka_unit_test(bad_records_are_named),
		cmocka_unit_test(intervals_are_cut_at_windows_and_match_the_histogram),
		cmocka_unit_test(a_random_multi_sm_trace_gives_a_well_formed_vcd),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
