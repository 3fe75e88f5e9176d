// wg_sfu_pkg: constants and the shared output stage of the special-function
// unit (docs/sfu.md). pack() is host/src/sfu.c: wg_sfu_pack, bit for bit.
`default_nettype none

package wg_sfu_pkg;

  /* verilator lint_off UNUSEDPARAM */
  // MUFU functions (the mod field, host/src/isa.h enum wg_mufu).
  localparam logic [2:0] MUFU_RCP  = 3'd0;
  localparam logic [2:0] MUFU_RSQ  = 3'd1;
  localparam logic [2:0] MUFU_SQRT = 3'd2;
  localparam logic [2:0] MUFU_EX2  = 3'd3;
  localparam logic [2:0] MUFU_LG2  = 3'd4;
  localparam logic [2:0] MUFU_SIN  = 3'd5;
  localparam logic [2:0] MUFU_COS  = 3'd6;

  // Operations of the iterative unit (wg_sfu_iter).
  localparam logic [2:0] IT_FDIV  = 3'd0;
  localparam logic [2:0] IT_FSQRT = 3'd1;
  localparam logic [2:0] IT_IDIVS = 3'd2;
  localparam logic [2:0] IT_IDIVU = 3'd3;
  localparam logic [2:0] IT_IREMS = 3'd4;
  localparam logic [2:0] IT_IREMU = 3'd5;

  localparam logic [31:0] CANON_NAN = 32'h7FFF_FFFF;

  // Cycles from a group entering wg_sfu_mufu to its result.
  localparam int unsigned MUFU_LATENCY = 7;
  /* verilator lint_on UNUSEDPARAM */

  // The binary32 nearest to (-1)^sign x (v + s) x 2^k, ties to even, where s
  // is 0 without sticky and strictly between 0 and 1 with it; subnormals kept,
  // overflow to infinity.
  function automatic logic [31:0] pack(input logic sign, input logic [63:0] v,
                                       input logic signed [11:0] k, input logic sticky);
    int          n, b, sh;
    logic [63:0] mant, bx;
    logic        rnd, st;
    n = 0;
    for (int i = 0; i < 64; i++) begin
      if (v[i]) n = i;
    end
    b   = n + 32'(k) + 127;
    sh  = (b < 1) ? (-149 - 32'(k)) : (n - 23);
    rnd = 1'b0;
    st  = 1'b0;
    if (sh <= 0) begin
      mant = v << (-sh);
    end else if (sh > 64) begin
      mant = '0;
      st   = 1'b1;
    end else begin
      mant = (sh == 64) ? 64'd0 : (v >> sh);
      rnd  = v[sh-1];
      st   = (sh == 1) ? 1'b0 : ((v & ((64'd1 << (sh - 1)) - 64'd1)) != '0);
    end
    if (rnd && (st || sticky || mant[0])) mant = mant + 64'd1;
    bx = 64'(unsigned'(b));
    if (b >= 1) mant = mant + ((bx - 64'd1) << 23);
    if (v == '0) pack = {sign, 31'd0};
    else if (b >= 255 || mant >= 64'h7F80_0000) pack = {sign, 31'h7F80_0000};
    else pack = {sign, mant[30:0]};
  endfunction

endpackage
