/* hashsort_omp.h -- the partitioned hash sort on all CPU cores (OpenMP): the paper's 1D hash
 * sort (Robey, Nicholaeff, Robey, sec. 3.1, Listing 1; the perfect hash of sec. 2.3, eq.
 * 2.13) with its table cut into partitions of 2^pw buckets that each fit a core's L2 cache,
 * the CPU form of the ranked scheme of hashsort_part.h (same partitions, entries and regions).
 *
 * Listing 1 on all cores (best.h hash_sort1d_omp) writes every key into one table of m ints:
 * beyond the caches every write is a cache miss of its own (and the table is cleared and
 * scanned in full).  Here:
 *   pass 1  (rank)   each thread takes chunks of HSP_OMP_CHUNK keys: computes their buckets
 *                    (eq. 2.13) into a buffer that stays in its L2, counts them by partition
 *                    q = b >> pw, reserves one run a partition in q's fixed region with one
 *                    atomic add on q's counter, then writes every key's entry (slot, index) to
 *                    its run: the writes go to `parts` append fronts, a few lines each.  The
 *                    regions are 2^pw + HSP_OMP_PAD entries apart: a power-of-2 stride would
 *                    put every front in the same cache sets (measured here on one core at
 *                    2^21 keys: 12 ms for the entries' writes, 4 ms with the pad).
 *   offsets          the counters' prefix sum (one thread; parts is small) = where each
 *                    partition's keys start in the output; the counters are cleared.
 *   pass 2  (place)  partitions shared out dynamically: the thread's table of 2^pw ints (in
 *                    its L2) receives each entry's index at its slot (Listing 1, line 9) and
 *                    the slot's bit in an occupancy bitmap of 2^pw bits (the paper's "bucket
 *                    not empty", eq. 2.13's table as bits); the compaction (lines 13-19) walks
 *                    the bitmap a 64-bit word at a time and the set bits in slot order (count
 *                    trailing zeros), so it costs m / 64 words + n keys instead of m slots with
 *                    a branch each (3x less at the clustered keys' m = 6.5 n), and clears the
 *                    bitmap as it goes: nothing is cleared in full.
 * Bytes a key (indices only): read x 8, write the entry 8, read it 8, write idx 4 = 28, every
 * access sequential or inside L2, against the LSD radix sort's 16 (keys) + 20 a pass (2 passes
 * of 11 bits up to 2^22 buckets, 3 up to 2^33): 56 or 76 B/key with scattered writes to
 * 2048 digit fronts a thread.  The sorted keys (optional) are gathered from x as in
 * hash_sort1d_omp.
 *
 * No key is compared with another; the output is bitwise the serial hash_sort1d_cpu's.  Host
 * only, plain C with OpenMP pragmas (serial without -fopenmp). */
#ifndef HASHMESH_HASHSORT_OMP_H
#define HASHMESH_HASHSORT_OMP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "hash.h"
#include "hashsort_part.h"

#define HSP_OMP_CHUNK 65536       /* keys a thread ranks at a time (their buckets: 256 KiB) */
#define HSP_OMP_TARGET_PARTS 1024 /* about this many partitions (append fronts of pass 1) */
#define HSP_OMP_PW_MIN 10         /* smallest partition: 2^10 buckets */
#define HSP_OMP_PW_MAX 16         /* largest: a 2^16-int table is 256 KiB of a core's L2 */
#define HSP_OMP_PAD 8             /* entries between two regions (one 64-byte line): no power-of-2 stride */

typedef struct {
    long n, m;        /* keys; buckets (Listing 1, line 2) */
    int pw, threads;  /* partitions of 2^pw buckets; threads */
    long parts;       /* ceil(m / 2^pw) */
    long chunk;       /* keys a thread ranks at a time */
    unsigned *cnt;    /* parts counters, zero between runs */
    long *off;        /* parts + 1 offsets */
    size_t stride;    /* entries from one region to the next: 2^pw + HSP_OMP_PAD */
    hsp_entry *part;  /* parts * stride entries: the fixed regions */
    int *tab;         /* threads << pw slots (only those with their bit set are read) */
    unsigned long long *occ; /* threads * words: the occupancy bitmaps, all zero between runs */
    size_t words;     /* 64-bit words of a bitmap: 2^pw / 64, at least 1 */
    unsigned *buck;   /* threads * chunk: a chunk's buckets */
    unsigned *cur;    /* threads * parts: a chunk's counts, then its runs' cursors */
} hsp_omp;

