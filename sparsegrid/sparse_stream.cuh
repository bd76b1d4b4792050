/* sparsegrid/sparse_stream.cuh -- k_sparse_stream: batched sparse-grid (de)hierarchization with whole
 * poles per thread in registers (the thesis's future work, ch. 6), beside k_sparse and
 * k_sparse_multi, which stay as they are.  The index logic, the per-thread list walk and the
 * model (bytes and instructions per point) are in sparse_stream.h, the plan's lists in
 * sparse_stream_plan.h, replayed on the host by tests/host/test_sparsegrid_stream.c; this file
 * holds the kernel, its plan on the device and launcher.
 *
 * A persistent grid of blocks walks over groups of G consecutive grids (one contiguous span in
 * global memory).  Per group: the span is copied into shared memory with 16-byte loads and
 * stores (the shared copy starts at the same offset modulo 16 bytes as the global one, so both
 * sides are aligned vectors: no bank conflicts, a quarter of the instructions of a scalar copy);
 * then the plan's lists run pass by pass (k = 0..d-1) and tier by tier, one __syncthreads()
 * after each list -- d barriers per group when no pole is longer than 2^M intervals (d = 4..6
 * at the sweep's levels), instead of k_sparse's d n -- every thread taking tasks t = tid,
 * tid + B, ... of the list; then the span is copied back.  The direct-store variant (DSTORE)
 * drops the copy back: the tasks of the last pass write their results to global memory
 * themselves (every point exactly once: interior points by their task, the two boundary
 * points of a pole by its top task), so the stores overlap the last pass's work and a group
 * costs one barrier less.  Staged only: the grid must fit the shared memory of a block.
 *
 * The result equals the CPU's bitwise (float and double): same passes in the same order, the
 * same operation on the same values for every point (sparse_stream.h, "Tiers").
 *
 * k_sparse_pipe (below) runs the same tasks with less around them.  Its model, per point of the
 * sweep's grids, against the budget at 60 % of the copy kernel on the H200 (copy 3.78 TB/s,
 * 132 SMs at 1.98 GHz: 1.09 points per SM cycle in float, 0.54 in double, i.e. 118 / 236
 * thread-instruction issue slots and 0.92 / 1.84 shared-memory wavefronts per point):
 *   instructions (sm_90 SASS, float, M = 3, executed path of each loop): per task 156 (class 0,
 *   cut pieces of long poles), 80 (top, mu = 3), 56 (mu = 2), 26 (single items, 4 bytes each);
 *   per list and thread 48 (k_sparse_stream: about 230 -- four classes at 50-65 each, the
 *   modulo's division twice in each); with the tasks per point of the plans, 256 threads:
 *       d          2    3    4    5    6
 *       tasks     35   44   48   53   57
 *       lists     12   12   13   10    5       (k_sparse_stream: about 58 59 61 49 25)
 *       copies     0    0    0    0    0       (threads' 16-byte copies: about 5)
 *   so about 47 56 61 64 62 per point (k_sparse_stream, M = 3, 256 threads: about 100 112 118
 *   111 90), i.e. 40-54 % of the float issue slots at 60 % of copy (20-27 % in double): the
 *   issue rate the first run reached (0.40-0.61 per scheduler) suffices in float only at its top;
 *   shared-memory wavefronts 0.55-0.61 float, 0.96-1.06 double per point in the bank-aware task
 *   order (0.59-0.69 / 1.02-1.16 in family order; tests/host/test_sparsegrid_stream.c replays
 *   them): 50-66 % of the budget; table bytes from L2 per grid (entries, 4-byte items; the family
 *   records stay in L1) 8 21 27 57 88 KB against 48 70 60 94 112 KB of data in and out (float).
 *   What is left is latency: the load of a group before its first list and the store after its
 *   last, which the bulk copies take off the threads and, with two buffers, overlap with the
 *   computation; the start of each list, loaded before the barrier that ends the one before; and
 *   the tail of each list before its barrier, which the other blocks of the SM fill.
 *   Pole pairs cut the index work of mu = 2, 3 tasks (about 15 % per pole; their items take the
 *   8-byte form) for more wavefronts (d = 6: 0.72 float in the packed order): not expected to win.
 * Predictions written before this kernel first ran (% of copy at 256 MiB, H200, forward), to be
 * compared with its rows: pipe m3 b0 (the walk alone) against stream m3 256 threads: time
 * scales with the instructions at an unchanged issue rate, about 1.6-1.9x at d = 2..5 and 1.3x at
 * d = 6 in float; b1 / b2 add the overlap of the copies, about 5-15 points more; best pipe row
 * 55-65 % at d = 2..4 and 45-60 % at d = 5, 6 in float (L2 traffic of the tables and the issue
 * rate decide), 55-70 % in double (latency only); pairs no better than single poles; ncu of the
 * best row at d = 4: issue rate per scheduler 0.5-0.6, fewer barrier stalls than k_sparse_stream,
 * the rest long scoreboard (table loads) and MIO throttle (shared memory).
 * Measured (README, "k_sparse_pipe"; results-ref/{h100,h200}-pipe/): the best pipe row per d is
 * 46-75 % of copy in float and 48-79 % in double on the H200, 60-93 % on the H100 -- on the H200
 * above the predictions at d = 2, at their low end elsewhere, d = 4 float just below them (53 %
 * against 55-65 %); ncu at d = 4 (float, the register-
 * capped row): 0.70 issued per scheduler and cycle, the largest stalls not_selected, barrier and
 * long scoreboard, and the same kernel time on both GPUs: bound by the SM, not by DRAM. */
