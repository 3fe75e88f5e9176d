## Constraints common to the Xilinx 7-series boards (docs/fpga.md section 4): the two clocks
## and the FX2 interface's timing, the same on every board because the ports and the FX2 are.
## constraints/vivado-build.tcl reads this file before synthesis, the board's pins after it.

## The board's 100 MHz oscillator (used by the loop-back image's LED only) and IFCLK, the
## FX2's 48 MHz interface clock (the GPU image's system clock).
create_clock -name clk100 -period 10.000 -waveform {0 5} [get_ports { clk_i }]
create_clock -name ifclk -period 20.833 -waveform {0 10.416} [get_ports { fx2_ifclk_i }]

## The two clocks are unrelated; the tops cross between them through their own
## synchronisers.
set_clock_groups -asynchronous -group [get_clocks clk100] -group [get_clocks ifclk]

## FX2 interface timing: a budget, half of the 20.8 ns IFCLK period on each side of the
## wires (FX2 clock-to-out plus board delay on inputs; FX2 setup plus board delay on
## outputs). Check it against the CY7C68013A data sheet's synchronous slave-FIFO table
## (IFCLK sourced by the FX2) before relying on a tight design. The FPGA side registers
## these signals in the IOBs.
set fx2_in  [get_ports { fx2_flaga_ni fx2_flagb_ni fx2_fd_io[*] }]
set fx2_out [get_ports { fx2_slrd_no fx2_slwr_no fx2_sloe_no fx2_pktend_no fx2_fifoadr_o[*] fx2_fd_io[*] }]
set_input_delay  -clock ifclk -max 10.4 $fx2_in
set_input_delay  -clock ifclk -min 0.0  $fx2_in
set_output_delay -clock ifclk -max 10.4 $fx2_out
set_output_delay -clock ifclk -min 0.0  $fx2_out

## Resets and LEDs are asynchronous to everything.
set_false_path -from [get_ports { rst_ni fx2_rst_ni }]
set_false_path -to   [get_ports { led_o[*] }]
