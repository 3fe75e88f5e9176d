/* cmocka tests of the golden model: faults, illegal code and launch limits, with their messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "func_fixture.h"

struct buf_params {
	uint64_t buf;
};

/* Thread (CTA 3, tid 39 = warp 1 lane 7) reads one word past the end of buf. */
static const char oob_src[] =
	".kernel oob\n"
	".regs 8\n"
	".param ptr buf\n"
	"    S2R R0, SR_CTAID.X\n"
	"    S2R R1, SR_TID.X\n"
	"    LDC.32 R2, [buf]\n"
	"    ISETP.EQ P0, R0, 3\n"
	"    ISETP.EQ P1, R1, 39\n"
	"    PLOP.AND P0, P0, P1\n"
	"    SHL R3, R1, 2\n"
	"@P0 MOV R3, 4096\n"
	"    IADD R2, R2, R3\n"
	"    LDG.32 R4, [R2]\n"      /* pc 9 */
	"    EXIT\n";

static void global_load_outside_allocation_names_everything(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f, oob_src);
	struct buf_params p = { fx_alloc(f, 4096) };
	char want[256];

	assert_int_equal(fx_launch(f, k, fx_dim(5, 1, 1), fx_dim(64, 1, 1), &p, 0), WG_EFAULT);
	snprintf(want, sizeof(want),
	         "kernel 'oob': CTA (3,0,0) warp 1 pc 9 lane 7: global load of 4 bytes at 0x%08x is outside every "
	         "allocation",
	         (uint32_t)p.buf + 4096);
	assert_string_equal(f->err.msg, want);
	assert_int_equal(f->st.ctas, 4);
	assert_int_equal(f->st.kernels, 0);
}

