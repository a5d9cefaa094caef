#!/bin/sh
# arch_cache.sh - the compiled arch cache (arch/arch_cache.h) never changes an
# answer: with the cache off, on a cold cache and on a warm one, every
# shipped arch shows and predicts the same bytes; a warm image is used (not
# rewritten); a corrupt or truncated image, an edited YAML and a bad YAML
# fall back to the YAML (same output, same error) and a corrupt image is
# replaced; the images used last are kept, the others pruned at a write;
# GPUCAL_CACHE_DIR=off writes nothing; a small file is not cached.
# Needs $GPUCAL and $GC_SRC.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
C=$T/cache
H=$T/h100.yaml
cp "$GC_SRC/arch/hopper-h100.yaml" "$H"
gemm() { $G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch "$@" --format json; }
inode() { ls -i "$1" | cut -d' ' -f1; }

# the same answers with the cache off, cold and warm, for every shipped arch
for a in "$GC_SRC"/arch/*.yaml; do
    b=$(basename "$a" .yaml)
    GPUCAL_CACHE_DIR=off $G arch show "$a" --format json >"$T/off.json" 2>&1
    GPUCAL_CACHE_DIR=off gemm "$a" >>"$T/off.json" 2>&1
    for pass in cold warm; do
        GPUCAL_CACHE_DIR=$C $G arch show "$a" --format json >"$T/$pass.json" 2>&1
        GPUCAL_CACHE_DIR=$C gemm "$a" >>"$T/$pass.json" 2>&1
        cmp -s "$T/off.json" "$T/$pass.json" || fail "$b: $pass cache output differs"
    done
done
[ "$(ls "$C" | wc -l)" -ge 1 ] || fail "no image written for the large shipped files"

# a warm image is read, not rewritten
run env GPUCAL_CACHE_DIR=off $G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch "$H"
cp "$out" "$T/ref.out"
GPUCAL_CACHE_DIR=$C gemm "$H" >/dev/null
img=$(ls "$C"/arch-*.bin | head -n 1)
n0=$(ls "$C" | wc -l)
GPUCAL_CACHE_DIR=$C gemm "$H" >/dev/null
[ "$(ls "$C" | wc -l)" -eq "$n0" ] || fail "one path, one image: $(ls "$C" | wc -l) images"
for f in "$C"/arch-*.bin; do i0="$i0 $(inode "$f")"; done
run env GPUCAL_CACHE_DIR=$C $G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch "$H"
cmp -s "$out" "$T/ref.out" || fail "warm: output differs"
for f in "$C"/arch-*.bin; do i1="$i1 $(inode "$f")"; done
[ "$i0" = "$i1" ] || fail "warm: an image was rewritten (not used)"

# every image corrupt in the middle, or truncated: the YAML's answer, image replaced
for f in "$C"/arch-*.bin; do
    printf 'XXXXXXXX' | dd of="$f" bs=1 seek=200000 conv=notrunc 2>/dev/null
done
run env GPUCAL_CACHE_DIR=$C $G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch "$H"
expect_rc 0 "corrupt image"
cmp -s "$out" "$T/ref.out" || fail "corrupt image: output differs"
for f in "$C"/arch-*.bin; do
    head -c 1000 "$f" >"$T/trunc" && cat "$T/trunc" >"$f"
done
run env GPUCAL_CACHE_DIR=$C $G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch "$H"
cmp -s "$out" "$T/ref.out" || fail "truncated image: output differs"
run env GPUCAL_CACHE_DIR=$C $G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch "$H"
cmp -s "$out" "$T/ref.out" || fail "replaced image: output differs"

# the YAML edited after its image was written: the new values count
sed 's/^device: .*/device: Edited H100/' "$H" >"$T/e" && cat "$T/e" >"$H"
run env GPUCAL_CACHE_DIR=$C $G arch show "$H" --format json
grep -q '"device": "Edited H100"' "$out" || fail "edited YAML: stale image used"

