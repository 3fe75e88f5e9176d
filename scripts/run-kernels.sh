#!/usr/bin/env bash
# make run: every kernel program at the given size on the chosen target, then a
# table of the statistics each one wrote.
set -u
build=$1; target=$2; size=${3:-default}
status=0
out=$build/run/$target
mkdir -p "$out"
for k in "$build"/kernels/*; do
	[ -x "$k" ] || continue
	n=$(basename "$k")
	"$k" --target "$target" --size "$size" --json "$out/$n.json" || status=1
done
python3 - "$out" <<'PY'
import glob, json, os, sys
rows = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    t = json.load(open(f))["totals"]
    rows.append((os.path.basename(f)[:-5], t))
print("\n%-10s %8s %7s %12s %13s %6s %9s %8s %9s %8s %10s %6s" % (
    "kernel", "launches", "CTAs", "warp_insts", "thread_insts", "eff%", "branches", "diverg", "barriers",
    "atomics", "cycles", "IPC"))
for name, t in rows:
    cyc = t.get("cycles", 0)
    print("%-10s %8d %7d %12d %13d %6.1f %9d %8d %9d %8d %10s %6s" % (
        name, t["kernels"], t["ctas"], t["inst_executed"], t["thread_inst_executed"],
        100 * t["warp_execution_efficiency"], t["branch"], t["divergent_branch"], t["barrier"], t.get("atom_ops", 0),
        cyc if cyc else "-", "%.3f" % (t["inst_executed"] / cyc) if cyc else "-"))
PY
echo "statistics (JSON, per launch) in $out/"
exit $status
