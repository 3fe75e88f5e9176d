/*
 * cmocka tests of the JSON reader (host/src/jsonr.[ch]): the shapes of the
 * project's statistics, exact 64-bit counters, escapes, look-ups by path, and
 * errors that name the file, line and column.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json.h"
#include "jsonr.h"
#include "warpgate.h"

static char err[512];

static struct wg_jsonr *parse_ok(const char *text)
{
	struct wg_jsonr *d = NULL;

	int ret = wg_jsonr_parse(&d, text, strlen(text), "t.json", err, sizeof(err));
	if (ret)
		print_error("unexpected error: %s\n", err);
	assert_int_equal(ret, 0);
	assert_non_null(d);
	return d;
}

/* Expects a syntax error whose message is exactly msg. */
static void parse_fails(const char *text, const char *msg)
{
	struct wg_jsonr *d = (struct wg_jsonr *)1;

	assert_int_equal(wg_jsonr_parse(&d, text, strlen(text), "t.json", err, sizeof(err)), WG_ESYNTAX);
	assert_null(d);
	assert_string_equal(err, msg);
}

static const char stats[] =
	"{\n"                                          /* line 1 */
	"  \"target\": \"gpu\",\n"                     /* 2 */
	"  \"totals\": {\n"                            /* 3 */
	"    \"cycles\": 18446744073709551615,\n"      /* 4: 2^64 - 1, beyond a double's 2^53 */
	"    \"power\": {\n"                           /* 5 */
	"      \"online_saved\": -1200,\n"             /* 6 */
	"      \"online_share\": -0.0375,\n"           /* 7 */
	"      \"hist_exact\": true,\n"                /* 8 */
	"      \"oracle_curve\": [[1, 0.5], [100, 2.5e-1]]\n"
	"    }\n"
	"  },\n"
	"  \"launches\": [ { \"cycles\": 9007199254740993 }, { \"cycles\": 7, \"status\": null } ],\n"
	"  \"note\": \"tab\\there \\\"q\\\" \\u00e9 \\ud83d\\ude00 \\/\"\n"
	"}\n";

static void statistics_shape_reads_back_with_exact_counters(void **state)
{
	struct wg_jsonr *d = parse_ok(stats);
	uint64_t u;
	int64_t i;
	double x;
	int b;
	const char *s;

	(void)state;
	assert_int_equal(wg_jsonr_get_u64(d, NULL, "totals.cycles", &u, err, sizeof(err)), 0);
	assert_true(u == UINT64_MAX);
	/* 2^53 + 1 is not a double; the integer is kept exactly */
	assert_int_equal(wg_jsonr_get_u64(d, NULL, "launches.0.cycles", &u, err, sizeof(err)), 0);
	assert_true(u == 9007199254740993ull);
	assert_int_equal(wg_jsonr_get_i64(d, NULL, "totals.power.online_saved", &i, err, sizeof(err)), 0);
	assert_int_equal(i, -1200);
	assert_int_equal(wg_jsonr_get_double(d, NULL, "totals.power.online_share", &x, err, sizeof(err)), 0);
	assert_true(x == -0.0375);
	assert_int_equal(wg_jsonr_get_bool(d, NULL, "totals.power.hist_exact", &b, err, sizeof(err)), 0);
	assert_int_equal(b, 1);
	assert_int_equal(wg_jsonr_get_double(d, NULL, "totals.power.oracle_curve.1.1", &x, err, sizeof(err)), 0);
	assert_true(x == 0.25);
	assert_int_equal(wg_jsonr_get_str(d, NULL, "target", &s, err, sizeof(err)), 0);
	assert_string_equal(s, "gpu");
	/* \t, \", \u00e9 (2 bytes), the surrogate pair of U+1F600 (4 bytes), \/ */
	assert_int_equal(wg_jsonr_get_str(d, NULL, "note", &s, err, sizeof(err)), 0);
	assert_string_equal(s, "tab\there \"q\" \xc3\xa9 \xf0\x9f\x98\x80 /");

	const struct wg_jv *l = wg_jsonr_path(d->root, "launches");
	assert_non_null(l);
	assert_int_equal(l->type, WG_JV_ARRAY);
	assert_int_equal(l->len, 2);
	assert_int_equal(wg_jsonr_path(l, "1.status")->type, WG_JV_NULL);
	/* positions: "totals" value opens at line 3, column 13 */
	const struct wg_jv *t = wg_jsonr_member(d->root, "totals");
	assert_int_equal(t->line, 3);
	assert_int_equal(t->col, 13);
	assert_null(wg_jsonr_elem(l, 2));
	assert_null(wg_jsonr_path(d->root, "launches.x"));
	wg_jsonr_free(d);
}

