/* tensorcore/mma.h -- lambda(omega) written as tensor-core products D = A x B + C: the fragment
 * encodings of v1, v2, v3 and their exactness (Quezada, section 5; eqs. 7-10).
 *
 * Paper: F. A. Quezada, "Acelerando ecuaciones de mapeo de hilos de GPU para fractales 2D
 * empotrados utilizando Tensor Cores" (UACh).
 *
 * Plain C + HD, no CUDA header: the host tests (tests/host/test_tensorcore_mma.c) build
 * every fragment of every variant on the host and multiply it here with the tensor core's
 * semantics (half inputs, float accumulation); the device maps (maps.cuh) fill the same
 * matrices with the same functions.
 *
 * The map being encoded (section 4, eqs. 1-6; for the Sierpinski triangle eqs. 7-10):
 *   beta_mu(w) = ( w_x (mu mod 2) + w_y ((mu+1) mod 2) ) / k^(ceil(mu/2)-1)  mod k   (1)/(7)
 *   tau^mu     = H[beta_mu(w)]                                                   (2)/(8)
 *   lambda_x   = sum_{mu=1..rb} tau_x^mu s^(mu-1),  lambda_y likewise           (3)-(6)/(9)-(10)
 * i.e. one dot product per coordinate: (s^0, s^1, ..., s^(rb-1)) . (tau^1, ..., tau^rb).
 *
 * Fragments are 16 x 16 (WMMA m16n16k16).  Host storage of the three inputs, as floats
 * holding exactly the half values (host C has no __half):
 *   A[i][k] row-major   A[16 * i + k]
 *   B[k][j] column-major B[16 * j + k]   (the paper stores B column-major, section 5.1)
 *   C[i][j] row-major   C[16 * i + j]    (float, the accumulator)
 *
 * EXACTNESS (why half inputs + float accumulation give the exact integer result, r <= 16):
 *  - every A entry is s^(mu-1) or, in v3, rho * s^(mu-1).  For s = 2 these are powers of
 *    two; the largest is rho * 2^(rb-1) = 2^(p + rb - 1) = n / 2 <= 2^15 for n = 2^r,
 *    r <= 16 (rho = 2^p).  Every power of two 2^0 .. 2^15 is exact in binary16 (11-bit
 *    significand, largest finite 65504 = 2^15 * 1.999); tc_half_exact() asserts it per entry.
 *  - every B entry is a digit tau in [0, s-1] = {0, 1}: exact.
 *  - C holds thread offsets < rho <= 32 (v3) or 0: exact in float.
 *  - a product of two binary16 values has at most 22 significant bits: exact in the float
 *    (24-bit) product the tensor core forms; here the products are even simpler (x * 0 or
 *    x * 1).  Every partial sum is an integer in [0, n - 1] or [0, n + 31] <= 2^16 + 31,
 *    far below 2^24, so every float addition is exact whatever the order or the alignment
 *    the hardware uses (aligning to the largest term, <= 2^16, keeps 2^0 within 24 bits).
 *  - ACCUMULATING IN HALF IS WRONG: binary16 holds integers exactly only up to 2^11 = 2048;
 *    lambda_x can reach 2^rb - 1, so from rb = 12 on sums such as 2^11 + 1 = 2049 round to
 *    2048 (test_tensorcore_mma.c shows the failure with tc_mma_host_halfacc()).
 */
#ifndef TENSORCORE_MMA_H
#define TENSORCORE_MMA_H

#include <stdint.h>
#include <string.h>
#include "../common/hd.h"
#include "../fractals/fractal.h"

#define TC_M 16      /* fragment side: WMMA m16n16k16 (section 5: "fragmentos de 16 x 16") */
#define TC_MAX_RB 16 /* rows of B: at most 16 levels mu = 1..16 (section 7: r_b <= 16) */
#define TC_HALF_MAX_INT 2048 /* binary16 holds every integer up to 2^11 exactly, no further */

/* ---------------------------------------------------------------------------------------
 * Exactness of a value in binary16 (IEEE half): a finite value v is exact iff v = m * 2^e
 * with integer |m| < 2^11 and the exponent in range.  Only non-negative integers occur here. */
static inline HD int tc_half_exact(double v)
{
    if (v < 0) v = -v;
    if (v > 65504.0) return 0;
    if (v == 0) return 1;
    /* integers only in this code: strip factors of two until the odd part is left */
    if (v != (double)(long long)v) return 0;
    long long m = (long long)v;
    while ((m & 1) == 0) m >>= 1;
    return m < TC_HALF_MAX_INT;
}

