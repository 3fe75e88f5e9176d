// tb_decode: wg_decode (combinational) with the clock and reset the test harness drives,
// its uop cut into named outputs for tests/rtl/test_decode.cpp.
`default_nettype none

module tb_decode #(
  parameter bit HAS_FP  = 1'b1,
  parameter bit HAS_SFU = 1'b1
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic [63:0] word_i,
  input  wire logic [17:0] pc_i,
  input  wire logic [5:0]  regs_i,
  input  wire logic [17:0] rpc_i,
  output logic             illegal_o,
  output logic [1:0]       unit_o,
  output logic [3:0]       cls_o,
  output logic [5:0]       rf_a_o,
  output logic [5:0]       rf_b_o,
  output logic [5:0]       rf_c_o,
  output logic [2:0]       nwr_o,
  output logic             wr_pd_o,
  output logic             stop_o,
  output logic             adv_o,
  output logic [63:0]      rmask_o,
  output logic [7:0]       pmask_o
);

  wg_sm_pkg::uop_t u;

  wg_decode #(.HAS_FP(HAS_FP), .HAS_SFU(HAS_SFU)) u_decode (
    .word_i (word_i),
    .pc_i   (pc_i),
    .regs_i (regs_i),
    .rpc_i  (rpc_i),
    .uop_o  (u)
  );

  assign illegal_o = u.illegal;
  assign unit_o    = u.unit;
  assign cls_o     = u.cls;
  assign rf_a_o    = u.rf_a;
  assign rf_b_o    = u.rf_b;
  assign rf_c_o    = u.rf_c;
  assign nwr_o     = u.nwr;
  assign wr_pd_o   = u.wr_pd;
  assign stop_o    = u.stop;
  assign adv_o     = u.adv;
  assign rmask_o   = u.rmask;
  assign pmask_o   = u.pmask;

  logic unused_ok;
  assign unused_ok = ^{clk_i, rst_ni, u};

endmodule
