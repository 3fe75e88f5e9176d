/*
 * warpgate-board: the GPU in its own process, serving the GPU side of the
 * framed link (docs/protocol.md) on a Unix stream socket: the stand-in for the
 * board on USB (docs/board.md).
 *
 * --link rtl (default): the socket's bytes go straight into the Verilated board
 * core (sim/wgboard.h: the RTL link engine wg_link and the GPU top wg_gpu) and
 * its bytes straight back; the process only moves bytes and runs the clock.
 * --link c: frames in -> the C link (host/src/link.c) -> commands into the
 * Verilated GPU top (sim/wggpu.h) -> events -> frames out.
 *
 * The model runs while it has work and the process sleeps in poll() otherwise.
 * It serves one connection and exits when the host closes it.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "../../sim/wgboard.h"
#include "../../sim/wggpu.h"
#include "link.h"
#include "log.h"
#include "target_board.h"
#include "warpgate.h"

#define TICK 4          /* link cycles between looks at the event queue */
#define BURST_US 2000   /* longest run of the model between looks at the socket */
#define CHUNK 256       /* RTL link: link cycles between looks at the socket */
#define MAX_CORRUPT 16

static volatile sig_atomic_t stop_signal;

struct opts {
	const char *socket_path, *trace_fst;
	int fd;
	int rtl;      /* --link rtl (default) or c */
	uint32_t cmd_idle, ev_idle, delay_us, max_payload, window, rto_ms;
	uint64_t seed;
	int verbose;
	/* --corrupt-rx / --corrupt-tx: stream offsets of bytes damaged on the wire (tests) */
	uint64_t corrupt[2][MAX_CORRUPT];
	unsigned ncorrupt[2];
};

struct board {
	struct wggpu *g;
	struct wg_board_sock *sock;
	struct wg_link *link;
	int want_reached;        /* a GRANT is not answered by REACHED yet */
	uint64_t last_grant;     /* the latest GRANT's cycle */
	uint32_t want_counters;  /* CNT_READs not answered by COUNTERS yet */
	uint64_t cmds, events, link_cycles;
};

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: warpgate-board (--socket PATH | --fd N) [options]\n"
	        "The Verilated GPU in its own process, serving the framed link (docs/protocol.md) on a Unix\n"
	        "stream socket; libwarpgate's board target talks to it (docs/board.md).\n"
	        "\n"
	        "  --socket PATH        listen on PATH, serve the first connection, exit when the host closes it\n"
	        "  --fd N               serve the connected stream socket N (how the board target starts it)\n"
	        "  --link rtl|c         the link: the RTL link engine in the Verilated board core (default), or\n"
	        "                       the C link (host/src/link.c) in front of the Verilated GPU\n"
	        "  --trace-fst FILE     FST waveform of the whole GPU (with the RTL link: of the board core)\n"
	        "  --link-idle CMD,EV   per mille of link cycles the command / event side idles (tests; RTL link:\n"
	        "                       the byte input / output)\n"
	        "  --link-seed N        seed of the idle pattern (default 1)\n"
	        "  --link-delay-us N    hold every frame N microseconds before it is written (slow link)\n"
	        "  --max-payload N      C link: largest frame payload accepted, %u..%u bytes (default %u;\n"
	        "                       the RTL engine's is its build's)\n"
	        "  --window N           C link: event frames in flight (default 16; the RTL engine's: its build's)\n"
	        "  --rto-ms N           retransmission timeout (default %u; RTL link: how long the board waits\n"
	        "                       for the host before it runs the engine's own timeout)\n"
	        "  --corrupt-rx OFF,..  RTL link, tests: flip a bit of the bytes at these offsets of the stream\n"
	        "                       read from the socket (up to %u)\n"
	        "  --corrupt-tx OFF,..  ... of the stream written to it\n"
	        "  -v, --verbose        link and model figures at exit\n"
	        "  -h, --help           this text\n",
	        WGL_PAYLOAD_MIN, WGL_PAYLOAD_MAX, WGL_PAYLOAD_MAX, WG_BOARD_RTO_US / 1000, MAX_CORRUPT);
}

