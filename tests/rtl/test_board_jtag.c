/*
 * test_board_jtag: the board top's JTAG register window (rtl/wg_board_top.sv,
 * docs/usb.md section 2.1) pin by pin through the Verilated top (sim/wgtop.h):
 * the TAP's IDCODE, the register block's size, the power-gating controls
 * CTL0..7 forwarded to the SMs' kernel registers (the count and target cycle of
 * the writes the GPU took, CNT14..16, and the pending bit STATUS[8] of CNT13),
 * coalescing of a control written twice before it was taken, halt holding the
 * writes back and resume delivering them, a strobe written twice delivered
 * twice, and idle cycles skipped around it all. First no host speaks: after
 * reset the SMs' power-gating sweep gives them edges outside target time, which
 * finish their L1 reset walk too, so a write is taken at once at target cycle 0
 * (a set-up edge of an SM with no work). Then a host (the host's link,
 * host/src/link.c, through the FX2 model's FIFOs) sends RESET and a GRANT to 500
 * with no CTA: target time reaches 500, and with the GPU standing idle at its
 * grant later writes are taken at once; while halted they wait.
 *
 *   test_board_jtag [-v]
 *
 * Exit status 0 when every check passed.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "link.h"
#include "wggpu.h"
#include "wgtop.h"

#define IDCODE 0x15747001u
#define IR_LEN 6
#define IR_IDCODE 0x09u
#define IR_USER1 0x02u
#define U1_LEN 48
#define U1_DONE (1ull << 32)
#define U1_ERR (1ull << 33)

#define A_ID 0x0000u
#define A_INFO 0x0002u
#define A_STATUS 0x0003u
#define A_CTRL 0x0004u
#define A_CNT 0x0100u
#define A_CTL 0x0200u

#define CNT_CYCLE_LO 0
#define CNT_STATUS 13
#define CNT_JCFG 14
#define CNT_JCFG_AT_LO 15
#define CNT_JCFG_AT_HI 16
#define ST_JCFG_PENDING (1u << 8) /* CNT13 bit 8 */

#define PIN_CYCLES 2 /* IFCLK cycles per JTAG pin change: TCK = IFCLK / 4 */

static struct wgtop *g_t;
static struct fx2_model g_m;
static struct wg_link *g_host;
static uint64_t g_now;
static unsigned g_reached;
static unsigned g_pass, g_fail, g_retries;
static int g_verbose;
static const char *g_case = "";

#define CHECK(cond, ...)                                                                                          \
	do {                                                                                                      \
		if (cond) {                                                                                       \
			g_pass++;                                                                                 \
		} else {                                                                                          \
			g_fail++;                                                                                 \
			fprintf(stderr, "test_board_jtag: %s: line %d: ", g_case, __LINE__);                       \
			fprintf(stderr, __VA_ARGS__);                                                             \
			fputc('\n', stderr);                                                                      \
		}                                                                                                 \
	} while (0)

/* IFCLK cycles with the FX2 quiet: EP2 empty (FLAGA low), EP6 not full, reset pin rst_n. */
static void cycles(unsigned n, int rst_n)
{
	struct wgtop_fx2_in in = {.fd = 0, .flaga_n = 0, .flagb_n = 1, .rst_n = rst_n};

	while (n--)
		wgtop_cycle(g_t, &in);
}

static int on_event(void *arg, const struct wg_link_rec *r)
{
	(void)arg;
	if (r->ev && r->ev->kind == WGGPU_EV_REACHED)
		g_reached++;
	return 0;
}

