#!/usr/bin/env python3
"""stats-same.py A.json B.json [NAME_A NAME_B]: exit 0 when two runs' --json statistics are
identical but for what measures the host or the link, else print up to 20 differences
(key path, both values) and exit 1. Used by scripts/board-test.sh and scripts/usb-test.sh to
compare the board and usb targets with the gpu target."""
import json
import sys

SKIP = {"target", "host_seconds", "warp_insts_per_second", "sim_cycles_per_second", "link_cycles", "link",
        "pg_readout_seconds"}


def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in SKIP}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def diff(a, b, path, names, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            diff(a.get(k, "(missing)"), b.get(k, "(missing)"), path + "." + k, names, out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s[%d]" % (path, i), names, out)
    elif a != b:
        out.append("%s: %s %s, %s %s" % (path, names[0], a, names[1], b))


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit("usage: stats-same.py A.json B.json [NAME_A NAME_B]")
    names = sys.argv[3:5] if len(sys.argv) == 5 else ["a", "b"]
    a, b = (strip(json.load(open(f))) for f in sys.argv[1:3])
    out = []
    diff(a, b, "", names, out)
    for line in out[:20]:
        print("  " + line)
    if not a.get("totals", {}).get("cycles"):
        print("  no cycles in the statistics")
        out.append("")
    sys.exit(1 if out else 0)


main()
