// wg_ice40_top: the iCE40 UP5K board top (iCEBreaker with the FX2LP module on its Pmods,
// constraints/ice40-up5k-icebreaker.pcf, docs/fpga.md). The SM does not fit an iCE40
// (docs/fpga.md section 3), so this top carries the FX2 bring-up loop-back (wg_fx2_loop)
// and status LEDs; its port names are the board's pin names of docs/fpga.md section 4.
//
// Clocks: the loop-back runs on IFCLK (48 MHz from the FX2); the board's 12 MHz clock only
// blinks the green LED (the bitstream is loaded and running). Reset: FX2 PA0 (FPGA_RST_N,
// a pull-up in the PCF: it floats until the FX2 firmware runs) and the button, both
// synchronised into the IFCLK domain; IFCLK only runs once the firmware has set the FX2 up.
`default_nettype none

module wg_ice40_top (
  input  wire logic       clk_i,          // 12 MHz board oscillator
  input  wire logic       btn_ni,         // user button, low when pressed: reset

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

  output logic            led_r_no,       // red: a byte moved (stretched)
  output logic            led_g_no        // green: blinks at about 1.4 Hz on the 12 MHz clock
);

  // Reset in the IFCLK domain: released two edges after both sources are high.
  logic       rst_async_n, rst_n;
  logic [1:0] rst_sync_q;
  assign rst_async_n = fx2_rst_ni && btn_ni;
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

  // Red LED: on for 2^20 IFCLK cycles (about 22 ms) after a byte moved.
  logic [19:0] act_q;
  always_ff @(posedge fx2_ifclk_i) begin
    if (!rst_n) act_q <= '0;
    else if (rx || tx) act_q <= '1;
    else if (act_q != '0) act_q <= act_q - 20'd1;
  end
  assign led_r_no = (act_q == '0);

  // Green LED: bit 22 of a free-running counter of the board clock.
  logic [22:0] beat_q = '0;
  always_ff @(posedge clk_i) beat_q <= beat_q + 23'd1;
  assign led_g_no = beat_q[22];

endmodule
