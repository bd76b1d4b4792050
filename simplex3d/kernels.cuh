/* simplex3d/kernels.cuh -- the test kernels, one template per (map, work), and their launch dispatch.
 * The kernels are ours (neither paper times 3D), modelled on arXiv:1609.01490 sec. 5 and using its sec. 6 layout.
 *
 * Every kernel: block (blockIdx) -> ordered block (bx, by, bz) through the map (map.h; a
 * block with no work returns at once), thread t = tx + rho (ty + rho tz) of a 1D block of
 * rho^3 threads -> cell (bx rho + tx, by rho + ty, bz rho + tz), kept iff x <= y <= z < n
 * (rho = 1, 2, 4 or 8, chosen at run time; blocks wholly inside skip the test).
 * Work:
 *   S3_MAP      the map alone, no store instruction: the cell's x + y + z compared with a
 *               run-time value it never takes, the branch to a trap that never executes (as
 *               simplex2d's k_map; ptxas deletes any computation that reaches no side effect)
 *   S3_EMPTY    no map, nothing: the launch of the map's grid alone (the floor of any
 *               kernel on that grid)
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
 * of the whole blocked buffer (inside cells once, every other element untouched); k_fill16 and
 * k_check_fill16: the write ceiling and its check; k_check_untouched: the empty kernel's (it wrote
 * nothing). */
#ifndef SIMPLEX3D_KERNELS_CUH
#define SIMPLEX3D_KERNELS_CUH

#include "../common/check.h"
#include "map.h"
#include "triplet.h"

enum { S3_DUMMY = 0, S3_WRITE, S3_COUNT, S3_TRIPLET, S3_CHECK_COUNT, S3_CHECK_WRITE, S3_MAP, S3_EMPTY };

typedef struct {
    uint32_t *out;                 /* cells, blocked layout (write, count, checks) */
    const double *pos;             /* triplet: 3 N doubles */
    uint32_t npart;                /* triplet: N = n + 2 */
    double *energy;                /* triplet: the sum */
    unsigned long long *wrong;     /* checks: mismatch count */
    uint64_t magic;                /* dummy: an element index no cell has (~0) */
    uint32_t sentinel;             /* map: a value x + y + z never takes (~0; x + y + z < 3n) */
} s3_args;

/* The value the write kernel stores at element idx of the blocked layout: the index's low 31
 * bits (one instruction), distinct for the 2^31 elements of any buffer up to 8 GiB and never
 * the 0xFF poison. */
static __host__ __device__ inline uint32_t s3_elem_value(uint64_t idx)
{
    return (uint32_t)idx & 0x7FFFFFFFu;
}

/* Sum of v over the W lanes of a warp (W a power of two <= 32), by xor shuffles: every lane
 * gets the sum.  W < 32 only for blocks of exactly W threads (the mask names lanes 0..W-1). */
template <int W>
static __device__ __forceinline__ double s3_warp_sum(double v)
{
    constexpr unsigned mask = W >= 32 ? 0xffffffffu : (1u << W) - 1u;
    for (int off = W / 2; off > 0; off >>= 1) v += __shfl_xor_sync(mask, v, off, W);
    return v;
}

/* Where the map is evaluated (run-time choice, --eval):
 *   S3_EVAL_THREAD  every thread evaluates map(blockIdx) itself, as [NL]'s 2D kernels do (the
 *                   papers time no 3D kernel);
 *   S3_EVAL_BLOCK   thread 0 evaluates it once, with the block's base element and whether the
 *                   block lies wholly inside D_n, and broadcasts them through shared memory
 *                   (one barrier).  Same map, same launch grid; the per-thread filter is then
 *                   only needed in the blocks that cut the domain's boundary.
 * bb's test (bx <= by <= bz) is made by every thread from blockIdx in both cases, so its
 * empty blocks return before any barrier. */
enum { S3_EVAL_THREAD = 0, S3_EVAL_BLOCK = 1 };

/* The block-uniform part of a map block (the per-thread audit: computed once per block, or
 * once per warp, never redone per thread): its first cell (bx, by, bz) rho, its first element
 * packed(bx, by, bz) rho^3 of the blocked layout, and whether it lies wholly inside D_n. */
typedef struct {
    uint64_t base;
    uint32_t x0, y0, z0, full;
} s3_blockinfo;

/* 1 and the block's s3_blockinfo, or 0 (no work).  rho = 2^LR is a compile-time constant.
 * BASE = 0 (the map kernel, which addresses no memory) leaves the layout's index out;
 * E32 = 1 (launched only where p.elem32 holds) computes it in 32 bits, with no run-time test. */
