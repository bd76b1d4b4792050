/* best.h -- the baselines a user would pick instead of the paper's (qsort, serial k-D tree),
 * and the CPU hash on all cores (Robey, Nicholaeff, Robey, "Hash-based algorithms for
 * discretized data": the paper compares with qsort and k-D trees on one core only).
 * Plain C, host only; OpenMP where built with -fopenmp (serial otherwise).
 *
 *   introsort_pairs     std::sort-class introsort of (key, index) pairs: median-of-3
 *                       quicksort, heapsort below depth 2 log2 n, insertion sort under 16;
 *                       the comparison is inlined (qsort calls a comparator per comparison).
 *   radix_pairs         LSD radix sort of 32-bit keys with their int indices, only over the
 *                       `bits` low bits (a user who hashes knows the key range, so the bucket
 *                       index of eq. 2.13 needs ceil(log2 m) bits); digits of <= 11 bits,
 *                       `threads` = 1 serial, > 1 OpenMP (per-thread histograms, stable).
 *   bucket_keys         the 32-bit keys: eq. (2.13) b = floor((x - min) / dmin) (1D) or the
 *                       sec. 3.1 2D key i + j w; part of every timed radix sort.
 *   hash_sort1d_omp     Listing 1 on all cores: parallel clear, parallel scatter (a perfect
 *                       hash: no two keys share a bucket, so no races), compaction by a
 *                       parallel scan (per-thread counts of filled buckets, prefix, write).
 *   *_omp               the other CPU hash algorithms and the k-D tree query loops with an
 *                       OpenMP parallel for over independent items (trees are built serially).
 * Every function writes the same output as its serial counterpart in hash.h / baseline.h. */
#ifndef HASHMESH_BEST_H
#define HASHMESH_BEST_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "gen.h"
#include "hash.h"
#include "baseline.h"

static inline int best_thread_id(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}
/* inside a parallel region of `threads` threads: this thread's number *t of *nt and its static
 * share [*lo, *hi) of n items (*nt = threads when built without OpenMP) */
static inline void best_share(long n, int threads, int *t, int *nt, long *lo, long *hi)
{
    *t = best_thread_id();
    *nt = threads;
#ifdef _OPENMP
    *nt = omp_get_num_threads();
#endif
    *lo = n * *t / *nt;
    *hi = n * (*t + 1) / *nt;
}
static inline int best_max_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* ---------- introsort of (key, index) pairs (std::sort-class) ---------- */
#define INTRO_SMALL 16 /* ranges below this: insertion sort (as libstdc++'s _S_threshold) */

static inline void intro_swap(qs_pair *a, qs_pair *b)
{
    qs_pair t = *a;
    *a = *b;
    *b = t;
}
static inline void intro_sift(qs_pair *a, long start, long n)
{
    long r = start;
    for (;;) {
        long c = 2 * r + 1;
        if (c >= n) return;
        if (c + 1 < n && a[c].key < a[c + 1].key) c++;
        if (!(a[r].key < a[c].key)) return;
        intro_swap(&a[r], &a[c]);
        r = c;
    }
}
static inline void intro_heapsort(qs_pair *a, long n)
{
    for (long s = n / 2 - 1; s >= 0; s--) intro_sift(a, s, n);
    for (long e = n - 1; e > 0; e--) {
        intro_swap(&a[0], &a[e]);
        intro_sift(a, 0, e);
    }
}
static inline void intro_insertion(qs_pair *a, long n)
{
    for (long i = 1; i < n; i++) {
        qs_pair v = a[i];
        long k = i;
        while (k > 0 && v.key < a[k - 1].key) {
            a[k] = a[k - 1];
            k--;
        }
        a[k] = v;
    }
}
static inline void intro_loop(qs_pair *a, long n, int depth)
{
    while (n > INTRO_SMALL) {
        if (depth-- == 0) {
            intro_heapsort(a, n);
            return;
        }
        long mid = n / 2; /* median of three to a[0]; a[0] <= pivot <= a[n - 1] bound the scans */
        if (a[mid].key < a[0].key) intro_swap(&a[mid], &a[0]);
        if (a[n - 1].key < a[0].key) intro_swap(&a[n - 1], &a[0]);
        if (a[n - 1].key < a[mid].key) intro_swap(&a[n - 1], &a[mid]);
        intro_swap(&a[0], &a[mid]);
        double pv = a[0].key;
        long i = 0, j = n; /* Hoare partition around a[0] */
        for (;;) {
            do i++; while (a[i].key < pv);
            do j--; while (pv < a[j].key);
            if (i >= j) break;
            intro_swap(&a[i], &a[j]);
        }
        intro_swap(&a[0], &a[j]); /* pivot to its place j */
        if (j < n - 1 - j) { /* recurse into the smaller side, loop on the larger */
            intro_loop(a, j, depth);
            a += j + 1;
            n -= j + 1;
        } else {
            intro_loop(a + j + 1, n - j - 1, depth);
            n = j;
        }
    }
    intro_insertion(a, n);
}
static inline void introsort_pairs(qs_pair *a, long n)
{
    int depth = 0;
    for (long k = n; k > 1; k >>= 1) depth += 2;
    intro_loop(a, n, depth);
}
/* the 1D sort with introsort: same interface as qsort_sort1d (baseline.h) */
static inline void introsort_sort1d(const double *x, long n, qs_pair *buf, int *idx)
{
    for (long i = 0; i < n; i++) {
        buf[i].key = x[i];
        buf[i].idx = (int)i;
    }
    introsort_pairs(buf, n);
    for (long i = 0; i < n; i++) idx[i] = buf[i].idx;
}

