/* Shared driver code of the kernel programs (see common.h). */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void wgk_die(const struct wgk *k, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", k->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(WGK_EXIT_ERROR);
}

void wgk_check(const struct wgk *k, int ret, const char *what)
{
	const char *detail = "";

	if (ret >= 0)
		return;
	if (k->dev)
		detail = wg_last_error(k->dev);
	if (detail && *detail)
		wgk_die(k, "%s: %s: %s", what, wg_strerror(ret), detail);
	wgk_die(k, "%s: %s", what, wg_strerror(ret));
}

void *wgk_xmalloc(const struct wgk *k, size_t bytes)
{
	void *p = calloc(1, bytes ? bytes : 1);

	if (!p)
		wgk_die(k, "out of host memory (%zu bytes)", bytes);
	return p;
}

static void usage(FILE *out, const char *name, const char *text)
{
	fprintf(out,
		"usage: %s [options]\n"
		"%s\n"
		"options:\n"
		"  --target TARGET      func (default), sim (one SM), gpu (the whole GPU), board\n"
		"  --config FILE        GPU configuration file (default: built-in)\n"
		"  --size small|default problem size (small is what CI runs)\n"
		"  --n N                override the problem size\n"
		"  --seed N             input generator seed (default 1)\n"
		"  --json FILE          write the device statistics as JSON\n"
		"  --retire-log FILE    write the retire log of every warp instruction\n"
		"  --trace-fst FILE     write an FST waveform of the RTL (sim target; GTKWave opens it)\n"
		"  --option KEY=VALUE   a target option (wg_set_option), e.g. lockstep=0, mem_latency=100\n"
		"  --cta-policy NAME    CTA dispatch on the gpu target: rr, consolidate or congestion\n"
		"  --pg MODE            power gating (sim, gpu): off, normal, issue, comp or mix\n"
		"                       (docs/power-gating.md section 5; the same as --option pg=MODE)\n"
		"  --bet N              break-even time in cycles (the same as --option bet_cycles=N)\n"
		"  --dump FILE          append every array downloaded from the device to FILE (raw bytes)\n"
		"  --help               this text\n"
		"The kernel source is looked up in $WG_KERNEL_DIR, else next to the program\n"
		"(../../kernels from its directory). Exit status: 0 result correct,\n"
		"1 result differs from the CPU reference, 2 error.\n",
		name, text);
}

static uint64_t parse_u64(const struct wgk *k, const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		wgk_die(k, "%s: not a number: '%s'", opt, s);
	return v;
}

/* Path of kernels/FILE: $WG_KERNEL_DIR, WG_KERNELS_DIR, or next to the program. */
static char *kernel_path(const struct wgk *k, const char *file)
{
	const char *env = getenv("WG_KERNEL_DIR");
	char *path = NULL;
	int len;

	if (env && *env) {
		len = asprintf(&path, "%s/%s", env, file);
	} else {
#ifdef WG_KERNELS_DIR
		len = asprintf(&path, "%s/%s", WG_KERNELS_DIR, file);
#else
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		if (n > 0) {
			exe[n] = '\0';
			len = asprintf(&path, "%s/../../kernels/%s", dirname(exe), file);
		} else {
			len = asprintf(&path, "kernels/%s", file);
		}
#endif
	}
	if (len < 0)
		wgk_die(k, "out of host memory");
	return path;
}

