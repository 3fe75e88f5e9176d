// tb_isa_pkg: exposes the generated wg_isa_pkg to test_isa_pkg.cpp, which
// compares it with the C instruction table (host/src/isa.c).
`default_nettype none

module tb_isa_pkg (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic [63:0] insn_i,
  // Fields of insn_i, cut at the package's positions.
  output logic [5:0]       op_o,
  output logic [2:0]       mod_o,
  output logic             bimm_o,
  output logic             gneg_o,
  output logic [2:0]       gp_o,
  output logic [5:0]       rd_o,
  output logic [5:0]       ra_o,
  output logic [5:0]       rc_o,
  output logic [31:0]      b_o,
  output logic [17:0]      reconv_o,
  // insn_info(op, mod) and the width helpers for mod.
  output logic             legal_o,
  output logic [3:0]       fmt_o,
  output logic [3:0]       cls_o,
  output logic             has_b_o,
  output logic             wr_rd_o,
  output logic             rd_ra_o,
  output logic             rd_rc_o,
  output logic [4:0]       width_bytes_o,
  output logic [2:0]       width_regs_o,
  // A few constants, for the C++ side to check.
  output logic [5:0]       reg_rz_o,
  output logic [5:0]       op_iadd_o,
  output logic [3:0]       fmt_rabc_o,
  output logic [3:0]       class_atomic_o,
  output logic [4:0]       sr_clockhi_o
);

  wg_isa_pkg::insn_info_t info;

  assign op_o     = insn_i[wg_isa_pkg::OP_LSB +: wg_isa_pkg::OP_W];
  assign mod_o    = insn_i[wg_isa_pkg::MOD_LSB +: wg_isa_pkg::MOD_W];
  assign bimm_o   = insn_i[wg_isa_pkg::BIMM_LSB];
  assign gneg_o   = insn_i[wg_isa_pkg::GNEG_LSB];
  assign gp_o     = insn_i[wg_isa_pkg::GP_LSB +: wg_isa_pkg::GP_W];
  assign rd_o     = insn_i[wg_isa_pkg::RD_LSB +: wg_isa_pkg::RD_W];
  assign ra_o     = insn_i[wg_isa_pkg::RA_LSB +: wg_isa_pkg::RA_W];
  assign rc_o     = insn_i[wg_isa_pkg::RC_LSB +: wg_isa_pkg::RC_W];
  assign b_o      = insn_i[wg_isa_pkg::B_LSB +: wg_isa_pkg::B_W];
  assign reconv_o = insn_i[wg_isa_pkg::RECONV_LSB +: wg_isa_pkg::RECONV_W];

  assign info    = wg_isa_pkg::insn_info(op_o, mod_o);
  assign legal_o = info.legal;
  assign fmt_o   = info.fmt;
  assign cls_o   = info.cls;
  assign has_b_o = info.has_b;
  assign wr_rd_o = info.wr_rd;
  assign rd_ra_o = info.rd_ra;
  assign rd_rc_o = info.rd_rc;
  assign width_bytes_o = wg_isa_pkg::width_bytes(mod_o);
  assign width_regs_o  = wg_isa_pkg::width_regs(mod_o);

  assign reg_rz_o       = wg_isa_pkg::REG_RZ;
  assign op_iadd_o      = wg_isa_pkg::OP_IADD;
  assign fmt_rabc_o     = wg_isa_pkg::FMT_RABC;
  assign class_atomic_o = wg_isa_pkg::CLASS_ATOMIC;
  assign sr_clockhi_o   = wg_isa_pkg::SR_CLOCKHI;

  logic unused_clk;
  assign unused_clk = clk_i ^ rst_ni;

endmodule
