// wg_decode: instruction word -> uop (docs/isa.md sections 2 and 9).
//
// Combinational. Uses the ISA table of wg_isa_pkg for legality, format and
// class, checks the unused fields and the register range like the golden
// model's decoder (host/src/isa.c), and works out what the scheduler needs:
// register-file sources, the scoreboard masks, the execution path, and
// whether fetch must stop after the instruction (control flow, or the next pc
// is the reconvergence pc of the warp's stack top).
`default_nettype none

module wg_decode #(
  parameter bit HAS_FP = 1'b1,
  parameter bit HAS_SFU = 1'b1
) (
  input  wire logic [63:0] word_i,
  input  wire logic [17:0] pc_i,
  input  wire logic [5:0]  regs_i,   // registers per thread of the kernel
  input  wire logic [17:0] rpc_i,    // reconvergence pc of the warp's stack top
  output wg_sm_pkg::uop_t  uop_o
);

  localparam logic [5:0] RZ = wg_isa_pkg::REG_RZ;

  wg_isa_pkg::insn_info_t info;
  logic [5:0]  op, rd, ra, rc, rb;
  logic [2:0]  mod;
  logic        bimm;
  logic [31:0] b;
  logic        use_rd, use_ra, use_rc, rd_ra, rd_rc, rd_rb, bad;
  logic [2:0]  n;        // registers of a load/store group

  assign op   = word_i[63:58];
  assign bimm = word_i[57];
  assign rd   = word_i[52:47];
  assign ra   = word_i[46:41];
  assign rc   = word_i[40:35];
  assign mod  = word_i[34:32];
  assign b    = word_i[31:0];
  assign rb   = b[5:0];
  assign info = wg_isa_pkg::insn_info(op, mod);

  function automatic logic reg_bad(input logic [5:0] r, input logic [2:0] cnt, input logic [5:0] nregs);
    reg_bad = (r != RZ) && ({1'b0, r} + {4'd0, cnt} > {1'b0, nregs});
  endfunction

  function automatic logic [63:0] group(input logic [5:0] r, input logic [2:0] cnt);
    logic [63:0] m;
    m = '0;
    if (r != RZ) begin
      for (int k = 0; k < 4; k++) begin
        if (k < 32'(cnt) && 32'(r) + k < 63) m[32'(r) + k] = 1'b1;
      end
    end
    group = m;
  endfunction

  always_comb begin
    uop_o = '0;
    uop_o.op     = op;
    uop_o.mod    = mod;
    uop_o.gneg   = word_i[56];
    uop_o.gp     = word_i[55:53];
    uop_o.rd     = rd;
    uop_o.ra     = ra;
    uop_o.rc     = rc;
    uop_o.bimm   = bimm;
    uop_o.imm    = b;
    uop_o.reconv = word_i[52:35];
    uop_o.pc     = pc_i;
    uop_o.cls    = info.cls;
    uop_o.rf_a   = RZ;
    uop_o.rf_b   = RZ;
    uop_o.rf_c   = RZ;

    n = (info.fmt == wg_isa_pkg::FMT_LD || info.fmt == wg_isa_pkg::FMT_ST) ?
        wg_isa_pkg::width_regs(mod) : 3'd1;

    use_rd = 1'b0;
    use_ra = 1'b0;
    use_rc = 1'b0;
    rd_ra  = info.rd_ra;
    rd_rc  = info.rd_rc;
    rd_rb  = info.has_b && !bimm;
    case (info.fmt)
      wg_isa_pkg::FMT_RB, wg_isa_pkg::FMT_S2R: use_rd = 1'b1;
      wg_isa_pkg::FMT_RA, wg_isa_pkg::FMT_RAB, wg_isa_pkg::FMT_SETP,
      wg_isa_pkg::FMT_LD, wg_isa_pkg::FMT_ATOM: begin
        use_rd = 1'b1;
        use_ra = 1'b1;
      end
      wg_isa_pkg::FMT_RABC, wg_isa_pkg::FMT_SEL, wg_isa_pkg::FMT_PLOP, wg_isa_pkg::FMT_CAS: begin
        use_rd = 1'b1;
        use_ra = 1'b1;
        use_rc = 1'b1;
      end
      wg_isa_pkg::FMT_ST: begin
        use_ra = 1'b1;
        use_rc = 1'b1;
      end
      default: ;
    endcase

    // Legality (host/src/isa.c: wg_isa_decode, wg_isa_check_regs).
    bad = !info.legal;
    if (info.fmt == wg_isa_pkg::FMT_BRA) begin
      bad = bad || bimm || (b >= 32'h3FFFF);   // a pc below WG_PC_MAX (host/src/isa.h)
    end else begin
      bad = bad || (!use_rd && rd != '0) || (!use_ra && ra != '0) || (!use_rc && rc != '0);
      bad = bad || (!info.has_b && bimm) || (info.has_b && !bimm && b[31:6] != '0);
    end
    case (info.fmt)
      wg_isa_pkg::FMT_N, wg_isa_pkg::FMT_RA: bad = bad || (b != '0);
      wg_isa_pkg::FMT_PLOP: bad = bad || (b != '0) || (rd[5:3] != '0) || (ra[5:4] != '0) || (rc[5:4] != '0);
      wg_isa_pkg::FMT_SEL: bad = bad || (rc[5:4] != '0);
      wg_isa_pkg::FMT_SETP: bad = bad || (rd[5:3] != '0);
      wg_isa_pkg::FMT_S2R: bad = bad || (b >= 32'(wg_isa_pkg::NUM_SR));
      wg_isa_pkg::FMT_BAR: bad = bad || (b >= 32'(wg_isa_pkg::NUM_BARRIERS));
      // Group alignment: n is 1, 2 or 4 (wg_isa_pkg::width_regs), so r % n is r & (n - 1). A
      // modulo by a variable is a divider in synthesis (about 6k LUTs for these two lines).
      wg_isa_pkg::FMT_LD: bad = bad || (n > 3'd1 && rd != RZ && ((rd[2:0] & (n - 3'd1)) != '0 || 32'(rd) + 32'(n) - 1 >= 63));
      wg_isa_pkg::FMT_ST: bad = bad || (n > 3'd1 && rc != RZ && ((rc[2:0] & (n - 3'd1)) != '0 || 32'(rc) + 32'(n) - 1 >= 63));
      default: ;
    endcase
    // Register range against the kernel's .regs.
    if (info.fmt != wg_isa_pkg::FMT_BRA) begin
      bad = bad || (info.wr_rd && use_rd && reg_bad(rd, (info.fmt == wg_isa_pkg::FMT_LD) ? n : 3'd1, regs_i));
      bad = bad || (rd_ra && reg_bad(ra, 3'd1, regs_i));
      bad = bad || (rd_rc && info.fmt != wg_isa_pkg::FMT_SEL &&
                    reg_bad(rc, (info.fmt == wg_isa_pkg::FMT_ST) ? n : 3'd1, regs_i));
      bad = bad || (rd_rb && reg_bad(rb, 3'd1, regs_i));
    end
    if (!HAS_FP && info.cls == wg_isa_pkg::CLASS_FP) bad = 1'b1;
    if (!HAS_SFU && info.cls == wg_isa_pkg::CLASS_SFU) bad = 1'b1;
    // ATOMG.ADD.F32 (executed outside the SM) needs an FP model; ATOMS.ADD.F32
    // uses the FP32 adder of the LSU, present with HAS_FP.
    if (!HAS_FP && (op == wg_isa_pkg::OP_ATOMGX || op == wg_isa_pkg::OP_ATOMSX) && mod == 3'd4) bad = 1'b1;
    uop_o.illegal = bad;

    // Execution path, sources, destinations.
    uop_o.unit = wg_sm_pkg::UNIT_SIMD;
    case (info.fmt)
      wg_isa_pkg::FMT_N, wg_isa_pkg::FMT_PLOP, wg_isa_pkg::FMT_BRA, wg_isa_pkg::FMT_BAR:
        uop_o.unit = wg_sm_pkg::UNIT_CTRL;
      wg_isa_pkg::FMT_LD, wg_isa_pkg::FMT_ST, wg_isa_pkg::FMT_ATOM, wg_isa_pkg::FMT_CAS:
        uop_o.unit = wg_sm_pkg::UNIT_LSU;
      default: ;
    endcase
    if (info.cls == wg_isa_pkg::CLASS_SFU) uop_o.unit = wg_sm_pkg::UNIT_SFU;
    if (rd_ra) uop_o.rf_a = ra;
    if (rd_rb) uop_o.rf_b = rb;
    if (info.fmt == wg_isa_pkg::FMT_ST) begin
      // Store data: rc (and rc+1 for .64) in the B and C slots. A .128 store
      // reads its operands twice (wg_exec_pipe): rc, rc+1, then rc+2, rc+3.
      uop_o.rf_b = rc;
      if (n >= 3'd2 && rc != RZ) uop_o.rf_c = rc + 6'd1;
    end else if (rd_rc && info.fmt != wg_isa_pkg::FMT_SEL) begin
      uop_o.rf_c = rc;
    end
    uop_o.nwr   = (info.wr_rd && rd != RZ) ? ((info.fmt == wg_isa_pkg::FMT_LD) ? n : 3'd1) : 3'd0;
    uop_o.wr_pd = (info.fmt == wg_isa_pkg::FMT_SETP || info.fmt == wg_isa_pkg::FMT_PLOP) && rd[2:0] != 3'd7;

    // Scoreboard masks: every register read or written, every predicate.
    uop_o.rmask = group(uop_o.rf_a, 3'd1) | group(uop_o.rf_b, 3'd1) | group(uop_o.rf_c, 3'd1) |
                  group(rd, uop_o.nwr);
    if (info.fmt == wg_isa_pkg::FMT_ST) uop_o.rmask = uop_o.rmask | group(rc, n);
    uop_o.pmask = '0;
    uop_o.pmask[word_i[55:53]] = 1'b1;
    if (info.fmt == wg_isa_pkg::FMT_SEL || info.fmt == wg_isa_pkg::FMT_PLOP) uop_o.pmask[rc[2:0]] = 1'b1;
    if (info.fmt == wg_isa_pkg::FMT_PLOP) uop_o.pmask[ra[2:0]] = 1'b1;
    if (uop_o.wr_pd) uop_o.pmask[rd[2:0]] = 1'b1;
    uop_o.pmask[7] = 1'b0;

    // Fetch stops after control flow; other instructions advance the SIMT
    // stack when their successor is the reconvergence pc.
    if (op == wg_isa_pkg::OP_BRA || op == wg_isa_pkg::OP_EXIT || op == wg_isa_pkg::OP_BAR || bad) begin
      uop_o.stop = 1'b1;
    end else if (pc_i + 18'd1 == rpc_i) begin
      uop_o.stop = 1'b1;
      uop_o.adv  = 1'b1;
    end
  end

  if ($bits(uop_o) != wg_sm_pkg::UOP_W) begin : g_bad_width
    $error("wg_decode: wg_sm_pkg::UOP_W does not match uop_t");
  end
`ifndef SYNTHESIS
  // The unit field where UOP_UNIT_LSB says: a uop with only unit set has exactly those bits
  // (checked by Verilator; yosys reads neither the assignment pattern nor the cast).
  localparam wg_sm_pkg::uop_t UNIT_ONLY = '{unit: 2'b11, default: '0};
  if (UNIT_ONLY != (wg_sm_pkg::UOP_W)'(3) << wg_sm_pkg::UOP_UNIT_LSB) begin : g_bad_unit_lsb
    $error("wg_decode: wg_sm_pkg::UOP_UNIT_LSB does not match uop_t");
  end
`endif

endmodule
