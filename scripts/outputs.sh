#!/bin/sh
# outputs.sh GPUCAL OUTDIR - write every user-visible output of gpucal that
# does not need a GPU into OUTDIR, one file per command, so that two builds
# can be compared with `diff -r` (a refactor must leave the diff empty):
# calib of the committed traces, predictions of every shipped kernel
# description and of the templates on every arch, exports, comparisons,
# arch dumps, plots, the emulator check and every --help text.
# Usage: sh scripts/outputs.sh build/gpucal /tmp/out-before
set -u
G=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
O=$2
cd "$(dirname "$0")/.."
mkdir -p "$O"
run() { # run NAME CMD... : stdout, stderr and status into $O/NAME
    name=$1
    shift
    "$@" >"$O/$name.out" 2>"$O/$name.err"
    echo "exit $?" >>"$O/$name.out"
}
archs=$(ls arch/*.yaml | sed 's|arch/||; s|\.yaml$||')
for a in $archs; do
    run "arch-show-$a" "$G" arch show "$a"
    run "arch-json-$a" "$G" arch show "$a" --format json
    run "export-$a" "$G" export accel-sim --arch "$a" -o "$O/export-$a" --force
done
for t in traces/*/; do
    d=$(basename "$t")
    run "calib-$d" "$G" calib "$t" -o "$O/calib-$d.yaml" --name "hopper-$d" --force
    sed -i '/^  command:/d; /^  date:/d' "$O/calib-$d.yaml" 2>/dev/null
done
for k in model/kernels/*.yaml; do
    b=$(basename "$k" .yaml)
    for a in hopper-h100 ada-rtx4090 ampere-a100; do
        run "predict-$b-$a" "$G" predict "$k" --arch "$a"
        run "predict-$b-$a-json" "$G" predict "$k" --arch "$a" --format json
    done
done
for a in $archs; do
    for dt in f16 bf16 tf32 f32 f8e4m3 i8; do
        for s in "8192 8192 8192" "4096 4096 4096" "1024 1024 1024" "256 256 16384" \
                 "16 4096 4096" "1 4096 4096" "4095 4095 4095" "128 128 128"; do
            set -- $s
            run "gemm-$a-$dt-$1x$2x$3" "$G" predict gemm --m "$1" --n "$2" --k "$3" \
                --dtype "$dt" --arch "$a" --format json
        done
    done
    for op in copy triad reduce; do
        for b in 16 1048576 536870912; do
            run "stream-$a-$op-$b" "$G" predict stream --op "$op" --bytes "$b" --arch "$a"
        done
    done
done
run compare-md "$G" compare $archs
run compare-csv "$G" compare $archs --format csv
run compare-match "$G" compare ampere-a100 hopper-h100 --match l2 --match tensor
run plot-all "$G" plot all --traces traces/h100 --arch ampere-a100 --arch hopper-h100 \
    -o "$O/plots" --force
run emulate-check "$G" emulate check --arch hopper-h100
run schema "$G" arch schema
run keys "$G" export keys
for c in measure trace calib arch predict export compare plot emulate; do
    run "help-$c" "$G" help "$c"
done
run help "$G" --help
# paths of this run's folder differ between runs: keep them out of the diff
grep -rl "$O" "$O" 2>/dev/null | while read -r f; do sed -i "s|$O|OUT|g" "$f"; done
# so do the names of gnuplot's temporary scripts (mkstemp) in its warnings
grep -rl "gpucal-plot-" "$O" 2>/dev/null | while read -r f; do
    sed -i "s|/gpucal-plot-[A-Za-z0-9]*|/gpucal-plot-XXXXXX|g" "$f"
done
exit 0