/* binary16 rounding of a non-negative integer value (round to nearest, ties to even): the
 * value a half accumulator would hold.  Used only by the host test that shows why the
 * accumulation must be float. */
static inline double tc_round_half(double v)
{
    if (v <= TC_HALF_MAX_INT) return v;
    double ulp = 1.0;
    while (v >= TC_HALF_MAX_INT * ulp) ulp *= 2.0; /* ulp of v in [2^e, 2^(e+1)): 2^(e - 10) */
    double q = v / ulp, f = (double)(long long)q;
    double rem = q - f;
    if (rem > 0.5 || (rem == 0.5 && ((long long)f & 1))) f += 1.0;
    return f * ulp;
}

/* ---------------------------------------------------------------------------------------
 * The digits of lambda (eqs. 1, 7): beta_mu(w) for mu = 1..rb; odd mu read w_x, even mu
 * read w_y, each in base k. */
static inline HD uint32_t tc_beta(uint32_t k, uint32_t wx, uint32_t wy, int mu)
{
    uint32_t w = (mu & 1) ? wx : wy;
    for (int e = 0; e < (mu + 1) / 2 - 1; e++) w /= k; /* / k^(ceil(mu/2) - 1) */
    return w % k;
}

/* The compact grid at block level rb (section 3, property 2): k^ceil(rb/2) x k^floor(rb/2). */
static inline HD uint32_t tc_ipow(uint32_t b, int e)
{
    uint32_t p = 1;
    for (int i = 0; i < e; i++) p *= b;
    return p;
}
static inline HD uint32_t tc_grid_x(uint32_t k, int rb) { return tc_ipow(k, (rb + 1) / 2); }
static inline HD uint32_t tc_grid_y(uint32_t k, int rb) { return tc_ipow(k, rb / 2); }

/* Per-level magic divisors for k^e, e = 0..7 (eq. 1 divides w by k^(ceil(mu/2)-1) <= k^7 for
 * rb <= 16), so that a thread or lane can extract any ONE digit beta_mu with two high
 * multiplies (fractal_udiv, fractals/fractal.h) instead of a chain of divisions.
 * Exactness: q = floor(x M / 2^32), M = floor(2^32 / d) + 1, is exact when x d < 2^32
 * (the error x (M d - 2^32) / (d 2^32) < x / 2^32 must stay below 1/d).  Here x = w_x <
 * k^ceil(rb/2) and d <= k^(ceil(rb/2)-1), so x d < k^rb = the number of blocks < 2^32
 * (checked by tc_pows_make; the host test checks every (x, e) for the Sierpinski case).
 * magic[0] is unused (d = 1: q = x). */
typedef struct {
    uint32_t magic[8];
} tc_pows;

static inline int tc_pows_make(uint32_t k, int rb, tc_pows *P)
{
    memset(P, 0, sizeof *P);
    uint64_t d = 1;
    for (int e = 1; e < 8; e++) {
        d *= (uint64_t)k;
        P->magic[e] = d < 0xFFFFFFFFull ? (uint32_t)(0xFFFFFFFFull / d) + 1u : 0u;
    }
    return fractal_pow((uint64_t)k, rb) < ((uint64_t)1 << 32) ? 0 : -1;
}

/* beta_mu(w) of eq. (1) with the fast divisors; F from nbb_fast_make (fractals/fractal.h). */
static inline HD uint32_t tc_beta_fast(const nbb_fast *F, const tc_pows *P, uint32_t wx, uint32_t wy, int mu)
{
    uint32_t w = (mu & 1) ? wx : wy;
    int e = (mu + 1) / 2 - 1;
    /* select magic[e] with static indices: a dynamic index would make nvcc copy the whole
     * Map (a kernel parameter) to local memory */
    uint32_t m = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int i = 1; i < 8; i++) m = i == e ? P->magic[i] : m;
    uint32_t q = e ? fractal_udiv(w, m) : w; /* / k^(ceil(mu/2)-1) */
    return q - fractal_udiv(q, F->magic_k) * F->k;     /* mod k */
}
/* tau_c^mu of eq. (2) from the packed table (c = 0: x, 1: y). */
static inline HD uint32_t tc_tau_fast(const nbb_fast *F, uint32_t beta, int c)
{
    return ((c ? F->hy : F->hx) >> (2 * beta)) & 3u;
}

