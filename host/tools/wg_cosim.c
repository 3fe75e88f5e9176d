/*
 * wg-cosim: constrained-random co-simulation (docs/cosim.md).
 *
 *   wg-cosim --seeds N --seed0 S [--target sim|func] [--keep DIR]
 *   wg-cosim --replay DIR/rkN.launch [--target sim|func]
 *
 * For every seed: generate a kernel and its launch (rkgen), run it on the
 * golden model alone for the reference memory image, then on the target
 * with lockstep comparison, and compare the final images of the output
 * buffers. --target func (the default until the RTL exists) checks a second
 * golden model stepping warps of several CTAs one instruction at a time in
 * a random order; --target sim runs the RTL through libwarpgate's "sim"
 * target with its lockstep option on. The last line is always
 * "cosim: N passed, M failed"; a failing seed's kernel and launch are kept
 * in DIR (default cosim-fail) for --replay.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "asm.h"
#include "config.h"
#include "func.h"
#include "gmem.h"
#include "image.h"
#include "launch.h"
#include "lockstep.h"
#include "rkgen.h"
#include "warpgate.h"

#define GMEM_BYTES (256u << 20)

struct opts {
	uint64_t seeds, seed0;
	const char *target;
	const char *keep;
	const char *replay;
	const char *config;
	const char *retire_log;
	uint32_t resident;
	int verbose;
	const char *options[16]; /* --option KEY=VALUE, device targets */
	unsigned noptions;
};

struct image {
	uint64_t addr[WG_RK_MAXBUF];
	uint8_t *data[WG_RK_MAXBUF];
};

static void image_free(struct image *im, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(im->data[i]);
}

/* Allocate and fill the buffers of rk in g, in order. */
static int setup_gmem(const struct wg_rk *rk, struct wg_gmem *g, uint64_t *addr)
{
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		uint32_t a;
		int rc = wg_gmem_alloc(g, rk->bufs[i].bytes, &a);

		if (rc)
			return rc;
		addr[i] = a;
		wg_rk_fill(&rk->bufs[i], wg_gmem_ptr(g, a, rk->bufs[i].bytes));
	}
	return 0;
}

static int snapshot(const struct wg_rk *rk, struct wg_gmem *g, const uint64_t *addr, struct image *im)
{
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		im->addr[i] = addr[i];
		im->data[i] = malloc(rk->bufs[i].bytes + 1);
		if (!im->data[i])
			return WG_ENOMEM;
		memcpy(im->data[i], wg_gmem_ptr(g, (uint32_t)addr[i], rk->bufs[i].bytes), rk->bufs[i].bytes);
	}
	return 0;
}

static void make_launch(const struct wg_rk *rk, const struct wg_kernel *k, const uint8_t *params, struct wg_launch *l)
{
	memset(l, 0, sizeof(*l));
	l->kernel = k;
	l->grid = rk->grid;
	l->block = rk->block;
	l->params = params;
	l->dyn_shared = rk->dyn_shared;
	l->threads_per_cta = rk->block.x * rk->block.y * rk->block.z;
	l->warps_per_cta = (l->threads_per_cta + 31) / 32;
	l->ctas = (uint64_t)rk->grid.x * rk->grid.y * rk->grid.z;
}

/* The reference image: the golden model alone, on fresh memory. */
static int reference(const struct wg_rk *rk, const struct wg_kernel *k, const struct wg_config *cfg,
                     struct image *ref, char *msg, size_t len)
{
	struct wg_gmem *g = NULL;
	struct wg_func *f = NULL;
	struct wg_launch l;
	struct wg_stats st = { 0 };
	struct wg_err err = { { 0 } };
	uint64_t addr[WG_RK_MAXBUF];
	uint8_t params[64];
	int rc;

	rc = wg_gmem_create(&g, GMEM_BYTES);
	if (!rc)
		rc = wg_func_create(&f, g, cfg);
	if (!rc)
		rc = setup_gmem(rk, g, addr);
	if (rc) {
		snprintf(msg, len, "reference set-up: %s", wg_strerror(rc));
		goto out;
	}
	wg_rk_params(rk, addr, params);
	make_launch(rk, k, params, &l);
	rc = wg_func_run(f, &l, &st, NULL, &err);
	if (rc) {
		snprintf(msg, len, "golden model: %s", err.msg);
		goto out;
	}
	rc = snapshot(rk, g, addr, ref);
out:
	wg_func_destroy(f);
	wg_gmem_destroy(g);
	return rc;
}

