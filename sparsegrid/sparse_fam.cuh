/* sparsegrid/sparse_fam.cuh -- k_sparse_fam: batched sparse-grid (de)hierarchization, the lanes
 * of a warp over the poles of a family (thesis ch. 6, Algorithm 1 along poles; the plan, the
 * model and the index functions: sparse_fam.h).
 *
 * A block takes one grid at a time (a persistent grid of resident blocks walks the batch): the
 * copy engine loads it into shared memory (cp.async.bulk, k_sparse_pipe's copies, sparse_stream.cuh),
 * the block runs the d passes (a barrier after each), the copy engine stores it.  In pass k warp
 * w runs its own list of the pass's tasks (the plan balances them over the W warps); each lane of
 * a task runs its R poles one after another (two at a time up to SGF_PAIRMU levels), each held in
 * registers.  The next task and its family records are loaded while this one is computed, the
 * next pass's first ones (the warp's bounds, then its first task and records: dependent loads)
 * before the barrier, so inside a pass a lane waits only on its poles' shared-memory words.  NBUF = 1: one buffer (the next grid's load waits for this one's
 * store; the other blocks of the SM overlap it); NBUF = 2: the next grid's load runs while this one
 * is computed.  MM: the longest pole of the plan (3, 4, 5: the registers of a lane grow with it). */
#ifndef SPARSEGRID_SPARSE_FAM_CUH
#define SPARSEGRID_SPARSE_FAM_CUH

#include "sparse_stream.cuh"
#include "sparse_fam.h"

/* The plan on the device (passed by value). */
typedef struct {
    int d, npts, W;  /* W: the warps per block the plan was balanced for (the launch's blockDim.x / 32) */
    const int *wb;   /* d (W + 1) warp bounds (a device array: a kernel parameter indexed by k would go to local memory) */
    const sgf_task *task;
    const sgf_rec *rec;
} sgf_dev;

static __device__ __forceinline__ void sgf_pole_t(float *u, const unsigned *o, unsigned pE, unsigned dE, unsigned sE, unsigned hm,
                                                  int MU, int NP, int inv)
{
    sgf_pole_f(u, o, pE, dE, sE, hm, MU, NP, inv);
}
static __device__ __forceinline__ void sgf_pole_t(double *u, const unsigned *o, unsigned pE, unsigned dE, unsigned sE, unsigned hm,
                                                  int MU, int NP, int inv)
{
    sgf_pole_d(u, o, pE, dE, sE, hm, MU, NP, inv);
}

static __device__ __forceinline__ sgf_task sgf_task_load(const sgf_task *t)
{
    uint4 x = __ldg(reinterpret_cast<const uint4 *>(t));
    sgf_task r = {x.x, x.y, x.z, x.w};
    return r;
}
/* The words of a record a kernel of poles up to MM levels reads: w[0..5] (o[0..3], sE, hmask),
 * and o[4], o[5] for MM >= 4. */
template <int MM>
static __device__ __forceinline__ sgf_rec sgf_rec_load(const sgf_rec *r)
{
    const uint4 *q = reinterpret_cast<const uint4 *>(r);
    uint4 a = __ldg(q);
    uint2 b = __ldg(reinterpret_cast<const uint2 *>(q + 1));
    uint2 c = MM >= 4 ? __ldg(reinterpret_cast<const uint2 *>(q + 1) + 1) : make_uint2(0, 0);
    sgf_rec v = {{a.x, a.y, a.z, a.w, b.x, b.y, c.x, c.y}};
    return v;
}

/* The R poles pE, pE + stE, ... of level MU of one lane, two at a time (poles of up to SGF_PAIRMU
 * levels: registers); u: the grid in shared memory. */
template <typename T, int MU, int INV>
static __device__ __forceinline__ void sgf_poles_dir(T *u, const unsigned *o, const sgf_rec &rc, unsigned pE, unsigned stE, int R)
{
    int i = 0;
    if (MU <= SGF_PAIRMU) {
#pragma unroll 1
        for (; i + 1 < R; i += 2, pE += 2 * stE) sgf_pole_t(u, o, pE, stE, rc.w[4], rc.w[5], MU, 2, INV);
    }
#pragma unroll 1
    for (; i < R; i++, pE += stE) sgf_pole_t(u, o, pE, stE, rc.w[4], rc.w[5], MU, 1, INV);
}
template <typename T, int MU>
static __device__ __forceinline__ void sgf_poles(T *u, const sgf_rec &rc, unsigned pE, unsigned stE, int R, int inverse)
{
    unsigned o[MU + 1];
#pragma unroll
    for (int lev = 0; lev <= MU; lev++) o[lev] = sgf_rec_o(&rc, lev);
    if (inverse) /* the direction outside the loop: no select per update */
        sgf_poles_dir<T, MU, 1>(u, o, rc, pE, stE, R);
    else
        sgf_poles_dir<T, MU, 0>(u, o, rc, pE, stE, R);
}

