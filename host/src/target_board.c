/*
 * The "board" target (docs/board.md): the Verilated GPU in its own process,
 * build/warpgate-board, driven through the framed link (docs/protocol.md)
 * over a Unix stream socket. The host loop is gpu_host's, the same as the
 * "gpu" target's: this file is only the transport (wg_gpu_port_ops over
 * wg_link) and the board process's life: found and started on a socketpair
 * at the first launch, or reached at a socket path (option socket=PATH).
 *
 * The socket I/O (wg_board_sock) and the record conversions are shared with
 * the board program (host/tools/warpgate_board.c), target_board.h.
 *
 * The "usb" target (docs/usb.md) is the same host side over the other
 * transport: the FX2LP bridge on USB (usb.h) instead of the socket, the board
 * found (and its firmware loaded) instead of a process started.
 */
#include <errno.h>
#include <fcntl.h>
#include <fenv.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpu_host.h"
#include "link.h"
#include "log.h"
#include "target.h"
#include "target_board.h"
#include "usb.h"
#include "warpgate.h"

#define RX_CHUNK 65536
#define RX_MAX_PER_PUMP (4u << 20) /* bytes read in one pump at most, so the caller gets a turn */
#define WAIT_US 100000             /* the host's wait for events in one run() */
#define REAP_US 3000000            /* a closed board process gets this long to exit before SIGKILL */

/* ------------------------------------------------------------------------ */
/* Time                                                                      */

uint64_t wg_board_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* ------------------------------------------------------------------------ */
/* The link over a stream socket                                             */

/* A frame in the output buffer held until `due` (link_delay_us). */
struct held {
	uint64_t end; /* stream offset just after its last byte */
	uint64_t due;
};

struct wg_board_sock {
	int fd;
	struct wg_link *link;
	struct wg_board_sock_params p;
	wg_link_rec_fn user_rec;
	wg_link_report_fn user_report;
	void *user_arg;
	/* output: stream offsets; out[0] holds byte `base` */
	uint8_t *out;
	size_t cap;
	uint64_t base, sent, ready, taken; /* written <= releasable <= taken from the link */
	struct held *held;
	size_t nheld, hhead, capheld;
	uint8_t rx[RX_CHUNK];
	int eof, fail;
	char why[256], last[256];
};

static int sock_rec(void *arg, const struct wg_link_rec *r)
{
	struct wg_board_sock *s = arg;

	return s->user_rec ? s->user_rec(s->user_arg, r) : 0;
}

static void sock_report(void *arg, const struct wg_link_report *r)
{
	struct wg_board_sock *s = arg;

	wg_link_report_format(r, s->last, sizeof(s->last));
	if (s->user_report)
		s->user_report(s->user_arg, r);
}

int wg_board_sock_create(struct wg_board_sock **sp, int fd, const struct wg_board_sock_params *p)
{
	struct wg_board_sock *s;
	struct wg_link_params lp;
	int rc, fl;

	if (!sp || fd < 0 || !p)
		return WG_EINVAL;
	*sp = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return WG_ENOMEM;
	s->fd = fd;
	s->p = *p;
	if (!s->p.link.rto)
		s->p.link.rto = WG_BOARD_RTO_US;
	s->user_rec = p->link.on_rec;
	s->user_report = p->link.on_report;
	s->user_arg = p->link.arg;
	lp = s->p.link;
	lp.on_rec = sock_rec;
	lp.on_report = sock_report; /* keeps the last report for wg_board_sock_why */
	lp.arg = s;
	rc = wg_link_create(&s->link, &lp);
	if (rc)
		goto fail_sock;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		rc = WG_EIO;
		goto fail_link;
	}
	*sp = s;
	return 0;

fail_link:
	wg_link_destroy(s->link);
fail_sock:
	free(s);
	return rc;
}

void wg_board_sock_destroy(struct wg_board_sock *s)
{
	if (!s)
		return;
	close(s->fd);
	wg_link_destroy(s->link);
	free(s->out);
	free(s->held);
	free(s);
}

struct wg_link *wg_board_sock_link(struct wg_board_sock *s)
{
	return s->link;
}

int wg_board_sock_eof(const struct wg_board_sock *s)
{
	return s->eof;
}

const char *wg_board_sock_why(const struct wg_board_sock *s)
{
	return s->why[0] ? s->why : s->last;
}

uint64_t wg_board_sock_unsent(const struct wg_board_sock *s)
{
	return s->taken - s->sent;
}

static int sock_fail(struct wg_board_sock *s, int rc, const char *what)
{
	if (!s->fail) {
		s->fail = rc;
		if (rc == WG_ELINK)
			snprintf(s->why, sizeof(s->why), "%s", s->last[0] ? s->last : "the link failed");
		else
			snprintf(s->why, sizeof(s->why), "%s: %s", what, strerror(errno));
	}
	return s->fail;
}

static int link_ok(struct wg_board_sock *s, int rc)
{
	if (wg_link_error(s->link))
		return sock_fail(s, WG_ELINK, NULL);
	return rc;
}

/* Append a frame to the output buffer. */
static int out_append(struct wg_board_sock *s, const uint8_t *f, size_t len, uint64_t now)
{
	size_t used = (size_t)(s->taken - s->base);

	if (s->sent > s->base && (used + len > s->cap || s->sent - s->base > s->cap / 2)) {
		size_t drop = (size_t)(s->sent - s->base);

		memmove(s->out, s->out + drop, used - drop);
		s->base = s->sent;
		used -= drop;
	}
	if (used + len > s->cap) {
		size_t cap = s->cap ? s->cap : 65536;
		uint8_t *n;

		while (cap < used + len)
			cap *= 2;
		n = realloc(s->out, cap);
		if (!n)
			return WG_ENOMEM;
		s->out = n;
		s->cap = cap;
	}
	memcpy(s->out + used, f, len);
	s->taken += len;
	if (!s->p.delay_us) {
		s->ready = s->taken;
		return 0;
	}
	if (s->hhead == s->nheld)
		s->hhead = s->nheld = 0;
	if (s->nheld == s->capheld) {
		size_t cap = s->capheld ? 2 * s->capheld : 64;
		struct held *n = realloc(s->held, cap * sizeof(*n));

		if (!n)
			return WG_ENOMEM;
		s->held = n;
		s->capheld = cap;
	}
	s->held[s->nheld].end = s->taken;
	s->held[s->nheld].due = now + s->p.delay_us;
	s->nheld++;
	return 0;
}

