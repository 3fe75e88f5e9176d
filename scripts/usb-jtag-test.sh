#!/usr/bin/env bash
# make usb-jtag-test (docs/usb.md section 5): OpenOCD against the Verilated board top while a
# kernel runs over the emulated USB link. fx2-emu serves OpenOCD's remote_bitbang protocol on
# a free loopback port (--jtag-port=0, the port written to a file) next to the USB device;
# openocd runs constraints/openocd/warpgate-sim.cfg with tests/usb/jtag_pg.tcl: the IDCODE,
# counters read while target time runs, three power-gating controls written through USER1
# and taken by the GPU, halt and resume, and the scans per second.
# Checks: openocd's checks, the kernel program's own check of its downloads (exit status 0:
# the result is still correct), and its cycle count against --target gpu (the lane gating
# written mid-run with a long wake-up latency must change it: the write reached the SMs).
#   scripts/usb-jtag-test.sh BUILD_DIR [KERNEL]
set -u
build=${1:-build}
kernel=${2:-matmul}
emu=$build/usb/fx2-emu
k=$build/kernels/$kernel
fw=firmware/build/warpgate-fx2.ihx
openocd=${OPENOCD:-openocd}
command -v "$openocd" >/dev/null || { echo "usb-jtag-test: $openocd not found (Debian package openocd)"; exit 1; }
command -v umockdev-wrapper >/dev/null || { echo "usb-jtag-test: umockdev-wrapper is missing (make deps)"; exit 1; }
for f in "$emu" "$k"; do [ -x "$f" ] || { echo "usb-jtag-test: $f is missing"; exit 1; }; done
[ -f "$fw" ] || { echo "usb-jtag-test: $fw is missing (make firmware)"; exit 1; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/wg-usb-jtag.XXXXXX")
emu_pid=
ocd_pid=
gpu_pid=
cleanup() {
	for p in $ocd_pid $emu_pid $gpu_pid; do kill "$p" 2>/dev/null; done
	for p in $ocd_pid $emu_pid $gpu_pid; do wait "$p" 2>/dev/null; done
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$(date +%s%N)
"$k" --target gpu --size small --json "$dir/gpu.json" >"$dir/gpu.log" 2>&1 &
gpu_pid=$!
umockdev-wrapper "$emu" --firmware="$fw" --jtag-port=0 --jtag-port-file="$dir/port" --stats="$dir/emu.json" -- \
	"$k" --target usb --size small --json "$dir/usb.json" >"$dir/usb.log" 2>&1 &
emu_pid=$!
for _ in $(seq 200); do
	[ -s "$dir/port" ] && break
	kill -0 "$emu_pid" 2>/dev/null || break
	sleep 0.05
done
if [ ! -s "$dir/port" ]; then
	echo "usb-jtag-test: fx2-emu did not open its JTAG port"; cat "$dir/usb.log"; exit 1
fi
port=$(cat "$dir/port")

timeout 600 "$openocd" -c "set WG_JTAG_PORT $port" \
	-c "gdb_port disabled; tcl_port disabled; telnet_port disabled" \
	-f constraints/openocd/warpgate-sim.cfg -f tests/usb/jtag_pg.tcl >"$dir/openocd.log" 2>&1 &
ocd_pid=$!
wait "$ocd_pid"; ocd_rc=$?
ocd_pid=
wait "$emu_pid"; usb_rc=$?
emu_pid=
wait "$gpu_pid"; gpu_rc=$?
gpu_pid=
end=$(date +%s%N)

fail=0
grep -E '^usb-jtag-test:|tap/device found' "$dir/openocd.log"
if [ $ocd_rc -ne 0 ] || ! grep -q '^usb-jtag-test: all checks passed' "$dir/openocd.log"; then
	echo "usb-jtag-test: FAIL openocd (exit $ocd_rc)"; tail -20 "$dir/openocd.log"; fail=1
fi
if [ $usb_rc -ne 0 ]; then
	echo "usb-jtag-test: FAIL $kernel on usb (exit $usb_rc)"; tail -20 "$dir/usb.log"; fail=1
fi
if [ $gpu_rc -ne 0 ]; then
	echo "usb-jtag-test: FAIL $kernel on gpu (exit $gpu_rc)"; tail -20 "$dir/gpu.log"; fail=1
fi
if [ $fail -eq 0 ]; then
	python3 - "$dir/gpu.json" "$dir/usb.json" "$dir/emu.json" <<'PY' || fail=1
import json, sys
g, u, e = (json.load(open(f)) for f in sys.argv[1:4])
cg, cu = g["totals"]["cycles"], u["totals"]["cycles"]
print("usb-jtag-test: results correct on usb; %d cycles with the controls written mid-run, %d on gpu; "
      "%d TCK cycles served" % (cu, cg, e["jtag_tck_cycles"]))
if cu == cg:
    print("usb-jtag-test: FAIL the cycle count did not change: the power-gating write had no effect")
    sys.exit(1)
PY
fi
ms=$(( (end - start) / 1000000 ))
if [ $fail -ne 0 ]; then
	echo "usb-jtag-test: FAILED"; exit 1
fi
printf 'usb-jtag-test: passed in %d.%01d s\n' $((ms / 1000)) $((ms % 1000 / 100))
