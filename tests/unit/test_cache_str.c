/* cmocka tests of the GPGPU-Sim cache-string parser (host/src/cache_str.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cache_str.h"
#include "warpgate.h"

struct fixture {
	struct wg_cache_geom g;
	char err[256];
};

static int setup(void **state)
{
	*state = calloc(1, sizeof(struct fixture));
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static int parse(struct fixture *f, const char *s)
{
	f->err[0] = '\0';
	return wg_cache_str_parse(s, &f->g, f->err, sizeof(f->err));
}

static void short_form_gtx480_l2_takes_the_gtx480_defaults(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "64:128:16"), 0);
	assert_int_equal(f->g.sets, 64);
	assert_int_equal(f->g.line, 128);
	assert_int_equal(f->g.assoc, 16);
	/* 64 x 128 x 16 = 131072 bytes: one of the six 128 KB slices of the 768 KB L2. */
	assert_int_equal(wg_cache_geom_bytes(&f->g), 131072);
	assert_int_equal(f->g.full, 0);
	assert_int_equal(f->g.type, 'N');
	assert_int_equal(f->g.replacement, 'L');
	assert_int_equal(f->g.write_policy, 'B');
	assert_int_equal(f->g.alloc_policy, 'm');
	assert_int_equal(f->g.write_alloc, 'W');
	assert_int_equal(f->g.set_index, 'L');
	assert_int_equal(f->g.mshr_type, 'A');
	assert_int_equal(f->g.mshr_entries, 32);
	assert_int_equal(f->g.mshr_max_merge, 4);
	assert_int_equal(f->g.miss_queue, 4);
	assert_int_equal(f->g.result_fifo, 0);
	assert_int_equal(f->g.port_width, 0);
}

static void full_form_gives_every_field(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "32:128:4,F:T:f:N,A:16:2,8"), 0);
	assert_int_equal(f->g.full, 1);
	assert_int_equal(f->g.sets, 32);
	assert_int_equal(f->g.assoc, 4);
	assert_int_equal(f->g.replacement, 'F');
	assert_int_equal(f->g.write_policy, 'T');
	assert_int_equal(f->g.alloc_policy, 'f');
	assert_int_equal(f->g.write_alloc, 'N');
	assert_int_equal(f->g.set_index, 'L');
	assert_int_equal(f->g.mshr_entries, 16);
	assert_int_equal(f->g.mshr_max_merge, 2);
	assert_int_equal(f->g.miss_queue, 8);
}

static void full_form_with_index_result_fifo_and_port_width(void **state)
{
	struct fixture *f = *state;

	/* GPGPU-Sim's GTX480 L2 line, per sub-partition. */
	assert_int_equal(parse(f, "64:128:8,L:B:m:W:L,A:32:4,4:0,32"), 0);
	assert_int_equal(f->g.assoc, 8);
	assert_int_equal(f->g.set_index, 'L');
	assert_int_equal(f->g.miss_queue, 4);
	assert_int_equal(f->g.result_fifo, 0);
	assert_int_equal(f->g.port_width, 32);
}

static void leading_cache_type_letter_is_accepted(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "S:64:128:16,L:B:m:L:X,S:64:8,16:0,32"), 0);
	assert_int_equal(f->g.type, 'S');
	assert_int_equal(f->g.sets, 64);
	assert_int_equal(f->g.write_alloc, 'L');
	assert_int_equal(f->g.set_index, 'X');
	assert_int_equal(f->g.mshr_type, 'S');
	assert_int_equal(f->g.miss_queue, 16);
}

static void non_number_names_the_field_and_its_position(void **state)
{
	struct fixture *f = *state;

	/* "64:128:x": field 3 starts at column 8. */
	assert_int_equal(parse(f, "64:128:x"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "field 3 'assoc' at column 8"));
	assert_non_null(strstr(f->err, "expected an unsigned integer, got 'x'"));
}

static void bad_policy_letter_names_the_field_and_its_position(void **state)
{
	struct fixture *f = *state;

	/* 64:128:16,L:Q:... -> 'Q' is field 5 at column 13. */
	assert_int_equal(parse(f, "64:128:16,L:Q:m:W,A:32:4,4"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "field 5 'write policy' at column 13"));
	assert_non_null(strstr(f->err, "got 'Q'"));
}

static void zero_mshr_merge_is_rejected(void **state)
{
	struct fixture *f = *state;

	/* Fields: 64 128 16 L B m W A 32 0 4: 'MSHR max merge' is field 10 at column 24. */
	assert_int_equal(parse(f, "64:128:16,L:B:m:W,A:32:0,4"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "field 10 'MSHR max merge' at column 24"));
	assert_non_null(strstr(f->err, "expected at least 1"));
}

static void sets_and_line_must_be_powers_of_two(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "48:128:16"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "field 1 'sets' at column 1: expected a power of two"));
	assert_int_equal(parse(f, "64:96:16"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "field 2 'line' at column 4"));
	assert_int_equal(parse(f, "64:16:16"), WG_ECONFIG); /* below one 32 B sector */
	assert_non_null(strstr(f->err, "'line'"));
}

static void wrong_group_counts_are_rejected(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "64:128"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "group 1 (from field 1 at column 1) has 2 fields"));
	assert_int_equal(parse(f, "64:128:16,L:B:m:W"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "2 comma-separated groups"));
	/* Group 3 "A:32" starts at field 8, column 19. */
	assert_int_equal(parse(f, "64:128:16,L:B:m:W,A:32,4"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "group 3 (from field 8 at column 19) has 2 fields"));
}

static void empty_and_oversized_fields_are_rejected(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "64::16"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "field 2 'line' at column 4"));
	assert_int_equal(parse(f, ""), WG_ECONFIG);
	assert_int_equal(parse(f, "64:128:99999999999"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "expected at most"));
	assert_int_equal(parse(f, "64:128:16 "), WG_ECONFIG); /* callers trim; inner blanks are errors */
	assert_int_equal(parse(f, "none"), WG_ECONFIG);
	assert_non_null(strstr(f->err, "not supported"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(short_form_gtx480_l2_takes_the_gtx480_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(full_form_gives_every_field, setup, teardown),
		cmocka_unit_test_setup_teardown(full_form_with_index_result_fifo_and_port_width, setup, teardown),
		cmocka_unit_test_setup_teardown(leading_cache_type_letter_is_accepted, setup, teardown),
		cmocka_unit_test_setup_teardown(non_number_names_the_field_and_its_position, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_policy_letter_names_the_field_and_its_position, setup, teardown),
		cmocka_unit_test_setup_teardown(zero_mshr_merge_is_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(sets_and_line_must_be_powers_of_two, setup, teardown),
		cmocka_unit_test_setup_teardown(wrong_group_counts_are_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(empty_and_oversized_fields_are_rejected, setup, teardown),
	};
	return cmocka_run_group_tests_name("cache_str", tests, NULL, NULL);
}
