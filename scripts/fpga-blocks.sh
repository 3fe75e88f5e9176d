#!/bin/sh
# fpga-blocks.sh: synthesise the SM's blocks one by one (yosys synth_xilinx -family xc7
# -flatten, each with the parameters it gets inside the SM of a board configuration) and
# print one line per block: LUT, FF, BRAM36 equivalents, DSP48, seconds. docs/fpga.md
# section 2 holds the table this prints.
#
#   scripts/fpga-blocks.sh OUTDIR "PARAMS" BLOCK...
#     PARAMS: "NAME=VALUE ..." of the SM configuration (a set of configs/boards.mk)
#     BLOCK:  module names (wg_coalescer wg_lsu ...)
# Environment: YOSYS (yosys), BLOCK_TIMEOUT (seconds per block, 1200), BLOCK_BOXES (modules
# read as black boxes, their logic not counted: e.g. "wg_smem wg_l1 wg_dmem" gives wg_lsu's
# own logic), RF_LANES_PER_ROW (wg_regfile's LANES_PER_ROW alone, 32 unless given; inside
# wg_exec_pipe it is the set's RF_LANES, through wg_rf_rows), BLOCK_MAP (synth_xilinx's LUT
# mapper option: empty for the default ABC mapping, -abc9 for ABC9, scripts/xc7-synth.sh; make
# fpga-blocks passes FPGA_BLOCKS_MAP).
set -u
out=$1; params=$2; shift 2
YOSYS=${YOSYS:-yosys}
BLOCK_TIMEOUT=${BLOCK_TIMEOUT:-1200}
BLOCK_BOXES=${BLOCK_BOXES:-}
BLOCK_MAP=${BLOCK_MAP:-}
mkdir -p "$out"

# p NAME: the configuration's value of NAME
p() { for kv in $params; do [ "${kv%%=*}" = "$1" ] && { echo "${kv#*=}"; return; }; done; echo "missing parameter $1" >&2; exit 2; }

W=$(p NUM_WARPS); S=$(p NUM_SIMD); L=$(p SIMD_WIDTH); R=$(p NUM_REGS); B=$(p RF_BANKS)
C=$(p NUM_CTAS); D=$(p DMEM_BYTES); SETS=$(p L1_SETS); M=$(p L1_MSHRS); I=$(p IMEM_DEPTH)
K=$(p CMEM_BYTES); SD=$(p STACK_DEPTH); FP=$(p HAS_FP); SFU=$(p HAS_SFU); RE=$(p RETIRE_EN)
LL=$(p LSU_LANES); RFL=$(p RF_LANES); SDIR=$(p SIMD_DIRECT)
WAYS=$((D * 3 / 4 / 128 / SETS))

