/* hashsort_part.h -- the index logic of the partitioned GPU hash sort (hashsort_part.cuh) as
 * HD functions, and a serial CPU version of each of its schemes built from them, so that the
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
 * Three schemes move the keys into the partitions (hsp_scheme; the model of their bytes and
 * DRAM sectors is at the top of hashsort_part.cuh):
 *   direct     every key stored to its region on its own (one 8-byte store a key, in the
 *              order of the input): the small-n scheme, where every array stays in L2.
 *   ranked     a tile of keys is first ranked by partition in shared memory (a counting sort
 *              of the tile: a histogram, its scan, one reservation per partition and tile),
 *              then written partition by partition, so a partition's keys of one tile leave
 *              as one contiguous run (whole DRAM sectors, coalesced stores).  Needs few
 *              partitions: a tile of 8192 keys should give each one several keys.
 *   two-level  when the tables would need more partitions than that (m > 2048 * 2^15): a
 *              ranked pass into coarse partitions of 2^pw1 buckets, then a ranked pass that
 *              splits every coarse partition q into its R = 2^rbits fine ones of 2^pw
 *              buckets (rbits = pw1 - pw), whose tables fit shared memory: the fine
 *              partition of coarse slot s1 is f = (q << rbits) + (s1 >> pw) (hsp_fine_part).
 *              The fine partitions of q are consecutive in the output, so f starts at q's
 *              start plus the keys of its earlier siblings (hsp_fine_base).  The fine pass is
 *              tiled over the coarse partitions' entries: tile t belongs to the coarse q with
 *              tstart[q] <= t < tstart[q + 1] (hsp_tile_part), tstart being the scan of the
 *              partitions' ceil(count / tile) (hsp_tiles_of).
 * Inside a region the order of the keys is whatever the atomics gave: the place pass puts
 * them by address, so it never matters and the output is the same bitwise.
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
#define HSP_PW_MAX_DEFAULT 14     /* direct: default cap, a 64 KiB table, three place blocks per SM */
#define HSP_TARGET_PARTS 1024     /* auto pw: about this many partitions (parallelism of the place pass) */
#define HSP_SCATTER_THREADS 512   /* threads of a scatter block (every scheme) */
#define HSP_IPT_MAX 16            /* keys a scatter thread holds at most (tile = 512 * 16 = 8192 keys) */
#define HSP_MIN_TILES 256         /* auto tile size: at least this many scatter blocks (~2 per SM) */
#define HSP_AGG_MAX_BINS 12288    /* direct: block histogram in shared memory up to this many partitions (48 KiB) */
/* the ranked schemes */
#define HSP_RANK_MIN_N (1L << 22) /* auto: ranked from this many keys; below, every array is in L2 and direct wins */
#define HSP_RANK_PARTS_MAX 2048   /* auto: one ranked pass up to this many partitions (>= 4 keys each in a tile of 8192) */
#define HSP_RANK_BINS_LIMIT 8192  /* most partitions one ranked pass may split into (8 bytes of shared memory each) */
#define HSP_RANK_IPT_MIN 4        /* ranked: 4, 8 or 16 keys a thread */
#define HSP_COARSE_TARGET 1024    /* two-level, auto: about this many coarse partitions (>= 8 keys each in a tile) */
#define HSP_COARSE_PW_LIMIT 24    /* two-level: widest coarse partition (2^24 buckets: m up to 2^32 in 256 of them) */
#define HSP_FINE_PW 14            /* two-level, auto: the fine width (a 64 KiB table, three place blocks per SM) */
#define HSP_FINE_IPT 16           /* two-level, auto: keys a thread of the fine pass (tile 8192: runs >= 32 keys) */
/* auto: warp-aggregated ranking (__match_any_sync) only into at most this many partitions.  On
 * an H200 it paid where most of a warp's keys share a partition: the fine pass into 2 fine
 * partitions a coarse one was 6 % faster with it, into 4 even; into 16 (2^27 uniform keys)
 * and 64 (2^27 clustered) the shared-memory atomic a key was 1.2x and 1.4x faster. */
#define HSP_MATCH_BINS 4
/* auto: the place pass scans the int table; the occupancy-bitmap pass (HSP_BITMAP_ON) was
 * 1-4 % slower on an H200 even at the clustered keys' m of about 5 n, for which it was made */

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

