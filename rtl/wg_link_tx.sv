// wg_link_tx: send side of the link engine (docs/link-rtl.md section 5).
//
//   record words ──> frame builder ──> frame store (TX_FRAMES slots of
//   (wg_link_ev)     (batching)        TX_SLOT_BYTES, block RAM, 32 bits)
//                                                   │ go-back-N window
//   HELLO reply, NAK, ACK, LERR ──────────> sender ─┴─> header + payload + CRC ──> bytes
//
//   - Builder: the offered record is copied a word per cycle (rec_widx_o names the word,
//     rec_word_i is it) into the open frame while the GPU holds its event on the port;
//     rec_ready_o rises with the last word, so the event is taken when it is in the frame
//     store and no register holds the whole record. A record whose offer ends before its
//     last word (the GPU was reset) is not kept. Records of one type are appended to the
//     open frame, which is
//     closed (takes the next sequence number) when the next record has another
//     type or does not fit the payload limit (min(TX_SLOT_BYTES, the host's
//     max_payload)), after a record that makes the GPU wait for the host
//     (rec_flush_i), or FLUSH_CYCLES after it was opened. A frame is opened only
//     in a free slot: at most TX_FRAMES frames are closed and unacknowledged, then
//     rec_ready_o stays low and the GPU's event queues fill (target time stops).
//   - Sender: link frames go first (HELLO reply, NAK, ACK, LERR), then data
//     frames from snd_tx while snd_tx != snd_nxt. Header and CRC are made while
//     the bytes go out (one CRC engine, HCHK sampled after byte 13); the payload
//     of a data frame is read from the frame store, a word per four bytes. Link
//     frames carry snd_tx as SEQ, as the C link does (tail-loss detection).
//   - Window: an ACK frees every frame below its value; a NAK also goes back to
//     its `from`; no progress for RTO_CYCLES while frames are in flight goes back
//     to the oldest. Go-backs without progress are counted; past MAX_RETRIES
//     tx_fail_o rises (the receive side reports RETRY and fails the link). The
//     receive side checks ACK and NAK against snd_una_o / snd_max_o first.
//   - hello_i (a HELLO from the host) resets sequence numbers, window and open
//     frame (a record being copied starts again from its first word in a new frame),
//     and queues the HELLO reply.
`default_nettype none

module wg_link_tx #(
  parameter int unsigned TX_FRAMES     = 8,        // frame store slots = the send window (power of 2)
  parameter int unsigned TX_SLOT_BYTES = 4096,     // payload bytes per slot (power of 2, 256..16384)
  parameter int unsigned FLUSH_CYCLES  = 256,      // an open frame is closed this long after it opened
  parameter int unsigned RTO_CYCLES    = 1000000,  // retransmission timeout
  parameter int unsigned MAX_RETRIES   = 8,
  parameter int unsigned LERR_DEPTH    = 4         // error reports waiting to go out as LERR (more are dropped)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,

  // Event records (wg_link_ev), held while offered: word rec_widx_o is rec_word_i.
  input  wire logic             rec_valid_i,
  output logic                  rec_ready_o,
  output logic      [7:0]       rec_widx_o,
  input  wire logic [31:0]      rec_word_i,
  input  wire logic [7:0]       rec_type_i,
  input  wire logic [7:0]       rec_words_i,
  input  wire logic             rec_flush_i,

  // Bytes to the host.
  output logic                  tx_valid_o,
  input  wire logic             tx_ready_i,
  output logic      [7:0]       tx_data_o,

  // From and to the receive side (wg_link_rx).
  input  wire logic             up_i,
  input  wire logic             failed_i,
  input  wire logic [31:0]      rcv_nxt_i,
  input  wire logic             hello_i,
  input  wire logic [31:0]      peer_payload_i,
  input  wire logic             ack_valid_i,
  input  wire logic             ack_nak_i,
  input  wire logic [31:0]      ack_seq_i,
  output logic      [31:0]      snd_una_o,
  output logic      [31:0]      snd_max_o,
  output logic      [31:0]      snd_tx_o,
  output logic      [31:0]      retries_o,
  input  wire logic             ack_req_i,
  input  wire logic             nak_req_i,
  input  wire logic [31:0]      nak_from_i,
  input  wire logic [31:0]      nak_got_i,
  output logic                  tx_fail_o,
  output logic      [31:0]      tx_fail_tries_o,

  // Receive-side errors to report to the host (LERR records).
  input  wire logic             lerr_valid_i,
  input  wire logic [3:0]       lerr_code_i,
  input  wire logic [7:0]       lerr_type_i,
  input  wire logic [31:0]      lerr_seq_i,
  input  wire logic [63:0]      lerr_off_i,
  input  wire logic [31:0]      lerr_exp_i,
  input  wire logic [31:0]      lerr_act_i,

  // HELLO record words from offset 4 (max_payload, window, the build), LSB first.
  input  wire logic [22*32-1:0] hello_rec_i,

  // Nothing moves at the next edge unless a record or a report arrives: nothing being
  // built or sent, nothing due, no frame in flight (the retransmission timer stopped).
  // wait_o: the same but for the retransmission timer, which may run.
  output logic                  idle_o,
  output logic                  wait_o
);

  localparam int unsigned SL_W   = $clog2(TX_FRAMES);
  localparam int unsigned SWORDS = TX_SLOT_BYTES / 4;
  localparam int unsigned SW_W   = $clog2(SWORDS);
  localparam int unsigned AW     = SL_W + SW_W;
  localparam int unsigned LQ_W   = 32 + 32 + 64 + 32 + 8 + 4;
  // Counters just wide enough for their limits.
  localparam int unsigned TW     = $clog2(RTO_CYCLES + 2);
  localparam int unsigned GW     = $clog2(FLUSH_CYCLES + 2);
  localparam int unsigned RW     = $clog2(MAX_RETRIES + 2);
  localparam logic [TW-1:0] RTO  = TW'(RTO_CYCLES);
  localparam logic [RW-1:0] MAXR = RW'(MAX_RETRIES);
  localparam logic [GW-1:0] FLUSH = GW'(FLUSH_CYCLES);
  localparam logic [31:0] SLOT   = 32'(TX_SLOT_BYTES);
  localparam logic [31:0] NFR    = 32'(TX_FRAMES);

  typedef enum logic [1:0] {B_IDLE, B_COPY} bstate_e;
  typedef enum logic [1:0] {S_IDLE, S_HDR, S_PAY, S_CRC} sstate_e;
  typedef enum logic [2:0] {K_HELLO, K_NAK, K_ACK, K_LERR, K_DATA} kind_e;

  // ---------------------------------------------------------------------------
  // Frame store.
  // ---------------------------------------------------------------------------
  logic          ram_we, ram_re;
  logic [AW-1:0] ram_waddr, ram_raddr;
  logic [31:0]   ram_wdata, ram_rdata;

  wg_ram_1r1w #(.DEPTH(TX_FRAMES * SWORDS), .WIDTH(32), .EN_GRAIN(0)) u_store (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (ram_we),
    .waddr_i (ram_waddr),
    .wdata_i (ram_wdata),
    .wbe_i   (1'b0),
    .re_i    (ram_re),
    .raddr_i (ram_raddr),
    .rdata_o (ram_rdata)
  );

  // Closed frames: type, record count and payload bytes per slot.
  logic [7:0]  fd_type_q [TX_FRAMES];
  logic [15:0] fd_nrec_q [TX_FRAMES];
  logic [15:0] fd_len_q  [TX_FRAMES];

  // ---------------------------------------------------------------------------
  // LERR queue.
  // ---------------------------------------------------------------------------
  logic            lq_push, lq_in_ready, lq_valid, lq_pop;
  logic [LQ_W-1:0] lq_out;
  localparam int unsigned LQ_CW = $clog2(LERR_DEPTH + 1);
  logic [LQ_CW-1:0] u_lq_count_unused;
  logic             u_lq_full_unused, u_lq_empty_unused;

  assign lq_push = lerr_valid_i && lq_in_ready;  // a report that finds the queue full is dropped

  wg_fifo #(.DEPTH(LERR_DEPTH), .WIDTH(LQ_W)) u_lerr (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (lq_push),
    .in_ready_o (lq_in_ready),
    .in_data_i  ({lerr_act_i, lerr_exp_i, lerr_off_i, lerr_seq_i, lerr_type_i, lerr_code_i}),
    .out_valid_o(lq_valid),
    .out_ready_i(lq_pop),
    .out_data_o (lq_out),
    .count_o    (u_lq_count_unused),
    .full_o     (u_lq_full_unused),
    .empty_o    (u_lq_empty_unused)
  );

  // ---------------------------------------------------------------------------
  // State.
  // ---------------------------------------------------------------------------
  logic [31:0] snd_una_q, snd_una_d, snd_tx_q, snd_tx_d, snd_max_q, snd_max_d, snd_nxt_q, snd_nxt_d;
  logic [RW-1:0] retries_q, retries_d, fail_tries_q, fail_tries_d;
  logic [TW-1:0] tmr_q, tmr_d;
  logic        fail_q, fail_d;
  logic        hello_due_q, hello_due_d, ack_due_q, ack_due_d, nak_due_q, nak_due_d;


  bstate_e     bst_q, bst_d;
  logic        open_q, open_d, flush_pend_q, flush_pend_d;
  logic [7:0]  open_type_q, open_type_d, cw_q, cw_d;
  logic [15:0] open_len_q, open_len_d, open_nrec_q, open_nrec_d, pay_lim_q, pay_lim_d;
  logic [GW-1:0] age_q, age_d;
  logic        close;

  sstate_e          sst_q, sst_d;
  kind_e            fk_q, fk_d;
  logic [7:0]       f_type_q, f_type_d, hchk_hi_q, hchk_hi_d;
  logic [15:0]      f_len_q, f_len_d, f_nrec_q, f_nrec_d, idx_q, idx_d;
  logic [31:0]      f_seq_q, f_seq_d;
  logic [SL_W-1:0]  f_slot_q, f_slot_d;
  logic [191:0]     lk_q, lk_d;               // ACK, NAK or LERR record

  logic        tx_fire, crc_init, crc_en;
  logic [31:0] crc;

  wg_crc32 #(.DATA_W(8)) u_crc (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .init_i (crc_init),
    .en_i   (crc_en),
    .data_i (tx_data_o),
    .crc_o  (crc)
  );

  assign tx_valid_o = (sst_q != S_IDLE);
  assign tx_fire    = tx_valid_o && tx_ready_i;

  // ---------------------------------------------------------------------------
  // Capture and frame builder.
  // ---------------------------------------------------------------------------
  logic            sending_data, can_open, fits;
  logic [SL_W-1:0] open_slot;
  logic [9:0]      rec_bytes;

  // Taken with its last word (its size and flush are the held event's); a record that is not
  // offered any more is not copied on.
  assign rec_ready_o  = (bst_q == B_COPY) && rec_valid_i && (cw_q == rec_words_i - 8'd1);
  assign rec_widx_o   = cw_q;
  assign sending_data = (sst_q != S_IDLE) && (fk_q == K_DATA);
  assign open_slot    = snd_nxt_q[SL_W-1:0];
  // A free slot, not the one still going out (acknowledged while being sent).
  assign can_open     = (snd_nxt_q - snd_una_q < NFR) && !(sending_data && f_slot_q == open_slot);
  assign rec_bytes    = {rec_words_i, 2'b00};
  assign fits         = {1'b0, open_len_q} + 17'(rec_bytes) <= {1'b0, pay_lim_q};

  always_comb begin
    bst_d        = bst_q;
    open_d       = open_q;
    open_type_d  = open_type_q;
    open_len_d   = open_len_q;
    open_nrec_d  = open_nrec_q;
    flush_pend_d = flush_pend_q;
    cw_d         = cw_q;
    age_d        = (open_q && age_q != FLUSH) ? age_q + 1'b1 : age_q;  // up to FLUSH
    close        = 1'b0;
    ram_we       = 1'b0;
    ram_waddr    = {open_slot, SW_W'(open_len_q >> 2) + SW_W'(cw_q)};
    ram_wdata    = rec_word_i;
    unique case (bst_q)
      B_IDLE: begin
        if (open_q && open_nrec_q != '0 && (flush_pend_q || age_q == FLUSH ||
                       (rec_valid_i && !(open_type_q == rec_type_i && fits)))) begin
          close        = 1'b1;
          open_d       = 1'b0;
          flush_pend_d = 1'b0;
        end else if (rec_valid_i && !open_q && can_open) begin
          open_d      = 1'b1;
          open_type_d = rec_type_i;
          open_len_d  = '0;
          open_nrec_d = '0;
          age_d       = '0;
        end else if (rec_valid_i && open_q) begin
          bst_d = B_COPY;
          cw_d  = '0;
        end
      end
      default: begin                           // B_COPY: one word per cycle
        cw_d = cw_q + 8'd1;
        if (!rec_valid_i) begin                // the GPU was reset: the record is gone
          bst_d = B_IDLE;
        end else begin
          ram_we = 1'b1;
          if (rec_ready_o) begin
            open_len_d  = open_len_q + 16'(rec_bytes);
            open_nrec_d = open_nrec_q + 16'd1;
            if (rec_flush_i) flush_pend_d = 1'b1;
            bst_d = B_IDLE;
          end
        end
      end
    endcase
    if (hello_i) begin                         // the host restarted: forget everything
      bst_d        = B_IDLE;
      open_d       = 1'b0;
      flush_pend_d = 1'b0;
      close        = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (close) begin
      fd_type_q[open_slot] <= open_type_q;
      fd_nrec_q[open_slot] <= open_nrec_q;
      fd_len_q[open_slot]  <= open_len_q;
    end
  end

  // ---------------------------------------------------------------------------
  // Window: sequence numbers, ACK / NAK, retransmission timer.
  // ---------------------------------------------------------------------------
  logic        start;
  kind_e       pick;
  logic        have, timeout;
  logic [31:0]   ack_d;
  logic [RW-1:0] ack_r1;

  assign ack_d   = ack_seq_i - snd_una_q;
  assign ack_r1  = (ack_d != '0) ? '0 : retries_q;
  // The timer runs only while it can time out (frames in flight on a working link): it is read
  // only then and cleared whenever that starts, so an idle engine holds every register.
  logic tmr_run;
  assign tmr_run = up_i && !failed_i && !fail_q && (snd_tx_q != snd_una_q);
  assign timeout = tmr_run && (tmr_q >= RTO);

  // What the sender starts next, when idle.
  always_comb begin
    have = 1'b1;
    pick = K_DATA;
    if (hello_due_q)                                           pick = K_HELLO;
    else if (up_i && !failed_i && nak_due_q)                   pick = K_NAK;
    else if (up_i && !failed_i && ack_due_q)                   pick = K_ACK;
    else if ((up_i || failed_i) && lq_valid)                   pick = K_LERR;
    else if (up_i && !failed_i && snd_tx_q != snd_nxt_q &&
             !ack_valid_i && !hello_i && !timeout)             pick = K_DATA;
    else                                                       have = 1'b0;
  end
  assign start = (sst_q == S_IDLE) && have;

  always_comb begin
    snd_una_d    = snd_una_q;
    snd_tx_d     = snd_tx_q;
    snd_max_d    = snd_max_q;
    snd_nxt_d    = close ? snd_nxt_q + 32'd1 : snd_nxt_q;
    retries_d    = retries_q;
    tmr_d        = (tmr_run && tmr_q < RTO) ? tmr_q + 1'b1 : tmr_q;
    fail_d       = fail_q;
    fail_tries_d = fail_tries_q;
    hello_due_d  = hello_due_q;
    ack_due_d    = ack_due_q || ack_req_i;
    nak_due_d    = nak_due_q || nak_req_i;
    pay_lim_d    = pay_lim_q;

    if (start) begin
      unique case (pick)
        K_HELLO: hello_due_d = 1'b0;
        K_NAK: begin
          nak_due_d = 1'b0;
          if (nak_from_i == rcv_nxt_i) ack_due_d = 1'b0;   // the NAK acknowledges as much
        end
        K_ACK:   ack_due_d = 1'b0;
        K_LERR:  ;
        default: begin                                      // K_DATA
          snd_tx_d = snd_tx_q + 32'd1;
          if (wg_link_pkg::seq_before(snd_max_q, snd_tx_q + 32'd1)) snd_max_d = snd_tx_q + 32'd1;
          if (snd_tx_q == snd_una_q) tmr_d = '0;            // the timer runs while frames are in flight
        end
      endcase
    end

    if (ack_valid_i) begin                     // checked by the receive side: inside the window
      if (ack_d != '0) begin
        snd_una_d = ack_seq_i;
        retries_d = '0;
        tmr_d     = '0;
        if (wg_link_pkg::seq_before(snd_tx_q, ack_seq_i)) snd_tx_d = ack_seq_i;
      end
      if (ack_nak_i && (wg_link_pkg::seq_before(snd_tx_q, ack_seq_i) ? ack_seq_i : snd_tx_q) != ack_seq_i) begin
        retries_d = ack_r1 + 1'b1;             // go back to the NAK's `from`
        snd_tx_d  = ack_seq_i;
        tmr_d     = '0;
      end
    end else if (timeout) begin
      if (retries_q >= MAXR) begin
        fail_d       = 1'b1;
        fail_tries_d = retries_q + 1'b1;
      end else begin
        retries_d = retries_q + 1'b1;
        snd_tx_d  = snd_una_q;
        tmr_d     = '0;
      end
    end

    if (hello_i) begin
      snd_una_d   = '0;
      snd_tx_d    = '0;
      snd_max_d   = '0;
      snd_nxt_d   = '0;
      retries_d   = '0;
      tmr_d       = '0;
      fail_d      = 1'b0;
      hello_due_d = 1'b1;
      ack_due_d   = 1'b0;
      nak_due_d   = 1'b0;
      pay_lim_d   = (peer_payload_i < SLOT) ? peer_payload_i[15:0] : SLOT[15:0];
    end
  end

  // ---------------------------------------------------------------------------
  // Sender.
  // ---------------------------------------------------------------------------
  logic [15:0]      pidx;
  logic [92*8-1:0]  hello_rec;
  logic [7:0]       hdr_byte, pay_byte;
  logic [SW_W-1:0]  next_word;

  assign hello_rec = {hello_rec_i, wg_link_pkg::HELLO_REPLY, wg_link_pkg::ROLE_GPU, wg_link_pkg::VERSION};
  assign pidx      = idx_q - 16'd16;
  assign next_word = SW_W'((pidx + 16'd1) >> 2);

  always_comb begin
    unique case (idx_q[3:0])
      4'd0:    hdr_byte = wg_link_pkg::SYNC0;
      4'd1:    hdr_byte = wg_link_pkg::SYNC1;
      4'd2:    hdr_byte = wg_link_pkg::SYNC2;
      4'd3:    hdr_byte = wg_link_pkg::SYNC3;
      4'd4:    hdr_byte = f_type_q;
      4'd5:    hdr_byte = 8'd0;
      4'd6:    hdr_byte = f_len_q[7:0];
      4'd7:    hdr_byte = f_len_q[15:8];
      4'd8:    hdr_byte = f_seq_q[7:0];
      4'd9:    hdr_byte = f_seq_q[15:8];
      4'd10:   hdr_byte = f_seq_q[23:16];
      4'd11:   hdr_byte = f_seq_q[31:24];
      4'd12:   hdr_byte = f_nrec_q[7:0];
      4'd13:   hdr_byte = f_nrec_q[15:8];
      4'd14:   hdr_byte = crc[7:0];            // HCHK: CRC of bytes 0..13
      default: hdr_byte = hchk_hi_q;
    endcase
    unique case (fk_q)
      K_DATA:  pay_byte = ram_rdata[idx_q[1:0]*8 +: 8];
      K_HELLO: pay_byte = hello_rec[pidx[6:0]*8 +: 8];
      default: pay_byte = lk_q[pidx[4:0]*8 +: 8];
    endcase
    unique case (sst_q)
      S_HDR:   tx_data_o = hdr_byte;
      S_PAY:   tx_data_o = pay_byte;
      S_CRC:   tx_data_o = crc[idx_q[1:0]*8 +: 8];
      default: tx_data_o = 8'd0;
    endcase
  end

  always_comb begin
    sst_d     = sst_q;
    fk_d      = fk_q;
    f_type_d  = f_type_q;
    f_len_d   = f_len_q;
    f_nrec_d  = f_nrec_q;
    f_seq_d   = f_seq_q;
    f_slot_d  = f_slot_q;
    idx_d     = idx_q;
    lk_d      = lk_q;
    hchk_hi_d = hchk_hi_q;
    lq_pop    = 1'b0;
    crc_init  = 1'b0;
    crc_en    = tx_fire && (sst_q == S_HDR || sst_q == S_PAY);
    ram_re    = 1'b0;
    ram_raddr = {f_slot_q, next_word};

    if (start) begin
      sst_d    = S_HDR;
      fk_d     = pick;
      idx_d    = '0;
      crc_init = 1'b1;
      f_seq_d  = snd_tx_q;
      f_nrec_d = 16'd1;
      lk_d     = '0;
      unique case (pick)
        K_HELLO: begin
          f_type_d = wg_link_pkg::T_HELLO;
          f_len_d  = 16'(wg_link_pkg::HELLO_SIZE);
        end
        K_NAK: begin
          f_type_d    = wg_link_pkg::T_NAK;
          f_len_d     = 16'(wg_link_pkg::NAK_SIZE);
          lk_d[63:0]  = {nak_got_i, nak_from_i};
        end
        K_ACK: begin
          f_type_d    = wg_link_pkg::T_ACK;
          f_len_d     = 16'(wg_link_pkg::ACK_SIZE);
          lk_d[31:0]  = rcv_nxt_i;
        end
        K_LERR: begin
          lq_pop      = 1'b1;
          f_type_d    = wg_link_pkg::T_LERR;
          f_len_d     = 16'(wg_link_pkg::LERR_SIZE);
          // code u8, type u8, rsv u16, seq, offset u64, expected, actual
          lk_d        = {lq_out[LQ_W-1:12], 16'd0, lq_out[11:4], 4'd0, lq_out[3:0]};
        end
        default: begin                         // K_DATA: word 0 of its slot is read now
          f_slot_d  = snd_tx_q[SL_W-1:0];
          f_type_d  = fd_type_q[snd_tx_q[SL_W-1:0]];
          f_nrec_d  = fd_nrec_q[snd_tx_q[SL_W-1:0]];
          f_len_d   = fd_len_q[snd_tx_q[SL_W-1:0]];
          ram_re    = 1'b1;
          ram_raddr = {snd_tx_q[SL_W-1:0], SW_W'(0)};
        end
      endcase
    end else if (tx_fire) begin
      idx_d = idx_q + 16'd1;
      unique case (sst_q)
        S_HDR: begin
          if (idx_q == 16'd14) hchk_hi_d = crc[15:8];
          if (idx_q == 16'd15) sst_d = S_PAY;
        end
        S_PAY: begin
          if (idx_q == f_len_q + 16'd15) sst_d = S_CRC;
          else if (fk_q == K_DATA && idx_q[1:0] == 2'd3) ram_re = 1'b1;   // the next word
        end
        default: begin                         // S_CRC
          if (idx_q[1:0] == 2'd3) sst_d = S_IDLE;
        end
      endcase
    end
  end

  // ---------------------------------------------------------------------------
  // Registers.
  // ---------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      snd_una_q    <= '0;
      snd_tx_q     <= '0;
      snd_max_q    <= '0;
      snd_nxt_q    <= '0;
      retries_q    <= '0;
      tmr_q        <= '0;
      fail_q       <= 1'b0;
      fail_tries_q <= '0;
      hello_due_q  <= 1'b0;
      ack_due_q    <= 1'b0;
      nak_due_q    <= 1'b0;
      pay_lim_q    <= (SLOT < 32'(wg_link_pkg::PAYLOAD_MIN)) ? SLOT[15:0] : 16'(wg_link_pkg::PAYLOAD_MIN);
      bst_q        <= B_IDLE;
      open_q       <= 1'b0;
      flush_pend_q <= 1'b0;
      age_q        <= '0;
      sst_q        <= S_IDLE;
      fk_q         <= K_HELLO;
    end else begin
      snd_una_q    <= snd_una_d;
      snd_tx_q     <= snd_tx_d;
      snd_max_q    <= snd_max_d;
      snd_nxt_q    <= snd_nxt_d;
      retries_q    <= retries_d;
      tmr_q        <= tmr_d;
      fail_q       <= fail_d;
      fail_tries_q <= fail_tries_d;
      hello_due_q  <= hello_due_d;
      ack_due_q    <= ack_due_d;
      nak_due_q    <= nak_due_d;
      pay_lim_q    <= pay_lim_d;
      bst_q        <= bst_d;
      open_q       <= open_d;
      flush_pend_q <= flush_pend_d;
      age_q        <= age_d;
      sst_q        <= sst_d;
      fk_q         <= fk_d;
    end
  end

  always_ff @(posedge clk_i) begin
    open_type_q <= open_type_d;
    open_len_q  <= open_len_d;
    open_nrec_q <= open_nrec_d;
    cw_q        <= cw_d;
    f_type_q    <= f_type_d;
    f_len_q     <= f_len_d;
    f_nrec_q    <= f_nrec_d;
    f_seq_q     <= f_seq_d;
    f_slot_q    <= f_slot_d;
    idx_q       <= idx_d;
    lk_q        <= lk_d;
    hchk_hi_q   <= hchk_hi_d;
  end

  assign snd_una_o       = snd_una_q;
  assign snd_max_o       = snd_max_q;
  assign snd_tx_o        = snd_tx_q;
  assign retries_o       = 32'(retries_q);
  assign tx_fail_o       = fail_q;
  assign tx_fail_tries_o = 32'(fail_tries_q);
  assign wait_o          = (sst_q == S_IDLE) && !have && (bst_q == B_IDLE) && !open_q && !timeout;
  assign idle_o          = wait_o && !tmr_run;

  // Elaboration checks.
  if (TX_FRAMES < 2 || TX_FRAMES != (1 << SL_W)) begin : g_bad_frames
    $error("wg_link_tx: TX_FRAMES must be a power of 2, at least 2");
  end
  if (TX_SLOT_BYTES < 256 || TX_SLOT_BYTES > 16384 || TX_SLOT_BYTES != (1 << $clog2(TX_SLOT_BYTES)))
  begin : g_bad_slot
    $error("wg_link_tx: TX_SLOT_BYTES must be a power of 2 in 256..16384 (a COUNTERS record is 220 bytes)");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (snd_nxt_q - snd_una_q <= NFR)
        else $error("wg_link_tx: %0d frames closed and unacknowledged, more than the %0d slots",
                    snd_nxt_q - snd_una_q, TX_FRAMES);
      assert (snd_tx_q - snd_una_q <= snd_nxt_q - snd_una_q)
        else $error("wg_link_tx: snd_tx %0d outside [snd_una %0d, snd_nxt %0d]", snd_tx_q, snd_una_q, snd_nxt_q);
      if (ram_we) assert (32'(open_len_q) + 32'(cw_q) * 4 < SLOT)
        else $error("wg_link_tx: record written past the end of its slot");
      if (rec_valid_i) assert (rec_words_i != '0 && 32'(rec_bytes) <= SLOT)
        else $error("wg_link_tx: record of %0d words", rec_words_i);
    end
  end

  // Valid/ready rule of the byte output: a byte stays until taken.
  logic       held_q;
  logic [7:0] held_byte_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) held_q <= 1'b0;
    else         held_q <= tx_valid_o && !tx_ready_i;
    held_byte_q <= tx_data_o;
    if (rst_ni && held_q) begin
      assert (tx_valid_o && tx_data_o == held_byte_q)
        else $error("wg_link_tx: output byte withdrawn or changed before it was taken");
    end
  end
`endif

endmodule