# The parameters each block gets from wg_sm.sv.
bparams() {
	case $1 in
	wg_coalescer)  echo "" ;;
	wg_coalescer_scan) echo "LANES $LL" ;;
	wg_smem)       echo "DMEM_BYTES $D HAS_FP $FP LANES $LL" ;;
	wg_l1)         echo "DMEM_BYTES $D SETS $SETS MAX_WAYS $WAYS MSHRS $M" ;;
	wg_dmem)       echo "DMEM_BYTES $D" ;;
	wg_lsu)        echo "NUM_WARPS $W NUM_SIMD $S NUM_CTAS $C DMEM_BYTES $D L1_SETS $SETS L1_WAYS $WAYS L1_MSHRS $M CMEM_BYTES $K RETIRE_EN $RE HAS_FP $FP LSU_LANES $LL" ;;
	wg_exec_pipe)  echo "NUM_WARPS $W NUM_SIMD $S SIMD_WIDTH $L HAS_FP $FP RF_REGS $((R / S)) RF_BANKS $B RETIRE_EN $RE RF_LANES $RFL SIMD_DIRECT $SDIR" ;;
	wg_rf_rows)    echo "NUM_WARPS $((W / S)) NUM_REGS $((R / S)) NUM_BANKS $B LANES_PER_ROW $RFL TAG_W 1" ;;
	wg_regfile)    echo "NUM_WARPS $((W / S)) NUM_REGS $((R / S)) NUM_BANKS $B LANES_PER_ROW ${RF_LANES_PER_ROW:-32} TAG_W 1" ;;
	wg_simd_unit)  echo "SIMD_WIDTH $L HAS_FP $FP TAG_W 1 DIRECT $SDIR" ;;
	wg_warp_sched) echo "NUM_WARPS $W NUM_SIMD $S" ;;
	wg_fetch)      echo "NUM_WARPS $W NUM_SIMD $S IMEM_DEPTH $I HAS_FP $FP HAS_SFU $SFU" ;;
	wg_simt_stack) echo "NUM_WARPS $W STACK_DEPTH $SD NUM_PORTS $S" ;;
	wg_barrier)    echo "NUM_WARPS $W NUM_CTAS $C NUM_PORTS $S" ;;
	wg_cta_ctrl)   echo "NUM_WARPS $W NUM_SIMD $S NUM_CTAS $C NUM_REGS $R DMEM_BYTES $D" ;;
	wg_sreg)       echo "NUM_WARPS $W NUM_CTAS $C NUM_PORTS $S" ;;
	*)             echo "" ;;
	esac
}

printf '%-14s %8s %8s %6s %5s %6s\n' block LUT FF BRAM36 DSP s
for b in "$@"; do
	set -- $(bparams "$b")
	chp=""
	while [ $# -ge 2 ]; do
		if grep -q "parameter .*\b$1\b" "rtl/$b.sv"; then chp="$chp -set $1 $2"; fi
		shift 2
	done
	files=" $(scripts/rtl-deps.py "$b") "; libs=""
	for m in $BLOCK_BOXES; do
		case "$files" in *" rtl/$m.sv "*) files=$(echo "$files" | sed "s| rtl/$m.sv | |"); libs="$libs rtl/$m.sv" ;; esac
	done
	[ -n "$libs" ] && libs="read_verilog -sv -lib $libs;"
	start=$(date +%s)
	[ -n "$chp" ] && chp="chparam $chp $b;"
	syn=$(YOSYS="$YOSYS" scripts/xc7-synth.sh "$b" "$BLOCK_MAP" 1 "$out/ramb-boxes.v") || exit 2
	timeout "$BLOCK_TIMEOUT" "$YOSYS" -q -l "$out/$b.log" -p "read_verilog -sv $files; $libs $chp
		$syn check -assert; tee -q -o $out/$b.stat stat" \
		>/dev/null 2>&1
	rc=$?; t=$(( $(date +%s) - start ))
	if [ $rc -ne 0 ]; then printf '%-14s failed (exit %d after %d s, %s/%s.log)\n' "$b" $rc $t "$out" "$b"; continue; fi
	if grep -aq "Latch inferred" "$out/$b.log"; then printf '%-14s latch inferred (%s/%s.log)\n' "$b" "$out" "$b"; continue; fi
	awk -v b="$b" -v t="$t" '
		/^ +LUT[1-6] /      { lut += $2 }
		/^ +FD[A-Z]* /      { ff += $2 }
		/^ +RAMB36E1 /      { br += $2 }
		/^ +RAMB18E1 /      { br += $2 / 2 }
		/^ +RAM(32M|64M|128X1D|256X1S) / { lut += 4 * $2 }
		/^ +RAM(32X1D|64X1D|128X1S) /    { lut += 2 * $2 }
		/^ +RAM(32X1S|64X1S) /           { lut += $2 }
		/^ +SRL[A-Z0-9]* /  { lut += $2 }
		/^ +DSP48E1 /       { dsp += $2 }
		END { printf "%-14s %8d %8d %6.1f %5d %6d\n", b, lut, ff, br, dsp, t }' "$out/$b.stat"
done
