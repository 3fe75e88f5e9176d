// wg_regfile: the SM's banked, pipelined register file (docs/regfile.md).
//
// Registers are split among the resident warps: each warp has a base in the
// per-warp table (written at CTA launch), and a warp's register r lives in
// warp-register row (base + r). A row holds the register for all WARP_SIZE
// threads, stored as PARTS = WARP_SIZE / LANES_PER_ROW RAM words of
// LANES_PER_ROW lanes. Rows are spread over NUM_BANKS single-write-port
// banks: bank = row mod NUM_BANKS.
//
// Read pipeline (one request = up to three source registers, ra/rb/rc):
//   RF_BASE  thread-table read and base add (the request is accepted here)
//   RF_DEC   bank select and row decode; sources in one bank but different
//            rows are split over several passes (one extra cycle each)
//   RF_READ  array read; waits while the write port uses one of its banks
//   RF_OUT   operand crossbar into the operand collector, which is the
//            response register: the response is valid four cycles after
//            the request was accepted
// Write pipeline (seed 003: the destination travels with the write):
//   WR_BASE  thread-table read and base add (the write is accepted here)
//   WR_DEC   bank select and row decode; the launch-time clear enters here
//   WR_WRITE array write, in the same cycle position as RF_READ
// A read accepted in the same cycle as a write to the same register, or
// later, returns the written value: no spacing and no bypass are needed.
`default_nettype none

module wg_regfile #(
  parameter int unsigned NUM_WARPS     = wg_pkg::SM_NUM_WARPS,
  parameter int unsigned WARP_SIZE     = wg_pkg::SM_WARP_SIZE,
  parameter int unsigned NUM_REGS      = wg_pkg::SM_NUM_REGS,   // 32-bit registers in all
  parameter int unsigned NUM_BANKS     = wg_pkg::SM_RF_BANKS,   // a power of two
  parameter int unsigned LANES_PER_ROW = wg_pkg::SM_WARP_SIZE,  // lanes per RAM word
  parameter int unsigned TAG_W         = 8,
  parameter int unsigned CNT_W         = 32,
  // 1: a bank does a read or a write per cycle, the write first (single-ported
  // banks, as GPGPU-Sim models them). 0: only a read of the row being written
  // waits (dual-ported banks, as the FPGA block RAMs are).
  parameter bit          WR_BLOCKS_RD  = 1'b1,
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1,
  parameter int unsigned WROWS  = NUM_REGS / WARP_SIZE,   // warp-register rows
  parameter int unsigned WROW_W = (WROWS > 1) ? $clog2(WROWS) : 1,
  parameter int unsigned PARTS  = WARP_SIZE / LANES_PER_ROW,
  parameter int unsigned PART_W = (PARTS > 1) ? $clog2(PARTS) : 1,
  parameter int unsigned ROW_W  = LANES_PER_ROW * wg_pkg::DATA_W,
  parameter int unsigned REG_W  = wg_isa_pkg::REG_W
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,

  // Per-warp register base table, written at CTA launch. With tbl_clear_i the
  // warp's rows are zeroed (clr_busy_o high meanwhile); reads of that warp and
  // all writes wait until clr_busy_o falls.
  input  wire logic                     tbl_valid_i,
  output logic                          tbl_ready_o,
  input  wire logic [WARP_W-1:0]        tbl_warp_i,
  input  wire logic [WROW_W-1:0]        tbl_base_i,    // first warp-register row
  input  wire logic [REG_W-1:0]         tbl_nregs_i,   // registers per thread
  input  wire logic                     tbl_clear_i,
  output logic                          clr_busy_o,

  // Read requests: sources {rc, rb, ra} (ra in bits [5:0]); RZ (63) reads 0
  // without using a bank. Pass RZ for a source the instruction does not read.
  input  wire logic                     req_valid_i,
  output logic                          req_ready_o,
  input  wire logic [WARP_W-1:0]        req_warp_i,
  input  wire logic [3*REG_W-1:0]       req_src_i,
  input  wire logic [TAG_W-1:0]         req_tag_i,

  // Read responses, in request order, PARTS beats per request (one, of zeros, when
  // every source is RZ). Operand s
  // (0 ra, 1 rb, 2 rc) of lane l of the beat: rsp_data_o[s*ROW_W + l*32 +: 32],
  // thread rsp_part_o * LANES_PER_ROW + l.
  output logic                          rsp_valid_o,
  input  wire logic                     rsp_ready_i,
  output logic [TAG_W-1:0]              rsp_tag_o,
  output logic [PART_W-1:0]             rsp_part_o,
  output logic                          rsp_last_o,
  output logic [3*ROW_W-1:0]            rsp_data_o,

  // Write port: lanes of part wr_part_i with wr_mask_i set take wr_data_i.
  // Writes to RZ are dropped. Ready except while a clear is pending.
  input  wire logic                     wr_valid_i,
  output logic                          wr_ready_o,
  input  wire logic [WARP_W-1:0]        wr_warp_i,
  input  wire logic [REG_W-1:0]         wr_reg_i,
  input  wire logic [PART_W-1:0]        wr_part_i,
  input  wire logic [LANES_PER_ROW-1:0] wr_mask_i,
  input  wire logic [ROW_W-1:0]         wr_data_i,

  // Performance counters (wrap around).
  output logic [CNT_W-1:0]              cnt_rd_req_o,     // read requests accepted
  output logic [CNT_W-1:0]              cnt_wr_o,         // writes accepted (RZ excluded)
  output logic [CNT_W-1:0]              cnt_bank_conf_o,  // extra passes: sources sharing a bank
  output logic [CNT_W-1:0]              cnt_wr_conf_o,    // cycles a read waited for the write port
  output logic                          idle_o            // nothing in flight
);

  localparam int unsigned NSRC    = wg_pkg::RF_NUM_SRC;
  localparam int unsigned DATA_W  = wg_pkg::DATA_W;
  localparam logic [REG_W-1:0] RZ = wg_isa_pkg::REG_RZ;
  localparam int unsigned LG_NB   = $clog2(NUM_BANKS);
  localparam int unsigned LG_P    = $clog2(PARTS);
  localparam int unsigned BANK_W  = (NUM_BANKS > 1) ? LG_NB : 1;
  localparam int unsigned BDEPTH  = (WROWS / NUM_BANKS) * PARTS;  // RAM words per bank
  localparam int unsigned BADDR_W = (BDEPTH > 1) ? $clog2(BDEPTH) : 1;
  localparam int unsigned CLR_W   = WROW_W + 1;
  localparam logic [PART_W-1:0] PART_LAST = PART_W'(PARTS - 1);

  // Bank of a row, and the bank word holding part `part` of a row.
  function automatic logic [BANK_W-1:0] bank_of(input logic [WROW_W-1:0] wrow);
    bank_of = BANK_W'(32'(wrow) & (NUM_BANKS - 1));
  endfunction

  function automatic logic [BADDR_W-1:0] addr_of(input logic [WROW_W-1:0] wrow,
                                                 input logic [PART_W-1:0] part);
    addr_of = BADDR_W'(((32'(wrow) >> LG_NB) << LG_P) | (32'(part) & (PARTS - 1)));
  endfunction

  // ---------------------------------------------------------------------------
  // Thread table: register base (and size) per warp.
  // ---------------------------------------------------------------------------
  typedef enum logic {CLR_IDLE, CLR_RUN} clr_state_e;

  clr_state_e        clr_state_q, clr_state_d;
  logic              tbl_fire;
  logic [WROW_W-1:0] tbl_base_q  [NUM_WARPS];
  logic [REG_W-1:0]  tbl_nregs_q [NUM_WARPS];

  assign tbl_ready_o = (clr_state_q == CLR_IDLE);
  assign tbl_fire    = tbl_valid_i && tbl_ready_o;
  assign clr_busy_o  = (clr_state_q != CLR_IDLE);

  always_ff @(posedge clk_i) begin
    if (tbl_fire) begin
      tbl_base_q[tbl_warp_i]  <= tbl_base_i;
      tbl_nregs_q[tbl_warp_i] <= tbl_nregs_i;
    end
  end

  // ---------------------------------------------------------------------------
  // Banks.
  // ---------------------------------------------------------------------------
  logic [NUM_BANKS-1:0]         bank_re;
  logic [NUM_BANKS*BADDR_W-1:0] bank_raddr;
  (* mem2reg *) logic [ROW_W-1:0] bank_rdata [NUM_BANKS];  // wires: no memory
  logic [NUM_BANKS-1:0]         wwr_en_q;              // in WR_WRITE: banks written
  logic [NUM_BANKS*BADDR_W-1:0] wwr_addr_q;
  logic [LANES_PER_ROW-1:0]     wwr_mask_q;
  logic [ROW_W-1:0]             wwr_data_q;

  for (genvar b = 0; b < NUM_BANKS; b++) begin : g_bank
    wg_ram_1r1w #(
      .DEPTH    (BDEPTH),
      .WIDTH    (ROW_W),
      .EN_GRAIN (DATA_W)
    ) u_ram (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .we_i    (wwr_en_q[b]),
      .waddr_i (wwr_addr_q[b*BADDR_W +: BADDR_W]),
      .wdata_i (wwr_data_q),
      .wbe_i   (wwr_mask_q),
      .re_i    (bank_re[b]),
      .raddr_i (bank_raddr[b*BADDR_W +: BADDR_W]),
      .rdata_o (bank_rdata[b])
    );
  end

  // ---------------------------------------------------------------------------
  // Read pipeline.
  // ---------------------------------------------------------------------------
  // Stage registers are named after the stage that holds them: dec_* is the
  // request in RF_DEC, read_* the pass in RF_READ, out_* the pass in RF_OUT.

  // RF_BASE: thread-table read and base add.
  logic                     req_fire;
  logic [NSRC*WROW_W-1:0]   base_wrow;
  logic [NSRC-1:0]          base_zero;

  always_comb begin
    for (int s = 0; s < NSRC; s++) begin
      base_wrow[s*WROW_W +: WROW_W] = tbl_base_q[req_warp_i] + WROW_W'(req_src_i[s*REG_W +: REG_W]);
      base_zero[s] = (req_src_i[s*REG_W +: REG_W] == RZ);
    end
  end

  // RF_DEC: bank select, row decode, conflict split.
  logic                     dec_valid_q;
  logic [NSRC*WROW_W-1:0]   dec_wrow_q;
  logic [NSRC-1:0]          dec_zero_q;
  logic [NSRC-1:0]          dec_rem_q;    // sources of this part not read yet
  logic [PART_W-1:0]        dec_part_q;
  logic [TAG_W-1:0]         dec_tag_q;

  logic [NSRC*BANK_W-1:0]   dec_bank;
  logic [NSRC*BADDR_W-1:0]  dec_addr;
  logic [NSRC-1:0]          dec_take;     // sources read in this pass
  logic [NUM_BANKS-1:0]     dec_ben;
  logic [NUM_BANKS*BADDR_W-1:0] dec_baddr;
  logic                     dec_last_pass, dec_last_part, dec_issue, dec_done, dec_extra;

  always_comb begin
    for (int s = 0; s < NSRC; s++) begin
      dec_bank[s*BANK_W +: BANK_W]    = bank_of(dec_wrow_q[s*WROW_W +: WROW_W]);
      dec_addr[s*BADDR_W +: BADDR_W]  = addr_of(dec_wrow_q[s*WROW_W +: WROW_W], dec_part_q);
    end
    // In source order, take a source unless a source already taken in this
    // pass uses the same bank for a different row (equal rows share a read).
    dec_take = '0;
    for (int s = 0; s < NSRC; s++) begin
      dec_take[s] = dec_rem_q[s];
      for (int t = 0; t < s; t++) begin
        if (dec_take[t] &&
            dec_bank[t*BANK_W +: BANK_W] == dec_bank[s*BANK_W +: BANK_W] &&
            dec_wrow_q[t*WROW_W +: WROW_W] != dec_wrow_q[s*WROW_W +: WROW_W]) begin
          dec_take[s] = 1'b0;
        end
      end
    end
    dec_ben   = '0;
    dec_baddr = '0;
    for (int b = 0; b < NUM_BANKS; b++) begin
      for (int s = NSRC - 1; s >= 0; s--) begin
        if (dec_take[s] && dec_bank[s*BANK_W +: BANK_W] == BANK_W'(b)) begin
          dec_ben[b] = 1'b1;
          dec_baddr[b*BADDR_W +: BADDR_W] = dec_addr[s*BADDR_W +: BADDR_W];
        end
      end
    end
  end

  assign dec_last_pass = ((dec_rem_q & ~dec_take) == '0);
  // A request whose sources are all RZ reads nothing: one beat (part 0, zeros) is its last.
  assign dec_last_part = (dec_part_q == PART_LAST) || (&dec_zero_q);
  assign dec_extra     = |(~dec_rem_q & ~dec_zero_q);  // not the first pass of this part

  // RF_READ: array read.
  logic                     read_valid_q;
  logic [NUM_BANKS-1:0]     read_ben_q;
  logic [NUM_BANKS*BADDR_W-1:0] read_baddr_q;
  logic [NSRC-1:0]          read_take_q, read_zero_q;
  logic [NSRC*BANK_W-1:0]   read_sbank_q;
  logic [PART_W-1:0]        read_part_q;
  logic [TAG_W-1:0]         read_tag_q;
  logic                     read_last_pass_q, read_last_part_q;
  logic [NUM_BANKS-1:0]     read_wr_hit;
  logic                     read_wr_conf, read_fire, read_free;

  always_comb begin
    for (int b = 0; b < NUM_BANKS; b++) begin
      if (WR_BLOCKS_RD) begin
        read_wr_hit[b] = read_ben_q[b] && wwr_en_q[b];
      end else begin
        read_wr_hit[b] = read_ben_q[b] && wwr_en_q[b] &&
                         (read_baddr_q[b*BADDR_W +: BADDR_W] == wwr_addr_q[b*BADDR_W +: BADDR_W]);
      end
    end
  end

  // RF_OUT: operand crossbar into the collector (the response register).
  logic                     out_valid_q;
  logic [NSRC-1:0]          out_take_q, out_zero_q;
  logic [NSRC*BANK_W-1:0]   out_sbank_q;
  logic [PART_W-1:0]        out_part_q;
  logic [TAG_W-1:0]         out_tag_q;
  logic                     out_last_pass_q, out_last_part_q;
  logic [NSRC*ROW_W-1:0]    out_xbar;
  logic                     out_stall;
  logic [NSRC*ROW_W-1:0]    coll_q;       // operand collector
  logic                     rsp_valid_q, rsp_last_q;
  logic [TAG_W-1:0]         rsp_tag_q;
  logic [PART_W-1:0]        rsp_part_q;
  logic                     rsp_fire;

  // Handshakes, from the output back to the input. A pass in RF_OUT waits
  // while the collector holds a response that is not taken in this cycle.
  assign rsp_fire     = rsp_valid_q && rsp_ready_i;
  assign out_stall    = out_valid_q && rsp_valid_q && !rsp_ready_i;
  assign read_wr_conf = |read_wr_hit;
  assign read_fire    = read_valid_q && !out_stall && !read_wr_conf;
  assign read_free    = !read_valid_q || read_fire;
  assign dec_issue    = dec_valid_q && read_free;
  assign dec_done     = dec_issue && dec_last_pass && dec_last_part;
  assign req_ready_o  = !dec_valid_q || dec_done;
  assign req_fire     = req_valid_i && req_ready_o;

  assign bank_re    = read_fire ? read_ben_q : '0;
  assign bank_raddr = read_baddr_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      dec_valid_q  <= 1'b0;
      read_valid_q <= 1'b0;
      out_valid_q  <= 1'b0;
      rsp_valid_q  <= 1'b0;
    end else begin
      if (req_fire)      dec_valid_q <= 1'b1;
      else if (dec_done) dec_valid_q <= 1'b0;
      if (dec_issue)      read_valid_q <= 1'b1;
      else if (read_fire) read_valid_q <= 1'b0;
      if (!out_stall) out_valid_q <= read_fire;
      if (out_valid_q && !out_stall && out_last_pass_q) rsp_valid_q <= 1'b1;
      else if (rsp_fire)                                 rsp_valid_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    // RF_BASE -> RF_DEC
    if (req_fire) begin
      dec_wrow_q <= base_wrow;
      dec_zero_q <= base_zero;
      dec_rem_q  <= ~base_zero;
      dec_part_q <= '0;
      dec_tag_q  <= req_tag_i;
    end else if (dec_issue) begin
      if (dec_last_pass) begin
        dec_rem_q  <= ~dec_zero_q;
        dec_part_q <= dec_last_part ? '0 : dec_part_q + 1'b1;
      end else begin
        dec_rem_q  <= dec_rem_q & ~dec_take;
      end
    end
    // RF_DEC -> RF_READ
    if (dec_issue) begin
      read_ben_q       <= dec_ben;
      read_baddr_q     <= dec_baddr;
      read_take_q      <= dec_take;
      read_zero_q      <= dec_zero_q;
      read_sbank_q     <= dec_bank;
      read_part_q      <= dec_part_q;
      read_tag_q       <= dec_tag_q;
      read_last_pass_q <= dec_last_pass;
      read_last_part_q <= dec_last_part && dec_last_pass;
    end
    // RF_READ -> RF_OUT (the bank RAMs register the data itself)
    if (read_fire && !out_stall) begin
      out_take_q      <= read_take_q;
      out_zero_q      <= read_zero_q;
      out_sbank_q     <= read_sbank_q;
      out_part_q      <= read_part_q;
      out_tag_q       <= read_tag_q;
      out_last_pass_q <= read_last_pass_q;
      out_last_part_q <= read_last_part_q;
    end
    // RF_OUT -> response
    if (out_valid_q && !out_stall && out_last_pass_q) begin
      rsp_tag_q  <= out_tag_q;
      rsp_part_q <= out_part_q;
      rsp_last_q <= out_last_part_q;
    end
  end

  // Crossbar: each operand from the bank its row is in.
  always_comb begin
    for (int s = 0; s < NSRC; s++) begin
      out_xbar[s*ROW_W +: ROW_W] = bank_rdata[out_sbank_q[s*BANK_W +: BANK_W]];
    end
  end

  // Each pass puts the operands it read into the collector; RZ sources are
  // zeroed. Operands of earlier passes of the same part stay.
  always_ff @(posedge clk_i) begin
    if (out_valid_q && !out_stall) begin
      for (int s = 0; s < NSRC; s++) begin
        if (out_take_q[s])      coll_q[s*ROW_W +: ROW_W] <= out_xbar[s*ROW_W +: ROW_W];
        else if (out_zero_q[s]) coll_q[s*ROW_W +: ROW_W] <= '0;
      end
    end
  end

  assign rsp_valid_o = rsp_valid_q;
  assign rsp_tag_o   = rsp_tag_q;
  assign rsp_part_o  = rsp_part_q;
  assign rsp_last_o  = rsp_last_q;
  assign rsp_data_o  = coll_q;

  // ---------------------------------------------------------------------------
  // Write pipeline and launch-time clear.
  // ---------------------------------------------------------------------------
  logic                     wr_fire;
  logic                     wdec_valid_q;   // in WR_DEC
  logic [WROW_W-1:0]        wdec_wrow_q;
  logic [PART_W-1:0]        wdec_part_q;
  logic [LANES_PER_ROW-1:0] wdec_mask_q;
  logic [ROW_W-1:0]         wdec_data_q;

  assign wr_ready_o = (clr_state_q == CLR_IDLE);
  assign wr_fire    = wr_valid_i && wr_ready_o;

  // Clear walk: rows [clr_cur_q, clr_end_q) in windows of NUM_BANKS rows, one
  // window part per cycle (every bank written once), while WR_DEC is free.
  logic [CLR_W-1:0]             clr_cur_q, clr_cur_d, clr_end_q, clr_end_d;
  logic [PART_W-1:0]            clr_part_q, clr_part_d;
  logic                         clr_issue;
  logic [NUM_BANKS-1:0]         clr_en;
  logic [NUM_BANKS*BADDR_W-1:0] clr_addr;

  assign clr_issue = (clr_state_q == CLR_RUN) && !wdec_valid_q;

  logic [NUM_BANKS*CLR_W-1:0]   clr_row;

  // Bank b clears the one row of the window [clr_cur_q, clr_cur_q + NUM_BANKS)
  // that maps to it, if the row is below clr_end_q.
  always_comb begin
    for (int b = 0; b < NUM_BANKS; b++) begin
      clr_row[b*CLR_W +: CLR_W] = clr_cur_q + CLR_W'((32'(b) - 32'(clr_cur_q)) & (NUM_BANKS - 1));
      clr_en[b] = (clr_row[b*CLR_W +: CLR_W] < clr_end_q);
      clr_addr[b*BADDR_W +: BADDR_W] = addr_of(clr_row[b*CLR_W +: WROW_W], clr_part_q);
    end
  end

  always_comb begin
    clr_state_d = clr_state_q;
    clr_cur_d   = clr_cur_q;
    clr_end_d   = clr_end_q;
    clr_part_d  = clr_part_q;
    unique case (clr_state_q)
      CLR_IDLE: begin
        if (tbl_fire && tbl_clear_i) begin
          clr_state_d = CLR_RUN;
          clr_cur_d   = CLR_W'(tbl_base_i);
          clr_end_d   = CLR_W'(tbl_base_i) + CLR_W'(tbl_nregs_i);
          clr_part_d  = '0;
        end
      end
      CLR_RUN: begin
        if (clr_issue) begin
          if (clr_part_q == PART_LAST) begin
            clr_part_d = '0;
            clr_cur_d  = clr_cur_q + CLR_W'(NUM_BANKS);
            if (clr_cur_d >= clr_end_q) clr_state_d = CLR_IDLE;
          end else begin
            clr_part_d = clr_part_q + 1'b1;
          end
        end
      end
      default: clr_state_d = CLR_IDLE;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      clr_state_q  <= CLR_IDLE;
      wdec_valid_q <= 1'b0;
      wwr_en_q     <= '0;
    end else begin
      clr_state_q  <= clr_state_d;
      wdec_valid_q <= wr_fire && (wr_reg_i != RZ);
      if (clr_issue)         wwr_en_q <= clr_en;
      else if (wdec_valid_q) wwr_en_q <= NUM_BANKS'(1) << bank_of(wdec_wrow_q);
      else                   wwr_en_q <= '0;
    end
  end

  always_ff @(posedge clk_i) begin
    clr_cur_q  <= clr_cur_d;
    clr_end_q  <= clr_end_d;
    clr_part_q <= clr_part_d;
    // WR_BASE -> WR_DEC
    if (wr_fire) begin
      wdec_wrow_q <= tbl_base_q[wr_warp_i] + WROW_W'(wr_reg_i);
      wdec_part_q <= wr_part_i;
      wdec_mask_q <= wr_mask_i;
      wdec_data_q <= wr_data_i;
    end
    // WR_DEC -> WR_WRITE
    if (clr_issue) begin
      wwr_addr_q <= clr_addr;
      wwr_mask_q <= '1;
      wwr_data_q <= '0;
    end else if (wdec_valid_q) begin
      for (int b = 0; b < NUM_BANKS; b++) begin
        wwr_addr_q[b*BADDR_W +: BADDR_W] <= addr_of(wdec_wrow_q, wdec_part_q);
      end
      wwr_mask_q <= wdec_mask_q;
      wwr_data_q <= wdec_data_q;
    end
  end

  // ---------------------------------------------------------------------------
  // Counters.
  // ---------------------------------------------------------------------------
  logic [CNT_W-1:0] cnt_rd_req_q, cnt_wr_q, cnt_bank_conf_q, cnt_wr_conf_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_rd_req_q    <= '0;
      cnt_wr_q        <= '0;
      cnt_bank_conf_q <= '0;
      cnt_wr_conf_q   <= '0;
    end else begin
      if (req_fire)                    cnt_rd_req_q    <= cnt_rd_req_q + 1'b1;
      if (wr_fire && wr_reg_i != RZ)   cnt_wr_q        <= cnt_wr_q + 1'b1;
      if (dec_issue && dec_extra)      cnt_bank_conf_q <= cnt_bank_conf_q + 1'b1;
      if (read_valid_q && read_wr_conf && !out_stall) cnt_wr_conf_q <= cnt_wr_conf_q + 1'b1;
    end
  end

  assign cnt_rd_req_o    = cnt_rd_req_q;
  assign cnt_wr_o        = cnt_wr_q;
  assign cnt_bank_conf_o = cnt_bank_conf_q;
  assign cnt_wr_conf_o   = cnt_wr_conf_q;

  assign idle_o = !dec_valid_q && !read_valid_q && !out_valid_q && !rsp_valid_q && !wdec_valid_q &&
                  (wwr_en_q == '0) && (clr_state_q == CLR_IDLE);

  // ---------------------------------------------------------------------------
  // Checks.
  // ---------------------------------------------------------------------------
  if (NUM_BANKS < 1 || (NUM_BANKS & (NUM_BANKS - 1)) != 0) begin : g_bad_banks
    $error("wg_regfile: NUM_BANKS must be a power of two");
  end
  if (LANES_PER_ROW < 1 || WARP_SIZE % LANES_PER_ROW != 0 || (PARTS & (PARTS - 1)) != 0) begin : g_bad_lanes
    $error("wg_regfile: LANES_PER_ROW must divide WARP_SIZE by a power of two");
  end
  if (NUM_REGS % (WARP_SIZE * NUM_BANKS) != 0) begin : g_bad_regs
    $error("wg_regfile: NUM_REGS must be a multiple of WARP_SIZE * NUM_BANKS");
  end

`ifndef SYNTHESIS
  logic             rsp_held_q;
  logic [TAG_W-1:0] rsp_held_tag_q;

  always_ff @(posedge clk_i) begin
    rsp_held_q     <= rst_ni && rsp_valid_o && !rsp_ready_i;
    rsp_held_tag_q <= rsp_tag_o;
    if (rst_ni) begin
      if (tbl_fire) begin
        assert (32'(tbl_warp_i) < NUM_WARPS) else $error("wg_regfile: table write of warp %0d", tbl_warp_i);
        assert (32'(tbl_base_i) + 32'(tbl_nregs_i) <= WROWS)
          else $error("wg_regfile: warp %0d rows %0d+%0d beyond %0d", tbl_warp_i, tbl_base_i, tbl_nregs_i, WROWS);
      end
      if (req_fire) begin
        assert (32'(req_warp_i) < NUM_WARPS) else $error("wg_regfile: read of warp %0d", req_warp_i);
        for (int s = 0; s < NSRC; s++) begin
          assert (base_zero[s] || req_src_i[s*REG_W +: REG_W] < tbl_nregs_q[req_warp_i])
            else $error("wg_regfile: warp %0d reads R%0d beyond its %0d registers",
                        req_warp_i, req_src_i[s*REG_W +: REG_W], tbl_nregs_q[req_warp_i]);
        end
      end
      if (wr_fire && wr_reg_i != RZ) begin
        assert (32'(wr_warp_i) < NUM_WARPS) else $error("wg_regfile: write of warp %0d", wr_warp_i);
        assert (wr_reg_i < tbl_nregs_q[wr_warp_i])
          else $error("wg_regfile: warp %0d writes R%0d beyond its %0d registers",
                      wr_warp_i, wr_reg_i, tbl_nregs_q[wr_warp_i]);
        assert (32'(wr_part_i) < PARTS) else $error("wg_regfile: write of part %0d", wr_part_i);
      end
      // Valid/ready rule: a response stays until taken. Its data is the
      // collector, which only RF_OUT writes: RF_OUT must not write it while a
      // response waits (checked instead of comparing 3072 bits every cycle).
      if (rsp_held_q) begin
        assert (rsp_valid_o && rsp_tag_o == rsp_held_tag_q)
          else $error("wg_regfile: response withdrawn or changed before it was taken");
      end
      if (rsp_valid_o && !rsp_ready_i) begin
        assert (!(out_valid_q && !out_stall))
          else $error("wg_regfile: collector written while its response waits");
      end
    end
  end
`endif

endmodule
