/*
 * fx2regs.h: the CY7C68013A (FX2LP) registers the firmware uses, with the names of
 * the EZ-USB FX2 Technical Reference Manual (TRM), for sdcc's mcs51 port.
 *
 * Two kinds: special function registers of the 8051 core (__sfr, direct address
 * 0x80..0xFF) and the USB / FIFO control registers, which sit in the external data
 * space at 0xE600..0xE6FF (__xdata, reached with MOVX). Bit masks are named
 * <REGISTER>_<BIT>.
 */
#ifndef FX2REGS_H
#define FX2REGS_H

#include <stdint.h>

/* A control register as an lvalue (a macro, so that no module defines a symbol for it). */
#define FX2_XREG(addr) (*(volatile __xdata uint8_t *)(addr))

/* ---- Special function registers ------------------------------------------- */

__sfr __at(0x80) IOA;          /* port A pins */
__sfr __at(0x81) SP;
__sfr __at(0x86) DPS;
__sfr __at(0x88) TCON;
__sfr __at(0x89) TMOD;
__sfr __at(0x8E) CKCON;        /* bits 5..3: timer 2..0 clock CLKOUT/4 (1) or /12 (0) */
__sfr __at(0x90) IOB;
__sfr __at(0x91) EXIF;         /* external interrupt flags */
__sfr __at(0x92) MPAGE;        /* high address byte of MOVX @Ri */
__sfr __at(0xA1) INT2CLR;
__sfr __at(0xA8) IE;
__sfr __at(0xAA) EP2468STAT;
__sfr __at(0xAB) EP24FIFOFLGS;
__sfr __at(0xAC) EP68FIFOFLGS;
__sfr __at(0xAF) AUTOPTRSETUP;
__sfr __at(0xB0) IOD;
__sfr __at(0xB2) OEA;          /* port A output enables, 1 = output */
__sfr __at(0xB3) OEB;
__sfr __at(0xB5) OED;
__sfr __at(0xC8) T2CON;
__sfr __at(0xCA) RCAP2L;
__sfr __at(0xCB) RCAP2H;
__sfr __at(0xCC) TL2;
__sfr __at(0xCD) TH2;
__sfr __at(0xD8) EICON;
__sfr __at(0xE8) EIE;          /* extended interrupt enables */
__sfr __at(0xF8) EIP;

/* Bit-addressable bits used. */
__sbit __at(0xAF) EA;          /* IE.7: all interrupts */
__sbit __at(0xCA) TR2;         /* T2CON.2: timer 2 runs */
__sbit __at(0xCF) TF2;         /* T2CON.7: timer 2 overflow (or reload) */

#define EXIF_USBINT 0x10       /* INT2, the USB interrupt, pending */
#define EIE_EUSB 0x01          /* enable INT2 (USB) */
#define T2CON_TR2 0x04
#define T2CON_TF2 0x80

/* ---- Control and status registers (xdata) -------------------------------- */

#define CPUCS FX2_XREG(0xE600)       /* CPU clock: bits 4:3 CLKSPD, 1 CLKOE, 0 8051RES */
#define IFCONFIG FX2_XREG(0xE601)    /* interface: clock source, speed, output, polarity, mode */
#define PINFLAGSAB FX2_XREG(0xE602)  /* FLAGB (7:4) and FLAGA (3:0) sources */
#define PINFLAGSCD FX2_XREG(0xE603)  /* FLAGD (7:4) and FLAGC (3:0) sources */
#define FIFORESET FX2_XREG(0xE604)   /* bit 7 NAKALL, 3:0 endpoint whose FIFO is reset */
#define FIFOPINPOLAR FX2_XREG(0xE609) /* polarity of the FIFO pins, 1 = active high */
#define REVID FX2_XREG(0xE60A)
#define REVCTL FX2_XREG(0xE60B)      /* bit 1 DYN_OUT, bit 0 ENH_PKT */
#define EP1OUTCFG FX2_XREG(0xE610)
#define EP1INCFG FX2_XREG(0xE611)
#define EP2CFG FX2_XREG(0xE612)      /* bit 7 VALID, 6 DIR (1 IN), 5:4 TYPE, 3 SIZE, 1:0 BUF */
#define EP4CFG FX2_XREG(0xE613)
#define EP6CFG FX2_XREG(0xE614)
#define EP8CFG FX2_XREG(0xE615)
#define EP2FIFOCFG FX2_XREG(0xE618)  /* bit 4 AUTOOUT, 3 AUTOIN, 2 ZEROLENIN, 0 WORDWIDE */
#define EP4FIFOCFG FX2_XREG(0xE619)
#define EP6FIFOCFG FX2_XREG(0xE61A)
#define EP8FIFOCFG FX2_XREG(0xE61B)
#define EP6AUTOINLENH FX2_XREG(0xE624) /* AUTOIN commits a packet at this many bytes */
#define EP6AUTOINLENL FX2_XREG(0xE625)
#define INPKTEND FX2_XREG(0xE648)    /* bit 7 SKIP, 3:0 endpoint: commit an IN packet */
#define OUTPKTEND FX2_XREG(0xE649)   /* bit 7 SKIP, 3:0 endpoint: pass on (skip) an OUT packet */
#define USBIE FX2_XREG(0xE65C)
#define USBIRQ FX2_XREG(0xE65D)      /* write 1 to clear */
#define EPIE FX2_XREG(0xE65E)
#define EPIRQ FX2_XREG(0xE65F)       /* write 1 to clear */
#define INT2IVEC FX2_XREG(0xE666)
#define INTSETUP FX2_XREG(0xE668)    /* bit 3 AV2EN: autovector INT2 */
#define PORTACFG FX2_XREG(0xE670)    /* bit 7 FLAGD, 6 SLCS, 1 INT1, 0 INT0 on port A */
#define USBCS FX2_XREG(0xE680)       /* bit 7 HSM, 3 DISCON, 2 NOSYNSOF, 1 RENUM, 0 SIGRSUME */
#define TOGCTL FX2_XREG(0xE683)      /* bit 7 Q, 6 S, 5 R, 4 IO, 3:0 EP: data toggles */
#define EP0BCH FX2_XREG(0xE68A)
#define EP0BCL FX2_XREG(0xE68B)      /* writing it arms EP0 IN with that many bytes of EP0BUF */
#define EP0CS FX2_XREG(0xE6A0)       /* bit 7 HSNAK (write 1 to clear), 1 BUSY, 0 STALL */
#define EP2CS FX2_XREG(0xE6A3)       /* bit 6:4 NPAK, 3 FULL, 2 EMPTY, 0 STALL */
#define EP6CS FX2_XREG(0xE6A5)
#define EP2FIFOFLGS FX2_XREG(0xE6A7) /* bit 2 PF, 1 EF, 0 FF */
#define EP6FIFOFLGS FX2_XREG(0xE6A9)
#define EP2FIFOBCH FX2_XREG(0xE6AB)
#define EP2FIFOBCL FX2_XREG(0xE6AC)
#define EP6FIFOBCH FX2_XREG(0xE6AF)
#define EP6FIFOBCL FX2_XREG(0xE6B0)
#define SUDPTRH FX2_XREG(0xE6B3)
#define SUDPTRL FX2_XREG(0xE6B4)     /* writing it starts the descriptor transfer */
#define SUDPTRCTL FX2_XREG(0xE6B5)   /* bit 0 SDPAUTO */
#define SETUPDAT ((volatile __xdata uint8_t *)0xE6B8) /* 8 bytes */
#define EP0BUF ((volatile __xdata uint8_t *)0xE740)   /* 64 bytes */

