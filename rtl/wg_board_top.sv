// wg_board_top: the FPGA board top (docs/board.md section 9): the FX2LP slave-FIFO bridge,
// the board core (link engine + GPU), the JTAG debug port, clocking and reset.
//
//   FX2 pins ──> wg_fx2_fifo ──rx bytes──> wg_board_core (wg_link + wg_gpu) ──tx bytes──> wg_fx2_fifo ──> FX2
//     (IFCLK)                                 (clk_core: IFCLK gated while halted)
//   TCK TMS TDI TRST ──> wg_jtag_tap ──register bus (IFCLK)──> wg_jtag_regs ──> halt, controls
//                                                             <── counters, link and GPU status
//
// Clocks: IFCLK, the FX2's 48 MHz interface clock (docs/fx2.md section 5), is the system
// clock: the bridge, the link engine and the JTAG register block run on it; the GPU's own
// gated clock is derived inside the core. TCK is the JTAG clock (wg_jtag_tap crosses into
// IFCLK with a toggle handshake). A faster GPU clock from a PLL would need a clock-domain
// crossing on the two byte streams (not here).
//
// Reset: PA0 of the FX2 (FPGA_RST_N, active low, pulled up on the board: the firmware drives
// it, the host pulses it with the FPGA_RESET vendor request) or the board's button (active
// high); asserted at once, released synchronously to IFCLK (wg_rst_sync). The TCK domain has
// TRST and Test-Logic-Reset (docs/jtag.md).
//
// Halt: CTRL.HALT of the register block stops the core's clock at the next edge (the engine
// and the GPU hold every register; target time stands, so nothing of a run changes); HALTED
// is reported once the gate is closed. Resume opens it again. Bytes from the host wait in
// the FX2 and the bridge meanwhile.
//
// Power-gating controls (docs/usb.md section 2.1): a JTAG write to CTL0..7 is forwarded once
// to every SM's kernel register (CTL0..3: PG_CTRL, PG_BET, PG_IDLE, PG_WAKE = 21..24;
// CTL4..7: PG_ISSUE, PG_SLICE, PG_DOWN, PG_UP = 17..20) through the core's debug command
// port. Each control has a pending bit, set by a write and cleared when the core takes the
// write (with the register's value at that time): a control written again before its write
// was taken is delivered once, with the later value; pending controls go in index order.
`default_nettype none

`ifndef WG_GPU_NUM_SMS
`define WG_GPU_NUM_SMS 15
`endif

