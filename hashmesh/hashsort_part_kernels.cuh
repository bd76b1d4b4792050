/* hashsort_part_kernels.cuh -- the kernels of the partitioned GPU hash sort (scatter, ranked
 * and place passes); Robey, Nicholaeff, Robey, sec. 3.1, Listing 1 and the hash of sec. 2.3.
 * Included by hashsort_part.cuh (its bytes model, plan buffers and launcher); index logic and
 * a serial form of every step: hashsort_part.h.
 *
 * The kernels (one stream, no host synchronization):
 * k_part_scatter  direct, pass 1: one block per tile of 512 * ipt keys: bucket b of eq.
 *                 (2.13), partition q = b >> pw; a position in q's region is reserved with an
 *                 atomic on cnt[q] (per key, or one per partition per tile after a block
 *                 histogram in shared memory); the entry (slot = b & (W - 1), index) goes
 *                 there.  The last block to finish turns cnt into the offsets off[] (scan)
 *                 and clears cnt and its own counter for the next run.
 * k_part_rank     ranked and two-level, pass 1 (keys) and the fine pass (FINE: coarse
 *                 entries): a tile's buckets are ranked by partition in shared memory (an
 *                 atomic a key, or with MATCH one a warp and partition), the tile's counts
 *                 scanned into local offsets and one run a partition reserved with one
 *                 atomic on its counter; the keys are staged in partition order in shared
 *                 memory and written out in that order: every partition's keys of the tile
 *                 as one contiguous, coalesced run.  Pass 1's last block makes the offsets
 *                 (and, two-level, the fine pass's tile starts); every pass-1 block clears a
 *                 slice of the fine counters.
 * k_part_place    one block per (fine) partition, its table of W = 2^pw slots in shared
 *                 memory: cleared to -1, every entry writes its index to its slot (the single
 *                 write of Listing 1, line 9), then each warp compacts a chunk of slots in
 *                 order with a ballot and a block scan of the warps' counts (the prefix scan
 *                 and compaction of Listing 1 lines 13-19, Fig. 3.2) straight into idx.
 * k_part_place_bits  the same with an occupancy bitmap beside the table (see there).
 * The scatter passes are MSD radix passes on the high bits of the bucket with no order kept
 * inside a partition; what the hash saves is every further pass: the low pw bits are placed
 * by address in one step. */
#ifndef HASHMESH_HASHSORT_PART_KERNELS_CUH
#define HASHMESH_HASHSORT_PART_KERNELS_CUH

#include "../common/check.h"
#include "hash.h"
#include "hashsort_part.h"

#define HSP_OFFSET_ITEMS 8 /* counts per thread of the last block's offset scan */

/* Exclusive scan of one int per thread over a block of `threads` (a multiple of 32, <= 1024);
 * *total receives the block's sum.  sh_warp: 32 ints of shared memory. */
static __device__ __forceinline__ int hsp_block_exscan(int v, int *sh_warp, int *total)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    int incl = v;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, incl, d);
        if (lane >= d) incl += t;
    }
    if (lane == 31) sh_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        int s = lane < warps ? sh_warp[lane] : 0;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            int t = __shfl_up_sync(0xffffffffu, s, d);
            if (lane >= d) s += t;
        }
        if (lane < warps) sh_warp[lane] = s; /* inclusive sums of the warps */
    }
    __syncthreads();
    int r = (warp ? sh_warp[warp - 1] : 0) + incl - v;
    *total = sh_warp[warps - 1];
    __syncthreads(); /* sh_warp may be reused after this */
    return r;
}

/* The offsets of the partitions (run by the last block of the first pass): off[q] = sum of
 * cnt[< q], off[parts] = keys placed; cnt is read from L2 (it was written by atomics) and
 * cleared.  Two-level (tstart != NULL): also the fine pass's tile starts, the scan of
 * ceil(min(cnt[q], W) / tile2) (hsp_tiles_of), tstart[parts] = its tiles. */
