# OpenOCD: a Digilent Artix-7 board's on-board USB JTAG (an FTDI FT2232H in MPSSE mode,
# Digilent's JTAG-SMT2 / HS1 design) and the FPGA's TAP, with the warpgate procedures
# (docs/jtag.md section 9). Sourced by the board files, which set first:
#   wg_ftdi_channel   the FT2232H channel wired to the FPGA's JTAG pins (0 = A, 1 = B)
#   wg_xc7_ids        the IDCODEs the board's FPGA may answer with
# On the FPGA the TAP is the XC7's own (IR 6 bits); the debug port's USER1 and USER2
# registers are its BSCANE2 user instructions (rtl/wg_jtag_bscan.sv), so warpgate.tcl's
# procedures take the tap xc7.tap. The GPU image (wg_xc7_top) must be loaded first.

adapter driver ftdi
ftdi vid_pid 0x0403 0x6010
ftdi channel $wg_ftdi_channel
# xDBUS0 TCK, 1 TDI, 2 TDO (input), 3 TMS: outputs 0x0b; xDBUS7 high (0x80 in value and
# direction) enables the JTAG buffer on Digilent's design. No TRST, no SRST.
ftdi layout_init 0x0088 0x008b
reset_config none
transport select jtag
# The FT2232H runs TCK up to 30 MHz; 10 MHz leaves margin on the board's wiring.
adapter speed 10000

# The top 4 bits of an IDCODE are the silicon revision.
set wg_expected {}
foreach id $wg_xc7_ids { lappend wg_expected -expected-id $id }
jtag newtap xc7 tap -irlen 6 -ignore-version {*}$wg_expected

# Configuration through the TAP: pld load 0 FILE.bit (volatile), virtex2 read_stat 0.
pld device virtex2 xc7.tap 1

source [file join [file dirname [info script]] warpgate.tcl]
