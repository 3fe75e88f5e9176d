/*
 * cmocka tests of the link protocol (host/src/link.c, docs/protocol.md): the
 * CRC, record layouts, the streaming decoder and the reliable link between a
 * host side and a GPU side joined by two in-memory wires that can drop,
 * duplicate or corrupt frames. Time is a counter the tests advance; nothing
 * here reads a clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "crc32.h"
#include "link.h"
#include "log.h"
#include "warpgate.h"
#include "wg_link_proto.h"

#define RTO 1000u

/* ------------------------------------------------------------------------ */
/* Captures                                                                 */

struct seen_frame {
	uint8_t type;
	uint16_t nrec;
	uint32_t len, seq;
	uint64_t offset;
};

struct capture {
	struct seen_frame frames[256];
	unsigned nframes;
	struct wg_link_report reports[512];
	unsigned nreports;
};

static int cap_frame(void *arg, const struct wg_link_frame *f)
{
	struct capture *c = arg;

	if (c->nframes < 256)
		c->frames[c->nframes++] = (struct seen_frame){ f->type, f->nrec, f->len, f->seq, f->offset };
	return 0;
}

static void cap_report(void *arg, const struct wg_link_report *r)
{
	struct capture *c = arg;

	if (c->nreports < 512)
		c->reports[c->nreports++] = *r;
}

/* Index of the first report with this code, or -1. */
static int find_report(const struct wg_link_report *r, unsigned n, unsigned code)
{
	for (unsigned i = 0; i < n; i++)
		if (r[i].code == code)
			return (int)i;
	return -1;
}

/* ------------------------------------------------------------------------ */
/* Frames built by hand                                                     */

/* A frame of nrec records of `type` with payload bytes `payload`; returns its length. */
static size_t craft(uint8_t *buf, unsigned type, uint32_t seq, unsigned nrec, const void *payload, unsigned len)
{
	memcpy(buf + WGL_HDR_BYTES, payload, len);
	wg_link_frame_seal(buf, type, seq, nrec, len);
	return WGL_HDR_BYTES + len + WGL_CRC_BYTES;
}

static size_t craft_grant(uint8_t *buf, uint32_t seq, uint64_t at)
{
	uint8_t r[WGL_GRANT_SIZE];
	struct wg_link_cmd c = { .op = WGL_T_CODE(WGL_T_GRANT), .at = at };

	assert_int_equal(wg_link_cmd_pack(&c, WGL_T_GRANT, r), 0);
	return craft(buf, WGL_T_GRANT, seq, 1, r, sizeof(r));
}

static size_t craft_cfg(uint8_t *buf, uint32_t seq, uint32_t addr)
{
	uint8_t r[WGL_CFG_SIZE];
	struct wg_link_cmd c = { .op = WGL_T_CODE(WGL_T_CFG), .addr = addr, .data = { 1, 2, 3, 4 } };

	assert_int_equal(wg_link_cmd_pack(&c, WGL_T_CFG, r), 0);
	return craft(buf, WGL_T_CFG, seq, 1, r, sizeof(r));
}

static size_t craft_mrsp2(uint8_t *buf, uint32_t seq)
{
	uint8_t r[2 * WGL_MRSP_SIZE];
	struct wg_link_cmd c = { .op = WGL_T_CODE(WGL_T_MRSP), .tag = 7, .at = 99 };

	for (unsigned i = 0; i < WGL_MEM_BYTES; i++)
		c.data[i] = (uint8_t)(i + 1);
	assert_int_equal(wg_link_cmd_pack(&c, WGL_T_MRSP, r), 0);
	c.tag = 8;
	assert_int_equal(wg_link_cmd_pack(&c, WGL_T_MRSP, r + WGL_MRSP_SIZE), 0);
	return craft(buf, WGL_T_MRSP, seq, 2, r, sizeof(r));
}

/* Bit-at-a-time CRC-32, the reference for the table-driven one. */
static uint32_t crc_ref(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
	}
	return ~c;
}

/* ------------------------------------------------------------------------ */
/* Decoder fixture                                                          */

struct dec_fix {
	struct wg_link_dec *d;
	struct capture cap;
};

static int dec_setup_dir(void **state, int dir, uint32_t max_payload)
{
	struct dec_fix *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(wg_link_dec_create(&f->d, dir, max_payload, cap_frame, cap_report, &f->cap), 0);
	*state = f;
	return 0;
}

static int dec_setup(void **state)
{
	wg_log_set_level(WG_LOG_ERROR);
	return dec_setup_dir(state, WG_LINK_TO_GPU, WGL_PAYLOAD_MAX);
}

static int dec_setup_small(void **state)
{
	wg_log_set_level(WG_LOG_ERROR);
	return dec_setup_dir(state, WG_LINK_TO_HOST, WGL_PAYLOAD_MIN);
}

static int dec_teardown(void **state)
{
	struct dec_fix *f = *state;

	wg_link_dec_destroy(f->d);
	free(f);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Link pair fixture: host <-> GPU over two wires with fault injection      */

enum fault { F_NONE, F_DROP, F_DUP, F_CORRUPT, F_DROP_ALL };

struct wire {
	enum fault fault;
	uint32_t fault_seq;     /* data frame the fault hits (its first transmission) */
	uint8_t fault_type;     /* or, if not 0: the first frame of this type */
	size_t corrupt_pos;
	uint8_t corrupt_xor;
	int hit;                /* the fault happened */
	size_t chunk;           /* bytes per wg_link_rx call, 0: all at once */
	uint8_t *buf;
	size_t len, cap;
	unsigned data_frames;   /* data frames carried */
};

struct got_cmd {
	uint8_t type;
	uint32_t seq;
	struct wg_link_cmd c;
};

struct got_ev {
	uint8_t type;
	uint32_t seq;
	struct wg_link_ev e;
	uint8_t trace[256];
	uint32_t trace_len;
};

struct pair {
	struct wg_link *host, *gpu;
	struct wire h2g, g2h;
	uint64_t now;
	struct got_cmd cmds[2048];
	unsigned ncmds;
	struct got_ev evs[64];
	unsigned nevs;
	struct capture host_rep, gpu_rep;
	struct wg_link_info build;
};

static int gpu_got(void *arg, const struct wg_link_rec *r)
{
	struct pair *p = arg;

	assert_non_null(r->cmd);
	assert_true(p->ncmds < 2048);
	p->cmds[p->ncmds++] = (struct got_cmd){ r->type, r->seq, *r->cmd };
	return 0;
}

static int host_got(void *arg, const struct wg_link_rec *r)
{
	struct pair *p = arg;
	struct got_ev *g;

	assert_true(p->nevs < 64);
	g = &p->evs[p->nevs++];
	g->type = r->type;
	g->seq = r->seq;
	if (r->ev)
		g->e = *r->ev;
	if (r->trace) {
		assert_true(r->trace_len <= sizeof(g->trace));
		memcpy(g->trace, r->trace, r->trace_len);
		g->trace_len = r->trace_len;
	}
	return 0;
}

static void host_rep(void *arg, const struct wg_link_report *r)
{
	cap_report(&((struct pair *)arg)->host_rep, r);
}

static void gpu_rep(void *arg, const struct wg_link_report *r)
{
	cap_report(&((struct pair *)arg)->gpu_rep, r);
}

static struct wg_link_info test_build(void)
{
	return (struct wg_link_info){
		.num_sms = 15, .num_warps = 48, .simd_width = 16, .num_simd = 2, .num_regs = 32768, .rf_banks = 16,
		.num_ctas = 8, .dmem_bytes = 65536, .l1_sets = 64, .l1_mshrs = 8, .imem_depth = 4096, .cmem_bytes = 4096,
		.stack_depth = 64, .has_fp = 1, .mem_bytes = WGL_MEM_BYTES, .mem_tag_bits = 8, .retire_en = 1,
		.rsp_depth = 256, .launch_depth = 8, .cnt_words = WGL_CNT_WORDS,
	};
}

static struct pair *pair_new(uint32_t window, uint32_t max_retries)
{
	struct pair *p = calloc(1, sizeof(*p));
	struct wg_link_params hp = { .role = WGL_ROLE_HOST, .window = window, .rto = RTO, .max_retries = max_retries,
		                     .on_rec = host_got, .on_report = host_rep };
	struct wg_link_params gp = hp;

	assert_non_null(p);
	p->build = test_build();
	hp.arg = gp.arg = p;
	gp.role = WGL_ROLE_GPU;
	gp.on_rec = gpu_got;
	gp.on_report = gpu_rep;
	gp.build = p->build;
	assert_int_equal(wg_link_create(&p->host, &hp), 0);
	assert_int_equal(wg_link_create(&p->gpu, &gp), 0);
	return p;
}

static void pair_free(struct pair *p)
{
	wg_link_destroy(p->host);
	wg_link_destroy(p->gpu);
	free(p->h2g.buf);
	free(p->g2h.buf);
	free(p);
}

static void wire_append(struct wire *w, const uint8_t *f, size_t n)
{
	if (w->len + n > w->cap) {
		w->cap = 2 * (w->len + n);
		w->buf = realloc(w->buf, w->cap);
		assert_non_null(w->buf);
	}
	memcpy(w->buf + w->len, f, n);
	w->len += n;
}

/* One frame onto the wire, through the fault rule. */
static void wire_put(struct wire *w, const uint8_t *f, size_t n)
{
	int data = f[WGL_H_TYPE] > WGL_T_LINK_LAST;
	uint32_t seq = wgl_get32(f + WGL_H_SEQ);
	int target = !w->hit && (w->fault_type ? f[WGL_H_TYPE] == w->fault_type : data && seq == w->fault_seq);

	if (data)
		w->data_frames++;
	if (w->fault == F_DROP_ALL && data)
		return;
	if (target && w->fault == F_DROP) {
		w->hit = 1;
		return;
	}
	wire_append(w, f, n);
	if (target && w->fault == F_DUP) {
		w->hit = 1;
		wire_append(w, f, n);
	}
	if (target && w->fault == F_CORRUPT) {
		w->hit = 1;
		w->buf[w->len - n + w->corrupt_pos] ^= w->corrupt_xor;
	}
}

/* Send everything due from src over w into dst; 1 if a byte moved. */
static int move(struct wg_link *src, struct wire *w, struct wg_link *dst)
{
	const uint8_t *f;
	size_t n, off = 0;
	int rc, moved = 0;

	while ((rc = wg_link_tx_next(src, &f, &n)) == 1) {
		wire_put(w, f, n);
		moved = 1;
	}
	if (rc < 0)
		return 0;
	while (off < w->len) {
		size_t k = w->chunk && w->chunk < w->len - off ? w->chunk : w->len - off;

		if (wg_link_rx(dst, w->buf + off, k) < 0)
			break;
		off += k;
	}
	w->len = 0;
	return moved;
}

/* Run both sides until both are idle, a side failed, or `rounds` rounds passed; time advances by RTO when stuck. */
static void pump(struct pair *p, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		int moved = move(p->host, &p->h2g, p->gpu);

		moved |= move(p->gpu, &p->g2h, p->host);

		if (wg_link_error(p->host) || wg_link_error(p->gpu))
			return;
		if (!moved) {
			if (wg_link_idle(p->host) && wg_link_idle(p->gpu) && wg_link_up(p->host))
				return;
			p->now += RTO;
			wg_link_poll(p->host, p->now);
			wg_link_poll(p->gpu, p->now);
		}
	}
}

