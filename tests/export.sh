#!/bin/sh
# export.sh - `gpucal export`: the golden export of the fixture arch, every
# shipped arch either exports a config the validator accepts or is refused
# with one line naming the missing key, no overwrite without --force, bad
# arch input, usage errors, the key table in model/export/export.md is current, and
# the validator on the simulator's own reference configs (when present).
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
FX=$GC_SRC/tests/fixtures/export
ARCH=$FX/arch/test-export.yaml
REF=$GC_SRC/../shared/reference/accel-sim

# ---- the golden export (the version line aside) ----
run $G export accel-sim --arch "$ARCH" -o "$T/gold"; expect_rc 0 golden
expect_out '^wrote .*/gold/gpgpusim.config and .*/gold/trace.config for test-export: 120 options' golden
expect_err_lines 0 "golden (16 channels: IPOLY, no fallback warning)"
for f in gpgpusim.config trace.config; do
    sed 's/^# written by gpucal [^ ]* /# written by gpucal V /' "$T/gold/$f" >"$T/got"
    sed 's/^# written by gpucal [^ ]* /# written by gpucal V /' "$FX/golden/$f" >"$T/want"
    cmp -s "$T/got" "$T/want" || fail "golden $f differs: $(diff "$T/want" "$T/got" | head -5)"
done
run $G export --check "$T/gold/gpgpusim.config" "$T/gold/trace.config"
expect_rc 0 "check golden"; expect_out '^ok: 2 files, 120 options$' "check golden"
# every option of the simulator's SM86 reference configs is in the export
grep -v '^#' "$FX/sm86-keys.txt" | while read -r file key; do
    grep -q -- "^$key " "$T/gold/$file" || echo "$file lacks $key"
done >"$T/lacks"
[ -s "$T/lacks" ] && fail "export lacks reference keys: $(head -3 "$T/lacks")"
# every option line is preceded by where its value comes from
awk '/^-/ && prev !~ /^# / { bad++ } { prev = $0 } END { exit bad > 0 }' "$T/gold/gpgpusim.config" ||
    fail "an option without its source comment"

# ---- no overwrite without --force; --force replaces ----
echo "# mine" >"$T/gold/trace.config"
run $G export accel-sim --arch "$ARCH" -o "$T/gold"; expect_rc 2 "no clobber"
expect_err_lines 1 "no clobber"; expect_err "already exists; refusing to overwrite" "no clobber"
[ "$(cat "$T/gold/trace.config")" = "# mine" ] || fail "trace.config was overwritten without --force"
run $G export accel-sim --arch "$ARCH" -o "$T/gold" --force; expect_rc 0 force
grep -q '^-specialized_unit_3 1,4,29,4,4,TENSOR$' "$T/gold/trace.config" || fail "--force did not replace"

# ---- options ----
run $G export accel-sim --arch "$ARCH" -o "$T/c" --clock tensor; expect_rc 0 "--clock tensor"
grep -q '^-gpgpu_clock_domains 1650:1650:1650:3500.5$' "$T/c/gpgpusim.config" || fail "--clock tensor"
run $G export accel-sim --arch "$ARCH" -o "$T/f" --form 'mma m16n8k8 f16.f32'; expect_rc 0 "--form"
grep -q '^-trace_opcode_latency_initiation_tensor 14,9$' "$T/f/trace.config" || fail "--form"
run $G export accel-sim --arch "$ARCH" -o "$T/x" --clock turbo; expect_rc 2 "bad clock"
expect_err_lines 1 "bad clock"; expect_err "unknown --clock 'turbo'" "bad clock"
run $G export accel-sim -o "$T/x"; expect_rc 2 "no arch"; expect_err "needs --arch" "no arch"
run $G export accel-sim --arch "$ARCH"; expect_rc 2 "no out"; expect_err "needs -o DIR" "no out"
run $G export accel-sim --arch "$ARCH" -o "$T/x" --bogus; expect_rc 2 "bad option"
expect_err "unknown option '--bogus'" "bad option"
run $G export; expect_rc 2 "no mode"; expect_err_lines 1 "no mode"
run $G export gpgpusim; expect_rc 2 "unknown mode"; expect_err "unknown mode 'gpgpusim'" mode
run $G export --check; expect_rc 2 "check nothing"
[ -e "$T/x" ] && fail "a failed export left $T/x behind"

# ---- --traces: the microbenchmark traces beside the configs ----
run $G export accel-sim --arch "$ARCH" -o "$T/tr" --traces; expect_rc 0 "--traces"
expect_out "^wrote [0-9]+ microbenchmark traces" "--traces"
M=$T/tr/traces/manifest.tsv
[ -f "$M" ] || fail "--traces wrote no manifest"
# every benchmark of the manifest has its kernel list and two kernels, with a figure > 0
awk -F'\t' '!/^#/ && $1 != "bench" && !($3 > 0) { bad++ } END { exit bad > 0 }' "$M" ||
    fail "a manifest row without a positive figure"
for b in $(awk -F'\t' '!/^#/ && $1 != "bench" { print $1 }' "$M"); do
    for f in kernelslist.g kernel-1.traceg kernel-2.traceg; do
        [ -s "$T/tr/traces/$b/$f" ] || fail "--traces: $b lacks $f"
    done
    grep -q '^-binary version = 80$' "$T/tr/traces/$b/kernel-1.traceg" || fail "$b: binary version"