/* Every frame the link has due into the output buffer; held frames that are due become writable. */
static int take_frames(struct wg_board_sock *s, uint64_t now)
{
	const uint8_t *f;
	size_t len;
	int got;

	while ((got = wg_link_tx_next(s->link, &f, &len)) == 1) {
		int rc = out_append(s, f, len, now);

		if (rc)
			return sock_fail(s, rc, "output buffer");
	}
	if (got < 0)
		return link_ok(s, got);
	while (s->hhead < s->nheld && s->held[s->hhead].due <= now)
		s->ready = s->held[s->hhead++].end;
	return 0;
}

static int write_out(struct wg_board_sock *s)
{
	while (s->sent < s->ready && !s->eof) {
		ssize_t n = send(s->fd, s->out + (s->sent - s->base), (size_t)(s->ready - s->sent),
		                 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n > 0) {
			s->sent += (uint64_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			break;
		} else if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) {
			s->eof = 1; /* the peer is gone: what it did not read is lost with it */
			break;
		} else {
			return sock_fail(s, WG_EIO, "send");
		}
	}
	return 0;
}

static int read_in(struct wg_board_sock *s)
{
	size_t total = 0;

	while (!s->eof && total < RX_MAX_PER_PUMP) {
		ssize_t n = recv(s->fd, s->rx, sizeof(s->rx), MSG_DONTWAIT);

		if (n > 0) {
			int rc = wg_link_rx(s->link, s->rx, (size_t)n);

			total += (size_t)n;
			if (rc)
				return link_ok(s, rc);
		} else if (n == 0 || (errno == ECONNRESET)) {
			s->eof = 1;
			return link_ok(s, wg_link_rx_end(s->link));
		} else if (errno == EINTR) {
			continue;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			break;
		} else {
			return sock_fail(s, WG_EIO, "recv");
		}
	}
	return 0;
}

/* Link timers, frames out, bytes written. */
static int tx_round(struct wg_board_sock *s)
{
	uint64_t now = wg_board_now_us();
	int rc = wg_link_poll(s->link, now);

	if (rc)
		return link_ok(s, rc);
	rc = take_frames(s, now);
	return rc ? rc : write_out(s);
}

int wg_board_sock_pump(struct wg_board_sock *s, int64_t wait_us)
{
	struct pollfd pfd;
	int64_t t = wait_us;
	uint64_t now;
	int rc, n;

	if (!s)
		return WG_EINVAL;
	if (s->fail)
		return s->fail;
	rc = tx_round(s);
	if (rc || s->eof)
		return rc;
	now = wg_board_now_us();
	if (!wg_link_idle(s->link) || (!wg_link_up(s->link) && s->p.link.role == WGL_ROLE_HOST)) {
		int64_t q = (int64_t)(s->p.link.rto / 4 + 1);

		if (t < 0 || t > q)
			t = q;
	}
	if (s->hhead < s->nheld) {
		uint64_t due = s->held[s->hhead].due;
		int64_t d = due > now ? (int64_t)(due - now) : 0;

		if (t < 0 || t > d)
			t = d;
	}
	pfd.fd = s->fd;
	pfd.events = POLLIN | (s->sent < s->ready ? POLLOUT : 0);
	pfd.revents = 0;
	n = poll(&pfd, 1, t < 0 ? -1 : (int)((t + 999) / 1000)); /* rounded up: never early for a held frame */
	if (n < 0 && errno != EINTR)
		return sock_fail(s, WG_EIO, "poll");
	if (n > 0 && (pfd.revents & (POLLIN | POLLHUP | POLLERR))) {
		rc = read_in(s);
		if (rc)
			return rc;
	}
	return tx_round(s);
}

/* ------------------------------------------------------------------------ */
/* Record conversions                                                        */

void wg_board_cmd_to_link(const struct wggpu_cmd *c, struct wg_link_cmd *lc)
{
	memset(lc, 0, sizeof(*lc));
	lc->op = c->op;
	lc->sm = c->sm;
	lc->all = c->all;
	lc->at = c->at;
	lc->addr = c->addr;
	lc->tag = c->tag;
	memcpy(lc->data, c->data, sizeof(lc->data));
}

void wg_board_cmd_from_link(const struct wg_link_cmd *lc, struct wggpu_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->op = lc->op;
	c->sm = lc->sm;
	c->all = lc->all;
	c->at = lc->at;
	c->addr = lc->addr;
	c->tag = lc->tag;
	memcpy(c->data, lc->data, sizeof(c->data));
}

/* The event structs have the same fields under the same names. */
#define EV_FIELDS(X)                                                                                           \
	X(kind) X(sm) X(cycle) X(tag) X(addr) X(atom_b) X(atom_c) X(warp) X(pc) X(lane) X(cmd) X(size) X(atom_op)   \
	X(local) X(wb) X(linear) X(code) X(fwarp) X(fpc) X(flane) X(faddr) X(rwarp) X(rwic) X(rseq) X(rpc)         \
	X(ractive) X(rexec) X(rdst) X(rreg) X(rbeat) X(rlast) X(busy) X(err)

void wg_board_ev_to_link(const struct wggpu_ev *e, struct wg_link_ev *le)
{
	memset(le, 0, sizeof(*le));
#define X(f) le->f = e->f;
	EV_FIELDS(X)
#undef X
	memcpy(le->wmask, e->wmask, sizeof(le->wmask));
	memcpy(le->wdata, e->wdata, sizeof(le->wdata));
	memcpy(le->rdata, e->rdata, sizeof(le->rdata));
	memcpy(le->cnt, e->cnt, sizeof(le->cnt));
}