/* Host frames into EP2, n IFCLK cycles against the FX2 model, EP6 packets to the host. */
static void pump(unsigned n)
{
	const uint8_t *f;
	size_t len;
	uint8_t pkt[512];
	uint64_t ran;
	int k;

	while (fx2_out_room(&g_m) && wg_link_tx_next(g_host, &f, &len) == 1) {
		for (size_t off = 0; off < len; off += 512) {
			size_t piece = len - off < 512 ? len - off : 512;

			while (!fx2_out_room(&g_m))
				wgtop_run_fx2(g_t, &g_m, 1, 64, &ran);
			fx2_out_packet(&g_m, f + off, piece);
		}
	}
	wgtop_run_fx2(g_t, &g_m, 1, n, &ran);
	while ((k = fx2_in_packet(&g_m, pkt)) >= 0)
		CHECK(wg_link_rx(g_host, pkt, (size_t)k) == 0, "bad bytes from the board");
	g_now += n;
	wg_link_poll(g_host, g_now);
}

static void host_cmd(uint8_t op, uint64_t at)
{
	struct wg_link_cmd c;

	memset(&c, 0, sizeof(c));
	c.op = op;
	c.at = at;
	CHECK(wg_link_put_cmd(g_host, &c) == 0, "command %u refused", op);
	wg_link_flush(g_host);
}

static int pins(int tck, int tms, int tdi)
{
	int tdo = wgtop_jtag(g_t, tck, tms, tdi, 1);

	cycles(PIN_CYCLES, 1);
	return tdo;
}

/* One TCK cycle; returns TDO as the host samples it (after the falling edge). */
static int clk(int tms, int tdi)
{
	int tdo = pins(0, tms, tdi);

	pins(1, tms, tdi);
	return tdo > 0;
}

static void tap_reset(void)
{
	for (int i = 0; i < 6; i++)
		clk(1, 0);
	clk(0, 0); /* Run-Test/Idle */
}

/* From Run-Test/Idle through IR or DR and back, n bits LSB first; returns the bits out. */
static uint64_t scan(int ir, uint64_t out, unsigned n)
{
	uint64_t in = 0;

	clk(1, 0); /* Select-DR-Scan */
	if (ir)
		clk(1, 0); /* Select-IR-Scan */
	clk(0, 0); /* Capture */
	clk(0, 0); /* Shift */
	for (unsigned i = 0; i < n; i++)
		in |= (uint64_t)clk(i == n - 1, (int)(out >> i & 1)) << i;
	clk(1, 0); /* Update */
	clk(0, 0); /* Run-Test/Idle */
	return in;
}

static uint64_t u1_scan(int write, uint32_t addr, uint32_t data)
{
	uint64_t cmd = (uint64_t)(write != 0) << 47 | (uint64_t)(addr & 0x7fff) << 32 | data;

	for (int i = 0; i < 1000; i++) {
		uint64_t r = scan(0, cmd, U1_LEN);

		if (r & U1_DONE)
			return r;
		g_retries++;
	}
	CHECK(0, "USER1 never reports DONE");
	return 0;
}

/* A register access: the command, then a read of ID for its response. */
static uint32_t access_reg(int write, uint32_t addr, uint32_t data, int *err)
{
	uint64_t r;

	u1_scan(write, addr, data);
	r = u1_scan(0, A_ID, 0);
	*err = (r & U1_ERR) != 0;
	return (uint32_t)r;
}

static uint32_t rd(uint32_t addr)
{
	int err;
	uint32_t v = access_reg(0, addr, 0, &err);

	CHECK(!err, "read of 0x%04x refused", addr);
	return v;
}

static void wr(uint32_t addr, uint32_t v)
{
	int err;

	access_reg(1, addr, v, &err);
	CHECK(!err, "write of 0x%04x refused", addr);
}

static uint32_t cnt(unsigned i)
{
	return rd(A_CNT + i);
}

