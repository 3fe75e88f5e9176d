;
; vectors.asm: the 8051 reset and interrupt vectors of the FX2 and the INT2 (USB)
; jump table.
;
; With INTSETUP.AV2EN set the FX2 autovectors INT2: when the 8051 fetches the
; LJMP at 0x0043, the core puts INT2IVEC (the source's offset, a multiple of 4)
; in place of the byte at 0x0045, the low byte of the target. The target page
; therefore holds a table of 4-byte entries (LJMP + 1 pad byte) at a 256-byte
; boundary: wgf_int2_table at 0x0100 (firmware/Makefile starts C code at 0x0200).
; Sources that are never enabled go to wgf_isr_unused.
;
	.module vectors

	.globl _wgf_isr_sudav
	.globl _wgf_isr_ures
	.globl _wgf_isr_hsgrant
	.globl _wgf_isr_ep2
	.globl _wgf_isr_ep6
	.globl _wgf_isr_unused
	.globl wgf_int2_table
	.globl __sdcc_gsinit_startup

	.area FX2VECT (ABS,CODE)

	.org 0x0000             ; reset: sdcc's start-up (its own vector sits at
	ljmp __sdcc_gsinit_startup ; the start of HOME, CODE_LOC, not at 0)

	.org 0x0043             ; INT2: USB
	ljmp wgf_int2_table     ; low byte replaced by INT2IVEC
	.org 0x004B             ; INT3: I2C bus, not enabled
	reti
	.org 0x0053             ; INT4: FIFO / GPIF, not enabled
	reti

	.org 0x0100
wgf_int2_table:
	ljmp _wgf_isr_sudav     ; 0x00 SUDAV
	.db 0
	ljmp _wgf_isr_unused    ; 0x04 SOF
	.db 0
	ljmp _wgf_isr_unused    ; 0x08 SUTOK
	.db 0
	ljmp _wgf_isr_unused    ; 0x0C SUSPEND
	.db 0
	ljmp _wgf_isr_ures      ; 0x10 USBRESET
	.db 0
	ljmp _wgf_isr_hsgrant   ; 0x14 HISPEED
	.db 0
	ljmp _wgf_isr_unused    ; 0x18 EP0ACK
	.db 0
	ljmp _wgf_isr_unused    ; 0x1C reserved
	.db 0
	ljmp _wgf_isr_unused    ; 0x20 EP0IN
	.db 0
	ljmp _wgf_isr_unused    ; 0x24 EP0OUT
	.db 0
	ljmp _wgf_isr_unused    ; 0x28 EP1IN
	.db 0
	ljmp _wgf_isr_unused    ; 0x2C EP1OUT
	.db 0
	ljmp _wgf_isr_ep2       ; 0x30 EP2
	.db 0
	ljmp _wgf_isr_unused    ; 0x34 EP4
	.db 0
	ljmp _wgf_isr_ep6       ; 0x38 EP6
	.db 0
	ljmp _wgf_isr_unused    ; 0x3C EP8
	.db 0
	ljmp _wgf_isr_unused    ; 0x40 IBN
	.db 0
	ljmp _wgf_isr_unused    ; 0x44 reserved
	.db 0
	ljmp _wgf_isr_unused    ; 0x48 EP0PING
	.db 0
	ljmp _wgf_isr_unused    ; 0x4C EP1PING
	.db 0
	ljmp _wgf_isr_unused    ; 0x50 EP2PING
	.db 0
	ljmp _wgf_isr_unused    ; 0x54 EP4PING
	.db 0
	ljmp _wgf_isr_unused    ; 0x58 EP6PING
	.db 0
	ljmp _wgf_isr_unused    ; 0x5C EP8PING
	.db 0
	ljmp _wgf_isr_unused    ; 0x60 ERRLIMIT
	.db 0
	ljmp _wgf_isr_unused    ; 0x64 reserved
	.db 0
	ljmp _wgf_isr_unused    ; 0x68 reserved
	.db 0
	ljmp _wgf_isr_unused    ; 0x6C reserved
	.db 0
	ljmp _wgf_isr_unused    ; 0x70 EP2ISOERR
	.db 0
	ljmp _wgf_isr_unused    ; 0x74 EP4ISOERR
	.db 0
	ljmp _wgf_isr_unused    ; 0x78 EP6ISOERR
	.db 0
	ljmp _wgf_isr_unused    ; 0x7C EP8ISOERR
	.db 0