static int bad_arg(const char *opt, const char *v, const char *want)
{
	fprintf(stderr, "warpgate-board: %s: bad value '%s' (%s)\n", opt, v, want);
	return 2;
}

static int parse_u32(const char *v, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(v, &end, 0);
	if (!*v || *end || errno || x < lo || x > hi)
		return -1;
	*out = (uint32_t)x;
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "socket", required_argument, NULL, 's' },     { "fd", required_argument, NULL, 'f' },
		{ "trace-fst", required_argument, NULL, 't' },  { "link-idle", required_argument, NULL, 'i' },
		{ "link-seed", required_argument, NULL, 'S' },  { "link-delay-us", required_argument, NULL, 'd' },
		{ "max-payload", required_argument, NULL, 'p' }, { "window", required_argument, NULL, 'w' },
		{ "rto-ms", required_argument, NULL, 'r' },     { "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },             { "link", required_argument, NULL, 'L' },
		{ "corrupt-rx", required_argument, NULL, 'R' }, { "corrupt-tx", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t v;
	int c;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->seed = 1;
	o->rtl = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vh", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			o->socket_path = optarg;
			break;
		case 'f':
			if (parse_u32(optarg, 0, 65535, &v))
				return bad_arg("--fd", optarg, "a file descriptor number");
			o->fd = (int)v;
			break;
		case 't':
			o->trace_fst = optarg;
			break;
		case 'i': {
			unsigned a, b;
			char tail;

			if (sscanf(optarg, "%u,%u%c", &a, &b, &tail) != 2 || a > 900 || b > 900)
				return bad_arg("--link-idle", optarg, "CMD,EV per mille, each 0..900");
			o->cmd_idle = a;
			o->ev_idle = b;
			break;
		}
		case 'S': {
			char *end;

			errno = 0;
			o->seed = strtoull(optarg, &end, 0);
			if (!*optarg || *end || errno)
				return bad_arg("--link-seed", optarg, "an integer");
			break;
		}
		case 'd':
			if (parse_u32(optarg, 0, 10000000, &o->delay_us))
				return bad_arg("--link-delay-us", optarg, "0..10000000");
			break;
		case 'p':
			if (parse_u32(optarg, WGL_PAYLOAD_MIN, WGL_PAYLOAD_MAX, &o->max_payload) || o->max_payload % WGL_ALIGN)
				return bad_arg("--max-payload", optarg, "a multiple of 4 in 1024..16364");
			break;
		case 'w':
			if (parse_u32(optarg, 1, 1024, &o->window))
				return bad_arg("--window", optarg, "1..1024");
			break;
		case 'r':
			if (parse_u32(optarg, 1, 600000, &o->rto_ms))
				return bad_arg("--rto-ms", optarg, "1..600000");
			break;
		case 'L':
			if (strcmp(optarg, "rtl") && strcmp(optarg, "c"))
				return bad_arg("--link", optarg, "rtl or c");
			o->rtl = !strcmp(optarg, "rtl");
			break;
		case 'R':
		case 'T': {
			int dir = c == 'T';
			const char *p = optarg;

			o->ncorrupt[dir] = 0;
			for (;;) {
				char *end;
				unsigned long long x;

				errno = 0;
				x = strtoull(p, &end, 0);
				if (end == p || errno || (*end && *end != ',') || o->ncorrupt[dir] == MAX_CORRUPT)
					return bad_arg(dir ? "--corrupt-tx" : "--corrupt-rx", optarg,
					               "up to 16 byte offsets, separated by commas");
				o->corrupt[dir][o->ncorrupt[dir]++] = x;
				if (!*end)
					break;
				p = end + 1;
			}
			break;
		}
		case 'v':
			o->verbose = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			fprintf(stderr, "warpgate-board: option '%s' needs an argument (--help)\n", argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "warpgate-board: unknown option '%s' (--help)\n", argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "warpgate-board: unexpected argument '%s' (--help)\n", argv[optind]);
		return 2;
	}
	if (!o->socket_path == (o->fd < 0)) {
		fprintf(stderr, "warpgate-board: give exactly one of --socket PATH and --fd N (--help)\n");
		return 2;
	}
	if (!o->rtl && (o->ncorrupt[0] || o->ncorrupt[1])) {
		fprintf(stderr, "warpgate-board: --corrupt-rx and --corrupt-tx need --link rtl\n");
		return 2;
	}
	return 0;
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* ---- listening --------------------------------------------------------- */

static int listen_on(const char *path)
{
	struct sockaddr_un a;
	struct stat sb;
	int s;

	if (strlen(path) >= sizeof(a.sun_path)) {
		fprintf(stderr, "warpgate-board: socket path '%s' is longer than %zu bytes\n", path,
		        sizeof(a.sun_path) - 1);
		return -1;
	}
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	memcpy(a.sun_path, path, strlen(path) + 1);
	if (lstat(path, &sb) == 0) {
		int probe;

		if (!S_ISSOCK(sb.st_mode)) {
			fprintf(stderr, "warpgate-board: %s exists and is not a socket\n", path);
			return -1;
		}
		/* a socket file: in use by a live board, or left behind by one that died */
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe >= 0 && connect(probe, (struct sockaddr *)&a, sizeof(a)) == 0) {
			close(probe);
			fprintf(stderr, "warpgate-board: %s: another board is serving this socket\n", path);
			return -1;
		}
		if (probe >= 0)
			close(probe);
		unlink(path);
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		fprintf(stderr, "warpgate-board: socket: %s\n", strerror(errno));
		return -1;
	}
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 1) < 0) {
		fprintf(stderr, "warpgate-board: cannot listen on %s: %s\n", path, strerror(errno));
		close(s);
		return -1;
	}
	return s;
}

