## Digilent Nexys Video (XC7A200T-1SBG484C) with the FX2LP module on Pmods JB, JC and JA
## (docs/fpga.md section 4): the board that holds the `nexysv` SM (configs/boards.mk). Tops:
## rtl/wg_xc7_top.sv (the GPU) and rtl/wg_arty_loop_top.sv (the FX2 loop-back), with the
## port names of constraints/arty-a7-100t.xdc and the same grouping of the FX2's signals on
## the headers (make xdc-test checks the names); the JTAG debug port is the FPGA's own TAP
## through BSCANE2: no pins. Pin sites from Digilent's master XDC of the board (Rev. A);
## the Pmods JA, JB and JC are 3.3 V banks (14 and 34), so every FX2 signal is 3.3 V LVCMOS.
## Clocks and the FX2 interface's timing: xc7-common.xdc and xc7-jtag.xdc (constraints/vivado-build.tcl).

## Configuration bank voltage (bank 0 at 3.3 V, as on Digilent's other Artix-7 boards).
set_property CONFIG_VOLTAGE 3.3 [current_design]
set_property CFGBVS VCCO [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]

## 100 MHz oscillator (IO_L13P_T2_MRCC_34).
set_property -dict { PACKAGE_PIN R4  IOSTANDARD LVCMOS33 } [get_ports { clk_i }]

## Reset: the CPU RESET button (cpu_resetn, bank 35 at 1.5 V), low when pressed.
set_property -dict { PACKAGE_PIN G4  IOSTANDARD LVCMOS15 } [get_ports { rst_ni }]

## LEDs LD0..LD3 (bank 13 at 2.5 V; high = on).
set_property -dict { PACKAGE_PIN T14 IOSTANDARD LVCMOS25 } [get_ports { led_o[0] }]
set_property -dict { PACKAGE_PIN T15 IOSTANDARD LVCMOS25 } [get_ports { led_o[1] }]
set_property -dict { PACKAGE_PIN T16 IOSTANDARD LVCMOS25 } [get_ports { led_o[2] }]
set_property -dict { PACKAGE_PIN U16 IOSTANDARD LVCMOS25 } [get_ports { led_o[3] }]

## Pmod JB (pairs, bank 34): clock, flags, strobes, reset.
## No Pmod pin of this board is clock-capable (MRCC/SRCC): IFCLK on JB3 (V7, IO_L19P_T3_34)
## reaches its global buffer over general routing. At 48 MHz that costs a few ns of clock
## insertion delay, which the timing report of the FX2 interface (xc7-common.xdc) shows.
set_property -dict { PACKAGE_PIN V7  IOSTANDARD LVCMOS33 } [get_ports { fx2_ifclk_i }]
## (The net is the input buffer's output, which Vivado names after the port.)
set_property CLOCK_DEDICATED_ROUTE FALSE [get_nets fx2_ifclk_i_IBUF]
set_property -dict { PACKAGE_PIN V9  IOSTANDARD LVCMOS33 } [get_ports { fx2_flaga_ni }]
set_property -dict { PACKAGE_PIN V8  IOSTANDARD LVCMOS33 } [get_ports { fx2_flagb_ni }]
set_property -dict { PACKAGE_PIN W7  IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_slrd_no }]
set_property -dict { PACKAGE_PIN W9  IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_slwr_no }]
set_property -dict { PACKAGE_PIN Y9  IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_sloe_no }]
set_property -dict { PACKAGE_PIN Y8  IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_pktend_no }]
## FX2 PA0 floats until the firmware runs: pulled up here (held in reset only when driven low).
set_property -dict { PACKAGE_PIN Y7  IOSTANDARD LVCMOS33 PULLUP TRUE } [get_ports { fx2_rst_ni }]

## Pmod JC (pairs, bank 34): the FIFO data bus FD[7:0] (FX2 PB[7:0]).
set_property -dict { PACKAGE_PIN Y6  IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[0] }]
set_property -dict { PACKAGE_PIN AA6 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[1] }]
set_property -dict { PACKAGE_PIN AA8 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[2] }]
set_property -dict { PACKAGE_PIN AB8 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[3] }]
set_property -dict { PACKAGE_PIN R6  IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[4] }]
set_property -dict { PACKAGE_PIN T6  IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[5] }]
set_property -dict { PACKAGE_PIN AB7 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[6] }]
set_property -dict { PACKAGE_PIN AB6 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[7] }]

## Pmod JA (bank 14): FIFO address (changes only between bursts). JA3 (AB20) is a
## configuration pin (DOUT/CSO_B) and stays free.
set_property -dict { PACKAGE_PIN AB22 IOSTANDARD LVCMOS33 } [get_ports { fx2_fifoadr_o[0] }]
set_property -dict { PACKAGE_PIN AB21 IOSTANDARD LVCMOS33 } [get_ports { fx2_fifoadr_o[1] }]