done
grep -q '^hmma_chain	cyc	32.6	' "$M" || fail "hmma_chain figure (tensor latency 32.6)"
grep -q '^l2_chase	cyc	210	' "$M" || fail "l2_chase figure (near_hit 210)"
run $G export accel-sim --arch "$ARCH" -o "$T/tr" --traces; expect_rc 2 "--traces no clobber"
expect_err "manifest.tsv already exists; refusing to overwrite|already exists; refusing" "--traces no clobber"
run $G export accel-sim --arch "$ARCH" -o "$T/tr" --traces --force; expect_rc 0 "--traces --force"

# ---- bad arch input: one line, exit 2, nothing written ----
run $G export accel-sim --arch no-such-arch -o "$T/bad"; expect_rc 2 "unknown arch"
expect_err_lines 1 "unknown arch"; expect_err "no shipped arch named 'no-such-arch'" "unknown arch"
run $G export accel-sim --arch "$GC_SRC/tests/fixtures/arch/bad/nan.yaml" -o "$T/bad"
expect_rc 2 "malformed arch"; expect_err_lines 1 "malformed arch"; expect_err 'nan.yaml:[0-9]+:[0-9]+: ' "malformed arch"
grep -v 'latency_cyc: {value: 37.6' "$ARCH" >"$T/test-export.yaml"
run $G export accel-sim --arch "$T/test-export.yaml" -o "$T/bad"; expect_rc 2 "missing key"
expect_err_lines 1 "missing key"
expect_err 'test-export.yaml: memory.l1.latency_cyc is missing: the Accel-Sim export needs it for -gpgpu_l1_latency' "missing key"
sed 's/type: GDDR6$/type: LPDDR5/' "$ARCH" >"$T/test-export.yaml"
run $G export accel-sim --arch "$T/test-export.yaml" -o "$T/bad"; expect_rc 2 "memory type"
expect_err "memory.dram.type 'LPDDR5' has no DRAM model in the export" "memory type"
[ -e "$T/bad" ] && fail "a refused export wrote $T/bad"

# ---- every shipped arch (and any added later): exported and valid, or refused in one line ----
n_ok=0
for a in $($G arch list | awk '$1 != "NAME" { print $1 }'); do
    run $G export accel-sim --arch "$a" -o "$T/ship/$a"
    if [ "$rc" -eq 0 ]; then
        run $G export --check "$T/ship/$a/gpgpusim.config" "$T/ship/$a/trace.config"
        expect_rc 0 "check $a"; expect_out '^ok: 2 files, 120 options$' "check $a"
        n_ok=$((n_ok + 1))
    else
        expect_rc 2 "export $a"; expect_err_lines 1 "export $a"
        expect_err "$a.yaml: .* (is missing: the Accel-Sim export needs it for|has no DRAM model|is not|does not divide into)" "export $a"
        echo "note: $a: $(cat "$err")"
    fi
done
echo "note: $n_ok shipped arch file(s) export a valid config"
# several folders at once: one config set per folder, each checked on its own
sets=$(ls -d "$T"/ship/*/ 2>/dev/null | head -n 2)
if [ "$(echo "$sets" | wc -w)" -eq 2 ]; then
    # shellcheck disable=SC2046
    run $G export --check $(for d in $sets; do echo "${d}gpgpusim.config ${d}trace.config"; done)
    expect_rc 0 "check two sets"
    [ "$(grep -c ': 2 files, 120 options$' "$out")" -eq 2 ] || fail "check two sets: expected two ok lines"
fi
case " $($G arch list | awk '{print $1}' | tr '\n' ' ') " in
*" ampere-a100 "*)
    run $G export accel-sim --arch ampere-a100 -o "$T/a100"; expect_rc 0 "ampere-a100 exports"
    expect_err 'warning: 80 memory channels: the IPOLY partition hash needs 16, 32 or 64' "a100 IPOLY fallback"
    grep -q '^-gpgpu_memory_partition_indexing 0$' "$T/a100/gpgpusim.config" || fail "a100 indexing"
    ;;
esac

# ---- the key table of model/export/export.md is what `gpucal export keys` prints ----
$G export keys >"$T/keys.md" || fail "gpucal export keys failed"
sed -n '/^<!-- generated by `gpucal export keys`/,$p' "$GC_SRC/model/export/export.md" >"$T/doc.md"
cmp -s "$T/keys.md" "$T/doc.md" ||
    fail "model/export/export.md is out of date: regenerate its Keys section with \`gpucal export keys\`"

# ---- the simulator's own configs ----
if [ -f "$REF/SM86_RTX3070.gpgpusim.config" ]; then
    run $G export --check "$REF/SM86_RTX3070.gpgpusim.config" "$REF/SM86_RTX3070.trace.config"
    expect_rc 0 "SM86 reference"; expect_out '^ok: 2 files, 120 options$' "SM86 reference"
    run $G export --check "$REF/SM90_H100.h100-test.gpgpusim.config"; expect_rc 2 "H100 reference"
    expect_err 'IPOLY indexing \(2\) needs 16, 32 or 64 memory channels, -gpgpu_n_mem is 80' "H100 reference"
    run $G export --check "$REF/SM90_H100.trace.config"; expect_rc 2 "H100 trace reference"
    expect_err 'initiation interval 0 must be positive' "H100 trace reference"
    # gpucal's compiled-in option list is the reference list
    grep -v '^#' "$FX/option-names.txt" >"$T/names"
    cmp -s "$T/names" "$REF/option-names.txt" || fail "tests/fixtures/export/option-names.txt differs from the reference"
else
    echo "note: shared reference configs not found beside the source: their checks skipped"
fi
finish
