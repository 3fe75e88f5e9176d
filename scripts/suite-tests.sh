#!/usr/bin/env bash
# make suite-test: the CUDA suite's programs (docs/suite.md) at the small size on func
# and on sim (lockstep with the golden model is on by default there); every array a
# program downloads must be byte-identical on both targets (--dump).
# Usage: suite-tests.sh BUILD NAME...
set -u
build=$1; shift
if [ $# -eq 0 ]; then
	echo "suite-test: no programs enabled (SUITE_CI is empty; docs/suite.md, section Status)"
	exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
for n in "$@"; do
	prog=$build/cuda/$n
	ok=1
	for t in func sim; do
		start=$(date +%s%N)
		if ! "$prog" --target "$t" --size small --dump "$tmp/$n.$t.bin" --json "$tmp/$n.$t.json" \
			>"$tmp/$n.$t.out" 2>&1; then
			echo "suite-test: FAIL cuda/$n on $t"; tail -20 "$tmp/$n.$t.out"; ok=0; break
		fi
		ms=$((($(date +%s%N) - start) / 1000000))
		printf 'suite-test: cuda/%-8s %-4s %s (%d.%d s)\n' "$n" "$t" "$(tail -1 "$tmp/$n.$t.out")" \
			$((ms / 1000)) $((ms % 1000 / 100))
	done
	if [ $ok = 1 ] && ! cmp -s "$tmp/$n.func.bin" "$tmp/$n.sim.bin"; then
		echo "suite-test: FAIL cuda/$n: sim downloads differ from func ($(cmp "$tmp/$n.func.bin" "$tmp/$n.sim.bin" 2>&1))"
		ok=0
	fi
	if [ $ok = 1 ] && ! grep -q '"lockstep": *"on"' "$tmp/$n.sim.json"; then
		echo "suite-test: FAIL cuda/$n: sim ran without lockstep"; ok=0
	fi
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "suite tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
