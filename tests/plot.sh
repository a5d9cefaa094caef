#!/bin/sh
# plot.sh - `gpucal plot`: every chart is a complete SVG whose text has its
# title and axis labels with units; charts never replace a file without
# --force; bad input gives one line and exit 2; without gnuplot, one line
# and exit 1. Inputs: the synthetic traces and arch of tests/fixtures/export.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
FX=$GC_SRC/tests/fixtures/export
ARCH=$FX/arch/test-export.yaml
TR=$FX/traces

# svg FILE TEXT...: FILE is a whole SVG holding each TEXT
svg() {
    f=$1
    shift
    [ -s "$f" ] || { fail "$f is missing or empty"; return; }
    head -c 200 "$f" | grep -q '<svg' || fail "$f does not start an SVG"
    tail -c 100 "$f" | grep -q '</svg>' || fail "$f is not a complete SVG"
    for t in "$@"; do
        grep -qF -- "<text>$t</text>" "$f" || fail "$f lacks the text '$t'"
    done
}

# without gnuplot: one line, exit 1, nothing written (PATH without it)
run env PATH=/nonexistent "$G" plot mma --arch "$ARCH" -o "$T/none.svg"
expect_rc 1 "no gnuplot"; expect_err_lines 1 "no gnuplot"
expect_err '^gpucal: gnuplot not found on PATH: install it' "no gnuplot"
[ -e "$T/none.svg" ] && fail "a chart appeared without gnuplot"

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "note: gnuplot is not installed here: only the no-gnuplot path was tested"
    finish
fi

# ---- latency vs array size: a trace and two archs ----
run $G plot latency --trace "$TR/pchase.csv" --arch "$ARCH" --arch "$GC_SRC/tests/fixtures/arch/good/minimal.yaml" -o "$T/lat.svg"
expect_rc 0 latency; expect_out "^wrote $T/lat.svg$" latency; expect_err_lines 0 latency
svg "$T/lat.svg" 'Load latency vs array size (P-chase, Test GPU (synthetic))' 'array size (KiB)' \
    'latency (cycles)' 'global seq' 'test-export (arch file: L1, L2, DRAM)'
# one device: its name once, in the title, not in each legend entry
[ "$(grep -c 'Test GPU (synthetic)' "$T/lat.svg")" -eq 1 ] || fail "latency: the device name is repeated"
# minimal.yaml has no L1/L2/DRAM latencies: no line for it
grep -qF 'test-minimal (arch file' "$T/lat.svg" && fail "latency: a line for an arch without latencies"
run $G plot latency --arch "$ARCH" -o "$T/new/dir/lat-arch.svg"; expect_rc 0 "latency arch only"
svg "$T/new/dir/lat-arch.svg" 'Load latency vs array size (P-chase)' 'array size (KiB)' 'latency (cycles)'

# ---- ILP x warps heat maps, one per form; scope=gpu rows left out ----
run $G plot heatmap --trace "$TR/mma.csv" -o "$T/hm"; expect_rc 0 heatmap
expect_out "^wrote 2 heat maps to $T/hm \(0 forms with a one-dimensional sweep left out\)$" heatmap
svg "$T/hm/heatmap-mma-m16n8k16-f16_f32-rand.svg" \
    'mma m16n8k16 f16.f32 rand: throughput over ILP x warps (Test GPU (synthetic))' \
    'warps per SM' 'ILP (independent instructions per warp)' 'throughput (FMA/clk/SM, scale from 0)' '506'
svg "$T/hm/heatmap-mma-m16n8k8-f16_f32-rand.svg" \
    'mma m16n8k8 f16.f32 rand: throughput over ILP x warps (Test GPU (synthetic))'
# 4 warps values x 4 ILP values: 16 cells with their values as text
[ "$(grep -c '<text>[0-9][0-9]*</text>' "$T/hm/heatmap-mma-m16n8k16-f16_f32-rand.svg")" -ge 16 ] ||
    fail "heatmap: fewer than 16 cell labels"

# a form swept over one warp count is a line, not a map: left out, and said so
awk -F, '/^#/ || /^inst,/ || ($2 == "m16n8k16" || $9 == 1)' "$TR/mma.csv" >"$T/flat.csv"
run $G plot heatmap --trace "$T/flat.csv" -o "$T/hmflat"; expect_rc 0 "heatmap 1-D"
expect_out "^wrote 1 heat map to $T/hmflat \(1 form with a one-dimensional sweep left out\)$" "heatmap 1-D"
[ -e "$T/hmflat/heatmap-mma-m16n8k8-f16_f32-rand.svg" ] && fail "a heat map of a 1-D sweep"

