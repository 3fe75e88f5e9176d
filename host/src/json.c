/* A small streaming JSON writer. */
#include "json.h"

#include <inttypes.h>
#include <math.h>

void wg_json_init(struct wg_json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->first[0] = 1;
	j->pending_key = 0;
}

static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* Separator, indentation and key before a value. */
static void member(struct wg_json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->out);
		fputc('\n', j->out);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	j->first[j->depth] = 0;
	if (key) {
		put_string(j->out, key);
		fputs(": ", j->out);
	}
}

static void open_scope(struct wg_json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->out);
	if (j->depth < 31)
		j->depth++;
	j->first[j->depth] = 1;
}

static void close_scope(struct wg_json *j, char c)
{
	int empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty) {
		fputc('\n', j->out);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	fputc(c, j->out);
}

void wg_json_begin_object(struct wg_json *j, const char *key) { open_scope(j, key, '{'); }
void wg_json_end_object(struct wg_json *j) { close_scope(j, '}'); }
void wg_json_begin_array(struct wg_json *j, const char *key) { open_scope(j, key, '['); }
void wg_json_end_array(struct wg_json *j) { close_scope(j, ']'); }

void wg_json_u64(struct wg_json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->out, "%" PRIu64, v);
}

void wg_json_i64(struct wg_json *j, const char *key, int64_t v)
{
	member(j, key);
	fprintf(j->out, "%" PRId64, v);
}

void wg_json_double(struct wg_json *j, const char *key, double v)
{
	member(j, key);
	if (isfinite(v))
		fprintf(j->out, "%.17g", v);
	else
		fputs("null", j->out); /* JSON has no inf/nan */
}

void wg_json_str(struct wg_json *j, const char *key, const char *v)
{
	member(j, key);
	put_string(j->out, v ? v : "");
}

void wg_json_bool(struct wg_json *j, const char *key, int v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->out);
}

void wg_json_finish(struct wg_json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
}
