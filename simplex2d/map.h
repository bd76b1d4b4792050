/* simplex2d/map.h -- GPU thread maps for triangular domains, as plain HD functions.
 * arXiv:1609.01490 sections 3-4 (eq. 4-9) and arXiv:1610.07394 section III.A (eq. 13-15).
 *
 * Papers: C. A. Navarro, B. Bustos, N. Hitschfeld, "A Non-linear GPU Thread Map for
 * Triangular Domains" (arXiv:1609.01490) -- the lambda(omega) maps and the baselines of its
 * section 4.2; and "Possibilities of Recursive GPU Mapping for Discrete Orthogonal Simplices"
 * (arXiv:1610.07394), section III.A -- the O(1) recursive 2-simplex map, eq. (13)-(15).
 *
 * Domain convention (used everywhere in simplex2d): the lower triangle of an n x n matrix,
 * cells (i, j) with 0 <= j <= i < n (i = row, j = column, diagonal included), T(n) cells.
 * The pair-interaction kernels (edm4d, collision*) use the strict triangle j < i by filtering.
 *
 * Block-space maps (every map except utm): a block of rho x rho threads is mapped to a block
 * coordinate (bi, bj) of the m x m block matrix, m = ceil(n / rho), with bj <= bi; the
 * thread adds its local offset, i = bi rho + ty, j = bj rho + tx, and keeps only cells
 * with i < n and j <= i (s2_map_cell).  utm maps single threads (thread space).
 *
 * A map is described by an s2_grid (s2_grid_make, on the host): the launches, their grid
 * dimensions and the parameters the device function needs.  s2_map_cell(g, launch, bx, by,
 * tx, ty, &i, &j) is the function every kernel calls and --layout evaluates on the host.
 *
 * Plain C (cc -std=gnu11) and CUDA: nothing here includes a CUDA header. */
#ifndef SIMPLEX2D_MAP_H
#define SIMPLEX2D_MAP_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "../common/hd.h"

/* T(y) = y (y + 1) / 2, the triangular number: cells of the rows 0..y-1 of the triangle. */
static inline HD uint64_t tri_number(uint64_t y) { return y * (y + 1) / 2; }

/* The row of linear index w in the triangle: the largest y with T(y) <= w, for every
 * w < 2^62.  A float guess from eq. (4) of Navarro et al. (y = floor(sqrt(1/4 + 2w) - 1/2))
 * followed by an integer correction against T(y), so the result never depends on float
 * rounding: the guess may be off by a few units for large w, the loops fix it exactly.
 * (For w < 2^32 tri_rowcol32 below needs a single one-sided correction.) */
static inline HD uint32_t tri_row_exact(uint64_t w)
{
    uint64_t y = (uint64_t)(sqrtf(0.25f + 2.0f * (float)w) - 0.5f);
    while (y > 0 && tri_number(y) > w) y--;
    while (tri_number(y + 1) <= w) y++;
    return (uint32_t)y;
}

/* T(y) mod 2^32 in 32-bit arithmetic, for y < 2^32 - 1: one of y, y + 1 is even, and
 * ((y + 1) >> 1) (y | 1) is (y / 2)(y + 1) for even y and y ((y + 1) / 2) for odd y, so
 * the halving is exact before the product and the 32-bit product is T(y) modulo 2^32
 * (T(y) itself when y <= 92681, the last row with T(y) < 2^32). */
static inline HD uint32_t tri_number32(uint32_t y) { return ((y + 1) >> 1) * (y | 1); }

/* Row and column of block index w < 2^32 (lambda-exact): the largest y with T(y) <= w, and
 * j = w - T(y), with one float square root, one 32-bit product and one compare.
 *
 * Exactness argument.  Let y be the exact row, T(y) <= w < T(y + 1), so
 * y^2 + y + 1 <= 2w + 1 <= y^2 + 3y + 1, and r = sqrt(2w + 1) lies strictly inside
 * (y + 1/2, y + 3/2): (y + 1/2)^2 = y^2 + y + 1/4 and (y + 3/2)^2 = y^2 + 3y + 9/4.
 * The float r~ (2w + 1 rounded twice, relative error <= 2^-23; sqrt or x rsqrtf(x) adds at
 * most ~3 ulp: rsqrtf's 2 ulp and the product's rounding) has relative error < 2^-21, i.e.
 * an absolute error < 92682 * 2^-21 < 0.05, far inside the margin of 1/2 on either side.
 * So the guess g = floor(r~) is y or y + 1, never below y and never above y + 1 -- a
 * one-sided error, so a single compare corrects it: j = w - T(g) is in [0, y] when g = y
 * and in [-(y + 1), -1] when g = y + 1; it is computed modulo 2^32 (T(g) by tri_number32,
 * g <= 92682), and since |w - T(g)| < 2^31 its sign as int32 is the true sign.  If it is
 * negative, g = y + 1: step back one row and add g to j (w - T(y) = w - T(y + 1) + y + 1).
 *  - host: sqrtf; tests/host/test_simplex2d_lambda.c checks every w < 2^32 (and the guess
 *    in {y, y + 1} for each of them);
 *  - device: x * rsqrt(x) with the hardware reciprocal root of lambda R, eq. (9), without
 *    epsilon (MUFU.RSQ through s2_rsqrt_ftz: x >= 1, so the flush-to-zero form, which skips
 *    rsqrtf's denormal rescaling, gives the same bits and never sees 0):
 *    tests/gpu/test_simplex2d_cover.cu checks every w < 2^32 on the GPU. */
