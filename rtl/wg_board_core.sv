// wg_board_core: the link engine and the GPU top in one block (docs/board.md section 2,
// docs/link-rtl.md): the host's byte stream in and out, nothing else needed.
//
//   rx bytes ──> wg_link ──cmd_*──> wg_gpu (NUM_SMS SMs in target time)
//   tx bytes <── wg_link <──ev_*─── wg_gpu
//
// The byte streams are 8-bit valid/ready: on an FPGA board they come from the USB bridge
// (the FX2LP slave-FIFO bridge, a board top that wraps this core), in Verilator from the
// board process (sim/wgboard.h). One clock, the link clock of both blocks. The GPU's build
// parameters go to both blocks, so the HELLO reply announces the very GPU behind it.
//
// Besides the byte streams the core brings out status for a board's LEDs and debug
// registers: the link state and its error reports (rep_*, one per cycle), the GPU's target
// time, a pulse per command taken and per event sent, and idle_o: nothing moves at the next
// edge unless a byte arrives (the link engine idle, no command or event between the
// blocks, target time standing at the grant); wait_o: the same but for the link's
// retransmission and NAK timers (the engine waits for the host).
//
// A side port writes the SMs' power-gating kernel registers for a board's debug port
// (jcfg_*: docs/usb.md section 2.1): such a write enters the GPU's command stream as a CFG
// to every SM when no host command is held, and only at an edge where the GPU runs target
// time or no SM holds work, so that it takes effect in a cycle of target time.
`default_nettype none

`ifndef WG_GPU_NUM_SMS
`define WG_GPU_NUM_SMS 15
`endif

