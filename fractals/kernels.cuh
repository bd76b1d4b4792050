/* fractals/kernels.cuh -- the work kernels sw, rd, ca (the tests of section 6) templated on a
 * thread map, and the maps bb and lambda(omega) (sections 3-4).  CUDA C++ (templates).
 *
 * ===== Names other directories use (stable; tensorcore/ builds on them) ================
 *
 * A Map is a small struct passed BY VALUE to the kernels, with
 *     dim3 grid, block;                                   // its launch configuration (host)
 *     __device__ bool thread_cell(uint32_t *x, uint32_t *y) const;
 * thread_cell is called by EVERY thread of the block exactly once, at kernel start, before
 * any early return (it may use __syncthreads, static __shared__ variables and warp-wide
 * operations).  It returns false when the calling thread has no fractal cell, otherwise
 * true and the cell (x, y) of the embedded n x n array (x = column, y = row; fractal.h).
 * A map may instead end the whole block there (block_exit, the same decision in all its
 * threads) when the block holds no cell: a kernel has nothing to do for such a block.
 *
 * Maps defined here (all built from a fractal_launch of fractal.h):
 *     bb_map            bounding box: (n/rho)^2 blocks, membership test per thread
 *     bb_skip_map       the same grid, blocks above the diagonal (bx > by) end first: the
 *                       bounding triangle of a fractal in the lower triangle (ours; what the
 *                       authors' gpumaps bbox does for the Sierpinski triangle)
 *     bb_block_map      the same grid, blocks that are not a cell of the fractal at the block
 *                       level end first (ours: the strongest early exit of bb's grid)
 *     lambda_map_t      lambda(omega) (eqs. 1-6) evaluated ONCE per block by thread (0,0)
 *                       and shared through shared memory (one __syncthreads)
 *     lambda_thread_map lambda(omega) evaluated by every thread (no barrier)
 *     lambda_par_map    lambda(omega) with its rb terms computed by the first warp's lanes
 *                       in parallel and added by one warp reduction (section 4's
 *                       O(log log n_b) lambda), shared like lambda_map_t
 *     make them with   bb_map::make(L), lambda_map_t::make(L), lambda_thread_map::make(L),
 *                      lambda_par_map::make(L), bb_skip_map::make(L), bb_block_map::make(L)
 *                      (the bb kinds from a bb launch: its (n/rho)^2 grid)
 *     three templates  fractal_thread_map<KIND, CELL> (bb, lambda-thread),
 *                      fractal_bb_exit_map<KIND, THREAD> (bb-skip, bb-block: block_exit first)
 *                      and fractal_shared_lambda_map<PAR> (lambda_map_t, lambda_par_map)
 *
 * Kernels (n = side of the embedded array, a/in/out: n*n bytes, row-major):
 *     k_sw<Map>(m, a, n, value)        a[cell] = value for every fractal cell
 *     k_rd<Map>(m, a, n, sum)          *sum += sum of a[cell] over the fractal cells
 *                                      (warp reduce, shared memory, one atomicAdd per
 *                                      non-zero block; threads without a cell take part)
 *     k_ca<Map>(m, in, out, n)         one automaton step (rule below)
 *     k_cover<Map>(m, count, n)        count[cell]++ (byte counters in 32-bit atomics):
 *                                      coverage check, every cell must end at exactly 1
 * Host drivers (verify + time a kernel for a given Map) are in fractals/driver.cuh:
 *     fractal_problem_init/free, fractal_measure<Map>(m, &p, work, label, &opts, &dat) (verified,
 *     then timed), fractal_check<Map>(m, &p, work, label), fractal_launch_test<Map>(m, &p, work).
 *
 * The automaton (ca, paper section 6: "Game of Life rules on the Moore neighbourhood,
 * counting only neighbours that belong to the fractal"): state 1 = alive, 0 = dead; a cell
 * outside the fractal is never written and stays 0, so counting the live cells among the 8
 * Moore neighbours inside the n x n array counts only fractal neighbours.  Conway's B3/S23:
 * next = 1 iff (alive and 2 or 3 live neighbours) or (dead and exactly 3). */
#ifndef FRACTALS_KERNELS_CUH
#define FRACTALS_KERNELS_CUH

#include <stdint.h>
#include "fractal.h"

/* ---- warps of a block ---------------------------------------------------------------- */

/* The lanes of the calling thread's warp that exist: a block of rho x rho threads (rho = 4,
 * 9, 27, ...) can end in a partial warp, and a warp-wide intrinsic (__reduce_add_sync,
 * __ballot_sync) must name only threads that exist.  Tensor-core instructions (WMMA,
 * mma.sync .aligned) need all 32 lanes and cannot be fixed this way (tensorcore/). */
static __device__ __forceinline__ uint32_t block_warp_lanes()
{
    const uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
    const uint32_t lin = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const uint32_t left = nthreads - (lin & ~31u); /* lanes that exist in this warp */
    return left >= 32 ? 0xFFFFFFFFu : (1u << left) - 1u;
}

/* ---- maps --------------------------------------------------------------------------- */

