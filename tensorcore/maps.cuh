/* tensorcore/maps.cuh -- the tensor-core thread maps lambda_tc(omega) v1, v2, v3 (Quezada,
 * section 5.1-5.3), ours on mma.sync, and the controls, as Maps for fractals/kernels.cuh.
 *
 * A Map has `dim3 grid, block` and `__device__ bool thread_cell(x, y) const`, called by every
 * thread once at kernel start (warp-wide MMAs and barriers run inside it).
 *
 *   tc_v1_map    section 5.1: one WMMA 16x16x16 per block (warp 0), B in shared memory,
 *                D[0][0], D[0][1] shared with the block through shared memory (2 barriers)
 *   tc_v2_map    section 5.2: block = 4 logical sub-blocks of rho/2 x rho/2; one WMMA gives
 *                the 4 sub-blocks' coordinates (D[0][0..7]); extra sub-blocks return false
 *   tc_v3_map    section 5.3: A full of rho * powers, B_x / B_y with replicated digit
 *                columns, C = thread offsets: D holds every thread's coordinate; 2 WMMAs
 *                per 16 x 16 (and 8 x 8) block, 8 per 32 x 32 block (one per warp)
 *   tc_mma_map<PER_WARP>  ours (Hopper-friendly): variant 1's encoding with
 *                mma.sync.m16n8k16 on registers: no fragment loads, no shared B/D; 8 lanes
 *                extract 4 digits each (in parallel, not a serial chain), lane 0 gets lambda.
 *                PER_WARP=false ("mma"): warp 0 computes it, one barrier shares it;
 *                PER_WARP=true ("mma-warp"): every warp computes it, __shfl_sync, no barrier
 *   tc_v2r_map<false> ours ("v2-mma"): variant 2's 4 sub-blocks on ONE mma.sync m16n8k16
 *                (B's 8 columns = 4 sub-blocks x (x, y)), warp 0, one barrier
 *   tc_v2r_map<true>  control ("v2-lambda"): v2's sub-block layout, classic lambda per
 *                sub-block (threads 0..3), one barrier: what the sub-blocks alone give
 *   tc_redux_map<PER_WARP> control without tensor cores ("redux", "redux-warp"): lane mu-1
 *                extracts digit mu, two __reduce_add_sync sum lambda_x, lambda_y
 *   tc_table_map lambda precomputed on the host, one load per thread: the kernel with the
 *                map's arithmetic removed (map-cost measurement)
 *
 * Every map also has ref_cell(): the classic lambda (fractals/fractal.h, fractal_lambda_cell)
 * of the same logical block and local offset; k_tc_check (kernels.cuh) compares the two for
 * every thread of every block of a launch.
 *
 * Half inputs, float accumulation: exact for r <= 16, see mma.h ("EXACTNESS"). */
#ifndef TENSORCORE_MAPS_CUH
#define TENSORCORE_MAPS_CUH

#include <stdint.h>
#include <mma.h> /* CUDA's WMMA header (angle brackets: not tensorcore/mma.h) */
#include <cuda_fp16.h>
#include "../common/check.h"
#include "../fractals/kernels.cuh"
#include "mma.h"

#define TC_FULL_MASK 0xFFFFFFFFu

static __device__ __forceinline__ uint32_t tc_tid() { return threadIdx.y * blockDim.x + threadIdx.x; }

/* The classic reference for a block-level map: lambda of this block, same local offset. */
#define TC_REF_CELL_BLOCK                                                                          \
    __device__ bool ref_cell(uint32_t *x, uint32_t *y) const                                      \
    {                                                                                             \
        return fractal_lambda_cell(&L, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, x, y) != 0; \
    }

/* One 16x16x16 WMMA: D = A (row-major, global) x B (col-major, shared) + C, stored
 * row-major to shared memory.  C = 0 (HAS_C false) or loaded from Cg (row-major, global). */
template <bool HAS_C>
static __device__ __forceinline__ void tc_wmma(const __half *A, const __half *B, const float *Cg, float *D)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(a, A, TC_M);
    wmma::load_matrix_sync(b, B, TC_M);
    if constexpr (HAS_C) wmma::load_matrix_sync(c, Cg, TC_M, wmma::mem_row_major);
    else wmma::fill_fragment(c, 0.0f);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, TC_M, wmma::mem_row_major);
}

