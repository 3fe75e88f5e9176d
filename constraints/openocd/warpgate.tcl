# OpenOCD procedures for the warpgate JTAG debug port (docs/jtag.md): register
# access through USER1, status through USER2. The instruction codes are the
# Xilinx 7-series ones, so the same procedures work on the simulated TAP
# (warpgate-sim.cfg, tap warpgate.tap) and on the FPGA's own TAP with the
# BSCANE2 wrapper (nexys-video.cfg, arty-a7.cfg: tap xc7.tap). Every procedure takes the tap.
#
#   wg_read TAP ADDR          -> register value
#   wg_write TAP ADDR VALUE
#   wg_status TAP             -> USER2 status byte
#   wg_halt TAP / wg_resume TAP
#   wg_dump TAP               prints ID, VERSION, INFO, STATUS, CTRL and the counters

set WG_IR_IDCODE 0x09
set WG_IR_USER1  0x02
set WG_IR_USER2  0x03
set WG_IR_BYPASS 0x3f

# Register map (rtl/wg_jtag_pkg.sv).
set WG_A_ID      0x0000
set WG_A_VERSION 0x0001
set WG_A_INFO    0x0002
set WG_A_STATUS  0x0003
set WG_A_CTRL    0x0004
set WG_A_SCRATCH 0x0005
set WG_A_CNT     0x0100
set WG_A_CTL     0x0200

# One USER1 scan (48 bits: data 32, address 15, write 1), repeated while its
# capture shows DONE = 0 (that scan performed nothing). Returns the response
# to the previous command: {data err}.
proc wg_user1_scan {tap write addr data} {
	for {set i 0} {$i < 1000} {incr i} {
		lassign [drscan $tap 32 $data 15 $addr 1 $write] rdata flags
		set flags [expr {"0x$flags"}]
		if {$flags & 1} {
			return [list [expr {"0x$rdata" + 0}] [expr {($flags >> 1) & 1}]]
		}
	}
	error "wg: USER1 on $tap never reports DONE"
}

# A command, then a read of ID to fetch its response.
proc wg_access {tap write addr data} {
	global WG_IR_USER1
	irscan $tap $WG_IR_USER1
	wg_user1_scan $tap $write $addr $data
	lassign [wg_user1_scan $tap 0 0 0] value err
	if {$err} {
		error [format "wg: %s of register 0x%04x refused (no such register, or read-only)" \
			[expr {$write ? "write" : "read"}] $addr]
	}
	return $value
}

proc wg_read {tap addr} {
	return [wg_access $tap 0 $addr 0]
}

proc wg_write {tap addr value} {
	wg_access $tap 1 $addr $value
	return
}

proc wg_status {tap} {
	global WG_IR_USER2
	irscan $tap $WG_IR_USER2
	return [expr {"0x[drscan $tap 8 0]" + 0}]
}

# Halt: CTRL.HALT = 1, then wait until STATUS.HALTED.
proc wg_halt {tap} {
	global WG_A_CTRL WG_A_STATUS
	wg_write $tap $WG_A_CTRL 1
	for {set i 0} {$i < 100} {incr i} {
		if {[wg_read $tap $WG_A_STATUS] & 1} {
			return
		}
	}
	error "wg: $tap: CTRL.HALT set but the GPU does not report halted"
}

proc wg_resume {tap} {
	global WG_A_CTRL WG_A_STATUS
	wg_write $tap $WG_A_CTRL 0
	for {set i 0} {$i < 100} {incr i} {
		if {!([wg_read $tap $WG_A_STATUS] & 1)} {
			return
		}
	}
	error "wg: $tap: CTRL.HALT cleared but the GPU still reports halted"
}

proc wg_dump {tap} {
	global WG_A_ID WG_A_VERSION WG_A_INFO WG_A_STATUS WG_A_CTRL WG_A_CNT
	set info [wg_read $tap $WG_A_INFO]
	echo [format "ID 0x%08x VERSION 0x%08x INFO 0x%08x STATUS 0x%08x CTRL 0x%08x USER2 0x%02x" \
		[wg_read $tap $WG_A_ID] [wg_read $tap $WG_A_VERSION] $info \
		[wg_read $tap $WG_A_STATUS] [wg_read $tap $WG_A_CTRL] [wg_status $tap]]
	for {set i 0} {$i < ($info & 0xffff)} {incr i} {
		echo [format "  CNT%d %u" $i [wg_read $tap [expr {$WG_A_CNT + $i}]]]
	}
}

# (sourcing ends here; an empty result keeps OpenOCD from echoing the last proc name)
return ""
