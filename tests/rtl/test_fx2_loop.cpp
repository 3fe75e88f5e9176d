// test_fx2_loop: wg_fx2_loop (the FX2 slave-FIFO loop-back of the FPGA bring-up image)
// against a C model of the FX2's two slave FIFOs (docs/fx2.md sections 5 and 6).
//
// The model: EP2 (host -> FPGA) and EP6 (FPGA -> host) as byte queues. FD carries EP2's
// head while SLOE is low with FIFOADR 00; a rising edge with SLRD low (FIFOADR 00, EP2 not
// empty) takes it; a rising edge with SLWR low (FIFOADR 10, EP6 not full) writes FD; PKTEND
// low (FIFOADR 10) commits a short packet. The flags show the FIFO state of one edge
// earlier (a whole cycle late: slower than the chip, whose flags settle within the cycle),
// so a design that believes a flag too soon reads an empty or writes a full FIFO, which the
// model counts as an error. The host side fills EP2 and drains EP6 at random rates.
#include "Vwg_fx2_loop.h"
#include "harness.h"

#include <deque>
#include <vector>

using H = wg::Harness<Vwg_fx2_loop>;

struct Fx2 {
	std::deque<uint8_t> ep2, ep6;
	size_t ep6_cap = 2048;          // 4 buffers of 512 bytes
	bool ep2_empty_pin = true;      // flag pins, one edge late
	bool ep6_full_pin = false;
	std::vector<uint8_t> host_rx;   // bytes the host has taken from EP6
	unsigned committed = 0;         // bytes in EP6 not yet in a committed packet
	unsigned pktends = 0;
	unsigned bad = 0;               // strobes the chip would ignore or data lost

	void drive(Vwg_fx2_loop *t)
	{
		t->flaga_ni = !ep2_empty_pin;
		t->flagb_ni = !ep6_full_pin;
		t->fd_i = (!t->sloe_no && t->fifoadr_o == 0 && !ep2.empty()) ? ep2.front() : 0xEE;
	}

	// The rising edge: the strobes the design drives now take effect.
	void edge(H &h, Vwg_fx2_loop *t)
	{
		bool was_empty = ep2.empty();
		bool was_full = ep6.size() >= ep6_cap;
		CHECK(h, !(t->fd_oe_o && !t->sloe_no), "FD driven by the FPGA and the FX2");
		if (!t->slrd_no) {
			CHECK(h, t->fifoadr_o == 0, "SLRD with FIFOADR %u", t->fifoadr_o);
			if (ep2.empty())
				bad++;
			else
				ep2.pop_front();
		}
		if (!t->slwr_no) {
			CHECK(h, t->fifoadr_o == 2, "SLWR with FIFOADR %u", t->fifoadr_o);
			CHECK(h, t->fd_oe_o, "SLWR while the FPGA does not drive FD");
			if (ep6.size() >= ep6_cap)
				bad++;
			else
				ep6.push_back(t->fd_o);
		}
		if (!t->pktend_no) {
			CHECK(h, t->fifoadr_o == 2, "PKTEND with FIFOADR %u", t->fifoadr_o);
			pktends++;
		}
		ep2_empty_pin = was_empty;
		ep6_full_pin = was_full;
	}
};

// Runs until every byte sent has come back or the cycle budget is spent.
static void run(H &h, Fx2 &m, const std::vector<uint8_t> &data, unsigned in_pct, unsigned out_pct,
                uint64_t budget)
{
	auto *t = h.top;
	size_t sent = 0;
	size_t start_rx = m.host_rx.size();
	for (uint64_t c = 0; c < budget; c++) {
		if (sent < data.size() && m.ep2.size() < 2048 && h.chance(in_pct))
			m.ep2.push_back(data[sent++]);
		if (!m.ep6.empty() && h.chance(out_pct)) {
			m.host_rx.push_back(m.ep6.front());
			m.ep6.pop_front();
		}
		m.drive(t);
		h.eval();
		m.edge(h, t);
		h.tick();
		if (sent == data.size() && m.host_rx.size() - start_rx == data.size() && m.ep2.empty())
			break;
	}
	CHECK(h, m.host_rx.size() - start_rx == data.size(), "%zu of %zu bytes came back",
	      m.host_rx.size() - start_rx, data.size());
	for (size_t i = 0; i < data.size() && start_rx + i < m.host_rx.size(); i++) {
		if (!CHECK(h, m.host_rx[start_rx + i] == data[i], "byte %zu: 0x%02x, sent 0x%02x", i,
		           m.host_rx[start_rx + i], data[i]))
			break;
	}
}

