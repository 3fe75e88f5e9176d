// wg_fifo_ram: synchronous FIFO with valid/ready on both sides, its entries in block RAM.
//
//   - DEPTH entries (any DEPTH >= 1) of WIDTH bits in wg_ram_1r1w: one write port, one
//     registered read port, no read-during-write logic. For deep, wide queues (the GPU's
//     response queue, 256 x 1,096 bits), where wg_fifo's flip-flops, or a block RAM whose
//     read must see the word written in the same cycle, cost a register and a multiplexer
//     per bit (docs/fpga.md section 3.9).
//   - The head is read from the RAM when it changes: after a pop the next entry is at the
//     output in the next cycle, as in wg_fifo. An entry written into the head's slot (the
//     FIFO empty after this cycle's pop, if any) is read one cycle later than wg_fifo shows
//     it: out_valid_o rises two cycles after the write instead of one (fresh_o is high in
//     the cycle between). The RAM is never read and written at one address in one cycle.
//   - in_ready_o = !full and no combinational path from out_ready_i, as in wg_fifo.
//   - flush_i empties the FIFO at the clock edge; while it is high nothing is accepted and
//     nothing is offered.
//   - count_o, full_o and empty_o describe the stored entries (registered), a fresh head
//     included.
`default_nettype none

module wg_fifo_ram #(
  parameter int unsigned DEPTH = 256,
  parameter int unsigned WIDTH = 32,
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
  output logic                  empty_o,
  output logic                  fresh_o     // an entry is stored but the head is not read yet
);

  localparam int unsigned PTR_W = (DEPTH > 1) ? $clog2(DEPTH) : 1;

  logic [PTR_W-1:0] rptr_unused, rptr_d, wptr;
  logic             push, pop, empty, full, fresh_q, clash, re;

  wg_fifo_ctl #(.DEPTH(DEPTH)) u_ctl (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .flush_i     (flush_i),
    .push_i      (push),
    .pop_i       (pop),
    .wptr_o      (wptr),
    .rptr_o      (rptr_unused),
    .rptr_next_o (rptr_d),
    .count_o     (count_o),
    .full_o      (full),
    .empty_o     (empty)
  );

  assign in_ready_o  = !full && !flush_i;
  assign out_valid_o = !flush_i && !empty && !fresh_q;

  assign push = in_valid_i && in_ready_o;
  assign pop  = out_valid_o && out_ready_i;

  // The read port follows the head: it reads the slot the head will be in after this edge
  // when the head moves (a pop) or was written last cycle (fresh), unless that slot is being
  // written now (clash): then it is read in the next cycle.
  assign clash = push && (wptr == rptr_d);
  assign re    = (pop || fresh_q) && !clash;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) fresh_q <= 1'b0;
    else         fresh_q <= clash && !flush_i;
  end

  wg_ram_1r1w #(.DEPTH(DEPTH), .WIDTH(WIDTH), .EN_GRAIN(0)) u_mem (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (push),
    .waddr_i (wptr),
    .wdata_i (in_data_i),
    .wbe_i   (1'b0),
    .re_i    (re),
    .raddr_i (rptr_d),
    .rdata_o (out_data_o)
  );

  assign full_o  = full;
  assign empty_o = empty;
  assign fresh_o = fresh_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && fresh_q) assert (!empty || flush_i) else $error("wg_fifo_ram: fresh head in an empty FIFO");
  end
`endif

endmodule
