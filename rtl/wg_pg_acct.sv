// wg_pg_acct: power-gating accounting of one SM's lanes (docs/power-gating.md section 4).
//
// Per lane, every counted cycle (en_i) is one lane-cycle in one of four states (state_i,
// 2 bits per lane: 0 active, 1 idle, 2 sleep, 3 wake, wg_pkg-independent on purpose so the
// block can be tested alone). The block keeps:
//   - per lane: lane-cycles in each state, gating events (idle -> sleep transitions);
//   - the idle-interval histogram of all lanes together: bin L (L = 1..HIST_BINS) counts
//     intervals of exactly L cycles, in a block RAM (address L-1); longer intervals go to
//     over_count_o / over_sum_o.
// An idle interval is a maximal run of non-active lane-cycles. It ends when the lane is
// active again, or at close_i (the cycle's state is counted first, then open intervals are
// closed; a lane that stays non-active starts a new interval at length 0).
//
// The work per cycle follows the lanes' state changes, not the cycles: one counter of the
// counted cycles (t_q) is the time base; per lane the block keeps the time at which the
// lane entered its present state (since_q) and at which its open idle interval began
// (ist_q). A state change adds the finished run to the old state's counter; an interval's
// length is the difference of two times when it ends. A counter reads as its stored part
// plus the present run (t_q - since_q) when the lane is in that state. In a counted cycle
// without any change (and no close, no interval waiting) nothing but t_q is updated.
//
// Interval ends go through two pending slots per lane (a head and a second) to a
// read-modify-write engine that updates one bin per cycle, adding at once every head slot
// of the same length (lanes of a SIMD unit usually end equal intervals together). The
// engine picks heads round-robin, lanes with both slots full first; a drained head takes the second slot's entry. A lane that
// ends an interval while both its slots are full loses that interval: it is counted in
// lost_o, never dropped silently (the metric is then marked inexact by the host). A lane
// ends at most one interval every two cycles, so losses need many lanes ending intervals
// of many different lengths in a short time. RMW pipeline:
//   P (pick): choose a slot, read bin len-1, clear the matched slots;
//   W (write): bin + count, written back.
// A slot whose bin is being written back is not picked in that cycle (a same-cycle read
// and write of one address is undefined on iCE40 block RAM): its update starts one cycle
// later and reads the written value.
// clear_i (and reset) zero everything; the histogram RAM is swept, one bin per edge of
// clk_pg_i, while busy_o is high and ready_o low (the owner starts counting, en_i, once
// ready_o is high). The histogram read port (hist_re_i/hist_raddr_i -> hist_rdata_o one cycle
// later) is meant for when busy_o is low: while the engine runs it has the RAM's read port.
// Three clocks, gated copies of one clock (their edges coincide where they tick together):
//   clk_i     the counting (t_q, lane states, runs, intervals) and the engine's P and W
//             stages: every edge is one counted cycle when en_i is high;
//   clk_pg_i  the clear sweep (clearing_q, clr_addr_q) and the RAM's write port: an edge at
//             every edge of clk_i, and may have more while the sweep runs (sweep edges);
//   clk_rd_i  the RAM's read port: an edge at every edge of clk_pg_i (the engine reads
//             through it), and may have more (a histogram read needs only clk_rd_i edges).
// So an owner can sweep the RAM with clk_i off (wg_gpu does after a clear: the SM is not
// clocked for the sweep) and read the bins out with clk_i off (wg_ram_1r1w_2c). The owner's
// part: clear_i is high only for one edge of clk_i with no other clk_pg_i edge in between
// (as a strobe from a clk_i register is), and every edge of clk_pg_i without one of clk_i
// comes while work_o is low (the engine's pending intervals and write-back need clk_i edges;
// work_o is low during a sweep). Extra edges of clk_pg_i and clk_rd_i count nothing.
// The lane counters are outputs (active_o .. events_o, all lanes) and, one at a time, a
// combinational read port (rd_re_i, rd_lane_i, rd_k_i: 0 active, 1 idle, 2 sleep, 3 wake,
// 4 events -> rd_data_o, 0 for other k); an owner that only uses the port leaves the wide
// outputs unconnected, and their adders are not built.
`default_nettype none

module wg_pg_acct #(
  parameter int unsigned NUM_LANES = 32,
  parameter int unsigned HIST_BINS = 1024,  // a power of two
  parameter int unsigned CNT_W     = 48,    // counters
  parameter int unsigned LEN_W     = 32,    // interval lengths (saturate at 2^LEN_W - 1)
  parameter int unsigned BIN_W     = 32,    // histogram bins
  // Derived: do not override.
  parameter int unsigned HAW   = $clog2(HIST_BINS),
  parameter int unsigned LIDX_W = (NUM_LANES > 1) ? $clog2(NUM_LANES) : 1
) (
  input  wire logic                       clk_i,
  input  wire logic                       clk_pg_i,  // the sweep and the RAM's write port: clk_i's edges and more
  input  wire logic                       clk_rd_i,  // the histogram RAM's read port: clk_pg_i's edges and more
  input  wire logic                       rst_ni,
  input  wire logic                       en_i,
  input  wire logic [2*NUM_LANES-1:0]     state_i,
  input  wire logic                       close_i,
  input  wire logic                       clear_i,
  output logic                            busy_o,
  output logic                            work_o,    // busy with work that needs clk_i edges (not the sweep)
  output logic                            ready_o,   // the clear sweep is over: counting may start
  output logic      [NUM_LANES*CNT_W-1:0] active_o,
  output logic      [NUM_LANES*CNT_W-1:0] idle_o,
  output logic      [NUM_LANES*CNT_W-1:0] sleep_o,
  output logic      [NUM_LANES*CNT_W-1:0] wake_o,
  output logic      [NUM_LANES*CNT_W-1:0] events_o,
  output logic      [CNT_W-1:0]           over_count_o,
  output logic      [CNT_W-1:0]           over_sum_o,
  output logic      [CNT_W-1:0]           lost_o,
  input  wire logic                       hist_re_i,
  input  wire logic [HAW-1:0]             hist_raddr_i,
  output logic      [BIN_W-1:0]           hist_rdata_o,
  input  wire logic                       rd_re_i,
  input  wire logic [LIDX_W-1:0]          rd_lane_i,
  input  wire logic [2:0]                 rd_k_i,
  output logic      [CNT_W-1:0]           rd_data_o
);

  localparam logic [1:0] ST_ACTIVE = 2'd0;
  localparam logic [1:0] ST_IDLE   = 2'd1;
  localparam logic [1:0] ST_SLEEP  = 2'd2;
  localparam logic [1:0] ST_WAKE   = 2'd3;
  localparam logic [LEN_W-1:0] LEN_MAX  = '1;
  localparam logic [LEN_W-1:0] LEN_BINS = LEN_W'(HIST_BINS);

  if (LEN_W >= CNT_W) begin : g_bad_len_w
    $error("wg_pg_acct: LEN_W must be below CNT_W (lengths are differences of CNT_W-bit times)");
  end

  // An interval length from a difference of times, saturated at LEN_MAX.
  function automatic logic [LEN_W-1:0] sat_len(input logic [CNT_W-1:0] d);
    sat_len = (d > CNT_W'(LEN_MAX)) ? LEN_MAX : d[LEN_W-1:0];
  endfunction

  // ---------------------------------------------------------------- per lane
  logic [CNT_W-1:0]       t_q;                    // counted cycles since reset or clear
  logic [2*NUM_LANES-1:0] prev_q;                 // every lane's state in the last counted cycle
  logic [CNT_W-1:0]       since_q [NUM_LANES];    // t_q when the lane entered state prev_q
  logic [CNT_W-1:0]       ist_q [NUM_LANES];      // t_q at the open interval's first cycle
  logic [CNT_W-1:0]       act_q [NUM_LANES];      // lane-cycles of finished runs per state
  logic [CNT_W-1:0]       idl_q [NUM_LANES];
  logic [CNT_W-1:0]       slp_q [NUM_LANES];
  logic [CNT_W-1:0]       wak_q [NUM_LANES];
  logic [CNT_W-1:0]       evt_q [NUM_LANES];
  logic [LEN_W-1:0]       pend_len_q [NUM_LANES];   // head slot
  logic [NUM_LANES-1:0]   pend_q;
  logic [LEN_W-1:0]       pend2_len_q [NUM_LANES];  // second slot (valid only with the head)
  logic [NUM_LANES-1:0]   pend2_q;

  // The lanes that change state in this counted cycle, of them those that become active and
  // those that leave active; the lanes not active after this cycle (needed at close only).
  logic [NUM_LANES-1:0] chg, to_act, to_nact, nact_d;
  always_comb begin
    chg     = '0;
    to_act  = '0;
    to_nact = '0;
    if (en_i && state_i != prev_q) begin
      for (int l = 0; l < NUM_LANES; l++) begin
        chg[l]     = state_i[2*l +: 2] != prev_q[2*l +: 2];
        to_act[l]  = chg[l] && state_i[2*l +: 2] == ST_ACTIVE;
        to_nact[l] = chg[l] && prev_q[2*l +: 2] == ST_ACTIVE;
      end
    end
    nact_d = '0;
    if (close_i) begin
      for (int l = 0; l < NUM_LANES; l++)
        nact_d[l] = (en_i ? state_i[2*l +: 2] : prev_q[2*l +: 2]) != ST_ACTIVE;
    end
  end

  // Interval ends of this cycle: end_v[l] with length end_len[l]. A lane that becomes active
  // ends its interval (if it has a counted cycle: after a close it may not); at close_i every
  // lane not active after this cycle ends its interval so far (this cycle included), and
  // its next interval starts at length 0 (ist_q = the time after this cycle).
  logic [NUM_LANES-1:0] end_v;
  logic [LEN_W-1:0]     end_len [NUM_LANES];
  logic [CNT_W-1:0]     t_d;
  assign t_d = en_i ? t_q + 1'b1 : t_q;

  always_comb begin
    end_v = '0;
    for (int l = 0; l < NUM_LANES; l++) end_len[l] = '0;
    if (to_act != '0) begin
      for (int l = 0; l < NUM_LANES; l++) begin
        if (to_act[l] && t_q != ist_q[l]) begin
          end_v[l]   = 1'b1;
          end_len[l] = sat_len(t_q - ist_q[l]);
        end
      end
    end
    if (close_i) begin
      for (int l = 0; l < NUM_LANES; l++) begin
        if (nact_d[l]) begin
          if (to_nact[l]) begin
            end_v[l]   = 1'b1;
            end_len[l] = LEN_W'(1);
          end else if (t_d != ist_q[l]) begin
            end_v[l]   = 1'b1;
            end_len[l] = sat_len(t_d - ist_q[l]);
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- engine, stage P
  logic                 clearing_q;
  logic [HAW-1:0]       clr_addr_q;
  logic                 arb_valid;
  logic [NUM_LANES-1:0] arb_gnt;
  logic [LIDX_W-1:0]    arb_idx;
  logic [LEN_W-1:0]     pick_len;
  logic                 pick_over;
  logic [NUM_LANES-1:0] match;
  logic [LIDX_W:0]      match_cnt;
  logic                 p_fire;       // a histogram update starts (stage P)
  logic                 over_fire;    // an over-length interval is counted
  logic [NUM_LANES-1:0] drained;
  logic                 w_v_q;        // stage W holds an update
  logic [HAW-1:0]       w_addr_q;
  logic [LIDX_W:0]      w_cnt_q;

  // Lanes with both slots full go first: they are the ones that could lose an interval.
  logic [NUM_LANES-1:0] arb_req;
  assign arb_req = clearing_q ? '0 : ((pend2_q != '0) ? pend2_q : pend_q);

  wg_rr_arbiter #(.N(NUM_LANES)) u_arb (
    .clk_i, .rst_ni,
    .req_i  (arb_req),
    .lock_i (1'b0),
    .ready_i(1'b1),
    .valid_o(arb_valid),
    .gnt_o  (arb_gnt),
    .idx_o  (arb_idx)
  );

  always_comb begin
    pick_len  = pend_len_q[arb_idx];
    pick_over = pick_len > LEN_BINS;
    match     = '0;
    match_cnt = '0;
    if (arb_valid) begin
      for (int l = 0; l < NUM_LANES; l++) begin
        if (pend_q[l] && pend_len_q[l] == pick_len) begin
          match[l] = 1'b1;
          match_cnt = match_cnt + 1'b1;
        end
      end
    end
    p_fire    = arb_valid && !pick_over && !(w_v_q && w_addr_q == HAW'(pick_len - 1'b1));
    over_fire = arb_valid && pick_over;
    drained   = '0;
    if (p_fire) drained = match;
    else if (over_fire) drained = arb_gnt;
  end

  // Slots: a drained head takes the second slot; a new end goes to the first free slot.
  logic [NUM_LANES-1:0] keep, promote, pend_mid, pend2_mid, to_head, to_second, lose;
  assign keep      = pend_q & ~drained;
  assign promote   = ~keep & pend2_q;             // pend2 only with pend: drained lanes
  assign pend_mid  = keep | promote;
  assign pend2_mid = pend2_q & ~promote;
  assign to_head   = end_v & ~pend_mid;
  assign to_second = end_v & pend_mid & ~pend2_mid;
  assign lose      = end_v & pend_mid & pend2_mid;

  // ---------------------------------------------------------------- RAM and stage W
  logic [BIN_W-1:0] ram_rdata, w_new;
  logic             ram_we, ram_re;
  logic [HAW-1:0]   ram_waddr, ram_raddr;
  logic [BIN_W-1:0] ram_wdata;

  always_comb begin
    w_new = ram_rdata + BIN_W'(w_cnt_q);
    ram_we    = clearing_q || w_v_q;
    ram_waddr = clearing_q ? clr_addr_q : w_addr_q;
    ram_wdata = clearing_q ? '0 : w_new;
    ram_re    = p_fire || hist_re_i;
    ram_raddr = p_fire ? HAW'(pick_len - 1'b1) : hist_raddr_i;
  end

  wg_ram_1r1w_2c #(.DEPTH(HIST_BINS), .WIDTH(BIN_W)) u_hist (
    .clk_i  (clk_pg_i),
    .rclk_i (clk_rd_i),
    .rst_ni,
    .we_i   (ram_we),
    .waddr_i(ram_waddr),
    .wdata_i(ram_wdata),
    .re_i   (ram_re),
    .raddr_i(ram_raddr),
    .rdata_o(ram_rdata)
  );
  assign hist_rdata_o = ram_rdata;

  // ---------------------------------------------------------------- registers
  logic [CNT_W-1:0] over_cnt_q, over_sum_q, lost_q;
  logic             start_clear;
  assign start_clear = clear_i;

  // The sweep, on clk_pg_i: one bin per edge from clear_i (or reset) on.
  always_ff @(posedge clk_pg_i) begin
    if (!rst_ni || start_clear) begin
      clearing_q <= 1'b1;
      clr_addr_q <= '0;
    end else if (clearing_q) begin
      clr_addr_q <= clr_addr_q + 1'b1;
      if (clr_addr_q == HAW'(HIST_BINS - 1)) clearing_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      w_v_q       <= 1'b0;
      w_addr_q    <= '0;
      w_cnt_q     <= '0;
      over_cnt_q  <= '0;
      over_sum_q  <= '0;
      lost_q      <= '0;
      pend_q      <= '0;
      pend2_q     <= '0;
    end else if (start_clear) begin
      w_v_q       <= 1'b0;
      over_cnt_q  <= '0;
      over_sum_q  <= '0;
      lost_q      <= '0;
      pend_q      <= '0;
      pend2_q     <= '0;
    end else begin
      w_v_q       <= p_fire;
      w_addr_q    <= HAW'(pick_len - 1'b1);
      w_cnt_q     <= match_cnt;
      if (over_fire) begin
        over_cnt_q <= over_cnt_q + 1'b1;
        over_sum_q <= over_sum_q + CNT_W'(pick_len);
      end
      // A lane whose slot stays full while it ends another interval loses the new one.
      if (lose != '0) lost_q <= lost_q + CNT_W'($countones(lose));
      pend_q  <= pend_mid | to_head;
      pend2_q <= pend2_mid | to_second;
    end
  end

  // Slot lengths: written only for lanes whose slots move or take an end.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int l = 0; l < NUM_LANES; l++) begin
        pend_len_q[l]  <= '0;
        pend2_len_q[l] <= '0;
      end
    end else if (!start_clear && (promote | end_v) != '0) begin
      for (int l = 0; l < NUM_LANES; l++) begin
        if (promote[l]) pend_len_q[l] <= pend2_len_q[l];
        if (to_head[l]) pend_len_q[l] <= end_len[l];
        if (to_second[l]) pend2_len_q[l] <= end_len[l];
      end
    end
  end

  // Each lane's present run (t_q - since_q), and the counter of its present state plus that
  // run: one subtractor and one adder per lane, shared by the four state counters, the wide
  // outputs and the read port.
  logic [CNT_W-1:0] run [NUM_LANES];
  logic [CNT_W-1:0] run_sum [NUM_LANES];
  always_comb begin
    for (int l = 0; l < NUM_LANES; l++) begin
      run[l] = t_q - since_q[l];
      unique case (prev_q[2*l +: 2])
        ST_ACTIVE: run_sum[l] = act_q[l] + run[l];
        ST_IDLE:   run_sum[l] = idl_q[l] + run[l];
        ST_SLEEP:  run_sum[l] = slp_q[l] + run[l];
        default:   run_sum[l] = wak_q[l] + run[l];
      endcase
    end
  end

  // Time base, states, runs and interval starts: written only at changes and at close.
  always_ff @(posedge clk_i) begin
    if (!rst_ni || start_clear) begin
      t_q    <= '0;
      prev_q <= '0;  // every lane ST_ACTIVE
      for (int l = 0; l < NUM_LANES; l++) begin
        since_q[l] <= '0;
        ist_q[l]   <= '0;
        act_q[l]   <= '0;
        idl_q[l]   <= '0;
        slp_q[l]   <= '0;
        wak_q[l]   <= '0;
        evt_q[l]   <= '0;
      end
    end else begin
      t_q <= t_d;
      if (chg != '0) begin
        prev_q <= state_i;
        for (int l = 0; l < NUM_LANES; l++) begin
          if (chg[l]) begin
            unique case (prev_q[2*l +: 2])
              ST_ACTIVE: act_q[l] <= run_sum[l];
              ST_IDLE:   idl_q[l] <= run_sum[l];
              ST_SLEEP:  slp_q[l] <= run_sum[l];
              ST_WAKE:   wak_q[l] <= run_sum[l];
              default: ;
            endcase
            since_q[l] <= t_q;
            if (prev_q[2*l +: 2] == ST_IDLE && state_i[2*l +: 2] == ST_SLEEP) evt_q[l] <= evt_q[l] + 1'b1;
            if (to_nact[l]) ist_q[l] <= t_q;
          end
        end
      end
      if (close_i) begin
        for (int l = 0; l < NUM_LANES; l++)
          if (nact_d[l]) ist_q[l] <= t_d;
      end
    end
  end

  // A counter: its finished runs plus the present run when the lane is in that state
  // (k = 0 active, 1 idle, 2 sleep, 3 wake; 4 events; 0 for other k). c_sum is the present
  // state's counter plus the present run.
  function automatic logic [CNT_W-1:0] lane_cnt(input logic [2:0] k, input logic [1:0] cur,
      input logic [CNT_W-1:0] c_sum, input logic [CNT_W-1:0] c_act, input logic [CNT_W-1:0] c_idl,
      input logic [CNT_W-1:0] c_slp, input logic [CNT_W-1:0] c_wak, input logic [CNT_W-1:0] c_evt);
    if (k[2] == 1'b0 && cur == k[1:0]) begin
      lane_cnt = c_sum;
    end else begin
      unique case (k)
        3'd0: lane_cnt = c_act;
        3'd1: lane_cnt = c_idl;
        3'd2: lane_cnt = c_slp;
        3'd3: lane_cnt = c_wak;
        3'd4: lane_cnt = c_evt;
        default: lane_cnt = '0;
      endcase
    end
  endfunction

  for (genvar l = 0; l < NUM_LANES; l++) begin : g_out
    logic [1:0] cur;
    assign cur = prev_q[2*l +: 2];
    assign active_o[l*CNT_W +: CNT_W] = (cur == ST_ACTIVE) ? run_sum[l] : act_q[l];
    assign idle_o[l*CNT_W +: CNT_W]   = (cur == ST_IDLE) ? run_sum[l] : idl_q[l];
    assign sleep_o[l*CNT_W +: CNT_W]  = (cur == ST_SLEEP) ? run_sum[l] : slp_q[l];
    assign wake_o[l*CNT_W +: CNT_W]   = (cur == ST_WAKE) ? run_sum[l] : wak_q[l];
    assign events_o[l*CNT_W +: CNT_W] = evt_q[l];
  end

  always_comb begin
    rd_data_o = '0;
    if (rd_re_i && 32'(rd_lane_i) < NUM_LANES)
      rd_data_o = lane_cnt(rd_k_i, prev_q[2*rd_lane_i +: 2], run_sum[rd_lane_i], act_q[rd_lane_i],
                           idl_q[rd_lane_i], slp_q[rd_lane_i], wak_q[rd_lane_i], evt_q[rd_lane_i]);
  end

  assign work_o       = (pend_q != '0) || w_v_q;  // pend2 only with pend
  assign busy_o       = clearing_q || work_o;
  assign ready_o      = !clearing_q;
  assign over_count_o = over_cnt_q;
  assign over_sum_o   = over_sum_q;
  assign lost_o       = lost_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(clearing_q && w_v_q))
        else $error("wg_pg_acct: histogram update during the clear sweep");
      assert (!(p_fire && match_cnt == '0))
        else $error("wg_pg_acct: update without a matching slot");
    end
  end
`endif

endmodule
