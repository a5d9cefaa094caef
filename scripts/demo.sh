#!/bin/sh
# demo.sh - install what gpucal needs, build it, and run the main job on the
# shipped data (the README's first set-up command):
#   1. fit the H100's architecture file from the traces gpucal measured on a
#      real H100 (traces/h100/) and check it is the shipped arch/hopper-h100.yaml;
#   2. predict a GEMM on that H100 before writing it;
#   3. compare A100, RTX 4090 and H100 side by side.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
# build only what the demo runs: the CUDA benches only where there is a GPU to
# run them (the test command still compiles them, so they cannot rot), and only the
# gpucal binary (no tests, benches or fuzz replays)
cuda=OFF
nvidia-smi -L >/dev/null 2>&1 && cuda=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGPUCAL_CUDA=$cuda >/dev/null
cmake --build build -j"$(nproc)" --target gpucal >/dev/null
G=./build/gpucal

echo "== 1. gpucal calib traces/h100: the H100's arch file from its measured traces" >&2
$G calib traces/h100 -o build/hopper-h100.yaml --name hopper-h100 --force --quiet 2>build/calib.log
echo "   $(grep -c 'warning:' build/calib.log) values left out where the data cannot support them (reasons: build/calib.log)" >&2
# the files differ only in the recorded command (its -o path)
if [ "$(grep -v '^  command:' build/hopper-h100.yaml | md5sum)" = \
     "$(grep -v '^  command:' arch/hopper-h100.yaml | md5sum)" ]; then
    echo "   build/hopper-h100.yaml = arch/hopper-h100.yaml (the shipped file is reproduced exactly)" >&2
else
    echo "   build/hopper-h100.yaml differs from arch/hopper-h100.yaml" >&2
    exit 1
fi

echo "== 2. gpucal predict gemm: an 8192^3 f16 GEMM on that H100" >&2
$G predict gemm --m 8192 --n 8192 --k 8192 --dtype f16 --arch build/hopper-h100.yaml

echo "== 3. gpucal compare: A100, RTX 4090 and H100" >&2
$G compare ampere-a100 ada-rtx4090 hopper-h100 \
    --match sm.count --match sm.clock --match sm.launch \
    --match 'tensor[mma m16n8k16 f16.f32].latency' --match 'tensor[mma m16n8k16 f16.f32].peak_fma' \
    --match 'tensor[wgmma m64n256k16 f16.f32 ss].peak_fma' \
    --match l1.latency --match shared.latency --match l2.size --match _hit_cyc --match _miss_cyc \
    --match l2.bw_v4 --match dram.bw_gbs --match dram.latency