/* Variants 1 and 2: the block fills B (16 x 16, column-major, in shared memory) with
 * b_of(j, kk) = the entry of column j, row kk; warp 0 runs the one WMMA D = A x B; D (row-major,
 * shared memory) is returned to every thread.  Two barriers. */
template <class B_of>
static __device__ __forceinline__ const float *tc_wmma_block(const __half *A, const B_of &b_of)
{
    __shared__ __align__(32) __half sB[TC_M * TC_M];
    __shared__ __align__(32) float sD[TC_M * TC_M];
    const uint32_t tid = tc_tid(), nt = blockDim.x * blockDim.y;
    for (uint32_t e = tid; e < TC_M * TC_M; e += nt) sB[e] = __uint2half_rn(b_of(e >> 4, e & 15));
    __syncthreads();
    if (tid < 32) tc_wmma<false>(A, sB, NULL, sD); /* warp 0: the one MMA of the block */
    __syncthreads();
    return sD;
}

/* ---- variant 1 (section 5.1, Fig. 7) ------------------------------------------------ */
struct tc_v1_map {
    fractal_launch L; /* the classic lambda launch: grid gx x gy, rho x rho threads */
    dim3 grid, block;
    tc_pows P;
    const __half *A; /* 16x16 row-major: row 0 = (s^0 .. s^(rb-1)), zeros elsewhere */
    static tc_v1_map make(const fractal_launch &L, const __half *A)
    {
        tc_v1_map m = fractal_map_make<tc_v1_map>(L, FRACTAL_MAP_LAMBDA, L.gx, L.gy);
        tc_pows_make(L.F.k, L.rb, &m.P);
        m.A = A;
        return m;
    }
    __device__ bool thread_cell(uint32_t *x, uint32_t *y) const
    {
        /* B: column 0 = tau_x^mu, column 1 = tau_y^mu, rows mu-1 < rb */
        const float *sD = tc_wmma_block(A, [this](uint32_t j, uint32_t kk) -> uint32_t {
            if (j < 2 && (int)kk < L.rb) return tc_tau_fast(&L.F, tc_beta_fast(&L.F, &P, blockIdx.x, blockIdx.y, kk + 1), j);
            return 0;
        });
        return fractal_block_cell(&L, (uint32_t)sD[0], (uint32_t)sD[1], threadIdx.x, threadIdx.y, x, y);
    }
    TC_REF_CELL_BLOCK
};

/* ---- variant 2's launch (section 5.2, Fig. 8): tc_v2_map and tc_v2r_map -------------
 * L is the LOGICAL launch (sub-blocks of rho/2, level rb + 1); a block of 2 rho x 2 rho
 * threads holds 4 sub-blocks (q = (q % 2, q / 2)); sub-blocks past L's grid have no cells. */
struct tc_sub_launch {
    fractal_launch L;
    dim3 grid, block;
    template <class M>
    static M make_sub(const fractal_launch &Lsub)
    {
        M m = fractal_map_make<M>(Lsub, FRACTAL_MAP_LAMBDA, (Lsub.gx + 1) / 2, (Lsub.gy + 1) / 2);
        m.block = dim3(2 * Lsub.rho, 2 * Lsub.rho);
        return m;
    }
    /* threads launched that have no sub-block (X in Fig. 8) */
    unsigned long long extra_threads() const
    {
        unsigned long long sub = (unsigned long long)L.rho * L.rho;
        return (4ull * grid.x * grid.y - (unsigned long long)L.gx * L.gy) * sub;
    }
    __device__ void sub_block(uint32_t *wx, uint32_t *wy, uint32_t *lx, uint32_t *ly) const
    {
        uint32_t qx = threadIdx.x >= L.rho, qy = threadIdx.y >= L.rho;
        *wx = 2 * blockIdx.x + qx;
        *wy = 2 * blockIdx.y + qy;
        *lx = threadIdx.x - qx * L.rho;
        *ly = threadIdx.y - qy * L.rho;
    }
    /* the classic reference: lambda of the thread's sub-block, same local offset */
    __device__ bool ref_cell(uint32_t *x, uint32_t *y) const
    {
        uint32_t wx, wy, lx, ly;
        sub_block(&wx, &wy, &lx, &ly);
        if (wx >= L.gx || wy >= L.gy) return false;
        return fractal_lambda_cell(&L, wx, wy, lx, ly, x, y) != 0;
    }
};

