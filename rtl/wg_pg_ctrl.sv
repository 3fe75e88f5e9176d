// wg_pg_ctrl: the power-gating controllers of one SM (docs/power-gating.md section 2).
//
// One lane controller per lane of the SIMD units (NUM_SIMD x SIMD_WIDTH, lane l of unit u at
// index u*SIMD_WIDTH + l), the unit level and the core level. Per lane: a state (ON, SLEEP,
// WAKE) and one counter, which counts consecutive idle cycles in ON, cycles asleep in SLEEP
// and wake-up cycles in WAKE (saturating at 2^CW - 1).
//
//   ON     reported active when work_i (the lane holds work), else idle. A cycle with work,
//          hold or demand resets the counter; an idle cycle counts, and when the count
//          including this cycle reaches idle_detect_i (at least 1) and the lane may sleep
//          (pol_lane_i, or may_sleep_i: the issue control has taken it out of use), the lane
//          is in SLEEP from the next cycle: one gating event. So a lane is idle for
//          max(idle_detect, 1) cycles before it sleeps.
//   SLEEP  reported sleep. A wake request (demand_i, or the lane may no longer sleep) in a
//          cycle in which the lane has slept at least bet_i cycles (counting this one), or
//          any cycle when blackout_i is off, starts the wake-up: WAKE from the next cycle
//          (ON directly when wakeup_i = 0).
//   WAKE   reported wake for wakeup_i cycles, then ON (idle). Demand meanwhile changes nothing.
//
// lane_on_o is the lane's power enable (ON). Work may be issued to a lane only while it is
// on, and a lane never leaves ON in a cycle with work, hold or demand (assertions below), so
// the gating wrapper (wg_pg_cell) never sees work on a sleeping lane.
//
// Unit u sleeps (unit_sleep_o[u]) while pol_unit_i is on and every lane of u is in SLEEP.
// The core sleeps after idle_detect_i cycles of core_idle_i (no CTA resident, memory port
// drained) with pol_core_i on; core_demand_i (a CTA launch offered) wakes it like a lane
// (blackout, wakeup_i cycles); core_on_o low holds the launch back.
//
// Counters (CNT_W bits, counting in cycles with en_i, cleared by clear_i): unit sleep cycles and events (entries into
// sleep), core sleep cycles, events, and core wake-up stall cycles (core_demand_i while the
// core is not on). The lanes' own counters and histogram are in wg_pg_acct, fed from
// lane_state_o (2 bits per lane: 0 active, 1 idle, 2 sleep, 3 wake).
//
// Two clocks, gated copies of one clock: the states (the lanes' and the core's, so every
// output but the counters) on clk_i; the delay counters (idle, asleep and wake-up cycles) on
// clk_pg_i, which has an edge at every edge of clk_i and may have more, at which clk_i is off
// (wg_gpu sweeps an idle SM's histograms on such edges, docs/gpu.md section 4.3). At such an
// edge the counters advance as at any other and no state may change: sync_o is high when a
// state changes at the next edge, and the owner then gives clk_i that edge too. So the outputs
// change only at edges of clk_i (the SM's logic behind them is evaluated only there), and the
// controller behaves as if every edge of clk_pg_i were one of clk_i.
`default_nettype none

module wg_pg_ctrl #(
  parameter int unsigned NUM_SIMD   = 2,
  parameter int unsigned SIMD_WIDTH = 16,
  parameter int unsigned CW         = 20,   // controller counters and delays
  parameter int unsigned CNT_W      = 48,   // statistics counters
  // Derived: do not override.
  parameter int unsigned NL = NUM_SIMD * SIMD_WIDTH
) (
  input  wire logic                      clk_i,
  input  wire logic                      clk_pg_i,  // the delay counters: clk_i's edges and more
  input  wire logic                      rst_ni,
  output logic                           sync_o,    // a state changes at the next edge: clk_i must tick

  // Run-time controls (docs/power-gating.md section 5).
  input  wire logic                      pol_lane_i,
  input  wire logic                      pol_unit_i,
  input  wire logic                      pol_core_i,
  input  wire logic                      blackout_i,
  input  wire logic [CW-1:0]             bet_i,
  input  wire logic [CW-1:0]             idle_detect_i,
  input  wire logic [CW-1:0]             wakeup_i,

  // Lanes.
  input  wire logic [NL-1:0]             work_i,       // the lane holds work (state active)
  input  wire logic [NL-1:0]             hold_i,       // work issued to the lane, not finished
  input  wire logic [NL-1:0]             demand_i,     // an instruction at issue needs the lane
  input  wire logic [NL-1:0]             may_sleep_i,  // out of use (warp issue control)
  output logic      [NL-1:0]             lane_on_o,
  output logic      [2*NL-1:0]           lane_state_o,

  // Units and core.
  output logic      [NUM_SIMD-1:0]       unit_sleep_o,
  input  wire logic                      core_idle_i,
  input  wire logic                      core_demand_i,
  output logic                           core_on_o,
  output logic                           core_sleep_o,

  // Counters.
  input  wire logic                      en_i,      // count this cycle
  input  wire logic                      clear_i,
  output logic      [NUM_SIMD*CNT_W-1:0] unit_sleep_cnt_o,
  output logic      [NUM_SIMD*CNT_W-1:0] unit_events_o,
  output logic      [CNT_W-1:0]          core_sleep_cnt_o,
  output logic      [CNT_W-1:0]          core_events_o,
  output logic      [CNT_W-1:0]          core_wake_stall_o
);

  localparam logic [1:0] S_ON    = 2'd0;
  localparam logic [1:0] S_SLEEP = 2'd1;
  localparam logic [1:0] S_WAKE  = 2'd2;

  localparam logic [1:0] R_ACTIVE = 2'd0;
  localparam logic [1:0] R_IDLE   = 2'd1;
  localparam logic [1:0] R_SLEEP  = 2'd2;
  localparam logic [1:0] R_WAKE   = 2'd3;

  localparam logic [CW-1:0] CMAX = '1;

  logic [CW-1:0] detect;  // idle cycles before sleep: at least 1 (the detecting cycle)
  assign detect = (idle_detect_i == '0) ? CW'(1) : idle_detect_i;

  // ---------------------------------------------------------------- lanes
  logic [1:0]    st_q [NL];
  logic [1:0]    st_d [NL];
  logic [CW-1:0] cnt_q [NL];
  logic [CW-1:0] cnt_d [NL];

  always_comb begin
    for (int l = 0; l < 32'(NL); l++) begin
      logic [CW-1:0] inc;
      logic          ms;
      inc = (cnt_q[l] == CMAX) ? CMAX : cnt_q[l] + 1'b1;
      ms  = pol_lane_i || may_sleep_i[l];
      st_d[l]  = st_q[l];
      cnt_d[l] = cnt_q[l];
      lane_state_o[2*l +: 2] = R_IDLE;
      unique case (st_q[l])
        S_ON: begin
          lane_state_o[2*l +: 2] = work_i[l] ? R_ACTIVE : R_IDLE;
          if (work_i[l] || hold_i[l] || demand_i[l]) begin
            cnt_d[l] = '0;
          end else if (inc >= detect && ms) begin
            st_d[l]  = S_SLEEP;
            cnt_d[l] = '0;
          end else begin
            cnt_d[l] = inc;
          end
        end
        S_SLEEP: begin
          lane_state_o[2*l +: 2] = R_SLEEP;
          cnt_d[l] = inc;
          if ((demand_i[l] || !ms) && (!blackout_i || inc >= bet_i)) begin
            st_d[l]  = (wakeup_i == '0) ? S_ON : S_WAKE;
            cnt_d[l] = '0;
          end
        end
        S_WAKE: begin
          lane_state_o[2*l +: 2] = R_WAKE;
          cnt_d[l] = inc;
          if (inc >= wakeup_i) begin
            st_d[l]  = S_ON;
            cnt_d[l] = '0;
          end
        end
        default: begin
          st_d[l]  = S_ON;
          cnt_d[l] = '0;
        end
      endcase
      lane_on_o[l] = (st_q[l] == S_ON);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int l = 0; l < 32'(NL); l++) st_q[l] <= S_ON;
    end else begin
      for (int l = 0; l < 32'(NL); l++) st_q[l] <= st_d[l];
    end
  end

  always_ff @(posedge clk_pg_i) begin
    if (!rst_ni) begin
      for (int l = 0; l < 32'(NL); l++) cnt_q[l] <= '0;
    end else begin
      for (int l = 0; l < 32'(NL); l++) cnt_q[l] <= cnt_d[l];
    end
  end

  // ---------------------------------------------------------------- units
  logic [NUM_SIMD-1:0] unit_prev_q;
  logic [CNT_W-1:0]    usl_q [NUM_SIMD];
  logic [CNT_W-1:0]    uev_q [NUM_SIMD];

  always_comb begin
    for (int u = 0; u < 32'(NUM_SIMD); u++) begin
      logic all;
      all = 1'b1;
      for (int l = 0; l < 32'(SIMD_WIDTH); l++) begin
        if (st_q[u*SIMD_WIDTH + l] != S_SLEEP) all = 1'b0;
      end
      unit_sleep_o[u] = pol_unit_i && all;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      unit_prev_q <= '0;
      for (int u = 0; u < 32'(NUM_SIMD); u++) begin
        usl_q[u] <= '0;
        uev_q[u] <= '0;
      end
    end else begin
      unit_prev_q <= unit_sleep_o;
      for (int u = 0; u < 32'(NUM_SIMD); u++) begin
        if (en_i && unit_sleep_o[u]) usl_q[u] <= usl_q[u] + 1'b1;
        if (en_i && unit_sleep_o[u] && !unit_prev_q[u]) uev_q[u] <= uev_q[u] + 1'b1;
      end
    end
  end

  for (genvar u = 0; u < NUM_SIMD; u++) begin : g_unit_out
    assign unit_sleep_cnt_o[u*CNT_W +: CNT_W] = usl_q[u];
    assign unit_events_o[u*CNT_W +: CNT_W]    = uev_q[u];
  end

  // ---------------------------------------------------------------- core
  logic [1:0]    core_q, core_d;
  logic [CW-1:0] ccnt_q, ccnt_d;
  logic          core_event;

  always_comb begin
    logic [CW-1:0] inc;
    inc        = (ccnt_q == CMAX) ? CMAX : ccnt_q + 1'b1;
    core_d     = core_q;
    ccnt_d     = ccnt_q;
    core_event = 1'b0;
    unique case (core_q)
      S_ON: begin
        if (!core_idle_i || core_demand_i) begin
          ccnt_d = '0;
        end else if (inc >= detect && pol_core_i) begin
          core_d     = S_SLEEP;
          ccnt_d     = '0;
          core_event = 1'b1;
        end else begin
          ccnt_d = inc;
        end
      end
      S_SLEEP: begin
        ccnt_d = inc;
        if ((core_demand_i || !pol_core_i) && (!blackout_i || inc >= bet_i)) begin
          core_d = (wakeup_i == '0) ? S_ON : S_WAKE;
          ccnt_d = '0;
        end
      end
      S_WAKE: begin
        ccnt_d = inc;
        if (inc >= wakeup_i) begin
          core_d = S_ON;
          ccnt_d = '0;
        end
      end
      default: begin
        core_d = S_ON;
        ccnt_d = '0;
      end
    endcase
  end

  assign core_on_o    = (core_q == S_ON);
  assign core_sleep_o = (core_q == S_SLEEP);

  logic [CNT_W-1:0] csl_q, cev_q, cws_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) core_q <= S_ON;
    else         core_q <= core_d;
  end

  always_ff @(posedge clk_pg_i) begin
    if (!rst_ni) ccnt_q <= '0;
    else         ccnt_q <= ccnt_d;
  end

  // A state changes at the next edge.
  always_comb begin
    sync_o = core_d != core_q;
    for (int l = 0; l < 32'(NL); l++)
      if (st_d[l] != st_q[l]) sync_o = 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      csl_q <= '0;
      cev_q <= '0;
      cws_q <= '0;
    end else begin
      if (en_i && core_q == S_SLEEP) csl_q <= csl_q + 1'b1;
      if (en_i && core_event) cev_q <= cev_q + 1'b1;
      if (en_i && core_demand_i && core_q != S_ON) cws_q <= cws_q + 1'b1;
    end
  end

  assign core_sleep_cnt_o  = csl_q;
  assign core_events_o     = cev_q;
  assign core_wake_stall_o = cws_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int l = 0; l < 32'(NL); l++) begin
        assert (!((work_i[l] || hold_i[l]) && st_q[l] != S_ON))
          else $error("wg_pg_ctrl: lane %0d holds work while not powered", l);
        assert (!(st_q[l] == S_ON && st_d[l] == S_SLEEP && (work_i[l] || hold_i[l] || demand_i[l])))
          else $error("wg_pg_ctrl: lane %0d put to sleep while in use", l);
      end
    end
  end
`endif

endmodule
