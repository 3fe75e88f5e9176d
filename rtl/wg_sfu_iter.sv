// wg_sfu_iter: one lane of the SFU's iterative unit (docs/sfu.md section 5):
// FDIV, FSQRT (correctly rounded, subnormals kept) and IDIV/IREM (signed and
// unsigned) by restoring digit recurrence, ITER_BITS result bits per cycle.
//
//   start (IDLE): special operands decided, operands unpacked into the
//          partial remainder R, the bits still to bring in N, the divisor D
//   RUN    one recurrence step per result bit:
//            divide: R = 2R + next bit of N; if R >= D: R -= D, q = 1
//            sqrt:   R = 4R + next 2 bits of N; T = 4Q + 1; if R >= T: R -= T, q = 1
//          FDIV 26 steps (quotient of the 24-bit significands scaled by 2^25),
//          FSQRT 26 (root of the significand scaled by 2^26), IDIV/IREM 32
//   FIN    result: FP through wg_sfu_pkg::pack with the remainder as sticky bit;
//          integer quotient / remainder with their signs
//   DONE   result_o valid until ack_i
// Cycles from start to done_o: 2 + ceil(steps / ITER_BITS) (special operands: 2).
`default_nettype none

module wg_sfu_iter #(
  parameter int unsigned ITER_BITS = 2
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        start_i,
  input  wire logic [2:0]  op_i,     // wg_sfu_pkg::IT_*
  input  wire logic [31:0] a_i,
  input  wire logic [31:0] b_i,
  output logic             done_o,
  output logic [31:0]      result_o,
  input  wire logic        ack_i,
  output logic             busy_o
);

  typedef enum logic [1:0] { S_IDLE, S_RUN, S_FIN, S_DONE } state_e;
  state_e state_q, state_d;

  logic [2:0]  op_q;
  logic [33:0] r_q;
  logic [51:0] n_q;
  logic [31:0] d_q, q_q, res_q;
  logic [5:0]  left_q;
  logic        spec_q, sign_q, rsign_q;
  logic [31:0] sres_q;
  logic signed [11:0] k_q;

  // ---------------------------------------------------------------------------
  // Operand set-up (start).
  // ---------------------------------------------------------------------------
  function automatic logic [31:0] norm_m(input logic [31:0] x);  // 1.f as 24 bits, subnormals normalised
    int p;
    p = 0;
    for (int j = 0; j < 23; j++) begin
      if (x[j]) p = j;
    end
    norm_m = (x[30:23] != 8'd0) ? {8'd0, 1'b1, x[22:0]} : (32'(x[22:0]) << (23 - p));
  endfunction

  function automatic int norm_e(input logic [31:0] x);  // unbiased exponent of norm_m
    int p;
    p = 0;
    for (int j = 0; j < 23; j++) begin
      if (x[j]) p = j;
    end
    norm_e = (x[30:23] != 8'd0) ? (32'(x[30:23]) - 127) : (-126 - (23 - p));
  endfunction

  logic        l_spec, l_sign, l_rsign;
  logic [31:0] l_sres, l_d;
  logic [33:0] l_r;
  logic [51:0] l_n;
  logic [5:0]  l_steps;
  logic signed [11:0] l_k;

  always_comb begin
    logic        an, bn, ai, bi, az, bz, sa, sb;
    logic [31:0] ma, mb, na, nb;
    int          ea, eb, xx;
    an = (a_i[30:23] == 8'hFF) && (a_i[22:0] != '0);
    bn = (b_i[30:23] == 8'hFF) && (b_i[22:0] != '0);
    ai = (a_i[30:23] == 8'hFF) && (a_i[22:0] == '0);
    bi = (b_i[30:23] == 8'hFF) && (b_i[22:0] == '0);
    az = (a_i[30:0] == '0);
    bz = (b_i[30:0] == '0);
    sa = a_i[31];
    sb = b_i[31];
    ma = norm_m(a_i);
    mb = norm_m(b_i);
    ea = norm_e(a_i);
    eb = norm_e(b_i);
    na = (sa && (op_i == wg_sfu_pkg::IT_IDIVS || op_i == wg_sfu_pkg::IT_IREMS)) ? -a_i : a_i;
    nb = (sb && (op_i == wg_sfu_pkg::IT_IDIVS || op_i == wg_sfu_pkg::IT_IREMS)) ? -b_i : b_i;
    l_spec  = 1'b0;
    l_sres  = '0;
    l_sign  = 1'b0;
    l_rsign = 1'b0;
    l_r     = '0;
    l_n     = '0;
    l_d     = '0;
    l_steps = 6'd32;
    l_k     = '0;
    xx      = 0;
    case (op_i)
      wg_sfu_pkg::IT_FDIV: begin
        l_sign  = sa ^ sb;
        l_spec  = 1'b1;
        if (an || bn || (ai && bi) || (az && bz)) l_sres = wg_sfu_pkg::CANON_NAN;
        else if (ai || bz) l_sres = {sa ^ sb, 31'h7F80_0000};
        else if (bi || az) l_sres = {sa ^ sb, 31'd0};
        else l_spec = 1'b0;
        l_r     = 34'(ma[31:1]);
        l_n     = {ma[0], 51'd0};
        l_d     = mb;
        l_steps = 6'd26;
        l_k     = 12'(ea - eb - 25);
      end
      wg_sfu_pkg::IT_FSQRT: begin
        l_spec  = 1'b1;
        if (an) l_sres = wg_sfu_pkg::CANON_NAN;
        else if (az) l_sres = a_i;
        else if (sa) l_sres = wg_sfu_pkg::CANON_NAN;
        else if (ai) l_sres = a_i;
        else l_spec = 1'b0;
        xx = ea - 23;
        // x = M x 2^xx; an even exponent: M' = 2M when xx is odd. N = M' x 2^26.
        l_n     = xx[0] ? (52'(ma) << 27) : (52'(ma) << 26);
        l_steps = 6'd26;
        l_k     = 12'(((xx[0] ? xx - 1 : xx) >>> 1) - 13);
      end
      default: begin  // IDIV, IREM
        l_spec  = (b_i == '0);
        l_sres  = (op_i == wg_sfu_pkg::IT_IDIVS || op_i == wg_sfu_pkg::IT_IDIVU) ? 32'hFFFF_FFFF : a_i;
        l_n     = {na, 20'd0};
        l_d     = nb;
        l_sign  = (op_i == wg_sfu_pkg::IT_IDIVS) && (sa ^ sb);
        l_rsign = (op_i == wg_sfu_pkg::IT_IREMS) && sa;
      end
    endcase
  end

  // ---------------------------------------------------------------------------
  // Recurrence: up to ITER_BITS steps per cycle.
  // ---------------------------------------------------------------------------
  logic [33:0] s_r;
  logic [51:0] s_n;
  logic [31:0] s_q;
  logic [5:0]  s_left;

  always_comb begin
    logic [33:0] r2, tt;
    logic        sq;
    sq     = (op_q == wg_sfu_pkg::IT_FSQRT);
    r2     = '0;
    tt     = '0;
    s_r    = r_q;
    s_n    = n_q;
    s_q    = q_q;
    s_left = left_q;
    for (int i = 0; i < 32'(ITER_BITS); i++) begin
      if (s_left != '0) begin
        if (sq) begin
          r2  = {s_r[31:0], s_n[51:50]};
          s_n = s_n << 2;
          tt  = {s_q, 2'b01};
        end else begin
          r2  = {s_r[32:0], s_n[51]};
          s_n = s_n << 1;
          tt  = {2'b00, d_q};
        end
        if (r2 >= tt) begin
          s_r = r2 - tt;
          s_q = {s_q[30:0], 1'b1};
        end else begin
          s_r = r2;
          s_q = {s_q[30:0], 1'b0};
        end
        s_left = s_left - 6'd1;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Result.
  // ---------------------------------------------------------------------------
  logic [31:0] f_res;
  always_comb begin
    case (op_q)
      wg_sfu_pkg::IT_FDIV:  f_res = wg_sfu_pkg::pack(sign_q, 64'(q_q), k_q, r_q != '0);
      wg_sfu_pkg::IT_FSQRT: f_res = wg_sfu_pkg::pack(1'b0, 64'(q_q), k_q, r_q != '0);
      wg_sfu_pkg::IT_IDIVS, wg_sfu_pkg::IT_IDIVU: f_res = sign_q ? -q_q : q_q;
      default: f_res = rsign_q ? -r_q[31:0] : r_q[31:0];
    endcase
    if (spec_q) f_res = sres_q;
  end

  // ---------------------------------------------------------------------------
  // FSM.
  // ---------------------------------------------------------------------------
  always_comb begin
    state_d = state_q;
    case (state_q)
      S_IDLE: if (start_i) state_d = l_spec ? S_FIN : S_RUN;
      S_RUN:  if (s_left == '0) state_d = S_FIN;
      S_FIN:  state_d = S_DONE;
      S_DONE: if (ack_i) state_d = S_IDLE;
      default: state_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) state_q <= S_IDLE;
    else state_q <= state_d;
    if (state_q == S_IDLE && start_i) begin
      op_q    <= op_i;
      spec_q  <= l_spec;
      sres_q  <= l_sres;
      sign_q  <= l_sign;
      rsign_q <= l_rsign;
      r_q     <= l_r;
      n_q     <= l_n;
      d_q     <= l_d;
      q_q     <= '0;
      left_q  <= l_steps;
      k_q     <= l_k;
    end else if (state_q == S_RUN) begin
      r_q    <= s_r;
      n_q    <= s_n;
      q_q    <= s_q;
      left_q <= s_left;
    end
    if (state_q == S_FIN) res_q <= f_res;
  end

  assign done_o   = (state_q == S_DONE);
  assign result_o = res_q;
  assign busy_o   = (state_q != S_IDLE);

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(start_i && state_q != S_IDLE)) else $error("wg_sfu_iter: start while busy");
      assert (!(ack_i && state_q != S_DONE)) else $error("wg_sfu_iter: ack without a result");
    end
  end
`endif

endmodule
