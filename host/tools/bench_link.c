/*
 * bench_link: throughput of the link protocol's frame codec (docs/protocol.md).
 *
 *   bench_link [-s SECONDS]     (make bench-link)
 *
 * For memory-request-sized and memory-response-sized records, measures
 *   encode    records packed into batched frames (header, CRC) in memory;
 *   decode    that byte stream fed to the streaming decoder in 16 KB chunks
 *             (header check, CRC, record checks, unpacking into structs);
 *   link      the reliable link end to end in one thread: records put on one
 *             side, frames carried to the other, delivered, acknowledged back.
 * MB/s counts frame bytes on the wire (MB = 10^6 bytes). Prints figures, asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "link.h"
#include "log.h"
#include "warpgate.h"

#define STREAM_BYTES (32u << 20)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The four record shapes of memory traffic. */
enum shape { MREQ_READ, MREQ_WRITE, MRSP_DATA, MRSP_ACK, NSHAPES };

static const char *const shape_names[NSHAPES] = {
	"MREQ read (no data)", "MREQ write (mask+data)", "MRSP read data", "MRSP write ack",
};

static int shape_is_event(enum shape s)
{
	return s == MREQ_READ || s == MREQ_WRITE;
}

static void make_ev(enum shape s, uint32_t i, struct wg_link_ev *e)
{
	memset(e, 0, sizeof(*e));
	e->kind = 0;
	e->sm = (uint8_t)(i % 15);
	e->cycle = 1000 + i;
	e->tag = i & 0xFF;
	e->addr = 0x100000 + 128 * i;
	e->size = 7;
	e->warp = i % 48;
	e->pc = i & 0xFFF;
	if (s == MREQ_WRITE) {
		e->cmd = 1;
		for (unsigned b = 0; b < WGL_MEM_BYTES; b++) {
			e->wmask[b] = 1;
			e->wdata[b] = (uint8_t)(b + i);
		}
	}
}

static void make_cmd(enum shape s, uint32_t i, struct wg_link_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->op = WGL_T_CODE(WGL_T_MRSP);
	c->sm = (uint8_t)(i % 15);
	c->at = 1100 + i;
	c->tag = i & 0xFF;
	if (s == MRSP_DATA)
		for (unsigned b = 0; b < WGL_MEM_BYTES; b++)
			c->data[b] = (uint8_t)(b ^ i);
}

/* Pack one record of shape s into rec; returns its frame type. */
static unsigned pack(enum shape s, uint32_t i, uint8_t *rec, struct wg_link_ev *e, struct wg_link_cmd *c)
{
	int type;

	if (shape_is_event(s)) {
		make_ev(s, i, e);
		type = wg_link_ev_type(e);
		if (type < 0 || wg_link_ev_pack(e, (unsigned)type, rec))
			abort();
	} else {
		make_cmd(s, i, c);
		type = wg_link_cmd_type(c);
		if (type < 0 || wg_link_cmd_pack(c, (unsigned)type, rec))
			abort();
	}
	return (unsigned)type;
}

struct enc_result {
	uint8_t *stream;
	size_t bytes;
	uint64_t records;
	double secs;
};

/* Records into full frames, frames into the stream buffer, until the buffer is full. */
static void encode(enum shape s, uint8_t *stream, struct enc_result *r)
{
	static struct wg_link_ev e;
	static struct wg_link_cmd c;
	uint8_t *frame = stream;
	unsigned len = 0, nrec = 0, type = 0, size = 0;
	uint32_t seq = 0, i = 0;
	size_t out = 0;
	double t0 = now_s();

	for (;;) {
		if (!size) {
			uint8_t probe[WGL_REC_MAX];

			type = pack(s, 0, probe, &e, &c);
			size = wg_link_rec_size(type);
		}
		if (len + size > WGL_PAYLOAD_MAX) {
			wg_link_frame_seal(frame, type, seq++, nrec, len);
			out += WGL_HDR_BYTES + len + WGL_CRC_BYTES;
			frame = stream + out;
			len = nrec = 0;
			if (out + WGL_FRAME_MAX > STREAM_BYTES)
				break;
		}
		pack(s, i++, frame + WGL_HDR_BYTES + len, &e, &c);
		len += size;
		nrec++;
	}
	r->secs = now_s() - t0;
	r->stream = stream;
	r->bytes = out;
	r->records = (uint64_t)i - nrec;
}

