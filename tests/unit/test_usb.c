/*
 * cmocka checks of the USB transport (host/src/usb.[ch], docs/usb.md) that need no
 * device: the one translation of libusb's errors, the Intel HEX reader of the
 * firmware loader (records, checksums, the FX2's RAM bounds, errors with file:line),
 * the open with nothing on the bus, and the usb target's options. The transport on a
 * device is tested by make usb-test (the emulated FX2, tests/usb/fx2_emu.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <libusb.h>

#include "usb.h"
#include "warpgate.h"
#include "wg_usb_proto.h"

static uint8_t ram[WGU_FX2_RAM_BYTES], used[WGU_FX2_RAM_BYTES];

/* A temporary file with these contents; the path in buf. */
static void write_tmp(char *buf, size_t n, const char *text)
{
	int fd;
	FILE *f;

	snprintf(buf, n, "/tmp/wg-test-usb-XXXXXX");
	fd = mkstemp(buf);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void libusb_errors_map_to_wg_codes_with_the_name_and_a_hint(void **state)
{
	char msg[256];

	(void)state;
	assert_int_equal(wg_usb_error(LIBUSB_SUCCESS, "x", msg, sizeof(msg)), 0);
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_TIMEOUT, "bulk OUT (EP2)", msg, sizeof(msg)), WG_ETIMEOUT);
	assert_non_null(strstr(msg, "bulk OUT (EP2): "));
	assert_non_null(strstr(msg, "LIBUSB_ERROR_TIMEOUT"));
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_NO_DEVICE, "bulk IN (EP6)", msg, sizeof(msg)), WG_EIO);
	assert_non_null(strstr(msg, "disappeared"));
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_ACCESS, "open", msg, sizeof(msg)), WG_EIO);
	assert_non_null(strstr(msg, "udev rule"));
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_BUSY, "claim", msg, sizeof(msg)), WG_EIO);
	assert_non_null(strstr(msg, "claimed by another program"));
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_NO_MEM, "x", msg, sizeof(msg)), WG_ENOMEM);
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_INVALID_PARAM, "x", msg, sizeof(msg)), WG_EINVAL);
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_NOT_SUPPORTED, "x", msg, sizeof(msg)), WG_ENOTSUP);
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_NOT_FOUND, "x", msg, sizeof(msg)), WG_ENOENT);
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_PIPE, "x", msg, sizeof(msg)), WG_EIO);
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_OTHER, "x", msg, sizeof(msg)), WG_EIO);
	/* No buffer: only the code. */
	assert_int_equal(wg_usb_error(LIBUSB_ERROR_TIMEOUT, "x", NULL, 0), WG_ETIMEOUT);
}

/*
 * Two data records (0x0000: 02 00 06, 0x3E00: 12 01) and the end: checksums hand-worked,
 * e.g. :03000000020006F5 -> 03+00+00+00+02+00+06 = 0x0B, 0x100 - 0x0B = 0xF5;
 * :023E00001201AD -> 02+3E+00+00+12+01 = 0x53, 0x100 - 0x53 = 0xAD (AE: one off).
 */
static void ihx_data_records_land_at_their_addresses(void **state)
{
	char path[64], msg[256] = "";

	(void)state;
	write_tmp(path, sizeof(path), ":03000000020006F5\n:023E00001201AD\n:00000001FF\n");
	assert_int_equal(wg_usb_read_ihx(path, ram, used, msg, sizeof(msg)), 0);
	assert_int_equal(ram[0], 0x02);
	assert_int_equal(ram[1], 0x00);
	assert_int_equal(ram[2], 0x06);
	assert_int_equal(ram[0x3E00], 0x12);
	assert_int_equal(ram[0x3E01], 0x01);
	assert_true(used[0] && used[2] && used[0x3E01]);
	assert_false(used[3] || used[0x3DFF] || used[0x3E02]);
	unlink(path);
}

static void ihx_bad_checksum_names_file_and_line(void **state)
{
	char path[64], msg[256] = "", want[96];

	(void)state;
	write_tmp(path, sizeof(path), ":03000000020006F5\n:023E00001201AE\n:00000001FF\n");
	assert_int_equal(wg_usb_read_ihx(path, ram, used, msg, sizeof(msg)), WG_EFORMAT);
	snprintf(want, sizeof(want), "%s:2: checksum mismatch", path);
	assert_string_equal(msg, want);
	unlink(path);
}

/* 0x3FFF + 2 bytes = 0x4001: past the 16 KB the loader may write. */
static void ihx_data_outside_the_fx2_ram_is_refused(void **state)
{
	char path[64], msg[256] = "";

	(void)state;
	/* 02+3F+FF+00+AA+BB = 0x2A5 -> checksum 0x100 - 0xA5 = 0x5B */
	write_tmp(path, sizeof(path), ":023FFF00AABB5B\n:00000001FF\n");
	assert_int_equal(wg_usb_read_ihx(path, ram, used, msg, sizeof(msg)), WG_EFORMAT);
	assert_non_null(strstr(msg, ":1: data at 0x3FFF..0x4000 lies outside"));
	unlink(path);
}