/* Can the fragments represent this level exactly?  A entries s^(mu-1) * scale (scale = 1
 * for v1/v2, rho for v3) must be exact halves, rb <= 16 rows, and the result < 2^24. */
static inline int tc_level_supported(const nbb_fractal *f, int rb, int scale)
{
    if (rb < 0 || rb > TC_MAX_RB) return 0;
    double p = scale;
    for (int mu = 1; mu <= rb; mu++, p *= f->s)
        if (!tc_half_exact(p)) return 0;
    for (int i = 0; i < f->k; i++)
        if (!tc_half_exact(f->tau_x[i]) || !tc_half_exact(f->tau_y[i])) return 0;
    return p * f->s < 16777216.0;
}

/* The 4 B values of lane 4g + t in the mma.sync encodings (rows 2t, 2t+1, 2t+8, 2t+9 of
 * column g = tc_frag_b_row/col): tau_c of the digits mu = 2t+1 (w_x / k^t), 2t+2 (w_y / k^t),
 * 2t+9 (w_x / k^(t+4)), 2t+10 (w_y / k^(t+4)) of eq. (1), using floor(floor(w/k^t)/k^4) =
 * floor(w/k^(t+4)) so that each coordinate needs two magic divisions (exact while
 * w k^(t+4) < 2^32).  Levels mu > rb and invalid blocks give 0.  t in 0..3. */
static inline HD void tc_lane_digits(const nbb_fast *F, const tc_pows *P, int rb, uint32_t wx, uint32_t wy,
                                     uint32_t t, uint32_t c, int valid, uint32_t v[4])
{
    const uint32_t m = t == 1 ? P->magic[1] : t == 2 ? P->magic[2] : P->magic[3];
    const uint32_t qx = t ? fractal_udiv(wx, m) : wx, qy = t ? fractal_udiv(wy, m) : wy;
    const uint32_t qx4 = fractal_udiv(qx, P->magic[4]), qy4 = fractal_udiv(qy, P->magic[4]);
    const uint32_t d[4] = {qx - fractal_udiv(qx, F->magic_k) * F->k, qy - fractal_udiv(qy, F->magic_k) * F->k,
                           qx4 - fractal_udiv(qx4, F->magic_k) * F->k, qy4 - fractal_udiv(qy4, F->magic_k) * F->k};
    const int mu[4] = {2 * (int)t + 1, 2 * (int)t + 2, 2 * (int)t + 9, 2 * (int)t + 10};
    for (int i = 0; i < 4; i++) v[i] = valid && mu[i] <= rb ? tc_tau_fast(F, d[i], (int)c) : 0u;
}

/* Are tc_lane_digits' two-step divisions exact at level rb?  Its dividends stay below
 * k^ceil(rb/2) and its divisors reach k^(t+4) <= k^7, so every product x d stays below
 * k^(ceil(rb/2) + 4) (see tc_pows); also rb <= 16 rows. */
static inline int tc_mma_level_ok(uint32_t k, int rb)
{
    return rb <= TC_MAX_RB && fractal_pow(k, (rb + 1) / 2 + 4) < ((uint64_t)1 << 32);
}

/* Whole warps (host; tests/host/test_tensorcore_limits.c): WMMA and mma.sync (.aligned) need
 * all 32 lanes of the warp that runs them, so a block of rho x rho threads must give warp 0
 * all its lanes (v1, v3, mma, v2-mma: rho^2 >= 32) or every warp (mma-warp: rho^2 a multiple
 * of 32).  rho = 4 (16 threads) and
 * rho = 9, 27 (the last warp has 17 or 25 lanes) do not.  The redux controls name only the
 * lanes that exist (block_warp_lanes) and need a lane per digit in their smallest warp. */
static inline int tc_warp0_whole(uint32_t rho) { return rho * rho >= 32; }
static inline int tc_warps_whole(uint32_t rho) { return rho * rho % 32 == 0; }
static inline uint32_t tc_lanes_first_warp(uint32_t rho) { return rho * rho < 32 ? rho * rho : 32; }
static inline uint32_t tc_lanes_last_warp(uint32_t rho) { return rho * rho % 32 ? rho * rho % 32 : 32; }

/* ---------------------------------------------------------------------------------------
 * Host fragment encodings (floats holding exact half values).  All zero-fill first. */
static inline void tc_zero(float *m)
{
    for (int i = 0; i < TC_M * TC_M; i++) m[i] = 0.0f;
}