void wg_board_ev_from_link(const struct wg_link_ev *le, struct wggpu_ev *e)
{
	memset(e, 0, sizeof(*e));
#define X(f) e->f = le->f;
	EV_FIELDS(X)
#undef X
	memcpy(e->wmask, le->wmask, sizeof(e->wmask));
	memcpy(e->wdata, le->wdata, sizeof(e->wdata));
	memcpy(e->rdata, le->rdata, sizeof(e->rdata));
	memcpy(e->cnt, le->cnt, sizeof(e->cnt));
}

_Static_assert(sizeof(((struct wggpu_ev *)0)->wmask) == sizeof(((struct wg_link_ev *)0)->wmask), "wmask");
_Static_assert(sizeof(((struct wggpu_ev *)0)->rdata) == sizeof(((struct wg_link_ev *)0)->rdata), "rdata");
_Static_assert(sizeof(((struct wggpu_ev *)0)->cnt) == sizeof(((struct wg_link_ev *)0)->cnt), "cnt");
_Static_assert(sizeof(((struct wggpu_cmd *)0)->data) == sizeof(((struct wg_link_cmd *)0)->data), "data");

void wg_board_info_to_link(const struct wggpu_info *in, struct wg_link_info *li)
{
	memset(li, 0, sizeof(*li));
	li->num_sms = in->num_sms;
	li->num_warps = in->num_warps;
	li->simd_width = in->simd_width;
	li->num_simd = in->num_simd;
	li->num_regs = in->num_regs;
	li->num_ctas = in->num_ctas;
	li->imem_depth = in->imem_depth;
	li->cmem_bytes = in->cmem_bytes;
	li->mem_tag_bits = in->mem_tag_bits;
	li->rsp_depth = in->rsp_depth;
	li->launch_depth = in->launch_depth;
	li->retire_en = in->retire_en;
	li->rf_banks = in->rf_banks;
	li->dmem_bytes = in->dmem_bytes;
	li->l1_sets = in->l1_sets;
	li->l1_mshrs = in->l1_mshrs;
	li->stack_depth = in->stack_depth;
	li->has_fp = in->has_fp;
	li->mem_bytes = WGGPU_MEM_BYTES;
	li->cnt_words = WGGPU_CNT_WORDS;
}

void wg_board_info_from_link(const struct wg_link_info *li, struct wggpu_info *in)
{
	memset(in, 0, sizeof(*in));
	in->num_sms = li->num_sms;
	in->num_warps = li->num_warps;
	in->simd_width = li->simd_width;
	in->num_simd = li->num_simd;
	in->num_regs = li->num_regs;
	in->num_ctas = li->num_ctas;
	in->imem_depth = li->imem_depth;
	in->cmem_bytes = li->cmem_bytes;
	in->mem_tag_bits = li->mem_tag_bits;
	in->rsp_depth = li->rsp_depth;
	in->launch_depth = li->launch_depth;
	in->retire_en = li->retire_en;
	in->rf_banks = li->rf_banks;
	in->dmem_bytes = li->dmem_bytes;
	in->l1_sets = li->l1_sets;
	in->l1_mshrs = li->l1_mshrs;
	in->stack_depth = li->stack_depth;
	in->has_fp = li->has_fp;
}

/* ------------------------------------------------------------------------ */
/* The target                                                                */

struct board {
	struct wg_gmem *gmem;
	struct wg_config cfg;
	struct wg_gpu_host_opts o;
	struct wg_gpu_host_totals tot;
	/* options of the transport */
	char socket_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char exe[PATH_MAX];
	char trace_fst[1024];
	uint32_t batch, max_payload, window, delay_us, rto_ms;
	char board_link[4]; /* board_link: "c", "rtl", or "" (the board program's default, rtl) */
	/* usb target: the transport and its options */
	int usb;
	struct wg_usb *usbdev;
	char firmware[PATH_MAX];
	uint32_t usb_transfers, usb_transfer_bytes, usb_timeout_ms, usb_commit_us;
	struct wg_usb_stats usb_st;
	/* the connection */
	struct wg_board_sock *sock;
	struct wg_link *link;
	pid_t child;
	char child_exe[PATH_MAX];
	struct wggpu_info info;
	uint32_t since_flush;
	int dirty; /* the last launch failed: resynchronise before the next */
	char why[384];
	/* events decoded and not yet popped */
	struct wggpu_ev *q;
	size_t qhead, qn, qcap;
	/* link statistics of connections closed before this one */
	struct wg_link_stats past;
	uint64_t connections;
};

/* The link's retransmission timeout in microseconds: rto_ms, or the default. */
static uint64_t board_rto_us(const struct board *B)
{
	return B->rto_ms ? (uint64_t)B->rto_ms * 1000 : WG_BOARD_RTO_US;
}

static void stats_add(struct wg_link_stats *a, const struct wg_link_stats *b)
{
	a->tx_frames += b->tx_frames;
	a->tx_bytes += b->tx_bytes;
	a->tx_records += b->tx_records;
	a->tx_retx += b->tx_retx;
	a->tx_ctl += b->tx_ctl;
	a->rx_frames += b->rx_frames;
	a->rx_bytes += b->rx_bytes;
	a->rx_records += b->rx_records;
	a->rx_ctl += b->rx_ctl;
	a->naks_sent += b->naks_sent;
	a->naks_rcvd += b->naks_rcvd;
	a->timeouts += b->timeouts;
	for (unsigned i = 0; i < WGL_E_COUNT; i++) {
		a->errors[i] += b->errors[i];
		a->remote_errors[i] += b->remote_errors[i];
	}
}

