/*
 * cmocka tests of the power-gating metric and the lane energy model
 * (host/src/energy.[ch], docs/power-gating.md section 6). Every expected
 * value is worked out by hand in the comments.
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
#include "energy.h"
#include "json.h"
#include "warpgate.h"

struct fixture {
	struct wg_pg_counts c;
	struct wg_energy_params p;
	char err[256];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	wg_pg_counts_clear(&f->c);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* Intervals 3, 3, 100, 1024, 1025, 5000: 7155 cycles in all. */
static void six_intervals(struct wg_pg_counts *c)
{
	static const uint64_t len[] = { 3, 3, 100, 1024, 1025, 5000 };
	unsigned i;

	for (i = 0; i < 6; i++)
		wg_pg_hist_record(c, len[i]);
}

static void histogram_keeps_exact_bins_and_sums_the_rest(void **state)
{
	struct fixture *f = *state;

	six_intervals(&f->c);
	wg_pg_hist_record(&f->c, 0); /* no interval: ignored */
	assert_int_equal(f->c.hist[3], 2);
	assert_int_equal(f->c.hist[100], 1);
	assert_int_equal(f->c.hist[1024], 1);
	assert_int_equal(f->c.over_count, 2);
	assert_int_equal(f->c.over_sum, 6025);  /* 1025 + 5000 */
	assert_int_equal(wg_pg_intervals(&f->c), 6);
	assert_int_equal(wg_pg_interval_cycles(&f->c), 7155);
}

static void oracle_counts_only_intervals_of_at_least_bet(void **state)
{
	struct fixture *f = *state;
	uint64_t s;

	six_intervals(&f->c);
	/* BET 100: 0 + 924 + 925 + 4900; the 3-cycle intervals do not count. */
	assert_int_equal(wg_pg_oracle_saved(&f->c, 100, &s), 0);
	assert_int_equal(s, 6749);
	/* BET 1: every interval, each minus one: 7155 - 6. */
	assert_int_equal(wg_pg_oracle_saved(&f->c, 1, &s), 0);
	assert_int_equal(s, 7149);
	/* BET 4: 96 + 1020 + 1021 + 4996. */
	assert_int_equal(wg_pg_oracle_saved(&f->c, 4, &s), 0);
	assert_int_equal(s, 7133);
	/* BET 1025, the largest the histogram answers: 0 + 3975. */
	assert_int_equal(wg_pg_oracle_saved(&f->c, 1025, &s), 0);
	assert_int_equal(s, 3975);
}

static void oracle_refuses_bets_the_histogram_cannot_answer(void **state)
{
	struct fixture *f = *state;
	uint64_t s = 77;

	six_intervals(&f->c);
	assert_int_equal(wg_pg_oracle_saved(&f->c, 0, &s), WG_EINVAL);
	assert_int_equal(wg_pg_oracle_saved(&f->c, 1026, &s), WG_EINVAL);
	assert_int_equal(s, 77); /* untouched */
}

static void online_figure_can_be_negative(void **state)
{
	struct fixture *f = *state;

	f->c.sleep = 500;
	f->c.events = 3;
	assert_int_equal(wg_pg_online_saved(&f->c, 100), 200);  /* 500 - 300 */
	f->c.events = 6;
	assert_int_equal(wg_pg_online_saved(&f->c, 100), -100); /* 500 - 600 */
}

static void check_accepts_a_consistent_window(void **state)
{
	struct fixture *f = *state;

	/* 2 lanes x 10 cycles: 8 active, 5 idle, 6 asleep, 1 waking; 12 cycles off in intervals 5 and 7. */
	f->c.lanes = 2;
	f->c.lane_cycles = 20;
	f->c.active = 8;
	f->c.idle = 5;
	f->c.sleep = 6;
	f->c.wake = 1;
	wg_pg_hist_record(&f->c, 5);
	wg_pg_hist_record(&f->c, 7);
	assert_int_equal(wg_pg_counts_check(&f->c, f->err, sizeof(f->err)), 0);
}

