/* tensorcore/kernels.cuh -- verification kernels for the tensor-core maps of section 5
 * (maps.cuh): every thread's cell against the classic lambda (eqs. 1-6).
 *
 * The work kernels themselves (k_sw, k_rd, k_ca, k_cover) are fractals/kernels.cuh's,
 * instantiated with our Maps.
 *
 *   k_tc_check<Map>(m, stats)   every thread of every block: thread_cell() against
 *       ref_cell(), the classic lambda (eqs. 1-6, fractal_lambda_cell) of the same logical
 *       block and local offset.  stats[0] += threads that differ (in having a cell or in
 *       the cell), stats[1] += threads with a cell (must be k^r), stats[2] = min over the
 *       bad blocks of blockIdx.y * gridDim.x + blockIdx.x (initialize to ~0).
 *   k_tc_record<Map>(m, out)    out[3 * thread] = (x, y, has_cell) per launched thread, with
 *       thread = ((blockIdx.y * gridDim.x + blockIdx.x) * blockDim.y + threadIdx.y) *
 *       blockDim.x + threadIdx.x: for host-side comparisons in the GPU test. */
#ifndef TENSORCORE_KERNELS_CUH
#define TENSORCORE_KERNELS_CUH

#include "maps.cuh"

template <class Map>
__global__ void k_tc_check(Map m, unsigned long long *stats)
{
    uint32_t x = 0, y = 0, rx = 0, ry = 0;
    const bool got = m.thread_cell(&x, &y);
    const bool ref = m.ref_cell(&rx, &ry);
    const bool bad = got != ref || (got && (x != rx || y != ry));
    const uint32_t lanes = block_warp_lanes(); /* a block of rho^2 = 16 or 81 threads ends in a partial warp */
    const uint32_t nbad = __popc(__ballot_sync(lanes, bad));
    const uint32_t ngot = __popc(__ballot_sync(lanes, got));
    if ((tc_tid() & 31) == 0) {
        if (nbad) {
            atomicAdd(&stats[0], (unsigned long long)nbad);
            atomicMin(&stats[2], (unsigned long long)blockIdx.y * gridDim.x + blockIdx.x);
        }
        if (ngot) atomicAdd(&stats[1], (unsigned long long)ngot);
    }
}

/* Runs k_tc_check over m's whole launch on stream st and returns its stats (see above):
 * st[0] threads that differ, st[1] threads with a cell, st[2] first bad block (~0: none). */
template <class Map>
static inline void tc_check_stats(const Map &m, cudaStream_t st, unsigned long long stats[3])
{
    unsigned long long *d;
    stats[0] = stats[1] = 0;
    stats[2] = ~0ull;
    CHECK_CUDA(cudaMalloc(&d, 3 * sizeof *d));
    CHECK_CUDA(cudaMemcpy(d, stats, 3 * sizeof *d, cudaMemcpyHostToDevice));
    k_tc_check<Map><<<m.grid, m.block, 0, st>>>(m, d);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaStreamSynchronize(st));
    CHECK_CUDA(cudaMemcpy(stats, d, 3 * sizeof *d, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(d));
}

template <class Map>
__global__ void k_tc_record(Map m, uint32_t *out)
{
    uint32_t x = 0, y = 0;
    const bool got = m.thread_cell(&x, &y);
    const size_t t = (((size_t)blockIdx.y * gridDim.x + blockIdx.x) * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    out[3 * t] = x;
    out[3 * t + 1] = y;
    out[3 * t + 2] = got;
}

#endif
