// Behavioural stand-in of wg_simd_unit for the SM tests (same ports and
// timing contract; sim/sm.mk uses it only when rtl/wg_simd_unit.sv is absent).
// All 32 lanes compute at once (wg_int_alu, wg_fp32_unit); the result is
// delayed to LATENCY = PASSES + FP32_LATENCY + 1 cycles; in_ready_o is low for
// PASSES - 1 cycles after each accepted instruction.
`default_nettype none

module wg_simd_unit #(
  parameter int unsigned SIMD_WIDTH = 16,
  parameter bit          HAS_FP     = 1,
  parameter int unsigned TAG_W      = 8
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  input  wire logic                  in_valid_i,
  output logic                       in_ready_o,
  input  wire logic [5:0]            in_op_i,
  input  wire logic [2:0]            in_mod_i,
  input  wire logic [TAG_W-1:0]      in_tag_i,
  input  wire logic [31:0]           in_exec_i,
  input  wire logic [1023:0]         in_a_i,
  input  wire logic [1023:0]         in_b_i,
  input  wire logic [1023:0]         in_c_i,
  input  wire logic [31:0]           in_psel_i,
  input  wire logic [SIMD_WIDTH-1:0] lane_en_i,
  output logic                       out_valid_o,
  output logic [TAG_W-1:0]           out_tag_o,
  output logic [1023:0]              out_data_o,
  output logic [31:0]                out_pred_o,
  output logic [31:0]                out_mask_o
);

  localparam int unsigned PASSES  = 32 / SIMD_WIDTH;
  localparam int unsigned FPL     = wg_fp32_pkg::FP32_LATENCY;
  localparam int unsigned LATENCY = PASSES + FPL + 1;
  localparam int unsigned D1      = LATENCY - FPL;   // delay after the FP result

  logic        fire;
  logic [31:0] busy_q;
  assign in_ready_o = (busy_q == 0);
  assign fire = in_valid_i && in_ready_o;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) busy_q <= '0;
    else if (fire) busy_q <= 32'(PASSES - 1);
    else if (busy_q != 0) busy_q <= busy_q - 1;
  end

  logic is_fp;
  assign is_fp = HAS_FP && in_op_i >= wg_isa_pkg::OP_FADD && in_op_i <= wg_isa_pkg::OP_FRND;

  logic [1023:0] ires, fres;
  logic [31:0]   ipred, fpred;
  logic [31:0]   fvalid;

  for (genvar l = 0; l < 32; l++) begin : g_lane
    wg_int_alu u_alu (
      .op_i     (in_op_i),
      .mod_i    (in_mod_i),
      .a_i      (in_a_i[l*32 +: 32]),
      .b_i      (in_b_i[l*32 +: 32]),
      .c_i      (in_c_i[l*32 +: 32]),
      .psel_i   (in_psel_i[l]),
      .result_o (ires[l*32 +: 32]),
      .pred_o   (ipred[l])
    );
    if (HAS_FP) begin : g_fp
      wg_fp32_unit u_fp (
        .clk_i    (clk_i),
        .rst_ni   (rst_ni),
        .valid_i  (fire && is_fp),
        .op_i     (4'(in_op_i - wg_isa_pkg::OP_FADD)),
        .mod_i    (in_mod_i),
        .a_i      (in_a_i[l*32 +: 32]),
        .b_i      (in_b_i[l*32 +: 32]),
        .c_i      (in_c_i[l*32 +: 32]),
        .valid_o  (fvalid[l]),
        .result_o (fres[l*32 +: 32]),
        .pred_o   (fpred[l])
      );
    end else begin : g_nofp
      assign fvalid[l] = 1'b0;
      assign fres[l*32 +: 32] = '0;
      assign fpred[l] = 1'b0;
    end
  end

  // Integer results: FPL-stage delay line, then the common tail.
  logic [1023:0] id_q [FPL];
  logic [31:0]   ip_q [FPL];
  logic [FPL-1:0] iv_q, fp_q;
  logic [TAG_W-1:0] t1_q [FPL];
  logic [31:0]   m1_q [FPL];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      iv_q <= '0;
      fp_q <= '0;
    end else begin
      iv_q <= {iv_q[FPL-2:0], fire};
      fp_q <= {fp_q[FPL-2:0], fire && is_fp};
    end
    id_q[0] <= ires;
    ip_q[0] <= ipred;
    t1_q[0] <= in_tag_i;
    m1_q[0] <= in_exec_i;
    for (int i = 1; i < int'(FPL); i++) begin
      id_q[i] <= id_q[i-1];
      ip_q[i] <= ip_q[i-1];
      t1_q[i] <= t1_q[i-1];
      m1_q[i] <= m1_q[i-1];
    end
  end

  logic [1023:0] mid_data;
  logic [31:0]   mid_pred;
  assign mid_data = fp_q[FPL-1] ? fres : id_q[FPL-1];
  assign mid_pred = fp_q[FPL-1] ? fpred : ip_q[FPL-1];

  logic [1023:0] od_q [D1];
  logic [31:0]   op_q [D1], om_q [D1];
  logic [TAG_W-1:0] ot_q [D1];
  logic [D1-1:0] ov_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) ov_q <= '0;
    else ov_q <= {ov_q[D1-2:0], iv_q[FPL-1]};
    od_q[0] <= mid_data;
    op_q[0] <= mid_pred;
    om_q[0] <= m1_q[FPL-1];
    ot_q[0] <= t1_q[FPL-1];
    for (int i = 1; i < int'(D1); i++) begin
      od_q[i] <= od_q[i-1];
      op_q[i] <= op_q[i-1];
      om_q[i] <= om_q[i-1];
      ot_q[i] <= ot_q[i-1];
    end
  end

  assign out_valid_o = ov_q[D1-1];
  assign out_data_o  = od_q[D1-1];
  assign out_pred_o  = op_q[D1-1];
  assign out_mask_o  = om_q[D1-1];
  assign out_tag_o   = ot_q[D1-1];

  logic unused_ok;
  assign unused_ok = ^{lane_en_i, fvalid};

endmodule