#ifdef __CUDA_ARCH__
/* The hardware reciprocal square root (MUFU.RSQ) without rsqrtf's rescaling of denormal
 * inputs (three dependent instructions saved): for x >= 1, as in tri_rowcol32, the same bits. */
static inline __device__ float s2_rsqrt_ftz(float x)
{
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
#endif

static inline HD uint32_t tri_rowcol32(uint32_t w, uint32_t *col)
{
#ifdef __CUDA_ARCH__
    float x = __fmaf_rn(2.0f, (float)w, 1.0f);
    uint32_t y = (uint32_t)__fmul_rn(x, s2_rsqrt_ftz(x));
#else
    uint32_t y = (uint32_t)sqrtf(fmaf(2.0f, (float)w, 1.0f));
#endif
    uint32_t j = w - tri_number32(y);
    if ((int32_t)j < 0) { /* the guess was row y + 1 */
        j += y;
        y--;
    }
    *col = j;
    return y;
}

/* The row alone (same result as tri_row_exact for every w < 2^32). */
static inline HD uint32_t tri_row_exact32(uint32_t w)
{
    uint32_t j;
    return tri_rowcol32(w, &j);
}

/* ---- the maps ------------------------------------------------------------------------ */
enum {
    S2_BB = 0,       /* bounding box, m x m blocks (paper section 4.2) */
    S2_RB,           /* rectangle box (Jung & O'Leary packing, section 4.2) */
    S2_REC,          /* recursive partition (Ries et al., section 4.2): k + 1 launches */
    S2_UTM,          /* upper-triangular map (Avril et al., section 4.2): thread space */
    S2_LAMBDA_SQRT,  /* lambda X: eq. (4) with sqrtf, + epsilon (section 4.1) */
    S2_LAMBDA_NEWTON,/* lambda N: 3 Newton-Raphson steps from 0x5f3759df, + epsilon */
    S2_LAMBDA_RSQRT, /* lambda R: x * rsqrtf(x), eq. (9), + epsilon */
    S2_LAMBDA_EXACT, /* ours: float guess + one 32-bit integer correction (tri_rowcol32),
                        launched as a 1D grid of exactly T(m) blocks: omega = blockIdx.x */
    S2_RECURSIVE,    /* O(1) recursive map, eq. (13) of arXiv:1610.07394, 1D grid: w = blockIdx.x */
    S2_LAMBDA_EXACT_2D, /* lambda-exact on the paper's m' x m' grid (section 3) */
    S2_RECURSIVE_2D, /* the recursive map on the paper's (P/2) x (P + 1) orthotope grid */
    S2_UTM_PUBLISHED,/* UTM with the published float formula alone (no integer correction) */
    S2_RECURSIVE_ABOVE, /* recursive map "from above" (arXiv:1610.07394 III.A, approach 1): one
                        orthotope for the next power of two P >= m, blocks past m discarded */
    S2_LAMBDA_STRICT,/* eq. (5): lambda without the diagonal, for the pair kernels (j < i only) */
    S2_NMAPS,
    /* not a map of its own: the kernel instance that `recursive` launches when m = 2^k (s2_run
     * picks it on the host), eq. (13) with no run-time test of m (worth 7 % at rho = 32) */
    S2_RECURSIVE_POW2 = S2_NMAPS
};

/* The names used by --map, in enum order. */
#define S2_MAP_NAMES "bb rb rec utm lambda-sqrt lambda-newton lambda-rsqrt lambda-exact recursive lambda-exact-2d recursive-2d utm-published recursive-above lambda-strict"

static inline const char *s2_map_name(int map)
{
    static const char *names[S2_NMAPS] = {"bb", "rb", "rec", "utm", "lambda-sqrt", "lambda-newton",
                                          "lambda-rsqrt", "lambda-exact", "recursive", "lambda-exact-2d",
                                          "recursive-2d", "utm-published", "recursive-above",
                                          "lambda-strict"};
    return map >= 0 && map < S2_NMAPS ? names[map] : "?";
}

static inline int s2_map_of(const char *name)
{
    for (int k = 0; k < S2_NMAPS; k++)
        if (!strcmp(name, s2_map_name(k))) return k;
    return -1;
}

/* Is the map launched as a 1D grid of its block indices (blockIdx.x = omega)?  The paper's
 * 2D grids (m' x m' for lambda, eq. (13)'s orthotope) date from GPUs whose gridDim.x was
 * limited to 65535; since compute capability 3.0 it reaches 2^31 - 1.  On Hopper at rho = 32
 * (1024 threads per block) the 2D form costs up to 25 % of a write kernel's time (the
 * row-major omega = by m' + bx, the idle blocks past T(m) and their test): README, "Against the authors' code". */
static inline HD int s2_map_is_linear(int map)
{
    return map == S2_LAMBDA_EXACT || map == S2_RECURSIVE || map == S2_RECURSIVE_ABOVE || map == S2_LAMBDA_STRICT;
}

/* Eq. (5) of Navarro et al.: "if the diagonal is not needed", i = floor(sqrt(1/4 + 2 omega) + 1/2),
 * i.e. eq. (4)'s row plus one: the strict triangle j < i of side n is the triangle with
 * diagonal of side n - 1, moved down one row.  In block space the move is one CELL row: the
 * map covers m = ceil((n - 1) / rho) block rows with the blocks of lambda-exact and adds 1 to
 * every thread's row (s2_row_shift).  It serves only the pair kernels (edm4d, collision*). */
static inline HD int s2_map_is_strict(int map) { return map == S2_LAMBDA_STRICT; }
static inline HD uint32_t s2_row_shift(int map) { return map == S2_LAMBDA_STRICT ? 1u : 0u; }

/* UTM in thread space (both forms). */
static inline HD int s2_map_is_utm(int map) { return map == S2_UTM || map == S2_UTM_PUBLISHED; }

/* Is the map's result float-dependent (exact only on a limited range)? */
static inline int s2_map_is_float(int map)
{
    return map == S2_LAMBDA_SQRT || map == S2_LAMBDA_NEWTON || map == S2_LAMBDA_RSQRT || map == S2_UTM_PUBLISHED;
}

#define S2_EPSILON 1e-4f      /* epsilon of section 4.1 (added to the square root) */
#define S2_MAX_LAUNCHES 24    /* rec: k levels + the diagonal pass; k <= 22 */
#define S2_MAX_GRID_Y 65535u  /* CUDA limit of gridDim.y */
#define S2_MAX_GRID_X 2147483647u /* also the most blocks of a 1D grid (s2_map_is_linear) */

typedef struct {
    int map;
    uint32_t n, rho, m;   /* matrix side, block side, blocks per side m = ceil(n / rho) */
    uint32_t mp;          /* lambda: m' = ceil(sqrt(m (m + 1) / 2)) (section 3) */
    uint32_t nblocks_tri; /* m (m + 1) / 2 */
    uint32_t rec_k, rec_d;/* rec: k levels, diagonal triangles of rec_d blocks */
    uint32_t rc_half;     /* recursive: P / 2 = grid width, P = 2^floor(log2 m) */
    uint32_t rc_lhalf;    /* recursive: log2(P / 2) (linear grid: w -> (w mod P/2, w / (P/2))) */
    uint32_t nlaunch;
    uint32_t gx[S2_MAX_LAUNCHES], gy[S2_MAX_LAUNCHES]; /* grid of each launch, in blocks */
    uint32_t bx_threads, by_threads;                   /* block dims (utm: rho^2 x 1) */
} s2_grid;

/* ---- helpers -------------------------------------------------------------------------- */
static inline HD uint32_t s2_clz(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return (uint32_t)__clz((int)x);
#else
    return x ? (uint32_t)__builtin_clz(x) : 32u;
#endif
}

/* floor(log2 x) for x >= 1, eq. (14): (word bits - 1) - clz(x).  On the device the bit
 * position itself (PTX bfind, one FLO instruction): 31 - __clz(x) compiles to FLO, a
 * subtraction and an xor that nvcc does not fold. */
static inline HD uint32_t s2_log2(uint32_t x)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x));
    return r;
