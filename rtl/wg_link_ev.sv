// wg_link_ev: an event of the GPU top's event port as its protocol record, a word at a time
// (docs/link-rtl.md section 2; layouts docs/protocol.md section 5.3). Combinational.
//
//   - word_o is 32-bit word widx_i of the record (record bytes 4*widx_i .. +3, the first
//     in bits [7:0]), zero past the record's end; type_o is its frame type, words_o its
//     size in 32-bit words. The send side copies the words while the GPU holds the event
//     on its port (valid/ready), so no copy of the whole record is kept anywhere.
//   - The form is chosen as host/src/link.c's wg_link_ev_type does: the no-data form of
//     MREQ (0x60) when the write mask and data are zero, of RETIRE (0x63) when the lane
//     values are zero, so the coding is lossless.
//   - flush_o: the GPU waits for the host after this event (REACHED, COUNTERS, ERROR,
//     FAULT), so its frame is closed at once instead of waiting for more.
//   - bad_o: kind 7, which the GPU top does not produce (nor RETIRE when RETIRE_EN is 0: a
//     build without the retire port carries none of its logic); the link drops it.
`default_nettype none

module wg_link_ev #(
  parameter int unsigned MEM_TAG_W = 8,
  parameter int unsigned NUM_SMS   = 15,
  parameter int unsigned CNT_W     = 1664,
  parameter bit          RETIRE_EN = 1'b1   // 0: the GPU has no retire port; RETIRE is not packed
) (
  input  wire logic [2:0]           ev_kind_i,
  input  wire logic [7:0]           ev_sm_i,
  input  wire logic [63:0]          ev_cycle_i,
  input  wire logic [MEM_TAG_W-1:0] ev_mreq_tag_i,
  input  wire logic [1:0]           ev_mreq_cmd_i,
  input  wire logic [31:0]          ev_mreq_addr_i,
  input  wire logic [2:0]           ev_mreq_size_i,
  input  wire logic [127:0]         ev_mreq_wmask_i,
  input  wire logic [1023:0]        ev_mreq_wdata_i,
  input  wire logic [3:0]           ev_mreq_atom_op_i,
  input  wire logic [31:0]          ev_mreq_atom_b_i,
  input  wire logic [31:0]          ev_mreq_atom_c_i,
  input  wire logic                 ev_mreq_local_i,
  input  wire logic                 ev_mreq_wb_i,
  input  wire logic [5:0]           ev_mreq_warp_i,
  input  wire logic [17:0]          ev_mreq_pc_i,
  input  wire logic [4:0]           ev_mreq_lane_i,
  input  wire logic [31:0]          ev_done_linear_i,
  input  wire logic [3:0]           ev_fault_code_i,
  input  wire logic [5:0]           ev_fault_warp_i,
  input  wire logic [17:0]          ev_fault_pc_i,
  input  wire logic [4:0]           ev_fault_lane_i,
  input  wire logic [31:0]          ev_fault_addr_i,
  input  wire logic [31:0]          ev_fault_cta_linear_i,
  input  wire logic [5:0]           ev_ret_warp_i,
  input  wire logic [31:0]          ev_ret_cta_linear_i,
  input  wire logic [4:0]           ev_ret_wic_i,
  input  wire logic [15:0]          ev_ret_seq_i,
  input  wire logic [17:0]          ev_ret_pc_i,
  input  wire logic [31:0]          ev_ret_active_i,
  input  wire logic [31:0]          ev_ret_exec_i,
  input  wire logic [1:0]           ev_ret_dst_i,
  input  wire logic [5:0]           ev_ret_reg_i,
  input  wire logic [1:0]           ev_ret_beat_i,
  input  wire logic                 ev_ret_last_i,
  input  wire logic [1023:0]        ev_ret_data_i,
  input  wire logic [NUM_SMS-1:0]   ev_busy_i,
  input  wire logic [CNT_W-1:0]     ev_cnt_i,
  input  wire logic [3:0]           ev_err_code_i,

  input  wire logic [7:0]           widx_i,       // the record word to form

  output logic      [31:0]          word_o,
  output logic      [7:0]           type_o,
  output logic      [7:0]           words_o,
  output logic                      flush_o,
  output logic                      bad_o
);

  localparam logic [2:0] EV_MREQ     = 3'd0;
  localparam logic [2:0] EV_DONE     = 3'd1;
  localparam logic [2:0] EV_FAULT    = 3'd2;
  localparam logic [2:0] EV_RETIRE   = 3'd3;
  localparam logic [2:0] EV_REACHED  = 3'd4;
  localparam logic [2:0] EV_COUNTERS = 3'd5;
  localparam logic [2:0] EV_ERROR    = 3'd6;

  // Word offsets of the wide fields (docs/protocol.md section 5.3: byte offset / 4).
  localparam int unsigned W_MREQ_WM = 9;    // MREQ write mask, 4 words
  localparam int unsigned W_MREQ_WD = 13;   // MREQ write data, 32 words
  localparam int unsigned W_RET_D   = 9;    // RETIRE lane values, 32 words
  localparam int unsigned W_CNT     = 3;    // COUNTERS snapshot, CNT_W / 32 words
  localparam int unsigned CNT_WORDS = CNT_W / 32;

  logic mreq_nd, ret_nd;
  assign mreq_nd = (ev_mreq_wmask_i == '0) && (ev_mreq_wdata_i == '0);
  assign ret_nd  = (ev_ret_data_i == '0);

  // Word i of a wide field, selected by the index alone (the kind gates it below).
  logic [7:0]  wi_wd, wi_wm, wi_rd, wi_cnt;
  logic [31:0] w_wd, w_wm, w_rd, w_cnt;
  assign wi_wd  = widx_i - 8'(W_MREQ_WD);
  assign wi_wm  = widx_i - 8'(W_MREQ_WM);
  assign wi_rd  = widx_i - 8'(W_RET_D);
  assign wi_cnt = widx_i - 8'(W_CNT);
  assign w_wd   = ev_mreq_wdata_i[wi_wd[4:0]*32 +: 32];
  assign w_wm   = ev_mreq_wmask_i[wi_wm[1:0]*32 +: 32];
  assign w_rd   = ev_ret_data_i[wi_rd[4:0]*32 +: 32];
  logic [64*32-1:0] cnt_pad;
  assign cnt_pad = {{(64*32-CNT_W){1'b0}}, ev_cnt_i};
  assign w_cnt = cnt_pad[wi_cnt[5:0]*32 +: 32];

  // The record's type and flush.
  always_comb begin
    type_o  = wg_link_pkg::T_ERROR;
    flush_o = 1'b0;
    bad_o   = 1'b0;
    unique case (ev_kind_i)
      EV_MREQ:     type_o = mreq_nd ? wg_link_pkg::T_MREQ_ND : wg_link_pkg::T_MREQ;
      EV_DONE:     type_o = wg_link_pkg::T_DONE;
      EV_FAULT:    begin type_o = wg_link_pkg::T_FAULT; flush_o = 1'b1; end
      EV_RETIRE:   if (!RETIRE_EN) bad_o = 1'b1;
                   else type_o = ret_nd ? wg_link_pkg::T_RETIRE_ND : wg_link_pkg::T_RETIRE;
      EV_REACHED:  begin type_o = wg_link_pkg::T_REACHED;  flush_o = 1'b1; end
      EV_COUNTERS: begin type_o = wg_link_pkg::T_COUNTERS; flush_o = 1'b1; end
      EV_ERROR:    begin type_o = wg_link_pkg::T_ERROR;    flush_o = 1'b1; end
      default:     bad_o = 1'b1;
    endcase
  end

  // Word widx_i as an OR of the sources that may fill it, each gated by a select decoded
  // once from the kind and the index (the kinds exclude each other).
  logic k_mreq, k_done, k_fault, k_ret, k_reached, k_cnt, k_err;
  assign k_mreq    = (ev_kind_i == EV_MREQ);
  assign k_done    = (ev_kind_i == EV_DONE);
  assign k_fault   = (ev_kind_i == EV_FAULT);
  assign k_ret     = (ev_kind_i == EV_RETIRE) && RETIRE_EN;
  assign k_reached = (ev_kind_i == EV_REACHED);
  assign k_cnt     = (ev_kind_i == EV_COUNTERS);
  assign k_err     = (ev_kind_i == EV_ERROR);

  function automatic logic [31:0] when(input logic s, input logic [31:0] v);
    when = {32{s}} & v;
  endfunction

  logic [31:0] w0;
  assign w0 = {24'd0, ev_sm_i}
            | when(k_mreq,  {16'(ev_mreq_tag_i), 6'd0, ev_mreq_cmd_i, 8'd0})
            | when(k_fault, {3'd0, ev_fault_lane_i, 2'd0, ev_fault_warp_i, 4'd0, ev_fault_code_i, 8'd0})
            | when(k_ret,   {ev_ret_seq_i, 2'd0, ev_ret_warp_i, 8'd0})
            | when(k_err,   {20'd0, ev_err_code_i, 8'd0});

  always_comb begin
    word_o = when(widx_i == 8'd0, w0)
           | when(widx_i == 8'd1, ev_cycle_i[31:0])
           | when(widx_i == 8'd2, ev_cycle_i[63:32])
           | when(k_mreq && widx_i == 8'd3, ev_mreq_addr_i)
           | when(k_mreq && widx_i == 8'd4, ev_mreq_atom_b_i)
           | when(k_mreq && widx_i == 8'd5, ev_mreq_atom_c_i)
           | when(k_mreq && widx_i == 8'd6, {14'd0, ev_mreq_pc_i})
           | when(k_mreq && widx_i == 8'd7, {3'd0, ev_mreq_lane_i, 2'd0, ev_mreq_warp_i, 4'd0,
                                             ev_mreq_atom_op_i, 5'd0, ev_mreq_size_i})
           | when(k_mreq && widx_i == 8'd8, {30'd0, ev_mreq_wb_i, ev_mreq_local_i})
           | when(k_mreq && !mreq_nd && wi_wm < 8'd4, w_wm)
           | when(k_mreq && !mreq_nd && wi_wd < 8'd32, w_wd)
           | when(k_done && widx_i == 8'd3, ev_done_linear_i)
           | when(k_fault && widx_i == 8'd3, {14'd0, ev_fault_pc_i})
           | when(k_fault && widx_i == 8'd4, ev_fault_addr_i)
           | when(k_fault && widx_i == 8'd5, ev_fault_cta_linear_i)
           | when(k_ret && widx_i == 8'd3, ev_ret_cta_linear_i)
           | when(k_ret && widx_i == 8'd4, {14'd0, ev_ret_pc_i})
           | when(k_ret && widx_i == 8'd5, ev_ret_active_i)
           | when(k_ret && widx_i == 8'd6, ev_ret_exec_i)
           | when(k_ret && widx_i == 8'd7, {6'd0, ev_ret_beat_i, 2'd0, ev_ret_reg_i, 6'd0, ev_ret_dst_i,
                                            3'd0, ev_ret_wic_i})
           | when(k_ret && widx_i == 8'd8, {31'd0, ev_ret_last_i})
           | when(k_ret && !ret_nd && wi_rd < 8'd32, w_rd)
           | when(k_reached && widx_i == 8'd3, 32'(64'(ev_busy_i)))
           | when(k_reached && widx_i == 8'd4, 32'(64'(ev_busy_i) >> 32))
           | when(k_cnt && wi_cnt < 8'(CNT_WORDS), w_cnt);
  end

  assign words_o = wg_link_pkg::rec_size(type_o) >> 2;

  if (CNT_W > 52 * 32 || CNT_W % 32 != 0) begin : g_bad_cnt
    $error("wg_link_ev: the counter snapshot must be at most 52 words (protocol version 1)");
  end
  if (NUM_SMS < 1 || NUM_SMS > 64) begin : g_bad_sms
    $error("wg_link_ev: NUM_SMS must be 1..64 (REACHED carries a 64-bit mask)");
  end

endmodule
