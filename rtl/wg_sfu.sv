// wg_sfu: the SM's special-function unit (docs/sfu.md section 5): MUFU, FDIV,
// FSQRT, IDIV, IREM for the warp instructions of every scheduler, on SFU_LANES
// lanes (Fermi: 4 per SM), so a warp instruction takes 32 / SFU_LANES passes
// (groups of consecutive threads).
//
//   IN    round robin over the schedulers' dispatch ports; one instruction
//         (operand rows A and B) in the feed register; its retire metadata
//         enters the meta FIFO (instructions in the unit, in order)
//   FEED  MUFU: one group per cycle into the lanes' wg_sfu_mufu pipelines
//         (fixed latency, a group tag travels alongside); iterative
//         operations: one group at a time in the lanes' wg_sfu_iter (after
//         the MUFU pipeline has drained), groups without threads skipped
//   COL   results into the collection row; the last group of an instruction
//         moves the row and its metadata to OUT (the pipeline stalls while
//         OUT is taken)
//   OUT   a register write-back beat to the issuing scheduler's execution
//         pipeline (when the instruction writes a register) and a retire beat;
//         both must be taken before OUT is free
// Every lane sits behind a wg_pg_cell: lane_en_i = 0 powers it off; a group
// whose threads need a sleeping lane waits.
`default_nettype none

module wg_sfu #(
  parameter int unsigned NUM_WARPS = 48,
  parameter int unsigned NUM_SIMD  = 2,
  parameter int unsigned SFU_LANES = 4,
  parameter int unsigned ITER_BITS = 2,
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1,
  parameter int unsigned SCH_W  = (NUM_SIMD > 1) ? $clog2(NUM_SIMD) : 1,
  parameter int unsigned UOP_W  = wg_sm_pkg::UOP_W,
  parameter int unsigned RM_W   = wg_sm_pkg::RMETA_W
) (
  input  wire logic                         clk_i,
  input  wire logic                         rst_ni,
  input  wire logic [SFU_LANES-1:0]         lane_en_i,

  // Dispatch from the execution pipelines.
  input  wire logic [NUM_SIMD-1:0]          in_valid_i,
  output logic      [NUM_SIMD-1:0]          in_ready_o,
  input  wire logic [NUM_SIMD*WARP_W-1:0]   in_warp_i,
  input  wire logic [NUM_SIMD*UOP_W-1:0]    in_uop_i,
  input  wire logic [NUM_SIMD*32-1:0]       in_active_i,
  input  wire logic [NUM_SIMD*32-1:0]       in_exec_i,
  input  wire logic [NUM_SIMD*16-1:0]       in_seq_i,
  input  wire logic [NUM_SIMD*3*1024-1:0]   in_rows_i,     // A, B (or immediate), C

  // Register write-back to the issuing scheduler's execution pipeline.
  output logic      [NUM_SIMD-1:0]          wb_valid_o,
  input  wire logic [NUM_SIMD-1:0]          wb_ready_i,
  output logic      [WARP_W-1:0]            wb_warp_o,
  output logic      [5:0]                   wb_reg_o,
  output logic      [31:0]                  wb_mask_o,
  output logic      [1023:0]                wb_data_o,

  // Retire stream.
  output logic                              ret_valid_o,
  input  wire logic                         ret_ready_i,
  output logic      [RM_W-1:0]              ret_meta_o,
  output logic      [1023:0]                ret_data_o,

  output logic      [SFU_LANES-1:0]         lane_busy_o,
  output logic                              idle_o
);

  localparam int unsigned L      = SFU_LANES;
  localparam int unsigned P      = 32 / SFU_LANES;             // groups per warp instruction
  localparam int unsigned G_W    = (P > 1) ? $clog2(P) : 1;
  localparam int unsigned ML     = wg_sfu_pkg::MUFU_LATENCY;
  // Meta: sched, warp, rd, writes, exec, active, pc, seq.
  localparam int unsigned META_W = SCH_W + WARP_W + 6 + 1 + 32 + 32 + 18 + 16;

  // ---------------------------------------------------------------------------
  // IN: arbitration and the feed register.
  // ---------------------------------------------------------------------------
  logic              acc_ok, arb_valid, acc_fire, feed_done;
  logic [NUM_SIMD-1:0] arb_gnt;
  logic [SCH_W-1:0]  arb_idx;
  logic              mq_in_ready, mq_out_valid, mq_pop;
  logic [META_W-1:0] mq_in, mq_out;
  logic [2:0]        mq_cnt_unused;
  logic              mq_full_unused, mq_empty;

  wg_rr_arbiter #(.N(NUM_SIMD)) u_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (in_valid_i),
    .lock_i  (1'b0),
    .ready_i (acc_ok),
    .valid_o (arb_valid),
    .gnt_o   (arb_gnt),
    .idx_o   (arb_idx)
  );

  logic              f_v_q, f_iter_q;
  logic [2:0]        f_fn_q;
  logic [31:0]       f_exec_q;
  logic [1023:0]     f_a_q, f_b_q;
  logic [G_W-1:0]    f_g_q;

  wg_sm_pkg::uop_t   a_uop;
  logic [2:0]        a_itop;
  assign a_uop = in_uop_i[arb_idx*UOP_W +: UOP_W];
  always_comb begin
    case (a_uop.op)
      wg_isa_pkg::OP_FDIV:  a_itop = wg_sfu_pkg::IT_FDIV;
      wg_isa_pkg::OP_FSQRT: a_itop = wg_sfu_pkg::IT_FSQRT;
      wg_isa_pkg::OP_IDIV:  a_itop = a_uop.mod[0] ? wg_sfu_pkg::IT_IDIVU : wg_sfu_pkg::IT_IDIVS;
      default:              a_itop = a_uop.mod[0] ? wg_sfu_pkg::IT_IREMU : wg_sfu_pkg::IT_IREMS;
    endcase
  end

  assign acc_ok     = (!f_v_q || feed_done) && mq_in_ready;
  assign acc_fire   = arb_valid && acc_ok;
  assign in_ready_o = acc_ok ? arb_gnt : '0;
  assign mq_in = {arb_idx, in_warp_i[arb_idx*WARP_W +: WARP_W], a_uop.rd, a_uop.nwr != 3'd0,
                  in_exec_i[arb_idx*32 +: 32], in_active_i[arb_idx*32 +: 32], a_uop.pc,
                  in_seq_i[arb_idx*16 +: 16]};

  wg_fifo #(.DEPTH(4), .WIDTH(META_W)) u_mq (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .flush_i     (1'b0),
    .in_valid_i  (acc_fire),
    .in_ready_o  (mq_in_ready),
    .in_data_i   (mq_in),
    .out_valid_o (mq_out_valid),
    .out_ready_i (mq_pop),
    .out_data_o  (mq_out),
    .count_o     (mq_cnt_unused),
    .full_o      (mq_full_unused),
    .empty_o     (mq_empty)
  );

  // ---------------------------------------------------------------------------
  // FEED and the lanes.
  // ---------------------------------------------------------------------------
  logic              en;                 // the MUFU pipeline advances
  logic [ML-1:0]     tag_v_q, tag_last_q;
  logic [ML*G_W-1:0] tag_g_q;
  logic [L-1:0]      g_exec, lanes_ok_v;
  logic              lanes_ok, m_fire;
  logic              it_started_q, it_all_done, it_commit, it_start;
  logic [L-1:0]      it_mask_q;
  logic [L-1:0]      l_mufu_v, l_it_start, l_mufu_out_v, l_it_done, l_busy;
  logic [L*32-1:0]   l_mufu_res, l_it_res;
  logic              out_v_q, col_last;

  assign g_exec     = f_exec_q[32'(f_g_q)*L +: L];
  assign lanes_ok_v = g_exec & ~lane_en_i;
  assign lanes_ok   = (lanes_ok_v == '0);
  assign m_fire     = f_v_q && !f_iter_q && en && lanes_ok;

  // Iterative: a group starts once the MUFU pipeline is empty; a group without
  // threads completes at once; a started group completes when all its lanes are done.
  assign it_all_done = it_started_q && ((l_it_done & it_mask_q) == it_mask_q);
  assign it_start    = f_v_q && f_iter_q && !it_started_q && (tag_v_q == '0) && (g_exec != '0) && lanes_ok;
  assign it_commit   = f_v_q && f_iter_q && (tag_v_q == '0) && (it_all_done || (!it_started_q && g_exec == '0)) &&
                       !(f_g_q == G_W'(P - 1) && out_v_q);
  assign feed_done   = (m_fire && f_g_q == G_W'(P - 1)) || (it_commit && f_g_q == G_W'(P - 1));

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_v_q        <= 1'b0;
      f_g_q        <= '0;
      it_started_q <= 1'b0;
      it_mask_q    <= '0;
    end else begin
      if (m_fire || it_commit) f_g_q <= f_g_q + 1'b1;
      if (feed_done) f_g_q <= '0;
      if (acc_fire) f_v_q <= 1'b1;
      else if (feed_done) f_v_q <= 1'b0;
      if (it_start) begin
        it_started_q <= 1'b1;
        it_mask_q    <= g_exec;
      end else if (it_commit) begin
        it_started_q <= 1'b0;
      end
    end
    if (acc_fire) begin
      f_iter_q <= (a_uop.op != wg_isa_pkg::OP_MUFU);
      f_fn_q   <= (a_uop.op == wg_isa_pkg::OP_MUFU) ? a_uop.mod : a_itop;
      f_exec_q <= in_exec_i[arb_idx*32 +: 32];
      f_a_q    <= in_rows_i[arb_idx*3072 +: 1024];
      f_b_q    <= in_rows_i[arb_idx*3072 + 1024 +: 1024];
    end
  end

  // Group tags alongside the MUFU pipeline.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      tag_v_q <= '0;
    end else if (en) begin
      tag_v_q    <= {tag_v_q[ML-2:0], m_fire};
      tag_last_q <= {tag_last_q[ML-2:0], f_g_q == G_W'(P - 1)};
      tag_g_q    <= {tag_g_q[(ML-1)*G_W-1:0], f_g_q};
    end
  end

  for (genvar l = 0; l < 32'(L); l++) begin : g_lane
    logic        go_m, go_i, m_busy, i_busy, m_ov, i_done;
    logic [31:0] m_res, i_res, a_op, b_op;
    logic [66:0] raw, iso;
    logic        go_any;
    assign a_op = f_a_q[(32'(f_g_q)*L + l)*32 +: 32];
    assign b_op = f_b_q[(32'(f_g_q)*L + l)*32 +: 32];
    assign l_mufu_v[l]   = m_fire && g_exec[l];
    assign l_it_start[l] = it_start && g_exec[l];

    wg_sfu_mufu u_mufu (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .en_i     (en),
      .valid_i  (go_m),
      .fn_i     (f_fn_q),
      .a_i      (a_op),
      .valid_o  (m_ov),
      .result_o (m_res),
      .busy_o   (m_busy)
    );

    wg_sfu_iter #(.ITER_BITS(ITER_BITS)) u_iter (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .start_i  (go_i),
      .op_i     (f_fn_q),
      .a_i      (a_op),
      .b_i      (b_op),
      .done_o   (i_done),
      .result_o (i_res),
      .ack_i    (it_commit && it_started_q && it_mask_q[l]),
      .busy_o   (i_busy)
    );

    assign raw = {m_busy || i_busy, m_ov, i_done, m_res, i_res};
    wg_pg_cell #(.OUT_W(67)) u_pg (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .sleep_i (!lane_en_i[l]),
      .busy_i  (m_busy || i_busy),
      .valid_i (l_mufu_v[l] || l_it_start[l]),
      .valid_o (go_any),
      .lane_i  (raw),
      .lane_o  (iso)
    );
    assign go_m = go_any && l_mufu_v[l];
    assign go_i = go_any && l_it_start[l];

    assign l_busy[l]             = iso[66];
    assign l_mufu_out_v[l]       = iso[65];
    assign l_it_done[l]          = iso[64];
    assign l_mufu_res[l*32 +: 32] = iso[63:32];
    assign l_it_res[l*32 +: 32]   = iso[31:0];
  end

  assign lane_busy_o = l_busy;

  // ---------------------------------------------------------------------------
  // COL and OUT.
  // ---------------------------------------------------------------------------
  logic [1023:0]     col_q, col_d, out_row_q;
  logic [META_W-1:0] out_meta_q;
  logic              out_wb_done_q, out_ret_done_q, col_fire, col_mufu;
  logic [G_W-1:0]    col_g;
  logic [L-1:0]      col_lanes;
  logic [L*32-1:0]   col_res;

  assign col_mufu  = tag_v_q[ML-1];
  assign col_last  = col_mufu ? tag_last_q[ML-1] : (f_g_q == G_W'(P - 1));
  assign col_g     = col_mufu ? tag_g_q[(ML-1)*G_W +: G_W] : f_g_q;
  assign col_lanes = col_mufu ? l_mufu_out_v : (it_started_q ? it_mask_q : '0);
  assign col_res   = col_mufu ? l_mufu_res : l_it_res;
  // The pipeline stalls while an instruction's last group waits for OUT.
  assign en        = !(col_mufu && tag_last_q[ML-1] && out_v_q);
  assign col_fire  = (col_mufu && en) || it_commit;

  always_comb begin
    col_d = col_q;
    for (int l = 0; l < 32'(L); l++) begin
      if (col_lanes[l]) col_d[(32'(col_g)*L + l)*32 +: 32] = col_res[l*32 +: 32];
    end
  end

  assign mq_pop = col_fire && col_last;

  logic o_wr, wb_fire, ret_fire, o_wb_ok, o_ret_ok;
  logic [SCH_W-1:0]  o_sched;
  logic [WARP_W-1:0] o_warp;
  logic [5:0]        o_rd;
  logic [31:0]       o_exec, o_active;
  logic [17:0]       o_pc;
  logic [15:0]       o_seq;
  assign {o_sched, o_warp, o_rd, o_wr, o_exec, o_active, o_pc, o_seq} = out_meta_q;

  assign wb_fire  = |(wb_valid_o & wb_ready_i);
  assign ret_fire = ret_valid_o && ret_ready_i;
  assign o_wb_ok  = !o_wr || out_wb_done_q || wb_fire;
  assign o_ret_ok = out_ret_done_q || ret_fire;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      out_v_q        <= 1'b0;
      out_wb_done_q  <= 1'b0;
      out_ret_done_q <= 1'b0;
    end else begin
      if (col_fire && col_last) begin
        out_v_q        <= 1'b1;
        out_wb_done_q  <= 1'b0;
        out_ret_done_q <= 1'b0;
      end else if (out_v_q) begin
        if (o_wb_ok && o_ret_ok) out_v_q <= 1'b0;
        if (wb_fire) out_wb_done_q <= 1'b1;
        if (ret_fire) out_ret_done_q <= 1'b1;
      end
    end
    if (col_fire) col_q <= col_d;
    if (col_fire && col_last) begin
      out_row_q  <= col_d;
      out_meta_q <= mq_out;
    end
  end

  always_comb begin
    wb_valid_o = '0;
    wb_valid_o[o_sched] = out_v_q && o_wr && !out_wb_done_q;
  end
  assign wb_warp_o  = o_warp;
  assign wb_reg_o   = o_rd;
  assign wb_mask_o  = o_exec;
  assign wb_data_o  = out_row_q;

  // Retire meta: last, beat, reg, dst, exec, active, pc, seq, warp.
  assign ret_valid_o = out_v_q && !out_ret_done_q;
  assign ret_meta_o  = {1'b1, 2'd0, o_rd, (o_wr ? 2'd1 : 2'd0), o_exec, o_active, o_pc, o_seq, 6'(o_warp)};
  assign ret_data_o  = out_row_q;

  assign idle_o = !f_v_q && mq_empty && !out_v_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(col_fire && col_last && !mq_out_valid)) else $error("wg_sfu: result without metadata");
      assert (!(col_mufu && it_commit)) else $error("wg_sfu: MUFU and iterative results at once");
      assert (!(col_fire && col_last && out_v_q && !(o_wb_ok && o_ret_ok)))
        else $error("wg_sfu: OUT overwritten");
    end
  end
`endif

  logic unused_ok;
  assign unused_ok = ^{a_uop, mq_cnt_unused, mq_full_unused};

  if (32 % SFU_LANES != 0 || SFU_LANES > 32) begin : g_bad_lanes
    $error("wg_sfu: SFU_LANES must divide 32");
  end

endmodule
