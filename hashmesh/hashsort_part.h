/* hashsort_part.h -- the index logic of the partitioned GPU hash sort (hashsort_part.cuh) as
 * HD functions, and a serial CPU version of the whole algorithm built from them, so that the
 * partitioning is tested on a machine without a GPU (tests/host/test_hashmesh_partsort_cpu.c).
 * Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data", sec. 2.3 (the
 * perfect hash, eq. 2.13) and sec. 3.1 (the hash sort, Listing 1).
 *
 * The perfect hash b = floor((x - min) / dmin) of eq. (2.13) gives every key its own bucket
 * in [0, m).  The buckets are cut into partitions of W = 2^pw consecutive buckets:
 *     partition q = b >> pw,   slot s = b & (W - 1)   (hsp_part, hsp_slot).
 * Because no two keys share a bucket, a partition holds at most W keys, so partition q owns
 * a fixed region of W entries [q W, (q + 1) W) of the partition buffer (hsp_entry_at): a key
 * is appended to its partition's region without knowing any other partition's count, and
 * the buffer has parts * W >= m entries (the same 8 m bytes as the paper's table plus its
 * scan output).  The sorted output is partition after partition (partition q starts at the
 * number of keys in partitions < q); inside a partition, the keys are placed in a table of W
 * slots by their slot (the paper's single write, Listing 1 line 9) and the occupied slots
 * compacted in order (Listing 1 lines 13-19).  No key is ever compared with another.
 *
 * Plain C under cc; HD functions also run on the device. */
#ifndef HASHMESH_HASHSORT_PART_H
#define HASHMESH_HASHSORT_PART_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/hd.h"
#include "hash.h"

#define HSP_PW_MIN 8              /* smallest partition: 2^8 buckets (the place pass needs >= 64 slots a warp) */
#define HSP_PW_LIMIT 15           /* largest: a 2^15-slot int table is 128 KiB of shared memory */
#define HSP_PW_MAX_DEFAULT 14     /* default cap: a 64 KiB table, three place blocks per SM */
#define HSP_TARGET_PARTS 1024     /* auto pw: about this many partitions (parallelism of the place pass) */
#define HSP_SCATTER_THREADS 512   /* threads of a scatter block */
#define HSP_IPT_MAX 16            /* keys a scatter thread holds at most (tile = 512 * 16 = 8192 keys) */
#define HSP_MIN_TILES 256         /* auto tile size: at least this many scatter blocks (~2 per SM) */
#define HSP_AGG_MAX_BINS 12288    /* block histogram in shared memory up to this many partitions (48 KiB) */

/* one key in its partition's region: its slot in the partition and its index in the input */
#ifdef __CUDACC__
#define HSP_ALIGN8 __align__(8)
#else
#define HSP_ALIGN8 __attribute__((aligned(8)))
#endif
typedef struct HSP_ALIGN8 {
    unsigned slot, index;
} hsp_entry;

/* ---------- the partition of a bucket (eq. 2.13 split into high and low bits) ---------- */
static inline HD unsigned hsp_part(unsigned b, int pw) { return b >> pw; }
static inline HD unsigned hsp_slot(unsigned b, int pw) { return b & ((1u << pw) - 1u); }
/* position `pos` of partition q's region in the partition buffer */
static inline HD size_t hsp_entry_at(unsigned q, int pw, unsigned pos) { return ((size_t)q << pw) + pos; }
/* partitions covering m buckets */
static inline HD long hsp_parts_for(long m, int pw) { return ((m - 1) >> pw) + 1; }
/* threads of a place block: one warp per 1024 slots, between 4 and 32 warps; every warp then
 * owns a chunk of W / warps >= 64 slots (a multiple of 32) */
static inline HD int hsp_place_threads(int pw)
{
    int t = (1 << pw) / 32;
    return t < 128 ? 128 : t > 1024 ? 1024 : t;
}

/* ---------- the plan: partition width, tile size, aggregation ---------- */
typedef enum { HSP_AGG_AUTO, HSP_AGG_ON, HSP_AGG_OFF } hsp_agg;
typedef struct {
    int pw;        /* 0: automatic; else force 2^pw buckets a partition (HSP_PW_MIN..HSP_PW_LIMIT) */
    int pw_max;    /* 0: HSP_PW_MAX_DEFAULT; cap of the automatic pw */
    int ipt;       /* 0: automatic; else keys a scatter thread holds (1, 2, 4, 8 or 16) */
    hsp_agg agg;   /* block histogram (one global atomic per tile and partition) or one per key */
} hsp_tuning;

typedef struct {
    long n, m;          /* keys; buckets of the perfect hash (Listing 1, line 2) */
    int pw;             /* a partition is 2^pw buckets = the slots of one place block's table */
    long parts;         /* partitions: ceil(m / 2^pw) */
    int ipt;            /* keys per scatter thread */
    long tile;          /* keys per scatter block: HSP_SCATTER_THREADS * ipt */
    long tiles;         /* scatter blocks */
    int aggregate;      /* 1: per-block histogram in shared memory (parts <= HSP_AGG_MAX_BINS) */
    int place_threads;  /* threads of a place block */
    int keys;           /* 1: the sorted keys are written too */
} hsp_plan;

static inline int hsp_ceil_log2(long v)
{
    int b = 0;
    while (b < 62 && (1L << b) < v) b++;
    return b;
}

/* Fills p for n keys over m buckets, the indices only (keys = 0) or also the sorted keys
 * (keys = 1).  Returns 0, or 1 with a reason in why (n < 1, n or m beyond the 32-bit
 * indices, a forced pw or ipt out of range).  ipt 16 is taken only with the block histogram
 * and without the keys (64 registers a thread); otherwise it becomes 8. */
