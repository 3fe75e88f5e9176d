/*
 * fx2-emu: the board on USB, emulated in user space (docs/usb.md section 4).
 *
 *   umockdev-wrapper build/usb/fx2-emu [options] -- PROGRAM [ARGS...]
 *
 * A umockdev testbed presents a USB device to PROGRAM (started here with the
 * testbed's environment, so that its libusb sees the emulated sysfs and
 * /dev/bus/usb): first a bare FX2 (04b4:8613) whose EZ-USB loader takes the
 * firmware through vendor request 0xA0; once CPUCS starts the 8051 the image
 * is checked against the firmware file, the device disconnects and comes back
 * 500 ms later as the bridge (1209:0001) with the descriptors of the loaded
 * image (its block at 0x3E00), answering the vendor requests of docs/fx2.md
 * section 4. usbfs ioctls (control and bulk URBs) are served by a
 * UMockdevIoctlBase handler: bulk OUT URBs on EP2 become 512-byte packets in
 * the FX2 model's EP2 FIFO, committed EP6 packets fill bulk IN URBs, and the
 * model's FIFO pins drive the Verilated board top (sim/wgtop.h: bridge, link
 * engine, GPU), one IFCLK cycle at a time.
 *
 * While the board core only waits for the host (the top's wait_o: nothing runs
 * but the link engine's retransmission and NAK timers) the emulator sleeps like
 * an idle board, for at most --rto-ms of wall-clock time; only if the host says
 * nothing in that time does it run the top until the engine's timer acts.
 *
 * --jtag-port=N serves OpenOCD's remote_bitbang protocol on 127.0.0.1:N (0: a
 * free port, written to --jtag-port-file) from a thread of its own: each pin
 * write sets the top's JTAG pins and runs JTAG_CYCLES IFCLK cycles (TCK at
 * IFCLK / (2 JTAG_CYCLES)), while the link runs as usual (docs/usb.md 3).
 *
 * Exit status: PROGRAM's, or 1 when the emulation failed (a firmware image that
 * differs, a protocol violation on the FIFO pins, a bad remote_bitbang request),
 * 2 for bad arguments.
 */
#include <linux/ioctl.h>
#include <linux/usbdevice_fs.h>
#include <sys/ioctl.h>

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <umockdev.h>
#include <unistd.h>

#include "fx2_model.h"
#include "remote_bitbang.h"
#include "wg_link_proto.h"
#include "wg_usb_proto.h"
#include "wgtop.h"

#define RAM_BYTES WGU_FX2_RAM_BYTES
#define DSCR_ADDR 0x3E00u
#define RENUM_MS 500u       /* the firmware's DISCON time (docs/fx2.md section 1) */
#define BURST_CYCLES 1024u  /* IFCLK cycles run with the lock held */
#define REAP_WAIT_US 500    /* a reap that finds nothing waits this long for a completion */
#define JTAG_CYCLES 2u      /* IFCLK cycles per JTAG pin write: TCK = IFCLK / 4 */

enum stage { BARE, GONE, BRIDGE };

struct urb {
	UMockdevIoctlData *ud; /* the client's struct usbdevfs_urb, resolved */
	UMockdevIoctlData *buf;
	struct usbdevfs_urb *u;
	int off;               /* bytes moved so far */
	struct urb *next;
};

struct emu {
	GMutex mu;           /* everything but the completed URBs */
	GCond cv;            /* a URB arrived (the FPGA's loop waits on it when idle) */
	GMutex dmu;          /* the completed URBs (E.done): reaps do not wait for the FPGA's loop */
	GCond dcv;
	UMockdevTestbed *tb;
	UMockdevIoctlBase *handler;
	enum stage stage;
	int devnum;
	char devnode[64];
	gint64 renum_at;     /* when the bridge appears (monotonic us), 0: not pending */
	/* the 8051's RAM as the loader wrote it */
	uint8_t ram[RAM_BYTES], written[RAM_BYTES];
	int cpu_reset;       /* CPUCS bit 0 */
	int configured;
	/* the reference image */
	uint8_t ref[RAM_BYTES], ref_used[RAM_BYTES];
	const char *fw_path;
	/* URBs: bulk OUT and IN waiting, completed ones to reap */
	struct urb *outq, *inq, *done, **done_tail;
	/* FX2 and FPGA */
	struct fx2_model m;
	struct wgtop *top;
	gint64 rst_until;    /* FPGA reset pin low until then (monotonic us) */
	int rst_cycles;      /* IFCLK cycles still to run in reset */
	uint32_t out_pkts, in_pkts;
	int failed;
	char why[256];
	/* statistics */
	uint64_t urbs_out, urbs_in, bytes_out, bytes_in, ctrl, reaps, reaps_empty;
	gint64 t_first, t_last; /* first and last bulk byte */
	int verbose;
	gint handler_waiting; /* the handler thread wants the lock: the FPGA's loop lets it in */
	gint gone_now;        /* the device has vanished (reaps answer ENODEV) */
	uint64_t unplug_after; /* tests: disappear after this many IN bytes (0: never) */
	/* the core waiting for the host (wait_o) */
	unsigned rto_ms;       /* sleep this long at most before the engine's timers run */
	gint64 wait_since;     /* monotonic us the current wait began, 0: not waiting */
	int timers_run;        /* the wait expired: the top runs until its timer acts */
	uint64_t waits, wait_expired;
	/* JTAG (remote_bitbang) */
	int jtag_listen, jtag_fd;
	struct rbb_stats jtag_st;
	int jtag_tdo, jtag_trst_n;
};

static struct emu E;

