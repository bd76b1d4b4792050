/* hashsort_part.cuh -- the partitioned GPU hash sort: the paper's 1D hash sort (Robey,
 * Nicholaeff, Robey, sec. 3.1, Listing 1; the perfect hash of sec. 2.3, eq. 2.13) with its
 * table cut into partitions that each fit one block's shared memory.  Index logic, the three
 * schemes (direct, ranked, two-level) and a serial version of each: hashsort_part.h.  Same
 * input and output as gpu_hash_sort1d (kernels.cuh): the keys x with min and dmin, out the
 * input indices in key order (and, direct scheme only, the sorted keys); same precondition:
 * no two keys in one bucket.
 *
 * ---- Bytes and DRAM sectors per key (n double keys, m buckets; uniform keys of sec. 3.1:
 * m = 1.5 n; the clustered keys of gen.h at alpha 1.2: m = 5.4 .. 6.7 n).  A sector is 32
 * bytes; "stores" counts the 32-byte sectors a key's writes touch in L2 (what the L1 sends),
 * "atomics" the global atomics a key costs.  Least possible: read 8 + write 4 = 12 B/key.
 *
 * Paper's hash sort (gpu_hash_sort1d, indices only), table t of m ints:
 *   clear t 4m | k_scatter1d: read x 8n, write t 4n | scan: read t 4m, write off 4m |
 *   k_compact: read t 4m, off 4m, write idx 4n          = 20 m + 16 n
 *   uniform 46 B/key, clustered 140 B/key; once 4m is beyond L2 every random 4-byte write
 *   of the scatter is a 32-byte sector of its own: up to +28 B/key, 1 store sector a key.
 * CUB radix32 (kernels.cuh gpu_radix32_sort1d: k_bucket_keys1d + DeviceRadixSort Onesweep,
 * 8-bit digits, end_bit = ceil(log2 m)): key generation: read x 8, write key 4 + index 4 =
 * 16 | histogram of every digit: read keys 4 | each pass: read key + value 8, write 8 = 16,
 * the writes ranked by digit in shared memory (runs of tile / 256 keys: ~0.3 store sectors a
 * key);  passes P = ceil(end_bit / 8):  = 20 + 16 P: P = 3 (end_bit 17..24) 68 B/key,
 * P = 4 (end_bit 25..32: uniform n >= 2^24, clustered n >= 2^22) 84 B/key.
 * This sort, with P partitions of the scatter pass and tiles of T keys (L = T / P keys of a
 * partition in a tile):
 *   direct     scatter: read x 8, write the entry (slot, index) 8 = 16 | place: read the
 *              entry 8, write idx 4 = 12  ->  28 B/key.  Stores: 1 sector a key (every key of
 *              a warp in another partition), atomics: 1 a key, or min(1, P / T) with the block
 *              histogram.  DRAM sees whole sectors only while the P append fronts stay in L2.
 *              Measured (H200, 2^25..2^27, P 3072..44203): ~720-880 GB/s of these 28 B.
 *   ranked     scatter: the same 16 bytes, but a tile's keys leave partition by partition:
 *              a run of L keys (8 L bytes) touches 8 L / 32 + ~0.75 sectors, so
 *              0.25 + 0.75 / L store sectors a key (1 for L = 1; 0.44 for L = 4; 0.34 for
 *              L = 8) and (P / T)(1 - e^-L) atomics a key; place 12  ->  28 B/key.
 *              Auto: P <= 2048 (HSP_RANK_PARTS_MAX) with T = 8192: L >= 4.
 *   two-level  ranked pass into P1 <= 1024 coarse partitions (16 B, L >= 8), ranked fine pass
 *              into 2^rbits <= 256 fine partitions per coarse one (16 B, tiles of 8192: L =
 *              8192 / 2^rbits >= 32, 0.27 store sectors), place 12  ->  44 B/key, still 1.5x
 *              (P = 3) to 1.9x (P = 4) fewer bytes than CUB and fewer passes than its 4.  Auto
 *              from m > 2048 * 2^15 (uniform n >= 2^26, clustered n >= 2^24).
 * Every array that a pass writes is either written in whole sectors (ranked runs, the place
 * pass's compaction) or an append front that L2 completes; reads are streamed (evict first).
 * Shared memory of the place pass, per key: the int table is cleared (4 W), written (4 per
 * key) and scanned twice (8 W): 12 m / n + 4 bytes a key, 22 at m = 1.5 n but 82 at the
 * clustered keys' m = 6.5 n.  The bitmap place pass (ranked schemes, plan.bitmap) clears and
 * scans W / 32 words instead and never clears the table: 0.4 m / n + 12 bytes a key (index and
 * bit written, index read).  Measured on an H200 it was no faster at the clustered keys' m
 * (about 5 n): shared memory is not what limits the place pass, and the automatic plan scans
 * the int table.
 * Launches: direct and ranked 2, two-level 3 (paper 5, CUB 7-8).
 *
 * ---- The kernels (one stream, no host synchronization):
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
#ifndef HASHMESH_HASHSORT_PART_CUH
#define HASHMESH_HASHSORT_PART_CUH

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
    int base = 0, c;
    if (FINE) c = (int)hsp_clamp(cnt2[q], (unsigned)W);
    else {
        base = off[q];
        c = off[q + 1] - base;
    }
    if (c <= 0) return; /* an empty partition writes nothing */
    if (c > W) c = W;   /* only if two keys shared a bucket */
    const int nt = blockDim.x, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    for (int s = tid; s < W / 4; s += nt) hsp_tab4[s] = make_int4(-1, -1, -1, -1); /* empty buckets (Listing 1, line 5) */
    if (FINE && warp == 0) { /* hsp_fine_base: the coarse offset and the earlier siblings' keys */
        const unsigned first = (q >> rbits) << rbits;
        int s = 0;
        for (unsigned g = first + lane; g < q; g += 32) s += (int)hsp_clamp(cnt2[g], (unsigned)W);
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
        if (lane == 0) sh_base = off[q >> rbits] + s;
    }
    __syncthreads();
    if (FINE) base = sh_base;
    const hsp_entry *e = part + hsp_entry_at(q, pw, 0);
    /* single write (Listing 1, line 9): the key's index into its slot */
    for (int j0 = 0; j0 < c; j0 += 4 * nt) {
        hsp_entry t[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
            if (j0 + k * nt + tid < c) t[k] = hsp_load_entry(&e[j0 + k * nt + tid]);
#pragma unroll
        for (int k = 0; k < 4; k++) {
            int j = j0 + k * nt + tid;
            if (j < c) tab[t[k].slot] = KEYS ? j : (int)t[k].index;
        }
    }
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
    int base = 0, c;
    if (FINE) c = (int)hsp_clamp(cnt2[q], (unsigned)W);
    else {
        base = off[q];
        c = off[q + 1] - base;
    }
    if (c <= 0) return; /* an empty partition writes nothing */
    if (c > W) c = W;   /* only if two keys shared a bucket */
    const int nt = blockDim.x, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int words = hsp_bit_words(pw), chw = hsp_warp_words(pw), w0 = warp * chw;
    for (int k = tid; k < words; k += nt) bits[k] = 0u; /* every bucket empty (Listing 1, line 5) */
    if (FINE && warp == 0) { /* hsp_fine_base: the coarse offset and the earlier siblings' keys */
        const unsigned first = (q >> rbits) << rbits;
        int s = 0;
        for (unsigned g = first + lane; g < q; g += 32) s += (int)hsp_clamp(cnt2[g], (unsigned)W);
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
        if (lane == 0) sh_base = off[q >> rbits] + s;
    }
    __syncthreads();
    if (FINE) base = sh_base;
    const hsp_entry *e = part + hsp_entry_at(q, pw, 0);
    /* single write (Listing 1, line 9): the index into its slot, the slot's bit set */
    for (int j0 = 0; j0 < c; j0 += 4 * nt) {
        hsp_entry t[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
            if (j0 + k * nt + tid < c) t[k] = hsp_load_entry(&e[j0 + k * nt + tid]);
#pragma unroll
        for (int k = 0; k < 4; k++)
            if (j0 + k * nt + tid < c) {
                tab[t[k].slot] = (int)t[k].index;
                atomicOr(&bits[t[k].slot >> 5], 1u << (t[k].slot & 31u));
            }
    }
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

/* ---------------- host side: buffers once, then an enqueue-only launcher ---------------- */
typedef void (*hsp_scatter_kernel)(const double *, int, double, double, int, unsigned, unsigned *, hsp_entry *,
                                   double *, int *, unsigned *);
typedef void (*hsp_rank_kernel)(const hsp_rank_args);
typedef void (*hsp_place_kernel)(const hsp_entry *, const double *, const int *, const unsigned *, int, int, int *,
                                 double *);

template <bool AGG, bool KEYS>
static inline hsp_scatter_kernel hsp_scatter_for(int ipt)
{
    switch (ipt) {
    case 1: return k_part_scatter<1, AGG, KEYS>;
    case 2: return k_part_scatter<2, AGG, KEYS>;
    case 4: return k_part_scatter<4, AGG, KEYS>;
    case 8: return k_part_scatter<8, AGG, KEYS>;
    default: /* 16 keys a thread fit 64 registers only with the block histogram, indices only */
        if constexpr (AGG && !KEYS) return k_part_scatter<16, AGG, KEYS>;
        else return k_part_scatter<8, AGG, KEYS>;
    }
}
template <bool FINE, bool MATCH>
static inline hsp_rank_kernel hsp_rank_ipt(int ipt)
{
    return ipt == 4 ? k_part_rank<4, FINE, MATCH> : ipt == 8 ? k_part_rank<8, FINE, MATCH> : k_part_rank<16, FINE, MATCH>;
}
template <bool FINE>
static inline hsp_rank_kernel hsp_rank_for(int ipt, int match)
{
    return match ? hsp_rank_ipt<FINE, true>(ipt) : hsp_rank_ipt<FINE, false>(ipt);
}

typedef struct {
    hsp_plan plan;
    const double *x; /* keys (device) */
    double xmin, dmin;
    hsp_entry *part;  /* the first pass's regions: parts1 << pw1 entries */
    double *part_x;   /* direct with keys: the same positions, the keys */
    hsp_entry *part2; /* two-level: the fine regions, parts << pw entries */
    unsigned *cnt;    /* parts1 counters, then the blocks-done counter; zero between runs */
    unsigned *done;
    unsigned *cnt2;   /* two-level: parts fine counters (cleared by every run's first pass) */
    int *off;         /* parts1 + 1 offsets */
    int *tstart;      /* two-level: parts1 + 1 tile starts of the fine pass */
    int *idx;         /* out: input indices in key order (n; caller-owned) */
    double *sorted;   /* out: sorted keys (n; caller-owned) or NULL */
    hsp_scatter_kernel scatter;          /* direct */
    hsp_rank_kernel rank1, rank2;        /* ranked: pass 1; two-level: and the fine pass */
    hsp_place_kernel place;
    size_t scatter_smem, rank1_smem, rank2_smem, place_smem;
} gpu_part_ctx;

/* device bytes the sort allocates besides its input and outputs */
static inline size_t gpu_part_bytes(const hsp_plan *p)
{
    size_t slots1 = (size_t)p->parts1 << p->pw1, slots2 = p->rbits ? (size_t)p->parts << p->pw : 0;
    return (slots1 + slots2) * sizeof(hsp_entry) + (p->keys ? slots1 * sizeof(double) : 0) +
           sizeof(unsigned) * ((size_t)p->parts1 + 1) + (p->rbits ? sizeof(unsigned) * (size_t)p->parts : 0) +
           sizeof(int) * ((size_t)p->parts1 + 1) * (p->rbits ? 2 : 1);
}

/* shared memory: the limit for the kernel, and the whole carveout (two ranked blocks or
 * three place blocks an SM need more than the default share) */
static inline void hsp_set_smem(const void *k, size_t bytes)
{
    CHECK_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    CHECK_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, (int)cudaSharedmemCarveoutMaxShared));
}

