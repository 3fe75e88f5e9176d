/* cmocka tests of the configuration module (host/src/config.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config.h"
#include "warpgate.h"

struct fixture {
	char path[64];
	struct wg_config cfg;
	char err[512];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	strcpy(f->path, "/tmp/wg_cfg_XXXXXX");
	int fd = mkstemp(f->path);
	assert_true(fd >= 0);
	close(fd);
	wg_config_default(&f->cfg);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	unlink(f->path);
	free(f);
	return 0;
}

static void write_file(const struct fixture *f, const char *text)
{
	FILE *fp = fopen(f->path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void default_is_the_papers_gtx480(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(f->cfg.num_sms, 15);
	assert_int_equal(f->cfg.max_warps_per_sm * f->cfg.warp_size, 1536);
	assert_int_equal(f->cfg.regs_per_sm, 32768);
	assert_int_equal(f->cfg.simd_width, 16);
	assert_int_equal(f->cfg.simd_units, 2);
	assert_int_equal(f->cfg.max_ctas_per_sm, 8);
	assert_int_equal(f->cfg.mem_channels, 6);
	assert_int_equal(f->cfg.core_clock_mhz, 700);
	assert_int_equal(f->cfg.shmem_bytes + 16384, f->cfg.shmem_l1_bytes);
}

static void shipped_gtx480_file_equals_builtin_default(void **state)
{
	struct fixture *f = *state;
	struct wg_config zero;
	memset(&zero, 0, sizeof(zero));
	/* Loading over zeroes must give every default value: the file names every key. */
	assert_int_equal(wg_config_load(&zero, "configs/gtx480.cfg", f->err, sizeof(f->err)), 0);
	assert_memory_equal(&zero, &f->cfg, sizeof(zero));
}

static void file_overrides_only_its_keys(void **state)
{
	struct fixture *f = *state;
	write_file(f, "# small SM\nn_sm = 1\nmax_warps_per_sm=8 # comment\nmax_threads_per_cta = 256\n\nshmem_bytes = 16K\nname = tiny\n");
	assert_int_equal(wg_config_load(&f->cfg, f->path, f->err, sizeof(f->err)), 0);
	assert_int_equal(f->cfg.num_sms, 1);
	assert_int_equal(f->cfg.max_warps_per_sm, 8);
	assert_int_equal(f->cfg.shmem_bytes, 16384);
	assert_string_equal(f->cfg.name, "tiny");
	assert_int_equal(f->cfg.regs_per_sm, 32768);
}

static void unknown_key_names_file_and_line(void **state)
{
	struct fixture *f = *state;
	write_file(f, "n_sm = 2\n\nwarps = 4\n");
	assert_int_equal(wg_config_load(&f->cfg, f->path, f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, ":3: unknown key 'warps'"));
}

static void malformed_line_is_rejected(void **state)
{
	struct fixture *f = *state;
	write_file(f, "n_sm 2\n");
	assert_int_equal(wg_config_load(&f->cfg, f->path, f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, ":1: expected 'key = value'"));
}

