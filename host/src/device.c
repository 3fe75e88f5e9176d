/* libwarpgate: the device layer behind host/include/warpgate.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm.h"
#include "ptx.h"
#include "config.h"
#include "device.h"
#include "gmem.h"
#include "image.h"
#include "json.h"
#include "launch.h"
#include "log.h"
#include "retire.h"
#include "dispatch.h"
#include "stats.h"
#include "target.h"
#include "warpgate.h"

const struct wg_target_ops *const wg_targets[] = { &wg_target_func, &wg_target_sim, &wg_target_gpu, &wg_target_board,
                                                   &wg_target_usb, NULL };

struct wg_module {
	struct wg_device *dev;
	struct wg_image img;
	char path[1024];
	struct wg_module *next;
};

/* Statistics of one completed launch, kept for the JSON report. */
struct launch_rec {
	char kernel[WG_NAME_MAX];
	wg_dim3 grid, block;
	uint32_t dyn_shared;
	uint32_t regs, shared_bytes, local_bytes; /* of the kernel image; shared: static + dynamic */
	struct wg_occupancy occ;                  /* one SM's occupancy under the device's configuration */
	int status;
	struct wg_stats stats;
};

struct wg_device {
	const struct wg_target_ops *ops;
	void *priv;
	struct wg_config cfg;
	char config_path[1024];
	struct wg_gmem *gmem;
	struct wg_retire_log *retire;
	struct wg_module *modules;
	struct wg_stats totals;
	struct launch_rec *launches;
	size_t nlaunches, cap_launches;
	int sticky; /* first launch error not yet reported by wg_synchronize */
	char last_error[1024];
};

static const char *const error_names[] = {
	[0] = "success",
	[-WG_EINVAL] = "invalid argument",
	[-WG_ENOMEM] = "out of memory",
	[-WG_ENOENT] = "not found",
	[-WG_EIO] = "input/output error",
	[-WG_ESYNTAX] = "assembly syntax error",
	[-WG_EFORMAT] = "malformed kernel image",
	[-WG_EILLEGAL] = "illegal instruction",
	[-WG_EFAULT] = "memory access fault",
	[-WG_EDEADLOCK] = "barrier deadlock",
	[-WG_ETARGET] = "unknown or unavailable target",
	[-WG_ECONFIG] = "bad configuration",
	[-WG_ELAUNCH] = "launch configuration does not fit",
	[-WG_ENOTSUP] = "not supported by this target",
	[-WG_ETIMEOUT] = "timed out",
	[-WG_ELINK] = "link failure",
	[-WG_EMISMATCH] = "co-simulation mismatch",
};

const char *wg_strerror(int err)
{
	if (err > 0 || err < WG_ERROR_MIN)
		return "unknown error";
	return error_names[-err];
}

static int fail(struct wg_device *dev, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct wg_device *dev, int rc, const char *fmt, ...)
{
	va_list ap;

	if (dev) {
		va_start(ap, fmt);
		vsnprintf(dev->last_error, sizeof(dev->last_error), fmt, ap);
		va_end(ap);
		wg_dbg("%s", dev->last_error);
	}
	return rc;
}

const char *wg_last_error(struct wg_device *dev)
{
	return dev ? dev->last_error : "";
}

const char *wg_target_name(struct wg_device *dev)
{
	return dev && dev->ops ? dev->ops->name : "";
}

int wg_open(struct wg_device **devp, const char *target, const char *config)
{
	struct wg_device *dev;
	struct wg_err err = { { 0 } };
	char msg[512];
	int rc;

	if (!devp)
		return WG_EINVAL;
	*devp = NULL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return WG_ENOMEM;
	if (!target)
		target = "func";
	for (const struct wg_target_ops *const *t = wg_targets; *t; t++)
		if (!strcmp((*t)->name, target))
			dev->ops = *t;
	if (!dev->ops) {
		char names[128] = "";
		for (const struct wg_target_ops *const *t = wg_targets; *t; t++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", t == wg_targets ? "" : ", ",
			         (*t)->name);
		rc = WG_ETARGET;
		wg_err("unknown target '%s' (this build has: %s)", target, names);
		goto err_free;
	}
	wg_config_default(&dev->cfg);
	if (config) {
		rc = wg_config_load(&dev->cfg, config, msg, sizeof(msg));
		if (rc) {
			wg_err("%s", msg);
			goto err_free;
		}
		snprintf(dev->config_path, sizeof(dev->config_path), "%s", config);
	}
	rc = wg_gmem_create(&dev->gmem, dev->cfg.global_mem_bytes);
	if (rc) {
		wg_err("cannot reserve %llu bytes of device memory", (unsigned long long)dev->cfg.global_mem_bytes);
		goto err_free;
	}
	rc = dev->ops->create(&dev->priv, dev->gmem, &dev->cfg, &err);
	if (rc) {
		wg_err("target '%s': %s", target, err.msg);
		goto err_gmem;
	}
	*devp = dev;
	return 0;

err_gmem:
	wg_gmem_destroy(dev->gmem);
err_free:
	free(dev);
	return rc;
}