/* ---- variant 2 (section 5.2, Fig. 8) ------------------------------------------------ */
struct tc_v2_map : tc_sub_launch {
    tc_pows P;
    const __half *A; /* row 0 = (s^0 .. s^(rb2-1)) for the sub-block level rb2 = L.rb */
    static tc_v2_map make(const fractal_launch &Lsub, const __half *A)
    {
        tc_v2_map m = make_sub<tc_v2_map>(Lsub);
        tc_pows_make(Lsub.F.k, Lsub.rb, &m.P);
        m.A = A;
        return m;
    }
    __device__ bool thread_cell(uint32_t *x, uint32_t *y) const
    {
        /* B: columns 2q, 2q+1 = tau_x, tau_y of sub-block q = (q % 2, q / 2) */
        const float *sD = tc_wmma_block(A, [this](uint32_t j, uint32_t kk) -> uint32_t {
            if (j < 8 && (int)kk < L.rb) {
                uint32_t q = j >> 1, wx = 2 * blockIdx.x + (q & 1), wy = 2 * blockIdx.y + (q >> 1);
                if (wx < L.gx && wy < L.gy) return tc_tau_fast(&L.F, tc_beta_fast(&L.F, &P, wx, wy, kk + 1), j & 1);
            }
            return 0;
        });
        uint32_t wx, wy, lx, ly;
        sub_block(&wx, &wy, &lx, &ly);
        uint32_t q = (wx & 1) + 2 * (wy & 1);
        bool ok = fractal_block_cell(&L, (uint32_t)sD[2 * q], (uint32_t)sD[2 * q + 1], lx, ly, x, y);
        return ok && wx < L.gx && wy < L.gy;
    }
};

/* ---- variant 3 (section 5.3, Fig. 9) ------------------------------------------------ */
struct tc_v3_map {
    fractal_launch L;
    dim3 grid, block;
    tc_pows P;
    const __half *A; /* every row = (rho s^0 .. rho s^(rb-1)) */
    const float *C;  /* 8 row-major 16x16 matrices: tile t, coordinate c at (2t + c) * 256 */
    static tc_v3_map make(const fractal_launch &L, const __half *A, const float *C)
    {
        tc_v3_map m = fractal_map_make<tc_v3_map>(L, FRACTAL_MAP_LAMBDA, L.gx, L.gy);
        tc_pows_make(L.F.k, L.rb, &m.P);
        m.A = A;
        m.C = C;
        return m;
    }
    __device__ bool thread_cell(uint32_t *x, uint32_t *y) const
    {
        __shared__ __align__(32) __half sB[2][TC_M * TC_M];
        __shared__ __align__(32) float sD[8][TC_M * TC_M];
        const uint32_t tid = tc_tid(), nt = blockDim.x * blockDim.y;
        const uint32_t tiles = L.rho > 16 ? 4 : 1;
        /* B_c: every column = (tau_c^1 .. tau_c^rb, 0 ..) */
        for (uint32_t e = tid; e < 2 * TC_M * TC_M; e += nt) {
            uint32_t c = e >> 8, kk = e & 15, v = 0;
            if ((int)kk < L.rb) v = tc_tau_fast(&L.F, tc_beta_fast(&L.F, &P, blockIdx.x, blockIdx.y, kk + 1), c);
            sB[c][e & 255] = __uint2half_rn(v);
        }
        __syncthreads();
        const uint32_t warp = tid >> 5;
        if (warp < 2 * tiles) tc_wmma<true>(A, sB[warp & 1], C + warp * TC_M * TC_M, sD[warp]);
        __syncthreads();
        const uint32_t t = (threadIdx.x >= 16) + 2 * (threadIdx.y >= 16);
        const uint32_t i = threadIdx.y & 15, j = threadIdx.x & 15;
        *x = (uint32_t)sD[2 * t][TC_M * i + j];
        *y = (uint32_t)sD[2 * t + 1][TC_M * i + j];
        return nbb_fast_member(&L.F, threadIdx.x, threadIdx.y, L.rl);
    }
    TC_REF_CELL_BLOCK
};

