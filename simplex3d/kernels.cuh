/* simplex3d/kernels.cuh -- the test kernels, one template per (map, work).
 *
 * Every kernel: block (blockIdx) -> ordered block (bx, by, bz) through the map (map.h; a
 * block with no work returns at once, before any shared memory or barrier), thread ->
 * cell (bx rho + tx, by rho + ty, bz rho + tz), kept iff x <= y <= z < n.  rho = blockDim.x
 * (blocks are rho^3 threads, rho = 1, 2, 4 or 8: chosen at run time).
 * Work:
 *   S3_DUMMY    the map's cost only: a store that never happens but depends on the cell
 *               (as in [NL] sec. 4.1, without the memory traffic)
 *   S3_WRITE    one 4-byte write per cell, into the blocked layout: element
 *               Tet-packed(bx, by, bz) * rho^3 + thread (blocks of a block tetrahedron
 *               stored contiguously, [NL] sec. 6 "block-level data re-organization")
 *   S3_COUNT    atomicAdd(+1) per cell, same layout: the exactly-once check on the device
 *   S3_TRIPLET  Axilrod-Teller energy of triplet (x, y+1, z+2), particles of the block's
 *               three index ranges staged in shared memory, block sum, one atomicAdd
 * Checks (launched with the bb map): k_check_* count the cells whose element differs. */
#ifndef SIMPLEX3D_KERNELS_CUH
#define SIMPLEX3D_KERNELS_CUH

#include "map.h"
#include "triplet.h"

enum { S3_DUMMY = 0, S3_WRITE, S3_COUNT, S3_TRIPLET, S3_CHECK_COUNT, S3_CHECK_WRITE };

#define S3_MAX_RHO 8

typedef struct {
    uint32_t *out;                 /* cells, blocked layout (write, count, checks) */
    const double *pos;             /* triplet: 3 N doubles */
    uint32_t npart;                /* triplet: N = n + 2 */
    double *energy;                /* triplet: the sum */
    unsigned long long *wrong;     /* checks: mismatch count */
    uint32_t magic;                /* dummy: a value no cell produces */
} s3_args;

/* The value the write kernel stores at cell (x, y, z): distinct per cell. */
static __host__ __device__ inline uint32_t s3_cell_value(uint32_t x, uint32_t y, uint32_t z)
{
    return (x * 2654435761u) ^ (y * 2246822519u) ^ (z * 3266489917u) ^ 0x5bd1e995u;
}

template <int MAP, int WORK>
__global__ void k_map(s3_params p, s3_args a)
{
    uint32_t bx, by, bz;
    if (!s3_block(MAP, &p, blockIdx.x, blockIdx.y, blockIdx.z, &bx, &by, &bz)) return;
    const uint32_t rho = blockDim.x;
    const uint32_t x = bx * rho + threadIdx.x, y = by * rho + threadIdx.y, z = bz * rho + threadIdx.z;
    const int inside = s3_cell_inside(x, y, z, p.n);
    const uint32_t t = threadIdx.x + rho * (threadIdx.y + rho * threadIdx.z);
    if (WORK == S3_TRIPLET) {
        __shared__ double sp[3][S3_MAX_RHO][3];
        __shared__ double red[S3_MAX_RHO * S3_MAX_RHO * S3_MAX_RHO];
        for (uint32_t u = t; u < 3 * rho; u += rho * rho * rho) { /* bx rho.., by rho + 1.., bz rho + 2.. */
            uint32_t r = u / rho, o = u % rho;
            uint32_t idx = (r == 0 ? bx : r == 1 ? by : bz) * rho + r + o;
            for (int d = 0; d < 3; d++) sp[r][o][d] = idx < a.npart ? a.pos[3 * (size_t)idx + d] : 0.0;
        }
        __syncthreads();
        double e = 0.0;
        if (inside)
            e = at_energy(sp[0][threadIdx.x][0], sp[0][threadIdx.x][1], sp[0][threadIdx.x][2],
                          sp[1][threadIdx.y][0], sp[1][threadIdx.y][1], sp[1][threadIdx.y][2],
                          sp[2][threadIdx.z][0], sp[2][threadIdx.z][1], sp[2][threadIdx.z][2]);
        red[t] = e;
        __syncthreads();
        for (uint32_t s = rho * rho * rho / 2; s > 0; s >>= 1) {
            if (t < s) red[t] += red[t + s];
            __syncthreads();
        }
        if (t == 0) atomicAdd(a.energy, red[0]);
        return;
    }
    if (!inside) return;
    const size_t idx = (size_t)s3_packed(bx, by, bz) * rho * rho * rho + t;
    if (WORK == S3_DUMMY) {
        if ((x ^ y ^ z) == a.magic) a.out[0] = x + y + z;
    } else if (WORK == S3_WRITE) {
        a.out[idx] = s3_cell_value(x, y, z);
    } else if (WORK == S3_COUNT) {
        atomicAdd(&a.out[idx], 1u);
    } else if (WORK == S3_CHECK_COUNT) {
        if (a.out[idx] != 1u) atomicAdd(a.wrong, 1ull);
    } else if (WORK == S3_CHECK_WRITE) {
        if (a.out[idx] != s3_cell_value(x, y, z)) atomicAdd(a.wrong, 1ull);
    }
}

/* The first block index lambda-cubic gets wrong on this GPU (compared with lambda-exact). */
__global__ void k_cubic_first_fail(uint64_t wmax, unsigned long long *first)
{
    for (uint64_t w = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; w < wmax;
         w += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t i, j, k, i2, j2, k2;
        s3_lambda_cubic_ijk(w, &i, &j, &k);
        s3_lambda_exact_ijk(w, &i2, &j2, &k2);
        if (i != i2 || j != j2 || k != k2) atomicMin(first, (unsigned long long)w);
    }
}

/* The write ceiling on this GPU: 16-byte stores over the buffer. */
__global__ void k_fill16(uint4 *a, size_t n16)
{
    for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < n16; v += (size_t)gridDim.x * blockDim.x)
        a[v] = make_uint4((uint32_t)v, 1u, 2u, 3u);
}

#endif
