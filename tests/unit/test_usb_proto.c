/*
 * cmocka checks of host/include/wg_usb_proto.h, the USB face of the FX2 bridge
 * (docs/fx2.md): the values both the host and the firmware build on. The firmware's
 * use of them is tested in s51 by tests/fw/test_fw.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "wg_link_proto.h"
#include "wg_usb_proto.h"

static int is_cypress_reserved(unsigned rq)
{
	return rq >= WGU_RQ_CYPRESS_FIRST && rq <= WGU_RQ_CYPRESS_LAST;
}

/* 0xA0 is the EZ-USB loader, 0xA1..0xAF are Cypress's: no vendor request among them,
 * and the five requests are distinct. */
static void vendor_requests_avoid_cypress_codes_and_each_other(void **state)
{
	const unsigned rq[] = { WGU_RQ_VERSION, WGU_RQ_FPGA_RESET, WGU_RQ_STATUS, WGU_RQ_FIFO_RESET,
				WGU_RQ_IN_COMMIT };
	size_t i, j;

	(void)state;
	assert_int_equal(WGU_RQ_FX2_LOAD, 0xA0);
	assert_true(is_cypress_reserved(WGU_RQ_FX2_LOAD));
	for (i = 0; i < sizeof(rq) / sizeof(rq[0]); i++) {
		assert_false(is_cypress_reserved(rq[i]));
		assert_true(rq[i] <= 0xFF);
		for (j = i + 1; j < sizeof(rq) / sizeof(rq[0]); j++)
			assert_int_not_equal(rq[i], rq[j]);
	}
	assert_int_equal(WGU_RT_VENDOR_IN, 0xC0);  /* device-to-host, vendor, device */
	assert_int_equal(WGU_RT_VENDOR_OUT, 0x40); /* host-to-device, vendor, device */
}

/* pid.codes' test pair after loading; Cypress's default pair before. */
static void identities_are_the_documented_pairs(void **state)
{
	(void)state;
	assert_int_equal(WGU_VID, 0x1209);
	assert_int_equal(WGU_PID, 0x0001);
	assert_int_equal(WGU_FX2_BARE_VID, 0x04B4);
	assert_int_equal(WGU_FX2_BARE_PID, 0x8613);
	assert_string_equal(WGU_STR_PRODUCT, "warpgate FX2 bridge");
	assert_int_equal(WGU_BCD_DEVICE, (WGU_FW_VERSION_MAJOR << 8) | WGU_FW_VERSION_MINOR);
	assert_int_equal(WGU_LANGID, 0x0409);
	/* Each string descriptor's length fits its 8-bit bLength. */
	assert_true(2 + 2 * strlen(WGU_STR_MANUFACTURER) <= 255);
	assert_true(2 + 2 * strlen(WGU_STR_PRODUCT) <= 255);
	assert_true(2 + 2 * strlen(WGU_STR_SERIAL) <= 255);
}

/* EP2 OUT (bit 7 clear) and EP6 IN (bit 7 set); bulk packets 512 / 64 bytes. */
static void endpoints_and_packet_sizes(void **state)
{
	(void)state;
	assert_int_equal(WGU_EP_OUT & 0x80, 0);
	assert_int_equal(WGU_EP_OUT & 0x0F, 2);
	assert_int_equal(WGU_EP_IN & 0x80, 0x80);
	assert_int_equal(WGU_EP_IN & 0x0F, 6);
	assert_int_equal(WGU_BULK_PACKET_HS, 512);
	assert_int_equal(WGU_BULK_PACKET_FS, 64);
	assert_int_equal(WGU_EP0_PACKET, 64);
	/* A 16 KB link frame is exactly 32 high-speed packets. */
	assert_int_equal(WGL_FRAME_MAX % WGU_BULK_PACKET_HS, 0);
	assert_int_equal(WGU_MAX_POWER_MA / 2, 50);
}

/* Replies fit EP0's 64 bytes; STATUS fields do not overlap and fill 20 bytes:
 * 4 single bytes (0..3), two u16 (4..7), 2 bytes (8, 9), u16 (10), two u32 (12..19). */
