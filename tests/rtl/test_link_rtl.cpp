// test_link_rtl: the link engine (rtl/wg_link.sv) against the C link
// (host/src/link.c), which plays the host: commands put into a host-side
// wg_link come out of the engine's command port, events driven into its event
// port come out of the host's link, with the HELLO exchange, back-pressure on
// every port, corrupted and dropped frames in both directions, and fatal errors.
//
// Besides the traffic checks, every error the engine reports (rep_*) is
// compared with a model: a C decoder (wg_link_dec) fed the very bytes the engine
// took, plus the receive rules of docs/link-rtl.md section 3 — so the engine's
// reports equal the C decoder's, field for field. LERR frames that reach the
// host must be those reports, in order (some may be dropped when the queue is full).
#include "Vwg_link.h"
#include "harness.h"

#include <deque>
#include <functional>
#include <vector>

extern "C" {
#include "link.h"
#include "log.h"
#include "warpgate.h"
}

// The build's parameters (sim/link.mk passes the same values to Verilator).
#ifndef LINK_NUM_SMS
#define LINK_NUM_SMS 4
#endif
#ifndef LINK_NUM_WARPS
#define LINK_NUM_WARPS 8
#endif
#ifndef LINK_SIMD_WIDTH
#define LINK_SIMD_WIDTH 8
#endif
#ifndef LINK_NUM_SIMD
#define LINK_NUM_SIMD 2
#endif
#ifndef LINK_MEM_TAG_W
#define LINK_MEM_TAG_W 8
#endif
#ifndef LINK_NUM_CTAS
#define LINK_NUM_CTAS 8
#endif
#ifndef LINK_RX_PAYLOAD
#define LINK_RX_PAYLOAD 1024
#endif
#ifndef LINK_TX_FRAMES
#define LINK_TX_FRAMES 4
#endif
#ifndef LINK_RTO
#define LINK_RTO 20000
#endif

namespace {

using H = wg::Harness<Vwg_link>;

constexpr uint32_t kTagMax = (1u << LINK_MEM_TAG_W) - 1;
constexpr uint64_t kRto = LINK_RTO; // the host's rto, in cycles: the engine's RTO_CYCLES

enum { M_WAIT, M_UP, M_FAILED };

struct Rep {
	unsigned code;
	uint8_t type;
	uint32_t seq;
	uint64_t off;
	uint32_t exp, act;
	bool operator==(const Rep &o) const
	{
		return code == o.code && type == o.type && seq == o.seq && off == o.off && exp == o.exp && act == o.act;
	}
};

Rep rep_of(const wg_link_report &r)
{
	return Rep{ r.code, r.type, r.seq, r.offset, r.expected, r.actual };
}

struct Bench {
	H &h;
	Vwg_link *t;
	wg_link *host = nullptr;

	// Wires: bytes to the engine; bytes of the engine's frame being collected.
	std::deque<uint8_t> down;
	std::vector<uint8_t> upf;
	// Fault injection on whole frames (return false to drop the frame).
	std::function<bool(std::vector<uint8_t> &)> down_fault, up_fault;

	// Traffic and what must arrive.
	std::deque<wg_link_cmd> exp_cmds;
	std::deque<wg_link_ev> ev_src, exp_evs;
	bool ev_on = false;
	bool resync = false;   // the next event received may skip some sent before a restart
	uint64_t evs_lost = 0, old_cmds_got = 0;
	std::deque<wg_link_cmd> old_cmds; // a restarted host's commands: some may still come
	unsigned p_rx = 100, p_tx = 100, p_cmd = 100, p_ev = 100; // percent of cycles active

	// Model of the engine's reports.
	wg_link_dec *dec = nullptr;
	int mstate = M_WAIT;
	uint32_t mrcv = 0;
	std::deque<Rep> model_reps, lerr_cands;

	// Counts.
	uint64_t rtl_reps = 0, rtl_reps_code[16] = {}, lerrs = 0, host_errs[WGL_E_COUNT] = {};
	uint64_t stall_rx = 0, stall_ev = 0, stall_cmd = 0, stall_tx = 0, cmds_got = 0, evs_got = 0;

	explicit Bench(H &hh) : h(hh), t(hh.top)
	{
		int rc = wg_link_dec_create(&dec, WG_LINK_TO_GPU, LINK_RX_PAYLOAD, m_frame, m_report, this);
		if (rc)
			abort();
	}
	~Bench()
	{
		wg_link_destroy(host);
		wg_link_dec_destroy(dec);
	}

	// ---- the model of the engine's receive side -------------------------
	void mpush(unsigned code, const wg_link_frame *f, uint32_t exp, uint32_t act)
	{
		model_reps.push_back(Rep{ code, f->type, f->seq, f->offset, exp, act });
	}

	static void m_report(void *arg, const wg_link_report *r)
	{
		Bench *b = static_cast<Bench *>(arg);
		if (r->code == WGL_E_TYPE) { // a well-formed frame of another direction: fatal
			if (b->mstate == M_FAILED)
				return;
			b->mstate = M_FAILED;
		}
		b->model_reps.push_back(rep_of(*r));
	}

	static int m_frame(void *arg, const wg_link_frame *f)
	{
		Bench *b = static_cast<Bench *>(arg);
		unsigned size = wg_link_rec_size(f->type);
		wg_link_report why;

		if (b->mstate == M_FAILED && f->type != WGL_T_HELLO)
			return 0;
		if (f->type <= WGL_T_LINK_LAST) {
			if (wg_link_rec_check(f->type, f->payload, &why)) {
				why.type = f->type;
				why.seq = f->seq;
				why.offset += f->offset + WGL_HDR_BYTES;
				b->model_reps.push_back(rep_of(why));
				b->mstate = M_FAILED;
				return 0;
			}
			if (f->type == WGL_T_HELLO) {
				wg_link_info in;
				int reply;
				wg_link_hello_unpack(f->payload, &in, &reply);
				if (in.version != WGL_VERSION || in.role != WGL_ROLE_HOST || in.max_payload < WGL_PAYLOAD_MIN ||
				    in.max_payload > WGL_PAYLOAD_MAX || in.max_payload % 4) {
					b->mstate = M_FAILED; // VERSION: not compared (code 13)
					return 0;
				}
				if (reply) {
					b->mpush(WGL_E_STATE, f, 0, WGL_HELLO_REPLY);
					return 0;
				}
				b->mstate = M_UP;
				b->mrcv = f->seq;
				return 0;
			}
			if (b->mstate == M_UP && (int32_t)(b->mrcv - f->seq) < 0)
				b->mpush(WGL_E_GAP, f, b->mrcv, f->seq);
			return 0;
		}
		if (b->mstate != M_UP) {
			b->mpush(WGL_E_STATE, f, 0, f->type);
			return 0;
		}
		int32_t d = (int32_t)(f->seq - b->mrcv);
		if (d < 0) {
			b->mpush(WGL_E_DUP, f, b->mrcv, f->seq);
			return 0;
		}
		if (d > 0) {
			b->mpush(WGL_E_GAP, f, b->mrcv, f->seq);
			return 0;
		}
		for (unsigned i = 0; i < f->nrec; i++) {
			const uint8_t *r = f->payload + i * size;
			uint64_t roff = f->offset + WGL_HDR_BYTES + (uint64_t)i * size;
			bool bad = wg_link_rec_check(f->type, r, &why) != 0;
			if (!bad && (f->type == WGL_T_MRSP || f->type == WGL_T_MRSP_ND) && wgl_get16(r + WGL_C_TAG) > kTagMax) {
				why = wg_link_report{};
				why.code = WGL_E_FIELD;
				why.offset = WGL_C_TAG;
				why.expected = kTagMax;
				why.actual = wgl_get16(r + WGL_C_TAG);
				bad = true;
			}
			if (bad) {
				why.type = f->type;
				why.seq = f->seq;
				why.offset += roff;
				b->model_reps.push_back(rep_of(why));
				b->mstate = M_FAILED;
				return 0;
			}
		}
		b->mrcv++;
		return 0;
	}