/* ---------- LSD radix sort of 32-bit keys with indices ---------- */
#define RADIX_MAX_DIGIT_BITS 11 /* 2048-entry histograms: one per thread stays in L1 */

/* bits needed for keys in [0, m): ceil(log2 m), at least 1, up to 62.  The 32-bit radix
 * sorts take keys of <= 32 bits: a caller with m > 2^32 gets 33 or more and must not use
 * them (this returned at most 32 before, so m > 2^32 passed that check and the 32-bit keys
 * wrapped: clustered keys at alpha 0.7 on the H100, 936127 of 2^20 indices wrong). */
static inline int radix_bits_for(long m)
{
    int b = 1;
    while (b < 62 && (1L << b) < m) b++;
    return b;
}
/* passes = ceil(bits / 11), digit width = ceil(bits / passes) */
static inline int radix_passes(int bits) { return (bits + RADIX_MAX_DIGIT_BITS - 1) / RADIX_MAX_DIGIT_BITS; }

/* eq. (2.13) as a 32-bit key; idx = 0..n-1 */
static inline void bucket_keys1d(const double *x, long n, double xmin, double dmin, uint32_t *key, int *idx, int threads)
{
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (long i = 0; i < n; i++) {
        key[i] = (uint32_t)hash_bucket1d(x[i], xmin, dmin);
        idx[i] = (int)i;
    }
}
/* sec. 3.1 2D key i + j w at the finest level as a 32-bit key (needs W * H <= 2^32) */
static inline void bucket_keys2d(const int *ci, const int *cj, const int *lev, long n, int levmax, long W,
                                 uint32_t *key, int *idx, int threads)
{
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (long c = 0; c < n; c++) {
        key[c] = (uint32_t)hash_key2d(ci[c], cj[c], lev[c], levmax, W);
        idx[c] = (int)c;
    }
}

/* Sorts (key, idx) by the low `bits` bits of key, stably.  k2 / i2: scratch of n.  The result
 * is in key / idx (an odd number of passes copies it back).  hist: caller-owned, at least
 * threads * 2^11 longs.  threads = 1: serial. */
static inline void radix_pairs(uint32_t *key, int *idx, uint32_t *k2, int *i2, long n, int bits, int threads,
                               long *hist)
{
    int passes = radix_passes(bits), dbits = (bits + passes - 1) / passes;
    long nd = 1L << dbits;
    uint32_t mask = (uint32_t)(nd - 1);
    uint32_t *ks = key, *kd = k2;
    int *is = idx, *id = i2;
    if (threads < 1) threads = 1;
    for (int p = 0; p < passes; p++) {
        int sh = p * dbits;
#pragma omp parallel num_threads(threads) if (threads > 1)
        {
            int t, nt;
            long lo, hi;
            best_share(n, threads, &t, &nt, &lo, &hi);
            long *h = hist + (long)t * nd;
            memset(h, 0, sizeof(long) * (size_t)nd);
            for (long i = lo; i < hi; i++) h[(ks[i] >> sh) & mask]++;
#pragma omp barrier
#pragma omp single
            { /* offsets: digit-major, thread-minor (stable: thread t's keys after thread t-1's) */
                long sum = 0;
                for (long dg = 0; dg < nd; dg++)
                    for (int u = 0; u < nt; u++) {
                        long c = hist[(long)u * nd + dg];
                        hist[(long)u * nd + dg] = sum;
                        sum += c;
                    }
            }
            for (long i = lo; i < hi; i++) {
                long o = h[(ks[i] >> sh) & mask]++;
                kd[o] = ks[i];
                id[o] = is[i];
            }
        }
        uint32_t *tk = ks; ks = kd; kd = tk;
        int *ti = is; is = id; id = ti;
    }
    if (ks != key) {
        memcpy(key, ks, sizeof(uint32_t) * (size_t)n);
        memcpy(idx, is, sizeof(int) * (size_t)n);
    }
}

