/* sparsegrid/sparse_kernels.cuh -- batched hierarchization of regular sparse grids on the GPU
 * (the thesis's future work; the grid and the work lists: sparse.h).
 *
 * k_sparse: a persistent grid of blocks, each walks over whole sparse grids (grid gi,
 * gi + gridDim.x, ...).  A grid is loaded into shared memory (STAGED; coalesced, every value
 * read once), transformed there dimension by dimension and level by level -- the points of
 * list (k, L) are independent, one __syncthreads() between lists -- and stored (written
 * once).  A grid too large for shared memory is transformed in place in global memory
 * instead (STAGED = false: same lists, one block per grid, slow but correct).
 * Work item t of list (k, L) finds its segment with sgs_find() (the chunk table and a few
 * steps), then its neighbours with sgs_item() -- the same HD functions the CPU uses, so the
 * GPU result equals the CPU's bitwise ("computed", about 40-60 integer instructions per item).
 * The "table" variant (grids of at most 65536 points) reads the three offsets of each item
 * instead, precomputed on the host by sgs_item() and packed in 16 bits each (6 bytes per item,
 * shared by all grids, so it stays in L1/L2): fewer instructions, more cache traffic. */
#ifndef SPARSEGRID_SPARSE_KERNELS_CUH
#define SPARSEGRID_SPARSE_KERNELS_CUH

#include "../common/check.h"
#include "sparse.h"
#include "sparse_multi.h" /* sgs_table_fill */

static __device__ __forceinline__ float sgs_op(float x, float l, float r, int inverse)
{
    return inverse ? sg_unsurplus(x, l, r) : sg_surplus(x, l, r);
}
static __device__ __forceinline__ double sgs_op(double x, double l, double r, int inverse)
{
    return inverse ? sg_unsurplus_d(x, l, r) : sg_surplus_d(x, l, r);
}

/* The device copy of a grid's work lists. */
typedef struct {
    int d, n, npts, nseg;
    int *list_first, *list_count; /* d (n+1) + 1 and d (n+1) */
    int *seg_start;               /* seg[i].start */
    int *chunk, *list_chunk;      /* the chunk table (sparse.h, sgs_find) */
    sgs_seg *seg;
    int *par;
    unsigned *tab_xl;             /* table variant: x | xl << 16 per work item, lists one after another */
    unsigned short *tab_r;        /* table variant: xr per work item */
    int *list_base;               /* table variant: first work item of each list */
    int table;                    /* 1: the table variant */
    const int *perm;              /* full grids in subspace order (sgs_full_perm): NULL, or the plain-layout
                                     offset of each point -- hierarchization then reads the plain layout
                                     and writes subspace order, dehierarchization the reverse (staged only) */
    int threads, blocks, staged;  /* launch: threads per block, resident blocks, shared or global */
    size_t smem;                  /* dynamic shared memory bytes */
} sgs_dev;

/* One list (k, L) of the grid in u (shared or global memory), all threads of the block. */
template <typename T, bool TABLE>
static __device__ void sgs_dev_list(T *u, const sgs_dev &g, int kl, int L, int inverse)
{
    if (TABLE) {
        int base = __ldg(g.list_base + kl), count = __ldg(g.list_count + kl);
        for (int t = threadIdx.x; t < count; t += blockDim.x) {
            unsigned p = __ldg(g.tab_xl + base + t);
            int x = p & 0xFFFF, xl = p >> 16, xr = __ldg(g.tab_r + base + t);
            u[x] = sgs_op(u[x], u[xl], u[xr], inverse);
        }
        return;
    }
    int last = __ldg(g.list_first + kl + 1) - 1, count = __ldg(g.list_count + kl), cb = __ldg(g.list_chunk + kl);
    for (int t = threadIdx.x; t < count; t += blockDim.x) {
        int lo = sgs_find(g.seg_start, g.chunk, cb, last, t);
        sgs_seg q = g.seg[lo];
        int x, xl, xr;
        sgs_item(&q, g.par, g.n, L, t, &x, &xl, &xr);
        u[x] = sgs_op(u[x], u[xl], u[xr], inverse);
    }
}

