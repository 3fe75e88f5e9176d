/*
 * cmocka tests of the constrained-random kernel generator (host/src/rkgen.c):
 * for seeds 1..200 every kernel assembles, runs on the golden model without
 * a fault, gives the same memory image twice, and over those seeds every
 * mnemonic of the ISA table appears.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "func_fixture.h"
#include "rkgen.h"

#define SEEDS 200

/* Run rk on a fresh memory; returns the output buffers concatenated (free it). */
static uint8_t *run_rk(const struct wg_rk *rk, const struct wg_kernel *k, size_t *len)
{
	struct wg_config cfg;
	struct wg_gmem *g;
	struct wg_func *f;
	struct wg_launch l = { 0 };
	struct wg_stats st = { 0 };
	struct wg_err err = { { 0 } };
	uint64_t addr[WG_RK_MAXBUF];
	uint8_t params[64], *out;
	size_t total = 0, pos = 0;
	int rc;

	wg_config_default(&cfg);
	assert_int_equal(wg_gmem_create(&g, 64u << 20), 0);
	assert_int_equal(wg_func_create(&f, g, &cfg), 0);
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		uint32_t a;

		assert_int_equal(wg_gmem_alloc(g, rk->bufs[i].bytes, &a), 0);
		addr[i] = a;
		wg_rk_fill(&rk->bufs[i], wg_gmem_ptr(g, a, rk->bufs[i].bytes));
		total += rk->bufs[i].bytes;
	}
	wg_rk_params(rk, addr, params);
	l.kernel = k;
	l.grid = rk->grid;
	l.block = rk->block;
	l.params = params;
	l.dyn_shared = rk->dyn_shared;
	l.threads_per_cta = rk->block.x * rk->block.y * rk->block.z;
	l.warps_per_cta = (l.threads_per_cta + 31) / 32;
	l.ctas = (uint64_t)rk->grid.x * rk->grid.y * rk->grid.z;
	rc = wg_func_run(f, &l, &st, NULL, &err);
	if (rc)
		print_error("seed %llu: %s\n", (unsigned long long)rk->seed, err.msg);
	assert_int_equal(rc, 0);
	assert_true(st.warp_insts > 0);
	out = malloc(total);
	assert_non_null(out);
	for (uint32_t i = 0; i < rk->nbufs; i++) {
		memcpy(out + pos, wg_gmem_ptr(g, (uint32_t)addr[i], rk->bufs[i].bytes), rk->bufs[i].bytes);
		pos += rk->bufs[i].bytes;
	}
	*len = total;
	wg_func_destroy(f);
	wg_gmem_destroy(g);
	return out;
}

static void kernels_assemble_run_and_are_deterministic(void **state)
{
	uint8_t seen[512] = { 0 };
	unsigned missing = 0;

	(void)state;
	assert_true(wg_isa_table_len <= sizeof(seen));
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct wg_rk rk, rk2;
		struct wg_image img = { 0 };
		const struct wg_kernel *k;
		uint8_t *a, *b;
		size_t la, lb;
		int rc;

		assert_int_equal(wg_rkgen(&rk, seed), 0);
		assert_int_equal(wg_rkgen(&rk2, seed), 0);
		assert_string_equal(rk.src, rk2.src); /* same seed, same kernel */
		assert_memory_equal(&rk.grid, &rk2.grid, sizeof(rk.grid));
		wg_rk_free(&rk2);
		rc = wg_asm_string(&img, rk.src, rk.name, stderr);
		if (rc)
			print_error("seed %llu does not assemble:\n%s\n", (unsigned long long)seed, rk.src);
		assert_int_equal(rc, 0);
		k = wg_image_find(&img, rk.name);
		assert_non_null(k);
		for (uint32_t pc = 0; pc < k->ninsns; pc++) {
			struct wg_insn in;

			assert_int_equal(wg_isa_decode(k->code[pc], &in, NULL, 0), 0);
			seen[in.e - wg_isa_table] = 1;
		}
		a = run_rk(&rk, k, &la);
		b = run_rk(&rk, k, &lb);
		assert_int_equal(la, lb);
		assert_memory_equal(a, b, la);
		free(a);
		free(b);
		wg_image_free(&img);
		wg_rk_free(&rk);
	}
	for (size_t i = 0; i < wg_isa_table_len; i++) {
		if (!seen[i]) {
			print_error("mnemonic %s never generated in seeds 1..%d\n", wg_isa_table[i].mnemonic, SEEDS);
			missing++;
		}
	}
	assert_int_equal(missing, 0);
}

static void different_seeds_give_different_kernels(void **state)
{
	struct wg_rk a, b;

	(void)state;
	assert_int_equal(wg_rkgen(&a, 7), 0);
	assert_int_equal(wg_rkgen(&b, 8), 0);
	assert_true(strcmp(a.src, b.src) != 0);
	wg_rk_free(&a);
	wg_rk_free(&b);
}

static void save_and_load_round_trip(void **state)
{
	struct wg_rk a, b;
	char dir[] = "/tmp/wg_rk_XXXXXX", path[4096], err[256], cmd[4200];

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(wg_rkgen(&a, 42), 0);
	assert_int_equal(wg_rk_save(&a, dir, path, sizeof(path)), 0);
	assert_int_equal(wg_rk_load(&b, path, err, sizeof(err)), 0);
	assert_string_equal(a.src, b.src);
	assert_string_equal(a.name, b.name);
	assert_int_equal(a.seed, b.seed);
	assert_memory_equal(&a.grid, &b.grid, sizeof(a.grid));
	assert_memory_equal(&a.block, &b.block, sizeof(a.block));
	assert_int_equal(a.dyn_shared, b.dyn_shared);
	assert_int_equal(a.nbufs, b.nbufs);
	assert_memory_equal(a.bufs, b.bufs, sizeof(a.bufs));
	assert_int_equal(a.param_bytes, b.param_bytes);
	assert_memory_equal(a.params, b.params, a.param_bytes);
	wg_rk_free(&a);
	wg_rk_free(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernels_assemble_run_and_are_deterministic),
		cmocka_unit_test(different_seeds_give_different_kernels),
		cmocka_unit_test(save_and_load_round_trip),
	};

	return cmocka_run_group_tests_name("rkgen", tests, NULL, NULL);
}
