// wg_rf_rows: warp-row ports over a register file that moves rows in beats
// (docs/regfile.md section 12).
//
// wg_regfile keeps LANES_PER_ROW lanes in a RAM word and reads and writes a warp row as
// PARTS = WARP_SIZE / LANES_PER_ROW beats. With few lanes per word its banks map onto
// block RAM and its crossbar and collector are PARTS times narrower (docs/fpga.md
// section 3.4). This block gives its user whole rows, as wg_regfile does at
// LANES_PER_ROW = WARP_SIZE:
//   read   the beats of a response are gathered: parts 0 .. PARTS-2 into a gather
//          register (one enable per part, no multiplexer), the last part straight from
//          wg_regfile's collector, which holds it until taken. The row response is valid
//          with the last beat: no cycle is added, a request takes PARTS cycles. A request
//          whose sources are all RZ is one beat in wg_regfile: its row is valid one cycle
//          after that beat, once the gather register is cleared.
//   write  a row write is accepted when the port is free: part 0 enters wg_regfile in the
//          cycle of the accept, parts 1 .. PARTS-1 in the PARTS-1 cycles after it, from a
//          hold register; the next row write is accepted PARTS cycles after the last.
//          A write to RZ is accepted without a walk.
// Ordering: wg_regfile returns the written value to a read accepted in the cycle of a
// write or later. A row read walks its parts in order, at most one per cycle, and starts
// no earlier than the row write accepted before it or with it, which writes one part per
// cycle: the read of part p comes no earlier than the write of part p, so a read accepted
// in the cycle of a row write's accept, or later, returns the whole written row (what the
// scheduler's scoreboard assumes when it releases a register at the write's accept).
// A launch-time clear must not pause a walk (a later read could pass it): table writes
// wait while a walk is in progress, and a row write waits in the cycle a clear is accepted.
// LANES_PER_ROW = WARP_SIZE: wg_regfile's ports as they are, nothing added.
`default_nettype none

module wg_rf_rows #(
  parameter int unsigned NUM_WARPS     = wg_pkg::SM_NUM_WARPS,
  parameter int unsigned NUM_REGS      = wg_pkg::SM_NUM_REGS,
  parameter int unsigned NUM_BANKS     = wg_pkg::SM_RF_BANKS,
  parameter int unsigned LANES_PER_ROW = wg_pkg::SM_WARP_SIZE,
  parameter int unsigned TAG_W         = 8,
  parameter int unsigned CNT_W         = 32,
  parameter bit          WR_BLOCKS_RD  = 1'b1,
  // Derived: do not override.
  parameter int unsigned WARP_SIZE = wg_pkg::SM_WARP_SIZE,
  parameter int unsigned WARP_W    = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1,
  parameter int unsigned WROWS     = NUM_REGS / WARP_SIZE,
  parameter int unsigned WROW_W    = (WROWS > 1) ? $clog2(WROWS) : 1,
  parameter int unsigned FULL_W    = WARP_SIZE * wg_pkg::DATA_W,
  parameter int unsigned REG_W     = wg_isa_pkg::REG_W
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,

  // Table (as wg_regfile).
  input  wire logic                 tbl_valid_i,
  output logic                      tbl_ready_o,
  input  wire logic [WARP_W-1:0]    tbl_warp_i,
  input  wire logic [WROW_W-1:0]    tbl_base_i,
  input  wire logic [REG_W-1:0]     tbl_nregs_i,
  input  wire logic                 tbl_clear_i,
  output logic                      clr_busy_o,

  // Read requests and row responses: operand s of thread t is rsp_data_o[s*FULL_W + t*32 +: 32].
  input  wire logic                 req_valid_i,
  output logic                      req_ready_o,
  input  wire logic [WARP_W-1:0]    req_warp_i,
  input  wire logic [3*REG_W-1:0]   req_src_i,
  input  wire logic [TAG_W-1:0]     req_tag_i,
  output logic                      rsp_valid_o,
  input  wire logic                 rsp_ready_i,
  output logic [TAG_W-1:0]          rsp_tag_o,
  output logic [3*FULL_W-1:0]       rsp_data_o,

  // Row writes: threads with wr_mask_i set take wr_data_i. wr_busy_o: a walk in progress.
  input  wire logic                 wr_valid_i,
  output logic                      wr_ready_o,
  input  wire logic [WARP_W-1:0]    wr_warp_i,
  input  wire logic [REG_W-1:0]     wr_reg_i,
  input  wire logic [WARP_SIZE-1:0] wr_mask_i,
  input  wire logic [FULL_W-1:0]    wr_data_i,
  output logic                      wr_busy_o,

  output logic [CNT_W-1:0]          cnt_rd_req_o,
  output logic [CNT_W-1:0]          cnt_wr_o,
  output logic [CNT_W-1:0]          cnt_bank_conf_o,
  output logic [CNT_W-1:0]          cnt_wr_conf_o,
  output logic                      idle_o
);

  localparam int unsigned PARTS  = WARP_SIZE / LANES_PER_ROW;
  localparam int unsigned PART_W = (PARTS > 1) ? $clog2(PARTS) : 1;
  localparam int unsigned ROW_W  = LANES_PER_ROW * wg_pkg::DATA_W;
  localparam int unsigned NSRC   = wg_pkg::RF_NUM_SRC;
  localparam logic [REG_W-1:0] RZ = wg_isa_pkg::REG_RZ;

  logic                     rf_tbl_valid, rf_tbl_ready;
  logic                     rf_rsp_valid, rf_rsp_ready, rf_rsp_last;
  logic [PART_W-1:0]        rf_rsp_part;
  logic [NSRC*ROW_W-1:0]    rf_rsp_data;
  logic                     rf_wr_valid, rf_wr_ready;
  logic [WARP_W-1:0]        rf_wr_warp;
  logic [REG_W-1:0]         rf_wr_reg;
  logic [PART_W-1:0]        rf_wr_part;
  logic [LANES_PER_ROW-1:0] rf_wr_mask;
  logic [ROW_W-1:0]         rf_wr_data;
  logic                     rf_idle, walk_q;

  wg_regfile #(
    .NUM_WARPS     (NUM_WARPS),
    .WARP_SIZE     (WARP_SIZE),
    .NUM_REGS      (NUM_REGS),
    .NUM_BANKS     (NUM_BANKS),
    .LANES_PER_ROW (LANES_PER_ROW),
    .TAG_W         (TAG_W),
    .CNT_W         (CNT_W),
    .WR_BLOCKS_RD  (WR_BLOCKS_RD)
  ) u_rf (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .tbl_valid_i     (rf_tbl_valid),
    .tbl_ready_o     (rf_tbl_ready),
    .tbl_warp_i      (tbl_warp_i),
    .tbl_base_i      (tbl_base_i),
    .tbl_nregs_i     (tbl_nregs_i),
    .tbl_clear_i     (tbl_clear_i),
    .clr_busy_o      (clr_busy_o),
    .req_valid_i     (req_valid_i),
    .req_ready_o     (req_ready_o),
    .req_warp_i      (req_warp_i),
    .req_src_i       (req_src_i),
    .req_tag_i       (req_tag_i),
    .rsp_valid_o     (rf_rsp_valid),
    .rsp_ready_i     (rf_rsp_ready),
    .rsp_tag_o       (rsp_tag_o),
    .rsp_part_o      (rf_rsp_part),
    .rsp_last_o      (rf_rsp_last),
    .rsp_data_o      (rf_rsp_data),
    .wr_valid_i      (rf_wr_valid),
    .wr_ready_o      (rf_wr_ready),
    .wr_warp_i       (rf_wr_warp),
    .wr_reg_i        (rf_wr_reg),
    .wr_part_i       (rf_wr_part),
    .wr_mask_i       (rf_wr_mask),
    .wr_data_i       (rf_wr_data),
    .cnt_rd_req_o    (cnt_rd_req_o),
    .cnt_wr_o        (cnt_wr_o),
    .cnt_bank_conf_o (cnt_bank_conf_o),
    .cnt_wr_conf_o   (cnt_wr_conf_o),
    .idle_o          (rf_idle)
  );

  if (PARTS == 1) begin : g_rows
    // One beat is the row.
    assign rf_tbl_valid = tbl_valid_i;
    assign tbl_ready_o  = rf_tbl_ready;
    assign rsp_valid_o  = rf_rsp_valid;
    assign rf_rsp_ready = rsp_ready_i;
    assign rsp_data_o   = rf_rsp_data;
    assign rf_wr_valid  = wr_valid_i;
    assign wr_ready_o   = rf_wr_ready;
    assign rf_wr_warp   = wr_warp_i;
    assign rf_wr_reg    = wr_reg_i;
    assign rf_wr_part   = '0;
    assign rf_wr_mask   = wr_mask_i;
    assign rf_wr_data   = wr_data_i;
    assign walk_q       = 1'b0;
    logic unused_ok;
    assign unused_ok = ^{rf_rsp_part, rf_rsp_last};
  end else begin : g_beats
    // Read: parts 0 .. PARTS-2 gathered, the last taken with the row. A request that
    // reads no register is wg_regfile's only one whose last beat is part 0 (rf_rsp_allz);
    // that beat first clears the gather register (zclr_q: cleared, the row is valid).
    logic [NSRC*(PARTS-1)*ROW_W-1:0] gath_q;
    logic                            zclr_q, row_ok, rf_rsp_allz;

    assign rf_rsp_allz  = rf_rsp_last && (rf_rsp_part == '0);
    assign row_ok       = !rf_rsp_allz || zclr_q;
    assign rf_rsp_ready = rf_rsp_last ? (rsp_ready_i && row_ok) : 1'b1;
    assign rsp_valid_o  = rf_rsp_valid && rf_rsp_last && row_ok;

    always_ff @(posedge clk_i) begin
      if (!rst_ni) zclr_q <= 1'b0;
      else zclr_q <= rf_rsp_valid && rf_rsp_allz && !(zclr_q && rsp_ready_i);
    end

    for (genvar p = 0; p < PARTS - 1; p++) begin : g_gath
      always_ff @(posedge clk_i) begin
        for (int s = 0; s < NSRC; s++) begin
          if (rf_rsp_valid && rf_rsp_allz && !zclr_q) begin
            gath_q[(s*(PARTS-1) + p)*ROW_W +: ROW_W] <= '0;
          end else if (rf_rsp_valid && !rf_rsp_last && rf_rsp_part == PART_W'(p)) begin
            gath_q[(s*(PARTS-1) + p)*ROW_W +: ROW_W] <= rf_rsp_data[s*ROW_W +: ROW_W];
          end
        end
      end
    end

    for (genvar s = 0; s < NSRC; s++) begin : g_rsp
      assign rsp_data_o[s*FULL_W +: FULL_W] = {rf_rsp_data[s*ROW_W +: ROW_W],
                                               gath_q[s*(PARTS-1)*ROW_W +: (PARTS-1)*ROW_W]};
    end

    // Write: part 0 at the accept, the others from the hold register.
    logic [PART_W-1:0]                  wcnt_q;
    logic [WARP_W-1:0]                  wwarp_q;
    logic [REG_W-1:0]                   wreg_q;
    logic [(PARTS-1)*ROW_W-1:0]         hdata_q;
    logic [(PARTS-1)*LANES_PER_ROW-1:0] hmask_q;
    logic [ROW_W-1:0]                   hdata;
    logic [LANES_PER_ROW-1:0]           hmask;
    logic                               wr_fire;

    assign rf_tbl_valid = tbl_valid_i && !walk_q;
    assign tbl_ready_o  = rf_tbl_ready && !walk_q;
    // A row write is not accepted in the cycle a clear is accepted either (its walk would
    // run into the clear).
    assign wr_ready_o   = rf_wr_ready && !walk_q && !(rf_tbl_valid && rf_tbl_ready && tbl_clear_i);
    assign wr_fire      = wr_valid_i && wr_ready_o;

    // The part in the walk (a chain of compares on the count: it maps onto LUTs and wide
    // multiplexers; an indexed part-select of the hold register would be a shifter).
    always_comb begin
      hdata = hdata_q[0 +: ROW_W];
      hmask = hmask_q[0 +: LANES_PER_ROW];
      for (int p = 2; p < PARTS; p++) begin
        if (wcnt_q == PART_W'(p)) begin
          hdata = hdata_q[(p-1)*ROW_W +: ROW_W];
          hmask = hmask_q[(p-1)*LANES_PER_ROW +: LANES_PER_ROW];
        end
      end
    end

    assign rf_wr_valid = walk_q || wr_valid_i;
    assign rf_wr_warp  = walk_q ? wwarp_q : wr_warp_i;
    assign rf_wr_reg   = walk_q ? wreg_q : wr_reg_i;
    assign rf_wr_part  = walk_q ? wcnt_q : '0;
    assign rf_wr_mask  = walk_q ? hmask : wr_mask_i[0 +: LANES_PER_ROW];
    assign rf_wr_data  = walk_q ? hdata : wr_data_i[0 +: ROW_W];

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        walk_q <= 1'b0;
        wcnt_q <= '0;
      end else if (walk_q) begin
        if (rf_wr_ready) begin
          wcnt_q <= wcnt_q + 1'b1;
          if (wcnt_q == PART_W'(PARTS - 1)) walk_q <= 1'b0;
        end
      end else if (wr_fire && wr_reg_i != RZ) begin
        walk_q <= 1'b1;
        wcnt_q <= PART_W'(1);
      end
    end

    always_ff @(posedge clk_i) begin
      if (wr_fire) begin
        wwarp_q <= wr_warp_i;
        wreg_q  <= wr_reg_i;
        hdata_q <= wr_data_i[FULL_W-1:ROW_W];
        hmask_q <= wr_mask_i[WARP_SIZE-1:LANES_PER_ROW];
      end
    end

`ifndef SYNTHESIS
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        assert (!walk_q || rf_wr_ready) else $error("wg_rf_rows: a clear paused a row write");
      end
    end
`endif
  end

  assign wr_busy_o = walk_q;
  assign idle_o    = rf_idle && !walk_q;

  if (WARP_SIZE % LANES_PER_ROW != 0) begin : g_bad_lanes
    $error("wg_rf_rows: LANES_PER_ROW must divide WARP_SIZE");
  end

endmodule
