/*
 * cmocka tests of the board target's plumbing (host/src/target_board.c,
 * docs/board.md) without the RTL:
 *  - the link over a socket (wg_board_sock) between a host side and a GPU
 *    side on a socketpair, pumped in turn in one thread: HELLO, records in
 *    order and exactly once, the record conversions, held frames, a byte
 *    corrupted on the wire, the end of the stream;
 *  - the target (wg_target_board) against a fake board served by a thread on
 *    a Unix socket path (option socket=PATH): launches through gpu_host,
 *    link failures, resynchronisation after a fault, reconnection, options,
 *    statistics, and the board program's start-up errors.
 *
 * The fake board's GPU: a CTA launched with `at` on SM s starts at cycle at
 * and completes (DONE) at at + 10; it makes no memory requests. COUNTERS
 * give cycle in word 0 and 5 warp instructions per CTA completed on that SM
 * in word 4. REACHED carries the SMs with a CTA running.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cmocka.h>

#include "config.h"
#include "gmem.h"
#include "json.h"
#include "link.h"
#include "target.h"
#include "target_board.h"
#include "warpgate.h"

#define NSM 3
#define CTA_CYCLES 10
#define MAXREC 1024

static void build_info(struct wg_link_info *li)
{
	struct wggpu_info in = {
		.num_sms = NSM, .num_warps = 48, .simd_width = 16, .num_simd = 2, .num_regs = 32768, .num_ctas = 2,
		.imem_depth = 4096, .cmem_bytes = 4096, .mem_tag_bits = 4, .rsp_depth = 16, .launch_depth = 2,
	};

	wg_board_info_to_link(&in, li);
}

/* ------------------------------------------------------------------------ */
/* The link over a socketpair                                               */

struct side {
	struct wg_board_sock *s;
	struct wggpu_cmd cmd[MAXREC];
	struct wggpu_ev ev[64];
	unsigned ncmd, nev;
};

struct pairfx {
	struct side host, gpu;
	int relay[2]; /* with a wire between them: the ends the relay reads and writes */
	uint64_t h2g_bytes;
	long corrupt_at; /* host -> GPU stream offset of the byte the wire flips, -1: none */
};

static int side_rec(void *arg, const struct wg_link_rec *r)
{
	struct side *sd = arg;

	if (r->cmd && sd->ncmd < MAXREC)
		wg_board_cmd_from_link(r->cmd, &sd->cmd[sd->ncmd++]);
	if (r->ev && sd->nev < 64)
		wg_board_ev_from_link(r->ev, &sd->ev[sd->nev++]);
	return 0;
}

static void make_side(struct side *sd, int fd, unsigned role, uint32_t delay_us)
{
	struct wg_board_sock_params p;

	memset(&p, 0, sizeof(p));
	p.link.role = role;
	if (role == WGL_ROLE_GPU)
		build_info(&p.link.build);
	p.link.on_rec = side_rec;
	p.link.arg = sd;
	p.delay_us = delay_us;
	assert_int_equal(wg_board_sock_create(&sd->s, fd, &p), 0);
}

static int pair_setup(void **state)
{
	struct pairfx *x = calloc(1, sizeof(*x));
	int sv[2];

	assert_non_null(x);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	make_side(&x->host, sv[0], WGL_ROLE_HOST, 0);
	make_side(&x->gpu, sv[1], WGL_ROLE_GPU, 0);
	x->relay[0] = x->relay[1] = -1;
	x->corrupt_at = -1;
	*state = x;
	return 0;
}

/* host <-> relay[0] ... relay[1] <-> GPU: the test carries the bytes and may flip one. */
static int wire_setup(void **state)
{
	struct pairfx *x = calloc(1, sizeof(*x));
	int a[2], b[2];

	assert_non_null(x);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, a), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, b), 0);
	make_side(&x->host, a[0], WGL_ROLE_HOST, 0);
	make_side(&x->gpu, b[0], WGL_ROLE_GPU, 0);
	x->relay[0] = a[1];
	x->relay[1] = b[1];
	x->corrupt_at = -1;
	*state = x;
	return 0;
}

static int pair_teardown(void **state)
{
	struct pairfx *x = *state;

	wg_board_sock_destroy(x->host.s);
	wg_board_sock_destroy(x->gpu.s);
	if (x->relay[0] >= 0) {
		close(x->relay[0]);
		close(x->relay[1]);
	}
	free(x);
	return 0;
}