/* Row i of A = (scale s^0, scale s^1, ..., scale s^(rb-1), 0, ...). */
static inline void tc_powers_row(const nbb_fractal *f, int rb, int scale, float *A, int i)
{
    float p = (float)scale;
    for (int kk = 0; kk < rb; kk++, p *= (float)f->s) A[TC_M * i + kk] = p;
}

/* Column j of B = (tau_c^1, ..., tau_c^rb, 0, ...) of block w, coordinate c (0 = x, 1 = y). */
static inline void tc_digits_col(const nbb_fractal *f, int rb, uint32_t wx, uint32_t wy, int c,
                                 float *B, int j)
{
    for (int mu = 1; mu <= rb; mu++) {
        uint32_t b = tc_beta((uint32_t)f->k, wx, wy, mu);
        B[TC_M * j + (mu - 1)] = (float)(c ? f->tau_y[b] : f->tau_x[b]);
    }
}

/* Variant 1 (section 5.1, Fig. 7): one MMA per block.  Row 0 of A = powers; columns 0 and
 * 1 of B = tau_x^mu and tau_y^mu; C = 0.  Result: lambda_x = D[0][0], lambda_y = D[0][1]. */
static inline void tc_v1_encode(const nbb_fractal *f, int rb, uint32_t wx, uint32_t wy,
                                float *A, float *B, float *C)
{
    tc_zero(A); tc_zero(B); tc_zero(C);
    tc_powers_row(f, rb, 1, A, 0);
    tc_digits_col(f, rb, wx, wy, 0, B, 0);
    tc_digits_col(f, rb, wx, wy, 1, B, 1);
}

/* Variant 2 (section 5.2, Fig. 8): the block holds 4 logical sub-blocks (rho/2 x rho/2),
 * sub-block q in 0..3 of real block (Wx, Wy) is the compact block w = (2 Wx + q % 2,
 * 2 Wy + q / 2) at level rb + 1 (i.e. rb2 = level of the sub-block grid).  One MMA: row 0
 * of A = powers, columns 2q and 2q+1 of B = digits of sub-block q; sub-blocks outside the
 * compact grid (valid[q] == 0) get zero columns.  Result: D[0][2q], D[0][2q+1]. */
static inline void tc_v2_subblock(uint32_t Wx, uint32_t Wy, int q, uint32_t *wx, uint32_t *wy)
{
    *wx = 2 * Wx + (uint32_t)(q & 1);
    *wy = 2 * Wy + (uint32_t)(q >> 1);
}
static inline void tc_v2_encode(const nbb_fractal *f, int rb2, uint32_t Wx, uint32_t Wy,
                                float *A, float *B, float *C)
{
    tc_zero(A); tc_zero(B); tc_zero(C);
    tc_powers_row(f, rb2, 1, A, 0);
    uint32_t gx = tc_grid_x((uint32_t)f->k, rb2), gy = tc_grid_y((uint32_t)f->k, rb2);
    for (int q = 0; q < 4; q++) {
        uint32_t wx, wy;
        tc_v2_subblock(Wx, Wy, q, &wx, &wy);
        if (wx >= gx || wy >= gy) continue; /* an extra sub-block (X in Fig. 8) */
        tc_digits_col(f, rb2, wx, wy, 0, B, 2 * q);
        tc_digits_col(f, rb2, wx, wy, 1, B, 2 * q + 1);
    }
}

/* Variant 3 (section 5.3, Fig. 9): every row of A = rho * powers; every column of B_c =
 * digits tau_c; C_c[i][j] = the thread's offset inside the block, so D_c[i][j] is directly
 * the data-space coordinate c of the thread at row i, column j of the 16 x 16 tile.  Blocks
 * of 32 x 32 are 4 tiles (quadrant t = 0..3: tile x offset 16 (t % 2), y offset 16 (t / 2)):
 * 8 MMAs; blocks of 16 x 16 or 8 x 8 are one tile (the 8 x 8 block uses its top-left
 * quarter): 2 MMAs.  rho * s^(rb-1) = n/2 <= 2^15 keeps A exact (see EXACTNESS above). */
static inline void tc_v3_encode(const nbb_fractal *f, int rb, int rho, uint32_t wx, uint32_t wy,
                                int tile, int c, float *A, float *B, float *C)
{
    tc_zero(A); tc_zero(B); tc_zero(C);
    for (int i = 0; i < TC_M; i++) tc_powers_row(f, rb, rho, A, i);
    for (int j = 0; j < TC_M; j++) tc_digits_col(f, rb, wx, wy, c, B, j);
    int ox = 16 * (tile & 1), oy = 16 * (tile >> 1);
    for (int i = 0; i < TC_M; i++)
        for (int j = 0; j < TC_M; j++) C[TC_M * i + j] = (float)(c ? oy + i : ox + j);
}
static inline int tc_v3_tiles(int rho) { return rho == 32 ? 4 : 1; }