/* Events from the link, in order, into the queue port_pop takes them from. */
static int on_event(void *arg, const struct wg_link_rec *r)
{
	struct board *B = arg;

	if (!r->ev)
		return 0; /* TRACE: reserved (docs/protocol.md section 9) */
	if (B->qhead == B->qn)
		B->qhead = B->qn = 0;
	if (B->qn == B->qcap) {
		size_t cap = B->qcap ? 2 * B->qcap : 256;
		struct wggpu_ev *n;

		if (B->qhead > B->qn / 2) {
			memmove(B->q, B->q + B->qhead, (B->qn - B->qhead) * sizeof(*B->q));
			B->qn -= B->qhead;
			B->qhead = 0;
		} else {
			n = realloc(B->q, cap * sizeof(*n));
			if (!n)
				return WG_ENOMEM;
			B->q = n;
			B->qcap = cap;
		}
	}
	wg_board_ev_from_link(r->ev, &B->q[B->qn++]);
	return 0;
}

static void reap_child(struct board *B, char *msg, size_t n)
{
	uint64_t t0 = wg_board_now_us();
	int st = 0;
	pid_t got = 0;

	if (B->child <= 0)
		return;
	while ((got = waitpid(B->child, &st, WNOHANG)) == 0 && wg_board_now_us() - t0 < REAP_US)
		usleep(2000);
	if (got == 0) {
		kill(B->child, SIGKILL);
		got = waitpid(B->child, &st, 0);
		if (msg)
			snprintf(msg, n, "killed after %u s", REAP_US / 1000000);
	} else if (got == B->child && msg) {
		if (WIFEXITED(st))
			snprintf(msg, n, "exited with status %d", WEXITSTATUS(st));
		else if (WIFSIGNALED(st))
			snprintf(msg, n, "killed by signal %d", WTERMSIG(st));
	}
	B->child = 0;
}

static void board_close(struct board *B)
{
	struct wg_link_stats st;

	if (B->sock || B->usbdev) {
		wg_link_stats(B->link, &st);
		stats_add(&B->past, &st);
	}
	if (B->sock)
		wg_board_sock_destroy(B->sock); /* the board sees the end of the stream and exits */
	if (B->usbdev) {
		wg_usb_stats(B->usbdev, &B->usb_st);
		wg_usb_close(B->usbdev);
	}
	B->sock = NULL;
	B->usbdev = NULL;
	B->link = NULL;
	reap_child(B, NULL, 0);
	B->qhead = B->qn = 0;
	B->dirty = 0;
}

/* What ended the link, in B->why: the link's report, the socket, or the board process's exit. */
static int link_failure(struct board *B, int rc)
{
	if (B->why[0])
		return WG_ELINK;
	if (B->sock && wg_board_sock_eof(B->sock) && !wg_link_error(B->link)) {
		char st[64] = "";

		if (B->child > 0) {
			reap_child(B, st, sizeof(st));
			snprintf(B->why, sizeof(B->why), "the board process (%.200s) closed the connection%s%s", B->child_exe,
			         st[0] ? ": " : "", st);
		} else {
			snprintf(B->why, sizeof(B->why), "the board at %s closed the connection", B->socket_path);
		}
	} else if (B->sock) {
		snprintf(B->why, sizeof(B->why), "%s", wg_board_sock_why(B->sock));
	} else if (B->usbdev) {
		snprintf(B->why, sizeof(B->why), "%s", wg_usb_why(B->usbdev));
	} else {
		snprintf(B->why, sizeof(B->why), "not connected (%s)", wg_strerror(rc));
	}
	return WG_ELINK;
}

/* One round of I/O; any failure or the end of the stream is a link failure. */
static int board_pump(struct board *B, int64_t wait_us)
{
	int rc;

	if (B->usbdev) {
		rc = wg_usb_pump(B->usbdev, wait_us);
		return rc ? link_failure(B, rc) : 0;
	}
	if (!B->sock)
		return link_failure(B, WG_ELINK);
	rc = wg_board_sock_pump(B->sock, wait_us);
	if (rc || wg_board_sock_eof(B->sock))
		return link_failure(B, rc);
	return 0;
}

/* ---- the port ---------------------------------------------------------- */

static int port_push(void *ctx, const struct wggpu_cmd *c)
{
	struct board *B = ctx;
	struct wg_link_cmd lc;
	int rc;

	if (!B->link)
		return link_failure(B, WG_ELINK);
	wg_board_cmd_to_link(c, &lc);
	rc = wg_link_put_cmd(B->link, &lc);
	if (rc)
		return wg_link_error(B->link) ? link_failure(B, rc) : rc;
	if (B->batch && ++B->since_flush >= B->batch) {
		B->since_flush = 0;
		rc = wg_link_flush(B->link);
		if (!rc)
			rc = board_pump(B, 0); /* the batch goes out while the host prepares the next */
		if (rc)
			return link_failure(B, rc);
	}
	return 0;
}

static int port_run(void *ctx, uint64_t link_cycles)
{
	struct board *B = ctx;
	int rc;

	(void)link_cycles; /* the board runs its own link clock */
	if (!B->link)
		return link_failure(B, WG_ELINK);
	B->since_flush = 0;
	rc = wg_link_flush(B->link);
	if (rc)
		return link_failure(B, rc);
	return board_pump(B, B->qhead < B->qn ? 0 : WAIT_US);
}

static int port_pop(void *ctx, struct wggpu_ev *e)
{
	struct board *B = ctx;

	if (B->qhead == B->qn)
		return 0;
	*e = B->q[B->qhead++];
	return 1;
}

static uint64_t port_link_cycles(void *ctx)
{
	(void)ctx;
	return 0; /* the board's link clock is not visible to the host; the link statistics stand for it */
}

static const struct wg_gpu_port_ops board_ops = {
	.name = "board link",
	.push = port_push,
	.run = port_run,
	.pop = port_pop,
	.link_cycles = port_link_cycles,
};

/* ---- finding and starting the board ------------------------------------ */

static int executable(const char *p)
{
	struct stat sb;

	return p[0] && stat(p, &sb) == 0 && S_ISREG(sb.st_mode) && access(p, X_OK) == 0;
}

