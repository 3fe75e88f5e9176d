// wg_sm: one streaming multiprocessor (docs/sm.md, docs/sm-pipeline.md).
//
//   wg_fetch ──> wg_warp_sched[k] ──> wg_exec_pipe[k] (regfile, SIMD unit) ──┐
//      ^              │   │                 │                               ├─> wg_retire ──> retire port
//      │              │   └─> wg_simt_stack │──> wg_lsu ──> memory port     │
//      └── resume ────┘       wg_barrier    └───────────────────────────────┘
//   wg_cta_ctrl (launch, completion), wg_sreg (S2R)
//   wg_sfu: shared by the execution pipelines (MUFU, FDIV, FSQRT, IDIV, IREM);
//   its results use the load write-back path when the LSU leaves it free
//
// Warp slot w belongs to scheduler w mod NUM_SIMD. The SM id is a port so
// that the SMs of a GPU share one Verilated model (DESIGN.md section 11).
`default_nettype none

module wg_sm #(
  parameter int unsigned NUM_WARPS   = 48,
  parameter int unsigned SIMD_WIDTH  = 16,
  parameter int unsigned NUM_SIMD    = 2,
  parameter int unsigned NUM_REGS    = 32768,
  parameter int unsigned RF_BANKS    = 16,
  parameter int unsigned NUM_CTAS    = 8,
  parameter int unsigned DMEM_BYTES  = 65536,   // shared memory + L1 (split at set-up)
  parameter int unsigned L1_SETS     = 64,
  parameter int unsigned L1_MSHRS    = 8,
  parameter int unsigned IMEM_DEPTH  = 4096,
  parameter int unsigned CMEM_BYTES  = 4096,
  parameter int unsigned STACK_DEPTH = 64,
  parameter bit          HAS_FP      = 1'b1,
  parameter bit          HAS_SFU     = 1'b1,    // special-function unit (docs/sfu.md)
  parameter int unsigned SFU_LANES   = 4,
  parameter int unsigned PGT_QDEPTH  = 512,   // lane-activity trace queue (docs/power-gating.md 7.2)
  parameter int unsigned MEM_BYTES   = 128,
  parameter int unsigned MEM_TAG_W   = 8,
  parameter bit          RETIRE_EN   = 1'b1,
  parameter int unsigned LSU_LANES   = 32,      // coalescer lanes per cycle (docs/fpga.md 3.3)
  parameter int unsigned RF_LANES    = 32,      // lanes per register-file RAM word (docs/regfile.md 12)
  parameter bit          SIMD_DIRECT = 1'b1,    // SIMD pass 0 from the operand rows (0: a cycle later, fewer LUTs)
  // Derived: do not override.
  parameter int unsigned IMEM_W = $clog2(IMEM_DEPTH),
  parameter int unsigned CMEM_W = $clog2(CMEM_BYTES / 4),
  parameter int unsigned NUM_CLS = 12
) (
  input  wire logic                          clk_i,
  // The power-gating clock: an edge at every edge of clk_i, and the edges of a histogram
  // clear sweep while clk_i is off (pg_busy_o high, pg_work_o low). The sweep and the
  // power-gating controllers' delay counters run on it, so they see the same edges whether or
  // not the SM's clock runs for the sweep (docs/sm.md section 5).
  input  wire logic                          clk_pg_i,
  // The histogram read clock: an edge at every edge of clk_pg_i, and the histogram readout's
  // edges (pg_hist_re_i) while clk_i is off: reading the bins out does not clock the SM.
  input  wire logic                          clk_hist_i,
  input  wire logic                          rst_ni,
  input  wire logic [7:0]                    sm_id_i,

  // Kernel set-up.
  input  wire logic                          cfg_we_i,
  input  wire logic [4:0]                    cfg_addr_i,
  input  wire logic [31:0]                   cfg_wdata_i,
  input  wire logic                          imem_we_i,
  input  wire logic [IMEM_W-1:0]             imem_addr_i,
  input  wire logic [63:0]                   imem_wdata_i,
  input  wire logic                          cmem_we_i,
  input  wire logic [CMEM_W-1:0]             cmem_addr_i,
  input  wire logic [31:0]                   cmem_wdata_i,

  // CTA launch and completion.
  input  wire logic                          cta_valid_i,
  output logic                               cta_ready_o,
  input  wire logic [47:0]                   cta_id_i,
  input  wire logic [31:0]                   cta_linear_i,
  output logic                               done_valid_o,
  input  wire logic                          done_ready_i,
  output logic [31:0]                        done_linear_o,
  output logic                               busy_o,

  // Memory port.
  output logic                               mreq_valid_o,
  input  wire logic                          mreq_ready_i,
  output logic [MEM_TAG_W-1:0]               mreq_tag_o,
  output logic [1:0]                         mreq_cmd_o,
  output logic [31:0]                        mreq_addr_o,
  output logic [2:0]                         mreq_size_o,
  output logic [MEM_BYTES-1:0]               mreq_wmask_o,
  output logic [8*MEM_BYTES-1:0]             mreq_wdata_o,
  output logic [3:0]                         mreq_atom_op_o,
  output logic [31:0]                        mreq_atom_b_o,
  output logic [31:0]                        mreq_atom_c_o,
  output logic                               mreq_local_o,
  output logic                               mreq_wb_o,
  output logic [5:0]                         mreq_warp_o,
  output logic [17:0]                        mreq_pc_o,
  output logic [4:0]                         mreq_lane_o,
  input  wire logic                          mrsp_valid_i,
  output logic                               mrsp_ready_o,
  input  wire logic [MEM_TAG_W-1:0]          mrsp_tag_i,
  input  wire logic [8*MEM_BYTES-1:0]        mrsp_rdata_i,

  // Faults.
  output logic                               fault_valid_o,
  output logic [3:0]                         fault_code_o,
  output logic [5:0]                         fault_warp_o,
  output logic [17:0]                        fault_pc_o,
  output logic [4:0]                         fault_lane_o,
  output logic [31:0]                        fault_addr_o,
  output logic [31:0]                        fault_cta_linear_o,

  // Retire port.
  output logic                               ret_valid_o,
  input  wire logic                          ret_ready_i,
  output logic [5:0]                         ret_warp_o,
  output logic [31:0]                        ret_cta_linear_o,
  output logic [4:0]                         ret_wic_o,
  output logic [15:0]                        ret_seq_o,
  output logic [17:0]                        ret_pc_o,
  output logic [31:0]                        ret_active_o,
  output logic [31:0]                        ret_exec_o,
  output logic [1:0]                         ret_dst_o,
  output logic [5:0]                         ret_reg_o,
  output logic [1:0]                         ret_beat_o,
  output logic                               ret_last_o,
  output logic [1023:0]                      ret_data_o,

  // Power gating (docs/power-gating.md). lane_en_i forces lanes off (1 = the controller
  // decides); the controls are kernel registers CFG_PG_*.
  input  wire logic [NUM_SIMD*SIMD_WIDTH-1:0] lane_en_i,
  input  wire logic                          pg_re_i,        // counter read port (section 4.1)
  input  wire logic [11:0]                   pg_raddr_i,
  output logic [63:0]                        pg_rdata_o,
  input  wire logic                          pg_hist_re_i,   // histogram read: unit x 1024 + L - 1
  input  wire logic [15:0]                   pg_hist_addr_i,
  output logic [31:0]                        pg_hist_data_o, // after the clk_hist_i edge of pg_hist_re_i
  output logic                               pg_busy_o,      // histogram engines busy
  output logic                               pg_work_o,      // power-gating work that needs clk_i edges (section 5)
  output logic [2*NUM_SIMD*SIMD_WIDTH-1:0]   pg_state_o,     // every lane's state this cycle (2 bits)
  output logic                               pg_count_o,     // this cycle is counted (the window)
  output logic [NUM_SIMD*SIMD_WIDTH-1:0] pg_in_use_o,   // lanes in use (warp issue control)
  output logic [1:0]                         pg_issue_state_o, // issue-control state S1..S4 (0..3)
  output logic [4*48-1:0]                    cnt_pg_state_o,   // cycles in S1..S4
  output logic [47:0]                        cnt_pg_changes_o, // state changes
  // Lane-activity trace (docs/power-gating.md section 7): 64-bit records, window in
  // kernel registers CFG_PGT_*.
  output logic                               pgt_valid_o,
  input  wire logic                          pgt_ready_i,
  output logic [63:0]                        pgt_rec_o,

  // Counters (docs/sm-pipeline.md).
  output logic [63:0]                        cnt_cycles_o,
  output logic [63:0]                        cnt_active_o,
  output logic [63:0]                        cnt_winst_o,
  output logic [63:0]                        cnt_tinst_o,
  output logic [NUM_CLS*32-1:0]              cnt_class_o,
  output logic [31:0]                        cnt_stall_idle_o,
  output logic [31:0]                        cnt_stall_hazard_o,
  output logic [31:0]                        cnt_stall_busy_o,
  output logic [31:0]                        cnt_bank_conf_o,
  output logic [31:0]                        cnt_wr_conf_o,
  output logic [wg_sm_pkg::NUM_MEMCNT*32-1:0] cnt_mem_o,
  output logic [wg_sm_pkg::NUM_EXECCNT*32-1:0] cnt_exec_o
);
  /*verilator no_inline_module*/

  localparam int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1;
  localparam int unsigned CTA_W  = (NUM_CTAS > 1) ? $clog2(NUM_CTAS) : 1;
  localparam int unsigned UOP_W  = wg_sm_pkg::UOP_W;
  localparam int unsigned RM_W   = wg_sm_pkg::RMETA_W;
  localparam int unsigned RF_REGS = NUM_REGS / NUM_SIMD;
  localparam int unsigned RF_ROWS = RF_REGS / 32;
  localparam int unsigned WROW_W = (RF_ROWS > 1) ? $clog2(RF_ROWS) : 1;
  localparam int unsigned SW_W   = $clog2(DMEM_BYTES / 128);
  localparam int unsigned L1_WAYS = DMEM_BYTES * 3 / 4 / 128 / L1_SETS;
  localparam int unsigned TID_W  = wg_sm_pkg::TID_W;

  // ---------------------------------------------------------------------------
  // Kernel registers.
  // ---------------------------------------------------------------------------
  logic [31:0] cfg_q [wg_sm_pkg::NUM_CFG];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int i = 0; i < 32'(wg_sm_pkg::NUM_CFG); i++) cfg_q[i] <= '0;
      cfg_q[wg_sm_pkg::CFG_PG_SLICE] <= 32'd100;
      cfg_q[wg_sm_pkg::CFG_PG_DOWN]  <= {8'd0, 8'd25, 8'd50, 8'd75};
      cfg_q[wg_sm_pkg::CFG_PG_UP]    <= {8'd0, 8'd20, 8'd40, 8'd60};
    end else if (cfg_we_i && 32'(cfg_addr_i) < wg_sm_pkg::NUM_CFG) begin
      cfg_q[cfg_addr_i] <= cfg_wdata_i;
    end
  end

  logic [17:0] start_pc;
  logic [5:0]  regs;
  logic [47:0] ntid, nctaid;
  logic        sched_gto, halt_cfg, count_idle;
  assign start_pc   = cfg_q[5'(wg_sm_pkg::CFG_START_PC)][17:0];
  assign regs       = cfg_q[5'(wg_sm_pkg::CFG_REGS)][5:0];
  assign ntid       = {cfg_q[5'(wg_sm_pkg::CFG_NTID_Z)][15:0], cfg_q[5'(wg_sm_pkg::CFG_NTID_Y)][15:0],
                       cfg_q[5'(wg_sm_pkg::CFG_NTID_X)][15:0]};
  assign nctaid     = {cfg_q[5'(wg_sm_pkg::CFG_NCTAID_Z)][15:0], cfg_q[5'(wg_sm_pkg::CFG_NCTAID_Y)][15:0],
                       cfg_q[5'(wg_sm_pkg::CFG_NCTAID_X)][15:0]};
  assign sched_gto  = cfg_q[5'(wg_sm_pkg::CFG_SCHED)][0];
  assign halt_cfg   = cfg_q[5'(wg_sm_pkg::CFG_CTRL)][0];
  assign count_idle = cfg_q[5'(wg_sm_pkg::CFG_CTRL)][1];

  // L1_CTRL: mode and split; a write with bit 2 set flushes the L1.
  logic l1_fermi, l1_split, l1_flush_q;
  assign l1_fermi = cfg_q[5'(wg_sm_pkg::CFG_L1_CTRL)][0];
  assign l1_split = cfg_q[5'(wg_sm_pkg::CFG_L1_CTRL)][1];
  always_ff @(posedge clk_i) begin
    if (!rst_ni) l1_flush_q <= 1'b0;
    else l1_flush_q <= cfg_we_i && cfg_addr_i == wg_sm_pkg::CFG_L1_CTRL && cfg_wdata_i[2];
  end

  // ---------------------------------------------------------------------------
  // Blocks.
  // ---------------------------------------------------------------------------
  logic                         faulted_q, hold;
  logic [NUM_WARPS*32-1:0]      act;
  logic [NUM_WARPS*18-1:0]      rpc;
  logic                         resume_valid, wdone_valid;
  logic [WARP_W-1:0]            resume_warp, wdone_warp;
  logic [17:0]                  resume_pc;
  logic                         start_valid;
  logic [WARP_W-1:0]            start_warp;
  logic [31:0]                  start_mask;
  logic                         ib_valid;
  logic [WARP_W-1:0]            ib_warp;
  logic [UOP_W-1:0]             ib_uop;
  logic [NUM_WARPS-1:0]         memzero, quiet, release_w, fin;
  logic [NUM_WARPS*CTA_W-1:0]   warp_cta;
  logic [NUM_WARPS*5-1:0]       warp_wic;
  logic [NUM_CTAS*32-1:0]       cta_linear;
  logic [NUM_CTAS*48-1:0]       cta_ids;
  logic [NUM_CTAS*NUM_WARPS-1:0] cta_wmask;
  logic [63:0]                  clock_q;

  // Per scheduler.
  logic [NUM_SIMD-1:0]          pop_valid, is_valid, is_ready, simt_valid, simt_park, bar_valid;
  logic [NUM_SIMD*WARP_W-1:0]   pop_warp, is_warp, simt_warp, bar_warp, sr_warp;
  logic [NUM_SIMD*UOP_W-1:0]    is_uop;
  logic [NUM_SIMD*32-1:0]       is_active, is_exec, is_psel, is_pval, simt_exec;
  logic [NUM_SIMD*16-1:0]       is_seq;
  logic [NUM_SIMD*2-1:0]        simt_op;
  logic [NUM_SIMD*18-1:0]       simt_pc, simt_target, simt_reconv;
  logic [NUM_SIMD*4-1:0]        bar_id;
  logic [NUM_SIMD*5-1:0]        sr_num;
  logic [NUM_SIMD-1:0]          sr_en, sr_gnt;
  logic [1023:0]                sr_row;       // wg_sreg's one port, for the granted pipe
  logic [NUM_SIMD-1:0]          ifault;
  logic [NUM_SIMD*WARP_W-1:0]   ifault_warp;
  logic [NUM_SIMD*18-1:0]       ifault_pc;
  logic [NUM_SIMD-1:0]          st_issue, st_idle, st_hazard, st_busy;
  logic [NUM_SIMD*4-1:0]        st_cls;
  logic [NUM_SIMD*6-1:0]        st_threads;
  logic [NUM_SIMD-1:0]          tbl_valid, tbl_ready, clr_busy, pipe_empty;
  logic [WARP_W-1:0]            tbl_warp;
  logic [WROW_W-1:0]            tbl_base;
  logic [NUM_SIMD-1:0]          wb_valid, wb_pwr;
  logic [NUM_SIMD*WARP_W-1:0]   wb_warp;
  logic [NUM_SIMD*64-1:0]       wb_rmask;
  logic [NUM_SIMD*8-1:0]        wb_pmask;
  logic [NUM_SIMD*3-1:0]        wb_preg;
  logic [NUM_SIMD*32-1:0]       wb_pval, wb_pexec;
  logic [NUM_SIMD-1:0]          lsu_valid, lsu_ready, lwb_valid, lwb_ready;
  logic [NUM_SIMD*WARP_W-1:0]   lsu_warp;
  logic [NUM_SIMD*UOP_W-1:0]    lsu_uop;
  logic [NUM_SIMD*32-1:0]       lsu_active, lsu_exec;
  logic [NUM_SIMD*16-1:0]       lsu_seq;
  logic [NUM_SIMD*3*1024-1:0]   lsu_rows;
  logic [WARP_W-1:0]            lwb_warp;
  logic [5:0]                   lwb_reg;
  logic [31:0]                  lwb_mask;
  logic [1023:0]                lwb_data;
  logic [NUM_SIMD+2-1:0]        rt_valid, rt_ready;   // exec pipes, LSU, SFU
  logic [(NUM_SIMD+2)*RM_W-1:0] rt_meta;
  logic [(NUM_SIMD+2)*1024-1:0] rt_data;
  logic [NUM_SIMD-1:0]          sfu_valid, sfu_ready, sfu_wb_valid, sfu_wb_ready, lsu_lwb_v;
  logic [WARP_W-1:0]            lsu_lwb_warp, sfu_wb_warp;
  logic [5:0]                   lsu_lwb_reg, sfu_wb_reg;
  logic [31:0]                  lsu_lwb_mask, sfu_wb_mask;
  logic [1023:0]                lsu_lwb_data, sfu_wb_data;
  logic [NUM_SIMD*32-1:0]       bank_conf, wr_conf;

  logic sched_halt;
  assign sched_halt = halt_cfg || faulted_q || hold;

  // ---------------------------------------------------------------------------
  // Warp issue control and compaction (docs/power-gating.md section 3).
  // ---------------------------------------------------------------------------
  // With 2 SIMD units (of at least 2 lanes) the 4-state machine decides per slice which
  // units run split and whether unit 1 is in use; when it is not, scheduler 1's SIMD
  // instructions execute on unit 0 (execution pipe 1 sends them to pipe 0's unit).
  localparam bit PG_ISSUE = (NUM_SIMD == 2) && (SIMD_WIDTH >= 2);
  logic                         pg_issue_en, pg_compact, pg_restart;
  logic                         pg_issue_sync, pg_ctrl_sync;  // a controller state changes at the next edge
  logic [NUM_SIMD-1:0]          pg_split, pg_unit_on;
  logic [NUM_SIMD*SIMD_WIDTH-1:0] lane_busy;
  assign pg_issue_en = cfg_q[5'(wg_sm_pkg::CFG_PG_ISSUE)][0];
  assign pg_compact  = cfg_q[5'(wg_sm_pkg::CFG_PG_ISSUE)][1];
  assign pg_restart  = cfg_we_i && cfg_addr_i == wg_sm_pkg::CFG_PG_ISSUE;

  if (PG_ISSUE) begin : g_pg_issue
    logic        slice_end_unused;
    logic [16+$clog2(NUM_SIMD*SIMD_WIDTH+1)-1:0] util_unused;  // ACC_W of wg_pg_issue_ctrl
    wg_pg_issue_ctrl #(
      .NUM_SIMD   (NUM_SIMD),
      .SIMD_WIDTH (SIMD_WIDTH),
      .CNT_W      (48)
    ) u_pg_issue (
      .clk_i          (clk_i),
      .clk_pg_i       (clk_pg_i),
      .rst_ni         (rst_ni),
      .sync_o         (pg_issue_sync),
      .en_i           (pg_issue_en),
      .restart_i      (pg_restart),
      .clear_i        (1'b0),
      .slice_cycles_i (cfg_q[5'(wg_sm_pkg::CFG_PG_SLICE)][15:0]),
      .down_pct_i     (cfg_q[5'(wg_sm_pkg::CFG_PG_DOWN)][23:0]),
      .up_pct_i       (cfg_q[5'(wg_sm_pkg::CFG_PG_UP)][23:0]),
      .busy_i         (lane_busy),
      .state_o        (pg_issue_state_o),
      .split_o        (pg_split),
      .unit_on_o      (pg_unit_on),
      .in_use_o       (pg_in_use_o),
      .slice_end_o    (slice_end_unused),
      .util_o         (util_unused),
      .cnt_state_o    (cnt_pg_state_o),
      .cnt_changes_o  (cnt_pg_changes_o)
    );
  end else begin : g_no_pg_issue
    // One SIMD unit (or 1-lane units): every lane in use, S1 throughout.
    logic [63:0] cyc_q;
    always_ff @(posedge clk_pg_i) begin
      if (!rst_ni) cyc_q <= '0;
      else cyc_q <= cyc_q + 64'd1;
    end
    assign pg_issue_state_o = 2'd0;
    assign pg_split         = '0;
    assign pg_unit_on       = '1;
    assign pg_in_use_o      = '1;
    assign cnt_pg_state_o   = {144'd0, cyc_q[47:0]};
    assign cnt_pg_changes_o = '0;
    assign pg_issue_sync    = 1'b0;
    logic unused_pg;
    assign unused_pg = ^{pg_issue_en, pg_restart, lane_busy, cyc_q[63:48]};
  end

  // Remote issue between the execution pipes: pipe 1 to unit 0 (when unit 1 is out of use).
  logic [NUM_SIMD-1:0]          xo_valid, xo_ready, xi_valid, xi_ready, xr_valid_o, xr_valid_i;
  logic [NUM_SIMD*6-1:0]        xo_op, xi_op;
  logic [NUM_SIMD*3-1:0]        xo_mod, xi_mod;
  logic [NUM_SIMD*32-1:0]       xo_exec, xo_psel, xi_exec, xi_psel, xr_pred_o, xr_pred_i;
  logic [NUM_SIMD*3072-1:0]     xo_rows, xi_rows;
  logic [NUM_SIMD*1024-1:0]     xr_data_o, xr_data_i;
  if (PG_ISSUE) begin : g_remote
    assign xi_valid  = {1'b0, xo_valid[1]};
    assign xo_ready  = {xi_ready[0], 1'b0};
    assign xi_op     = {6'd0, xo_op[6 +: 6]};
    assign xi_mod    = {3'd0, xo_mod[3 +: 3]};
    assign xi_exec   = {32'd0, xo_exec[32 +: 32]};
    assign xi_psel   = {32'd0, xo_psel[32 +: 32]};
    assign xi_rows   = {3072'd0, xo_rows[3072 +: 3072]};
    assign xr_valid_i = {xr_valid_o[0], 1'b0};
    assign xr_data_i  = {xr_data_o[0 +: 1024], 1024'd0};
    assign xr_pred_i  = {xr_pred_o[0 +: 32], 32'd0};
    logic unused_remote;
    assign unused_remote = ^{xo_valid[0], xi_ready[1], xo_op[0 +: 6], xo_mod[0 +: 3], xo_exec[0 +: 32],
                             xo_psel[0 +: 32], xo_rows[0 +: 3072], xr_valid_o[1], xr_data_o[1024 +: 1024],
                             xr_pred_o[32 +: 32]};
  end else begin : g_no_remote
    assign xi_valid   = '0;
    assign xo_ready   = '0;
    assign xi_op      = '0;
    assign xi_mod     = '0;
    assign xi_exec    = '0;
    assign xi_psel    = '0;
    assign xi_rows    = '0;
    assign xr_valid_i = '0;
    assign xr_data_i  = '0;
    assign xr_pred_i  = '0;
    logic unused_remote;
    assign unused_remote = ^{xo_valid, xi_ready, xo_op, xo_mod, xo_exec, xo_psel, xo_rows, xr_valid_o, xr_data_o,
                             xr_pred_o};
  end

  // ---------------------------------------------------------------------------
  // Power gating (docs/power-gating.md sections 2, 4, 5).
  //
  // clk_pg_i has every edge of clk_i and, while a histogram clear sweep runs, the sweep's
  // edges when the GPU leaves the SM's clock off for it (docs/gpu.md section 4.3). On it run
  // the accounting blocks' sweeps and the controllers' delay counters (wg_pg_ctrl: idle,
  // asleep, wake-up cycles; wg_pg_issue_ctrl: the slice), which advance on idle cycles too:
  // they see every edge the SM saw before the sweep had a clock of its own, so the
  // power-gating state at the start of a window does not depend on which clock ran the
  // sweep. The controllers' states stay on clk_i: pg_work_o asks for an SM edge whenever one
  // changes at the next edge (sync_o), so their outputs, and the datapath behind them, change
  // only at SM edges. The SM's other logic is idle during a sweep (the GPU clocks it while it
  // is busy). Counting (pg_en) stays on clk_i: it is low during the sweep.
  // ---------------------------------------------------------------------------
  localparam int unsigned NL     = NUM_SIMD * SIMD_WIDTH;
  localparam int unsigned PG_CW  = 20;

  logic [31:0] pg_ctl;
  logic        pg_close_q, pg_clear_q, pg_frozen_q, pg_en, cta_rdy, pg_core_on;
  logic [NL-1:0]       pg_work, pg_hold, pg_demand, pg_on, pg_ctrl_on, pg_may_sleep;
  logic [2*NL-1:0]     pg_state;
  logic                pgt_busy;      // lane-activity trace (below)
  logic [47:0]         pgt_lost;
  logic [NUM_SIMD-1:0] pg_block, pg_stall, pg_unit_sleep, pg_acct_busy, pg_acct_work, pg_acct_ready;
  assign pg_ctl = cfg_q[5'(wg_sm_pkg::CFG_PG_CTRL)];

  // Close (bit 8) and clear (bit 9) are strobes of a PG_CTRL write. A close records the
  // open idle intervals and stops counting (the window ends) until a clear or a reset; a
  // clear zeroes the counters and sweeps the histograms (pg_busy_o), then counting resumes.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pg_close_q  <= 1'b0;
      pg_clear_q  <= 1'b0;
      pg_frozen_q <= 1'b0;
    end else begin
      pg_close_q <= cfg_we_i && cfg_addr_i == wg_sm_pkg::CFG_PG_CTRL && cfg_wdata_i[8];
      pg_clear_q <= cfg_we_i && cfg_addr_i == wg_sm_pkg::CFG_PG_CTRL && cfg_wdata_i[9];
      if (pg_clear_q) pg_frozen_q <= 1'b0;
      else if (pg_close_q) pg_frozen_q <= 1'b1;
    end
  end
  assign pg_en = !pg_frozen_q && (&pg_acct_ready) && !pg_clear_q;

  // Demand and hold (section 2), each on the unit the lanes belong to. Scheduler k's
  // instructions run on unit k, or on unit 0 while unit 1 is out of use (remote issue,
  // section 3.4), with the split of that unit and the compaction: their lanes are
  // wg_sm_pkg::simd_lanes of the execution mask. An instruction at issue demands its lanes
  // and is not issued while any of them is not powered (a cycle in which only that holds it
  // back is a wake-up stall). The split and the unit can change between issue and dispatch
  // (a slice boundary): the instruction waiting at dispatch demands the lanes it uses then,
  // and is not dispatched until they are powered; lanes of instructions between issue and
  // dispatch are held, and so are a unit's lanes holding work or still to be loaded.
  logic [NL-1:0]        pg_need, pg_pend_lanes, pg_disp_need, pg_unit_hold;
  logic [NUM_SIMD-1:0]  pg_remote;
  logic [NL-1:0]        pg_lanes_on;   // per scheduler: powered lanes of its target unit
  for (genvar k = 0; k < NUM_SIMD; k++) begin : g_pg_demand
    logic                  simd, tsplit;
    logic [2:0]            lw;
    // The unit field by position: yosys 0.23 cannot resolve a struct declared in a generate.
    assign simd      = is_valid[k] && is_uop[k*UOP_W + wg_sm_pkg::UOP_UNIT_LSB +: 2] == wg_sm_pkg::UNIT_SIMD;
    assign pg_remote[k] = (k != 0) && !pg_unit_on[k];
    assign tsplit    = (SIMD_WIDTH >= 2) && pg_split[pg_remote[k] ? 0 : k];
    assign lw        = 3'($clog2(SIMD_WIDTH)) - {2'b0, tsplit};
    assign pg_need[k*SIMD_WIDTH +: SIMD_WIDTH] =
      simd ? SIMD_WIDTH'(wg_sm_pkg::simd_lanes(is_exec[k*32 +: 32], lw, pg_compact)) : '0;
    assign pg_lanes_on[k*SIMD_WIDTH +: SIMD_WIDTH] = pg_on[(pg_remote[k] ? 0 : k)*SIMD_WIDTH +: SIMD_WIDTH];
    assign pg_block[k] = (pg_need[k*SIMD_WIDTH +: SIMD_WIDTH] & ~pg_lanes_on[k*SIMD_WIDTH +: SIMD_WIDTH]) != '0;
    assign pg_stall[k] = pg_block[k] && is_ready[k];
  end

  always_comb begin
    pg_demand = '0;
    pg_hold   = pg_unit_hold;
    for (int k = 0; k < 32'(NUM_SIMD); k++) begin
      for (int u = 0; u < 32'(NUM_SIMD); u++) begin
        if (u == (pg_remote[k] ? 0 : k)) begin
          pg_demand[u*SIMD_WIDTH +: SIMD_WIDTH] = pg_demand[u*SIMD_WIDTH +: SIMD_WIDTH] |
              pg_need[k*SIMD_WIDTH +: SIMD_WIDTH] | pg_disp_need[k*SIMD_WIDTH +: SIMD_WIDTH];
          pg_hold[u*SIMD_WIDTH +: SIMD_WIDTH] = pg_hold[u*SIMD_WIDTH +: SIMD_WIDTH] |
              pg_pend_lanes[k*SIMD_WIDTH +: SIMD_WIDTH];
        end
      end
    end
  end

  // The SM's static inputs, registered: lane_en_i (the GPU's LANE_EN, which acts from the
  // SM's next edge) and sm_id_i. Read through a register, the logic behind them (every lane's
  // gating clamps, the S2R row) is not combinational in a top input, so a Verilated SM does
  // not evaluate it again at every input change (docs/sm.md section 5).
  logic [NUM_SIMD*SIMD_WIDTH-1:0] lane_en_q;
  logic [7:0]                     sm_id_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) lane_en_q <= '1;
    else         lane_en_q <= lane_en_i;
    sm_id_q <= sm_id_i;
  end

  // Lanes taken out of use by the warp issue control (section 3) may sleep.
  assign pg_may_sleep = ~pg_in_use_o;
  assign pg_on        = pg_ctrl_on & lane_en_q;

  logic [NUM_SIMD*48-1:0] pg_unit_sleep_cnt, pg_unit_events;
  logic [47:0]            pg_core_sleep_cnt, pg_core_events, pg_core_wstall;
  logic                   pg_core_sleep;

  wg_pg_ctrl #(
    .NUM_SIMD   (NUM_SIMD),
    .SIMD_WIDTH (SIMD_WIDTH),
    .CW         (PG_CW),
    .CNT_W      (48)
  ) u_pg_ctrl (
    .clk_i             (clk_i),
    .clk_pg_i          (clk_pg_i),
    .rst_ni            (rst_ni),
    .sync_o            (pg_ctrl_sync),
    .pol_lane_i        (pg_ctl[0]),
    .pol_unit_i        (pg_ctl[1]),
    .pol_core_i        (pg_ctl[2]),
    .blackout_i        (pg_ctl[3]),
    .bet_i             (PG_CW'(cfg_q[5'(wg_sm_pkg::CFG_PG_BET)])),
    .idle_detect_i     (PG_CW'(cfg_q[5'(wg_sm_pkg::CFG_PG_IDLE)])),
    .wakeup_i          (PG_CW'(cfg_q[5'(wg_sm_pkg::CFG_PG_WAKE)])),
    .work_i            (pg_work),
    .hold_i            (pg_hold),
    .demand_i          (pg_demand),
    .may_sleep_i       (pg_may_sleep),
    .lane_on_o         (pg_ctrl_on),
    .lane_state_o      (pg_state),
    .unit_sleep_o      (pg_unit_sleep),
    .core_idle_i       (!resident && lsu_idle),
    .core_demand_i     (cta_valid_i),
    .core_on_o         (pg_core_on),
    .core_sleep_o      (pg_core_sleep),
    .en_i              (pg_en),
    .clear_i           (pg_clear_q),
    .unit_sleep_cnt_o  (pg_unit_sleep_cnt),
    .unit_events_o     (pg_unit_events),
    .core_sleep_cnt_o  (pg_core_sleep_cnt),
    .core_events_o     (pg_core_events),
    .core_wake_stall_o (pg_core_wstall)
  );

  assign cta_ready_o = cta_rdy && pg_core_on;

  // Accounting: one block per SIMD unit (lane counters, idle-interval histogram). The lane
  // counters are read through each block's read port; its all-lane outputs stay unconnected.
  localparam int unsigned PA_LW = (SIMD_WIDTH > 1) ? $clog2(SIMD_WIDTH) : 1;
  logic [NUM_SIMD*SIMD_WIDTH*48-1:0] pa_active_unused, pa_idle_unused, pa_sleep_unused,
                                     pa_wake_unused, pa_events_unused;
  logic [NUM_SIMD*48-1:0]            pa_over_count, pa_over_sum, pa_lost, pa_rd;
  logic [6:0]                        pg_rlane;  // lane of a lane-counter read
  assign pg_rlane = pg_raddr_i[9:3];
  logic [NUM_SIMD*32-1:0]            pa_hist;
  logic                              pg_hist_unit_q;

  for (genvar u = 0; u < NUM_SIMD; u++) begin : g_acct
    wg_pg_acct #(
      .NUM_LANES (SIMD_WIDTH),
      .HIST_BINS (1024),
      .CNT_W     (48)
    ) u_acct (
      .clk_i        (clk_i),
      .clk_pg_i     (clk_pg_i),
      .clk_rd_i     (clk_hist_i),
      .rst_ni       (rst_ni),
      .en_i         (pg_en),
      .state_i      (pg_state[u*2*SIMD_WIDTH +: 2*SIMD_WIDTH]),
      .close_i      (pg_close_q && !pg_frozen_q),
      .clear_i      (pg_clear_q),
      .busy_o       (pg_acct_busy[u]),
      .work_o       (pg_acct_work[u]),
      .ready_o      (pg_acct_ready[u]),
      .active_o     (pa_active_unused[u*SIMD_WIDTH*48 +: SIMD_WIDTH*48]),
      .idle_o       (pa_idle_unused[u*SIMD_WIDTH*48 +: SIMD_WIDTH*48]),
      .sleep_o      (pa_sleep_unused[u*SIMD_WIDTH*48 +: SIMD_WIDTH*48]),
      .wake_o       (pa_wake_unused[u*SIMD_WIDTH*48 +: SIMD_WIDTH*48]),
      .events_o     (pa_events_unused[u*SIMD_WIDTH*48 +: SIMD_WIDTH*48]),
      .over_count_o (pa_over_count[u*48 +: 48]),
      .over_sum_o   (pa_over_sum[u*48 +: 48]),
      .lost_o       (pa_lost[u*48 +: 48]),
      .hist_re_i    (pg_hist_re_i && 32'(pg_hist_addr_i[15:10]) == u),
      .hist_raddr_i (pg_hist_addr_i[9:0]),
      .hist_rdata_o (pa_hist[u*32 +: 32]),
      .rd_re_i      (pg_re_i && pg_raddr_i[11:10] == 2'd0 && 32'(pg_rlane) - u*SIMD_WIDTH < SIMD_WIDTH),
      .rd_lane_i    (PA_LW'(32'(pg_rlane) - u*SIMD_WIDTH)),
      .rd_k_i       (pg_raddr_i[2:0]),
      .rd_data_o    (pa_rd[u*48 +: 48])
    );
  end

  always_ff @(posedge clk_hist_i) begin
    if (!rst_ni) pg_hist_unit_q <= 1'b0;
    else if (pg_hist_re_i) pg_hist_unit_q <= pg_hist_addr_i[10];
  end
  // Unit 1's bins (a one-unit SM has only unit 0's: the constant keeps the slice in range).
  localparam int unsigned PA_HIST_U1 = (NUM_SIMD > 1) ? 32 : 0;
  assign pg_hist_data_o = pg_hist_unit_q ? pa_hist[PA_HIST_U1 +: 32] : pa_hist[0 +: 32];
  assign pg_busy_o      = (|pg_acct_busy) || pgt_busy;
  assign pg_work_o      = (|pg_acct_work) || pgt_busy || pg_ctrl_sync || pg_issue_sync;
  assign pg_state_o     = pg_state;
  assign pg_count_o     = pg_en;

  // SM-level counters (section 4.1), counted with the lanes' (pg_en).
  logic [47:0] pg_cycles_q, pg_wstall_q, pg_core_act_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni || pg_clear_q) begin
      pg_cycles_q   <= '0;
      pg_wstall_q   <= '0;
      pg_core_act_q <= '0;
    end else if (pg_en) begin
      pg_cycles_q   <= pg_cycles_q + 48'd1;
      pg_wstall_q   <= pg_wstall_q + 48'($countones(pg_stall));
      if (busy_o) pg_core_act_q <= pg_core_act_q + 48'd1;
    end
  end

  // Lane-activity trace (docs/power-gating.md section 7): the counted cycles' lane states
  // and issue-control state as run-length records for the window in CFG_PGT_*.
  wg_pg_trace #(
    .NUM_LANES (NL),
    .QDEPTH    (PGT_QDEPTH)
  ) u_pg_trace (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .clear_i     (pg_clear_q),
    .count_i     (pg_en),
    .cycle_i     (pg_cycles_q),
    .from_i      ({cfg_q[5'(wg_sm_pkg::CFG_PGT_HI)][15:0], cfg_q[5'(wg_sm_pkg::CFG_PGT_FROM)]}),
    .to_i        ({cfg_q[5'(wg_sm_pkg::CFG_PGT_HI)][31:16], cfg_q[5'(wg_sm_pkg::CFG_PGT_TO)]}),
    .state_i     (pg_state),
    .issue_i     (pg_issue_state_o),
    .rec_valid_o (pgt_valid_o),
    .rec_ready_i (pgt_ready_i),
    .rec_o       (pgt_rec_o),
    .lost_o      (pgt_lost),
    .busy_o      (pgt_busy)
  );

  // Read port: lane counters at {lane, kind} (lane = u x SIMD_WIDTH + l; kind 0 active,
  // 1 idle, 2 sleep, 3 wake, 4 events), 0x800 + 8u + k per unit (0 sleep, 1 events,
  // 2 hist_over_count, 3 hist_over_sum, 4 hist_lost), 0xC00 + k per SM (0 cycles counted,
  // 1 wake stall, 2 core active, 3 core sleep, 4 core events, 5 core wake stall, 6 state:
  // bit 0 counting, bit 1 closed, 7 trace records lost). Formed only under pg_re_i.
  always_comb begin
    pg_rdata_o = '0;
    if (pg_re_i) begin
      if (pg_raddr_i[11:10] == 2'd0) begin
        // The lane's unit's read port (0 for kinds 5..7; lanes beyond NL read 0).
        for (int u = 0; u < 32'(NUM_SIMD); u++) begin
          if (32'(pg_rlane) - u*SIMD_WIDTH < SIMD_WIDTH)  // unsigned: below u x W wraps
            pg_rdata_o = 64'(pa_rd[u*48 +: 48]);
        end
      end else if (pg_raddr_i[11:9] == 3'b100) begin
        for (int u = 0; u < 32'(NUM_SIMD); u++) begin
          if (32'(pg_raddr_i[8:3]) == u) begin
            unique case (pg_raddr_i[2:0])
              3'd0: pg_rdata_o = 64'(pg_unit_sleep_cnt[u*48 +: 48]);
              3'd1: pg_rdata_o = 64'(pg_unit_events[u*48 +: 48]);
              3'd2: pg_rdata_o = 64'(pa_over_count[u*48 +: 48]);
              3'd3: pg_rdata_o = 64'(pa_over_sum[u*48 +: 48]);
              3'd4: pg_rdata_o = 64'(pa_lost[u*48 +: 48]);
              default: ;
            endcase
          end
        end
      end else if (pg_raddr_i[11:8] == 4'b1100) begin
        unique case (pg_raddr_i[7:0])
          8'd0: pg_rdata_o = 64'(pg_cycles_q);
          8'd1: pg_rdata_o = 64'(pg_wstall_q);
          8'd2: pg_rdata_o = 64'(pg_core_act_q);
          8'd3: pg_rdata_o = 64'(pg_core_sleep_cnt);
          8'd4: pg_rdata_o = 64'(pg_core_events);
          8'd5: pg_rdata_o = 64'(pg_core_wstall);
          8'd6: pg_rdata_o = {62'd0, pg_frozen_q, pg_en};
          8'd7: pg_rdata_o = 64'(pgt_lost);
          default: ;
        endcase
      end
    end
  end

  wg_fetch #(
    .NUM_WARPS  (NUM_WARPS),
    .NUM_SIMD   (NUM_SIMD),
    .IMEM_DEPTH (IMEM_DEPTH),
    .HAS_FP     (HAS_FP),
    .HAS_SFU    (HAS_SFU)
  ) u_fetch (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .imem_we_i      (imem_we_i),
    .imem_addr_i    (imem_addr_i),
    .imem_wdata_i   (imem_wdata_i),
    .start_pc_i     (start_pc),
    .regs_i         (regs),
    .stop_all_i     (faulted_q),
    .rpc_i          (rpc),
    .start_valid_i  (start_valid),
    .start_warp_i   (start_warp),
    .resume_valid_i (resume_valid),
    .resume_warp_i  (resume_warp),
    .resume_pc_i    (resume_pc),
    .pop_valid_i    (pop_valid),
    .pop_warp_i     (pop_warp),
    .ib_valid_o     (ib_valid),
    .ib_warp_o      (ib_warp),
    .ib_uop_o       (ib_uop),
    .fault_o        (f_fetch),
    .fault_warp_o   (f_fetch_warp),
    .fault_pc_o     (f_fetch_pc),
    .idle_o         (fetch_idle)
  );

  logic              fetch_idle;
  logic              f_fetch, f_simt, f_lsu, f_bar;
  logic [WARP_W-1:0] f_fetch_warp, f_simt_warp, f_lsu_warp, f_bar_warp;
  logic [17:0]       f_fetch_pc, f_simt_pc, f_lsu_pc;
  logic [3:0]        f_lsu_code;
  logic [4:0]        f_lsu_lane;
  logic [31:0]       f_lsu_addr;
  logic              simt_idle;

  for (genvar k = 0; k < 32'(NUM_SIMD); k++) begin : g_sched
    wg_warp_sched #(
      .NUM_WARPS (NUM_WARPS),
      .NUM_SIMD  (NUM_SIMD)
    ) u_sched (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .cid_i         (WARP_W'(k)),
      .sched_gto_i   (sched_gto),
      .halt_i        (sched_halt),
      .ib_valid_i    (ib_valid),
      .ib_warp_i     (ib_warp),
      .ib_uop_i      (ib_uop),
      .init_valid_i  (start_valid),
      .init_warp_i   (start_warp),
      .act_i         (act),
      .quiet_i       (quiet),
      .wb_valid_i    (wb_valid[k]),
      .wb_warp_i     (wb_warp[k*WARP_W +: WARP_W]),
      .wb_rmask_i    (wb_rmask[k*64 +: 64]),
      .wb_pmask_i    (wb_pmask[k*8 +: 8]),
      .wb_pwr_i      (wb_pwr[k]),
      .wb_preg_i     (wb_preg[k*3 +: 3]),
      .wb_pval_i     (wb_pval[k*32 +: 32]),
      .wb_pexec_i    (wb_pexec[k*32 +: 32]),
      .lwb_valid_i   (lwb_valid[k] && lwb_ready[k]),
      .lwb_warp_i    (lwb_warp),
      .lwb_reg_i     (lwb_reg),
      .is_valid_o    (is_valid[k]),
      .is_ready_i    (is_ready[k] && !pg_block[k]),
      .is_warp_o     (is_warp[k*WARP_W +: WARP_W]),
      .is_uop_o      (is_uop[k*UOP_W +: UOP_W]),
      .is_active_o   (is_active[k*32 +: 32]),
      .is_exec_o     (is_exec[k*32 +: 32]),
      .is_seq_o      (is_seq[k*16 +: 16]),
      .is_psel_o     (is_psel[k*32 +: 32]),
      .is_pval_o     (is_pval[k*32 +: 32]),
      .pop_valid_o   (pop_valid[k]),
      .pop_warp_o    (pop_warp[k*WARP_W +: WARP_W]),
      .simt_valid_o  (simt_valid[k]),
      .simt_warp_o   (simt_warp[k*WARP_W +: WARP_W]),
      .simt_op_o     (simt_op[k*2 +: 2]),
      .simt_park_o   (simt_park[k]),
      .simt_pc_o     (simt_pc[k*18 +: 18]),
      .simt_exec_o   (simt_exec[k*32 +: 32]),
      .simt_target_o (simt_target[k*18 +: 18]),
      .simt_reconv_o (simt_reconv[k*18 +: 18]),
      .bar_valid_o   (bar_valid[k]),
      .bar_warp_o    (bar_warp[k*WARP_W +: WARP_W]),
      .bar_id_o      (bar_id[k*4 +: 4]),
      .fault_o       (ifault[k]),
      .fault_warp_o  (ifault_warp[k*WARP_W +: WARP_W]),
      .fault_pc_o    (ifault_pc[k*18 +: 18]),
      .st_issue_o    (st_issue[k]),
      .st_cls_o      (st_cls[k*4 +: 4]),
      .st_threads_o  (st_threads[k*6 +: 6]),
      .st_idle_o     (st_idle[k]),
      .st_hazard_o   (st_hazard[k]),
      .st_busy_o     (st_busy[k])
    );

    wg_exec_pipe #(
      .NUM_WARPS  (NUM_WARPS),
      .NUM_SIMD   (NUM_SIMD),
      .SIMD_WIDTH (SIMD_WIDTH),
      .HAS_FP     (HAS_FP),
      .RF_REGS    (RF_REGS),
      .RF_BANKS   (RF_BANKS),
      .RF_LANES   (RF_LANES),
      .SIMD_DIRECT (SIMD_DIRECT),
      .RETIRE_EN  (RETIRE_EN)
    ) u_exec (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .lane_en_i       (pg_on[k*SIMD_WIDTH +: SIMD_WIDTH]),
      .hold_i          (hold),
      .split_i         (pg_split[k]),
      .compact_i       (pg_compact),
      .remote_i        (!pg_unit_on[k]),
      .remote_split_i  (pg_split[0]),
      .simd_lanes_on_i (pg_lanes_on[k*SIMD_WIDTH +: SIMD_WIDTH]),
      .lane_busy_o     (lane_busy[k*SIMD_WIDTH +: SIMD_WIDTH]),
      .xo_valid_o      (xo_valid[k]),
      .xo_ready_i      (xo_ready[k]),
      .xo_op_o         (xo_op[k*6 +: 6]),
      .xo_mod_o        (xo_mod[k*3 +: 3]),
      .xo_exec_o       (xo_exec[k*32 +: 32]),
      .xo_psel_o       (xo_psel[k*32 +: 32]),
      .xo_rows_o       (xo_rows[k*3072 +: 3072]),
      .xi_valid_i      (xi_valid[k]),
      .xi_ready_o      (xi_ready[k]),
      .xi_op_i         (xi_op[k*6 +: 6]),
      .xi_mod_i        (xi_mod[k*3 +: 3]),
      .xi_exec_i       (xi_exec[k*32 +: 32]),
      .xi_psel_i       (xi_psel[k*32 +: 32]),
      .xi_rows_i       (xi_rows[k*3072 +: 3072]),
      .xr_valid_o      (xr_valid_o[k]),
      .xr_data_o       (xr_data_o[k*1024 +: 1024]),
      .xr_pred_o       (xr_pred_o[k*32 +: 32]),
      .xr_valid_i      (xr_valid_i[k]),
      .xr_data_i       (xr_data_i[k*1024 +: 1024]),
      .xr_pred_i       (xr_pred_i[k*32 +: 32]),
      .tbl_valid_i     (tbl_valid[k]),
      .tbl_ready_o     (tbl_ready[k]),
      .tbl_warp_i      (tbl_warp),
      .tbl_base_i      (tbl_base),
      .tbl_nregs_i     (regs),
      .clr_busy_o      (clr_busy[k]),
      .pipe_empty_o    (pipe_empty[k]),
      .is_valid_i      (is_valid[k] && !pg_block[k]),
      .is_ready_o      (is_ready[k]),
      .is_warp_i       (is_warp[k*WARP_W +: WARP_W]),
      .is_uop_i        (is_uop[k*UOP_W +: UOP_W]),
      .is_active_i     (is_active[k*32 +: 32]),
      .is_exec_i       (is_exec[k*32 +: 32]),
      .is_seq_i        (is_seq[k*16 +: 16]),
      .is_psel_i       (is_psel[k*32 +: 32]),
      .is_pval_i       (is_pval[k*32 +: 32]),
      .sr_en_o         (sr_en[k]),
      .sr_warp_o       (sr_warp[k*WARP_W +: WARP_W]),
      .sr_num_o        (sr_num[k*5 +: 5]),
      .sr_gnt_i        (sr_gnt[k]),
      .sr_row_i        (sr_row),
      .lsu_valid_o     (lsu_valid[k]),
      .lsu_ready_i     (lsu_ready[k]),
      .lsu_warp_o      (lsu_warp[k*WARP_W +: WARP_W]),
      .lsu_uop_o       (lsu_uop[k*UOP_W +: UOP_W]),
      .lsu_active_o    (lsu_active[k*32 +: 32]),
      .lsu_exec_o      (lsu_exec[k*32 +: 32]),
      .lsu_seq_o       (lsu_seq[k*16 +: 16]),
      .lsu_rows_o      (lsu_rows[k*3072 +: 3072]),
      .sfu_valid_o     (sfu_valid[k]),
      .sfu_ready_i     (sfu_ready[k]),
      .lwb_valid_i     (lwb_valid[k]),
      .lwb_ready_o     (lwb_ready[k]),
      .lwb_warp_i      (lwb_warp),
      .lwb_reg_i       (lwb_reg),
      .lwb_mask_i      (lwb_mask),
      .lwb_data_i      (lwb_data),
      .wb_valid_o      (wb_valid[k]),
      .wb_warp_o       (wb_warp[k*WARP_W +: WARP_W]),
      .wb_rmask_o      (wb_rmask[k*64 +: 64]),
      .wb_pmask_o      (wb_pmask[k*8 +: 8]),
      .wb_pwr_o        (wb_pwr[k]),
      .wb_preg_o       (wb_preg[k*3 +: 3]),
      .wb_pval_o       (wb_pval[k*32 +: 32]),
      .wb_pexec_o      (wb_pexec[k*32 +: 32]),
      .ret_valid_o     (rt_valid[k]),
      .ret_ready_i     (rt_ready[k]),
      .ret_meta_o      (rt_meta[k*RM_W +: RM_W]),
      .ret_data_o      (rt_data[k*1024 +: 1024]),
      .cnt_bank_conf_o (bank_conf[k*32 +: 32]),
      .cnt_wr_conf_o   (wr_conf[k*32 +: 32]),
      .lane_work_o     (pg_work[k*SIMD_WIDTH +: SIMD_WIDTH]),
      .unit_hold_o     (pg_unit_hold[k*SIMD_WIDTH +: SIMD_WIDTH]),
      .pend_lanes_o    (pg_pend_lanes[k*SIMD_WIDTH +: SIMD_WIDTH]),
      .disp_need_o     (pg_disp_need[k*SIMD_WIDTH +: SIMD_WIDTH])
    );
  end

  wg_simt_stack #(
    .NUM_WARPS   (NUM_WARPS),
    .STACK_DEPTH (STACK_DEPTH),
    .NUM_PORTS   (NUM_SIMD)
  ) u_simt (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .init_valid_i   (start_valid),
    .init_warp_i    (start_warp),
    .init_mask_i    (start_mask),
    .req_valid_i    (simt_valid),
    .req_warp_i     (simt_warp),
    .req_op_i       (simt_op),
    .req_park_i     (simt_park),
    .req_pc_i       (simt_pc),
    .req_exec_i     (simt_exec),
    .req_target_i   (simt_target),
    .req_reconv_i   (simt_reconv),
    .release_i      (release_w),
    .act_o          (act),
    .rpc_o          (rpc),
    .resume_valid_o (resume_valid),
    .resume_warp_o  (resume_warp),
    .resume_pc_o    (resume_pc),
    .done_valid_o   (wdone_valid),
    .done_warp_o    (wdone_warp),
    .fault_o        (f_simt),
    .fault_warp_o   (f_simt_warp),
    .fault_pc_o     (f_simt_pc),
    .idle_o         (simt_idle)
  );

  wg_barrier #(
    .NUM_WARPS (NUM_WARPS),
    .NUM_CTAS  (NUM_CTAS),
    .NUM_PORTS (NUM_SIMD)
  ) u_bar (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .arr_valid_i  (bar_valid),
    .arr_warp_i   (bar_warp),
    .arr_id_i     (bar_id),
    .fin_event_i  (wdone_valid),
    .cta_wmask_i  (cta_wmask),
    .fin_i        (fin),
    .release_o    (release_w),
    .fault_o      (f_bar),
    .fault_warp_o (f_bar_warp)
  );

  logic              tid_we, sclr_valid, sclr_ready, resident, lsu_idle;
  logic [WARP_W-1:0] tid_warp;
  logic [32*TID_W-1:0] tid_row;
  logic [SW_W-1:0]   sclr_addr;
  logic              ret_fire;

  wg_cta_ctrl #(
    .NUM_WARPS  (NUM_WARPS),
    .NUM_SIMD   (NUM_SIMD),
    .NUM_CTAS   (NUM_CTAS),
    .NUM_REGS   (NUM_REGS),
    .DMEM_BYTES (DMEM_BYTES)
  ) u_cta (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .regs_i         (regs),
    .smem_cta_i     (cfg_q[5'(wg_sm_pkg::CFG_SMEM_CTA)]),
    .smem_cap_i     (l1_split ? 32'(DMEM_BYTES / 4) : 32'(DMEM_BYTES * 3 / 4)),
    .threads_i      (cfg_q[5'(wg_sm_pkg::CFG_THREADS)]),
    .ntid_i         (ntid),
    .cta_valid_i    (cta_valid_i && pg_core_on),
    .cta_ready_o    (cta_rdy),
    .cta_id_i       (cta_id_i),
    .cta_linear_i   (cta_linear_i),
    .done_valid_o   (done_valid_o),
    .done_ready_i   (done_ready_i),
    .done_linear_o  (done_linear_o),
    .hold_o         (hold),
    .pipe_empty_i   (pipe_empty),
    .tbl_valid_o    (tbl_valid),
    .tbl_ready_i    (tbl_ready),
    .tbl_warp_o     (tbl_warp),
    .tbl_base_o     (tbl_base),
    .clr_busy_i     (clr_busy),
    .sclr_valid_o   (sclr_valid),
    .sclr_addr_o    (sclr_addr),
    .sclr_ready_i   (sclr_ready),
    .tid_we_o       (tid_we),
    .tid_warp_o     (tid_warp),
    .tid_row_o      (tid_row),
    .start_valid_o  (start_valid),
    .start_warp_o   (start_warp),
    .start_mask_o   (start_mask),
    .issue_valid_i  (st_issue),
    .issue_warp_i   (pop_warp),
    .retire_valid_i (ret_fire && ret_last_o),
    .retire_warp_i  (WARP_W'(ret_warp_o)),
    .wdone_valid_i  (wdone_valid),
    .wdone_warp_i   (wdone_warp),
    .memzero_i      (memzero),
    .warp_cta_o     (warp_cta),
    .warp_wic_o     (warp_wic),
    .cta_linear_o   (cta_linear),
    .cta_ids_o      (cta_ids),
    .cta_wmask_o    (cta_wmask),
    .fin_o          (fin),
    .quiet_o        (quiet),
    .resident_o     (resident)
  );

  wg_sreg #(
    .NUM_WARPS (NUM_WARPS),
    .NUM_CTAS  (NUM_CTAS),
    .NUM_PORTS (NUM_SIMD)
  ) u_sreg (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .tid_we_i   (tid_we),
    .tid_warp_i (tid_warp),
    .tid_row_i  (tid_row),
    .warp_wic_i (warp_wic),
    .warp_cta_i (warp_cta),
    .cta_id_i   (cta_ids),
    .ntid_i     (ntid),
    .nctaid_i   (nctaid),
    .sm_id_i    (sm_id_q),
    .clock_i    (clock_q),
    .rd_en_i    (sr_en),
    .rd_warp_i  (sr_warp),
    .rd_num_i   (sr_num),
    .rd_gnt_o   (sr_gnt),
    .rd_row_o   (sr_row)
  );

  // Register write-back beats: the LSU's, else the SFU's.
  logic lsu_lwb_any;
  assign lsu_lwb_any  = |lsu_lwb_v;
  assign lwb_valid    = lsu_lwb_any ? lsu_lwb_v : sfu_wb_valid;
  assign lwb_warp     = lsu_lwb_any ? lsu_lwb_warp : sfu_wb_warp;
  assign lwb_reg      = lsu_lwb_any ? lsu_lwb_reg : sfu_wb_reg;
  assign lwb_mask     = lsu_lwb_any ? lsu_lwb_mask : sfu_wb_mask;
  // (the data is read only with lwb_valid: without an SFU it is the LSU's, unselected)
  assign lwb_data     = (HAS_SFU && !lsu_lwb_any) ? sfu_wb_data : lsu_lwb_data;
  assign sfu_wb_ready = lsu_lwb_any ? '0 : lwb_ready;

  if (HAS_SFU) begin : g_sfu
    logic [SFU_LANES-1:0] sfu_busy_unused;
    logic                 sfu_idle_unused;
    wg_sfu #(
      .NUM_WARPS (NUM_WARPS),
      .NUM_SIMD  (NUM_SIMD),
      .SFU_LANES (SFU_LANES)
    ) u_sfu (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .lane_en_i   ('1),  // power gating of the SFU lanes: not driven yet
      .in_valid_i  (sfu_valid),
      .in_ready_o  (sfu_ready),
      .in_warp_i   (lsu_warp),
      .in_uop_i    (lsu_uop),
      .in_active_i (lsu_active),
      .in_exec_i   (lsu_exec),
      .in_seq_i    (lsu_seq),
      .in_rows_i   (lsu_rows),
      .wb_valid_o  (sfu_wb_valid),
      .wb_ready_i  (sfu_wb_ready),
      .wb_warp_o   (sfu_wb_warp),
      .wb_reg_o    (sfu_wb_reg),
      .wb_mask_o   (sfu_wb_mask),
      .wb_data_o   (sfu_wb_data),
      .ret_valid_o (rt_valid[NUM_SIMD+1]),
      .ret_ready_i (rt_ready[NUM_SIMD+1]),
      .ret_meta_o  (rt_meta[(NUM_SIMD+1)*RM_W +: RM_W]),
      .ret_data_o  (rt_data[(NUM_SIMD+1)*1024 +: 1024]),
      .lane_busy_o (sfu_busy_unused),
      .idle_o      (sfu_idle_unused)
    );
  end else begin : g_no_sfu
    // SFU instructions are illegal (wg_decode): nothing is dispatched here.
    logic unused_sfu;
    assign unused_sfu   = ^{sfu_valid, sfu_wb_ready};
    assign sfu_ready    = '0;
    assign sfu_wb_valid = '0;
    assign sfu_wb_warp  = '0;
    assign sfu_wb_reg   = '0;
    assign sfu_wb_mask  = '0;
    assign sfu_wb_data  = '0;
    assign rt_valid[NUM_SIMD+1] = 1'b0;
    assign rt_meta[(NUM_SIMD+1)*RM_W +: RM_W] = '0;
    assign rt_data[(NUM_SIMD+1)*1024 +: 1024] = '0;
  end

  wg_lsu #(
    .NUM_WARPS  (NUM_WARPS),
    .NUM_SIMD   (NUM_SIMD),
    .NUM_CTAS   (NUM_CTAS),
    .DMEM_BYTES (DMEM_BYTES),
    .L1_SETS    (L1_SETS),
    .L1_WAYS    (L1_WAYS),
    .L1_MSHRS   (L1_MSHRS),
    .CMEM_BYTES (CMEM_BYTES),
    .MEM_BYTES  (MEM_BYTES),
    .MEM_TAG_W  (MEM_TAG_W),
    .RETIRE_EN  (RETIRE_EN),
    .HAS_FP     (HAS_FP),
    .LSU_LANES  (LSU_LANES)
  ) u_lsu (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .in_valid_i      (lsu_valid),
    .in_ready_o      (lsu_ready),
    .in_warp_i       (lsu_warp),
    .in_uop_i        (lsu_uop),
    .in_active_i     (lsu_active),
    .in_exec_i       (lsu_exec),
    .in_seq_i        (lsu_seq),
    .in_rows_i       (lsu_rows),
    .smem_cta_i      (cfg_q[5'(wg_sm_pkg::CFG_SMEM_CTA)]),
    .local_bytes_i   (cfg_q[5'(wg_sm_pkg::CFG_LOCAL_BYTES)]),
    .local_base_i    (cfg_q[5'(wg_sm_pkg::CFG_LOCAL_BASE)]),
    .param_bytes_i   (cfg_q[5'(wg_sm_pkg::CFG_PARAM_BYTES)]),
    .threads_i       (cfg_q[5'(wg_sm_pkg::CFG_THREADS)]),
    .total_threads_i (cfg_q[5'(wg_sm_pkg::CFG_TOTAL_THREADS)]),
    .l1_fermi_i      (l1_fermi),
    .l1_split_i      (l1_split),
    .l1_flush_i      (l1_flush_q),
    .warp_cta_i      (warp_cta),
    .warp_wic_i      (warp_wic),
    .cta_linear_i    (cta_linear),
    .cmem_we_i       (cmem_we_i),
    .cmem_addr_i     (cmem_addr_i),
    .cmem_wdata_i    (cmem_wdata_i),
    .sclr_valid_i    (sclr_valid),
    .sclr_row_i      (sclr_addr),
    .sclr_ready_o    (sclr_ready),
    .mreq_valid_o    (mreq_valid_o),
    .mreq_ready_i    (mreq_ready_i),
    .mreq_tag_o      (mreq_tag_o),
    .mreq_cmd_o      (mreq_cmd_o),
    .mreq_addr_o     (mreq_addr_o),
    .mreq_size_o     (mreq_size_o),
    .mreq_wmask_o    (mreq_wmask_o),
    .mreq_wdata_o    (mreq_wdata_o),
    .mreq_atom_op_o  (mreq_atom_op_o),
    .mreq_atom_b_o   (mreq_atom_b_o),
    .mreq_atom_c_o   (mreq_atom_c_o),
    .mreq_local_o    (mreq_local_o),
    .mreq_wb_o       (mreq_wb_o),
    .mreq_warp_o     (mreq_warp_o),
    .mreq_pc_o       (mreq_pc_o),
    .mreq_lane_o     (mreq_lane_o),
    .mrsp_valid_i    (mrsp_valid_i),
    .mrsp_ready_o    (mrsp_ready_o),
    .mrsp_tag_i      (mrsp_tag_i),
    .mrsp_rdata_i    (mrsp_rdata_i),
    .lwb_valid_o     (lsu_lwb_v),
    .lwb_ready_i     (lwb_ready),
    .lwb_warp_o      (lsu_lwb_warp),
    .lwb_reg_o       (lsu_lwb_reg),
    .lwb_mask_o      (lsu_lwb_mask),
    .lwb_data_o      (lsu_lwb_data),
    .ret_valid_o     (rt_valid[NUM_SIMD]),
    .ret_ready_i     (rt_ready[NUM_SIMD]),
    .ret_meta_o      (rt_meta[NUM_SIMD*RM_W +: RM_W]),
    .ret_data_o      (rt_data[NUM_SIMD*1024 +: 1024]),
    .memzero_o       (memzero),
    .idle_o          (lsu_idle),
    .fault_o         (f_lsu),
    .fault_code_o    (f_lsu_code),
    .fault_warp_o    (f_lsu_warp),
    .fault_pc_o      (f_lsu_pc),
    .fault_lane_o    (f_lsu_lane),
    .fault_addr_o    (f_lsu_addr),
    .cnt_mem_o       (cnt_mem_o)
  );

  // ---------------------------------------------------------------------------
  // Retire port.
  // ---------------------------------------------------------------------------
  logic [RM_W-1:0] rmeta;
  logic [1023:0]   rdata;

  wg_retire #(.N(NUM_SIMD + 2)) u_retire (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (rt_valid),
    .in_ready_o  (rt_ready),
    .in_meta_i   (rt_meta),
    .in_data_i   (rt_data),
    .out_valid_o (ret_valid_o),
    .out_ready_i (RETIRE_EN ? ret_ready_i : 1'b1),
    .out_meta_o  (rmeta),
    .out_data_o  (rdata)
  );

  assign ret_fire         = ret_valid_o && (RETIRE_EN ? ret_ready_i : 1'b1);
  assign ret_warp_o       = rmeta[5:0];
  assign ret_seq_o        = rmeta[21:6];
  assign ret_pc_o         = rmeta[39:22];
  assign ret_active_o     = rmeta[71:40];
  assign ret_exec_o       = rmeta[103:72];
  assign ret_dst_o        = rmeta[105:104];
  assign ret_reg_o        = rmeta[111:106];
  assign ret_beat_o       = rmeta[113:112];
  assign ret_last_o       = rmeta[114];
  assign ret_data_o       = rdata;
  assign ret_cta_linear_o = cta_linear[warp_cta[WARP_W'(ret_warp_o)*CTA_W +: CTA_W]*32 +: 32];
  assign ret_wic_o        = warp_wic[WARP_W'(ret_warp_o)*5 +: 5];

  // ---------------------------------------------------------------------------
  // Faults (the first one sticks).
  // ---------------------------------------------------------------------------
  logic              f_any;
  logic [3:0]        f_code;
  logic [WARP_W-1:0] f_warp;
  logic [17:0]       f_pc;
  logic [4:0]        f_lane;
  logic [31:0]       f_addr;

  always_comb begin
    f_any  = 1'b0;
    f_code = '0;
    f_warp = '0;
    f_pc   = '0;
    f_lane = '0;
    f_addr = '0;
    if (f_bar) begin
      f_any = 1'b1; f_code = wg_sm_pkg::FAULT_DEADLOCK; f_warp = f_bar_warp;
    end
    if (f_simt) begin
      f_any = 1'b1; f_code = wg_sm_pkg::FAULT_STACK; f_warp = f_simt_warp; f_pc = f_simt_pc;
    end
    if (f_fetch) begin
      f_any = 1'b1; f_code = wg_sm_pkg::FAULT_PC; f_warp = f_fetch_warp; f_pc = f_fetch_pc;
    end
    for (int k = 32'(NUM_SIMD) - 1; k >= 0; k--) begin
      if (ifault[k]) begin
        f_any = 1'b1; f_code = wg_sm_pkg::FAULT_ILLEGAL;
        f_warp = ifault_warp[k*WARP_W +: WARP_W]; f_pc = ifault_pc[k*18 +: 18];
      end
    end
    if (f_lsu) begin
      f_any = 1'b1; f_code = f_lsu_code; f_warp = f_lsu_warp; f_pc = f_lsu_pc; f_lane = f_lsu_lane;
      f_addr = f_lsu_addr;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      faulted_q     <= 1'b0;
      fault_valid_o <= 1'b0;
      fault_code_o  <= '0;
      fault_warp_o  <= '0;
      fault_pc_o    <= '0;
      fault_lane_o  <= '0;
      fault_addr_o  <= '0;
      fault_cta_linear_o <= '0;
    end else if (f_any && !faulted_q) begin
      faulted_q     <= 1'b1;
      fault_valid_o <= 1'b1;
      fault_code_o  <= f_code;
      fault_warp_o  <= 6'(f_warp);
      fault_pc_o    <= f_pc;
      fault_lane_o  <= f_lane;
      fault_addr_o  <= f_addr;
      fault_cta_linear_o <= cta_linear[warp_cta[f_warp*CTA_W +: CTA_W]*32 +: 32];
    end
  end

  // ---------------------------------------------------------------------------
  // Counters.
  // ---------------------------------------------------------------------------
  logic [31:0] cls_q [NUM_CLS];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_cycles_o <= '0;
      cnt_active_o <= '0;
      cnt_winst_o  <= '0;
      cnt_tinst_o  <= '0;
      clock_q      <= '0;
      cnt_stall_idle_o   <= '0;
      cnt_stall_hazard_o <= '0;
      cnt_stall_busy_o   <= '0;
      for (int i = 0; i < 32'(NUM_CLS); i++) cls_q[i] <= '0;
    end else begin
      logic [63:0] wi, ti;
      logic [31:0] si, sh, sb;
      logic [3:0]  nc;
      cnt_cycles_o <= cnt_cycles_o + 64'd1;
      if (resident) cnt_active_o <= cnt_active_o + 64'd1;
      if (resident || count_idle) clock_q <= clock_q + 64'd1;
      wi = cnt_winst_o;
      ti = cnt_tinst_o;
      si = cnt_stall_idle_o;
      sh = cnt_stall_hazard_o;
      sb = cnt_stall_busy_o;
      for (int k = 0; k < 32'(NUM_SIMD); k++) begin
        if (st_issue[k]) begin
          wi = wi + 64'd1;
          ti = ti + 64'(st_threads[k*6 +: 6]);
        end else if (resident) begin
          if (st_idle[k]) si = si + 32'd1;
          else if (st_hazard[k]) sh = sh + 32'd1;
          else if (st_busy[k]) sb = sb + 32'd1;
        end
      end
      // Each class counter adds the issue slots of its class in this cycle (one adder per
      // counter; a read-modify-write at the class index was a shifter per slot).
      for (int i = 0; i < 32'(NUM_CLS); i++) begin
        nc = '0;
        for (int k = 0; k < 32'(NUM_SIMD); k++) begin
          if (st_issue[k] && st_cls[k*4 +: 4] == 4'(i)) nc = nc + 4'd1;
        end
        cls_q[i] <= cls_q[i] + 32'(nc);
      end
      cnt_winst_o <= wi;
      cnt_tinst_o <= ti;
      cnt_stall_idle_o   <= si;
      cnt_stall_hazard_o <= sh;
      cnt_stall_busy_o   <= sb;
    end
  end

  always_comb begin
    for (int i = 0; i < 32'(NUM_CLS); i++) cnt_class_o[i*32 +: 32] = cls_q[i];
    cnt_bank_conf_o = '0;
    cnt_wr_conf_o   = '0;
    for (int k = 0; k < 32'(NUM_SIMD); k++) begin
      cnt_bank_conf_o = cnt_bank_conf_o + bank_conf[k*32 +: 32];
      cnt_wr_conf_o   = cnt_wr_conf_o + wr_conf[k*32 +: 32];
    end
  end

  // Execution counters (wg_sm_pkg::EC_*), from the issue slots: branches and their
  // divergence (execution mask neither empty nor the active mask), local-memory bytes,
  // thread instructions per class. Each 32 bits, wrapping. The class counters take the
  // sum of the slots' threads of their class (counter by counter, constant part-selects:
  // a counter chosen by the class as a variable part-select was a shifter over the 512
  // bits, per slot, for reading and for writing: about 4.5k LUTs, docs/fpga.md 3.7).
  localparam int unsigned EC_NCLS = wg_sm_pkg::NUM_EXECCNT - wg_sm_pkg::EC_CLASS_THREAD;
  localparam int unsigned EC_IW   = $clog2(NUM_SIMD * 32 + 1);   // threads of one cycle
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_exec_o <= '0;
    end else begin
      logic [wg_sm_pkg::NUM_EXECCNT*32-1:0] e;
      logic [EC_NCLS*EC_IW-1:0]             inc;
      e   = cnt_exec_o;
      inc = '0;
      for (int k = 0; k < 32'(NUM_SIMD); k++) begin
        if (st_issue[k]) begin
          logic [3:0]  c;
          logic [5:0]  n;
          logic [31:0] amask, emask, bytes;
          logic [5:0]  uop_op;
          logic [2:0]  uop_mod;
          c     = st_cls[k*4 +: 4];
          n     = st_threads[k*6 +: 6];
          amask = is_active[k*32 +: 32];
          emask = is_exec[k*32 +: 32];
          // op and mod: the first two members of the packed uop_t, its top 9 bits
          {uop_op, uop_mod} = is_uop[k*UOP_W + UOP_W - 9 +: 9];
          bytes = 32'(n) * 32'(wg_isa_pkg::width_bytes(uop_mod));
          for (int j = 0; j < 32'(EC_NCLS); j++) begin
            if (32'(c) == j) inc[j*EC_IW +: EC_IW] = inc[j*EC_IW +: EC_IW] + EC_IW'(n);
          end
          if (c == wg_isa_pkg::CLASS_BRANCH) begin
            e[wg_sm_pkg::EC_BRANCH*32 +: 32] = e[wg_sm_pkg::EC_BRANCH*32 +: 32] + 32'd1;
            if (emask != '0 && emask != amask)
              e[wg_sm_pkg::EC_DIV_BRANCH*32 +: 32] = e[wg_sm_pkg::EC_DIV_BRANCH*32 +: 32] + 32'd1;
          end
          if (uop_op == wg_isa_pkg::OP_LDL)
            e[wg_sm_pkg::EC_LOCAL_LD_BYTES*32 +: 32] = e[wg_sm_pkg::EC_LOCAL_LD_BYTES*32 +: 32] + bytes;
          if (uop_op == wg_isa_pkg::OP_STL)
            e[wg_sm_pkg::EC_LOCAL_ST_BYTES*32 +: 32] = e[wg_sm_pkg::EC_LOCAL_ST_BYTES*32 +: 32] + bytes;
        end
      end
      for (int j = 0; j < 32'(EC_NCLS); j++) begin
        e[(wg_sm_pkg::EC_CLASS_THREAD + j)*32 +: 32] = e[(wg_sm_pkg::EC_CLASS_THREAD + j)*32 +: 32] +
                                                       32'(inc[j*EC_IW +: EC_IW]);
      end
      cnt_exec_o <= e;
    end
  end

  assign busy_o = resident || !lsu_idle;

  logic unused_ok;
  assign unused_ok = ^{simt_idle, fetch_idle, cfg_q[5'(wg_sm_pkg::CFG_SCHED)][31:1], cfg_q[5'(wg_sm_pkg::CFG_CTRL)][31:2],
                       pg_ctl[31:4], cfg_q[5'(wg_sm_pkg::CFG_PG_BET)][31:PG_CW],
                       cfg_q[5'(wg_sm_pkg::CFG_PG_IDLE)][31:PG_CW], cfg_q[5'(wg_sm_pkg::CFG_PG_WAKE)][31:PG_CW],
                       pg_unit_sleep, pg_core_sleep,
                       cfg_q[5'(wg_sm_pkg::CFG_PG_ISSUE)][31:2], cfg_q[5'(wg_sm_pkg::CFG_PG_SLICE)][31:16],
                       cfg_q[5'(wg_sm_pkg::CFG_PG_DOWN)][31:24], cfg_q[5'(wg_sm_pkg::CFG_PG_UP)][31:24]};

endmodule
