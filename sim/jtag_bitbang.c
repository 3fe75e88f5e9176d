/*
 * jtag_bitbang: OpenOCD's remote_bitbang protocol served over loopback TCP,
 * driving the Verilated JTAG debug port (sim/wgjtag.h: tests/rtl/tb_jtag.sv,
 * wg_jtag_tap + wg_jtag_regs with its own system clock). docs/jtag.md section 8.
 *
 *   jtag_bitbang [--port=N] [--port-file=FILE] [--tck-khz=N] [--clk-mhz=N]
 *                [--seed=N] [--trace=FILE] [--accept-timeout=S] [-v]
 *
 * Listens on 127.0.0.1:N (N = 0, the default: a free port chosen by the
 * system), prints "jtag_bitbang: listening on 127.0.0.1:PORT" and writes PORT
 * to FILE, serves one client until it sends 'Q' or closes the connection,
 * prints statistics and exits 0. Exits 1 if nobody connects within S seconds
 * (default 30), on a protocol error or a socket error, and when the RTL
 * reported an assertion failure.
 *
 * Protocol (one ASCII character per request, OpenOCD doc/manual/jtag/drivers/
 * remote_bitbang.txt): '0'..'7' set TCK, TMS, TDI (value = 4 TCK + 2 TMS + TDI);
 * 'R' answers '0' or '1' with TDO; 'r' 's' 't' 'u' set TRST and SRST
 * (r: neither, s: SRST, t: TRST, u: both asserted; SRST is the model's system
 * reset); 'B' / 'b' blink (counted); 'Z' / 'z' let 1 ms / 1 us of system
 * clock pass; 'Q' quit. Whitespace is ignored. The SWD requests (O o c d e f g)
 * are refused: this port is JTAG only. Time in the model advances only with
 * the requests: each pin write is half a TCK period (--tck-khz, default 10000)
 * of system clock (--clk-mhz, default 100).
 */
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "remote_bitbang.h"
#include "wgjtag.h"

struct server {
	struct wgjtag *j;
	int verbose;
	struct rbb_stats st;
	uint64_t clk_per_ms;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void srv_pins(void *ctx, int tck, int tms, int tdi)
{
	wgjtag_pins(((struct server *)ctx)->j, tck, tms, tdi);
}

static int srv_tdo(void *ctx)
{
	return wgjtag_tdo(((struct server *)ctx)->j) != 0;
}

static void srv_reset(void *ctx, int trst, int srst)
{
	struct server *s = ctx;

	wgjtag_reset_pins(s->j, trst, srst);
	if (s->verbose)
		fprintf(stderr, "jtag_bitbang: TRST %d SRST %d\n", trst, srst);
}

/* 'Z' / 'z': 1 ms / 1 us of system clock (at least one cycle) */
static void srv_sleep(void *ctx, unsigned us)
{
	struct server *s = ctx;
	uint64_t n = s->clk_per_ms * us / 1000;

	wgjtag_run_clk(s->j, n ? n : 1);
}

/* Serve requests until 'Q' or end of stream. 0 on a clean end, -1 on error. */
static int serve(struct server *s, int fd)
{
	const struct rbb_ops ops = {s, srv_pins, srv_tdo, srv_reset, srv_sleep};
	char in[8192], out[8192];
	for (;;) {
		ssize_t n = read(fd, in, sizeof(in));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "jtag_bitbang: read: %s\n", strerror(errno));
			return -1;
		}
		if (n == 0) {
			fprintf(stderr, "jtag_bitbang: client closed the connection\n");
			return 0;
		}
		size_t nout = 0;
		int bad = 0, rc = rbb_requests(&ops, &s->st, in, (size_t)n, out, &nout, &bad);
		if (nout && rbb_write_all(fd, out, nout)) {
			fprintf(stderr, "jtag_bitbang: write: %s\n", strerror(errno));
			return -1;
		}
		if (rc > 0) {
			fprintf(stderr, "jtag_bitbang: quit request\n");
			return 0;
		}
		if (rc < 0 && strchr("Oocdefg", bad)) {
			fprintf(stderr, "jtag_bitbang: byte %" PRIu64 ": SWD request '%c': not supported (JTAG only)\n",
			        s->st.bytes - 1, bad);
			return -1;
		}
		if (rc < 0) {
			fprintf(stderr, "jtag_bitbang: byte %" PRIu64 ": unknown request 0x%02x\n", s->st.bytes - 1, bad);
			return -1;
		}
	}
}

