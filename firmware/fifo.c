/*
 * fifo.c: the slave-FIFO interface to the FPGA (docs/fx2.md section 5).
 *
 * 8-bit bus FD[7:0], synchronous, clocked by the FX2's internal 48 MHz IFCLK,
 * which is driven out to the FPGA. EP2 (bulk OUT, 4 x 512 bytes) is read by the
 * FPGA, EP6 (bulk IN, 4 x 512 bytes) written by it, both in auto mode: an OUT
 * packet goes to the FIFO without the 8051 (AUTOOUT), an IN packet is committed
 * when the FPGA has written a full packet (AUTOIN) or pulses PKTEND.
 * FLAGA = EP2 empty, FLAGB = EP6 full, all FIFO pins active low.
 */
#include "fx2regs.h"
#include "wg_usb_proto.h"
#include "wgf.h"

#define EP2_BUFFERS 4 /* EP2CFG quad-buffered */

/* With REVCTL.DYN_OUT set, an emptied OUT endpoint holds its buffers until the
 * firmware passes each one on (OUTPKTEND with SKIP); only then may AUTOOUT take
 * over. Until then the host's OUT packets get NAK. */
static void wgf_fifo_arm_out(void)
{
	uint8_t i;

	EP2FIFOCFG = 0;
	SYNCDELAY;
	for (i = 0; i < EP2_BUFFERS; i++) {
		OUTPKTEND = PKTEND_SKIP | 2;
		SYNCDELAY;
	}
	EP2FIFOCFG = EPFIFOCFG_AUTOOUT; /* 8-bit: WORDWIDE = 0 */
	SYNCDELAY;
}

void wgf_fifo_reset(uint8_t mask)
{
	FIFORESET = FIFORESET_NAKALL; /* the host gets NAK while the FIFOs change */
	SYNCDELAY;
	if (mask & WGF_FIFO_EP2) {
		FIFORESET = FIFORESET_NAKALL | 2;
		SYNCDELAY;
	}
	if (mask & WGF_FIFO_EP6) {
		FIFORESET = FIFORESET_NAKALL | 6;
		SYNCDELAY;
	}
	FIFORESET = 0;
	SYNCDELAY;
	if (mask & WGF_FIFO_EP2)
		wgf_fifo_arm_out();
}

void wgf_fifo_set_speed(uint8_t high_speed)
{
	uint16_t n = high_speed ? WGU_BULK_PACKET_HS : WGU_BULK_PACKET_FS;

	EP6AUTOINLENH = (uint8_t)(n >> 8);
	SYNCDELAY;
	EP6AUTOINLENL = (uint8_t)n;
	SYNCDELAY;
}

void wgf_fifo_in_commit(void)
{
	INPKTEND = 6;
	SYNCDELAY;
}

void wgf_fifo_init(void)
{
	/* Enhanced packet handling and dynamic OUT buffers, as the TRM asks for the
	 * auto modes; set before anything else of the FIFOs. */
	REVCTL = REVCTL_DYN_OUT | REVCTL_ENH_PKT;
	SYNCDELAY;

	IFCONFIG = IFCONFIG_IFCLKSRC | IFCONFIG_3048MHZ | IFCONFIG_IFCLKOE | IFCONFIG_SLAVE_FIFO;
	SYNCDELAY;

	/* EP1 is not used; EP4 and EP8 must be invalid for EP2 and EP6 to have four buffers. */
	EP1OUTCFG = 0;
	SYNCDELAY;
	EP1INCFG = 0;
	SYNCDELAY;
	EP2CFG = EPCFG_VALID | EPCFG_BULK | EPCFG_QUAD; /* OUT, 512 bytes, 4 buffers */
	SYNCDELAY;
	EP4CFG = 0;
	SYNCDELAY;
	EP6CFG = EPCFG_VALID | EPCFG_IN | EPCFG_BULK | EPCFG_QUAD;
	SYNCDELAY;
	EP8CFG = 0;
	SYNCDELAY;

	/* Flags and pins: FLAGA = EP2 empty, FLAGB = EP6 full, FLAGC/D not used
	 * (PA7 stays a port pin); SLRD, SLWR, SLOE, PKTEND and the flags active low. */
	PINFLAGSAB = (FLAG_EP6_FF << 4) | FLAG_EP2_EF;
	SYNCDELAY;
	PINFLAGSCD = 0;
	SYNCDELAY;
	FIFOPINPOLAR = 0;
	SYNCDELAY;
	PORTACFG = 0;
	SYNCDELAY;

	/* EP6: commit a packet at the packet size; PKTEND with an empty FIFO sends a
	 * zero-length packet. */
	EP6FIFOCFG = EPFIFOCFG_AUTOIN | EPFIFOCFG_ZEROLENIN;
	SYNCDELAY;
	wgf_fifo_set_speed(0);

	/* Both FIFOs empty; EP2's buffers armed, then AUTOOUT. */
	wgf_fifo_reset(WGF_FIFO_EP2 | WGF_FIFO_EP6);
}
