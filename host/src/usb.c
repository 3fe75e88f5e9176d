/*
 * The USB transport over libusb-1.0 (usb.h, docs/usb.md): the FX2LP bridge's
 * bulk endpoints carry the framed link's bytes, several asynchronous transfers
 * in flight each way; the firmware is loaded into a bare FX2 first when needed.
 */
#include "usb.h"

#include <errno.h>
#include <libusb.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "target_board.h"
#include "warpgate.h"
#include "wg_link_proto.h"
#include "wg_usb_proto.h"

#define MAX_TRANSFERS 64
#define CTRL_TIMEOUT_MS 1000
#define FW_NAME "warpgate-fx2.ihx"

/* ------------------------------------------------------------------------ */
/* Errors: every libusb code is translated here and only here               */

int wg_usb_error(int lrc, const char *what, char *msg, size_t n)
{
	int rc;

	switch (lrc) {
	case LIBUSB_SUCCESS:
		return 0;
	case LIBUSB_ERROR_TIMEOUT:
		rc = WG_ETIMEOUT;
		break;
	case LIBUSB_ERROR_NO_MEM:
		rc = WG_ENOMEM;
		break;
	case LIBUSB_ERROR_INVALID_PARAM:
		rc = WG_EINVAL;
		break;
	case LIBUSB_ERROR_NOT_FOUND:
		rc = WG_ENOENT;
		break;
	case LIBUSB_ERROR_NOT_SUPPORTED:
		rc = WG_ENOTSUP;
		break;
	case LIBUSB_ERROR_NO_DEVICE:
	case LIBUSB_ERROR_ACCESS:
	case LIBUSB_ERROR_BUSY:
	case LIBUSB_ERROR_PIPE:
	case LIBUSB_ERROR_OVERFLOW:
	case LIBUSB_ERROR_INTERRUPTED:
	case LIBUSB_ERROR_IO:
	default:
		rc = WG_EIO;
		break;
	}
	if (msg && n) {
		const char *hint = "";

		if (lrc == LIBUSB_ERROR_NO_DEVICE)
			hint = ": the USB device disappeared (unplugged, reset or re-enumerated)";
		else if (lrc == LIBUSB_ERROR_ACCESS)
			hint = ": no permission for the device (a udev rule granting access to 1209:0001 and 04b4:8613)";
		else if (lrc == LIBUSB_ERROR_BUSY)
			hint = ": the interface is claimed by another program";
		snprintf(msg, n, "%s: %s (%s)%s", what, libusb_strerror((enum libusb_error)lrc), libusb_error_name(lrc),
		         hint);
	}
	return rc;
}

/* A transfer's completion status as the libusb error it stands for. */
static int status_error(enum libusb_transfer_status s)
{
	switch (s) {
	case LIBUSB_TRANSFER_COMPLETED:
		return LIBUSB_SUCCESS;
	case LIBUSB_TRANSFER_TIMED_OUT:
		return LIBUSB_ERROR_TIMEOUT;
	case LIBUSB_TRANSFER_STALL:
		return LIBUSB_ERROR_PIPE;
	case LIBUSB_TRANSFER_NO_DEVICE:
		return LIBUSB_ERROR_NO_DEVICE;
	case LIBUSB_TRANSFER_OVERFLOW:
		return LIBUSB_ERROR_OVERFLOW;
	case LIBUSB_TRANSFER_CANCELLED:
		return LIBUSB_ERROR_INTERRUPTED;
	case LIBUSB_TRANSFER_ERROR:
	default:
		return LIBUSB_ERROR_IO;
	}
}

/* ------------------------------------------------------------------------ */
/* The firmware image                                                        */

static int hexval(const char *s, unsigned k, unsigned *v)
{
	unsigned x = 0;

	for (unsigned i = 0; i < k; i++) {
		char c = s[i];

		x <<= 4;
		if (c >= '0' && c <= '9')
			x |= (unsigned)(c - '0');
		else if (c >= 'A' && c <= 'F')
			x |= (unsigned)(c - 'A' + 10);
		else if (c >= 'a' && c <= 'f')
			x |= (unsigned)(c - 'a' + 10);
		else
			return -1;
	}
	*v = x;
	return 0;
}

