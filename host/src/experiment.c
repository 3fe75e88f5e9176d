/* Power-gating experiments over the kernel programs (experiment.h, docs/experiments.md). */
#define _GNU_SOURCE
#include "experiment.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jsonr.h"
#include "log.h"
#include "warpgate.h"

/* ------------------------------------------------------------ policies */

static const struct wg_exp_policy simd_pol[] = {
	{ "off", NULL, NULL },
	{ "normal", "--pg", "normal" },
	{ "issue", "--pg", "issue" },
	{ "comp", "--pg", "comp" },
	{ "mix", "--pg", "mix" },
};

static const struct wg_exp_policy cta_pol[] = {
	{ "rr", "--cta-policy", "rr" },
	{ "consolidate", "--cta-policy", "consolidate" },
	{ "congestion", "--cta-policy", "congestion" },
};

static const struct wg_exp_policy bet_pol[] = {
	{ "normal", "--pg", "normal" },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

size_t wg_exp_policies(enum wg_exp_kind kind, const struct wg_exp_policy **pol)
{
	switch (kind) {
	case WG_EXP_SIMD: *pol = simd_pol; return COUNT(simd_pol);
	case WG_EXP_CTA: *pol = cta_pol; return COUNT(cta_pol);
	case WG_EXP_BET: *pol = bet_pol; return COUNT(bet_pol);
	}
	*pol = NULL;
	return 0;
}

static const char *const kind_names[] = { "simd", "cta", "bet" };

const char *wg_exp_kind_name(enum wg_exp_kind kind)
{
	return (unsigned)kind < COUNT(kind_names) ? kind_names[kind] : "?";
}

int wg_exp_kind_parse(const char *s, enum wg_exp_kind *kind)
{
	for (unsigned i = 0; i < COUNT(kind_names); i++) {
		if (!strcmp(s, kind_names[i])) {
			*kind = (enum wg_exp_kind)i;
			return 0;
		}
	}
	return WG_EINVAL;
}

/* ------------------------------------------------------------- results */

/* The power object: at the top, in the totals or in the target's counters. */
static const struct wg_jv *find_power(const struct wg_jsonr *d)
{
	static const char *const where[] = { "power", "totals.power", "target_counters.power" };

	for (unsigned i = 0; i < COUNT(where); i++) {
		const struct wg_jv *p = wg_jsonr_path(d->root, where[i]);
		if (p)
			return p;
	}
	return NULL;
}

static int read_cta(const struct wg_jsonr *d, struct wg_exp_result *r, char *err, size_t errlen)
{
	const struct wg_jv *res, *ctas;
	uint64_t n;
	int ret;

	if ((ret = wg_jsonr_get(d, NULL, "target_counters.sm_resident_cycles", WG_JV_ARRAY, &res, err, errlen)) ||
	    (ret = wg_jsonr_get(d, NULL, "target_counters.sm_ctas", WG_JV_ARRAY, &ctas, err, errlen)))
		return ret;
	if (res->len != ctas->len) {
		snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": sm_resident_cycles has %zu SMs, sm_ctas (line %" PRIu32
		         ") %zu", d->name, res->line, res->col, res->len, ctas->line, ctas->len);
		return WG_EINVAL;
	}
	r->num_sms = (uint32_t)res->len;
	for (size_t s = 0; s < res->len; s++) {
		char path[32];

		snprintf(path, sizeof(path), "%zu", s);
		if ((ret = wg_jsonr_get_u64(d, res, path, &n, err, errlen)))
			return ret;
		r->core_active += n;
		if ((ret = wg_jsonr_get_u64(d, ctas, path, &n, err, errlen)))
			return ret;
		r->sms_used += n > 0;
	}
	return 0;
}

static int read_power(const struct wg_jsonr *d, struct wg_exp_result *r, char *err, size_t errlen)
{
	const struct wg_jv *p = find_power(d), *curve;
	uint64_t bet;
	int ret;

	if (!p) {
		snprintf(err, errlen, "%s: no object 'power' (at the top, in 'totals' or in 'target_counters'): "
		         "the target reports no power-gating counters (docs/power-gating.md section 6.3)", d->name);
		r->no_power = 1;
		return WG_ENOENT;
	}
	if (p->type != WG_JV_OBJECT) {
		snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": 'power' is %s, expected an object", d->name, p->line,
		         p->col, wg_jsonr_type_name(p->type));
		return WG_EINVAL;
	}
	if ((ret = wg_jsonr_get_u64(d, p, "lane_cycles", &r->lane_cycles, err, errlen)) ||
	    (ret = wg_jsonr_get_u64(d, p, "lane_active", &r->lane_active, err, errlen)) ||
	    (ret = wg_jsonr_get_u64(d, p, "lane_sleep", &r->lane_sleep, err, errlen)) ||
	    (ret = wg_jsonr_get_u64(d, p, "gating_events", &r->gating_events, err, errlen)) ||
	    (ret = wg_jsonr_get_u64(d, p, "wakeup_stall_cycles", &r->wake_stall, err, errlen)) ||
	    (ret = wg_jsonr_get_u64(d, p, "bet", &bet, err, errlen)) ||
	    (ret = wg_jsonr_get_i64(d, p, "online_saved", &r->online_saved, err, errlen)) ||
	    (ret = wg_jsonr_get_double(d, p, "online_share", &r->online_share, err, errlen)) ||
	    (ret = wg_jsonr_get_bool(d, p, "hist_exact", &r->hist_exact, err, errlen)) ||
	    (ret = wg_jsonr_get_double(d, p, "energy_pj.saving_pct", &r->saving_pct, err, errlen)) ||
	    (ret = wg_jsonr_get_double(d, p, "energy_pj.dynamic", &r->dyn_pj, err, errlen)) ||
	    (ret = wg_jsonr_get_double(d, p, "energy_pj.leak_nogating", &r->leak_pj, err, errlen)) ||
	    (ret = wg_jsonr_get_double(d, p, "energy_pj.sleep_leak_pct", &r->sleep_leak_pct, err, errlen)) ||
	    (ret = wg_jsonr_get(d, p, "oracle_curve", WG_JV_ARRAY, &curve, err, errlen)))
		return ret;
	r->bet = (uint32_t)bet;
	/* oracle_share is absent when the BET is beyond the histogram (section 6.1) */
	r->oracle_share = -1.0;
	if (wg_jsonr_member(p, "oracle_share") &&
	    (ret = wg_jsonr_get_double(d, p, "oracle_share", &r->oracle_share, err, errlen)))
		return ret;
	for (const struct wg_jv *pt = curve->child; pt; pt = pt->next) {
		uint64_t b;
		double s;

		if (r->ncurve == WG_EXP_CURVE_MAX) {
			snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": oracle_curve has more than %d points", d->name,
			         curve->line, curve->col, WG_EXP_CURVE_MAX);
			return WG_EINVAL;
		}
		if (pt->type != WG_JV_ARRAY || pt->len != 2) {
			snprintf(err, errlen, "%s:%" PRIu32 ":%" PRIu32 ": an oracle_curve point is %s, expected [B, share]",
			         d->name, pt->line, pt->col, pt->type == WG_JV_ARRAY ? "an array of other length" :
			         wg_jsonr_type_name(pt->type));
			return WG_EINVAL;
		}
		if ((ret = wg_jsonr_get_u64(d, pt, "0", &b, err, errlen)) ||
		    (ret = wg_jsonr_get_double(d, pt, "1", &s, err, errlen)))
			return ret;
		r->curve_bet[r->ncurve] = (uint32_t)b;
		r->curve_share[r->ncurve++] = s;
	}
	r->has_power = 1;
	return 0;
}

