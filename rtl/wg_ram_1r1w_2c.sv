// wg_ram_1r1w_2c: simple dual-port RAM with a clock per port (whole-word writes).
//
// wg_ram_1r1w with its read port on a clock of its own:
//   - Write: on we_i, mem[waddr_i] takes wdata_i at a rising edge of clk_i (the write clock).
//   - Read: rdata_o shows mem[raddr_i] after a rising edge of rclk_i with re_i = 1 and
//     holds its value otherwise.
//   - The two clocks are gated copies of one clock (wg_clk_gate), so their edges coincide
//     when both run. A read and a write of one address at one edge return undefined data
//     (old data in Verilator): callers must never do it; the assertion catches it.
// Both families have block RAMs with independent port clocks (SB_RAM40_4K RCLK / WCLK,
// RAMB18/36 read and write clocks). It is for a RAM whose ports run while the SM's clock is
// off: wg_pg_acct's histogram, written (swept) on the SM's power-gating clock and read out by
// the host through the SM's histogram clock (docs/gpu.md section 4.3). In Verilator an edge of rclk_i alone evaluates the read
// process only, not the writer's clock domain.
//   - No reset: rst_ni only qualifies the assertions.
`default_nettype none

module wg_ram_1r1w_2c #(
  parameter int unsigned DEPTH = 1024,
  parameter int unsigned WIDTH = 32,
  // Derived: do not override.
  parameter int unsigned AW = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rclk_i,
  input  wire logic             rst_ni,
  input  wire logic             we_i,
  input  wire logic [AW-1:0]    waddr_i,
  input  wire logic [WIDTH-1:0] wdata_i,
  input  wire logic             re_i,
  input  wire logic [AW-1:0]    raddr_i,
  output logic      [WIDTH-1:0] rdata_o
);

  (* no_rw_check *) logic [WIDTH-1:0] mem_q [DEPTH];
  logic [WIDTH-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  always_ff @(posedge rclk_i) begin
    if (re_i) rdata_q <= mem_q[raddr_i];
  end
  assign rdata_o = rdata_q;

  if (DEPTH < 1) begin : g_bad_depth
    $error("wg_ram_1r1w_2c: DEPTH must be at least 1");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (we_i) assert (32'(waddr_i) < DEPTH) else $error("wg_ram_1r1w_2c: write address %0d out of range", waddr_i);
      if (we_i && re_i) assert (waddr_i != raddr_i)
        else $error("wg_ram_1r1w_2c: read and write of address %0d at one edge", raddr_i);
    end
  end
  always_ff @(posedge rclk_i) begin
    if (rst_ni) begin
      if (re_i) assert (32'(raddr_i) < DEPTH) else $error("wg_ram_1r1w_2c: read address %0d out of range", raddr_i);
    end
  end
`endif

endmodule
