/*
 * The host <-> GPU link: records, frames, the streaming decoder and the
 * reliable link (docs/protocol.md).
 *
 * Decoder: received bytes are appended to a buffer that can hold two of the
 * largest frames; the parser walks it from a sync word to the next, checks the
 * header (header check, length, type), waits until the whole frame is there,
 * checks the CRC and hands the frame on. On any error it reports and restarts
 * the search one byte after the sync word it had trusted, so frames that a
 * corrupted length had swallowed are still found. Because a frame is only
 * judged once its bytes are all in, the outcome does not depend on how the
 * stream was cut into chunks.
 *
 * Link: records go into an open frame of one type; closed frames get the next
 * sequence number and wait in a ring until acknowledged. At most `window` of
 * them are on the wire (sent, unacknowledged); a NAK or a retransmission
 * timeout sends again from the oldest unacknowledged one (go-back-N). The
 * receiver delivers only the frame it expects next, drops duplicates (and
 * acknowledges again) and answers a gap with one NAK per rto.
 */
#include "link.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "log.h"
#include "warpgate.h"

#define WGL_OP_LAST WGL_T_CODE(WGL_T_CNT_READ)  /* 9 */
#define WGL_KIND_LAST WGL_T_CODE(WGL_T_ERROR)   /* 6 */
#define PC_MAX 0x3FFFFu                         /* 18-bit pc ports */

static const uint8_t sync_bytes[4] = { WGL_SYNC0, WGL_SYNC1, WGL_SYNC2, WGL_SYNC3 };

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

static const struct {
	const char *name, *what;
	int hex; /* expected/actual printed in hex */
} errs[WGL_E_COUNT] = {
	[WGL_E_SYNC] = { "sync", "bytes skipped looking for a sync word", 0 },
	[WGL_E_HCHK] = { "hchk", "bad header check", 1 },
	[WGL_E_LENGTH] = { "length", "bad length", 0 },
	[WGL_E_TYPE] = { "type", "unknown frame type", 1 },
	[WGL_E_CRC] = { "crc", "bad CRC", 1 },
	[WGL_E_TRUNC] = { "trunc", "truncated frame at the end of the stream", 0 },
	[WGL_E_GAP] = { "gap", "sequence gap, frames lost", 0 },
	[WGL_E_DUP] = { "dup", "duplicate frame dropped", 0 },
	[WGL_E_FIELD] = { "field", "record field out of range", 0 },
	[WGL_E_STATE] = { "state", "frame not allowed in this link state", 0 },
	[WGL_E_WINDOW] = { "window", "acknowledgement of a frame never sent", 0 },
	[WGL_E_RETRY] = { "retry", "retransmission limit reached", 0 },
	[WGL_E_VERSION] = { "version", "incompatible HELLO", 0 },
};

const char *wg_link_error_name(unsigned code)
{
	return code && code < WGL_E_COUNT ? errs[code].name : "?";
}

void wg_link_report_format(const struct wg_link_report *r, char *buf, size_t n)
{
	const char *what = r->code && r->code < WGL_E_COUNT ? errs[r->code].what : "unknown error";
	const char *who = r->remote ? "peer: " : "";
	int hex = r->code && r->code < WGL_E_COUNT && errs[r->code].hex;

	if (!buf || !n)
		return;
	switch (r->code) {
	case WGL_E_SYNC:
		snprintf(buf, n, "%s%s: %" PRIu32 " bytes at offset %" PRIu64, who, what, r->actual, r->offset);
		return;
	case WGL_E_RETRY:
		snprintf(buf, n, "%s%s: try %" PRIu32 " of at most %" PRIu32 " without progress", who, what, r->actual,
		         r->expected);
		return;
	case WGL_E_TYPE:
		snprintf(buf, n, "%s%s 0x%02x: seq %" PRIu32 " at offset %" PRIu64, who, what, r->type, r->seq,
		         r->offset);
		return;
	default:
		break;
	}
	snprintf(buf, n, hex ? "%s%s: frame type 0x%02x seq %" PRIu32 " at offset %" PRIu64 ": expected 0x%" PRIx32
	                       ", got 0x%" PRIx32
	                     : "%s%s: frame type 0x%02x seq %" PRIu32 " at offset %" PRIu64 ": expected %" PRIu32
	                       ", got %" PRIu32,
	         who, what, r->type, r->seq, r->offset, r->expected, r->actual);
}

/* ------------------------------------------------------------------------ */
/* Frame types                                                              */

enum { CL_NONE, CL_LINK, CL_CMD, CL_EV, CL_TRACE };

static const struct {
	uint16_t size;
	uint8_t cls;
} types[0x80] = {
	[WGL_T_HELLO] = { WGL_HELLO_SIZE, CL_LINK },
	[WGL_T_ACK] = { WGL_ACK_SIZE, CL_LINK },
	[WGL_T_NAK] = { WGL_NAK_SIZE, CL_LINK },
	[WGL_T_LERR] = { WGL_LERR_SIZE, CL_LINK },
	[WGL_T_NOP] = { WGL_NOP_SIZE, CL_CMD },
	[WGL_T_RESET] = { WGL_RESET_SIZE, CL_CMD },
	[WGL_T_CFG] = { WGL_CFG_SIZE, CL_CMD },
	[WGL_T_IMEM] = { WGL_IMEM_SIZE, CL_CMD },
	[WGL_T_CMEM] = { WGL_CMEM_SIZE, CL_CMD },
	[WGL_T_LAUNCH] = { WGL_LAUNCH_SIZE, CL_CMD },
	[WGL_T_MRSP] = { WGL_MRSP_SIZE, CL_CMD },
	[WGL_T_MRSP_ND] = { WGL_MRSP_ND_SIZE, CL_CMD },
	[WGL_T_GRANT] = { WGL_GRANT_SIZE, CL_CMD },
	[WGL_T_LANE_EN] = { WGL_LANE_EN_SIZE, CL_CMD },
	[WGL_T_CNT_READ] = { WGL_CNT_READ_SIZE, CL_CMD },
	[WGL_T_MREQ] = { WGL_MREQ_SIZE, CL_EV },
	[WGL_T_MREQ_ND] = { WGL_MREQ_ND_SIZE, CL_EV },
	[WGL_T_DONE] = { WGL_DONE_SIZE, CL_EV },
	[WGL_T_FAULT] = { WGL_FAULT_SIZE, CL_EV },
	[WGL_T_RETIRE] = { WGL_RETIRE_SIZE, CL_EV },
	[WGL_T_RETIRE_ND] = { WGL_RETIRE_ND_SIZE, CL_EV },
	[WGL_T_REACHED] = { WGL_REACHED_SIZE, CL_EV },
	[WGL_T_COUNTERS] = { WGL_COUNTERS_SIZE, CL_EV },
	[WGL_T_ERROR] = { WGL_ERROR_SIZE, CL_EV },
	[WGL_T_TRACE] = { WGL_TRACE_WORD, CL_TRACE },
};

static unsigned type_class(unsigned t)
{
	return t < 0x80 ? types[t].cls : CL_NONE;
}

unsigned wg_link_rec_size(unsigned t)
{
	return t < 0x80 ? types[t].size : 0;
}

/* A type the receiver of direction dir takes. */
static int type_accepted(int dir, unsigned t)
{
	switch (type_class(t)) {
	case CL_LINK: return 1;
	case CL_CMD: return dir == WG_LINK_TO_GPU;
	case CL_EV:
	case CL_TRACE: return dir == WG_LINK_TO_HOST;
	default: return 0;
	}
}

/* ------------------------------------------------------------------------ */
/* Records                                                                  */

static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= b[i];
	return acc == 0;
}

int wg_link_cmd_type(const struct wg_link_cmd *c)
{
	if (!c || c->op > WGL_OP_LAST)
		return WG_EINVAL;
	if (c->op == WGL_T_CODE(WGL_T_MRSP) && all_zero(c->data, WGL_MEM_BYTES))
		return WGL_T_MRSP_ND;
	return (int)(WGL_T_CMD | c->op);
}

