// wg_pkg: shared constants of the warpgate SM RTL.
//
// The GTX480 defaults of DESIGN.md section 3 live here once; every block takes
// them as parameter defaults, and the FPGA builds override the parameters
// (fewer warps, lanes, registers) without touching the blocks. ISA constants
// (opcodes, fields, RZ) are in the generated wg_isa_pkg.
//
// RTL conventions (DESIGN.md section 10): clk_i and rst_ni first; rst_ni is
// active low and synchronous (always_ff @(posedge clk_i) with if (!rst_ni)),
// which suits both FPGA families and lets the assertions, qualified by
// rst_ni, sample it like any other input; storage (RAMs, data registers) has
// no reset.
`default_nettype none

package wg_pkg;

  // Shared defaults: a block uses those that concern it.
  /* verilator lint_off UNUSEDPARAM */

  localparam int unsigned DATA_W = 32;             // register / lane data width

  // One SM (GTX480, DESIGN.md section 3).
  localparam int unsigned SM_WARP_SIZE    = 32;    // threads per warp (fixed by the ISA)
  localparam int unsigned SM_NUM_WARPS    = 48;    // 1536 threads / 32
  localparam int unsigned SM_SIMD_WIDTH   = 16;    // lanes per SIMD unit
  localparam int unsigned SM_NUM_SIMD     = 2;     // SIMD units
  localparam int unsigned SM_MAX_CTAS     = 8;     // resident CTAs
  localparam int unsigned SM_NUM_REGS     = 32768; // 32-bit registers (128 KB)
  localparam int unsigned SM_RF_BANKS     = 16;    // register-file banks
  localparam int unsigned SM_NUM_SCHED    = 2;     // warp schedulers

  // Register-file read request: source operand slots (DESIGN.md, docs/regfile.md).
  localparam int unsigned RF_NUM_SRC = 3;          // ra, rb, rc
  localparam int unsigned RF_SRC_A   = 0;
  localparam int unsigned RF_SRC_B   = 1;
  localparam int unsigned RF_SRC_C   = 2;

  /* verilator lint_on UNUSEDPARAM */

  // Word i (32 bits) of a row of 32 words: an explicit tree of 4:1, 4:1 and 2:1
  // multiplexers on i. yosys 0.23 builds the indexed part-select row[i*32 +: 32] of a
  // 1024-bit row from its shift cell at about 33 LUTs per selected bit; this tree at well
  // under half that (docs/fpga.md section 3.2).
  function automatic logic [31:0] word_of(input logic [1023:0] row, input logic [4:0] i);
    logic [255:0] l1;
    logic [63:0]  l2;
    for (int j = 0; j < 8; j++) begin
      case (i[1:0])
        2'd0:    l1[j*32 +: 32] = row[(4*j + 0)*32 +: 32];
        2'd1:    l1[j*32 +: 32] = row[(4*j + 1)*32 +: 32];
        2'd2:    l1[j*32 +: 32] = row[(4*j + 2)*32 +: 32];
        default: l1[j*32 +: 32] = row[(4*j + 3)*32 +: 32];
      endcase
    end
    for (int k = 0; k < 2; k++) begin
      case (i[3:2])
        2'd0:    l2[k*32 +: 32] = l1[(4*k + 0)*32 +: 32];
        2'd1:    l2[k*32 +: 32] = l1[(4*k + 1)*32 +: 32];
        2'd2:    l2[k*32 +: 32] = l1[(4*k + 2)*32 +: 32];
        default: l2[k*32 +: 32] = l1[(4*k + 3)*32 +: 32];
      endcase
    end
    word_of = i[4] ? l2[63:32] : l2[31:0];
  endfunction

  // The 16 bytes of a naturally aligned access at byte offset o of a 128-byte block, as its
  // four words: word 0 is the block's word o[6:2] shifted right by o[1:0] bytes (only
  // sub-word accesses have such bytes, and theirs stay in the word), word 1 the odd word
  // of the 8-byte pair o[6:3], words 2 and 3 the upper half of the 16-byte chunk o[6:4].
  // Words beyond the access's size are unspecified. All four lie in the chunk o[6:4], so
  // the chunk is selected first (a tree of 2:1 multiplexers on o[4], o[5], o[6]: 7 per
  // bit of 128) and the words are picked inside it; no byte shifter of the block.
  function automatic logic [127:0] words_at(input logic [1023:0] blk, input logic [6:0] o);
    logic [511:0] l1;
    logic [255:0] l2;
    logic [127:0] c;
    logic [31:0]  w0, w1;
    for (int j = 0; j < 4; j++) l1[j*128 +: 128] = o[4] ? blk[(2*j + 1)*128 +: 128] : blk[(2*j)*128 +: 128];
    for (int j = 0; j < 2; j++) l2[j*128 +: 128] = o[5] ? l1[(2*j + 1)*128 +: 128] : l1[(2*j)*128 +: 128];
    c  = o[6] ? l2[255:128] : l2[127:0];
    w0 = o[3] ? (o[2] ? c[127:96] : c[95:64]) : (o[2] ? c[63:32] : c[31:0]);
    w0 = o[0] ? w0 >> 8 : w0;
    w0 = o[1] ? w0 >> 16 : w0;
    w1 = o[3] ? c[127:96] : c[63:32];
    words_at = {c[127:96], c[95:64], w1, w0};
  endfunction

endpackage
