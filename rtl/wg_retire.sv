// wg_retire: merges the retire streams of the schedulers' execution
// pipelines and of the LSU into the SM's retire port (docs/sm.md section 2.5),
// one beat per cycle, round robin. A stream whose beat waits holds its source
// (the execution pipelines stop dispatch on credits, the LSU its write-back).
`default_nettype none

module wg_retire #(
  parameter int unsigned N    = 3,
  parameter int unsigned RM_W = wg_sm_pkg::RMETA_W,
  // Derived: do not override.
  parameter int unsigned IDX_W = (N > 1) ? $clog2(N) : 1
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  input  wire logic [N-1:0]          in_valid_i,
  output logic      [N-1:0]          in_ready_o,
  input  wire logic [N*RM_W-1:0]     in_meta_i,
  input  wire logic [N*1024-1:0]     in_data_i,
  output logic                       out_valid_o,
  input  wire logic                  out_ready_i,
  output logic      [RM_W-1:0]       out_meta_o,
  output logic      [1023:0]         out_data_o
);

  logic [N-1:0]     gnt;
  logic [IDX_W-1:0] idx;

  wg_rr_arbiter #(.N(N)) u_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (in_valid_i),
    .lock_i  (1'b0),
    .ready_i (out_ready_i),
    .valid_o (out_valid_o),
    .gnt_o   (gnt),
    .idx_o   (idx)
  );

  assign in_ready_o = out_ready_i ? gnt : '0;
  assign out_meta_o = in_meta_i[idx*RM_W +: RM_W];
  assign out_data_o = in_data_i[idx*1024 +: 1024];

endmodule
