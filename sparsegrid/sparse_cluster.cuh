/* sparsegrid/sparse_cluster.cuh -- k_sparse_clu: sparse-grid (de)hierarchization with one grid
 * split across the two thread blocks of a cluster (sm_90 distributed shared memory), beside
 * k_sparse_pipe (sparse_stream.cuh), which stays as it is.  Same plan, same tasks, same
 * arithmetic (thesis Algorithm 1 by poles, c = u - (u_left + u_right) / 2 per dimension,
 * thesis 2.3.1 / 2.3.2; sparse_stream.h "Tiers"), so the result equals the CPU's bitwise.
 *
 * Why (NOTES.md, "A model of k_sparse_pipe per SM"): at d = 5, 6 k_sparse_pipe needs 48-115 KB
 * of shared memory per grid, so an SM holds 1-4 grids; each list ends in a barrier that waits
 * for every warp of its grid, and with so few grids per SM those waits are not filled by other
 * grids (issue rate about 0.3 per scheduler in double, 0.6 in float against 0.70 at d = 4).
 * Here a cluster of two blocks holds one grid, each block half of it (its own shared memory),
 * every thread of both blocks takes tasks of every list (thread rank * B + tid of 2 B), reading
 * and writing the points of the other half through distributed shared memory, and a cluster
 * barrier ends each list.  Half the shared memory per block: twice the blocks per SM where shared
 * memory is the limit (d = 6 double: 3 half grids instead of 1 grid per SM), at the price of
 * generic (not LDS/STS) accesses, about half of them to the other SM: the SASS of the task loops
 * has about 1.5x the instructions of k_sparse_pipe's where single items dominate (d = 5, 6).
 * Predicted before any run (NOTES.md): 32-40 % of copy in float at d = 5, 6 (below k_sparse_pipe),
 * at most 58 % in double at d = 5 and 44-48 % at d = 6 -- short of 60 %; the double rows test
 * whether the issue rate follows the grids computing per SM.
 *
 * Per group (one grid; a persistent grid of clusters walks the grids): block 0 bulk-loads the
 * points [0, H) of the grid, block 1 the points [H, N) (cp.async.bulk with scalar heads and tails,
 * as k_sparse_pipe; H: the subspace boundary nearest N / 2, so each level of a task lies in one
 * half and its cluster address is chosen once: 32-bit ld/st.shared::cluster), cluster barrier, the plan's lists with a cluster barrier after each, then each block bulk-stores
 * its half and loads its half of the next grid into the same buffer once the store has read it.
 * No block touches the other's shared memory between the last barrier of a group and the first
 * of the next one, so reusing the buffer needs no cluster-wide wait. */
#ifndef SPARSEGRID_SPARSE_CLUSTER_CUH
#define SPARSEGRID_SPARSE_CLUSTER_CUH

#include "sparse_stream.cuh"

#define SGCL_CTAS 2     /* blocks per cluster: one grid split in two halves */
#define SGCL_MAXT 512   /* threads per block at most (1024 per grid) */

/* The half boundary H of a grid: the offset of the subspace boundary nearest N / 2 (host, from
 * the grid's offsets).  A subspace is a contiguous block, so every subspace -- and with it every
 * level of a task, whose points of one level lie in one subspace -- is in one half: the half is
 * chosen once per level of a task, not once per point. */
static inline int sgcl_split_of(const sgs_grid *h)
{
    long long best = 0;
    for (int s = 0; s <= h->nsub; s++)
        if (llabs(2 * h->off[s] - h->npts) < llabs(2 * best - h->npts)) best = h->off[s];
    return (int)best;
}

/* Block rank's part of grid gr as a bulk-copy group: [0, H) or [H, N) (scalar head, 16-byte
 * vectors, scalar tail; the shared copy keeps the skew of the global address, as sgsp_group). */
template <typename T>
static __device__ __forceinline__ sgsp_group<T> sgcl_half(const T *in, T *out, int N, int H, long long gr, int rank)
{
    const int W = (int)(16 / sizeof(T)), lo = rank ? H : 0;
    sgsp_group<T> q;
    q.span = rank ? N - H : H;
    q.src = in + gr * N + lo;
    q.dst = out + gr * N + lo;
    q.skew = sgst_skew(q.src);
    q.head = (W - q.skew) % W;
    if (q.head > q.span) q.head = q.span;
    q.nv = (q.span - q.head) / W;
    q.tail = q.head + q.nv * W;
    return q;
}