static int pair_setup(void **state)
{
	struct pair *p;

	wg_log_set_level(WG_LOG_ERROR);
	p = pair_new(16, 8);
	pump(p, 50);
	assert_true(wg_link_up(p->host));
	assert_true(wg_link_up(p->gpu));
	*state = p;
	return 0;
}

static int pair_teardown(void **state)
{
	pair_free(*state);
	return 0;
}

static struct wg_link_cmd cfg_cmd(uint32_t addr)
{
	return (struct wg_link_cmd){ .op = WGL_T_CODE(WGL_T_CFG), .addr = addr, .data = { (uint8_t)addr } };
}

/* ------------------------------------------------------------------------ */
/* CRC and layouts                                                          */

static void crc32_matches_the_standard_check_values_and_chains(void **state)
{
	static uint8_t big[100003];
	uint32_t s = 1;

	(void)state;
	/* The IEEE CRC-32 check value (CRC of "123456789") and the CRC of "a", as zlib gives them. */
	assert_int_equal(wg_crc32(0, "123456789", 9), WGL_CRC_CHECK);
	assert_int_equal(wg_crc32(0, "a", 1), 0xE8B7BE43u);
	assert_int_equal(wg_crc32(0, "", 0), 0);
	/* Continuing from a CRC gives the CRC of the concatenation. */
	assert_int_equal(wg_crc32(wg_crc32(0, "1234", 4), "56789", 5), WGL_CRC_CHECK);
	/* The eight-bytes-a-step loop agrees with the bitwise reference at every length and alignment. */
	for (size_t i = 0; i < sizeof(big); i++) {
		s = s * 1103515245u + 12345u;
		big[i] = (uint8_t)(s >> 16);
	}
	for (size_t a = 0; a < 9; a++)
		for (size_t n = 0; n < 40; n++)
			assert_int_equal(wg_crc32(0, big + a, n), crc_ref(big + a, n));
	assert_int_equal(wg_crc32(0, big + 3, sizeof(big) - 3), crc_ref(big + 3, sizeof(big) - 3));
}

static void a_grant_frame_has_the_documented_bytes(void **state)
{
	uint8_t f[64];
	size_t n;
	/*
	 * GRANT to cycle 0x0123456789ABCDEF as data frame 5:
	 *   A5 57 47 4C   sync
	 *   17            type GRANT (0x10 | op 7)
	 *   00            flags
	 *   0C 00         payload length 12 (one 12-byte record)
	 *   05 00 00 00   seq 5
	 *   01 00         one record
	 *   C2 4B         header check: low 16 bits of CRC-32(bytes 0..13) = 0x2C544BC2 (zlib.crc32)
	 *   00 00 00 00   record: sm 0, flags 0, tag 0
	 *   EF CD AB 89 67 45 23 01   at, low word first
	 *   8A 38 59 43   CRC-32 of bytes 0..27 = 0x4359388A (zlib.crc32)
	 */
	static const uint8_t want[32] = { 0xA5, 0x57, 0x47, 0x4C, 0x17, 0x00, 0x0C, 0x00, 0x05, 0x00, 0x00,
		                          0x00, 0x01, 0x00, 0xC2, 0x4B, 0x00, 0x00, 0x00, 0x00, 0xEF, 0xCD,
		                          0xAB, 0x89, 0x67, 0x45, 0x23, 0x01, 0x8A, 0x38, 0x59, 0x43 };

	(void)state;
	n = craft_grant(f, 5, 0x0123456789ABCDEFull);
	assert_int_equal(n, 32);
	assert_memory_equal(f, want, sizeof(want));
	assert_int_equal(wgl_get32(f + WGL_H_SYNC), WGL_SYNC);
	assert_int_equal(n % WGL_ALIGN, 0);
}

static void record_sizes_match_the_layout_tables(void **state)
{
	(void)state;
	/* Each record size is the end of its last field, rounded to 4 (docs/protocol.md section 5). */
	assert_int_equal(wg_link_rec_size(WGL_T_MRSP), WGL_MRSP_DATA + WGL_MEM_BYTES);          /* 12 + 128 */
	assert_int_equal(wg_link_rec_size(WGL_T_MREQ), WGL_MREQ_WDATA + WGL_MEM_BYTES);         /* 52 + 128 */
	assert_int_equal(wg_link_rec_size(WGL_T_RETIRE), WGL_RETIRE_DATA + 4 * WGL_LANES);      /* 36 + 128 */
	assert_int_equal(wg_link_rec_size(WGL_T_COUNTERS), WGL_COUNTERS_CNT + 4 * WGL_CNT_WORDS); /* 12 + 208 */
	assert_int_equal(wg_link_rec_size(WGL_T_HELLO), WGL_HELLO_CNT_WORDS + 4);
	assert_int_equal(wg_link_rec_size(WGL_T_MRSP_ND), 12);
	assert_int_equal(wg_link_rec_size(WGL_T_MREQ_ND), 36);
	assert_int_equal(wg_link_rec_size(WGL_T_TRACE), 4);
	assert_int_equal(wg_link_rec_size(0x00), 0);
	assert_int_equal(wg_link_rec_size(0x1A), 0);
	assert_int_equal(wg_link_rec_size(0x7F), 0);
	assert_int_equal(wg_link_rec_size(0xFF), 0);
	for (unsigned t = 0; t < 0x80; t++)
		assert_int_equal(wg_link_rec_size(t) % WGL_ALIGN, 0);
	assert_true(WGL_REC_MAX * 2 <= WGL_PAYLOAD_MIN);
}

/* The fields a command of op carries (docs/protocol.md section 5.2): the rest decodes as zero. */
static void expect_cmd(const struct wg_link_cmd *in, const struct wg_link_cmd *out)
{
	unsigned data_bytes = 0;
	int has_addr = 0, has_at = 0, has_tag = 0;

	switch (in->op) {
	case 2: data_bytes = 4, has_addr = 1; break;  /* CFG */
	case 3: data_bytes = 8, has_addr = 1; break;  /* IMEM */
	case 4: data_bytes = 4, has_addr = 1; break;  /* CMEM */
	case 5: data_bytes = 6, has_addr = 1, has_at = 1; break; /* LAUNCH */
	case 6: data_bytes = 128, has_at = 1, has_tag = 1; break; /* MRSP */
	case 7: has_at = 1; break;                    /* GRANT */
	case 8: data_bytes = 4; break;                /* LANE_EN */
	case 9: has_addr = 1; break;                  /* CNT_READ: the page, u16 */
	default: break;                               /* NOP, RESET */
	}
	assert_int_equal(out->op, in->op);
	assert_int_equal(out->sm, in->sm);
	assert_int_equal(out->all, in->all);
	assert_true(out->at == (has_at ? in->at : 0));
	assert_int_equal(out->addr, has_addr ? in->addr : 0);
	assert_int_equal(out->tag, has_tag ? in->tag : 0);
	assert_memory_equal(out->data, in->data, data_bytes);
	for (unsigned i = data_bytes; i < WGL_MEM_BYTES; i++)
		assert_int_equal(out->data[i], 0);
}

static struct wg_link_cmd max_cmd(unsigned op)
{
	struct wg_link_cmd c;