	// ---- the host ----------------------------------------------------------
	static int host_rec(void *arg, const wg_link_rec *r)
	{
		Bench *b = static_cast<Bench *>(arg);
		CHECK(b->h, r->ev != nullptr, "host got a record that is not an event (type 0x%02x)", r->type);
		if (!r->ev)
			return 0;
		if (b->resync) { // a restarted link: the events it still carries are a suffix of those sent
			while (!b->exp_evs.empty() && memcmp(&b->exp_evs.front(), r->ev, sizeof(*r->ev))) {
				b->exp_evs.pop_front();
				b->evs_lost++;
			}
			b->resync = false;
		}
		CHECK(b->h, !b->exp_evs.empty(), "host got an event nobody sent (kind %u)", r->ev->kind);
		if (b->exp_evs.empty())
			return 0;
		const wg_link_ev &e = b->exp_evs.front();
		CHECK(b->h, !memcmp(&e, r->ev, sizeof(e)), "event %" PRIu64 " (kind %u, type 0x%02x) differs from the one sent",
		      b->evs_got, e.kind, r->type);
		b->exp_evs.pop_front();
		b->evs_got++;
		return 0;
	}

	static void host_report(void *arg, const wg_link_report *r)
	{
		Bench *b = static_cast<Bench *>(arg);
		if (!r->remote) {
			if (r->code < WGL_E_COUNT)
				b->host_errs[r->code]++;
			return;
		}
		// A LERR: one of the engine's reports, in order, possibly after dropped ones.
		Rep x = rep_of(*r);
		while (!b->lerr_cands.empty() && !(b->lerr_cands.front() == x))
			b->lerr_cands.pop_front();
		CHECK(b->h, !b->lerr_cands.empty(), "LERR code %u type 0x%02x seq %u off %" PRIu64 " not reported by the engine",
		      x.code, x.type, x.seq, x.off);
		if (!b->lerr_cands.empty())
			b->lerr_cands.pop_front();
		b->lerrs++;
	}

	void new_host()
	{
		wg_link_params p = {};
		wg_link_destroy(host);
		p.role = WGL_ROLE_HOST;
		p.rto = kRto;
		p.on_rec = host_rec;
		p.on_report = host_report;
		p.arg = this;
		int rc = wg_link_create(&host, &p);
		CHECK(h, rc == 0, "wg_link_create: %d", rc);
	}

	uint32_t host_next_seq() const
	{
		struct wg_link_stats s;
		wg_link_stats(host, &s);
		return (uint32_t)(s.tx_frames - s.tx_retx);
	}

	// ---- one clock cycle -----------------------------------------------------
	void drive_event(const wg_link_ev &e)
	{
		// Other kinds' fields carry garbage, as the GPU top's do.
		t->ev_mreq_addr_i = (uint32_t)h.rng();
		t->ev_mreq_tag_i = (uint32_t)h.rng() & kTagMax;
		for (int i = 0; i < 32; i++) {
			t->ev_mreq_wdata_i[i] = (uint32_t)h.rng();
			t->ev_ret_data_i[i] = (uint32_t)h.rng();
		}
		for (int i = 0; i < 4; i++)
			t->ev_mreq_wmask_i[i] = (uint32_t)h.rng();
		for (int i = 0; i < WGL_CNT_WORDS; i++)
			t->ev_cnt_i[i] = (uint32_t)h.rng();
		t->ev_done_linear_i = (uint32_t)h.rng();
		t->ev_fault_cta_linear_i = (uint32_t)h.rng();
		t->ev_ret_cta_linear_i = (uint32_t)h.rng();
		t->ev_busy_i = (uint32_t)h.rng() & ((1u << LINK_NUM_SMS) - 1);
		t->ev_err_code_i = (uint32_t)h.rng() & 15;

		t->ev_kind_i = e.kind;
		t->ev_sm_i = e.sm;
		t->ev_cycle_i = e.cycle;
		switch (e.kind) {
		case 0:
			t->ev_mreq_tag_i = e.tag;
			t->ev_mreq_cmd_i = e.cmd;
			t->ev_mreq_addr_i = e.addr;
			t->ev_mreq_size_i = e.size;
			for (int w = 0; w < 4; w++) {
				uint32_t m = 0;
				for (int i = 0; i < 32; i++)
					m |= (uint32_t)e.wmask[32 * w + i] << i;
				t->ev_mreq_wmask_i[w] = m;
			}
			for (int w = 0; w < 32; w++)
				t->ev_mreq_wdata_i[w] = wgl_get32(e.wdata + 4 * w);
			t->ev_mreq_atom_op_i = e.atom_op;
			t->ev_mreq_atom_b_i = e.atom_b;
			t->ev_mreq_atom_c_i = e.atom_c;
			t->ev_mreq_local_i = e.local;
			t->ev_mreq_wb_i = e.wb;
			t->ev_mreq_warp_i = e.warp;
			t->ev_mreq_pc_i = e.pc;
			t->ev_mreq_lane_i = e.lane;
			break;
		case 1:
			t->ev_done_linear_i = e.linear;
			break;
		case 2:
			t->ev_fault_code_i = e.code;
			t->ev_fault_warp_i = e.fwarp;
			t->ev_fault_pc_i = e.fpc;
			t->ev_fault_lane_i = e.flane;
			t->ev_fault_addr_i = e.faddr;
			t->ev_fault_cta_linear_i = e.linear;
			break;
		case 3:
			t->ev_ret_warp_i = e.rwarp;
			t->ev_ret_cta_linear_i = e.linear;
			t->ev_ret_wic_i = e.rwic;
			t->ev_ret_seq_i = e.rseq;
			t->ev_ret_pc_i = e.rpc;
			t->ev_ret_active_i = e.ractive;
			t->ev_ret_exec_i = e.rexec;
			t->ev_ret_dst_i = e.rdst;
			t->ev_ret_reg_i = e.rreg;
			t->ev_ret_beat_i = e.rbeat;
			t->ev_ret_last_i = e.rlast;
			for (int w = 0; w < 32; w++)
				t->ev_ret_data_i[w] = e.rdata[w];
			break;
		case 4:
			t->ev_busy_i = (uint32_t)e.busy;
			break;
		case 5:
			for (int w = 0; w < WGL_CNT_WORDS; w++)
				t->ev_cnt_i[w] = e.cnt[w];
			break;
		default:
			t->ev_err_code_i = e.err;
			break;
		}
	}

