// wg_fifo: synchronous FIFO with valid/ready on both sides.
//
//   - DEPTH entries (any DEPTH >= 1) of WIDTH bits, held in flip-flops.
//   - in_ready_o = !full: the input side never waits on out_ready_i (no
//     combinational ready path through the FIFO).
//   - FALL_THROUGH = 0: an entry is visible at the output the cycle after it
//     was written. FALL_THROUGH = 1: an empty FIFO shows the input at the
//     output in the same cycle, and a word taken in that cycle is not stored.
//   - flush_i empties the FIFO at the clock edge; while it is high nothing is
//     accepted and nothing is offered.
//   - count_o, full_o and empty_o describe the stored entries (registered).
`default_nettype none

module wg_fifo #(
  parameter int unsigned DEPTH        = 4,
  parameter int unsigned WIDTH        = 32,
  parameter bit          FALL_THROUGH = 1'b0,
  // Derived: do not override.
  parameter int unsigned CNT_W = $clog2(DEPTH + 1)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             flush_i,

  input  wire logic             in_valid_i,
  output logic                  in_ready_o,
  input  wire logic [WIDTH-1:0] in_data_i,

  output logic                  out_valid_o,
  input  wire logic             out_ready_i,
  output logic      [WIDTH-1:0] out_data_o,

  output logic      [CNT_W-1:0] count_o,
  output logic                  full_o,
  output logic                  empty_o
);

  localparam int unsigned PTR_W = (DEPTH > 1) ? $clog2(DEPTH) : 1;

  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [PTR_W-1:0] rptr, wptr, rptr_next_unused;
  logic             in_fire, out_fire, push, pop, empty, full, bypass;

  wg_fifo_ctl #(.DEPTH(DEPTH)) u_ctl (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .flush_i     (flush_i),
    .push_i      (push),
    .pop_i       (pop),
    .wptr_o      (wptr),
    .rptr_o      (rptr),
    .rptr_next_o (rptr_next_unused),
    .count_o     (count_o),
    .full_o      (full),
    .empty_o     (empty)
  );

  // In fall-through mode an empty FIFO passes the input straight through.
  assign bypass = FALL_THROUGH && empty;

  assign in_ready_o  = !full && !flush_i;
  assign out_valid_o = !flush_i && (!empty || (bypass && in_valid_i));
  assign out_data_o  = bypass ? in_data_i : mem_q[rptr];

  assign in_fire  = in_valid_i && in_ready_o;
  assign out_fire = out_valid_o && out_ready_i;

  // A word that falls through is not stored; otherwise every accepted word
  // is written and every taken word is removed.
  assign push = in_fire && !(bypass && out_fire);
  assign pop  = out_fire && !bypass;

  // Storage has no reset.
  always_ff @(posedge clk_i) begin
    if (push) mem_q[wptr] <= in_data_i;
  end

  assign full_o  = full;
  assign empty_o = empty;

endmodule
