#!/usr/bin/env bash
# Run every kernel program at the small size on each target and check its result,
# then exercise the CLI's run command and its error paths.
set -u
build=$1
# (every kernel on the gpu and board targets: scripts/board-test.sh, make board-test)
targets=${WG_TEST_TARGETS:-func sim}
pass=0; fail=0
check() { # name, command...
	local name=$1; shift
	if "$@" >"$tmp/out" 2>&1; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "kernel-test: FAIL $name: $*"; tail -20 "$tmp/out"; fi
}
check_fails() { # name, expected-substring, command...
	local name=$1 want=$2; shift 2
	if "$@" >"$tmp/out" 2>&1; then
		fail=$((fail + 1)); echo "kernel-test: FAIL $name: succeeded, expected a failure"
	elif grep -q -- "$want" "$tmp/out"; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "kernel-test: FAIL $name: message lacks '$want':"; cat "$tmp/out"; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for t in $targets; do
	for k in "$build"/kernels/*; do
		[ -x "$k" ] || continue
		check "$(basename "$k") on $t" "$k" --target "$t" --size small --json "$tmp/$(basename "$k").json"
	done
done

cli=$build/warpgate
# CLI run: vector add through the generic runner, output checked byte for byte.
if [ -f kernels/vecadd.s ]; then
	check "cli run vecadd" "$cli" run kernels/vecadd.s --kernel vecadd --grid 4 --block 64 \
		--arg iota:1024 --arg iota:1024 --arg zeros:1024 --arg 256 --dump c:"$tmp/c.bin" --json "$tmp/run.json"
	python3 - "$tmp/c.bin" >"$tmp/py" 2>&1 <<'PY' && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "kernel-test: FAIL cli vecadd output"; cat "$tmp/py"; }
import struct, sys
d = open(sys.argv[1], 'rb').read()
v = struct.unpack('<256I', d)
assert all(v[i] == 2 * i for i in range(256)), "c[i] != 2i"
PY
	check "cli json has totals" grep -q '"inst_executed"' "$tmp/run.json"
	# The same kernel on the RTL, in lockstep, with an FST waveform.
	check "cli run vecadd on sim" "$cli" run kernels/vecadd.s --kernel vecadd --grid 2 --block 64 --target sim \
		--arg iota:512 --arg iota:512 --arg zeros:512 --arg 128 --dump c:"$tmp/c_sim.bin" --trace-fst "$tmp/v.fst"
	check "sim output equals func output" cmp <(head -c 512 "$tmp/c.bin") "$tmp/c_sim.bin"
	check "FST waveform written" test -s "$tmp/v.fst"
fi
# The whole GPU (15 SMs, host memory models): the same output, each CTA policy, link-independence.
check "cli run vecadd on gpu" "$cli" run kernels/vecadd.s --kernel vecadd --grid 4 --block 64 --target gpu \
	--arg iota:1024 --arg iota:1024 --arg zeros:1024 --arg 256 --dump c:"$tmp/c_gpu.bin" --json "$tmp/gpu.json"
check "gpu output equals func output" cmp "$tmp/c.bin" "$tmp/c_gpu.bin"
check "gpu json has the memory system" grep -q '"l2_hit_rate"' "$tmp/gpu.json"
for pol in rr consolidate congestion; do
	check "cli run vecadd on gpu --cta-policy $pol" "$cli" run kernels/vecadd.s --kernel vecadd --grid 40 \
		--block 64 --target gpu --cta-policy "$pol" --arg iota:10240 --arg iota:10240 --arg zeros:10240 \
		--arg 2560 --dump c:"$tmp/c_$pol.bin" --json "$tmp/$pol.json"
done
check "consolidate output equals rr output" cmp "$tmp/c_rr.bin" "$tmp/c_consolidate.bin"
check "congestion output equals rr output" cmp "$tmp/c_rr.bin" "$tmp/c_congestion.bin"
check "gpu: short grants and an idle link give the same cycles" "$cli" run kernels/vecadd.s --kernel vecadd \
	--grid 40 --block 64 --target gpu --option grant_window=5 --option link_idle=400,300 --arg iota:10240 \
	--arg iota:10240 --arg zeros:10240 --arg 2560 --json "$tmp/rr_slow.json"
check "gpu cycles independent of the link" python3 - "$tmp/rr.json" "$tmp/rr_slow.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for k in ("cycles", "inst_executed"):
    assert a["totals"][k] == b["totals"][k], "%s: %s vs %s" % (k, a["totals"][k], b["totals"][k])
assert a["totals"]["memory"] == b["totals"]["memory"], "memory counters differ"
for k in ("l2_hits", "l2_misses", "dram_reads", "dram_row_hits", "icnt_stall_cycles", "sm_active_cycles"):
    assert a["target_counters"][k] == b["target_counters"][k], "%s differs" % k
PY
check_fails "cli bad cta policy" "rr, consolidate or congestion" "$cli" run kernels/vecadd.s --grid 1 --block 1 \
	--target gpu --cta-policy fastest
check_fails "cli unknown target" "unknown target" "$cli" run kernels/vecadd.s --grid 1 --block 1 --target nosuch
check_fails "cli missing file" "kernels/nosuch.s" "$cli" run kernels/nosuch.s --grid 1 --block 1
printf '.kernel k\n.regs 2\n  IADD R1, R0, \n  EXIT\n' >"$tmp/bad.s"
check_fails "cli asm error position" "bad.s:3:" "$cli" asm "$tmp/bad.s" -o "$tmp/bad.wgk"
printf '.kernel k\n.regs 2\n  MOV R0, 0x100\n  LDG.32 R1, [R0]\n  EXIT\n' >"$tmp/fault.s"
check_fails "cli fault names lane" "lane 0" "$cli" run "$tmp/fault.s" --grid 1 --block 32
for sub in asm disasm run config; do
	check "cli $sub --help" "$cli" "$sub" --help
done
echo "kernel tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
