/*
 * The interface between libwarpgate's device layer and a target
 * (func, sim, gpu, board, usb). A target owns whatever it needs to
 * run launches; global memory belongs to the device and is passed in.
 */
#ifndef WG_TARGET_H
#define WG_TARGET_H

#include "config.h"
#include "gmem.h"
#include "json.h"
#include "launch.h"
#include "retire.h"
#include "stats.h"

struct wg_target_ops {
	const char *name;
	const char *description;
	int (*create)(void **priv, struct wg_gmem *gmem, const struct wg_config *cfg, struct wg_err *err);
	void (*destroy)(void *priv);
	/* Run one launch to completion, adding counters to st. */
	int (*launch)(void *priv, const struct wg_launch *l, struct wg_stats *st, struct wg_retire_log *log,
	              struct wg_err *err);
	/* A target-specific option (wg_set_option); may be NULL (nothing supported). */
	int (*set_option)(void *priv, const char *key, const char *value, struct wg_err *err);
	/* Target-specific counters as members of the current JSON object; may be NULL. */
	void (*stats_json)(void *priv, struct wg_json *j);
};

extern const struct wg_target_ops wg_target_func; /* target_func.c */
extern const struct wg_target_ops wg_target_sim;  /* target_sim.c */
extern const struct wg_target_ops wg_target_gpu;  /* target_gpu.c */
extern const struct wg_target_ops wg_target_board; /* target_board.c */
extern const struct wg_target_ops wg_target_usb;   /* target_board.c, over usb.c */

/* Registered targets, NULL-terminated. */
extern const struct wg_target_ops *const wg_targets[];

#endif