#else
    return 31u - s2_clz(x);
#endif
}

/* Float multiply/subtract that nvcc may not fuse into an FMA, so that host and device
 * evaluate the float maps with exactly the same roundings. */
#ifdef __CUDA_ARCH__
#define S2_FMUL(a, b) __fmul_rn((a), (b))
#define S2_FADD(a, b) __fadd_rn((a), (b))
#else
#define S2_FMUL(a, b) ((a) * (b))
#define S2_FADD(a, b) ((a) + (b))
#endif

/* sqrt(x) by the Quake III inverse square root (initial guess 0x5f3759df) refined by three
 * Newton-Raphson steps y <- y (3/2 - x/2 y^2), then sqrt(x) = x y (section 4.1, lambda N). */
static inline HD float s2_sqrt_newton(float x)
{
    union { float f; uint32_t u; } v;
    v.f = x;
    v.u = 0x5f3759dfu - (v.u >> 1);
    float y = v.f, h = S2_FMUL(0.5f, x);
    for (int it = 0; it < 3; it++)
        y = S2_FMUL(y, S2_FADD(1.5f, -S2_FMUL(S2_FMUL(h, y), y)));
    return S2_FMUL(x, y);
}

/* x * rsqrtf(x), eq. (9).  On the device rsqrtf is the hardware approximation (MUFU.RSQ,
 * not correctly rounded); on the host it is emulated by 1 / sqrtf(x) -- so lambda-rsqrt's
 * exact range is found on the device (tests/gpu), its host emulation only approximates it. */