/* The B registers of one lane for the mma.sync encodings (mma.h: tc_frag_b_*): lane 4g + t
 * holds rows 2t, 2t+1, 2t+8, 2t+9 of column g, i.e. the digits mu = 2t+1 (w_x, divided by
 * k^t), 2t+2 (w_y, k^t), 2t+9 (w_x, k^(t+4)), 2t+10 (w_y, k^(t+4)) of eq. (1): two divisions
 * per coordinate with magic multipliers (k^t, then k^4: floor(floor(w/k^t)/k^4) =
 * floor(w/k^(t+4)); exact while w k^(t+4) < 2^32, checked by tc_mma_level_ok).  c selects
 * tau_x or tau_y (eq. 2); levels mu > rb and invalid blocks give 0.  Returns {b0b1, b2b3} as
 * half2 bit patterns. */
static __device__ __forceinline__ uint32_t tc_half_bits(uint32_t v) { return __half_as_ushort(__uint2half_rn(v)); }
static __device__ __forceinline__ void tc_b_regs(const nbb_fast &F, const tc_pows &P, int rb, uint32_t wx, uint32_t wy,
                                                 uint32_t t, uint32_t c, bool valid, uint32_t *b0, uint32_t *b1)
{
    uint32_t v[4];
    tc_lane_digits(&F, &P, rb, wx, wy, t, c, valid, v); /* mma.h, host-tested */
    *b0 = tc_half_bits(v[0]) | tc_half_bits(v[1]) << 16;
    *b1 = tc_half_bits(v[2]) | tc_half_bits(v[3]) << 16;
}

/* D = A x B, m16n8k16, A = row 0 only (registers a0a1, a4a5 of lanes 0..3), f32 accumulate. */
static __device__ __forceinline__ void tc_mma_16816(uint32_t a0, uint32_t a2, uint32_t b0, uint32_t b1, float *d0,
                                                    float *d1)
{
    float d2, d3; /* rows 8.. of D: unused */
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
                 : "=f"(*d0), "=f"(*d1), "=f"(d2), "=f"(d3)
                 : "r"(a0), "r"(0u), "r"(a2), "r"(0u), "r"(b0), "r"(b1), "f"(0.0f), "f"(0.0f), "f"(0.0f), "f"(0.0f));
    asm volatile("" ::"f"(d2), "f"(d3));
}

/* Host: A's row 0 as the half2 registers of lanes t = 0..3 (a0a1 = s^2t, s^2t+1; a4a5 =
 * s^2t+8, s^2t+9; zero from column rb on).  The exactness check of tc_b_regs is
 * tc_mma_level_ok (mma.h). */
static inline void tc_mma_a_regs(uint32_t s, int rb, uint32_t a_lo[4], uint32_t a_hi[4])
{
    for (int t = 0; t < 4; t++) {
        uint32_t lo[2], hi[2];
        for (int i = 0; i < 2; i++) {
            lo[i] = __half_as_ushort(__float2half(tc_mma_a_value((int)s, rb, t, i)));
            hi[i] = __half_as_ushort(__float2half(tc_mma_a_value((int)s, rb, t, 4 + i)));
        }
        a_lo[t] = lo[0] | lo[1] << 16;
        a_hi[t] = hi[0] | hi[1] << 16;
    }
}

/* Whole warps (host): tc_warp0_whole, tc_warps_whole, tc_lanes_first/last_warp, in mma.h. */

/* lambda shared with the whole block: PER_WARP = true -> every warp computes it for itself
 * (no shared memory, no barrier); false -> warp 0 computes it, lane 0 stores it to shared
 * memory, one __syncthreads (as fractals' lambda_map_t does with thread (0,0)). */
template <bool PER_WARP, class F>
static __device__ __forceinline__ void tc_share(const F &warp_lambda, uint32_t *bx, uint32_t *by)
{
    if constexpr (PER_WARP) {
        warp_lambda(bx, by);
    } else {
        __shared__ uint32_t s_l[2];
        if (tc_tid() < 32) { /* warp 0, converged */
            uint32_t x, y;
            warp_lambda(&x, &y);
            if (tc_tid() == 0) {
                s_l[0] = x;
                s_l[1] = y;
            }
        }
        __syncthreads();
        *bx = s_l[0];
        *by = s_l[1];
    }
}

