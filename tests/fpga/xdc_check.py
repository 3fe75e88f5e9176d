#!/usr/bin/env python3
"""Check a board's XDC files against a top's ports (make xdc-test, docs/fpga.md section 4).

Usage: xdc_check.py PORTS.json TOP PIN_XDC [XDC ...]

PORTS.json: yosys' write_json of the top (its ports are read). PIN_XDC: the board's pin
file; every bit of every port must get exactly one PACKAGE_PIN and an IOSTANDARD there,
and no package pin may be used twice. Every name in a get_ports of any XDC given must be a
port of the top (a misspelt name is only a warning in Vivado, and leaves the port
unplaced). Errors name the file and line. Exit status 1 on any error.
"""
import json
import re
import sys

ports_json, top, pin_xdc, *other = sys.argv[1:]
mods = json.load(open(ports_json))["modules"]
if top not in mods:
    sys.exit(f"xdc_check: no module {top} in {ports_json}")
ports = {name: len(p["bits"]) for name, p in mods[top]["ports"].items()}

errors = []
get_ports = re.compile(r"get_ports\s*(?:\{([^}]*)\}|(\S+?)\])")
prop_dict = re.compile(r"set_property\s+-dict\s*\{([^}]*)\}\s*\[get_ports\s*\{\s*([^}\s]+)\s*\}\]")


def bits_of(ref, where):
    """The (port, bit) pairs a get_ports name stands for, or [] after an error."""
    m = re.fullmatch(r"(\w+)(?:\[(\d+|\*)\])?", ref)
    if not m or m.group(1) not in ports:
        errors.append(f"{where}: '{ref}' is not a port of {top}")
        return []
    name, idx = m.group(1), m.group(2)
    width = ports[name]
    if idx is None:
        if width != 1:
            errors.append(f"{where}: '{ref}' names all {width} bits of a bus")
        return [(name, b) for b in range(width)]
    if idx == "*":
        return [(name, b) for b in range(width)]
    if int(idx) >= width:
        errors.append(f"{where}: '{ref}': {name} has {width} bits")
        return []
    return [(name, int(idx))]


pins = {}      # (port, bit) -> [(pin, where)]
sites = {}     # package pin -> where
for path in [pin_xdc] + other:
    for n, line in enumerate(open(path), 1):
        code = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
        where = f"{path}:{n}"
        for braced, bare in get_ports.findall(code):
            for ref in (braced or bare).split():
                bits_of(ref, where)
        if path != pin_xdc:
            continue
        m = prop_dict.search(code)
        if not m:
            if "PACKAGE_PIN" in code:
                errors.append(f"{where}: PACKAGE_PIN outside a set_property -dict line")
            continue
        kv = m.group(1).split()
        props = dict(zip(kv[0::2], kv[1::2]))
        if "PACKAGE_PIN" not in props:
            continue
        site = props["PACKAGE_PIN"]
        if "IOSTANDARD" not in props:
            errors.append(f"{where}: pin {site} has no IOSTANDARD")
        if site in sites:
            errors.append(f"{where}: pin {site} is already used at {sites[site]}")
        sites[site] = where
        for b in bits_of(m.group(2), where):
            pins.setdefault(b, []).append(where)

for name, width in ports.items():
    for b in range(width):
        label = name if width == 1 else f"{name}[{b}]"
        got = pins.get((name, b), [])
        if not got:
            errors.append(f"{pin_xdc}: {top} port {label} has no PACKAGE_PIN")
        elif len(got) > 1:
            errors.append(f"{pin_xdc}: {top} port {label} placed {len(got)} times ({', '.join(got)})")

errors = list(dict.fromkeys(errors))   # a line may report the same name twice
for e in errors:
    print(f"xdc_check: {e}")
if errors:
    sys.exit(1)
print(f"xdc_check: {top} against {pin_xdc}: {sum(ports.values())} port bits on {len(sites)} pins, "
      f"{len(other)} more file(s) name only its ports")
