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
svg "$T/lat.svg" 'Load latency vs array size (P-chase)' 'array size (KiB)' 'latency (cycles)' \
    'Test GPU (synthetic), global seq' 'test-export (arch file: L1, L2, DRAM)'
# minimal.yaml has no L1/L2/DRAM latencies: no line for it
grep -qF 'test-minimal (arch file' "$T/lat.svg" && fail "latency: a line for an arch without latencies"
run $G plot latency --arch "$ARCH" -o "$T/new/dir/lat-arch.svg"; expect_rc 0 "latency arch only"
svg "$T/new/dir/lat-arch.svg" 'Load latency vs array size (P-chase)' 'array size (KiB)' 'latency (cycles)'

# ---- ILP x warps heat maps, one per form; scope=gpu rows left out ----
run $G plot heatmap --trace "$TR/mma.csv" -o "$T/hm"; expect_rc 0 heatmap
expect_out "^wrote 2 heat maps to $T/hm$" heatmap
svg "$T/hm/heatmap-mma-m16n8k16-f16_f32-rand.svg" \
    'mma m16n8k16 f16.f32 rand: throughput over ILP x warps (Test GPU (synthetic))' \
    'warps per SM' 'ILP (independent instructions per warp)' 'throughput (FMA/clk/SM)' '506'
svg "$T/hm/heatmap-mma-m16n8k8-f16_f32-rand.svg" \
    'mma m16n8k8 f16.f32 rand: throughput over ILP x warps (Test GPU (synthetic))'
# 4 warps values x 4 ILP values: 16 cells with their values as text
[ "$(grep -c '<text>[0-9][0-9]*</text>' "$T/hm/heatmap-mma-m16n8k16-f16_f32-rand.svg")" -ge 16 ] ||
    fail "heatmap: fewer than 16 cell labels"

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
svg "$T/mma.svg" 'mma completion latency per form' 'mma peak throughput per form' \
    'latency (cycles)' 'peak (FMA/clk/SM)' 'instruction form (inst shape A.C)' \
    'test-export' 'test-minimal'
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