module wg_board_top #(
  // The GPU's build (wg_board_core's parameters).
  parameter int unsigned NUM_SMS       = `WG_GPU_NUM_SMS,
  parameter int unsigned NUM_WARPS     = 48,
  parameter int unsigned SIMD_WIDTH    = 16,
  parameter int unsigned NUM_SIMD      = 2,
  parameter int unsigned NUM_REGS      = 32768,
  parameter int unsigned RF_BANKS      = 16,
  parameter int unsigned NUM_CTAS      = 8,
  parameter int unsigned DMEM_BYTES    = 65536,
  parameter int unsigned L1_SETS       = 64,
  parameter int unsigned L1_MSHRS      = 8,
  parameter int unsigned IMEM_DEPTH    = 4096,
  parameter int unsigned CMEM_BYTES    = 4096,
  parameter int unsigned STACK_DEPTH   = 64,
  parameter bit          HAS_FP        = 1'b1,
  parameter int unsigned MEM_TAG_W     = 8,
  parameter bit          RETIRE_EN     = 1'b1,
  parameter bit          HAS_SFU       = 1'b1,    // the SM's FPGA options (wg_gpu)
  parameter int unsigned LSU_LANES     = 32,
  parameter int unsigned RF_LANES      = 32,
  parameter bit          SIMD_DIRECT   = 1'b1,
  // The link engine (docs/link-rtl.md section 6).
  parameter int unsigned RX_BUF_BYTES  = 32768,
  parameter int unsigned RX_PAYLOAD    = 16364,
  parameter int unsigned TX_FRAMES     = 8,
  parameter int unsigned TX_SLOT_BYTES = 4096,
  parameter int unsigned RTO_CYCLES    = 1000000,
  // The bridge (wg_fx2_fifo).
  parameter int unsigned PKTEND_IDLE   = 64,
  // VERSION[31:16] of the register block.
  parameter logic [15:0] BUILD         = 16'h0001,
  // The JTAG debug port: 0 a TAP of its own on the tck_i..tdo_o pins (simulation, and boards
  // whose fabric pins carry JTAG); 1 the user instructions of a Xilinx 7-series FPGA's own TAP
  // through BSCANE2 (wg_jtag_bscan; the JTAG pins are not used: rtl/wg_xc7_top.sv).
  parameter bit          JTAG_BSCAN    = 1'b0
) (
  // FX2LP (docs/fx2.md section 6).
  input  wire logic       ifclk_i,
  input  wire logic       fx2_rst_ni,   // PA0: FPGA reset from the FX2, active low
  input  wire logic [7:0] fd_i,
  output logic      [7:0] fd_o,
  output logic            fd_oe_o,
  input  wire logic       flaga_ni,     // EP2 empty
  input  wire logic       flagb_ni,     // EP6 full
  output logic            slrd_no,
  output logic            slwr_no,
  output logic            sloe_no,
  output logic            pktend_no,
  output logic      [1:0] fifoadr_o,

  // Board.
  input  wire logic       btn_rst_i,    // reset button, active high
  output logic      [3:0] led_o,        // 0 link up, 1 link failed, 2 GPU running, 3 halted

  // JTAG (simulation and boards whose fabric TAP is reachable; docs/jtag.md).
  input  wire logic       tck_i,
  input  wire logic       tms_i,
  input  wire logic       tdi_i,
  input  wire logic       trst_ni,
  output logic            tdo_o,
  output logic            tdo_oe_o,

  // For simulation: nothing moves at the next IFCLK edge unless a flag or a JTAG pin changes.
  output logic            idle_o,
  // For simulation: the same but for the link engine's retransmission and NAK timers (the
  // core waits for the host: wg_board_core wait_o).
  output logic            wait_o
);

  localparam int unsigned NUM_CNT  = 17;
  localparam int unsigned NUM_CTRL = 8;

  // ---- reset ----
  logic rst_n;
  wg_rst_sync u_rst (
    .clk_i  (ifclk_i),
    .rst_ni (fx2_rst_ni && !btn_rst_i),
    .rst_no (rst_n)
  );

  // ---- the core's clock: IFCLK, held low while halted ----
  logic halt, core_en, core_act, clk_core;
  assign core_en = !halt || !rst_n;
  wg_clk_gate u_core_gate (
    .clk_i (ifclk_i),
    .en_i  (core_en),
    .clk_o (clk_core),
    .en_o  (core_act)         // the coming rising edge reaches the core
  );

  // ---- bridge ----
  logic       brx_valid, brx_ready, btx_valid, btx_ready;
  logic [7:0] brx_data, btx_data;
  logic       core_rx_ready, core_tx_valid;
  logic       rd_fire, wr_fire, pktend_fire, bridge_idle;

  wg_fx2_fifo #(
    .PKTEND_IDLE (PKTEND_IDLE)
  ) u_fx2 (
    .clk_i         (ifclk_i),
    .rst_ni        (rst_n),
    .fd_i          (fd_i),
    .fd_o          (fd_o),
    .fd_oe_o       (fd_oe_o),
    .flaga_ni      (flaga_ni),
    .flagb_ni      (flagb_ni),
    .slrd_no       (slrd_no),
    .slwr_no       (slwr_no),
    .sloe_no       (sloe_no),
    .pktend_no     (pktend_no),
    .fifoadr_o     (fifoadr_o),
    .rx_valid_o    (brx_valid),
    .rx_ready_i    (brx_ready),
    .rx_data_o     (brx_data),
    .tx_valid_i    (btx_valid),
    .tx_ready_o    (btx_ready),
    .tx_data_i     (btx_data),
    .rd_fire_o     (rd_fire),
    .wr_fire_o     (wr_fire),
    .pktend_fire_o (pktend_fire),
    .idle_o        (bridge_idle)
  );

  // A byte crosses only at an edge the core gets.
  assign brx_ready = core_rx_ready && core_act;
  assign btx_valid = core_tx_valid && core_act;

  // ---- board core ----
  logic        up, failed, rep_valid, running, gpu_error, cmd_fire, ev_fire, core_idle, core_wait;
  logic [3:0]  rep_code;
  logic [7:0]  rep_type;
  logic [31:0] rep_seq, rep_exp, rep_act;
  logic [63:0] rep_off, cycle, grant;
  logic [2:0]  ev_kind;
  logic        jcfg_valid, jcfg_ready, jcfg_fire;
  logic [4:0]  jcfg_addr;
  logic [31:0] jcfg_data;

  wg_board_core #(
    .NUM_SMS       (NUM_SMS),
    .NUM_WARPS     (NUM_WARPS),
    .SIMD_WIDTH    (SIMD_WIDTH),
    .NUM_SIMD      (NUM_SIMD),
    .NUM_REGS      (NUM_REGS),
    .RF_BANKS      (RF_BANKS),
    .NUM_CTAS      (NUM_CTAS),
    .DMEM_BYTES    (DMEM_BYTES),
    .L1_SETS       (L1_SETS),
    .L1_MSHRS      (L1_MSHRS),
    .IMEM_DEPTH    (IMEM_DEPTH),
    .CMEM_BYTES    (CMEM_BYTES),
    .STACK_DEPTH   (STACK_DEPTH),
    .HAS_FP        (HAS_FP),
    .MEM_TAG_W     (MEM_TAG_W),
    .RETIRE_EN     (RETIRE_EN),
    .HAS_SFU       (HAS_SFU),
    .LSU_LANES     (LSU_LANES),
    .RF_LANES      (RF_LANES),
    .SIMD_DIRECT   (SIMD_DIRECT),
    .RX_BUF_BYTES  (RX_BUF_BYTES),
    .RX_PAYLOAD    (RX_PAYLOAD),
    .TX_FRAMES     (TX_FRAMES),
    .TX_SLOT_BYTES (TX_SLOT_BYTES),
    .RTO_CYCLES    (RTO_CYCLES)
  ) u_core (
    .clk_i       (clk_core),
    .rst_ni      (rst_n),
    .rx_valid_i  (brx_valid),
    .rx_ready_o  (core_rx_ready),
    .rx_data_i   (brx_data),
    .tx_valid_o  (core_tx_valid),
    .tx_ready_i  (btx_ready),
    .tx_data_o   (btx_data),
    .up_o        (up),
    .failed_o    (failed),
    .rep_valid_o (rep_valid),
    .rep_code_o  (rep_code),
    .rep_type_o  (rep_type),
    .rep_seq_o   (rep_seq),
    .rep_off_o   (rep_off),
    .rep_exp_o   (rep_exp),
    .rep_act_o   (rep_act),
    .cycle_o     (cycle),
    .grant_o     (grant),
    .running_o   (running),
    .error_o     (gpu_error),
    .cmd_fire_o  (cmd_fire),
    .ev_fire_o   (ev_fire),
    .ev_kind_o   (ev_kind),
    .idle_o      (core_idle),
    .wait_o      (core_wait),
    .jcfg_valid_i (jcfg_valid),
    .jcfg_ready_o (jcfg_ready),
    .jcfg_addr_i  (jcfg_addr),
    .jcfg_data_i  (jcfg_data),
    .jcfg_fire_o  (jcfg_fire)
  );

  // ---- counters for the register block (IFCLK domain) ----
  logic [31:0] n_cmd_q, n_ev_q, n_rd_q, n_wr_q, n_pkt_q, n_rep_q, n_last_rep_q, n_last_exp_q, n_last_act_q;
  logic        halted_q;

  always_ff @(posedge ifclk_i) begin
    if (!rst_n) begin
      n_cmd_q      <= '0;
      n_ev_q       <= '0;
      n_rd_q       <= '0;
      n_wr_q       <= '0;
      n_pkt_q      <= '0;
      n_rep_q      <= '0;
      n_last_rep_q <= '0;
      n_last_exp_q <= '0;
      n_last_act_q <= '0;
      halted_q     <= 1'b0;
    end else begin
      if (cmd_fire && core_act)  n_cmd_q <= n_cmd_q + 1'b1;
      if (ev_fire && core_act)   n_ev_q  <= n_ev_q + 1'b1;
      if (rd_fire)               n_rd_q  <= n_rd_q + 1'b1;
      if (wr_fire)               n_wr_q  <= n_wr_q + 1'b1;
      if (pktend_fire)           n_pkt_q <= n_pkt_q + 1'b1;
      if (rep_valid && core_act) begin
        n_rep_q      <= n_rep_q + 1'b1;
        n_last_rep_q <= {rep_type, rep_seq[19:0], rep_code};
        n_last_exp_q <= rep_exp;
        n_last_act_q <= rep_act;
      end
      halted_q <= halt && !core_en;
    end
  end

  logic [NUM_CNT*32-1:0] cnt;
  assign cnt = {
    n_jcfg_at_q[63:32],      // 16 target cycle of the last one, high word
    n_jcfg_at_q[31:0],       // 15 target cycle at which the GPU took the last one, low word
    n_jcfg_q,                // 14 power-gating control writes from JTAG taken by the GPU
    {20'b0, ev_kind, jpend_q != '0 || jflight_q, core_wait, core_idle, bridge_idle, halted_q, gpu_error, running, failed, up}, // 13 STATUS bits
    n_last_exp_q,            // 12 expected value of the last report
    n_last_act_q,            // 11 actual value of the last report
    n_last_rep_q,            // 10 last report: type, seq[19:0], code
    n_rep_q,                 //  9 link error reports
    n_pkt_q,                 //  8 short EP6 packets (PKTEND)
    n_wr_q,                  //  7 bytes written into EP6
    n_rd_q,                  //  6 bytes read from EP2
    n_ev_q,                  //  5 events the engine took
    n_cmd_q,                 //  4 commands the GPU took
    grant[63:32],            //  3 grant, high word
    grant[31:0],             //  2 grant, low word
    cycle[63:32],            //  1 target cycle, high word
    cycle[31:0]              //  0 target cycle, low word
  };

  // ---- JTAG ----
  logic                           req_valid, req_ready, req_write;
  logic [wg_jtag_pkg::ADDR_W-1:0] req_addr;
  logic [31:0]                    req_wdata, rsp_rdata;
  logic                           rsp_valid, rsp_ready, rsp_err;
  logic                           regs_rsp_valid, regs_rsp_ready, regs_rsp_err;
  logic [31:0]                    regs_rsp_rdata;
  logic [wg_jtag_pkg::SYS_STATUS_W-1:0] jstatus;
  logic [NUM_CTRL*32-1:0]         ctrl;
  logic [NUM_CTRL-1:0]            ctrl_we;

  if (JTAG_BSCAN) begin : g_bscan
    wg_jtag_bscan u_bscan (
      .clk_i       (ifclk_i),
      .rst_ni      (rst_n),
      .req_valid_o (req_valid),
      .req_ready_i (req_ready),
      .req_write_o (req_write),
      .req_addr_o  (req_addr),
      .req_wdata_o (req_wdata),
      .rsp_valid_i (rsp_valid),
      .rsp_ready_o (rsp_ready),
      .rsp_rdata_i (rsp_rdata),
      .rsp_err_i   (rsp_err),
      .status_i    (jstatus)
    );
    assign tdo_o    = 1'b0;
    assign tdo_oe_o = 1'b0;
    logic unused_jtag_pins;
    assign unused_jtag_pins = ^{tck_i, tms_i, tdi_i, trst_ni};
  end else begin : g_tap
    logic [3:0] unused_tap_state;
    logic       unused_tap;
    assign unused_tap = ^unused_tap_state;
    wg_jtag_tap u_tap (
      .tck_i       (tck_i),
      .tms_i       (tms_i),
      .tdi_i       (tdi_i),
      .trst_ni     (trst_ni),
      .tdo_o       (tdo_o),
      .tdo_oe_o    (tdo_oe_o),
      .tap_state_o (unused_tap_state),
      .clk_i       (ifclk_i),
      .rst_ni      (rst_n),
      .req_valid_o (req_valid),
      .req_ready_i (req_ready),
      .req_write_o (req_write),
      .req_addr_o  (req_addr),
      .req_wdata_o (req_wdata),
      .rsp_valid_i (rsp_valid),
      .rsp_ready_o (rsp_ready),
      .rsp_rdata_i (rsp_rdata),
      .rsp_err_i   (rsp_err),
      .status_i    (jstatus)
    );
  end

  wg_jtag_regs #(
    .NUM_CNT  (NUM_CNT),
    .NUM_CTRL (NUM_CTRL),
    .BUILD    (BUILD)
  ) u_regs (
    .clk_i       (ifclk_i),
    .rst_ni      (rst_n),
    .req_valid_i (req_valid),
    .req_ready_o (req_ready),
    .req_write_i (req_write),
    .req_addr_i  (req_addr),
    .req_wdata_i (req_wdata),
    .rsp_valid_o (regs_rsp_valid),
    .rsp_ready_i (regs_rsp_ready),
    .rsp_rdata_o (regs_rsp_rdata),
    .rsp_err_o   (regs_rsp_err),
    .cnt_i       (cnt),
    .ctrl_o      (ctrl),
    .ctrl_we_o   (ctrl_we),
    .halt_o      (halt),
    .halted_i    (halted_q),
    .link_up_i   (up),
    .link_fail_i (failed),
    .status_o    (jstatus)
  );

  // The response goes to the TAP's DTM through a spill register: wg_jtag_regs' request
  // ready follows its response ready combinationally, and the DTM computes its response ready
  // in the block that reads the request ready; registered in between, the handshakes form no
  // combinational loop (one cycle more per access, nothing at TCK's pace).
  wg_spill_reg #(.WIDTH(33)) u_rsp_reg (
    .clk_i       (ifclk_i),
    .rst_ni      (rst_n),
    .in_valid_i  (regs_rsp_valid),
    .in_ready_o  (regs_rsp_ready),
    .in_data_i   ({regs_rsp_err, regs_rsp_rdata}),
    .out_valid_o (rsp_valid),
    .out_ready_i (rsp_ready),
    .out_data_o  ({rsp_err, rsp_rdata})
  );

  // ---- power-gating controls: a CTL write goes once to every SM's kernel register ----
  // jpend_q[i]: control i written and not yet taken by the core (into its holding register);
  // jflight_q: one taken and not yet taken by the GPU. The core takes the lowest pending index,
  // never in a cycle with a write pulse (ctrl_we), so a value is never taken and re-armed at
  // once.
  logic [NUM_CTRL-1:0] jpend_q;
  logic                jflight_q;
  logic [2:0]          jidx;
  logic [31:0]         n_jcfg_q;
  logic [63:0]         n_jcfg_at_q;
  logic                jtake;

  always_comb begin
    jidx = '0;
    for (int i = NUM_CTRL - 1; i >= 0; i--) if (jpend_q[i]) jidx = 3'(i);
  end

  assign jcfg_valid = jpend_q != '0 && ctrl_we == '0 && core_act;
  assign jtake      = jcfg_valid && jcfg_ready;
  // CTL0..3 -> kernel registers 21..24, CTL4..7 -> 17..20 (docs/sm.md section 2.1)
  assign jcfg_addr  = jidx[2] ? 5'd13 + 5'(jidx) : 5'd21 + 5'(jidx);
  always_comb begin
    jcfg_data = '0;
    for (int i = 0; i < NUM_CTRL; i++) if (jidx == 3'(i)) jcfg_data = ctrl[i*32 +: 32];
  end

  always_ff @(posedge ifclk_i) begin
    if (!rst_n) begin
      jpend_q     <= '0;
      jflight_q   <= 1'b0;
      n_jcfg_q    <= '0;
      n_jcfg_at_q <= '0;
    end else begin
      for (int i = 0; i < NUM_CTRL; i++) begin
        if (ctrl_we[i])                       jpend_q[i] <= 1'b1;
        else if (jtake && jidx == 3'(i))      jpend_q[i] <= 1'b0;
      end
      if (jtake)                              jflight_q <= 1'b1;
      else if (jcfg_fire && core_act)         jflight_q <= 1'b0;
      if (jcfg_fire && core_act) begin
        n_jcfg_q    <= n_jcfg_q + 1'b1;
        n_jcfg_at_q <= cycle;
      end
    end
  end

  logic unused_top;
  assign unused_top = ^{rep_off, rep_seq[31:20]};

  assign led_o  = {halted_q, running, failed, up};
  // Nothing moves but the core's link timers: every other part as for idle_o.
  logic still_but_core;
  assign still_but_core = rst_n && bridge_idle && !halt && !halted_q && !req_valid && !rsp_valid
                          && !regs_rsp_valid && jpend_q == '0 && ctrl_we == '0;
  assign idle_o = still_but_core && core_idle;
  assign wait_o = still_but_core && core_wait;

endmodule
