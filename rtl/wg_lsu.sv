// wg_lsu: load/store unit and memory pipeline (docs/memory-pipeline.md,
// docs/sm-pipeline.md, docs/sm.md sections 2.3 and 4).
//
// One warp instruction at a time in the address stage (AGU):
//   - all lanes' addresses are formed and checked at once (alignment and the
//     shared / local / param windows); a fault names the lowest faulting lane
//     and the instruction takes no effect;
//   - global and local accesses go through wg_coalescer (LINE for LDG / LDL,
//     SEG for LDG.CG, STORE for stores, THREAD for global atomics); local
//     accesses of 8 and 16 bytes are one coalescer access per 4-byte word at
//     the interleaved device addresses of docs/sm.md section 4; every
//     transaction becomes one wg_l1 request with a tag;
//   - shared accesses go to wg_smem (bank-conflict passes, atomics);
//   - param loads (LDC) read the constant store, one lane per cycle (a
//     uniform address, ra = RZ, is read once and broadcast).
// Loads and atomics wait in one of SLOTS result slots until every response is
// in (responses come in any order; the tag table names slot, word and lanes);
// a completed slot writes back one register row per beat through the owning
// scheduler's register-file write port and retires the beat. A store retires
// when its last transaction is accepted by the L1; the per-warp count of
// requests the L1 has not answered serves MEMBAR and CTA completion.
// Result rows (LSU_LANES = 32) are array elements written whole at constant
// indexes (no partial writes of memory elements at run-time indexes: yosys-
// friendly; and no whole-vector copy per cycle in Verilator, which a flat vector
// with partial writes costs).
//
// LSU_LANES lanes per cycle (docs/fpga.md section 3.3, docs/memory-pipeline.md
// section 5): the per-lane logic exists LSU_LANES times and runs over
// NG = 32 / LSU_LANES lane groups, the group picked by a small counter
// (constant-index slices under a compare with the counter):
//   - operands: the port's rows (A, B, C; a .128 store's second instruction: D, E) are
//     copied into the operand RAM (LUT RAM, a word per group and row) one group per
//     cycle while the port holds them; the port is released with the last group. The
//     AGU reads A one group behind the copy; store data and atomic operands are read by
//     group. No 1,024-bit operand row is kept (docs/fpga.md section 3.6, step 1);
//   - AGU: one group per cycle (A_AGU for groups 0..NG-2, A_CHECK for the last),
//     shifted into the registered address row row_q; the fault is the first one
//     found in lane order, decided in A_CHECK. The row holds each space's final
//     address (shared: + CTA base; local: the device address of word 0, and
//     + 4 x total threads per further word, again one group per cycle while the
//     coalescer works on the previous word);
//   - store data: an offered store transaction's block is built one group per
//     cycle (group 0, then the groups holding a lane of the transaction); the
//     request goes to the L1 with the last one;
//   - load results: responses wait in a small FIFO (the L1 cannot be stalled;
//     at most RQ_DEPTH load requests are outstanding) and are written into the
//     slot's rows one group and row per cycle (group 0, then the groups holding
//     a lane of the response);
//   - result rows: a RAM per lane (LUT RAM), written by one source per cycle
//     (an LDC word, a shared access's results one group and row per cycle, a
//     response's group row) and read asynchronously by the write-back.
// With LSU_LANES = 32 there is one group and every step takes the cycle it
// took before (no A_AGU, no wait for store data, no FIFO).
`default_nettype none

module wg_lsu #(
  parameter int unsigned NUM_WARPS  = 48,
  parameter int unsigned NUM_SIMD   = 2,
  parameter int unsigned NUM_CTAS   = 8,
  parameter int unsigned DMEM_BYTES = 65536,   // shared memory + L1 array
  parameter int unsigned CMEM_BYTES = 4096,
  parameter int unsigned MEM_BYTES  = 128,
  parameter int unsigned MEM_TAG_W  = 8,
  parameter int unsigned SLOTS      = 4,
  parameter int unsigned TAG_W      = 6,       // L1 request tags
  parameter int unsigned L1_SETS    = 64,
  parameter int unsigned L1_WAYS    = 6,       // ways of the largest L1 split
  parameter int unsigned L1_MSHRS   = 8,
  parameter bit          RETIRE_EN  = 1'b1,
  parameter bit          HAS_FP     = 1'b1,    // FP32 adder for ATOMS.ADD.F32
  // Threads the coalescer compares per cycle: 32 (wg_coalescer), or 1..16 (wg_coalescer_scan:
  // the same transactions over more cycles; docs/fpga.md section 3.3).
  parameter int unsigned LSU_LANES  = 32,
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1,
  parameter int unsigned CTA_W  = (NUM_CTAS > 1) ? $clog2(NUM_CTAS) : 1,
  parameter int unsigned UOP_W  = wg_sm_pkg::UOP_W,
  parameter int unsigned RM_W   = wg_sm_pkg::RMETA_W,
  parameter int unsigned RW_W   = $clog2(DMEM_BYTES / 128),
  parameter int unsigned CW_W   = $clog2(CMEM_BYTES / 4),
  parameter int unsigned NCNT   = wg_sm_pkg::NUM_MEMCNT
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_ni,

  // Instructions with operand rows, one port per scheduler.
  input  wire logic [NUM_SIMD-1:0]           in_valid_i,
  output logic      [NUM_SIMD-1:0]           in_ready_o,
  input  wire logic [NUM_SIMD*WARP_W-1:0]    in_warp_i,
  input  wire logic [NUM_SIMD*UOP_W-1:0]     in_uop_i,
  input  wire logic [NUM_SIMD*32-1:0]        in_active_i,
  input  wire logic [NUM_SIMD*32-1:0]        in_exec_i,
  input  wire logic [NUM_SIMD*16-1:0]        in_seq_i,
  input  wire logic [NUM_SIMD*3*1024-1:0]    in_rows_i,

  // Kernel registers and CTA tables.
  input  wire logic [31:0]                   smem_cta_i,
  input  wire logic [31:0]                   local_bytes_i,
  input  wire logic [31:0]                   local_base_i,
  input  wire logic [31:0]                   param_bytes_i,
  input  wire logic [31:0]                   threads_i,
  input  wire logic [31:0]                   total_threads_i,
  input  wire logic [NUM_WARPS*CTA_W-1:0]    warp_cta_i,
  input  wire logic [NUM_WARPS*5-1:0]        warp_wic_i,
  input  wire logic [NUM_CTAS*32-1:0]        cta_linear_i,
  input  wire logic                          l1_fermi_i,   // L1_CTRL bit 0
  input  wire logic                          l1_split_i,   // L1_CTRL bit 1: 48 KB L1
  input  wire logic                          l1_flush_i,   // pulse: write back and invalidate

  // Parameter store write, shared-memory row clear (launch; has priority).
  input  wire logic                          cmem_we_i,
  input  wire logic [CW_W-1:0]               cmem_addr_i,
  input  wire logic [31:0]                   cmem_wdata_i,
  input  wire logic                          sclr_valid_i,
  input  wire logic [RW_W-1:0]               sclr_row_i,
  output logic                               sclr_ready_o,

  // Memory port.
  output logic                               mreq_valid_o,
  input  wire logic                          mreq_ready_i,
  output logic [MEM_TAG_W-1:0]               mreq_tag_o,
  output logic [1:0]                         mreq_cmd_o,
  output logic [31:0]                        mreq_addr_o,
  output logic [2:0]                         mreq_size_o,
  output logic [MEM_BYTES-1:0]               mreq_wmask_o,
  output logic [8*MEM_BYTES-1:0]             mreq_wdata_o,
  output logic [3:0]                         mreq_atom_op_o,
  output logic [31:0]                        mreq_atom_b_o,
  output logic [31:0]                        mreq_atom_c_o,
  output logic                               mreq_local_o,
  output logic                               mreq_wb_o,
  output logic [5:0]                         mreq_warp_o,
  output logic [17:0]                        mreq_pc_o,
  output logic [4:0]                         mreq_lane_o,
  input  wire logic                          mrsp_valid_i,
  output logic                               mrsp_ready_o,
  input  wire logic [MEM_TAG_W-1:0]          mrsp_tag_i,
  input  wire logic [8*MEM_BYTES-1:0]        mrsp_rdata_i,

  // Load write-back (to the scheduler owning the warp).
  output logic [NUM_SIMD-1:0]                lwb_valid_o,
  input  wire logic [NUM_SIMD-1:0]           lwb_ready_i,
  output logic [WARP_W-1:0]                  lwb_warp_o,
  output logic [5:0]                         lwb_reg_o,
  output logic [31:0]                        lwb_mask_o,
  output logic [1023:0]                      lwb_data_o,

  // Retire stream.
  output logic                               ret_valid_o,
  input  wire logic                          ret_ready_i,
  output logic [RM_W-1:0]                    ret_meta_o,
  output logic [1023:0]                      ret_data_o,

  output logic [NUM_WARPS-1:0]               memzero_o,
  output logic                               idle_o,

  output logic                               fault_o,     // one-cycle pulse
  output logic [3:0]                         fault_code_o,
  output logic [WARP_W-1:0]                  fault_warp_o,
  output logic [17:0]                        fault_pc_o,
  output logic [4:0]                         fault_lane_o,
  output logic [31:0]                        fault_addr_o,

  output logic [NCNT*32-1:0]                 cnt_mem_o
);

  localparam int unsigned SL_W    = (SLOTS > 1) ? $clog2(SLOTS) : 1;
  localparam int unsigned NTAGS   = 1 << TAG_W;
  localparam int unsigned SIMD_W  = (NUM_SIMD > 1) ? $clog2(NUM_SIMD) : 1;
  localparam int unsigned ROWS    = DMEM_BYTES / 128;
  localparam int unsigned WAYS_W  = $clog2(L1_WAYS + 1);
  localparam logic [5:0]  RZ      = wg_isa_pkg::REG_RZ;
  // Lane groups of the narrow memory path (one group = LSU_LANES lanes).
  localparam int unsigned NG      = 32 / LSU_LANES;
  // Threads per CTA: a CTA that runs has at most NUM_WARPS x 32 (wg_cta_ctrl launches it
  // only on that many free warp slots), so the first thread index of a warp multiplies the
  // CTA's linear index by THR_W bits only: a 32 x 9-bit product at 8 warps, one DSP48E1,
  // where a 32 x 32 one took five with a cascade (docs/fpga.md section 3.8).
  localparam int unsigned THR_W   = $clog2(NUM_WARPS * 32 + 1);
  localparam int unsigned NG_W    = (NG > 1) ? $clog2(NG) : 1;
  localparam int unsigned LGW     = LSU_LANES * 32;      // bits of a group's words
  localparam logic [NG_W-1:0] G_LAST = NG_W'(NG - 1);
  // Load responses waiting for their groups (LSU_LANES < 32 only).
  localparam int unsigned RQ_DEPTH = 4;

  localparam logic [1:0] SP_GLOBAL = 2'd0, SP_SHARED = 2'd1, SP_LOCAL = 2'd2, SP_PARAM = 2'd3;
  localparam logic [1:0] K_LINE = 2'd0, K_SEG = 2'd1, K_STORE = 2'd2, K_THREAD = 2'd3;

  // ---------------------------------------------------------------------------
  // Input arbitration: an instruction takes the AGU and a result slot.
  // ---------------------------------------------------------------------------
  typedef enum logic [2:0] {A_IDLE, A_WAIT2, A_CHECK, A_COAL, A_SMEM, A_PARAM, A_AGU, A_COPY} astate_e;
  astate_e a_q, a_d;

  logic [SLOTS-1:0] slot_busy_q;
  logic             slot_free;
  logic [SL_W-1:0]  free_slot;
  logic             faulted_q;
  always_comb begin
    slot_free = 1'b0;
    free_slot = '0;
    for (int s = 32'(SLOTS) - 1; s >= 0; s--) begin
      if (!slot_busy_q[s]) begin
        slot_free = 1'b1;
        free_slot = SL_W'(s);
      end
    end
  end

  logic                agu_take, arb_valid, accept, accept2;
  logic [NUM_SIMD-1:0] arb_gnt;
  logic [SIMD_W-1:0]   arb_idx, a_cl_q;
  assign agu_take = (a_q == A_IDLE) && slot_free && !faulted_q;

  wg_rr_arbiter #(.N(NUM_SIMD)) u_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (in_valid_i),
    .lock_i  (1'b0),
    .ready_i (agu_take),
    .valid_o (arb_valid),
    .gnt_o   (arb_gnt),
    .idx_o   (arb_idx)
  );
  // An instruction is accepted (it takes the AGU and a slot; its fields are registered)
  // when granted; its operand rows are then copied into the operand RAM one lane group
  // per cycle (cp_go, group cp_g) while the port holds them, and the port is released
  // (in_ready_o) with the last group's copy: at once with LSU_LANES = 32. A .128 store
  // arrives as two instructions of one scheduler (wg_exec_pipe reads its operands twice):
  // the second brings rc+2, rc+3, copied into rows D and E (cp_2nd) from accept2 on.
  logic              cp_go, cp_2nd, cp_last;
  logic [NG_W-1:0]   cp_q, cp_g;
  logic [SIMD_W-1:0] cp_port;
  assign accept  = arb_valid && agu_take;
  assign accept2 = (a_q == A_WAIT2) && in_valid_i[a_cl_q];
  assign cp_go   = accept || accept2 || (a_q == A_COPY) || (a_q == A_AGU);
  assign cp_g    = (a_q == A_IDLE || a_q == A_WAIT2) ? '0 : cp_q;
  assign cp_last = cp_go && cp_g == G_LAST;
  assign cp_port = (a_q == A_IDLE) ? arb_idx : a_cl_q;
  always_comb begin
    in_ready_o = '0;
    if (cp_last) in_ready_o[cp_port] = 1'b1;
  end

  wg_sm_pkg::uop_t   au, in_u;
  logic [UOP_W-1:0]  au_q;
  logic [WARP_W-1:0] a_warp_q, in_w;
  logic [CTA_W-1:0]  in_cta;
  logic [31:0]       a_exec_q;
  // The operand RAM's reads (section "Operand RAM" below): row A's group at ag_q (the
  // AGU), rows B..E's group at op_g (store data, or an atomic thread's group).
  logic [LGW-1:0]    op_a, op_b, op_c, op_d, op_e;
  logic [SL_W-1:0]   a_slot_q;
  logic [1:0]        a_space_q, a_kind_q;
  logic              a_ld_q, a_st_q, a_atom_q, a_bcast_q, a_cg_q;
  logic [4:0]        a_bytes_q;
  logic [31:0]       a_sbase_q, a_gtid0_q;
  logic              in_st128;

  assign au     = au_q;
  // In A_AGU a .128 store copies its second instruction (A_AGU follows A_WAIT2 only then).
  assign cp_2nd = (a_q == A_WAIT2) || (a_q == A_AGU && a_st_q && au.mod == wg_isa_pkg::W_128);
  // The granted port's fields, picked by loops with constant part-selects (here and below,
  // where the stride is not a power of two: such a run-time index costs yosys a shifter).
  always_comb begin
    in_u = '0;
    in_w = '0;
    for (int k = 0; k < 32'(NUM_SIMD); k++) begin
      if (32'(arb_idx) == k) begin
        in_u = in_uop_i[k*UOP_W +: UOP_W];
        in_w = in_warp_i[k*WARP_W +: WARP_W];
      end
    end
  end
  assign in_cta = warp_cta_i[in_w*CTA_W +: CTA_W];
  assign in_st128 = (in_u.op >= wg_isa_pkg::OP_STG && in_u.op <= wg_isa_pkg::OP_STL) &&
                    in_u.mod == wg_isa_pkg::W_128;

  function automatic logic [1:0] space_of(input logic [5:0] op);
    case (op)
      wg_isa_pkg::OP_LDS, wg_isa_pkg::OP_STS, wg_isa_pkg::OP_ATOMS, wg_isa_pkg::OP_ATOMSX: space_of = SP_SHARED;
      wg_isa_pkg::OP_LDL, wg_isa_pkg::OP_STL: space_of = SP_LOCAL;
      wg_isa_pkg::OP_LDC: space_of = SP_PARAM;
      default: space_of = SP_GLOBAL;
    endcase
  endfunction

  function automatic logic [2:0] log2b(input logic [4:0] b);
    case (b)
      5'd1:    log2b = 3'd0;
      5'd2:    log2b = 3'd1;
      5'd4:    log2b = 3'd2;
      5'd8:    log2b = 3'd3;
      default: log2b = 3'd4;
    endcase
  endfunction

  // Sub-word load result.
  function automatic logic [31:0] ext(input logic [31:0] raw, input logic [2:0] mod);
    case (mod)
      wg_isa_pkg::W_U8:  ext = {24'd0, raw[7:0]};
      wg_isa_pkg::W_S8:  ext = {{24{raw[7]}}, raw[7:0]};
      wg_isa_pkg::W_U16: ext = {16'd0, raw[15:0]};
      wg_isa_pkg::W_S16: ext = {{16{raw[15]}}, raw[15:0]};
      default:           ext = raw;
    endcase
  endfunction

  // A byte mask of a 16-byte chunk shifted left by n bytes, as constant-shift stages, one
  // per bit of n: multiplexers only (a run-time shift cell is a candidate for yosys'
  // SAT-based resource sharing, which costs minutes with a few dozen of them). Conditional
  // expressions, not if statements: the lane loops below stay free of decision trees
  // (yosys' proc).
  function automatic logic [15:0] shl16(input logic [15:0] x, input logic [3:0] n);
    logic [15:0] y;
    y = x;
    for (int stg = 0; stg < 4; stg++) y = n[stg] ? y << (1 << stg) : y;
    shl16 = y;
  endfunction

  // The lane groups of a lane mask that hold a lane, and the lowest such group above g as
  // {found, group}: store data and response rows skip groups without a served lane.
  function automatic logic [NG-1:0] grp_any(input logic [31:0] m);
    logic [NG-1:0] r;
    for (int g = 0; g < 32'(NG); g++) r[g] = |m[g*LSU_LANES +: LSU_LANES];
    grp_any = r;
  endfunction
  function automatic logic [NG_W:0] grp_next(input logic [NG-1:0] any, input logic [NG_W-1:0] g);
    logic [NG_W:0] r;
    r = '0;
    for (int k = 32'(NG) - 1; k >= 0; k--) if (any[k] && k > 32'(g)) r = {1'b1, NG_W'(k)};
    grp_next = r;
  endfunction

  // ---------------------------------------------------------------------------
  // AGU: addresses and checks, one lane group per cycle (A_AGU for groups
  // 0..NG-2, A_CHECK for the last), into the address row.
  // ---------------------------------------------------------------------------
  // row_q, lane l at [l*32 +: 32]: global, param: ra (+ imm); shared: + the CTA's
  // base (wg_smem's address); local: the device address of word k_in (docs/sm.md
  // section 4). Groups enter at the top and shift down, so the row is in lane
  // order after NG steps; its users (coalescer, wg_smem, LDC) read it only then.
  logic [1023:0]   row_q;
  logic [NG_W-1:0] ag_q;         // group of the current AGU / next-word step
  logic            up_q;         // next-word steps 1..NG-1 under way
  logic            f_any_q;      // a fault in an earlier group of the instruction
  logic [4:0]      f_lane_q;
  logic [3:0]      f_code_q;
  logic [31:0]     f_addr_q;
  logic [4:0]      f_lane;
  logic            f_any;
  logic [3:0]      f_code;
  logic [31:0]     f_addr;
  logic [31:0]     win;
  always_comb begin
    case (a_space_q)
      SP_SHARED: win = smem_cta_i;
      SP_LOCAL:  win = local_bytes_i;
      SP_PARAM:  win = param_bytes_i;
      default:   win = 32'hFFFF_FFFF;
    endcase
  end

  // Coalescer accesses of the instruction (local .64 / .128: one per 4-byte word).
  logic [2:0] nwords;
  logic [2:0] k_in_q, k_tx_q;
  logic       co_in_valid, co_in_ready, co_take;
  assign nwords  = (a_space_q == SP_LOCAL && a_bytes_q > 5'd4) ? 3'(a_bytes_q >> 2) : 3'd1;
  assign co_in_valid = (a_q == A_COAL) && (k_in_q < nwords) && !up_q;
  assign co_take = co_in_valid && co_in_ready;

  // A step of the row: an AGU group, or (as the coalescer takes a local word that
  // is not the last, and while up_q) a group of the next word: + 4 x total threads
  // per lane ((a + 4k) >> 2 = (a >> 2) + k: the word's address is the previous
  // word's plus one row of the interleaved layout).
  logic             ag_agu, ag_step;
  logic [LGW-1:0]   g_new;       // the group's new row words
  logic             g_any;       // a fault in this group (AGU steps only)
  logic [4:0]       g_lane;
  logic [3:0]       g_code;
  logic [31:0]      g_addr;
  assign ag_agu  = (a_q == A_AGU) || (a_q == A_CHECK);
  assign ag_step = ag_agu || up_q || (co_take && k_in_q + 3'd1 < nwords);
  // Evaluated only on steps (Verilator evaluates the block every cycle).
  always_comb begin
    logic [LGW-1:0]       ra;
    logic [LSU_LANES-1:0] ex;
    logic [31:0]          a, la;
    logic [4:0]           l;
    logic                 mis, out;
    ra     = '0;
    ex     = '0;
    a      = '0;
    la     = '0;
    l      = '0;
    mis    = 1'b0;
    out    = 1'b0;
    g_new  = '0;
    g_any  = 1'b0;
    g_lane = '0;
    g_code = '0;
    g_addr = '0;
    if (ag_step) begin
      ra = op_a;
      for (int g = 0; g < 32'(NG); g++) begin
        if (32'(ag_q) == g) ex = a_exec_q[g*LSU_LANES +: LSU_LANES];
      end
      for (int i = 0; i < 32'(LSU_LANES); i++) begin
        l   = 5'(32'(ag_q) * LSU_LANES + 32'(i));
        a   = a_atom_q ? ra[i*32 +: 32] : ra[i*32 +: 32] + au.imm;
        mis = (a & (32'(a_bytes_q) - 32'd1)) != '0;
        out = (a_space_q != SP_GLOBAL) && ({1'b0, a} + 33'(a_bytes_q) > {1'b0, win});
        la  = local_base_i + (a >> 2) * (total_threads_i << 2) + ((a_gtid0_q + 32'(l)) << 2) +
              {30'd0, a[1:0]};
        g_new[i*32 +: 32] = !ag_agu ? row_q[i*32 +: 32] + (total_threads_i << 2) :
                            (a_space_q == SP_SHARED) ? a_sbase_q + a :
                            (a_space_q == SP_LOCAL) ? la : a;
        if (ag_agu && ex[i] && (mis || out) && !g_any) begin
          g_any  = 1'b1;
          g_lane = l;
          g_addr = a;
          if (mis) g_code = wg_sm_pkg::FAULT_ALIGN;
          else if (a_space_q == SP_SHARED) g_code = wg_sm_pkg::FAULT_SHARED;
          else if (a_space_q == SP_LOCAL) g_code = wg_sm_pkg::FAULT_LOCAL;
          else g_code = wg_sm_pkg::FAULT_PARAM;
        end
      end
    end
  end

  if (NG == 1) begin : g_row_all
    always_ff @(posedge clk_i) begin
      if (ag_step) row_q <= g_new;
    end
  end else begin : g_row_shift
    always_ff @(posedge clk_i) begin
      if (ag_step) row_q <= {g_new, row_q[1023:LGW]};
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ag_q    <= '0;
      up_q    <= 1'b0;
      f_any_q <= 1'b0;
    end else begin
      if (ag_step) ag_q <= (ag_q == G_LAST) ? '0 : NG_W'(ag_q + 1'b1);
      if (ag_step && !ag_agu) up_q <= (ag_q != G_LAST);
      if (a_q == A_AGU && g_any) f_any_q <= 1'b1;
      if (a_q == A_CHECK) f_any_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (a_q == A_AGU && g_any && !f_any_q) begin
      f_lane_q <= g_lane;
      f_code_q <= g_code;
      f_addr_q <= g_addr;
    end
  end

  // The instruction's fault (lowest faulting lane), read only with fault_o.
  always_comb begin
    f_any  = 1'b0;
    f_code = '0;
    f_lane = '0;
    f_addr = '0;
    if (a_q == A_CHECK) begin
      f_any  = f_any_q || g_any;
      f_lane = f_any_q ? f_lane_q : g_lane;
      f_code = f_any_q ? f_code_q : g_code;
      f_addr = f_any_q ? f_addr_q : g_addr;
    end
  end

  // ---------------------------------------------------------------------------
  // Coalescer side: the row is the access (local: word k_in's addresses).
  // ---------------------------------------------------------------------------
  logic [1023:0] c_addr;
  logic [2:0]    c_size;
  assign c_addr = row_q;
  assign c_size = (a_space_q == SP_LOCAL && a_bytes_q > 5'd4) ? 3'd2 : log2b(a_bytes_q);

  logic          tx_valid, tx_ready, tx_last;
  logic [31:0]   tx_addr, tx_lanes;
  logic [2:0]    tx_size;
  logic [127:0]  tx_bmask;

  if (LSU_LANES >= 32) begin : g_coal
    wg_coalescer u_coal (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .in_valid_i (co_in_valid),
      .in_ready_o (co_in_ready),
      .in_kind_i  (a_kind_q),
      .in_size_i  (c_size),
      .in_mask_i  (a_exec_q),
      .in_addr_i  (c_addr),
      .tx_valid_o (tx_valid),
      .tx_ready_i (tx_ready),
      .tx_addr_o  (tx_addr),
      .tx_size_o  (tx_size),
      .tx_lanes_o (tx_lanes),
      .tx_bmask_o (tx_bmask),
      .tx_last_o  (tx_last)
    );
  end else begin : g_coal_scan
    wg_coalescer_scan #(.LANES(LSU_LANES)) u_coal (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .in_valid_i (co_in_valid),
      .in_ready_o (co_in_ready),
      .in_kind_i  (a_kind_q),
      .in_size_i  (c_size),
      .in_mask_i  (a_exec_q),
      .in_addr_i  (c_addr),
      .tx_valid_o (tx_valid),
      .tx_ready_i (tx_ready),
      .tx_addr_o  (tx_addr),
      .tx_size_o  (tx_size),
      .tx_lanes_o (tx_lanes),
      .tx_bmask_o (tx_bmask),
      .tx_last_o  (tx_last)
    );
  end

  // Byte offsets of every lane's access in its 128 B block, per slot and word k (used to
  // place each lane's store bytes and to pick its bytes out of a response): a LUT RAM of
  // SLOTS x 4 words of 32 x 7 bits at address 4s + k, written as the coalescer takes word
  // k_in of the AGU's slot, in two copies for its two readers (the transaction emitted, at
  // k_tx; the response written, at its slot and word).
  logic [32*7-1:0] c_off;
  always_comb begin
    for (int l = 0; l < 32; l++) c_off[l*7 +: 7] = c_addr[l*32 +: 7];
  end
  localparam int unsigned OA_W = SL_W + 2;
  (* ram_style = "distributed" *) logic [32*7-1:0] off_tx_q [SLOTS*4];
  (* ram_style = "distributed" *) logic [32*7-1:0] off_rp_q [SLOTS*4];
  always_ff @(posedge clk_i) begin
    if (co_in_valid && co_in_ready) begin
      off_tx_q[{a_slot_q, k_in_q[1:0]}] <= c_off;
      off_rp_q[{a_slot_q, k_in_q[1:0]}] <= c_off;
    end
  end

  // Leader lane of the transaction (debug fields, atomic operands).
  logic [4:0] tx_lane;
  always_comb begin
    tx_lane = '0;
    for (int l = 31; l >= 0; l--) if (tx_lanes[l]) tx_lane = 5'(l);
  end

  // Offsets of the word being emitted (k_tx).
  logic [32*7-1:0] c_off_tx;
  assign c_off_tx = off_tx_q[OA_W'({a_slot_q, k_tx_q[1:0]})];

  // Store data of the transaction: the served lanes' bytes at their offsets in
  // the aligned block, the highest lane last (it wins a byte written twice).
  // Formed only while a store transaction is offered (the L1 takes the data
  // with the request only; Verilator skips the lane loop on other cycles), one
  // lane group per cycle: groups 0..NG-2 into wd_q, the last one on top of it as
  // the request goes out (wd_done).
  // Accesses are naturally aligned (wg_coalescer asserts it), so a lane's bytes lie in
  // the 16 B chunk o[6:4] from byte o[3:0]. The lane's data is repeated over the 16 bytes
  // of a chunk (16 bytes once, 8 twice, 4 four times, 2 eight, 1 sixteen), so byte j of any
  // chunk takes byte j of the pattern whatever the offset: per lane a byte mask shifted by
  // o[3:0] and a chunk select, no data shift.
  logic [1023:0]   tx_wdata;
  logic [1023:0]   wd_base;       // the block from the groups before wg_q
  logic [NG_W-1:0] wg_q;          // group of the store data formed this cycle
  logic            wd_done;       // the block is complete (loads: always)
  logic [15:0]     st_bytes;      // byte mask of one thread's access (low bytes)
  assign st_bytes = (c_size == 3'd4) ? 16'hFFFF : 16'((17'd1 << (5'd1 << c_size[1:0])) - 17'd1);
  logic st_word;                  // local .64 / .128: one word (k_tx) per access
  assign st_word = (a_space_q == SP_LOCAL && a_bytes_q > 5'd4);
  logic [NG_W:0]   wd_next;       // the next group with a served lane
  assign wd_next = grp_next(grp_any(tx_lanes), wg_q);
  assign wd_done = !a_st_q || !wd_next[NG_W];

  // ---------------------------------------------------------------------------
  // Operand RAM: the instruction's operand rows A (addresses), B, C (store data,
  // atomic operands) and, for a .128 store, D, E (the second instruction's B, C), a
  // word of LGW bits per lane group (LUT RAM with LSU_LANES < 32; registers with 32),
  // written one group per cycle as the rows are copied from the port. Read
  // asynchronously: A at the AGU's group ag_q; B..E at op_g, the group whose global
  // store data is formed (wg_q), the one wg_smem scans (A_SMEM: sm_wgrp), or, for an
  // atomic, the group of the thread whose operands are read (the transaction's leader
  // lane tx_lane, or wg_smem's at_lane). The rows themselves are never formed whole.
  // ---------------------------------------------------------------------------
  logic [NG_W-1:0] st_grp, sm_wgrp, op_g;
  logic [4:0]      at_lane, sm_at_lane;
  logic [31:0]     at_b, at_c;      // the atomic thread's operands
  logic [LGW-1:0]  cp_a, cp_b, cp_c; // group cp_g of the port's rows A, B, C
  assign st_grp  = (a_q == A_SMEM) ? sm_wgrp : wg_q;
  assign at_lane = (a_q == A_SMEM) ? sm_at_lane : tx_lane;
  assign op_g    = a_atom_q ? NG_W'(32'(at_lane) / LSU_LANES) : st_grp;
  assign at_b    = wg_pkg::word_of(1024'(op_b), 5'(32'(at_lane) % LSU_LANES));
  assign at_c    = wg_pkg::word_of(1024'(op_c), 5'(32'(at_lane) % LSU_LANES));

  // The port's group: the rows of every port in (port, group) order, and the group
  // {cp_port, cp_g} taken by an indexed part-select (a tree of 2:1 multiplexers in yosys,
  // the index's low bits being zero; compares per group and port made a chain of them).
  logic [NUM_SIMD*1024-1:0] pr_a, pr_b, pr_c;
  localparam int unsigned   CPI_W = $clog2(NUM_SIMD * 1024);
  logic [CPI_W-1:0]         cp_i;
  always_comb begin
    for (int k = 0; k < 32'(NUM_SIMD); k++) begin
      pr_a[k*1024 +: 1024] = in_rows_i[k*3072 +: 1024];
      pr_b[k*1024 +: 1024] = in_rows_i[k*3072 + 1024 +: 1024];
      pr_c[k*1024 +: 1024] = in_rows_i[k*3072 + 2048 +: 1024];
    end
  end
  assign cp_i = CPI_W'(32'(cp_port) * 1024 + 32'(cp_g) * LGW);
  assign cp_a = pr_a[cp_i +: LGW];
  assign cp_b = pr_b[cp_i +: LGW];
  assign cp_c = pr_c[cp_i +: LGW];

  if (NG == 1) begin : g_opr_ff
    logic [1023:0] ra_q, rb_q, rc_q, rd_q, re_q;
    always_ff @(posedge clk_i) begin
      if (cp_go && !cp_2nd) begin
        ra_q <= cp_a;
        rb_q <= cp_b;
        rc_q <= cp_c;
      end
      if (cp_go && cp_2nd) begin
        rd_q <= cp_b;
        re_q <= cp_c;
      end
    end
    logic unused_g;
    assign unused_g = ^op_g;
    assign op_a = ra_q;
    assign op_b = rb_q;
    assign op_c = rc_q;
    assign op_d = rd_q;
    assign op_e = re_q;
  end else begin : g_opr_ram
    (* ram_style = "distributed" *) logic [LGW-1:0] ra_q [NG];
    (* ram_style = "distributed" *) logic [LGW-1:0] rb_q [NG];
    (* ram_style = "distributed" *) logic [LGW-1:0] rc_q [NG];
    (* ram_style = "distributed" *) logic [LGW-1:0] rd_q [NG];
    (* ram_style = "distributed" *) logic [LGW-1:0] re_q [NG];
    always_ff @(posedge clk_i) begin
      if (cp_go && !cp_2nd) begin
        ra_q[cp_g] <= cp_a;
        rb_q[cp_g] <= cp_b;
        rc_q[cp_g] <= cp_c;
      end
      if (cp_go && cp_2nd) begin
        rd_q[cp_g] <= cp_b;
        re_q[cp_g] <= cp_c;
      end
    end
    assign op_a = ra_q[ag_q];
    assign op_b = rb_q[op_g];
    assign op_c = rc_q[op_g];
    assign op_d = rd_q[op_g];
    assign op_e = re_q[op_g];
  end

  always_comb begin
    logic [LSU_LANES*7-1:0] go;
    logic [LSU_LANES-1:0]   gl;
    logic [127:0] d;
    logic [31:0]  b, c, w;
    logic [15:0]  bm;
    logic [6:0]   o;
    logic         en;
    tx_wdata = wd_base;
    go = '0;
    gl = '0;
    d  = '0;
    b  = '0;
    c  = '0;
    w  = '0;
    bm = '0;
    o  = '0;
    en = 1'b0;
    if (a_st_q && tx_valid) begin
      for (int g = 0; g < 32'(NG); g++) begin
        if (32'(wg_q) == g) begin
          go = c_off_tx[g*LSU_LANES*7 +: LSU_LANES*7];
          gl = tx_lanes[g*LSU_LANES +: LSU_LANES];
        end
      end
      for (int i = 0; i < 32'(LSU_LANES); i++) begin
        // Up to 16 bytes (.64: rb, rc; .128: rb, rc, rd, re); local .64 / .128: word k_tx.
        b = op_b[i*32 +: 32];
        c = op_c[i*32 +: 32];
        w = k_tx_q[1] ? (k_tx_q[0] ? op_e[i*32 +: 32] : op_d[i*32 +: 32]) : (k_tx_q[0] ? c : b);
        case (c_size)
          3'd0:    d = {16{b[7:0]}};
          3'd1:    d = {8{b[15:0]}};
          3'd2:    d = {4{st_word ? w : b}};
          3'd3:    d = {2{c, b}};
          default: d = {op_e[i*32 +: 32], op_d[i*32 +: 32], c, b};
        endcase
        o  = go[i*7 +: 7];
        bm = shl16(st_bytes, o[3:0]);
        // Per byte of the block: this lane's byte if it covers it (later lanes win).
        for (int k = 0; k < 8; k++) begin
          en = gl[i] && o[6:4] == 3'(k);
          for (int j = 0; j < 16; j++) begin
            tx_wdata[k*128 + j*8 +: 8] = (en && bm[j]) ? d[j*8 +: 8] : tx_wdata[k*128 + j*8 +: 8];
          end
        end
      end
    end
  end

  logic l1_req_fire;
  if (NG == 1) begin : g_wd_all
    assign wg_q    = '0;
    assign wd_base = '0;
  end else begin : g_wd_groups
    logic [1023:0] wd_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        wg_q <= '0;
      end else if (l1_req_fire) begin
        wg_q <= '0;
      end else if (a_st_q && tx_valid && !wd_done) begin
        wg_q <= wd_next[NG_W-1:0];
      end
    end
    // Cleared with every request (and at reset), so it is zero whenever wg_q is: the block
    // starts from zero without a gate on each of its 1,024 bits (the clear is the flip-flops'
    // synchronous reset).
    always_ff @(posedge clk_i) begin
      if (!rst_ni || l1_req_fire) wd_q <= '0;
      else if (a_st_q && tx_valid && !wd_done) wd_q <= tx_wdata;
    end
    assign wd_base = wd_q;
`ifndef SYNTHESIS
    always_ff @(posedge clk_i) begin
      if (rst_ni && wg_q == '0) assert (wd_q == '0) else $error("wg_lsu: store block not clear at group 0");
    end
