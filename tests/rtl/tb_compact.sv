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
  input  wire logic [31:0]     bits_i,
  output logic      [31:0]     slot_mask_o,
  output logic      [5:0]      passes_o,
  output logic      [159:0]    slot_thr_o,
  output logic      [31:0]     bits_o
);

  wg_compact #(.LANES(LANES)) u_dut (
    .en_i        (en_i),
    .half_i      (half_i),
    .mask_i      (mask_i),
    .bits_i      (bits_i),
    .slot_mask_o (slot_mask_o),
    .passes_o    (passes_o),
    .slot_thr_o  (slot_thr_o),
    .bits_o      (bits_o)
  );

  logic unused_clk;
  assign unused_clk = clk_i ^ rst_ni;

endmodule
