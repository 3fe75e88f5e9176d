/*
 * The "gpu" target: the Verilated multi-SM GPU top (rtl/wg_gpu.sv through
 * sim/wggpu.h, docs/gpu.md) driven in target time by the host side of the
 * link: kernel set-up, CTA dispatch, the memory system of docs/memory-models.md
 * (interconnect, L2, GDDR5) and the functional global memory, with the
 * conservative time-grant protocol of docs/gpu.md section 3. docs/gpu-target.md
 * describes the loop, the lookahead and the options.
 *
 * Linking this file needs build/gpu/libwggpu.a (C++: -lstdc++).
 */
#include <fenv.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../sim/wggpu.h"
#include "gpu_host.h"
#include "log.h"
#include "target.h"
#include "warpgate.h"

struct gpu {
	struct wggpu *g;
	struct wggpu_info info;
	struct wg_gmem *gmem;
	struct wg_config cfg;
	struct wg_gpu_host_opts o;
	char trace_fst[1024];
	struct wg_gpu_host_totals tot;
};

/* ------------------------------------------------------------------------ */
/* The in-process transport: the Verilated GPU                               */

static int port_push(void *ctx, const struct wggpu_cmd *c)
{
	return wggpu_push(ctx, c);
}

static int port_run(void *ctx, uint64_t link_cycles)
{
	wggpu_tick(ctx, link_cycles);
	return 0;
}

static int port_pop(void *ctx, struct wggpu_ev *e)
{
	return wggpu_pop(ctx, e);
}

static uint64_t port_link_cycles(void *ctx)
{
	return wggpu_link_cycles(ctx);
}

static const struct wg_gpu_port_ops inproc_ops = {
	.name = "in-process Verilated GPU",
	.push = port_push,
	.run = port_run,
	.pop = port_pop,
	.link_cycles = port_link_cycles,
};

static int gpu_new_model(struct gpu *G, struct wg_err *err)
{
	struct wggpu_opts o = { 0 };
	int rc;

	if (G->g)
		wggpu_destroy(G->g);
	G->g = NULL;
	o.trace_fst = G->trace_fst[0] ? G->trace_fst : NULL;
	o.cmd_idle = G->o.cmd_idle;
	o.ev_idle = G->o.ev_idle;
	o.seed = G->o.link_seed;
	rc = wggpu_create(&G->g, &o);
	if (rc == WG_ENOTSUP && o.trace_fst) {
		/* keep a working model without the waveform */
		G->trace_fst[0] = '\0';
		o.trace_fst = NULL;
		if (wggpu_create(&G->g, &o) == 0)
			wggpu_info(G->g, &G->info);
		snprintf(err->msg, sizeof(err->msg), "this build of the Verilated GPU has no FST tracing (rebuild it with "
		         "make gpu-lib GPU_TRACE=1)");
		return rc;
	}
	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "cannot create the Verilated GPU (wggpu_create: %s)",
		         wg_strerror(rc));
		return rc;
	}
	wggpu_info(G->g, &G->info);
	return 0;
}

static int gpu_set_option(void *priv, const char *key, const char *value, struct wg_err *err)
{
	struct gpu *G = priv;
	int rc;

	if (!strcmp(key, "trace_fst")) {
		snprintf(G->trace_fst, sizeof(G->trace_fst), "%s", value ? value : "");
		return gpu_new_model(G, err);
	}
	rc = wg_gpu_host_option(&G->o, key, value, err);
	if (rc == WG_ENOTSUP) {
		/* a configuration key (docs/config.md) for the launches to come */
		char why[256] = "";
		struct wg_config c = G->cfg;

		if (!strcmp(key, "n_sm") || !strcmp(key, "config")) {
			snprintf(err->msg, sizeof(err->msg), "%s cannot change after the device is opened (use --config)",
			         key);
			return WG_EINVAL;
		}
		rc = wg_config_set(&c, key, value ? value : "", why, sizeof(why));
		if (rc == 0) {
			G->cfg = c;
			return 0;
		}
		if (strstr(why, "unknown key"))
			return WG_ENOTSUP; /* err still lists the target's own options */
		snprintf(err->msg, sizeof(err->msg), "%s", why);
		return WG_EINVAL;
	}
	if (rc)
		return rc;
	if (!strcmp(key, "link_idle"))
		return gpu_new_model(G, err); /* the idle shares live in the model's C wrapper */
	return 0;
}

static int gpu_create(void **priv, struct wg_gmem *gmem, const struct wg_config *cfg, struct wg_err *err)
{
	struct gpu *G = calloc(1, sizeof(*G));
	const char *env;
	int rc;

	if (!G)
		return WG_ENOMEM;
	G->gmem = gmem;
	G->cfg = *cfg;
	wg_gpu_host_opts_default(&G->o);
	/* the L1 mode and split of the configuration; the l1_mode and l1_split options override them */
	if (cfg->l1_cache_global)
		G->o.l1_ctrl |= 1u;
	if (cfg->shmem_bytes && cfg->shmem_bytes <= cfg->shmem_l1_bytes / 4)
		G->o.l1_ctrl |= 2u;
	env = getenv("WG_SIM_TRACE_FST");
	if (env)
		snprintf(G->trace_fst, sizeof(G->trace_fst), "%s", env);
	rc = gpu_new_model(G, err);
	if (!rc && cfg->num_sms > G->info.num_sms) {
		snprintf(err->msg, sizeof(err->msg),
		         "the configuration asks for %u SMs, the Verilated GPU of this build has %u (make gpu-lib "
		         "GPU_NUM_SMS=%u)", cfg->num_sms, G->info.num_sms, cfg->num_sms);
		rc = WG_ECONFIG;
	}
	if (rc) {
		if (G->g)
			wggpu_destroy(G->g);
		free(G);
		return rc;
	}
	*priv = G;
	return 0;
}

static void gpu_destroy(void *priv)
{
	struct gpu *G = priv;

	if (!G)
		return;
	wggpu_destroy(G->g);
	wg_gpu_host_totals_free(&G->tot);
	free(G);
}

static int gpu_launch(void *priv, const struct wg_launch *l, struct wg_stats *st, struct wg_retire_log *log,
                      struct wg_err *err)
{
	struct gpu *G = priv;
	struct wg_gpu_host_env env = {
		.ops = &inproc_ops,
		.ctx = G->g,
		.info = &G->info,
		.gmem = G->gmem,
		.cfg = &G->cfg,
		.opts = &G->o,
	};
	int rc, old_round = fegetround();

	(void)log;
	fesetround(FE_TONEAREST); /* ATOMG.ADD.F32 on the host */
	rc = wg_gpu_host_launch(&env, l, st, &G->tot, err);
	fesetround(old_round);
	return rc;
}

static void gpu_stats_json(void *priv, struct wg_json *j)
{
	struct gpu *G = priv;

	wg_gpu_host_totals_json(&G->tot, &G->o, j);
}

const struct wg_target_ops wg_target_gpu = {
	.name = "gpu",
	.description = "the Verilated multi-SM GPU RTL with the host's interconnect, L2, GDDR5 and CTA dispatch",
	.create = gpu_create,
	.destroy = gpu_destroy,
	.launch = gpu_launch,
	.set_option = gpu_set_option,
	.stats_json = gpu_stats_json,
};