/* A warp's place in its task list: the current task tk (records rc of its lanes), the next task tn
 * and the end of the list.  sgf_open loads the start of a pass before the barrier that ends the
 * one before it; sgf_pass then keeps the next task and its records a task ahead. */
typedef struct {
    int t, last;
    sgf_task tk, tn;
    sgf_rec rc;
} sgf_cursor;

template <int MM>
static __device__ __forceinline__ void sgf_open(sgf_cursor &c, const sgf_dev &g, int k)
{
    const int lane = threadIdx.x & 31;
    const int *wb = g.wb + k * (g.W + 1) + (threadIdx.x >> 5);
    c.t = __ldg(wb);
    c.last = __ldg(wb + 1);
    if (c.t >= c.last) return;
    c.tk = sgf_task_load(g.task + c.t);
    c.tn = c.t + 1 < c.last ? sgf_task_load(g.task + c.t + 1) : c.tk;
    if (lane < sgf_task_nl(c.tk)) c.rc = sgf_rec_load<MM>(g.rec + sgf_lane_rec(c.tk, lane));
}

/* This warp's tasks of a pass over the grid u in shared memory (the plan's balanced list). */
template <typename T, int MM>
static __device__ __forceinline__ void sgf_pass(T *u, const sgf_dev &g, sgf_cursor &c, int inverse)
{
    const int lane = threadIdx.x & 31;
    for (; c.t < c.last; c.t++) {
        sgf_task tnn = c.tn;
        sgf_rec rn = c.rc;
        if (c.t + 1 < c.last && lane < sgf_task_nl(c.tn)) rn = sgf_rec_load<MM>(g.rec + sgf_lane_rec(c.tn, lane));
        if (c.t + 2 < c.last) tnn = sgf_task_load(g.task + c.t + 2);
        const sgf_task tk = c.tk;
        if (lane < sgf_task_nl(tk)) {
            const unsigned pE = (unsigned)(sgf_lane_pole(tk, lane) * (int)sizeof(T)), stE = (unsigned)sizeof(T) << sgf_task_pbc(tk);
            const int R = sgf_task_r(tk);
            switch (sgf_task_m(tk)) { /* warp-uniform: a task's poles share their level */
            case 1: sgf_poles<T, 1>(u, c.rc, pE, stE, R, inverse); break;
            case 2: sgf_poles<T, 2>(u, c.rc, pE, stE, R, inverse); break;
            case 3: sgf_poles<T, 3>(u, c.rc, pE, stE, R, inverse); break;
            case 4: if (MM >= 4) sgf_poles<T, MM >= 4 ? 4 : 1>(u, c.rc, pE, stE, R, inverse); break;
            case 5: if (MM >= 5) sgf_poles<T, MM >= 5 ? 5 : 1>(u, c.rc, pE, stE, R, inverse); break;
            }
        }
        c.tk = c.tn;
        c.tn = tnn;
        c.rc = rn;
    }
}

/* Threads per block at most: 1024 for MM = 3 (64 registers), 512 for longer poles. */
#define SGF_MAXT(MM) ((MM) <= 3 ? 1024 : 512)

/* ngrids grids in -> out (out may equal in: a grid is read completely before any of it is
 * written).  smem: 16 bytes of mbarriers, then NBUF buffers of bufelems. */
