/* A kernel launch as every target receives it, after libwarpgate has validated it. */
#ifndef WG_LAUNCH_H
#define WG_LAUNCH_H

#include <stdint.h>
#include "image.h"
#include "warpgate.h"

struct wg_launch {
	const struct wg_kernel *kernel;
	wg_dim3 grid, block;
	const uint8_t *params;   /* kernel->param_bytes bytes */
	uint32_t dyn_shared;     /* dynamic shared bytes, after the static ones */
	uint32_t threads_per_cta;
	uint32_t warps_per_cta;
	uint64_t ctas;           /* grid.x * grid.y * grid.z */
};

/*
 * Where a target reports a failure: a message naming the CTA, warp, pc and
 * lane when they apply.
 */
struct wg_err {
	char msg[512];
};

#endif