static void missing_member_names_file_line_column_and_path(void **state)
{
	struct wg_jsonr *d = parse_ok(stats);
	uint64_t u;

	(void)state;
	/* deepest object reached: "power", whose value opens at line 5, column 14 */
	assert_int_equal(wg_jsonr_get_u64(d, NULL, "totals.power.lane_cycles", &u, err, sizeof(err)), WG_ENOENT);
	assert_string_equal(err, "t.json:5:14: no member 'totals.power.lane_cycles' in the object 'totals.power'");
	assert_int_equal(wg_jsonr_get_u64(d, NULL, "launches.5.cycles", &u, err, sizeof(err)), WG_ENOENT);
	assert_string_equal(err, "t.json:12:15: no element 'launches.5.cycles' (the array 'launches' has 2)");
	/* a step through a number */
	assert_int_equal(wg_jsonr_get_u64(d, NULL, "totals.cycles.x", &u, err, sizeof(err)), WG_ENOENT);
	assert_string_equal(err, "t.json:4:15: no member 'totals.cycles.x': 'totals.cycles' is a number");
	wg_jsonr_free(d);
}

static void wrong_type_names_what_was_found(void **state)
{
	struct wg_jsonr *d = parse_ok(stats);
	uint64_t u;
	int64_t i;
	int b;
	const struct wg_jv *v;

	(void)state;
	assert_int_equal(wg_jsonr_get_u64(d, NULL, "target", &u, err, sizeof(err)), WG_EINVAL);
	assert_string_equal(err, "t.json:2:13: 'target' is a string, expected an unsigned integer");
	/* a negative number is not a u64 */
	assert_int_equal(wg_jsonr_get_u64(d, NULL, "totals.power.online_saved", &u, err, sizeof(err)), WG_EINVAL);
	assert_string_equal(err, "t.json:6:23: 'totals.power.online_saved' is -1200, expected an unsigned integer");
	/* 2^64 - 1 does not fit int64 */
	assert_int_equal(wg_jsonr_get_i64(d, NULL, "totals.cycles", &i, err, sizeof(err)), WG_EINVAL);
	assert_int_equal(wg_jsonr_get_bool(d, NULL, "launches.1.status", &b, err, sizeof(err)), WG_EINVAL);
	assert_string_equal(err, "t.json:12:74: 'launches.1.status' is null, expected true or false");
	assert_int_equal(wg_jsonr_get(d, NULL, "totals", WG_JV_ARRAY, &v, err, sizeof(err)), WG_EINVAL);
	assert_string_equal(err, "t.json:3:13: 'totals' is an object, expected an array");
	wg_jsonr_free(d);
}

static void syntax_errors_name_line_and_column(void **state)
{
	(void)state;
	/* the member on line 3 follows line 2's without a comma */
	parse_fails("{\n  \"a\": 1\n  \"b\": 2\n}",
	            "t.json:3:3: expected ',' or '}' in the object opened at 1:1, found '\"'");
	parse_fails("[1, 2", "t.json:1:6: expected ',' or ']' in the array opened at 1:1, found end of input");
	parse_fails("{\"a\": \"open", "t.json:1:7: string not closed before the end of input");
	parse_fails("{\"a\" 1}", "t.json:1:6: expected ':' after the member name \"a\", found '1'");
	parse_fails("{1: 2}", "t.json:1:2: expected a member name (a string) in the object opened at 1:1, found '1'");
	parse_fails("[01]", "t.json:1:2: number with a leading zero");
	parse_fails("[1.]", "t.json:1:4: expected a digit after '.', found ']'");
	parse_fails("[1e+]", "t.json:1:5: expected a digit in the exponent, found ']'");
	parse_fails("[\"a\\qb\"]", "t.json:1:4: unknown escape '\\'q''");
	parse_fails("[\"\\u12g4\"]", "t.json:1:3: '\\u' needs four hexadecimal digits");
	parse_fails("[\"\\ud83d\"]", "t.json:1:3: high surrogate \\ud83d without its low surrogate");
	parse_fails("[\"a\nb\"]", "t.json:1:4: byte 0x0a in a string (control characters must be escaped)");
	parse_fails("[nan]", "t.json:1:2: unknown word 'nan' (expected a value)");
	parse_fails("[truex]", "t.json:1:2: unknown word 'truex' (expected a value)");
	parse_fails("{} {}", "t.json:1:4: '{' after the top-level value");
	parse_fails("", "t.json:1:1: expected a value, found end of input");
	parse_fails("  \n  ,", "t.json:2:3: expected a value, found ','");
}

