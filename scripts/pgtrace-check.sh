#!/usr/bin/env bash
# The lane-activity trace against the histogram (docs/power-gating.md section 7.4):
# vecadd, nested and reduce at --size small on the sim target with --pg normal and --pg mix,
# each with the trace over the whole run. Every run must report pg_trace.oracle_check
# "exact" (the paper's metric from the RTL histogram equals the same sum over the idle
# intervals rebuilt from the trace, for every BET in 1..1024), no lost record, and a VCD
# that passes a syntax check (IEEE 1364 section 18: declarations, $enddefinitions,
# increasing #times, 2-bit changes of declared ids). Prints records and VCD size per run.
#   scripts/pgtrace-check.sh BUILD_DIR [KERNEL ...]
set -eu
build=${1:?usage: pgtrace-check.sh BUILD_DIR [KERNEL ...]}
shift
kernels=${*:-vecadd nested reduce}
out=$build/pgtrace
mkdir -p "$out"
fail=0
for k in $kernels; do
	for pg in normal mix; do
		vcd=$out/$k-$pg.vcd
		json=$out/$k-$pg.json
		if ! "$build/kernels/$k" --target sim --size small --pg $pg --json "$json" \
			--option pg_trace="$vcd" >"$out/$k-$pg.log" 2>&1; then
			echo "pgtrace-check: $k --pg $pg failed:"; tail -20 "$out/$k-$pg.log"; fail=1; continue
		fi
		python3 - "$json" "$vcd" "$k --pg $pg" <<'PY' || fail=1
import json, re, sys
path, vcd, name = sys.argv[1:4]
def find(o):
    if isinstance(o, dict):
        if 'pg_trace' in o:
            return o['pg_trace']
        for v in o.values():
            r = find(v)
            if r is not None:
                return r
    elif isinstance(o, list):
        for v in o:
            r = find(v)
            if r is not None:
                return r
    return None
t = find(json.load(open(path)))
bad = []
if t is None:
    bad.append('no pg_trace object in the JSON')
else:
    if t.get('oracle_check') != 'exact':
        bad.append('oracle_check: %s' % t.get('oracle_check'))
    if t.get('lost', 1) != 0:
        bad.append('%s records lost' % t.get('lost'))
    if t.get('records', 0) == 0 or t.get('intervals', 0) == 0:
        bad.append('an empty trace')
# The VCD's syntax.
ids, depth, defs, last, changes = {}, 0, True, -1, 0
toks = open(vcd).read().split()
i = 0
while i < len(toks) and not bad:
    tk = toks[i]
    if defs:
        if tk == '$var':
            if toks[i + 1] != 'wire' or toks[i + 2] != '2' or toks[i + 5] != '$end':
                bad.append('bad $var at token %d' % i)
            ids[toks[i + 3]] = toks[i + 4]
            i += 6
        elif tk == '$scope':
            depth += 1
            i += 4
        elif tk == '$upscope':
            depth -= 1
            i += 2
        elif tk == '$enddefinitions':
            defs = False
            if depth:
                bad.append('unbalanced scopes')
            i += 2
        elif tk in ('$comment', '$timescale', '$date', '$version'):
            i = toks.index('$end', i) + 1
        else:
            bad.append('unexpected %r in the header' % tk)
        continue
    if tk.startswith('#'):
        t_now = int(tk[1:])
        if t_now <= last:
            bad.append('time %d after %d' % (t_now, last))
        last = t_now
        i += 1
    elif tk in ('$dumpvars', '$end'):
        i += 1
    elif re.fullmatch(r'b[01xz]{2}', tk):
        if toks[i + 1] not in ids:
            bad.append('undeclared id %r' % toks[i + 1])
        changes += 1
        i += 2
    else:
        bad.append('unexpected %r' % tk)
if not bad and len(ids) != 33:
    bad.append('%d signals, expected 33 (32 lanes and the issue state)' % len(ids))
if bad:
    print('pgtrace-check: %s: FAILED: %s' % (name, '; '.join(bad)))
    sys.exit(1)
print('pgtrace-check: %-15s exact for BET 1..1024; %d records, %d intervals, %d windows, VCD %d bytes, %d changes' %
      (name, t['records'], t['intervals'], t['windows'], t['vcd_bytes'], changes))
PY
	done
done
[ $fail -eq 0 ] && echo "pgtrace-check: passed"
exit $fail