/* ---------------------------------------------------------------------------------------
 * The tensor core's operation on the host: D = A x B + C with half inputs (checked exact),
 * float products and float accumulation, k = 0..15 in order.  Returns the number of A or B
 * entries that are not exact halves (0 for every encoding above with r <= 16). */
static inline int tc_mma_host(const float *A, const float *B, const float *C, float *D)
{
    int inexact = 0;
    for (int i = 0; i < TC_M * TC_M; i++) inexact += !tc_half_exact(A[i]) + !tc_half_exact(B[i]);
    for (int i = 0; i < TC_M; i++)
        for (int j = 0; j < TC_M; j++) {
            float acc = C[TC_M * i + j];
            for (int kk = 0; kk < TC_M; kk++) acc += A[TC_M * i + kk] * B[TC_M * j + kk];
            D[TC_M * i + j] = acc;
        }
    return inexact;
}

/* The WRONG alternative (for the test only): the same product accumulated in half, i.e.
 * every partial sum rounded to binary16. */
static inline void tc_mma_host_halfacc(const float *A, const float *B, const float *C, float *D)
{
    for (int i = 0; i < TC_M; i++)
        for (int j = 0; j < TC_M; j++) {
            double acc = tc_round_half(C[TC_M * i + j]);
            for (int kk = 0; kk < TC_M; kk++)
                acc = tc_round_half(acc + (double)A[TC_M * i + kk] * B[TC_M * j + kk]);
            D[TC_M * i + j] = (float)acc;
        }
}

/* ---------------------------------------------------------------------------------------
 * Register layout of mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (PTX ISA, "Matrix
 * fragments for mma.m16n8k16 with floating point type"), used by our Hopper variant `mma`
 * (maps.cuh): lane = 4 g + t (g = groupID, t = threadID_in_group).
 *   A (16 x 16, 8 halves a0..a7):  row g + 8 ((i>>1)&1), col 2t + (i&1) + 8 (i>>2)
 *   B (16 x 8,  4 halves b0..b3):  row 2t + (i&1) + 8 (i>>1), col g
 *   C/D (16 x 8, 4 floats c0..c3): row g + 8 (i>>1), col 2t + (i&1)
 * With row 0 of A = powers and columns 0, 1 of B = tau_x, tau_y (variant 1's encoding),
 * lane 0's c0, c1 are lambda_x, lambda_y. */
static inline HD int tc_frag_a_row(int lane, int i) { return (lane >> 2) + 8 * ((i >> 1) & 1); }
static inline HD int tc_frag_a_col(int lane, int i) { return 2 * (lane & 3) + (i & 1) + 8 * (i >> 2); }
static inline HD int tc_frag_b_row(int lane, int i) { return 2 * (lane & 3) + (i & 1) + 8 * (i >> 1); }
static inline HD int tc_frag_b_col(int lane, int i) { (void)i; return lane >> 2; }
static inline HD int tc_frag_c_row(int lane, int i) { return (lane >> 2) + 8 * (i >> 1); }
static inline HD int tc_frag_c_col(int lane, int i) { return 2 * (lane & 3) + (i & 1); }

/* What lane `lane` puts in A register i / B register i for the `mma` variant (values, as
 * floats; the device converts them to half).  A: row 0 = s^col for col < rb.  B: column 0 =
 * tau_x^(row+1), column 1 = tau_y^(row+1) for row < rb; all else 0. */
static inline HD float tc_mma_a_value(int s, int rb, int lane, int i)
{
    int row = tc_frag_a_row(lane, i), col = tc_frag_a_col(lane, i);
    if (row != 0 || col >= rb) return 0.0f;
    float p = 1.0f;
    for (int e = 0; e < col; e++) p *= (float)s;
    return p;
}
static inline HD float tc_mma_b_value(const nbb_fractal *f, int rb, uint32_t wx, uint32_t wy,
                                      int lane, int i)
{
    int row = tc_frag_b_row(lane, i), col = tc_frag_b_col(lane, i);
    if (col > 1 || row >= rb) return 0.0f;
    uint32_t b = tc_beta((uint32_t)f->k, wx, wy, row + 1);
    return (float)(col ? f->tau_y[b] : f->tau_x[b]);
}

#endif
