/*
 * timer.c: timer 2 as a millisecond tick, polled by the main loop (no interrupt).
 *
 * CPUCS runs the 8051 at 48 MHz; timer 2 counts CLKOUT / 12 = 4 MHz (CKCON.T2M = 0),
 * so 4000 counts are 1 ms. In 16-bit auto-reload mode it reloads RCAP2 and sets TF2
 * at every overflow.
 */
#include "fx2regs.h"
#include "wgf.h"

#define WGF_T2_RELOAD (65536UL - 4000UL)

void wgf_timer_init(void)
{
	CKCON &= ~0x20; /* T2M = 0: CLKOUT / 12 */
	T2CON = 0;      /* stopped, auto-reload, timer mode */
	RCAP2H = (uint8_t)(WGF_T2_RELOAD >> 8);
	RCAP2L = (uint8_t)WGF_T2_RELOAD;
	wgf_timer_restart();
}

void wgf_timer_restart(void)
{
	TR2 = 0;
	TH2 = RCAP2H;
	TL2 = RCAP2L;
	TF2 = 0;
	TR2 = 1;
}

uint8_t wgf_timer_tick(void)
{
	if (!TF2)
		return 0;
	TF2 = 0;
	return 1;
}

void wgf_delay_ms(uint16_t ms)
{
	wgf_timer_restart();
	while (ms) {
		if (wgf_timer_tick())
			ms--;
	}
}
