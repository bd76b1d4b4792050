/* simplex3d/map.h -- GPU block-space thread maps for the discrete orthogonal tetrahedron.
 * arXiv:1609.01490 section 6 (eq. 10-17) and arXiv:1610.07394 sections III.B-III.C (eq. 16-24).
 *
 * Papers:
 *   [NL]  Navarro, Bustos, Hitschfeld, "A Non-linear GPU Thread Map for Triangular Domains",
 *         arXiv:1609.01490, section 6 (eq. 10-19): lambda(omega) extended to tetrahedra.
 *   [REC] Navarro, Bustos, Hitschfeld, "Possibilities of Recursive GPU Mapping for Discrete
 *         Orthogonal Simplices", arXiv:1610.07394, sections III.B-III.C (eq. 16-24).
 *
 * DOMAIN CONVENTION (used everywhere in simplex3d): the ORDERED form
 *     D_n = { (x, y, z) in Z^3 : 0 <= x <= y <= z < n },   |D_n| = n(n+1)(n+2)/6 = Tet(n).
 * Change of variables to the corner form of [REC] eq. (1), { (a, b, c) >= 0 : a + b + c < n }:
 *     a = x, b = y - x, c = z - y        <=>    x = a, y = a + b, z = a + b + c.
 * Change of variables to the strictly ordered triplets i < j < k < N of N particles (the
 * triplet kernel): N = n + 2, (i, j, k) = (x, y + 1, z + 2).
 *
 * Every map works in BLOCK space: blocks are rho x rho x rho threads; the tetrahedron of
 * nb = ceil(n / rho) blocks per side, D_nb, contains every block that holds a domain cell
 * (block (bx, by, bz) = (x/rho, y/rho, z/rho) keeps bx <= by <= bz).  A map turns the block
 * index of the launch grid into an ordered block (bx, by, bz) of D_nb, or says "no work";
 * thread (tx, ty, tz) of that block takes cell (bx rho + tx, by rho + ty, bz rho + tz) and
 * keeps it iff x <= y <= z < n (s3_cell_inside).  Every cell of D_n is then covered exactly
 * once (tests/host/test_simplex3d_coverage.c checks it for n = 1..96, rho = 1, 2, 4, 8).
 *
 * Maps (s3_map):
 *   bb             bounding box, nb^3 blocks; blocks with no cell of D_n return at once.
 *   lambda-cubic   [NL] sec. 6 as published: linear block index omega over a cube grid of
 *                  side ceil(cbrt(Tet(nb))), layer k from the real root of eq. (14) with the
 *                  fp32 Cardano formula (15), then the 2D lambda (fp32 sqrtf with the
 *                  epsilon 1e-4 of [NL] sec. 4.1) inside the layer.  Exact only for small
 *                  omega: see s3_lambda_cubic_first_fail() and the README.
 *   lambda-exact   ours: the same map with integer corrections of the layer (tet_layer_exact)
 *                  and of the row (tri_row_exact from ../simplex2d/map.h).  Exact for every
 *                  omega < S3_LAMBDA_EXACT_MAX_W.
 *   recursive-log  [REC] sec. III.B, beta = 3 half-cubes in the corner form: one launch per
 *                  sub-cube (O(log n) levels, (3^(k+1) - 1) / 2 launches for
 *                  2^k <= nb < 2^(k+1)).  Any nb: a sub-simplex of side m launches the cube of
 *                  side ceil(m/2) and recurses on three sub-simplices of side floor(m/2)
 *                  (for nb = 2^k exactly the paper's halving).
 *   recursive-o1   [REC] sec. III.C, eq. (23): the two-branch set S_N = (N/2)^3 + 2 S_{N/2}
 *                  (eq. 21-22), one launch of (N/2) x (N/2) x (3N/4 + 2) blocks, the level
 *                  b = 2^floor(log2 r) from a clz (eq. 14-15 of [REC]), a fold of each cube
 *                  onto its two prisms, the diagonal plane y = z handled by one extra layer
 *                  per cube plus N diagonal blocks.  No roots.  N = nb rounded up to a power
 *                  of two (blocks past nb return at once).
 *   recursive-o1-below  ours, for any nb ("from below", as simplex2d's recursive map): D_nb
 *                  split along the binary digits of nb (s3_block_ro1b): recursive-o1 on the
 *                  largest power of two P <= nb, then per digit three root-free pieces and the
 *                  recursion on the remainder.  For nb = 2^k it is recursive-o1 itself.
 */
#ifndef SIMPLEX3D_MAP_H
#define SIMPLEX3D_MAP_H

#include <stdint.h>
#include <math.h>
#include "../common/hd.h"
#include "../simplex2d/map.h" /* tri_number(y) = T(y), tri_row_exact(w): the 2D lambda; s2_clz */

typedef enum {
    S3_BB = 0,
    S3_LAMBDA_CUBIC,
    S3_LAMBDA_EXACT,
    S3_RECURSIVE_LOG,
    S3_RECURSIVE_O1,
    S3_RECURSIVE_O1B, /* recursive-o1-below (ours): any nb from below */
    S3_NMAPS
} s3_map;

