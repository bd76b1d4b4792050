/* hashsort_part.cuh -- the partitioned GPU hash sort: the paper's 1D hash sort (Robey,
 * Nicholaeff, Robey, sec. 3.1, Listing 1; the perfect hash of sec. 2.3, eq. 2.13) with its
 * table cut into partitions that each fit one block's shared memory.  Index logic and a
 * serial version: hashsort_part.h.  Same input and output as gpu_hash_sort1d (kernels.cuh):
 * the keys x with min and dmin, out the input indices in key order (and the sorted keys when
 * asked); same precondition: no two keys in one bucket.
 *
 * ---- Bytes per key (n double keys, m buckets; uniform keys of sec. 3.1: m = 1.5 n, the
 * clustered keys of gen.h at alpha 1.2: m = 6.2 .. 6.7 n).  Least possible: 8 read + 4 write.
 *
 * Paper's hash sort (gpu_hash_sort1d, indices only), table t of m ints:
 *   clear t 4m | k_scatter1d: read x 8n, write t 4n | scan: read t 4m, write off 4m |
 *   k_compact: read t 4m, off 4m, write idx 4n          = 20 m + 16 n
 *   uniform 46 B/key, clustered 140 B/key; once 4m is beyond L2 (50 MiB: uniform n > 2^23)
 *   each random 4-byte write dirties a 32-byte sector of its own: up to +28 B/key.
 * CUB radix32 (kernels.cuh gpu_radix32_sort1d: k_bucket_keys1d + DeviceRadixSort Onesweep,
 * 8-bit digits, end_bit = ceil(log2 m)):
 *   key generation: read x 8, write key 4 + index 4 = 16 | histogram of every digit: read
 *   keys 4 | each pass: read key + value 8, write 8 = 16;  passes P = ceil(end_bit / 8)
 *   = 20 + 16 P:  P = 3 (end_bit 17..24: uniform n <= 2^23, clustered n <= 2^21) 68 B/key,
 *                 P = 4 (end_bit 25..32: uniform n >= 2^24, clustered n >= 2^22) 84 B/key.
 * This sort (two kernels):
 *   k_part_scatter: read x 8, write the entry (slot, index) 8 into its partition's region = 16
 *   k_part_place:   read the entry 8, write idx 4 (table and compaction in shared memory) = 12
 *   = 28 B/key whatever m is: 2.4x (P = 3) and 3.0x (P = 4) fewer bytes than CUB, 1.6x
 *   (2.6x beyond L2) fewer than the paper's.  With the sorted keys too: + 24 = 52 B/key.
 *   m costs only shared-memory work (4 B a slot written, read twice) and address space of
 *   the partition buffer (8 m bytes, as t + off of the paper's sort; untouched where no key
 *   falls).  The scatter's writes go to `parts` append fronts (<= 12288 at 2^27 uniform), a
 *   few hundred KB that stay in L2 until their sectors are full, so DRAM sees whole sectors;
 *   its atomics (one per key, or with the block histogram one per tile and partition) stay
 *   in L2.  Launches: 2 (paper 5, CUB 7-8), which is what counts up to ~2^20 keys, where every
 *   array fits in L2.
 *
 * ---- The two kernels (one stream, no host synchronization):
 * k_part_scatter  one block per tile of 512 * ipt keys: bucket b of eq. (2.13), partition
 *                 q = b >> pw; a position in q's region is reserved with an atomic on cnt[q]
 *                 (per key, or one per partition per tile after a block histogram in shared
 *                 memory); the entry (slot = b & (W - 1), index) goes there.  Order inside a
 *                 region is arbitrary: the hash places by address, so it never matters.
 *                 The last block to finish turns cnt into the offsets off[] (exclusive scan)
 *                 and clears cnt and its own counter for the next run.
 * k_part_place    one block per partition, its table of W = 2^pw slots in shared memory:
 *                 cleared to -1, every entry writes its index to its slot (the single write
 *                 of Listing 1, line 9), then each warp compacts a chunk of slots in order
 *                 with a ballot and a block scan of the warps' counts (the prefix scan and
 *                 compaction of Listing 1 lines 13-19, Fig. 3.2) straight into idx[off[q]...].
 * The scatter pass is one MSD radix pass on the high bits of the bucket; what the hash saves
 * is every further pass: the low pw bits are placed by address in one step. */
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

/* The offsets of the partitions (run by the last scatter block): off[q] = sum of cnt[< q],
 * off[parts] = keys placed; cnt is read from L2 (it was written by atomics) and cleared. */
static __device__ void hsp_offsets(unsigned *cnt, unsigned parts, int *off, int *sh_warp)
{
    int carry = 0;
    const unsigned step = blockDim.x * HSP_OFFSET_ITEMS;
    for (unsigned base = 0; base < parts; base += step) {
        unsigned q0 = base + threadIdx.x * HSP_OFFSET_ITEMS, v[HSP_OFFSET_ITEMS];
        int sum = 0, total;
#pragma unroll
        for (int k = 0; k < HSP_OFFSET_ITEMS; k++) {
            v[k] = q0 + k < parts ? __ldcg(&cnt[q0 + k]) : 0u;
            sum += (int)v[k];
        }
        int o = carry + hsp_block_exscan(sum, sh_warp, &total);
#pragma unroll
        for (int k = 0; k < HSP_OFFSET_ITEMS; k++)
            if (q0 + k < parts) {
                off[q0 + k] = o;
                cnt[q0 + k] = 0u;
                o += (int)v[k];
            }
        carry += total;
    }
    if (threadIdx.x == 0) off[parts] = carry;
}

