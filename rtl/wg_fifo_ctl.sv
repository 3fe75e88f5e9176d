// wg_fifo_ctl: the pointers and the entry count of a FIFO of DEPTH entries (wg_fifo,
// wg_fifo_ram), the storage left to its owner.
//
//   - push_i writes the entry at wptr_o, pop_i removes the one at rptr_o, both at the edge;
//     the owner never pushes into a full FIFO nor pops an empty one (assertions).
//   - rptr_next_o: rptr_o after this edge (a registered read port's address).
//   - flush_i empties the FIFO at the edge, whatever push_i and pop_i say.
//   - count_o, full_o and empty_o are registered.
`default_nettype none

module wg_fifo_ctl #(
  parameter int unsigned DEPTH = 4,
  // Derived: do not override.
  parameter int unsigned CNT_W = $clog2(DEPTH + 1),
  parameter int unsigned PTR_W = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             flush_i,
  input  wire logic             push_i,
  input  wire logic             pop_i,
  output logic      [PTR_W-1:0] wptr_o,
  output logic      [PTR_W-1:0] rptr_o,
  output logic      [PTR_W-1:0] rptr_next_o,
  output logic      [CNT_W-1:0] count_o,
  output logic                  full_o,
  output logic                  empty_o
);

  localparam logic [PTR_W-1:0] PTR_LAST = PTR_W'(DEPTH - 1);
  localparam logic [CNT_W-1:0] CNT_FULL = CNT_W'(DEPTH);

  logic [PTR_W-1:0] rptr_q, rptr_d, wptr_q, wptr_d;
  logic [CNT_W-1:0] count_q, count_d;

  always_comb begin
    rptr_d  = rptr_q;
    wptr_d  = wptr_q;
    count_d = count_q;
    if (flush_i) begin
      rptr_d  = '0;
      wptr_d  = '0;
      count_d = '0;
    end else begin
      if (push_i) wptr_d = (wptr_q == PTR_LAST) ? '0 : wptr_q + 1'b1;
      if (pop_i)  rptr_d = (rptr_q == PTR_LAST) ? '0 : rptr_q + 1'b1;
      if (push_i && !pop_i)      count_d = count_q + 1'b1;
      else if (pop_i && !push_i) count_d = count_q - 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rptr_q  <= '0;
      wptr_q  <= '0;
      count_q <= '0;
    end else begin
      rptr_q  <= rptr_d;
      wptr_q  <= wptr_d;
      count_q <= count_d;
    end
  end

  assign wptr_o      = wptr_q;
  assign rptr_o      = rptr_q;
  assign rptr_next_o = rptr_d;
  assign count_o     = count_q;
  assign full_o      = (count_q == CNT_FULL);
  assign empty_o     = (count_q == '0);

  if (DEPTH < 1) begin : g_bad_depth
    $error("wg_fifo_ctl: DEPTH must be at least 1");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && !flush_i) begin
      if (push_i) assert (!full_o) else $error("wg_fifo_ctl: write into a full FIFO");
      if (pop_i)  assert (!empty_o) else $error("wg_fifo_ctl: read from an empty FIFO");
    end
  end
`endif

endmodule