#define S3_MAP_CHOICES "bb lambda-cubic lambda-exact recursive-log recursive-o1 recursive-o1-below"

static inline const char *s3_map_name(int m)
{
    switch (m) {
    case S3_BB: return "bb";
    case S3_LAMBDA_CUBIC: return "lambda-cubic";
    case S3_LAMBDA_EXACT: return "lambda-exact";
    case S3_RECURSIVE_LOG: return "recursive-log";
    case S3_RECURSIVE_O1: return "recursive-o1";
    case S3_RECURSIVE_O1B: return "recursive-o1-below";
    default: return "?";
    }
}

static inline int s3_map_of(const char *name)
{
    for (int m = 0; m < S3_NMAPS; m++) {
        const char *a = s3_map_name(m), *b = name;
        while (*a && *a == *b) a++, b++;
        if (!*a && !*b) return m;
    }
    return -1;
}

/* Tet(k) = k (k + 1) (k + 2) / 6: cells of D_k, and the blocks of the layers 0..k-1
 * ([NL] eq. 11).  Exact in 64 bits for k <= 2^20. */
static inline HD uint64_t tet_number(uint64_t k) { return k * (k + 1) * (k + 2) / 6; }

/* Packed index of the ordered cell (x, y, z): Tet(z) + T(y) + x, a bijection of D_n onto
 * [0, Tet(n)). */
static inline HD uint64_t s3_packed(uint64_t x, uint64_t y, uint64_t z)
{
    return tet_number(z) + tri_number(y) + x;
}

/* The same in 32-bit arithmetic (the per-thread audit: no 64-bit products, no 64-bit division
 * by 6), exact for k <= S3_TET32_MAX_K, the last k with Tet(k) < 2^32 (Tet(2952) =
 * 4 291 795 704, Tet(2953) >= 2^32; asserted by the host test).  Tet(k) = T(k) (k + 2) / 3
 * exactly, so 3 Tet(k) = T(k) (k + 2) also modulo 2^32, and multiplying by the inverse of 3
 * modulo 2^32 (0xAAAAAAAB: 3 x 0xAAAAAAAB = 2^33 + 1) gives Tet(k) mod 2^32 -- Tet(k) itself
 * where it fits -- with T(k) mod 2^32 from tri_number32: three multiplications, no division,
 * no branch.  (The earlier form divided whichever of T(k), k + 2 holds the factor 3: a
 * multiply-high, a remainder test and a select, 12 more instructions per map block.) */
#define S3_TET32_MAX_K 2952u
#define S3_TET32_MAX_W 4291795704ull /* Tet(S3_TET32_MAX_K) */
#define S3_INV3_MOD32 0xAAAAAAABu    /* 3^-1 modulo 2^32 */
static inline HD uint32_t tet_number32(uint32_t k)
{
    return tri_number32(k) * (k + 2u) * S3_INV3_MOD32;
}

/* Packed block index for grids whose blocks all lie in D_nb with nb <= S3_TET32_MAX_K
 * (then Tet(bz) + T(by) + bx < Tet(nb) <= S3_TET32_MAX_W < 2^32). */
static inline HD uint32_t s3_packed32(uint32_t x, uint32_t y, uint32_t z)
{
    return tet_number32(z) + tri_number32(y) + x;
}

static inline HD int s3_cell_inside(uint32_t x, uint32_t y, uint32_t z, uint32_t n)
{
    return x <= y && y <= z && z < n;
}

/* float -> unsigned, truncating, with the GPU's conversion semantics (cvt.rzi.u32.f32):
 * NaN and negative values give 0, values past 2^32 saturate.  Plain C leaves these cases
 * undefined; the host emulation of the as-published map must match the device. */
static inline HD uint32_t s3_f2u_rz(float v)
{
    if (!(v > 0.0f)) return 0u;
    if (v >= 4294967040.0f) return 0xFFFFFFFFu;
    return (uint32_t)v;
}

/* ---------------------------------------------------------------------------------------
 * lambda-cubic, as published ([NL] sec. 6).
 * Eq. (14): x^3 + 3x^2 + 2x - 6 omega = 0; its real root, eq. (15):
 *   x = cbrt(sqrt(729 w^2 - 3) + 27 w) / 3^(2/3) + 1 / (3^(1/3) cbrt(sqrt(729 w^2 - 3) + 27 w)) - 1
 * evaluated in fp32 (for omega = 0 the square root is NaN; the GPU's float->int conversion
 * turns it into layer 0, which happens to be right).  Bare eq. (15) already fails at the
 * exact tetrahedral number omega = Tet(3) = 10 (the root comes out as 2.99999, floor 2;
 * s3_cubic_root_f32 below, asserted by the host test), so, as the paper does for its float
 * square roots ([NL] sec. 4.1), the epsilon 1e-4 is added to the root before the floor.
 * k = floor(x + eps), omega2D = omega - Tet(k) (eq. 16), then the 2D lambda ([NL] eq. 4,
 * sqrtf, with the same epsilon):
 *   j = floor(sqrt(1/4 + 2 omega2D) - 1/2 + eps),  i = omega2D - T(j)           (eq. 17)
 * Block (i, j, k) is the ordered block (bx, by, bz) = (i, j, k): layer k of the linear
 * enumeration is the triangle bz = k, rows by = j <= k, columns bx = i <= j.
 * The first omega this gets wrong (host fp32, glibc cbrtf): S3_LAMBDA_CUBIC_FIRST_FAIL_HOST;
 * the GPU's cbrtf may differ in the last bit, so the program measures the device's own first
 * failure before timing this map and never times it past that point. */
