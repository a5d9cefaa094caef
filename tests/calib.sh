#!/bin/sh
# calib.sh - `gpucal calib` from the command line: a synthetic trace folder
# with known ground truth (written by test_calib --write, the generator the C
# test checks) -> an arch file that validates with a source on every value;
# one progress line per bench; refusal to overwrite without --force; the same
# command reproduces the file byte for byte; --name; --near-map; folder-level
# and trace-level errors as one line and exit 2.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
GEN=${GC_TMP:-.}/test_calib
[ -x "$GEN" ] || { echo "FAIL: $GEN (the trace generator) is not built"; exit 1; }
"$GEN" --write "$T/synth" || { echo "FAIL: test_calib --write"; exit 1; }

# the calibration: exit 0, one progress line per bench, then the file
run $G calib "$T/synth" -o "$T/h.yaml" --name synth-h100
expect_rc 0 calib
for b in mma wgmma alu ldmatrix smem tma dsm dpx pchase pchase_fine bw clock; do
    expect_err "^calib: $T/synth/$b\.csv: " "progress line of $b"
done
expect_err "^calib: no mma_sp trace in $T/synth: tensor entries of mma.sp left out$" "missing bench"
expect_err "^calib: wrote $T/h.yaml$" wrote
[ -s "$out" ] && fail "calib printed on stdout"
run $G arch validate --require-sources "$T/h.yaml"
expect_rc 0 "validate the output"
expect_out 'ok \(synth-h100, [0-9]+ values, ([0-9]+) with a source\)' validate
# the emitter folds long lines: join them before looking
tr '\n' ' ' <"$T/h.yaml" | sed 's/  */ /g' >"$T/h.flat"
grep -q 'near_hit_cyc: {value: 257.96, ci95: \[257.69, 258.23\], source: .*pchase_fine.csv: k-means cluster 1 of 2 of the hit regime (near hit), arrays 8 MiB' "$T/h.flat" ||
    fail "near_hit_cyc (value, interval, source) not as expected"
grep -q ' sub_cores: {value: 4, source: [^}]*mma.csv: slot count of the gc_pipe_cycles fits, chosen by residual: 3 of the 3 warp-level' "$T/h.flat" ||
    fail "sm.sub_cores not fitted to 4"
grep -q "command: gpucal calib $T/synth -o $T/h.yaml --name synth-h100" "$T/h.flat" ||
    fail "provenance command"

# no overwrite without --force: exit 2, one line, the file untouched
cp "$T/h.yaml" "$T/h.saved"
touch -d '2001-01-01' "$T/h.yaml"
run $G calib "$T/synth" -o "$T/h.yaml" --name synth-h100
expect_rc 2 "no --force"
expect_err_lines 1 "no --force"
expect_err "h.yaml: already exists; refusing to overwrite it \(pass --force" "no --force"
[ "$(find "$T/h.yaml" -newer "$T/h.saved")" = "" ] || fail "h.yaml was touched without --force"

# the same command with --force: byte for byte the same file
run $G calib "$T/synth" -o "$T/h.yaml" --name synth-h100 --force --quiet
expect_rc 0 "--force"
cmp -s "$T/h.yaml" "$T/h.saved" || fail "re-running the command changed the file"
[ -s "$err" ] && fail "--quiet still printed: $(head -c 200 "$err")"

# --name: default from the file's stem; a bad one is a usage error
run $G calib "$T/synth" -o "$T/ada-test.yaml" -q
expect_rc 0 "default name"
grep -q '^name: ada-test$' "$T/ada-test.yaml" || fail "name from the output stem"
run $G calib "$T/synth" -o "$T/Bad_Name.yaml"
expect_rc 2 "bad stem"; expect_err "give --name NAME" "bad stem"
run $G calib "$T/synth" -o "$T/x.yaml" --name 'No Way'
expect_rc 2 "bad --name"; expect_err "--name 'No Way': use lower case" "bad --name"
[ -e "$T/x.yaml" ] && fail "a bad --name wrote a file"

# --near-map: the per-SM near/far ranges; no clobber either
run $G calib "$T/synth" -o "$T/m.yaml" --near-map "$T/near.csv" -q
expect_rc 0 near-map
head -1 "$T/near.csv" | grep -q '^sm,array_bytes,offset_lo,offset_hi,partition,accesses$' ||
    fail "near map header"
grep -q '^0,8388608,0,4096,far,128$' "$T/near.csv" || fail "near map: SM 0's first 4 KiB run"
run $G calib "$T/synth" -o "$T/m2.yaml" --near-map "$T/near.csv"
expect_rc 2 "near-map exists"; expect_err "near.csv: already exists" "near-map exists"

# usage
run $G calib; expect_rc 2 "no dir"; expect_err "give the trace folder DIR" "no dir"
run $G calib "$T/synth"; expect_rc 2 "no -o"; expect_err "give the arch file to write with -o FILE" "no -o"
run $G calib "$T/synth" -o; expect_rc 2 "-o without value"; expect_err "option '-o' needs a value" "-o"
run $G calib "$T/synth" "$T/synth" -o "$T/y.yaml"; expect_rc 2 "two dirs"
run $G calib --bogus; expect_rc 2 "bad option"; expect_err "unknown option '--bogus'" "bad option"

