// wg_pg_issue_ctrl: warp issue control of one SM (docs/power-gating.md section 3): the
// 4-state machine that combines SIMD-unit issue control and warp splitting, driven by the
// ALU utilisation measured per time slice.
//
//   state  unit 0              unit 1              lanes in use
//   S1     full                full                all
//   S2     full                split (lanes 0..W/2-1)  3/4
//   S3     full                out of use (its warps issue to unit 0)  1/2
//   S4     split               out of use          1/4
//
// Utilisation U of a slice of slice_cycles_i cycles: busy lane-cycles (busy_i, every ALU
// lane of the SM) over all lane-cycles of the slice, lanes out of use included. At the end
// of each slice the state of the next slice is chosen (with p_d = down_pct_i, p_u = up_pct_i):
//   band(U) = S1 if U >= p_d[0], S2 if U >= p_d[1], S3 if U >= p_d[2], else S4;
//   down:  band(U) has fewer lanes than the current state -> band(U);
//   up:    otherwise, U >= p_u[state - 1] (state S2..S4) -> one state up;
//   else the state stays.
// U >= p % is evaluated exactly as busy x 100 >= p x slice x lanes (no rounding).
// With en_i low the state is S1 and stays there; the slice is still measured (util_o).
// restart_i (a new kernel) returns to S1 and starts a new slice. The decision takes
// effect in the cycle after the slice's last cycle. A change of slice_cycles_i applies
// at once: a slice ends when its cycle count reaches the current length.
//
// Counters (clear_i or reset zero them): cycles spent in each state, state changes.
//
// Two clocks, gated copies of one clock: the state (so split_o, unit_on_o, in_use_o, state_o)
// on clk_i; the slice (its cycle count and busy lane-cycles) and the counters on clk_pg_i,
// which has an edge at every edge of clk_i and may have more, at which clk_i is off (an idle
// SM's histogram sweep, docs/gpu.md section 4.3). At such an edge the slice advances as at
// any other and the state may not change: sync_o is high when it changes at the next edge,
// and the owner then gives clk_i that edge too (as wg_pg_ctrl).
`default_nettype none

module wg_pg_issue_ctrl #(
  parameter int unsigned NUM_SIMD   = 2,
  parameter int unsigned SIMD_WIDTH = 16,
  parameter int unsigned CNT_W      = 48,
  // Derived: do not override.
  parameter int unsigned LANES  = NUM_SIMD * SIMD_WIDTH,
  parameter int unsigned ACC_W  = 16 + $clog2(LANES + 1)
) (
  input  wire logic                 clk_i,
  input  wire logic                 clk_pg_i,        // slice and counters: clk_i's edges and more
  input  wire logic                 rst_ni,
  output logic                      sync_o,          // the state changes at the next edge: clk_i must tick
  input  wire logic                 en_i,            // issue control on
  input  wire logic                 restart_i,       // a kernel starts: S1, new slice
  input  wire logic                 clear_i,         // zero the counters
  input  wire logic [15:0]          slice_cycles_i,  // T (0 counts as 1)
  input  wire logic [23:0]          down_pct_i,      // S1 | S2 | S3 band floors: [7:0] [15:8] [23:16]
  input  wire logic [23:0]          up_pct_i,        // up from S2 | S3 | S4: [7:0] [15:8] [23:16]
  input  wire logic [LANES-1:0]     busy_i,          // ALU lanes computing this cycle
  output logic [1:0]                state_o,         // 0 = S1 .. 3 = S4
  output logic [NUM_SIMD-1:0]       split_o,         // the unit runs on its lower half
  output logic [NUM_SIMD-1:0]       unit_on_o,       // the unit takes instructions
  output logic [LANES-1:0]          in_use_o,        // lanes in use (unit u at [u*W +: W])
  output logic                      slice_end_o,     // the last cycle of a slice
  output logic [ACC_W-1:0]          util_o,          // busy lane-cycles of the last full slice
  output logic [4*CNT_W-1:0]        cnt_state_o,     // cycles in S1..S4 at [s*CNT_W +: CNT_W]
  output logic [CNT_W-1:0]          cnt_changes_o    // state changes
);

  localparam int unsigned W = SIMD_WIDTH;

  if (NUM_SIMD != 2 || SIMD_WIDTH < 2) begin : g_param_check
    $error("wg_pg_issue_ctrl: the 4-state machine needs 2 SIMD units of at least 2 lanes");
  end

  typedef enum logic [1:0] {S1 = 2'd0, S2 = 2'd1, S3 = 2'd2, S4 = 2'd3} state_e;

  state_e            state_q, state_d;
  logic [15:0]       cyc_q;              // cycles of the current slice before this one
  logic [ACC_W-1:0]  acc_q;              // busy lane-cycles of the slice before this cycle
  logic [ACC_W-1:0]  util_q;
  logic [ACC_W-1:0]  total;              // ... including this cycle
  logic [15:0]       slice_len;
  logic              slice_end;

  assign slice_len = (slice_cycles_i == 16'd0) ? 16'd1 : slice_cycles_i;
  assign slice_end = (cyc_q + 16'd1 >= slice_len);
  assign total     = acc_q + ACC_W'($countones(busy_i));

  // U >= p % as total x 100 >= p x slice x LANES.
  logic [47:0] u100, cap;
  logic [2:0]  ge_down, ge_up;
  assign u100 = 48'(total) * 48'd100;
  assign cap  = 48'(slice_len) * 48'(LANES);
  // Compared only in a slice's last cycle, the only one that reads them.
  always_comb begin
    ge_down = '0;
    ge_up   = '0;
    if (slice_end) begin
      for (int i = 0; i < 3; i++) begin
        ge_down[i] = (u100 >= 48'(down_pct_i[i*8 +: 8]) * cap);
        ge_up[i]   = (u100 >= 48'(up_pct_i[i*8 +: 8]) * cap);
      end
    end
  end

  // The state machine: the band of U, then down, up or stay.
  state_e band;
  always_comb begin
    band = ge_down[0] ? S1 : ge_down[1] ? S2 : ge_down[2] ? S3 : S4;
    state_d = state_q;
    if (!en_i || restart_i) begin
      state_d = S1;
    end else if (slice_end) begin
      if (band > state_q) begin
        state_d = band;
      end else begin
        unique case (state_q)
          S2: if (ge_up[0]) state_d = S1;
          S3: if (ge_up[1]) state_d = S2;
          S4: if (ge_up[2]) state_d = S3;
          default: ;
        endcase
      end
    end
  end

  logic [CNT_W-1:0] st_cnt_q [4];
  logic [CNT_W-1:0] chg_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) state_q <= S1;
    else         state_q <= state_d;
  end
  assign sync_o = state_d != state_q;

  always_ff @(posedge clk_pg_i) begin
    if (!rst_ni) begin
      cyc_q   <= '0;
      acc_q   <= '0;
      util_q  <= '0;
    end else begin
      if (restart_i || slice_end) begin
        cyc_q <= '0;
        acc_q <= '0;
      end else begin
        cyc_q <= cyc_q + 16'd1;
        acc_q <= total;
      end
      if (slice_end && !restart_i) util_q <= total;
    end
  end

  always_ff @(posedge clk_pg_i) begin
    if (!rst_ni || clear_i) begin
      for (int s = 0; s < 4; s++) st_cnt_q[s] <= '0;
      chg_q <= '0;
    end else begin
      st_cnt_q[state_q] <= st_cnt_q[state_q] + CNT_W'(1);
      if (state_d != state_q) chg_q <= chg_q + CNT_W'(1);
    end
  end

  // Unit modes of the state.
  always_comb begin
    split_o   = '0;
    unit_on_o = '1;
    unique case (state_q)
      S1: ;
      S2: split_o[1] = 1'b1;
      S3: unit_on_o[1] = 1'b0;
      S4: begin
        unit_on_o[1] = 1'b0;
        split_o[0]   = 1'b1;
      end
      default: ;
    endcase
    for (int u = 0; u < 32'(NUM_SIMD); u++) begin
      in_use_o[u*W +: W] = !unit_on_o[u] ? '0 : split_o[u] ? {{(W - W/2){1'b0}}, {(W/2){1'b1}}} : '1;
    end
  end

  assign state_o       = state_q;
  assign slice_end_o   = slice_end;
  assign util_o        = util_q;
  assign cnt_changes_o = chg_q;
  always_comb begin
    for (int s = 0; s < 4; s++) cnt_state_o[s*CNT_W +: CNT_W] = st_cnt_q[s];
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (state_d == state_q || restart_i || !en_i || slice_end)
        else $error("wg_pg_issue_ctrl: state change inside a slice");
    end
  end
`endif

endmodule