/* Allocates the scratch of plan p (counters cleared, kernels' shared-memory limits set).
 * idx (and sorted, or NULL) are the caller's outputs.  One context per stream: the counters
 * carry state from one run to the next (cleared by the run itself). */
static inline void gpu_part_setup(gpu_part_ctx *c, const hsp_plan *p, const double *d_x, double xmin, double dmin,
                                  int *idx, double *sorted)
{
    if ((sorted != NULL) != (p->keys != 0))
        DIE("gpu_part_setup: the plan is for %s, the call %s sorted keys", p->keys ? "indices and keys" : "indices only",
            sorted ? "asks for" : "gives no buffer for");
    memset(c, 0, sizeof *c);
    c->plan = *p;
    c->x = d_x;
    c->xmin = xmin;
    c->dmin = dmin;
    c->idx = idx;
    c->sorted = sorted;
    size_t slots1 = (size_t)p->parts1 << p->pw1;
    c->part = (hsp_entry *)device_alloc_or_usage(slots1 * sizeof(hsp_entry), "partitioned hash sort: partition buffer");
    if (sorted) c->part_x = (double *)device_alloc_or_usage(slots1 * sizeof(double), "partitioned hash sort: keys buffer");
    c->cnt = (unsigned *)device_alloc_or_usage(sizeof(unsigned) * ((size_t)p->parts1 + 1), "partition counters");
    c->done = c->cnt + p->parts1;
    c->off = (int *)device_alloc_or_usage(sizeof(int) * ((size_t)p->parts1 + 1), "partition offsets");
    CHECK_CUDA(cudaMemset(c->cnt, 0, sizeof(unsigned) * ((size_t)p->parts1 + 1)));
    if (p->rbits) {
        c->part2 = (hsp_entry *)device_alloc_or_usage(((size_t)p->parts << p->pw) * sizeof(hsp_entry),
                                                      "partitioned hash sort: fine partition buffer");
        c->cnt2 = (unsigned *)device_alloc_or_usage(sizeof(unsigned) * (size_t)p->parts, "fine partition counters");
        c->tstart = (int *)device_alloc_or_usage(sizeof(int) * ((size_t)p->parts1 + 1), "fine pass tile starts");
        CHECK_CUDA(cudaMemset(c->cnt2, 0, sizeof(unsigned) * (size_t)p->parts));
    }
    c->place_smem = sizeof(int) << p->pw;
    if (p->scheme == HSP_SCHEME_DIRECT) {
        if (p->aggregate) c->scatter = sorted ? hsp_scatter_for<true, true>(p->ipt) : hsp_scatter_for<true, false>(p->ipt);
        else c->scatter = sorted ? hsp_scatter_for<false, true>(p->ipt) : hsp_scatter_for<false, false>(p->ipt);
        c->scatter_smem = p->aggregate ? sizeof(unsigned) * (size_t)p->parts : 0;
        c->place = sorted ? k_part_place<true, false> : k_part_place<false, false>;
        CHECK_CUDA(cudaFuncSetAttribute((const void *)c->scatter, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)c->scatter_smem));
        hsp_set_smem((const void *)c->place, c->place_smem);
        return;
    }
    c->rank1 = hsp_rank_for<false>(p->ipt, p->match1);
    c->rank1_smem = hsp_rank_smem(p->tile, p->parts1);
    hsp_set_smem((const void *)c->rank1, c->rank1_smem);
    if (p->rbits) {
        c->rank2 = hsp_rank_for<true>(p->ipt2, p->match2);
        c->rank2_smem = hsp_rank_smem(p->tile2, 1L << p->rbits);
        hsp_set_smem((const void *)c->rank2, c->rank2_smem);
    }
    if (p->bitmap) {
        c->place = p->rbits ? k_part_place_bits<true> : k_part_place_bits<false>;
        c->place_smem = (sizeof(int) << p->pw) + sizeof(unsigned) * (size_t)hsp_bit_words(p->pw);
    } else
        c->place = p->rbits ? k_part_place<false, true> : k_part_place<false, false>;
    hsp_set_smem((const void *)c->place, c->place_smem);
}