int wg_link_ev_type(const struct wg_link_ev *e)
{
	if (!e || e->kind > WGL_KIND_LAST)
		return WG_EINVAL;
	if (e->kind == WGL_T_CODE(WGL_T_MREQ) && all_zero(e->wmask, WGL_MEM_BYTES) && all_zero(e->wdata, WGL_MEM_BYTES))
		return WGL_T_MREQ_ND;
	if (e->kind == WGL_T_CODE(WGL_T_RETIRE) && all_zero(e->rdata, sizeof(e->rdata)))
		return WGL_T_RETIRE_ND;
	return (int)(WGL_T_EV | e->kind);
}

int wg_link_cmd_pack(const struct wg_link_cmd *c, unsigned type, uint8_t *r)
{
	unsigned size = wg_link_rec_size(type);

	if (!c || !r || type_class(type) != CL_CMD || WGL_T_CODE(type) != c->op || c->all > 1)
		return WG_EINVAL;
	memset(r, 0, size);
	r[WGL_C_SM] = c->sm;
	r[WGL_C_FLAGS] = c->all ? WGL_CFG_ALL : 0;
	switch (type) {
	case WGL_T_NOP:
	case WGL_T_RESET:
		break;
	case WGL_T_CNT_READ:
		if (c->addr > 0xFFFFu)
			return WG_EINVAL; /* the page is a u16 */
		wgl_put16(r + WGL_CNT_READ_PAGE, (uint16_t)c->addr);
		break;
	case WGL_T_CFG:
		wgl_put32(r + WGL_CFG_ADDR, c->addr);
		memcpy(r + WGL_CFG_VALUE, c->data, 4);
		break;
	case WGL_T_IMEM:
		wgl_put32(r + WGL_IMEM_ADDR, c->addr);
		memcpy(r + WGL_IMEM_WORD, c->data, 8);
		break;
	case WGL_T_CMEM:
		wgl_put32(r + WGL_CMEM_ADDR, c->addr);
		memcpy(r + WGL_CMEM_VALUE, c->data, 4);
		break;
	case WGL_T_LAUNCH:
		wgl_put64(r + WGL_LAUNCH_AT_LO, c->at);
		wgl_put32(r + WGL_LAUNCH_LINEAR, c->addr);
		memcpy(r + WGL_LAUNCH_X, c->data, 6);
		break;
	case WGL_T_MRSP:
	case WGL_T_MRSP_ND:
		if (c->tag > 0xFFFFu)
			return WG_EINVAL;
		wgl_put16(r + WGL_C_TAG, (uint16_t)c->tag);
		wgl_put64(r + WGL_MRSP_AT_LO, c->at);
		if (type == WGL_T_MRSP)
			memcpy(r + WGL_MRSP_DATA, c->data, WGL_MEM_BYTES);
		else if (!all_zero(c->data, WGL_MEM_BYTES))
			return WG_EINVAL;
		break;
	case WGL_T_GRANT:
		wgl_put64(r + WGL_GRANT_AT_LO, c->at);
		break;
	case WGL_T_LANE_EN:
		memcpy(r + WGL_LANE_EN_VALUE, c->data, 4);
		break;
	default:
		return WG_EINVAL;
	}
	return 0;
}

int wg_link_ev_pack(const struct wg_link_ev *e, unsigned type, uint8_t *r)
{
	unsigned size = wg_link_rec_size(type);

	if (!e || !r || type_class(type) != CL_EV || WGL_T_CODE(type) != e->kind)
		return WG_EINVAL;
	memset(r, 0, size);
	r[WGL_V_SM] = e->sm;
	wgl_put64(r + WGL_V_CYCLE_LO, e->cycle);
	switch (type) {
	case WGL_T_MREQ:
	case WGL_T_MREQ_ND:
		if (e->cmd > 3 || e->tag > 0xFFFFu || e->size > 7 || e->atom_op > 15 || e->warp > 63 || e->lane > 31 ||
		    e->pc > PC_MAX || e->local > 1 || e->wb > 1)
			return WG_EINVAL;
		r[WGL_MREQ_CMD] = e->cmd;
		wgl_put16(r + WGL_MREQ_TAG, (uint16_t)e->tag);
		wgl_put32(r + WGL_MREQ_ADDR, e->addr);
		wgl_put32(r + WGL_MREQ_ATOM_B, e->atom_b);
		wgl_put32(r + WGL_MREQ_ATOM_C, e->atom_c);
		wgl_put32(r + WGL_MREQ_PC, e->pc);
		r[WGL_MREQ_SIZE_LOG2] = e->size;
		r[WGL_MREQ_ATOM_OP] = e->atom_op;
		r[WGL_MREQ_WARP] = (uint8_t)e->warp;
		r[WGL_MREQ_LANE] = (uint8_t)e->lane;
		r[WGL_MREQ_MFLAGS] = (uint8_t)((e->local ? WGL_MREQ_LOCAL : 0) | (e->wb ? WGL_MREQ_WB : 0));
		if (type == WGL_T_MREQ_ND) {
			if (!all_zero(e->wmask, WGL_MEM_BYTES) || !all_zero(e->wdata, WGL_MEM_BYTES))
				return WG_EINVAL;
			break;
		}
		for (unsigned i = 0; i < WGL_MEM_BYTES; i++) {
			if (e->wmask[i] > 1)
				return WG_EINVAL;
			r[WGL_MREQ_WMASK + i / 8] |= (uint8_t)(e->wmask[i] << (i % 8));
		}
		memcpy(r + WGL_MREQ_WDATA, e->wdata, WGL_MEM_BYTES);
		break;
	case WGL_T_DONE:
		wgl_put32(r + WGL_DONE_LINEAR, e->linear);
		break;
	case WGL_T_FAULT:
		if (e->code > 15 || e->fwarp > 63 || e->flane > 31 || e->fpc > PC_MAX)
			return WG_EINVAL;
		r[WGL_FAULT_CODE] = (uint8_t)e->code;
		r[WGL_FAULT_WARP] = (uint8_t)e->fwarp;
		r[WGL_FAULT_LANE] = (uint8_t)e->flane;
		wgl_put32(r + WGL_FAULT_PC, e->fpc);
		wgl_put32(r + WGL_FAULT_ADDR, e->faddr);
		wgl_put32(r + WGL_FAULT_LINEAR, e->linear);
		break;
	case WGL_T_RETIRE:
	case WGL_T_RETIRE_ND:
		if (e->rwarp > 63 || e->rseq > 0xFFFFu || e->rpc > PC_MAX || e->rwic > 31 || e->rdst > 3 || e->rreg > 63 ||
		    e->rbeat > 3 || e->rlast > 1)
			return WG_EINVAL;
		r[WGL_RETIRE_WARP] = (uint8_t)e->rwarp;
		wgl_put16(r + WGL_RETIRE_SEQ, (uint16_t)e->rseq);
		wgl_put32(r + WGL_RETIRE_LINEAR, e->linear);
		wgl_put32(r + WGL_RETIRE_PC, e->rpc);
		wgl_put32(r + WGL_RETIRE_ACTIVE, e->ractive);
		wgl_put32(r + WGL_RETIRE_EXEC, e->rexec);
		r[WGL_RETIRE_WIC] = (uint8_t)e->rwic;
		r[WGL_RETIRE_DST] = e->rdst;
		r[WGL_RETIRE_REG] = e->rreg;
		r[WGL_RETIRE_BEAT] = e->rbeat;
		r[WGL_RETIRE_LAST] = e->rlast;
		if (type == WGL_T_RETIRE_ND) {
			if (!all_zero(e->rdata, sizeof(e->rdata)))
				return WG_EINVAL;
			break;
		}
		for (unsigned i = 0; i < WGL_LANES; i++)
			wgl_put32(r + WGL_RETIRE_DATA + 4 * i, e->rdata[i]);
		break;
	case WGL_T_REACHED:
		wgl_put64(r + WGL_REACHED_BUSY_LO, e->busy);
		break;
	case WGL_T_COUNTERS:
		for (unsigned i = 0; i < WGL_CNT_WORDS; i++)
			wgl_put32(r + WGL_COUNTERS_CNT + 4 * i, e->cnt[i]);
		break;
	case WGL_T_ERROR:
		if (e->err > 15)
			return WG_EINVAL;
		r[WGL_ERROR_ERR] = e->err;
		break;
	default:
		return WG_EINVAL;
	}
	return 0;
}

