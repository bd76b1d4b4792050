/* GPU test of the partitioned hash sort (hashmesh/hashsort_part.cuh) when partitions receive
 * more keys than their fixed regions hold (keys sharing buckets: the perfect hash's
 * precondition broken), in every scheme -- direct (with and without the block histogram, with
 * the sorted keys), ranked, two-level (a full coarse partition and a full fine one) -- the
 * device side of tests/host/test_hashmesh_overfull.c.  Which extra keys the atomics keep is
 * not fixed on the GPU, so an overfull partition's span of the output is checked for form
 * (keys of that partition, buckets strictly increasing, within its width, the rest of the
 * span left poisoned); every other partition's span, and the total, must equal the list-based
 * oracle of the host test, and nothing is written past the output (a poisoned tail).
 * Exit 77 without a GPU. */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../host/hashmesh_overfull_keys.h"
#include "../../hashmesh/hashsort_part.cuh"

#define POISON (-7)

/* The spans of the output: span s is [start, end) of fine partition part (one-level: the
 * partition), determinate (its contents fixed whatever the arrival order) or not. */
typedef struct {
    long start, end, part;
    int det;
} span;

/* The expected idx[] in input arrival order (the host test's oracle) and the spans. */
static long oracle(const double *x, long n, long m, int pw1, int pw, int *want, span *sp, long *nsp)
{
    long parts1 = (m + (1L << pw1) - 1) >> pw1, parts = parts1 << (pw1 - pw), W1 = 1L << pw1, W = 1L << pw;
    long *c1 = (long *)calloc((size_t)parts1, sizeof(long)), *c2 = (long *)calloc((size_t)parts, sizeof(long));
    long *call = (long *)calloc((size_t)parts, sizeof(long)); /* every key of the fine partition */
    long *last = (long *)gen_alloc(sizeof(long) * (size_t)m);
    for (long b = 0; b < m; b++) last[b] = -1;
    for (long i = 0; i < n; i++) {
        long b = (long)x[i];
        call[b >> pw]++;
        if (c1[b >> pw1]++ >= W1) continue;
        if (c2[b >> pw]++ >= W) continue;
        last[b] = i;
    }
    for (long i = 0; i < n; i++) want[i] = POISON;
    long written = 0, before = 0;
    *nsp = 0;
    for (long q1 = 0; q1 < parts1; q1++) {
        long base = before;
        int over1 = c1[q1] > W1;
        for (long f = q1 << (pw1 - pw); f < (q1 + 1) << (pw1 - pw); f++) {
            long o = base;
            for (long b = f << pw; b < (f + 1) << pw && b < m; b++)
                if (last[b] >= 0) {
                    want[o++] = (int)last[b];
                    written++;
                }
            long next = base + (pw1 == pw ? c2[f] : c2[f] < W ? c2[f] : W);
            if (pw1 == pw) next = base + c1[q1];
            if (!over1) sp[(*nsp)++] = (span){base, next, f, call[f] <= W};
            base = next;
        }
        if (over1) sp[(*nsp)++] = (span){before, before + c1[q1], -(q1 + 1), 0}; /* the whole coarse partition */
        else if (base < before + c1[q1]) sp[(*nsp)++] = (span){base, before + c1[q1], 0, 1}; /* past clamped fine ones: poison */
        before += c1[q1];
    }
    free(c1); free(c2); free(call); free(last);
    return written;
}

