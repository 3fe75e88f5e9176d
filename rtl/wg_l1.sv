// wg_l1: the SM's L1 data cache (docs/memory-pipeline.md sections 1.1, 3 and 4.4).
//
// Non-coherent, non-blocking, write-back for cached stores (local lines), 128 B
// lines held in the rows of the L1/shared array (wg_dmem's row port): way w of set
// s is row smem_rows_i + w*SETS + s, the set is line address mod SETS, ways_i ways
// (2 or 6) of MAX_WAYS are in use. Replacement: LRU per set (an age per way).
//
// Pipeline (one request per cycle for hits):
//   S1  the accepted request: tag look-up (tag/state registers), MSHR look-up,
//       victim choice; issues at most one row read or row write and one tag-entry
//       update per cycle. Requests are taken in order; a request that cannot
//       proceed holds S1 (req_ready_o low) until it can.
//   S2  the cycle after a row read: a hit's response (data from a_rdata_i) or a
//       dirty line's write-back (data into the memory-request register).
//   F   fills, one at a time: the memory's line data is written into the row of
//       the MSHR's way and the line becomes valid (S1 waits that cycle, and the
//       read-back cycle below), then every request merged into the MSHR is
//       answered from the line (one per cycle); the MSHR is free from the write on.
//   FL  flush and the reset walk over the sets.
// The look-up, the victim choice and the search for the next fill answer are
// guarded by S1's valid and F's state, so an idle L1 costs Verilator little per
// cycle (wide data is only copied on the cycles that take it).
// Per request (cmd, req_cache_i):
//   cached read      hit: row read, response (rsp_hit_o) the next cycle.
//                    MSHR for the line outstanding: merge (answered on its fill).
//                    miss: allocate the LRU way (invalid ways first; ways being
//                    filled are never chosen: with all of them pending, or no free
//                    MSHR, the miss waits) and an MSHR, write the victim back if
//                    dirty, then read the line (128 B); answered on fill.
//   cached write     hit: bytes written, line dirty, answered the next cycle.
//                    miss, every byte enabled: row written directly (valid, dirty),
//                    answered the next cycle (after the dirty victim's read).
//                    miss, partial: allocate way and MSHR as a read miss, the store's
//                    bytes go into the row now, the fill writes the other bytes
//                    (enables = ~store mask) and the line is read back for the
//                    merged requests; the store is answered after the fill.
//                    MSHR for the line outstanding: the store waits for the fill.
//   not cached       reads, writes (req_cache_i = 0) and atomics (any req_cache_i):
//                    wait while an MSHR for the line is outstanding (so no fill
//                    leaves a stale line behind); a dirty copy is written back first
//                    (then stays valid and clean for a read); a write or atomic
//                    invalidates the line. Then sent to the port as given; answered
//                    with the port's response (read data, atomic's old word, write ack).
// Responses: at most one per cycle; priority S2 > fill answers > port responses of
// uncached requests. After a cycle where S2 kept the others out, S1 starts no hit
// (one cycle), so nothing starves.
//
// Memory port (docs/sm.md 2.3): one request register. Tags: [MEM_TAG_W-1 -: 2] is
// the class, the low bits its index: 0 line fill (MSHR index), 1 write-back (a pool
// of 2^(MEM_TAG_W-2) ids), 2 uncached request (the LSU tag itself). Write-backs:
// cmd 1, size 7, every byte enabled, mreq_wb_o = 1, mreq_local_o = 1, debug fields 0.
// Line fills carry the debug fields of the request that allocated the MSHR.
// Ordering: the port must process requests in the order it accepts them (a read
// sees every write accepted before it; responses may come in any order, as on the
// sim target). The L1 sends a dirty line's write-back before anything that follows
// it (the single request register), so later fills and uncached requests of that
// line see its data.
//
// Assumptions: req_tag_i is unique among the requests outstanding in the L1 (the
// LSU's tag table); req_addr_i is aligned to req_size_i; cached requests are line
// (or segment) accesses whose req_wmask_i gives the bytes; smem_rows_i / ways_i
// change only while the L1 is flushed and idle (busy_o low). mode_i (0 Kepler,
// 1 Fermi) does not change the L1's behaviour: the LSU sets req_cache_i from the
// mode and the instruction (docs/memory-pipeline.md 1.1). It is only checked: in
// Kepler mode every cached request must be local.
//
// Counter pulses (registered, one cycle after the decision): hit_o / miss_o for
// cached reads and writes (each such request counts once: a merged read counts as a
// miss and a merge, a store waiting for a fill counts when it proceeds); their
// class in cnt_local_o (req_local_i) and cnt_write_o (cmd 1). merge_o: a read merged
// into an outstanding MSHR. wb_o: one dirty line written back (eviction, an uncached
// access to a dirty line, or flush).
//
// flush_i (pulse): stop taking requests, let the MSHRs finish, write back every dirty
// line, invalidate all (a pulse during a flush or the reset walk is ignored). busy_o:
// flush (or the reset walk) in progress, a request in S1/S2, an MSHR, a fill, a
// memory request or response outstanding (write-back acks included), so busy_o low
// after a flush means memory holds every dirty byte.
// After reset the tags are invalidated by a walk of SETS cycles (req_ready_o low).
`default_nettype none

module wg_l1 #(
  parameter int unsigned DMEM_BYTES = 65536,
  parameter int unsigned SETS       = 64,     // a power of two >= 2
  parameter int unsigned MAX_WAYS   = 6,
  parameter int unsigned MSHRS      = 8,
  parameter int unsigned TAG_W      = 6,      // LSU tag
  parameter int unsigned MEM_BYTES  = 128,    // fixed: one line, one row
  parameter int unsigned MEM_TAG_W  = 8,      // >= TAG_W + 2 and >= log2(MSHRS) + 2
  // Derived: do not override.
  parameter int unsigned ROW_W  = (DMEM_BYTES > 128) ? $clog2(DMEM_BYTES / 128) : 1,
  parameter int unsigned WAYS_W = $clog2(MAX_WAYS + 1)
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,

  // Configuration.
  input  wire logic                   mode_i,        // 0 Kepler, 1 Fermi (checked only)
  input  wire logic [ROW_W-1:0]       smem_rows_i,   // rows before the L1 part
  input  wire logic [WAYS_W-1:0]      ways_i,        // ways in use, 1..MAX_WAYS
  input  wire logic                   flush_i,
  output logic                        busy_o,

  // Requests (coalescer / LSU side).
  input  wire logic                   req_valid_i,
  output logic                        req_ready_o,
  input  wire logic [TAG_W-1:0]       req_tag_i,
  input  wire logic [1:0]             req_cmd_i,
  input  wire logic [31:0]            req_addr_i,
  input  wire logic [2:0]             req_size_i,
  input  wire logic [MEM_BYTES-1:0]   req_wmask_i,
  input  wire logic [8*MEM_BYTES-1:0] req_wdata_i,
  input  wire logic                   req_cache_i,
  input  wire logic                   req_local_i,
  input  wire logic [3:0]             req_aop_i,
  input  wire logic [31:0]            req_ab_i,
  input  wire logic [31:0]            req_ac_i,
  input  wire logic [5:0]             req_warp_i,
  input  wire logic [17:0]            req_pc_i,
  input  wire logic [4:0]             req_lane_i,

  // Responses (always taken).
  output logic                        rsp_valid_o,
  output logic      [TAG_W-1:0]       rsp_tag_o,
  output logic      [8*MEM_BYTES-1:0] rsp_data_o,
  output logic                        rsp_hit_o,

  // Counter pulses.
  output logic                        hit_o,
  output logic                        miss_o,
  output logic                        merge_o,
  output logic                        wb_o,
  output logic                        cnt_local_o,
  output logic                        cnt_write_o,

  // Memory port (docs/sm.md 2.3).
  output logic                        mreq_valid_o,
  input  wire logic                   mreq_ready_i,
  output logic      [MEM_TAG_W-1:0]   mreq_tag_o,
  output logic      [1:0]             mreq_cmd_o,
  output logic      [31:0]            mreq_addr_o,
  output logic      [2:0]             mreq_size_o,
  output logic      [MEM_BYTES-1:0]   mreq_wmask_o,
  output logic      [8*MEM_BYTES-1:0] mreq_wdata_o,
  output logic      [3:0]             mreq_atom_op_o,
  output logic      [31:0]            mreq_atom_b_o,
  output logic      [31:0]            mreq_atom_c_o,
  output logic                        mreq_local_o,
  output logic      [5:0]             mreq_warp_o,
  output logic      [17:0]            mreq_pc_o,
  output logic      [4:0]             mreq_lane_o,
  output logic                        mreq_wb_o,
  input  wire logic                   mrsp_valid_i,
  output logic                        mrsp_ready_o,
  input  wire logic [MEM_TAG_W-1:0]   mrsp_tag_i,
  input  wire logic [8*MEM_BYTES-1:0] mrsp_rdata_i,

  // Row port of the L1/shared array (read data the cycle after a_re_o).
  output logic                        a_re_o,
  output logic      [ROW_W-1:0]       a_raddr_o,
  input  wire logic [1023:0]          a_rdata_i,
  output logic                        a_we_o,
  output logic      [ROW_W-1:0]       a_waddr_o,
  output logic      [1023:0]          a_wdata_o,
  output logic      [127:0]           a_wbe_o
);

  localparam int unsigned ROWS   = DMEM_BYTES / 128;
  localparam int unsigned SET_W  = (SETS > 1) ? $clog2(SETS) : 1;
  localparam int unsigned WAY_W  = (MAX_WAYS > 1) ? $clog2(MAX_WAYS) : 1;
  localparam int unsigned MSHR_W = (MSHRS > 1) ? $clog2(MSHRS) : 1;
  localparam int unsigned LINE_W = 25;                     // address bits 31:7
  localparam int unsigned TAGB   = LINE_W - SET_W;         // address tag bits
  localparam int unsigned WE     = TAGB + 3;               // way entry {P, D, V, tag}
  localparam int unsigned AGE_W  = WAY_W;                  // LRU age per way
  localparam int unsigned AGE0   = MAX_WAYS * WE;          // ages after the way entries
  localparam int unsigned SE_W   = MAX_WAYS * (WE + AGE_W);
  localparam int unsigned NT     = 1 << TAG_W;             // LSU tags
  localparam int unsigned LOW_W  = MEM_TAG_W - 2;          // index bits of a memory tag
  localparam int unsigned NWB    = 1 << LOW_W;             // write-back ids
  localparam int unsigned DBG_W  = 1 + 6 + 18 + 5;         // local, warp, pc, lane
  localparam int unsigned PTC_W  = TAG_W + 1;

  localparam logic [1:0] TC_FILL = 2'd0, TC_WB = 2'd1, TC_PT = 2'd2;
  localparam logic [1:0] CMD_RD = 2'd0, CMD_WR = 2'd1, CMD_ATOM = 2'd2;

  typedef enum logic {S1_LOOK, S1_WRITE} s1_e;
  typedef enum logic [1:0] {S2_NONE, S2_RESP, S2_WB} s2_e;
  typedef enum logic [2:0] {F_IDLE, F_WR, F_RB, F_RBD, F_RESP} f_e;
  typedef enum logic [1:0] {FL_INIT, FL_IDLE, FL_WAIT, FL_WALK} fl_e;

  // ---------------------------------------------------------------------------
  // Tag entries: per set, MAX_WAYS way entries {P (being filled), D, V, tag} and
  // MAX_WAYS ages (a permutation of 0..MAX_WAYS-1; 0 = most recently used).
  // Registers, one whole set entry written per cycle.
  // ---------------------------------------------------------------------------
  logic [SE_W-1:0] tags_q [SETS];

  // Every index is a constant of the loop (a write at a run-time position of a wide
  // vector costs yosys a comparator per bit position and call).
  function automatic logic [SE_W-1:0] upd(input logic [SE_W-1:0] e, input logic [WAY_W-1:0] w,
                                          input logic [WE-1:0] f, input logic touch);
    logic [AGE_W-1:0] a;
    upd = e;
    a   = '0;
    for (int v = 0; v < 32'(MAX_WAYS); v++) begin
      if (32'(w) == v) a = e[AGE0 + v*AGE_W +: AGE_W];
    end
    for (int v = 0; v < 32'(MAX_WAYS); v++) begin
      if (32'(w) == v) begin
        upd[v*WE +: WE] = f;
        if (touch) upd[AGE0 + v*AGE_W +: AGE_W] = '0;
      end else if (touch && e[AGE0 + v*AGE_W +: AGE_W] < a) begin
        upd[AGE0 + v*AGE_W +: AGE_W] = e[AGE0 + v*AGE_W +: AGE_W] + 1'b1;
      end
    end
  endfunction

  function automatic logic [ROW_W-1:0] row_of(input logic [ROW_W-1:0] base, input logic [WAY_W-1:0] w,
                                              input logic [SET_W-1:0] s);
    row_of = ROW_W'(32'(base) + 32'(w) * SETS + 32'(s));
  endfunction

  logic [SE_W-1:0] init_ent;
  always_comb begin
    init_ent = '0;
    for (int w = 0; w < 32'(MAX_WAYS); w++) init_ent[AGE0 + w*AGE_W +: AGE_W] = AGE_W'(w);
  end

  logic [MAX_WAYS-1:0] way_en;
  always_comb begin
    for (int w = 0; w < 32'(MAX_WAYS); w++) way_en[w] = (32'(w) < 32'(ways_i));
  end

  // ---------------------------------------------------------------------------
  // State.
  // ---------------------------------------------------------------------------
  // S1: the request.
  logic                   s1_valid_q;
  s1_e                    s1_phase_q, s1_phase_d;
  logic [TAG_W-1:0]       s1_tag_q;
  logic [1:0]             s1_cmd_q;
  logic [31:0]            s1_addr_q;
  logic [2:0]             s1_size_q;
  logic [MEM_BYTES-1:0]   s1_wmask_q;
  logic [8*MEM_BYTES-1:0] s1_wdata_q;
  logic                   s1_cache_q, s1_local_q;
  logic [3:0]             s1_aop_q;
  logic [31:0]            s1_ab_q, s1_ac_q;
  logic [5:0]             s1_warp_q;
  logic [17:0]            s1_pc_q;
  logic [4:0]             s1_lane_q;
  logic [WAY_W-1:0]       s1_way_q, s1_way_d;       // S1_WRITE: the allocated way
  logic [MSHR_W-1:0]      s1_mshr_q, s1_mshr_d;     // S1_WRITE: its MSHR (partial store)

  // S2.
  s2_e                    s2_kind_q, s2_kind_d;
  logic [TAG_W-1:0]       s2_tag_q;
  logic                   s2_hit_q, s2_hit_d;
  logic [LINE_W-1:0]      s2_line_q, s2_line_d;

  // MSHRs.
  logic [MSHRS-1:0]       mshr_valid_q, mshr_valid_d;
  logic [MSHRS-1:0]       mshr_rd_q, mshr_rd_d;     // line read still to be sent
  logic [MSHRS-1:0]       mshr_st_q, mshr_st_d;     // allocated by a partial store
  logic [LINE_W-1:0]      mshr_line_q  [MSHRS];
  logic [WAY_W-1:0]       mshr_way_q   [MSHRS];
  logic [DBG_W-1:0]       mshr_dbg_q   [MSHRS];
  logic [MEM_BYTES-1:0]   mshr_smask_q [MSHRS];     // the store's bytes (already in the row)
  logic [NT-1:0]          mshr_wait_q  [MSHRS];     // LSU tags answered by the fill

  // F: fill.
  f_e                     f_state_q, f_state_d;
  logic [MSHR_W-1:0]      f_m_q;
  logic [8*MEM_BYTES-1:0] fbuf_q;
  logic [NT-1:0]          fresp_q, fresp_d;
  logic [ROW_W-1:0]       f_row_q;

  // FL: flush / reset walk.
  fl_e                    fl_state_q, fl_state_d;
  logic [SET_W-1:0]       fl_set_q, fl_set_d;

  // Memory request register.
  logic                   mq_valid_q;
  logic [MEM_TAG_W-1:0]   mq_tag_q;
  logic [1:0]             mq_cmd_q;
  logic [31:0]            mq_addr_q;
  logic [2:0]             mq_size_q;
  logic [MEM_BYTES-1:0]   mq_wmask_q;
  logic [8*MEM_BYTES-1:0] mq_wdata_q;
  logic [3:0]             mq_aop_q;
  logic [31:0]            mq_ab_q, mq_ac_q;
  logic                   mq_local_q, mq_wb_q;
  logic [5:0]             mq_warp_q;
  logic [17:0]            mq_pc_q;
  logic [4:0]             mq_lane_q;

  logic [NWB-1:0]         wb_busy_q;
  logic [LOW_W-1:0]       wb_ptr_q;
  logic [PTC_W-1:0]       pt_cnt_q;
  logic                   yield_q;

  // ---------------------------------------------------------------------------
  // S1 look-up.
  // ---------------------------------------------------------------------------
  logic [LINE_W-1:0] s1_line;
  logic [SET_W-1:0]  s1_set;
  logic [TAGB-1:0]   s1_ltag;
  logic              s1_pt, s1_rd, s1_full;
  assign s1_line = s1_addr_q[31:7];
  assign s1_set  = s1_line[SET_W-1:0];
  assign s1_ltag = s1_line[LINE_W-1:SET_W];
  assign s1_pt   = !s1_cache_q || s1_cmd_q == CMD_ATOM;
  assign s1_rd   = (s1_cmd_q == CMD_RD);
  assign s1_full = &s1_wmask_q;

  // The one read of the tag registers: the set of whoever owns them this cycle
  // (the flush walk, a fill's write, else S1); that owner also writes it.
  logic [LINE_W-1:0] f_line;
  logic [SET_W-1:0]  f_set, t_set;
  logic [SE_W-1:0]   ent;
  assign f_line = mshr_line_q[f_m_q];
  assign f_set  = f_line[SET_W-1:0];
  always_comb begin
    if (fl_state_q == FL_WALK || fl_state_q == FL_INIT) t_set = fl_set_q;
    else if (f_state_q == F_WR)                         t_set = f_set;
    else                                                t_set = s1_set;
  end
  assign ent = tags_q[t_set];

  logic              lk_hit, lk_hd, lk_mhit, lk_mfree, lk_vok, lk_vd;
  logic [WAY_W-1:0]  lk_hway, lk_vway;
  logic [MSHR_W-1:0] lk_midx, lk_fidx;
  logic [TAGB-1:0]   lk_vtag;

  logic              inv_f, lru_f;
  logic [WAY_W-1:0]  inv_w, lru_w;
  logic [AGE_W-1:0]  lru_a;
  always_comb begin
    lk_hit   = 1'b0;
    lk_hway  = '0;
    lk_hd    = 1'b0;
    lk_mhit  = 1'b0;
    lk_midx  = '0;
    lk_mfree = 1'b0;
    lk_fidx  = '0;
    lk_vok   = 1'b0;
    lk_vway  = '0;
    lk_vd    = 1'b0;
    lk_vtag  = '0;
    inv_f    = 1'b0;
    inv_w    = '0;
    lru_f    = 1'b0;
    lru_w    = '0;
    lru_a    = '0;
    if (s1_valid_q) begin
      for (int w = 0; w < 32'(MAX_WAYS); w++) begin
        if (way_en[w] && ent[w*WE + TAGB] && ent[w*WE +: TAGB] == s1_ltag) begin
          lk_hit  = 1'b1;
          lk_hway = WAY_W'(w);
          lk_hd   = ent[w*WE + TAGB + 1];
        end
      end
      for (int m = 32'(MSHRS) - 1; m >= 0; m--) begin
        if (mshr_valid_q[m] && mshr_line_q[m] == s1_line) begin
          lk_mhit = 1'b1;
          lk_midx = MSHR_W'(m);
        end
        if (!mshr_valid_q[m]) begin
          lk_mfree = 1'b1;
          lk_fidx  = MSHR_W'(m);
        end
      end
      // Victim: the lowest invalid way, else the oldest; never a way being filled.
      for (int w = 32'(MAX_WAYS) - 1; w >= 0; w--) begin
        if (way_en[w] && !ent[w*WE + TAGB + 2] && !ent[w*WE + TAGB]) begin
          inv_f = 1'b1;
          inv_w = WAY_W'(w);
        end
      end
      for (int w = 0; w < 32'(MAX_WAYS); w++) begin
        if (way_en[w] && !ent[w*WE + TAGB + 2] && ent[w*WE + TAGB] &&
            (!lru_f || ent[AGE0 + w*AGE_W +: AGE_W] > lru_a)) begin
          lru_f = 1'b1;
          lru_w = WAY_W'(w);
          lru_a = ent[AGE0 + w*AGE_W +: AGE_W];
        end
      end
      lk_vok  = inv_f || lru_f;
      lk_vway = inv_f ? inv_w : lru_w;
      lk_vd   = !inv_f && ent[32'(lru_w)*WE + TAGB + 1];
      lk_vtag = ent[32'(lru_w)*WE +: TAGB];
    end
  end

  // ---------------------------------------------------------------------------
  // Memory-request register arbitration: S2's write-back (reserved the cycle
  // before) > MSHR line reads > S1's uncached request.
  // ---------------------------------------------------------------------------
  logic              mq_free, mq_ld_s2, mq_ld_iss, mq_ld_s1, iss_want, s1_mq_ok, resv_ok;
  logic [MSHR_W-1:0] iss_idx;
  assign mq_free  = !mq_valid_q || mreq_ready_i;
  assign mq_ld_s2 = (s2_kind_q == S2_WB);
  assign iss_want = (mshr_rd_q != '0);
  always_comb begin
    iss_idx = '0;
    for (int m = 32'(MSHRS) - 1; m >= 0; m--) if (mshr_rd_q[m]) iss_idx = MSHR_W'(m);
  end
  assign mq_ld_iss = iss_want && mq_free && !mq_ld_s2;
  assign s1_mq_ok  = mq_free && !mq_ld_s2 && !iss_want;
  // A row read for a write-back: the register must be empty next cycle.
  assign resv_ok   = s1_mq_ok && !wb_busy_q[wb_ptr_q];

  // ---------------------------------------------------------------------------
  // Responses and the memory response port.
  // ---------------------------------------------------------------------------
  logic [1:0]       rcls;
  logic             rsp_s2, rsp_f, rsp_pt, pt_valid, fill_fire, wb_ack;
  logic [TAG_W-1:0] f_tag;
  assign rcls     = mrsp_tag_i[MEM_TAG_W-1 -: 2];
  assign pt_valid = mrsp_valid_i && rcls == TC_PT;
  assign rsp_s2   = (s2_kind_q == S2_RESP);
  assign rsp_f    = !rsp_s2 && f_state_q == F_RESP;
  assign rsp_pt   = !rsp_s2 && f_state_q != F_RESP && pt_valid;
  always_comb begin
    f_tag = '0;
    if (f_state_q == F_RESP) begin
      for (int i = 32'(NT) - 1; i >= 0; i--) if (fresp_q[i]) f_tag = TAG_W'(i);
    end
  end
  always_comb begin
    unique case (rcls)
      TC_FILL: mrsp_ready_o = (f_state_q == F_IDLE);
      TC_PT:   mrsp_ready_o = rsp_pt;
      default: mrsp_ready_o = 1'b1;
    endcase
  end
  assign fill_fire = mrsp_valid_i && rcls == TC_FILL && f_state_q == F_IDLE;
  assign wb_ack    = mrsp_valid_i && rcls == TC_WB;

  assign rsp_valid_o = rsp_s2 || rsp_f || rsp_pt;
  assign rsp_tag_o   = rsp_s2 ? s2_tag_q : (rsp_f ? f_tag : mrsp_tag_i[TAG_W-1:0]);
  assign rsp_data_o  = rsp_s2 ? a_rdata_i : (rsp_f ? fbuf_q : mrsp_rdata_i);
  assign rsp_hit_o   = rsp_s2 && s2_hit_q;

  // ---------------------------------------------------------------------------
  // Control: S1, fill, flush; the row port and the tag write.
  // ---------------------------------------------------------------------------
  logic              s1_done, s1_rd_set, f_block;
  logic              t_we;
  logic [SE_W-1:0]   t_data;
  logic              al_go, al_rd, al_st;
  logic              wm_we;
  logic [MSHR_W-1:0] wm_idx;
  logic [NT-1:0]     wm_val, tag_bit;
  logic              p_hit, p_miss, p_merge;
  logic              a_wfill;
  logic [TAGB-1:0]   fl_tag;

  assign f_block = (f_state_q == F_WR) || (f_state_q == F_RB);
  assign tag_bit = NT'(1) << s1_tag_q;

  logic              fl_found;
  logic [WAY_W-1:0]  fl_way;
  always_comb begin
    s1_done    = 1'b0;
    s1_phase_d = s1_phase_q;
    s1_way_d   = s1_way_q;
    s1_mshr_d  = s1_mshr_q;
    s1_rd_set  = 1'b0;
    t_we       = 1'b0;
    t_data     = ent;
    a_re_o     = 1'b0;
    a_raddr_o  = row_of(smem_rows_i, lk_hway, s1_set);
    a_we_o     = 1'b0;
    a_waddr_o  = row_of(smem_rows_i, lk_hway, s1_set);
    a_wbe_o    = s1_wmask_q;
    a_wfill    = 1'b0;
    s2_kind_d  = S2_NONE;
    s2_hit_d   = 1'b0;
    s2_line_d  = s1_line;
    mq_ld_s1   = 1'b0;
    al_go      = 1'b0;
    al_rd      = 1'b0;
    al_st      = 1'b0;
    wm_we      = 1'b0;
    wm_idx     = lk_fidx;
    wm_val     = tag_bit;
    p_hit      = 1'b0;
    p_miss     = 1'b0;
    p_merge    = 1'b0;
    f_state_d  = f_state_q;
    fresp_d    = fresp_q;
    fl_state_d = fl_state_q;
    fl_set_d   = fl_set_q;
    fl_found   = 1'b0;
    fl_way     = '0;
    fl_tag     = '0;

    // Fill.
    unique case (f_state_q)
      F_IDLE: if (fill_fire) f_state_d = F_WR;
      F_WR: begin
        // The line (its store's bytes excepted) into the row; valid (dirty if a store).
        a_we_o    = 1'b1;
        a_wfill   = 1'b1;
        a_waddr_o = row_of(smem_rows_i, mshr_way_q[f_m_q], f_set);
        a_wbe_o   = ~mshr_smask_q[f_m_q];
        t_we      = 1'b1;
        t_data    = upd(ent, mshr_way_q[f_m_q], {1'b0, mshr_st_q[f_m_q], 1'b1, f_line[LINE_W-1:SET_W]}, 1'b0);
        fresp_d   = mshr_wait_q[f_m_q];
        f_state_d = mshr_st_q[f_m_q] ? F_RB : F_RESP;
      end
      F_RB: begin
        // Read the merged line back for the requests merged into the store's MSHR.
        a_re_o    = 1'b1;
        a_raddr_o = f_row_q;
        f_state_d = F_RBD;
      end
      F_RBD: f_state_d = F_RESP;
      F_RESP: begin
        if (rsp_f) begin
          fresp_d = fresp_q & ~(NT'(1) << f_tag);
          if ((fresp_q & ~(NT'(1) << f_tag)) == '0) f_state_d = F_IDLE;
        end
      end
      default: f_state_d = F_IDLE;
    endcase

    // Flush and the reset walk (S1 empty, no MSHR, fills idle).
    unique case (fl_state_q)
      FL_INIT: begin
        t_we     = 1'b1;
        t_data   = init_ent;
        fl_set_d = fl_set_q + 1'b1;
        if (32'(fl_set_q) == SETS - 1) fl_state_d = FL_IDLE;
      end
      FL_IDLE: if (flush_i) fl_state_d = FL_WAIT;
      FL_WAIT: begin
        if (!s1_valid_q && s2_kind_q == S2_NONE && mshr_valid_q == '0 && f_state_q == F_IDLE) begin
          fl_state_d = FL_WALK;
          fl_set_d   = '0;
        end
      end
      FL_WALK: begin
        for (int w = 32'(MAX_WAYS) - 1; w >= 0; w--) begin
          if (way_en[w] && ent[w*WE + TAGB] && ent[w*WE + TAGB + 1]) begin
            fl_found = 1'b1;
            fl_way   = WAY_W'(w);
          end
        end
        fl_tag = ent[32'(fl_way)*WE +: TAGB];
        if (fl_found) begin
          if (resv_ok) begin
            a_re_o    = 1'b1;
            a_raddr_o = row_of(smem_rows_i, fl_way, fl_set_q);
            s2_kind_d = S2_WB;
            s2_line_d = {fl_tag, fl_set_q};
            t_we      = 1'b1;
            t_data    = upd(ent, fl_way, '0, 1'b0);
          end
        end else begin
          t_we     = 1'b1;
          t_data   = init_ent;
          fl_set_d = fl_set_q + 1'b1;
          if (32'(fl_set_q) == SETS - 1) fl_state_d = FL_IDLE;
        end
      end
      default: fl_state_d = FL_IDLE;
    endcase

    // S1 (never in a cycle where the fill owns the row port and the tags).
    if (s1_valid_q && !f_block) begin
      unique case (s1_phase_q)
        S1_LOOK: begin
          if (s1_pt) begin
            if (lk_mhit) begin
              // Wait for the outstanding fill of the line.
            end else if (lk_hit && lk_hd) begin
              // Dirty copy: write it back first (then clean, or invalid for a write).
              if (resv_ok) begin
                a_re_o    = 1'b1;
                a_raddr_o = row_of(smem_rows_i, lk_hway, s1_set);
                s2_kind_d = S2_WB;
                s2_line_d = s1_line;
                t_we      = 1'b1;
                t_data    = upd(ent, lk_hway, s1_rd ? {2'b00, 1'b1, s1_ltag} : '0, 1'b0);
              end
            end else begin
              if (lk_hit && !s1_rd) begin
                t_we   = 1'b1;
                t_data = upd(ent, lk_hway, '0, 1'b0);
              end
              if (s1_mq_ok) begin
                mq_ld_s1 = 1'b1;
                s1_done  = 1'b1;
              end
            end
          end else if (s1_rd) begin
            if (lk_mhit) begin
              wm_we   = 1'b1;
              wm_idx  = lk_midx;
              wm_val  = mshr_wait_q[lk_midx] | tag_bit;
              s1_done = 1'b1;
              p_miss  = 1'b1;
              p_merge = 1'b1;
            end else if (lk_hit) begin
              if (!yield_q) begin
                a_re_o    = 1'b1;
                a_raddr_o = row_of(smem_rows_i, lk_hway, s1_set);
                t_we      = 1'b1;
                t_data    = upd(ent, lk_hway, {1'b0, lk_hd, 1'b1, s1_ltag}, 1'b1);
                s2_kind_d = S2_RESP;
                s2_hit_d  = 1'b1;
                s1_done   = 1'b1;
                p_hit     = 1'b1;
              end
            end else if (lk_vok && lk_mfree && (!lk_vd || resv_ok)) begin
              al_go   = 1'b1;
              al_rd   = 1'b1;
              wm_we   = 1'b1;
              t_we    = 1'b1;
              t_data  = upd(ent, lk_vway, {3'b100, s1_ltag}, 1'b1);
              s1_done = 1'b1;
              p_miss  = 1'b1;
              if (lk_vd) begin
                a_re_o    = 1'b1;
                a_raddr_o = row_of(smem_rows_i, lk_vway, s1_set);
                s2_kind_d = S2_WB;
                s2_line_d = {lk_vtag, s1_set};
              end
            end
          end else begin
            // Cached write.
            if (lk_mhit) begin
              // Wait for the outstanding fill of the line.
            end else if (lk_hit) begin
              if (!yield_q) begin
                a_we_o    = 1'b1;
                a_waddr_o = row_of(smem_rows_i, lk_hway, s1_set);
                t_we      = 1'b1;
                t_data    = upd(ent, lk_hway, {3'b011, s1_ltag}, 1'b1);
                s2_kind_d = S2_RESP;
                s2_hit_d  = 1'b1;
                s1_done   = 1'b1;
                p_hit     = 1'b1;
              end
            end else if (lk_vok && (s1_full || lk_mfree) && (!lk_vd || resv_ok) &&
                         !(s1_full && !lk_vd && yield_q)) begin
              t_we   = 1'b1;
              t_data = upd(ent, lk_vway, s1_full ? {3'b011, s1_ltag} : {3'b100, s1_ltag}, 1'b1);
              p_miss = 1'b1;
              if (!s1_full) begin
                al_go = 1'b1;
                al_st = 1'b1;
                al_rd = !lk_vd;
                wm_we = 1'b1;
              end
              if (lk_vd) begin
                // Read the victim now, write the store's bytes next cycle.
                a_re_o     = 1'b1;
                a_raddr_o  = row_of(smem_rows_i, lk_vway, s1_set);
                s2_kind_d  = S2_WB;
                s2_line_d  = {lk_vtag, s1_set};
                s1_phase_d = S1_WRITE;
                s1_way_d   = lk_vway;
                s1_mshr_d  = lk_fidx;
              end else begin
                a_we_o    = 1'b1;
                a_waddr_o = row_of(smem_rows_i, lk_vway, s1_set);
                s1_done   = 1'b1;
                if (s1_full) s2_kind_d = S2_RESP;
              end
            end
          end
        end
        S1_WRITE: begin
          a_we_o     = 1'b1;
          a_waddr_o  = row_of(smem_rows_i, s1_way_q, s1_set);
          s1_done    = 1'b1;
          s1_phase_d = S1_LOOK;
          if (s1_full) s2_kind_d = S2_RESP;
          else s1_rd_set = 1'b1;
        end
        default: s1_phase_d = S1_LOOK;
      endcase
    end
  end

  assign a_wdata_o   = a_wfill ? fbuf_q : s1_wdata_q;
  assign req_ready_o = (fl_state_q == FL_IDLE) && (!s1_valid_q || s1_done);

  logic req_fire;
  assign req_fire = req_valid_i && req_ready_o;

  // MSHR bit vectors.
  always_comb begin
    mshr_valid_d = mshr_valid_q;
    mshr_rd_d    = mshr_rd_q;
    mshr_st_d    = mshr_st_q;
    if (mq_ld_iss) mshr_rd_d[iss_idx] = 1'b0;
    if (f_state_q == F_WR) mshr_valid_d[f_m_q] = 1'b0;
    if (s1_rd_set) mshr_rd_d[s1_mshr_q] = 1'b1;
    if (al_go) begin
      mshr_valid_d[lk_fidx] = 1'b1;
      mshr_rd_d[lk_fidx]    = al_rd;
      mshr_st_d[lk_fidx]    = al_st;
    end
  end

  // ---------------------------------------------------------------------------
  // Registers.
  // ---------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s1_valid_q   <= 1'b0;
      s1_phase_q   <= S1_LOOK;
      s2_kind_q    <= S2_NONE;
      mq_valid_q   <= 1'b0;
      mshr_valid_q <= '0;
      mshr_rd_q    <= '0;
      mshr_st_q    <= '0;
      f_state_q    <= F_IDLE;
      fl_state_q   <= FL_INIT;
      fl_set_q     <= '0;
      wb_busy_q    <= '0;
      wb_ptr_q     <= '0;
      pt_cnt_q     <= '0;
      yield_q      <= 1'b0;
      hit_o        <= 1'b0;
      miss_o       <= 1'b0;
      merge_o      <= 1'b0;
      wb_o         <= 1'b0;
    end else begin
      if (req_fire) s1_valid_q <= 1'b1;
      else if (s1_done) s1_valid_q <= 1'b0;
      s1_phase_q   <= s1_phase_d;
      s2_kind_q    <= s2_kind_d;
      mq_valid_q   <= (mq_ld_s2 || mq_ld_iss || mq_ld_s1) || (mq_valid_q && !mreq_ready_i);
      mshr_valid_q <= mshr_valid_d;
      mshr_rd_q    <= mshr_rd_d;
      mshr_st_q    <= mshr_st_d;
      f_state_q    <= f_state_d;
      fl_state_q   <= fl_state_d;
      fl_set_q     <= fl_set_d;
      if (mq_ld_s2) begin
        wb_busy_q <= (wb_busy_q | (NWB'(1) << wb_ptr_q)) & ~(wb_ack ? NWB'(1) << mrsp_tag_i[LOW_W-1:0] : '0);
        wb_ptr_q  <= wb_ptr_q + 1'b1;
      end else if (wb_ack) begin
        wb_busy_q <= wb_busy_q & ~(NWB'(1) << mrsp_tag_i[LOW_W-1:0]);
      end
      if (mq_ld_s1 && !rsp_pt) pt_cnt_q <= pt_cnt_q + 1'b1;
      else if (rsp_pt && !mq_ld_s1) pt_cnt_q <= pt_cnt_q - 1'b1;
      yield_q <= rsp_s2 && (f_state_q == F_RESP || pt_valid);
      hit_o   <= p_hit;
      miss_o  <= p_miss;
      merge_o <= p_merge;
      wb_o    <= mq_ld_s2;
    end
  end

  // Data registers (no reset).
  always_ff @(posedge clk_i) begin
    if (req_fire) begin
      s1_tag_q   <= req_tag_i;
      s1_cmd_q   <= req_cmd_i;
      s1_addr_q  <= req_addr_i;
      s1_size_q  <= req_size_i;
      s1_wmask_q <= req_wmask_i;
      s1_wdata_q <= req_wdata_i;
      s1_cache_q <= req_cache_i;
      s1_local_q <= req_local_i;
      s1_aop_q   <= req_aop_i;
      s1_ab_q    <= req_ab_i;
      s1_ac_q    <= req_ac_i;
      s1_warp_q  <= req_warp_i;
      s1_pc_q    <= req_pc_i;
      s1_lane_q  <= req_lane_i;
    end
    s1_way_q  <= s1_way_d;
    s1_mshr_q <= s1_mshr_d;
    if (s2_kind_d != S2_NONE) begin
      s2_tag_q  <= s1_tag_q;
      s2_hit_q  <= s2_hit_d;
      s2_line_q <= s2_line_d;
    end
    cnt_local_o <= s1_local_q;
    cnt_write_o <= (s1_cmd_q == CMD_WR);
    // Memory request.
    if (mq_ld_s2) begin
      mq_tag_q   <= {TC_WB, wb_ptr_q};
      mq_cmd_q   <= CMD_WR;
      mq_addr_q  <= {s2_line_q, 7'd0};
      mq_size_q  <= 3'd7;
      mq_wmask_q <= '1;
      mq_wdata_q <= a_rdata_i;
      mq_aop_q   <= '0;
      mq_ab_q    <= '0;
      mq_ac_q    <= '0;
      mq_local_q <= 1'b1;
      mq_warp_q  <= '0;
      mq_pc_q    <= '0;
      mq_lane_q  <= '0;
      mq_wb_q    <= 1'b1;
    end else if (mq_ld_iss) begin
      mq_tag_q   <= {TC_FILL, LOW_W'(iss_idx)};
      mq_cmd_q   <= CMD_RD;
      mq_addr_q  <= {mshr_line_q[iss_idx], 7'd0};
      mq_size_q  <= 3'd7;
      mq_wmask_q <= '0;
      mq_aop_q   <= '0;
      mq_ab_q    <= '0;
      mq_ac_q    <= '0;
      {mq_local_q, mq_warp_q, mq_pc_q, mq_lane_q} <= mshr_dbg_q[iss_idx];
      mq_wb_q    <= 1'b0;
    end else if (mq_ld_s1) begin
      mq_tag_q   <= {TC_PT, LOW_W'(s1_tag_q)};
      mq_cmd_q   <= s1_cmd_q;
      mq_addr_q  <= s1_addr_q;
      mq_size_q  <= s1_size_q;
      mq_wmask_q <= (s1_cmd_q == CMD_WR) ? s1_wmask_q : '0;
      mq_wdata_q <= s1_wdata_q;
      mq_aop_q   <= s1_aop_q;
      mq_ab_q    <= s1_ab_q;
      mq_ac_q    <= s1_ac_q;
      mq_local_q <= s1_local_q;
      mq_warp_q  <= s1_warp_q;
      mq_pc_q    <= s1_pc_q;
      mq_lane_q  <= s1_lane_q;
      mq_wb_q    <= 1'b0;
    end
    // MSHR entries (whole entries).
    if (al_go) begin
      mshr_line_q[lk_fidx]  <= s1_line;
      mshr_way_q[lk_fidx]   <= lk_vway;
      mshr_dbg_q[lk_fidx]   <= {s1_local_q, s1_warp_q, s1_pc_q, s1_lane_q};
      mshr_smask_q[lk_fidx] <= al_st ? s1_wmask_q : '0;
    end
    if (wm_we) mshr_wait_q[wm_idx] <= wm_val;
    // Fill.
    if (fill_fire) begin
      f_m_q  <= MSHR_W'(mrsp_tag_i[LOW_W-1:0]);
      fbuf_q <= mrsp_rdata_i;
    end
    if (f_state_q == F_WR) f_row_q <= a_waddr_o;
    if (f_state_q == F_RBD) fbuf_q <= a_rdata_i;
    fresp_q <= fresp_d;
    // Tags.
    if (t_we) tags_q[t_set] <= t_data;
  end

  assign mreq_valid_o   = mq_valid_q;
  assign mreq_tag_o     = mq_tag_q;
  assign mreq_cmd_o     = mq_cmd_q;
  assign mreq_addr_o    = mq_addr_q;
  assign mreq_size_o    = mq_size_q;
  assign mreq_wmask_o   = mq_wmask_q;
  assign mreq_wdata_o   = mq_wdata_q;
  assign mreq_atom_op_o = mq_aop_q;
  assign mreq_atom_b_o  = mq_ab_q;
  assign mreq_atom_c_o  = mq_ac_q;
  assign mreq_local_o   = mq_local_q;
  assign mreq_warp_o    = mq_warp_q;
  assign mreq_pc_o      = mq_pc_q;
  assign mreq_lane_o    = mq_lane_q;
  assign mreq_wb_o      = mq_wb_q;

  assign busy_o = (fl_state_q != FL_IDLE) || s1_valid_q || (s2_kind_q != S2_NONE) || mq_valid_q ||
                  (mshr_valid_q != '0) || (f_state_q != F_IDLE) || (pt_cnt_q != '0) || (wb_busy_q != '0);

  // Elaboration checks.
  if (MEM_BYTES != 128) begin : g_bad_mem_bytes
    $error("wg_l1: MEM_BYTES must be 128 (one line is one row)");
  end
  if (SETS < 2 || (SETS & (SETS - 1)) != 0) begin : g_bad_sets
    $error("wg_l1: SETS must be a power of two >= 2");
  end
  if (MAX_WAYS < 1 || SETS * MAX_WAYS > DMEM_BYTES / 128) begin : g_bad_ways
    $error("wg_l1: SETS x MAX_WAYS must fit in the array's rows");
  end
  if (MEM_TAG_W < TAG_W + 2 || MEM_TAG_W < MSHR_W + 2) begin : g_bad_tag_w
    $error("wg_l1: MEM_TAG_W must hold a 2-bit class and an LSU tag or MSHR index");
  end

`ifndef SYNTHESIS
  // Simulation only: LSU tags outstanding in the L1.
  logic [NT-1:0] out_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      out_q <= '0;
    end else begin
      out_q <= (out_q | (req_fire ? NT'(1) << req_tag_i : '0)) & ~(rsp_valid_o ? NT'(1) << rsp_tag_o : '0);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (req_fire) begin
        assert (!out_q[req_tag_i] || (rsp_valid_o && rsp_tag_o == req_tag_i))
          else $error("wg_l1: request tag %0d already outstanding", req_tag_i);
        assert (mode_i || !req_cache_i || req_local_i)
          else $error("wg_l1: a cached global request in Kepler mode");
        assert ((req_addr_i & ((32'd1 << req_size_i) - 32'd1)) == '0)
          else $error("wg_l1: request address %08x not aligned to its size", req_addr_i);
      end
      if (rsp_valid_o) assert (out_q[rsp_tag_o]) else $error("wg_l1: response for tag %0d not outstanding", rsp_tag_o);
      if (mq_ld_s2) assert (!mq_valid_q) else $error("wg_l1: write-back without a free request register");
      if (mrsp_valid_i && mrsp_ready_o) begin
        assert (rcls != 2'd3) else $error("wg_l1: response with an unknown tag %0d", mrsp_tag_i);
        if (rcls == TC_FILL) begin
          assert (32'(mrsp_tag_i[LOW_W-1:0]) < MSHRS && mshr_valid_q[MSHR_W'(mrsp_tag_i[LOW_W-1:0])] &&
                  !mshr_rd_q[MSHR_W'(mrsp_tag_i[LOW_W-1:0])])
            else $error("wg_l1: fill for MSHR %0d that did not request it", mrsp_tag_i[LOW_W-1:0]);
        end
        if (rcls == TC_WB) assert (wb_busy_q[mrsp_tag_i[LOW_W-1:0]])
          else $error("wg_l1: write-back ack %0d not outstanding", mrsp_tag_i[LOW_W-1:0]);
        if (rcls == TC_PT) assert (pt_cnt_q != '0) else $error("wg_l1: unexpected response of an uncached request");
      end
      if (f_state_q == F_WR) assert (mshr_wait_q[f_m_q] != '0) else $error("wg_l1: fill of an MSHR without requests");
      if (a_re_o) assert (a_raddr_o >= smem_rows_i && 32'(a_raddr_o) < ROWS)
        else $error("wg_l1: row read %0d outside the L1 part", a_raddr_o);
      if (a_we_o) assert (a_waddr_o >= smem_rows_i && 32'(a_waddr_o) < ROWS)
        else $error("wg_l1: row write %0d outside the L1 part", a_waddr_o);
      if (a_re_o && a_we_o) assert (a_raddr_o != a_waddr_o)
        else $error("wg_l1: row %0d read and written in one cycle", a_raddr_o);
      if (fl_state_q == FL_IDLE) assert (ways_i != '0 && 32'(smem_rows_i) + 32'(ways_i) * SETS <= ROWS)
        else $error("wg_l1: %0d ways after %0d shared rows do not fit", ways_i, smem_rows_i);
    end
  end
`endif

endmodule