static void null_and_freed_addresses_fault(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel nul\n"
		".regs 4\n"
		".param ptr buf\n"
		"    LDC.32 R0, [buf]\n"
		"    STG.32 [R0], R0\n"
		"    EXIT\n");
	struct buf_params p = { 0 };
	char want[128];

	fx_launch(f, k, fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	FX_EXPECT_ERROR(f, WG_EFAULT, "warp 0 pc 1 lane 0: global store of 4 bytes at 0x00000000 is outside every allocation");
	p.buf = fx_alloc(f, 64);
	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	assert_int_equal(wg_gmem_free(f->gmem, (uint32_t)p.buf), 0);
	fx_launch(f, k, fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	snprintf(want, sizeof(want), "global store of 4 bytes at 0x%08x is outside every allocation", (uint32_t)p.buf);
	FX_EXPECT_ERROR(f, WG_EFAULT, want);
}

static void memory_written_before_a_fault_stays_written(void **state)
{
	struct fx *f = *state;
	/* CTA 1, warp 1, lane 7 stores past the end; everything before it is kept. */
	const struct wg_kernel *k = fx_asm(f,
		".kernel partial\n"
		".regs 8\n"
		".param ptr buf\n"
		"    S2R R0, SR_CTAID.X\n"
		"    S2R R1, SR_TID.X\n"
		"    LDC.32 R2, [buf]\n"
		"    IMAD R3, R0, 64, R1\n"
		"    SHL R3, R3, 2\n"
		"    ISETP.EQ P0, R0, 1\n"
		"    ISETP.EQ P1, R1, 39\n"
		"    PLOP.AND P0, P0, P1\n"
		"@P0 MOV R3, 0x100000\n"
		"    IADD R2, R2, R3\n"
		"    STG.32 [R2], R1\n"
		"    EXIT\n");
	struct buf_params p = { fx_alloc(f, 3 * 64 * 4) };
	const uint32_t *o;

	memset(fx_ptr(f, (uint32_t)p.buf, 3 * 256), 0xEE, 3 * 256);
	assert_int_equal(fx_launch(f, k, fx_dim(3, 1, 1), fx_dim(64, 1, 1), &p, 0), WG_EFAULT);
	o = fx_ptr(f, (uint32_t)p.buf, 3 * 256);
	for (uint32_t g = 0; g < 3 * 64; g++) {
		uint32_t cta = g / 64, t = g % 64;
		int written = cta == 0 || (cta == 1 && (t < 32 || t < 39));

		assert_int_equal(o[g], written ? t : 0xEEEEEEEEu);
	}
	FX_EXPECT_ERROR(f, WG_EFAULT, "CTA (1,0,0) warp 1 pc 10 lane 7: global store");
}

static void misaligned_accesses_fault(void **state)
{
	struct fx *f = *state;
	struct buf_params p = { fx_alloc(f, 256) };
	char want[160];

	fx_launch(f, fx_asm(f,
		".kernel mis\n"
		".regs 4\n"
		".param ptr buf\n"
		"    LDC.32 R0, [buf]\n"
		"    STG.32 [R0+6], R0\n"
		"    EXIT\n"),
		fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	snprintf(want, sizeof(want), "pc 1 lane 0: global store of 4 bytes at 0x%08x is misaligned (not a multiple of 4)",
	         (uint32_t)p.buf + 6);
	FX_EXPECT_ERROR(f, WG_EFAULT, want);

	fx_launch(f, fx_asm(f,
		".kernel mis64\n"
		".regs 4\n"
		".shared 64\n"
		"    S2R R0, SR_LANEID\n"
		"    SHL R0, R0, 2\n"
		"    LDS.64 R2, [R0]\n"     /* lane 1: address 4 */
		"    EXIT\n"),
		fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EFAULT, "kernel 'mis64': CTA (0,0,0) warp 0 pc 2 lane 1: shared load of 8 bytes at 0x00000004 is misaligned");

	fx_launch(f, fx_asm(f,
		".kernel misatom\n"
		".regs 4\n"
		".param ptr buf\n"
		"    LDC.32 R0, [buf]\n"
		"    IADD R0, R0, 2\n"
		"    ATOMG.ADD R1, [R0], 1\n"
		"    EXIT\n"),
		fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	snprintf(want, sizeof(want), "global atomic of 4 bytes at 0x%08x is misaligned", (uint32_t)p.buf + 2);
	FX_EXPECT_ERROR(f, WG_EFAULT, want);
}

static void shared_access_beyond_the_window_faults(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k = fx_asm(f,
		".kernel shoob\n"
		".regs 4\n"
		".shared 16\n"
		"    S2R R0, SR_TID.X\n"
		"    SHL R0, R0, 2\n"
		"    STS.32 [R0], R0\n"
		"    EXIT\n");

	/* 16 static + 16 dynamic bytes: threads 0..7 fit, thread 8 does not */
	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(8, 1, 1), NULL, 16);
	fx_launch(f, k, fx_dim(1, 1, 1), fx_dim(9, 1, 1), NULL, 16);
	FX_EXPECT_ERROR(f, WG_EFAULT,
	                "kernel 'shoob': CTA (0,0,0) warp 0 pc 2 lane 8: shared store of 4 bytes at 0x00000020 is "
	                "outside the shared window of 32 bytes");
	fx_launch(f, fx_asm(f,
		".kernel shneg\n"
		".regs 4\n"
		".shared 16\n"
		"    ATOMS.ADD R1, [RZ], 1\n"
		"    LDS.32 R1, [RZ-4]\n"
		"    EXIT\n"),
		fx_dim(1, 1, 1), fx_dim(1, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EFAULT, "pc 1 lane 0: shared load of 4 bytes at 0xfffffffc is outside the shared window of 16 bytes");
	fx_launch(f, fx_asm(f,
		".kernel shatom\n"
		".regs 4\n"
		"    ATOMS.EXCH R1, [RZ], 1\n"
		"    EXIT\n"),
		fx_dim(1, 1, 1), fx_dim(1, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EFAULT, "shared atomic of 4 bytes at 0x00000000 is outside the shared window of 0 bytes");
}

static void local_access_beyond_the_window_faults(void **state)
{
	struct fx *f = *state;

	fx_launch(f, fx_asm(f,
		".kernel locoob\n"
		".regs 4\n"
		".local 8\n"
		"    STL.32 [4], RZ\n"
		"    STL.64 [8], RZ\n"
		"    EXIT\n"),
		fx_dim(1, 1, 1), fx_dim(4, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EFAULT, "pc 1 lane 0: local store of 8 bytes at 0x00000008 is outside the local window of 8 bytes per thread");
}

static void ldc_beyond_the_parameter_buffer_faults(void **state)
{
	struct fx *f = *state;
	struct buf_params p = { 0x1234 };

	fx_launch(f, fx_asm(f,
		".kernel ldcoob\n"
		".regs 4\n"
		".param ptr buf\n"
		"    LDC.64 R0, [buf]\n"
		"    LDC.32 R2, [R0+0]\n"    /* R0 = 0x1234: far outside */
		"    EXIT\n"),
		fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	FX_EXPECT_ERROR(f, WG_EFAULT, "pc 1 lane 0: param load of 4 bytes at 0x00001234 is outside the parameter buffer of 8 bytes");
	fx_launch(f, fx_asm(f,
		".kernel ldcend\n"
		".regs 4\n"
		".param u32 n\n"
		"    LDC.64 R0, [n]\n"
		"    EXIT\n"),
		fx_dim(1, 1, 1), fx_dim(1, 1, 1), &p, 0);
	FX_EXPECT_ERROR(f, WG_EFAULT, "param load of 8 bytes at 0x00000000 is outside the parameter buffer of 4 bytes");
}

static void param_space_has_no_store(void **state)
{
	struct fx *f = *state;
	struct wg_image img = { 0 };

	(void)f;
	assert_null(wg_isa_find("STC.32"));
	assert_null(wg_isa_find("STP.32"));
	assert_int_equal(wg_asm_string(&img, ".kernel w\n.regs 2\n.param u32 n\n    STC.32 [n], R0\n    EXIT\n", "w.s",
	                               NULL),
	                 WG_ESYNTAX);
	for (size_t i = 0; i < wg_isa_table_len; i++)
		if (wg_isa_table[i].cls == WG_CLASS_LDST_PARAM)
			assert_int_equal(wg_isa_table[i].fmt, WG_FMT_LD);
}

/* Build a one-kernel image from raw words. */
static const struct wg_kernel *raw_kernel(struct fx *f, const uint64_t *code, uint32_t n, uint32_t regs)
{
	struct wg_kernel *k;

	fx_asm(f, ".kernel raw\n.regs 8\n    EXIT\n");
	k = &f->img.kernels[0];
	free(k->code);
	k->code = calloc(n, sizeof(*k->code));
	assert_non_null(k->code);
	memcpy(k->code, code, n * sizeof(*code));
	k->ninsns = n;
	k->regs = regs;
	return k;
}

static uint64_t enc(const char *mn, unsigned rd, unsigned ra, uint32_t b, int bimm)
{
	struct wg_insn in;
	const struct wg_isa_entry *e = wg_isa_find(mn);

	assert_non_null(e);
	wg_insn_init(&in, e);
	in.rd = (uint8_t)rd;
	in.ra = (uint8_t)ra;
	in.b = b;
	in.bimm = (uint8_t)bimm;
	return wg_isa_encode(&in);
}

static void illegal_words_stop_the_kernel_when_executed(void **state)
{
	struct fx *f = *state;
	uint64_t code[4];

	code[0] = enc("MOV", 1, 0, 5, 1);
	code[1] = 0; /* op 0 */
	code[2] = enc("EXIT", 0, 0, 0, 0);
	fx_launch(f, raw_kernel(f, code, 3, 8), fx_dim(2, 1, 1), fx_dim(33, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EILLEGAL,
	                "kernel 'raw': CTA (0,0,0) warp 0 pc 1: illegal instruction 0x0000000000000000: unknown opcode 0");

	code[1] = (uint64_t)39 << 58; /* reserved */
	fx_launch(f, raw_kernel(f, code, 3, 8), fx_dim(1, 1, 1), fx_dim(1, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EILLEGAL, "pc 1: illegal instruction 0x9c00000000000000: unknown opcode 39");

	code[1] = enc("NOP", 0, 0, 0, 0) | 1ull << 47; /* unused rd field */
	fx_launch(f, raw_kernel(f, code, 3, 8), fx_dim(1, 1, 1), fx_dim(1, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EILLEGAL, "pc 1: illegal instruction", "unused rd field");

	/* an illegal word that is never reached is harmless */
	code[1] = enc("EXIT", 0, 0, 0, 0);
	code[2] = 0;
	fx_run(f, raw_kernel(f, code, 3, 8), fx_dim(1, 1, 1), fx_dim(1, 1, 1), NULL, 0);
}

static void registers_beyond_regs_are_illegal(void **state)
{
	struct fx *f = *state;
	uint64_t code[2];

	code[0] = enc("IADD", 2, 7, 1, 1); /* reads R7 */
	code[1] = enc("EXIT", 0, 0, 0, 0);
	fx_run(f, raw_kernel(f, code, 2, 8), fx_dim(1, 1, 1), fx_dim(1, 1, 1), NULL, 0);
	fx_launch(f, raw_kernel(f, code, 2, 4), fx_dim(1, 1, 1), fx_dim(1, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EILLEGAL, "warp 0 pc 0: illegal instruction", "R7 beyond the kernel's 4 registers");
}

static void pc_running_off_the_code_stops_the_kernel(void **state)
{
	struct fx *f = *state;
	uint64_t code[3];
	struct wg_insn bra;

	code[0] = enc("MOV", 1, 0, 5, 1);
	code[1] = enc("NOP", 0, 0, 0, 0);
	fx_launch(f, raw_kernel(f, code, 2, 8), fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EILLEGAL,
	                "kernel 'raw': CTA (0,0,0) warp 0 pc 2: pc runs past the last instruction (the kernel has 2 instructions)");

	wg_insn_init(&bra, wg_isa_find("BRA"));
	bra.b = 100;
	code[1] = wg_isa_encode(&bra);
	code[2] = enc("EXIT", 0, 0, 0, 0);
	fx_launch(f, raw_kernel(f, code, 3, 8), fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EILLEGAL, "pc 100: pc runs past the last instruction (the kernel has 3 instructions)");
}

static void launch_that_does_not_fit_one_sm_is_refused(void **state)
{
	struct fx *f = *state;
	const struct wg_kernel *k;

	k = fx_asm(f, ".kernel big\n.regs 8\n    EXIT\n");
	fx_launch(f, k, fx_dim(1, 1, 1), fx_dim(1025, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_ELAUNCH, "kernel 'big': launch does not fit one SM: 1025 threads per CTA exceed max_threads_per_cta 1024");
	fx_launch(f, k, fx_dim(1, 1, 1), fx_dim(32, 32, 2), NULL, 0);
	FX_EXPECT_ERROR(f, WG_ELAUNCH, "2048 threads per CTA");

	k = fx_asm(f, ".kernel regs\n.regs 40\n    EXIT\n");
	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(800, 1, 1), NULL, 0);  /* 40 x 800 = 32000 */
	fx_launch(f, k, fx_dim(1, 1, 1), fx_dim(801, 1, 1), NULL, 0); /* rounds up to 832 threads */
	FX_EXPECT_ERROR(f, WG_ELAUNCH,
	                "40 registers x 832 threads (whole warps) = 33280 registers exceed regs_per_sm 32768");

	k = fx_asm(f, ".kernel shm\n.regs 4\n.shared 40000\n    EXIT\n");
	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, 9152);
	fx_launch(f, k, fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, 9153);
	FX_EXPECT_ERROR(f, WG_ELAUNCH, "40000 static + 9153 dynamic shared bytes exceed shmem_bytes 49152");

	fx_launch(f, k, fx_dim(0, 1, 1), fx_dim(32, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_ELAUNCH, "empty launch");
	assert_int_equal(f->st.warp_insts, 0);
}

static void warp_slots_limit_the_cta(void **state)
{
	struct wg_config cfg;
	struct fx *f;
	const struct wg_kernel *k;

	wg_config_default(&cfg);
	cfg.max_warps_per_sm = 8;
	fx_setup_cfg(state, &cfg);
	f = *state;
	k = fx_asm(f, ".kernel w\n.regs 4\n    EXIT\n");
	fx_run(f, k, fx_dim(1, 1, 1), fx_dim(256, 1, 1), NULL, 0);
	fx_launch(f, k, fx_dim(1, 1, 1), fx_dim(257, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_ELAUNCH, "9 warps per CTA exceed max_warps_per_sm 8");
	fx_teardown(state);
}

static void fault_stops_at_the_first_faulting_lane(void **state)
{
	struct fx *f = *state;

	/* lanes 3 and 9 are out of the window; lane 3 is reported */
	fx_launch(f, fx_asm(f,
		".kernel first\n"
		".regs 4\n"
		".shared 64\n"
		"    S2R R0, SR_LANEID\n"
		"    SHL R1, R0, 2\n"
		"    ISETP.EQ P0, R0, 3\n"
		"@P0 MOV R1, 64\n"
		"    ISETP.EQ P0, R0, 9\n"
		"@P0 MOV R1, 68\n"
		"    LDS.32 R2, [R1]\n"
		"    EXIT\n"),
		fx_dim(1, 1, 1), fx_dim(32, 1, 1), NULL, 0);
	FX_EXPECT_ERROR(f, WG_EFAULT, "pc 6 lane 3: shared load of 4 bytes at 0x00000040");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(global_load_outside_allocation_names_everything),
		T(null_and_freed_addresses_fault),
		T(memory_written_before_a_fault_stays_written),
		T(misaligned_accesses_fault),
		T(shared_access_beyond_the_window_faults),
		T(local_access_beyond_the_window_faults),
		T(ldc_beyond_the_parameter_buffer_faults),
		T(param_space_has_no_store),
		T(illegal_words_stop_the_kernel_when_executed),
		T(registers_beyond_regs_are_illegal),
		T(pc_running_off_the_code_stops_the_kernel),
		T(launch_that_does_not_fit_one_sm_is_refused),
		cmocka_unit_test(warp_slots_limit_the_cta),
		T(fault_stops_at_the_first_faulting_lane),
	};

	return FX_RUN_BOTH("func_errors", tests);
}