static int accept_one(int ls, const char *path)
{
	int fd;

	do
		fd = accept(ls, NULL, NULL);
	while (fd < 0 && errno == EINTR && !stop_signal);
	if (fd < 0 && !stop_signal)
		fprintf(stderr, "warpgate-board: accept on %s: %s\n", path, strerror(errno));
	close(ls);
	unlink(path); /* one connection per board process: the path is free again */
	return fd;
}

/* ---- serving ----------------------------------------------------------- */

static int busy(const struct board *b)
{
	return wggpu_cmds_pending(b->g) || b->want_reached || b->want_counters;
}

/* A command from the host: into the model's queue. */
static int on_command(void *arg, const struct wg_link_rec *r)
{
	struct board *b = arg;
	struct wggpu_cmd c;

	if (!r->cmd)
		return 0;
	wg_board_cmd_from_link(r->cmd, &c);
	switch (c.op) {
	case WGGPU_RESET:
		b->want_reached = 0;
		b->want_counters = 0;
		b->last_grant = 0;
		break;
	case WGGPU_GRANT:
		b->want_reached = 1;
		b->last_grant = c.at;
		break;
	case WGGPU_CNT_READ:
		b->want_counters++;
		break;
	default:
		break;
	}
	b->cmds++;
	return wggpu_push(b->g, &c);
}

