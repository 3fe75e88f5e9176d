/*
 * fpga.c: the FPGA's reset input, driven from port A bit 0 (PA0, active low;
 * docs/fx2.md section 6). After wgf_fpga_init the pin is an output at 1.
 */
#include "fx2regs.h"
#include "wgf.h"

#define WGF_RESET_PIN 0x01 /* PA0 */

static __data uint16_t wgf_reset_left; /* ms left in the running pulse, 0 = none */

void wgf_fpga_init(void)
{
	wgf_reset_left = 0;
	IOA |= WGF_RESET_PIN;
	OEA |= WGF_RESET_PIN;
}

void wgf_fpga_reset(uint16_t ms)
{
	IOA &= ~WGF_RESET_PIN;
	wgf_reset_left = ms;
	wgf_timer_restart(); /* the pulse lasts ms whole milliseconds from now */
}

void wgf_fpga_tick(void)
{
	if (wgf_reset_left && --wgf_reset_left == 0)
		IOA |= WGF_RESET_PIN;
}

uint8_t wgf_fpga_pin(void)
{
	return (IOA & WGF_RESET_PIN) ? 1 : 0;
}

uint16_t wgf_fpga_ms_left(void)
{
	return wgf_reset_left;
}