	memset(&c, 0, sizeof(c));
	c.op = (uint8_t)op;
	c.sm = 255;
	c.all = 1;
	c.at = UINT64_MAX;
	c.addr = op == 9 ? 0xFFFF : UINT32_MAX; /* CNT_READ's page is a u16 */
	c.tag = 0xFFFF;
	for (unsigned i = 0; i < WGL_MEM_BYTES; i++)
		c.data[i] = (uint8_t)(0xFF - i); /* distinct bytes, so a shifted copy would show */
	return c;
}

/*
 * CNT_READ carries its page (the GPU's addr, docs/gpu.md section 4.3) in bytes 2..3 of the
 * 4-byte record: page 0x2034 (a histogram page) packs as 07 01 34 20 for SM 7, flags 1; a
 * page above 16 bits is refused; the receiver takes any page value (no FIELD error).
 */
static void cnt_read_carries_its_page_in_bytes_2_and_3(void **state)
{
	struct wg_link_cmd c = { .op = 9, .sm = 7, .all = 1, .addr = 0x2034 }, out;
	uint8_t r[WGL_CNT_READ_SIZE];
	const uint8_t want[WGL_CNT_READ_SIZE] = { 0x07, 0x01, 0x34, 0x20 };

	(void)state;
	assert_int_equal(wg_link_cmd_pack(&c, WGL_T_CNT_READ, r), 0);
	assert_memory_equal(r, want, sizeof(want));
	assert_int_equal(wg_link_rec_check(WGL_T_CNT_READ, r, NULL), 0);
	wg_link_cmd_unpack(WGL_T_CNT_READ, r, &out);
	assert_int_equal(out.addr, 0x2034);
	assert_int_equal(out.tag, 0);
	c.addr = 0x10000;
	assert_int_equal(wg_link_cmd_pack(&c, WGL_T_CNT_READ, r), WG_EINVAL);
}

static void every_command_round_trips_with_fields_at_their_limits(void **state)
{
	struct pair *p = *state;
	struct wg_link_cmd sent[22];
	unsigned n = 0;

	/* Each op with every field at its largest value, then with every field zero. */
	for (unsigned op = 0; op <= 9; op++) {
		sent[n++] = max_cmd(op);
		sent[n] = (struct wg_link_cmd){ .op = (uint8_t)op };
		n++;
	}
	/* MRSP with data zero goes as the no-data form; a tag-0 response to cycle 0 as well. */
	sent[n++] = (struct wg_link_cmd){ .op = 6, .sm = 3, .tag = 0xFFFF, .at = UINT64_MAX };
	sent[n] = max_cmd(6);
	sent[n].data[127] = 0x80;
	n++;
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(wg_link_put_cmd(p->host, &sent[i]), 0);
	assert_int_equal(wg_link_flush(p->host), 0);
	pump(p, 50);
	assert_int_equal(wg_link_error(p->host), 0);
	assert_int_equal(p->ncmds, n);
	for (unsigned i = 0; i < n; i++) {
		unsigned op = sent[i].op;
		/* indices 13 (all zero) and 20 (data zero) are responses without data */
		int nodata = i == 13 || i == 20;

		expect_cmd(&sent[i], &p->cmds[i].c);
		assert_int_equal(p->cmds[i].type, nodata ? WGL_T_MRSP_ND : (WGL_T_CMD | op));
	}
	assert_int_equal(n, 22);
	assert_int_equal(p->host_rep.nreports + p->gpu_rep.nreports, 0);
}

static struct wg_link_ev max_ev(unsigned kind)
{
	struct wg_link_ev e;

	memset(&e, 0, sizeof(e));
	e.kind = (uint8_t)kind;
	e.sm = 255;
	e.cycle = UINT64_MAX;
	switch (kind) {
	case 0: /* MREQ: port widths 2, 16 (tag), 32, 3, 4, 32, 32, 1, 1, 6, 18, 5 bits */
		e.cmd = 3, e.tag = 0xFFFF, e.addr = UINT32_MAX, e.size = 7, e.atom_op = 15;
		e.atom_b = UINT32_MAX, e.atom_c = 0xFFFFFFFEu, e.local = 1, e.wb = 1;
		e.warp = 63, e.pc = 0x3FFFF, e.lane = 31;
		for (unsigned i = 0; i < WGL_MEM_BYTES; i++) {
			e.wmask[i] = (uint8_t)((i % 3) == 0 || i == 127);
			e.wdata[i] = (uint8_t)(i * 7 + 1);
		}
		break;
	case 1: e.linear = UINT32_MAX; break;
	case 2: e.code = 15, e.fwarp = 63, e.fpc = 0x3FFFF, e.flane = 31, e.faddr = UINT32_MAX, e.linear = 0xFFFFFFFDu; break;
	case 3:
		e.rwarp = 63, e.linear = UINT32_MAX, e.rwic = 31, e.rseq = 0xFFFF, e.rpc = 0x3FFFF;
		e.ractive = UINT32_MAX, e.rexec = 0xAAAAAAAAu, e.rdst = 3, e.rreg = 63, e.rbeat = 3, e.rlast = 1;
		for (unsigned i = 0; i < WGL_LANES; i++)
			e.rdata[i] = 0xFFFFFFFFu - i;
		break;
	case 4: e.busy = UINT64_MAX; break;
	case 5:
		for (unsigned i = 0; i < WGL_CNT_WORDS; i++)
			e.cnt[i] = 0xFFFFFFFFu - 3 * i;
		break;
	case 6: e.err = 15; break;
	default: break;
	}
	return e;
}

/* The event fields as the host receives them equal the ones sent (unused ones were zero). */
static void expect_ev(const struct wg_link_ev *a, const struct wg_link_ev *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->sm, b->sm);
	assert_true(a->cycle == b->cycle);
	assert_int_equal(a->tag, b->tag);
	assert_int_equal(a->addr, b->addr);
	assert_int_equal(a->atom_b, b->atom_b);
	assert_int_equal(a->atom_c, b->atom_c);
	assert_int_equal(a->warp, b->warp);
	assert_int_equal(a->pc, b->pc);
	assert_int_equal(a->lane, b->lane);
	assert_int_equal(a->cmd, b->cmd);
	assert_int_equal(a->size, b->size);
	assert_int_equal(a->atom_op, b->atom_op);
	assert_int_equal(a->local, b->local);
	assert_int_equal(a->wb, b->wb);
	assert_memory_equal(a->wmask, b->wmask, WGL_MEM_BYTES);
	assert_memory_equal(a->wdata, b->wdata, WGL_MEM_BYTES);
	assert_int_equal(a->linear, b->linear);
	assert_int_equal(a->code, b->code);
	assert_int_equal(a->fwarp, b->fwarp);
	assert_int_equal(a->fpc, b->fpc);
	assert_int_equal(a->flane, b->flane);
	assert_int_equal(a->faddr, b->faddr);
	assert_int_equal(a->rwarp, b->rwarp);
	assert_int_equal(a->rwic, b->rwic);
	assert_int_equal(a->rseq, b->rseq);
	assert_int_equal(a->rpc, b->rpc);
	assert_int_equal(a->ractive, b->ractive);
	assert_int_equal(a->rexec, b->rexec);
	assert_int_equal(a->rdst, b->rdst);
	assert_int_equal(a->rreg, b->rreg);
	assert_int_equal(a->rbeat, b->rbeat);
	assert_int_equal(a->rlast, b->rlast);
	assert_memory_equal(a->rdata, b->rdata, sizeof(a->rdata));
	assert_true(a->busy == b->busy);
	assert_memory_equal(a->cnt, b->cnt, sizeof(a->cnt));
	assert_int_equal(a->err, b->err);
}

static void every_event_round_trips_with_fields_at_their_limits(void **state)
{
	struct pair *p = *state;
	struct wg_link_ev sent[20];
	uint8_t want_type[20];
	unsigned n = 0;

	for (unsigned k = 0; k <= 6; k++) {
		sent[n] = max_ev(k);
		want_type[n++] = (uint8_t)(WGL_T_EV | k);
		memset(&sent[n], 0, sizeof(sent[n]));
		sent[n].kind = (uint8_t)k;
		/* all-zero MREQ and RETIRE go in their no-data forms */
		want_type[n++] = (uint8_t)(k == 0 ? WGL_T_MREQ_ND : k == 3 ? WGL_T_RETIRE_ND : (WGL_T_EV | k));
	}
	/* A read request (no write data) at the limits, and a retire beat with lane values zero. */
	sent[n] = max_ev(0);
	memset(sent[n].wmask, 0, WGL_MEM_BYTES);
	memset(sent[n].wdata, 0, WGL_MEM_BYTES);
	want_type[n++] = WGL_T_MREQ_ND;
	sent[n] = max_ev(3);
	memset(sent[n].rdata, 0, sizeof(sent[n].rdata));
	want_type[n++] = WGL_T_RETIRE_ND;
	/* A write of one byte: the mask bit alone forces the full form. */
	memset(&sent[n], 0, sizeof(sent[n]));
	sent[n].wmask[127] = 1;
	want_type[n++] = WGL_T_MREQ;

	for (unsigned i = 0; i < n; i++)
		assert_int_equal(wg_link_put_ev(p->gpu, &sent[i]), 0);
	assert_int_equal(wg_link_flush(p->gpu), 0);
	pump(p, 50);
	assert_int_equal(p->nevs, n);
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(p->evs[i].type, want_type[i]);
		expect_ev(&sent[i], &p->evs[i].e);
	}
	assert_int_equal(p->host_rep.nreports + p->gpu_rep.nreports, 0);
}

