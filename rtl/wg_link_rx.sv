// wg_link_rx: receive side of the link engine (docs/link-rtl.md section 3).
//
//   byte stream ──> ring buffer (RX_BUF_BYTES, block RAM) ──> parser ──> frame check
//                        │   ^ replay after an error              │ good command frame:
//                        │   └────────────────────────────────────┤ descriptor queue
//                        └──> delivery: records of committed frames, byte by byte ──> rec_*
//
//   - Every received byte is written to the ring. The parser takes bytes live
//     (the byte being written) or, after an error, again from the ring: like the
//     C decoder (host/src/link.c) it restarts the search one byte after the sync
//     word it had trusted, so the frames a damaged header or length swallowed are
//     found again, and it judges a candidate frame only once all its bytes are in.
//     The outcome is the C decoder's, report for report.
//   - Checks: sync word, header check (HCHK), length (against RX_PAYLOAD and NREC
//     x record size), frame type, CRC-32, record fields (FIELD: flags, reserved
//     bytes, the MRSP tag against MEM_TAG_W), sequence number.
//   - A good command frame with the expected sequence number is committed: a
//     descriptor (payload pointer, type, record count) enters the descriptor
//     queue and its bytes stay in the ring until delivered, so an ACK is asked
//     for as soon as a frame is committed. Frames are delivered in order, one
//     record at a time, to wg_link_cmd (rec_*): a record's bytes one per cycle,
//     then the next record once rec_ready_i is back.
//   - Link frames from the host: HELLO (starts or restarts the link, tx side
//     reset through hello_o), ACK and NAK (to the tx side through ack_*), LERR
//     (ignored: the host's own diagnostics).
//   - Every error goes out on the report port (rep_*), one per cycle, with the
//     fields of a C link report; wg_link forwards codes 1..10 to the tx side,
//     which sends them to the host as LERR frames.
//   - Link states WAIT (no HELLO yet) -> UP -> FAILED on a fatal error (TYPE,
//     FIELD, VERSION, WINDOW, RETRY). In FAILED only a HELLO is acted on: it
//     restarts the link (a C link stays failed; a board has no other way back).
`default_nettype none

module wg_link_rx #(
  parameter int unsigned RX_BUF_BYTES = 32768,   // ring buffer bytes (power of 2, >= RX_PAYLOAD + 20)
  parameter int unsigned RX_PAYLOAD   = 16364,   // largest payload accepted (HELLO max_payload)
  parameter int unsigned DESC_DEPTH   = 4,       // committed frames awaiting delivery
  parameter int unsigned MEM_TAG_W    = 8,       // MRSP tags above 2^MEM_TAG_W - 1 are FIELD errors
  parameter int unsigned RTO_CYCLES   = 1000000, // NAK repeat interval
  parameter int unsigned MAX_RETRIES  = 8,       // NAK repeats without progress before RETRY
  // Derived: do not override.
  parameter int unsigned RA_W = $clog2(RX_BUF_BYTES)
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,

  // Bytes from the host.
  input  wire logic        rx_valid_i,
  output logic             rx_ready_o,
  input  wire logic [7:0]  rx_data_i,

  // Records of committed command frames, byte by byte (to wg_link_cmd).
  output logic             rec_valid_o,
  input  wire logic        rec_ready_i,
  output logic [7:0]       rec_data_o,
  output logic [7:0]       rec_type_o,
  output logic [7:0]       rec_off_o,     // byte offset in the record
  output logic             rec_last_o,    // last byte of the record

  // Link state and control of the tx side.
  output logic             up_o,
  output logic             failed_o,
  output logic [31:0]      rcv_nxt_o,     // next command frame expected (ACK value)
  output logic             hello_o,       // a good HELLO: reset the tx side, reply
  output logic [31:0]      peer_payload_o,// the host's max_payload (with hello_o)
  output logic             ack_valid_o,   // an ACK or NAK to apply (checked against the window)
  output logic             ack_nak_o,     // it is a NAK: go back to ack_seq_o
  output logic [31:0]      ack_seq_o,
  input  wire logic [31:0] snd_una_i,     // tx side: oldest unacknowledged event frame
  input  wire logic [31:0] snd_max_i,     //          one past the highest sent
  input  wire logic [31:0] snd_tx_i,      //          next to send
  input  wire logic [31:0] retries_i,     //          go-backs without progress
  output logic             ack_req_o,     // an ACK is due
  output logic             nak_req_o,     // a NAK is due
  output logic [31:0]      nak_from_o,
  output logic [31:0]      nak_got_o,
  input  wire logic        tx_fail_i,     // tx side: retransmission limit reached
  input  wire logic [31:0] tx_fail_tries_i,

  // Reports (one per cycle; fields as struct wg_link_report).
  output logic             rep_valid_o,
  output logic [3:0]       rep_code_o,
  output logic [7:0]       rep_type_o,
  output logic [31:0]      rep_seq_o,
  output logic [63:0]      rep_off_o,
  output logic [31:0]      rep_exp_o,
  output logic [31:0]      rep_act_o,

  // Nothing moves at the next edge unless a byte arrives: no byte being parsed or
  // replayed, no frame being delivered, no report, no NAK outstanding (its timer stopped).
  // wait_o: the same but for the NAK timer, which may run.
  output logic             idle_o,
  output logic             wait_o
);

  localparam int unsigned RP_W = RA_W + 1;               // ring pointers: one wrap bit
  localparam int unsigned DQ_W = 16 + 8 + RP_W;          // descriptor: nrec, type, payload pointer
  localparam logic [31:0] TAG_MAX = 32'((64'd1 << MEM_TAG_W) - 64'd1);
  localparam int unsigned TW = $clog2(RTO_CYCLES + 2);   // NAK timer
  localparam int unsigned RW = $clog2(MAX_RETRIES + 2);   // NAK repeats
  localparam logic [TW-1:0] RTO = TW'(RTO_CYCLES);
  localparam logic [31:0] MAXR = 32'(MAX_RETRIES);
  localparam logic [31:0] PAYLOAD = 32'(RX_PAYLOAD);

  typedef enum logic [1:0] {P_HUNT, P_HDR, P_PAY, P_CRC} pstate_e;
  typedef enum logic [1:0] {L_WAIT, L_UP, L_FAILED} lstate_e;
  typedef enum logic [1:0] {D_IDLE, D_READ, D_WAIT} dstate_e;

  // ---------------------------------------------------------------------------
  // Ring buffer.
  // ---------------------------------------------------------------------------
  logic            ram_re;
  logic [RA_W-1:0] ram_raddr;
  logic [7:0]      ram_rdata;
  logic            rx_fire;
  logic [RP_W-1:0] wptr_q;

  wg_ram_1r1w #(.DEPTH(RX_BUF_BYTES), .WIDTH(8), .EN_GRAIN(0)) u_ring (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (rx_fire),
    .waddr_i (wptr_q[RA_W-1:0]),
    .wdata_i (rx_data_i),
    .wbe_i   (1'b0),
    .re_i    (ram_re),
    .raddr_i (ram_raddr),
    .rdata_o (ram_rdata)
  );

  // ---------------------------------------------------------------------------
  // Descriptor queue of committed frames.
  // ---------------------------------------------------------------------------
  logic            dq_push, dq_in_ready, dq_valid, dq_pop;
  logic [DQ_W-1:0] dq_in, dq_out;
  logic [15:0]     dq_nrec;
  logic [7:0]      dq_type;
  logic [RP_W-1:0] dq_ptr;
  localparam int unsigned DQ_CW = $clog2(DESC_DEPTH + 1);
  logic [DQ_CW-1:0] u_dq_count_unused;
  logic             u_dq_full_unused, u_dq_empty_unused;

  wg_fifo #(.DEPTH(DESC_DEPTH), .WIDTH(DQ_W)) u_desc (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (dq_push),
    .in_ready_o (dq_in_ready),
    .in_data_i  (dq_in),
    .out_valid_o(dq_valid),
    .out_ready_i(dq_pop),
    .out_data_o (dq_out),
    .count_o    (u_dq_count_unused),
    .full_o     (u_dq_full_unused),
    .empty_o    (u_dq_empty_unused)
  );
  assign {dq_nrec, dq_type, dq_ptr} = dq_out;

  // ---------------------------------------------------------------------------
  // Parser registers.
  // ---------------------------------------------------------------------------
  pstate_e         pst_q, pst_d;
  logic [1:0]      m_q, m_d;                  // sync bytes matched (HUNT)
  logic [15:0]     cnt_q, cnt_d;              // index in the frame of the next byte
  logic [RP_W-1:0] p_q, p_d;                  // ring pointer of the next byte to parse
  logic            pend_q;                    // ring read of byte p_q issued last cycle
  logic [63:0]     p_off_q, p_off_d;          // stream offset of byte p_q
  logic [RP_W-1:0] sync_ptr_q, sync_ptr_d;    // first sync byte of the candidate frame
  logic [63:0]     sync_off_q, sync_off_d;
  logic [31:0]     junk_q, junk_d;            // bytes skipped since the last sync word
  logic [63:0]     junk_off_q, junk_off_d;
  logic [7:0]      h_type_q, h_type_d;
  logic [15:0]     h_len_q, h_len_d, h_nrec_q, h_nrec_d;
  logic [31:0]     h_seq_q, h_seq_d;
  logic [7:0]      hchk_lo_q, hchk_lo_d;
  logic [15:0]     hchk_calc_q, hchk_calc_d;
  logic [7:0]      rsize_q, rsize_d, roff_q, roff_d, prev_q, prev_d;
  logic [63:0]     lk_q, lk_d;                // first 8 payload bytes (link records)
  logic            fb_q, fb_d;                // a record field was out of range
  logic [63:0]     fb_off_q, fb_off_d;
  logic [31:0]     fb_max_q, fb_max_d, fb_val_q, fb_val_d;
  logic [23:0]     crc_st_q, crc_st_d;        // stored CRC, bytes 0..2

  logic [31:0]     crc;
  logic            crc_init, crc_en;

  wg_crc32 #(.DATA_W(8)) u_crc (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .init_i (crc_init),
    .en_i   (crc_en),
    .data_i (pend_q ? ram_rdata : rx_data_i),
    .crc_o  (crc)
  );

  // ---------------------------------------------------------------------------
  // Byte source: the live input, or the ring while replaying.
  // ---------------------------------------------------------------------------
  // The ring keeps every byte from `tail` on: the oldest committed frame not yet
  // delivered, else what the parser may still have to read again (the partial
  // sync word in HUNT, the candidate frame from one byte after its sync word).
  logic [RP_W-1:0] keep, tail, used;
  logic            room, live, hold, src_valid, p_rd, d_rd, is_last;
  logic [7:0]      b;

  assign keep = (pst_q == P_HUNT) ? p_q - RP_W'(m_q) : sync_ptr_q + 1'b1;
  assign tail = dq_valid ? dq_ptr : keep;
  assign used = wptr_q - tail;
  assign room = !used[RA_W];                      // used < RX_BUF_BYTES

  // The last byte of a candidate command frame waits for room in the
  // descriptor queue, so a frame is never judged good without a place to go.
  assign is_last = (pst_q == P_CRC) && (cnt_q == h_len_q + 16'd19);
  assign hold    = is_last && wg_link_pkg::is_cmd(h_type_q) && !dq_in_ready;
  assign live    = !pend_q && (p_q == wptr_q);

  assign rx_ready_o = room && (!live || !hold);
  assign rx_fire    = rx_valid_i && rx_ready_o;
  assign src_valid  = pend_q || (live && rx_fire);
  assign b          = pend_q ? ram_rdata : rx_data_i;
  // Replay: one ring read every other cycle (the delivery uses the others).
  assign p_rd       = !pend_q && !live && !hold;

  // ---------------------------------------------------------------------------
  // Parser.
  // ---------------------------------------------------------------------------
  logic        prep;                   // a parser report this cycle
  logic [3:0]  prep_code;
  logic [7:0]  prep_type;
  logic [31:0] prep_seq, prep_exp, prep_act;
  logic [63:0] prep_off;
  logic        frame_end;              // a frame with a good CRC ends this cycle
  logic [2:0]  junk_add;               // bytes that turn out not to start a sync word

  function automatic logic [7:0] sync_byte(input logic [1:0] i);
    unique case (i)
      2'd0:    sync_byte = wg_link_pkg::SYNC0;
      2'd1:    sync_byte = wg_link_pkg::SYNC1;
      2'd2:    sync_byte = wg_link_pkg::SYNC2;
      default: sync_byte = wg_link_pkg::SYNC3;
    endcase
  endfunction

  // Header checks of the frame whose byte 15 arrives now.
  logic [7:0]  h_size;
  logic        h_lnk, h_acc;
  logic [23:0] h_prod;
  assign h_size = wg_link_pkg::rec_size(h_type_q);
  assign h_lnk  = wg_link_pkg::is_link(h_type_q);
  assign h_acc  = h_lnk || wg_link_pkg::is_cmd(h_type_q);
  assign h_prod = 24'(h_nrec_q) * 24'(h_size);

  // Field checks of the payload byte arriving now (docs/protocol.md section 8, FIELD).
  logic        chk, chk_back;
  logic [31:0] chk_max, chk_val;
  always_comb begin
    chk      = 1'b0;
    chk_back = 1'b0;
    chk_max  = '0;
    chk_val  = {24'd0, b};
    if (wg_link_pkg::is_cmd(h_type_q)) begin
      if (roff_q == 8'd1) begin                       // flags: bit 0 ALL only
        chk     = 1'b1;
        chk_max = 32'd1;
      end
      if (roff_q == 8'd3 && h_type_q != wg_link_pkg::T_CNT_READ) begin  // tag: MRSP only, within MEM_TAG_W
        chk      = 1'b1;                                                  // (CNT_READ: the page, any value)
        chk_back = 1'b1;
        chk_val  = {16'd0, b, prev_q};
        chk_max  = (h_type_q == wg_link_pkg::T_MRSP || h_type_q == wg_link_pkg::T_MRSP_ND) ? TAG_MAX : '0;
      end
      if (roff_q == 8'd23 && h_type_q == wg_link_pkg::T_LAUNCH) begin   // reserved u16
        chk      = 1'b1;
        chk_back = 1'b1;
        chk_val  = {16'd0, b, prev_q};
      end
    end else if (h_type_q == wg_link_pkg::T_HELLO) begin
      if (roff_q == 8'd2 || roff_q == 8'd3) begin     // role, flags
        chk     = 1'b1;
        chk_max = 32'd1;
      end
    end else if (h_type_q == wg_link_pkg::T_LERR) begin
      if (roff_q == 8'd0) begin                       // code
        chk     = 1'b1;
        chk_max = 32'(wg_link_pkg::E_LAST);
      end
      if (roff_q == 8'd3) begin                       // reserved u16
        chk      = 1'b1;
        chk_back = 1'b1;
        chk_val  = {16'd0, b, prev_q};
      end
    end
  end

  always_comb begin
    pst_d       = pst_q;
    m_d         = m_q;
    cnt_d       = cnt_q;
    p_d         = p_q;
    p_off_d     = p_off_q;
    sync_ptr_d  = sync_ptr_q;
    sync_off_d  = sync_off_q;
    junk_d      = junk_q;
    junk_off_d  = junk_off_q;
    h_type_d    = h_type_q;
    h_len_d     = h_len_q;
    h_nrec_d    = h_nrec_q;
    h_seq_d     = h_seq_q;
    hchk_lo_d   = hchk_lo_q;
    hchk_calc_d = hchk_calc_q;
    rsize_d     = rsize_q;
    roff_d      = roff_q;
    prev_d      = prev_q;
    lk_d        = lk_q;
    fb_d        = fb_q;
    fb_off_d    = fb_off_q;
    fb_max_d    = fb_max_q;
    fb_val_d    = fb_val_q;
    crc_st_d    = crc_st_q;
    junk_add    = '0;
    crc_init    = 1'b0;
    crc_en      = 1'b0;
    prep        = 1'b0;
    prep_code   = '0;
    prep_type   = h_type_q;
    prep_seq    = h_seq_q;
    prep_off    = sync_off_q;
    prep_exp    = '0;
    prep_act    = '0;
    frame_end   = 1'b0;

    if (src_valid) begin
      p_d     = p_q + 1'b1;
      p_off_d = p_off_q + 64'd1;
      unique case (pst_q)
        P_HUNT: begin
          crc_en   = 1'b1;
          junk_add = '0;
          if (b == sync_byte(m_q)) begin
            m_d = m_q + 2'd1;
            if (m_q == 2'd0) crc_init = 1'b1;
          end else if (b == wg_link_pkg::SYNC0) begin
            m_d      = 2'd1;
            crc_init = 1'b1;
            junk_add = {1'b0, m_q};
          end else begin
            m_d      = 2'd0;
            junk_add = {1'b0, m_q} + 3'd1;
          end
          if (junk_add != '0) begin
            if (junk_q == '0) junk_off_d = p_off_q - 64'(m_q);
            junk_d = junk_q + 32'(junk_add);
          end
          if (m_q == 2'd3 && b == wg_link_pkg::SYNC3) begin   // a sync word
            pst_d      = P_HDR;
            m_d        = 2'd0;
            cnt_d      = 16'd4;
            sync_ptr_d = p_q - RP_W'(3);
            sync_off_d = p_off_q - 64'd3;
            junk_d     = '0;
            if (junk_q != '0) begin
              prep      = 1'b1;
              prep_code = wg_link_pkg::E_SYNC;
              prep_type = '0;
              prep_seq  = '0;
              prep_off  = junk_off_q;
              prep_act  = junk_q;
            end
          end
        end

        P_HDR: begin
          crc_en = 1'b1;
          cnt_d  = cnt_q + 16'd1;
          unique case (cnt_q[3:0])
            4'd4:  h_type_d        = b;
            4'd6:  h_len_d[7:0]    = b;
            4'd7:  h_len_d[15:8]   = b;
            4'd8:  h_seq_d[7:0]    = b;
            4'd9:  h_seq_d[15:8]   = b;
            4'd10: h_seq_d[23:16]  = b;
            4'd11: h_seq_d[31:24]  = b;
            4'd12: h_nrec_d[7:0]   = b;
            4'd13: h_nrec_d[15:8]  = b;
            4'd14: begin
              hchk_lo_d   = b;
              hchk_calc_d = crc[15:0];         // CRC of bytes 0..13
            end
            4'd15: begin
              prep_code = wg_link_pkg::E_LENGTH;
              prep_act  = {16'd0, h_len_q};
              if ({b, hchk_lo_q} != hchk_calc_q) begin
                prep      = 1'b1;
                prep_code = wg_link_pkg::E_HCHK;
                prep_exp  = {16'd0, hchk_calc_q};
                prep_act  = {16'd0, b, hchk_lo_q};
              end else if (32'(h_len_q) > PAYLOAD) begin
                prep     = 1'b1;
                prep_exp = PAYLOAD;
              end else if (h_acc && (h_nrec_q == '0 || (h_lnk && h_nrec_q != 16'd1) ||
                                     32'(h_prod) != 32'(h_len_q))) begin
                prep     = 1'b1;
                prep_exp = (h_nrec_q != '0 && !h_lnk) ? 32'(h_prod) : 32'(h_size);
              end else if (!h_acc && h_len_q[1:0] != 2'd0) begin
                prep     = 1'b1;
                prep_exp = {16'd0, h_len_q[15:2], 2'd0};
              end else begin
                pst_d   = (h_len_q == '0) ? P_CRC : P_PAY;
                rsize_d = h_size;
                roff_d  = '0;
                fb_d    = 1'b0;
              end
            end
            default: ;                         // 5: FLAGS, ignored
          endcase
        end

        P_PAY: begin
          crc_en = 1'b1;
          cnt_d  = cnt_q + 16'd1;
          prev_d = b;
          roff_d = (roff_q == rsize_q - 8'd1) ? '0 : roff_q + 8'd1;
          if (cnt_q < 16'd24) lk_d[cnt_q[2:0]*8 +: 8] = b;
          if (chk && chk_val > chk_max && !fb_q) begin
            fb_d     = 1'b1;
            fb_off_d = p_off_q - (chk_back ? 64'd1 : 64'd0);
            fb_max_d = chk_max;
            fb_val_d = chk_val;
          end
          if (cnt_q == h_len_q + 16'd15) pst_d = P_CRC;
        end

        default: begin                         // P_CRC
          cnt_d = cnt_q + 16'd1;
          unique case (cnt_q[1:0])
            2'd0: crc_st_d[7:0]   = b;
            2'd1: crc_st_d[15:8]  = b;
            2'd2: crc_st_d[23:16] = b;
            default: begin
              if ({b, crc_st_q} != crc) begin
                prep      = 1'b1;
                prep_code = wg_link_pkg::E_CRC;
                prep_exp  = crc;
                prep_act  = {b, crc_st_q};
              end else begin
                frame_end = 1'b1;
                pst_d     = P_HUNT;
                m_d       = 2'd0;
              end
            end
          endcase
        end
      endcase

      // Any error in a candidate frame: search again one byte after its sync word.
      if (prep && pst_q != P_HUNT) begin
        pst_d   = P_HUNT;
        m_d     = 2'd0;
        p_d     = sync_ptr_q + 1'b1;
        p_off_d = sync_off_q + 64'd1;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Link state: what a frame with a good CRC does (docs/protocol.md section 7).
  // ---------------------------------------------------------------------------
  lstate_e     lst_q, lst_d;
  logic [31:0] rcv_nxt_q, rcv_nxt_d, peer_pay_q, peer_pay_d;
  logic        nak_active_q, nak_active_d;
  logic [31:0] nak_from_q, nak_from_d, nak_got_q, nak_got_d;
  logic [RW-1:0] nak_tries_q, nak_tries_d;
  logic [TW-1:0] nak_tmr_q, nak_tmr_d;

  logic        frep, fatal, want_nak, commit;
  logic [3:0]  frep_code;
  logic [7:0]  frep_type;
  logic [31:0] frep_seq, frep_exp, frep_act;
  logic [63:0] frep_off;

  // The link record's first words.
  logic [15:0] hello_version;
  logic [7:0]  hello_role;
  logic        hello_reply;
  logic [31:0] hello_pay, lk_w0;
  assign hello_version = lk_q[15:0];
  assign hello_role    = lk_q[23:16];
  assign hello_reply   = lk_q[24];        // flags bit 0: REPLY
  assign hello_pay     = lk_q[63:32];
  assign lk_w0         = lk_q[31:0];

  // ACK / NAK against the tx side's window (host/src/link.c got_ack, go_back).
  logic [31:0] ack_d, ack_tx1, ack_r1;
  logic        ack_window_bad, ack_go, ack_retry_bad;
  assign ack_d          = lk_w0 - snd_una_i;
  assign ack_window_bad = ack_d > (snd_max_i - snd_una_i);
  assign ack_tx1        = wg_link_pkg::seq_before(snd_tx_i, lk_w0) ? lk_w0 : snd_tx_i;
  assign ack_r1         = (ack_d != '0) ? '0 : retries_i;
  assign ack_go         = (h_type_q == wg_link_pkg::T_NAK) && (ack_tx1 != lk_w0);
  assign ack_retry_bad  = ack_go && (ack_r1 + 32'd1 > MAXR);

  logic [31:0] d;                        // frame sequence number - rcv_nxt
  assign d = h_seq_q - rcv_nxt_q;

  logic nak_run;
  assign nak_run = nak_active_q && (lst_q == L_UP);

  always_comb begin
    lst_d        = lst_q;
    rcv_nxt_d    = rcv_nxt_q;
    peer_pay_d   = peer_pay_q;
    nak_active_d = nak_active_q;
    nak_from_d   = nak_from_q;
    nak_got_d    = nak_got_q;
    nak_tries_d  = nak_tries_q;
    // The NAK timer runs only while a NAK is outstanding (it is read only then, and
    // cleared when one goes out), so an idle engine holds every register.
    nak_tmr_d    = (nak_run && nak_tmr_q < RTO) ? nak_tmr_q + 1'b1 : nak_tmr_q;
    frep         = 1'b0;
    frep_code    = '0;
    frep_type    = h_type_q;
    frep_seq     = h_seq_q;
    frep_off     = sync_off_q;
    frep_exp     = '0;
    frep_act     = '0;
    fatal        = 1'b0;
    want_nak     = 1'b0;
    commit       = 1'b0;
    hello_o      = 1'b0;
    ack_valid_o  = 1'b0;
    ack_req_o    = 1'b0;
    nak_req_o    = 1'b0;

    if (frame_end) begin
      if (lst_q == L_FAILED && h_type_q != wg_link_pkg::T_HELLO) begin
        // Failed: only a HELLO is looked at.
      end else if (!h_acc) begin
        frep      = 1'b1;
        frep_code = wg_link_pkg::E_TYPE;
        frep_act  = {24'd0, h_type_q};
        fatal     = 1'b1;
      end else if (fb_q && (h_lnk || (lst_q == L_UP && d == '0))) begin
        frep      = 1'b1;
        frep_code = wg_link_pkg::E_FIELD;
        frep_off  = fb_off_q;
        frep_exp  = fb_max_q;
        frep_act  = fb_val_q;
        fatal     = 1'b1;
      end else if (h_type_q == wg_link_pkg::T_HELLO) begin
        frep      = 1'b1;
        frep_code = wg_link_pkg::E_VERSION;
        fatal     = 1'b1;
        if (hello_version != wg_link_pkg::VERSION) begin
          frep_exp = 32'(wg_link_pkg::VERSION);
          frep_act = {16'd0, hello_version};
        end else if (hello_role != wg_link_pkg::ROLE_HOST) begin
          frep_exp = 32'(wg_link_pkg::ROLE_HOST);
          frep_act = {24'd0, hello_role};
        end else if (hello_pay < 32'(wg_link_pkg::PAYLOAD_MIN) || hello_pay > 32'(wg_link_pkg::PAYLOAD_MAX) ||
                     hello_pay[1:0] != 2'd0) begin
          frep_exp = 32'(wg_link_pkg::PAYLOAD_MIN);
          frep_act = hello_pay;
        end else if (hello_reply) begin
          frep_code = wg_link_pkg::E_STATE;    // a reply: the host does not send one
          frep_act  = 32'(wg_link_pkg::HELLO_REPLY);
          fatal     = 1'b0;
        end else begin                         // the host (re)starts the link
          frep         = 1'b0;
          fatal        = 1'b0;
          hello_o      = 1'b1;
          lst_d        = L_UP;
          rcv_nxt_d    = h_seq_q;
          peer_pay_d   = hello_pay;
          nak_active_d = 1'b0;
          nak_tries_d  = '0;
        end
      end else if (h_lnk) begin
        if (lst_q == L_UP) begin
          if (h_type_q == wg_link_pkg::T_ACK || h_type_q == wg_link_pkg::T_NAK) begin
            if (ack_window_bad) begin
              frep      = 1'b1;
              frep_code = wg_link_pkg::E_WINDOW;
              frep_exp  = snd_max_i;
              frep_act  = lk_w0;
              fatal     = 1'b1;
            end else if (ack_retry_bad) begin
              frep      = 1'b1;
              frep_code = wg_link_pkg::E_RETRY;
              frep_type = '0;
              frep_seq  = '0;
              frep_off  = '0;
              frep_exp  = MAXR;
              frep_act  = ack_r1 + 32'd1;
              fatal     = 1'b1;
            end else begin
              ack_valid_o = 1'b1;
            end
          end
          // A link frame carries the host's next sequence number: a lost tail shows here.
          if (!fatal && wg_link_pkg::seq_before(rcv_nxt_q, h_seq_q)) begin
            frep      = 1'b1;
            frep_code = wg_link_pkg::E_GAP;
            frep_exp  = rcv_nxt_q;
            frep_act  = h_seq_q;
            want_nak  = 1'b1;
          end
        end
      end else if (lst_q != L_UP) begin        // a command frame before HELLO
        frep      = 1'b1;
        frep_code = wg_link_pkg::E_STATE;
        frep_act  = {24'd0, h_type_q};
      end else if (d[31]) begin                // already delivered: acknowledge again
        frep      = 1'b1;
        frep_code = wg_link_pkg::E_DUP;
        frep_exp  = rcv_nxt_q;
        frep_act  = h_seq_q;
        ack_req_o = 1'b1;
      end else if (d != '0) begin              // frames lost: go-back-N keeps nothing out of order
        frep      = 1'b1;
        frep_code = wg_link_pkg::E_GAP;
        frep_exp  = rcv_nxt_q;
        frep_act  = h_seq_q;
        want_nak  = 1'b1;
      end else begin
        commit       = 1'b1;
        rcv_nxt_d    = rcv_nxt_q + 32'd1;
        nak_active_d = 1'b0;
        nak_tries_d  = '0;
        ack_req_o    = 1'b1;
      end
    end

    // One NAK per gap and rto (the NAK itself may be lost).
    if (want_nak && !(nak_active_q && nak_from_q == rcv_nxt_q && nak_tmr_q < RTO)) begin
      nak_req_o    = 1'b1;
      nak_active_d = 1'b1;
      nak_from_d   = rcv_nxt_q;
      nak_got_d    = h_seq_q;
      nak_tmr_d    = '0;
    end

    // NAK repeat, then the tx side's retransmission limit, in cycles without another report.
    if (!frame_end && !prep && lst_q == L_UP) begin
      if (nak_active_q && nak_tmr_q >= RTO) begin
        if (32'(nak_tries_q) >= MAXR) begin
          frep      = 1'b1;
          frep_code = wg_link_pkg::E_RETRY;
          frep_type = '0;
          frep_seq  = '0;
          frep_off  = '0;
          frep_exp  = MAXR;
          frep_act  = 32'(nak_tries_q) + 32'd1;
          fatal     = 1'b1;
        end else begin
          nak_req_o   = 1'b1;
          nak_tmr_d   = '0;
          nak_tries_d = nak_tries_q + 1'b1;
        end
      end else if (tx_fail_i) begin
        frep      = 1'b1;
        frep_code = wg_link_pkg::E_RETRY;
        frep_type = '0;
        frep_seq  = '0;
        frep_off  = '0;
        frep_exp  = MAXR;
        frep_act  = tx_fail_tries_i;
        fatal     = 1'b1;
      end
    end

    if (fatal) lst_d = L_FAILED;
  end

  assign ack_nak_o = (h_type_q == wg_link_pkg::T_NAK);
  assign ack_seq_o = lk_w0;

  assign dq_push = commit;
  assign dq_in   = {h_nrec_q, h_type_q, sync_ptr_q + RP_W'(wg_link_pkg::HDR_BYTES)};

  // ---------------------------------------------------------------------------
  // Delivery: the records of committed frames, one byte per ring read.
  // ---------------------------------------------------------------------------
  dstate_e         d_st_q, d_st_d;
  logic [RP_W-1:0] d_ptr_q, d_ptr_d;
  logic [7:0]      d_rb_q, d_rb_d, d_size_q, d_size_d, d_off_q;
  logic [15:0]     d_ri_q, d_ri_d;
  logic            d_pend_q, d_last_q;

  always_comb begin
    d_st_d   = d_st_q;
    d_ptr_d  = d_ptr_q;
    d_rb_d   = d_rb_q;
    d_ri_d   = d_ri_q;
    d_size_d = d_size_q;
    d_rd     = 1'b0;
    dq_pop   = 1'b0;
    unique case (d_st_q)
      D_IDLE: begin
        if (dq_valid) begin
          d_ptr_d  = dq_ptr;
          d_rb_d   = '0;
          d_ri_d   = '0;
          d_size_d = wg_link_pkg::rec_size(dq_type);
          d_st_d   = D_READ;
        end
      end
      D_READ: begin
        // The parser's replay reads go first.
        if (rec_ready_i && !p_rd) begin
          d_rd    = 1'b1;
          d_ptr_d = d_ptr_q + 1'b1;
          d_rb_d  = d_rb_q + 8'd1;
          if (d_rb_q == d_size_q - 8'd1) d_st_d = D_WAIT;
        end
      end
      default: begin                           // D_WAIT: the record is out when rec_ready_i is back
        if (!d_pend_q && rec_ready_i) begin
          if (d_ri_q == dq_nrec - 16'd1) begin
            dq_pop = 1'b1;
            d_st_d = D_IDLE;
          end else begin
            d_ri_d = d_ri_q + 16'd1;
            d_rb_d = '0;
            d_st_d = D_READ;
          end
        end
      end
    endcase
  end

  assign ram_re    = p_rd || d_rd;
  assign ram_raddr = p_rd ? p_q[RA_W-1:0] : d_ptr_q[RA_W-1:0];

  assign rec_valid_o = d_pend_q;
  assign rec_data_o  = ram_rdata;
  assign rec_type_o  = dq_type;
  assign rec_off_o   = d_off_q;
  assign rec_last_o  = d_last_q;

  // ---------------------------------------------------------------------------
  // Reports: parser errors first (they and frame reports never coincide), then
  // the link's own.
  // ---------------------------------------------------------------------------
  logic        rep_valid_q;
  logic [3:0]  rep_code_q;
  logic [7:0]  rep_type_q;
  logic [31:0] rep_seq_q, rep_exp_q, rep_act_q;
  logic [63:0] rep_off_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rep_valid_q <= 1'b0;
    end else begin
      rep_valid_q <= prep || frep;
    end
  end

  always_ff @(posedge clk_i) begin
    if (prep) begin
      rep_code_q <= prep_code;
      rep_type_q <= prep_type;
      rep_seq_q  <= prep_seq;
      rep_off_q  <= prep_off;
      rep_exp_q  <= prep_exp;
      rep_act_q  <= prep_act;
    end else if (frep) begin
      rep_code_q <= frep_code;
      rep_type_q <= frep_type;
      rep_seq_q  <= frep_seq;
      rep_off_q  <= frep_off;
      rep_exp_q  <= frep_exp;
      rep_act_q  <= frep_act;
    end
  end

  assign rep_valid_o = rep_valid_q;
  assign rep_code_o  = rep_code_q;
  assign rep_type_o  = rep_type_q;
  assign rep_seq_o   = rep_seq_q;
  assign rep_off_o   = rep_off_q;
  assign rep_exp_o   = rep_exp_q;
  assign rep_act_o   = rep_act_q;

  // ---------------------------------------------------------------------------
  // State.
  // ---------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_q       <= '0;
      pst_q        <= P_HUNT;
      m_q          <= '0;
      p_q          <= '0;
      pend_q       <= 1'b0;
      p_off_q      <= '0;
      sync_ptr_q   <= '0;
      junk_q       <= '0;
      fb_q         <= 1'b0;
      lst_q        <= L_WAIT;
      rcv_nxt_q    <= '0;
      peer_pay_q   <= 32'(wg_link_pkg::PAYLOAD_MIN);
      nak_active_q <= 1'b0;
      nak_tries_q  <= '0;
      nak_tmr_q    <= '0;
      d_st_q       <= D_IDLE;
      d_pend_q     <= 1'b0;
    end else begin
      wptr_q       <= wptr_q + RP_W'(rx_fire);
      pst_q        <= pst_d;
      m_q          <= m_d;
      p_q          <= p_d;
      pend_q       <= p_rd;
      p_off_q      <= p_off_d;
      sync_ptr_q   <= sync_ptr_d;
      junk_q       <= junk_d;
      fb_q         <= fb_d;
      lst_q        <= lst_d;
      rcv_nxt_q    <= rcv_nxt_d;
      peer_pay_q   <= peer_pay_d;
      nak_active_q <= nak_active_d;
      nak_tries_q  <= nak_tries_d;
      nak_tmr_q    <= nak_tmr_d;
      d_st_q       <= d_st_d;
      d_pend_q     <= d_rd;
    end
  end

  // Data registers: no reset.
  always_ff @(posedge clk_i) begin
    cnt_q       <= cnt_d;
    sync_off_q  <= sync_off_d;
    junk_off_q  <= junk_off_d;
    h_type_q    <= h_type_d;
    h_len_q     <= h_len_d;
    h_nrec_q    <= h_nrec_d;
    h_seq_q     <= h_seq_d;
    hchk_lo_q   <= hchk_lo_d;
    hchk_calc_q <= hchk_calc_d;
    rsize_q     <= rsize_d;
    roff_q      <= roff_d;
    prev_q      <= prev_d;
    lk_q        <= lk_d;
    fb_off_q    <= fb_off_d;
    fb_max_q    <= fb_max_d;
    fb_val_q    <= fb_val_d;
    crc_st_q    <= crc_st_d;
    nak_from_q  <= nak_from_d;
    nak_got_q   <= nak_got_d;
    d_ptr_q     <= d_ptr_d;
    d_rb_q      <= d_rb_d;
    d_ri_q      <= d_ri_d;
    d_size_q    <= d_size_d;
    d_off_q     <= d_rb_q;
    d_last_q    <= (d_rb_q == d_size_q - 8'd1);
  end

  assign up_o           = (lst_q == L_UP);
  assign failed_o       = (lst_q == L_FAILED);
  assign rcv_nxt_o      = rcv_nxt_q;
  assign peer_payload_o = hello_pay;
  assign nak_from_o     = nak_from_q;
  assign nak_got_o      = nak_got_q;
  assign wait_o         = !pend_q && (p_q == wptr_q) && (d_st_q == D_IDLE) && !dq_valid && !d_pend_q &&
                          !rep_valid_q && !(tx_fail_i && lst_q == L_UP) &&
                          !(nak_run && nak_tmr_q >= RTO);
  assign idle_o         = wait_o && !nak_run;

  // Elaboration checks.
  if (RX_BUF_BYTES != (1 << RA_W) || RX_BUF_BYTES < RX_PAYLOAD + wg_link_pkg::HDR_BYTES + wg_link_pkg::CRC_BYTES)
  begin : g_bad_buf
    $error("wg_link_rx: RX_BUF_BYTES must be a power of 2 holding a frame of RX_PAYLOAD bytes");
  end
  if (RX_PAYLOAD < wg_link_pkg::PAYLOAD_MIN || RX_PAYLOAD > wg_link_pkg::PAYLOAD_MAX || RX_PAYLOAD % 4 != 0)
  begin : g_bad_payload
    $error("wg_link_rx: RX_PAYLOAD must be a multiple of 4 in 1024..16364");
  end
  if (MEM_TAG_W < 1 || MEM_TAG_W > 16) begin : g_bad_tag
    $error("wg_link_rx: MEM_TAG_W must be 1..16");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (used <= RP_W'(RX_BUF_BYTES))
        else $error("wg_link_rx: ring holds %0d bytes, more than %0d", used, RX_BUF_BYTES);
      assert (RP_W'(wptr_q - p_q) <= used)
        else $error("wg_link_rx: parser pointer outside the kept bytes");
      if (dq_push) assert (dq_in_ready) else $error("wg_link_rx: frame committed into a full descriptor queue");
      if (rec_valid_o) assert (rec_ready_i) else $error("wg_link_rx: record byte not taken");
      assert (!(p_rd && d_rd)) else $error("wg_link_rx: two ring reads in one cycle");
      if (pend_q) assert (!d_pend_q) else $error("wg_link_rx: ring data claimed twice");
    end
  end
`endif

endmodule
