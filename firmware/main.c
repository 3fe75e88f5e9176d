/*
 * main.c: the warpgate FX2LP bridge firmware (docs/fx2.md): set-up, then a poll
 * loop. The data path (EP2 -> FPGA, FPGA -> EP6) runs in the FX2's hardware in
 * auto mode; the 8051 handles EP0 and the FPGA reset pin.
 */
#include "fx2regs.h"
#include "wgf.h"

void main(void)
{
	CPUCS = CPUCS_CLKSPD_48MHZ; /* 48 MHz, CLKOUT pin off (the FPGA uses IFCLK) */
	SYNCDELAY;

	wgf_timer_init();
	wgf_fpga_init();
	wgf_fifo_init();
	wgf_usb_init(); /* enables interrupts and re-enumerates */

	for (;;) {
		wgf_usb_poll();
		if (wgf_timer_tick())
			wgf_fpga_tick();
	}
}
