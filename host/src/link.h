/*
 * The host <-> GPU link (docs/protocol.md): frame codec and reliable link,
 * independent of the transport (in-process model, socket, USB bulk).
 *
 * Three layers, each usable on its own:
 *  - records: a command or event packed into / unpacked from its record bytes
 *    (wg_link_cmd_*, wg_link_ev_*), fields checked against the GPU top's port
 *    widths;
 *  - frames: wg_link_frame_seal writes header and CRC around a payload, and the
 *    streaming decoder (wg_link_dec_*) takes bytes in chunks of any size, finds
 *    frames, checks them and reports every error with the frame's sequence
 *    number, type, stream offset and the expected and actual values;
 *  - the link (wg_link_*): batching of records into frames, sequence numbers,
 *    ACK/NAK, go-back-N retransmission from a bounded window, HELLO.
 *
 * The link does no I/O and reads no clock: the transport hands it received
 * bytes (wg_link_rx), takes frames to send (wg_link_tx_next) and tells it the
 * time (wg_link_poll). Functions return 0 or a negative WG_E* code unless they
 * say otherwise; once a link has failed (WG_ELINK), every call returns that.
 * A link or decoder is used by one thread at a time.
 */
#ifndef WG_LINK_H
#define WG_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "wg_link_proto.h"

/* A command, host -> GPU: the fields of the GPU top's command (struct wggpu_cmd). */
struct wg_link_cmd {
	uint8_t op, sm, all; /* all: every SM */
	uint64_t at;
	uint32_t addr, tag;
	uint8_t data[WGL_MEM_BYTES]; /* little-endian */
};

/* An event, GPU -> host: the fields of the GPU top's event (struct wggpu_ev). */
struct wg_link_ev {
	uint8_t kind, sm;
	uint64_t cycle;
	/* MREQ */
	uint32_t tag, addr, atom_b, atom_c, warp, pc, lane;
	uint8_t cmd, size, atom_op, local, wb;
	uint8_t wmask[WGL_MEM_BYTES], wdata[WGL_MEM_BYTES]; /* wmask: 0 or 1 per byte */
	/* DONE: linear; FAULT: code, fwarp, fpc, flane, faddr, linear */
	uint32_t linear, code, fwarp, fpc, flane, faddr;
	/* RETIRE (and linear) */
	uint32_t rwarp, rwic, rseq, rpc, ractive, rexec;
	uint8_t rdst, rreg, rbeat, rlast;
	uint32_t rdata[WGL_LANES];
	/* REACHED */
	uint64_t busy;
	/* COUNTERS */
	uint32_t cnt[WGL_CNT_WORDS];
	/* ERROR */
	uint8_t err;
};

/* HELLO contents: the sender's link parameters and (GPU) build parameters. */
struct wg_link_info {
	uint32_t version, role, max_payload, window;
	uint32_t num_sms, num_warps, simd_width, num_simd, num_regs, rf_banks, num_ctas, dmem_bytes;
	uint32_t l1_sets, l1_mshrs, imem_depth, cmem_bytes, stack_depth, has_fp, mem_bytes, mem_tag_bits;
	uint32_t retire_en, rsp_depth, launch_depth, cnt_words;
};

/* An error seen on the link. */
struct wg_link_report {
	unsigned code;     /* WGL_E_* */
	int remote;        /* 1: the peer's receiver saw it (a LERR frame) */
	uint8_t type;      /* type of the frame concerned, 0 if not known */
	uint32_t seq;      /* its sequence number as read, 0 if not known */
	uint64_t offset;   /* offset in the receiver's byte stream of the frame or byte concerned */
	uint32_t expected, actual;
};

typedef void (*wg_link_report_fn)(void *arg, const struct wg_link_report *r);

const char *wg_link_error_name(unsigned code); /* "crc", "gap", ...; "?" if unknown */
/* One line: "bad CRC: frame type 0x16 seq 12 at offset 4096: expected 0x..., got 0x..." */
void wg_link_report_format(const struct wg_link_report *r, char *buf, size_t n);

/* ---- Records ----------------------------------------------------------- */

/* Record bytes of a frame type, 0 if the type is not defined. */
unsigned wg_link_rec_size(unsigned type);

