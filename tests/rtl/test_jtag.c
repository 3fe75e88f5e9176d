/*
 * test_jtag: the JTAG debug port (rtl/wg_jtag_tap.sv, wg_jtag_dtm.sv,
 * wg_jtag_regs.sv in tests/rtl/tb_jtag.sv) driven pin by pin through
 * sim/wgjtag.h, the way OpenOCD's bit-bang drivers do it: per TCK cycle, TCK
 * low with TMS/TDI, sample TDO, TCK high (docs/jtag.md).
 *
 * Cases: the TAP state after every edge against a reference state machine
 * for random TMS streams (and TRST at random), IDCODE after reset, the IR
 * capture value, BYPASS as a one-bit delay, USER1 register accesses (ID,
 * version, scratch, controls, counters, halt/resume, errors), USER2 status,
 * the DONE = 0 rule, a system reset, and random register traffic checked
 * against a model, each with TCK much slower than, close to, and much faster
 * than clk_i.
 *
 *   test_jtag [--seed=N] [--scale=N] [--trace=FILE] [-v]
 * Exit status 0 when every check passes.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgjtag.h"

/* Values from rtl/wg_jtag_pkg.sv and tests/rtl/tb_jtag.sv. */
#define IR_LEN 6
#define IR_IDCODE 0x09
#define IR_USER1 0x02
#define IR_USER2 0x03
#define IR_BYPASS 0x3f
#define IDCODE 0x15747001u /* version 1, part 0x5747, manufacturer field 0, bit 0 = 1 */
#define U1_LEN 48
#define U1_DONE (1ull << 32)
#define U1_ERR (1ull << 33)
#define U2_LEN 8
#define A_ID 0x0000
#define A_VERSION 0x0001
#define A_INFO 0x0002
#define A_STATUS 0x0003
#define A_CTRL 0x0004
#define A_SCRATCH 0x0005
#define A_CNT 0x0100
#define A_CTL 0x0200
#define ST_LINK_UP 0x01
#define ST_LINK_FAIL 0x02
#define ST_HALT_REQ 0x04
#define ST_HALTED 0x08
#define ST_ERR 0x10
#define ST_SYS_RST 0x20
#define ST_BUSY 0x40
#define ST_ONE 0x80

static const uint32_t ctl_reset[4] = {0x00000064, 0x00000003, 0x0000a5a5, 0x00000000};

static struct wgjtag *g_j;
static unsigned g_pass, g_fail;
static int g_verbose;
static uint64_t g_rng = 1;
static const char *g_case = "";

static uint64_t rnd(void)
{
	/* xorshift64* */
	g_rng ^= g_rng >> 12;
	g_rng ^= g_rng << 25;
	g_rng ^= g_rng >> 27;
	return g_rng * 0x2545f4914f6cdd1dull;
}

