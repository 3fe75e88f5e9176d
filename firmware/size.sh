#!/usr/bin/env bash
# Print the firmware's size against the FX2's 16 KB of code/data RAM and check that
# every byte of the image lies in its region of the memory map (firmware/Makefile).
#   size.sh BUILD/NAME CODE_LOC CODE_SIZE DSCR_LOC DSCR_SIZE XRAM_SIZE
set -euo pipefail
base=$1
code_loc=$(($2)); code_size=$(($3)); dscr_loc=$(($4)); dscr_size=$(($5)); xram_size=$(($6))

# Intel HEX data records: :LLAAAATT<data>CC; count bytes per region.
read -r vec code dscr other < <(awk -v cl="$code_loc" -v ce="$((code_loc + code_size))" \
	-v dl="$dscr_loc" -v de="$((dscr_loc + dscr_size))" '
	function hex(s,   i, r) {
		r = 0
		for (i = 1; i <= length(s); i++)
			r = r * 16 + index("0123456789ABCDEF", toupper(substr(s, i, 1))) - 1
		return r
	}
	/^:/ && substr($0, 8, 2) == "00" {
		n = hex(substr($0, 2, 2)); a = hex(substr($0, 4, 4))
		for (i = 0; i < n; i++) {
			x = a + i
			if (x < cl) v++
			else if (x < ce) c++
			else if (x >= dl && x < de) d++
			else o++
		}
	}
	END { printf "%d %d %d %d\n", v + 0, c + 0, d + 0, o + 0 }' "$base.ihx")

xram=$(awk '/^   EXTERNAL RAM/ { print $3 }' "$base.mem")
stack=$(sed -n 's/^Stack starts at: \(0x[0-9a-f]*\).* with \([0-9]*\) bytes available.*/\1 (\2 bytes)/p' "$base.mem")
total=$((vec + code + dscr))
printf '%s: %d of 16384 bytes of FX2 RAM (vectors %d, code+constants %d of %d, descriptors %d of %d); xdata %d of %d at 0xE000; stack from %s\n' \
	"$(basename "$base")" "$total" "$vec" "$code" "$code_size" "$dscr" "$dscr_size" "${xram:-0}" "$xram_size" "$stack"
if [ "$other" -ne 0 ]; then
	echo "$(basename "$base"): $other bytes outside the memory map's regions" >&2
	exit 1
fi