static std::vector<uint8_t> bytes(H &h, size_t n)
{
	std::vector<uint8_t> v(n);
	for (auto &b : v)
		b = (uint8_t)h.rng();
	return v;
}

// Idles n cycles with the host draining EP6.
static void idle(H &h, Fx2 &m, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		while (!m.ep6.empty()) {
			m.host_rx.push_back(m.ep6.front());
			m.ep6.pop_front();
		}
		m.drive(h.top);
		h.eval();
		m.edge(h, h.top);
		h.tick();
	}
}

int main(int argc, char **argv)
{
	H h(argc, argv, "test_fx2_loop");
	Fx2 m;
	h.top->flaga_ni = 0;
	h.top->flagb_ni = 1;
	h.reset();

	// One byte: it comes back, then, the link quiet for IDLE_CYCLES (64), one PKTEND
	// commits the 1-byte short packet.
	run(h, m, {0x5A}, 100, 100, 1000);
	idle(h, m, 200);
	CHECK(h, m.pktends == 1, "one byte: %u PKTEND pulses, expected 1", m.pktends);

	// Exactly 512 bytes at full rate: AUTOIN commits the packet, so no PKTEND (512 mod 512 = 0
	// after the first byte's packet was committed: the count restarted at the PKTEND).
	run(h, m, bytes(h, 512), 100, 100, 20000);
	idle(h, m, 200);
	CHECK(h, m.pktends == 1, "512 bytes: %u PKTEND pulses in all, expected still 1", m.pktends);

	// 700 bytes: 512 committed by AUTOIN, the 188 left by one PKTEND.
	run(h, m, bytes(h, 700), 100, 100, 20000);
	idle(h, m, 200);
	CHECK(h, m.pktends == 2, "700 bytes: %u PKTEND pulses in all, expected 2", m.pktends);

	// Back-pressure both ways: a slow host on either side, then EP6 never drained for a while
	// (it fills: 2048 bytes) while 4000 bytes are sent.
	run(h, m, bytes(h, 3000), 7, 100, 400000);
	run(h, m, bytes(h, 3000), 100, 5, 400000);
	{
		std::vector<uint8_t> d = bytes(h, 4000);
		size_t start_rx = m.host_rx.size();
		size_t sent = 0;
		for (unsigned c = 0; c < 30000; c++) {          // host reads nothing
			if (sent < d.size() && m.ep2.size() < 2048)
				m.ep2.push_back(d[sent++]);
			m.drive(h.top);
			h.eval();
			m.edge(h, h.top);
			h.tick();
		}
		CHECK(h, m.ep6.size() == m.ep6_cap, "EP6 filled to %zu bytes, expected %zu", m.ep6.size(), m.ep6_cap);
		for (unsigned c = 0; c < 100000 && m.host_rx.size() - start_rx < d.size(); c++) {
			if (sent < d.size() && m.ep2.size() < 2048)
				m.ep2.push_back(d[sent++]);
			if (!m.ep6.empty()) {                   // the host reads again
				m.host_rx.push_back(m.ep6.front());
				m.ep6.pop_front();
			}
			m.drive(h.top);
			h.eval();
			m.edge(h, h.top);
			h.tick();
		}
		size_t got = m.host_rx.size() - start_rx;
		CHECK(h, got == d.size(), "EP6 full: %zu of %zu bytes came back", got, d.size());
		for (size_t i = 0; i < got && i < d.size(); i++) {
			if (!CHECK(h, m.host_rx[start_rx + i] == d[i], "EP6 full: byte %zu differs", i))
				break;
		}
	}

	// Random rates.
	for (unsigned r = 0; r < h.scaled(4); r++)
		run(h, m, bytes(h, 500 + h.rng() % 1500), 5 + h.rng() % 96, 5 + h.rng() % 96, 400000);

	CHECK(h, m.bad == 0, "%u strobes on an empty EP2 or a full EP6", m.bad);
	return h.finish();
}
