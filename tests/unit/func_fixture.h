/*
 * Shared helpers of the golden-model tests (test_func_*.c, test_retire.c):
 * a global memory, a functional model with the default configuration, and
 * kernels assembled from source strings. Include after <cmocka.h>.
 */
#ifndef WG_FUNC_FIXTURE_H
#define WG_FUNC_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm.h"
#include "config.h"
#include "func.h"
#include "gmem.h"
#include "image.h"
#include "isa.h"
#include "launch.h"
#include "retire.h"
#include "stats.h"
#include "warpgate.h"

#define FX_GMEM_BYTES (64u << 20)

struct fx {
	struct wg_config cfg;
	struct wg_gmem *gmem;
	struct wg_func *func;
	struct wg_image img;
	int have_img;
	struct wg_stats st;
	struct wg_err err;
	struct wg_retire_log *log; /* passed to every launch when set */
	int rc;                    /* status of the last launch */
};

static inline int fx_setup_cfg(void **state, const struct wg_config *cfg)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	if (cfg)
		f->cfg = *cfg;
	else
		wg_config_default(&f->cfg);
	assert_int_equal(wg_gmem_create(&f->gmem, FX_GMEM_BYTES), 0);
	assert_int_equal(wg_func_create(&f->func, f->gmem, &f->cfg), 0);
	*state = f;
	return 0;
}

static inline int fx_setup(void **state)
{
	return fx_setup_cfg(state, NULL);
}

static inline int fx_teardown(void **state)
{
	struct fx *f = *state;

	if (f->log)
		wg_retire_close(f->log);
	if (f->have_img)
		wg_image_free(&f->img);
	wg_func_destroy(f->func);
	wg_gmem_destroy(f->gmem);
	free(f);
	return 0;
}

/* Assemble src (asserting success) and return its first kernel. */
static inline const struct wg_kernel *fx_asm(struct fx *f, const char *src)
{
	char *diag = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&diag, &len);
	int rc;

	assert_non_null(m);
	if (f->have_img)
		wg_image_free(&f->img);
	memset(&f->img, 0, sizeof(f->img));
	rc = wg_asm_string(&f->img, src, "test.s", m);
	fclose(m);
	if (rc) {
		print_error("assembly failed:\n%s\nsource:\n%s\n", diag ? diag : "", src);
		free(diag);
		fail();
	}
	free(diag);
	f->have_img = 1;
	assert_true(f->img.nkernels >= 1);
	return &f->img.kernels[0];
}

static inline const struct wg_kernel *fx_kernel(struct fx *f, const char *name)
{
	const struct wg_kernel *k = wg_image_find(&f->img, name);

	assert_non_null(k);
	return k;
}

/* Launch k; returns the model's status and keeps it in f->rc, statistics in f->st. */
static inline int fx_launch(struct fx *f, const struct wg_kernel *k, wg_dim3 grid, wg_dim3 block,
                            const void *params, uint32_t dyn_shared)
{
	struct wg_launch l = { 0 };

	l.kernel = k;
	l.grid = grid;
	l.block = block;
	l.params = params;
	l.dyn_shared = dyn_shared;
	l.threads_per_cta = block.x * block.y * block.z;
	l.warps_per_cta = (l.threads_per_cta + 31) / 32;
	l.ctas = (uint64_t)grid.x * grid.y * grid.z;
	memset(&f->st, 0, sizeof(f->st));
	memset(&f->err, 0, sizeof(f->err));
	f->rc = wg_func_run(f->func, &l, &f->st, f->log, &f->err);
	return f->rc;
}

/* Launch and assert success, printing the model's message otherwise. */
static inline void fx_run(struct fx *f, const struct wg_kernel *k, wg_dim3 grid, wg_dim3 block, const void *params,
                          uint32_t dyn_shared)
{
	if (fx_launch(f, k, grid, block, params, dyn_shared)) {
		print_error("launch failed (%d): %s\n", f->rc, f->err.msg);
		fail();
	}
}

