/* GPU test of hashmesh/hashsort_part.cuh (the partitioned hash sort) against the CPU hash sort
 * of Listing 1 (hash.h hash_sort1d_cpu): indices (and, direct scheme, sorted keys) bitwise
 * equal, outputs poisoned before every run, every run done twice (the counters clear
 * themselves; the two-level fine counters are cleared by the next run's first pass).
 * Every scheme: direct (uniform and clustered keys at n = 1, 2, 31, 2^10 + 1, 2^16, 2^20 + 3;
 * all keys in one partition, empty partitions, partitions of exactly the table size and one
 * key more, the block histogram at its largest, every tile size, both reservation modes),
 * ranked and two-level (the same sizes, auto plans at 2^22 + 5 and, clustered, 2^24 where
 * they are chosen; every fine width with coarse partitions 2 .. 2^8 times wider, i.e. far
 * larger than a shared-memory table; one ranked pass at its most partitions, 8192; ranking by
 * match and by atomics; tiles of 2048, 4096 and 8192 keys; every case with both place passes
 * (the int table's scan and the occupancy bitmap); full and one-past-full
 * partitions; one coarse partition of many fine-pass tiles, an exact multiple of the tile
 * and one key more; empty partitions), checking after each run that the first pass's
 * counters are clear, its offsets end at n, the fine counts add up to n and the fine pass's
 * tiles fit its grid.  `--small` keeps n <= 2^16 (for compute-sanitizer memcheck), `--tiny`
 * n <= 2^10 + 1 and fewer cases (racecheck).  Exit 77 with no GPU. */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/hashsort_part.cuh"
#include "../host/hashmesh_partsort_cases.h"

/* One sort of k under tuning t (NULL: automatic), with or without the sorted keys, compared
 * with the CPU hash sort; `expect_parts` > 0 also checks the plan's partition count. */
