/* GPU test of hashmesh/hashsort_part.cuh (the partitioned hash sort) against the CPU hash sort
 * of Listing 1 (hash.h hash_sort1d_cpu): indices and sorted keys bitwise equal, outputs
 * poisoned before every run, every run done twice (the counters clear themselves).
 * Uniform keys of sec. 3.1 and clustered keys (gen.h) at n = 1, 2, 31, 2^10 + 1, 2^16,
 * 2^20 + 3; partition boundaries: all keys in one partition, empty partitions, partitions of
 * exactly the table size (and one key past it), the block histogram at its largest size,
 * every tile size and both reservation modes.  `--small` keeps n <= 2^16 (for
 * compute-sanitizer memcheck), `--tiny` n <= 2^10 + 1 and fewer cases (racecheck).  Exit 77
 * with no GPU. */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/hashsort_part.cuh"

/* One sort of k under tuning t (NULL: automatic), with or without the sorted keys, compared
 * with the CPU hash sort; `expect_parts` > 0 also checks the plan's partition count. */
static void check_sort(const keys1d *k, const hsp_tuning *t, int keys, long expect_parts, const char *what)
{
    long n = k->n;
    hsp_plan p;
    char why[256];
    if (!T_CHECK(hsp_plan_make(&p, n, k->m, keys, t, why, sizeof why) == 0)) {
        fprintf(stderr, "  %s: %s\n", what, why);
        return;
    }
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
    /* the run leaves its counters cleared and its offsets complete */
    unsigned *cnt = (unsigned *)malloc(sizeof(unsigned) * (size_t)(p.parts + 1));
    int last = -1;
    CHECK_CUDA(cudaMemcpy(cnt, c.cnt, sizeof(unsigned) * (size_t)(p.parts + 1), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&last, c.off + p.parts, sizeof(int), cudaMemcpyDeviceToHost));
    long nonzero = 0;
    for (long q = 0; q <= p.parts; q++) nonzero += cnt[q] != 0;
    ok &= T_CHECK(nonzero == 0);
    ok &= T_CHECK(last == n);
    if (!ok)
        fprintf(stderr, "  failed: %s (n %ld, m %ld, pw %d, parts %ld, ipt %d, aggregate %d, keys %d)\n", what, n, k->m,
                p.pw, p.parts, p.ipt, p.aggregate, keys);
    gpu_part_free(&c);
    CHECK_CUDA(cudaFree(d_x));
    CHECK_CUDA(cudaFree(d_idx));
    if (d_sorted) CHECK_CUDA(cudaFree(d_sorted));
    free(tab); free(ref); free(got); free(sref); free(sgot); free(cnt);
}

/* Keys that fill the bucket ranges [lo[r], lo[r] + len[r]) exactly (x = b dmin, dmin = 2),
 * shuffled: the partitions between the ranges are empty. */
static void keys_ranges(keys1d *k, const long *lo, const long *len, int ranges, uint64_t seed)
{
    long n = 0;
    for (int r = 0; r < ranges; r++) n += len[r];
    k->n = n;
    k->x = (double *)gen_alloc(sizeof(double) * (size_t)n);
    k->dmin = 2.0;
    k->xmin = 0.0;
    long i = 0, top = 0;
    for (int r = 0; r < ranges; r++)
        for (long b = lo[r]; b < lo[r] + len[r]; b++) {
            k->x[i++] = 2.0 * (double)b;
            if (b > top) top = b;
        }
    k->xmax = 2.0 * (double)top;
    k->m = top + 1;
    uint64_t s = seed;
    for (long a = n - 1; a > 0; a--) {
        long r = rng_below(&s, a + 1);
        double t = k->x[a];
        k->x[a] = k->x[r];
        k->x[r] = t;
    }
}

static void both(const keys1d *k, const hsp_tuning *t, long expect_parts, const char *what)
{
    check_sort(k, t, 0, expect_parts, what);
    check_sort(k, t, 1, expect_parts, what);
}

int main(int argc, char **argv)
{
    int tiny = argc > 1 && !strcmp(argv[1], "--tiny"), small = tiny || (argc > 1 && !strcmp(argv[1], "--small"));
    device_require(0, 7, 5);
    const long ns[] = {1, 2, 31, 1025, 65536, (1L << 20) + 3};
    const int nn = tiny ? 4 : small ? 5 : 6;
    keys1d k;
    for (int a = 0; a < nn; a++) { /* automatic plans */
        keys1d_generate(&k, ns[a], 2.0, 4.0, 17 + ns[a]);
        both(&k, NULL, 0, "uniform keys");
        keys1d_free(&k);
        keys1d_clustered(&k, ns[a], 2.0, 1.2, 29 + ns[a]);
        both(&k, NULL, 0, "clustered keys, alpha 1.2");
        keys1d_free(&k);
    }
    /* all keys in one partition: the whole table in one block (pw 14 and 15) */
    keys1d_generate(&k, 1000, 2.0, 4.0, 5);
    hsp_tuning one = {14, 0, 0, HSP_AGG_AUTO};
    both(&k, &one, 1, "one partition, pw 14");
    keys1d_free(&k);
    keys1d_generate(&k, 21000, 2.0, 3.0, 6);
    hsp_tuning one15 = {15, 15, 0, HSP_AGG_AUTO};
    both(&k, &one15, 1, "one partition, pw 15");
    keys1d_free(&k);
    /* empty partitions: three dense runs far apart (pw 8: 256 buckets a partition) */
    long lo[3] = {0, 5000, 70001}, len[3] = {100, 300, 1111};
    keys_ranges(&k, lo, len, 3, 99);
    hsp_tuning p8 = {8, 0, 0, HSP_AGG_AUTO};
    both(&k, &p8, hsp_parts_for(70001 + 1111, 8), "empty partitions, pw 8");
    hsp_tuning p8d = {8, 0, 4, HSP_AGG_OFF};
    both(&k, &p8d, 0, "empty partitions, pw 8, one atomic per key");
    keys1d_free(&k);
    /* partitions of exactly the table size (dense keys: every bucket used), and one key more */
    const int pws[] = {8, 10, 14, 15};
    for (int a = 0; a < 4; a++) {
        if ((small && pws[a] > 10) || (tiny && pws[a] > 8)) continue;
        long W = 1L << pws[a];
        hsp_tuning t = {pws[a], 15, 0, HSP_AGG_AUTO};
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
        hsp_tuning on = {0, 0, ipts[a], HSP_AGG_ON}, off = {0, 0, ipts[a], HSP_AGG_OFF};
        both(&k, &on, 0, "tile sizes, block histogram");
        both(&k, &off, 0, "tile sizes, one atomic per key");
    }
    keys1d_free(&k);
    /* the block histogram at its largest (HSP_AGG_MAX_BINS partitions, 48 KiB) and an offset
     * scan over several chunks of the last block */
    if (!small) {
        keys1d_generate(&k, (long)HSP_AGG_MAX_BINS << 8, 2.0, 2.0, 13);
        hsp_tuning big = {8, 0, 16, HSP_AGG_ON};
        check_sort(&k, &big, 0, HSP_AGG_MAX_BINS, "largest block histogram");
        keys1d_free(&k);
    }
    return T_DONE();
}