static void reply_layouts_fit_ep0_and_do_not_overlap(void **state)
{
	const struct {
		unsigned off, size;
	} f[] = {
		{ WGU_ST_EP2CS, 1 }, { WGU_ST_EP6CS, 1 }, { WGU_ST_EP2FLAGS, 1 }, { WGU_ST_EP6FLAGS, 1 },
		{ WGU_ST_EP2BC, 2 }, { WGU_ST_EP6BC, 2 }, { WGU_ST_FLAGS, 1 }, { WGU_ST_CONFIG, 1 },
		{ WGU_ST_RESET_MS, 2 }, { WGU_ST_OUT_PACKETS, 4 }, { WGU_ST_IN_PACKETS, 4 },
	};
	uint8_t used[WGU_STATUS_BYTES] = { 0 };
	size_t i;
	unsigned b;

	(void)state;
	assert_true(WGU_STATUS_BYTES <= WGU_EP0_PACKET);
	assert_true(WGU_VERSION_BYTES <= WGU_EP0_PACKET);
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		assert_int_equal(f[i].off % f[i].size, 0); /* aligned to its size */
		for (b = f[i].off; b < f[i].off + f[i].size; b++) {
			assert_true(b < WGU_STATUS_BYTES);
			assert_int_equal(used[b], 0);
			used[b] = 1;
		}
	}
	for (b = 0; b < WGU_STATUS_BYTES; b++)
		assert_int_equal(used[b], 1);
	/* VERSION: 8 distinct offsets 0..7. */
	assert_int_equal(WGU_VER_MAGIC0 + WGU_VER_MAGIC1 + WGU_VER_PROTO + WGU_VER_LINK + WGU_VER_FW_MAJOR +
				 WGU_VER_FW_MINOR + WGU_VER_BUS + WGU_VER_RSV,
			 0 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
	assert_int_equal(WGU_MAGIC0, 'W');
	assert_int_equal(WGU_MAGIC1, 'G');
	assert_int_equal(WGU_BUS_BITS, 8);
}

/* Status flags are distinct bits; FIFO and reset option bits as documented. */
static void flag_bits_are_distinct(void **state)
{
	const unsigned st[] = { WGU_STF_RESET_PIN, WGU_STF_RESETTING, WGU_STF_HIGH_SPEED, WGU_STF_CONFIGURED };
	unsigned all = 0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		assert_int_equal(st[i] & (st[i] - 1), 0); /* one bit */
		assert_int_equal(all & st[i], 0);
		all |= st[i];
	}
	assert_int_equal(WGU_FIFO_OUT & WGU_FIFO_IN, 0);
	assert_int_equal(WGU_RESET_FIFOS, 0x01);
	assert_int_equal(WGU_RESET_MS_MAX, 1000);
}

/* The LE accessors the host reads replies with. */
static void little_endian_accessors(void **state)
{
	const uint8_t b[6] = { 0x34, 0x12, 0x78, 0x56, 0x34, 0x12 };

	(void)state;
	assert_int_equal(wgu_get16(b, 0), 0x1234);
	assert_int_equal(wgu_get32(b, 2), 0x12345678);
	assert_int_equal(wgu_get16(b, 4), 0x1234);
}

/* The loader writes below 16 KB and holds the 8051 through CPUCS. */
static void loader_constants(void **state)
{
	(void)state;
	assert_int_equal(WGU_FX2_CPUCS, 0xE600);
	assert_int_equal(WGU_FX2_RAM_BYTES, 0x4000);
	assert_int_equal(WGU_FX2_RAM_BYTES % WGU_FX2_LOAD_CHUNK, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vendor_requests_avoid_cypress_codes_and_each_other),
		cmocka_unit_test(identities_are_the_documented_pairs),
		cmocka_unit_test(endpoints_and_packet_sizes),
		cmocka_unit_test(reply_layouts_fit_ep0_and_do_not_overlap),
		cmocka_unit_test(flag_bits_are_distinct),
		cmocka_unit_test(little_endian_accessors),
		cmocka_unit_test(loader_constants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