/* ---------- the CPU hash on all cores ---------- */
/* Compaction of Listing 1 lines 13-19 by a parallel scan: thread t owns buckets [lo, hi),
 * counts its filled ones, the counts are prefixed, then each thread writes its part. */
static inline long hash_compact_omp(const int *t, long m, const double *x, int *idx, double *sorted, int threads,
                                    long *cnt)
{
    long total = 0;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        int th, nt;
        long lo, hi, c = 0;
        best_share(m, threads, &th, &nt, &lo, &hi);
        for (long b = lo; b < hi; b++) c += t[b] >= 0;
        cnt[th] = c;
#pragma omp barrier
#pragma omp single
        {
            long s = 0;
            for (int u = 0; u < nt; u++) {
                long v = cnt[u];
                cnt[u] = s;
                s += v;
            }
            total = s;
        }
        long o = cnt[th];
        for (long b = lo; b < hi; b++)
            if (t[b] >= 0) {
                idx[o] = t[b];
                if (sorted) sorted[o] = x[t[b]];
                o++;
            }
    }
    return total;
}
/* Listing 1 on all cores; cnt: caller-owned, >= threads longs. Returns the count. */
static inline long hash_sort1d_omp(const double *x, long n, double xmin, double dmin, int *t, long m, int *idx,
                                   double *sorted, int threads, long *cnt)
{
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#pragma omp for schedule(static)
        for (long b = 0; b < m; b++) t[b] = -1;
#pragma omp for schedule(static)
        for (long i = 0; i < n; i++) t[hash_bucket1d(x[i], xmin, dmin)] = (int)i;
    }
    return hash_compact_omp(t, m, x, idx, sorted, threads, cnt);
}
/* 2D hash sort (sec. 3.1) on all cores */
static inline long hash_sort2d_omp(const int *ci, const int *cj, const int *lev, long n, int levmax, long W, long H,
                                   int *t, int *idx, int threads, long *cnt)
{
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#pragma omp for schedule(static)
        for (long b = 0; b < W * H; b++) t[b] = -1;
#pragma omp for schedule(static)
        for (long c = 0; c < n; c++) t[hash_key2d(ci[c], cj[c], lev[c], levmax, W)] = (int)c;
    }
    return hash_compact_omp(t, W * H, NULL, idx, NULL, threads, cnt);
}
/* 1D neighbours (sec. 3.2) on all cores */
static inline void hash_neigh1d_omp(const double *x, long n, double xmin, double dmin, int *t, long m, int *left,
                                    int *right, int threads)
{
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#pragma omp for schedule(static)
        for (long b = 0; b < m; b++) t[b] = -1;
#pragma omp for schedule(static)
        for (long i = 0; i < n; i++) t[hash_bucket1d(x[i], xmin, dmin)] = (int)i;
#pragma omp for schedule(static)
        for (long i = 0; i < n; i++)
            hash_neigh1d_read(t, m, hash_bucket1d(x[i], xmin, dmin), (int)i, &left[i], &right[i]);
    }
}
/* Listing 2 write phase on all cores: cells cover disjoint buckets, so no races */
static inline void hash_write2d_omp(const int *ci, const int *cj, const int *lev, long n, int levmax, long W, long H,
                                    int *t, int threads)
{
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#pragma omp for schedule(static)
        for (long b = 0; b < W * H; b++) t[b] = -1;
#pragma omp for schedule(dynamic, 1024)
        for (long c = 0; c < n; c++) {
            long r = 1L << (levmax - lev[c]), x0 = (long)ci[c] * r, y0 = (long)cj[c] * r;
            for (long y = y0; y < y0 + r; y++)
                for (long x = x0; x < x0 + r; x++) t[y * W + x] = (int)c;
        }
    }
}
static inline void hash_neigh2d_omp(const int *ci, const int *cj, const int *lev, long n, int levmax, long W, long H,
                                    int *t, int *nb, int threads)
{
    hash_write2d_omp(ci, cj, lev, n, levmax, W, H, t, threads);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (long c = 0; c < n; c++)
        hash_neigh2d_read(t, W, H, ci[c], cj[c], lev[c], levmax, &nb[4 * c], &nb[4 * c + 1], &nb[4 * c + 2],
                          &nb[4 * c + 3]);
}
/* 1D remap (Listing 3) on all cores */
static inline void hash_remap1d_omp(const int *olo, const int *ohi, long na, const double *mean, const double *gx,
                                    const int *nlo, const int *nhi, long nb, int *t, long L, double *out, int threads)
{
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#pragma omp for schedule(static)
        for (long k = 0; k < L; k++) t[k] = -1;
#pragma omp for schedule(static)
        for (long a = 0; a < na; a++)
            for (long k = olo[a]; k < ohi[a]; k++) t[k] = (int)a;
#pragma omp for schedule(static)
        for (long b = 0; b < nb; b++) out[b] = remap1d_gather(t, nlo[b], nhi[b], olo, ohi, mean, gx);
    }
}
/* 2D remap (sec. 3.3) on all cores */
static inline void hash_remap2d_omp(const int *oi, const int *oj, const int *ol, long na, const double *mean,
                                    const double *gx, const double *gy, const int *ni, const int *nj, const int *nl,
                                    long nb, int levmax, long W, long H, int *t, double *out, int threads)
{
    hash_write2d_omp(oi, oj, ol, na, levmax, W, H, t, threads);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) if (threads > 1)
    for (long b = 0; b < nb; b++) out[b] = remap2d_gather(b, oi, oj, ol, mean, gx, gy, ni, nj, nl, levmax, W, t);
}
/* table look-up (Listing 5) on all cores; method as in table_lookup_cpu */
static inline void table_lookup_omp(int method, const double *data, const double *xaxis, int nx, const double *yaxis,
                                    int ny, const double *qx, const double *qy, long nq, double *out, int threads)
{
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        int th, nt;
        long lo, hi;
        best_share(nq, threads, &th, &nt, &lo, &hi);
        table_lookup_cpu(method, data, xaxis, nx, yaxis, ny, qx + lo, qy + lo, hi - lo, out + lo);
    }
}

