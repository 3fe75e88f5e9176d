/*
 * isr.c: the USB interrupt handlers, reached through the INT2 jump table of
 * vectors.asm. Each acknowledges its source (EXIF.USBINT first, then its bit in
 * USBIRQ or EPIRQ, both write-1-to-clear) and posts an event or counts a packet;
 * the main loop does the work.
 */
#include "fx2regs.h"
#include "wgf.h"

volatile __data uint8_t wgf_events;
volatile __data uint32_t wgf_out_packets;
volatile __data uint32_t wgf_in_packets;

void wgf_isr_sudav(void) __interrupt
{
	EXIF &= ~EXIF_USBINT;
	USBIRQ = USBIRQ_SUDAV;
	wgf_events |= WGF_EV_SETUP;
}

void wgf_isr_ures(void) __interrupt
{
	EXIF &= ~EXIF_USBINT;
	USBIRQ = USBIRQ_URES;
	wgf_events |= WGF_EV_BUS_RESET;
}

void wgf_isr_hsgrant(void) __interrupt
{
	EXIF &= ~EXIF_USBINT;
	USBIRQ = USBIRQ_HSGRANT;
	wgf_events |= WGF_EV_HIGH_SPEED;
}

void wgf_isr_ep2(void) __interrupt
{
	EXIF &= ~EXIF_USBINT;
	EPIRQ = EPIRQ_EP2;
	wgf_out_packets++;
}

void wgf_isr_ep6(void) __interrupt
{
	EXIF &= ~EXIF_USBINT;
	EPIRQ = EPIRQ_EP6;
	wgf_in_packets++;
}

/* A source that is never enabled: acknowledge INT2 only. */
void wgf_isr_unused(void) __interrupt
{
	EXIF &= ~EXIF_USBINT;
}
