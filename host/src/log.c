/* Levelled logging to stderr; the level comes from WG_LOG or wg_log_set_level. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static int progress_on = -1, progress_shown;

int wg_progress_enabled(void)
{
	if (progress_on < 0) {
		const char *s = getenv("WG_PROGRESS");

		progress_on = s ? atoi(s) != 0 : isatty(STDERR_FILENO);
	}
	return progress_on && wg_log_get_level() >= WG_LOG_WARN;
}

void wg_progress(const char *fmt, ...)
{
	va_list ap;

	if (!wg_progress_enabled())
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = 1;
}

void wg_progress_end(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = 0;
}