#define S3_INV_CBRT9 0.480749856769136f  /* 1 / 3^(2/3) */
#define S3_INV_CBRT3 0.693361274350635f  /* 1 / 3^(1/3) */
#define S3_LAMBDA2D_EPS 1e-4f            /* [NL] sec. 4.1 */
#define S3_LAMBDA_CUBIC_FIRST_FAIL_HOST 400994ull /* = Tet(133) - 1: layer 133 instead of 132 */

/* The bare root of eq. (15), fp32 and fp64 (no epsilon): for the precision tests. */
static inline HD float s3_cubic_root_f32(uint64_t w)
{
    float wf = (float)w;
    float s = cbrtf(sqrtf(729.0f * wf * wf - 3.0f) + 27.0f * wf);
    return s * S3_INV_CBRT9 + S3_INV_CBRT3 / s - 1.0f;
}
static inline HD double s3_cubic_root_f64(uint64_t w)
{
    double wd = (double)w;
    double s = cbrt(sqrt(729.0 * wd * wd - 3.0) + 27.0 * wd);
    return s / cbrt(9.0) + 1.0 / (cbrt(3.0) * s) - 1.0;
}

static inline HD void s3_lambda_cubic_ijk(uint64_t w, uint32_t *i, uint32_t *j, uint32_t *k)
{
    uint32_t kk = s3_f2u_rz(s3_cubic_root_f32(w) + S3_LAMBDA2D_EPS); /* eq. (15) + eps */
    uint64_t w2 = w - tet_number(kk);                                 /* eq. (16) */
    uint32_t jj = s3_f2u_rz(sqrtf(0.25f + 2.0f * (float)w2) - 0.5f + S3_LAMBDA2D_EPS);
    *k = kk;
    *j = jj;
    *i = (uint32_t)(w2 - tri_number(jj));                             /* eq. (17) */
}

/* ---------------------------------------------------------------------------------------
 * lambda-exact (ours): the layer is the largest k with Tet(k) <= w.  A float guess from the
 * asymptotic root (x + 1)^3 ~ 6w, then integer corrections against Tet(k), so the result
 * never depends on float rounding.  Valid for w < S3_LAMBDA_EXACT_MAX_W (Tet(k+1) stays
 * below 2^64 / 1: k <= 2^20). */
#define S3_LAMBDA_EXACT_MAX_W 192154133857304576ull /* Tet(2^20) */

static inline HD uint32_t tet_layer_exact(uint64_t w)
{
    float g = cbrtf(6.0f * (float)w) - 1.0f;
    uint64_t k = s3_f2u_rz(g);
    if (k > (1u << 20)) k = 1u << 20;
    while (k > 0 && tet_number(k) > w) k--;
    while (tet_number(k + 1) <= w) k++;
    return (uint32_t)k;
}

static inline HD void s3_lambda_exact_ijk(uint64_t w, uint32_t *i, uint32_t *j, uint32_t *k)
{
    uint32_t kk = tet_layer_exact(w);
    uint64_t w2 = w - tet_number(kk);
    uint32_t jj = tri_row_exact(w2); /* the 2D lambda, exact (simplex2d/map.h) */
    *k = kk;
    *j = jj;
    *i = (uint32_t)(w2 - tri_number(jj));
}

/* The same map in 32-bit arithmetic, for w < S3_TET32_MAX_W (the per-thread audit; every
 * grid of the experiments: Tet(nb) <= Tet(2952) holds for n <= 23616 at rho = 8).  The layer:
 * a float guess from (k + 1)^3 ~ 6w, clamped to k <= S3_TET32_MAX_K - 1 (the true layer of
 * w < Tet(2952)), then the same two integer correction loops as tet_layer_exact with
 * tet_number32, which never overflows there (k + 1 <= 2952): exact for any guess.  The row:
 * tri_rowcol32 of simplex2d (one float root, one compare; proven and checked for every
 * w < 2^32 there).  Equal to s3_lambda_exact_ijk (host test: every layer boundary below
 * S3_TET32_MAX_W, the n = 4096 grids, random indices; GPU test: device == host). */
static inline HD uint32_t tet_layer_exact32(uint32_t w)
{
    uint32_t k = s3_f2u_rz(cbrtf(6.0f * (float)w) - 1.0f);
    if (k > S3_TET32_MAX_K - 1) k = S3_TET32_MAX_K - 1;
    while (k > 0 && tet_number32(k) > w) k--;
    while (tet_number32(k + 1) <= w) k++;
    return k;
}

