/* Levelled logging for library code: no bare printf in libwarpgate. */
#ifndef WG_LOG_H
#define WG_LOG_H

enum wg_log_level { WG_LOG_ERROR, WG_LOG_WARN, WG_LOG_INFO, WG_LOG_DEBUG };

/* Level from the WG_LOG environment variable (error|warn|info|debug), default warn. */
void wg_log_set_level(int level);
int wg_log_get_level(void);
void wg_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A one-line progress report for long runs, rewritten in place on stderr, only
 * when stderr is a terminal and the level is at least warn (WG_PROGRESS=0
 * turns it off, =1 forces it). wg_progress_end clears the line once a run
 * that printed one is over.
 */
int wg_progress_enabled(void);
void wg_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void wg_progress_end(void);

#define wg_err(...) wg_log(WG_LOG_ERROR, __VA_ARGS__)
#define wg_warn(...) wg_log(WG_LOG_WARN, __VA_ARGS__)
#define wg_info(...) wg_log(WG_LOG_INFO, __VA_ARGS__)
#define wg_dbg(...) wg_log(WG_LOG_DEBUG, __VA_ARGS__)

#endif