static inline int hsp_plan_make(hsp_plan *p, long n, long m, int keys, const hsp_tuning *t, char *why, size_t whysize)
{
    hsp_tuning def = {0, 0, 0, HSP_AGG_AUTO};
    if (!t) t = &def;
    memset(p, 0, sizeof *p);
    if (n < 1 || n > 2147483647L) return snprintf(why, whysize, "n = %ld: the sort takes 1 .. 2^31 - 1 keys", n), 1;
    if (m < n || m > 4294967296L)
        return snprintf(why, whysize, "m = %ld buckets: must be >= n (%ld) and <= 2^32 (32-bit bucket index)", m, n), 1;
    int cap = t->pw_max ? t->pw_max : HSP_PW_MAX_DEFAULT;
    if (cap < HSP_PW_MIN || cap > HSP_PW_LIMIT)
        return snprintf(why, whysize, "pw_max = %d: must be in %d .. %d", cap, HSP_PW_MIN, HSP_PW_LIMIT), 1;
    if (t->pw && (t->pw < HSP_PW_MIN || t->pw > HSP_PW_LIMIT))
        return snprintf(why, whysize, "pw = %d: must be in %d .. %d", t->pw, HSP_PW_MIN, HSP_PW_LIMIT), 1;
    if (t->ipt && (t->ipt > HSP_IPT_MAX || (t->ipt & (t->ipt - 1))))
        return snprintf(why, whysize, "ipt = %d: must be 1, 2, 4, 8 or 16", t->ipt), 1;
    int pw = t->pw;
    if (!pw) { /* about HSP_TARGET_PARTS partitions, within [HSP_PW_MIN, cap] */
        pw = hsp_ceil_log2((m + HSP_TARGET_PARTS - 1) / HSP_TARGET_PARTS);
        pw = pw < HSP_PW_MIN ? HSP_PW_MIN : pw > cap ? cap : pw;
    }
    int ipt = t->ipt;
    if (!ipt) { /* the largest tile that still gives >= HSP_MIN_TILES blocks */
        ipt = HSP_IPT_MAX;
        while (ipt > 1 && (n + (long)HSP_SCATTER_THREADS * ipt - 1) / ((long)HSP_SCATTER_THREADS * ipt) < HSP_MIN_TILES)
            ipt /= 2;
    }
    p->n = n;
    p->m = m;
    p->pw = pw;
    p->parts = hsp_parts_for(m, pw);
    p->ipt = ipt;
    p->tile = (long)HSP_SCATTER_THREADS * ipt;
    p->tiles = (n + p->tile - 1) / p->tile;
    /* a block histogram pays when a tile has at least about one key per partition */
    p->aggregate = t->agg == HSP_AGG_ON ? 1 : t->agg == HSP_AGG_OFF ? 0 : p->parts <= 2 * p->tile;
    if (p->parts > HSP_AGG_MAX_BINS) p->aggregate = 0;
    if (p->ipt > 8 && (keys || !p->aggregate)) {
        p->ipt = 8;
        p->tile = (long)HSP_SCATTER_THREADS * 8;
        p->tiles = (n + p->tile - 1) / p->tile;
    }
    p->keys = keys != 0;
    p->place_threads = hsp_place_threads(pw);
    return 0;
}

/* ---------- the whole sort, serially (the same steps as the two GPU passes) ---------- */
/* Scratch: cnt[parts], off[parts + 1], part[parts << pw], tab[2^pw].  idx receives the input
 * indices in key order, sorted (may be NULL) the keys.  Returns the number of keys written
 * (n, unless two keys share a bucket: the precondition of the perfect hash). */
static inline long hsp_sort_cpu(const double *x, const hsp_plan *p, double xmin, double dmin, unsigned *cnt,
                                long *off, hsp_entry *part, int *tab, int *idx, double *sorted)
{
    const int pw = p->pw;
    const unsigned W = 1u << pw;
    memset(cnt, 0, sizeof(unsigned) * (size_t)p->parts);
    /* scatter pass: each key appended to its partition's region */
    for (long i = 0; i < p->n; i++) {
        unsigned b = (unsigned)hash_bucket1d(x[i], xmin, dmin);
        unsigned q = hsp_part(b, pw), r = cnt[q]++;
        if (r < W) { /* a full region means a shared bucket: the key is dropped, as the paper's table overwrites */
            part[hsp_entry_at(q, pw, r)].slot = hsp_slot(b, pw);
            part[hsp_entry_at(q, pw, r)].index = (unsigned)i;
        }
    }
    /* offsets: partition q's output starts after the keys of partitions < q */
    off[0] = 0;
    for (long q = 0; q < p->parts; q++) off[q + 1] = off[q] + cnt[q];
    /* place pass: single write into the partition's table, then compaction in slot order */
    long written = 0;
    for (long q = 0; q < p->parts; q++) {
        long c = off[q + 1] - off[q];
        if (c > W) c = W;
        for (unsigned s = 0; s < W; s++) tab[s] = -1;
        for (long j = 0; j < c; j++) {
            const hsp_entry *e = &part[hsp_entry_at((unsigned)q, pw, (unsigned)j)];
            tab[e->slot] = (int)e->index;
        }
        long o = off[q];
        for (unsigned s = 0; s < W; s++)
            if (tab[s] >= 0) {
                idx[o] = tab[s];
                if (sorted) sorted[o] = x[tab[s]];
                o++;
                written++;
            }
    }
    return written;
}

#endif