/* ---- ours: mma.sync on registers (variant 1's encoding, no fragment loads) ----------- */
template <bool PER_WARP>
struct tc_mma_map {
    fractal_launch L;
    dim3 grid, block;
    tc_pows P;
    uint32_t a_lo[4], a_hi[4]; /* lanes 0..3 (row 0 of A): half2 (s^2t, s^2t+1), (s^2t+8, s^2t+9) */
    static tc_mma_map make(const fractal_launch &L)
    {
        tc_mma_map m = fractal_map_make<tc_mma_map>(L, FRACTAL_MAP_LAMBDA, L.gx, L.gy);
        tc_pows_make(L.F.k, L.rb, &m.P);
        if (!tc_mma_level_ok(L.F.k, L.rb)) DIE_USAGE("mma: level rb=%d too deep for the fast digits", L.rb);
        tc_mma_a_regs(L.F.s, L.rb, m.a_lo, m.a_hi);
        return m;
    }
    /* one warp: D = A x B (m16n8k16), lambda = (D[0][0], D[0][1]) broadcast from lane 0 */
    __device__ __forceinline__ void warp_lambda(uint32_t *bx, uint32_t *by) const
    {
        const uint32_t lane = tc_tid() & 31, g = lane >> 2, t = lane & 3;
        const uint32_t a0 = g == 0 ? a_lo[t] : 0u, a2 = g == 0 ? a_hi[t] : 0u; /* row 0 of A */
        uint32_t b0, b1; /* column g: 0 = tau_x, 1 = tau_y, others 0 */
        tc_b_regs(L.F, P, L.rb, blockIdx.x, blockIdx.y, t, g, g < 2, &b0, &b1);
        float d0, d1;
        tc_mma_16816(a0, a2, b0, b1, &d0, &d1);
        *bx = (uint32_t)__shfl_sync(TC_FULL_MASK, d0, 0); /* lane 0: c0 = D[0][0] = lambda_x */
        *by = (uint32_t)__shfl_sync(TC_FULL_MASK, d1, 0); /*         c1 = D[0][1] = lambda_y */
    }
    __device__ bool thread_cell(uint32_t *x, uint32_t *y) const
    {
        uint32_t bx, by;
        tc_share<PER_WARP>([this](uint32_t *a, uint32_t *b) { warp_lambda(a, b); }, &bx, &by);
        return fractal_block_cell(&L, bx, by, threadIdx.x, threadIdx.y, x, y);
    }
    TC_REF_CELL_BLOCK
};

/* ---- ours: variant 2's encoding on mma.sync registers --------------------------------
 * The 4 sub-blocks' 8 digit columns are exactly the 8 columns of B in m16n8k16: column g =
 * (sub-block g/2, coordinate g%2), so all 32 lanes of warp 0 fill B (4 digits each) and lane
 * t < 4 receives D[0][2t], D[0][2t+1] = lambda of sub-block t.  One barrier shares them.
 * LAMBDA_CLASSIC = true is the control "v2-lambda": the same sub-block layout, each of the 4
 * sub-blocks' lambda computed by the classic eqs. 1-6 (nbb_fast_lambda) in threads 0..3 --
 * isolates what the tensor core adds from what the finer sub-blocks add. */
template <bool LAMBDA_CLASSIC>
struct tc_v2r_map : tc_sub_launch {
    tc_pows P;
    uint32_t a_lo[4], a_hi[4];
    static tc_v2r_map make(const fractal_launch &Lsub)
    {
        tc_v2r_map m = make_sub<tc_v2r_map>(Lsub);
        tc_pows_make(Lsub.F.k, Lsub.rb, &m.P);
        if (!tc_mma_level_ok(Lsub.F.k, Lsub.rb)) DIE_USAGE("v2-mma: level rb=%d too deep for the fast digits", Lsub.rb);
        tc_mma_a_regs(Lsub.F.s, Lsub.rb, m.a_lo, m.a_hi);
        return m;
    }
    __device__ bool thread_cell(uint32_t *x, uint32_t *y) const
    {
        __shared__ uint2 s_l[4];
        const uint32_t tid = tc_tid();
        if constexpr (LAMBDA_CLASSIC) {
            if (tid < 4) {
                uint32_t wx = 2 * blockIdx.x + (tid & 1), wy = 2 * blockIdx.y + (tid >> 1), bx = 0, by = 0;
                if (wx < L.gx && wy < L.gy) nbb_fast_lambda(&L.F, L.rb, wx, wy, &bx, &by); /* eqs. 1-6 */
                s_l[tid] = make_uint2(bx, by);
            }
        } else if (tid < 32) { /* warp 0 */
            const uint32_t g = tid >> 2, t = tid & 3, q = g >> 1;
            const uint32_t wx = 2 * blockIdx.x + (q & 1), wy = 2 * blockIdx.y + (q >> 1);
            const uint32_t a0 = g == 0 ? a_lo[t] : 0u, a2 = g == 0 ? a_hi[t] : 0u;
            uint32_t b0, b1;
            tc_b_regs(L.F, P, L.rb, wx, wy, t, g & 1, wx < L.gx && wy < L.gy, &b0, &b1);
            float d0, d1;
            tc_mma_16816(a0, a2, b0, b1, &d0, &d1);
            if (g == 0) s_l[t] = make_uint2((uint32_t)d0, (uint32_t)d1); /* D[0][2t], D[0][2t+1] */
        }
        __syncthreads();
        uint32_t wx, wy, lx, ly;
        sub_block(&wx, &wy, &lx, &ly);
        const uint2 b = s_l[(wx & 1) + 2 * (wy & 1)];
        const bool ok = fractal_block_cell(&L, b.x, b.y, lx, ly, x, y);
        return ok && wx < L.gx && wy < L.gy;
    }
};

