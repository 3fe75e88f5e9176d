// wg_lsu: load/store unit (docs/sm-pipeline.md, docs/sm.md sections 2.3 and 4).
//
// A simple first version: one instruction at a time in the address stage
// (AGU), one access per cycle, in ascending lane order:
//   global   one memory-port request per active thread (any size)
//   local    one request per thread and 4-byte word, at the interleaved
//            device address of docs/sm.md section 4
//   shared   the SM's shared memory (a RAM of 16-byte rows: one thread's
//            access, up to 16 bytes, per cycle); atomics read in one cycle
//            and write in the next
//   param    the parameter store (a RAM, one word per cycle)
// LDC and LDS with RZ as base read once and broadcast. Alignment and window
// checks raise faults (the lanes before the faulting one took effect).
// Loads and atomics wait in one of SLOTS result slots for their responses
// (responses may come in any order: a tag table names slot, lane and word);
// a completed slot writes back one register row per beat through its
// scheduler's register-file write port and retires the beat. Stores retire
// when their requests are sent; the per-warp count of outstanding requests
// serves MEMBAR and CTA completion.
`default_nettype none

module wg_lsu #(
  parameter int unsigned NUM_WARPS  = 48,
  parameter int unsigned NUM_SIMD   = 2,
  parameter int unsigned NUM_CTAS   = 8,
  parameter int unsigned SMEM_BYTES = 49152,
  parameter int unsigned CMEM_BYTES = 4096,
  parameter int unsigned MEM_BYTES  = 128,
  parameter int unsigned MEM_TAG_W  = 8,
  parameter int unsigned SLOTS      = 4,
  parameter bit          RETIRE_EN  = 1'b1,
  parameter bit          HAS_FP     = 1'b1,   // FP32 adder for ATOMS.ADD.F32
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1,
  parameter int unsigned CTA_W  = (NUM_CTAS > 1) ? $clog2(NUM_CTAS) : 1,
  parameter int unsigned UOP_W  = wg_sm_pkg::UOP_W,
  parameter int unsigned RM_W   = wg_sm_pkg::RMETA_W,
  parameter int unsigned SW_W   = $clog2(SMEM_BYTES / 16),
  parameter int unsigned CW_W   = $clog2(CMEM_BYTES / 4)
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

  // Parameter store write, shared-memory clear (launch; has priority).
  input  wire logic                          cmem_we_i,
  input  wire logic [CW_W-1:0]               cmem_addr_i,
  input  wire logic [31:0]                   cmem_wdata_i,
  input  wire logic                          sclr_valid_i,
  input  wire logic [SW_W-1:0]               sclr_addr_i,

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

  output logic [31:0]                        cnt_mreq_o,
  output logic [31:0]                        cnt_smem_o
);

  localparam int unsigned SL_W   = (SLOTS > 1) ? $clog2(SLOTS) : 1;
  localparam int unsigned NTAGS  = 1 << MEM_TAG_W;
  localparam int unsigned OFF_W  = $clog2(MEM_BYTES);
  localparam int unsigned SIMD_W = (NUM_SIMD > 1) ? $clog2(NUM_SIMD) : 1;
  localparam logic [5:0]  RZ     = wg_isa_pkg::REG_RZ;

  // Space of an instruction.
  localparam logic [1:0] SP_GLOBAL = 2'd0, SP_SHARED = 2'd1, SP_LOCAL = 2'd2, SP_PARAM = 2'd3;

  // ---------------------------------------------------------------------------
  // Input arbitration and the AGU instruction.
  // ---------------------------------------------------------------------------
  logic                 agu_busy_q, agu_take;
  logic [SLOTS-1:0]     slot_busy_q;
  logic                 slot_free;
  logic [SL_W-1:0]      free_slot;
  logic                 faulted_q;

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

  logic              arb_valid;
  logic [NUM_SIMD-1:0] arb_gnt;
  logic [SIMD_W-1:0] arb_idx;
  assign agu_take = !agu_busy_q && slot_free && !faulted_q;

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
  // A .128 store arrives as two instructions of one scheduler (wg_exec_pipe
  // reads its operands twice): the first takes the AGU and a slot, the
  // second (the next LSU instruction of that scheduler) brings rc+2, rc+3.
  logic              a_wait2_q, accept2;
  logic [SIMD_W-1:0] a_cl_q;
  logic [1023:0]     a_rd_q, a_re_q;
  logic              in_st128;
  always_comb begin
    in_ready_o = agu_take ? arb_gnt : '0;
    if (a_wait2_q) in_ready_o[a_cl_q] = 1'b1;
  end
  assign accept2 = a_wait2_q && in_valid_i[a_cl_q];

  logic accept;
  assign accept = arb_valid && agu_take;

  wg_sm_pkg::uop_t   au, in_u;
  logic [WARP_W-1:0] a_warp_q;
  logic [31:0]       a_active_q, a_exec_q, rem_q;
  logic [15:0]       a_seq_q;
  logic [1023:0]     a_ra_q, a_rb_q, a_rc_q;
  logic [SL_W-1:0]   a_slot_q;
  logic [1:0]        a_space_q;
  logic              a_ld_q, a_st_q, a_atom_q, a_bcast_q;
  logic [4:0]        a_bytes_q;
  logic [1:0]        a_word_q;        // word of the current lane (local, shared, param)
  logic              a_aphase_q;      // shared atomic: write phase
  logic [31:0]       a_sbase_q;       // shared window base (bytes)
  logic [31:0]       a_gtid0_q;       // global thread id of lane 0 (local memory)
  logic [UOP_W-1:0]  au_q;
  logic [WARP_W-1:0] in_w;
  logic [CTA_W-1:0]  in_cta;

  assign au     = au_q;
  assign in_u   = in_uop_i[arb_idx*UOP_W +: UOP_W];
  assign in_w   = in_warp_i[arb_idx*WARP_W +: WARP_W];
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

  // ---------------------------------------------------------------------------
  // AGU: the current unit (lane, word).
  // ---------------------------------------------------------------------------
  logic [4:0]  lane;
  logic [31:0] lane_bit;
  always_comb begin
    lane = '0;
    for (int l = 31; l >= 0; l--) if (rem_q[l]) lane = 5'(l);
  end
  assign lane_bit = 32'd1 << lane;

  logic [31:0] ra_l, rb_l, rc_l, addr, waddr;
  logic [2:0]  nwords;
  logic        last_word, misaligned, out_window;
  logic [32:0] end_addr;
  assign ra_l = a_ra_q[lane*32 +: 32];
  assign rb_l = a_rb_q[lane*32 +: 32];
  assign rc_l = a_rc_q[lane*32 +: 32];
  assign addr = a_atom_q ? ra_l : ra_l + au.imm;
  assign nwords = (a_space_q == SP_GLOBAL || a_space_q == SP_SHARED || a_bytes_q <= 5'd4) ? 3'd1 :
                  3'(a_bytes_q >> 2);
  assign last_word = ({1'b0, a_word_q} == nwords - 3'd1);
  assign misaligned = (addr & (32'(a_bytes_q) - 32'd1)) != '0;
  assign end_addr = {1'b0, addr} + 33'(a_bytes_q);
  always_comb begin
    case (a_space_q)
      SP_SHARED: out_window = end_addr > {1'b0, smem_cta_i};
      SP_LOCAL:  out_window = end_addr > {1'b0, local_bytes_i};
      SP_PARAM:  out_window = end_addr > {1'b0, param_bytes_i};
      default:   out_window = 1'b0;
    endcase
  end
  assign waddr = addr + {27'd0, a_word_q, 2'b00};   // byte address of the current word

  // Local device address of the current word.
  logic [31:0] loc_addr;
  assign loc_addr = local_base_i + (waddr >> 2) * (total_threads_i << 2) + ((a_gtid0_q + 32'(lane)) << 2) +
                    {30'd0, waddr[1:0]};

  // Store data of the current lane: up to 16 bytes (.64: rc, rc+1 in rows B, C;
  // .128: rc+2, rc+3 from the second operand read).
  logic [31:0]  rd_l, re_l;
  logic [127:0] st_val;
  assign rd_l   = a_rd_q[lane*32 +: 32];
  assign re_l   = a_re_q[lane*32 +: 32];
  assign st_val = (a_bytes_q == 5'd16) ? {re_l, rd_l, rc_l, rb_l} : {64'd0, rc_l, rb_l};

  // Tag allocation.
  logic [NTAGS-1:0]     tag_busy_q;
  logic [MEM_TAG_W-1:0] tag_next_q;
  logic                 tag_ok, mreq_free;
  assign tag_ok    = !tag_busy_q[tag_next_q];
  assign mreq_free = !mreq_valid_o || mreq_ready_i;

  // Shared memory and parameter store.
  logic              smem_we, smem_re, cmem_re;
  logic [SW_W-1:0]   smem_waddr, smem_raddr;
  logic [127:0]      smem_wdata, smem_rdata;
  logic [31:0]       cmem_rdata;
  logic [15:0]       smem_be;

  // The unit's action this cycle.
  logic unit_go, unit_fault, need_mem, is_mem_space, f_atom;
  logic f_launch, f_valid, f_busy_q, f_have_q;
  logic [3:0] fcode;
  assign is_mem_space = (a_space_q == SP_GLOBAL) || (a_space_q == SP_LOCAL);
  always_comb begin
    fcode = '0;
    if (misaligned) fcode = wg_sm_pkg::FAULT_ALIGN;
    else if (out_window) begin
      case (a_space_q)
        SP_SHARED: fcode = wg_sm_pkg::FAULT_SHARED;
        SP_LOCAL:  fcode = wg_sm_pkg::FAULT_LOCAL;
        default:   fcode = wg_sm_pkg::FAULT_PARAM;
      endcase
    end
  end
  assign unit_fault = agu_busy_q && !a_wait2_q && rem_q != '0 && fcode != '0 && !faulted_q;
  assign need_mem   = is_mem_space;
  always_comb begin
    unit_go = agu_busy_q && !a_wait2_q && rem_q != '0 && fcode == '0 && !faulted_q;
    if (need_mem && !(mreq_free && tag_ok)) unit_go = 1'b0;
    if (f_atom && a_aphase_q && !f_have_q) unit_go = 1'b0;
    if (a_space_q == SP_SHARED && (a_st_q || (a_atom_q && a_aphase_q)) && sclr_valid_i) unit_go = 1'b0;
  end

  // Does this unit finish the lane (and the lane the instruction)?
  logic lane_done, instr_done;
  always_comb begin
    if (a_space_q == SP_SHARED && a_atom_q) lane_done = a_aphase_q;
    else if (a_space_q == SP_GLOBAL) lane_done = 1'b1;
    else lane_done = last_word;
  end
  assign instr_done = unit_go && lane_done && ((rem_q & ~lane_bit) == '0 || a_bcast_q);

  // Shared-memory access of the unit.
  logic [SW_W-1:0] s_word;
  logic [31:0]     s_byte;
  assign s_byte = a_sbase_q + waddr;
  assign s_word = SW_W'(s_byte >> 4);

  // Atomic function (shared atomics; global ones execute outside).
  logic [3:0]  a_aop;
  logic [31:0] s_old, s_new;
  assign s_old = 32'(smem_rdata >> (8 * s_byte[3:0]));   // read in the previous unit; the RAM holds it
  assign a_aop = {(au.op == wg_isa_pkg::OP_ATOMGX || au.op == wg_isa_pkg::OP_ATOMSX), au.mod};

  // ATOMS.ADD.F32: in the write phase, old + b goes through the FP32 multiply-add
  // (old x 1.0 + b, as FADD in the lanes); the write waits for its result.
  logic [31:0] f_result, f_res_q;
  assign f_atom   = a_space_q == SP_SHARED && a_atom_q && a_aop == 4'd12;
  assign f_launch = agu_busy_q && !a_wait2_q && rem_q != '0 && fcode == '0 && !faulted_q &&
                    f_atom && a_aphase_q && !f_busy_q && !f_have_q;
  if (HAS_FP) begin : g_fadd
    wg_fp32_fma u_fadd (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .valid_i  (f_launch),
      .a_i      (s_old),
      .b_i      (32'h3F80_0000),
      .c_i      (rb_l),
      .valid_o  (f_valid),
      .result_o (f_result)
    );
  end else begin : g_no_fadd
    assign f_valid  = 1'b0;
    assign f_result = '0;
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_busy_q <= 1'b0;
      f_have_q <= 1'b0;
    end else begin
      if (f_launch) f_busy_q <= 1'b1;
      if (f_valid) begin
        f_busy_q <= 1'b0;
        f_have_q <= 1'b1;
      end
      if (unit_go && f_atom && a_aphase_q) f_have_q <= 1'b0;
    end
    if (f_valid) f_res_q <= f_result;
  end
  always_comb begin
    case (a_aop)
      4'd0:  s_new = s_old + rb_l;
      4'd1:  s_new = ($signed(s_old) < $signed(rb_l)) ? s_old : rb_l;
      4'd2:  s_new = ($signed(s_old) > $signed(rb_l)) ? s_old : rb_l;
      4'd3:  s_new = rb_l;
      4'd4:  s_new = (s_old == rb_l) ? rc_l : s_old;
      4'd5:  s_new = s_old & rb_l;
      4'd6:  s_new = s_old | rb_l;
      4'd7:  s_new = s_old ^ rb_l;
      4'd8:  s_new = (s_old < rb_l) ? s_old : rb_l;
      4'd9:  s_new = (s_old > rb_l) ? s_old : rb_l;
      4'd10: s_new = (s_old >= rb_l) ? 32'd0 : s_old + 32'd1;
      4'd11: s_new = (s_old == 32'd0 || s_old > rb_l) ? rb_l : s_old - 32'd1;
      4'd12: s_new = f_res_q;
      default: s_new = s_old;
    endcase
  end

  always_comb begin
    smem_we    = 1'b0;
    smem_waddr = s_word;
    smem_wdata = '0;
    smem_be    = '0;
    smem_re    = 1'b0;
    smem_raddr = s_word;
    cmem_re    = 1'b0;
    if (sclr_valid_i) begin
      smem_we    = 1'b1;
      smem_waddr = sclr_addr_i;
      smem_be    = '1;
    end else if (unit_go && a_space_q == SP_SHARED) begin
      if (a_st_q) begin
        smem_we    = 1'b1;
        smem_be    = 16'((32'd1 << a_bytes_q) - 32'd1) << s_byte[3:0];
        smem_wdata = st_val << (8 * s_byte[3:0]);
      end else if (a_atom_q && a_aphase_q) begin
        smem_we    = 1'b1;
        smem_be    = 16'hF << s_byte[3:0];
        smem_wdata = {96'd0, s_new} << (8 * s_byte[3:0]);
      end
    end
    if (unit_go && a_space_q == SP_SHARED && (a_ld_q || (a_atom_q && !a_aphase_q))) smem_re = 1'b1;
    if (unit_go && a_space_q == SP_PARAM) cmem_re = 1'b1;
  end

  wg_ram_1r1w #(.DEPTH(SMEM_BYTES / 16), .WIDTH(128), .EN_GRAIN(8)) u_smem (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (smem_we),
    .waddr_i (smem_waddr),
    .wdata_i (smem_wdata),
    .wbe_i   (smem_be),
    .re_i    (smem_re),
    .raddr_i (smem_raddr),
    .rdata_o (smem_rdata)
  );

  wg_ram_1r1w #(.DEPTH(CMEM_BYTES / 4), .WIDTH(32)) u_cmem (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (cmem_we_i),
    .waddr_i (cmem_addr_i),
    .wdata_i (cmem_wdata_i),
    .wbe_i   (1'b1),
    .re_i    (cmem_re),
    .raddr_i (CW_W'(waddr >> 2)),
    .rdata_o (cmem_rdata)
  );

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

  // Read pipeline of shared / param loads (and shared atomic reads).
  logic            rdp_valid_q, rdp_shared_q, rdp_bcast_q, rdp_atom_q;
  logic [SL_W-1:0] rdp_slot_q;
  logic [4:0]      rdp_lane_q;
  logic [1:0]      rdp_word_q;
  logic [3:0]      rdp_off_q;
  logic [2:0]      rdp_mod_q;
  logic [127:0]    rdp_raw;
  logic [31:0]     rdp_val;
  assign rdp_raw = rdp_shared_q ? (smem_rdata >> (8 * rdp_off_q)) : {96'd0, cmem_rdata >> (8 * rdp_off_q[1:0])};
  assign rdp_val = (rdp_word_q == 2'd0) ? ext(rdp_raw[31:0], rdp_mod_q) : rdp_raw[31:0];

  // ---------------------------------------------------------------------------
  // Slots and result rows.
  // ---------------------------------------------------------------------------
  logic [1023:0]     res_q [SLOTS*4];
  logic [WARP_W-1:0] sl_warp_q   [SLOTS];
  logic [31:0]       sl_active_q [SLOTS];
  logic [31:0]       sl_exec_q   [SLOTS];
  logic [15:0]       sl_seq_q    [SLOTS];
  logic [17:0]       sl_pc_q     [SLOTS];
  logic [5:0]        sl_rd_q     [SLOTS];
  logic [2:0]        sl_nwr_q    [SLOTS];
  logic [2:0]        sl_mod_q    [SLOTS];
  logic [7:0]        sl_pend_q   [SLOTS];   // requests without response (loads, atomics)
  logic [SLOTS-1:0]  sl_agu_done_q;

  // Tag table: {slot, lane, word, offset, one word only (local), store, warp}.
  localparam int unsigned TT_W = SL_W + 5 + 2 + OFF_W + 2 + WARP_W;
  logic [TT_W-1:0] tt_q [NTAGS];

  // Response.
  logic              rsp_fire;
  logic [TT_W-1:0]   rsp_e;
  logic [SL_W-1:0]   rsp_slot;
  logic [4:0]        rsp_lane;
  logic [1:0]        rsp_word;
  logic [OFF_W-1:0]  rsp_off;
  logic              rsp_store, rsp_single;
  logic [WARP_W-1:0] rsp_warp;
  logic [127:0]      rsp_blk;
  assign mrsp_ready_o = 1'b1;
  assign rsp_fire = mrsp_valid_i;
  assign rsp_e = tt_q[mrsp_tag_i];
  assign {rsp_slot, rsp_lane, rsp_word, rsp_off, rsp_single, rsp_store, rsp_warp} = rsp_e;
  assign rsp_blk = 128'(mrsp_rdata_i >> (8 * rsp_off));

  // ---------------------------------------------------------------------------
  // Write-back of completed slots.
  // ---------------------------------------------------------------------------
  logic [SLOTS-1:0] sl_complete;
  always_comb begin
    for (int s = 0; s < 32'(SLOTS); s++) begin
      sl_complete[s] = slot_busy_q[s] && sl_agu_done_q[s] && sl_pend_q[s] == '0 &&
                       !(rdp_valid_q && rdp_slot_q == SL_W'(s));
    end
  end

  logic            wb_busy_q;
  logic [SL_W-1:0] wb_slot_q;
  logic [1:0]      wb_beat_q;
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
  assign lwb_data_o = res_q[32'(wb_slot_q)*4 + 32'(wb_beat_q)];

  assign ret_valid_o = wb_busy_q && (!wb_rf || lwb_ready_i[wb_cl]);
  assign wb_fire     = ret_valid_o && ret_ready_i;
  assign ret_meta_o  = {wb_last, wb_beat_q, (wb_rf ? lwb_reg_o : 6'd0), (wb_rf ? 2'd1 : 2'd0),
                        sl_exec_q[wb_slot_q], sl_active_q[wb_slot_q], sl_pc_q[wb_slot_q],
                        sl_seq_q[wb_slot_q], 6'(wb_warp)};
  assign ret_data_o  = (RETIRE_EN && wb_rf) ? lwb_data_o : '0;

  // ---------------------------------------------------------------------------
  // Memory request.
  // ---------------------------------------------------------------------------
  logic mreq_go;
  assign mreq_go = unit_go && need_mem;

  logic [31:0]  r_addr;
  logic [2:0]   r_size;
  logic [127:0] r_val;
  logic [15:0]  r_bmask;
  logic [1:0]   r_cmd;
  always_comb begin
    if (a_space_q == SP_LOCAL) begin
      r_addr  = loc_addr;
      r_size  = (a_bytes_q >= 5'd4) ? 3'd2 : (a_bytes_q == 5'd2) ? 3'd1 : 3'd0;
      r_val   = {96'd0, 32'(st_val >> (32 * a_word_q))};
    end else begin
      r_addr  = addr;
      r_size  = (a_bytes_q == 5'd16) ? 3'd4 : (a_bytes_q == 5'd8) ? 3'd3 : (a_bytes_q == 5'd4) ? 3'd2 :
                (a_bytes_q == 5'd2) ? 3'd1 : 3'd0;
      r_val   = st_val;
    end
    r_bmask = 16'((32'd1 << (32'd1 << r_size)) - 32'd1);
    r_cmd   = a_atom_q ? 2'd2 : a_st_q ? 2'd1 : 2'd0;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mreq_valid_o <= 1'b0;
    end else begin
      if (mreq_go) mreq_valid_o <= 1'b1;
      else if (mreq_ready_i) mreq_valid_o <= 1'b0;
    end
    if (mreq_go) begin
      mreq_tag_o     <= tag_next_q;
      mreq_cmd_o     <= r_cmd;
      mreq_addr_o    <= r_addr;
      mreq_size_o    <= r_size;
      mreq_wmask_o   <= a_st_q ? (MEM_BYTES'(r_bmask) << r_addr[OFF_W-1:0]) : '0;
      mreq_wdata_o   <= a_st_q ? ((8*MEM_BYTES)'(r_val) << (8 * r_addr[OFF_W-1:0])) : '0;
      mreq_atom_op_o <= a_aop;
      mreq_atom_b_o  <= rb_l;
      mreq_atom_c_o  <= rc_l;
      mreq_local_o   <= (a_space_q == SP_LOCAL);
      mreq_warp_o    <= 6'(a_warp_q);
      mreq_pc_o      <= au.pc;
      mreq_lane_o    <= lane;
      tt_q[tag_next_q] <= {a_slot_q, lane, a_word_q, r_addr[OFF_W-1:0], a_space_q == SP_LOCAL, a_st_q, a_warp_q};
    end
  end

  // ---------------------------------------------------------------------------
  // Per-warp outstanding requests.
  // ---------------------------------------------------------------------------
  logic [9:0] memout_q [NUM_WARPS];
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int i = 0; i < 32'(NUM_WARPS); i++) memout_q[i] <= '0;
    end else begin
      if (mreq_go && !(rsp_fire && rsp_warp == a_warp_q)) memout_q[a_warp_q] <= memout_q[a_warp_q] + 10'd1;
      if (rsp_fire && !(mreq_go && rsp_warp == a_warp_q)) memout_q[rsp_warp] <= memout_q[rsp_warp] - 10'd1;
    end
  end
  always_comb begin
    for (int i = 0; i < 32'(NUM_WARPS); i++) memzero_o[i] = (memout_q[i] == '0);
  end

  // ---------------------------------------------------------------------------
  // State.
  // ---------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      agu_busy_q    <= 1'b0;
      a_wait2_q     <= 1'b0;
      slot_busy_q   <= '0;
      sl_agu_done_q <= '0;
      tag_busy_q    <= '0;
      tag_next_q    <= '0;
      rdp_valid_q   <= 1'b0;
      wb_busy_q     <= 1'b0;
      faulted_q     <= 1'b0;
      fault_o       <= 1'b0;
      cnt_mreq_o    <= '0;
      cnt_smem_o    <= '0;
      for (int s = 0; s < 32'(SLOTS); s++) sl_pend_q[s] <= '0;
    end else begin
      fault_o <= unit_fault;
      if (unit_fault) faulted_q <= 1'b1;
      // Accept an instruction into the AGU and a slot.
      if (accept) begin
        agu_busy_q              <= 1'b1;
        slot_busy_q[free_slot]  <= 1'b1;
        sl_agu_done_q[free_slot] <= 1'b0;
      end
      if (instr_done) begin
        agu_busy_q <= 1'b0;
        sl_agu_done_q[a_slot_q] <= 1'b1;
      end
      // The second operand read of a .128 store.
      if (accept) a_wait2_q <= in_st128;
      if (accept2) a_wait2_q <= 1'b0;
      // An instruction with no active lane is done at once.
      if (agu_busy_q && !a_wait2_q && rem_q == '0 && !faulted_q) begin
        agu_busy_q <= 1'b0;
        sl_agu_done_q[a_slot_q] <= 1'b1;
      end
      // Tags.
      if (mreq_go) begin
        tag_busy_q[tag_next_q] <= 1'b1;
        tag_next_q <= tag_next_q + 1'b1;
        cnt_mreq_o <= cnt_mreq_o + 32'd1;
      end
      if (rsp_fire) tag_busy_q[mrsp_tag_i] <= 1'b0;
      if (unit_go && !need_mem) cnt_smem_o <= cnt_smem_o + 32'd1;
      // Slot pending counts.
      for (int s = 0; s < 32'(SLOTS); s++) begin
        logic [7:0] p;
        p = sl_pend_q[s];
        if (mreq_go && !a_st_q && a_slot_q == SL_W'(s)) p = p + 8'd1;
        if (rsp_fire && !rsp_store && rsp_slot == SL_W'(s)) p = p - 8'd1;
        sl_pend_q[s] <= p;
      end
      // Read pipeline.
      rdp_valid_q <= unit_go && ((a_space_q == SP_SHARED && (a_ld_q || (a_atom_q && !a_aphase_q))) ||
                                 a_space_q == SP_PARAM);
      // Write-back.
      if (!wb_busy_q && wb_pick) begin
        wb_busy_q <= 1'b1;
        wb_slot_q <= wb_pick_slot;
        wb_beat_q <= '0;
      end
      if (wb_fire) begin
        if (wb_last) begin
          wb_busy_q <= 1'b0;
          slot_busy_q[wb_slot_q] <= 1'b0;
          sl_agu_done_q[wb_slot_q] <= 1'b0;
        end else begin
          wb_beat_q <= wb_beat_q + 2'd1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (accept) begin
      au_q       <= in_u;
      a_warp_q   <= in_w;
      a_active_q <= in_active_i[arb_idx*32 +: 32];
      a_exec_q   <= in_exec_i[arb_idx*32 +: 32];
      rem_q      <= in_exec_i[arb_idx*32 +: 32];
      a_seq_q    <= in_seq_i[arb_idx*16 +: 16];
      a_ra_q     <= in_rows_i[arb_idx*3072 +: 1024];
      a_rb_q     <= in_rows_i[arb_idx*3072 + 1024 +: 1024];
      a_rc_q     <= in_rows_i[arb_idx*3072 + 2048 +: 1024];
      a_slot_q   <= free_slot;
      a_cl_q     <= arb_idx;
      a_space_q  <= space_of(in_u.op);
      a_ld_q     <= (in_u.op >= wg_isa_pkg::OP_LDG && in_u.op <= wg_isa_pkg::OP_LDC);
      a_st_q     <= (in_u.op >= wg_isa_pkg::OP_STG && in_u.op <= wg_isa_pkg::OP_STL);
      a_atom_q   <= (in_u.op >= wg_isa_pkg::OP_ATOMG && in_u.op <= wg_isa_pkg::OP_ATOMSX);
      a_bcast_q  <= (in_u.op == wg_isa_pkg::OP_LDC || in_u.op == wg_isa_pkg::OP_LDS) && in_u.ra == RZ;
      a_bytes_q  <= (in_u.op >= wg_isa_pkg::OP_ATOMG) ? 5'd4 : wg_isa_pkg::width_bytes(in_u.mod);
      a_word_q   <= '0;
      a_aphase_q <= 1'b0;
      a_sbase_q  <= 32'(in_cta) * ((smem_cta_i + 32'd15) & ~32'd15);
      a_gtid0_q  <= cta_linear_i[in_cta*32 +: 32] * threads_i + 32'(warp_wic_i[in_w*5 +: 5]) * 32'd32;
      sl_warp_q[free_slot]   <= in_w;
      sl_active_q[free_slot] <= in_active_i[arb_idx*32 +: 32];
      sl_exec_q[free_slot]   <= in_exec_i[arb_idx*32 +: 32];
      sl_seq_q[free_slot]    <= in_seq_i[arb_idx*16 +: 16];
      sl_pc_q[free_slot]     <= in_u.pc;
      sl_rd_q[free_slot]     <= in_u.rd;
      sl_nwr_q[free_slot]    <= in_u.nwr;
      sl_mod_q[free_slot]    <= (in_u.op >= wg_isa_pkg::OP_ATOMG) ? wg_isa_pkg::W_32 : in_u.mod;
    end else if (unit_go) begin
      // Advance (lane, word).
      if (a_space_q == SP_SHARED && a_atom_q) begin
        a_aphase_q <= !a_aphase_q;
        if (a_aphase_q) rem_q <= rem_q & ~lane_bit;
      end else if (lane_done) begin
        a_word_q <= '0;
        rem_q    <= a_bcast_q ? '0 : (rem_q & ~lane_bit);
      end else begin
        a_word_q <= a_word_q + 2'd1;
      end
    end
    if (accept2) begin
      a_rd_q <= in_rows_i[a_cl_q*3072 + 1024 +: 1024];
      a_re_q <= in_rows_i[a_cl_q*3072 + 2048 +: 1024];
    end
    // Read pipeline stage.
    rdp_shared_q <= (a_space_q == SP_SHARED);
    rdp_bcast_q  <= a_bcast_q;
    rdp_atom_q   <= a_atom_q;
    rdp_slot_q   <= a_slot_q;
    rdp_lane_q   <= lane;
    rdp_word_q   <= a_word_q;
    rdp_off_q    <= (a_space_q == SP_SHARED) ? s_byte[3:0] : {2'b00, waddr[1:0]};
    rdp_mod_q    <= au.mod;
    // Result rows: the read pipeline and a memory response.
    if (rdp_valid_q) begin
      for (int l = 0; l < 32; l++) begin
        if (rdp_bcast_q ? sl_exec_q[rdp_slot_q][l] : (5'(l) == rdp_lane_q)) begin
          if (rdp_shared_q) begin
            // One row holds the thread's whole access.
            res_q[32'(rdp_slot_q)*4][l*32 +: 32]     <= rdp_atom_q ? rdp_raw[31:0] : ext(rdp_raw[31:0], rdp_mod_q);
            res_q[32'(rdp_slot_q)*4 + 1][l*32 +: 32] <= rdp_raw[63:32];
            res_q[32'(rdp_slot_q)*4 + 2][l*32 +: 32] <= rdp_raw[95:64];
            res_q[32'(rdp_slot_q)*4 + 3][l*32 +: 32] <= rdp_raw[127:96];
          end else begin
            res_q[32'(rdp_slot_q)*4 + 32'(rdp_word_q)][l*32 +: 32] <= rdp_val;
          end
        end
      end
    end
    if (rsp_fire && !rsp_store) begin
      if (rsp_word != 2'd0) begin
        res_q[32'(rsp_slot)*4 + 32'(rsp_word)][rsp_lane*32 +: 32] <= rsp_blk[31:0];
      end else if (rsp_single) begin
        res_q[32'(rsp_slot)*4][rsp_lane*32 +: 32] <= ext(rsp_blk[31:0], sl_mod_q[rsp_slot]);
      end else begin
        res_q[32'(rsp_slot)*4][rsp_lane*32 +: 32] <= ext(rsp_blk[31:0], sl_mod_q[rsp_slot]);
        res_q[32'(rsp_slot)*4 + 1][rsp_lane*32 +: 32] <= rsp_blk[63:32];
        res_q[32'(rsp_slot)*4 + 2][rsp_lane*32 +: 32] <= rsp_blk[95:64];
        res_q[32'(rsp_slot)*4 + 3][rsp_lane*32 +: 32] <= rsp_blk[127:96];
      end
    end
    fault_code_o <= fcode;
    fault_warp_o <= a_warp_q;
    fault_pc_o   <= au.pc;
    fault_lane_o <= lane;
    fault_addr_o <= addr;
  end

  assign idle_o = !agu_busy_q && slot_busy_q == '0 && tag_busy_q == '0 && !mreq_valid_o;

  logic unused_ok;
  assign unused_ok = ^{a_active_q, a_seq_q, a_exec_q, au};

endmodule