/* Compare the output buffers; 0 when equal. */
static int compare(const struct wg_rk *rk, const struct image *ref, const struct image *got, char *msg, size_t len)
{
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		const struct wg_rk_buf *b = &rk->bufs[i];

		if (ref->addr[i] != got->addr[i]) {
			snprintf(msg, len, "buffer %s at 0x%08llx on the target, 0x%08llx in the reference", b->name,
			         (unsigned long long)got->addr[i], (unsigned long long)ref->addr[i]);
			return 1;
		}
		for (uint32_t o = 0; o < b->bytes; o += 4) {
			uint32_t x = 0, y = 0, n = b->bytes - o < 4 ? b->bytes - o : 4;

			memcpy(&x, ref->data[i] + o, n);
			memcpy(&y, got->data[i] + o, n);
			if (x != y) {
				snprintf(msg, len, "end of run: %s[%u] (0x%08llx) is %08x, the golden model's run gives %08x",
				         b->name, o / 4, (unsigned long long)(ref->addr[i] + o), y, x);
				return 1;
			}
		}
	}
	return 0;
}

/* --target func: a golden model in random interleaved order, in lockstep with another. */
static int run_func(const struct opts *o, const struct wg_rk *rk, const struct wg_kernel *k,
                    const struct wg_config *cfg, struct image *got, uint64_t *checked, char *msg, size_t len)
{
	struct wg_gmem *g = NULL;
	struct wg_func *dut = NULL, *ref = NULL;
	struct wg_retire_log *log = NULL;
	struct wg_launch l;
	struct wg_stats st = { 0 };
	struct wg_err err = { { 0 } };
	struct wg_selfcheck_opts so = { 0 };
	uint64_t addr[WG_RK_MAXBUF];
	uint8_t params[64];
	int rc;

	rc = wg_gmem_create(&g, GMEM_BYTES);
	if (!rc)
		rc = wg_func_create(&dut, g, cfg);
	if (!rc)
		rc = wg_func_create(&ref, g, cfg);
	if (!rc)
		rc = setup_gmem(rk, g, addr);
	if (!rc && o->retire_log)
		rc = wg_retire_open(&log, o->retire_log);
	if (rc) {
		snprintf(msg, len, "set-up: %s", wg_strerror(rc));
		goto out;
	}
	wg_rk_params(rk, addr, params);
	make_launch(rk, k, params, &l);
	so.seed = rk->seed * 7919 + 1;
	so.resident_ctas = o->resident;
	rc = wg_lockstep_selfcheck(dut, ref, &l, &so, &st, log, &err);
	if (rc) {
		snprintf(msg, len, "%s", err.msg);
		goto out;
	}
	*checked = st.warp_insts;
	rc = snapshot(rk, g, addr, got);
out:
	wg_retire_close(log);
	wg_func_destroy(dut);
	wg_func_destroy(ref);
	wg_gmem_destroy(g);
	return rc;
}

