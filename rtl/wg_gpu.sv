// wg_gpu: NUM_SMS streaming multiprocessors in target time (docs/gpu.md).
//
//   commands ──> set-up (broadcast or per SM), per-SM launch and response queues
//                (each entry stamped with the target cycle it takes effect)
//   wg_clk_gate ──> SM clock: ticks while cycle < grant and no output queue is full
//   SM events (memory requests, CTA completions, faults, retire beats), stamped
//   with the target cycle ──> per-SM queues ──> round robin ──> events
//
// Target time advances only through the host's GRANT commands, and everything the
// SMs see is stamped in target cycles, so what the SMs do does not depend on how
// fast commands arrive or events are taken (docs/gpu.md section 3). The SMs share
// one Verilated model (wg_sm is no_inline_module; the SM id is a port).
`default_nettype none

`ifndef WG_GPU_NUM_SMS
`define WG_GPU_NUM_SMS 15
`endif

module wg_gpu #(
  // The default comes from a macro so that a hierarchical Verilator build (the SMs as one
  // separately built block) can set it without a -G that would reach the SMs too.
  parameter int unsigned NUM_SMS      = `WG_GPU_NUM_SMS,
  // SM parameters (wg_sm).
  parameter int unsigned NUM_WARPS    = 48,
  parameter int unsigned SIMD_WIDTH   = 16,
  parameter int unsigned NUM_SIMD     = 2,
  parameter int unsigned NUM_REGS     = 32768,
  parameter int unsigned RF_BANKS     = 16,
  parameter int unsigned NUM_CTAS     = 8,
  parameter int unsigned DMEM_BYTES   = 65536,
  parameter int unsigned L1_SETS      = 64,
  parameter int unsigned L1_MSHRS     = 8,
  parameter int unsigned IMEM_DEPTH   = 4096,
  parameter int unsigned CMEM_BYTES   = 4096,
  parameter int unsigned STACK_DEPTH  = 64,
  parameter bit          HAS_FP       = 1'b1,
  parameter int unsigned MEM_TAG_W    = 8,
  parameter bit          RETIRE_EN    = 1'b1,
  // The SM's FPGA options (wg_sm; the defaults are the full-width SM of the GTX480 build,
  // configs/boards.mk sets them for a board: docs/fpga.md section 2).
  parameter bit          HAS_SFU      = 1'b1,
  parameter int unsigned LSU_LANES    = 32,
  parameter int unsigned RF_LANES     = 32,
  parameter bit          SIMD_DIRECT  = 1'b1,
  // Queues.
  // The host never has more responses or launches in flight for an SM than the
  // SM can have requests outstanding (tags) or CTAs resident, so with these
  // depths a command never waits on a full queue (docs/gpu.md section 3).
  parameter int unsigned RSP_DEPTH    = 1 << MEM_TAG_W,  // memory responses queued per SM
  parameter int unsigned LAUNCH_DEPTH = NUM_CTAS,        // CTA launches queued per SM
  parameter int unsigned OUT_DEPTH    = 2,    // events queued per SM and kind
  // Derived: do not override.
  parameter int unsigned LANES  = NUM_SIMD * SIMD_WIDTH,
  parameter int unsigned SM_W   = (NUM_SMS > 1) ? $clog2(NUM_SMS) : 1,
  parameter int unsigned CNT_W  = 4 * 64 + 12 * 32 + 5 * 32 + wg_sm_pkg::NUM_MEMCNT * 32
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,

  // Commands (docs/gpu.md section 4.1).
  input  wire logic                     cmd_valid_i,
  output logic                          cmd_ready_o,
  input  wire logic [3:0]               cmd_op_i,
  input  wire logic [7:0]               cmd_sm_i,
  input  wire logic                     cmd_all_i,
  input  wire logic [63:0]              cmd_at_i,
  input  wire logic [31:0]              cmd_addr_i,
  input  wire logic [MEM_TAG_W-1:0]     cmd_tag_i,
  input  wire logic [1023:0]            cmd_data_i,

  // Events (docs/gpu.md section 4.2).
  output logic                          ev_valid_o,
  input  wire logic                     ev_ready_i,
  output logic [2:0]                    ev_kind_o,
  output logic [7:0]                    ev_sm_o,
  output logic [63:0]                   ev_cycle_o,
  // MREQ
  output logic [MEM_TAG_W-1:0]          ev_mreq_tag_o,
  output logic [1:0]                    ev_mreq_cmd_o,
  output logic [31:0]                   ev_mreq_addr_o,
  output logic [2:0]                    ev_mreq_size_o,
  output logic [127:0]                  ev_mreq_wmask_o,
  output logic [1023:0]                 ev_mreq_wdata_o,
  output logic [3:0]                    ev_mreq_atom_op_o,
  output logic [31:0]                   ev_mreq_atom_b_o,
  output logic [31:0]                   ev_mreq_atom_c_o,
  output logic                          ev_mreq_local_o,
  output logic                          ev_mreq_wb_o,
  output logic [5:0]                    ev_mreq_warp_o,
  output logic [17:0]                   ev_mreq_pc_o,
  output logic [4:0]                    ev_mreq_lane_o,
  // DONE
  output logic [31:0]                   ev_done_linear_o,
  // FAULT
  output logic [3:0]                    ev_fault_code_o,
  output logic [5:0]                    ev_fault_warp_o,
  output logic [17:0]                   ev_fault_pc_o,
  output logic [4:0]                    ev_fault_lane_o,
  output logic [31:0]                   ev_fault_addr_o,
  output logic [31:0]                   ev_fault_cta_linear_o,
  // RETIRE
  output logic [5:0]                    ev_ret_warp_o,
  output logic [31:0]                   ev_ret_cta_linear_o,
  output logic [4:0]                    ev_ret_wic_o,
  output logic [15:0]                   ev_ret_seq_o,
  output logic [17:0]                   ev_ret_pc_o,
  output logic [31:0]                   ev_ret_active_o,
  output logic [31:0]                   ev_ret_exec_o,
  output logic [1:0]                    ev_ret_dst_o,
  output logic [5:0]                    ev_ret_reg_o,
  output logic [1:0]                    ev_ret_beat_o,
  output logic                          ev_ret_last_o,
  output logic [1023:0]                 ev_ret_data_o,
  // REACHED: busy SMs at the grant
  output logic [NUM_SMS-1:0]            ev_busy_o,
  // COUNTERS
  output logic [CNT_W-1:0]              ev_cnt_o,
  // ERROR
  output logic [3:0]                    ev_err_code_o,

  // Status.
  output logic [63:0]                   cycle_o,
  output logic [63:0]                   grant_o,
  output logic                          running_o,
  output logic                          error_o
);

  // ---------------------------------------------------------------------------
  // Encodings (docs/gpu.md section 4).
  // ---------------------------------------------------------------------------
  localparam logic [3:0] OP_NOP      = 4'd0;
  localparam logic [3:0] OP_RESET    = 4'd1;
  localparam logic [3:0] OP_CFG      = 4'd2;
  localparam logic [3:0] OP_IMEM     = 4'd3;
  localparam logic [3:0] OP_CMEM     = 4'd4;
  localparam logic [3:0] OP_LAUNCH   = 4'd5;
  localparam logic [3:0] OP_MRSP     = 4'd6;
  localparam logic [3:0] OP_GRANT    = 4'd7;
  localparam logic [3:0] OP_LANE_EN  = 4'd8;
  localparam logic [3:0] OP_CNT_READ = 4'd9;

  localparam logic [2:0] EV_MREQ     = 3'd0;
  localparam logic [2:0] EV_DONE     = 3'd1;
  localparam logic [2:0] EV_FAULT    = 3'd2;
  localparam logic [2:0] EV_RETIRE   = 3'd3;
  localparam logic [2:0] EV_REACHED  = 3'd4;
  localparam logic [2:0] EV_COUNTERS = 3'd5;
  localparam logic [2:0] EV_ERROR    = 3'd6;

  localparam logic [3:0] ERR_LATE    = 4'd1;  // launch or response stamped before the current cycle
  localparam logic [3:0] ERR_GRANT   = 4'd2;  // grant below the current grant
  localparam logic [3:0] ERR_SM      = 4'd3;  // SM index out of range
  localparam logic [3:0] ERR_OP      = 4'd4;  // unknown command

  localparam int unsigned IMEM_W = $clog2(IMEM_DEPTH);
  localparam int unsigned CMEM_W = $clog2(CMEM_BYTES / 4);
  localparam int unsigned RST_CYCLES = 4;

  // Queue entry layouts (LSB first, as listed).
  localparam int unsigned LQ_W = 64 + 48 + 32;                 // at, cta id, linear
  localparam int unsigned RQ_W = 64 + MEM_TAG_W + 1024;        // at, tag, data
  // The stamp (64 bits, LSB) travels in a FIFO of its own next to the request fields, so that
  // the wide request word is rebuilt only when the SM's request outputs change.
  localparam int unsigned MQ_W = 64 + MEM_TAG_W + 2 + 32 + 3 + 128 + 1024 + 4 + 32 + 32 + 1 + 1 + 6 + 18 + 5;
  localparam int unsigned MD_W = MQ_W - 64;
  localparam int unsigned DQ_W = 64 + 32;                      // cycle, linear
  localparam int unsigned TQ_W = 64 + 6 + 32 + 5 + 16 + 18 + 32 + 32 + 2 + 6 + 2 + 1 + 1024;
  localparam int unsigned FQ_W = 64 + 4 + 6 + 18 + 5 + 32 + 32;

  // MQ field offsets.
  localparam int unsigned MQ_TAG  = 64;
  localparam int unsigned MQ_CMD  = MQ_TAG + MEM_TAG_W;
  localparam int unsigned MQ_ADDR = MQ_CMD + 2;
  localparam int unsigned MQ_SIZE = MQ_ADDR + 32;
  localparam int unsigned MQ_WM   = MQ_SIZE + 3;
  localparam int unsigned MQ_WD   = MQ_WM + 128;
  localparam int unsigned MQ_OP   = MQ_WD + 1024;
  localparam int unsigned MQ_B    = MQ_OP + 4;
  localparam int unsigned MQ_C    = MQ_B + 32;
  localparam int unsigned MQ_LOC  = MQ_C + 32;
  localparam int unsigned MQ_WB   = MQ_LOC + 1;
  localparam int unsigned MQ_WARP = MQ_WB + 1;
  localparam int unsigned MQ_PC   = MQ_WARP + 6;
  localparam int unsigned MQ_LANE = MQ_PC + 18;
  // TQ field offsets.
  localparam int unsigned TQ_WARP = 64;
  localparam int unsigned TQ_CTA  = TQ_WARP + 6;
  localparam int unsigned TQ_WIC  = TQ_CTA + 32;
  localparam int unsigned TQ_SEQ  = TQ_WIC + 5;
  localparam int unsigned TQ_PC   = TQ_SEQ + 16;
  localparam int unsigned TQ_ACT  = TQ_PC + 18;
  localparam int unsigned TQ_EXEC = TQ_ACT + 32;
  localparam int unsigned TQ_DST  = TQ_EXEC + 32;
  localparam int unsigned TQ_REG  = TQ_DST + 2;
  localparam int unsigned TQ_BEAT = TQ_REG + 6;
  localparam int unsigned TQ_LAST = TQ_BEAT + 2;
  localparam int unsigned TQ_DATA = TQ_LAST + 1;

  // ---------------------------------------------------------------------------
  // Target time and the SM clock.
  // ---------------------------------------------------------------------------
  logic [63:0] cycle_q, grant_q;
  logic [2:0]  rst_cnt_q;
  logic        err_q, err_pend_q, reached_pend_q;
  logic [3:0]  err_code_q;
  logic        sm_rst_n, run;
  logic        out_room;            // every per-SM event queue has a free entry
  logic        fault_any;

  assign sm_rst_n = rst_ni && (rst_cnt_q == '0);
  logic        pgw_any;             // an SM's power-gating sweep or close is in progress
  logic        rd_act_q;            // a counter page is being read (declared here for run)
  logic        rq_fresh_any;        // a response queue's head is read from its RAM this cycle
  assign run      = sm_rst_n && !err_q && !fault_any && out_room && !pgw_any && !rd_act_q &&
                    !rq_fresh_any && (cycle_q < grant_q);
  // A set-up write (CFG, IMEM, CMEM) clocks the SMs once without advancing target time: the
  // SMs' set-up registers live in their clock domain. The host sends set-up writes only while
  // the GPU stands at its grant with the SMs idle (docs/gpu.md section 3); during such an edge
  // the SMs see no launch, no response and no ready, so nothing moves but the write.
  logic setup_tick;

  // A cycle of target time is one edge of the SM clocks while running (run is stable from the
  // falling edge, where a clock gate samples its enable, to the rising edge). Each SM has its
  // own gate (below): it ticks in target cycles where it has something to do, in reset and on
  // set-up writes.
  logic step;
  assign step = run;

  // Idle SMs (docs/gpu.md section 2.1): an SM with no CTA, no outstanding request, nothing
  // due for it and nothing to report, for IDLE_HOLD cycles in a row, gets no clock edges
  // until something is due for it. Its state does not change while idle, so this is exact;
  // the only counter that moves while idle, cycles, is reported from target time instead.
  // GPU_CTRL bit 0 (CFG at address CFG_GPU_CTRL) turns it off; so does the SMs' CTRL bit 1
  // (the clock register counts while idle).
  localparam int unsigned IDLE_HOLD   = 16;
  localparam logic [31:0] CFG_GPU_CTRL = 32'h100;  // above the SMs' 5-bit register space
  localparam logic [31:0] CFG_SM_CTRL  = 32'd15;
  localparam logic [31:0] CFG_PG_CTRL  = 32'(wg_sm_pkg::CFG_PG_CTRL);

  // Counter pages (docs/gpu.md section 4.3): CNT_READ addr 0x1000 + A reads 26 values of the
  // SM's power-gating counter port from address A, 0x2000 + H 52 histogram bins from H.
  localparam logic [3:0]  PAGE_PG    = 4'h1;
  localparam logic [3:0]  PAGE_HIST  = 4'h2;
  localparam int unsigned HIST_VALS  = CNT_W / 32;           // 52 bins (or words) per page
  localparam int unsigned HIST_ADDRS = NUM_SIMD * 1024;      // the SM's histogram addresses
  // Word i of a page (the page built only where it is read).
  function automatic logic [31:0] page_word(input logic [CNT_W-1:0] page, input logic [5:0] i);
    page_word = page[i*32 +: 32];
  endfunction
  localparam logic [11:0] PG_SKIP_ADDR = 12'hC08;            // the GPU's own: skipped cycles
  logic gpu_ctrl_q, count_idle_q;                // gating on; an SM counts its clock while idle

  // ---------------------------------------------------------------------------
  // Command decode.
  // ---------------------------------------------------------------------------
  logic              cmd_fire, sm_ok, late;
  logic [NUM_SMS-1:0] sel;           // SMs the command addresses
  logic [NUM_SMS-1:0] lq_ready, rq_ready;
  logic              cnt_pend_q;
  logic              reached_offer;    // REACHED offered: a GRANT waits until it is taken
  logic [3:0]        cmd_err;

  assign sm_ok = cmd_all_i || (32'(cmd_sm_i) < NUM_SMS);
  assign late  = (cmd_at_i < cycle_q) || (cmd_at_i == cycle_q && step);

  always_comb begin
    sel = '0;
    for (int s = 0; s < NUM_SMS; s++) sel[s] = cmd_all_i || (32'(cmd_sm_i) == s);
  end

  always_comb begin
    cmd_ready_o = sm_rst_n;
    if (sm_ok && !cmd_all_i && (cmd_op_i == OP_LAUNCH)) cmd_ready_o = sm_rst_n && lq_ready[SM_W'(cmd_sm_i)];
    if (sm_ok && !cmd_all_i && (cmd_op_i == OP_MRSP))   cmd_ready_o = sm_rst_n && rq_ready[SM_W'(cmd_sm_i)];
    if (cmd_op_i == OP_CNT_READ)                        cmd_ready_o = sm_rst_n && !cnt_pend_q && !rd_act_q &&
                                                                      !pgw_any;
    if (cmd_op_i == OP_GRANT)                           cmd_ready_o = sm_rst_n && !reached_offer;
    if (cmd_op_i == OP_RESET)                           cmd_ready_o = 1'b1;
  end
  assign cmd_fire = cmd_valid_i && cmd_ready_o;

  always_comb begin
    cmd_err = '0;
    unique case (cmd_op_i)
      OP_NOP, OP_RESET: ;
      OP_CFG, OP_IMEM, OP_CMEM, OP_LANE_EN: if (!sm_ok) cmd_err = ERR_SM;
      OP_LAUNCH, OP_MRSP: begin
        if (!sm_ok || cmd_all_i) cmd_err = ERR_SM;
        else if (late)           cmd_err = ERR_LATE;
      end
      OP_GRANT:    if (cmd_at_i < grant_q) cmd_err = ERR_GRANT;
      OP_CNT_READ: if (!sm_ok || cmd_all_i) cmd_err = ERR_SM;
      default:     cmd_err = ERR_OP;
    endcase
  end

  logic do_cfg, do_imem, do_cmem, do_lane, do_launch, do_mrsp;
  assign cnt_capture = cmd_fire && cmd_op_i == OP_CNT_READ && cmd_err == '0;
  assign setup_tick = do_cfg || do_imem || do_cmem;
  logic do_gpu_cfg;
  assign do_gpu_cfg = cmd_fire && cmd_op_i == OP_CFG && cmd_err == '0 && cmd_addr_i == CFG_GPU_CTRL;
  assign do_cfg    = cmd_fire && cmd_op_i == OP_CFG     && cmd_err == '0 && cmd_addr_i < 32'd32;
  assign do_imem   = cmd_fire && cmd_op_i == OP_IMEM    && cmd_err == '0;
  assign do_cmem   = cmd_fire && cmd_op_i == OP_CMEM    && cmd_err == '0;
  assign do_lane   = cmd_fire && cmd_op_i == OP_LANE_EN && cmd_err == '0;
  assign do_launch = cmd_fire && cmd_op_i == OP_LAUNCH  && cmd_err == '0;
  assign do_mrsp   = cmd_fire && cmd_op_i == OP_MRSP    && cmd_err == '0;

  // ---------------------------------------------------------------------------
  // The SMs with their queues.
  // ---------------------------------------------------------------------------
  logic [NUM_SMS-1:0]       busy, fault_vld, fault_seen, sm_tick, rq_fresh;
  logic [NUM_SMS-1:0]       has_ev, ev_take;      // per SM: an event waits / is taken
  logic [NUM_SMS*3-1:0]     sm_kind;
  logic [NUM_SMS*MQ_W-1:0]  mq_head;
  logic [NUM_SMS*DQ_W-1:0]  dq_head;
  logic [NUM_SMS*FQ_W-1:0]  fq_head;
  logic [NUM_SMS*TQ_W-1:0]  tq_head;
  logic [NUM_SMS*32-1:0]    cw_all;      // per SM: a word of counter page 0 or 1 (0 unless read)
  logic                     cnt_capture;
  logic [NUM_SMS-1:0]       room;
  logic [NUM_SMS-1:0]       empty_all;
  logic [NUM_SMS*LANES-1:0] lane_en_q;
  logic [NUM_SMS-1:0]       pgw;         // per SM: power-gating sweep or close in progress
  logic [NUM_SMS*64-1:0]    pg_rd_all;   // per SM: its counter port (0 unless read)
  logic [NUM_SMS*32-1:0]    pg_hd_all;   // per SM: its histogram read data
  logic [NUM_SMS*48-1:0]    skip_all;    // per SM: skipped cycles of the window
  logic                     rd_hist_q;   // the page being read: histogram bins
  logic                     rd_cnt_q;    // the page being read: page 0 or 1 (the SM's counters)
  logic                     rd_exec_q;   // page 1
  logic [SM_W-1:0]          rd_sm_q;
  logic [11:0]              rd_base_q;
  logic [5:0]               rd_idx_q;
  logic [11:0]              rd_addr;     // counter address of this link cycle
  logic [15:0]              rd_haddr;    // histogram address of this link cycle
  logic                     pg_page, hist_page, main_page, exec_page;
  logic                     flush;

  assign flush = cmd_valid_i && cmd_op_i == OP_RESET;  // RESET is always accepted

  always_ff @(posedge clk_i) begin
    if (!rst_ni || flush) begin
      gpu_ctrl_q   <= 1'b1;
      count_idle_q <= 1'b0;
    end else begin
      if (do_gpu_cfg) gpu_ctrl_q <= cmd_data_i[0];
      if (do_cfg && cmd_addr_i == CFG_SM_CTRL) count_idle_q <= cmd_data_i[1];
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni || flush) lane_en_q <= '1;
    else if (do_lane) begin
      for (int s = 0; s < NUM_SMS; s++) if (sel[s]) lane_en_q[s*LANES +: LANES] <= cmd_data_i[LANES-1:0];
    end
  end

  for (genvar s = 0; s < NUM_SMS; s++) begin : g_sm
    // Unused FIFO status outputs.
    localparam int unsigned LQ_CW = $clog2(LAUNCH_DEPTH + 1);
    localparam int unsigned RQ_CW = $clog2(RSP_DEPTH + 1);
    localparam int unsigned OQ_CW = $clog2(OUT_DEPTH + 1);
    logic [LQ_CW-1:0] u_lq_count_unused;
    logic [RQ_CW-1:0] u_rq_count_unused;
    logic [OQ_CW-1:0] u_mq_count_unused, u_dq_count_unused;
    logic u_lq_full_unused, u_lq_empty_unused, u_rq_full_unused, u_rq_empty_unused;
    logic u_mq_in_ready_unused, u_mq_empty_unused, u_dq_in_ready_unused, u_dq_empty_unused;

    // Launch queue.
    logic            lq_valid, lq_pop, cta_ready;
    logic [LQ_W-1:0] lq_data;
    logic            cta_valid;

    wg_fifo #(.DEPTH(LAUNCH_DEPTH), .WIDTH(LQ_W)) u_lq (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .flush_i    (flush),
      .in_valid_i (do_launch && sel[s]),
      .in_ready_o (lq_ready[s]),
      .in_data_i  ({cmd_addr_i, cmd_data_i[47:0], cmd_at_i}),
      .out_valid_o(lq_valid),
      .out_ready_i(lq_pop),
      .out_data_o (lq_data),
      .count_o    (u_lq_count_unused),
      .full_o     (u_lq_full_unused),
      .empty_o    (u_lq_empty_unused)
    );
    assign cta_valid = lq_valid && (lq_data[63:0] <= cycle_q);
    assign lq_pop    = step && cta_valid && cta_ready;

    // Response queue, in block RAM: a response written into the head's slot is offered a
    // cycle later than the others (rq_fresh; target time waits for that cycle, so the
    // response is still offered from cycle `at` on).
    logic            rq_valid, rq_pop, rsp_ready, rsp_valid;
    logic [RQ_W-1:0] rq_data;

    wg_fifo_ram #(.DEPTH(RSP_DEPTH), .WIDTH(RQ_W)) u_rq (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .flush_i    (flush),
      .in_valid_i (do_mrsp && sel[s]),
      .in_ready_o (rq_ready[s]),
      .in_data_i  ({cmd_data_i, cmd_tag_i, cmd_at_i}),
      .out_valid_o(rq_valid),
      .out_ready_i(rq_pop),
      .out_data_o (rq_data),
      .count_o    (u_rq_count_unused),
      .full_o     (u_rq_full_unused),
      .empty_o    (u_rq_empty_unused),
      .fresh_o    (rq_fresh[s])
    );
    assign rsp_valid = rq_valid && (rq_data[63:0] <= cycle_q);
    assign rq_pop    = step && rsp_valid && rsp_ready;

    // The SM.
    logic                        mreq_valid, done_valid, ret_valid;
    logic [MEM_TAG_W-1:0]        mreq_tag;
    logic [1:0]                  mreq_cmd;
    logic [31:0]                 mreq_addr, mreq_atom_b, mreq_atom_c;
    logic [2:0]                  mreq_size;
    logic [127:0]                mreq_wmask;
    logic [1023:0]               mreq_wdata;
    logic [3:0]                  mreq_atom_op;
    logic                        mreq_local, mreq_wb;
    logic [5:0]                  mreq_warp;
    logic [17:0]                 mreq_pc;
    logic [4:0]                  mreq_lane;
    logic [31:0]                 done_linear;
    logic [3:0]                  f_code;
    logic [5:0]                  f_warp;
    logic [17:0]                 f_pc;
    logic [4:0]                  f_lane;
    logic [31:0]                 f_addr, f_cta;
    logic [5:0]                  r_warp, r_reg;
    logic [31:0]                 r_cta, r_active, r_exec;
    logic [4:0]                  r_wic;
    logic [15:0]                 r_seq;
    logic [17:0]                 r_pc;
    logic [1:0]                  r_dst, r_beat;
    logic                        r_last;
    logic [1023:0]               r_data;
    logic [63:0]                 c_cycles, c_active, c_winst, c_tinst;
    logic [12*32-1:0]            c_class;
    logic [31:0]                 c_idle, c_hazard, c_busy, c_bank, c_wr;
    logic [wg_sm_pkg::NUM_MEMCNT*32-1:0] c_mem;
    logic                        pg_busy_s, pg_work_s, pg_count_s;
    logic [2*LANES-1:0]          pg_state_unused;
    logic [wg_sm_pkg::NUM_EXECCNT*32-1:0] c_exec;
    // Warp issue control (docs/power-gating.md section 3): not read on the GPU top yet.
    logic [LANES-1:0]            pg_in_use_unused;
    logic [1:0]                  pg_issue_state_unused;
    logic [4*48-1:0]             c_pg_state_unused;
    logic [47:0]                 c_pg_changes_unused;
    logic                        pgt_valid_unused;
    logic [63:0]                 pgt_rec_unused;

    // Per-SM idle clock gate.
    logic       need, gate_en, clk_sm_s, tick_s;
    logic [4:0] idle_cnt_q;
    assign need    = busy[s] || cta_valid || rsp_valid || mreq_valid || done_valid || ret_valid ||
                     fault_vld[s] || !gpu_ctrl_q || count_idle_q || (idle_cnt_q != '0) ||
                     pg_busy_s;  // the power-gating histogram engines
    // Outside target time, the SM's power-gating clock ticks while its power-gating sweep or
    // close is in progress (pgw; target time waits for it), and the SM's clock with it only
    // while the SM needs the edges (pgw_sm, below): a clear sweep alone runs on the
    // power-gating clock. A histogram page gives an edge per bin to the SM's histogram read
    // clock only (u_hist_gate below).
    logic hist_tick, pg_rd_s;
    assign hist_tick = rd_act_q && rd_hist_q && 32'(rd_sm_q) == s;
    assign pg_rd_s   = rd_act_q && !rd_hist_q && !rd_cnt_q && 32'(rd_sm_q) == s;
    logic pgw_need, pgw_sm, pg_gate_en;
    assign gate_en    = !sm_rst_n || setup_tick || (run && need) || pgw_sm;
    assign pg_gate_en = gate_en || pgw_need;

    // Power-gating work (docs/gpu.md section 4.3): after reset, and after a PG_CTRL write with
    // the close or clear strobe, the SM gets edges until its histogram engines are idle. The
    // strobe takes two edges to reach the engines: busy is trusted from the third.
    logic       pgw_q;
    logic [1:0] pgw_cnt_q;
    logic       pg_strobe;
    assign pg_strobe = do_cfg && sel[s] && cmd_addr_i == CFG_PG_CTRL && (cmd_data_i[8] || cmd_data_i[9]);
    always_ff @(posedge clk_i) begin
      if (!rst_ni || flush || pg_strobe) begin
        pgw_q     <= 1'b1;
        pgw_cnt_q <= 2'd3;
      end else if (pgw_q) begin
        if (tick_s && sm_rst_n && pgw_cnt_q != '0) pgw_cnt_q <= pgw_cnt_q - 2'd1;
        if (pgw_cnt_q == '0 && !pg_busy_s) pgw_q <= 1'b0;
      end
    end
    assign pgw[s] = pgw_q;
    // Edges only while the work lasts: none once the engines are idle (an extra edge would
    // count in a window that has just opened).
    assign pgw_need = pgw_q && (pgw_cnt_q != '0 || pg_busy_s);
    // Of these, the SM's clock ticks at the strobe's edges; while the SM's power-gating logic
    // needs its edges (pg_work_s: pending intervals, their write-back, the trace, a controller
    // state that changes at the next edge); while the SM is active or was within its last
    // IDLE_HOLD edges or set-up writes (pq_q); and always with idle gating off or the clock
    // register counting while idle. The rest, a histogram clear sweep of an idle SM, ticks the
    // power-gating clock alone: the sweep and the controllers' delay counters (wg_sm) get the
    // same edges as with the SM clocked, the controllers' states do not change on them, and an
    // idle SM's other state does not change on idle edges (docs/gpu.md section 2.1), so
    // nothing changes but the evaluation cost (docs/gpu.md section 4.3). With gating off the
    // SM is clocked for the whole sweep as before, which test_gpu's comparison of gating on
    // and off checks.
    logic       sm_act;
    logic [4:0] pq_q;
    assign sm_act = busy[s] || mreq_valid || done_valid || ret_valid || fault_vld[s];
    always_ff @(posedge clk_i) begin
      if (!rst_ni || flush || !sm_rst_n) pq_q <= 5'(IDLE_HOLD);
      else if (tick_s) begin
        if (setup_tick || sm_act) pq_q <= 5'(IDLE_HOLD);
        else if (pq_q != '0)      pq_q <= pq_q - 5'd1;
      end
    end
    assign pgw_sm = pgw_need && (pgw_cnt_q != '0 || pg_work_s || sm_act || pq_q != '0 ||
                                 !gpu_ctrl_q || count_idle_q);

    // Skipped cycles: target cycles of the window (pg_count_s) in which idle skipping stopped
    // this SM's clock; a clear starts a new window.
    logic [47:0] skip_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni || flush || (pg_strobe && cmd_data_i[9])) skip_q <= '0;
      else if (step && !tick_s && pg_count_s)               skip_q <= skip_q + 48'd1;
    end
    assign skip_all[s*48 +: 48] = skip_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni || flush) idle_cnt_q <= 5'(IDLE_HOLD);
      else if (step) begin
        if (busy[s] || cta_valid || rsp_valid || mreq_valid || done_valid || ret_valid)
          idle_cnt_q <= 5'(IDLE_HOLD);
        else if (idle_cnt_q != '0)
          idle_cnt_q <= idle_cnt_q - 5'd1;
      end
    end

    wg_clk_gate u_sm_gate (
      .clk_i (clk_i),
      .en_i  (gate_en),
      .clk_o (clk_sm_s),
      .en_o  (tick_s)
    );
    assign sm_tick[s] = tick_s;

    // The SM's power-gating clock: the SM's edges, and those of a clear sweep that needs no
    // SM edges (pgw_need without pgw_sm). It runs the sweep, the histogram RAMs' write ports
    // and the power-gating controllers' delay counters.
    logic clk_pg_s, pg_tick_s;
    wg_clk_gate u_pg_gate (
      .clk_i (clk_i),
      .en_i  (pg_gate_en),
      .clk_o (clk_pg_s),
      .en_o  (pg_tick_s)
    );

    // The SM's histogram read clock: the power-gating clock's edges, and one per bin of a
    // histogram page. A page read clocks only the SM's histogram RAMs' read ports, not the SM.
    logic clk_hist_s, hist_en_unused;
    wg_clk_gate u_hist_gate (
      .clk_i (clk_i),
      .en_i  (pg_gate_en || hist_tick),
      .clk_o (clk_hist_s),
      .en_o  (hist_en_unused)
    );

`ifndef SYNTHESIS
    // An edge of the power-gating clock without the SM's comes only while the engines have no
    // work that needs the SM's edges, and never during a set-up write (wg_pg_acct's contract).
    always_ff @(posedge clk_i) begin
      if (rst_ni && sm_rst_n && pg_tick_s && !tick_s)
        assert (!pg_work_s && !setup_tick && pgw_q)
          else $error("wg_gpu: SM %0d: power-gating edge without an SM edge while the SM needs it", s);
    end
