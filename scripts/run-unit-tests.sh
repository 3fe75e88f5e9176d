#!/usr/bin/env bash
# Run every cmocka unit test binary given; print a summary; fail if any failed.
set -u
pass=0; fail=0; failed=()
for t in "$@"; do
	if "$t" >"$t.log" 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); failed+=("$t")
		echo "---- $t failed:"; tail -40 "$t.log"
	fi
	grep -E '^\[  (PASSED|FAILED)  \]' "$t.log" | sed "s|^|$(basename "$t"): |"
done
echo "unit tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
