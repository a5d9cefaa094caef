#!/bin/sh
# ops.sh - the operator templates (model/ops.h): `gpucal describe OP` writes
# descriptions that load back and predict exactly as `gpucal predict OP`
# does; bad arguments are one line and exit 2. Needs $GPUCAL (set by ctest).
. "$(dirname "$0")/lib.sh"
G=$GPUCAL

calls="attention --batch 2 --heads 8 --seq 1024 --head-dim 128 --dtype f16
attention --batch 1 --heads 4 --seq 512 --head-dim 64 --causal --dtype bf16
softmax --rows 4096 --cols 1024 --dtype f16
softmax --rows 512 --cols 8192 --dtype f32
softmax --rows 64 --cols 65536 --dtype f32
layernorm --rows 8192 --cols 4096 --dtype bf16
rowsum --rows 4096 --cols 4096 --dtype f32
rowsum --rows 16 --cols 1048576 --dtype f16
elementwise --op gelu --n 1000000 --dtype f16
elementwise --op add --n 16777216 --dtype f32
transpose --rows 4096 --cols 2048 --dtype f16
conv2d --n 8 --c 64 --h 56 --w 56 --k 64 --r 3 --s 3 --stride 1 --pad 1 --dtype f16
conv2d --n 8 --c 3 --h 224 --w 224 --k 64 --r 7 --s 7 --stride 2 --pad 3 --dtype bf16
conv2d --n 32 --c 256 --h 14 --w 14 --k 64 --r 1 --s 1 --stride 1 --pad 0 --dtype f16
conv2d --n 1 --c 64 --h 7 --w 7 --k 64 --r 1 --s 1 --stride 1 --pad 0 --dtype bf16"

# (a here-document, not a pipe: a failure inside must reach `fails`)
while read -r call; do
    for arch in hopper-h100 ampere-a100; do
        # shellcheck disable=SC2086
        run $G predict $call --arch $arch --format json
        expect_rc 0 "predict $call on $arch"
        cp "$out" "$T/direct.json"
        # shellcheck disable=SC2086
        run $G describe $call --arch $arch
        expect_rc 0 "describe $call on $arch"
        awk -v d="$T" 'BEGIN { f = d "/k1.yaml"; n = 1 }
            /^---$/ { n++; f = d "/k" n ".yaml"; next } { print > f }' "$out"
        i=1
        # the direct call adds the kernel's two ends (ends_us) to the predictor's time
        for t in $(grep -o '"time_us": [0-9.]*, "kernel_us": [0-9.]*, "launch_us": [0-9.]*, "ends_us": [0-9.]*' \
            "$T/direct.json" | awk '{ printf "%.4f\n", $2 - $8 }' | tr -d ,); do
            run $G predict "$T/k$i.yaml" --arch $arch --format json
            expect_rc 0 "predict the described kernel $i of $call on $arch"
            got=$(grep -o '"time_us": [0-9.e+-]*' "$out" | head -1 | cut -d' ' -f2)
            awk -v a="$t" -v b="$got" 'BEGIN { d = a - b; exit !(d < 1e-3 && d > -1e-3) }' ||
                fail "round trip of kernel $i of $call on $arch: $t us direct, $got us from YAML"
            i=$((i + 1))
        done
        rm -f "$T"/k*.yaml
    done
done <<EOF
$calls
EOF

# text: one line per kernel and the total
run $G predict conv2d --n 8 --c 3 --h 224 --w 224 --k 64 --r 7 --s 7 --stride 2 --pad 3 \
    --dtype f16 --arch hopper-h100
expect_rc 0 "conv2d text"
expect_out '^  pad ' "conv2d: the channel-padding kernel for C = 3"
expect_out '^  conv ' "conv2d: the implicit GEMM"
expect_out '^  total: [0-9.]+ us$' "total line"

# cuDNN's conv2d kernels on sm_90, the grids the profiler shows (ops.csv):
# the stem on 3 channels, N = 32: image_first_layer on (ceil(112 / 56),
# ceil(112 / 16), N) after the padding copies (o120: 2,7,32); N = 1: the
# indexed aligna2 kernel, 128-row tiles of 4 warps: ceil(12544 / 128) = 98
# blocks down M (o134: 4,98,1 with its 128 x 16 tiles; the model keeps the
# faster of 128 x 16 and 128 x 32); C = 128: the persistent sm90 implicit
# GEMM, 384 threads, at most one block per SM
run $G describe conv2d --n 32 --c 3 --h 224 --w 224 --k 64 --r 7 --s 7 --stride 2 --pad 3 \
    --dtype f16 --arch hopper-h100
