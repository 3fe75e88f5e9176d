#!/bin/sh
# xc7-synth.sh: print the yosys commands that map a design onto the XC7 with synth_xilinx,
# for the Makefile's estimate (sim/fpga.mk), the per-block table (scripts/fpga-blocks.sh)
# and their tests. docs/fpga.md section 3.8.
#
#   scripts/xc7-synth.sh TOP MAP FLATTEN BOXFILE [OPTS]
#     TOP      the top module
#     MAP      empty: synth_xilinx's default LUT mapping (ABC); -abc9: yosys' ABC9 flow
#     FLATTEN  empty, or 1 for one flat netlist (synth_xilinx -flatten)
#     BOXFILE  (MAP -abc9 only) where to write the block-RAM boxes, see below
#     OPTS     more synth_xilinx options (-iopad for a board top: I/O buffers on its ports)
#
# Why the ABC9 flow needs more than "synth_xilinx -abc9": in yosys 0.23 its ABC9_OPS pass
# stops with std::out_of_range ("vector::_M_range_check") on any design that holds a block
# RAM in true dual-port form (a 1024 x 64 RAM alone is enough; the SM has several), which
# ABC9 sees as a box with timing arcs. The RAMs are mapped by then and ABC9 has nothing to
# do inside them, so the flow is split around its LUT mapping: synth_xilinx -abc9 up to
# map_luts; the RAMB18E1 / RAMB36E1 cells renamed to plain black boxes of the same ports
# and parameters (BOXFILE, generated here from yosys' own cell library, so the ports match
# the installed yosys); synth_xilinx -abc9 from map_luts on; the cells renamed back. ABC9
# then treats a RAM's outputs as inputs of the logic and its inputs as outputs, as the
# default mapping does.
set -eu
top=$1; map=$2; flat=$3; box=${4:-}; opts=${5:-}
fl=""; [ -n "$flat" ] && fl="-flatten"
[ -n "$opts" ] && fl="$fl $opts"

case "$map" in
"")
	echo "synth_xilinx -family xc7 $fl -top $top;"
	exit 0 ;;
-abc9) ;;
*)
	echo "xc7-synth.sh: MAP must be empty or -abc9, not '$map'" >&2
	exit 2 ;;
esac
[ -n "$box" ] || { echo "xc7-synth.sh: -abc9 needs a BOXFILE" >&2; exit 2; }

yosys_bin=$(command -v "${YOSYS:-yosys}") || { echo "xc7-synth.sh: yosys not found" >&2; exit 2; }
lib=$(dirname "$yosys_bin")/../share/yosys/xilinx/cells_sim.v
[ -f "$lib" ] || lib=/usr/share/yosys/xilinx/cells_sim.v
[ -f "$lib" ] || { echo "xc7-synth.sh: yosys' xilinx/cells_sim.v not found" >&2; exit 2; }

# The box of a primitive: its port list and parameters, attributes dropped, renamed WG_BOX_<name>.
mkdir -p "$(dirname "$box")"
: >"$box"
for m in RAMB18E1 RAMB36E1; do
	echo "(* blackbox *)" >>"$box"
	awk -v m="$m" '
		$0 ~ "^module " m " \\(" { s = 1 }
		s == 1 { print }
		s == 1 && /^\);/ { s = 2; next }
		s == 2 && /^[ \t]*parameter/ { print }
		s == 2 && /^endmodule/ { print; exit }' "$lib" |
		sed -e 's/(\*[^*]*\*)//g' -e "s/^module $m /module WG_BOX_$m /" | grep -v '^[ \t]*$' >>"$box"
	grep -q "^module WG_BOX_$m " "$box" || { echo "xc7-synth.sh: $m not found in $lib" >&2; exit 2; }
done

echo "synth_xilinx -family xc7 -abc9 $fl -top $top -run :map_luts;"
echo "read_verilog -lib $box;"
echo "chtype -map RAMB18E1 WG_BOX_RAMB18E1 t:RAMB18E1; chtype -map RAMB36E1 WG_BOX_RAMB36E1 t:RAMB36E1;"
echo "synth_xilinx -family xc7 -abc9 $fl -top $top -run map_luts:;"
echo "chtype -map WG_BOX_RAMB18E1 RAMB18E1 t:WG_BOX_RAMB18E1; chtype -map WG_BOX_RAMB36E1 RAMB36E1 t:WG_BOX_RAMB36E1;"
