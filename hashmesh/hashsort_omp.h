/* hashsort_omp.h -- the partitioned hash sort on all CPU cores (OpenMP): the paper's 1D hash
 * sort (Robey, Nicholaeff, Robey, sec. 3.1, Listing 1; the perfect hash of sec. 2.3, eq.
 * 2.13) with its table cut into partitions of 2^pw buckets that each fit a core's L2 cache,
 * the CPU form of the ranked scheme of hashsort_part.h (same partitions and regions).
 *
 * Listing 1 on all cores (best.h hash_sort1d_omp) writes every key into one table of m ints:
 * beyond the caches every write is a cache miss of its own (and the table is cleared and
 * scanned in full).  Here:
 *   pass 1  (rank)   threads take chunks of `chunk` keys (dynamically): compute their buckets
 *                    (eq. 2.13) into a buffer that stays in the thread's L2, count them by
 *                    partition q = b >> pw, reserve one run a partition in q's fixed region
 *                    with one atomic add on q's counter (each chunk starts at another
 *                    partition, so the threads do not queue on the same counters), record the
 *                    run (start, count) for (chunk, q), then write every key's entry to its
 *                    run: the writes go to `parts` append fronts, a few lines each.  An entry
 *                    is 4 bytes: the slot (low pw bits of the bucket) and the key's place in
 *                    its chunk (the high 32 - pw bits; chunk <= 2^(32 - pw)).  Regions are
 *                    2^pw + HSP_OMP_PAD entries apart: a power-of-2 stride would put every
 *                    front in the same cache sets.
 *   offsets          the counters' prefix sum (one thread; parts is small) = where each
 *                    partition's keys start in the output; the counters are cleared.
 *   pass 2  (place)  partitions shared out dynamically: walking q's runs chunk by chunk (the
 *                    index of an entry is its chunk's first key plus its place), the thread's
 *                    table of 2^pw ints (in its L2) receives each key's index at its slot
 *                    (Listing 1, line 9) and the slot's bit in an occupancy bitmap (the
 *                    paper's "bucket not empty" as bits); the compaction (lines 13-19) walks
 *                    the bitmap a 64-bit word at a time and the set bits in slot order (count
 *                    trailing zeros): m / 64 words + n keys instead of m slots with a branch
 *                    each, and it clears the bitmap as it goes: nothing is cleared in full.
 * Bytes a key (indices only): read x 8, write the entry 4, read it 4, write idx 4 = 20 (28
 * with the reads a cached write costs first), every access sequential or inside L2; the run
 * records add 8 parts / chunk bytes a key (0.1 at 768 partitions).  Against the LSD radix
 * sort's 16 (keys) + 20 a pass (2 passes of 11 bits up to 2^22 buckets, 3 up to 2^33): 56 or
 * 76 B/key with scattered writes to 2048 digit fronts a thread.  An 8-byte entry (slot,
 * index), this sort's first form, cost 28 (40) bytes and twice the lines a key in both passes.
 * The sorted keys (optional) are gathered from x as in hash_sort1d_omp.
 *
 * No key is compared with another; the output is bitwise the serial hash_sort1d_cpu's.
 * Precondition (as Listing 1's): every key is in the table, 0 <= b < m.  Host only, plain C
 * with OpenMP pragmas (serial without -fopenmp). */
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
#define HSP_OMP_PAD 16            /* entries between two regions (one 64-byte line): no power-of-2 stride */
#define HSP_OMP_RUNS_MAX (1L << 26) /* most run records (chunks x partitions, 8 bytes each: 512 MiB) */

typedef struct {
    long n, m;        /* keys; buckets (Listing 1, line 2) */
    int pw, threads;  /* partitions of 2^pw buckets; threads */
    long parts;       /* ceil(m / 2^pw) */
    long chunk;       /* keys a thread ranks at a time (<= 2^(32 - pw)) */
    long nchunks;     /* ceil(n / chunk) */
    unsigned *cnt;    /* parts counters, zero between runs */
    unsigned long long *runs; /* nchunks * parts: chunk c's run in q at [c parts + q], start | count << 32 */
    long *off;        /* parts + 1 offsets */
    size_t stride;    /* entries from one region to the next: 2^pw + HSP_OMP_PAD */
    unsigned *part;   /* parts * stride entries (slot | place in chunk << pw): the fixed regions */
    int *tab;         /* threads << pw slots (only those with their bit set are read) */
    unsigned long long *occ; /* threads * words: the occupancy bitmaps, all zero between runs */
    size_t words;     /* 64-bit words of a bitmap: 2^pw / 64, at least 1 */
    unsigned *buck;   /* threads * chunk: a chunk's buckets */
    unsigned *cur;    /* threads * parts: a chunk's counts, then its runs' starts */
    unsigned **dst;   /* threads * parts: where a chunk's next entry of each partition goes */
} hsp_omp;

