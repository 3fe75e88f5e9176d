/* libwarpgate internals shared with the CLI and the tests (not installed). */
#ifndef WG_DEVICE_H
#define WG_DEVICE_H

#include "config.h"
#include "image.h"
#include "warpgate.h"

/* The image behind a loaded module. */
const struct wg_image *wg_module_image(const struct wg_module *mod);
/* The effective configuration of an open device. */
const struct wg_config *wg_device_config(const struct wg_device *dev);

#endif