template <typename T, int MM, int NBUF>
__global__ void __launch_bounds__(SGF_MAXT(MM), 1) k_sparse_fam(const T *in, T *out, long long ngrids, sgf_dev g, int inverse,
                                                                  int bufelems)
{
    extern __shared__ __align__(16) unsigned char sgf_smem[];
    const int N = g.npts, tid = threadIdx.x;
    const long long stride = gridDim.x;
    T *buf0 = reinterpret_cast<T *>(sgf_smem + 16);
    const unsigned bar0 = sgsp_sh(sgf_smem);
    if (tid == 0) {
        sgsp_bar_init(bar0);
        sgsp_bar_init(bar0 + 8);
    }
    __syncthreads();
    T hv = (T)0; /* the scalar this thread loads for the grid whose bulk load is in flight */
    long long gr = blockIdx.x;
    sgf_cursor cur; /* the start of the next pass, loaded before the barrier that ends this one */
    cur.rc = sgf_rec{{0, 0, 0, 0, 0, 0, 0, 0}};
    sgf_open<MM>(cur, g, 0);
    if (gr < ngrids) hv = sgsp_prefetch(in, out, ngrids, 1, N, gr, buf0, bar0, hv);
    for (int it = 0; gr < ngrids; gr += stride, it++) {
        const int b = NBUF == 2 ? (it & 1) : 0;
        const unsigned bar = bar0 + 8 * b, parity = NBUF == 2 ? (it >> 1) & 1 : it & 1;
        sgsp_group<T> q = sgsp_group_of(in, out, ngrids, 1, N, gr);
        T *sh = buf0 + (size_t)b * bufelems + q.skew;
        sgsp_wait(bar, parity);
        int e = sgsp_scalar(q, tid);
        if (e >= 0) sh[e] = hv;
        __syncthreads();
        const long long nx = gr + stride; /* the next grid of this block */
        for (int k = 0; k < g.d; k++) {
            sgf_pass<T, MM>(sh, g, cur, inverse);
            sgf_open<MM>(cur, g, k + 1 < g.d ? k + 1 : 0); /* the next pass, or the first of the next grid */
            if (k == g.d - 1) sgsp_fence_async(); /* before the bulk store reads sh */
            __syncthreads();
            if (NBUF == 2 && k == 0 && nx < ngrids) /* the next grid into the other buffer */
                hv = sgsp_prefetch(in, out, ngrids, 1, N, nx, buf0 + (size_t)(b ^ 1) * bufelems, bar0 + 8 * (b ^ 1), hv);
        }
        if (tid == 0 && q.nv) sgsp_store(q.dst + q.head, sgsp_sh(sh + q.head), 16u * q.nv);
        if (e >= 0) __stcs(q.dst + e, sh[e]);
        if (NBUF == 1 && nx < ngrids) { /* the next grid into the same buffer, once it is read */
            __syncwarp(); /* warp 0's scalars have left sh */
            hv = sgsp_prefetch(in, out, ngrids, 1, N, nx, buf0, bar0, hv);
        }
    }
    if (tid == 0) sgsp_store_wait(); /* the last stores are done before the block leaves */
}

/* A plan on the device and its launch. */
typedef struct {
    sgf_dev dev;
    int MM, nbuf;     /* the kernel's longest pole, buffers */
    int rmax, lmin;   /* poles of level 1 a lane takes from a task, lanes at least per family (sgf_plan_build) */
    int pack;         /* small families grouped into tasks bank-aware (sgf_pack_class) */
    int threads, bufelems;
    size_t elem, smem; /* dynamic shared memory: 16 bytes of mbarriers and nbuf buffers of N elem + 16 */
    int per_sm, blocks, regs;
    int ntask;
    double items_pt;  /* updates per point */
    double lanes_used; /* lane slots holding poles / lane slots of the tasks */
    double balance;   /* the model's cost of a grid over W warps against the busiest warp's (1: even) */
} sgf_gpu;

template <typename T>
static inline void (*sgf_kernel(int MM, int nbuf))(const T *, T *, long long, sgf_dev, int, int)
{
#define SGF_K(M)                                                                                        \
    if (MM == M) return nbuf == 1 ? k_sparse_fam<T, M, 1> : nbuf == 2 ? k_sparse_fam<T, M, 2> : NULL;
    SGF_K(3) SGF_K(4) SGF_K(5)
#undef SGF_K
    return NULL;
}

static inline void sgf_gpu_free(sgf_gpu *s)
{
    CHECK_CUDA(cudaFree((void *)s->dev.wb)); /* NULL: a no-op */
    CHECK_CUDA(cudaFree((void *)s->dev.task));
    CHECK_CUDA(cudaFree((void *)s->dev.rec));
    memset(s, 0, sizeof *s);
}

/* Plans k_sparse_fam for grid h, element size elem (4: float, 8: double), `threads` per block (a
 * multiple of 32 up to SGF_MAXT), nbuf = 1 or 2 buffers (sm_90), rmax poles of level 1 a lane
 * takes from a task while lmin lanes share a family, pack: bank-aware grouping of small families
 * (sgf_plan_build); max_blocks > 0 caps the grid.
 * Returns 0, -1 (refused, nothing allocated, the reason in err: poles longer than 5 levels, more
 * than 65536 points, the buffers do not fit a block's shared memory) or -2 (no block fits an SM). */