template <int MAP, int LR, int BASE, int E32>
static __device__ __forceinline__ int s3_block_info(const s3_params &p, uint32_t ix, uint32_t iy, uint32_t iz,
                                                    s3_blockinfo *b)
{
    uint32_t bx, by, bz;
    if (!s3_block(MAP, &p, ix, iy, iz, &bx, &by, &bz)) return 0;
    b->x0 = bx << LR, b->y0 = by << LR, b->z0 = bz << LR;
    b->full = s3_block_full(bx, by, bz, 1u << LR, p.n);
    if (!BASE) b->base = 0;
    else if (E32) b->base = s3_packed32(bx, by, bz) << (3 * LR);
    else b->base = s3_packed_block(&p, bx, by, bz) << (3 * LR);
    return 1;
}

/* The per-cell kernels (dummy, write, triplet; ours, modelled on [NL]'s 2D test kernels) and
 * the checks: one thread per cell, blocks of
 * rho^3 = 2^(3 LR) threads, rho a template parameter (chosen at run time by s3_launch_map).
 * E32: element indices in 32 bits (the layout fits: p.elem32), for write, dummy and count. */
template <int MAP, int WORK, int EVAL, int LR, int E32 = 0>
__global__ void __launch_bounds__(1 << (3 * LR)) k_map(s3_params p, s3_args a)
{
    constexpr uint32_t RHO = 1u << LR, R3 = 1u << (3 * LR), M = RHO - 1;
    constexpr int BASE = WORK != S3_MAP;
    if (WORK == S3_EMPTY) return;
    if (MAP == S3_BB && !(blockIdx.x <= blockIdx.y && blockIdx.y <= blockIdx.z)) return;
    const uint32_t t = threadIdx.x;
    s3_blockinfo b;
    if (EVAL == S3_EVAL_BLOCK) {
        __shared__ s3_blockinfo s_b;
        __shared__ int s_ok;
        if (t == 0) s_ok = s3_block_info<MAP, LR, BASE, E32>(p, blockIdx.x, blockIdx.y, blockIdx.z, &s_b);
        __syncthreads();
        if (!s_ok) return;
        b = s_b;
    } else if (!s3_block_info<MAP, LR, BASE, E32>(p, blockIdx.x, blockIdx.y, blockIdx.z, &b)) {
        return;
    }
    /* the cell of this thread: t = tx + rho (ty + rho tz) */
    const uint32_t tx = t & M, ty = (t >> LR) & M, tz = t >> (2 * LR);
    const uint32_t x = b.x0 + tx, y = b.y0 + ty, z = b.z0 + tz;
    if (WORK == S3_TRIPLET) {
        __shared__ double sp[3][RHO][3];
        __shared__ double red[R3 / 32 > 0 ? R3 / 32 : 1];
        for (uint32_t u = t; u < 3 * RHO; u += R3) { /* particles x0.., y0 + 1.., z0 + 2.. */
            uint32_t r = u >> LR, o = u & M;
            uint32_t pi = (r == 0 ? b.x0 : r == 1 ? b.y0 : b.z0) + r + o;
            for (int d = 0; d < 3; d++) sp[r][o][d] = pi < a.npart ? a.pos[3 * (size_t)pi + d] : 0.0;
        }
        __syncthreads();
        double e = 0.0;
        if (b.full || s3_cell_inside(x, y, z, p.n))
            e = at_energy(sp[0][tx][0], sp[0][tx][1], sp[0][tx][2], sp[1][ty][0], sp[1][ty][1], sp[1][ty][2],
                          sp[2][tz][0], sp[2][tz][1], sp[2][tz][2]);
        /* block sum: within each warp by shuffles, then the warps' sums by warp 0 */
        e = s3_warp_sum<(R3 < 32 ? R3 : 32)>(e);
        if constexpr (R3 <= 32) {
            if (t == 0) atomicAdd(a.energy, e);
        } else {
            if ((t & 31) == 0) red[t >> 5] = e;
            __syncthreads();
            if (t < 32) {
                e = t < R3 / 32 ? red[t] : 0.0;
                e = s3_warp_sum<32>(e);
                if (t == 0) atomicAdd(a.energy, e);
            }
        }
        return;
    }
    if (!b.full && !s3_cell_inside(x, y, z, p.n)) return;
    if (WORK == S3_MAP) {
        if (x + y + z == a.sentinel) __trap();
        return;
    }
    if (E32) { /* the element index in 32 bits, one wide multiply-add for the address */
        const uint32_t e = (uint32_t)b.base + t;
        if (WORK == S3_DUMMY && e == (uint32_t)a.magic) a.out[0] = x + y + z; /* magic: ~0, past any e */
        if (WORK == S3_WRITE) a.out[e] = s3_elem_value(e);
        if (WORK == S3_COUNT) atomicAdd(&a.out[e], 1u);
        return;
    }
    uint32_t *const blk = a.out + b.base; /* the block's rho^3 elements (block-uniform) */
    if (WORK == S3_DUMMY) {
        if (b.base + t == a.magic) a.out[0] = x + y + z;
    } else if (WORK == S3_WRITE) {
        blk[t] = s3_elem_value(b.base + t);
    } else if (WORK == S3_COUNT) {
        atomicAdd(&blk[t], 1u);
    } else if (WORK == S3_CHECK_COUNT) {
        if (blk[t] != 1u) atomicAdd(a.wrong, 1ull);
    } else if (WORK == S3_CHECK_WRITE) {
        if (blk[t] != s3_elem_value(b.base + t)) atomicAdd(a.wrong, 1ull);
    }
}

