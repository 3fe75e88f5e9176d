/*
 * wgtop: the Verilated FPGA board top (rtl/wg_board_top.sv: the FX2LP
 * slave-FIFO bridge, the board core and the JTAG port) as a C library
 * (implemented in sim/wgtop.cpp; docs/usb.md section 3).
 *
 * The caller plays the FX2: it sets the FX2's outputs (FD, FLAGA, FLAGB, the
 * reset pin PA0) for one IFCLK cycle and reads the FPGA's (struct fx2_pins of
 * sim/fx2_model.h) after it. wgtop_run_fx2 does that against the pin-level
 * FX2 model for a number of cycles. JTAG pins change between IFCLK cycles.
 *
 * Functions return 0 or a negative WG_E* code (host/include/warpgate.h)
 * unless they say otherwise.
 */
#ifndef WGTOP_H
#define WGTOP_H

#include <stdint.h>

#include "fx2_model.h"

#ifdef __cplusplus
extern "C" {
#endif

struct wgtop;

struct wgtop_opts {
	const char *trace_fst; /* FST waveform of the whole top; NULL: none (needs GPU_TRACE=1) */
	int no_skip;           /* evaluate idle cycles too */
};

/* The FX2's outputs for one IFCLK cycle. */
struct wgtop_fx2_in {
	uint8_t fd;
	int flaga_n, flagb_n; /* EP2 empty, EP6 full (active low) */
	int rst_n;            /* PA0: FPGA reset, active low */
};

struct wgtop_counts {
	uint64_t cycles;  /* IFCLK cycles, skipped ones included */
	uint64_t skipped; /* ... of which the top held still and was not evaluated */
};

int wgtop_create(struct wgtop **t, const struct wgtop_opts *opts); /* opts may be NULL; in reset */
void wgtop_destroy(struct wgtop *t);

/* The FPGA's FX2 outputs now (registered: they change only at wgtop_cycle). */
void wgtop_fx2_out(const struct wgtop *t, struct fx2_pins *p);
/* One IFCLK cycle: the inputs applied with the clock low, then the rising edge. */
void wgtop_cycle(struct wgtop *t, const struct wgtop_fx2_in *in);
/* 1: nothing moves at the next edge unless a flag or a JTAG pin changes (wg_board_top idle_o). */
int wgtop_idle(const struct wgtop *t);
/* 1: the same but for the link engine's retransmission and NAK timers (wg_board_top wait_o). */
int wgtop_waiting(const struct wgtop *t);
unsigned wgtop_leds(const struct wgtop *t); /* bit 0 link up, 1 link failed, 2 GPU running, 3 halted */

/*
 * Run the top against the FX2 model m for at most max IFCLK cycles, both sampling
 * at the same rising edges (docs/fx2.md section 5.1), the reset pin at rst_n.
 * Stops early once the top is idle and the model holds nothing for it: returns 1
 * then (the next change must come from the USB side); with wgtop_stop_on_wait on,
 * also once the top only waits for the host (wait_o): returns 2 then, with the
 * engine's timers not advanced. Else 0. *ran: cycles run.
 */
int wgtop_run_fx2(struct wgtop *t, struct fx2_model *m, int rst_n, uint64_t max, uint64_t *ran);
/* wgtop_run_fx2 stops when the top waits for the host (on != 0); off after wgtop_create. */
void wgtop_stop_on_wait(struct wgtop *t, int on);

/*
 * JTAG pins; returns TDO (0/1) or -1 while it is not driven. The next 4 IFCLK
 * cycles are evaluated even if the top looks idle (the DTM's synchroniser).
 */
int wgtop_jtag(struct wgtop *t, int tck, int tms, int tdi, int trst_n);

void wgtop_counts(const struct wgtop *t, struct wgtop_counts *c);

#ifdef __cplusplus
}
#endif
#endif