static __device__ void hsp_offsets(unsigned *cnt, unsigned parts, int *off, int *tstart, unsigned W, unsigned tile2,
                                   int *sh_warp)
{
    int carry = 0, tcarry = 0;
    const unsigned step = blockDim.x * HSP_OFFSET_ITEMS;
    for (unsigned base = 0; base < parts; base += step) {
        unsigned q0 = base + threadIdx.x * HSP_OFFSET_ITEMS, v[HSP_OFFSET_ITEMS];
        int sum = 0, tsum = 0, total, ttotal = 0;
#pragma unroll
        for (int k = 0; k < HSP_OFFSET_ITEMS; k++) {
            v[k] = q0 + k < parts ? __ldcg(&cnt[q0 + k]) : 0u;
            sum += (int)v[k];
            tsum += (int)hsp_tiles_of(hsp_clamp(v[k], W), tile2);
        }
        int o = carry + hsp_block_exscan(sum, sh_warp, &total);
        int to = tstart ? tcarry + hsp_block_exscan(tsum, sh_warp, &ttotal) : 0; /* tstart: the same for the block */
#pragma unroll
        for (int k = 0; k < HSP_OFFSET_ITEMS; k++)
            if (q0 + k < parts) {
                off[q0 + k] = o;
                cnt[q0 + k] = 0u;
                o += (int)v[k];
                if (tstart) {
                    tstart[q0 + k] = to;
                    to += (int)hsp_tiles_of(hsp_clamp(v[k], W), tile2);
                }
            }
        carry += total;
        tcarry += ttotal;
    }
    if (threadIdx.x == 0) {
        off[parts] = carry;
        if (tstart) tstart[parts] = tcarry;
    }
}

/* Direct scheme, pass 1: every key of the tile to its partition's region (see the header).  AGG: block
 * histogram in dynamic shared memory (parts counters); KEYS: the key is copied beside its
 * entry (part_x) for the sorted-keys output. */