/* Thread 0: the bulk load of a half into buf (once the bulk stores of this block have read it);
 * this thread's scalar of the half (head or tail), returned in hv. */
template <typename T>
static __device__ __forceinline__ T sgcl_prefetch(const sgsp_group<T> &q, T *buf, unsigned bar, T hv)
{
    int e = sgsp_scalar(q, (int)threadIdx.x);
    if (e >= 0) hv = __ldcs(q.src + e);
    if (threadIdx.x == 0) {
        sgsp_store_read_wait();
        sgsp_load(sgsp_sh(buf + q.skew + q.head), q.src + q.head, 16u * q.nv, bar);
    }
    return hv;
}

/* Distributed shared memory (sm_90): the 32-bit shared::cluster address of the shared::cta
 * address a in block rank of the cluster, and loads and stores there. */
static __device__ __forceinline__ unsigned sgcl_mapa(unsigned a, unsigned rank)
{
    unsigned r = 0;
#if SGSP_BULK
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
#endif
    return r;
}
static __device__ __forceinline__ void sgcl_ld(unsigned a, float *v)
{
#if SGSP_BULK
    asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(*v) : "r"(a) : "memory");
#endif
}
static __device__ __forceinline__ void sgcl_ld(unsigned a, double *v)
{
#if SGSP_BULK
    asm volatile("ld.shared::cluster.f64 %0, [%1];" : "=d"(*v) : "r"(a) : "memory");
#endif
}
static __device__ __forceinline__ void sgcl_st(unsigned a, float v)
{
#if SGSP_BULK
    asm volatile("st.shared::cluster.f32 [%0], %1;" ::"r"(a), "f"(v) : "memory");
#endif
}
static __device__ __forceinline__ void sgcl_st(unsigned a, double v)
{
#if SGSP_BULK
    asm volatile("st.shared::cluster.f64 [%0], %1;" ::"r"(a), "d"(v) : "memory");
#endif
}

/* The grid of this group in the cluster's shared memory: point x at the shared::cluster address
 * x elem + (x < H ? c0 : c1) (c0, c1: the two halves' bases, c1 less H elem). */
struct sgcl_grid {
    unsigned c0, c1;
    int H;
};
template <typename T>
static __device__ __forceinline__ unsigned sgcl_addr(const sgcl_grid &u, int x)
{
    return (unsigned)x * (unsigned)sizeof(T) + (x < u.H ? u.c0 : u.c1);
}

/* The cluster barrier: every thread of both blocks; orders the shared-memory accesses before it
 * (local and remote) before those after it. */
static __device__ __forceinline__ void sgcl_sync()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
/* This thread's stores (to either half) ordered before the copy engine's reads. */
static __device__ __forceinline__ void sgcl_fence_async()
{
#if SGSP_BULK
    asm volatile("fence.proxy.async;" ::: "memory");
#endif
}

/* The 1D transform of sparse_stream.h (same operations, same bits). */
static __device__ __forceinline__ void sgcl_line(float *v, int MU, int inverse) { sgst_line_f(v, MU, inverse); }
static __device__ __forceinline__ void sgcl_line(double *v, int MU, int inverse) { sgst_line_d(v, MU, inverse); }

/* One task of geometry geo (sgst_geo: offsets in the grid): the base of each level and the two
 * endpoints turned into cluster addresses once, then its 2^MU + 1 values in, the transform
 * (thesis Algorithm 1 on the pole segment), its interior points out.  Task position j of level
 * t = ctz(j) is base[t] + (j >> (t + 1)) 2^sb (sgst_geo_addr). */
template <typename T, int MU>
static __device__ __forceinline__ void sgcl_task(const sgcl_grid &u, const sgst_geo &geo, int inverse)
{
    unsigned base[MU], e0 = sgcl_addr<T>(u, geo.e0), e1 = sgcl_addr<T>(u, geo.e1);
    const int sh = geo.sb + (sizeof(T) == 8 ? 3 : 2);
#pragma unroll
    for (int t = 0; t < MU; t++) base[t] = sgcl_addr<T>(u, geo.base[t]);
    T v[(1 << MU) + 1];
    sgcl_ld(e0, v);
    sgcl_ld(e1, v + (1 << MU));
#pragma unroll
    for (int j = 1; j < (1 << MU); j++) {
        const int t = sgst_ctz6(j);
        sgcl_ld(base[t] + ((unsigned)(j >> (t + 1)) << sh), v + j);
    }
    sgcl_line(v, MU, inverse);
#pragma unroll
    for (int j = 1; j < (1 << MU); j++) {
        const int t = sgst_ctz6(j);
        sgcl_st(base[t] + ((unsigned)(j >> (t + 1)) << sh), v[j]);
    }
}