#ifndef SPARSEGRID_SPARSE_STREAM_CUH
#define SPARSEGRID_SPARSE_STREAM_CUH

#include <stdint.h>
#include "../common/check.h"
#include "sparse_stream_plan.h"

/* The plan on the device (passed by value). */
typedef struct {
    int d, npts, nlist, M, last_covers;
    const int *cls, *step;
    const int *scls; /* k_sparse_pipe: the class bounds of the lists in the order of step (2 nlist (M + 2)) */
    int compact;     /* k_sparse_pipe: 4-byte items (sgst_plan.compact) */
    const unsigned *task, *item;
    const sgst_rec *rec;
    const unsigned short *full;
} sgst_dev;

static __device__ __forceinline__ void sgst_walk_t(float *u, int pitch, int gc, int G, int M, const sgst_dev &g, int l,
                                                   int inverse, float *gout, int keep_shared)
{
    sgst_walk_f(u, pitch, gc, G, M, g.cls, g.task, g.item, g.rec, g.full, l, threadIdx.x, blockDim.x, inverse, gout, pitch,
                keep_shared);
}
static __device__ __forceinline__ void sgst_walk_t(double *u, int pitch, int gc, int G, int M, const sgst_dev &g, int l,
                                                   int inverse, double *gout, int keep_shared)
{
    sgst_walk_d(u, pitch, gc, G, M, g.cls, g.task, g.item, g.rec, g.full, l, threadIdx.x, blockDim.x, inverse, gout, pitch,
                keep_shared);
}

static __device__ __forceinline__ void sgst_run2_t(const sgst_next &n, float *u, int pitch, int gc, int G, int M,
                                                   const sgst_dev &g, int inverse, int bb, int pairs)
{
    sgst_run2_f(&n, u, pitch, gc, G, M, g.task, g.item, g.rec, g.full, bb, inverse, pairs, g.compact);
}
static __device__ __forceinline__ void sgst_run2_t(const sgst_next &n, double *u, int pitch, int gc, int G, int M,
                                                   const sgst_dev &g, int inverse, int bb, int pairs)
{
    sgst_run2_d(&n, u, pitch, gc, G, M, g.task, g.item, g.rec, g.full, bb, inverse, pairs, g.compact);
}

/* 16-byte vectors of T. */
template <typename T> struct sgst_vec;
template <> struct sgst_vec<float> { typedef float4 type; };
template <> struct sgst_vec<double> { typedef double2 type; };

/* Elements of T between a 16-byte boundary and p: the shared copy of a span starting at p starts
 * this many elements after the (16-byte aligned) shared base. */
template <typename T>
static __device__ __forceinline__ int sgst_skew(const T *p)
{
    return (int)(((uintptr_t)p & 15u) / sizeof(T));
}

/* sh[i] = src[i] (to_shared) or dst[i] = sh[i], i < span, sh and the global side congruent
 * modulo 16 bytes: scalar head and tail, 16-byte vectors between, 4 vectors in flight per thread;
 * global accesses streaming (read or written once). */
template <typename T, bool TO_SHARED>
static __device__ __forceinline__ void sgst_copy(T *sh, const T *src, T *dst, int span)
{
    typedef typename sgst_vec<T>::type V;
    const int W = (int)(16 / sizeof(T)), B = blockDim.x, tid = threadIdx.x;
    const T *g = TO_SHARED ? src : dst;
    int head = (W - sgst_skew(g)) % W;
    if (head > span) head = span;
    int nv = (span - head) / W, tail = head + nv * W;
    for (int i = tid; i < head; i += B) {
        if (TO_SHARED) sh[i] = __ldcs(src + i);
        else __stcs(dst + i, sh[i]);
    }
    for (int i = tail + tid; i < span; i += B) {
        if (TO_SHARED) sh[i] = __ldcs(src + i);
        else __stcs(dst + i, sh[i]);
    }
    V *sv = reinterpret_cast<V *>(sh + head);
    for (int v0 = tid; v0 < nv; v0 += 4 * B) {
        V x[4];
#pragma unroll
        for (int j = 0; j < 4; j++)
            if (v0 + j * B < nv) x[j] = TO_SHARED ? __ldcs(reinterpret_cast<const V *>(src + head) + v0 + j * B) : sv[v0 + j * B];
#pragma unroll
        for (int j = 0; j < 4; j++)
            if (v0 + j * B < nv) {
                if (TO_SHARED) sv[v0 + j * B] = x[j];
                else __stcs(reinterpret_cast<V *>(dst + head) + v0 + j * B, x[j]);
            }
    }
}

