/*
 * stdreq.c: the standard device requests (USB 2.0 chapter 9) the firmware answers
 * once RENUM is set (docs/fx2.md section 3.1). SET_ADDRESS is done by the USB core
 * by itself. Anything not listed in the switch, or with bad fields, stalls EP0.
 */
#include "fx2regs.h"
#include "wg_usb_proto.h"
#include "wgf.h"

#define RQ_GET_STATUS 0x00
#define RQ_CLEAR_FEATURE 0x01
#define RQ_SET_FEATURE 0x03
#define RQ_GET_DESCRIPTOR 0x06
#define RQ_GET_CONFIGURATION 0x08
#define RQ_SET_CONFIGURATION 0x09
#define RQ_GET_INTERFACE 0x0A
#define RQ_SET_INTERFACE 0x0B

#define RECIP_DEVICE 0x00
#define RECIP_INTERFACE 0x01
#define RECIP_ENDPOINT 0x02

#define FEATURE_ENDPOINT_HALT 0

/* The control/status register of a bulk endpoint of the configuration, or 0 (also
 * when unconfigured: only EP0 exists then). */
static volatile __xdata uint8_t *wgf_ep_cs(uint8_t ep)
{
	if (!wgf_config)
		return 0;
	if (ep == WGU_EP_OUT)
		return &EP2CS;
	if (ep == WGU_EP_IN)
		return &EP6CS;
	return 0;
}

static uint8_t wgf_is_ep0(uint8_t ep)
{
	return (ep & 0x7F) == 0;
}

/* Data toggle back to DATA0 and the FIFO emptied: what a halt's end means. */
static void wgf_ep_restart(uint8_t ep)
{
	TOGCTL = (ep & 0x0F) | ((ep & 0x80) ? TOGCTL_IO : 0);
	TOGCTL |= TOGCTL_R;
	wgf_fifo_reset(ep == WGU_EP_OUT ? WGF_FIFO_EP2 : WGF_FIFO_EP6);
}

static uint8_t wgf_get_status(uint8_t recip)
{
	volatile __xdata uint8_t *cs;

	EP0BUF[0] = 0; /* device: bus-powered, no remote wake-up; interface: 0 */
	EP0BUF[1] = 0;
	switch (recip) {
	case RECIP_DEVICE:
		break;
	case RECIP_INTERFACE:
		if (!wgf_config || SETUPDAT[4] != WGU_INTERFACE)
			return 0;
		break;
	case RECIP_ENDPOINT:
		if (!wgf_is_ep0(SETUPDAT[4])) {
			cs = wgf_ep_cs(SETUPDAT[4]);
			if (!cs)
				return 0;
			EP0BUF[0] = (*cs & EPCS_STALL) ? 1 : 0;
		}
		break;
	default:
		return 0;
	}
	wgf_ep0_send(2);
	return 1;
}

/* CLEAR_FEATURE (set = 0) and SET_FEATURE (set = 1): ENDPOINT_HALT of a bulk
 * endpoint; EP0's halt clears by itself, so clearing it is accepted. */
static uint8_t wgf_feature(uint8_t recip, uint8_t set)
{
	volatile __xdata uint8_t *cs;
	uint8_t ep = SETUPDAT[4];

	if (recip != RECIP_ENDPOINT || SETUPDAT[2] != FEATURE_ENDPOINT_HALT || SETUPDAT[3] != 0)
		return 0; /* device features (remote wake-up, test modes): not supported */
	if (wgf_is_ep0(ep))
		return !set;
	cs = wgf_ep_cs(ep);
	if (!cs)
		return 0;
	if (set) {
		*cs |= EPCS_STALL;
	} else {
		*cs &= ~EPCS_STALL;
		wgf_ep_restart(ep);
	}
	return 1;
}

static uint8_t wgf_get_descriptor(void)
{
	const __code uint8_t *d = wgf_dscr_find(SETUPDAT[3], SETUPDAT[2]);

	if (!d)
		return 0;
	wgf_ep0_send_dscr(d);
	return 1;
}

static uint8_t wgf_set_configuration(void)
{
	uint8_t v = SETUPDAT[2];

	if (SETUPDAT[3] != 0 || (v != 0 && v != WGU_CONFIG_VALUE))
		return 0;
	wgf_config = v;
	if (v) {
		/* A new configuration starts both endpoints afresh. */
		wgf_ep_restart(WGU_EP_OUT);
		wgf_ep_restart(WGU_EP_IN);
	}
	return 1;
}

static uint8_t wgf_set_interface(void)
{
	if (!wgf_config || SETUPDAT[4] != WGU_INTERFACE || SETUPDAT[2] != 0 || SETUPDAT[3] != 0)
		return 0;
	wgf_ep_restart(WGU_EP_OUT);
	wgf_ep_restart(WGU_EP_IN);
	return 1;
}

uint8_t wgf_std_request(void)
{
	uint8_t rt = SETUPDAT[0];
	uint8_t recip = rt & 0x1F;
	uint8_t in = rt & 0x80;

	switch (SETUPDAT[1]) {
	case RQ_GET_STATUS:
		return in ? wgf_get_status(recip) : 0;
	case RQ_CLEAR_FEATURE:
		return in ? 0 : wgf_feature(recip, 0);
	case RQ_SET_FEATURE:
		return in ? 0 : wgf_feature(recip, 1);
	case RQ_GET_DESCRIPTOR:
		return (in && recip == RECIP_DEVICE) ? wgf_get_descriptor() : 0;
	case RQ_GET_CONFIGURATION:
		if (!in || recip != RECIP_DEVICE)
			return 0;
		EP0BUF[0] = wgf_config;
		wgf_ep0_send(1);
		return 1;
	case RQ_SET_CONFIGURATION:
		return (!in && recip == RECIP_DEVICE) ? wgf_set_configuration() : 0;
	case RQ_GET_INTERFACE:
		if (!in || recip != RECIP_INTERFACE || !wgf_config || SETUPDAT[4] != WGU_INTERFACE)
			return 0;
		EP0BUF[0] = 0; /* the only alternate setting */
		wgf_ep0_send(1);
		return 1;
	case RQ_SET_INTERFACE:
		return (!in && recip == RECIP_INTERFACE) ? wgf_set_interface() : 0;
	default: /* SET_DESCRIPTOR, SYNCH_FRAME, unknown */
		return 0;
	}
}
