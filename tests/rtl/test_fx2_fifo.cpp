// test_fx2_fifo: the FPGA side of the FX2LP slave FIFO (rtl/wg_fx2_fifo.sv) against the C
// model of the FX2's FIFOs (sim/fx2_model.[ch], docs/fx2.md section 5.1): both byte streams
// exact and in order under back-pressure on every side (EP2 empty, EP6 full, the link engine
// not taking bytes, the USB host not taking packets), full packets committed by AUTOIN and
// short ones by PKTEND after the idle time, no zero-length packet at high speed, the bus
// protocol never violated, both ways at full rate.
#include "Vwg_fx2_fifo.h"
#include "harness.h"

#include <deque>
#include <vector>

#include "fx2_model.h"

namespace {

using H = wg::Harness<Vwg_fx2_fifo>;

constexpr unsigned kPktendIdle = 64; // wg_fx2_fifo's default PKTEND_IDLE

struct Bench {
	H &h;
	fx2_model m;
	// host -> FPGA: bytes still to be put into EP2 packets, bytes expected on rx
	std::deque<uint8_t> out_src, rx_expect;
	// FPGA -> host: bytes to offer on tx, bytes expected in IN packets
	std::deque<uint8_t> tx_src, in_expect;
	std::vector<int> in_lens;  // lengths of the IN packets taken
	std::vector<uint64_t> in_at; // cycle each IN packet was taken
	unsigned rx_ready_pct = 100, tx_valid_pct = 100;
	unsigned usb_out_pm = 1000, usb_in_pm = 1000; // per mille of cycles: the host's turn on EP2, EP6
	uint64_t rx_bytes = 0, tx_bytes = 0, cycles = 0, last_tx = 0;
	unsigned max_out_pkt = 512;

	explicit Bench(H &hh) : h(hh) { fx2_init(&m, 512); }

	fx2_pins pins() const
	{
		const auto *t = h.top;
		fx2_pins p;
		p.fd = t->fd_o;
		p.fd_oe = t->fd_oe_o;
		p.slrd_n = t->slrd_no;
		p.slwr_n = t->slwr_no;
		p.sloe_n = t->sloe_no;
		p.pktend_n = t->pktend_no;
		p.fifoadr = t->fifoadr_o;
		return p;
	}

	void cycle()
	{
		auto *t = h.top;
		// USB side: an OUT packet when a buffer is free, an IN packet when one is committed.
		if (!out_src.empty() && fx2_out_room(&m) && h.rng() % 1000 < usb_out_pm) {
			size_t n = 1 + h.rng() % max_out_pkt;
			if (n > out_src.size())
				n = out_src.size();
			std::vector<uint8_t> pk(out_src.begin(), out_src.begin() + (long)n);
			out_src.erase(out_src.begin(), out_src.begin() + (long)n);
			CHECK(h, fx2_out_packet(&m, pk.data(), n) == 1, "OUT packet refused");
		}
		if (fx2_in_ready(&m) && h.rng() % 1000 < usb_in_pm) {
			uint8_t buf[FX2_BUF_BYTES];
			int n = fx2_in_packet(&m, buf);
			in_lens.push_back(n);
			in_at.push_back(cycles);
			for (int i = 0; i < n; i++) {
				bool ok = !in_expect.empty() && in_expect.front() == buf[i];
				CHECK(h, ok, "IN byte %d of a %d-byte packet: 0x%02x, expected 0x%02x", i, n, buf[i],
				      in_expect.empty() ? 0 : in_expect.front());
				if (!in_expect.empty())
					in_expect.pop_front();
			}
		}
		// FX2 outputs after the last edge, FPGA-side stream inputs.
		fx2_pins p = pins();
		t->fd_i = fx2_fd(&m, &p);
		t->flaga_ni = fx2_flaga_n(&m);
		t->flagb_ni = fx2_flagb_n(&m);
		t->rx_ready_i = h.chance(rx_ready_pct);
		bool offer = !tx_src.empty() && h.chance(tx_valid_pct);
		t->tx_valid_i = offer;
		t->tx_data_i = offer ? tx_src.front() : 0;
		h.eval();
		if (t->rx_valid_o && t->rx_ready_i) {
			bool ok = !rx_expect.empty() && rx_expect.front() == t->rx_data_o;
			CHECK(h, ok, "rx byte %llu: 0x%02x, expected 0x%02x", (unsigned long long)rx_bytes, t->rx_data_o,
			      rx_expect.empty() ? 0 : rx_expect.front());
			if (!rx_expect.empty())
				rx_expect.pop_front();
			rx_bytes++;
		}
		if (offer && t->tx_ready_o) {
			in_expect.push_back(tx_src.front());
			tx_src.pop_front();
			tx_bytes++;
			last_tx = cycles;
		}
		// Both sides sample at the same rising edge: the FX2 with the FPGA's pins of this cycle.
		fx2_edge(&m, &p);
		h.tick();
		cycles++;
	}