struct dec_ctx {
	uint64_t records, bad;
	struct wg_link_ev e;
	struct wg_link_cmd c;
};

static int on_frame(void *arg, const struct wg_link_frame *f)
{
	struct dec_ctx *d = arg;
	unsigned size = wg_link_rec_size(f->type);

	for (unsigned i = 0; i < f->nrec; i++) {
		const uint8_t *rec = f->payload + (size_t)i * size;

		if (wg_link_rec_check(f->type, rec, NULL)) {
			d->bad++;
			continue;
		}
		if (f->type < WGL_T_EV || f->type == WGL_T_MRSP_ND)
			wg_link_cmd_unpack(f->type, rec, &d->c);
		else
			wg_link_ev_unpack(f->type, rec, &d->e);
		d->records++;
	}
	return 0;
}

static double decode(enum shape s, const struct enc_result *er, uint64_t *records, uint64_t *bad)
{
	static struct dec_ctx ctx;
	struct wg_link_dec *d;
	double t0;
	int dir = shape_is_event(s) ? WG_LINK_TO_HOST : WG_LINK_TO_GPU;

	memset(&ctx, 0, sizeof(ctx));
	if (wg_link_dec_create(&d, dir, WGL_PAYLOAD_MAX, on_frame, NULL, &ctx))
		abort();
	t0 = now_s();
	for (size_t off = 0; off < er->bytes; off += 16384) {
		size_t k = er->bytes - off < 16384 ? er->bytes - off : 16384;

		wg_link_dec_feed(d, er->stream + off, k);
	}
	wg_link_dec_end(d);
	t0 = now_s() - t0;
	wg_link_dec_destroy(d);
	*records = ctx.records;
	*bad = ctx.bad;
	return t0;
}

/* ---- The whole reliable link, both sides in this thread ------------------ */

struct side_ctx {
	uint64_t records;
};

static int count_rec(void *arg, const struct wg_link_rec *r)
{
	(void)r;
	((struct side_ctx *)arg)->records++;
	return 0;
}

/* Carry every frame due from src to dst; returns the bytes carried. */
static size_t carry(struct wg_link *src, struct wg_link *dst)
{
	const uint8_t *f;
	size_t n, total = 0;

	while (wg_link_tx_next(src, &f, &n) == 1) {
		if (wg_link_rx(dst, f, n))
			abort();
		total += n;
	}
	return total;
}

