// FP32 operations other than the multiply-add: FMIN, FMAX, FSETP, I2F, F2I, FRND.
// One register stage (s1): stage A (inputs -> s1) compares, counts leading zeros and
// aligns; stage B (s1 -> result_o, combinational) rounds, normalises and saturates.
// An operation accepted with valid_i in cycle t is on result_o / pred_o in cycle t+1.
// op_i takes wg_fp32_pkg::fp32_op_e values; mod_i is the ISA mod field (docs/fp32.md).
// The registers load only with valid_i and have no reset (no state beyond s1).
module wg_fp32_misc (
  input  logic        clk_i,
  input  logic        valid_i,
  input  logic [3:0]  op_i,
  input  logic [2:0]  mod_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o,
  output logic        pred_o
);

  // ---------------------------------------------------------------------------
  // Stage A
  // ---------------------------------------------------------------------------
  logic        sa, sb;
  logic [7:0]  ea, eb;
  logic [22:0] fa, fb;
  assign {sa, ea, fa} = a_i;
  assign {sb, eb, fb} = b_i;

  logic a_nan, b_nan, a_zero, b_zero;
  assign a_nan  = (ea == 8'hFF) && (fa != '0);
  assign b_nan  = (eb == 8'hFF) && (fb != '0);
  assign a_zero = (a_i[30:0] == '0);
  assign b_zero = (b_i[30:0] == '0);

  // Compare: a sign-magnitude to unsigned key map, monotonic over all non-NaN
  // values with -0 < +0 (a bijection, so equal keys mean equal bits).
  logic [31:0] key_a, key_b;
  logic        a_lt_b, eq, lt, gt, unord;
  assign key_a  = sa ? ~a_i : {1'b1, a_i[30:0]};
  assign key_b  = sb ? ~b_i : {1'b1, b_i[30:0]};
  assign a_lt_b = key_a < key_b;
  assign unord  = a_nan | b_nan;
  assign eq     = (a_i == b_i) | (a_zero & b_zero);  // +0 == -0
  assign lt     = ~eq & a_lt_b;
  assign gt     = ~eq & ~a_lt_b;

  logic [31:0] min_res, max_res;
  always_comb begin
    if (a_nan && b_nan) begin
      min_res = wg_fp32_pkg::FP32_QNAN;
      max_res = wg_fp32_pkg::FP32_QNAN;
    end else if (a_nan) begin
      min_res = b_i;
      max_res = b_i;
    end else if (b_nan) begin
      min_res = a_i;
      max_res = a_i;
    end else begin
      min_res = a_lt_b ? a_i : b_i;
      max_res = a_lt_b ? b_i : a_i;
    end
  end

  logic setp;
  always_comb begin
    case (mod_i)
      wg_fp32_pkg::FP32_CC_EQ:  setp = ~unord & eq;
      wg_fp32_pkg::FP32_CC_NE:  setp = ~unord & ~eq;
      wg_fp32_pkg::FP32_CC_LT:  setp = ~unord & lt;
      wg_fp32_pkg::FP32_CC_LE:  setp = ~unord & (lt | eq);
      wg_fp32_pkg::FP32_CC_GT:  setp = ~unord & gt;
      wg_fp32_pkg::FP32_CC_GE:  setp = ~unord & (gt | eq);
      wg_fp32_pkg::FP32_CC_NUM: setp = ~unord;
      default:                  setp = unord;  // FP32_CC_NAN
    endcase
  end

  // I2F: magnitude and its leading zeros (32 for zero). mod_i[0]: unsigned source.
  logic        i2f_sign;
  logic [31:0] i2f_mag;
  logic [5:0]  i2f_lz;
  assign i2f_sign = ~mod_i[0] & a_i[31];
  assign i2f_mag  = i2f_sign ? (32'd0 - a_i) : a_i;
  wg_fp32_lzc #(.WIDTH(32)) u_lzc_i2f (.in_i(i2f_mag), .cnt_o(i2f_lz));

  // F2I: the significand placed so that window bit 26 has weight 1: bits [57:26] are
  // the integer part, bit 25 the guard bit, bits [24:0] the sticky bits. Placement at
  // exponent 158 (|a| in [2^31, 2^32)) is shift 0; exponents from 159 up saturate.
  logic [23:0] ma;
  logic [7:0]  f2i_rs_raw;
  logic [5:0]  f2i_rs;
  logic [57:0] f2i_win;
  logic        f2i_big;
  assign ma         = {ea != 8'h00, fa};
  assign f2i_big    = (ea >= 8'd159);
  assign f2i_rs_raw = 8'd158 - ((ea == 8'h00) ? 8'd1 : ea);
  assign f2i_rs     = (f2i_big || f2i_rs_raw >= 8'd33) ? 6'd33 : f2i_rs_raw[5:0];
  assign f2i_win    = {ma, 34'd0} >> f2i_rs;

  // FRND: clear the fraction bits below the units position, keeping the sign; the
  // units increment (1 << frnd_pos, or 1.0 when |a| < 1) is added in stage B.
  logic [4:0]  frnd_pos;   // number of fraction bits below the units, 1..23
  logic [23:0] frnd_mask;
  logic [4:0]  frnd_pos_m1;
  logic        frnd_lt1;   // |a| < 1
  logic        frnd_int;   // already integral: |a| >= 2^23, infinity or NaN
  assign frnd_lt1    = (ea < 8'd127);
  assign frnd_int    = (ea >= 8'd150);
  assign frnd_pos    = 5'(8'd150 - ea);
  assign frnd_pos_m1 = frnd_pos - 5'd1;
  assign frnd_mask   = (24'd1 << frnd_pos) - 24'd1;

  // Stage A results into s1: val is the operation's result or its unrounded magnitude,
  // aux a shift amount, lsb/guard/sticky the rounding bits, flag an operation flag.
  logic [31:0] val_d;
  logic [5:0]  aux_d;
  logic        lsb_d, guard_d, sticky_d, sign_d, flag_d, pred_d;
  always_comb begin
    val_d    = '0;
    aux_d    = '0;
    lsb_d    = 1'b0;
    guard_d  = 1'b0;
    sticky_d = 1'b0;
    sign_d   = sa;
    flag_d   = 1'b0;
    pred_d   = 1'b0;
    case (op_i)
      wg_fp32_pkg::FP32_FMIN: val_d = min_res;
      wg_fp32_pkg::FP32_FMAX: val_d = max_res;
      wg_fp32_pkg::FP32_FSETP: begin
        val_d  = {31'd0, setp};
        pred_d = setp;
      end
      wg_fp32_pkg::FP32_I2F: begin
        val_d  = i2f_mag;
        aux_d  = i2f_lz;
        sign_d = i2f_sign;
      end
      wg_fp32_pkg::FP32_F2I: begin
        val_d    = f2i_win[57:26];
        lsb_d    = f2i_win[26];
        guard_d  = f2i_win[25];
        sticky_d = |f2i_win[24:0];
        flag_d   = f2i_big;  // NaN is told apart in stage B by a_nan_q
      end
      wg_fp32_pkg::FP32_FRND: begin
        if (a_nan) begin
          val_d = wg_fp32_pkg::FP32_QNAN;
        end else if (frnd_int) begin
          val_d = a_i;
        end else if (frnd_lt1) begin
          val_d    = {sa, 31'd0};
          flag_d   = 1'b1;
          guard_d  = (ea == 8'd126);
          sticky_d = (ea == 8'd126) ? (fa != '0) : ~a_zero;
        end else begin
          val_d    = {a_i[31:24], a_i[23:0] & ~frnd_mask};
          aux_d    = {1'b0, frnd_pos};
          lsb_d    = ma[frnd_pos];
          guard_d  = ma[frnd_pos_m1];
          sticky_d = |(ma & (frnd_mask >> 1));
        end
      end
      default: ;
    endcase
  end

  // ---------------------------------------------------------------------------
  // s1
  // ---------------------------------------------------------------------------
  logic [3:0]  op_q;
  logic [2:0]  mod_q;
  logic [31:0] val_q;
  logic [5:0]  aux_q;
  logic        lsb_q, guard_q, sticky_q, sign_q, flag_q, pred_q, a_nan_q;

  always_ff @(posedge clk_i) begin
    if (valid_i) begin
      op_q     <= op_i;
      mod_q    <= mod_i;
      val_q    <= val_d;
      aux_q    <= aux_d;
      lsb_q    <= lsb_d;
      guard_q  <= guard_d;
      sticky_q <= sticky_d;
      sign_q   <= sign_d;
      flag_q   <= flag_d;
      pred_q   <= pred_d;
      a_nan_q  <= a_nan;
    end
  end

  // ---------------------------------------------------------------------------
  // Stage B
  // ---------------------------------------------------------------------------
  // I2F: normalise the magnitude (leading one to bit 31), round to 24 bits.
  logic [31:0] i2f_norm;
  logic [7:0]  i2f_exp;
  logic        i2f_up;
  logic [31:0] i2f_res;
  assign i2f_norm = val_q << aux_q[4:0];
  assign i2f_exp  = 8'd158 - {2'd0, aux_q};
  assign i2f_up   = wg_fp32_pkg::fp32_round_up(wg_fp32_pkg::FP32_RN, sign_q, i2f_norm[8],
                                               i2f_norm[7], |i2f_norm[6:0]);
  assign i2f_res  = aux_q[5] ? 32'd0  // zero source
                  : {sign_q, i2f_exp, i2f_norm[30:8]} + {31'd0, i2f_up};
  logic unused_i2f_hidden;  // the leading one, implied by i2f_exp
  assign unused_i2f_hidden = i2f_norm[31];

  // F2I: round the integer part, then saturate to the type; NaN gives 0.
  logic        f2i_up;
  logic [31:0] f2i_mag;
  logic [31:0] f2i_res;
  assign f2i_up  = wg_fp32_pkg::fp32_round_up(mod_q[2:1], sign_q, lsb_q, guard_q, sticky_q);
  assign f2i_mag = val_q + {31'd0, f2i_up};
  always_comb begin
    if (a_nan_q) begin
      f2i_res = 32'd0;
    end else if (mod_q[0]) begin  // U32
      if (sign_q)      f2i_res = 32'd0;
      else if (flag_q) f2i_res = 32'hFFFF_FFFF;
      else             f2i_res = f2i_mag;
    end else if (!sign_q) begin   // S32, non-negative
      f2i_res = (flag_q || f2i_mag[31]) ? 32'h7FFF_FFFF : f2i_mag;
    end else begin                // S32, negative
      f2i_res = (flag_q || f2i_mag > 32'h8000_0000) ? 32'h8000_0000 : 32'd0 - f2i_mag;
    end
  end

  // FRND: add one unit at the integer position when rounding up; a carry out of the
  // fraction moves into the exponent by itself.
  logic        frnd_up;
  logic [30:0] frnd_inc;
  logic [31:0] frnd_res;
  assign frnd_up  = wg_fp32_pkg::fp32_round_up(mod_q[1:0], sign_q, lsb_q, guard_q, sticky_q);
  assign frnd_inc = flag_q ? 31'h3F80_0000 : (31'd1 << aux_q[4:0]);
  assign frnd_res = {val_q[31], val_q[30:0] + (frnd_up ? frnd_inc : 31'd0)};

  always_comb begin
    pred_o   = 1'b0;
    case (op_q)
      wg_fp32_pkg::FP32_FSETP: begin
        result_o = val_q;
        pred_o   = pred_q;
      end
      wg_fp32_pkg::FP32_I2F:  result_o = i2f_res;
      wg_fp32_pkg::FP32_F2I:  result_o = f2i_res;
      wg_fp32_pkg::FP32_FRND: result_o = frnd_res;
      default:                result_o = val_q;  // FMIN, FMAX
    endcase
  end

endmodule
