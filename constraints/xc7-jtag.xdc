## The GPU image's JTAG debug port on a Xilinx 7-series board (rtl/wg_jtag_bscan.sv; read by
## constraints/vivado-build.tcl for the top wg_xc7_top only, after xc7-common.xdc).
##
## TCK of the BSCANE2 user instructions: the FPGA's JTAG clock (the boards' FT2232H runs it at
## 10 MHz, constraints/openocd/; the primitive allows 66 MHz: constrained at 30 MHz here).
create_clock -name tck -period 33.333 [get_pins -of_objects \
    [get_cells -hierarchical -filter {REF_NAME == BSCANE2 && NAME =~ *u_user1}] -filter {REF_PIN_NAME == TCK}]
set_clock_groups -asynchronous -group [get_clocks tck] -group [get_clocks { clk100 ifclk }]

## wg_jtag_dtm crosses between TCK and IFCLK through wg_sync's two flip-flops, and the reset
## is released through wg_rst_sync's: each pair placed together.
set_property ASYNC_REG TRUE [get_cells -hierarchical -filter {NAME =~ */meta_q_reg* || NAME =~ */sync_q_reg*}]
