/* cmocka tests of the retire log (host/src/retire.c, docs/retire-log.md) and of what the model writes to it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "func_fixture.h"

#define HEADER "# warpgate retire log v1: cta warp pc active exec dst values\n"

struct logfile {
	char path[64];
	struct wg_retire_log *log;
};

static int log_setup(void **state)
{
	struct logfile *l = calloc(1, sizeof(*l));
	int fd;

	assert_non_null(l);
	strcpy(l->path, "/tmp/wg_retire_test_XXXXXX");
	fd = mkstemp(l->path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(wg_retire_open(&l->log, l->path), 0);
	*state = l;
	return 0;
}

static int log_teardown(void **state)
{
	struct logfile *l = *state;

	if (l->log)
		wg_retire_close(l->log);
	unlink(l->path);
	free(l);
	return 0;
}

/* Close the log and return its text. */
static char *log_text(struct logfile *l)
{
	static char buf[16384];
	FILE *in;
	size_t n;

	wg_retire_close(l->log);
	l->log = NULL;
	in = fopen(l->path, "r");
	assert_non_null(in);
	n = fread(buf, 1, sizeof(buf) - 1, in);
	buf[n] = '\0';
	fclose(in);
	return buf;
}

static void record_without_destination(void **state)
{
	struct logfile *l = *state;
	struct wg_retire_rec r = { .cta = 5, .warp = 2, .pc = 17, .active = ~0u, .exec = 0xFFFF, .dst = WG_RD_NONE };

	wg_retire_write(l->log, &r);
	r.cta = 4294967295u;
	r.exec = 0;
	wg_retire_write(l->log, &r);
	assert_string_equal(log_text(l), HEADER
	                    "5 2 17 ffffffff 0000ffff -\n"
	                    "4294967295 2 17 ffffffff 00000000 -\n");
}

static void register_values_of_exec_lanes_in_ascending_order(void **state)
{
	struct logfile *l = *state;
	uint32_t vals[32][4] = { { 0 } };
	struct wg_retire_rec r = { .cta = 0, .warp = 1, .pc = 3, .active = 0xFF, .exec = 0x85, .dst = WG_RD_REG,
		                   .reg = 4, .nregs = 1, .vals = (const uint32_t (*)[4])vals };

	for (int i = 0; i < 32; i++) {
		vals[i][0] = 0x100u + (uint32_t)i;
		vals[i][1] = 0xABCD0000u + (uint32_t)i;
		vals[i][2] = 0xFFFFFFFFu;
		vals[i][3] = (uint32_t)i << 24;
	}
	wg_retire_write(l->log, &r);
	r.nregs = 2;
	r.reg = 62;
	r.exec = 0x3;
	wg_retire_write(l->log, &r);
	r.nregs = 4;
	r.reg = 8;
	r.exec = 0x80000000u;
	r.active = ~0u;
	wg_retire_write(l->log, &r);
	r.exec = 0; /* empty execution mask: the destination, no values */
	wg_retire_write(l->log, &r);
	assert_string_equal(log_text(l), HEADER
	                    "0 1 3 000000ff 00000085 R4 00000100 00000102 00000107\n"
	                    "0 1 3 000000ff 00000003 R62x2 00000100:abcd0000 00000101:abcd0001\n"
	                    "0 1 3 ffffffff 80000000 R8x4 0000011f:abcd001f:ffffffff:1f000000\n"
	                    "0 1 3 ffffffff 00000000 R8x4\n");
}

static void predicate_shows_only_exec_lanes(void **state)
{
	struct logfile *l = *state;
	struct wg_retire_rec r = { .cta = 1, .warp = 0, .pc = 9, .active = ~0u, .exec = 0x0000FFFFu,
		                   .dst = WG_RD_PRED, .reg = 6, .pred = 0xF0F0F0F0u };

	wg_retire_write(l->log, &r);
	assert_string_equal(log_text(l), HEADER "1 0 9 ffffffff 0000ffff P6 0000f0f0\n");
}

static void target_dependent_values_print_a_placeholder(void **state)
{
	struct logfile *l = *state;
	uint32_t vals[32][4] = { { 0 } };
	struct wg_retire_rec r = { .cta = 0, .warp = 0, .pc = 0, .active = 1, .exec = 1, .dst = WG_RD_REG,
		                   .reg = 7, .nregs = 1, .skip_values = 1, .vals = (const uint32_t (*)[4])vals };

	wg_retire_write(l->log, &r);
	assert_string_equal(log_text(l), HEADER "0 0 0 00000001 00000001 R7 *\n");
}

static void open_fails_on_a_bad_path(void **state)
{
	struct wg_retire_log *log = (void *)1;

	(void)state;
	assert_int_not_equal(wg_retire_open(&log, "/nonexistent-dir/x/retire.log"), 0);
	assert_null(log);
	assert_int_equal(wg_retire_open(NULL, "/tmp/x"), WG_EINVAL);
	assert_null(wg_retire_file(NULL));
	wg_retire_write(NULL, NULL); /* a NULL log ignores records */
	wg_retire_close(NULL);
}

struct buf_params {
	uint64_t buf;
};

