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
// The unit reads the operands through the slot table: slot k's thread (slot_thr_o) is
// the source of lane k mod W' in pass k / W', whose result the unit writes back to that
// thread, so no operand or result row is routed here (a warp-wide crossbar of three
// operand rows was about 61k LUT6 at 8 lanes: docs/fpga.md section 3.1). Without
// compaction (en_i low) the table is the identity.
`default_nettype none

module wg_compact #(
  parameter int unsigned LANES = 16   // lanes of the SIMD unit (a power of two, 1..32)
) (
  input  wire logic          en_i,
  input  wire logic          half_i,       // W' = LANES / 2 (LANES >= 2)
  input  wire logic [31:0]   mask_i,       // execution mask, thread order
  input  wire logic [31:0]   bits_i,       // one bit per thread
  output logic      [31:0]   slot_mask_o,  // slots that hold a thread
  output logic      [5:0]    passes_o,     // passes of the instruction (1..64)
  output logic      [159:0]  slot_thr_o,   // thread of slot k at [k*5 +: 5] (0 in empty slots)
  output logic      [31:0]   bits_o        // slot order
);

  localparam int unsigned LW = $clog2(LANES);

  if (LANES == 0 || LANES > 32 || (1 << LW) != LANES) begin : g_lanes_check
    $error("wg_compact: LANES must be a power of two from 1 to 32");
  end

  // Rank of every thread (active threads below it): prefix sums.
  logic [5:0] rank [32];
  always_comb begin
    rank[0] = '0;
    for (int t = 1; t < 32; t++) rank[t] = rank[t-1] + 6'(mask_i[t-1]);
  end

  // Lanes in use, as a shift.
  logic [2:0] lw_use;
  assign lw_use = (half_i && LANES > 1) ? 3'(LW - 1) : 3'(LW);

  logic [5:0] n_act;
  assign n_act = 6'($countones(mask_i));

  always_comb begin
    slot_mask_o = mask_i;
    passes_o    = 6'(32 >> lw_use);
    bits_o      = bits_i;
    for (int k = 0; k < 32; k++) slot_thr_o[k*5 +: 5] = 5'(k);
    if (en_i) begin
      // The lowest n slots hold threads; passes = max(1, ceil(n / W')).
      slot_mask_o = (n_act == 6'd32) ? 32'hFFFF_FFFF : ((32'd1 << n_act) - 32'd1);
      passes_o    = (n_act == 6'd0) ? 6'd1 : 6'((7'(n_act) + (7'd1 << lw_use) - 7'd1) >> lw_use);
      slot_thr_o  = '0;
      bits_o      = '0;
      // Slot k takes the active thread of rank k (an AND-OR of thread numbers).
      for (int t = 0; t < 32; t++) begin
        if (mask_i[t]) begin
          for (int k = 0; k <= t; k++) begin
            if (rank[t] == 6'(k)) begin
              slot_thr_o[k*5 +: 5] = 5'(t);
              bits_o[k]            = bits_i[t];
            end
          end
        end
      end
    end
  end

endmodule