/* Every event the model has given into the link; *urgent: one the host waits for. */
static int drain(struct board *b, int *urgent)
{
	struct wggpu_ev e;
	struct wg_link_ev le;

	while (wggpu_pop(b->g, &e) == 1) {
		int rc;

		wg_board_ev_to_link(&e, &le);
		rc = wg_link_put_ev(b->link, &le);
		if (rc) {
			fprintf(stderr, "warpgate-board: event kind %u of SM %u at cycle %" PRIu64 " not sent: %s\n", e.kind,
			        e.sm, e.cycle, wg_strerror(rc));
			return rc;
		}
		b->events++;
		switch (e.kind) {
		case WGGPU_EV_REACHED:
			if (e.cycle >= b->last_grant)
				b->want_reached = 0;
			*urgent = 1;
			break;
		case WGGPU_EV_COUNTERS:
			if (b->want_counters)
				b->want_counters--;
			*urgent = 1;
			break;
		case WGGPU_EV_FAULT:
		case WGGPU_EV_ERROR:
			b->want_reached = 0; /* target time has stopped until the next RESET */
			*urgent = 1;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* Run the model for up to BURST_US or until it gives an event the host waits for. */
static int run_burst(struct board *b)
{
	uint64_t t0 = wg_board_now_us();
	int urgent = 0, rc = 0;

	for (unsigned i = 0; !rc && !urgent && busy(b); i++) {
		wggpu_tick(b->g, TICK);
		b->link_cycles += TICK;
		rc = drain(b, &urgent);
		if ((i & 15) == 15 && wg_board_now_us() - t0 >= BURST_US)
			break;
	}
	if (!rc && (urgent || !busy(b)))
		rc = wg_link_flush(b->link); /* the host is waiting for these */
	return rc;
}

static int serve(struct board *b)
{
	for (;;) {
		int rc = wg_board_sock_pump(b->sock, busy(b) ? 0 : -1);

		if (rc) {
			fprintf(stderr, "warpgate-board: link failed: %s\n", wg_board_sock_why(b->sock));
			return 1;
		}
		if (wg_board_sock_eof(b->sock))
			return 0;
		if (stop_signal) {
			fprintf(stderr, "warpgate-board: stopped by signal %d\n", (int)stop_signal);
			return 1;
		}
		if (busy(b) && run_burst(b)) {
			fprintf(stderr, "warpgate-board: link failed: %s\n", wg_board_sock_why(b->sock));
			return 1;
		}
	}
}

static void print_stats(const struct board *b)
{
	struct wg_link_stats s;

	wg_link_stats(b->link, &s);
	fprintf(stderr,
	        "warpgate-board: %" PRIu64 " commands, %" PRIu64 " events, %" PRIu64 " link cycles, target cycle %"
	        PRIu64 "\n"
	        "warpgate-board: link: rx %" PRIu64 " frames %" PRIu64 " bytes, tx %" PRIu64 " frames %" PRIu64
	        " bytes, %" PRIu64 " retransmitted, %" PRIu64 " NAKs sent, %" PRIu64 " received, %" PRIu64
	        " timeouts, %" PRIu64 " CRC errors\n",
	        b->cmds, b->events, b->link_cycles, wggpu_cycle(b->g), s.rx_frames, s.rx_bytes, s.tx_frames,
	        s.tx_bytes, s.tx_retx, s.naks_sent, s.naks_rcvd, s.timeouts, s.errors[WGL_E_CRC]);
}

/* ---- the RTL link: bytes straight into the board core -------------------- */

/* Bytes taken from the core, each run written at `due` (now + --link-delay-us). */
struct seg {
	uint64_t due;
	size_t len, off;
	uint8_t *data;
};

struct rtl {
	struct wgboard *core;
	int fd, eof;
	const struct opts *o;
	uint64_t rx_off, tx_off; /* bytes read from / handed to the socket so far */
	struct seg *q;
	size_t qhead, qn, qcap;
	uint64_t waits;          /* times the board ran the engine's timers after --rto-ms without the host */
	uint64_t last_rx_us;     /* when bytes last came from the host */
};

static int corrupt_at(const struct opts *o, int dir, uint64_t off)
{
	for (unsigned i = 0; i < o->ncorrupt[dir]; i++)
		if (o->corrupt[dir][i] == off)
			return 1;
	return 0;
}

/* Everything the socket has: into the core. -1 on a socket error (reported). */
static int rtl_read(struct rtl *r)
{
	uint8_t buf[65536];

	while (!r->eof) {
		ssize_t n = recv(r->fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n == 0) {
			r->eof = 1;
			break;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (errno == ECONNRESET) {
				r->eof = 1;
				break;
			}
			fprintf(stderr, "warpgate-board: recv: %s\n", strerror(errno));
			return -1;
		}
		for (ssize_t i = 0; i < n; i++)
			if (corrupt_at(r->o, 0, r->rx_off + (uint64_t)i))
				buf[i] ^= 0x10;
		r->rx_off += (uint64_t)n;
		r->last_rx_us = wg_board_now_us();
		wgboard_rx(r->core, buf, (size_t)n);
	}
	return 0;
}

/* The core's bytes: into the output queue. */
static int rtl_take(struct rtl *r)
{
	size_t n = wgboard_tx_pending(r->core);
	struct seg *sg;

	if (!n)
		return 0;
	if (r->qn == r->qcap) {
		size_t cap = r->qcap ? 2 * r->qcap : 64;
		struct seg *q = realloc(r->q, cap * sizeof(*q));

		if (!q)
			return -1;
		r->q = q;
		r->qcap = cap;
	}
	sg = &r->q[r->qn];
	sg->data = malloc(n);
	if (!sg->data)
		return -1;
	sg->len = wgboard_tx(r->core, sg->data, n);
	sg->off = 0;
	sg->due = r->o->delay_us ? wg_board_now_us() + r->o->delay_us : 0;
	for (size_t i = 0; i < sg->len; i++)
		if (corrupt_at(r->o, 1, r->tx_off + i))
			sg->data[i] ^= 0x10;
	r->tx_off += sg->len;
	r->qn++;
	return 0;
}

/* Write what is due and the socket takes. -1 on a socket error; *next_due: the next held run. */
static int rtl_write(struct rtl *r, uint64_t *next_due)
{
	uint64_t now = r->o->delay_us ? wg_board_now_us() : 0;

	*next_due = 0;
	while (r->qhead < r->qn) {
		struct seg *sg = &r->q[r->qhead];
		ssize_t n;

		if (sg->due > now) {
			*next_due = sg->due;
			break;
		}
		n = send(r->fd, sg->data + sg->off, sg->len - sg->off, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (errno == EPIPE || errno == ECONNRESET) {
				r->eof = 1;
				return 0;
			}
			fprintf(stderr, "warpgate-board: send: %s\n", strerror(errno));
			return -1;
		}
		sg->off += (size_t)n;
		if (sg->off < sg->len)
			break;
		free(sg->data);
		r->qhead++;
	}
	if (r->qhead == r->qn)
		r->qhead = r->qn = 0;
	return 0;
}

static int rtl_unsent(const struct rtl *r)
{
	return r->qhead < r->qn;
}

/* Wait in poll() for bytes, for room to write, for the next held run of bytes, or up to
 * timeout_ms (-1: no limit). */
static void rtl_wait(struct rtl *r, int timeout_ms, uint64_t next_due)
{
	struct pollfd pf = { .fd = r->fd, .events = POLLIN };

	if (rtl_unsent(r) && !next_due)
		pf.events |= POLLOUT;
	if (next_due) {
		uint64_t now = wg_board_now_us();
		int ms = next_due > now ? (int)((next_due - now + 999) / 1000) : 0;

		if (timeout_ms < 0 || ms < timeout_ms)
			timeout_ms = ms;
	}
	poll(&pf, 1, timeout_ms);
}

static void rtl_reports(struct rtl *r)
{
	struct wgboard_report rep;

	while (wgboard_report(r->core, &rep) == 1) {
		struct wg_link_report lr = { .code = rep.code, .type = rep.type, .seq = rep.seq, .offset = rep.offset,
		                             .expected = rep.expected, .actual = rep.actual };
		char line[256];

		wg_link_report_format(&lr, line, sizeof(line));
		fprintf(stderr, "warpgate-board: link engine: %s\n", line);
	}
}

static int serve_rtl(struct rtl *r)
{
	const uint64_t rto_ms = r->o->rto_ms ? r->o->rto_ms : WG_BOARD_RTO_US / 1000;

	for (;;) {
		uint64_t next_due;
		uint64_t t0;

		if (rtl_read(r) || rtl_take(r) || rtl_write(r, &next_due))
			return 1;
		if (r->eof)
			return 0;
		if (stop_signal) {
			fprintf(stderr, "warpgate-board: stopped by signal %d\n", (int)stop_signal);
			return 1;
		}
		if (wgboard_failed(r->core)) {
			/* the engine's LERR frames go out first: the host learns why */
			wgboard_run(r->core, 1u << 20, 1);
			rtl_take(r);
			rtl_write(r, &next_due);
			fprintf(stderr, "warpgate-board: link failed (the link engine's reports follow)\n");
			rtl_reports(r);
			return 1;
		}
		if (!wgboard_waiting(r->core)) {
			/* work: run until the core holds still or only waits for the host, looking at the
			 * socket every CHUNK cycles, for at most BURST_US at a time */
			t0 = wg_board_now_us();
			while (!wgboard_run(r->core, CHUNK, 1)) {
				if (rtl_read(r) || rtl_take(r) || rtl_write(r, &next_due))
					return 1;
				if (r->eof || stop_signal || wg_board_now_us() - t0 >= BURST_US)
					break;
			}
			continue;
		}
		if (wgboard_idle(r->core)) {
			rtl_wait(r, -1, next_due); /* nothing to do until the host sends */
			continue;
		}
		if (rtl_unsent(r) && !next_due) {
			rtl_wait(r, -1, 0); /* the socket is full: the host reads first */
			continue;
		}
		/* The engine waits for the host's ACK (or a lost command frame): sleep until the host
		 * has been silent for rto, then run its timers until they act (a retransmission, a NAK)
		 * or the host answers. */
		t0 = wg_board_now_us();
		if (t0 - r->last_rx_us < rto_ms * 1000) {
			rtl_wait(r, (int)((rto_ms * 1000 - (t0 - r->last_rx_us) + 999) / 1000), next_due);
			continue;
		}
		r->waits++;
		while (wgboard_waiting(r->core) && !wgboard_idle(r->core)) {
			wgboard_run(r->core, CHUNK, 0);
			if (rtl_read(r))
				return 1;
			/* a timer that acted made bytes (a retransmission, a NAK): they go out before
			 * the next timer runs, or every retry would expire unseen by the host */
			if (r->eof || stop_signal || wgboard_rx_pending(r->core) || wgboard_tx_pending(r->core))
				break;
		}
	}
}

static void print_rtl_stats(const struct rtl *r)
{
	struct wgboard_counts c;
	char reps[512] = "";
	size_t k = 0;

	wgboard_counts(r->core, &c);
	for (unsigned i = 1; i < WGBOARD_REPORT_CODES; i++)
		if (c.reports[i] && k < sizeof(reps))
			k += (size_t)snprintf(reps + k, sizeof(reps) - k, "%s%s %" PRIu64, k ? ", " : "",
			                      wg_link_error_name(i), c.reports[i]);
	fprintf(stderr,
	        "warpgate-board: %" PRIu64 " commands, %" PRIu64 " events, %" PRIu64 " link cycles, target cycle %"
	        PRIu64 "\n"
	        "warpgate-board: link engine: rx %" PRIu64 " bytes, tx %" PRIu64 " bytes, %" PRIu64
	        " waits for the host past rto; reports: %s\n",
	        c.cmds, c.events, c.link_cycles, wgboard_cycle(r->core), c.rx_bytes, c.tx_bytes, r->waits,
	        k ? reps : "none");
}

static int main_rtl(const struct opts *o, int ls)
{
	struct wgboard_opts bo;
	struct wggpu_info info;
	struct rtl r;
	int rc, fd;

	memset(&r, 0, sizeof(r));
	memset(&bo, 0, sizeof(bo));
	bo.trace_fst = o->trace_fst;
	bo.rx_idle = o->cmd_idle;
	bo.tx_idle = o->ev_idle;
	bo.seed = o->seed;
	rc = wgboard_create(&r.core, &bo);
	if (rc) {
		if (rc == WG_ENOTSUP && o->trace_fst)
			fprintf(stderr, "warpgate-board: --trace-fst: this build of the Verilated board core has no FST "
			        "tracing (rebuild it with make board-lib GPU_TRACE=1)\n");
		else
			fprintf(stderr, "warpgate-board: cannot create the Verilated board core: %s\n", wg_strerror(rc));
		if (ls >= 0) {
			close(ls);
			unlink(o->socket_path);
		}
		return 1;
	}
	wgboard_info(r.core, &info);
	if (o->socket_path) {
		fprintf(stderr, "warpgate-board: %u SMs, RTL link engine, listening on %s\n", info.num_sms,
		        o->socket_path);
		fd = accept_one(ls, o->socket_path);
		if (fd < 0) {
			wgboard_destroy(r.core);
			return 1;
		}
	} else {
		fd = o->fd;
	}
	r.fd = fd;
	r.o = o;
	rc = serve_rtl(&r);
	if (o->verbose)
		print_rtl_stats(&r);
	close(fd);
	for (size_t i = r.qhead; i < r.qn; i++)
		free(r.q[i].data);
	free(r.q);
	wgboard_destroy(r.core);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct board b;
	struct wggpu_opts mo;
	struct wggpu_info info;
	struct wg_board_sock_params p;
	struct sigaction sa;
	struct stat sb;
	int rc, fd, ls = -1;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc;
	errno = 0;
	if (o.fd >= 0 && (fstat(o.fd, &sb) < 0 || !S_ISSOCK(sb.st_mode))) {
		fprintf(stderr, "warpgate-board: --fd %d: not an open socket%s%s\n", o.fd, errno ? ": " : "",
		        errno ? strerror(errno) : "");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: accept and poll return, the loop ends */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* the socket first: a bad path fails before the model is built */
	if (o.socket_path) {
		ls = listen_on(o.socket_path);
		if (ls < 0)
			return 1;
	}
	if (o.rtl)
		return main_rtl(&o, ls);
	memset(&b, 0, sizeof(b));
	memset(&mo, 0, sizeof(mo));
	mo.trace_fst = o.trace_fst;
	mo.cmd_idle = o.cmd_idle;
	mo.ev_idle = o.ev_idle;
	mo.seed = o.seed;
	rc = wggpu_create(&b.g, &mo);
	if (rc) {
		if (rc == WG_ENOTSUP && o.trace_fst)
			fprintf(stderr, "warpgate-board: --trace-fst: this build of the Verilated GPU has no FST tracing "
			        "(rebuild it with make gpu-lib GPU_TRACE=1)\n");
		else
			fprintf(stderr, "warpgate-board: cannot create the Verilated GPU: %s\n", wg_strerror(rc));
		if (ls >= 0) {
			close(ls);
			unlink(o.socket_path);
		}
		return 1;
	}
	wggpu_info(b.g, &info);
	if (o.socket_path) {
		fprintf(stderr, "warpgate-board: %u SMs, C link, listening on %s\n", info.num_sms, o.socket_path);
		fd = accept_one(ls, o.socket_path);
		if (fd < 0) {
			wggpu_destroy(b.g);
			return 1;
		}
	} else {
		fd = o.fd;
	}
	memset(&p, 0, sizeof(p));
	p.link.role = WGL_ROLE_GPU;
	p.link.max_payload = o.max_payload;
	p.link.window = o.window;
	p.link.rto = o.rto_ms ? (uint64_t)o.rto_ms * 1000 : WG_BOARD_RTO_US;
	p.link.max_retries = WG_BOARD_RETRIES;
	wg_board_info_to_link(&info, &p.link.build);
	p.link.on_rec = on_command;
	p.link.arg = &b;
	p.delay_us = o.delay_us;
	rc = wg_board_sock_create(&b.sock, fd, &p);
	if (rc) {
		fprintf(stderr, "warpgate-board: link: %s\n", wg_strerror(rc));
		close(fd);
		wggpu_destroy(b.g);
		return 1;
	}
	b.link = wg_board_sock_link(b.sock);
	rc = serve(&b);
	if (o.verbose)
		print_stats(&b);
	wg_board_sock_destroy(b.sock);
	wggpu_destroy(b.g);
	return rc;
}
