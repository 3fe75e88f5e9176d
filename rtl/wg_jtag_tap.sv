// wg_jtag_tap: IEEE 1149.1 test access port with IDCODE, BYPASS and the two
// user registers of the JTAG debug port (docs/jtag.md).
//
// The 16-state TAP controller advances on the rising edge of TCK with TMS;
// trst_ni resets it asynchronously to Test-Logic-Reset (tie it high, or to a
// power-on reset, where the board has no TRST pin: five TCK cycles with TMS
// high reach Test-Logic-Reset from any state). TDI is sampled on the rising
// edge; TDO changes on the falling edge and is driven (tdo_oe_o) only in
// Shift-IR and Shift-DR, as the standard says.
//
// Instruction register: 6 bits, Capture-IR loads 000001. Codes (wg_jtag_pkg):
// IDCODE 0x09 (selected in Test-Logic-Reset), USER1 0x02, USER2 0x03, BYPASS
// 0x3F; every other code selects BYPASS. There is no boundary-scan register
// (EXTEST, SAMPLE/PRELOAD are not implemented): the TAP serves debug only.
// Updates (Update-IR, Update-DR) take effect at the rising edge that ends the
// Update state, half a TCK period after the standard's falling edge; nothing
// can observe the difference at the pins, since the next instruction-dependent
// action is the following rising edge.
//
// USER1 and USER2 live in wg_jtag_dtm, which also crosses to clk_i and drives
// the register bus (req/rsp below, valid/ready); this module only adds the TAP.
`default_nettype none

module wg_jtag_tap #(
  parameter logic [31:0] IDCODE = wg_jtag_pkg::IDCODE
) (
  // JTAG pins (TCK domain)
  input  wire logic tck_i,
  input  wire logic tms_i,
  input  wire logic tdi_i,
  input  wire logic trst_ni,
  output logic      tdo_o,
  output logic      tdo_oe_o,
  output logic [3:0] tap_state_o,   // wg_jtag_pkg::tap_state_e, for tests and debug

  // system side
  input  wire logic clk_i,
  input  wire logic rst_ni,
  output logic                           req_valid_o,
  input  wire logic                      req_ready_i,
  output logic                           req_write_o,
  output logic [wg_jtag_pkg::ADDR_W-1:0] req_addr_o,
  output logic [wg_jtag_pkg::DATA_W-1:0] req_wdata_o,
  input  wire logic                      rsp_valid_i,
  output logic                           rsp_ready_o,
  input  wire logic [wg_jtag_pkg::DATA_W-1:0] rsp_rdata_i,
  input  wire logic                      rsp_err_i,
  input  wire logic [wg_jtag_pkg::SYS_STATUS_W-1:0] status_i
);

  localparam int unsigned IRW = wg_jtag_pkg::IR_W;

  // --- TAP controller ------------------------------------------------------
  wg_jtag_pkg::tap_state_e state_q, state_d;

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      wg_jtag_pkg::TLR:    state_d = tms_i ? wg_jtag_pkg::TLR    : wg_jtag_pkg::RTI;
      wg_jtag_pkg::RTI:    state_d = tms_i ? wg_jtag_pkg::SEL_DR : wg_jtag_pkg::RTI;
      wg_jtag_pkg::SEL_DR: state_d = tms_i ? wg_jtag_pkg::SEL_IR : wg_jtag_pkg::CAP_DR;
      wg_jtag_pkg::CAP_DR: state_d = tms_i ? wg_jtag_pkg::EX1_DR : wg_jtag_pkg::SH_DR;
      wg_jtag_pkg::SH_DR:  state_d = tms_i ? wg_jtag_pkg::EX1_DR : wg_jtag_pkg::SH_DR;
      wg_jtag_pkg::EX1_DR: state_d = tms_i ? wg_jtag_pkg::UPD_DR : wg_jtag_pkg::PA_DR;
      wg_jtag_pkg::PA_DR:  state_d = tms_i ? wg_jtag_pkg::EX2_DR : wg_jtag_pkg::PA_DR;
      wg_jtag_pkg::EX2_DR: state_d = tms_i ? wg_jtag_pkg::UPD_DR : wg_jtag_pkg::SH_DR;
      wg_jtag_pkg::UPD_DR: state_d = tms_i ? wg_jtag_pkg::SEL_DR : wg_jtag_pkg::RTI;
      wg_jtag_pkg::SEL_IR: state_d = tms_i ? wg_jtag_pkg::TLR    : wg_jtag_pkg::CAP_IR;
      wg_jtag_pkg::CAP_IR: state_d = tms_i ? wg_jtag_pkg::EX1_IR : wg_jtag_pkg::SH_IR;
      wg_jtag_pkg::SH_IR:  state_d = tms_i ? wg_jtag_pkg::EX1_IR : wg_jtag_pkg::SH_IR;
      wg_jtag_pkg::EX1_IR: state_d = tms_i ? wg_jtag_pkg::UPD_IR : wg_jtag_pkg::PA_IR;
      wg_jtag_pkg::PA_IR:  state_d = tms_i ? wg_jtag_pkg::EX2_IR : wg_jtag_pkg::PA_IR;
      wg_jtag_pkg::EX2_IR: state_d = tms_i ? wg_jtag_pkg::UPD_IR : wg_jtag_pkg::SH_IR;
      wg_jtag_pkg::UPD_IR: state_d = tms_i ? wg_jtag_pkg::SEL_DR : wg_jtag_pkg::RTI;
      default:             state_d = wg_jtag_pkg::TLR;
    endcase
  end

  always_ff @(posedge tck_i or negedge trst_ni) begin
    if (!trst_ni) begin
      state_q <= wg_jtag_pkg::TLR;
    end else begin
      state_q <= state_d;
    end
  end

  assign tap_state_o = state_q;

  logic in_tlr, in_cap_dr, in_sh_dr, in_upd_dr, in_cap_ir, in_sh_ir, in_upd_ir;
  assign in_tlr    = state_q == wg_jtag_pkg::TLR;
  assign in_cap_dr = state_q == wg_jtag_pkg::CAP_DR;
  assign in_sh_dr  = state_q == wg_jtag_pkg::SH_DR;
  assign in_upd_dr = state_q == wg_jtag_pkg::UPD_DR;
  assign in_cap_ir = state_q == wg_jtag_pkg::CAP_IR;
  assign in_sh_ir  = state_q == wg_jtag_pkg::SH_IR;
  assign in_upd_ir = state_q == wg_jtag_pkg::UPD_IR;

  // --- instruction register ------------------------------------------------
  logic [IRW-1:0] ir_sr_q, ir_q;

  always_ff @(posedge tck_i) begin
    if (in_cap_ir) begin
      ir_sr_q <= wg_jtag_pkg::IR_CAPTURE;
    end else if (in_sh_ir) begin
      ir_sr_q <= {tdi_i, ir_sr_q[IRW-1:1]};
    end
  end

  always_ff @(posedge tck_i or negedge trst_ni) begin
    if (!trst_ni) begin
      ir_q <= wg_jtag_pkg::IR_IDCODE;
    end else if (in_tlr) begin
      ir_q <= wg_jtag_pkg::IR_IDCODE;
    end else if (in_upd_ir) begin
      ir_q <= ir_sr_q;
    end
  end

  logic sel_idcode, sel_user1, sel_user2, sel_bypass;
  assign sel_idcode = ir_q == wg_jtag_pkg::IR_IDCODE;
  assign sel_user1  = ir_q == wg_jtag_pkg::IR_USER1;
  assign sel_user2  = ir_q == wg_jtag_pkg::IR_USER2;
  assign sel_bypass = !sel_idcode && !sel_user1 && !sel_user2;

  // --- IDCODE and BYPASS ---------------------------------------------------
  logic [31:0] idcode_sr_q;
  logic        bypass_q;

  always_ff @(posedge tck_i) begin
    if (sel_idcode && in_cap_dr) begin
      idcode_sr_q <= IDCODE;
    end else if (sel_idcode && in_sh_dr) begin
      idcode_sr_q <= {tdi_i, idcode_sr_q[31:1]};
    end
    if (sel_bypass && in_cap_dr) begin
      bypass_q <= 1'b0;
    end else if (sel_bypass && in_sh_dr) begin
      bypass_q <= tdi_i;
    end
  end

  // --- user registers and the crossing -------------------------------------
  logic tdo1, tdo2;

  wg_jtag_dtm u_dtm (
    .tck_i       (tck_i),
    .tdi_i       (tdi_i),
    .capture_i   (in_cap_dr),
    .shift_i     (in_sh_dr),
    .update_i    (in_upd_dr),
    .sel1_i      (sel_user1),
    .sel2_i      (sel_user2),
    .tdo1_o      (tdo1),
    .tdo2_o      (tdo2),
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_o (req_valid_o),
    .req_ready_i (req_ready_i),
    .req_write_o (req_write_o),
    .req_addr_o  (req_addr_o),
    .req_wdata_o (req_wdata_o),
    .rsp_valid_i (rsp_valid_i),
    .rsp_ready_o (rsp_ready_o),
    .rsp_rdata_i (rsp_rdata_i),
    .rsp_err_i   (rsp_err_i),
    .status_i    (status_i)
  );

  // --- TDO: on the falling edge --------------------------------------------
  logic dr_tdo;
  always_comb begin
    if (sel_idcode)     dr_tdo = idcode_sr_q[0];
    else if (sel_user1) dr_tdo = tdo1;
    else if (sel_user2) dr_tdo = tdo2;
    else                dr_tdo = bypass_q;
  end

  always_ff @(negedge tck_i or negedge trst_ni) begin
    if (!trst_ni) begin
      tdo_o    <= 1'b0;
      tdo_oe_o <= 1'b0;
    end else begin
      tdo_o    <= in_sh_ir ? ir_sr_q[0] : dr_tdo;
      tdo_oe_o <= in_sh_ir || in_sh_dr;
    end
  end

`ifndef SYNTHESIS
  // IEEE 1149.1: the IDCODE register's bit 0 is 1.
  if (IDCODE[0] != 1'b1) begin : g_bad_idcode
    $error("wg_jtag_tap: IDCODE bit 0 must be 1");
  end
  // TDO is driven exactly in Shift-IR and Shift-DR: at each rising edge the
  // output enable set at the last falling edge matches the state it came from.
  always_ff @(posedge tck_i) begin
    assert (tdo_oe_o == (in_sh_ir || in_sh_dr))
      else $error("wg_jtag_tap: TDO enable out of step with the TAP state");
  end
`endif

endmodule