`endif
  end

  // ---------------------------------------------------------------------------
  // L1 requests and the tag table.
  // ---------------------------------------------------------------------------
  logic [NTAGS-1:0] tag_busy_q;
  logic [TAG_W-1:0] tag_next_q;
  logic             tag_ok;
  logic             l1_req_valid, l1_req_ready, l1_cache;
  logic             ld_ok;        // a load request has room in the response FIFO
  logic [1:0]       l1_cmd;
  assign tag_ok       = !tag_busy_q[tag_next_q];
  assign l1_req_valid = tx_valid && tag_ok && wd_done && ld_ok;
  assign tx_ready     = l1_req_ready && tag_ok && wd_done && ld_ok;
  assign l1_req_fire  = l1_req_valid && l1_req_ready;
  assign l1_cmd       = a_atom_q ? 2'd2 : a_st_q ? 2'd1 : 2'd0;
  assign l1_cache     = (a_space_q == SP_LOCAL) || (l1_fermi_i && a_ld_q && !a_cg_q);

  // Entry: {slot, word, store, cached, local, warp, lanes}.
  localparam int unsigned TT_W = SL_W + 2 + 3 + WARP_W + 32;
  logic [TT_W-1:0] tt_q [NTAGS];

  logic              rsp_valid, rsp_hit;
  logic [TAG_W-1:0]  rsp_tag;
  logic [1023:0]     rsp_data;
  logic [TT_W-1:0]   rsp_e;
  logic [SL_W-1:0]   rsp_slot;
  logic [1:0]        rsp_word;
  logic              rsp_store, rsp_cached, rsp_local;
  logic [WARP_W-1:0] rsp_warp;
  logic [31:0]       rsp_lanes;
  assign rsp_e = tt_q[rsp_tag];
  assign {rsp_slot, rsp_word, rsp_store, rsp_cached, rsp_local, rsp_warp, rsp_lanes} = rsp_e;

  logic l1_hit_p, l1_miss_p, l1_merge_p, l1_wb_p, l1_busy, l1_cnt_local, l1_cnt_write;
  logic              a_re, a_we;
  logic [RW_W-1:0]   a_raddr, a_waddr;
  logic [1023:0]     a_rdata, a_wdata;
  logic [127:0]      a_wbe;
  logic [RW_W-1:0]   smem_rows;
  logic [WAYS_W-1:0] l1_ways;
  assign smem_rows = l1_split_i ? RW_W'(ROWS / 4) : RW_W'(ROWS * 3 / 4);
  assign l1_ways   = l1_split_i ? WAYS_W'(ROWS * 3 / 4 / L1_SETS) : WAYS_W'(ROWS / 4 / L1_SETS);

  wg_l1 #(
    .DMEM_BYTES (DMEM_BYTES),
    .SETS       (L1_SETS),
    .MAX_WAYS   (L1_WAYS),
    .MSHRS      (L1_MSHRS),
    .TAG_W      (TAG_W),
    .MEM_BYTES  (MEM_BYTES),
    .MEM_TAG_W  (MEM_TAG_W)
  ) u_l1 (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .mode_i         (l1_fermi_i),
    .smem_rows_i    (smem_rows),
    .ways_i         (l1_ways),
    .flush_i        (l1_flush_i),
    .busy_o         (l1_busy),
    .req_valid_i    (l1_req_valid),
    .req_ready_o    (l1_req_ready),
    .req_tag_i      (tag_next_q),
    .req_cmd_i      (l1_cmd),
    .req_addr_i     (tx_addr),
    .req_size_i     (tx_size),
    .req_wmask_i    (a_st_q ? tx_bmask : 128'd0),
    .req_wdata_i    (tx_wdata),
    .req_cache_i    (l1_cache),
    .req_local_i    (a_space_q == SP_LOCAL),
    .req_aop_i      ({(au.op == wg_isa_pkg::OP_ATOMGX), au.mod}),
    .req_ab_i       (at_b),
    .req_ac_i       (at_c),
    .req_warp_i     (6'(a_warp_q)),
    .req_pc_i       (au.pc),
    .req_lane_i     (tx_lane),
    .rsp_valid_o    (rsp_valid),
    .rsp_tag_o      (rsp_tag),
    .rsp_data_o     (rsp_data),
    .rsp_hit_o      (rsp_hit),
    .hit_o          (l1_hit_p),
    .miss_o         (l1_miss_p),
    .merge_o        (l1_merge_p),
    .wb_o           (l1_wb_p),
    .cnt_local_o    (l1_cnt_local),
    .cnt_write_o    (l1_cnt_write),
    .a_re_o         (a_re),
    .a_raddr_o      (a_raddr),
    .a_rdata_i      (a_rdata),
    .a_we_o         (a_we),
    .a_waddr_o      (a_waddr),
    .a_wdata_o      (a_wdata),
    .a_wbe_o        (a_wbe),
    .mreq_valid_o   (mreq_valid_o),
    .mreq_ready_i   (mreq_ready_i),
    .mreq_tag_o     (mreq_tag_o),
    .mreq_cmd_o     (mreq_cmd_o),
    .mreq_addr_o    (mreq_addr_o),
    .mreq_size_o    (mreq_size_o),
    .mreq_wmask_o   (mreq_wmask_o),
    .mreq_wdata_o   (mreq_wdata_o),
    .mreq_atom_op_o (mreq_atom_op_o),
    .mreq_atom_b_o  (mreq_atom_b_o),
    .mreq_atom_c_o  (mreq_atom_c_o),
    .mreq_local_o   (mreq_local_o),
    .mreq_wb_o      (mreq_wb_o),
    .mreq_warp_o    (mreq_warp_o),
    .mreq_pc_o      (mreq_pc_o),
    .mreq_lane_o    (mreq_lane_o),
    .mrsp_valid_i   (mrsp_valid_i),
    .mrsp_ready_o   (mrsp_ready_o),
    .mrsp_tag_i     (mrsp_tag_i),
    .mrsp_rdata_i   (mrsp_rdata_i)
  );

  // ---------------------------------------------------------------------------
  // Shared memory.
  // ---------------------------------------------------------------------------
  logic          sm_in_valid, sm_in_ready, sm_out_valid, sm_sent_q;
  logic          sm_fin;        // the access's results are in its slot (A_SMEM ends)
  logic [LSU_LANES*128-1:0] sm_wdata;
  logic [5:0]    sm_passes;
  logic [NG_W-1:0]         sm_grp;   // wg_smem's results: the lane group read
  logic [LSU_LANES*128-1:0] sm_out;  //   its threads' 16 bytes each
  assign sm_in_valid = (a_q == A_SMEM) && !sm_sent_q;
  // wg_smem reads the addresses (the address row) with the access (32 lanes: in its accept
  // cycle; fewer: until out_valid_o, as they hold here until A_SMEM ends), so they are
  // wires, not gated with sm_in_valid (that cost a LUT per bit: about 5k LUTs). Store data:
  // rb, rc, rd, re of the lane group it asks for (wg_smem uses the access's bytes only: 4,
  // 8 or 16).
  always_comb begin
    for (int i = 0; i < 32'(LSU_LANES); i++) begin
      sm_wdata[i*128 +: 128] = {op_e[i*32 +: 32], op_d[i*32 +: 32], op_c[i*32 +: 32], op_b[i*32 +: 32]};
    end
  end

  // The array: shared memory through the bank port, the L1 through the row port.
  logic [31:0]        b_re, b_we;
  logic [32*RW_W-1:0] b_rrow, b_wrow;
  logic [1023:0]      b_wdata;
  logic [127:0]       b_wbe;
  logic               b_rgnt, b_wgnt;

  wg_dmem #(.DMEM_BYTES(DMEM_BYTES)) u_dmem (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .b_re_i    (b_re),
    .b_rrow_i  (b_rrow),
    .b_we_i    (b_we),
    .b_wrow_i  (b_wrow),
    .b_wdata_i (b_wdata),
    .b_wbe_i   (b_wbe),
    .b_rgnt_o  (b_rgnt),
    .b_wgnt_o  (b_wgnt),
    .r_re_i    (a_re),
    .r_rrow_i  (a_raddr),
    .r_we_i    (a_we),
    .r_wrow_i  (a_waddr),
    .r_wdata_i (a_wdata),
    .r_wbe_i   (a_wbe),
    .rdata_o   (a_rdata)
  );

  wg_smem #(
    .DMEM_BYTES (DMEM_BYTES),
    .HAS_FP     (HAS_FP),
    .LANES      (LSU_LANES)
  ) u_smem (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .in_valid_i   (sm_in_valid),
    .in_ready_o   (sm_in_ready),
    .in_op_i      (a_atom_q ? 2'd2 : a_st_q ? 2'd1 : 2'd0),
    .in_size_i    (log2b(a_bytes_q)),
    .in_mask_i    (a_exec_q),
    .in_addr_i    (row_q),
    .in_wgrp_o    (sm_wgrp),
    .in_wdata_i   (sm_wdata),
    .in_aop_i     ({(au.op == wg_isa_pkg::OP_ATOMSX), au.mod}),
    .in_ab_i      (1024'(op_b)),
    .in_ac_i      (1024'(op_c)),
    .at_lane_o    (sm_at_lane),
    .at_b_i       (at_b),
    .at_c_i       (at_c),
    .out_valid_o  (sm_out_valid),
    .out_grp_i    (sm_grp),
    .out_gdata_o  (sm_out),
    .out_passes_o (sm_passes),
    .clr_valid_i  (sclr_valid_i),
    .clr_row_i    (sclr_row_i),
    .clr_ready_o  (sclr_ready_o),
    .b_re_o       (b_re),
    .b_rrow_o     (b_rrow),
    .b_we_o       (b_we),
    .b_wrow_o     (b_wrow),
    .b_wdata_o    (b_wdata),
    .b_wbe_o      (b_wbe),
    .b_rgnt_i     (b_rgnt),
    .b_wgnt_i     (b_wgnt),
    .b_rdata_i    (a_rdata)
  );

  // ---------------------------------------------------------------------------
  // Parameter store (LDC): one lane and word per cycle.
  // ---------------------------------------------------------------------------
  logic [31:0] p_rem_q;
  logic [1:0]  p_word_q;
  logic [4:0]  p_lane;
  logic        p_go, p_lane_done;
  logic [31:0] p_waddr, cmem_rdata;
  always_comb begin
    p_lane = '0;
    for (int l = 31; l >= 0; l--) if (p_rem_q[l]) p_lane = 5'(l);
  end
  assign p_go        = (a_q == A_PARAM) && p_rem_q != '0;
  assign p_waddr     = wg_pkg::word_of(row_q, p_lane) + {28'd0, p_word_q, 2'b00};
  assign p_lane_done = ({1'b0, p_word_q} == ((a_bytes_q > 5'd4) ? 3'(a_bytes_q >> 2) : 3'd1) - 3'd1);

  wg_ram_1r1w #(.DEPTH(CMEM_BYTES / 4), .WIDTH(32)) u_cmem (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (cmem_we_i),
    .waddr_i (cmem_addr_i),
    .wdata_i (cmem_wdata_i),
    .wbe_i   (1'b1),
    .re_i    (p_go),
    .raddr_i (CW_W'(p_waddr >> 2)),
    .rdata_o (cmem_rdata)
  );

  logic        pr_valid_q, pr_bcast_q;
  logic [4:0]  pr_lane_q;
  logic [1:0]  pr_word_q, pr_off_q;
  logic [31:0] pr_val;
  assign pr_val = (pr_word_q == 2'd0) ? ext(cmem_rdata >> (8 * pr_off_q), au.mod) : cmem_rdata;

  // ---------------------------------------------------------------------------
  // AGU state machine.
  // ---------------------------------------------------------------------------
  logic agu_done;   // the instruction leaves the AGU this cycle
  always_comb begin
    a_d      = a_q;
    agu_done = 1'b0;
    case (a_q)
      A_IDLE:  if (accept) a_d = (NG == 1) ? (in_st128 ? A_WAIT2 : A_CHECK) : (in_st128 ? A_COPY : A_AGU);
      A_COPY:  if (cp_q == G_LAST) a_d = A_WAIT2;
      A_WAIT2: if (accept2) a_d = (NG > 1) ? A_AGU : A_CHECK;
      A_AGU:   if (NG_W'(ag_q + 1'b1) == G_LAST) a_d = A_CHECK;
      A_CHECK: begin
        if (f_any) begin
          a_d = A_IDLE;          // faulted: nothing more issues
        end else if (a_exec_q == '0) begin
          a_d = A_IDLE;
          agu_done = 1'b1;
        end else begin
          case (a_space_q)
            SP_SHARED: a_d = A_SMEM;
            SP_PARAM:  a_d = A_PARAM;
            default:   a_d = A_COAL;
          endcase
        end
      end
      A_COAL: if (tx_valid && tx_ready && tx_last && {1'b0, k_tx_q} == {1'b0, nwords} - 4'd1) begin
        a_d = A_IDLE;
        agu_done = 1'b1;
      end
      A_SMEM: if (sm_fin) begin
        a_d = A_IDLE;
        agu_done = 1'b1;
      end
      A_PARAM: if (p_go && p_lane_done && ((p_rem_q & ~(32'd1 << p_lane)) == '0 || a_bcast_q)) begin
        a_d = A_IDLE;
        agu_done = 1'b1;
      end
      default: a_d = A_IDLE;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_q       <= A_IDLE;
      faulted_q <= 1'b0;
      fault_o   <= 1'b0;
      k_in_q    <= '0;
      k_tx_q    <= '0;
      sm_sent_q <= 1'b0;
      cp_q      <= '0;
    end else begin
      if (cp_go) cp_q <= cp_last ? '0 : NG_W'(cp_g + 1'b1);
      a_q     <= a_d;
      fault_o <= (a_q == A_CHECK) && f_any && !faulted_q;
      if ((a_q == A_CHECK) && f_any) faulted_q <= 1'b1;
      if (a_q == A_CHECK) begin
        k_in_q    <= '0;
        k_tx_q    <= '0;
        sm_sent_q <= 1'b0;
      end
      if (co_take) k_in_q <= k_in_q + 3'd1;
      if (tx_valid && tx_ready && tx_last) k_tx_q <= k_tx_q + 3'd1;
      if (sm_in_valid && sm_in_ready) sm_sent_q <= 1'b1;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && accept) begin
      assert ((threads_i >> THR_W) == '0)
        else $error("wg_lsu: %0d threads per CTA, more than %0d warps hold", threads_i, NUM_WARPS);
    end
  end
`endif

  always_ff @(posedge clk_i) begin
    if (accept) begin
      au_q       <= in_u;
      a_warp_q   <= in_w;
      for (int k = 0; k < 32'(NUM_SIMD); k++) begin
        if (32'(arb_idx) == k) a_exec_q <= in_exec_i[k*32 +: 32];
      end
      a_slot_q   <= free_slot;
      a_cl_q     <= arb_idx;
      a_space_q  <= space_of(in_u.op);
      a_ld_q     <= (in_u.op >= wg_isa_pkg::OP_LDG && in_u.op <= wg_isa_pkg::OP_LDC);
      a_st_q     <= (in_u.op >= wg_isa_pkg::OP_STG && in_u.op <= wg_isa_pkg::OP_STL);
      a_atom_q   <= (in_u.op >= wg_isa_pkg::OP_ATOMG && in_u.op <= wg_isa_pkg::OP_ATOMSX);
      a_cg_q     <= (in_u.op == wg_isa_pkg::OP_LDGCG);
      a_bcast_q  <= (in_u.op == wg_isa_pkg::OP_LDC) && in_u.ra == RZ;
      a_bytes_q  <= (in_u.op >= wg_isa_pkg::OP_ATOMG) ? 5'd4 : wg_isa_pkg::width_bytes(in_u.mod);
      a_sbase_q  <= 32'(in_cta) * ((smem_cta_i + 32'd127) & ~32'd127);
      a_gtid0_q  <= cta_linear_i[in_cta*32 +: 32] * 32'(threads_i[THR_W-1:0]) +
                    32'(warp_wic_i[in_w*5 +: 5]) * 32'd32;
      if (in_u.op >= wg_isa_pkg::OP_ATOMG) a_kind_q <= K_THREAD;
      else if (in_u.op >= wg_isa_pkg::OP_STG) a_kind_q <= K_STORE;
      else if (in_u.op == wg_isa_pkg::OP_LDGCG) a_kind_q <= K_SEG;
      else a_kind_q <= K_LINE;
    end
    // Param loop.
    if (a_q == A_CHECK) begin
      p_rem_q  <= a_exec_q;
      p_word_q <= '0;
    end else if (p_go) begin
      if (p_lane_done) begin
        p_word_q <= '0;
        p_rem_q  <= a_bcast_q ? '0 : (p_rem_q & ~(32'd1 << p_lane));
      end else begin
        p_word_q <= p_word_q + 2'd1;
      end
    end
    pr_bcast_q <= a_bcast_q;
    pr_lane_q  <= p_lane;
    pr_word_q  <= p_word_q;
    pr_off_q   <= p_waddr[1:0];
    fault_code_o <= f_code;
    fault_warp_o <= a_warp_q;
    fault_pc_o   <= au.pc;
    fault_lane_o <= f_lane;
    fault_addr_o <= f_addr;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) pr_valid_q <= 1'b0;
    else pr_valid_q <= p_go;
  end

  // ---------------------------------------------------------------------------
  // Slots: per-slot state and result rows.
  // ---------------------------------------------------------------------------
  logic [WARP_W-1:0] sl_warp_q   [SLOTS];
  logic [31:0]       sl_active_q [SLOTS];
  logic [31:0]       sl_exec_q   [SLOTS];
  logic [15:0]       sl_seq_q    [SLOTS];
  logic [17:0]       sl_pc_q     [SLOTS];
  logic [5:0]        sl_rd_q     [SLOTS];
  logic [2:0]        sl_nwr_q    [SLOTS];
  logic [2:0]        sl_mod_q    [SLOTS];
  logic              sl_local_q  [SLOTS];
  logic [7:0]        sl_pend_q   [SLOTS];   // L1 requests without response (loads, atomics)
  logic [SLOTS-1:0]  sl_agu_done_q;
  logic              wb_busy_q;    // write-back of slot wb_slot_q, beat (row) wb_beat_q
  logic [SL_W-1:0]   wb_slot_q;
  logic [1:0]        wb_beat_q;

  // Rows of a load response: each served lane's bytes from its offset, one lane
  // group per cycle (rg_q). With NG = 1 the L1's response is written in the cycle
  // it arrives; else it goes through the FIFO u_rq with its tag table entry and leaves
  // with its last write (NG > 1: one row of one group per cycle, see the result rows
  // below). The FIFO is not fall-through: a response is at its head the cycle after it
  // arrives (a path through it cost a LUT per bit of its 1,064, docs/fpga.md section 3.7).
  // The tag, the counters and memout_q are done with on arrival.
  logic              rsp_load;
  logic              rp_valid, rp_done, rp_local;
  logic              rp_go;       // the head response writes this cycle (NG > 1: no other source does)
  logic              rp_rlast;    //   the last row of its group
  logic [SL_W-1:0]   rp_slot;
  logic [1:0]        rp_word;
  logic [31:0]       rp_lanes;
  logic [1023:0]     rp_data;
  logic [NG_W-1:0]   rg_q;
  logic [4*LGW-1:0]  rp_gv;       // the group's words, row r at [r*LGW +: LGW]
  logic [2:0]        rsp_mod;
  logic [LSU_LANES*7-1:0] rp_off; // the group's offsets
  assign rsp_load = rsp_valid && !rsp_store;
  assign rsp_mod  = sl_mod_q[rp_slot];
  logic [NG_W:0]     rp_next;     // the next group with a served lane
  assign rp_next  = grp_next(grp_any(rp_lanes), rg_q);
  assign rp_done  = rp_valid && rp_go && rp_rlast && !rp_next[NG_W];

  if (NG == 1) begin : g_rp_direct
    assign rp_valid = rsp_load;
    assign rp_slot  = rsp_slot;
    assign rp_word  = rsp_word;
    assign rp_local = rsp_local;
    assign rp_lanes = rsp_lanes;
    assign rp_data  = rsp_data;
    assign rg_q     = '0;
    assign ld_ok    = 1'b1;
  end else begin : g_rp_fifo
    localparam int unsigned RQ_W = SL_W + 2 + 1 + 32 + 1024;
    localparam int unsigned RQ_CW = $clog2(RQ_DEPTH + 1);
    logic              rq_in_ready, rq_full_unused, rq_empty_unused;
    logic [RQ_CW-1:0]  rq_count_unused;
    logic [RQ_W-1:0]   rq_out;
    // Load requests whose response has not left the FIFO: at most RQ_DEPTH, so a
    // response always finds room.
    logic [RQ_CW-1:0]  ld_out_q;
    wg_fifo #(.DEPTH(RQ_DEPTH), .WIDTH(RQ_W), .FALL_THROUGH(1'b0)) u_rq (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .flush_i     (1'b0),
      .in_valid_i  (rsp_load),
      .in_ready_o  (rq_in_ready),
      .in_data_i   ({rsp_slot, rsp_word, rsp_local, rsp_lanes, rsp_data}),
      .out_valid_o (rp_valid),
      .out_ready_i (rp_done),
      .out_data_o  (rq_out),
      .count_o     (rq_count_unused),
      .full_o      (rq_full_unused),
      .empty_o     (rq_empty_unused)
    );
    assign {rp_slot, rp_word, rp_local, rp_lanes, rp_data} = rq_out;
    assign ld_ok = a_st_q || ld_out_q < RQ_CW'(RQ_DEPTH);
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        rg_q     <= '0;
        ld_out_q <= '0;
      end else begin
        if (rp_valid && rp_go && rp_rlast) rg_q <= rp_done ? '0 : rp_next[NG_W-1:0];
        ld_out_q <= ld_out_q + RQ_CW'(l1_req_fire && !a_st_q) - RQ_CW'(rp_done);
      end
    end
