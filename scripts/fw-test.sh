#!/bin/sh
# scripts/fw-test.sh TEST IHX: tests/fw/test_fw on the firmware image IHX (make firmware-test).
# The log is TEST.log. On a failure it prints the first error and the end of the log.
#
# One failure is run again: s51 not answering a batch within its bound (tests/fw/s51.c,
# 120 s, where a batch takes under a second). The firmware runs deterministically in s51
# (fixed seed, simulated time), so a firmware that hangs hangs again and fails the second
# run too; a simulator that stalled once on a loaded machine passes it. Both runs' first
# errors are printed, so a stall is never silent.
set -u
test_fw=$1
ihx=$2
log=$test_fw.log

run() {
	WG_FW_IHX=$ihx WG_FW_MAP=${ihx%.ihx}.map "$test_fw" >"$log" 2>&1
}

first_error() {
	# cmocka prints a test's failure message before its ERROR line: the first one, whole.
	awk '/^\[ RUN/ { n = 0; delete l } { l[n++] = $0 } /^\[  (ERROR|FAILED)/ { for (i = 0; i < n; i++) print l[i]; exit }' "$log" |
		head -40 | sed 's|^|  |'
}

report() {
	echo "firmware-test: test_fw failed; its first failure:"
	first_error
	echo "firmware-test: the end of $log:"
	tail -30 "$log" | sed 's|^|  |'
}

if ! run; then
	if ! grep -q 's51 did not answer' "$log"; then
		report
		exit 1
	fi
	echo "firmware-test: s51 did not answer a batch in time; test_fw runs once more. The first failure:"
	first_error
	cp "$log" "$log.1"
	if ! run; then
		report
		exit 1
	fi
	echo "firmware-test: the second run passed (the first run's log: $log.1)"
fi
grep -E '^\[  (PASSED|FAILED)  \]' "$log" | sed 's|^|test_fw: |'