/* The coarsened kernels (ours; map.h, s3_coarse_block): 2^lc map blocks per CUDA block,
 * 2^ltpm threads per map block, each thread evaluates the map itself (no shared memory, no
 * barrier); rho = 2^LR >= 2 a template parameter.  WORK:
 *   S3_WRITE    16-byte chunks of the map block's rho^3 contiguous elements: a chunk whose
 *               four cells all lie in D_n (every chunk of a block wholly inside) takes one
 *               uint4 store, the others store their inside elements one by one;
 *   S3_COUNT    atomicAdd +1 per cell (the exactly-once check), same chunks;
 *   S3_DUMMY    the same loop over the chunks and their masks, and a store that never
 *               happens but depends on them (the write without its memory traffic);
 *   S3_TRIPLET  the Axilrod-Teller energy of the map block's cells, strided over its
 *               threads, particles read from global memory (no staging), a warp sum and one
 *               atomicAdd per warp.
 * Launched with the bb map it is the coarsened bounding box: same body, only the map differs. */
template <int MAP, int WORK, int LR>
__global__ void k_coarse(s3_params p, s3_args a, uint32_t lc, uint32_t ltpm)
{
    constexpr uint32_t R3 = 1u << (3 * LR), NCH = R3 / 4;
    const uint32_t t = threadIdx.x, tpm = 1u << ltpm;
    uint32_t bx, by, bz;
    const int ok = s3_coarse_block(MAP, &p, lc, ltpm, blockIdx.x, blockIdx.y, blockIdx.z, t, &bx, &by, &bz);
    const int full = ok && s3_block_full(bx, by, bz, 1u << LR, p.n);
    if (WORK == S3_TRIPLET) { /* every thread takes part in the warp sum: no early return */
        double e = 0.0;
        if (ok)
            for (uint32_t c = t & (tpm - 1); c < R3; c += tpm) {
                uint32_t x, y, z;
                s3_elem_cell(bx, by, bz, LR, c, &x, &y, &z);
                if (!full && !s3_cell_inside(x, y, z, p.n)) continue;
                const double *pi = a.pos + 3 * (size_t)x, *pj = a.pos + 3 * (size_t)(y + 1), *pk = a.pos + 3 * (size_t)(z + 2);
                e += at_energy(pi[0], pi[1], pi[2], pj[0], pj[1], pj[2], pk[0], pk[1], pk[2]);
            }
        const uint32_t nthr = 1u << (lc + ltpm);
        if (nthr >= 32) e = s3_warp_sum<32>(e);
        else if (nthr == 16) e = s3_warp_sum<16>(e);
        else if (nthr == 8) e = s3_warp_sum<8>(e);
        else if (nthr == 4) e = s3_warp_sum<4>(e);
        else if (nthr == 2) e = s3_warp_sum<2>(e);
        if ((t & 31) == 0 && e != 0.0) atomicAdd(a.energy, e);
        return;
    }
    if (!ok) return;
    const uint64_t base = s3_packed_block(&p, bx, by, bz) << (3 * LR);
    uint32_t *const blk = a.out + base; /* the map block's rho^3 elements */
#pragma unroll 4
    for (uint32_t ch = t & (tpm - 1); ch < NCH; ch += tpm) {
        const uint32_t mask = full ? 0xFu : s3_chunk_mask(bx, by, bz, LR, p.n, ch);
        const uint64_t e = base + 4 * ch;
        if (WORK == S3_DUMMY) {
            if (mask && e == a.magic) a.out[0] = mask;
            continue;
        }
        if (WORK == S3_WRITE && mask == 0xFu) {
            *(uint4 *)(blk + 4 * ch) = make_uint4(s3_elem_value(e), s3_elem_value(e + 1), s3_elem_value(e + 2),
                                                  s3_elem_value(e + 3));
            continue;
        }
        for (uint32_t k = 0; k < 4; k++) {
            if (!((mask >> k) & 1u)) continue;
            if (WORK == S3_WRITE) blk[4 * ch + k] = s3_elem_value(e + k);
            else atomicAdd(&blk[4 * ch + k], 1u);
        }
    }
}

