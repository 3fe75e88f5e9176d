// wg_fetch: instruction fetch and decode, one warp per cycle (docs/sm-pipeline.md).
//
//   IF  pick a warp (round robin over warps that fetch, have an instruction-
//       buffer credit and were not picked in the previous cycle) and read the
//       instruction memory (block RAM, synchronous read)
//   ID  decode (wg_decode); the uop goes to the warp's instruction buffer
// No speculation: after a control instruction (BRA, EXIT, BAR) or an
// instruction whose successor is the reconvergence pc, the warp stops
// fetching until the SIMT stack resumes it at the new pc. Each warp has
// IB_DEPTH credits, returned when the scheduler pops its instruction buffer.
`default_nettype none

module wg_fetch #(
  parameter int unsigned NUM_WARPS  = 48,
  parameter int unsigned NUM_SIMD   = 2,
  parameter int unsigned IMEM_DEPTH = 4096,
  parameter int unsigned IB_DEPTH   = 2,
  parameter bit          HAS_FP     = 1'b1,
  parameter bit          HAS_SFU    = 1'b1,
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1,
  parameter int unsigned IMEM_W = $clog2(IMEM_DEPTH)
) (
  input  wire logic                       clk_i,
  input  wire logic                       rst_ni,

  input  wire logic                       imem_we_i,
  input  wire logic [IMEM_W-1:0]          imem_addr_i,
  input  wire logic [63:0]                imem_wdata_i,
  input  wire logic [17:0]                start_pc_i,
  input  wire logic [5:0]                 regs_i,
  input  wire logic                       stop_all_i,    // fault: fetch nothing more

  input  wire logic [NUM_WARPS*18-1:0]    rpc_i,         // SIMT stack tops

  input  wire logic                       start_valid_i, // warp launched
  input  wire logic [WARP_W-1:0]          start_warp_i,
  input  wire logic                       resume_valid_i,
  input  wire logic [WARP_W-1:0]          resume_warp_i,
  input  wire logic [17:0]                resume_pc_i,
  input  wire logic [NUM_SIMD-1:0]        pop_valid_i,   // instruction-buffer pops (credits)
  input  wire logic [NUM_SIMD*WARP_W-1:0] pop_warp_i,

  output logic                            ib_valid_o,
  output logic [WARP_W-1:0]               ib_warp_o,
  output logic [wg_sm_pkg::UOP_W-1:0]     ib_uop_o,

  output logic                            fault_o,       // pc outside the instruction memory
  output logic [WARP_W-1:0]               fault_warp_o,
  output logic [17:0]                     fault_pc_o,
  output logic                            idle_o
);

  localparam int unsigned CRED_W = $clog2(IB_DEPTH + 1);

  logic [NUM_WARPS-1:0] en_q;
  logic [17:0]          fpc_q  [NUM_WARPS];
  logic [CRED_W-1:0]    cred_q [NUM_WARPS];
  logic [NUM_WARPS-1:0] has_cred;
  logic [NUM_WARPS-1:0] last_q;      // one-hot: warp picked in the previous cycle
  logic [NUM_WARPS-1:0] elig;

  always_comb begin
    for (int i = 0; i < 32'(NUM_WARPS); i++) has_cred[i] = (cred_q[i] != '0);
  end
  assign elig = en_q & has_cred & ~last_q & {NUM_WARPS{!stop_all_i}};

  logic              pick_valid;
  logic [NUM_WARPS-1:0] pick_gnt;
  logic [WARP_W-1:0] pick_idx;

  wg_rr_arbiter #(.N(NUM_WARPS)) u_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (elig),
    .lock_i  (1'b0),
    .ready_i (1'b1),
    .valid_o (pick_valid),
    .gnt_o   (pick_gnt),
    .idx_o   (pick_idx)
  );

  // IF: instruction memory read.
  logic [17:0] pick_pc;
  logic [31:0] pick_addr;
  logic        pick_oob;
  assign pick_pc   = fpc_q[pick_idx];
  assign pick_addr = 32'(start_pc_i) + 32'(pick_pc);
  assign pick_oob  = pick_addr >= IMEM_DEPTH;

  logic [63:0] imem_rdata;
  wg_ram_1r1w #(.DEPTH(IMEM_DEPTH), .WIDTH(64)) u_imem (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (imem_we_i),
    .waddr_i (imem_addr_i),
    .wdata_i (imem_wdata_i),
    .wbe_i   (1'b1),
    .re_i    (pick_valid && !pick_oob),
    .raddr_i (IMEM_W'(pick_addr)),
    .rdata_o (imem_rdata)
  );

  // ID: decode.
  logic              id_valid_q, id_oob_q;
  logic [WARP_W-1:0] id_warp_q;
  logic [17:0]       id_pc_q;
  wg_sm_pkg::uop_t   id_uop;

  wg_decode #(.HAS_FP(HAS_FP), .HAS_SFU(HAS_SFU)) u_decode (
    .word_i (imem_rdata),
    .pc_i   (id_pc_q),
    .regs_i (regs_i),
    .rpc_i  (rpc_i[id_warp_q*18 +: 18]),
    .uop_o  (id_uop)
  );

  assign ib_valid_o = id_valid_q && !id_oob_q;
  assign ib_warp_o  = id_warp_q;
  assign ib_uop_o   = id_uop;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      id_valid_q <= 1'b0;
      last_q     <= '0;
      en_q       <= '0;
      fault_o    <= 1'b0;
    end else begin
      id_valid_q <= pick_valid;
      last_q     <= pick_valid ? pick_gnt : '0;
      fault_o    <= id_valid_q && id_oob_q;
      if (id_valid_q && (id_oob_q || id_uop.stop)) en_q[id_warp_q] <= 1'b0;
      if (resume_valid_i) en_q[resume_warp_i] <= 1'b1;
      if (start_valid_i) en_q[start_warp_i] <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    id_warp_q    <= pick_idx;
    id_pc_q      <= pick_pc;
    id_oob_q     <= pick_oob;
    fault_warp_o <= id_warp_q;
    fault_pc_o   <= id_pc_q;
    for (int i = 0; i < 32'(NUM_WARPS); i++) begin
      logic [CRED_W-1:0] c;
      c = cred_q[i];
      if (pick_valid && pick_idx == WARP_W'(i)) c = c - 1'b1;
      for (int k = 0; k < 32'(NUM_SIMD); k++) begin
        if (pop_valid_i[k] && pop_warp_i[k*WARP_W +: WARP_W] == WARP_W'(i)) c = c + 1'b1;
      end
      if (start_valid_i && start_warp_i == WARP_W'(i)) c = CRED_W'(IB_DEPTH);
      cred_q[i] <= c;
    end
    if (pick_valid) fpc_q[pick_idx] <= pick_pc + 18'd1;
    if (resume_valid_i) fpc_q[resume_warp_i] <= resume_pc_i;
    if (start_valid_i) fpc_q[start_warp_i] <= '0;
  end

  assign idle_o = !id_valid_q && (en_q == '0);

endmodule