# ---- the P-chase histogram with the arch's k-means centres ----
run $G plot hist --trace "$TR/pchase_fine.csv" --arch "$ARCH" -o "$T/hist.svg"; expect_rc 0 hist
svg "$T/hist.svg" \
    'Fine-grained P-chase latency histogram and k-means centres (Test GPU (synthetic))' \
    'latency (cycles)' 'accesses (count)' 'near hit 210.0' 'near miss 452.4' \
    'k-means centres of test-export (L2 near/far hit/miss)'
run $G plot hist --trace "$TR/pchase_fine.csv" -o "$T/hist2.svg"; expect_rc 0 "hist no arch"
svg "$T/hist2.svg" 'latency (cycles)' 'accesses (count)'

# ---- latency and peak per form across architectures ----
run $G plot mma --arch "$ARCH" --arch "$GC_SRC/tests/fixtures/arch/good/minimal.yaml" -o "$T/mma.svg"
expect_rc 0 mma
svg "$T/mma.svg" 'mma: tensor forms across architectures' 'completion latency (1 warp, ILP 1)' \
    'peak throughput per SM' 'latency (cycles, log scale)' 'peak (FMA/clk/SM, log scale)' \
    'test-export' 'test-minimal'
# shipped Hopper and Ampere files: sm_90's emulated forms starred, the same colour per arch
run $G plot mma --arch hopper-h100 --arch ampere-a100 -o "$T/mma2.svg"; expect_rc 0 "mma shipped"
svg "$T/mma2.svg" 'm16n8k32 e4m3.f32 *' 'm16n8k16 f16.f32' 'ampere-a100' 'hopper-h100'
grep -qF 'emulated on that GPU' "$T/mma2.svg" || fail "mma chart lacks the emulation note"
# forms in one order whatever the order of the archs (same file, arch order swapped)
run $G plot mma --arch ampere-a100 --arch hopper-h100 -o "$T/mma3.svg"; expect_rc 0 "mma swapped"
cmp -s "$T/mma2.svg" "$T/mma3.svg" || fail "mma chart depends on the order of --arch"
grep -q 'rgb(214, *39, *40)' "$T/mma2.svg" || fail "hopper-h100 is not drawn in its colour (#d62728)"

# ---- roofline, stall stacks, predicted vs measured ----
K=$GC_SRC/model/kernels
run $G plot roofline --arch hopper-h100 "$K/h100_stream_triad.yaml" "$K/h100_mma_pipe.yaml" \
    "$K/softmax_params.yaml" -o "$T/roof.svg"
expect_rc 0 roofline
# the DRAM roof is the arch file's memory.dram.bw_gbs, rounded
D=$(sed -n 's/^    bw_gbs: {value: \([0-9.]*\),.*/\1/p' "$GC_SRC/arch/hopper-h100.yaml" | head -1)
D=$(awk -v d="$D" 'BEGIN { printf "%.0f", d }')
svg "$T/roof.svg" 'operational intensity (FLOP per DRAM byte)' 'performance (TFLOP/s)' \
    "DRAM: $D GB/s"
grep -qE '<text>CUDA cores fp32 \(ffma\): [0-9.]+ TFLOP/s</text>' "$T/roof.svg" || fail "roofline lacks the ffma ceiling"
grep -qF 'h100_mma_pipe: ' "$T/roof.svg" || fail "roofline lacks the kernel h100_mma_pipe"
grep -qE 'tensor f16, bf16 \(wgmma\): [0-9]+ TFLOP/s' "$T/roof.svg" || fail "roofline lacks the f16 tensor ceiling"
run $G plot roofline --arch hopper-h100 "$K/h100_stream_copy.yaml" -o "$T/roof2.svg"
expect_rc 0 "roofline no flop"; expect_err "left off the roofline: it has no arithmetic" "roofline no flop"
run $G plot roofline --arch hopper-h100,ampere-a100 -o "$T/x.svg"; expect_rc 2 "roofline two archs"
run $G plot roofline --arch hopper-h100 "$K/softmax_params.yaml" --set COL=2 -o "$T/x.svg"
expect_rc 2 "roofline bad --set"; expect_err_lines 1 "roofline bad --set"
run $G plot stall --arch ampere-a100,hopper-h100 "$K/mma_matmul_3_1.yaml" -o "$T/stall.svg"
expect_rc 0 stall
svg "$T/stall.svg" 'Stall stack of mma_matmul_3_1 on 2 architectures' 'predicted time (us)' \
    'ampere-a100' 'hopper-h100' 'shared' 'tensor'
