#!/usr/bin/env bash
# make usb-test (docs/usb.md section 5): libwarpgate's usb target through the real libusb
# code path against the emulated board (build/usb/fx2-emu under umockdev-wrapper: a bare FX2
# that takes the firmware, re-enumerates as the bridge, and moves bulk URBs to and from the
# Verilated board top's FX2 FIFO pins).
#  1. every kernel program (USB_TEST_KERNELS, default all) at --size small on --target gpu and
#     --target usb, side by side (the gpu run is board-test's, BUILD/board/gpu-json/, when it
#     is newer than the program): each checks its downloads against its host reference, and
#     the JSON statistics (cycles, counters, memory figures) must be identical but for what
#     measures the host or the link; the firmware must have been loaded through the loader;
#  2. the device disappearing mid-run (fx2-emu --unplug-after): the launch fails with the
#     link error naming the vanished device, after the bytes already received were used;
#  3. the figures of the emulated path: frames and bytes per second.
set -u
build=${1:-build}
emu=$build/usb/fx2-emu
kernels=${USB_TEST_KERNELS:-}
unplug_kernel=${USB_TEST_UNPLUG:-matmul}
fw=firmware/build/warpgate-fx2.ihx
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "usb-test: FAIL $*"; }

command -v umockdev-wrapper >/dev/null || { echo "usb-test: umockdev-wrapper is missing (make deps)"; exit 1; }
[ -x "$emu" ] || { echo "usb-test: $emu is missing (make fx2-emu)"; exit 1; }
[ -f "$fw" ] || { echo "usb-test: $fw is missing (make firmware)"; exit 1; }

# same NAME A.json B.json: identical statistics but for what measures the host or the link
same() {
	if "$(dirname "$0")/stats-same.py" "$2" "$3" gpu usb >"$tmp/cmp" 2>&1; then ok; else bad "$1: statistics differ"; cat "$tmp/cmp"; fi
}

# figures NAME USB.json EMU.json: cycles, frames and bytes through the emulated path per second
figures() {
	python3 - "$@" <<'PY'
import json, sys
n, u, e = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
l = u["target_counters"]["link"]
frames = l["tx_frames"] + l["tx_control"] + l["rx_frames"] + l["rx_control"]
mb = (e["out_bytes"] + e["in_bytes"]) / 1e6
t = e["busy_seconds"] or 1e-9
print("usb-test: %-10s %8d cycles  %6.2f s  %6d frames %7.3f MB  %7.0f frames/s %6.3f MB/s  fw loaded %d"
      % (n, u["totals"]["cycles"], e["wall_seconds"], frames, mb, frames / t, mb / t,
         l["usb"]["firmware_loaded"]))
if not l["usb"]["firmware_loaded"]:
    sys.exit(1)
PY
}

# 1. every kernel program on gpu and usb, side by side
for k in "$build"/kernels/*; do
	[ -x "$k" ] || continue
	n=$(basename "$k")
	if [ -n "$kernels" ] && ! grep -qw "$n" <<<"$kernels"; then continue; fi
	# The gpu run: board-test's, when it is newer than the program (which links the GPU model,
	# so any change to either rebuilds it); otherwise run here, next to the usb run.
	gpid=
	if [ "$build/board/gpu-json/$n.json" -nt "$k" ]; then
		cp "$build/board/gpu-json/$n.json" "$tmp/$n.gpu.json"
	else
		"$k" --target gpu --size small --json "$tmp/$n.gpu.json" >"$tmp/$n.gpu.log" 2>&1 &
		gpid=$!
	fi
	if umockdev-wrapper "$emu" --firmware="$fw" --stats="$tmp/$n.emu.json" -- \
		"$k" --target usb --size small --json "$tmp/$n.usb.json" >"$tmp/$n.usb.log" 2>&1; then
		ok
	else
		bad "$n on usb"; tail -20 "$tmp/$n.usb.log"
	fi
	if [ -z "$gpid" ] || wait $gpid; then ok; else bad "$n on gpu"; tail -20 "$tmp/$n.gpu.log"; fi
	[ -f "$tmp/$n.usb.json" ] && [ -f "$tmp/$n.gpu.json" ] || continue
	same "$n" "$tmp/$n.gpu.json" "$tmp/$n.usb.json"
	if figures "$n" "$tmp/$n.usb.json" "$tmp/$n.emu.json"; then ok; else bad "$n: the firmware was not loaded"; fi
done

# 2. the device disappears after 20000 bytes from the board: a clear link error, status 1..
k=$build/kernels/$unplug_kernel
if [ ! -x "$k" ]; then
	:
elif umockdev-wrapper "$emu" --firmware="$fw" --unplug-after=20000 -- "$k" --target usb --size small \
	>"$tmp/unplug.log" 2>&1; then
	bad "$unplug_kernel with the device unplugged mid-run passed"
elif grep -q "disappeared" "$tmp/unplug.log"; then
	ok
	echo "usb-test: unplugged mid-run: $(grep -m1 -o "[^:]*board link:.*" "$tmp/unplug.log" | cut -c1-150)"
else
	bad "$unplug_kernel unplugged: no message naming the vanished device"; tail -10 "$tmp/unplug.log"
fi

echo "usb-test: $pass passed, $fail failed"
[ $fail -eq 0 ]