/* A map's launch: the map kind recorded in its fractal_launch, gx x gy blocks of rho x rho
 * threads (shared by every Map's make(); bb passes its (n/rho)^2 grid). */
template <class M>
static M fractal_map_make(const fractal_launch &L, int kind, uint32_t gx, uint32_t gy)
{
    M m;
    m.L = L;
    m.L.map = kind;
    m.grid = dim3(gx, gy);
    m.block = dim3(L.rho, L.rho);
    return m;
}

/* The maps whose every thread finds its own cell with one function of fractal.h, no barrier:
 * KIND is the map kind recorded in the launch, CELL the cell function.  bb runs on its
 * (n/rho)^2 grid, lambda-thread on lambda's grid. */
typedef int (*fractal_cell_fn)(const fractal_launch *L, uint32_t bx, uint32_t by, uint32_t tx, uint32_t ty, uint32_t *x,
                               uint32_t *y);

template <int KIND, fractal_cell_fn CELL>
struct fractal_thread_map {
    fractal_launch L;
    dim3 grid, block;
    static fractal_thread_map make(const fractal_launch &L)
    {
        const uint32_t side = L.n / L.rho; /* bb's grid */
        return KIND == FRACTAL_MAP_LAMBDA ? fractal_map_make<fractal_thread_map>(L, KIND, L.gx, L.gy)
                                          : fractal_map_make<fractal_thread_map>(L, KIND, side, side);
    }
    __device__ bool thread_cell(uint32_t *x, uint32_t *y) const
    {
        return CELL(&L, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, x, y);
    }
};

typedef fractal_thread_map<FRACTAL_MAP_BB, fractal_bb_cell> bb_map;
typedef fractal_thread_map<FRACTAL_MAP_LAMBDA, fractal_lambda_cell> lambda_thread_map;

/* Ends every thread of the calling block at once: for a block that holds no cell (the same
 * decision in all its threads), so that no thread of it waits at a barrier.  PTX exit, not a
 * flag returned to the kernel: with a flag the compiler joins the skipped path with the kept
 * one and tests the flag again before the kernel's own exit (8 instructions on the path of a
 * skipped block's warps instead of 5). */
static __device__ __forceinline__ void block_exit()
{
    asm volatile("exit;");
    __builtin_unreachable();
}

/* bb-skip and bb-block (fractal.h): bb's grid, the block's test first (fractal_bb_skip_keeps
 * or fractal_bb_block_keeps: a block it rejects ends through block_exit), then the thread's
 * part (THREAD), which reads the values of fractal_bb_fast_make kept in the Map.  Counted in
 * the SASS of k_sw (sm_90), instructions a warp runs to its exit: a skipped block's warp 5
 * (bb-skip; gpumaps' bbox 5) and 13 (bb-block, Sierpinski triangle); a kept block's warp 27
 * (bb-skip; bbox 29) and 35 (bb-block). */
typedef int (*fractal_bb_thread_fn)(const fractal_launch *L, const fractal_bb_fast *B, uint32_t bx, uint32_t by,
                                    uint32_t tx, uint32_t ty, uint32_t *x, uint32_t *y);

template <int KIND, fractal_bb_thread_fn THREAD>
struct fractal_bb_exit_map {
    fractal_launch L;
    fractal_bb_fast B;
    dim3 grid, block;
    static fractal_bb_exit_map make(const fractal_launch &L)
    {
        const uint32_t side = L.n / L.rho; /* bb's grid */
        fractal_bb_exit_map m = fractal_map_make<fractal_bb_exit_map>(L, KIND, side, side);
        m.B = fractal_bb_fast_make(&m.L);
        return m;
    }
    __device__ bool thread_cell(uint32_t *x, uint32_t *y) const
    {
        const uint32_t bx = blockIdx.x, by = blockIdx.y;
        if (KIND == FRACTAL_MAP_BB_SKIP) {
            if (!fractal_bb_skip_keeps(bx, by)) block_exit();
        } else if (L.F.s == 2) { /* the test written twice, once where s = 2 is known: each */
            /* copy ends the block itself, no flag joins the ANF with the digit loop (s > 2) */
            if (!fractal_bb_block_keeps(&L, &B, bx, by)) block_exit();
        } else if (!fractal_bb_block_keeps(&L, &B, bx, by)) {
            block_exit();
        }
        return THREAD(&L, &B, bx, by, threadIdx.x, threadIdx.y, x, y);
    }
};

typedef fractal_bb_exit_map<FRACTAL_MAP_BB_SKIP, fractal_bb_skip_thread> bb_skip_map;
typedef fractal_bb_exit_map<FRACTAL_MAP_BB_BLOCK, fractal_bb_block_thread> bb_block_map;

/* lambda(omega) (eqs. 1-6) evaluated once per block and shared through shared memory (one
 * __syncthreads).  PAR = false (lambda_map_t): thread (0,0) evaluates it.  PAR = true
 * (lambda_par_map), the parallel lambda (fractal.h, lambda_par_term): the first warp's lanes
 * compute the rb terms of eqs. 4-6 (lane l: mu = l+1, l+1+W, ... for a block of W < 32
 * threads), one warp reduction adds them (eqs. 5-6), lane 0 stores the result. */