static inline HD void s3_lambda_exact_ijk32(uint32_t w, uint32_t *i, uint32_t *j, uint32_t *k)
{
    const uint32_t kk = tet_layer_exact32(w);
    *k = kk;
    *j = tri_rowcol32(w - tet_number32(kk), i);
}

/* ---------------------------------------------------------------------------------------
 * Launch parameters: one plain struct, passed by value to every kernel. */
typedef struct {
    uint32_t n, rho, nb;      /* cells per side, threads per block side, blocks per side */
    uint32_t lrho;            /* log2(rho) */
    uint32_t gx, gy, gz;      /* launch grid (blocks) */
    uint64_t tet_blocks;      /* Tet(nb) */
    uint32_t idx32;           /* 1: nb <= S3_TET32_MAX_K, so packed block indices fit 32-bit
                                 arithmetic, and (lambda-exact) the grid holds <= 2^32 blocks */
    uint32_t elem32;          /* 1: idx32 and Tet(nb) rho^3 < 2^32, so element indices of the
                                 blocked layout fit 32-bit arithmetic too, below ~0u (n <= ~2944) */
    uint32_t N, half, zmain;  /* recursive-o1: N = pow2 >= nb, half = max(N/2, 1), main cube layers
                                 (recursive-o1-below: N = pow2 <= nb, the first piece) */
    uint32_t gzo1;            /* recursive-o1-below: grid layers of the first piece, recursive-o1(N) */
    uint32_t a0, b0, c0;      /* recursive-log: corner-form origin of this launch's sub-cube */
} s3_params;

/* The packed block index of ordered block (bx, by, bz): 32-bit arithmetic where it is exact
 * (the kernels' E32 instance, launched where elem32 holds, calls s3_packed32 directly). */
static inline HD uint64_t s3_packed_block(const s3_params *p, uint32_t bx, uint32_t by, uint32_t bz)
{
    return p->idx32 ? (uint64_t)s3_packed32(bx, by, bz) : s3_packed(bx, by, bz);
}

/* bb: block = blockIdx; work iff bx <= by <= bz. */
static inline HD int s3_block_bb(const s3_params *p, uint32_t ix, uint32_t iy, uint32_t iz,
                                 uint32_t *bx, uint32_t *by, uint32_t *bz)
{
    (void)p;
    *bx = ix, *by = iy, *bz = iz;
    return ix <= iy && iy <= iz;
}

static inline HD int s3_block_lambda(const s3_params *p, int exact, uint32_t ix, uint32_t iy,
                                     uint32_t iz, uint32_t *bx, uint32_t *by, uint32_t *bz)
{
    if (exact && p->idx32) { /* the grid's linear index < 2^32, Tet(nb) <= S3_TET32_MAX_W */
        const uint32_t w = ix + p->gx * (iy + p->gy * iz);
        if (w >= p->tet_blocks) return 0;
        s3_lambda_exact_ijk32(w, bx, by, bz);
        return 1;
    }
    uint64_t w = ix + (uint64_t)p->gx * (iy + (uint64_t)p->gy * iz); /* linear block index */
    if (w >= p->tet_blocks) return 0;
    if (exact) s3_lambda_exact_ijk(w, bx, by, bz);
    else s3_lambda_cubic_ijk(w, bx, by, bz);
    return 1;
}

/* recursive-log ([REC] sec. III.B): lambda(w, c, n) = phi(w, c)_{n/2} + lambda(w, c + (n/2,0,0))
 * + lambda(w, c + (0,n/2,0)) + lambda(w, c + (0,0,n/2)), in the corner form a + b + c < nb.
 * This launch covers the sub-cube at origin (a0, b0, c0); its blocks past the plane
 * a + b + c = nb - 1 return at once (the 1/5 extra volume of eq. 19). */
static inline HD int s3_block_rlog(const s3_params *p, uint32_t ix, uint32_t iy, uint32_t iz,
                                   uint32_t *bx, uint32_t *by, uint32_t *bz)
{
    uint32_t a = p->a0 + ix, b = p->b0 + iy, c = p->c0 + iz;
    if (a + b + c >= p->nb) return 0;
    *bx = a, *by = a + b, *bz = a + b + c; /* corner form -> ordered form */
    return 1;
}

