// wg_barrier: BAR.SYNC (docs/isa.md section 4).
//
// A warp arrives when it issues BAR.SYNC with a non-empty execution mask; it
// then waits (its fetch is stopped, its SIMT ADV parked). When every
// unfinished warp of a CTA waits, they are released together if they wait
// at one barrier id, else the SM faults with a barrier deadlock. The check
// runs only in cycles after an arrival or a warp finish.
`default_nettype none

module wg_barrier #(
  parameter int unsigned NUM_WARPS = 48,
  parameter int unsigned NUM_CTAS  = 8,
  parameter int unsigned NUM_PORTS = 2,
  // Derived: do not override.
  parameter int unsigned WARP_W = (NUM_WARPS > 1) ? $clog2(NUM_WARPS) : 1
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_ni,
  input  wire logic [NUM_PORTS-1:0]          arr_valid_i,
  input  wire logic [NUM_PORTS*WARP_W-1:0]   arr_warp_i,
  input  wire logic [NUM_PORTS*4-1:0]        arr_id_i,
  input  wire logic                          fin_event_i,   // a warp finished
  input  wire logic [NUM_CTAS*NUM_WARPS-1:0] cta_wmask_i,   // warps of each CTA slot
  input  wire logic [NUM_WARPS-1:0]          fin_i,         // finished warps
  output logic      [NUM_WARPS-1:0]          release_o,     // one-cycle pulse per released warp
  output logic                               fault_o,
  output logic      [WARP_W-1:0]             fault_warp_o
);

  logic [NUM_WARPS-1:0] wait_q;
  logic [3:0]           bid_q [NUM_WARPS];
  logic                 check_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wait_q    <= '0;
      check_q   <= 1'b0;
      release_o <= '0;
      fault_o   <= 1'b0;
      fault_warp_o <= '0;
    end else begin
      logic [NUM_WARPS-1:0] rel;
      rel = '0;
      check_q <= (arr_valid_i != '0) || fin_event_i;
      fault_o <= 1'b0;
      if (check_q) begin
        for (int c = 0; c < 32'(NUM_CTAS); c++) begin
          logic [NUM_WARPS-1:0] live;
          logic                 same, first;
          logic [3:0]           id0;
          live  = cta_wmask_i[c*NUM_WARPS +: NUM_WARPS] & ~fin_i;
          same  = 1'b1;
          first = 1'b1;
          id0   = '0;
          if (live != '0 && (live & ~wait_q) == '0) begin
            for (int i = 0; i < 32'(NUM_WARPS); i++) begin
              if (live[i]) begin
                if (first) id0 = bid_q[i];
                else if (bid_q[i] != id0) same = 1'b0;
                first = 1'b0;
              end
            end
            if (same) begin
              rel = rel | live;
            end else begin
              fault_o <= 1'b1;
              for (int i = 32'(NUM_WARPS) - 1; i >= 0; i--) if (live[i]) fault_warp_o <= WARP_W'(i);
            end
          end
        end
      end
      release_o <= rel;
      wait_q    <= wait_q & ~rel;
      for (int p = 0; p < 32'(NUM_PORTS); p++) begin
        if (arr_valid_i[p]) wait_q[arr_warp_i[p*WARP_W +: WARP_W]] <= 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    for (int p = 0; p < 32'(NUM_PORTS); p++) begin
      if (arr_valid_i[p]) bid_q[arr_warp_i[p*WARP_W +: WARP_W]] <= arr_id_i[p*4 +: 4];
    end
  end

endmodule