/* The tasks t, t + B, ... < hi of class O of a list (first entry or item e0, e1 prefetched by
 * sgst_prep2), the next entry loaded one task ahead, as sgst_class2 of k_sparse_pipe. */
template <typename T, int M, int O>
static __device__ __forceinline__ void sgcl_class(const sgcl_grid &u, const sgst_dev &g, int t, int hi, unsigned e0,
                                                  unsigned e1, int B, int inverse)
{
    constexpr int MU = O == 0 ? M : M + 1 - O, TOP = O != 0;
    sgst_geo geo;
    if (O == M && g.compact) { /* single items, 4 bytes each */
        unsigned a = e0, na = 0;
        for (; t < hi; t += B) {
            if (t + B < hi) na = __ldg(g.item + t + B);
            sgst_geo_item4(a, &geo);
            sgcl_task<T, 1>(u, geo, inverse);
            a = na;
        }
        return;
    }
    if (O == M) { /* single items, 8 bytes each */
        unsigned a = e0, b = e1, na = 0, nb = 0;
        for (; t < hi; t += B) {
            if (t + B < hi) sgst_item_load(g.item, t + B, &na, &nb);
            sgst_geo_item(a, b, &geo);
            sgcl_task<T, 1>(u, geo, inverse);
            a = na;
            b = nb;
        }
        return;
    }
    unsigned ent = e0;
    for (; t < hi; t += B) {
        unsigned nxt = t + B < hi ? __ldg(g.task + t + B) : 0u;
        sgst_rec r = sgst_rec_load(g.rec, ent);
        sgst_task_geo(&r, g.full, ent, MU, TOP, &geo);
        sgcl_task<T, MU>(u, geo, inverse);
        ent = nxt;
    }
}

/* One list: its classes in order, each a compile-time mu. */
template <typename T, int M>
static __device__ __forceinline__ void sgcl_list(const sgst_next &n, const sgcl_grid &u, const sgst_dev &g, int B,
                                                 int inverse)
{
    if (n.t[0] < n.hi[0]) sgcl_class<T, M, 0>(u, g, n.t[0], n.hi[0], n.e0[0], n.e1, B, inverse);
    if (n.t[1] < n.hi[1]) sgcl_class<T, M, 1>(u, g, n.t[1], n.hi[1], n.e0[1], n.e1, B, inverse);
    if (n.t[2] < n.hi[2]) sgcl_class<T, M, 2>(u, g, n.t[2], n.hi[2], n.e0[2], n.e1, B, inverse);
    if (n.t[3] < n.hi[3]) sgcl_class<T, M, 3>(u, g, n.t[3], n.hi[3], n.e0[3], n.e1, B, inverse);
    if (M >= 4 && n.t[4] < n.hi[4]) sgcl_class<T, M, (M >= 4 ? 4 : 0)>(u, g, n.t[4], n.hi[4], n.e0[4], n.e1, B, inverse);
}

/* k_sparse_clu<T, M>: clusters of SGCL_CTAS blocks of 2^bb threads, M = 3 or 4 pole levels per
 * task, single poles, one bulk-copy buffer per block; H: the half boundary (sgcl_split_of).
 * smem per block: 16 bytes of mbarrier, the class bounds of every list in the order they run
 * (sgsp_cls_bytes), one buffer for a half. */
