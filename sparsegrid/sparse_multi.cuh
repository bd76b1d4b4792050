/* sparsegrid/sparse_multi.cuh -- k_sparse_multi: batched sparse-grid (de)hierarchization with
 * G grids per block and U table entries in flight per thread (beside k_sparse of
 * sparse_kernels.cuh, which stays as it is).  The index logic and the per-thread list walk
 * are the HD functions of sparse_multi.h (replayed on the host by
 * tests/host/test_sparsegrid_multi.c); this file holds the kernel, its plan and launcher.
 *
 * Each block walks over groups of G consecutive grids (round robin, persistent grid): it loads
 * the group's gc <= G grids (one contiguous span) into shared memory, runs the d n lists
 * (k, L) of the table variant with one __syncthreads() after each -- every thread taking U
 * local items per step, each item applied to all gc grids -- and stores the span.  Staged
 * only, offset table only: a grid that fits shared memory has at most 227 KiB / 4 < 65536
 * points, so the 16-bit table always exists for it. */
#ifndef SPARSEGRID_SPARSE_MULTI_CUH
#define SPARSEGRID_SPARSE_MULTI_CUH

#include "sparse_kernels.cuh"
#include "sparse_multi.h"

static __device__ __forceinline__ void sgs_multi_list_t(float *u, int pitch, int gc, int G, int U, const sgs_dev &g, int kl,
                                                        int inverse)
{
    sgs_multi_list_f(u, pitch, gc, G, U, g.tab_xl, g.tab_r, g.list_base, g.list_count, kl, threadIdx.x, blockDim.x, inverse);
}
static __device__ __forceinline__ void sgs_multi_list_t(double *u, int pitch, int gc, int G, int U, const sgs_dev &g, int kl,
                                                        int inverse)
{
    sgs_multi_list_d(u, pitch, gc, G, U, g.tab_xl, g.tab_r, g.list_base, g.list_count, kl, threadIdx.x, blockDim.x, inverse);
}

/* in may equal out (in place): a group's span is read completely before it is written, and
 * no other block touches it, so `in` is not __restrict__. */
template <typename T, int G, int U>
__global__ void k_sparse_multi(const T *in, T *out, long long ngrids, sgs_dev g, int inverse)
{
    extern __shared__ __align__(16) unsigned char sgs_multi_smem[];
    T *sh = reinterpret_cast<T *>(sgs_multi_smem);
    long long ngroups = sgs_multi_groups(ngrids, G);
    for (long long gr = blockIdx.x; gr < ngroups; gr += gridDim.x) {
        long long first;
        int gc;
        sgs_multi_group(gr, G, ngrids, &first, &gc);
        int span = gc * g.npts; /* <= G N values: fits shared memory, so an int */
        const T *src = in + first * g.npts;
        T *dst = out + first * g.npts;
        for (int i = threadIdx.x; i < span; i += blockDim.x) sh[i] = src[i];
        __syncthreads();
        for (int k = 0; k < g.d; k++)
            for (int s = 1; s <= g.n; s++) { /* hierarchize finest level first, dehierarchize coarsest first */
                int L = inverse ? s : g.n + 1 - s;
                sgs_multi_list_t(sh, g.npts, gc, G, U, g, k * (g.n + 1) + L, inverse);
                __syncthreads();
            }
        for (int i = threadIdx.x; i < span; i += blockDim.x) dst[i] = sh[i];
        __syncthreads(); /* the next group overwrites sh */
    }
}

/* A plan: the table variant's device lists (dev) and the launch of k_sparse_multi<T, G, U>. */
typedef struct {
    sgs_dev dev;   /* lists and offset table (sgs_dev_setup with table = 1) */
    int G, U;      /* grids per block, table entries in flight per thread */
    int threads;   /* threads per block */
    int per_sm;    /* resident blocks per SM (occupancy API: shared memory, registers, threads) */
    int blocks;    /* blocks launched at most (per_sm * SMs, capped by max_blocks) */
    int regs;      /* registers per thread of the kernel (cudaFuncGetAttributes) */
    size_t smem;   /* dynamic shared memory per block: G N elem */
} sgs_multi;