static void trace_words_arrive_as_one_record_per_frame(void **state)
{
	struct pair *p = *state;
	uint8_t words[160];

	for (unsigned i = 0; i < sizeof(words); i++)
		words[i] = (uint8_t)(i ^ 0x5A);
	assert_int_equal(wg_link_put_trace(p->gpu, words, 6), WG_EINVAL); /* not whole words */
	assert_int_equal(wg_link_put_trace(p->host, words, 8), WG_EINVAL); /* the host sends no traces */
	assert_int_equal(wg_link_put_trace(p->gpu, words, sizeof(words)), 0);
	pump(p, 50);
	assert_int_equal(p->nevs, 1);
	assert_int_equal(p->evs[0].type, WGL_T_TRACE);
	assert_int_equal(p->evs[0].trace_len, 160);
	assert_memory_equal(p->evs[0].trace, words, 160);
}

static void fields_beyond_their_port_width_are_refused(void **state)
{
	uint8_t r[WGL_REC_MAX];
	struct wg_link_ev e = max_ev(0);
	struct wg_link_cmd c = max_cmd(6);
	struct pair *p = *state;

	assert_int_equal(wg_link_ev_pack(&e, WGL_T_MREQ, r), 0);
	e.pc = 0x40000; /* 19 bits: the pc port has 18 */
	assert_int_equal(wg_link_ev_pack(&e, WGL_T_MREQ, r), WG_EINVAL);
	e = max_ev(0);
	e.wmask[5] = 2; /* a mask byte is 0 or 1 */
	assert_int_equal(wg_link_ev_pack(&e, WGL_T_MREQ, r), WG_EINVAL);
	e = max_ev(0);
	assert_int_equal(wg_link_ev_pack(&e, WGL_T_MREQ_ND, r), WG_EINVAL); /* data would be lost */
	assert_int_equal(wg_link_ev_pack(&e, WGL_T_DONE, r), WG_EINVAL);    /* kind 0 is not DONE */
	e = max_ev(3);
	e.rreg = 64;
	assert_int_equal(wg_link_ev_pack(&e, WGL_T_RETIRE, r), WG_EINVAL);
	e = max_ev(6);
	e.err = 16;
	assert_int_equal(wg_link_ev_pack(&e, WGL_T_ERROR, r), WG_EINVAL);
	c.tag = 0x10000; /* tags are at most 16 bits */
	assert_int_equal(wg_link_cmd_pack(&c, WGL_T_MRSP, r), WG_EINVAL);
	c = max_cmd(2);
	c.all = 2;
	assert_int_equal(wg_link_cmd_pack(&c, WGL_T_CFG, r), WG_EINVAL);
	c.op = 10; /* no such op */
	assert_int_equal(wg_link_cmd_type(&c), WG_EINVAL);
	c = max_cmd(2);
	/* Each side sends its own direction only. */
	assert_int_equal(wg_link_put_cmd(p->gpu, &c), WG_EINVAL);
	assert_int_equal(wg_link_put_ev(p->host, &e), WG_EINVAL);
	assert_int_equal(wg_link_error(p->host), 0);
}

static void a_received_field_out_of_range_fails_the_link_and_nothing_of_the_frame_is_used(void **state)
{
	struct pair *p = *state;
	uint8_t f[256], r[2 * WGL_MREQ_ND_SIZE];
	struct wg_link_ev e = max_ev(0);
	size_t n;
	int i;

	memset(e.wmask, 0, sizeof(e.wmask));
	memset(e.wdata, 0, sizeof(e.wdata));
	assert_int_equal(wg_link_ev_pack(&e, WGL_T_MREQ_ND, r), 0);
	assert_int_equal(wg_link_ev_pack(&e, WGL_T_MREQ_ND, r + WGL_MREQ_ND_SIZE), 0);
	r[WGL_MREQ_ND_SIZE + WGL_MREQ_WARP] = 64; /* second record: warp 64 on a 6-bit port */
	n = craft(f, WGL_T_MREQ_ND, 0, 2, r, sizeof(r));
	/* The host's stream so far is the GPU's HELLO reply (16 + 92 + 4 = 112 bytes). */
	assert_int_equal(wg_link_rx(p->host, f, n), WG_ELINK);
	assert_int_equal(wg_link_error(p->host), WG_ELINK);
	assert_int_equal(p->nevs, 0); /* the first, good record was not delivered either */
	i = find_report(p->host_rep.reports, p->host_rep.nreports, WGL_E_FIELD);
	assert_true(i >= 0);
	assert_int_equal(p->host_rep.reports[i].expected, 63);
	assert_int_equal(p->host_rep.reports[i].actual, 64);
	assert_int_equal(p->host_rep.reports[i].type, WGL_T_MREQ_ND);
	/* offset: 112 (stream before) + 16 (header) + 36 (first record) + 30 (WARP) = 194 */
	assert_true(p->host_rep.reports[i].offset == 194);
	/* A failed link refuses everything. */
	assert_int_equal(wg_link_put_cmd(p->host, &(struct wg_link_cmd){ .op = 7 }), WG_ELINK);
}

static void records_of_one_type_share_a_frame_up_to_the_payload_limit(void **state)
{
	struct pair *p = *state;
	struct wg_link_cmd c = max_cmd(6);
	struct wg_link_stats hs;

	/* 1000 full responses: 116 records of 140 bytes fit 16364 bytes (117 would need 16380), so
	 * ceil(1000 / 116) = 9 frames; three grants make one more; one more response another. */
	for (unsigned i = 0; i < 1000; i++) {
		c.tag = i;
		assert_int_equal(wg_link_put_cmd(p->host, &c), 0);
	}
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(wg_link_put_cmd(p->host, &(struct wg_link_cmd){ .op = 7, .at = i }), 0);
	assert_int_equal(wg_link_put_cmd(p->host, &c), 0);
	assert_int_equal(wg_link_flush(p->host), 0);
	pump(p, 100);
	wg_link_stats(p->host, &hs);
	assert_int_equal(hs.tx_frames, 11);
	assert_int_equal(hs.tx_records, 1004);
	assert_int_equal(p->ncmds, 1004);
	assert_int_equal(p->cmds[115].seq, 0);
	assert_int_equal(p->cmds[116].seq, 1);
	assert_int_equal(p->cmds[999].seq, 8);
	assert_int_equal(p->cmds[999].c.tag, 999);
	assert_int_equal(p->cmds[1000].type, WGL_T_GRANT);
	assert_int_equal(p->cmds[1002].seq, 9);
	assert_int_equal(p->cmds[1003].seq, 10);
}

static void before_the_hello_answer_frames_are_small_and_held_back(void **state)
{
	struct pair *p = pair_new(16, 8);
	struct wg_link_cmd c = max_cmd(6);
	const uint8_t *f;
	size_t n;

	(void)state;
	/* Until the GPU's HELLO gives its limit, frames hold at most WGL_PAYLOAD_MIN = 1024 bytes:
	 * 7 responses of 140 bytes (980), so 10 responses make 2 frames. */
	for (unsigned i = 0; i < 10; i++)
		assert_int_equal(wg_link_put_cmd(p->host, &c), 0);
	assert_int_equal(wg_link_flush(p->host), 0);
	assert_int_equal(wg_link_tx_next(p->host, &f, &n), 1);
	assert_int_equal(f[WGL_H_TYPE], WGL_T_HELLO);
	assert_int_equal(wg_link_tx_next(p->host, &f, &n), 0); /* data waits for the answer */
	assert_null(wg_link_peer(p->host));
	pump(p, 50);
	assert_int_equal(p->ncmds, 10);
	assert_int_equal(p->cmds[6].seq, 0);
	assert_int_equal(p->cmds[7].seq, 1);
	/* The host now knows the GPU build. */
	assert_non_null(wg_link_peer(p->host));
	assert_int_equal(wg_link_peer(p->host)->num_sms, 15);
	assert_int_equal(wg_link_peer(p->host)->cnt_words, WGL_CNT_WORDS);
	assert_int_equal(wg_link_peer(p->host)->max_payload, WGL_PAYLOAD_MAX);
	assert_int_equal(wg_link_peer(p->host)->version, WGL_VERSION);
	assert_int_equal(wg_link_peer(p->gpu)->role, WGL_ROLE_HOST);
	pair_free(p);
}

static void a_hello_of_another_version_fails_the_link(void **state)
{
	struct pair *p = pair_new(16, 8);
	struct wg_link_info in = test_build();
	uint8_t rec[WGL_HELLO_SIZE], f[128];
	const uint8_t *out;
	size_t n;
	int i;

	(void)state;
	assert_int_equal(wg_link_tx_next(p->host, &out, &n), 1); /* the host's HELLO */
	in.version = 2;
	in.role = WGL_ROLE_GPU;
	in.max_payload = WGL_PAYLOAD_MAX;
	wg_link_hello_pack(&in, 1, rec);
	n = craft(f, WGL_T_HELLO, 0, 1, rec, sizeof(rec));
	assert_int_equal(wg_link_rx(p->host, f, n), WG_ELINK);
	i = find_report(p->host_rep.reports, p->host_rep.nreports, WGL_E_VERSION);
	assert_true(i >= 0);
	assert_int_equal(p->host_rep.reports[i].expected, 1);
	assert_int_equal(p->host_rep.reports[i].actual, 2);
	assert_false(wg_link_up(p->host));
	pair_free(p);
}