/* recursive-o1 ([REC] sec. III.C, eq. 23), in the ordered form, N = 2^k blocks per side.
 * The set: for every level b = N/2, N/4, ..., 1 and q = 0 .. N/(2b) - 1, a cube of side b
 * whose origin o = 2qb lies on the diagonal; the cube folds onto the two prisms
 *     P1 = { o <= x <= y < o+b <= z < o+2b }      (u <= v:  (o+u, o+v, o+b+w))
 *     P2 = { o <= x < o+b <= y < z < o+2b }       (u > v:   (o+w, o+b+v, o+b+u))
 * (P1 + P2 = b^2 (b+1)/2 + b^2 (b-1)/2 = b^3 blocks, exactly the cube); these sets are
 * S_N = (N/2)^3 + 2 S_{N/2}, eq. (21), = D_{N-1} in volume, eq. (22).  The diagonal plane
 * y = z that eq. (24) leaves out is covered by one extra layer w = b per cube
 * ((o+u, o+b+v, o+b+v)) plus the N blocks (i, i, i).
 * Parallel space (blocks), x: half = N/2, y: half, z: zmain + H:
 *   z <  zmain = N/2 + 1:   the main cube, b = N/2, q = 0, (u, v, w) = (x, y, z)   (h(omega))
 *   z >= zmain (slab of H = N/4 + 1 layers): r = half - 1 - y;  r = 0: the diagonal blocks
 *   i = x + half (z - zmain);  r > 0: b = 2^floor(log2 r) (a clz, [REC] eq. 14-15),
 *   q = x / b, (u, v, w) = (x - qb, r - b, z - zmain), w <= b.                  (eq. 23)
 * Volume (N/2)^2 (3N/4 + 2) -> 1.125 Tet(N): the 12.5% of eq. (24).
 * s3_ro1_core below: the map (half = N/2, zmain, nb); s3_ro1_fold: the fold of one cube. */

/* The fold of one cube of side b at origin (o, o, o), cell (u, v, w) of its grid, w <= b: the
 * three cases as selects, no branch (the kernels evaluate it once per warp):
 *   w = b:   (o + u, o + b + v, o + b + v)   the diagonal plane y = z
 *   u <= v:  (o + u, o + v,     o + b + w)   prism P1
 *   u > v:   (o + w, o + b + v, o + b + u)   prism P2 (the fold)
 * 0 for a block past nb (N rounded nb up to a power of two). */
static inline HD int s3_ro1_fold(uint32_t b, uint32_t o, uint32_t u, uint32_t v, uint32_t w, uint32_t nb,
                                 uint32_t *bx, uint32_t *by, uint32_t *bz)
{
    const int plane = w == b, p1 = u <= v;
    const uint32_t x = o + (plane || p1 ? u : w);
    const uint32_t y = o + (plane || !p1 ? b + v : v);
    const uint32_t z = plane ? y : o + b + (p1 ? w : u);
    if (z >= nb) return 0;
    *bx = x, *by = y, *bz = z;
    return 1;
}

static inline HD int s3_ro1_core(uint32_t half, uint32_t zmain, uint32_t nb, uint32_t ix, uint32_t iy,
                                 uint32_t iz, uint32_t *bx, uint32_t *by, uint32_t *bz)
{
    if (iz < zmain) /* the main cube: b = N/2 = half (zmain > 0 only for N >= 2), o = 0 */
        return s3_ro1_fold(half, 0, ix, iy, iz, nb, bx, by, bz);
    const uint32_t zs = iz - zmain, r = half - 1 - iy;
    if (r == 0) { /* the diagonal blocks (i, i, i) */
        const uint32_t i = ix + half * zs;
        if (i >= nb) return 0;
        *bx = *by = *bz = i;
        return 1;
    }
    const uint32_t lg = 31u - s2_clz(r), b = 1u << lg;
    if (zs > b) return 0;
    const uint32_t o = (2u * (ix >> lg)) << lg; /* 2 q b, q = floor(x / b) */
    return s3_ro1_fold(b, o, ix & (b - 1u), r - b, zs, nb, bx, by, bz);
}

static inline HD int s3_block_ro1(const s3_params *p, uint32_t ix, uint32_t iy, uint32_t iz,
                                  uint32_t *bx, uint32_t *by, uint32_t *bz)
{
    return s3_ro1_core(p->half, p->zmain, p->nb, ix, iy, iz, bx, by, bz);
}

/* The grid of recursive-o1 for N = 2^k blocks per side: half x half x gz blocks, the main
 * cube's zmain layers first (see s3_block_ro1). */
static inline HD void s3_ro1_shape(uint32_t N, uint32_t *half, uint32_t *zmain, uint32_t *gz)
{
    const uint32_t H = N >= 4 ? N / 4 + 1 : (N == 2 ? 2 : 1);
    *half = N >= 2 ? N / 2 : 1;
    *zmain = N >= 2 ? N / 2 + 1 : 0;
    *gz = *zmain + H;
}

static inline HD uint32_t s3_top_bit(uint32_t v) { return 1u << (31u - s2_clz(v)); }

/* recursive-o1-below (ours): any nb, from below, as simplex2d's recursive map approaches a
 * non-power-of-two triangle.  With P the largest power of two <= s and r = s - P, the ordered
 * tetrahedron of side s at origin (o, o, o) splits by z < o + P, then y < o + P, then x < o + P:
 *   D_P                            recursive-o1 on P (z < o + P; eq. 23, 12.5% extra)
 *   TP = Tri(P) x r                {x <= y < o + P <= z}: the triangle of side P (diagonal
 *                                  included) in every one of the r layers, by simplex2d's
 *                                  O(1) recursive map (eq. 13 of [REC]) on its P/2 x (P + 1)
 *                                  grid: rows wy < P (TPm) and the last row wy = P (TPd), so
 *                                  that every piece decodes with shifts and masks only
 *   PT = P x Tri(r)                {x < o + P <= y <= z}: P columns times the triangle of side
 *                                  r, by tri_rowcol32 (simplex2d's exact 2D lambda)
 *   D_r at (o + P, o + P, o + P)   the same split again (next set bit of nb)
 * so D_nb is covered exactly once, every piece exactly (TPm, TPd, PT) or with recursive-o1's
 * 12.5%.  Launch: the grid of recursive-o1(P) for the first D_P (half x half x gzo1), then
 * ceil(rest / half^2) more layers of half x half blocks, read in linear order, holding the
 * other pieces one after the other (rest = s3_ro1b_rest).  A block of the extra layers finds
 * its piece by subtracting piece sizes, one loop step per set bit of nb below the top one. */
