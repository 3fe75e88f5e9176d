# Vivado batch build of the Arty A7-100T bitstream (docs/fpga.md section 6). Not run on
# the machines of this project (no Vivado there): `make fpga-arty` runs it where Vivado is
# installed; yosys' estimate of the same configuration is `make fpga-xc7`.
#
#   vivado -mode batch -nojournal -source constraints/arty-a7-100t.tcl \
#          -tclargs OUTDIR TOP NAME=VALUE ...
#
# OUTDIR: where the bitstream (warpgate_arty.bit) and the reports go; TOP: the board top
# (wg_board_top); NAME=VALUE: the top's parameters, the `arty` set of configs/boards.mk
# (sim/fpga.mk passes them). Run from the repository's top directory.

if {[llength $argv] < 2} {
	puts stderr "usage: vivado -mode batch -source constraints/arty-a7-100t.tcl -tclargs OUTDIR TOP \[NAME=VALUE ...\]"
	exit 2
}
set outdir [lindex $argv 0]
set top    [lindex $argv 1]
set params [lrange $argv 2 end]
set part   xc7a100tcsg324-1
file mkdir $outdir

# The RTL files of the top in dependency order (packages first), as every flow here takes them.
if {[catch {exec python3 scripts/rtl-deps.py $top} files]} {
	puts stderr "arty-a7-100t.tcl: scripts/rtl-deps.py $top failed: $files"
	exit 1
}
read_verilog -sv $files
read_xdc constraints/arty-a7-100t.xdc

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
	puts stderr "arty-a7-100t.tcl: timing not met (worst setup slack $wns ns): see $outdir/timing.rpt"
	exit 1
}
write_bitstream -force $outdir/warpgate_arty.bit
puts "arty-a7-100t.tcl: $outdir/warpgate_arty.bit (worst setup slack $wns ns)"