/* Threads per block at most: 1024 for one grid and M = 3 (64 registers: 9 values per task),
 * 512 otherwise (128 registers: up to 2 x 33 values). */
#define SGST_MAXT(G, M) ((G) == 1 && (M) <= 3 ? 1024 : 512)

/* ngrids grids in -> out (out may equal in: a group's span is read completely before any of it
 * is written, and no other block touches it), hierarchize or (inverse) dehierarchize. */
template <typename T, int G, int M, bool DSTORE>
__global__ void __launch_bounds__(SGST_MAXT(G, M)) k_sparse_stream(const T *in, T *out, long long ngrids, sgst_dev g, int inverse)
{
    extern __shared__ __align__(16) unsigned char sgst_smem[];
    const int N = g.npts;
    const bool direct = DSTORE && g.last_covers;
    long long ngroups = (ngrids + G - 1) / G;
    for (long long gr = blockIdx.x; gr < ngroups; gr += gridDim.x) {
        long long first = gr * G;
        int gc = ngrids - first < G ? (int)(ngrids - first) : G, span = gc * N;
        const T *src = in + first * N;
        T *dst = out + first * N;
        T *sh = reinterpret_cast<T *>(sgst_smem) + sgst_skew(src);
        sgst_copy<T, true>(sh, src, dst, span);
        __syncthreads();
        for (int i = 0; i < g.nlist; i++) {
            int st = __ldg(g.step + inverse * g.nlist + i), l = st & 255, r = (st >> 8) & 255, k = st >> 16;
            bool last = direct && k == g.d - 1;
            sgst_walk_t(sh, N, gc, G, M, g, l, inverse, last ? dst : (T *)nullptr, !last || (inverse && r > 0));
            __syncthreads();
        }
        if (!direct) {
            sgst_copy<T, false>(sh, src, dst, span);
            __syncthreads(); /* the next group overwrites sh */
        }
    }
}

/* ------------------------------------------------------------------- k_sparse_pipe */

/* Bulk copies (the copy engine of sm_90, cp.async.bulk: contiguous bytes, 16-byte aligned, a
 * multiple of 16) between global and shared memory, completing on an mbarrier (loads) or in a
 * bulk group (stores).  One thread issues them; no other thread spends an instruction. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SGSP_BULK 1
#else
#define SGSP_BULK 0
#endif
static __device__ __forceinline__ unsigned sgsp_sh(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
static __device__ __forceinline__ void sgsp_bar_init(unsigned bar)
{
#if SGSP_BULK
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n\tfence.mbarrier_init.release.cluster;" ::"r"(bar) : "memory");
#endif
}
/* bytes (a multiple of 16) from src to the shared address dst; completes the phase of bar. */
static __device__ __forceinline__ void sgsp_load(unsigned dst, const void *src, unsigned bytes, unsigned bar)
{
#if SGSP_BULK
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
    if (bytes)
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
#else
    __trap();
#endif
}
static __device__ __forceinline__ void sgsp_wait(unsigned bar, unsigned parity)
{
#if SGSP_BULK
    unsigned ok = 0;
    do {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
    } while (!ok);
#endif
}
static __device__ __forceinline__ void sgsp_store(void *dst, unsigned src, unsigned bytes)
{
#if SGSP_BULK
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n\tcp.async.bulk.commit_group;"
                 ::"l"(dst), "r"(src), "r"(bytes) : "memory");
