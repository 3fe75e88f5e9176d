// wg_ram_1r1w: simple dual-port RAM, one write port and one synchronous read
// port on one clock.
//
// The block-RAM idiom of RTL-SUBSET.md: infers SB_RAM40_4K on iCE40 and RAMB18/36
// on Xilinx, and simulates as a plain array in Verilator.
//   - Read: rdata_o shows mem[raddr_i] one cycle after a cycle with re_i = 1 and
//     holds its value while re_i = 0 (callers rely on this to stall).
//   - Write: on we_i, the groups of EN_GRAIN bits selected by wbe_i take wdata_i
//     at the clock edge. EN_GRAIN = 0: one enable, the whole word (wbe_i
//     ignored); 8: byte enables; any divisor of WIDTH (the register file uses
//     32, one enable per lane). Both families map the groups onto the block
//     RAM's byte/bit write enables.
//   - A read and a write of the same address in one cycle return undefined data
//     (old data in Verilator, either on iCE40): callers must never do it. The
//     assertion below catches it in simulation.
//   - No reset: rst_ni only qualifies the assertions.
`default_nettype none

module wg_ram_1r1w #(
  parameter int unsigned DEPTH    = 1024,
  parameter int unsigned WIDTH    = 32,
  parameter int unsigned EN_GRAIN = 0,     // bits per write enable; 0 = whole word
  // Derived: do not override.
  parameter int unsigned AW  = (DEPTH > 1) ? $clog2(DEPTH) : 1,
  parameter int unsigned BEW = (EN_GRAIN > 0) ? WIDTH / EN_GRAIN : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             we_i,
  input  wire logic [AW-1:0]    waddr_i,
  input  wire logic [WIDTH-1:0] wdata_i,
  input  wire logic [BEW-1:0]   wbe_i,    // ignored when EN_GRAIN = 0
  input  wire logic             re_i,
  input  wire logic [AW-1:0]    raddr_i,
  output logic      [WIDTH-1:0] rdata_o
);

  (* no_rw_check *) logic [WIDTH-1:0] mem_q [DEPTH];
  logic [WIDTH-1:0] rdata_q;

  if (EN_GRAIN > 0) begin : g_grain
    // The enabled groups replace their part of the addressed word. Written as
    // a merge with the old word: yosys turns the read-back into per-group
    // write enables of the block RAM (opt_mem_feedback), and Verilator does
    // one whole-word write (a process per group would cost it a copy each).
    // The merge is formed only in a write cycle (Verilator evaluates the block
    // every cycle; for a register-file bank that is a 1024-bit read-back and 32
    // group selects per cycle otherwise); without a write wmerged is wdata_i,
    // which the write below does not use.
    logic [WIDTH-1:0] wmerged;
    always_comb begin
      wmerged = wdata_i;
      if (we_i) begin
        wmerged = mem_q[waddr_i];
        for (int i = 0; i < BEW; i++) begin
          if (wbe_i[i]) wmerged[i*EN_GRAIN +: EN_GRAIN] = wdata_i[i*EN_GRAIN +: EN_GRAIN];
        end
      end
    end
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wmerged;
    end
  end else begin : g_word
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
    end
    logic unused_wbe;
    assign unused_wbe = ^wbe_i;
  end

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= mem_q[raddr_i];
  end
  assign rdata_o = rdata_q;

  // Elaboration checks.
  if (DEPTH < 1) begin : g_bad_depth
    $error("wg_ram_1r1w: DEPTH must be at least 1");
  end
  if (EN_GRAIN > 0 && (WIDTH % EN_GRAIN != 0)) begin : g_bad_grain
    $error("wg_ram_1r1w: EN_GRAIN must divide WIDTH");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (we_i) assert (32'(waddr_i) < DEPTH) else $error("wg_ram_1r1w: write address %0d out of range", waddr_i);
      if (re_i) assert (32'(raddr_i) < DEPTH) else $error("wg_ram_1r1w: read address %0d out of range", raddr_i);
      if (we_i && re_i) assert (waddr_i != raddr_i)
        else $error("wg_ram_1r1w: read and write of address %0d in one cycle", raddr_i);
    end
  end
`endif

endmodule