/* Carry whatever is in the wire, both ways. */
static void relay(struct pairfx *x)
{
	uint8_t buf[65536];
	ssize_t n;

	if (x->relay[0] < 0)
		return;
	while ((n = recv(x->relay[0], buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		if (x->corrupt_at >= 0 && (uint64_t)x->corrupt_at >= x->h2g_bytes &&
		    (uint64_t)x->corrupt_at < x->h2g_bytes + (uint64_t)n)
			buf[x->corrupt_at - (long)x->h2g_bytes] ^= 0x40;
		x->h2g_bytes += (uint64_t)n;
		assert_int_equal(send(x->relay[1], buf, (size_t)n, 0), n);
	}
	while ((n = recv(x->relay[1], buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		assert_int_equal(send(x->relay[0], buf, (size_t)n, 0), n);
}

static void pump_both(struct pairfx *x, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		assert_int_equal(wg_board_sock_pump(x->host.s, 0), 0);
		relay(x);
		assert_int_equal(wg_board_sock_pump(x->gpu.s, 0), 0);
		relay(x);
	}
}

static void the_host_gets_the_gpu_build_from_hello(void **state)
{
	struct pairfx *x = *state;
	const struct wg_link_info *peer;
	struct wggpu_info in;

	pump_both(x, 3);
	assert_true(wg_link_up(wg_board_sock_link(x->host.s)));
	peer = wg_link_peer(wg_board_sock_link(x->host.s));
	assert_non_null(peer);
	wg_board_info_from_link(peer, &in);
	assert_int_equal(in.num_sms, NSM);
	assert_int_equal(in.mem_tag_bits, 4);
	assert_int_equal(in.imem_depth, 4096);
	assert_int_equal(peer->mem_bytes, 128);
	assert_int_equal(peer->cnt_words, 52);
}

static void commands_arrive_in_order_exactly_once_in_one_frame(void **state)
{
	struct pairfx *x = *state;
	struct wg_link *hl = wg_board_sock_link(x->host.s);
	struct wg_link_stats hs, gs;

	pump_both(x, 3);
	for (uint32_t i = 0; i < 300; i++) {
		struct wggpu_cmd c = { .op = WGGPU_CFG, .all = 1, .addr = i };
		struct wg_link_cmd lc;
		uint32_t v = 7 * i;

		memcpy(c.data, &v, 4);
		wg_board_cmd_to_link(&c, &lc);
		assert_int_equal(wg_link_put_cmd(hl, &lc), 0);
	}
	assert_int_equal(wg_link_flush(hl), 0);
	pump_both(x, 3);
	assert_int_equal(x->gpu.ncmd, 300);
	for (uint32_t i = 0; i < 300; i++) {
		uint32_t v;

		memcpy(&v, x->gpu.cmd[i].data, 4);
		assert_int_equal(x->gpu.cmd[i].op, WGGPU_CFG);
		assert_int_equal(x->gpu.cmd[i].all, 1);
		assert_int_equal(x->gpu.cmd[i].addr, i);
		assert_int_equal(v, 7 * i);
	}
	/* 300 CFG records of 12 bytes fit one frame: 16 + 3600 + 4 = 3620 bytes */
	wg_link_stats(hl, &hs);
	wg_link_stats(wg_board_sock_link(x->gpu.s), &gs);
	assert_int_equal(hs.tx_frames, 1);
	assert_int_equal(hs.tx_records, 300);
	assert_int_equal(gs.rx_frames, 1);
	assert_int_equal(gs.rx_records, 300);
	assert_int_equal(hs.tx_retx, 0);
	/* the HELLO (16 + 92 + 4 = 112) and the data frame; the GPU's ACK came back */
	assert_int_equal(gs.rx_bytes, 112 + 3620);
	assert_int_equal(hs.in_flight, 0);
}

static void events_come_back_field_for_field(void **state)
{
	struct pairfx *x = *state;
	struct wg_link *gl = wg_board_sock_link(x->gpu.s);
	struct wggpu_ev e[4];
	struct wg_link_ev le;

	pump_both(x, 3);
	memset(e, 0, sizeof(e));
	e[0].kind = WGGPU_EV_MREQ;
	e[0].sm = 2;
	e[0].cycle = 0x123456789ull;
	e[0].tag = 9;
	e[0].cmd = 1;
	e[0].addr = 0x1000;
	e[0].size = 2;
	e[0].warp = 33;
	e[0].pc = 0x3FFFF;
	e[0].lane = 31;
	e[0].local = 1;
	for (int i = 0; i < 4; i++) {
		e[0].wmask[8 + i] = 1;
		e[0].wdata[8 + i] = (uint8_t)(0xA0 + i);
	}
	e[1].kind = WGGPU_EV_DONE;
	e[1].sm = 1;
	e[1].cycle = 77;
	e[1].linear = 123456;
	e[2].kind = WGGPU_EV_REACHED;
	e[2].cycle = 80;
	e[2].busy = 5;
	e[3].kind = WGGPU_EV_COUNTERS;
	e[3].sm = 2;
	e[3].cycle = 80;
	for (int i = 0; i < WGGPU_CNT_WORDS; i++)
		e[3].cnt[i] = 1000u * (uint32_t)i + 1;
	for (int i = 0; i < 4; i++) {
		wg_board_ev_to_link(&e[i], &le);
		assert_int_equal(wg_link_put_ev(gl, &le), 0);
	}
	assert_int_equal(wg_link_flush(gl), 0);
	pump_both(x, 3);
	assert_int_equal(x->host.nev, 4);
	for (int i = 0; i < 4; i++)
		assert_memory_equal(&x->host.ev[i], &e[i], sizeof(e[i]));
}

static void a_held_frame_waits_for_its_delay(void **state)
{
	struct pairfx *x = *state;
	struct side slow;
	int sv[2];

	/* a host side that holds every frame 10 s: its HELLO (112 bytes) stays in the buffer */
	memset(&slow, 0, sizeof(slow));
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	make_side(&slow, sv[0], WGL_ROLE_HOST, 10000000);
	assert_int_equal(wg_board_sock_pump(slow.s, 0), 0);
	assert_int_equal(wg_board_sock_unsent(slow.s), 112);
	assert_int_equal(recv(sv[1], (uint8_t[16]){ 0 }, 16, MSG_DONTWAIT), -1);
	assert_int_equal(errno, EAGAIN);
	wg_board_sock_destroy(slow.s);
	close(sv[1]);
	/* the fixture's unheld host has written its HELLO at once */
	assert_int_equal(wg_board_sock_pump(x->host.s, 0), 0);
	assert_int_equal(wg_board_sock_unsent(x->host.s), 0);
}

static void a_corrupted_frame_is_resent_and_delivered_once(void **state)
{
	struct pairfx *x = *state;
	struct wg_link *hl = wg_board_sock_link(x->host.s);
	struct wg_link_stats hs, gs;
	struct wggpu_cmd c;
	struct wg_link_cmd lc;

	pump_both(x, 3);
	assert_true(wg_link_up(hl));
	/*
	 * Two frames: 3 CFG (seq 0, 16 + 36 + 4 = 56 bytes at stream offset 112) and
	 * 2 CMEM (seq 1). The wire flips a payload byte of frame 0: the GPU sees a bad
	 * CRC, then frame 1 shows the gap: NAK(0), and the host sends 0 and 1 again.
	 */
	x->corrupt_at = 112 + 16 + 5;
	memset(&c, 0, sizeof(c));
	for (uint32_t i = 0; i < 5; i++) {
		c.op = i < 3 ? WGGPU_CFG : WGGPU_CMEM;
		c.all = 1;
		c.addr = i;
		c.data[0] = (uint8_t)(i + 1);
		wg_board_cmd_to_link(&c, &lc);
		assert_int_equal(wg_link_put_cmd(hl, &lc), 0);
	}
	assert_int_equal(wg_link_flush(hl), 0);
	pump_both(x, 6);
	assert_int_equal(x->gpu.ncmd, 5);
	for (uint32_t i = 0; i < 5; i++) {
		assert_int_equal(x->gpu.cmd[i].op, i < 3 ? WGGPU_CFG : WGGPU_CMEM);
		assert_int_equal(x->gpu.cmd[i].addr, i);
		assert_int_equal(x->gpu.cmd[i].data[0], i + 1);
	}
	wg_link_stats(hl, &hs);
	wg_link_stats(wg_board_sock_link(x->gpu.s), &gs);
	assert_int_equal(gs.errors[WGL_E_CRC], 1);
	assert_int_equal(gs.naks_sent, 1);
	assert_int_equal(hs.naks_rcvd, 1);
	assert_int_equal(hs.tx_frames, 4); /* 0, 1, then 0 and 1 again */
	assert_int_equal(hs.tx_retx, 2);
	assert_int_equal(hs.remote_errors[WGL_E_CRC], 1); /* the GPU's LERR */
	assert_int_equal(gs.rx_frames, 2);
}

static void the_peer_closing_ends_the_stream(void **state)
{
	struct pairfx *x = *state;

	pump_both(x, 3);
	wg_board_sock_destroy(x->gpu.s);
	x->gpu.s = NULL;
	assert_int_equal(wg_board_sock_pump(x->host.s, 1000000), 0);
	assert_true(wg_board_sock_eof(x->host.s));
	/* pair_teardown destroys a NULL side as a no-op */
}

/* ------------------------------------------------------------------------ */
/* The target against a fake board on a socket path                        */

enum fmode { FB_OK, FB_CLOSE_AT_GRANT, FB_BAD_FRAME_AT_GRANT, FB_FAULT_CTA1 };

struct fake {
	uint64_t cycle, grant;
	int want_reached;
	uint64_t start[NSM][16];
	uint32_t lin[NSM][16];
	int n[NSM];
	uint32_t done[NSM];
	struct wggpu_cmd in[256];
	unsigned nin;
	unsigned resets, grants, late;
	int faulted, fault_once_done;
	unsigned errors; /* checks that failed in the fake's thread (cmocka asserts only in the test's) */
};

#define FAKE_CHECK(f, cond) ((cond) ? (void)0 : (void)(f)->errors++)

struct board_fx {
	char path[108];
	int ls;
	pthread_t th;
	enum fmode modes[4];
	int nconn;
	struct fake f;
	/* the target */
	struct wg_gmem *gmem;
	struct wg_config cfg;
	void *priv;
	struct wg_kernel k;
	uint64_t code[1];
	struct wg_stats st;
	struct wg_err err;
};

static int fake_rec(void *arg, const struct wg_link_rec *r)
{
	struct fake *f = arg;

	if (r->cmd && f->nin < 256)
		wg_board_cmd_from_link(r->cmd, &f->in[f->nin++]);
	return 0;
}

static void put(struct fake *f, struct wg_link *l, const struct wggpu_ev *e)
{
	struct wg_link_ev le;

	wg_board_ev_to_link(e, &le);
	FAKE_CHECK(f, wg_link_put_ev(l, &le) == 0);
}

/* Run the fake from its cycle to the grant. */
static void fake_advance(struct fake *f, struct wg_link *l, enum fmode mode)
{
	struct wggpu_ev e;

	for (; f->cycle < f->grant && !f->faulted; f->cycle++) {
		for (int s = 0; s < NSM; s++) {
			for (int i = 0; i < f->n[s]; i++) {
				memset(&e, 0, sizeof(e));
				e.sm = (uint8_t)s;
				e.cycle = f->cycle;
				e.linear = f->lin[s][i];
				if (f->start[s][i] == f->cycle && mode == FB_FAULT_CTA1 && f->lin[s][i] == 1 &&
				    !f->fault_once_done) {
					e.kind = WGGPU_EV_FAULT;
					e.code = 1;
					put(f, l, &e);
					f->faulted = f->fault_once_done = 1;
				} else if (f->start[s][i] + CTA_CYCLES == f->cycle) {
					e.kind = WGGPU_EV_DONE;
					put(f, l, &e);
					f->done[s]++;
				}
			}
		}
	}
	if (f->want_reached && !f->faulted) {
		memset(&e, 0, sizeof(e));
		e.kind = WGGPU_EV_REACHED;
		e.cycle = f->cycle;
		for (int s = 0; s < NSM; s++)
			for (int i = 0; i < f->n[s]; i++)
				if (f->start[s][i] + CTA_CYCLES > f->cycle)
					e.busy |= 1ull << s;
		put(f, l, &e);
		f->want_reached = 0;
	}
}

/* A DONE record with a reserved byte set, as data frame `seq`, straight onto the socket. */
static void send_bad_frame(struct fake *f, int fd, uint32_t seq)
{
	uint8_t fr[WGL_HDR_BYTES + WGL_DONE_SIZE + WGL_CRC_BYTES];

	memset(fr, 0, sizeof(fr));
	fr[WGL_HDR_BYTES + 1] = 0xFF;
	wg_link_frame_seal(fr, WGL_T_DONE, seq, 1, WGL_DONE_SIZE);
	FAKE_CHECK(f, send(fd, fr, sizeof(fr), MSG_NOSIGNAL) == (ssize_t)sizeof(fr));
}

/* Serve one connection; returns when the host closes it (or the mode ends it). */
static void fake_serve(struct board_fx *x, int fd, enum fmode mode)
{
	struct fake *f = &x->f;
	struct wg_board_sock *s;
	struct wg_board_sock_params p;
	struct wg_link *l;
	struct wggpu_ev e;

	memset(&p, 0, sizeof(p));
	p.link.role = WGL_ROLE_GPU;
	build_info(&p.link.build);
	p.link.on_rec = fake_rec;
	p.link.arg = f;
	f->nin = 0;
	if (wg_board_sock_create(&s, fd, &p)) {
		f->errors++;
		close(fd);
		return;
	}
	l = wg_board_sock_link(s);
	for (;;) {
		/* a link failure is the host's business here: it closes, the fake sees the end */
		if (wg_board_sock_pump(s, 50000) || wg_board_sock_eof(s))
			break;
		for (unsigned i = 0; i < f->nin; i++) {
			const struct wggpu_cmd *c = &f->in[i];

			switch (c->op) {
			case WGGPU_RESET:
				f->resets++;
				f->cycle = f->grant = 0;
				f->want_reached = f->faulted = 0;
				memset(f->n, 0, sizeof(f->n));
				memset(f->done, 0, sizeof(f->done));
				break;
			case WGGPU_LAUNCH:
				if (c->at < f->cycle)
					f->late++;
				f->start[c->sm][f->n[c->sm]] = c->at;
				f->lin[c->sm][f->n[c->sm]++] = c->addr;
				break;
			case WGGPU_GRANT:
				f->grants++;
				if (mode == FB_CLOSE_AT_GRANT) {
					wg_board_sock_destroy(s);
					return;
				}
				if (mode == FB_BAD_FRAME_AT_GRANT) {
					struct wg_link_stats st;

					wg_link_stats(l, &st);
					send_bad_frame(f, fd, (uint32_t)st.tx_frames);
					mode = FB_OK; /* the link fails at the host; wait for it to close */
					break;
				}
				f->grant = c->at;
				f->want_reached = 1;
				break;
			case WGGPU_CNT_READ:
				memset(&e, 0, sizeof(e));
				e.kind = WGGPU_EV_COUNTERS;
				e.sm = c->sm;
				e.cycle = f->cycle;
				if (c->addr < 0x1000) { /* power-gating pages (0x1000 on): a window of 0 cycles */
					e.cnt[0] = (uint32_t)f->cycle;
					e.cnt[4] = 5 * f->done[c->sm];
				}
				put(f, l, &e);
				break;
			default:
				break;
			}
			if (c->op == WGGPU_GRANT)
				fake_advance(f, l, mode);
		}
		f->nin = 0;
		FAKE_CHECK(f, wg_link_flush(l) == 0);
	}
	wg_board_sock_destroy(s);
}

static void *fake_board(void *arg)
{
	struct board_fx *x = arg;

	for (int i = 0; i < x->nconn; i++) {
		int fd = accept(x->ls, NULL, NULL);

		if (fd < 0)
			break;
		fake_serve(x, fd, x->modes[i]);
	}
	return NULL;
}

static void start_fake(struct board_fx *x, int nconn, const enum fmode *modes)
{
	struct sockaddr_un a;
	struct wg_err err = { { 0 } };

	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", x->path);
	unlink(x->path);
	x->ls = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(x->ls >= 0);
	assert_int_equal(bind(x->ls, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(x->ls, 4), 0);
	x->nconn = nconn;
	memcpy(x->modes, modes, (size_t)nconn * sizeof(*modes));
	assert_int_equal(pthread_create(&x->th, NULL, fake_board, x), 0);
	assert_int_equal(wg_target_board.set_option(x->priv, "socket", x->path, &err), 0);
}

static int board_setup(void **state)
{
	struct board_fx *x = calloc(1, sizeof(*x));
	struct wg_err err = { { 0 } };
	static int n;

	assert_non_null(x);
	snprintf(x->path, sizeof(x->path), "/tmp/wg_test_board_%d_%d.sock", (int)getpid(), n++);
	x->ls = -1;
	assert_int_equal(wg_gmem_create(&x->gmem, 1u << 20), 0);
	wg_config_default(&x->cfg);
	x->cfg.num_sms = NSM;
	x->cfg.max_ctas_per_sm = 2;
	assert_int_equal(wg_target_board.create(&x->priv, x->gmem, &x->cfg, &err), 0);
	/* fixed 50-cycle memory: lookahead min(50, dispatch latency 40) = 40 */
	assert_int_equal(wg_target_board.set_option(x->priv, "mem_latency", "50", &err), 0);
	strcpy(x->k.name, "fake");
	x->k.regs = 8;
	x->k.ninsns = 1;
	x->k.code = x->code;
	*state = x;
	return 0;
}

static int board_teardown(void **state)
{
	struct board_fx *x = *state;

	wg_target_board.destroy(x->priv); /* closes the connection: the fake's thread ends */
	if (x->ls >= 0) {
		pthread_join(x->th, NULL);
		close(x->ls);
		unlink(x->path);
		assert_int_equal(x->f.errors, 0);
	}
	wg_gmem_destroy(x->gmem);
	free(x);
	return 0;
}

static int launch(struct board_fx *x, uint32_t ctas)
{
	struct wg_launch l = {
		.kernel = &x->k,
		.grid = { ctas, 1, 1 },
		.block = { 32, 1, 1 },
		.threads_per_cta = 32,
		.warps_per_cta = 1,
		.ctas = ctas,
	};

	wg_stats_clear(&x->st);
	memset(&x->err, 0, sizeof(x->err));
	return wg_target_board.launch(x->priv, &l, &x->st, NULL, &x->err);
}

static char *stats_json(struct board_fx *x)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct wg_json j;

	assert_non_null(f);
	wg_json_init(&j, f);
	wg_json_begin_object(&j, NULL);
	wg_target_board.stats_json(x->priv, &j);
	wg_json_end_object(&j);
	wg_json_finish(&j);
	fclose(f);
	return buf;
}

static void a_launch_over_the_socket_takes_the_hand_worked_cycles(void **state)
{
	struct board_fx *x = *state;
	static const enum fmode m[] = { FB_OK };
	char *js;

	/*
	 * 7 CTAs, 3 SMs x 2 slots, rr: CTAs 0..5 start at 0 (SM s: s and s + 3) and
	 * finish at 10; the first completion (SM 0) frees a slot for CTA 6, launched
	 * 40 cycles (dispatch latency) later at 50, done at 60: 61 cycles.
	 * Warp instructions: 5 per CTA from the counters = 35.
	 */
	start_fake(x, 1, m);
	assert_int_equal(launch(x, 7), 0);
	assert_int_equal(x->st.cycles, 61);
	assert_int_equal(x->st.ctas, 7);
	assert_int_equal(x->st.warp_insts, 35);
	assert_int_equal(x->f.late, 0);
	assert_int_equal(x->f.resets, 1);
	js = stats_json(x);
	assert_non_null(strstr(js, "\"cycles\": 61"));
	/* grants: to 40, 80, then 100 (the L1 write-back one lookahead after the last completion), 140 */
	assert_non_null(strstr(js, "\"grants\": 4"));
	assert_non_null(strstr(js, "\"connections\": 1"));
	assert_non_null(strstr(js, "\"crc_errors\": 0"));
	assert_non_null(strstr(js, "\"tx_retransmitted\": 0"));
	assert_null(strstr(js, "\"tx_frames\": 0,"));
	free(js);
	/* a second launch on the same connection */
	assert_int_equal(launch(x, 3), 0);
	assert_int_equal(x->st.cycles, 11); /* 3 CTAs at 0, done at 10 */
	assert_int_equal(x->f.resets, 2);
}

static void a_board_closing_mid_launch_is_a_link_error_and_the_next_launch_reconnects(void **state)
{
	struct board_fx *x = *state;
	static const enum fmode m[] = { FB_CLOSE_AT_GRANT, FB_OK };
	char *js;

	start_fake(x, 2, m);
	assert_int_equal(launch(x, 3), WG_ELINK);
	assert_non_null(strstr(x->err.msg, "kernel 'fake'"));
	assert_non_null(strstr(x->err.msg, "closed the connection"));
	assert_non_null(strstr(x->err.msg, x->path));
	assert_int_equal(launch(x, 3), 0);
	assert_int_equal(x->st.cycles, 11);
	js = stats_json(x);
	assert_non_null(strstr(js, "\"connections\": 2"));
	free(js);
}

static void a_bad_frame_ends_the_launch_with_the_link_report(void **state)
{
	struct board_fx *x = *state;
	static const enum fmode m[] = { FB_BAD_FRAME_AT_GRANT };
	char *js;

	/* the DONE record's reserved byte 1 holds 0xFF: nothing of the frame is used */
	start_fake(x, 1, m);
	assert_int_equal(launch(x, 3), WG_ELINK);
	assert_non_null(strstr(x->err.msg, "board link: record field out of range: frame type 0x21 seq 0"));
	assert_non_null(strstr(x->err.msg, "expected 0, got 255"));
	assert_int_equal(x->st.ctas, 0);
	js = stats_json(x);
	assert_non_null(strstr(js, "\"errors\": 1"));
	free(js);
}

static void after_a_fault_the_next_launch_resynchronises(void **state)
{
	struct board_fx *x = *state;
	static const enum fmode m[] = { FB_FAULT_CTA1 };

	/* CTA 1 faults as it starts (the fake does it once); its launch ends with the fault */
	start_fake(x, 1, m);
	assert_int_equal(launch(x, 3), WG_EILLEGAL); /* fault code 1: illegal instruction */
	assert_non_null(strstr(x->err.msg, "SM 1 CTA (1,0,0)"));
	assert_non_null(strstr(x->err.msg, "illegal instruction"));
	/* the same connection: RESET and a counter read clear the way, then the launch's own RESET */
	assert_int_equal(launch(x, 3), 0);
	assert_int_equal(x->st.cycles, 11);
	assert_int_equal(x->f.resets, 3);
}

static void unknown_and_bad_options_are_refused_with_the_list(void **state)
{
	struct board_fx *x = *state;
	struct wg_err err = { { 0 } };

	assert_int_equal(wg_target_board.set_option(x->priv, "bogus", "1", &err), WG_ENOTSUP);
	assert_non_null(strstr(err.msg, "socket, board_exe, board_link, batch, max_payload, window, link_delay_us"));
	assert_int_equal(wg_target_board.set_option(x->priv, "board_link", "verilog", &err), WG_EINVAL);
	assert_non_null(strstr(err.msg, "bad value 'verilog' for option board_link (c or rtl)"));
	assert_int_equal(wg_target_board.set_option(x->priv, "board_link", "c", &err), 0);
	assert_int_equal(wg_target_board.set_option(x->priv, "board_link", "rtl", &err), 0);
	assert_int_equal(wg_target_board.set_option(x->priv, "max_payload", "1000", &err), WG_EINVAL);
	assert_int_equal(wg_target_board.set_option(x->priv, "max_payload", "2050", &err), WG_EINVAL);
	assert_int_equal(wg_target_board.set_option(x->priv, "max_payload", "2048", &err), 0);
	assert_int_equal(wg_target_board.set_option(x->priv, "window", "0", &err), WG_EINVAL);
	assert_int_equal(wg_target_board.set_option(x->priv, "batch", "x", &err), WG_EINVAL);
	assert_non_null(strstr(err.msg, "bad value 'x' for option batch"));
	assert_int_equal(wg_target_board.set_option(x->priv, "batch", "4", &err), 0);
	assert_int_equal(wg_target_board.set_option(x->priv, "link_delay_us", "500", &err), 0);
	assert_int_equal(wg_target_board.set_option(x->priv, "sched", "fifo", &err), WG_EINVAL);
	assert_int_equal(wg_target_board.set_option(x->priv, "sched", "gto", &err), 0);
	/* configuration keys, as on the gpu target */
	assert_int_equal(wg_target_board.set_option(x->priv, "cta_policy", "consolidate", &err), 0);
	assert_int_equal(wg_target_board.set_option(x->priv, "cta_policy", "bogus", &err), WG_EINVAL);
	assert_int_equal(wg_target_board.set_option(x->priv, "n_sm", "2", &err), WG_EINVAL);
	assert_non_null(strstr(err.msg, "n_sm cannot change after the device is opened"));
}

static void a_board_smaller_than_the_configuration_is_refused(void **state)
{
	struct board_fx *x = *state;
	static const enum fmode m[] = { FB_OK };
	struct wg_err err = { { 0 } };

	/* the fake board's build has 48 warp slots per SM; the configuration asks for 64 */
	start_fake(x, 1, m);
	assert_int_equal(wg_target_board.set_option(x->priv, "max_warps_per_sm", "64", &err), 0);
	assert_int_equal(launch(x, 1), WG_ECONFIG);
	assert_non_null(strstr(x->err.msg, "the board does not fit the configuration: the configuration's "
	                                   "max_warps_per_sm = 64 exceeds the GPU build's 48 warp slots per SM"));
}

static void a_small_batch_and_a_slow_link_give_the_same_cycles(void **state)
{
	struct board_fx *x = *state;
	static const enum fmode m[] = { FB_OK };
	struct wg_err err = { { 0 } };

	assert_int_equal(wg_target_board.set_option(x->priv, "batch", "2", &err), 0);
	assert_int_equal(wg_target_board.set_option(x->priv, "link_delay_us", "300", &err), 0);
	assert_int_equal(wg_target_board.set_option(x->priv, "max_payload", "1024", &err), 0);
	start_fake(x, 1, m);
	assert_int_equal(launch(x, 7), 0);
	assert_int_equal(x->st.cycles, 61); /* as without them (the first launch test) */
	assert_int_equal(x->st.warp_insts, 35);
	assert_int_equal(x->f.late, 0);
}

static void no_board_at_the_socket_path_is_a_link_error(void **state)
{
	struct board_fx *x = *state;
	struct wg_err err = { { 0 } };

	assert_int_equal(wg_target_board.set_option(x->priv, "socket", x->path, &err), 0);
	unlink(x->path);
	assert_int_equal(launch(x, 1), WG_ELINK);
	assert_non_null(strstr(x->err.msg, "cannot connect to the board at"));
	assert_non_null(strstr(x->err.msg, "warpgate-board --socket"));
}

static void a_missing_board_program_is_named(void **state)
{
	struct board_fx *x = *state;
	struct wg_err err = { { 0 } };

	assert_int_equal(wg_target_board.set_option(x->priv, "board_exe", "/nonexistent/warpgate-board", &err), 0);
	assert_int_equal(launch(x, 1), WG_ENOENT);
	assert_non_null(strstr(x->err.msg, "/nonexistent/warpgate-board (option board_exe) is not an executable"));
	assert_int_equal(wg_target_board.set_option(x->priv, "board_exe", "", &err), 0);
	setenv("WG_BOARD_EXE", "/nonexistent/wb2", 1);
	assert_int_equal(launch(x, 1), WG_ENOENT);
	assert_non_null(strstr(x->err.msg, "/nonexistent/wb2 (WG_BOARD_EXE)"));
	unsetenv("WG_BOARD_EXE");
}

static void a_board_program_that_exits_at_once_is_reported_with_its_status(void **state)
{
	struct board_fx *x = *state;
	struct wg_err err = { { 0 } };

	if (access("/bin/false", X_OK)) {
		skip();
		return;
	}
	assert_int_equal(wg_target_board.set_option(x->priv, "board_exe", "/bin/false", &err), 0);
	assert_int_equal(launch(x, 1), WG_ELINK);
	assert_non_null(strstr(x->err.msg, "no answer to HELLO"));
	/* the program by its canonical path (/bin may be a link to /usr/bin) */
	assert_non_null(strstr(x->err.msg, "false) closed the connection: exited with status 1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(the_host_gets_the_gpu_build_from_hello, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(commands_arrive_in_order_exactly_once_in_one_frame, pair_setup,
		                                pair_teardown),
		cmocka_unit_test_setup_teardown(events_come_back_field_for_field, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(a_held_frame_waits_for_its_delay, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(a_corrupted_frame_is_resent_and_delivered_once, wire_setup,
		                                pair_teardown),
		cmocka_unit_test_setup_teardown(the_peer_closing_ends_the_stream, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(a_launch_over_the_socket_takes_the_hand_worked_cycles, board_setup,
		                                board_teardown),
		cmocka_unit_test_setup_teardown(a_board_closing_mid_launch_is_a_link_error_and_the_next_launch_reconnects,
		                                board_setup, board_teardown),
		cmocka_unit_test_setup_teardown(a_bad_frame_ends_the_launch_with_the_link_report, board_setup,
		                                board_teardown),
		cmocka_unit_test_setup_teardown(after_a_fault_the_next_launch_resynchronises, board_setup,
		                                board_teardown),
		cmocka_unit_test_setup_teardown(unknown_and_bad_options_are_refused_with_the_list, board_setup,
		                                board_teardown),
		cmocka_unit_test_setup_teardown(a_board_smaller_than_the_configuration_is_refused, board_setup,
		                                board_teardown),
		cmocka_unit_test_setup_teardown(a_small_batch_and_a_slow_link_give_the_same_cycles, board_setup,
		                                board_teardown),
		cmocka_unit_test_setup_teardown(no_board_at_the_socket_path_is_a_link_error, board_setup,
		                                board_teardown),
		cmocka_unit_test_setup_teardown(a_missing_board_program_is_named, board_setup, board_teardown),
		cmocka_unit_test_setup_teardown(a_board_program_that_exits_at_once_is_reported_with_its_status,
		                                board_setup, board_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
