// wg_arty_loop_top: the bring-up image of the Xilinx boards (docs/fpga.md section 8; named
// after the first of them, the Arty A7, it builds for the Nexys Video as well): the FX2
// loop-back (wg_fx2_loop) behind the same ports and pins as the GPU's image wg_xc7_top
// (constraints/arty-a7-100t.xdc, constraints/nexys-video.xdc), so the wiring, the FX2
// firmware and the host's USB path can be checked before the GPU bitstream is loaded: `make
// fpga-arty FPGA_XC7_TOP=wg_arty_loop_top` (or fpga-nexysv). LEDs: 0 IFCLK runs (blinks), 1
// FX2 reset released, 2 a byte moved (stretched), 3 the 100 MHz clock runs (blinks).
`default_nettype none

module wg_arty_loop_top (
  input  wire logic       clk_i,          // 100 MHz
  input  wire logic       rst_ni,         // RESET button, low when pressed

  input  wire logic       fx2_ifclk_i,
  inout  wire logic [7:0] fx2_fd_io,
  input  wire logic       fx2_flaga_ni,   // EP2 empty
  input  wire logic       fx2_flagb_ni,   // EP6 full
  output logic            fx2_slrd_no,
  output logic            fx2_slwr_no,
  output logic            fx2_sloe_no,
  output logic            fx2_pktend_no,
  output logic      [1:0] fx2_fifoadr_o,
  input  wire logic       fx2_rst_ni,     // FX2 PA0

  output logic      [3:0] led_o
);

  logic       rst_async_n, rst_n;
  logic [1:0] rst_sync_q;
  assign rst_async_n = fx2_rst_ni && rst_ni;
  always_ff @(posedge fx2_ifclk_i) rst_sync_q <= {rst_sync_q[0], rst_async_n};
  assign rst_n = rst_sync_q[1];

  logic [7:0] fd_in, fd_out;
  logic       fd_oe, rx, tx;

  assign fx2_fd_io = fd_oe ? fd_out : 8'bzzzz_zzzz;
  assign fd_in     = fx2_fd_io;

  wg_fx2_loop u_loop (
    .clk_i     (fx2_ifclk_i),
    .rst_ni    (rst_n),
    .flaga_ni  (fx2_flaga_ni),
    .flagb_ni  (fx2_flagb_ni),
    .fd_i      (fd_in),
    .fd_o      (fd_out),
    .fd_oe_o   (fd_oe),
    .slrd_no   (fx2_slrd_no),
    .slwr_no   (fx2_slwr_no),
    .sloe_no   (fx2_sloe_no),
    .pktend_no (fx2_pktend_no),
    .fifoadr_o (fx2_fifoadr_o),
    .rx_o      (rx),
    .tx_o      (tx)
  );

  logic [24:0] ifc_q, act_q;
  logic [26:0] sys_q;
  always_ff @(posedge fx2_ifclk_i) begin
    ifc_q <= ifc_q + 25'd1;
    if (!rst_n) act_q <= '0;
    else if (rx || tx) act_q <= '1;
    else if (act_q != '0) act_q <= act_q - 25'd1;
  end
  always_ff @(posedge clk_i) sys_q <= sys_q + 27'd1;

  assign led_o = {sys_q[26], act_q != '0, rst_n, ifc_q[24]};

endmodule