static int read_doc(enum wg_exp_kind kind, const struct wg_jsonr *d, struct wg_exp_result *r, char *err,
                    size_t errlen)
{
	int ret;

	if ((ret = wg_jsonr_get_u64(d, NULL, "totals.cycles", &r->cycles, err, errlen)))
		return ret;
	if (kind == WG_EXP_CTA)
		return read_cta(d, r, err, errlen);
	return read_power(d, r, err, errlen);
}

/* Clears the figures of r, keeping nothing but the run's wall time. */
static void clear_figures(struct wg_exp_result *r)
{
	double secs = r->seconds;

	memset(r, 0, sizeof(*r));
	r->seconds = secs;
	r->oracle_share = -1.0;
}

int wg_exp_parse_result(enum wg_exp_kind kind, const char *text, size_t len, const char *name,
                        struct wg_exp_result *r, char *err, size_t errlen)
{
	struct wg_jsonr *d;
	int ret;

	clear_figures(r);
	ret = wg_jsonr_parse(&d, text, len, name, err, errlen);
	if (ret)
		return ret;
	ret = read_doc(kind, d, r, err, errlen);
	wg_jsonr_free(d);
	return ret;
}

int wg_exp_read_result(enum wg_exp_kind kind, const char *path, struct wg_exp_result *r, char *err,
                       size_t errlen)
{
	struct wg_jsonr *d;
	int ret;

	clear_figures(r);
	ret = wg_jsonr_load(&d, path, err, errlen);
	if (ret)
		return ret;
	ret = read_doc(kind, d, r, err, errlen);
	wg_jsonr_free(d);
	return ret;
}

double wg_exp_slowdown(uint64_t cycles, uint64_t base_cycles)
{
	return cycles && base_cycles ? (double)cycles / (double)base_cycles : 0.0;
}

double wg_exp_online_share_at(const struct wg_exp_result *r, uint32_t bet)
{
	if (!r->lane_cycles)
		return 0.0;
	return ((double)r->lane_sleep - (double)r->gating_events * (double)bet) / (double)r->lane_cycles;
}

double wg_exp_oracle_share_at(const struct wg_exp_result *r, uint32_t bet)
{
	for (size_t i = 0; i < r->ncurve; i++)
		if (r->curve_bet[i] == bet)
			return r->curve_share[i];
	return -1.0;
}

double wg_exp_energy_saving_pct(const struct wg_exp_result *r, double share)
{
	double base = r->dyn_pj + r->leak_pj;

	if (!(base > 0.0))
		return 0.0;
	return 100.0 * share * r->leak_pj * (1.0 - r->sleep_leak_pct / 100.0) / base;
}

/* ------------------------------------------------------------- set-up */

static int cmp_kernel(const void *a, const void *b)
{
	return strcmp(((const struct wg_exp_kernel *)a)->name, ((const struct wg_exp_kernel *)b)->name);
}

/* Adds the executables of dir (names prefixed) to all[]. */
static int scan_programs(const char *dir, const char *prefix, struct wg_exp_kernel *all, size_t *n, size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t first = *n;

	if (!d)
		return 0; /* a build without the suite: nothing there */
	while ((de = readdir(d))) {
		char path[512];
		struct stat st;

		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue; /* logs, JSON and other outputs next to the programs */
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (stat(path, &st) || !S_ISREG(st.st_mode) || access(path, X_OK))
			continue;
		if (*n == max) {
			closedir(d);
			return WG_ENOMEM;
		}
		snprintf(all[*n].name, sizeof(all[*n].name), "%s%.56s", prefix, de->d_name);
		snprintf(all[*n].path, sizeof(all[*n].path), "%s", path);
		(*n)++;
	}
	closedir(d);
	qsort(all + first, *n - first, sizeof(*all), cmp_kernel);
	return 0;
}

