/*
 * test_fw.c: the FX2LP bridge firmware (firmware/) run in ucsim's 8051 simulator
 * (docs/fx2.md section 8). `make firmware-test` builds the firmware and runs this.
 *
 * The firmware image is the one the host loads, unchanged. s51 simulates an 8052
 * (the FX2's 8051 core with timer 2) at 48 MHz; the FX2's registers are plain
 * bytes of s51's xdata memory, so the test plays the USB core:
 *
 *  - a SETUP packet: the 8 bytes go into SETUPDAT, EXIF.USBINT is set and the
 *    interrupt is taken as the 8051 takes it — the return address (the main
 *    loop's breakpoint at wgf_usb_poll) pushed, the PC set to the INT2 vector
 *    0x0043 — with the byte at 0x0045 replaced by INT2IVEC, which is what the
 *    FX2's autovectoring does. The firmware's own vector, jump table, handler
 *    and RETI run; the test refuses to raise an interrupt the firmware has not
 *    enabled (EA, EIE.EUSB, INTSETUP.AV2EN, the source's USBIE / EPIE bit);
 *  - the reply: EP0CS shows the bits the firmware wrote (HSNAK, STALL), EP0BCL a
 *    reply from EP0BUF, SUDPTRH:L a descriptor the core would send: the test then
 *    sends what the core sends (the descriptor's length — wTotalLength for a
 *    configuration — cut to wLength) from the loaded image;
 *  - register writes whose order matters are traced with s51's write breakpoints,
 *    and each write that the TRM wants a synchronisation delay after must be
 *    followed by at least 3 NOPs (48 MHz IFCLK and CPU: ceil(1.5 x (1 + 1))).
 *
 * The tests run in order on one simulated device (a fresh start costs 0.5 s of
 * simulated re-enumeration); each sets up the state it depends on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "s51.h"
#include "wg_link_proto.h"
#include "wg_usb_proto.h"

static const char *fw_ihx = "firmware/build/warpgate-fx2.ihx";
static const char *fw_map = "firmware/build/warpgate-fx2.map";

static struct s51 S;

#define SIM_OK()                                                           \
	do {                                                               \
		if (S.failed)                                              \
			fail_msg("simulator: %s", S.error);                \
	} while (0)

/* FX2 register addresses (xdata) and SFRs, as in firmware/fx2regs.h. */
enum {
	CPUCS = 0xE600, IFCONFIG = 0xE601, PINFLAGSAB = 0xE602, PINFLAGSCD = 0xE603,
	FIFORESET = 0xE604, FIFOPINPOLAR = 0xE609, REVCTL = 0xE60B, EP1OUTCFG = 0xE610,
	EP1INCFG = 0xE611, EP2CFG = 0xE612, EP4CFG = 0xE613, EP6CFG = 0xE614, EP8CFG = 0xE615,
	EP2FIFOCFG = 0xE618, EP4FIFOCFG = 0xE619, EP6FIFOCFG = 0xE61A, EP8FIFOCFG = 0xE61B,
	EP6AUTOINLENH = 0xE624, EP6AUTOINLENL = 0xE625, INPKTEND = 0xE648, OUTPKTEND = 0xE649,
	USBIE = 0xE65C, USBIRQ = 0xE65D, EPIE = 0xE65E, EPIRQ = 0xE65F, INT2IVEC = 0xE666,
	INTSETUP = 0xE668, PORTACFG = 0xE670, USBCS = 0xE680, TOGCTL = 0xE683, EP0BCH = 0xE68A,
	EP0BCL = 0xE68B, EP0CS = 0xE6A0, EP2CS = 0xE6A3, EP6CS = 0xE6A5, EP2FIFOFLGS = 0xE6A7,
	EP6FIFOFLGS = 0xE6A9, EP2FIFOBCH = 0xE6AB, EP2FIFOBCL = 0xE6AC, EP6FIFOBCH = 0xE6AF,
	EP6FIFOBCL = 0xE6B0, SUDPTRH = 0xE6B3, SUDPTRL = 0xE6B4, SUDPTRCTL = 0xE6B5,
	SETUPDAT = 0xE6B8, EP0BUF = 0xE740,
	SFR_IOA = 0x80, SFR_EXIF = 0x91, SFR_IE = 0xA8, SFR_OEA = 0xB2, SFR_EIE = 0xE8,
};

/* INT2IVEC of the sources the firmware uses (TRM autovector table). */
enum { IVEC_SUDAV = 0x00, IVEC_URES = 0x10, IVEC_HSGRANT = 0x14, IVEC_EP2 = 0x30, IVEC_EP6 = 0x38 };

#define SENTINEL 0xEE /* a value the firmware never writes to the registers it is put in */

/* ---- The USB core's side -------------------------------------------------------- *
 *
 * Everything is queued and runs in s51 at settle(), which then checks what each
 * queued interrupt, loop pass, request and trace recorded. */

struct irq {
	uint8_t ivec;
	uint8_t ie, eie, intsetup, usbie, epie, exif;
	struct s51_stop st;
};

#define POOL 256
static struct irq irqs[POOL];
static int nirqs;
static struct s51_stop loops[POOL];
static int nloops;

/* Take INT2 with INT2IVEC = ivec at the main loop's breakpoint, as the 8051 does,
 * and run the handler back to the breakpoint (the RETI returns there). */
static void fx2_interrupt(uint8_t ivec)
{
	struct irq *x;

	assert_true(nirqs < POOL);
	x = &irqs[nirqs++];
	x->ivec = ivec;
	s51_read_sfr(&S, SFR_IE, &x->ie);
	s51_read_sfr(&S, SFR_EIE, &x->eie);
	s51_read_x(&S, INTSETUP, 1, &x->intsetup);
	s51_read_x(&S, USBIE, 1, &x->usbie);
	s51_read_x(&S, EPIE, 1, &x->epie);
	s51_cmd(&S, "set mem xram 0x%x 0x%02x", INT2IVEC, ivec);
	s51_cmd(&S, "expression rom[0x45]=0x%x", ivec); /* autovectoring */
	s51_cmd(&S, "expression sfr[0x%x]=sfr[0x%x]|0x10", SFR_EXIF, SFR_EXIF);
	s51_cmd(&S, "expression iram[sfr[0x81]+1]=0x%x", S.poll_pc & 0xFF);
	s51_cmd(&S, "expression iram[sfr[0x81]+2]=0x%x", S.poll_pc >> 8);
	s51_cmd(&S, "expression sfr[0x81]=sfr[0x81]+2");
	s51_cmd(&S, "pc 0x43");
	s51_run(&S, &x->st);
	s51_read_sfr(&S, SFR_EXIF, &x->exif);
}

