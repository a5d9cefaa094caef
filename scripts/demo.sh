#!/bin/sh
# demo.sh - install what gpucal needs, build it, and run the main job on the
# shipped data. The README's first set-up command.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "== gpucal compare ampere-a100 ada-rtx4090 hopper-h800" >&2
./build/gpucal compare ampere-a100 ada-rtx4090 hopper-h800