static inline HD uint64_t s3_ro1_volume(uint32_t N)
{
    uint32_t h, zm, gz;
    s3_ro1_shape(N, &h, &zm, &gz);
    return (uint64_t)h * h * gz;
}

static inline HD int s3_block_ro1b(const s3_params *p, uint32_t ix, uint32_t iy, uint32_t iz,
                                   uint32_t *bx, uint32_t *by, uint32_t *bz)
{
    if (iz < p->gzo1) return s3_ro1_core(p->half, p->zmain, p->N, ix, iy, iz, bx, by, bz);
    uint64_t w = ix + (uint64_t)p->gx * (iy + (uint64_t)p->gy * (iz - p->gzo1));
    uint32_t o = 0, s = p->nb, P = p->N;
    for (;;) { /* D_s at (o, o, o), P = top bit of s; its D_P is already covered */
        const uint32_t r = s - P;
        if (r == 0) return 0; /* past the last piece: the padding of the last layer */
        const uint32_t lp = 31u - s2_clz(P), h = P >> 1, lh = lp - 1; /* P >= 2 here */
        uint32_t row, col;
        uint64_t sz = (uint64_t)h * P * r; /* TPm: rows wy < P of the 2D recursive grid, r layers */
        if (w < sz) {
            s2_recursive_pow2(lp, (uint32_t)w & (h - 1), (uint32_t)(w >> lh) & (P - 1), &row, &col);
            *bx = o + col, *by = o + row, *bz = o + P + (uint32_t)(w >> (lh + lp));
            return 1;
        }
        w -= sz;
        sz = (uint64_t)h * r; /* TPd: row wy = P (the second half of the diagonal), r layers */
        if (w < sz) {
            s2_recursive_pow2(lp, (uint32_t)w & (h - 1), P, &row, &col);
            *bx = o + col, *by = o + row, *bz = o + P + (uint32_t)(w >> lh);
            return 1;
        }
        w -= sz;
        sz = (uint64_t)P * tri_number(r); /* PT: P columns x Tri(r) */
        if (w < sz) {
            uint32_t i, j = tri_rowcol32((uint32_t)(w >> lp), &i);
            *bx = o + ((uint32_t)w & (P - 1)), *by = o + P + i, *bz = o + P + j;
            return 1;
        }
        w -= sz;
        o += P, s = r, P = s3_top_bit(r); /* D_r at (o + P, ...): its D_P' by recursive-o1 */
        uint32_t hh, zm, gz;
        s3_ro1_shape(P, &hh, &zm, &gz);
        sz = (uint64_t)hh * hh * gz;
        if (w < sz) {
            const uint32_t lhh = 31u - s2_clz(hh);
            if (!s3_ro1_core(hh, zm, P, (uint32_t)w & (hh - 1), (uint32_t)(w >> lhh) & (hh - 1),
                             (uint32_t)(w >> (2 * lhh)), bx, by, bz))
                return 0;
            *bx += o, *by += o, *bz += o;
            return 1;
        }
        w -= sz;
    }
}

/* recursive-o1-below: the blocks of every piece after the first D_P (the extra layers). */
static inline uint64_t s3_ro1b_rest(uint32_t nb)
{
    uint64_t rest = 0;
    uint32_t s = nb, P = s3_top_bit(nb);
    for (int first = 1;; first = 0) {
        if (!first) rest += s3_ro1_volume(P);
        const uint32_t r = s - P;
        if (r == 0) return rest;
        rest += (uint64_t)(P / 2) * P * r + (uint64_t)(P / 2) * r + (uint64_t)P * tri_number(r);
        s = r, P = s3_top_bit(r);
    }
}

/* The map of block (ix, iy, iz) of the launch: 1 and the ordered block, or 0 (no work). */
static inline HD int s3_block(int map, const s3_params *p, uint32_t ix, uint32_t iy, uint32_t iz,
                              uint32_t *bx, uint32_t *by, uint32_t *bz)
{
    switch (map) {
    case S3_BB: return s3_block_bb(p, ix, iy, iz, bx, by, bz);
    case S3_LAMBDA_CUBIC: return s3_block_lambda(p, 0, ix, iy, iz, bx, by, bz);
    case S3_LAMBDA_EXACT: return s3_block_lambda(p, 1, ix, iy, iz, bx, by, bz);
    case S3_RECURSIVE_LOG: return s3_block_rlog(p, ix, iy, iz, bx, by, bz);
    case S3_RECURSIVE_O1: return s3_block_ro1(p, ix, iy, iz, bx, by, bz);
    case S3_RECURSIVE_O1B: return s3_block_ro1b(p, ix, iy, iz, bx, by, bz);
    default: return 0;
    }
}

