// wg_crc32: CRC-32 of IEEE 802.3 (zlib, PNG; the link protocol's frame CRC and
// header check, docs/protocol.md section 3) over DATA_W bits per clock.
//
//   - Reflected polynomial 0xEDB88320, register preset to all ones, result
//     inverted: crc_o is the CRC of every byte absorbed since the last init_i,
//     the value host/src/crc32.c's wg_crc32(0, bytes, n) returns. The CRC of the
//     ASCII bytes "123456789" is 0xCBF43926.
//   - DATA_W is a multiple of 8; byte 0 of a beat is data_i[7:0] and goes
//     first (little-endian, like the link's byte stream).
//   - init_i starts a new CRC at the clock edge; with en_i in the same cycle the
//     beat is the first of the new CRC, so a frame needs no idle cycle before it.
//   - crc_o is registered (no path from data_i); it changes only at an edge with
//     init_i or en_i.
// The next-state function is the bit-serial definition unrolled DATA_W times;
// synthesis flattens it to one XOR network per state bit.
`default_nettype none

module wg_crc32 #(
  parameter int unsigned DATA_W = 8
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              init_i,
  input  wire logic              en_i,
  input  wire logic [DATA_W-1:0] data_i,
  output logic      [31:0]       crc_o
);

  localparam logic [31:0] POLY = 32'hEDB88320;

  logic [31:0] state_q, state_d;

  always_comb begin
    state_d = init_i ? '1 : state_q;
    if (en_i) begin
      for (int i = 0; i < DATA_W; i++) begin
        state_d = (state_d >> 1) ^ (((state_d[0] ^ data_i[i]) == 1'b1) ? POLY : 32'h0);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) state_q <= '1;
    else         state_q <= state_d;
  end

  assign crc_o = ~state_q;

  if (DATA_W == 0 || DATA_W % 8 != 0) begin : g_bad_width
    $error("wg_crc32: DATA_W must be a positive multiple of 8");
  end

endmodule
