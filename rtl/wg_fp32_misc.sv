// FP32 operations other than the multiply-add: FMIN, FMAX, FSETP, I2F, F2I, FRND.
// Two register stages; an operation accepted with valid_i in cycle t is on result_o /
// pred_o in cycle t+2 (the caller keeps the valid bits):
//   s0 -> s1  compare, select; leading zeros (I2F); alignment and rounding bits (F2I,
//             FRND)
//   s1 -> s2  normalise and round (I2F), round and saturate (F2I), round (FRND)
// op_i takes wg_fp32_pkg::fp32_op_e values; mod_i is the ISA mod field (docs/fp32.md).
// Each stage's logic sits in its register's always_ff under the stage's valid bit
// (evaluated by Verilator only when used); the registers have no reset.
module wg_fp32_misc (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,
  input  logic [3:0]  op_i,
  input  logic [2:0]  mod_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o,
  output logic        pred_o
);

  logic valid1_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) valid1_q <= 1'b0;
    else         valid1_q <= valid_i;
  end

  // ---------------------------------------------------------------------------
  // s0 -> s1
  // ---------------------------------------------------------------------------
  // s1 holds, by operation: val the final result (FMIN, FMAX, FSETP), the integer
  // magnitude (I2F), the integer part (F2I) or the truncated value (FRND); aux a shift
  // amount (I2F: leading zeros; FRND: position of the units bit); lsb / guard / sticky the
  // rounding bits; flag: F2I |a| >= 2^32 or infinity, FRND |a| < 1.
  logic [3:0]  s1_op_q;
  logic [2:0]  s1_mod_q;
  logic [31:0] s1_val_q;
  logic [5:0]  s1_aux_q;
  logic        s1_lsb_q, s1_guard_q, s1_sticky_q, s1_sign_q, s1_flag_q, s1_nan_q, s1_pred_q;

  always_ff @(posedge clk_i) begin
    if (valid_i) begin : s0
      logic        sa, sb;
      logic [7:0]  ea, eb;
      logic [22:0] fa, fb;
      logic [23:0] ma;
      logic        a_nan, b_nan, a_zero, b_zero;
      logic [31:0] key_a, key_b;
      logic        a_lt_b, eq, lt, gt, unord, setp;
      logic [31:0] i2f_mag;
      logic [5:0]  f2i_rs;
      logic [32:0] f2i_win;
      logic [23:0] f2i_below;
      logic [4:0]  frnd_pos;
      logic [23:0] frnd_mask;
      logic [1:0]  frnd_bits;

      {sa, ea, fa} = a_i;
      {sb, eb, fb} = b_i;
      ma     = {ea != 8'h00, fa};
      a_nan  = (ea == 8'hFF) && (fa != '0);
      b_nan  = (eb == 8'hFF) && (fb != '0);
      a_zero = (a_i[30:0] == '0);
      b_zero = (b_i[30:0] == '0);

      // Compare: sign-magnitude to an unsigned key, monotonic over all non-NaN values
      // with -0 < +0 (a bijection, so equal keys mean equal bits).
      key_a  = sa ? ~a_i : {1'b1, a_i[30:0]};
      key_b  = sb ? ~b_i : {1'b1, b_i[30:0]};
      a_lt_b = key_a < key_b;
      unord  = a_nan | b_nan;
      eq     = (a_i == b_i) | (a_zero & b_zero);  // +0 == -0
      lt     = ~eq & a_lt_b;
      gt     = ~eq & ~a_lt_b;
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

      // I2F: magnitude (mod_i[0]: unsigned source).
      i2f_mag = (~mod_i[0] & sa) ? (32'd0 - a_i) : a_i;

      // F2I: the significand shifted right by f2i_rs so that window bit 1 has weight 1:
      // bits [32:1] are the integer part, bit 0 the guard bit. Exponent 158 (|a| in
      // [2^31, 2^32)) is shift 0; from 159 up the value saturates. Significand bit i is
      // below the guard bit when i <= f2i_rs - 10: their OR is the sticky bit.
      if (ea >= 8'd159)      f2i_rs = 6'd33;
      else if (ea <= 8'd125) f2i_rs = 6'd33;  // |a| < 0.5: sticky only
      else                   f2i_rs = 6'(8'd158 - ea);
      f2i_win   = {ma, 9'd0} >> f2i_rs;
      f2i_below = 24'(~({33{1'b1}} << f2i_rs) >> 9);  // bit i set when i + 9 < f2i_rs

      // FRND: fraction bits below the units position (1..23 for 127 <= ea < 150).
      frnd_pos  = 5'(8'd150 - ea);
      frnd_mask = ~(24'hFF_FFFF << frnd_pos);
      frnd_bits = 2'({ma, 1'b0} >> frnd_pos);  // [1]: units bit, [0]: the bit below

      s1_op_q     <= op_i;
      s1_mod_q    <= mod_i;
      s1_val_q    <= '0;
      s1_aux_q    <= '0;
      s1_lsb_q    <= 1'b0;
      s1_guard_q  <= 1'b0;
      s1_sticky_q <= 1'b0;
      s1_sign_q   <= sa;
      s1_flag_q   <= 1'b0;
      s1_nan_q    <= a_nan;
      s1_pred_q   <= 1'b0;
      case (op_i)
        wg_fp32_pkg::FP32_FMIN, wg_fp32_pkg::FP32_FMAX: begin
          if (a_nan && b_nan)               s1_val_q <= wg_fp32_pkg::FP32_QNAN;
          else if (a_nan)                   s1_val_q <= b_i;
          else if (b_nan)                   s1_val_q <= a_i;
          else if (a_lt_b == (op_i == wg_fp32_pkg::FP32_FMIN)) s1_val_q <= a_i;
          else                              s1_val_q <= b_i;
        end
        wg_fp32_pkg::FP32_FSETP: begin
          s1_val_q  <= {31'd0, setp};
          s1_pred_q <= setp;
        end
        wg_fp32_pkg::FP32_I2F: begin
          s1_val_q  <= i2f_mag;
          s1_aux_q  <= wg_fp32_pkg::fp32_lzc32(i2f_mag);
          s1_sign_q <= ~mod_i[0] & sa;
        end
        wg_fp32_pkg::FP32_F2I: begin
          s1_val_q    <= f2i_win[32:1];
          s1_lsb_q    <= f2i_win[1];
          s1_guard_q  <= f2i_win[0];
          s1_sticky_q <= |(ma & f2i_below);
          s1_flag_q   <= (ea >= 8'd159);
        end
        wg_fp32_pkg::FP32_FRND: begin
          if (a_nan) begin
            s1_val_q <= wg_fp32_pkg::FP32_QNAN;
          end else if (ea >= 8'd150) begin  // integral already, or infinity
            s1_val_q <= a_i;
          end else if (ea < 8'd127) begin   // |a| < 1: 0 or 1 by the rounding
            s1_val_q    <= {sa, 31'd0};
            s1_flag_q   <= 1'b1;
            s1_guard_q  <= (ea == 8'd126);
            s1_sticky_q <= (ea == 8'd126) ? (fa != '0) : ~a_zero;
          end else begin
            s1_val_q    <= {a_i[31:24], a_i[23:0] & ~frnd_mask};
            s1_aux_q    <= {1'b0, frnd_pos};
            s1_lsb_q    <= frnd_bits[1];
            s1_guard_q  <= frnd_bits[0];
            s1_sticky_q <= |(ma & (frnd_mask >> 1));
          end
        end
        default: ;
      endcase
    end
  end

  // ---------------------------------------------------------------------------
  // s1 -> s2
  // ---------------------------------------------------------------------------
  logic [31:0] result_q;
  logic        pred_q;

  always_ff @(posedge clk_i) begin
    if (valid1_q) begin : s1
      logic [30:0] i2f_norm;  // the leading one (bit 31) is implied by the exponent
      logic [31:0] f2i_mag, i2f_res, f2i_res, frnd_res;
      logic [30:0] frnd_inc;
      logic        up;

      // I2F: leading one to bit 31, round to 24 bits; zero stays +0.
      i2f_norm = 31'(s1_val_q << s1_aux_q[4:0]);
      up       = wg_fp32_pkg::fp32_round_up(wg_fp32_pkg::FP32_RN, s1_sign_q, i2f_norm[8],
                                            i2f_norm[7], |i2f_norm[6:0]);
      i2f_res  = s1_aux_q[5] ? 32'd0
               : {s1_sign_q, 8'd158 - {2'd0, s1_aux_q}, i2f_norm[30:8]} + {31'd0, up};

      // F2I: round the integer part (at most 2^24 when rounding applies), saturate.
      up      = wg_fp32_pkg::fp32_round_up(s1_mod_q[2:1], s1_sign_q, s1_lsb_q, s1_guard_q,
                                           s1_sticky_q);
      f2i_mag = s1_val_q + {31'd0, up};
      if (s1_nan_q)                 f2i_res = 32'd0;
      else if (s1_mod_q[0]) begin   // U32
        if (s1_sign_q)              f2i_res = 32'd0;
        else if (s1_flag_q)         f2i_res = 32'hFFFF_FFFF;
        else                        f2i_res = f2i_mag;
      end else if (!s1_sign_q)      // S32, non-negative
        f2i_res = (s1_flag_q || f2i_mag[31]) ? 32'h7FFF_FFFF : f2i_mag;
      else                          // S32, negative
        f2i_res = (s1_flag_q || f2i_mag > 32'h8000_0000) ? 32'h8000_0000 : 32'd0 - f2i_mag;

      // FRND: add one unit at the integer position when rounding away from the
      // truncation; a carry out of the fraction moves into the exponent by itself.
      up       = wg_fp32_pkg::fp32_round_up(s1_mod_q[1:0], s1_sign_q, s1_lsb_q, s1_guard_q,
                                            s1_sticky_q);
      frnd_inc = s1_flag_q ? 31'h3F80_0000 : (31'd1 << s1_aux_q[4:0]);
      frnd_res = {s1_val_q[31], s1_val_q[30:0] + (up ? frnd_inc : 31'd0)};

      pred_q <= 1'b0;
      case (s1_op_q)
        wg_fp32_pkg::FP32_FSETP: begin
          result_q <= s1_val_q;
          pred_q   <= s1_pred_q;
        end
        wg_fp32_pkg::FP32_I2F:  result_q <= i2f_res;
        wg_fp32_pkg::FP32_F2I:  result_q <= f2i_res;
        wg_fp32_pkg::FP32_FRND: result_q <= frnd_res;
        default:                result_q <= s1_val_q;  // FMIN, FMAX
      endcase
    end
  end

  assign result_o = result_q;
  assign pred_o   = pred_q;

endmodule