template <typename T, int M>
__global__ void __launch_bounds__(SGCL_MAXT) k_sparse_clu(const T *in, T *out, long long ngrids, sgst_dev g, int inverse,
                                                          int bb, int H)
{
    extern __shared__ __align__(16) unsigned char sgst_smem[];
    unsigned rank = 0;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    const int N = g.npts, tid = threadIdx.x, nc = 2 * g.nlist * (M + 2);
    const int ctid = (int)rank * (int)blockDim.x + tid, B = SGCL_CTAS << bb; /* thread of the cluster, threads per grid */
    const long long stride = gridDim.x / SGCL_CTAS;
    int *scls = reinterpret_cast<int *>(sgst_smem + 16);
    T *buf = reinterpret_cast<T *>(sgst_smem + 16 + sgsp_cls_bytes(g.nlist, M));
    const unsigned bar = sgsp_sh(sgst_smem), buf0 = sgcl_mapa(sgsp_sh(buf), 0), buf1 = sgcl_mapa(sgsp_sh(buf), 1);
    for (int i = tid; i < nc; i += blockDim.x) scls[i] = __ldg(g.scls + i);
    if (tid == 0) sgsp_bar_init(bar);
    __syncthreads();
    const int *cls0 = scls + inverse * g.nlist * (M + 2);
    sgst_next nl;
    if (g.nlist > 0) sgst_prep2(&nl, M, cls0, g.task, g.item, ctid, bb + 1, g.compact);
    T hv = (T)0;
    long long gr = blockIdx.x / SGCL_CTAS;
    if (gr < ngrids) hv = sgcl_prefetch(sgcl_half(in, out, N, H, gr, (int)rank), buf, bar, hv);
    for (int it = 0; gr < ngrids; gr += stride, it++) {
        sgsp_group<T> q = sgcl_half(in, out, N, H, gr, (int)rank);
        T *sh = buf + q.skew;
        sgsp_wait(bar, it & 1);
        int e = sgsp_scalar(q, tid);
        if (e >= 0) sh[e] = hv;
        const T *src = in + gr * N;
        sgcl_grid u;
        u.H = H;
        u.c0 = buf0 + (unsigned)sizeof(T) * (unsigned)sgst_skew(src);
        u.c1 = buf1 + (unsigned)sizeof(T) * (unsigned)sgst_skew(src + H) - (unsigned)sizeof(T) * (unsigned)H;
        sgcl_sync(); /* both halves are in */
        for (int i = 0; i < g.nlist; i++) {
            sgst_next cur = nl;
            sgcl_list<T, M>(cur, u, g, B, inverse);
            sgst_prep2(&nl, M, cls0 + (i + 1 < g.nlist ? i + 1 : 0) * (M + 2), g.task, g.item, ctid, bb + 1, g.compact);
            if (i == g.nlist - 1) sgcl_fence_async(); /* before the bulk stores read either half */
            sgcl_sync();
        }
        if (tid == 0 && q.nv) sgsp_store(q.dst + q.head, sgsp_sh(sh + q.head), 16u * q.nv);
        if (e >= 0) __stcs(q.dst + e, sh[e]);
        long long nx = gr + stride;
        if (nx < ngrids) { /* the next half into the same buffer, once the store has read it */
            __syncwarp(); /* warp 0's scalars have left sh */
            hv = sgcl_prefetch(sgcl_half(in, out, N, H, nx, (int)rank), buf, bar, hv);
        }
    }
    if (tid == 0) sgsp_store_wait();
    sgcl_sync(); /* neither block leaves while the other may still read its half */
}

/* The kernel of (T, M); NULL when not instantiated. */
template <typename T>
static inline void (*sgcl_kernel(int M))(const T *, T *, long long, sgst_dev, int, int, int)
{
    return M == 3 ? k_sparse_clu<T, 3> : M == 4 ? k_sparse_clu<T, 4> : NULL;
}

/* The launch of `blocks` blocks (a multiple of SGCL_CTAS) in clusters of SGCL_CTAS; *at holds the
 * cluster attribute the configuration points to. */
static inline cudaLaunchConfig_t sgcl_config(cudaLaunchAttribute *at, int blocks, int threads, size_t smem, cudaStream_t st)
{
    cudaLaunchConfig_t cfg = {};
    *at = cudaLaunchAttribute{};
    at->id = cudaLaunchAttributeClusterDimension;
    at->val.clusterDim.x = SGCL_CTAS;
    at->val.clusterDim.y = 1;
    at->val.clusterDim.z = 1;
    cfg.gridDim = dim3((unsigned)blocks, 1, 1);
    cfg.blockDim = dim3((unsigned)threads, 1, 1);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = st;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    return cfg;
}

/* Elements of one block's buffer: the larger half and its skew, rounded up to 16 bytes. */
static inline int sgcl_bufelems(long long N, int H, size_t elem)
{
    int W = (int)(16 / elem), n = (int)(N - H > H ? N - H : H) + W;
    return (n + W - 1) / W * W;
}