	void send_out(size_t n)
	{
		for (size_t i = 0; i < n; i++) {
			uint8_t b = (uint8_t)h.rng();
			out_src.push_back(b);
			rx_expect.push_back(b);
		}
	}

	void send_tx(size_t n)
	{
		for (size_t i = 0; i < n; i++)
			tx_src.push_back((uint8_t)h.rng());
	}

	bool drained() const
	{
		return out_src.empty() && rx_expect.empty() && tx_src.empty() && in_expect.empty();
	}

	bool run_until_drained(uint64_t max)
	{
		for (uint64_t i = 0; i < max; i++) {
			if (drained())
				return true;
			cycle();
		}
		return drained();
	}

	void check_clean(const char *what)
	{
		CHECK(h, m.n.violations == 0, "%s: %llu bus violations, last: %s", what,
		      (unsigned long long)m.n.violations, m.last_violation);
	}
};

// Host -> FPGA alone, everything ready: about one byte per IFCLK.
void test_out_full_rate(H &h)
{
	Bench b(h);
	b.send_out(20000);
	uint64_t c0 = b.cycles;
	CHECK(h, b.run_until_drained(100000), "20000 bytes host -> FPGA not delivered (%zu left)", b.rx_expect.size());
	double rate = 20000.0 / (double)(b.cycles - c0);
	printf("test_fx2_fifo: host -> FPGA %.3f bytes per IFCLK\n", rate);
	CHECK(h, rate > 0.95, "host -> FPGA rate %.3f bytes per cycle (expected > 0.95)", rate);
	CHECK(h, b.m.n.rd_bytes == 20000, "FX2 counted %llu bytes read", (unsigned long long)b.m.n.rd_bytes);
	// Then OUT packets now and then: EP2 runs empty under reads at full rate. The strobe the
	// lagging FLAGA lets through on an empty FIFO is ignored by the FX2 and discarded by the
	// bridge (FLAGA low at that edge).
	b.usb_out_pm = 20;
	b.send_out(20000);
	CHECK(h, b.run_until_drained(1000000), "sparse OUT packets not delivered (%zu left)", b.rx_expect.size());
	CHECK(h, b.m.n.rd_empty > 0, "no read strobe on an empty EP2 (the test lost its point)");
	b.check_clean("out_full_rate");
}

// FPGA -> host alone, everything ready: full packets by AUTOIN, one short packet at the end.
void test_in_full_rate(H &h)
{
	Bench b(h);
	b.send_tx(20000);
	uint64_t c0 = b.cycles;
	while (!b.tx_src.empty() && b.cycles - c0 < 100000)
		b.cycle();
	double rate = 20000.0 / (double)(b.cycles - c0);
	printf("test_fx2_fifo: FPGA -> host %.3f bytes per IFCLK\n", rate);
	CHECK(h, rate > 0.95, "FPGA -> host rate %.3f bytes per cycle (expected > 0.95)", rate);
	CHECK(h, b.run_until_drained(2000), "the tail did not come as a short packet (%zu bytes left)",
	      b.in_expect.size());
	// 20000 = 39 x 512 + 32: 39 full packets, then the last 32 bytes after the idle time.
	CHECK(h, b.in_lens.size() == 40, "%zu IN packets, expected 40", b.in_lens.size());
	for (size_t i = 0; i + 1 < b.in_lens.size(); i++)
		CHECK(h, b.in_lens[i] == 512, "packet %zu: %d bytes, expected 512", i, b.in_lens[i]);
	if (!b.in_lens.empty())
		CHECK(h, b.in_lens.back() == 32, "last packet %d bytes, expected 32", b.in_lens.back());
	CHECK(h, b.m.n.pktends == 1 && b.m.n.zlps == 0, "%llu PKTENDs, %llu ZLPs (expected 1, 0)",
	      (unsigned long long)b.m.n.pktends, (unsigned long long)b.m.n.zlps);
	b.check_clean("in_full_rate");
}

// A short write: 5 bytes go out as a 5-byte packet once the output has been idle PKTEND_IDLE
// cycles, not before; exactly 512 bytes go out by AUTOIN with no PKTEND (no zero-length packet).
void test_short_packet_after_idle(H &h)
{
	Bench b(h);
	b.send_tx(5);
	CHECK(h, b.run_until_drained(1000), "5 bytes never committed");
	CHECK(h, b.in_lens.size() == 1 && b.in_lens[0] == 5, "expected one 5-byte packet");
	if (!b.in_at.empty()) {
		uint64_t wait = b.in_at[0] - b.last_tx;
		// The last byte is taken into the tx FIFO at last_tx; written within a few cycles, then
		// PKTEND_IDLE idle cycles, the PKTEND cycle, the host's next look.
		CHECK(h, wait >= kPktendIdle && wait <= kPktendIdle + 12, "short packet %llu cycles after the last byte",
		      (unsigned long long)wait);
	}
	b.send_tx(512);
	CHECK(h, b.run_until_drained(3000), "512 bytes never committed");
	for (unsigned i = 0; i < 3000; i++)
		b.cycle();
	CHECK(h, b.in_lens.size() == 2 && b.in_lens[1] == 512, "512 bytes: %zu packets, last %d bytes", b.in_lens.size(),
	      b.in_lens.empty() ? -1 : b.in_lens.back());
	CHECK(h, b.m.n.pktends == 1 && b.m.n.zlps == 0, "%llu PKTENDs, %llu ZLPs (expected 1, 0)",
	      (unsigned long long)b.m.n.pktends, (unsigned long long)b.m.n.zlps);
	CHECK(h, h.top->idle_o, "bridge not idle after everything was sent");
	b.check_clean("short_packet_after_idle");
}

// Back-pressure on every side at once, both directions: the link engine takes a byte in 30 %
// of cycles, offers one in 40 %, the USB host sends an OUT packet in 3 % of cycles (EP2 runs
// empty) and takes an IN packet in 1 per mille (0.51 bytes per cycle: EP6 runs full, the engine offering 0.4 in bursts). Every byte arrives once, in order.
void test_both_ways_backpressure(H &h)
{
	Bench b(h);
	b.rx_ready_pct = 30;
	b.tx_valid_pct = 40;
	b.usb_out_pm = 30;
	b.usb_in_pm = 1;
	b.send_out(h.scaled(30000));
	b.send_tx(h.scaled(30000));
	// First the host takes nothing for a while: EP6 fills (4 x 512 bytes), writes are refused.
	b.usb_in_pm = 0;
	for (int i = 0; i < 8000; i++)
		b.cycle();
	CHECK(h, !fx2_flagb_n(&b.m), "EP6 not full with the host taking nothing (%zu bytes in it, %llu taken, %zu to send)", fx2_in_bytes(&b.m), (unsigned long long)b.m.n.in_packets, b.tx_src.size());
	b.usb_in_pm = 1;
	CHECK(h, b.run_until_drained(h.scaled(3000000)), "not drained: %zu rx and %zu IN bytes missing",
	      b.rx_expect.size(), b.in_expect.size());
	b.check_clean("both_ways_backpressure");
	// Bursty phases: long stretches of each.
	b.rx_ready_pct = 100;
	b.tx_valid_pct = 100;
	b.usb_out_pm = 1000;
	b.usb_in_pm = 1000;
	for (int r = 0; r < 20; r++) {
		b.send_out(h.rng() % 3000);
		b.send_tx(h.rng() % 3000);
		unsigned pause = (unsigned)(h.rng() % 200);
		CHECK(h, b.run_until_drained(200000), "round %d not drained", r);
		for (unsigned i = 0; i < pause; i++)
			b.cycle();
	}
	for (unsigned i = 0; i < 200; i++)
		b.cycle();
	CHECK(h, b.drained(), "bytes left after the bursts");
	CHECK(h, h.top->idle_o, "bridge not idle at the end");
	b.check_clean("both_ways_bursts");
}

// Both ways at once with everything ready: the turnaround costs little.
void test_both_ways_full_rate(H &h)
{
	Bench b(h);
	b.send_out(20000);
	b.send_tx(20000);
	uint64_t c0 = b.cycles;
	CHECK(h, b.run_until_drained(200000), "not drained");
	double rate = 40000.0 / (double)(b.cycles - c0);
	printf("test_fx2_fifo: both ways %.3f bytes per IFCLK in all\n", rate);
	CHECK(h, rate > 0.9, "both ways %.3f bytes per cycle in all (expected > 0.9)", rate);
	b.check_clean("both_ways_full_rate");
}

// The link engine stops taking bytes: the bridge stops reading (EP2 fills, the host's OUT
// packets wait), nothing overflows; when it takes again every byte comes.
void test_rx_stall(H &h)
{
	Bench b(h);
	b.rx_ready_pct = 0;
	b.send_out(4000);
	for (int i = 0; i < 5000; i++)
		b.cycle();
	CHECK(h, b.rx_bytes == 0, "bytes delivered while not ready");
	CHECK(h, fx2_out_bytes(&b.m) > 0 && !fx2_out_room(&b.m), "EP2 not full while the engine stalls");
	b.rx_ready_pct = 100;
	CHECK(h, b.run_until_drained(20000), "not drained after the stall");
	b.check_clean("rx_stall");
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_fx2_fifo", 20000000);
	h.reset();
	test_out_full_rate(h);
	h.reset();
	test_in_full_rate(h);
	h.reset();
	test_short_packet_after_idle(h);
	h.reset();
	test_both_ways_full_rate(h);
	h.reset();
	test_rx_stall(h);
	h.reset();
	test_both_ways_backpressure(h);
	return h.finish();
}
