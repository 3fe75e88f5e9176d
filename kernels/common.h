/*
 * Shared driver code of the kernel programs: command line, device setup,
 * error checking, input generation, result checking and the summary line.
 *
 * Every program accepts
 *   --target TARGET     func (default), sim, board, usb
 *   --config FILE       GPU configuration file (default: built-in)
 *   --size small|default  problem size; small is what CI runs
 *   --n N               override the problem size (meaning given by --help)
 *   --seed N            input generator seed (default 1)
 *   --json FILE         write the device statistics (wg_stats_json)
 *   --retire-log FILE   write the retire log (wg_set_retire_log)
 *   --trace-fst FILE    FST waveform of the RTL (wg_set_option "trace_fst")
 *   --option KEY=VALUE  any target option (wg_set_option)
 *   --dump FILE         append every array the program downloads to FILE (raw
 *                       bytes, in download order) for byte-wise comparison of
 *                       targets
 *   --help
 * and exits 0 when the result equals the CPU reference, 1 on a mismatch and
 * 2 on any error.
 */
#ifndef WGK_COMMON_H
#define WGK_COMMON_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "warpgate.h"

#define WGK_EXIT_PASS 0
#define WGK_EXIT_MISMATCH 1
#define WGK_EXIT_ERROR 2

/* Mismatches printed per checked array before the rest are only counted. */
#define WGK_MAX_REPORT 10

struct wgk_opts {
	const char *target;
	const char *config;
	const char *json;
	const char *retire_log;
	const char *trace_fst;
	const char *dump;
#define WGK_MAX_OPTIONS 16
	const char *options[WGK_MAX_OPTIONS];
	int noptions;
	int small;		/* --size small */
	uint64_t seed;
	uint64_t n;		/* --n override; 0 = the size's default */
};

struct wgk {
	const char *name;	/* program name, prefix of every message */
	struct wgk_opts opt;
	struct wg_device *dev;
	struct wg_module *mod;
	FILE *dump;		/* --dump: the downloads, or NULL */
	double seconds;		/* wall time spent in wgk_launch() */
	unsigned int launches;
};

/*
 * Parse the command line, open the device on the chosen target, set up the
 * retire log and load kernels/NAME.s. usage describes the program and what
 * --n means; it is printed by --help. Exits on any failure.
 */
void wgk_init(struct wgk *k, const char *name, const char *usage, int argc, char **argv);

/*
 * As wgk_init, but load the PTX module kernels/cuda/NAME.ptx (the CUDA
 * benchmark suite, docs/suite.md); wg_module_load translates it.
 */
void wgk_init_ptx(struct wgk *k, const char *name, const char *usage, int argc, char **argv);

/* Problem size: --n when given, else small or dflt depending on --size. */
uint64_t wgk_size(const struct wgk *k, uint64_t small, uint64_t dflt);

/* Print "NAME: error: ..." and exit 2. */
void wgk_die(const struct wgk *k, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* Exit 2 with wg_strerror(ret) and wg_last_error() when ret < 0. */
void wgk_check(const struct wgk *k, int ret, const char *what);

/* Checked wrappers of the API. */
void *wgk_xmalloc(const struct wgk *k, size_t bytes);	/* host memory, zeroed */
uint64_t wgk_alloc(struct wgk *k, size_t bytes);	/* device memory */
uint64_t wgk_alloc_copy(struct wgk *k, const void *src, size_t bytes);
void wgk_upload(struct wgk *k, uint64_t dst, const void *src, size_t bytes);
void wgk_download(struct wgk *k, void *dst, uint64_t src, size_t bytes);
void wgk_memset(struct wgk *k, uint64_t dst, int value, size_t bytes);

/* Launch one kernel of the module and wait for it; the time is accumulated. */
void wgk_launch(struct wgk *k, const char *kernel, wg_dim3 grid, wg_dim3 block, const void *params,
		size_t params_bytes, uint32_t dynamic_shared);

/* A value of the statistics' "totals" object (e.g. "inst_executed"); -1 if absent. */
int64_t wgk_stat(struct wgk *k, const char *key);

/* CTAs needed to cover n threads with blocks of block threads. */
static inline uint32_t wgk_div_up(uint64_t n, uint32_t block)
{
	return (uint32_t)((n + block - 1) / block);
}

/* Deterministic input generator: splitmix64. */
struct wgk_rng {
	uint64_t state;
};

void wgk_rng_init(struct wgk_rng *r, uint64_t seed, uint64_t stream);
uint64_t wgk_rng_u64(struct wgk_rng *r);
uint32_t wgk_rng_u32(struct wgk_rng *r);
uint32_t wgk_rng_below(struct wgk_rng *r, uint32_t bound);	/* uniform in [0, bound) */
float wgk_rng_f32(struct wgk_rng *r, float lo, float hi);	/* uniform in [lo, hi) */

/*
 * Compare got against the reference exp; print the first mismatches as
 * "NAME: WHAT[i]: got G, expected E" and return how many there are.
 * Floats match when |got - exp| <= atol + rtol * |exp| (NaN matches NaN).
 */
size_t wgk_cmp_u32(const struct wgk *k, const char *what, const uint32_t *got, const uint32_t *exp, size_t n);
size_t wgk_cmp_i32(const struct wgk *k, const char *what, const int32_t *got, const int32_t *exp, size_t n);
size_t wgk_cmp_f32(const struct wgk *k, const char *what, const float *got, const float *exp, size_t n,
		   double rtol, double atol);

/*
 * As wgk_cmp_f32 for results that are sums with cancellation: element i
 * matches when |got - exp| <= rtol * scale[i], scale[i] being the sum of the
 * magnitudes of the terms (computed by the reference). NaN never matches.
 */
size_t wgk_cmp_f32_scaled(const struct wgk *k, const char *what, const float *got, const float *exp,
			  const double *scale, size_t n, double rtol);

/*
 * Write the statistics file when asked, print the summary
 * "NAME: PASS (size=SIZE, ctas=..., warp_insts=..., seconds=...)" (FAIL with
 * the mismatch count otherwise), close the device and return the exit code.
 */
int wgk_finish(struct wgk *k, size_t mismatches, const char *size_fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