/*
 * Range checks of received records: field offset, bytes (1, 2 or 4) and the
 * largest value allowed (the GPU top's port width; 0 for reserved bytes).
 */
struct fchk {
	uint8_t off, bytes;
	uint32_t max;
};

#define CHK_END { 0, 0, 0 }
static const struct fchk chk_cmd[] = { { WGL_C_FLAGS, 1, WGL_CFG_ALL }, { WGL_C_TAG, 2, 0 }, CHK_END };
static const struct fchk chk_mrsp[] = { { WGL_C_FLAGS, 1, WGL_CFG_ALL }, CHK_END };
static const struct fchk chk_launch[] = { { WGL_C_FLAGS, 1, WGL_CFG_ALL }, { WGL_C_TAG, 2, 0 }, { 22, 2, 0 }, CHK_END };
static const struct fchk chk_mreq[] = {
	{ WGL_MREQ_CMD, 1, 3 },        { WGL_MREQ_PC, 4, PC_MAX },   { WGL_MREQ_SIZE_LOG2, 1, 7 },
	{ WGL_MREQ_ATOM_OP, 1, 15 },   { WGL_MREQ_WARP, 1, 63 },     { WGL_MREQ_LANE, 1, 31 },
	{ WGL_MREQ_MFLAGS, 1, WGL_MREQ_LOCAL | WGL_MREQ_WB }, { 33, 1, 0 }, { 34, 2, 0 }, CHK_END,
};
static const struct fchk chk_rsv123[] = { { 1, 1, 0 }, { 2, 2, 0 }, CHK_END };
static const struct fchk chk_fault[] = {
	{ WGL_FAULT_CODE, 1, 15 }, { WGL_FAULT_WARP, 1, 63 }, { WGL_FAULT_LANE, 1, 31 }, { WGL_FAULT_PC, 4, PC_MAX }, CHK_END,
};
static const struct fchk chk_retire[] = {
	{ WGL_RETIRE_WARP, 1, 63 }, { WGL_RETIRE_PC, 4, PC_MAX }, { WGL_RETIRE_WIC, 1, 31 }, { WGL_RETIRE_DST, 1, 3 },
	{ WGL_RETIRE_REG, 1, 63 },  { WGL_RETIRE_BEAT, 1, 3 },    { WGL_RETIRE_LAST, 1, 1 }, { 33, 1, 0 },
	{ 34, 2, 0 },               CHK_END,
};
static const struct fchk chk_error[] = { { WGL_ERROR_ERR, 1, 15 }, { 2, 2, 0 }, CHK_END };
static const struct fchk chk_hello[] = { { WGL_HELLO_ROLE, 1, WGL_ROLE_GPU }, { WGL_HELLO_HFLAGS, 1, WGL_HELLO_REPLY },
	                                 CHK_END };
static const struct fchk chk_lerr[] = { { WGL_LERR_CODE, 1, WGL_E_COUNT - 1 }, { 2, 2, 0 }, CHK_END };
static const struct fchk chk_none[] = { CHK_END };

static const struct fchk *checks_of(unsigned type)
{
	switch (type) {
	case WGL_T_NOP:
	case WGL_T_RESET:
	case WGL_T_CFG:
	case WGL_T_IMEM:
	case WGL_T_CMEM:
	case WGL_T_GRANT:
	case WGL_T_LANE_EN: return chk_cmd;
	case WGL_T_CNT_READ: return chk_mrsp; /* flags only: bytes 2..3 are the page */
	case WGL_T_LAUNCH: return chk_launch;
	case WGL_T_MRSP:
	case WGL_T_MRSP_ND: return chk_mrsp;
	case WGL_T_MREQ:
	case WGL_T_MREQ_ND: return chk_mreq;
	case WGL_T_DONE:
	case WGL_T_REACHED:
	case WGL_T_COUNTERS: return chk_rsv123;
	case WGL_T_FAULT: return chk_fault;
	case WGL_T_RETIRE:
	case WGL_T_RETIRE_ND: return chk_retire;
	case WGL_T_ERROR: return chk_error;
	case WGL_T_HELLO: return chk_hello;
	case WGL_T_LERR: return chk_lerr;
	default: return chk_none;
	}
}

int wg_link_rec_check(unsigned type, const uint8_t *r, struct wg_link_report *why)
{
	for (const struct fchk *k = checks_of(type); k->bytes; k++) {
		uint32_t v = k->bytes == 1 ? r[k->off] : k->bytes == 2 ? wgl_get16(r + k->off) : wgl_get32(r + k->off);

		if (v > k->max) {
			if (why)
				*why = (struct wg_link_report){ .code = WGL_E_FIELD, .type = (uint8_t)type, .offset = k->off,
					                        .expected = k->max, .actual = v };
			return WG_ELINK;
		}
	}
	return 0;
}

void wg_link_cmd_unpack(unsigned type, const uint8_t *r, struct wg_link_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->op = (uint8_t)WGL_T_CODE(type);
	c->sm = r[WGL_C_SM];
	c->all = (r[WGL_C_FLAGS] & WGL_CFG_ALL) != 0;
	switch (type) {
	case WGL_T_CFG:
	case WGL_T_CMEM:
		c->addr = wgl_get32(r + WGL_CFG_ADDR);
		memcpy(c->data, r + WGL_CFG_VALUE, 4);
		break;
	case WGL_T_IMEM:
		c->addr = wgl_get32(r + WGL_IMEM_ADDR);
		memcpy(c->data, r + WGL_IMEM_WORD, 8);
		break;
	case WGL_T_LAUNCH:
		c->at = wgl_get64(r + WGL_LAUNCH_AT_LO);
		c->addr = wgl_get32(r + WGL_LAUNCH_LINEAR);
		memcpy(c->data, r + WGL_LAUNCH_X, 6);
		break;
	case WGL_T_MRSP:
	case WGL_T_MRSP_ND:
		c->tag = wgl_get16(r + WGL_C_TAG);
		c->at = wgl_get64(r + WGL_MRSP_AT_LO);
		if (type == WGL_T_MRSP)
			memcpy(c->data, r + WGL_MRSP_DATA, WGL_MEM_BYTES);
		break;
	case WGL_T_GRANT:
		c->at = wgl_get64(r + WGL_GRANT_AT_LO);
		break;
	case WGL_T_LANE_EN:
		memcpy(c->data, r + WGL_LANE_EN_VALUE, 4);
		break;
	case WGL_T_CNT_READ:
		c->addr = wgl_get16(r + WGL_CNT_READ_PAGE);
		break;
	default:
		break;
	}
}

