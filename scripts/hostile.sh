#!/bin/sh
# hostile.sh - a sweep of hostile inputs through every command of $GPUCAL.
#
# Each case must keep the promises of README "What gpucal promises on bad
# input": exit status 2, exactly one line on stderr, no file created, changed
# or removed anywhere in the work folder (inputs and outputs alike), and no
# 'inf' or 'nan' on stdout. The inputs are generated into a temporary folder
# from the shipped traces and arch files (nothing large is committed).
#
# usage: GPUCAL=build/gpucal sh scripts/hostile.sh [-v]
# (ctest runs it through tests/hostile.sh; -v prints every case)
G=${GPUCAL:?set GPUCAL to the gpucal binary}
case $G in /*) ;; *) G=$(pwd)/$G ;; esac
SRC=${GC_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
H=$SRC/traces/h100
ARCH=$SRC/arch/hopper-h800.yaml
verbose=0
[ "${1:-}" = -v ] && verbose=1
W=$(mktemp -d "${GC_TMP:-${TMPDIR:-/tmp}}/hostile.XXXXXX") || exit 1
trap 'chmod -R u+w "$W" 2>/dev/null; rm -rf "$W"' EXIT
cases=0 fails=0

# state: every path under $W, files with their size, mtime and inode (a
# replaced or rewritten file changes one of them)
state() {
    find "$W" -path "$W/.run" -prune -o -type d -printf '%p/\n' -o -printf '%p %s %T@ %i\n' | sort
}

# hostile NAME CMD...: run CMD in $W and check the promises
hostile() {
    name=$1
    shift
    cases=$((cases + 1))
    mkdir -p "$W/.run"
    state >"$W/.run/before"
    (cd "$W" && "$@") >"$W/.run/out" 2>"$W/.run/err" </dev/null
    rc=$?
    state >"$W/.run/after"
    lines=$(wc -l <"$W/.run/err")
    why=""
    [ "$rc" -eq 2 ] || why="exit $rc, expected 2"
    [ -z "$why" ] && [ "$lines" -ne 1 ] && why="$lines lines on stderr, expected 1"
    [ -z "$why" ] && grep -Eiq '(^|[^a-z])(-?inf|nan)([^a-z]|$)' "$W/.run/out" &&
        why="inf or nan on stdout"
    [ -z "$why" ] && ! cmp -s "$W/.run/before" "$W/.run/after" &&
        why="files changed: $(diff "$W/.run/before" "$W/.run/after" | grep '^[<>]' | head -3 | tr '\n' ' ')"
    if [ -n "$why" ]; then
        fails=$((fails + 1))
        echo "FAIL: $name: $why"
        echo "  command: $*"
        sed 's/^/  stderr: /' "$W/.run/err" | head -5
    elif [ "$verbose" -eq 1 ]; then
        echo "ok: $name: $(cat "$W/.run/err")"
    fi
}

# ---- inputs ----
mkdir -p "$W/in" "$W/o"
cp "$H/launch.csv" "$H/clock.csv" "$W/in/"
cp "$ARCH" "$W/in/arch.yaml"
printf 'schema: gpucal-kernel/1\nname: k\nlaunch: {grid: 4096, block: 256, registers: 32}\nloop:\n  trips: 100\n  ops:\n    - {op: ldg, width: 16, count: 4}\n' >"$W/in/k.yaml"
K=in/k.yaml
A=in/arch.yaml

# a folder of traces: clock.csv with header KEY set to VALUE
trace_dir() { # trace_dir DIR KEY VALUE
    mkdir -p "$W/$1"
    cp "$H/launch.csv" "$W/$1/"
    sed "s/^# $2: .*/# $2: $3/" "$H/clock.csv" >"$W/$1/clock.csv"
}
# an arch file with every KEY: {value: ...} set to VALUE
arch_file() { # arch_file FILE KEY VALUE
    sed -E "s/^( *$2: \{value: )[^,}]*/\1$3/; s/^( *$2: )[0-9.e+-]+\$/\1$3/" "$ARCH" >"$W/$1"
}

# ---- 1. one folder holds the traces of one GPU ----
n=0
for t in numeric launch; do
    for kv in "device/NVIDIA A100-SXM4-80GB" "cc/8.0" "sms/108"; do
        n=$((n + 1))
        mkdir -p "$W/mix$n"
        cp "$H/launch.csv" "$H/clock.csv" "$H/numeric.csv" "$W/mix$n/"
        sed "s/^# ${kv%%/*}: .*/# ${kv%%/*}: ${kv#*/}/" "$H/$t.csv" >"$W/mix$n/$t.csv"
        hostile "calib, $t with another ${kv%%/*}" "$G" calib "mix$n" -o o/mix.yaml --name mix
    done
