// wg_rr_arbiter: round-robin arbiter over N requesters, with a lock input.
//
//   - Each cycle the arbiter grants the first requester at or after the
//     priority pointer (wrapping). valid_o = some requester is granted; gnt_o
//     is one-hot (all zero when valid_o = 0) and idx_o its index.
//   - When the grant is taken (grant_fire = valid_o && ready_i) the pointer
//     moves to the requester after the granted one, so a requester that keeps
//     requesting waits at most N-1 other grants.
//   - lock_i: in a cycle with valid_o = 1, lock_i = 1 makes the next cycle grant
//     the same requester again if it still requests, and keeps the pointer
//     where it is. Two uses: lock_i = valid_o && !ready_i keeps a grant stable
//     while it waits (valid/ready rule), lock_i = 1 during a burst gives one
//     requester consecutive grants.
//   - The choice is combinational from req_i (one priority encoder on the
//     masked requests and one on all requests); the pointer is kept as a
//     thermometer mask so that no comparator sits on the path.
`default_nettype none

module wg_rr_arbiter #(
  parameter int unsigned N = 4,
  // Derived: do not override.
  parameter int unsigned IDX_W = (N > 1) ? $clog2(N) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic [N-1:0]     req_i,
  input  wire logic             lock_i,
  input  wire logic             ready_i,
  output logic                  valid_o,
  output logic      [N-1:0]     gnt_o,
  output logic      [IDX_W-1:0] idx_o
);

  logic [N-1:0]     prio_q, prio_d;     // requesters at or after the pointer
  logic             lock_q, lock_d;
  logic [IDX_W-1:0] lock_idx_q;
  logic [N-1:0]     req_masked;
  logic [IDX_W-1:0] idx_masked, idx_all, idx;
  logic             any_masked, locked, grant_fire;

  assign req_masked = req_i & prio_q;
  assign any_masked = |req_masked;
  assign locked     = lock_q && req_i[lock_idx_q];

  // Lowest set bit of each request vector.
  always_comb begin
    idx_masked = '0;
    idx_all    = '0;
    for (int i = N - 1; i >= 0; i--) begin
      if (req_masked[i]) idx_masked = IDX_W'(i);
      if (req_i[i])      idx_all    = IDX_W'(i);
    end
  end

  assign idx        = locked ? lock_idx_q : (any_masked ? idx_masked : idx_all);
  assign valid_o    = |req_i;
  assign idx_o      = idx;
  assign grant_fire = valid_o && ready_i;

  always_comb begin
    gnt_o = '0;
    if (valid_o) gnt_o[idx] = 1'b1;
  end

  // The pointer moves past the granted requester when its grant is taken,
  // unless the grant is locked for the next cycle.
  assign lock_d = valid_o && lock_i;
  always_comb begin
    prio_d = prio_q;
    if (grant_fire && !lock_i) begin
      for (int i = 0; i < N; i++) prio_d[i] = (32'(i) > 32'(idx));
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      prio_q     <= '1;
      lock_q     <= 1'b0;
      lock_idx_q <= '0;
    end else begin
      prio_q     <= prio_d;
      lock_q     <= lock_d;
      lock_idx_q <= idx;
    end
  end

  if (N < 1) begin : g_bad_n
    $error("wg_rr_arbiter: N must be at least 1");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (valid_o) assert ($onehot(gnt_o) && (gnt_o & req_i) == gnt_o)
        else $error("wg_rr_arbiter: grant %b not one-hot or not requested (req %b)", gnt_o, req_i);
    end
  end
`endif

endmodule
