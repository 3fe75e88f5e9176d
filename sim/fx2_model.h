/*
 * fx2_model: the FX2LP's side of the synchronous slave FIFO interface, as
 * docs/fx2.md section 5.1 states it: EP2 (OUT, host -> FPGA) and EP6 (IN,
 * FPGA -> host), 4 buffers of 512 bytes each, AUTOOUT/AUTOIN, FLAGA = EP2
 * empty and FLAGB = EP6 full (both active low), PKTEND with ZEROLENIN.
 *
 * The FPGA side's pins are sampled by fx2_edge() at a rising edge of IFCLK;
 * the FX2's outputs (fx2_fd, fx2_flaga_n, fx2_flagb_n) are functions of the
 * state that edge left. The USB side moves whole packets: fx2_out_packet()
 * puts an OUT packet into EP2 when a buffer is free (the USB core NAKs
 * otherwise), fx2_in_packet() takes the oldest committed EP6 packet.
 * Used by the bridge's test (tests/rtl/test_fx2_fifo.cpp) and the emulated
 * USB device (tests/usb/fx2_emu.c). Plain C.
 */
#ifndef FX2_MODEL_H
#define FX2_MODEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FX2_BUFS 4
#define FX2_BUF_BYTES 512
#define FX2_ADR_EP2 0u
#define FX2_ADR_EP6 2u
#define FX2_FD_FLOAT 0xA5u /* what an undriven FD reads as */

/* FPGA -> FX2 pins, sampled at a rising edge. */
struct fx2_pins {
	uint8_t fd;      /* FD as the FPGA drives it */
	int fd_oe;       /* 1: the FPGA drives FD */
	int slrd_n, slwr_n, sloe_n, pktend_n;
	unsigned fifoadr;
};

struct fx2_counts {
	uint64_t out_packets, in_packets; /* packets in from / out to USB */
	uint64_t rd_bytes, wr_bytes;      /* bytes the FPGA read / wrote */
	uint64_t pktends, zlps;           /* PKTENDs taken; of which zero-length packets */
	uint64_t rd_empty, wr_full;       /* strobes ignored: SLRD on empty EP2, SLWR/PKTEND on full EP6 */
	uint64_t violations;              /* bus conflicts, strobes with the wrong FIFOADR, two strobes */
};

struct fx2_model {
	unsigned in_pkt;                  /* EP6AUTOINLEN: 512 (high speed) or 64 */
	uint8_t ep2[FX2_BUFS][FX2_BUF_BYTES];
	uint16_t ep2_len[FX2_BUFS];
	unsigned ep2_head, ep2_n, ep2_off; /* oldest buffer, buffers held, bytes of it read */
	uint8_t ep6[FX2_BUFS][FX2_BUF_BYTES];
	uint16_t ep6_len[FX2_BUFS];
	unsigned ep6_head, ep6_n, ep6_fill; /* oldest committed buffer, committed buffers, bytes in the next */
	struct fx2_counts n;
	char last_violation[160];
};

void fx2_init(struct fx2_model *m, unsigned in_pkt);
/* FX2 outputs after the last edge (FD as the FPGA sees it, given its own pins). */
uint8_t fx2_fd(const struct fx2_model *m, const struct fx2_pins *p);
int fx2_flaga_n(const struct fx2_model *m); /* 0: EP2 empty */
int fx2_flagb_n(const struct fx2_model *m); /* 0: EP6 full */
/* A rising edge of IFCLK with these pins. */
void fx2_edge(struct fx2_model *m, const struct fx2_pins *p);

/* USB side. */
int fx2_out_room(const struct fx2_model *m);             /* 1: an EP2 buffer is free */
int fx2_out_packet(struct fx2_model *m, const uint8_t *p, size_t n); /* 1..512 bytes; 0 or -1 (no buffer, bad size) */
int fx2_in_ready(const struct fx2_model *m);             /* committed EP6 packets */
int fx2_in_packet(struct fx2_model *m, uint8_t *p);      /* the oldest one: its length (0 = ZLP), -1: none */
/* Bytes held in EP2 (not yet read) and in EP6 (committed or filling). */
size_t fx2_out_bytes(const struct fx2_model *m);
size_t fx2_in_bytes(const struct fx2_model *m);
/* FIFO_RESET: empty EP2 (out) and/or EP6 (in). */
void fx2_fifo_reset(struct fx2_model *m, int out, int in);
/* IN_COMMIT (vendor request 0xB4): commit the partly filled EP6 buffer as PKTEND does; 0: EP6 full. */
int fx2_in_commit(struct fx2_model *m);

#ifdef __cplusplus
}
#endif
#endif
