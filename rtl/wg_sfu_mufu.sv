// wg_sfu_mufu: one lane of the MUFU pipeline (docs/sfu.md sections 3 and 5).
//
// RCP RSQ SQRT EX2 LG2 SIN COS of one FP32 operand, bit-identical to
// host/src/sfu.c (wg_sfu_mufu). Fixed latency wg_sfu_pkg::MUFU_LATENCY = 7;
// every stage advances when en_i is 1 (the SFU stalls the whole pipeline
// while its collector cannot take a result).
//
//   R1  operand register
//   S1  unpack (subnormals normalised), special operands; per function the
//       table row and t; EX2: operand to fixed point; SIN/COS: 1/(2 pi) window
//       and the 24 x 64 product
//   S2  SIN/COS: turns modulo 1, quadrant, position in the quadrant; ROM address
//   S3  ROM row (registered read); c1 x t, t^2
//   S4  y = c0 + c1 t + c2 t^2 (exact powers of two override y)
//   S5  LG2: e x 2^54 + u y; SIN/COS: w y; others y
//   S6  pack (round to nearest even, subnormals, overflow) -> result register
`default_nettype none

module wg_sfu_mufu (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        en_i,      // advance every stage
  input  wire logic        valid_i,
  input  wire logic [2:0]  fn_i,      // wg_sfu_pkg::MUFU_*
  input  wire logic [31:0] a_i,
  output logic             valid_o,
  output logic [31:0]      result_o,
  output logic             busy_o     // a stage holds work
);

  localparam int unsigned L = wg_sfu_pkg::MUFU_LATENCY;

  logic [L-1:0] v_q;  // v_q[i]: stage register i+1 valid

  always_ff @(posedge clk_i) begin
    if (!rst_ni) v_q <= '0;
    else if (en_i) v_q <= {v_q[L-2:0], valid_i};
  end

  // ---------------------------------------------------------------------------
  // R1 -> S1
  // ---------------------------------------------------------------------------
  logic [2:0]  fn1_q;
  logic [31:0] a1_q;

  always_ff @(posedge clk_i) begin
    if (en_i && valid_i) begin
      fn1_q <= fn_i;
      a1_q  <= a_i;
    end
  end

  logic        sg, isnan, isinf, iszero;
  logic [7:0]  ex;
  logic [22:0] fr, f;
  int          e;       // unbiased exponent, subnormals normalised
  logic        s1_spec, s1_sign, s1_exact;
  logic [31:0] s1_sres;
  logic [7:0]  s1_idx;
  logic [22:0] s1_t;
  logic signed [11:0] s1_k;
  logic signed [8:0]  s1_le;   // LG2: exponent
  logic signed [24:0] s1_lu;   // LG2: u x 2^24
  logic [87:0] s1_p;           // SIN/COS: m x window of 1/(2 pi)
  int          s1_pe;          // SIN/COS: exponent of m (negative: right shift of p)

  always_comb begin
    int p, lz, sh, hh, i;
    logic [37:0] xm;
    logic signed [38:0] xs;
    logic [6:0] shs;
    logic [63:0] cw;

    sg     = a1_q[31];
    ex     = a1_q[30:23];
    fr     = a1_q[22:0];
    isnan  = (ex == 8'hFF) && (fr != '0);
    isinf  = (ex == 8'hFF) && (fr == '0);
    iszero = (ex == 8'd0) && (fr == '0);
    p = 0;
    for (int j = 0; j < 23; j++) begin
      if (fr[j]) p = j;
    end
    lz = 23 - p;
    if (ex != 8'd0) begin
      f = fr;
      e = 32'(ex) - 127;
    end else begin
      f = 23'(fr << lz);
      e = -126 - lz;
    end

    s1_spec  = 1'b0;
    s1_sres  = '0;
    s1_sign  = 1'b0;
    s1_exact = 1'b0;
    s1_idx   = {1'b0, f[22:16]};
    s1_t     = {f[15:0], 7'd0};
    s1_k     = '0;
    s1_le    = '0;
    s1_lu    = '0;
    s1_p     = '0;
    s1_pe    = 0;
    xm       = '0;
    xs       = '0;
    shs      = '0;
    cw       = '0;
    hh       = 0;
    i        = 0;
    sh       = 0;
    case (fn1_q)
      wg_sfu_pkg::MUFU_RCP: begin
        s1_sign  = sg;
        s1_exact = (f == '0);
        s1_k     = 12'(-30 - e);
        s1_spec  = isnan || isinf || iszero;
        s1_sres  = isnan ? wg_sfu_pkg::CANON_NAN : isinf ? {sg, 31'd0} : {sg, 31'h7F80_0000};
      end
      wg_sfu_pkg::MUFU_RSQ, wg_sfu_pkg::MUFU_SQRT: begin
        hh       = e >>> 1;
        s1_idx   = {e[0], f[22:16]};
        s1_exact = (f == '0) && !e[0];
        s1_k     = 12'((fn1_q == wg_sfu_pkg::MUFU_SQRT) ? (hh + 1 - 30) : (-hh - 30));
        s1_spec  = 1'b1;
        if (isnan) s1_sres = wg_sfu_pkg::CANON_NAN;
        else if (iszero) s1_sres = (fn1_q == wg_sfu_pkg::MUFU_SQRT) ? a1_q : {sg, 31'h7F80_0000};
        else if (sg) s1_sres = wg_sfu_pkg::CANON_NAN;
        else if (isinf) s1_sres = (fn1_q == wg_sfu_pkg::MUFU_SQRT) ? a1_q : 32'd0;
        else s1_spec = 1'b0;
      end
      wg_sfu_pkg::MUFU_EX2: begin
        // x = a x 2^30 toward zero, then the sign: i = floor, r = fraction.
        sh = 32'(ex) - 127 + 7;
        if (ex < 8'd96) xm = '0;
        else if (sh >= 0) xm = 38'({1'b1, fr}) << sh;
        else xm = 38'({1'b1, fr}) >> (-sh);
        xs = sg ? -$signed({1'b0, xm}) : $signed({1'b0, xm});
        i  = 32'(xs >>> 30);
        s1_idx   = {1'b0, xs[29:23]};
        s1_t     = xs[22:0];
        s1_exact = (xs[29:0] == '0);
        s1_k     = 12'(i - 30);
        s1_spec  = isnan || (ex >= 8'd135);
        s1_sres  = isnan ? wg_sfu_pkg::CANON_NAN : sg ? 32'd0 : 32'h7F80_0000;
      end
      wg_sfu_pkg::MUFU_LG2: begin
        if (f >= 23'h40_0000) begin
          s1_le = 9'(e + 1);
          s1_lu = 25'($signed({2'b00, f}) - 25'sh80_0000);
        end else begin
          s1_le = 9'(e);
          s1_lu = $signed({1'b0, f, 1'b0});
        end
        s1_k    = 12'(-54);
        s1_spec = 1'b1;
        if (isnan) s1_sres = wg_sfu_pkg::CANON_NAN;
        else if (iszero) s1_sres = 32'hFF80_0000;
        else if (sg) s1_sres = wg_sfu_pkg::CANON_NAN;
        else if (isinf) s1_sres = a1_q;
        else s1_spec = 1'b0;
      end
      default: begin  // SIN, COS
        s1_spec = (ex == 8'hFF) || (ex < 8'd115);
        s1_sres = (ex == 8'hFF) ? wg_sfu_pkg::CANON_NAN :
                  (fn1_q == wg_sfu_pkg::MUFU_COS) ? 32'h3F80_0000 : a1_q;
        s1_pe   = 32'(ex) - 150;
        shs     = (s1_pe > 0) ? 7'(s1_pe) : 7'd0;
        cw      = 64'(wg_sfu_tab_pkg::INV2PI >> (8'd128 - {1'b0, shs}));
        s1_p    = 88'({1'b1, fr}) * 88'(cw);
        s1_k    = 12'(-62);
      end
    endcase
  end

  // ---------------------------------------------------------------------------
  // S2: SIN/COS reduction; ROM address.
  // ---------------------------------------------------------------------------
  logic [2:0]  fn2_q;
  logic        spec2_q, sign2_q, exact2_q, neg2_q;
  logic [31:0] sres2_q;
  logic [7:0]  idx2_q;
  logic [22:0] t2_q;
  logic signed [11:0] k2_q;
  logic signed [8:0]  le2_q;
  logic signed [24:0] lu2_q;
  logic [87:0] p2_q;
  logic signed [7:0]  pe2_q;

  always_ff @(posedge clk_i) begin
    if (en_i && v_q[0]) begin
      fn2_q    <= fn1_q;
      spec2_q  <= s1_spec;
      sres2_q  <= s1_sres;
      sign2_q  <= s1_sign;
      exact2_q <= s1_exact;
      idx2_q   <= s1_idx;
      t2_q     <= s1_t;
      k2_q     <= s1_k;
      le2_q    <= s1_le;
      lu2_q    <= s1_lu;
      p2_q     <= s1_p;
      pe2_q    <= 8'(s1_pe);
      neg2_q   <= sg;
    end
  end

  logic        s2_spec, s2_sign, s2_trig;
  logic [31:0] s2_sres;
  logic [9:0]  s2_row;
  logic [22:0] s2_t;
  logic [39:0] s2_wt;

  always_comb begin
    logic [63:0] u;
    logic [62:0] w;
    logic [1:0]  q;
    s2_trig = (fn2_q == wg_sfu_pkg::MUFU_SIN) || (fn2_q == wg_sfu_pkg::MUFU_COS);
    s2_spec = spec2_q;
    s2_sres = sres2_q;
    s2_sign = sign2_q;
    s2_t    = t2_q;
    u = (pe2_q < 0) ? 64'(p2_q >> (-pe2_q)) : p2_q[63:0];
    if (neg2_q) u = -u;
    if (fn2_q == wg_sfu_pkg::MUFU_COS) u = u + (64'd1 << 62);
    q = u[63:62];
    w = {1'b0, u[61:0]};
    if (q[0]) w = (63'd1 << 62) - w;
    s2_wt = w[61:22];
    case (fn2_q)
      wg_sfu_pkg::MUFU_RCP:  s2_row = wg_sfu_tab_pkg::TAB_RCP + 10'(idx2_q[6:0]);
      wg_sfu_pkg::MUFU_RSQ:  s2_row = wg_sfu_tab_pkg::TAB_RSQ + 10'(idx2_q);
      wg_sfu_pkg::MUFU_SQRT: s2_row = wg_sfu_tab_pkg::TAB_SQRT + 10'(idx2_q);
      wg_sfu_pkg::MUFU_EX2:  s2_row = wg_sfu_tab_pkg::TAB_EX2 + 10'(idx2_q[6:0]);
      wg_sfu_pkg::MUFU_LG2:  s2_row = wg_sfu_tab_pkg::TAB_LG2 + 10'(idx2_q[6:0]);
      default:               s2_row = wg_sfu_tab_pkg::TAB_SIN + 10'(w[61:55]);
    endcase
    if (s2_trig && !spec2_q) begin
      s2_t    = w[54:32];
      s2_sign = q[1];
      if (q[0] && w[62]) begin
        s2_spec = 1'b1;
        s2_sres = q[1] ? 32'hBF80_0000 : 32'h3F80_0000;
      end else if (w == '0) begin
        s2_spec = 1'b1;
        s2_sres = {q[1], 31'd0};
      end
    end
  end

  // ---------------------------------------------------------------------------
  // S3: ROM read, c1 x t and t^2.
  // ---------------------------------------------------------------------------
  logic [2:0]  fn3_q;
  logic        spec3_q, sign3_q, exact3_q;
  logic [31:0] sres3_q;
  logic [22:0] t3_q;
  logic signed [11:0] k3_q;
  logic signed [8:0]  le3_q;
  logic signed [24:0] lu3_q;
  logic [39:0] wt3_q;
  logic [77:0] coef3_q;

  always_ff @(posedge clk_i) begin
    if (en_i && v_q[1]) begin
      fn3_q    <= fn2_q;
      spec3_q  <= s2_spec;
      sres3_q  <= s2_sres;
      sign3_q  <= s2_sign;
      exact3_q <= exact2_q;
      t3_q     <= s2_t;
      k3_q     <= k2_q;
      le3_q    <= le2_q;
      lu3_q    <= lu2_q;
      wt3_q    <= s2_wt;
      coef3_q  <= wg_sfu_tab_pkg::coef(s2_row);
    end
  end

  logic signed [48:0] s3_p1;
  logic [45:0]        s3_tt;
  assign s3_p1 = $signed(coef3_q[45:20]) * $signed({1'b0, t3_q});
  assign s3_tt = 46'(t3_q) * 46'(t3_q);

  // ---------------------------------------------------------------------------
  // S4: y = c0 + c1 t + c2 t^2.
  // ---------------------------------------------------------------------------
  logic [2:0]  fn4_q;
  logic        spec4_q, sign4_q, exact4_q;
  logic [31:0] sres4_q, c04_q;
  logic signed [19:0] c24_q;
  logic signed [25:0] p14_q;   // (c1 t) >> 23
  logic [22:0] tt4_q;          // t^2 >> 23
  logic signed [11:0] k4_q;
  logic signed [8:0]  le4_q;
  logic signed [24:0] lu4_q;
  logic [39:0] wt4_q;

  always_ff @(posedge clk_i) begin
    if (en_i && v_q[2]) begin
      fn4_q    <= fn3_q;
      spec4_q  <= spec3_q;
      sres4_q  <= sres3_q;
      sign4_q  <= sign3_q;
      exact4_q <= exact3_q;
      c04_q    <= coef3_q[77:46];
      c24_q    <= $signed(coef3_q[19:0]);
      p14_q    <= 26'(s3_p1 >>> 23);
      tt4_q    <= s3_tt[45:23];
      k4_q     <= k3_q;
      le4_q    <= le3_q;
      lu4_q    <= lu3_q;
      wt4_q    <= wt3_q;
    end
  end

  logic signed [43:0] s4_p2;
  logic signed [33:0] s4_y;
  assign s4_p2 = c24_q * $signed({1'b0, tt4_q});
  always_comb begin
    s4_y = $signed({2'b00, c04_q}) + 34'(p14_q) + 34'(s4_p2 >>> 23);
    if (exact4_q) s4_y = (fn4_q == wg_sfu_pkg::MUFU_SQRT) ? 34'sd536870912 : 34'sd1073741824;
  end

  // ---------------------------------------------------------------------------
  // S5: LG2 and SIN/COS products.
  // ---------------------------------------------------------------------------
  logic [2:0]  fn5_q;
  logic        spec5_q, sign5_q;
  logic [31:0] sres5_q;
  logic [30:0] y5_q;
  logic signed [11:0] k5_q;
  logic signed [8:0]  le5_q;
  logic signed [24:0] lu5_q;
  logic [39:0] wt5_q;

  always_ff @(posedge clk_i) begin
    if (en_i && v_q[3]) begin
      fn5_q   <= fn4_q;
      spec5_q <= spec4_q;
      sres5_q <= sres4_q;
      sign5_q <= sign4_q;
      y5_q    <= s4_y[30:0];
      k5_q    <= k4_q;
      le5_q   <= le4_q;
      lu5_q   <= lu4_q;
      wt5_q   <= wt4_q;
    end
  end

  logic        s5_sign;
  logic [63:0] s5_v;
  logic [70:0] pw;
  always_comb begin
    logic signed [63:0] r, uy;
    uy = 64'(lu5_q) * 64'(y5_q);  // lu5_q sign-extended: the low 64 bits are the signed product
    r  = (64'(le5_q) <<< 54) + uy;
    pw = 71'(wt5_q) * 71'(y5_q);
    s5_sign = sign5_q;
    case (fn5_q)
      wg_sfu_pkg::MUFU_LG2: begin
        s5_sign = r[63];
        s5_v    = r[63] ? 64'(-r) : 64'(r);
      end
      wg_sfu_pkg::MUFU_SIN, wg_sfu_pkg::MUFU_COS: s5_v = {1'b0, pw[70:8]};
      default: s5_v = 64'(y5_q);
    endcase
  end

  // ---------------------------------------------------------------------------
  // S6: pack.
  // ---------------------------------------------------------------------------
  logic        spec6_q, sign6_q;
  logic [31:0] sres6_q;
  logic [63:0] v6_q;
  logic signed [11:0] k6_q;
  logic [31:0] res7_q;

  always_ff @(posedge clk_i) begin
    if (en_i && v_q[4]) begin
      spec6_q <= spec5_q;
      sres6_q <= sres5_q;
      sign6_q <= s5_sign;
      v6_q    <= s5_v;
      k6_q    <= k5_q;
    end
    if (en_i && v_q[5]) begin
      res7_q <= spec6_q ? sres6_q : wg_sfu_pkg::pack(sign6_q, v6_q, k6_q, 1'b0);
    end
  end

  assign valid_o  = v_q[L-1];
  assign result_o = res7_q;
  assign busy_o   = |v_q;

  logic unused_ok;
  assign unused_ok = ^{s3_tt[22:0], s4_y[33:31], pw[7:0]};

  if (L != 7) begin : g_bad_latency
    $error("wg_sfu_mufu: the pipeline has 7 stages, MUFU_LATENCY differs");
  end

endmodule
