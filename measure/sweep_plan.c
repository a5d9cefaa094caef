/* sweep_plan.c - data patterns, ldmatrix and ld.shared chase layouts, bank
 * conflict addresses and number decoders (see sweep_plan.h). Pure C. */
#include <math.h>
#include <string.h>

#include "sweep_plan.h"

/* splitmix64: a small, well-mixed generator; the seed makes runs repeatable */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A float of `bits` width: sign random, exponent in {bias-4, bias-3, bias-2}
 * (magnitudes in [1/16, 1/2)), mantissa random. */
static uint32_t small_float(uint64_t r, int mant, int bias)
{
    uint32_t sign = (uint32_t)(r & 1);
    uint32_t e = (uint32_t)(bias - 4 + (int)((r >> 1) % 3));
    uint32_t m = (uint32_t)(r >> 8) & ((1u << mant) - 1);
    int ebits = mant == 2 ? 5 : mant == 3 ? 4 : mant == 7 ? 8 : mant == 10 ? 5 : 8;
    return (sign << (mant + ebits)) | (e << mant) | m;
}

int gc_sweep_fill(uint32_t *w, size_t n, const char *type, int rand, uint64_t seed)
{
    static const char *const known[] = {"f16", "bf16", "tf32", "f32", "f64", "e4m3",
                                        "e5m2", "s8",  "u8",   "s4",  "b1",  NULL};
    int k = 0;
    while (known[k] && strcmp(known[k], type))
        k++;
    if (!known[k])
        return -1;
    if (!rand) {
        memset(w, 0, n * sizeof(*w));
        return 0;
    }
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next(&s);
        uint32_t v = 0;
        if (!strcmp(type, "f16")) {
            v = small_float(r, 10, 15) | small_float(r >> 32, 10, 15) << 16;
        } else if (!strcmp(type, "bf16")) {
            v = small_float(r, 7, 127) | small_float(r >> 32, 7, 127) << 16;
        } else if (!strcmp(type, "tf32") || !strcmp(type, "f32")) {
            v = small_float(r, 23, 127);
        } else if (!strcmp(type, "f64")) {
            /* pairs of words: low mantissa, then sign|exponent|high mantissa */
            if (i % 2 == 0) {
                v = (uint32_t)r;
            } else {
                uint32_t e = (uint32_t)(1023 - 4 + (int)((r >> 1) % 3));
                v = (uint32_t)(r & 1) << 31 | e << 20 | ((uint32_t)(r >> 8) & 0xFFFFF);
            }
        } else if (!strcmp(type, "e4m3") || !strcmp(type, "e5m2")) {
            int e4 = type[1] == '4';
            for (int b = 0; b < 4; b++)
                v |= small_float(r >> (16 * b), e4 ? 3 : 2, e4 ? 7 : 15) << (8 * b);
        } else {
            v = (uint32_t)(r ^ (r >> 32)); /* s8, u8, s4, b1: every pattern */
        }
        w[i] = v;
    }
    return 0;
}

static float pow2i(int e)
{
    float f = 1.0f;
    for (; e > 0; e--)
        f *= 2.0f;
    for (; e < 0; e++)
        f *= 0.5f;
    return f;
}

float gc_half_to_float(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    float v;
    if (e == 0)
        v = (float)m * pow2i(-24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = (1.0f + (float)m / 1024.0f) * pow2i(e - 15);
    return s ? -v : v;
}

float gc_bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

int gc_ldsm_rows(int num)
{
    return 8 * num;
}

int gc_ldsm_target(int num, int t)
{
    return t % (8 * num);
}

void gc_ldsm_layout(int num, int trans, uint32_t *half)
{
    /* thread t = 4a + b receives, in register j:
     *   plain: row 8j+a, columns 2b (low half) and 2b+1 (high half)
     *   trans: rows 8j+2b (low) and 8j+2b+1 (high), column a
     * so each of the 64 halves of a matrix belongs to exactly one (t, part) */
    for (int j = 0; j < num; j++)
        for (int a = 0; a < 8; a++)
            for (int b = 0; b < 4; b++)
                for (int p = 0; p < 2; p++) {
                    int row = trans ? 8 * j + 2 * b + p : 8 * j + a;
                    int col = trans ? a : 2 * b + p;
                    uint32_t off = 16u * (uint32_t)gc_ldsm_target(num, 4 * a + b);
                    half[8 * row + col] = off << 1 | (uint32_t)p;
                }
}

uint32_t gc_ldsm_model(int num, int trans, const uint16_t *half, int t, int j)
{
    (void)num;
    int a = t / 4, b = t % 4;
    uint32_t lo, hi;
    if (!trans) {
        lo = half[8 * (8 * j + a) + 2 * b];
        hi = half[8 * (8 * j + a) + 2 * b + 1];
    } else {
        lo = half[8 * (8 * j + 2 * b) + a];
        hi = half[8 * (8 * j + 2 * b + 1) + a];
    }
    return lo | hi << 16;
}

uint32_t gc_smem_offset(int width, int ways, int t)
{
    return (uint32_t)(t % ways) * GC_SMEM_ROW_BYTES + (uint32_t)(t / ways) * (uint32_t)width;
}

uint32_t gc_smem_bytes(int width, int ways)
{
    (void)width;
    return (uint32_t)ways * GC_SMEM_ROW_BYTES;
}

int gc_smem_degree(int width, int ways)
{
    int phase = 128 / width; /* threads per 128-byte wavefront */
    int worst = 0;
    for (int p0 = 0; p0 < 32; p0 += phase) {
        /* distinct words per bank within this phase */
        uint32_t words[32][32];
        int nw[32] = {0};
        for (int t = p0; t < p0 + phase; t++)
            for (int k = 0; k < width / 4; k++) {
                uint32_t word = gc_smem_offset(width, ways, t) / 4 + (uint32_t)k;
                int bank = (int)(word % 32), dup = 0;
                for (int i = 0; i < nw[bank]; i++)
                    dup |= words[bank][i] == word;
                if (!dup && nw[bank] < 32)
                    words[bank][nw[bank]++] = word;
            }
        for (int b = 0; b < 32; b++)
            if (nw[b] > worst)
                worst = nw[b];
    }
    return worst;
}
