/*
 * A small JSON reader for the project's own output (wg_stats_json and the
 * statistics files the kernel programs write): the whole text is parsed into
 * a tree of values that remember their line and column, so that every error,
 * of syntax or of a missing or mistyped member, names the file, the line and
 * the column (docs/experiments.md section 5).
 *
 * Numbers keep their exact integer value when the literal is an integer that
 * fits 64 bits (counters beyond 2^53 stay exact), and a double in every case.
 */
#ifndef WG_JSONR_H
#define WG_JSONR_H

#include <stddef.h>
#include <stdint.h>

enum wg_jv_type { WG_JV_NULL, WG_JV_BOOL, WG_JV_NUMBER, WG_JV_STRING, WG_JV_ARRAY, WG_JV_OBJECT };

#define WG_JV_INT 1u  /* the literal is an integer that fits int64_t: i is exact */
#define WG_JV_UINT 2u /* the literal is a non-negative integer that fits uint64_t: u is exact */

struct wg_jv {
	enum wg_jv_type type;
	unsigned flags;          /* WG_JV_INT, WG_JV_UINT for numbers */
	uint32_t line, col;      /* where the value starts (1-based) */
	double d;                /* numbers (and booleans as 0/1) */
	int64_t i;
	uint64_t u;
	char *s;                 /* strings: the decoded text (UTF-8, may hold no NUL) */
	char *key;               /* member name when the value is a member of an object */
	size_t len;              /* arrays and objects: number of elements / members */
	struct wg_jv *child;     /* first element / member */
	struct wg_jv *next;      /* next sibling */
};

struct wg_jsonr {
	char name[256];          /* file name (or the name given) used in messages */
	struct wg_jv *root;
};

/* Deepest nesting accepted (the project's output nests 4-5 levels). */
#define WG_JSONR_MAX_DEPTH 64

/*
 * Parses len bytes of text; name goes into the messages. On a syntax error
 * returns WG_ESYNTAX with "NAME:LINE:COL: what" in err (nothing allocated).
 * WG_ENOMEM when out of memory.
 */
int wg_jsonr_parse(struct wg_jsonr **doc, const char *text, size_t len, const char *name, char *err,
                   size_t errlen);
/* Reads and parses a file; WG_ENOENT / WG_EIO with "NAME: reason" when it cannot be read. */
int wg_jsonr_load(struct wg_jsonr **doc, const char *path, char *err, size_t errlen);
void wg_jsonr_free(struct wg_jsonr *doc);

/* Member key of an object (NULL when v is not an object or has no such member). */
const struct wg_jv *wg_jsonr_member(const struct wg_jv *v, const char *key);
/* Element i of an array (NULL when out of range or not an array). */
const struct wg_jv *wg_jsonr_elem(const struct wg_jv *v, size_t i);

/*
 * Follows a dotted path from v: object members by name, array elements by
 * decimal index ("launches.0.cycles"). NULL when any step is missing.
 */
const struct wg_jv *wg_jsonr_path(const struct wg_jv *v, const char *path);

/*
 * Typed look-ups of path below v (v NULL: the root). On a missing member
 * WG_ENOENT, on a wrong type WG_EINVAL; err then says, e.g.,
 *   "stats.json:12:5: 'power.lane_cycles' is a string, expected an unsigned integer"
 *   "stats.json:3:13: no member 'power' in the object 'totals'"
 * (the position of the deepest object or array reached).
 */
int wg_jsonr_get_u64(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, uint64_t *out, char *err,
                     size_t errlen);
int wg_jsonr_get_i64(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, int64_t *out, char *err,
                     size_t errlen);
/* Any number; null (the writer's form of inf/nan) is refused. */
int wg_jsonr_get_double(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, double *out,
                        char *err, size_t errlen);
int wg_jsonr_get_bool(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, int *out, char *err,
                      size_t errlen);
/* The string stays owned by doc. */
int wg_jsonr_get_str(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, const char **out,
                     char *err, size_t errlen);
/* A value of the given type (arrays and objects). */
int wg_jsonr_get(const struct wg_jsonr *doc, const struct wg_jv *v, const char *path, enum wg_jv_type type,
                 const struct wg_jv **out, char *err, size_t errlen);

const char *wg_jsonr_type_name(enum wg_jv_type t);

#endif
