/* rng.h - splitmix64, the one small deterministic generator gpucal uses
 * (k-means++ seeding, P-chase rings, numerics inputs, synthetic test data):
 * the same seed gives the same numbers on every machine. Header-only and
 * libc-free, so the measurement binary and the tests share it. */
#ifndef GC_RNG_H
#define GC_RNG_H

#include <math.h>
#include <stdint.h>

/* Next 64 random bits; advances *s. */
static inline uint64_t gc_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1), 53 bits. */
static inline double gc_rng_unit(uint64_t *s)
{
    return (double)(gc_rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in (0, 1): never 0, for logarithms. */
static inline double gc_rng_open(uint64_t *s)
{
    return ((double)(gc_rng_next(s) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Standard normal (Box-Muller, one value per two draws). */
static inline double gc_rng_gauss(uint64_t *s)
{
    double r = sqrt(-2 * log(gc_rng_open(s)));
    return r * cos(6.283185307179586 * gc_rng_open(s));
}

#endif
