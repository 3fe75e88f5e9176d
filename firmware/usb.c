/*
 * usb.c: USB set-up, re-enumeration, EP0 replies and the USB work of the poll loop
 * (docs/fx2.md section 3).
 *
 * The interrupt handlers (isr.c) only post events in wgf_events. wgf_usb_poll takes
 * them with interrupts off for the instant of the read, then handles a bus reset, a
 * speed change and a SETUP packet in that order.
 */
#include "fx2regs.h"
#include "wg_usb_proto.h"
#include "wgf.h"

/* How long the device stays off the bus when it re-enumerates: long enough for any
 * host's hub to see the disconnect. */
#define WGF_DISCON_MS 500

__data uint8_t wgf_config;
__data uint8_t wgf_high_speed;

void wgf_usb_init(void)
{
	wgf_config = 0;
	wgf_high_speed = 0;
	wgf_events = 0;

	/* Interrupts: INT2 autovectored (isr.c's jump table), sources SUDAV, bus reset,
	 * high-speed grant, and the EP2 / EP6 packet counts. */
	INTSETUP |= INTSETUP_AV2EN;
	USBIRQ = 0xFF; /* clear anything pending from the loader's session */
	EPIRQ = 0xFF;
	EXIF &= ~EXIF_USBINT;
	USBIE = USBIRQ_SUDAV | USBIRQ_URES | USBIRQ_HSGRANT;
	EPIE = EPIRQ_EP2 | EPIRQ_EP6;
	EIE |= EIE_EUSB;

	/* Re-enumerate: leave the bus, take over EP0 (RENUM), come back with our
	 * descriptors. The core keeps serving the 0xA0 loader request either way. */
	USBCS |= USBCS_DISCON | USBCS_RENUM;
	wgf_delay_ms(WGF_DISCON_MS);
	USBCS &= ~USBCS_DISCON;

	EA = 1;
}

uint16_t wgf_setup_length(void)
{
	return SETUPDAT[6] | ((uint16_t)SETUPDAT[7] << 8);
}

void wgf_ep0_send(uint8_t n)
{
	if (SETUPDAT[7] == 0 && SETUPDAT[6] < n)
		n = SETUPDAT[6];
	EP0BCH = 0;
	EP0BCL = n; /* arms EP0 IN */
}

void wgf_ep0_send_dscr(const __code uint8_t *d)
{
	uint16_t a = (uint16_t)d;

	SUDPTRCTL = SUDPTRCTL_SDPAUTO;
	SUDPTRH = (uint8_t)(a >> 8);
	SUDPTRL = (uint8_t)a; /* starts the transfer */
}

static void wgf_setup(void)
{
	uint8_t ok = 0;

	switch (SETUPDAT[0] & 0x60) {
	case 0x00:
		ok = wgf_std_request();
		break;
	case 0x40:
		ok = wgf_vendor_request();
		break;
	default: /* class requests: none */
		break;
	}
	if (!ok)
		EP0CS |= EP0CS_STALL;
	/* End the status stage (HSNAK is write-1-to-clear). */
	EP0CS |= EP0CS_HSNAK;
}

static void wgf_check_speed(void)
{
	uint8_t hs = (USBCS & USBCS_HSM) ? 1 : 0;

	wgf_high_speed = hs;
	wgf_fifo_set_speed(hs);
}

void wgf_usb_poll(void)
{
	uint8_t ev;

	EA = 0;
	ev = wgf_events;
	wgf_events = 0;
	EA = 1;

	if (ev & WGF_EV_BUS_RESET) {
		/* Back to the default state at full speed until HSGRANT says otherwise. */
		wgf_config = 0;
		wgf_check_speed();
	}
	if (ev & WGF_EV_HIGH_SPEED)
		wgf_check_speed();
	if (ev & WGF_EV_SETUP)
		wgf_setup();
}
