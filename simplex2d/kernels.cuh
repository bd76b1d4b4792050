/* simplex2d/kernels.cuh -- the test kernels of Navarro et al. (arXiv:1609.01490, section 5),
 * each templated on the thread map (map.h), plus the checks that run on the device.
 *
 *   k_map<M>          zero work: the map alone, no store instruction (i + j compared with a
 *                     value it never takes; the papers' "dummy" intent)
 *   k_dummy<M>        compute (i, j); i + j goes to one location when it equals `sentinel`
 *                     (never, i + j < 2n), or from every thread (the paper's store, --dummy-store)
 *   k_write<M>        every thread writes its cell of the n x n matrix (memory-bound)
 *   k_write_coarse<M> 32 x 32 cells per block of 8 x 8 threads, 16-byte stores (ours)
 *   k_edm4d<M>        Euclidean distance matrix of 4 features read from global memory
 *   k_collision3d<M>  spheres; the block stages its rho row- and rho column-spheres in shared
 *   k_collision1d<M>  the 1D analogue (intervals)
 *   k_cover<M>        counts the hits of every cell (exact coverage check on the device)
 * The triangle: cells 0 <= j <= i < n (dummy, write, cover); the pair kernels use j < i.
 * Matrices are row-major n x n, 4-byte words, element (i, j) at i n + j. */
#ifndef SIMPLEX2D_KERNELS_CUH
#define SIMPLEX2D_KERNELS_CUH

#include <stdint.h>
#include "../common/check.h"
#include "../common/device.h"
#include "map.h"

#define S2_POISON 0xDEADBEEFu

/* The value k_write stores at (i, j): distinct per cell while i 65599 + j + 1 < 2^32, i.e. for
 * n <= 65470 (every experiment size), so a misplaced store is caught; wraps beyond. */
static inline HD uint32_t s2_write_value(uint32_t i, uint32_t j) { return i * 65599u + j + 1u; }

/* EDM entry of two 4-feature points, with every rounding explicit (no FMA contraction) so
 * that the host reference computes the same bits. */
static inline HD float s2_edm(float4 a, float4 b)
{
    float dx = S2_FADD(a.x, -b.x), dy = S2_FADD(a.y, -b.y), dz = S2_FADD(a.z, -b.z), dw = S2_FADD(a.w, -b.w);
    float s = S2_FADD(S2_FADD(S2_FMUL(dx, dx), S2_FMUL(dy, dy)), S2_FADD(S2_FMUL(dz, dz), S2_FMUL(dw, dw)));
    return sqrtf(s);
}

/* Spheres (x, y, z, r) collide when |p - q|^2 < (r_p + r_q)^2; explicit roundings as above. */
static inline HD int s2_hit3(float4 a, float4 b)
{
    float dx = S2_FADD(a.x, -b.x), dy = S2_FADD(a.y, -b.y), dz = S2_FADD(a.z, -b.z), r = S2_FADD(a.w, b.w);
    float d2 = S2_FADD(S2_FADD(S2_FMUL(dx, dx), S2_FMUL(dy, dy)), S2_FMUL(dz, dz));
    return d2 < S2_FMUL(r, r);
}

/* Intervals (x, r) collide when |x_p - x_q| < r_p + r_q. */
static inline HD int s2_hit1(float2 a, float2 b) { return fabsf(S2_FADD(a.x, -b.x)) < S2_FADD(a.y, b.y); }

#ifdef __CUDACC__

/* The map alone, with no store instruction.  A sink that costs nothing does not exist: ptxas
 * deletes every computation whose result reaches no side effect (an empty `asm volatile`
 * taking i and j compiled to 2 instructions per warp, LDC + EXIT, measured with ncu), and so
 * does the authors' gpumaps, whose zero-work kernel keeps its result in a `volatile` local
 * that nothing reads: nvcc 13 compiles it to LDC + EXIT (README, peer comparison).  Here i + j
 * is compared with a run-time value it never takes (i + j < 2n <= 2^21), and the branch
 * leads to a trap that never executes: one add and the compare folded into the exit
 * predicate are all that is added to the map. */