/* ---- launching: the run-time (map, eval, work, rho) picks the template instance ------- */
template <int MAP, int EVAL, int LR>
static void s3_launch_map3(int work, dim3 g, cudaStream_t s, const s3_params &p, const s3_args &a)
{
    const dim3 b(1u << (3 * LR));
    switch (work) {
    case S3_MAP: k_map<MAP, S3_MAP, EVAL, LR><<<g, b, 0, s>>>(p, a); break;
    case S3_EMPTY: k_map<MAP, S3_EMPTY, EVAL, LR><<<g, b, 0, s>>>(p, a); break;
    case S3_DUMMY:
        if (p.elem32) k_map<MAP, S3_DUMMY, EVAL, LR, 1><<<g, b, 0, s>>>(p, a);
        else k_map<MAP, S3_DUMMY, EVAL, LR><<<g, b, 0, s>>>(p, a);
        break;
    case S3_WRITE:
        if (p.elem32) k_map<MAP, S3_WRITE, EVAL, LR, 1><<<g, b, 0, s>>>(p, a);
        else k_map<MAP, S3_WRITE, EVAL, LR><<<g, b, 0, s>>>(p, a);
        break;
    case S3_COUNT:
        if (p.elem32) k_map<MAP, S3_COUNT, EVAL, LR, 1><<<g, b, 0, s>>>(p, a);
        else k_map<MAP, S3_COUNT, EVAL, LR><<<g, b, 0, s>>>(p, a);
        break;
    case S3_TRIPLET: k_map<MAP, S3_TRIPLET, EVAL, LR><<<g, b, 0, s>>>(p, a); break;
    case S3_CHECK_COUNT: /* the checks run with the bb map, per-thread evaluation only */
    case S3_CHECK_WRITE:
        if constexpr (MAP == S3_BB && EVAL == S3_EVAL_THREAD) {
            if (work == S3_CHECK_COUNT) k_map<MAP, S3_CHECK_COUNT, EVAL, LR><<<g, b, 0, s>>>(p, a);
            else k_map<MAP, S3_CHECK_WRITE, EVAL, LR><<<g, b, 0, s>>>(p, a);
        } else {
            DIE("internal: the checks run with --map=bb, per-thread evaluation");
        }
        break;
    default: DIE("internal: work %d", work);
    }
}

template <int MAP, int EVAL>
static void s3_launch_map2(int work, dim3 g, cudaStream_t s, const s3_params &p, const s3_args &a)
{
    switch (p.lrho) {
    case 0: s3_launch_map3<MAP, EVAL, 0>(work, g, s, p, a); break;
    case 1: s3_launch_map3<MAP, EVAL, 1>(work, g, s, p, a); break;
    case 2: s3_launch_map3<MAP, EVAL, 2>(work, g, s, p, a); break;
    case 3: s3_launch_map3<MAP, EVAL, 3>(work, g, s, p, a); break;
    default: DIE("internal: rho = 2^%u", p.lrho);
    }
}

template <int MAP>
static void s3_launch_map1(int eval, int work, dim3 g, cudaStream_t s, const s3_params &p, const s3_args &a)
{
    if (eval == S3_EVAL_BLOCK) s3_launch_map2<MAP, S3_EVAL_BLOCK>(work, g, s, p, a);
    else s3_launch_map2<MAP, S3_EVAL_THREAD>(work, g, s, p, a);
}

/* One launch of k_map over the grid g x p.rho^3 threads. */
static void s3_launch_map(int map, int eval, int work, dim3 g, cudaStream_t s, const s3_params &p, const s3_args &a)
{
    switch (map) {
    case S3_BB: s3_launch_map1<S3_BB>(eval, work, g, s, p, a); break;
    case S3_LAMBDA_CUBIC: s3_launch_map1<S3_LAMBDA_CUBIC>(eval, work, g, s, p, a); break;
    case S3_LAMBDA_EXACT: s3_launch_map1<S3_LAMBDA_EXACT>(eval, work, g, s, p, a); break;
    case S3_RECURSIVE_LOG: s3_launch_map1<S3_RECURSIVE_LOG>(eval, work, g, s, p, a); break;
    case S3_RECURSIVE_O1: s3_launch_map1<S3_RECURSIVE_O1>(eval, work, g, s, p, a); break;
    case S3_RECURSIVE_O1B: s3_launch_map1<S3_RECURSIVE_O1B>(eval, work, g, s, p, a); break;
    default: DIE("internal: map %d", map);
    }
}