static void check_irq(const struct irq *x)
{
	assert_true(x->ie & 0x80);       /* EA */
	assert_true(x->eie & 0x01);      /* EUSB */
	assert_true(x->intsetup & 0x08); /* AV2EN */
	switch (x->ivec) {
	case IVEC_SUDAV: assert_true(x->usbie & 0x01); break;
	case IVEC_URES: assert_true(x->usbie & 0x10); break;
	case IVEC_HSGRANT: assert_true(x->usbie & 0x20); break;
	case IVEC_EP2: assert_true(x->epie & 0x10); break;
	case IVEC_EP6: assert_true(x->epie & 0x40); break;
	default: fail_msg("no such source 0x%02x", x->ivec);
	}
	assert_int_equal(x->st.event, 0);
	assert_int_equal(x->st.pc, S.poll_pc); /* RETI came back */
	assert_int_equal(x->exif & 0x10, 0);   /* the handler acknowledged INT2 */
}

/* One pass of the main loop, back to its breakpoint. */
static void fx2_loop(void)
{
	assert_true(nloops < POOL);
	s51_run(&S, &loops[nloops++]);
}

/* ---- Traced register writes ------------------------------------------------------ */

struct wr {
	unsigned addr;
	uint8_t v;
};

#define TRACE_MAX 40
#define TRACE_LO 0xE600
#define TRACE_SPAN 0x90

/* A run to the main loop's breakpoint that stops after each write to the traced
 * registers: exactly as many stops as writes are expected, then the breakpoint. */
struct trace {
	const struct wr *want;
	int nwant;
	struct s51_stop st[TRACE_MAX + 1];
	uint8_t snap[TRACE_MAX][TRACE_SPAN];
};

static struct trace *traces[8];
static int ntraces;

/* The FIFO registers the TRM wants a sync delay after. */
static const unsigned fifo_regs[] = {
	REVCTL, IFCONFIG, EP1OUTCFG, EP1INCFG, EP2CFG, EP4CFG, EP6CFG, EP8CFG, PINFLAGSAB,
	PINFLAGSCD, FIFOPINPOLAR, EP2FIFOCFG, EP6FIFOCFG, EP6AUTOINLENH, EP6AUTOINLENL, FIFORESET,
	OUTPKTEND, INPKTEND,
};
#define NFIFO ((int)(sizeof(fifo_regs) / sizeof(fifo_regs[0])))

static void traced_run(struct trace *t, const unsigned *regs, int nregs, const struct wr *want, int nwant)
{
	int i;

	assert_true(nwant <= TRACE_MAX && ntraces < 8);
	t->want = want;
	t->nwant = nwant;
	traces[ntraces++] = t;
	for (i = 0; i < nregs; i++) {
		assert_true(regs[i] >= TRACE_LO && regs[i] < TRACE_LO + TRACE_SPAN);
		s51_cmd(&S, "break xram w 0x%x", regs[i]);
	}
	for (i = 0; i <= nwant; i++) {
		s51_run(&S, &t->st[i]);
		if (i < nwant)
			s51_read_x(&S, TRACE_LO, TRACE_SPAN, t->snap[i]);
	}
	s51_cmd(&S, "delete");
	s51_cmd(&S, "break 0x%x", S.poll_pc);
}

static void check_trace(const struct trace *t)
{
	int i, j;

	for (i = 0; i < t->nwant; i++) {
		const struct s51_stop *st = &t->st[i];
		if (!st->event)
			fail_msg("write %d: the main loop came first (%d writes, expected %d)", i, i, t->nwant);
		uint8_t v = t->snap[i][st->waddr - TRACE_LO];
		if (st->waddr != t->want[i].addr || v != t->want[i].v)
			fail_msg("write %d: 0x%02x to 0x%04x, expected 0x%02x to 0x%04x", i, v, st->waddr,
				 t->want[i].v, t->want[i].addr);
		for (j = 0; j < NFIFO; j++) {
			if (fifo_regs[j] == st->waddr &&
			    (S.image[st->pc] || S.image[st->pc + 1] || S.image[st->pc + 2]))
				fail_msg("write %d (0x%02x to 0x%04x, before 0x%04x): no sync delay after it",
					 i, v, st->waddr, st->pc);
		}
	}
	if (t->st[t->nwant].event)
		fail_msg("more than the %d expected writes (the next: to 0x%04x)", t->nwant,
			 t->st[t->nwant].waddr);
	assert_int_equal(t->st[t->nwant].pc, S.poll_pc);
}

/* ---- Control requests ---------------------------------------------------------- */

enum { W_ANY, W_STALL, W_OK, W_IN };

struct req {
	uint8_t rt, rq;
	uint16_t value, index, length;
	int want;              /* W_*: checked at settle() */
	uint8_t want_data[64];
	unsigned want_n;
	int line;
	/* recorded */
	uint8_t cs, bc[2], sud[3], buf[64], usbirq;
	/* the reply */
	int stalled;           /* EP0CS.STALL written */
	int via_sudptr;        /* the data came through SUDPTR */
	unsigned len;          /* bytes the host receives */
	uint8_t data[512];
};

static struct req reqs[POOL];
static int nreqs;

static struct req *setup_begin(uint8_t rt, uint8_t rq, uint16_t value, uint16_t index, uint16_t length)
{
	struct req *r;

	assert_true(nreqs < POOL);
	r = &reqs[nreqs++];
	memset(r, 0, sizeof(*r));
	r->rt = rt;
	r->rq = rq;
	r->value = value;
	r->index = index;
	r->length = length;
	s51_cmd(&S, "set mem xram 0x%x 0", EP0CS);
	s51_cmd(&S, "set mem xram 0x%x 0x%x 0x%x", EP0BCH, SENTINEL, SENTINEL);
	s51_cmd(&S, "set mem xram 0x%x 0x%x 0x%x 0x%x", SUDPTRH, SENTINEL, SENTINEL, SENTINEL);
	s51_cmd(&S, "set mem xram 0x%x 0", USBIRQ);
	s51_cmd(&S, "fill xram 0x%x 0x%x 0x%x", EP0BUF, EP0BUF + 63, SENTINEL);
	s51_cmd(&S, "set mem xram 0x%x 0x%02x 0x%02x 0x%02x 0x%02x 0x%02x 0x%02x 0x%02x 0x%02x",
		SETUPDAT, rt, rq, value & 0xFF, value >> 8, index & 0xFF, index >> 8, length & 0xFF,
		length >> 8);
	fx2_interrupt(IVEC_SUDAV);
	return r;
}

static void setup_end(struct req *r)
{
	s51_read_x(&S, EP0CS, 1, &r->cs);
	s51_read_x(&S, EP0BCH, 2, r->bc);
	s51_read_x(&S, SUDPTRH, 3, r->sud);
	s51_read_x(&S, EP0BUF, 64, r->buf);
	s51_read_x(&S, USBIRQ, 1, &r->usbirq);
}

/* One control request: the SETUP packet, the interrupt, a pass of the main loop. */
static struct req *request_at(int line, uint8_t rt, uint8_t rq, uint16_t value, uint16_t index,
			      uint16_t length)
{
	struct req *r = setup_begin(rt, rq, value, index, length);

	r->line = line;
	fx2_loop();
	setup_end(r);
	return r;
}
#define request(...) request_at(__LINE__, __VA_ARGS__)

