// BSCANE2: lint and elaboration stub of the Xilinx 7-series boundary-scan
// user-instruction primitive (ports and parameters as in Xilinx UG953), so
// that rtl/wg_jtag_bscan.sv passes Verilator lint (scripts/lint.sh and
// make jtag-lint find it with -y sim/xilinx).
//
// Not a model: the outputs are constant (a TAP that never selects the user
// instruction) and TDO is ignored. Never synthesised: Vivado and yosys
// synth_xilinx provide the real primitive. The behaviour wg_jtag_bscan relies
// on is written down in docs/jtag.md section 9.
`default_nettype none

module BSCANE2 #(
  parameter              DISABLE_JTAG = "FALSE",
  parameter int unsigned JTAG_CHAIN   = 1
) (
  output logic CAPTURE,
  output logic DRCK,
  output logic RESET,
  output logic RUNTEST,
  output logic SEL,
  output logic SHIFT,
  output logic TCK,
  output logic TDI,
  output logic TMS,
  output logic UPDATE,
  input  wire logic TDO
);

  if (JTAG_CHAIN < 1 || JTAG_CHAIN > 4) begin : g_bad_chain
    $error("BSCANE2: JTAG_CHAIN must be 1..4");
  end
  if (DISABLE_JTAG != "FALSE") begin : g_bad_disable
    $error("BSCANE2 stub: only DISABLE_JTAG = \"FALSE\"");
  end

  assign CAPTURE = 1'b0;
  assign DRCK    = 1'b0;
  assign RESET   = 1'b0;
  assign RUNTEST = 1'b0;
  assign SEL     = 1'b0;
  assign SHIFT   = 1'b0;
  assign TCK     = 1'b0;
  assign TDI     = 1'b0;
  assign TMS     = 1'b0;
  assign UPDATE  = 1'b0;

  logic unused_tdo;
  assign unused_tdo = TDO;

endmodule
