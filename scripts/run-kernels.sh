#!/usr/bin/env bash
# make run: every kernel program at the given size on the chosen target, then a
# table of the statistics each one wrote.
set -u
# Optional 4th argument: target options KEY=VALUE separated by spaces (make run RUN_OPTS=...).
build=$1; target=$2; size=${3:-default}; opts=${4:-}
status=0
optargs=()
for o in $opts; do optargs+=(--option "$o"); done
out=$build/run/$target
mkdir -p "$out"
for k in "$build"/kernels/*; do
	[ -x "$k" ] || continue
	n=$(basename "$k")
	"$k" --target "$target" --size "$size" "${optargs[@]}" --json "$out/$n.json" || status=1
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
# Memory pipeline (docs/memory-pipeline.md section 2): requests / transactions per space,
# replays, L1 hit rates, shared bank conflicts, bytes on the SM's memory port.
if any("memory" in t for _, t in rows):
    print("\n%-10s %11s %11s %7s %11s %11s %7s %9s %9s %7s %7s %9s %9s %8s %11s" % (
        "kernel", "gld_req", "gld_tx", "gld_rp", "gst_req", "gst_tx", "gst_rp", "local_tx", "shared_tx",
        "bankcf", "atom", "L1g_hit%", "L1l_hit%", "mem_req", "mem_bytes"))
    for name, t in rows:
        m = t.get("memory")
        if not m:
            continue
        pct = lambda h, miss: "%.1f" % (100.0 * h / (h + miss)) if h + miss else "-"
        print("%-10s %11d %11d %7d %11d %11d %7d %9d %9d %7d %7d %9s %9s %8s %11s" % (
            name, m["gld_requests"], m["gld_transactions"], m["gld_replays"], m["gst_requests"],
            m["gst_transactions"], m["gst_replays"], m["local_load_transactions"] + m["local_store_transactions"],
            m["shared_load_transactions"] + m["shared_store_transactions"], m["shared_bank_conflicts"],
            m["atom_count"], pct(m["l1_global_load_hit"], m["l1_global_load_miss"]),
            pct(m["l1_local_load_hit"] + m["l1_local_store_hit"], m["l1_local_load_miss"] + m["l1_local_store_miss"]),
            m["mem_requests"] if m["mem_requests"] else "-",
            m["mem_read_bytes"] + m["mem_write_bytes"] if m["mem_requests"] else "-"))
PY
echo "statistics (JSON, per launch) in $out/"
exit $status
