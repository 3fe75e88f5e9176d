/* cmocka tests of libwarpgate's public API (host/src/device.c) on the func target. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "asm.h"
#include "image.h"
#include "warpgate.h"

static const char *add1_src =
	".kernel add1\n"
	".regs 6\n"
	".param ptr a\n"
	".param u32 n\n"
	"    S2R R0, SR_CTAID.X\n"
	"    S2R R1, SR_NTID.X\n"
	"    S2R R2, SR_TID.X\n"
	"    IMAD R0, R0, R1, R2      ; i = ctaid * ntid + tid\n"
	"    LDC.32 R1, [n]\n"
	"    ISETP.GE.U32 P0, R0, R1\n"
	"@P0 EXIT\n"
	"    LDC.32 R3, [a]\n"
	"    SHL R4, R0, 2\n"
	"    IADD R3, R3, R4\n"
	"    LDG.32 R5, [R3]\n"
	"    IADD R5, R5, 1\n"
	"    STG.32 [R3], R5\n"
	"    EXIT\n";

struct add1_params {
	uint64_t a;
	uint32_t n;
	uint32_t pad;
};

struct fixture {
	struct wg_device *dev;
	struct wg_module *mod;
	char src[64], img[64], log[64];
};

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd;

	strcpy(f->src, "/tmp/wg_api_XXXXXX.s");
	fd = mkstemps(f->src, 2);
	close(fd);
	write_text(f->src, add1_src);
	snprintf(f->img, sizeof(f->img), "%.*s.wgk", (int)strlen(f->src) - 2, f->src);
	snprintf(f->log, sizeof(f->log), "%.*s.log", (int)strlen(f->src) - 2, f->src);
	assert_int_equal(wg_open(&f->dev, "func", NULL), 0);
	assert_int_equal(wg_module_load(f->dev, &f->mod, f->src), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	wg_close(f->dev);
	unlink(f->src);
	unlink(f->img);
	unlink(f->log);
	free(f);
	return 0;
}

static void launch_add1(struct fixture *f, uint32_t n, uint32_t block, uint64_t *dptr, uint32_t *host, int expect)
{
	struct add1_params p = { 0 };
	for (uint32_t i = 0; i < n; i++)
		host[i] = i * 3;
	assert_int_equal(wg_malloc(f->dev, dptr, n * 4), 0);
	assert_int_equal(wg_memcpy_htod(f->dev, *dptr, host, n * 4), 0);
	p.a = *dptr;
	p.n = n;
	wg_dim3 grid = { (n + block - 1) / block, 1, 1 }, blk = { block, 1, 1 };
	assert_int_equal(wg_launch(f->dev, f->mod, "add1", grid, blk, &p, sizeof(p), 0), expect);
}

static void kernel_runs_and_results_come_back(void **state)
{
	struct fixture *f = *state;
	uint32_t host[1000], out[1000];
	uint64_t d;

	launch_add1(f, 1000, 128, &d, host, 0);
	assert_int_equal(wg_synchronize(f->dev), 0);
	assert_int_equal(wg_memcpy_dtoh(f->dev, out, d, sizeof(out)), 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(out[i], host[i] + 1);
	assert_int_equal(wg_free(f->dev, d), 0);
}

static void stats_json_lists_launches_and_totals(void **state)
{
	struct fixture *f = *state;
	uint32_t host[64];
	uint64_t d;
	char *buf = NULL;
	size_t len = 0;

	launch_add1(f, 64, 32, &d, host, 0);
	FILE *m = open_memstream(&buf, &len);
	assert_int_equal(wg_stats_json(f->dev, m), 0);
	fclose(m);
	assert_non_null(strstr(buf, "\"target\": \"func\""));
	assert_non_null(strstr(buf, "\"kernel\": \"add1\""));
	assert_non_null(strstr(buf, "\"ctas\": 2"));
	/* 2 CTAs x 1 warp x 14 instructions, all lanes in range. */
	assert_non_null(strstr(buf, "\"inst_executed\": 28"));
	/* The launch's resources and occupancy: .regs 6, no shared or local memory, one warp per
	 * CTA; GTX480 defaults: 48 warp slots, 8 CTA slots, so the 8 CTA slots bound it. */
	assert_non_null(strstr(buf, "\"regs\": 6,"));
	assert_non_null(strstr(buf, "\"shared_bytes\": 0,"));
	assert_non_null(strstr(buf, "\"local_bytes\": 0,"));
	assert_non_null(strstr(buf, "\"ctas_per_sm\": 8,"));
	assert_non_null(strstr(buf, "\"warps_per_sm\": 8,"));
	assert_non_null(strstr(buf, "\"occupancy_limit\": \"CTA slots\""));
	free(buf);
	assert_int_equal(wg_stats_reset(f->dev), 0);
	buf = NULL;
	m = open_memstream(&buf, &len);
	wg_stats_json(f->dev, m);
	fclose(m);
	assert_non_null(strstr(buf, "\"inst_executed\": 0"));
	assert_null(strstr(buf, "\"kernel\": \"add1\""));
	free(buf);
}