/* Parse the command line and open the device (wgk_init without the module). */
static void init_device(struct wgk *k, const char *name, const char *text, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "config", required_argument, NULL, 'c' },
		{ "size", required_argument, NULL, 's' },
		{ "n", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'S' },
		{ "json", required_argument, NULL, 'j' },
		{ "retire-log", required_argument, NULL, 'r' },
		{ "trace-fst", required_argument, NULL, 'T' },
		{ "option", required_argument, NULL, 'O' },
		{ "cta-policy", required_argument, NULL, 'P' },
		{ "pg", required_argument, NULL, 'G' },
		{ "bet", required_argument, NULL, 'B' },
		{ "dump", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(k, 0, sizeof(*k));
	k->name = name;
	k->opt.target = "func";
	k->opt.seed = 1;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			k->opt.target = optarg;
			break;
		case 'c':
			k->opt.config = optarg;
			break;
		case 's':
			if (!strcmp(optarg, "small"))
				k->opt.small = 1;
			else if (!strcmp(optarg, "default"))
				k->opt.small = 0;
			else
				wgk_die(k, "--size: expected small or default, got '%s'", optarg);
			break;
		case 'n':
			k->opt.n = parse_u64(k, "--n", optarg);
			if (!k->opt.n)
				wgk_die(k, "--n: must be positive");
			break;
		case 'S':
			k->opt.seed = parse_u64(k, "--seed", optarg);
			break;
		case 'j':
			k->opt.json = optarg;
			break;
		case 'r':
			k->opt.retire_log = optarg;
			break;
		case 'T':
			k->opt.trace_fst = optarg;
			break;
		case 'D':
			k->opt.dump = optarg;
			break;
		case 'O':
			if (k->opt.noptions == WGK_MAX_OPTIONS)
				wgk_die(k, "--option: more than %d given", WGK_MAX_OPTIONS);
			if (!strchr(optarg, '='))
				wgk_die(k, "--option: expected KEY=VALUE, got '%s'", optarg);
			k->opt.options[k->opt.noptions++] = optarg;
			break;
		case 'P': {
			static char pol[64];

			if (strcmp(optarg, "rr") && strcmp(optarg, "consolidate") && strcmp(optarg, "congestion"))
				wgk_die(k, "--cta-policy: expected rr, consolidate or congestion, got '%s'", optarg);
			if (k->opt.noptions == WGK_MAX_OPTIONS)
				wgk_die(k, "--option: more than %d given", WGK_MAX_OPTIONS);
			snprintf(pol, sizeof(pol), "cta_policy=%s", optarg);
			k->opt.options[k->opt.noptions++] = pol;
			break;
		}
		case 'G': {
			static char pg[64];

			if (strcmp(optarg, "off") && strcmp(optarg, "normal") && strcmp(optarg, "issue") &&
			    strcmp(optarg, "comp") && strcmp(optarg, "mix"))
				wgk_die(k, "--pg: expected off, normal, issue, comp or mix, got '%s'", optarg);
			if (k->opt.noptions == WGK_MAX_OPTIONS)
				wgk_die(k, "--option: more than %d given", WGK_MAX_OPTIONS);
			snprintf(pg, sizeof(pg), "pg=%s", optarg);
			k->opt.options[k->opt.noptions++] = pg;
			break;
		}
		case 'B': {
			static char bet[64];
			uint64_t v = parse_u64(k, "--bet", optarg);

			if (!v || v > 100000)
				wgk_die(k, "--bet: expected 1..100000 cycles, got '%s'", optarg);
			if (k->opt.noptions == WGK_MAX_OPTIONS)
				wgk_die(k, "--option: more than %d given", WGK_MAX_OPTIONS);
			snprintf(bet, sizeof(bet), "bet_cycles=%llu", (unsigned long long)v);
			k->opt.options[k->opt.noptions++] = bet;
			break;
		}
		case 'h':
			usage(stdout, name, text);
			exit(WGK_EXIT_PASS);
		case ':':
			usage(stderr, name, text);
			wgk_die(k, "option '%s' needs an argument", argv[optind - 1]);
		default:
			usage(stderr, name, text);
			wgk_die(k, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		usage(stderr, name, text);
		wgk_die(k, "unexpected argument '%s'", argv[optind]);
	}

	wgk_check(k, wg_open(&k->dev, k->opt.target, k->opt.config), "wg_open");
	if (k->opt.retire_log)
		wgk_check(k, wg_set_retire_log(k->dev, k->opt.retire_log), "wg_set_retire_log");
	if (k->opt.trace_fst)
		wgk_check(k, wg_set_option(k->dev, "trace_fst", k->opt.trace_fst), "wg_set_option trace_fst");
	for (int i = 0; i < k->opt.noptions; i++)
		wgk_check(k, wg_set_option_kv(k->dev, k->opt.options[i]), "wg_set_option");
	if (k->opt.dump) {
		k->dump = fopen(k->opt.dump, "wb");
		if (!k->dump)
			wgk_die(k, "--dump: %s: %s", k->opt.dump, strerror(errno));
	}
}

/* Load kernels/FILE, FILE being printf(fmt, name). */
static void load_module(struct wgk *k, const char *fmt, const char *name)
{
	char *src, *file;

	if (asprintf(&file, fmt, name) < 0)
		wgk_die(k, "out of host memory");
	src = kernel_path(k, file);
	wgk_check(k, wg_module_load(k->dev, &k->mod, src), "wg_module_load");
	free(src);
	free(file);
}

void wgk_init(struct wgk *k, const char *name, const char *text, int argc, char **argv)
{
	init_device(k, name, text, argc, argv);
	load_module(k, "%s.s", name);
}

void wgk_init_ptx(struct wgk *k, const char *name, const char *text, int argc, char **argv)
{
	init_device(k, name, text, argc, argv);
	load_module(k, "cuda/%s.ptx", name);
}