# a settled YAML (times 2 s and more in the past) is recognised by its stat
# (device, inode, mtime, ctime): an edit of the same size with its mtime set
# back still moves its ctime, and the new values count
S=$T/settled.yaml
touch -d '1 hour ago' "$T/stamp"
cp "$GC_SRC/arch/hopper-h100.yaml" "$S" && touch -r "$T/stamp" "$S"
sleep 3 # its ctime settles too
GPUCAL_CACHE_DIR=$C $G arch show "$S" --format json >"$T/s.cold" 2>&1
GPUCAL_CACHE_DIR=$C $G arch show "$S" --format json >"$T/s.warm" 2>&1
cmp -s "$T/s.cold" "$T/s.warm" || fail "settled YAML: warm output differs"
sed 's/H100/H1X0/' "$S" >"$T/e" && cat "$T/e" >"$S" && touch -r "$T/stamp" "$S"
[ "$(wc -c <"$S")" -eq "$(wc -c <"$GC_SRC/arch/hopper-h100.yaml")" ] || fail "test: size changed"
run env GPUCAL_CACHE_DIR=$C $G arch show "$S" --format json
grep -q 'H1X0' "$out" || fail "settled YAML edited in place, mtime set back: stale image used"

# a large bad YAML: the same error with the cache on, and no image for it
sed 's/^sm:$/sm:\n  count: {value: -3}/' "$H" >"$T/bad.yaml"
n0=$(ls "$C" | wc -l)
GPUCAL_CACHE_DIR=off $G arch show "$T/bad.yaml" >"$T/bad.off" 2>&1
echo "exit $?" >>"$T/bad.off"
GPUCAL_CACHE_DIR=$C $G arch show "$T/bad.yaml" >"$T/bad.on" 2>&1
echo "exit $?" >>"$T/bad.on"
cmp -s "$T/bad.off" "$T/bad.on" || fail "bad YAML: cache changes the error"
grep -q "exit 2" "$T/bad.on" || fail "bad YAML: not refused ($(cat "$T/bad.on"))"
[ "$(ls "$C" | wc -l)" -eq "$n0" ] || fail "bad YAML: an image was written"

# a write keeps the 32 images used last: 40 old ones and a dead writer's
# temporary file, then a new image: the old ones go first, the new one stays
P=$T/prune
mkdir -p "$P"
for i in $(seq 40); do
    echo x >"$P/arch-$(printf '%032x' "$i").bin"
done
echo x >"$P/.arch-dead00"
echo x >"$P/arch-notes.txt" # not a name the cache writes: left alone
touch -a -m -d '2 days ago' "$P"/arch-*.bin "$P/.arch-dead00" "$P/arch-notes.txt"
cp "$GC_SRC/arch/hopper-h100.yaml" "$T/p.yaml"
run env GPUCAL_CACHE_DIR=$P $G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch "$T/p.yaml"
expect_rc 0 "pruning"
[ "$(ls "$P" | grep -c '^arch-.*\.bin$')" -eq 32 ] ||
    fail "pruning: $(ls "$P" | grep -c '^arch-.*\.bin$') images kept, not 32"
[ "$(ls "$P" | grep '^arch-.*\.bin$' | grep -vc '^arch-0000000000')" -eq 1 ] ||
    fail "pruning: the new image was removed"
[ ! -e "$P/.arch-dead00" ] || fail "pruning: a dead writer's temporary file stayed"
[ -e "$P/arch-notes.txt" ] || fail "pruning: removed a file the cache did not write"

# off writes nothing; a small file is never cached
run env GPUCAL_CACHE_DIR=off $G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch "$H"
expect_rc 0 "cache off"
run env GPUCAL_CACHE_DIR="$T/small" $G arch show "$GC_SRC/arch/turing-rtx2080ti.yaml"
[ ! -d "$T/small" ] || [ "$(ls "$T/small" | wc -l)" -eq 0 ] || fail "small file cached"
finish