/* ------------------------------------------------------------------------ */
/* Decoder                                                                  */

static void feed_all(struct dec_fix *f, const uint8_t *s, size_t n)
{
	assert_int_equal(wg_link_dec_feed(f->d, s, n), 0);
	assert_int_equal(wg_link_dec_end(f->d), 0);
}

static void a_corrupted_byte_anywhere_is_caught_and_the_next_frame_still_arrives(void **state)
{
	uint8_t s[1024];
	size_t a, b, c;
	static const uint8_t masks[] = { 0x01, 0x80, 0xFF, 0x5A };

	(void)state;
	/* Three frames; every byte of the middle one corrupted in turn, with several masks. */
	a = craft_grant(s, 0, 1);
	b = craft_mrsp2(s + a, 1);
	c = craft_cfg(s + a + b, 2, 0x77);
	for (size_t pos = 0; pos < b; pos++)
		for (size_t m = 0; m < sizeof(masks); m++) {
			struct dec_fix *f;
			uint8_t t[1024];

			memcpy(t, s, a + b + c);
			t[a + pos] ^= masks[m];
			dec_setup_dir((void **)&f, WG_LINK_TO_GPU, WGL_PAYLOAD_MAX);
			feed_all(f, t, a + b + c);
			/* Exactly the first and last frame, once each, in order. */
			assert_int_equal(f->cap.nframes, 2);
			assert_int_equal(f->cap.frames[0].seq, 0);
			assert_int_equal(f->cap.frames[1].seq, 2);
			assert_int_equal(f->cap.frames[1].type, WGL_T_CFG);
			assert_true(f->cap.frames[1].offset == a + b);
			/* The first report points into the damaged frame. */
			assert_true(f->cap.nreports >= 1);
			assert_true(f->cap.reports[0].offset >= a && f->cap.reports[0].offset < a + b);
			/* A damaged header is caught by the header check before the payload is awaited. */
			if (pos >= 4 && pos < WGL_HDR_BYTES)
				assert_int_equal(f->cap.reports[0].code, WGL_E_HCHK);
			if (pos >= WGL_HDR_BYTES)
				assert_int_equal(f->cap.reports[0].code, WGL_E_CRC);
			if (pos < 4)
				assert_int_equal(f->cap.reports[0].code, WGL_E_SYNC);
			dec_teardown((void **)&f);
		}
}

static void a_bad_crc_is_reported_with_expected_and_actual_values(void **state)
{
	struct dec_fix *f = *state;
	uint8_t s[256];
	size_t a = craft_grant(s, 41, 7), b;
	uint32_t good;

	b = craft_cfg(s + a, 42, 9);
	good = wgl_get32(s + a + b - 4);
	s[a + b - 1] ^= 0x10; /* the last CRC byte */
	feed_all(f, s, a + b);
	assert_int_equal(f->cap.nframes, 1);
	/* CRC report, then the 31 bytes after the frame's first sync byte are skipped as junk. */
	assert_int_equal(f->cap.nreports, 2);
	assert_int_equal(f->cap.reports[0].code, WGL_E_CRC);
	assert_int_equal(f->cap.reports[0].type, WGL_T_CFG);
	assert_int_equal(f->cap.reports[0].seq, 42);
	assert_true(f->cap.reports[0].offset == 32);
	assert_int_equal(f->cap.reports[0].expected, good);
	assert_int_equal(f->cap.reports[0].actual, good ^ 0x10000000u);
	assert_int_equal(f->cap.reports[1].code, WGL_E_SYNC);
	assert_true(f->cap.reports[1].offset == 33);
	assert_int_equal(f->cap.reports[1].actual, 31);
}

static void an_unknown_type_is_reported_and_skipped(void **state)
{
	struct dec_fix *f = *state;
	uint8_t s[256], pl[8] = { 0 };
	size_t a = craft(s, 0x7E, 3, 2, pl, 8), b, c;

	b = craft(s + a, WGL_T_DONE, 4, 1, pl, 8); /* an event type: not for a GPU-side decoder */
	c = craft_grant(s + a + b, 5, 1);
	feed_all(f, s, a + b + c);
	/* Both frames are well formed, so they are skipped whole (no junk) and the grant arrives. */
	assert_int_equal(f->cap.nframes, 1);
	assert_int_equal(f->cap.frames[0].seq, 5);
	assert_int_equal(f->cap.nreports, 2);
	assert_int_equal(f->cap.reports[0].code, WGL_E_TYPE);
	assert_int_equal(f->cap.reports[0].actual, 0x7E);
	assert_int_equal(f->cap.reports[0].seq, 3);
	assert_true(f->cap.reports[0].offset == 0);
	assert_int_equal(f->cap.reports[1].code, WGL_E_TYPE);
	assert_int_equal(f->cap.reports[1].actual, WGL_T_DONE);
	assert_true(f->cap.reports[1].offset == a);
}

static void an_unknown_type_fails_the_link(void **state)
{
	struct pair *p = *state;
	uint8_t s[64], pl[4] = { 0 };
	size_t n = craft(s, 0x5F, 0, 1, pl, 4);

	assert_int_equal(wg_link_rx(p->gpu, s, n), WG_ELINK);
	assert_true(find_report(p->gpu_rep.reports, p->gpu_rep.nreports, WGL_E_TYPE) >= 0);
	assert_int_equal(p->ncmds, 0);
}

static void an_oversize_length_is_reported_and_the_stream_resynchronises(void **state)
{
	struct dec_fix *f = *state; /* accepts payloads up to 1024 bytes */
	static uint8_t s[4096];
	static const uint8_t zeros[2000];
	size_t a = craft(s, WGL_T_TRACE, 0, 500, zeros, 2000), b;

	b = craft(s + a, WGL_T_TRACE, 1, 2, zeros, 8);
	feed_all(f, s, a + b);
	assert_int_equal(f->cap.nframes, 1);
	assert_int_equal(f->cap.frames[0].seq, 1);
	assert_true(f->cap.frames[0].offset == a);
	/* LENGTH at 0 (limit 1024, got 2000), then everything up to the next sync (a - 1 bytes) is junk. */
	assert_int_equal(f->cap.nreports, 2);
	assert_int_equal(f->cap.reports[0].code, WGL_E_LENGTH);
	assert_int_equal(f->cap.reports[0].expected, 1024);
	assert_int_equal(f->cap.reports[0].actual, 2000);
	assert_int_equal(f->cap.reports[0].type, WGL_T_TRACE);
	assert_int_equal(f->cap.reports[1].code, WGL_E_SYNC);
	assert_int_equal(f->cap.reports[1].actual, a - 1);
}

static void a_length_that_disagrees_with_the_record_count_is_reported(void **state)
{
	struct dec_fix *f = *state;
	uint8_t s[512], r[WGL_DONE_SIZE] = { 0 }, pl[2 * WGL_ACK_SIZE] = { 0 };
	size_t a = craft(s, WGL_T_DONE, 0, 2, r, WGL_DONE_SIZE), b, c;

	b = craft(s + a, WGL_T_ACK, 0, 2, pl, sizeof(pl)); /* link frames hold one record */
	c = craft(s + a + b, WGL_T_DONE, 1, 1, r, WGL_DONE_SIZE);
	feed_all(f, s, a + b + c);
	assert_int_equal(f->cap.nframes, 1);
	assert_int_equal(f->cap.frames[0].seq, 1);
	/* 2 DONE records are 32 bytes, the frame says 16; an ACK is 4 bytes. */
	assert_int_equal(f->cap.reports[0].code, WGL_E_LENGTH);
	assert_int_equal(f->cap.reports[0].expected, 32);
	assert_int_equal(f->cap.reports[0].actual, 16);
	assert_int_equal(f->cap.reports[2].code, WGL_E_LENGTH);
	assert_int_equal(f->cap.reports[2].expected, 4);
	assert_int_equal(f->cap.reports[2].actual, 8);
	assert_true(f->cap.reports[2].offset == a);
}

static void a_frame_truncated_by_the_end_of_the_stream_is_reported(void **state)
{
	struct dec_fix *f = *state;
	uint8_t s[512];
	size_t a = craft_grant(s, 0, 1), b = craft_mrsp2(s + a, 1);

	(void)b;
	assert_int_equal(wg_link_dec_feed(f->d, s, a + 100), 0);
	assert_int_equal(f->cap.nframes, 1);
	assert_int_equal(f->cap.nreports, 0); /* an incomplete frame is not an error yet */
	assert_int_equal(wg_link_dec_end(f->d), 0);
	/* 16 + 280 + 4 = 300 bytes expected, 100 there; then 99 bytes of junk. */
	assert_int_equal(f->cap.nreports, 2);
	assert_int_equal(f->cap.reports[0].code, WGL_E_TRUNC);
	assert_int_equal(f->cap.reports[0].expected, 300);
	assert_int_equal(f->cap.reports[0].actual, 100);
	assert_int_equal(f->cap.reports[0].seq, 1);
	assert_int_equal(f->cap.reports[0].type, WGL_T_MRSP);
	assert_true(f->cap.reports[0].offset == a);
	assert_int_equal(f->cap.reports[1].code, WGL_E_SYNC);
	assert_int_equal(f->cap.reports[1].actual, 99);
	assert_true(wg_link_dec_offset(f->d) == a + 100);
}

