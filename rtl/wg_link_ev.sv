// wg_link_ev: an event of the GPU top's event port as its protocol record
// (docs/link-rtl.md section 5; layouts docs/protocol.md section 5.3).
// Combinational.
//
//   - rec_o holds the record's bytes, byte i in bits [8*i +: 8], zero past the
//     record's end; type_o is its frame type, words_o its size in 32-bit words.
//   - The form is chosen as host/src/link.c's wg_link_ev_type does: the no-data
//     form of MREQ (0x60) when the write mask and data are zero, of RETIRE
//     (0x63) when the lane values are zero, so the coding is lossless.
//   - flush_o: the GPU waits for the host after this event (REACHED, COUNTERS,
//     ERROR, FAULT), so its frame is closed at once instead of waiting for more.
//   - bad_o: kind 7, which the GPU top does not produce (nor RETIRE when RETIRE_EN
//     is 0: a build without the retire port carries none of its logic); the link
//     drops it.
`default_nettype none

module wg_link_ev #(
  parameter int unsigned MEM_TAG_W = 8,
  parameter int unsigned NUM_SMS   = 15,
  parameter int unsigned CNT_W     = 1664,
  parameter bit          RETIRE_EN = 1'b1,  // 0: the GPU has no retire port; RETIRE is not packed
  // Derived: do not override.
  parameter int unsigned REC_W = wg_link_pkg::REC_MAX * 8
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

  output logic      [REC_W-1:0]     rec_o,
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

  // Byte offsets of the fields times 8 (docs/protocol.md section 5.3).
  localparam int unsigned B1 = 8, B2 = 16, B3 = 24, B4 = 32, B12 = 96, B16 = 128, B20 = 160,
                          B24 = 192, B28 = 224, B29 = 232, B30 = 240, B31 = 248, B32 = 256,
                          B36 = 288, B52 = 416;

  logic mreq_nd, ret_nd;
  assign mreq_nd = (ev_mreq_wmask_i == '0) && (ev_mreq_wdata_i == '0);
  assign ret_nd  = (ev_ret_data_i == '0);

  always_comb begin
    rec_o           = '0;
    rec_o[7:0]      = ev_sm_i;
    rec_o[B4 +: 64] = ev_cycle_i;
    type_o          = wg_link_pkg::T_ERROR;
    flush_o         = 1'b0;
    bad_o           = 1'b0;
    unique case (ev_kind_i)
      EV_MREQ: begin
        rec_o[B1 +: 8]   = {6'd0, ev_mreq_cmd_i};
        rec_o[B2 +: 16]  = 16'(ev_mreq_tag_i);
        rec_o[B12 +: 32] = ev_mreq_addr_i;
        rec_o[B16 +: 32] = ev_mreq_atom_b_i;
        rec_o[B20 +: 32] = ev_mreq_atom_c_i;
        rec_o[B24 +: 32] = {14'd0, ev_mreq_pc_i};
        rec_o[B28 +: 8]  = {5'd0, ev_mreq_size_i};
        rec_o[B29 +: 8]  = {4'd0, ev_mreq_atom_op_i};
        rec_o[B30 +: 8]  = {2'd0, ev_mreq_warp_i};
        rec_o[B31 +: 8]  = {3'd0, ev_mreq_lane_i};
        rec_o[B32 +: 8]  = {6'd0, ev_mreq_wb_i, ev_mreq_local_i};
        if (!mreq_nd) begin
          rec_o[B36 +: 128]  = ev_mreq_wmask_i;
          rec_o[B52 +: 1024] = ev_mreq_wdata_i;
        end
        type_o = mreq_nd ? wg_link_pkg::T_MREQ_ND : wg_link_pkg::T_MREQ;
      end
      EV_DONE: begin
        rec_o[B12 +: 32] = ev_done_linear_i;
        type_o           = wg_link_pkg::T_DONE;
      end
      EV_FAULT: begin
        rec_o[B1 +: 8]   = {4'd0, ev_fault_code_i};
        rec_o[B2 +: 8]   = {2'd0, ev_fault_warp_i};
        rec_o[B3 +: 8]   = {3'd0, ev_fault_lane_i};
        rec_o[B12 +: 32] = {14'd0, ev_fault_pc_i};
        rec_o[B16 +: 32] = ev_fault_addr_i;
        rec_o[B20 +: 32] = ev_fault_cta_linear_i;
        type_o           = wg_link_pkg::T_FAULT;
        flush_o          = 1'b1;
      end
      EV_RETIRE: if (!RETIRE_EN) bad_o = 1'b1; else begin
        rec_o[B1 +: 8]   = {2'd0, ev_ret_warp_i};
        rec_o[B2 +: 16]  = ev_ret_seq_i;
        rec_o[B12 +: 32] = ev_ret_cta_linear_i;
        rec_o[B16 +: 32] = {14'd0, ev_ret_pc_i};
        rec_o[B20 +: 32] = ev_ret_active_i;
        rec_o[B24 +: 32] = ev_ret_exec_i;
        rec_o[B28 +: 8]  = {3'd0, ev_ret_wic_i};
        rec_o[B29 +: 8]  = {6'd0, ev_ret_dst_i};
        rec_o[B30 +: 8]  = {2'd0, ev_ret_reg_i};
        rec_o[B31 +: 8]  = {6'd0, ev_ret_beat_i};
        rec_o[B32 +: 8]  = {7'd0, ev_ret_last_i};
        if (!ret_nd) rec_o[B36 +: 1024] = ev_ret_data_i;
        type_o = ret_nd ? wg_link_pkg::T_RETIRE_ND : wg_link_pkg::T_RETIRE;
      end
      EV_REACHED: begin
        rec_o[B12 +: 64] = 64'(ev_busy_i);
        type_o           = wg_link_pkg::T_REACHED;
        flush_o          = 1'b1;
      end
      EV_COUNTERS: begin
        rec_o[B12 +: CNT_W] = ev_cnt_i;
        type_o              = wg_link_pkg::T_COUNTERS;
        flush_o             = 1'b1;
      end
      EV_ERROR: begin
        rec_o[B1 +: 8] = {4'd0, ev_err_code_i};
        type_o         = wg_link_pkg::T_ERROR;
        flush_o        = 1'b1;
      end
      default: bad_o = 1'b1;
    endcase
  end

  assign words_o = wg_link_pkg::rec_size(type_o) >> 2;

  if (CNT_W > 52 * 32 || CNT_W % 32 != 0) begin : g_bad_cnt
    $error("wg_link_ev: the counter snapshot must be at most 52 words (protocol version 1)");
  end
  if (NUM_SMS < 1 || NUM_SMS > 64) begin : g_bad_sms
    $error("wg_link_ev: NUM_SMS must be 1..64 (REACHED carries a 64-bit mask)");
  end

endmodule