static inline HD float s2_sqrt_rsqrt(float x)
{
#ifdef __CUDA_ARCH__
    return S2_FMUL(x, rsqrtf(x));
#else
    return x * (1.0f / sqrtf(x));
#endif
}

/* lambda(omega) of eq. (4): block row i = floor(sqrt(1/4 + 2 omega) - 1/2 + eps), column
 * j = omega - i (i + 1) / 2, with the square root of the variant `map`; lambda-exact instead
 * takes row and column from tri_rowcol32 (no epsilon, exact for every omega < 2^32). */
static inline HD void s2_lambda(int map, uint32_t w, uint32_t *bi, uint32_t *bj)
{
    if (map == S2_LAMBDA_EXACT) { /* row and column together: T(y) computed once */
        *bi = tri_rowcol32(w, bj);
        return;
    }
    float x = S2_FADD(0.25f, S2_FMUL(2.0f, (float)w));
    float r = map == S2_LAMBDA_SQRT ? sqrtf(x) : map == S2_LAMBDA_NEWTON ? s2_sqrt_newton(x)
                                                                        : s2_sqrt_rsqrt(x);
    uint32_t i = (uint32_t)S2_FADD(S2_FADD(r, -0.5f), S2_EPSILON);
    *bi = i;
    *bj = w - (uint32_t)tri_number(i);
}

/* The O(1) recursive map, eq. (13) of arXiv:1610.07394, for a triangle of s = 2^k blocks
 * (diagonal included).  Parallel space: an orthotope of s/2 x (s + 1) blocks (wx, wy).
 * Rows wy in [1, s): level b = 2^floor(log2 wy) (eq. 14-15 with clz), q = floor(wx / b),
 * lambda(w) = (wx + q b, wy + 2 q b) = (column, row): the strictly-lower blocks.  The two
 * extra rows hold the s diagonal blocks: wy = 0 -> (wx, wx), wy = s -> (wx + s/2, ...).
 * s = 1: the single diagonal block.  Returns (row, column) in *bi, *bj.
 * This is the paper's case form; s2_recursive_pow2 below computes the same blocks without a
 * branch (host test: equal for every (wx, wy) of the orthotopes s = 1 .. 2^12). */
static inline HD void s2_recursive_pow2_cases(uint32_t logs, uint32_t wx, uint32_t wy, uint32_t *bi,
                                              uint32_t *bj)
{
    uint32_t s = 1u << logs, half = s >> 1;
    if (wy == 0) { *bi = *bj = wx; return; }
    if (wy == s) { *bi = *bj = wx + half; return; }
    uint32_t lb = s2_log2(wy), q = wx >> lb;   /* b = 2^lb, q = floor(wx / b) */
    *bj = wx + (q << lb);
    *bi = wy + (q << (lb + 1));
}

/* Eq. (13) as above, branch-free (the kernels' form): q b = floor(wx / b) b is wx with its
 * lb low bits cleared (one mask), and the two diagonal rows are selected instead of branched
 * to -- wy = 0 and wy = s are the rows with wy mod s = 0 (wy <= s), and their diagonal block
 * is wx + wy / 2 (wx, resp. wx + s/2).  wy | 1 only keeps log2 defined on row 0, whose
 * general result the select discards.  At rho = 32 (1024 threads a block) the kernels are
 * bound by instruction issue, so every instruction of the map counts. */