int wg_exp_init(struct wg_exp *e, const struct wg_exp_opts *o)
{
	struct wg_exp_kernel *all;
	size_t nall = 0;
	char dir[512];
	int ret = 0;

	memset(e, 0, sizeof(*e));
	e->o = *o;
	e->npol = wg_exp_policies(o->kind, &e->pol);
	if (!e->npol || e->npol > WG_EXP_MAX_POLICIES) {
		snprintf(e->err, sizeof(e->err), "unknown experiment kind %d", (int)o->kind);
		return WG_EINVAL;
	}
	if (!o->size || (strcmp(o->size, "small") && strcmp(o->size, "default"))) {
		snprintf(e->err, sizeof(e->err), "--size: expected small or default, got '%s'", o->size ? o->size : "");
		return WG_EINVAL;
	}
	if (!o->target) {
		/* the cta policies need many SMs; the lane figures a target that reports power */
		e->o.target = o->kind == WG_EXP_CTA ? "gpu" : "sim";
	} else if (strcmp(o->target, "gpu") && strcmp(o->target, "sim")) {
		snprintf(e->err, sizeof(e->err), "--target: expected gpu or sim, got '%s'", o->target);
		return WG_EINVAL;
	}
	if (o->kind == WG_EXP_CTA && strcmp(e->o.target, "gpu")) {
		snprintf(e->err, sizeof(e->err), "--target %s: the CTA policies need the gpu target (sim has one SM)",
		         e->o.target);
		return WG_EINVAL;
	}
	if (!o->jobs || o->jobs > 64) {
		snprintf(e->err, sizeof(e->err), "--jobs: expected 1..64, got %u", o->jobs);
		return WG_EINVAL;
	}
	if (!o->out_dir || !*o->out_dir || !o->prog_dir) {
		snprintf(e->err, sizeof(e->err), "no output or program directory");
		return WG_EINVAL;
	}
	all = calloc(WG_EXP_MAX_KERNELS * 2, sizeof(*all));
	if (!all)
		return WG_ENOMEM;
	snprintf(dir, sizeof(dir), "%s/kernels", o->prog_dir);
	ret = scan_programs(dir, "", all, &nall, WG_EXP_MAX_KERNELS * 2);
	snprintf(dir, sizeof(dir), "%s/cuda", o->prog_dir);
	if (!ret)
		ret = scan_programs(dir, "cuda/", all, &nall, WG_EXP_MAX_KERNELS * 2);
	if (ret) {
		snprintf(e->err, sizeof(e->err), "more than %d programs in %s/kernels and %s/cuda", WG_EXP_MAX_KERNELS * 2,
		         o->prog_dir, o->prog_dir);
		goto out;
	}
	if (!nall) {
		snprintf(e->err, sizeof(e->err), "no kernel programs in %s/kernels or %s/cuda (make all builds them)",
		         o->prog_dir, o->prog_dir);
		ret = WG_ENOENT;
		goto out;
	}
	if (!o->kernels || !*o->kernels) {
		if (nall > WG_EXP_MAX_KERNELS) {
			snprintf(e->err, sizeof(e->err), "%zu programs found, at most %d per experiment: choose with --kernels",
			         nall, WG_EXP_MAX_KERNELS);
			ret = WG_EINVAL;
			goto out;
		}
		memcpy(e->kernels, all, nall * sizeof(*all));
		e->nkernels = nall;
		goto out;
	}
	for (const char *p = o->kernels; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p), i;

		for (i = 0; i < nall; i++)
			if (strlen(all[i].name) == len && !strncmp(all[i].name, p, len))
				break;
		if (!len || i == nall) {
			size_t n = (size_t)snprintf(e->err, sizeof(e->err), "--kernels: no program '%.*s' in %s/kernels or "
			                            "%s/cuda; there are:", (int)len, p, o->prog_dir, o->prog_dir);
			for (size_t k = 0; k < nall && n < sizeof(e->err); k++)
				n += (size_t)snprintf(e->err + n, sizeof(e->err) - n, " %s", all[k].name);
			ret = WG_ENOENT;
			goto out;
		}
		for (size_t k = 0; k < e->nkernels; k++) {
			if (!strcmp(e->kernels[k].name, all[i].name)) {
				snprintf(e->err, sizeof(e->err), "--kernels: '%s' named twice", all[i].name);
				ret = WG_EINVAL;
				goto out;
			}
		}
		if (e->nkernels == WG_EXP_MAX_KERNELS) {
			snprintf(e->err, sizeof(e->err), "--kernels: more than %d", WG_EXP_MAX_KERNELS);
			ret = WG_EINVAL;
			goto out;
		}
		e->kernels[e->nkernels++] = all[i];
		p += len;
		if (*p == ',')
			p++;
	}
out:
	free(all);
	return ret;
}

/* ------------------------------------------------------------- output */

static const struct wg_exp_result *base_of(const struct wg_exp *e, size_t k)
{
	return &e->res[k][0];
}

/* Slowdown of (k, p) against the baseline policy, 0 when either is missing. */
static double slowdown_of(const struct wg_exp *e, size_t k, size_t p)
{
	const struct wg_exp_result *r = &e->res[k][p], *b = base_of(e, k);

	if (!r->ok || !b->ok)
		return 0.0;
	return wg_exp_slowdown(r->cycles, b->cycles);
}

/* Active core-cycles of (k, p) relative to the baseline's (cta), 0 when missing. */
static double active_rel_of(const struct wg_exp *e, size_t k, size_t p)
{
	const struct wg_exp_result *r = &e->res[k][p], *b = base_of(e, k);

	if (!r->ok || !b->ok || !b->core_active)
		return 0.0;
	return (double)r->core_active / (double)b->core_active;
}