static void a_stream_ending_in_a_bare_header_or_sync_prefix_is_reported(void **state)
{
	struct dec_fix *f = *state;
	uint8_t s[64];
	size_t a = craft_grant(s, 0, 1);

	craft_grant(s + a, 1, 2);
	/* 10 bytes of the second frame: sync found, header incomplete. */
	feed_all(f, s, a + 10);
	assert_int_equal(f->cap.nframes, 1);
	assert_int_equal(f->cap.reports[0].code, WGL_E_TRUNC);
	assert_int_equal(f->cap.reports[0].expected, WGL_HDR_BYTES);
	assert_int_equal(f->cap.reports[0].actual, 10);
	assert_int_equal(f->cap.reports[1].code, WGL_E_SYNC);
	assert_int_equal(f->cap.reports[1].actual, 9);
	/* Two bytes of a sync word alone at the end are junk. */
	f->cap.nreports = 0;
	assert_int_equal(wg_link_dec_feed(f->d, s, 2), 0);
	assert_int_equal(f->cap.nreports, 0);
	assert_int_equal(wg_link_dec_end(f->d), 0);
	assert_int_equal(f->cap.nreports, 1);
	assert_int_equal(f->cap.reports[0].code, WGL_E_SYNC);
	assert_int_equal(f->cap.reports[0].actual, 2);
}

/* A stream with every kind of damage, decoded in chunks of size chunk (0: one call; -1: random). */
static void decode_chunked(const uint8_t *s, size_t n, long chunk, struct capture *out)
{
	struct dec_fix *f;
	size_t off = 0;
	uint32_t r = 12345;

	dec_setup_dir((void **)&f, WG_LINK_TO_GPU, WGL_PAYLOAD_MAX);
	while (off < n) {
		size_t k = n - off;

		if (chunk > 0 && (size_t)chunk < k)
			k = (size_t)chunk;
		if (chunk < 0) {
			r = r * 1103515245u + 12345u;
			k = 1 + (r >> 8) % 3000;
			if (k > n - off)
				k = n - off;
		}
		assert_int_equal(wg_link_dec_feed(f->d, s + off, k), 0);
		off += k;
	}
	assert_int_equal(wg_link_dec_end(f->d), 0);
	*out = f->cap;
	dec_teardown((void **)&f);
}

static void expect_same_capture(const struct capture *a, const struct capture *b)
{
	assert_int_equal(a->nframes, b->nframes);
	for (unsigned i = 0; i < a->nframes; i++) {
		assert_int_equal(a->frames[i].type, b->frames[i].type);
		assert_int_equal(a->frames[i].nrec, b->frames[i].nrec);
		assert_int_equal(a->frames[i].len, b->frames[i].len);
		assert_int_equal(a->frames[i].seq, b->frames[i].seq);
		assert_true(a->frames[i].offset == b->frames[i].offset);
	}
	assert_int_equal(a->nreports, b->nreports);
	for (unsigned i = 0; i < a->nreports; i++) {
		assert_int_equal(a->reports[i].code, b->reports[i].code);
		assert_int_equal(a->reports[i].type, b->reports[i].type);
		assert_int_equal(a->reports[i].seq, b->reports[i].seq);
		assert_true(a->reports[i].offset == b->reports[i].offset);
		assert_int_equal(a->reports[i].expected, b->reports[i].expected);
		assert_int_equal(a->reports[i].actual, b->reports[i].actual);
	}
}

static void chunking_does_not_change_what_is_decoded(void **state)
{
	static uint8_t s[200000];
	static struct capture one, bytes, rnd, big;
	size_t n = 0;
	uint8_t pl[WGL_PAYLOAD_MAX];

	(void)state;
	memset(pl, 0, sizeof(pl));
	for (uint32_t seq = 0; seq < 60; seq++) {
		size_t at = n;

		switch (seq % 6) {
		case 0: n += craft_grant(s + n, seq, seq); break;
		case 1: n += craft_mrsp2(s + n, seq); break;
		case 2: n += craft(s + n, WGL_T_CMEM, seq, 1000, pl, 12000); break; /* a big frame */
		case 3: n += craft_cfg(s + n, seq, seq); break;
		case 4: memset(s + n, 0xA5, 7), n += 7; break;                    /* junk with sync bytes */
		default: n += craft_grant(s + n, seq, seq); s[at + 20] ^= 1; break; /* bad CRC */
		}
		if (seq == 31) /* a header with a corrupted length (caught by the header check) */
			s[at + WGL_H_LEN + 1] ^= 0x20;
	}
	n += craft_mrsp2(s + n, 60) - 50; /* truncated at the end */
	decode_chunked(s, n, 0, &one);
	decode_chunked(s, n, 1, &bytes);
	decode_chunked(s, n, -1, &rnd);
	decode_chunked(s, n, 65536, &big);
	/* 60 frames: 10 junk runs and 10 bad CRCs are not frames, seq 31 is damaged: 39 good ones. */
	assert_int_equal(one.nframes, 39);
	assert_true(one.nreports > 20);
	expect_same_capture(&one, &bytes);
	expect_same_capture(&one, &rnd);
	expect_same_capture(&one, &big);
	assert_int_equal(one.reports[one.nreports - 2].code, WGL_E_TRUNC);
}

/* ------------------------------------------------------------------------ */
/* Reliable link                                                            */

/* Three data frames A, B, C (seq 0, 1, 2) from the host: CFG 1, an MRSP, CFG 3. */
static void send_abc(struct pair *p)
{
	struct wg_link_cmd c = cfg_cmd(1), m = max_cmd(6);

	assert_int_equal(wg_link_put_cmd(p->host, &c), 0);
	assert_int_equal(wg_link_put_cmd(p->host, &m), 0);
	c = cfg_cmd(3);
	assert_int_equal(wg_link_put_cmd(p->host, &c), 0);
	assert_int_equal(wg_link_flush(p->host), 0);
}

static void expect_abc_once_in_order(struct pair *p)
{
	assert_int_equal(wg_link_error(p->host), 0);
	assert_int_equal(wg_link_error(p->gpu), 0);
	assert_int_equal(p->ncmds, 3);
	assert_int_equal(p->cmds[0].c.op, 2);
	assert_int_equal(p->cmds[0].c.addr, 1);
	assert_int_equal(p->cmds[1].c.op, 6);
	assert_int_equal(p->cmds[1].c.tag, 0xFFFF);
	assert_int_equal(p->cmds[2].c.addr, 3);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(p->cmds[i].seq, i);
	assert_true(wg_link_idle(p->host));
}

static void a_corrupted_frame_anywhere_is_resent_and_all_arrive_once_in_order(void **state)
{
	/* Frame B is 16 + 140 + 4 = 160 bytes; corrupt each of its bytes on its first trip. */
	(void)state;
	for (size_t pos = 0; pos < 160; pos++) {
		struct pair *p;
		struct wg_link_stats hs;

		pair_setup((void **)&p);
		p->h2g.fault = F_CORRUPT;
		p->h2g.fault_seq = 1;
		p->h2g.corrupt_pos = pos;
		p->h2g.corrupt_xor = (uint8_t)(0x01 << (pos % 8));
		send_abc(p);
		pump(p, 200);
		assert_true(p->h2g.hit);
		expect_abc_once_in_order(p);
		assert_true(p->gpu_rep.nreports >= 1);
		/* C showed the gap: NAK from 1, B and C sent again. */
		assert_true(find_report(p->gpu_rep.reports, p->gpu_rep.nreports, WGL_E_GAP) >= 0);
		wg_link_stats(p->host, &hs);
		assert_int_equal(hs.tx_retx, 2);
		assert_int_equal(hs.naks_rcvd, 1);
		assert_int_equal(hs.timeouts, 0);
		/* The GPU side told the host what it saw. */
		assert_true(p->host_rep.nreports >= 1);
		assert_int_equal(p->host_rep.reports[0].remote, 1);
		pair_teardown((void **)&p);
	}
}

static void a_dropped_frame_is_asked_for_again_with_a_nak(void **state)
{
	struct pair *p = *state;
	struct wg_link_stats hs, gs;
	int i;

	p->h2g.fault = F_DROP;
	p->h2g.fault_seq = 1;
	send_abc(p);
	pump(p, 100);
	expect_abc_once_in_order(p);
	/* The GPU saw C (seq 2) while expecting B (seq 1). */
	i = find_report(p->gpu_rep.reports, p->gpu_rep.nreports, WGL_E_GAP);
	assert_true(i >= 0);
	assert_int_equal(p->gpu_rep.reports[i].expected, 1);
	assert_int_equal(p->gpu_rep.reports[i].actual, 2);
	assert_int_equal(p->gpu_rep.reports[i].seq, 2);
	assert_int_equal(p->gpu_rep.reports[i].type, WGL_T_CFG);
	wg_link_stats(p->gpu, &gs);
	wg_link_stats(p->host, &hs);
	assert_int_equal(gs.naks_sent, 1);
	assert_int_equal(hs.naks_rcvd, 1);
	assert_int_equal(hs.tx_frames, 5); /* A, B (lost), C, then B and C again */
	assert_int_equal(hs.tx_retx, 2);
	assert_int_equal(hs.timeouts, 0);
	assert_int_equal(p->now, 0); /* recovered without waiting for a timeout */
	assert_int_equal(hs.in_flight, 0);
}