/* ---------------------------------------------------------------------------------------
 * write-coarse (ours, not in the papers): the same maps and the same launch grids of map
 * blocks (rho^3 cells each, the blocked layout of the write kernel), but
 *   - one CUDA block serves 2^lc consecutive map blocks along the launch grid's x axis
 *     (coarse grid: ceil(gx / 2^lc) x gy x gz CUDA blocks, 2^(lc + ltpm) threads each);
 *   - 2^ltpm threads serve one map block; each evaluates the map itself (no shared memory,
 *     no barrier) and stores 16-byte chunks lane, lane + 2^ltpm, ... < rho^3 / 4 of the
 *     block's rho^3 contiguous elements (chunk ch = elements 4ch .. 4ch + 3).
 * bb is coarsened in exactly the same way (same kernel body; only the map differs).
 * Valid for rho >= 2 (rho^3 / 4 chunks), 2^ltpm <= rho^3 / 4, 2^(lc + ltpm) <= 1024. */
static inline HD int s3_coarse_block(int map, const s3_params *p, uint32_t lc, uint32_t ltpm, uint32_t jx,
                                     uint32_t iy, uint32_t iz, uint32_t t, uint32_t *bx, uint32_t *by,
                                     uint32_t *bz)
{
    uint32_t ix = (jx << lc) + (t >> ltpm); /* the map block of this thread's group */
    if (ix >= p->gx) return 0;              /* the last CUDA block of a row may overhang */
    return s3_block(map, p, ix, iy, iz, bx, by, bz);
}

/* The cell of element t = tx + rho (ty + rho tz) of ordered block (bx, by, bz). */
static inline HD void s3_elem_cell(uint32_t bx, uint32_t by, uint32_t bz, uint32_t lr, uint32_t t,
                                   uint32_t *x, uint32_t *y, uint32_t *z)
{
    uint32_t m = (1u << lr) - 1u;
    *x = (bx << lr) + (t & m), *y = (by << lr) + ((t >> lr) & m), *z = (bz << lr) + (t >> (2 * lr));
}

/* Bit k of the result: element 4 ch + k of block (bx, by, bz) holds a cell of D_n. */
static inline HD uint32_t s3_chunk_mask(uint32_t bx, uint32_t by, uint32_t bz, uint32_t lr, uint32_t n,
                                        uint32_t ch)
{
    uint32_t mask = 0;
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t x, y, z;
        s3_elem_cell(bx, by, bz, lr, 4 * ch + k, &x, &y, &z);
        mask |= (uint32_t)s3_cell_inside(x, y, z, n) << k;
    }
    return mask;
}

/* Block (bx, by, bz) lies wholly inside D_n (no per-cell test needed). */
static inline HD int s3_block_full(uint32_t bx, uint32_t by, uint32_t bz, uint32_t rho, uint32_t n)
{
    return bx < by && by < bz && (bz + 1) * rho <= n;
}

/* 0 if (rho, 2^lc map blocks per CUDA block, 2^ltpm threads per map block) is a valid
 * write-coarse configuration, -1 otherwise. */
static inline int s3_coarse_check(uint32_t lr, uint32_t lc, uint32_t ltpm)
{
    if (lr < 1 || lr > 3) return -1;
    if (ltpm > 3 * lr - 2) return -1;
    if (lc + ltpm > 10) return -1;
    return 0;
}

/* ---------------------------------------------------------------------------------------
 * Host side: launch grids. */
static inline uint32_t s3_ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

static inline int s3_is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