static void out_of_range_and_non_numbers_are_rejected(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(wg_config_set(&f->cfg, "n_sm", "0", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, "expected 1..64"));
	assert_int_equal(wg_config_set(&f->cfg, "n_sm", "fifteen", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, "expected an unsigned integer"));
	assert_int_equal(wg_config_set(&f->cfg, "n_sm", "-1", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_int_equal(wg_config_set(&f->cfg, "warp_size", "16", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_int_equal(f->cfg.num_sms, 15); /* unchanged by failed sets */
}

static void inconsistent_values_are_rejected(void **state)
{
	struct fixture *f = *state;
	write_file(f, "shmem_bytes = 128K\n");
	assert_int_equal(wg_config_load(&f->cfg, f->path, f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, "exceeds shmem_l1_bytes"));
}

static void bad_dram_timing_names_file_line_key_and_parameter(void **state)
{
	struct fixture *f = *state;
	char before[WG_CFG_STR];
	strcpy(before, f->cfg.dram_timing);
	/* "nbk=16:CCD=2:" is 13 characters: the unknown name is field 3 at offset 13. */
	write_file(f, "n_sm = 2\ndram_timing = nbk=16:CCD=2:XYZ=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12\n");
	assert_int_equal(wg_config_load(&f->cfg, f->path, f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, ":2: dram_timing: unknown parameter 'XYZ' (field 3, offset 13)"));
	assert_string_equal(f->cfg.dram_timing, before);
}

static void missing_file_is_enoent(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(wg_config_load(&f->cfg, "/nonexistent/x.cfg", f->err, sizeof(f->err)), WG_ENOENT);
	assert_non_null(strstr(f->err, "/nonexistent/x.cfg"));
}

static void written_config_loads_back_identically(void **state)
{
	struct fixture *f = *state;
	struct wg_config back;
	assert_int_equal(wg_config_set(&f->cfg, "dl1", "64:128:6", f->err, sizeof(f->err)), 0);
	assert_int_equal(wg_config_set(&f->cfg, "l1_cache_global", "1", f->err, sizeof(f->err)), 0);
	FILE *fp = fopen(f->path, "w");
	wg_config_write(&f->cfg, fp);
	fclose(fp);
	memset(&back, 0, sizeof(back));
	assert_int_equal(wg_config_load(&back, f->path, f->err, sizeof(f->err)), 0);
	assert_memory_equal(&back, &f->cfg, sizeof(back));
}

static void cta_dispatch_keys_take_policy_names_and_decimals(void **state)
{
	struct fixture *f = *state;

	/* defaults: the paper's alpha 0.5, beta 1.0; round-robin as the GPU does */
	assert_string_equal(f->cfg.cta_policy, "rr");
	assert_true(f->cfg.cta_alpha == 0.5);
	assert_true(f->cfg.cta_beta == 1.0);
	assert_int_equal(f->cfg.cta_min_sms, 8);
	write_file(f, "cta_policy = congestion\ncta_alpha = 0.25\ncta_slowdown_pct = 2.5e1\ncta_threshold = 3\n");
	assert_int_equal(wg_config_load(&f->cfg, f->path, f->err, sizeof(f->err)), 0);
	assert_string_equal(f->cfg.cta_policy, "congestion");
	assert_true(f->cfg.cta_alpha == 0.25);
	assert_true(f->cfg.cta_slowdown_pct == 25.0);
	assert_true(f->cfg.cta_threshold == 3.0);
	assert_int_equal(wg_config_set(&f->cfg, "cta_policy", "greedy", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, "expected rr, consolidate or congestion"));
	assert_int_equal(wg_config_set(&f->cfg, "cta_beta", "1.0x", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, "expected a number"));
	assert_int_equal(wg_config_set(&f->cfg, "cta_alpha", "-0.5", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, "expected 0..1000"));
	assert_int_equal(wg_config_set(&f->cfg, "cta_threshold", "nan", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_string_equal(f->cfg.cta_policy, "congestion"); /* unchanged by failed sets */
	assert_true(f->cfg.cta_alpha == 0.25);
	/* a value %.15g cannot carry still writes and loads back exactly */
	assert_int_equal(wg_config_set(&f->cfg, "cta_alpha", "0.30000000000000004", f->err, sizeof(f->err)), 0);
	FILE *fp = fopen(f->path, "w");
	wg_config_write(&f->cfg, fp);
	fclose(fp);
	struct wg_config back;
	memset(&back, 0, sizeof(back));
	assert_int_equal(wg_config_load(&back, f->path, f->err, sizeof(f->err)), 0);
	assert_memory_equal(&back, &f->cfg, sizeof(back));
}

static void bad_cache_string_names_file_line_key_and_field(void **state)
{
	struct fixture *f = *state;

	/* Line 2's dl2 has a letter where the associativity goes: field 3 at column 8. */
	write_file(f, "dl1 = 64:128:6,L:L:m:N:H,S:64:8,8\ndl2 = 64:128:x\n");
	assert_int_equal(wg_config_load(&f->cfg, f->path, f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, ":2: dl2: cache string '64:128:x': field 3 'assoc' at column 8"));
	assert_int_equal(wg_config_set(&f->cfg, "dl1", "32:128", f->err, sizeof(f->err)), WG_ECONFIG);
	assert_non_null(strstr(f->err, "dl1: "));
	assert_string_equal(f->cfg.dl1, "64:128:6,L:L:m:N:H,S:64:8,8"); /* line 1 was applied */
	assert_string_equal(f->cfg.dl2, "64:128:16");
}

/* pg_down_pct / pg_up_pct: three percentages; errors name the position and the item. */
static void pct_lists_take_three_percentages(void **state)
{
	struct fixture *f = *state;
	uint32_t v[3];

	assert_int_equal(wg_config_parse_pct3("80,55,30", v, f->err, sizeof(f->err)), 0);
	assert_int_equal(v[0], 80);
	assert_int_equal(v[1], 55);
	assert_int_equal(v[2], 30);
	assert_int_not_equal(wg_config_parse_pct3("80,55", v, f->err, sizeof(f->err)), 0);
	assert_non_null(strstr(f->err, "position 6"));
	assert_int_not_equal(wg_config_parse_pct3("80,101,30", v, f->err, sizeof(f->err)), 0);
	assert_non_null(strstr(f->err, "item 2 at position 4"));
	assert_int_not_equal(wg_config_parse_pct3("80,50,30,1", v, f->err, sizeof(f->err)), 0);
	assert_non_null(strstr(f->err, "after the third item"));
	assert_int_not_equal(wg_config_set(&f->cfg, "pg_up_pct", "60;40;20", f->err, sizeof(f->err)), 0);
	assert_non_null(strstr(f->err, "pg_up_pct"));
}

/* The key pg sets the policy keys; a bad mode is named. */
static void pg_mode_sets_the_policy_keys(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(f->cfg.pg_lane + f->cfg.pg_issue_ctrl + f->cfg.pg_compaction, 0);
	assert_int_equal(wg_config_set(&f->cfg, "pg", "issue", f->err, sizeof(f->err)), 0);
	assert_int_equal(f->cfg.pg_lane, 1);
	assert_int_equal(f->cfg.pg_issue_ctrl, 1);
	assert_int_equal(f->cfg.pg_compaction, 0);
	assert_int_equal(wg_config_set(&f->cfg, "pg", "comp", f->err, sizeof(f->err)), 0);
	assert_int_equal(f->cfg.pg_issue_ctrl, 0);
	assert_int_equal(f->cfg.pg_compaction, 1);
	assert_int_equal(wg_config_set(&f->cfg, "pg", "off", f->err, sizeof(f->err)), 0);
	assert_int_equal(f->cfg.pg_lane + f->cfg.pg_issue_ctrl + f->cfg.pg_compaction, 0);
	assert_int_not_equal(wg_config_set(&f->cfg, "pg", "sometimes", f->err, sizeof(f->err)), 0);
	assert_non_null(strstr(f->err, "'sometimes'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(default_is_the_papers_gtx480, setup, teardown),
		cmocka_unit_test_setup_teardown(shipped_gtx480_file_equals_builtin_default, setup, teardown),
		cmocka_unit_test_setup_teardown(file_overrides_only_its_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(unknown_key_names_file_and_line, setup, teardown),
		cmocka_unit_test_setup_teardown(malformed_line_is_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(out_of_range_and_non_numbers_are_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(inconsistent_values_are_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_dram_timing_names_file_line_key_and_parameter, setup, teardown),
		cmocka_unit_test_setup_teardown(missing_file_is_enoent, setup, teardown),
		cmocka_unit_test_setup_teardown(written_config_loads_back_identically, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_cache_string_names_file_line_key_and_field, setup, teardown),
		cmocka_unit_test_setup_teardown(cta_dispatch_keys_take_policy_names_and_decimals, setup, teardown),
		cmocka_unit_test_setup_teardown(pct_lists_take_three_percentages, setup, teardown),
		cmocka_unit_test_setup_teardown(pg_mode_sets_the_policy_keys, setup, teardown),
	};
	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