void wg_link_ev_unpack(unsigned type, const uint8_t *r, struct wg_link_ev *e)
{
	memset(e, 0, sizeof(*e));
	e->kind = (uint8_t)WGL_T_CODE(type);
	e->sm = r[WGL_V_SM];
	e->cycle = wgl_get64(r + WGL_V_CYCLE_LO);
	switch (type) {
	case WGL_T_MREQ:
	case WGL_T_MREQ_ND:
		e->cmd = r[WGL_MREQ_CMD];
		e->tag = wgl_get16(r + WGL_MREQ_TAG);
		e->addr = wgl_get32(r + WGL_MREQ_ADDR);
		e->atom_b = wgl_get32(r + WGL_MREQ_ATOM_B);
		e->atom_c = wgl_get32(r + WGL_MREQ_ATOM_C);
		e->pc = wgl_get32(r + WGL_MREQ_PC);
		e->size = r[WGL_MREQ_SIZE_LOG2];
		e->atom_op = r[WGL_MREQ_ATOM_OP];
		e->warp = r[WGL_MREQ_WARP];
		e->lane = r[WGL_MREQ_LANE];
		e->local = (r[WGL_MREQ_MFLAGS] & WGL_MREQ_LOCAL) != 0;
		e->wb = (r[WGL_MREQ_MFLAGS] & WGL_MREQ_WB) != 0;
		if (type == WGL_T_MREQ) {
			for (unsigned i = 0; i < WGL_MEM_BYTES; i++)
				e->wmask[i] = (r[WGL_MREQ_WMASK + i / 8] >> (i % 8)) & 1;
			memcpy(e->wdata, r + WGL_MREQ_WDATA, WGL_MEM_BYTES);
		}
		break;
	case WGL_T_DONE:
		e->linear = wgl_get32(r + WGL_DONE_LINEAR);
		break;
	case WGL_T_FAULT:
		e->code = r[WGL_FAULT_CODE];
		e->fwarp = r[WGL_FAULT_WARP];
		e->flane = r[WGL_FAULT_LANE];
		e->fpc = wgl_get32(r + WGL_FAULT_PC);
		e->faddr = wgl_get32(r + WGL_FAULT_ADDR);
		e->linear = wgl_get32(r + WGL_FAULT_LINEAR);
		break;
	case WGL_T_RETIRE:
	case WGL_T_RETIRE_ND:
		e->rwarp = r[WGL_RETIRE_WARP];
		e->rseq = wgl_get16(r + WGL_RETIRE_SEQ);
		e->linear = wgl_get32(r + WGL_RETIRE_LINEAR);
		e->rpc = wgl_get32(r + WGL_RETIRE_PC);
		e->ractive = wgl_get32(r + WGL_RETIRE_ACTIVE);
		e->rexec = wgl_get32(r + WGL_RETIRE_EXEC);
		e->rwic = r[WGL_RETIRE_WIC];
		e->rdst = r[WGL_RETIRE_DST];
		e->rreg = r[WGL_RETIRE_REG];
		e->rbeat = r[WGL_RETIRE_BEAT];
		e->rlast = r[WGL_RETIRE_LAST];
		if (type == WGL_T_RETIRE)
			for (unsigned i = 0; i < WGL_LANES; i++)
				e->rdata[i] = wgl_get32(r + WGL_RETIRE_DATA + 4 * i);
		break;
	case WGL_T_REACHED:
		e->busy = wgl_get64(r + WGL_REACHED_BUSY_LO);
		break;
	case WGL_T_COUNTERS:
		for (unsigned i = 0; i < WGL_CNT_WORDS; i++)
			e->cnt[i] = wgl_get32(r + WGL_COUNTERS_CNT + 4 * i);
		break;
	case WGL_T_ERROR:
		e->err = r[WGL_ERROR_ERR];
		break;
	default:
		break;
	}
}

/* HELLO fields from WGL_HELLO_NUM_SMS on: wire offset and struct wg_link_info member. */
#define HF(wire, member) { wire, offsetof(struct wg_link_info, member) }
static const struct {
	uint8_t wire, member;
} hello_fields[] = {
	HF(WGL_HELLO_NUM_SMS, num_sms),       HF(WGL_HELLO_NUM_WARPS, num_warps),
	HF(WGL_HELLO_SIMD_WIDTH, simd_width), HF(WGL_HELLO_NUM_SIMD, num_simd),
	HF(WGL_HELLO_NUM_REGS, num_regs),     HF(WGL_HELLO_RF_BANKS, rf_banks),
	HF(WGL_HELLO_NUM_CTAS, num_ctas),     HF(WGL_HELLO_DMEM_BYTES, dmem_bytes),
	HF(WGL_HELLO_L1_SETS, l1_sets),       HF(WGL_HELLO_L1_MSHRS, l1_mshrs),
	HF(WGL_HELLO_IMEM_DEPTH, imem_depth), HF(WGL_HELLO_CMEM_BYTES, cmem_bytes),
	HF(WGL_HELLO_STACK_DEPTH, stack_depth), HF(WGL_HELLO_HAS_FP, has_fp),
	HF(WGL_HELLO_MEM_BYTES, mem_bytes),   HF(WGL_HELLO_MEM_TAG_BITS, mem_tag_bits),
	HF(WGL_HELLO_RETIRE_EN, retire_en),   HF(WGL_HELLO_RSP_DEPTH, rsp_depth),
	HF(WGL_HELLO_LAUNCH_DEPTH, launch_depth), HF(WGL_HELLO_CNT_WORDS, cnt_words),
};
#undef HF
#define HELLO_NFIELDS (sizeof(hello_fields) / sizeof(hello_fields[0]))

void wg_link_hello_pack(const struct wg_link_info *info, int reply, uint8_t *r)
{
	memset(r, 0, WGL_HELLO_SIZE);
	wgl_put16(r + WGL_HELLO_VERSION, (uint16_t)info->version);
	r[WGL_HELLO_ROLE] = (uint8_t)info->role;
	r[WGL_HELLO_HFLAGS] = reply ? WGL_HELLO_REPLY : 0;
	wgl_put32(r + WGL_HELLO_MAX_PAYLOAD, info->max_payload);
	wgl_put32(r + WGL_HELLO_WINDOW, info->window);
	for (size_t i = 0; i < HELLO_NFIELDS; i++) {
		const uint32_t *v = (const uint32_t *)((const char *)info + hello_fields[i].member);

		wgl_put32(r + hello_fields[i].wire, *v);
	}
}

void wg_link_hello_unpack(const uint8_t *r, struct wg_link_info *info, int *reply)
{
	memset(info, 0, sizeof(*info));
	info->version = wgl_get16(r + WGL_HELLO_VERSION);
	info->role = r[WGL_HELLO_ROLE];
	info->max_payload = wgl_get32(r + WGL_HELLO_MAX_PAYLOAD);
	info->window = wgl_get32(r + WGL_HELLO_WINDOW);
	for (size_t i = 0; i < HELLO_NFIELDS; i++)
		*(uint32_t *)((char *)info + hello_fields[i].member) = wgl_get32(r + hello_fields[i].wire);
	if (reply)
		*reply = (r[WGL_HELLO_HFLAGS] & WGL_HELLO_REPLY) != 0;
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                   */

void wg_link_frame_seal(uint8_t *f, unsigned type, uint32_t seq, unsigned nrec, unsigned len)
{
	uint32_t c;

	memcpy(f + WGL_H_SYNC, sync_bytes, 4);
	f[WGL_H_TYPE] = (uint8_t)type;
	f[WGL_H_FLAGS] = 0;
	wgl_put16(f + WGL_H_LEN, (uint16_t)len);
	wgl_put32(f + WGL_H_SEQ, seq);
	wgl_put16(f + WGL_H_NREC, (uint16_t)nrec);
	c = wg_crc32(0, f, WGL_HCHK_SPAN);
	wgl_put16(f + WGL_H_HCHK, (uint16_t)c);
	c = wg_crc32(c, f + WGL_HCHK_SPAN, WGL_HDR_BYTES - WGL_HCHK_SPAN + len);
	wgl_put32(f + WGL_HDR_BYTES + len, c);
}

/* ------------------------------------------------------------------------ */
/* Streaming decoder                                                        */

struct wg_link_dec {
	int dir;
	uint32_t max_payload;
	wg_link_frame_fn on_frame;
	wg_link_report_fn on_report;
	void *arg;
	uint8_t *buf;       /* bytes not yet judged; buf[0] is at stream offset base */
	size_t cap, len;
	uint64_t base;
	uint64_t junk, junk_off; /* bytes skipped since the last sync word, offset of the first */
	size_t want;        /* > 0: buf[0] starts a frame of this many bytes whose header passed */
	uint32_t want_crc;  /* CRC of its first WGL_HCHK_SPAN bytes */
};

int wg_link_dec_create(struct wg_link_dec **dp, int dir, uint32_t max_payload, wg_link_frame_fn on_frame,
                       wg_link_report_fn on_report, void *arg)
{
	struct wg_link_dec *d;

	if (!dp)
		return WG_EINVAL;
	*dp = NULL;
	if ((dir != WG_LINK_TO_GPU && dir != WG_LINK_TO_HOST) || !on_frame || max_payload < WGL_PAYLOAD_MIN ||
	    max_payload > WGL_PAYLOAD_MAX || max_payload % WGL_ALIGN)
		return WG_EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return WG_ENOMEM;
	d->cap = 2 * (size_t)WGL_FRAME_MAX;
	d->buf = malloc(d->cap);
	if (!d->buf) {
		free(d);
		return WG_ENOMEM;
	}
	d->dir = dir;
	d->max_payload = max_payload;
	d->on_frame = on_frame;
	d->on_report = on_report;
	d->arg = arg;
	*dp = d;
	return 0;
}

void wg_link_dec_destroy(struct wg_link_dec *d)
{
	if (!d)
		return;
	free(d->buf);
	free(d);
}

uint64_t wg_link_dec_offset(const struct wg_link_dec *d)
{
	return d->base + d->len;
}

static void dec_report(struct wg_link_dec *d, unsigned code, const uint8_t *hdr, uint64_t off, uint32_t expected,
                       uint32_t actual)
{
	struct wg_link_report r = { .code = code, .offset = off, .expected = expected, .actual = actual };

	if (hdr) {
		r.type = hdr[WGL_H_TYPE];
		r.seq = wgl_get32(hdr + WGL_H_SEQ);
	}
	if (d->on_report)
		d->on_report(d->arg, &r);
}

static void dec_flush_junk(struct wg_link_dec *d)
{
	if (!d->junk)
		return;
	dec_report(d, WGL_E_SYNC, NULL, d->junk_off, 0, (uint32_t)d->junk);
	d->junk = 0;
}

/* Index of the first sync word in p[0..n), or of a sync prefix ending p, or n. */
static size_t find_sync(const uint8_t *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		const uint8_t *q = memchr(p + i, WGL_SYNC0, n - i);
		size_t k;

		if (!q)
			return n;
		i = (size_t)(q - p);
		k = n - i < 4 ? n - i : 4;
		if (!memcmp(q, sync_bytes, k))
			return i;
		i++;
	}
	return n;
}

