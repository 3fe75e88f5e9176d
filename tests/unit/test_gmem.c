/* cmocka tests of device global memory (host/src/gmem.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gmem.h"
#include "warpgate.h"

#define CAP (4u << 20)

static int setup(void **state)
{
	struct wg_gmem *g;

	assert_int_equal(wg_gmem_create(&g, CAP), 0);
	*state = g;
	return 0;
}

static int teardown(void **state)
{
	wg_gmem_destroy(*state);
	return 0;
}

static uint32_t alloc(struct wg_gmem *g, uint64_t bytes)
{
	uint32_t a = 0;

	assert_int_equal(wg_gmem_alloc(g, bytes, &a), 0);
	return a;
}

static void allocations_are_aligned_and_packed_from_the_base(void **state)
{
	struct wg_gmem *g = *state;
	uint32_t a = alloc(g, 1), b = alloc(g, 256), c = alloc(g, 257), d = alloc(g, 4096);

	assert_int_equal(a, WG_GMEM_BASE);
	assert_int_equal(b, WG_GMEM_BASE + 256);
	assert_int_equal(c, WG_GMEM_BASE + 512);
	assert_int_equal(d, WG_GMEM_BASE + 1024);
	assert_int_equal(d % WG_GMEM_ALIGN, 0);
	assert_int_equal(wg_gmem_in_use(g), 1 + 256 + 257 + 4096);
}

static void host_pointer_is_a_fixed_offset_of_the_device_address(void **state)
{
	struct wg_gmem *g = *state;
	uint32_t a = alloc(g, 1000), b = alloc(g, 1000);
	uint8_t *pa = wg_gmem_ptr(g, a, 1), *pb = wg_gmem_ptr(g, b, 1);

	assert_non_null(pa);
	assert_non_null(pb);
	assert_ptr_equal(pb - pa, (ptrdiff_t)(b - a));
	assert_ptr_equal(wg_gmem_ptr(g, a + 999, 1), pa + 999);
	pa[5] = 0x5a;
	assert_int_equal(*wg_gmem_ptr(g, a + 5, 1), 0x5a);
}

static void ranges_must_lie_inside_one_live_allocation(void **state)
{
	struct wg_gmem *g = *state;
	uint32_t a = alloc(g, 10), b = alloc(g, 256);

	assert_non_null(wg_gmem_ptr(g, a, 10));
	assert_non_null(wg_gmem_ptr(g, a + 6, 4));
	assert_null(wg_gmem_ptr(g, a + 6, 5));   /* one past the end */
	assert_null(wg_gmem_ptr(g, a + 10, 1));  /* the alignment padding is not accessible */
	assert_null(wg_gmem_ptr(g, a + 255, 2)); /* spans into the next block */
	assert_non_null(wg_gmem_ptr(g, b + 252, 4));
	assert_null(wg_gmem_ptr(g, b + 252, 8));
	assert_null(wg_gmem_ptr(g, b + 256, 4));  /* after the last allocation */
	assert_null(wg_gmem_ptr(g, 0, 4));        /* the null address */
	assert_null(wg_gmem_ptr(g, WG_GMEM_BASE - 4, 4));
	assert_null(wg_gmem_ptr(g, 0xFFFFFFF0u, 16));
	assert_null(wg_gmem_ptr(g, a, 0xFFFFFFFFu)); /* huge length does not wrap */
}

static void freed_block_is_reused_first_fit_and_reads_zero(void **state)
{
	struct wg_gmem *g = *state;
	uint32_t a = alloc(g, 512), b = alloc(g, 512), c = alloc(g, 256);
	uint8_t *p = wg_gmem_ptr(g, b, 512);

	memset(p, 0xab, 512);
	assert_int_equal(wg_gmem_free(g, b), 0);
	assert_null(wg_gmem_ptr(g, b, 4)); /* use after free */
	assert_int_equal(alloc(g, 600), c + 256); /* does not fit the hole */
	assert_int_equal(alloc(g, 200), b);       /* first fit: the hole */
	p = wg_gmem_ptr(g, b, 200);
	for (int i = 0; i < 200; i++)
		assert_int_equal(p[i], 0);
	assert_int_equal(alloc(g, 100), b + 256); /* the rest of the hole */
	p = wg_gmem_ptr(g, b + 256, 100);
	for (int i = 0; i < 100; i++)
		assert_int_equal(p[i], 0);
	assert_int_equal(a, WG_GMEM_BASE);
}

