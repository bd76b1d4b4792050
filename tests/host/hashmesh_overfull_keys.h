/* tests/host/hashmesh_overfull_keys.h -- the key sets of the overfull-partition tests of the
 * partitioned hash sort (host/test_hashmesh_overfull.c, gpu/test_hashmesh_overfull_gpu.cu):
 * per region r, `distinct` keys in buckets lo .. lo + distinct - 1 (x = b + 0.25, dmin = 1)
 * and `dups` more in the same buckets, cyclically (x in b + [0.5, 0.9)), shuffled. */
#ifndef TESTS_HASHMESH_OVERFULL_KEYS_H
#define TESTS_HASHMESH_OVERFULL_KEYS_H
#include "../../common/rng.h"
#include "../../hashmesh/gen.h"

typedef struct {
    long lo, distinct, dups;
} region;

static long make_keys(double **xo, const region *r, int nr, uint64_t seed)
{
    long n = 0;
    for (int i = 0; i < nr; i++) n += r[i].distinct + r[i].dups;
    double *x = (double *)gen_alloc(sizeof(double) * (size_t)n);
    long k = 0;
    for (int i = 0; i < nr; i++) {
        for (long j = 0; j < r[i].distinct; j++) x[k++] = (double)(r[i].lo + j) + 0.25;
        for (long j = 0; j < r[i].dups; j++)
            x[k++] = (double)(r[i].lo + j % r[i].distinct) + 0.5 + 0.4 * (double)(j / r[i].distinct) / (double)(r[i].dups + 1);
    }
    for (long i = n - 1; i > 0; i--) { /* Fisher-Yates */
        long j = rng_below(&seed, i + 1);
        double t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
    *xo = x;
    return n;
}
#endif
