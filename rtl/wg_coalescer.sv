// wg_coalescer: turns one warp access to global or local memory into the
// transactions of docs/memory-pipeline.md section 1.1 (interface: section 4.1).
//
//   - An access (kind, size, mask, 32 lane addresses) is accepted when
//     in_valid_i && in_ready_o and stored; the unserved lanes start as
//     in_mask_i. in_ready_o is high when idle or when the last transaction of
//     the current access fires (back-to-back accesses without a bubble; this
//     makes in_ready_o depend combinationally on tx_ready_i).
//   - From the cycle after acceptance one transaction is offered per cycle,
//     combinationally from the stored state: the leader is the lowest unserved
//     lane, the line is the leader's aligned 128 B block, and
//       LINE    the line (size 7), every unserved lane in it;
//       SEG     the leader's 32 B segment (size 5), the unserved lanes in it;
//       STORE   the line (size 7) if the unserved lanes in the line touch all
//               four segments, else the leader's 64 B half (size 6) if they
//               touch both of its segments, else the leader's segment
//               (size 5); the unserved lanes inside the chosen access;
//       THREAD  the leader's own access (its address, size in_size_i), the
//               leader only.
//     A transaction is held until tx_ready_i; when it fires its lanes are
//     served. tx_last_o marks the transaction that serves the last lanes.
//   - tx_bmask_o: the bytes of the aligned 128 B block touched by the served
//     lanes, each lane touching 1 << size bytes from its address (accesses are
//     naturally aligned, so a lane's bytes lie in one 16 B chunk).
//   - Per cycle: one priority encoder, one leader-address multiplexer, 32
//     line comparators, a byte mask as an AND-OR over lanes x 16 B chunks; no
//     lane-by-lane (32 x 32) comparison. For simulation speed the lane loops
//     are skipped while idle and a lane's byte mask is only formed when it is
//     served (Verilator: ~1000 host instructions per busy cycle, ~100 idle).
//   - An access with an empty mask (not allowed by the contract) is accepted
//     and produces no transaction.
`default_nettype none

module wg_coalescer (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,

  // One warp access.
  input  wire logic          in_valid_i,
  output logic               in_ready_o,
  input  wire logic [1:0]    in_kind_i,    // 0 LINE, 1 SEG, 2 STORE, 3 THREAD
  input  wire logic [2:0]    in_size_i,    // log2 bytes per thread, 0..4
  input  wire logic [31:0]   in_mask_i,
  input  wire logic [1023:0] in_addr_i,    // lane i at [i*32 +: 32]

  // Transactions.
  output logic               tx_valid_o,
  input  wire logic          tx_ready_i,
  output logic [31:0]        tx_addr_o,
  output logic [2:0]         tx_size_o,
  output logic [31:0]        tx_lanes_o,
  output logic [127:0]       tx_bmask_o,
  output logic               tx_last_o
);

  localparam int unsigned LANES = 32;

  localparam logic [1:0] KIND_LINE   = 2'd0;
  localparam logic [1:0] KIND_SEG    = 2'd1;
  localparam logic [1:0] KIND_STORE  = 2'd2;
  localparam logic [1:0] KIND_THREAD = 2'd3;

  typedef enum logic {S_IDLE, S_EMIT} state_e;

  state_e      state_q, state_d;
  logic [31:0] pend_q, pend_d;          // unserved lanes
  logic [1:0]  kind_q;
  logic [2:0]  size_q;
  logic [31:0] addr_q [LANES];

  // Leader and its line.
  logic [4:0]  lead;
  logic [31:0] lead_oh, laddr;

  always_comb begin
    lead = '0;
    for (int i = LANES - 1; i >= 0; i--) begin
      if (pend_q[i]) lead = 5'(i);
    end
  end

  assign lead_oh = pend_q & (~pend_q + 32'd1);
  assign laddr   = addr_q[lead];

  // Per lane against the leader: unserved and in the line, same 64 B half,
  // same 32 B segment; the segments touched by the unserved lanes in the line.
  // (When idle nothing is pending: skipping the loop changes nothing but
  // simulation time.)
  logic [31:0] in_line, same_half, same_seg;
  logic [3:0]  segs;

  always_comb begin
    in_line   = '0;
    same_half = '0;
    same_seg  = '0;
    segs      = '0;
    if (state_q == S_EMIT) begin
      for (int i = 0; i < LANES; i++) begin
        if (pend_q[i] && addr_q[i][31:7] == laddr[31:7]) begin
          in_line[i] = 1'b1;
          for (int g = 0; g < 4; g++) begin
            if (addr_q[i][6:5] == 2'(g)) segs[g] = 1'b1;
          end
        end
        same_half[i] = (addr_q[i][6] == laddr[6]);
        same_seg[i]  = (addr_q[i][6:5] == laddr[6:5]);
      end
    end
  end

  // The access: its size and the lanes it serves.
  logic        half_both;
  logic [2:0]  acc_size;
  logic [31:0] served, rest;
  logic        last;

  assign half_both = laddr[6] ? (segs[3] && segs[2]) : (segs[1] && segs[0]);

  always_comb begin
    acc_size = 3'd7;
    served   = in_line;
    unique case (kind_q)
      KIND_LINE: ;
      KIND_SEG: begin
        acc_size = 3'd5;
        served   = in_line & same_seg;
      end
      KIND_STORE: begin
        if (segs != 4'b1111) begin
          if (half_both) begin
            acc_size = 3'd6;
            served   = in_line & same_half;
          end else begin
            acc_size = 3'd5;
            served   = in_line & same_seg;
          end
        end
      end
      KIND_THREAD: begin
        acc_size = size_q;
        served   = lead_oh;
      end
      default: ;
    endcase
  end

  // Their bytes: a lane touches (1 << size) bytes from addr[3:0] inside its
  // 16 B chunk addr[6:4]; written as an AND-OR over lanes and chunks (no
  // dynamic part-select) for synthesis. The shift is four constant-shift stages:
  // 32 run-time shift cells cost yosys' resource sharing (share) about a minute.
  function automatic logic [15:0] shl16(input logic [15:0] x, input logic [3:0] n);
    shl16 = x;
    for (int stg = 0; stg < 4; stg++) begin
      if (n[stg]) shl16 = shl16 << (1 << stg);
    end
  endfunction

  logic [15:0]  ones, lmask;
  logic [127:0] bmask;

  always_comb begin
    unique case (size_q)
      3'd0:    ones = 16'h0001;
      3'd1:    ones = 16'h0003;
      3'd2:    ones = 16'h000F;
      3'd3:    ones = 16'h00FF;
      default: ones = 16'hFFFF;
    endcase
  end

  always_comb begin
    bmask = '0;
    lmask = '0;
    for (int i = 0; i < LANES; i++) begin
      if (served[i]) begin
        lmask = shl16(ones, addr_q[i][3:0]);
        for (int c = 0; c < 8; c++) begin
          if (addr_q[i][6:4] == 3'(c)) bmask[c*16 +: 16] = bmask[c*16 +: 16] | lmask;
        end
      end else begin
        lmask = '0;
      end
    end
  end

  assign rest = pend_q & ~served;
  assign last = (rest == '0);

  // Outputs.
  assign tx_valid_o = (state_q == S_EMIT);
  assign tx_lanes_o = served;
  assign tx_bmask_o = bmask;
  assign tx_last_o  = last;
  assign tx_size_o  = acc_size;

  always_comb begin
    unique case (acc_size)
      3'd7:    tx_addr_o = {laddr[31:7], 7'd0};
      3'd6:    tx_addr_o = {laddr[31:6], 6'd0};
      3'd5:    tx_addr_o = {laddr[31:5], 5'd0};
      default: tx_addr_o = laddr;               // THREAD: the leader's access
    endcase
  end

  // FSM.
  logic accept, tx_fire;

  assign tx_fire    = tx_valid_o && tx_ready_i;
  assign in_ready_o = (state_q == S_IDLE) || (tx_fire && last);
  assign accept     = in_valid_i && in_ready_o;

  always_comb begin
    state_d = state_q;
    pend_d  = pend_q;
    unique case (state_q)
      S_IDLE: ;
      S_EMIT: begin
        if (tx_fire) begin
          pend_d = rest;
          if (last) state_d = S_IDLE;
        end
      end
      default: state_d = S_IDLE;
    endcase
    if (accept) begin
      pend_d  = in_mask_i;
      state_d = (in_mask_i != '0) ? S_EMIT : S_IDLE;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= S_IDLE;
      pend_q  <= '0;
    end else begin
      state_q <= state_d;
      pend_q  <= pend_d;
    end
  end

  // The access itself has no reset.
  always_ff @(posedge clk_i) begin
    if (accept) begin
      kind_q <= in_kind_i;
      size_q <= in_size_i;
      for (int i = 0; i < LANES; i++) addr_q[i] <= in_addr_i[i*32 +: 32];
    end
  end

`ifndef SYNTHESIS
  logic [31:0] misaligned;
  always_comb begin
    misaligned = '0;
    for (int i = 0; i < LANES; i++) begin
      misaligned[i] = in_mask_i[i] && ((in_addr_i[i*32 +: 5] & ~(5'h1F << in_size_i)) != '0);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (accept) assert (in_mask_i != '0) else $error("wg_coalescer: access with an empty mask");
      if (accept) assert (in_size_i <= 3'd4) else $error("wg_coalescer: size %0d > 4", in_size_i);
      if (accept) assert (misaligned == '0)
        else $error("wg_coalescer: misaligned lanes %h (size %0d)", misaligned, in_size_i);
      if (tx_valid_o) assert (served != '0 && (served & ~pend_q) == '0 && served[lead])
        else $error("wg_coalescer: served lanes %h not in pending %h", served, pend_q);
      assert ((state_q == S_EMIT) == (pend_q != '0))
        else $error("wg_coalescer: state and pending lanes disagree");
    end
  end
`endif

endmodule