/*
 * Frame type of a command or event: the no-data form when its data fields are
 * all zero, else the full form. WG_EINVAL for an unknown op or kind.
 */
int wg_link_cmd_type(const struct wg_link_cmd *c);
int wg_link_ev_type(const struct wg_link_ev *e);

/*
 * Pack into rec (wg_link_rec_size(type) bytes) as a record of `type`, which
 * must be a form of c's op (e's kind). WG_EINVAL when a field does not fit its
 * port width (tag > 16 bits, pc > 18 bits, ...) or the no-data form is asked
 * for data that is not zero.
 */
int wg_link_cmd_pack(const struct wg_link_cmd *c, unsigned type, uint8_t *rec);
int wg_link_ev_pack(const struct wg_link_ev *e, unsigned type, uint8_t *rec);

/*
 * Check a received record: WG_ELINK when a field exceeds its port width or a
 * reserved byte is not zero; then *why (if not NULL) holds code WGL_E_FIELD,
 * offset = the field's offset in the record, expected = the largest allowed
 * value, actual = the value found.
 */
int wg_link_rec_check(unsigned type, const uint8_t *rec, struct wg_link_report *why);

/* Unpack a checked record; fields the type does not carry are set to zero. */
void wg_link_cmd_unpack(unsigned type, const uint8_t *rec, struct wg_link_cmd *c);
void wg_link_ev_unpack(unsigned type, const uint8_t *rec, struct wg_link_ev *e);

void wg_link_hello_pack(const struct wg_link_info *info, int reply, uint8_t *rec);
void wg_link_hello_unpack(const uint8_t *rec, struct wg_link_info *info, int *reply);

/* ---- Frames ------------------------------------------------------------ */

/*
 * Write the header and CRC of a frame whose len payload bytes (nrec records of
 * `type`) are already at frame + WGL_HDR_BYTES. The frame is then
 * WGL_HDR_BYTES + len + WGL_CRC_BYTES bytes.
 */
void wg_link_frame_seal(uint8_t *frame, unsigned type, uint32_t seq, unsigned nrec, unsigned len);

/* A frame found by the decoder: header fields and the payload (valid during the callback). */
struct wg_link_frame {
	uint8_t type;
	uint16_t nrec;
	uint32_t len, seq;
	uint64_t offset; /* of its first sync byte in the stream */
	const uint8_t *payload;
};

/* 0 to go on; a negative code stops wg_link_dec_feed, which returns it. */
typedef int (*wg_link_frame_fn)(void *arg, const struct wg_link_frame *f);

/* Receive direction of a decoder: the frame types it accepts besides link frames. */
#define WG_LINK_TO_GPU 0  /* commands */
#define WG_LINK_TO_HOST 1 /* events and TRACE */

struct wg_link_dec;

/*
 * max_payload: the largest payload accepted (WGL_PAYLOAD_MIN..WGL_PAYLOAD_MAX,
 * a multiple of 4). Frames that pass every check go to on_frame, in stream
 * order; each error goes to on_report (may be NULL), after which the decoder
 * resynchronises on the next sync word.
 */
int wg_link_dec_create(struct wg_link_dec **d, int dir, uint32_t max_payload, wg_link_frame_fn on_frame,
                       wg_link_report_fn on_report, void *arg);
void wg_link_dec_destroy(struct wg_link_dec *d);
/* Take n more bytes: the outcome does not depend on how the stream is cut into calls. */
int wg_link_dec_feed(struct wg_link_dec *d, const void *data, size_t n);
/* End of stream: a frame still incomplete is reported (WGL_E_TRUNC) and the bytes after its start rescanned. */
int wg_link_dec_end(struct wg_link_dec *d);
uint64_t wg_link_dec_offset(const struct wg_link_dec *d); /* bytes taken so far */

/* ---- Link -------------------------------------------------------------- */

/* A received record, valid during the callback. */
struct wg_link_rec {
	uint8_t type;   /* frame type it came in */
	uint32_t seq;   /* its frame's sequence number */
	const struct wg_link_cmd *cmd; /* a command (GPU side), else NULL */
	const struct wg_link_ev *ev;   /* an event (host side), else NULL */
	const uint8_t *trace;          /* TRACE: the frame's payload, trace_len bytes */
	uint32_t trace_len;
};