static void ihx_without_end_record_or_with_junk_is_refused(void **state)
{
	char path[64], msg[256] = "";

	(void)state;
	write_tmp(path, sizeof(path), ":03000000020006F5\n");
	assert_int_equal(wg_usb_read_ihx(path, ram, used, msg, sizeof(msg)), WG_EFORMAT);
	assert_non_null(strstr(msg, ":1: no end-of-file record"));
	unlink(path);
	write_tmp(path, sizeof(path), ":03000000020006F5\nhello\n");
	assert_int_equal(wg_usb_read_ihx(path, ram, used, msg, sizeof(msg)), WG_EFORMAT);
	assert_non_null(strstr(msg, ":2: not an Intel HEX record"));
	unlink(path);
	/* An extended address record (type 04) is not for the FX2's 16 KB. 02+00+00+04+00+01 = 7 -> F9 */
	write_tmp(path, sizeof(path), ":020000040001F9\n:00000001FF\n");
	assert_int_equal(wg_usb_read_ihx(path, ram, used, msg, sizeof(msg)), WG_EFORMAT);
	assert_non_null(strstr(msg, ":1: record type 4"));
	unlink(path);
	assert_int_equal(wg_usb_read_ihx("/nonexistent/fw.ihx", ram, used, msg, sizeof(msg)), WG_ENOENT);
	assert_non_null(strstr(msg, "/nonexistent/fw.ihx: "));
}

/* The image make firmware builds parses, and its descriptor block starts with the device descriptor. */
static void firmware_image_parses_when_built(void **state)
{
	const char *p = "firmware/build/warpgate-fx2.ihx";
	char msg[256] = "";

	(void)state;
	if (access(p, R_OK)) {
		skip(); /* make firmware not run */
		return;
	}
	assert_int_equal(wg_usb_read_ihx(p, ram, used, msg, sizeof(msg)), 0);
	assert_int_equal(ram[0x3E00], 18); /* bLength */
	assert_int_equal(ram[0x3E01], 1);  /* DEVICE */
	assert_int_equal(ram[0x3E00 + 8] | ram[0x3E00 + 9] << 8, WGU_VID);
	assert_int_equal(ram[0x3E00 + 10] | ram[0x3E00 + 11] << 8, WGU_PID);
}

/* No bridge and no bare FX2 on the bus (this machine has none): a clear error, nothing left open. */
static void open_with_no_device_says_what_was_looked_for(void **state)
{
	struct wg_usb_params p;
	struct wg_usb *u = (struct wg_usb *)1;
	char msg[256] = "";
	int rc;

	(void)state;
	if (getenv("UMOCKDEV_DIR")) {
		skip(); /* under an emulated bus there is a device */
		return;
	}
	memset(&p, 0, sizeof(p));
	p.link.role = WGL_ROLE_HOST;
	rc = wg_usb_open(&u, &p, msg, sizeof(msg));
	assert_null(u);
	assert_int_equal(rc, WG_ELINK);
	assert_non_null(strstr(msg, "no warpgate bridge (USB 1209:0001"));
	assert_non_null(strstr(msg, "no bare FX2 (04b4:8613)"));
}

static void open_refuses_bad_parameters(void **state)
{
	struct wg_usb_params p;
	struct wg_usb *u = NULL;
	char msg[256] = "";

	(void)state;
	memset(&p, 0, sizeof(p));
	p.transfer_bytes = 1000; /* not a multiple of 512 */
	assert_int_equal(wg_usb_open(&u, &p, msg, sizeof(msg)), WG_EINVAL);
	assert_non_null(strstr(msg, "transfer_bytes 1000"));
	p.transfer_bytes = 0;
	p.transfers = 65;
	assert_int_equal(wg_usb_open(&u, &p, msg, sizeof(msg)), WG_EINVAL);
}

/* The usb target: its own options, the board process's refused; the open's error reaches the launch. */
static void usb_target_options_and_missing_device(void **state)
{
	struct wg_device *dev = NULL;

	(void)state;
	if (getenv("UMOCKDEV_DIR")) {
		skip();
		return;
	}
	assert_int_equal(wg_open(&dev, "usb", NULL), 0);
	assert_int_equal(wg_set_option(dev, "usb_transfers", "8"), 0);
	assert_int_equal(wg_set_option(dev, "usb_transfer_bytes", "1000"), WG_EINVAL);
	assert_int_equal(wg_set_option(dev, "usb_timeout_ms", "500"), 0);
	assert_int_equal(wg_set_option(dev, "usb_commit_us", "off"), 0);
	assert_int_equal(wg_set_option(dev, "usb_commit_us", "5000"), 0);
	assert_int_equal(wg_set_option(dev, "usb_commit_us", "50"), WG_EINVAL); /* below 100 us */
	assert_int_equal(wg_set_option(dev, "firmware", "/nonexistent.ihx"), 0);
	assert_int_equal(wg_set_option(dev, "socket", "/tmp/x"), WG_ENOTSUP);
	assert_non_null(strstr(wg_last_error(dev), "belongs to the board target's process"));
	wg_close(dev);
	assert_int_equal(wg_open(&dev, "board", NULL), 0);
	assert_int_equal(wg_set_option(dev, "usb_transfers", "8"), WG_ENOTSUP);
	assert_int_equal(wg_set_option(dev, "usb_commit_us", "off"), WG_ENOTSUP);
	wg_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(libusb_errors_map_to_wg_codes_with_the_name_and_a_hint),
		cmocka_unit_test(ihx_data_records_land_at_their_addresses),
		cmocka_unit_test(ihx_bad_checksum_names_file_and_line),
		cmocka_unit_test(ihx_data_outside_the_fx2_ram_is_refused),
		cmocka_unit_test(ihx_without_end_record_or_with_junk_is_refused),
		cmocka_unit_test(firmware_image_parses_when_built),
		cmocka_unit_test(open_with_no_device_says_what_was_looked_for),
		cmocka_unit_test(open_refuses_bad_parameters),
		cmocka_unit_test(usb_target_options_and_missing_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
