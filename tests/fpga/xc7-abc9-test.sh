#!/bin/sh
# xc7-abc9-test.sh: the ABC9 flow of scripts/xc7-synth.sh maps a design with a true
# dual-port block RAM (the form on which yosys 0.23's plain `synth_xilinx -abc9` stops in
# ABC9_OPS), keeps its block RAMs and DSPs as the default flow maps them, and its errors
# are named. A few seconds. docs/fpga.md section 3.8.
#   tests/fpga/xc7-abc9-test.sh OUTDIR
set -eu
out=$1; YOSYS=${YOSYS:-yosys}
mkdir -p "$out"
fail() { echo "xc7-abc9-test: $*"; exit 1; }

# A 1024 x 64 RAM (mapped as a true dual-port RAMB36E1 pair), a multiply (a DSP48E1) and
# logic on both sides of the RAM (LUTs before its inputs and after its outputs).
cat >"$out/t.sv" <<'EOF'
module abc9_t (
  input  logic        clk,
  input  logic        we,
  input  logic [9:0]  wa, ra,
  input  logic [63:0] wd,
  input  logic [15:0] x, y,
  input  logic        re,
  output logic [63:0] rd,
  output logic [31:0] p
);
  logic [63:0] m [1024];
  logic [63:0] q;
  logic [31:0] pq;
  always_ff @(posedge clk) if (we) m[wa ^ ra] <= wd ^ {wd[31:0], wd[63:32]};
  always_ff @(posedge clk) if (re) q <= m[ra];
  always_ff @(posedge clk) pq <= x * y;
  assign rd = (q[63] ? q : ~q) ^ {q[0 +: 32], q[32 +: 32]};
  assign p  = pq;
endmodule
EOF

# count STAT CELL: the number of CELL cells in a yosys stat (0 when none)
count() { awk -v c="$2" '$1 == c { n += $2 } END { print n + 0 }' "$1"; }
luts() { awk '/^ +LUT[1-6] / { n += $2 } END { print n + 0 }' "$1"; }

for map in "" -abc9; do
	name=default; [ -n "$map" ] && name=abc9
	syn=$(YOSYS="$YOSYS" scripts/xc7-synth.sh abc9_t "$map" 1 "$out/boxes.v") || fail "xc7-synth.sh '$map' failed"
	"$YOSYS" -q -l "$out/$name.log" -p "read_verilog -sv $out/t.sv; $syn check -assert; tee -q -o $out/$name.stat stat" \
		>"$out/$name.err" 2>&1 || { tail -5 "$out/$name.log"; cat "$out/$name.err"; fail "the $name flow failed"; }
done

for c in RAMB36E1 RAMB18E1 DSP48E1; do
	d=$(count "$out/default.stat" $c); a=$(count "$out/abc9.stat" $c)
	[ "$d" = "$a" ] || fail "$c: $d in the default flow, $a in the ABC9 flow"
done
[ $(( $(count "$out/abc9.stat" RAMB36E1) + $(count "$out/abc9.stat" RAMB18E1) )) -gt 0 ] || fail "no block RAM mapped"
[ "$(count "$out/abc9.stat" DSP48E1)" -gt 0 ] || fail "no DSP48E1 mapped"
[ "$(luts "$out/abc9.stat")" -gt 0 ] || fail "no LUTs in the ABC9 flow"
if grep -q WG_BOX_ "$out/abc9.stat"; then fail "a boxed RAM was not renamed back"; fi
grep -q "^module WG_BOX_RAMB36E1 " "$out/boxes.v" || fail "no RAMB36E1 box written"

# Errors are named.
if scripts/xc7-synth.sh abc9_t -abc8 1 "$out/b.v" 2>"$out/e1.txt"; then fail "MAP -abc8 accepted"; fi
grep -q "MAP must be empty or -abc9, not '-abc8'" "$out/e1.txt" || fail "bad MAP: message '$(cat "$out/e1.txt")'"
if scripts/xc7-synth.sh abc9_t -abc9 1 2>"$out/e2.txt"; then fail "-abc9 without a box file accepted"; fi
grep -q "needs a BOXFILE" "$out/e2.txt" || fail "no box file: message '$(cat "$out/e2.txt")'"

echo "xc7-abc9-test: both flows map the RAM ($(count "$out/abc9.stat" RAMB36E1) RAMB36E1) and the multiply;" \
	"LUTs: default $(luts "$out/default.stat"), ABC9 $(luts "$out/abc9.stat")"
