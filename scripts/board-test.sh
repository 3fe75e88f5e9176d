#!/usr/bin/env bash
# make board-test (docs/board.md): the board target gives what the gpu target gives.
#  1. every kernel program at --size small on --target gpu and on --target board (the
#     board process started by the target, with its default link: the RTL link engine in
#     the Verilated board core): the JSON statistics must be identical, except the figures
#     that measure the host or the link (seconds, rates, link cycles, the link's own
#     counters); the gpu statistics are kept in BUILD/board/gpu-json/ for usb-test;
#  2. one program again over a slow link with small frames (link_delay_us, batch,
#     max_payload) whose bytes stall at random on the board (link_idle: the engine's byte
#     input and output idle in a share of link cycles): the same figures, and more frames
#     than in run 1;
#  3. one program on the C link (board_link=c): the same figures;
#  4. one program against a board started by hand on a socket path (--socket), which exits
#     cleanly when the program closes the connection;
#  5. one program against a hand-started board that damages bytes on the wire both ways
#     (--corrupt-rx, --corrupt-tx): the engine's and the host's CRC checks catch them, NAKs
#     and retransmission repair them, and the figures are the same;
#  6. the board program's command line: --help, bad arguments, a bad socket path.
set -u
build=${1:-build}
board=$build/warpgate-board
slow_kernel=${BOARD_TEST_SLOW:-reduce}
hand_kernel=${BOARD_TEST_HAND:-vecadd}
c_kernel=${BOARD_TEST_C:-saxpy}
bad_kernel=${BOARD_TEST_CORRUPT:-matmul}
pass=0; fail=0
tmp=$(mktemp -d)
hand_pid=
cleanup() { [ -n "$hand_pid" ] && kill "$hand_pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "board-test: FAIL $*"; }

# run NAME LOG PROGRAM ARGS...: the program must pass
run() {
	local name=$1 log=$2; shift 2
	if "$@" >"$log" 2>&1; then ok; else bad "$name: $*"; tail -20 "$log"; return 1; fi
}

# same NAME A.json B.json: identical statistics but for what measures the host or the link
same() {
	if "$(dirname "$0")/stats-same.py" "$2" "$3" gpu board >"$tmp/cmp" 2>&1; then ok; else bad "$1: statistics differ"; cat "$tmp/cmp"; fi
}

# link FILE KEY: a counter of the board target's link statistics
link() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["target_counters"]["link"][sys.argv[2]])' "$1" "$2"
}

[ -x "$board" ] || { echo "board-test: $board is missing (make board)"; exit 1; }

now() { date +%s.%N; }

# timed NAME TAG PROGRAM ARGS...: run it, log in $tmp/NAME.TAG.log, "status seconds" in $tmp/NAME.TAG.rc
timed() {
	local n=$1 tag=$2 t0 rc; shift 2
	t0=$(now)
	"$@" >"$tmp/$n.$tag.log" 2>&1
	rc=$?
	echo "$rc $(awk "BEGIN{print $(now) - $t0}")" >"$tmp/$n.$tag.rc"
}

# passed NAME TAG: the timed run passed
passed() {
	local rc
	read -r rc _ <"$tmp/$1.$2.rc"
	if [ "$rc" = 0 ]; then ok; else bad "$1 on $2 (status $rc)"; tail -20 "$tmp/$1.$2.log"; return 1; fi
}

