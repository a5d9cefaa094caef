#!/bin/sh
# bad_input.sh - the promises of README "What gpucal promises on bad input"
# that need more than one file or a special file: each case exits 2 with one
# line naming the file and line (or the argument) and writes no output.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
H=${GC_SRC:-.}/traces/h100

# one_line CASE: exit 2, one stderr line matching $1... is checked by callers
refused() { # refused WHAT REGEX: exit 2, one line matching REGEX, nothing on stdout
    expect_rc 2 "$1"
    expect_err_lines 1 "$1"
    expect_err "$2" "$1"
    [ -s "$out" ] && fail "$1: output on stdout"
}

# 1. a numeric trace of another GPU is refused like every other bench
mkdir -p "$T/mix"
cp "$H/launch.csv" "$H/clock.csv" "$T/mix/"
sed 's/^# device: .*/# device: NVIDIA A100-SXM4-80GB/' "$H/numeric.csv" >"$T/mix/numeric.csv"
run $G calib "$T/mix" -o "$T/mix.yaml" --name mix
refused "numeric of another GPU" "^$T/mix/numeric\.csv:3:3: device differs from $T/mix/clock\.csv: one folder holds the traces of one GPU"
[ -e "$T/mix.yaml" ] && fail "numeric of another GPU: wrote the arch file"

# 2. a bad header value stops calib at its line with exit 2 (not "a calib bug")
mkdir -p "$T/hdr"
cp "$H/launch.csv" "$T/hdr/"
sed 's/^# l2_bytes: .*/# l2_bytes: 1e308/' "$H/clock.csv" >"$T/hdr/clock.csv"
run $G calib "$T/hdr" -o "$T/hdr.yaml" --name hdr
refused "calib, l2_bytes 1e308" "^$T/hdr/clock\.csv:16:13: l2_bytes '1e308' must be a whole number from 65536 to 1073741824"
[ -e "$T/hdr.yaml" ] && fail "calib, l2_bytes 1e308: wrote the arch file"

# 2. a header value inside its range that no GPU of the rows' size can have
# (sms 1024 on 132-SM rows): refused at the row the impossible value came from
mkdir -p "$T/sms"
for f in "$H"/*.csv; do sed 's/^# sms: .*/# sms: 1024/' "$f" >"$T/sms/$(basename "$f")"; done
run $G calib "$T/sms" -o "$T/sms.yaml" --name sms
refused "calib, sms 1024" "^$T/sms/[a-z_]+\.csv:[0-9]+: tensor\[.*\]\.peak_tflops = [0-9.]+ TFLOP/s .* is outside its physical range"
[ -e "$T/sms.yaml" ] && fail "calib, sms 1024: wrote the arch file"

# 5. no output may be an input of the command (any spelling, a symlink)
mkdir -p "$T/in" && cp "$H/launch.csv" "$H/clock.csv" "$T/in/"
cp "$T/in/clock.csv" "$T/clock.keep" && ln -s in/clock.csv "$T/link.csv"
run $G calib "$T/in" -o "$T/in/../in/clock.csv" --name x --force
refused "calib -o an input trace" "^gpucal: $T/in/\.\./in/clock\.csv: is the input $T/in/clock\.csv of this command"
run $G calib "$T/in" -o "$T/x.yaml" --near-map "$T/link.csv" --force
refused "calib --near-map a symlink to an input" "is the input $T/in/clock\.csv of this command"
cmp -s "$T/in/clock.csv" "$T/clock.keep" || fail "calib -o an input: the trace changed"
cp "${GC_SRC:-.}/arch/hopper-h800.yaml" "$T/a.yaml"
run $G plot mma --arch "$T/a.yaml" -o "$T/./a.yaml" --force
refused "plot -o its arch" "is the input $T/a\.yaml of this command"
cmp -s "$T/a.yaml" "${GC_SRC:-.}/arch/hopper-h800.yaml" || fail "plot -o its arch: the arch changed"
run $G calib "$T/in" -o "$T/in" --name x --force
refused "calib -o a folder" "^gpucal: $T/in: is a folder; the output is a file"
run $G export accel-sim --arch hopper-h800 -o "$T/a.yaml"
refused "export -o a file" "^gpucal: $T/a\.yaml: exists and is not a folder"

# 8. endless inputs: /dev/zero at line 1, a FIFO of comment lines at the header limit
run $G trace check /dev/zero
refused "trace check /dev/zero" "^/dev/zero:1:1: control byte 0x00"
if mkfifo "$T/fifo" 2>/dev/null; then
    (yes '#' >"$T/fifo" 2>/dev/null &)
    run $G trace check "$T/fifo"
    refused "trace check FIFO" "^$T/fifo:4097: no column header in the first 4096 lines"
fi

