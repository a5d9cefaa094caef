# the loops of every function in a `cuobjdump -sass` listing and the loads in
# each: "FUNC: loop 0xA-0xB, N instructions, LDS x, LDG y" (a loop: the code
# from a backward branch's target to the branch)
function hex(s,    i, v, c) {
    v = 0; s = tolower(s); sub(/^0x/, "", s)
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)); if (!c) break; v = v * 16 + c - 1 }
    return v
}
/Function :/ { fn = $3; n = 0; next }
/^ +\/\*[0-9a-f]+\*\/ / {
    a = $0; sub(/^ +\/\*/, "", a); sub(/\*\/.*/, "", a)
    line = $0; sub(/^ +\/\*[0-9a-f]+\*\/ +/, "", line); sub(/ *;.*/, "", line)
    n++; ad[n] = hex(a); ins[n] = line
    if (match(line, /BRA 0x[0-9a-f]+/)) {
        t = hex(substr(line, RSTART + 4, RLENGTH - 4))
        if (t <= ad[n]) {
            lds = 0; ldg = 0; cnt = 0
            for (i = 1; i <= n; i++) if (ad[i] >= t) { cnt++; if (ins[i] ~ /LDS/) lds++; if (ins[i] ~ /LDG/) ldg++ }
            if (lds + ldg) printf "%s: loop 0x%x-0x%x, %d instructions, LDS %d, LDG %d\n", fn, t, ad[n], cnt, lds, ldg
            else printf "%s: loop 0x%x-0x%x, %d instructions, no loads\n", fn, t, ad[n], cnt
        }
    }
}