static void check_names_states_that_do_not_add_up(void **state)
{
	struct fixture *f = *state;

	f->c.lane_cycles = 20;
	f->c.active = 8;
	f->c.idle = 5;
	f->c.sleep = 6; /* 19 */
	wg_pg_hist_record(&f->c, 11);
	assert_int_equal(wg_pg_counts_check(&f->c, f->err, sizeof(f->err)), WG_EINVAL);
	assert_non_null(strstr(f->err, "add up to 19"));
	assert_non_null(strstr(f->err, "expected 20"));
}

static void check_names_a_histogram_that_misses_cycles(void **state)
{
	struct fixture *f = *state;

	f->c.lane_cycles = 20;
	f->c.active = 8;
	f->c.idle = 12;
	wg_pg_hist_record(&f->c, 10);
	assert_int_equal(wg_pg_counts_check(&f->c, f->err, sizeof(f->err)), WG_EINVAL);
	assert_non_null(strstr(f->err, "holds 10 cycles"));
	assert_non_null(strstr(f->err, "= 12"));
	/* A histogram that says it lost intervals is not held to the sum. */
	f->c.hist_lost = 1;
	assert_int_equal(wg_pg_counts_check(&f->c, f->err, sizeof(f->err)), 0);
}

static void counts_add_field_by_field(void **state)
{
	struct fixture *f = *state;
	struct wg_pg_counts b;

	wg_pg_counts_clear(&b);
	f->c.lanes = 32;
	f->c.sleep = 7;
	f->c.thread_ops[WG_CLASS_FP] = 5;
	wg_pg_hist_record(&f->c, 9);
	b.lanes = 32;
	b.sleep = 3;
	b.thread_ops[WG_CLASS_FP] = 1;
	wg_pg_hist_record(&b, 9);
	wg_pg_hist_record(&b, 2000);
	wg_pg_counts_add(&f->c, &b);
	assert_int_equal(f->c.lanes, 64);
	assert_int_equal(f->c.sleep, 10);
	assert_int_equal(f->c.thread_ops[WG_CLASS_FP], 6);
	assert_int_equal(f->c.hist[9], 2);
	assert_int_equal(f->c.over_count, 1);
	assert_int_equal(f->c.over_sum, 2000);
}

/* 500 MHz, 2 mW: 2 mW x 2 ns = 4 pJ per lane-cycle; 25 % left asleep saves 3 pJ a cycle. */
static void params_500mhz(struct wg_energy_params *p)
{
	memset(p, 0, sizeof(*p));
	p->clock_mhz = 500;
	p->lane_leak_mw = 2.0;
	p->sleep_leak_pct = 25.0;
	p->bet_mode = WG_BET_GIVEN;
	p->bet_cycles = 10;
	p->dyn_pj[WG_CLASS_INT] = 1.0;
	p->dyn_pj[WG_CLASS_FP] = 2.0;
}

static void given_bet_prices_an_event_at_bet_cycles_of_saved_leakage(void **state)
{
	struct fixture *f = *state;
	uint32_t bet;
	double gate;

	params_500mhz(&f->p);
	assert_float_equal(wg_energy_leak_pj(&f->p), 4.0, 1e-12);
	assert_int_equal(wg_energy_bet(&f->p, &bet, &gate), 0);
	assert_int_equal(bet, 10);
	assert_float_equal(gate, 30.0, 1e-9); /* 10 x 3 pJ */
}

static void circuit_bet_is_where_saved_leakage_pays_for_the_event(void **state)
{
	struct fixture *f = *state;
	uint32_t bet;
	double gate;

	params_500mhz(&f->p);
	f->p.bet_mode = WG_BET_CIRCUIT;
	f->p.switch_pj = 20.0;
	f->p.recharge_pj = 13.0;
	assert_int_equal(wg_energy_bet(&f->p, &bet, &gate), 0);
	assert_int_equal(bet, 11); /* 33 / 3 exactly */
	assert_float_equal(gate, 33.0, 1e-9);
	f->p.recharge_pj = 14.0;
	assert_int_equal(wg_energy_bet(&f->p, &bet, &gate), 0);
	assert_int_equal(bet, 12); /* 34 / 3 = 11.33, rounded up */
	f->p.switch_pj = f->p.recharge_pj = 0.0;
	assert_int_equal(wg_energy_bet(&f->p, &bet, &gate), 0);
	assert_int_equal(bet, 1); /* free gating still needs one idle cycle */
	f->p.sleep_leak_pct = 100.0; /* sleeping saves nothing */
	assert_int_equal(wg_energy_bet(&f->p, &bet, &gate), WG_EINVAL);
}