/* ---------- the bitmap place pass: the full buckets of a table found in its occupancy bits ---------- */
static inline HD int hsp_popc(unsigned v)
{
#ifdef __CUDA_ARCH__
    return __popc(v);
#else
    return __builtin_popcount(v);
#endif
}
/* position of set bit number r (0 = the lowest) of w; needs r < popc(w) */
static inline HD int hsp_nth_bit(unsigned w, int r)
{
    int pos = 0;
    for (int half = 16; half > 0; half >>= 1) {
        unsigned low = w & ((1u << half) - 1u);
        int c = hsp_popc(low);
        if (r >= c) {
            r -= c;
            w >>= half;
            pos += half;
        } else
            w = low;
    }
    return pos;
}
/* the lane (0..31) that holds output p of a warp whose lanes' inclusive key counts are incl
 * (non-decreasing, p < incl[31]): the number of lanes with incl <= p (binary lifting; the
 * device does the same steps with shuffles) */
static inline HD int hsp_lane_of(const int *incl, int p)
{
    int L = 0;
    for (int step = 16; step > 0; step >>= 1)
        if (incl[L + step - 1] <= p) L += step;
    return L;
}
/* 32-bit words of a place block's occupancy bitmap, and the words each of its warps owns */
static inline HD int hsp_bit_words(int pw) { return (1 << pw) >> 5; }
static inline HD int hsp_warp_words(int pw) { return hsp_bit_words(pw) / (hsp_place_threads(pw) >> 5); }

/* ---------- two-level: fine partitions, the fine pass's tiles, where a fine partition starts ---------- */
/* fine partition of slot s1 (< 2^pw1) of coarse partition q: the fine width pw = pw1 - rbits */
static inline HD unsigned hsp_fine_part(unsigned q, int rbits, unsigned s1, int pw) { return (q << rbits) + (s1 >> pw); }
/* keys of a region: its count, at most its width (more only if two keys shared a bucket) */
static inline HD unsigned hsp_clamp(unsigned c, unsigned W) { return c < W ? c : W; }
/* tiles of `tile` keys over c keys */
static inline HD unsigned hsp_tiles_of(unsigned c, unsigned tile) { return (c + tile - 1) / tile; }
/* The coarse partition of fine-pass tile t: the q in [0, parts) with tstart[q] <= t <
 * tstart[q + 1] (tstart: the exclusive scan of the partitions' tiles, tstart[parts] their
 * total; a partition without keys has none), or -1 when t >= tstart[parts]. */
static inline HD long hsp_tile_part(const int *tstart, long parts, long t)
{
    if (t >= tstart[parts]) return -1;
    long lo = 0, hi = parts; /* tstart[lo] <= t < tstart[hi] */
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (tstart[mid] <= t) lo = mid;
        else hi = mid;
    }
    return lo;
}
/* Where fine partition f starts in the output: its coarse partition's start off1[f >> rbits]
 * plus the keys of its earlier siblings (counts cnt2, each clamped to the fine width W). */
static inline HD long hsp_fine_base(const int *off1, const unsigned *cnt2, long f, int rbits, unsigned W)
{
    long first = (f >> rbits) << rbits, base = off1[f >> rbits];
    for (long g = first; g < f; g++) base += hsp_clamp(cnt2[g], W);
    return base;
}

