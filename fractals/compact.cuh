/* fractals/compact.cuh -- the kernels of ca, sw, rd (section 6) on COMPACT storage (compact.h;
 * section 7, future work) and their launch shape; used by compact.cu and the GPU test.
 *
 *   compact_launch P; compact_launch_init(&P, f, r, err, errsize)   (compact.h, host; -1 + reason)
 *   k_compact_init<<<P.blocks, P.threads>>>(P, c, seed)      start state (driver.cuh values)
 *   k_compact_ca<<<...>>>(P, in, out)                          one B3/S23 step
 *   k_compact_scatter(P, c, a)                                 embedded a[y n + x] = c[i]
 *   k_compact_vs_embedded(P, c, a, &wrong)                     counts c[i] != a[y n + x]
 *   k_compact_check_full(P, in, out, &wrong)                   counts out != full-inverse step
 *   compact_step(&S, stream)                                   ping-pong step (a timed run_case fn)
 *   k_compact_sw(P, c, v) / k_compact_rd(P, c, &sum)           sw and rd on compact storage (no map)
 *   k_compact_init_rd, k_compact_sum_check, k_compact_count_not   rd input and the checks
 *   compact_sw(&S, stream) / compact_rd(&S, stream)            timed run_case fns (d_s[0] / d_s[1]) */
#ifndef FRACTALS_COMPACT_CUH
#define FRACTALS_COMPACT_CUH

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "fractal.h"
#include "compact.h"
#include "driver.cuh"

/* compact_launch and compact_launch_init (the launch shape, host code): compact.h. */

/* Cell i and its (x, y) for the calling thread (every thread calls it once: a barrier). */
static __device__ __forceinline__ void compact_thread_cell(const compact_launch &P, uint64_t *i, uint32_t *x, uint32_t *y)
{
    __shared__ uint2 s_base; /* the block's digits, levels m..r-1, as a cell offset */
    if (threadIdx.x == 0) {
        uint32_t bx, by;
        compact_digits_cell(&P.C.F, blockIdx.x, P.C.r - P.m, P.sm, &bx, &by);
        s_base = make_uint2(bx, by);
    }
    __syncthreads();
    uint32_t lx, ly;
    compact_digits_cell(&P.C.F, threadIdx.x, P.m, 1u, &lx, &ly);
    *i = (uint64_t)blockIdx.x * P.threads + threadIdx.x;
    *x = s_base.x + lx;
    *y = s_base.y + ly;
}

/* One ca step on compact storage: neighbours through compact_neighbour. */
static __global__ void k_compact_ca(compact_launch P, const uint8_t *__restrict__ in, uint8_t *__restrict__ out)
{
    uint64_t i;
    uint32_t x, y;
    compact_thread_cell(P, &i, &x, &y);
    out[i] = compact_ca_cell(&P.C, in, i, x, y);
}

/* Initial state: the values the embedded ca starts from (driver.cuh), cell by cell. */
static __global__ void k_compact_init(compact_launch P, uint8_t *c, uint64_t seed)
{
    uint64_t i;
    uint32_t x, y;
    compact_thread_cell(P, &i, &x, &y);
    c[i] = fractal_ca_value(x, y, seed);
}

/* Embedded array (zeroed before) <- compact state: a[y n + x] = c[i]. */
static __global__ void k_compact_scatter(compact_launch P, const uint8_t *c, uint8_t *a)
{
    uint64_t i;
    uint32_t x, y;
    compact_thread_cell(P, &i, &x, &y);
    a[(size_t)y * P.C.n + x] = c[i];
}

/* Counts compact cells whose value differs from the embedded array's. */
static __global__ void k_compact_vs_embedded(compact_launch P, const uint8_t *c, const uint8_t *a, unsigned long long *wrong)
{
    uint64_t i;
    uint32_t x, y;
    compact_thread_cell(P, &i, &x, &y);
    if (c[i] != a[(size_t)y * P.C.n + x]) atomicAdd(wrong, 1ull);
}