# --check on a good trace
run $G calib --check "$T/synth/mma.csv"
expect_rc 0 "check good"
expect_out "mma.csv: ok \(bench mma, 241 rows, Synthetic H100-like GPU \(gpucal test\) \(cc 9.0, 132 SMs\); 0 values the data cannot support\)" "check good"

# folder-level errors: one line, exit 2
mkdir "$T/empty"
run $G calib "$T/empty" -o "$T/e.yaml"
expect_rc 2 "empty folder"; expect_err_lines 1 "empty folder"
expect_err "empty: no traces \(\*\.csv\) in the folder" "empty folder"
run $G calib "$T/nowhere" -o "$T/e.yaml"
expect_rc 2 "no folder"; expect_err "nowhere: cannot open the trace folder" "no folder"
mkdir "$T/other"
printf '# gpucal-trace: 1\n# bench: numerics\n# device: X\n# cc: 9.0\n# sms: 1\na\n1\n# end: 1\n' >"$T/other/n.csv"
run $G calib "$T/other" -o "$T/e.yaml"
expect_rc 2 "no known bench"
expect_err "other: no trace of a bench calib reads" "no known bench"
[ -e "$T/e.yaml" ] && fail "a failed calibration wrote a file"

# a malformed trace in the folder: its FILE:LINE:COL, nothing written
mkdir "$T/broken"
cp "$T/synth/alu.csv" "$T/synth/clock.csv" "$T/broken/"
sed '20s/,1755.0,0$/,17x5.0,0/' "$T/synth/alu.csv" >"$T/broken/alu.csv"
run $G calib "$T/broken" -o "$T/b.yaml"
expect_rc 2 "malformed"; expect_err_lines 1 "malformed"
expect_err "broken/alu.csv:20:[0-9]+: column 'clock_mhz': expected a number, found '17x5.0'" malformed
[ -e "$T/b.yaml" ] && fail "a malformed trace still wrote a file"

# traces without an mma sweep cannot give sm.sub_cores (required): exit 1
mkdir "$T/nommma"
cp "$T/synth/clock.csv" "$T/synth/bw.csv" "$T/nommma/"
run $G calib "$T/nommma" -o "$T/n.yaml"
expect_rc 1 "no sub_cores"; expect_err "sm.sub_cores \(required by gpucal-arch/1\)" "no sub_cores"
[ -e "$T/n.yaml" ] && fail "an arch without required keys was written"

# a compressed and an interrupted trace are named and skipped
cp -r "$T/synth" "$T/mixed"
gzip -c "$T/synth/pchase_fine.csv" >"$T/mixed/extra.csv.gz"
head -20 "$T/synth/bw.csv" >"$T/mixed/bw2.csv.part"
run $G calib "$T/mixed" -o "$T/mixed.yaml"
expect_rc 0 "mixed folder"
expect_err "extra.csv.gz: skipped \(compressed: calib reads plain .csv; gunzip it first\)" gz
expect_err "bw2.csv.part: skipped \(an interrupted bench" part
# the power fit (traces/h200/clock.csv): the keys with their sources, and a
# load that drew no more than idle refused at its line
cp -r "$GC_SRC/traces/h200" "$T/pw"
run $G calib "$T/pw" -o "$T/pw.yaml" --name pw
expect_rc 0 "power fit"
expect_err "power: limit 700 W, idle 122 W, tensor energy ~ clock\^2\.47" "power line"
expect_err "operands changing every wgmma draw 1\.214 x what fixed ones do" "tensor_vary level"
grep -q 'energy_pj_byte: {value: 24.027' "$T/pw.yaml" || fail "memory.l2.energy_pj_byte not 24.027 pJ"
sed 's/^\(l2,[^,]*,[^,]*,[^,]*,[^,]*,settled,[^,]*,\)[0-9.]*,/\1100.0,/' \
    "$GC_SRC/traces/h200/clock.csv" >"$T/pw/clock.csv"
run $G calib "$T/pw" -o "$T/pw2.yaml" --name pw
expect_rc 2 "l2 load below idle"; expect_err_lines 1 "l2 load below idle"
expect_err "clock.csv:[0-9]+:1: the l2 load drew 100 W .* with 122 W idle" "l2 refused at its line"
[ -e "$T/pw2.yaml" ] && fail "calib wrote an arch file after refusing the l2 load"
sed 's/^# power_limit_w: .*/# power_limit_w: 0.5/' "$GC_SRC/traces/h200/clock.csv" >"$T/pw/clock.csv"
run $G calib "$T/pw" -o "$T/pw3.yaml" --name pw
expect_rc 2 "limit below idle"; expect_err_lines 1 "limit below idle"
expect_err "clock.csv:[0-9]+:1: power_limit_w 0.5 W is not above the idle load's draw" "limit refused at its line"
# a run with the tensor_tma load (model/validation/data/h200/power/clock_tma.csv): its
# draw against its wgmma and its copies' L2 bytes, on a progress line
cp "$GC_SRC/model/validation/data/h200/power/clock_tma.csv" "$T/pw/clock.csv"
run $G calib "$T/pw" -o "$T/pw4.yaml" --name pw
expect_rc 0 "tensor_tma load"
expect_err "clock.csv:593: the tensor_tma load drew 703 W at 1766 MHz: 130 W idle, 431 W its wgmma, 128 W the L2 reads of its copies \(4984 GB/s\), \+14 W beyond \(\+2\.9 pJ a byte copied\)" "tensor_tma check"
finish
