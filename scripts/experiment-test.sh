#!/usr/bin/env bash
# make experiment-test: short real runs of 'warpgate experiment' and checks of
# their CSV files (docs/experiments.md section 7).
# cta on the gpu target (vecadd, small: 20 CTAs of 256 threads): checks that
# follow from the policies (docs/dispatch.md section 2): the grid fits the GPU
# at once, so consolidate and congestion both pack it into ceil(20 / 6) = 4 SMs
# (6 CTAs of 256 threads per SM), while rr spreads it over all 15.
# simd and bet on the sim target (vecadd, small): see below.
set -u
build=$1
top=$build/experiment-test
out=$top/cta
rm -rf "$top"
mkdir -p "$top"
fail() {
	echo "experiment-test: FAIL: $*"
	for f in "$top"/*/*.csv; do [ -f "$f" ] && { echo "$f:"; cat "$f"; }; done
	exit 1
}
"$build/warpgate" experiment cta --kernels vecadd --size small --out "$out" --no-plots >"$out.log" 2>&1 ||
	{ cat "$out.log"; fail "warpgate experiment cta exited non-zero"; }
csv=$out/cta.csv
[ "$(head -1 "$csv")" = "kernel,policy,status,cycles,slowdown,core_active_cycles,core_active_vs_rr,sms_used,num_sms,message" ] ||
	fail "unexpected CSV header"
[ "$(wc -l <"$csv")" -eq 4 ] || fail "expected a header and 3 rows"
field() { # policy column -> value
	awk -F, -v p="$1" -v c="$2" '$2 == p { print $c }' "$csv"
}
for p in rr consolidate congestion; do
	[ "$(field $p 3)" = ok ] || fail "$p: status $(field $p 3)"
	[ "$(field $p 9)" = 15 ] || fail "$p: num_sms $(field $p 9), expected 15"
done
[ "$(field rr 5)" = 1.000000 ] || fail "rr: slowdown $(field rr 5), expected 1 (it is the baseline)"
[ "$(field rr 8)" = 15 ] || fail "rr: $(field rr 8) SMs used, expected 15"
[ "$(field consolidate 8)" = 4 ] || fail "consolidate: $(field consolidate 8) SMs used, expected 4"
[ "$(field congestion 8)" = 4 ] || fail "congestion: $(field congestion 8) SMs used, expected 4 (a grid that fits is consolidated)"
# Fewer SMs hold the CTAs; each SM's active span covers its CTAs, so the sum of
# active core-cycles under consolidation is at most rr's when packing does not
# stretch the CTAs more than the SMs saved (measured, not by construction: printed).
echo "experiment-test: vecadd small: active core-cycles rr $(field rr 6), consolidate $(field consolidate 6)" \
	"($(field consolidate 7) of rr), slowdown $(field consolidate 5)"
echo "experiment-test: cta CSV checked (3 policies, SMs used 15 / 4 / 4)"

# simd on sim (the default target of simd and bet): vecadd under the five policies. The
# program checks its result in every run (a wrong result fails the run). With gating off
# no lane sleeps: no events, no sleep, online share and energy saving 0, slowdown 1; under
# every other policy lanes sleep (vecadd waits on memory for most of its cycles, section
# 3.5 of docs/power-gating.md); every run's lane-cycles are 32 lanes x its counting window,
# the launch's cycles and the few that close the window after it (docs/power-gating.md 4.3).
out=$top/simd
"$build/warpgate" experiment simd --kernels vecadd --size small --jobs 2 --out "$out" --no-plots >"$out.log" 2>&1 ||
	{ cat "$out.log"; fail "warpgate experiment simd exited non-zero"; }
csv=$out/simd.csv
[ "$(head -1 "$csv")" = "kernel,policy,status,cycles,slowdown,lane_cycles,lane_active,lane_sleep,gating_events,wakeup_stall_cycles,bet,online_saved,online_share,oracle_share,energy_saving_pct,oracle_energy_saving_pct,message" ] ||
	fail "unexpected simd CSV header"
[ "$(wc -l <"$csv")" -eq 6 ] || fail "expected a header and 5 simd rows"
for p in off normal issue comp mix; do
	[ "$(field $p 3)" = ok ] || fail "simd $p: status $(field $p 3)"
	[ "$(field $p 11)" = 100 ] || fail "simd $p: BET $(field $p 11), expected the default 100"
	lc=$(field $p 6) cy=$(field $p 4)
	[ $((lc % 32)) = 0 ] && [ "$lc" -ge $((32 * cy)) ] && [ "$lc" -le $((32 * (cy + 16))) ] ||
		fail "simd $p: lane_cycles $lc, expected 32 x (the $cy cycles of the launch + up to 16 to close the window)"
	[ "$p" = off ] && continue
	[ "$(field $p 9)" -gt 0 ] && [ "$(field $p 8)" -gt 0 ] ||
		fail "simd $p: no lane slept (events $(field $p 9), sleep $(field $p 8))"
done
[ "$(field off 5)" = 1.000000 ] || fail "simd off: slowdown $(field off 5), expected 1 (the baseline)"
[ "$(field off 8),$(field off 9),$(field off 13),$(field off 15)" = "0,0,0.000000,0.000" ] ||
	fail "simd off: sleep, events, online share, energy saving $(field off 8),$(field off 9),$(field off 13),$(field off 15), expected 0"
echo "experiment-test: simd CSV checked (5 policies; vecadd small, saved % oracle / online and slowdown:" \
	"$(awk -F, 'NR > 2 { printf "%s%s %.1f/%.1f %.3f", (NR > 3 ? "; " : ""), $2, 100 * $14, 100 * $13, $5 }' "$csv"))"

# bet: one run under normal; the oracle's net saving cannot grow with the BET (each interval
# gives max(0, L - B)), and the online figure falls by events / lane-cycles per cycle of BET.
out=$top/bet
"$build/warpgate" experiment bet --kernels vecadd --size small --out "$out" --no-plots >"$out.log" 2>&1 ||
	{ cat "$out.log"; fail "warpgate experiment bet exited non-zero"; }
csv=$out/bet.csv
[ "$(tail -n +2 "$csv" | cut -d, -f3 | tr '\n' ' ')" = "1 2 5 10 20 50 100 200 500 1000 1024 " ] ||
	fail "bet: the curve's BETs are $(tail -n +2 "$csv" | cut -d, -f3 | tr '\n' ' '), expected 1 2 5 ... 1000 1024"
tail -n +2 "$csv" | awk -F, '$2 != "ok" { exit 1 } NR > 1 && ($4 > o + 1e-12 || $5 >= on) { exit 1 } { o = $4; on = $5 }' ||
	fail "bet: a failed row, or a share that does not fall as the BET grows"
echo "experiment-test: bet CSV checked (11 BETs, oracle and online shares fall with the BET)"

# The BET from circuit parameters (docs/power-gating.md section 6.2): configs/pg-circuit.cfg
# gives ceil((2 + 13) pJ / (2.857 pJ x 0.95)) = 6 cycles, and one gating event costs 15 pJ.
json=$top/circuit.json
"$build/kernels/vecadd" --target sim --size small --pg normal --config configs/pg-circuit.cfg --json "$json" \
	>"$top/circuit.log" 2>&1 || { cat "$top/circuit.log"; fail "vecadd with configs/pg-circuit.cfg failed"; }
grep -q '"bet": 6,' "$json" && grep -q '"bet_mode": "circuit",' "$json" && grep -q '"gate_event": 15,' "$json" ||
	fail "configs/pg-circuit.cfg: expected bet 6, bet_mode circuit, gate_event 15 pJ in $json"
echo "experiment-test: circuit-mode BET checked (6 cycles, 15 pJ per event)"