static void frames_after_a_gap_draw_a_single_nak(void **state)
{
	struct pair *p = *state;
	const uint8_t *f, *out;
	uint8_t frames[5][256];
	size_t lens[5], n;
	unsigned k = 0, naks = 0;
	struct wg_link_stats hs;

	/* Frames 0..4 from the host; 1 is lost; 2, 3 and 4 arrive one by one, the GPU
	 * answering after each: all three show the gap, but it asks once (once per rto). */
	send_abc(p);
	for (uint32_t a = 4; a <= 5; a++) {
		struct wg_link_cmd c = cfg_cmd(a);

		assert_int_equal(wg_link_put_cmd(p->host, &c), 0);
		assert_int_equal(wg_link_flush(p->host), 0);
	}
	while (wg_link_tx_next(p->host, &f, &n) == 1) {
		assert_true(k < 5 && n <= 256);
		memcpy(frames[k], f, n);
		lens[k++] = n;
	}
	assert_int_equal(k, 5);
	for (unsigned i = 0; i < 5; i++) {
		if (i == 1)
			continue;
		assert_int_equal(wg_link_rx(p->gpu, frames[i], lens[i]), 0);
		while (wg_link_tx_next(p->gpu, &out, &n) == 1) {
			naks += out[WGL_H_TYPE] == WGL_T_NAK;
			assert_int_equal(wg_link_rx(p->host, out, n), 0);
		}
	}
	assert_int_equal(naks, 1);
	assert_int_equal(p->ncmds, 1);
	pump(p, 100);
	assert_int_equal(p->ncmds, 5);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(p->cmds[i].seq, i);
	wg_link_stats(p->host, &hs);
	assert_int_equal(hs.tx_retx, 4); /* 1, 2, 3, 4 again */
	assert_int_equal(hs.naks_rcvd, 1);
}

static void a_lost_ack_is_repaired_by_a_resend_and_a_second_ack(void **state)
{
	struct pair *p = *state;
	struct wg_link_stats hs;
	int i;

	/* The GPU's ACK of A, B, C is lost: the host times out and sends them again; the GPU
	 * drops all three as duplicates and acknowledges again. */
	p->g2h.fault_type = WGL_T_ACK;
	p->g2h.fault = F_DROP;
	send_abc(p);
	pump(p, 100);
	assert_true(p->g2h.hit);
	expect_abc_once_in_order(p);
	wg_link_stats(p->host, &hs);
	assert_int_equal(hs.timeouts, 1);
	assert_int_equal(hs.tx_retx, 3);
	i = find_report(p->gpu_rep.reports, p->gpu_rep.nreports, WGL_E_DUP);
	assert_true(i >= 0);
	assert_int_equal(p->gpu_rep.reports[i].expected, 3);
	assert_int_equal(p->gpu_rep.reports[i].actual, 0);
}

static void a_duplicated_frame_is_dropped_and_reported(void **state)
{
	struct pair *p = *state;
	int i;

	p->h2g.fault = F_DUP;
	p->h2g.fault_seq = 1;
	send_abc(p);
	pump(p, 100);
	expect_abc_once_in_order(p);
	i = find_report(p->gpu_rep.reports, p->gpu_rep.nreports, WGL_E_DUP);
	assert_true(i >= 0);
	assert_int_equal(p->gpu_rep.reports[i].expected, 2);
	assert_int_equal(p->gpu_rep.reports[i].actual, 1);
	assert_int_equal(p->gpu_rep.nreports, 1);
	assert_int_equal(p->h2g.data_frames, 3);
}

static void a_lost_last_frame_is_resent_after_the_timeout(void **state)
{
	struct pair *p = *state;
	struct wg_link_stats hs;

	p->h2g.fault = F_DROP;
	p->h2g.fault_seq = 2; /* nothing follows C to show the gap */
	send_abc(p);
	pump(p, 100);
	expect_abc_once_in_order(p);
	wg_link_stats(p->host, &hs);
	assert_int_equal(hs.timeouts, 1);
	assert_int_equal(hs.tx_retx, 1);
	assert_int_equal(p->now, RTO);
}

static void a_lost_frame_is_found_from_the_next_link_frame(void **state)
{
	struct pair *p = *state;
	struct wg_link_ev e = max_ev(1);
	struct wg_link_stats hs;

	/* C is lost; then the host acknowledges an event, and its ACK says "next data frame 3". */
	p->h2g.fault = F_DROP;
	p->h2g.fault_seq = 2;
	send_abc(p);
	assert_int_equal(move(p->host, &p->h2g, p->gpu), 1);
	assert_int_equal(wg_link_put_ev(p->gpu, &e), 0);
	assert_int_equal(wg_link_flush(p->gpu), 0);
	pump(p, 100);
	expect_abc_once_in_order(p);
	wg_link_stats(p->host, &hs);
	assert_int_equal(hs.timeouts, 0);
	assert_int_equal(hs.naks_rcvd, 1);
	assert_int_equal(p->nevs, 1);
}

static void a_dead_wire_fails_the_link_after_the_retry_limit(void **state)
{
	struct pair *p;
	int i;

	(void)state;
	wg_log_set_level(WG_LOG_ERROR);
	p = pair_new(16, 3);
	pump(p, 50);
	p->h2g.fault = F_DROP_ALL;
	send_abc(p);
	pump(p, 100);
	assert_int_equal(wg_link_error(p->host), WG_ELINK);
	i = find_report(p->host_rep.reports, p->host_rep.nreports, WGL_E_RETRY);
	assert_true(i >= 0);
	assert_int_equal(p->host_rep.reports[i].expected, 3);
	assert_int_equal(p->host_rep.reports[i].actual, 4);
	assert_int_equal(p->ncmds, 0);
	/* Three retransmissions of all three frames, after waits of 1, 2 and 4 rto; the fourth
	 * timeout, 8 rto later, gave up. */
	assert_int_equal(p->h2g.data_frames, 12);
	assert_int_equal(p->now, 15 * RTO);
	assert_int_equal(p->now, wg_link_retry_span(RTO, 3));
	pair_free(p);
	wg_log_set_level(WG_LOG_ERROR);
}

/* A peer that is alive but slower than rto: the waits between go-backs grow (1, 2, 4 rto), so
 * a link that a fixed rto would give up at 4 rto still gets through at 7 rto. */
static void a_slow_peer_gets_growing_waits_and_progress_resets_them(void **state)
{
	struct pair *p;
	struct wg_link_stats hs;
	struct wg_link_cmd c = cfg_cmd(9);
	uint64_t t;

	(void)state;
	p = pair_new(16, 3);
	pump(p, 50);
	/* Every data frame is lost until 5 rto: the first send and the go-backs at 1 and 3 rto. */
	p->h2g.fault = F_DROP_ALL;
	send_abc(p);
	while (p->now < 5 * RTO && !wg_link_error(p->host))
		pump(p, 1);
	assert_int_equal(p->ncmds, 0);
	p->h2g.fault = F_NONE;
	pump(p, 100);
	expect_abc_once_in_order(p);
	wg_link_stats(p->host, &hs);
	assert_int_equal(hs.timeouts, 3);
	assert_int_equal(p->h2g.data_frames, 12); /* three frames, sent four times */
	assert_int_equal(p->now, 7 * RTO);
	/* The ACK was progress: a frame lost now is sent again after one rto, not eight. */
	t = p->now;
	p->h2g.fault = F_DROP;
	p->h2g.fault_seq = 3;
	p->h2g.hit = 0;
	assert_int_equal(wg_link_put_cmd(p->host, &c), 0);
	assert_int_equal(wg_link_flush(p->host), 0);
	pump(p, 100);
	assert_int_equal(wg_link_error(p->host), 0);
	assert_int_equal(p->ncmds, 4);
	assert_int_equal(p->cmds[3].c.addr, 9);
	wg_link_stats(p->host, &hs);
	assert_int_equal(hs.timeouts, 4);
	assert_int_equal(p->now, t + RTO);
	pair_free(p);
}

/* A gap whose NAKs are all lost: the receiver asks again after 1, 2 and 4 rto, then fails. */
static void unanswered_naks_are_repeated_after_growing_waits(void **state)
{
	struct pair *p;
	const uint8_t *f, *out;
	uint8_t frames[3][256];
	size_t lens[3], n;
	unsigned k = 0, naks = 0;
	uint64_t at[5] = { 0 }, t;

	(void)state;
	p = pair_new(16, 3);
	pump(p, 50);
	send_abc(p);
	while (wg_link_tx_next(p->host, &f, &n) == 1) {
		assert_true(k < 3 && n <= 256);
		memcpy(frames[k], f, n);
		lens[k++] = n;
	}
	assert_int_equal(k, 3);
	/* A arrives, B is lost, C shows the gap; the GPU's NAKs go nowhere. */
	assert_int_equal(wg_link_rx(p->gpu, frames[0], lens[0]), 0);
	assert_int_equal(wg_link_rx(p->gpu, frames[2], lens[2]), 0);
	for (t = p->now; t <= p->now + 40 * RTO && !wg_link_error(p->gpu); t += RTO) {
		wg_link_poll(p->gpu, t);
		while (wg_link_tx_next(p->gpu, &out, &n) == 1)
			if (out[WGL_H_TYPE] == WGL_T_NAK && naks < 5)
				at[naks++] = t - p->now;
	}
	assert_int_equal(naks, 4);
	assert_int_equal(at[0], 0);
	assert_int_equal(at[1], RTO);
	assert_int_equal(at[2], 3 * RTO);
	assert_int_equal(at[3], 7 * RTO);
	assert_int_equal(wg_link_error(p->gpu), WG_ELINK);
	assert_int_equal(t - RTO - p->now, 15 * RTO);
	assert_int_equal(p->ncmds, 1);
	pair_free(p);
}

