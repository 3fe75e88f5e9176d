// wg_fx2_fifo: the FPGA side of the Cypress FX2LP (CY7C68013A) synchronous slave FIFO
// interface (docs/fx2.md sections 5 and 5.1), bridged to two 8-bit valid/ready byte streams.
//
//   FX2 EP2 FIFO (host -> FPGA) --FD, SLRD, FLAGA--> capture --> rx FIFO --> rx_* (the link engine)
//   FX2 EP6 FIFO (FPGA -> host) <--FD, SLWR, PKTEND, FLAGB-- hold <-- tx FIFO <-- tx_*
//
// Everything runs on IFCLK (48 MHz, driven by the FX2). FD is shared, so the bridge is in a
// read phase (FIFOADR 00, SLOE low) or a write phase (FIFOADR 10, FD driven), with one
// turnaround cycle between them. Every pin output is a register.
//
// The FX2's flags show its state before the strobe the same edge executes (docs/fx2.md 5.1),
// so each strobe is judged at the edge that executes it: a read took a byte iff FLAGA (EP2
// empty, active low) is high at that edge, a write (or PKTEND) was taken iff FLAGB (EP6 full,
// active low) is high there; a write not taken is repeated with the same byte. Both ways run
// at one byte per IFCLK, with no byte lost or doubled.
//
// Short packets: when the tx side has been empty for PKTEND_IDLE cycles and the current EP6
// packet holds bytes (counted modulo PKT_BYTES), PKTEND is pulsed and the FX2 sends it.
`default_nettype none

module wg_fx2_fifo #(
  parameter int unsigned RX_DEPTH    = 8,    // rx FIFO (>= 4: three bytes may be in flight)
  parameter int unsigned TX_DEPTH    = 4,    // tx FIFO
  parameter int unsigned PKT_BYTES   = 512,  // EP6AUTOINLEN at high speed (power of 2)
  parameter int unsigned PKTEND_IDLE = 64,   // idle cycles before a short packet is committed
  parameter int unsigned BURST       = 512   // bytes one phase moves before it yields to the other
) (
  input  wire logic       clk_i,       // IFCLK
  input  wire logic       rst_ni,      // synchronous to IFCLK

  // FX2 pins (FIFO interface; active-low strobes and flags as the firmware configures them).
  input  wire logic [7:0] fd_i,
  output logic      [7:0] fd_o,
  output logic            fd_oe_o,     // 1: the FPGA drives FD
  input  wire logic       flaga_ni,    // EP2 empty, active low
  input  wire logic       flagb_ni,    // EP6 full, active low
  output logic            slrd_no,
  output logic            slwr_no,
  output logic            sloe_no,
  output logic            pktend_no,
  output logic      [1:0] fifoadr_o,

  // Bytes from the host (EP2).
  output logic            rx_valid_o,
  input  wire logic       rx_ready_i,
  output logic      [7:0] rx_data_o,
  // Bytes to the host (EP6).
  input  wire logic       tx_valid_i,
  output logic            tx_ready_o,
  input  wire logic [7:0] tx_data_i,

  // Activity, one pulse per event, for counters.
  output logic            rd_fire_o,   // a byte read from EP2
  output logic            wr_fire_o,   // a byte written into EP6
  output logic            pktend_fire_o, // a short packet committed
  // Nothing in flight or buffered and no short packet pending: the bridge holds every
  // register until a flag changes or a tx byte arrives.
  output logic            idle_o
);

  localparam int unsigned RX_CNT_W = $clog2(RX_DEPTH + 1);
  localparam int unsigned PART_W   = $clog2(PKT_BYTES);
  localparam int unsigned IDLE_W   = $clog2(PKTEND_IDLE + 1);
  localparam int unsigned BURST_W  = $clog2(BURST + 1);
  localparam logic [1:0]  ADR_EP2  = 2'b00;
  localparam logic [1:0]  ADR_EP6  = 2'b10;

  typedef enum logic [1:0] {
    RD_TURN = 2'd0,   // SLOE low, FIFOADR 00, no strobe: FD turns round to the FX2
    RD      = 2'd1,   // reads
    WR_TURN = 2'd2,   // SLOE high, FIFOADR 10, FD released, no strobe
    WR      = 2'd3    // writes and PKTEND
  } phase_e;

  phase_e               phase_q, phase_d;
  logic                 rd_q, rd_d, wr_q, wr_d, pend_q, pend_d;
  logic                 cap_valid_q, cap_valid_d;
  logic [7:0]           cap_data_q;
  logic                 hold_valid_q, hold_valid_d;
  logic [7:0]           hold_data_q, hold_data_d;
  logic [PART_W-1:0]    part_q, part_d;
  logic [IDLE_W-1:0]    idle_q, idle_d;
  logic [BURST_W-1:0]   burst_q, burst_d;
  logic                 sloe_nq, fd_oe_q;
  logic [1:0]           adr_q;

  // ---- FIFOs between the pins and the streams ----
  logic                 rxf_ready, rxf_full, rxf_empty;
  logic [RX_CNT_W-1:0]  rxf_count;
  logic                 txf_valid, txf_pop, txf_full, txf_empty;
  logic [7:0]           txf_data;
  logic [$clog2(TX_DEPTH + 1)-1:0] txf_count;

  wg_fifo #(.DEPTH(RX_DEPTH), .WIDTH(8)) u_rx_fifo (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .flush_i     (1'b0),
    .in_valid_i  (cap_valid_q),
    .in_ready_o  (rxf_ready),
    .in_data_i   (cap_data_q),
    .out_valid_o (rx_valid_o),
    .out_ready_i (rx_ready_i),
    .out_data_o  (rx_data_o),
    .count_o     (rxf_count),
    .full_o      (rxf_full),
    .empty_o     (rxf_empty)
  );

  wg_fifo #(.DEPTH(TX_DEPTH), .WIDTH(8)) u_tx_fifo (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .flush_i     (1'b0),
    .in_valid_i  (tx_valid_i),
    .in_ready_o  (tx_ready_o),
    .in_data_i   (tx_data_i),
    .out_valid_o (txf_valid),
    .out_ready_i (txf_pop),
    .out_data_o  (txf_data),
    .count_o     (txf_count),
    .full_o      (txf_full),
    .empty_o     (txf_empty)
  );

  // ---- strobes judged at the edge that executes them ----
  logic rd_took, wr_took, pend_took;
  assign rd_took   = rd_q && flaga_ni;
  assign wr_took   = wr_q && flagb_ni;
  assign pend_took = pend_q && flagb_ni;

  // Room for a new read: the bytes that may still arrive (captured, in flight, the new one).
  logic rd_room;
  assign rd_room = (32'(rxf_count) + 32'(cap_valid_q) + 32'(rd_q) + 1) <= RX_DEPTH;

  logic rd_work, wr_work, wr_possible, pkt_due;

  always_comb begin
    phase_d      = phase_q;
    rd_d         = 1'b0;
    wr_d         = 1'b0;
    pend_d       = 1'b0;
    cap_valid_d  = rd_took;
    hold_valid_d = hold_valid_q && !wr_took;
    hold_data_d  = hold_data_q;
    txf_pop      = 1'b0;
    part_d       = part_q;
    idle_d       = idle_q;
    burst_d      = burst_q;

    // The byte on FD leaves the hold register when taken; the next one comes from the tx FIFO.
    if (!hold_valid_d && txf_valid) begin
      txf_pop      = 1'b1;
      hold_valid_d = 1'b1;
      hold_data_d  = txf_data;
    end

    // Bytes of the current EP6 packet; a full packet is committed by the FX2 (AUTOIN).
    if (wr_took)   part_d = part_q + 1'b1;
    if (pend_took) part_d = '0;
    // Output idle time with a partial packet written.
    if (part_d == '0 || hold_valid_d || wr_took) idle_d = '0;
    else if (32'(idle_q) < PKTEND_IDLE) idle_d = idle_q + 1'b1;
    pkt_due = part_d != '0 && 32'(idle_d) >= PKTEND_IDLE;

    if (rd_took || wr_took) burst_d = burst_q + 1'b1;

    rd_work     = flaga_ni && rd_room;
    wr_work     = hold_valid_d || pkt_due;
    wr_possible = wr_work && flagb_ni;

    unique case (phase_q)
      RD_TURN: phase_d = RD;
      RD: begin
        if (wr_possible && (!rd_work || 32'(burst_d) >= BURST)) phase_d = WR_TURN;
      end
      WR_TURN: phase_d = WR;
      WR: begin
        if (rd_work && (!wr_possible || 32'(burst_d) >= BURST)) phase_d = RD_TURN;
      end
      default: phase_d = RD_TURN;
    endcase
    if (phase_d != phase_q) burst_d = '0;

    // Strobes of the next cycle.
    if (phase_d == RD && phase_q == RD) rd_d = rd_work;
    if (phase_d == WR && phase_q == WR) begin
      wr_d   = hold_valid_d;
      pend_d = !hold_valid_d && pkt_due;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      phase_q      <= RD_TURN;
      rd_q         <= 1'b0;
      wr_q         <= 1'b0;
      pend_q       <= 1'b0;
      cap_valid_q  <= 1'b0;
      cap_data_q   <= '0;
      hold_valid_q <= 1'b0;
      hold_data_q  <= '0;
      part_q       <= '0;
      idle_q       <= '0;
      burst_q      <= '0;
      sloe_nq      <= 1'b1;
      fd_oe_q      <= 1'b0;
      adr_q        <= ADR_EP2;
    end else begin
      phase_q      <= phase_d;
      rd_q         <= rd_d;
      wr_q         <= wr_d;
      pend_q       <= pend_d;
      cap_valid_q  <= cap_valid_d;
      cap_data_q   <= fd_i;
      hold_valid_q <= hold_valid_d;
      hold_data_q  <= hold_data_d;
      part_q       <= part_d;
      idle_q       <= idle_d;
      burst_q      <= burst_d;
      sloe_nq      <= !(phase_d == RD_TURN || phase_d == RD);
      fd_oe_q      <= phase_d == WR;
      adr_q        <= (phase_d == WR_TURN || phase_d == WR) ? ADR_EP6 : ADR_EP2;
    end
  end

  assign fd_o      = hold_data_q;
  assign fd_oe_o   = fd_oe_q;
  assign slrd_no   = !rd_q;
  assign slwr_no   = !wr_q;
  assign pktend_no = !pend_q;
  assign sloe_no   = sloe_nq;
  assign fifoadr_o = adr_q;

  assign rd_fire_o     = rd_took;
  assign wr_fire_o     = wr_took;
  assign pktend_fire_o = pend_took;
  assign idle_o        = !rd_q && !wr_q && !pend_q && !cap_valid_q && !hold_valid_q && rxf_empty && txf_empty
                         && part_q == '0 && !flaga_ni;

  logic unused_fifo;
  assign unused_fifo = ^{rxf_full, txf_full, txf_count, rxf_ready};

`ifndef SYNTHESIS
  // A captured byte always finds room; a write strobe always has its byte on FD; at most one
  // strobe at a time, each in its own phase.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!cap_valid_q || rxf_ready)
        else $error("wg_fx2_fifo: rx FIFO overflow");
      assert (!wr_q || (hold_valid_q && fd_oe_q && adr_q == ADR_EP6))
        else $error("wg_fx2_fifo: SLWR without a byte on FD");
      assert (!rd_q || (!fd_oe_q && !sloe_nq && adr_q == ADR_EP2))
        else $error("wg_fx2_fifo: SLRD outside the read phase");
      assert (32'(rd_q) + 32'(wr_q) + 32'(pend_q) <= 1)
        else $error("wg_fx2_fifo: two strobes in one cycle");
      assert (!pend_q || (part_q != '0 && adr_q == ADR_EP6))
        else $error("wg_fx2_fifo: PKTEND with no partial packet");
    end
  end
`endif

endmodule
