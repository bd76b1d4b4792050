/* hashmesh/remesh.h -- the per-cell and per-round pieces of the distributed remesh (Morton
 * partition and ghost pattern, mesh_partition.h steps 1-2) without MPI: plain C, HD where a
 * GPU kernel calls them, so tests/host checks them with cc.  After the paper's use of spatial
 * order "to support partitioning across processors" (sec. 3.1) and its open problem of an MPI
 * layer (sec. 5).
 *
 *   hm_morton           Morton (Z-order) key of a finest bucket
 *   hm_compact          the inverse of hm_spread (a Morton key back to x, y)
 *   hm_pack_cell        a cell (i, j, level) as one sortable key: Morton key and level
 *   hm_owner            the rank owning a bucket key, from the P + 1 split keys
 *   hm_touch_mask       the peers whose buckets lie just across a cell's faces (one bit each)
 *   hm_key_bits         how many low bits the Morton keys of a W x H domain use
 *   hm_split_bits       key bits resolved per round of the split-key search
 *   hm_split_pick       one round of that search: the prefix bin holding a wanted rank
 *   hm_round_bin        a round's counts as a histogram, for keys in no order
 *   hm_count_lt         keys < x in a sorted array (lower bound)
 *   hm_sort_pairs_host  LSD radix sort of (key, index) pairs on the host
 *
 * The split-key search (remesh_dist.h).  Rank q of P owns the cells at global Morton-sorted
 * positions [n q / P, n (q + 1) / P), so split[q] is the key of global rank t = n q / P.
 * Each rank counts only its own keys (sorted: lower bounds; in no order: a histogram,
 * hm_round_bin); the search narrows a prefix of split[q] by b bits per
 * round: with w = 2^shift the width of the current bin [base, base + 2^(shift + b)),
 * every rank counts its keys below base + j w for j = 0 .. 2^b - 1 (a histogram of the
 * next b key bits, as cumulative counts), one MPI_Allreduce sums the P 2^b counts, and
 * the key of rank t lies in bin j* = max{ j : C[j] <= t } (the key is >= x exactly when at
 * most t keys are < x).  So 28-bit keys (a 2^14 x 2^14 domain) need 2 rounds at P = 2
 * with 65536 counts a round (15 + 13 bits), 3 with 4096 (11 + 11 + 6), not 28 steps of a
 * bisection. */
#ifndef HASHMESH_REMESH_H
#define HASHMESH_REMESH_H

#include <stdint.h>
#include <string.h>
#include "../common/hd.h"

#define HM_RM_PROBES 65536 /* counts per round of the split-key search, all targets together */
#define HM_RM_MAX_RANKS 64 /* hm_touch_mask keeps one bit per peer */

/* Morton (Z-order) key: the bits of x at even positions, those of y at odd positions. */
static inline HD uint64_t hm_spread(uint32_t v)
{
    uint64_t x = v;
    x = (x | x << 16) & 0x0000FFFF0000FFFFull;
    x = (x | x << 8) & 0x00FF00FF00FF00FFull;
    x = (x | x << 4) & 0x0F0F0F0F0F0F0F0Full;
    x = (x | x << 2) & 0x3333333333333333ull;
    return (x | x << 1) & 0x5555555555555555ull;
}
static inline HD uint64_t hm_morton(long x, long y) { return hm_spread((uint32_t)x) | hm_spread((uint32_t)y) << 1; }
/* the inverse of hm_spread: the bits at even positions, packed */
static inline HD uint32_t hm_compact(uint64_t x)
{
    x &= 0x5555555555555555ull;
    x = (x | x >> 1) & 0x3333333333333333ull;
    x = (x | x >> 2) & 0x0F0F0F0F0F0F0F0Full;
    x = (x | x >> 4) & 0x00FF00FF00FF00FFull;
    x = (x | x >> 8) & 0x0000FFFF0000FFFFull;
    return (uint32_t)(x | x >> 16);
}

/* A cell as one key on the wire (the GPU backend's exchange): its Morton key with the level in
 * the low hm_level_bits(levmax) bits.  Cells do not overlap, so no two cells share a Morton key
 * and the packed keys sort as the Morton keys do; (i, j, level) come back from it exactly. */
static inline HD int hm_level_bits(int levmax)
{
    int lb = 0;
    while ((1 << lb) <= levmax) lb++;
    return lb;
}
static inline HD uint64_t hm_pack_cell(int i, int j, int lev, int levmax, int lb)
{
    int s = levmax - lev;
    return hm_morton((long)i << s, (long)j << s) << lb | (uint64_t)lev;
}
static inline HD void hm_unpack_cell(uint64_t p, int levmax, int lb, int *i, int *j, int *lev)
{
    *lev = (int)(p & ((1ull << lb) - 1));
    uint64_t k = p >> lb;
    int s = levmax - *lev;
    *i = (int)(hm_compact(k) >> s);
    *j = (int)(hm_compact(k >> 1) >> s);
}

