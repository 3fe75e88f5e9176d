// wg_spill_reg: two-entry skid buffer that cuts both handshake paths.
//
// out_valid_o and in_ready_o come straight from flip-flops: no combinational
// path runs from in_valid_i to out_valid_o or from out_ready_i to in_ready_o,
// yet a full-rate stream passes without bubbles. Entry A takes the input;
// when the output stalls, A's word moves to entry B (the spill slot) so that
// A can still accept one more word. B, the older word, leaves first.
// Latency one cycle. BYPASS = 1 turns the module into wires (for pipelines
// whose register stages are chosen by parameter).
`default_nettype none

module wg_spill_reg #(
  parameter int unsigned WIDTH  = 32,
  parameter bit          BYPASS = 1'b0
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,

  input  wire logic             in_valid_i,
  output logic                  in_ready_o,
  input  wire logic [WIDTH-1:0] in_data_i,

  output logic                  out_valid_o,
  input  wire logic             out_ready_i,
  output logic      [WIDTH-1:0] out_data_o
);

  if (BYPASS) begin : g_bypass
    assign out_valid_o = in_valid_i;
    assign in_ready_o  = out_ready_i;
    assign out_data_o  = in_data_i;
    logic unused_clk;
    assign unused_clk = clk_i ^ rst_ni;
  end else begin : g_spill
    logic [WIDTH-1:0] a_data_q, b_data_q;
    logic             a_full_q, b_full_q;
    logic             in_fire, a_fill, a_drain, b_fill, b_drain;

    // Accept while either slot is free.
    assign in_ready_o  = !a_full_q || !b_full_q;
    assign in_fire     = in_valid_i && in_ready_o;
    assign out_valid_o = a_full_q || b_full_q;
    assign out_data_o  = b_full_q ? b_data_q : a_data_q;

    // A fills from the input. A drains whenever B is empty: to the output if
    // it is ready, into B otherwise.
    assign a_fill  = in_fire;
    assign a_drain = a_full_q && !b_full_q;
    assign b_fill  = a_drain && !out_ready_i;
    assign b_drain = b_full_q && out_ready_i;

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        a_full_q <= 1'b0;
        b_full_q <= 1'b0;
      end else begin
        if (a_fill || a_drain) a_full_q <= a_fill;
        if (b_fill || b_drain) b_full_q <= b_fill;
      end
    end

    always_ff @(posedge clk_i) begin
      if (a_fill) a_data_q <= in_data_i;
      if (b_fill) b_data_q <= a_data_q;
    end

`ifndef SYNTHESIS
    // Valid/ready rule on the output: an offered word stays until taken.
    logic             held_q;
    logic [WIDTH-1:0] held_data_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        held_q <= 1'b0;
      end else begin
        held_q <= out_valid_o && !out_ready_i;
      end
    end
    always_ff @(posedge clk_i) begin
      held_data_q <= out_data_o;
      if (rst_ni && held_q) begin
        assert (out_valid_o && out_data_o == held_data_q)
          else $error("wg_spill_reg: output withdrawn or changed before it was taken");
      end
    end
`endif
  end

endmodule
