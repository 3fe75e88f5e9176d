/*
 * cmocka checks of the USB transport's streaming (host/src/usb.c, docs/usb.md
 * sections 1 and 6) against a fake libusb defined here: one bridge on the bus
 * whose EP6 behaves as the FX2's slave FIFO does (the FPGA's bytes fill
 * 512-byte packets; a full one is committed at once, a partial one when the
 * FPGA's output has gone idle, as its PKTEND does; IN_COMMIT commits what is
 * there, a zero-length packet if nothing), and bulk IN transfers that end, as
 * on a real bus, only on a short packet or a full buffer. Behind EP2/EP6 sits
 * the board's side of the link (a wg_link in the GPU role).
 *
 * The rule under test: bytes the bridge sent in whole packets wait in a pending
 * IN transfer, unseen by the host's link, so their ACK is not due yet and the
 * board waits for it; a host that waits asks the bridge with IN_COMMIT to end
 * the transfer, and the frames are delivered and acknowledged long before the
 * board's retransmission timer would send them again.
 *
 * The fake libusb functions replace the library's for this program only (they
 * are defined in the executable); they keep to the contract usb.c relies on:
 * callbacks run inside libusb_handle_events_timeout_completed, IN transfers of
 * one endpoint complete in submission order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include <libusb.h>

#include "link.h"
#include "target_board.h"
#include "usb.h"
#include "warpgate.h"
#include "wg_usb_proto.h"

#define PKT 512u           /* high-speed bulk packet */
#define MAXQ 256           /* transfers queued in the fake at once */
#define GUARD_US 5000000u  /* a loop that waits for the host gives up after this (a failure, not a figure) */
#define DEV_RTO_US 60000000u /* the board's retransmission timeout: far beyond the guard */

/* ------------------------------------------------------------------------ */
/* The fake bus                                                              */

struct fake {
	int dev_tag, handle_tag, ctx_tag;
	struct libusb_transfer *inq[MAXQ]; /* posted IN transfers, in submission order */
	unsigned in_n;
	struct libusb_transfer *work[MAXQ]; /* OUT and control transfers to complete at the next round */
	unsigned work_n;
	struct libusb_transfer *cancel[MAXQ];
	unsigned cancel_n;
	uint8_t part[PKT]; /* the FPGA's bytes in the FX2's current EP6 buffer */
	unsigned part_n;
	uint8_t pkt[64][PKT]; /* committed EP6 packets, oldest first */
	unsigned pkt_len[64], pkt_n;
	int pktend;        /* the FPGA commits a partial packet when its output goes idle */
	uint64_t dev_bytes; /* bytes the board's link sent */
	unsigned in_commits, zlps, short_pkts;
	uint64_t base_commits, base_empty; /* the transport's counts when the test starts */
	struct wg_link *dev; /* the board's end of the link */
};

static struct fake F;

static void commit_packet(const uint8_t *b, unsigned n)
{
	assert_true(F.pkt_n < 64);
	memcpy(F.pkt[F.pkt_n], b, n);
	F.pkt_len[F.pkt_n++] = n;
	if (!n)
		F.zlps++;
	else if (n < PKT)
		F.short_pkts++;
}

/* The FPGA writes a byte stream into EP6: full buffers are committed as they fill. */
static void fpga_write(const uint8_t *b, size_t n)
{
	F.dev_bytes += n;
	while (n) {
		unsigned k = PKT - F.part_n < n ? PKT - F.part_n : (unsigned)n;

		memcpy(F.part + F.part_n, b, k);
		F.part_n += k;
		b += k;
		n -= k;
		if (F.part_n == PKT) {
			commit_packet(F.part, PKT);
			F.part_n = 0;
		}
	}
}