static void image_file_loads_like_source(void **state)
{
	struct fixture *f = *state;
	struct wg_image img = { 0 };
	struct wg_module *mod2;
	uint32_t host[40], out[40];
	uint64_t d;
	struct add1_params p = { 0 };

	assert_int_equal(wg_asm_file(&img, f->src, NULL), 0);
	assert_int_equal(wg_image_write(&img, f->img), 0);
	wg_image_free(&img);
	assert_int_equal(wg_module_load(f->dev, &mod2, f->img), 0);
	for (int i = 0; i < 40; i++)
		host[i] = 100 + i;
	assert_int_equal(wg_malloc(f->dev, &d, sizeof(host)), 0);
	assert_int_equal(wg_memcpy_htod(f->dev, d, host, sizeof(host)), 0);
	p.a = d;
	p.n = 40;
	assert_int_equal(wg_launch(f->dev, mod2, "add1", (wg_dim3){ 1, 1, 1 }, (wg_dim3){ 64, 1, 1 }, &p, sizeof(p), 0), 0);
	assert_int_equal(wg_memcpy_dtoh(f->dev, out, d, sizeof(out)), 0);
	for (int i = 0; i < 40; i++)
		assert_int_equal(out[i], 101 + i);
	assert_int_equal(wg_module_unload(f->dev, mod2), 0);
}

static void unknown_target_and_bad_config_fail_to_open(void **state)
{
	struct wg_device *dev = (void *)1;
	(void)state;
	assert_int_equal(wg_open(&dev, "nosuch", NULL), WG_ETARGET);
	assert_null(dev);
	assert_int_equal(wg_open(&dev, "func", "/nonexistent.cfg"), WG_ENOENT);
	assert_int_equal(wg_open(NULL, "func", NULL), WG_EINVAL);
}

static void memory_errors_are_reported(void **state)
{
	struct fixture *f = *state;
	uint64_t d;
	uint8_t buf[64] = { 0 };

	assert_int_equal(wg_malloc(f->dev, &d, 32), 0);
	assert_int_equal(wg_memcpy_htod(f->dev, d, buf, 64), WG_EFAULT);
	assert_non_null(strstr(wg_last_error(f->dev), "not inside one allocation"));
	assert_int_equal(wg_memcpy_dtoh(f->dev, buf, d + 16, 32), WG_EFAULT);
	assert_int_equal(wg_memcpy_htod(f->dev, 0, buf, 4), WG_EFAULT);
	assert_int_equal(wg_memcpy_htod(f->dev, d, buf, 0), 0);
	assert_int_not_equal(wg_free(f->dev, d + 4), 0);
	assert_int_equal(wg_free(f->dev, d), 0);
	assert_int_not_equal(wg_free(f->dev, d), 0); /* double free */
	assert_int_equal(wg_memcpy_htod(f->dev, d, buf, 4), WG_EFAULT); /* use after free */
}

static void module_load_errors_name_the_input(void **state)
{
	struct fixture *f = *state;
	struct wg_module *m = NULL;
	char bad[64];

	assert_int_equal(wg_module_load(f->dev, &m, "/tmp/wg_no_such_file.s"), WG_ENOENT);
	assert_null(m);
	assert_int_equal(wg_module_load(f->dev, &m, "x.ptx"), WG_ENOENT); /* PTX is translated (docs/ptx.md) */
	assert_non_null(strstr(wg_last_error(f->dev), "x.ptx"));
	assert_int_equal(wg_module_load(f->dev, &m, "x.bin"), WG_EINVAL);
	strcpy(bad, "/tmp/wg_api_bad_XXXXXX.s");
	close(mkstemps(bad, 2));
	write_text(bad, ".kernel k\n.regs 2\n    IADD R1, R0\n    EXIT\n");
	assert_int_equal(wg_module_load(f->dev, &m, bad), WG_ESYNTAX);
	assert_non_null(strstr(wg_last_error(f->dev), ":3:"));
	unlink(bad);
}