void wg_close(struct wg_device *dev)
{
	if (!dev)
		return;
	while (dev->modules)
		wg_module_unload(dev, dev->modules);
	if (dev->retire)
		wg_retire_close(dev->retire);
	dev->ops->destroy(dev->priv);
	wg_gmem_destroy(dev->gmem);
	free(dev->launches);
	free(dev);
}

int wg_malloc(struct wg_device *dev, uint64_t *dptr, size_t bytes)
{
	uint32_t addr;
	int rc;

	if (!dev || !dptr)
		return WG_EINVAL;
	rc = wg_gmem_alloc(dev->gmem, bytes, &addr);
	if (rc)
		return fail(dev, rc, "wg_malloc of %zu bytes: %s (in use %llu of %llu bytes)", bytes, wg_strerror(rc),
		            (unsigned long long)wg_gmem_in_use(dev->gmem),
		            (unsigned long long)dev->cfg.global_mem_bytes);
	*dptr = addr;
	return 0;
}

int wg_free(struct wg_device *dev, uint64_t dptr)
{
	int rc;

	if (!dev)
		return WG_EINVAL;
	if (!dptr)
		return 0; /* as cudaFree(NULL) */
	if (dptr > UINT32_MAX)
		return fail(dev, WG_EINVAL, "wg_free: 0x%llx is not a device address", (unsigned long long)dptr);
	rc = wg_gmem_free(dev->gmem, (uint32_t)dptr);
	if (rc)
		return fail(dev, rc, "wg_free: 0x%08llx is not the start of a live allocation",
		            (unsigned long long)dptr);
	return 0;
}

/* Host pointer for a whole device range, or NULL with last_error set. */
static uint8_t *device_range(struct wg_device *dev, const char *what, uint64_t addr, size_t bytes)
{
	uint8_t *p = NULL;

	if (addr <= UINT32_MAX && bytes <= UINT32_MAX && addr + bytes <= (uint64_t)UINT32_MAX + 1)
		p = wg_gmem_ptr(dev->gmem, (uint32_t)addr, (uint32_t)bytes);
	if (!p)
		fail(dev, WG_EFAULT, "%s: device range 0x%08llx..+%zu is not inside one allocation", what,
		     (unsigned long long)addr, bytes);
	return p;
}

int wg_memcpy_htod(struct wg_device *dev, uint64_t dst, const void *src, size_t bytes)
{
	uint8_t *p;

	if (!dev || (!src && bytes))
		return WG_EINVAL;
	if (!bytes)
		return 0;
	p = device_range(dev, "wg_memcpy_htod", dst, bytes);
	if (!p)
		return WG_EFAULT;
	memcpy(p, src, bytes);
	return 0;
}

int wg_memcpy_dtoh(struct wg_device *dev, void *dst, uint64_t src, size_t bytes)
{
	uint8_t *p;

	if (!dev || (!dst && bytes))
		return WG_EINVAL;
	if (!bytes)
		return 0;
	p = device_range(dev, "wg_memcpy_dtoh", src, bytes);
	if (!p)
		return WG_EFAULT;
	memcpy(dst, p, bytes);
	return 0;
}