template <int M>
__global__ void k_map(s2_grid g, uint32_t launch, uint32_t sentinel)
{
    uint32_t i, j;
    if (!s2_map_cell(&g, M, launch, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, 0, &i, &j)) return;
    if (i + j == sentinel) __trap();
}

/* Nothing at all: the physical floor of a zero-work kernel on a given map's grid (the launches,
 * blocks and threads of that grid, no map, no store); k_map's time minus this one is what the
 * map itself costs.  The authors' zero-work kernels compile to this (LDC + EXIT) under nvcc 13. */
__global__ void k_empty() {}

/* The paper stores i + j from every thread (unconditional = 1); on Hopper those stores to ONE
 * address serialize at one L2 slice (one transaction per warp) and hide the map's cost, so by
 * default the store is kept but made conditional on a run-time value i + j never takes. */
template <int M>
__global__ void k_dummy(s2_grid g, uint32_t launch, uint32_t *out, uint32_t sentinel, int unconditional)
{
    uint32_t i, j;
    if (!s2_map_cell(&g, M, launch, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, 0, &i, &j)) return;
    if (unconditional || i + j == sentinel) *out = i + j;
}

template <int M>
__global__ void k_write(s2_grid g, uint32_t launch, uint32_t *mat)
{
    uint32_t i, j;
    if (!s2_map_cell(&g, M, launch, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, 0, &i, &j)) return;
    mat[(size_t)i * g.n + j] = s2_write_value(i, j);
}

template <int M>
__global__ void k_cover(s2_grid g, uint32_t launch, uint32_t *cnt, int strict)
{
    uint32_t i, j;
    if (!s2_map_cell(&g, M, launch, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, strict, &i, &j)) return;
    atomicAdd(&cnt[(size_t)i * g.n + j], 1u);
}

template <int M>
__global__ void k_edm4d(s2_grid g, uint32_t launch, const float4 *__restrict__ p, float *__restrict__ d)
{
    uint32_t i, j;
    if (!s2_map_cell(&g, M, launch, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, 1, &i, &j)) return;
    d[(size_t)i * g.n + j] = s2_edm(p[i], p[j]);
}

/* Pair kernels with shared staging: the block's rho row objects and rho column objects are
 * loaded once (section 5, test 3).  The block-level decision comes first (uniform), so every
 * thread of a working block reaches __syncthreads.  utm (thread space) reads global memory. */
template <int M, typename T, int DIM>
__device__ inline void s2_collide(const s2_grid &g, uint32_t launch, const T *__restrict__ obj,
                                  unsigned long long *count)
{
    int hit = 0;
    if (s2_map_is_utm(M)) {
        uint32_t i, j;
        if (!s2_map_cell(&g, M, launch, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, 1, &i, &j)) return;
        if (DIM == 3) hit = s2_hit3(*(const float4 *)&obj[i], *(const float4 *)&obj[j]);
        else hit = s2_hit1(*(const float2 *)&obj[i], *(const float2 *)&obj[j]);
    } else {
        extern __shared__ unsigned char s2_smem[];
        T *rows = (T *)s2_smem, *cols = rows + g.rho;
        uint32_t bi, bj;
        if (!s2_map_block(&g, M, launch, blockIdx.x, blockIdx.y, &bi, &bj)) return;
        const uint32_t sh = s2_row_shift(M); /* eq. (5): rows one cell lower */
        for (uint32_t t = threadIdx.y * g.rho + threadIdx.x; t < 2 * g.rho; t += g.rho * g.rho) {
            uint32_t r = t < g.rho ? bi * g.rho + t + sh : bj * g.rho + (t - g.rho);
            if (r < g.n) (t < g.rho ? rows[t] : cols[t - g.rho]) = obj[r];
        }
        __syncthreads();
        uint32_t i = bi * g.rho + threadIdx.y + sh, j = bj * g.rho + threadIdx.x;
        if (i >= g.n || j >= i) return;
        if (DIM == 3) hit = s2_hit3(*(const float4 *)&rows[threadIdx.y], *(const float4 *)&cols[threadIdx.x]);
        else hit = s2_hit1(*(const float2 *)&rows[threadIdx.y], *(const float2 *)&cols[threadIdx.x]);
    }
    if (hit) atomicAdd(count, 1ull);
}

