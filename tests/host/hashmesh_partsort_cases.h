/* hashmesh_partsort_cases.h -- what the partitioned hash sort's serial test
 * (tests/host/test_hashmesh_partsort_cpu.c) and GPU test (tests/gpu/test_hashmesh_partsort.cu)
 * share: a plan made or its refusal reported, the ranked and two-level tunings, and the key
 * sets both check those two schemes on, with the same seeds (a GPU failure can be replayed
 * serially).  A check_fn sorts k under t, checks the plan chose `expect` and compares the
 * result with the CPU hash sort of Listing 1 (hash.h). */
#ifndef TESTS_HASHMESH_PARTSORT_CASES_H
#define TESTS_HASHMESH_PARTSORT_CASES_H

#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hashsort_part.h"

typedef void (*psc_check_fn)(const keys1d *k, const hsp_tuning *t, hsp_scheme expect, const char *what);

/* the plan of k under t (NULL: automatic) with (keys = 1) or without the sorted keys; 0 when
 * refused (a failed check, the reason printed after `what`) */
static inline int psc_plan(hsp_plan *p, const keys1d *k, int keys, const hsp_tuning *t, const char *what)
{
    char why[256];
    if (T_CHECK(hsp_plan_make(p, k->n, k->m, keys, t, why, sizeof why) == 0)) return 1;
    fprintf(stderr, "  %s: %s\n", what, why);
    return 0;
}

/* a ranked or two-level tuning: fine width pw, coarse width (two-level), keys a thread (0:
 * automatic for each), ranking by match or atomics */
static inline hsp_tuning psc_tuning(hsp_scheme sc, int pw, int coarse_pw, int ipt, hsp_match match)
{
    hsp_tuning t = {pw, 0, ipt, HSP_AGG_AUTO, sc, 0, coarse_pw, match, 0, HSP_BITMAP_AUTO};
    return t;
}

/* n uniform keys, then n clustered ones (alpha 1.2): both schemes, their automatic widths */
static inline void psc_uniform_clustered(long n, psc_check_fn check)
{
    hsp_tuning r = psc_tuning(HSP_SCHEME_RANKED, 0, 0, 0, HSP_MATCH_AUTO);
    hsp_tuning two = psc_tuning(HSP_SCHEME_TWO_LEVEL, 0, 0, 0, HSP_MATCH_AUTO);
    keys1d k;
    keys1d_generate(&k, n, 2.0, 4.0, 17 + n);
    check(&k, &r, HSP_SCHEME_RANKED, "uniform keys, ranked");
    check(&k, &two, HSP_SCHEME_TWO_LEVEL, "uniform keys, two-level");
    keys1d_free(&k);
    keys1d_clustered(&k, n, 2.0, 1.2, 29 + n);
    check(&k, &r, HSP_SCHEME_RANKED, "clustered keys, ranked");
    check(&k, &two, HSP_SCHEME_TWO_LEVEL, "clustered keys, two-level");
    keys1d_free(&k);
}

/* empty partitions, coarse and fine: three dense runs far apart, the last of last_len keys */
static inline void psc_empty_partitions(long last_len, psc_check_fn check)
{
    long lo[3] = {0, 5000, 270001}, len[3] = {100, 3000, last_len};
    keys1d k;
    keys1d_ranges(&k, lo, len, 3, 99);
    hsp_tuning e1 = psc_tuning(HSP_SCHEME_RANKED, 8, 0, 4, HSP_MATCH_AUTO);
    hsp_tuning e2 = psc_tuning(HSP_SCHEME_TWO_LEVEL, 8, 12, 4, HSP_MATCH_AUTO);
    check(&k, &e1, HSP_SCHEME_RANKED, "empty partitions, ranked");
    check(&k, &e2, HSP_SCHEME_TWO_LEVEL, "empty partitions, two-level");
    keys1d_free(&k);
}

/* full partitions of width pw (every bucket used) and one key more; case a picks the seeds */
static inline void psc_full_partitions(int pw, int a, psc_check_fn check)
{
    hsp_tuning r = psc_tuning(HSP_SCHEME_RANKED, pw, 0, 0, HSP_MATCH_AUTO);
    hsp_tuning two = psc_tuning(HSP_SCHEME_TWO_LEVEL, pw, pw + 2, 0, HSP_MATCH_AUTO);
    keys1d k;
    keys1d_generate(&k, 4L << pw, 2.0, 2.0, 7 + a);
    check(&k, &r, HSP_SCHEME_RANKED, "full partitions, ranked");
    check(&k, &two, HSP_SCHEME_TWO_LEVEL, "full partitions, two-level (one full coarse)");
    keys1d_free(&k);
    keys1d_generate(&k, (3L << pw) + 1, 2.0, 2.0, 11 + a);
    check(&k, &r, HSP_SCHEME_RANKED, "full partitions and one key, ranked");
    check(&k, &two, HSP_SCHEME_TWO_LEVEL, "full partitions and one key, two-level");
    keys1d_free(&k);
}

/* one coarse partition of many fine-pass tiles: a multiple of the tile and one key past it */
static inline void psc_many_tiles(psc_check_fn check)
{
    const long tile2 = (long)HSP_SCATTER_THREADS * HSP_FINE_IPT, many[] = {3 * tile2, 3 * tile2 + 1};
    for (int a = 0; a < 2; a++) {
        hsp_tuning one = psc_tuning(HSP_SCHEME_TWO_LEVEL, 8, 16, 0, HSP_MATCH_AUTO);
        keys1d k;
        keys1d_generate(&k, many[a], 2.0, 2.0, 21 + a); /* m = n <= 2^16: one coarse partition */
        check(&k, &one, HSP_SCHEME_TWO_LEVEL, "one coarse partition, many tiles");
        keys1d_free(&k);
    }
}

#endif
