#!/bin/sh
# deps.sh - install the Debian 12 packages gpucal needs (as root), skipping
# apt entirely when they are all present. Used by demo.sh and test.sh.
#   build:  build-essential cmake pkg-config libgsl-dev libyaml-dev
#   plots:  gnuplot-nox
#   tests:  clang and its runtime libclang-rt-14-dev (libFuzzer, sanitizers; only a
#           "Recommends" of clang on Debian 12, so named here), valgrind (leak check),
#           python3 (the Python module's test, tests/install.sh), and what building the
#           Accel-Sim simulator for scripts/sim-check.sh needs (shared/reference/accel-sim/src/
#           build.sh): bison flex (GPGPU-Sim's PTX and config parsers), zlib1g-dev, xutils-dev
#           (makedepend), libgl-dev (its libcudart includes GL/gl.h, links -lGL), bc
set -eu
pkgs="build-essential cmake pkg-config libgsl-dev libyaml-dev gnuplot-nox"
[ "${1:-}" = "--test" ] &&
    pkgs="$pkgs clang libclang-rt-14-dev valgrind python3 bison flex zlib1g-dev xutils-dev libgl-dev bc"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "gpucal: missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
    exit 1
fi
echo "gpucal: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