static int usage(const char *bad)
{
	fprintf(stderr,
	        "jtag_bitbang: unknown option %s\n"
	        "usage: jtag_bitbang [--port=N] [--port-file=FILE] [--tck-khz=N] [--clk-mhz=N] [--seed=N]\n"
	        "                    [--trace=FILE] [--accept-timeout=S] [-v]\n",
	        bad);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned port = 0, tck_khz = 10000, clk_mhz = 100, accept_timeout = 30;
	uint64_t seed = 1;
	const char *port_file = NULL, *trace = NULL;
	struct server s = {0};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strncmp(a, "--port=", 7))
			port = (unsigned)strtoul(a + 7, NULL, 0);
		else if (!strncmp(a, "--port-file=", 12))
			port_file = a + 12;
		else if (!strncmp(a, "--tck-khz=", 10))
			tck_khz = (unsigned)strtoul(a + 10, NULL, 0);
		else if (!strncmp(a, "--clk-mhz=", 10))
			clk_mhz = (unsigned)strtoul(a + 10, NULL, 0);
		else if (!strncmp(a, "--seed=", 7))
			seed = strtoull(a + 7, NULL, 0);
		else if (!strncmp(a, "--trace=", 8))
			trace = a + 8;
		else if (!strncmp(a, "--accept-timeout=", 17))
			accept_timeout = (unsigned)strtoul(a + 17, NULL, 0);
		else if (!strcmp(a, "-v"))
			s.verbose = 1;
		else
			return usage(a);
	}
	if (port > 65535 || tck_khz == 0 || tck_khz > 1000000 || clk_mhz == 0 || clk_mhz > 1000) {
		fprintf(stderr, "jtag_bitbang: --port must be 0..65535, --tck-khz 1..1000000, --clk-mhz 1..1000\n");
		return 2;
	}

	struct wgjtag_cfg cfg = {
		.clk_ps = 1000000u / clk_mhz,
		.tck_half_ps = (uint32_t)(500000000ull / tck_khz),
		.seed = seed,
		.trace_path = trace,
	};
	s.clk_per_ms = 1000ull * clk_mhz;
	int rc = wgjtag_open(&s.j, &cfg);
	if (rc) {
		fprintf(stderr, "jtag_bitbang: cannot build the model (error %d)%s\n", rc,
		        trace ? ": built without FST tracing?" : "");
		return 1;
	}

	int ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0) {
		fprintf(stderr, "jtag_bitbang: socket: %s\n", strerror(errno));
		return 1;
	}
	int one = 1;
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
	                         .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof(sa);
	if (bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1) ||
	    getsockname(ls, (struct sockaddr *)&sa, &sl)) {
		fprintf(stderr, "jtag_bitbang: 127.0.0.1:%u: %s\n", port, strerror(errno));
		return 1;
	}
	port = ntohs(sa.sin_port);
	printf("jtag_bitbang: listening on 127.0.0.1:%u (TCK %u kHz, clk_i %u MHz)\n", port, tck_khz, clk_mhz);
	fflush(stdout);
	if (port_file) {
		/* written under a temporary name and renamed: a reader never sees half a number */
		char tmp[4096];
		snprintf(tmp, sizeof(tmp), "%s.tmp", port_file);
		FILE *f = fopen(tmp, "w");
		if (!f || fprintf(f, "%u\n", port) < 0 || fclose(f) || rename(tmp, port_file)) {
			fprintf(stderr, "jtag_bitbang: %s: %s\n", port_file, strerror(errno));
			return 1;
		}
	}

	struct pollfd pfd = {.fd = ls, .events = POLLIN};
	int pr = poll(&pfd, 1, (int)(accept_timeout * 1000));
	if (pr <= 0) {
		fprintf(stderr, "jtag_bitbang: nobody connected within %u s\n", accept_timeout);
		return 1;
	}
	int fd = accept(ls, NULL, NULL);
	if (fd < 0) {
		fprintf(stderr, "jtag_bitbang: accept: %s\n", strerror(errno));
		return 1;
	}
	close(ls);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));

	double t0 = now_s();
	rc = serve(&s, fd);
	double dt = now_s() - t0;
	close(fd);
	unsigned errs = wgjtag_errors(s.j);
	printf("jtag_bitbang: %" PRIu64 " requests, %" PRIu64 " TCK cycles, %" PRIu64 " TDO reads, %" PRIu64
	       " resets, %" PRIu64 " clk_i cycles since reset, %.2f s: %.0f TCK cycles/s\n",
	       s.st.bytes, s.st.tck_rises, s.st.reads, s.st.resets, wgjtag_clk_cycles(s.j), dt,
	       dt > 0 ? (double)s.st.tck_rises / dt : 0.0);
	wgjtag_close(s.j);
	if (errs) {
		fprintf(stderr, "jtag_bitbang: %u RTL assertion failures\n", errs);
		return 1;
	}
	return rc ? 1 : 0;
}