void wg_exp_summarise(const struct wg_exp *e, size_t p, struct wg_exp_summary *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t k = 0; k < e->nkernels; k++) {
		double sd = slowdown_of(e, k, p);

		if (sd <= 0.0)
			continue;
		s->n++;
		s->mean_slowdown += sd;
		if (sd > s->max_slowdown)
			s->max_slowdown = sd;
		if (e->o.kind == WG_EXP_CTA) {
			s->mean_saved += active_rel_of(e, k, p);
		} else {
			const struct wg_exp_result *r = &e->res[k][p];
			double o = r->oracle_share > 0.0 ? r->oracle_share : 0.0;

			s->mean_saved += o;
			s->mean_online += r->online_share;
			s->mean_energy += wg_exp_energy_saving_pct(r, o);
			s->mean_energy_online += r->saving_pct;
		}
	}
	if (s->n) {
		s->mean_slowdown /= (double)s->n;
		s->mean_saved /= (double)s->n;
		s->mean_online /= (double)s->n;
		s->mean_energy /= (double)s->n;
		s->mean_energy_online /= (double)s->n;
	}
}

static void csv_text(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

static const char *status_of(const struct wg_exp_result *r)
{
	return r->ok ? "ok" : "fail";
}

static void csv_rows(const struct wg_exp *e, FILE *f)
{
	switch (e->o.kind) {
	case WG_EXP_SIMD:
		fputs("kernel,policy,status,cycles,slowdown,lane_cycles,lane_active,lane_sleep,gating_events,"
		      "wakeup_stall_cycles,bet,online_saved,online_share,oracle_share,energy_saving_pct,oracle_energy_saving_pct,"
		      "message\n", f);
		break;
	case WG_EXP_CTA:
		fputs("kernel,policy,status,cycles,slowdown,core_active_cycles,core_active_vs_rr,sms_used,num_sms,message\n",
		      f);
		break;
	case WG_EXP_BET:
		fputs("kernel,status,bet,oracle_share,online_share,oracle_energy_saving_pct,online_energy_saving_pct,message\n",
		      f);
		break;
	}
	for (size_t k = 0; k < e->nkernels; k++) {
		for (size_t p = 0; p < e->npol; p++) {
			const struct wg_exp_result *r = &e->res[k][p];
			double sd = slowdown_of(e, k, p);

			if (!r->done)
				continue;
			if (e->o.kind == WG_EXP_BET) {
				if (!r->ok) {
					fprintf(f, "%s,fail,,,,,,", e->kernels[k].name);
					csv_text(f, r->msg);
					fputc('\n', f);
					continue;
				}
				for (size_t i = 0; i < r->ncurve; i++) {
					double on = wg_exp_online_share_at(r, r->curve_bet[i]);

					fprintf(f, "%s,ok,%" PRIu32 ",%.6f,%.6f,%.3f,%.3f,\n", e->kernels[k].name, r->curve_bet[i],
					        r->curve_share[i], on, wg_exp_energy_saving_pct(r, r->curve_share[i]),
					        wg_exp_energy_saving_pct(r, on));
				}
				continue;
			}
			fprintf(f, "%s,%s,%s,", e->kernels[k].name, e->pol[p].name, status_of(r));
			if (!r->ok) {
				fputs(e->o.kind == WG_EXP_SIMD ? ",,,,,,,,,,,," : ",,,,,,", f);
				csv_text(f, r->msg);
				fputc('\n', f);
				continue;
			}
			fprintf(f, "%" PRIu64 ",", r->cycles);
			if (sd > 0.0)
				fprintf(f, "%.6f", sd);
			fputc(',', f);
			if (e->o.kind == WG_EXP_SIMD) {
				fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu32 ",%" PRId64
				        ",%.6f,", r->lane_cycles, r->lane_active, r->lane_sleep, r->gating_events, r->wake_stall,
				        r->bet, r->online_saved, r->online_share);
				if (r->oracle_share >= 0.0)
					fprintf(f, "%.6f", r->oracle_share);
				fprintf(f, ",%.3f,", r->saving_pct);
				if (r->oracle_share >= 0.0)
					fprintf(f, "%.3f", wg_exp_energy_saving_pct(r, r->oracle_share));
				fputs(",\n", f);
			} else {
				double rel = active_rel_of(e, k, p);

				fprintf(f, "%" PRIu64 ",", r->core_active);
				if (rel > 0.0)
					fprintf(f, "%.6f", rel);
				fprintf(f, ",%" PRIu32 ",%" PRIu32 ",\n", r->sms_used, r->num_sms);
			}
		}
	}
}

int wg_exp_write_csv(const struct wg_exp *e, const char *path)
{
	char tmp[600];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		wg_err("experiment: cannot write %s: %s", tmp, strerror(errno));
		return WG_EIO;
	}
	csv_rows(e, f);
	if (fclose(f) || rename(tmp, path)) {
		wg_err("experiment: cannot write %s: %s", path, strerror(errno));
		return WG_EIO;
	}
	return 0;
}

/* The terminal line of the scripts: cairo when this gnuplot has it, else libgd. */
static void gp_head(FILE *f, const struct wg_exp *e)
{
	fprintf(f, "# %s experiment (docs/experiments.md); data in %s*.dat, rows in %s.csv\n",
	        wg_exp_kind_name(e->o.kind), wg_exp_kind_name(e->o.kind), wg_exp_kind_name(e->o.kind));
	fputs("if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) { set terminal pngcairo size 1100,520 font \",10\" } "
	      "else { set terminal png size 1100,520 }\n"
	      "set datafile missing \"-\"\n"
	      "set grid ytics\n"
	      "set key outside right top\n", f);
}

static void gp_histogram(FILE *f, const char *png, const char *dat, const char *title, const char *ylabel,
                         size_t ncols)
{
	fprintf(f, "\nset output \"%s\"\n"
	           "set title \"%s\"\n"
	           "set ylabel \"%s\"\n"
	           "set style data histograms\n"
	           "set style histogram clustered gap 1\n"
	           "set style fill solid 0.85 border -1\n"
	           "set xtics rotate by -40 nomirror\n"
	           "set yrange [*<0:0<*]\n"
	           "plot for [c=2:%zu] \"%s\" using c:xtic(1) title columnheader(c)\n",
	        png, title, ylabel, ncols + 1, dat);
}

