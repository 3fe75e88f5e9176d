#!/usr/bin/env bash
# Golden-model speed: warp instructions per second on each kernel program at its default size.
set -u
build=$1
printf '%-12s %14s %10s %14s\n' kernel warp_insts seconds warp_inst/s
for k in "$build"/kernels/*; do
	[ -x "$k" ] || continue
	n=$(basename "$k")
	"$k" --target func --json "$build/bench-$n.json" >/dev/null || { echo "$n failed"; continue; }
	python3 - "$n" "$build/bench-$n.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[2]))["totals"]
s = t["host_seconds"]
print("%-12s %14d %10.3f %14.0f" % (sys.argv[1], t["inst_executed"], s, t["inst_executed"] / s if s else 0))
PY
done