static inline void gpu_part_free(gpu_part_ctx *c)
{
    CHECK_CUDA(cudaFree(c->part));
    if (c->part_x) CHECK_CUDA(cudaFree(c->part_x));
    if (c->part2) CHECK_CUDA(cudaFree(c->part2));
    if (c->cnt2) CHECK_CUDA(cudaFree(c->cnt2));
    if (c->tstart) CHECK_CUDA(cudaFree(c->tstart));
    CHECK_CUDA(cudaFree(c->cnt));
    CHECK_CUDA(cudaFree(c->off));
    memset(c, 0, sizeof *c);
}

/* the ranked passes' arguments */
static inline hsp_rank_args hsp_rank_args_first(const gpu_part_ctx *c)
{
    const hsp_plan *p = &c->plan;
    hsp_rank_args a;
    memset(&a, 0, sizeof a);
    a.x = c->x;
    a.n = (int)p->n;
    a.xmin = c->xmin;
    a.dmin = c->dmin;
    a.shift = p->pw1;
    a.bins = (unsigned)p->parts1;
    a.cnt = c->cnt;
    a.dst = c->part;
    a.done = c->done;
    a.off = c->off;
    a.tstart_out = c->tstart;
    a.tile2 = (unsigned)(p->tile2 ? p->tile2 : 1);
    a.clear = c->cnt2;
    a.clear_len = p->rbits ? p->parts : 0;
    return a;
}
static inline hsp_rank_args hsp_rank_args_fine(const gpu_part_ctx *c)
{
    const hsp_plan *p = &c->plan;
    hsp_rank_args a;
    memset(&a, 0, sizeof a);
    a.src = c->part;
    a.src_off = c->off;
    a.tstart = c->tstart;
    a.src_parts = p->parts1;
    a.src_pw = p->pw1;
    a.shift = p->pw;
    a.bins = 1u << p->rbits;
    a.cnt = c->cnt2;
    a.dst = c->part2;
    return a;
}

