/* A small streaming JSON writer (objects, arrays, numbers, strings). */
#ifndef WG_JSON_H
#define WG_JSON_H

#include <stdint.h>
#include <stdio.h>

struct wg_json {
	FILE *out;
	int depth;
	int first[32]; /* no member written yet at this depth */
	int pending_key;
};

void wg_json_init(struct wg_json *j, FILE *out);
void wg_json_begin_object(struct wg_json *j, const char *key); /* key NULL inside arrays / at top */
void wg_json_end_object(struct wg_json *j);
void wg_json_begin_array(struct wg_json *j, const char *key);
void wg_json_end_array(struct wg_json *j);
void wg_json_u64(struct wg_json *j, const char *key, uint64_t v);
void wg_json_i64(struct wg_json *j, const char *key, int64_t v);
void wg_json_double(struct wg_json *j, const char *key, double v);
void wg_json_str(struct wg_json *j, const char *key, const char *v);
void wg_json_bool(struct wg_json *j, const char *key, int v);
void wg_json_finish(struct wg_json *j); /* newline after the top-level value */

#endif
