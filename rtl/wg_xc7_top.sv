// wg_xc7_top: the GPU image on a Xilinx 7-series board (docs/fpga.md sections 4 and 6): the
// board top (wg_board_top) behind the pins of the board's XDC (constraints/arty-a7-100t.xdc,
// constraints/nexys-video.xdc; the same port names as the loop-back image wg_arty_loop_top),
// with its JTAG debug port behind the FPGA's own TAP (JTAG_BSCAN: BSCANE2 user instructions,
// reached over the board's FT2232H; constraints/openocd/). What this level adds:
//   - the FX2 data bus as one bidirectional bus (driven while the bridge writes EP6);
//   - the board's reset button, active low on both boards, as the board top's active-high
//     button input;
//   - the LEDs: 0 link up, 1 link failed, 2 GPU running, 3 halted.
// clk_i, the board's oscillator, is not used by the GPU image (IFCLK is its system clock,
// docs/fx2.md section 5); it is a port so that both images build against one XDC.
`default_nettype none

`ifndef WG_GPU_NUM_SMS
`define WG_GPU_NUM_SMS 1
`endif

module wg_xc7_top #(
  // The GPU's build: the board's set of configs/boards.mk (sim/fpga.mk passes it).
  parameter int unsigned NUM_SMS     = `WG_GPU_NUM_SMS,
  parameter int unsigned NUM_WARPS   = 48,
  parameter int unsigned SIMD_WIDTH  = 16,
  parameter int unsigned NUM_SIMD    = 2,
  parameter int unsigned NUM_REGS    = 32768,
  parameter int unsigned RF_BANKS    = 16,
  parameter int unsigned NUM_CTAS    = 8,
  parameter int unsigned DMEM_BYTES  = 65536,
  parameter int unsigned L1_SETS     = 64,
  parameter int unsigned L1_MSHRS    = 8,
  parameter int unsigned IMEM_DEPTH  = 4096,
  parameter int unsigned CMEM_BYTES  = 4096,
  parameter int unsigned STACK_DEPTH = 64,
  parameter bit          HAS_FP      = 1'b1,
  parameter int unsigned MEM_TAG_W   = 8,
  parameter bit          RETIRE_EN   = 1'b1,
  parameter bit          HAS_SFU     = 1'b1,
  parameter int unsigned LSU_LANES   = 32,
  parameter int unsigned RF_LANES    = 32,
  parameter bit          SIMD_DIRECT = 1'b1
) (
  input  wire logic       clk_i,          // board oscillator (not used)
  input  wire logic       rst_ni,         // reset button, low when pressed

  input  wire logic       fx2_ifclk_i,
  inout  wire logic [7:0] fx2_fd_io,
  input  wire logic       fx2_flaga_ni,   // EP2 empty
  input  wire logic       fx2_flagb_ni,   // EP6 full
  output logic            fx2_slrd_no,
  output logic            fx2_slwr_no,
  output logic            fx2_sloe_no,
  output logic            fx2_pktend_no,
  output logic      [1:0] fx2_fifoadr_o,
  input  wire logic       fx2_rst_ni,     // FX2 PA0

  output logic      [3:0] led_o
);

  logic [7:0] fd_in, fd_out;
  logic       fd_oe;
  assign fx2_fd_io = fd_oe ? fd_out : 8'bzzzz_zzzz;
  assign fd_in     = fx2_fd_io;

  logic tdo_unused, tdo_oe_unused, idle_unused, wait_unused;

  wg_board_top #(
    .NUM_SMS     (NUM_SMS),
    .NUM_WARPS   (NUM_WARPS),
    .SIMD_WIDTH  (SIMD_WIDTH),
    .NUM_SIMD    (NUM_SIMD),
    .NUM_REGS    (NUM_REGS),
    .RF_BANKS    (RF_BANKS),
    .NUM_CTAS    (NUM_CTAS),
    .DMEM_BYTES  (DMEM_BYTES),
    .L1_SETS     (L1_SETS),
    .L1_MSHRS    (L1_MSHRS),
    .IMEM_DEPTH  (IMEM_DEPTH),
    .CMEM_BYTES  (CMEM_BYTES),
    .STACK_DEPTH (STACK_DEPTH),
    .HAS_FP      (HAS_FP),
    .MEM_TAG_W   (MEM_TAG_W),
    .RETIRE_EN   (RETIRE_EN),
    .HAS_SFU     (HAS_SFU),
    .LSU_LANES   (LSU_LANES),
    .RF_LANES    (RF_LANES),
    .SIMD_DIRECT (SIMD_DIRECT),
    .JTAG_BSCAN  (1'b1)
  ) u_board (
    .ifclk_i    (fx2_ifclk_i),
    .fx2_rst_ni (fx2_rst_ni),
    .fd_i       (fd_in),
    .fd_o       (fd_out),
    .fd_oe_o    (fd_oe),
    .flaga_ni   (fx2_flaga_ni),
    .flagb_ni   (fx2_flagb_ni),
    .slrd_no    (fx2_slrd_no),
    .slwr_no    (fx2_slwr_no),
    .sloe_no    (fx2_sloe_no),
    .pktend_no  (fx2_pktend_no),
    .fifoadr_o  (fx2_fifoadr_o),
    .btn_rst_i  (!rst_ni),
    .led_o      (led_o),
    .tck_i      (1'b0),
    .tms_i      (1'b1),
    .tdi_i      (1'b0),
    .trst_ni    (1'b0),
    .tdo_o      (tdo_unused),
    .tdo_oe_o   (tdo_oe_unused),
    .idle_o     (idle_unused),
    .wait_o     (wait_unused)
  );

  logic unused_ok;
  assign unused_ok = ^{clk_i, tdo_unused, tdo_oe_unused, idle_unused, wait_unused};

endmodule
