/*
 * simfit: whether a launch fits the Verilated SM described by its build parameters
 * (struct wgsim_info, sim/wgsim.h): warps, registers, shared bytes (l1_split48: the
 * 16 KB split), instructions, parameter bytes, the local region, and FP32 / SFU
 * instructions on an SM built without the unit (wg_isa_needs). The sim target refuses a
 * launch that does not fit; test_sm skips it.
 */
#ifndef WG_SIMFIT_H
#define WG_SIMFIT_H

#include <stddef.h>

#include "launch.h"

struct wgsim_info;

/* NULL when the launch fits, else the reason, written into buf. */
const char *wg_sim_misfit(const struct wgsim_info *in, const struct wg_kernel *k, const struct wg_launch *l,
                          int l1_split48, char *buf, size_t len);

#endif
