#!/usr/bin/env bash
# The CUDA suite's figures table (docs/suite.md) from the programs' --json statistics.
#   suite-figures.sh --run BUILD SIZE "TARGETS"   run every suite program (build/cuda/*) at SIZE
#                                                  on each target, then print the table
#   suite-figures.sh DIR...                        print the table of DIR/NAME.json files
# Columns: launches, CTAs, warp instructions, divergent branches / branches, local-memory
# bytes per thread instruction (spill and stack-array traffic), warp execution efficiency,
# cycles, IPC (warp instructions per cycle and SM), ALU utilisation = thread instructions of
# the int, imul, fp and sfu classes / (cycles x ALU lanes of the SMs that ran); then per
# kernel: registers per thread, shared and local bytes, CTAs and warps per SM and the
# resource that bounds them (the launches' "regs", "ctas_per_sm", ... fields).
set -u
if [ "${1:-}" = --run ]; then
	build=$2; size=$3; targets=$4; dirs=()
	for t in $targets; do
		out=$build/suite-run/$t
		mkdir -p "$out"
		for p in "$build"/cuda/*; do
			[ -x "$p" ] || continue
			n=$(basename "$p")
			WG_SIM_LOCKSTEP=0 "$p" --target "$t" --size "$size" --json "$out/$n.json" ||
				echo "suite-figures: $n on $t failed" >&2
		done
		dirs+=("$out")
	done
	set -- "${dirs[@]}"
fi
python3 - "$@" <<'PY'
import glob, json, os, sys
LANES = int(os.environ.get("WG_ALU_LANES", "32"))   # SIMD width x SIMD units per SM (docs/sm.md)
for d in sys.argv[1:]:
    runs = [(os.path.basename(f)[:-5], json.load(open(f))) for f in sorted(glob.glob(os.path.join(d, "*.json")))]
    print("\n%s: per program" % d)
    print("%-8s %8s %7s %12s %8s %9s %6s %12s %6s %6s" % ("program", "launches", "CTAs", "warp_insts",
          "diverg%", "local_B/i", "eff%", "cycles", "IPC/SM", "ALU%"))
    for name, j in runs:
        t = j["totals"]
        cyc = t.get("cycles", 0)
        tc = j.get("target_counters", {})
        sms = sum(1 for a in tc.get("sm_active_cycles", []) if a) or 1
        alu = sum(t.get("thread_inst_by_class", {}).get(c, 0) for c in ("int", "imul", "fp", "sfu"))
        loc = t.get("local_load_bytes", 0) + t.get("local_store_bytes", 0)
        # Targets without per-instruction classes (the board target: no retire stream, no
        # execution counters) count no branches, classes or local bytes: "-", not a misleading 0.
        classes = sum(t.get("thread_inst_by_class", {}).values()) > 0
        print("%-8s %8d %7d %12d %8s %9s %6.1f %12s %6s %6s" % (
            name, t["kernels"], t["ctas"], t["inst_executed"],
            ("%.1f" % (100.0 * t["divergent_branch"] / t["branch"]) if t["branch"] else "0.0") if classes else "-",
            ("%.2f" % (loc / t["thread_inst_executed"]) if t["thread_inst_executed"] else "0.00") if classes else "-",
            100 * t["warp_execution_efficiency"], cyc if cyc else "-",
            "%.3f" % (t["inst_executed"] / cyc / sms) if cyc else "-",
            "%.1f" % (100.0 * alu / (cyc * LANES * sms)) if cyc and classes else "-"))
    print("\n%s: per kernel (resources from the translated image, occupancy of one SM)" % d)
    print("%-8s %-16s %8s %5s %7s %6s %7s %8s %-14s %12s %8s" % ("program", "kernel", "launches", "regs",
          "shared", "local", "CTAs/SM", "warps/SM", "bound by", "warp_insts", "diverg%"))
    for name, j in runs:
        ks = {}
        for l in j.get("launches", []):
            k = ks.setdefault(l["kernel"], dict(l, n=0, insts=0, br=0, dbr=0, cls=0))
            k["cls"] += sum(l.get("thread_inst_by_class", {}).values())
            k["n"] += 1
            k["insts"] += l["inst_executed"]
            k["br"] += l["branch"]
            k["dbr"] += l["divergent_branch"]
        for kn, k in ks.items():
            print("%-8s %-16s %8d %5s %7s %6s %7s %8s %-14s %12d %8s" % (
                name, kn, k["n"], k.get("regs", "?"), k.get("shared_bytes", "?"), k.get("local_bytes", "?"),
                k.get("ctas_per_sm", "?"), k.get("warps_per_sm", "?"), k.get("occupancy_limit", "?"),
                k["insts"], ("%.1f" % (100.0 * k["dbr"] / k["br"]) if k["br"] else "0.0") if k["cls"] else "-"))
# The execution counts depend on the program only, not on the target's timing or SM count:
# the first directory's (sim: retire stream) and every other's (gpu: the SMs' execution
# counters, docs/gpu.md CNT_READ page 1) must agree.
KEYS = ("inst_executed", "thread_inst_executed", "branch", "divergent_branch", "local_load_bytes",
        "local_store_bytes")
if len(sys.argv) > 2:
    base = {os.path.basename(f)[:-5]: json.load(open(f))["totals"]
            for f in glob.glob(os.path.join(sys.argv[1], "*.json"))}
    for d in sys.argv[2:]:
        same, diff = 0, []
        for f in sorted(glob.glob(os.path.join(d, "*.json"))):
            name = os.path.basename(f)[:-5]
            if name not in base:
                continue
            t, b = json.load(open(f))["totals"], base[name]
            bad = [k for k in KEYS if t.get(k) != b.get(k)]
            if t.get("thread_inst_by_class") != b.get("thread_inst_by_class"):
                bad.append("thread_inst_by_class")
            if bad:
                diff.append("%s (%s)" % (name, ", ".join(bad)))
            else:
                same += 1
        print("\nexecution counts of %s vs %s: %d programs equal%s" % (d, sys.argv[1], same,
              "; differ: " + "; ".join(diff) if diff else ""))
PY
