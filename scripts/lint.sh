#!/usr/bin/env bash
# Static checks: RTL lint with Verilator -Wall (when RTL exists) and a warning-clean C build.
set -eu
rtl=$(ls rtl/*.sv rtl/*.v 2>/dev/null || true)
if [ -n "$rtl" ] && command -v verilator >/dev/null; then
	verilator --lint-only -Wall $(ls rtl/*_pkg.sv 2>/dev/null) $(ls rtl/*.sv | grep -v _pkg.sv)
fi
make -s --no-print-directory build/libwarpgate.a build/warpgate
echo "lint: clean"