/* Counts cells of `out` that differ from one step of `in` evaluated with the full inverse. */
static __global__ void k_compact_check_full(compact_launch P, const uint8_t *in, const uint8_t *out, unsigned long long *wrong)
{
    uint64_t i;
    uint32_t x, y;
    compact_thread_cell(P, &i, &x, &y);
    if (out[i] != compact_ca_cell_full(&P.C, in, i, x, y)) atomicAdd(wrong, 1ull);
}

/* sw on compact storage: every cell gets `value`.  No map: cell i is byte i (the memory
 * bound of the compact layout; ca's time over this is what its neighbour access costs). */
static __global__ void k_compact_sw(compact_launch P, uint8_t *c, uint8_t value)
{
    c[(uint64_t)blockIdx.x * P.threads + threadIdx.x] = value;
}

/* rd on compact storage: *sum += every cell (warp __reduce_add_sync, per-warp partials in
 * shared memory, one 64-bit atomicAdd per block; blocks of k^m threads end in a partial warp). */
static __global__ void k_compact_rd(compact_launch P, const uint8_t *c, unsigned long long *sum)
{
    __shared__ uint32_t s_warp[32];
    const uint32_t t = threadIdx.x, lane = t & 31u, warp = t >> 5;
    const uint32_t left = blockDim.x - (warp << 5), mask = left >= 32 ? 0xFFFFFFFFu : (1u << left) - 1u;
    uint32_t v = __reduce_add_sync(mask, (uint32_t)c[(uint64_t)blockIdx.x * P.threads + t]);
    if (lane == 0) s_warp[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const uint32_t nwarps = (blockDim.x + 31) >> 5;
        v = lane < nwarps ? s_warp[lane] : 0u;
        v = __reduce_add_sync(0xFFFFFFFFu, v);
        if (lane == 0 && v) atomicAdd(sum, (unsigned long long)v);
    }
}

/* rd input: cell (x, y) holds fractal_rd_value(x, y) (driver.cuh), as the embedded rd. */
static __global__ void k_compact_init_rd(compact_launch P, uint8_t *c, uint64_t seed)
{
    uint64_t i;
    uint32_t x, y;
    compact_thread_cell(P, &i, &x, &y);
    c[i] = fractal_rd_value(x, y, seed);
}

/* Independent checks: a grid-stride sum of `cells` bytes (another reduction order), and the
 * number of bytes that differ from `value`. */
static __global__ void k_compact_sum_check(const uint8_t *c, uint64_t cells, unsigned long long *sum)
{
    unsigned long long mine = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < cells; i += (uint64_t)gridDim.x * blockDim.x)
        mine += c[i];
    if (mine) atomicAdd(sum, mine);
}
static __global__ void k_compact_count_not(const uint8_t *c, uint64_t cells, uint8_t value, unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < cells; i += (uint64_t)gridDim.x * blockDim.x)
        mine += c[i] != value;
    if (mine) atomicAdd(wrong, mine);
}

typedef struct {
    compact_launch P;
    uint8_t *d_s[2];
    int cur; /* d_s[cur] holds the state */
    unsigned long long *d_sum; /* rd's result */
} compact_state;

static void compact_sw(void *ctx, cudaStream_t stream)
{
    compact_state *S = (compact_state *)ctx;
    k_compact_sw<<<S->P.blocks, S->P.threads, 0, stream>>>(S->P, S->d_s[0], (uint8_t)FRACTAL_SW_VALUE);
}

static void compact_rd(void *ctx, cudaStream_t stream)
{
    compact_state *S = (compact_state *)ctx;
    k_compact_rd<<<S->P.blocks, S->P.threads, 0, stream>>>(S->P, S->d_s[1], S->d_sum);
}

static void compact_step(void *ctx, cudaStream_t stream)
{
    compact_state *S = (compact_state *)ctx;
    k_compact_ca<<<S->P.blocks, S->P.threads, 0, stream>>>(S->P, S->d_s[S->cur], S->d_s[S->cur ^ 1]);
    S->cur ^= 1;
}

#endif
