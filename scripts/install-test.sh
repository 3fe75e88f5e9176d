#!/usr/bin/env bash
# make install into a scratch prefix, then build and run a program against it through pkg-config.
set -eu
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
make -s --no-print-directory install PREFIX="$tmp/prefix" >/dev/null
cat >"$tmp/prog.c" <<'C'
#include <warpgate.h>
#include <stdio.h>
int main(void)
{
	struct wg_device *dev;
	uint64_t d;
	uint32_t in = 0x12345678, out = 0;
	if (wg_open(&dev, "func", NULL) || wg_malloc(dev, &d, 4) || wg_memcpy_htod(dev, d, &in, 4) ||
	    wg_memcpy_dtoh(dev, &out, d, 4) || out != in)
		return 1;
	wg_close(dev);
	puts("installed library works");
	return 0;
}
C
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cc "$tmp/prog.c" -o "$tmp/prog" $(pkg-config --cflags --libs warpgate)
"$tmp/prog"
"$tmp/prefix/bin/warpgate" version >/dev/null
echo "install test: 1 passed, 0 failed"
