# make jtag-test (scripts/jtag-test.sh): OpenOCD against the simulated JTAG
# debug port through remote_bitbang (constraints/openocd/warpgate-sim.cfg).
# Every check prints "jtag-test: ok ..." or fails the run with "jtag-test: FAIL ...".
# WG_SCANS: number of drscans timed for the speed figure.

if {![info exists WG_SCANS]} {
	set WG_SCANS 2000
}
set T warpgate.tap
set WG_TEST jtag-test
source [file join [file dirname [info script]] jtag_test_lib.tcl]

proc wg_test {} {
	global T WG_SCANS WG_IR_IDCODE WG_IR_BYPASS WG_IR_USER1
	global WG_A_ID WG_A_VERSION WG_A_INFO WG_A_STATUS WG_A_CTRL WG_A_SCRATCH WG_A_CNT WG_A_CTL

	# The scan chain found our IDCODE (init checked -expected-id; read it again).
	irscan $T $WG_IR_IDCODE
	set id [expr {"0x[drscan $T 32 0]"}]
	wg_check [expr {$id == 0x15747001}] [format "IDCODE 0x%08x" $id]

	# BYPASS: one-bit delay (0x5a shifted in comes out as 0xb4 over 9 bits).
	irscan $T $WG_IR_BYPASS
	set b [expr {"0x[drscan $T 9 0x5a]"}]
	wg_check [expr {$b == 0xb4}] [format "BYPASS 0x5a -> 0x%03x" $b]

	# ID, VERSION, INFO through USER1.
	set v [wg_read $T $WG_A_ID]
	wg_check [expr {$v == 0x57474a54}] [format "ID register 0x%08x" $v]
	set v [wg_read $T $WG_A_VERSION]
	wg_check [expr {$v == 0x00420100}] [format "VERSION 0x%08x (build 0x42, 1.0)" $v]
	set v [wg_read $T $WG_A_INFO]
	wg_check [expr {$v == 0x00040004}] [format "INFO 0x%08x (4 controls, 4 counters)" $v]

	# Counters: CNT0 counts system clock cycles, it grows.
	set c0 [wg_read $T $WG_A_CNT]
	set c1 [wg_read $T $WG_A_CNT]
	wg_check [expr {$c1 > $c0}] "CNT0 counts: $c0 then $c1"

	# Scratch and control registers: write, read back.
	wg_write $T $WG_A_SCRATCH 0x600dcafe
	set v [wg_read $T $WG_A_SCRATCH]
	wg_check [expr {$v == 0x600dcafe}] [format "SCRATCH read back 0x%08x" $v]
	set v [wg_read $T [expr {$WG_A_CTL + 0}]]
	wg_check [expr {$v == 0x64}] [format "CTL0 reset value 0x%08x" $v]
	wg_write $T [expr {$WG_A_CTL + 1}] 0x12345678
	set v [wg_read $T [expr {$WG_A_CTL + 1}]]
	wg_check [expr {$v == 0x12345678}] [format "CTL1 read back 0x%08x" $v]

	# A refused access: unmapped address.
	set refused [catch {wg_read $T 0x7fff} msg]
	wg_check $refused "read of 0x7fff refused: $msg"
	wg_write $T $WG_A_STATUS 0x100

	# Halt: the run counter (CNT1) stops, USER2 shows HALT_REQ and HALTED; resume restarts it.
	wg_halt $T
	set s [wg_status $T]
	wg_check [expr {($s & 0x0c) == 0x0c}] [format "halted: USER2 0x%02x" $s]
	set r0 [wg_read $T [expr {$WG_A_CNT + 1}]]
	set r1 [wg_read $T [expr {$WG_A_CNT + 1}]]
	wg_check [expr {$r0 == $r1}] "CNT1 stands while halted: $r0, $r1"
	wg_resume $T
	set r2 [wg_read $T [expr {$WG_A_CNT + 1}]]
	set r3 [wg_read $T [expr {$WG_A_CNT + 1}]]
	wg_check [expr {$r3 > $r2 && $r2 >= $r1}] "CNT1 runs after resume: $r2, $r3"
	set s [wg_status $T]
	wg_check [expr {$s == 0x80}] [format "resumed: USER2 0x%02x" $s]

	# Speed: WG_SCANS USER1 scans (48 bits each), each a round trip through OpenOCD.
	wg_scan_speed $T
}

wg_run