template <int MAP, int LR>
static void s3_launch_coarse2(int work, dim3 g, dim3 b, cudaStream_t s, const s3_params &p, const s3_args &a,
                              uint32_t lc, uint32_t ltpm)
{
    switch (work) {
    case S3_WRITE: k_coarse<MAP, S3_WRITE, LR><<<g, b, 0, s>>>(p, a, lc, ltpm); break;
    case S3_COUNT: k_coarse<MAP, S3_COUNT, LR><<<g, b, 0, s>>>(p, a, lc, ltpm); break;
    case S3_DUMMY: k_coarse<MAP, S3_DUMMY, LR><<<g, b, 0, s>>>(p, a, lc, ltpm); break;
    case S3_TRIPLET: k_coarse<MAP, S3_TRIPLET, LR><<<g, b, 0, s>>>(p, a, lc, ltpm); break;
    default: DIE("internal: coarse work %d", work);
    }
}

template <int MAP>
static void s3_launch_coarse1(int work, dim3 g, dim3 b, cudaStream_t s, const s3_params &p, const s3_args &a,
                              uint32_t lc, uint32_t ltpm)
{
    switch (p.lrho) {
    case 1: s3_launch_coarse2<MAP, 1>(work, g, b, s, p, a, lc, ltpm); break;
    case 2: s3_launch_coarse2<MAP, 2>(work, g, b, s, p, a, lc, ltpm); break;
    case 3: s3_launch_coarse2<MAP, 3>(work, g, b, s, p, a, lc, ltpm); break;
    default: DIE("internal: coarse kernels need rho = 2, 4 or 8 (rho = 2^%u)", p.lrho);
    }
}

/* One launch of k_coarse: the coarse grid ceil(gx / 2^lc) x gy x gz of 2^(lc + ltpm) threads. */
static void s3_launch_coarse(int map, int work, cudaStream_t s, const s3_params &p, const s3_args &a, uint32_t lc,
                             uint32_t ltpm)
{
    const dim3 g((p.gx + (1u << lc) - 1) >> lc, p.gy, p.gz), b(1u << (lc + ltpm));
    switch (map) {
    case S3_BB: s3_launch_coarse1<S3_BB>(work, g, b, s, p, a, lc, ltpm); break;
    case S3_LAMBDA_CUBIC: s3_launch_coarse1<S3_LAMBDA_CUBIC>(work, g, b, s, p, a, lc, ltpm); break;
    case S3_LAMBDA_EXACT: s3_launch_coarse1<S3_LAMBDA_EXACT>(work, g, b, s, p, a, lc, ltpm); break;
    case S3_RECURSIVE_LOG: s3_launch_coarse1<S3_RECURSIVE_LOG>(work, g, b, s, p, a, lc, ltpm); break;
    case S3_RECURSIVE_O1: s3_launch_coarse1<S3_RECURSIVE_O1>(work, g, b, s, p, a, lc, ltpm); break;
    case S3_RECURSIVE_O1B: s3_launch_coarse1<S3_RECURSIVE_O1B>(work, g, b, s, p, a, lc, ltpm); break;
    default: DIE("internal: map %d", map);
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

/* The empty kernel's check: the elements [0, nelem) that no longer hold the 0xFF poison. */
__global__ void k_check_untouched(const uint32_t *out, uint64_t nelem, unsigned long long *wrong)
{
    unsigned long long bad = 0;
    for (uint64_t e = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; e < nelem; e += (uint64_t)gridDim.x * blockDim.x)
        bad += out[e] != 0xFFFFFFFFu;
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

/* Counts the 16-byte elements k_fill16 did not write as it should. */
__global__ void k_check_fill16(const uint4 *a, size_t n16, unsigned long long *wrong)
{
    unsigned long long bad = 0;
    for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < n16; v += (size_t)gridDim.x * blockDim.x) {
        const uint4 e = a[v];
        bad += e.x != (uint32_t)v || e.y != 1u || e.z != 2u || e.w != 3u;
    }
    if (bad) atomicAdd(wrong, bad);
}

#endif
