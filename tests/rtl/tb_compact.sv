// tb_compact: wg_compact (combinational) with the clock and reset ports the test harness
// (sim/harness.h) drives; test_compact.cpp checks it against a C reference model.
`default_nettype none

module tb_compact #(
  parameter int unsigned LANES = 16
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic            en_i,
  input  wire logic            half_i,
  input  wire logic [31:0]     mask_i,
  input  wire logic [3071:0]   rows_i,
  input  wire logic [31:0]     bits_i,
  output logic      [31:0]     slot_mask_o,
  output logic      [5:0]      passes_o,
  output logic      [3071:0]   rows_o,
  output logic      [31:0]     bits_o,
  input  wire logic            bwd_en_i,
  input  wire logic [31:0]     bwd_mask_i,
  input  wire logic [1023:0]   bwd_row_i,
  input  wire logic [31:0]     bwd_bits_i,
  output logic      [1023:0]   bwd_row_o,
  output logic      [31:0]     bwd_bits_o
);

  wg_compact #(.LANES(LANES), .NROWS(3)) u_dut (
    .en_i        (en_i),
    .half_i      (half_i),
    .mask_i      (mask_i),
    .rows_i      (rows_i),
    .bits_i      (bits_i),
    .slot_mask_o (slot_mask_o),
    .passes_o    (passes_o),
    .rows_o      (rows_o),
    .bits_o      (bits_o),
    .bwd_en_i    (bwd_en_i),
    .bwd_mask_i  (bwd_mask_i),
    .bwd_row_i   (bwd_row_i),
    .bwd_bits_i  (bwd_bits_i),
    .bwd_row_o   (bwd_row_o),
    .bwd_bits_o  (bwd_bits_o)
  );

  logic unused_clk;
  assign unused_clk = clk_i ^ rst_ni;

endmodule
