// Types and constants of the per-lane FP32 unit (docs/fp32.md).
// Used as wg_fp32_pkg::name (no wildcard import: yosys 0.23 rejects it).
package wg_fp32_pkg;

  // Operation select (op_i of wg_fp32_unit): the ISA opcode minus 24 (host/src/isa.h).
  typedef enum logic [3:0] {
    FP32_FADD  = 4'd0,
    FP32_FSUB  = 4'd1,
    FP32_FMUL  = 4'd2,
    FP32_FFMA  = 4'd3,
    FP32_FMIN  = 4'd4,
    FP32_FMAX  = 4'd5,
    FP32_FSETP = 4'd6,
    FP32_I2F   = 4'd7,
    FP32_F2I   = 4'd8,
    FP32_FRND  = 4'd9
  } fp32_op_e;

  // Rounding modes: the mod of FRND, mod[2:1] of F2I.
  typedef enum logic [1:0] {
    FP32_RN = 2'd0,  // nearest, ties to even
    FP32_RZ = 2'd1,  // toward zero
    FP32_RM = 2'd2,  // toward minus infinity
    FP32_RP = 2'd3   // toward plus infinity
  } fp32_rm_e;

  // FSETP conditions (mod).
  typedef enum logic [2:0] {
    FP32_CC_EQ  = 3'd0,
    FP32_CC_NE  = 3'd1,
    FP32_CC_LT  = 3'd2,
    FP32_CC_LE  = 3'd3,
    FP32_CC_GT  = 3'd4,
    FP32_CC_GE  = 3'd5,
    FP32_CC_NUM = 3'd6,
    FP32_CC_NAN = 3'd7
  } fp32_cc_e;

  // Cycles from an operation accepted with valid_i to its result with valid_o.
  localparam int unsigned FP32_LATENCY = 4;

  // The one NaN every operation returns.
  localparam logic [31:0] FP32_QNAN = 32'h7FFF_FFFF;

  // Increment decision of a magnitude truncated at the rounding position:
  // lsb is the last kept bit, guard the first dropped one, sticky the OR of the rest.
  function automatic logic fp32_round_up(input logic [1:0] rm, input logic sign,
                                         input logic lsb, input logic guard,
                                         input logic sticky);
    // Literal labels: yosys 0.23 does not resolve the enum names inside the package.
    case (rm)
      2'd0:    fp32_round_up = guard & (sticky | lsb);   // FP32_RN
      2'd2:    fp32_round_up = sign & (guard | sticky);  // FP32_RM
      2'd3:    fp32_round_up = ~sign & (guard | sticky); // FP32_RP
      default: fp32_round_up = 1'b0;                     // FP32_RZ
    endcase
  endfunction

endpackage
