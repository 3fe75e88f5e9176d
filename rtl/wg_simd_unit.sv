// wg_simd_unit: one SIMD unit of the SM: SIMD_WIDTH lanes, each an integer ALU
// (wg_int_alu) and, with HAS_FP, an FP32 unit (wg_fp32_unit), each behind its power-
// gating wrapper (wg_pg_cell). docs/simd-unit.md describes it in full.
//
// A warp instruction (32 threads) runs in PASSES = 32 / SIMD_WIDTH passes: thread t
// runs on lane t mod SIMD_WIDTH in pass t / SIMD_WIDTH. The unit takes one instruction
// every PASSES cycles (in_ready_o is low for the PASSES - 1 cycles after a transfer)
// and is pipelined: the result row of an instruction accepted in cycle t (in_valid_i
// && in_ready_o) is on out_data_o / out_pred_o with out_valid_o in cycle t + LATENCY,
//   LATENCY = PASSES + wg_fp32_pkg::FP32_LATENCY + 1 + (DIRECT ? 0 : 1),
// the same for every operation (integer results are delayed to match the FP unit), so
// the SM can reserve its write-back slot at issue.
//
// DIRECT (default 1): pass 0 is loaded straight from the input rows in the transfer
// cycle, passes 1.. from the pass buffer. With DIRECT = 0 every pass is loaded from the
// pass buffer, pass p in cycle t+1+p: one cycle more of latency, the same throughput (the
// next instruction is taken in the cycle the last pass loads), and one 32:1 operand
// selection per lane and operand fewer (docs/fpga.md section 3.6: a third of the unit's
// own logic at 4 lanes). The timing below is that of DIRECT = 1; with 0 add a cycle. There is no output backpressure;
// the out_* outputs are meaningful only while out_valid_o is high, and out_data_o /
// out_pred_o only for the threads in out_mask_o (the instruction's execution mask).
//
// Timing of one instruction accepted in cycle t:
//   cycle t+p      pass p is loaded into the lanes' operand registers (p = 0: straight
//                  from the inputs; p > 0: from the pass buffer filled at t)
//   cycle t+p+1    pass p computes: lane_busy_o shows the lanes that work; integer
//                  results enter a FP32_LATENCY-stage delay, FP operations the FP unit
//   cycle t+p+1+FP32_LATENCY   the lanes' results of pass p are written into the
//                  output row
//   cycle t+LATENCY            out_valid_o (after the last pass, p = PASSES - 1)
//
// Operand isolation: a lane whose thread is not in the execution mask in a pass gets
// no valid and its operand registers do not load, so its datapath does not toggle.
// lane_busy_o marks the lanes that compute in the current cycle, for the
// power-gating measurements. A lane with lane_en_i = 0 is asleep: its wrapper blocks
// its input and clamps its outputs. The SM must not give work to a sleeping lane nor
// put a lane to sleep while it has work in flight (assertions in wg_pg_cell).
//
// Power-gating modes, sampled with each instruction (docs/power-gating.md section 3):
// in_split_i runs it on the lower half of the lanes in twice the passes (warp splitting);
// in_compact_i packs its active threads onto the lowest lanes in use, in thread order
// (wg_compact), in max(1, ceil(active / lanes in use)) passes. In general an instruction
// takes P passes (32 / lanes in use, or fewer with compaction), occupies the unit P cycles
// and comes out P + FP32_LATENCY + 1 cycles after its transfer (wg_sm_pkg::simd_passes
// gives P); with both modes off P = PASSES and LATENCY is as above. Results are in thread
// order whatever the modes.
//
// With HAS_FP = 0 there is no FP unit: FP opcodes give result 0 and predicate 0
// (the SM treats them as illegal). ISETP / FSETP set out_pred_o; for other operations
// the predicate bits are 0.
`default_nettype none

module wg_simd_unit #(
  parameter int unsigned SIMD_WIDTH = 16,
  parameter bit          HAS_FP     = 1'b1,
  parameter int unsigned TAG_W      = 8,
  parameter bit          DIRECT     = 1'b1    // pass 0 from the input rows (0: from the buffer)
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,

  input  wire logic                  in_valid_i,
  output logic                       in_ready_o,
  input  wire logic [5:0]            in_op_i,
  input  wire logic [2:0]            in_mod_i,
  input  wire logic [TAG_W-1:0]      in_tag_i,
  input  wire logic [31:0]           in_exec_i,
  input  wire logic [1023:0]         in_a_i,
  input  wire logic [1023:0]         in_b_i,
  input  wire logic [1023:0]         in_c_i,
  input  wire logic [31:0]           in_psel_i,
  input  wire logic                  in_split_i,     // warp splitting: lanes 0..W/2-1 only
  input  wire logic                  in_compact_i,   // thread compaction (wg_compact)

  input  wire logic [SIMD_WIDTH-1:0] lane_en_i,

  output logic                       out_valid_o,
  output logic      [TAG_W-1:0]      out_tag_o,
  output logic      [1023:0]         out_data_o,
  output logic      [31:0]           out_pred_o,
  output logic      [31:0]           out_mask_o,
  output logic      [SIMD_WIDTH-1:0] lane_busy_o,
  output logic      [SIMD_WIDTH-1:0] lane_work_o   // lane holds work (operand registers or a stage)
);

  localparam int unsigned W       = SIMD_WIDTH;
  localparam int unsigned PASSES  = 32 / SIMD_WIDTH;
  localparam bit          SPLIT_OK = (SIMD_WIDTH >= 2);
  localparam int unsigned HW      = SPLIT_OK ? SIMD_WIDTH / 2 : 1;   // lanes in use when split
  localparam int unsigned MAXP    = SPLIT_OK ? 2 * PASSES : PASSES;  // passes at most
  localparam int unsigned FP_LAT  = wg_fp32_pkg::FP32_LATENCY;
  localparam int unsigned LD_LAT  = DIRECT ? 0 : 1;  // cycles from the transfer to pass 0's load
  localparam int unsigned LAT_MAX = MAXP + FP_LAT + 1 + LD_LAT;
  localparam int unsigned Q0      = DIRECT ? 1 : 0;  // the first pass loaded from the buffer
  localparam int unsigned PASS_W  = $clog2(MAXP);
  localparam int unsigned ROW_W   = W * 32;  // operand bits of one pass
  localparam int unsigned ISO_W   = 35;      // isolated lane outputs: busy, valid, pred, data

  if (SIMD_WIDTH == 0 || SIMD_WIDTH > 32 || PASSES * SIMD_WIDTH != 32) begin : g_width_check
    $error("wg_simd_unit: SIMD_WIDTH must divide 32");
  end
  if (FP_LAT < 1) begin : g_fp_lat_check
    $error("wg_simd_unit: the integer delay needs FP32_LATENCY >= 1");
  end

  // ---- Schedule of the offered instruction (wg_compact) -----------------------------------
  // Slot k of the instruction runs in pass k / W' on lane k mod W' (W' = W, or W / 2 split);
  // without compaction thread t is in slot t.
  logic              in_split;
  logic [31:0]       c_mask, c_psel;
  logic [5:0]        c_passes;
  logic [159:0]      c_thr;
  logic [1023:0]     out_data_q;
  logic [31:0]       out_pred_q, out_mask_q;

  assign in_split = in_split_i && SPLIT_OK;

  wg_compact #(.LANES(W)) u_cmp (
    .en_i        (in_compact_i),
    .half_i      (in_split),
    .mask_i      (in_exec_i),
    .bits_i      (in_psel_i),
    .slot_mask_o (c_mask),
    .passes_o    (c_passes),
    .slot_thr_o  (c_thr),
    .bits_o      (c_psel)
  );

  // The lanes of a pass: slots [first, first + W) (split: the lower W / 2 lanes only).
  function automatic logic [W-1:0] pass_bits(input logic [31:0] m, input logic split, input int q);
    pass_bits = '0;
    for (int l = 0; l < 32'(W); l++) begin
      if (!split && q < 32'(PASSES)) pass_bits[l] = m[q*32'(W) + l];
      if (split && l < 32'(HW) && q*32'(HW) + l < 32) pass_bits[l] = m[q*32'(HW) + l];
    end
  endfunction

  // ---- Pass sequencer ----------------------------------------------------------------
  // ld_*: the pass loaded into the lanes at the end of this cycle, either pass 0 of
  // an instruction being accepted, or pass 1.. of the instruction accepted earlier,
  // from the pass buffer (the instruction's operand rows in thread order and its slot
  // table). Lane l of pass q runs slot k = q * W' + l; its operands are those of the
  // slot's thread (ld_thr), read through a 32:1 multiplexer per lane.
  logic              in_fire, ld_in;   // ld_in: pass 0 loads from the inputs (DIRECT)
  logic              ld_valid, ld_last;
  logic [5:0]        ld_op;
  logic [2:0]        ld_mod;
  logic [W-1:0]      ld_exec, ld_psel;
  logic [ROW_W-1:0]  ld_a, ld_b, ld_c;
  logic [5*W-1:0]    ld_thr;   // thread of each lane's slot
  logic [TAG_W-1:0]  ld_tag;
  logic [31:0]       ld_mask;

  assign in_fire = in_valid_i && in_ready_o;
  assign ld_in   = DIRECT && in_fire;

  logic              seq_q;   // passes 1.. of the buffered instruction are loading
  logic [PASS_W-1:0] pass_q;  // the pass loaded this cycle while seq_q
  logic [PASS_W-1:0] lastp_q; // its last pass
  logic              split_q;
  logic [5:0]        sop_q;
  logic [2:0]        smod_q;
  logic [TAG_W-1:0]  stag_q;
  logic [31:0]       sexec_q, smask_q, spsel_q;
  logic [1023:0]     buf_a_q, buf_b_q, buf_c_q;  // thread order
  logic [159:0]      sthr_q;                     // slot table

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      seq_q  <= 1'b0;
      pass_q <= '0;
    end else if (in_fire) begin
      seq_q  <= DIRECT ? (c_passes > 6'd1) : 1'b1;
      pass_q <= PASS_W'(Q0);
    end else if (seq_q) begin
      seq_q  <= (pass_q != lastp_q);
      pass_q <= pass_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (in_fire) begin
      sop_q    <= in_op_i;
      smod_q   <= in_mod_i;
      stag_q   <= in_tag_i;
      sexec_q  <= in_exec_i;
      smask_q <= c_mask;
      spsel_q  <= c_psel;
      split_q <= in_split;
      lastp_q <= PASS_W'(c_passes - 6'd1);
      buf_a_q <= in_a_i;
      buf_b_q <= in_b_i;
      buf_c_q <= in_c_i;
      sthr_q  <= c_thr;
    end
  end

  // The slots of pass pass_q of the buffered instruction: each lane's thread, by constant
  // slices of the slot table (a mux in hardware). Split passes start every W / 2 slots.
  logic [5*W-1:0] seq_thr;
  logic [W-1:0]   seq_exec, seq_psel;
  always_comb begin
    seq_thr  = '0;
    seq_exec = '0;
    seq_psel = '0;
    for (int q = Q0; q < 32'(MAXP); q++) begin
      if (pass_q == PASS_W'(q)) begin
        for (int l = 0; l < 32'(W); l++) begin
          if (!split_q) begin
            if (q < 32'(PASSES)) seq_thr[l*5 +: 5] = sthr_q[(q*32'(W) + l)*5 +: 5];
          end else if (l < 32'(HW) && q*32'(HW) + l < 32) begin
            seq_thr[l*5 +: 5] = sthr_q[(q*32'(HW) + l)*5 +: 5];
          end
        end
        seq_exec = pass_bits(smask_q, split_q, q);
        seq_psel = pass_bits(spsel_q, split_q, q);
      end
    end
  end

  // Operands of the pass: each lane's thread out of the accepted instruction's rows (pass 0)
  // or the buffer's. The thread's word is picked by an explicit tree of 4:1, 4:1 and 2:1
  // multiplexers on its number (wg_pkg::word_of), once from the input rows and once from
  // the buffer, and only then the input or the buffer is chosen (32 bits per lane and
  // operand). Measured at 4 lanes without FP (yosys synth_xilinx, the unit's own logic):
  // input or buffer chosen first (3 x 1024 bits), then an indexed part-select, 21.1k LUTs;
  // the same with the tree, 16.2k; the tree on both sides and the choice after it, 11.7k
  // (docs/fpga.md section 3.2).
  assign ld_thr = ld_in ? c_thr[0 +: 5*W] : seq_thr;
  always_comb begin
    for (int l = 0; l < 32'(W); l++) begin
      if (ld_in) begin
        ld_a[l*32 +: 32] = wg_pkg::word_of(in_a_i, ld_thr[l*5 +: 5]);
        ld_b[l*32 +: 32] = wg_pkg::word_of(in_b_i, ld_thr[l*5 +: 5]);
        ld_c[l*32 +: 32] = wg_pkg::word_of(in_c_i, ld_thr[l*5 +: 5]);
      end else begin
        ld_a[l*32 +: 32] = wg_pkg::word_of(buf_a_q, ld_thr[l*5 +: 5]);
        ld_b[l*32 +: 32] = wg_pkg::word_of(buf_b_q, ld_thr[l*5 +: 5]);
        ld_c[l*32 +: 32] = wg_pkg::word_of(buf_c_q, ld_thr[l*5 +: 5]);
      end
    end
  end

  // DIRECT = 0: the next instruction is taken while the last pass loads (the buffer is
  // written at the end of that cycle).
  assign in_ready_o = !seq_q || (!DIRECT && pass_q == lastp_q);
  assign ld_valid   = ld_in || seq_q;
  assign ld_last    = ld_in ? (c_passes == 6'd1) : (pass_q == lastp_q);
  assign ld_op      = ld_in ? in_op_i : sop_q;
  assign ld_mod     = ld_in ? in_mod_i : smod_q;
  assign ld_exec    = ld_in ? pass_bits(c_mask, in_split, 0) : seq_exec;
  assign ld_psel    = ld_in ? pass_bits(c_psel, in_split, 0) : seq_psel;
  assign ld_tag     = ld_in ? in_tag_i : stag_q;
  assign ld_mask    = ld_in ? in_exec_i : sexec_q;

  // ---- Pass control pipeline ---------------------------------------------------------
  // Stage 0 is the compute cycle of a pass (the lanes' operand registers hold it);
  // stage FP_LAT is its write-back cycle (the lanes' results are at their outputs).
  // Each pass carries its lanes' threads; the tag and mask travel with the last pass only.
  logic [FP_LAT:0]              pv_q, plast_q;
  logic [(FP_LAT+1)*5*W-1:0]    pthr_q;
  logic [(FP_LAT+1)*TAG_W-1:0]  ptag_q;
  logic [(FP_LAT+1)*32-1:0]     pmask_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pv_q <= '0;
    end else begin
      pv_q <= {pv_q[FP_LAT-1:0], ld_valid};
    end
  end

  always_ff @(posedge clk_i) begin
    if (ld_valid) begin
      plast_q[0]        <= ld_last;
      pthr_q[0 +: 5*W]  <= ld_thr;
    end
    if (ld_valid && ld_last) begin
      ptag_q[0 +: TAG_W] <= ld_tag;
      pmask_q[0 +: 32]   <= ld_mask;
    end
    for (int k = 1; k <= FP_LAT; k++) begin
      if (pv_q[k-1]) begin
        plast_q[k]             <= plast_q[k-1];
        pthr_q[k*5*W +: 5*W]   <= pthr_q[(k-1)*5*W +: 5*W];
        if (plast_q[k-1]) begin
          ptag_q[k*TAG_W +: TAG_W] <= ptag_q[(k-1)*TAG_W +: TAG_W];
          pmask_q[k*32 +: 32]      <= pmask_q[(k-1)*32 +: 32];
        end
      end
    end
  end

  logic           wb_valid, wb_last;
  logic [5*W-1:0] wb_thr;
  assign wb_valid = pv_q[FP_LAT];
  assign wb_last  = plast_q[FP_LAT];
  assign wb_thr   = pthr_q[FP_LAT*5*W +: 5*W];

  // ---- Lanes ----------------------------------------------------------------------------
  logic [W-1:0]      lane_out_valid, lane_out_pred, lane_busy, lane_work;
  logic [ROW_W-1:0]  lane_out_data;

  for (genvar l = 0; l < W; l++) begin : g_lane
    // Power-gating boundary: the lane's input valid and its isolated outputs.
    logic lane_go, lane_has_work;
    logic [ISO_W-1:0] lane_raw, lane_iso;

    // Operand registers: load only when the lane works in the pass (isolation).
    logic        v_q, psel_q;
    logic [5:0]  op_q;
    logic [2:0]  mod_q;
    logic [31:0] a_q, b_q, c_q;

    always_ff @(posedge clk_i) begin
      if (!rst_ni) v_q <= 1'b0;
      else         v_q <= lane_go;
    end

    always_ff @(posedge clk_i) begin
      if (lane_go) begin
        op_q   <= ld_op;
        mod_q  <= ld_mod;
        psel_q <= ld_psel[l];
        a_q    <= ld_a[l*32 +: 32];
        b_q    <= ld_b[l*32 +: 32];
        c_q    <= ld_c[l*32 +: 32];
      end
    end

    logic is_fp;
    assign is_fp = HAS_FP && (op_q >= wg_isa_pkg::OP_FADD) && (op_q <= wg_isa_pkg::OP_FRND);

    // Integer ALU, its result delayed by FP_LAT stages to line up with the FP unit.
    logic [31:0] alu_result;
    logic        alu_pred;
    wg_int_alu u_alu (
      .op_i     (op_q),
      .mod_i    (mod_q),
      .a_i      (a_q),
      .b_i      (b_q),
      .c_i      (c_q),
      .psel_i   (psel_q),
      .result_o (alu_result),
      .pred_o   (alu_pred)
    );

    logic [FP_LAT:1]      dv_q;    // a result of this lane in delay stage k
    logic [FP_LAT:1]      dint_q;  // ... and it is an integer one
    logic [FP_LAT*32-1:0] dres_q;  // stage k at [(k-1)*32 +: 32]
    logic [FP_LAT:1]      dpred_q;

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        dv_q   <= '0;
        dint_q <= '0;
      end else begin
        dv_q[1]   <= v_q;
        dint_q[1] <= v_q && !is_fp;
        for (int k = 2; k <= FP_LAT; k++) begin
          dv_q[k]   <= dv_q[k-1];
          dint_q[k] <= dint_q[k-1];
        end
      end
    end

    always_ff @(posedge clk_i) begin
      if (v_q && !is_fp) begin
        dres_q[31:0] <= alu_result;
        dpred_q[1]   <= alu_pred;
      end
      for (int k = 2; k <= FP_LAT; k++) begin
        if (dint_q[k-1]) begin
          dres_q[(k-1)*32 +: 32] <= dres_q[(k-2)*32 +: 32];
          dpred_q[k]             <= dpred_q[k-1];
        end
      end
    end

    // FP32 unit (FP opcodes only).
    logic [31:0] fp_result;
    logic        fp_valid, fp_pred;
    if (HAS_FP) begin : g_fp
      wg_fp32_unit u_fp (
        .clk_i    (clk_i),
        .rst_ni   (rst_ni),
        .valid_i  (v_q && is_fp),
        .op_i     (4'(op_q - wg_isa_pkg::OP_FADD)),
        .mod_i    (mod_q),
        .a_i      (a_q),
        .b_i      (b_q),
        .c_i      (c_q),
        .valid_o  (fp_valid),
        .result_o (fp_result),
        .pred_o   (fp_pred)
      );
    end else begin : g_no_fp
      assign fp_valid  = 1'b0;
      assign fp_result = 32'd0;
      assign fp_pred   = 1'b0;
    end

    // Lane outputs: the result of the pass in write-back, and the activity bit.
    logic [31:0] res;
    logic        pred;
    assign res  = dint_q[FP_LAT] ? dres_q[(FP_LAT-1)*32 +: 32] : fp_result;
    assign pred = dint_q[FP_LAT] ? dpred_q[FP_LAT] : fp_pred;

    assign lane_has_work = v_q || (|dv_q);
    // DIRECT = 0: a lane whose pass loads in this cycle holds work too (the instruction may
    // have left the SM's view of the unit's lanes: in_ready_o is high in its last pass).
    assign lane_work[l]  = lane_has_work || (!DIRECT && ld_valid && ld_exec[l]);
    assign lane_raw      = {v_q, dv_q[FP_LAT], pred, res};

    wg_pg_cell #(
      .OUT_W (ISO_W)
    ) u_pg (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .sleep_i (!lane_en_i[l]),
      .busy_i  (lane_has_work),
      .valid_i (ld_valid && ld_exec[l]),
      .valid_o (lane_go),
      .lane_i  (lane_raw),
      .lane_o  (lane_iso)
    );

    assign lane_busy[l]              = lane_iso[34];
    assign lane_out_valid[l]         = lane_iso[33];
    assign lane_out_pred[l]          = lane_iso[32];
    assign lane_out_data[l*32 +: 32] = lane_iso[31:0];
  end

  assign lane_busy_o = lane_busy;
  assign lane_work_o = lane_work;

  // ---- Output row ----------------------------------------------------------------------
  // The row is in thread order: each lane that computed in the pass in write-back writes its
  // slot's thread. Threads outside the mask keep old values.
  logic [TAG_W-1:0] out_tag_q;
  logic             out_valid_q;

  // Per thread: the lane writing it (at most one, asserted below), encoded as the OR of the
  // indices of the lanes that hit, and a W:1 multiplexer per bit over the lanes' results
  // (a 4:1 multiplexer is one LUT6 per bit at 4 lanes). The AND-OR of the hits and the
  // results it replaces measured 2.4k LUTs more at 4 lanes (docs/fpga.md section 3.7).
  logic [32*W-1:0] wr_hit;   // thread t, lane l at [t*W + l]
  logic [31:0]     wr_en, wr_pred;
  logic [1023:0]   wr_data;
  always_comb begin
    for (int t = 0; t < 32; t++) begin
      for (int l = 0; l < 32'(W); l++) begin
        wr_hit[t*32'(W) + l] = lane_out_valid[l] && wb_thr[l*5 +: 5] == 5'(t);
      end
    end
  end
  localparam int unsigned LW = (W > 1) ? $clog2(W) : 1;
  always_comb begin
    logic [LW-1:0] sel;
    wr_en   = '0;
    wr_pred = '0;
    wr_data = '0;
    for (int t = 0; t < 32; t++) begin
      sel = '0;
      for (int l = 0; l < 32'(W); l++) begin
        if (wb_valid && wr_hit[t*32'(W) + l]) wr_en[t] = 1'b1;
        if (wr_hit[t*32'(W) + l]) sel = sel | LW'(l);
      end
      wr_data[t*32 +: 32] = lane_out_data[32'(sel)*32 +: 32];
      wr_pred[t]          = lane_out_pred[sel];
    end
  end

  always_ff @(posedge clk_i) begin
    for (int t = 0; t < 32; t++) begin
      if (wr_en[t]) begin
        out_data_q[t*32 +: 32] <= wr_data[t*32 +: 32];
        out_pred_q[t]          <= wr_pred[t];
      end
    end
    if (wb_valid && wb_last) begin
      out_tag_q  <= ptag_q[FP_LAT*TAG_W +: TAG_W];
      out_mask_q <= pmask_q[FP_LAT*32 +: 32];
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) out_valid_q <= 1'b0;
    else         out_valid_q <= wb_valid && wb_last;
  end

  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;
  assign out_pred_o  = out_pred_q;
  assign out_tag_o   = out_tag_q;
  assign out_mask_o  = out_mask_q;

`ifndef SYNTHESIS
  // A thread is written by one lane at most (the slots of a pass hold distinct threads).
  always_ff @(posedge clk_i) begin
    if (rst_ni && wb_valid) begin
      for (int t = 0; t < 32; t++) begin
        assert ($onehot0(wr_hit[t*32'(W) +: W]))
          else $error("wg_simd_unit: thread %0d written by more than one lane", t);
      end
    end
  end

  // In every lane, the FP unit's result arrives exactly in the write-back stage of its
  // pass, where the integer delay holds no result.
  for (genvar l = 0; l < W; l++) begin : g_lane_check
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        assert (g_lane[l].fp_valid == (g_lane[l].dv_q[FP_LAT] && !g_lane[l].dint_q[FP_LAT]))
          else $error("wg_simd_unit: lane %0d: FP result out of step", l);
      end
    end
  end

  // The documented latency: every accepted instruction comes out exactly its P + FP32_LATENCY
  // + 1 (+ 1 with DIRECT = 0) cycles later (P from wg_sm_pkg::simd_passes, the function the SM reserves its
  // write-back slot with), with its tag and mask, and nothing else comes out.
  // due_*[j]: an output due j cycles from this one.
  logic [LAT_MAX-1:0] due_v_q;
  logic [TAG_W-1:0]   due_tag_q [LAT_MAX];
  logic [31:0]        due_mask_q [LAT_MAX];
  logic [5:0]         exp_passes;
  assign exp_passes = wg_sm_pkg::simd_passes(in_exec_i, 3'($clog2(W)) - 3'(in_split), in_compact_i);
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      due_v_q <= '0;
    end else begin
      due_v_q <= due_v_q >> 1;
      if (in_fire) due_v_q[32'(c_passes) + FP_LAT + LD_LAT] <= 1'b1;
    end
    for (int j = 0; j + 1 < 32'(LAT_MAX); j++) begin
      due_tag_q[j]  <= due_tag_q[j+1];
      due_mask_q[j] <= due_mask_q[j+1];
    end
    if (in_fire) begin
      due_tag_q[32'(c_passes) + FP_LAT + LD_LAT]  <= in_tag_i;
      due_mask_q[32'(c_passes) + FP_LAT + LD_LAT] <= in_exec_i;
    end
    if (rst_ni) begin
      assert (!in_fire || exp_passes == c_passes)
        else $error("wg_simd_unit: passes %0d differ from wg_sm_pkg::simd_passes %0d", c_passes, exp_passes);
      assert (!in_fire || (32'(c_passes) >= 1 && 32'(c_passes) <= MAXP))
        else $error("wg_simd_unit: %0d passes", c_passes);
      assert (out_valid_o == due_v_q[0])
        else $error("wg_simd_unit: out_valid_o not P + %0d cycles after a transfer", FP_LAT + 1 + LD_LAT);
      if (out_valid_o) begin
        assert (out_tag_o == due_tag_q[0] && out_mask_o == due_mask_q[0])
          else $error("wg_simd_unit: out_tag_o / out_mask_o of the wrong instruction");
      end
    end
  end
`endif

endmodule
