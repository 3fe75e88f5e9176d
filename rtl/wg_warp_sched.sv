// wg_warp_sched: one warp scheduler (docs/sm-pipeline.md): the instruction
// buffers, scoreboard and predicate file of its warps (global warp slots
// w = l * NUM_SIMD + cid_i, l = 0 .. NW-1), and the issue stage.
//
// The scheduler is pipelined (DESIGN.md section 8): the ready mask is
// registered, so a cycle's pick does not depend on that cycle's scoreboard
// update. The warp issued in the previous cycle is masked out (its
// registered ready bit still describes the instruction that just left).
//   SC  ready_q: buffer head valid, no scoreboard hazard; BAR.SYNC and MEMBAR
//       wait until the warp's earlier instructions retired and its memory
//       requests were answered (so shared and global accesses are performed)
//   IS  pick (LRR: round robin; GTO: the warps of the last two issues while
//       they are ready, else the lowest warp slot, the oldest as slots are
//       allocated from the bottom), read the guard predicate, form the execution mask, set the
//       scoreboard, execute PLOP, request SIMT / barrier actions, and pass
//       the instruction to the execution pipeline (wg_exec_pipe)
`default_nettype none

module wg_warp_sched #(
  parameter int unsigned NUM_WARPS = 48,
  parameter int unsigned NUM_SIMD  = 2,
  parameter int unsigned IB_DEPTH  = 2,
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1,
  parameter int unsigned NW     = NUM_WARPS / NUM_SIMD,
  parameter int unsigned LW_W   = (NW > 1) ? $clog2(NW) : 1,
  parameter int unsigned UOP_W  = wg_sm_pkg::UOP_W
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,
  input  wire logic [WARP_W-1:0]        cid_i,          // this scheduler's index
  input  wire logic                     sched_gto_i,
  input  wire logic                     halt_i,         // no issue (CTRL halt, fault, launch clear)

  // Instruction buffer write (from fetch; taken when the warp is ours).
  input  wire logic                     ib_valid_i,
  input  wire logic [WARP_W-1:0]        ib_warp_i,
  input  wire logic [UOP_W-1:0]         ib_uop_i,

  // Warp launch: empty buffers, nothing pending, predicates cleared.
  input  wire logic                     init_valid_i,
  input  wire logic [WARP_W-1:0]        init_warp_i,

  input  wire logic [NUM_WARPS*32-1:0]  act_i,          // SIMT active masks
  input  wire logic [NUM_WARPS-1:0]     quiet_i,        // nothing in flight, no memory request outstanding

  // Write-back from the execution pipeline.
  input  wire logic                     wb_valid_i,     // SIMD / control instruction completes
  input  wire logic [WARP_W-1:0]        wb_warp_i,
  input  wire logic [63:0]              wb_rmask_i,
  input  wire logic [7:0]               wb_pmask_i,
  input  wire logic                     wb_pwr_i,       // writes predicate wb_preg_i
  input  wire logic [2:0]               wb_preg_i,
  input  wire logic [31:0]              wb_pval_i,      // new predicate lanes
  input  wire logic [31:0]              wb_pexec_i,     // lanes written
  input  wire logic                     lwb_valid_i,    // load beat written
  input  wire logic [WARP_W-1:0]        lwb_warp_i,
  input  wire logic [5:0]               lwb_reg_i,

  // Issue to the execution pipeline.
  output logic                          is_valid_o,
  input  wire logic                     is_ready_i,
  output logic [WARP_W-1:0]             is_warp_o,
  output logic [UOP_W-1:0]              is_uop_o,
  output logic [31:0]                   is_active_o,
  output logic [31:0]                   is_exec_o,
  output logic [15:0]                   is_seq_o,
  output logic [31:0]                   is_psel_o,      // SEL predicate lanes (negation applied)
  output logic [31:0]                   is_pval_o,      // PLOP: predicate lanes written (AND exec)

  // To fetch: buffer pop (credit).
  output logic                          pop_valid_o,
  output logic [WARP_W-1:0]             pop_warp_o,

  // To the SIMT stack and the barrier unit.
  output logic                          simt_valid_o,
  output logic [WARP_W-1:0]             simt_warp_o,
  output logic [1:0]                    simt_op_o,
  output logic                          simt_park_o,
  output logic [17:0]                   simt_pc_o,
  output logic [31:0]                   simt_exec_o,
  output logic [17:0]                   simt_target_o,
  output logic [17:0]                   simt_reconv_o,
  output logic                          bar_valid_o,
  output logic [WARP_W-1:0]             bar_warp_o,
  output logic [3:0]                    bar_id_o,

  // Illegal instruction at issue.
  output logic                          fault_o,
  output logic [WARP_W-1:0]             fault_warp_o,
  output logic [17:0]                   fault_pc_o,

  // Statistics (per cycle).
  output logic                          st_issue_o,
  output logic [3:0]                    st_cls_o,
  output logic [5:0]                    st_threads_o,
  output logic                          st_idle_o,      // no warp has an instruction
  output logic                          st_hazard_o,    // instructions wait only on the scoreboard
  output logic                          st_busy_o       // a warp was ready, the pipeline was not
);

  localparam int unsigned IBP_W = (IB_DEPTH > 1) ? $clog2(IB_DEPTH) : 1;
  localparam int unsigned IBC_W = $clog2(IB_DEPTH + 1);

  function automatic logic [LW_W-1:0] loc(input logic [WARP_W-1:0] w);
    loc = LW_W'(32'(w) / NUM_SIMD);
  endfunction
  function automatic logic mine(input logic [WARP_W-1:0] w, input logic [WARP_W-1:0] cid);
    mine = (32'(w) % NUM_SIMD) == 32'(cid);
  endfunction
  function automatic logic [WARP_W-1:0] glob(input logic [LW_W-1:0] l, input logic [WARP_W-1:0] cid);
    glob = WARP_W'(32'(l) * NUM_SIMD + 32'(cid));
  endfunction

  // ---------------------------------------------------------------------------
  // Instruction buffers.
  // ---------------------------------------------------------------------------
  logic [UOP_W-1:0] ib_q   [NW*IB_DEPTH];
  logic [IBP_W-1:0] ib_rd_q [NW];
  logic [IBP_W-1:0] ib_wr_q [NW];
  logic [IBC_W-1:0] ib_cnt_q [NW];
  logic [NW-1:0]    ib_nonempty;
  logic [NW*64-1:0] head_rmask;
  logic [NW*8-1:0]  head_pmask;
  logic [NW-1:0]    head_fence;

  // Head fields by position (uop_t: op in the top bits, rmask and pmask at the bottom).
  always_comb begin
    for (int i = 0; i < 32'(NW); i++) begin
      ib_nonempty[i] = (ib_cnt_q[i] != '0);
      head_rmask[i*64 +: 64] = ib_q[i*IB_DEPTH + 32'(ib_rd_q[i])][71:8];
      head_pmask[i*8 +: 8]   = ib_q[i*IB_DEPTH + 32'(ib_rd_q[i])][7:0];
      head_fence[i] = (ib_q[i*IB_DEPTH + 32'(ib_rd_q[i])][UOP_W-1 -: 6] == wg_isa_pkg::OP_MEMBAR) ||
                      (ib_q[i*IB_DEPTH + 32'(ib_rd_q[i])][UOP_W-1 -: 6] == wg_isa_pkg::OP_BAR);
    end
  end

  logic              ibw;
  logic [LW_W-1:0]   ibw_l;
  assign ibw   = ib_valid_i && mine(ib_warp_i, cid_i);
  assign ibw_l = loc(ib_warp_i);

  // ---------------------------------------------------------------------------
  // Scoreboard and ready mask.
  // ---------------------------------------------------------------------------
  logic [NW-1:0] hazard, sb_empty;
  logic [NW-1:0] ready_q, last_q, memok;
  logic [NW-1:0] cand;

  always_comb begin
    for (int i = 0; i < 32'(NW); i++) memok[i] = !head_fence[i] || quiet_i[glob(LW_W'(i), cid_i)];
  end

  // Issue stage signals.
  logic            is_fire, pick_valid;
  logic [LW_W-1:0] pick_l;
  logic [NW-1:0]   pick_oh;
  wg_sm_pkg::uop_t u;
  logic [WARP_W-1:0] pick_w;

  // Scoreboard set of the issued instruction.
  logic [63:0] set_rmask;
  logic [7:0]  set_pmask;
  logic        is_setp;

  wg_scoreboard #(.NW(NW)) u_sb (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .set_valid_i   (is_fire),
    .set_warp_i    (pick_l),
    .set_rmask_i   (set_rmask),
    .set_pmask_i   (set_pmask),
    .clr_a_valid_i (wb_valid_i && mine(wb_warp_i, cid_i)),
    .clr_a_warp_i  (loc(wb_warp_i)),
    .clr_a_rmask_i (wb_rmask_i),
    .clr_a_pmask_i (wb_pmask_i),
    .clr_b_valid_i (lwb_valid_i && mine(lwb_warp_i, cid_i)),
    .clr_b_warp_i  (loc(lwb_warp_i)),
    .clr_b_rmask_i (64'd1 << lwb_reg_i),
    .init_valid_i  (init_valid_i && mine(init_warp_i, cid_i)),
    .init_warp_i   (loc(init_warp_i)),
    .head_rmask_i  (head_rmask),
    .head_pmask_i  (head_pmask),
    .hazard_o      (hazard),
    .empty_o       (sb_empty)
  );

  assign cand = ready_q & ~last_q;

  // LRR: round robin. GTO: the last issued warp, else the lowest slot.
  logic              rr_valid;
  logic [NW-1:0]     rr_gnt;
  logic [LW_W-1:0]   rr_idx, gto_idx, greedy_q, gprev_q;
  logic              gto_valid;

  wg_rr_arbiter #(.N(NW)) u_rr (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (cand),
    .lock_i  (1'b0),
    .ready_i (is_fire && !sched_gto_i),
    .valid_o (rr_valid),
    .gnt_o   (rr_gnt),
    .idx_o   (rr_idx)
  );

  always_comb begin
    gto_valid = (cand != '0);
    gto_idx   = '0;
    for (int i = 32'(NW) - 1; i >= 0; i--) begin
      if (cand[i]) gto_idx = LW_W'(i);
    end
    // Greedy: the warps issued in the last two issues keep priority while
    // ready (the last one is masked for a cycle, so the two alternate).
    if (cand[gprev_q]) gto_idx = gprev_q;
    if (cand[greedy_q]) gto_idx = greedy_q;
  end

  assign pick_valid = sched_gto_i ? gto_valid : rr_valid;
  assign pick_l     = sched_gto_i ? gto_idx : rr_idx;
  assign pick_w     = glob(pick_l, cid_i);
  assign u          = ib_q[32'(pick_l)*IB_DEPTH + 32'(ib_rd_q[pick_l])];
  assign is_fire    = pick_valid && is_ready_i && !halt_i;
  assign pick_oh    = is_fire ? (NW'(1) << pick_l) : '0;

  // ---------------------------------------------------------------------------
  // Predicate file.
  // ---------------------------------------------------------------------------
  // Two LUT RAMs of NW x 8 words, one per write port (SETP write-back, PLOP at issue); per
  // word a bit naming the RAM written last (lvt_q) and a bit saying it was written since the
  // warp's launch (pv_q: an unwritten predicate reads 0, so a launch clears a warp's eight at
  // once). A write merges its lanes into the word's current value (read at the write's
  // address). As flip-flops with five 32:1 read multiplexers and two merging write ports the
  // file was about half the scheduler's LUTs (docs/fpga.md section 3.2).
  localparam int unsigned PW   = NW * 8;
  localparam int unsigned PA_W = $clog2(PW);
  (* ram_style = "distributed" *) logic [31:0] pram_wb_q [PW];
  (* ram_style = "distributed" *) logic [31:0] pram_pl_q [PW];
  logic [PW-1:0] lvt_q, pv_q;

  function automatic logic [PA_W-1:0] paddr(input logic [LW_W-1:0] l, input logic [2:0] n);
    paddr = PA_W'(32'(l) * 8 + 32'(n));
  endfunction

  // The current value of predicate word a.
  function automatic logic [31:0] pget(input logic valid, input logic last_pl,
                                       input logic [31:0] v_wb, input logic [31:0] v_pl);
    pget = !valid ? 32'd0 : last_pl ? v_pl : v_wb;
  endfunction

  function automatic logic [31:0] prd(input logic [31:0] p, input logic [2:0] n);
    prd = (n == 3'd7) ? 32'hFFFF_FFFF : p;
  endfunction

  logic [PA_W-1:0] a_g, a_c, a_a, a_wb, a_pl;
  logic [31:0]     p_g, p_c, p_a, p_wb, p_pl;
  assign a_g  = paddr(pick_l, u.gp);
  assign a_c  = paddr(pick_l, u.rc[2:0]);
  assign a_a  = paddr(pick_l, u.ra[2:0]);
  assign a_wb = paddr(loc(wb_warp_i), wb_preg_i);
  assign a_pl = paddr(pick_l, u.rd[2:0]);
  assign p_g  = pget(pv_q[a_g], lvt_q[a_g], pram_wb_q[a_g], pram_pl_q[a_g]);
  assign p_c  = pget(pv_q[a_c], lvt_q[a_c], pram_wb_q[a_c], pram_pl_q[a_c]);
  assign p_a  = pget(pv_q[a_a], lvt_q[a_a], pram_wb_q[a_a], pram_pl_q[a_a]);
  assign p_wb = pget(pv_q[a_wb], lvt_q[a_wb], pram_wb_q[a_wb], pram_pl_q[a_wb]);
  assign p_pl = pget(pv_q[a_pl], lvt_q[a_pl], pram_wb_q[a_pl], pram_pl_q[a_pl]);

  logic [31:0] guard, active, exec, psel, pa, pc2, pres;
  assign active = act_i[pick_w*32 +: 32];
  assign guard  = prd(p_g, u.gp) ^ {32{u.gneg}};
  assign exec   = active & guard;
  assign psel   = prd(p_c, u.rc[2:0]) ^ {32{u.rc[3]}};
  assign pa     = prd(p_a, u.ra[2:0]) ^ {32{u.ra[3]}};
  assign pc2    = psel;
  always_comb begin
    case (u.mod)
      3'd0:    pres = pa & pc2;
      3'd1:    pres = pa | pc2;
      default: pres = pa ^ pc2;
    endcase
  end

  logic is_plop, is_bra, is_exit, is_bar;
  assign is_plop = (u.op == wg_isa_pkg::OP_PLOP);
  assign is_bra  = (u.op == wg_isa_pkg::OP_BRA);
  assign is_exit = (u.op == wg_isa_pkg::OP_EXIT);
  assign is_bar  = (u.op == wg_isa_pkg::OP_BAR);
  assign is_setp = u.wr_pd && !is_plop;

  always_comb begin
    logic [2:0] nwr4;
    // Only the destinations become pending.
    // Register j is a destination when it is rd + k (mod 64) for some k below nwr (at most
    // 4): a compare per register (a write at a run-time position per k was a shifter each
    // in yosys: 0.7k LUTs more per scheduler, docs/fpga.md section 3.7).
    nwr4 = (u.nwr > 3'd4) ? 3'd4 : u.nwr;
    for (int j = 0; j < 64; j++) set_rmask[j] = (6'(j) - u.rd) < 6'(nwr4);
    set_pmask = '0;
    if (is_setp) set_pmask[u.rd[2:0]] = 1'b1;
  end

  // ---------------------------------------------------------------------------
  // State updates.
  // ---------------------------------------------------------------------------
  logic [15:0] seq_q [NW];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ready_q  <= '0;
      last_q   <= '0;
      greedy_q <= '0;
      gprev_q  <= '0;
      for (int i = 0; i < 32'(NW); i++) ib_cnt_q[i] <= '0;
    end else begin
      ready_q <= ib_nonempty & ~hazard & memok & ~pick_oh;
      last_q  <= pick_oh;
      if (is_fire) begin
        greedy_q <= pick_l;
        gprev_q  <= greedy_q;
      end
      // Buffer counts: a pop and a push of one warp may coincide; a launch
      // clears (the later assignment wins). Only the warps named are written
      // (no loop over all warps every cycle).
      if (is_fire) ib_cnt_q[pick_l] <= (ibw && ibw_l == pick_l) ? ib_cnt_q[pick_l] : ib_cnt_q[pick_l] - 1'b1;
      if (ibw && !(is_fire && pick_l == ibw_l)) ib_cnt_q[ibw_l] <= ib_cnt_q[ibw_l] + 1'b1;
      if (init_valid_i && mine(init_warp_i, cid_i)) ib_cnt_q[loc(init_warp_i)] <= '0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (ibw) begin
      ib_q[32'(ibw_l)*IB_DEPTH + 32'(ib_wr_q[ibw_l])] <= ib_uop_i;
      ib_wr_q[ibw_l] <= (32'(ib_wr_q[ibw_l]) == IB_DEPTH - 1) ? '0 : ib_wr_q[ibw_l] + 1'b1;
    end
    if (is_fire) begin
      ib_rd_q[pick_l] <= (32'(ib_rd_q[pick_l]) == IB_DEPTH - 1) ? '0 : ib_rd_q[pick_l] + 1'b1;
      seq_q[pick_l]   <= seq_q[pick_l] + 16'd1;
    end
    if (init_valid_i && mine(init_warp_i, cid_i)) begin
      ib_rd_q[loc(init_warp_i)] <= '0;
      ib_wr_q[loc(init_warp_i)] <= '0;
      seq_q[loc(init_warp_i)]   <= '0;
    end
  end

  // Predicates: SETP write-back, PLOP at issue (both may come in one cycle; PLOP's is the
  // later write of a word both write), clear at launch (wins over both).
  logic pw_wb, pw_pl;
  assign pw_wb = wb_valid_i && wb_pwr_i && mine(wb_warp_i, cid_i);
  assign pw_pl = is_fire && is_plop && u.rd[2:0] != 3'd7;

  always_ff @(posedge clk_i) begin
    if (pw_wb) pram_wb_q[a_wb] <= (p_wb & ~wb_pexec_i) | (wb_pval_i & wb_pexec_i);
    if (pw_pl) pram_pl_q[a_pl] <= (p_pl & ~exec) | (pres & exec);
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pv_q <= '0;
    end else begin
      if (pw_wb) begin
        pv_q[a_wb]  <= 1'b1;
        lvt_q[a_wb] <= 1'b0;
      end
      if (pw_pl) begin
        pv_q[a_pl]  <= 1'b1;
        lvt_q[a_pl] <= 1'b1;
      end
      if (init_valid_i && mine(init_warp_i, cid_i)) begin
        for (int p = 0; p < 8; p++) pv_q[paddr(loc(init_warp_i), 3'(p))] <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Outputs.
  // ---------------------------------------------------------------------------
  assign is_valid_o  = pick_valid && !halt_i;
  assign is_warp_o   = pick_w;
  assign is_uop_o    = u;
  assign is_active_o = active;
  assign is_exec_o   = exec;
  assign is_seq_o    = seq_q[pick_l];
  assign is_psel_o   = psel;
  assign is_pval_o   = pres & exec;

  assign pop_valid_o = is_fire;
  assign pop_warp_o  = pick_w;

  // Control: BRA, EXIT and BAR go to the SIMT stack; so does an instruction
  // whose successor is the reconvergence pc (ADV). A BAR with lanes parks its
  // ADV until the barrier releases the warp.
  assign simt_valid_o  = is_fire && !u.illegal && (is_bra || is_exit || is_bar || u.adv);
  assign simt_warp_o   = pick_w;
  assign simt_op_o     = is_bra ? wg_sm_pkg::SIMT_BRA : is_exit ? wg_sm_pkg::SIMT_EXIT : wg_sm_pkg::SIMT_ADV;
  assign simt_park_o   = is_bar && (exec != '0);
  assign simt_pc_o     = u.pc;
  assign simt_exec_o   = exec;
  assign simt_target_o = u.imm[17:0];
  assign simt_reconv_o = u.reconv;
  assign bar_valid_o   = is_fire && !u.illegal && is_bar && (exec != '0);
  assign bar_warp_o    = pick_w;
  assign bar_id_o      = u.imm[3:0];

  assign fault_o      = is_fire && u.illegal;
  assign fault_warp_o = pick_w;
  assign fault_pc_o   = u.pc;

  assign st_issue_o   = is_fire;
  assign st_cls_o     = u.cls;
  assign st_threads_o = 6'($countones(exec));
  assign st_idle_o    = (ib_nonempty == '0);
  assign st_hazard_o  = !pick_valid && ((ib_nonempty & hazard) != '0);
  assign st_busy_o    = pick_valid && !is_ready_i;

  logic unused_ok;
  assign unused_ok = ^{rr_gnt, sb_empty};

endmodule