expect_out 'grid: \[2, 7, 32\]' "conv2d stem: the first-layer kernel's grid"
[ "$(grep -c '^name: "nhwcAddPaddingKernel' "$out")" -eq 2 ] || fail "conv2d stem: two padding copies"
run $G describe conv2d --n 1 --c 3 --h 224 --w 224 --k 64 --r 7 --s 7 --stride 2 --pad 3 \
    --dtype f16 --arch hopper-h100
expect_out 'grid: \[[24], 98, 1\]' "conv2d C = 3, N = 1: the indexed kernel's grid"
expect_out 'block: \[128, 1, 1\]' "conv2d C = 3, N = 1: 4 warps"
expect_out '^name: "sm80_xmma_fprop_implicit_gemm_indexed tilesize128x' "the indexed kernel"
[ "$(grep -c '^name: ' "$out")" -eq 1 ] || fail "conv2d C = 3, N = 1: no padding copy"
run $G describe conv2d --n 32 --c 128 --h 56 --w 56 --k 128 --r 3 --s 3 --stride 2 --pad 1 \
    --dtype f16 --arch hopper-h100
# the description holds the consumer warpgroups (the producer's few instructions ride on them,
# gemm_build.c build_wgmma): one for a tile of <= 128 accumulators a thread, two above
expect_out 'block: \[(128|256), 1, 1\]' "conv2d sm90: the consumer warpgroups of the 384-thread kernel"
grep -E 'grid: \[[0-9]+, 1, 1\]' "$out" | tr -dc '0-9,' | awk -F, '{ exit !($1 >= 1 && $1 <= 132) }' ||
    fail "conv2d sm90: a persistent grid of at most one block per SM"

# cuDNN's sm90 kernels run in clusters that multicast a tile: N = 320 filters are 5 tiles
# of 64, each A tile multicast to the 5 (ncu's launch__cluster_dim, data/h200/diag_l2.csv)
run $G describe conv2d --n 16 --c 320 --h 64 --w 64 --k 320 --r 3 --s 3 --stride 1 --pad 1 \
    --dtype f16 --arch hopper-h200
expect_rc 0 "conv2d o162 describe"
grep -Eq '\{op: tma, bytes: 16384, multicast: 5, count: ' "$out" ||
    fail "conv2d sm90: the A tile multicast to the cluster over the N tiles"
# batch 1, at most 96 filters, 3x3: cuDNN's cutlass sm80 fprop 64x64_64x5 (o136: 49 blocks of
# 128 threads, 118 registers), k steps per filter tap (C = 96: two a tap, 18 in all); the bf16
# stem: the padding copies to 8 channels and cutlass's 256x64_32x4 (p002: 392 blocks, one k step
# of 32 a tap), its 5 kernels with the first-layer path's roles
run $G describe conv2d --n 1 --c 64 --h 56 --w 56 --k 64 --r 3 --s 3 --stride 1 --pad 1 \
    --dtype f16 --arch hopper-h200
expect_out '^name: "cutlass s16816fprop_optimized 64x64_64x5' "conv2d batch 1, 64 filters: cutlass sm80"
expect_out 'grid: \[1, 49, 1\]' "conv2d batch 1, 64 filters: 49 tiles of 64x64"
expect_out 'registers: 118' "conv2d batch 1: the kernel's registers"
run $G describe conv2d --n 1 --c 96 --h 28 --w 28 --k 96 --r 3 --s 3 --stride 1 --pad 1 \
    --dtype f16 --arch hopper-h200
expect_out 'trips: 18$' "conv2d C = 96: two k steps of 64 a filter tap"
run $G describe conv2d --n 1 --c 128 --h 28 --w 28 --k 128 --r 3 --s 3 --stride 1 --pad 1 \
    --dtype f16 --arch hopper-h200
expect_out '^name: "sm90_xmma_fprop_implicit_gemm' "conv2d batch 1, 128 filters: sm90"
run $G describe conv2d --n 8 --c 3 --h 224 --w 224 --k 64 --r 7 --s 7 --stride 2 --pad 3 \
    --dtype bf16 --arch hopper-h200
expect_out '^name: "cutlass s16816fprop_optimized 256x64_32x4 nhwc_align8 \(100352x64x392' \
    "conv2d bf16 stem: cutlass 256x64 on 8 channels"
expect_out 'grid: \[1, 392, 1\]' "conv2d bf16 stem: 392 tiles of 256 rows"
expect_out 'trips: 49$' "conv2d bf16 stem: one k step a tap"
[ "$(grep -c '^name: "nhwcAddPaddingKernel (.* to 8 channels)' "$out")" -eq 2 ] ||
    fail "conv2d bf16 stem: two padding copies to 8 channels"
# bf16 on 3 channels, 3x3: cuDNN's direct convolution (p005: 32 pixels a block of 8 x 8
# threads); bf16 on 4 channels: the padding copies and sm80_xmma's indexed 256x64x32 (p006)
run $G describe conv2d --n 32 --c 3 --h 32 --w 32 --k 16 --r 3 --s 3 --stride 1 --pad 1 \
    --dtype bf16 --arch hopper-h200
expect_out '^name: "convolve_common_engine_float_NHWC' "conv2d bf16 C = 3, 3x3: the direct convolution"
expect_out 'grid: \[1024, 1, 1\]' "conv2d bf16 C = 3: 32 pixels a block"
expect_out 'block: \[8, 8, 1\]' "conv2d bf16 C = 3: 8 x 8 threads"
run $G describe conv2d --n 16 --c 4 --h 64 --w 64 --k 32 --r 3 --s 3 --stride 1 --pad 1 \
    --dtype bf16 --arch hopper-h200
expect_out '^name: "sm80_xmma_fprop_implicit_gemm indexed 256x64x32 stage3 \(65536x32x72' \
    "conv2d bf16 C = 4: the indexed kernel on 8 padded channels"
expect_out 'grid: \[1, 256, 1\]' "conv2d bf16 C = 4: 256 tiles of 256 rows"
[ "$(grep -c '^name: "nhwcAddPaddingKernel (.* to 8 channels)' "$out")" -eq 2 ] ||
    fail "conv2d bf16 C = 4: two padding copies to 8 channels"
# a 1x1 stride-1 unpadded convolution is cuBLASLt's GEMM [N*H*W x C][C x K]: the gemm
# template's own kernels for that call, and the same time
run $G predict conv2d --n 32 --c 256 --h 14 --w 14 --k 64 --r 1 --s 1 --stride 1 --pad 0 \
    --dtype f16 --arch hopper-h200 --format json
expect_rc 0 "conv2d 1x1"
expect_out '"name": "wgmma\+tma_f16_[0-9x]+(_splitK)? \(cuBLASLt GEMM 6272x64x256 nt\)"' "conv2d 1x1: the gemm template's kernel"
c1=$(grep -o '"kernel_us": [0-9.]*' "$out" | tail -1 | cut -d' ' -f2)
run $G predict gemm --m 6272 --n 64 --k 256 --dtype f16 --layout nt --arch hopper-h200 --format json
expect_rc 0 "gemm of the 1x1 conv"
g1=$(sed -n 's/^  "time_us": \([0-9.]*\),$/\1/p' "$out" | head -1)
awk -v a="$c1" -v b="$g1" 'BEGIN { exit !(a > 0 && b > 0 && a / b > 0.9 && a / b < 1.1) }' ||
    fail "conv2d 1x1: $c1 us on the GPU, the gemm template's call $g1 us (ends alike but for a cluster barrier)"

# describe gemm / stream: the kernels the call launches (memset, main, split-K reduction),
# each of which loads back and predicts as the call's prediction times it without its ends
for call in "gemm --m 4096 --n 4096 --k 4096 --dtype f16" "gemm --m 256 --n 256 --k 16384 --dtype f32" \
    "gemm --m 1024 --n 1024 --k 1024 --dtype bf16 --batch 8 --layout tn" "stream --op triad --bytes 67108864" \
    "gemm --m 1024 --n 1024 --k 999 --dtype f16"; do
    # shellcheck disable=SC2086
    run $G describe $call --arch hopper-h200
    expect_rc 0 "describe $call"
    n=$(grep -c '^schema: gpucal-kernel/1' "$out")
    awk -v d="$T" 'BEGIN { f = d "/g1.yaml"; n = 1 } /^---$/ { n++; f = d "/g" n ".yaml"; next } { print > f }' "$out"
    # shellcheck disable=SC2086
    run $G predict $call --arch hopper-h200 --format json
    expect_rc 0 "predict $call"
    # each kernel's prediction: the time_us lines at the top level of the document after
    # the call's own (a call of one kernel without a kernel list: its own)
    if grep -q '"role": ' "$out"; then
        sed -n 's/^  "time_us": \([0-9.e+-]*\),$/\1/p' "$out" | tail -n +2 >"$T/want"
    else
        sed -n 's/^  "time_us": \([0-9.e+-]*\),$/\1/p' "$out" | head -n 1 >"$T/want"
    fi
    [ "$n" -ge 1 ] && [ "$n" -eq "$(wc -l <"$T/want")" ] ||
        fail "describe $call: $n kernels, the prediction times $(wc -l <"$T/want")"
    i=1
    while read -r want; do
        run $G predict "$T/g$i.yaml" --arch hopper-h200 --format json
        expect_rc 0 "predict the described kernel $i of $call"
        got=$(grep -o '"time_us": [0-9.e+-]*' "$out" | head -1 | cut -d' ' -f2)
        awk -v a="$want" -v b="$got" 'BEGIN { d = a - b; exit !(d < 1e-3 && d > -1e-3) }' ||
            fail "round trip of kernel $i of $call: $want us in the call, $got us from YAML"
        i=$((i + 1))
    done <"$T/want"
    rm -f "$T"/g*.yaml
done
# a GEMM whose rows are not 16-byte aligned: cuBLAS's register-staged 2-byte copies reach 4
# rows of the tile each (ways: 4) and land in shared memory 16 bytes at a time (sts width 16)
run $G describe gemm --m 4095 --n 4095 --k 4095 --dtype f16 --arch hopper-h200
expect_rc 0 "describe gemm 4095^3"
grep -q '{op: cp_async, width: 2, ways: 4,' "$out" && grep -q '{op: sts, width: 16, count: 6}' "$out" ||
    fail "gemm 4095^3: the narrow copies are not 4-way with 16-byte shared stores"
# tf32 wgmma reads K-major shared memory only: an M- or N-major operand goes through the
# registers (LDS.32), both so stored also back K-major (STS.32) behind two barriers; both
# operands K-major (layout nt: A row-major, B a transposed view) need neither
for lay in nt nn tn; do
    run $G describe gemm --m 4096 --n 4096 --k 4096 --dtype tf32 --layout $lay --arch hopper-h200
    expect_rc 0 "describe gemm tf32 $lay"
    cp "$out" "$T/tf32_$lay.yaml"
done
grep -q '{op: lds, width: 4,' "$T/tf32_nt.yaml" && fail "tf32 nt: staged through registers"
grep -q '{op: lds, width: 4,' "$T/tf32_nn.yaml" && ! grep -q '{op: sts, width: 4,' "$T/tf32_nn.yaml" ||
    fail "tf32 nn: one N-major operand, loaded to registers and not stored back"
grep -q '{op: sts, width: 4,' "$T/tf32_tn.yaml" && grep -q '{op: bar, count: 2}' "$T/tf32_tn.yaml" ||
    fail "tf32 tn: both operands M/N-major, one not written back K-major behind two barriers"
us() { sed -n 's/^  "time_us": \([0-9.e+-]*\),$/\1/p' "$out" | head -1; }
run $G predict gemm --m 4096 --n 4096 --k 4096 --dtype tf32 --layout nt --arch hopper-h200 --format json
t_nt=$(us)
run $G predict gemm --m 4096 --n 4096 --k 4096 --dtype tf32 --layout tn --arch hopper-h200 --format json
t_tn=$(us)
awk -v a="$t_nt" -v b="$t_tn" 'BEGIN { exit !(a > 0 && b > a * 1.05) }' ||
    fail "tf32 4096^3: tn ($t_tn us) not slower than nt ($t_nt us)"
# templates share option names, not ranges: elementwise's --n counts elements (a 1 GiB
# f32 tensor is 268435456 of them), gemm's --n is a matrix size
run $G predict elementwise --op relu --n 268435456 --dtype f32 --arch hopper-h200
expect_rc 0 "elementwise --n 268435456"
# an option of another template is refused, not ignored
run $G predict softmax --rows 64 --cols 128 --dtype f16 --seq 5 --arch hopper-h200
expect_rc 2 "softmax --seq"; expect_err_lines 1 "softmax --seq"
expect_err -- "--seq is not an option of softmax" "softmax --seq"
run $G describe gemm --m 64 --n 64 --k 64 --dtype f16 --rows 5 --arch hopper-h200
expect_rc 2 "gemm --rows"; expect_err -- "--rows is not an option of gemm" "gemm --rows"
run $G describe frob --x 1 --arch hopper-h200
expect_rc 2 "describe frob"; expect_err "unknown template 'frob'" "describe frob"

# the launch arithmetic of the library's source
run $G describe softmax --rows 4096 --cols 1024 --dtype f16 --arch hopper-h100
expect_out 'grid: \[1024, 1, 1\]' "softmax_warp_forward: 1 row per warp, 4 warps per block"
expect_out 'block: \[32, 4, 1\]' "softmax_warp_forward: (32, 4) threads"
run $G describe elementwise --op add --n 16777216 --dtype f32 --arch hopper-h100
expect_out 'grid: \[16384, 1, 1\]' "vectorized_elementwise_kernel: 1024 elements per block"
run $G describe attention --batch 2 --heads 8 --seq 1000 --head-dim 128 --dtype f16 --arch hopper-h100
expect_out 'grid: \[8, 2, 8\]' "flash_fwd_kernel: ceil(S / 128) x batch x heads"
run $G describe rowsum --rows 4096 --cols 4096 --dtype f32 --arch hopper-h100
expect_out 'block: \[32, 16, 1\]' "reduce_kernel: 32 x 16 threads"
# Reduce.cuh: values_per_thread = cols / 32 = 256 >= min(16 x 16, 256), so
# the 16 warps split one row (one block per row); 16-bit input in 8-vectors
run $G describe rowsum --rows 8192 --cols 8192 --dtype f16 --arch hopper-h100
expect_out 'grid: \[8192, 1, 1\]' "reduce_kernel: warps split a 8192-long row"
expect_out 'width: 16' "reduce_kernel: 16-bit input loaded 8 at a time"
# 65536 x 256 bf16: 8 values per thread < 256: each warp its own row
run $G describe rowsum --rows 65536 --cols 256 --dtype bf16 --arch hopper-h100
expect_out 'grid: \[4096, 1, 1\]' "reduce_kernel: 16 rows per block"
# one row of 16M floats: block 512 x 1, ctas_per_output = max(min(132 x 4,
# 32768 / 16), 32768 / 256) = 528 blocks on the H100's 132 SMs, 432 on the A100's 108
run $G describe rowsum --rows 1 --cols 16777216 --dtype f32 --arch hopper-h100
expect_out 'grid: \[1, 528, 1\]' "reduce_kernel: 528 CTAs per output on 132 SMs"
expect_out 'block: \[512, 1, 1\]' "reduce_kernel: 512 lanes along the row"
expect_out 'op: ldg, width: 16, count: 1}' "reduce_kernel: a load has a full warp of lanes (the default), not 512"
run $G predict rowsum --rows 1 --cols 16777216 --dtype f32 --arch hopper-h100
expect_out '^  memset ' "split rows: the semaphores are zeroed by a memset first"
# --l2 warm: every kernel of the call finds its data in the L2 (footprint.l2_warm);
# a value other than cold or warm is bad usage
run $G describe elementwise --op relu --n 4096 --dtype f32 --l2 warm --arch hopper-h200
expect_out 'l2_warm: true' "--l2 warm marks the kernel's data as in the L2"
run $G describe elementwise --op relu --n 4096 --dtype f32 --arch hopper-h200
grep -q 'l2_warm' "$out" && fail "the default (cold) marks nothing warm"
run $G predict elementwise --op relu --n 4096 --dtype f32 --l2 hot --arch hopper-h200
expect_rc 2 "--l2 hot"; expect_err "unknown --l2 'hot' \\(cold or warm\\)" "--l2 hot"
# the first pass through parameters and code, counted from the listings:
# reduce_kernel's vector path on 16-bit input reads 7 lines, jumps 5 times
run $G describe rowsum --rows 4096 --cols 768 --dtype f16 --arch hopper-h200
expect_out 'param_lines: 7' "reduce_kernel: 7 lines of parameters (sass/r014)"
expect_out 'far_jumps: 5' "reduce_kernel: 5 far jumps on 16-bit input (sass/r014)"
# a row split over blocks ends with three L2 round trips in a row: the fence,
# the semaphore's atomic, the last block's loads of the partials (sass/r027)
run $G describe rowsum --rows 1 --cols 1000000 --dtype bf16 --arch hopper-h200
expect_out 'ldg, width: 4, active: 1, count: 3, chains: 1\}' "rowsum split rows: fence, atomic, partials in a chain"
# cuDNN's sm90 64x64x64 convolution runs 1088 instructions once on its
# critical path (sass_cudnn_groups.csv, o144), the described kernel says so,
# and the operator's time charges them beyond the nvjet GEMMs' 440
run $G describe conv2d --n 1 --c 512 --h 7 --w 7 --k 512 --r 3 --s 3 --stride 1 --pad 1 \
    --dtype f16 --arch hopper-h200
expect_out 'tilesize64x64x64' "a batch-1 7x7 convolution of 512 filters: the 64x64x64 tile"
expect_out 'serial_inst: 1088' "the 64x64x64 kernel's once-run code (sass_cudnn_groups.csv)"
# rows shorter than 128: scalar loads (thread_reduce_impl). A lane with fewer
# than 4 values runs only the tail: per warp, 189 instructions in the SASS of
# 262144 x 32 f32 (ncu, model/validation/data/h200/sass/r002.1.sass), 235 for
# 100000 x 100 f32 (a lane with 4 values runs one trip of the loop, the others
# a tail of 3: o072.1.sass); the description's counts within 6 %
per_warp() {  # per_warp ARGS: instructions a warp issues in the description
    $G describe rowsum $1 --arch hopper-h200 | awk '
        /^(loop|epilogue|prologue):/ { t = 1 }
        /trips:/ { t = $2 }
        /count:/ { c = $0; sub(/.*count: /, "", c); sub(/[,}].*/, "", c); n += c * t }
        END { printf "%.0f", n }'
}
for want in "--rows 262144 --cols 32 --dtype f32:189" "--rows 100000 --cols 100 --dtype f32:235"; do
    got=$(per_warp "${want%%:*}")
    awk -v g="$got" -v w="${want##*:}" 'BEGIN { exit !(g >= 0.94 * w && g <= 1.06 * w) }' ||
        fail "rowsum ${want%%:*}: $got instructions a warp, the SASS runs ${want##*:}"
done
run $G predict rowsum --rows 4096 --cols 4096 --dtype f32 --arch hopper-h100
grep -q '^  memset ' "$out" && fail "no split row: no memset"
# layernorm's second pass finds its row in the L1 only while the rows
# resident on an SM fit: 2 rows of 256 KiB on the H100's 240 KiB L1 do not,
# and a cyclic re-read beyond the capacity misses (LRU): no l1_hit on x
run $G describe layernorm --rows 256 --cols 65536 --dtype f32 --arch hopper-h100
expect_out '^    - {op: ldg, width: 16, count: 1}$' "layernorm: long rows re-read from the L2 beyond the L1"
# the transpose's unrolled loads share sectors only through the L1, which
# 64 warps x 32 lines of 128 bytes (256 KiB) overflow: no l1_hit either
run $G describe transpose --rows 128 --cols 16384 --dtype f16 --arch hopper-h100
expect_out '^    - {op: ldg, width: 2, sectors: 32, lines: 32, count: 1}$' "transpose: 32 rows a warp load, no L1 reuse"
# (768 halves: 192 vectors, warps 0 and 1 take two, warps 2 and 3 one: 0.75
# of a load per warp and trip of the busiest warp's two)
run $G describe layernorm --rows 4096 --cols 768 --dtype f16 --arch hopper-h100
expect_out 'l1_hit: 1, count: 0.75' "layernorm: short rows re-read from the L1"
# FlashAttention-2's iteration as its three dependent steps, one phase each
# with the loop's trips (hdim 64: 128 x 128 blocks, 4 warps, 32 rows a
# warp): S = QK^T 2 x 16 x 4 = 128 mma (32 accumulators), Q and K by
# (32 x 64 + 128 x 64) x 2 / 512 = 40 ldmatrix.x4; O += PV 2 x 8 x 8 = 128
# mma (16 accumulators), V by 32; the softmax 128 scores + 4 rows of MUFU.EX2
# with the trips, each block's work outside them (fa_fixed_trips: its code
# before and after the trips, the first Q and K loads): 8 + F, F in (0, 2)
run $G describe attention --batch 1 --heads 1 --seq 1024 --head-dim 64 --dtype f16 --arch hopper-h100
[ "$(grep '^  trips: ' "$out" | sort -u | wc -l)" -eq 1 ] &&
    [ "$(grep -c '^  trips: ' "$out")" -eq 3 ] &&
    grep '^  trips: ' "$out" | head -1 | awk '{ exit !($2 > 8 && $2 < 10) }' ||
    fail "attention: three phases of 1024 / 128 = 8 trips and a block's fixed work"
expect_out 'count: 128, chains: 32\}' "attention: S = QK^T, 128 mma over 32 accumulators"
expect_out 'count: 128, chains: 16\}' "attention: O += PV, 128 mma over 16 accumulators"
expect_out 'ldmatrix, num: 4, count: 40\}' "attention: Q and K fragments"
expect_out 'mufu.ex2, count: 132\}' "attention: one exp2 per score and per row"
# layernorm, 128 half columns: 32 vectors, so one warp of the four reads
# (a quarter of a load per warp) while every warp runs the 5-level butterfly
# (15 shuffles, 3 a level, each level waiting for the one before) and the
# 2 x 2 + 1 barriers
run $G describe layernorm --rows 131072 --cols 128 --dtype f16 --arch hopper-h100
expect_out 'ldg, width: 8, count: 0.25\}' "layernorm: one warp in four holds a vector"
expect_out 'shfl, count: 15, chains: 3\}' "layernorm: every warp runs the butterfly"
expect_out 'bar, count: 5\}' "layernorm: the reduction's barriers"
# the block softmax that reads a row three times: 1M halves over 1024
# threads, 16-byte vectors: 128 trips in each of its three passes, one
# vector in flight per thread and trip in each
run $G describe softmax --rows 8 --cols 1048576 --dtype f16 --arch hopper-h100
[ "$(grep -c '^  trips: 128$' "$out")" -eq 3 ] || fail "softmax: three passes of 128 trips"
[ "$(grep -c 'ldg, width: 16, count: 1}' "$out")" -eq 3 ] || fail "softmax: a load in each pass"
# a grid resident all at once runs in lockstep: 4096 rows of 1024 halves
# are 1024 blocks of 4 warps, under the H100's 132 x 10; its GPU time holds
# at least the 8 MiB of reads at memory.dram.bw_read_gbs, the 8 MiB of
# writes at bw_write_gbs and the two ends. With 16 times the rows (16
# waves) the ends are the two latencies only, the same at 32 times.
H100=$(dirname "$0")/../arch/hopper-h100.yaml
bw() { grep -o "$1: {value: [0-9.]*" "$H100" | head -1 | tr -dc '0-9.'; }
ends() {
    run $G predict softmax --rows "$1" --cols 1024 --dtype f16 --arch hopper-h100 --format json
    grep -o '"ends_us": [0-9.]*' "$out" | head -1 | tr -dc '0-9.'
}
e16=$(ends 65536)
e32=$(ends 131072)
[ -n "$e16" ] && [ "$e16" = "$e32" ] || fail "many waves: ends_us $e16 and $e32 should be the two latencies"
run $G predict softmax --rows 4096 --cols 1024 --dtype f16 --arch hopper-h100 --format json
k1=$(grep -o '"kernel_us": [0-9.]*, "launch_us"' "$out" | head -1 | tr -dc '0-9.')
clk=$(grep -o '"clock_mhz": [0-9.]*' "$out" | head -1 | tr -dc '0-9.')
# the busiest compute resource of the prediction (tensor, alu, issue, shared), cycles
comp=$(grep -o '"busy": {[^}]*}' "$out" | head -1 | tr ',{}' '\n\n\n' |
    awk -F': ' '/tensor|alu|issue|shared/ { if ($2 > m) m = $2 } END { print m + 0 }')
awk -v k="$k1" -v r="$(bw bw_read_gbs)" -v w="$(bw bw_write_gbs)" -v e="$e16" -v c="$comp" \
    -v f="$clk" 'BEGIN { b = 8388608 / (r * 1e3) + c / f + 8388608 / (w * 1e3) + e
        exit !(r > 0 && w > 0 && f > 0 && c > 0 && k >= b - 1e-3) }' ||
    fail "one-wave softmax: $k1 us, below its reads, math, writes and ends in sequence"
# the two ends: the memset only drains its stores to the L2 (l2 latency),
# the reduction also waits for its first loads from DRAM (dram latency)
run $G predict rowsum --rows 1 --cols 16777216 --dtype f32 --arch hopper-h100 --format json
grep -o '"ends_us": [0-9.]*' "$out" | cut -d' ' -f2 | paste -sd' ' - |
    awk '{ exit !($1 > 0 && $2 > $1) }' || fail "ends_us: memset (L2 only) below the reduction (DRAM + L2)"
run $G describe rowsum --rows 1 --cols 16777216 --dtype f32 --arch ampere-a100
expect_out 'grid: \[1, 432, 1\]' "reduce_kernel: 432 CTAs per output on 108 SMs"
# cunn_SoftMaxForwardReg, 4096 bf16 columns: ILP 4, 30 registers in PyTorch
# 2.11 (allocated as 32): two 1024-thread blocks per SM
run $G predict softmax --rows 4096 --cols 4096 --dtype bf16 --arch hopper-h100 --format json
expect_out '"blocks_per_sm": 2' "softmax Reg kernel: 2 blocks per SM"

# every operator on every shipped arch: a number, never inf or NaN
for a in "$(dirname "$0")"/../arch/*.yaml; do
    for call in "softmax --rows 3 --cols 50257 --dtype f32" "layernorm --rows 1 --cols 4 --dtype bf16" \
        "rowsum --rows 1 --cols 1 --dtype f16" "elementwise --op gelu --n 1 --dtype f32" \
        "transpose --rows 1 --cols 1 --dtype f16" \
        "conv2d --n 1 --c 3 --h 7 --w 7 --k 1 --r 7 --s 7 --stride 1 --pad 0 --dtype f16"; do
        # shellcheck disable=SC2086
        run $G predict $call --arch "$a" --format json
        expect_rc 0 "$call on $a"
        grep -qi 'nan\|inf' "$out" && fail "$call on $a prints inf or NaN"
    done
done
run $G predict attention --batch 1 --heads 1 --seq 1 --head-dim 128 --dtype f16 --arch ada-rtx4090
expect_rc 0 "attention on Ada"
run $G predict attention --batch 1 --heads 1 --seq 64 --head-dim 64 --dtype f16 --arch turing-rtx2080ti
expect_rc 2 "attention on Turing: no FlashAttention-2 there"
expect_err 'sm_80 or newer' "attention on Turing names the reason"
expect_err_lines 1 "attention on Turing"

# bad arguments: one line, exit 2
bad() {
    run "$@"
    expect_rc 2 "$*"
    expect_err_lines 1 "$*"
}
bad $G predict softmax --rows 4096 --dtype f16 --arch hopper-h100
expect_err 'missing --cols' "missing option named"
bad $G predict softmax --rows 0 --cols 10 --dtype f16 --arch hopper-h100
expect_err -- '--rows' "zero size named"
bad $G predict layernorm --rows -5 --cols 10 --dtype f16 --arch hopper-h100
expect_err -- '--rows' "negative size named"
bad $G predict softmax --rows 10 --cols 10 --dtype f64 --arch hopper-h100
expect_err "unknown --dtype 'f64'" "unknown dtype"
bad $G predict attention --batch 1 --heads 1 --seq 128 --head-dim 256 --dtype f16 --arch hopper-h100
expect_err 'head-dim 256 is not supported' "head dim"
bad $G predict attention --batch 1 --heads 1 --seq 128 --head-dim 64 --dtype f32 --arch hopper-h100
expect_err "unknown --dtype 'f32'" "attention takes f16 or bf16"
bad $G predict elementwise --op tanh --n 100 --dtype f32 --arch hopper-h100
expect_err "unknown --op 'tanh'" "unknown elementwise op"
bad $G predict conv2d --n 1 --c 8 --h 4 --w 4 --k 8 --r 7 --s 7 --stride 1 --pad 0 --dtype f16 --arch hopper-h100
expect_err 'does not fit' "filter larger than the input"
bad $G predict softmax --rows 10 --cols 10 --dtype f16
expect_err -- '--arch' "missing arch"
bad $G describe softmax --rows 10 --cols 10 --dtype f16 --colour blue --arch hopper-h100
expect_err "unknown option" "unknown option"
bad $G describe matmul --arch hopper-h100
expect_err "unknown template 'matmul'" "unknown operator"
finish