/* ---------- the k-D tree query loops on all cores (the build stays serial) ---------- */
static inline void kd1_neigh1d_omp(kd1 *t, const double *x, long n, int *left, int *right, int threads)
{
    kd1_build(t, x, n);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (long i = 0; i < n; i++) {
        int l = kd1_query(t, x[i], 1), r = kd1_query(t, x[i], 0);
        left[i] = l >= 0 ? l : (int)i;
        right[i] = r >= 0 ? r : (int)i;
    }
}
/* returns 0, or 1 when a face query found no cell (an invalid mesh) */
static inline int kd2_neigh2d_omp(kd2 *t, const amr_mesh *m, const kbox *boxes, int *nb, int threads)
{
    long W = amr_width(m), H = amr_height(m);
    int err = 0;
    kd2_build(t, boxes, m->n);
#pragma omp parallel for num_threads(threads) schedule(static) reduction(| : err) if (threads > 1)
    for (long c = 0; c < m->n; c++)
        if (kd2_cell_faces(t, boxes[c], c, W, H, &nb[4 * c], 0)) err = 1;
    return err;
}
/* k-D tree remap, one overlap query per new cell; hits: threads * cap ints */
static inline int kd2_remap_omp(kd2 *t, const kbox *oldb, long na, const double *mean, const double *gx,
                                const double *gy, const kbox *newb, long nb, int *hits, long cap, double *out,
                                int threads)
{
    int err = 0;
    kd2_build(t, oldb, na);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256) reduction(| : err) if (threads > 1)
    for (long b = 0; b < nb; b++) {
        int *h = hits + (long)best_thread_id() * cap;
        long nh = kd2_query(t, &newb[b], h, cap, 0);
        if (nh < 0) {
            err = 1;
            continue;
        }
        double s = 0;
        for (long k = 0; k < nh; k++) {
            int a = h[k];
            s += remap_overlap(&oldb[a], &newb[b], mean[a], gx[a], gy ? gy[a] : 0);
        }
        out[b] = s;
    }
    return err;
}

/* ---------- neighbours by sorting (the "sort, then look left and right" a user would write) ---------- */
/* 1D neighbours from the radix-sorted order: the left neighbour of the key at sorted
 * position p is the key at p - 1.  key/idx/k2/i2/hist as radix_pairs. */
static inline void radix_neigh1d(const double *x, long n, double xmin, double dmin, int bits, uint32_t *key, int *idx,
                                 uint32_t *k2, int *i2, long *hist, int *left, int *right, int threads)
{
    bucket_keys1d(x, n, xmin, dmin, key, idx, threads);
    radix_pairs(key, idx, k2, i2, n, bits, threads, hist);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (long p = 0; p < n; p++) {
        left[idx[p]] = p > 0 ? idx[p - 1] : idx[p];
        right[idx[p]] = p < n - 1 ? idx[p + 1] : idx[p];
    }
}

#endif