uint64_t wgk_size(const struct wgk *k, uint64_t small, uint64_t dflt)
{
	if (k->opt.n)
		return k->opt.n;
	return k->opt.small ? small : dflt;
}

uint64_t wgk_alloc(struct wgk *k, size_t bytes)
{
	uint64_t d = 0;

	/* Zero-byte arrays still get a word, so that every pointer is valid. */
	wgk_check(k, wg_malloc(k->dev, &d, bytes ? bytes : 4), "wg_malloc");
	return d;
}

uint64_t wgk_alloc_copy(struct wgk *k, const void *src, size_t bytes)
{
	uint64_t d = wgk_alloc(k, bytes);

	if (bytes)
		wgk_upload(k, d, src, bytes);
	return d;
}

void wgk_upload(struct wgk *k, uint64_t dst, const void *src, size_t bytes)
{
	wgk_check(k, wg_memcpy_htod(k->dev, dst, src, bytes), "wg_memcpy_htod");
}

void wgk_download(struct wgk *k, void *dst, uint64_t src, size_t bytes)
{
	wgk_check(k, wg_memcpy_dtoh(k->dev, dst, src, bytes), "wg_memcpy_dtoh");
	if (k->dump && bytes && fwrite(dst, 1, bytes, k->dump) != bytes)
		wgk_die(k, "--dump: %s: %s", k->opt.dump, strerror(errno));
}

void wgk_memset(struct wgk *k, uint64_t dst, int value, size_t bytes)
{
	wgk_check(k, wg_memset(k->dev, dst, value, bytes), "wg_memset");
}

void wgk_launch(struct wgk *k, const char *kernel, wg_dim3 grid, wg_dim3 block, const void *params,
		size_t params_bytes, uint32_t dynamic_shared)
{
	double t0 = now();
	char what[96];

	snprintf(what, sizeof(what), "launch %.64s", kernel);
	wgk_check(k, wg_launch(k->dev, k->mod, kernel, grid, block, params, params_bytes, dynamic_shared), what);
	wgk_check(k, wg_synchronize(k->dev), what);
	k->seconds += now() - t0;
	k->launches++;
}

/* The number after "key": in s, searching from the "totals" object when there is one. */
static int64_t json_field(const char *s, const char *key)
{
	const char *p = strstr(s, "\"totals\"");
	size_t klen = strlen(key);
	char *end;
	long long v;

	if (p)
		s = p;
	for (p = strchr(s, '"'); p; p = strchr(p + 1, '"')) {
		if (strncmp(p + 1, key, klen) || p[1 + klen] != '"')
			continue;
		p += klen + 2;
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (*p != ':')
			continue;
		v = strtoll(p + 1, &end, 10);
		if (end == p + 1)
			return -1;
		return v;
	}
	return -1;
}

int64_t wgk_stat(struct wgk *k, const char *key)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int64_t v;

	if (!f)
		wgk_die(k, "open_memstream: %s", strerror(errno));
	wgk_check(k, wg_stats_json(k->dev, f), "wg_stats_json");
	fclose(f);
	v = buf ? json_field(buf, key) : -1;
	free(buf);
	return v;
}

void wgk_rng_init(struct wgk_rng *r, uint64_t seed, uint64_t stream)
{
	r->state = seed * 0x9e3779b97f4a7c15ull ^ (stream + 1) * 0xd1b54a32d192ed03ull;
}