template <typename T, bool STAGED, bool TABLE>
__global__ void k_sparse(const T *__restrict__ in, T *out, long long ngrids, sgs_dev g, int inverse)
{
    extern __shared__ __align__(16) unsigned char sgs_smem[];
    T *sh = reinterpret_cast<T *>(sgs_smem);
    for (long long gi = blockIdx.x; gi < ngrids; gi += gridDim.x) {
        const T *src = in + gi * g.npts;
        T *dst = out + gi * g.npts;
        T *u = STAGED ? sh : dst;
        if (STAGED && g.perm && !inverse) /* straight from the plain full-grid layout */
            for (int i = threadIdx.x; i < g.npts; i += blockDim.x) u[i] = src[__ldg(g.perm + i)];
        else if (STAGED || src != dst)
            for (int i = threadIdx.x; i < g.npts; i += blockDim.x) u[i] = src[i];
        __syncthreads();
        for (int k = 0; k < g.d; k++)
            for (int s = 1; s <= g.n; s++) { /* hierarchize finest level first, dehierarchize coarsest first */
                int L = inverse ? s : g.n + 1 - s;
                sgs_dev_list<T, TABLE>(u, g, k * (g.n + 1) + L, L, inverse);
                __syncthreads();
            }
        if (STAGED && g.perm && inverse) { /* back into the plain full-grid layout */
            for (int i = threadIdx.x; i < g.npts; i += blockDim.x) dst[__ldg(g.perm + i)] = sh[i];
            __syncthreads();
        } else if (STAGED) {
            for (int i = threadIdx.x; i < g.npts; i += blockDim.x) dst[i] = sh[i];
            __syncthreads(); /* the next grid overwrites sh */
        }
    }
}

/* The occupancy of k_sparse<T, STAGED, TABLE> for this plan (blocks per SM); raises (never
 * lowers: an earlier plan may still be launched) the kernel's shared memory limit first. */
template <typename T, bool STAGED, bool TABLE>
static inline int sgs_dev_occupancy(const sgs_dev *g)
{
    int per_sm = 0;
    cudaFuncAttributes fa;
    CHECK_CUDA(cudaFuncGetAttributes(&fa, k_sparse<T, STAGED, TABLE>));
    if (STAGED && (size_t)fa.maxDynamicSharedSizeBytes < g->smem)
        CHECK_CUDA(cudaFuncSetAttribute(k_sparse<T, STAGED, TABLE>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)g->smem));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_sparse<T, STAGED, TABLE>, g->threads, g->smem));
    return per_sm;
}
template <typename T>
static inline int sgs_dev_occupancy_of(const sgs_dev *g)
{
    if (g->staged) return g->table ? sgs_dev_occupancy<T, true, true>(g) : sgs_dev_occupancy<T, true, false>(g);
    return g->table ? sgs_dev_occupancy<T, false, true>(g) : sgs_dev_occupancy<T, false, false>(g);
}

/* Copies the work lists of h to the device and plans the launch for element size elem with
 * `threads` threads per block (0: 256); table = 1 asks for the table variant (refused, -1,
 * for grids of more than 65536 points); max_blocks > 0 caps the grid (sanitizer runs).
 * Returns 0, or -1. */