	bool cmd_is(const wg_link_cmd &c)
	{
		bool data_ok = true;
		for (int w = 0; w < 32; w++)
			data_ok = data_ok && t->cmd_data_o[w] == wgl_get32(c.data + 4 * w);
		return t->cmd_op_o == c.op && t->cmd_sm_o == c.sm && t->cmd_all_o == c.all && t->cmd_at_o == c.at &&
		       t->cmd_addr_o == c.addr && t->cmd_tag_o == c.tag && data_ok;
	}

	void check_cmd()
	{
		// After a restart, the old link's commands already committed still come, in order.
		if (!old_cmds.empty() && cmd_is(old_cmds.front())) {
			old_cmds.pop_front();
			old_cmds_got++;
			return;
		}
		old_cmds.clear();
		CHECK(h, !exp_cmds.empty(), "command port: a command nobody sent (op %u)", t->cmd_op_o);
		if (exp_cmds.empty())
			return;
		const wg_link_cmd &c = exp_cmds.front();
		bool data_ok = true;
		for (int w = 0; w < 32; w++)
			data_ok = data_ok && t->cmd_data_o[w] == wgl_get32(c.data + 4 * w);
		CHECK(h, t->cmd_op_o == c.op && t->cmd_sm_o == c.sm && t->cmd_all_o == c.all && t->cmd_at_o == c.at &&
		             t->cmd_addr_o == c.addr && t->cmd_tag_o == c.tag && data_ok,
		      "command %" PRIu64 ": op %u/%u sm %u/%u all %u/%u at %" PRIx64 "/%" PRIx64 " addr %x/%x tag %x/%x data %s",
		      cmds_got, t->cmd_op_o, c.op, t->cmd_sm_o, c.sm, t->cmd_all_o, c.all, (uint64_t)t->cmd_at_o, c.at,
		      t->cmd_addr_o, c.addr, t->cmd_tag_o, c.tag, data_ok ? "ok" : "differs");
		exp_cmds.pop_front();
		cmds_got++;
	}

	void rtl_report()
	{
		Rep x{ t->rep_code_o, t->rep_type_o, t->rep_seq_o, t->rep_off_o, t->rep_exp_o, t->rep_act_o };
		rtl_reps++;
		rtl_reps_code[x.code & 15]++;
		if (x.code > WGL_E_STATE)
			return; // WINDOW, RETRY, VERSION: link state the model does not follow
		lerr_cands.push_back(x);
		CHECK(h, !model_reps.empty(), "engine reported code %u type 0x%02x seq %u off %" PRIu64 " exp %u act %u; "
		      "the C decoder did not", x.code, x.type, x.seq, x.off, x.exp, x.act);
		if (model_reps.empty())
			return;
		const Rep &m = model_reps.front();
		CHECK(h, m == x, "report: engine code %u type 0x%02x seq %u off %" PRIu64 " exp %u act %u, "
		      "C code %u type 0x%02x seq %u off %" PRIu64 " exp %u act %u", x.code, x.type, x.seq, x.off, x.exp, x.act,
		      m.code, m.type, m.seq, m.off, m.exp, m.act);
		model_reps.pop_front();
	}

	void cycle()
	{
		if (host) {
			int rc = wg_link_poll(host, h.cycle());
			CHECK(h, rc == 0, "host link failed: %d", rc);
			while (down.size() < 64) {
				const uint8_t *f;
				size_t n;
				if (wg_link_tx_next(host, &f, &n) <= 0)
					break;
				std::vector<uint8_t> fr(f, f + n);
				if (!down_fault || down_fault(fr))
					down.insert(down.end(), fr.begin(), fr.end());
			}
		}
		bool rx_v = !down.empty() && h.chance(p_rx);
		t->rx_valid_i = rx_v;
		t->rx_data_i = rx_v ? down.front() : (uint8_t)h.rng();
		t->tx_ready_i = h.chance(p_tx);
		t->cmd_ready_i = h.chance(p_cmd);
		if (!ev_on && !ev_src.empty() && h.chance(p_ev)) {
			drive_event(ev_src.front());
			ev_on = true;
		}
		t->ev_valid_i = ev_on;
		h.eval();

		if (rx_v && t->rx_ready_o) {
			uint8_t byte = down.front();
			down.pop_front();
			wg_link_dec_feed(dec, &byte, 1);
		}
		stall_rx += rx_v && !t->rx_ready_o;
		if (t->tx_valid_o && t->tx_ready_i) {
			upf.push_back(t->tx_data_o);
			if (upf.size() >= WGL_HDR_BYTES &&
			    upf.size() == WGL_HDR_BYTES + wgl_get16(&upf[WGL_H_LEN]) + WGL_CRC_BYTES) {
				CHECK(h, upf[0] == WGL_SYNC0 && upf[1] == WGL_SYNC1 && upf[2] == WGL_SYNC2 && upf[3] == WGL_SYNC3,
				      "engine frame without a sync word");
				if (!up_fault || up_fault(upf)) {
					if (host) {
						int rc = wg_link_rx(host, upf.data(), upf.size());
						CHECK(h, rc == 0, "host rx: %d", rc);
					}
				}
				upf.clear();
			}
		}
		stall_tx += t->tx_valid_o && !t->tx_ready_i;
		if (t->cmd_valid_o && t->cmd_ready_i)
			check_cmd();
		stall_cmd += t->cmd_valid_o && !t->cmd_ready_i;
		if (ev_on) {
			if (t->ev_ready_o) {
				exp_evs.push_back(ev_src.front());
				ev_src.pop_front();
				ev_on = false;
			} else {
				stall_ev++;
			}
		}
		if (t->rep_valid_o)
			rtl_report();
		h.tick();
	}