static void large_freed_block_reads_zero(void **state)
{
	struct wg_gmem *g = *state;
	uint32_t a = alloc(g, 100), big = alloc(g, 1u << 20);
	uint8_t *p = wg_gmem_ptr(g, big, 1u << 20);

	memset(p, 0xff, 1u << 20);
	assert_int_equal(wg_gmem_free(g, big), 0);
	assert_int_equal(alloc(g, (1u << 20) - 8), big);
	p = wg_gmem_ptr(g, big, (1u << 20) - 8);
	for (uint32_t i = 0; i < (1u << 20) - 8; i += 509)
		assert_int_equal(p[i], 0);
	assert_int_equal(p[0] | p[4095] | p[4096] | p[(1u << 20) - 9], 0);
	(void)a;
}

static void double_free_and_inner_address_are_rejected(void **state)
{
	struct wg_gmem *g = *state;
	uint32_t a = alloc(g, 1024);

	assert_int_equal(wg_gmem_free(g, a + 4), WG_EINVAL);
	assert_int_equal(wg_gmem_free(g, 0), WG_EINVAL);
	assert_int_equal(wg_gmem_free(g, a + 4096), WG_EINVAL);
	assert_int_equal(wg_gmem_free(g, a), 0);
	assert_int_equal(wg_gmem_free(g, a), WG_EINVAL);
	assert_int_equal(wg_gmem_in_use(g), 0);
}

static void out_of_memory_is_reported_and_capacity_is_usable(void **state)
{
	struct wg_gmem *g = *state;
	uint32_t a, b, x = 0;

	assert_int_equal(wg_gmem_alloc(g, CAP + 1ull, &x), WG_ENOMEM);
	assert_int_equal(wg_gmem_alloc(g, 1ull << 40, &x), WG_ENOMEM);
	a = alloc(g, CAP / 2);
	b = alloc(g, CAP / 2);
	assert_int_equal(b, a + CAP / 2);
	assert_int_equal(wg_gmem_alloc(g, 1, &x), WG_ENOMEM);
	assert_non_null(wg_gmem_ptr(g, b + CAP / 2 - 4, 4));
	assert_int_equal(wg_gmem_free(g, a), 0);
	assert_int_equal(wg_gmem_alloc(g, CAP / 2 + 1, &x), WG_ENOMEM);
	assert_int_equal(alloc(g, CAP / 2), a);
}

static void in_use_and_peak_follow_allocations(void **state)
{
	struct wg_gmem *g = *state;
	uint32_t a = alloc(g, 1000), b = alloc(g, 3000);

	assert_int_equal(wg_gmem_in_use(g), 4000);
	assert_int_equal(wg_gmem_free(g, a), 0);
	assert_int_equal(wg_gmem_in_use(g), 3000);
	assert_int_equal(wg_gmem_peak(g), 4000);
	assert_int_equal(wg_gmem_free(g, b), 0);
	assert_int_equal(wg_gmem_in_use(g), 0);
	assert_int_equal(wg_gmem_peak(g), 4000);
}

static void zero_byte_allocation_has_a_unique_address_and_no_bytes(void **state)
{
	struct wg_gmem *g = *state;
	uint32_t a = alloc(g, 0), b = alloc(g, 0);

	assert_int_not_equal(a, b);
	assert_null(wg_gmem_ptr(g, a, 1));
	assert_int_equal(wg_gmem_free(g, a), 0);
	assert_int_equal(wg_gmem_free(g, b), 0);
}

static void many_allocations_are_found_by_search(void **state)
{
	struct wg_gmem *g = *state;
	enum { N = 2000 };
	uint32_t *addr = malloc(N * sizeof(*addr));

	assert_non_null(addr);
	for (int i = 0; i < N; i++) {
		addr[i] = alloc(g, 16 + (uint64_t)(i % 7) * 100);
		*(uint32_t *)wg_gmem_ptr(g, addr[i], 4) = (uint32_t)i;
	}
	for (int i = 0; i < N; i += 2)
		assert_int_equal(wg_gmem_free(g, addr[i]), 0);
	for (int k = 0; k < 3 * N; k++) {
		int i = (k * 7919) % N;
		uint32_t *p = (uint32_t *)wg_gmem_ptr(g, addr[i], 4);

		if (i % 2) {
			assert_non_null(p);
			assert_int_equal(*p, (uint32_t)i);
			assert_non_null(wg_gmem_ptr(g, addr[i] + 12, 4));
			assert_null(wg_gmem_ptr(g, addr[i] + 16 + (uint32_t)(i % 7) * 100, 1));
		} else {
			assert_null(p);
		}
	}
	free(addr);
}