uint64_t wgk_rng_u64(struct wgk_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t wgk_rng_u32(struct wgk_rng *r)
{
	return (uint32_t)(wgk_rng_u64(r) >> 32);
}

uint32_t wgk_rng_below(struct wgk_rng *r, uint32_t bound)
{
	/* Multiply-shift: bias below 2^-32, irrelevant for test inputs. */
	return (uint32_t)(((uint64_t)wgk_rng_u32(r) * bound) >> 32);
}

float wgk_rng_f32(struct wgk_rng *r, float lo, float hi)
{
	float u = (float)(wgk_rng_u32(r) >> 8) * (1.0f / 16777216.0f);

	return lo + (hi - lo) * u;
}

static void report_end(const struct wgk *k, const char *what, size_t bad, size_t n)
{
	if (bad > WGK_MAX_REPORT)
		fprintf(stderr, "%s: %s: ... %zu more\n", k->name, what, bad - WGK_MAX_REPORT);
	if (bad)
		fprintf(stderr, "%s: %s: %zu of %zu elements differ\n", k->name, what, bad, n);
}

size_t wgk_cmp_u32(const struct wgk *k, const char *what, const uint32_t *got, const uint32_t *exp, size_t n)
{
	size_t i, bad = 0;

	for (i = 0; i < n; i++) {
		if (got[i] == exp[i])
			continue;
		if (bad++ < WGK_MAX_REPORT)
			fprintf(stderr, "%s: %s[%zu]: got %" PRIu32 " (0x%08" PRIx32 "), expected %" PRIu32
				" (0x%08" PRIx32 ")\n", k->name, what, i, got[i], got[i], exp[i], exp[i]);
	}
	report_end(k, what, bad, n);
	return bad;
}

size_t wgk_cmp_i32(const struct wgk *k, const char *what, const int32_t *got, const int32_t *exp, size_t n)
{
	size_t i, bad = 0;

	for (i = 0; i < n; i++) {
		if (got[i] == exp[i])
			continue;
		if (bad++ < WGK_MAX_REPORT)
			fprintf(stderr, "%s: %s[%zu]: got %" PRId32 ", expected %" PRId32 "\n", k->name, what, i,
				got[i], exp[i]);
	}
	report_end(k, what, bad, n);
	return bad;
}

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

size_t wgk_cmp_f32(const struct wgk *k, const char *what, const float *got, const float *exp, size_t n,
		   double rtol, double atol)
{
	size_t i, bad = 0;

	for (i = 0; i < n; i++) {
		double g = got[i], e = exp[i];

		if (isnan(g) && isnan(e))
			continue;
		if (fabs(g - e) <= atol + rtol * fabs(e))
			continue;
		if (bad++ < WGK_MAX_REPORT)
			fprintf(stderr, "%s: %s[%zu]: got %.9g (0x%08" PRIx32 "), expected %.9g (0x%08" PRIx32
				"), tolerance rel %g abs %g\n", k->name, what, i, g, f32_bits(got[i]), e,
				f32_bits(exp[i]), rtol, atol);
	}
	report_end(k, what, bad, n);
	return bad;
}

size_t wgk_cmp_f32_scaled(const struct wgk *k, const char *what, const float *got, const float *exp,
			  const double *scale, size_t n, double rtol)
{
	size_t i, bad = 0;

	for (i = 0; i < n; i++) {
		double g = got[i], e = exp[i], tol = rtol * scale[i];

		if (fabs(g - e) <= tol)
			continue;
		if (bad++ < WGK_MAX_REPORT)
			fprintf(stderr, "%s: %s[%zu]: got %.9g (0x%08" PRIx32 "), expected %.9g (0x%08" PRIx32
				"), tolerance %g (rel %g of %g)\n", k->name, what, i, g, f32_bits(got[i]), e,
				f32_bits(exp[i]), tol, rtol, scale[i]);
	}
	report_end(k, what, bad, n);
	return bad;
}

static void print_stat(struct wgk *k, const char *label, const char *key)
{
	int64_t v = wgk_stat(k, key);

	if (v >= 0)
		printf(", %s=%" PRId64, label, v);
	else
		printf(", %s=?", label);
}

int wgk_finish(struct wgk *k, size_t mismatches, const char *size_fmt, ...)
{
	va_list ap;
	FILE *f;

	if (k->dump && fclose(k->dump))
		wgk_die(k, "--dump: %s: %s", k->opt.dump, strerror(errno));
	k->dump = NULL;
	if (k->opt.json) {
		f = fopen(k->opt.json, "w");
		if (!f)
			wgk_die(k, "%s: %s", k->opt.json, strerror(errno));
		wgk_check(k, wg_stats_json(k->dev, f), "wg_stats_json");
		if (fclose(f))
			wgk_die(k, "%s: %s", k->opt.json, strerror(errno));
	}

	if (mismatches)
		printf("%s: FAIL (%zu mismatches; size=", k->name, mismatches);
	else
		printf("%s: PASS (size=", k->name);
	va_start(ap, size_fmt);
	vprintf(size_fmt, ap);
	va_end(ap);
	print_stat(k, "ctas", "ctas");
	print_stat(k, "warp_insts", "inst_executed");
	printf(", seconds=%.3f)\n", k->seconds);
	fflush(stdout);

	if (k->opt.retire_log)
		wgk_check(k, wg_set_retire_log(k->dev, NULL), "wg_set_retire_log");
	if (k->mod)
		wgk_check(k, wg_module_unload(k->dev, k->mod), "wg_module_unload");
	wg_close(k->dev);
	k->dev = NULL;
	k->mod = NULL;
	return mismatches ? WGK_EXIT_MISMATCH : WGK_EXIT_PASS;
}