/* Pass 1: every key of the tile to its partition's region (see the header).  AGG: block
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
    hsp_offsets(cnt, parts, off, sh_warp);
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

/* Pass 2: one block per partition q; dynamic shared memory: the table of 2^pw ints. */
template <bool KEYS>
static __global__ void __launch_bounds__(1024)
    k_part_place(const hsp_entry *__restrict__ part, const double *__restrict__ part_x, const int *__restrict__ off,
                 int pw, int *__restrict__ idx, double *__restrict__ sorted)
{
    extern __shared__ int4 hsp_tab4[];
    int *tab = (int *)hsp_tab4;
    __shared__ int sh_warp[32];
    const unsigned q = blockIdx.x;
    const int W = 1 << pw, base = off[q];
    int c = off[q + 1] - base;
    if (c <= 0) return; /* an empty partition writes nothing */
    if (c > W) c = W;   /* only if two keys shared a bucket */
    const int nt = blockDim.x, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    for (int s = tid; s < W / 4; s += nt) hsp_tab4[s] = make_int4(-1, -1, -1, -1); /* empty buckets (Listing 1, line 5) */
    __syncthreads();
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

/* ---------------- host side: buffers once, then an enqueue-only launcher ---------------- */
typedef void (*hsp_scatter_kernel)(const double *, int, double, double, int, unsigned, unsigned *, hsp_entry *,
                                   double *, int *, unsigned *);
typedef void (*hsp_place_kernel)(const hsp_entry *, const double *, const int *, int, int *, double *);

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

typedef struct {
    hsp_plan plan;
    const double *x; /* keys (device) */
    double xmin, dmin;
    hsp_entry *part;  /* parts << pw entries */
    double *part_x;   /* the same positions, the keys (only for the sorted-keys output) */
    unsigned *cnt;    /* parts counters, zero between runs */
    unsigned *done;   /* scatter blocks finished, zero between runs */
    int *off;         /* parts + 1 offsets */
    int *idx;         /* out: input indices in key order (n; caller-owned) */
    double *sorted;   /* out: sorted keys (n; caller-owned) or NULL */
    hsp_scatter_kernel scatter;
    hsp_place_kernel place;
    size_t scatter_smem, place_smem;
} gpu_part_ctx;

/* device bytes the sort allocates besides its input and outputs */
static inline size_t gpu_part_bytes(const hsp_plan *p)
{
    int keys = p->keys;
    size_t slots = (size_t)p->parts << p->pw;
    return slots * (sizeof(hsp_entry) + (keys ? sizeof(double) : 0)) + sizeof(unsigned) * ((size_t)p->parts + 1) +
           sizeof(int) * ((size_t)p->parts + 1);
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
    size_t slots = (size_t)p->parts << p->pw;
    c->part = (hsp_entry *)device_alloc_or_usage(slots * sizeof(hsp_entry), "partitioned hash sort: partition buffer");
    if (sorted) c->part_x = (double *)device_alloc_or_usage(slots * sizeof(double), "partitioned hash sort: keys buffer");
    c->cnt = (unsigned *)device_alloc_or_usage(sizeof(unsigned) * ((size_t)p->parts + 1), "partition counters");
    c->done = c->cnt + p->parts;
    c->off = (int *)device_alloc_or_usage(sizeof(int) * ((size_t)p->parts + 1), "partition offsets");
    CHECK_CUDA(cudaMemset(c->cnt, 0, sizeof(unsigned) * ((size_t)p->parts + 1)));
    if (p->aggregate) c->scatter = sorted ? hsp_scatter_for<true, true>(p->ipt) : hsp_scatter_for<true, false>(p->ipt);
    else c->scatter = sorted ? hsp_scatter_for<false, true>(p->ipt) : hsp_scatter_for<false, false>(p->ipt);
    c->place = sorted ? k_part_place<true> : k_part_place<false>;
    c->scatter_smem = p->aggregate ? sizeof(unsigned) * (size_t)p->parts : 0;
    c->place_smem = sizeof(int) << p->pw;
    CHECK_CUDA(cudaFuncSetAttribute((const void *)c->scatter, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)c->scatter_smem));
    CHECK_CUDA(cudaFuncSetAttribute((const void *)c->place, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)c->place_smem));
}

static inline void gpu_part_free(gpu_part_ctx *c)
{
    CHECK_CUDA(cudaFree(c->part));
    if (c->part_x) CHECK_CUDA(cudaFree(c->part_x));
    CHECK_CUDA(cudaFree(c->cnt));
    CHECK_CUDA(cudaFree(c->off));
    memset(c, 0, sizeof *c);
}

/* The sort: two launches on stream s, nothing else (bench_gpu-compatible). */
static inline void gpu_part_sort1d(void *p, cudaStream_t s)
{
    gpu_part_ctx *c = (gpu_part_ctx *)p;
    const hsp_plan *q = &c->plan;
    c->scatter<<<(unsigned)q->tiles, HSP_SCATTER_THREADS, c->scatter_smem, s>>>(
        c->x, (int)q->n, c->xmin, c->dmin, q->pw, (unsigned)q->parts, c->cnt, c->part, c->part_x, c->off, c->done);
    CHECK_LAUNCH();
    c->place<<<(unsigned)q->parts, q->place_threads, c->place_smem, s>>>(c->part, c->part_x, c->off, q->pw, c->idx,
                                                                          c->sorted);
    CHECK_LAUNCH();
}

#endif
