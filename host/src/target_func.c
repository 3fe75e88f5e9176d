/* The "func" target: the functional golden model behind the target interface. */
#include "func.h"
#include "target.h"

static int func_create(void **priv, struct wg_gmem *gmem, const struct wg_config *cfg, struct wg_err *err)
{
	struct wg_func *f;
	int rc = wg_func_create(&f, gmem, cfg);

	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "cannot create the functional model");
		return rc;
	}
	*priv = f;
	return 0;
}

static void func_destroy(void *priv)
{
	wg_func_destroy(priv);
}

static int func_launch(void *priv, const struct wg_launch *l, struct wg_stats *st, struct wg_retire_log *log,
                       struct wg_err *err)
{
	return wg_func_run(priv, l, st, log, err);
}

const struct wg_target_ops wg_target_func = {
	.name = "func",
	.description = "functional golden model (exact ISA semantics, no timing)",
	.create = func_create,
	.destroy = func_destroy,
	.launch = func_launch,
	.stats_json = NULL,
};
