// wg_fx2_loop: an FX2LP slave-FIFO byte loop-back (docs/fpga.md section 5), the bring-up
// image of the board wiring: every byte the host writes to EP2 comes back on EP6, in order.
// It checks the FX2 firmware (docs/fx2.md), the cable and the pins before the GPU top is
// loaded, and it is the design `make fpga` places and routes for the iCE40 target
// (rtl/wg_ice40_top.sv), where the SM does not fit (docs/fpga.md section 3).
//
// Pin protocol (docs/fx2.md sections 5 and 6; synchronous slave FIFO, 8-bit bus, every
// strobe and flag active low; clk_i is IFCLK, 48 MHz from the FX2):
//   read  (EP2, FIFOADR 00): SLOE low makes the FX2 drive FD with the byte at the head of
//         EP2; a rising edge with SLRD low takes that byte and advances the FIFO.
//   write (EP6, FIFOADR 10): the FPGA drives FD; a rising edge with SLWR low writes it.
//   PKTEND low at a rising edge (FIFOADR 10) commits a short EP6 packet.
//   FLAGA low: EP2 empty; FLAGB low: EP6 full.
// The flags and FD are registered as they come in (IO timing at 48 MHz), and the FX2's flags
// follow a strobe only after its clock edge, so a strobe is followed by two gap cycles
// before a flag is believed again: one byte per three cycles, 16 MB/s, a bring-up figure
// (the GPU top's bridge is rtl/wg_fx2_fifo.sv). Changing direction takes a turn-around cycle in which nobody
// drives FD: SLOE goes high one cycle before the FPGA's driver turns on, and the FPGA's
// driver goes off one cycle before SLOE goes low. A short packet is committed with PKTEND
// when no byte has moved for IDLE_CYCLES and the bytes written since the last commit are
// not a whole 512-byte packet (which AUTOIN has committed already).
`default_nettype none

module wg_fx2_loop #(
  parameter int unsigned DEPTH       = 16,    // loop-back FIFO, bytes
  parameter int unsigned IDLE_CYCLES = 64     // quiet cycles before a short packet is committed
) (
  input  wire logic       clk_i,              // IFCLK
  input  wire logic       rst_ni,

  // FX2 pins (active low as on the chip).
  input  wire logic       flaga_ni,           // EP2 empty
  input  wire logic       flagb_ni,           // EP6 full
  input  wire logic [7:0] fd_i,
  output logic      [7:0] fd_o,
  output logic            fd_oe_o,            // the FPGA drives FD
  output logic            slrd_no,
  output logic            slwr_no,
  output logic            sloe_no,
  output logic            pktend_no,
  output logic      [1:0] fifoadr_o,

  output logic            rx_o,               // pulse: a byte taken from EP2
  output logic            tx_o                // pulse: a byte written to EP6
);

  localparam logic [1:0] ADR_EP2 = 2'b00;
  localparam logic [1:0] ADR_EP6 = 2'b10;
  localparam int unsigned IDLE_W = $clog2(IDLE_CYCLES + 1);

  typedef enum logic [3:0] {
    S_RD,       // FIFOADR EP2, SLOE low: read when EP2 has a byte and the FIFO room
    S_RD_GAP1,  // after a read strobe: the byte goes into the FIFO
    S_RD_GAP2,
    S_TURN_W,   // nobody drives FD; FIFOADR EP6
    S_WR,       // the FPGA drives FD: write when EP6 has room
    S_WR_GAP1,  // after a write strobe
    S_WR_GAP2,
    S_TURN_R,   // the FPGA's driver off; FIFOADR EP2
    S_PKTEND    // PKTEND low for one cycle
  } state_e;

  state_e state_q, state_d;

  // The loop-back FIFO.
  logic       q_in_valid, q_in_ready, q_out_valid, q_out_ready, q_empty_unused;
  logic [7:0] q_out_data;
  logic       q_full_unused;
  logic [$clog2(DEPTH + 1)-1:0] q_count_unused;

  wg_fifo #(.DEPTH(DEPTH), .WIDTH(8)) u_q (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .flush_i     (1'b0),
    .in_valid_i  (q_in_valid),
    .in_ready_o  (q_in_ready),
    .in_data_i   (fd_q),
    .out_valid_o (q_out_valid),
    .out_ready_i (q_out_ready),
    .out_data_o  (q_out_data),
    .count_o     (q_count_unused),
    .full_o      (q_full_unused),
    .empty_o     (q_empty_unused)
  );

  // Bytes written since the last commit, mod 512; quiet cycles.
  logic [8:0]        part_q, part_d;
  logic [IDLE_W-1:0] idle_q, idle_d;
  logic              rd_fire, wr_fire, ep2_has, ep6_room;

  // Inputs registered at the pins; the byte taken by a read strobe is pushed a cycle later.
  logic       flaga_q, flagb_q, push_q, rx_q, tx_q;
  logic [7:0] fd_q;
  always_ff @(posedge clk_i) begin
    fd_q    <= fd_i;
    flaga_q <= flaga_ni;
    flagb_q <= flagb_ni;
  end

  assign ep2_has  = flaga_q;
  assign ep6_room = flagb_q;

  always_comb begin
    state_d     = state_q;
    fifoadr_o   = ADR_EP2;
    sloe_no     = 1'b1;
    slrd_no     = 1'b1;
    slwr_no     = 1'b1;
    pktend_no   = 1'b1;
    fd_oe_o     = 1'b0;
    rd_fire     = 1'b0;
    wr_fire     = 1'b0;
    unique case (state_q)
      S_RD: begin
        sloe_no = 1'b0;
        if (ep2_has && q_in_ready) begin
          slrd_no = 1'b0;
          rd_fire = 1'b1;
          state_d = S_RD_GAP1;
        end else if (q_out_valid) begin
          state_d = S_TURN_W;                 // nothing to read, or the FIFO is full
        end else if (part_q != '0 && idle_q == IDLE_W'(IDLE_CYCLES)) begin
          state_d = S_TURN_W;                 // a short packet waits for PKTEND
        end
      end
      S_RD_GAP1: begin
        sloe_no = 1'b0;
        state_d = S_RD_GAP2;
      end
      S_RD_GAP2: begin
        sloe_no = 1'b0;
        state_d = S_RD;
      end
      S_TURN_W: begin
        fifoadr_o = ADR_EP6;
        state_d   = !q_out_valid ? S_PKTEND : S_WR;
      end
      S_WR: begin
        fifoadr_o = ADR_EP6;
        fd_oe_o   = 1'b1;
        if (!q_out_valid) begin
          state_d = S_TURN_R;
        end else if (ep6_room) begin
          slwr_no = 1'b0;
          wr_fire = 1'b1;
          state_d = S_WR_GAP1;
        end else if (ep2_has && q_in_ready) begin
          state_d = S_TURN_R;                 // EP6 full: keep reading meanwhile
        end
      end
      S_WR_GAP1: begin
        fifoadr_o = ADR_EP6;
        fd_oe_o   = 1'b1;
        state_d   = S_WR_GAP2;
      end
      S_WR_GAP2: begin
        fifoadr_o = ADR_EP6;
        fd_oe_o   = 1'b1;
        state_d   = S_WR;
      end
      S_TURN_R: begin
        fifoadr_o = ADR_EP2;
        state_d   = S_RD;
      end
      S_PKTEND: begin
        fifoadr_o = ADR_EP6;
        pktend_no = 1'b0;
        state_d   = S_TURN_R;
      end
      default: state_d = S_TURN_R;
    endcase
  end

  assign q_in_valid  = push_q;
  assign q_out_ready = wr_fire;
  assign fd_o        = q_out_data;
  assign rx_o        = rx_q;
  assign tx_o        = tx_q;

  always_comb begin
    part_d = part_q;
    idle_d = idle_q;
    // From the registered strobes (a cycle late: the count is read only after IDLE_CYCLES).
    if (tx_q) part_d = part_q + 9'd1;
    if (state_q == S_PKTEND) part_d = '0;
    if (rx_q || tx_q || state_q == S_PKTEND) idle_d = '0;
    else if (idle_q != IDLE_W'(IDLE_CYCLES)) idle_d = idle_q + 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= S_TURN_R;
      part_q  <= '0;
      idle_q  <= '0;
      push_q  <= 1'b0;
      rx_q    <= 1'b0;
      tx_q    <= 1'b0;
    end else begin
      state_q <= state_d;
      part_q  <= part_d;
      idle_q  <= idle_d;
      push_q  <= rd_fire;
      rx_q    <= rd_fire;
      tx_q    <= wr_fire;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(fd_oe_o && !sloe_no)) else $error("wg_fx2_loop: FD driven by both sides");
      assert (!(push_q && !q_in_ready)) else $error("wg_fx2_loop: push into a full FIFO");
      assert (!(wr_fire && !q_out_valid)) else $error("wg_fx2_loop: write from an empty FIFO");
      assert (slrd_no || fifoadr_o == ADR_EP2) else $error("wg_fx2_loop: SLRD with FIFOADR %b", fifoadr_o);
      assert ((slwr_no && pktend_no) || fifoadr_o == ADR_EP6)
        else $error("wg_fx2_loop: SLWR/PKTEND with FIFOADR %b", fifoadr_o);
    end
  end
`endif

endmodule