`ifndef SYNTHESIS
    always_ff @(posedge clk_i) begin
      if (rst_ni && rsp_load) assert (rq_in_ready) else $error("wg_lsu: load response FIFO full");
    end
`endif
  end

  always_comb begin
    logic [32*7-1:0] o;
    o      = off_rp_q[OA_W'({rp_slot, rp_word})];
    rp_off = '0;
    for (int g = 0; g < 32'(NG); g++) begin
      if (32'(rg_q) == g) rp_off = o[g*LSU_LANES*7 +: LSU_LANES*7];
    end
  end

  // A lane's words from its offset (wg_pkg::words_at: accesses are naturally aligned).
  // Formed only while a response is written, the one use (so Verilator skips it on other
  // cycles).
  always_comb begin
    logic [127:0] b;
    logic [31:0]  w;
    logic         hit;
    b   = '0;
    w   = '0;
    hit = 1'b0;
    rp_gv = '0;
    if (rp_valid) begin
      for (int i = 0; i < 32'(LSU_LANES); i++) begin
        b = wg_pkg::words_at(rp_data, rp_off[i*7 +: 7]);
        // Local: the word of the response in row rp_word; else word r in row r.
        for (int r = 0; r < 4; r++) begin
          hit = !rp_local || 32'(rp_word) == r;
          w   = rp_local ? b[31:0] : b[r*32 +: 32];
          rp_gv[r*LGW + i*32 +: 32] = !hit ? 32'd0 : (r == 0) ? ext(w, rsp_mod) : w;
        end
      end
    end
  end

  // Result rows: slot s, row r. Sources (a later one wins a word where two write in
  // one cycle): an L1 response's lanes, a finished shared access, a parameter word.
  logic [31:0] pr_lanes;
  assign pr_lanes = pr_bcast_q ? a_exec_q : 32'd1 << pr_lane_q;

  if (NG == 1) begin : g_res_ff
    // 32 lanes: flip-flop rows, every source written whole in one cycle.
    logic [1023:0] res_q [SLOTS*4];   // slot s, row r: element s*4 + r
    logic [4095:0] rsp_rows;
    logic [127:0]  rsp_rmask;         // lanes per row (4 x 32)
    logic [4095:0] sm_rows;
    assign rp_go    = 1'b1;
    assign rp_rlast = 1'b1;
    assign sm_fin   = sm_out_valid;
    assign sm_grp   = '0;

    always_comb begin
      rsp_rows  = '0;
      rsp_rmask = '0;
      if (rp_valid) begin
        // Lane l takes word l % LSU_LANES of the group when the group is l's.
        for (int l = 0; l < 32; l++) begin
          for (int r = 0; r < 4; r++) begin
            rsp_rows[r*1024 + l*32 +: 32] = rp_gv[r*LGW + (l % LSU_LANES)*32 +: 32];
            rsp_rmask[r*32 + l] = (!rp_local || 32'(rp_word) == r) && rp_lanes[l] &&
                                  32'(rg_q) == l / LSU_LANES;
          end
        end
      end
    end

    // Rows of a finished shared access (formed in the cycle they are taken).
    always_comb begin
      sm_rows = '0;
      if (sm_out_valid) begin
        for (int l = 0; l < 32; l++) begin
          sm_rows[l*32 +: 32]        = a_atom_q ? sm_out[l*128 +: 32] : ext(sm_out[l*128 +: 32], au.mod);
          sm_rows[1024 + l*32 +: 32] = sm_out[l*128 + 32 +: 32];
          sm_rows[2048 + l*32 +: 32] = sm_out[l*128 + 64 +: 32];
          sm_rows[3072 + l*32 +: 32] = sm_out[l*128 + 96 +: 32];
        end
      end
    end

    // One block per slot and row (a constant element of res_q each); a row that no
    // source touches in a cycle is not rewritten. Each row is written whole, its new
    // value formed by masks: one enable per slot and row. Rows are array elements
    // written whole at constant indexes (no partial writes of memory elements at run-time
    // indexes: yosys-friendly; and no whole-vector copy per cycle in Verilator, which a
    // flat vector with partial writes costs).
    for (genvar gs = 0; gs < SLOTS; gs++) begin : g_res_slot
      for (genvar gr = 0; gr < 4; gr++) begin : g_res_row
        logic hit_rsp, hit_sm, hit_pr;
        logic [31:0] mr, mp;
        assign hit_rsp = rp_valid && rp_slot == SL_W'(gs);
        assign hit_sm  = sm_out_valid && a_slot_q == SL_W'(gs);
        assign hit_pr  = pr_valid_q && a_slot_q == SL_W'(gs);
        assign mr      = rsp_rmask[gr*32 +: 32] & {32{hit_rsp}};
        assign mp      = pr_lanes & {32{hit_pr && 32'(pr_word_q) == gr}};
        always_ff @(posedge clk_i) begin
          if (hit_sm || mr != '0 || mp != '0) begin : upd
            logic [1023:0] d;
            d = hit_sm ? sm_rows[gr*1024 +: 1024] : res_q[gs*4 + gr];
            for (int l = 0; l < 32; l++) begin
              d[l*32 +: 32] = mp[l] ? pr_val : (mr[l] && !hit_sm) ? rsp_rows[gr*1024 + l*32 +: 32] : d[l*32 +: 32];
            end
            res_q[gs*4 + gr] <= d;
          end
        end
      end
    end

    always_comb begin
      lwb_data_o = '0;
      for (int s = 0; s < 32'(SLOTS); s++) begin
        for (int r = 0; r < 4; r++) begin
          if (32'(wb_slot_q) == s && 32'(wb_beat_q) == r) lwb_data_o = res_q[s*4 + r];
        end
      end
    end
  end else begin : g_res_ram
    // LSU_LANES < 32 (docs/memory-pipeline.md section 4.1a): per lane a RAM of SLOTS*4
    // words of 32 bits (slot s, row r at address 4s + r; LUT RAM on Xilinx) with one
    // synchronous write port, a write enable per lane and one address for all lanes, read
    // asynchronously at the write-back's slot and beat. One source writes per cycle, one
    // row of one lane group (the LDC word: of any lanes):
    //   LDC word     pr_valid_q: its lane, or every active lane (broadcast), in one cycle;
    //   shared       sm_w: from wg_smem's out_valid_o cycle on (its results hold until it
    //                takes the next access, which waits for A_SMEM to end), every group
    //                with an active lane in lane order, rows 0 .. n-1 of each (n = 4, 2, 1
    //                for 16, 8, up to 4 bytes); stores write nothing;
    //   L1 response  rp_go: the FIFO's head when neither of the others writes (it waits
    //                in the FIFO), group 0 and then the groups with a served lane, each
    //                its row (local) or rows 0 .. n-1 (n of the slot's width).
    // A slot is written by one kind of source only (its instruction's space), and the
    // LDC and shared writes (both the AGU's instruction) never fall in one cycle
    // (asserted), so the order among the sources decides no word.
    localparam int unsigned RA_W = SL_W + 2;
    logic                 sd_q;       // writing a shared access's results after out_valid_o
    logic [NG_W-1:0]      sg_q;       //   its group
    logic [1:0]           sr_q;       //   and row
    logic [1:0]           rr_q;       // the row of the response's group
    logic                 sm_w, sm_rlast, sm_wdone;
    logic [NG_W-1:0]      sm_g;
    logic [1:0]           sm_r, sm_rn, rp_r, rp_rn;
    logic [NG-1:0]        ex_any;
    logic [NG_W:0]        sm_first, sm_next;
    logic [LGW-1:0]       sm_gw, rp_gw;   // the group's words of the row written
    logic [LSU_LANES-1:0] sm_gl, rp_gl;   // and its lanes written
    logic [31:0]          we;
    logic [RA_W-1:0]      waddr, raddr;
    logic [LGW-1:0]       gw;
    logic [LSU_LANES-1:0] gl;
    logic [NG_W-1:0]      gsel;

    // Shared access: the first group with an active lane in the out_valid_o cycle, then
    // the registered position.
    assign ex_any   = grp_any(a_exec_q);
    assign sm_first = grp_next(ex_any, '0);
    assign sm_w     = (a_q == A_SMEM) && !a_st_q && (sm_out_valid || sd_q);
    assign sm_g     = sd_q ? sg_q : (ex_any[0] || !sm_first[NG_W]) ? '0 : sm_first[NG_W-1:0];
    assign sm_r     = sd_q ? sr_q : 2'd0;
    assign sm_rn    = (a_bytes_q == 5'd16) ? 2'd3 : (a_bytes_q == 5'd8) ? 2'd1 : 2'd0;
    assign sm_next  = grp_next(ex_any, sm_g);
    assign sm_rlast = (sm_r == sm_rn);
    assign sm_wdone = sm_w && sm_rlast && !sm_next[NG_W];
    assign sm_fin   = (sm_out_valid && a_st_q) || sm_wdone;
    assign sm_grp   = sm_g;

    // The group's row r of wg_smem's results (read at sm_grp: thread i of the group's bytes
    // in [128i +: 128], right-aligned): row 0 extended as a load's (atomics: the old value
    // as it is).
    always_comb begin
      sm_gw = '0;
      sm_gl = '0;
      if (sm_w) begin
        for (int g = 0; g < 32'(NG); g++) begin
          if (32'(sm_g) == g) sm_gl = a_exec_q[g*LSU_LANES +: LSU_LANES];
        end
        for (int i = 0; i < 32'(LSU_LANES); i++) begin
          for (int r = 0; r < 4; r++) begin
            if (32'(sm_r) == r) sm_gw[i*32 +: 32] = sm_out[i*128 + r*32 +: 32];
          end
        end
        if (sm_r == 2'd0 && !a_atom_q) begin
          for (int i = 0; i < 32'(LSU_LANES); i++) sm_gw[i*32 +: 32] = ext(sm_gw[i*32 +: 32], au.mod);
        end
      end
    end

    // Response: its row (local) or row rr_q of the group; the group's served lanes (a
    // group without one takes one cycle).
    assign rp_go    = !sm_w && !pr_valid_q;
    assign rp_rn    = rp_local ? 2'd0 : (rsp_mod == wg_isa_pkg::W_128) ? 2'd3 :
                      (rsp_mod == wg_isa_pkg::W_64) ? 2'd1 : 2'd0;
    assign rp_r     = rp_local ? rp_word : rr_q;
    assign rp_rlast = (rr_q == rp_rn) || rp_gl == '0;
    always_comb begin
      rp_gw = '0;
      rp_gl = '0;
      if (rp_valid) begin
        for (int g = 0; g < 32'(NG); g++) begin
          if (32'(rg_q) == g) rp_gl = rp_lanes[g*LSU_LANES +: LSU_LANES];
        end
        for (int r = 0; r < 4; r++) begin
          if (32'(rp_r) == r) rp_gw = rp_gv[r*LGW +: LGW];
        end
      end
    end

    // The write port: the group's words go to lanes g*LSU_LANES + i (the same LSU_LANES
    // words in every group position: the data is LSU_LANES words wide, the enables 32).
    always_comb begin
      we    = '0;
      waddr = '0;
      gw    = '0;
      gl    = '0;
      gsel  = '0;
      if (pr_valid_q) begin
        we    = pr_lanes;
        waddr = {a_slot_q, pr_word_q};
        gw    = {LSU_LANES{pr_val}};
      end else if (sm_w) begin
        waddr = {a_slot_q, sm_r};
        gw    = sm_gw;
        gl    = sm_gl;
        gsel  = sm_g;
      end else if (rp_valid) begin
        waddr = {rp_slot, rp_r};
        gw    = rp_gw;
        gl    = rp_gl;
        gsel  = rg_q;
      end
      if (!pr_valid_q) begin
        for (int l = 0; l < 32; l++) we[l] = (32'(gsel) == l / LSU_LANES) && gl[l % LSU_LANES];
      end
    end
    assign raddr = {wb_slot_q, wb_beat_q};

    for (genvar l = 0; l < 32; l++) begin : g_lane
      (* ram_style = "distributed" *) logic [31:0] mem_q [SLOTS*4];
      always_ff @(posedge clk_i) begin
        if (we[l]) mem_q[waddr] <= gw[(l % LSU_LANES)*32 +: 32];
      end
      assign lwb_data_o[l*32 +: 32] = mem_q[raddr];
    end

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        sd_q <= 1'b0;
        sg_q <= '0;
        sr_q <= '0;
        rr_q <= '0;
      end else begin
        if (rp_valid && rp_go) rr_q <= rp_rlast ? 2'd0 : rr_q + 2'd1;
        if (sm_w) begin
          sd_q <= !sm_wdone;
          sg_q <= sm_rlast ? sm_next[NG_W-1:0] : sm_g;
          sr_q <= sm_rlast ? 2'd0 : sm_r + 2'd1;
        end
      end
    end

`ifndef SYNTHESIS
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        assert (!(pr_valid_q && sm_w)) else $error("wg_lsu: LDC and shared results in one cycle");
        if (we != '0 && wb_busy_q) assert (waddr[RA_W-1:2] != wb_slot_q)
          else $error("wg_lsu: result write to slot %0d during its write-back", wb_slot_q);
        if (rp_valid && !rp_local) assert (sl_nwr_q[rp_slot] <= {1'b0, rp_rn} + 3'd1)
          else $error("wg_lsu: response rows %0d short of the %0d written back", rp_rn + 1, sl_nwr_q[rp_slot]);
      end
    end
`endif
  end

  // ---------------------------------------------------------------------------
  // Write-back of completed slots.
  // ---------------------------------------------------------------------------
  logic [SLOTS-1:0] sl_complete;
  always_comb begin
    for (int s = 0; s < 32'(SLOTS); s++) begin
      sl_complete[s] = slot_busy_q[s] && sl_agu_done_q[s] && sl_pend_q[s] == '0 &&
                       !(pr_valid_q && a_slot_q == SL_W'(s));
    end
  end

  logic            wb_pick;
  logic [SL_W-1:0] wb_pick_slot;
  always_comb begin
    wb_pick = 1'b0;
    wb_pick_slot = '0;
    for (int s = 32'(SLOTS) - 1; s >= 0; s--) begin
      if (sl_complete[s]) begin
        wb_pick = 1'b1;
        wb_pick_slot = SL_W'(s);
      end
    end
  end

  logic              wb_rf, wb_fire, wb_last;
  logic [WARP_W-1:0] wb_warp;
  logic [SIMD_W-1:0] wb_cl;
  logic [2:0]        wb_nbeats;
  assign wb_warp   = sl_warp_q[wb_slot_q];
  assign wb_cl     = SIMD_W'(32'(wb_warp) % NUM_SIMD);
  assign wb_rf     = (sl_nwr_q[wb_slot_q] != 3'd0);
  assign wb_nbeats = wb_rf ? sl_nwr_q[wb_slot_q] : 3'd1;
  assign wb_last   = ({1'b0, wb_beat_q} == wb_nbeats - 3'd1);

  always_comb begin
    lwb_valid_o = '0;
    if (wb_busy_q && wb_rf && ret_ready_i) lwb_valid_o[wb_cl] = 1'b1;
  end
  assign lwb_warp_o = wb_warp;
  assign lwb_reg_o  = sl_rd_q[wb_slot_q] + 6'(wb_beat_q);
  assign lwb_mask_o = sl_exec_q[wb_slot_q];
  assign ret_valid_o = wb_busy_q && (!wb_rf || lwb_ready_i[wb_cl]);
  assign wb_fire     = ret_valid_o && ret_ready_i;
  assign ret_meta_o  = {wb_last, wb_beat_q, (wb_rf ? lwb_reg_o : 6'd0), (wb_rf ? 2'd1 : 2'd0),
                        sl_exec_q[wb_slot_q], sl_active_q[wb_slot_q], sl_pc_q[wb_slot_q],
                        sl_seq_q[wb_slot_q], 6'(wb_warp)};
  assign ret_data_o  = (RETIRE_EN && wb_rf) ? lwb_data_o : '0;

  // ---------------------------------------------------------------------------
  // Per-warp requests the L1 has not answered.
  // ---------------------------------------------------------------------------
  logic [9:0] memout_q [NUM_WARPS];
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int i = 0; i < 32'(NUM_WARPS); i++) memout_q[i] <= '0;
    end else begin
      if (l1_req_fire && !(rsp_valid && rsp_warp == a_warp_q)) memout_q[a_warp_q] <= memout_q[a_warp_q] + 10'd1;
      if (rsp_valid && !(l1_req_fire && rsp_warp == a_warp_q)) memout_q[rsp_warp] <= memout_q[rsp_warp] - 10'd1;
    end
  end
  always_comb begin
    for (int i = 0; i < 32'(NUM_WARPS); i++) memzero_o[i] = (memout_q[i] == '0);
  end

  // ---------------------------------------------------------------------------
  // Slot and tag state.
  // ---------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      slot_busy_q   <= '0;
      sl_agu_done_q <= '0;
      tag_busy_q    <= '0;
      tag_next_q    <= '0;
      wb_busy_q     <= 1'b0;
      for (int s = 0; s < 32'(SLOTS); s++) sl_pend_q[s] <= '0;
    end else begin
      if (accept) begin
        slot_busy_q[free_slot]   <= 1'b1;
        sl_agu_done_q[free_slot] <= 1'b0;
      end
      if (agu_done) sl_agu_done_q[a_slot_q] <= 1'b1;
      if (l1_req_fire) begin
        tag_busy_q[tag_next_q] <= 1'b1;
        tag_next_q <= tag_next_q + 1'b1;
      end
      if (rsp_valid) tag_busy_q[rsp_tag] <= 1'b0;
      for (int s = 0; s < 32'(SLOTS); s++) begin
        logic [7:0] p;
        p = sl_pend_q[s];
        if (l1_req_fire && !a_st_q && a_slot_q == SL_W'(s)) p = p + 8'd1;
        if (rp_done && rp_slot == SL_W'(s)) p = p - 8'd1;
        sl_pend_q[s] <= p;
      end
      if (!wb_busy_q && wb_pick) begin
        wb_busy_q <= 1'b1;
        wb_slot_q <= wb_pick_slot;
        wb_beat_q <= '0;
      end
      if (wb_fire) begin
        if (wb_last) begin
          wb_busy_q <= 1'b0;
          slot_busy_q[wb_slot_q]   <= 1'b0;
          sl_agu_done_q[wb_slot_q] <= 1'b0;
        end else begin
          wb_beat_q <= wb_beat_q + 2'd1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (l1_req_fire) begin
      tt_q[tag_next_q] <= {a_slot_q, k_tx_q[1:0], a_st_q, l1_cache, (a_space_q == SP_LOCAL), a_warp_q, tx_lanes};
    end
    if (accept) begin
      sl_warp_q[free_slot]   <= in_w;
      for (int k = 0; k < 32'(NUM_SIMD); k++) begin
        if (32'(arb_idx) == k) begin
          sl_active_q[free_slot] <= in_active_i[k*32 +: 32];
          sl_exec_q[free_slot]   <= in_exec_i[k*32 +: 32];
          sl_seq_q[free_slot]    <= in_seq_i[k*16 +: 16];
        end
      end
      sl_pc_q[free_slot]     <= in_u.pc;
      sl_rd_q[free_slot]     <= in_u.rd;
      sl_nwr_q[free_slot]    <= in_u.nwr;
      sl_mod_q[free_slot]    <= (in_u.op >= wg_isa_pkg::OP_ATOMG) ? wg_isa_pkg::W_32 : in_u.mod;
      sl_local_q[free_slot]  <= (space_of(in_u.op) == SP_LOCAL);
    end
  end

  // ---------------------------------------------------------------------------
  // Counters (docs/memory-pipeline.md section 2).
  // ---------------------------------------------------------------------------
  logic [31:0] cnt_q [NCNT];
  logic        req_new;        // a coalescer access starts (a request)
  logic        tx_fire;
  assign req_new = co_in_valid && co_in_ready;
  assign tx_fire = l1_req_fire;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int i = 0; i < 32'(NCNT); i++) cnt_q[i] <= '0;
    end else begin
      if (req_new) begin
        if (a_space_q == SP_LOCAL) begin
          if (a_st_q) cnt_q[wg_sm_pkg::MC_LOCAL_ST_REQ] <= cnt_q[wg_sm_pkg::MC_LOCAL_ST_REQ] + 32'd1;
          else        cnt_q[wg_sm_pkg::MC_LOCAL_LD_REQ] <= cnt_q[wg_sm_pkg::MC_LOCAL_LD_REQ] + 32'd1;
        end else if (a_atom_q) cnt_q[wg_sm_pkg::MC_ATOM_COUNT] <= cnt_q[wg_sm_pkg::MC_ATOM_COUNT] + 32'd1;
        else if (a_st_q) cnt_q[wg_sm_pkg::MC_GST_REQ] <= cnt_q[wg_sm_pkg::MC_GST_REQ] + 32'd1;
        else cnt_q[wg_sm_pkg::MC_GLD_REQ] <= cnt_q[wg_sm_pkg::MC_GLD_REQ] + 32'd1;
      end
      if (tx_fire) begin
        if (a_space_q == SP_LOCAL) begin
          if (a_st_q) cnt_q[wg_sm_pkg::MC_LOCAL_ST_TX] <= cnt_q[wg_sm_pkg::MC_LOCAL_ST_TX] + 32'd1;
          else        cnt_q[wg_sm_pkg::MC_LOCAL_LD_TX] <= cnt_q[wg_sm_pkg::MC_LOCAL_LD_TX] + 32'd1;
        end else if (a_atom_q) cnt_q[wg_sm_pkg::MC_ATOM_TX] <= cnt_q[wg_sm_pkg::MC_ATOM_TX] + 32'd1;
        else if (a_st_q) cnt_q[wg_sm_pkg::MC_GST_TX] <= cnt_q[wg_sm_pkg::MC_GST_TX] + 32'd1;
        else cnt_q[wg_sm_pkg::MC_GLD_TX] <= cnt_q[wg_sm_pkg::MC_GLD_TX] + 32'd1;
      end
      if (sm_out_valid) begin
        if (a_atom_q) begin
          cnt_q[wg_sm_pkg::MC_SHARED_ATOM_TX] <= cnt_q[wg_sm_pkg::MC_SHARED_ATOM_TX] + 32'(sm_passes);
        end else if (a_st_q) begin
          cnt_q[wg_sm_pkg::MC_SHARED_ST_REQ] <= cnt_q[wg_sm_pkg::MC_SHARED_ST_REQ] + 32'd1;
          cnt_q[wg_sm_pkg::MC_SHARED_ST_TX]  <= cnt_q[wg_sm_pkg::MC_SHARED_ST_TX] + 32'(sm_passes);
        end else begin
          cnt_q[wg_sm_pkg::MC_SHARED_LD_REQ] <= cnt_q[wg_sm_pkg::MC_SHARED_LD_REQ] + 32'd1;
          cnt_q[wg_sm_pkg::MC_SHARED_LD_TX]  <= cnt_q[wg_sm_pkg::MC_SHARED_LD_TX] + 32'(sm_passes);
        end
      end
      if (a_q == A_CHECK && !f_any && a_exec_q != '0 && a_space_q == SP_PARAM)
        cnt_q[wg_sm_pkg::MC_LDC_REQ] <= cnt_q[wg_sm_pkg::MC_LDC_REQ] + 32'd1;
      // L1 look-ups, counted as they are answered.
      if (rsp_valid && rsp_cached) begin
        if (!rsp_local) begin
          if (rsp_hit) cnt_q[wg_sm_pkg::MC_L1_GLD_HIT]  <= cnt_q[wg_sm_pkg::MC_L1_GLD_HIT] + 32'd1;
          else         cnt_q[wg_sm_pkg::MC_L1_GLD_MISS] <= cnt_q[wg_sm_pkg::MC_L1_GLD_MISS] + 32'd1;
        end else if (rsp_store) begin
          if (rsp_hit) cnt_q[wg_sm_pkg::MC_L1_LST_HIT]  <= cnt_q[wg_sm_pkg::MC_L1_LST_HIT] + 32'd1;
          else         cnt_q[wg_sm_pkg::MC_L1_LST_MISS] <= cnt_q[wg_sm_pkg::MC_L1_LST_MISS] + 32'd1;
        end else begin
          if (rsp_hit) cnt_q[wg_sm_pkg::MC_L1_LLD_HIT]  <= cnt_q[wg_sm_pkg::MC_L1_LLD_HIT] + 32'd1;
          else         cnt_q[wg_sm_pkg::MC_L1_LLD_MISS] <= cnt_q[wg_sm_pkg::MC_L1_LLD_MISS] + 32'd1;
        end
      end
      if (l1_wb_p)    cnt_q[wg_sm_pkg::MC_L1_WB]    <= cnt_q[wg_sm_pkg::MC_L1_WB] + 32'd1;
      if (l1_merge_p) cnt_q[wg_sm_pkg::MC_L1_MERGE] <= cnt_q[wg_sm_pkg::MC_L1_MERGE] + 32'd1;
      if (mreq_valid_o && mreq_ready_i) begin
        cnt_q[wg_sm_pkg::MC_MEM_REQ] <= cnt_q[wg_sm_pkg::MC_MEM_REQ] + 32'd1;
        if (mreq_cmd_o == 2'd0)
          cnt_q[wg_sm_pkg::MC_MEM_RD_BYTES] <= cnt_q[wg_sm_pkg::MC_MEM_RD_BYTES] + (32'd1 << mreq_size_o);
        else if (mreq_cmd_o == 2'd1)
          cnt_q[wg_sm_pkg::MC_MEM_WR_BYTES] <= cnt_q[wg_sm_pkg::MC_MEM_WR_BYTES] + 32'($countones(mreq_wmask_o));
      end
    end
  end
  always_comb begin
    for (int i = 0; i < 32'(NCNT); i++) cnt_mem_o[i*32 +: 32] = cnt_q[i];
  end

  assign idle_o = (a_q == A_IDLE) && slot_busy_q == '0 && tag_busy_q == '0 && !l1_busy;

  if (LSU_LANES == 0 || 32 % LSU_LANES != 0) begin : g_bad_lanes
    $error("wg_lsu: LSU_LANES must be 1, 2, 4, 8, 16 or 32");
  end

  logic unused_ok;
  assign unused_ok = ^{au, arb_gnt, threads_i[31:THR_W], l1_hit_p, l1_miss_p, l1_cnt_local, l1_cnt_write, sl_local_q[0], a_ld_q};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (rsp_valid) assert (tag_busy_q[rsp_tag]) else $error("wg_lsu: response to a free tag");
      if (rp_done) assert (sl_pend_q[rp_slot] != '0) else $error("wg_lsu: response to a slot with none pending");
      if (accept) assert (a_q == A_IDLE) else $error("wg_lsu: accept while the AGU is busy");
      // The port holds the instruction until its last lane group is copied.
      if (a_q == A_COPY || a_q == A_AGU) assert (in_valid_i[a_cl_q])
        else $error("wg_lsu: port %0d dropped its instruction during the operand copy", a_cl_q);
    end
  end
`endif

endmodule
