/*
 * cmocka tests of the experiment harness (host/src/experiment.[ch],
 * docs/experiments.md): the figures read from statistics files, the
 * arithmetic of slowdown and saved shares, and whole experiments run with
 * stand-in programs (tests/experiment/progs: shell scripts that copy the
 * fixture statistics tests/experiment/alpha.POLICY.json of the policy they
 * are given), including failing runs. Run from the repository's top.
 *
 * Fixture figures (simd, every run 32 lanes, BET 100):
 *   policy  cycles  lane_cycles  sleep   events  online = sleep - 100 x events
 *   off     1000    32000        0       0       0
 *   normal  1100    35200        8000    20      6000  -> 6000/35200  = 0.170455
 *   issue   1250    40000        20000   40      16000 -> 16000/40000 = 0.4
 *   comp    1000    32000        12000   30      9000  -> 9000/32000  = 0.28125
 *   mix     1500    48000        30000   60      24000 -> 24000/48000 = 0.5
 * slowdowns against off: 1.1, 1.25, 1.0, 1.5.
 * energy (every run): dynamic 50000 pJ, leakage without gating 50000 pJ, 5 % left
 *   asleep, so a net saved share s of lane-cycles saves 100 x s x 50000 x 0.95 / 100000
 *   = 47.5 x s % of the lane energy: off and comp (oracle 0.125) 5.9375 %, normal
 *   (0.113636) 5.3977 %, issue (0.1) 4.75 %, mix (0.083333) 3.9583 %.
 * cta (4 SMs): rr 1000 cycles, 900 resident cycles on each SM = 3600, 4 SMs;
 *   consolidate 1200 cycles, 1200 + 1200 = 2400 on 2 SMs (2400/3600 = 0.666667,
 *   slowdown 1.2); congestion as rr.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>
#include <cmocka.h>

#include "experiment.h"
#include "warpgate.h"

#define FIX "tests/experiment"

/* |a - b| <= eps, both values printed on failure */
#define assert_near(a, b, eps)                                                                          \
	do {                                                                                            \
		double a_ = (a), b_ = (b);                                                              \
		if (!(fabs(a_ - b_) <= (eps)))                                                          \
			fail_msg("%s = %.9g, expected %.9g", #a, a_, b_);                               \
	} while (0)

struct fixture {
	struct wg_exp e;
	struct wg_exp_opts o;
	char dir[64];
	char err[1024];
	char *log;
	size_t loglen;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/wg_test_experiment.XXXXXX");
	if (!f || !mkdtemp(f->dir))
		return -1;
	f->o.size = "small";
	f->o.target = "gpu";
	f->o.jobs = 2;
	f->o.prog_dir = FIX "/progs";
	f->o.out_dir = f->dir;
	f->o.gnuplot = NULL;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f->log);
	free(f);
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* Runs the experiment of kind over kernels; returns wg_exp_run's result, the report in f->log. */
static int run(struct fixture *f, enum wg_exp_kind kind, const char *kernels)
{
	FILE *log = open_memstream(&f->log, &f->loglen);
	int ret;

	f->o.kind = kind;
	f->o.kernels = kernels;
	assert_int_equal(wg_exp_init(&f->e, &f->o), 0);
	ret = wg_exp_run(&f->e, log);
	fclose(log);
	return ret;
}

static void simd_figures_are_read_from_the_power_object(void **state)
{
	struct fixture *f = *state;
	struct wg_exp_result r;

	assert_int_equal(wg_exp_read_result(WG_EXP_SIMD, FIX "/alpha.normal.json", &r, f->err, sizeof(f->err)), 0);
	assert_int_equal(r.cycles, 1100);
	assert_true(r.has_power);
	assert_int_equal(r.lane_cycles, 35200);
	assert_int_equal(r.lane_sleep, 8000);
	assert_int_equal(r.gating_events, 20);
	assert_int_equal(r.wake_stall, 20); /* wake 80 / 4 in the fixture */
	assert_int_equal(r.bet, 100);
	assert_int_equal(r.online_saved, 6000);
	assert_true(r.hist_exact);
	assert_int_equal(r.ncurve, 4);
	assert_int_equal(r.curve_bet[3], 1000);
	assert_near(r.dyn_pj, 50000.0, 0.0);
	assert_near(r.leak_pj, 50000.0, 0.0);
	assert_near(r.sleep_leak_pct, 5.0, 0.0);
	assert_false(r.no_power);
	/* energy saved by a share: 47.5 x share % (fixture figures above) */
	assert_near(wg_exp_energy_saving_pct(&r, r.oracle_share), 47.5 * 4000.0 / 35200.0, 1e-9);
	assert_near(wg_exp_energy_saving_pct(&r, -0.1), -4.75, 1e-12); /* a controller that loses costs energy */
	/* online share at other BETs from the same run: (8000 - 20 x B) / 35200 */
	assert_near(wg_exp_online_share_at(&r, 100), 6000.0 / 35200.0, 1e-12);
	assert_near(wg_exp_online_share_at(&r, 10), 7800.0 / 35200.0, 1e-12);
	assert_near(wg_exp_online_share_at(&r, 1000), -12000.0 / 35200.0, 1e-12); /* gating loses */
	assert_near(wg_exp_oracle_share_at(&r, 10), 0.3, 0.0);
	assert_near(wg_exp_oracle_share_at(&r, 7), -1.0, 0.0); /* not on the curve */
	assert_near(wg_exp_slowdown(1100, 1000), 1.1, 1e-12);
	assert_near(wg_exp_slowdown(1100, 0), 0.0, 0.0);
}

static void cta_figures_sum_the_sms(void **state)
{
	struct fixture *f = *state;
	struct wg_exp_result r;

	assert_int_equal(wg_exp_read_result(WG_EXP_CTA, FIX "/alpha.consolidate.json", &r, f->err, sizeof(f->err)), 0);
	assert_int_equal(r.cycles, 1200);
	assert_int_equal(r.core_active, 2400); /* 1200 + 1200 + 0 + 0 */
	assert_int_equal(r.sms_used, 2);
	assert_int_equal(r.num_sms, 4);
}

static void statistics_without_power_are_refused_by_name(void **state)
{
	struct fixture *f = *state;
	struct wg_exp_result r;
	static const char bad_type[] = "{\"totals\": {\"cycles\": 5, \"power\": {\"lane_cycles\": \"x\"}}}";

	assert_int_equal(wg_exp_read_result(WG_EXP_SIMD, FIX "/alpha.rr.json", &r, f->err, sizeof(f->err)), WG_ENOENT);
	assert_true(r.no_power);
	assert_non_null(strstr(f->err, FIX "/alpha.rr.json: no object 'power'"));
	assert_int_equal(wg_exp_parse_result(WG_EXP_SIMD, bad_type, strlen(bad_type), "x.json", &r, f->err,
	                                     sizeof(f->err)), WG_EINVAL);
	assert_string_equal(f->err, "x.json:1:51: 'lane_cycles' is a string, expected an unsigned integer");
	/* cta needs the per-SM counters */
	assert_int_equal(wg_exp_parse_result(WG_EXP_CTA, bad_type, strlen(bad_type), "x.json", &r, f->err,
	                                     sizeof(f->err)), WG_ENOENT);
	assert_string_equal(f->err, "x.json:1:1: no member 'target_counters.sm_resident_cycles' in the object '(top)'");
}

static void simd_experiment_writes_slowdown_and_saved_shares(void **state)
{
	struct fixture *f = *state;
	struct wg_exp_summary s;
	char path[128], *csv;

	assert_int_equal(run(f, WG_EXP_SIMD, "alpha"), 0);
	snprintf(path, sizeof(path), "%s/simd.csv", f->dir);
	csv = slurp(path);
	assert_non_null(strstr(csv, "alpha,off,ok,1000,1.000000,32000,16000,0,0,0,100,0,0.000000,0.125000,0.000,5.938,\n"));
	assert_non_null(strstr(csv, "alpha,normal,ok,1100,1.100000,35200,16000,8000,20,20,100,6000,0.170455,"
	                            "0.113636,7.500,5.398,\n"));
	assert_non_null(strstr(csv, "alpha,mix,ok,1500,1.500000,48000,"));
	free(csv);
	/* policy summaries over one kernel are its figures */
	wg_exp_summarise(&f->e, 2, &s); /* issue */
	assert_int_equal(s.n, 1);
	assert_near(s.mean_slowdown, 1.25, 1e-12);
	assert_near(s.mean_saved, 0.1, 1e-12); /* the oracle share of the fixture */
	assert_near(s.mean_online, 0.4, 1e-12);
	assert_near(s.mean_energy, 4.75, 1e-12);          /* 47.5 x 0.1 */
	assert_near(s.mean_energy_online, 18.25, 1e-12);  /* the fixture's saving_pct */
	/* the table's summary line of issue: saved, energy, online, its energy, slowdowns */
	snprintf(path, sizeof(path), "%-12s %8d %14.2f %13.2f %13.2f %13.2f %13.3f %13.3f\n", "issue", 1, 10.0, 4.75,
	         40.0, 18.25, 1.25, 1.25);
	assert_non_null(strstr(f->log, path));
	/* the plot data: oracle share of every policy; online share and slowdown without the baseline */
	snprintf(path, sizeof(path), "%s/simd_saved.dat", f->dir);
	csv = slurp(path);
	assert_string_equal(csv, "kernel off normal issue comp mix\nalpha 12.5000 11.3636 10.0000 12.5000 8.3333\n");
	free(csv);
	snprintf(path, sizeof(path), "%s/simd_online.dat", f->dir);
	csv = slurp(path);
	assert_string_equal(csv, "kernel normal issue comp mix\nalpha 17.0455 40.0000 28.1250 50.0000\n");
	free(csv);
	snprintf(path, sizeof(path), "%s/simd_slowdown.dat", f->dir);
	csv = slurp(path);
	assert_string_equal(csv, "kernel normal issue comp mix\nalpha 1.1000 1.2500 1.0000 1.5000\n");
	free(csv);
	snprintf(path, sizeof(path), "%s/simd.gp", f->dir);
	assert_int_equal(access(path, R_OK), 0);
}

static void failed_runs_are_reported_and_the_others_complete(void **state)
{
	struct fixture *f = *state;
	char path[128], *csv;

	/* broken fails under comp (wrong result), gamma's statistics lack power under issue */
	assert_int_equal(run(f, WG_EXP_SIMD, "broken,cuda/gamma,alpha"), WG_EINVAL);
	snprintf(path, sizeof(path), "%s/simd.csv", f->dir);
	csv = slurp(path);
	assert_non_null(strstr(csv, "broken,comp,fail,,,,,,,,,,,,,\"exit 1: broken: FAIL (1 mismatches)\"\n"));
	assert_non_null(strstr(csv, "broken,mix,ok,1500,1.500000,"));
	assert_non_null(strstr(csv, "cuda/gamma,issue,fail,"));
	assert_non_null(strstr(csv, "no object 'power'"));
	assert_non_null(strstr(csv, "cuda/gamma,comp,ok,1000,1.000000,"));
	assert_non_null(strstr(csv, "alpha,normal,ok,1100,1.100000,"));
	free(csv);
	/* the report names program, policy and message; the list at the end counts them */
	assert_non_null(strstr(f->log, "broken comp: FAILED (program " FIX "/progs/kernels/broken, policy comp): "
	                               "exit 1: broken: FAIL (1 mismatches)"));
	assert_non_null(strstr(f->log, "experiment simd: 2 of 15 runs failed:"));
	/* a missing bar is '-' in the plot data */
	snprintf(path, sizeof(path), "%s/simd_online.dat", f->dir);
	csv = slurp(path);
	assert_non_null(strstr(csv, "broken 17.0455 40.0000 - 50.0000\n"));
	free(csv);
	/* the failing run's log keeps what the program said */
	snprintf(path, sizeof(path), "%s/logs/broken.comp.log", f->dir);
	csv = slurp(path);
	assert_non_null(strstr(csv, "broken: c[3]: got 7, expected 9"));
	free(csv);
}

static void cta_experiment_compares_active_core_cycles_with_rr(void **state)
{
	struct fixture *f = *state;
	char path[128], *csv;
	struct wg_exp_summary s;

	assert_int_equal(run(f, WG_EXP_CTA, "alpha,broken"), WG_EINVAL);
	snprintf(path, sizeof(path), "%s/cta.csv", f->dir);
	csv = slurp(path);
	assert_non_null(strstr(csv, "kernel,policy,status,cycles,slowdown,core_active_cycles,core_active_vs_rr,"
	                            "sms_used,num_sms,message\n"));
	assert_non_null(strstr(csv, "alpha,rr,ok,1000,1.000000,3600,1.000000,4,4,\n"));
	assert_non_null(strstr(csv, "alpha,consolidate,ok,1200,1.200000,2400,0.666667,2,4,\n"));
	assert_non_null(strstr(csv, "broken,consolidate,fail,,,,,,,\"exit 2: broken: error: launch: CTA fits on no SM\"\n"));
	free(csv);
	wg_exp_summarise(&f->e, 1, &s); /* consolidate: alpha only */
	assert_int_equal(s.n, 1);
	assert_near(s.mean_saved, 2400.0 / 3600.0, 1e-12);
	assert_near(s.max_slowdown, 1.2, 1e-12);
	wg_exp_summarise(&f->e, 2, &s); /* congestion: both kernels, as rr */
	assert_int_equal(s.n, 2);
	assert_near(s.mean_saved, 1.0, 1e-12);
	snprintf(path, sizeof(path), "%s/cta_active.dat", f->dir);
	csv = slurp(path);
	assert_string_equal(csv, "kernel consolidate congestion\nalpha 66.6667 100.0000\nbroken - 100.0000\n");
	free(csv);
}

static void bet_experiment_gives_a_curve_per_kernel(void **state)
{
	struct fixture *f = *state;
	char path[128], *csv;

	assert_int_equal(run(f, WG_EXP_BET, "alpha"), 0);
	snprintf(path, sizeof(path), "%s/bet.csv", f->dir);
	csv = slurp(path);
	/* oracle from the curve; online (8000 - 20 x B) / 35200 */
	/* energy: 47.5 x share %, e.g. BET 10: 47.5 x 0.3 = 14.25 and 47.5 x 7800 / 35200 = 10.526 */
	assert_string_equal(csv, "kernel,status,bet,oracle_share,online_share,oracle_energy_saving_pct,"
	                         "online_energy_saving_pct,message\n"
	                         "alpha,ok,1,0.400000,0.226705,19.000,10.768,\n"
	                         "alpha,ok,10,0.300000,0.221591,14.250,10.526,\n"
	                         "alpha,ok,100,0.113636,0.170455,5.398,8.097,\n"
	                         "alpha,ok,1000,0.000000,-0.340909,0.000,-16.193,\n");
	free(csv);
	snprintf(path, sizeof(path), "%s/bet_online.dat", f->dir);
	csv = slurp(path);
	assert_string_equal(csv, "bet alpha\n1 22.6705\n10 22.1591\n100 17.0455\n1000 -34.0909\n");
	free(csv);
	snprintf(path, sizeof(path), "%s/bet_oracle.dat", f->dir);
	csv = slurp(path);
	assert_string_equal(csv, "bet alpha\n1 40.0000\n10 30.0000\n100 11.3636\n1000 0.0000\n");
	free(csv);
	/* the table has both blocks: lane-cycles and energy, oracle / online */
	assert_non_null(strstr(f->log, "net saved lane-cycles, % (oracle / online) at BET ="));
	assert_non_null(strstr(f->log, "lane energy saved (docs/power-gating.md 6.2), % (oracle / online) at BET ="));
	assert_non_null(strstr(f->log, "       14.2/10.5"));
}

/* Two programs pass and neither reports power: the target has none, the rest is not run. */
static void target_without_power_stops_the_experiment(void **state)
{
	struct fixture *f = *state;
	char path[128], *csv;

	f->o.prog_dir = FIX "/progs-nopower";
	/* 2 at a time: off and normal start; off ends (1 without power), issue starts; normal
	 * ends (2 without, none with): stop, comp and mix are not run; issue ends, failed */
	assert_int_equal(run(f, WG_EXP_SIMD, "alpha"), WG_EINVAL);
	assert_non_null(strstr(f->log, "experiment simd: stopping: the gpu target reports no 'power' object "
	                               "(docs/power-gating.md section 6.3), which the simd experiment needs; "
	                               "--target sim does\n"));
	assert_non_null(strstr(f->log, "experiment simd: 5 of 5 runs failed (2 of them not run: "));
	snprintf(path, sizeof(path), "%s/simd.csv", f->dir);
	csv = slurp(path);
	assert_non_null(strstr(csv, "alpha,issue,fail,"));
	assert_non_null(strstr(csv, "alpha,comp,fail,,,,,,,,,,,,,\"not run: the gpu target reports no 'power'"));
	assert_non_null(strstr(csv, "alpha,mix,fail,,,,,,,,,,,,,\"not run: "));
	free(csv);
	/* the program never ran under comp: no log */
	snprintf(path, sizeof(path), "%s/logs/alpha.comp.log", f->dir);
	assert_int_equal(access(path, F_OK), -1);
}

static void bad_options_are_refused_with_the_reason(void **state)
{
	struct fixture *f = *state;

	f->o.kind = WG_EXP_SIMD;
	f->o.kernels = "alpha,delta";
	assert_int_equal(wg_exp_init(&f->e, &f->o), WG_ENOENT);
	assert_string_equal(f->e.err, "--kernels: no program 'delta' in " FIX "/progs/kernels or " FIX
	                              "/progs/cuda; there are: alpha broken cuda/gamma");
	f->o.kernels = "alpha,alpha";
	assert_int_equal(wg_exp_init(&f->e, &f->o), WG_EINVAL);
	assert_string_equal(f->e.err, "--kernels: 'alpha' named twice");
	f->o.kernels = NULL;
	assert_int_equal(wg_exp_init(&f->e, &f->o), 0);
	assert_int_equal(f->e.nkernels, 3); /* every program: kernels/ then cuda/ */
	f->o.kind = WG_EXP_CTA;
	f->o.target = "sim";
	assert_int_equal(wg_exp_init(&f->e, &f->o), WG_EINVAL);
	assert_string_equal(f->e.err, "--target sim: the CTA policies need the gpu target (sim has one SM)");
	f->o.target = NULL; /* the default: gpu for cta, sim (it reports power) for simd and bet */
	assert_int_equal(wg_exp_init(&f->e, &f->o), 0);
	assert_string_equal(f->e.o.target, "gpu");
	f->o.kind = WG_EXP_BET;
	assert_int_equal(wg_exp_init(&f->e, &f->o), 0);
	assert_string_equal(f->e.o.target, "sim");
	f->o.kind = WG_EXP_CTA;
	f->o.target = "gpu";
	f->o.size = "large";
	assert_int_equal(wg_exp_init(&f->e, &f->o), WG_EINVAL);
	assert_string_equal(f->e.err, "--size: expected small or default, got 'large'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(simd_figures_are_read_from_the_power_object, setup, teardown),
		cmocka_unit_test_setup_teardown(cta_figures_sum_the_sms, setup, teardown),
		cmocka_unit_test_setup_teardown(statistics_without_power_are_refused_by_name, setup, teardown),
		cmocka_unit_test_setup_teardown(simd_experiment_writes_slowdown_and_saved_shares, setup, teardown),
		cmocka_unit_test_setup_teardown(failed_runs_are_reported_and_the_others_complete, setup, teardown),
		cmocka_unit_test_setup_teardown(cta_experiment_compares_active_core_cycles_with_rr, setup, teardown),
		cmocka_unit_test_setup_teardown(bet_experiment_gives_a_curve_per_kernel, setup, teardown),
		cmocka_unit_test_setup_teardown(target_without_power_stops_the_experiment, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_options_are_refused_with_the_reason, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
