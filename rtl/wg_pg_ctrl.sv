// wg_pg_ctrl: the power-gating controllers of one SM (docs/power-gating.md section 2).
//
// One lane controller per lane of the SIMD units (NUM_SIMD x SIMD_WIDTH, lane l of unit u at
// index u*SIMD_WIDTH + l), the unit level and the core level. Per lane: a state (ON, SLEEP,
// WAKE) and one count: consecutive idle cycles in ON, cycles asleep in SLEEP and wake-up
// cycles in WAKE, kept as the cycle the count started (see the lanes section below).
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
  input  wire logic                      rst_ni,

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

  localparam logic [CW-1:0] CMAX = '1;

  logic [CW-1:0] detect;  // idle cycles before sleep: at least 1 (the detecting cycle)
  assign detect = (idle_detect_i == '0) ? CW'(1) : idle_detect_i;

  // ---------------------------------------------------------------- lanes
  // The lanes' states as one-hot masks (on_q, slp_q, wk_q: ON, SLEEP, WAKE) and, instead of a
  // counter per lane, the cycle from which the lane's count runs (ts_q, against the free
  // running now_q): the count including this cycle is now_q - ts_q + 1 (saturation is not
  // needed: the delays it is compared with are below 2^CW). A lane's time is written when
  // it enters a state and, in ON, at the first idle cycle after a busy one, so a cycle in
  // which no lane is near a transition costs a few mask operations; only lanes that could
  // change state this cycle are compared with their delay.
  localparam int unsigned TW = 48;   // time base: does not wrap in practice
  logic [TW-1:0]  now_q;
  logic [TW-1:0]  ts_q [NL];
  logic [NL-1:0]  on_q, slp_q, wk_q, busy_q;
  logic [NL-1:0]  busy, ms, sleep_cand, wake_cand, go_sleep, go_wake, wake_done, to_on, fall;

  // The lane's count including this cycle reached d (d >= 1).
  function automatic logic reached(input logic [TW-1:0] now, input logic [TW-1:0] ts,
                                   input logic [CW-1:0] d);
    reached = (now - ts + 1'b1) >= TW'(d);
  endfunction

  always_comb begin
    busy       = work_i | hold_i | demand_i;
    ms         = {NL{pol_lane_i}} | may_sleep_i;
    sleep_cand = on_q & ~busy & ms;
    wake_cand  = slp_q & (demand_i | ~ms);
    go_sleep   = '0;
    go_wake    = '0;
    wake_done  = '0;
    fall  = busy_q & ~busy & on_q;   // the first idle cycle after a busy one: count 1
    if (sleep_cand != '0) begin
      for (int l = 0; l < 32'(NL); l++)
        if (sleep_cand[l] && (fall[l] ? detect == CW'(1) : reached(now_q, ts_q[l], detect)))
          go_sleep[l] = 1'b1;
    end
    if (wake_cand != '0) begin
      if (!blackout_i) begin
        go_wake = wake_cand;
      end else begin
        for (int l = 0; l < 32'(NL); l++)
          if (wake_cand[l] && reached(now_q, ts_q[l], bet_i)) go_wake[l] = 1'b1;
      end
    end
    if (wk_q != '0) begin
      for (int l = 0; l < 32'(NL); l++)
        if (wk_q[l] && reached(now_q, ts_q[l], wakeup_i)) wake_done[l] = 1'b1;
    end
    to_on = wake_done | ((wakeup_i == '0) ? go_wake : '0);
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      now_q  <= '0;
      on_q   <= '1;
      slp_q  <= '0;
      wk_q   <= '0;
      busy_q <= '0;
      for (int l = 0; l < 32'(NL); l++) ts_q[l] <= '0;
    end else begin
      now_q  <= now_q + 1'b1;
      on_q   <= (on_q & ~go_sleep) | to_on;
      slp_q  <= (slp_q & ~go_wake) | go_sleep;
      wk_q   <= (wk_q & ~wake_done) | ((wakeup_i == '0) ? '0 : go_wake);
      busy_q <= busy;
      if ((fall | go_sleep | go_wake | wake_done) != '0) begin
        for (int l = 0; l < 32'(NL); l++) begin
          if (fall[l]) ts_q[l] <= now_q;   // this cycle is the count's first
          if (go_sleep[l] || go_wake[l] || wake_done[l]) ts_q[l] <= now_q + 1'b1;
        end
      end
    end
  end

  // Per lane 2 bits (0 active, 1 idle, 2 sleep, 3 wake): the low bits lo, the high bits hi,
  // interleaved 32 lanes at a time by spreading each half-word's bits apart (bit i to 2i).
  function automatic logic [63:0] spread(input logic [31:0] x);
    logic [63:0] y;
    y = {32'd0, x};
    y = (y | (y << 16)) & 64'h0000FFFF0000FFFF;
    y = (y | (y << 8))  & 64'h00FF00FF00FF00FF;
    y = (y | (y << 4))  & 64'h0F0F0F0F0F0F0F0F;
    y = (y | (y << 2))  & 64'h3333333333333333;
    y = (y | (y << 1))  & 64'h5555555555555555;
    spread = y;
  endfunction

  localparam int unsigned NLP = ((NL + 31) / 32) * 32;   // lanes padded to whole words
  logic [NL-1:0]    lo, hi;
  logic [NLP-1:0]   st_lo, st_hi;
  logic [2*NLP-1:0] st_all;
  assign lo    = (on_q & ~work_i) | wk_q;   // idle or wake
  assign hi    = slp_q | wk_q;              // sleep or wake
  assign st_lo = NLP'(lo);
  assign st_hi = NLP'(hi);
  for (genvar w = 0; w < NLP / 32; w++) begin : g_spread
    assign st_all[w*64 +: 64] = spread(st_lo[w*32 +: 32]) | (spread(st_hi[w*32 +: 32]) << 1);
  end
  assign lane_state_o = st_all[2*NL-1:0];
  if (NLP > NL) begin : g_pad
    logic pad_unused;
    assign pad_unused = ^st_all[2*NLP-1:2*NL];
  end
  assign lane_on_o    = on_q;

  // ---------------------------------------------------------------- units
  logic [NUM_SIMD-1:0] unit_prev_q;
  logic [CNT_W-1:0]    usl_q [NUM_SIMD];
  logic [CNT_W-1:0]    uev_q [NUM_SIMD];

  for (genvar u = 0; u < NUM_SIMD; u++) begin : g_unit_sleep
    assign unit_sleep_o[u] = pol_unit_i && slp_q[u*SIMD_WIDTH +: SIMD_WIDTH] == '1;
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
    if (!rst_ni) begin
      core_q <= S_ON;
      ccnt_q <= '0;
    end else begin
      core_q <= core_d;
      ccnt_q <= ccnt_d;
    end
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
        assert (!((work_i[l] || hold_i[l]) && !on_q[l]))
          else $error("wg_pg_ctrl: lane %0d holds work while not powered", l);
        assert (!(go_sleep[l] && (work_i[l] || hold_i[l] || demand_i[l])))
          else $error("wg_pg_ctrl: lane %0d put to sleep while in use", l);
        assert (32'(on_q[l]) + 32'(slp_q[l]) + 32'(wk_q[l]) == 1)
          else $error("wg_pg_ctrl: lane %0d not in exactly one state", l);
      end
    end
  end
`endif

endmodule
