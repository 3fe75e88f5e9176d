/* Levelled logging to stderr; the level comes from WG_LOG or wg_log_set_level. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int log_level = -1;

static const char *const level_names[] = { "error", "warn", "info", "debug" };

static int level_from_env(void)
{
	const char *s = getenv("WG_LOG");

	if (s)
		for (int i = 0; i <= WG_LOG_DEBUG; i++)
			if (!strcmp(s, level_names[i]))
				return i;
	return WG_LOG_WARN;
}

void wg_log_set_level(int level)
{
	log_level = level < WG_LOG_ERROR ? WG_LOG_ERROR : level > WG_LOG_DEBUG ? WG_LOG_DEBUG : level;
}

int wg_log_get_level(void)
{
	if (log_level < 0)
		log_level = level_from_env();
	return log_level;
}

void wg_log(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > wg_log_get_level())
		return;
	fprintf(stderr, "warpgate: %s: ", level_names[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