`endif

    wg_sm #(
      .NUM_WARPS  (NUM_WARPS),
      .SIMD_WIDTH (SIMD_WIDTH),
      .NUM_SIMD   (NUM_SIMD),
      .NUM_REGS   (NUM_REGS),
      .RF_BANKS   (RF_BANKS),
      .NUM_CTAS   (NUM_CTAS),
      .DMEM_BYTES (DMEM_BYTES),
      .L1_SETS    (L1_SETS),
      .L1_MSHRS   (L1_MSHRS),
      .IMEM_DEPTH (IMEM_DEPTH),
      .CMEM_BYTES (CMEM_BYTES),
      .STACK_DEPTH(STACK_DEPTH),
      .HAS_FP     (HAS_FP),
      .MEM_BYTES  (128),
      .MEM_TAG_W  (MEM_TAG_W),
      .RETIRE_EN  (RETIRE_EN),
      .HAS_SFU    (HAS_SFU),
      .LSU_LANES  (LSU_LANES),
      .RF_LANES   (RF_LANES),
      .SIMD_DIRECT(SIMD_DIRECT)
    ) u_sm (
      .clk_i             (clk_sm_s),
      .clk_pg_i          (clk_pg_s),
      .clk_hist_i        (clk_hist_s),
      .rst_ni            (sm_rst_n),
      .sm_id_i           (8'(s)),
      .cfg_we_i          (do_cfg && sel[s]),
      .cfg_addr_i        (setup_tick ? cmd_addr_i[4:0] : 5'd0),
      .cfg_wdata_i       (setup_tick ? cmd_data_i[31:0] : 32'd0),
      .imem_we_i         (do_imem && sel[s]),
      .imem_addr_i       (setup_tick ? cmd_addr_i[IMEM_W-1:0] : '0),
      .imem_wdata_i      (setup_tick ? cmd_data_i[63:0] : 64'd0),
      .cmem_we_i         (do_cmem && sel[s]),
      .cmem_addr_i       (setup_tick ? cmd_addr_i[CMEM_W-1:0] : '0),
      .cmem_wdata_i      (setup_tick ? cmd_data_i[31:0] : 32'd0),
      .cta_valid_i       (cta_valid && step),
      .cta_ready_o       (cta_ready),
      .cta_id_i          (lq_data[64 +: 48]),
      .cta_linear_i      (lq_data[112 +: 32]),
      .done_valid_o      (done_valid),
      .done_ready_i      (step),
      .done_linear_o     (done_linear),
      .busy_o            (busy[s]),
      .mreq_valid_o      (mreq_valid),
      .mreq_ready_i      (step),
      .mreq_tag_o        (mreq_tag),
      .mreq_cmd_o        (mreq_cmd),
      .mreq_addr_o       (mreq_addr),
      .mreq_size_o       (mreq_size),
      .mreq_wmask_o      (mreq_wmask),
      .mreq_wdata_o      (mreq_wdata),
      .mreq_atom_op_o    (mreq_atom_op),
      .mreq_atom_b_o     (mreq_atom_b),
      .mreq_atom_c_o     (mreq_atom_c),
      .mreq_local_o      (mreq_local),
      .mreq_wb_o         (mreq_wb),
      .mreq_warp_o       (mreq_warp),
      .mreq_pc_o         (mreq_pc),
      .mreq_lane_o       (mreq_lane),
      .mrsp_valid_i      (rsp_valid && step),
      .mrsp_ready_o      (rsp_ready),
      .mrsp_tag_i        (rq_data[64 +: MEM_TAG_W]),
      .mrsp_rdata_i      (rq_data[64 + MEM_TAG_W +: 1024]),
      .fault_valid_o     (fault_vld[s]),
      .fault_code_o      (f_code),
      .fault_warp_o      (f_warp),
      .fault_pc_o        (f_pc),
      .fault_lane_o      (f_lane),
      .fault_addr_o      (f_addr),
      .fault_cta_linear_o(f_cta),
      .ret_valid_o       (ret_valid),
      .ret_ready_i       (step),
      .ret_warp_o        (r_warp),
      .ret_cta_linear_o  (r_cta),
      .ret_wic_o         (r_wic),
      .ret_seq_o         (r_seq),
      .ret_pc_o          (r_pc),
      .ret_active_o      (r_active),
      .ret_exec_o        (r_exec),
      .ret_dst_o         (r_dst),
      .ret_reg_o         (r_reg),
      .ret_beat_o        (r_beat),
      .ret_last_o        (r_last),
      .ret_data_o        (r_data),
      .lane_en_i         (lane_en_q[s*LANES +: LANES]),
      // Power-gating counters: read as counter pages (docs/gpu.md section 4.3).
      // (the addresses reach the SM being read only: an input that changes makes Verilator
      // evaluate the SM's logic, so the other SMs must not see them move)
      .pg_re_i           (pg_rd_s),
      .pg_raddr_i        (pg_rd_s ? rd_addr : 12'd0),
      .pg_rdata_o        (pg_rd_all[s*64 +: 64]),
      .pg_hist_re_i      (hist_tick && 32'(rd_haddr) < HIST_ADDRS && 32'(rd_idx_q) < HIST_VALS),
      .pg_hist_addr_i    (hist_tick ? rd_haddr : 16'd0),
      .pg_hist_data_o    (pg_hd_all[s*32 +: 32]),
      .pg_busy_o         (pg_busy_s),
      .pg_work_o         (pg_work_s),
      .pg_state_o        (pg_state_unused),
      .pg_count_o        (pg_count_s),
      .pg_in_use_o       (pg_in_use_unused),
      .pg_issue_state_o  (pg_issue_state_unused),
      .cnt_pg_state_o    (c_pg_state_unused),
      .cnt_pg_changes_o  (c_pg_changes_unused),
      // Lane-activity trace: not streamed over the link yet (docs/power-gating.md section 7.3).
      .pgt_valid_o       (pgt_valid_unused),
      .pgt_ready_i       (1'b1),
      .pgt_rec_o         (pgt_rec_unused),
      .cnt_cycles_o      (c_cycles),
      .cnt_active_o      (c_active),
      .cnt_winst_o       (c_winst),
      .cnt_tinst_o       (c_tinst),
      .cnt_class_o       (c_class),
      .cnt_stall_idle_o  (c_idle),
      .cnt_stall_hazard_o(c_hazard),
      .cnt_stall_busy_o  (c_busy),
      .cnt_bank_conf_o   (c_bank),
      .cnt_wr_conf_o     (c_wr),
      .cnt_mem_o         (c_mem),
      .cnt_exec_o        (c_exec)
    );

    // Counter pages 0 and 1 (docs/gpu.md section 4.3): read like a power-gating page, a
    // 32-bit word per link cycle (rd_idx_q) into the one snapshot register, pgs_q. Target
    // time stands while a page is read, so the words are those of one cycle. cycles: target
    // time (an idle SM's own counter stops while its clock is gated). Page 1: the execution
    // counters (wg_sm_pkg::EC_*) in words 0..15, the rest zero. Evaluated only for the SM
    // being read: in a Verilated GPU the other SMs' counters change every cycle.
    logic [63:0] u_c_cycles_unused;
    assign u_c_cycles_unused = c_cycles;
    always_comb begin
      cw_all[s*32 +: 32] = '0;
      if (rd_act_q && rd_cnt_q && 32'(rd_sm_q) == s)
        cw_all[s*32 +: 32] = rd_exec_q ? page_word(CNT_W'(c_exec), rd_idx_q) :
          page_word({c_mem, c_wr, c_bank, c_busy, c_hazard, c_idle, c_class, c_tinst, c_winst, c_active,
                     cycle_q}, rd_idx_q);
    end

    // Event queues: pushed on SM clock edges, stamped with the cycle.
    logic mq_valid, mq_full, mq_pop, dq_valid, dq_full, dq_pop, tq_valid, tq_full, tq_pop;

    logic [MD_W-1:0]  mreq_word;
    logic [OQ_CW-1:0] u_ms_count_unused;
    logic             u_ms_in_ready_unused, u_ms_valid_unused, u_ms_full_unused, u_ms_empty_unused;
    assign mreq_word = {mreq_lane, mreq_pc, mreq_warp, mreq_wb, mreq_local, mreq_atom_c, mreq_atom_b,
                        mreq_atom_op, mreq_wdata, mreq_wmask, mreq_size, mreq_addr, mreq_cmd, mreq_tag};

    wg_fifo #(.DEPTH(OUT_DEPTH), .WIDTH(MD_W)) u_mq (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .flush_i    (flush),
      .in_valid_i (step && mreq_valid),
      .in_ready_o (u_mq_in_ready_unused),
      .in_data_i  (mreq_word),
      .out_valid_o(mq_valid),
      .out_ready_i(mq_pop),
      .out_data_o (mq_head[s*MQ_W + 64 +: MD_W]),
      .count_o    (u_mq_count_unused),
      .full_o     (mq_full),
      .empty_o    (u_mq_empty_unused)
    );

    wg_fifo #(.DEPTH(OUT_DEPTH), .WIDTH(64)) u_mq_stamp (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .flush_i    (flush),
      .in_valid_i (step && mreq_valid),
      .in_ready_o (u_ms_in_ready_unused),
      .in_data_i  (cycle_q),
      .out_valid_o(u_ms_valid_unused),
      .out_ready_i(mq_pop),
      .out_data_o (mq_head[s*MQ_W +: 64]),
      .count_o    (u_ms_count_unused),
      .full_o     (u_ms_full_unused),
      .empty_o    (u_ms_empty_unused)
    );

    wg_fifo #(.DEPTH(OUT_DEPTH), .WIDTH(DQ_W)) u_dq (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .flush_i    (flush),
      .in_valid_i (step && done_valid),
      .in_ready_o (u_dq_in_ready_unused),
      .in_data_i  ({done_linear, cycle_q}),
      .out_valid_o(dq_valid),
      .out_ready_i(dq_pop),
      .out_data_o (dq_head[s*DQ_W +: DQ_W]),
      .count_o    (u_dq_count_unused),
      .full_o     (dq_full),
      .empty_o    (u_dq_empty_unused)
    );

    if (RETIRE_EN) begin : g_ret
      logic [OQ_CW-1:0] u_tq_count_unused;
      logic             u_tq_in_ready_unused, u_tq_empty_unused;
      wg_fifo #(.DEPTH(OUT_DEPTH), .WIDTH(TQ_W)) u_tq (
        .clk_i      (clk_i),
        .rst_ni     (rst_ni),
        .flush_i    (flush),
        .in_valid_i (step && ret_valid),
        .in_ready_o (u_tq_in_ready_unused),
        .in_data_i  ({r_data, r_last, r_beat, r_reg, r_dst, r_exec, r_active, r_pc, r_seq, r_wic, r_cta,
                      r_warp, cycle_q}),
        .out_valid_o(tq_valid),
        .out_ready_i(tq_pop),
        .out_data_o (tq_head[s*TQ_W +: TQ_W]),
        .count_o    (u_tq_count_unused),
        .full_o     (tq_full),
        .empty_o    (u_tq_empty_unused)
      );
    end else begin : g_noret
      assign tq_valid = 1'b0;
      assign tq_full  = 1'b0;
      assign tq_head[s*TQ_W +: TQ_W] = '0;
      logic unused_ret;
      assign unused_ret = ^{ret_valid, r_warp, r_reg, r_cta, r_active, r_exec, r_wic, r_seq, r_pc, r_dst,
                            r_beat, r_last, r_data, tq_pop};
    end

    // Fault: sticky in the SM; reported once, with the cycle it was first seen.
    logic        f_seen_q, f_sent_q;
    logic [63:0] f_cycle_q;
    logic        fq_valid, fq_pop;
    always_ff @(posedge clk_i) begin
      if (!rst_ni || flush) begin
        f_seen_q  <= 1'b0;
        f_sent_q  <= 1'b0;
        f_cycle_q <= '0;
      end else begin
        if (fault_vld[s] && sm_rst_n && !f_seen_q) begin
          f_seen_q  <= 1'b1;
          f_cycle_q <= cycle_q;
        end
        if (fq_pop) f_sent_q <= 1'b1;
      end
    end
    assign fq_valid = f_seen_q && !f_sent_q;
    assign fault_seen[s] = f_seen_q;
    assign fq_head[s*FQ_W +: FQ_W] = {f_cta, f_addr, f_lane, f_pc, f_warp, f_code, f_cycle_q};

    // Kind order within an SM: fault, done, memory request, retire beat.
    always_comb begin
      has_ev[s] = fq_valid || dq_valid || mq_valid || tq_valid;
      sm_kind[s*3 +: 3] = fq_valid ? EV_FAULT : dq_valid ? EV_DONE : mq_valid ? EV_MREQ : EV_RETIRE;
    end
    // The kind offered (ev_kind_o, held while the event waits) is the one taken.
    assign fq_pop = ev_take[s] && ev_kind_o == EV_FAULT;
    assign dq_pop = ev_take[s] && ev_kind_o == EV_DONE;
    assign mq_pop = ev_take[s] && ev_kind_o == EV_MREQ;
    assign tq_pop = ev_take[s] && ev_kind_o == EV_RETIRE;

    assign room[s]      = !mq_full && !dq_full && !tq_full;
    assign empty_all[s] = !has_ev[s];
  end

  assign out_room  = &room;
  assign rq_fresh_any = |rq_fresh;
  // Registered: no SM output reaches the SMs' inputs within a cycle (the SMs may be opaque
  // hierarchical blocks to Verilator). Target time stops one cycle after the faulting one.
  assign fault_any = |fault_seen;

  // ---------------------------------------------------------------------------
  // Event output: error, counters, then the SMs round robin, then REACHED. An event offered
  // stays offered, unchanged, until it is taken (valid/ready): the source and kind chosen in
  // its first cycle are kept (an error, counters or a fault that comes up meanwhile waits),
  // the arbiter's grant is locked, and a GRANT waits while REACHED is offered. The link
  // engine copies the event a word per cycle from the port and takes it with the last word.
  // ---------------------------------------------------------------------------
  localparam logic [1:0] SRC_ERR = 2'd0, SRC_CNT = 2'd1, SRC_SM = 2'd2, SRC_REACHED = 2'd3;
  logic              sm_gnt_valid, cnt_take, err_take, reached_take, sm_slot;
  logic [NUM_SMS-1:0] sm_gnt;
  logic [SM_W-1:0]   sm_idx;
  logic [7:0]        cnt_sm_q;
  logic [63:0]       cnt_cycle_q;
  logic              reached_ok;
  logic              held_q;             // an event was offered and not taken at the last edge
  logic [1:0]        held_src_q, src;    // its source; the source offered now
  logic [2:0]        held_kind_q;        // its kind

  assign reached_ok   = reached_pend_q && !run && (cycle_q == grant_q) && (&empty_all);
  always_comb begin
    if (held_q)               src = held_src_q;
    else if (err_pend_q)      src = SRC_ERR;
    else if (cnt_pend_q)      src = SRC_CNT;
    else if (sm_gnt_valid)    src = SRC_SM;
    else                      src = SRC_REACHED;
  end
  // The SM arbiter's grant is taken only when it is the source offered.
  assign sm_slot = (src == SRC_SM);

  wg_rr_arbiter #(.N(NUM_SMS)) u_ev_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (has_ev),
    .lock_i  (sm_slot && !ev_ready_i),
    .ready_i (ev_ready_i && sm_slot),
    .valid_o (sm_gnt_valid),
    .gnt_o   (sm_gnt),
    .idx_o   (sm_idx)
  );

  assign ev_valid_o   = held_q || err_pend_q || cnt_pend_q || sm_gnt_valid || reached_ok;
  assign err_take     = ev_ready_i && src == SRC_ERR && err_pend_q;
  assign cnt_take     = ev_ready_i && src == SRC_CNT && cnt_pend_q;
  assign ev_take      = (ev_ready_i && sm_slot) ? sm_gnt : '0;
  assign reached_offer = ev_valid_o && src == SRC_REACHED;
  assign reached_take  = ev_ready_i && reached_offer;

  always_ff @(posedge clk_i) begin
    if (!rst_ni || flush) begin
      held_q      <= 1'b0;
      held_src_q  <= SRC_ERR;
      held_kind_q <= EV_REACHED;
    end else begin
      held_q      <= ev_valid_o && !ev_ready_i;
      held_src_q  <= src;
      held_kind_q <= ev_kind_o;
    end
  end

`ifndef SYNTHESIS
  // The valid/ready rule of the event port: an event offered stays, unchanged, until taken.
  logic [2:0]  pk_kind_q;
  logic [7:0]  pk_sm_q;
  logic [63:0] pk_cycle_q;
  always_ff @(posedge clk_i) begin
    pk_kind_q  <= ev_kind_o;
    pk_sm_q    <= ev_sm_o;
    pk_cycle_q <= ev_cycle_o;
    if (rst_ni && !flush && held_q) begin
      assert (ev_valid_o && ev_kind_o == pk_kind_q && ev_sm_o == pk_sm_q && ev_cycle_o == pk_cycle_q)
        else $error("wg_gpu: event (kind %0d, SM %0d, cycle %0d) withdrawn or changed before it was taken",
                    pk_kind_q, pk_sm_q, pk_cycle_q);
      unique case (held_src_q)
        SRC_ERR:     assert (err_pend_q) else $error("wg_gpu: held ERROR no longer pending");
        SRC_CNT:     assert (cnt_pend_q) else $error("wg_gpu: held COUNTERS no longer pending");
        SRC_SM:      assert (sm_gnt_valid && has_ev[sm_idx]) else $error("wg_gpu: held SM event no longer queued");
        default:     assert (reached_ok) else $error("wg_gpu: held REACHED no longer due");
      endcase
    end
  end