static void dat_value(FILE *f, int have, double v)
{
	if (have)
		fprintf(f, " %.4f", v);
	else
		fputs(" -", f);
}

/* The figures of the bar plots. */
enum dat_figure { FIG_ORACLE, FIG_ONLINE, FIG_ACTIVE, FIG_SLOWDOWN };

/* One bar-plot data file: a row per kernel, a column per policy from first; '-' where missing. */
static int write_dat(const struct wg_exp *e, const char *dir, const char *name, enum dat_figure fig, size_t first)
{
	char path[600];
	FILE *d;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	d = fopen(path, "w");
	if (!d)
		return WG_EIO;
	fputs("kernel", d);
	for (size_t p = first; p < e->npol; p++)
		fprintf(d, " %s", e->pol[p].name);
	fputc('\n', d);
	for (size_t k = 0; k < e->nkernels; k++) {
		fprintf(d, "%s", e->kernels[k].name);
		for (size_t p = first; p < e->npol; p++) {
			const struct wg_exp_result *r = &e->res[k][p];
			double v = 0.0;

			switch (fig) {
			case FIG_ORACLE: v = r->ok ? r->oracle_share : -1.0; dat_value(d, v >= 0.0, 100.0 * v); break;
			case FIG_ONLINE: dat_value(d, r->ok, 100.0 * r->online_share); break;
			case FIG_ACTIVE: v = active_rel_of(e, k, p); dat_value(d, v > 0.0, 100.0 * v); break;
			case FIG_SLOWDOWN: v = slowdown_of(e, k, p); dat_value(d, v > 0.0, v); break;
			}
		}
		fputc('\n', d);
	}
	return fclose(d) ? WG_EIO : 0;
}

int wg_exp_write_plots(const struct wg_exp *e, const char *dir)
{
	const char *kind = wg_exp_kind_name(e->o.kind);
	char path[600];
	FILE *gp;

	snprintf(path, sizeof(path), "%s/%s.gp", dir, kind);
	gp = fopen(path, "w");
	if (!gp)
		goto fail_closed;
	gp_head(gp, e);
	if (e->o.kind == WG_EXP_BET) {
		static const char *const which[2] = { "oracle", "online" };

		for (int w = 0; w < 2; w++) {
			FILE *d;
			/* Every kernel's curve at the BETs of the first kernel that has one. */
			const struct wg_exp_result *ref = NULL;

			snprintf(path, sizeof(path), "%s/bet_%s.dat", dir, which[w]);
			d = fopen(path, "w");
			if (!d)
				goto fail;
			fputs("bet", d);
			for (size_t k = 0; k < e->nkernels; k++) {
				fprintf(d, " %s", e->kernels[k].name);
				if (!ref && e->res[k][0].ok && e->res[k][0].ncurve)
					ref = &e->res[k][0];
			}
			fputc('\n', d);
			for (size_t i = 0; ref && i < ref->ncurve; i++) {
				uint32_t b = ref->curve_bet[i];

				fprintf(d, "%" PRIu32, b);
				for (size_t k = 0; k < e->nkernels; k++) {
					const struct wg_exp_result *r = &e->res[k][0];
					double v = w ? wg_exp_online_share_at(r, b) : wg_exp_oracle_share_at(r, b);
					dat_value(d, r->ok && (w || v >= 0.0), 100.0 * v);
				}
				fputc('\n', d);
			}
			if (fclose(d))
				goto fail;
			fprintf(gp, "\nset output \"bet_%s.png\"\n"
			            "set title \"Net saved lane-cycles against BET (%s)\"\n"
			            "set ylabel \"%% of lane-cycles\"\n"
			            "set xlabel \"BET (cycles)\"\n"
			            "set logscale x\n"
			            "set autoscale xfix\n"
			            "set style data linespoints\n"
			            "plot for [c=2:%zu] \"bet_%s.dat\" using 1:c title columnheader(c)\n",
			        which[w], w ? "online controller of the run: sleep - events x BET" :
			        "oracle: idle intervals >= BET, minus BET each", e->nkernels + 1, which[w]);
		}
		if (fclose(gp))
			goto fail_closed;
		return 0;
	}
	if (e->o.kind == WG_EXP_CTA) {
		/* rr is the baseline: 100 % and 1.0 by definition, not drawn */
		if (write_dat(e, dir, "cta_active.dat", FIG_ACTIVE, 1) ||
		    write_dat(e, dir, "cta_slowdown.dat", FIG_SLOWDOWN, 1))
			goto fail;
		gp_histogram(gp, "cta_active.png", "cta_active.dat",
		             "Active core-cycles (sum over SMs of cycles with a CTA resident), % of round-robin",
		             "% of rr", e->npol - 1);
		gp_histogram(gp, "cta_slowdown.png", "cta_slowdown.dat", "Slowdown: cycles / cycles under rr",
		             "slowdown", e->npol - 1);
	} else {
		/* the oracle share of every policy, gating off included (the idle time there is to gate) */
		if (write_dat(e, dir, "simd_saved.dat", FIG_ORACLE, 0) ||
		    write_dat(e, dir, "simd_online.dat", FIG_ONLINE, 1) ||
		    write_dat(e, dir, "simd_slowdown.dat", FIG_SLOWDOWN, 1))
			goto fail;
		gp_histogram(gp, "simd_saved.png", "simd_saved.dat",
		             "Net saved lane-cycles at BET (idle intervals >= BET, minus BET each), % of lane-cycles",
		             "% of lane-cycles", e->npol);
		gp_histogram(gp, "simd_online.png", "simd_online.dat",
		             "Net saved lane-cycles of the online controller (sleep - events x BET), % of lane-cycles",
		             "% of lane-cycles", e->npol - 1);
		gp_histogram(gp, "simd_slowdown.png", "simd_slowdown.dat", "Slowdown: cycles / cycles with gating off",
		             "slowdown", e->npol - 1);
	}
	if (fclose(gp))
		goto fail_closed;
	return 0;
fail:
	fclose(gp);
fail_closed:
	wg_err("experiment: cannot write the plot files in %s: %s", dir, strerror(errno));
	return WG_EIO;
}

