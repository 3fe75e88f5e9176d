// wg_simt_stack: per-warp SIMT reconvergence stacks (docs/isa.md section 4).
//
// Each warp's stack top (pc, rpc, mask) lives in registers, the entries below
// it in one RAM of NUM_WARPS x STACK_DEPTH entries. A warp has at most one
// request outstanding (its fetch stops after a control instruction), so the
// requests are kept per warp and served one at a time by a small FSM in
// round-robin order:
//   ADV   pc + 1, then the reconvergence pop check (an instruction whose
//         successor is the stack top's rpc; BAR.SYNC after its release)
//   BRA   uniform / not taken / divergent (two pushes, the taken side on top)
//   EXIT  the lanes of the execution mask leave; empty entries are popped
// After every request: while the top's pc equals its rpc and an entry lies
// below, pop. Lanes that exited are kept in a per-warp mask and removed from
// every entry read back from the RAM, which gives the golden model's "remove
// the lanes from every entry" without walking the stack.
// The result is a resume (warp, pc: fetch restarts there) or, when no lane is
// left, a done. A request may be parked (BAR.SYNC: stored, served when the
// barrier releases the warp through release_i).
`default_nettype none

module wg_simt_stack #(
  parameter int unsigned NUM_WARPS   = 48,
  parameter int unsigned STACK_DEPTH = 64,    // entries per warp, top included; a power of two
  parameter int unsigned NUM_PORTS   = 2,
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1
) (
  input  wire logic                      clk_i,
  input  wire logic                      rst_ni,

  // Warp start (CTA launch): one entry (pc 0, no reconvergence, the warp's lanes).
  input  wire logic                      init_valid_i,
  input  wire logic [WARP_W-1:0]         init_warp_i,
  input  wire logic [31:0]               init_mask_i,

  // Requests from the issue stages (one per port and cycle, distinct warps).
  input  wire logic [NUM_PORTS-1:0]        req_valid_i,
  input  wire logic [NUM_PORTS*WARP_W-1:0] req_warp_i,
  input  wire logic [NUM_PORTS*2-1:0]      req_op_i,
  input  wire logic [NUM_PORTS-1:0]        req_park_i,
  input  wire logic [NUM_PORTS*18-1:0]     req_pc_i,
  input  wire logic [NUM_PORTS*32-1:0]     req_exec_i,
  input  wire logic [NUM_PORTS*18-1:0]     req_target_i,
  input  wire logic [NUM_PORTS*18-1:0]     req_reconv_i,

  // Barrier release: the parked requests of these warps become pending.
  input  wire logic [NUM_WARPS-1:0]      release_i,

  // Stack tops.
  output logic [NUM_WARPS*32-1:0]        act_o,
  output logic [NUM_WARPS*18-1:0]        rpc_o,

  output logic                           resume_valid_o,
  output logic [WARP_W-1:0]              resume_warp_o,
  output logic [17:0]                    resume_pc_o,
  output logic                           done_valid_o,
  output logic [WARP_W-1:0]              done_warp_o,

  output logic                           fault_o,        // overflow (one-cycle pulse)
  output logic [WARP_W-1:0]              fault_warp_o,
  output logic [17:0]                    fault_pc_o,
  output logic                           idle_o
);

  localparam int unsigned IDX_W  = $clog2(STACK_DEPTH);
  localparam int unsigned SP_W   = IDX_W + 1;
  localparam int unsigned ENT_W  = 18 + 18 + 32;
  localparam int unsigned RDEPTH = NUM_WARPS * STACK_DEPTH;
  localparam int unsigned RAW    = $clog2(RDEPTH);
  localparam logic [17:0] NONE   = wg_isa_pkg::RECONV_NONE;

  typedef enum logic [2:0] {S_IDLE, S_BRA_W2, S_EMPTY, S_EMPTY_WAIT, S_CHECK, S_CHECK_WAIT} state_e;

  // Per-warp state.
  logic [17:0]     top_pc_q   [NUM_WARPS];
  logic [17:0]     top_rpc_q  [NUM_WARPS];
  logic [31:0]     top_mask_q [NUM_WARPS];
  logic [SP_W-1:0] sp_q       [NUM_WARPS];   // entries below the top
  logic [31:0]     exited_q   [NUM_WARPS];
  // Per-warp request.
  logic [NUM_WARPS-1:0] pend_q;
  logic [1:0]      rq_op_q     [NUM_WARPS];
  logic [17:0]     rq_pc_q     [NUM_WARPS];
  logic [31:0]     rq_exec_q   [NUM_WARPS];
  logic [17:0]     rq_target_q [NUM_WARPS];
  logic [17:0]     rq_reconv_q [NUM_WARPS];

  state_e            state_q, state_d;
  logic [WARP_W-1:0] cw_q;                  // warp being served
  logic [ENT_W-1:0]  wr2_q;                 // second push of a divergent branch

  // Arbiter over pending requests.
  logic              arb_valid, arb_take;
  logic [NUM_WARPS-1:0] arb_gnt;
  logic [WARP_W-1:0] arb_idx;

  assign arb_take = (state_q == S_IDLE);

  wg_rr_arbiter #(.N(NUM_WARPS)) u_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (pend_q),
    .lock_i  (1'b0),
    .ready_i (arb_take),
    .valid_o (arb_valid),
    .gnt_o   (arb_gnt),
    .idx_o   (arb_idx)
  );

  // RAM.
  logic             ram_we, ram_re;
  logic [RAW-1:0]   ram_waddr, ram_raddr;
  logic [ENT_W-1:0] ram_wdata, ram_rdata;

  wg_ram_1r1w #(.DEPTH(RDEPTH), .WIDTH(ENT_W)) u_ram (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (ram_we),
    .waddr_i (ram_waddr),
    .wdata_i (ram_wdata),
    .wbe_i   (1'b1),
    .re_i    (ram_re),
    .raddr_i (ram_raddr),
    .rdata_o (ram_rdata)
  );

  function automatic logic [RAW-1:0] ram_addr(input logic [WARP_W-1:0] w, input logic [SP_W-1:0] idx);
    ram_addr = RAW'(32'(w) * STACK_DEPTH + (32'(idx) & (STACK_DEPTH - 1)));
  endfunction

  // Current warp's view.
  logic [WARP_W-1:0] w;
  logic [1:0]        c_op;
  logic [17:0]       c_pc, c_target, c_reconv, c_tpc, c_trpc;
  logic [31:0]       c_exec, c_mask, c_exited, pop_mask;
  logic [SP_W-1:0]   c_sp;

  assign w        = (state_q == S_IDLE) ? arb_idx : cw_q;
  assign c_op     = rq_op_q[w];
  assign c_pc     = rq_pc_q[w];
  assign c_exec   = rq_exec_q[w];
  assign c_target = rq_target_q[w];
  assign c_reconv = rq_reconv_q[w];
  assign c_tpc    = top_pc_q[w];
  assign c_trpc   = top_rpc_q[w];
  assign c_mask   = top_mask_q[w];
  assign c_sp     = sp_q[w];
  assign c_exited = exited_q[w];
  assign pop_mask = ram_rdata[31:0] & ~c_exited;

  // Top updates of the current warp (applied at the clock edge).
  logic              set_top, set_sp, set_exited, overflow;
  logic [17:0]       n_tpc, n_trpc;
  logic [31:0]       n_mask, n_exited;
  logic [SP_W-1:0]   n_sp;
  logic              resume, done;

  always_comb begin
    state_d    = state_q;
    set_top    = 1'b0;
    set_sp     = 1'b0;
    set_exited = 1'b0;
    n_tpc      = c_tpc;
    n_trpc     = c_trpc;
    n_mask     = c_mask;
    n_sp       = c_sp;
    n_exited   = c_exited;
    ram_we     = 1'b0;
    ram_waddr  = ram_addr(w, c_sp);
    ram_wdata  = '0;
    ram_re     = 1'b0;
    ram_raddr  = ram_addr(w, c_sp - 1'b1);
    resume     = 1'b0;
    done       = 1'b0;
    overflow   = 1'b0;
    unique case (state_q)
      S_IDLE: begin
        if (arb_valid) begin
          set_top = 1'b1;
          unique case (c_op)
            wg_sm_pkg::SIMT_BRA: begin
              if (c_exec == c_mask) begin
                n_tpc   = c_target;
                state_d = S_CHECK;
              end else if (c_exec == '0) begin
                n_tpc   = c_pc + 18'd1;
                state_d = S_CHECK;
              end else if (32'(c_sp) + 3 > STACK_DEPTH) begin
                overflow = 1'b1;
                set_top  = 1'b0;
                state_d  = S_IDLE;
              end else begin
                ram_we    = 1'b1;
                ram_wdata = {c_reconv, c_trpc, c_mask};
                n_tpc     = c_target;
                n_trpc    = c_reconv;
                n_mask    = c_exec;
                set_sp    = 1'b1;
                n_sp      = c_sp + SP_W'(2);
                state_d   = S_BRA_W2;
              end
            end
            wg_sm_pkg::SIMT_EXIT: begin
              set_exited = 1'b1;
              n_exited   = c_exited | c_exec;
              n_mask     = c_mask & ~c_exec;
              if ((c_mask & ~c_exec) != '0) begin
                n_tpc   = c_pc + 18'd1;
                state_d = S_CHECK;
              end else begin
                state_d = S_EMPTY;
              end
            end
            default: begin  // ADV
              n_tpc   = c_pc + 18'd1;
              state_d = S_CHECK;
            end
          endcase
        end
      end
      S_BRA_W2: begin
        ram_we    = 1'b1;
        ram_waddr = ram_addr(w, c_sp - 1'b1);
        ram_wdata = wr2_q;
        state_d   = S_CHECK;
      end
      S_EMPTY: begin
        if (c_sp == '0) begin
          done    = 1'b1;
          state_d = S_IDLE;
        end else begin
          ram_re  = 1'b1;
          state_d = S_EMPTY_WAIT;
        end
      end
      S_EMPTY_WAIT: begin
        set_top = 1'b1;
        set_sp  = 1'b1;
        n_tpc   = ram_rdata[67:50];
        n_trpc  = ram_rdata[49:32];
        n_mask  = pop_mask;
        n_sp    = c_sp - 1'b1;
        state_d = (pop_mask == '0) ? S_EMPTY : S_CHECK;
      end
      S_CHECK: begin
        if (c_tpc == c_trpc && c_sp != '0) begin
          ram_re  = 1'b1;
          state_d = S_CHECK_WAIT;
        end else begin
          resume  = 1'b1;
          state_d = S_IDLE;
        end
      end
      S_CHECK_WAIT: begin
        set_top = 1'b1;
        set_sp  = 1'b1;
        n_tpc   = ram_rdata[67:50];
        n_trpc  = ram_rdata[49:32];
        n_mask  = pop_mask;
        n_sp    = c_sp - 1'b1;
        state_d = (pop_mask == '0) ? S_EMPTY : S_CHECK;
      end
      default: state_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= S_IDLE;
      pend_q  <= '0;
      resume_valid_o <= 1'b0;
      done_valid_o   <= 1'b0;
      fault_o        <= 1'b0;
    end else begin
      state_q <= state_d;
      resume_valid_o <= resume;
      done_valid_o   <= done;
      fault_o        <= overflow;
      if (state_q == S_IDLE && arb_valid) pend_q[arb_idx] <= 1'b0;
      for (int p = 0; p < 32'(NUM_PORTS); p++) begin
        if (req_valid_i[p] && !req_park_i[p]) pend_q[req_warp_i[p*WARP_W +: WARP_W]] <= 1'b1;
      end
      for (int i = 0; i < 32'(NUM_WARPS); i++) begin
        if (release_i[i]) pend_q[i] <= 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (state_q == S_IDLE && arb_valid) cw_q <= arb_idx;
    if (state_q == S_IDLE) wr2_q <= {c_pc + 18'd1, c_reconv, c_mask & ~c_exec};
    resume_warp_o <= w;
    resume_pc_o   <= c_tpc;
    done_warp_o   <= w;
    fault_warp_o  <= w;
    fault_pc_o    <= c_pc;
    if (set_top) begin
      top_pc_q[w]   <= n_tpc;
      top_rpc_q[w]  <= n_trpc;
      top_mask_q[w] <= n_mask;
    end
    if (set_sp) sp_q[w] <= n_sp;
    if (set_exited) exited_q[w] <= n_exited;
    for (int p = 0; p < 32'(NUM_PORTS); p++) begin
      if (req_valid_i[p]) begin
        rq_op_q[req_warp_i[p*WARP_W +: WARP_W]]     <= req_op_i[p*2 +: 2];
        rq_pc_q[req_warp_i[p*WARP_W +: WARP_W]]     <= req_pc_i[p*18 +: 18];
        rq_exec_q[req_warp_i[p*WARP_W +: WARP_W]]   <= req_exec_i[p*32 +: 32];
        rq_target_q[req_warp_i[p*WARP_W +: WARP_W]] <= req_target_i[p*18 +: 18];
        rq_reconv_q[req_warp_i[p*WARP_W +: WARP_W]] <= req_reconv_i[p*18 +: 18];
      end
    end
    if (init_valid_i) begin
      top_pc_q[init_warp_i]   <= '0;
      top_rpc_q[init_warp_i]  <= NONE;
      top_mask_q[init_warp_i] <= init_mask_i;
      sp_q[init_warp_i]       <= '0;
      exited_q[init_warp_i]   <= '0;
    end
  end

  always_comb begin
    for (int i = 0; i < 32'(NUM_WARPS); i++) begin
      act_o[i*32 +: 32] = top_mask_q[i];
      rpc_o[i*18 +: 18] = top_rpc_q[i];
    end
  end

  assign idle_o = (state_q == S_IDLE) && (pend_q == '0);

  logic unused_gnt;
  assign unused_gnt = ^arb_gnt;

  if ((STACK_DEPTH & (STACK_DEPTH - 1)) != 0 || STACK_DEPTH < 4) begin : g_bad_depth
    $error("wg_simt_stack: STACK_DEPTH must be a power of two >= 4");
  end

endmodule
