/*
 * vendor.c: the vendor requests of host/include/wg_usb_proto.h (docs/fx2.md
 * section 4). Each checks its direction and fields; anything else stalls EP0.
 */
#include "fx2regs.h"
#include "wg_link_proto.h"
#include "wg_usb_proto.h"
#include "wgf.h"

static void wgf_put16(uint8_t off, uint16_t v)
{
	EP0BUF[off] = (uint8_t)v;
	EP0BUF[off + 1] = (uint8_t)(v >> 8);
}

static void wgf_put32(uint8_t off, uint32_t v)
{
	wgf_put16(off, (uint16_t)v);
	wgf_put16(off + 2, (uint16_t)(v >> 16));
}

static void wgf_version(void)
{
	EP0BUF[WGU_VER_MAGIC0] = WGU_MAGIC0;
	EP0BUF[WGU_VER_MAGIC1] = WGU_MAGIC1;
	EP0BUF[WGU_VER_PROTO] = WGU_PROTO_VERSION;
	EP0BUF[WGU_VER_LINK] = (uint8_t)WGL_VERSION;
	EP0BUF[WGU_VER_FW_MAJOR] = WGU_FW_VERSION_MAJOR;
	EP0BUF[WGU_VER_FW_MINOR] = WGU_FW_VERSION_MINOR;
	EP0BUF[WGU_VER_BUS] = WGU_BUS_BITS;
	EP0BUF[WGU_VER_RSV] = 0;
	wgf_ep0_send(WGU_VERSION_BYTES);
}

static void wgf_status(void)
{
	uint32_t out, in;
	uint16_t left = wgf_fpga_ms_left();
	uint8_t f = 0;

	EA = 0; /* the counters change in the endpoint interrupts */
	out = wgf_out_packets;
	in = wgf_in_packets;
	EA = 1;

	if (wgf_fpga_pin())
		f |= WGU_STF_RESET_PIN;
	if (left)
		f |= WGU_STF_RESETTING;
	if (wgf_high_speed)
		f |= WGU_STF_HIGH_SPEED;
	if (wgf_config)
		f |= WGU_STF_CONFIGURED;

	EP0BUF[WGU_ST_EP2CS] = EP2CS;
	EP0BUF[WGU_ST_EP6CS] = EP6CS;
	EP0BUF[WGU_ST_EP2FLAGS] = EP2FIFOFLGS;
	EP0BUF[WGU_ST_EP6FLAGS] = EP6FIFOFLGS;
	EP0BUF[WGU_ST_EP2BC] = EP2FIFOBCL;
	EP0BUF[WGU_ST_EP2BC + 1] = EP2FIFOBCH;
	EP0BUF[WGU_ST_EP6BC] = EP6FIFOBCL;
	EP0BUF[WGU_ST_EP6BC + 1] = EP6FIFOBCH;
	EP0BUF[WGU_ST_FLAGS] = f;
	EP0BUF[WGU_ST_CONFIG] = wgf_config;
	wgf_put16(WGU_ST_RESET_MS, left);
	wgf_put32(WGU_ST_OUT_PACKETS, out);
	wgf_put32(WGU_ST_IN_PACKETS, in);
	wgf_ep0_send(WGU_STATUS_BYTES);
}

uint8_t wgf_vendor_request(void)
{
	uint8_t rt = SETUPDAT[0];
	uint16_t value = SETUPDAT[2] | ((uint16_t)SETUPDAT[3] << 8);
	uint16_t index = SETUPDAT[4] | ((uint16_t)SETUPDAT[5] << 8);
	uint16_t length = wgf_setup_length();

	if (rt == WGU_RT_VENDOR_IN) {
		if (value != 0 || index != 0 || length == 0)
			return 0;
		switch (SETUPDAT[1]) {
		case WGU_RQ_VERSION:
			wgf_version();
			return 1;
		case WGU_RQ_STATUS:
			wgf_status();
			return 1;
		default:
			return 0;
		}
	}
	if (rt != WGU_RT_VENDOR_OUT || length != 0)
		return 0; /* no OUT request has a data stage */
	switch (SETUPDAT[1]) {
	case WGU_RQ_FPGA_RESET:
		if (value == 0 || value > WGU_RESET_MS_MAX || (index & ~WGU_RESET_FIFOS) != 0)
			return 0;
		if (index & WGU_RESET_FIFOS)
			wgf_fifo_reset(WGF_FIFO_EP2 | WGF_FIFO_EP6);
		wgf_fpga_reset(value);
		return 1;
	case WGU_RQ_FIFO_RESET:
		if (value == 0 || (value & ~(WGU_FIFO_OUT | WGU_FIFO_IN)) != 0 || index != 0)
			return 0;
		wgf_fifo_reset(((value & WGU_FIFO_OUT) ? WGF_FIFO_EP2 : 0) |
			       ((value & WGU_FIFO_IN) ? WGF_FIFO_EP6 : 0));
		return 1;
	case WGU_RQ_IN_COMMIT:
		if (value != 0 || index != 0)
			return 0;
		wgf_fifo_in_commit();
		return 1;
	default:
		return 0;
	}
}
