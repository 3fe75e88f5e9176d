// wg_sreg: special registers (docs/isa.md section 5) as a 32-lane row for S2R.
//
// S2R runs on the SIMD unit as MOV with this row as operand B. Thread indices
// are stored per warp at CTA launch (wg_cta_ctrl walks the CTA's threads, so
// the SM never divides); the other values come from the kernel registers,
// the CTA slot and the cycle counter.
//
// One read port shared by the schedulers (one row of 1,024 bits, not one per
// scheduler: docs/fpga.md section 3.8). A scheduler requests it with rd_en_i
// while an S2R is at its dispatch stage; a round-robin arbiter grants one
// request per cycle (rd_gnt_o, combinational), and rd_row_o is the granted
// port's row in the same cycle. A port that is not granted holds its S2R (the
// pipe dispatches an S2R only in a cycle with its grant); the pointer moves
// after every grant, so two schedulers with an S2R each wait at most one
// cycle. The row is formed only while a port is granted and is zero otherwise
// (for Verilator: the row is a 32-lane vector the clock counter would rebuild
// every cycle).
`default_nettype none

module wg_sreg #(
  parameter int unsigned NUM_WARPS = 48,
  parameter int unsigned NUM_CTAS  = 8,
  parameter int unsigned NUM_PORTS = 2,
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1,
  parameter int unsigned CTA_W  = (NUM_CTAS > 1) ? $clog2(NUM_CTAS) : 1,
  parameter int unsigned TID_W  = wg_sm_pkg::TID_W
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_ni,

  input  wire logic                          tid_we_i,
  input  wire logic [WARP_W-1:0]             tid_warp_i,
  input  wire logic [32*TID_W-1:0]           tid_row_i,

  input  wire logic [NUM_WARPS*5-1:0]        warp_wic_i,
  input  wire logic [NUM_WARPS*CTA_W-1:0]    warp_cta_i,
  input  wire logic [NUM_CTAS*48-1:0]        cta_id_i,     // {z, y, x} per slot
  input  wire logic [3*16-1:0]               ntid_i,       // {z, y, x}
  input  wire logic [3*16-1:0]               nctaid_i,
  input  wire logic [7:0]                    sm_id_i,
  input  wire logic [63:0]                   clock_i,

  input  wire logic [NUM_PORTS-1:0]          rd_en_i,     // an S2R at the port's dispatch
  input  wire logic [NUM_PORTS*WARP_W-1:0]   rd_warp_i,
  input  wire logic [NUM_PORTS*5-1:0]        rd_num_i,
  output logic [NUM_PORTS-1:0]               rd_gnt_o,    // the port served this cycle (one-hot)
  output logic [1023:0]                      rd_row_o     //   and its row
);

  localparam int unsigned PW = (NUM_PORTS > 1) ? $clog2(NUM_PORTS) : 1;

  logic          any_gnt;
  logic [PW-1:0] gnt_idx;
  wg_rr_arbiter #(.N(NUM_PORTS)) u_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (rd_en_i),
    .lock_i  (1'b0),
    .ready_i (1'b1),
    .valid_o (any_gnt),
    .gnt_o   (rd_gnt_o),
    .idx_o   (gnt_idx)
  );

  logic [32*TID_W-1:0] tid_q [NUM_WARPS];

  always_ff @(posedge clk_i) begin
    if (tid_we_i) tid_q[tid_warp_i] <= tid_row_i;
  end

  always_comb begin
    logic [WARP_W-1:0]   w;
    logic [4:0]          n;
    logic [CTA_W-1:0]    c;
    logic [32*TID_W-1:0] t;
    logic [31:0]         u;
    logic                uni;
    w   = '0;
    n   = '0;
    c   = '0;
    t   = '0;
    u   = '0;
    uni = 1'b0;
    rd_row_o = '0;
    if (any_gnt) begin
      w = rd_warp_i[32'(gnt_idx)*WARP_W +: WARP_W];
      n = rd_num_i[32'(gnt_idx)*5 +: 5];
      c = warp_cta_i[w*CTA_W +: CTA_W];
      t = tid_q[w];
      uni = 1'b1;
      case (n)
        wg_isa_pkg::SR_NTID_X:    u = 32'(ntid_i[15:0]);
        wg_isa_pkg::SR_NTID_Y:    u = 32'(ntid_i[31:16]);
        wg_isa_pkg::SR_NTID_Z:    u = 32'(ntid_i[47:32]);
        wg_isa_pkg::SR_CTAID_X:   u = 32'(cta_id_i[c*48 +: 16]);
        wg_isa_pkg::SR_CTAID_Y:   u = 32'(cta_id_i[c*48 + 16 +: 16]);
        wg_isa_pkg::SR_CTAID_Z:   u = 32'(cta_id_i[c*48 + 32 +: 16]);
        wg_isa_pkg::SR_NCTAID_X:  u = 32'(nctaid_i[15:0]);
        wg_isa_pkg::SR_NCTAID_Y:  u = 32'(nctaid_i[31:16]);
        wg_isa_pkg::SR_NCTAID_Z:  u = 32'(nctaid_i[47:32]);
        wg_isa_pkg::SR_WARPID:    u = 32'(warp_wic_i[w*5 +: 5]);
        wg_isa_pkg::SR_SMID:      u = 32'(sm_id_i);
        wg_isa_pkg::SR_CLOCK:     u = clock_i[31:0];
        wg_isa_pkg::SR_CLOCKHI:   u = clock_i[63:32];
        default: begin
          u   = '0;
          uni = 1'b0;
        end
      endcase
      // One selection, then the lane loop (not a selection per lane).
      if (uni) begin
        for (int l = 0; l < 32; l++) rd_row_o[l*32 +: 32] = u;
      end else begin
        case (n)
          wg_isa_pkg::SR_TID_X:
            for (int l = 0; l < 32; l++) rd_row_o[l*32 +: 32] = 32'(t[l*TID_W +: 10]);
          wg_isa_pkg::SR_TID_Y:
            for (int l = 0; l < 32; l++) rd_row_o[l*32 +: 32] = 32'(t[l*TID_W + 10 +: 10]);
          wg_isa_pkg::SR_TID_Z:
            for (int l = 0; l < 32; l++) rd_row_o[l*32 +: 32] = 32'(t[l*TID_W + 20 +: 6]);
          wg_isa_pkg::SR_LANEID:
            for (int l = 0; l < 32; l++) rd_row_o[l*32 +: 32] = 32'(l);
          default: ;
        endcase
      end
    end
  end

endmodule