static void energy_of_a_gated_run(void **state)
{
	struct fixture *f = *state;
	struct wg_energy e;

	params_500mhz(&f->p);
	/* 1000 lane-cycles: 400 active, 300 idle, 250 asleep, 50 waking; 5 events; one 600-cycle interval. */
	f->c.lanes = 1;
	f->c.lane_cycles = 1000;
	f->c.active = 400;
	f->c.idle = 300;
	f->c.sleep = 250;
	f->c.wake = 50;
	f->c.events = 5;
	f->c.thread_ops[WG_CLASS_INT] = 100;
	f->c.thread_ops[WG_CLASS_FP] = 50;
	wg_pg_hist_record(&f->c, 600);
	assert_int_equal(wg_energy_compute(&f->c, &f->p, &e), 0);
	assert_int_equal(e.bet, 10);
	assert_float_equal(e.dynamic_pj, 200.0, 1e-9);       /* 100 x 1 + 50 x 2 */
	assert_float_equal(e.leak_nogating_pj, 4000.0, 1e-9); /* 1000 x 4 */
	assert_float_equal(e.leak_gated_pj, 3250.0, 1e-9);   /* 750 x 4 + 250 x 4 x 0.25 */
	assert_float_equal(e.overhead_pj, 150.0, 1e-9);      /* 5 x 30 */
	assert_float_equal(e.total_pj, 3600.0, 1e-9);
	assert_float_equal(e.saving_pct, 100.0 / 7.0, 1e-9); /* 1 - 3600 / 4200 */
	assert_true(e.oracle_ok);
	assert_int_equal(e.oracle_saved, 590);                /* 600 - 10 */
	assert_float_equal(e.oracle_total_pj, 2430.0, 1e-9); /* 4200 - 590 x 3 */
	assert_int_equal(e.online_saved, 200);                /* 250 - 5 x 10 */
}

static void dyn_list_parses_class_names(void **state)
{
	struct fixture *f = *state;
	double dyn[WG_CLASS_COUNT];

	assert_int_equal(wg_energy_parse_dyn("int=1.5,fp=2,sfu=8e0", dyn, f->err, sizeof(f->err)), 0);
	assert_float_equal(dyn[WG_CLASS_INT], 1.5, 0);
	assert_float_equal(dyn[WG_CLASS_FP], 2.0, 0);
	assert_float_equal(dyn[WG_CLASS_SFU], 8.0, 0);
	assert_float_equal(dyn[WG_CLASS_IMUL], 0.0, 0);
	assert_int_equal(wg_energy_parse_dyn("", dyn, f->err, sizeof(f->err)), 0);
	assert_float_equal(dyn[WG_CLASS_INT], 0.0, 0);
}

static void dyn_list_errors_name_the_position(void **state)
{
	struct fixture *f = *state;
	double dyn[WG_CLASS_COUNT];

	assert_int_equal(wg_energy_parse_dyn("int=1.5,bogus=2", dyn, f->err, sizeof(f->err)), WG_EINVAL);
	assert_non_null(strstr(f->err, "at character 9: unknown operation class 'bogus'"));
	assert_int_equal(wg_energy_parse_dyn("int", dyn, f->err, sizeof(f->err)), WG_EINVAL);
	assert_non_null(strstr(f->err, "at character 1: 'int' is not class=pJ"));
	assert_int_equal(wg_energy_parse_dyn("fp=-1", dyn, f->err, sizeof(f->err)), WG_EINVAL);
	assert_non_null(strstr(f->err, "at character 4: energy of 'fp'"));
	assert_int_equal(wg_energy_parse_dyn("fp=1x", dyn, f->err, sizeof(f->err)), WG_EINVAL);
	assert_int_equal(wg_energy_parse_dyn("int=1,", dyn, f->err, sizeof(f->err)), WG_EINVAL);
	assert_non_null(strstr(f->err, "at character 6: list ends with ','"));
}

