# Vivado batch build of a Xilinx 7-series board's bitstream (docs/fpga.md section 6). Not
# run on the machines of this project (no Vivado there): `make fpga-arty` and `make
# fpga-nexysv` run it where Vivado is installed; yosys' estimate of the same SM is `make
# fpga-xc7 FPGA_XC7_BOARD=<board>`.
#
#   vivado -mode batch -nojournal -source constraints/vivado-build.tcl \
#          -tclargs OUTDIR BOARD TOP NAME=VALUE ...
#
# OUTDIR: where the bitstream (warpgate_BOARD.bit) and the reports go; BOARD: arty (Arty
# A7-100T) or nexysv (Nexys Video); TOP: wg_xc7_top (the GPU) or wg_arty_loop_top (the FX2
# loop-back); NAME=VALUE: the top's parameters, the board's set of configs/boards.mk
# (sim/fpga.mk passes them). Run from the repository's top directory.

# Each board: its part and its pin file; the clocks and the FX2 timing are common to all.
set boards {
	arty   {xc7a100tcsg324-1 constraints/arty-a7-100t.xdc}
	nexysv {xc7a200tsbg484-1 constraints/nexys-video.xdc}
}
if {[llength $argv] < 3 || ![dict exists $boards [lindex $argv 1]]} {
	puts stderr "usage: vivado -mode batch -source constraints/vivado-build.tcl -tclargs OUTDIR BOARD TOP \[NAME=VALUE ...\]"
	puts stderr "  BOARD: one of [dict keys $boards]"
	exit 2
}
set outdir [lindex $argv 0]
set board  [lindex $argv 1]
set top    [lindex $argv 2]
set params [lrange $argv 3 end]
lassign [dict get $boards $board] part xdc
file mkdir $outdir

# The RTL files of the top in dependency order (packages first), as every flow here takes them.
if {[catch {exec python3 scripts/rtl-deps.py $top} files]} {
	puts stderr "vivado-build.tcl: scripts/rtl-deps.py $top failed: $files"
	exit 1
}
read_verilog -sv $files
# Clocks and I/O timing (on ports) before synthesis; the pins and the constraints on cells and
# nets of the synthesised netlist (IFCLK's input buffer, BSCANE2, the synchronisers) after it.
read_xdc constraints/xc7-common.xdc

# NUM_SMS reaches the GPU through the WG_GPU_NUM_SMS macro, the rest as generics.
set generics {}
set defines {}
foreach p $params {
	lassign [split $p =] name value
	if {$name eq "NUM_SMS"} {
		lappend defines WG_GPU_NUM_SMS=$value
	} else {
		lappend generics $name=$value
	}
}

set_param general.maxThreads 2
set opts [list -top $top -part $part -flatten_hierarchy rebuilt]
foreach g $generics { lappend opts -generic $g }
foreach d $defines { lappend opts -verilog_define $d }
synth_design {*}$opts
read_xdc $xdc
if {$top eq "wg_xc7_top"} {
	read_xdc constraints/xc7-jtag.xdc
}
report_utilization -file $outdir/synth_utilization.rpt
opt_design
place_design
phys_opt_design
route_design
report_utilization -file $outdir/utilization.rpt
report_utilization -hierarchical -file $outdir/utilization_hier.rpt
report_timing_summary -max_paths 10 -file $outdir/timing.rpt
report_drc -file $outdir/drc.rpt

# A design that misses timing is reported, not written: its bitstream would fail at random.
set wns [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]]
if {$wns < 0} {
	puts stderr "vivado-build.tcl: timing not met (worst setup slack $wns ns): see $outdir/timing.rpt"
	exit 1
}
write_bitstream -force $outdir/warpgate_$board.bit
puts "vivado-build.tcl: $outdir/warpgate_$board.bit ($part, worst setup slack $wns ns)"