template <int M>
__global__ void k_collision3d(s2_grid g, uint32_t launch, const float4 *__restrict__ s, unsigned long long *count)
{
    s2_collide<M, float4, 3>(g, launch, s, count);
}

template <int M>
__global__ void k_collision1d(s2_grid g, uint32_t launch, const float2 *__restrict__ s, unsigned long long *count)
{
    s2_collide<M, float2, 1>(g, launch, s, count);
}

/* Coarsened triangular write (ours): the block map with rho = 32 gives a 32 x 32 tile; a
 * block of 8 x 8 threads writes it as 32 rows x 8 uint4 (16 cells per thread).  Needs n a
 * multiple of 4 (16-byte aligned rows).  Tiles off the diagonal store whole vectors; the
 * diagonal tile filters per cell. */
template <int M>
__global__ void k_write_coarse(s2_grid g, uint32_t *mat)
{
    uint32_t bi, bj;
    if (!s2_map_block(&g, M, 0, blockIdx.x, blockIdx.y, &bi, &bj)) return;
    uint32_t j = bj * 32 + threadIdx.x * 4;
    if (j >= g.n) return;
#pragma unroll
    for (int r = 0; r < 4; r++) {
        uint32_t i = bi * 32 + threadIdx.y + 8 * r;
        if (i >= g.n) break;
        uint32_t *row = mat + (size_t)i * g.n;
        if (bi != bj) {
            *(uint4 *)(row + j) = make_uint4(s2_write_value(i, j), s2_write_value(i, j + 1),
                                             s2_write_value(i, j + 2), s2_write_value(i, j + 3));
        } else {
            for (uint32_t c = 0; c < 4; c++)
                if (j + c <= i) row[j + c] = s2_write_value(i, j + c);
        }
    }
}

/* A plain 16-byte-per-thread store of `words` words: the write rate this GPU reaches. */
static __global__ void k_fill(uint4 *a, size_t n16, uint32_t v)
{
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < n16; t += (size_t)gridDim.x * blockDim.x)
        a[t] = make_uint4(v, v, v, v);
}

/* ---- device-side checks of whole matrices (counts of wrong cells) ---- */
/* what = 0: coverage counts (1 in the triangle, 0 elsewhere; strict: 0 on the diagonal);
 * 1: write values in the triangle, poison elsewhere;  2: EDM (strict triangle), poison elsewhere. */
__global__ void k_check_matrix(const uint32_t *mat, uint32_t n, int what, int strict, const float4 *p,
                               unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (uint32_t i = blockIdx.x; i < n; i += gridDim.x) /* one row per block, columns by threads */
        for (uint32_t j = threadIdx.x; j < n; j += blockDim.x) {
            int in = strict ? j < i : j <= i;
            uint32_t v = mat[(size_t)i * n + j], e;
            if (what == 0) e = in ? 1u : 0u;
            else if (!in) e = S2_POISON;
            else if (what == 1) e = s2_write_value(i, j);
            else e = __float_as_uint(s2_edm(p[i], p[j]));
            mine += v != e;
        }
    if (mine) atomicAdd(wrong, mine);
}

/* ---- host-side launch helpers: one switch picks the template instance at run time ---- */
enum { S2_K_DUMMY = 0, S2_K_WRITE, S2_K_EDM4D, S2_K_COLLISION3D, S2_K_COLLISION1D, S2_K_MAP, S2_K_COVER, S2_K_COARSE, S2_K_EMPTY, S2_NKERNELS };
#define S2_KERNEL_NAMES "dummy write edm4d collision3d collision1d map empty"

