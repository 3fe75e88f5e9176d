// wg_compact: thread compaction of one warp instruction (docs/power-gating.md section 3.3),
// combinational, for a SIMD unit of LANES lanes (wg_simd_unit).
//
// A warp instruction's 32 threads are placed in 32 slots; slot k runs in pass k / W' on
// lane k mod W', where W' is the number of lanes in use (LANES, or LANES / 2 with half_i,
// warp splitting). Without compaction (en_i low) thread t is in slot t: the unit's usual
// schedule. With compaction the active threads of the execution mask are packed, in thread
// order, into the lowest slots: the thread of rank r (r active threads below it) is in slot
// r, so n active threads use lanes 0 .. min(n, W') - 1 in ceil(n / W') passes (at least
// one, so that an instruction with an empty mask still passes through).
//
// Forward (issue): the schedule (slot_mask_o, passes_o) and the routing of the operand
// rows and the per-thread bits (SEL selectors) from thread order to slot order.
// Backward (write-back): the result row and the predicate bits from slot order back to
// thread order, given the instruction's execution mask (bwd_*). With compaction, threads
// outside the mask get 0; without, both directions are the identity.
`default_nettype none

module wg_compact #(
  parameter int unsigned LANES = 16,  // lanes of the SIMD unit (a power of two, 1..32)
  parameter int unsigned NROWS = 3    // operand rows routed forward
) (
  // Forward.
  input  wire logic                    en_i,
  input  wire logic                    half_i,       // W' = LANES / 2 (LANES >= 2)
  input  wire logic [31:0]             mask_i,       // execution mask, thread order
  input  wire logic [NROWS*1024-1:0]   rows_i,       // row r, thread t at [r*1024 + t*32 +: 32]
  input  wire logic [31:0]             bits_i,       // one bit per thread
  output logic      [31:0]             slot_mask_o,  // slots that hold a thread
  output logic      [5:0]              passes_o,     // passes of the instruction (1..64)
  output logic      [NROWS*1024-1:0]   rows_o,       // slot order
  output logic      [31:0]             bits_o,
  // Backward.
  input  wire logic                    bwd_en_i,
  input  wire logic [31:0]             bwd_mask_i,   // the instruction's execution mask
  input  wire logic [1023:0]           bwd_row_i,    // results, slot order
  input  wire logic [31:0]             bwd_bits_i,   // predicates, slot order
  output logic      [1023:0]           bwd_row_o,    // thread order
  output logic      [31:0]             bwd_bits_o
);

  localparam int unsigned LW = $clog2(LANES);

  if (LANES == 0 || LANES > 32 || (1 << LW) != LANES) begin : g_lanes_check
    $error("wg_compact: LANES must be a power of two from 1 to 32");
  end

  // Rank of every thread (active threads below it), forward and backward: prefix sums.
  logic [5:0] rank_f [32];
  logic [5:0] rank_b [32];
  always_comb begin
    rank_f[0] = '0;
    rank_b[0] = '0;
    for (int t = 1; t < 32; t++) begin
      rank_f[t] = rank_f[t-1] + 6'(mask_i[t-1]);
      rank_b[t] = rank_b[t-1] + 6'(bwd_mask_i[t-1]);
    end
  end

  // Lanes in use, as a shift.
  logic [2:0] lw_use;
  assign lw_use = (half_i && LANES > 1) ? 3'(LW - 1) : 3'(LW);

  // ---- Forward ----
  logic [5:0] n_act;
  assign n_act = 6'($countones(mask_i));

  always_comb begin
    slot_mask_o = mask_i;
    passes_o    = 6'(32 >> lw_use);
    rows_o      = rows_i;
    bits_o      = bits_i;
    if (en_i) begin
      // The lowest n slots hold threads; passes = max(1, ceil(n / W')).
      slot_mask_o = (n_act == 6'd32) ? 32'hFFFF_FFFF : ((32'd1 << n_act) - 32'd1);
      passes_o    = (n_act == 6'd0) ? 6'd1 : 6'((7'(n_act) + (7'd1 << lw_use) - 7'd1) >> lw_use);
      rows_o      = '0;
      bits_o      = '0;
      // Slot k takes the active thread of rank k (an AND-OR crossbar).
      for (int t = 0; t < 32; t++) begin
        if (mask_i[t]) begin
          for (int k = 0; k <= t; k++) begin
            if (rank_f[t] == 6'(k)) begin
              for (int r = 0; r < 32'(NROWS); r++) begin
                rows_o[r*1024 + k*32 +: 32] = rows_i[r*1024 + t*32 +: 32];
              end
              bits_o[k] = bits_i[t];
            end
          end
        end
      end
    end
  end

  // ---- Backward ----
  always_comb begin
    bwd_row_o  = bwd_row_i;
    bwd_bits_o = bwd_bits_i;
    if (bwd_en_i) begin
      bwd_row_o  = '0;
      bwd_bits_o = '0;
      // Thread t reads slot rank(t) (a 32:1 multiplexer per thread).
      for (int t = 0; t < 32; t++) begin
        if (bwd_mask_i[t]) begin
          bwd_row_o[t*32 +: 32] = bwd_row_i[5'(rank_b[t])*32 +: 32];
          bwd_bits_o[t]         = bwd_bits_i[5'(rank_b[t])];
        end
      end
    end
  end

endmodule
