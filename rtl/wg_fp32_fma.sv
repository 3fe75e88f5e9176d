// Fused multiply-add a_i * b_i + c_i in IEEE binary32, one rounding to nearest even.
// Subnormal inputs and outputs are kept; every NaN result is wg_fp32_pkg::FP32_QNAN.
//
// Three register stages (s1, s2, s3); result_o is combinational from s3, so an
// operation accepted with valid_i in cycle t is on result_o with valid_o in cycle t+3.
//   s0 -> s1  unpack, special cases, pre-normalise subnormal a and b, exponents and
//             the alignment shift of c
//   s1 -> s2  24x24 significand product (DSP), alignment of c in the 76-bit window
//   s2 -> s3  add or subtract, magnitude, leading zeros, normalisation shift amount
//   s3 -> out normalise, round, pack, overflow, special-case select
// Data registers load only with their stage's valid bit (no reset); the valid bits reset.
// Datapath and its proof of exactness: docs/fp32.md, section "Fused multiply-add".
module wg_fp32_fma (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic        valid_o,
  output logic [31:0] result_o
);

  // ---------------------------------------------------------------------------
  // s0: unpack, special cases, pre-normalisation, exponent arithmetic
  // ---------------------------------------------------------------------------
  logic        sa, sb, sc;
  logic [7:0]  ea, eb, ec;
  logic [22:0] fa, fb, fc;
  assign {sa, ea, fa} = a_i;
  assign {sb, eb, fb} = b_i;
  assign {sc, ec, fc} = c_i;

  logic a_zero, b_zero, c_zero, a_inf, b_inf, c_inf, a_nan, b_nan, c_nan;
  assign a_zero = (ea == 8'h00) && (fa == '0);
  assign b_zero = (eb == 8'h00) && (fb == '0);
  assign c_zero = (ec == 8'h00) && (fc == '0);
  assign a_inf  = (ea == 8'hFF) && (fa == '0);
  assign b_inf  = (eb == 8'hFF) && (fb == '0);
  assign c_inf  = (ec == 8'hFF) && (fc == '0);
  assign a_nan  = (ea == 8'hFF) && (fa != '0);
  assign b_nan  = (eb == 8'hFF) && (fb != '0);
  assign c_nan  = (ec == 8'hFF) && (fc != '0);

  logic sp;  // sign of the product
  assign sp = sa ^ sb;

  // Special results: NaN, infinity, or a zero product (the sum is then c exactly,
  // or a zero whose sign follows IEEE 754 in round-to-nearest).
  logic        special_d;
  logic [31:0] special_res_d;
  always_comb begin
    special_d     = 1'b1;
    special_res_d = wg_fp32_pkg::FP32_QNAN;
    if (a_nan || b_nan || c_nan || (a_inf && b_zero) || (a_zero && b_inf) ||
        ((a_inf || b_inf) && c_inf && (sp != sc))) begin
      special_res_d = wg_fp32_pkg::FP32_QNAN;
    end else if (a_inf || b_inf) begin
      special_res_d = {sp, 8'hFF, 23'd0};
    end else if (c_inf) begin
      special_res_d = c_i;
    end else if (a_zero || b_zero) begin
      special_res_d = c_zero ? {sp & sc, 31'd0} : c_i;
    end else begin
      special_d = 1'b0;
    end
  end

  // Significands with the hidden bit; subnormal a and b are shifted up to a
  // leading one (their exponent goes below 1), so the product is in [2^46, 2^48).
  logic [23:0] ma_raw, mb_raw, mc_d;
  logic [4:0]  lza, lzb;
  logic [23:0] ma_d, mb_d;
  assign ma_raw = {ea != 8'h00, fa};
  assign mb_raw = {eb != 8'h00, fb};
  assign mc_d   = {ec != 8'h00, fc};

  wg_fp32_lzc #(.WIDTH(24)) u_lzc_a (.in_i(ma_raw), .cnt_o(lza));
  wg_fp32_lzc #(.WIDTH(24)) u_lzc_b (.in_i(mb_raw), .cnt_o(lzb));
  assign ma_d = ma_raw << lza;
  assign mb_d = mb_raw << lzb;

  // Biased exponents, signed: a subnormal (or zero) field counts as 1.
  logic signed [11:0] ea_n, eb_n, ec_n, ep, align;
  assign ea_n = signed'({4'd0, (ea == 8'h00) ? 8'd1 : ea}) - signed'({7'd0, lza});
  assign eb_n = signed'({4'd0, (eb == 8'h00) ? 8'd1 : eb}) - signed'({7'd0, lzb});
  assign ec_n = signed'({4'd0, (ec == 8'h00) ? 8'd1 : ec});
  // Product value = P * 2^(ep - 127 - 46): ep is the exponent of product bit 46.
  assign ep   = ea_n + eb_n - 12'sd127;
  // Right shift of c from its start position (hidden bit at window bit 73) to line up
  // with the product (bit 46 of the window has exponent ep).
  assign align = ep - ec_n + 12'sd27;

  // Shift clamped to [0, 75]: at 0 the product lies wholly below c's guard bits
  // and only its sticky effect matters; from 75 on c is wholly sticky.
  // e73 is the biased exponent of window bit 73: max(ep + 27, ec).
  logic [6:0] dsh_d;
  logic [8:0] e73_d;
  logic signed [11:0] ep27;
  assign ep27 = ep + 12'sd27;
  always_comb begin
    if (align <= 12'sd0) begin
      dsh_d = 7'd0;
      e73_d = ec_n[8:0];
    end else begin
      dsh_d = (align >= 12'sd75) ? 7'd75 : align[6:0];
      e73_d = ep27[8:0];
    end
  end

  // ---------------------------------------------------------------------------
  // s1: multiply, align c
  // ---------------------------------------------------------------------------
  logic        s1_valid_q;
  logic [23:0] s1_ma_q, s1_mb_q, s1_mc_q;
  logic        s1_sp_q, s1_sc_q;
  logic [6:0]  s1_dsh_q;
  logic [8:0]  s1_e73_q;
  logic        s1_special_q;
  logic [31:0] s1_special_res_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s1_valid_q <= 1'b0;
    else         s1_valid_q <= valid_i;
  end

  always_ff @(posedge clk_i) begin
    if (valid_i) begin
      s1_ma_q          <= ma_d;
      s1_mb_q          <= mb_d;
      s1_mc_q          <= mc_d;
      s1_sp_q          <= sp;
      s1_sc_q          <= sc;
      s1_dsh_q         <= dsh_d;
      s1_e73_q         <= e73_d;
      s1_special_q     <= special_d;
      s1_special_res_q <= special_res_d;
    end
  end

  // The 76-bit window W: W[0] sticky, W[74:1] window bits 73..0, W[75] carry.
  // The product sits at W[48:1]; c starts at W[74:51] and moves right by s1_dsh_q,
  // whatever falls below W[1] is ORed into W[0].
  logic [47:0] prod_d;
  logic [99:0] c_wide;
  logic [75:0] c_al_d;
  assign prod_d = s1_ma_q * s1_mb_q;
  assign c_wide = {1'b0, s1_mc_q, 75'd0} >> s1_dsh_q;
  assign c_al_d = {c_wide[99:25], c_wide[24] | (|c_wide[23:0])};

  // ---------------------------------------------------------------------------
  // s2: add / subtract, leading zeros
  // ---------------------------------------------------------------------------
  logic        s2_valid_q;
  logic [47:0] s2_prod_q;
  logic [75:0] s2_c_al_q;
  logic        s2_sp_q, s2_sc_q;
  logic [8:0]  s2_e73_q;
  logic        s2_special_q;
  logic [31:0] s2_special_res_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s2_valid_q <= 1'b0;
    else         s2_valid_q <= s1_valid_q;
  end

  always_ff @(posedge clk_i) begin
    if (s1_valid_q) begin
      s2_prod_q        <= prod_d;
      s2_c_al_q        <= c_al_d;
      s2_sp_q          <= s1_sp_q;
      s2_sc_q          <= s1_sc_q;
      s2_e73_q         <= s1_e73_q;
      s2_special_q     <= s1_special_q;
      s2_special_res_q <= s1_special_res_q;
    end
  end

  logic        sub;        // effective subtraction
  logic [75:0] wp;         // product in the window
  logic [76:0] sum;        // wp + c, or wp - c + 2^76
  logic [75:0] rdiff;      // c - wp
  logic        neg;        // wp - c < 0
  logic [75:0] mag_d;
  logic        sign_d;
  assign sub   = s2_sp_q ^ s2_sc_q;
  assign wp    = {27'd0, s2_prod_q, 1'b0};
  assign sum   = {1'b0, wp} + {1'b0, sub ? ~s2_c_al_q : s2_c_al_q} + {76'd0, sub};
  assign rdiff = s2_c_al_q - wp;
  assign neg   = sub & ~sum[76];
  assign mag_d  = neg ? rdiff : sum[75:0];
  assign sign_d = neg ? s2_sc_q : s2_sp_q;

  // Normalisation: shift the leading one up to W[75] (exponent e73 + 1), but never
  // below exponent 1: L = min(leading zeros, e73); a result that stops short is subnormal.
  logic [6:0] lz_mag;
  logic [6:0] nsh_d;
  logic [9:0] exp_d;  // biased exponent of W[75] after the shift, >= 1
  wg_fp32_lzc #(.WIDTH(76)) u_lzc_sum (.in_i(mag_d), .cnt_o(lz_mag));
  assign nsh_d = ({2'd0, lz_mag} > s2_e73_q) ? s2_e73_q[6:0] : lz_mag;
  assign exp_d = {1'b0, s2_e73_q} + 10'd1 - {3'd0, nsh_d};

  // ---------------------------------------------------------------------------
  // s3: normalise, round, pack
  // ---------------------------------------------------------------------------
  logic        s3_valid_q;
  logic [75:0] s3_mag_q;
  logic [6:0]  s3_nsh_q;
  logic [9:0]  s3_exp_q;
  logic        s3_sign_q;
  logic        s3_special_q;
  logic [31:0] s3_special_res_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s3_valid_q <= 1'b0;
    else         s3_valid_q <= s2_valid_q;
  end

  always_ff @(posedge clk_i) begin
    if (s2_valid_q) begin
      s3_mag_q         <= mag_d;
      s3_nsh_q         <= nsh_d;
      s3_exp_q         <= exp_d;
      s3_sign_q        <= sign_d;
      s3_special_q     <= s2_special_q;
      s3_special_res_q <= s2_special_res_q;
    end
  end

  logic [75:0] norm;
  logic        hidden, guard, sticky, rnd, ovf, zero;
  logic [22:0] frac;
  logic [7:0]  exp_field;
  logic [30:0] packed_mag;
  assign norm       = s3_mag_q << s3_nsh_q;
  assign hidden     = norm[75];
  assign frac       = norm[74:52];
  assign guard      = norm[51];
  assign sticky     = |norm[50:0];
  assign zero       = (s3_mag_q == '0);  // exact cancellation: +0 in round-to-nearest
  assign ovf        = hidden && (s3_exp_q >= 10'd255);
  assign exp_field  = hidden ? s3_exp_q[7:0] : 8'd0;
  assign rnd        = wg_fp32_pkg::fp32_round_up(wg_fp32_pkg::FP32_RN, s3_sign_q, frac[0],
                                                 guard, sticky);
  // A carry out of the fraction moves to the next binade (or from subnormal to
  // normal, or from the largest finite value to infinity) by itself.
  assign packed_mag = {exp_field, frac} + {30'd0, rnd};

  always_comb begin
    if (s3_special_q)  result_o = s3_special_res_q;
    else if (zero)     result_o = 32'd0;
    else if (ovf)      result_o = {s3_sign_q, 8'hFF, 23'd0};
    else               result_o = {s3_sign_q, packed_mag};
  end
  assign valid_o = s3_valid_q;

  // Bits that are constant by construction.
  logic unused_fma;
  assign unused_fma = ^{ec_n[11:9], ep27[11:9], align[11:7], s2_e73_q[8:7]};

`ifndef SYNTHESIS
  // The product window never carries into W[75] on addition: c < 2^75, wp < 2^49.
  always_ff @(posedge clk_i) begin
    if (s2_valid_q && !sub && !s2_special_q) begin
      assert (!sum[76]) else $error("wg_fp32_fma: window overflow");
    end
  end
`endif

endmodule