/* ---------- the plan: scheme, partition widths, tile sizes ---------- */
typedef enum { HSP_SCHEME_AUTO, HSP_SCHEME_DIRECT, HSP_SCHEME_RANKED, HSP_SCHEME_TWO_LEVEL } hsp_scheme;
static const char *const HSP_SCHEME_NAME[] = {"auto", "direct", "ranked", "two-level"};
typedef enum { HSP_AGG_AUTO, HSP_AGG_ON, HSP_AGG_OFF } hsp_agg;
typedef enum { HSP_MATCH_AUTO, HSP_MATCH_ON, HSP_MATCH_OFF } hsp_match;
typedef enum { HSP_BITMAP_AUTO, HSP_BITMAP_ON, HSP_BITMAP_OFF } hsp_bitmap;
typedef struct {
    int pw;        /* 0: automatic; else force 2^pw buckets a (fine) partition (HSP_PW_MIN..HSP_PW_LIMIT) */
    int pw_max;    /* 0: default (direct HSP_PW_MAX_DEFAULT, ranked HSP_PW_LIMIT); cap of the automatic pw */
    int ipt;       /* 0: automatic; else keys a scatter thread holds (direct 1..16, ranked 4..16, powers of 2) */
    hsp_agg agg;   /* direct: block histogram (one global atomic per tile and partition) or one per key */
    hsp_scheme scheme; /* 0: automatic (direct below HSP_RANK_MIN_N keys or with the keys, else ranked or two-level) */
    int parts_max; /* 0: HSP_RANK_PARTS_MAX; auto: ranked while the partitions are at most this many, else two-level */
    int coarse_pw; /* two-level: 0 automatic (about HSP_COARSE_TARGET coarse partitions), else pw + 1 .. 24 */
    hsp_match match; /* ranked passes: rank with __match_any_sync (one atomic a warp and bin) or an atomic a key
                        (auto: match into at most HSP_MATCH_BINS partitions) */
    int ipt2;      /* two-level: 0 automatic (HSP_FINE_IPT), else keys a thread of the fine pass (4, 8 or 16) */
    hsp_bitmap bitmap; /* ranked schemes' place pass: occupancy bitmap (ON) or the int table's scan (auto, OFF) */
} hsp_tuning;

typedef struct {
    long n, m;          /* keys; buckets of the perfect hash (Listing 1, line 2) */
    hsp_scheme scheme;  /* direct, ranked or two-level (never auto) */
    int pw;             /* a (fine) partition is 2^pw buckets = the slots of one place block's table */
    long parts;         /* (fine) partitions: ceil(m / 2^pw) (two-level: parts1 << rbits) */
    int pw1;            /* the first pass's partitions: 2^pw1 buckets (pw, except two-level's coarse ones) */
    long parts1;        /* the first pass's partitions (its counters and offsets) */
    int rbits;          /* two-level: a coarse partition is 2^rbits fine ones (pw1 - pw); else 0 */
    int ipt;            /* keys per thread of the first pass */
    long tile;          /* keys per block of the first pass: HSP_SCATTER_THREADS * ipt */
    long tiles;         /* blocks of the first pass */
    int ipt2;           /* two-level: keys per thread of the fine pass */
    long tile2, tiles2; /* two-level: keys per fine-pass block; its grid (an upper bound of its tiles) */
    int aggregate;      /* direct: 1 = per-block histogram in shared memory (parts <= HSP_AGG_MAX_BINS) */
    int match1, match2; /* ranked passes: warp-aggregated ranking in the first / the fine pass */
    int bitmap;         /* ranked schemes: the place pass finds the full buckets in a bitmap (hsp_place_bits_cpu) */
    int place_threads;  /* threads of a place block */
    int keys;           /* 1: the sorted keys are written too (direct only) */
} hsp_plan;

static inline int hsp_ceil_log2(long v)
{
    int b = 0;
    while (b < 62 && (1L << b) < v) b++;
    return b;
}
/* bytes of shared memory of a ranked block: staged bucket and index of `tile` keys, the
 * local offset and reservation of `bins` partitions */
static inline size_t hsp_rank_smem(long tile, long bins) { return sizeof(unsigned) * 2 * ((size_t)tile + (size_t)bins); }
/* the largest power-of-2 keys a thread (<= HSP_IPT_MAX, >= lo) that still gives >= HSP_MIN_TILES tiles */
static inline int hsp_auto_ipt(long n, int lo)
{
    int ipt = HSP_IPT_MAX;
    while (ipt > lo && (n + (long)HSP_SCATTER_THREADS * ipt - 1) / ((long)HSP_SCATTER_THREADS * ipt) < HSP_MIN_TILES) ipt /= 2;
    return ipt;
}
/* the automatic width: about `target` partitions over m buckets, within [lo, hi] */
static inline int hsp_auto_pw(long m, long target, int lo, int hi)
{
    int pw = hsp_ceil_log2((m + target - 1) / target);
    return pw < lo ? lo : pw > hi ? hi : pw;
}