#endif
}
/* The issuing thread: its bulk stores have read their shared memory (read), or are done. */
static __device__ __forceinline__ void sgsp_store_read_wait()
{
#if SGSP_BULK
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#endif
}
static __device__ __forceinline__ void sgsp_store_wait()
{
#if SGSP_BULK
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}
/* This thread's ordinary shared-memory stores, ordered before the copy engine's reads. */
static __device__ __forceinline__ void sgsp_fence_async()
{
#if SGSP_BULK
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

/* Group gr of G grids: its span in global memory, and how it splits into a scalar head, nv
 * 16-byte vectors and a scalar tail (the shared copy keeps the global skew, as sgst_copy). */
template <typename T>
struct sgsp_group {
    const T *src;
    T *dst;
    int span, skew, head, nv, tail;
};
template <typename T>
static __device__ __forceinline__ sgsp_group<T> sgsp_group_of(const T *in, T *out, long long ngrids, int G, int N, long long gr)
{
    const int W = (int)(16 / sizeof(T));
    sgsp_group<T> q;
    long long first = gr * G;
    q.span = (ngrids - first < G ? (int)(ngrids - first) : G) * N;
    q.src = in + first * N;
    q.dst = out + first * N;
    q.skew = sgst_skew(q.src);
    q.head = (W - q.skew) % W;
    if (q.head > q.span) q.head = q.span;
    q.nv = (q.span - q.head) / W;
    q.tail = q.head + q.nv * W;
    return q;
}
/* Thread tid < 2 W owns at most one scalar of the head (tid < W) or tail (tid >= W); -1: none. */
template <typename T>
static __device__ __forceinline__ int sgsp_scalar(const sgsp_group<T> &q, int tid)
{
    const int W = (int)(16 / sizeof(T));
    int e = tid < W ? tid : q.tail + tid - W;
    return tid < 2 * W && (tid < W ? e < q.head : e < q.span) ? e : -1;
}

/* The bulk load of group gr into the buffer at bufp (thread 0, once the bulk stores it issued
 * before have read their shared memory: the one of the buffer's previous group among them), and
 * this thread's scalar of it, returned (hv unchanged if it has none). */
template <typename T>
static __device__ __forceinline__ T sgsp_prefetch(const T *in, T *out, long long ngrids, int G, int N, long long gr, T *bufp,
                                                  unsigned bar, T hv)
{
    sgsp_group<T> q = sgsp_group_of(in, out, ngrids, G, N, gr);
    int e = sgsp_scalar(q, (int)threadIdx.x);
    if (e >= 0) hv = __ldcs(q.src + e);
    if (threadIdx.x == 0) {
        sgsp_store_read_wait();
        sgsp_load(sgsp_sh(bufp + q.skew + q.head), q.src + q.head, 16u * q.nv, bar);
    }
    return hv;
}

/* Bytes of the staged class bounds (sgst_dev.scls), a multiple of 16. */
static __host__ __device__ __forceinline__ int sgsp_cls_bytes(int nlist, int M) { return (2 * nlist * (M + 2) * 4 + 15) / 16 * 16; }

/* Threads per block at most and the register cap: 1024 threads (64 registers) for one grid, M = 3
 * and single poles, 512 (128 registers) otherwise (pairs of double poles of mu = 3 spill at 64). */
#define SGSP_MAXT(G, M, P) ((G) == 1 && (M) <= 3 && !(P) ? 1024 : 512)
/* The register-capped variants: blocks of at most SGSP_CAPT threads, at least minb of them per SM
 * (6: 40 registers per thread, no spill in float; 8: 32 registers, a few spilled words), for grids
 * small enough that shared memory would let that many blocks in while the registers (47 per
 * thread uncapped) let 5. */
#define SGSP_CAPT 256

/* k_sparse_pipe: the work of k_sparse_stream (same plan, same tasks per thread, same bits)
 * with the cheaper walk (sgst_walk2, B = 2^bb) and, for NBUF = 1 or 2, the copies done by the
 * copy engine instead of the threads:
 *   NBUF = 0: the threads' 16-byte copies in and out (sgst_copy), as k_sparse_stream;
 *   NBUF = 1: one buffer; thread 0 issues the bulk load of the group, everyone waits on its
 *     mbarrier, runs the lists, and thread 0 issues the bulk store and, once the store has read
 *     the buffer, the next group's load -- no thread instruction per point for the copies, the
 *     load's latency hidden only by the other blocks of the SM;
 *   NBUF = 2: two buffers; the next group's load is issued after the first list of this one
 *     (when the store of the group before, which read that buffer, has long been issued), so
 *     the load runs while this group is computed.
 * The few scalars before the first and after the last 16-byte boundary of a group (the span of
 * G grids of N points rarely starts or ends on one) are loaded by threads 0..2W-1 into
 * registers when the load is issued, and stored by them from shared memory after the bulk
 * store is issued.  smem: 16 bytes of mbarriers, the class bounds of every list in the order the
 * lists run (staged once per block: one shared-memory round trip per list instead of the step and
 * bounds loads), then NBUF (at least 1) buffers of bufelems. */
template <typename T, int G, int M, int NBUF, int PAIRS, int MINB>
__global__ void __launch_bounds__(MINB ? SGSP_CAPT : SGSP_MAXT(G, M, PAIRS), MINB ? MINB : 1) k_sparse_pipe(const T *in, T *out, long long ngrids, sgst_dev g,
                                                                  int inverse, int bb, int bufelems)
{
    extern __shared__ __align__(16) unsigned char sgst_smem[];
    const int N = g.npts, tid = threadIdx.x, nc = 2 * g.nlist * (M + 2);
    const long long ngroups = (ngrids + G - 1) / G, stride = gridDim.x;
    int *scls = reinterpret_cast<int *>(sgst_smem + 16);
    T *buf0 = reinterpret_cast<T *>(sgst_smem + 16 + sgsp_cls_bytes(g.nlist, M));
    const unsigned bar0 = sgsp_sh(sgst_smem);
    for (int i = tid; i < nc; i += blockDim.x) scls[i] = __ldg(g.scls + i);
    if (NBUF > 0 && tid == 0) {
        sgsp_bar_init(bar0);
        sgsp_bar_init(bar0 + 8);
    }
    __syncthreads();
    T hv = (T)0; /* the scalar this thread loads for the group whose bulk load is in flight */
    long long gr = blockIdx.x;
    const int *cls0 = scls + inverse * g.nlist * (M + 2); /* the lists in the order they run */
    sgst_next nl; /* the start of the next list (sgst_prep2), loaded before the barrier ending this one */
    if (g.nlist > 0) sgst_prep2(&nl, M, cls0, g.task, g.item, tid, bb, g.compact);
    if (NBUF > 0 && gr < ngroups) hv = sgsp_prefetch(in, out, ngrids, G, N, gr, buf0, bar0, hv);
    for (int it = 0; gr < ngroups; gr += stride, it++) {
        const int b = NBUF == 2 ? (it & 1) : 0;
        const unsigned bar = bar0 + 8 * b, parity = NBUF == 2 ? (it >> 1) & 1 : it & 1;
        sgsp_group<T> q = sgsp_group_of(in, out, ngrids, G, N, gr);
        int gc = G == 1 ? 1 : q.span / N; /* grids in the group (a constant for G = 1: no test per task) */
        T *sh = buf0 + (size_t)b * bufelems + q.skew;
        if (NBUF == 0) {
            sgst_copy<T, true>(sh, q.src, q.dst, q.span);
        } else {
            sgsp_wait(bar, parity);
            int e = sgsp_scalar(q, tid);
            if (e >= 0) sh[e] = hv;
        }
        __syncthreads();
        long long nx = gr + stride; /* the next group of this block */
        if (NBUF == 2 && g.nlist == 0 && nx < ngroups) /* no list to wait for */
            hv = sgsp_prefetch(in, out, ngrids, G, N, nx, buf0 + (size_t)(b ^ 1) * bufelems, bar0 + 8 * (b ^ 1), hv);
        for (int i = 0; i < g.nlist; i++) {
            sgst_next cur = nl;
            sgst_run2_t(cur, sh, N, gc, G, M, g, inverse, bb, PAIRS);
            /* the next list, or the first one again for the next group */
            sgst_prep2(&nl, M, cls0 + (i + 1 < g.nlist ? i + 1 : 0) * (M + 2), g.task, g.item, tid, bb, g.compact);
            if (NBUF > 0 && i == g.nlist - 1) sgsp_fence_async(); /* before the bulk store reads sh */
            __syncthreads();
            if (NBUF == 2 && i == 0 && nx < ngroups) /* the next group into the other buffer */
                hv = sgsp_prefetch(in, out, ngrids, G, N, nx, buf0 + (size_t)(b ^ 1) * bufelems, bar0 + 8 * (b ^ 1), hv);
        }
        if (NBUF == 0) {
            sgst_copy<T, false>(sh, q.src, q.dst, q.span);
            __syncthreads(); /* the next group overwrites sh */
            continue;
        }
        if (tid == 0 && q.nv) sgsp_store(q.dst + q.head, sgsp_sh(sh + q.head), 16u * q.nv);
        int e = sgsp_scalar(q, tid);
        if (e >= 0) __stcs(q.dst + e, sh[e]);
        if (NBUF == 1 && nx < ngroups) { /* the next group into the same buffer, once it is read */
            __syncwarp(); /* warp 0's scalars have left sh */
            hv = sgsp_prefetch(in, out, ngrids, G, N, nx, buf0, bar0, hv);
        }
    }
    if (NBUF > 0 && tid == 0) sgsp_store_wait(); /* the last stores are done before the block leaves */
}

/* A plan: the device copy of a sgst_plan and the launch of k_sparse_stream<T, G, M, DSTORE> or
 * (pipe) k_sparse_pipe<T, G, M, NBUF>. */
typedef struct {
    sgst_dev dev;
    int M, G, direct; /* pole levels per task, grids per block, direct store (k_sparse_stream) */
    int pipe, nbuf;   /* k_sparse_pipe with nbuf buffers (0: the threads copy) */
    int pairs;        /* k_sparse_pipe: pole pairs (sgst_plan.pairs) */
    int minb;         /* k_sparse_pipe: register-capped variant (minb blocks of SGSP_CAPT threads per SM), 0: not */
    int bb, bufelems; /* k_sparse_pipe: log2 threads, elements per buffer */
    int split;        /* k_sparse_clu (sparse_cluster.cuh): the offset where the second half of a grid starts */
    size_t elem;      /* bytes per element (k_sparse_pipe: its plan's bank-aware order) */
    int threads;      /* threads per block */
    int per_sm;       /* resident blocks per SM (occupancy API: shared memory, registers, threads) */
    int blocks;       /* blocks launched at most (per_sm * SMs, capped by max_blocks) */
    int regs;         /* registers per thread (cudaFuncGetAttributes) */
    size_t smem;      /* dynamic shared memory per block: G N elem + 16 bytes of skew (pipe: 16 bytes of
                         mbarriers and max(nbuf, 1) buffers of G N elem + 16, rounded up to 16) */
    int nlist, ntask; /* lists (barriers - 2 per group) and tasks per grid */
    double items_pt, tasks_pt; /* items and tasks per point */
} sgst_gpu;

/* The kernel of (T, G, M, direct) as a function pointer; NULL when not instantiated. */
template <typename T>
static inline void (*sgst_kernel(int G, int M, int direct))(const T *, T *, long long, sgst_dev, int)
{
#define SGST_K(GG, MM)                                                                                  \
    if (G == GG && M == MM) return direct ? k_sparse_stream<T, GG, MM, true> : k_sparse_stream<T, GG, MM, false>;
    SGST_K(1, 3) SGST_K(1, 4) SGST_K(1, 5) SGST_K(2, 3) SGST_K(2, 4) /* G = 2, M = 5: 2 x 33 doubles spill */
#undef SGST_K
    return NULL;
}

/* The kernel of k_sparse_pipe (T, G, M, nbuf, pairs, minb); NULL when not instantiated.  Pole
 * pairs: G = 1 with 1 or 2 buffers.  minb = 6 or 8 (register-capped: at least minb blocks of
 * SGSP_CAPT threads per SM): G = 1, M = 3, single poles, 1 or 2 buffers. */
template <typename T>
static inline void (*sgsp_kernel(int G, int M, int nbuf, int pairs, int minb))(const T *, T *, long long, sgst_dev, int, int, int)
{
#define SGSP_K(GG, MM)                                                                                  \
    if (G == GG && M == MM && !pairs && !minb)                                                          \
        return nbuf == 0 ? k_sparse_pipe<T, GG, MM, 0, 0, 0> : nbuf == 1 ? k_sparse_pipe<T, GG, MM, 1, 0, 0> \
             : nbuf == 2 ? k_sparse_pipe<T, GG, MM, 2, 0, 0> : NULL;
#define SGSP_KP(MM)                                                                                     \
    if (G == 1 && M == MM && pairs && !minb)                                                            \
        return nbuf == 1 ? k_sparse_pipe<T, 1, MM, 1, 1, 0> : nbuf == 2 ? k_sparse_pipe<T, 1, MM, 2, 1, 0> : NULL;
    SGSP_K(1, 3) SGSP_K(1, 4) SGSP_K(1, 5) SGSP_K(2, 3) SGSP_KP(3) SGSP_KP(4) SGSP_KP(5)
#define SGSP_KR(MB)                                                                                     \
    if (G == 1 && M == 3 && !pairs && minb == MB)                                                       \
        return nbuf == 1 ? k_sparse_pipe<T, 1, 3, 1, 0, MB> : nbuf == 2 ? k_sparse_pipe<T, 1, 3, 2, 0, MB> : NULL;
    SGSP_KR(6) SGSP_KR(8)
#undef SGSP_KR
#undef SGSP_K
#undef SGSP_KP
    return NULL;
}

static inline void sgst_gpu_free(sgst_gpu *s)
{
    CHECK_CUDA(cudaFree((void *)s->dev.cls)); /* NULL: a no-op */
    CHECK_CUDA(cudaFree((void *)s->dev.step));
    CHECK_CUDA(cudaFree((void *)s->dev.task));
    CHECK_CUDA(cudaFree((void *)s->dev.item));
    CHECK_CUDA(cudaFree((void *)s->dev.rec));
    CHECK_CUDA(cudaFree((void *)s->dev.full));
    CHECK_CUDA(cudaFree((void *)s->dev.scls));
    memset(s, 0, sizeof *s);
}

template <typename A>
static inline const A *sgst_upload(const A *h, long long n)
{
    A *d = NULL;
    CHECK_CUDA(cudaMalloc(&d, sizeof(A) * (size_t)(n > 0 ? n : 1)));
    if (n > 0) CHECK_CUDA(cudaMemcpy(d, h, sizeof(A) * (size_t)n, cudaMemcpyHostToDevice));
    return d;
}

/* The part of both setups after the checks: the plan of h for M, its device copy, the kernel fn's
 * shared-memory limit and occupancy.  s->M, G, threads, smem are set.  Returns 0, -1 (plan
 * refused) or -2 (no block fits an SM), nothing allocated on failure. */
static inline int sgst_gpu_plan(sgst_gpu *s, const sgs_grid *h, const void *fn, int device, int max_blocks, char *err,
                                size_t errsz)
{
    int sms = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    sgst_plan p; /* k_sparse_pipe: bank-aware task order for its element size (sgst_pack) */
    if (sgst_plan_build2(&p, h, s->M, s->pairs, s->pipe ? (int)s->elem : 0, err, errsz)) return -1;
    s->nlist = p.nlist;
    s->ntask = p.ntask;
    s->items_pt = (double)p.items / (double)h->npts;
    s->tasks_pt = (double)p.ntask / (double)h->npts;
    s->dev.d = p.d;
    s->dev.npts = (int)p.npts;
    s->dev.nlist = p.nlist;
    s->dev.M = s->M;
    s->dev.last_covers = p.last_covers;
    s->dev.compact = p.compact;
    s->dev.cls = sgst_upload(p.cls, (long long)p.nlist * (s->M + 2));
    s->dev.step = sgst_upload(p.step, 2LL * p.nlist);
    s->dev.task = sgst_upload(p.task, p.ntask);
    s->dev.item = sgst_upload(p.item, 2LL * p.ntask);
    s->dev.rec = sgst_upload(p.rec, p.nrec);
    s->dev.full = sgst_upload(p.full, p.nfull);
    if (s->pipe) { /* the class bounds in the order of step, and their place in shared memory */
        int w = s->M + 2, *sc = (int *)malloc(sizeof(int) * (size_t)(2 * p.nlist * w + 1));
        if (!sc) DIE("out of host memory");
        for (int i = 0; i < 2 * p.nlist; i++) memcpy(sc + i * w, p.cls + (p.step[i] & 255) * w, sizeof(int) * w);
        s->dev.scls = sgst_upload(sc, 2LL * p.nlist * w);
        free(sc);
        s->smem += sgsp_cls_bytes(p.nlist, s->M);
    }
    sgst_plan_free(&p);
    int optin = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    if (s->smem > (size_t)optin) {
        snprintf(err, errsz, "%zu bytes of shared memory (buffers and class bounds) do not fit %d", s->smem, optin);
        sgst_gpu_free(s);
        return -1;
    }
    cudaFuncAttributes fa;
    CHECK_CUDA(cudaFuncGetAttributes(&fa, fn));
    if ((size_t)fa.maxDynamicSharedSizeBytes < s->smem) /* raise only: an earlier plan may still be launched */
        CHECK_CUDA(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s->smem));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&s->per_sm, fn, s->threads, s->smem));
    s->regs = fa.numRegs;
    if (s->per_sm < 1) {
        snprintf(err, errsz, "no block of %d threads x %d registers and %zu bytes fits an SM", s->threads, fa.numRegs, s->smem);
        sgst_gpu_free(s);
        return -2;
    }
    s->blocks = s->per_sm * sms;
    if (max_blocks > 0 && s->blocks > max_blocks) s->blocks = max_blocks;
    return 0;
}

