// wg_jtag_dtm: the USER1 and USER2 data registers of the JTAG debug port and
// the crossing from TCK to clk_i (docs/jtag.md sections 3 and 4).
//
// The TCK side has the shape of a Xilinx BSCANE2 port, so the same module sits
// behind wg_jtag_tap (simulation, non-Xilinx boards) and behind the FPGA's own
// TAP (wg_jtag_bscan): sel1_i / sel2_i say USER1 / USER2 is the current
// instruction, capture_i / shift_i / update_i that the TAP is in Capture-DR /
// Shift-DR / Update-DR; all are sampled at the rising edge of TCK. tdo1_o /
// tdo2_o are the shift registers' low bits; the TAP registers TDO on the
// falling edge.
//
// USER1 (48 bits, wg_jtag_pkg): Update-DR hands the shifted command to the
// clk_i side, which performs it as one transfer on the register bus; the next
// Capture-DR returns its response with DONE set, or DONE = 0 if the transfer
// has not finished (that scan then performs nothing at its Update-DR).
// USER2 (8 bits): status, captured.
//
// Crossing: a toggle handshake. Update-DR stores the command in cmd_q and flips
// req_q (TCK); the clk_i side sees the flip through a two-flop synchroniser,
// performs the transfer reading cmd_q (unchanged until the acknowledge returns),
// stores the response in rsp_*_q and flips ack_q; the TCK side sees ack_q
// through its own two-flop synchroniser: busy = req_q != ack (synchronised).
// Multi-bit values cross only while they are held stable by the handshake; the
// response is gated to 0 in the capture while busy, so no changing clk_i-domain
// value reaches a TCK flip-flop. The status bits cross one by one, each
// registered in clk_i first. TCK runs only while the host scans: each
// synchroniser step needs a TCK edge, and from Update-DR to the next
// Capture-DR there are at least two (Select-DR-Scan, Capture-DR), enough when
// the clk_i side finishes within one TCK period (about 6 clk_i cycles).
// Reset: the TCK side has none (the toggles may power up either way); while
// rst_ni is low the clk_i side sets ack_q to the synchronised req_q, so a
// command issued during reset completes without effect (its response is 0)
// and no stale toggle starts a transfer afterwards.
`default_nettype none

module wg_jtag_dtm (
  // TCK side (BSCANE2-like)
  input  wire logic tck_i,
  input  wire logic tdi_i,
  input  wire logic capture_i,
  input  wire logic shift_i,
  input  wire logic update_i,
  input  wire logic sel1_i,
  input  wire logic sel2_i,
  output logic      tdo1_o,
  output logic      tdo2_o,

  // clk_i side
  input  wire logic clk_i,
  input  wire logic rst_ni,
  // register bus: one request, then one response
  output logic                           req_valid_o,
  input  wire logic                      req_ready_i,
  output logic                           req_write_o,
  output logic [wg_jtag_pkg::ADDR_W-1:0] req_addr_o,
  output logic [wg_jtag_pkg::DATA_W-1:0] req_wdata_o,
  input  wire logic                      rsp_valid_i,
  output logic                           rsp_ready_o,
  input  wire logic [wg_jtag_pkg::DATA_W-1:0] rsp_rdata_i,
  input  wire logic                      rsp_err_i,
  // status bits for USER2 [4:0] (wg_jtag_pkg ST_*)
  input  wire logic [wg_jtag_pkg::SYS_STATUS_W-1:0] status_i
);

  localparam int unsigned U1W = wg_jtag_pkg::USER1_W;
  localparam int unsigned U2W = wg_jtag_pkg::USER2_W;
  localparam int unsigned DW  = wg_jtag_pkg::DATA_W;
  localparam int unsigned STW = wg_jtag_pkg::SYS_STATUS_W;

  // ------------------------------------------------------------------ TCK --
  logic [U1W-1:0] sr1_q, cmd_q;
  logic [U2W-1:0] sr2_q;
  logic           req_q, cap_done_q;
  logic           ack_tck, busy;
  logic [STW:0]   st_tck;            // {sys in reset, status_i}, synchronised

  // clk_i-domain registers read by the TCK side (declared here for order)
  logic           ack_q;
  logic [DW-1:0]  rsp_rdata_q;
  logic           rsp_err_q;
  logic [STW:0]   st_q;

  wg_sync #(.WIDTH(1)) u_ack_sync (.clk_i(tck_i), .d_i(ack_q), .q_o(ack_tck));
  wg_sync #(.WIDTH(STW + 1)) u_st_sync (.clk_i(tck_i), .d_i(st_q), .q_o(st_tck));

  assign busy = req_q != ack_tck;

  // Response word: zero while busy (the clk_i side may be writing rsp_*_q).
  logic [U1W-1:0] u1_capture;
  always_comb begin
    u1_capture = '0;
    u1_capture[DW-1:0]               = busy ? '0 : rsp_rdata_q;
    u1_capture[wg_jtag_pkg::U1_DONE] = !busy;
    u1_capture[wg_jtag_pkg::U1_ERR]  = !busy && rsp_err_q;
  end

  always_ff @(posedge tck_i) begin
    if (sel1_i && capture_i) begin
      sr1_q      <= u1_capture;
      cap_done_q <= !busy;
    end else if (sel1_i && shift_i) begin
      sr1_q <= {tdi_i, sr1_q[U1W-1:1]};
    end
    if (sel1_i && update_i && cap_done_q) begin
      cmd_q <= sr1_q;
      req_q <= !req_q;
    end
  end

  always_ff @(posedge tck_i) begin
    if (sel2_i && capture_i) begin
      sr2_q <= {1'b1, busy, st_tck};
    end else if (sel2_i && shift_i) begin
      sr2_q <= {tdi_i, sr2_q[U2W-1:1]};
    end
  end

  assign tdo1_o = sr1_q[0];
  assign tdo2_o = sr2_q[0];

  // ---------------------------------------------------------------- clk_i --
  typedef enum logic [1:0] {
    S_IDLE = 2'd0,
    S_REQ  = 2'd1,
    S_RSP  = 2'd2
  } state_e;

  state_e state_q, state_d;
  logic   req_clk;
  logic   ack_d;
  logic   rsp_fire;

  wg_sync #(.WIDTH(1)) u_req_sync (.clk_i(clk_i), .d_i(req_q), .q_o(req_clk));

  // The command is read straight from cmd_q: it does not change between the
  // request toggle and the acknowledge.
  assign req_write_o = cmd_q[wg_jtag_pkg::U1_WR];
  assign req_addr_o  = cmd_q[wg_jtag_pkg::U1_ADDR +: wg_jtag_pkg::ADDR_W];
  assign req_wdata_o = cmd_q[DW-1:0];
  assign rsp_fire    = rsp_valid_i && rsp_ready_o;

  always_comb begin
    state_d     = state_q;
    ack_d       = ack_q;
    req_valid_o = 1'b0;
    rsp_ready_o = 1'b0;
    unique case (state_q)
      S_IDLE: if (req_clk != ack_q) state_d = S_REQ;
      S_REQ: begin
        req_valid_o = 1'b1;
        if (req_ready_i) state_d = S_RSP;
      end
      S_RSP: begin
        rsp_ready_o = 1'b1;
        if (rsp_valid_i) begin
          ack_d   = !ack_q;
          state_d = S_IDLE;
        end
      end
      default: state_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q     <= S_IDLE;
      ack_q       <= req_clk;
      rsp_rdata_q <= '0;
      rsp_err_q   <= 1'b0;
    end else begin
      state_q <= state_d;
      ack_q   <= ack_d;
      if (rsp_fire) begin
        rsp_rdata_q <= rsp_rdata_i;
        rsp_err_q   <= rsp_err_i;
      end
    end
  end

  // Status for USER2, registered in clk_i before it crosses.
  always_ff @(posedge clk_i) begin
    st_q <= {!rst_ni, status_i};
  end

`ifndef SYNTHESIS
  // The TAP selects one user register at a time.
  always_ff @(posedge tck_i) begin
    assert (!(sel1_i && sel2_i)) else $error("wg_jtag_dtm: USER1 and USER2 selected together");
  end
  // The command stays put while a transfer is under way (the handshake holds it).
  logic [U1W-1:0] cmd_seen_q;
  logic           active_q;
  always_ff @(posedge clk_i) begin
    cmd_seen_q <= cmd_q;
    active_q   <= rst_ni && state_q != S_IDLE;
    if (rst_ni && active_q && state_q != S_IDLE) begin
      assert (cmd_q == cmd_seen_q) else $error("wg_jtag_dtm: command changed during its transfer");
    end
    if (rst_ni && state_q == S_IDLE) begin
      assert (!rsp_valid_i) else $error("wg_jtag_dtm: response with no request outstanding");
    end
  end
`endif

endmodule