static inline wg_dim3 fx_dim(uint32_t x, uint32_t y, uint32_t z)
{
	return (wg_dim3){ x, y, z };
}

static inline uint32_t fx_alloc(struct fx *f, uint64_t bytes)
{
	uint32_t a = 0;

	assert_int_equal(wg_gmem_alloc(f->gmem, bytes, &a), 0);
	return a;
}

static inline void *fx_ptr(struct fx *f, uint32_t addr, uint32_t bytes)
{
	void *p = wg_gmem_ptr(f->gmem, addr, bytes);

	assert_non_null(p);
	return p;
}

static inline uint32_t fx_upload(struct fx *f, const void *data, uint32_t bytes)
{
	uint32_t a = fx_alloc(f, bytes);

	memcpy(fx_ptr(f, a, bytes), data, bytes);
	return a;
}

/* Assert that the last launch failed with rc and a message containing every needle. */
static inline void fx_expect_error(struct fx *f, int rc, const char *const *needles)
{
	if (f->rc != rc)
		print_error("status %d, expected %d; message: %s\n", f->rc, rc, f->err.msg);
	assert_int_equal(f->rc, rc);
	for (; *needles; needles++) {
		if (!strstr(f->err.msg, *needles))
			print_error("message \"%s\" lacks \"%s\"\n", f->err.msg, *needles);
		assert_non_null(strstr(f->err.msg, *needles));
	}
}

#define FX_EXPECT_ERROR(f, rc, ...) fx_expect_error((f), (rc), (const char *const[]){ __VA_ARGS__, NULL })

/*
 * Per-lane operation harness: a kernel loads x = R1, y = R2, z = R3 from
 * three arrays (index = linear thread id), runs body, and stores R4 to out.
 * body may use R4..R9 and P0..P6. Runs one CTA of n threads (n <= 1024).
 */
struct fx_lanes_params {
	uint64_t x, y, z, out;
};

static inline void fx_lanes(struct fx *f, const char *body, unsigned n, const uint32_t *x, const uint32_t *y,
                            const uint32_t *z, uint32_t *out)
{
	static const char head[] =
		".kernel lanes\n"
		".regs 16\n"
		".param ptr x\n"
		".param ptr y\n"
		".param ptr z\n"
		".param ptr out\n"
		"    S2R R10, SR_TID.X\n"
		"    SHL R10, R10, 2\n"
		"    LDC.32 R11, [x]\n"
		"    IADD R11, R11, R10\n"
		"    LDG.32 R1, [R11]\n"
		"    LDC.32 R11, [y]\n"
		"    IADD R11, R11, R10\n"
		"    LDG.32 R2, [R11]\n"
		"    LDC.32 R11, [z]\n"
		"    IADD R11, R11, R10\n"
		"    LDG.32 R3, [R11]\n";
	static const char tail[] =
		"    LDC.32 R11, [out]\n"
		"    IADD R11, R11, R10\n"
		"    STG.32 [R11], R4\n"
		"    EXIT\n";
	size_t len = strlen(head) + strlen(body) + strlen(tail) + 2;
	char *src = malloc(len);
	struct fx_lanes_params p;
	uint32_t bytes = n * 4;
	const struct wg_kernel *k;

	assert_non_null(src);
	snprintf(src, len, "%s%s\n%s", head, body, tail);
	k = fx_asm(f, src);
	p.x = fx_upload(f, x, bytes);
	p.y = fx_upload(f, y, bytes);
	p.z = fx_upload(f, z, bytes);
	p.out = fx_alloc(f, bytes);
	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(n, 1, 1), &p, 0);
	memcpy(out, fx_ptr(f, (uint32_t)p.out, bytes), bytes);
	wg_gmem_free(f->gmem, (uint32_t)p.x);
	wg_gmem_free(f->gmem, (uint32_t)p.y);
	wg_gmem_free(f->gmem, (uint32_t)p.z);
	wg_gmem_free(f->gmem, (uint32_t)p.out);
	free(src);
}

