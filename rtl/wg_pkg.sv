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

endpackage