static inline HD void s2_recursive_pow2(uint32_t logs, uint32_t wx, uint32_t wy, uint32_t *bi,
                                        uint32_t *bj)
{
    const uint32_t lb = s2_log2(wy | 1u);               /* b = 2^lb (eq. 14-15) */
    const uint32_t qb = wx & (0xFFFFFFFFu << lb);       /* q b, q = floor(wx / b) */
    const int diag = (wy & ((1u << logs) - 1u)) == 0;   /* wy = 0 or wy = s */
    const uint32_t d = wx + (wy >> 1);                  /* the diagonal block of those rows */
    *bj = diag ? d : wx + qb;
    *bi = diag ? d : wy + 2u * qb;
}

/* The recursive map for any m ("approach from below", section III.A): m written in binary,
 * m = 2^k1 + 2^k2 + ... (k1 > k2 > ...), is a chain of pieces at offsets o = 0, 2^k1, ...:
 * for each bit, the triangle of 2^k blocks at (o, o) -- mapped by eq. (13) -- and the
 * rectangle of rows [o + 2^k, m) x columns [o, o + 2^k) below it.  The launch is the grid
 * (P/2) x rows, P = 2^k1, read in linear order w = wy P/2 + wx; the first piece is exactly
 * the paper's orthotope (w < P/2 (P + 1) gives wx, wy unchanged), the later pieces are
 * linear ranges of w.  The loop runs once per set bit of m (once when m = 2^k), per block,
 * visiting only the set bits (clz of the bits left), in 32-bit arithmetic: w < T(m) + P/2
 * <= T(92681) + 2^15 < 2^32 (s2_grid_make refuses T(m) >= 2^32, so m <= 92681). */
static inline HD int s2_recursive(uint32_t m, uint32_t half, uint32_t wx, uint32_t wy,
                                  uint32_t *bi, uint32_t *bj)
{
    uint32_t w = wy * half + wx;
    uint32_t o = 0, rest = m; /* o: offset of the piece, rest: m - o, the bits not yet used */
    while (rest) {
        uint32_t k = s2_log2(rest), s = 1u << k;
        rest ^= s;                                   /* now m - o - s: rows below the triangle */
        uint32_t tri = (s >> 1) * (s + 1) + (k == 0); /* T(s) blocks: 2^(k-1) (2^k + 1), or 1 */
        if (w < tri) {
            uint32_t lx = k ? w & ((s >> 1) - 1) : 0, ly = k ? w >> (k - 1) : 0;
            s2_recursive_pow2(k, lx, ly, bi, bj);
            *bi += o;
            *bj += o;
            return 1;
        }
        w -= tri;
        uint32_t rect = rest << k; /* (m - o - s) x s blocks, < T(m) < 2^32 */
        if (w < rect) {
            *bi = o + s + (w >> k);
            *bj = o + (w & (s - 1));
            return 1;
        }
        w -= rect;
        o += s;
    }
    return 0; /* past the last piece: the grid's final row is partly empty */
}

/* Rectangle box in block space (Jung & O'Leary packing, paper section 4.2): block row i is
 * paired with row m-1-i, together m + 1 blocks, so a grid of (m + 1) x ceil(m / 2) blocks
 * holds the triangle.  Grid row r: columns c < m - r are row m-1-r (j = c), the others are
 * row r (j = c - (m - r)).  For odd m the middle row pairs with itself: its second half
 * returns (at most (m + 1) / 2 idle blocks). */
static inline HD int s2_rb(uint32_t m, uint32_t c, uint32_t r, uint32_t *bi, uint32_t *bj)
{
    if (c < m - r) { *bi = m - 1 - r; *bj = c; return 1; }
    if (2 * r + 1 == m) return 0;
    *bi = r;
    *bj = c - (m - r);
    return 1;
}

/* Recursive partition (Ries et al.) as in section 4.2, without lookup table: the m blocks
 * per side are m = d 2^k (d = the diagonal triangles' side in blocks).  Launch l = 1..k
 * covers level l: 2^(k-l) squares of side s = d 2^(l-1), each the lower-left square of the
 * triangle of side 2s at offset q 2s; the grid is s x (s 2^(k-l)).  Launch 0 is the
 * diagonal pass: 2^k triangles of d blocks, a d x (d 2^k) grid whose blocks above each
 * small diagonal return (bounding box inside the diagonal triangles). */
static inline HD int s2_rec(uint32_t k, uint32_t d, uint32_t launch, uint32_t bx, uint32_t by,
                            uint32_t *bi, uint32_t *bj)
{
    if (launch == 0) {
        uint32_t q = by / d, r = by - q * d;
        if (bx > r) return 0;
        *bi = q * d + r;
        *bj = q * d + bx;
        return 1;
    }
    uint32_t s = d << (launch - 1);
    uint32_t q = by / s, r = by - q * s;
    *bi = q * 2 * s + s + r;
    *bj = q * 2 * s + bx;
    (void)k;
    return 1;
}