/* the direct scheme's plan (the first version of this sort) */
static inline int hsp_plan_direct(hsp_plan *p, const hsp_tuning *t, char *why, size_t whysize)
{
    int cap = t->pw_max ? t->pw_max : HSP_PW_MAX_DEFAULT;
    if (t->ipt && (t->ipt > HSP_IPT_MAX || (t->ipt & (t->ipt - 1))))
        return snprintf(why, whysize, "ipt = %d: must be 1, 2, 4, 8 or 16", t->ipt), 1;
    int pw = t->pw ? t->pw : hsp_auto_pw(p->m, HSP_TARGET_PARTS, HSP_PW_MIN, cap);
    int ipt = t->ipt ? t->ipt : hsp_auto_ipt(p->n, 1);
    p->pw = p->pw1 = pw;
    p->parts = p->parts1 = hsp_parts_for(p->m, pw);
    p->ipt = ipt;
    p->tile = (long)HSP_SCATTER_THREADS * ipt;
    p->tiles = (p->n + p->tile - 1) / p->tile;
    /* a block histogram pays when a tile has at least about one key per partition */
    p->aggregate = t->agg == HSP_AGG_ON ? 1 : t->agg == HSP_AGG_OFF ? 0 : p->parts <= 2 * p->tile;
    if (p->parts > HSP_AGG_MAX_BINS) p->aggregate = 0;
    if (p->ipt > 8 && (p->keys || !p->aggregate)) { /* 16 keys a thread fit 64 registers only so */
        p->ipt = 8;
        p->tile = (long)HSP_SCATTER_THREADS * 8;
        p->tiles = (p->n + p->tile - 1) / p->tile;
    }
    return 0;
}

/* the ranked and two-level schemes' plan; scheme: RANKED, TWO_LEVEL or AUTO (either) */
static inline int hsp_plan_ranked(hsp_plan *p, const hsp_tuning *t, hsp_scheme scheme, char *why, size_t whysize)
{
    int cap = t->pw_max ? t->pw_max : HSP_PW_LIMIT;
    long pmax = t->parts_max ? t->parts_max : HSP_RANK_PARTS_MAX;
    if (t->ipt && (t->ipt < HSP_RANK_IPT_MIN || t->ipt > HSP_IPT_MAX || (t->ipt & (t->ipt - 1))))
        return snprintf(why, whysize, "ipt = %d: the ranked schemes take 4, 8 or 16", t->ipt), 1;
    if (pmax < 1 || pmax > HSP_RANK_BINS_LIMIT)
        return snprintf(why, whysize, "parts_max = %ld: must be in 1 .. %d", pmax, HSP_RANK_BINS_LIMIT), 1;
    int pw = t->pw ? t->pw : hsp_auto_pw(p->m, HSP_TARGET_PARTS, HSP_PW_MIN, cap);
    if (scheme == HSP_SCHEME_AUTO) scheme = hsp_parts_for(p->m, pw) <= pmax ? HSP_SCHEME_RANKED : HSP_SCHEME_TWO_LEVEL;
    p->scheme = scheme;
    if (scheme == HSP_SCHEME_RANKED) {
        p->pw = p->pw1 = pw;
        p->parts = p->parts1 = hsp_parts_for(p->m, pw);
        p->rbits = 0;
        if (p->parts > HSP_RANK_BINS_LIMIT)
            return snprintf(why, whysize, "ranked: %ld partitions of 2^%d buckets exceed %d (two-level splits them)",
                            p->parts, pw, HSP_RANK_BINS_LIMIT), 1;
    } else {
        p->pw = t->pw ? t->pw : HSP_FINE_PW;
        int lo = p->pw + 1;
        if (t->coarse_pw && (t->coarse_pw < lo || t->coarse_pw > HSP_COARSE_PW_LIMIT))
            return snprintf(why, whysize, "coarse_pw = %d: must be in %d .. %d (wider than the fine pw %d)", t->coarse_pw,
                            lo, HSP_COARSE_PW_LIMIT, p->pw), 1;
        p->pw1 = t->coarse_pw ? t->coarse_pw : hsp_auto_pw(p->m, HSP_COARSE_TARGET, lo, HSP_COARSE_PW_LIMIT);
        p->rbits = p->pw1 - p->pw;
        p->parts1 = hsp_parts_for(p->m, p->pw1);
        p->parts = p->parts1 << p->rbits;
        if (p->parts1 > HSP_RANK_BINS_LIMIT || (1L << p->rbits) > HSP_RANK_BINS_LIMIT)
            return snprintf(why, whysize, "two-level: %ld coarse partitions of 2^%d buckets, each of 2^%d fine ones: "
                            "at most %d a pass", p->parts1, p->pw1, p->rbits, HSP_RANK_BINS_LIMIT), 1;
        if (t->ipt2 && (t->ipt2 < HSP_RANK_IPT_MIN || t->ipt2 > HSP_IPT_MAX || (t->ipt2 & (t->ipt2 - 1))))
            return snprintf(why, whysize, "ipt2 = %d: the fine pass takes 4, 8 or 16", t->ipt2), 1;
        p->ipt2 = t->ipt2 ? t->ipt2 : HSP_FINE_IPT;
        p->tile2 = (long)HSP_SCATTER_THREADS * p->ipt2;
        p->tiles2 = p->n / p->tile2 + p->parts1; /* sum over q of ceil(c_q / tile2) < n / tile2 + parts1 */
    }
    p->ipt = t->ipt ? t->ipt : hsp_auto_ipt(p->n, HSP_RANK_IPT_MIN);
    p->tile = (long)HSP_SCATTER_THREADS * p->ipt;
    p->tiles = (p->n + p->tile - 1) / p->tile;
    p->match1 = t->match == HSP_MATCH_ON || (t->match == HSP_MATCH_AUTO && p->parts1 <= HSP_MATCH_BINS);
    p->match2 = p->rbits && (t->match == HSP_MATCH_ON || (t->match == HSP_MATCH_AUTO && (1L << p->rbits) <= HSP_MATCH_BINS));
    p->bitmap = t->bitmap == HSP_BITMAP_ON; /* auto: the int table's scan (the note above HSP_MATCH_BINS) */
    return 0;
}

