# make usb-jtag-test (scripts/usb-jtag-test.sh): OpenOCD against the Verilated board top
# (fx2-emu --jtag-port, remote_bitbang; constraints/openocd/warpgate-sim.cfg) while a kernel
# runs over the emulated USB link. Every check prints "usb-jtag-test: ok ..." or fails the
# run with "usb-jtag-test: FAIL ...". Register map: docs/usb.md section 2.
#   WG_SCANS    USER1 drscans timed for the speed figure (default 200)
#   WG_PG_WAKE  the wake-up latency written to PG_WAKE (CTL3) with the lane policy (default 60)

if {![info exists WG_SCANS]} {
	set WG_SCANS 200
}
if {![info exists WG_PG_WAKE]} {
	set WG_PG_WAKE 60
}
set T warpgate.tap
set WG_TEST usb-jtag-test
source [file join [file dirname [info script]] ../rtl/jtag_test_lib.tcl]

# CNT i of the board top.
proc wg_cnt {i} {
	global T WG_A_CNT
	return [wg_read $T [expr {$WG_A_CNT + $i}]]
}

proc wg_cycle {} {
	set hi [wg_cnt 1]
	set lo [wg_cnt 0]
	return [expr {($hi << 32) | $lo}]
}

proc wg_test {} {
	global T WG_SCANS WG_PG_WAKE WG_IR_IDCODE WG_IR_USER1 WG_A_ID WG_A_INFO WG_A_CTL WG_A_CNT

	irscan $T $WG_IR_IDCODE
	set id [expr {"0x[drscan $T 32 0]"}]
	wg_check [expr {$id == 0x15747001}] [format "IDCODE 0x%08x" $id]

	# Wait for the host: the FPGA out of reset (USER2 SYS_RST clear: the emulated FX2 holds
	# it in reset until its firmware runs, and the host pulses it when it opens the device;
	# a register command in reset completes without effect and reads 0, docs/jtag.md
	# section 5), the link up (USER2 LINK_UP, STATUS bit 0) and target time running (CNT0 > 0).
	set t0 [clock milliseconds]
	while {([wg_status $T] & 0x21) != 0x01 || !([wg_cnt 13] & 1) || [wg_cycle] == 0} {
		if {[clock milliseconds] - $t0 > 120000} {
			error "the link did not come up or the GPU did not run within 120 s"
		}
		sleep 50
	}
	set v [wg_read $T $WG_A_INFO]
	wg_check [expr {$v == 0x00080011}] [format "INFO 0x%08x (8 controls, 17 counters)" $v]
	set c1 [wg_cycle]
	wg_check [expr {[wg_cnt 4] > 0 && [wg_cnt 5] > 0}] "commands and events counted: [wg_cnt 4], [wg_cnt 5]"
	wg_check [expr {[wg_cnt 6] > 0 && [wg_cnt 7] > 0}] "bytes through EP2 and EP6: [wg_cnt 6], [wg_cnt 7]"
	set t0 [clock milliseconds]
	while {[wg_cycle] == $c1 && [clock milliseconds] - $t0 < 30000} {
		sleep 20
	}
	set c2 [wg_cycle]
	wg_check [expr {$c2 > $c1}] "target time advances while the kernel runs: $c1 -> $c2"

	# Power-gating controls through USER1: lane gating with a long wake-up latency.
	set n0 [wg_cnt 14]
	wg_write $T [expr {$WG_A_CTL + 2}] 1
	wg_write $T [expr {$WG_A_CTL + 3}] $WG_PG_WAKE
	wg_write $T [expr {$WG_A_CTL + 0}] 1
	set t0 [clock milliseconds]
	while {[wg_cnt 14] < $n0 + 3 && [clock milliseconds] - $t0 < 60000} {
		sleep 20
	}
	set n1 [wg_cnt 14]
	wg_check [expr {$n1 == $n0 + 3}] "3 control writes taken by the GPU (CNT14 $n0 -> $n1)"
	set at [expr {([wg_cnt 16] << 32) | [wg_cnt 15]}]
	set c3 [wg_cycle]
	wg_check [expr {$at >= $c2 && $at <= $c3}] "taken at target cycle $at (between $c2 and $c3)"
	wg_check [expr {!([wg_cnt 13] & 0x100)}] "no control write pending"
	foreach {i want} [list 0 1 2 1 3 $WG_PG_WAKE] {
		set v [wg_read $T [expr {$WG_A_CTL + $i}]]
		wg_check [expr {$v == $want}] "CTL$i reads back $v"
	}

	# Halt and resume while the link is in use: target time stands, then runs again.
	wg_halt $T
	set h1 [wg_cycle]
	sleep 200
	set h2 [wg_cycle]
	wg_check [expr {$h1 == $h2}] "target time stands while halted: $h1, $h2"
	wg_resume $T
	set t0 [clock milliseconds]
	while {[wg_cycle] == $h2 && [clock milliseconds] - $t0 < 30000} {
		sleep 20
	}
	set h3 [wg_cycle]
	wg_check [expr {$h3 > $h2}] "target time runs after resume: $h2 -> $h3"

	# Speed: WG_SCANS USER1 scans (48 bits each) while the kernel runs.
	wg_scan_speed $T
}

wg_run
