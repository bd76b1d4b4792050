/* sparsegrid/sparse_stream.cuh -- k_sparse_stream: batched sparse-grid (de)hierarchization with whole
 * poles per thread in registers (the thesis's future work, ch. 6), beside k_sparse and
 * k_sparse_multi, which stay as they are.  The index logic, the per-thread list walk and the
 * model (bytes and instructions per point) are in sparse_stream.h, replayed on the host by
 * tests/host/test_sparsegrid_stream.c; this file holds the kernel, its plan and launcher.
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
 * same operation on the same values for every point (sparse_stream.h, "Tiers"). */
#ifndef SPARSEGRID_SPARSE_STREAM_CUH
#define SPARSEGRID_SPARSE_STREAM_CUH

#include <stdint.h>
#include "../common/check.h"
#include "sparse_stream.h"

/* The plan on the device (passed by value). */
typedef struct {
    int d, npts, nlist, M, last_covers;
    const int *cls, *step;
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

/* A plan: the device copy of a sgst_plan and the launch of k_sparse_stream<T, G, M, DSTORE>. */
typedef struct {
    sgst_dev dev;
    int M, G, direct; /* pole levels per task, grids per block, direct store */
    int threads;      /* threads per block */
    int per_sm;       /* resident blocks per SM (occupancy API: shared memory, registers, threads) */
    int blocks;       /* blocks launched at most (per_sm * SMs, capped by max_blocks) */
    int regs;         /* registers per thread (cudaFuncGetAttributes) */
    size_t smem;      /* dynamic shared memory per block: G N elem + 16 bytes of skew */
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

static inline void sgst_gpu_free(sgst_gpu *s)
{
    CHECK_CUDA(cudaFree((void *)s->dev.cls)); /* NULL: a no-op */
    CHECK_CUDA(cudaFree((void *)s->dev.step));
    CHECK_CUDA(cudaFree((void *)s->dev.task));
    CHECK_CUDA(cudaFree((void *)s->dev.item));
    CHECK_CUDA(cudaFree((void *)s->dev.rec));
    CHECK_CUDA(cudaFree((void *)s->dev.full));
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
    int optin = 0, sms = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    size_t smem = elem * (size_t)G * (size_t)h->npts + 16;
    if (smem > (size_t)optin) { snprintf(err, errsz, "%d grids of %lld points do not fit %d bytes", G, h->npts, optin); return -1; }
    sgst_plan p;
    if (sgst_plan_build(&p, h, M, err, errsz)) return -1;
    s->M = M;
    s->G = G;
    s->direct = direct;
    s->threads = threads;
    s->smem = smem;
    s->nlist = p.nlist;
    s->ntask = p.ntask;
    s->items_pt = (double)p.items / (double)h->npts;
    s->tasks_pt = (double)p.ntask / (double)h->npts;
    s->dev.d = p.d;
    s->dev.npts = (int)p.npts;
    s->dev.nlist = p.nlist;
    s->dev.M = M;
    s->dev.last_covers = p.last_covers;
    s->dev.cls = sgst_upload(p.cls, (long long)p.nlist * (M + 2));
    s->dev.step = sgst_upload(p.step, 2LL * p.nlist);
    s->dev.task = sgst_upload(p.task, p.ntask);
    s->dev.item = sgst_upload(p.item, 2LL * p.ntask);
    s->dev.rec = sgst_upload(p.rec, p.nrec);
    s->dev.full = sgst_upload(p.full, p.nfull);
    sgst_plan_free(&p);
    cudaFuncAttributes fa;
    CHECK_CUDA(cudaFuncGetAttributes(&fa, fn));
    if ((size_t)fa.maxDynamicSharedSizeBytes < smem) /* raise only: an earlier plan may still be launched */
        CHECK_CUDA(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&s->per_sm, fn, threads, smem));
    s->regs = fa.numRegs;
    if (s->per_sm < 1) {
        snprintf(err, errsz, "no block of %d threads x %d registers and %zu bytes fits an SM", threads, fa.numRegs, smem);
        sgst_gpu_free(s);
        return -2;
    }
    s->blocks = s->per_sm * sms;
    if (max_blocks > 0 && s->blocks > max_blocks) s->blocks = max_blocks;
    return 0;
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
    sgst_kernel<T>(s->G, s->M, s->direct)<<<(int)blocks, s->threads, s->smem, st>>>(in, out, ngrids, s->dev, inverse);
    CHECK_LAUNCH();
}

#endif