/* Fills p for n keys over m buckets, the indices only (keys = 0) or also the sorted keys
 * (keys = 1, the direct scheme only).  Returns 0, or 1 with a reason in why (n < 1, n or m
 * beyond the 32-bit indices, a forced value out of range).  Direct: ipt 16 is taken only with
 * the block histogram and without the keys (64 registers a thread); otherwise it becomes 8. */
static inline int hsp_plan_make(hsp_plan *p, long n, long m, int keys, const hsp_tuning *t, char *why, size_t whysize)
{
    hsp_tuning def;
    memset(&def, 0, sizeof def);
    if (!t) t = &def;
    memset(p, 0, sizeof *p);
    if (n < 1 || n > 2147483647L) return snprintf(why, whysize, "n = %ld: the sort takes 1 .. 2^31 - 1 keys", n), 1;
    if (m < n || m > 4294967296L)
        return snprintf(why, whysize, "m = %ld buckets: must be >= n (%ld) and <= 2^32 (32-bit bucket index)", m, n), 1;
    if (t->pw_max && (t->pw_max < HSP_PW_MIN || t->pw_max > HSP_PW_LIMIT))
        return snprintf(why, whysize, "pw_max = %d: must be in %d .. %d", t->pw_max, HSP_PW_MIN, HSP_PW_LIMIT), 1;
    if (t->pw && (t->pw < HSP_PW_MIN || t->pw > HSP_PW_LIMIT))
        return snprintf(why, whysize, "pw = %d: must be in %d .. %d", t->pw, HSP_PW_MIN, HSP_PW_LIMIT), 1;
    if ((int)t->scheme < HSP_SCHEME_AUTO || (int)t->scheme > HSP_SCHEME_TWO_LEVEL)
        return snprintf(why, whysize, "scheme = %d: unknown", (int)t->scheme), 1;
    hsp_scheme scheme = t->scheme;
    if (scheme == HSP_SCHEME_AUTO && (keys || n < HSP_RANK_MIN_N)) scheme = HSP_SCHEME_DIRECT;
    if (keys && scheme != HSP_SCHEME_DIRECT)
        return snprintf(why, whysize, "the %s scheme writes the indices only (the sorted keys: direct)",
                        HSP_SCHEME_NAME[scheme]), 1;
    p->n = n;
    p->m = m;
    p->keys = keys != 0;
    p->scheme = scheme;
    int bad = scheme == HSP_SCHEME_DIRECT ? hsp_plan_direct(p, t, why, whysize) : hsp_plan_ranked(p, t, scheme, why, whysize);
    if (bad) return 1;
    p->place_threads = hsp_place_threads(p->pw);
    return 0;
}