static void print_pct(FILE *out, int have, double v)
{
	if (have)
		fprintf(out, " %8.2f", 100.0 * v);
	else
		fprintf(out, " %8s", "-");
}

void wg_exp_print_table(const struct wg_exp *e, FILE *out)
{
	size_t w = 8;

	for (size_t k = 0; k < e->nkernels; k++)
		if (strlen(e->kernels[k].name) > w)
			w = strlen(e->kernels[k].name);
	if (e->o.kind == WG_EXP_BET) {
		const struct wg_exp_result *ref = NULL;

		for (size_t k = 0; k < e->nkernels && !ref; k++)
			if (e->res[k][0].ok && e->res[k][0].ncurve)
				ref = &e->res[k][0];
		for (int energy = 0; energy < 2; energy++) {
			fprintf(out, "\n%s, %% (oracle / online) at BET =\n%-*s",
			        energy ? "lane energy saved (docs/power-gating.md 6.2)" : "net saved lane-cycles", (int)w,
			        "kernel");
			for (size_t i = 0; ref && i < ref->ncurve; i++)
				fprintf(out, " %15" PRIu32, ref->curve_bet[i]);
			fputc('\n', out);
			for (size_t k = 0; k < e->nkernels; k++) {
				const struct wg_exp_result *r = &e->res[k][0];

				fprintf(out, "%-*s", (int)w, e->kernels[k].name);
				if (!r->ok) {
					fprintf(out, " %s: %s\n", r->done ? "FAILED" : "not run", r->msg);
					continue;
				}
				for (size_t i = 0; ref && i < ref->ncurve; i++) {
					double o = wg_exp_oracle_share_at(r, ref->curve_bet[i]);
					double on = wg_exp_online_share_at(r, ref->curve_bet[i]);
					char cell[32];

					if (energy)
						snprintf(cell, sizeof(cell), "%.1f/%.1f", wg_exp_energy_saving_pct(r, o),
						         wg_exp_energy_saving_pct(r, on));
					else
						snprintf(cell, sizeof(cell), "%.1f/%.1f", 100.0 * o, 100.0 * on);
					fprintf(out, " %15s", o >= 0.0 ? cell : "-");
				}
				fputc('\n', out);
			}
		}
		return;
	}
	if (e->o.kind == WG_EXP_SIMD)
		fprintf(out, "\n%-*s %-8s %12s %8s %8s %8s %8s %8s %8s %10s\n", (int)w, "kernel", "policy", "cycles",
		        "slowdown", "saved%", "energy%", "online%", "on_enrg%", "sleep%", "wake_stall");
	else
		fprintf(out, "\n%-*s %-11s %12s %8s %14s %8s %5s\n", (int)w, "kernel", "policy", "cycles", "slowdown",
		        "core_active", "vs_rr%", "SMs");
	for (size_t k = 0; k < e->nkernels; k++) {
		for (size_t p = 0; p < e->npol; p++) {
			const struct wg_exp_result *r = &e->res[k][p];
			double sd = slowdown_of(e, k, p);

			fprintf(out, "%-*s %-*s", (int)w, e->kernels[k].name, e->o.kind == WG_EXP_SIMD ? 8 : 11,
			        e->pol[p].name);
			if (!r->done) {
				fputs(" not run\n", out);
				continue;
			}
			if (!r->ok) {
				fprintf(out, " FAILED: %s\n", r->msg);
				continue;
			}
			fprintf(out, " %12" PRIu64, r->cycles);
			if (sd > 0.0)
				fprintf(out, " %8.3f", sd);
			else
				fprintf(out, " %8s", "-");
			if (e->o.kind == WG_EXP_SIMD) {
				print_pct(out, r->oracle_share >= 0.0, r->oracle_share);
				print_pct(out, r->oracle_share >= 0.0, wg_exp_energy_saving_pct(r, r->oracle_share) / 100.0);
				print_pct(out, 1, r->online_share);
				print_pct(out, 1, r->saving_pct / 100.0);
				print_pct(out, r->lane_cycles > 0,
				          r->lane_cycles ? (double)r->lane_sleep / (double)r->lane_cycles : 0.0);
				fprintf(out, " %10" PRIu64 "\n", r->wake_stall);
			} else {
				double rel = active_rel_of(e, k, p);

				fprintf(out, " %14" PRIu64, r->core_active);
				print_pct(out, rel > 0.0, rel);
				fprintf(out, " %2" PRIu32 "/%-2" PRIu32 "\n", r->sms_used, r->num_sms);
			}
		}
	}
	fprintf(out, "\n%-12s %8s %14s", "policy", "kernels", e->o.kind == WG_EXP_SIMD ? "mean saved%" : "mean vs_rr%");
	if (e->o.kind == WG_EXP_SIMD)
		fprintf(out, " %13s %13s %13s", "mean energy%", "mean online%", "mean on_enrg%");
	fprintf(out, " %13s %13s\n", "mean slowdown", "max slowdown");
	for (size_t p = 0; p < e->npol; p++) {
		struct wg_exp_summary s;

		wg_exp_summarise(e, p, &s);
		fprintf(out, "%-12s %8zu", e->pol[p].name, s.n);
		if (!s.n) {
			fprintf(out, " %14s", "-");
			if (e->o.kind == WG_EXP_SIMD)
				fprintf(out, " %13s %13s %13s", "-", "-", "-");
			fprintf(out, " %13s %13s\n", "-", "-");
			continue;
		}
		fprintf(out, " %14.2f", 100.0 * s.mean_saved);
		if (e->o.kind == WG_EXP_SIMD)
			fprintf(out, " %13.2f %13.2f %13.2f", s.mean_energy, 100.0 * s.mean_online, s.mean_energy_online);
		fprintf(out, " %13.3f %13.3f\n", s.mean_slowdown, s.max_slowdown);
	}
	if (e->o.kind == WG_EXP_SIMD)
		fputs("saved%: net saved lane-cycles at the BET with ideal control (the paper's metric); online%: the same\n"
		      "for the run's own controller (sleep - events x BET); energy%, on_enrg%: the lane energy (dynamic +\n"
		      "leakage) they save (docs/power-gating.md section 6.2); slowdown against gating off\n", out);
}

