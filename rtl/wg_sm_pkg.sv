// wg_sm_pkg: types and constants of the SM core (docs/sm.md, docs/sm-pipeline.md).
//
// The decoded instruction (uop_t) travels from decode through the per-warp
// instruction buffers to issue. Arrays of uops are kept as flat vectors of
// UOP_W bits (RTL-SUBSET.md: no arrays of structs); wg_decode checks at
// elaboration that UOP_W matches the struct.
`default_nettype none

package wg_sm_pkg;

  /* verilator lint_off UNUSEDPARAM */

  // Execution paths of a uop.
  localparam logic [1:0] UNIT_SIMD = 2'd0;  // wg_simd_unit (ALU, FP, S2R as MOV)
  localparam logic [1:0] UNIT_LSU  = 2'd1;  // wg_lsu (loads, stores, atomics)
  localparam logic [1:0] UNIT_CTRL = 2'd2;  // no datapath (NOP, BRA, EXIT, BAR, MEMBAR, PLOP)
  localparam logic [1:0] UNIT_SFU  = 2'd3;  // wg_sfu (MUFU, FDIV, FSQRT, IDIV, IREM)

  // Requests to the SIMT stack (wg_simt_stack).
  localparam logic [1:0] SIMT_ADV  = 2'd0;  // pc + 1, then the reconvergence pop check
  localparam logic [1:0] SIMT_BRA  = 2'd1;
  localparam logic [1:0] SIMT_EXIT = 2'd2;

  // Fault codes (docs/sm.md section 2.4).
  localparam logic [3:0] FAULT_ILLEGAL  = 4'd1;
  localparam logic [3:0] FAULT_ALIGN    = 4'd2;
  localparam logic [3:0] FAULT_SHARED   = 4'd3;
  localparam logic [3:0] FAULT_LOCAL    = 4'd4;
  localparam logic [3:0] FAULT_PARAM    = 4'd5;
  localparam logic [3:0] FAULT_STACK    = 4'd6;
  localparam logic [3:0] FAULT_PC       = 4'd7;
  localparam logic [3:0] FAULT_DEADLOCK = 4'd8;

  // Kernel registers (cfg_addr_i).
  localparam logic [4:0] CFG_START_PC      = 5'd0;
  localparam logic [4:0] CFG_REGS          = 5'd1;
  localparam logic [4:0] CFG_SMEM_CTA      = 5'd2;
  localparam logic [4:0] CFG_LOCAL_BYTES   = 5'd3;
  localparam logic [4:0] CFG_LOCAL_BASE    = 5'd4;
  localparam logic [4:0] CFG_NTID_X        = 5'd5;
  localparam logic [4:0] CFG_NTID_Y        = 5'd6;
  localparam logic [4:0] CFG_NTID_Z        = 5'd7;
  localparam logic [4:0] CFG_NCTAID_X      = 5'd8;
  localparam logic [4:0] CFG_NCTAID_Y      = 5'd9;
  localparam logic [4:0] CFG_NCTAID_Z      = 5'd10;
  localparam logic [4:0] CFG_THREADS       = 5'd11;
  localparam logic [4:0] CFG_PARAM_BYTES   = 5'd12;
  localparam logic [4:0] CFG_SCHED         = 5'd13;
  localparam logic [4:0] CFG_TOTAL_THREADS = 5'd14;
  localparam logic [4:0] CFG_CTRL          = 5'd15;
  localparam logic [4:0] CFG_L1_CTRL       = 5'd16;  // bit 0 Fermi mode, 1 48 KB L1, 2 flush
  // Warp issue control and compaction (docs/power-gating.md sections 3, 5).
  localparam logic [4:0] CFG_PG_ISSUE      = 5'd17;  // bit 0 issue control, 1 compaction; a write restarts S1
  localparam logic [4:0] CFG_PG_SLICE      = 5'd18;  // time slice in cycles (reset 100)
  localparam logic [4:0] CFG_PG_DOWN       = 5'd19;  // band floors S1|S2|S3, 8 bits each (reset 75,50,25)
  localparam logic [4:0] CFG_PG_UP         = 5'd20;  // up from S2|S3|S4, 8 bits each (reset 60,40,20)
  // Lane, unit and core gating (docs/power-gating.md sections 2, 5), writable at any time.
  localparam logic [4:0] CFG_PG_CTRL       = 5'd21; // policies, blackout; strobes close (8), clear (9)
  localparam logic [4:0] CFG_PG_BET        = 5'd22;
  localparam logic [4:0] CFG_PG_IDLE       = 5'd23;
  localparam logic [4:0] CFG_PG_WAKE       = 5'd24;
  // Lane-activity trace window (docs/power-gating.md section 7.1): window cycles
  // [from, to), 48 bits: FROM and TO bits 31:0, HI = from[47:32] | to[47:32] << 16.
  localparam logic [4:0] CFG_PGT_FROM      = 5'd25;
  localparam logic [4:0] CFG_PGT_TO        = 5'd26;
  localparam logic [4:0] CFG_PGT_HI        = 5'd27;
  localparam int unsigned NUM_CFG = 28;

  // Memory-pipeline counters (docs/memory-pipeline.md section 2), cnt_mem_o order.
  localparam int unsigned MC_GLD_REQ        = 0;
  localparam int unsigned MC_GLD_TX         = 1;
  localparam int unsigned MC_GST_REQ        = 2;
  localparam int unsigned MC_GST_TX         = 3;
  localparam int unsigned MC_LOCAL_LD_REQ   = 4;
  localparam int unsigned MC_LOCAL_LD_TX    = 5;
  localparam int unsigned MC_LOCAL_ST_REQ   = 6;
  localparam int unsigned MC_LOCAL_ST_TX    = 7;
  localparam int unsigned MC_SHARED_LD_REQ  = 8;
  localparam int unsigned MC_SHARED_LD_TX   = 9;
  localparam int unsigned MC_SHARED_ST_REQ  = 10;
  localparam int unsigned MC_SHARED_ST_TX   = 11;
  localparam int unsigned MC_SHARED_ATOM_TX = 12;
  localparam int unsigned MC_ATOM_COUNT     = 13;
  localparam int unsigned MC_ATOM_TX        = 14;
  localparam int unsigned MC_L1_GLD_HIT     = 15;
  localparam int unsigned MC_L1_GLD_MISS    = 16;
  localparam int unsigned MC_L1_LLD_HIT     = 17;
  localparam int unsigned MC_L1_LLD_MISS    = 18;
  localparam int unsigned MC_L1_LST_HIT     = 19;
  localparam int unsigned MC_L1_LST_MISS    = 20;
  localparam int unsigned MC_L1_WB          = 21;
  localparam int unsigned MC_L1_MERGE       = 22;
  localparam int unsigned MC_LDC_REQ        = 23;
  localparam int unsigned MC_MEM_REQ        = 24;
  localparam int unsigned MC_MEM_RD_BYTES   = 25;
  localparam int unsigned MC_MEM_WR_BYTES   = 26;
  localparam int unsigned NUM_MEMCNT        = 27;

  // Execution counters (docs/sm-pipeline.md), cnt_exec_o order: what the retire stream
  // gives the sim target, counted at issue for tops without one (the GPU's CNT_READ page 1).
  localparam int unsigned EC_BRANCH         = 0;   // BRA warp instructions
  localparam int unsigned EC_DIV_BRANCH     = 1;   //   of which split the warp
  localparam int unsigned EC_LOCAL_LD_BYTES = 2;   // LDL bytes (threads x width)
  localparam int unsigned EC_LOCAL_ST_BYTES = 3;   // STL bytes
  localparam int unsigned EC_CLASS_THREAD   = 4;   // 4..15: thread instructions per class
  localparam int unsigned NUM_EXECCNT       = 16;

  // Per-lane thread index as stored at launch: {z[5:0], y[9:0], x[9:0]}.
  localparam int unsigned TID_W = 26;

  // Retire beat metadata (without the 32 x 32 data row), flat:
  //   [5:0] warp, [21:6] seq, [39:22] pc, [71:40] active, [103:72] exec,
  //   [105:104] dst, [111:106] reg, [113:112] beat, [114] last
  localparam int unsigned RMETA_W = 115;

  // Decoded instruction.
  typedef struct packed {
    logic [5:0]  op;
    logic [2:0]  mod;
    logic        gneg;
    logic [2:0]  gp;
    logic [5:0]  rd;      // destination register, or predicate in [2:0]
    logic [5:0]  ra;      // raw ra field (PLOP: predicate operand)
    logic [5:0]  rc;      // raw rc field (SEL/PLOP: predicate operand)
    logic [5:0]  rf_a;    // register-file sources (RZ when not read)
    logic [5:0]  rf_b;
    logic [5:0]  rf_c;
    logic        bimm;    // B is imm
    logic [31:0] imm;     // B immediate, memory offset, branch target, barrier id, SR number
    logic [17:0] reconv;  // BRA reconvergence pc
    logic [17:0] pc;
    logic [3:0]  cls;
    logic [1:0]  unit;
    logic [2:0]  nwr;     // general registers written (rd .. rd+nwr-1), 0 = none
    logic        wr_pd;   // writes predicate rd[2:0] (not PT)
    logic        illegal;
    logic        stop;    // fetch of the warp stops after this instruction
    logic        adv;     // after issue, the SIMT stack advances (reconvergence check)
    logic [63:0] rmask;   // registers read or written (scoreboard check)
    logic [7:0]  pmask;   // predicates read or written (scoreboard check)
  } uop_t;

  localparam int unsigned UOP_W = 6 + 3 + 1 + 3 + 6 * 6 + 1 + 32 + 18 + 18 + 4 + 2 + 3 + 1 + 1 + 1 + 1
                                  + 64 + 8;
  // Bit position of the unit field in a flat uop (the members after it: nwr, wr_pd, illegal,
  // stop, adv, rmask, pmask), for generate blocks, where yosys 0.23 cannot resolve a
  // struct-typed signal; wg_decode checks it at elaboration.
  localparam int unsigned UOP_UNIT_LSB = 3 + 1 + 1 + 1 + 1 + 64 + 8;

  // Passes of a SIMD-unit instruction (docs/power-gating.md section 3): lw = log2 of the
  // lanes in use (the unit's width, one less when split); without compaction 32 / 2^lw,
  // with compaction max(1, ceil(active threads / 2^lw)). The instruction occupies the unit
  // that many cycles and its result comes out passes + FP32_LATENCY + 1 cycles after issue.
  function automatic logic [5:0] simd_passes(input logic [31:0] exec, input logic [2:0] lw,
                                             input logic compact);
    logic [6:0] n;
    n = 7'($countones(exec));
    if (!compact) simd_passes = 6'(7'd32 >> lw);
    else if (n == 7'd0) simd_passes = 6'd1;
    else simd_passes = 6'((n + (7'd1 << lw) - 7'd1) >> lw);
  endfunction

  // Lanes a SIMD-unit instruction uses (docs/power-gating.md sections 2 and 3.3), lw as in
  // simd_passes: bit l (l < 2^lw) is set when some pass runs a thread on lane l. Without
  // compaction thread t runs on lane t mod 2^lw (the execution mask folded); with
  // compaction n active threads run on lanes 0 .. min(n, 2^lw) - 1.
  function automatic logic [31:0] simd_lanes(input logic [31:0] exec, input logic [2:0] lw,
                                             input logic compact);
    logic [6:0]  n, k;
    logic [31:0] ones, m;
    n = 7'($countones(exec));
    k = (n < (7'd1 << lw)) ? n : (7'd1 << lw);
    ones = (k >= 7'd32) ? '1 : (32'd1 << k) - 32'd1;
    m = exec;
    if (lw <= 3'd4) m = {16'd0, m[31:16] | m[15:0]};
    if (lw <= 3'd3) m = {24'd0, m[15:8] | m[7:0]};
    if (lw <= 3'd2) m = {28'd0, m[7:4] | m[3:0]};
    if (lw <= 3'd1) m = {30'd0, m[3:2] | m[1:0]};
    if (lw == 3'd0) m = {31'd0, m[1] | m[0]};
    simd_lanes = compact ? ones : m;
  endfunction

  /* verilator lint_on UNUSEDPARAM */

endpackage
