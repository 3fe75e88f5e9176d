#!/usr/bin/env bash
# asm(disasm(x)) == x, byte for byte, for every kernel source given.
set -u
build=$1; shift
cli=$build/warpgate
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
for s in "$@"; do
	n=$(basename "$s" .s)
	if "$cli" asm "$s" -o "$tmp/$n.wgk" &&
	   "$cli" disasm "$tmp/$n.wgk" -o "$tmp/$n.dis.s" &&
	   "$cli" asm "$tmp/$n.dis.s" -o "$tmp/$n.re.wgk" &&
	   cmp "$tmp/$n.wgk" "$tmp/$n.re.wgk"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "roundtrip: $s differs after asm(disasm(asm(x)))"
	fi
done
echo "roundtrip: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