module wg_board_core #(
  // The GPU's build (wg_gpu's parameters, same names and defaults). NUM_SMS defaults to a
  // macro, as in wg_gpu, so that a hierarchical build can set it without reaching the SMs.
  parameter int unsigned NUM_SMS       = `WG_GPU_NUM_SMS,
  parameter int unsigned NUM_WARPS     = 48,
  parameter int unsigned SIMD_WIDTH    = 16,
  parameter int unsigned NUM_SIMD      = 2,
  parameter int unsigned NUM_REGS      = 32768,
  parameter int unsigned RF_BANKS      = 16,
  parameter int unsigned NUM_CTAS      = 8,
  parameter int unsigned DMEM_BYTES    = 65536,
  parameter int unsigned L1_SETS       = 64,
  parameter int unsigned L1_MSHRS      = 8,
  parameter int unsigned IMEM_DEPTH    = 4096,
  parameter int unsigned CMEM_BYTES    = 4096,
  parameter int unsigned STACK_DEPTH   = 64,
  parameter bit          HAS_FP        = 1'b1,
  parameter int unsigned MEM_TAG_W     = 8,
  parameter bit          RETIRE_EN     = 1'b1,
  parameter bit          HAS_SFU       = 1'b1,    // the SM's FPGA options (wg_gpu)
  parameter int unsigned LSU_LANES     = 32,
  parameter int unsigned RF_LANES      = 32,
  parameter bit          SIMD_DIRECT   = 1'b1,
  parameter int unsigned RSP_DEPTH     = 1 << MEM_TAG_W,
  parameter int unsigned LAUNCH_DEPTH  = NUM_CTAS,
  parameter int unsigned OUT_DEPTH     = 2,
  // The link engine (docs/link-rtl.md section 6).
  parameter int unsigned RX_BUF_BYTES  = 32768,
  parameter int unsigned RX_PAYLOAD    = 16364,
  parameter int unsigned DESC_DEPTH    = 4,
  parameter int unsigned TX_FRAMES     = 8,
  parameter int unsigned TX_SLOT_BYTES = 4096,
  parameter int unsigned FLUSH_CYCLES  = 256,
  parameter int unsigned RTO_CYCLES    = 1000000,
  parameter int unsigned MAX_RETRIES   = 8,
  parameter int unsigned LERR_DEPTH    = 4,
  // Derived: do not override.
  parameter int unsigned CNT_W = 4 * 64 + 12 * 32 + 5 * 32 + wg_sm_pkg::NUM_MEMCNT * 32
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,

  // Bytes from and to the host.
  input  wire logic                 rx_valid_i,
  output logic                      rx_ready_o,
  input  wire logic [7:0]           rx_data_i,
  output logic                      tx_valid_o,
  input  wire logic                 tx_ready_i,
  output logic      [7:0]           tx_data_o,

  // Link status (wg_link).
  output logic                      up_o,
  output logic                      failed_o,
  output logic                      rep_valid_o,
  output logic      [3:0]           rep_code_o,
  output logic      [7:0]           rep_type_o,
  output logic      [31:0]          rep_seq_o,
  output logic      [63:0]          rep_off_o,
  output logic      [31:0]          rep_exp_o,
  output logic      [31:0]          rep_act_o,

  // GPU status (wg_gpu) and activity.
  output logic      [63:0]          cycle_o,
  output logic      [63:0]          grant_o,
  output logic                      running_o,
  output logic                      error_o,
  output logic                      cmd_fire_o,   // a command taken by the GPU
  output logic                      ev_fire_o,    // an event taken by the link engine
  output logic      [2:0]           ev_kind_o,    // its kind (with ev_fire_o)
  output logic                      idle_o,
  output logic                      wait_o,       // idle but for the link's timers (docs/link-rtl.md)

  // Kernel register writes from the board's debug port (CFG to every SM, addr < 32).
  input  wire logic                 jcfg_valid_i,
  output logic                      jcfg_ready_o, // taken into the core's holding register
  input  wire logic [4:0]           jcfg_addr_i,
  input  wire logic [31:0]          jcfg_data_i,
  output logic                      jcfg_fire_o   // the GPU takes a held write (at cycle_o)
);

  // The GPU's clock. The GPU gets a clock edge only when it may have something to do: a
  // command to take, an event to hand over, target time to run, its reset. Everything it does
  // is stamped in target time, so an edge more or less in link time changes nothing it does
  // (docs/gpu.md section 3); what gating buys is that a link busy with bytes does not evaluate
  // the GPU in simulation, nor toggle it on a board. The gate holds the clock high while off
  // (wg_clk_gate on the inverted clock: the enable is taken at a rising edge of clk_i and
  // governs the next one), so that the SMs' own gates inside wg_gpu, which sample their
  // enables at falling edges, see a falling edge before every rising edge the GPU gets.
  logic clk_gpu_n, clk_gpu, gpu_want, gpu_act;

  wg_clk_gate u_gpu_gate (
    .clk_i (~clk_i),
    .en_i  (gpu_want),
    .clk_o (clk_gpu_n),
    .en_o  (gpu_act)          // the coming rising edge of clk_i reaches the GPU
  );
  assign clk_gpu = ~clk_gpu_n;

  // The GPU's reset, registered in its clock domain: nothing the SMs read then follows a top
  // input combinationally (a Verilated SM block re-evaluates its inputs whenever one could
  // have changed; a top input can change at any evaluation).
  logic rst_gpu_nq;
  always_ff @(posedge clk_gpu) rst_gpu_nq <= rst_ni;

  // Command port: the link engine's command (clk_i) is loaded into a holding register of the
  // GPU's clock domain at a GPU edge, and offered to wg_gpu from there.
  logic                 cmd_valid, cmd_ready;
  logic [3:0]           cmd_op;
  logic [7:0]           cmd_sm;
  logic                 cmd_all;
  logic [63:0]          cmd_at;
  logic [31:0]          cmd_addr;
  logic [MEM_TAG_W-1:0] cmd_tag;
  logic [1023:0]        cmd_data;
  logic                 hold_valid_q, gpu_cmd_ready;
  logic [3:0]           hold_op_q;
  logic [7:0]           hold_sm_q;
  logic                 hold_all_q;
  logic [63:0]          hold_at_q;
  logic [31:0]          hold_addr_q;
  logic [MEM_TAG_W-1:0] hold_tag_q;
  logic [1023:0]        hold_data_q;

  assign cmd_ready = gpu_act && !hold_valid_q;

  // The debug port's write: held in the GPU's clock domain like a host command, offered to
  // wg_gpu (as CFG to every SM) only while no host command is held and the GPU either runs
  // target time at the coming edge or holds no work, so the set-up edge it causes is a
  // cycle of target time or changes nothing but the register. "No work" is registered at
  // each GPU edge (no SM busy before an edge that ran no target time: such an edge cannot
  // make an SM busy, so none is busy after it either); taken from wg_gpu's busy mask directly
  // it would make the command's valid depend on the SMs' outputs.
  logic       jhold_valid_q, jsel, gpu_cmd_valid, jidle_q;
  logic [4:0] jhold_addr_q;
  logic [31:0] jhold_data_q;
  logic [NUM_SMS-1:0] gpu_busy;

  assign jcfg_ready_o = gpu_act && !jhold_valid_q;
  assign jsel         = jhold_valid_q && !hold_valid_q && (running_o || jidle_q);

  always_ff @(posedge clk_gpu) jidle_q <= rst_gpu_nq && gpu_busy == '0 && !running_o;

  always_ff @(posedge clk_gpu) begin
    if (!rst_gpu_nq) begin
      jhold_valid_q <= 1'b0;
    end else if (jcfg_valid_i && !jhold_valid_q) begin
      jhold_valid_q <= 1'b1;
    end else if (jsel && gpu_cmd_ready) begin
      jhold_valid_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_gpu) begin
    if (jcfg_valid_i && !jhold_valid_q) begin
      jhold_addr_q <= jcfg_addr_i;
      jhold_data_q <= jcfg_data_i;
    end
  end

  assign gpu_cmd_valid = hold_valid_q || jsel;

  // A command taken leaves NOP behind, so that wg_gpu's ready means "out of reset" while the
  // holding register is empty.
  always_ff @(posedge clk_gpu) begin
    if (!rst_gpu_nq) begin
      hold_valid_q <= 1'b0;
      hold_op_q    <= 4'd0;
    end else if (cmd_valid && !hold_valid_q) begin
      hold_valid_q <= 1'b1;
      hold_op_q    <= cmd_op;
    end else if (hold_valid_q && gpu_cmd_ready) begin
      hold_valid_q <= 1'b0;
      hold_op_q    <= 4'd0;
    end
  end

  always_ff @(posedge clk_gpu) begin
    if (cmd_valid && !hold_valid_q) begin
      hold_sm_q   <= cmd_sm;
      hold_all_q  <= cmd_all;
      hold_at_q   <= cmd_at;
      hold_addr_q <= cmd_addr;
      hold_tag_q  <= cmd_tag;
      hold_data_q <= cmd_data;
    end
  end

  // Event port: the link engine takes an event at a GPU edge only.
  logic                 ev_valid, ev_ready, gpu_ev_valid;
  assign ev_valid = gpu_ev_valid && gpu_act;
  logic [2:0]           ev_kind;
  logic [7:0]           ev_sm;
  logic [63:0]          ev_cycle;
  logic [MEM_TAG_W-1:0]  ev_mreq_tag;
  logic [1:0]            ev_mreq_cmd;
  logic [31:0]           ev_mreq_addr;
  logic [2:0]            ev_mreq_size;
  logic [127:0]          ev_mreq_wmask;
  logic [1023:0]         ev_mreq_wdata;
  logic [3:0]            ev_mreq_atom_op;
  logic [31:0]           ev_mreq_atom_b;
  logic [31:0]           ev_mreq_atom_c;
  logic                  ev_mreq_local;
  logic                  ev_mreq_wb;
  logic [5:0]            ev_mreq_warp;
  logic [17:0]           ev_mreq_pc;
  logic [4:0]            ev_mreq_lane;
  logic [31:0]           ev_done_linear;
  logic [3:0]            ev_fault_code;
  logic [5:0]            ev_fault_warp;
  logic [17:0]           ev_fault_pc;
  logic [4:0]            ev_fault_lane;
  logic [31:0]           ev_fault_addr;
  logic [31:0]           ev_fault_cta_linear;
  logic [5:0]            ev_ret_warp;
  logic [31:0]           ev_ret_cta_linear;
  logic [4:0]            ev_ret_wic;
  logic [15:0]           ev_ret_seq;
  logic [17:0]           ev_ret_pc;
  logic [31:0]           ev_ret_active;
  logic [31:0]           ev_ret_exec;
  logic [1:0]            ev_ret_dst;
  logic [5:0]            ev_ret_reg;
  logic [1:0]            ev_ret_beat;
  logic                  ev_ret_last;
  logic [1023:0]         ev_ret_data;
  logic [NUM_SMS-1:0]    ev_busy;
  logic [CNT_W-1:0]      ev_cnt;
  logic [3:0]            ev_err_code;
  logic                 link_idle, link_wait;

  wg_link #(
    .NUM_SMS       (NUM_SMS),
    .NUM_WARPS     (NUM_WARPS),
    .SIMD_WIDTH    (SIMD_WIDTH),
    .NUM_SIMD      (NUM_SIMD),
    .NUM_REGS      (NUM_REGS),
    .RF_BANKS      (RF_BANKS),
    .NUM_CTAS      (NUM_CTAS),
    .DMEM_BYTES    (DMEM_BYTES),
    .L1_SETS       (L1_SETS),
    .L1_MSHRS      (L1_MSHRS),
    .IMEM_DEPTH    (IMEM_DEPTH),
    .CMEM_BYTES    (CMEM_BYTES),
    .STACK_DEPTH   (STACK_DEPTH),
    .HAS_FP        (HAS_FP),
    .MEM_TAG_W     (MEM_TAG_W),
    .RETIRE_EN     (RETIRE_EN),
    .RSP_DEPTH     (RSP_DEPTH),
    .LAUNCH_DEPTH  (LAUNCH_DEPTH),
    .CNT_W         (CNT_W),
    .RX_BUF_BYTES  (RX_BUF_BYTES),
    .RX_PAYLOAD    (RX_PAYLOAD),
    .DESC_DEPTH    (DESC_DEPTH),
    .TX_FRAMES     (TX_FRAMES),
    .TX_SLOT_BYTES (TX_SLOT_BYTES),
    .FLUSH_CYCLES  (FLUSH_CYCLES),
    .RTO_CYCLES    (RTO_CYCLES),
    .MAX_RETRIES   (MAX_RETRIES),
    .LERR_DEPTH    (LERR_DEPTH)
  ) u_link (
    .clk_i                  (clk_i),
    .rst_ni                 (rst_ni),
    .rx_valid_i             (rx_valid_i),
    .rx_ready_o             (rx_ready_o),
    .rx_data_i              (rx_data_i),
    .tx_valid_o             (tx_valid_o),
    .tx_ready_i             (tx_ready_i),
    .tx_data_o              (tx_data_o),
    .cmd_valid_o            (cmd_valid),
    .cmd_ready_i            (cmd_ready),
    .cmd_op_o               (cmd_op),
    .cmd_sm_o               (cmd_sm),
    .cmd_all_o              (cmd_all),
    .cmd_at_o               (cmd_at),
    .cmd_addr_o             (cmd_addr),
    .cmd_tag_o              (cmd_tag),
    .cmd_data_o             (cmd_data),
    .ev_valid_i             (ev_valid),
    .ev_ready_o             (ev_ready),
    .ev_kind_i              (ev_kind),
    .ev_sm_i                (ev_sm),
    .ev_cycle_i             (ev_cycle),
    .ev_mreq_tag_i          (ev_mreq_tag),
    .ev_mreq_cmd_i          (ev_mreq_cmd),
    .ev_mreq_addr_i         (ev_mreq_addr),
    .ev_mreq_size_i         (ev_mreq_size),
    .ev_mreq_wmask_i        (ev_mreq_wmask),
    .ev_mreq_wdata_i        (ev_mreq_wdata),
    .ev_mreq_atom_op_i      (ev_mreq_atom_op),
    .ev_mreq_atom_b_i       (ev_mreq_atom_b),
    .ev_mreq_atom_c_i       (ev_mreq_atom_c),
    .ev_mreq_local_i        (ev_mreq_local),
    .ev_mreq_wb_i           (ev_mreq_wb),
    .ev_mreq_warp_i         (ev_mreq_warp),
    .ev_mreq_pc_i           (ev_mreq_pc),
    .ev_mreq_lane_i         (ev_mreq_lane),
    .ev_done_linear_i       (ev_done_linear),
    .ev_fault_code_i        (ev_fault_code),
    .ev_fault_warp_i        (ev_fault_warp),
    .ev_fault_pc_i          (ev_fault_pc),
    .ev_fault_lane_i        (ev_fault_lane),
    .ev_fault_addr_i        (ev_fault_addr),
    .ev_fault_cta_linear_i  (ev_fault_cta_linear),
    .ev_ret_warp_i          (ev_ret_warp),
    .ev_ret_cta_linear_i    (ev_ret_cta_linear),
    .ev_ret_wic_i           (ev_ret_wic),
    .ev_ret_seq_i           (ev_ret_seq),
    .ev_ret_pc_i            (ev_ret_pc),
    .ev_ret_active_i        (ev_ret_active),
    .ev_ret_exec_i          (ev_ret_exec),
    .ev_ret_dst_i           (ev_ret_dst),
    .ev_ret_reg_i           (ev_ret_reg),
    .ev_ret_beat_i          (ev_ret_beat),
    .ev_ret_last_i          (ev_ret_last),
    .ev_ret_data_i          (ev_ret_data),
    .ev_busy_i              (ev_busy),
    .ev_cnt_i               (ev_cnt),
    .ev_err_code_i          (ev_err_code),
    .up_o                   (up_o),
    .failed_o               (failed_o),
    .rep_valid_o            (rep_valid_o),
    .rep_code_o             (rep_code_o),
    .rep_type_o             (rep_type_o),
    .rep_seq_o              (rep_seq_o),
    .rep_off_o              (rep_off_o),
    .rep_exp_o              (rep_exp_o),
    .rep_act_o              (rep_act_o),
    .idle_o                 (link_idle),
    .wait_o                 (link_wait)
  );

  wg_gpu #(
    .NUM_SMS      (NUM_SMS),
    .NUM_WARPS    (NUM_WARPS),
    .SIMD_WIDTH   (SIMD_WIDTH),
    .NUM_SIMD     (NUM_SIMD),
    .NUM_REGS     (NUM_REGS),
    .RF_BANKS     (RF_BANKS),
    .NUM_CTAS     (NUM_CTAS),
    .DMEM_BYTES   (DMEM_BYTES),
    .L1_SETS      (L1_SETS),
    .L1_MSHRS     (L1_MSHRS),
    .IMEM_DEPTH   (IMEM_DEPTH),
    .CMEM_BYTES   (CMEM_BYTES),
    .STACK_DEPTH  (STACK_DEPTH),
    .HAS_FP       (HAS_FP),
    .MEM_TAG_W    (MEM_TAG_W),
    .RETIRE_EN    (RETIRE_EN),
    .HAS_SFU      (HAS_SFU),
    .LSU_LANES    (LSU_LANES),
    .RF_LANES     (RF_LANES),
    .SIMD_DIRECT  (SIMD_DIRECT),
    .RSP_DEPTH    (RSP_DEPTH),
    .LAUNCH_DEPTH (LAUNCH_DEPTH),
    .OUT_DEPTH    (OUT_DEPTH)
  ) u_gpu (
    .clk_i                  (clk_gpu),
    .rst_ni                 (rst_gpu_nq),
    .cmd_valid_i            (gpu_cmd_valid),
    .cmd_ready_o            (gpu_cmd_ready),
    .cmd_op_i               (jsel ? 4'd2 : hold_op_q),   // 2: CFG
    .cmd_sm_i               (hold_sm_q),
    .cmd_all_i              (jsel || hold_all_q),
    .cmd_at_i               (hold_at_q),
    .cmd_addr_i             (jsel ? {27'd0, jhold_addr_q} : hold_addr_q),
    .cmd_tag_i              (hold_tag_q),
    // A CFG reads data[31:0] only (docs/gpu.md section 4.1): the debug port's write replaces
    // those bits alone, and the held command's others go along unread (no 1,024-bit select).
    .cmd_data_i             ({hold_data_q[1023:32], jsel ? jhold_data_q : hold_data_q[31:0]}),
    .ev_valid_o             (gpu_ev_valid),
    .ev_ready_i             (ev_ready),
    .ev_kind_o              (ev_kind),
    .ev_sm_o                (ev_sm),
    .ev_cycle_o             (ev_cycle),
    .ev_mreq_tag_o          (ev_mreq_tag),
    .ev_mreq_cmd_o          (ev_mreq_cmd),
    .ev_mreq_addr_o         (ev_mreq_addr),
    .ev_mreq_size_o         (ev_mreq_size),
    .ev_mreq_wmask_o        (ev_mreq_wmask),
    .ev_mreq_wdata_o        (ev_mreq_wdata),
    .ev_mreq_atom_op_o      (ev_mreq_atom_op),
    .ev_mreq_atom_b_o       (ev_mreq_atom_b),
    .ev_mreq_atom_c_o       (ev_mreq_atom_c),
    .ev_mreq_local_o        (ev_mreq_local),
    .ev_mreq_wb_o           (ev_mreq_wb),
    .ev_mreq_warp_o         (ev_mreq_warp),
    .ev_mreq_pc_o           (ev_mreq_pc),
    .ev_mreq_lane_o         (ev_mreq_lane),
    .ev_done_linear_o       (ev_done_linear),
    .ev_fault_code_o        (ev_fault_code),
    .ev_fault_warp_o        (ev_fault_warp),
    .ev_fault_pc_o          (ev_fault_pc),
    .ev_fault_lane_o        (ev_fault_lane),
    .ev_fault_addr_o        (ev_fault_addr),
    .ev_fault_cta_linear_o  (ev_fault_cta_linear),
    .ev_ret_warp_o          (ev_ret_warp),
    .ev_ret_cta_linear_o    (ev_ret_cta_linear),
    .ev_ret_wic_o           (ev_ret_wic),
    .ev_ret_seq_o           (ev_ret_seq),
    .ev_ret_pc_o            (ev_ret_pc),
    .ev_ret_active_o        (ev_ret_active),
    .ev_ret_exec_o          (ev_ret_exec),
    .ev_ret_dst_o           (ev_ret_dst),
    .ev_ret_reg_o           (ev_ret_reg),
    .ev_ret_beat_o          (ev_ret_beat),
    .ev_ret_last_o          (ev_ret_last),
    .ev_ret_data_o          (ev_ret_data),
    .ev_busy_o              (gpu_busy),
    .ev_cnt_o               (ev_cnt),
    .ev_err_code_o          (ev_err_code),
    .cycle_o                (cycle_o),
    .grant_o                (grant_o),
    .running_o              (running_o),
    .error_o                (error_o)
  );

  // The GPU wants its clock while it is in reset, has a command (or one waits to be loaded),
  // offers an event or runs target time. With none of these wg_gpu holds still (the in-process
  // model skips such cycles the same way, sim/wggpu.cpp).
  logic gpu_still;
  assign gpu_still  = rst_ni && rst_gpu_nq && gpu_cmd_ready && !hold_valid_q && !jsel && !gpu_ev_valid && !running_o;
  assign gpu_want   = !gpu_still || cmd_valid || (jcfg_valid_i && !jhold_valid_q);
  assign ev_busy    = gpu_busy;

  assign cmd_fire_o = gpu_act && hold_valid_q && gpu_cmd_ready;
  assign jcfg_fire_o = gpu_act && jsel && gpu_cmd_ready;
  assign ev_fire_o  = ev_valid && ev_ready;
  assign ev_kind_o  = ev_kind;
  // Idle: the link engine idle, the GPU still and its clock already off, no debug-port write
  // to take (a held one that waits for the GPU to run counts as still: only a grant from
  // the host, which arrives as bytes, lets it in).
  logic jcfg_new;
  assign jcfg_new   = jcfg_valid_i && !jhold_valid_q;
  assign idle_o     = link_idle && gpu_still && !gpu_act && !jcfg_new;
  assign wait_o     = link_wait && gpu_still && !gpu_act && !jcfg_new;

`ifndef SYNTHESIS
  // A command stays offered, unchanged, until the GPU takes it; an idle core with no byte
  // coming in stays idle and target time stands still.
  logic        cmd_held_q, idle_held_q;
  logic [3:0]  cmd_op_held_q;
  logic [63:0] cmd_at_held_q, cycle_held_q;
  always_ff @(posedge clk_i) begin
    cmd_held_q    <= rst_ni && cmd_valid && !cmd_ready;
    cmd_op_held_q <= cmd_op;
    cmd_at_held_q <= cmd_at;
    idle_held_q   <= rst_ni && idle_o && !rx_valid_i && !jcfg_valid_i;
    cycle_held_q  <= cycle_o;
    if (rst_ni && cmd_held_q) begin
      assert (cmd_valid && cmd_op == cmd_op_held_q && cmd_at == cmd_at_held_q)
        else $error("wg_board_core: command withdrawn or changed before the GPU took it");
    end
    if (rst_ni && idle_held_q) begin
      assert (idle_o && !tx_valid_o && cycle_o == cycle_held_q)
        else $error("wg_board_core: the core left its idle state with no byte coming in");
    end
  end
`endif

endmodule