	bool idle() const
	{
		return exp_cmds.empty() && ev_src.empty() && exp_evs.empty() && down.empty() && !ev_on &&
		       (!host || wg_link_idle(host));
	}

	// Run until everything sent has arrived and both sides are quiet; false on timeout.
	bool settle(uint64_t max_cycles, const char *what)
	{
		uint64_t quiet = 0;
		for (uint64_t i = 0; i < max_cycles; i++) {
			cycle();
			quiet = idle() ? quiet + 1 : 0;
			if (quiet > 400)
				break;
		}
		bool ok = idle();
		CHECK(h, ok, "%s: not settled (%zu commands, %zu + %zu events outstanding, host idle %d)", what,
		      exp_cmds.size(), ev_src.size(), exp_evs.size(), host ? wg_link_idle(host) : -1);
		CHECK(h, model_reps.empty(), "%s: %zu reports of the C decoder not made by the engine (first code %u)", what,
		      model_reps.size(), model_reps.empty() ? 0 : model_reps.front().code);
		return ok;
	}

	template <class F>
	bool run_until(F cond, uint64_t max_cycles)
	{
		for (uint64_t i = 0; i < max_cycles; i++) {
			if (cond())
				return true;
			cycle();
		}
		return cond();
	}

	// ---- traffic ------------------------------------------------------------
	void rand_bytes(uint8_t *p, size_t n)
	{
		for (size_t i = 0; i < n; i++)
			p[i] = (uint8_t)h.rng();
	}

	wg_link_cmd rand_cmd(int op = -1)
	{
		wg_link_cmd c;
		memset(&c, 0, sizeof(c));
		c.op = (uint8_t)(op >= 0 ? op : (int)h.rand(10));
		c.sm = (uint8_t)h.rng();
		c.all = (uint8_t)h.rand(2);
		switch (c.op) {
		case 2: // CFG
		case 4: // CMEM
			c.addr = (uint32_t)h.rng();
			rand_bytes(c.data, 4);
			break;
		case 3: // IMEM
			c.addr = (uint32_t)h.rng();
			rand_bytes(c.data, 8);
			break;
		case 5: // LAUNCH
			c.at = h.rng();
			c.addr = (uint32_t)h.rng();
			rand_bytes(c.data, 6);
			break;
		case 6: // MRSP, a third without data (a write's response)
			c.tag = (uint32_t)h.rng() & kTagMax;
			c.at = h.rng();
			if (!h.chance(33))
				rand_bytes(c.data, WGL_MEM_BYTES);
			break;
		case 7: // GRANT
			c.at = h.rng();
			break;
		case 8: // LANE_EN
			rand_bytes(c.data, 4);
			break;
		case 9: // CNT_READ: the page, any u16 (docs/protocol.md section 5.2)
			c.addr = (uint32_t)h.rng() & 0xFFFF;
			break;
		default: // NOP, RESET
			break;
		}
		return c;
	}

	wg_link_ev rand_ev(int kind = -1)
	{
		wg_link_ev e;
		memset(&e, 0, sizeof(e));
		e.kind = (uint8_t)(kind >= 0 ? kind : (int)h.rand(7));
		e.sm = (uint8_t)h.rng();
		e.cycle = h.rng();
		switch (e.kind) {
		case 0: // MREQ, a third without write data (a read)
			e.tag = (uint32_t)h.rng() & kTagMax;
			e.cmd = (uint8_t)h.rand(4);
			e.addr = (uint32_t)h.rng();
			e.size = (uint8_t)h.rand(8);
			e.atom_op = (uint8_t)h.rand(16);
			e.atom_b = (uint32_t)h.rng();
			e.atom_c = (uint32_t)h.rng();
			e.local = (uint8_t)h.rand(2);
			e.wb = (uint8_t)h.rand(2);
			e.warp = (uint32_t)h.rand(64);
			e.pc = (uint32_t)h.rand(1u << 18);
			e.lane = (uint32_t)h.rand(32);
			if (!h.chance(33)) {
				for (int i = 0; i < WGL_MEM_BYTES; i++)
					e.wmask[i] = (uint8_t)h.rand(2);
				rand_bytes(e.wdata, WGL_MEM_BYTES);
			}
			break;
		case 1:
			e.linear = (uint32_t)h.rng();
			break;
		case 2:
			e.code = (uint32_t)h.rand(16);
			e.fwarp = (uint32_t)h.rand(64);
			e.flane = (uint32_t)h.rand(32);
			e.fpc = (uint32_t)h.rand(1u << 18);
			e.faddr = (uint32_t)h.rng();
			e.linear = (uint32_t)h.rng();
			break;
		case 3: // RETIRE, a third without lane values
			e.rwarp = (uint32_t)h.rand(64);
			e.linear = (uint32_t)h.rng();
			e.rwic = (uint32_t)h.rand(32);
			e.rseq = (uint32_t)h.rand(65536);
			e.rpc = (uint32_t)h.rand(1u << 18);
			e.ractive = (uint32_t)h.rng();
			e.rexec = (uint32_t)h.rng();
			e.rdst = (uint8_t)h.rand(4);
			e.rreg = (uint8_t)h.rand(64);
			e.rbeat = (uint8_t)h.rand(4);
			e.rlast = (uint8_t)h.rand(2);
			if (!h.chance(33))
				for (int i = 0; i < WGL_LANES; i++)
					e.rdata[i] = (uint32_t)h.rng();
			break;
		case 4:
			e.busy = h.rng() & ((1u << LINK_NUM_SMS) - 1);
			break;
		case 5:
			for (int i = 0; i < WGL_CNT_WORDS; i++)
				e.cnt[i] = (uint32_t)h.rng();
			break;
		default:
			e.err = (uint8_t)h.rand(16);
			break;
		}
		return e;
	}

	void put_cmd(const wg_link_cmd &c)
	{
		int rc = wg_link_put_cmd(host, &c);
		CHECK(h, rc == 0, "wg_link_put_cmd: %d", rc);
		exp_cmds.push_back(c);
	}

	void flush()
	{
		int rc = wg_link_flush(host);
		CHECK(h, rc == 0, "wg_link_flush: %d", rc);
	}