# 4. an explicit footprint 0 is honoured as 0, distinct from "not given":
# reading 0 distinct bytes must predict as reading 1 byte, not as no footprint
kern() { # kern FILE [FOOTPRINT-LINE]
    printf 'schema: gpucal-kernel/1\nname: fp\nlaunch: {grid: 4096, block: 256, registers: 32}\n' >"$1"
    printf 'loop:\n  trips: 100\n  ops:\n    - {op: ldg, width: 16, count: 4}\n' >>"$1"
    [ -n "${2:-}" ] && printf 'footprint:\n  %s\n' "$2" >>"$1"
}
cyc() { $G predict "$1" --arch hopper-h800 --format json | sed -n 's/.*"cycles": \([0-9.e+]*\).*/\1/p' | head -1; }
kern "$T/none.yaml"
kern "$T/zero.yaml" "read_bytes: 0"
kern "$T/one.yaml" "read_bytes: 1"
c0=$(cyc "$T/zero.yaml") c1=$(cyc "$T/one.yaml") cn=$(cyc "$T/none.yaml")
# (as 1 byte: the same cycles but for that byte's DRAM time, 1e-9 relative)
[ -n "$c0" ] && awk -v a="$c0" -v b="$c1" 'BEGIN { d = a - b; exit !(d * d <= 1e-18 * b * b) }' ||
    fail "read_bytes 0 ($c0 cycles) not as 1 byte ($c1)"
awk -v a="$c0" -v n="$cn" 'BEGIN { d = a - n; exit !(d * d > 1e-12 * n * n) }' ||
    fail "read_bytes 0 taken as not given ($cn cycles)"

# 9. a symlink loop (the folder, or a trace in it): exit 2, one line
ln -s loopb "$T/loopa" && ln -s loopa "$T/loopb"
run $G calib "$T/loopa" -o "$T/loop.yaml"
refused "calib of a symlink loop" "^gpucal: $T/loopa: cannot open the trace folder: Too many levels of symbolic links"
mkdir -p "$T/lf" && cp "$H/launch.csv" "$T/lf/" && ln -s ../loopa "$T/lf/x.csv"
run $G calib "$T/lf" -o "$T/loop.yaml"
refused "calib, a trace that is a symlink loop" "^gpucal: $T/lf/x\.csv: cannot open: Too many levels"
[ -e "$T/loop.yaml" ] && fail "symlink loop: wrote the arch file"
# 9. emulate refuses stray arguments and options given twice
run $G emulate --help extra
refused "emulate --help extra" "unexpected argument 'extra'"
run $G emulate check --arch hopper-h800 --set a --set b
refused "emulate --set twice" "--set given twice"

# 5. output paths: the near map and the arch compared after resolution; a
# failed run leaves no file; an impossible -o is found before the fit
GEN=${GC_TMP:-.}/test_calib
if [ -x "$GEN" ] && "$GEN" --write "$T/synth" >/dev/null 2>&1; then
    mkdir -p "$T/o"
    run $G calib "$T/synth" -o "$T/o/s.yaml" --near-map "$T/o/./s.yaml" --name s
    refused "near map = -o through ./" "--near-map '$T/o/\./s\.yaml' and -o '$T/o/s\.yaml' name the same file"
    [ -e "$T/o/s.yaml" ] && fail "near map = -o: wrote a file"
    echo old >"$T/o/s.yaml"
    ln -s s.yaml "$T/o/sym.csv" && ln "$T/o/s.yaml" "$T/o/hard.csv"
    for m in sym hard; do
        run $G calib "$T/synth" -o "$T/o/s.yaml" --near-map "$T/o/$m.csv" --name s --force
        refused "near map = -o through a $m link" "name the same file"
    done
    [ "$(cat "$T/o/s.yaml")" = old ] || fail "near map = -o: the arch file changed"
    # a run that fails after the fine P-chase (no mma trace: sm.sub_cores is
    # required) leaves neither the map nor a temporary file
    mkdir -p "$T/nomma" && cp "$T/synth"/*.csv "$T/nomma/" && rm "$T/nomma/mma.csv"
    run $G calib "$T/nomma" -o "$T/o/f.yaml" --near-map "$T/o/f.csv" --name f
    expect_rc 1 "failed run"
    expect_err_lines 1 "failed run"
    ls "$T/o" | grep -q '^f\.' && fail "failed run left $(ls "$T/o" | grep '^f\.')"
else
    fail "test_calib --write (the synthetic traces) did not run"
fi
run $G calib "$H" -o "$T/nodir/x.yaml"
refused "-o in a missing folder" "^gpucal: $T/nodir/x\.yaml: cannot create a temporary file beside it: No such file or directory"
expect_err_lines 1 "-o in a missing folder: no progress line (found before the fit)"

finish