static inline const char *s2_kernel_name(int k)
{
    static const char *names[S2_NKERNELS] = {"dummy", "write", "edm4d", "collision3d", "collision1d", "map", "cover", "write-coarse", "empty"};
    return k >= 0 && k < S2_NKERNELS ? names[k] : "?";
}

typedef struct {
    s2_grid g;
    int kernel;
    int strict;        /* k_cover only */
    int unconditional; /* k_dummy: the paper's store from every thread (--dummy-store=unconditional) */
    void *out;         /* dummy: uint32_t[1]; write/cover: matrix; edm: float matrix; collision: counter */
    const void *in;    /* edm/collision inputs */
} s2_job;

template <int M>
static void s2_launch_all(const s2_job *jb, cudaStream_t st)
{
    const s2_grid &g = jb->g;
    dim3 block(g.bx_threads, g.by_threads);
    size_t smem = 0;
    if (jb->kernel == S2_K_COLLISION3D) smem = 2 * g.rho * sizeof(float4);
    if (jb->kernel == S2_K_COLLISION1D) smem = 2 * g.rho * sizeof(float2);
    if (s2_map_is_utm(M)) smem = 0;
    if (jb->kernel == S2_K_COARSE) {
        if (!s2_map_is_utm(M) && M != S2_REC && !s2_map_is_strict(M)) k_write_coarse<M><<<dim3(g.gx[0], g.gy[0]), dim3(8, 8), 0, st>>>(g, (uint32_t *)jb->out);
        return;
    }
    for (uint32_t l = 0; l < g.nlaunch; l++) {
        dim3 grid(g.gx[l], g.gy[l]);
        switch (jb->kernel) {
        case S2_K_MAP: k_map<M><<<grid, block, 0, st>>>(g, l, 0xFFFFFFFFu); break;
        case S2_K_EMPTY: k_empty<<<grid, block, 0, st>>>(); break;
        case S2_K_DUMMY: k_dummy<M><<<grid, block, 0, st>>>(g, l, (uint32_t *)jb->out, 0xFFFFFFFFu, jb->unconditional); break;
        case S2_K_WRITE: k_write<M><<<grid, block, 0, st>>>(g, l, (uint32_t *)jb->out); break;
        case S2_K_COVER: k_cover<M><<<grid, block, 0, st>>>(g, l, (uint32_t *)jb->out, jb->strict); break;
        case S2_K_EDM4D: k_edm4d<M><<<grid, block, 0, st>>>(g, l, (const float4 *)jb->in, (float *)jb->out); break;
        case S2_K_COLLISION3D:
            k_collision3d<M><<<grid, block, smem, st>>>(g, l, (const float4 *)jb->in, (unsigned long long *)jb->out);
            break;
        case S2_K_COLLISION1D:
            k_collision1d<M><<<grid, block, smem, st>>>(g, l, (const float2 *)jb->in, (unsigned long long *)jb->out);
            break;
        }
    }
}

/* Enqueues every launch of job jb on stream st (no synchronization: bench_gpu's fn). */
static inline void s2_run(void *ctx, cudaStream_t st)
{
    const s2_job *jb = (const s2_job *)ctx;
    switch (jb->g.map) {
    case S2_BB: s2_launch_all<S2_BB>(jb, st); break;
    case S2_RB: s2_launch_all<S2_RB>(jb, st); break;
    case S2_REC: s2_launch_all<S2_REC>(jb, st); break;
    case S2_UTM: s2_launch_all<S2_UTM>(jb, st); break;
    case S2_LAMBDA_SQRT: s2_launch_all<S2_LAMBDA_SQRT>(jb, st); break;
    case S2_LAMBDA_NEWTON: s2_launch_all<S2_LAMBDA_NEWTON>(jb, st); break;
    case S2_LAMBDA_RSQRT: s2_launch_all<S2_LAMBDA_RSQRT>(jb, st); break;
    case S2_LAMBDA_EXACT: s2_launch_all<S2_LAMBDA_EXACT>(jb, st); break;
    case S2_RECURSIVE: /* m = 2^k: the instance without the piece search or its test */
        if (jb->g.m == 2 * jb->g.rc_half) s2_launch_all<S2_RECURSIVE_POW2>(jb, st);
        else s2_launch_all<S2_RECURSIVE>(jb, st);
        break;
    case S2_LAMBDA_EXACT_2D: s2_launch_all<S2_LAMBDA_EXACT_2D>(jb, st); break;
    case S2_RECURSIVE_2D: s2_launch_all<S2_RECURSIVE_2D>(jb, st); break;
    case S2_UTM_PUBLISHED: s2_launch_all<S2_UTM_PUBLISHED>(jb, st); break;
    case S2_RECURSIVE_ABOVE: s2_launch_all<S2_RECURSIVE_ABOVE>(jb, st); break;
    case S2_LAMBDA_STRICT: s2_launch_all<S2_LAMBDA_STRICT>(jb, st); break;
    }
    CHECK_LAUNCH();
}