/* ---- control: warp-parallel digits, integer warp reduction (no tensor core) --------- */
template <bool PER_WARP>
struct tc_redux_map {
    fractal_launch L;
    dim3 grid, block;
    tc_pows P;
    uint32_t spow[16]; /* s^(mu-1), eq. 3 */
    static tc_redux_map make(const fractal_launch &L)
    {
        tc_redux_map m = fractal_map_make<tc_redux_map>(L, FRACTAL_MAP_LAMBDA, L.gx, L.gy);
        tc_pows_make(L.F.k, L.rb, &m.P);
        uint32_t p = 1;
        for (int i = 0; i < 16; i++, p *= L.F.s) m.spow[i] = p;
        return m;
    }
    __device__ __forceinline__ void warp_lambda(uint32_t *bx, uint32_t *by) const
    {
        const uint32_t lane = tc_tid() & 31;
        const int mu = (int)lane + 1;
        uint32_t vx = 0, vy = 0;
        if (mu <= L.rb) {
            uint32_t beta = tc_beta_fast(&L.F, &P, blockIdx.x, blockIdx.y, mu); /* eq. 1 */
            vx = tc_tau_fast(&L.F, beta, 0) * spow[lane];                       /* eqs. 2, 3 */
            vy = tc_tau_fast(&L.F, beta, 1) * spow[lane];
        }
        const uint32_t lanes = block_warp_lanes(); /* rho = 4: 16 lanes; rho = 9: the last warp has 17 */
        *bx = __reduce_add_sync(lanes, vx); /* eqs. 5, 6 */
        *by = __reduce_add_sync(lanes, vy);
    }
    __device__ bool thread_cell(uint32_t *x, uint32_t *y) const
    {
        uint32_t bx, by;
        tc_share<PER_WARP>([this](uint32_t *a, uint32_t *b) { warp_lambda(a, b); }, &bx, &by);
        return fractal_block_cell(&L, bx, by, threadIdx.x, threadIdx.y, x, y);
    }
    TC_REF_CELL_BLOCK
};

/* ---- map-cost measurement: lambda looked up, not computed --------------------------- */
struct tc_table_map {
    fractal_launch L;
    dim3 grid, block;
    const uint2 *tab; /* tab[wy * gx + wx] = lambda(wx, wy), built on the host */
    static tc_table_map make(const fractal_launch &L, const uint2 *tab)
    {
        tc_table_map m = fractal_map_make<tc_table_map>(L, FRACTAL_MAP_LAMBDA, L.gx, L.gy);
        m.tab = tab;
        return m;
    }
    __device__ bool thread_cell(uint32_t *x, uint32_t *y) const
    {
        const uint2 b = __ldg(&tab[(size_t)blockIdx.y * L.gx + blockIdx.x]);
        return fractal_block_cell(&L, b.x, b.y, threadIdx.x, threadIdx.y, x, y);
    }
    TC_REF_CELL_BLOCK
};

/* ---- host: the constant fragments in device memory ---------------------------------- */

/* A of v1 (rb) / v2 (rb2): row 0 = powers; A of v3: every row = rho * powers; C of v3:
 * 8 matrices of thread offsets (tile t = 0..3, coordinate c = 0, 1).  Filled with the host
 * encodings of mma.h (tc_powers_row, tc_v3_encode), converted to half exactly. */
