#!/usr/bin/env bash
# Static checks: every RTL module linted with Verilator -Wall as its own top
# with exactly the packages and submodules it uses (scripts/rtl-deps.py), waivers from rtl/*.vlt, then a warning-clean C build.
# Vendor primitives (BSCANE2 in rtl/wg_jtag_bscan.sv) come from the lint stubs in sim/xilinx/.
# The modules are linted in parallel, one Verilator per core (LINT_JOBS, default nproc).
set -eu
shopt -s nullglob
jobs=${LINT_JOBS:-$(nproc 2>/dev/null || echo 2)}
# wg_board_core is linted inside wg_board_top, which passes it its own parameters under the
# same names and defaults (linting it again as a top took another 13 s of one core).
mods=($(ls rtl/*.sv rtl/*.v 2>/dev/null | grep -v '_pkg.sv$' | grep -v '/wg_board_core\.sv$' || true))
if [ ${#mods[@]} -gt 0 ] && command -v verilator >/dev/null; then
	logs=$(mktemp -d)
	trap 'rm -rf "$logs"' EXIT
	# lint_one FILE LOGS: lint FILE's module; on a warning leave its log as LOGS/TOP.fail.
	# The SM is linted once as its own top; in the GPU tops its 15 identical copies only
	# multiply the time (about 80 s each). wg_gpu is linted with 2 SMs (its per-SM muxes and
	# arbitration) and the `arty` set's parameters (8 s of one core instead of 19 with the
	# GTX480 defaults); the board tops, which only wrap wg_gpu, with 1: wg_board_top with the
	# defaults (so wg_gpu is linted at those widths too, with the retire port), the Xilinx board
	# image (wg_xc7_top) as it is built, with the `arty` set of configs/boards.mk.
	XC7_FLAGS=$(make -s --no-print-directory -f configs/boards.mk -f - <<<'p: ; @echo $(call board_vflags,arty,$(BOARD_SM_NAMES))' p)
	XC7_PARAMS=$(printf '%s\n' $XC7_FLAGS | grep '^-G' | tr '\n' ' ')
	export XC7_FLAGS XC7_PARAMS
	lint_one() {
		local top sms=1 extra=""
		top=$(basename "$1"); top=${top%.*}
		[ "$top" = wg_gpu ] && { sms=2; extra=$XC7_PARAMS; }
		[ "$top" = wg_xc7_top ] && extra=$XC7_FLAGS
		verilator --lint-only -Wall -Irtl -y sim/xilinx +define+WG_GPU_NUM_SMS=$sms rtl/*.vlt \
			$(scripts/rtl-deps.py "$top") --top-module "$top" $extra >"$2/$top.log" 2>&1 ||
			mv "$2/$top.log" "$2/$top.fail"
	}
	export -f lint_one
	# The board top (about 10 s), the SM and wg_gpu (about 8 s each) start first; every other
	# module takes under 5 s, so they fill the cores around them.
	{ printf '%s\n' "${mods[@]}" | grep -E '/wg_(gpu|board_top|sm)\.sv$' || true
	  printf '%s\n' "${mods[@]}" | grep -vE '/wg_(gpu|board_top|sm)\.sv$' || true; } |
		xargs -P "$jobs" -I{} bash -c 'lint_one "$1" "$2"' _ {} "$logs"
	fail=0
	for f in "$logs"/*.fail; do
		echo "lint: rtl/$(basename "$f" .fail)"; head -30 "$f"; fail=1
	done
	[ $fail -eq 0 ] || exit 1
	echo "lint: ${#mods[@]} RTL modules clean"
fi
make -s --no-print-directory -j"$jobs" build/libwarpgate.a build/obj/host/cli/warpgate.o
echo "lint: clean"