/* --target sim (or any device target): through the public API with lockstep on. */
static int run_device(const struct opts *o, const struct wg_rk *rk, struct image *got, uint64_t *checked, char *msg,
                      size_t len)
{
	struct wg_device *dev = NULL;
	struct wg_module *mod = NULL;
	uint64_t addr[WG_RK_MAXBUF] = { 0 };
	uint8_t params[64];
	char path[] = "/tmp/wg_cosim_XXXXXX.s";
	int fd, rc;
	FILE *f;

	fd = mkstemps(path, 2);
	if (fd < 0) {
		snprintf(msg, len, "cannot create a temporary file: %s", strerror(errno));
		return WG_EIO;
	}
	f = fdopen(fd, "w");
	if (!f || fputs(rk->src, f) < 0 || fclose(f)) {
		snprintf(msg, len, "cannot write %s", path);
		unlink(path);
		return WG_EIO;
	}
	rc = wg_open(&dev, o->target, o->config);
	if (rc) {
		snprintf(msg, len, "cannot open target '%s': %s", o->target, wg_strerror(rc));
		goto out;
	}
	rc = wg_set_option(dev, "lockstep", "1");
	for (unsigned i = 0; !rc && i < o->noptions; i++) {
		rc = wg_set_option_kv(dev, o->options[i]);
		if (rc) {
			snprintf(msg, len, "--option %s: %s", o->options[i],
			         *wg_last_error(dev) ? wg_last_error(dev) : wg_strerror(rc));
			goto out;
		}
	}
	if (!rc && o->retire_log)
		rc = wg_set_retire_log(dev, o->retire_log);
	if (!rc)
		rc = wg_module_load(dev, &mod, path);
	for (uint32_t i = 0; !rc && i < rk->nbufs; i++) {
		uint8_t *init = malloc(rk->bufs[i].bytes + 1);

		if (!init) {
			rc = WG_ENOMEM;
			break;
		}
		wg_rk_fill(&rk->bufs[i], init);
		rc = wg_malloc(dev, &addr[i], rk->bufs[i].bytes);
		if (!rc)
			rc = wg_memcpy_htod(dev, addr[i], init, rk->bufs[i].bytes);
		free(init);
	}
	if (!rc) {
		wg_rk_params(rk, addr, params);
		rc = wg_launch(dev, mod, rk->name, rk->grid, rk->block, params, rk->param_bytes, rk->dyn_shared);
		if (!rc)
			rc = wg_synchronize(dev);
	}
	if (rc) {
		snprintf(msg, len, "%s", *wg_last_error(dev) ? wg_last_error(dev) : wg_strerror(rc));
		goto out;
	}
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		got->addr[i] = addr[i];
		got->data[i] = malloc(rk->bufs[i].bytes + 1);
		if (!got->data[i]) {
			rc = WG_ENOMEM;
			goto out;
		}
		rc = wg_memcpy_dtoh(dev, got->data[i], addr[i], rk->bufs[i].bytes);
		if (rc)
			goto out;
	}
	*checked = 0;
out:
	wg_close(dev);
	unlink(path);
	return rc;
}

/*
 * One kernel; 0 passed, 1 failed (message in msg), 2 skipped: the device's set-up
 * chosen with --option cannot hold the kernel's CTA (WG_ELAUNCH, message in msg).
 */
