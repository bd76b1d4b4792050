/* rng.h -- the one generator of seeded, reproducible inputs in the collection.
 *
 * splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014): one 64-bit state word, passed explicitly, so there is no hidden global
 * state and a given --seed always produces the same inputs on every machine.
 *   rng_splitmix64(&s)  next 64 random bits
 *   rng_unit(&s)        uniform double in [0, 1) with 53 random bits */
#ifndef COMMON_RNG_H
#define COMMON_RNG_H

#include <stdint.h>
#include "hd.h"

static inline HD uint64_t rng_splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull); /* golden-ratio increment */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline HD double rng_unit(uint64_t *s)
{
    return (double)(rng_splitmix64(s) >> 11) * (1.0 / 9007199254740992.0); /* 2^-53 */
}

#endif