/* UTM (Avril et al., section 4.2), thread space: thread k of the n' (n' - 1) / 2 pairs
 * a < b of n' = n + 1 points.  Published (1-based): a = floor((-(2n+1) + sqrt(4n^2 - 4n -
 * 8k + 1)) / -2), b = (a + 1) + k - (a - 1)(2n - a) / 2.  Our 0-based form (row a starts at
 * S(a) = a (2n' - a - 1) / 2): a = floor(((2n' - 1) - sqrt(4n'^2 - 4n' + 1 - 8k)) / 2),
 * b = a + 1 + k - S(a);
 * the cell is (i, j) = (b - 1, a), which covers the triangle with diagonal.  The float
 * formula is exact only for small n (test_simplex2d_maps.c finds where it breaks); we
 * apply an integer correction of a against the row starts, so utm is exact for every n. */
static inline HD uint64_t s2_utm_start(uint64_t np, uint64_t a) { return a * (2 * np - a - 1) / 2; }

static inline HD uint32_t s2_utm_a_float(uint32_t n, uint64_t k)
{
    float np = (float)n + 1.0f;
    float disc = 4.0f * np * np - 4.0f * np + 1.0f - 8.0f * (float)k;
    float a = floorf(((2.0f * np - 1.0f) - sqrtf(fmaxf(disc, 0.0f))) / 2.0f);
    return a > 0.0f ? (uint32_t)a : 0u;
}

static inline HD void s2_utm(uint32_t n, uint64_t k, int correct, uint32_t *i, uint32_t *j)
{
    uint64_t np = (uint64_t)n + 1;
    uint64_t a = s2_utm_a_float(n, k);
    if (correct) {
        if (a > np - 2) a = np - 2;
        while (a > 0 && s2_utm_start(np, a) > k) a--;
        while (a + 1 < np - 1 && s2_utm_start(np, a + 1) <= k) a++;
    }
    uint64_t b = a + 1 + k - s2_utm_start(np, a);
    *i = (uint32_t)(b - 1);
    *j = (uint32_t)a;
}

/* ---- the one function every kernel and --layout use ----------------------------------- */

/* Block (bx, by) of launch `launch` -> block coordinate (bi, bj) of the block matrix, or 0
 * when the block does no work (above the diagonal, past the triangle, idle). */
static inline HD int s2_map_block(const s2_grid *g, int map, uint32_t launch, uint32_t bx,
                                  uint32_t by, uint32_t *bi, uint32_t *bj)
{
    switch (map) {
    case S2_BB:
        if (bx > by) return 0; /* paper 4.2: discard before computing thread coordinates */
        *bi = by;
        *bj = bx;
        return 1;
    case S2_RB: return s2_rb(g->m, bx, by, bi, bj);
    case S2_REC: return s2_rec(g->rec_k, g->rec_d, launch, bx, by, bi, bj);
    case S2_RECURSIVE: /* 1D grid: w = bx, split into the orthotope's (wx, wy) */
        if (g->m == 2 * g->rc_half) { /* m = 2^k: the paper's orthotope, no piece search */
            s2_recursive_pow2(g->rc_lhalf + 1, bx & (g->rc_half - 1), bx >> g->rc_lhalf, bi, bj);
            return 1;
        }
        return s2_recursive(g->m, g->rc_half, bx & (g->rc_half - 1), bx >> g->rc_lhalf, bi, bj);
    case S2_RECURSIVE_2D:
        if (g->m == 2 * g->rc_half) {
            s2_recursive_pow2(g->rc_lhalf + 1, bx, by, bi, bj);
            return 1;
        }
        return s2_recursive(g->m, g->rc_half, bx, by, bi, bj);
    case S2_RECURSIVE_POW2: /* recursive at m = 2^k: the orthotope is the whole triangle, */
        s2_recursive_pow2(g->rc_lhalf + 1, bx & (g->rc_half - 1), bx >> g->rc_lhalf, bi, bj);
        return 1;           /* every block in it (no row past m to test) */
    case S2_RECURSIVE_ABOVE: /* eq. (13) on the orthotope of P = 2^ceil(log2 m) >= m blocks */
        s2_recursive_pow2(g->rc_lhalf + 1, bx & (g->rc_half - 1), bx >> g->rc_lhalf, bi, bj);
        return *bi < g->m; /* rows past m: outside the domain, filtered (the approach's extra blocks) */
    case S2_LAMBDA_STRICT: /* eq. (5): lambda-exact's blocks, the row shift is per cell */
    case S2_LAMBDA_EXACT: /* 1D grid of exactly T(m) blocks: omega = bx, no idle block */
        *bi = tri_rowcol32(bx, bj);
        return 1;
    default: { /* the lambda family: grid m' x m', omega = by m' + bx (section 3) */
        uint32_t w = by * g->mp + bx;
        if (w >= g->nblocks_tri) return 0;
        s2_lambda(map == S2_LAMBDA_EXACT_2D ? S2_LAMBDA_EXACT : map, w, bi, bj);
        return 1;
    }
    }
}