static inline void tc_upload_half(const float *src, __half *d_dst)
{
    __half h[TC_M * TC_M];
    for (int i = 0; i < TC_M * TC_M; i++) h[i] = __float2half(src[i]);
    CHECK_CUDA(cudaMemcpy(d_dst, h, sizeof h, cudaMemcpyHostToDevice));
}
static inline void tc_upload_powers(const nbb_fractal *f, int rb, __half *d_A)
{
    float A[TC_M * TC_M];
    tc_zero(A);
    tc_powers_row(f, rb, 1, A, 0);
    tc_upload_half(A, d_A);
}
static inline void tc_upload_v3(const nbb_fractal *f, int rb, int rho, __half *d_A, float *d_C)
{
    float A[TC_M * TC_M], B[TC_M * TC_M], C[8][TC_M * TC_M];
    for (int t = 0; t < 4; t++)
        for (int c = 0; c < 2; c++) tc_v3_encode(f, rb, rho, 0, 0, t, c, A, B, C[2 * t + c]);
    tc_upload_half(A, d_A);
    CHECK_CUDA(cudaMemcpy(d_C, C, sizeof C, cudaMemcpyHostToDevice));
}

/* Device data of one (r, rho) configuration: the constant fragments and the lambda table.
 * For s != 2 (v1's encoding on any NBB fractal) only L, A1 and tab are set: v2 halves the
 * block side and v3 tiles 32 x 32 blocks, both s = 2 only (has_v2v3 = 0). */
typedef struct {
    int has_v2v3;           /* s == 2: Lsub, A2, A3, C3 set */
    fractal_launch L, Lsub; /* lambda launch at rho; v2's logical launch at rho/2 */
    __half *A1, *A2, *A3;   /* v1 (row 0, level rb), v2 (row 0, level rb+1), v3 (rho * powers) */
    float *C3;              /* v3 offsets, 8 matrices */
    uint2 *tab;             /* lambda of every compact block (table map) */
} tc_config;

static inline void tc_config_init(tc_config *c, const nbb_fractal *f, int r, uint32_t rho)
{
    char err[256];
    memset(c, 0, sizeof *c);
    c->has_v2v3 = f->s == 2;
    if (fractal_launch_init(&c->L, f, r, rho, FRACTAL_MAP_LAMBDA, err, sizeof err)) DIE_USAGE("%s", err);
    if (c->has_v2v3 && fractal_launch_init(&c->Lsub, f, r, rho / 2, FRACTAL_MAP_LAMBDA, err, sizeof err)) DIE_USAGE("%s", err);
    if (!tc_level_supported(f, c->L.rb, 1) ||
        (c->has_v2v3 && (!tc_level_supported(f, c->Lsub.rb, 1) || !tc_level_supported(f, c->L.rb, (int)rho))))
        DIE_USAGE("r=%d rho=%u: the fragments cannot hold this level exactly in half (needs n/2 <= 2^15, "
                  "rb <= 16; see mma.h)", r, rho);
    CHECK_CUDA(cudaMalloc(&c->A1, 3 * TC_M * TC_M * sizeof(__half)));
    tc_upload_powers(f, c->L.rb, c->A1);
    if (c->has_v2v3) {
        c->A2 = c->A1 + TC_M * TC_M;
        c->A3 = c->A2 + TC_M * TC_M;
        CHECK_CUDA(cudaMalloc(&c->C3, 8 * TC_M * TC_M * sizeof(float)));
        tc_upload_powers(f, c->Lsub.rb, c->A2);
        tc_upload_v3(f, c->L.rb, (int)rho, c->A3, c->C3);
    }
    size_t nb = (size_t)c->L.gx * c->L.gy;
    uint2 *h = (uint2 *)malloc(nb * sizeof(uint2));
    if (!h) DIE("out of host memory");
#pragma omp parallel for schedule(static)
    for (long long w = 0; w < (long long)nb; w++)
        lambda_map(f, c->L.rb, (uint32_t)(w % c->L.gx), (uint32_t)(w / c->L.gx), &h[w].x, &h[w].y); /* eqs. 1-6 */
    c->tab = (uint2 *)device_alloc_or_usage(nb * sizeof(uint2), "the lambda table");
    CHECK_CUDA(cudaMemcpy(c->tab, h, nb * sizeof(uint2), cudaMemcpyHostToDevice));
    free(h);
}

static inline void tc_config_free(tc_config *c)
{
    CHECK_CUDA(cudaFree(c->A1));
    CHECK_CUDA(cudaFree(c->C3));
    CHECK_CUDA(cudaFree(c->tab));
}

#endif
