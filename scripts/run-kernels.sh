#!/usr/bin/env bash
# make run: every kernel program at its default size on the chosen target, with statistics.
set -u
build=$1; target=$2
status=0
mkdir -p "$build/run"
for k in "$build"/kernels/*; do
	[ -x "$k" ] || continue
	n=$(basename "$k")
	"$k" --target "$target" --json "$build/run/$n.json" || status=1
done
echo "statistics (JSON) in $build/run/"
exit $status