`endif

  logic [MQ_W-1:0] mh;
  logic [DQ_W-1:0] dh;
  logic [FQ_W-1:0] fh;
  logic [TQ_W-1:0] th;
  assign mh = mq_head[sm_idx*MQ_W +: MQ_W];
  assign dh = dq_head[sm_idx*DQ_W +: DQ_W];
  assign fh = fq_head[sm_idx*FQ_W +: FQ_W];
  assign th = tq_head[sm_idx*TQ_W +: TQ_W];

  always_comb begin
    ev_kind_o  = EV_REACHED;
    ev_sm_o    = 8'(sm_idx);
    ev_cycle_o = cycle_q;
    unique case (src)
      SRC_ERR: begin
        ev_kind_o = EV_ERROR;
        ev_sm_o   = '0;
      end
      SRC_CNT: begin
        ev_kind_o  = EV_COUNTERS;
        ev_sm_o    = cnt_sm_q;
        ev_cycle_o = cnt_cycle_q;
      end
      SRC_SM: begin
        ev_kind_o = held_q ? held_kind_q : sm_kind[sm_idx*3 +: 3];
        unique case (ev_kind_o)
          EV_MREQ:  ev_cycle_o = mh[63:0];
          EV_DONE:  ev_cycle_o = dh[63:0];
          EV_FAULT: ev_cycle_o = fh[63:0];
          default:  ev_cycle_o = th[63:0];
        endcase
      end
      default: ev_sm_o = '0;
    endcase
  end

  assign ev_mreq_tag_o     = mh[MQ_TAG +: MEM_TAG_W];
  assign ev_mreq_cmd_o     = mh[MQ_CMD +: 2];
  assign ev_mreq_addr_o    = mh[MQ_ADDR +: 32];
  assign ev_mreq_size_o    = mh[MQ_SIZE +: 3];
  assign ev_mreq_wmask_o   = mh[MQ_WM +: 128];
  assign ev_mreq_wdata_o   = mh[MQ_WD +: 1024];
  assign ev_mreq_atom_op_o = mh[MQ_OP +: 4];
  assign ev_mreq_atom_b_o  = mh[MQ_B +: 32];
  assign ev_mreq_atom_c_o  = mh[MQ_C +: 32];
  assign ev_mreq_local_o   = mh[MQ_LOC];
  assign ev_mreq_wb_o      = mh[MQ_WB];
  assign ev_mreq_warp_o    = mh[MQ_WARP +: 6];
  assign ev_mreq_pc_o      = mh[MQ_PC +: 18];
  assign ev_mreq_lane_o    = mh[MQ_LANE +: 5];
  assign ev_done_linear_o  = dh[64 +: 32];
  assign ev_fault_code_o       = fh[64 +: 4];
  assign ev_fault_warp_o       = fh[68 +: 6];
  assign ev_fault_pc_o         = fh[74 +: 18];
  assign ev_fault_lane_o       = fh[92 +: 5];
  assign ev_fault_addr_o       = fh[97 +: 32];
  assign ev_fault_cta_linear_o = fh[129 +: 32];
  assign ev_ret_warp_o       = th[TQ_WARP +: 6];
  assign ev_ret_cta_linear_o = th[TQ_CTA +: 32];
  assign ev_ret_wic_o        = th[TQ_WIC +: 5];
  assign ev_ret_seq_o        = th[TQ_SEQ +: 16];
  assign ev_ret_pc_o         = th[TQ_PC +: 18];
  assign ev_ret_active_o     = th[TQ_ACT +: 32];
  assign ev_ret_exec_o       = th[TQ_EXEC +: 32];
  assign ev_ret_dst_o        = th[TQ_DST +: 2];
  assign ev_ret_reg_o        = th[TQ_REG +: 6];
  assign ev_ret_beat_o       = th[TQ_BEAT +: 2];
  assign ev_ret_last_o       = th[TQ_LAST];
  assign ev_ret_data_o       = th[TQ_DATA +: 1024];
  assign ev_busy_o     = busy;
  assign ev_cnt_o      = pgs_q;
  assign ev_err_code_o = err_code_q;

  // ---------------------------------------------------------------------------
  // Counter pages (docs/gpu.md section 4.3): one reader for all SMs, into one snapshot
  // register, while target time stands, a 32-bit word per link cycle. Pages 0 and 1 read
  // word i of the SM's counters (cw_all) in link cycle i; a power-gating page the SM's
  // combinational counter port at rd_base + i / 2, the low word, then the high (52 cycles
  // each); a histogram page reads bin rd_base + i with the edge of the SM's histogram clock
  // at the end of link cycle i and takes it one cycle later (53 cycles).
  // ---------------------------------------------------------------------------
  logic [CNT_W-1:0] pgs_q;             // the snapshot: every page (COUNTERS' ev_cnt_o)
  logic             rd_done;
  logic [63:0]      rd_val;            // a power-gating page's counter (64 bits)
  logic [31:0]      rd_bin, rd_word;   // a histogram bin; the word of a counter page

  assign pg_page   = cmd_addr_i[31:12] == 20'(PAGE_PG);
  assign hist_page = cmd_addr_i[31:12] == 20'(PAGE_HIST);
  assign main_page = cmd_addr_i == 32'd0;
  assign exec_page = cmd_addr_i == 32'd1;
  assign pgw_any   = |pgw;
  assign rd_addr   = rd_base_q + 12'(rd_idx_q[5:1]);  // each counter for two link cycles
  assign rd_haddr  = 16'(rd_base_q) + 16'(rd_idx_q);

  always_comb begin
    rd_val  = '0;
    rd_word = '0;
    for (int s = 0; s < 32'(NUM_SMS); s++) begin
      rd_val  = rd_val | pg_rd_all[s*64 +: 64];
      rd_word = rd_word | cw_all[s*32 +: 32];
    end
    if (!rd_cnt_q && rd_addr == PG_SKIP_ADDR) rd_val = 64'(skip_all[rd_sm_q*48 +: 48]);
    // a power-gating page: the counter's low word in the even cycle, its high word in the odd
    if (!rd_cnt_q) rd_word = rd_idx_q[0] ? rd_val[63:32] : rd_val[31:0];
    // the bin read at the previous edge (address rd_haddr - 1); past the last unit: 0
    rd_bin = (32'(rd_haddr) - 32'd1 < HIST_ADDRS) ? pg_hd_all[rd_sm_q*32 +: 32] : 32'd0;
  end
  assign rd_done = rd_act_q && (rd_hist_q ? 32'(rd_idx_q) == HIST_VALS : 32'(rd_idx_q) == HIST_VALS - 1);

  always_ff @(posedge clk_i) begin
    if (!rst_ni || flush) begin
      rd_act_q  <= 1'b0;
      rd_hist_q <= 1'b0;
      rd_cnt_q  <= 1'b0;
      rd_exec_q <= 1'b0;
      rd_sm_q   <= '0;
      rd_base_q <= '0;
      rd_idx_q  <= '0;
    end else if (cnt_capture && (pg_page || hist_page || main_page || exec_page)) begin
      rd_act_q  <= 1'b1;
      rd_hist_q <= hist_page;
      rd_cnt_q  <= main_page || exec_page;
      rd_exec_q <= exec_page;
      rd_sm_q   <= SM_W'(cmd_sm_i);
      rd_base_q <= cmd_addr_i[11:0];
      rd_idx_q  <= '0;
    end else if (rd_act_q) begin
      rd_idx_q <= rd_idx_q + 6'd1;
      if (rd_done) rd_act_q <= 1'b0;
    end
  end

  // The snapshot: cleared by an undefined page (it reads 0), shifted by a 32-bit word per
  // cycle of a page read, so that each bit but the top word's only loads its neighbour (a
  // flip-flop with an enable and a synchronous reset, no LUT). A CNT_READ is accepted only
  // while no page is read (cmd_ready_o), so the clear and the shift never meet.
  logic pgs_clr, pgs_shift;
  assign pgs_clr   = cnt_capture && !(pg_page || hist_page || main_page || exec_page);
  assign pgs_shift = rd_act_q && (!rd_hist_q || rd_idx_q != '0);
  always_ff @(posedge clk_i) begin
    if (!rst_ni || flush || pgs_clr) pgs_q <= '0;
    else if (pgs_shift)              pgs_q <= {rd_hist_q ? rd_bin : rd_word, pgs_q[CNT_W-1:32]};
  end

  // ---------------------------------------------------------------------------
  // State.
  // ---------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (!rst_ni || flush) begin
      cycle_q        <= '0;
      grant_q        <= '0;
      rst_cnt_q      <= 3'(RST_CYCLES);
      err_q          <= 1'b0;
      err_pend_q     <= 1'b0;
      err_code_q     <= '0;
      reached_pend_q <= 1'b0;
      cnt_pend_q     <= 1'b0;
      cnt_sm_q       <= '0;
      cnt_cycle_q    <= '0;
    end else begin
      if (rst_cnt_q != '0) rst_cnt_q <= rst_cnt_q - 3'd1;
      if (step) cycle_q <= cycle_q + 64'd1;
      if (cmd_fire && cmd_err != '0 && !err_q) begin
        err_q      <= 1'b1;
        err_pend_q <= 1'b1;
        err_code_q <= cmd_err;
      end
      if (err_take) err_pend_q <= 1'b0;
      if (cmd_fire && cmd_op_i == OP_GRANT && cmd_err == '0) begin
        grant_q        <= cmd_at_i;
        reached_pend_q <= 1'b1;
      end else if (reached_take) begin
        reached_pend_q <= 1'b0;
      end
      if (cmd_fire && cmd_op_i == OP_CNT_READ && cmd_err == '0) begin
        cnt_pend_q  <= !(pg_page || hist_page || main_page || exec_page);  // a page: when read
        cnt_sm_q    <= cmd_sm_i;
        cnt_cycle_q <= cycle_q;
      end else if (rd_done) begin
        cnt_pend_q <= 1'b1;
      end else if (cnt_take) begin
        cnt_pend_q <= 1'b0;
      end
    end
  end

  assign cycle_o   = cycle_q;
  assign grant_o   = grant_q;
  // Something moves without a command: target time, or SM edges outside it (power-gating
  // sweeps and closes), or histogram-clock edges (histogram pages), or a response queue's
  // head read (rq_fresh). A top may skip the cycles where this and every other sign of
  // activity are low (sim/wggpu.cpp, wg_board_core).
  assign running_o = run || pgw_any || rd_act_q || rq_fresh_any;
  assign error_o   = err_q;

`ifndef SYNTHESIS
  // A grant never moves back; target time never passes the grant.
  always_ff @(posedge clk_i) begin
    if (rst_ni && !flush) begin
      assert (cycle_q <= grant_q || !sm_rst_n)
        else $error("wg_gpu: cycle %0d passed the grant %0d", cycle_q, grant_q);
      assert (!(step && !gpu_ctrl_q && sm_tick != '1))
        else $error("wg_gpu: a target cycle without an edge of every SM clock (idle gating off)");
    end
  end
`endif

endmodule