/*
 * Judge the buffered bytes. final: the stream has ended, so an incomplete
 * frame is truncated. Returns 0 or the first negative on_frame result.
 */
static int dec_parse(struct wg_link_dec *d, int final)
{
	size_t pos = 0;
	int rc = 0;

	if (d->want && d->len < d->want && !final)
		return 0;
	while (rc == 0) {
		uint8_t *p = d->buf + pos;
		size_t avail = d->len - pos, skip, flen;
		uint64_t off;
		unsigned type, len, nrec, size;
		uint32_t hc, crc;

		if (!d->want) {
			skip = find_sync(p, avail);
			if (skip) {
				if (!d->junk)
					d->junk_off = d->base + pos;
				d->junk += skip;
				pos += skip;
				p += skip;
				avail -= skip;
			}
			if (avail < 4) {
				if (final && avail) { /* a sync prefix at the very end */
					if (!d->junk)
						d->junk_off = d->base + pos;
					d->junk += avail;
					pos += avail;
				}
				break;
			}
		}
		dec_flush_junk(d);
		off = d->base + pos;
		if (avail < WGL_HDR_BYTES) {
			if (!final)
				break;
			dec_report(d, WGL_E_TRUNC, NULL, off, WGL_HDR_BYTES, (uint32_t)avail);
			pos++;
			continue;
		}
		type = p[WGL_H_TYPE];
		len = wgl_get16(p + WGL_H_LEN);
		nrec = wgl_get16(p + WGL_H_NREC);
		flen = WGL_HDR_BYTES + (size_t)len + WGL_CRC_BYTES;
		if (d->want) {
			hc = d->want_crc;
		} else {
			hc = wg_crc32(0, p, WGL_HCHK_SPAN);
			if (wgl_get16(p + WGL_H_HCHK) != (uint16_t)hc) {
				dec_report(d, WGL_E_HCHK, p, off, (uint16_t)hc, wgl_get16(p + WGL_H_HCHK));
				pos++;
				continue;
			}
			if (len > d->max_payload) {
				dec_report(d, WGL_E_LENGTH, p, off, d->max_payload, len);
				pos++;
				continue;
			}
			if (type_accepted(d->dir, type)) {
				size = wg_link_rec_size(type);
				if (nrec == 0 || (type_class(type) == CL_LINK && nrec != 1) || nrec * size != len) {
					dec_report(d, WGL_E_LENGTH, p, off,
					           nrec && type_class(type) != CL_LINK ? nrec * size : size, len);
					pos++;
					continue;
				}
			} else if (len % WGL_ALIGN) {
				dec_report(d, WGL_E_LENGTH, p, off, len & ~(WGL_ALIGN - 1), len);
				pos++;
				continue;
			}
		}
		if (avail < flen) {
			if (!final) {
				d->want = flen;
				d->want_crc = hc;
				break;
			}
			d->want = 0;
			dec_report(d, WGL_E_TRUNC, p, off, (uint32_t)flen, (uint32_t)avail);
			pos++;
			continue;
		}
		d->want = 0;
		crc = wg_crc32(hc, p + WGL_HCHK_SPAN, WGL_HDR_BYTES - WGL_HCHK_SPAN + len);
		if (crc != wgl_get32(p + WGL_HDR_BYTES + len)) {
			dec_report(d, WGL_E_CRC, p, off, crc, wgl_get32(p + WGL_HDR_BYTES + len));
			pos++;
			continue;
		}
		pos += flen;
		if (!type_accepted(d->dir, type)) {
			dec_report(d, WGL_E_TYPE, p, off, 0, type);
			continue;
		}
		rc = d->on_frame(d->arg, &(struct wg_link_frame){ .type = (uint8_t)type, .nrec = (uint16_t)nrec,
		                                                  .len = len, .seq = wgl_get32(p + WGL_H_SEQ),
		                                                  .offset = off, .payload = p + WGL_HDR_BYTES });
	}
	if (pos) {
		memmove(d->buf, d->buf + pos, d->len - pos);
		d->base += pos;
		d->len -= pos;
	}
	return rc;
}