# 1. every kernel program on both targets, the two runs side by side (2 cores); the
#    wall-clock seconds are printed, not checked
for k in "$build"/kernels/*; do
	[ -x "$k" ] || continue
	n=$(basename "$k")
	timed "$n" gpu "$k" --target gpu --size small --json "$tmp/$n.gpu.json" &
	timed "$n" board "$k" --target board --size small --json "$tmp/$n.board.json"
	wait $!
	passed "$n" gpu && passed "$n" board || continue
	same "$n" "$tmp/$n.gpu.json" "$tmp/$n.board.json"
	# kept for usb-test, which compares its usb runs with these (the same command)
	mkdir -p "$build/board/gpu-json" && cp "$tmp/$n.gpu.json" "$build/board/gpu-json/$n.json"
	printf 'board-test: %-10s %8s cycles  gpu %6.2f s  board %6.2f s  %5s frames out, %5s in\n' "$n" \
		"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["cycles"])' "$tmp/$n.gpu.json")" \
		"$(cut -d' ' -f2 "$tmp/$n.gpu.rc")" "$(cut -d' ' -f2 "$tmp/$n.board.rc")" \
		"$(link "$tmp/$n.board.json" tx_frames)" "$(link "$tmp/$n.board.json" rx_frames)"
done

# 2. a slow link with small frames: the same figures, more frames
k=$build/kernels/$slow_kernel
if [ -f "$tmp/$slow_kernel.gpu.json" ] && run "$slow_kernel on a slow board link" "$tmp/slow.log" "$k" \
	--target board --size small --option link_delay_us=200 --option batch=3 --option max_payload=1024 \
	--option link_idle=300,300 \
	--json "$tmp/slow.json"; then
	same "$slow_kernel over a slow link" "$tmp/$slow_kernel.gpu.json" "$tmp/slow.json"
	f1=$(link "$tmp/$slow_kernel.board.json" tx_frames) f2=$(link "$tmp/slow.json" tx_frames)
	if [ "$f2" -gt "$f1" ]; then ok; else bad "batch=3 sent $f2 command frames, not more than the $f1 of the default"; fi
	r=$(link "$tmp/slow.json" tx_retransmitted)
	[ "$r" = 0 ] && ok || echo "board-test: note: $r frames retransmitted on the slow link"
fi

# 3. the C link
k=$build/kernels/$c_kernel
if [ -f "$tmp/$c_kernel.gpu.json" ] && run "$c_kernel on the C link" "$tmp/clink.log" "$k" --target board \
	--size small --option board_link=c --json "$tmp/clink.json"; then
	same "$c_kernel on the C link" "$tmp/$c_kernel.gpu.json" "$tmp/clink.json"
fi

# hand_board NAME KERNEL BOARD-OPTIONS... -- KERNEL-OPTIONS...: a board started by hand on a socket
# path, the program run against it; the same figures as on the gpu target, the board exits with
# status 0 and leaves no socket file behind. The board's output in $tmp/NAME.board.log.
hand_board() {
	local name=$1 kern=$2 sock=$tmp/$1.sock bopts=() kopts=(); shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do bopts+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	kopts=("$@")
	"$board" --socket "$sock" "${bopts[@]}" >"$tmp/$name.board.log" 2>&1 &
	hand_pid=$!
	for _ in $(seq 300); do [ -S "$sock" ] && break; sleep 0.1; done
	if [ -S "$sock" ] && [ -f "$tmp/$kern.gpu.json" ] && run "$kern on a board at $sock ($name)" \
		"$tmp/$name.run.log" "$build/kernels/$kern" --target board --size small --option socket="$sock" \
		"${kopts[@]}" --json "$tmp/$name.json"; then
		same "$kern on a hand-started board ($name)" "$tmp/$kern.gpu.json" "$tmp/$name.json"
		if wait "$hand_pid"; then ok; else bad "the hand-started board ($name) exited with status $?"
			cat "$tmp/$name.board.log"; fi
		[ ! -e "$sock" ] && ok || bad "the board left its socket file $sock behind"
	else
		bad "no board listening on $sock ($name)"; cat "$tmp/$name.board.log"
		kill "$hand_pid" 2>/dev/null
	fi
	hand_pid=
}

# 4. a board started by hand on a socket path
hand_board hand "$hand_kernel"

# 5. bytes damaged on the wire, both ways, through the RTL engine: a byte of a command frame
#    (the engine's CRC check, its LERR to the host, the host's retransmission) and of an event
#    frame (the host's CRC check and NAK, the engine's go-back-N), early and late in the run
hand_board corrupt "$bad_kernel" --corrupt-rx 700,60000 --corrupt-tx 300,20000 --rto-ms 100 -v -- \
	--option rto_ms=100
if [ -f "$tmp/corrupt.json" ]; then
	# each damaged byte is one error or more (CRC, or HCHK / SYNC where it hit a header)
	for key in errors board_errors; do
		v=$(link "$tmp/corrupt.json" $key)
		[ "$v" -ge 2 ] && ok || bad "corrupted bytes: the link statistics show $key = $v, not 2 or more"
	done
	v=$(link "$tmp/corrupt.json" tx_retransmitted)
	[ "$v" -ge 1 ] && ok || bad "corrupted bytes: no command frame retransmitted"
	grep -q "link engine: .*reports: .*[a-z] [1-9]" "$tmp/corrupt.board.log" && ok ||
		{ bad "corrupted bytes: the board's -v line counts no errors"; cat "$tmp/corrupt.board.log"; }
fi

# 6. the command line
"$board" --help >"$tmp/help" 2>&1 && grep -q -- "--socket PATH" "$tmp/help" && ok || bad "warpgate-board --help"
"$board" >"$tmp/e1" 2>&1; [ $? = 2 ] && grep -q "exactly one of --socket PATH and --fd N" "$tmp/e1" && ok ||
	bad "warpgate-board without --socket or --fd: $(cat "$tmp/e1")"
"$board" --fd 0 --window 0 >"$tmp/e2" 2>&1; [ $? = 2 ] && grep -q "window: bad value '0'" "$tmp/e2" && ok ||
	bad "warpgate-board --window 0: $(cat "$tmp/e2")"
"$board" --fd 0 --link verilog >"$tmp/e4" 2>&1; [ $? = 2 ] && grep -q "link: bad value 'verilog' (rtl or c)" "$tmp/e4" &&
	ok || bad "warpgate-board --link verilog: $(cat "$tmp/e4")"
"$board" --fd 0 --link c --corrupt-rx 5 >"$tmp/e5" 2>&1; [ $? = 2 ] && grep -q "need --link rtl" "$tmp/e5" &&
	ok || bad "warpgate-board --link c --corrupt-rx 5: $(cat "$tmp/e5")"
"$board" --socket /nonexistent-dir/b.sock >"$tmp/e3" 2>&1; [ $? = 1 ] &&
	grep -q "cannot listen on /nonexistent-dir/b.sock" "$tmp/e3" && ok || bad "bad socket path: $(cat "$tmp/e3")"

echo "board-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
