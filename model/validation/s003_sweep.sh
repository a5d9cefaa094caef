#!/bin/sh
# s003_sweep.sh - seed 003's comparison, predicted: the CUDA-core tiled GEMM
# against the WMMA GEMM for N = 32 .. 8192 (doubling), on any arch.
#
#   sh model/validation/s003_sweep.sh [--arch NAME] [--gpucal BIN] [--keep DIR]
#
# Writes the two descriptions for each N (the same text as the committed
# model/kernels/h100_s003_{tiled,wmma}_nN.yaml, which are the sizes timed on
# the H100) into a temporary folder (or DIR with --keep), predicts both and
# prints N, the two times and the speed-up of the tensor-core version, as
# seeds/003_735f20a7467b02d8.txt (Fig. 2) compares them. Sizes below a whole
# 64x64 WMMA block run one partial block, as a bounds-checked kernel would.
set -u
here=$(dirname "$0")
root=$(cd "$here/../.." && pwd)
arch=hopper-h800
gpucal=
keep=
while [ $# -gt 0 ]; do
    case $1 in
    --arch) arch=$2; shift 2 ;;
    --gpucal) gpucal=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "s003_sweep.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
if [ -z "$gpucal" ]; then
    for b in "$root"/build*/gpucal; do [ -x "$b" ] && gpucal=$b && break; done
fi
[ -n "$gpucal" ] && [ -x "$gpucal" ] || { echo "s003_sweep.sh: no gpucal binary (give --gpucal BIN)" >&2; exit 2; }
dir=${keep:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT

# gen N: write tiled_nN.yaml and wmma_nN.yaml
gen() {
    n=$1 nn=$(($1 * $1))
    t32=$(((n + 31) / 32)) t64=$(((n + 63) / 64)) k32=$(((n + 31) / 32)) k16=$(((n + 15) / 16))
    cat >"$dir/tiled_n$n.yaml" <<EOF
schema: gpucal-kernel/1
name: s003_tiled_n$n
source: "seeds/003_735f20a7467b02d8.txt, MMA with shared memory (fp32, 32x32 blocks)"
launch: {grid: [$t32, $t32], block: [32, 32], registers: 32, shared_bytes: 8192}
prologue: {ops: [{op: ldg, width: 4, count: 1}]}
loop:
  trips: $k32
  ops:
    - {op: ldg, width: 4, count: 2}
    - {op: sts, width: 4, count: 2}
    - {op: bar, count: 2}
    - {op: lds, width: 16, count: 8, broadcast: true}
    - {op: lds, width: 4, count: 32}
    - {op: alu, name: ffma, count: 32, chains: 1}
    - {op: alu, name: iadd3, count: 11}
epilogue: {ops: [{op: stg, width: 4, count: 1}]}
footprint: {read_bytes: $((3 * nn * 4)), write_bytes: $((nn * 4)), reuse_bytes: $((nn * 4 + 32 * n * 4))}
EOF
    cat >"$dir/wmma_n$n.yaml" <<EOF
schema: gpucal-kernel/1
name: s003_wmma_n$n
source: "seeds/003_735f20a7467b02d8.txt, Tensor code (wmma 16x16x16 from global, blocks of 128x4)"
launch: {grid: [$t64, $t64], block: [128, 4], registers: 40}
prologue: {ops: [{op: ldg, width: 8, count: 4, sectors: 8, lines: 8}]}
loop:
  trips: $k16
  ops:
    - {op: ldg, width: 4, count: 8, sectors: 8, lines: 8, l1_hit: 0.875}
    - {op: wmma, shape: m16n16k16, a: f16, c: f32, count: 1, chains: 1}
    - {op: shfl, count: 4}
    - {op: alu, name: iadd3, count: 17}
epilogue: {ops: [{op: stg, width: 8, count: 4, sectors: 8, lines: 8}]}
footprint: {read_bytes: $((2 * nn * 2 + nn * 4)), write_bytes: $((nn * 4)), reuse_bytes: $((nn * 2 + 64 * n * 2))}
EOF
}

time_of() { "$gpucal" predict "$1" --arch "$arch" --format json | sed -n 's/^  "time_us": \([^,]*\),$/\1/p'; }

echo "Seed 003, predicted on $arch: fp32 CUDA-core tiled GEMM vs f16->f32 WMMA GEMM"
echo
echo "| N | tiled us | wmma us | wmma speed-up |"
echo "| ---: | ---: | ---: | ---: |"
n=32
status=0
while [ $n -le 8192 ]; do
    gen $n
    a=$(time_of "$dir/tiled_n$n.yaml") || status=2
    b=$(time_of "$dir/wmma_n$n.yaml") || status=2
    [ -n "$a" ] && [ -n "$b" ] || { echo "s003_sweep.sh: prediction failed at N = $n" >&2; exit 2; }
    awk -v n=$n -v a="$a" -v b="$b" 'BEGIN { printf "| %d | %.1f | %.1f | %.2fx |\n", n, a, b, a / b }'
    n=$((n * 2))
done
exit $status
