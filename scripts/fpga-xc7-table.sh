#!/bin/sh
# fpga-xc7-table.sh: the resource table of a yosys synth_xilinx run against a device.
#   scripts/fpga-xc7-table.sh STAT COPIES WHAT DEVICE LUT FF BRAM36 DSP
# STAT: the output of `stat -top <top>` (the design-hierarchy totals are read, or the single
# module's figures when there is no hierarchy); COPIES: copies of that top on the board (the
# SMs of a board; 1 for a board image); WHAT: what the top is, for the heading ("SM", "board
# image"); DEVICE: the device's name (XC7A100T); LUT FF BRAM36 DSP: its capacity. LUT counts LUT1-6 plus LUT RAM and shift
# registers in the LUTs they occupy; BRAM36 counts a RAMB18E1 as half. Exit status 1 when
# any resource exceeds the device.
set -eu
stat=$1; n=$2; what=$3; dev=$4; cl=$5; cf=$6; cb=$7; cd=$8
awk -v n="$n" -v what="$what" -v dev="$dev" -v cl="$cl" -v cf="$cf" -v cb="$cb" -v cd="$cd" '
	/=== design hierarchy ===/ { hier = 1; lut = ff = br = dsp = 0; next }
	/^ +LUT[1-6] /                   { lut += $2 }
	/^ +RAM(32M|64M|128X1D|256X1S) / { lut += 4 * $2 }
	/^ +RAM(32X1D|64X1D|128X1S) /    { lut += 2 * $2 }
	/^ +RAM(32X1S|64X1S) /           { lut += $2 }
	/^ +SRL[A-Z0-9]* /               { lut += $2 }
	/^ +FD[A-Z]* /                   { ff += $2 }
	/^ +RAMB36E1 /                   { br += $2 }
	/^ +RAMB18E1 /                   { br += $2 / 2 }
	/^ +DSP48E1 /                    { dsp += $2 }
	function row(name, used, cap) {
		printf "  %-8s %9d of %7d  %6.1f%%\n", name, used * n, cap, 100 * used * n / cap
		if (used * n > cap) over = 1
	}
	END {
		printf "  %d x %s against the %s:\n", n, what, dev
		row("LUT", lut, cl); row("FF", ff, cf); row("BRAM36", br, cb); row("DSP48", dsp, cd)
		if (over) { print "  does not fit"; exit 1 }
		print "  fits"
	}' "$stat"
