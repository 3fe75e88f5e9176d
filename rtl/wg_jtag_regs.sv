// wg_jtag_regs: the register block behind the JTAG register window
// (docs/jtag.md section 5): ID, version and size registers, STATUS with a
// sticky error bit, CTRL with the halt/resume bit, a scratch register,
// NUM_CNT read-only counter ports and NUM_CTRL read/write control registers
// with reset values, for the board top to wire to the GPU's counters and the
// power-gating controls.
//
// Bus: a request (valid/ready; write, 15-bit word address, 32-bit data) is
// answered by one response (valid/ready; read data, error) in the next cycle;
// a new request is taken while the response leaves. Reads have no side
// effects. An access to no register, or a write to a read-only one, changes
// nothing, is answered with err = 1 (read data 0) and sets STATUS.ERR, which
// stays set until a write with bit 8 set clears it.
`default_nettype none

module wg_jtag_regs #(
  parameter int unsigned NUM_CNT    = 4,    // 1..256
  parameter int unsigned NUM_CTRL   = 4,    // 1..256
  parameter logic [NUM_CTRL*32-1:0] CTRL_RESET = '0,  // control i resets to [i*32 +: 32]
  parameter logic        HALT_RESET = 1'b0, // CTRL.HALT after reset
  parameter logic [15:0] BUILD      = 16'h0 // VERSION[31:16]: the board top's build number
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,

  input  wire logic                           req_valid_i,
  output logic                                req_ready_o,
  input  wire logic                           req_write_i,
  input  wire logic [wg_jtag_pkg::ADDR_W-1:0] req_addr_i,
  input  wire logic [wg_jtag_pkg::DATA_W-1:0] req_wdata_i,
  output logic                                rsp_valid_o,
  input  wire logic                           rsp_ready_i,
  output logic      [wg_jtag_pkg::DATA_W-1:0] rsp_rdata_o,
  output logic                                rsp_err_o,

  input  wire logic [NUM_CNT*32-1:0]  cnt_i,      // counter i at [i*32 +: 32]
  output logic      [NUM_CTRL*32-1:0] ctrl_o,     // control i at [i*32 +: 32]
  output logic      [NUM_CTRL-1:0]    ctrl_we_o,  // control i written (one cycle, with the new value on ctrl_o after it)
  output logic                        halt_o,     // CTRL.HALT: 1 = halt requested
  input  wire logic                   halted_i,   // the GPU has halted
  input  wire logic                   link_up_i,
  input  wire logic                   link_fail_i,
  output logic [wg_jtag_pkg::SYS_STATUS_W-1:0] status_o  // for USER2
);

  localparam int unsigned AW = wg_jtag_pkg::ADDR_W;
  localparam int unsigned DW = wg_jtag_pkg::DATA_W;

  logic [NUM_CTRL*32-1:0] ctl_q;
  logic [DW-1:0]          scratch_q;
  logic                   halt_q, err_q;
  logic                   rsp_valid_q, rsp_err_q;
  logic [DW-1:0]          rsp_rdata_q;
  logic                   req_fire;

  assign req_ready_o = !rsp_valid_q || rsp_ready_i;
  assign req_fire    = req_valid_i && req_ready_o;

  // --- decode --------------------------------------------------------------
  logic          is_cnt, is_ctl;
  logic [7:0]    idx;
  logic [DW-1:0] rdata;
  logic          hit, writable;

  assign idx    = req_addr_i[7:0];
  assign is_cnt = req_addr_i[AW-1:8] == wg_jtag_pkg::A_CNT[AW-1:8] && 32'(idx) < NUM_CNT;
  assign is_ctl = req_addr_i[AW-1:8] == wg_jtag_pkg::A_CTL[AW-1:8] && 32'(idx) < NUM_CTRL;

  always_comb begin
    rdata    = '0;
    hit      = 1'b1;
    writable = 1'b0;
    if (is_cnt) begin
      for (int i = 0; i < NUM_CNT; i++) begin
        if (32'(idx) == i) rdata = cnt_i[i*32 +: 32];
      end
    end else if (is_ctl) begin
      writable = 1'b1;
      for (int i = 0; i < NUM_CTRL; i++) begin
        if (32'(idx) == i) rdata = ctl_q[i*32 +: 32];
      end
    end else begin
      unique case (req_addr_i)
        wg_jtag_pkg::A_ID:      rdata = wg_jtag_pkg::REG_ID;
        wg_jtag_pkg::A_VERSION: rdata = {BUILD, wg_jtag_pkg::VER_MAJOR, wg_jtag_pkg::VER_MINOR};
        wg_jtag_pkg::A_INFO:    rdata = {16'(NUM_CTRL), 16'(NUM_CNT)};
        wg_jtag_pkg::A_STATUS: begin
          rdata[0] = halted_i;
          rdata[1] = link_up_i;
          rdata[2] = link_fail_i;
          rdata[wg_jtag_pkg::STATUS_ERR] = err_q;
          writable = 1'b1;
        end
        wg_jtag_pkg::A_CTRL: begin
          rdata[0] = halt_q;
          writable = 1'b1;
        end
        wg_jtag_pkg::A_SCRATCH: begin
          rdata    = scratch_q;
          writable = 1'b1;
        end
        default: hit = 1'b0;
      endcase
    end
  end

  logic bad, wr;
  assign bad = !hit || (req_write_i && !writable);
  assign wr  = req_fire && req_write_i && !bad;

  // --- registers -----------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ctl_q     <= CTRL_RESET;
      scratch_q <= '0;
      halt_q    <= HALT_RESET;
      err_q     <= 1'b0;
    end else begin
      if (wr && is_ctl) begin
        for (int i = 0; i < NUM_CTRL; i++) begin
          if (32'(idx) == i) ctl_q[i*32 +: 32] <= req_wdata_i;
        end
      end
      if (wr && req_addr_i == wg_jtag_pkg::A_SCRATCH) scratch_q <= req_wdata_i;
      if (wr && req_addr_i == wg_jtag_pkg::A_CTRL)    halt_q    <= req_wdata_i[0];
      // STATUS.ERR: set by a bad access, cleared by writing 1 (a bad access wins).
      if (req_fire && bad) begin
        err_q <= 1'b1;
      end else if (wr && req_addr_i == wg_jtag_pkg::A_STATUS && req_wdata_i[wg_jtag_pkg::STATUS_ERR]) begin
        err_q <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rsp_valid_q <= 1'b0;
      rsp_err_q   <= 1'b0;
      rsp_rdata_q <= '0;
    end else begin
      if (req_fire) begin
        rsp_valid_q <= 1'b1;
        rsp_err_q   <= bad;
        rsp_rdata_q <= (req_write_i || bad) ? '0 : rdata;
      end else if (rsp_ready_i) begin
        rsp_valid_q <= 1'b0;
      end
    end
  end

  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;
  assign rsp_err_o   = rsp_err_q;
  assign ctrl_o      = ctl_q;

  // A write pulse per control register, registered with the value: ctrl_we_o[i] is high in the
  // cycle after the write, when ctrl_o already holds the new value.
  logic [NUM_CTRL-1:0] ctl_we_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ctl_we_q <= '0;
    end else begin
      for (int i = 0; i < NUM_CTRL; i++) ctl_we_q[i] <= wr && is_ctl && 32'(idx) == i;
    end
  end
  assign ctrl_we_o = ctl_we_q;
  assign halt_o      = halt_q;

  always_comb begin
    status_o = '0;
    status_o[wg_jtag_pkg::ST_LINK_UP]   = link_up_i;
    status_o[wg_jtag_pkg::ST_LINK_FAIL] = link_fail_i;
    status_o[wg_jtag_pkg::ST_HALT_REQ]  = halt_q;
    status_o[wg_jtag_pkg::ST_HALTED]    = halted_i;
    status_o[wg_jtag_pkg::ST_ERR]       = err_q;
  end

`ifndef SYNTHESIS
  if (NUM_CNT < 1 || NUM_CNT > 256) begin : g_bad_cnt
    $error("wg_jtag_regs: NUM_CNT must be 1..256");
  end
  if (NUM_CTRL < 1 || NUM_CTRL > 256) begin : g_bad_ctl
    $error("wg_jtag_regs: NUM_CTRL must be 1..256");
  end
  // A response stays offered, unchanged, until taken.
  logic          held_q;
  logic [DW:0]   held_rsp_q;
  always_ff @(posedge clk_i) begin
    held_q     <= rst_ni && rsp_valid_o && !rsp_ready_i;
    held_rsp_q <= {rsp_err_o, rsp_rdata_o};
    if (rst_ni && held_q) begin
      assert (rsp_valid_o && {rsp_err_o, rsp_rdata_o} == held_rsp_q)
        else $error("wg_jtag_regs: response withdrawn or changed before it was taken");
    end
  end
`endif

endmodule
