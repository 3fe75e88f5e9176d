/*
 * descriptors.c: the USB descriptors of the bridge (docs/fx2.md section 2).
 *
 * The USB core sends a descriptor by itself once the firmware writes its address
 * into SUDPTRH:L, which must be even. All descriptors therefore live in one block
 * at WGF_DSCR_ADDR (even; firmware/Makefile reserves 0x3E00..0x3FFF for it) and
 * every member has an even size, so each one starts at an even address.
 *
 * Both speeds are described: the configuration at high speed has 512-byte bulk
 * packets, at full speed 64-byte ones; the other-speed configuration is the
 * other one with bDescriptorType 7. Nothing is patched at run time.
 */
#include "fx2regs.h"
#include "wg_usb_proto.h"
#include "wgf.h"

#define WGF_DSCR_ADDR 0x3E00

#define LSB(w) ((uint8_t)((w) & 0xFF))
#define MSB(w) ((uint8_t)(((w) >> 8) & 0xFF))

#define DT_DEVICE 1
#define DT_CONFIG 2
#define DT_STRING 3
#define DT_INTERFACE 4
#define DT_ENDPOINT 5
#define DT_QUALIFIER 6
#define DT_OTHER_SPEED 7

#define CONFIG_BYTES (9 + 9 + 7 + 7)
#define EP_BULK 0x02

/* Configuration descriptor of type `type` with bulk packets of `pkt` bytes. */
#define CONFIG_DSCR(type, pkt)                                                         \
	{                                                                              \
		/* configuration */                                                    \
		9, (type), LSB(CONFIG_BYTES), MSB(CONFIG_BYTES), 1, WGU_CONFIG_VALUE,   \
		0,    /* iConfiguration */                                             \
		0x80, /* bus-powered, no remote wake-up */                             \
		WGU_MAX_POWER_MA / 2,                                                  \
		/* interface 0: vendor-specific, two endpoints */                      \
		9, DT_INTERFACE, WGU_INTERFACE, 0, 2, WGU_IFACE_CLASS, 0, 0, 0,        \
		/* EP2 bulk OUT, EP6 bulk IN */                                        \
		7, DT_ENDPOINT, WGU_EP_OUT, EP_BULK, LSB(pkt), MSB(pkt), 0,            \
		7, DT_ENDPOINT, WGU_EP_IN, EP_BULK, LSB(pkt), MSB(pkt), 0              \
	}

#define U(c) (c), 0 /* one UTF-16LE code unit of an ASCII character */

struct wgf_descriptors {
	uint8_t device[18];
	uint8_t qualifier[10];
	uint8_t config_hs[CONFIG_BYTES];
	uint8_t config_fs[CONFIG_BYTES];
	uint8_t other_hs[CONFIG_BYTES]; /* sent at full speed: how high speed would look */
	uint8_t other_fs[CONFIG_BYTES]; /* sent at high speed */
	uint8_t str_lang[4];
	uint8_t str_manufacturer[2 + 2 * 8];
	uint8_t str_product[2 + 2 * 19];
	uint8_t str_serial[2 + 2 * 16];
};

_Static_assert((WGF_DSCR_ADDR & 1) == 0, "SUDPTR needs even descriptor addresses");
_Static_assert(sizeof(struct wgf_descriptors) <= 0x200, "descriptors overflow their 512 bytes");
_Static_assert(WGU_BCD_DEVICE == ((WGU_FW_VERSION_MAJOR << 8) | WGU_FW_VERSION_MINOR), "bcdDevice");
/* The strings below spell WGU_STR_* of wg_usb_proto.h; tests/fw checks them. */

__code __at(WGF_DSCR_ADDR) const struct wgf_descriptors wgf_dscr = {
	.device = {
		18, DT_DEVICE, 0x00, 0x02, /* USB 2.0 */
		0, 0, 0,                   /* class per interface */
		WGU_EP0_PACKET,
		LSB(WGU_VID), MSB(WGU_VID), LSB(WGU_PID), MSB(WGU_PID),
		LSB(WGU_BCD_DEVICE), MSB(WGU_BCD_DEVICE),
		WGU_STRI_MANUFACTURER, WGU_STRI_PRODUCT, WGU_STRI_SERIAL,
		1, /* configurations */
	},
	.qualifier = {
		10, DT_QUALIFIER, 0x00, 0x02, 0, 0, 0, WGU_EP0_PACKET, 1, 0,
	},
	.config_hs = CONFIG_DSCR(DT_CONFIG, WGU_BULK_PACKET_HS),
	.config_fs = CONFIG_DSCR(DT_CONFIG, WGU_BULK_PACKET_FS),
	.other_hs = CONFIG_DSCR(DT_OTHER_SPEED, WGU_BULK_PACKET_HS),
	.other_fs = CONFIG_DSCR(DT_OTHER_SPEED, WGU_BULK_PACKET_FS),
	.str_lang = { 4, DT_STRING, LSB(WGU_LANGID), MSB(WGU_LANGID) },
	.str_manufacturer = {
		2 + 2 * 8, DT_STRING,
		U('w'), U('a'), U('r'), U('p'), U('g'), U('a'), U('t'), U('e'),
	},
	.str_product = {
		2 + 2 * 19, DT_STRING,
		U('w'), U('a'), U('r'), U('p'), U('g'), U('a'), U('t'), U('e'), U(' '),
		U('F'), U('X'), U('2'), U(' '),
		U('b'), U('r'), U('i'), U('d'), U('g'), U('e'),
	},
	.str_serial = {
		2 + 2 * 16, DT_STRING,
		U('0'), U('0'), U('0'), U('0'), U('0'), U('0'), U('0'), U('0'),
		U('0'), U('0'), U('0'), U('0'), U('0'), U('0'), U('0'), U('1'),
	},
};

const __code uint8_t *wgf_dscr_find(uint8_t type, uint8_t index)
{
	switch (type) {
	case DT_DEVICE:
		return index == 0 ? wgf_dscr.device : 0;
	case DT_QUALIFIER:
		return index == 0 ? wgf_dscr.qualifier : 0;
	case DT_CONFIG:
		if (index != 0)
			return 0;
		return wgf_high_speed ? wgf_dscr.config_hs : wgf_dscr.config_fs;
	case DT_OTHER_SPEED:
		if (index != 0)
			return 0;
		return wgf_high_speed ? wgf_dscr.other_fs : wgf_dscr.other_hs;
	case DT_STRING:
		switch (index) {
		case 0:
			return wgf_dscr.str_lang;
		case WGU_STRI_MANUFACTURER:
			return wgf_dscr.str_manufacturer;
		case WGU_STRI_PRODUCT:
			return wgf_dscr.str_product;
		case WGU_STRI_SERIAL:
			return wgf_dscr.str_serial;
		default:
			return 0;
		}
	default:
		return 0;
	}
}
