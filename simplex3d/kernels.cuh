/* simplex3d/kernels.cuh -- the test kernels, one template per (map, work).
 *
 * Every kernel: block (blockIdx) -> ordered block (bx, by, bz) through the map (map.h; a
 * block with no work returns at once), thread t = tx + rho (ty + rho tz) of a 1D block of
 * rho^3 threads -> cell (bx rho + tx, by rho + ty, bz rho + tz), kept iff x <= y <= z < n
 * (rho = 1, 2, 4 or 8, chosen at run time; blocks wholly inside skip the test).
 * Work:
 *   S3_DUMMY    the map's cost only: a store that never happens but depends on the cell
 *               (as in [NL] sec. 4.1, without the memory traffic)
 *   S3_WRITE    one 4-byte write per cell, into the blocked layout: element
 *               Tet-packed(bx, by, bz) * rho^3 + t (the blocks of the block tetrahedron
 *               stored contiguously, [NL] sec. 6 "block-level data re-organization");
 *               value s3_elem_value(element)
 *   S3_COUNT    atomicAdd(+1) per cell, same layout: the exactly-once check on the device
 *   S3_TRIPLET  Axilrod-Teller energy of triplet (x, y+1, z+2), particles of the block's
 *               three index ranges staged in shared memory, block sum, one atomicAdd
 * Checks (launched with the bb map): k_check_* count the cells whose element differs.
 * k_coarse<map, work>: the write-coarse kernel (ours, see map.h): several map blocks per
 * CUDA block, the map evaluated per thread, 16-byte stores; k_check_elems: the strict check
 * of the whole blocked buffer (inside cells once, every other element untouched). */
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
    uint64_t magic;                /* dummy: an element index no cell has (~0) */
} s3_args;

/* The value the write kernel stores at element idx of the blocked layout: an odd-multiplier
 * hash, below 2^31 so it never equals the 0xFF poison. */
static __host__ __device__ inline uint32_t s3_elem_value(uint64_t idx)
{
    return ((uint32_t)idx * 2654435761u) >> 1;
}

/* Where the map is evaluated (run-time choice, --eval):
 *   S3_EVAL_THREAD  every thread evaluates map(blockIdx) itself, as the papers' kernels do;
 *   S3_EVAL_BLOCK   thread 0 evaluates it once, with the block's base element and whether the
 *                   block lies wholly inside D_n, and broadcasts them through shared memory
 *                   (one barrier).  Same map, same launch grid; the per-thread filter is then
 *                   only needed in the blocks that cut the domain's boundary.
 * bb's test (bx <= by <= bz) is made by every thread from blockIdx in both cases, so its
 * empty blocks return before any barrier. */
enum { S3_EVAL_THREAD = 0, S3_EVAL_BLOCK = 1 };

template <int MAP, int WORK, int EVAL>
__global__ void k_map(s3_params p, s3_args a)
{
    if (MAP == S3_BB && !(blockIdx.x <= blockIdx.y && blockIdx.y <= blockIdx.z)) return;
    const uint32_t t = threadIdx.x, rho = p.rho, lr = p.lrho, r3 = rho * rho * rho;
    uint32_t bx, by, bz, full;
    uint64_t base;
    if (EVAL == S3_EVAL_BLOCK) {
        __shared__ uint64_t s_base;
        __shared__ uint32_t s_b[5];
        if (t == 0) {
            uint32_t x, y, z;
            uint32_t ok = s3_block(MAP, &p, blockIdx.x, blockIdx.y, blockIdx.z, &x, &y, &z);
            s_b[0] = x, s_b[1] = y, s_b[2] = z, s_b[3] = ok;
            s_b[4] = x < y && y < z && (z + 1) * rho <= p.n;
            s_base = ok ? s3_packed(x, y, z) << (3 * lr) : 0;
        }
        __syncthreads();
        if (!s_b[3]) return;
        bx = s_b[0], by = s_b[1], bz = s_b[2], full = s_b[4], base = s_base;
    } else {
        if (!s3_block(MAP, &p, blockIdx.x, blockIdx.y, blockIdx.z, &bx, &by, &bz)) return;
        full = bx < by && by < bz && (bz + 1) * rho <= p.n;
        base = s3_packed(bx, by, bz) << (3 * lr);
    }
    const uint64_t idx = base + t;
    /* the cell of this thread: t = tx + rho (ty + rho tz) */
    const uint32_t x = (bx << lr) + (t & (rho - 1)), y = (by << lr) + ((t >> lr) & (rho - 1)), z = (bz << lr) + (t >> (2 * lr));
    if (WORK == S3_TRIPLET) {
        __shared__ double sp[3][S3_MAX_RHO][3];
        __shared__ double red[S3_MAX_RHO * S3_MAX_RHO * S3_MAX_RHO];
        for (uint32_t u = t; u < 3 * rho; u += r3) { /* particles bx rho.., by rho + 1.., bz rho + 2.. */
            uint32_t r = u >> lr, o = u & (rho - 1);
            uint32_t pi = ((r == 0 ? bx : r == 1 ? by : bz) << lr) + r + o;
            for (int d = 0; d < 3; d++) sp[r][o][d] = pi < a.npart ? a.pos[3 * (size_t)pi + d] : 0.0;
        }
        __syncthreads();
        double e = 0.0;
        if (full || s3_cell_inside(x, y, z, p.n)) {
            const uint32_t tx = t & (rho - 1), ty = (t >> lr) & (rho - 1), tz = t >> (2 * lr);
            e = at_energy(sp[0][tx][0], sp[0][tx][1], sp[0][tx][2], sp[1][ty][0], sp[1][ty][1], sp[1][ty][2],
                          sp[2][tz][0], sp[2][tz][1], sp[2][tz][2]);
        }
        red[t] = e;
        __syncthreads();
        for (uint32_t s = r3 / 2; s > 0; s >>= 1) {
            if (t < s) red[t] += red[t + s];
            __syncthreads();
        }
        if (t == 0) atomicAdd(a.energy, red[0]);
        return;
    }
    if (!full && !s3_cell_inside(x, y, z, p.n)) return;
    if (WORK == S3_DUMMY) {
        if (idx == a.magic) a.out[0] = x + y + z;
    } else if (WORK == S3_WRITE) {
        a.out[idx] = s3_elem_value(idx);
    } else if (WORK == S3_COUNT) {
        atomicAdd(&a.out[idx], 1u);
    } else if (WORK == S3_CHECK_COUNT) {
        if (a.out[idx] != 1u) atomicAdd(a.wrong, 1ull);
    } else if (WORK == S3_CHECK_WRITE) {
        if (a.out[idx] != s3_elem_value(idx)) atomicAdd(a.wrong, 1ull);
    }
}

