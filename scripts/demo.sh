#!/bin/sh
# demo.sh - install what gpucal needs, build it, and run the main job on the
# shipped data (the README's first set-up command):
#   1. fit the H100's and the H200's architecture files from the traces gpucal
#      measured on a real H100 and H200 (traces/h100/, traces/h200/) and check
#      each is the shipped arch/hopper-h100.yaml / arch/hopper-h200.yaml;
#   2. predict on both, before writing them: a GEMM, an attention and a
#      convolution, as cuBLAS, FlashAttention and cuDNN run them;
#   3. compare A100, RTX 4090, H100 and H200 side by side;
#   4. draw the H100's roofline with those kernels on it (build/roofline.svg).
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

# calibrate NAME GPU: fit build/NAME.yaml from traces/GPU and check it equals
# the shipped arch/NAME.yaml (the files differ only in the recorded -o path)
calibrate() {
    $G calib "traces/$2" -o "build/$1.yaml" --name "$1" --force --quiet 2>"build/calib-$2.log"
    echo "   $2: $(grep -c 'warning:' "build/calib-$2.log") values left out where the data cannot support them (reasons: build/calib-$2.log)" >&2
    if [ "$(grep -v '^  command:' "build/$1.yaml" | md5sum)" = \
         "$(grep -v '^  command:' "arch/$1.yaml" | md5sum)" ]; then
        echo "   build/$1.yaml = arch/$1.yaml (the shipped file is reproduced exactly)" >&2
    else
        echo "   build/$1.yaml differs from arch/$1.yaml" >&2
        exit 1
    fi
}

echo "== 1. gpucal calib: the H100's and H200's arch files from their measured traces" >&2
calibrate hopper-h100 h100
calibrate hopper-h200 h200

for gpu in h100 h200; do
    A=build/hopper-$gpu.yaml
    echo "== 2. gpucal predict on the $(echo $gpu | tr a-z A-Z): GEMM, attention, convolution" >&2
    $G predict gemm --m 8192 --n 8192 --k 8192 --dtype f16 --arch "$A"
    $G predict attention --batch 4 --heads 16 --seq 4096 --head-dim 128 --causal --dtype f16 --arch "$A"
    $G predict conv2d --n 32 --c 128 --h 56 --w 56 --k 128 --r 3 --s 3 --stride 1 --pad 1 --dtype f16 --arch "$A"
done

echo "== 3. gpucal compare: A100, RTX 4090, H100 and H200" >&2
$G compare ampere-a100 ada-rtx4090 hopper-h100 hopper-h200 \
    --match sm.count --match sm.clock --match sm.launch \
    --match 'tensor[mma m16n8k16 f16.f32].latency' --match 'tensor[mma m16n8k16 f16.f32].peak_fma' \
    --match 'tensor[wgmma m64n256k16 f16.f32 ss].peak_fma' \
    --match l1.latency --match shared.latency --match l2.size --match _hit_cyc --match _miss_cyc \
    --match l2.bw_v4 --match dram.bw_gbs --match dram.latency

echo "== 4. gpucal plot roofline: the H100's measured ceilings, kernels on it" >&2
K=model/kernels
$G plot roofline --arch build/hopper-h100.yaml "$K/h100_stream_triad.yaml" "$K/h100_mma_pipe.yaml" \
    "$K/softmax_params.yaml" -o build/roofline.svg --force
