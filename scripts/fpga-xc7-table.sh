#!/bin/sh
# fpga-xc7-table.sh: the resource table of a yosys synth_xilinx run against a device.
#   scripts/fpga-xc7-table.sh STAT NUM_SMS DEVICE LUT FF BRAM36 DSP
# STAT: the output of `stat -top <top>` (the design-hierarchy totals are read, or the single
# module's figures when there is no hierarchy); NUM_SMS: copies of that top on the board;
# LUT FF BRAM36 DSP: the device's capacity. LUT counts LUT1-6 plus LUT RAM and shift
# registers in the LUTs they occupy; BRAM36 counts a RAMB18E1 as half. Exit status 1 when
# any resource exceeds the device.
set -eu
stat=$1; n=$2; dev=$3; cl=$4; cf=$5; cb=$6; cd=$7
awk -v n="$n" -v dev="$dev" -v cl="$cl" -v cf="$cf" -v cb="$cb" -v cd="$cd" '
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
		printf "  %d SM(s) against the %s:\n", n, dev
		row("LUT", lut, cl); row("FF", ff, cf); row("BRAM36", br, cb); row("DSP48", dsp, cd)
		if (over) { print "  does not fit"; exit 1 }
		print "  fits"
	}' "$stat"
