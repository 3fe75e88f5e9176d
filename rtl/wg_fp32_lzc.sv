// Leading-zero counter of the FP32 unit: a balanced tree, log2 depth.
// cnt_o is the number of zeros above the most significant one (WIDTH when in_i is zero).
module wg_fp32_lzc #(
  parameter int unsigned WIDTH = 24,
  localparam int unsigned CntW = $clog2(WIDTH + 1)
) (
  input  logic [WIDTH-1:0] in_i,
  output logic [CntW-1:0]  cnt_o
);

  // The input padded with ones below it to Leaves = 2^CntW > WIDTH bits, so an
  // all-zero input counts exactly WIDTH. Node n of a level covers leaves
  // [n*2^l, (n+1)*2^l), leaf 0 being the most significant bit. Each level is
  // computed in place: node n reads nodes 2n and 2n+1, which are not yet overwritten.
  localparam int Leaves = 1 << CntW;
  localparam int W      = WIDTH;
  localparam int CW     = CntW;
  localparam logic [CntW-1:0] One = 1;

  logic [Leaves-1:0]      any;  // the node's leaves hold a one
  logic [Leaves*CntW-1:0] cnt;  // zeros above the first one, CntW bits per node
  logic [CntW-1:0]        cnt_hi, cnt_lo;

  always_comb begin
    any    = '0;
    cnt    = '0;
    cnt_hi = '0;
    cnt_lo = '0;
    for (int n = 0; n < Leaves; n++) begin
      if (n < W) any[n] = in_i[W-1-n];
      else       any[n] = 1'b1;
    end
    for (int l = 1; l <= CW; l++) begin
      for (int n = 0; n < Leaves / 2; n++) begin
        if (n < (Leaves >> l)) begin
          cnt_hi = cnt[2*n*CW +: CntW];
          cnt_lo = cnt[(2*n+1)*CW +: CntW];
          cnt[n*CW +: CntW] = any[2*n] ? cnt_hi : (cnt_lo | (One << (l - 1)));
          any[n] = any[2*n] | any[2*n+1];
        end
      end
    end
  end

  assign cnt_o = cnt[CntW-1:0];

endmodule