static void check(const region *r, int nr, long m, hsp_tuning t, int keys, const char *what)
{
    double *x;
    long n = make_keys(&x, r, nr, 5 + (uint64_t)m);
    hsp_plan p;
    char why[256];
    if (!T_CHECK(hsp_plan_make(&p, n, m, keys, &t, why, sizeof why) == 0)) { fprintf(stderr, "  %s: %s\n", what, why); free(x); return; }
    int *want = (int *)gen_alloc(sizeof(int) * (size_t)n), *got = (int *)gen_alloc(sizeof(int) * (size_t)(n + 64));
    span *sp = (span *)gen_alloc(sizeof(span) * (size_t)(p.parts + 2 * p.parts1 + 1));
    long nsp, ww = oracle(x, n, m, p.pw1, p.pw, want, sp, &nsp);
    double *d_x, *d_sorted = NULL, *sorted = (double *)gen_alloc(sizeof(double) * (size_t)n);
    int *d_idx;
    CHECK_CUDA(cudaMalloc(&d_x, sizeof(double) * n));
    CHECK_CUDA(cudaMemcpy(d_x, x, sizeof(double) * n, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMalloc(&d_idx, sizeof(int) * (n + 64)));
    if (keys) CHECK_CUDA(cudaMalloc(&d_sorted, sizeof(double) * n));
    gpu_part_ctx c;
    gpu_part_setup(&c, &p, d_x, 0.0, 1.0, d_idx, d_sorted);
    int ok = 1;
    for (int run = 0; run < 2; run++) {
        for (long i = 0; i < n + 64; i++) got[i] = POISON;
        CHECK_CUDA(cudaMemcpy(d_idx, got, sizeof(int) * (n + 64), cudaMemcpyHostToDevice));
        gpu_part_sort1d(&c, 0);
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(got, d_idx, sizeof(int) * (n + 64), cudaMemcpyDeviceToHost));
        if (keys) CHECK_CUDA(cudaMemcpy(sorted, d_sorted, sizeof(double) * n, cudaMemcpyDeviceToHost));
        long total = 0, bad_det = 0, bad_form = 0, covered = 0;
        for (long s = 0; s < nsp; s++) {
            const span *q = sp + s;
            covered += q->end - q->start;
            if (q->det) {
                for (long i = q->start; i < q->end; i++) {
                    bad_det += got[i] != want[i];
                    total += got[i] != POISON;
                }
                continue;
            }
            /* free form: keys of the partition (fine f, or a whole coarse one -(q1 + 1)) in strictly
             * increasing buckets, within its width of the span's start; a fine partition's as one
             * prefix, a coarse one's fine partitions each a prefix of its own part (gaps between) */
            long lo = q->part >= 0 ? q->part << p.pw : (-q->part - 1) << p.pw1;
            long width = q->part >= 0 ? 1L << p.pw : 1L << p.pw1, hi = lo + width, prev = -1;
            int gap = 0;
            for (long i = q->start; i < q->end; i++) {
                if (got[i] == POISON) { gap = 1; continue; }
                long b = got[i] >= 0 && got[i] < n ? (long)x[got[i]] : -1;
                bad_form += b < lo || b >= hi || b <= prev || i - q->start >= width || (gap && q->part >= 0);
                prev = b;
                total++;
            }
        }
        ok &= T_CHECK(covered == n);
        ok &= T_CHECK(bad_det == 0);
        ok &= T_CHECK(bad_form == 0);
        long tail = 0;
        for (long i = n; i < n + 64; i++) tail += got[i] != POISON;
        ok &= T_CHECK(tail == 0);
        ok &= T_CHECK(total <= n);
        if (keys)
            for (long i = 0; i < n; i++)
                if (got[i] >= 0 && got[i] < n) ok &= T_CHECK(sorted[i] == x[got[i]]);
        if (!ok) fprintf(stderr, "  failed: %s (%s, n %ld, m %ld, pw %d, pw1 %d, run %d): %ld determinate, %ld form errors, %ld of %ld written\n",
                         what, HSP_SCHEME_NAME[p.scheme], n, m, p.pw, p.pw1, run, bad_det, bad_form, total, ww);
    }
    gpu_part_free(&c);
    CHECK_CUDA(cudaFree(d_x));
    CHECK_CUDA(cudaFree(d_idx));
    if (d_sorted) CHECK_CUDA(cudaFree(d_sorted));
    free(x); free(want); free(got); free(sp); free(sorted);
}

int main(void)
{
    device_require(0, 7, 5);
    const region one[] = {{0, 200, 100}, {256, 100, 0}, {768, 256, 44}};
    const region by1[] = {{0, 256, 1}, {256, 256, 0}, {512, 10, 0}};
    const region big[] = {{0, 256, 900}, {256, 100, 0}, {1024, 250, 0}, {7936, 256, 1500}};
    const region two[] = {{0, 512, 1000}, {512, 256, 300}, {768, 100, 0}, {1030, 60, 0}, {7680, 200, 0}, {7936, 256, 700}};
    const region two4[] = {{0, 256, 0}, {256, 256, 1}, {7168, 1024, 3000}};
    for (int agg = 0; agg < 2; agg++)
        for (int keys = 0; keys < 2; keys++) {
            hsp_tuning d = {8, 8, 0, agg ? HSP_AGG_ON : HSP_AGG_OFF, HSP_SCHEME_DIRECT, 0, 0, HSP_MATCH_AUTO, 0, HSP_BITMAP_AUTO};
            check(one, 3, 1024, d, keys, "direct, overfull first and last partitions");
            check(by1, 3, 768, d, keys, "direct, one key over");
            check(big, 4, 8192, d, keys, "direct, overfull by more than a tile");
        }
    for (int bitmap = 0; bitmap < 2; bitmap++)
        for (int match = 0; match < 2; match++) {
            hsp_bitmap bm = bitmap ? HSP_BITMAP_ON : HSP_BITMAP_OFF;
            hsp_match mt = match ? HSP_MATCH_ON : HSP_MATCH_OFF;
            hsp_tuning rk = {8, 0, 4, HSP_AGG_AUTO, HSP_SCHEME_RANKED, 0, 0, mt, 0, bm};
            check(big, 4, 8192, rk, 0, "ranked, overfull first and last partitions");
            check(by1, 3, 768, rk, 0, "ranked, one key over");
            hsp_tuning tl = {8, 0, 4, HSP_AGG_AUTO, HSP_SCHEME_TWO_LEVEL, 0, 9, mt, 4, bm};
            check(two, 6, 8192, tl, 0, "two-level, overfull coarse and fine partitions");
            tl.coarse_pw = 10;
            check(two4, 3, 8192, tl, 0, "two-level, fine partitions full and one over");
        }
    return T_DONE();
}
