#!/usr/bin/env bash
# Static checks: every RTL module linted with Verilator -Wall as its own top
# with exactly the packages and submodules it uses (scripts/rtl-deps.py), waivers from rtl/*.vlt, then a warning-clean C build.
# Vendor primitives (BSCANE2 in rtl/wg_jtag_bscan.sv) come from the lint stubs in sim/xilinx/.
set -eu
shopt -s nullglob
mods=($(ls rtl/*.sv rtl/*.v 2>/dev/null | grep -v '_pkg.sv$' || true))
vlt=(rtl/*.vlt)
if [ ${#mods[@]} -gt 0 ] && command -v verilator >/dev/null; then
	fail=0
	for m in "${mods[@]}"; do
		top=$(basename "$m"); top=${top%.*}
		# GPU tops with 2 SMs: the SM is linted once as its own top, and 15 identical copies
		# only multiply the time (about 80 s each for wg_gpu and wg_board_core).
		if ! verilator --lint-only -Wall -Irtl -y sim/xilinx +define+WG_GPU_NUM_SMS=2 "${vlt[@]}" \
			$(scripts/rtl-deps.py "$top") --top-module "$top" \
			>/tmp/wg-lint-$$.log 2>&1; then
			echo "lint: $m"; head -30 /tmp/wg-lint-$$.log; fail=1
		fi
	done
	rm -f /tmp/wg-lint-$$.log
	[ $fail -eq 0 ] || exit 1
	echo "lint: ${#mods[@]} RTL modules clean"
fi
make -s --no-print-directory build/libwarpgate.a build/obj/host/cli/warpgate.o
echo "lint: clean"