	// Raw bytes on the wire to the engine: a frame sealed here (bypassing the host link).
	void inject_frame(unsigned type, uint32_t seq, const std::vector<uint8_t> &payload, unsigned nrec)
	{
		std::vector<uint8_t> f(WGL_HDR_BYTES + payload.size() + WGL_CRC_BYTES);
		memcpy(&f[WGL_HDR_BYTES], payload.data(), payload.size());
		wg_link_frame_seal(f.data(), type, seq, nrec, (unsigned)payload.size());
		down.insert(down.end(), f.begin(), f.end());
	}
};

// ---- scenarios -----------------------------------------------------------------

// Before any HELLO: junk bytes (SYNC) and a command frame (STATE) are reported
// and dropped. Then the host's HELLO; the engine's first reply is lost, the host
// says HELLO again after rto, the second reply brings the link up with the build.
// A header with any LEN and NREC and a good header check (the payload is not sent).
void inject_header(Bench &b, unsigned type, unsigned nrec, unsigned len)
{
	std::vector<uint8_t> f(WGL_HDR_BYTES + len + WGL_CRC_BYTES);
	wg_link_frame_seal(f.data(), type, 0, nrec, len);
	b.down.insert(b.down.end(), f.begin(), f.begin() + WGL_HDR_BYTES);
}

void test_hello(Bench &b)
{
	H &h = b.h;
	// Before any HELLO, every kind of damage the decoder judges, each compared with the C decoder:
	// junk (SYNC), a command frame (STATE), bad lengths with good header checks (LENGTH) ...
	for (int i = 0; i < 10; i++)
		b.down.push_back((uint8_t)(i == 3 ? WGL_SYNC0 : 0x11 * i));
	std::vector<uint8_t> nop(4, 0);
	b.inject_frame(WGL_T_NOP, 0, nop, 1);
	inject_header(b, WGL_T_CFG, 86, 86 * WGL_CFG_SIZE); // above RX_PAYLOAD
	inject_header(b, WGL_T_CFG, 2, WGL_CFG_SIZE);       // LEN != NREC x size
	inject_header(b, WGL_T_ACK, 2, 2 * WGL_ACK_SIZE);   // a link frame of two records
	inject_header(b, 0x7F, 1, 6);                       // unknown type, LEN not a multiple of 4
	inject_header(b, WGL_T_CFG, 0, 0);                  // no records
	// ... a frame whose LEN promises more than comes: it swallows the next frame, fails its
	// CRC, and the search goes on one byte after its sync word, from the ring (CRC, SYNC, STATE) ...
	std::vector<uint8_t> f(WGL_HDR_BYTES + 7 * WGL_MRSP_SIZE + WGL_CRC_BYTES);
	for (size_t i = WGL_HDR_BYTES; i < f.size(); i++)
		f[i] = (uint8_t)(i * 7 % 0xA0);
	wg_link_frame_seal(f.data(), WGL_T_MRSP, 3, 7, 7 * WGL_MRSP_SIZE);
	b.down.insert(b.down.end(), f.begin(), f.begin() + WGL_HDR_BYTES + 100);
	b.inject_frame(WGL_T_NOP, 5, nop, 1);
	for (int i = 0; i < 900; i++)
		b.down.push_back((uint8_t)(i % 0xA0));
	// ... and a link record with a field out of range (FIELD: the link fails), after which a
	// well-formed frame of the other direction is ignored.
	std::vector<uint8_t> lerr(WGL_LERR_SIZE, 0);
	lerr[WGL_LERR_CODE] = WGL_E_COUNT;
	b.inject_frame(WGL_T_LERR, 0, lerr, 1);
	std::vector<uint8_t> done(WGL_DONE_SIZE, 0);
	b.inject_frame(WGL_T_DONE, 0, done, 1);
	b.run_until([&] { return b.down.empty(); }, 10000);
	b.run_until([&] { return b.model_reps.empty(); }, 20000);
	b.run_until([&] { return false; }, 100);
	CHECK(h, b.model_reps.empty(), "%zu reports of the C decoder not made by the engine", b.model_reps.size());
	CHECK(h, b.rtl_reps_code[WGL_E_SYNC] >= 3 && b.rtl_reps_code[WGL_E_STATE] == 2 &&
	             b.rtl_reps_code[WGL_E_LENGTH] == 5 && b.rtl_reps_code[WGL_E_CRC] == 1 &&
	             b.rtl_reps_code[WGL_E_FIELD] == 1 && b.rtl_reps_code[WGL_E_TYPE] == 0,
	      "before HELLO: %" PRIu64 " SYNC %" PRIu64 " STATE %" PRIu64 " LENGTH %" PRIu64 " CRC %" PRIu64 " FIELD %" PRIu64
	      " TYPE reports", b.rtl_reps_code[WGL_E_SYNC], b.rtl_reps_code[WGL_E_STATE], b.rtl_reps_code[WGL_E_LENGTH],
	      b.rtl_reps_code[WGL_E_CRC], b.rtl_reps_code[WGL_E_FIELD], b.rtl_reps_code[WGL_E_TYPE]);
	CHECK(h, !b.t->up_o && b.t->failed_o && b.cmds_got == 0, "before HELLO: up %d failed %d, %" PRIu64 " commands",
	      b.t->up_o, b.t->failed_o, b.cmds_got);

	int replies = 0;
	b.up_fault = [&](std::vector<uint8_t> &f) { return !(f[WGL_H_TYPE] == WGL_T_HELLO && replies++ == 0); };
	b.new_host();
	bool up = b.run_until([&] { return wg_link_up(b.host); }, 3 * kRto);
	CHECK(h, up && replies == 2, "link up %d after %d HELLO replies", up, replies);
	CHECK(h, h.cycle() > kRto, "the host waited for rto before saying HELLO again");
	b.up_fault = nullptr;

	const wg_link_info *p = wg_link_peer(b.host);
	CHECK(h, p != nullptr, "no peer info");
	if (p) {
		CHECK(h, p->version == WGL_VERSION && p->role == WGL_ROLE_GPU && p->max_payload == LINK_RX_PAYLOAD &&
		             p->window == LINK_TX_FRAMES,
		      "HELLO: version %u role %u max_payload %u window %u", p->version, p->role, p->max_payload, p->window);
		CHECK(h, p->num_sms == LINK_NUM_SMS && p->num_warps == LINK_NUM_WARPS && p->simd_width == LINK_SIMD_WIDTH &&
		             p->num_simd == LINK_NUM_SIMD && p->num_ctas == LINK_NUM_CTAS,
		      "HELLO build: sms %u warps %u simd %u x %u ctas %u", p->num_sms, p->num_warps, p->num_simd,
		      p->simd_width, p->num_ctas);
		// wg_gpu's defaults for the rest (sim/link.mk sets only the fields above).
		CHECK(h, p->num_regs == 32768 && p->rf_banks == 16 && p->dmem_bytes == 65536 && p->l1_sets == 64 &&
		             p->l1_mshrs == 8 && p->imem_depth == 4096 && p->cmem_bytes == 4096 && p->stack_depth == 64 &&
		             p->has_fp == 1 && p->retire_en == 1,
		      "HELLO build defaults");
		CHECK(h, p->mem_bytes == WGL_MEM_BYTES && p->mem_tag_bits == LINK_MEM_TAG_W && p->cnt_words == WGL_CNT_WORDS &&
		             p->rsp_depth == (1u << LINK_MEM_TAG_W) && p->launch_depth == LINK_NUM_CTAS,
		      "HELLO: mem_bytes %u tag bits %u cnt_words %u rsp %u launch %u", p->mem_bytes, p->mem_tag_bits,
		      p->cnt_words, p->rsp_depth, p->launch_depth);
	}
	CHECK(h, b.t->up_o && !b.t->failed_o, "engine up");
	b.settle(5000, "hello");
}

// Every command op with random fields, batched and flushed at random points.
void test_commands(Bench &b, unsigned n)
{
	b.p_rx = 80;
	b.p_cmd = 50;
	for (unsigned i = 0; i < n; i++) {
		b.put_cmd(b.rand_cmd(i < 11 ? (int)(i % 10) : -1));
		if (b.h.chance(15))
			b.flush();
	}
	b.flush();
	b.settle(400000, "commands");
	b.p_rx = b.p_cmd = 100;
}

// Every event kind and form with random fields (and garbage on the other kinds' ports).
void test_events(Bench &b, unsigned n)
{
	b.p_tx = 70;
	b.p_ev = 60;
	for (unsigned i = 0; i < n; i++)
		b.ev_src.push_back(b.rand_ev(i < 7 ? (int)i : -1));
	b.settle(600000, "events");
	b.p_tx = b.p_ev = 100;
}

// Both directions at once, each port throttled hard for a while: the ring fills
// and stops the byte input, the frame store fills and stops the event port.
void test_backpressure(Bench &b)
{
	H &h = b.h;
	uint64_t srx = b.stall_rx, sev = b.stall_ev;
	for (unsigned i = 0; i < 300; i++) {
		b.put_cmd(b.rand_cmd(h.chance(50) ? 6 : -1));
		b.ev_src.push_back(b.rand_ev(h.chance(50) ? 0 : -1));
	}
	b.flush();
	b.p_cmd = 2;
	b.p_tx = 3;
	for (int i = 0; i < 60000; i++)
		b.cycle();
	b.p_cmd = 100;
	b.p_tx = 100;
	b.settle(600000, "back-pressure");
	CHECK(h, b.stall_rx > srx, "the byte input was never stopped");
	CHECK(h, b.stall_ev > sev, "the event port was never stopped");
	CHECK(h, b.stall_cmd > 0 && b.stall_tx > 0, "command port or byte output never waited");
}

// Host -> engine: byte i of a command frame damaged on its first transmission,
// for every i; a second frame follows, so the engine sees the gap and NAKs.
void test_corrupt_down(Bench &b)
{
	H &h = b.h;
	struct wg_link_stats s0, s1;
	wg_link_stats(b.host, &s0);
	unsigned size = WGL_HDR_BYTES + 3 * WGL_CFG_SIZE + WGL_CRC_BYTES;
	unsigned noticed = 0;
	for (unsigned i = 0; i < size; i++) {
		uint32_t seq = b.host_next_seq();
		bool done = false;
		uint8_t x = (uint8_t)(1 + h.rand(255));
		b.down_fault = [&, seq, i, x](std::vector<uint8_t> &f) {
			if (!done && f[WGL_H_TYPE] == WGL_T_CFG && wgl_get32(&f[WGL_H_SEQ]) == seq) {
				f[i] ^= x;
				done = true;
			}
			return true;
		};
		uint64_t reps = b.rtl_reps, t0 = h.cycle();
		for (int k = 0; k < 3; k++)
			b.put_cmd(b.rand_cmd(2));
		b.flush();
		for (int k = 0; k < 2; k++)
			b.put_cmd(b.rand_cmd(7));
		b.flush();
		b.run_until([&] { return b.exp_cmds.empty(); }, 6 * kRto);
		// The engine's NAK, not the host's timeout, brings the frame again.
		CHECK(h, h.cycle() - t0 < kRto, "byte %u: recovered after %" PRIu64 " cycles", i, h.cycle() - t0);
		b.settle(6 * kRto, "corrupt down");
		CHECK(h, done, "byte %u: frame not corrupted", i);
		noticed += b.rtl_reps > reps;
		CHECK(h, b.rtl_reps > reps, "byte %u (xor 0x%02x) of a command frame: the engine reported nothing", i, x);
	}
	b.down_fault = nullptr;
	wg_link_stats(b.host, &s1);
	CHECK(h, s1.naks_rcvd > s0.naks_rcvd && s1.tx_retx > s0.tx_retx, "no NAK made the host resend (%" PRIu64 " NAKs)",
	      s1.naks_rcvd - s0.naks_rcvd);
	printf("corrupt down: %u frames, %u noticed, %" PRIu64 " NAKs, %" PRIu64 " resent\n", size, noticed,
	       s1.naks_rcvd - s0.naks_rcvd, s1.tx_retx - s0.tx_retx);
}

// Engine -> host: byte i of an event frame (two DONE records) damaged on its first
// transmission, for every i; a REACHED frame follows, the host NAKs, the engine
// goes back.
void test_corrupt_up(Bench &b)
{
	H &h = b.h;
	struct wg_link_stats s0, s1;
	wg_link_stats(b.host, &s0);
	unsigned size = WGL_HDR_BYTES + 2 * WGL_DONE_SIZE + WGL_CRC_BYTES;
	for (unsigned i = 0; i < size; i++) {
		bool done = false;
		uint8_t x = (uint8_t)(1 + h.rand(255));
		b.up_fault = [&, i, x](std::vector<uint8_t> &f) {
			if (!done && f[WGL_H_TYPE] == WGL_T_DONE) {
				CHECK(h, f.size() == size, "DONE frame of %zu bytes", f.size());
				if (i < f.size())
					f[i] ^= x;
				done = true;
			}
			return true;
		};
		uint64_t errs = 0;
		for (unsigned c = 1; c < WGL_E_COUNT; c++)
			errs += b.host_errs[c];
		uint64_t t0 = h.cycle();
		b.ev_src.push_back(b.rand_ev(1));
		b.ev_src.push_back(b.rand_ev(1));
		b.ev_src.push_back(b.rand_ev(4));
		b.run_until([&] { return b.ev_src.empty() && b.exp_evs.empty(); }, 6 * kRto);
		// The host's NAK, not the engine's timeout, brings the frame again.
		CHECK(h, h.cycle() - t0 < kRto, "byte %u: recovered after %" PRIu64 " cycles", i, h.cycle() - t0);
		b.settle(6 * kRto, "corrupt up");
		uint64_t errs2 = 0;
		for (unsigned c = 1; c < WGL_E_COUNT; c++)
			errs2 += b.host_errs[c];
		CHECK(h, done && errs2 > errs, "byte %u (xor 0x%02x) of an event frame: the host noticed nothing", i, x);
	}
	b.up_fault = nullptr;
	wg_link_stats(b.host, &s1);
	CHECK(h, s1.naks_sent > s0.naks_sent, "the host sent no NAK");
	printf("corrupt up: %u frames, %" PRIu64 " NAKs from the host\n", size, s1.naks_sent - s0.naks_sent);
}

// Whole frames lost: in the middle of a burst (gap -> NAK) and at its end (timeout),
// in both directions, and acknowledgements lost in both directions.
void test_drops(Bench &b)
{
	H &h = b.h;
	uint32_t seq;
	int n;

	// Host -> engine, the middle of three frames.
	seq = b.host_next_seq() + 1;
	n = 0;
	b.down_fault = [&](std::vector<uint8_t> &f) {
		return !(f[WGL_H_TYPE] >= WGL_T_CMD && wgl_get32(&f[WGL_H_SEQ]) == seq && n++ == 0);
	};
	for (int k = 0; k < 3; k++) {
		b.put_cmd(b.rand_cmd(5));
		b.flush();
	}
	b.settle(6 * kRto, "drop down middle");
	CHECK(h, n >= 2, "middle frame: dropped and resent (%d)", n);

	// Host -> engine, the last frame: only the host's timeout finds it.
	seq = b.host_next_seq();
	n = 0;
	uint64_t t0 = h.cycle();
	b.put_cmd(b.rand_cmd(8));
	b.flush();
	b.settle(6 * kRto, "drop down tail");
	CHECK(h, n >= 2 && h.cycle() - t0 >= kRto, "tail frame: resent after rto (%d, %" PRIu64 " cycles)", n,
	      h.cycle() - t0);

	// Host -> engine, an ACK of events lost: the engine's timer resends, the host acknowledges again.
	n = 0;
	b.down_fault = [&](std::vector<uint8_t> &f) { return !(f[WGL_H_TYPE] == WGL_T_ACK && n++ == 0); };
	t0 = h.cycle();
	uint64_t host_dups = b.host_errs[WGL_E_DUP];
	b.ev_src.push_back(b.rand_ev(6));
	b.settle(6 * kRto, "drop host ACK");
	b.run_until([&] { return h.cycle() - t0 > 2 * kRto; }, 3 * kRto);
	CHECK(h, n >= 2 && b.host_errs[WGL_E_DUP] > host_dups, "host ACK lost: resent and acknowledged again (%d ACKs, %"
	      PRIu64 " DUP)", n, b.host_errs[WGL_E_DUP] - host_dups);
	b.down_fault = nullptr;

	// Engine -> host, the middle of three event frames (each closed by a type change).
	n = 0;
	uint64_t gaps = b.host_errs[WGL_E_GAP];
	int frames = 0;
	b.up_fault = [&](std::vector<uint8_t> &f) {
		if (f[WGL_H_TYPE] < WGL_T_EV)
			return true;
		return !(frames++ == 1 && n++ == 0);
	};
	b.ev_src.push_back(b.rand_ev(1));
	b.ev_src.push_back(b.rand_ev(2));
	b.ev_src.push_back(b.rand_ev(4));
	b.settle(6 * kRto, "drop up middle");
	CHECK(h, n == 1 && b.host_errs[WGL_E_GAP] > gaps, "event frame lost: gap seen (%d, %" PRIu64 ")", n,
	      b.host_errs[WGL_E_GAP] - gaps);

	// Engine -> host, the last frame, nothing after it: the engine's retransmission timer.
	n = 0;
	b.up_fault = [&](std::vector<uint8_t> &f) { return !(f[WGL_H_TYPE] >= WGL_T_EV && n++ == 0); };
	t0 = h.cycle();
	b.ev_src.push_back(b.rand_ev(5));
	b.settle(6 * kRto, "drop up tail");
	CHECK(h, n >= 2 && h.cycle() - t0 >= kRto, "event tail frame: resent after RTO (%d, %" PRIu64 " cycles)", n,
	      h.cycle() - t0);

	// Engine -> host, its ACK lost: the host resends, the engine reports DUP and acknowledges again.
	n = 0;
	uint64_t dups = b.rtl_reps_code[WGL_E_DUP];
	b.up_fault = [&](std::vector<uint8_t> &f) { return !(f[WGL_H_TYPE] == WGL_T_ACK && n++ == 0); };
	b.put_cmd(b.rand_cmd(0));
	b.flush();
	b.settle(6 * kRto, "drop engine ACK");
	CHECK(h, n >= 2 && b.rtl_reps_code[WGL_E_DUP] > dups, "engine ACK lost: DUP and a second ACK (%d)", n);
	b.up_fault = nullptr;
}

// Figures, no assertion: full-rate streams of the largest records in both directions at
// once, every port always ready. Bytes per cycle on each byte stream (1.0 = the wire is full).
void test_throughput(Bench &b)
{
	H &h = b.h;
	struct wg_link_stats s0, s1;
	b.settle(10000, "before throughput");
	wg_link_stats(b.host, &s0);
	uint64_t c0 = h.cycle(), cmds0 = b.cmds_got, evs0 = b.evs_got;
	const unsigned n = 300;
	for (unsigned i = 0; i < n; i++) {
		wg_link_cmd c = b.rand_cmd(6);
		if (!c.data[0])
			c.data[0] = 1; // the full form: 140 bytes
		b.put_cmd(c);
		wg_link_ev e = b.rand_ev(0);
		e.wmask[0] = 1; // the full form: 180 bytes
		b.ev_src.push_back(e);
	}
	b.flush();
	uint64_t cmd_done = 0, ev_done = 0;
	while ((!cmd_done || !ev_done) && h.cycle() - c0 < 2000000) {
		b.cycle();
		if (!cmd_done && b.cmds_got - cmds0 == n)
			cmd_done = h.cycle() - c0;
		if (!ev_done && b.evs_got - evs0 == n)
			ev_done = h.cycle() - c0;
	}
	wg_link_stats(b.host, &s1);
	double cyc_c = cmd_done ? (double)cmd_done / n : 0, cyc_e = ev_done ? (double)ev_done / n : 0;
	printf("throughput: %u MRSP (140 B) in %" PRIu64 " cycles: %.1f cycles/record, %.3f bytes/cycle in; "
	       "%u MREQ (180 B) in %" PRIu64 " cycles: %.1f cycles/record, %.3f bytes/cycle out\n",
	       n, cmd_done, cyc_c, (double)(s1.tx_bytes - s0.tx_bytes) / (cmd_done ? cmd_done : 1), n, ev_done, cyc_e,
	       (double)(s1.rx_bytes - s0.rx_bytes) / (ev_done ? ev_done : 1));
	b.settle(6 * kRto, "throughput");
}

// The host restarts (a new link, HELLO) while both directions are busy: the engine drops
// its window and open frame mid-stream, and the new link carries on. Commands and events of
// the old link in flight are lost (the new host starts from scratch); those after arrive
// exactly once and in order.
void test_restart(Bench &b)
{
	H &h = b.h;
	b.p_tx = 50;
	b.p_cmd = 2; // commands pile up in the ring: some are committed when the host restarts
	for (unsigned i = 0; i < 200; i++)
		b.ev_src.push_back(b.rand_ev(h.chance(50) ? 0 : -1));
	for (unsigned i = 0; i < 100; i++)
		b.put_cmd(b.rand_cmd());
	b.flush();
	uint64_t cmds0 = b.cmds_got, evs0 = b.evs_got;
	b.run_until([&] { return b.cmds_got - cmds0 >= 20 && b.evs_got > evs0; }, 200000);
	CHECK(h, b.exp_cmds.size() > 40 && !b.ev_src.empty(), "restart: traffic finished too early (%zu, %zu)",
	      b.exp_cmds.size(), b.ev_src.size());
	// The old host goes away: its bytes on the wire and what it expected are gone.
	b.down.clear();
	b.old_cmds.swap(b.exp_cmds);
	b.exp_cmds.clear();
	b.resync = true;
	b.new_host();
	bool up = b.run_until([&] { return wg_link_up(b.host) && b.t->up_o; }, 3 * kRto);
	CHECK(h, up, "restart: link not up again");
	for (unsigned i = 0; i < 100; i++)
		b.put_cmd(b.rand_cmd());
	b.flush();
	uint64_t got = b.evs_got;
	b.p_cmd = 100;
	b.settle(20 * kRto, "restart");
	b.p_tx = 100;
	CHECK(h, b.evs_got > got, "restart: no event after the restart");
	printf("restart: %" PRIu64 " events of the old link dropped, %" PRIu64 " of its commands still delivered\n",
	       b.evs_lost, b.old_cmds_got);
}

// Fatal errors fail the engine's link; a new host's HELLO restarts it.
void test_fatal(Bench &b)
{
	H &h = b.h;
	struct Case {
		const char *what;
		unsigned code;
	} cases[] = { { "MRSP tag above MEM_TAG_W", WGL_E_FIELD }, { "event frame to the GPU", WGL_E_TYPE },
		      { "HELLO of version 2", WGL_E_VERSION } };

	for (const Case &c : cases) {
		uint64_t before = b.rtl_reps_code[c.code], lerrs = b.lerrs;
		uint32_t seq = b.host_next_seq();
		std::vector<uint8_t> pl;
		if (c.code == WGL_E_FIELD) {
			wg_link_cmd m = b.rand_cmd(6);
			m.tag = kTagMax + 1;
			pl.resize(WGL_MRSP_SIZE);
			int rc = wg_link_cmd_pack(&m, WGL_T_MRSP, pl.data());
			CHECK(h, rc == 0, "pack");
			b.inject_frame(WGL_T_MRSP, seq, pl, 1);
		} else if (c.code == WGL_E_TYPE) {
			wg_link_ev e = b.rand_ev(1);
			pl.resize(WGL_DONE_SIZE);
			wg_link_ev_pack(&e, WGL_T_DONE, pl.data());
			b.inject_frame(WGL_T_DONE, seq, pl, 1);
		} else {
			wg_link_info in = {};
			in.version = 2;
			in.max_payload = WGL_PAYLOAD_MAX;
			pl.resize(WGL_HELLO_SIZE);
			wg_link_hello_pack(&in, 0, pl.data());
			b.inject_frame(WGL_T_HELLO, 0, pl, 1);
		}
		b.run_until([&] { return b.t->failed_o; }, 5000);
		b.cycle(); // the report port is registered
		CHECK(h, b.t->failed_o && b.rtl_reps_code[c.code] == before + 1, "%s: link failed %d, %" PRIu64 " reports",
		      c.what, b.t->failed_o, b.rtl_reps_code[c.code] - before);
		// Failed: a command frame is neither delivered nor acknowledged.
		wg_link_cmd x = b.rand_cmd(0);
		b.put_cmd(x);
		b.flush();
		uint64_t got = b.cmds_got;
		b.run_until([&] { return false; }, 3000);
		CHECK(h, b.cmds_got == got && b.exp_cmds.size() == 1, "%s: a command passed a failed link", c.what);
		b.exp_cmds.clear();
		if (c.code != WGL_E_VERSION) // a LERR tells the host why (code <= 10)
			CHECK(h, b.lerrs > lerrs, "%s: no LERR", c.what);
		// A new host: HELLO restarts the link.
		b.down.clear();
		b.new_host();
		bool up = b.run_until([&] { return wg_link_up(b.host) && b.t->up_o; }, 3 * kRto);
		CHECK(h, up, "%s: link not up again after HELLO", c.what);
		for (int k = 0; k < 20; k++)
			b.put_cmd(b.rand_cmd());
		b.flush();
		b.ev_src.push_back(b.rand_ev());
		b.settle(6 * kRto, c.what);
	}
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_link_rtl", 40000000);
	wg_log_set_level(WG_LOG_ERROR);
	Bench b(h);
	h.top->rx_valid_i = 0;
	h.top->tx_ready_i = 0;
	h.top->cmd_ready_i = 0;
	h.top->ev_valid_i = 0;
	h.reset();

	test_hello(b);
	test_commands(b, (unsigned)h.scaled(600));
	test_events(b, (unsigned)h.scaled(400));
	test_backpressure(b);
	test_corrupt_down(b);
	test_corrupt_up(b);
	test_drops(b);
	test_throughput(b);
	test_restart(b);
	test_fatal(b);

	struct wg_link_stats s;
	wg_link_stats(b.host, &s);
	printf("%" PRIu64 " commands, %" PRIu64 " events, %" PRIu64 " engine reports (%" PRIu64 " SYNC %" PRIu64
	       " HCHK %" PRIu64 " LENGTH %" PRIu64 " CRC %" PRIu64 " GAP %" PRIu64 " DUP), %" PRIu64 " LERR frames\n",
	       b.cmds_got, b.evs_got, b.rtl_reps, b.rtl_reps_code[WGL_E_SYNC], b.rtl_reps_code[WGL_E_HCHK],
	       b.rtl_reps_code[WGL_E_LENGTH], b.rtl_reps_code[WGL_E_CRC], b.rtl_reps_code[WGL_E_GAP],
	       b.rtl_reps_code[WGL_E_DUP], b.lerrs);
	return h.finish();
}