static void check(int ok, int line, const char *fmt, ...)
{
	if (ok) {
		g_pass++;
		return;
	}
	if (++g_fail <= 25) {
		va_list ap;
		printf("test_jtag.c:%d: [%s] ", line, g_case);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
}
#define CHECK(cond, ...) check(!!(cond), __LINE__, __VA_ARGS__)

/* ------------------------------------------------------------------------ */
/* Reference TAP state machine (IEEE 1149.1 figure 6-1).                     */

static int ref_next(int s, int tms)
{
	static const int next[16][2] = {
		[WGJTAG_TLR] = {WGJTAG_RTI, WGJTAG_TLR},
		[WGJTAG_RTI] = {WGJTAG_RTI, WGJTAG_SEL_DR},
		[WGJTAG_SEL_DR] = {WGJTAG_CAP_DR, WGJTAG_SEL_IR},
		[WGJTAG_CAP_DR] = {WGJTAG_SH_DR, WGJTAG_EX1_DR},
		[WGJTAG_SH_DR] = {WGJTAG_SH_DR, WGJTAG_EX1_DR},
		[WGJTAG_EX1_DR] = {WGJTAG_PA_DR, WGJTAG_UPD_DR},
		[WGJTAG_PA_DR] = {WGJTAG_PA_DR, WGJTAG_EX2_DR},
		[WGJTAG_EX2_DR] = {WGJTAG_SH_DR, WGJTAG_UPD_DR},
		[WGJTAG_UPD_DR] = {WGJTAG_RTI, WGJTAG_SEL_DR},
		[WGJTAG_SEL_IR] = {WGJTAG_CAP_IR, WGJTAG_TLR},
		[WGJTAG_CAP_IR] = {WGJTAG_SH_IR, WGJTAG_EX1_IR},
		[WGJTAG_SH_IR] = {WGJTAG_SH_IR, WGJTAG_EX1_IR},
		[WGJTAG_EX1_IR] = {WGJTAG_PA_IR, WGJTAG_UPD_IR},
		[WGJTAG_PA_IR] = {WGJTAG_PA_IR, WGJTAG_EX2_IR},
		[WGJTAG_EX2_IR] = {WGJTAG_SH_IR, WGJTAG_UPD_IR},
		[WGJTAG_UPD_IR] = {WGJTAG_RTI, WGJTAG_SEL_DR},
	};
	return next[s][tms];
}

/* ------------------------------------------------------------------------ */
/* Bit-bang driver with the reference model alongside.                       */

static int g_ref; /* reference state; -1 while unknown */
static unsigned g_errs; /* RTL assertion failures reported so far */

static void check_rtl(int line)
{
	unsigned e = wgjtag_errors(g_j);
	check(e == g_errs, line, "RTL assertion failed (message above), TAP state %d", wgjtag_tap_state(g_j));
	g_errs = e;
}

/* One TCK cycle: TCK low with TMS/TDI (TDO changes on this falling edge),
 * sample TDO, TCK high (the TAP takes TMS/TDI). Returns the sampled TDO. */
static int clk(int tms, int tdi)
{
	wgjtag_pins(g_j, 0, tms, tdi);
	int tdo = wgjtag_tdo(g_j);
	wgjtag_pins(g_j, 1, tms, tdi);
	check_rtl(__LINE__);
	if (g_ref >= 0) {
		g_ref = ref_next(g_ref, tms);
		int s = wgjtag_tap_state(g_j);
		CHECK(s == g_ref, "TAP state %d, reference %d", s, g_ref);
		g_ref = s; /* report a divergence once */
	}
	return tdo;
}

static void tap_reset(void)
{
	for (int i = 0; i < 5; i++)
		clk(1, 0);
	CHECK(wgjtag_tap_state(g_j) == WGJTAG_TLR, "not in Test-Logic-Reset after 5 TMS=1 clocks");
	g_ref = WGJTAG_TLR;
	clk(0, 0); /* Run-Test/Idle */
}

/* From Run-Test/Idle: shift n bits (LSB first) through IR or DR, back to
 * Run-Test/Idle through Update. Returns the bits shifted out. */
static uint64_t scan(int ir, uint64_t out, unsigned n)
{
	uint64_t in = 0;
	clk(1, 0); /* Select-DR-Scan */
	if (ir)
		clk(1, 0); /* Select-IR-Scan */
	clk(0, 0);     /* Capture */
	clk(0, 0);     /* Shift */
	for (unsigned i = 0; i < n; i++) {
		int last = i == n - 1;
		in |= (uint64_t)clk(last, (out >> i) & 1) << i; /* last bit leaves Shift for Exit1 */
	}
	clk(1, 0); /* Update */
	clk(0, 0); /* Run-Test/Idle */
	return in;
}

static uint64_t ir_scan(uint32_t ir) { return scan(1, ir, IR_LEN); }
static uint64_t dr_scan(uint64_t v, unsigned n) { return scan(0, v, n); }

static uint64_t u1_cmd(int write, uint32_t addr, uint32_t data)
{
	return (uint64_t)(write != 0) << 47 | (uint64_t)(addr & 0x7fff) << 32 | data;
}

static unsigned g_retries;

/* USER1 scan repeated until its capture shows DONE (docs/jtag.md 3.2):
 * returns the response to the previous command. */
static uint64_t u1_scan(uint64_t cmd)
{
	for (int tries = 0; tries < 1000; tries++) {
		uint64_t r = dr_scan(cmd, U1_LEN);
		if (r & U1_DONE)
			return r;
		g_retries++;
	}
	CHECK(0, "USER1 never DONE");
	return 0;
}

/* One register access (IR must be USER1): the command, then a read of ID to
 * fetch its response. Returns the response word; *err its ERR bit. */
static uint32_t reg_access(int write, uint32_t addr, uint32_t data, int *err)
{
	u1_scan(u1_cmd(write, addr, data));
	uint64_t r = u1_scan(u1_cmd(0, A_ID, 0));
	if (err)
		*err = (r & U1_ERR) != 0;
	CHECK((r >> 34) == 0, "USER1 response bits 47:34 = 0x%" PRIx64 ", want 0", r >> 34);
	return (uint32_t)r;
}

static uint32_t rd(uint32_t addr)
{
	int err;
	uint32_t v = reg_access(0, addr, 0, &err);
	CHECK(!err, "read 0x%04x: ERR", addr);
	return v;
}

static void wr(uint32_t addr, uint32_t v)
{
	int err;
	uint32_t r = reg_access(1, addr, v, &err);
	CHECK(!err && r == 0, "write 0x%04x: err %d, response 0x%08x (want 0, 0)", addr, err, r);
}

/* USER2 status without BUSY (with TCK faster than clk_i the read that
 * fetched the last response may still be in flight). */
static uint32_t user2(void)
{
	ir_scan(IR_USER2);
	uint32_t s = (uint32_t)dr_scan(0, U2_LEN);
	ir_scan(IR_USER1);
	return s & ~ST_BUSY;
}

/* ------------------------------------------------------------------------ */
/* Cases                                                                     */

/* Random TMS/TDI for n clocks, TRST now and then; every state against the
 * reference, TDO enabled exactly in the shift states. */
static void case_fsm_random(unsigned n)
{
	g_case = "fsm-random";
	g_ref = -1;
	tap_reset();
	for (unsigned i = 0; i < n; i++) {
		if (rnd() % 997 == 0) {
			wgjtag_reset_pins(g_j, 1, 0);
			CHECK(wgjtag_tap_state(g_j) == WGJTAG_TLR, "TRST: not in Test-Logic-Reset");
			wgjtag_reset_pins(g_j, 0, 0);
			g_ref = WGJTAG_TLR;
		}
		/* TMS biased towards staying, so long shifts and pauses occur too */
		int tms = rnd() % 100 < 40;
		int prev = g_ref;
		wgjtag_pins(g_j, 0, tms, rnd() & 1);
		int oe_state = prev == WGJTAG_SH_DR || prev == WGJTAG_SH_IR;
		/* a line not driven reads 1 (pull-up); in shift states the TAP drives it */
		if (!oe_state)
			CHECK(wgjtag_tdo(g_j) == 1, "TDO driven outside the shift states (state %d)", prev);
		wgjtag_pins(g_j, 1, tms, rnd() & 1);
		check_rtl(__LINE__);
		g_ref = ref_next(g_ref, tms);
		int s = wgjtag_tap_state(g_j);
		CHECK(s == g_ref, "clock %u: TAP state %d, reference %d", i, s, g_ref);
		g_ref = s;
	}
	/* From any state, 5 clocks with TMS = 1 reach Test-Logic-Reset. */
	for (int s0 = 0; s0 < 16; s0++) {
		/* walk to state s0 with the reference: try random paths until reached */
		tap_reset();
		for (int k = 0; k < 64 && wgjtag_tap_state(g_j) != s0; k++)
			clk(rnd() & 1, 0);
		for (int k = 0; k < 5; k++)
			clk(1, 0);
		CHECK(wgjtag_tap_state(g_j) == WGJTAG_TLR, "5 x TMS=1 from state %d: not TLR", s0);
	}
	/* The random scans issued random USER1 commands (writes, bad addresses):
	 * a system reset puts the registers back. */
	wgjtag_reset_pins(g_j, 0, 1);
	wgjtag_run_clk(g_j, 8);
	wgjtag_reset_pins(g_j, 0, 0);
	tap_reset();
}

static void case_idcode_bypass(void)
{
	g_case = "idcode";
	tap_reset();
	/* IDCODE is the instruction after Test-Logic-Reset. */
	uint64_t id = dr_scan(0, 32);
	CHECK(id == IDCODE, "IDCODE 0x%08" PRIx64 ", want 0x%08x", id, IDCODE);
	/* Two IDCODEs back to back: 64 bits give the IDCODE, then the bits shifted in. */
	uint64_t two = dr_scan(0xdeadbeefull << 32, 64);
	CHECK((uint32_t)two == IDCODE, "IDCODE (64-bit scan) 0x%08x", (uint32_t)two);
	/* IR capture: 000001; the IR scan of USER1 shifts it out. */
	uint64_t cap = ir_scan(IR_USER1);
	CHECK(cap == 0x01, "IR capture 0x%02" PRIx64 ", want 0x01", cap);
	/* TRST brings IDCODE back. */
	wgjtag_reset_pins(g_j, 1, 0);
	wgjtag_reset_pins(g_j, 0, 0);
	g_ref = WGJTAG_TLR;
	clk(0, 0);
	id = dr_scan(0, 32);
	CHECK(id == IDCODE, "IDCODE after TRST 0x%08" PRIx64, id);

	g_case = "bypass";
	/* BYPASS: the bits come out one clock late behind the captured 0:
	 * in = 1011 0011 ... -> out = in << 1. */
	uint32_t codes[3] = {IR_BYPASS, 0x15, 0x00}; /* 0x15, 0x00: unused codes select BYPASS */
	for (int c = 0; c < 3; c++) {
		ir_scan(codes[c]);
		for (int k = 0; k < 4; k++) {
			uint64_t v = rnd() & ((1ull << 40) - 1);
			uint64_t out = dr_scan(v, 41);
			CHECK(out == v << 1, "IR 0x%02x: bypass out 0x%" PRIx64 ", want 0x%" PRIx64, codes[c], out,
			      v << 1);
		}
	}
	tap_reset();
}

static void case_registers(void)
{
	g_case = "registers";
	tap_reset();
	ir_scan(IR_USER1);
	CHECK(rd(A_ID) == 0x57474a54, "ID 0x%08x", rd(A_ID));
	/* VERSION: BUILD 0x0042 (tb_jtag), 1.0 */
	CHECK(rd(A_VERSION) == 0x00420100, "VERSION 0x%08x", rd(A_VERSION));
	/* INFO: 4 controls, 4 counters */
	CHECK(rd(A_INFO) == 0x00040004, "INFO 0x%08x", rd(A_INFO));
	CHECK(rd(A_SCRATCH) == 0, "SCRATCH after reset 0x%08x", rd(A_SCRATCH));
	for (unsigned i = 0; i < 4; i++) {
		uint32_t v = rd(A_CTL + i);
		CHECK(v == ctl_reset[i], "CTL%u reset value 0x%08x, want 0x%08x", i, v, ctl_reset[i]);
		CHECK(wgjtag_ctrl(g_j, i) == ctl_reset[i], "ctrl_o[%u] 0x%08x", i, wgjtag_ctrl(g_j, i));
	}
	wr(A_SCRATCH, 0xcafef00d);
	CHECK(rd(A_SCRATCH) == 0xcafef00d, "SCRATCH 0x%08x", rd(A_SCRATCH));
	uint32_t wbase[4];
	for (unsigned i = 0; i < 4; i++)
		wbase[i] = wgjtag_ctrl_writes(g_j, i);
	for (unsigned i = 0; i < 4; i++) {
		uint32_t v = 0x11111111u * (i + 1) ^ 0x80000001u, w0 = wgjtag_ctrl_writes(g_j, i);
		wr(A_CTL + i, v);
		CHECK(wgjtag_ctrl(g_j, i) == v, "ctrl_o[%u] 0x%08x after write 0x%08x", i, wgjtag_ctrl(g_j, i), v);
		/* one write, one pulse on ctrl_we_o[i] and none on the others (a read gives none) */
		CHECK(wgjtag_ctrl_writes(g_j, i) == w0 + 1, "ctrl_we_o[%u]: %u pulses for one write", i,
		      wgjtag_ctrl_writes(g_j, i) - w0);
	}
	for (unsigned i = 0; i < 4; i++)
		CHECK(wgjtag_ctrl_writes(g_j, i) == wbase[i] + 1, "ctrl_we_o[%u]: %u pulses, want 1 (reads pulse nothing)",
		      i, wgjtag_ctrl_writes(g_j, i) - wbase[i]);
	/* the same value again is a write too (a strobe bit may be written twice) */
	wr(A_CTL + 2, 0x11111111u * 3 ^ 0x80000001u);
	CHECK(wgjtag_ctrl_writes(g_j, 2) == wbase[2] + 2, "ctrl_we_o[2]: %u pulses after writing the same value again",
	      wgjtag_ctrl_writes(g_j, 2) - wbase[2]);
	for (unsigned i = 0; i < 4; i++) {
		uint32_t v = 0x11111111u * (i + 1) ^ 0x80000001u;
		CHECK(rd(A_CTL + i) == v, "CTL%u read back", i);
	}

	/* Counters 2, 3: board inputs, read exactly. */
	wgjtag_set_cnt_ext(g_j, 2, 0x12345678);
	wgjtag_set_cnt_ext(g_j, 3, 0xfedcba98);
	CHECK(rd(A_CNT + 2) == 0x12345678, "CNT2 0x%08x", rd(A_CNT + 2));
	CHECK(rd(A_CNT + 3) == 0xfedcba98, "CNT3 0x%08x", rd(A_CNT + 3));
	/* Counter 0 counts clk_i cycles since reset: the value read lies between
	 * the cycle counts before and after the access. */
	uint64_t c0 = wgjtag_clk_cycles(g_j);
	uint32_t cyc = rd(A_CNT + 0);
	uint64_t c1 = wgjtag_clk_cycles(g_j);
	CHECK(cyc >= c0 && cyc <= c1, "CNT0 %u outside [%" PRIu64 ", %" PRIu64 "]", cyc, c0, c1);

	/* Halt: CTRL.HALT = 1 -> halt_o; halted 3 cycles later (tb_jtag); the run
	 * counter (1) stops, STATUS and USER2 show it; resume restarts it. */
	g_case = "halt";
	uint32_t r0 = rd(A_CNT + 1);
	wr(A_CTRL, 1);
	CHECK(wgjtag_halt(g_j) == 1, "halt_o not set");
	wgjtag_run_clk(g_j, 10);
	CHECK(wgjtag_halted(g_j) == 1, "not halted");
	CHECK(rd(A_CTRL) == 1, "CTRL.HALT not read back");
	CHECK(rd(A_STATUS) == 0x1, "STATUS 0x%08x, want HALTED only", rd(A_STATUS));
	uint32_t r1 = rd(A_CNT + 1);
	wgjtag_run_clk(g_j, 100);
	uint32_t r2 = rd(A_CNT + 1);
	CHECK(r1 > r0 && r2 == r1, "run counter while halted: %u, %u, %u", r0, r1, r2);
	uint32_t s = user2();
	CHECK(s == (ST_ONE | ST_HALT_REQ | ST_HALTED), "USER2 0x%02x while halted", s);
	wr(A_CTRL, 0);
	wgjtag_run_clk(g_j, 10);
	CHECK(!wgjtag_halt(g_j) && !wgjtag_halted(g_j), "not resumed");
	uint32_t r3 = rd(A_CNT + 1);
	CHECK(r3 > r2, "run counter after resume: %u, was %u", r3, r2);
	s = user2();
	CHECK(s == ST_ONE, "USER2 0x%02x after resume", s);

	/* Link status bits: STATUS [1] [2], USER2 [0] [1]. */
	wgjtag_set_link(g_j, 1, 0);
	CHECK(rd(A_STATUS) == 0x2, "STATUS 0x%08x with link up", rd(A_STATUS));
	s = user2();
	CHECK(s == (ST_ONE | ST_LINK_UP), "USER2 0x%02x with link up", s);
	wgjtag_set_link(g_j, 0, 1);
	s = user2();
	CHECK(s == (ST_ONE | ST_LINK_FAIL), "USER2 0x%02x with link failed", s);
	CHECK(rd(A_STATUS) == 0x4, "STATUS 0x%08x with link failed", rd(A_STATUS));
	wgjtag_set_link(g_j, 0, 0);

	/* Errors: unmapped read, counter index past NUM_CNT, write to a read-only
	 * register: ERR in the response, read data 0, nothing changes, STATUS.ERR
	 * sticky until written with bit 8 set. */
	g_case = "errors";
	const uint32_t bad_rd[3] = {0x0006, A_CNT + 4, 0x7fff};
	for (int k = 0; k < 3; k++) {
		int err;
		uint32_t v = reg_access(0, bad_rd[k], 0, &err);
		CHECK(err && v == 0, "read 0x%04x: err %d data 0x%08x, want 1, 0", bad_rd[k], err, v);
	}
	int err;
	reg_access(1, A_ID, 0, &err);
	CHECK(err, "write to ID not refused");
	reg_access(1, A_CNT + 2, 7, &err);
	CHECK(err, "write to a counter not refused");
	CHECK(rd(A_ID) == 0x57474a54 && rd(A_CNT + 2) == 0x12345678, "read-only register changed");
	CHECK(rd(A_STATUS) == 0x100, "STATUS 0x%08x, want ERR", rd(A_STATUS));
	s = user2();
	CHECK(s == (ST_ONE | ST_ERR), "USER2 0x%02x, want ERR", s);
	wr(A_STATUS, 0x100);
	CHECK(rd(A_STATUS) == 0, "STATUS 0x%08x after clearing ERR", rd(A_STATUS));
	CHECK(user2() == ST_ONE, "USER2 ERR not cleared");
}

/* A scan whose capture sees DONE = 0 performs nothing. With TCK 32 times
 * faster than clk_i (half period clk_ps / 64): a write is issued; the clk_i
 * side needs at least 4 clk_i edges (30 ns here) to perform it, and the TCK
 * side 2 more TCK edges to see it done. The USER2 scan, the IR scan back to
 * USER1 and the Capture-DR of the next USER1 scan take 40 TCK cycles
 * (12.5 ns), so both see it in flight. */
static void case_done_rule(uint32_t clk_ps)
{
	g_case = "done-rule";
	tap_reset();
	ir_scan(IR_USER1);
	wr(A_SCRATCH, 0x1111);
	wgjtag_run_clk(g_j, 50); /* the read that fetched the response completes */
	wgjtag_set_tck_half(g_j, clk_ps / 64);
	uint64_t r = dr_scan(u1_cmd(1, A_SCRATCH, 0x2222), U1_LEN); /* DONE was 1: performed */
	CHECK(r & U1_DONE, "first scan: response 0x%012" PRIx64 " without DONE", r);
	ir_scan(IR_USER2);
	uint32_t s = (uint32_t)dr_scan(0, U2_LEN);
	CHECK(s & ST_BUSY, "USER2 0x%02x: BUSY not set", s);
	ir_scan(IR_USER1);
	r = dr_scan(u1_cmd(1, A_SCRATCH, 0x3333), U1_LEN);
	CHECK(!(r & U1_DONE), "second scan saw DONE (response 0x%012" PRIx64 ")", r);
	wgjtag_run_clk(g_j, 50);
	wgjtag_set_tck_half(g_j, clk_ps * 4);
	CHECK(rd(A_SCRATCH) == 0x2222, "SCRATCH 0x%08x: want 0x2222 (0x3333 was not performed)", rd(A_SCRATCH));
}

/* System reset while the port is in use: USER2 shows SYS_RST; a command
 * given during reset completes with no effect; registers back to reset. */
static void case_sys_reset(void)
{
	g_case = "sys-reset";
	tap_reset();
	ir_scan(IR_USER1);
	wr(A_SCRATCH, 0xabcd);
	wr(A_CTL + 0, 0x5);
	wgjtag_reset_pins(g_j, 0, 1);
	wgjtag_run_clk(g_j, 8);
	uint32_t s = user2();
	CHECK(s & ST_SYS_RST, "USER2 0x%02x: SYS_RST not set", s);
	u1_scan(u1_cmd(1, A_SCRATCH, 0x9999));
	wgjtag_run_clk(g_j, 8);
	uint64_t r = u1_scan(u1_cmd(0, A_ID, 0));
	CHECK((uint32_t)r == 0 && !(r & U1_ERR), "response to a command during reset 0x%012" PRIx64, r);
	wgjtag_reset_pins(g_j, 0, 0);
	wgjtag_run_clk(g_j, 8);
	CHECK(user2() == ST_ONE, "USER2 after reset");
	uint64_t c0 = wgjtag_clk_cycles(g_j);
	uint32_t cyc = rd(A_CNT + 0);
	uint64_t c1 = wgjtag_clk_cycles(g_j);
	CHECK(cyc >= c0 && cyc <= c1, "CNT0 %u after reset outside [%" PRIu64 ", %" PRIu64 "]", cyc, c0, c1);
	CHECK(rd(A_SCRATCH) == 0, "SCRATCH 0x%08x after reset", rd(A_SCRATCH));
	CHECK(rd(A_CTL + 0) == ctl_reset[0], "CTL0 0x%08x after reset", rd(A_CTL + 0));
}

/* Random reads and writes of SCRATCH and the controls, every response
 * against a model. Each scan both sends a command and takes the response to
 * the one before. */
static void case_random_traffic(unsigned n)
{
	g_case = "random-traffic";
	tap_reset();
	ir_scan(IR_USER1);
	uint32_t model[5];
	for (unsigned i = 0; i < 4; i++)
		model[i] = rd(A_CTL + i);
	model[4] = rd(A_SCRATCH);
	uint64_t expect = 0; /* response expected to the previous command */
	int have_prev = 0;
	for (unsigned k = 0; k < n; k++) {
		unsigned reg = rnd() % 5;
		uint32_t addr = reg == 4 ? A_SCRATCH : A_CTL + reg;
		int write = rnd() & 1;
		uint32_t data = (uint32_t)rnd();
		uint64_t r = u1_scan(u1_cmd(write, addr, data));
		if (have_prev)
			CHECK((r & 0xffffffffull) == expect && !(r & U1_ERR),
			      "access %u: response 0x%012" PRIx64 ", want data 0x%08" PRIx64, k, r, expect);
		expect = write ? 0 : model[reg];
		if (write)
			model[reg] = data;
		have_prev = 1;
		/* now and then idle in Run-Test/Idle, or let the system clock run */
		if (rnd() % 8 == 0)
			for (unsigned c = rnd() % 20; c; c--)
				clk(0, 0);
	}
	u1_scan(u1_cmd(0, A_ID, 0)); /* the last command has completed */
	for (unsigned i = 0; i < 4; i++)
		CHECK(wgjtag_ctrl(g_j, i) == model[i], "ctrl_o[%u] 0x%08x, model 0x%08x", i, wgjtag_ctrl(g_j, i),
		      model[i]);
}

int main(int argc, char **argv)
{
	uint64_t seed = 1;
	unsigned scale = 1;
	const char *trace = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--seed=", 7))
			seed = strtoull(argv[i] + 7, NULL, 0);
		else if (!strncmp(argv[i], "--scale=", 8))
			scale = (unsigned)strtoul(argv[i] + 8, NULL, 0);
		else if (!strncmp(argv[i], "--trace=", 8))
			trace = argv[i] + 8;
		else if (!strcmp(argv[i], "-v"))
			g_verbose = 1;
		else {
			fprintf(stderr, "test_jtag: unknown option %s (--seed=N --scale=N --trace=FILE -v)\n", argv[i]);
			return 2;
		}
	}
	if (scale < 1)
		scale = 1;
	g_rng = seed * 0x9e3779b97f4a7c15ull | 1;
	printf("test_jtag: seed %" PRIu64 "\n", seed);

	/* TCK half period against clk_i (period 10 ns): 20 x slower, about equal
	 * (1.3 clk periods per TCK half period, odd phase), 8 x faster. */
	static const struct {
		const char *name;
		uint32_t clk_ps, tck_half_ps, phase_ps;
	} speeds[] = {
		{"tck-slow", 10000, 200000, 0},
		{"tck-near", 10000, 13000, 3100},
		{"tck-fast", 10000, 625, 170},
	};
	for (unsigned sp = 0; sp < sizeof(speeds) / sizeof(speeds[0]); sp++) {
		struct wgjtag_cfg cfg = {speeds[sp].clk_ps, speeds[sp].tck_half_ps, speeds[sp].phase_ps, seed + sp,
		                         sp == 0 ? trace : NULL};
		int rc = wgjtag_open(&g_j, &cfg);
		if (rc) {
			printf("test_jtag: wgjtag_open failed (%d)\n", rc);
			return 1;
		}
		unsigned fail0 = g_fail;
		g_errs = 0;
		g_retries = 0;
		case_fsm_random(4000 * scale);
		case_idcode_bypass();
		case_registers();
		case_random_traffic(300 * scale);
		case_sys_reset();
		case_done_rule(speeds[sp].clk_ps);
		unsigned errs = wgjtag_errors(g_j);
		g_case = speeds[sp].name;
		CHECK(errs == 0, "%u RTL assertion failures", errs);
		printf("test_jtag: %-9s TCK half period %6u ps, clk_i %u ps: %s (%" PRIu64
		       " clk_i cycles, %u USER1 scans repeated for DONE = 0)\n",
		       speeds[sp].name, speeds[sp].tck_half_ps, speeds[sp].clk_ps, g_fail == fail0 ? "ok" : "FAILED",
		       wgjtag_clk_cycles(g_j), g_retries);
		wgjtag_close(g_j);
		g_j = NULL;
	}
	printf("%u passed, %u failed\n", g_pass, g_fail);
	return g_fail ? 1 : 0;
}