int wg_link_dec_feed(struct wg_link_dec *d, const void *data, size_t n)
{
	const uint8_t *p = data;

	if (!d || (!data && n))
		return WG_EINVAL;
	while (n) {
		/* After a parse, fewer than WGL_FRAME_MAX bytes wait: there is always room. */
		size_t k = d->cap - d->len < n ? d->cap - d->len : n;
		int rc;

		memcpy(d->buf + d->len, p, k);
		d->len += k;
		p += k;
		n -= k;
		rc = dec_parse(d, 0);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int wg_link_dec_end(struct wg_link_dec *d)
{
	int rc;

	if (!d)
		return WG_EINVAL;
	rc = dec_parse(d, 1);
	dec_flush_junk(d);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* Link                                                                     */

#define LERR_QUEUE 8

struct txf {
	uint32_t len, nrec;
	uint8_t type;
	uint8_t b[]; /* the frame */
};

struct wg_link {
	struct wg_link_params p;
	struct wg_link_dec *dec;
	int failed;
	int up;
	uint64_t now;
	struct wg_link_info self, peer;
	uint32_t pay_max; /* payload limit of frames sent now */

	/* Send side: q holds snd_una .. snd_nxt-1, oldest at qhead. */
	uint32_t snd_una, snd_tx, snd_max, snd_nxt;
	struct txf **q;
	size_t qcap, qhead, qcount;
	struct txf *open;  /* frame being filled (WGL_FRAME_MAX bytes), NULL if none */
	uint64_t t_retx;
	uint32_t retries;

	/* Handshake. */
	int hello_due;
	uint64_t t_hello;
	uint32_t hello_tries;

	/* Receive side. */
	uint32_t rcv_nxt;
	int ack_due, nak_due, nak_active;
	uint32_t nak_from, nak_got, nak_tries;
	uint64_t t_nak;
	struct wg_link_report lerr[LERR_QUEUE];
	unsigned lerr_head, lerr_count;

	struct wg_link_stats st;
	struct wg_link_cmd cmd;
	struct wg_link_ev ev;
	uint8_t ctl[WGL_HDR_BYTES + WGL_HELLO_SIZE + WGL_CRC_BYTES];
};

static int seq_before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

static void link_fail(struct wg_link *l, int code)
{
	if (!l->failed)
		l->failed = code;
}

/* Every error passes here: statistics, log, the user's hook, the peer (GPU side), failure. */
static void link_report(struct wg_link *l, const struct wg_link_report *r, int fatal)
{
	char msg[256];

	if (r->code < WGL_E_COUNT) {
		if (r->remote)
			l->st.remote_errors[r->code]++;
		else
			l->st.errors[r->code]++;
	}
	wg_link_report_format(r, msg, sizeof(msg));
	if (fatal)
		wg_err("link (%s side): %s", l->p.role == WGL_ROLE_HOST ? "host" : "GPU", msg);
	else
		wg_warn("link (%s side): %s", l->p.role == WGL_ROLE_HOST ? "host" : "GPU", msg);
	if (l->p.on_report)
		l->p.on_report(l->p.arg, r);
	if (l->p.role == WGL_ROLE_GPU && !r->remote && r->code <= WGL_E_STATE && l->lerr_count < LERR_QUEUE) {
		l->lerr[(l->lerr_head + l->lerr_count) % LERR_QUEUE] = *r;
		l->lerr_count++;
	}
	if (fatal)
		link_fail(l, WG_ELINK);
}

static void report(struct wg_link *l, unsigned code, const struct wg_link_frame *f, uint32_t expected,
                   uint32_t actual, int fatal)
{
	struct wg_link_report r = { .code = code, .expected = expected, .actual = actual };

	if (f) {
		r.type = f->type;
		r.seq = f->seq;
		r.offset = f->offset;
	}
	link_report(l, &r, fatal);
}

/* Decoder errors: all recoverable except a well-formed frame of an unknown type. */
static void dec_report_hook(void *arg, const struct wg_link_report *r)
{
	link_report(arg, r, r->code == WGL_E_TYPE);
}

static void drop_frames(struct wg_link *l, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		free(l->q[l->qhead]);
		l->q[l->qhead] = NULL;
		l->qhead = (l->qhead + 1) & (l->qcap - 1);
		l->qcount--;
	}
}

/*
 * The wait before try `tries` + 1 of a retransmission, a NAK or a HELLO: rto, doubled for each
 * try without progress, at most WGL_BACKOFF_MAX doublings. A peer that is alive but slower than
 * rto (a simulated board in its first cycles, a loaded machine) is not flooded with copies of a
 * window it is still taking in, and gets max_retries waits that grow to 2^WGL_BACKOFF_MAX rto.
 */
static uint64_t backoff(uint64_t rto, uint32_t tries)
{
	return rto << (tries < WGL_BACKOFF_MAX ? tries : WGL_BACKOFF_MAX);
}

static uint64_t rto_for(const struct wg_link *l, uint32_t tries)
{
	return backoff(l->p.rto, tries);
}

uint64_t wg_link_retry_span(uint64_t rto, uint32_t max_retries)
{
	uint64_t t = 0;

	for (uint32_t i = 0; i <= max_retries; i++)
		t += backoff(rto, i);
	return t;
}

static void go_back(struct wg_link *l)
{
	if (++l->retries > l->p.max_retries) {
		report(l, WGL_E_RETRY, NULL, l->p.max_retries, l->retries, 1);
		return;
	}
	l->snd_tx = l->snd_una;
	l->t_retx = l->now;
}

/* The peer has every data frame below a. */
static void got_ack(struct wg_link *l, const struct wg_link_frame *f, uint32_t a)
{
	uint32_t d = a - l->snd_una;

	if (d > l->snd_max - l->snd_una) {
		report(l, WGL_E_WINDOW, f, l->snd_max, a, 1);
		return;
	}
	if (!d)
		return;
	drop_frames(l, d);
	l->snd_una = a;
	if (seq_before(l->snd_tx, a))
		l->snd_tx = a;
	l->retries = 0;
	l->t_retx = l->now;
}

/* A gap before `got`: ask for rcv_nxt again, once per rto. */
static void want_nak(struct wg_link *l, uint32_t got)
{
	if (l->nak_active && l->nak_from == l->rcv_nxt && l->now - l->t_nak < rto_for(l, l->nak_tries))
		return;
	l->nak_due = 1;
	l->nak_active = 1;
	l->nak_from = l->rcv_nxt;
	l->nak_got = got;
	l->t_nak = l->now;
}

static void link_reset(struct wg_link *l)
{
	drop_frames(l, (uint32_t)l->qcount);
	if (l->open)
		l->open->nrec = l->open->len = 0;
	l->qhead = 0;
	l->snd_una = l->snd_tx = l->snd_max = l->snd_nxt = 0;
	l->retries = 0;
	l->ack_due = l->nak_due = l->nak_active = 0;
	l->nak_tries = 0;
}

/* A HELLO that a host may use: version, role and the sizes this protocol version fixes. */
static int hello_ok(struct wg_link *l, const struct wg_link_frame *f, const struct wg_link_info *in)
{
	uint32_t want_role = l->p.role == WGL_ROLE_HOST ? WGL_ROLE_GPU : WGL_ROLE_HOST;
	struct {
		uint32_t expected, actual;
		int bad;
	} c[] = {
		{ WGL_VERSION, in->version, in->version != WGL_VERSION },
		{ want_role, in->role, in->role != want_role },
		{ WGL_PAYLOAD_MIN, in->max_payload,
		  in->max_payload < WGL_PAYLOAD_MIN || in->max_payload > WGL_PAYLOAD_MAX || in->max_payload % WGL_ALIGN },
		{ WGL_MEM_BYTES, in->mem_bytes, want_role == WGL_ROLE_GPU && in->mem_bytes != WGL_MEM_BYTES },
		{ WGL_CNT_WORDS, in->cnt_words, want_role == WGL_ROLE_GPU && in->cnt_words != WGL_CNT_WORDS },
		{ 16, in->mem_tag_bits, want_role == WGL_ROLE_GPU && in->mem_tag_bits > 16 },
		{ 64, in->num_sms, want_role == WGL_ROLE_GPU && (in->num_sms < 1 || in->num_sms > 64) },
		{ WGL_LANES, in->num_simd * in->simd_width,
		  want_role == WGL_ROLE_GPU && (in->num_simd * in->simd_width > WGL_LANES || !in->num_simd) },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (c[i].bad) {
			report(l, WGL_E_VERSION, f, c[i].expected, c[i].actual, 1);
			return 0;
		}
	return 1;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static void on_hello(struct wg_link *l, const struct wg_link_frame *f)
{
	struct wg_link_info in;
	int reply;

	wg_link_hello_unpack(f->payload, &in, &reply);
	if (!hello_ok(l, f, &in))
		return;
	if (l->p.role == WGL_ROLE_GPU) {
		if (reply) {
			report(l, WGL_E_STATE, f, 0, WGL_HELLO_REPLY, 0);
			return;
		}
		/* The host (re)starts the link: forget everything, answer. */
		link_reset(l);
		l->peer = in;
		l->up = 1;
		l->rcv_nxt = f->seq;
		l->hello_due = 1;
	} else {
		if (!reply) {
			report(l, WGL_E_STATE, f, WGL_HELLO_REPLY, 0, 0);
			return;
		}
		if (l->up) {
			/* A second answer to a repeated HELLO is harmless; anything else means the GPU side restarted. */
			if (f->seq != l->rcv_nxt || memcmp(&in, &l->peer, sizeof(in)))
				report(l, WGL_E_STATE, f, l->rcv_nxt, f->seq, 1);
			return;
		}
		l->peer = in;
		l->up = 1;
		l->rcv_nxt = f->seq;
		l->hello_tries = 0;
		l->t_retx = l->now;
	}
	l->pay_max = min_u32(l->p.max_payload, in.max_payload);
}

static int on_link_frame(struct wg_link *l, const struct wg_link_frame *f)
{
	struct wg_link_report r;

	l->st.rx_ctl++;
	if (f->type == WGL_T_HELLO) {
		on_hello(l, f);
		return 0;
	}
	if (!l->up)
		return 0; /* ACK, NAK, LERR of a link that is not up (yet) */
	switch (f->type) {
	case WGL_T_ACK:
		got_ack(l, f, wgl_get32(f->payload + WGL_ACK_NEXT));
		break;
	case WGL_T_NAK: {
		uint32_t from = wgl_get32(f->payload + WGL_NAK_FROM);

		l->st.naks_rcvd++;
		got_ack(l, f, from);
		if (!l->failed && l->snd_tx != from)
			go_back(l);
		break;
	}
	case WGL_T_LERR:
		r = (struct wg_link_report){
			.code = f->payload[WGL_LERR_CODE],
			.remote = 1,
			.type = f->payload[WGL_LERR_TYPE],
			.seq = wgl_get32(f->payload + WGL_LERR_SEQ),
			.offset = wgl_get64(f->payload + WGL_LERR_OFF_LO),
			.expected = wgl_get32(f->payload + WGL_LERR_EXPECTED),
			.actual = wgl_get32(f->payload + WGL_LERR_ACTUAL),
		};
		link_report(l, &r, 0);
		break;
	default:
		break;
	}
	/* A link frame carries the peer's next data sequence number: anything below it that is missing was lost. */
	if (!l->failed && seq_before(l->rcv_nxt, f->seq)) {
		report(l, WGL_E_GAP, f, l->rcv_nxt, f->seq, 0);
		want_nak(l, f->seq);
	}
	return 0;
}

static int deliver(struct wg_link *l, const struct wg_link_frame *f)
{
	unsigned size = wg_link_rec_size(f->type), cls = type_class(f->type);
	struct wg_link_rec rec = { .type = f->type, .seq = f->seq };
	int rc = 0;

	if (cls == CL_TRACE) {
		rec.trace = f->payload;
		rec.trace_len = f->len;
		l->st.rx_records++;
		return l->p.on_rec ? l->p.on_rec(l->p.arg, &rec) : 0;
	}
	for (unsigned i = 0; i < f->nrec && rc == 0; i++) {
		const uint8_t *r = f->payload + (size_t)i * size;

		if (cls == CL_CMD) {
			wg_link_cmd_unpack(f->type, r, &l->cmd);
			rec.cmd = &l->cmd;
		} else {
			wg_link_ev_unpack(f->type, r, &l->ev);
			rec.ev = &l->ev;
		}
		l->st.rx_records++;
		if (l->p.on_rec)
			rc = l->p.on_rec(l->p.arg, &rec);
	}
	return rc;
}

static int on_data_frame(struct wg_link *l, const struct wg_link_frame *f)
{
	unsigned size = wg_link_rec_size(f->type);
	int32_t d;
	int rc;

	if (!l->up) {
		report(l, WGL_E_STATE, f, 0, f->type, 0);
		return 0;
	}
	d = (int32_t)(f->seq - l->rcv_nxt);
	if (d < 0) {
		report(l, WGL_E_DUP, f, l->rcv_nxt, f->seq, 0);
		l->ack_due = 1; /* our ACK may have been lost */
		return 0;
	}
	if (d > 0) {
		report(l, WGL_E_GAP, f, l->rcv_nxt, f->seq, 0);
		want_nak(l, f->seq);
		return 0;
	}
	/* Nothing of a frame is used unless all of it is good. */
	for (unsigned i = 0; i < f->nrec; i++) {
		struct wg_link_report why;

		if (wg_link_rec_check(f->type, f->payload + (size_t)i * size, &why)) {
			why.seq = f->seq;
			why.offset += f->offset + WGL_HDR_BYTES + (uint64_t)i * size;
			link_report(l, &why, 1);
			return l->failed;
		}
	}
	l->rcv_nxt++;
	l->nak_active = 0;
	l->nak_tries = 0;
	l->ack_due = 1;
	l->st.rx_frames++;
	rc = deliver(l, f);
	if (rc < 0)
		link_fail(l, rc);
	return l->failed;
}

static int on_frame(void *arg, const struct wg_link_frame *f)
{
	struct wg_link *l = arg;

	if (l->failed)
		return l->failed;
	if (type_class(f->type) == CL_LINK) {
		struct wg_link_report why;

		if (wg_link_rec_check(f->type, f->payload, &why)) {
			why.seq = f->seq;
			why.offset += f->offset + WGL_HDR_BYTES;
			link_report(l, &why, 1);
		} else {
			on_link_frame(l, f);
		}
		return l->failed;
	}
	return on_data_frame(l, f);
}

int wg_link_create(struct wg_link **lp, const struct wg_link_params *p)
{
	struct wg_link *l;
	int rc;

	if (!lp || !p)
		return WG_EINVAL;
	*lp = NULL;
	if (p->role != WGL_ROLE_HOST && p->role != WGL_ROLE_GPU)
		return WG_EINVAL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return WG_ENOMEM;
	l->p = *p;
	if (!l->p.max_payload)
		l->p.max_payload = WGL_PAYLOAD_MAX;
	if (!l->p.window)
		l->p.window = 16;
	if (!l->p.rto)
		l->p.rto = 100000;
	if (!l->p.max_retries)
		l->p.max_retries = 8;
	if (l->p.max_payload < WGL_PAYLOAD_MIN || l->p.max_payload > WGL_PAYLOAD_MAX || l->p.max_payload % WGL_ALIGN ||
	    l->p.window > (1u << 30)) {
		rc = WG_EINVAL;
		goto fail_link;
	}
	l->qcap = 64;
	l->q = calloc(l->qcap, sizeof(*l->q));
	if (!l->q) {
		rc = WG_ENOMEM;
		goto fail_link;
	}
	rc = wg_link_dec_create(&l->dec, p->role == WGL_ROLE_HOST ? WG_LINK_TO_HOST : WG_LINK_TO_GPU, l->p.max_payload,
	                        on_frame, dec_report_hook, l);
	if (rc)
		goto fail_q;
	l->self = p->role == WGL_ROLE_GPU ? p->build : (struct wg_link_info){ 0 };
	l->self.version = WGL_VERSION;
	l->self.role = p->role;
	l->self.max_payload = l->p.max_payload;
	l->self.window = l->p.window;
	l->pay_max = WGL_PAYLOAD_MIN;
	l->hello_due = p->role == WGL_ROLE_HOST;
	*lp = l;
	return 0;

fail_q:
	free(l->q);
fail_link:
	free(l);
	return rc;
}

void wg_link_destroy(struct wg_link *l)
{
	if (!l)
		return;
	drop_frames(l, (uint32_t)l->qcount);
	free(l->q);
	free(l->open);
	wg_link_dec_destroy(l->dec);
	free(l);
}

/* Close the open frame: it gets the next sequence number and joins the send queue. */
static int close_open(struct wg_link *l)
{
	struct txf *f = l->open, *shrunk;

	if (!f || !f->nrec)
		return 0;
	if (l->qcount == l->qcap) {
		size_t cap = 2 * l->qcap;
		struct txf **nq = malloc(cap * sizeof(*nq));

		if (!nq)
			return WG_ENOMEM;
		for (size_t i = 0; i < l->qcount; i++)
			nq[i] = l->q[(l->qhead + i) & (l->qcap - 1)];
		free(l->q);
		l->q = nq;
		l->qcap = cap;
		l->qhead = 0;
	}
	wg_link_frame_seal(f->b, f->type, l->snd_nxt, f->nrec, f->len);
	l->st.tx_records += f->nrec;
	f->len += WGL_HDR_BYTES + WGL_CRC_BYTES; /* from here on: the frame's bytes */
	shrunk = realloc(f, sizeof(*f) + f->len);
	if (shrunk)
		f = shrunk;
	l->q[(l->qhead + l->qcount) & (l->qcap - 1)] = f;
	l->qcount++;
	l->snd_nxt++;
	l->open = NULL;
	return 0;
}

/* Room in the open frame for one record of `type` (size bytes), closing the open frame first if needed. */
static uint8_t *open_room(struct wg_link *l, unsigned type, unsigned size)
{
	struct txf *f = l->open;

	if (f && f->nrec && (f->type != type || f->len + size > l->pay_max) && close_open(l))
		return NULL;
	if (!l->open) {
		l->open = malloc(sizeof(*f) + WGL_FRAME_MAX);
		if (!l->open)
			return NULL;
		l->open->nrec = l->open->len = 0;
	}
	f = l->open;
	f->type = (uint8_t)type;
	return f->b + WGL_HDR_BYTES + f->len;
}

int wg_link_put_cmd(struct wg_link *l, const struct wg_link_cmd *c)
{
	int type;
	unsigned size;
	uint8_t *r;

	if (!l || !c)
		return WG_EINVAL;
	if (l->failed)
		return l->failed;
	type = wg_link_cmd_type(c);
	if (type < 0 || l->p.role != WGL_ROLE_HOST)
		return WG_EINVAL;
	size = wg_link_rec_size((unsigned)type);
	r = open_room(l, (unsigned)type, size);
	if (!r)
		return WG_ENOMEM;
	if (wg_link_cmd_pack(c, (unsigned)type, r))
		return WG_EINVAL;
	l->open->nrec++;
	l->open->len += size;
	return 0;
}

int wg_link_put_ev(struct wg_link *l, const struct wg_link_ev *e)
{
	int type;
	unsigned size;
	uint8_t *r;

	if (!l || !e)
		return WG_EINVAL;
	if (l->failed)
		return l->failed;
	type = wg_link_ev_type(e);
	if (type < 0 || l->p.role != WGL_ROLE_GPU)
		return WG_EINVAL;
	size = wg_link_rec_size((unsigned)type);
	r = open_room(l, (unsigned)type, size);
	if (!r)
		return WG_ENOMEM;
	if (wg_link_ev_pack(e, (unsigned)type, r))
		return WG_EINVAL;
	l->open->nrec++;
	l->open->len += size;
	return 0;
}

int wg_link_put_trace(struct wg_link *l, const void *words, size_t bytes)
{
	const uint8_t *p = words;

	if (!l || (!words && bytes) || bytes % WGL_TRACE_WORD)
		return WG_EINVAL;
	if (l->failed)
		return l->failed;
	if (l->p.role != WGL_ROLE_GPU)
		return WG_EINVAL;
	while (bytes) {
		size_t k = bytes < l->pay_max ? bytes : l->pay_max;
		uint8_t *r;
		int rc = close_open(l);

		if (rc)
			return rc;
		r = open_room(l, WGL_T_TRACE, (unsigned)k);
		if (!r)
			return WG_ENOMEM;
		memcpy(r, p, k);
		l->open->nrec = (uint32_t)(k / WGL_TRACE_WORD);
		l->open->len = (uint32_t)k;
		rc = close_open(l);
		if (rc)
			return rc;
		p += k;
		bytes -= k;
	}
	return 0;
}

int wg_link_flush(struct wg_link *l)
{
	if (!l)
		return WG_EINVAL;
	if (l->failed)
		return l->failed;
	return close_open(l);
}

/* A link frame in l->ctl. */
static size_t ctl_frame(struct wg_link *l, unsigned type, unsigned size)
{
	wg_link_frame_seal(l->ctl, type, l->snd_tx, 1, size);
	l->st.tx_ctl++;
	return WGL_HDR_BYTES + size + WGL_CRC_BYTES;
}

int wg_link_tx_next(struct wg_link *l, const uint8_t **frame, size_t *len)
{
	uint8_t *pl;
	uint32_t i;

	if (!l || !frame || !len)
		return WG_EINVAL;
	if (l->failed)
		return l->failed;
	pl = l->ctl + WGL_HDR_BYTES;
	*frame = l->ctl;
	if (l->hello_due) {
		wg_link_hello_pack(&l->self, l->p.role == WGL_ROLE_GPU, pl);
		*len = ctl_frame(l, WGL_T_HELLO, WGL_HELLO_SIZE);
		l->hello_due = 0;
		l->t_hello = l->now;
		goto sent;
	}
	if (!l->up)
		return 0;
	if (l->nak_due) {
		wgl_put32(pl + WGL_NAK_FROM, l->nak_from);
		wgl_put32(pl + WGL_NAK_GOT, l->nak_got);
		*len = ctl_frame(l, WGL_T_NAK, WGL_NAK_SIZE);
		l->nak_due = 0;
		if (l->nak_from == l->rcv_nxt)
			l->ack_due = 0;
		l->st.naks_sent++;
		goto sent;
	}
	if (l->ack_due) {
		wgl_put32(pl + WGL_ACK_NEXT, l->rcv_nxt);
		*len = ctl_frame(l, WGL_T_ACK, WGL_ACK_SIZE);
		l->ack_due = 0;
		goto sent;
	}
	if (l->lerr_count) {
		const struct wg_link_report *r = &l->lerr[l->lerr_head];

		memset(pl, 0, WGL_LERR_SIZE);
		pl[WGL_LERR_CODE] = (uint8_t)r->code;
		pl[WGL_LERR_TYPE] = r->type;
		wgl_put32(pl + WGL_LERR_SEQ, r->seq);
		wgl_put64(pl + WGL_LERR_OFF_LO, r->offset);
		wgl_put32(pl + WGL_LERR_EXPECTED, r->expected);
		wgl_put32(pl + WGL_LERR_ACTUAL, r->actual);
		*len = ctl_frame(l, WGL_T_LERR, WGL_LERR_SIZE);
		l->lerr_head = (l->lerr_head + 1) % LERR_QUEUE;
		l->lerr_count--;
		goto sent;
	}
	i = l->snd_tx - l->snd_una;
	if (i < l->qcount && i < l->p.window) {
		struct txf *f = l->q[(l->qhead + i) & (l->qcap - 1)];

		if (!i)
			l->t_retx = l->now; /* the timer runs while frames are in flight */
		if (seq_before(l->snd_tx, l->snd_max))
			l->st.tx_retx++;
		l->snd_tx++;
		if (seq_before(l->snd_max, l->snd_tx))
			l->snd_max = l->snd_tx;
		l->st.tx_frames++;
		*frame = f->b;
		*len = f->len;
		goto sent;
	}
	return 0;

sent:
	l->st.tx_bytes += *len;
	return 1;
}

int wg_link_rx(struct wg_link *l, const void *data, size_t n)
{
	int rc;

	if (!l || (!data && n))
		return WG_EINVAL;
	if (l->failed)
		return l->failed;
	l->st.rx_bytes += n;
	rc = wg_link_dec_feed(l->dec, data, n);
	return l->failed ? l->failed : rc;
}

int wg_link_rx_end(struct wg_link *l)
{
	int rc;

	if (!l)
		return WG_EINVAL;
	if (l->failed)
		return l->failed;
	rc = wg_link_dec_end(l->dec);
	return l->failed ? l->failed : rc;
}

int wg_link_poll(struct wg_link *l, uint64_t now)
{
	if (!l)
		return WG_EINVAL;
	l->now = now;
	if (l->failed)
		return l->failed;
	if (!l->up && l->p.role == WGL_ROLE_HOST && !l->hello_due &&
	    now - l->t_hello >= rto_for(l, l->hello_tries)) {
		if (++l->hello_tries > l->p.max_retries)
			report(l, WGL_E_RETRY, NULL, l->p.max_retries, l->hello_tries, 1);
		else
			l->hello_due = 1;
	}
	if (l->up && l->snd_tx != l->snd_una && now - l->t_retx >= rto_for(l, l->retries)) {
		l->st.timeouts++;
		go_back(l);
	}
	if (l->up && l->nak_active && now - l->t_nak >= rto_for(l, l->nak_tries)) {
		if (++l->nak_tries > l->p.max_retries) {
			report(l, WGL_E_RETRY, NULL, l->p.max_retries, l->nak_tries, 1);
		} else {
			l->nak_due = 1;
			l->t_nak = now;
		}
	}
	return l->failed;
}

int wg_link_up(const struct wg_link *l)
{
	return l && l->up;
}

int wg_link_error(const struct wg_link *l)
{
	return l ? l->failed : WG_EINVAL;
}

int wg_link_idle(const struct wg_link *l)
{
	return l && (!l->open || !l->open->nrec) && !l->qcount && !l->hello_due && !l->ack_due && !l->nak_due &&
	       !l->nak_active && !l->lerr_count;
}

const struct wg_link_info *wg_link_peer(const struct wg_link *l)
{
	return l && l->up ? &l->peer : NULL;
}

void wg_link_stats(const struct wg_link *l, struct wg_link_stats *s)
{
	*s = l->st;
	s->in_flight = l->snd_tx - l->snd_una;
	s->queued = (uint32_t)l->qcount - s->in_flight;
}