static double link_loop(enum shape s, uint64_t want, uint64_t *records, uint64_t *wire)
{
	static struct wg_link_ev e;
	static struct wg_link_cmd c;
	struct side_ctx hc = { 0 }, gc = { 0 };
	struct wg_link_params hp = { .role = WGL_ROLE_HOST, .window = 32, .on_rec = count_rec, .arg = &hc };
	struct wg_link_params gp = { .role = WGL_ROLE_GPU, .window = 32, .on_rec = count_rec, .arg = &gc };
	struct wg_link *h, *g, *src, *dst;
	struct side_ctx *got;
	uint64_t bytes = 0;
	double t0;

	gp.build = (struct wg_link_info){ .num_sms = 15, .num_simd = 2, .simd_width = 16, .mem_bytes = WGL_MEM_BYTES,
		                          .mem_tag_bits = 8, .cnt_words = WGL_CNT_WORDS };
	if (wg_link_create(&h, &hp) || wg_link_create(&g, &gp))
		abort();
	while (!wg_link_up(h)) {
		carry(h, g);
		carry(g, h);
	}
	src = shape_is_event(s) ? g : h;
	dst = shape_is_event(s) ? h : g;
	got = shape_is_event(s) ? &hc : &gc;
	t0 = now_s();
	for (uint64_t i = 0; i < want;) {
		/* A batch of 512 records, carried over, acknowledged. */
		for (unsigned k = 0; k < 512; k++, i++) {
			int rc;

			if (shape_is_event(s)) {
				make_ev(s, (uint32_t)i, &e);
				rc = wg_link_put_ev(src, &e);
			} else {
				make_cmd(s, (uint32_t)i, &c);
				rc = wg_link_put_cmd(src, &c);
			}
			if (rc)
				abort();
		}
		wg_link_flush(src);
		while (!wg_link_idle(src) || !wg_link_idle(dst)) {
			bytes += carry(src, dst);
			bytes += carry(dst, src);
		}
	}
	t0 = now_s() - t0;
	*records = got->records;
	*wire = bytes;
	wg_link_destroy(h);
	wg_link_destroy(g);
	return t0;
}

int main(int argc, char **argv)
{
	uint8_t *stream = malloc(STREAM_BYTES);
	double min_secs = 0.5;

	if (argc == 3 && !strcmp(argv[1], "-s"))
		min_secs = atof(argv[2]);
	if (!stream) {
		fprintf(stderr, "bench_link: out of memory\n");
		return 1;
	}
	wg_log_set_level(WG_LOG_ERROR);
	printf("bench_link: frame codec throughput (MB = 1e6 bytes of frames, 16 KB frames, one thread)\n");
	printf("%-24s %6s %6s | %9s %9s | %9s %9s | %9s %9s\n", "record", "bytes", "type", "enc MB/s", "enc Mrec/s",
	       "dec MB/s", "dec Mrec/s", "link MB/s", "link Mrec/s");
	for (int si = 0; si < NSHAPES; si++) {
		enum shape s = (enum shape)si;
		struct enc_result er = { 0 };
		uint64_t enc_bytes = 0, enc_recs = 0, dec_bytes = 0, dec_recs = 0, bad = 0, link_recs = 0, wire = 0;
		double enc_t = 0, dec_t = 0, link_t = 0;
		uint8_t probe[WGL_REC_MAX];
		static struct wg_link_ev e;
		static struct wg_link_cmd c;
		unsigned type = pack(s, 0, probe, &e, &c);

		while (enc_t < min_secs) {
			encode(s, stream, &er);
			enc_t += er.secs;
			enc_bytes += er.bytes;
			enc_recs += er.records;
		}
		while (dec_t < min_secs) {
			uint64_t r;

			dec_t += decode(s, &er, &r, &bad);
			dec_bytes += er.bytes;
			dec_recs += r;
			if (r != er.records || bad) {
				fprintf(stderr, "bench_link: decoded %llu of %llu records (%llu bad)\n",
				        (unsigned long long)r, (unsigned long long)er.records, (unsigned long long)bad);
				return 1;
			}
		}
		while (link_t < min_secs) {
			uint64_t r, w;

			link_t += link_loop(s, 200000, &r, &w);
			link_recs += r;
			wire += w;
		}
		printf("%-24s %6u  0x%02x | %9.0f %9.2f | %9.0f %9.2f | %9.0f %9.2f\n", shape_names[s],
		       wg_link_rec_size(type), type, enc_bytes / enc_t / 1e6, enc_recs / enc_t / 1e6,
		       dec_bytes / dec_t / 1e6, dec_recs / dec_t / 1e6, wire / link_t / 1e6, link_recs / link_t / 1e6);
	}
	printf("(USB 2.0 bulk carries about 40 MB/s in practice: DESIGN.md section 7)\n");
	free(stream);
	return 0;
}