int wg_memset(struct wg_device *dev, uint64_t dst, int value, size_t bytes)
{
	uint8_t *p;

	if (!dev)
		return WG_EINVAL;
	if (!bytes)
		return 0;
	p = device_range(dev, "wg_memset", dst, bytes);
	if (!p)
		return WG_EFAULT;
	memset(p, value, bytes);
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* PTX by content: a .version directive first (docs/ptx.md). */
static int is_ptx_file(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return wg_ptx_sniff(buf, n);
}

int wg_module_load(struct wg_device *dev, struct wg_module **modp, const char *path)
{
	struct wg_module *mod;
	int rc;

	if (!dev || !modp || !path)
		return WG_EINVAL;
	*modp = NULL;
	mod = calloc(1, sizeof(*mod));
	if (!mod)
		return WG_ENOMEM;
	snprintf(mod->path, sizeof(mod->path), "%s", path);
	if (ends_with(path, ".wgk")) {
		rc = wg_image_read(&mod->img, path, dev->last_error, sizeof(dev->last_error));
	} else if (ends_with(path, ".s") || ends_with(path, ".ptx") || is_ptx_file(path)) {
		int ptx = ends_with(path, ".ptx") || is_ptx_file(path);
		char *diag = NULL;
		size_t diaglen = 0;
		FILE *mf = open_memstream(&diag, &diaglen);

		if (!mf) {
			rc = WG_ENOMEM;
			goto err_free;
		}
		if (ptx)
			rc = wg_ptx_translate_file(path, NULL, &mod->img, mf);
		else
			rc = wg_asm_file(&mod->img, path, mf);
		fclose(mf);
		if (diaglen && diag[diaglen - 1] == '\n')
			diag[diaglen - 1] = '\0';
		if (rc)
			fail(dev, rc, "%s", diag && diag[0] ? diag : path);
		else if (diaglen)
			wg_warn("%s", diag);
		free(diag);
	} else {
		rc = fail(dev, WG_EINVAL, "%s: unknown module type, expected .s, .ptx (or PTX text) or .wgk", path);
	}
	if (rc)
		goto err_free;
	mod->dev = dev;
	mod->next = dev->modules;
	dev->modules = mod;
	*modp = mod;
	return 0;

err_free:
	wg_image_free(&mod->img);
	free(mod);
	return rc;
}

const struct wg_image *wg_module_image(const struct wg_module *mod)
{
	return &mod->img;
}

const struct wg_config *wg_device_config(const struct wg_device *dev)
{
	return &dev->cfg;
}

int wg_module_unload(struct wg_device *dev, struct wg_module *mod)
{
	struct wg_module **pp;

	if (!dev || !mod)
		return WG_EINVAL;
	for (pp = &dev->modules; *pp && *pp != mod; pp = &(*pp)->next)
		;
	if (!*pp)
		return fail(dev, WG_EINVAL, "wg_module_unload: module not loaded on this device");
	*pp = mod->next;
	wg_image_free(&mod->img);
	free(mod);
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int check_launch(struct wg_device *dev, const struct wg_kernel *k, struct wg_launch *l, size_t params_bytes)
{
	const struct wg_config *c = &dev->cfg;
	uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;

	if (!l->grid.x || !l->grid.y || !l->grid.z || !l->block.x || !l->block.y || !l->block.z)
		return fail(dev, WG_ELAUNCH, "kernel '%s': grid (%u,%u,%u) and block (%u,%u,%u) must be non-zero",
		            k->name, l->grid.x, l->grid.y, l->grid.z, l->block.x, l->block.y, l->block.z);
	if (l->grid.x > 0x7FFFFFFFu || l->grid.y > 65535 || l->grid.z > 65535)
		return fail(dev, WG_ELAUNCH, "kernel '%s': grid (%u,%u,%u) exceeds (2^31-1, 65535, 65535)", k->name,
		            l->grid.x, l->grid.y, l->grid.z);
	if (threads > c->max_threads_per_cta)
		return fail(dev, WG_ELAUNCH, "kernel '%s': block (%u,%u,%u) has %llu threads, the limit is %u",
		            k->name, l->block.x, l->block.y, l->block.z, (unsigned long long)threads,
		            c->max_threads_per_cta);
	if (params_bytes != k->param_bytes)
		return fail(dev, WG_EINVAL, "kernel '%s': expects %u parameter bytes, got %zu", k->name,
		            k->param_bytes, params_bytes);
	if ((uint64_t)k->shared_bytes + l->dyn_shared > c->shmem_bytes)
		return fail(dev, WG_ELAUNCH,
		            "kernel '%s': %u static + %u dynamic shared bytes exceed the %u bytes per SM", k->name,
		            k->shared_bytes, l->dyn_shared, c->shmem_bytes);
	l->threads_per_cta = (uint32_t)threads;
	l->warps_per_cta = (uint32_t)((threads + 31) / 32);
	l->ctas = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
	return 0;
}

static int record_launch(struct wg_device *dev, const struct wg_launch *l, int status, const struct wg_stats *st)
{
	struct launch_rec *r;

	if (dev->nlaunches == dev->cap_launches) {
		size_t cap = dev->cap_launches ? 2 * dev->cap_launches : 16;
		struct launch_rec *n = realloc(dev->launches, cap * sizeof(*n));
		if (!n)
			return WG_ENOMEM;
		dev->launches = n;
		dev->cap_launches = cap;
	}
	r = &dev->launches[dev->nlaunches++];
	snprintf(r->kernel, sizeof(r->kernel), "%s", l->kernel->name);
	r->grid = l->grid;
	r->block = l->block;
	r->dyn_shared = l->dyn_shared;
	r->regs = l->kernel->regs;
	r->shared_bytes = l->kernel->shared_bytes + l->dyn_shared;
	r->local_bytes = l->kernel->local_bytes;
	{
		struct wg_dispatch_kernel dk = { l->threads_per_cta, l->kernel->regs, r->shared_bytes };
		char err[256];

		/* A launch that passed check_launch fits; on failure occ.ctas is 0. */
		if (wg_dispatch_occupancy(&dev->cfg, &dk, &r->occ, err, sizeof(err)))
			r->occ.ctas = 0;
	}
	r->status = status;
	r->stats = *st;
	wg_stats_add(&dev->totals, st);
	return 0;
}

int wg_launch(struct wg_device *dev, struct wg_module *mod, const char *kernel, wg_dim3 grid, wg_dim3 block,
              const void *params, size_t params_bytes, uint32_t dynamic_shared_bytes)
{
	struct wg_launch l = { 0 };
	struct wg_stats st;
	struct wg_err err = { { 0 } };
	const struct wg_kernel *k;
	double t0;
	int rc;

	if (!dev || !mod || !kernel || (params_bytes && !params))
		return WG_EINVAL;
	if (mod->dev != dev)
		return fail(dev, WG_EINVAL, "wg_launch: module '%s' belongs to another device", mod->path);
	k = wg_image_find(&mod->img, kernel);
	if (!k)
		return fail(dev, WG_ENOENT, "wg_launch: no kernel '%s' in %s", kernel, mod->path);
	l.kernel = k;
	l.grid = grid;
	l.block = block;
	l.params = params;
	l.dyn_shared = dynamic_shared_bytes;
	rc = check_launch(dev, k, &l, params_bytes);
	if (rc)
		return rc;

	wg_stats_clear(&st);
	t0 = now_seconds();
	rc = dev->ops->launch(dev->priv, &l, &st, dev->retire, &err);
	st.host_seconds = now_seconds() - t0;
	if (!rc)
		st.kernels = 1;
	if (record_launch(dev, &l, rc, &st))
		wg_warn("out of memory recording launch statistics");
	if (rc) {
		fail(dev, rc, "%s", err.msg[0] ? err.msg : wg_strerror(rc));
		if (!dev->sticky)
			dev->sticky = rc;
	}
	return rc;
}

int wg_synchronize(struct wg_device *dev)
{
	int rc;

	if (!dev)
		return WG_EINVAL;
	/* Launches run to completion inside wg_launch; report the first failure once. */
	rc = dev->sticky;
	dev->sticky = 0;
	if (dev->retire)
		fflush(wg_retire_file(dev->retire));
	return rc;
}

int wg_set_retire_log(struct wg_device *dev, const char *path)
{
	int rc;

	if (!dev)
		return WG_EINVAL;
	if (dev->retire) {
		wg_retire_close(dev->retire);
		dev->retire = NULL;
	}
	if (!path)
		return 0;
	rc = wg_retire_open(&dev->retire, path);
	if (rc)
		return fail(dev, rc, "cannot open retire log %s: %s", path, strerror(errno));
	return 0;
}

int wg_set_option(struct wg_device *dev, const char *key, const char *value)
{
	struct wg_err err = { { 0 } };
	int rc;

	if (!dev || !key)
		return WG_EINVAL;
	if (!strcmp(key, "retire_log"))
		return wg_set_retire_log(dev, value);
	if (!dev->ops->set_option)
		return fail(dev, WG_ENOTSUP, "target '%s' has no option '%s'", dev->ops->name, key);
	rc = dev->ops->set_option(dev->priv, key, value, &err);
	if (rc)
		return fail(dev, rc, "target '%s', option '%s': %s", dev->ops->name, key,
		            err.msg[0] ? err.msg : wg_strerror(rc));
	return 0;
}

int wg_set_option_kv(struct wg_device *dev, const char *kv)
{
	char key[64];
	const char *eq = kv ? strchr(kv, '=') : NULL;

	if (!dev || !eq || eq == kv || (size_t)(eq - kv) >= sizeof(key))
		return fail(dev, WG_EINVAL, "option '%s': expected KEY=VALUE", kv ? kv : "");
	snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
	return wg_set_option(dev, key, eq + 1);
}

int wg_stats_reset(struct wg_device *dev)
{
	if (!dev)
		return WG_EINVAL;
	wg_stats_clear(&dev->totals);
	dev->nlaunches = 0;
	return 0;
}

int wg_stats_counter(struct wg_device *dev, const char *name, uint64_t *value)
{
	int rc;

	if (!dev || !name || !value)
		return WG_EINVAL;
	rc = wg_stats_value(&dev->totals, name, value);
	if (rc)
		return fail(dev, rc, "wg_stats_counter: no counter '%s'", name);
	return 0;
}

static void dim3_json(struct wg_json *j, const char *key, wg_dim3 d)
{
	wg_json_begin_array(j, key);
	wg_json_u64(j, NULL, d.x);
	wg_json_u64(j, NULL, d.y);
	wg_json_u64(j, NULL, d.z);
	wg_json_end_array(j);
}

int wg_stats_json(struct wg_device *dev, FILE *out)
{
	struct wg_json j;

	if (!dev || !out)
		return WG_EINVAL;
	wg_json_init(&j, out);
	wg_json_begin_object(&j, NULL);
	wg_json_str(&j, "target", dev->ops->name);
	wg_json_str(&j, "config", dev->cfg.name);
	wg_json_u64(&j, "device_memory_peak_bytes", wg_gmem_peak(dev->gmem));
	wg_json_begin_object(&j, "totals");
	wg_stats_to_json(&dev->totals, &j);
	wg_json_end_object(&j);
	wg_json_begin_array(&j, "launches");
	for (size_t i = 0; i < dev->nlaunches; i++) {
		const struct launch_rec *r = &dev->launches[i];
		wg_json_begin_object(&j, NULL);
		wg_json_str(&j, "kernel", r->kernel);
		dim3_json(&j, "grid", r->grid);
		dim3_json(&j, "block", r->block);
		wg_json_u64(&j, "dynamic_shared_bytes", r->dyn_shared);
		wg_json_u64(&j, "regs", r->regs);
		wg_json_u64(&j, "shared_bytes", r->shared_bytes);
		wg_json_u64(&j, "local_bytes", r->local_bytes);
		wg_json_u64(&j, "ctas_per_sm", r->occ.ctas);
		wg_json_u64(&j, "warps_per_sm", (uint64_t)r->occ.ctas * r->occ.warps_per_cta);
		wg_json_str(&j, "occupancy_limit", r->occ.ctas ? wg_dispatch_limit_name(r->occ.limit) : "none");
		wg_json_str(&j, "status", wg_strerror(r->status));
		wg_stats_to_json(&r->stats, &j);
		wg_json_end_object(&j);
	}
	wg_json_end_array(&j);
	if (dev->ops->stats_json) {
		wg_json_begin_object(&j, "target_counters");
		dev->ops->stats_json(dev->priv, &j);
		wg_json_end_object(&j);
	}
	wg_json_end_object(&j);
	wg_json_finish(&j);
	return ferror(out) ? WG_EIO : 0;
}
