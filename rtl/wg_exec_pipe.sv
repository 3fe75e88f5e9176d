// wg_exec_pipe: the execution pipeline behind one warp scheduler
// (docs/sm-pipeline.md): register file, operand queue, SIMD unit, write-back
// and the scheduler's retire queue.
//
//   RF   wg_regfile read (RF_BASE, RF_DEC, RF_READ, RF_OUT; bank conflicts add
//        passes); every issued instruction passes here, in order, so the
//        operand queue (OPQ) pairs each response with its instruction
//   DISP SIMD instructions and S2R (a MOV whose B row holds the special
//        registers) enter wg_simd_unit; memory instructions go to the LSU with
//        their operand rows, SFU instructions to wg_sfu (sfu_valid_o with the
//        same lsu_* operand outputs); control instructions (NOP, BRA, EXIT, BAR,
//        MEMBAR, PLOP) take no datapath
//   EX   wg_simd_unit, fixed LATENCY: the write-back slot of a SIMD or control
//        instruction is reserved at dispatch, in a ring of LATENCY slots
//   WB   register write (the ring's instruction has priority; load beats of
//        the LSU take free cycles), predicate write, scoreboard release,
//        retire queue
// Dispatch holds while the retire queue might overflow (a credit per ring or
// queue entry) and while hold_i is set (launch-time register clear).
//
// Power-gating modes (docs/power-gating.md section 3): split_i runs this pipe's SIMD unit
// on half its lanes, compact_i compacts threads; with remote_i (SIMD-unit issue control:
// this pipe's unit is out of use) SIMD instructions go to the other pipe's unit instead
// (xo_*), which arbitrates round robin between its own pipe and the remote one (xi_*) and
// returns the remote results (xr_*). A SIMD instruction then takes P passes
// (wg_sm_pkg::simd_passes: more when split, fewer when compacted), so its write-back slot
// is reserved P + FP32_LATENCY + 1 (+ 1 without SIMD_DIRECT) cycles ahead, in a ring sized for
// the longest case;
// dispatch also waits for that slot to be free. With every mode off P = PASSES: the
// latency and the timing are those of the fixed-latency pipeline.
`default_nettype none

module wg_exec_pipe #(
  parameter int unsigned NUM_WARPS  = 48,
  parameter int unsigned NUM_SIMD   = 2,
  parameter int unsigned SIMD_WIDTH = 16,
  parameter bit          HAS_FP     = 1'b1,
  parameter int unsigned RF_REGS    = 16384,   // registers of this scheduler's register file
  parameter int unsigned RF_BANKS   = 16,
  // Lanes per register-file RAM word (docs/regfile.md section 12): 32 reads and writes a
  // warp row per cycle; fewer move a row in 32 / RF_LANES beats (a read takes that many
  // cycles, a row write holds the write port that many).
  parameter int unsigned RF_LANES   = 32,
  // The SIMD unit's pass 0 from its input rows (1), or every pass from its pass buffer, a
  // cycle later (0: fewer LUTs; wg_simd_unit DIRECT, docs/fpga.md section 3.6).
  parameter bit          SIMD_DIRECT = 1'b1,
  parameter bit          RETIRE_EN  = 1'b1,
  parameter int unsigned RQ_DEPTH   = 16,
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1,
  parameter int unsigned NW     = NUM_WARPS / NUM_SIMD,
  parameter int unsigned LW_W   = (NW > 1) ? $clog2(NW) : 1,
  parameter int unsigned UOP_W  = wg_sm_pkg::UOP_W,
  parameter int unsigned WROWS  = RF_REGS / 32,
  parameter int unsigned WROW_W = (WROWS > 1) ? $clog2(WROWS) : 1,
  parameter int unsigned RM_W   = wg_sm_pkg::RMETA_W
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  input  wire logic [SIMD_WIDTH-1:0] lane_en_i,
  input  wire logic                  hold_i,

  // Power-gating modes.
  input  wire logic                  split_i,         // this pipe's unit runs split
  input  wire logic                  compact_i,       // thread compaction
  input  wire logic                  remote_i,        // SIMD instructions go to the other unit
  input  wire logic                  remote_split_i,  // ... which runs split
  input  wire logic [SIMD_WIDTH-1:0] simd_lanes_on_i, // powered lanes of the unit SIMD dispatch goes to
  output logic [SIMD_WIDTH-1:0]      lane_busy_o,     // this pipe's unit's lanes computing

  // Remote issue to the other pipe's unit (xo) and from the other pipe (xi).
  output logic                       xo_valid_o,
  input  wire logic                  xo_ready_i,
  output logic [5:0]                 xo_op_o,
  output logic [2:0]                 xo_mod_o,
  output logic [31:0]                xo_exec_o,
  output logic [31:0]                xo_psel_o,
  output logic [3*1024-1:0]          xo_rows_o,       // A, B (or imm, S2R row), C
  input  wire logic                  xi_valid_i,
  output logic                       xi_ready_o,
  input  wire logic [5:0]            xi_op_i,
  input  wire logic [2:0]            xi_mod_i,
  input  wire logic [31:0]           xi_exec_i,
  input  wire logic [31:0]           xi_psel_i,
  input  wire logic [3*1024-1:0]     xi_rows_i,
  // Results of remote instructions: this unit's for the other pipe, the other unit's for us.
  output logic                       xr_valid_o,
  output logic [1023:0]              xr_data_o,
  output logic [31:0]                xr_pred_o,
  input  wire logic                  xr_valid_i,
  input  wire logic [1023:0]         xr_data_i,
  input  wire logic [31:0]           xr_pred_i,

  // Register-file table (CTA launch).
  input  wire logic                  tbl_valid_i,
  output logic                       tbl_ready_o,
  input  wire logic [WARP_W-1:0]     tbl_warp_i,
  input  wire logic [WROW_W-1:0]     tbl_base_i,
  input  wire logic [5:0]            tbl_nregs_i,
  output logic                       clr_busy_o,
  output logic                       pipe_empty_o,    // nothing in the ring

  // Issue.
  input  wire logic                  is_valid_i,
  output logic                       is_ready_o,
  input  wire logic [WARP_W-1:0]     is_warp_i,
  input  wire logic [UOP_W-1:0]      is_uop_i,
  input  wire logic [31:0]           is_active_i,
  input  wire logic [31:0]           is_exec_i,
  input  wire logic [15:0]           is_seq_i,
  input  wire logic [31:0]           is_psel_i,
  input  wire logic [31:0]           is_pval_i,

  // Special registers of the instruction at dispatch (wg_sreg's port, shared by the pipes).
  output logic                       sr_en_o,     // an S2R at dispatch asks for the port
  output logic [WARP_W-1:0]          sr_warp_o,
  output logic [4:0]                 sr_num_o,
  input  wire logic                  sr_gnt_i,    // granted: sr_row_i is its row this cycle
  input  wire logic [1023:0]         sr_row_i,

  // To the LSU.
  output logic                       lsu_valid_o,
  input  wire logic                  lsu_ready_i,
  output logic [WARP_W-1:0]          lsu_warp_o,
  output logic [UOP_W-1:0]           lsu_uop_o,
  output logic [31:0]                lsu_active_o,
  output logic [31:0]                lsu_exec_o,
  output logic [15:0]                lsu_seq_o,
  output logic [3*1024-1:0]          lsu_rows_o,      // A, B (or imm), C

  // To the SFU (the operands are the lsu_* outputs above).
  output logic                       sfu_valid_o,
  input  wire logic                  sfu_ready_i,

  // Load write-back from the LSU (one register row per beat).
  input  wire logic                  lwb_valid_i,
  output logic                       lwb_ready_o,
  input  wire logic [WARP_W-1:0]     lwb_warp_i,
  input  wire logic [5:0]            lwb_reg_i,
  input  wire logic [31:0]           lwb_mask_i,
  input  wire logic [1023:0]         lwb_data_i,

  // Write-back to the scheduler.
  output logic                       wb_valid_o,
  output logic [WARP_W-1:0]          wb_warp_o,
  output logic [63:0]                wb_rmask_o,
  output logic [7:0]                 wb_pmask_o,
  output logic                       wb_pwr_o,
  output logic [2:0]                 wb_preg_o,
  output logic [31:0]                wb_pval_o,
  output logic [31:0]                wb_pexec_o,

  // Retire stream (SIMD and control instructions of this scheduler).
  output logic                       ret_valid_o,
  input  wire logic                  ret_ready_i,
  output logic [RM_W-1:0]            ret_meta_o,
  output logic [1023:0]              ret_data_o,

  output logic [31:0]                cnt_bank_conf_o,
  output logic [31:0]                cnt_wr_conf_o,

  // Power gating (docs/power-gating.md section 2). Of this pipe's own unit: lanes holding
  // work, and lanes held powered (work and the passes still to load). Of the unit this
  // pipe's SIMD instructions go to (its own, or the other when remote_i): lanes of SIMD
  // instructions issued and not yet dispatched (held), and the lanes the instruction
  // waiting at dispatch needs (demanded; it waits until they are all powered).
  output logic [SIMD_WIDTH-1:0]      lane_work_o,
  output logic [SIMD_WIDTH-1:0]      unit_hold_o,
  output logic [SIMD_WIDTH-1:0]      pend_lanes_o,
  output logic [SIMD_WIDTH-1:0]      disp_need_o
);

  localparam int unsigned PASSES  = 32 / SIMD_WIDTH;
  // A SIMD instruction's latency beyond its passes (the unit's cycle before pass 0 without
  // SIMD_DIRECT, the FP32 stages, the output row).
  localparam int unsigned TAIL    = (SIMD_DIRECT ? 0 : 1) + wg_fp32_pkg::FP32_LATENCY + 1;
  localparam int unsigned LATENCY = PASSES + TAIL;
  localparam int unsigned LAT_MAX = ((SIMD_WIDTH >= 2) ? 2 * PASSES : PASSES) + TAIL;
  localparam int unsigned RF_PARTS = 32 / RF_LANES;
  // The ring reaches RF_PARTS - 1 slots past the longest latency (a row write's port window).
  localparam int unsigned RING    = 1 << $clog2(LAT_MAX + RF_PARTS);
  localparam logic [2:0]  LW      = 3'($clog2(SIMD_WIDTH));
  localparam int unsigned RING_W  = $clog2(RING);
  localparam int unsigned OPQ_W   = WARP_W + UOP_W + 32 * 4 + 16;
  localparam int unsigned CR_W    = $clog2(RQ_DEPTH + 1);
  localparam logic [5:0]  RZ      = wg_isa_pkg::REG_RZ;

  function automatic logic [LW_W-1:0] loc(input logic [WARP_W-1:0] w);
    loc = LW_W'(32'(w) / NUM_SIMD);
  endfunction

  // ---------------------------------------------------------------------------
  // RF: register file and operand queue.
  // ---------------------------------------------------------------------------
  wg_sm_pkg::uop_t iu;
  assign iu = is_uop_i;

  logic              opq_in_ready, opq_out_valid, opq_pop;
  logic [3:0]        opq_cnt_unused;
  logic              opq_full_unused, opq_empty_unused;
  logic [OPQ_W-1:0]  opq_out;
  logic              rf_req_ready, rf_rsp_valid, rf_rsp_ready;
  logic [3*1024-1:0] rf_rsp_data;
  logic              rf_wr_valid, rf_wr_ready;
  logic [WARP_W-1:0] rf_wr_warp;
  logic [5:0]        rf_wr_reg;
  logic [31:0]       rf_wr_mask;
  logic [1023:0]     rf_wr_data;

  // A .128 store needs the address register and four data registers: it is
  // read twice, [ra] rc rc+1 at issue, then [ra] rc+2 rc+3 from st2 (the issue
  // port is held for that cycle). Both reads enter the OPQ and go to the LSU,
  // which joins them into one warp instruction (one retire beat).
  logic             st2_q, r_valid, r_fire, is_st128;
  logic [OPQ_W-1:0] st2_e_q, r_e;
  logic [WARP_W-1:0] st2_warp_q;
  logic [5:0]       st2_ra_q, st2_rc_q, st2_c2, st2_c3;
  logic [17:0]      r_src;
  assign is_st128 = (iu.op >= wg_isa_pkg::OP_STG && iu.op <= wg_isa_pkg::OP_STL) && iu.mod == wg_isa_pkg::W_128;
  assign st2_c2   = (st2_rc_q == RZ) ? RZ : st2_rc_q + 6'd2;
  assign st2_c3   = (st2_rc_q == RZ) ? RZ : st2_rc_q + 6'd3;
  assign r_valid  = st2_q || is_valid_i;
  assign r_e      = st2_q ? st2_e_q : {is_warp_i, is_uop_i, is_active_i, is_exec_i, is_psel_i, is_pval_i, is_seq_i};
  assign r_src    = st2_q ? {st2_c3, st2_c2, st2_ra_q} : {iu.rf_c, iu.rf_b, iu.rf_a};
  assign r_fire   = r_valid && rf_req_ready && opq_in_ready;

  assign is_ready_o = !st2_q && rf_req_ready && opq_in_ready;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st2_q <= 1'b0;
    end else if (st2_q) begin
      if (r_fire) st2_q <= 1'b0;
    end else if (r_fire && is_st128) begin
      st2_q <= 1'b1;
    end
    if (!st2_q && r_fire && is_st128) begin
      st2_e_q    <= r_e;
      st2_warp_q <= is_warp_i;
      st2_ra_q   <= iu.rf_a;
      st2_rc_q   <= iu.rc;
    end
  end

  wg_fifo #(.DEPTH(8), .WIDTH(OPQ_W)) u_opq (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .flush_i     (1'b0),
    .in_valid_i  (r_valid && rf_req_ready),
    .in_ready_o  (opq_in_ready),
    .in_data_i   (r_e),
    .out_valid_o (opq_out_valid),
    .out_ready_i (opq_pop),
    .out_data_o  (opq_out),
    .count_o     (opq_cnt_unused),
    .full_o      (opq_full_unused),
    .empty_o     (opq_empty_unused)
  );

  logic rf_tag_unused, rf_idle_unused, rf_wr_busy;
  logic [31:0] rf_cnt_rd_unused, rf_cnt_wr_unused;

  wg_rf_rows #(
    .NUM_WARPS     (NW),
    .NUM_REGS      (RF_REGS),
    .NUM_BANKS     (RF_BANKS),
    .LANES_PER_ROW (RF_LANES),
    .TAG_W         (1)
  ) u_rf (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .tbl_valid_i     (tbl_valid_i),
    .tbl_ready_o     (tbl_ready_o),
    .tbl_warp_i      (loc(tbl_warp_i)),
    .tbl_base_i      (tbl_base_i),
    .tbl_nregs_i     (tbl_nregs_i),
    .tbl_clear_i     (1'b1),
    .clr_busy_o      (clr_busy_o),
    .req_valid_i     (r_valid && opq_in_ready),
    .req_ready_o     (rf_req_ready),
    .req_warp_i      (loc(st2_q ? st2_warp_q : is_warp_i)),
    .req_src_i       (r_src),
    .req_tag_i       (1'b0),
    .rsp_valid_o     (rf_rsp_valid),
    .rsp_ready_i     (rf_rsp_ready),
    .rsp_tag_o       (rf_tag_unused),
    .rsp_data_o      (rf_rsp_data),
    .wr_valid_i      (rf_wr_valid),
    .wr_ready_o      (rf_wr_ready),
    .wr_warp_i       (loc(rf_wr_warp)),
    .wr_reg_i        (rf_wr_reg),
    .wr_mask_i       (rf_wr_mask),
    .wr_data_i       (rf_wr_data),
    .wr_busy_o       (rf_wr_busy),
    .cnt_rd_req_o    (rf_cnt_rd_unused),
    .cnt_wr_o        (rf_cnt_wr_unused),
    .cnt_bank_conf_o (cnt_bank_conf_o),
    .cnt_wr_conf_o   (cnt_wr_conf_o),
    .idle_o          (rf_idle_unused)
  );

  // ---------------------------------------------------------------------------
  // DISP.
  // ---------------------------------------------------------------------------
  logic [WARP_W-1:0] d_warp;
  wg_sm_pkg::uop_t   du;
  logic [31:0]       d_active, d_exec, d_psel, d_pval;
  logic [15:0]       d_seq;
  assign {d_warp, du, d_active, d_exec, d_psel, d_pval, d_seq} = opq_out;

  logic d_valid, d_simd, d_lsu, d_sfu, d_ctrl, d_s2r, d_fire, ring_ok;
  logic simd_ready, simd_fire;
  logic [CR_W-1:0] credits_q;   // ring + retire-queue entries in use

  assign d_valid = opq_out_valid && rf_rsp_valid;
  assign d_s2r   = (du.op == wg_isa_pkg::OP_S2R);
  assign d_simd  = (du.unit == wg_sm_pkg::UNIT_SIMD);
  assign d_lsu   = (du.unit == wg_sm_pkg::UNIT_LSU);
  assign d_ctrl  = (du.unit == wg_sm_pkg::UNIT_CTRL);
  assign d_sfu   = (du.unit == wg_sm_pkg::UNIT_SFU);
  assign ring_ok = !hold_i && (32'(credits_q) < RQ_DEPTH) && slot_ok;

  // Write-back latency of the instruction at DISP: a SIMD instruction's by its passes on
  // the unit it goes to; a control instruction's the fixed LATENCY.
  logic [RING_W-1:0] d_lat;
  logic              slot_ok, own_req, gnt_x, xpri_q, unit_fire, tgt_split;
  assign tgt_split = (SIMD_WIDTH >= 2) && (remote_i ? remote_split_i : split_i);
  assign d_lat   = d_simd ? RING_W'(32'(wg_sm_pkg::simd_passes(d_exec, LW - {2'b0, tgt_split}, compact_i)) +
                            TAIL)
                          : RING_W'(LATENCY);
  // A SIMD instruction that writes a register also needs the write port for RF_PARTS
  // cycles from its slot (rf_win_free; always with RF_PARTS = 1).
  assign slot_ok = !ring_v_q[rptr_q + d_lat] && (!(d_simd && d_wr) || rf_win_free);

  // The unit's input: this pipe's instruction, or the other pipe's (round robin).
  // The lanes the instruction at dispatch uses on the unit it goes to: it waits until they
  // are all powered (docs/power-gating.md section 2), and demands them meanwhile.
  logic [SIMD_WIDTH-1:0] d_lanes;
  logic                  lanes_ok;
  assign d_lanes  = SIMD_WIDTH'(wg_sm_pkg::simd_lanes(d_exec, LW - {2'b0, tgt_split}, compact_i));
  assign lanes_ok = (d_lanes & ~simd_lanes_on_i) == '0;

  // An S2R goes only in a cycle in which wg_sreg's shared port serves this pipe.
  logic s2r_ok;
  assign s2r_ok     = !d_s2r || sr_gnt_i;
  assign own_req    = d_valid && d_simd && ring_ok && !remote_i && lanes_ok && s2r_ok;
  assign gnt_x      = xi_valid_i && (!own_req || xpri_q);
  assign xi_ready_o = simd_ready && gnt_x;
  assign unit_fire  = simd_ready && (own_req || gnt_x);
  assign xo_valid_o = d_valid && d_simd && ring_ok && remote_i && lanes_ok && s2r_ok;

  assign simd_fire = remote_i ? (xo_valid_o && xo_ready_i) : (own_req && simd_ready && !gnt_x);
  assign d_fire    = simd_fire || (d_valid && d_ctrl && ring_ok) || (d_valid && d_lsu && lsu_ready_i) ||
                     (d_valid && d_sfu && sfu_ready_i);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) xpri_q <= 1'b0;
    else if (unit_fire) xpri_q <= !gnt_x;
  end
  assign opq_pop      = d_fire;
  assign rf_rsp_ready = d_fire;

  assign sr_en_o   = d_valid && d_s2r;
  assign sr_warp_o = d_warp;
  assign sr_num_o  = du.imm[4:0];

  logic [1023:0] row_a, row_b, row_c, row_bi;
  assign row_a  = rf_rsp_data[0 +: 1024];
  assign row_b  = rf_rsp_data[1024 +: 1024];
  assign row_c  = rf_rsp_data[2048 +: 1024];
  assign row_bi = du.bimm ? {32{du.imm}} : d_s2r ? sr_row_i : row_b;

  logic              s_out_valid;
  logic [1023:0]     s_out_data;
  logic [5:0]        own_op;
  logic [2:0]        own_mod;
  assign own_op  = d_s2r ? wg_isa_pkg::OP_MOV : du.op;
  assign own_mod = d_s2r ? 3'd0 : du.mod;
  logic [31:0]       s_out_pred, s_out_mask;
  logic              s_out_tag;
  logic [SIMD_WIDTH-1:0] s_lane_busy, s_lane_work;

  wg_simd_unit #(
    .SIMD_WIDTH (SIMD_WIDTH),
    .HAS_FP     (HAS_FP),
    .TAG_W      (1),
    .DIRECT     (SIMD_DIRECT)
  ) u_simd (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (own_req || gnt_x),
    .in_ready_o  (simd_ready),
    .in_op_i     (gnt_x ? xi_op_i : own_op),
    .in_mod_i    (gnt_x ? xi_mod_i : own_mod),
    .in_tag_i    (gnt_x),                       // 1: the other pipe's instruction
    .in_exec_i   (gnt_x ? xi_exec_i : d_exec),
    .in_a_i      (gnt_x ? xi_rows_i[0 +: 1024] : row_a),
    .in_b_i      (gnt_x ? xi_rows_i[1024 +: 1024] : row_bi),
    .in_c_i      (gnt_x ? xi_rows_i[2048 +: 1024] : row_c),
    .in_psel_i   (gnt_x ? xi_psel_i : d_psel),
    .in_split_i  (split_i),
    .in_compact_i(compact_i),
    .lane_en_i   (lane_en_i),
    .out_valid_o (s_out_valid),
    .out_tag_o   (s_out_tag),
    .out_data_o  (s_out_data),
    .out_pred_o  (s_out_pred),
    .out_mask_o  (s_out_mask),
    .lane_busy_o (s_lane_busy),
    .lane_work_o (s_lane_work)
  );

  // Lanes held powered. Of SIMD instructions between issue and dispatch: a count and the
  // union of their lanes (by the split and unit at issue; if these change before dispatch,
  // the instruction at dispatch demands its new lanes), cleared when the count returns to 0.
  // Of this unit: the lanes of the instruction it is still loading passes of, and the lanes
  // holding work.
  logic [SIMD_WIDTH-1:0] pend_lanes_q, is_lanes, unit_lanes_q, x_lanes;
  logic [4:0]            pend_cnt_q, pend_cnt_d;
  logic                  is_simd_fire;

  assign is_lanes     = SIMD_WIDTH'(wg_sm_pkg::simd_lanes(is_exec_i, LW - {2'b0, tgt_split}, compact_i));
  assign x_lanes      = SIMD_WIDTH'(wg_sm_pkg::simd_lanes(xi_exec_i,
                                    LW - {2'b0, (SIMD_WIDTH >= 2) && split_i}, compact_i));
  assign is_simd_fire = is_valid_i && is_ready_o && (iu.unit == wg_sm_pkg::UNIT_SIMD);
  assign pend_cnt_d   = pend_cnt_q + 5'(is_simd_fire) - 5'(simd_fire);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pend_cnt_q   <= '0;
      pend_lanes_q <= '0;
      unit_lanes_q <= '0;
    end else begin
      pend_cnt_q   <= pend_cnt_d;
      if (pend_cnt_d == '0) pend_lanes_q <= '0;
      else if (is_simd_fire) pend_lanes_q <= pend_lanes_q | is_lanes;
      if (unit_fire) unit_lanes_q <= gnt_x ? x_lanes : d_lanes;
    end
  end

  assign lane_work_o  = s_lane_work;
  assign unit_hold_o  = s_lane_work | (simd_ready ? '0 : unit_lanes_q);
  assign pend_lanes_o = pend_lanes_q;
  assign disp_need_o  = (d_valid && d_simd) ? d_lanes : '0;

  assign lane_busy_o = s_lane_busy;

  // Remote issue and results. The rows are wires: the other pipe reads xo_rows_o only with
  // xo_valid_o and the results only with xr_valid_o (gating them with the valid costs a LUT
  // per bit, about 4k LUTs per pipe, for nothing).
  assign xo_op_o   = own_op;
  assign xo_mod_o  = own_mod;
  assign xo_exec_o = d_exec;
  assign xo_psel_o = d_psel;
  assign xo_rows_o = {row_c, row_bi, row_a};
  assign xr_valid_o = s_out_valid && s_out_tag;
  assign xr_data_o  = s_out_data;
  assign xr_pred_o  = s_out_pred;

  assign lsu_valid_o  = d_valid && d_lsu;
  assign sfu_valid_o  = d_valid && d_sfu;
  assign lsu_warp_o   = d_warp;
  assign lsu_uop_o    = du;
  assign lsu_active_o = d_active;
  assign lsu_exec_o   = d_exec;
  assign lsu_seq_o    = d_seq;
  assign lsu_rows_o   = {row_c, row_bi, row_a};

  // ---------------------------------------------------------------------------
  // EX: write-back ring.
  // ---------------------------------------------------------------------------
  // Ring entry: {remote, simd, wr_reg, setp, pval, retire meta}.
  localparam int unsigned RE_W = 4 + 32 + RM_W;
  logic [RE_W-1:0]   ring_q [RING];
  logic [RING-1:0]   ring_v_q;
  logic [RING_W-1:0] rptr_q, wptr;
  logic [RM_W-1:0]   d_meta;
  logic              d_wr, d_setp, d_plop;

  assign wptr   = rptr_q + d_lat;
  assign d_wr   = (du.nwr != 3'd0);

  // Write-port windows (RF_PARTS > 1): pb_q[i] marks slot i as a cycle in which a row
  // write walks the port, reserved with the instruction (its slot and the RF_PARTS - 1
  // after it) or taken by a load write-back (the RF_PARTS - 1 cycles after its accept).
  // An instruction that writes a register dispatches only when its window is free; a load
  // write-back is accepted only when the window from this cycle is free and no such
  // instruction dispatches in this cycle.
  logic rf_win_free, lwb_go;
  if (RF_PARTS > 1) begin : g_pwin
    logic [RING-1:0] pb_q;
    logic            lwb_win_free, win_take;
    assign win_take = simd_fire && d_wr;   // an instruction takes its window
    always_comb begin
      rf_win_free  = 1'b1;
      lwb_win_free = 1'b1;
      for (int k = 0; k < RF_PARTS; k++) begin
        if (pb_q[RING_W'(wptr + RING_W'(k))]) rf_win_free = 1'b0;
        if (pb_q[RING_W'(rptr_q + RING_W'(k))]) lwb_win_free = 1'b0;
      end
    end
    assign lwb_go = lwb_win_free && !win_take;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        pb_q <= '0;
      end else begin
        pb_q[rptr_q] <= 1'b0;
        if (win_take) begin
          for (int k = 0; k < RF_PARTS; k++) pb_q[RING_W'(wptr + RING_W'(k))] <= 1'b1;
        end
        if (lwb_valid_i && lwb_ready_o) begin
          for (int k = 1; k < RF_PARTS; k++) pb_q[RING_W'(rptr_q + RING_W'(k))] <= 1'b1;
        end
      end
    end
  end else begin : g_nowin
    // The ring owns the write port in its cycles (even when it writes nothing).
    assign rf_win_free = 1'b1;
    assign lwb_go      = !wb_v;
  end
  assign d_setp = du.wr_pd && (du.op != wg_isa_pkg::OP_PLOP);
  assign d_plop = (du.op == wg_isa_pkg::OP_PLOP);
  // Retire meta: warp, seq, pc, active, exec, dst, reg, beat, last.
  assign d_meta = {1'b1, 2'd0, (du.wr_pd ? {3'd0, du.rd[2:0]} : du.rd),
                   (d_wr ? 2'd1 : du.wr_pd ? 2'd2 : 2'd0),
                   d_exec, d_active, du.pc, d_seq, 6'(d_warp)};

  logic              wb_v;
  logic [RE_W-1:0]   wb_e;
  logic              wb_x, wb_simd, wb_wr, wb_setp;
  logic [31:0]       wb_pv;
  logic [RM_W-1:0]   wb_meta;
  assign wb_v = ring_v_q[rptr_q];
  assign wb_e = ring_q[rptr_q];
  assign {wb_x, wb_simd, wb_wr, wb_setp, wb_pv, wb_meta} = wb_e;

  // The result row of the instruction in write-back: this unit's, or the other unit's.
  logic [1023:0] wb_data;
  logic [31:0]   wb_pred;
  assign wb_data = wb_x ? xr_data_i : s_out_data;
  assign wb_pred = wb_x ? xr_pred_i : s_out_pred;

  logic [WARP_W-1:0] wb_w;
  logic [5:0]        wb_rd;
  logic [31:0]       wb_exec;
  assign wb_w    = WARP_W'(wb_meta[5:0]);
  assign wb_rd   = wb_meta[111:106];
  assign wb_exec = wb_meta[103:72];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ring_v_q <= '0;
      rptr_q   <= '0;
    end else begin
      rptr_q <= rptr_q + 1'b1;
      ring_v_q[rptr_q] <= 1'b0;
      if (simd_fire || (d_valid && d_ctrl && ring_ok)) ring_v_q[wptr] <= 1'b1;
    end
    if (simd_fire || (d_valid && d_ctrl && ring_ok)) begin
      ring_q[wptr] <= {remote_i && d_simd, d_simd, d_wr && d_simd, d_setp && d_simd, d_plop ? d_pval : 32'd0,
                       d_meta};
    end
  end

  // ---------------------------------------------------------------------------
  // WB.
  // ---------------------------------------------------------------------------
  logic ring_rf;
  assign ring_rf = wb_v && wb_wr && wb_exec != '0 && wb_rd != RZ;

  assign rf_wr_valid = ring_rf || (lwb_valid_i && lwb_go);
  assign rf_wr_warp  = ring_rf ? wb_w : lwb_warp_i;
  assign rf_wr_reg   = ring_rf ? wb_rd : lwb_reg_i;
  assign rf_wr_mask  = ring_rf ? wb_exec : lwb_mask_i;
  assign rf_wr_data  = ring_rf ? wb_data : lwb_data_i;
  assign lwb_ready_o = lwb_go && rf_wr_ready;

  assign wb_valid_o = wb_v;
  assign wb_warp_o  = wb_w;
  assign wb_rmask_o = wb_wr ? (64'd1 << wb_rd) : 64'd0;
  assign wb_pmask_o = wb_setp ? (8'd1 << wb_rd[2:0]) : 8'd0;
  assign wb_pwr_o   = wb_setp;
  assign wb_preg_o  = wb_rd[2:0];
  assign wb_pval_o  = wb_pred;
  assign wb_pexec_o = wb_exec;

  // Retire queue.
  logic [1023:0] wb_rdata;
  logic          rq_in_ready, rq_pop;
  logic [$clog2(RQ_DEPTH+1)-1:0] rq_cnt_unused;
  logic          rq_full_unused, rq_empty_unused;
  always_comb begin
    wb_rdata = '0;
    if (RETIRE_EN) begin
      if (wb_setp) wb_rdata[31:0] = wb_pred & wb_exec;
      else if (wb_simd) wb_rdata = wb_data;
      else wb_rdata[31:0] = wb_pv;
    end
  end

  // The queue holds the result row only with the retire port (RETIRE_EN): without it the
  // data is 0, and 16 x 1024 bits of zeros would still take LUT RAM.
  localparam int unsigned RQ_DW = RETIRE_EN ? 1024 : 1;
  logic [RQ_DW-1:0] rq_out_data;
  wg_fifo #(.DEPTH(RQ_DEPTH), .WIDTH(RM_W + RQ_DW)) u_rq (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .flush_i     (1'b0),
    .in_valid_i  (wb_v),
    .in_ready_o  (rq_in_ready),
    .in_data_i   ({wb_meta, wb_rdata[RQ_DW-1:0]}),
    .out_valid_o (ret_valid_o),
    .out_ready_i (ret_ready_i),
    .out_data_o  ({ret_meta_o, rq_out_data}),
    .count_o     (rq_cnt_unused),
    .full_o      (rq_full_unused),
    .empty_o     (rq_empty_unused)
  );
  assign ret_data_o = RETIRE_EN ? 1024'(rq_out_data) : '0;
  assign rq_pop = ret_valid_o && ret_ready_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) credits_q <= '0;
    else credits_q <= credits_q + CR_W'(simd_fire || (d_valid && d_ctrl && ring_ok)) - CR_W'(rq_pop);
  end

  assign pipe_empty_o = (ring_v_q == '0) && !rf_wr_busy;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert ((s_out_valid && !s_out_tag) == (wb_v && wb_simd && !wb_x))
        else $error("wg_exec_pipe: SIMD result out of its reserved slot");
      assert (xr_valid_i == (wb_v && wb_simd && wb_x))
        else $error("wg_exec_pipe: remote SIMD result out of its reserved slot");
      assert (!(simd_fire || (d_valid && d_ctrl && ring_ok)) || !ring_v_q[wptr])
        else $error("wg_exec_pipe: write-back slot taken twice");
      assert (!wb_v || rq_in_ready) else $error("wg_exec_pipe: retire queue overflow");
      assert (!ring_rf || rf_wr_ready) else $error("wg_exec_pipe: write-back during a register clear");
      assert (!(pend_cnt_q == '0 && simd_fire && !is_simd_fire))
        else $error("wg_exec_pipe: SIMD dispatch without an issued SIMD instruction");
      assert (!(pend_cnt_q == 5'h1f && is_simd_fire && !simd_fire))
        else $error("wg_exec_pipe: too many SIMD instructions between issue and dispatch");
    end
  end
`endif

  logic unused_ok;
  assign unused_ok = ^{rf_tag_unused, rf_idle_unused, rf_cnt_rd_unused,
                       rf_cnt_wr_unused, s_out_mask, iu, wb_rdata, rq_out_data};

endmodule
