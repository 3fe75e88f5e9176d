/*
 * libwarpgate: a CUDA-runtime-like C API for the warpgate GPU emulator.
 *
 * A device is opened on a target: "func" (the functional golden model),
 * later "sim" (the Verilated RTL), "board" and "usb". Global memory lives
 * on the host; device addresses are 32-bit values carried in uint64_t.
 * Every call returns 0 or a negative WG_E* code; wg_strerror() names it and
 * wg_last_error() gives the detailed message of the device's last failure.
 */
#ifndef WARPGATE_H
#define WARPGATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WG_VERSION_MAJOR 0
#define WG_VERSION_MINOR 1

enum wg_error {
	WG_OK = 0,
	WG_EINVAL = -1,    /* invalid argument */
	WG_ENOMEM = -2,    /* out of host or device memory */
	WG_ENOENT = -3,    /* file or kernel not found */
	WG_EIO = -4,       /* read/write failure */
	WG_ESYNTAX = -5,   /* assembly source error */
	WG_EFORMAT = -6,   /* malformed kernel image */
	WG_EILLEGAL = -7,  /* illegal instruction */
	WG_EFAULT = -8,    /* out-of-range or misaligned memory access */
	WG_EDEADLOCK = -9, /* barrier deadlock */
	WG_ETARGET = -10,  /* unknown or unavailable target */
	WG_ECONFIG = -11,  /* bad configuration */
	WG_ELAUNCH = -12,  /* launch configuration does not fit */
	WG_ENOTSUP = -13,  /* not supported by this target */
	WG_ETIMEOUT = -14, /* timed out */
	WG_ELINK = -15,    /* link/transport failure */
	WG_EMISMATCH = -16, /* lockstep co-simulation found a difference */
	WG_ERROR_MIN = -16
};

typedef struct {
	uint32_t x, y, z;
} wg_dim3;

struct wg_device;
struct wg_module;

int wg_open(struct wg_device **dev, const char *target, const char *config); /* config NULL = default */
void wg_close(struct wg_device *dev);
int wg_malloc(struct wg_device *dev, uint64_t *dptr, size_t bytes);
int wg_free(struct wg_device *dev, uint64_t dptr);
int wg_memcpy_htod(struct wg_device *dev, uint64_t dst, const void *src, size_t bytes);
int wg_memcpy_dtoh(struct wg_device *dev, void *dst, uint64_t src, size_t bytes);
int wg_memset(struct wg_device *dev, uint64_t dst, int value, size_t bytes);
int wg_module_load(struct wg_device *dev, struct wg_module **mod, const char *path); /* .s, .ptx (or PTX text: docs/ptx.md) or .wgk */
int wg_module_unload(struct wg_device *dev, struct wg_module *mod);
int wg_launch(struct wg_device *dev, struct wg_module *mod, const char *kernel, wg_dim3 grid, wg_dim3 block,
              const void *params, size_t params_bytes, uint32_t dynamic_shared_bytes);
int wg_synchronize(struct wg_device *dev);
int wg_stats_json(struct wg_device *dev, FILE *out);
const char *wg_strerror(int err);

/* Additions beyond the CUDA-like core. */
const char *wg_last_error(struct wg_device *dev);          /* detail of the last failure, "" if none */
int wg_set_retire_log(struct wg_device *dev, const char *path); /* NULL closes; docs/retire-log.md */
int wg_stats_reset(struct wg_device *dev);
/*
 * One integer counter of the device's statistics totals (every launch since
 * wg_open or wg_stats_reset) by its name in wg_stats_json's "totals" object:
 * a top-level counter ("inst_executed", "ctas", "atom_ops", "cycles", ...),
 * a memory-pipeline counter of the "memory" object ("gld_requests",
 * "gld_transactions", "shared_load_transactions", "atom_count", ...;
 * docs/memory-pipeline.md section 2) or a derived replay count
 * ("gld_replays", "gst_replays", "local_replays", "shared_replays").
 * WG_ENOENT for an unknown name (the hit rates are fractions: JSON only).
 */
int wg_stats_counter(struct wg_device *dev, const char *name, uint64_t *value);
const char *wg_target_name(struct wg_device *dev);
/*
 * Target options, set after wg_open and before the launches they concern.
 * Every target takes "retire_log" (a path, as wg_set_retire_log); others are
 * target-specific (the sim target: "trace_fst", "lockstep", "mem_latency",
 * "watchdog", "sched", "l1_mode", "l1_split"; docs/cosim.md).
 * WG_ENOTSUP for an option the target does not know.
 */
int wg_set_option(struct wg_device *dev, const char *key, const char *value);
/* The same from one "KEY=VALUE" string (command-line --option); WG_EINVAL without '='. */
int wg_set_option_kv(struct wg_device *dev, const char *key_value);

#ifdef __cplusplus
}
#endif
#endif
