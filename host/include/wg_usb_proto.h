/*
 * wg_usb_proto.h: the USB face of the FX2LP bridge (docs/fx2.md).
 *
 * Shared by the host (the libusb transport and its loader) and the FX2LP
 * firmware (firmware/, built by sdcc for the 8051), so everything outside the
 * `#ifndef SDCC` section at the end is a plain macro: no structs, no 64-bit
 * integers, 32-bit constants with a UL suffix (int is 16 bits on the 8051).
 *
 * Multi-byte fields of the replies below are little-endian. Offsets are in
 * bytes from the first byte of the reply (the data stage of the request).
 */
#ifndef WG_USB_PROTO_H
#define WG_USB_PROTO_H

/* Version of the vendor requests and replies below; a host refuses another one. */
#define WGU_PROTO_VERSION 1u
/* Version of the firmware in this tree (also the device descriptor's bcdDevice, 0xMMmm). */
#define WGU_FW_VERSION_MAJOR 1u
#define WGU_FW_VERSION_MINOR 0u
#define WGU_BCD_DEVICE 0x0100u /* (WGU_FW_VERSION_MAJOR << 8) | WGU_FW_VERSION_MINOR */

/* ---- Identities ------------------------------------------------------------ */

/* A bare CY7C68013A (no EEPROM) enumerates with Cypress's default IDs; the host
 * loads the firmware into such a device with the EZ-USB loader request. */
#define WGU_FX2_BARE_VID 0x04B4u
#define WGU_FX2_BARE_PID 0x8613u

/* After loading, the firmware re-enumerates with pid.codes' test pair
 * 1209:0001 (a VID/PID pair set aside for testing and private use, not for
 * distributed products). The host looks for this pair and the product string. */
#define WGU_VID 0x1209u
#define WGU_PID 0x0001u

#define WGU_STR_MANUFACTURER "warpgate"
#define WGU_STR_PRODUCT "warpgate FX2 bridge"
#define WGU_STR_SERIAL "0000000000000001"
#define WGU_LANGID 0x0409u /* English (United States) */
/* String descriptor indices. */
#define WGU_STRI_MANUFACTURER 1u
#define WGU_STRI_PRODUCT 2u
#define WGU_STRI_SERIAL 3u

/* ---- The EZ-USB loader (handled by the FX2's USB core, not by firmware) ------ */

#define WGU_RQ_FX2_LOAD 0xA0u   /* bmRequestType 0x40 (write) / 0xC0 (read); wValue address, no wIndex */
#define WGU_FX2_CPUCS 0xE600u   /* write 1: hold the 8051 in reset; write 0: run it */
#define WGU_FX2_RAM_BYTES 0x4000u /* the loader writes the image into 0x0000..0x3FFF */
#define WGU_FX2_LOAD_CHUNK 4096u /* bytes per loader request the host uses */
/* bRequest 0xA0..0xAF are reserved by Cypress; the vendor requests below avoid them. */
#define WGU_RQ_CYPRESS_FIRST 0xA0u
#define WGU_RQ_CYPRESS_LAST 0xAFu

/* ---- Configuration ------------------------------------------------------------ */

#define WGU_CONFIG_VALUE 1u    /* bConfigurationValue of the only configuration */
#define WGU_INTERFACE 0u       /* the only interface, alternate setting 0 */
#define WGU_IFACE_CLASS 0xFFu  /* vendor-specific */
#define WGU_EP_OUT 0x02u       /* EP2 bulk OUT: host -> FPGA (the FX2's EP2 FIFO) */
#define WGU_EP_IN 0x86u        /* EP6 bulk IN: FPGA -> host (the FX2's EP6 FIFO) */
#define WGU_EP0_PACKET 64u
#define WGU_BULK_PACKET_HS 512u
#define WGU_BULK_PACKET_FS 64u
#define WGU_MAX_POWER_MA 100u  /* bus-powered, bMaxPower = 50 (2 mA units) */

/* ---- Vendor requests (bmRequestType 0xC0 device-to-host, 0x40 host-to-device) ---- */

#define WGU_RT_VENDOR_IN 0xC0u
#define WGU_RT_VENDOR_OUT 0x40u

/*
 * VERSION (IN, wValue 0, wIndex 0, wLength >= 1; the reply is cut to wLength):
 * who is answering.
 */
