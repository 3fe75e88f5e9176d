/* cmocka tests of the functional memory-port access (host/src/memserve.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gmem.h"
#include "memserve.h"
#include "warpgate.h"

struct fx {
	struct wg_gmem *g;
	uint32_t a; /* 200 bytes: a + i holds byte i + 1 */
	uint8_t rdata[WG_LS_MEM_BYTES];
	struct wg_ls_req r;
	const char *why;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	uint8_t *p;

	assert_non_null(f);
	assert_int_equal(wg_gmem_create(&f->g, 1u << 20), 0);
	assert_int_equal(wg_gmem_alloc(f->g, 200, &f->a), 0);
	p = wg_gmem_ptr(f->g, f->a, 200);
	for (int i = 0; i < 200; i++)
		p[i] = (uint8_t)(i + 1);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	wg_gmem_destroy(f->g);
	free(f);
	return 0;
}

static void req(struct fx *f, uint8_t cmd, uint32_t addr, uint8_t size)
{
	memset(&f->r, 0, sizeof(f->r));
	f->r.cmd = cmd;
	f->r.addr = addr;
	f->r.size = size;
}

static void word_read_lands_at_its_offset_in_the_block(void **state)
{
	struct fx *f = *state;

	req(f, 0, f->a + 132, 2); /* block a + 128, offset 4 */
	assert_int_equal(wg_memserve(f->g, &f->r, f->rdata, &f->why), 0);
	assert_int_equal(f->rdata[3], 0);
	assert_int_equal(f->rdata[4], 133);
	assert_int_equal(f->rdata[7], 136);
	assert_int_equal(f->rdata[8], 0);
}

static void line_read_past_the_allocation_reads_zero(void **state)
{
	struct fx *f = *state;

	/* the second line covers bytes 128..255 of a 200-byte allocation (the rest is padding) */
	req(f, 0, f->a + 128, 7);
	assert_int_equal(wg_memserve(f->g, &f->r, f->rdata, &f->why), 0);
	assert_int_equal(f->rdata[0], 129);
	assert_int_equal(f->rdata[71], 200);
	assert_int_equal(f->rdata[72], 0);
	assert_int_equal(f->rdata[127], 0);
}

static void masked_segment_write_stores_only_enabled_bytes(void **state)
{
	struct fx *f = *state;
	uint8_t *p = wg_gmem_ptr(f->g, f->a, 64);

	req(f, 1, f->a + 32, 5);
	f->r.wmask[33] = 1;
	f->r.wdata[33] = 0xAB;
	f->r.wdata[34] = 0xCD; /* not enabled */
	assert_int_equal(wg_memserve(f->g, &f->r, f->rdata, &f->why), 0);
	assert_int_equal(p[32], 33);
	assert_int_equal(p[33], 0xAB);
	assert_int_equal(p[34], 35);
}

static void atomic_add_returns_the_old_value(void **state)
{
	struct fx *f = *state;
	uint32_t old, now, v = 1000;

	memcpy(wg_gmem_ptr(f->g, f->a + 8, 4), &v, 4);
	req(f, 2, f->a + 8, 2);
	f->r.atom_op = 0; /* ADD */
	f->r.atom_b = 234;
	assert_int_equal(wg_memserve(f->g, &f->r, f->rdata, &f->why), 0);
	memcpy(&old, f->rdata + 8, 4);
	memcpy(&now, wg_gmem_ptr(f->g, f->a + 8, 4), 4);
	assert_int_equal(old, 1000);
	assert_int_equal(now, 1234);
}

static void misaligned_and_unknown_requests_are_faults(void **state)
{
	struct fx *f = *state;

	req(f, 0, f->a + 2, 2);
	assert_int_equal(wg_memserve(f->g, &f->r, f->rdata, &f->why), WG_EFAULT);
	assert_string_equal(f->why, "is misaligned");
	req(f, 3, f->a, 2);
	assert_int_equal(wg_memserve(f->g, &f->r, f->rdata, &f->why), WG_EFAULT);
	assert_string_equal(f->why, "is malformed");
	req(f, 2, f->a, 2);
	f->r.atom_op = 13;
	assert_int_equal(wg_memserve(f->g, &f->r, f->rdata, &f->why), WG_EFAULT);
	assert_string_equal(f->why, "is not a 4-byte atomic of a known operation");
}

static void accesses_outside_allocations_write_nothing(void **state)
{
	struct fx *f = *state;
	uint8_t *p = wg_gmem_ptr(f->g, f->a, 200);

	/* a line write with one enabled byte inside and one past the end: nothing is stored */
	req(f, 1, f->a + 128, 7);
	f->r.wmask[0] = 1;
	f->r.wdata[0] = 0x55;
	f->r.wmask[100] = 1;
	assert_int_equal(wg_memserve(f->g, &f->r, f->rdata, &f->why), WG_EFAULT);
	assert_string_equal(f->why, "writes bytes outside every allocation");
	assert_int_equal(p[128], 129);
	/* a thread word read below the allocation */
	req(f, 0, f->a - 256, 2);
	assert_int_equal(wg_memserve(f->g, &f->r, f->rdata, &f->why), WG_EFAULT);
	assert_string_equal(f->why, "is outside every allocation");
	/* a word write with an enable outside its 4 bytes: nothing is stored */
	req(f, 1, f->a + 4, 2);
	f->r.wmask[4] = 1;
	f->r.wdata[4] = 0x77;
	f->r.wmask[9] = 1;
	assert_int_equal(wg_memserve(f->g, &f->r, f->rdata, &f->why), WG_EFAULT);
	assert_string_equal(f->why, "has byte enables outside its size");
	assert_int_equal(p[4], 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(word_read_lands_at_its_offset_in_the_block, setup, teardown),
		cmocka_unit_test_setup_teardown(line_read_past_the_allocation_reads_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(masked_segment_write_stores_only_enabled_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(atomic_add_returns_the_old_value, setup, teardown),
		cmocka_unit_test_setup_teardown(misaligned_and_unknown_requests_are_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(accesses_outside_allocations_write_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