/* Plans k_sparse_stream for element size elem (4: float, 8: double), M pole levels per task
 * (3, 4 or 5), G grids per block (1 or 2; M <= 4 with 2), `threads` per block (a multiple of 32, <= 1024),
 * direct store or not; max_blocks > 0 caps the grid.  Returns 0, or -1 (nothing allocated, a
 * reason in err) when the grid does not fit the plan (16-bit offsets) or G grids do not fit the
 * shared memory of a block, or M / G are not instantiated; -2 when no block fits an SM. */
static inline int sgst_gpu_setup(sgst_gpu *s, const sgs_grid *h, size_t elem, int M, int G, int threads, int direct,
                                 int device, int max_blocks, char *err, size_t errsz)
{
    memset(s, 0, sizeof *s);
    if (elem != sizeof(float) && elem != sizeof(double)) { snprintf(err, errsz, "element size %zu", elem); return -1; }
    const void *fn = elem == sizeof(float) ? (const void *)sgst_kernel<float>(G, M, direct)
                                           : (const void *)sgst_kernel<double>(G, M, direct);
    if (!fn) { snprintf(err, errsz, "k_sparse_stream: G = %d, M = %d not instantiated", G, M); return -1; }
    if (threads < 32 || threads > SGST_MAXT(G, M) || threads % 32) { snprintf(err, errsz, "%d threads per block", threads); return -1; }
    int optin = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    size_t smem = elem * (size_t)G * (size_t)h->npts + 16;
    if (smem > (size_t)optin) { snprintf(err, errsz, "%d grids of %lld points do not fit %d bytes", G, h->npts, optin); return -1; }
    s->M = M;
    s->G = G;
    s->direct = direct;
    s->threads = threads;
    s->smem = smem;
    return sgst_gpu_plan(s, h, fn, device, max_blocks, err, errsz);
}

