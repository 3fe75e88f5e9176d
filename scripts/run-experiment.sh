#!/usr/bin/env bash
# make run: the short default power-gating experiment (docs/experiments.md
# section 5). Runs 'warpgate experiment' for each experiment named, on the
# kernels named, and lets it print its table and the names of the CSV and
# plots. Without TARGET each experiment runs on its default target (sim for
# simd and bet, whose figures need the lanes' power counters; gpu for cta).
#   run-experiment.sh BUILD OUT "EXPERIMENTS" KERNELS SIZE JOBS [TARGET]
set -u
build=$1; out=$2; experiments=$3; kernels=$4; size=$5; jobs=$6; target=${7:-}
status=0
for x in $experiments; do
	if [ "$x" != cta ] && ! "$build/kernels/vecadd" --help 2>&1 | grep -q -- '--pg'; then
		# The lane-level experiments select the policies with --pg (docs/power-gating.md section 5).
		echo "run: skipping 'experiment $x': the kernel programs of this build have no --pg option"
		continue
	fi
	echo
	"$build/warpgate" experiment "$x" --kernels "$kernels" --size "$size" ${target:+--target "$target"} \
		--jobs "$jobs" --out "$out/$x" || status=1
done
exit $status
