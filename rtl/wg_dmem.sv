// wg_dmem: the SM's L1 / shared-memory array (docs/memory-pipeline.md sections 3, 4.2).
//
// DMEM_BYTES in 32 banks of 4 bytes: row r is bytes 128r .. 128r+127, word w of the
// array (byte address / 4) is in bank w mod 32, row w / 32. Each bank is a wg_ram_1r1w of
// ROWS = DMEM_BYTES/128 words of 32 bits with byte enables (one read and one write per
// cycle, synchronous read). Two users:
//   bank port (wg_smem)  per bank a read enable and row, and a write enable, row, word
//                        and 4 byte enables: every bank may read and write its own row.
//   row port  (wg_l1)    one row for all banks: read a whole row (r_rrow_i) and/or write
//                        the bytes of a row selected by 128 byte enables (r_wrow_i).
// The row port has priority, reads and writes separately:
//   - r_re_i high: the row is read in every bank, no bank read of the bank port
//     happens, b_rgnt_o is low (its user repeats the read);
//   - r_we_i high: the row port writes, no bank write happens, b_wgnt_o is low.
//   The grants depend on r_re_i / r_we_i only (combinationally), not on the bank port.
// Read data (rdata_o, bank b in bits [32b +: 32]), one cycle after the read:
//   - after a row-port read: the whole row, all 32 banks;
//   - after a granted bank-port read: in every bank whose b_re_i was high, its word.
//   A bank that is not read keeps its last word (the RAM holds its output), so the
//   other banks show stale data: the users take only what they read, in the cycle after.
// Same-cycle hazard: a read and a write of one row of one bank in one cycle returns
// undefined data (wg_ram_1r1w). The users keep their rows apart (shared memory below
// smem_rows, L1 above; wg_smem never reads and writes one word in one cycle); the RAM's
// assertion catches a violation in simulation. No reset: rst_ni only qualifies the
// assertions.
`default_nettype none

module wg_dmem #(
  parameter int unsigned DMEM_BYTES = 65536,   // a multiple of 128, at least 256
  // Derived: do not override.
  parameter int unsigned ROWS = DMEM_BYTES / 128,
  parameter int unsigned RW   = (ROWS > 1) ? $clog2(ROWS) : 1
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,

  // Bank port.
  input  wire logic [31:0]        b_re_i,
  input  wire logic [32*RW-1:0]   b_rrow_i,
  input  wire logic [31:0]        b_we_i,
  input  wire logic [32*RW-1:0]   b_wrow_i,
  input  wire logic [1023:0]      b_wdata_i,
  input  wire logic [127:0]       b_wbe_i,
  output logic                    b_rgnt_o,    // the bank reads of this cycle happen
  output logic                    b_wgnt_o,    // the bank writes of this cycle happen

  // Row port.
  input  wire logic               r_re_i,
  input  wire logic [RW-1:0]      r_rrow_i,
  input  wire logic               r_we_i,
  input  wire logic [RW-1:0]      r_wrow_i,
  input  wire logic [1023:0]      r_wdata_i,
  input  wire logic [127:0]       r_wbe_i,

  // Read data of both ports (see above).
  output logic      [1023:0]      rdata_o
);

  assign b_rgnt_o = !r_re_i;
  assign b_wgnt_o = !r_we_i;

  for (genvar b = 0; b < 32; b++) begin : g_bank
    logic          re, we;
    logic [RW-1:0] raddr, waddr;
    logic [31:0]   wdata;
    logic [3:0]    wbe;

    // A row write with no byte enabled in this bank leaves the bank alone.
    assign re    = r_re_i || b_re_i[b];
    assign raddr = r_re_i ? r_rrow_i : b_rrow_i[b*RW +: RW];
    assign we    = r_we_i ? (r_wbe_i[b*4 +: 4] != '0) : b_we_i[b];
    assign waddr = r_we_i ? r_wrow_i : b_wrow_i[b*RW +: RW];
    assign wdata = r_we_i ? r_wdata_i[b*32 +: 32] : b_wdata_i[b*32 +: 32];
    assign wbe   = r_we_i ? r_wbe_i[b*4 +: 4] : b_wbe_i[b*4 +: 4];

    wg_ram_1r1w #(.DEPTH(ROWS), .WIDTH(32), .EN_GRAIN(8)) u_ram (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .we_i    (we),
      .waddr_i (waddr),
      .wdata_i (wdata),
      .wbe_i   (wbe),
      .re_i    (re),
      .raddr_i (raddr),
      .rdata_o (rdata_o[b*32 +: 32])
    );
  end

  // Elaboration checks.
  if (DMEM_BYTES % 128 != 0 || DMEM_BYTES < 256) begin : g_bad_size
    $error("wg_dmem: DMEM_BYTES must be a multiple of 128, at least 256");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (r_re_i) assert (32'(r_rrow_i) < ROWS) else $error("wg_dmem: row read of row %0d out of range", r_rrow_i);
      if (r_we_i) assert (32'(r_wrow_i) < ROWS) else $error("wg_dmem: row write of row %0d out of range", r_wrow_i);
      if (r_re_i && r_we_i) assert (r_rrow_i != r_wrow_i)
        else $error("wg_dmem: row read and row write of row %0d in one cycle", r_rrow_i);
    end
  end
`endif

endmodule
