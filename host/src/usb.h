/*
 * The USB transport (docs/usb.md): the framed link (docs/protocol.md) carried
 * over the FX2LP bridge's bulk endpoints with libusb-1.0. It does for a board
 * on USB what wg_board_sock (target_board.h) does for the board process on a
 * socket: frames out, bytes in, the link's timers; the "usb" target
 * (target_board.c) runs the gpu target's host loop over it.
 *
 * Opening finds the bridge by VID:PID 1209:0001 and its product string
 * (wg_usb_proto.h); failing that, a bare FX2 (04B4:8613) gets the firmware
 * (Intel HEX, vendor request 0xA0 to CPUCS) and the bridge is awaited as it
 * re-enumerates. The bridge's VERSION is checked, the FPGA reset pulsed, the
 * interface claimed and the IN transfers posted. Streaming keeps several
 * asynchronous bulk transfers in flight each way. Every libusb error is
 * translated into a WG_E* code and a message in one place (wg_usb_error).
 *
 * Functions return 0 or a negative WG_E* code unless they say otherwise.
 */
#ifndef WG_USB_H
#define WG_USB_H

#include <stddef.h>
#include <stdint.h>

#include "link.h"

#define WG_USB_TRANSFERS 4          /* bulk transfers in flight each way */
#define WG_USB_TRANSFER_BYTES 16384 /* bytes per bulk transfer */
#define WG_USB_TIMEOUT_MS 20000     /* an OUT transfer the board does not take in this time fails */
#define WG_USB_ENUM_MS 5000         /* the bridge must appear this long after the firmware load */
#define WG_USB_RESET_MS 10          /* FPGA reset pulse (vendor request FPGA_RESET) */
#define WG_USB_COMMIT_US 2000       /* waiting this long with no IN bytes: IN_COMMIT (see wg_usb_pump) */
#define WG_USB_COMMIT_OFF UINT32_MAX /* commit_us: never send IN_COMMIT */

struct wg_usb;

struct wg_usb_params {
	struct wg_link_params link; /* rto in microseconds (0: 1 s) */
	const char *firmware;       /* FX2 image, Intel HEX; NULL: WG_FX2_FIRMWARE, then the search of docs/usb.md */
	uint32_t transfers;         /* 0: WG_USB_TRANSFERS; at most 64 */
	uint32_t transfer_bytes;    /* 0: WG_USB_TRANSFER_BYTES; a multiple of 512 */
	uint32_t timeout_ms;        /* 0: WG_USB_TIMEOUT_MS */
	uint32_t enum_ms;           /* 0: WG_USB_ENUM_MS */
	uint32_t reset_ms;          /* 0: WG_USB_RESET_MS */
	uint32_t commit_us;         /* 0: WG_USB_COMMIT_US; WG_USB_COMMIT_OFF: never */
};

struct wg_usb_stats {
	uint64_t out_transfers, in_transfers; /* completed */
	uint64_t out_bytes, in_bytes;
	uint64_t in_commits, in_empty;        /* IN_COMMIT requests sent; IN transfers that ended with no bytes */
	uint32_t firmware_loaded;             /* 1: this open loaded the firmware */
	uint32_t bus, address;                /* of the bridge */
	double open_seconds;                  /* from the start of wg_usb_open to the claimed interface */
};

/* Open the bridge (loading the firmware when needed); msg gets the reason of a failure. */
int wg_usb_open(struct wg_usb **u, const struct wg_usb_params *p, char *msg, size_t n);
/* Cancel what is in flight and release the device. */
void wg_usb_close(struct wg_usb *u);
struct wg_link *wg_usb_link(struct wg_usb *u);

/*
 * One round of I/O, the contract of wg_board_sock_pump: frames the link has due
 * into OUT transfers, libusb events for up to wait_us (0: none; -1: until
 * something completes or, while the link is not idle, a quarter of rto), the
 * bytes of completed IN transfers into the link (in order), the link's timers.
 *
 * A bulk IN transfer ends only on a short packet or a full buffer: bytes the
 * bridge sent in whole 512-byte packets wait in a pending transfer, unseen by
 * the link, until more come. So a pump that waits (wait_us != 0) after commit_us
 * with no IN bytes and no new OUT transfer asks the bridge to commit its EP6
 * FIFO (vendor request IN_COMMIT, asynchronous): a short or zero-length packet
 * ends the pending transfer, its frames reach the link and their ACK goes out.
 * Without an answer the interval doubles, up to a quarter of rto; IN bytes or
 * an OUT transfer start it again at commit_us.
 * Returns 0, WG_ELINK once the link has failed, or the translated libusb error
 * (the device gone: WG_EIO and wg_usb_gone()); bytes received before a failure
 * have reached the link.
 */
int wg_usb_pump(struct wg_usb *u, int64_t wait_us);
int wg_usb_gone(const struct wg_usb *u);
const char *wg_usb_why(const struct wg_usb *u);
void wg_usb_stats(const struct wg_usb *u, struct wg_usb_stats *s);

/* libusb error code -> WG_E* code, with "what: libusb's message (NAME)" in msg. */
int wg_usb_error(int libusb_rc, const char *what, char *msg, size_t n);

/*
 * Parse an Intel HEX image into a 16 KB FX2 RAM image (data records only, every
 * byte below WGU_FX2_RAM_BYTES): used[] marks the bytes written. Errors name
 * file:line.
 */
int wg_usb_read_ihx(const char *path, uint8_t *ram, uint8_t *used, char *msg, size_t n);

#endif
