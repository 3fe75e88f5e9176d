// wg_jtag_bscan: the JTAG debug port on a Xilinx 7-series FPGA (wg_board_top with
// JTAG_BSCAN, the GPU image wg_xc7_top of the Nexys Video and Arty A7), where the TAP
// is the FPGA's own (IR 6 bits, reached through the on-board FT2232H) and no fabric
// logic can add a TAP of its own. Its user
// instructions USER1 (0x02) and USER2 (0x03) reach the fabric through BSCANE2
// primitives (JTAG_CHAIN 1 and 2); wg_jtag_dtm sits behind them exactly as it
// sits behind wg_jtag_tap in simulation, so the register-window side (the
// register bus on clk_i, the status bits) is the same, and so are the OpenOCD
// procedures (constraints/openocd/warpgate.tcl, with tap xc7.tap).
// IDCODE and BYPASS are the FPGA's (0x13631093 on an XC7A100T, 0x13636093 on an
// XC7A200T: the top 4 bits are the silicon revision).
//
// BSCANE2 timing relied on (UG470, docs/jtag.md section 9): TCK is the JTAG
// clock; SEL is high while the instruction is this instance's USERn; CAPTURE,
// SHIFT and UPDATE are the TAP's Capture-DR, Shift-DR and Update-DR states,
// valid at the rising edge of TCK (UPDATE is asserted from the falling edge in
// Update-DR, so the rising edge that leaves Update-DR sees it); the TAP
// samples TDO itself on the falling edge. All instances share TCK, TDI,
// CAPTURE, SHIFT and UPDATE; instance 1's are used.
// The board's constraints must declare TCK a clock (the FPGA's JTAG clock, up to
// 66 MHz) asynchronous to clk_i and mark the synchroniser flip-flops ASYNC_REG.
`default_nettype none

module wg_jtag_bscan (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  output logic                           req_valid_o,
  input  wire logic                      req_ready_i,
  output logic                           req_write_o,
  output logic [wg_jtag_pkg::ADDR_W-1:0] req_addr_o,
  output logic [wg_jtag_pkg::DATA_W-1:0] req_wdata_o,
  input  wire logic                      rsp_valid_i,
  output logic                           rsp_ready_o,
  input  wire logic [wg_jtag_pkg::DATA_W-1:0] rsp_rdata_i,
  input  wire logic                      rsp_err_i,
  input  wire logic [wg_jtag_pkg::SYS_STATUS_W-1:0] status_i
);

  logic tck, tdi, capture, shift, update, sel1, sel2, tdo1, tdo2;
  logic unused_drck1, unused_reset1, unused_runtest1, unused_tms1;
  logic unused_cap2, unused_drck2, unused_reset2, unused_runtest2, unused_shift2;
  logic unused_tck2, unused_tdi2, unused_tms2, unused_update2;

  BSCANE2 #(.JTAG_CHAIN(1)) u_user1 (
    .CAPTURE (capture),
    .DRCK    (unused_drck1),
    .RESET   (unused_reset1),
    .RUNTEST (unused_runtest1),
    .SEL     (sel1),
    .SHIFT   (shift),
    .TCK     (tck),
    .TDI     (tdi),
    .TMS     (unused_tms1),
    .UPDATE  (update),
    .TDO     (tdo1)
  );

  BSCANE2 #(.JTAG_CHAIN(2)) u_user2 (
    .CAPTURE (unused_cap2),
    .DRCK    (unused_drck2),
    .RESET   (unused_reset2),
    .RUNTEST (unused_runtest2),
    .SEL     (sel2),
    .SHIFT   (unused_shift2),
    .TCK     (unused_tck2),
    .TDI     (unused_tdi2),
    .TMS     (unused_tms2),
    .UPDATE  (unused_update2),
    .TDO     (tdo2)
  );

  wg_jtag_dtm u_dtm (
    .tck_i       (tck),
    .tdi_i       (tdi),
    .capture_i   (capture),
    .shift_i     (shift),
    .update_i    (update),
    .sel1_i      (sel1),
    .sel2_i      (sel2),
    .tdo1_o      (tdo1),
    .tdo2_o      (tdo2),
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_o (req_valid_o),
    .req_ready_i (req_ready_i),
    .req_write_o (req_write_o),
    .req_addr_o  (req_addr_o),
    .req_wdata_o (req_wdata_o),
    .rsp_valid_i (rsp_valid_i),
    .rsp_ready_o (rsp_ready_o),
    .rsp_rdata_i (rsp_rdata_i),
    .rsp_err_i   (rsp_err_i),
    .status_i    (status_i)
  );

endmodule