/* ---------- the direct scheme, serially (the same steps as its two GPU passes) ---------- */
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


/* ---------- the ranked and two-level schemes, serially (the same steps as their GPU passes) ---------- */
/* One ranked tile: count keys with bucket u[j] (inside the pass's source: partition u >> shift
 * among `bins` partitions numbered from bin_base) and input index ix[j].  The counting sort of
 * the tile (rank r = the key's place among its partition's keys of the tile, local offset
 * lofs = the scan of the tile's counts), one reservation gbase per partition from its
 * counter, then the staged keys written in order: a partition's keys of the tile leave as
 * one run at gbase + (j - lofs).  Scratch: lofs, gbase (bins), r, stage_u, stage_i (count). */
static inline void hsp_rank_tile_cpu(const unsigned *u, const unsigned *ix, int count, int shift, unsigned bins,
                                     unsigned bin_base, unsigned *cnt, hsp_entry *dst, unsigned *lofs, unsigned *gbase,
                                     unsigned *r, unsigned *stage_u, unsigned *stage_i)
{
    const unsigned W = 1u << shift;
    memset(lofs, 0, sizeof(unsigned) * bins);
    for (int j = 0; j < count; j++) r[j] = lofs[u[j] >> shift]++; /* the shared-memory atomic */
    unsigned run = 0;
    for (unsigned b = 0; b < bins; b++) { /* the block scan, one reservation a partition */
        unsigned c = lofs[b];
        lofs[b] = run;
        run += c;
        if (c) {
            gbase[b] = cnt[bin_base + b];
            cnt[bin_base + b] += c;
        }
    }
    for (int j = 0; j < count; j++) {
        unsigned pos = lofs[u[j] >> shift] + r[j];
        stage_u[pos] = u[j];
        stage_i[pos] = ix[j];
    }
    for (int j = 0; j < count; j++) {
        unsigned b = stage_u[j] >> shift, g = gbase[b] + ((unsigned)j - lofs[b]);
        if (g < W) { /* g >= W only if two keys share a bucket (precondition) */
            hsp_entry *e = &dst[hsp_entry_at(bin_base + b, shift, g)];
            e->slot = stage_u[j] & (W - 1u);
            e->index = stage_i[j];
        }
    }
}

/* Buffers of the serial ranked / two-level sort (hsp_cpu_bufs_alloc): the GPU's, plus one tile's */
typedef struct {
    unsigned *cnt1;    /* parts1 counters of the first pass */
    int *off1;         /* parts1 + 1 offsets */
    int *tstart;       /* parts1 + 1 tile starts of the fine pass (two-level) */
    hsp_entry *part1;  /* parts1 << pw1 entries */
    unsigned *cnt2;    /* two-level: parts fine counters */
    hsp_entry *part2;  /* two-level: parts << pw entries */
    int *tab;          /* 2^pw slots */
    unsigned *bits;    /* the bitmap place pass's 2^pw bits */
    unsigned *lofs, *gbase, *r, *stage_u, *stage_i, *u, *ix; /* one tile's */
} hsp_cpu_bufs;