int wg_usb_read_ihx(const char *path, uint8_t *ram, uint8_t *used, char *msg, size_t n)
{
	FILE *f = fopen(path, "r");
	char line[600];
	unsigned lineno = 0;
	int end = 0, rc = 0;

	if (!f) {
		snprintf(msg, n, "%s: %s", path, strerror(errno));
		return errno == ENOENT ? WG_ENOENT : WG_EIO;
	}
	memset(ram, 0, WGU_FX2_RAM_BYTES);
	memset(used, 0, WGU_FX2_RAM_BYTES);
	while (!end && fgets(line, sizeof(line), f)) {
		unsigned len, addr, type, v, sum = 0;
		size_t l = strcspn(line, "\r\n");

		lineno++;
		line[l] = '\0';
		if (l == 0)
			continue;
		if (line[0] != ':' || l < 11 || hexval(line + 1, 2, &len) || l != 11 + 2 * (size_t)len ||
		    hexval(line + 3, 4, &addr) || hexval(line + 7, 2, &type)) {
			snprintf(msg, n, "%s:%u: not an Intel HEX record", path, lineno);
			rc = WG_EFORMAT;
			break;
		}
		for (size_t i = 1; i + 1 < l; i += 2) {
			if (hexval(line + i, 2, &v)) {
				snprintf(msg, n, "%s:%u: bad hex digit at column %zu", path, lineno, i + 1);
				rc = WG_EFORMAT;
				goto done;
			}
			sum += v;
		}
		if (sum & 0xFF) {
			snprintf(msg, n, "%s:%u: checksum mismatch", path, lineno);
			rc = WG_EFORMAT;
			break;
		}
		if (type == 1) {
			end = 1;
		} else if (type == 0) {
			if (addr + len > WGU_FX2_RAM_BYTES) {
				snprintf(msg, n, "%s:%u: data at 0x%04X..0x%04X lies outside the FX2's %u bytes of RAM", path,
				         lineno, addr, addr + len - 1, WGU_FX2_RAM_BYTES);
				rc = WG_EFORMAT;
				break;
			}
			for (unsigned i = 0; i < len; i++) {
				hexval(line + 9 + 2 * i, 2, &v);
				ram[addr + i] = (uint8_t)v;
				used[addr + i] = 1;
			}
		} else {
			snprintf(msg, n, "%s:%u: record type %u (only data and end-of-file records are loaded)", path,
			         lineno, type);
			rc = WG_EFORMAT;
			break;
		}
	}
	if (!rc && !end) {
		snprintf(msg, n, "%s:%u: no end-of-file record", path, lineno);
		rc = WG_EFORMAT;
	}
done:
	fclose(f);
	return rc;
}

static int readable(const char *p)
{
	return access(p, R_OK) == 0;
}

/* The image: the parameter, WG_FX2_FIRMWARE, then firmware/build/ next to the program's build tree. */
static int find_firmware(const char *given, char *out, size_t n, char *msg, size_t mn)
{
	const char *env = getenv("WG_FX2_FIRMWARE");
	char self[PATH_MAX - 64], tried[1024] = "";
	ssize_t k;

	if (given && *given) {
		snprintf(out, n, "%s", given);
		return 0;
	}
	if (env && *env) {
		snprintf(out, n, "%s", env);
		return 0;
	}
	k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (k > 0) {
		static const char *const rel[] = {"/../firmware/build/", "/../../firmware/build/",
		                                  "/../share/warpgate/"};
		char *slash;

		self[k] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			snprintf(out, n, "%s%s%s", self, rel[i], FW_NAME);
			if (readable(out))
				return 0;
			if (strlen(tried) + strlen(out) + 3 < sizeof(tried))
				snprintf(tried + strlen(tried), sizeof(tried) - strlen(tried), "%s%s", tried[0] ? ", " : "",
				         out);
		}
	}
	snprintf(out, n, "firmware/build/%s", FW_NAME);
	if (readable(out))
		return 0;
	snprintf(msg, mn, "the FX2 firmware (%s) was not found (tried %s, %s; make firmware, or the option "
	         "firmware=PATH or WG_FX2_FIRMWARE)", FW_NAME, tried, out);
	return WG_ENOENT;
}

