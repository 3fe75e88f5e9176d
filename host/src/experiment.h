/*
 * Power-gating experiments (docs/experiments.md): the kernel programs run as
 * child processes under each policy of an experiment, their statistics are
 * read back from --json, and the results go to a CSV file, a table and
 * gnuplot scripts (PNG).
 *
 *   simd  every kernel under gating off, normal, issue, comp and mix
 *         (--pg): saved lane-cycles and slowdown (the paper's figure 17)
 *   cta   every kernel under rr, consolidate and congestion (--cta-policy):
 *         active core-cycles and slowdown (figures 15 and 16)
 *   bet   one run per kernel (--pg normal): net saved lane-cycles against BET
 *
 * The arithmetic (wg_exp_read_result, wg_exp_derive, the CSV, the table and
 * the plot data) is separate from the runner so that it can be tested on
 * fixture files.
 */
#ifndef WG_EXPERIMENT_H
#define WG_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum wg_exp_kind { WG_EXP_SIMD, WG_EXP_CTA, WG_EXP_BET };

#define WG_EXP_MAX_KERNELS 64
#define WG_EXP_MAX_POLICIES 5
#define WG_EXP_MAX_OPTIONS 32
#define WG_EXP_CURVE_MAX 16

/* The figures of one run, read from its statistics file. */
struct wg_exp_result {
	int done;               /* the run has finished (passed or not) */
	int ok;                 /* it passed and its statistics were read */
	char msg[512];          /* why not: the program's message, or the reader's */
	double seconds;         /* wall time of the run */
	uint64_t cycles;        /* totals.cycles */
	/* core level (gpu target): target_counters */
	uint64_t core_active;   /* sum over SMs of sm_resident_cycles (CTA resident) */
	uint32_t sms_used;      /* SMs that received a CTA */
	uint32_t num_sms;
	/* lane level: the power object (docs/power-gating.md section 6.3) */
	int has_power;
	uint64_t lane_cycles, lane_active, lane_sleep, gating_events, wake_stall;
	uint32_t bet;
	int64_t online_saved;
	double online_share;
	double oracle_share;    /* at bet */
	double saving_pct;      /* energy_pj.saving_pct: the run's own energy saving, % */
	double dyn_pj;          /* energy_pj.dynamic */
	double leak_pj;         /* energy_pj.leak_nogating: lane leakage without gating */
	double sleep_leak_pct;  /* energy_pj.sleep_leak_pct */
	int no_power;           /* the program passed but its statistics have no power object */
	int hist_exact;
	size_t ncurve;          /* oracle_curve: (B, share) */
	uint32_t curve_bet[WG_EXP_CURVE_MAX];
	double curve_share[WG_EXP_CURVE_MAX];
};

/*
 * Reads the figures an experiment of this kind needs from a statistics file.
 * cycles always; for WG_EXP_CTA the target counters; for the others the
 * power object (found at the top, in "totals" or in "target_counters").
 * Errors name the file, line and column (jsonr.h): WG_ENOENT / WG_EINVAL /
 * WG_ESYNTAX / WG_EIO.
 */
int wg_exp_read_result(enum wg_exp_kind kind, const char *path, struct wg_exp_result *r, char *err,
                       size_t errlen);
/* The same from text (tests). */
int wg_exp_parse_result(enum wg_exp_kind kind, const char *text, size_t len, const char *name,
                        struct wg_exp_result *r, char *err, size_t errlen);

/* cycles / base_cycles; 0 when either is missing (base 0). */
double wg_exp_slowdown(uint64_t cycles, uint64_t base_cycles);
/* The online controller's net saved share at another BET from the same run: (sleep - events x B) / lane_cycles. */
double wg_exp_online_share_at(const struct wg_exp_result *r, uint32_t bet);
/* The oracle share at B from the run's curve; -1 when B is not on it. */
double wg_exp_oracle_share_at(const struct wg_exp_result *r, uint32_t bet);
/*
 * The lane energy saved, % of the run's energy without gating (dynamic + leakage), by a
 * net saved share of lane-cycles (docs/power-gating.md section 6.2: each net saved
 * lane-cycle saves a powered lane-cycle's leakage less what leaks asleep):
 * 100 x share x leak_nogating x (1 - sleep_leak_pct / 100) / (dynamic + leak_nogating).
 * For the online share at the run's BET this is energy_pj.saving_pct (given mode).
 */