/* The sort: two launches on stream s (two-level: three), nothing else (bench_gpu-compatible). */
static inline void gpu_part_sort1d(void *p, cudaStream_t s)
{
    gpu_part_ctx *c = (gpu_part_ctx *)p;
    const hsp_plan *q = &c->plan;
    if (q->scheme == HSP_SCHEME_DIRECT) {
        c->scatter<<<(unsigned)q->tiles, HSP_SCATTER_THREADS, c->scatter_smem, s>>>(
            c->x, (int)q->n, c->xmin, c->dmin, q->pw, (unsigned)q->parts, c->cnt, c->part, c->part_x, c->off, c->done);
        CHECK_LAUNCH();
    } else {
        c->rank1<<<(unsigned)q->tiles, HSP_SCATTER_THREADS, c->rank1_smem, s>>>(hsp_rank_args_first(c));
        CHECK_LAUNCH();
        if (q->rbits) {
            c->rank2<<<(unsigned)q->tiles2, HSP_SCATTER_THREADS, c->rank2_smem, s>>>(hsp_rank_args_fine(c));
            CHECK_LAUNCH();
        }
    }
    c->place<<<(unsigned)q->parts, q->place_threads, c->place_smem, s>>>(q->rbits ? c->part2 : c->part, c->part_x, c->off,
                                                                          c->cnt2, q->rbits, q->pw, c->idx, c->sorted);
    CHECK_LAUNCH();
}

#endif
