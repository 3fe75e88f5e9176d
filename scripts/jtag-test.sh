#!/usr/bin/env bash
# make jtag-test: OpenOCD against the simulated JTAG debug port (docs/jtag.md section 8).
# Starts build/rtl/jtag/jtag_bitbang on a free loopback port (it binds port 0 and
# writes the port it got to a file), runs openocd with constraints/openocd/warpgate-sim.cfg
# and tests/rtl/jtag_openocd.tcl, checks both exit statuses. Both processes are ended on
# any failure or interruption.
#   scripts/jtag-test.sh BUILD_DIR [SCANS]
set -u
build=${1:-build}
scans=${2:-2000}
server=$build/rtl/jtag/jtag_bitbang
openocd=${OPENOCD:-openocd}
if ! command -v "$openocd" >/dev/null; then
	echo "jtag-test: $openocd not found (Debian package openocd)"; exit 1
fi
[ -x "$server" ] || { echo "jtag-test: $server missing (make jtag-bitbang)"; exit 1; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/wg-jtag-test.XXXXXX")
srv_pid=
ocd_pid=
cleanup() {
	[ -n "$ocd_pid" ] && kill "$ocd_pid" 2>/dev/null
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null
	[ -n "$srv_pid" ] && wait "$srv_pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$server" --port=0 --port-file="$dir/port" --accept-timeout=60 >"$dir/server.log" 2>&1 &
srv_pid=$!
for _ in $(seq 100); do
	[ -s "$dir/port" ] && break
	kill -0 "$srv_pid" 2>/dev/null || break
	sleep 0.1
done
if [ ! -s "$dir/port" ]; then
	echo "jtag-test: the server did not start"; cat "$dir/server.log"; exit 1
fi
port=$(cat "$dir/port")

start=$(date +%s%N)
timeout 120 "$openocd" -c "set WG_JTAG_PORT $port; set WG_SCANS $scans" \
	-c "gdb_port disabled; tcl_port disabled; telnet_port disabled" \
	-f constraints/openocd/warpgate-sim.cfg -f tests/rtl/jtag_openocd.tcl >"$dir/openocd.log" 2>&1 &
ocd_pid=$!
wait "$ocd_pid"; ocd_rc=$?
ocd_pid=
# The server ends by itself after OpenOCD's quit request; give it 5 s, then end it.
for _ in $(seq 50); do
	kill -0 "$srv_pid" 2>/dev/null || break
	sleep 0.1
done
kill "$srv_pid" 2>/dev/null
wait "$srv_pid"; srv_rc=$?
srv_pid=
end=$(date +%s%N)

grep -E '^jtag-test:|tap/device found' "$dir/openocd.log"
grep -E 'TCK cycles/s' "$dir/server.log" | sed 's/^/  /'
if [ $ocd_rc -ne 0 ] || [ $srv_rc -ne 0 ] || ! grep -q '^jtag-test: all checks passed' "$dir/openocd.log"; then
	echo "jtag-test: FAILED (openocd exit $ocd_rc, server exit $srv_rc)"
	echo "--- openocd log"; tail -30 "$dir/openocd.log"
	echo "--- server log"; tail -10 "$dir/server.log"
	exit 1
fi
ms=$(( (end - start) / 1000000 ))
printf 'jtag-test: passed in %d.%01d s\n' $((ms / 1000)) $((ms % 1000 / 100))
