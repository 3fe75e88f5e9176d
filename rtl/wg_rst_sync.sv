// wg_rst_sync: reset synchroniser for one clock domain: asserted at once (asynchronously,
// so a domain whose clock is not running yet is held too), released synchronously after
// STAGES rising edges of clk_i, so every flip-flop of the domain leaves reset at the same
// edge. One instance per clock domain (docs/board.md section 9).
`default_nettype none

module wg_rst_sync #(
  parameter int unsigned STAGES = 2   // >= 2
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,   // asynchronous, active low (any source: pin, button, PLL lock)
  output logic      rst_no    // synchronous release, active low
);

  logic [STAGES-1:0] sync_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sync_q <= '0;
    else         sync_q <= {sync_q[STAGES-2:0], 1'b1};
  end

  assign rst_no = sync_q[STAGES-1];

`ifndef SYNTHESIS
  initial begin
    if (STAGES < 2) $error("wg_rst_sync: STAGES must be at least 2");
  end
`endif

endmodule