static void nesting_beyond_the_limit_is_refused(void **state)
{
	char text[2 * WG_JSONR_MAX_DEPTH + 8];
	struct wg_jsonr *d;
	int i;

	(void)state;
	/* WG_JSONR_MAX_DEPTH arrays nest fine ... */
	for (i = 0; i < WG_JSONR_MAX_DEPTH; i++) {
		text[i] = '[';
		text[2 * WG_JSONR_MAX_DEPTH - 1 - i] = ']';
	}
	text[2 * WG_JSONR_MAX_DEPTH] = '\0';
	assert_int_equal(wg_jsonr_parse(&d, text, strlen(text), "t.json", err, sizeof(err)), 0);
	wg_jsonr_free(d);
	/* ... one more is refused at its bracket, column 65 */
	memmove(text + 1, text, strlen(text) + 1);
	text[0] = '[';
	strcat(text, "]");
	parse_fails(text, "t.json:1:65: nesting deeper than 64 levels");
}

static void missing_file_is_named(void **state)
{
	struct wg_jsonr *d = (struct wg_jsonr *)1;

	(void)state;
	assert_int_equal(wg_jsonr_load(&d, "no/such/file.json", err, sizeof(err)), WG_ENOENT);
	assert_null(d);
	assert_string_equal(err, "no/such/file.json: cannot open: No such file or directory");
}

/* What the project's writer (json.c) writes, the reader reads back unchanged. */
static void writer_output_reads_back(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct wg_json j;
	struct wg_jsonr *d;
	double x;
	uint64_t u;
	int64_t i;
	const char *s;

	(void)state;
	wg_json_init(&j, f);
	wg_json_begin_object(&j, NULL);
	wg_json_u64(&j, "big", 12345678901234567890ull);
	wg_json_i64(&j, "neg", INT64_MIN);
	wg_json_double(&j, "third", 1.0 / 3.0);
	wg_json_double(&j, "inf", 1.0 / 0.0); /* written as null */
	wg_json_str(&j, "s", "line\nquote\" back\\ ctl\x01");
	wg_json_begin_array(&j, "empty");
	wg_json_end_array(&j);
	wg_json_begin_object(&j, "o");
	wg_json_end_object(&j);
	wg_json_end_object(&j);
	wg_json_finish(&j);
	fclose(f);
	assert_int_equal(wg_jsonr_parse(&d, buf, len, "mem", err, sizeof(err)), 0);
	assert_int_equal(wg_jsonr_get_u64(d, NULL, "big", &u, err, sizeof(err)), 0);
	assert_true(u == 12345678901234567890ull);
	assert_int_equal(wg_jsonr_get_i64(d, NULL, "neg", &i, err, sizeof(err)), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(wg_jsonr_get_double(d, NULL, "third", &x, err, sizeof(err)), 0);
	assert_true(x == 1.0 / 3.0); /* %.17g round-trips */
	assert_int_equal(wg_jsonr_get_double(d, NULL, "inf", &x, err, sizeof(err)), WG_EINVAL);
	assert_string_equal(err, "mem:5:10: 'inf' is null, expected a number");
	assert_int_equal(wg_jsonr_get_str(d, NULL, "s", &s, err, sizeof(err)), 0);
	assert_string_equal(s, "line\nquote\" back\\ ctl\x01");
	assert_int_equal(wg_jsonr_path(d->root, "empty")->len, 0);
	assert_int_equal(wg_jsonr_path(d->root, "o")->type, WG_JV_OBJECT);
	wg_jsonr_free(d);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(statistics_shape_reads_back_with_exact_counters),
		cmocka_unit_test(missing_member_names_file_line_column_and_path),
		cmocka_unit_test(wrong_type_names_what_was_found),
		cmocka_unit_test(syntax_errors_name_line_and_column),
		cmocka_unit_test(nesting_beyond_the_limit_is_refused),
		cmocka_unit_test(missing_file_is_named),
		cmocka_unit_test(writer_output_reads_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