static inline int sgf_gpu_setup(sgf_gpu *s, const sgs_grid *h, size_t elem, int threads, int nbuf, int rmax, int lmin,
                                int pack, int device, int max_blocks, char *err, size_t errsz)
{
    memset(s, 0, sizeof *s);
    if (elem != sizeof(float) && elem != sizeof(double)) { snprintf(err, errsz, "element size %zu", elem); return -1; }
    if (nbuf != 1 && nbuf != 2) { snprintf(err, errsz, "%d buffers (1 or 2)", nbuf); return -1; }
    if (threads < 32 || threads > 1024 || threads % 32) { snprintf(err, errsz, "%d threads per block (a multiple of 32 up to 1024)", threads); return -1; }
    sgf_plan p;
    if (sgf_plan_build(&p, h, rmax, lmin, (int)elem, threads / 32, pack, err, errsz)) return -1;
    s->rmax = rmax;
    s->lmin = lmin;
    s->pack = pack;
    int mmax = 1;
    for (int m = 1; m <= SGF_MMAX; m++)
        if (p.poles_of[m]) mmax = m;
    s->MM = mmax < 3 ? 3 : mmax;
    const void *fn = elem == sizeof(float) ? (const void *)sgf_kernel<float>(s->MM, nbuf) : (const void *)sgf_kernel<double>(s->MM, nbuf);
    if (threads < 32 || threads > SGF_MAXT(s->MM) || threads % 32) {
        snprintf(err, errsz, "%d threads per block (a multiple of 32 up to %d)", threads, SGF_MAXT(s->MM));
        sgf_plan_free(&p);
        return -1;
    }
    cudaFuncAttributes fa;
    int major = 0, optin = 0, sms = 0;
    CHECK_CUDA(cudaFuncGetAttributes(&fa, fn));
    CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (major < 9 || fa.binaryVersion < 90) {
        snprintf(err, errsz, "bulk copies need sm_90 (device %d.x, binary sm_%d)", major, fa.binaryVersion);
        sgf_plan_free(&p);
        return -1;
    }
    size_t buf = (elem * (size_t)h->npts + 16 + 15) / 16 * 16;
    s->smem = 16 + (size_t)nbuf * buf;
    if (s->smem > (size_t)optin) {
        snprintf(err, errsz, "%d buffers of %lld points do not fit %d bytes", nbuf, h->npts, optin);
        sgf_plan_free(&p);
        return -1;
    }
    if ((size_t)fa.maxDynamicSharedSizeBytes < s->smem) /* raise only: an earlier plan may still be launched */
        CHECK_CUDA(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s->smem));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&s->per_sm, fn, threads, s->smem));
    if (s->per_sm < 1) {
        snprintf(err, errsz, "no block of %d threads x %d registers and %zu bytes fits an SM", threads, fa.numRegs, s->smem);
        sgf_plan_free(&p);
        return -2;
    }
    s->nbuf = nbuf;
    s->threads = threads;
    s->elem = elem;
    s->bufelems = (int)(buf / elem);
    s->regs = fa.numRegs;
    s->blocks = s->per_sm * sms;
    if (max_blocks > 0 && s->blocks > max_blocks) s->blocks = max_blocks;
    s->ntask = p.ntask;
    s->items_pt = (double)p.items / (double)h->npts;
    s->lanes_used = p.lanes ? (double)p.lane_poles / (double)p.lanes : 0;
    s->balance = p.cost_max > 0 ? p.cost / (p.cost_max * p.W) : 1;
    s->dev.d = p.d;
    s->dev.npts = (int)p.npts;
    s->dev.W = p.W;
    s->dev.wb = sgst_upload(p.wb, (long long)p.d * (p.W + 1));
    s->dev.task = sgst_upload(p.task, p.ntask);
    s->dev.rec = sgst_upload(p.rec, p.nrec);
    sgf_plan_free(&p);
    return 0;
}

/* ngrids grids in -> out (out may equal in), hierarchize or (inverse) dehierarchize: enqueues one
 * launch on stream st.  in and out must lie at the same offset modulo 16 bytes. */
template <typename T>
static inline void sgf_gpu_run(const sgf_gpu *s, const T *in, T *out, long long ngrids, int inverse, cudaStream_t st)
{
    if (((uintptr_t)in & 15u) != ((uintptr_t)out & 15u)) DIE("sgf_gpu_run: in and out differ modulo 16 bytes");
    long long blocks = ngrids < s->blocks ? ngrids : s->blocks;
    if (blocks < 1) return;
    sgf_kernel<T>(s->MM, s->nbuf)<<<(int)blocks, s->threads, s->smem, st>>>(in, out, ngrids, s->dev, inverse, s->bufelems);
    CHECK_LAUNCH();
}

#endif