#define CPUCS_CLKSPD_48MHZ 0x10
#define CPUCS_CLKOE 0x02

#define IFCONFIG_IFCLKSRC 0x80 /* internal IFCLK */
#define IFCONFIG_3048MHZ 0x40  /* 48 MHz (else 30) */
#define IFCONFIG_IFCLKOE 0x20  /* drive IFCLK out */
#define IFCONFIG_IFCLKPOL 0x10
#define IFCONFIG_ASYNC 0x08
#define IFCONFIG_GSTATE 0x04
#define IFCONFIG_SLAVE_FIFO 0x03

/* FLAGx source codes of PINFLAGSAB / PINFLAGSCD. */
#define FLAG_EP2_PF 0x4u
#define FLAG_EP6_PF 0x6u
#define FLAG_EP2_EF 0x8u
#define FLAG_EP6_EF 0xAu
#define FLAG_EP2_FF 0xCu
#define FLAG_EP6_FF 0xEu

#define FIFORESET_NAKALL 0x80
#define REVCTL_DYN_OUT 0x02
#define REVCTL_ENH_PKT 0x01

#define EPCFG_VALID 0x80
#define EPCFG_IN 0x40
#define EPCFG_BULK 0x20
#define EPCFG_QUAD 0x00        /* BUF = 00: four buffers */

#define EPFIFOCFG_AUTOOUT 0x10
#define EPFIFOCFG_AUTOIN 0x08
#define EPFIFOCFG_ZEROLENIN 0x04
#define EPFIFOCFG_WORDWIDE 0x01

#define PKTEND_SKIP 0x80

#define USBIRQ_SUDAV 0x01      /* a SETUP packet is in SETUPDAT */
#define USBIRQ_SOF 0x02
#define USBIRQ_SUTOK 0x04
#define USBIRQ_SUSP 0x08
#define USBIRQ_URES 0x10       /* bus reset */
#define USBIRQ_HSGRANT 0x20    /* high speed granted */
#define USBIRQ_EP0ACK 0x40

#define EPIRQ_EP2 0x10
#define EPIRQ_EP6 0x40

#define INTSETUP_AV2EN 0x08

#define USBCS_HSM 0x80
#define USBCS_DISCON 0x08
#define USBCS_RENUM 0x02

#define TOGCTL_R 0x20
#define TOGCTL_IO 0x10

#define EP0CS_HSNAK 0x80
#define EP0CS_STALL 0x01
#define EPCS_STALL 0x01

#define SUDPTRCTL_SDPAUTO 0x01

/* INT2IVEC values (the offset into the INT2 jump table) of the sources used. */
#define IVEC_SUDAV 0x00
#define IVEC_URES 0x10
#define IVEC_HSGRANT 0x14
#define IVEC_EP2 0x30
#define IVEC_EP6 0x38

/*
 * Some register writes need a delay before the next access when the register is
 * clocked from IFCLK (TRM "Synchronization Delay"): at least
 * ceil(1.5 * (IFCLK period / CLKOUT period + 1)) CPU cycles, 3 at 48 MHz / 48 MHz
 * (the configuration here). Four NOPs leave a cycle of margin.
 */
#define SYNCDELAY __asm__("nop\n\tnop\n\tnop\n\tnop")

#endif /* FX2REGS_H */