/* Rank owning the finest bucket with Morton key k: binary search over the P splitters. */
static inline HD int hm_owner(const uint64_t *split, int P, uint64_t k)
{
    int lo = 0, hi = P - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (split[mid] <= k) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* The peers (ranks other than `me`, P <= HM_RM_MAX_RANKS) owning a finest bucket just across
 * a face of the cell rec = (i, j, level, ...) of a W x H domain: bit q set for peer q.  The
 * same buckets as mesh_partition.h's hm_touching, as a mask instead of a list. */
static inline HD uint64_t hm_touch_mask(long W, long H, int levmax, const uint64_t *split, int P, int me, const int *rec)
{
    long r = 1L << (levmax - rec[2]), x0 = (long)rec[0] * r, y0 = (long)rec[1] * r;
    uint64_t mask = 0, lo = split[me], hi = split[me + 1];
    for (long k = 0; k < r; k++) {
        long x[4] = {x0 - 1, x0 + r, x0 + k, x0 + k}, y[4] = {y0 + k, y0 + k, y0 - 1, y0 + r};
        for (int f = 0; f < 4; f++) {
            if (x[f] < 0 || x[f] >= W || y[f] < 0 || y[f] >= H) continue;
            uint64_t key = hm_morton(x[f], y[f]);
            if (key >= lo && key < hi) continue; /* mine: no search */
            mask |= 1ull << hm_owner(split, P, key);
        }
    }
    return mask;
}

/* Morton keys of a W x H domain are < 2^bits, bits even and >= 2 (4^ceil(log2 side)). */
static inline int hm_key_bits(long W, long H)
{
    long side = W > H ? W : H;
    int bits = 2;
    while ((1L << (bits / 2)) < side) bits += 2;
    return bits;
}

/* Key bits per round of the split-key search for P targets: the most with P 2^b <= probes
 * counts (at least 1; probes <= HM_RM_PROBES, the size of the count arrays). */
static inline int hm_split_bits(int P, long probes)
{
    int b = 1;
    while (b < 30 && ((long)P << (b + 1)) <= probes) b++;
    return b;
}

/* One round for one target: c[j] = number of keys (all ranks) below base + j w, j = 0 ..
 * nj - 1, nondecreasing, c[0] <= t.  Returns j* = the largest j with c[j] <= t: the key of
 * global rank t lies in [base + j* w, base + (j* + 1) w). */
static inline int hm_split_pick(const long long *c, int nj, long long t)
{
    int lo = 0, hi = nj - 1; /* invariant: c[lo] <= t */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (c[mid] <= t) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* One round's counts C[j] = #{keys < base + j 2^shift}, j < nj = 2^b, from keys in NO order
 * (no sort needed): key k counts in C[j] exactly for j >= hm_round_bin(k) -- 0 below base,
 * d + 1 in the bin d = (k - base) >> shift (k < base + j 2^shift <=> d < j), nj where it
 * counts in none -- so C is the inclusive prefix sum of the histogram of these bins. */
static inline HD int hm_round_bin(uint64_t k, uint64_t base, int shift, int nj)
{
    if (k < base) return 0;
    uint64_t d = (k - base) >> shift;
    return d < (uint64_t)nj - 1 ? (int)d + 1 : nj;
}

/* The search itself, for P targets q (global ranks n q / P) over keys < 2^end_bit, at most
 * `probes` counts a round: per round, count_all(ctx, base, P, shift, b, all) must leave in
 * all[(q << b) + j] the number of keys of ALL ranks below base[q] + (j << shift) (each rank's
 * counts, summed); all holds HM_RM_PROBES entries.  On return split[q] = the key of global
 * rank n q / P, q < P. */
typedef void (*hm_count_all_fn)(void *ctx, const uint64_t *base, int nb, int shift, int b, long long *all);
static inline void hm_split_search(int P, long probes, long n, int end_bit, uint64_t *split, long long *all,
                                   hm_count_all_fn count_all, void *ctx)
{
    int bmax = hm_split_bits(P, probes);
    for (int q = 0; q < P; q++) split[q] = 0;
    for (int left = end_bit; left > 0;) {
        int b = left < bmax ? left : bmax, shift = left - b, nj = 1 << b;
        count_all(ctx, split, P, shift, b, all);
        for (int q = 0; q < P; q++) split[q] += (uint64_t)hm_split_pick(all + (long)q * nj, nj, n * q / P) << shift;
        left = shift;
    }
}

/* Number of keys < x in key[0 .. n), sorted ascending. */
static inline HD long hm_count_lt(const uint64_t *key, long n, uint64_t x)
{
    long lo = 0, hi = n;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (key[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Stable LSD radix sort of n (key, index) pairs by the keys' low `bits` bits, 8 bits a pass;
 * k2, i2: scratch of n entries each.  The result is in key, idx. */
static inline void hm_sort_pairs_host(uint64_t *key, int *idx, uint64_t *k2, int *i2, long n, int bits)
{
    uint64_t *ka = key, *kb = k2;
    int *ia = idx, *ib = i2;
    for (int sh = 0; sh < bits; sh += 8) {
        long cnt[257];
        memset(cnt, 0, sizeof cnt);
        for (long t = 0; t < n; t++) cnt[((ka[t] >> sh) & 255) + 1]++;
        for (int v = 0; v < 256; v++) cnt[v + 1] += cnt[v];
        for (long t = 0; t < n; t++) {
            long o = cnt[(ka[t] >> sh) & 255]++;
            kb[o] = ka[t];
            ib[o] = ia[t];
        }
        uint64_t *kt = ka; ka = kb; kb = kt;
        int *it = ia; ia = ib; ib = it;
    }
    if (ka != key) {
        memcpy(key, ka, sizeof(uint64_t) * (size_t)n);
        memcpy(idx, ia, sizeof(int) * (size_t)n);
    }
}

#endif