/* The same with the writes to regs traced (a request without a data stage). */
static struct req *request_traced(uint8_t rt, uint8_t rq, uint16_t value, uint16_t index,
				  const unsigned *regs, int nregs, struct trace *t,
				  const struct wr *want, int nwant)
{
	struct req *r = setup_begin(rt, rq, value, index, 0);

	r->want = W_OK;
	traced_run(t, regs, nregs, want, nwant);
	setup_end(r);
	return r;
}

/* What the host receives: from EP0BUF, or the descriptor at SUDPTR as the core
 * sends it (its bLength, or wTotalLength for a configuration or other-speed
 * configuration, at most wLength bytes). */
static void check_req(struct req *r)
{
	r->stalled = r->cs & 0x01;
	if (!(r->cs & 0x80))
		fail_msg("line %d: request %02x %02x: HSNAK not written", r->line, r->rt, r->rq);
	assert_int_equal(r->usbirq, 0x01); /* SUDAV acknowledged */
	if (r->sud[1] != SENTINEL) {
		unsigned a = (unsigned)r->sud[0] << 8 | r->sud[1], n;
		assert_int_equal(r->sud[2], 0x01); /* SUDPTRCTL.SDPAUTO */
		assert_int_equal(a & 1, 0);        /* the core needs an even address */
		assert_true(a < WGU_FX2_RAM_BYTES - 4);
		assert_int_equal(r->bc[1], SENTINEL); /* not both ways */
		n = S.image[a];
		if (S.image[a + 1] == 2 || S.image[a + 1] == 7)
			n = S.image[a + 2] | S.image[a + 3] << 8;
		if (n > r->length)
			n = r->length;
		assert_true(n <= sizeof(r->data) && a + n <= WGU_FX2_RAM_BYTES);
		memcpy(r->data, S.image + a, n);
		r->len = n;
		r->via_sudptr = 1;
	} else if (r->bc[1] != SENTINEL) {
		assert_int_equal(r->bc[0], 0);
		assert_true(r->bc[1] <= 64 && r->bc[1] <= r->length);
		memcpy(r->data, r->buf, r->bc[1]);
		r->len = r->bc[1];
	}
	switch (r->want) {
	case W_STALL:
		if (!r->stalled || r->len)
			fail_msg("line %d: request %02x %02x value %04x index %04x length %u: no stall (%u bytes)",
				 r->line, r->rt, r->rq, r->value, r->index, r->length, r->len);
		break;
	case W_OK:
		if (r->stalled || r->len)
			fail_msg("line %d: request %02x %02x value %04x index %04x: stalled %d, %u bytes",
				 r->line, r->rt, r->rq, r->value, r->index, r->stalled, r->len);
		break;
	case W_IN:
		if (r->stalled)
			fail_msg("line %d: request %02x %02x value %04x index %04x stalled", r->line, r->rt,
				 r->rq, r->value, r->index);
		if (r->len != r->want_n || memcmp(r->data, r->want_data, r->want_n))
			fail_msg("line %d: request %02x %02x: %u bytes, expected %u (or different bytes)",
				 r->line, r->rt, r->rq, r->len, r->want_n);
		break;
	default:
		break;
	}
}

/* Run everything queued and check it. */
static void settle(void)
{
	int i;

	s51_flush(&S);
	SIM_OK();
	for (i = 0; i < nirqs; i++)
		check_irq(&irqs[i]);
	for (i = 0; i < nloops; i++) {
		assert_int_equal(loops[i].event, 0);
		assert_int_equal(loops[i].pc, S.poll_pc);
	}
	for (i = 0; i < ntraces; i++)
		check_trace(traces[i]);
	for (i = 0; i < nreqs; i++)
		check_req(&reqs[i]);
	nirqs = nloops = ntraces = 0;
}

/* Requests are valid until the next settle's requests are queued. */
static void new_batch(void)
{
	nreqs = 0;
}

#define expect_stall(...) (request(__VA_ARGS__)->want = W_STALL)
#define expect_ok(rt, rq, v, i) (request(rt, rq, v, i, 0)->want = W_OK)

static void expect_in_at(int line, uint8_t rt, uint8_t rq, uint16_t value, uint16_t index,
			 uint16_t length, const uint8_t *want, unsigned n)
{
	struct req *r = request_at(line, rt, rq, value, index, length);

	r->want = W_IN;
	assert_true(n <= sizeof(r->want_data));
	memcpy(r->want_data, want, n);
	r->want_n = n;
}
#define expect_in(...) expect_in_at(__LINE__, __VA_ARGS__)

#define GET_DESCRIPTOR(type, index, length) request(0x80, 0x06, (uint16_t)((type) << 8 | (index)), 0, length)
#define SET_CONFIGURATION(v) expect_ok(0x00, 0x09, v, 0)

/* Speed as the core reports it: USBCS.HSM, then the interrupt. */
static void set_speed(int high)
{
	if (high)
		s51_cmd(&S, "expression xram[0x%x]=xram[0x%x]|0x80", USBCS, USBCS);
	else
		s51_cmd(&S, "expression xram[0x%x]=xram[0x%x]&0x7f", USBCS, USBCS);
	fx2_interrupt(high ? IVEC_HSGRANT : IVEC_URES);
	fx2_loop();
}

/* ---- Host-side checks of the descriptors ------------------------------------------ */

static void check_device(const uint8_t *d, unsigned n)
{
	/* 18 bytes: USB 2.0, class per interface, EP0 64, the header's IDs. */
	assert_int_equal(n, 18);
	assert_int_equal(d[0], 18);
	assert_int_equal(d[1], 1);
	assert_int_equal(d[2] | d[3] << 8, 0x0200);
	assert_int_equal(d[4], 0);
	assert_int_equal(d[7], WGU_EP0_PACKET);
	assert_int_equal(d[8] | d[9] << 8, WGU_VID);
	assert_int_equal(d[10] | d[11] << 8, WGU_PID);
	assert_int_equal(d[12] | d[13] << 8, WGU_BCD_DEVICE);
	assert_int_equal(d[14], WGU_STRI_MANUFACTURER);
	assert_int_equal(d[15], WGU_STRI_PRODUCT);
	assert_int_equal(d[16], WGU_STRI_SERIAL);
	assert_int_equal(d[17], 1);
}

/* A configuration of type 2 or 7: 9 + 9 + 7 + 7 = 32 bytes, one vendor interface,
 * EP2 bulk OUT and EP6 bulk IN of pkt bytes. Walks the descriptors as a host does. */