static void model_writes_one_line_per_warp_instruction(void **state)
{
	struct fx *f = *state;
	char path[64], want[2048];
	char *text;
	const struct wg_kernel *k = fx_asm(f,
		".kernel tiny\n"
		".regs 8\n"
		".param ptr buf\n"
		"    S2R R0, SR_LANEID\n"
		"    S2R R1, SR_CLOCK\n"
		"    ISETP.LT P1, R0, 2\n"
		"@P1 IADD R2, R0, 10\n"
		"@P6 MOV R3, 1\n"
		"    LDC.32 R4, [buf]\n"
		"    LDG.64 R6, [R4]\n"
		"    STG.32 [R4], R0\n"
		"    ISETP.LT PT, R0, 2\n"
		"    IADD RZ, R0, 1\n"
		"    EXIT\n");
	static const uint32_t init[2] = { 0x11111111u, 0x22222222u };
	struct buf_params p = { fx_upload(f, init, 8) };
	uint32_t b = (uint32_t)p.buf;

	fx_log_begin(f, path);
	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(4, 1, 1), &p, 0);
	text = fx_log_end(f, path);
	snprintf(want, sizeof(want),
	         HEADER
	         "# kernel tiny grid 1 1 1 block 4 1 1\n"
	         "0 0 0 0000000f 0000000f R0 00000000 00000001 00000002 00000003\n"
	         "0 0 1 0000000f 0000000f R1 *\n"
	         "0 0 2 0000000f 0000000f P1 00000003\n"
	         "0 0 3 0000000f 00000003 R2 0000000a 0000000b\n"
	         "0 0 4 0000000f 00000000 R3\n"
	         "0 0 5 0000000f 0000000f R4 %08x %08x %08x %08x\n"
	         "0 0 6 0000000f 0000000f R6x2 11111111:22222222 11111111:22222222 11111111:22222222 "
	         "11111111:22222222\n"
	         "0 0 7 0000000f 0000000f -\n"
	         "0 0 8 0000000f 0000000f -\n"
	         "0 0 9 0000000f 0000000f -\n"
	         "0 0 10 0000000f 0000000f -\n",
	         b, b, b, b);
	assert_string_equal(text, want);
	free(text);
}

static void warps_interleave_but_each_stream_is_in_program_order(void **state)
{
	struct fx *f = *state;
	char path[64];
	char *text;
	struct fx_ret r[16];
	unsigned n0, n1;
	const struct wg_kernel *k = fx_asm(f,
		".kernel bar\n"
		".regs 4\n"
		"    S2R R0, SR_TID.X\n"
		"    BAR.SYNC 0\n"
		"    IADD R1, R0, 1\n"
		"    EXIT\n");
	const char *p;
	int order[8], nl = 0;

	fx_log_begin(f, path);
	fx_run(f, k, fx_dim(2, 1, 1), fx_dim(64, 1, 1), NULL, 0);
	text = fx_log_end(f, path);
	for (uint32_t c = 0; c < 2; c++) {
		n0 = fx_log_lines(text, c, 0, r, 16);
		assert_int_equal(n0, 4);
		for (unsigned i = 0; i < 4; i++)
			assert_int_equal(r[i].pc, i);
		n1 = fx_log_lines(text, c, 1, r, 16);
		assert_int_equal(n1, 4);
		assert_string_equal(r[2].dst, "R1");
	}
	/* CTA 0: warp 0 to the barrier, warp 1 to the barrier, then warp 0, then warp 1 */
	for (p = text; *p && nl < 8; p = strchr(p, '\n') + 1) {
		unsigned cta, warp;

		if (*p != '#' && sscanf(p, "%u %u", &cta, &warp) == 2)
			order[nl++] = (int)warp;
	}
	assert_int_equal(nl, 8);
	{
		static const int want[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };

		assert_memory_equal(order, want, sizeof(want));
	}
	free(text);
}

static void disabled_log_changes_nothing(void **state)
{
	struct fx *f = *state;
	char path[64];
	char *text;
	struct wg_stats with;
	const struct wg_kernel *k = fx_asm(f,
		".kernel loop\n"
		".regs 4\n"
		"    MOV R1, 0\n"
		"l:  IADD R1, R1, 1\n"
		"    ISETP.LT P0, R1, 50\n"
		"@P0 BRA l\n"
		"    EXIT\n");
	size_t lines = 0;

	fx_log_begin(f, path);
	fx_run(f, k, fx_dim(3, 1, 1), fx_dim(40, 1, 1), NULL, 0);
	text = fx_log_end(f, path);
	with = f->st;
	fx_run(f, k, fx_dim(3, 1, 1), fx_dim(40, 1, 1), NULL, 0);
	assert_int_equal(f->st.warp_insts, with.warp_insts);
	assert_int_equal(f->st.thread_insts, with.thread_insts);
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 2 + with.warp_insts); /* header, kernel comment, one per instruction */
	free(text);
}

int main(void)
{
#define L(fn) cmocka_unit_test_setup_teardown(fn, log_setup, log_teardown)
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		L(record_without_destination),
		L(register_values_of_exec_lanes_in_ascending_order),
		L(predicate_shows_only_exec_lanes),
		L(target_dependent_values_print_a_placeholder),
		cmocka_unit_test(open_fails_on_a_bad_path),
		T(model_writes_one_line_per_warp_instruction),
		T(warps_interleave_but_each_stream_is_in_program_order),
		T(disabled_log_changes_nothing),
	};

	return FX_RUN_BOTH("retire", tests);
}