/* One case of a table-driven operation test. */
struct fx_case {
	uint32_t x, y, z, want;
};

/* Run body over every case (one lane each) and compare R4 with want. */
static inline void fx_cases(struct fx *f, const char *body, const struct fx_case *c, unsigned n)
{
	uint32_t x[1024], y[1024], z[1024], out[1024];
	int bad = 0;

	assert_true(n <= 1024);
	for (unsigned i = 0; i < n; i++) {
		x[i] = c[i].x;
		y[i] = c[i].y;
		z[i] = c[i].z;
	}
	fx_lanes(f, body, n, x, y, z, out);
	for (unsigned i = 0; i < n; i++) {
		if (out[i] != c[i].want) {
			print_error("%s: case %u: x=0x%08x y=0x%08x z=0x%08x: got 0x%08x, want 0x%08x\n", body, i,
			            c[i].x, c[i].y, c[i].z, out[i], c[i].want);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

#define FX_CASES(f, body, arr) fx_cases((f), (body), (arr), (unsigned)(sizeof(arr) / sizeof((arr)[0])))

/* Start a retire log into a temporary file (path: at least 32 bytes) for the next launches. */
static inline void fx_log_begin(struct fx *f, char *path)
{
	int fd;

	strcpy(path, "/tmp/wg_retire_XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(wg_retire_open(&f->log, path), 0);
}

/* Close the log and return its text (free it); the file is removed. */
static inline char *fx_log_end(struct fx *f, const char *path)
{
	FILE *in;
	char *text;
	long n;

	wg_retire_close(f->log);
	f->log = NULL;
	in = fopen(path, "r");
	assert_non_null(in);
	fseek(in, 0, SEEK_END);
	n = ftell(in);
	fseek(in, 0, SEEK_SET);
	text = malloc((size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, in), (size_t)n);
	text[n] = '\0';
	fclose(in);
	unlink(path);
	return text;
}

/* One retire-log line, parsed. */
struct fx_ret {
	uint32_t cta, warp, pc, active, exec;
	char dst[16];
	const char *values; /* the rest of the line after dst, in the log text */
	int values_len;
};

/*
 * Parse the lines of (cta, warp) from a retire log without changing it
 * (comment lines skipped). Returns the number of lines found; at most max
 * are stored.
 */
static inline unsigned fx_log_lines(const char *text, uint32_t cta, uint32_t warp, struct fx_ret *r, unsigned max)
{
	unsigned n = 0;

	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		struct fx_ret x = { 0 };
		int off = 0;

		if (!end)
			end = line + strlen(line);
		if (line[0] != '#') {
			assert_true(sscanf(line, "%u %u %u %x %x %15s%n", &x.cta, &x.warp, &x.pc, &x.active, &x.exec,
			                   x.dst, &off) >= 6);
			x.values = line + off;
			if (*x.values == ' ')
				x.values++;
			x.values_len = (int)(end - x.values);
			if (x.values_len < 0)
				x.values_len = 0;
			if (x.cta == cta && x.warp == warp) {
				if (n < max)
					r[n] = x;
				n++;
			}
		}
		line = *end ? end + 1 : end;
	}
	return n;
}

/*
 * Run a test group on the interpreter the CPU selects, then again on the
 * baseline interpreter (WG_FUNC_BASELINE, read when a model is created).
 */
#define FX_RUN_BOTH(name, tests)                                                       \
	({                                                                             \
		int rc_ = cmocka_run_group_tests_name(name, tests, NULL, NULL);        \
		setenv("WG_FUNC_BASELINE", "1", 1);                                    \
		rc_ += cmocka_run_group_tests_name(name " (baseline interpreter)", tests, \
		                                   NULL, NULL);                        \
		unsetenv("WG_FUNC_BASELINE");                                          \
		rc_;                                                                   \
	})

static inline uint32_t fx_fbits(float v)
{
	uint32_t u;

	memcpy(&u, &v, 4);
	return u;
}

#endif