static void configuration_gives_the_documented_defaults(void **state)
{
	struct fixture *f = *state;
	struct wg_config cfg;

	wg_config_default(&cfg);
	assert_int_equal(wg_energy_params_from_config(&cfg, &f->p, f->err, sizeof(f->err)), 0);
	assert_float_equal(f->p.clock_mhz, 700.0, 0);
	assert_float_equal(f->p.lane_leak_mw, 2.0, 0);
	assert_float_equal(f->p.sleep_leak_pct, 5.0, 0);
	assert_int_equal(f->p.bet_mode, WG_BET_GIVEN);
	assert_int_equal(f->p.bet_cycles, 100);
	assert_float_equal(f->p.dyn_pj[WG_CLASS_IMUL], 2.5, 0);
	assert_float_equal(f->p.dyn_pj[WG_CLASS_SFU], 8.0, 0);
	assert_float_equal(f->p.dyn_pj[WG_CLASS_LDST_GLOBAL], 0.0, 0);
}

static void configuration_rejects_bad_energy_keys(void **state)
{
	struct fixture *f = *state;
	struct wg_config cfg;

	wg_config_default(&cfg);
	assert_int_equal(wg_config_set(&cfg, "pg_bet_mode", "oracle", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, "expected given or circuit"));
	assert_int_equal(wg_config_set(&cfg, "pg_dyn_pj", "int=1,alu=2", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, "pg_dyn_pj: at character 7: unknown operation class 'alu'"));
	assert_int_equal(wg_config_set(&cfg, "pg_sleep_leak_pct", "101", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_int_equal(wg_config_set(&cfg, "pg_bet_mode", "circuit", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_config_set(&cfg, "pg_switch_pj", "40", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_energy_params_from_config(&cfg, &f->p, f->err, sizeof(f->err)), 0);
	assert_int_equal(f->p.bet_mode, WG_BET_CIRCUIT);
	assert_float_equal(f->p.switch_pj, 40.0, 0);
}

/* The power object of counts c (and per_sm[nsm], if any) as JSON text, in one top-level object;
 * the caller frees it. */
static char *power_json(const struct wg_pg_counts *c, const struct wg_pg_counts *per_sm, unsigned nsm,
                        const struct wg_energy_params *p)
{
	struct wg_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	wg_json_init(&j, out);
	wg_json_begin_object(&j, NULL);
	assert_int_equal(wg_power_to_json_sms(c, per_sm, nsm, p, &j), 0);
	wg_json_end_object(&j);
	wg_json_finish(&j);
	fclose(out);
	return buf;
}

static void json_has_the_metric_and_the_curve(void **state)
{
	struct fixture *f = *state;
	char *buf;

	params_500mhz(&f->p);
	f->p.bet_cycles = 100;
	f->c.lanes = 1;
	f->c.lane_cycles = 16384; /* a power of two: the shares print exactly */
	f->c.active = 16384 - 7155;
	f->c.idle = 7155;
	six_intervals(&f->c);
	f->c.thread_ops[WG_CLASS_INT] = 100;
	f->c.thread_ops[WG_CLASS_FP] = 50;
	f->c.thread_ops[WG_CLASS_SFU] = 7; /* not priced by these parameters: no member */
	buf = power_json(&f->c, NULL, 0, &f->p);
	assert_non_null(strstr(buf, "\"bet\": 100,"));
	/* the energy model's inputs and the dynamic energy per class: 2 mW at 500 MHz = 4 pJ a
	 * lane-cycle, 25 % left asleep; int 100 x 1 pJ, fp 50 x 2 pJ */
	assert_non_null(strstr(buf, "\"leak_lane_cycle\": 4,"));
	assert_non_null(strstr(buf, "\"sleep_leak_pct\": 25,"));
	assert_non_null(strstr(buf, "\"dynamic\": 200,"));
	assert_non_null(strstr(buf, "\"int\": 100,"));
	assert_non_null(strstr(buf, "\"fp\": 100\n"));
	assert_null(strstr(buf, "\"sfu\""));
	/* overhead: no events here; leak without gating 16384 x 4 */
	assert_non_null(strstr(buf, "\"leak_nogating\": 65536,"));
	assert_non_null(strstr(buf, "\"oracle_saved\": 6749,"));
	assert_non_null(strstr(buf, "\"oracle_share\": 0.41192626953125,"));
	/* 6749 / 16384 above; BET 1000: 24 + 25 + 4000 = 4049, / 16384. */
	assert_non_null(strstr(buf, "1000,\n        0.24713134765625\n"));
	/* the last point, the largest BET of the exact bins: 0 + 1 + 3976 = 3977, / 16384 */
	assert_non_null(strstr(buf, "1024,\n        0.24273681640625\n"));
	assert_non_null(strstr(buf, "\"idle_intervals\": 6,"));
	assert_non_null(strstr(buf, "\"hist_exact\": true,"));
	free(buf);
}

/* A BET that is not a fixed point of the curve takes its place in order (14 between 10 and 20). */
static void oracle_curve_puts_the_bet_in_order(void **state)
{
	struct fixture *f = *state;
	char *buf;
	const char *p10, *p14, *p20;

	params_500mhz(&f->p);
	f->p.bet_cycles = 14;
	f->c.lanes = 1;
	f->c.lane_cycles = 16384;
	f->c.active = 16384 - 7155;
	f->c.idle = 7155;
	six_intervals(&f->c);
	buf = power_json(&f->c, NULL, 0, &f->p);
	/* intervals 3, 3, 100, 1024, 1025, 5000: at 14, 86 + 1010 + 1011 + 4986 = 7093, / 16384 */
	p10 = strstr(buf, "        10,\n");
	p14 = strstr(buf, "        14,\n        0.43292236328125\n");
	p20 = strstr(buf, "        20,\n");
	assert_non_null(p10);
	assert_non_null(p14);
	assert_non_null(p20);
	assert_true(p10 < p14 && p14 < p20);
	assert_null(strstr(p14 + 1, "        14,\n")); /* once */
	free(buf);
}

/* Defaults (docs/power-gating.md section 5): every policy off, BET 100, idle 5, wake-up 3. */
static void pg_registers_from_the_default_configuration(void **state)
{
	struct fixture *f = *state;
	struct wg_config cfg;
	uint32_t r[WG_PG_NREGS];

	wg_config_default(&cfg);
	assert_int_equal(wg_pg_regs(&cfg, r, f->err, sizeof(f->err)), 0);
	assert_int_equal(r[0], 0);                         /* PG_ISSUE */
	assert_int_equal(r[1], 100);                       /* PG_SLICE */
	assert_int_equal(r[2], 75 | 50 << 8 | 25 << 16);   /* PG_DOWN */
	assert_int_equal(r[3], 60 | 40 << 8 | 20 << 16);   /* PG_UP */
	assert_int_equal(r[4], 0);                         /* PG_CTRL */
	assert_int_equal(r[5], 100);                       /* PG_BET */
	assert_int_equal(r[6], 5);                         /* PG_IDLE */
	assert_int_equal(r[7], 3);                         /* PG_WAKE */
}

/* pg=mix, unit and core levels, blackout: PG_ISSUE bits 0..1 (3), PG_CTRL bits 0..3 (15). */
static void pg_registers_carry_every_policy_bit(void **state)
{
	struct fixture *f = *state;
	struct wg_config cfg;
	uint32_t r[WG_PG_NREGS];

	wg_config_default(&cfg);
	assert_int_equal(wg_config_set(&cfg, "pg", "mix", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_config_set(&cfg, "pg_unit", "1", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_config_set(&cfg, "pg_core", "1", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_config_set(&cfg, "pg_blackout", "1", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_config_set(&cfg, "bet_cycles", "250", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_pg_regs(&cfg, r, f->err, sizeof(f->err)), 0);
	assert_int_equal(r[0], 3);
	assert_int_equal(r[4], 15);
	assert_int_equal(r[5], 250);
	/* normal: the lane policy only */
	assert_int_equal(wg_config_set(&cfg, "pg", "normal", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_config_set(&cfg, "pg_unit", "0", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_config_set(&cfg, "pg_core", "0", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_config_set(&cfg, "pg_blackout", "0", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_pg_regs(&cfg, r, f->err, sizeof(f->err)), 0);
	assert_int_equal(r[0], 0);
	assert_int_equal(r[4], 1);
}

/* The per-SM array repeats the keys of the totals. */
static void json_per_sm_array_has_the_same_keys(void **state)
{
	struct fixture *f = *state;
	struct wg_pg_counts sm[2];
	char *buf, *arr;

	params_500mhz(&f->p);
	f->p.bet_cycles = 100;
	f->c.lanes = 2;
	f->c.lane_cycles = 32768;
	f->c.active = 32768 - 7155;
	f->c.idle = 7155;
	six_intervals(&f->c);
	sm[0] = f->c;
	sm[0].lanes = 1;
	sm[0].lane_cycles = 16384;
	sm[0].active = 16384 - 7155;
	sm[1] = sm[0];
	wg_pg_counts_clear(&sm[1]);
	sm[1].lanes = 1;
	sm[1].lane_cycles = 16384;
	sm[1].active = 16384;
	buf = power_json(&f->c, sm, 2, &f->p);
	arr = strstr(buf, "\"per_sm\"");
	assert_non_null(arr);
	/* totals before the array: 32768 lane-cycles; then SM 0 with the intervals, SM 1 without */
	assert_non_null(strstr(buf, "\"lane_cycles\": 32768,"));
	assert_true(strstr(buf, "\"lane_cycles\": 32768,") < arr);
	assert_non_null(strstr(arr, "\"oracle_saved\": 6749,"));
	assert_non_null(strstr(arr, "\"oracle_saved\": 0,"));
	assert_non_null(strstr(arr, "\"idle_intervals\": 6,"));
	assert_non_null(strstr(arr, "\"idle_intervals\": 0,"));
	assert_non_null(strstr(arr, "\"skipped_cycles\": 0,"));
	free(buf);
}

/*
 * One SM of 2 units x 2 lanes over a window of 2000 cycles, as its read port gives it:
 *   lane 0 (u0 l0): active 4, idle 1996: intervals of 6 and 1990 (hist[0][6], over 1990)
 *   lane 1 (u0 l1): active 2000
 *   lane 2 (u1 l0): active 1992, idle 3, sleep 4, wake 1: one interval of 8, one event
 *   lane 3 (u1 l1): idle 5, sleep 1995: one interval of 2000 (over), one event
 * Totals: lane_cycles 4 x 2000 = 8000; active 4 + 2000 + 1992 = 3996; idle 1996 + 3 + 5 =
 * 2004; sleep 4 + 1995 = 1999; wake 1 (3996 + 2004 + 1999 + 1 = 8000); events 2; bins 6
 * and 8 once each, 2 intervals over 1024 summing 3990; interval cycles 6 + 8 + 3990 = 4004
 * = idle + sleep + wake.
 */
static void sm_window(struct wg_pg_sm *sm)
{
	memset(sm, 0, sizeof(*sm));
	sm->lanes = 4;
	sm->units = 2;
	sm->cycles = 2000;
	sm->skipped = 123;
	sm->active[0] = 4, sm->idle[0] = 1996;
	sm->active[1] = 2000;
	sm->active[2] = 1992, sm->idle[2] = 3, sm->sleep[2] = 4, sm->wake[2] = 1, sm->events[2] = 1;
	sm->idle[3] = 5, sm->sleep[3] = 1995, sm->events[3] = 1;
	sm->hist[0][6] = 1;
	sm->over_count[0] = 1, sm->over_sum[0] = 1990;
	sm->hist[1][8] = 1;
	sm->over_count[1] = 1, sm->over_sum[1] = 2000;
	sm->wake_stall = 9;
	sm->core_active = 1500;
}

static void sm_counters_sum_lanes_and_units_into_the_counts(void **state)
{
	struct fixture *f = *state;
	struct wg_pg_sm *sm = calloc(1, sizeof(*sm));
	uint64_t ops[WG_CLASS_COUNT] = { 7 };

	sm_window(sm);
	assert_int_equal(wg_pg_counts_from_sm(sm, ops, &f->c, f->err, sizeof(f->err)), 0);
	assert_int_equal(f->c.lanes, 4);
	assert_int_equal(f->c.lane_cycles, 8000);
	assert_int_equal(f->c.active, 3996);
	assert_int_equal(f->c.idle, 2004);
	assert_int_equal(f->c.sleep, 1999);
	assert_int_equal(f->c.wake, 1);
	assert_int_equal(f->c.events, 2);
	assert_int_equal(f->c.hist[6], 1);
	assert_int_equal(f->c.hist[8], 1);
	assert_int_equal(f->c.over_count, 2);
	assert_int_equal(f->c.over_sum, 3990);
	assert_int_equal(wg_pg_interval_cycles(&f->c), 4004);
	assert_int_equal(f->c.wake_stall, 9);
	assert_int_equal(f->c.core_active, 1500);
	assert_int_equal(f->c.skipped, 123);
	assert_int_equal(f->c.thread_ops[0], 7);
	free(sm);
}

static void sm_counters_name_the_lane_whose_states_miss_the_window(void **state)
{
	struct fixture *f = *state;
	struct wg_pg_sm *sm = calloc(1, sizeof(*sm));

	sm_window(sm);
	sm->active[1] = 1999; /* lane 1 is one cycle short */
	assert_int_equal(wg_pg_counts_from_sm(sm, NULL, &f->c, f->err, sizeof(f->err)), WG_EMISMATCH);
	assert_non_null(strstr(f->err, "lane 1 (unit 0 lane 1)"));
	assert_non_null(strstr(f->err, "= 1999, not the 2000 cycles counted"));
	/* the histogram short of the states: one interval of 6 missing */
	sm_window(sm);
	sm->hist[0][6] = 0;
	assert_int_equal(wg_pg_counts_from_sm(sm, NULL, &f->c, f->err, sizeof(f->err)), WG_EMISMATCH);
	assert_non_null(strstr(f->err, "histogram holds 3998 cycles, expected idle + sleep + wake = 4004"));
	/* a build the struct cannot hold */
	sm_window(sm);
	sm->lanes = 5;
	assert_int_equal(wg_pg_counts_from_sm(sm, NULL, &f->c, f->err, sizeof(f->err)), WG_EINVAL);
	assert_non_null(strstr(f->err, "5 lanes in 2 units"));
	free(sm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(histogram_keeps_exact_bins_and_sums_the_rest, setup, teardown),
		cmocka_unit_test_setup_teardown(sm_counters_sum_lanes_and_units_into_the_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(sm_counters_name_the_lane_whose_states_miss_the_window, setup, teardown),
		cmocka_unit_test_setup_teardown(oracle_counts_only_intervals_of_at_least_bet, setup, teardown),
		cmocka_unit_test_setup_teardown(oracle_refuses_bets_the_histogram_cannot_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(online_figure_can_be_negative, setup, teardown),
		cmocka_unit_test_setup_teardown(check_accepts_a_consistent_window, setup, teardown),
		cmocka_unit_test_setup_teardown(check_names_states_that_do_not_add_up, setup, teardown),
		cmocka_unit_test_setup_teardown(check_names_a_histogram_that_misses_cycles, setup, teardown),
		cmocka_unit_test_setup_teardown(counts_add_field_by_field, setup, teardown),
		cmocka_unit_test_setup_teardown(given_bet_prices_an_event_at_bet_cycles_of_saved_leakage, setup, teardown),
		cmocka_unit_test_setup_teardown(circuit_bet_is_where_saved_leakage_pays_for_the_event, setup, teardown),
		cmocka_unit_test_setup_teardown(energy_of_a_gated_run, setup, teardown),
		cmocka_unit_test_setup_teardown(dyn_list_parses_class_names, setup, teardown),
		cmocka_unit_test_setup_teardown(dyn_list_errors_name_the_position, setup, teardown),
		cmocka_unit_test_setup_teardown(configuration_gives_the_documented_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(configuration_rejects_bad_energy_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(json_has_the_metric_and_the_curve, setup, teardown),
		cmocka_unit_test_setup_teardown(pg_registers_from_the_default_configuration, setup, teardown),
		cmocka_unit_test_setup_teardown(pg_registers_carry_every_policy_bit, setup, teardown),
		cmocka_unit_test_setup_teardown(oracle_curve_puts_the_bet_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(json_per_sm_array_has_the_same_keys, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
