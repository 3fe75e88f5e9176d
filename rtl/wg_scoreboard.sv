// wg_scoreboard: pending register and predicate writes per warp.
//
// A bit is set when an instruction writing the register (predicate) issues
// and cleared when its value is written back. An instruction may issue when
// none of the registers and predicates it reads or writes is pending (RAW and
// WAW; no WAR hazard exists because operands are read in issue order).
// hazard_o is combinational from the head masks and the registered bits.
`default_nettype none

module wg_scoreboard #(
  parameter int unsigned NW = 24,      // warps of this scheduler
  // Derived: do not override.
  parameter int unsigned LW_W = (NW > 1) ? $clog2(NW) : 1
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,

  input  wire logic               set_valid_i,
  input  wire logic [LW_W-1:0]    set_warp_i,
  input  wire logic [63:0]        set_rmask_i,
  input  wire logic [7:0]         set_pmask_i,

  input  wire logic               clr_a_valid_i,   // SIMD / control write-back
  input  wire logic [LW_W-1:0]    clr_a_warp_i,
  input  wire logic [63:0]        clr_a_rmask_i,
  input  wire logic [7:0]         clr_a_pmask_i,
  input  wire logic               clr_b_valid_i,   // load write-back (one register per beat)
  input  wire logic [LW_W-1:0]    clr_b_warp_i,
  input  wire logic [63:0]        clr_b_rmask_i,
  input  wire logic               init_valid_i,    // warp launched: nothing pending
  input  wire logic [LW_W-1:0]    init_warp_i,

  input  wire logic [NW*64-1:0]   head_rmask_i,
  input  wire logic [NW*8-1:0]    head_pmask_i,
  output logic [NW-1:0]           hazard_o,
  output logic [NW-1:0]           empty_o          // nothing pending
);

  logic [63:0] preg_q [NW];
  logic [7:0]  ppred_q [NW];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int i = 0; i < 32'(NW); i++) begin
        preg_q[i]  <= '0;
        ppred_q[i] <= '0;
      end
    end else begin
      // Distinct warps never collide within one port; the ports are applied
      // in order clear, clear, set, init on the per-warp value.
      if (clr_a_valid_i) begin
        preg_q[clr_a_warp_i]  <= preg_q[clr_a_warp_i] & ~clr_a_rmask_i &
                                 ~((clr_b_valid_i && clr_b_warp_i == clr_a_warp_i) ? clr_b_rmask_i : 64'd0) |
                                 ((set_valid_i && set_warp_i == clr_a_warp_i) ? set_rmask_i : 64'd0);
        ppred_q[clr_a_warp_i] <= ppred_q[clr_a_warp_i] & ~clr_a_pmask_i |
                                 ((set_valid_i && set_warp_i == clr_a_warp_i) ? set_pmask_i : 8'd0);
      end
      if (clr_b_valid_i && !(clr_a_valid_i && clr_a_warp_i == clr_b_warp_i)) begin
        preg_q[clr_b_warp_i] <= preg_q[clr_b_warp_i] & ~clr_b_rmask_i |
                                ((set_valid_i && set_warp_i == clr_b_warp_i) ? set_rmask_i : 64'd0);
        if (set_valid_i && set_warp_i == clr_b_warp_i) ppred_q[clr_b_warp_i] <= ppred_q[clr_b_warp_i] | set_pmask_i;
      end
      if (set_valid_i && !(clr_a_valid_i && clr_a_warp_i == set_warp_i) &&
          !(clr_b_valid_i && clr_b_warp_i == set_warp_i)) begin
        preg_q[set_warp_i]  <= preg_q[set_warp_i] | set_rmask_i;
        ppred_q[set_warp_i] <= ppred_q[set_warp_i] | set_pmask_i;
      end
      if (init_valid_i) begin
        preg_q[init_warp_i]  <= '0;
        ppred_q[init_warp_i] <= '0;
      end
    end
  end

  always_comb begin
    for (int i = 0; i < 32'(NW); i++) begin
      hazard_o[i] = ((preg_q[i] & head_rmask_i[i*64 +: 64]) != '0) ||
                    ((ppred_q[i] & head_pmask_i[i*8 +: 8]) != '0);
      empty_o[i]  = (preg_q[i] == '0) && (ppred_q[i] == '0);
    end
  end

endmodule
