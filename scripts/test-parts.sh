#!/bin/sh
# test-parts.sh: run the parts of `make test` (each a make target, built beforehand by
# test-build) in two queues at once, one per core, and print each part's output and wall time
# when it ends. The first queue runs its parts one after another, the second likewise; a part
# is never split. The queues are written so that the parts of one never build or write what
# the other's do (every model and program is built by test-build before; each part writes
# under its own build directory).
#
#   scripts/test-parts.sh LOGDIR "PARTS OF QUEUE 1" "PARTS OF QUEUE 2"
#
# A part's output goes to LOGDIR/PART.log and is printed whole when the part ends. A failed
# part stops its own queue (the part's log is kept and its last lines printed); the other
# queue runs to its end, so every result it gives is still reported. Exit status 1 when any
# part failed, with the failed parts named.
set -u
logs=$1; q1=$2; q2=$3
MAKE=${MAKE:-make}
mkdir -p "$logs"
rm -f "$logs"/*.failed

# run_queue PARTS: the parts in order; stops at the first that fails.
run_queue() {
	for p in $1; do
		s=$(date +%s)
		if $MAKE --no-print-directory "$p" >"$logs/$p.log" 2>&1; then
			# one writer at a time on the terminal: the whole log and its verdict together
			{ flock 9; cat "$logs/$p.log"; echo "make test: $p passed in $(( $(date +%s) - s )) s"; } 9>"$logs/.print.lock"
		else
			{ flock 9; tail -60 "$logs/$p.log"; echo "make test: $p FAILED after $(( $(date +%s) - s )) s (whole output: $logs/$p.log)"; } 9>"$logs/.print.lock"
			: >"$logs/$p.failed"
			return 1
		fi
	done
}

run_queue "$q1" & pid1=$!
run_queue "$q2" & pid2=$!
wait $pid1; rc1=$?
wait $pid2; rc2=$?
if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then
	failed=$(cd "$logs" && ls *.failed 2>/dev/null | sed 's/\.failed$//' | tr '\n' ' ')
	echo "make test: failed: $failed"
	exit 1
fi