done

# ---- 2. header values: refused at their line by every reader ----
n=0
for key in cc sms sm_clock_mhz clock_max_mhz mem_clock_mhz l2_bytes smem_optin_bytes mem_bus_bits \
    sm_clock_end_mhz; do
    for v in 9.0abc 1e308 1e-300 -1 0 nan inf 0x10 1.5e; do
        n=$((n + 1))
        trace_dir "hdr$n" "$key" "$v"
        hostile "trace check, $key $v" "$G" trace check "hdr$n/clock.csv"
        hostile "calib --check, $key $v" "$G" calib --check "hdr$n/clock.csv"
        hostile "calib, $key $v" "$G" calib "hdr$n" -o o/hdr.yaml --name hdr
    done
done
# in range for the header, impossible for the GPU the rows measured
mkdir -p "$W/sms1024"
for f in "$H"/*.csv; do sed 's/^# sms: .*/# sms: 1024/' "$f" >"$W/sms1024/$(basename "$f")"; done
hostile "calib, sms 1024 with 132-SM rows" "$G" calib sms1024 -o o/s.yaml --name s

# ---- 3. arch values outside their physical range; predictions never inf/nan ----
n=0
for key in clock_max_mhz clock_mhz bw_gbs peak_tflops peak_fma_clk_sm latency_cyc count \
    shared_block_max_kib size_mib max_warps bw_bytes_clk_sm near_hit_cyc; do
    for v in 1e-300 1e308 -1 0 .nan .inf 1e400; do
        n=$((n + 1))
        arch_file "a$n.yaml" "$key" "$v"
        if cmp -s "$W/a$n.yaml" "$ARCH"; then
            echo "FAIL: arch key $key not found in $ARCH (the sweep is out of date)"
            fails=$((fails + 1))
            continue
        fi
        hostile "arch validate, $key $v" "$G" arch validate "a$n.yaml"
        hostile "predict text, $key $v" "$G" predict "$K" --arch "a$n.yaml"
        hostile "predict json, $key $v" "$G" predict "$K" --arch "a$n.yaml" --format json
        hostile "predict gemm, $key $v" "$G" predict gemm --m 512 --n 512 --k 512 --dtype f16 \
            --arch "a$n.yaml"
        hostile "predict stream, $key $v" "$G" predict stream --op copy --bytes 1000000 \
            --arch "a$n.yaml" --format json
        hostile "predict softmax, $key $v" "$G" predict softmax --rows 64 --cols 64 --dtype f16 \
            --arch "a$n.yaml"
        hostile "compare, $key $v" "$G" compare "a$n.yaml" "$A"
        hostile "plot roofline, $key $v" "$G" plot roofline --arch "a$n.yaml" "$K" -o o/r.svg
        hostile "export, $key $v" "$G" export accel-sim --arch "a$n.yaml" -o o/sim
    done
done

# ---- 5. output paths: never an input, never another output, never a folder ----
mkdir -p "$W/od" "$W/sub"
ln -s ../in/clock.csv "$W/sub/link.csv"
hostile "calib -o an input trace" "$G" calib in -o in/clock.csv --name x --force
hostile "calib -o an input trace via ../" "$G" calib in -o od/../in/launch.csv --name x --force
hostile "calib -o a symlink to an input" "$G" calib in -o sub/link.csv --name x --force
hostile "calib --near-map an input" "$G" calib in -o o/x.yaml --near-map in/./clock.csv --force
hostile "calib --near-map = -o via ./" "$G" calib in -o o/x.yaml --near-map o/./x.yaml
hostile "calib --near-map = -o via ../" "$G" calib in -o o/x.yaml --near-map od/../o/x.yaml
hostile "calib --near-map = -o absolute" "$G" calib in -o o/x.yaml --near-map "$W/o/x.yaml"
hostile "calib -o a folder" "$G" calib in -o od --name x --force
hostile "calib -o in a missing folder" "$G" calib in -o nodir/x.yaml --name x
hostile "calib -o through a file" "$G" calib in -o in/arch.yaml/x.yaml --name x
hostile "plot -o the arch it reads" "$G" plot mma --arch "$A" -o "$A" --force
hostile "plot -o the kernel it reads" "$G" plot roofline --arch "$A" "$K" -o in/./k.yaml --force
hostile "plot -o a folder" "$G" plot mma --arch "$A" -o od --force
hostile "plot latency -o its trace" "$G" plot latency --trace in/clock.csv -o in/clock.csv --force
hostile "plot all -o a file" "$G" plot all --arch "$A" -o in/k.yaml --force
hostile "export -o a file" "$G" export accel-sim --arch "$A" -o in/k.yaml
hostile "export -o through a file" "$G" export accel-sim --arch "$A" -o in/k.yaml/sim
if [ "$(id -u)" -ne 0 ]; then # root writes anywhere
    mkdir -p "$W/ro" && chmod 555 "$W/ro"
    hostile "calib -o in a read-only folder" "$G" calib in -o ro/x.yaml --name x
    hostile "plot -o in a read-only folder" "$G" plot mma --arch "$A" -o ro/x.svg
    hostile "export -o in a read-only folder" "$G" export accel-sim --arch "$A" -o ro/sim
