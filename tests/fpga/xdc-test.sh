#!/bin/sh
# xdc-test.sh: the Xilinx boards' constraints against the tops they build (make xdc-test,
# docs/fpga.md section 4).
#   tests/fpga/xdc-test.sh OUTDIR
# For each board (arty, nexysv) and each top (wg_xc7_top, the GPU; wg_arty_loop_top, the
# FX2 loop-back): tests/fpga/xdc_check.py checks that every port bit has one package pin and
# an I/O standard, that no pin is used twice, and that every port the board's and the common
# XDC name exists. Then yosys elaborates wg_xc7_top with the `arty` set (the GPU, one SM, the
# JTAG port through BSCANE2) and checks the hierarchy: a top that Vivado could not read fails
# here, not on a machine with Vivado. XDC_TEST_ASSERT: more yosys commands on the elaborated
# design (make passes a check that the set's options reach the SM: no SFU with HAS_SFU=0).
set -eu
out=$1
YOSYS=${YOSYS:-yosys}
mkdir -p "$out"
fail() { echo "xdc-test: $*"; exit 1; }

for top in wg_xc7_top wg_arty_loop_top; do
	"$YOSYS" -q -p "read_verilog -sv rtl/$top.sv; proc; write_json $out/$top.json" >"$out/$top.err" 2>&1 \
		|| { cat "$out/$top.err"; fail "yosys could not read rtl/$top.sv"; }
	extra=constraints/xc7-common.xdc
	[ "$top" = wg_xc7_top ] && extra="$extra constraints/xc7-jtag.xdc"
	for xdc in constraints/arty-a7-100t.xdc constraints/nexys-video.xdc; do
		tests/fpga/xdc_check.py "$out/$top.json" "$top" "$xdc" $extra || fail "$top against $xdc"
	done
done

# The GPU image elaborates with a board's set (make passes it as chparam arguments).
files=$(scripts/rtl-deps.py wg_xc7_top)
"$YOSYS" -q -l "$out/elab.log" -p "read_verilog -lib +/xilinx/cells_xtra.v; read_verilog -sv -DWG_GPU_NUM_SMS=1 $files;
	chparam ${XDC_TEST_CHPARAM:-} wg_xc7_top; hierarchy -check -top wg_xc7_top; select -assert-count 2 t:BSCANE2;
	${XDC_TEST_ASSERT:-}" \
	>"$out/elab.err" 2>&1 || { grep -i -B2 -A2 error "$out/elab.log" "$out/elab.err" | head -20; fail "wg_xc7_top does not elaborate, or a check on it failed (above)"; }
echo "xdc-test: both tops against both boards' XDC; wg_xc7_top elaborates (2 BSCANE2${XDC_TEST_ASSERT:+; $XDC_TEST_ASSERT})"
