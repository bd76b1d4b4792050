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
 * GPU result equals the CPU's bitwise. */
#ifndef SPARSEGRID_SPARSE_KERNELS_CUH
#define SPARSEGRID_SPARSE_KERNELS_CUH

#include "../common/check.h"
#include "sparse.h"

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
    int threads, blocks, staged;  /* launch: threads per block, resident blocks, shared or global */
    size_t smem;                  /* dynamic shared memory bytes */
} sgs_dev;

/* One list (k, L) of the grid in u (shared or global memory), all threads of the block. */
template <typename T>
static __device__ void sgs_dev_list(T *u, const sgs_dev &g, int kl, int L, int inverse)
{
    int last = __ldg(g.list_first + kl + 1) - 1, count = __ldg(g.list_count + kl), cb = __ldg(g.list_chunk + kl);
    for (int t = threadIdx.x; t < count; t += blockDim.x) {
        int lo = sgs_find(g.seg_start, g.chunk, cb, last, t);
        sgs_seg q = g.seg[lo];
        int x, xl, xr;
        sgs_item(&q, g.par, g.n, L, t, &x, &xl, &xr);
        u[x] = sgs_op(u[x], u[xl], u[xr], inverse);
    }
}

template <typename T, bool STAGED>
__global__ void k_sparse(const T *__restrict__ in, T *out, long long ngrids, sgs_dev g, int inverse)
{
    extern __shared__ __align__(16) unsigned char sgs_smem[];
    T *sh = reinterpret_cast<T *>(sgs_smem);
    for (long long gi = blockIdx.x; gi < ngrids; gi += gridDim.x) {
        const T *src = in + gi * g.npts;
        T *dst = out + gi * g.npts;
        T *u = STAGED ? sh : dst;
        if (STAGED || src != dst)
            for (int i = threadIdx.x; i < g.npts; i += blockDim.x) u[i] = src[i];
        __syncthreads();
        for (int k = 0; k < g.d; k++)
            for (int s = 1; s <= g.n; s++) { /* hierarchize finest level first, dehierarchize coarsest first */
                int L = inverse ? s : g.n + 1 - s;
                sgs_dev_list(u, g, k * (g.n + 1) + L, L, inverse);
                __syncthreads();
            }
        if (STAGED) {
            for (int i = threadIdx.x; i < g.npts; i += blockDim.x) dst[i] = sh[i];
            __syncthreads(); /* the next grid overwrites sh */
        }
    }
}

/* Copies the work lists of h to the device and plans the launch for element size elem with
 * `threads` threads per block (0: 256); max_blocks > 0 caps the grid (sanitizer runs). */
static inline void sgs_dev_setup(sgs_dev *g, const sgs_grid *h, size_t elem, int threads, int device, int max_blocks)
{
    memset(g, 0, sizeof *g);
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

    g->threads = threads > 0 ? threads : 256;
    int optin = 0, sms = 0, per_sm = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    size_t bytes = elem * (size_t)h->npts;
    g->staged = bytes <= (size_t)optin;
    g->smem = g->staged ? bytes : 0;
    if (elem == sizeof(float)) {
        if (g->staged) {
            CHECK_CUDA(cudaFuncSetAttribute(k_sparse<float, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)g->smem));
            CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_sparse<float, true>, g->threads, g->smem));
        } else {
            CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_sparse<float, false>, g->threads, 0));
        }
    } else {
        if (g->staged) {
            CHECK_CUDA(cudaFuncSetAttribute(k_sparse<double, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)g->smem));
            CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_sparse<double, true>, g->threads, g->smem));
        } else {
            CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_sparse<double, false>, g->threads, 0));
        }
    }
    if (per_sm < 1) DIE("k_sparse: no block of %d threads and %zu bytes of shared memory fits", g->threads, g->smem);
    g->blocks = per_sm * sms;
    if (max_blocks > 0 && g->blocks > max_blocks) g->blocks = max_blocks;
}

static inline void sgs_dev_free(sgs_dev *g)
{
    CHECK_CUDA(cudaFree(g->list_first));
    CHECK_CUDA(cudaFree(g->list_count));
    CHECK_CUDA(cudaFree(g->seg_start));
    CHECK_CUDA(cudaFree(g->seg));
    CHECK_CUDA(cudaFree(g->par));
    CHECK_CUDA(cudaFree(g->chunk));
    CHECK_CUDA(cudaFree(g->list_chunk));
    memset(g, 0, sizeof *g);
}

/* ngrids grids in -> out (out may equal in), hierarchize or (inverse) dehierarchize. */
template <typename T>
static inline void sgs_dev_run(const sgs_dev *g, const T *in, T *out, long long ngrids, int inverse, cudaStream_t s)
{
    long long blocks = ngrids < g->blocks ? ngrids : g->blocks;
    if (blocks < 1) return;
    if (g->staged) k_sparse<T, true><<<(int)blocks, g->threads, g->smem, s>>>(in, out, ngrids, *g, inverse);
    else k_sparse<T, false><<<(int)blocks, g->threads, 0, s>>>(in, out, ngrids, *g, inverse);
    CHECK_LAUNCH();
}

#endif