#define WGU_RQ_VERSION 0xB0u
#define WGU_VERSION_BYTES 8u
#define WGU_VER_MAGIC0 0u      /* 'W' */
#define WGU_VER_MAGIC1 1u      /* 'G' */
#define WGU_VER_PROTO 2u       /* WGU_PROTO_VERSION */
#define WGU_VER_LINK 3u        /* WGL_VERSION of wg_link_proto.h the bridge was built with */
#define WGU_VER_FW_MAJOR 4u
#define WGU_VER_FW_MINOR 5u
#define WGU_VER_BUS 6u         /* FIFO data bus width in bits: 8 */
#define WGU_VER_RSV 7u         /* 0 */
#define WGU_MAGIC0 0x57u
#define WGU_MAGIC1 0x47u
#define WGU_BUS_BITS 8u

/*
 * FPGA_RESET (OUT, no data stage): drive the FPGA's reset pin (PA0, active low)
 * low for wValue milliseconds (1..WGU_RESET_MS_MAX), then high again. The request
 * completes at once; the pulse runs on (STATUS shows it). A new request restarts
 * the pulse. wIndex bit 0 (WGU_RESET_FIFOS): also empty both slave FIFOs at the
 * start of the pulse. Any other wValue or wIndex bit stalls.
 */
#define WGU_RQ_FPGA_RESET 0xB1u
#define WGU_RESET_MS_MAX 1000u
#define WGU_RESET_FIFOS 0x01u

/*
 * STATUS (IN, wValue 0, wIndex 0; the reply is cut to wLength): the bridge's state.
 */
#define WGU_RQ_STATUS 0xB2u
#define WGU_STATUS_BYTES 20u
#define WGU_ST_EP2CS 0u        /* EP2CS: bit 0 stall, 2 empty, 3 full, 6:4 packets */
#define WGU_ST_EP6CS 1u        /* EP6CS, the same */
#define WGU_ST_EP2FLAGS 2u     /* EP2FIFOFLGS: bit 0 full, 1 empty, 2 programmable */
#define WGU_ST_EP6FLAGS 3u     /* EP6FIFOFLGS, the same */
#define WGU_ST_EP2BC 4u        /* u16, bytes in the EP2 FIFO (EP2FIFOBCH:L) */
#define WGU_ST_EP6BC 6u        /* u16, bytes in the EP6 FIFO (EP6FIFOBCH:L) */
#define WGU_ST_FLAGS 8u        /* WGU_STF_* */
#define WGU_ST_CONFIG 9u       /* the current configuration: 0 or WGU_CONFIG_VALUE */
#define WGU_ST_RESET_MS 10u    /* u16, milliseconds left in the reset pulse */
#define WGU_ST_OUT_PACKETS 12u /* u32, EP2 OUT packets received since power-on (wraps) */
#define WGU_ST_IN_PACKETS 16u  /* u32, EP6 IN packets taken by the host since power-on (wraps) */
#define WGU_STF_RESET_PIN 0x01u /* the level of the reset pin (1: released) */
#define WGU_STF_RESETTING 0x02u /* a reset pulse is running */
#define WGU_STF_HIGH_SPEED 0x04u /* the bus runs at high speed */
#define WGU_STF_CONFIGURED 0x08u /* the configuration is set */

/*
 * FIFO_RESET (OUT, no data stage): empty the FIFOs named by wValue
 * (WGU_FIFO_OUT: EP2, WGU_FIFO_IN: EP6, or both); anything else stalls.
 * Bytes in flight are lost: use it when both sides restart the link.
 */
#define WGU_RQ_FIFO_RESET 0xB3u
#define WGU_FIFO_OUT 0x01u
#define WGU_FIFO_IN 0x02u

/*
 * IN_COMMIT (OUT, no data stage, wValue 0): commit the bytes the FPGA has written
 * into the EP6 FIFO as a short packet now, as PKTEND would (a zero-length packet
 * when the FIFO is empty).
 */
#define WGU_RQ_IN_COMMIT 0xB4u

#ifndef SDCC
#include <stdint.h>

/* Little-endian fields of the replies. */
static inline uint16_t wgu_get16(const uint8_t *p, unsigned off)
{
	return (uint16_t)(p[off] | (p[off + 1] << 8));
}

static inline uint32_t wgu_get32(const uint8_t *p, unsigned off)
{
	return (uint32_t)p[off] | ((uint32_t)p[off + 1] << 8) | ((uint32_t)p[off + 2] << 16) |
	       ((uint32_t)p[off + 3] << 24);
}
#endif

#endif /* WG_USB_PROTO_H */