/* Resident blocks per SM of kernel k with map M at rho (the occupancy calculator: registers,
 * shared memory, threads), and the kernel's registers per thread: the paper's Table 1 lists
 * these limits as "sblocks" (simultaneous blocks on the whole GPU). */
template <int M>
static int s2_occupancy_of(int k, uint32_t rho, int *regs)
{
    const void *f = (const void *)k_write<M>;
    size_t smem = 0;
    switch (k) {
    case S2_K_MAP: f = (const void *)k_map<M>; break;
    case S2_K_EMPTY: f = (const void *)k_empty; break;
    case S2_K_DUMMY: f = (const void *)k_dummy<M>; break;
    case S2_K_EDM4D: f = (const void *)k_edm4d<M>; break;
    case S2_K_COLLISION3D: f = (const void *)k_collision3d<M>; smem = 2 * rho * sizeof(float4); break;
    case S2_K_COLLISION1D: f = (const void *)k_collision1d<M>; smem = 2 * rho * sizeof(float2); break;
    }
    int nb = 0;
    cudaFuncAttributes a;
    CHECK_CUDA(cudaFuncGetAttributes(&a, f));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, f, (int)(rho * rho), smem));
    *regs = a.numRegs;
    return nb;
}

static inline int s2_occupancy(int map, int k, uint32_t rho, int *regs)
{
    switch (map) {
    case S2_BB: return s2_occupancy_of<S2_BB>(k, rho, regs);
    case S2_RECURSIVE: return s2_occupancy_of<S2_RECURSIVE>(k, rho, regs);
    default: return s2_occupancy_of<S2_LAMBDA_EXACT>(k, rho, regs);
    }
}

/* Counts wrong cells of an n x n matrix on the device (see k_check_matrix). */
static inline unsigned long long s2_check_matrix(const void *mat, uint32_t n, int what, int strict, const float4 *p,
                                          unsigned long long *d_wrong)
{
    unsigned long long wrong = 0;
    CHECK_CUDA(cudaMemset(d_wrong, 0, sizeof wrong));
    k_check_matrix<<<GRID_STRIDE_BLOCKS(16), 256>>>((const uint32_t *)mat, n, what, strict, p, d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(&wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost));
    return wrong;
}

/* Device coverage check of map g (with strict = 0 and 1): counts in `cnt` (n^2 words).
 * Returns the number of wrong cells. */
static inline unsigned long long s2_check_cover(const s2_grid *g, uint32_t *cnt, unsigned long long *d_wrong)
{
    unsigned long long bad = 0;
    for (int strict = s2_map_is_strict(g->map); strict <= 1; strict++) { /* eq. (5): j < i only */
        s2_job jb;
        memset(&jb, 0, sizeof jb);
        jb.g = *g;
        jb.kernel = S2_K_COVER;
        jb.strict = strict;
        jb.out = cnt;
        CHECK_CUDA(cudaMemset(cnt, 0, (size_t)g->n * g->n * 4));
        s2_run(&jb, 0);
        bad += s2_check_matrix(cnt, g->n, 0, strict, NULL, d_wrong);
        if (bad) break;
    }
    return bad;
}
#endif /* __CUDACC__ */

#endif