/* ------------------------------------------------------------- runner */

struct job {
	pid_t pid;
	size_t k, p;
	struct timespec start;
};

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* File name part of a kernel: "cuda/bfs" -> "cuda_bfs". */
static void file_stem(char *dst, size_t n, const char *name, const char *policy)
{
	size_t i;

	snprintf(dst, n, "%s.%s", name, policy);
	for (i = 0; dst[i]; i++)
		if (dst[i] == '/')
			dst[i] = '_';
}

static void run_paths(const struct wg_exp *e, size_t k, size_t p, char *json, char *log, size_t n)
{
	char stem[160];

	file_stem(stem, sizeof(stem), e->kernels[k].name, e->pol[p].name);
	snprintf(json, n, "%s/json/%s.json", e->o.out_dir, stem);
	snprintf(log, n, "%s/logs/%s.log", e->o.out_dir, stem);
}

/* Starts one child: the program with the experiment's arguments, output to its log. */
static pid_t start_run(const struct wg_exp *e, size_t k, size_t p)
{
	char json[600], log[600], bet[32];
	const char *argv[32 + 2 * WG_EXP_MAX_OPTIONS];
	int n = 0;
	pid_t pid;

	run_paths(e, k, p, json, log, sizeof(json));
	argv[n++] = e->kernels[k].path;
	argv[n++] = "--target";
	argv[n++] = e->o.target;
	argv[n++] = "--size";
	argv[n++] = e->o.size;
	argv[n++] = "--json";
	argv[n++] = json;
	if (e->o.config) {
		argv[n++] = "--config";
		argv[n++] = e->o.config;
	}
	if (e->pol[p].flag) {
		argv[n++] = e->pol[p].flag;
		argv[n++] = e->pol[p].value;
	}
	if (e->o.bet && e->o.kind != WG_EXP_CTA) {
		snprintf(bet, sizeof(bet), "%" PRIu32, e->o.bet);
		argv[n++] = "--bet";
		argv[n++] = bet;
	}
	for (int i = 0; i < e->o.noptions; i++) {
		argv[n++] = "--option";
		argv[n++] = e->o.options[i];
	}
	argv[n] = NULL;
	unlink(json); /* a stale file from an earlier experiment is never read back */
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644), in = open("/dev/null", O_RDONLY);

		if (fd < 0 || in < 0)
			_exit(126);
		dup2(in, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		dprintf(fd, "#");
		for (int i = 0; argv[i]; i++)
			dprintf(fd, " %s", argv[i]);
		dprintf(fd, "\n");
		execv(argv[0], (char *const *)argv);
		dprintf(fd, "%s: cannot run: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* The last non-empty line of a log (what the program said last). */
static void last_line(const char *path, char *out, size_t n)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
			line[--len] = '\0';
		if (len && line[0] != '#')
			snprintf(out, n, "%s", line);
	}
	fclose(f);
}

static void finish_run(struct wg_exp *e, const struct job *j, int status, FILE *log, size_t done, size_t total)
{
	struct wg_exp_result *r = &e->res[j->k][j->p];
	char json[600], logf[600], said[400];
	double secs = since(&j->start);

	run_paths(e, j->k, j->p, json, logf, sizeof(json));
	r->seconds = secs;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		char err[sizeof(r->msg)];

		if (wg_exp_read_result(e->o.kind, json, r, err, sizeof(err)))
			snprintf(r->msg, sizeof(r->msg), "%s", err);
		else
			r->ok = 1;
		r->seconds = secs;
	} else {
		clear_figures(r);
		last_line(logf, said, sizeof(said));
		if (WIFSIGNALED(status))
			snprintf(r->msg, sizeof(r->msg), "killed by signal %d%s%s", WTERMSIG(status), said[0] ? "; " : "",
			         said);
		else
			snprintf(r->msg, sizeof(r->msg), "exit %d: %s", WEXITSTATUS(status),
			         said[0] ? said : "(no message)");
	}
	r->done = 1;
	if (r->ok)
		fprintf(log, "[%zu/%zu] %s %s: %" PRIu64 " cycles (%.1f s)\n", done, total, e->kernels[j->k].name,
		        e->pol[j->p].name, r->cycles, secs);
	else
		fprintf(log, "[%zu/%zu] %s %s: FAILED (program %s, policy %s): %s; log %s\n", done, total,
		        e->kernels[j->k].name, e->pol[j->p].name, e->kernels[j->k].path, e->pol[j->p].name, r->msg, logf);
	fflush(log);
}

static int mkdir_p(const char *dir)
{
	char tmp[600];

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *s = tmp + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			if (mkdir(tmp, 0755) && errno != EEXIST)
				return -1;
			*s = '/';
		}
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

