#!/usr/bin/env bash
# Install the Debian packages warpgate needs that are missing; do nothing when all are present.
set -euo pipefail

PKGS=(
	build-essential pkg-config python3 clang
	verilator yosys nextpnr-ice40 fpga-icestorm openocd
	libusb-1.0-0-dev libcmocka-dev
	sdcc sdcc-ucsim
	umockdev libumockdev-dev
	gnuplot-nox
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "deps: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
