#!/usr/bin/env python3
"""fpga-xc7-blocks.py: where the resources of a hierarchical yosys synth_xilinx run go.

    scripts/fpga-xc7-blocks.py STAT [MODULE]

STAT is the output of yosys `stat` after `synth_xilinx` without -flatten (what `make fpga-xc7`
keeps in build/fpga/xc7-<board>/sm.stat); MODULE the module to break down: the top
(wg_sm_xc7, the default) or a block by its name (wg_lsu, wg_exec_pipe). Prints one
line per block instantiated in the top: copies, and LUT, FF, BRAM36, DSP48 of all copies with
everything inside them (a block's own cells plus its sub-blocks', times their copies), then
the top's own logic and the sum, which equals the design total. Counting as
scripts/fpga-xc7-table.sh: LUT is LUT1-6 plus LUT RAM and shift registers in the LUTs they
occupy, BRAM36 counts a RAMB18E1 as half.
"""
import re
import sys

# Cell name -> (resource, weight).
WEIGHTS = [
    (re.compile(r"LUT[1-6]$"), "lut", 1.0),
    (re.compile(r"RAM(32M|64M|128X1D|256X1S)$"), "lut", 4.0),
    (re.compile(r"RAM(32X1D|64X1D|128X1S)$"), "lut", 2.0),
    (re.compile(r"RAM(32X1S|64X1S)$"), "lut", 1.0),
    (re.compile(r"SRL[A-Z0-9]*$"), "lut", 1.0),
    (re.compile(r"FD[A-Z]*$"), "ff", 1.0),
    (re.compile(r"RAMB36E1$"), "bram", 1.0),
    (re.compile(r"RAMB18E1$"), "bram", 0.5),
    (re.compile(r"DSP48E1$"), "dsp", 1.0),
]
KEYS = ("lut", "ff", "bram", "dsp")


def parse(path):
    """Module name -> (own resources, {child module: copies})."""
    mods = {}
    cur = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"^=== (.+) ===$", line.strip())
            if m:
                name = m.group(1)
                cur = None if name == "design hierarchy" else name
                if cur is not None:
                    mods[cur] = ({k: 0.0 for k in KEYS}, {})
                continue
            if cur is None:
                continue
            m = re.match(r"^\s+(\S+)\s+(\d+)$", line)
            if not m or line.strip().startswith("Number of"):
                continue
            cell, count = m.group(1), int(m.group(2))
            own, kids = mods[cur]
            for rx, key, w in WEIGHTS:
                if rx.match(cell):
                    own[key] += w * count
                    break
            else:
                if not cell[0].isupper() or cell.startswith("$paramod") or "\\" in cell:
                    kids[cell] = kids.get(cell, 0) + count
                elif cell in mods or cell.startswith("wg_"):
                    kids[cell] = kids.get(cell, 0) + count
    if not mods:
        sys.exit(f"fpga-xc7-blocks: {path}: no '=== module ===' sections (not a yosys stat output?)")
    return mods


def total(mods, name, memo):
    if name in memo:
        return memo[name]
    if name not in mods:
        # a cell type that is neither a primitive counted above nor a module of the design
        # (IBUF, CARRY4, MUXF7, ...): no LUT/FF/BRAM/DSP of its own
        return {k: 0.0 for k in KEYS}
    own, kids = mods[name]
    t = dict(own)
    for kid, cnt in kids.items():
        kt = total(mods, kid, memo)
        for k in KEYS:
            t[k] += cnt * kt[k]
    memo[name] = t
    return t


def short(name):
    # $paramod$<hash>\wg_lsu -> wg_lsu; $paramod\wg_retire\N=32'... -> wg_retire
    parts = [p for p in name.split("\\") if p and not p.startswith("$paramod")]
    return parts[0] if parts else name


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: fpga-xc7-blocks.py STAT [MODULE]")
    path = sys.argv[1]
    top = sys.argv[2] if len(sys.argv) == 3 else "wg_sm_xc7"
    mods = parse(path)
    if top not in mods:
        named = [m for m in mods if short(m) == top]
        if named:
            top = named[0]
    if top not in mods:
        sys.exit(f"fpga-xc7-blocks: {path}: no module {top} (modules: {', '.join(sorted(map(short, mods))[:8])} ...)")
    memo = {}
    own, kids = mods[top]
    rows = []
    for kid, cnt in kids.items():
        t = total(mods, kid, memo)
        rows.append((short(kid), cnt, {k: cnt * t[k] for k in KEYS}))
    rows.sort(key=lambda r: -r[2]["lut"])
    whole = total(mods, top, memo)
    print(f"  {'block':<18} {'copies':>6} {'LUT':>9} {'FF':>8} {'BRAM36':>7} {'DSP48':>6} {'LUT %':>6}")
    for name, cnt, t in rows + [("(top's own)", 1, own), ("all", 1, whole)]:
        share = 100.0 * t["lut"] / whole["lut"] if whole["lut"] else 0.0
        print(f"  {name:<18} {cnt:>6} {t['lut']:>9.0f} {t['ff']:>8.0f} {t['bram']:>7.1f} {t['dsp']:>6.0f} {share:>5.1f}%")


if __name__ == "__main__":
    main()
