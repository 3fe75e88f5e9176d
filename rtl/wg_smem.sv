// wg_smem: shared-memory access engine (docs/memory-pipeline.md sections 1.2, 4.3).
//
// Takes one warp access at a time (valid/ready) and performs it on the banks of wg_dmem
// through its bank port. Byte address a is in word a/4, bank (a/4) mod 32, row a/128.
//   Words      every active thread needs 1 word (1, 2, 4 bytes), 2 (8 bytes) or 4 (16
//              bytes: consecutive words, in distinct banks). Accesses are naturally
//              aligned (an assertion checks it), so a thread's words never cross a row
//              and its first bank is even (8 bytes) or a multiple of 4 (16 bytes).
//   Passes     (loads, stores) in every bank, the lowest-lane unserved thread needing a
//              word of the bank claims that word; the pass serves the claimed word in
//              every bank and every unserved thread needing it. So an access takes as
//              many passes as the largest number of distinct words needed in one bank.
//              (A thread's words are claimed together: in each group of 2 or 4 banks
//              that 8/16-byte accesses use, the lowest unserved lane is the same in every
//              bank of the group, so the planner works per thread on its first bank.)
//   Loads      each pass reads the claimed words (broadcast to every thread of a word);
//              the data is taken the cycle after the read.
//   Stores     each pass writes the claimed words, the bytes of every served thread
//              merged by byte enables; for one byte the highest lane wins.
//   Atomics    one thread per pass in ascending lane order: read the word, then write
//              op(old, b, c) (docs/sm.md 2.3 coding; 12 ADD.F32 = old * 1.0 + b through
//              wg_fp32_fma, the write waits for its result). The next thread reads after
//              the write, so same-address atomics serialise. HAS_FP = 0: ADD.F32 leaves
//              the word unchanged (an assertion flags it).
// A pass whose bank read (loads, atomic reads) or bank write (stores, atomic writes) is
// not granted by wg_dmem (b_rgnt_i / b_wgnt_i low: the row port has the banks) is
// repeated the next cycle and not counted again.
//
// Timing (32 lanes; LANES < 32 below): accepted (in_valid_i and in_ready_o, only when
// idle) in cycle t, the first pass is in t+1, then one pass per cycle while granted.
// out_valid_o is a one-cycle pulse in the cycle after the last write (stores, atomics) or
// two cycles after the last read (loads: one cycle to take the data); in_ready_o is high
// again in that cycle. So with no denial an access of P passes takes P (stores) or P + 1
// (loads) cycles from the accept edge to out_valid_o; atomics 2 cycles per thread, ADD.F32
// 3 + FP32_LATENCY.
// Results are read a lane group at a time: out_gdata_o holds the LANES threads of group
// out_grp_i (thread g*LANES + k in bits [128k +: 128]; with 32 lanes all threads, and
// out_grp_i is not used), read combinationally. They are valid from the out_valid_o cycle
// and hold until the next access is accepted:
//   loads     the bytes starting at the thread's address, right-aligned (the byte at the
//             address in bits [7:0]); bytes beyond the access size are unspecified, and
//             no sign or zero extension is done here.
//   atomics   the old 32-bit value in bits [31:0] (the rest unspecified).
//   stores    unspecified.
// out_passes_o: passes the access took (atomics: threads); holds until the next accept.
// An access with no active thread is done at once (out_valid_o the cycle after the
// accept, 0 passes).
// Clear (CTA launch): clr_valid_i writes zeros into every bank of row clr_row_i with the
// bank port; it has priority over the access (whose pass of that cycle waits). The clear
// happens in a cycle where clr_ready_o (= b_wgnt_i) is high: hold clr_valid_i until then.
//
// Structure (for both Verilator speed and yosys): no wide vector is indexed dynamically
// except the bank read data (1024 bits). The access is kept as bit-planes, 32-bit vectors
// over the lanes: the first bank and the row of each thread, the bytes it covers in its
// word, its store data (stores: 128 planes, the transpose of the lanes' data, in the
// result register) and atomic operands (64 planes), all built by 32 x 32 transposes at
// the accept. The planner is a block per bank of 32-bit operations: the threads whose
// first bank it is, the lowest of them, its row, the threads with that row. The store
// merge takes, per bank byte, the highest served lane covering it and its data bits as
// AND-OR over the planes. Each block is skipped unless its state is active.
//
// LANES < 32 (1, 2, 4, 8, 16; the narrow memory path of docs/fpga.md section 3.3): the same
// passes, pass counts, bank writes and results, with LANES threads' worth of logic. With
// G = 32 / LANES lane groups (group g: lanes g*LANES .. g*LANES + LANES-1):
//   Accept     only the op and size are registered: in_addr_i must hold from the accept
//              until out_valid_o (wg_lsu keeps its address row meanwhile), and is read
//              there a group or a thread at a time (a copy costs 5k flip-flops and their
//              multiplexers); the store data of the group being scanned is asked for with
//              in_wgrp_o, and an atomic thread's operands with at_lane_o (at_b_i, at_c_i
//              in the same cycle; in_ab_i and in_ac_i are not read): wg_lsu reads both
//              from its operand RAM (the RAM read that forms global store data, so no
//              second one is needed here).
//   Scan       a pass is planned in G cycles (S_SCAN), group 0 first: in each bank not yet
//              claimed in the pass, the group's lowest pending thread needing the bank
//              claims it with its row (so the lowest of all threads does); the group's
//              pending threads needing a claimed bank's word are served; stores write
//              their bytes into the pass's bank words, a higher lane over a lower one.
//   Access     then the pass's reads or writes (S_PASS), repeated while not granted.
//   Loads      the read data is captured the cycle after the read and handed to the served
//              threads over the next G cycles, LANES per cycle (overlapping the next
//              pass's scan).
//   Atomics    as with 32 lanes (2 cycles per thread); the old value goes to its thread
//              the cycle after the read.
// Timing at LANES < 32 with no denial: accepted in t, pass p (0, 1, ...) scans in
// t+1+p(G+1) .. t+p(G+1)+G and accesses in t+(p+1)(G+1); so from the accept edge to
// out_valid_o P passes take P(G+1) cycles (stores) and (P+1)(G+1) (loads: the capture
// cycle and G cycles handing out follow the last read); LANES 4: 9 cycles a pass. A clear
// or a denied access delays only the access cycle (the scan goes on under a clear).
// Structure: the group's lanes are selected by G-way AND-OR muxes of the held inputs; the
// per-bank claim, serve and byte merge are LANES-wide; a load's result words come out of
// the captured 1024 bits for LANES threads per cycle into LANES RAMs of G x 128 bits (LUT
// RAM), one per thread position in a group, which out_grp_i reads.
`default_nettype none

module wg_smem #(
  parameter int unsigned DMEM_BYTES = 65536,
  parameter bit          HAS_FP     = 1'b1,    // FP32 adder for ADD.F32
  parameter int unsigned LANES      = 32,      // threads per cycle: 32, or 1, 2, 4, 8, 16
  // Derived: do not override.
  parameter int unsigned ROWS = DMEM_BYTES / 128,
  parameter int unsigned RW   = (ROWS > 1) ? $clog2(ROWS) : 1,
  parameter int unsigned OG_W = (LANES < 32) ? $clog2(32 / LANES) : 1
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,

  // One warp access.
  input  wire logic               in_valid_i,
  output logic                    in_ready_o,
  input  wire logic [1:0]         in_op_i,      // 0 load, 1 store, 2 atomic
  input  wire logic [2:0]         in_size_i,    // log2 bytes per thread (atomics: 2)
  input  wire logic [31:0]        in_mask_i,
  input  wire logic [1023:0]      in_addr_i,    // byte address of each thread
  output logic      [OG_W-1:0]    in_wgrp_o,    // store data: the lane group read (LANES < 32)
  input  wire logic [LANES*128-1:0] in_wdata_i, // its threads' data, thread k in [128k +: 8 << size]
  input  wire logic [3:0]         in_aop_i,     // atomic op
  input  wire logic [1023:0]      in_ab_i,      // atomic operand b (LANES = 32)
  input  wire logic [1023:0]      in_ac_i,      // CAS value (LANES = 32)
  output logic      [4:0]         at_lane_o,    // LANES < 32: the thread whose atomic operands
  input  wire logic [31:0]        at_b_i,       //   are read now, and its b
  input  wire logic [31:0]        at_c_i,       //   and c (same cycle)

  output logic                    out_valid_o,  // one-cycle pulse: the access is done
  input  wire logic [OG_W-1:0]    out_grp_i,    // results: lane group read (LANES < 32)
  output logic [LANES*128-1:0]    out_gdata_o,  //   its threads' results, thread k in [128k +: 128]
  output logic      [5:0]         out_passes_o,

  // Row clear (CTA launch).
  input  wire logic               clr_valid_i,
  output logic                    clr_ready_o,
  input  wire logic [RW-1:0]      clr_row_i,

  // Bank port of wg_dmem.
  output logic      [31:0]        b_re_o,
  output logic      [32*RW-1:0]   b_rrow_o,
  output logic      [31:0]        b_we_o,
  output logic      [32*RW-1:0]   b_wrow_o,
  output logic      [1023:0]      b_wdata_o,
  output logic      [127:0]       b_wbe_o,
  input  wire logic               b_rgnt_i,
  input  wire logic               b_wgnt_i,
  input  wire logic [1023:0]      b_rdata_i
);

  localparam logic [1:0] OP_LD = 2'd0, OP_ST = 2'd1, OP_ATOM = 2'd2;
  localparam logic [3:0] AOP_FADD = 4'd12;
  localparam bit         NARROW = (LANES < 32);

  typedef enum logic [2:0] {S_IDLE, S_PASS, S_LDFIN, S_ARD, S_AFP, S_AWR, S_SCAN} state_e;

  state_e          state_q, state_d;
  logic            ld_q;            // load (else store, in S_PASS)
  logic            sz3_q, sz4_q;    // 8 / 16 bytes per thread
  logic [3:0]      aop_q;
  logic [31:0]     pend_q;          // threads not served yet
  logic            cap_q;           // take read data this cycle
  logic [31:0]     cap_srv_q;       //   for these threads
  logic [5:0]      passes_q;
  logic            out_valid_q;
  logic            a_first_q;       // atomic: the read data is on b_rdata_i
  logic [31:0]     old_q, f_res_q;

  // The pass (S_PASS) and the atomic thread, from the 32-lane or the narrow datapath.
  logic             plan_en;
  logic [31:0]      p_srv;          // threads served by the pass
  logic [31:0]      p_ben;          // banks accessed (groups expanded)
  logic [32*RW-1:0] p_brow;         // and their rows
  logic [1023:0]    p_wd;           // store: merged words
  logic [127:0]     p_wbe;          //        and byte enables
  logic             a_en;
  logic [31:0]      a_one;          // atomics: the lowest pending thread, one-hot
  logic [4:0]       a_bank;         //   its bank, row and operands
  logic [RW-1:0]    a_row;
  logic [31:0]      a_b, a_c, a_rdw, a_old, a_new;
  logic             scan_last;      // narrow: last scan cycle of a pass
  logic             ld_done;        // narrow: last cycle handing out a load's data
  logic             f_launch, f_valid;
  logic [31:0]      f_result;
  logic             accept, cap_d, a_first_d;
  logic [31:0]      cap_srv_d;

  assign plan_en = (state_q == S_PASS);
  assign a_en    = (state_q == S_ARD) || (state_q == S_AFP) || (state_q == S_AWR);
  assign a_one   = a_en ? (pend_q & (~pend_q + 32'd1)) : '0;

  if (!NARROW) begin : g_wide
    // -------------------------------------------------------------------------
    // 32 threads per cycle: the access as bit-planes, one pass per cycle.
    // -------------------------------------------------------------------------
    localparam int unsigned LI_W = (9 + RW) * 32;   // planes of the lane info

    logic [4095:0]    dat_q;          // stores: data (planes); loads, atomics: results
    logic [5*32-1:0]  bpl_q;          // planes: first bank of each thread
    logic [RW*32-1:0] rpl_q;          //         row of each thread
    logic [4*32-1:0]  cpl_q;          //         bytes of its word a thread covers
    logic [64*32-1:0] apl_q;          //         atomic operands b (0..31), c (32..63)
    logic [5*32-1:0]  b0_q;           // first bank of each thread, lane l in [5l +: 5]
    logic [63:0]      off_q;          // byte offset in the word, lane l in [2l +: 2]
    logic             unused_grp;

    // One group of all threads: the results whole, the store data taken at the accept.
    assign out_gdata_o = dat_q;
    assign in_wgrp_o   = '0;
    assign at_lane_o   = '0;
    assign unused_grp  = ^{out_grp_i, at_b_i, at_c_i};

    // Transpose of a 32 x 32 bit matrix (word r of m in [32r +: 32]): result word c, bit r
    // = m word r, bit c. Five stages of block swaps with constant masks and shifts: wiring
    // in hardware, about 80 word operations in Verilator (not 1024 bit moves). Every index
    // is a constant expression of the loop variables (yosys then unrolls it cheaply).
    localparam logic [159:0] TMASK = {32'h5555_5555, 32'h3333_3333, 32'h0F0F_0F0F, 32'h00FF_00FF,
                                      32'h0000_FFFF};
    function automatic logic [1023:0] transpose32(input logic [1023:0] m);
      logic [1023:0] t;
      logic [31:0]   x, y;
      t = m;
      x = '0;
      y = '0;
      for (int st = 0; st < 5; st++) begin
        for (int r = 0; r < 32; r++) begin
          if ((r & (16 >> st)) == 0) begin
            x = t[r*32 +: 32];
            y = t[(r + (16 >> st))*32 +: 32];
            t[r*32 +: 32]               = (x & TMASK[st*32 +: 32]) | ((y & TMASK[st*32 +: 32]) << (16 >> st));
            t[(r + (16 >> st))*32 +: 32] = ((x >> (16 >> st)) & TMASK[st*32 +: 32]) | (y & ~TMASK[st*32 +: 32]);
          end
        end
      end
      transpose32 = t;
    endfunction

    // Pass planner (S_PASS): one block per bank (constant indices for Verilator).
    logic [31:0]      p_claim;        // banks claimed by a thread (group leaders)
    logic [32*RW-1:0] p_row;          // their rows
    logic [1023:0]    p_m;            // per bank: the threads served there

    for (genvar b = 0; b < 32; b++) begin : g_plan
      // Threads whose first bank is b, the lowest of them, its row, those with its row.
      logic [31:0]   cand, first, diff, m;
      logic [RW-1:0] row;
      always_comb begin
        cand  = '0;
        first = '0;
        diff  = '0;
        row   = '0;
        m     = '0;
        if (plan_en) begin
          cand = pend_q;
          for (int i = 0; i < 5; i++) begin
            cand = cand & ((((b >> i) & 1) == 1) ? bpl_q[i*32 +: 32] : ~bpl_q[i*32 +: 32]);
          end
          first = cand & (~cand + 32'd1);
          for (int i = 0; i < RW; i++) begin
            row[i] = (first & rpl_q[i*32 +: 32]) != '0;
            diff   = diff | (rpl_q[i*32 +: 32] ^ {32{row[i]}});
          end
          m = cand & ~diff;
        end
      end
      assign p_claim[b]        = cand != '0;
      assign p_row[b*RW +: RW] = row;
      assign p_m[b*32 +: 32]   = m;
    end

    always_comb begin
      p_srv = '0;
      if (plan_en) begin
        for (int b = 0; b < 32; b++) p_srv = p_srv | p_m[b*32 +: 32];
      end
    end

    // A bank takes the claim, row and served threads of its group's first bank: 8-byte
    // accesses use pairs of banks, 16-byte accesses groups of 4. Stores merge per byte:
    // the highest served lane covering the byte, its data bits as AND-OR over the data
    // planes (plane q holds bit q of every lane's 16 bytes; bank b takes word b mod 4).
    for (genvar b = 0; b < 32; b++) begin : g_bank
      localparam int unsigned B2 = b & ~1;
      localparam int unsigned B4 = b & ~3;
      logic [31:0] ms, wd;
      logic [3:0]  wbe;
      assign p_ben[b]           = sz4_q ? p_claim[B4] : sz3_q ? p_claim[B2] : p_claim[b];
      assign p_brow[b*RW +: RW] = sz4_q ? p_row[B4*RW +: RW] : sz3_q ? p_row[B2*RW +: RW] : p_row[b*RW +: RW];
      assign ms                 = sz4_q ? p_m[B4*32 +: 32] : sz3_q ? p_m[B2*32 +: 32] : p_m[b*32 +: 32];
      always_comb begin : merge
        logic [31:0] w, s, hi;
        wd  = '0;
        wbe = '0;
        w   = '0;
        s   = '0;
        hi  = '0;
        if (plan_en && !ld_q) begin
          for (int j = 0; j < 4; j++) begin
            w  = ms & cpl_q[j*32 +: 32];
            s  = w >> 1;
            s  = s | (s >> 1);
            s  = s | (s >> 2);
            s  = s | (s >> 4);
            s  = s | (s >> 8);
            s  = s | (s >> 16);
            hi = w & ~s;
            wbe[j] = w != '0;
            for (int t = 0; t < 8; t++) begin
              wd[j*8 + t] = (hi & dat_q[((b % 4)*32 + j*8 + t)*32 +: 32]) != '0;
            end
          end
        end
      end
      assign p_wd[b*32 +: 32] = wd;
      assign p_wbe[b*4 +: 4]  = wbe;
    end

    // Atomics: bank, row and operands of the lowest pending thread.
    always_comb begin
      a_bank = '0;
      a_row  = '0;
      a_b    = '0;
      a_c    = '0;
      if (a_en) begin
        for (int i = 0; i < 5; i++)  a_bank[i] = (a_one & bpl_q[i*32 +: 32]) != '0;
        for (int i = 0; i < RW; i++) a_row[i]  = (a_one & rpl_q[i*32 +: 32]) != '0;
        for (int i = 0; i < 32; i++) begin
          a_b[i] = (a_one & apl_q[i*32 +: 32]) != '0;
          a_c[i] = (a_one & apl_q[(32 + i)*32 +: 32]) != '0;
        end
      end
    end

    assign scan_last = 1'b0;
    assign ld_done   = 1'b1;

    // Access registers (no reset): the planes, built when the access is accepted.
    always_ff @(posedge clk_i) begin
      if (accept) begin : acc
        // Per lane {bytes covered in the word, row, first bank}, then as planes.
        logic [1023:0]   li;
        logic [LI_W-1:0] pl;
        logic [5*32-1:0] nb0;
        logic [63:0]     noff;
        logic [RW+6:0]   a;
        logic [3:0]      cov;
        logic            sub;
        sub  = (in_op_i != OP_ATOM) && (in_size_i <= 3'd2);
        li   = '0;
        nb0  = '0;
        noff = '0;
        a    = '0;
        cov  = '0;
        for (int l = 0; l < 32; l++) begin
          a   = in_addr_i[l*32 +: RW+7];
          cov = sub ? 4'((5'd1 << (5'd1 << in_size_i[1:0])) - 5'd1) << a[1:0] : 4'hF;
          li[l*32 +: 32] = 32'({cov, a[7 +: RW], a[6:2]});
          nb0[l*5 +: 5]  = a[6:2];
          noff[l*2 +: 2] = a[1:0];
        end
        pl    = LI_W'(transpose32(li));
        bpl_q <= pl[0 +: 5*32];
        rpl_q <= pl[5*32 +: RW*32];
        cpl_q <= pl[(5 + RW)*32 +: 4*32];
        b0_q  <= nb0;
        off_q <= noff;
      end
    end

    // Atomic operands as planes.
    always_ff @(posedge clk_i) begin
      if (accept && in_op_i == OP_ATOM) begin : acc_atom
        logic [64*32-1:0] napl;
        napl = {transpose32(in_ac_i), transpose32(in_ab_i)};
        apl_q <= napl;
      end
    end

    // Data: store data planes when a store is accepted; read data of the previous cycle's
    // pass into the served threads' results.
    always_ff @(posedge clk_i) begin
      if (accept && in_op_i == OP_ST) begin : acc_st
        // Lane l's 16 bytes as bank b of its group sees them (word b mod 4): the access
        // repeated over the 16 bytes (16 bytes once, 8 twice, ... 1 byte 16 times), so the
        // byte enables pick the right copy at any offset and no shift is needed.
        logic [4095:0] lw, nd;
        logic [127:0]  d, x;
        lw = '0;
        d  = '0;
        x  = '0;
        for (int l = 0; l < 32; l++) begin
          x = in_wdata_i[l*128 +: 128];
          case (in_size_i)
            3'd0:    d = {16{x[7:0]}};
            3'd1:    d = {8{x[15:0]}};
            3'd2:    d = {4{x[31:0]}};
            3'd3:    d = {2{x[63:0]}};
            default: d = x;
          endcase
          // Word k of every lane in block k (lane-major), transposed below.
          for (int k = 0; k < 4; k++) lw[k*1024 + l*32 +: 32] = d[k*32 +: 32];
        end
        for (int k = 0; k < 4; k++) nd[k*1024 +: 1024] = transpose32(lw[k*1024 +: 1024]);
        dat_q <= nd;
      end else if (cap_q) begin : cap
        // Lane l's first word from bank b0, the second from b0 + 1 (an odd bank), the
        // third and fourth from b0 + 2, b0 + 3 (a multiple of 4 plus 2).
        logic [4095:0] nd;
        logic [511:0]  odd, hiq;
        logic [31:0]   w0, w1;
        logic [63:0]   w23;
        logic [4:0]    b0;
        nd  = dat_q;
        odd = '0;
        hiq = '0;
        w0  = '0;
        w1  = '0;
        w23 = '0;
        b0  = '0;
        for (int k = 0; k < 16; k++) odd[k*32 +: 32] = b_rdata_i[(2*k + 1)*32 +: 32];
        for (int k = 0; k < 8; k++)  hiq[k*64 +: 64] = b_rdata_i[(4*k + 2)*32 +: 64];
        for (int l = 0; l < 32; l++) begin
          b0  = b0_q[l*5 +: 5];
          w0  = b_rdata_i[b0*32 +: 32] >> {off_q[l*2 +: 2], 3'b000};
          w1  = odd[b0[4:1]*32 +: 32];
          w23 = hiq[b0[4:2]*64 +: 64];
          nd[l*128 +: 128] = cap_srv_q[l] ? {w23, w1, w0} : dat_q[l*128 +: 128];
        end
        dat_q <= nd;
      end
    end
  end else begin : g_narrow
    // -------------------------------------------------------------------------
    // LANES threads per cycle: each pass is a scan over the G lane groups (S_SCAN), then
    // the bank access (S_PASS); a load's data is handed out G cycles after its capture.
    // -------------------------------------------------------------------------
    localparam int unsigned G  = 32 / LANES;             // lane groups
    localparam int unsigned GW = $clog2(G);
    localparam int unsigned AW = RW + 7;                 // address bits kept per lane
    localparam int unsigned LW = (LANES > 1) ? $clog2(LANES) : 1;   // a lane's index

    logic [2:0]           size_q;
    logic [GW-1:0]        grp_q;      // scan: the lane group (0 outside a scan)
    logic [31:0]          cl_q;       // banks claimed in this pass so far
    logic [32*RW-1:0]     crow_q;     //   and their rows
    logic [31:0]          srv_q;      // threads served by this pass
    logic [1023:0]        wd_q;       // store: merged words
    logic [127:0]         wbe_q;      //        and byte enables
    logic [1023:0]        rd_q;       // load: the read data of the last pass
    logic                 dact_q;     // handing it out (to the threads of cap_srv_q)
    logic [GW-1:0]        dgrp_q;     //   to this lane group

    logic                 scan_en;
    logic [LANES*AW-1:0]  s_la;       // the group's address bits
    logic [LANES-1:0]     s_p;        //             pending threads
    logic [LANES*128-1:0] s_d;        //             store data repeated over 16 bytes
    logic [LANES*4-1:0]   s_cov;      //             bytes covered in the word
    logic [4:0]           s_bm;       // first-bank bits that select a thread's banks
    logic [32*LANES-1:0]  s_sv;       // per bank: the group's threads served there
    logic [LANES-1:0]     s_srv;      // the group's threads served by the pass
    logic [31:0]          s_cl;       // banks claimed after this group
    logic [32*RW-1:0]     s_row;      //   and their rows
    logic [1023:0]        s_wd;       // per bank byte: the byte of the group's highest lane
    logic [127:0]         s_wbe;      //   that is served there and covers it

    // The address bits of the threads of group g (in_addr_i holds for the access).
    function automatic logic [LANES*AW-1:0] grp_addr(input logic [1023:0] a, input logic [GW-1:0] g);
      grp_addr = '0;
      for (int j = 0; j < 32'(G); j++) begin
        if (32'(g) == j) begin
          for (int k = 0; k < 32'(LANES); k++) grp_addr[k*AW +: AW] = a[(j*LANES + k)*32 +: AW];
        end
      end
    endfunction

    assign scan_en   = (state_q == S_SCAN);
    assign in_wgrp_o = grp_q;
    assign scan_last = scan_en && (32'(grp_q) == G - 1);
    assign ld_done   = dact_q && (32'(dgrp_q) == G - 1);
    assign s_bm      = sz4_q ? 5'h1C : sz3_q ? 5'h1E : 5'h1F;

    // The scanned group's lanes (only while scanning; store data only for stores).
    always_comb begin
      logic [LANES*128-1:0] raw;
      logic [127:0]         x, d;
      logic [1:0]           off;
      s_la  = '0;
      s_p   = '0;
      s_d   = '0;
      s_cov = '0;
      raw   = '0;
      x     = '0;
      d     = '0;
      off   = '0;
      if (scan_en) begin
        for (int g = 0; g < 32'(G); g++) begin
          if (32'(grp_q) == g) s_p = pend_q[g*LANES +: LANES];
        end
        s_la = grp_addr(in_addr_i, grp_q);
        if (!ld_q) raw = in_wdata_i;
        for (int k = 0; k < 32'(LANES); k++) begin
          off = s_la[k*AW +: 2];
          s_cov[k*4 +: 4] = (size_q <= 3'd2) ? 4'((5'd1 << (5'd1 << size_q[1:0])) - 5'd1) << off
                                             : 4'hF;
          // As in the 32-lane planes: the access repeated over the 16 bytes.
          x = raw[k*128 +: 128];
          case (size_q)
            3'd0:    d = {16{x[7:0]}};
            3'd1:    d = {8{x[15:0]}};
            3'd2:    d = {4{x[31:0]}};
            3'd3:    d = {2{x[63:0]}};
            default: d = x;
          endcase
          s_d[k*128 +: 128] = d;
        end
      end
    end

    // Per bank: a bank not claimed by an earlier group is claimed by this group's lowest
    // pending thread needing it (8/16-byte threads need every bank of their group of 2/4:
    // the first-bank bits above the group are compared); the threads needing it with the
    // claim's row are served; stores take, per byte, the highest served lane covering it.
    for (genvar b = 0; b < 32; b++) begin : g_scan
      logic [LANES-1:0] hit, sv;
      logic [RW-1:0]    row;
      logic             old;
      logic [31:0]      wd;
      logic [3:0]       wbe;
      always_comb begin
        logic [4:0]    bk;
        logic [RW-1:0] rk;
        hit = '0;
        sv  = '0;
        row = '0;
        old = 1'b0;
        bk  = '0;
        rk  = '0;
        if (scan_en) begin
          old = (grp_q != '0) && cl_q[b];
          row = crow_q[b*RW +: RW];
          for (int k = 32'(LANES) - 1; k >= 0; k--) begin
            bk     = s_la[k*AW + 2 +: 5];
            rk     = s_la[k*AW + 7 +: RW];
            hit[k] = s_p[k] && ((bk ^ 5'(b)) & s_bm) == '0;
            if (hit[k] && !old) row = rk;
          end
          for (int k = 0; k < 32'(LANES); k++) begin
            rk    = s_la[k*AW + 7 +: RW];
            sv[k] = hit[k] && (rk == row);
          end
        end
      end
      // Per byte: the highest served lane covering it, as an encoded index, then one
      // LANES:1 multiplexer per bit (a priority chain of enables and data per bit measured
      // about 0.5k LUTs more in the 4-lane set, docs/fpga.md section 3.7). The data is not
      // gated (a gate would be a seventh input per bit): only the bytes in wbe are taken.
      always_comb begin : merge
        logic [LW-1:0] sel;
        wd  = '0;
        wbe = '0;
        for (int j = 0; j < 4; j++) begin
          sel = '0;
          if (scan_en && !ld_q) begin
            for (int k = 0; k < 32'(LANES); k++) begin
              if (sv[k] && s_cov[k*4 + j]) begin
                wbe[j] = 1'b1;
                sel    = LW'(k);
              end
            end
          end
          wd[j*8 +: 8] = s_d[32'(sel)*128 + (b % 4)*32 + j*8 +: 8];
        end
      end
      assign s_cl[b]               = old || (hit != '0);
      assign s_row[b*RW +: RW]     = row;
      assign s_sv[b*LANES +: LANES] = sv;
      assign s_wd[b*32 +: 32]      = wd;
      assign s_wbe[b*4 +: 4]       = wbe;
    end

    always_comb begin
      s_srv = '0;
      for (int b = 0; b < 32; b++) s_srv = s_srv | s_sv[b*LANES +: LANES];
    end

    assign p_srv  = srv_q;
    assign p_ben  = cl_q;
    assign p_brow = crow_q;
    assign p_wd   = wd_q;
    assign p_wbe  = wbe_q;

    // Atomics: bank, row and operands of the lowest pending thread.
    always_comb begin
      a_bank = '0;
      a_row  = '0;
      a_b    = '0;
      a_c    = '0;
      if (a_en) begin
        for (int l = 0; l < 32; l++) begin
          if (a_one[l]) begin
            a_bank = in_addr_i[l*32 + 2 +: 5];
            a_row  = in_addr_i[l*32 + 7 +: RW];
          end
        end
        a_b = at_b_i;
        a_c = at_c_i;
      end
    end

    // A load's results: lane l's first word from bank b0, the second from b0 + 1 (an odd
    // bank), the third and fourth from b0 + 2, b0 + 3 (a multiple of 4 plus 2): the words of
    // the thread's address in the read row (wg_pkg::words_at).
    logic [LANES*128-1:0] d_res;
    always_comb begin
      logic [LANES*AW-1:0] dla;
      d_res = '0;
      dla   = '0;
      if (dact_q) begin
        dla = grp_addr(in_addr_i, dgrp_q);
        for (int k = 0; k < 32'(LANES); k++) d_res[k*128 +: 128] = wg_pkg::words_at(rd_q, dla[k*AW +: 7]);
      end
    end

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        grp_q  <= '0;
        dact_q <= 1'b0;
        dgrp_q <= '0;
      end else begin
        // Both counters wrap to 0 after their last group (G is a power of 2).
        if (scan_en) grp_q <= grp_q + 1'b1;
        if (cap_q) begin
          dact_q <= 1'b1;
          dgrp_q <= '0;
        end else if (dact_q) begin
          dgrp_q <= dgrp_q + 1'b1;
          if (ld_done) dact_q <= 1'b0;
        end
      end
    end

    // Access registers (no reset): the lanes' addresses and operands as given; the pass
    // being planned; the read data.
    always_ff @(posedge clk_i) begin
      if (accept) size_q <= in_size_i;
      if (scan_en) begin
        cl_q   <= s_cl;
        crow_q <= s_row;
        for (int g = 0; g < 32'(G); g++) begin
          if (32'(grp_q) == g) srv_q[g*LANES +: LANES] <= s_srv;
        end
        wbe_q <= ((grp_q == '0) ? '0 : wbe_q) | s_wbe;
        for (int i = 0; i < 128; i++) begin
          if (s_wbe[i]) wd_q[i*8 +: 8] <= s_wd[i*8 +: 8];
        end
      end
      if (cap_q) rd_q <= b_rdata_i;
    end

    // Results: per thread position k of a group a RAM of G words of 128 bits (word g: thread
    // g*LANES + k; LUT RAM on Xilinx), written a group at a time as a load's data is handed
    // out, or a thread's old value (atomics, low word) after its read; read asynchronously
    // at out_grp_i.
    logic [31:0] a_grp;       // atomics: the thread of a_one as {group, k}
    always_comb begin
      a_grp = '0;
      for (int l = 0; l < 32; l++) if (a_one[l]) a_grp = 32'(l);
    end
    // The atomic operands come back for this thread in the same cycle (wg_lsu reads them
    // from its operand RAM by lane group); the 1,024-bit in_ab_i and in_ac_i are not read.
    logic unused_ab;
    assign at_lane_o = a_grp[4:0];
    assign unused_ab = ^{in_ab_i, in_ac_i};
    for (genvar k = 0; k < LANES; k++) begin : g_res
      (* ram_style = "distributed" *) logic [127:0] res_q [G];
      logic            we;
      logic [GW-1:0]   wa;
      logic [127:0]    wd;
      logic            hit;
      always_comb begin
        hit = 1'b0;
        for (int g = 0; g < 32'(G); g++) hit = hit || (32'(dgrp_q) == g && cap_srv_q[g*LANES + k]);
      end
      assign we = (dact_q && hit) || (a_first_q && a_grp % LANES == k && a_one != '0);
      assign wa = dact_q ? dgrp_q : GW'(a_grp / LANES);
      assign wd = dact_q ? d_res[k*128 +: 128] : {96'd0, a_rdw};
      always_ff @(posedge clk_i) begin
        if (we) res_q[wa] <= wd;
      end
      assign out_gdata_o[k*128 +: 128] = res_q[GW'(out_grp_i)];
    end

`ifndef SYNTHESIS
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        if (!scan_en) assert (grp_q == '0) else $error("wg_smem: scan group %0d outside a scan", grp_q);
        if (cap_q) assert (!dact_q || ld_done) else $error("wg_smem: load data captured while handing out");
      end
    end
`endif
  end

  // ---------------------------------------------------------------------------
  // Atomics: read the word, then write op(old, b, c).
  // ---------------------------------------------------------------------------
  assign a_rdw = wg_pkg::word_of(b_rdata_i, a_bank);   // a mux tree, not a shifter
  assign a_old = a_first_q ? a_rdw : old_q;

  function automatic logic [31:0] atom_int(input logic [3:0] op, input logic [31:0] old,
                                           input logic [31:0] b, input logic [31:0] c);
    case (op)
      4'd0:    atom_int = old + b;
      4'd1:    atom_int = (signed'(old) < signed'(b)) ? old : b;
      4'd2:    atom_int = (signed'(old) > signed'(b)) ? old : b;
      4'd3:    atom_int = b;
      4'd4:    atom_int = (old == b) ? c : old;
      4'd5:    atom_int = old & b;
      4'd6:    atom_int = old | b;
      4'd7:    atom_int = old ^ b;
      4'd8:    atom_int = (old < b) ? old : b;
      4'd9:    atom_int = (old > b) ? old : b;
      4'd10:   atom_int = (old >= b) ? 32'd0 : old + 32'd1;
      4'd11:   atom_int = (old == 32'd0 || old > b) ? b : old - 32'd1;
      default: atom_int = old;   // 12 without FP; 13..15 are not ops
    endcase
  endfunction

  assign a_new = (HAS_FP && aop_q == AOP_FADD) ? f_res_q : atom_int(aop_q, a_old, a_b, a_c);

  // ADD.F32: old * 1.0 + b, launched in the first cycle of S_AFP (old from the read).
  assign f_launch = (state_q == S_AFP) && a_first_q;
  if (HAS_FP) begin : g_fadd
    wg_fp32_fma #(.ADD_ONLY(1'b1)) u_fadd (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .valid_i  (f_launch),
      .a_i      (a_rdw),
      .b_i      (32'h3F80_0000),
      .c_i      (a_b),
      .rm_i     (2'd0),  // round to nearest, as FADD
      .ftz_i    (1'b0),
      .valid_o  (f_valid),
      .result_o (f_result)
    );
  end else begin : g_no_fadd
    assign f_valid  = 1'b0;
    assign f_result = '0;
    logic unused_fp;
    assign unused_fp = f_launch;
  end

  // ---------------------------------------------------------------------------
  // Control.
  // ---------------------------------------------------------------------------
  logic pass_go, ard_go, awr_go, last_pass, last_thread;
  logic out_valid_d;
  logic [31:0] pend_d;
  logic [5:0]  passes_d;

  assign in_ready_o  = (state_q == S_IDLE);
  assign accept      = in_valid_i && in_ready_o;
  assign clr_ready_o = b_wgnt_i;
  assign pass_go     = plan_en && !clr_valid_i && (ld_q ? b_rgnt_i : b_wgnt_i);
  assign ard_go      = (state_q == S_ARD) && !clr_valid_i && b_rgnt_i;
  assign awr_go      = (state_q == S_AWR) && !clr_valid_i && b_wgnt_i;
  assign last_pass   = (pend_q & ~p_srv) == '0;
  assign last_thread = (pend_q & ~a_one) == '0;

  always_comb begin
    state_d     = state_q;
    pend_d      = pend_q;
    cap_d       = 1'b0;
    cap_srv_d   = '0;
    out_valid_d = 1'b0;
    a_first_d   = 1'b0;
    passes_d    = passes_q;
    unique case (state_q)
      S_IDLE: begin
        if (accept) begin
          pend_d   = in_mask_i;
          passes_d = '0;
          if (in_mask_i == '0) begin
            // No active thread: done at once.
            out_valid_d = 1'b1;
          end else begin
            state_d = (in_op_i == OP_ATOM) ? S_ARD : NARROW ? S_SCAN : S_PASS;
          end
        end
      end
      S_SCAN: begin
        // Narrow: plan the pass over the lane groups.
        if (scan_last) state_d = S_PASS;
      end
      S_PASS: begin
        if (pass_go) begin
          pend_d    = pend_q & ~p_srv;
          passes_d  = passes_q + 6'd1;
          cap_d     = ld_q;
          cap_srv_d = p_srv;
          if (last_pass) begin
            state_d     = ld_q ? S_LDFIN : S_IDLE;
            out_valid_d = !ld_q;
          end else if (NARROW) begin
            state_d = S_SCAN;
          end
        end
      end
      S_LDFIN: begin
        // The last pass's data is taken (narrow: handed to the last lane group) this cycle.
        if (ld_done) begin
          state_d     = S_IDLE;
          out_valid_d = 1'b1;
        end
      end
      S_ARD: begin
        if (ard_go) begin
          // The old value goes to the result (32 lanes: like a load's word).
          cap_d     = !NARROW;
          cap_srv_d = a_one;
          a_first_d = 1'b1;
          state_d   = (HAS_FP && aop_q == AOP_FADD) ? S_AFP : S_AWR;
        end
      end
      S_AFP: begin
        if (f_valid) state_d = S_AWR;
      end
      S_AWR: begin
        if (awr_go) begin
          pend_d   = pend_q & ~a_one;
          passes_d = passes_q + 6'd1;
          if (last_thread) begin
            state_d     = S_IDLE;
            out_valid_d = 1'b1;
          end else begin
            state_d = S_ARD;
          end
        end
      end
      default: state_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q     <= S_IDLE;
      pend_q      <= '0;
      cap_q       <= 1'b0;
      out_valid_q <= 1'b0;
      a_first_q   <= 1'b0;
      passes_q    <= '0;
    end else begin
      state_q     <= state_d;
      pend_q      <= pend_d;
      cap_q       <= cap_d;
      out_valid_q <= out_valid_d;
      a_first_q   <= a_first_d;
      passes_q    <= passes_d;
    end
  end

  // Access registers (no reset).
  always_ff @(posedge clk_i) begin
    if (accept) begin
      ld_q  <= (in_op_i == OP_LD);
      sz3_q <= (in_op_i != OP_ATOM) && (in_size_i == 3'd3);
      sz4_q <= (in_op_i != OP_ATOM) && (in_size_i == 3'd4);
      aop_q <= in_aop_i;
    end
    if (cap_d) cap_srv_q <= cap_srv_d;
    // Atomics: keep the old value (the array's output may change while a write waits).
    if (a_first_q) old_q <= a_rdw;
    if (f_valid) f_res_q <= f_result;
  end

  // ---------------------------------------------------------------------------
  // Bank port. The enables carry the access (a clear, a pass, an atomic's read or
  // write); rows, data and byte enables are used by wg_dmem only under an enable, so they
  // are not forced to zero in other cycles (that gate on each of their 1,664 bits cost
  // about 1.5k LUTs).
  // ---------------------------------------------------------------------------
  always_comb begin
    b_re_o = '0;
    b_we_o = '0;
    if (clr_valid_i) begin
      b_we_o = '1;
    end else begin
      case (state_q)
        S_PASS: begin
          if (ld_q) b_re_o = p_ben;
          else      b_we_o = p_ben;
        end
        S_ARD:   b_re_o = 32'd1 << a_bank;
        S_AWR:   b_we_o = 32'd1 << a_bank;
        default: ;
      endcase
    end
  end
  assign b_rrow_o  = (state_q == S_ARD) ? {32{a_row}} : p_brow;
  assign b_wrow_o  = clr_valid_i ? {32{clr_row_i}} : (state_q == S_AWR) ? {32{a_row}} : p_brow;
  assign b_wdata_o = clr_valid_i ? '0 : (state_q == S_AWR) ? {32{a_new}} : p_wd;
  assign b_wbe_o   = (clr_valid_i || state_q == S_AWR) ? '1 : p_wbe;

  assign out_valid_o  = out_valid_q;
  assign out_passes_o = passes_q;

  // Elaboration checks.
  if (DMEM_BYTES % 128 != 0 || DMEM_BYTES < 256 || RW + 9 > 32) begin : g_bad_size
    $error("wg_smem: DMEM_BYTES must be a multiple of 128, at least 256, at most 2**30");
  end
  if (LANES != 1 && LANES != 2 && LANES != 4 && LANES != 8 && LANES != 16 && LANES != 32) begin : g_bad_lanes
    $error("wg_smem: LANES must be 1, 2, 4, 8, 16 or 32");
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (accept) begin
        assert (in_op_i == OP_LD || in_op_i == OP_ST || in_op_i == OP_ATOM) else $error("wg_smem: access op 3");
        assert (in_op_i == OP_ATOM || in_size_i <= 3'd4) else $error("wg_smem: size %0d", in_size_i);
        assert (in_op_i != OP_ATOM || in_size_i == 3'd2) else $error("wg_smem: atomic of size %0d", in_size_i);
        assert (in_op_i != OP_ATOM || in_aop_i <= AOP_FADD) else $error("wg_smem: atomic op %0d", in_aop_i);
        assert (in_op_i != OP_ATOM || in_aop_i != AOP_FADD || HAS_FP)
          else $error("wg_smem: ADD.F32 without FP32 adder (HAS_FP = 0)");
        for (int l = 0; l < 32; l++) begin
          if (in_mask_i[l]) begin
            assert (in_addr_i[l*32 +: 32] < DMEM_BYTES)
              else $error("wg_smem: lane %0d address %08x outside the array", l, in_addr_i[l*32 +: 32]);
            assert ((in_addr_i[l*32 +: 32] & ((32'd1 << in_size_i) - 32'd1)) == '0)
              else $error("wg_smem: lane %0d address %08x not aligned", l, in_addr_i[l*32 +: 32]);
          end
        end
      end
      if (clr_valid_i) assert (32'(clr_row_i) < ROWS) else $error("wg_smem: clear of row %0d", clr_row_i);
      assert (passes_q <= 6'd32) else $error("wg_smem: %0d passes", passes_q);
      if (plan_en) assert (p_srv != '0) else $error("wg_smem: empty pass");
      if (f_valid) assert (state_q == S_AFP && !a_first_q) else $error("wg_smem: FP32 result out of turn");
    end
  end
`endif

endmodule
