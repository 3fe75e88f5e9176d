// wg_pg_trace: the lane-activity trace (docs/power-gating.md section 7).
//
// For the traced cycles (count_i and from_i <= cycle_i < to_i) the block turns the lanes'
// states (2 bits per lane) and the issue-control state into 64-bit run-length records on a
// valid/ready stream (record layout: section 7.2):
//
//   capture:    per traced cycle, the lanes whose state differs from the previous cycle's;
//               one entry per cycle with a change (or a marker: START, LOST, SYNC, END)
//               into a queue of QDEPTH entries (wg_fifo);
//   serializer: the head entry's records, one per transfer: the marker, then one LANES
//               record per group of 32 lanes and new state, then ISSUE; gaps longer than
//               2^24 - 1 cycles are split by ADVANCE records.
//
// A full queue loses records, never silently: the last slot is kept for a LOST entry
// written at the first lost cycle; the records the lost cycles would have produced are
// counted (lost_o, and the SYNC or END entry that ends the loss), and a SYNC entry with
// every lane's state is written as soon as two slots are free.
`default_nettype none

module wg_pg_trace #(
  parameter int unsigned NUM_LANES = 32,
  parameter int unsigned QDEPTH    = 4,
  // Derived: do not override.
  parameter int unsigned NG   = (NUM_LANES + 31) / 32,  // groups of 32 lanes
  parameter int unsigned CNT_W = $clog2(QDEPTH + 1)
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,
  input  wire logic                     clear_i,      // zero the lost-record count
  input  wire logic                     count_i,      // this cycle is counted (the window)
  input  wire logic [47:0]              cycle_i,      // its window cycle
  input  wire logic [47:0]              from_i,       // traced: from_i <= cycle_i < to_i
  input  wire logic [47:0]              to_i,
  input  wire logic [2*NUM_LANES-1:0]   state_i,      // lane l in [2l +: 2]
  input  wire logic [1:0]               issue_i,      // issue-control state S1..S4 (0..3)
  output logic                          rec_valid_o,
  input  wire logic                     rec_ready_i,
  output logic [63:0]                   rec_o,
  output logic [47:0]                   lost_o,       // records lost since reset or clear
  output logic                          busy_o        // entries queued or an END waiting
);

  localparam int unsigned NL = NUM_LANES;
  localparam int unsigned NP = NG * 32;               // lanes padded to whole groups
  localparam int unsigned NI = 4 * NG + 2;            // items of an entry: marker, LANES, ISSUE
  localparam int unsigned EW = 3 + 48 + 32 + 3 * NL + 3;
  localparam logic [23:0] DMAX = 24'hFFFFFF;

  // Entry kinds (queue only) and record types (section 7.2).
  localparam logic [2:0] K_CHG = 3'd0, K_START = 3'd1, K_LOST = 3'd2, K_SYNC = 3'd3, K_END = 3'd4;
  localparam logic [3:0] T_LANES = 4'd0, T_ISSUE = 4'd1, T_ADVANCE = 4'd2, T_START = 4'd3,
                         T_LOST = 4'd4, T_SYNC = 4'd5, T_END = 4'd6;

  // ---------------------------------------------------------------------------
  // Capture.
  // ---------------------------------------------------------------------------
  logic [NL-1:0]    lo, hi, seen_lo_q, seen_hi_q, chg;
  logic [1:0]       seen_iss_q;
  logic             iss_chg, tr;
  logic             in_q, in_d, lost_q, lost_d, endp_q, endp_d, upd_seen;
  logic [47:0]      endt_q, endt_d;
  logic [31:0]      nlost_q, nlost_d;
  logic [47:0]      lost_total_q;
  logic [5:0]       nrec;      // records this cycle's changes make (for the lost count)
  logic             lose;      // this cycle's records are lost
  logic [CNT_W-1:0] q_count;
  logic             q_room1, q_room2;

  assign tr      = count_i && cycle_i >= from_i && cycle_i < to_i;
  assign q_room1 = 32'(q_count) + 1 <= QDEPTH;
  assign q_room2 = 32'(q_count) + 2 <= QDEPTH;

  // The lanes' states, their changes and the records they make are formed only in traced
  // cycles (all 0 otherwise: only traced cycles read them, and entries of untraced cycles,
  // END, carry no lane changes), so that a closed window costs next to nothing per cycle.
  // Records of a cycle's changes: one per group and new state present, plus ISSUE.
  logic [4*NP-1:0] c_mask;         // state s, lanes of all groups: [s*NP +: NP]
  always_comb begin
    lo      = '0;
    hi      = '0;
    chg     = '0;
    iss_chg = 1'b0;
    if (tr) begin
      for (int l = 0; l < 32'(NL); l++) begin
        lo[l] = state_i[2*l];
        hi[l] = state_i[2*l+1];
      end
      chg     = (lo ^ seen_lo_q) | (hi ^ seen_hi_q);
      iss_chg = issue_i != seen_iss_q;
    end
  end
  logic [NP-1:0] c_chg, c_lo, c_hi;
  assign c_chg = NP'(chg);
  assign c_lo  = NP'(lo);
  assign c_hi  = NP'(hi);
  always_comb begin
    c_mask = '0;
    nrec   = '0;
    if (tr) begin
      for (int s = 0; s < 4; s++)
        c_mask[s*NP +: NP] = c_chg & (s[0] ? c_lo : ~c_lo) & (s[1] ? c_hi : ~c_hi);
      nrec = {5'd0, iss_chg};
      for (int s = 0; s < 4; s++)
        for (int g = 0; g < 32'(NG); g++)
          if (c_mask[s*NP + g*32 +: 32] != '0) nrec = nrec + 6'd1;
    end
  end

  logic          push;
  logic [2:0]    e_kind;
  logic [47:0]   e_t;
  logic [31:0]   e_n;
  logic [NL-1:0] e_chg;
  logic          e_iss_chg;

  always_comb begin
    push      = 1'b0;
    e_kind    = K_CHG;
    e_t       = cycle_i;
    e_n       = '0;
    e_chg     = chg;
    e_iss_chg = iss_chg;
    in_d      = in_q;
    lost_d    = lost_q;
    endp_d    = endp_q;
    endt_d    = endt_q;
    nlost_d   = nlost_q;
    upd_seen  = 1'b0;
    lose      = 1'b0;
    if (endp_q) begin
      // An END waits for a slot; no window starts before it is queued.
      if (q_room1) begin
        push   = 1'b1;
        e_kind = K_END;
        e_t    = endt_q;
        e_n    = lost_q ? nlost_q : '0;
        endp_d = 1'b0;
        lost_d = 1'b0;
      end
    end else if (in_q && !tr) begin
      // The window ends: this cycle is the first one not traced.
      in_d = 1'b0;
      if (q_room1) begin
        push   = 1'b1;
        e_kind = K_END;
        e_n    = lost_q ? nlost_q : '0;
        lost_d = 1'b0;
      end else begin
        endp_d = 1'b1;
        endt_d = cycle_i;
      end
    end else if (tr && !in_q) begin
      if (q_room2) begin
        push     = 1'b1;
        e_kind   = K_START;
        in_d     = 1'b1;
        upd_seen = 1'b1;
      end
    end else if (tr) begin
      upd_seen = 1'b1;
      if (lost_q) begin
        if (q_room2) begin
          push   = 1'b1;
          e_kind = K_SYNC;
          e_n    = nlost_q;
          lost_d = 1'b0;
        end else begin
          lose = 1'b1;
        end
      end else if (chg != '0 || iss_chg) begin
        if (q_room2) begin
          push = 1'b1;
        end else begin
          // The slot kept free takes the LOST entry.
          push   = 1'b1;
          e_kind = K_LOST;
          lose   = 1'b1;
          lost_d = 1'b1;
          nlost_d = '0;
        end
      end
    end
    if (lose)
      nlost_d = (32'(nlost_d) + 32'(nrec) < 32'(nlost_d)) ? '1 : nlost_d + 32'(nrec);
    if (e_kind == K_START || e_kind == K_SYNC) begin
      e_chg     = '1;
      e_iss_chg = 1'b1;
    end else if (e_kind != K_CHG) begin
      e_chg     = '0;
      e_iss_chg = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      in_q       <= 1'b0;
      lost_q     <= 1'b0;
      endp_q     <= 1'b0;
      endt_q     <= '0;
      nlost_q    <= '0;
      seen_lo_q  <= '0;
      seen_hi_q  <= '0;
      seen_iss_q <= '0;
    end else begin
      in_q    <= in_d;
      lost_q  <= lost_d;
      endp_q  <= endp_d;
      endt_q  <= endt_d;
      nlost_q <= nlost_d;
      if (upd_seen) begin
        seen_lo_q  <= lo;
        seen_hi_q  <= hi;
        seen_iss_q <= issue_i;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni || clear_i) lost_total_q <= '0;
    else if (lose)          lost_total_q <= lost_total_q + 48'(nrec);
  end
  assign lost_o = lost_total_q;

  // ---------------------------------------------------------------------------
  // Entry queue.
  // ---------------------------------------------------------------------------
  logic [EW-1:0] q_in, q_out;
  logic          q_in_ready, q_out_valid, q_pop;
  logic          q_full_unused, q_empty_unused;

  assign q_in = {e_kind, e_t, e_n, e_chg, lo, hi, e_iss_chg, issue_i};

  wg_fifo #(
    .DEPTH (QDEPTH),
    .WIDTH (EW)
  ) u_queue (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .flush_i     (1'b0),
    .in_valid_i  (push),
    .in_ready_o  (q_in_ready),
    .in_data_i   (q_in),
    .out_valid_o (q_out_valid),
    .out_ready_i (q_pop),
    .out_data_o  (q_out),
    .count_o     (q_count),
    .full_o      (q_full_unused),
    .empty_o     (q_empty_unused)
  );

  assign busy_o = q_count != '0 || endp_q;

  // ---------------------------------------------------------------------------
  // Serializer.
  // ---------------------------------------------------------------------------
  logic [2:0]    h_kind;
  logic [47:0]   h_t;
  logic [31:0]   h_n;
  logic [NL-1:0] h_chg, h_lo, h_hi;
  logic          h_iss_chg;
  logic [1:0]    h_iss;
  assign {h_kind, h_t, h_n, h_chg, h_lo, h_hi, h_iss_chg, h_iss} = q_out;

  logic [NP-1:0]   p_chg, p_lo, p_hi;
  logic [4*NP-1:0] h_mask;          // state s, lanes of all groups: [s*NP +: NP]
  logic [NI-1:0]   items, pend, sel, done_q, done_d;
  logic [47:0]     last_t_q, last_t_d, gap;
  logic            adv, last_item, rec_fire;

  assign p_chg = NP'(h_chg);
  assign p_lo  = NP'(h_lo);
  assign p_hi  = NP'(h_hi);
  // Formed only while an entry waits (the queue is empty in most cycles).
  always_comb begin
    h_mask = '0;
    items  = '0;
    if (q_out_valid) begin
      for (int s = 0; s < 4; s++)
        h_mask[s*NP +: NP] = p_chg & (s[0] ? p_lo : ~p_lo) & (s[1] ? p_hi : ~p_hi);
      items[0] = h_kind != K_CHG;
      for (int g = 0; g < 32'(NG); g++)
        for (int s = 0; s < 4; s++)
          items[1 + 4*g + s] = h_mask[s*NP + g*32 +: 32] != '0;
      items[NI-1] = h_iss_chg;
    end
  end
  assign pend = items & ~done_q;
  assign sel  = pend & (~pend + 1'b1);     // lowest pending item
  assign last_item = (pend & ~sel) == '0;

  assign gap = h_t - last_t_q;
  assign adv = !(sel[0] && h_kind == K_START) && gap > 48'(DMAX);

  always_comb begin
    rec_o = '0;
    if (!q_out_valid) begin
      // no record
    end else if (adv) begin
      rec_o[23:0]  = DMAX;
      rec_o[27:24] = T_ADVANCE;
    end else if (sel[0]) begin
      rec_o[23:0] = gap[23:0];
      unique case (h_kind)
        K_START: begin
          rec_o[23:0]  = {8'd0, h_t[47:32]};
          rec_o[27:24] = T_START;
          rec_o[63:32] = h_t[31:0];
        end
        K_LOST: rec_o[27:24] = T_LOST;
        K_SYNC: begin
          rec_o[27:24] = T_SYNC;
          rec_o[63:32] = h_n;
        end
        K_END: begin
          rec_o[27:24] = T_END;
          rec_o[63:32] = h_n;
        end
        default: ;
      endcase
    end else if (sel[NI-1]) begin
      rec_o[23:0]  = gap[23:0];
      rec_o[27:24] = T_ISSUE;
      rec_o[29:28] = h_iss;
    end else begin
      rec_o[23:0]  = gap[23:0];
      rec_o[27:24] = T_LANES;
      for (int g = 0; g < 32'(NG); g++)
        for (int s = 0; s < 4; s++)
          if (sel[1 + 4*g + s]) begin
            rec_o[29:28] = 2'(s);
            rec_o[31:30] = 2'(g);
            rec_o[63:32] = h_mask[s*NP + g*32 +: 32];
          end
    end
  end

  assign rec_valid_o = q_out_valid;
  assign rec_fire    = rec_valid_o && rec_ready_i;
  assign q_pop       = rec_fire && !adv && last_item;

  always_comb begin
    last_t_d = last_t_q;
    done_d   = done_q;
    if (rec_fire) begin
      if (adv) begin
        last_t_d = last_t_q + 48'(DMAX);
      end else begin
        last_t_d = h_t;
        done_d   = last_item ? '0 : (done_q | sel);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      last_t_q <= '0;
      done_q   <= '0;
    end else begin
      last_t_q <= last_t_d;
      done_q   <= done_d;
    end
  end

  if (QDEPTH < 2) begin : g_bad_depth
    $error("wg_pg_trace: QDEPTH must be at least 2 (one slot is kept for LOST)");
  end
  if (NUM_LANES < 1 || NUM_LANES > 128) begin : g_bad_lanes
    $error("wg_pg_trace: NUM_LANES must be 1..128 (2-bit group field)");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (push) assert (q_in_ready) else $error("wg_pg_trace: entry written into a full queue");
      if (q_out_valid) assert (pend != '0) else $error("wg_pg_trace: queued entry without records");
      if (q_out_valid && !sel[0] && !adv)
        assert (h_t >= last_t_q) else $error("wg_pg_trace: time goes back");
    end
  end
`endif

endmodule