static void check_config(const uint8_t *d, unsigned n, uint8_t type, unsigned pkt)
{
	unsigned off, total;
	int ifaces = 0, out = 0, in = 0;

	assert_true(n >= 9);
	assert_int_equal(d[0], 9);
	assert_int_equal(d[1], type);
	total = d[2] | d[3] << 8;
	assert_int_equal(total, 32);
	assert_int_equal(n, total);
	assert_int_equal(d[4], 1);
	assert_int_equal(d[5], WGU_CONFIG_VALUE);
	assert_int_equal(d[7], 0x80);
	assert_int_equal(d[8], WGU_MAX_POWER_MA / 2);
	for (off = 9; off < total; off += d[off]) {
		assert_true(d[off] >= 2 && off + d[off] <= total);
		if (d[off + 1] == 4) {
			assert_int_equal(d[off], 9);
			assert_int_equal(d[off + 2], WGU_INTERFACE);
			assert_int_equal(d[off + 3], 0);
			assert_int_equal(d[off + 4], 2);
			assert_int_equal(d[off + 5], WGU_IFACE_CLASS);
			ifaces++;
		} else if (d[off + 1] == 5) {
			assert_int_equal(d[off], 7);
			assert_int_equal(d[off + 3], 0x02); /* bulk */
			assert_int_equal(d[off + 4] | d[off + 5] << 8, pkt);
			assert_int_equal(d[off + 6], 0);
			if (d[off + 2] == WGU_EP_OUT)
				out++;
			else if (d[off + 2] == WGU_EP_IN)
				in++;
			else
				fail_msg("unexpected endpoint 0x%02x", d[off + 2]);
		} else {
			fail_msg("unexpected descriptor type %u at %u", d[off + 1], off);
		}
	}
	assert_int_equal(ifaces, 1);
	assert_int_equal(out, 1);
	assert_int_equal(in, 1);
}

static void check_string(const uint8_t *d, unsigned n, const char *want)
{
	size_t i, len = strlen(want);

	assert_int_equal(n, 2 + 2 * len);
	assert_int_equal(d[0], 2 + 2 * len);
	assert_int_equal(d[1], 3);
	for (i = 0; i < len; i++) {
		if (d[2 + 2 * i] != (uint8_t)want[i] || d[3 + 2 * i] != 0)
			fail_msg("string '%s': character %zu is %02x %02x", want, i, d[2 + 2 * i], d[3 + 2 * i]);
	}
}

/* ---- Set-up ------------------------------------------------------------------------ */