/* Removes t from q if it is there; 1 if it was. */
static int unqueue(struct libusb_transfer **q, unsigned *n, struct libusb_transfer *t)
{
	for (unsigned i = 0; i < *n; i++) {
		if (q[i] == t) {
			memmove(q + i, q + i + 1, (*n - i - 1) * sizeof(q[0]));
			(*n)--;
			return 1;
		}
	}
	return 0;
}

static void complete(struct libusb_transfer *t, enum libusb_transfer_status st)
{
	t->status = st;
	t->callback(t);
}

/* Committed packets into the posted IN transfers: a short packet or a full buffer ends one. */
static void move_in(void)
{
	while (F.pkt_n && F.in_n) {
		struct libusb_transfer *t = F.inq[0];
		unsigned n = F.pkt_len[0];

		assert_true(t->actual_length + (int)n <= t->length);
		memcpy(t->buffer + t->actual_length, F.pkt[0], n);
		t->actual_length += (int)n;
		memmove(F.pkt[0], F.pkt[1], (size_t)(F.pkt_n - 1) * PKT);
		memmove(F.pkt_len, F.pkt_len + 1, (F.pkt_n - 1) * sizeof(F.pkt_len[0]));
		F.pkt_n--;
		if (n < PKT || t->actual_length == t->length) {
			memmove(F.inq, F.inq + 1, (F.in_n - 1) * sizeof(F.inq[0]));
			F.in_n--;
			complete(t, LIBUSB_TRANSFER_COMPLETED); /* may post the transfer again */
		}
	}
}

/* One round of the bus: OUT and control transfers, cancellations, the board's link, EP6. Returns 1 if anything moved. */
static int bus_round(void)
{
	const uint8_t *f;
	size_t len;
	int moved = 0;

	while (F.work_n) {
		struct libusb_transfer *t = F.work[0];

		memmove(F.work, F.work + 1, (F.work_n - 1) * sizeof(F.work[0]));
		F.work_n--;
		moved = 1;
		if (t->type == LIBUSB_TRANSFER_TYPE_CONTROL) {
			struct libusb_control_setup *s = libusb_control_transfer_get_setup(t);

			assert_int_equal(s->bmRequestType, WGU_RT_VENDOR_OUT);
			assert_int_equal(s->bRequest, WGU_RQ_IN_COMMIT);
			F.in_commits++;
			commit_packet(F.part, F.part_n); /* INPKTEND: a zero-length packet when empty */
			F.part_n = 0;
			t->actual_length = 0;
		} else {
			assert_int_equal(wg_link_rx(F.dev, t->buffer, (size_t)t->length), 0);
			t->actual_length = t->length;
		}
		complete(t, LIBUSB_TRANSFER_COMPLETED);
	}
	while (F.cancel_n) {
		struct libusb_transfer *t = F.cancel[0];

		unqueue(F.cancel, &F.cancel_n, t);
		complete(t, LIBUSB_TRANSFER_CANCELLED);
		moved = 1;
	}
	assert_int_equal(wg_link_poll(F.dev, wg_board_now_us()), 0);
	while (wg_link_tx_next(F.dev, &f, &len) == 1) {
		fpga_write(f, len);
		moved = 1;
	}
	if (F.pktend && F.part_n) { /* the FPGA's output went idle with a partial packet: PKTEND */
		commit_packet(F.part, F.part_n);
		F.part_n = 0;
	}
	if (F.pkt_n && F.in_n)
		moved = 1;
	move_in();
	return moved;
}

/* ---- libusb, as usb.c uses it ----------------------------------------- */

int LIBUSB_CALL libusb_init(libusb_context **ctx)
{
	*ctx = (libusb_context *)&F.ctx_tag;
	return 0;
}

void LIBUSB_CALL libusb_exit(libusb_context *ctx)
{
	(void)ctx;
}

ssize_t LIBUSB_CALL libusb_get_device_list(libusb_context *ctx, libusb_device ***list)
{
	static libusb_device *l[2];

	(void)ctx;
	l[0] = (libusb_device *)&F.dev_tag;
	l[1] = NULL;
	*list = l;
	return 1;
}