int main(int argc, char **argv)
{
	struct wg_link_params lp;
	struct wgtop_counts c;
	uint32_t v;

	g_verbose = argc > 1 && !strcmp(argv[1], "-v");
	if (wgtop_create(&g_t, NULL)) {
		fprintf(stderr, "test_board_jtag: cannot create the board top\n");
		return 1;
	}
	fx2_init(&g_m, 512);
	memset(&lp, 0, sizeof(lp));
	lp.role = WGL_ROLE_HOST;
	lp.rto = 1000000;
	lp.on_rec = on_event;
	if (wg_link_create(&g_host, &lp)) {
		fprintf(stderr, "test_board_jtag: cannot create the host's link\n");
		return 1;
	}
	cycles(8, 0); /* PA0 low: reset */
	cycles(64, 1);

	g_case = "idcode";
	tap_reset();
	v = (uint32_t)scan(1, IR_IDCODE, IR_LEN);
	CHECK((v & 3) == 1, "IR capture 0x%02x, want 0bxxxx01", v);
	v = (uint32_t)scan(0, 0, 32);
	CHECK(v == IDCODE, "IDCODE 0x%08x, want 0x%08x", v, IDCODE);

	g_case = "map";
	scan(1, IR_USER1, IR_LEN);
	CHECK(rd(A_ID) == 0x57474a54, "ID 0x%08x", rd(A_ID));
	/* 8 controls (CTL0..7: PG_CTRL, PG_BET, PG_IDLE, PG_WAKE, PG_ISSUE, PG_SLICE, PG_DOWN, PG_UP),
	 * 17 counters (CNT0..16) */
	CHECK(rd(A_INFO) == 0x00080011, "INFO 0x%08x, want 0x00080011", rd(A_INFO));
	for (unsigned i = 0; i < 8; i++)
		CHECK(rd(A_CTL + i) == 0, "CTL%u after reset 0x%08x", i, rd(A_CTL + i));
	CHECK(cnt(CNT_JCFG) == 0, "CNT14 after reset %u", cnt(CNT_JCFG));
	CHECK(!(cnt(CNT_STATUS) & ST_JCFG_PENDING), "a write pending after reset");
	CHECK((cnt(CNT_STATUS) & 1) == 0, "link up with no host");
	CHECK(cnt(CNT_CYCLE_LO) == 0, "target cycle %u with no grant", cnt(CNT_CYCLE_LO));

	g_case = "before-run";
	/* CTL0 = PG_CTRL lane policy. After reset the SMs get edges outside target time for their
	 * power-gating sweep (wg_gpu's running_o), which also finish their L1 reset walk: by now
	 * no SM holds work, so the write is taken at once, at target cycle 0 (a set-up edge that
	 * changes nothing but the register). */
	wr(A_CTL + 0, 0x1);
	CHECK(rd(A_CTL + 0) == 0x1, "CTL0 read back 0x%08x", rd(A_CTL + 0));
	cycles(200, 1);
	CHECK(cnt(CNT_JCFG) == 1, "CNT14 %u before the GPU ran, want 1", cnt(CNT_JCFG));
	CHECK(cnt(CNT_JCFG_AT_LO) == 0 && cnt(CNT_JCFG_AT_HI) == 0, "taken at cycle %u, want 0",
	      cnt(CNT_JCFG_AT_LO));
	CHECK(!(cnt(CNT_STATUS) & ST_JCFG_PENDING), "a write pending with no SM holding work");
	CHECK(cnt(CNT_CYCLE_LO) == 0, "target cycle %u with no grant", cnt(CNT_CYCLE_LO));

	g_case = "grant";
	/* The host: HELLO, RESET, GRANT to 500 (no CTA). The write goes in a running cycle. */
	for (int i = 0; i < 200 && !wg_link_up(g_host); i++)
		pump(500);
	CHECK(wg_link_up(g_host), "the link did not come up");
	host_cmd(WGGPU_RESET, 0);
	host_cmd(WGGPU_GRANT, 500);
	for (int i = 0; i < 400 && !g_reached; i++)
		pump(500);
	CHECK(g_reached == 1, "REACHED %u times, want 1", g_reached);
	CHECK(cnt(CNT_CYCLE_LO) == 500, "target cycle %u at the grant, want 500", cnt(CNT_CYCLE_LO));
	CHECK(cnt(CNT_JCFG) == 1, "CNT14 %u after the run, want 1 (nothing more written)", cnt(CNT_JCFG));
	CHECK(!(cnt(CNT_STATUS) & ST_JCFG_PENDING), "a write pending after the run");

	g_case = "idle-gpu";
	/* Standing idle at its grant: taken at once, at cycle 500. CTL5 (PG_SLICE) goes too. */
	wr(A_CTL + 5, 200);
	CHECK(cnt(CNT_JCFG) == 2, "CNT14 %u after CTL5, want 2", cnt(CNT_JCFG));
	CHECK(cnt(CNT_JCFG_AT_LO) == 500, "taken at cycle %u, want 500", cnt(CNT_JCFG_AT_LO));

	g_case = "halt";
	wr(A_CTRL, 1);
	for (int i = 0; i < 20 && !(rd(A_STATUS) & 1); i++)
		;
	CHECK(rd(A_STATUS) & 1, "not halted");
	/* Held while halted: CTL3 twice (coalesced: its latest value goes once), CTL2 once. */
	wr(A_CTL + 3, 50);
	wr(A_CTL + 2, 7);
	wr(A_CTL + 3, 60);
	CHECK(rd(A_CTL + 3) == 60, "CTL3 read back %u, want 60", rd(A_CTL + 3));
	CHECK(cnt(CNT_JCFG) == 2, "CNT14 %u while halted, want 2 (nothing taken)", cnt(CNT_JCFG));
	CHECK(cnt(CNT_STATUS) & ST_JCFG_PENDING, "no write pending while halted");
	wr(A_CTRL, 0);
	for (int i = 0; i < 20 && (rd(A_STATUS) & 1); i++)
		;
	/* 2 before the halt + CTL2 + CTL3 (once, with 60) = 4 */
	CHECK(cnt(CNT_JCFG) == 4, "CNT14 %u after resume, want 4", cnt(CNT_JCFG));
	CHECK(!(cnt(CNT_STATUS) & ST_JCFG_PENDING), "still pending after resume");

	g_case = "strobe";
	/* PG_CTRL with the close strobe (bit 8), the same value twice: two writes, two delivered. */
	wr(A_CTL + 0, 0x101);
	wr(A_CTL + 0, 0x101);
	CHECK(cnt(CNT_JCFG) == 6, "CNT14 %u after the same value twice, want 6", cnt(CNT_JCFG));
	CHECK(cnt(CNT_CYCLE_LO) == 500, "target cycle %u moved without a grant", cnt(CNT_CYCLE_LO));

	g_case = "idle";
	/* With no JTAG activity and the host's ACKs out the top is idle and its cycles are skipped. */
	for (int i = 0; i < 20; i++)
		pump(2000);
	cycles(1, 1); /* the quiet FX2 inputs of cycles() differ from the model's: one evaluated cycle */
	wgtop_counts(g_t, &c);
	{
		uint64_t skipped = c.skipped;

		cycles(1000, 1);
		wgtop_counts(g_t, &c);
		CHECK(c.skipped - skipped == 1000, "%" PRIu64 " of 1000 quiet cycles skipped", c.skipped - skipped);
	}

	wgtop_counts(g_t, &c);
	if (g_verbose || g_fail)
		fprintf(stderr, "test_board_jtag: %" PRIu64 " IFCLK cycles (%" PRIu64 " skipped), %u scans repeated\n",
		        c.cycles, c.skipped, g_retries);
	printf("test_board_jtag: %u passed, %u failed (%" PRIu64 " IFCLK cycles, %u USER1 scans repeated)\n", g_pass,
	       g_fail, c.cycles, g_retries);
	wg_link_destroy(g_host);
	wgtop_destroy(g_t);
	return g_fail ? 1 : 0;
}
