// wg_link_pkg: constants of the host <-> GPU link protocol for the link engine
// (docs/protocol.md, docs/link-rtl.md). The same values as the C header
// host/include/wg_link_proto.h, which stays the reference: frame layout, frame
// types, record sizes, error codes and HELLO fields.
`default_nettype none

package wg_link_pkg;

  /* verilator lint_off UNUSEDPARAM */

  // Frame: SYNC (4) TYPE FLAGS LEN(2) SEQ(4) NREC(2) HCHK(2) | payload | CRC (4).
  localparam logic [7:0] SYNC0 = 8'hA5;
  localparam logic [7:0] SYNC1 = 8'h57;
  localparam logic [7:0] SYNC2 = 8'h47;
  localparam logic [7:0] SYNC3 = 8'h4C;
  localparam int unsigned HDR_BYTES   = 16;
  localparam int unsigned CRC_BYTES   = 4;
  localparam int unsigned PAYLOAD_MIN = 1024;   // every receiver accepts this much
  localparam int unsigned PAYLOAD_MAX = 16364;  // 16 KB frame less header and CRC
  localparam logic [15:0] VERSION     = 16'd1;

  // Frame types.
  localparam logic [7:0] T_HELLO     = 8'h01;
  localparam logic [7:0] T_ACK       = 8'h02;
  localparam logic [7:0] T_NAK       = 8'h03;
  localparam logic [7:0] T_LERR      = 8'h04;
  localparam logic [7:0] T_NOP       = 8'h10;
  localparam logic [7:0] T_RESET     = 8'h11;
  localparam logic [7:0] T_CFG       = 8'h12;
  localparam logic [7:0] T_IMEM      = 8'h13;
  localparam logic [7:0] T_CMEM      = 8'h14;
  localparam logic [7:0] T_LAUNCH    = 8'h15;
  localparam logic [7:0] T_MRSP      = 8'h16;
  localparam logic [7:0] T_GRANT     = 8'h17;
  localparam logic [7:0] T_LANE_EN   = 8'h18;
  localparam logic [7:0] T_CNT_READ  = 8'h19;
  localparam logic [7:0] T_MRSP_ND   = 8'h56;
  localparam logic [7:0] T_MREQ      = 8'h20;
  localparam logic [7:0] T_DONE      = 8'h21;
  localparam logic [7:0] T_FAULT     = 8'h22;
  localparam logic [7:0] T_RETIRE    = 8'h23;
  localparam logic [7:0] T_REACHED   = 8'h24;
  localparam logic [7:0] T_COUNTERS  = 8'h25;
  localparam logic [7:0] T_ERROR     = 8'h26;
  localparam logic [7:0] T_MREQ_ND   = 8'h60;
  localparam logic [7:0] T_RETIRE_ND = 8'h63;

  // Record sizes in bytes.
  localparam int unsigned HELLO_SIZE = 92;
  localparam int unsigned ACK_SIZE   = 4;
  localparam int unsigned NAK_SIZE   = 8;
  localparam int unsigned LERR_SIZE  = 24;
  localparam int unsigned REC_MAX    = 220;   // COUNTERS, the largest event record

  // Link error codes (LERR records, the report port).
  localparam logic [3:0] E_SYNC    = 4'd1;
  localparam logic [3:0] E_HCHK    = 4'd2;
  localparam logic [3:0] E_LENGTH  = 4'd3;
  localparam logic [3:0] E_TYPE    = 4'd4;
  localparam logic [3:0] E_CRC     = 4'd5;
  localparam logic [3:0] E_TRUNC   = 4'd6;
  localparam logic [3:0] E_GAP     = 4'd7;
  localparam logic [3:0] E_DUP     = 4'd8;
  localparam logic [3:0] E_FIELD   = 4'd9;
  localparam logic [3:0] E_STATE   = 4'd10;
  localparam logic [3:0] E_WINDOW  = 4'd11;
  localparam logic [3:0] E_RETRY   = 4'd12;
  localparam logic [3:0] E_VERSION = 4'd13;
  localparam logic [3:0] E_LAST    = 4'd13;   // LERR code field: at most this

  localparam logic [7:0] ROLE_HOST   = 8'd0;
  localparam logic [7:0] ROLE_GPU    = 8'd1;
  localparam logic [7:0] HELLO_REPLY = 8'h01;

  // Record bytes of a frame type that the GPU side sends or receives; 0 for
  // every other type (TRACE included: the link engine neither sends nor takes it).
  function automatic logic [7:0] rec_size(input logic [7:0] t);
    unique case (t)
      T_HELLO:                        rec_size = 8'd92;
      T_ACK:                          rec_size = 8'd4;
      T_NAK:                          rec_size = 8'd8;
      T_LERR:                         rec_size = 8'd24;
      T_NOP, T_RESET, T_CNT_READ:     rec_size = 8'd4;
      T_CFG, T_CMEM, T_GRANT:         rec_size = 8'd12;
      T_IMEM:                         rec_size = 8'd16;
      T_LAUNCH:                       rec_size = 8'd24;
      T_MRSP:                         rec_size = 8'd140;
      T_MRSP_ND:                      rec_size = 8'd12;
      T_LANE_EN:                      rec_size = 8'd8;
      T_MREQ:                         rec_size = 8'd180;
      T_MREQ_ND, T_RETIRE_ND:         rec_size = 8'd36;
      T_DONE:                         rec_size = 8'd16;
      T_FAULT:                        rec_size = 8'd24;
      T_RETIRE:                       rec_size = 8'd164;
      T_REACHED:                      rec_size = 8'd20;
      T_COUNTERS:                     rec_size = 8'd220;
      T_ERROR:                        rec_size = 8'd12;
      default:                        rec_size = 8'd0;
    endcase
  endfunction

  // Link frames (HELLO, ACK, NAK, LERR): both directions, unsequenced.
  function automatic logic is_link(input logic [7:0] t);
    is_link = (t == T_HELLO) || (t == T_ACK) || (t == T_NAK) || (t == T_LERR);
  endfunction

  // Command frames (host -> GPU): 0x10 | op for ops 0..9, and the no-data MRSP.
  function automatic logic is_cmd(input logic [7:0] t);
    is_cmd = ((t[7:4] == 4'h1) && (t[3:0] <= 4'd9)) || (t == T_MRSP_ND);
  endfunction

  // Sequence order modulo 2^32: a before b.
  function automatic logic seq_before(input logic [31:0] a, input logic [31:0] b);
    seq_before = 1'((a - b) >> 31);
  endfunction

  /* verilator lint_on UNUSEDPARAM */

endpackage