void LIBUSB_CALL libusb_free_device_list(libusb_device **list, int unref)
{
	(void)list;
	(void)unref;
}

int LIBUSB_CALL libusb_get_device_descriptor(libusb_device *dev, struct libusb_device_descriptor *d)
{
	(void)dev;
	memset(d, 0, sizeof(*d));
	d->idVendor = WGU_VID;
	d->idProduct = WGU_PID;
	d->iProduct = 2;
	return 0;
}

int LIBUSB_CALL libusb_open(libusb_device *dev, libusb_device_handle **h)
{
	(void)dev;
	*h = (libusb_device_handle *)&F.handle_tag;
	return 0;
}

void LIBUSB_CALL libusb_close(libusb_device_handle *h)
{
	(void)h;
}

libusb_device *LIBUSB_CALL libusb_get_device(libusb_device_handle *h)
{
	(void)h;
	return (libusb_device *)&F.dev_tag;
}

int LIBUSB_CALL libusb_get_string_descriptor_ascii(libusb_device_handle *h, uint8_t idx, unsigned char *data,
                                                   int length)
{
	int n = (int)strlen(WGU_STR_PRODUCT);

	(void)h;
	assert_int_equal(idx, 2);
	assert_true(length >= n);
	memcpy(data, WGU_STR_PRODUCT, (size_t)n);
	return n;
}

uint8_t LIBUSB_CALL libusb_get_bus_number(libusb_device *dev)
{
	(void)dev;
	return 1;
}

uint8_t LIBUSB_CALL libusb_get_device_address(libusb_device *dev)
{
	(void)dev;
	return 3;
}

int LIBUSB_CALL libusb_set_auto_detach_kernel_driver(libusb_device_handle *h, int enable)
{
	(void)h;
	(void)enable;
	return 0;
}

int LIBUSB_CALL libusb_claim_interface(libusb_device_handle *h, int i)
{
	(void)h;
	(void)i;
	return 0;
}

int LIBUSB_CALL libusb_release_interface(libusb_device_handle *h, int i)
{
	(void)h;
	(void)i;
	return 0;
}

/* The bridge's synchronous requests at open: VERSION, FPGA_RESET, STATUS (docs/fx2.md section 4). */
int LIBUSB_CALL libusb_control_transfer(libusb_device_handle *h, uint8_t rt, uint8_t rq, uint16_t wv, uint16_t wi,
                                       unsigned char *data, uint16_t wl, unsigned int timeout)
{
	(void)h;
	(void)wv;
	(void)wi;
	(void)timeout;
	if (rt == WGU_RT_VENDOR_IN && rq == WGU_RQ_VERSION && wl == WGU_VERSION_BYTES) {
		const uint8_t v[WGU_VERSION_BYTES] = {WGU_MAGIC0, WGU_MAGIC1, WGU_PROTO_VERSION, WGL_VERSION,
		                                      1, 0, WGU_BUS_BITS, 0};

		memcpy(data, v, sizeof(v));
		return wl;
	}
	if (rt == WGU_RT_VENDOR_OUT && rq == WGU_RQ_FPGA_RESET)
		return 0;
	if (rt == WGU_RT_VENDOR_IN && rq == WGU_RQ_STATUS && wl == WGU_STATUS_BYTES) {
		memset(data, 0, wl);
		data[WGU_ST_FLAGS] = WGU_STF_RESET_PIN | WGU_STF_HIGH_SPEED | WGU_STF_CONFIGURED;
		return wl;
	}
	return LIBUSB_ERROR_PIPE;
}

struct libusb_transfer *LIBUSB_CALL libusb_alloc_transfer(int iso_packets)
{
	assert_int_equal(iso_packets, 0);
	return calloc(1, sizeof(struct libusb_transfer));
}

