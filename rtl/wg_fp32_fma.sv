// Fused multiply-add a_i * b_i + c_i in IEEE binary32 with one rounding in the mode rm_i
// (wg_fp32_pkg::fp32_rm_e: 0 RN nearest even, 1 RZ, 2 RM, 3 RP). Subnormal inputs and
// outputs are kept unless ftz_i: then subnormal inputs count as zeros of their sign and
// a subnormal result becomes the zero of its sign. Every NaN result is
// wg_fp32_pkg::FP32_QNAN.
//
// Four register stages; an operation accepted with valid_i in cycle t is on result_o
// with valid_o in cycle t+4 (no backpressure):
//   s0 -> s1  unpack, special cases, pre-normalise subnormal a and b, exponents and
//             the alignment shift of c
//   s1 -> s2  24x24 significand product (a plain '*': DSP blocks), c aligned in the
//             76-bit window
//   s2 -> s3  add or subtract, magnitude, leading zeros, normalisation shift amount
//   s3 -> s4  normalise, round, pack, overflow, special-case select (result_o)
// Each stage's logic sits in its register's always_ff under the previous stage's valid
// bit: the same hardware as a separate always_comb, but Verilator then evaluates a stage
// only in cycles where it holds an operation. Data registers have no reset; valid bits do.
// The datapath and why its 76-bit window is exact: docs/fp32.md, "Fused multiply-add".
module wg_fp32_fma #(
  // 1: b_i is ignored and taken as 1.0, an adder a_i + c_i with the FMA's rounding (the
  // constant lets synthesis drop the multiplier; wg_smem's ADD.F32 atomics).
  parameter bit ADD_ONLY = 1'b0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  input  logic [1:0]  rm_i,
  input  logic        ftz_i,
  output logic        valid_o,
  output logic [31:0] result_o
);

  logic [4:1] valid_q;  // valid bit of stage s1..s4
  always_ff @(posedge clk_i) begin
    if (!rst_ni) valid_q <= '0;
    else         valid_q <= {valid_q[3:1], valid_i};
  end

  // ---------------------------------------------------------------------------
  // s0 -> s1: unpack, special cases, pre-normalisation, exponent arithmetic
  // ---------------------------------------------------------------------------
  logic [23:0] s1_ma_q, s1_mb_q, s1_mc_q;  // significands, a and b normalised
  logic        s1_sp_q, s1_sc_q;           // signs of the product and of c
  logic [6:0]  s1_dsh_q;                   // right shift of c in the window, 0..75
  logic [8:0]  s1_e73_q;                   // biased exponent of window bit 73
  logic        s1_special_q;               // NaN, infinity or zero product:
  logic [31:0] s1_special_res_q;           //   the result, final already
  logic [1:0]  s1_rm_q;                    // rounding mode
  logic        s1_ftz_q;                   // flush a subnormal result

  always_ff @(posedge clk_i) begin
    if (valid_i) begin : s0
      logic        sa, sb, sc, sp;
      logic [7:0]  ea, eb, ec;
      logic [22:0] fa, fb, fc;
      logic        a_zero, b_zero, c_zero, a_inf, b_inf, c_inf, a_nan, b_nan, c_nan;
      logic [23:0] ma, mb;
      logic [4:0]  lza, lzb;
      logic signed [11:0] ea_n, eb_n, ec_n, ep, align;
      logic [31:0] a, b, c;

      // FTZ: a subnormal operand is the zero of its sign.
      a = (ftz_i && a_i[30:23] == 8'h00) ? {a_i[31], 31'd0} : a_i;
      b = ADD_ONLY ? 32'h3F80_0000 : (ftz_i && b_i[30:23] == 8'h00) ? {b_i[31], 31'd0} : b_i;
      c = (ftz_i && c_i[30:23] == 8'h00) ? {c_i[31], 31'd0} : c_i;
      {sa, ea, fa} = a;
      {sb, eb, fb} = b;
      {sc, ec, fc} = c;
      sp     = sa ^ sb;
      a_zero = (ea == 8'h00) && (fa == '0);
      b_zero = (eb == 8'h00) && (fb == '0);
      c_zero = (ec == 8'h00) && (fc == '0);
      a_inf  = (ea == 8'hFF) && (fa == '0);
      b_inf  = (eb == 8'hFF) && (fb == '0);
      c_inf  = (ec == 8'hFF) && (fc == '0);
      a_nan  = (ea == 8'hFF) && (fa != '0);
      b_nan  = (eb == 8'hFF) && (fb != '0);
      c_nan  = (ec == 8'hFF) && (fc != '0);

      // Special results: NaN, infinity, or a zero product (the sum is then c exactly,
      // or a zero whose sign follows IEEE 754: the AND of the signs, their OR in RM).
      s1_special_q     <= 1'b1;
      s1_special_res_q <= wg_fp32_pkg::FP32_QNAN;
      if (a_nan || b_nan || c_nan || (a_inf && b_zero) || (a_zero && b_inf) ||
          ((a_inf || b_inf) && c_inf && (sp != sc))) begin
        s1_special_res_q <= wg_fp32_pkg::FP32_QNAN;
      end else if (a_inf || b_inf) begin
        s1_special_res_q <= {sp, 8'hFF, 23'd0};
      end else if (c_inf) begin
        s1_special_res_q <= c;
      end else if (a_zero || b_zero) begin
        s1_special_res_q <= c_zero ? {(rm_i == 2'd2) ? (sp | sc) : (sp & sc), 31'd0} : c;
      end else begin
        s1_special_q <= 1'b0;
      end

      // Significands with the hidden bit; subnormal a and b are shifted up to a
      // leading one (their exponent goes below 1), so the product is in [2^46, 2^48).
      ma  = {ea != 8'h00, fa};
      mb  = {eb != 8'h00, fb};
      lza = wg_fp32_pkg::fp32_lzc24(ma);
      lzb = wg_fp32_pkg::fp32_lzc24(mb);
      s1_ma_q <= ma << lza;
      s1_mb_q <= mb << lzb;
      s1_mc_q <= {ec != 8'h00, fc};
      s1_sp_q <= sp;
      s1_sc_q <= sc;
      s1_rm_q <= rm_i;
      s1_ftz_q <= ftz_i;

      // Biased exponents, signed: a subnormal (or zero) field counts as 1.
      ea_n = signed'({4'd0, (ea == 8'h00) ? 8'd1 : ea}) - signed'({7'd0, lza});
      eb_n = signed'({4'd0, (eb == 8'h00) ? 8'd1 : eb}) - signed'({7'd0, lzb});
      ec_n = signed'({4'd0, (ec == 8'h00) ? 8'd1 : ec});
      // Product = P * 2^(ep - 127 - 46): ep is the exponent of product bit 46 (window
      // bit 46). c starts with its hidden bit at window bit 73 and moves right by
      // align = ep - ec + 27 to line up. The shift is clamped to [0, 75]: at 0 the
      // product lies wholly below c's two guard bits and acts only as a sticky bit;
      // from 75 on c is wholly sticky. Window bit 73 then has exponent max(ep + 27, ec).
      ep    = ea_n + eb_n - 12'sd127;
      align = ep - ec_n + 12'sd27;
      if (align <= 12'sd0) begin
        s1_dsh_q <= 7'd0;
        s1_e73_q <= 9'(ec_n);
      end else begin
        s1_dsh_q <= (align >= 12'sd75) ? 7'd75 : align[6:0];
        s1_e73_q <= 9'(ep + 12'sd27);
      end
    end
  end

  // ---------------------------------------------------------------------------
  // s1 -> s2: multiply, align c
  // ---------------------------------------------------------------------------
  // The 76-bit window W: W[0] sticky, W[74:1] window bits 73..0, W[75] carry. The
  // product sits at W[48:1]; c starts at W[74:51] and moves right by s1_dsh_q, whatever
  // falls below W[1] is ORed into W[0].
  logic [47:0] s2_prod_q;
  logic [75:0] s2_c_al_q;
  logic        s2_sp_q, s2_sc_q;
  logic [8:0]  s2_e73_q;
  logic        s2_special_q;
  logic [31:0] s2_special_res_q;
  logic [1:0]  s2_rm_q;
  logic        s2_ftz_q;

  always_ff @(posedge clk_i) begin
    if (valid_q[1]) begin : s1
      logic [74:0] c_sh;   // W[75:1]
      logic [23:0] below;  // bit i set when i + 51 <= s1_dsh_q
      // c's bit i ends below W[1] when i + 51 <= s1_dsh_q: the sticky bit is the OR of
      // those bits, taken from c directly rather than from a wider shifter.
      c_sh  = {1'b0, s1_mc_q, 50'd0} >> s1_dsh_q;
      below = 24'(~({{74{1'b1}}, 1'b0} << s1_dsh_q) >> 51);
      s2_prod_q        <= s1_ma_q * s1_mb_q;
      s2_c_al_q        <= {c_sh, |(s1_mc_q & below)};
      s2_sp_q          <= s1_sp_q;
      s2_sc_q          <= s1_sc_q;
      s2_e73_q         <= s1_e73_q;
      s2_special_q     <= s1_special_q;
      s2_special_res_q <= s1_special_res_q;
      s2_rm_q          <= s1_rm_q;
      s2_ftz_q         <= s1_ftz_q;
    end
  end

  // ---------------------------------------------------------------------------
  // s2 -> s3: add / subtract, leading zeros
  // ---------------------------------------------------------------------------
  logic [75:0] s3_mag_q;  // |product + c| in the window
  logic [6:0]  s3_nsh_q;  // left shift that normalises it
  logic [9:0]  s3_exp_q;  // biased exponent of W[75] after the shift, >= 1
  logic        s3_sign_q;
  logic        s3_special_q;
  logic [31:0] s3_special_res_q;
  logic [1:0]  s3_rm_q;
  logic        s3_ftz_q;

  always_ff @(posedge clk_i) begin
    if (valid_q[2]) begin : s2
      logic        sub;    // effective subtraction
      logic [75:0] wp;     // product in the window
      logic [76:0] sum;    // wp + c, or wp - c + 2^76
      logic        neg;    // wp - c < 0
      logic [75:0] mag;
      logic [6:0]  lz, nsh;

      sub = s2_sp_q ^ s2_sc_q;
      wp  = {27'd0, s2_prod_q, 1'b0};
      sum = {1'b0, wp} + {1'b0, sub ? ~s2_c_al_q : s2_c_al_q} + {76'd0, sub};
      neg = sub & ~sum[76];
      mag = neg ? (s2_c_al_q - wp) : sum[75:0];
      // Shift the leading one up to W[75] (exponent e73 + 1), but not below exponent 1:
      // nsh = min(leading zeros, e73); a result that stops short is subnormal.
      lz  = wg_fp32_pkg::fp32_lzc76(mag);
      nsh = ({2'd0, lz} > s2_e73_q) ? s2_e73_q[6:0] : lz;

      s3_mag_q         <= mag;
      s3_nsh_q         <= nsh;
      s3_exp_q         <= {1'b0, s2_e73_q} + 10'd1 - {3'd0, nsh};
      s3_sign_q        <= neg ? s2_sc_q : s2_sp_q;
      s3_special_q     <= s2_special_q;
      s3_special_res_q <= s2_special_res_q;
      s3_rm_q          <= s2_rm_q;
      s3_ftz_q         <= s2_ftz_q;
    end
  end

  // ---------------------------------------------------------------------------
  // s3 -> s4: normalise, round, pack
  // ---------------------------------------------------------------------------
  logic [31:0] result_q;

  always_ff @(posedge clk_i) begin
    if (valid_q[3]) begin : s3
      logic [24:0] norm;  // W[75:51] after the shift
      logic        hidden, sticky, rnd, away;
      logic [7:0]  exp_field;
      logic [30:0] packed_mag;

      // Kept bits: hidden W[75], fraction W[74:52], guard W[51]. The sticky bit is the
      // OR of the magnitude's bits that land below W[51] (bit j when j + nsh < 51),
      // taken from the magnitude directly rather than from the shifter.
      norm      = 25'((s3_mag_q << s3_nsh_q) >> 51);
      sticky    = |(s3_mag_q[50:0] & ({51{1'b1}} >> s3_nsh_q));
      hidden    = norm[24];
      exp_field = hidden ? s3_exp_q[7:0] : 8'd0;
      rnd       = wg_fp32_pkg::fp32_round_up(s3_rm_q, s3_sign_q, norm[1], norm[0], sticky);
      // Whether the mode rounds this sign's overflow away from zero (to infinity) or
      // toward it (to the largest finite value).
      away      = wg_fp32_pkg::fp32_round_up(s3_rm_q, s3_sign_q, 1'b0, 1'b1, 1'b1);
      // A carry out of the fraction moves to the next binade (or from subnormal to
      // normal, or from the largest finite value to infinity) by itself; only modes
      // that round this sign away from zero carry into infinity.
      packed_mag = {exp_field, norm[23:1]} + {30'd0, rnd};

      if (s3_special_q)
        result_q <= s3_special_res_q;
      else if (s3_mag_q == '0)  // exact cancellation: +0, -0 in RM
        result_q <= {s3_rm_q == 2'd2, 31'd0};
      else if (hidden && s3_exp_q >= 10'd255)
        result_q <= away ? {s3_sign_q, 8'hFF, 23'd0} : {s3_sign_q, 8'hFE, {23{1'b1}}};
      else if (s3_ftz_q && packed_mag[30:23] == 8'h00)  // FTZ: subnormal result
        result_q <= {s3_sign_q, 31'd0};
      else
        result_q <= {s3_sign_q, packed_mag};
    end
  end

  assign valid_o  = valid_q[4];
  assign result_o = result_q;

endmodule