double wg_exp_energy_saving_pct(const struct wg_exp_result *r, double share);

struct wg_exp_policy {
	const char *name;       /* column name: off, normal, rr, ... */
	const char *flag;       /* program flag (--pg, --cta-policy) or NULL for none */
	const char *value;      /* its value */
};

/* The policies of a kind, the baseline first. */
size_t wg_exp_policies(enum wg_exp_kind kind, const struct wg_exp_policy **pol);
const char *wg_exp_kind_name(enum wg_exp_kind kind);
int wg_exp_kind_parse(const char *s, enum wg_exp_kind *kind);

struct wg_exp_opts {
	enum wg_exp_kind kind;
	const char *kernels;    /* comma-separated names, NULL: every program found */
	const char *size;       /* small | default */
	const char *target;     /* gpu | sim; NULL: gpu for cta, sim (which reports power) for simd and bet */
	const char *out_dir;
	const char *config;     /* --config FILE for every run, or NULL */
	const char *prog_dir;   /* holds kernels/NAME and cuda/NAME (the build directory) */
	const char *gnuplot;    /* the gnuplot program; NULL: no plots */
	unsigned jobs;          /* runs at once, >= 1 */
	uint32_t bet;           /* --bet for the runs, 0: the configuration's */
	const char *options[WG_EXP_MAX_OPTIONS]; /* --option KEY=VALUE for every run */
	int noptions;
};

struct wg_exp_kernel {
	char name[64];          /* "vecadd", "cuda/bfs" */
	char path[512];         /* the program */
};

struct wg_exp {
	struct wg_exp_opts o;
	size_t nkernels, npol;
	struct wg_exp_kernel kernels[WG_EXP_MAX_KERNELS];
	const struct wg_exp_policy *pol;
	struct wg_exp_result res[WG_EXP_MAX_KERNELS][WG_EXP_MAX_POLICIES];
	char err[1024];
	char stop[400];         /* why the remaining runs were not started (a target without power) */
};

/*
 * Sets up an experiment: checks the options and finds the programs (every
 * executable in prog_dir/kernels and prog_dir/cuda, or those --kernels names).
 * WG_EINVAL / WG_ENOENT with the reason in e->err.
 */
int wg_exp_init(struct wg_exp *e, const struct wg_exp_opts *o);

/*
 * Runs every (kernel, policy) pair, at most o.jobs at once, reporting each on
 * log as it ends; rewrites the CSV after each, then writes the plot data and
 * scripts and runs gnuplot. A failed run is reported with its program, policy
 * and message and the others go on. Returns 0 when every run passed and the
 * plots were drawn, WG_EINVAL (some run failed) or WG_EIO (files, gnuplot).
 */
int wg_exp_run(struct wg_exp *e, FILE *log);

/* Output files of the experiment: DIR/KIND.csv and the plots (wg_exp_write_plots). */
int wg_exp_write_csv(const struct wg_exp *e, const char *path);
/*
 * Writes the plot data and script into dir: simd_saved.dat (oracle share per
 * policy, the paper's figure 17(a)), simd_online.dat, simd_slowdown.dat;
 * cta_active.dat, cta_slowdown.dat; bet_oracle.dat, bet_online.dat; and
 * KIND.gp, which draws the same names with .png.
 */
int wg_exp_write_plots(const struct wg_exp *e, const char *dir);
/* The table of results, then one line per policy (mean saved share, mean slowdown). */
void wg_exp_print_table(const struct wg_exp *e, FILE *out);

/* Figures of a policy over the kernels whose run and baseline passed (table and tests). */
struct wg_exp_summary {
	size_t n;               /* kernels counted */
	double mean_slowdown;   /* arithmetic mean of the slowdowns */
	double mean_saved;      /* simd: mean oracle share at the BET; cta: mean active core-cycles / rr's */
	double mean_online;     /* simd: mean online share */
	double mean_energy;     /* simd: mean energy saved at the oracle share, % */
	double mean_energy_online; /* simd: mean energy saved by the run's controller, % */
	double max_slowdown;
};
void wg_exp_summarise(const struct wg_exp *e, size_t policy, struct wg_exp_summary *s);

#endif
