/*
 * warpgate-board: the Verilated GPU top (sim/wggpu.h, docs/gpu.md) in its own
 * process, serving the GPU side of the framed link (docs/protocol.md) on a
 * Unix stream socket: the stand-in for the board on USB (docs/board.md).
 *
 * Frames in -> wg_link -> commands into wggpu_push; wggpu_pop -> events ->
 * wg_link_put_ev -> frames out. The model runs while it has commands to take,
 * a grant to reach or a counter snapshot to deliver, and the process sleeps
 * in poll() otherwise. It serves one connection and exits when the host
 * closes it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "../../sim/wggpu.h"
#include "link.h"
#include "log.h"
#include "target_board.h"
#include "warpgate.h"

#define TICK 4          /* link cycles between looks at the event queue */
#define BURST_US 2000   /* longest run of the model between looks at the socket */

static volatile sig_atomic_t stop_signal;

struct opts {
	const char *socket_path, *trace_fst;
	int fd;
	uint32_t cmd_idle, ev_idle, delay_us, max_payload, window, rto_ms;
	uint64_t seed;
	int verbose;
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
	        "  --trace-fst FILE     FST waveform of the whole GPU\n"
	        "  --link-idle CMD,EV   per mille of link cycles the command / event side idles (tests)\n"
	        "  --link-seed N        seed of the idle pattern (default 1)\n"
	        "  --link-delay-us N    hold every frame N microseconds before it is written (slow link)\n"
	        "  --max-payload N      largest frame payload accepted, %u..%u bytes (default %u)\n"
	        "  --window N           event frames in flight (default 16)\n"
	        "  --rto-ms N           retransmission timeout (default %u)\n"
	        "  -v, --verbose        link and model figures at exit\n"
	        "  -h, --help           this text\n",
	        WGL_PAYLOAD_MIN, WGL_PAYLOAD_MAX, WGL_PAYLOAD_MAX, WG_BOARD_RTO_US / 1000);
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
		{ "help", no_argument, NULL, 'h' },             { NULL, 0, NULL, 0 },
	};
	uint32_t v;
	int c;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->seed = 1;
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
		fprintf(stderr, "warpgate-board: %u SMs, listening on %s\n", info.num_sms, o.socket_path);
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
