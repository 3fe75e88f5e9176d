// wg_sync: two-flip-flop synchroniser for WIDTH independent single-bit signals
// entering the clk_i domain.
//
// Each bit is synchronised on its own: use it for levels and toggles that
// change at most once per handshake, never for a multi-bit value whose bits
// must be seen together (a multi-bit value crosses as data held stable under a
// synchronised toggle, as wg_jtag_dtm does). There is no reset: the output
// follows the input two clk_i edges later whatever the reset of either domain,
// so a domain coming out of reset can align its own state to the value seen.
// On an FPGA the two flip-flops should be placed together (ASYNC_REG on Xilinx,
// set by the board's constraints).
`default_nettype none

module wg_sync #(
  parameter int unsigned WIDTH = 1
) (
  input  wire logic             clk_i,
  input  wire logic [WIDTH-1:0] d_i,
  output logic      [WIDTH-1:0] q_o
);

  logic [WIDTH-1:0] meta_q, sync_q;

  always_ff @(posedge clk_i) begin
    meta_q <= d_i;
    sync_q <= meta_q;
  end

  assign q_o = sync_q;

endmodule
