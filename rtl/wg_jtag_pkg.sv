// wg_jtag_pkg: constants of the JTAG debug port (docs/jtag.md): the TAP's
// instruction codes and IDCODE, the USER1/USER2 data-register layouts and the
// register map of wg_jtag_regs. The instruction register is 6 bits wide and the
// codes are those of the Xilinx 7-series TAP (IDCODE 0x09, USER1 0x02, USER2
// 0x03, BYPASS 0x3F), so that one set of OpenOCD scripts drives the simulated
// TAP (wg_jtag_tap) and the FPGA's own TAP (wg_jtag_bscan on BSCANE2) alike.
`default_nettype none

package wg_jtag_pkg;

  // --- TAP ----------------------------------------------------------------
  localparam int unsigned IR_W = 6;
  localparam logic [IR_W-1:0] IR_IDCODE = 6'h09;
  localparam logic [IR_W-1:0] IR_USER1  = 6'h02;  // register window (command / response)
  localparam logic [IR_W-1:0] IR_USER2  = 6'h03;  // status
  localparam logic [IR_W-1:0] IR_BYPASS = 6'h3F;  // every other code selects BYPASS too
  // Capture-IR loads ...0001: IEEE 1149.1 asks for 01 in the two low bits.
  localparam logic [IR_W-1:0] IR_CAPTURE = 6'h01;

  // IDCODE: version 1, part number 0x5747 ("WG"), manufacturer field [11:1] = 0
  // (continuation count 0, identity code 0): JEP106 assigns identity code 0 in no
  // bank, so this is no real vendor's code. Bit 0 is 1 as 1149.1 requires.
  localparam logic [31:0] IDCODE = {4'h1, 16'h5747, 11'h000, 1'b1};  // 0x15747001

  // TAP controller states (IEEE 1149.1 figure 6-1), numbered as in
  // tests/rtl/test_jtag.c's reference model. TLR is 0: the power-up value of an
  // FPGA flip-flop without reset.
  typedef enum logic [3:0] {
    TLR     = 4'd0,   // Test-Logic-Reset
    RTI     = 4'd1,   // Run-Test/Idle
    SEL_DR  = 4'd2,
    CAP_DR  = 4'd3,
    SH_DR   = 4'd4,
    EX1_DR  = 4'd5,
    PA_DR   = 4'd6,
    EX2_DR  = 4'd7,
    UPD_DR  = 4'd8,
    SEL_IR  = 4'd9,
    CAP_IR  = 4'd10,
    SH_IR   = 4'd11,
    EX1_IR  = 4'd12,
    PA_IR   = 4'd13,
    EX2_IR  = 4'd14,
    UPD_IR  = 4'd15
  } tap_state_e;

  // --- USER1: register-window command / response (48 bits, LSB shifted first)
  // Shifted in (command, performed at Update-DR):
  //   [31:0] write data, [46:32] word address, [47] 1 = write, 0 = read.
  // Captured (response to the previous command, at Capture-DR):
  //   [31:0] read data (0 after a write), [32] DONE: the previous command has
  //   completed and [31:0], [33] belong to it; [33] ERR: it addressed no
  //   register or wrote a read-only one; [47:34] 0.
  // A scan whose capture saw DONE = 0 performs nothing at its Update-DR: the
  // host repeats the same scan.
  localparam int unsigned USER1_W = 48;
  localparam int unsigned ADDR_W  = 15;
  localparam int unsigned DATA_W  = 32;
  localparam int unsigned U1_DONE = 32;
  localparam int unsigned U1_ERR  = 33;
  localparam int unsigned U1_ADDR = 32;  // command: address field LSB
  localparam int unsigned U1_WR   = 47;  // command: write bit

  // --- USER2: status (8 bits, captured; the bits shifted in are ignored) ---
  localparam int unsigned USER2_W   = 8;
  localparam int unsigned ST_LINK_UP   = 0;  // host link up (board input)
  localparam int unsigned ST_LINK_FAIL = 1;  // host link failed (board input)
  localparam int unsigned ST_HALT_REQ  = 2;  // CTRL.HALT set
  localparam int unsigned ST_HALTED    = 3;  // the GPU reports halted
  localparam int unsigned ST_ERR       = 4;  // sticky bus error (STATUS.ERR)
  localparam int unsigned ST_SYS_RST   = 5;  // clk_i domain held in reset
  localparam int unsigned ST_BUSY      = 6;  // a USER1 command is in flight
  localparam int unsigned ST_ONE       = 7;  // constant 1
  // The clk_i-domain bits [4:0] come from wg_jtag_regs (status_o).
  localparam int unsigned SYS_STATUS_W = 5;

  // --- register map of wg_jtag_regs (word addresses) ------------------------
  localparam logic [ADDR_W-1:0] A_ID      = 15'h0000;  // RO REG_ID
  localparam logic [ADDR_W-1:0] A_VERSION = 15'h0001;  // RO [31:16] BUILD, [15:8] major, [7:0] minor
  localparam logic [ADDR_W-1:0] A_INFO    = 15'h0002;  // RO [31:16] NUM_CTRL, [15:0] NUM_CNT
  localparam logic [ADDR_W-1:0] A_STATUS  = 15'h0003;  // [0] HALTED, [1] LINK_UP, [2] LINK_FAIL RO; [8] ERR W1C
  localparam logic [ADDR_W-1:0] A_CTRL    = 15'h0004;  // RW [0] HALT
  localparam logic [ADDR_W-1:0] A_SCRATCH = 15'h0005;  // RW
  localparam logic [ADDR_W-1:0] A_CNT     = 15'h0100;  // RO counter i at A_CNT + i, i < 256
  localparam logic [ADDR_W-1:0] A_CTL     = 15'h0200;  // RW control i at A_CTL + i, i < 256
  localparam logic [31:0] REG_ID  = 32'h5747_4A54;     // "WGJT"
  localparam logic [7:0]  VER_MAJOR = 8'd1;
  localparam logic [7:0]  VER_MINOR = 8'd0;
  localparam int unsigned STATUS_ERR = 8;

endpackage