/* The program found: its canonical path when there is one (messages name it). */
static int found(const char *p, char *out, size_t n)
{
	char real[PATH_MAX];

	snprintf(out, n, "%s", realpath(p, real) && strlen(real) < n ? real : p);
	return 0;
}

static void tried_add(char *tried, size_t n, const char *p)
{
	size_t l = strlen(tried);

	if (l < n)
		snprintf(tried + l, n - l, "%s%.200s", l ? ", " : "", p);
}

/* The board program: option board_exe, $WG_BOARD_EXE, next to this program or one directory up, $PATH. */
static int find_exe(struct board *B, char *out, size_t n, struct wg_err *err)
{
	char self[PATH_MAX], cand[PATH_MAX + 32], tried[400] = "";
	const char *env = getenv("WG_BOARD_EXE"), *path = getenv("PATH");
	ssize_t len;

	if (B->exe[0] || (env && env[0])) {
		const char *p = B->exe[0] ? B->exe : env;

		if (executable(p))
			return found(p, out, n);
		snprintf(err->msg, sizeof(err->msg), "the board program %.300s (%s) is not an executable file", p,
		         B->exe[0] ? "option board_exe" : "WG_BOARD_EXE");
		return WG_ENOENT;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len > 0) {
		char *slash;

		self[len] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		snprintf(cand, sizeof(cand), "%s/warpgate-board", self);
		tried_add(tried, sizeof(tried), cand);
		if (executable(cand) && strlen(cand) < n)
			return found(cand, out, n);
		snprintf(cand, sizeof(cand), "%s/../warpgate-board", self);
		tried_add(tried, sizeof(tried), cand);
		if (executable(cand) && strlen(cand) < n)
			return found(cand, out, n);
	}
	for (const char *d = path; d && *d;) {
		const char *e = strchr(d, ':');
		size_t dl = e ? (size_t)(e - d) : strlen(d);

		if (dl && dl < PATH_MAX) {
			snprintf(cand, sizeof(cand), "%.*s/warpgate-board", (int)dl, d);
			if (executable(cand) && strlen(cand) < n)
				return found(cand, out, n);
		}
		d = e ? e + 1 : NULL;
	}
	tried_add(tried, sizeof(tried), "every directory of $PATH");
	snprintf(err->msg, sizeof(err->msg), "no warpgate-board program (tried $WG_BOARD_EXE: unset, %.300s); build it "
	         "with 'make board', or name it with WG_BOARD_EXE or --option board_exe=PATH", tried);
	return WG_ENOENT;
}

/* fork and exec the board on one end of a socketpair; *fd gets the other end. */
static int spawn(struct board *B, int *fd, struct wg_err *err)
{
	char a_fd[16], a_idle[32], a_seed[32], a_delay[16], a_pay[16], a_win[16], a_rto[16];
	const char *argv[24];
	int sv[2], k = 0, rc;
	pid_t pid;

	rc = find_exe(B, B->child_exe, sizeof(B->child_exe), err);
	if (rc)
		return rc;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err->msg, sizeof(err->msg), "socketpair: %s", strerror(errno));
		return WG_EIO;
	}
	snprintf(a_fd, sizeof(a_fd), "%d", 3);
	argv[k++] = B->child_exe;
	argv[k++] = "--fd";
	argv[k++] = a_fd;
	if (B->trace_fst[0]) {
		argv[k++] = "--trace-fst";
		argv[k++] = B->trace_fst;
	}
	if (B->o.cmd_idle || B->o.ev_idle) {
		snprintf(a_idle, sizeof(a_idle), "%u,%u", B->o.cmd_idle, B->o.ev_idle);
		snprintf(a_seed, sizeof(a_seed), "%" PRIu64, B->o.link_seed);
		argv[k++] = "--link-idle";
		argv[k++] = a_idle;
		argv[k++] = "--link-seed";
		argv[k++] = a_seed;
	}
	if (B->delay_us) {
		snprintf(a_delay, sizeof(a_delay), "%u", B->delay_us);
		argv[k++] = "--link-delay-us";
		argv[k++] = a_delay;
	}
	if (B->max_payload) {
		snprintf(a_pay, sizeof(a_pay), "%u", B->max_payload);
		argv[k++] = "--max-payload";
		argv[k++] = a_pay;
	}
	if (B->window) {
		snprintf(a_win, sizeof(a_win), "%u", B->window);
		argv[k++] = "--window";
		argv[k++] = a_win;
	}
	if (B->board_link[0]) {
		argv[k++] = "--link";
		argv[k++] = B->board_link;
	}
	if (B->rto_ms) {
		snprintf(a_rto, sizeof(a_rto), "%u", B->rto_ms);
		argv[k++] = "--rto-ms";
		argv[k++] = a_rto;
	}
	argv[k] = NULL;
	pid = fork();
	if (pid < 0) {
		snprintf(err->msg, sizeof(err->msg), "fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return WG_EIO;
	}
	if (pid == 0) {
		/* the child: its end as fd 3, without close-on-exec; only async-signal-safe calls */
		static const char failed[] = "warpgate-board: exec failed\n";

		if (sv[1] == 3)
			fcntl(3, F_SETFD, 0);
		else if (dup2(sv[1], 3) < 0)
			_exit(126);
		execv(B->child_exe, (char *const *)argv);
		if (write(2, failed, sizeof(failed) - 1) < 0)
			_exit(127);
		_exit(127);
	}
	close(sv[1]);
	B->child = pid;
	*fd = sv[0];
	wg_info("board: started %s (pid %d)", B->child_exe, (int)pid);
	return 0;
}

static int connect_path(struct board *B, int *fd, struct wg_err *err)
{
	struct sockaddr_un a;
	int s;

	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", B->socket_path);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		snprintf(err->msg, sizeof(err->msg), "socket: %s", strerror(errno));
		return WG_EIO;
	}
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) < 0) {
		snprintf(err->msg, sizeof(err->msg), "cannot connect to the board at %s: %s (start it first: "
		         "warpgate-board --socket %s)", B->socket_path, strerror(errno), B->socket_path);
		close(s);
		return WG_ELINK;
	}
	*fd = s;
	return 0;
}