/* Thread (tx, ty) of block (bx, by) of launch `launch` -> cell (i, j); 0 when the thread
 * has no cell (outside the triangle, past n).  strict = 1 keeps only j < i. */
static inline HD int s2_map_cell(const s2_grid *g, int map, uint32_t launch, uint32_t bx,
                                 uint32_t by, uint32_t tx, uint32_t ty, int strict, uint32_t *i,
                                 uint32_t *j)
{
    if (s2_map_is_utm(map)) {
        uint64_t k = ((uint64_t)by * g->gx[0] + bx) * (uint64_t)(g->rho * g->rho) + tx;
        if (k >= tri_number(g->n)) return 0;
        s2_utm(g->n, k, map == S2_UTM, i, j); /* utm-published: the float formula alone */
    } else {
        uint32_t bi, bj;
        if (!s2_map_block(g, map, launch, bx, by, &bi, &bj)) return 0;
        *i = bi * g->rho + ty + s2_row_shift(map);
        *j = bj * g->rho + tx;
    }
    if (*i >= g->n) return 0;
    return strict || s2_map_is_strict(map) ? *j < *i : *j <= *i;
}

/* ---- the launch grid (host) ----------------------------------------------------------- */

/* ceil(sqrt(x)) exactly, in integers. */
static inline uint64_t s2_isqrt_ceil(uint64_t x)
{
    uint64_t r = (uint64_t)sqrt((double)x);
    while (r * r > x) r--;
    while ((r + 1) * (r + 1) <= x) r++;
    return r * r == x ? r : r + 1;
}

/* Fills g for map, n, rho.  Returns 0, or writes why not into err (-> exit 2) and returns 1.
 * Limits: T(m) block indices and omega in 32 bits, grid dims within CUDA's limits. */