static int group_setup(void **state)
{
	const char *e;

	(void)state;
	if ((e = getenv("WG_FW_IHX")))
		fw_ihx = e;
	if ((e = getenv("WG_FW_MAP")))
		fw_map = e;
	if (s51_start(&S, fw_ihx, fw_map)) {
		fprintf(stderr, "test_fw: %s\n", S.error);
		return -1;
	}
	/* The control registers as after a power-on reset (0 where it matters:
	 * USBCS.HSM clear = full speed, no interrupt pending). */
	s51_cmd(&S, "fill xram 0xe600 0xe6ff 0");
	s51_cmd(&S, "break 0x%x", S.poll_pc);
	if (s51_flush(&S)) {
		fprintf(stderr, "test_fw: %s\n", S.error);
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	s51_stop(&S);
	return 0;
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- Tests ------------------------------------------------------------------------- */

/* From reset to the main loop, the set-up writes, in this order (TRM chapters 9
 * and 15; each FIFO register followed by a sync delay):
 * 48 MHz CPU clock; REVCTL = DYN_OUT | ENH_PKT first; IFCONFIG 0xE3 = internal IFCLK
 * (0x80), 48 MHz (0x40), driven out (0x20), synchronous, slave FIFO (0x03); EP1 off;
 * EP2 0xA0 = valid, OUT, bulk, 512, quad; EP4 off; EP6 0xE0 = valid, IN, bulk, 512,
 * quad; EP8 off; FLAGB = EP6 FF (0xE), FLAGA = EP2 EF (0x8); FLAGC/D 0; polarity all
 * low; port A plain; EP6 AUTOIN | ZEROLENIN (0x0C); AUTOIN length 64 (full speed
 * until HSGRANT); FIFO reset under NAKALL: 0x80, EP2 0x82, EP6 0x86, release 0x00;
 * EP2: AUTOOUT off, four buffers passed on (OUTPKTEND 0x82), AUTOOUT on (0x10);
 * interrupts: AV2EN (0x08), pending cleared (0xFF, 0xFF), USBIE SUDAV | URES |
 * HSGRANT = 0x31, EPIE EP2 | EP6 = 0x50; re-enumeration: USBCS DISCON | RENUM (0x0A),
 * after the delay RENUM alone (0x02). */
static void init_writes_the_registers_in_the_trm_order(void **state)
{
	static const unsigned regs[] = {
		CPUCS, REVCTL, IFCONFIG, EP1OUTCFG, EP1INCFG, EP2CFG, EP4CFG, EP6CFG, EP8CFG,
		PINFLAGSAB, PINFLAGSCD, FIFOPINPOLAR, PORTACFG, EP2FIFOCFG, EP6FIFOCFG, EP6AUTOINLENH,
		EP6AUTOINLENL, FIFORESET, OUTPKTEND, INTSETUP, USBIRQ, EPIRQ, USBIE, EPIE, USBCS,
	};
	static const struct wr want[] = {
		{ CPUCS, 0x10 }, { REVCTL, 0x03 }, { IFCONFIG, 0xE3 }, { EP1OUTCFG, 0 }, { EP1INCFG, 0 },
		{ EP2CFG, 0xA0 }, { EP4CFG, 0 }, { EP6CFG, 0xE0 }, { EP8CFG, 0 }, { PINFLAGSAB, 0xE8 },
		{ PINFLAGSCD, 0 }, { FIFOPINPOLAR, 0 }, { PORTACFG, 0 }, { EP6FIFOCFG, 0x0C },
		{ EP6AUTOINLENH, 0x00 }, { EP6AUTOINLENL, 0x40 },
		{ FIFORESET, 0x80 }, { FIFORESET, 0x82 }, { FIFORESET, 0x86 }, { FIFORESET, 0x00 },
		{ EP2FIFOCFG, 0x00 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 },
		{ OUTPKTEND, 0x82 }, { EP2FIFOCFG, 0x10 },
		{ INTSETUP, 0x08 }, { USBIRQ, 0xFF }, { EPIRQ, 0xFF }, { USBIE, 0x31 }, { EPIE, 0x50 },
		{ USBCS, 0x0A }, { USBCS, 0x02 },
	};
	static struct trace t;

	(void)state;
	new_batch();
	traced_run(&t, regs, N(regs), want, N(want));
	settle();
}

/* In the main loop: the registers hold the values above; PA0 (FPGA reset) is an
 * output at 1; EA and EIE.EUSB are set; nothing else of port A is driven. */
static void after_init_the_slave_fifo_registers_hold_the_bridge_set_up(void **state)
{
	uint8_t r[0x100], ioa = 0, oea = 0, ie = 0, eie = 0;

	(void)state;
	new_batch();
	s51_read_x(&S, 0xE600, 0x80, r);
	s51_read_x(&S, 0xE680, 0x10, r + 0x80);
	s51_read_sfr(&S, SFR_IOA, &ioa);
	s51_read_sfr(&S, SFR_OEA, &oea);
	s51_read_sfr(&S, SFR_IE, &ie);
	s51_read_sfr(&S, SFR_EIE, &eie);
	settle();
#define R(a) r[(a) - 0xE600]
	assert_int_equal(R(CPUCS), 0x10);
	assert_int_equal(R(IFCONFIG), 0xE3);
	assert_int_equal(R(REVCTL), 0x03);
	assert_int_equal(R(EP2CFG), 0xA0);
	assert_int_equal(R(EP4CFG), 0x00);
	assert_int_equal(R(EP6CFG), 0xE0);
	assert_int_equal(R(EP8CFG), 0x00);
	assert_int_equal(R(EP2FIFOCFG), 0x10);
	assert_int_equal(R(EP6FIFOCFG), 0x0C);
	assert_int_equal(R(PINFLAGSAB), 0xE8);
	assert_int_equal(R(PINFLAGSCD), 0x00);
	assert_int_equal(R(FIFOPINPOLAR), 0x00);
	assert_int_equal(R(EP6AUTOINLENH) << 8 | R(EP6AUTOINLENL), WGU_BULK_PACKET_FS);
	assert_int_equal(R(FIFORESET), 0x00);
	assert_int_equal(R(INTSETUP), 0x08);
	assert_int_equal(R(USBIE), 0x31);
	assert_int_equal(R(EPIE), 0x50);
	assert_int_equal(r[0x80], 0x02); /* USBCS: RENUM, connected */
#undef R
	assert_int_equal(ioa & 0x01, 0x01);
	assert_int_equal(oea, 0x01);
	assert_int_equal(ie & 0x80, 0x80);
	assert_int_equal(eie & 0x01, 0x01);
}

static void device_descriptor_matches_the_header(void **state)
{
	struct req *full, *first;

	(void)state;
	new_batch();
	full = GET_DESCRIPTOR(1, 0, 64);
	first = GET_DESCRIPTOR(1, 0, 8); /* a host's first request: the core sends 8 bytes */
	settle();
	assert_false(full->stalled);
	assert_true(full->via_sudptr);
	check_device(full->data, full->len);
	assert_int_equal(first->len, 8);
	assert_memory_equal(first->data, full->data, 8);
}

static void full_speed_configuration_has_64_byte_bulk_endpoints(void **state)
{
	struct req *cfg, *other, *head;
	uint8_t len[2];

	(void)state;
	new_batch();
	set_speed(0);
	s51_read_x(&S, EP6AUTOINLENH, 2, len);
	cfg = GET_DESCRIPTOR(2, 0, 255);
	other = GET_DESCRIPTOR(7, 0, 255); /* seen from full speed: high speed, type 7 */
	head = GET_DESCRIPTOR(2, 0, 9);    /* the header alone, as hosts ask first */
	settle();
	assert_int_equal(len[0] << 8 | len[1], WGU_BULK_PACKET_FS);
	assert_false(cfg->stalled);
	check_config(cfg->data, cfg->len, 2, WGU_BULK_PACKET_FS);
	assert_false(other->stalled);
	check_config(other->data, other->len, 7, WGU_BULK_PACKET_HS);
	assert_int_equal(head->len, 9);
	assert_int_equal(head->data[2], 32);
}

/* HSGRANT with USBCS.HSM: 512-byte packets, and AUTOIN commits at 512 (0x0200). */
static void high_speed_configuration_has_512_byte_bulk_endpoints(void **state)
{
	struct req *cfg, *other;
	uint8_t len[2];

	(void)state;
	new_batch();
	set_speed(1);
	s51_read_x(&S, EP6AUTOINLENH, 2, len);
	cfg = GET_DESCRIPTOR(2, 0, 255);
	other = GET_DESCRIPTOR(7, 0, 255);
	settle();
	assert_int_equal(len[0] << 8 | len[1], WGU_BULK_PACKET_HS);
	assert_false(cfg->stalled);
	check_config(cfg->data, cfg->len, 2, WGU_BULK_PACKET_HS);
	assert_false(other->stalled);
	check_config(other->data, other->len, 7, WGU_BULK_PACKET_FS);
}

/* Device qualifier: 10 bytes, USB 2.0, the device's class and EP0 size, 1 configuration. */
static void device_qualifier_matches_the_device(void **state)
{
	static const uint8_t want[10] = { 10, 6, 0x00, 0x02, 0, 0, 0, WGU_EP0_PACKET, 1, 0 };

	(void)state;
	new_batch();
	expect_in(0x80, 0x06, 0x0600, 0, 64, want, 10);
	settle();
}

static void string_descriptors_spell_the_header_strings(void **state)
{
	static const uint8_t lang[4] = { 4, 3, WGU_LANGID & 0xFF, WGU_LANGID >> 8 };
	struct req *m, *p, *sn;

	(void)state;
	new_batch();
	expect_in(0x80, 0x06, 0x0300, 0, 255, lang, 4);
	m = GET_DESCRIPTOR(3, WGU_STRI_MANUFACTURER, 255);
	p = GET_DESCRIPTOR(3, WGU_STRI_PRODUCT, 255);
	sn = GET_DESCRIPTOR(3, WGU_STRI_SERIAL, 255);
	settle();
	check_string(m->data, m->len, WGU_STR_MANUFACTURER);
	check_string(p->data, p->len, WGU_STR_PRODUCT);
	check_string(sn->data, sn->len, WGU_STR_SERIAL);
}

static void unknown_descriptors_stall(void **state)
{
	(void)state;
	new_batch();
	expect_stall(0x80, 0x06, 0x0304, 0, 255); /* string 4 */
	expect_stall(0x80, 0x06, 0x0F00, 0, 255); /* BOS */
	expect_stall(0x80, 0x06, 0x0201, 0, 255); /* configuration 1 (there is only 0) */
	expect_stall(0x80, 0x06, 0x0101, 0, 18);  /* device index 1 */
	expect_stall(0x81, 0x06, 0x2100, 0, 9);   /* HID class descriptor from the interface */
	settle();
}

/* SET_CONFIGURATION 1: each endpoint's data toggle reset (TOGCTL: EP2 OUT 0x02 then
 * R 0x22; EP6 IN 0x16 then 0x36) and FIFO emptied (EP2: NAKALL 0x80, 0x82, 0x00,
 * AUTOOUT off, four buffers armed, AUTOOUT on; EP6: 0x80, 0x86, 0x00). */
static void set_configuration_1_restarts_both_endpoints(void **state)
{
	static const unsigned regs[] = { TOGCTL, FIFORESET, OUTPKTEND, EP2FIFOCFG, EP6FIFOCFG };
	static const struct wr want[] = {
		{ TOGCTL, 0x02 }, { TOGCTL, 0x22 },
		{ FIFORESET, 0x80 }, { FIFORESET, 0x82 }, { FIFORESET, 0x00 },
		{ EP2FIFOCFG, 0x00 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 },
		{ OUTPKTEND, 0x82 }, { EP2FIFOCFG, 0x10 },
		{ TOGCTL, 0x16 }, { TOGCTL, 0x36 },
		{ FIFORESET, 0x80 }, { FIFORESET, 0x86 }, { FIFORESET, 0x00 },
	};
	static const uint8_t one = WGU_CONFIG_VALUE, zero = 0;
	static struct trace t;

	(void)state;
	new_batch();
	SET_CONFIGURATION(0);
	expect_in(0x80, 0x08, 0, 0, 1, &zero, 1);
	request_traced(0x00, 0x09, WGU_CONFIG_VALUE, 0, regs, N(regs), &t, want, N(want));
	expect_in(0x80, 0x08, 0, 0, 1, &one, 1);
	expect_stall(0x00, 0x09, 2, 0, 0); /* no configuration 2 */
	expect_in(0x80, 0x08, 0, 0, 1, &one, 1);
	settle();
}

static void get_status_answers_device_interface_and_endpoints(void **state)
{
	static const uint8_t zero2[2] = { 0, 0 };

	(void)state;
	new_batch();
	SET_CONFIGURATION(WGU_CONFIG_VALUE);
	s51_set_x(&S, EP2CS, 0x04); /* empty, not stalled */
	s51_set_x(&S, EP6CS, 0x04);
	expect_in(0x80, 0x00, 0, 0, 2, zero2, 2); /* bus-powered, no wake-up */
	expect_in(0x81, 0x00, 0, WGU_INTERFACE, 2, zero2, 2);
	expect_in(0x82, 0x00, 0, 0x00, 2, zero2, 2); /* EP0 */
	expect_in(0x82, 0x00, 0, WGU_EP_OUT, 2, zero2, 2);
	expect_in(0x82, 0x00, 0, WGU_EP_IN, 2, zero2, 2);
	expect_stall(0x82, 0x00, 0, 0x81, 2); /* no EP1 IN */
	expect_stall(0x81, 0x00, 0, 1, 2);    /* no interface 1 */
	settle();
}

/* SET_FEATURE(ENDPOINT_HALT) on EP6 sets EP6CS.STALL (0x04 -> 0x05), GET_STATUS shows
 * 1; CLEAR_FEATURE clears it, resets the toggle (0x16, 0x36) and empties the FIFO. */
static void halt_of_ep6_is_set_reported_and_cleared(void **state)
{
	static const unsigned regs[] = { TOGCTL, FIFORESET, OUTPKTEND };
	static const struct wr want[] = {
		{ TOGCTL, 0x16 }, { TOGCTL, 0x36 },
		{ FIFORESET, 0x80 }, { FIFORESET, 0x86 }, { FIFORESET, 0x00 },
	};
	static const uint8_t halted[2] = { 1, 0 }, running[2] = { 0, 0 };
	static struct trace t;
	uint8_t set = 0, cleared = 0;

	(void)state;
	new_batch();
	SET_CONFIGURATION(WGU_CONFIG_VALUE);
	s51_set_x(&S, EP6CS, 0x04);
	expect_ok(0x02, 0x03, 0, WGU_EP_IN);
	s51_read_x(&S, EP6CS, 1, &set);
	expect_in(0x82, 0x00, 0, WGU_EP_IN, 2, halted, 2);
	request_traced(0x02, 0x01, 0, WGU_EP_IN, regs, N(regs), &t, want, N(want));
	s51_read_x(&S, EP6CS, 1, &cleared);
	expect_in(0x82, 0x00, 0, WGU_EP_IN, 2, running, 2);
	settle();
	assert_int_equal(set, 0x05);
	assert_int_equal(cleared, 0x04);
}

/* CLEAR_FEATURE(ENDPOINT_HALT) on EP2 re-arms its four OUT buffers. */
static void clearing_the_halt_of_ep2_rearms_its_buffers(void **state)
{
	static const unsigned regs[] = { TOGCTL, FIFORESET, OUTPKTEND, EP2FIFOCFG };
	static const struct wr want[] = {
		{ TOGCTL, 0x02 }, { TOGCTL, 0x22 },
		{ FIFORESET, 0x80 }, { FIFORESET, 0x82 }, { FIFORESET, 0x00 },
		{ EP2FIFOCFG, 0x00 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 },
		{ OUTPKTEND, 0x82 }, { EP2FIFOCFG, 0x10 },
	};
	static struct trace t;
	uint8_t cs = 0;

	(void)state;
	new_batch();
	SET_CONFIGURATION(WGU_CONFIG_VALUE);
	s51_set_x(&S, EP2CS, 0x05);
	request_traced(0x02, 0x01, 0, WGU_EP_OUT, regs, N(regs), &t, want, N(want));
	s51_read_x(&S, EP2CS, 1, &cs);
	settle();
	assert_int_equal(cs, 0x04);
}

static void endpoint_and_interface_requests_stall_when_unconfigured(void **state)
{
	(void)state;
	new_batch();
	SET_CONFIGURATION(0);
	expect_stall(0x82, 0x00, 0, WGU_EP_IN, 2);
	expect_stall(0x02, 0x03, 0, WGU_EP_OUT, 0);
	expect_stall(0x81, 0x0A, 0, WGU_INTERFACE, 1);
	expect_stall(0x01, 0x0B, 0, WGU_INTERFACE, 0);
	/* EP0's halt may be cleared in any state; setting it is refused. */
	expect_ok(0x02, 0x01, 0, 0x00);
	expect_stall(0x02, 0x03, 0, 0x80, 0);
	settle();
}

static void interface_has_only_alternate_setting_0(void **state)
{
	static const uint8_t zero = 0;

	(void)state;
	new_batch();
	SET_CONFIGURATION(WGU_CONFIG_VALUE);
	expect_in(0x81, 0x0A, 0, WGU_INTERFACE, 1, &zero, 1);
	expect_ok(0x01, 0x0B, 0, WGU_INTERFACE);
	expect_stall(0x01, 0x0B, 1, WGU_INTERFACE, 0);
	expect_stall(0x01, 0x0B, 0, 1, 0);
	settle();
}

static void unsupported_standard_and_class_requests_stall(void **state)
{
	(void)state;
	new_batch();
	expect_stall(0x00, 0x03, 1, 0, 0);         /* SET_FEATURE(DEVICE_REMOTE_WAKEUP) */
	expect_stall(0x00, 0x03, 2, 0x0100, 0);    /* SET_FEATURE(TEST_MODE) */
	expect_stall(0x00, 0x01, 1, 0, 0);         /* CLEAR_FEATURE(DEVICE_REMOTE_WAKEUP) */
	expect_stall(0x82, 0x0C, 0, WGU_EP_IN, 2); /* SYNCH_FRAME */
	expect_stall(0x00, 0x07, 0x0100, 0, 18);   /* SET_DESCRIPTOR */
	expect_stall(0xA1, 0x01, 0, 0, 8);         /* a class request */
	expect_stall(0x80, 0x42, 0, 0, 8);         /* an unknown standard request */
	settle();
}

/* Bus reset: the device is unconfigured and at full speed until HSGRANT. */
static void bus_reset_unconfigures_and_returns_to_full_speed(void **state)
{
	static const uint8_t zero = 0;
	uint8_t len[2];
	struct req *cfg;

	(void)state;
	new_batch();
	set_speed(1);
	SET_CONFIGURATION(WGU_CONFIG_VALUE);
	set_speed(0); /* URES with HSM clear */
	expect_in(0x80, 0x08, 0, 0, 1, &zero, 1);
	s51_read_x(&S, EP6AUTOINLENH, 2, len);
	cfg = GET_DESCRIPTOR(2, 0, 255);
	settle();
	assert_int_equal(len[0] << 8 | len[1], WGU_BULK_PACKET_FS);
	check_config(cfg->data, cfg->len, 2, WGU_BULK_PACKET_FS);
}

/* VERSION: 'W' 'G', protocol 1, link version 1, firmware 1.0, 8-bit bus, 0. */
static void version_reply_names_the_protocols_and_the_firmware(void **state)
{
	static const uint8_t want[WGU_VERSION_BYTES] = {
		WGU_MAGIC0, WGU_MAGIC1, WGU_PROTO_VERSION, WGL_VERSION, WGU_FW_VERSION_MAJOR,
		WGU_FW_VERSION_MINOR, WGU_BUS_BITS, 0,
	};

	(void)state;
	assert_int_equal(want[0], 'W');
	assert_int_equal(want[1], 'G');
	new_batch();
	expect_in(WGU_RT_VENDOR_IN, WGU_RQ_VERSION, 0, 0, 64, want, WGU_VERSION_BYTES);
	expect_in(WGU_RT_VENDOR_IN, WGU_RQ_VERSION, 0, 0, 3, want, 3); /* cut to wLength */
	expect_stall(WGU_RT_VENDOR_IN, WGU_RQ_VERSION, 1, 0, 8);
	expect_stall(WGU_RT_VENDOR_IN, WGU_RQ_VERSION, 0, 0, 0);
	expect_stall(WGU_RT_VENDOR_OUT, WGU_RQ_VERSION, 0, 0, 0);
	settle();
}

static struct req *status_q(void)
{
	return request(WGU_RT_VENDOR_IN, WGU_RQ_STATUS, 0, 0, 64);
}

static const uint8_t *status_of(const struct req *r)
{
	assert_false(r->stalled);
	assert_int_equal(r->len, WGU_STATUS_BYTES);
	return r->data;
}

/* STATUS copies the FIFO registers: EP2CS 0x24 and EP6CS 0x08 (values chosen by the
 * test, copied, not judged), EP2FIFOFLGS 0x02 (empty), EP6FIFOFLGS 0x01 (full),
 * EP2 FIFO 0x0123 = 291 bytes, EP6 0x0200 = 512; flags: reset pin high (0x01), high
 * speed (0x04), configured (0x08) = 0x0D. */
static void status_reply_copies_the_fifo_registers_and_the_state(void **state)
{
	const uint8_t *st;
	struct req *r;

	(void)state;
	new_batch();
	set_speed(1);
	SET_CONFIGURATION(WGU_CONFIG_VALUE);
	s51_set_x(&S, EP2CS, 0x24);
	s51_set_x(&S, EP6CS, 0x08);
	s51_set_x(&S, EP2FIFOFLGS, 0x02);
	s51_set_x(&S, EP6FIFOFLGS, 0x01);
	s51_cmd(&S, "set mem xram 0x%x 0x01 0x23", EP2FIFOBCH);
	s51_cmd(&S, "set mem xram 0x%x 0x02 0x00", EP6FIFOBCH);
	r = status_q();
	expect_stall(WGU_RT_VENDOR_IN, WGU_RQ_STATUS, 0, 1, 64);
	settle();
	st = status_of(r);
	assert_int_equal(st[WGU_ST_EP2CS], 0x24);
	assert_int_equal(st[WGU_ST_EP6CS], 0x08);
	assert_int_equal(st[WGU_ST_EP2FLAGS], 0x02);
	assert_int_equal(st[WGU_ST_EP6FLAGS], 0x01);
	assert_int_equal(wgu_get16(st, WGU_ST_EP2BC), 291);
	assert_int_equal(wgu_get16(st, WGU_ST_EP6BC), 512);
	assert_int_equal(st[WGU_ST_FLAGS], WGU_STF_RESET_PIN | WGU_STF_HIGH_SPEED | WGU_STF_CONFIGURED);
	assert_int_equal(st[WGU_ST_FLAGS], 0x0D);
	assert_int_equal(st[WGU_ST_CONFIG], WGU_CONFIG_VALUE);
	assert_int_equal(wgu_get16(st, WGU_ST_RESET_MS), 0);
}

/* Three EP2 and two EP6 interrupts: the counters rise by 3 and 2, and each handler
 * acknowledges its EPIRQ bit (EP2 0x10, EP6 0x40). */
static void endpoint_interrupts_count_packets(void **state)
{
	struct req *a, *b;
	uint8_t ack[5];
	int i;

	(void)state;
	new_batch();
	a = status_q();
	for (i = 0; i < 5; i++) {
		s51_set_x(&S, EPIRQ, 0);
		fx2_interrupt(i < 3 ? IVEC_EP2 : IVEC_EP6);
		s51_read_x(&S, EPIRQ, 1, &ack[i]);
	}
	fx2_loop();
	b = status_q();
	settle();
	for (i = 0; i < 5; i++)
		assert_int_equal(ack[i], i < 3 ? 0x10 : 0x40);
	assert_int_equal(wgu_get32(status_of(b), WGU_ST_OUT_PACKETS) - wgu_get32(status_of(a), WGU_ST_OUT_PACKETS), 3);
	assert_int_equal(wgu_get32(status_of(b), WGU_ST_IN_PACKETS) - wgu_get32(status_of(a), WGU_ST_IN_PACKETS), 2);
}

/* FPGA_RESET 3 ms: PA0 goes low at once; STATUS says resetting, 3 ms left, pin low;
 * the pin stays low up to the third millisecond tick and rises in it. */
static void fpga_reset_holds_pa0_low_for_n_millisecond_ticks(void **state)
{
	struct s51_stop ticks[3];
	uint8_t ioa[3], after = 0;
	struct req *during, *done;
	int i;

	(void)state;
	new_batch();
	expect_ok(WGU_RT_VENDOR_OUT, WGU_RQ_FPGA_RESET, 3, 0);
	during = status_q();
	s51_cmd(&S, "delete");
	s51_cmd(&S, "break 0x%x", S.tick_pc);
	for (i = 0; i < 3; i++) {
		s51_run(&S, &ticks[i]); /* at the entry of the i-th tick */
		s51_read_sfr(&S, SFR_IOA, &ioa[i]);
	}
	s51_cmd(&S, "delete");
	s51_cmd(&S, "break 0x%x", S.poll_pc);
	fx2_loop(); /* runs the third tick */
	s51_read_sfr(&S, SFR_IOA, &after);
	done = status_q();
	settle();
	assert_int_equal(status_of(during)[WGU_ST_FLAGS] & (WGU_STF_RESET_PIN | WGU_STF_RESETTING),
			 WGU_STF_RESETTING);
	assert_int_equal(wgu_get16(status_of(during), WGU_ST_RESET_MS), 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(ticks[i].pc, S.tick_pc);
		assert_int_equal(ioa[i] & 0x01, 0);
	}
	assert_int_equal(after & 0x01, 0x01);
	assert_int_equal(status_of(done)[WGU_ST_FLAGS] & (WGU_STF_RESET_PIN | WGU_STF_RESETTING),
			 WGU_STF_RESET_PIN);
	assert_int_equal(wgu_get16(status_of(done), WGU_ST_RESET_MS), 0);
}

/* With WGU_RESET_FIFOS both FIFOs are emptied (NAKALL, EP2, EP6, release, EP2 re-armed). */
static void fpga_reset_with_the_fifo_flag_empties_both_fifos(void **state)
{
	static const unsigned regs[] = { FIFORESET, OUTPKTEND, EP2FIFOCFG };
	static const struct wr want[] = {
		{ FIFORESET, 0x80 }, { FIFORESET, 0x82 }, { FIFORESET, 0x86 }, { FIFORESET, 0x00 },
		{ EP2FIFOCFG, 0x00 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 },
		{ OUTPKTEND, 0x82 }, { EP2FIFOCFG, 0x10 },
	};
	static struct trace t;
	uint8_t ioa = 0xFF;

	(void)state;
	new_batch();
	request_traced(WGU_RT_VENDOR_OUT, WGU_RQ_FPGA_RESET, 1, WGU_RESET_FIFOS, regs, N(regs), &t,
		       want, N(want));
	s51_read_sfr(&S, SFR_IOA, &ioa);
	settle();
	assert_int_equal(ioa & 0x01, 0);
}

static void fpga_reset_refuses_bad_fields(void **state)
{
	(void)state;
	new_batch();
	expect_stall(WGU_RT_VENDOR_OUT, WGU_RQ_FPGA_RESET, 0, 0, 0);
	expect_stall(WGU_RT_VENDOR_OUT, WGU_RQ_FPGA_RESET, WGU_RESET_MS_MAX + 1, 0, 0);
	expect_stall(WGU_RT_VENDOR_OUT, WGU_RQ_FPGA_RESET, 5, 0x02, 0);
	expect_stall(WGU_RT_VENDOR_OUT, WGU_RQ_FPGA_RESET, 5, 0, 1); /* a data stage */
	expect_stall(WGU_RT_VENDOR_IN, WGU_RQ_FPGA_RESET, 5, 0, 1);
	settle();
}

/* FIFO_RESET: OUT (1) = EP2 alone, IN (2) = EP6 alone, 3 = both; 0 and 4 stall. */
static void fifo_reset_empties_the_named_fifos(void **state)
{
	static const unsigned regs[] = { FIFORESET, OUTPKTEND, EP2FIFOCFG };
	static const struct wr want_out[] = {
		{ FIFORESET, 0x80 }, { FIFORESET, 0x82 }, { FIFORESET, 0x00 },
		{ EP2FIFOCFG, 0x00 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 },
		{ OUTPKTEND, 0x82 }, { EP2FIFOCFG, 0x10 },
	};
	static const struct wr want_in[] = {
		{ FIFORESET, 0x80 }, { FIFORESET, 0x86 }, { FIFORESET, 0x00 },
	};
	static const struct wr want_both[] = {
		{ FIFORESET, 0x80 }, { FIFORESET, 0x82 }, { FIFORESET, 0x86 }, { FIFORESET, 0x00 },
		{ EP2FIFOCFG, 0x00 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 }, { OUTPKTEND, 0x82 },
		{ OUTPKTEND, 0x82 }, { EP2FIFOCFG, 0x10 },
	};
	static struct trace t1, t2, t3;

	(void)state;
	new_batch();
	request_traced(WGU_RT_VENDOR_OUT, WGU_RQ_FIFO_RESET, WGU_FIFO_OUT, 0, regs, N(regs), &t1,
		       want_out, N(want_out));
	request_traced(WGU_RT_VENDOR_OUT, WGU_RQ_FIFO_RESET, WGU_FIFO_IN, 0, regs, N(regs), &t2,
		       want_in, N(want_in));
	request_traced(WGU_RT_VENDOR_OUT, WGU_RQ_FIFO_RESET, WGU_FIFO_OUT | WGU_FIFO_IN, 0, regs,
		       N(regs), &t3, want_both, N(want_both));
	expect_stall(WGU_RT_VENDOR_OUT, WGU_RQ_FIFO_RESET, 0, 0, 0);
	expect_stall(WGU_RT_VENDOR_OUT, WGU_RQ_FIFO_RESET, 4, 0, 0);
	settle();
}

/* IN_COMMIT: INPKTEND = 6 (EP6, SKIP clear), followed by a sync delay. */
static void in_commit_commits_the_ep6_packet(void **state)
{
	static const unsigned regs[] = { INPKTEND };
	static const struct wr want[] = { { INPKTEND, 0x06 } };
	static struct trace t;

	(void)state;
	new_batch();
	request_traced(WGU_RT_VENDOR_OUT, WGU_RQ_IN_COMMIT, 0, 0, regs, N(regs), &t, want, N(want));
	expect_stall(WGU_RT_VENDOR_OUT, WGU_RQ_IN_COMMIT, 1, 0, 0);
	settle();
}

static void unknown_vendor_requests_stall(void **state)
{
	(void)state;
	new_batch();
	expect_stall(WGU_RT_VENDOR_IN, 0xB9, 0, 0, 8);
	expect_stall(WGU_RT_VENDOR_OUT, 0xB9, 0, 0, 0);
	expect_stall(0xC1, WGU_RQ_VERSION, 0, 0, 8); /* vendor, but to the interface */
	settle();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(init_writes_the_registers_in_the_trm_order),
		cmocka_unit_test(after_init_the_slave_fifo_registers_hold_the_bridge_set_up),
		cmocka_unit_test(device_descriptor_matches_the_header),
		cmocka_unit_test(full_speed_configuration_has_64_byte_bulk_endpoints),
		cmocka_unit_test(high_speed_configuration_has_512_byte_bulk_endpoints),
		cmocka_unit_test(device_qualifier_matches_the_device),
		cmocka_unit_test(string_descriptors_spell_the_header_strings),
		cmocka_unit_test(unknown_descriptors_stall),
		cmocka_unit_test(set_configuration_1_restarts_both_endpoints),
		cmocka_unit_test(get_status_answers_device_interface_and_endpoints),
		cmocka_unit_test(halt_of_ep6_is_set_reported_and_cleared),
		cmocka_unit_test(clearing_the_halt_of_ep2_rearms_its_buffers),
		cmocka_unit_test(endpoint_and_interface_requests_stall_when_unconfigured),
		cmocka_unit_test(interface_has_only_alternate_setting_0),
		cmocka_unit_test(unsupported_standard_and_class_requests_stall),
		cmocka_unit_test(bus_reset_unconfigures_and_returns_to_full_speed),
		cmocka_unit_test(version_reply_names_the_protocols_and_the_firmware),
		cmocka_unit_test(status_reply_copies_the_fifo_registers_and_the_state),
		cmocka_unit_test(endpoint_interrupts_count_packets),
		cmocka_unit_test(fpga_reset_holds_pa0_low_for_n_millisecond_ticks),
		cmocka_unit_test(fpga_reset_with_the_fifo_flag_empties_both_fifos),
		cmocka_unit_test(fpga_reset_refuses_bad_fields),
		cmocka_unit_test(fifo_reset_empties_the_named_fifos),
		cmocka_unit_test(in_commit_commits_the_ep6_packet),
		cmocka_unit_test(unknown_vendor_requests_stall),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
