// wg_pg_cell: the power-gating wrapper of one SIMD lane (docs/simd-unit.md).
//
// Every lane's power gating goes through this one module (as ibex routes all clock
// gating through one cell), so that the lane logic itself stays technology-neutral.
// It is a behavioural model of a switched power domain, placed at the lane's
// boundary:
//   - input side: valid_i is the work offered to the lane, valid_o what the lane
//     takes. While asleep (sleep_i = 1) the lane takes nothing: valid_o is 0. The
//     lane's operand registers load only under valid_o, so nothing inside toggles.
//   - output side: lane_i are the lane's outputs (results, valid bits, activity),
//     lane_o what the rest of the SM sees. While asleep they are clamped to 0, as
//     isolation cells hold the outputs of a domain whose supply is off.
// The two are combinational: sleep_i takes effect in the cycle it is driven.
// Wake-up latency, idle detection and break-even accounting belong to the gating
// controller that drives sleep_i, not to this cell.
//
// Rules, checked by assertions (simulation only):
//   - a sleeping lane is never offered work (valid_i && sleep_i);
//   - a lane is not put to sleep while it holds work in flight (busy_i && sleep_i):
//     a real power-off loses its pipeline state, so its results would be lost.
//
// In a real flow this module is replaced by the library's cells, instance for
// instance: a header (PMOS, VDD side) or footer (NMOS, VSS side) sleep transistor
// network switching the lane's virtual supply rail, driven by sleep_i (usually
// through a daisy chain that limits rush current, which is where the wake-up latency
// comes from); isolation cells (AND-type, clamp to 0) on every lane output, enabled
// before the switch opens and released after it closes; and, for the lane's control
// flops, either retention flops or a reset on wake-up. In this model the lane's
// flops keep their clock; since valid_o is 0 while asleep, its valid bits drain to
// 0 before it wakes, which is what the reset on wake-up guarantees in silicon.
`default_nettype none

module wg_pg_cell #(
  parameter int unsigned OUT_W = 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             sleep_i,  // 1: the lane is powered off
  input  wire logic             busy_i,   // the lane holds work in flight
  input  wire logic             valid_i,  // work offered to the lane
  output logic                  valid_o,  // work the lane takes
  input  wire logic [OUT_W-1:0] lane_i,   // the lane's outputs
  output logic      [OUT_W-1:0] lane_o    // isolated outputs: 0 while asleep
);

  assign valid_o = valid_i && !sleep_i;
  assign lane_o  = sleep_i ? '0 : lane_i;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(valid_i && sleep_i))
        else $error("wg_pg_cell: lane asked to execute while asleep");
      assert (!(busy_i && sleep_i))
        else $error("wg_pg_cell: lane put to sleep with work in flight");
    end
  end
`endif

endmodule