static void vlog(const char *fmt, ...)
{
	va_list ap;

	if (!E.verbose)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "fx2-emu: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	if (E.failed)
		return;
	E.failed = 1;
	va_start(ap, fmt);
	vsnprintf(E.why, sizeof(E.why), fmt, ap);
	va_end(ap);
	fprintf(stderr, "fx2-emu: %s\n", E.why);
}

/* ------------------------------------------------------------------------ */
/* The firmware file (Intel HEX) as the reference the loaded image must match */

static int hexv(const char *s, unsigned k, unsigned *v)
{
	unsigned x = 0;

	for (unsigned i = 0; i < k; i++) {
		int c = s[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 :
		                  c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (d < 0)
			return -1;
		x = x << 4 | (unsigned)d;
	}
	*v = x;
	return 0;
}

static int read_ref(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[600];
	unsigned no = 0;

	if (!f) {
		fprintf(stderr, "fx2-emu: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned len, addr, type, v;

		no++;
		if (line[0] != ':' || hexv(line + 1, 2, &len) || hexv(line + 3, 4, &addr) || hexv(line + 7, 2, &type)) {
			fprintf(stderr, "fx2-emu: %s:%u: not an Intel HEX record\n", path, no);
			fclose(f);
			return -1;
		}
		if (type == 1)
			break;
		for (unsigned i = 0; type == 0 && i < len && addr + i < RAM_BYTES; i++) {
			if (hexv(line + 9 + 2 * i, 2, &v))
				break;
			E.ref[addr + i] = (uint8_t)v;
			E.ref_used[addr + i] = 1;
		}
	}
	fclose(f);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Descriptors                                                               */

static const uint8_t bare_dscr[] = {
	/* device: Cypress's default FX2 (no EEPROM) */
	18, 1, 0x00, 0x02, 0xFF, 0xFF, 0xFF, 64, 0xB4, 0x04, 0x13, 0x86, 0x01, 0xA0, 0, 0, 0, 1,
	/* configuration: one interface, no endpoints used here */
	9, 2, 18, 0, 1, 1, 0, 0x80, 50,
	9, 4, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0,
};

/* The firmware's descriptor of this type and index, from the loaded image's block (docs/fx2.md 2). */
static const uint8_t *img_dscr(unsigned type, unsigned index, unsigned *len)
{
	unsigned a = DSCR_ADDR, seen = 0;

	while (a + 2 <= RAM_BYTES && E.ram[a] >= 2) {
		unsigned l = E.ram[a], t = E.ram[a + 1];

		if (t == 2 || t == 7)
			l = E.ram[a + 2] | (unsigned)E.ram[a + 3] << 8;
		if (a + l > RAM_BYTES)
			break;
		if (t == type && seen++ == index) {
			*len = l;
			return E.ram + a;
		}
		a += l;
	}
	return NULL;
}

/* sysfs "descriptors": the device descriptor followed by the configuration (high speed). */
static char *sysfs_hex(int bridge)
{
	GString *g = g_string_new(NULL);
	const uint8_t *d = bare_dscr, *c = bare_dscr + 18;
	unsigned dl = 18, cl = sizeof(bare_dscr) - 18;

	if (bridge) {
		d = img_dscr(1, 0, &dl);
		c = img_dscr(2, 0, &cl);
	}
	for (unsigned i = 0; d && i < dl; i++)
		g_string_append_printf(g, "%02x", d[i]);
	for (unsigned i = 0; c && i < cl; i++)
		g_string_append_printf(g, "%02x", c[i]);
	return g_string_free(g, FALSE);
}

/* Present the device (bare or bridge) at 001/devnum, with its handler. */
static int plug(int bridge)
{
	GError *err = NULL;
	char *hex = sysfs_hex(bridge), *rec;

	E.devnum++;
	snprintf(E.devnode, sizeof(E.devnode), "/dev/bus/usb/001/%03d", E.devnum);
	if (!umockdev_testbed_attach_ioctl(E.tb, E.devnode, E.handler, &err)) {
		fprintf(stderr, "fx2-emu: attaching the ioctl handler to %s: %s\n", E.devnode, err->message);
		g_free(hex);
		return -1;
	}
	rec = g_strdup_printf("P: /devices/pci0000:00/usb1/1-1\nN: bus/usb/001/%03d\nE: SUBSYSTEM=usb\nE: DRIVER=usb\n"
	                      "E: BUSNUM=001\nE: DEVNUM=%03d\nE: DEVNAME=%s\nE: DEVTYPE=usb_device\n"
	                      "A: bConfigurationValue=%d\\n\nA: busnum=1\\n\nA: devnum=%d\\n\nA: speed=480\\n\n"
	                      "H: descriptors=%s\n",
	                      E.devnum, E.devnum, E.devnode, 1, E.devnum, hex);
	umockdev_testbed_add_from_string(E.tb, rec, &err);
	g_free(rec);
	g_free(hex);
	if (err) {
		fprintf(stderr, "fx2-emu: adding the device: %s\n", err->message);
		return -1;
	}
	vlog("%s plugged in at %s", bridge ? "bridge 1209:0001" : "bare FX2 04b4:8613", E.devnode);
	return 0;
}

static void unplug(void)
{
	umockdev_testbed_remove_device(E.tb, "/sys/devices/pci0000:00/usb1/1-1");
	umockdev_testbed_detach_ioctl(E.tb, E.devnode, NULL);
	vlog("unplugged %s", E.devnode);
}

/* ------------------------------------------------------------------------ */
/* URBs (E.mu held)                                                          */

static void finish(struct urb *r, int status)
{
	if (E.verbose > 2)
		vlog("%.3f ms: ep %02x done, %d bytes", (double)g_get_monotonic_time() / 1000.0, r->u->endpoint, r->off);
	r->u->actual_length = r->off;
	r->u->status = status;
	r->next = NULL;
	g_mutex_lock(&E.dmu);
	*E.done_tail = r;
	E.done_tail = &r->next;
	g_cond_broadcast(&E.dcv);
	g_mutex_unlock(&E.dmu);
}

static void urb_free(struct urb *r)
{
	g_object_unref(r->buf);
	g_object_unref(r->ud);
	g_free(r);
}

/* Every URB still queued completes with status (a disconnect: -ENODEV; data already moved stays). */
static void finish_all(int status)
{
	struct urb **qs[2] = {&E.outq, &E.inq};

	for (int k = 0; k < 2; k++) {
		while (*qs[k]) {
			struct urb *r = *qs[k];

			*qs[k] = r->next;
			finish(r, status);
		}
	}
}

static void queue(struct urb **q, struct urb *r)
{
	while (*q)
		q = &(*q)->next;
	r->next = NULL;
	*q = r;
}

/* USB side of the FX2: OUT URBs into EP2 packets, committed EP6 packets into IN URBs. */
static void move_packets(void)
{
	gint64 now = g_get_monotonic_time();

	while (E.outq && fx2_out_room(&E.m)) {
		struct urb *r = E.outq;
		int k = r->u->buffer_length - r->off;

		if (k > FX2_BUF_BYTES)
			k = FX2_BUF_BYTES;
		if (k > 0) {
			fx2_out_packet(&E.m, (uint8_t *)r->buf->data + r->off, (size_t)k);
			r->off += k;
			E.out_pkts++;
			E.bytes_out += (uint64_t)k;
			if (!E.t_first)
				E.t_first = now;
			E.t_last = now;
		}
		if (r->off == r->u->buffer_length) {
			E.outq = r->next;
			E.urbs_out++;
			finish(r, 0);
		}
	}
	while (E.inq && fx2_in_ready(&E.m)) {
		struct urb *r = E.inq;
		uint8_t pkt[FX2_BUF_BYTES];
		int n;

		if (r->u->buffer_length - r->off < FX2_BUF_BYTES && r->off) {
			E.inq = r->next; /* no room for a whole packet: the transfer ends here */
			E.urbs_in++;
			finish(r, 0);
			continue;
		}
		n = fx2_in_packet(&E.m, pkt);
		if (n > r->u->buffer_length - r->off) {
			fail("an IN packet of %d bytes overflows a %d-byte URB", n, r->u->buffer_length);
			n = r->u->buffer_length - r->off;
		}
		memcpy((uint8_t *)r->buf->data + r->off, pkt, (size_t)n);
		r->off += n;
		E.in_pkts++;
		E.bytes_in += (uint64_t)n;
		if (!E.t_first)
			E.t_first = now;
		E.t_last = now;
		if (n < FX2_BUF_BYTES || r->off == r->u->buffer_length) {
			E.inq = r->next; /* a short packet or a full buffer ends the transfer */
			E.urbs_in++;
			finish(r, 0);
		}
		if (E.unplug_after && E.bytes_in >= E.unplug_after && E.stage == BRIDGE) {
			vlog("unplugging after %llu IN bytes (--unplug-after)", (unsigned long long)E.bytes_in);
			E.stage = GONE;
			g_atomic_int_set(&E.gone_now, 1);
			finish_all(-ENODEV);
			break;
		}
	}
}

/* ------------------------------------------------------------------------ */
/* Control requests                                                          */

static int le16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* The bridge's STATUS reply (docs/fx2.md section 4). */
static void status_reply(uint8_t *s)
{
	gint64 now = g_get_monotonic_time();
	int resetting = E.rst_until > now;
	size_t ob = fx2_out_bytes(&E.m), ib = fx2_in_bytes(&E.m);

	memset(s, 0, WGU_STATUS_BYTES);
	s[WGU_ST_EP2CS] = (uint8_t)((ob ? 0 : 4) | (!fx2_out_room(&E.m) ? 8 : 0) | (E.m.ep2_n & 7) << 4);
	s[WGU_ST_EP6CS] = (uint8_t)((ib ? 0 : 4) | (!fx2_flagb_n(&E.m) ? 8 : 0) | (E.m.ep6_n & 7) << 4);
	s[WGU_ST_EP2FLAGS] = (uint8_t)((!fx2_out_room(&E.m) ? 1 : 0) | (ob ? 0 : 2));
	s[WGU_ST_EP6FLAGS] = (uint8_t)((!fx2_flagb_n(&E.m) ? 1 : 0) | (ib ? 0 : 2));
	s[WGU_ST_EP2BC] = (uint8_t)ob;
	s[WGU_ST_EP2BC + 1] = (uint8_t)(ob >> 8);
	s[WGU_ST_EP6BC] = (uint8_t)ib;
	s[WGU_ST_EP6BC + 1] = (uint8_t)(ib >> 8);
	s[WGU_ST_FLAGS] = (uint8_t)((resetting ? WGU_STF_RESETTING : WGU_STF_RESET_PIN) | WGU_STF_HIGH_SPEED |
	                            (E.configured ? WGU_STF_CONFIGURED : 0));
	s[WGU_ST_CONFIG] = (uint8_t)(E.configured ? WGU_CONFIG_VALUE : 0);
	if (resetting) {
		unsigned ms = (unsigned)((E.rst_until - now + 999) / 1000);

		s[WGU_ST_RESET_MS] = (uint8_t)ms;
		s[WGU_ST_RESET_MS + 1] = (uint8_t)(ms >> 8);
	}
	put32(s + WGU_ST_OUT_PACKETS, E.out_pkts);
	put32(s + WGU_ST_IN_PACKETS, E.in_pkts);
}

/* The image the host loaded against the firmware file: every byte of the file, nothing else. */
static void check_image(void)
{
	unsigned bad = 0, first = 0, n = 0;

	for (unsigned a = 0; a < RAM_BYTES; a++) {
		if (E.ref_used[a])
			n++;
		if (E.ref_used[a] != E.written[a] || (E.ref_used[a] && E.ref[a] != E.ram[a])) {
			if (!bad++)
				first = a;
		}
	}
	if (bad)
		fail("the loaded image differs from %s in %u bytes, the first at 0x%04X", E.fw_path, bad, first);
	else
		vlog("firmware image checked: %u bytes equal to %s", n, E.fw_path);
}

/*
 * One control transfer: setup in s, data stage in d (wLength bytes). Returns the
 * bytes of an IN data stage (or 0), -1 to stall.
 */
static int control(const uint8_t *s, uint8_t *d)
{
	unsigned rt = s[0], rq = s[1], wv = (unsigned)le16(s + 2), wi = (unsigned)le16(s + 4), wl = (unsigned)le16(s + 6);

	E.ctrl++;
	/* The EZ-USB loader is the USB core's: bare or not (docs/fx2.md section 1). */
	if (rq == WGU_RQ_FX2_LOAD && rt == WGU_RT_VENDOR_OUT) {
		if (wv == WGU_FX2_CPUCS && wl == 1) {
			int was = E.cpu_reset;

			E.cpu_reset = d[0] & 1;
			vlog("CPUCS <- %u", d[0]);
			if (was && !E.cpu_reset && E.stage == BARE) {
				check_image();
				E.stage = GONE; /* the firmware disconnects and renumerates */
				E.renum_at = g_get_monotonic_time() + 1000 * RENUM_MS;
			}
			return 0;
		}
		if (wv + wl > RAM_BYTES || !E.cpu_reset)
			return -1;
		memcpy(E.ram + wv, d, wl);
		memset(E.written + wv, 1, wl);
		return 0;
	}
	if (rq == WGU_RQ_FX2_LOAD && rt == WGU_RT_VENDOR_IN) {
		if (wv + wl > RAM_BYTES)
			return -1;
		memcpy(d, E.ram + wv, wl);
		return (int)wl;
	}
	if (rt == 0x80 && rq == 6) { /* GET_DESCRIPTOR */
		unsigned type = wv >> 8, idx = wv & 0xFF, len = 0;
		const uint8_t *p = NULL;

		if (E.stage != BRIDGE) {
			if (type == 1)
				p = bare_dscr, len = 18;
			else if (type == 2 && idx == 0)
				p = bare_dscr + 18, len = sizeof(bare_dscr) - 18;
		} else if (type == 1 || type == 6) {
			p = img_dscr(type, 0, &len);
		} else if ((type == 2 || type == 7) && idx == 0) {
			p = img_dscr(type, 0, &len);
		} else if (type == 3 && idx <= 3) {
			p = img_dscr(3, idx, &len);
		}
		if (!p)
			return -1;
		if (len > wl)
			len = wl;
		memcpy(d, p, len);
		return (int)len;
	}
	if (E.stage != BRIDGE)
		return -1;
	if (rt == 0x00 && rq == 9) { /* SET_CONFIGURATION */
		if (wv > 1)
			return -1;
		E.configured = (int)wv;
		fx2_fifo_reset(&E.m, 1, 1);
		return 0;
	}
	if (rt == 0x80 && rq == 8 && wl >= 1) { /* GET_CONFIGURATION */
		d[0] = (uint8_t)E.configured;
		return 1;
	}
	if (rt == WGU_RT_VENDOR_IN && rq == WGU_RQ_VERSION && wv == 0 && wi == 0 && wl >= 1) {
		uint8_t v[WGU_VERSION_BYTES] = {WGU_MAGIC0, WGU_MAGIC1, WGU_PROTO_VERSION, WGL_VERSION,
		                                WGU_FW_VERSION_MAJOR, WGU_FW_VERSION_MINOR, WGU_BUS_BITS, 0};
		unsigned k = wl < sizeof(v) ? wl : sizeof(v);

		memcpy(d, v, k);
		return (int)k;
	}
	if (rt == WGU_RT_VENDOR_OUT && rq == WGU_RQ_FPGA_RESET && wv >= 1 && wv <= WGU_RESET_MS_MAX && wi <= 1 &&
	    wl == 0) {
		E.rst_until = g_get_monotonic_time() + 1000 * (gint64)wv;
		E.rst_cycles = 8;
		if (wi & WGU_RESET_FIFOS)
			fx2_fifo_reset(&E.m, 1, 1);
		vlog("FPGA reset for %u ms%s", wv, wi ? ", FIFOs emptied" : "");
		return 0;
	}
	if (rt == WGU_RT_VENDOR_IN && rq == WGU_RQ_STATUS && wv == 0 && wi == 0 && wl >= 1) {
		uint8_t st[WGU_STATUS_BYTES];
		unsigned k = wl < sizeof(st) ? wl : sizeof(st);

		status_reply(st);
		memcpy(d, st, k);
		return (int)k;
	}
	if (rt == WGU_RT_VENDOR_OUT && rq == WGU_RQ_FIFO_RESET && wv >= 1 && wv <= 3 && wi == 0 && wl == 0) {
		fx2_fifo_reset(&E.m, wv & WGU_FIFO_OUT, wv & WGU_FIFO_IN);
		return 0;
	}
	if (rt == WGU_RT_VENDOR_OUT && rq == WGU_RQ_IN_COMMIT && wv == 0 && wi == 0 && wl == 0) {
		fx2_in_commit(&E.m);
		return 0;
	}
	return -1;
}

/* ------------------------------------------------------------------------ */
/* usbfs ioctls (the testbed's worker thread)                                */

static void reply(UMockdevIoctlClient *c, long res, int err)
{
	umockdev_ioctl_client_complete(c, res, err);
}

static gboolean on_ioctl(UMockdevIoctlBase *h, UMockdevIoctlClient *c, gpointer user)
{
	gulong req = umockdev_ioctl_client_get_request(c);
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(c);
	const char *node = umockdev_ioctl_client_get_devnode(c);
	int stale;

	(void)h;
	(void)user;
	if (req == USBDEVFS_REAPURB || req == USBDEVFS_REAPURBNDELAY) {
		gint64 until = g_get_monotonic_time() + REAP_WAIT_US;

		g_mutex_lock(&E.dmu);
		E.reaps++;
		/* Nothing done: wait a little for a completion (libusb polls an always-writable socket here). */
		while (!E.done && g_cond_wait_until(&E.dcv, &E.dmu, until))
			;
		if (E.done) {
			struct urb *r = E.done;
			UMockdevIoctlData *p = umockdev_ioctl_data_resolve(arg, 0, sizeof(gpointer), NULL);

			E.done = r->next;
			if (!E.done)
				E.done_tail = &E.done;
			g_mutex_unlock(&E.dmu);
			umockdev_ioctl_data_set_ptr(p, 0, r->ud);
			g_object_unref(p);
			reply(c, 0, 0);
			urb_free(r);
		} else {
			E.reaps_empty++;
			stale = g_atomic_int_get(&E.gone_now) || strcmp(node, E.devnode) != 0;
			g_mutex_unlock(&E.dmu);
			reply(c, -1, stale ? ENODEV : EAGAIN);
		}
		return TRUE;
	}
	g_atomic_int_inc(&E.handler_waiting);
	g_mutex_lock(&E.mu);
	g_atomic_int_dec_and_test(&E.handler_waiting);
	stale = E.stage == GONE || strcmp(node, E.devnode) != 0;
	switch (req) {
	case USBDEVFS_GET_CAPABILITIES: {
		UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, sizeof(guint32), NULL);

		*(guint32 *)(void *)d->data = USBDEVFS_CAP_BULK_CONTINUATION | USBDEVFS_CAP_NO_PACKET_SIZE_LIM |
		                              USBDEVFS_CAP_REAP_AFTER_DISCONNECT | USBDEVFS_CAP_ZERO_PACKET;
		g_object_unref(d);
		reply(c, 0, 0);
		break;
	}
	case USBDEVFS_GETDRIVER:
		reply(c, -1, ENODATA); /* no kernel driver bound */
		break;
	case USBDEVFS_IOCTL: /* the kernel driver (dis)connected around a claim: there is none */
	case USBDEVFS_DISCONNECT_CLAIM:
	case USBDEVFS_CLAIMINTERFACE:
	case USBDEVFS_RELEASEINTERFACE:
	case USBDEVFS_SETINTERFACE:
	case USBDEVFS_CLEAR_HALT:
	case USBDEVFS_RESETEP:
		if (stale)
			reply(c, -1, ENODEV);
		else
			reply(c, 0, 0);
		break;
	case USBDEVFS_SETCONFIGURATION:
		if (stale) {
			reply(c, -1, ENODEV);
		} else {
			UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, sizeof(unsigned), NULL);

			E.configured = *(unsigned *)(void *)d->data == WGU_CONFIG_VALUE;
			g_object_unref(d);
			reply(c, 0, 0);
		}
		break;
	case USBDEVFS_SUBMITURB: {
		struct urb *r;

		if (stale) {
			reply(c, -1, ENODEV);
			break;
		}
		r = g_new0(struct urb, 1);
		r->ud = umockdev_ioctl_data_resolve(arg, 0, sizeof(struct usbdevfs_urb), NULL);
		r->u = (struct usbdevfs_urb *)(void *)r->ud->data;
		r->buf = umockdev_ioctl_data_resolve(r->ud, G_STRUCT_OFFSET(struct usbdevfs_urb, buffer),
		                                     (gsize)r->u->buffer_length, NULL);
		if (r->u->type == USBDEVFS_URB_TYPE_CONTROL && r->u->endpoint == 0 && r->u->buffer_length >= 8) {
			uint8_t *b = r->buf->data;
			int n = control(b, b + 8);

			/* actual_length: the IN data stage's bytes, or all of an OUT data stage */
			r->off = n < 0 ? 0 : (b[0] & 0x80) ? n : le16(b + 6);
			finish(r, n < 0 ? -EPIPE : 0);
			g_cond_broadcast(&E.cv); /* IN_COMMIT or FIFO_RESET: the FPGA's loop looks at the FIFOs again */
		} else if (r->u->type == USBDEVFS_URB_TYPE_BULK && r->u->endpoint == WGU_EP_OUT && E.stage == BRIDGE) {
			if (E.verbose > 2)
				vlog("%.3f ms: OUT %d bytes submitted", (double)g_get_monotonic_time() / 1000.0,
				     r->u->buffer_length);
			queue(&E.outq, r);
			g_cond_broadcast(&E.cv);
		} else if (r->u->type == USBDEVFS_URB_TYPE_BULK && r->u->endpoint == WGU_EP_IN && E.stage == BRIDGE) {
			queue(&E.inq, r);
			g_cond_broadcast(&E.cv);
		} else {
			urb_free(r);
			reply(c, -1, EINVAL);
			break;
		}
		reply(c, 0, 0);
		break;
	}
	case USBDEVFS_DISCARDURB: {
		gulong addr = 0;
		struct urb **qs[2] = {&E.outq, &E.inq};
		int found = 0;

		memcpy(&addr, arg->data, sizeof(addr)); /* the argument is the URB's address itself */
		for (int k = 0; k < 2 && !found; k++) {
			for (struct urb **q = qs[k]; *q; q = &(*q)->next) {
				if ((*q)->ud->client_addr == addr) {
					struct urb *r = *q;

					*q = r->next;
					finish(r, -ENOENT); /* bytes already moved stay in actual_length */
					found = 1;
					break;
				}
			}
		}
		reply(c, found ? 0 : -1, found ? 0 : EINVAL);
		break;
	}
	default:
		vlog("ioctl 0x%lx not emulated", req);
		reply(c, -1, ENOTTY);
		break;
	}
	g_mutex_unlock(&E.mu);
	return TRUE;
}

/* ------------------------------------------------------------------------ */
/* JTAG: OpenOCD's remote_bitbang protocol (a thread of its own)             */

/* The reset pin as the FPGA's loop drives it (E.mu held). */
static int fpga_rst_n(void)
{
	return E.rst_until <= g_get_monotonic_time() && E.stage == BRIDGE;
}

/*
 * The JTAG pins of the top for the remote_bitbang decoder (E.mu held): a pin write, then
 * JTAG_CYCLES IFCLK cycles; TRST from 't' 'u' (SRST is not wired: the FPGA's reset is the
 * FX2's); the sleep requests have nothing to do (the link's time runs anyway).
 */
static void jtag_pins(void *ctx, int tck, int tms, int tdi)
{
	uint64_t ran;

	(void)ctx;
	E.jtag_tdo = wgtop_jtag(E.top, tck, tms, tdi, E.jtag_trst_n);
	wgtop_run_fx2(E.top, &E.m, fpga_rst_n(), JTAG_CYCLES, &ran);
	if (E.m.n.violations)
		fail("FIFO pin protocol violated: %s", E.m.last_violation);
}

static int jtag_tdo(void *ctx)
{
	(void)ctx;
	return E.jtag_tdo > 0;
}

static void jtag_reset(void *ctx, int trst, int srst)
{
	(void)ctx;
	(void)srst;
	E.jtag_trst_n = !trst;
	E.jtag_tdo = wgtop_jtag(E.top, E.jtag_st.last_tck, 1, 0, E.jtag_trst_n);
}

/* Serve one client after another until the program ends; each chunk under E.mu. */
static gpointer jtag_thread(gpointer unused)
{
	const struct rbb_ops ops = {NULL, jtag_pins, jtag_tdo, jtag_reset, NULL};
	char in[4096], out[4096];

	(void)unused;
	for (;;) {
		struct pollfd p = {E.jtag_fd >= 0 ? E.jtag_fd : E.jtag_listen, POLLIN, 0};
		ssize_t n;
		size_t nout = 0;
		int rc, bad = 0;

		if (poll(&p, 1, 200) <= 0)
			continue;
		if (E.jtag_fd < 0) {
			int one = 1, fd = accept(E.jtag_listen, NULL, NULL);

			if (fd >= 0) {
				setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
				E.jtag_fd = fd;
				E.jtag_trst_n = 1;
				vlog("JTAG client connected");
			}
			continue;
		}
		n = read(E.jtag_fd, in, sizeof(in));
		if (n < 0 && errno == EINTR)
			continue;
		rc = 1;
		if (n > 0) {
			g_atomic_int_inc(&E.handler_waiting);
			g_mutex_lock(&E.mu);
			g_atomic_int_dec_and_test(&E.handler_waiting);
			rc = rbb_requests(&ops, &E.jtag_st, in, (size_t)n, out, &nout, &bad);
			if (rc < 0)
				fail("bad remote_bitbang request from the JTAG client: '%c' (0x%02x), not served (JTAG only)",
				     bad >= 0x20 && bad < 0x7f ? bad : '?', bad);
			g_cond_broadcast(&E.cv); /* the FPGA's loop: the top may have work now */
			g_mutex_unlock(&E.mu);
			if (nout && rbb_write_all(E.jtag_fd, out, nout))
				rc = 1;
		}
		if (rc != 0) {
			vlog("JTAG client done (%llu bytes, %llu pin writes, %llu TDO reads)",
			     (unsigned long long)E.jtag_st.bytes, (unsigned long long)E.jtag_st.writes,
			     (unsigned long long)E.jtag_st.reads);
			close(E.jtag_fd);
			E.jtag_fd = -1;
		}
	}
	return NULL;
}

/* Listen on 127.0.0.1:port (0: any free one); the port is written to port_file. */
static int jtag_listen(unsigned port, const char *port_file)
{
	struct sockaddr_in a;
	socklen_t al = sizeof(a);
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 1) ||
	    getsockname(fd, (struct sockaddr *)&a, &al)) {
		fprintf(stderr, "fx2-emu: JTAG port 127.0.0.1:%u: %s\n", port, strerror(errno));
		close(fd);
		return -1;
	}
	fprintf(stderr, "fx2-emu: JTAG remote_bitbang on 127.0.0.1:%u\n", ntohs(a.sin_port));
	if (port_file) {
		FILE *f = fopen(port_file, "w");

		if (!f) {
			fprintf(stderr, "fx2-emu: %s: %s\n", port_file, strerror(errno));
			close(fd);
			return -1;
		}
		fprintf(f, "%u\n", ntohs(a.sin_port));
		fclose(f);
	}
	E.jtag_listen = fd;
	E.jtag_fd = -1;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Main: the testbed, the program, the FPGA's clock                           */