static inline int hsp_omp_thread(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* Allocates the sort of n keys over m buckets on `threads` threads; pw 0: automatic (about
 * HSP_OMP_TARGET_PARTS partitions, 2^10 .. 2^16 buckets each), chunk 0: HSP_OMP_CHUNK.
 * Returns 0, or 1 with a reason in why. */
static inline int hsp_omp_setup(hsp_omp *c, long n, long m, int threads, int pw, long chunk, char *why, size_t whysize)
{
    memset(c, 0, sizeof *c);
    if (n < 1 || n > 2147483647L) return snprintf(why, whysize, "n = %ld: the sort takes 1 .. 2^31 - 1 keys", n), 1;
    if (m < n || m > 4294967296L)
        return snprintf(why, whysize, "m = %ld buckets: must be >= n (%ld) and <= 2^32 (32-bit bucket index)", m, n), 1;
    if (threads < 1 || threads > 4096) return snprintf(why, whysize, "threads = %d: must be in 1 .. 4096", threads), 1;
    if (pw && (pw < HSP_PW_MIN || pw > 24)) return snprintf(why, whysize, "pw = %d: must be in %d .. 24", pw, HSP_PW_MIN), 1;
    if (chunk < 0 || chunk > (1L << 24))
        return snprintf(why, whysize, "chunk = %ld: must be 0 (automatic) or 1 .. 2^24", chunk), 1;
    c->n = n;
    c->m = m;
    c->threads = threads;
    c->pw = pw ? pw : hsp_auto_pw(m, HSP_OMP_TARGET_PARTS, HSP_OMP_PW_MIN, HSP_OMP_PW_MAX);
    c->parts = hsp_parts_for(m, c->pw);
    c->chunk = chunk ? chunk : HSP_OMP_CHUNK;
    c->cnt = (unsigned *)hsp_calloc((size_t)c->parts, sizeof(unsigned));
    c->off = (long *)hsp_calloc((size_t)c->parts + 1, sizeof(long));
    c->stride = ((size_t)1 << c->pw) + HSP_OMP_PAD;
    c->part = (hsp_entry *)hsp_calloc((size_t)c->parts * c->stride, sizeof(hsp_entry)); /* pages: touched by the first run */
    c->tab = (int *)hsp_calloc((size_t)threads << c->pw, sizeof(int));
    c->words = ((size_t)1 << c->pw) / 64 ? ((size_t)1 << c->pw) / 64 : 1;
    c->occ = (unsigned long long *)hsp_calloc((size_t)threads * c->words, sizeof(unsigned long long)); /* all empty */
    c->buck = (unsigned *)hsp_calloc((size_t)threads * (size_t)c->chunk, sizeof(unsigned));
    c->cur = (unsigned *)hsp_calloc((size_t)threads * (size_t)c->parts, sizeof(unsigned));
    return 0;
}
static inline void hsp_omp_free(hsp_omp *c)
{
    free(c->cnt); free(c->off); free(c->part); free(c->tab); free(c->occ); free(c->buck); free(c->cur);
    memset(c, 0, sizeof *c);
}

/* pass 1 on one chunk [i0, i1) (thread buffers bk, h): buckets, counts, one reservation a
 * partition (atomic), every entry to its run */
static inline void hsp_omp_rank_chunk(const hsp_omp *c, const double *x, double xmin, double dmin, long i0, long i1,
                                      unsigned *bk, unsigned *h)
{
    const int pw = c->pw;
    const unsigned W = 1u << pw, parts = (unsigned)c->parts;
    for (long i = i0; i < i1; i++) {
        unsigned b = (unsigned)hash_bucket1d(x[i], xmin, dmin); /* eq. (2.13) */
        bk[i - i0] = b;
        if (hsp_part(b, pw) < parts) h[hsp_part(b, pw)]++;
    }
    for (unsigned q = 0; q < parts; q++)
        if (h[q]) {
#ifdef _OPENMP
            h[q] = __atomic_fetch_add(&c->cnt[q], h[q], __ATOMIC_RELAXED); /* the run's start in q's region */
#else
            unsigned k = h[q];
            h[q] = c->cnt[q];
            c->cnt[q] += k;
#endif
        }
    for (long i = i0; i < i1; i++) {
        unsigned b = bk[i - i0], q = hsp_part(b, pw);
        if (q >= parts) continue; /* a key beyond the table (not a key of this table) */
        unsigned pos = h[q]++;
        if (pos < W) { /* pos >= W only if two keys share a bucket (precondition) */
            hsp_entry *e = &c->part[(size_t)q * c->stride + pos];
            e->slot = hsp_slot(b, pw);
            e->index = (unsigned)i;
        }
    }
    memset(h, 0, sizeof(unsigned) * c->parts);
}

/* pass 2 on partition q with the thread's table tb and bitmap occ: single write, compaction
 * by the bitmap (which it leaves empty) */
static inline long hsp_omp_place(const hsp_omp *c, const double *x, long q, int *tb, unsigned long long *occ, int *idx,
                                 double *sorted)
{
    const int pw = c->pw;
    const unsigned W = 1u << pw;
    long o = c->off[q], k = c->off[q + 1] - o;
    if (k <= 0) return 0;
    if (k > (long)W) k = W;
    const hsp_entry *e = c->part + (size_t)q * c->stride;
    for (long j = 0; j < k; j++) { /* Listing 1, line 9; the bucket marked full */
        unsigned s = e[j].slot;
        tb[s] = (int)e[j].index;
        occ[s >> 6] |= 1ull << (s & 63u);
    }
    const long o0 = o;
    for (size_t w = 0; w < c->words; w++) { /* lines 13-19: the full buckets in order */
        unsigned long long bits = occ[w];
        occ[w] = 0;
        while (bits) {
            idx[o++] = tb[w * 64 + (unsigned)__builtin_ctzll(bits)];
            bits &= bits - 1;
        }
    }
    if (sorted)
        for (long j = o0; j < o; j++) sorted[j] = x[idx[j]];
    return o - o0;
}

/* The sort: idx receives the input indices in key order, sorted (may be NULL) the keys.
 * Returns the number of keys written (n unless two keys share a bucket). */
static inline long hsp_sort_omp(hsp_omp *c, const double *x, double xmin, double dmin, int *idx, double *sorted)
{
    const long nchunks = (c->n + c->chunk - 1) / c->chunk;
    long written = 0;
#pragma omp parallel num_threads(c->threads) if (c->threads > 1) reduction(+ : written)
    {
        const int t = hsp_omp_thread();
        unsigned *bk = c->buck + (size_t)t * (size_t)c->chunk, *h = c->cur + (size_t)t * (size_t)c->parts;
        int *tb = c->tab + ((size_t)t << c->pw);
        unsigned long long *occ = c->occ + (size_t)t * c->words;
#pragma omp for schedule(dynamic, 1)
        for (long a = 0; a < nchunks; a++) {
            long i0 = a * c->chunk, i1 = i0 + c->chunk < c->n ? i0 + c->chunk : c->n;
            hsp_omp_rank_chunk(c, x, xmin, dmin, i0, i1, bk, h);
        }
#pragma omp single
        { /* where each partition's keys start; the counters cleared for the next run */
            long s = 0;
            for (long q = 0; q < c->parts; q++) {
                c->off[q] = s;
                s += c->cnt[q];
                c->cnt[q] = 0;
            }
            c->off[c->parts] = s;
        }
#pragma omp for schedule(dynamic, 1)
        for (long q = 0; q < c->parts; q++) written += hsp_omp_place(c, x, q, tb, occ, idx, sorted);
    }
    return written;
}

#endif
