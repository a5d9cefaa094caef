#!/bin/sh
# promises.sh - the README's promises on bad input, one case per class of
# issue 18: a numeric trace of another GPU in the folder, bad header values,
# arch values outside their physical bounds, an output that is an input or
# another output (any spelling), an endless input, a symlink loop, a
# duplicate clock row, stray arguments, an impossible output. Each: exit 2,
# one line on stderr naming the file and line (or the argument), and no
# output file left behind.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
H=$GC_SRC/traces/h100
# bad CMD...: exit 2, one stderr line matching $want, no file at $nofile
bad() {
    run "$@"
    expect_rc 2 "$what"
    expect_err_lines 1 "$what"
    expect_err "$want" "$what"
    [ -z "${nofile:-}" ] || [ ! -e "$nofile" ] || fail "$what: left $nofile behind"
}
cp -r "$H" "$T/t1"
sed -i 's/^# device: .*/# device: NVIDIA H200/' "$T/t1/numeric.csv"
what="numeric trace of another GPU" want='t1/numeric.csv:3:[0-9]+: device differs' nofile=$T/o1.yaml
bad $G calib "$T/t1" -o "$T/o1.yaml" --name x
cp "$H/bw.csv" "$T/cc.csv"
sed -i 's/^# cc: .*/# cc: 9.0abc/' "$T/cc.csv"
what="cc 9.0abc" want="cc.csv:[0-9]+:[0-9]+: cc '9.0abc' is not a compute capability" nofile=
bad $G trace check "$T/cc.csv"
cp -r "$H" "$T/t3"
sed -i 's/^# l2_bytes: .*/# l2_bytes: 1e308/' "$T/t3/bw.csv"
what="l2_bytes 1e308" want="t3/bw.csv:[0-9]+:[0-9]+: l2_bytes '1e308' must be a whole number" nofile=$T/o3.yaml
bad $G calib "$T/t3" -o "$T/o3.yaml" --name x
sed 's/^    bw_gbs: {value: [0-9.]*/    bw_gbs: {value: 1e-300/' "$GC_SRC/arch/hopper-h100.yaml" >"$T/a3.yaml"
what="arch bandwidth 1e-300" want='a3.yaml:[0-9]+:[0-9]+: memory.dram.bw_gbs: 1e-300 is out of range' nofile=
bad $G predict gemm --m 1024 --n 1024 --k 1024 --dtype f16 --arch "$T/a3.yaml"
mkdir -p "$T/x"
what="near map = -o by another spelling" want="--near-map .* and -o .* name the same file" nofile=$T/x/s.yaml
bad $G calib "$H" -o "$T/x/s.yaml" --near-map "$T/x/./s.yaml" --name y
cp -r "$H" "$T/t5"
cp "$T/t5/clock.csv" "$T/clock.keep"
what="output is an input" want="t5/clock.csv: is the input .*t5/clock.csv of this command" nofile=
bad $G calib "$T/t5" -o "$T/t5/clock.csv" --force --name y
cmp -s "$T/t5/clock.csv" "$T/clock.keep" || fail "calib -o onto an input trace changed it"
ln -s "$T/t5/clock.csv" "$T/link.yaml"
what="output is an input through a symlink" want="link.yaml: is the input .*t5/clock.csv of this command" nofile=
bad $G calib "$T/t5" -o "$T/link.yaml" --force --name y
cmp -s "$T/t5/clock.csv" "$T/clock.keep" || fail "calib -o onto a link to an input changed it"
what="endless input" want='^/dev/zero:1:1: control byte 0x00' nofile=
bad timeout 60 $G trace check /dev/zero
ln -s loop "$T/loop"
what="symlink loop" want='loop: cannot open: Too many levels of symbolic links' nofile=
bad $G trace check "$T/loop"
cp -r "$H" "$T/t9"
grep -v '^# end' "$H/clock.csv" >"$T/t9/clock.csv"
n=$(grep -vc '^#' "$T/t9/clock.csv") # the rows + the header = the rows after one more
grep '^idle,' "$T/t9/clock.csv" | sed 's/^idle,[0-9.]*/idle,1979.0/' >>"$T/t9/clock.csv"
echo "# end: $n" >>"$T/t9/clock.csv"
what="duplicate clock row" want="t9/clock.csv:[0-9]+:[0-9]+: load 'idle' given twice" nofile=$T/o9.yaml
bad $G calib "$T/t9" -o "$T/o9.yaml" --name x
what="stray argument" want="gpucal emulate check: unexpected argument 'junk'" nofile=
bad $G emulate check --arch hopper-h100 junk
what="impossible output" want='/nonexistent-gpucal/dir/o.yaml' nofile=
bad $G calib "$H" -o /nonexistent-gpucal/dir/o.yaml --name z
finish
