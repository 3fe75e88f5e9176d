## Digilent Arty A7-100T (XC7A100T-1CSG324C) with the FX2LP module on Pmods JB, JC and JD
## (docs/fpga.md section 4). Tops: rtl/wg_xc7_top.sv (the GPU) and rtl/wg_arty_loop_top.sv
## (the FX2 loop-back), whose port names are those below (docs/fpga.md section 4 lists them;
## make xdc-test checks them); the JTAG debug port is the FPGA's own TAP through BSCANE2
## (rtl/wg_jtag_bscan.sv): no pins. Pin sites from the board's schematic / master XDC; every
## FX2 signal is 3.3 V LVCMOS on both sides. Clocks and the FX2 interface's timing are the
## boards' common constraints (xc7-common.xdc, xc7-jtag.xdc; constraints/vivado-build.tcl).

## Configuration bank voltage (the board's bank 0 is at 3.3 V).
set_property CONFIG_VOLTAGE 3.3 [current_design]
set_property CFGBVS VCCO [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]

## 100 MHz oscillator.
set_property -dict { PACKAGE_PIN E3  IOSTANDARD LVCMOS33 } [get_ports { clk_i }]

## Reset: the red RESET button (ck_rst), low when pressed.
set_property -dict { PACKAGE_PIN C2  IOSTANDARD LVCMOS33 } [get_ports { rst_ni }]

## LEDs LD4..LD7 (high = on).
set_property -dict { PACKAGE_PIN H5  IOSTANDARD LVCMOS33 } [get_ports { led_o[0] }]
set_property -dict { PACKAGE_PIN J5  IOSTANDARD LVCMOS33 } [get_ports { led_o[1] }]
set_property -dict { PACKAGE_PIN T9  IOSTANDARD LVCMOS33 } [get_ports { led_o[2] }]
set_property -dict { PACKAGE_PIN T10 IOSTANDARD LVCMOS33 } [get_ports { led_o[3] }]

## Pmod JB (high-speed, bank 15): clock, flags, strobes, reset.
## IFCLK on JB3 (D15, IO_L12P_T1_MRCC_15): a clock-capable pin, so it reaches a BUFG directly.
set_property -dict { PACKAGE_PIN D15 IOSTANDARD LVCMOS33 } [get_ports { fx2_ifclk_i }]
set_property -dict { PACKAGE_PIN E15 IOSTANDARD LVCMOS33 } [get_ports { fx2_flaga_ni }]
set_property -dict { PACKAGE_PIN E16 IOSTANDARD LVCMOS33 } [get_ports { fx2_flagb_ni }]
set_property -dict { PACKAGE_PIN C15 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_slrd_no }]
set_property -dict { PACKAGE_PIN J17 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_slwr_no }]
set_property -dict { PACKAGE_PIN J18 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_sloe_no }]
set_property -dict { PACKAGE_PIN K15 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_pktend_no }]
## FX2 PA0 floats until the firmware runs: pulled up here (held in reset only when driven low).
set_property -dict { PACKAGE_PIN J15 IOSTANDARD LVCMOS33 PULLUP TRUE } [get_ports { fx2_rst_ni }]

## Pmod JC (high-speed, bank 14): the FIFO data bus FD[7:0] (FX2 PB[7:0]).
set_property -dict { PACKAGE_PIN U12 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[0] }]
set_property -dict { PACKAGE_PIN V12 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[1] }]
set_property -dict { PACKAGE_PIN V10 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[2] }]
set_property -dict { PACKAGE_PIN V11 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[3] }]
set_property -dict { PACKAGE_PIN U14 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[4] }]
set_property -dict { PACKAGE_PIN V14 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[5] }]
set_property -dict { PACKAGE_PIN T13 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[6] }]
set_property -dict { PACKAGE_PIN U13 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 8 } [get_ports { fx2_fd_io[7] }]

## Pmod JD (standard, bank 35): FIFO address (changes only between bursts).
set_property -dict { PACKAGE_PIN D4  IOSTANDARD LVCMOS33 } [get_ports { fx2_fifoadr_o[0] }]
set_property -dict { PACKAGE_PIN D3  IOSTANDARD LVCMOS33 } [get_ports { fx2_fifoadr_o[1] }]