static inline int sgs_dev_setup(sgs_dev *g, const sgs_grid *h, size_t elem, int threads, int device, int max_blocks,
                                int table)
{
    memset(g, 0, sizeof *g);
    if (table && h->npts > 65536) return -1;
    g->d = h->d;
    g->n = h->n;
    g->npts = (int)h->npts;
    g->nseg = h->nseg;
    int lists = h->d * (h->n + 1);
    CHECK_CUDA(cudaMalloc(&g->list_first, sizeof(int) * (lists + 1)));
    CHECK_CUDA(cudaMalloc(&g->list_count, sizeof(int) * lists));
    CHECK_CUDA(cudaMalloc(&g->seg_start, sizeof(int) * (h->nseg + 1)));
    CHECK_CUDA(cudaMalloc(&g->seg, sizeof(sgs_seg) * (h->nseg + 1)));
    CHECK_CUDA(cudaMalloc(&g->par, sizeof(int) * (h->npar + 1)));
    CHECK_CUDA(cudaMemcpy(g->list_first, h->list_first, sizeof(int) * (lists + 1), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(g->list_count, h->list_count, sizeof(int) * lists, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(g->seg_start, h->seg_start, sizeof(int) * (h->nseg + 1), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMalloc(&g->chunk, sizeof(int) * (h->list_chunk[lists] + 1)));
    CHECK_CUDA(cudaMalloc(&g->list_chunk, sizeof(int) * (lists + 1)));
    CHECK_CUDA(cudaMemcpy(g->chunk, h->chunk, sizeof(int) * h->list_chunk[lists], cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(g->list_chunk, h->list_chunk, sizeof(int) * (lists + 1), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(g->seg, h->seg, sizeof(sgs_seg) * h->nseg, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(g->par, h->par, sizeof(int) * h->npar, cudaMemcpyHostToDevice));

    if (table) { /* the offsets of every work item, by the CPU's sgs_item() (sgs_table_fill, sparse_multi.h) */
        long long total = sgs_table_size(h);
        unsigned *xl = (unsigned *)malloc(sizeof(unsigned) * (total + 1));
        unsigned short *xr = (unsigned short *)malloc(sizeof(unsigned short) * (total + 1));
        int *base = (int *)malloc(sizeof(int) * (lists + 1));
        if (!xl || !xr || !base) DIE("out of host memory");
        if (sgs_table_fill(h, xl, xr, base) != total) DIE("sgs_table_fill: %lld entries expected", total);
        CHECK_CUDA(cudaMalloc(&g->tab_xl, sizeof(unsigned) * (total + 1)));
        CHECK_CUDA(cudaMalloc(&g->tab_r, sizeof(unsigned short) * (total + 1)));
        CHECK_CUDA(cudaMalloc(&g->list_base, sizeof(int) * (lists + 1)));
        CHECK_CUDA(cudaMemcpy(g->tab_xl, xl, sizeof(unsigned) * total, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(g->tab_r, xr, sizeof(unsigned short) * total, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(g->list_base, base, sizeof(int) * (lists + 1), cudaMemcpyHostToDevice));
        free(xl);
        free(xr);
        free(base);
        g->table = 1;
    }
    g->threads = threads > 0 ? threads : 256;
    int optin = 0, sms = 0, per_sm = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    size_t bytes = elem * (size_t)h->npts;
    g->staged = bytes <= (size_t)optin;
    g->smem = g->staged ? bytes : 0;
    per_sm = elem == sizeof(float) ? sgs_dev_occupancy_of<float>(g) : sgs_dev_occupancy_of<double>(g);
    if (per_sm < 1) DIE("k_sparse: no block of %d threads and %zu bytes of shared memory fits", g->threads, g->smem);
    g->blocks = per_sm * sms;
    if (max_blocks > 0 && g->blocks > max_blocks) g->blocks = max_blocks;
    return 0;
}

/* Full grids (sgs_init_full): hierarchization reads the plain layout and writes subspace
 * order, dehierarchization reads subspace order and writes the plain layout.  Returns 0, or
 * -1 when the grid is not staged in shared memory. */
static inline int sgs_dev_use_full_layout(sgs_dev *g, const sgs_grid *h)
{
    if (!g->staged || !h->full) return -1;
    long long *perm = (long long *)malloc(sizeof(long long) * h->npts);
    if (!perm) DIE("out of host memory");
    sgs_full_perm(h, perm);
    int *p32 = (int *)perm, *d_perm; /* offsets < 2^30: narrowed in place */
    for (long long i = 0; i < h->npts; i++) p32[i] = (int)perm[i];
    CHECK_CUDA(cudaMalloc(&d_perm, sizeof(int) * h->npts));
    CHECK_CUDA(cudaMemcpy(d_perm, p32, sizeof(int) * h->npts, cudaMemcpyHostToDevice));
    free(perm);
    g->perm = d_perm;
    return 0;
}

static inline void sgs_dev_free(sgs_dev *g)
{
    CHECK_CUDA(cudaFree((void *)g->perm));
    CHECK_CUDA(cudaFree(g->list_first));
    CHECK_CUDA(cudaFree(g->list_count));
    CHECK_CUDA(cudaFree(g->seg_start));
    CHECK_CUDA(cudaFree(g->seg));
    CHECK_CUDA(cudaFree(g->par));
    CHECK_CUDA(cudaFree(g->chunk));
    CHECK_CUDA(cudaFree(g->list_chunk));
    CHECK_CUDA(cudaFree(g->tab_xl)); /* NULL without the table: a no-op */
    CHECK_CUDA(cudaFree(g->tab_r));
    CHECK_CUDA(cudaFree(g->list_base));
    memset(g, 0, sizeof *g);
}

/* ngrids grids in -> out (out may equal in), hierarchize or (inverse) dehierarchize. */
template <typename T>
static inline void sgs_dev_run(const sgs_dev *g, const T *in, T *out, long long ngrids, int inverse, cudaStream_t s)
{
    long long blocks = ngrids < g->blocks ? ngrids : g->blocks;
    if (blocks < 1) return;
    if (g->staged && g->table) k_sparse<T, true, true><<<(int)blocks, g->threads, g->smem, s>>>(in, out, ngrids, *g, inverse);
    else if (g->staged) k_sparse<T, true, false><<<(int)blocks, g->threads, g->smem, s>>>(in, out, ngrids, *g, inverse);
    else if (g->table) k_sparse<T, false, true><<<(int)blocks, g->threads, 0, s>>>(in, out, ngrids, *g, inverse);
    else k_sparse<T, false, false><<<(int)blocks, g->threads, 0, s>>>(in, out, ngrids, *g, inverse);
    CHECK_LAUNCH();
}

#endif