run $G plot stall --arch hopper-h100 "$K/h100_stream_triad.yaml" "$K/h100_mma_pipe.yaml" -o "$T/stall2.png"
expect_rc 0 "stall png"
[ "$(head -c 4 "$T/stall2.png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "stall2.png is not a PNG"
run $G plot stall --arch hopper-h100 -o "$T/x.svg"; expect_rc 2 "stall no kernel"
printf 'name,predicted_us,measured_us,gpu\na,10,10,hopper-h100\n"b, with comma",12,10,hopper-h100\nc,5,10,ampere-a100\n' >"$T/v.csv"
run $G plot validation "$T/v.csv" -o "$T/val.svg"; expect_rc 0 validation
svg "$T/val.svg" 'Predicted vs measured kernel time: 3 rows, median |error| 20.0 %, 1 within 10 %' \
    'measured (us, log scale)' 'predicted by gpucal (us, log scale)' 'hopper-h100 (2)' 'ampere-a100 (1)'
run $G plot validation -o "$T/val2.svg"; expect_rc 0 "validation default tables"
grep -qF 'h100_kernels.csv' "$T/val2.svg" || fail "the default validation chart lacks h100_kernels.csv"
printf 'name,predicted_us,measured_us\na,fast,10\n' >"$T/vbad.csv"
run $G plot validation "$T/vbad.csv" -o "$T/x.svg"; expect_rc 2 "validation bad cell"
expect_err_lines 1 "validation bad cell"; expect_err "vbad.csv:2: predicted_us 'fast' is not a positive time" "validation bad cell"
run $G plot validation "$T/none.csv" -o "$T/x.svg"; expect_rc 2 "validation no file"
expect_err_lines 1 "validation no file"; expect_err "none.csv: cannot open the validation table" "validation no file"
printf 'kernel,time\na,1\n' >"$T/vhdr.csv"
run $G plot validation "$T/vhdr.csv" -o "$T/x.svg"; expect_rc 2 "validation header"
expect_err "the header needs the columns name,predicted_us,measured_us" "validation header"
run $G plot mma --arch "$ARCH" --inst wgmma -o "$T/wg.svg"; expect_rc 1 "mma no forms"
expect_err_lines 1 "mma no forms"; expect_err "no tensor form with inst 'wgmma'" "mma no forms"

# ---- all: every chart the inputs allow ----
run $G plot all --traces "$TR" --arch "$ARCH" -o "$T/all"; expect_rc 0 all
for f in latency.svg pchase-hist.svg heatmap-mma-m16n8k16-f16_f32-rand.svg forms-mma.svg; do
    [ -s "$T/all/$f" ] || fail "plot all did not write $f"
done

# ---- no overwrite without --force ----
cp "$T/mma.svg" "$T/keep.svg"
run $G plot mma --arch "$ARCH" -o "$T/mma.svg"; expect_rc 2 "no clobber"
expect_err_lines 1 "no clobber"; expect_err 'already exists; refusing to overwrite' "no clobber"
cmp -s "$T/mma.svg" "$T/keep.svg" || fail "mma.svg changed without --force"
run $G plot mma --arch "$ARCH" -o "$T/mma.svg" --force; expect_rc 0 "--force"
ls "$T"/*.tmp.* >/dev/null 2>&1 && fail "temporary files left behind"

# ---- bad input: one line, exit 2 ----
run $G plot hist --trace "$TR/mma.csv" -o "$T/x.svg"; expect_rc 2 "wrong bench"
expect_err_lines 1 "wrong bench"; expect_err "mma.csv: bench 'mma' is not a pchase_fine trace" "wrong bench"
printf '# gpucal-trace: 1\n# bench: pchase\npath,pattern,array_bytes\nl1,seq,4096\n' >"$T/cols.csv"
run $G plot latency --trace "$T/cols.csv" -o "$T/x.svg"; expect_rc 2 "missing column"
expect_err_lines 1 "missing column"; expect_err 'cols.csv:3' "missing column"
printf '# gpucal-trace: 1\n# bench: pchase_fine\nsm,array_bytes,stride_bytes,step,offset_bytes,latency_cyc\n0,1,1,0,0,abc\n' >"$T/num.csv"
run $G plot hist --trace "$T/num.csv" -o "$T/x.svg"; expect_rc 2 "bad number"
expect_err_lines 1 "bad number"; expect_err 'num.csv:4:[0-9]+: ' "bad number"
run $G plot hist --trace "$T/nope.csv" -o "$T/x.svg"; expect_rc 2 "no file"; expect_err_lines 1 "no file"
run $G plot mma --arch no-such-arch -o "$T/x.svg"; expect_rc 2 "bad arch"
expect_err "no shipped arch named 'no-such-arch'" "bad arch"
run $G plot mma --arch "$GC_SRC/tests/fixtures/arch/bad/nan.yaml" -o "$T/x.svg"; expect_rc 2 "malformed arch"
expect_err_lines 1 "malformed arch"
run $G plot latency -o "$T/x.svg"; expect_rc 2 "latency no input"
run $G plot heatmap --trace "$TR/mma.csv"; expect_rc 2 "no -o"; expect_err 'needs -o DIR' "no -o"
run $G plot pie -o "$T/x.svg"; expect_rc 2 "unknown chart"; expect_err "unknown chart 'pie'" "unknown chart"
run $G plot; expect_rc 2 "no chart"
[ -e "$T/x.svg" ] && fail "a failed plot wrote x.svg"
finish
