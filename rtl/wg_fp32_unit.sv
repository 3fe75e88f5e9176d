// Per-lane FP32 unit: FADD FSUB FMUL FFMA FMIN FMAX FSETP I2F F2I FRND (docs/isa.md
// section 7, docs/fp32.md). One operation per cycle, fixed latency
// wg_fp32_pkg::FP32_LATENCY = 4: an operation accepted with valid_i in cycle t is on
// result_o / pred_o with valid_o in cycle t+4. No backpressure.
//
// op_i takes wg_fp32_pkg::fp32_op_e values (the ISA opcode minus 24); mod_i is the ISA
// mod field: I2F 0 S32 / 1 U32, F2I unsigned | rounding << 1, FSETP the condition,
// FRND the rounding (0 RN, 1 RZ, 2 RM, 3 RP). pred_o is the FSETP predicate (0 for
// other operations); result_o of FSETP is the predicate zero-extended.
//
// FADD, FSUB, FMUL and FFMA take mod = rounding | ftz << 2 and use the fused
// multiply-add datapath: a*1.0 + b, a*1.0 + (-b), a*b + (-0) (a*b + (+0) in RM, where
// -0 would turn a +0 product into -0). All state is in pipeline registers.
module wg_fp32_unit (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,
  input  logic [3:0]  op_i,
  input  logic [2:0]  mod_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic        valid_o,
  output logic [31:0] result_o,
  output logic        pred_o
);

  localparam logic [31:0] One     = 32'h3F80_0000;
  localparam logic [31:0] NegZero = 32'h8000_0000;

  // Operand mapping onto the multiply-add.
  logic        is_fma;
  logic [31:0] fma_a, fma_b, fma_c;
  assign is_fma = (op_i == wg_fp32_pkg::FP32_FADD) || (op_i == wg_fp32_pkg::FP32_FSUB) ||
                  (op_i == wg_fp32_pkg::FP32_FMUL) || (op_i == wg_fp32_pkg::FP32_FFMA);
  always_comb begin
    fma_a = a_i;
    fma_b = b_i;
    fma_c = c_i;
    case (op_i)
      wg_fp32_pkg::FP32_FADD: begin
        fma_b = One;
        fma_c = b_i;
      end
      wg_fp32_pkg::FP32_FSUB: begin
        fma_b = One;
        fma_c = b_i ^ NegZero;
      end
      wg_fp32_pkg::FP32_FMUL: fma_c = (mod_i[1:0] == 2'd2) ? 32'd0 : NegZero;
      default: ;
    endcase
  end

  // Multiply-add: 4 register stages, registered result.
  logic        fma_valid;
  logic [31:0] fma_result;
  wg_fp32_fma u_fma (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (valid_i && is_fma),
    .a_i      (fma_a),
    .b_i      (fma_b),
    .c_i      (fma_c),
    .rm_i     (mod_i[1:0]),
    .ftz_i    (mod_i[2]),
    .valid_o  (fma_valid),
    .result_o (fma_result)
  );

  // Other operations: 2 register stages, then two delay stages to line up.
  logic [31:0] misc_result;
  logic        misc_pred;
  wg_fp32_misc u_misc (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (valid_i && !is_fma),
    .op_i     (op_i),
    .mod_i    (mod_i),
    .a_i      (a_i),
    .b_i      (b_i),
    .result_o (misc_result),
    .pred_o   (misc_pred)
  );

  // Valid bits of the other operations in stages 1..4.
  logic [4:1] misc_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) misc_q <= '0;
    else         misc_q <= {misc_q[3:1], valid_i && !is_fma};
  end

  logic [31:0] misc3_result_q, misc4_result_q;
  logic        misc3_pred_q, misc4_pred_q;
  always_ff @(posedge clk_i) begin
    if (misc_q[2]) begin
      misc3_result_q <= misc_result;
      misc3_pred_q   <= misc_pred;
    end
    if (misc_q[3]) begin
      misc4_result_q <= misc3_result_q;
      misc4_pred_q   <= misc3_pred_q;
    end
  end

  // At most one of the two pipelines holds the operation of a cycle.
  assign valid_o  = fma_valid || misc_q[4];
  assign result_o = misc_q[4] ? misc4_result_q : fma_result;
  assign pred_o   = misc_q[4] && misc4_pred_q;

  // The stage count above is the documented latency.
  if (wg_fp32_pkg::FP32_LATENCY != 4) begin : g_latency_check
    $error("wg_fp32_unit: the pipeline has 4 stages, FP32_LATENCY differs");
  end

`ifndef SYNTHESIS
  // Checked out of reset only: the registers power up random in simulation.
  always_comb begin
    if (rst_ni && valid_i) begin
      assert (op_i <= wg_fp32_pkg::FP32_FRND) else $error("wg_fp32_unit: bad op_i %0d", op_i);
    end
    if (rst_ni) begin
      assert (!(fma_valid && misc_q[4])) else $error("wg_fp32_unit: two results at once");
    end
  end
`endif

endmodule