/* Connect (start the board or reach it at socket_path) and wait for its HELLO. */
static int board_open(struct board *B, struct wg_err *err)
{
	struct wg_board_sock_params p;
	const struct wg_link_info *peer;
	uint64_t t0;
	int fd = -1, rc;

	B->why[0] = '\0';
	memset(&p, 0, sizeof(p));
	p.link.role = WGL_ROLE_HOST;
	p.link.max_payload = B->max_payload;
	p.link.window = B->window;
	p.link.rto = board_rto_us(B);
	p.link.max_retries = WG_BOARD_RETRIES;
	p.link.on_rec = on_event;
	p.link.arg = B;
	p.delay_us = B->delay_us;
	if (B->usb) {
		struct wg_usb_params up;

		memset(&up, 0, sizeof(up));
		up.link = p.link;
		up.firmware = B->firmware[0] ? B->firmware : NULL;
		up.transfers = B->usb_transfers;
		up.transfer_bytes = B->usb_transfer_bytes;
		up.timeout_ms = B->usb_timeout_ms;
		up.commit_us = B->usb_commit_us;
		rc = wg_usb_open(&B->usbdev, &up, err->msg, sizeof(err->msg));
		if (rc)
			return rc == WG_ENOMEM || rc == WG_EINVAL || rc == WG_ECONFIG ? rc : WG_ELINK;
		B->link = wg_usb_link(B->usbdev);
	} else {
		rc = B->socket_path[0] ? connect_path(B, &fd, err) : spawn(B, &fd, err);
		if (rc)
			return rc;
		rc = wg_board_sock_create(&B->sock, fd, &p);
		if (rc) {
			close(fd);
			reap_child(B, NULL, 0);
			snprintf(err->msg, sizeof(err->msg), "board link: %s", wg_strerror(rc));
			return rc;
		}
		B->link = wg_board_sock_link(B->sock);
	}
	B->connections++;
	t0 = wg_board_now_us();
	while (!rc && !wg_link_up(B->link))
		rc = board_pump(B, WAIT_US);
	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "no answer to HELLO from the board after %.1f s: %s",
		         (double)(wg_board_now_us() - t0) / 1e6, B->why);
		board_close(B);
		return WG_ELINK;
	}
	peer = wg_link_peer(B->link);
	wg_board_info_from_link(peer, &B->info);
	wg_info("board: link up after %.3f s: %u SMs, %u-bit memory tags", (double)(wg_board_now_us() - t0) / 1e6,
	        B->info.num_sms, B->info.mem_tag_bits);
	if (B->cfg.num_sms > B->info.num_sms) {
		snprintf(err->msg, sizeof(err->msg), "the configuration asks for %u SMs, the board's GPU has %u "
		         "(make gpu-lib board GPU_NUM_SMS=%u)", B->cfg.num_sms, B->info.num_sms, B->cfg.num_sms);
		board_close(B);
		return WG_ECONFIG;
	}
	{
		char why[200];

		rc = wg_gpu_host_check_build(&B->cfg, &B->info, why, sizeof(why));
		if (rc) {
			snprintf(err->msg, sizeof(err->msg), "the board does not fit the configuration: %s", why);
			board_close(B);
			return rc;
		}
	}
	return 0;
}

/*
 * After a failed launch the GPU may still hold events of it: RESET, then a
 * counter read whose COUNTERS event marks the end of everything before it.
 */
static int board_resync(struct board *B, struct wg_err *err)
{
	struct wggpu_cmd c;
	uint64_t t0 = wg_board_now_us();
	int rc;

	memset(&c, 0, sizeof(c));
	B->qhead = B->qn = 0;
	c.op = WGGPU_RESET;
	rc = port_push(B, &c);
	c.op = WGGPU_CNT_READ;
	if (!rc)
		rc = port_push(B, &c);
	while (!rc) {
		int found = 0;

		rc = port_run(B, 0);
		while (!rc && B->qhead < B->qn)
			found |= B->q[B->qhead++].kind == WGGPU_EV_COUNTERS;
		if (found)
			return 0;
		if (!rc && wg_board_now_us() - t0 > wg_link_retry_span(board_rto_us(B), WG_BOARD_RETRIES))
			rc = WG_ETIMEOUT;
	}
	snprintf(err->msg, sizeof(err->msg), "board: resynchronising after the failed launch: %s",
	         rc == WG_ETIMEOUT ? "no answer" : B->why);
	return rc;
}

/* ---- target ops -------------------------------------------------------- */

static int parse_u32(const char *v, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char *end;
	unsigned long long x;

	if (!v || !*v)
		return WG_EINVAL;
	errno = 0;
	x = strtoull(v, &end, 0);
	if (*end || errno || x < lo || x > hi)
		return WG_EINVAL;
	*out = (uint32_t)x;
	return 0;
}

/* A configuration key (docs/config.md) for the launches to come, as the gpu target takes them. */
static int config_option(struct board *B, const char *key, const char *value, struct wg_err *err)
{
	struct wg_config c = B->cfg;
	char why[256] = "";

	if (!strcmp(key, "n_sm") || !strcmp(key, "config")) {
		snprintf(err->msg, sizeof(err->msg), "%s cannot change after the device is opened (use --config)", key);
		return WG_EINVAL;
	}
	if (wg_config_set(&c, key, value ? value : "", why, sizeof(why)) == 0) {
		B->cfg = c;
		return 0;
	}
	if (strstr(why, "unknown key"))
		return WG_ENOTSUP;
	snprintf(err->msg, sizeof(err->msg), "%s", why);
	return WG_EINVAL;
}

