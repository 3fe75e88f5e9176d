// wg_link_cmd: command records, byte by byte, to the GPU top's command port
// (docs/link-rtl.md section 4; record layouts docs/protocol.md section 5.2).
//
//   - A record arrives as a run of bytes (in_off_i = 0 .. size-1, in_last_i on
//     the last), all of one frame type. Each byte goes to its field; fields the
//     type does not carry are zero, as in host/src/link.c's wg_link_cmd_unpack.
//   - After the last byte the command is offered on cmd_* until cmd_ready_i; no
//     byte is taken meanwhile (in_ready_o = 0). One command per record.
//   - The receive side has checked every field against the port widths before
//     the frame was committed (FLAGS <= 1, the tag within MEM_TAG_W), so the
//     upper tag bits dropped here are zero.
`default_nettype none

module wg_link_cmd #(
  parameter int unsigned MEM_TAG_W = 8
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,

  input  wire logic                 in_valid_i,
  output logic                      in_ready_o,
  input  wire logic [7:0]           in_data_i,
  input  wire logic [7:0]           in_type_i,
  input  wire logic [7:0]           in_off_i,
  input  wire logic                 in_last_i,

  output logic                      cmd_valid_o,
  input  wire logic                 cmd_ready_i,
  output logic [3:0]                cmd_op_o,
  output logic [7:0]                cmd_sm_o,
  output logic                      cmd_all_o,
  output logic [63:0]               cmd_at_o,
  output logic [31:0]               cmd_addr_o,
  output logic [MEM_TAG_W-1:0]      cmd_tag_o,
  output logic [1023:0]             cmd_data_o
);

  logic          valid_q;
  logic [3:0]    op_q;
  logic [7:0]    sm_q;
  logic          all_q;
  logic [63:0]   at_q;
  logic [31:0]   addr_q;
  logic [15:0]   tag_q;
  logic [1023:0] data_q;
  logic          in_fire, cmd_fire;

  assign in_ready_o = !valid_q;
  assign in_fire    = in_valid_i && in_ready_o;
  assign cmd_fire   = valid_q && cmd_ready_i;

  // Where the fields of each type sit (record byte offsets).
  logic       has_at, has_tag, has_addr;
  logic [7:0] addr_off, data_off, data_len;
  always_comb begin
    has_at   = 1'b0;
    has_tag  = 1'b0;
    has_addr = 1'b1;
    addr_off = 8'd4;
    data_off = 8'd0;
    data_len = 8'd0;           // no data
    unique case (in_type_i)
      wg_link_pkg::T_CFG, wg_link_pkg::T_CMEM: begin
        addr_off = 8'd4;
        data_off = 8'd8;
        data_len = 8'd4;
      end
      wg_link_pkg::T_IMEM: begin
        addr_off = 8'd4;
        data_off = 8'd8;
        data_len = 8'd8;
      end
      wg_link_pkg::T_LAUNCH: begin
        has_at   = 1'b1;
        addr_off = 8'd12;
        data_off = 8'd16;
        data_len = 8'd6;
      end
      wg_link_pkg::T_MRSP: begin
        has_at   = 1'b1;
        has_tag  = 1'b1;
        has_addr = 1'b0;
        data_off = 8'd12;
        data_len = 8'd128;
      end
      wg_link_pkg::T_MRSP_ND: begin
        has_at   = 1'b1;
        has_tag  = 1'b1;
        has_addr = 1'b0;
      end
      wg_link_pkg::T_GRANT: begin
        has_at   = 1'b1;
        has_addr = 1'b0;
      end
      wg_link_pkg::T_LANE_EN: begin
        has_addr = 1'b0;
        data_off = 8'd4;
        data_len = 8'd4;
      end
      wg_link_pkg::T_CNT_READ: begin
        addr_off = 8'd2;        // the page, u16 in bytes 2..3 (docs/protocol.md section 5.2)
      end
      default: has_addr = 1'b0; // NOP, RESET: the prefix only
    endcase
  end

  logic [7:0] at_i, addr_i, data_i;
  assign at_i   = in_off_i - 8'd4;
  assign addr_i = in_off_i - addr_off;
  assign data_i = in_off_i - data_off;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
    end else if (in_fire && in_last_i) begin
      valid_q <= 1'b1;
    end else if (cmd_fire) begin
      valid_q <= 1'b0;
    end
  end

  // A record's first byte clears every field; then each byte has its own enable (an
  // explicit decode: no shifter over the 1024-bit data field).
  logic first, at_hit, addr_hit, data_hit;
  assign first    = in_fire && in_off_i == 8'd0;
  assign at_hit   = in_fire && has_at && at_i < 8'd8;
  assign addr_hit = in_fire && has_addr && addr_i < 8'd4;
  assign data_hit = in_fire && data_i < data_len;

  always_ff @(posedge clk_i) begin
    if (first) begin
      op_q <= in_type_i[3:0];
      sm_q <= in_data_i;
    end
    if (first)                              all_q <= 1'b0;
    else if (in_fire && in_off_i == 8'd1)   all_q <= in_data_i[0];
    for (int k = 0; k < 2; k++) begin
      if (first)                                                      tag_q[k*8 +: 8] <= '0;
      else if (in_fire && has_tag && in_off_i == 8'(2 + k))           tag_q[k*8 +: 8] <= in_data_i;
    end
    for (int k = 0; k < 8; k++) begin
      if (first)                                 at_q[k*8 +: 8] <= '0;
      else if (at_hit && at_i[2:0] == 3'(k))     at_q[k*8 +: 8] <= in_data_i;
    end
    for (int k = 0; k < 4; k++) begin
      if (first)                                 addr_q[k*8 +: 8] <= '0;
      else if (addr_hit && addr_i[1:0] == 2'(k)) addr_q[k*8 +: 8] <= in_data_i;
    end
    for (int k = 0; k < 128; k++) begin
      if (first)                                 data_q[k*8 +: 8] <= '0;
      else if (data_hit && data_i[6:0] == 7'(k)) data_q[k*8 +: 8] <= in_data_i;
    end
  end

  assign cmd_valid_o = valid_q;
  assign cmd_op_o    = op_q;
  assign cmd_sm_o    = sm_q;
  assign cmd_all_o   = all_q;
  assign cmd_at_o    = at_q;
  assign cmd_addr_o  = addr_q;
  assign cmd_tag_o   = tag_q[MEM_TAG_W-1:0];
  assign cmd_data_o  = data_q;

  if (MEM_TAG_W < 16) begin : g_tag_unused
    logic unused_tag;
    assign unused_tag = ^tag_q[15:MEM_TAG_W];
  end

`ifndef SYNTHESIS
  // Valid/ready rule of the command port: a command stays until taken.
  logic         held_q;
  logic [1023:0] held_data_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) held_q <= 1'b0;
    else         held_q <= valid_q && !cmd_ready_i;
    held_data_q <= data_q;
    if (rst_ni) begin
      if (held_q) assert (valid_q && data_q == held_data_q)
        else $error("wg_link_cmd: command withdrawn or changed before it was taken");
      if (in_valid_i && in_off_i == 8'd0) assert (in_ready_o)
        else $error("wg_link_cmd: record started while a command waits");
      if (in_valid_i) assert (in_ready_o) else $error("wg_link_cmd: byte offered while a command waits");
    end
  end
`endif

endmodule