static pid_t child;
static volatile sig_atomic_t child_done;

static void on_chld(int sig)
{
	(void)sig;
	child_done = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: umockdev-wrapper fx2-emu [--firmware=IHX] [--unplug-after=BYTES] [--stats=FILE] "
	                "[--rto-ms=N] [--jtag-port=N [--jtag-port-file=FILE]] [-v [-v [-v]]] -- PROGRAM [ARGS...]\n");
}

int main(int argc, char **argv)
{
	const char *stats_path = NULL, *jtag_port_file = NULL;
	long jtag_port = -1;
	struct wgtop_counts tc;
	struct sigaction sa;
	int i, st = 0, rc;
	gint64 t0, t_report = 0;
	uint64_t cycles_run = 0;
	FILE *sf;

	E.fw_path = "firmware/build/warpgate-fx2.ihx";
	E.rto_ms = 1000;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--firmware=", 11))
			E.fw_path = argv[i] + 11;
		else if (!strncmp(argv[i], "--unplug-after=", 15))
			E.unplug_after = strtoull(argv[i] + 15, NULL, 0);
		else if (!strncmp(argv[i], "--stats=", 8))
			stats_path = argv[i] + 8;
		else if (!strncmp(argv[i], "--rto-ms=", 9))
			E.rto_ms = (unsigned)strtoul(argv[i] + 9, NULL, 0);
		else if (!strncmp(argv[i], "--jtag-port=", 12))
			jtag_port = strtol(argv[i] + 12, NULL, 0);
		else if (!strncmp(argv[i], "--jtag-port-file=", 17))
			jtag_port_file = argv[i] + 17;
		else if (!strcmp(argv[i], "-v"))
			E.verbose++;
		else {
			usage();
			return 2;
		}
	}
	if (i + 1 >= argc || jtag_port > 65535 || (jtag_port_file && jtag_port < 0)) {
		usage();
		return 2;
	}
	if (!getenv("LD_PRELOAD") || !strstr(getenv("LD_PRELOAD"), "umockdev")) {
		fprintf(stderr, "fx2-emu: run under umockdev-wrapper (libumockdev-preload is not loaded)\n");
		return 2;
	}
	if (read_ref(E.fw_path))
		return 2;
	g_mutex_init(&E.mu);
	g_cond_init(&E.cv);
	g_mutex_init(&E.dmu);
	g_cond_init(&E.dcv);
	E.done_tail = &E.done;
	fx2_init(&E.m, WGU_BULK_PACKET_HS);
	if (wgtop_create(&E.top, NULL)) {
		fprintf(stderr, "fx2-emu: cannot create the board top model\n");
		return 1;
	}
	wgtop_stop_on_wait(E.top, 1);
	E.jtag_trst_n = 1;
	if (jtag_port >= 0) {
		if (jtag_listen((unsigned)jtag_port, jtag_port_file))
			return 1;
		g_thread_unref(g_thread_new("jtag", jtag_thread, NULL));
	}
	E.tb = umockdev_testbed_new();
	E.handler = umockdev_ioctl_base_new();
	g_signal_connect(E.handler, "handle-ioctl", G_CALLBACK(on_ioctl), NULL);
	E.stage = BARE;
	if (plug(0))
		return 1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	sigaction(SIGCHLD, &sa, NULL);
	child = fork();
	if (child < 0) {
		perror("fx2-emu: fork");
		return 1;
	}
	if (!child) {
		execvp(argv[i + 1], argv + i + 1);
		fprintf(stderr, "fx2-emu: %s: %s\n", argv[i + 1], strerror(errno));
		_exit(127);
	}

	t0 = g_get_monotonic_time();
	g_mutex_lock(&E.mu);
	while (!child_done) {
		gint64 now = g_get_monotonic_time();
		uint64_t ran = 0;
		int idle, rst_n;

		if (E.renum_at && now >= E.renum_at) {
			E.renum_at = 0;
			g_mutex_unlock(&E.mu);
			unplug();
			rc = plug(1);
			g_mutex_lock(&E.mu);
			if (rc)
				break;
			E.stage = BRIDGE;
			E.configured = 1; /* the kernel's USB core sets configuration 1 after enumeration */
			continue;
		}
		if (E.stage == GONE && E.unplug_after && !E.renum_at) {
			g_mutex_unlock(&E.mu);
			unplug();
			g_mutex_lock(&E.mu);
			E.unplug_after = 0;
			continue;
		}
		move_packets();
		if (E.verbose > 1 && now - t_report > 1000000) {
			struct wgtop_counts c;
			int nq[3] = {0, 0, 0};

			for (struct urb *r = E.outq; r; r = r->next)
				nq[0]++;
			for (struct urb *r = E.inq; r; r = r->next)
				nq[1]++;
			for (struct urb *r = E.done; r; r = r->next)
				nq[2]++;
			wgtop_counts(E.top, &c);
			t_report = now;
			vlog("%llu cycles: EP2 %zu bytes, EP6 %zu bytes (%d committed), URBs out %d in %d done %d, "
			     "leds 0x%x, idle %d", (unsigned long long)c.cycles, fx2_out_bytes(&E.m), fx2_in_bytes(&E.m),
			     fx2_in_ready(&E.m), nq[0], nq[1], nq[2], wgtop_leds(E.top), wgtop_idle(E.top));
		}
		rst_n = E.rst_until <= now && E.stage == BRIDGE;
		if (!rst_n && E.rst_cycles <= 0) {
			/* held in reset: nothing moves until the pin rises */
			g_cond_wait_until(&E.cv, &E.mu, E.rst_until > now ? E.rst_until : now + 10000);
			continue;
		}
		idle = wgtop_run_fx2(E.top, &E.m, rst_n, BURST_CYCLES, &ran);
		cycles_run += ran;
		if (!rst_n)
			E.rst_cycles -= (int)ran;
		if (E.m.n.violations)
			fail("FIFO pin protocol violated: %s", E.m.last_violation);
		move_packets();
		/* Idle only if the packets just moved gave the FPGA nothing new to do. */
		int quiet = !E.outq && !fx2_out_bytes(&E.m) && !(E.inq && fx2_in_ready(&E.m));
		if (E.timers_run && !wgtop_waiting(E.top)) {
			E.timers_run = 0; /* the engine's timer acted (or bytes came): wait for the host again */
			wgtop_stop_on_wait(E.top, 1);
		}
		if (idle != 2 || !quiet)
			E.wait_since = 0;
		if (idle == 1 && quiet) {
			g_cond_wait_until(&E.cv, &E.mu, g_get_monotonic_time() + 1000);
		} else if (idle == 2 && quiet) {
			/* The core waits for the host: sleep until a URB comes, at most rto_ms in all. */
			gint64 t = g_get_monotonic_time();

			if (!E.wait_since) {
				E.wait_since = t;
				E.waits++;
			}
			if (t - E.wait_since >= 1000 * (gint64)E.rto_ms) {
				vlog("the host said nothing for %u ms: the link engine's timers run", E.rto_ms);
				E.wait_expired++;
				E.wait_since = 0;
				E.timers_run = 1;
				wgtop_stop_on_wait(E.top, 0);
			} else {
				g_cond_wait_until(&E.cv, &E.mu, E.wait_since + 1000 * (gint64)E.rto_ms);
			}
		} else if (g_atomic_int_get(&E.handler_waiting)) {
			/* a mutex is not fair: let the waiting ioctl in before the next burst */
			g_mutex_unlock(&E.mu);
			while (g_atomic_int_get(&E.handler_waiting))
				g_thread_yield();
			g_mutex_lock(&E.mu);
		}
	}
	g_mutex_unlock(&E.mu);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	wgtop_counts(E.top, &tc);
	{
		double wall = (double)(g_get_monotonic_time() - t0) / 1e6;
		double busy = E.t_last > E.t_first ? (double)(E.t_last - E.t_first) / 1e6 : 0;

		vlog("%.2f s: %llu IFCLK cycles (%llu skipped), OUT %llu URBs %llu bytes, IN %llu URBs %llu bytes, "
		     "%llu control, %llu reaps (%llu empty)",
		     wall, (unsigned long long)tc.cycles, (unsigned long long)tc.skipped,
		     (unsigned long long)E.urbs_out, (unsigned long long)E.bytes_out, (unsigned long long)E.urbs_in,
		     (unsigned long long)E.bytes_in, (unsigned long long)E.ctrl, (unsigned long long)E.reaps,
		     (unsigned long long)E.reaps_empty);
		if (stats_path && (sf = fopen(stats_path, "w"))) {
			fprintf(sf, "{\"wall_seconds\": %.6f, \"busy_seconds\": %.6f, \"ifclk_cycles\": %llu, "
			        "\"skipped_cycles\": %llu, \"out_urbs\": %llu, \"out_bytes\": %llu, \"out_packets\": %u, "
			        "\"in_urbs\": %llu, \"in_bytes\": %llu, \"in_packets\": %u, \"short_packets\": %llu, "
			        "\"zero_length_packets\": %llu, \"control\": %llu, \"reaps\": %llu, \"reaps_empty\": %llu, "
			        "\"violations\": %llu, \"waits\": %llu, \"waits_expired\": %llu, \"jtag_pin_writes\": %llu, "
			        "\"jtag_tck_cycles\": %llu, \"jtag_tdo_reads\": %llu}\n",
			        wall, busy, (unsigned long long)tc.cycles, (unsigned long long)tc.skipped,
			        (unsigned long long)E.urbs_out, (unsigned long long)E.bytes_out, E.out_pkts,
			        (unsigned long long)E.urbs_in, (unsigned long long)E.bytes_in, E.in_pkts,
			        (unsigned long long)E.m.n.pktends, (unsigned long long)E.m.n.zlps, (unsigned long long)E.ctrl,
			        (unsigned long long)E.reaps, (unsigned long long)E.reaps_empty,
			        (unsigned long long)E.m.n.violations, (unsigned long long)E.waits,
			        (unsigned long long)E.wait_expired, (unsigned long long)E.jtag_st.writes,
			        (unsigned long long)E.jtag_st.tck_rises, (unsigned long long)E.jtag_st.reads);
			fclose(sf);
		}
	}
	(void)cycles_run;
	wgtop_destroy(E.top);
	g_object_unref(E.handler);
	g_object_unref(E.tb);
	if (E.failed)
		return 1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	fprintf(stderr, "fx2-emu: %s killed by signal %d\n", argv[i + 1], WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return 1;
}