static int board_set_option(void *priv, const char *key, const char *value, struct wg_err *err)
{
	struct board *B = priv;
	int rc = 0, reconnect = 1;

	if (B->usb && (!strcmp(key, "socket") || !strcmp(key, "board_exe") || !strcmp(key, "board_link") ||
	               !strcmp(key, "link_delay_us") || !strcmp(key, "trace_fst"))) {
		snprintf(err->msg, sizeof(err->msg), "option %s belongs to the board target's process, not to usb "
		         "(usb takes firmware, usb_transfers, usb_transfer_bytes, usb_timeout_ms, usb_commit_us, batch, "
		         "max_payload, window, rto_ms and the gpu target's options)", key);
		return WG_ENOTSUP;
	}
	if (!B->usb && (!strcmp(key, "firmware") || !strncmp(key, "usb_", 4))) {
		snprintf(err->msg, sizeof(err->msg), "option %s belongs to the usb target", key);
		return WG_ENOTSUP;
	}
	if (!strcmp(key, "firmware")) {
		if (value && strlen(value) >= sizeof(B->firmware)) {
			snprintf(err->msg, sizeof(err->msg), "firmware path longer than %zu bytes", sizeof(B->firmware) - 1);
			return WG_EINVAL;
		}
		snprintf(B->firmware, sizeof(B->firmware), "%s", value ? value : "");
	} else if (!strcmp(key, "usb_transfers")) {
		rc = parse_u32(value, 1, 64, &B->usb_transfers);
	} else if (!strcmp(key, "usb_transfer_bytes")) {
		rc = parse_u32(value, 512, 1u << 20, &B->usb_transfer_bytes);
		if (!rc && B->usb_transfer_bytes % 512)
			rc = WG_EINVAL;
	} else if (!strcmp(key, "usb_timeout_ms")) {
		rc = parse_u32(value, 1, 3600000, &B->usb_timeout_ms);
	} else if (!strcmp(key, "usb_commit_us")) {
		if (value && !strcmp(value, "off"))
			B->usb_commit_us = WG_USB_COMMIT_OFF;
		else
			rc = parse_u32(value, 100, 10000000, &B->usb_commit_us);
	} else if (!strcmp(key, "socket")) {
		if (value && strlen(value) >= sizeof(B->socket_path)) {
			snprintf(err->msg, sizeof(err->msg), "socket path longer than %zu bytes",
			         sizeof(B->socket_path) - 1);
			return WG_EINVAL;
		}
		snprintf(B->socket_path, sizeof(B->socket_path), "%s", value ? value : "");
	} else if (!strcmp(key, "board_exe")) {
		snprintf(B->exe, sizeof(B->exe), "%s", value ? value : "");
	} else if (!strcmp(key, "trace_fst")) {
		snprintf(B->trace_fst, sizeof(B->trace_fst), "%s", value ? value : "");
	} else if (!strcmp(key, "batch")) {
		rc = parse_u32(value, 0, 1u << 20, &B->batch);
		reconnect = 0;
	} else if (!strcmp(key, "max_payload")) {
		rc = parse_u32(value, WGL_PAYLOAD_MIN, WGL_PAYLOAD_MAX, &B->max_payload);
		if (!rc && B->max_payload % WGL_ALIGN)
			rc = WG_EINVAL;
	} else if (!strcmp(key, "window")) {
		rc = parse_u32(value, 1, 1024, &B->window);
	} else if (!strcmp(key, "link_delay_us")) {
		rc = parse_u32(value, 0, 10000000, &B->delay_us);
	} else if (!strcmp(key, "rto_ms")) {
		rc = parse_u32(value, 1, 600000, &B->rto_ms);
	} else if (!strcmp(key, "board_link")) {
		if (!value || (strcmp(value, "c") && strcmp(value, "rtl"))) {
			snprintf(err->msg, sizeof(err->msg), "bad value '%s' for option board_link (c or rtl)",
			         value ? value : "(null)");
			return WG_EINVAL;
		}
		snprintf(B->board_link, sizeof(B->board_link), "%s", value);
	} else {
		rc = wg_gpu_host_option(&B->o, key, value, err);
		if (rc == WG_ENOTSUP)
			rc = config_option(B, key, value, err);
		if (rc == WG_ENOTSUP)
			snprintf(err->msg, sizeof(err->msg), "unknown option (board takes socket, board_exe, board_link, "
			         "batch, max_payload, window, link_delay_us, rto_ms, trace_fst, sched, l1_mode, l1_split, "
			         "grant_window, link_idle, link_seed, watchdog, mem_latency, and the configuration keys "
			         "of docs/config.md)");
		if (rc)
			return rc;
		/* the idle emulation lives in the board's model */
		reconnect = !strcmp(key, "link_idle") || !strcmp(key, "link_seed");
	}
	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "bad value '%s' for option %s", value ? value : "(null)", key);
		return rc;
	}
	if (reconnect && (B->sock || B->usbdev))
		board_close(B); /* the next launch starts or reaches the board with the new setting */
	return 0;
}

static int board_create(void **priv, struct wg_gmem *gmem, const struct wg_config *cfg, struct wg_err *err)
{
	struct board *B = calloc(1, sizeof(*B));
	const char *env;

	(void)err;
	if (!B)
		return WG_ENOMEM;
	B->gmem = gmem;
	B->cfg = *cfg;
	wg_gpu_host_opts_default(&B->o);
	/* as the gpu target: the L1 mode and split of the configuration; l1_mode and l1_split override them */
	if (cfg->l1_cache_global)
		B->o.l1_ctrl |= 1u;
	if (cfg->shmem_bytes && cfg->shmem_bytes <= cfg->shmem_l1_bytes / 4)
		B->o.l1_ctrl |= 2u;
	env = getenv("WG_SIM_TRACE_FST");
	if (env)
		snprintf(B->trace_fst, sizeof(B->trace_fst), "%s", env);
	*priv = B;
	return 0;
}

static void board_destroy(void *priv)
{
	struct board *B = priv;

	if (!B)
		return;
	board_close(B);
	wg_gpu_host_totals_free(&B->tot);
	free(B->q);
	free(B);
}