static void launch_validation_errors(void **state)
{
	struct fixture *f = *state;
	struct add1_params p = { 0 };
	wg_dim3 one = { 1, 1, 1 };

	assert_int_equal(wg_launch(f->dev, f->mod, "nosuch", one, one, &p, sizeof(p), 0), WG_ENOENT);
	assert_int_equal(wg_launch(f->dev, f->mod, "add1", one, one, &p, 12, 0), WG_EINVAL);
	assert_non_null(strstr(wg_last_error(f->dev), "expects 16 parameter bytes, got 12"));
	assert_int_equal(wg_launch(f->dev, f->mod, "add1", one, (wg_dim3){ 1025, 1, 1 }, &p, sizeof(p), 0),
	                 WG_ELAUNCH);
	assert_int_equal(wg_launch(f->dev, f->mod, "add1", (wg_dim3){ 0, 1, 1 }, one, &p, sizeof(p), 0), WG_ELAUNCH);
	assert_int_equal(wg_launch(f->dev, f->mod, "add1", one, one, &p, sizeof(p), 1 << 20), WG_ELAUNCH);
	assert_non_null(strstr(wg_last_error(f->dev), "shared"));
}

static void kernel_fault_is_sticky_until_synchronize(void **state)
{
	struct fixture *f = *state;
	uint32_t host[64];
	uint64_t d;
	struct add1_params p = { 0 };

	/* n larger than the buffer: threads 32..63 fault, warp 0 has already written. */
	launch_add1(f, 32, 32, &d, host, 0);
	p.a = d;
	p.n = 64;
	assert_int_equal(wg_launch(f->dev, f->mod, "add1", (wg_dim3){ 1, 1, 1 }, (wg_dim3){ 64, 1, 1 }, &p,
	                           sizeof(p), 0),
	                 WG_EFAULT);
	assert_non_null(strstr(wg_last_error(f->dev), "warp 1"));
	assert_non_null(strstr(wg_last_error(f->dev), "lane 0"));
	assert_int_equal(wg_synchronize(f->dev), WG_EFAULT);
	assert_int_equal(wg_synchronize(f->dev), 0);
	uint32_t out[32];
	assert_int_equal(wg_memcpy_dtoh(f->dev, out, d, sizeof(out)), 0);
	for (int i = 0; i < 32; i++)
		assert_int_equal(out[i], host[i] + 2); /* both launches' warp 0 wrote */
}

static void retire_log_gets_one_line_per_warp_instruction(void **state)
{
	struct fixture *f = *state;
	uint32_t host[32];
	uint64_t d;
	char line[4096];
	int lines = 0;

	assert_int_equal(wg_set_retire_log(f->dev, f->log), 0);
	launch_add1(f, 32, 32, &d, host, 0);
	assert_int_equal(wg_synchronize(f->dev), 0);
	assert_int_equal(wg_set_retire_log(f->dev, NULL), 0);
	FILE *fp = fopen(f->log, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp))
		if (line[0] != '#')
			lines++;
	fclose(fp);
	assert_int_equal(lines, 14);
}

static void unknown_option_is_not_supported(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(wg_set_option(f->dev, "no_such_option", "1"), WG_ENOTSUP);
	assert_non_null(strstr(wg_last_error(f->dev), "no_such_option"));
	assert_int_equal(wg_set_option(f->dev, "retire_log", f->log), 0);
	assert_int_equal(wg_set_option(f->dev, "retire_log", NULL), 0);
}

static void every_error_code_has_a_distinct_name(void **state)
{
	(void)state;
	for (int a = WG_ERROR_MIN; a <= 0; a++) {
		assert_non_null(wg_strerror(a));
		for (int b = a + 1; b <= 0; b++)
			assert_string_not_equal(wg_strerror(a), wg_strerror(b));
	}
	assert_string_equal(wg_strerror(-1000), "unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(kernel_runs_and_results_come_back, setup, teardown),
		cmocka_unit_test_setup_teardown(stats_json_lists_launches_and_totals, setup, teardown),
		cmocka_unit_test_setup_teardown(image_file_loads_like_source, setup, teardown),
		cmocka_unit_test(unknown_target_and_bad_config_fail_to_open),
		cmocka_unit_test_setup_teardown(memory_errors_are_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(module_load_errors_name_the_input, setup, teardown),
		cmocka_unit_test_setup_teardown(launch_validation_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(kernel_fault_is_sticky_until_synchronize, setup, teardown),
		cmocka_unit_test_setup_teardown(retire_log_gets_one_line_per_warp_instruction, setup, teardown),
		cmocka_unit_test_setup_teardown(unknown_option_is_not_supported, setup, teardown),
		cmocka_unit_test(every_error_code_has_a_distinct_name),
	};
	return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
