// wg_clk_gate: glitch-free clock gate (docs/gpu.md section 2).
//
// The enable is sampled on the falling edge, so clk_o only ever shows whole
// high phases of clk_i: clk_o = clk_i & en_q. Every gated clock of the design
// goes through this one module, so an FPGA build can map it to the family's
// clock-enable buffer (BUFGCE, DCC) without touching its users. In Verilator a
// gated-off domain costs nothing: its always_ff blocks are not triggered.
`default_nettype none

module wg_clk_gate (
  input  wire logic clk_i,
  input  wire logic en_i,
  output logic      clk_o,
  output logic      en_o    // the enable of the current high phase (for the ungated side)
);

  logic en_q;

  always_ff @(negedge clk_i) en_q <= en_i;

  assign clk_o = clk_i & en_q;
  assign en_o  = en_q;

endmodule
