/*
 * wgjtag: the Verilated JTAG debug port (tests/rtl/tb_jtag.sv: wg_jtag_tap +
 * wg_jtag_regs) as a C library, for tests/rtl/test_jtag.c and the
 * remote_bitbang server sim/jtag_bitbang.c (docs/jtag.md).
 *
 * Two clocks in one simulated time line (picoseconds): the system clock clk_i
 * runs freely with period clk_ps; the caller drives the JTAG pins, and every
 * pin change happens tck_half_ps after the previous one (so a TCK period takes
 * two calls of wgjtag_pins). System clock edges that fall in between are
 * simulated first, in time order. Every function returns 0 or a negative WG_E*
 * code (host/include/warpgate.h) unless it says otherwise.
 */
#ifndef WGJTAG_H
#define WGJTAG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct wgjtag;

struct wgjtag_cfg {
	uint32_t clk_ps;          /* system clock period; 0: 10000 (100 MHz) */
	uint32_t tck_half_ps;     /* time per pin change; 0: 50000 (TCK 10 MHz) */
	uint32_t clk_phase_ps;    /* first rising clk_i edge at clk_ps / 2 + this */
	uint64_t seed;            /* Verilator's random power-up state */
	const char *trace_path;   /* FST trace of everything, or NULL */
};

/* TAP controller states as tap_state_o reports them (wg_jtag_pkg::tap_state_e). */
enum wgjtag_state {
	WGJTAG_TLR = 0, WGJTAG_RTI, WGJTAG_SEL_DR, WGJTAG_CAP_DR, WGJTAG_SH_DR, WGJTAG_EX1_DR,
	WGJTAG_PA_DR, WGJTAG_EX2_DR, WGJTAG_UPD_DR, WGJTAG_SEL_IR, WGJTAG_CAP_IR, WGJTAG_SH_IR,
	WGJTAG_EX1_IR, WGJTAG_PA_IR, WGJTAG_EX2_IR, WGJTAG_UPD_IR
};

/* Build the model; power-up state random from cfg->seed, then TRST asserted
 * and the system held in reset for 4 clk_i cycles, then both released. */
int wgjtag_open(struct wgjtag **out, const struct wgjtag_cfg *cfg);
void wgjtag_close(struct wgjtag *j);

/* Let tck_half_ps pass, then set TCK, TMS and TDI (each 0 or 1). */
int wgjtag_pins(struct wgjtag *j, int tck, int tms, int tdi);
/* TDO as a pulled-up line: the TAP's TDO while it drives it, 1 otherwise. */
int wgjtag_tdo(const struct wgjtag *j);
/* TRST (JTAG reset) and SRST (system reset: clk_i side rst_ni), 1 = asserted. */
void wgjtag_reset_pins(struct wgjtag *j, int trst, int srst);
/* Let time pass without a pin change: n system clock cycles. */
void wgjtag_run_clk(struct wgjtag *j, uint64_t n);
/* Change the time per pin change. */
int wgjtag_set_tck_half(struct wgjtag *j, uint32_t tck_half_ps);

/* Board-side inputs and outputs of the model. */
void wgjtag_set_cnt_ext(struct wgjtag *j, unsigned idx, uint32_t value); /* counters 2, 3 */
void wgjtag_set_link(struct wgjtag *j, int up, int fail);
uint32_t wgjtag_ctrl(const struct wgjtag *j, unsigned idx); /* control outputs 0..3 */
/* Write pulses (ctrl_we_o) of control 0..3 since the system reset. */
uint32_t wgjtag_ctrl_writes(const struct wgjtag *j, unsigned idx);
int wgjtag_halt(const struct wgjtag *j);   /* CTRL.HALT */
int wgjtag_halted(const struct wgjtag *j); /* the modelled GPU reports halted */
int wgjtag_tap_state(const struct wgjtag *j);

/* Rising clk_i edges since the system reset was last released (what counter 0 counts). */
uint64_t wgjtag_clk_cycles(const struct wgjtag *j);
/* RTL assertion failures ($error) since wgjtag_open returned. */
unsigned wgjtag_errors(const struct wgjtag *j);

#ifdef __cplusplus
}
#endif

#endif