template <bool PAR>
struct fractal_shared_lambda_map {
    fractal_launch L;
    dim3 grid, block;
    static fractal_shared_lambda_map make(const fractal_launch &L)
    {
        return fractal_map_make<fractal_shared_lambda_map>(L, FRACTAL_MAP_LAMBDA, L.gx, L.gy);
    }
    __device__ bool thread_cell(uint32_t *x, uint32_t *y) const
    {
        __shared__ uint2 s_block; /* lambda(omega) of this block, in blocks */
        if constexpr (PAR) {
            const uint32_t lin = threadIdx.y * blockDim.x + threadIdx.x;
            const uint32_t nthreads = blockDim.x * blockDim.y;
            const uint32_t w = nthreads < 32 ? nthreads : 32u; /* lanes of the first warp */
            if (lin < w) {
                uint32_t sx = 0, sy = 0;
                for (int mu = (int)lin + 1; mu <= L.rb; mu += (int)w) {
                    uint32_t dx, dy;
                    lambda_par_term(&L.F, mu, blockIdx.x, blockIdx.y, &dx, &dy);
                    sx += dx;
                    sy += dy;
                }
                const uint32_t mask = w == 32 ? 0xFFFFFFFFu : (1u << w) - 1u;
                sx = __reduce_add_sync(mask, sx);
                sy = __reduce_add_sync(mask, sy);
                if (lin == 0) s_block = make_uint2(sx, sy);
            }
        } else if (threadIdx.x == 0 && threadIdx.y == 0) {
            uint32_t bx, by;
            nbb_fast_lambda(&L.F, L.rb, blockIdx.x, blockIdx.y, &bx, &by); /* eqs. 1-6 */
            s_block = make_uint2(bx, by);
        }
        __syncthreads();
        const uint2 b = s_block;
        return fractal_block_cell(&L, b.x, b.y, threadIdx.x, threadIdx.y, x, y);
    }
};

typedef fractal_shared_lambda_map<false> lambda_map_t;
typedef fractal_shared_lambda_map<true> lambda_par_map;

/* ---- kernels ------------------------------------------------------------------------ */

static __device__ __forceinline__ size_t cell_index(uint32_t x, uint32_t y, uint32_t n)
{
    return (size_t)y * n + x;
}

template <class Map>
__global__ void k_sw(Map m, uint8_t *__restrict__ a, uint32_t n, uint8_t value)
{
    uint32_t x, y;
    if (m.thread_cell(&x, &y)) a[cell_index(x, y, n)] = value;
}

template <class Map>
__global__ void k_rd(Map m, const uint8_t *__restrict__ a, uint32_t n, unsigned long long *sum)
{
    __shared__ uint32_t s_warp[32];
    uint32_t x, y;
    uint32_t v = m.thread_cell(&x, &y) ? a[cell_index(x, y, n)] : 0u;
    const uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
    const uint32_t lin = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const uint32_t warp = lin >> 5, lane = lin & 31u;
    v = __reduce_add_sync(block_warp_lanes(), v);
    if (nthreads <= 32) {
        if (lane == 0 && v) atomicAdd(sum, (unsigned long long)v);
        return;
    }
    if (lane == 0) s_warp[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const uint32_t nwarps = (nthreads + 31) >> 5;
        v = lane < nwarps ? s_warp[lane] : 0u;
        v = __reduce_add_sync(0xFFFFFFFFu, v);
        if (lane == 0 && v) atomicAdd(sum, (unsigned long long)v);
    }
}

template <class Map>
__global__ void k_ca(Map m, const uint8_t *__restrict__ in, uint8_t *__restrict__ out, uint32_t n)
{
    uint32_t x, y;
    if (!m.thread_cell(&x, &y)) return;
    uint32_t live = 0;
    const uint32_t x0 = x > 0 ? x - 1 : 0, x1 = x + 1 < n ? x + 1 : x;
    const uint32_t y0 = y > 0 ? y - 1 : 0, y1 = y + 1 < n ? y + 1 : y;
    for (uint32_t j = y0; j <= y1; j++)
        for (uint32_t i = x0; i <= x1; i++) live += in[cell_index(i, j, n)];
    const uint32_t self = in[cell_index(x, y, n)];
    live -= self;
    out[cell_index(x, y, n)] = (uint8_t)(live == 3 || (self && live == 2)); /* B3/S23 */
}

/* count: n*n byte counters, stored in 32-bit words (buffer rounded up to 4 bytes). */
template <class Map>
__global__ void k_cover(Map m, uint32_t *count, uint32_t n)
{
    uint32_t x, y;
    if (m.thread_cell(&x, &y)) {
        size_t c = cell_index(x, y, n);
        if (x < n && y < n) atomicAdd(&count[c >> 2], 1u << (8 * (c & 3)));
        else atomicAdd(&count[0], 0x80u); /* out of the array: poison cell 0's counter */
    }
}

#endif
