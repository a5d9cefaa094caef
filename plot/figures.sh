#!/bin/sh
# figures.sh - the charts shown in README.md, drawn from the shipped files:
#   sh plot/figures.sh [GPUCAL] [OUTDIR]   (default build/gpucal, plot/figures)
# roofline of the H100 with validation kernels, stall stacks of seed 002's
# fastest GEMM on four GPUs, predicted vs measured on the H100, and the mma
# forms of A100, RTX 4090, H100 and H800. Writes SVG (add --png by hand for
# PNGs: -o X.png).
set -eu
cd "$(dirname "$0")/.."
G=${1:-build/gpucal}
D=${2:-plot/figures}
K=model/kernels
mkdir -p "$D"
$G plot roofline --arch hopper-h100 $K/h100_stream_triad.yaml $K/softmax_params.yaml \
    $K/h100_s003_tiled_n4096.yaml $K/h100_s003_wmma_n4096.yaml $K/h100_pipe_gemm.yaml \
    $K/h100_mma_pipe.yaml -o "$D/roofline-h100.svg" --force
$G plot stall --arch ampere-a100,ada-rtx4090,hopper-h100,hopper-h800 $K/mma_matmul_3_1.yaml \
    -o "$D/stall-mma_matmul_3_1.svg" --force
$G plot validation -o "$D/validation.svg" --force
$G plot mma --arch ampere-a100 --arch ada-rtx4090 --arch hopper-h100 --arch hopper-h800 \
    -o "$D/forms-mma.svg" --force