static inline void *hsp_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size);
    if (!p) {
        fprintf(stderr, "error: out of host memory (%zu x %zu bytes)\n", count, size);
        exit(1);
    }
    return p;
}
static inline void hsp_cpu_bufs_alloc(hsp_cpu_bufs *b, const hsp_plan *p)
{
    size_t fine_bins = (size_t)1 << p->rbits, bins = (size_t)p->parts1 > fine_bins ? (size_t)p->parts1 : fine_bins;
    size_t tile = (size_t)(p->tile > p->tile2 ? p->tile : p->tile2);
    b->cnt1 = (unsigned *)hsp_calloc((size_t)p->parts1, sizeof(unsigned));
    b->off1 = (int *)hsp_calloc((size_t)p->parts1 + 1, sizeof(int));
    b->tstart = (int *)hsp_calloc((size_t)p->parts1 + 1, sizeof(int));
    b->part1 = (hsp_entry *)hsp_calloc((size_t)p->parts1 << p->pw1, sizeof(hsp_entry));
    b->cnt2 = p->rbits ? (unsigned *)hsp_calloc((size_t)p->parts, sizeof(unsigned)) : NULL;
    b->part2 = p->rbits ? (hsp_entry *)hsp_calloc((size_t)p->parts << p->pw, sizeof(hsp_entry)) : NULL;
    b->tab = (int *)hsp_calloc((size_t)1 << p->pw, sizeof(int));
    b->bits = (unsigned *)hsp_calloc((size_t)hsp_bit_words(p->pw), sizeof(unsigned));
    b->lofs = (unsigned *)hsp_calloc(bins, sizeof(unsigned));
    b->gbase = (unsigned *)hsp_calloc(bins, sizeof(unsigned));
    b->r = (unsigned *)hsp_calloc(tile, sizeof(unsigned));
    b->stage_u = (unsigned *)hsp_calloc(tile, sizeof(unsigned));
    b->stage_i = (unsigned *)hsp_calloc(tile, sizeof(unsigned));
    b->u = (unsigned *)hsp_calloc(tile, sizeof(unsigned));
    b->ix = (unsigned *)hsp_calloc(tile, sizeof(unsigned));
}
static inline void hsp_cpu_bufs_free(hsp_cpu_bufs *b)
{
    free(b->cnt1); free(b->off1); free(b->tstart); free(b->part1); free(b->cnt2); free(b->part2); free(b->tab); free(b->bits);
    free(b->lofs); free(b->gbase); free(b->r); free(b->stage_u); free(b->stage_i); free(b->u); free(b->ix);
    memset(b, 0, sizeof *b);
}

/* The bitmap place pass of one partition (c entries e, width 2^pw) as the GPU's block does it:
 * the single write into the table tab and the bucket's bit; then warp w of the block owns
 * hsp_warp_words(pw) words of the bitmap and takes 32 of them at a time (one a lane): the
 * lanes' key counts (popc) are scanned, output p of the 32 words comes from lane
 * hsp_lane_of(p), which finds it as set bit p - (its exclusive count) of its word
 * (hsp_nth_bit).  tab is never cleared (only slots with their bit set are read); bits is left
 * zero.  Writes the indices in slot order to out; returns how many. */
static inline long hsp_place_bits_cpu(const hsp_entry *e, unsigned c, int pw, int *tab, unsigned *bits, int *out)
{
    const int words = hsp_bit_words(pw), chw = hsp_warp_words(pw), warps = hsp_place_threads(pw) >> 5;
    for (unsigned j = 0; j < c; j++) {
        tab[e[j].slot] = (int)e[j].index;
        bits[e[j].slot >> 5] |= 1u << (e[j].slot & 31u);
    }
    long o = 0;
    for (int w = 0; w < warps; w++)
        for (int k0 = 0; k0 < chw; k0 += 32) {
            unsigned wd[32];
            int incl[32], sum = 0;
            for (int l = 0; l < 32; l++) {
                int k = w * chw + k0 + l;
                wd[l] = k0 + l < chw && k < words ? bits[k] : 0u;
                sum += hsp_popc(wd[l]);
                incl[l] = sum;
            }
            for (int q = 0; q < sum; q++) {
                int L = hsp_lane_of(incl, q), r = q - (incl[L] - hsp_popc(wd[L]));
                out[o++] = tab[(w * chw + k0 + L) * 32 + hsp_nth_bit(wd[L], r)];
            }
        }
    for (int k = 0; k < words; k++) bits[k] = 0u;
    return o;
}

/* The ranked or two-level sort, serially: pass 1 tile by tile (in reverse order when
 * `reverse`: the GPU's tiles reserve their runs in any order, and the output must not depend
 * on it), the offsets and the fine pass's tile starts (the GPU's last block of pass 1), the
 * fine pass (two-level), the place pass.  idx receives the input indices in key order,
 * sorted (may be NULL) the keys.  Returns the number of keys written (n unless two keys
 * share a bucket: the table keeps one of them, as Listing 1's does). */