/* 0 to go on; a negative code fails the link with that code. */
typedef int (*wg_link_rec_fn)(void *arg, const struct wg_link_rec *r);

/* Doublings of rto at most between tries without progress (wg_link_params.rto). */
#define WGL_BACKOFF_MAX 3u

struct wg_link_params {
	unsigned role;         /* WGL_ROLE_HOST (sends commands) or WGL_ROLE_GPU (sends events) */
	uint32_t max_payload;  /* largest payload received and sent; 0: WGL_PAYLOAD_MAX */
	uint32_t window;       /* data frames sent and not yet acknowledged, at most; 0: 16 */
	uint64_t rto;          /* first retransmission timeout, in wg_link_poll's time unit; 0: 100000.
	                        * Each further try without progress waits twice as long as the one
	                        * before, up to 2^WGL_BACKOFF_MAX rto (retransmissions, NAKs, HELLOs). */
	uint32_t max_retries;  /* timeouts or NAKs in a row without progress before WG_ELINK; 0: 8 */
	struct wg_link_info build; /* GPU role: the build parameters its HELLO announces */
	wg_link_rec_fn on_rec;
	wg_link_report_fn on_report; /* every error, local and remote; may be NULL */
	void *arg;
};

struct wg_link_stats {
	uint64_t tx_frames, tx_bytes, tx_records, tx_retx, tx_ctl; /* tx_frames counts data frames, retransmissions too */
	uint64_t rx_frames, rx_bytes, rx_records, rx_ctl;          /* rx_frames: data frames delivered */
	uint64_t naks_sent, naks_rcvd, timeouts;
	uint64_t errors[WGL_E_COUNT];        /* local reports per code */
	uint64_t remote_errors[WGL_E_COUNT]; /* the peer's LERR reports per code */
	uint32_t in_flight, queued;          /* data frames sent and unacknowledged; closed and not yet sent */
};

struct wg_link;

/* How long a link with these rto and max_retries keeps trying without progress before it fails
 * (RETRY): the sum of its max_retries + 1 growing waits. */
uint64_t wg_link_retry_span(uint64_t rto, uint32_t max_retries);

/* The host side sends HELLO at once (wg_link_tx_next) and repeats it after rto, 2 rto, 4 rto, ...
 * (see wg_link_params.rto) until the GPU answers. */
int wg_link_create(struct wg_link **l, const struct wg_link_params *p);
void wg_link_destroy(struct wg_link *l);

/*
 * Append a record to the open frame: a frame holds records of one type and is
 * closed when the next record has another type or does not fit, and by
 * wg_link_flush. WG_EINVAL for a record of the other direction or a field
 * that does not fit.
 */
int wg_link_put_cmd(struct wg_link *l, const struct wg_link_cmd *c);
int wg_link_put_ev(struct wg_link *l, const struct wg_link_ev *e);
int wg_link_put_trace(struct wg_link *l, const void *words, size_t bytes); /* whole frames, bytes % 4 == 0 */
int wg_link_flush(struct wg_link *l);

/*
 * Next frame to send: returns 1 and sets *frame, *len (valid until the next
 * call into the link), 0 when nothing is due (link frames first, then data
 * frames while the window has room, retransmissions included).
 */
int wg_link_tx_next(struct wg_link *l, const uint8_t **frame, size_t *len);

/* Received bytes, in chunks of any size: records go to on_rec, in order, each exactly once. */
int wg_link_rx(struct wg_link *l, const void *data, size_t n);
int wg_link_rx_end(struct wg_link *l); /* the transport's stream ended */

/* Timers: HELLO repeat, retransmission (go back to the oldest unacknowledged frame), NAK repeat.
 * now: the caller's monotonic time, in the unit of rto; it never decreases. */
int wg_link_poll(struct wg_link *l, uint64_t now);

int wg_link_up(const struct wg_link *l);    /* 1 after the HELLO exchange */
int wg_link_error(const struct wg_link *l); /* 0 or WG_ELINK (or the on_rec code that failed it) */
int wg_link_idle(const struct wg_link *l);  /* 1: nothing open, queued, unacknowledged or due */
const struct wg_link_info *wg_link_peer(const struct wg_link *l); /* the peer's HELLO, NULL before */
void wg_link_stats(const struct wg_link *l, struct wg_link_stats *s);

#endif