static int run_one(const struct opts *o, const struct wg_rk *rk, const struct wg_config *cfg, char *msg, size_t len,
                   uint64_t *checked)
{
	struct wg_image img = { 0 };
	struct image ref, got;
	const struct wg_kernel *k;
	char *diag = NULL;
	size_t dlen = 0;
	FILE *m = open_memstream(&diag, &dlen);
	int rc, failed = 1;

	memset(&ref, 0, sizeof(ref));
	memset(&got, 0, sizeof(got));

	if (!m) {
		snprintf(msg, len, "out of memory");
		return 1;
	}
	rc = wg_asm_string(&img, rk->src, rk->name, m);
	fclose(m);
	if (rc) {
		snprintf(msg, len, "assembly failed: %s", diag ? diag : "");
		goto out;
	}
	k = wg_image_find(&img, rk->name);
	if (!k) {
		snprintf(msg, len, "no kernel %s in the source", rk->name);
		goto out;
	}
	if (reference(rk, k, cfg, &ref, msg, len))
		goto out;
	if (!strcmp(o->target, "func"))
		rc = run_func(o, rk, k, cfg, &got, checked, msg, len);
	else
		rc = run_device(o, rk, &got, checked, msg, len);
	if (rc == WG_ELAUNCH && o->noptions) {
		failed = 2;
		goto out;
	}
	if (rc)
		goto out;
	failed = compare(rk, &ref, &got, msg, len);
out:
	free(diag);
	image_free(&ref, rk->nbufs);
	image_free(&got, rk->nbufs);
	wg_image_free(&img);
	return failed;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: wg-cosim --seeds N [--seed0 S] [--target func|sim] [--keep DIR]\n"
		"       wg-cosim --replay DIR/rkN.launch [--target func|sim]\n"
		"Runs N constrained-random kernels (seeds S..S+N-1) in lockstep with the golden\n"
		"model and compares the final memory with a golden-model run. Options:\n"
		"  --target T       func (self-check: interleaved golden model) or sim (the RTL)\n"
		"  --keep DIR       where failing kernels are kept (default cosim-fail)\n"
		"  --config FILE    GPU configuration\n"
		"  --resident N     CTAs in flight in the func self-check (default 4)\n"
		"  --retire-log F   retire log of the device under test\n"
		"  --option K=V     a target option of the device under test (sim), e.g.\n"
		"                   l1_mode=fermi, l1_split=48, sched=gto, mem_latency=100;\n"
		"                   may be repeated\n"
		"  --verbose        one line per seed\n"
		"Ends with \"cosim: N passed, M failed\"; exit status 0 when none failed.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seeds", required_argument, NULL, 'n' },   { "seed0", required_argument, NULL, 's' },
		{ "target", required_argument, NULL, 't' },  { "keep", required_argument, NULL, 'k' },
		{ "replay", required_argument, NULL, 'r' },  { "config", required_argument, NULL, 'c' },
		{ "resident", required_argument, NULL, 'R' }, { "retire-log", required_argument, NULL, 'l' },
		{ "verbose", no_argument, NULL, 'v' },        { "help", no_argument, NULL, 'h' },
		{ "option", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .seeds = 1, .seed0 = 1, .target = "func", .keep = "cosim-fail", .resident = 4 };
	struct wg_config cfg;
	uint64_t passed = 0, failed = 0, skipped = 0, insts = 0;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': o.seeds = strtoull(optarg, NULL, 0); break;
		case 's': o.seed0 = strtoull(optarg, NULL, 0); break;
		case 't': o.target = optarg; break;
		case 'k': o.keep = optarg; break;
		case 'r': o.replay = optarg; break;
		case 'c': o.config = optarg; break;
		case 'R': o.resident = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'l': o.retire_log = optarg; break;
		case 'v': o.verbose = 1; break;
		case 'o':
			if (o.noptions == sizeof(o.options) / sizeof(o.options[0]) || !strchr(optarg, '=')) {
				fprintf(stderr, "wg-cosim: --option '%s': expected KEY=VALUE (at most %zu options)\n", optarg,
				        sizeof(o.options) / sizeof(o.options[0]));
				return 2;
			}
			o.options[o.noptions++] = optarg;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (o.noptions && !strcmp(o.target, "func")) {
		fprintf(stderr, "wg-cosim: --option applies to a device target (--target sim), not to the func self-check\n");
		return 2;
	}
	wg_config_default(&cfg);
	if (o.config) {
		char msg[512];

		if (wg_config_load(&cfg, o.config, msg, sizeof(msg))) {
			fprintf(stderr, "wg-cosim: %s\n", msg);
			return 2;
		}
	}
	if (o.replay)
		o.seeds = 1;
	for (uint64_t i = 0; i < o.seeds; i++) {
		struct wg_rk rk;
		char msg[1024] = "";
		uint64_t checked = 0;
		int rc;

		if (o.replay)
			rc = wg_rk_load(&rk, o.replay, msg, sizeof(msg));
		else
			rc = wg_rkgen(&rk, o.seed0 + i);
		if (rc) {
			fprintf(stderr, "wg-cosim: %s\n", msg[0] ? msg : wg_strerror(rc));
			failed++;
			continue;
		}
		rc = run_one(&o, &rk, &cfg, msg, sizeof(msg), &checked);
		if (rc == 2) {
			skipped++;
			if (o.verbose)
				printf("cosim: seed %llu skipped: %s\n", (unsigned long long)rk.seed, msg);
		} else if (rc) {
			char path[4096] = "";

			failed++;
			if (!o.replay) {
				mkdir(o.keep, 0777);
				if (wg_rk_save(&rk, o.keep, path, sizeof(path)))
					snprintf(path, sizeof(path), "(cannot write to %s)", o.keep);
			}
			printf("cosim: seed %llu FAIL: %s\n", (unsigned long long)rk.seed, msg);
			if (path[0])
				printf("cosim: seed %llu kept: replay with wg-cosim --replay %s --target %s\n",
				       (unsigned long long)rk.seed, path, o.target);
		} else {
			passed++;
			insts += checked;
			if (o.verbose)
				printf("cosim: seed %llu ok (grid %u %u %u, block %u %u %u, %llu warp instructions)\n",
				       (unsigned long long)rk.seed, rk.grid.x, rk.grid.y, rk.grid.z, rk.block.x,
				       rk.block.y, rk.block.z, (unsigned long long)checked);
		}
		fflush(stdout);
		wg_rk_free(&rk);
	}
	if (skipped)
		printf("cosim: %llu passed, %llu failed, %llu skipped (launch does not fit the set-up of --option)\n",
		       (unsigned long long)passed, (unsigned long long)failed, (unsigned long long)skipped);
	else
		printf("cosim: %llu passed, %llu failed\n", (unsigned long long)passed, (unsigned long long)failed);
	return failed ? 1 : 0;
}
