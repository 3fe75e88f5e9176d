/*
 * The functional golden model ("func" target): runs a whole grid with exact
 * ISA semantics (docs/isa.md), no timing. It is the reference that the RTL
 * is compared against in lockstep.
 */
#ifndef WG_FUNC_H
#define WG_FUNC_H

#include "config.h"
#include "gmem.h"
#include "launch.h"
#include "retire.h"
#include "stats.h"

struct wg_func;

int wg_func_create(struct wg_func **f, struct wg_gmem *gmem, const struct wg_config *cfg);
void wg_func_destroy(struct wg_func *f);

/*
 * Run the launch to completion. Counters are added to st; every retired warp
 * instruction goes to log when log != NULL. On a fault (illegal instruction,
 * out-of-range or misaligned access, barrier deadlock) returns WG_EILLEGAL /
 * WG_EFAULT / WG_EDEADLOCK with err->msg naming the kernel, CTA (x,y,z),
 * warp, pc, lane and address as they apply; memory written before the
 * fault stays written.
 */
int wg_func_run(struct wg_func *f, const struct wg_launch *l, struct wg_stats *st, struct wg_retire_log *log,
                struct wg_err *err);

#endif