/* The kernel of a (T, G, U) as a function pointer (one switch for attributes and launches). */
template <typename T>
static inline void (*sgs_multi_kernel(int G, int U))(const T *, T *, long long, sgs_dev, int)
{
#define SGS_MULTI_CASE(GG)                                                                      \
    case GG:                                                                                    \
        return U == 1 ? k_sparse_multi<T, GG, 1> : U == 2 ? k_sparse_multi<T, GG, 2> : k_sparse_multi<T, GG, 4>;
    switch (G) {
        SGS_MULTI_CASE(1)
        SGS_MULTI_CASE(2)
        SGS_MULTI_CASE(3)
        SGS_MULTI_CASE(4)
    }
#undef SGS_MULTI_CASE
    return NULL;
}

/* G grids per block from the device's shared memory: the largest G <= gmax leaving at least
 * 2 blocks per SM by shared memory (sgs_multi_pick_g); 0 when one grid does not fit. */
static inline int sgs_multi_auto_g(const sgs_grid *h, size_t elem, int gmax, int device)
{
    int optin = 0, per_sm = 0, reserved = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device));
    return sgs_multi_pick_g((long long)elem * h->npts, gmax, optin, per_sm, reserved, 2);
}

/* Plans k_sparse_multi for element size elem (4: float, 8: double), `threads` per block, G
 * grids per block (0: sgs_multi_auto_g with gmax 4), U in {1, 2, 4}; max_blocks > 0 caps the
 * grid.  Returns 0, or -1 (nothing allocated) when the grid is larger than 65536 points, G
 * grids do not fit the shared memory of a block, or G / U are not instantiated; -2 (nothing
 * allocated; m->G, m->U, m->regs set) when no block of `threads` fits an SM by registers
 * (e.g. double, G = 4, U = 4: 155 registers x 512 threads). */
static inline int sgs_multi_setup(sgs_multi *m, const sgs_grid *h, size_t elem, int threads, int G, int U, int device,
                                  int max_blocks)
{
    memset(m, 0, sizeof *m);
    if (h->npts > 65536 || (elem != sizeof(float) && elem != sizeof(double))) return -1;
    if (G == 0) G = sgs_multi_auto_g(h, elem, SGS_MULTI_GMAX, device);
    if (G < 1 || G > SGS_MULTI_GMAX || (U != 1 && U != 2 && U != 4)) return -1;
    int optin = 0, sms = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    size_t smem = elem * (size_t)G * (size_t)h->npts;
    if (smem > (size_t)optin) return -1;
    if (sgs_dev_setup(&m->dev, h, elem, threads, device, max_blocks, 1) || !m->dev.staged) {
        sgs_dev_free(&m->dev);
        return -1;
    }
    m->G = G;
    m->U = U;
    m->threads = m->dev.threads;
    m->smem = smem;
    cudaFuncAttributes fa;
    const void *fn = elem == sizeof(float) ? (const void *)sgs_multi_kernel<float>(G, U)
                                           : (const void *)sgs_multi_kernel<double>(G, U);
    CHECK_CUDA(cudaFuncGetAttributes(&fa, fn));
    if ((size_t)fa.maxDynamicSharedSizeBytes < smem) /* raise only: an earlier plan may still be launched */
        CHECK_CUDA(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&m->per_sm, fn, m->threads, smem));
    m->regs = fa.numRegs;
    if (m->per_sm < 1) { /* the block's registers (regs x threads) exceed the SM's register file */
        sgs_dev_free(&m->dev);
        return -2;
    }
    m->blocks = m->per_sm * sms;
    if (max_blocks > 0 && m->blocks > max_blocks) m->blocks = max_blocks;
    return 0;
}

static inline void sgs_multi_free(sgs_multi *m)
{
    sgs_dev_free(&m->dev);
    memset(m, 0, sizeof *m);
}

/* ngrids grids in -> out (out may equal in), hierarchize or (inverse) dehierarchize. */
template <typename T>
static inline void sgs_multi_run(const sgs_multi *m, const T *in, T *out, long long ngrids, int inverse, cudaStream_t s)
{
    long long groups = sgs_multi_groups(ngrids, m->G), blocks = groups < m->blocks ? groups : m->blocks;
    if (blocks < 1) return;
    sgs_multi_kernel<T>(m->G, m->U)<<<(int)blocks, m->threads, m->smem, s>>>(in, out, ngrids, m->dev, inverse);
    CHECK_LAUNCH();
}

#endif