static void create_rejects_bad_capacity(void **state)
{
	struct wg_gmem *g = (void *)1;

	(void)state;
	assert_int_equal(wg_gmem_create(&g, 0), WG_EINVAL);
	assert_null(g);
	assert_int_equal(wg_gmem_create(&g, 1ull << 32), WG_EINVAL);
	assert_int_equal(wg_gmem_create(&g, (1ull << 32) - WG_GMEM_BASE), 0);
	assert_non_null(g);
	assert_int_equal(wg_gmem_alloc(g, (1ull << 32) - WG_GMEM_BASE, &(uint32_t){ 0 }), 0);
	assert_non_null(wg_gmem_ptr(g, 0xFFFFFFFCu, 4));
	wg_gmem_destroy(g);
}

static void iterator_visits_live_allocations_in_order(void **state)
{
	struct wg_gmem *g = *state;
	uint32_t a = alloc(g, 100), b = alloc(g, 5000), c = alloc(g, 7), addr = 0, size = 0;

	assert_int_equal(wg_gmem_free(g, b), 0);
	assert_int_equal(wg_gmem_next(g, &addr, &size), 1);
	assert_int_equal(addr, a);
	assert_int_equal(size, 100);
	assert_int_equal(wg_gmem_next(g, &addr, &size), 1);
	assert_int_equal(addr, c);
	assert_int_equal(size, 7);
	assert_int_equal(wg_gmem_next(g, &addr, &size), 0);
}

static void clone_copies_allocations_and_contents(void **state)
{
	struct wg_gmem *g = *state, *copy;
	uint32_t a = alloc(g, 64), b = alloc(g, 300);

	memset(wg_gmem_ptr(g, a, 64), 0x5a, 64);
	memset(wg_gmem_ptr(g, b, 300), 0xa5, 300);
	assert_int_equal(wg_gmem_clone(g, &copy), 0);
	assert_memory_equal(wg_gmem_ptr(copy, a, 64), wg_gmem_ptr(g, a, 64), 64);
	assert_memory_equal(wg_gmem_ptr(copy, b, 300), wg_gmem_ptr(g, b, 300), 300);
	/* Independent afterwards: writes to the copy leave the original alone. */
	memset(wg_gmem_ptr(copy, a, 64), 0, 64);
	assert_int_equal(wg_gmem_ptr(g, a, 1)[0], 0x5a);
	assert_int_equal(wg_gmem_in_use(copy), wg_gmem_in_use(g));
	/* Allocation continues above the copied ones. */
	uint32_t c;
	assert_int_equal(wg_gmem_alloc(copy, 16, &c), 0);
	assert_true(c > b);
	wg_gmem_destroy(copy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(allocations_are_aligned_and_packed_from_the_base, setup, teardown),
		cmocka_unit_test_setup_teardown(host_pointer_is_a_fixed_offset_of_the_device_address, setup, teardown),
		cmocka_unit_test_setup_teardown(ranges_must_lie_inside_one_live_allocation, setup, teardown),
		cmocka_unit_test_setup_teardown(freed_block_is_reused_first_fit_and_reads_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(large_freed_block_reads_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(double_free_and_inner_address_are_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(out_of_memory_is_reported_and_capacity_is_usable, setup, teardown),
		cmocka_unit_test_setup_teardown(in_use_and_peak_follow_allocations, setup, teardown),
		cmocka_unit_test_setup_teardown(zero_byte_allocation_has_a_unique_address_and_no_bytes, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(many_allocations_are_found_by_search, setup, teardown),
		cmocka_unit_test(create_rejects_bad_capacity),
		cmocka_unit_test_setup_teardown(iterator_visits_live_allocations_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(clone_copies_allocations_and_contents, setup, teardown),
	};

	return cmocka_run_group_tests_name("gmem", tests, NULL, NULL);
}