/* Plans k_sparse_pipe: as sgst_gpu_setup, with nbuf buffers (0: the threads copy; 1, 2: bulk
 * copies, sm_90 and a binary built for it) instead of the direct store, pole pairs or not (G = 1,
 * nbuf >= 1), the tasks in the bank-aware order for elem (sgst_pack), and `threads` a power of
 * two from 32 to SGSP_MAXT(G, M, pairs).  Returns 0, -1 (refused: the reason in err) or -2. */
static inline int sgsp_gpu_setup(sgst_gpu *s, const sgs_grid *h, size_t elem, int M, int G, int threads, int nbuf,
                                 int pairs, int minb, int device, int max_blocks, char *err, size_t errsz)
{
    memset(s, 0, sizeof *s);
    if (elem != sizeof(float) && elem != sizeof(double)) { snprintf(err, errsz, "element size %zu", elem); return -1; }
    const void *fn = elem == sizeof(float) ? (const void *)sgsp_kernel<float>(G, M, nbuf, pairs, minb)
                                           : (const void *)sgsp_kernel<double>(G, M, nbuf, pairs, minb);
    if (!fn) {
        snprintf(err, errsz, "k_sparse_pipe: G = %d, M = %d, %d buffers%s%s not instantiated", G, M, nbuf, pairs ? ", pairs" : "",
                 minb ? ", register-capped" : "");
        return -1;
    }
    int tmax = minb ? SGSP_CAPT : SGSP_MAXT(G, M, pairs);
    if (threads < 32 || threads > tmax || (threads & (threads - 1))) {
        snprintf(err, errsz, "%d threads per block (a power of two, 32 to %d)", threads, tmax);
        return -1;
    }
    if (nbuf > 0) {
        cudaFuncAttributes fa;
        int major = 0;
        CHECK_CUDA(cudaFuncGetAttributes(&fa, fn));
        CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
        if (major < 9 || fa.binaryVersion < 90) {
            snprintf(err, errsz, "bulk copies need sm_90 (device %d.x, binary sm_%d)", major, fa.binaryVersion);
            return -1;
        }
    }
    int optin = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    size_t buf = (elem * (size_t)G * (size_t)h->npts + 16 + 15) / 16 * 16, smem = 16 + (nbuf > 1 ? nbuf : 1) * buf;
    if (smem > (size_t)optin) {
        snprintf(err, errsz, "%d buffers of %d grids of %lld points do not fit %d bytes", nbuf > 1 ? nbuf : 1, G, h->npts, optin);
        return -1;
    }
    s->M = M;
    s->G = G;
    s->pipe = 1;
    s->nbuf = nbuf;
    s->pairs = pairs;
    s->minb = minb;
    s->elem = elem;
    s->threads = threads;
    for (s->bb = 0; (1 << s->bb) < threads; s->bb++) {}
    s->bufelems = (int)(buf / elem);
    s->smem = smem;
    return sgst_gpu_plan(s, h, fn, device, max_blocks, err, errsz);
}

/* ngrids grids in -> out (out may equal in), hierarchize or (inverse) dehierarchize: enqueues one
 * launch on stream st, nothing else.  in and out must lie at the same offset modulo 16 bytes
 * (the copy back uses the skew of the copy in). */
template <typename T>
static inline void sgst_gpu_run(const sgst_gpu *s, const T *in, T *out, long long ngrids, int inverse, cudaStream_t st)
{
    if (((uintptr_t)in & 15u) != ((uintptr_t)out & 15u)) DIE("sgst_gpu_run: in and out differ modulo 16 bytes");
    long long groups = (ngrids + s->G - 1) / s->G, blocks = groups < s->blocks ? groups : s->blocks;
    if (blocks < 1) return;
    if (s->pipe)
        sgsp_kernel<T>(s->G, s->M, s->nbuf, s->pairs, s->minb)<<<(int)blocks, s->threads, s->smem, st>>>(in, out, ngrids, s->dev, inverse,
                                                                                       s->bb, s->bufelems);
    else
        sgst_kernel<T>(s->G, s->M, s->direct)<<<(int)blocks, s->threads, s->smem, st>>>(in, out, ngrids, s->dev, inverse);
    CHECK_LAUNCH();
}

#endif