void LIBUSB_CALL libusb_free_transfer(struct libusb_transfer *t)
{
	free(t);
}

int LIBUSB_CALL libusb_submit_transfer(struct libusb_transfer *t)
{
	t->actual_length = 0;
	if (t->type == LIBUSB_TRANSFER_TYPE_BULK && t->endpoint == WGU_EP_IN) {
		assert_true(F.in_n < MAXQ);
		F.inq[F.in_n++] = t;
	} else {
		assert_true(t->type == LIBUSB_TRANSFER_TYPE_CONTROL ||
		            (t->type == LIBUSB_TRANSFER_TYPE_BULK && t->endpoint == WGU_EP_OUT));
		assert_true(F.work_n < MAXQ);
		F.work[F.work_n++] = t;
	}
	return 0;
}

/* A pending transfer completes as cancelled at the next round, keeping what it received. */
int LIBUSB_CALL libusb_cancel_transfer(struct libusb_transfer *t)
{
	if (!unqueue(F.inq, &F.in_n, t) && !unqueue(F.work, &F.work_n, t))
		return LIBUSB_ERROR_NOT_FOUND;
	assert_true(F.cancel_n < MAXQ);
	F.cancel[F.cancel_n++] = t;
	return 0;
}

/* One round of the bus; if nothing moved, sleep a little of the time given (the host's wait). */
int LIBUSB_CALL libusb_handle_events_timeout_completed(libusb_context *ctx, struct timeval *tv, int *completed)
{
	(void)ctx;
	(void)completed;
	if (!bus_round() && tv && (tv->tv_sec || tv->tv_usec)) {
		long us = tv->tv_sec ? 200 : (tv->tv_usec < 200 ? (long)tv->tv_usec : 200);
		struct timespec ts = {0, us * 1000L};

		nanosleep(&ts, NULL);
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* The host                                                                  */

struct host {
	struct wg_usb *u;
	unsigned recs, reached;
	uint32_t linear[64];
};

static int host_rec(void *arg, const struct wg_link_rec *r)
{
	struct host *h = arg;

	if (r->ev && h->recs < 64)
		h->linear[h->recs] = r->ev->kind == WGL_T_CODE(WGL_T_DONE) ? r->ev->linear : 0;
	h->recs++;
	if (r->ev && r->ev->kind == WGL_T_CODE(WGL_T_REACHED))
		h->reached++;
	return 0;
}

static struct wg_link_info board_build(void)
{
	return (struct wg_link_info){
		.num_sms = 15, .num_warps = 48, .simd_width = 16, .num_simd = 2, .num_regs = 32768, .rf_banks = 16,
		.num_ctas = 8, .dmem_bytes = 65536, .l1_sets = 64, .l1_mshrs = 8, .imem_depth = 4096, .cmem_bytes = 4096,
		.stack_depth = 64, .has_fp = 1, .mem_bytes = WGL_MEM_BYTES, .mem_tag_bits = 8, .retire_en = 0,
		.rsp_depth = 256, .launch_depth = 8, .cnt_words = WGL_CNT_WORDS,
	};
}

/* The fake bus with the board's link, the transport opened on it and the link up. */
static int setup(void **state)
{
	static struct host h;
	struct wg_link_params gp = {.role = WGL_ROLE_GPU, .rto = DEV_RTO_US, .build = board_build()};
	struct wg_usb_params p;
	char msg[256];
	uint64_t t0;

	memset(&F, 0, sizeof(F));
	memset(&h, 0, sizeof(h));
	F.pktend = 1;
	assert_int_equal(wg_link_create(&F.dev, &gp), 0);
	memset(&p, 0, sizeof(p));
	p.link.role = WGL_ROLE_HOST;
	p.link.rto = DEV_RTO_US;
	p.link.on_rec = host_rec;
	p.link.arg = &h;
	p.commit_us = (uint32_t)(uintptr_t)*state; /* the test's setting, 0: the default */
	assert_int_equal(wg_usb_open(&h.u, &p, msg, sizeof(msg)), 0);
	t0 = wg_board_now_us();
	while (!wg_link_up(wg_usb_link(h.u)) && wg_board_now_us() - t0 < GUARD_US)
		assert_int_equal(wg_usb_pump(h.u, 1000), 0);
	assert_true(wg_link_up(wg_usb_link(h.u)));
	/* The HELLO reply (112 bytes) went as a short packet: nothing is left in EP6. */
	assert_int_equal(F.part_n, 0);
	assert_int_equal(F.pkt_n, 0);
	F.dev_bytes = 0;
	F.short_pkts = F.zlps = F.in_commits = 0;
	{
		struct wg_usb_stats us;

		wg_usb_stats(h.u, &us);
		F.base_commits = us.in_commits;
		F.base_empty = us.in_empty;
	}
	*state = &h;
	return 0;
}

static int teardown(void **state)
{
	struct host *h = *state;

	wg_usb_close(h->u);
	wg_link_destroy(F.dev);
	return 0;
}

static void board_ev(unsigned type, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct wg_link_ev e;

		memset(&e, 0, sizeof(e));
		e.kind = (uint8_t)WGL_T_CODE(type);
		e.cycle = 100 + i;
		e.linear = i;
		e.addr = 0x1000 + 128 * i;
		assert_int_equal(wg_link_ev_type(&e), (int)type);
		assert_int_equal(wg_link_put_ev(F.dev, &e), 0);
	}
}

/*
 * The board answers with exactly one packet's worth of frames (hand-worked: a
 * frame is a 16-byte header, its records and a 4-byte CRC):
 *   18 DONE     16 + 18 x 16 + 4 = 308
 *    4 MREQ     16 +  4 x 36 + 4 = 164   (no write data: the 36-byte form)
 *    1 REACHED  16 +  1 x 20 + 4 =  40
 *                                  ---
 *                                  512 = one full packet, committed by the FX2 at once;
 * the FPGA's byte count is then a multiple of 512, so PKTEND sends nothing and
 * the posted 16 KB IN transfer holds the packet without ending.
 */
static void board_sends_one_full_packet(void)
{
	board_ev(WGL_T_DONE, 18);
	board_ev(WGL_T_MREQ_ND, 4);
	board_ev(WGL_T_REACHED, 1);
	assert_int_equal(wg_link_flush(F.dev), 0);
}

/* Pump as the board target's run() does while it waits for events, until the REACHED or the guard. */
static void host_waits_for_reached(struct host *h)
{
	uint64_t t0 = wg_board_now_us();

	while (!h->reached && wg_board_now_us() - t0 < GUARD_US)
		assert_int_equal(wg_usb_pump(h->u, -1), 0);
}

static void frames_in_a_pending_in_transfer_are_acknowledged_while_the_host_waits(void **state)
{
	struct host *h = *state;
	struct wg_link_stats ds;
	struct wg_usb_stats us;

	board_sends_one_full_packet();
	host_waits_for_reached(h);
	/* The scenario was the one described: 512 bytes, no short packet from the FPGA. */
	assert_int_equal(F.dev_bytes, 512);
	assert_int_equal(F.short_pkts, 0);
	/* The host asked, and the zero-length packet ended the transfer: 23 records in order. */
	assert_true(F.in_commits >= 1);
	assert_true(F.zlps >= 1);
	assert_int_equal(h->reached, 1);
	assert_int_equal(h->recs, 18 + 4 + 1);
	for (uint32_t i = 0; i < 18; i++)
		assert_int_equal(h->linear[i], i);
	/* Their ACK went out: the board holds nothing unacknowledged, and sent nothing twice. */
	for (int i = 0; i < 100; i++)
		assert_int_equal(wg_usb_pump(h->u, 0), 0);
	wg_link_stats(F.dev, &ds);
	assert_int_equal(ds.in_flight, 0);
	assert_int_equal(ds.tx_frames, 3);
	assert_int_equal(ds.tx_retx, 0);
	assert_int_equal(ds.timeouts, 0);
	assert_true(wg_link_idle(F.dev));
	wg_usb_stats(h->u, &us);
	assert_int_equal(us.in_commits - F.base_commits, F.in_commits);
}

/* Without IN_COMMIT the same frames stay in the transfer: the stall the rule removes. */
static void without_in_commit_whole_packets_wait_in_the_transfer(void **state)
{
	struct host *h = *state;
	struct wg_link_stats ds;
	uint64_t t0 = wg_board_now_us();

	board_sends_one_full_packet();
	while (wg_board_now_us() - t0 < 50000)
		assert_int_equal(wg_usb_pump(h->u, -1), 0);
	assert_int_equal(F.in_commits, 0);
	assert_int_equal(h->recs, 0);
	wg_link_stats(F.dev, &ds);
	assert_int_equal(ds.in_flight, 3); /* the board still waits for their ACK */
	/* One more byte and a PKTEND would end it: here, a REACHED of 40 bytes, a short packet. */
	board_ev(WGL_T_REACHED, 1);
	assert_int_equal(wg_link_flush(F.dev), 0);
	while (h->reached < 2 && wg_board_now_us() - t0 < GUARD_US)
		assert_int_equal(wg_usb_pump(h->u, -1), 0);
	assert_int_equal(h->recs, 18 + 4 + 2);
}

/* A host that does not wait (pump with 0, as between commands) sends no IN_COMMIT. */
static void a_host_that_does_not_wait_sends_no_in_commit(void **state)
{
	struct host *h = *state;
	uint64_t t0 = wg_board_now_us();

	while (wg_board_now_us() - t0 < 20000)
		assert_int_equal(wg_usb_pump(h->u, 0), 0);
	assert_int_equal(F.in_commits, 0);
}

/*
 * Nothing to come: each IN_COMMIT ends a transfer empty (a zero-length packet),
 * the transfer is posted again, and the interval doubles: with commit_us 1000
 * the requests go at about 1, 3, 7, 15, 31 and 63 ms of a 100 ms wait (at most
 * 7, never one per pump). A frame sent afterwards arrives as before.
 */
static void in_commits_back_off_and_empty_transfers_lose_nothing(void **state)
{
	struct host *h = *state;
	struct wg_usb_stats us;
	uint64_t t0 = wg_board_now_us();

	while (wg_board_now_us() - t0 < 100000)
		assert_int_equal(wg_usb_pump(h->u, -1), 0);
	wg_usb_stats(h->u, &us);
	assert_true(F.in_commits >= 1);
	assert_true(F.in_commits <= 7);
	assert_int_equal(us.in_commits - F.base_commits, F.in_commits);
	assert_int_equal(us.in_empty - F.base_empty, F.zlps);
	assert_int_equal(h->recs, 0);
	board_ev(WGL_T_REACHED, 1);
	assert_int_equal(wg_link_flush(F.dev), 0);
	host_waits_for_reached(h);
	assert_int_equal(h->recs, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate_setup_teardown(
			frames_in_a_pending_in_transfer_are_acknowledged_while_the_host_waits, setup, teardown, NULL),
		cmocka_unit_test_prestate_setup_teardown(without_in_commit_whole_packets_wait_in_the_transfer, setup,
		                                         teardown, (void *)(uintptr_t)WG_USB_COMMIT_OFF),
		cmocka_unit_test_prestate_setup_teardown(a_host_that_does_not_wait_sends_no_in_commit, setup, teardown,
		                                         NULL),
		cmocka_unit_test_prestate_setup_teardown(in_commits_back_off_and_empty_transfers_lose_nothing, setup,
		                                         teardown, (void *)(uintptr_t)1000),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
