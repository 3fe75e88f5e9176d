// tb_smem: wg_smem with the array wg_dmem on its bank port, for test_smem.cpp.
// The row port of wg_dmem is driven by the test (L1-style traffic that takes the banks
// away from wg_smem); the grants are brought out so the test can count denied passes.
`default_nettype none

module tb_smem #(
  parameter int unsigned DMEM_BYTES = 65536,
  parameter bit          HAS_FP     = 1'b1,
  parameter int unsigned LANES      = 32,
  // Derived: do not override.
  parameter int unsigned ROWS = DMEM_BYTES / 128,
  parameter int unsigned RW   = (ROWS > 1) ? $clog2(ROWS) : 1,
  parameter int unsigned OG_W = (LANES < 32) ? $clog2(32 / LANES) : 1
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,

  input  wire logic            in_valid_i,
  output logic                 in_ready_o,
  input  wire logic [1:0]      in_op_i,
  input  wire logic [2:0]      in_size_i,
  input  wire logic [31:0]     in_mask_i,
  input  wire logic [1023:0]   in_addr_i,
  input  wire logic [4095:0]   in_wdata_i,
  input  wire logic [3:0]      in_aop_i,
  input  wire logic [1023:0]   in_ab_i,
  input  wire logic [1023:0]   in_ac_i,
  output logic                 out_valid_o,
  input  wire logic [OG_W-1:0] out_grp_i,
  output logic [LANES*128-1:0] out_gdata_o,
  output logic      [5:0]      out_passes_o,

  input  wire logic            clr_valid_i,
  output logic                 clr_ready_o,
  input  wire logic [RW-1:0]   clr_row_i,

  input  wire logic            r_re_i,
  input  wire logic [RW-1:0]   r_rrow_i,
  input  wire logic            r_we_i,
  input  wire logic [RW-1:0]   r_wrow_i,
  input  wire logic [1023:0]   r_wdata_i,
  input  wire logic [127:0]    r_wbe_i,
  output logic      [1023:0]   rdata_o,

  output logic                 b_rgnt_o,
  output logic                 b_wgnt_o,
  output logic      [31:0]     b_re_o,
  output logic      [31:0]     b_we_o
);

  // The store data of the lane group wg_smem asks for (all 32 threads at 32 lanes).
  logic [OG_W-1:0]      wgrp;
  logic [LANES*128-1:0] wdata_grp;
  assign wdata_grp = in_wdata_i[32'(wgrp)*LANES*128 +: LANES*128];
  // The atomic operands of the thread wg_smem asks for (LANES < 32).
  logic [4:0] at_lane;

  logic [32*RW-1:0] b_rrow, b_wrow;
  logic [1023:0]    b_wdata;
  logic [127:0]     b_wbe;

  wg_smem #(.DMEM_BYTES(DMEM_BYTES), .HAS_FP(HAS_FP), .LANES(LANES)) u_smem (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .in_valid_i   (in_valid_i),
    .in_ready_o   (in_ready_o),
    .in_op_i      (in_op_i),
    .in_size_i    (in_size_i),
    .in_mask_i    (in_mask_i),
    .in_addr_i    (in_addr_i),
    .in_wgrp_o    (wgrp),
    .in_wdata_i   (wdata_grp),
    .in_aop_i     (in_aop_i),
    .in_ab_i      (in_ab_i),
    .in_ac_i      (in_ac_i),
    .at_lane_o    (at_lane),
    .at_b_i       (in_ab_i[32'(at_lane)*32 +: 32]),
    .at_c_i       (in_ac_i[32'(at_lane)*32 +: 32]),
    .out_valid_o  (out_valid_o),
    .out_grp_i    (out_grp_i),
    .out_gdata_o  (out_gdata_o),
    .out_passes_o (out_passes_o),
    .clr_valid_i  (clr_valid_i),
    .clr_ready_o  (clr_ready_o),
    .clr_row_i    (clr_row_i),
    .b_re_o       (b_re_o),
    .b_rrow_o     (b_rrow),
    .b_we_o       (b_we_o),
    .b_wrow_o     (b_wrow),
    .b_wdata_o    (b_wdata),
    .b_wbe_o      (b_wbe),
    .b_rgnt_i     (b_rgnt_o),
    .b_wgnt_i     (b_wgnt_o),
    .b_rdata_i    (rdata_o)
  );

  wg_dmem #(.DMEM_BYTES(DMEM_BYTES)) u_dmem (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .b_re_i    (b_re_o),
    .b_rrow_i  (b_rrow),
    .b_we_i    (b_we_o),
    .b_wrow_i  (b_wrow),
    .b_wdata_i (b_wdata),
    .b_wbe_i   (b_wbe),
    .b_rgnt_o  (b_rgnt_o),
    .b_wgnt_o  (b_wgnt_o),
    .r_re_i    (r_re_i),
    .r_rrow_i  (r_rrow_i),
    .r_we_i    (r_we_i),
    .r_wrow_i  (r_wrow_i),
    .r_wdata_i (r_wdata_i),
    .r_wbe_i   (r_wbe_i),
    .rdata_o   (rdata_o)
  );

endmodule
