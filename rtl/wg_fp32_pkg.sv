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

  // Leading zeros of a 64-bit word, 64 for zero. A balanced tree written as whole-word
  // operations: level l merges pairs of nodes into nodes of 2^l bits, node n keeping its
  // "holds a one" flag at bit n*2^l of any and its l-bit count at bits n*2^l + l-1 .. n*2^l
  // of cnt. Log depth in hardware; a few dozen instructions in Verilator.
  function automatic logic [6:0] fp32_lzc64(input logic [63:0] x);
    logic [63:0] any, cnt, a_hi, a_lo, c_hi, c_lo, sel;
    any  = x;
    // level 1: pairs of bits
    a_hi = (any >> 1) & 64'h5555_5555_5555_5555;
    a_lo = any & 64'h5555_5555_5555_5555;
    any  = a_hi | a_lo;
    cnt  = ~a_hi & 64'h5555_5555_5555_5555;
    // level 2
    a_hi = (any >> 2) & 64'h1111_1111_1111_1111;
    a_lo = any & 64'h1111_1111_1111_1111;
    c_hi = (cnt >> 2) & 64'h1111_1111_1111_1111;
    c_lo = cnt & 64'h1111_1111_1111_1111;
    sel  = a_hi | (a_hi << 1);
    any  = a_hi | a_lo;
    cnt  = (sel & c_hi) | (~sel & (c_lo | (64'h1111_1111_1111_1111 << 1)));
    // level 3
    a_hi = (any >> 4) & 64'h0101_0101_0101_0101;
    a_lo = any & 64'h0101_0101_0101_0101;
    c_hi = (cnt >> 4) & 64'h0303_0303_0303_0303;
    c_lo = cnt & 64'h0303_0303_0303_0303;
    sel  = a_hi | (a_hi << 1) | (a_hi << 2);
    any  = a_hi | a_lo;
    cnt  = (sel & c_hi) | (~sel & (c_lo | (64'h0101_0101_0101_0101 << 2)));
    // level 4
    a_hi = (any >> 8) & 64'h0001_0001_0001_0001;
    a_lo = any & 64'h0001_0001_0001_0001;
    c_hi = (cnt >> 8) & 64'h0007_0007_0007_0007;
    c_lo = cnt & 64'h0007_0007_0007_0007;
    sel  = a_hi | (a_hi << 1) | (a_hi << 2) | (a_hi << 3);
    any  = a_hi | a_lo;
    cnt  = (sel & c_hi) | (~sel & (c_lo | (64'h0001_0001_0001_0001 << 3)));
    // level 5
    a_hi = (any >> 16) & 64'h0000_0001_0000_0001;
    a_lo = any & 64'h0000_0001_0000_0001;
    c_hi = (cnt >> 16) & 64'h0000_000F_0000_000F;
    c_lo = cnt & 64'h0000_000F_0000_000F;
    sel  = a_hi | (a_hi << 1) | (a_hi << 2) | (a_hi << 3) | (a_hi << 4);
    any  = a_hi | a_lo;
    cnt  = (sel & c_hi) | (~sel & (c_lo | (64'h0000_0001_0000_0001 << 4)));
    // level 6
    a_hi = (any >> 32) & 64'h1;
    a_lo = any & 64'h1;
    c_hi = (cnt >> 32) & 64'h1F;
    c_lo = cnt & 64'h1F;
    sel  = a_hi | (a_hi << 1) | (a_hi << 2) | (a_hi << 3) | (a_hi << 4) | (a_hi << 5);
    any  = a_hi | a_lo;
    cnt  = (sel & c_hi) | (~sel & (c_lo | 64'h20));
    fp32_lzc64 = any[0] ? {1'b0, cnt[5:0]} : 7'd64;
  endfunction

  // Leading zeros of 24, 32 and 76 bits (the width for zero): the word is padded with
  // a one below it, which synthesis folds away.
  function automatic logic [4:0] fp32_lzc24(input logic [23:0] x);
    fp32_lzc24 = 5'(fp32_lzc64({x, 1'b1, 39'd0}));
  endfunction

  function automatic logic [5:0] fp32_lzc32(input logic [31:0] x);
    fp32_lzc32 = 6'(fp32_lzc64({x, 1'b1, 31'd0}));
  endfunction

  function automatic logic [6:0] fp32_lzc76(input logic [75:0] x);
    logic [6:0] hi, lo;
    hi = fp32_lzc64(x[75:12]);
    lo = fp32_lzc64({x[11:0], 1'b1, 51'd0});
    fp32_lzc76 = hi[6] ? 7'd64 + lo : hi;
  endfunction

endpackage
