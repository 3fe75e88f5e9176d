// wg_cta_ctrl: CTA slots, launch and completion (docs/sm.md section 2.2).
//
// Resources: CTA slot c owns shared bytes [c * S, (c+1) * S), S = SMEM_CTA
// rounded up to the array's 128-byte rows, inside the shared part of the
// L1/shared array (smem_cap_i: 48 or 16 KB, docs/memory-pipeline.md section 3);
// warp slot w owns rows [(w / NUM_SIMD) * REGS, + REGS) of its scheduler's
// register file (w mod NUM_SIMD), so a warp slot is usable when its rows fit.
// A launch is accepted when the lowest free CTA slot's shared window fits
// and enough usable warp slots are free (lowest first). Launch steps:
//   L_HOLD   hold the execution pipelines until their write-back rings drain
//            (the register clear owns the register-file write port)
//   L_TID    per warp: allocate the slot, walk its 32 thread indices (8 per
//            cycle, no division), write them to wg_sreg
//   L_TBL    register base + clear in the warp's register file
//   L_CLR    wait for the register and shared-memory clears
//   L_START  start the warps (fetch, SIMT stack, scheduler state), one per cycle
// A CTA is done when all its warps finished (SIMT), retired every
// instruction and have no memory request outstanding.
`default_nettype none

module wg_cta_ctrl #(
  parameter int unsigned NUM_WARPS  = 48,
  parameter int unsigned NUM_SIMD   = 2,
  parameter int unsigned NUM_CTAS   = 8,
  parameter int unsigned NUM_REGS   = 32768,
  parameter int unsigned DMEM_BYTES = 65536,   // shared memory + L1 array (rows of 128 B)
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1,
  parameter int unsigned CTA_W  = (NUM_CTAS > 1) ? $clog2(NUM_CTAS) : 1,
  parameter int unsigned RF_ROWS = NUM_REGS / 32 / NUM_SIMD,
  parameter int unsigned WROW_W = (RF_ROWS > 1) ? $clog2(RF_ROWS) : 1,
  parameter int unsigned SW_W   = $clog2(DMEM_BYTES / 128),
  parameter int unsigned TID_W  = wg_sm_pkg::TID_W
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_ni,

  input  wire logic [5:0]                    regs_i,
  input  wire logic [31:0]                   smem_cta_i,
  input  wire logic [31:0]                   smem_cap_i,   // shared bytes of the L1 split
  input  wire logic [31:0]                   threads_i,
  input  wire logic [3*16-1:0]               ntid_i,       // {z, y, x}

  input  wire logic                          cta_valid_i,
  output logic                               cta_ready_o,
  input  wire logic [3*16-1:0]               cta_id_i,
  input  wire logic [31:0]                   cta_linear_i,
  output logic                               done_valid_o,
  input  wire logic                          done_ready_i,
  output logic [31:0]                        done_linear_o,

  // Launch actions.
  output logic                               hold_o,
  input  wire logic [NUM_SIMD-1:0]           pipe_empty_i,
  output logic [NUM_SIMD-1:0]                tbl_valid_o,
  input  wire logic [NUM_SIMD-1:0]           tbl_ready_i,
  output logic [WARP_W-1:0]                  tbl_warp_o,
  output logic [WROW_W-1:0]                  tbl_base_o,
  input  wire logic [NUM_SIMD-1:0]           clr_busy_i,
  output logic                               sclr_valid_o,
  output logic [SW_W-1:0]                    sclr_addr_o,  // row of 128 B
  input  wire logic                          sclr_ready_i,
  output logic                               tid_we_o,
  output logic [WARP_W-1:0]                  tid_warp_o,
  output logic [32*TID_W-1:0]                tid_row_o,
  output logic                               start_valid_o,
  output logic [WARP_W-1:0]                  start_warp_o,
  output logic [31:0]                        start_mask_o,

  // Warp progress.
  input  wire logic [NUM_SIMD-1:0]           issue_valid_i,
  input  wire logic [NUM_SIMD*WARP_W-1:0]    issue_warp_i,
  input  wire logic                          retire_valid_i,   // a last beat left the SM
  input  wire logic [WARP_W-1:0]             retire_warp_i,
  input  wire logic                          wdone_valid_i,    // SIMT: warp finished
  input  wire logic [WARP_W-1:0]             wdone_warp_i,
  input  wire logic [NUM_WARPS-1:0]          memzero_i,

  // Tables.
  output logic [NUM_WARPS*CTA_W-1:0]         warp_cta_o,
  output logic [NUM_WARPS*5-1:0]             warp_wic_o,
  output logic [NUM_CTAS*32-1:0]             cta_linear_o,
  output logic [NUM_CTAS*48-1:0]             cta_ids_o,
  output logic [NUM_CTAS*NUM_WARPS-1:0]      cta_wmask_o,
  output logic [NUM_WARPS-1:0]               fin_o,
  output logic [NUM_WARPS-1:0]               quiet_o,          // nothing in flight, no request out
  output logic                               resident_o        // a CTA resident or launching
);

  typedef enum logic [2:0] {L_IDLE, L_HOLD, L_TID, L_TBL, L_CLR, L_START} lstate_e;

  lstate_e              st_q;
  logic [NUM_CTAS-1:0]  cvalid_q;
  logic [NUM_WARPS-1:0] alloc_q, fin_q, usable;
  logic [CTA_W-1:0]     warp_cta_q [NUM_WARPS];
  logic [4:0]           warp_wic_q [NUM_WARPS];
  logic [31:0]          cta_lin_q  [NUM_CTAS];
  logic [47:0]          cta_ids_q  [NUM_CTAS];
  logic [NUM_WARPS-1:0] cta_wm_q   [NUM_CTAS];
  logic [7:0]           inflight_q [NUM_WARPS];

  // ---------------------------------------------------------------------------
  // Resources.
  // ---------------------------------------------------------------------------
  logic [5:0]       nw;             // warps per CTA
  logic             cslot_ok;
  logic [CTA_W-1:0] cslot;
  logic [NUM_WARPS-1:0] wfree;
  logic [WARP_W-1:0] wlow;
  logic [6:0]       nfree;

  logic [31:0] smem_rnd;
  assign nw = 6'((threads_i + 32'd31) >> 5);
  assign smem_rnd = (smem_cta_i + 32'd127) & ~32'd127;

  always_comb begin
    for (int i = 0; i < 32'(NUM_WARPS); i++) begin
      usable[i] = (32'(i / NUM_SIMD + 1) * 32'(regs_i)) <= RF_ROWS;
    end
    wfree = usable & ~alloc_q;
    nfree = 7'($countones(wfree));
    wlow  = '0;
    for (int i = 32'(NUM_WARPS) - 1; i >= 0; i--) if (wfree[i]) wlow = WARP_W'(i);
    cslot = '0;
    cslot_ok = 1'b0;
    for (int c = 32'(NUM_CTAS) - 1; c >= 0; c--) begin
      if (!cvalid_q[c]) begin
        cslot = CTA_W'(c);
        cslot_ok = 1'b1;
      end
    end
    if (32'(cslot) * smem_rnd + smem_rnd > smem_cap_i) cslot_ok = 1'b0;
  end

  assign cta_ready_o = (st_q == L_IDLE) && cslot_ok && ({1'b0, nw} <= nfree) && nw != '0;

  // ---------------------------------------------------------------------------
  // Launch.
  // ---------------------------------------------------------------------------
  logic [CTA_W-1:0]  lc_q;            // CTA slot being launched
  logic [5:0]        wi_q;            // warp index in the CTA
  logic [1:0]        part_q;          // 8-lane group of the thread walk
  logic [WARP_W-1:0] cur_w_q;
  logic [WARP_W-1:0] lw_q [32];       // warp slot of each warp of the CTA
  logic [9:0]        tx_q, ty_q;
  logic [5:0]        tz_q;
  logic [SW_W:0]     sclr_q, sclr_end_q;

  logic [32*TID_W-1:0] row_q;

  // Thread walk: 8 consecutive thread indices from (tx, ty, tz).
  logic [8*TID_W-1:0] grp;
  logic [9:0] nx, ny;
  logic [5:0] nz;
  always_comb begin
    logic [9:0] x, y;
    logic [5:0] z;
    x = tx_q;
    y = ty_q;
    z = tz_q;
    for (int k = 0; k < 8; k++) begin
      grp[k*TID_W +: TID_W] = {z, y, x};
      if (32'(x) + 1 >= 32'(ntid_i[15:0])) begin
        x = '0;
        if (32'(y) + 1 >= 32'(ntid_i[31:16])) begin
          y = '0;
          z = z + 6'd1;
        end else begin
          y = y + 10'd1;
        end
      end else begin
        x = x + 10'd1;
      end
    end
    nx = x;
    ny = y;
    nz = z;
  end

  logic tbl_fire, clr_idle;
  logic [NUM_SIMD-1:0] cur_cl;
  always_comb begin
    cur_cl = '0;
    cur_cl[32'(cur_w_q) % NUM_SIMD] = 1'b1;
  end
  assign tbl_valid_o = (st_q == L_TBL) ? cur_cl : '0;
  assign tbl_fire    = (st_q == L_TBL) && ((tbl_ready_i & cur_cl) != '0);
  assign tbl_warp_o  = cur_w_q;
  assign tbl_base_o  = WROW_W'((32'(cur_w_q) / NUM_SIMD) * 32'(regs_i));
  assign clr_idle    = (clr_busy_i == '0);

  assign hold_o       = (st_q == L_HOLD) || (st_q == L_TID) || (st_q == L_TBL) || (st_q == L_CLR);
  assign sclr_valid_o = (st_q != L_IDLE) && (sclr_q < sclr_end_q);
  assign sclr_addr_o  = SW_W'(sclr_q);

  assign tid_we_o   = (st_q == L_TID) && (part_q == 2'd3);
  assign tid_warp_o = cur_w_q;
  assign tid_row_o  = {grp, row_q[32*TID_W-1:8*TID_W]};

  logic [31:0] lanes_of;
  logic [31:0] rem_threads;
  assign rem_threads = threads_i - {21'd0, wi_q, 5'd0};
  assign lanes_of    = (rem_threads >= 32) ? 32'hFFFF_FFFF : ((32'd1 << rem_threads[4:0]) - 32'd1);

  assign start_valid_o = (st_q == L_START);
  assign start_warp_o  = lw_q[wi_q[4:0]];
  assign start_mask_o  = lanes_of;

  logic [NUM_WARPS-1:0] alloc_next;
  always_comb begin
    alloc_next = alloc_q;
    if (done_valid_o && done_ready_i) alloc_next = alloc_next & ~cta_wm_q[done_slot];
    if (st_q == L_TID && part_q == 2'd0) alloc_next[wlow] = 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q     <= L_IDLE;
      cvalid_q <= '0;
      alloc_q  <= '0;
      sclr_q   <= '0;
      sclr_end_q <= '0;
    end else begin
      if (sclr_valid_o && sclr_ready_i) sclr_q <= sclr_q + 1'b1;
      unique case (st_q)
        L_IDLE: begin
          if (cta_valid_i && cta_ready_o) begin
            st_q       <= L_HOLD;
            lc_q       <= cslot;
            cvalid_q[cslot] <= 1'b1;
            sclr_q     <= (SW_W + 1)'((32'(cslot) * smem_rnd) >> 7);
            sclr_end_q <= (SW_W + 1)'((32'(cslot) * smem_rnd + smem_rnd) >> 7);
          end
        end
        L_HOLD: if (pipe_empty_i == '1) st_q <= L_TID;
        L_TID: begin
          if (part_q == 2'd3) st_q <= L_TBL;
        end
        L_TBL: begin
          if (tbl_fire) st_q <= (wi_q + 6'd1 == nw) ? L_CLR : L_TID;
        end
        L_CLR: begin
          if (clr_idle && !sclr_valid_o) st_q <= L_START;
        end
        L_START: begin
          if (wi_q + 6'd1 == nw) st_q <= L_IDLE;
        end
        default: st_q <= L_IDLE;
      endcase
      // Warp allocation at the start of its thread walk, and the release of a
      // finished CTA's warps, may fall in one cycle: merge them (a whole-vector
      // release assignment would drop the new allocation, and the slot would be
      // handed out again to the next warp).
      alloc_q <= alloc_next;
      if (done_valid_o && done_ready_i) cvalid_q[done_slot] <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    unique case (st_q)
      L_IDLE: begin
        wi_q   <= '0;
        part_q <= '0;
        tx_q   <= '0;
        ty_q   <= '0;
        tz_q   <= '0;
        if (cta_valid_i && cta_ready_o) begin
          cta_lin_q[cslot] <= cta_linear_i;
          cta_ids_q[cslot] <= cta_id_i;
          cta_wm_q[cslot]  <= '0;
        end
      end
      L_TID: begin
        if (part_q == 2'd0) begin
          cur_w_q <= wlow;
          lw_q[wi_q[4:0]] <= wlow;
          warp_cta_q[wlow] <= lc_q;
          warp_wic_q[wlow] <= wi_q[4:0];
          cta_wm_q[lc_q][wlow] <= 1'b1;
        end
        row_q  <= {grp, row_q[32*TID_W-1:8*TID_W]};
        part_q <= part_q + 2'd1;
        tx_q   <= nx;
        ty_q   <= ny;
        tz_q   <= nz;
      end
      L_TBL: if (tbl_fire) wi_q <= (wi_q + 6'd1 == nw) ? 6'd0 : wi_q + 6'd1;
      L_START: wi_q <= wi_q + 6'd1;
      default: ;
    endcase
  end

  // ---------------------------------------------------------------------------
  // Warp progress and completion.
  // ---------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      fin_q <= '0;
      for (int i = 0; i < 32'(NUM_WARPS); i++) inflight_q[i] <= '0;
    end else begin
      if (wdone_valid_i) fin_q[wdone_warp_i] <= 1'b1;
      // A reused slot still holds its previous warp's finish: clear it at
      // allocation, so that the barrier counts a warp of a launching CTA as
      // live before it starts (the CTA in launch is never reported done).
      if (st_q == L_TID && part_q == 2'd0) fin_q[wlow] <= 1'b0;
      if (start_valid_o) fin_q[start_warp_o] <= 1'b0;
      for (int i = 0; i < 32'(NUM_WARPS); i++) begin
        logic [7:0] n;
        n = inflight_q[i];
        for (int k = 0; k < 32'(NUM_SIMD); k++) begin
          if (issue_valid_i[k] && issue_warp_i[k*WARP_W +: WARP_W] == WARP_W'(i)) n = n + 8'd1;
        end
        if (retire_valid_i && retire_warp_i == WARP_W'(i)) n = n - 8'd1;
        inflight_q[i] <= n;
      end
    end
  end

  logic [NUM_WARPS-1:0] drained;
  logic [CTA_W-1:0]     done_slot;
  logic                 done_any;
  always_comb begin
    for (int i = 0; i < 32'(NUM_WARPS); i++) drained[i] = fin_q[i] && inflight_q[i] == '0 && memzero_i[i];
    done_any  = 1'b0;
    done_slot = '0;
    for (int c = 32'(NUM_CTAS) - 1; c >= 0; c--) begin
      if (cvalid_q[c] && !(st_q != L_IDLE && lc_q == CTA_W'(c)) && cta_wm_q[c] != '0 &&
          (cta_wm_q[c] & ~drained) == '0) begin
        done_any  = 1'b1;
        done_slot = CTA_W'(c);
      end
    end
  end
  assign done_valid_o  = done_any;
  assign done_linear_o = cta_lin_q[done_slot];

  always_comb begin
    for (int i = 0; i < 32'(NUM_WARPS); i++) begin
      warp_cta_o[i*CTA_W +: CTA_W] = warp_cta_q[i];
      warp_wic_o[i*5 +: 5]         = warp_wic_q[i];
    end
    for (int c = 0; c < 32'(NUM_CTAS); c++) begin
      cta_linear_o[c*32 +: 32] = cta_lin_q[c];
      cta_ids_o[c*48 +: 48]    = cta_ids_q[c];
      // Only resident CTAs: a freed slot's mask is stale (its warps may now
      // belong to another CTA).
      cta_wmask_o[c*NUM_WARPS +: NUM_WARPS] = cvalid_q[c] ? cta_wm_q[c] : '0;
    end
  end
  assign fin_o      = fin_q;
  always_comb begin
    for (int i = 0; i < 32'(NUM_WARPS); i++) quiet_o[i] = (inflight_q[i] == '0) && memzero_i[i];
  end

  // The walk needs no z limit; the oldest group leaves the shift register.
  logic unused_ok;
  assign unused_ok = ^{ntid_i[47:32], row_q[8*TID_W-1:0]};
  assign resident_o = (cvalid_q != '0) || (st_q != L_IDLE);

endmodule
