// wg_coalescer_scan: the coalescer of docs/memory-pipeline.md section 1.1 with LANES
// lanes compared per cycle instead of 32 (the narrow memory path of docs/fpga.md section
// 3.3; wg_coalescer is the warp-wide one). Same ports, same transactions in the same
// order (addresses, sizes, lanes, byte masks, last), more cycles:
//
//   - after an access is accepted, and after every transaction that is not the last, the
//     unserved lanes are scanned LANES at a time (32 / LANES cycles) against the leader's
//     line (the leader, the lowest unserved lane, is known at once): which lanes lie in the
//     line, which of its four 32 B segments they touch, and the bytes they touch;
//   - then the transaction is offered (tx_valid_o) and held until tx_ready_i. Its size
//     follows from the segments as in wg_coalescer; its lanes are the line's lanes in the
//     chosen access (segment and half tests are 2-bit compares, done for all lanes at
//     once); its byte mask is the line's byte mask cut to the chosen access: a lane's bytes
//     lie in its own 16 B chunk, so lanes of the line outside the access touch no byte in it.
//   - in_ready_o is high when idle or when the last transaction fires, as in wg_coalescer.
// Per transaction: 32 / LANES scan cycles and at least one offer cycle.
`default_nettype none

module wg_coalescer_scan #(
  parameter int unsigned LANES = 4        // 1, 2, 4, 8 or 16
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,

  input  wire logic          in_valid_i,
  output logic               in_ready_o,
  input  wire logic [1:0]    in_kind_i,    // 0 LINE, 1 SEG, 2 STORE, 3 THREAD
  input  wire logic [2:0]    in_size_i,    // log2 bytes per thread, 0..4
  input  wire logic [31:0]   in_mask_i,
  input  wire logic [1023:0] in_addr_i,    // lane i at [i*32 +: 32]

  output logic               tx_valid_o,
  input  wire logic          tx_ready_i,
  output logic [31:0]        tx_addr_o,
  output logic [2:0]         tx_size_o,
  output logic [31:0]        tx_lanes_o,
  output logic [127:0]       tx_bmask_o,
  output logic               tx_last_o
);

  localparam int unsigned STEPS  = 32 / LANES;
  localparam int unsigned STEP_W = (STEPS > 1) ? $clog2(STEPS) : 1;

  localparam logic [1:0] KIND_SEG    = 2'd1;
  localparam logic [1:0] KIND_STORE  = 2'd2;
  localparam logic [1:0] KIND_THREAD = 2'd3;

  typedef enum logic [1:0] {S_IDLE, S_SCAN, S_EMIT} state_e;

  state_e            state_q, state_d;
  logic [31:0]       pend_q, pend_d;
  logic [STEP_W-1:0] step_q, step_d;
  logic [1:0]        kind_q;
  logic [2:0]        size_q;
  logic [31:0]       addr_q [32];

  // The line's lanes, segments and bytes, gathered by the scan.
  logic [31:0]  line_q, line_d;
  logic [3:0]   segs_q, segs_d;
  logic [127:0] bm_q, bm_d;

  // Leader.
  logic [4:0]  lead;
  logic [31:0] lead_oh, laddr;
  always_comb begin
    lead = '0;
    for (int i = 31; i >= 0; i--) begin
      if (pend_q[i]) lead = 5'(i);
    end
  end
  assign lead_oh = pend_q & (~pend_q + 32'd1);
  assign laddr   = addr_q[lead];

  // A lane's bytes in the aligned 128 B block (as wg_coalescer: constant-shift stages).
  function automatic logic [15:0] shl16(input logic [15:0] x, input logic [3:0] n);
    shl16 = x;
    for (int stg = 0; stg < 4; stg++) begin
      if (n[stg]) shl16 = shl16 << (1 << stg);
    end
  endfunction

  logic [15:0] ones;
  always_comb begin
    unique case (size_q)
      3'd0:    ones = 16'h0001;
      3'd1:    ones = 16'h0003;
      3'd2:    ones = 16'h000F;
      3'd3:    ones = 16'h00FF;
      default: ones = 16'hFFFF;
    endcase
  end

  function automatic logic [127:0] lane_bytes(input logic [6:0] a, input logic [15:0] o);
    logic [15:0] m;
    m = shl16(o, a[3:0]);
    lane_bytes = '0;
    for (int c = 0; c < 8; c++) begin
      if (a[6:4] == 3'(c)) lane_bytes[c*16 +: 16] = m;
    end
  endfunction

  // One scan step: lanes step*LANES .. step*LANES + LANES-1 (formed only while scanning).
  logic [31:0]  hit;
  logic [3:0]   segs_step;
  logic [127:0] bm_step;
  always_comb begin
    logic [31:0] a;
    logic        p;
    hit       = '0;
    segs_step = '0;
    bm_step   = '0;
    a         = '0;
    p         = 1'b0;
    if (state_q == S_SCAN) begin
      for (int i = 0; i < 32'(LANES); i++) begin
        a = addr_q[32'(step_q)*LANES + i];
        p = pend_q[32'(step_q)*LANES + i];
        if (p && a[31:7] == laddr[31:7]) begin
          for (int s = 0; s < 32'(STEPS); s++) begin
            if (32'(step_q) == s) hit[s*LANES + i] = 1'b1;
          end
          for (int g = 0; g < 4; g++) begin
            if (a[6:5] == 2'(g)) segs_step[g] = 1'b1;
          end
          bm_step = bm_step | lane_bytes(a[6:0], ones);
        end
      end
    end
  end

  // The transaction, from the scan's results.
  logic [31:0]  same_half, same_seg, served, rest;
  logic [127:0] bmask, range_m;
  logic [2:0]   acc_size;
  logic         half_both, last;
  always_comb begin
    for (int i = 0; i < 32; i++) begin
      same_half[i] = (addr_q[i][6] == laddr[6]);
      same_seg[i]  = (addr_q[i][6:5] == laddr[6:5]);
    end
  end
  assign half_both = laddr[6] ? (segs_q[3] && segs_q[2]) : (segs_q[1] && segs_q[0]);

  always_comb begin
    acc_size = 3'd7;
    served   = line_q;
    unique case (kind_q)
      KIND_SEG: begin
        acc_size = 3'd5;
        served   = line_q & same_seg;
      end
      KIND_STORE: begin
        if (segs_q != 4'b1111) begin
          if (half_both) begin
            acc_size = 3'd6;
            served   = line_q & same_half;
          end else begin
            acc_size = 3'd5;
            served   = line_q & same_seg;
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

  // The bytes of the chosen access inside the block.
  always_comb begin
    unique case (acc_size)
      3'd6:    range_m = laddr[6] ? {{64{1'b1}}, 64'd0} : {64'd0, {64{1'b1}}};
      3'd5: begin
        range_m = '0;
        for (int g = 0; g < 4; g++) begin
          if (laddr[6:5] == 2'(g)) range_m[g*32 +: 32] = '1;
        end
      end
      default: range_m = '1;
    endcase
  end
  assign bmask = (kind_q == KIND_THREAD) ? lane_bytes(laddr[6:0], ones) : (bm_q & range_m);

  assign rest = pend_q & ~served;
  assign last = (rest == '0);

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
      default: tx_addr_o = laddr;
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
    step_d  = step_q;
    line_d  = line_q;
    segs_d  = segs_q;
    bm_d    = bm_q;
    unique case (state_q)
      S_IDLE: ;
      S_SCAN: begin
        line_d = line_q | hit;
        segs_d = segs_q | segs_step;
        bm_d   = bm_q | bm_step;
        step_d = step_q + 1'b1;
        if (32'(step_q) == STEPS - 1) state_d = S_EMIT;
      end
      S_EMIT: begin
        if (tx_fire) begin
          pend_d  = rest;
          state_d = last ? S_IDLE : S_SCAN;
          step_d  = '0;
          line_d  = '0;
          segs_d  = '0;
          bm_d    = '0;
        end
      end
      default: state_d = S_IDLE;
    endcase
    if (accept) begin
      pend_d  = in_mask_i;
      state_d = (in_mask_i != '0) ? S_SCAN : S_IDLE;
      step_d  = '0;
      line_d  = '0;
      segs_d  = '0;
      bm_d    = '0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= S_IDLE;
      pend_q  <= '0;
      step_q  <= '0;
      line_q  <= '0;
      segs_q  <= '0;
      bm_q    <= '0;
    end else begin
      state_q <= state_d;
      pend_q  <= pend_d;
      step_q  <= step_d;
      line_q  <= line_d;
      segs_q  <= segs_d;
      bm_q    <= bm_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (accept) begin
      kind_q <= in_kind_i;
      size_q <= in_size_i;
      for (int i = 0; i < 32; i++) addr_q[i] <= in_addr_i[i*32 +: 32];
    end
  end

  if (LANES != 1 && LANES != 2 && LANES != 4 && LANES != 8 && LANES != 16) begin : g_bad_lanes
    $error("wg_coalescer_scan: LANES must be 1, 2, 4, 8 or 16 (32: use wg_coalescer)");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (accept) assert (in_mask_i != '0) else $error("wg_coalescer_scan: access with an empty mask");
      if (accept) assert (in_size_i <= 3'd4) else $error("wg_coalescer_scan: size %0d > 4", in_size_i);
      if (tx_valid_o) assert (served != '0 && (served & ~pend_q) == '0 && served[lead])
        else $error("wg_coalescer_scan: served lanes %h not in pending %h", served, pend_q);
      assert ((state_q != S_IDLE) == (pend_q != '0))
        else $error("wg_coalescer_scan: state and pending lanes disagree");
    end
  end
`endif

endmodule