static int cpucs(libusb_device_handle *h, uint8_t v, char *msg, size_t n)
{
	int r = libusb_control_transfer(h, WGU_RT_VENDOR_OUT, WGU_RQ_FX2_LOAD, WGU_FX2_CPUCS, 0, &v, 1,
	                                CTRL_TIMEOUT_MS);

	if (r == 1)
		return 0;
	return wg_usb_error(r < 0 ? r : LIBUSB_ERROR_IO, v ? "FX2 loader: holding the 8051 in reset (CPUCS)" :
	                                                     "FX2 loader: starting the 8051 (CPUCS)", msg, n);
}

/* EZ-USB loader: CPUCS = 1, the image in pieces of WGU_FX2_LOAD_CHUNK, CPUCS = 0 (docs/fx2.md section 1). */
static int load_firmware(libusb_device_handle *h, const char *path, char *msg, size_t n)
{
	static uint8_t ram[WGU_FX2_RAM_BYTES], used[WGU_FX2_RAM_BYTES];
	unsigned a = 0, bytes = 0;
	int rc = wg_usb_read_ihx(path, ram, used, msg, n);

	if (rc)
		return rc;
	rc = cpucs(h, 1, msg, n);
	while (!rc && a < WGU_FX2_RAM_BYTES) {
		unsigned e;
		int r;

		if (!used[a]) {
			a++;
			continue;
		}
		for (e = a; e < WGU_FX2_RAM_BYTES && used[e] && e - a < WGU_FX2_LOAD_CHUNK; e++)
			;
		r = libusb_control_transfer(h, WGU_RT_VENDOR_OUT, WGU_RQ_FX2_LOAD, (uint16_t)a, 0, ram + a,
		                            (uint16_t)(e - a), CTRL_TIMEOUT_MS);
		if (r != (int)(e - a)) {
			char what[96];

			snprintf(what, sizeof(what), "FX2 loader: writing 0x%04X..0x%04X", a, e - 1);
			rc = wg_usb_error(r < 0 ? r : LIBUSB_ERROR_IO, what, msg, n);
		}
		bytes += e - a;
		a = e;
	}
	if (!rc)
		rc = cpucs(h, 0, msg, n);
	if (!rc)
		wg_info("usb: loaded %u bytes of %s into the FX2", bytes, path);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* Finding the bridge                                                        */

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* 1: dev is the bridge (VID:PID and product string); opened into *h. */
static int open_bridge(libusb_device *dev, libusb_device_handle **h)
{
	struct libusb_device_descriptor d;
	unsigned char prod[64];
	int r;

	if (libusb_get_device_descriptor(dev, &d) || d.idVendor != WGU_VID || d.idProduct != WGU_PID)
		return 0;
	if (libusb_open(dev, h))
		return 0;
	r = libusb_get_string_descriptor_ascii(*h, d.iProduct, prod, sizeof(prod));
	if (r < 0 || strncmp((const char *)prod, WGU_STR_PRODUCT, (size_t)r) || (size_t)r != strlen(WGU_STR_PRODUCT)) {
		libusb_close(*h);
		*h = NULL;
		return 0;
	}
	return 1;
}

/* Look once: the bridge (returns 1, *h open), a bare FX2 (returns 2, *bare open), nothing (0). */
static int scan(libusb_context *ctx, libusb_device_handle **h, libusb_device_handle **bare, char *msg, size_t n)
{
	libusb_device **list;
	ssize_t k = libusb_get_device_list(ctx, &list);
	int found = 0;

	if (k < 0)
		return wg_usb_error((int)k, "listing USB devices", msg, n);
	for (ssize_t i = 0; i < k && found != 1; i++) {
		struct libusb_device_descriptor d;

		if (open_bridge(list[i], h)) {
			found = 1;
		} else if (bare && !*bare && !libusb_get_device_descriptor(list[i], &d) &&
		           d.idVendor == WGU_FX2_BARE_VID && d.idProduct == WGU_FX2_BARE_PID &&
		           !libusb_open(list[i], bare)) {
			found = 2;
		}
	}
	libusb_free_device_list(list, 1);
	if (found == 1 && bare && *bare) {
		libusb_close(*bare);
		*bare = NULL;
	}
	return found;
}

/* ------------------------------------------------------------------------ */
/* The transport                                                             */

struct xfer {
	struct libusb_transfer *t;
	struct wg_usb *u;
	int busy;
};

struct wg_usb {
	libusb_context *ctx;
	libusb_device_handle *h;
	struct wg_link *link;
	struct wg_usb_params p;
	struct xfer out[MAX_TRANSFERS], in[MAX_TRANSFERS];
	unsigned out_busy, in_busy;
	uint8_t *ob; /* bytes taken from the link, not yet in a transfer: ob[ohead, olen) */
	size_t ocap, olen, ohead;
	/* IN_COMMIT (wg_usb_pump): one asynchronous control transfer at a time */
	struct libusb_transfer *ctl;
	int ctl_busy;
	uint64_t t_quiet;     /* the last IN bytes, OUT transfer or IN_COMMIT */
	uint64_t commit_wait; /* from t_quiet to the next IN_COMMIT */
	int fail, gone, closing, claimed;
	wg_link_rec_fn user_rec;
	wg_link_report_fn user_report;
	void *user_arg;
	char why[320], last[256];
	struct wg_usb_stats st;
};

static int usb_fail(struct wg_usb *u, int lrc, const char *what)
{
	if (!u->fail) {
		u->fail = wg_usb_error(lrc, what, u->why, sizeof(u->why));
		if (lrc == LIBUSB_ERROR_NO_DEVICE)
			u->gone = 1;
	}
	return u->fail;
}

static int link_fail(struct wg_usb *u)
{
	if (!u->fail) {
		u->fail = WG_ELINK;
		snprintf(u->why, sizeof(u->why), "%s", u->last[0] ? u->last : "the link failed");
	}
	return u->fail;
}

static int usb_rec(void *arg, const struct wg_link_rec *r)
{
	struct wg_usb *u = arg;

	return u->user_rec ? u->user_rec(u->user_arg, r) : 0;
}

/* Keeps the last report: a link failure names it. */
static void usb_report(void *arg, const struct wg_link_report *r)
{
	struct wg_usb *u = arg;

	wg_link_report_format(r, u->last, sizeof(u->last));
	if (u->user_report)
		u->user_report(u->user_arg, r);
}

static void LIBUSB_CALL in_done(struct libusb_transfer *t);
static void LIBUSB_CALL out_done(struct libusb_transfer *t);

/* Bytes moved either way: the next IN_COMMIT is commit_us away again. */
static void io_moved(struct wg_usb *u)
{
	u->t_quiet = wg_board_now_us();
	u->commit_wait = u->p.commit_us;
}

static int submit_in(struct wg_usb *u, struct xfer *x)
{
	int r;

	libusb_fill_bulk_transfer(x->t, u->h, WGU_EP_IN, x->t->buffer, (int)u->p.transfer_bytes, in_done, x, 0);
	r = libusb_submit_transfer(x->t);
	if (r)
		return usb_fail(u, r, "bulk IN (EP6): submitting a transfer");
	x->busy = 1;
	u->in_busy++;
	return 0;
}

static void LIBUSB_CALL in_done(struct libusb_transfer *t)
{
	struct xfer *x = t->user_data;
	struct wg_usb *u = x->u;

	x->busy = 0;
	u->in_busy--;
	/* What arrived goes to the link first, also with an error status: nothing received is lost. */
	if (t->actual_length > 0) {
		io_moved(u);
		u->st.in_bytes += (uint64_t)t->actual_length;
		if (!wg_link_error(u->link) && wg_link_rx(u->link, t->buffer, (size_t)t->actual_length) &&
		    wg_link_error(u->link))
			link_fail(u);
	}
	if (t->status == LIBUSB_TRANSFER_COMPLETED) {
		u->st.in_transfers++;
		if (!t->actual_length)
			u->st.in_empty++;
		if (!u->closing && !u->fail)
			submit_in(u, x);
	} else if (!(u->closing && t->status == LIBUSB_TRANSFER_CANCELLED)) {
		usb_fail(u, status_error(t->status), "bulk IN (EP6)");
	}
}

static void LIBUSB_CALL out_done(struct libusb_transfer *t)
{
	struct xfer *x = t->user_data;
	struct wg_usb *u = x->u;

	x->busy = 0;
	u->out_busy--;
	u->st.out_bytes += (uint64_t)t->actual_length;
	if (t->status == LIBUSB_TRANSFER_COMPLETED && t->actual_length == t->length) {
		u->st.out_transfers++;
	} else if (t->status == LIBUSB_TRANSFER_TIMED_OUT) {
		char what[96];

		snprintf(what, sizeof(what), "bulk OUT (EP2): the board took %d of %d bytes in %u ms", t->actual_length,
		         t->length, u->p.timeout_ms);
		usb_fail(u, LIBUSB_ERROR_TIMEOUT, what);
	} else if (!(u->closing && t->status == LIBUSB_TRANSFER_CANCELLED)) {
		usb_fail(u, t->status == LIBUSB_TRANSFER_COMPLETED ? LIBUSB_ERROR_IO : status_error(t->status),
		         "bulk OUT (EP2)");
	}
}

/* Frames the link has due, appended to the output bytes. */
static int take_frames(struct wg_usb *u)
{
	const uint8_t *f;
	size_t len;
	int got;

	if (u->ohead == u->olen)
		u->ohead = u->olen = 0;
	while ((got = wg_link_tx_next(u->link, &f, &len)) == 1) {
		if (u->olen + len > u->ocap) {
			size_t cap = u->ocap ? u->ocap : 65536;
			uint8_t *nb;

			if (u->ohead) {
				memmove(u->ob, u->ob + u->ohead, u->olen - u->ohead);
				u->olen -= u->ohead;
				u->ohead = 0;
			}
			while (cap < u->olen + len)
				cap *= 2;
			if (cap > u->ocap) {
				nb = realloc(u->ob, cap);
				if (!nb) {
					snprintf(u->why, sizeof(u->why), "usb: output buffer of %zu bytes", cap);
					return u->fail = WG_ENOMEM;
				}
				u->ob = nb;
				u->ocap = cap;
			}
		}
		memcpy(u->ob + u->olen, f, len);
		u->olen += len;
	}
	return got < 0 ? link_fail(u) : 0;
}

/* Output bytes into free OUT transfers, in order (a frame may straddle two). */
static int fill_out(struct wg_usb *u)
{
	for (unsigned i = 0; i < u->p.transfers && u->ohead < u->olen && !u->fail; i++) {
		struct xfer *x = &u->out[i];
		size_t k = u->olen - u->ohead;
		int r;

		if (x->busy)
			continue;
		if (k > u->p.transfer_bytes)
			k = u->p.transfer_bytes;
		memcpy(x->t->buffer, u->ob + u->ohead, k);
		libusb_fill_bulk_transfer(x->t, u->h, WGU_EP_OUT, x->t->buffer, (int)k, out_done, x, u->p.timeout_ms);
		r = libusb_submit_transfer(x->t);
		if (r)
			return usb_fail(u, r, "bulk OUT (EP2): submitting a transfer");
		x->busy = 1;
		u->out_busy++;
		u->ohead += k;
		io_moved(u);
	}
	return u->fail;
}

static void LIBUSB_CALL ctl_done(struct libusb_transfer *t)
{
	struct wg_usb *u = t->user_data;

	u->ctl_busy = 0;
	if (t->status != LIBUSB_TRANSFER_COMPLETED && !(u->closing && t->status == LIBUSB_TRANSFER_CANCELLED))
		usb_fail(u, status_error(t->status), "bridge IN_COMMIT request");
}

/*
 * Ask the bridge to commit what the FPGA has written into EP6 as a short packet
 * (a zero-length one if nothing): a pending IN transfer holding whole packets
 * ends with it. The next one follows after twice the interval, at most rto/4.
 */
static int in_commit(struct wg_usb *u, uint64_t now)
{
	uint64_t cap = u->p.link.rto / 4 > u->p.commit_us ? u->p.link.rto / 4 : u->p.commit_us;
	int r;

	libusb_fill_control_setup(u->ctl->buffer, WGU_RT_VENDOR_OUT, WGU_RQ_IN_COMMIT, 0, 0, 0);
	libusb_fill_control_transfer(u->ctl, u->h, u->ctl->buffer, ctl_done, u, CTRL_TIMEOUT_MS);
	r = libusb_submit_transfer(u->ctl);
	if (r)
		return usb_fail(u, r, "bridge IN_COMMIT request: submitting the transfer");
	u->ctl_busy = 1;
	u->st.in_commits++;
	u->t_quiet = now;
	u->commit_wait = 2 * u->commit_wait < cap ? 2 * u->commit_wait : cap;
	return 0;
}

static int tx_round(struct wg_usb *u)
{
	if (u->fail)
		return u->fail;
	if (wg_link_poll(u->link, wg_board_now_us()) && wg_link_error(u->link))
		return link_fail(u);
	if (take_frames(u))
		return u->fail;
	return fill_out(u);
}

int wg_usb_pump(struct wg_usb *u, int64_t wait_us)
{
	struct timeval tv;
	int64_t t = wait_us;
	int r;

	if (!u)
		return WG_EINVAL;
	if (tx_round(u))
		return u->fail;
	if (!wg_link_idle(u->link) || !wg_link_up(u->link)) {
		int64_t q = (int64_t)(u->p.link.rto / 4 + 1);

		if (t < 0 || t > q)
			t = q;
	}
	if (t < 0)
		t = 1000000; /* "until something completes", looked at again every second */
	if (wait_us && u->p.commit_us != WG_USB_COMMIT_OFF && !u->ctl_busy) {
		uint64_t now = wg_board_now_us(), due = u->t_quiet + u->commit_wait;

		/* Nothing came for a while: what the bridge holds in whole packets may end our wait. */
		if (now >= due) {
			if (in_commit(u, now))
				return u->fail;
		} else if ((uint64_t)t > due - now) {
			t = (int64_t)(due - now);
		}
	}
	tv.tv_sec = (time_t)(t / 1000000);
	tv.tv_usec = (suseconds_t)(t % 1000000);
	r = libusb_handle_events_timeout_completed(u->ctx, &tv, NULL);
	if (r && r != LIBUSB_ERROR_INTERRUPTED)
		return usb_fail(u, r, "handling USB events");
	return tx_round(u);
}

int wg_usb_gone(const struct wg_usb *u)
{
	return u->gone;
}

const char *wg_usb_why(const struct wg_usb *u)
{
	return u->why[0] ? u->why : "no error";
}

struct wg_link *wg_usb_link(struct wg_usb *u)
{
	return u->link;
}

void wg_usb_stats(const struct wg_usb *u, struct wg_usb_stats *s)
{
	*s = u->st;
}

static int vendor_in(libusb_device_handle *h, uint8_t rq, uint8_t *buf, uint16_t len, const char *what, char *msg,
                     size_t n)
{
	int r = libusb_control_transfer(h, WGU_RT_VENDOR_IN, rq, 0, 0, buf, len, CTRL_TIMEOUT_MS);

	if (r == len)
		return 0;
	return wg_usb_error(r < 0 ? r : LIBUSB_ERROR_IO, what, msg, n);
}

/* The bridge's VERSION, then an FPGA reset with both FIFOs emptied (docs/fx2.md section 4). */
static int bridge_start(struct wg_usb *u, char *msg, size_t n)
{
	uint8_t v[WGU_VERSION_BYTES], st[WGU_STATUS_BYTES];
	uint64_t t0;
	int r, rc;

	rc = vendor_in(u->h, WGU_RQ_VERSION, v, sizeof(v), "bridge VERSION request", msg, n);
	if (rc)
		return rc;
	if (v[WGU_VER_MAGIC0] != WGU_MAGIC0 || v[WGU_VER_MAGIC1] != WGU_MAGIC1 ||
	    v[WGU_VER_PROTO] != WGU_PROTO_VERSION || v[WGU_VER_LINK] != WGL_VERSION || v[WGU_VER_BUS] != WGU_BUS_BITS) {
		snprintf(msg, n, "the device at 1209:0001 is not a warpgate bridge of this version (VERSION reply "
		         "%02x %02x proto %u link %u bus %u; expected 'W' 'G' proto %u link %u bus %u)",
		         v[0], v[1], v[WGU_VER_PROTO], v[WGU_VER_LINK], v[WGU_VER_BUS], WGU_PROTO_VERSION, WGL_VERSION,
		         WGU_BUS_BITS);
		return WG_ECONFIG;
	}
	r = libusb_control_transfer(u->h, WGU_RT_VENDOR_OUT, WGU_RQ_FPGA_RESET, (uint16_t)u->p.reset_ms,
	                            WGU_RESET_FIFOS, NULL, 0, CTRL_TIMEOUT_MS);
	if (r < 0)
		return wg_usb_error(r, "bridge FPGA_RESET request", msg, n);
	t0 = wg_board_now_us();
	for (;;) {
		rc = vendor_in(u->h, WGU_RQ_STATUS, st, sizeof(st), "bridge STATUS request", msg, n);
		if (rc)
			return rc;
		if (!(st[WGU_ST_FLAGS] & WGU_STF_RESETTING) && (st[WGU_ST_FLAGS] & WGU_STF_RESET_PIN))
			return 0;
		if (wg_board_now_us() - t0 > 1000000u + 1000u * u->p.reset_ms) {
			snprintf(msg, n, "the bridge's FPGA reset pulse of %u ms did not end", u->p.reset_ms);
			return WG_ETIMEOUT;
		}
		sleep_ms(1);
	}
}

int wg_usb_open(struct wg_usb **up, const struct wg_usb_params *p, char *msg, size_t n)
{
	struct wg_usb *u;
	struct wg_link_params lp;
	libusb_device_handle *bare = NULL;
	uint64_t t0 = wg_board_now_us();
	int r, rc, found;

	if (!up || !p || !msg || !n)
		return WG_EINVAL;
	*up = NULL;
	msg[0] = '\0';
	u = calloc(1, sizeof(*u));
	if (!u)
		return WG_ENOMEM;
	u->p = *p;
	if (!u->p.transfers)
		u->p.transfers = WG_USB_TRANSFERS;
	if (!u->p.transfer_bytes)
		u->p.transfer_bytes = WG_USB_TRANSFER_BYTES;
	if (!u->p.timeout_ms)
		u->p.timeout_ms = WG_USB_TIMEOUT_MS;
	if (!u->p.enum_ms)
		u->p.enum_ms = WG_USB_ENUM_MS;
	if (!u->p.reset_ms)
		u->p.reset_ms = WG_USB_RESET_MS;
	if (!u->p.commit_us)
		u->p.commit_us = WG_USB_COMMIT_US;
	if (!u->p.link.rto)
		u->p.link.rto = WG_BOARD_RTO_US;
	if (u->p.transfers > MAX_TRANSFERS || u->p.transfer_bytes % WGU_BULK_PACKET_HS ||
	    u->p.reset_ms > WGU_RESET_MS_MAX) {
		snprintf(msg, n, "usb: transfers %u (1..%u), transfer_bytes %u (a multiple of %u) or reset %u ms "
		         "(1..%u) out of range", u->p.transfers, MAX_TRANSFERS, u->p.transfer_bytes, WGU_BULK_PACKET_HS,
		         u->p.reset_ms, WGU_RESET_MS_MAX);
		free(u);
		return WG_EINVAL;
	}
	r = libusb_init(&u->ctx);
	if (r) {
		rc = wg_usb_error(r, "libusb_init", msg, n);
		free(u);
		return rc;
	}
	found = scan(u->ctx, &u->h, &bare, msg, n);
	if (found == 2) {
		char fw[PATH_MAX];

		u->h = NULL;
		rc = find_firmware(p->firmware, fw, sizeof(fw), msg, n);
		if (!rc)
			rc = load_firmware(bare, fw, msg, n);
		libusb_close(bare);
		if (rc)
			goto fail;
		u->st.firmware_loaded = 1;
		/* The FX2 disconnects and comes back as the bridge (docs/fx2.md section 1). */
		found = 0;
		while (found != 1 && wg_board_now_us() - t0 < 1000ull * u->p.enum_ms + 1000000ull) {
			sleep_ms(50);
			found = scan(u->ctx, &u->h, NULL, msg, n);
			if (found < 0) {
				rc = found;
				goto fail;
			}
		}
		if (found != 1) {
			snprintf(msg, n, "the firmware was loaded but the bridge (1209:0001 \"%s\") did not appear within "
			         "%u ms", WGU_STR_PRODUCT, u->p.enum_ms);
			rc = WG_ETIMEOUT;
			goto fail;
		}
	} else if (found < 0) {
		rc = found;
		goto fail;
	} else if (found == 0) {
		snprintf(msg, n, "no warpgate bridge (USB 1209:0001 \"%s\") and no bare FX2 (04b4:8613) found",
		         WGU_STR_PRODUCT);
		rc = WG_ELINK;
		goto fail;
	}
	u->st.bus = libusb_get_bus_number(libusb_get_device(u->h));
	u->st.address = libusb_get_device_address(libusb_get_device(u->h));
	libusb_set_auto_detach_kernel_driver(u->h, 1);
	r = libusb_claim_interface(u->h, WGU_INTERFACE);
	if (r) {
		rc = wg_usb_error(r, "claiming the bridge's interface 0", msg, n);
		goto fail;
	}
	u->claimed = 1;
	rc = bridge_start(u, msg, n);
	if (rc)
		goto fail;
	lp = u->p.link;
	u->user_rec = lp.on_rec;
	u->user_report = lp.on_report;
	u->user_arg = lp.arg;
	lp.on_rec = usb_rec;
	lp.on_report = usb_report;
	lp.arg = u;
	rc = wg_link_create(&u->link, &lp);
	if (rc) {
		snprintf(msg, n, "usb: creating the link: %s", wg_strerror(rc));
		goto fail;
	}
	for (unsigned i = 0; i < u->p.transfers; i++) {
		struct xfer *xs[2] = {&u->out[i], &u->in[i]};

		for (int k = 0; k < 2; k++) {
			xs[k]->u = u;
			xs[k]->t = libusb_alloc_transfer(0);
			if (!xs[k]->t || !(xs[k]->t->buffer = malloc(u->p.transfer_bytes))) {
				snprintf(msg, n, "usb: %u transfers of %u bytes", u->p.transfers, u->p.transfer_bytes);
				rc = WG_ENOMEM;
				goto fail;
			}
		}
		rc = submit_in(u, &u->in[i]);
		if (rc) {
			snprintf(msg, n, "%s", u->why);
			goto fail;
		}
	}
	u->ctl = libusb_alloc_transfer(0);
	if (!u->ctl || !(u->ctl->buffer = malloc(LIBUSB_CONTROL_SETUP_SIZE))) {
		snprintf(msg, n, "usb: a control transfer");
		rc = WG_ENOMEM;
		goto fail;
	}
	io_moved(u);
	u->st.open_seconds = (double)(wg_board_now_us() - t0) / 1e6;
	wg_info("usb: bridge at bus %u address %u ready after %.3f s%s", u->st.bus, u->st.address, u->st.open_seconds,
	        u->st.firmware_loaded ? " (firmware loaded)" : "");
	*up = u;
	return 0;

fail:
	wg_usb_close(u);
	return rc;
}

void wg_usb_close(struct wg_usb *u)
{
	uint64_t t0;

	if (!u)
		return;
	u->closing = 1;
	for (unsigned i = 0; i < MAX_TRANSFERS; i++) {
		if (u->in[i].busy)
			libusb_cancel_transfer(u->in[i].t);
		if (u->out[i].busy)
			libusb_cancel_transfer(u->out[i].t);
	}
	t0 = wg_board_now_us();
	if (u->ctl_busy)
		libusb_cancel_transfer(u->ctl);
	while ((u->in_busy || u->out_busy || u->ctl_busy) && wg_board_now_us() - t0 < 1000000) {
		struct timeval tv = {0, 50000};

		if (libusb_handle_events_timeout_completed(u->ctx, &tv, NULL) == LIBUSB_ERROR_NO_DEVICE)
			break;
	}
	for (unsigned i = 0; i < MAX_TRANSFERS; i++) {
		struct xfer *xs[2] = {&u->out[i], &u->in[i]};

		for (int k = 0; k < 2; k++) {
			if (!xs[k]->t || xs[k]->busy)
				continue; /* still owned by libusb after a failed cancel: leaked rather than freed under it */
			free(xs[k]->t->buffer);
			xs[k]->t->buffer = NULL;
			libusb_free_transfer(xs[k]->t);
			xs[k]->t = NULL;
		}
	}
	if (u->ctl && !u->ctl_busy) {
		free(u->ctl->buffer);
		u->ctl->buffer = NULL;
		libusb_free_transfer(u->ctl);
	}
	if (u->h) {
		if (u->claimed)
			libusb_release_interface(u->h, WGU_INTERFACE);
		libusb_close(u->h);
	}
	if (u->ctx)
		libusb_exit(u->ctx);
	wg_link_destroy(u->link);
	free(u->ob);
	free(u);
}
