// wg_link: the link engine between the host's byte stream and the GPU top's
// command and event ports (docs/link-rtl.md; protocol docs/protocol.md).
//
//   rx bytes ──> wg_link_rx ──> record bytes ──> wg_link_cmd ──> cmd_* (to wg_gpu)
//                    │ HELLO, ACK/NAK, ACK and NAK due, errors
//                    v
//   tx bytes <── wg_link_tx <── record words <── wg_link_ev <── ev_* (from wg_gpu, held)
//
// Bytes come and go as 8-bit valid/ready streams (the FX2 slave-FIFO bridge, or
// the host process in the Verilated board model). The board speaks the C link's
// protocol byte for byte: a frame carries records of one command op or event
// kind, and every record is one transfer on the GPU top's ports.
//
// The build parameters are wg_gpu's (same names and defaults) and are announced
// in the HELLO reply; RSP_DEPTH and LAUNCH_DEPTH must be given the values wg_gpu
// was built with when those are not the defaults. The buffer parameters size the
// engine (docs/link-rtl.md section 6). rep_* shows every error the engine sees,
// one per cycle (a board exposes counters of them); codes 1..10 also go to the
// host as LERR frames.
`default_nettype none

module wg_link #(
  // The GPU top's build (wg_gpu's parameters).
  parameter int unsigned NUM_SMS       = 15,
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
  parameter int unsigned RSP_DEPTH     = 1 << MEM_TAG_W,
  parameter int unsigned LAUNCH_DEPTH  = NUM_CTAS,
  parameter int unsigned CNT_W         = 1664,     // wg_gpu's CNT_W: 52 words
  // Link engine (docs/link-rtl.md section 6).
  parameter int unsigned RX_BUF_BYTES  = 32768,    // receive ring (power of 2, >= RX_PAYLOAD + 20)
  parameter int unsigned RX_PAYLOAD    = 16364,    // largest command payload accepted
  parameter int unsigned DESC_DEPTH    = 4,        // committed command frames awaiting delivery
  parameter int unsigned TX_FRAMES     = 8,        // event frames kept for go-back-N (the window)
  parameter int unsigned TX_SLOT_BYTES = 4096,     // payload bytes per event frame (power of 2)
  parameter int unsigned FLUSH_CYCLES  = 256,      // an event frame closes this long after it opened
  parameter int unsigned RTO_CYCLES    = 1000000,  // retransmission and NAK repeat timeout
  parameter int unsigned MAX_RETRIES   = 8,        // timeouts or NAKs in a row before the link fails
  parameter int unsigned LERR_DEPTH    = 4         // error reports queued for LERR frames
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,

  // Bytes from and to the host.
  input  wire logic                     rx_valid_i,
  output logic                          rx_ready_o,
  input  wire logic [7:0]               rx_data_i,
  output logic                          tx_valid_o,
  input  wire logic                     tx_ready_i,
  output logic      [7:0]               tx_data_o,

  // Commands to the GPU top (wg_gpu cmd_*_i).
  output logic                          cmd_valid_o,
  input  wire logic                     cmd_ready_i,
  output logic      [3:0]               cmd_op_o,
  output logic      [7:0]               cmd_sm_o,
  output logic                          cmd_all_o,
  output logic      [63:0]              cmd_at_o,
  output logic      [31:0]              cmd_addr_o,
  output logic      [MEM_TAG_W-1:0]     cmd_tag_o,
  output logic      [1023:0]            cmd_data_o,

  // Events from the GPU top (wg_gpu ev_*_o).
  input  wire logic                     ev_valid_i,
  output logic                          ev_ready_o,
  input  wire logic [2:0]               ev_kind_i,
  input  wire logic [7:0]               ev_sm_i,
  input  wire logic [63:0]              ev_cycle_i,
  input  wire logic [MEM_TAG_W-1:0]     ev_mreq_tag_i,
  input  wire logic [1:0]               ev_mreq_cmd_i,
  input  wire logic [31:0]              ev_mreq_addr_i,
  input  wire logic [2:0]               ev_mreq_size_i,
  input  wire logic [127:0]             ev_mreq_wmask_i,
  input  wire logic [1023:0]            ev_mreq_wdata_i,
  input  wire logic [3:0]               ev_mreq_atom_op_i,
  input  wire logic [31:0]              ev_mreq_atom_b_i,
  input  wire logic [31:0]              ev_mreq_atom_c_i,
  input  wire logic                     ev_mreq_local_i,
  input  wire logic                     ev_mreq_wb_i,
  input  wire logic [5:0]               ev_mreq_warp_i,
  input  wire logic [17:0]              ev_mreq_pc_i,
  input  wire logic [4:0]               ev_mreq_lane_i,
  input  wire logic [31:0]              ev_done_linear_i,
  input  wire logic [3:0]               ev_fault_code_i,
  input  wire logic [5:0]               ev_fault_warp_i,
  input  wire logic [17:0]              ev_fault_pc_i,
  input  wire logic [4:0]               ev_fault_lane_i,
  input  wire logic [31:0]              ev_fault_addr_i,
  input  wire logic [31:0]              ev_fault_cta_linear_i,
  input  wire logic [5:0]               ev_ret_warp_i,
  input  wire logic [31:0]              ev_ret_cta_linear_i,
  input  wire logic [4:0]               ev_ret_wic_i,
  input  wire logic [15:0]              ev_ret_seq_i,
  input  wire logic [17:0]              ev_ret_pc_i,
  input  wire logic [31:0]              ev_ret_active_i,
  input  wire logic [31:0]              ev_ret_exec_i,
  input  wire logic [1:0]               ev_ret_dst_i,
  input  wire logic [5:0]               ev_ret_reg_i,
  input  wire logic [1:0]               ev_ret_beat_i,
  input  wire logic                     ev_ret_last_i,
  input  wire logic [1023:0]            ev_ret_data_i,
  input  wire logic [NUM_SMS-1:0]       ev_busy_i,
  input  wire logic [CNT_W-1:0]         ev_cnt_i,
  input  wire logic [3:0]               ev_err_code_i,

  // Status.
  output logic                          up_o,        // HELLO exchanged
  output logic                          failed_o,    // a fatal error; a new HELLO restarts
  output logic                          rep_valid_o, // an error report (struct wg_link_report)
  output logic      [3:0]               rep_code_o,
  output logic      [7:0]               rep_type_o,
  output logic      [31:0]              rep_seq_o,
  output logic      [63:0]              rep_off_o,
  output logic      [31:0]              rep_exp_o,
  output logic      [31:0]              rep_act_o,
  // The engine holds its state at the next edge unless a byte (rx_valid_i) or an event
  // (ev_valid_i) arrives: nothing being received, delivered, built or sent, no command
  // offered, no frame in flight and no NAK outstanding (their timers stopped). A simulation
  // may skip such cycles; a board may show it. wait_o: the same, except that the
  // retransmission or NAK timer may run (the engine waits for the host's ACK or for a lost
  // command frame); only those timers move.
  output logic                          idle_o,
  output logic                          wait_o
);

  // ---------------------------------------------------------------------------
  // Receive side and command assembly.
  // ---------------------------------------------------------------------------
  logic        rec_valid, rec_ready, rec_last;
  logic [7:0]  rec_data, rec_type, rec_off;
  logic        up, failed, hello, ack_valid, ack_nak, ack_req, nak_req, tx_fail;
  logic [31:0] rcv_nxt, peer_payload, ack_seq, snd_una, snd_max, snd_tx, retries;
  logic [31:0] nak_from, nak_got, tx_fail_tries;
  logic        rx_idle, tx_idle, rx_wait, tx_wait;

  wg_link_rx #(
    .RX_BUF_BYTES (RX_BUF_BYTES),
    .RX_PAYLOAD   (RX_PAYLOAD),
    .DESC_DEPTH   (DESC_DEPTH),
    .MEM_TAG_W    (MEM_TAG_W),
    .RTO_CYCLES   (RTO_CYCLES),
    .MAX_RETRIES  (MAX_RETRIES)
  ) u_rx (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .rx_valid_i      (rx_valid_i),
    .rx_ready_o      (rx_ready_o),
    .rx_data_i       (rx_data_i),
    .rec_valid_o     (rec_valid),
    .rec_ready_i     (rec_ready),
    .rec_data_o      (rec_data),
    .rec_type_o      (rec_type),
    .rec_off_o       (rec_off),
    .rec_last_o      (rec_last),
    .up_o            (up),
    .failed_o        (failed),
    .rcv_nxt_o       (rcv_nxt),
    .hello_o         (hello),
    .peer_payload_o  (peer_payload),
    .ack_valid_o     (ack_valid),
    .ack_nak_o       (ack_nak),
    .ack_seq_o       (ack_seq),
    .snd_una_i       (snd_una),
    .snd_max_i       (snd_max),
    .snd_tx_i        (snd_tx),
    .retries_i       (retries),
    .ack_req_o       (ack_req),
    .nak_req_o       (nak_req),
    .nak_from_o      (nak_from),
    .nak_got_o       (nak_got),
    .tx_fail_i       (tx_fail),
    .tx_fail_tries_i (tx_fail_tries),
    .rep_valid_o     (rep_valid_o),
    .rep_code_o      (rep_code_o),
    .rep_type_o      (rep_type_o),
    .rep_seq_o       (rep_seq_o),
    .rep_off_o       (rep_off_o),
    .rep_exp_o       (rep_exp_o),
    .rep_act_o       (rep_act_o),
    .idle_o          (rx_idle),
    .wait_o          (rx_wait)
  );

  wg_link_cmd #(.MEM_TAG_W(MEM_TAG_W)) u_cmd (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (rec_valid),
    .in_ready_o  (rec_ready),
    .in_data_i   (rec_data),
    .in_type_i   (rec_type),
    .in_off_i    (rec_off),
    .in_last_i   (rec_last),
    .cmd_valid_o (cmd_valid_o),
    .cmd_ready_i (cmd_ready_i),
    .cmd_op_o    (cmd_op_o),
    .cmd_sm_o    (cmd_sm_o),
    .cmd_all_o   (cmd_all_o),
    .cmd_at_o    (cmd_at_o),
    .cmd_addr_o  (cmd_addr_o),
    .cmd_tag_o   (cmd_tag_o),
    .cmd_data_o  (cmd_data_o)
  );

  // ---------------------------------------------------------------------------
  // Event packing and send side.
  // ---------------------------------------------------------------------------
  // The send side copies the offered event a record word per cycle; the event stays on the
  // GPU's port until its last word is in the frame store (the GPU holds it: valid/ready).
  logic [31:0]      ev_word;
  logic [7:0]       ev_type, ev_words, ev_widx;
  logic             ev_flush, ev_bad, ev_rec_ready;

  wg_link_ev #(.MEM_TAG_W(MEM_TAG_W), .NUM_SMS(NUM_SMS), .CNT_W(CNT_W), .RETIRE_EN(RETIRE_EN)) u_ev (
    .ev_kind_i             (ev_kind_i),
    .ev_sm_i               (ev_sm_i),
    .ev_cycle_i            (ev_cycle_i),
    .ev_mreq_tag_i         (ev_mreq_tag_i),
    .ev_mreq_cmd_i         (ev_mreq_cmd_i),
    .ev_mreq_addr_i        (ev_mreq_addr_i),
    .ev_mreq_size_i        (ev_mreq_size_i),
    .ev_mreq_wmask_i       (ev_mreq_wmask_i),
    .ev_mreq_wdata_i       (ev_mreq_wdata_i),
    .ev_mreq_atom_op_i     (ev_mreq_atom_op_i),
    .ev_mreq_atom_b_i      (ev_mreq_atom_b_i),
    .ev_mreq_atom_c_i      (ev_mreq_atom_c_i),
    .ev_mreq_local_i       (ev_mreq_local_i),
    .ev_mreq_wb_i          (ev_mreq_wb_i),
    .ev_mreq_warp_i        (ev_mreq_warp_i),
    .ev_mreq_pc_i          (ev_mreq_pc_i),
    .ev_mreq_lane_i        (ev_mreq_lane_i),
    .ev_done_linear_i      (ev_done_linear_i),
    .ev_fault_code_i       (ev_fault_code_i),
    .ev_fault_warp_i       (ev_fault_warp_i),
    .ev_fault_pc_i         (ev_fault_pc_i),
    .ev_fault_lane_i       (ev_fault_lane_i),
    .ev_fault_addr_i       (ev_fault_addr_i),
    .ev_fault_cta_linear_i (ev_fault_cta_linear_i),
    .ev_ret_warp_i         (ev_ret_warp_i),
    .ev_ret_cta_linear_i   (ev_ret_cta_linear_i),
    .ev_ret_wic_i          (ev_ret_wic_i),
    .ev_ret_seq_i          (ev_ret_seq_i),
    .ev_ret_pc_i           (ev_ret_pc_i),
    .ev_ret_active_i       (ev_ret_active_i),
    .ev_ret_exec_i         (ev_ret_exec_i),
    .ev_ret_dst_i          (ev_ret_dst_i),
    .ev_ret_reg_i          (ev_ret_reg_i),
    .ev_ret_beat_i         (ev_ret_beat_i),
    .ev_ret_last_i         (ev_ret_last_i),
    .ev_ret_data_i         (ev_ret_data_i),
    .ev_busy_i             (ev_busy_i),
    .ev_cnt_i              (ev_cnt_i),
    .ev_err_code_i         (ev_err_code_i),
    .widx_i                (ev_widx),
    .word_o                (ev_word),
    .type_o                (ev_type),
    .words_o               (ev_words),
    .flush_o               (ev_flush),
    .bad_o                 (ev_bad)
  );

  // An event of an unknown kind is taken and dropped.
  assign ev_ready_o = ev_rec_ready || ev_bad;

  // HELLO words from offset 4 (docs/protocol.md section 5.1), LSB first.
  logic [22*32-1:0] hello_rec;
  assign hello_rec[0*32 +: 32]  = 32'(RX_PAYLOAD);     // max_payload
  assign hello_rec[1*32 +: 32]  = 32'(TX_FRAMES);      // window
  assign hello_rec[2*32 +: 32]  = 32'(NUM_SMS);
  assign hello_rec[3*32 +: 32]  = 32'(NUM_WARPS);
  assign hello_rec[4*32 +: 32]  = 32'(SIMD_WIDTH);
  assign hello_rec[5*32 +: 32]  = 32'(NUM_SIMD);
  assign hello_rec[6*32 +: 32]  = 32'(NUM_REGS);
  assign hello_rec[7*32 +: 32]  = 32'(RF_BANKS);
  assign hello_rec[8*32 +: 32]  = 32'(NUM_CTAS);
  assign hello_rec[9*32 +: 32]  = 32'(DMEM_BYTES);
  assign hello_rec[10*32 +: 32] = 32'(L1_SETS);
  assign hello_rec[11*32 +: 32] = 32'(L1_MSHRS);
  assign hello_rec[12*32 +: 32] = 32'(IMEM_DEPTH);
  assign hello_rec[13*32 +: 32] = 32'(CMEM_BYTES);
  assign hello_rec[14*32 +: 32] = 32'(STACK_DEPTH);
  assign hello_rec[15*32 +: 32] = 32'(HAS_FP);
  assign hello_rec[16*32 +: 32] = 32'd128;             // mem_bytes: the 128-byte line
  assign hello_rec[17*32 +: 32] = 32'(MEM_TAG_W);
  assign hello_rec[18*32 +: 32] = 32'(RETIRE_EN);
  assign hello_rec[19*32 +: 32] = 32'(RSP_DEPTH);
  assign hello_rec[20*32 +: 32] = 32'(LAUNCH_DEPTH);
  assign hello_rec[21*32 +: 32] = 32'(CNT_W / 32);     // cnt_words

  // Errors the receive side saw go to the host as LERR (docs/protocol.md section 8: codes 1..10).
  logic lerr_valid;
  assign lerr_valid = rep_valid_o && rep_code_o <= wg_link_pkg::E_STATE;

  wg_link_tx #(
    .TX_FRAMES     (TX_FRAMES),
    .TX_SLOT_BYTES (TX_SLOT_BYTES),
    .FLUSH_CYCLES  (FLUSH_CYCLES),
    .RTO_CYCLES    (RTO_CYCLES),
    .MAX_RETRIES   (MAX_RETRIES),
    .LERR_DEPTH    (LERR_DEPTH)
  ) u_tx (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .rec_valid_i     (ev_valid_i && !ev_bad),
    .rec_ready_o     (ev_rec_ready),
    .rec_widx_o      (ev_widx),
    .rec_word_i      (ev_word),
    .rec_type_i      (ev_type),
    .rec_words_i     (ev_words),
    .rec_flush_i     (ev_flush),
    .tx_valid_o      (tx_valid_o),
    .tx_ready_i      (tx_ready_i),
    .tx_data_o       (tx_data_o),
    .up_i            (up),
    .failed_i        (failed),
    .rcv_nxt_i       (rcv_nxt),
    .hello_i         (hello),
    .peer_payload_i  (peer_payload),
    .ack_valid_i     (ack_valid),
    .ack_nak_i       (ack_nak),
    .ack_seq_i       (ack_seq),
    .snd_una_o       (snd_una),
    .snd_max_o       (snd_max),
    .snd_tx_o        (snd_tx),
    .retries_o       (retries),
    .ack_req_i       (ack_req),
    .nak_req_i       (nak_req),
    .nak_from_i      (nak_from),
    .nak_got_i       (nak_got),
    .tx_fail_o       (tx_fail),
    .tx_fail_tries_o (tx_fail_tries),
    .lerr_valid_i    (lerr_valid),
    .lerr_code_i     (rep_code_o),
    .lerr_type_i     (rep_type_o),
    .lerr_seq_i      (rep_seq_o),
    .lerr_off_i      (rep_off_o),
    .lerr_exp_i      (rep_exp_o),
    .lerr_act_i      (rep_act_o),
    .hello_rec_i     (hello_rec),
    .idle_o          (tx_idle),
    .wait_o          (tx_wait)
  );

  assign up_o     = up;
  assign failed_o = failed;
  assign idle_o   = rx_idle && tx_idle && !cmd_valid_o;
  assign wait_o   = rx_wait && tx_wait && !cmd_valid_o;

  // Elaboration checks: what the host refuses at HELLO (docs/protocol.md section 7.5).
  if (NUM_SIMD * SIMD_WIDTH > 32 || NUM_SIMD < 1) begin : g_bad_lanes
    $error("wg_link: at most 32 lanes");
  end
  if (CNT_W != 52 * 32) begin : g_bad_cnt
    $error("wg_link: the counter snapshot must be 52 words (protocol version 1)");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (ev_valid_i) assert (!ev_bad) else $error("wg_link: event of kind %0d dropped", ev_kind_i);
    end
  end
`endif

endmodule