static int board_launch(void *priv, const struct wg_launch *l, struct wg_stats *st, struct wg_retire_log *log,
                        struct wg_err *err)
{
	struct board *B = priv;
	struct wg_gpu_host_env env = {
		.ops = &board_ops,
		.ctx = B,
		.info = &B->info,
		.gmem = B->gmem,
		.cfg = &B->cfg,
		.opts = &B->o,
	};
	int rc = 0, old_round;
	double hs0;
	uint64_t t0;

	(void)log;
	err->msg[0] = '\0';
	if (!B->sock && !B->usbdev)
		rc = board_open(B, err);
	if (!rc && B->dirty)
		rc = board_resync(B, err);
	if (rc) {
		if (rc == WG_ELINK || rc == WG_ETIMEOUT)
			board_close(B);
		return rc;
	}
	B->qhead = B->qn = 0;
	B->why[0] = '\0';
	hs0 = B->tot.host_seconds;
	t0 = wg_board_now_us();
	old_round = fegetround();
	fesetround(FE_TONEAREST); /* ATOMG.ADD.F32 on the host */
	rc = wg_gpu_host_launch(&env, l, st, &B->tot, err);
	fesetround(old_round);
	/* gpu_host counts this process's CPU time; the GPU runs in the board's: the speed is wall-clock here */
	B->tot.host_seconds = hs0 + (double)(wg_board_now_us() - t0) / 1e6;
	if (rc && (B->why[0] || (!B->sock && !B->usbdev) || wg_link_error(B->link) ||
	           (B->sock && wg_board_sock_eof(B->sock)))) {
		size_t n = strlen(err->msg);

		link_failure(B, rc);
		if (n)
			snprintf(err->msg + n, sizeof(err->msg) - n, "; board link: %s", B->why);
		else
			snprintf(err->msg, sizeof(err->msg), "kernel '%s': board link: %s", l->kernel->name, B->why);
		board_close(B);
		return WG_ELINK;
	}
	B->dirty = rc != 0;
	return rc;
}

static void board_stats_json(void *priv, struct wg_json *j)
{
	struct board *B = priv;
	struct wg_link_stats s = B->past, cur;
	uint64_t errs = 0, remote = 0;

	if (B->link) {
		wg_link_stats(B->link, &cur);
		stats_add(&s, &cur);
	}
	wg_gpu_host_totals_json(&B->tot, &B->o, j);
	for (unsigned i = 0; i < WGL_E_COUNT; i++) {
		errs += s.errors[i];
		remote += s.remote_errors[i];
	}
	wg_json_begin_object(j, "link");
	wg_json_str(j, "transport", B->usb ? "usb" : B->socket_path[0] ? "unix socket" : "unix socketpair");
	wg_json_u64(j, "connections", B->connections);
	wg_json_u64(j, "batch", B->batch);
	if (!B->usb) {
		wg_json_u64(j, "link_delay_us", B->delay_us);
		wg_json_str(j, "board_link", B->socket_path[0] ? "started by hand" :
		            B->board_link[0] ? B->board_link : "rtl");
	}
	wg_json_u64(j, "tx_frames", s.tx_frames);
	wg_json_u64(j, "tx_bytes", s.tx_bytes);
	wg_json_u64(j, "tx_records", s.tx_records);
	wg_json_u64(j, "tx_retransmitted", s.tx_retx);
	wg_json_u64(j, "tx_control", s.tx_ctl);
	wg_json_u64(j, "rx_frames", s.rx_frames);
	wg_json_u64(j, "rx_bytes", s.rx_bytes);
	wg_json_u64(j, "rx_records", s.rx_records);
	wg_json_u64(j, "rx_control", s.rx_ctl);
	wg_json_u64(j, "naks_sent", s.naks_sent);
	wg_json_u64(j, "naks_received", s.naks_rcvd);
	wg_json_u64(j, "timeouts", s.timeouts);
	wg_json_u64(j, "crc_errors", s.errors[WGL_E_CRC]);
	wg_json_u64(j, "errors", errs);
	wg_json_u64(j, "board_crc_errors", s.remote_errors[WGL_E_CRC]);
	wg_json_u64(j, "board_errors", remote);
	if (B->usb) {
		struct wg_usb_stats u = B->usb_st;

		if (B->usbdev)
			wg_usb_stats(B->usbdev, &u);
		wg_json_begin_object(j, "usb");
		wg_json_u64(j, "bus", u.bus);
		wg_json_u64(j, "address", u.address);
		wg_json_u64(j, "firmware_loaded", u.firmware_loaded);
		wg_json_u64(j, "out_transfers", u.out_transfers);
		wg_json_u64(j, "in_transfers", u.in_transfers);
		wg_json_u64(j, "out_bytes", u.out_bytes);
		wg_json_u64(j, "in_bytes", u.in_bytes);
		wg_json_u64(j, "in_commits", u.in_commits);
		wg_json_u64(j, "in_empty", u.in_empty);
		wg_json_double(j, "open_seconds", u.open_seconds);
		wg_json_end_object(j);
	}
	wg_json_end_object(j);
}

const struct wg_target_ops wg_target_board = {
	.name = "board",
	.description = "the Verilated GPU in its own process (build/warpgate-board) over the framed link on a "
	               "Unix socket",
	.create = board_create,
	.destroy = board_destroy,
	.launch = board_launch,
	.set_option = board_set_option,
	.stats_json = board_stats_json,
};

static int usb_create(void **priv, struct wg_gmem *gmem, const struct wg_config *cfg, struct wg_err *err)
{
	int rc = board_create(priv, gmem, cfg, err);

	if (!rc)
		((struct board *)*priv)->usb = 1;
	return rc;
}

const struct wg_target_ops wg_target_usb = {
	.name = "usb",
	.description = "the FPGA board on USB: the framed link over the FX2LP bridge's bulk endpoints (libusb; "
	               "the firmware is loaded when needed)",
	.create = usb_create,
	.destroy = board_destroy,
	.launch = board_launch,
	.set_option = board_set_option,
	.stats_json = board_stats_json,
};
