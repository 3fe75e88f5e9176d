#!/bin/sh
# xc7-report-test.sh: the two readers of a hierarchical synth_xilinx `stat` (what make fpga-xc7
# prints) agree on a real run. A small block with sub-blocks (wg_simt_stack: a RAM and an
# arbiter) is synthesised for the XC7 without -flatten; then
#   - scripts/fpga-xc7-blocks.py's "all" row equals scripts/fpga-xc7-table.sh's totals
#     (two independent readers of the same file: one sums the design-hierarchy section, the
#     other walks the modules and multiplies by copies);
#   - the block rows plus the top's own row add up to "all";
#   - the block named on the command line is found by its short name;
#   - a stat without module sections and an unknown module are refused with a message.
#   tests/fpga/xc7-report-test.sh OUTDIR
set -eu
out=$1; YOSYS=${YOSYS:-yosys}
mkdir -p "$out"
fail() { echo "xc7-report-test: $*"; exit 1; }

files=$(scripts/rtl-deps.py wg_simt_stack)
"$YOSYS" -q -l "$out/yosys.log" -p "read_verilog -sv $files; chparam -set NUM_WARPS 8 -set STACK_DEPTH 16 -set NUM_PORTS 2 wg_simt_stack;
	synth_xilinx -family xc7 -top wg_simt_stack; rename -top top_xc7; tee -q -o $out/t.stat stat -top top_xc7" \
	>"$out/yosys.err" 2>&1 || { cat "$out/yosys.err"; fail "yosys failed"; }

scripts/fpga-xc7-table.sh "$out/t.stat" 1 stack XC7A100T 63400 126800 135 240 >"$out/table.txt" || fail "the table script failed"
grep -q "1 x stack against the XC7A100T:" "$out/table.txt" || fail "the table does not name the device it was given"
scripts/fpga-xc7-blocks.py "$out/t.stat" top_xc7 >"$out/blocks.txt" || fail "the blocks script failed"
cat "$out/blocks.txt"

# table: "  LUT   N of ...": the figures in LUT FF BRAM36 DSP48 order
tab=$(awk '$1 ~ /^(LUT|FF|BRAM36|DSP48)$/ { printf "%s ", $2 }' "$out/table.txt")
all=$(awk '$1 == "all" { printf "%d %d %d %d ", $3, $4, $5 + 0.5, $6 }' "$out/blocks.txt")
[ "$tab" = "$all" ] || fail "totals differ: table '$tab', blocks 'all' '$all'"
sum=$(awk '$1 != "block" && $1 != "all" { l += $(NF-4); f += $(NF-3); b += $(NF-2); d += $(NF-1) }
	END { printf "%d %d %d %d ", l, f, b + 0.5, d }' "$out/blocks.txt")
[ "$sum" = "$all" ] || fail "rows add up to '$sum', 'all' is '$all'"
rows=$(awk '$1 ~ /^wg_/' "$out/blocks.txt" | wc -l)
[ "$rows" -ge 2 ] || fail "expected at least two sub-blocks, got $rows"
lut=$(echo "$all" | cut -d' ' -f1)
[ "$lut" -gt 0 ] || fail "no LUTs counted"

ram=$(awk '$1 ~ /^wg_ram_1r1w$/ { print }' "$out/blocks.txt")
[ -n "$ram" ] || fail "the stack's RAM block is not listed"
scripts/fpga-xc7-blocks.py "$out/t.stat" wg_rr_arbiter >/dev/null || fail "a block by its short name was not found"

if scripts/fpga-xc7-blocks.py "$out/t.stat" no_such_block 2>"$out/err1.txt"; then fail "an unknown module was accepted"; fi
grep -q "no module no_such_block" "$out/err1.txt" || fail "unknown module: message '$(cat "$out/err1.txt")'"
printf 'not a stat\n' >"$out/bad.stat"
if scripts/fpga-xc7-blocks.py "$out/bad.stat" 2>"$out/err2.txt"; then fail "a file without module sections was accepted"; fi
grep -q "bad.stat: no '=== module ===' sections" "$out/err2.txt" || fail "bad stat: message '$(cat "$out/err2.txt")'"
echo "xc7-report-test: table and block totals agree ($all), rows add up, errors named"