/* Plans k_sparse_clu for element size elem, M = 3 or 4, `threads` per block (a power of two, 32 to
 * SGCL_MAXT; the grid gets twice that), the tasks in the bank-aware order (sgst_pack).  The
 * returned plan's blocks is twice the clusters resident at once (cudaOccupancyMaxActiveClusters),
 * per_sm its blocks per SM.  Returns 0, -1 (refused: reason in err) or -2 (no cluster fits). */
static inline int sgcl_gpu_setup(sgst_gpu *s, const sgs_grid *h, size_t elem, int M, int threads, int device, int max_blocks,
                                 char *err, size_t errsz)
{
    memset(s, 0, sizeof *s);
    if (elem != sizeof(float) && elem != sizeof(double)) { snprintf(err, errsz, "element size %zu", elem); return -1; }
    const void *fn = elem == sizeof(float) ? (const void *)sgcl_kernel<float>(M) : (const void *)sgcl_kernel<double>(M);
    if (!fn) { snprintf(err, errsz, "k_sparse_clu: M = %d not instantiated", M); return -1; }
    if (threads < 32 || threads > SGCL_MAXT || (threads & (threads - 1))) {
        snprintf(err, errsz, "%d threads per block (a power of two, 32 to %d)", threads, SGCL_MAXT);
        return -1;
    }
    cudaFuncAttributes fa;
    int major = 0, sms = 0;
    CHECK_CUDA(cudaFuncGetAttributes(&fa, fn));
    CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (major < 9 || fa.binaryVersion < 90) {
        snprintf(err, errsz, "clusters and bulk copies need sm_90 (device %d.x, binary sm_%d)", major, fa.binaryVersion);
        return -1;
    }
    s->M = M;
    s->G = 1;
    s->pipe = 1; /* the plan of k_sparse_pipe: bank-aware order, class bounds staged in shared memory */
    s->nbuf = 1;
    s->elem = elem;
    s->threads = threads;
    for (s->bb = 0; (1 << s->bb) < threads; s->bb++) {}
    s->split = sgcl_split_of(h);
    s->bufelems = sgcl_bufelems(h->npts, s->split, elem);
    s->smem = 16 + (size_t)s->bufelems * elem;
    int rc = sgst_gpu_plan(s, h, fn, device, 0, err, errsz);
    if (rc) return rc;
    cudaLaunchAttribute at;
    cudaLaunchConfig_t cfg = sgcl_config(&at, SGCL_CTAS * sms, threads, s->smem, 0);
    int clusters = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveClusters(&clusters, fn, &cfg));
    if (clusters < 1) {
        snprintf(err, errsz, "no cluster of %d blocks of %d threads and %zu bytes fits", SGCL_CTAS, threads, s->smem);
        sgst_gpu_free(s);
        return -2;
    }
    s->blocks = SGCL_CTAS * clusters;
    if (max_blocks > 0 && s->blocks > max_blocks) s->blocks = max_blocks < SGCL_CTAS ? SGCL_CTAS : max_blocks / SGCL_CTAS * SGCL_CTAS;
    s->per_sm = (SGCL_CTAS * clusters + sms - 1) / sms;
    return 0;
}

/* ngrids grids in -> out (out may equal in), hierarchize or (inverse) dehierarchize: one cluster
 * launch on stream st.  in and out at the same offset modulo 16 bytes. */
template <typename T>
static inline void sgcl_gpu_run(const sgst_gpu *s, const T *in, T *out, long long ngrids, int inverse, cudaStream_t st)
{
    if (((uintptr_t)in & 15u) != ((uintptr_t)out & 15u)) DIE("sgcl_gpu_run: in and out differ modulo 16 bytes");
    long long blocks = SGCL_CTAS * ngrids < s->blocks ? SGCL_CTAS * ngrids : s->blocks;
    if (blocks < SGCL_CTAS) return;
    cudaLaunchAttribute at;
    cudaLaunchConfig_t cfg = sgcl_config(&at, (int)blocks, s->threads, s->smem, st);
    CHECK_CUDA(cudaLaunchKernelEx(&cfg, sgcl_kernel<T>(s->M), in, out, ngrids, s->dev, inverse, s->bb, s->split));
    CHECK_LAUNCH();
}

#endif