static void an_unanswered_hello_fails_the_link(void **state)
{
	struct wg_link *h;
	struct capture cap = { 0 };
	struct wg_link_params hp = { .role = WGL_ROLE_HOST, .rto = 10, .max_retries = 2, .on_report = cap_report,
		                     .arg = &cap };
	const uint8_t *f;
	size_t n;
	unsigned hellos = 0;
	uint64_t at[4] = { 0 }, t;

	(void)state;
	wg_log_set_level(WG_LOG_ERROR);
	assert_int_equal(wg_link_create(&h, &hp), 0);
	for (t = 0; t <= 200 && !wg_link_error(h); t += 10) {
		wg_link_poll(h, t);
		while (wg_link_tx_next(h, &f, &n) == 1)
			if (f[WGL_H_TYPE] == WGL_T_HELLO && hellos < 4)
				at[hellos++] = t;
	}
	/* HELLO at 0, again after 10 and 20 more, gave up 40 after that. */
	assert_int_equal(hellos, 3);
	assert_int_equal(at[1], 10);
	assert_int_equal(at[2], 30);
	assert_int_equal(t - 10, 70);
	assert_int_equal(wg_link_error(h), WG_ELINK);
	assert_int_equal(cap.reports[0].code, WGL_E_RETRY);
	wg_link_destroy(h);
	wg_log_set_level(WG_LOG_ERROR);
}

static void the_window_bounds_the_frames_in_flight(void **state)
{
	struct pair *p;
	const uint8_t *f;
	size_t n;
	unsigned sent = 0;
	struct wg_link_stats hs;
	uint8_t ack[64], pl[4];

	(void)state;
	p = pair_new(4, 8);
	pump(p, 50);
	for (unsigned i = 0; i < 10; i++) {
		struct wg_link_cmd c = cfg_cmd(i);

		assert_int_equal(wg_link_put_cmd(p->host, &c), 0);
		assert_int_equal(wg_link_flush(p->host), 0);
	}
	while (wg_link_tx_next(p->host, &f, &n) == 1)
		sent++;
	wg_link_stats(p->host, &hs);
	assert_int_equal(sent, 4);
	assert_int_equal(hs.in_flight, 4);
	assert_int_equal(hs.queued, 6);
	/* An ACK of frames 0 and 1 makes room for two more (seq 4, 5). */
	wgl_put32(pl, 2);
	n = craft(ack, WGL_T_ACK, 0, 1, pl, 4);
	assert_int_equal(wg_link_rx(p->host, ack, n), 0);
	assert_int_equal(wg_link_tx_next(p->host, &f, &n), 1);
	assert_int_equal(wgl_get32(f + WGL_H_SEQ), 4);
	assert_int_equal(wg_link_tx_next(p->host, &f, &n), 1);
	assert_int_equal(wgl_get32(f + WGL_H_SEQ), 5);
	assert_int_equal(wg_link_tx_next(p->host, &f, &n), 0);
	pair_free(p);
}

static void an_ack_of_a_frame_never_sent_fails_the_link(void **state)
{
	struct pair *p = *state;
	uint8_t ack[64], pl[4];
	size_t n;
	int i;

	wgl_put32(pl, 100);
	n = craft(ack, WGL_T_ACK, 0, 1, pl, 4);
	assert_int_equal(wg_link_rx(p->host, ack, n), WG_ELINK);
	i = find_report(p->host_rep.reports, p->host_rep.nreports, WGL_E_WINDOW);
	assert_true(i >= 0);
	assert_int_equal(p->host_rep.reports[i].expected, 0); /* nothing was sent */
	assert_int_equal(p->host_rep.reports[i].actual, 100);
}

static void byte_at_a_time_delivery_gives_the_same_records(void **state)
{
	struct pair *p = *state;

	p->h2g.chunk = 1;
	p->g2h.chunk = 3;
	p->h2g.fault = F_DROP;
	p->h2g.fault_seq = 1;
	send_abc(p);
	pump(p, 100);
	expect_abc_once_in_order(p);
}

static void report_lines_name_what_was_expected_and_what_came(void **state)
{
	char buf[256];
	struct wg_link_report r = { .code = WGL_E_CRC, .type = 0x16, .seq = 12, .offset = 4096, .expected = 0x1234abcd,
		                    .actual = 0xdeadbeef };

	(void)state;
	wg_link_report_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "bad CRC: frame type 0x16 seq 12 at offset 4096: expected 0x1234abcd, got 0xdeadbeef");
	r = (struct wg_link_report){ .code = WGL_E_GAP, .remote = 1, .type = 0x12, .seq = 9, .offset = 7,
		                     .expected = 8, .actual = 9 };
	wg_link_report_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "peer: sequence gap, frames lost: frame type 0x12 seq 9 at offset 7: expected 8, got 9");
	r = (struct wg_link_report){ .code = WGL_E_SYNC, .offset = 33, .actual = 31 };
	wg_link_report_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "bytes skipped looking for a sync word: 31 bytes at offset 33");
	r = (struct wg_link_report){ .code = WGL_E_RETRY, .expected = 8, .actual = 9 };
	wg_link_report_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "retransmission limit reached: try 9 of at most 8 without progress");
	r = (struct wg_link_report){ .code = WGL_E_TYPE, .type = 0x5f, .seq = 3, .offset = 112, .actual = 0x5f };
	wg_link_report_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "unknown frame type 0x5f: seq 3 at offset 112");
	assert_string_equal(wg_link_error_name(WGL_E_TRUNC), "trunc");
	assert_string_equal(wg_link_error_name(99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crc32_matches_the_standard_check_values_and_chains),
		cmocka_unit_test(a_grant_frame_has_the_documented_bytes),
		cmocka_unit_test(record_sizes_match_the_layout_tables),
		cmocka_unit_test(report_lines_name_what_was_expected_and_what_came),
		cmocka_unit_test(cnt_read_carries_its_page_in_bytes_2_and_3),
		cmocka_unit_test_setup_teardown(every_command_round_trips_with_fields_at_their_limits, pair_setup,
		                                pair_teardown),
		cmocka_unit_test_setup_teardown(every_event_round_trips_with_fields_at_their_limits, pair_setup,
		                                pair_teardown),
		cmocka_unit_test_setup_teardown(trace_words_arrive_as_one_record_per_frame, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(fields_beyond_their_port_width_are_refused, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(a_received_field_out_of_range_fails_the_link_and_nothing_of_the_frame_is_used,
		                                pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(records_of_one_type_share_a_frame_up_to_the_payload_limit, pair_setup,
		                                pair_teardown),
		cmocka_unit_test(before_the_hello_answer_frames_are_small_and_held_back),
		cmocka_unit_test(a_hello_of_another_version_fails_the_link),
		cmocka_unit_test(a_corrupted_byte_anywhere_is_caught_and_the_next_frame_still_arrives),
		cmocka_unit_test_setup_teardown(a_bad_crc_is_reported_with_expected_and_actual_values, dec_setup,
		                                dec_teardown),
		cmocka_unit_test_setup_teardown(an_unknown_type_is_reported_and_skipped, dec_setup, dec_teardown),
		cmocka_unit_test_setup_teardown(an_unknown_type_fails_the_link, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(an_oversize_length_is_reported_and_the_stream_resynchronises,
		                                dec_setup_small, dec_teardown),
		cmocka_unit_test_setup_teardown(a_length_that_disagrees_with_the_record_count_is_reported, dec_setup_small,
		                                dec_teardown),
		cmocka_unit_test_setup_teardown(a_frame_truncated_by_the_end_of_the_stream_is_reported, dec_setup,
		                                dec_teardown),
		cmocka_unit_test_setup_teardown(a_stream_ending_in_a_bare_header_or_sync_prefix_is_reported, dec_setup,
		                                dec_teardown),
		cmocka_unit_test(chunking_does_not_change_what_is_decoded),
		cmocka_unit_test(a_corrupted_frame_anywhere_is_resent_and_all_arrive_once_in_order),
		cmocka_unit_test_setup_teardown(a_dropped_frame_is_asked_for_again_with_a_nak, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(frames_after_a_gap_draw_a_single_nak, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(a_duplicated_frame_is_dropped_and_reported, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(a_lost_ack_is_repaired_by_a_resend_and_a_second_ack, pair_setup,
		                                pair_teardown),
		cmocka_unit_test_setup_teardown(a_lost_last_frame_is_resent_after_the_timeout, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(a_lost_frame_is_found_from_the_next_link_frame, pair_setup, pair_teardown),
		cmocka_unit_test(a_dead_wire_fails_the_link_after_the_retry_limit),
		cmocka_unit_test(a_slow_peer_gets_growing_waits_and_progress_resets_them),
		cmocka_unit_test(unanswered_naks_are_repeated_after_growing_waits),
		cmocka_unit_test(an_unanswered_hello_fails_the_link),
		cmocka_unit_test(the_window_bounds_the_frames_in_flight),
		cmocka_unit_test_setup_teardown(an_ack_of_a_frame_never_sent_fails_the_link, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(byte_at_a_time_delivery_gives_the_same_records, pair_setup, pair_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
