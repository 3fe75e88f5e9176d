// test_link_crc: wg_crc32 against the C CRC-32 (host/src/crc32.c) on the check
// string and on random data, at the build's DATA_W (CRC_DATA_W: 8 or 32 bits).
#include "Vwg_crc32.h"
#include "harness.h"

#include <vector>

extern "C" {
#include "crc32.h"
}

#ifndef CRC_DATA_W
#define CRC_DATA_W 8
#endif

namespace {

using H = wg::Harness<Vwg_crc32>;
constexpr unsigned kBeat = CRC_DATA_W / 8; // bytes per beat

uint32_t beat_of(const uint8_t *p)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < kBeat; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

// Feed data (a multiple of kBeat bytes) beat by beat with random idle cycles;
// the first beat starts the CRC (init and enable together) unless init_alone.
// Checks the running CRC after every beat.
void run(H &h, const std::vector<uint8_t> &d, bool init_alone)
{
	auto *t = h.top;
	if (init_alone) {
		t->init_i = 1;
		t->en_i = 0;
		h.tick();
		t->init_i = 0;
		h.eval();
		CHECK(h, t->crc_o == 0, "crc of nothing 0x%08x", t->crc_o);
	}
	for (size_t i = 0; i < d.size(); i += kBeat) {
		while (h.chance(20)) { // idle: the CRC holds
			uint32_t before = t->crc_o;
			t->en_i = 0;
			t->init_i = 0;
			t->data_i = (uint32_t)h.rng();
			h.tick();
			CHECK(h, t->crc_o == before, "crc changed while idle");
		}
		t->init_i = (i == 0 && !init_alone);
		t->en_i = 1;
		t->data_i = beat_of(&d[i]);
		h.tick();
		uint32_t want = wg_crc32(0, d.data(), i + kBeat);
		CHECK(h, t->crc_o == want, "after %zu bytes: rtl 0x%08x, C 0x%08x", i + kBeat, t->crc_o, want);
	}
	t->en_i = 0;
	t->init_i = 0;
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_link_crc", 5000000);
	auto *t = h.top;
	t->init_i = 0;
	t->en_i = 0;
	t->data_i = 0;
	h.reset();

	// The check value of docs/protocol.md: CRC-32 of "123456789" is 0xCBF43926
	// (8-bit beats; a 32-bit build checks the first eight bytes against C).
	std::vector<uint8_t> check = { '1', '2', '3', '4', '5', '6', '7', '8', '9' };
	if (kBeat == 1) {
		run(h, check, false);
		CHECK(h, t->crc_o == 0xCBF43926u, "check value 0x%08x", t->crc_o);
	} else {
		check.resize(8);
		run(h, check, false);
	}

	// Random lengths and data, both ways of starting; back to back runs.
	for (unsigned n = 0; n < h.scaled(400); n++) {
		std::vector<uint8_t> d(kBeat * (1 + h.rand(300 / kBeat)));
		for (auto &b : d)
			b = (uint8_t)h.rng();
		run(h, d, h.chance(30));
	}
	return h.finish();
}