/* write-coarse (ours; map.h, s3_coarse_block): 2^lc map blocks per CUDA block, 2^ltpm threads
 * per map block, each thread evaluates the map itself (no shared memory, no barrier) and
 * writes 16-byte chunks of its map block's rho^3 contiguous elements.  Chunks whose four
 * cells all lie in D_n (every chunk of a block wholly inside) take one uint4 store; the
 * others store their inside elements one by one.  WORK: S3_WRITE (values s3_elem_value),
 * S3_COUNT (atomicAdd +1 per cell: the exactly-once check).  Launched with the bb map it is
 * the coarsened bounding box: same body, only the map differs. */
template <int MAP, int WORK>
__global__ void k_coarse(s3_params p, s3_args a, uint32_t lc, uint32_t ltpm)
{
    const uint32_t t = threadIdx.x;
    uint32_t bx, by, bz;
    if (!s3_coarse_block(MAP, &p, lc, ltpm, blockIdx.x, blockIdx.y, blockIdx.z, t, &bx, &by, &bz)) return;
    const uint32_t lr = p.lrho, nch = 1u << (3 * lr - 2), tpm = 1u << ltpm;
    const int full = s3_block_full(bx, by, bz, p.rho, p.n);
    const uint64_t base = s3_packed(bx, by, bz) << (3 * lr);
#pragma unroll 4
    for (uint32_t ch = t & (tpm - 1); ch < nch; ch += tpm) {
        const uint64_t e = base + 4 * ch;
        const uint32_t mask = full ? 0xFu : s3_chunk_mask(bx, by, bz, lr, p.n, ch);
        if (WORK == S3_WRITE && mask == 0xFu) {
            *(uint4 *)(a.out + e) = make_uint4(s3_elem_value(e), s3_elem_value(e + 1), s3_elem_value(e + 2),
                                               s3_elem_value(e + 3));
            continue;
        }
        for (uint32_t k = 0; k < 4; k++) {
            if (!((mask >> k) & 1u)) continue;
            if (WORK == S3_WRITE) a.out[e + k] = s3_elem_value(e + k);
            else atomicAdd(&a.out[e + k], 1u);
        }
    }
}

/* The strict check of the whole blocked buffer after a count (what = 0) or write (what = 1)
 * run: every element of the Tet(nb) blocks holds 1 / s3_elem_value if its cell lies in D_n
 * and 0 / the 0xFF poison if not (nothing written outside the domain), and so does every
 * element of the guard zone [Tet(nb) rho^3, guard_end) past the blocks.  Block w of the
 * layout is the ordered block lambda-exact(w) (the packed order Tet(bz) + T(by) + bx). */
__global__ void k_check_elems(s3_params p, const uint32_t *out, int what, uint64_t guard_end,
                              unsigned long long *wrong)
{
    const uint32_t lr = p.lrho, r3 = 1u << (3 * lr);
    unsigned long long bad = 0;
    for (uint64_t w = blockIdx.x; w < p.tet_blocks; w += gridDim.x) {
        uint32_t bx, by, bz;
        s3_lambda_exact_ijk(w, &bx, &by, &bz);
        for (uint32_t t = threadIdx.x; t < r3; t += blockDim.x) {
            uint32_t x, y, z;
            s3_elem_cell(bx, by, bz, lr, t, &x, &y, &z);
            const uint64_t e = (w << (3 * lr)) + t;
            const uint32_t want = s3_cell_inside(x, y, z, p.n) ? (what ? s3_elem_value(e) : 1u) : (what ? 0xFFFFFFFFu : 0u);
            bad += out[e] != want;
        }
    }
    for (uint64_t e = (p.tet_blocks << (3 * lr)) + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; e < guard_end;
         e += (uint64_t)gridDim.x * blockDim.x)
        bad += out[e] != (what ? 0xFFFFFFFFu : 0u);
    if (bad) atomicAdd(wrong, bad);
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