template <int IPT, bool AGG, bool KEYS>
static __global__ void __launch_bounds__(HSP_SCATTER_THREADS, 2)
    k_part_scatter(const double *__restrict__ x, int n, double xmin, double dmin, int pw, unsigned parts,
                   unsigned *__restrict__ cnt, hsp_entry *__restrict__ part, double *__restrict__ part_x,
                   int *__restrict__ off, unsigned *__restrict__ done)
{
    extern __shared__ unsigned hsp_bins[];
    __shared__ int sh_warp[32];
    __shared__ int sh_last;
    const int tid = threadIdx.x;
    const long i0 = (long)blockIdx.x * (HSP_SCATTER_THREADS * IPT) + tid; /* this thread's first key */
    const unsigned W = 1u << pw;
    double v[IPT];
    unsigned b[IPT], r[IPT];
    if (AGG)
        for (unsigned q = tid; q < parts; q += HSP_SCATTER_THREADS) hsp_bins[q] = 0u;
#pragma unroll
    for (int k = 0; k < IPT; k++) { /* all loads first: IPT independent 8-byte loads in flight */
        long i = i0 + (long)k * HSP_SCATTER_THREADS;
        v[k] = i < n ? __ldcs(&x[i]) : 0.0; /* read once: evict first, the append fronts stay in L2 */
    }
#pragma unroll
    for (int k = 0; k < IPT; k++) b[k] = (unsigned)hash_bucket1d(v[k], xmin, dmin); /* eq. (2.13) */
    if (AGG) {
        __syncthreads(); /* bins cleared */
#pragma unroll
        for (int k = 0; k < IPT; k++)
            if (i0 + (long)k * HSP_SCATTER_THREADS < n) r[k] = atomicAdd(&hsp_bins[hsp_part(b[k], pw)], 1u);
        __syncthreads();
#pragma unroll 4
        for (unsigned q = tid; q < parts; q += HSP_SCATTER_THREADS) { /* one reservation per partition */
            unsigned c = hsp_bins[q];
            if (c) hsp_bins[q] = atomicAdd(&cnt[q], c);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < IPT; k++)
            if (i0 + (long)k * HSP_SCATTER_THREADS < n) r[k] += hsp_bins[hsp_part(b[k], pw)];
    }
    constexpr int G = IPT < 4 ? IPT : 4; /* one atomic per key: G of them in flight, then G stores */
#pragma unroll
    for (int k0 = 0; k0 < IPT; k0 += G) {
        if (!AGG) {
#pragma unroll
            for (int k = k0; k < k0 + G; k++)
                if (i0 + (long)k * HSP_SCATTER_THREADS < n) r[k] = atomicAdd(&cnt[hsp_part(b[k], pw)], 1u);
        }
#pragma unroll
        for (int k = k0; k < k0 + G; k++) {
            long i = i0 + (long)k * HSP_SCATTER_THREADS;
            if (i < n && r[k] < W) { /* r >= W only if two keys share a bucket (precondition) */
                size_t e = hsp_entry_at(hsp_part(b[k], pw), pw, r[k]);
                hsp_entry t;
                t.slot = hsp_slot(b[k], pw);
                t.index = (unsigned)i;
                part[e] = t;
                if (KEYS) part_x[e] = v[k];
            }
        }
    }
    /* the last block to finish computes the offsets: its reads of cnt follow every block's
     * atomics (each block's are ordered by the barrier and the fence of its thread 0 before
     * it counts the block done; every atomic here has also returned its value already) */
    __syncthreads();
    if (tid == 0) {
        __threadfence();
        sh_last = atomicAdd(done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!sh_last) return;
    __threadfence();
    hsp_offsets(cnt, parts, off, NULL, 0u, 1u, sh_warp);
    if (tid == 0) *done = 0u;
}

/* an entry read once (evict first) as one 8-byte load */
static __device__ __forceinline__ hsp_entry hsp_load_entry(const hsp_entry *p)
{
    uint2 v = __ldcs((const uint2 *)p);
    hsp_entry e;
    e.slot = v.x;
    e.index = v.y;
    return e;
}

/* ---------------- the ranked passes (ranked and two-level schemes) ---------------- */
/* Arguments of k_part_rank: the source (keys, or the coarse partitions' entries), the pass's
 * partitions (their width, counters and regions) and the first pass's extra work. */
typedef struct {
    const double *x; /* first pass: the keys, eq. (2.13) with xmin, dmin */
    int n;
    double xmin, dmin;
    const hsp_entry *src; /* fine pass: the coarse regions (2^src_pw entries each) */
    const int *src_off;   /* their offsets (parts1 + 1): keys of q = off[q + 1] - off[q] */
    const int *tstart;    /* their tile starts (parts1 + 1, hsp_tile_part) */
    long src_parts;
    int src_pw;
    int shift;     /* the pass's partitions are 2^shift buckets */
    unsigned bins; /* partitions a tile can reach: parts1 (first pass), 2^rbits (fine pass) */
    unsigned *cnt; /* their counters (fine pass: from the tile's coarse q << rbits on) */
    hsp_entry *dst; /* their regions */
    unsigned *done; /* first pass: blocks finished; the last makes off (and tstart_out) */
    int *off;
    int *tstart_out; /* two-level: the fine pass's tile starts, for tiles of tile2 keys */
    unsigned tile2;
    unsigned *clear; /* two-level: the fine counters, cleared by the first pass (clear_len) */
    long clear_len;
} hsp_rank_args;

/* One key of partition `bin` taken from a shared counter: returns the counter's value before
 * it (the key's place among those counted so far).  MATCH: the lanes of a warp with the same
 * bin are found with __match_any_sync and their leader adds them with one atomic; every lane
 * of the warp must call it (valid = 0 for a lane without a key). */
template <bool MATCH>
static __device__ __forceinline__ unsigned hsp_take(unsigned *ctr, unsigned bin, bool valid)
{
    if (MATCH) {
        const unsigned lane = threadIdx.x & 31u;
        const unsigned peers = __match_any_sync(0xffffffffu, valid ? bin : 0xffffffffu);
        const int leader = __ffs(peers) - 1;
        unsigned base = 0;
        if (valid && (int)lane == leader) base = atomicAdd(&ctr[bin], (unsigned)__popc(peers));
        base = __shfl_sync(0xffffffffu, base, leader);
        return base + (unsigned)__popc(peers & ((1u << lane) - 1u));
    }
    return valid ? atomicAdd(&ctr[bin], 1u) : 0u;
}

/* The tile's counts (lofs[bins], shared) become local offsets (exclusive scan: where the
 * partition's run starts in the staged tile), and every partition with keys reserves its run
 * in its region with one atomic on its counter: the run starts at gbase = atomicAdd(&cnt[b],
 * count), and staged key j of partition b goes to gbase + (j - lofs[b]) = delta[b] + j.
 * Thread t owns bins [t per, (t + 1) per); its reservations go out four at a time.  Returns
 * the keys of the tile. */
static __device__ __forceinline__ unsigned hsp_rank_scan(unsigned *lofs, unsigned *delta, unsigned bins, unsigned *cnt,
                                                         int *sh_warp)
{
    const unsigned per = (bins + HSP_SCATTER_THREADS - 1) / HSP_SCATTER_THREADS, b0 = threadIdx.x * per;
    unsigned sum = 0;
    for (unsigned i = 0; i < per; i++)
        if (b0 + i < bins) sum += lofs[b0 + i];
    int total;
    unsigned run = (unsigned)hsp_block_exscan((int)sum, sh_warp, &total);
    for (unsigned i0 = 0; i0 < per; i0 += 4) {
        unsigned c[4], g[4];
#pragma unroll
        for (int k = 0; k < 4; k++) { /* four atomics in flight, then their results */
            const unsigned b = b0 + i0 + k;
            c[k] = i0 + k < per && b < bins ? lofs[b] : 0u;
            g[k] = c[k] ? atomicAdd(&cnt[b], c[k]) : 0u;
        }
#pragma unroll
        for (int k = 0; k < 4; k++)
            if (i0 + k < per && b0 + i0 + k < bins) {
                lofs[b0 + i0 + k] = run;
                delta[b0 + i0 + k] = g[k] - run; /* modulo 2^32: delta + j is the run's place */
                run += c[k];
            }
    }
    return (unsigned)total;
}

/* every first-pass block clears its slice of the fine counters (two-level) */
static __device__ __forceinline__ void hsp_clear_slice(unsigned *c, long len)
{
    const long per = (len + gridDim.x - 1) / gridDim.x, lo = (long)blockIdx.x * per;
    const long hi = lo + per < len ? lo + per : len;
    for (long i = lo + threadIdx.x; i < hi; i += blockDim.x) c[i] = 0u;
}

/* One ranked pass (see the header): a block per tile of 512 * IPT keys; dynamic shared
 * memory hsp_rank_smem(tile, bins): the staged buckets and indices, the tile's counts (then
 * the runs' cursors) and the runs' places.  The counting sort of the tile: count, scan and
 * reserve, stage each key at its partition's cursor, write in staged order.  FINE: the tile
 * is one coarse partition's entries [t0, t0 + count), found from the tile starts; its fine
 * partitions are q << rbits + (slot >> shift). */
template <int IPT, bool FINE, bool MATCH>
static __global__ void __launch_bounds__(HSP_SCATTER_THREADS, 2) k_part_rank(const hsp_rank_args a)
{
    constexpr int NT = HSP_SCATTER_THREADS, T = NT * IPT;
    extern __shared__ unsigned hsp_rank_sh[];
    unsigned *stage_u = hsp_rank_sh, *stage_i = hsp_rank_sh + T, *lofs = hsp_rank_sh + 2 * T, *delta = lofs + a.bins;
    __shared__ int sh_warp[32];
    __shared__ int sh_q, sh_last;
    const int tid = threadIdx.x;
    if (FINE) {
        if (tid == 0) sh_q = (int)hsp_tile_part(a.tstart, a.src_parts, (long)blockIdx.x);
    } else if (a.clear)
        hsp_clear_slice(a.clear, a.clear_len);
    for (unsigned b = tid; b < a.bins; b += NT) lofs[b] = 0u;
    __syncthreads();
    long t0;
    int count;
    unsigned bin_base = 0;
    unsigned u[IPT], ix[FINE ? IPT : 1];
    if (FINE) {
        const int q = sh_q;
        if (q < 0) return; /* the grid is an upper bound of the tiles (the whole block leaves) */
        const unsigned c1 = hsp_clamp((unsigned)(a.src_off[q + 1] - a.src_off[q]), 1u << a.src_pw);
        t0 = (long)(blockIdx.x - (unsigned)a.tstart[q]) * T;
        count = (int)((long)c1 - t0 < T ? (long)c1 - t0 : T);
        bin_base = (unsigned)q << (a.src_pw - a.shift);
        const hsp_entry *src = a.src + hsp_entry_at((unsigned)q, a.src_pw, (unsigned)t0);
#pragma unroll
        for (int k = 0; k < IPT; k++) {
            const int j = k * NT + tid;
            hsp_entry e = {0u, 0u};
            if (j < count) e = hsp_load_entry(src + j);
            u[k] = e.slot;
            ix[k] = e.index;
        }
    } else {
        t0 = (long)blockIdx.x * T;
        count = (int)((long)a.n - t0 < T ? (long)a.n - t0 : T);
        double v[IPT];
#pragma unroll
        for (int k = 0; k < IPT; k++) { /* all loads first: IPT independent 8-byte loads in flight */
            const int j = k * NT + tid;
            v[k] = j < count ? __ldcs(&a.x[t0 + j]) : a.xmin; /* read once: evict first */
        }
#pragma unroll
        for (int k = 0; k < IPT; k++) u[k] = (unsigned)hash_bucket1d(v[k], a.xmin, a.dmin); /* eq. (2.13) */
    }
    /* count the tile's keys of every partition (a key beyond the table: none) */
#pragma unroll
    for (int k = 0; k < IPT; k++) hsp_take<MATCH>(lofs, u[k] >> a.shift, k * NT + tid < count && (u[k] >> a.shift) < a.bins);
    __syncthreads();
    const unsigned keys = hsp_rank_scan(lofs, delta, a.bins, a.cnt + bin_base, sh_warp);
    __syncthreads();
    /* stage the tile in partition order: each key at its partition's cursor */
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        const int j = k * NT + tid;
        const bool valid = j < count && (u[k] >> a.shift) < a.bins;
        const unsigned pos = hsp_take<MATCH>(lofs, u[k] >> a.shift, valid);
        if (valid) {
            stage_u[pos] = u[k];
            stage_i[pos] = FINE ? ix[k] : (unsigned)(t0 + j);
        }
    }
    __syncthreads();
    /* write it in that order: a partition's keys of the tile are one run at delta + j */
    const unsigned W = 1u << a.shift;
#pragma unroll
    for (int k = 0; k < IPT; k++) {
        const unsigned j = (unsigned)(k * NT + tid);
        if (j < keys) {
            const unsigned uu = stage_u[j], b = uu >> a.shift, g = delta[b] + j;
            if (g < W) /* g >= W only if two keys share a bucket (precondition) */
                *(uint2 *)&a.dst[hsp_entry_at(bin_base + b, a.shift, g)] = make_uint2(uu & (W - 1u), stage_i[j]);
        }
    }
    if (FINE) return;
    /* the last block of the first pass: offsets (and the fine pass's tile starts); ordered
     * after every block's atomics as in k_part_scatter */
    __syncthreads();
    if (tid == 0) {
        __threadfence();
        sh_last = atomicAdd(a.done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!sh_last) return;
    __threadfence();
    hsp_offsets(a.cnt, a.bins, a.off, a.tstart_out, W, a.tile2, sh_warp);
    if (tid == 0) *a.done = 0u;
}

/* ---------------- the place passes ---------------- */
/* Partition q's key count c (not yet clamped) and, unless FINE, its start *base = off[q];
 * a fine partition's count is cnt2[q], clamped to its W slots. */
template <bool FINE>
static __device__ __forceinline__ int hsp_part_keys(const int *off, const unsigned *cnt2, unsigned q, int W, int *base)
{
    if (FINE) return (int)hsp_clamp(cnt2[q], (unsigned)W);
    *base = off[q];
    return off[q + 1] - *base;
}

/* A fine partition's start, hsp_fine_base on the device: its coarse partition's offset plus
 * its earlier siblings' counts, summed by warp 0 and handed to the block through *sh_base
 * (shared) after a barrier.  Not FINE: base, already known.  Every thread of the block calls
 * it with its own lane and warp. */
template <bool FINE>
static __device__ __forceinline__ int hsp_block_base(const int *off, const unsigned *cnt2,
                                                     unsigned q, int rbits, int W, int lane, int warp, int base, int *sh_base)
{
    if (FINE && warp == 0) { /* hsp_fine_base: the coarse offset and the earlier siblings' keys */
        const unsigned first = (q >> rbits) << rbits;
        int s = 0;
        for (unsigned g = first + lane; g < q; g += 32) s += (int)hsp_clamp(cnt2[g], (unsigned)W);
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
        if (lane == 0) *sh_base = off[q >> rbits] + s;
    }
    __syncthreads();
    return FINE ? *sh_base : base;
}

/* The single write (Listing 1, line 9): each of the partition's c entries e[j] writes into its
 * slot the key's rank j (KEYS) or its index; BITS: also sets the slot's bit in the occupancy
 * bitmap.  A thread takes 4 entries a round, all loaded before any is stored (4 loads in flight). */
template <bool KEYS, bool BITS>
static __device__ __forceinline__ void hsp_single_write(const hsp_entry *e, int c, int nt, int tid, int *tab, unsigned *bits)
{
    for (int j0 = 0; j0 < c; j0 += 4 * nt) {
        hsp_entry t[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
            if (j0 + k * nt + tid < c) t[k] = hsp_load_entry(&e[j0 + k * nt + tid]);
#pragma unroll
        for (int k = 0; k < 4; k++) {
            int j = j0 + k * nt + tid;
            if (j < c) {
                tab[t[k].slot] = KEYS ? j : (int)t[k].index;
                if (BITS) atomicOr(&bits[t[k].slot >> 5], 1u << (t[k].slot & 31u));
            }
        }
    }
}

/* The place pass: one block per (fine) partition q; dynamic shared memory: the table of 2^pw
 * ints.  Its keys start at off[q] (direct, ranked) or, for a fine partition of the two-level
 * scheme (FINE), at its coarse partition's offset plus its earlier siblings' counts cnt2
 * (hsp_fine_base, summed by warp 0). */
template <bool KEYS, bool FINE>
static __global__ void __launch_bounds__(1024)
    k_part_place(const hsp_entry *__restrict__ part, const double *__restrict__ part_x, const int *__restrict__ off,
                 const unsigned *__restrict__ cnt2, int rbits, int pw, int *__restrict__ idx, double *__restrict__ sorted)
{
    extern __shared__ int4 hsp_tab4[];
    int *tab = (int *)hsp_tab4;
    __shared__ int sh_warp[32];
    __shared__ int sh_base;
    const unsigned q = blockIdx.x;
    const int W = 1 << pw;
    int base = 0, c = hsp_part_keys<FINE>(off, cnt2, q, W, &base);
    if (c <= 0) return; /* an empty partition writes nothing */
    if (c > W) c = W;   /* only if two keys shared a bucket */
    const int nt = blockDim.x, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    for (int s = tid; s < W / 4; s += nt) hsp_tab4[s] = make_int4(-1, -1, -1, -1); /* empty buckets (Listing 1, line 5) */
    base = hsp_block_base<FINE>(off, cnt2, q, rbits, W, lane, warp, base, &sh_base);
    const hsp_entry *e = part + hsp_entry_at(q, pw, 0);
    hsp_single_write<KEYS, false>(e, c, nt, tid, tab, NULL); /* Listing 1, line 9 */
    __syncthreads();
    /* compaction (Listing 1, lines 13-19): warp w owns slots [w CH, (w + 1) CH); the scan of
     * Fig. 3.2 is a ballot per 32 slots and a scan of the warps' counts */
    const int CH = W / (nt >> 5), s0 = warp * CH;
    int mine = 0;
    for (int s = s0 + lane; s < s0 + CH; s += 32) mine += __popc(__ballot_sync(0xffffffffu, tab[s] >= 0));
    int total, o = base + hsp_block_exscan(lane == 0 ? mine : 0, sh_warp, &total);
    o = __shfl_sync(0xffffffffu, o, 0);
    const unsigned below = (1u << lane) - 1u;
    for (int s = s0 + lane; s < s0 + CH; s += 32) {
        int v = tab[s];
        unsigned bal = __ballot_sync(0xffffffffu, v >= 0);
        if (v >= 0) {
            int dst = o + __popc(bal & below);
            if (KEYS) {
                idx[dst] = (int)e[v].index;
                sorted[dst] = part_x[hsp_entry_at(q, pw, (unsigned)v)];
            } else
                idx[dst] = v;
        }
        o += __popc(bal);
    }
}

/* The place pass with an occupancy bitmap (ranked schemes, plan.bitmap; made for sparse tables): one
 * block per (fine) partition; dynamic shared memory: the table of 2^pw ints, never cleared
 * (only slots whose bit is set are read), and the bitmap of 2^pw bits, cleared (W / 8 bytes
 * instead of the table's 4 W).  Every entry writes its index to its slot (Listing 1, line 9)
 * and sets the slot's bit; the compaction (lines 13-19) reads W / 32 words instead of W slots:
 * warp w owns hsp_warp_words(pw) words and takes 32 at a time, one a lane, scans the lanes'
 * popcounts, and writes the keys of the 32 words in order with consecutive lanes on
 * consecutive outputs (coalesced): output p comes from lane hsp_lane_of(p) (found with
 * shuffles), bit hsp_nth_bit of its word.  Same steps as hsp_place_bits_cpu. */
template <bool FINE>
static __global__ void __launch_bounds__(1024)
    k_part_place_bits(const hsp_entry *__restrict__ part, const double *__restrict__ part_x, const int *__restrict__ off,
                      const unsigned *__restrict__ cnt2, int rbits, int pw, int *__restrict__ idx, double *__restrict__ sorted)
{
    extern __shared__ int4 hsp_tab4[];
    int *tab = (int *)hsp_tab4;
    unsigned *bits = (unsigned *)(tab + (1 << pw));
    __shared__ int sh_warp[32];
    __shared__ int sh_base;
    (void)part_x;
    (void)sorted;
    const unsigned q = blockIdx.x;
    const int W = 1 << pw;
    int base = 0, c = hsp_part_keys<FINE>(off, cnt2, q, W, &base);
    if (c <= 0) return; /* an empty partition writes nothing */
    if (c > W) c = W;   /* only if two keys shared a bucket */
    const int nt = blockDim.x, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int words = hsp_bit_words(pw), chw = hsp_warp_words(pw), w0 = warp * chw;
    for (int k = tid; k < words; k += nt) bits[k] = 0u; /* every bucket empty (Listing 1, line 5) */
    base = hsp_block_base<FINE>(off, cnt2, q, rbits, W, lane, warp, base, &sh_base);
    const hsp_entry *e = part + hsp_entry_at(q, pw, 0);
    hsp_single_write<false, true>(e, c, nt, tid, tab, bits); /* Listing 1, line 9, and the slot's bit */
    __syncthreads();
    /* compaction: the warp's keys, then the block's scan of the warps' counts */
    int mine = 0;
    for (int k = lane; k < chw; k += 32) mine += __popc(bits[w0 + k]);
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) mine += __shfl_xor_sync(0xffffffffu, mine, d);
    int total, o = base + hsp_block_exscan(lane == 0 ? mine : 0, sh_warp, &total);
    o = __shfl_sync(0xffffffffu, o, 0);
    for (int k0 = 0; k0 < chw; k0 += 32) {
        const unsigned word = k0 + lane < chw ? bits[w0 + k0 + lane] : 0u;
        const int cnt = __popc(word);
        int incl = cnt;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            int t = __shfl_up_sync(0xffffffffu, incl, d);
            if (lane >= d) incl += t;
        }
        const int S = __shfl_sync(0xffffffffu, incl, 31);
        for (int p0 = 0; p0 < S; p0 += 32) { /* outputs p0 .. p0 + 31 of these 32 words, one a lane */
            const int p = p0 + lane;
            int L = 0; /* hsp_lane_of(incl, p) */
#pragma unroll
            for (int step = 16; step > 0; step >>= 1) {
                const int v = __shfl_sync(0xffffffffu, incl, L + step - 1);
                if (v <= p) L += step;
            }
            L = L > 31 ? 31 : L; /* lanes past the last output (p >= S) */
            const unsigned wL = __shfl_sync(0xffffffffu, word, L);
            const int exL = __shfl_sync(0xffffffffu, incl - cnt, L);
            if (p < S) idx[o + p] = tab[(w0 + k0 + L) * 32 + hsp_nth_bit(wL, p - exL)];
        }
        o += S;
    }
}

#endif