/* Runs gnuplot on the experiment's script in the output directory. */
static int draw(const struct wg_exp *e, FILE *log)
{
	char script[64], logf[600];
	pid_t pid;
	int status;

	snprintf(script, sizeof(script), "%s.gp", wg_exp_kind_name(e->o.kind));
	snprintf(logf, sizeof(logf), "%s/logs/gnuplot.log", e->o.out_dir);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return WG_EIO;
	if (pid == 0) {
		int fd = open(logf, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || chdir(e->o.out_dir))
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp(e->o.gnuplot, e->o.gnuplot, script, (char *)NULL);
		dprintf(fd, "%s: cannot run: %s (make deps installs gnuplot-nox)\n", e->o.gnuplot, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		char said[700];

		last_line(logf, said, sizeof(said));
		fprintf(log, "experiment: gnuplot %s/%s failed: %s (log %s)\n", e->o.out_dir, script,
		        said[0] ? said : "no message", logf);
		return WG_EIO;
	}
	return 0;
}

int wg_exp_run(struct wg_exp *e, FILE *log)
{
	const char *kind = wg_exp_kind_name(e->o.kind);
	size_t total = e->nkernels * e->npol, next = 0, done = 0, failed = 0, with_power = 0, without_power = 0;
	size_t stopped = 0;
	struct job *jobs;
	unsigned running = 0;
	char csv[600], sub[600];
	int ret = 0;

	snprintf(sub, sizeof(sub), "%s/json", e->o.out_dir);
	if (mkdir_p(sub) || (snprintf(sub, sizeof(sub), "%s/logs", e->o.out_dir), mkdir_p(sub))) {
		fprintf(log, "experiment: cannot create %s: %s\n", sub, strerror(errno));
		return WG_EIO;
	}
	jobs = calloc(e->o.jobs, sizeof(*jobs));
	if (!jobs)
		return WG_ENOMEM;
	snprintf(csv, sizeof(csv), "%s/%s.csv", e->o.out_dir, kind);
	fprintf(log, "experiment %s: %zu kernels x %zu policies on %s (size %s), %u at a time; output in %s/\n", kind,
	        e->nkernels, e->npol, e->o.target, e->o.size, e->o.jobs, e->o.out_dir);
	fflush(log);
	while (done < total) {
		while (running < e->o.jobs && next < total) {
			unsigned slot = 0;

			while (jobs[slot].pid)
				slot++;
			jobs[slot].k = next / e->npol;
			jobs[slot].p = next % e->npol;
			clock_gettime(CLOCK_MONOTONIC, &jobs[slot].start);
			jobs[slot].pid = start_run(e, jobs[slot].k, jobs[slot].p);
			next++;
			if (jobs[slot].pid < 0) {
				struct wg_exp_result *r = &e->res[jobs[slot].k][jobs[slot].p];
				char what[256];

				snprintf(what, sizeof(what), "cannot start: %s", strerror(errno));
				snprintf(r->msg, sizeof(r->msg), "%s", what);
				r->done = 1;
				jobs[slot].pid = 0;
				done++;
				failed++;
				continue;
			}
			running++;
		}
		if (!running)
			continue;
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			fprintf(log, "experiment: waitpid: %s\n", strerror(errno));
			ret = WG_EIO;
			break;
		}
		for (unsigned s = 0; s < e->o.jobs; s++) {
			if (jobs[s].pid != pid)
				continue;
			jobs[s].pid = 0;
			running--;
			done++;
			finish_run(e, &jobs[s], status, log, done, total);
			failed += !e->res[jobs[s].k][jobs[s].p].ok;
			with_power += e->res[jobs[s].k][jobs[s].p].has_power;
			without_power += e->res[jobs[s].k][jobs[s].p].no_power;
			if (e->o.kind != WG_EXP_CTA && !with_power && without_power >= 2 && !e->stop[0]) {
				/* two programs passed and neither reported power: the target has none, every
				 * other run would fail the same way */
				snprintf(e->stop, sizeof(e->stop), "the %s target reports no 'power' object (docs/power-gating.md "
				         "section 6.3), which the %s experiment needs; --target sim does", e->o.target, kind);
				fprintf(log, "experiment %s: stopping: %s\n", kind, e->stop);
				for (; next < total; next++, done++, failed++, stopped++) {
					struct wg_exp_result *r = &e->res[next / e->npol][next % e->npol];

					snprintf(r->msg, sizeof(r->msg), "not run: %s", e->stop);
					r->done = 1;
				}
			}
			if (wg_exp_write_csv(e, csv))
				ret = WG_EIO;
			break;
		}
	}
	free(jobs);
	wg_exp_print_table(e, log);
	if (!ret && wg_exp_write_plots(e, e->o.out_dir))
		ret = WG_EIO;
	fprintf(log, "\nCSV: %s\n", csv);
	if (!ret && e->o.gnuplot) {
		if (draw(e, log)) {
			ret = WG_EIO;
		} else if (e->o.kind == WG_EXP_BET) {
			fprintf(log, "plots: %s/bet_oracle.png %s/bet_online.png (script %s/bet.gp)\n", e->o.out_dir,
			        e->o.out_dir, e->o.out_dir);
		} else if (e->o.kind == WG_EXP_CTA) {
			fprintf(log, "plots: %s/cta_active.png %s/cta_slowdown.png (script %s/cta.gp)\n", e->o.out_dir,
			        e->o.out_dir, e->o.out_dir);
		} else {
			fprintf(log, "plots: %s/simd_saved.png %s/simd_online.png %s/simd_slowdown.png (script %s/simd.gp)\n",
			        e->o.out_dir, e->o.out_dir, e->o.out_dir, e->o.out_dir);
		}
	} else if (!ret) {
		fprintf(log, "plot script: %s/%s.gp (not drawn)\n", e->o.out_dir, kind);
	}
	if (failed) {
		fprintf(log, "experiment %s: %zu of %zu runs failed", kind, failed, total);
		if (stopped)
			fprintf(log, " (%zu of them not run: %s)", stopped, e->stop);
		fputs(":\n", log);
		for (size_t k = 0; k < e->nkernels; k++)
			for (size_t p = 0; p < e->npol; p++)
				if (e->res[k][p].done && !e->res[k][p].ok && strncmp(e->res[k][p].msg, "not run:", 8))
					fprintf(log, "  %s (%s) under %s: %s\n", e->kernels[k].name, e->kernels[k].path,
					        e->pol[p].name, e->res[k][p].msg);
		if (!ret)
			ret = WG_EINVAL;
	}
	fflush(log);
	return ret;
}
