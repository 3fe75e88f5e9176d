# What the OpenOCD test scripts share (tests/rtl/jtag_openocd.tcl, tests/usb/jtag_pg.tcl):
# each sets WG_TEST (the name its lines start with) and WG_SCANS, defines wg_test, sources
# this file and calls wg_run.

# A check: "WG_TEST: ok WHAT", or the run fails with WHAT.
proc wg_check {cond what} {
	global WG_TEST
	if {!$cond} {
		error $what
	}
	echo "$WG_TEST: ok $what"
}

# The speed figure: WG_SCANS USER1 scans (48 bits each), each a round trip through OpenOCD.
proc wg_scan_speed {tap} {
	global WG_TEST WG_SCANS WG_IR_USER1 WG_A_CNT
	irscan $tap $WG_IR_USER1
	set t0 [clock milliseconds]
	for {set i 0} {$i < $WG_SCANS} {incr i} {
		drscan $tap 32 0 15 $WG_A_CNT 1 0
	}
	set dt [expr {[clock milliseconds] - $t0}]
	if {$dt < 1} {
		set dt 1
	}
	echo [format "%s: %d USER1 drscans (48 bits) in %d ms: %.0f scans/s through OpenOCD remote_bitbang" \
		$WG_TEST $WG_SCANS $dt [expr {$WG_SCANS * 1000.0 / $dt}]]
}

# init, wg_test, and OpenOCD's exit status: an error in wg_test fails the run.
proc wg_run {} {
	global WG_TEST
	init
	if {[catch wg_test msg]} {
		echo "$WG_TEST: FAIL $msg"
		shutdown error
	}
	echo "$WG_TEST: all checks passed"
	shutdown
}