fi

# ---- 9. loops, duplicates, stray and unknown arguments ----
ln -s loopb "$W/loopa" && ln -s loopa "$W/loopb"
hostile "calib of a symlink loop" "$G" calib loopa -o o/l.yaml
hostile "trace check of a symlink loop" "$G" trace check loopa
hostile "predict of a symlink loop" "$G" predict loopa --arch "$A"
hostile "arch validate of a symlink loop" "$G" arch validate loopa
mkdir -p "$W/dup" && cp "$H/launch.csv" "$W/dup/"
awk '/^[^#]/ && ++n == 2 { print; print; next } { print }' "$H/clock.csv" >"$W/dup/clock.csv"
hostile "calib, a duplicate clock row" "$G" calib dup -o o/d.yaml
hostile "predict --batch of a missing file" "$G" predict --batch nofile --arch "$A"
while IFS='|' read -r what args; do
    # shellcheck disable=SC2086 # args is a word list on purpose
    hostile "$what" "$G" $args
done <<EOF
stray: version|version extra
stray: --version|--version extra
stray: help|help calib extra
stray: trace show|trace show in/clock.csv extra
stray: trace columns|trace columns extra
stray: calib|calib in in -o o/x.yaml
stray: calib --check|calib --check in/clock.csv extra
stray: arch list|arch list extra
stray: arch show|arch show $A extra
stray: arch schema|arch schema extra
stray: predict|predict $K extra --arch $A
stray: predict gemm|predict gemm --m 8 --n 8 --k 8 --dtype f16 --arch $A extra
stray: predict stream|predict stream --op copy --bytes 8 --arch $A extra
stray: describe|describe softmax --rows 4 --cols 4 --dtype f16 --arch $A extra
stray: export|export accel-sim --arch $A -o o/sim extra
stray: export keys|export keys extra
stray: plot|plot mma --arch $A -o o/m.svg extra
stray: emulate check|emulate check --arch $A extra
stray: emulate mma|emulate mma --arch $A --form f16.f32 a b
stray: emulate --help|emulate --help extra
unknown: top level|--bogus
unknown: command|bogus
unknown: trace check|trace check --bogus
unknown: calib|calib in -o o/x.yaml --bogus
unknown: arch|arch bogus
unknown: arch list|arch list --bogus
unknown: predict|predict $K --arch $A --bogus
unknown: predict gemm|predict gemm --m 8 --n 8 --k 8 --dtype f16 --arch $A --bogus
unknown: describe|describe softmax --rows 4 --cols 4 --dtype f16 --arch $A --bogus
unknown: describe op|describe bogus --arch $A
unknown: export|export accel-sim --arch $A -o o/sim --bogus
unknown: compare|compare $A --bogus
unknown: plot|plot mma --arch $A -o o/m.svg --bogus
unknown: plot kind|plot bogus -o o/m.svg
unknown: emulate|emulate check --arch $A --bogus
no value: calib -o|calib in -o
no value: predict --arch|predict $K --arch
no value: plot -o|plot mma --arch $A -o
no value: export -o|export accel-sim --arch $A -o
no value: compare --format|compare $A --format
twice: emulate --set|emulate check --arch $A --set a --set b
twice: predict --arch|predict $K --arch $A --arch $A
bad value: predict --clock|predict $K --arch $A --clock 1e-300
bad value: predict --clock inf|predict $K --arch $A --clock inf
bad value: predict --clock nan|predict $K --arch $A --clock nan
bad value: predict --set|predict $K --arch $A --set x=1e400
bad value: gemm --m|predict gemm --m 0 --n 8 --k 8 --dtype f16 --arch $A
bad value: gemm --m huge|predict gemm --m 99999999999999999999 --n 8 --k 8 --dtype f16 --arch $A
bad value: stream --bytes|predict stream --op copy --bytes -1 --arch $A
bad value: compare --format|compare $A --format xml
missing: arch|predict $K --arch nosuch
missing: kernel|predict nosuch.yaml --arch $A
missing: trace folder|calib nodir -o o/x.yaml
missing: trace|trace check nosuch.csv
EOF

echo "hostile.sh: $cases cases, $fails failed"
[ "$fails" -eq 0 ]
