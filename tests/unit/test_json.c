/* cmocka tests of the JSON writer and the statistics serialiser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json.h"
#include "stats.h"
#include "warpgate.h"

struct fixture {
	char *buf;
	size_t len;
	FILE *out;
	struct wg_json j;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->out = open_memstream(&f->buf, &f->len);
	wg_json_init(&f->j, f->out);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	if (f->out)
		fclose(f->out);
	free(f->buf);
	free(f);
	return 0;
}

static const char *text(struct fixture *f)
{
	fflush(f->out);
	return f->buf;
}

static void nested_object_and_array_layout(void **state)
{
	struct fixture *f = *state;
	wg_json_begin_object(&f->j, NULL);
	wg_json_u64(&f->j, "a", 1);
	wg_json_begin_array(&f->j, "b");
	wg_json_i64(&f->j, NULL, -2);
	wg_json_bool(&f->j, NULL, 1);
	wg_json_end_array(&f->j);
	wg_json_begin_object(&f->j, "empty");
	wg_json_end_object(&f->j);
	wg_json_end_object(&f->j);
	wg_json_finish(&f->j);
	assert_string_equal(text(f), "{\n  \"a\": 1,\n  \"b\": [\n    -2,\n    true\n  ],\n  \"empty\": {}\n}\n");
}

static void strings_are_escaped(void **state)
{
	struct fixture *f = *state;
	wg_json_str(&f->j, NULL, "q\"b\\n\n\x01");
	assert_string_equal(text(f), "\"q\\\"b\\\\n\\n\\u0001\"");
}

static void non_finite_doubles_become_null(void **state)
{
	struct fixture *f = *state;
	wg_json_begin_array(&f->j, NULL);
	wg_json_double(&f->j, NULL, 1.0 / 0.0);
	wg_json_double(&f->j, NULL, 0.5);
	wg_json_end_array(&f->j);
	assert_string_equal(text(f), "[\n  null,\n  0.5\n]");
}

static void stats_add_sums_every_counter(void **state)
{
	struct wg_stats a, b;
	(void)state;
	wg_stats_clear(&a);
	wg_stats_clear(&b);
	b.warp_insts = 10;
	b.thread_insts = 300;
	b.class_warp[WG_CLASS_FP] = 4;
	b.divergent_branches = 2;
	b.atom_ops = 7;
	b.mem[WG_MC_GLD_TX] = 3;
	b.host_seconds = 0.25;
	wg_stats_add(&a, &b);
	wg_stats_add(&a, &b);
	assert_int_equal(a.warp_insts, 20);
	assert_int_equal(a.thread_insts, 600);
	assert_int_equal(a.class_warp[WG_CLASS_FP], 8);
	assert_int_equal(a.divergent_branches, 4);
	assert_int_equal(a.atom_ops, 14);
	assert_int_equal(a.mem[WG_MC_GLD_TX], 6);
	assert_true(a.host_seconds == 0.5);
}

static void stats_json_uses_nvprof_names(void **state)
{
	struct fixture *f = *state;
	struct wg_stats s;
	wg_stats_clear(&s);
	s.warp_insts = 8;
	s.thread_insts = 128;
	s.class_warp[WG_CLASS_ATOMIC] = 3;
	wg_json_begin_object(&f->j, NULL);
	wg_stats_to_json(&s, &f->j);
	wg_json_end_object(&f->j);
	const char *t = text(f);
	assert_non_null(strstr(t, "\"inst_executed\": 8,"));
	assert_non_null(strstr(t, "\"thread_inst_executed\": 128,"));
	assert_non_null(strstr(t, "\"warp_execution_efficiency\": 0.5,"));
	assert_non_null(strstr(t, "\"atomic\": 3"));
	assert_non_null(strstr(t, "\"divergent_branch\": 0"));
}

static void stats_json_has_the_memory_counters(void **state)
{
	struct fixture *f = *state;
	struct wg_stats s;
	const char *t, *prev;
	uint64_t v = 0;

	wg_stats_clear(&s);
	for (int i = 0; i < WG_MEMCNT_COUNT; i++)
		s.mem[i] = 100 + (uint64_t)i;
	s.mem[WG_MC_GLD_REQ] = 4;
	s.mem[WG_MC_GLD_TX] = 10;
	s.mem[WG_MC_GST_REQ] = 5;
	s.mem[WG_MC_GST_TX] = 3; /* fewer transactions than requests: no negative replays */
	s.mem[WG_MC_L1_GLD_HIT] = 3;
	s.mem[WG_MC_L1_GLD_MISS] = 1;
	s.mem[WG_MC_L1_LLD_HIT] = 1;
	s.mem[WG_MC_L1_LLD_MISS] = 2;
	s.mem[WG_MC_L1_LST_HIT] = 1;
	s.mem[WG_MC_L1_LST_MISS] = 4;
	s.atom_ops = 9;
	wg_json_begin_object(&f->j, NULL);
	wg_stats_to_json(&s, &f->j);
	wg_json_end_object(&f->j);
	t = text(f);
	assert_non_null(strstr(t, "\"atom_ops\": 9,"));
	assert_non_null(strstr(t, "\"memory\": {"));
	/* every counter by name, in the order of docs/memory-pipeline.md section 2 */
	prev = strstr(t, "\"memory\": {");
	for (int i = 0; i < WG_MEMCNT_COUNT; i++) {
		char key[64];
		const char *p;

		snprintf(key, sizeof(key), "\"%s\": %llu,", wg_memcnt_names[i], (unsigned long long)s.mem[i]);
		p = strstr(t, key);
		if (!p)
			print_error("missing %s\n", key);
		assert_non_null(p);
		assert_true(p > prev);
		prev = p;
		assert_int_equal(wg_memcnt_index(wg_memcnt_names[i]), i);
	}
	assert_string_equal(wg_memcnt_names[WG_MC_ATOM_COUNT], "atom_count");
	assert_string_equal(wg_memcnt_names[WG_MC_LDC_REQ], "ldc_requests");
	assert_string_equal(wg_memcnt_names[WG_MEMCNT_COUNT - 1], "mem_write_bytes");
	assert_non_null(strstr(t, "\"gld_replays\": 6,"));
	assert_non_null(strstr(t, "\"gst_replays\": 0,"));
	assert_non_null(strstr(t, "\"local_replays\": 2,"));   /* (105 + 107) - (104 + 106) */
	assert_non_null(strstr(t, "\"shared_replays\": 2,"));  /* (109 + 111) - (108 + 110) */
	assert_non_null(strstr(t, "\"shared_bank_conflicts\": 2,"));
	assert_non_null(strstr(t, "\"l1_global_hit_rate\": 0.75,"));
	assert_non_null(strstr(t, "\"l1_local_hit_rate\": 0.25\n")); /* (1 + 1) / (1 + 2 + 1 + 4) */
	/* by name */
	assert_int_equal(wg_stats_value(&s, "gld_transactions", &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(wg_stats_value(&s, "gld_replays", &v), 0);
	assert_int_equal(v, 6);
	assert_int_equal(wg_stats_value(&s, "atom_ops", &v), 0);
	assert_int_equal(v, 9);
	assert_int_equal(wg_stats_value(&s, "atom_count", &v), 0);
	assert_int_equal(v, 113);
	assert_int_equal(wg_stats_value(&s, "nosuch", &v), WG_ENOENT);
}

static void stats_json_hit_rates_are_zero_when_undefined(void **state)
{
	struct fixture *f = *state;
	struct wg_stats s;

	wg_stats_clear(&s);
	wg_json_begin_object(&f->j, NULL);
	wg_stats_to_json(&s, &f->j);
	wg_json_end_object(&f->j);
	assert_non_null(strstr(text(f), "\"l1_global_hit_rate\": 0,"));
	assert_non_null(strstr(text(f), "\"l1_local_hit_rate\": 0\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(nested_object_and_array_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(strings_are_escaped, setup, teardown),
		cmocka_unit_test_setup_teardown(non_finite_doubles_become_null, setup, teardown),
		cmocka_unit_test(stats_add_sums_every_counter),
		cmocka_unit_test_setup_teardown(stats_json_uses_nvprof_names, setup, teardown),
		cmocka_unit_test_setup_teardown(stats_json_has_the_memory_counters, setup, teardown),
		cmocka_unit_test_setup_teardown(stats_json_hit_rates_are_zero_when_undefined, setup, teardown),
	};
	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