static inline int s2_grid_make(s2_grid *g, int map, uint32_t n, uint32_t rho, char *err, size_t errsz)
{
    memset(g, 0, sizeof *g);
    g->map = map;
    g->n = n;
    g->rho = rho;
    if (map < 0 || map >= S2_NMAPS) { snprintf(err, errsz, "unknown map"); return 1; }
    if (n == 0) { snprintf(err, errsz, "n must be at least 1"); return 1; }
    if (rho != 1 && rho != 2 && rho != 4 && rho != 8 && rho != 16 && rho != 32) {
        snprintf(err, errsz, "rho=%u not supported (1, 2, 4, 8, 16 or 32)", rho);
        return 1;
    }
    if (n > (1u << 20)) { snprintf(err, errsz, "n=%u too large (at most 2^20)", n); return 1; }
    uint32_t m = (n + rho - 1) / rho;
    g->m = m;
    /* every map numbers the T(m) blocks of the triangle (omega of the lambda maps, w of the
     * recursive map, nblocks_tri) in 32 bits: refuse a T(m) that does not fit (m > 92681,
     * i.e. n above ~92681 rho, reachable only with rho <= 8) instead of truncating it */
    if (tri_number(m) > UINT32_MAX) {
        snprintf(err, errsz, "n=%u, rho=%u: %u x %u blocks, T(m) = %llu block indices overflow 32 bits (use a larger rho)",
                 n, rho, m, m, (unsigned long long)tri_number(m));
        return 1;
    }
    g->nblocks_tri = (uint32_t)tri_number(m);
    g->nlaunch = 1;
    g->bx_threads = rho;
    g->by_threads = rho;
    switch (map) {
    case S2_BB: g->gx[0] = m; g->gy[0] = m; break;
    case S2_RB: g->gx[0] = m + 1; g->gy[0] = (m + 1) / 2; break;
    case S2_REC: {
        if (n % rho) {
            snprintf(err, errsz, "rec needs n = d 2^k rho (here n %% rho = %u): use n a multiple of %u", n % rho, rho);
            return 1;
        }
        uint32_t k = 0;
        while (!((m >> k) & 1u)) k++;
        if (k + 1 > S2_MAX_LAUNCHES) k = S2_MAX_LAUNCHES - 1;
        g->rec_k = k;
        g->rec_d = m >> k;
        g->nlaunch = k + 1;
        g->gx[0] = g->rec_d;
        g->gy[0] = g->rec_d << k;
        for (uint32_t l = 1; l <= k; l++) {
            uint32_t s = g->rec_d << (l - 1);
            g->gx[l] = s;
            g->gy[l] = s << (k - l);
        }
        break;
    }
    case S2_UTM:
    case S2_UTM_PUBLISHED: {
        uint64_t cells = tri_number(n), per = (uint64_t)rho * rho;
        uint64_t blocks = (cells + per - 1) / per;
        g->bx_threads = rho * rho;
        g->by_threads = 1;
        g->gx[0] = (uint32_t)(blocks < 65535 ? blocks : 65535);
        g->gy[0] = (uint32_t)((blocks + g->gx[0] - 1) / g->gx[0]);
        break;
    }
    case S2_RECURSIVE:
    case S2_RECURSIVE_2D: {
        uint32_t P = 1u << s2_log2(m);
        g->rc_half = P > 1 ? P / 2 : 1;
        g->rc_lhalf = s2_log2(g->rc_half);
        g->gx[0] = g->rc_half;
        g->gy[0] = (uint32_t)((g->nblocks_tri + g->rc_half - 1) / g->rc_half);
        if (map == S2_RECURSIVE) { /* the same w = wy P/2 + wx, as one row */
            uint64_t blocks = (uint64_t)g->gx[0] * g->gy[0];
            if (blocks > S2_MAX_GRID_X) {
                snprintf(err, errsz, "n=%u, rho=%u: %llu blocks exceed a 1D grid (2^31 - 1): use recursive-2d or a larger rho",
                         n, rho, (unsigned long long)blocks);
                return 1;
            }
            g->gx[0] = (uint32_t)blocks;
            g->gy[0] = 1;
        }
        break;
    }
    case S2_RECURSIVE_ABOVE: {
        uint32_t P = m > 1 ? 1u << (32 - s2_clz(m - 1)) : 1; /* the next power of two >= m */
        g->rc_half = P > 1 ? P / 2 : 1;
        g->rc_lhalf = s2_log2(g->rc_half);
        uint64_t blocks = P > 1 ? (uint64_t)(P / 2) * (P + 1) : 1; /* T(P): the whole orthotope */
        if (blocks > S2_MAX_GRID_X) {
            snprintf(err, errsz, "n=%u, rho=%u: %llu blocks (orthotope of P = %u) exceed a 1D grid (2^31 - 1): use a larger rho",
                     n, rho, (unsigned long long)blocks, P);
            return 1;
        }
        g->gx[0] = (uint32_t)blocks;
        g->gy[0] = 1;
        break;
    }
    case S2_LAMBDA_STRICT:
        if (n < 2) { snprintf(err, errsz, "lambda-strict needs n >= 2 (the strict triangle of n = 1 is empty)"); return 1; }
        g->m = m = (n - 1 + rho - 1) / rho; /* the triangle with diagonal of side n - 1 */
        g->nblocks_tri = (uint32_t)tri_number(m); /* then lambda-exact's 1D grid */
        /* fall through */
    case S2_LAMBDA_EXACT:
        if (g->nblocks_tri > S2_MAX_GRID_X) {
            snprintf(err, errsz, "n=%u, rho=%u: T(m) = %u blocks exceed a 1D grid (2^31 - 1): use lambda-exact-2d or a larger rho",
                     n, rho, g->nblocks_tri);
            return 1;
        }
        g->gx[0] = g->nblocks_tri;
        g->gy[0] = 1;
        break;
    default: /* lambda family */
        g->mp = (uint32_t)s2_isqrt_ceil(g->nblocks_tri);
        g->gx[0] = g->gy[0] = g->mp;
        break;
    }
    for (uint32_t l = 0; l < g->nlaunch; l++)
        if (g->gy[l] > S2_MAX_GRID_Y || g->gx[l] > S2_MAX_GRID_X) {
            snprintf(err, errsz, "n=%u, rho=%u: grid of %s exceeds CUDA's limits (%u x %u)", n, rho,
                     s2_map_name(map), g->gx[l], g->gy[l]);
            return 1;
        }
    return 0;
}

/* Blocks launched in all launches of g (the parallel space), for the efficiency columns. */
static inline uint64_t s2_grid_blocks(const s2_grid *g)
{
    uint64_t b = 0;
    for (uint32_t l = 0; l < g->nlaunch; l++) b += (uint64_t)g->gx[l] * g->gy[l];
    return b;
}

#endif