static inline uint32_t s3_next_pow2(uint32_t v)
{
    uint32_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

/* ceil(cbrt(v)), exact. */
static inline uint32_t s3_icbrt_ceil(uint64_t v)
{
    uint64_t g = (uint64_t)cbrt((double)v);
    while (g > 0 && g * g * g >= v) g--;
    while (g * g * g < v) g++;
    return (uint32_t)g;
}

/* Number of launches of a map (recursive-log: one per sub-cube, (3^(k+1) - 1)/2). */
static inline uint64_t s3_num_launches(int map, uint32_t nb)
{
    if (map != S3_RECURSIVE_LOG) return 1;
    uint64_t t = 1, sum = 0; /* level sizes nb, floor(nb/2), ..., 1: one cube each, 3^l of them */
    for (uint32_t s = nb; s > 1; s >>= 1) sum += t, t *= 3;
    return sum + t;
}

/* Base parameters (the whole grid of single-launch maps).  Returns 0, or -1 when the map
 * cannot take this size (grids past CUDA limits). */
static inline int s3_plan(int map, uint32_t n, uint32_t rho, s3_params *p)
{
    s3_params z = {0};
    *p = z;
    if (n == 0 || rho == 0) return -1;
    if (!s3_is_pow2(rho)) return -1;
    p->n = n, p->rho = rho, p->nb = s3_ceil_div(n, rho);
    p->lrho = 31u - s2_clz(rho);
    p->tet_blocks = tet_number(p->nb);
    p->N = s3_next_pow2(p->nb);
    p->half = p->N >= 2 ? p->N / 2 : 1;
    p->zmain = p->N >= 2 ? p->N / 2 + 1 : 0;
    switch (map) {
    case S3_BB: p->gx = p->gy = p->gz = p->nb; break;
    case S3_LAMBDA_CUBIC:
    case S3_LAMBDA_EXACT: p->gx = p->gy = p->gz = s3_icbrt_ceil(p->tet_blocks); break;
    case S3_RECURSIVE_O1: {
        uint32_t H = p->N >= 4 ? p->N / 4 + 1 : (p->N == 2 ? 2 : 1);
        p->gx = p->gy = p->half;
        p->gz = p->zmain + H;
        break;
    }
    case S3_RECURSIVE_O1B: {
        p->N = s3_top_bit(p->nb); /* from below: the largest power of two <= nb */
        s3_ro1_shape(p->N, &p->half, &p->zmain, &p->gzo1);
        const uint64_t rest = s3_ro1b_rest(p->nb), hh = (uint64_t)p->half * p->half;
        if ((rest + hh - 1) / hh > 65535) return -1;
        p->gx = p->gy = p->half;
        p->gz = p->gzo1 + (uint32_t)((rest + hh - 1) / hh);
        break;
    }
    case S3_RECURSIVE_LOG: /* the first (largest) launch: the cube of side ceil(nb / 2) */
        p->gx = p->gy = p->gz = p->nb > 1 ? (p->nb + 1) / 2 : 1;
        break;
    default: return -1;
    }
    if (p->gy > 65535 || p->gz > 65535) return -1;
    p->idx32 = p->nb <= S3_TET32_MAX_K &&
               (map != S3_LAMBDA_EXACT || (uint64_t)p->gx * p->gy * p->gz <= (1ull << 32));
    p->elem32 = p->idx32 && (p->tet_blocks << (3 * p->lrho)) < (1ull << 32);
    return 0;
}

/* recursive-log: the launches as (side, a0, b0, c0), in the order of the paper's recursion
 * (depth first: cube, then the sub-tetrahedra at +x, +y, +z).  `out` holds
 * s3_num_launches() entries of 4 uint32.  Returns the count written. */
static inline uint64_t s3_rlog_launches_rec(uint32_t m, uint32_t a, uint32_t b, uint32_t c,
                                            uint32_t *out, uint64_t at)
{
    if (m == 1) {
        out[4 * at] = 1, out[4 * at + 1] = a, out[4 * at + 2] = b, out[4 * at + 3] = c;
        return at + 1;
    }
    /* the sub-simplex a' + b' + c' < m: the cube of side h = ceil(m/2), then the three
     * sub-simplices of side m - h at +h along each axis (at most one coordinate can reach h,
     * since 2h >= m); the blocks' filter a + b + c < nb is this sub-simplex's own bound */
    uint32_t h = (m + 1) / 2;
    out[4 * at] = h, out[4 * at + 1] = a, out[4 * at + 2] = b, out[4 * at + 3] = c;
    at++;
    at = s3_rlog_launches_rec(m - h, a + h, b, c, out, at);
    at = s3_rlog_launches_rec(m - h, a, b + h, c, out, at);
    at = s3_rlog_launches_rec(m - h, a, b, c + h, out, at);
    return at;
}

/* write-coarse: CUDA blocks launched (every launch of recursive-log: ceil(side / 2^lc) side^2). */
static inline uint64_t s3_coarse_blocks(int map, const s3_params *p, uint32_t lc)
{
    uint64_t C = 1ull << lc;
    if (map == S3_RECURSIVE_LOG) {
        uint64_t t = 1, vol = 0;
        for (uint64_t s = p->nb; s > 1; s >>= 1) vol += t * (((s + 1) / 2 + C - 1) / C) * ((s + 1) / 2) * ((s + 1) / 2), t *= 3;
        return vol + t; /* the 3^k side-1 leaves: one CUDA block each */
    }
    return ((p->gx + C - 1) / C) * p->gy * p->gz;
}

/* Threads launched by a map for this size (the parallel volume, in threads). */
static inline uint64_t s3_threads_launched(int map, const s3_params *p)
{
    uint64_t r3 = (uint64_t)p->rho * p->rho * p->rho;
    if (map == S3_RECURSIVE_LOG) {
        /* level l: 3^l sub-simplices of side s = floor(nb / 2^l), each a cube of side
         * ceil(s / 2); then 3^k leaves of side 1 */
        uint64_t t = 1, vol = 0;
        for (uint64_t s = p->nb; s > 1; s >>= 1) vol += t * ((s + 1) / 2) * ((s + 1) / 2) * ((s + 1) / 2), t *= 3;
        return (vol + t) * r3;
    }
    return (uint64_t)p->gx * p->gy * p->gz * r3;
}

#endif