static inline int hsp_omp_thread(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* an entry: the slot s (< 2^pw) and the key's place j in its chunk (< 2^(32 - pw)) */
static inline unsigned hsp_omp_entry(unsigned s, unsigned j, int pw) { return s | j << pw; }
static inline unsigned hsp_omp_entry_slot(unsigned e, int pw) { return e & ((1u << pw) - 1u); }
static inline unsigned hsp_omp_entry_place(unsigned e, int pw) { return e >> pw; }

/* Allocates the sort of n keys over m buckets on `threads` threads; pw 0: automatic (about
 * HSP_OMP_TARGET_PARTS partitions, 2^10 .. 2^16 buckets each), chunk 0: HSP_OMP_CHUNK (at most
 * 2^(32 - pw)).  Returns 0, or 1 with a reason in why. */
static inline int hsp_omp_setup(hsp_omp *c, long n, long m, int threads, int pw, long chunk, char *why, size_t whysize)
{
    memset(c, 0, sizeof *c);
    if (n < 1 || n > 2147483647L) return snprintf(why, whysize, "n = %ld: the sort takes 1 .. 2^31 - 1 keys", n), 1;
    if (m < n || m > 4294967296L)
        return snprintf(why, whysize, "m = %ld buckets: must be >= n (%ld) and <= 2^32 (32-bit bucket index)", m, n), 1;
    if (threads < 1 || threads > 4096) return snprintf(why, whysize, "threads = %d: must be in 1 .. 4096", threads), 1;
    if (pw && (pw < HSP_PW_MIN || pw > 24)) return snprintf(why, whysize, "pw = %d: must be in %d .. 24", pw, HSP_PW_MIN), 1;
    c->pw = pw ? pw : hsp_auto_pw(m, HSP_OMP_TARGET_PARTS, HSP_OMP_PW_MIN, HSP_OMP_PW_MAX);
    const long chunk_max = 1L << (32 - c->pw); /* the place in a chunk keeps 32 - pw bits */
    if (chunk < 0 || chunk > chunk_max)
        return snprintf(why, whysize, "chunk = %ld: must be 0 (automatic) or 1 .. 2^%d (an entry keeps a key's place "
                        "in its chunk in 32 - pw bits)", chunk, 32 - c->pw), 1;
    c->n = n;
    c->m = m;
    c->threads = threads;
    c->parts = hsp_parts_for(m, c->pw);
    c->chunk = chunk ? chunk : HSP_OMP_CHUNK < chunk_max ? HSP_OMP_CHUNK : chunk_max;
    c->nchunks = (n + c->chunk - 1) / c->chunk;
    if (c->nchunks > HSP_OMP_RUNS_MAX / c->parts)
        return snprintf(why, whysize, "%ld chunks of %ld keys x %ld partitions: more than %ld run records", c->nchunks,
                        c->chunk, c->parts, HSP_OMP_RUNS_MAX), 1;
    c->cnt = (unsigned *)hsp_calloc((size_t)c->parts, sizeof(unsigned));
    c->runs = (unsigned long long *)hsp_calloc((size_t)c->nchunks * (size_t)c->parts, sizeof(unsigned long long));
    c->off = (long *)hsp_calloc((size_t)c->parts + 1, sizeof(long));
    c->stride = ((size_t)1 << c->pw) + HSP_OMP_PAD;
    c->part = (unsigned *)hsp_calloc((size_t)c->parts * c->stride, sizeof(unsigned)); /* pages: touched by the first run */
    c->tab = (int *)hsp_calloc((size_t)threads << c->pw, sizeof(int));
    c->words = ((size_t)1 << c->pw) / 64 ? ((size_t)1 << c->pw) / 64 : 1;
    c->occ = (unsigned long long *)hsp_calloc((size_t)threads * c->words, sizeof(unsigned long long)); /* all empty */
    c->buck = (unsigned *)hsp_calloc((size_t)threads * (size_t)c->chunk, sizeof(unsigned));
    c->cur = (unsigned *)hsp_calloc((size_t)threads * (size_t)c->parts, sizeof(unsigned));
    c->dst = (unsigned **)hsp_calloc((size_t)threads * (size_t)c->parts, sizeof(unsigned *));
    return 0;
}
static inline void hsp_omp_free(hsp_omp *c)
{
    free(c->cnt); free(c->runs); free(c->off); free(c->part); free(c->tab); free(c->occ); free(c->buck); free(c->cur);
    free(c->dst);
    memset(c, 0, sizeof *c);
}

/* pass 1 on chunk a (thread buffers bk, h, d): buckets and counts; one reservation a partition
 * (atomic), starting at partition a parts / nchunks; the runs recorded; every entry to its run */
static inline void hsp_omp_rank_chunk(const hsp_omp *c, const double *x, double xmin, double dmin, long a, unsigned *bk,
                                      unsigned *h, unsigned **d)
{
    const int pw = c->pw;
    const unsigned W = 1u << pw, parts = (unsigned)c->parts;
    const long i0 = a * c->chunk, len = i0 + c->chunk < c->n ? c->chunk : c->n - i0;
    const double *xs = x + i0;
    for (long j = 0; j < len; j++) {
        unsigned b = (unsigned)hash_bucket1d(xs[j], xmin, dmin); /* eq. (2.13) */
        bk[j] = b;
        h[hsp_part(b, pw)]++;
    }
    unsigned long long *run = c->runs + (size_t)a * parts;
    const unsigned rot = (unsigned)((unsigned long long)a * parts / (unsigned long long)c->nchunks);
    int full = 0; /* a run past its region's W entries: only if two keys share a bucket (precondition) */
    for (unsigned k = 0; k < parts; k++) {
        unsigned q = k < parts - rot ? k + rot : k - (parts - rot), cq = h[q], s = 0;
        if (cq) {
#ifdef _OPENMP
            s = __atomic_fetch_add(&c->cnt[q], cq, __ATOMIC_RELAXED); /* the run's start in q's region */
#else
            s = c->cnt[q];
            c->cnt[q] += cq;
#endif
            full |= s + cq > W || s + cq < s;
        }
        run[q] = s | (unsigned long long)cq << 32;
        h[q] = s;
    }
    unsigned *part = c->part;
    const size_t stride = c->stride;
    if (!full) { /* every run inside its region: a cursor a partition, no bound to test */
        for (unsigned q = 0; q < parts; q++) d[q] = part + (size_t)q * stride + h[q];
        const unsigned one = hsp_omp_entry(0u, 1u, pw), mask = W - 1u;
        unsigned jw = 0; /* hsp_omp_entry(0, j, pw), stepped */
        for (long j = 0; j < len; j++, jw += one) {
            unsigned b = bk[j];
            *d[hsp_part(b, pw)]++ = (b & mask) | jw;
        }
    } else {
        for (long j = 0; j < len; j++) {
            unsigned b = bk[j], q = hsp_part(b, pw), pos = h[q]++;
            if (pos < W) part[(size_t)q * stride + pos] = hsp_omp_entry(hsp_slot(b, pw), (unsigned)j, pw);
        }
    }
    memset(h, 0, sizeof(unsigned) * parts);
}

/* pass 2 on partition q with the thread's table tb and bitmap occ: single write (the index of
 * an entry: its chunk's first key + its place), compaction by the bitmap (left empty) */
static inline long hsp_omp_place(const hsp_omp *c, const double *x, long q, int *tb, unsigned long long *occ, int *idx,
                                 double *sorted)
{
    const int pw = c->pw;
    const unsigned W = 1u << pw;
    if (c->off[q + 1] <= c->off[q]) return 0;
    const unsigned *e = c->part + (size_t)q * c->stride;
    const unsigned long long *run = c->runs + q;
    for (long a = 0; a < c->nchunks; a++) { /* Listing 1, line 9; the bucket marked full */
        unsigned long long r = run[(size_t)a * (size_t)c->parts];
        unsigned s = (unsigned)r, end = s + (unsigned)(r >> 32);
        if (end > W || end < s) end = W; /* a full region: two keys shared a bucket */
        const int first = (int)(a * c->chunk);
        for (unsigned j = s; j < end; j++) {
            unsigned sl = hsp_omp_entry_slot(e[j], pw);
            tb[sl] = first + (int)hsp_omp_entry_place(e[j], pw);
            occ[sl >> 6] |= 1ull << (sl & 63u);
        }
    }
    int *out = idx + c->off[q];
    for (size_t w = 0; w < c->words; w++) { /* lines 13-19: the full buckets in order */
        unsigned long long bits = occ[w];
        const int *t = tb + w * 64;
        occ[w] = 0;
        while (bits) {
            *out++ = t[__builtin_ctzll(bits)];
            bits &= bits - 1;
        }
    }
    const long o0 = c->off[q], o = out - idx;
    if (sorted)
        for (long j = o0; j < o; j++) sorted[j] = x[idx[j]];
    return o - o0;
}

/* The sort: idx receives the input indices in key order, sorted (may be NULL) the keys.
 * Returns the number of keys written (n unless two keys share a bucket). */
static inline long hsp_sort_omp(hsp_omp *c, const double *x, double xmin, double dmin, int *idx, double *sorted)
{
    long written = 0;
#pragma omp parallel num_threads(c->threads) if (c->threads > 1) reduction(+ : written)
    {
        const int t = hsp_omp_thread();
        unsigned *bk = c->buck + (size_t)t * (size_t)c->chunk, *h = c->cur + (size_t)t * (size_t)c->parts;
        unsigned **d = c->dst + (size_t)t * (size_t)c->parts;
        int *tb = c->tab + ((size_t)t << c->pw);
        unsigned long long *occ = c->occ + (size_t)t * c->words;
#pragma omp for schedule(dynamic, 1)
        for (long a = 0; a < c->nchunks; a++) hsp_omp_rank_chunk(c, x, xmin, dmin, a, bk, h, d);
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
