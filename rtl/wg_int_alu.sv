// wg_int_alu: the per-lane integer ALU of the SIMD unit (docs/simd-unit.md).
//
// Purely combinational. Implements the integer operations of docs/isa.md section 7
// exactly, selected by the ISA opcode op_i (wg_isa_pkg::OP_*) and its modifier mod_i:
//   MOV (b), IADD, ISUB, IMUL / IMAD (mod 0 low word, 1 HI.S32, 2 HI.U32; IMAD adds c),
//   IMIN / IMAX (mod 0 .S32, 1 .U32), IABS, AND, OR, XOR, NOT, SHL, SHR (mod 0 .U32,
//   1 .S32), POPC, CLZ, BREV, SEL (psel_i ? a : b), ISETP (signed) / ISETPU (unsigned)
//   with the condition in mod_i (0 EQ, 1 NE, 2 LT, 3 LE, 4 GT, 5 GE; 6, 7 give false).
// ISETP and ISETPU drive pred_o and return the predicate zero-extended on result_o
// (as wg_fp32_unit does for FSETP). pred_o is 0 for every other opcode. Opcodes that
// are not integer ALU operations (NOP, PLOP, FP, memory, control) give result_o = 0.
//
// The datapath is shared so that a lane stays small (it is replicated SIMD_WIDTH
// times per SIMD unit):
//   - one 33 x 33 signed multiplier, written as a plain `*` so that synthesis maps it
//     to DSP blocks: operands sign-extended for mod 1 (HI.S32), zero-extended
//     otherwise; the low word and both high words come from the one 64-bit product;
//   - one 32-bit adder with carry in and out: IADD, ISUB, IABS (a ^ s) + s, IMUL
//     (product + 0), IMAD (product + c), and a - b for IMIN, IMAX and ISETP(U),
//     whose "less than" is the missing carry out (signed compares flip both sign bits);
//   - one 33-bit arithmetic right shifter of {fill, x}: SHR.U32 (fill 0), SHR.S32
//     (fill = sign), SHL as the reversal of a right shift of the reversed a, and BREV
//     as the reversal of an unshifted a;
//   - a bitwise unit that applies a 4-entry truth table to each bit pair (a[i], b[i]):
//     MOV, AND, OR, XOR, NOT, and the "a or b" selections of SEL, IMIN and IMAX. Its
//     all-zero table gives the 0 result of non-ALU opcodes.
`default_nettype none

module wg_int_alu (
  input  wire logic [5:0]  op_i,
  input  wire logic [2:0]  mod_i,
  input  wire logic [31:0] a_i,
  input  wire logic [31:0] b_i,
  input  wire logic [31:0] c_i,
  input  wire logic        psel_i,
  output logic      [31:0] result_o,
  output logic             pred_o
);

  // Bit reversal by swapping ever smaller halves: wiring in hardware, a few word
  // operations in Verilator.
  function automatic logic [31:0] brev32(input logic [31:0] x);
    logic [31:0] v;
    v = {x[15:0], x[31:16]};
    v = ((v >> 8) & 32'h00FF_00FF) | ((v & 32'h00FF_00FF) << 8);
    v = ((v >> 4) & 32'h0F0F_0F0F) | ((v & 32'h0F0F_0F0F) << 4);
    v = ((v >> 2) & 32'h3333_3333) | ((v & 32'h3333_3333) << 2);
    v = ((v >> 1) & 32'h5555_5555) | ((v & 32'h5555_5555) << 1);
    brev32 = v;
  endfunction

  // Leading zeros by halving; 32 for zero.
  function automatic logic [5:0] clz32(input logic [31:0] x);
    logic [31:0] v;
    logic [4:0]  n;
    v    = x;
    n[4] = (v[31:16] == 16'd0);
    v    = n[4] ? {v[15:0], 16'd0} : v;
    n[3] = (v[31:24] == 8'd0);
    v    = n[3] ? {v[23:0], 8'd0} : v;
    n[2] = (v[31:28] == 4'd0);
    v    = n[2] ? {v[27:0], 4'd0} : v;
    n[1] = (v[31:30] == 2'd0);
    v    = n[1] ? {v[29:0], 2'd0} : v;
    n[0] = !v[31];
    clz32 = (x == 32'd0) ? 6'd32 : {1'b0, n};
  endfunction

  // ---- Operation decode ---------------------------------------------------------
  logic is_imin, is_imax, is_isetp, is_isetpu, is_cmp, cmp_signed;

  assign is_imin    = (op_i == wg_isa_pkg::OP_IMIN);
  assign is_imax    = (op_i == wg_isa_pkg::OP_IMAX);
  assign is_isetp   = (op_i == wg_isa_pkg::OP_ISETP);
  assign is_isetpu  = (op_i == wg_isa_pkg::OP_ISETPU);
  assign is_cmp     = is_imin || is_imax || is_isetp || is_isetpu;
  // ISETP, IMIN.S32 and IMAX.S32 (mod 0) compare signed.
  assign cmp_signed = is_isetp || ((is_imin || is_imax) && !mod_i[0]);

  // ---- Multiplier -----------------------------------------------------------------
  // The 64-bit context keeps the whole product (a 33 x 33 product of 32-bit values,
  // signed or unsigned, fits in 64 bits).
  logic               mul_signed;
  logic signed [32:0] mul_a, mul_b;
  logic signed [63:0] mul_p;
  logic        [31:0] mul_sel;

  assign mul_signed = (mod_i == 3'd1);
  assign mul_a      = signed'({mul_signed & a_i[31], a_i});
  assign mul_b      = signed'({mul_signed & b_i[31], b_i});
  assign mul_p      = mul_a * mul_b;
  assign mul_sel    = (mod_i == 3'd0) ? mul_p[31:0] : mul_p[63:32];

  // ---- Adder ------------------------------------------------------------------------
  logic [31:0] add_x, add_y, sum;
  logic        add_ci, add_co;

  always_comb begin
    add_x  = a_i;
    add_y  = 32'd0;
    add_ci = 1'b0;
    if (is_cmp) begin
      // a - b; for signed compares both sign bits flipped (offset binary)
      add_x  = a_i ^ {cmp_signed, 31'd0};
      add_y  = ~b_i ^ {cmp_signed, 31'd0};
      add_ci = 1'b1;
    end else begin
      case (op_i)
        wg_isa_pkg::OP_IADD: add_y = b_i;
        wg_isa_pkg::OP_ISUB: begin
          add_y  = ~b_i;
          add_ci = 1'b1;
        end
        wg_isa_pkg::OP_IABS: begin
          // negative a: ~a + 1; 0x80000000 stays 0x80000000
          add_x  = a_i ^ {32{a_i[31]}};
          add_ci = a_i[31];
        end
        wg_isa_pkg::OP_IMUL: add_x = mul_sel;
        wg_isa_pkg::OP_IMAD: begin
          add_x = mul_sel;
          add_y = c_i;
        end
        default: ;
      endcase
    end
  end

  assign {add_co, sum} = {1'b0, add_x} + {1'b0, add_y} + {32'd0, add_ci};

  // ---- Compare --------------------------------------------------------------------
  logic lt, eq, setp;

  assign lt = !add_co;      // a - b borrowed
  assign eq = (a_i == b_i);

  always_comb begin
    case (mod_i)
      3'd0:    setp = eq;           // EQ
      3'd1:    setp = !eq;          // NE
      3'd2:    setp = lt;           // LT
      3'd3:    setp = lt || eq;     // LE
      3'd4:    setp = !(lt || eq);  // GT
      3'd5:    setp = !lt;          // GE
      default: setp = 1'b0;         // not an ISA condition
    endcase
  end

  // ---- Shifter --------------------------------------------------------------------
  // An amount of 32 or more (any of b[31:5] set) shifts everything out: SHL and
  // SHR.U32 give 0, SHR.S32 the sign fill.
  logic        is_shl, is_brev, sh_big, sh_fill;
  logic [4:0]  sh_amt;
  logic [31:0] sh_x, sh_r;

  assign is_shl  = (op_i == wg_isa_pkg::OP_SHL);
  assign is_brev = (op_i == wg_isa_pkg::OP_BREV);
  assign sh_x    = is_shl ? brev32(a_i) : a_i;
  assign sh_amt  = is_brev ? 5'd0 : b_i[4:0];
  assign sh_big  = !is_brev && (|b_i[31:5]);
  assign sh_fill = (op_i == wg_isa_pkg::OP_SHR) && mod_i[0] && a_i[31];
  assign sh_r    = sh_big ? {32{sh_fill}} : 32'(signed'({sh_fill, sh_x}) >>> sh_amt);

  // ---- Bitwise unit -----------------------------------------------------------------
  // tt[{a[i], b[i]}] is result bit i.
  localparam logic [3:0] TtA    = 4'b1100;
  localparam logic [3:0] TtB    = 4'b1010;
  localparam logic [3:0] TtAnd  = 4'b1000;
  localparam logic [3:0] TtOr   = 4'b1110;
  localparam logic [3:0] TtXor  = 4'b0110;
  localparam logic [3:0] TtNotA = 4'b0011;

  logic [3:0]  tt;
  logic [31:0] bit_res;

  always_comb begin
    case (op_i)
      wg_isa_pkg::OP_MOV:  tt = TtB;
      wg_isa_pkg::OP_AND:  tt = TtAnd;
      wg_isa_pkg::OP_OR:   tt = TtOr;
      wg_isa_pkg::OP_XOR:  tt = TtXor;
      wg_isa_pkg::OP_NOT:  tt = TtNotA;
      wg_isa_pkg::OP_SEL:  tt = psel_i ? TtA : TtB;
      wg_isa_pkg::OP_IMIN: tt = lt ? TtA : TtB;   // a < b ? a : b
      wg_isa_pkg::OP_IMAX: tt = lt ? TtB : TtA;   // a < b ? b : a
      default:             tt = 4'b0000;
    endcase
  end

  assign bit_res = ({32{tt[3]}} &  a_i &  b_i) | ({32{tt[2]}} &  a_i & ~b_i) |
                   ({32{tt[1]}} & ~a_i &  b_i) | ({32{tt[0]}} & ~a_i & ~b_i);

  // ---- Result select ----------------------------------------------------------------
  always_comb begin
    result_o = bit_res;
    pred_o   = 1'b0;
    case (op_i)
      wg_isa_pkg::OP_IADD,
      wg_isa_pkg::OP_ISUB,
      wg_isa_pkg::OP_IMUL,
      wg_isa_pkg::OP_IMAD,
      wg_isa_pkg::OP_IABS:   result_o = sum;
      wg_isa_pkg::OP_SHR:    result_o = sh_r;
      wg_isa_pkg::OP_SHL,
      wg_isa_pkg::OP_BREV:   result_o = brev32(sh_r);
      wg_isa_pkg::OP_POPC:   result_o = {26'd0, 6'($countones(a_i))};
      wg_isa_pkg::OP_CLZ:    result_o = {26'd0, clz32(a_i)};
      wg_isa_pkg::OP_ISETP,
      wg_isa_pkg::OP_ISETPU: begin
        result_o = {31'd0, setp};
        pred_o   = setp;
      end
      default: ;
    endcase
  end

endmodule
