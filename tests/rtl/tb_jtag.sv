// tb_jtag: the JTAG debug port as a board top would wire it, for the Verilator
// test (tests/rtl/test_jtag.c) and the remote_bitbang server (sim/jtag_bitbang.c),
// both through sim/wgjtag.h.
//
// wg_jtag_tap + wg_jtag_regs with 4 counters and 4 controls. Counter 0 counts
// clk_i cycles, counter 1 counts the cycles in which the modelled GPU runs (not
// halted); counters 2 and 3 are inputs from the C side. The modelled GPU
// reports halted HALT_LAT cycles after CTRL.HALT changes (a drain delay).
// Control reset values: 0x00000064, 0x00000003, 0x0000A5A5, 0 (arbitrary test
// values, docs/jtag.md section 7).
`default_nettype none

module tb_jtag #(
  parameter int unsigned HALT_LAT = 3
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        tck_i,
  input  wire logic        tms_i,
  input  wire logic        tdi_i,
  input  wire logic        trst_ni,
  output logic             tdo_o,
  output logic             tdo_oe_o,
  output logic [3:0]       tap_state_o,
  input  wire logic [63:0] cnt_ext_i,
  input  wire logic        link_up_i,
  input  wire logic        link_fail_i,
  output logic [127:0]     ctrl_o,
  output logic [127:0]     ctrl_writes_o,  // write pulses seen per control (ctrl_we_o), 32 bits each
  output logic             halt_o,
  output logic             halted_o
);

  localparam int unsigned NUM_CNT  = 4;
  localparam int unsigned NUM_CTRL = 4;

  logic                           req_valid, req_ready, req_write;
  logic [wg_jtag_pkg::ADDR_W-1:0] req_addr;
  logic [31:0]                    req_wdata, rsp_rdata;
  logic                           rsp_valid, rsp_ready, rsp_err;
  logic [wg_jtag_pkg::SYS_STATUS_W-1:0] status;
  logic [NUM_CNT*32-1:0]          cnt;
  logic [31:0]                    cycles_q, run_q;
  logic [HALT_LAT-1:0]            halt_pipe_q;

  wg_jtag_tap u_tap (
    .tck_i       (tck_i),
    .tms_i       (tms_i),
    .tdi_i       (tdi_i),
    .trst_ni     (trst_ni),
    .tdo_o       (tdo_o),
    .tdo_oe_o    (tdo_oe_o),
    .tap_state_o (tap_state_o),
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_o (req_valid),
    .req_ready_i (req_ready),
    .req_write_o (req_write),
    .req_addr_o  (req_addr),
    .req_wdata_o (req_wdata),
    .rsp_valid_i (rsp_valid),
    .rsp_ready_o (rsp_ready),
    .rsp_rdata_i (rsp_rdata),
    .rsp_err_i   (rsp_err),
    .status_i    (status)
  );

  wg_jtag_regs #(
    .NUM_CNT    (NUM_CNT),
    .NUM_CTRL   (NUM_CTRL),
    .CTRL_RESET ({32'h0000_0000, 32'h0000_A5A5, 32'h0000_0003, 32'h0000_0064}),
    .BUILD      (16'h0042)
  ) u_regs (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_i (req_valid),
    .req_ready_o (req_ready),
    .req_write_i (req_write),
    .req_addr_i  (req_addr),
    .req_wdata_i (req_wdata),
    .rsp_valid_o (rsp_valid),
    .rsp_ready_i (rsp_ready),
    .rsp_rdata_o (rsp_rdata),
    .rsp_err_o   (rsp_err),
    .cnt_i       (cnt),
    .ctrl_o      (ctrl_o),
    .ctrl_we_o   (ctrl_we),
    .halt_o      (halt_o),
    .halted_i    (halted_o),
    .link_up_i   (link_up_i),
    .link_fail_i (link_fail_i),
    .status_o    (status)
  );

  // Write pulses per control: a board top forwards each write once (wg_board_top).
  logic [NUM_CTRL-1:0] ctrl_we;
  logic [127:0]        ctrl_writes_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ctrl_writes_q <= '0;
    end else begin
      for (int i = 0; i < NUM_CTRL; i++)
        if (ctrl_we[i]) ctrl_writes_q[i*32 +: 32] <= ctrl_writes_q[i*32 +: 32] + 32'd1;
    end
  end
  assign ctrl_writes_o = ctrl_writes_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cycles_q    <= '0;
      run_q       <= '0;
      halt_pipe_q <= '0;
    end else begin
      cycles_q    <= cycles_q + 32'd1;
      if (!halted_o) run_q <= run_q + 32'd1;
      halt_pipe_q <= {halt_pipe_q[HALT_LAT-2:0], halt_o};
    end
  end

  assign halted_o = halt_pipe_q[HALT_LAT-1];
  assign cnt      = {cnt_ext_i, run_q, cycles_q};

endmodule