static void check_sort(const keys1d *k, const hsp_tuning *t, int keys, long expect_parts, const char *what)
{
    long n = k->n;
    hsp_plan p;
    if (!psc_plan(&p, k, keys, t, what)) return;
    if (expect_parts > 0) T_EQ_INT(p.parts, expect_parts);
    int *tab = (int *)malloc(sizeof(int) * (size_t)k->m), *ref = (int *)malloc(sizeof(int) * n),
        *got = (int *)malloc(sizeof(int) * n);
    double *sref = (double *)malloc(sizeof(double) * n), *sgot = (double *)malloc(sizeof(double) * n);
    T_EQ_INT(hash_sort1d_cpu(k->x, n, k->xmin, k->dmin, tab, k->m, ref, sref), n);
    double *d_x, *d_sorted = NULL;
    int *d_idx;
    CHECK_CUDA(cudaMalloc(&d_x, sizeof(double) * n));
    CHECK_CUDA(cudaMemcpy(d_x, k->x, sizeof(double) * n, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMalloc(&d_idx, sizeof(int) * n));
    if (keys) CHECK_CUDA(cudaMalloc(&d_sorted, sizeof(double) * n));
    gpu_part_ctx c;
    gpu_part_setup(&c, &p, d_x, k->xmin, k->dmin, d_idx, d_sorted);
    int ok = 1;
    for (int run = 0; run < 2; run++) {
        CHECK_CUDA(cudaMemset(d_idx, 0xAB, sizeof(int) * n)); /* poison: no correct run leaves it */
        if (keys) CHECK_CUDA(cudaMemset(d_sorted, 0xFF, sizeof(double) * n)); /* NaN */
        gpu_part_sort1d(&c, 0);
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(got, d_idx, sizeof(int) * n, cudaMemcpyDeviceToHost));
        ok &= T_CHECK(memcmp(got, ref, sizeof(int) * n) == 0);
        if (keys) {
            CHECK_CUDA(cudaMemcpy(sgot, d_sorted, sizeof(double) * n, cudaMemcpyDeviceToHost));
            ok &= T_CHECK(memcmp(sgot, sref, sizeof(double) * n) == 0);
        }
    }
    /* the run leaves its counters (and the blocks-done counter) cleared and its offsets complete */
    unsigned *cnt = (unsigned *)malloc(sizeof(unsigned) * (size_t)(p.parts1 + 1));
    int last = -1;
    CHECK_CUDA(cudaMemcpy(cnt, c.cnt, sizeof(unsigned) * (size_t)(p.parts1 + 1), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&last, c.off + p.parts1, sizeof(int), cudaMemcpyDeviceToHost));
    long nonzero = 0;
    for (long q = 0; q <= p.parts1; q++) nonzero += cnt[q] != 0;
    ok &= T_CHECK(nonzero == 0);
    ok &= T_CHECK(last == n);
    if (p.rbits) { /* two-level: every key counted once by the fine pass, its tiles within its grid */
        unsigned *cnt2 = (unsigned *)malloc(sizeof(unsigned) * (size_t)p.parts);
        int tiles = -1;
        CHECK_CUDA(cudaMemcpy(cnt2, c.cnt2, sizeof(unsigned) * (size_t)p.parts, cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaMemcpy(&tiles, c.tstart + p.parts1, sizeof(int), cudaMemcpyDeviceToHost));
        long sum = 0;
        for (long f = 0; f < p.parts; f++) sum += cnt2[f];
        ok &= T_CHECK(sum == n);
        ok &= T_CHECK(tiles >= 1 && tiles <= p.tiles2);
        free(cnt2);
    }
    if (!ok)
        fprintf(stderr, "  failed: %s (n %ld, m %ld, %s, pw %d, pw1 %d, parts %ld, parts1 %ld, ipt %d, aggregate %d, "
                "match %d/%d, bitmap %d, keys %d)\n", what, n, k->m, HSP_SCHEME_NAME[p.scheme], p.pw, p.pw1, p.parts, p.parts1,
                p.ipt, p.aggregate, p.match1, p.match2, p.bitmap, keys);
    gpu_part_free(&c);
    CHECK_CUDA(cudaFree(d_x));
    CHECK_CUDA(cudaFree(d_idx));
    if (d_sorted) CHECK_CUDA(cudaFree(d_sorted));
    free(tab); free(ref); free(got); free(sref); free(sgot); free(cnt);
}

static void both(const keys1d *k, const hsp_tuning *t, long expect_parts, const char *what)
{
    check_sort(k, t, 0, expect_parts, what);
    check_sort(k, t, 1, expect_parts, what);
}

/* a direct-scheme tuning (the first version of this test's cases) */
static hsp_tuning direct(int pw, int pw_max, int ipt, hsp_agg agg)
{
    hsp_tuning t = {pw, pw_max, ipt, agg, HSP_SCHEME_DIRECT, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO};
    return t;
}
/* the indices of k sorted by scheme sc under t (NULL: automatic), with either place pass (the
 * int table's scan and the bitmap); the plan must have chosen sc */
static void check_scheme(const keys1d *k, const hsp_tuning *t, hsp_scheme sc, const char *what)
{
    hsp_tuning u;
    memset(&u, 0, sizeof u);
    if (t) u = *t;
    for (int bm = 0; bm < 2; bm++) {
        u.bitmap = bm ? HSP_BITMAP_ON : HSP_BITMAP_OFF;
        hsp_plan p;
        if (!psc_plan(&p, k, 0, &u, what)) return;
        T_EQ_INT(p.scheme, sc);
        T_EQ_INT(p.bitmap, bm);
        check_sort(k, &u, 0, 0, what);
    }
}

/* the ranked and two-level schemes */
static void test_ranked(int small, int tiny)
{
    const long ns[] = {1, 2, 31, 1025, 65536, (1L << 20) + 3};
    const int nn = tiny ? 4 : small ? 5 : 6;
    keys1d k;
    for (int a = 0; a < nn; a++) psc_uniform_clustered(ns[a], check_scheme); /* forced schemes, automatic widths and tiles */
    if (!small) { /* the automatic plans where they choose these schemes */
        keys1d_generate(&k, (1L << 22) + 5, 2.0, 4.0, 41);
        check_scheme(&k, NULL, HSP_SCHEME_RANKED, "uniform keys 2^22 + 5, auto (ranked)");
        keys1d_free(&k);
        keys1d_clustered(&k, (1L << 22) + 5, 2.0, 1.2, 43);
        check_scheme(&k, NULL, HSP_SCHEME_RANKED, "clustered keys 2^22 + 5, auto (ranked)");
        keys1d_free(&k);
        keys1d_clustered(&k, 1L << 24, 2.0, 1.2, 47);
        check_scheme(&k, NULL, HSP_SCHEME_TWO_LEVEL, "clustered keys 2^24, auto (two-level)");
        keys1d_free(&k);
    }
    /* every fine width; coarse partitions 2 .. 2^8 times wider (up to 2^23 buckets: far beyond a
     * shared-memory table); tiles of 2048, 4096, 8192 keys; ranking by atomics and by match */
    keys1d_generate(&k, tiny ? 1025 : small ? 30011 : 300007, 2.0, 3.0, 5);
    for (int pw = HSP_PW_MIN; pw <= HSP_PW_LIMIT; pw++) {
        if (tiny && pw > 10) break;
        const hsp_match mt = pw & 1 ? HSP_MATCH_ON : HSP_MATCH_OFF;
        hsp_tuning r = psc_tuning(HSP_SCHEME_RANKED, pw, 0, 4 << (pw % 3), mt);
        check_scheme(&k, &r, HSP_SCHEME_RANKED, "ranked, forced width");
        for (int pw1 = pw + 1; pw1 <= pw + 8; pw1 += tiny ? 4 : 1) {
            hsp_tuning two = psc_tuning(HSP_SCHEME_TWO_LEVEL, pw, pw1, 4 << (pw1 % 3), (pw1 & 1) ? HSP_MATCH_AUTO : mt);
            two.ipt2 = 4 << ((pw + pw1) % 3); /* fine tiles of 2048, 4096, 8192 keys */
            check_scheme(&k, &two, HSP_SCHEME_TWO_LEVEL, "two-level, forced widths");
        }
    }
    keys1d_free(&k);
    /* one ranked pass at its most partitions (8192 of 2^8 buckets: m = 2^21), both rankings */
    if (!tiny) {
        long clo[2] = {0, (1L << 21) - 5000}, clen[2] = {small ? 5000 : 50000, 5000};
        keys1d_ranges(&k, clo, clen, 2, 8);
        hsp_tuning mr = psc_tuning(HSP_SCHEME_RANKED, 8, 0, 16, HSP_MATCH_ON);
        check_scheme(&k, &mr, HSP_SCHEME_RANKED, "ranked, match, 8192 partitions");
        mr.match = HSP_MATCH_OFF;
        check_scheme(&k, &mr, HSP_SCHEME_RANKED, "ranked, 8192 partitions");
        keys1d_free(&k);
    }
    /* empty partitions, coarse and fine: dense runs far apart */
    psc_empty_partitions(tiny ? 111 : 11111, check_scheme);
    /* full partitions (every bucket used) and one key more */
    const int pws[] = {8, 12, 15};
    for (int a = 0; a < 3; a++)
        if (!(small && pws[a] > 12) && !(tiny && pws[a] > 8)) psc_full_partitions(pws[a], a, check_scheme);
    /* one coarse partition of many fine-pass tiles: a multiple of the tile and one key past */
    if (!tiny) psc_many_tiles(check_scheme);
}

int main(int argc, char **argv)
{
    int tiny = argc > 1 && !strcmp(argv[1], "--tiny"), small = tiny || (argc > 1 && !strcmp(argv[1], "--small"));
    device_require(0, 7, 5);
    const long ns[] = {1, 2, 31, 1025, 65536, (1L << 20) + 3};
    const int nn = tiny ? 4 : small ? 5 : 6;
    keys1d k;
    for (int a = 0; a < nn; a++) { /* automatic plans (direct at these sizes) */
        keys1d_generate(&k, ns[a], 2.0, 4.0, 17 + ns[a]);
        both(&k, NULL, 0, "uniform keys");
        keys1d_free(&k);
        keys1d_clustered(&k, ns[a], 2.0, 1.2, 29 + ns[a]);
        both(&k, NULL, 0, "clustered keys, alpha 1.2");
        keys1d_free(&k);
    }
    /* all keys in one partition: the whole table in one block (pw 14 and 15) */
    keys1d_generate(&k, 1000, 2.0, 4.0, 5);
    hsp_tuning one = direct(14, 0, 0, HSP_AGG_AUTO);
    both(&k, &one, 1, "one partition, pw 14");
    keys1d_free(&k);
    keys1d_generate(&k, 21000, 2.0, 3.0, 6);
    hsp_tuning one15 = direct(15, 15, 0, HSP_AGG_AUTO);
    both(&k, &one15, 1, "one partition, pw 15");
    keys1d_free(&k);
    /* empty partitions: three dense runs far apart (pw 8: 256 buckets a partition) */
    long lo[3] = {0, 5000, 70001}, len[3] = {100, 300, 1111};
    keys1d_ranges(&k, lo, len, 3, 99);
    hsp_tuning p8 = direct(8, 0, 0, HSP_AGG_AUTO);
    both(&k, &p8, hsp_parts_for(70001 + 1111, 8), "empty partitions, pw 8");
    hsp_tuning p8d = direct(8, 0, 4, HSP_AGG_OFF);
    both(&k, &p8d, 0, "empty partitions, pw 8, one atomic per key");
    keys1d_free(&k);
    /* partitions of exactly the table size (dense keys: every bucket used), and one key more */
    const int pws[] = {8, 10, 14, 15};
    for (int a = 0; a < 4; a++) {
        if ((small && pws[a] > 10) || (tiny && pws[a] > 8)) continue;
        long W = 1L << pws[a];
        hsp_tuning t = direct(pws[a], 15, 0, HSP_AGG_AUTO);
        keys1d_generate(&k, 4 * W, 2.0, 2.0, 7 + a);
        both(&k, &t, 4, "full partitions");
        keys1d_free(&k);
        keys1d_generate(&k, 3 * W + 1, 2.0, 2.0, 11 + a);
        both(&k, &t, 4, "full partitions and one key");
        keys1d_free(&k);
    }
    /* every tile size, both reservation modes, a partial last tile */
    const int ipts[] = {1, 2, 4, 8, 16};
    keys1d_generate(&k, tiny ? 2001 : small ? 20001 : 200001, 2.0, 4.0, 3);
    for (int a = 0; a < 5; a++) {
        hsp_tuning on = direct(0, 0, ipts[a], HSP_AGG_ON), off = direct(0, 0, ipts[a], HSP_AGG_OFF);
        both(&k, &on, 0, "tile sizes, block histogram");
        both(&k, &off, 0, "tile sizes, one atomic per key");
    }
    keys1d_free(&k);
    /* the block histogram at its largest (HSP_AGG_MAX_BINS partitions, 48 KiB) and an offset
     * scan over several chunks of the last block */
    if (!small) {
        keys1d_generate(&k, (long)HSP_AGG_MAX_BINS << 8, 2.0, 2.0, 13);
        hsp_tuning big = direct(8, 0, 16, HSP_AGG_ON);
        check_sort(&k, &big, 0, HSP_AGG_MAX_BINS, "largest block histogram");
        keys1d_free(&k);
    }
    test_ranked(small, tiny);
    return T_DONE();
}