static inline long hsp_sort_ranked_cpu(const double *x, const hsp_plan *p, double xmin, double dmin, hsp_cpu_bufs *b,
                                       int reverse, int *idx, double *sorted)
{
    const unsigned W1 = 1u << p->pw1, W = 1u << p->pw;
    memset(b->cnt1, 0, sizeof(unsigned) * (size_t)p->parts1);
    for (long a = 0; a < p->tiles; a++) { /* pass 1: keys -> the first pass's partitions */
        long t = reverse ? p->tiles - 1 - a : a, t0 = t * p->tile;
        int count = (int)(p->n - t0 < p->tile ? p->n - t0 : p->tile);
        for (int j = 0; j < count; j++) {
            b->u[j] = (unsigned)hash_bucket1d(x[t0 + j], xmin, dmin); /* eq. (2.13) */
            b->ix[j] = (unsigned)(t0 + j);
        }
        hsp_rank_tile_cpu(b->u, b->ix, count, p->pw1, (unsigned)p->parts1, 0u, b->cnt1, b->part1, b->lofs, b->gbase, b->r,
                          b->stage_u, b->stage_i);
    }
    b->off1[0] = b->tstart[0] = 0; /* the last block: offsets, and the fine pass's tiles */
    for (long q = 0; q < p->parts1; q++) {
        b->off1[q + 1] = b->off1[q] + (int)b->cnt1[q];
        b->tstart[q + 1] = b->tstart[q] + (p->rbits ? (int)hsp_tiles_of(hsp_clamp(b->cnt1[q], W1), (unsigned)p->tile2) : 0);
    }
    const hsp_entry *part = b->part1;
    if (p->rbits) { /* pass 2: every coarse partition split into its 2^rbits fine ones */
        memset(b->cnt2, 0, sizeof(unsigned) * (size_t)p->parts);
        for (long t = 0; t < p->tiles2; t++) {
            long q = hsp_tile_part(b->tstart, p->parts1, t);
            if (q < 0) continue; /* past the last tile: the grid is an upper bound */
            unsigned c1 = hsp_clamp((unsigned)(b->off1[q + 1] - b->off1[q]), W1);
            unsigned t0 = (unsigned)(t - b->tstart[q]) * (unsigned)p->tile2;
            int count = (int)(c1 - t0 < (unsigned)p->tile2 ? c1 - t0 : (unsigned)p->tile2);
            for (int j = 0; j < count; j++) {
                const hsp_entry *e = &b->part1[hsp_entry_at((unsigned)q, p->pw1, t0 + (unsigned)j)];
                b->u[j] = e->slot;
                b->ix[j] = e->index;
            }
            hsp_rank_tile_cpu(b->u, b->ix, count, p->pw, 1u << p->rbits, (unsigned)q << p->rbits, b->cnt2, b->part2,
                              b->lofs, b->gbase, b->r, b->stage_u, b->stage_i);
        }
        part = b->part2;
    }
    long written = 0; /* the place pass: single write into the partition's table, compaction */
    for (long f = 0; f < p->parts; f++) {
        long base = p->rbits ? hsp_fine_base(b->off1, b->cnt2, f, p->rbits, W) : b->off1[f];
        unsigned c = p->rbits ? hsp_clamp(b->cnt2[f], W) : hsp_clamp((unsigned)(b->off1[f + 1] - b->off1[f]), W);
        if (p->bitmap) {
            long w = hsp_place_bits_cpu(part + hsp_entry_at((unsigned)f, p->pw, 0), c, p->pw, b->tab, b->bits, idx + base);
            if (sorted)
                for (long j = base; j < base + w; j++) sorted[j] = x[idx[j]];
            written += w;
            continue;
        }
        for (unsigned s = 0; s < W; s++) b->tab[s] = -1;
        for (unsigned j = 0; j < c; j++) {
            const hsp_entry *e = &part[hsp_entry_at((unsigned)f, p->pw, j)];
            b->tab[e->slot] = (int)e->index;
        }
        for (unsigned s = 0; s < W; s++)
            if (b->tab[s] >= 0) {
                idx[base] = b->tab[s];
                if (sorted) sorted[base] = x[b->tab[s]];
                base++;
                written++;
            }
    }
    return written;
}

#endif
