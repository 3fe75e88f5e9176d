/*
 * wgf.h: the modules of the warpgate FX2LP bridge firmware and the state they share
 * (docs/fx2.md). Interrupt handlers only set flags and count packets; main() runs
 * the set-up and then a poll loop that does the work.
 */
#ifndef WGF_H
#define WGF_H

#include <stdint.h>

/* ---- State shared between the interrupt handlers and the main loop -------- */

/* Events the USB interrupt handlers post for the main loop (wgf_events). */
#define WGF_EV_SETUP 0x01    /* SUDAV: a SETUP packet waits in SETUPDAT */
#define WGF_EV_BUS_RESET 0x02 /* URES */
#define WGF_EV_HIGH_SPEED 0x04 /* HSGRANT */

extern volatile __data uint8_t wgf_events;
/* Packets counted by the endpoint interrupts (read them with EA = 0). */
extern volatile __data uint32_t wgf_out_packets; /* EP2 OUT packets received */
extern volatile __data uint32_t wgf_in_packets;  /* EP6 IN packets taken by the host */

/* ---- usb.c: interrupts, re-enumeration, EP0, the poll loop's USB work ----- */

extern __data uint8_t wgf_config;     /* 0 or WGU_CONFIG_VALUE */
extern __data uint8_t wgf_high_speed; /* 1 when USBCS.HSM was set at the last check */

void wgf_usb_init(void);
void wgf_usb_poll(void);
/* Reply to the current IN request with the first n bytes of EP0BUF (cut to wLength). */
void wgf_ep0_send(uint8_t n);
/* Reply with a descriptor through SUDPTR (the USB core sends it and cuts it to wLength). */
void wgf_ep0_send_dscr(const __code uint8_t *d);
/* wLength of the current request as a 16-bit value. */
uint16_t wgf_setup_length(void);

/* ---- stdreq.c: chapter 9 requests; 1 = handled, 0 = stall EP0 -------------- */

uint8_t wgf_std_request(void);

/* ---- vendor.c: the vendor requests of wg_usb_proto.h; 1 = handled, 0 = stall */

uint8_t wgf_vendor_request(void);

/* ---- descriptors.c ----------------------------------------------------------- */

/* The descriptor of GET_DESCRIPTOR (type, index) at the current speed, or 0 when
 * there is none (the request stalls). */
const __code uint8_t *wgf_dscr_find(uint8_t type, uint8_t index);

/* ---- fifo.c: the slave FIFOs (EP2 OUT, EP6 IN) ------------------------------- */

#define WGF_FIFO_EP2 0x01
#define WGF_FIFO_EP6 0x02

void wgf_fifo_init(void);
/* Empty the FIFOs named by mask (WGF_FIFO_*) and re-arm EP2's OUT buffers. */
void wgf_fifo_reset(uint8_t mask);
/* AUTOIN packet length for the current speed (512 high, 64 full). */
void wgf_fifo_set_speed(uint8_t high_speed);
/* Commit what the EP6 FIFO holds as a (short or empty) packet. */
void wgf_fifo_in_commit(void);

/* ---- timer.c: timer 2 as a 1 ms tick, polled (no interrupt) ----------------- */

void wgf_timer_init(void);
/* Restart the current millisecond (the next tick comes 1 ms from now). */
void wgf_timer_restart(void);
/* 1 once per elapsed millisecond (clears the tick). */
uint8_t wgf_timer_tick(void);
void wgf_delay_ms(uint16_t ms);

/* ---- fpga.c: the FPGA's reset pin (PA0, active low) --------------------------- */

void wgf_fpga_init(void);
void wgf_fpga_reset(uint16_t ms);
/* Called once per millisecond tick: ends the pulse when its time is up. */
void wgf_fpga_tick(void);
uint8_t wgf_fpga_pin(void);        /* the pin's level */
uint16_t wgf_fpga_ms_left(void);   /* 0 when no pulse runs */

#endif /* WGF_H */
