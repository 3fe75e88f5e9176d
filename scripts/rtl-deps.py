#!/usr/bin/env python3
"""Print the RTL files needed to elaborate a top module: the packages it (or
anything it instantiates) references, in dependency order, then the module
files. Usage: rtl-deps.py TOP [RTL_DIR]"""
import os
import re
import sys

top = sys.argv[1]
rtl = sys.argv[2] if len(sys.argv) > 2 else "rtl"
files = {}
for f in os.listdir(rtl):
    if f.endswith((".sv", ".v")):
        files[os.path.splitext(f)[0]] = os.path.join(rtl, f)


def text(name):
    with open(files[name]) as fh:
        return re.sub(r"//.*", "", fh.read())


def pkg_refs(name):
    return {p for p in re.findall(r"\b(\w+)::", text(name)) if p in files and p != name}


def inst_refs(name):
    return {m for m in re.findall(r"^\s*(\w+)\s*(?:#\s*\(|\w+\s*\()", text(name), re.M)
            if m in files and m != name and not m.endswith("_pkg")}


mods, pkgs, todo = [], set(), [top]
while todo:
    m = todo.pop()
    if m in mods:
        continue
    mods.append(m)
    pkgs |= pkg_refs(m)
    todo.extend(sorted(inst_refs(m), reverse=True))

# Packages used by packages come first.
order, seen = [], set()


def visit(p):
    if p in seen:
        return
    seen.add(p)
    for q in sorted(pkg_refs(p)):
        visit(q)
    order.append(p)


for p in sorted(pkgs):
    visit(p)
print(" ".join([files[p] for p in order] + [files[m] for m in mods]))
