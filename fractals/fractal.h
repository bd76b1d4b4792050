/* fractals/fractal.h -- the NBB fractals of Table 1 (section 3) and the block-space map
 * lambda(omega) (section 4, eqs. 1-6) as plain HD functions (host-testable with cc, nvcc too).
 *
 * Paper: F. A. Quezada, "Acelerando ecuaciones de mapeo de hilos de GPU para fractales 2D
 * empotrados utilizando Tensor Cores" (UACh), section 3.1 (Table 1: the NBB family) and
 * section 4 (eqs. 1-6: lambda(omega)), restating Navarro et al., "Block-space GPU mapping
 * for embedded Sierpinski gasket fractals" (HPCC 2017) and "Efficient GPU thread mapping
 * on embedded 2D fractals" (FGCS 2020).
 *
 * Conventions used everywhere in fractals/ (and by tensorcore/):
 *   - a cell is (x, y): x = column (grows to the right), y = row (grows DOWN, row 0 is
 *     drawn first); the embedded n x n array is row-major, index y * n + x, 1 byte/cell.
 *   - fractal f at level r: side n = s^r, k^r cells; (x, y) belongs to it iff for every
 *     level l < r the base-s digit pair (x_l, y_l) is one of the k pairs of f's table H
 *     (section 3.1).  Level 0 is the single cell (0, 0).
 *   - a block of rho x rho threads (rho = s^rl, 1 <= rho <= 32 so that rho^2 <= 1024):
 *     rb = r - rl is the block level, n_b = n / rho = s^rb (section 4).  Thread (tx, ty)
 *     of a block whose top-left cell is (bx rho, by rho) handles cell (bx rho + tx,
 *     by rho + ty) iff the local offset (tx, ty) is a cell of f at level rl (every fractal
 *     block holds a copy of the level-rl fractal).
 *
 * API (all static inline; HD where the device needs it):
 *   nbb_fractal, FRACTAL_TABLE[FRACTAL_COUNT], fractal_by_name(name), fractal_names(buf)
 *   fractal_hausdorff(f)                      log k / log s   (Table 1)
 *   fractal_member(f, x, y, r)                reference membership, digit by digit (3.1)
 *   lambda_map(f, rb, wx, wy, &bx, &by)       eqs. 1-6 written literally (reference)
 *   lambda_grid(f, rb, &gx, &gy)              compact grid k^ceil(rb/2) x k^floor(rb/2)
 *   fractal_pow(b, e)                         b^e in 64 bits (saturates at 2^63)
 *   fractal_level_of(s, v)                    e with s^e == v, or -1
 *   fractal_cell_of(f, r, i, &x, &y)          cell number i < k^r by replication (3.1)
 *   fractal_odometer_init/next                the same cells in order, O(1) per cell
 *  fast forms (what the kernels run; same results, checked by the host tests):
 *   nbb_fast, nbb_fast_make(f)                packed H (2 bits per entry), magic divisors
 *   nbb_fast_member(F, x, y, levels)          membership without division instructions
 *   nbb_fast_lambda(F, rb, wx, wy, &bx, &by)  lambda(omega) without division instructions
 *  launches (one map = grid + block + per-thread cell function):
 *   fractal_launch, fractal_launch_init(&L, f, r, rho, map, err, errsize)  (host)
 *   fractal_lambda_cell(L, bx, by, tx, ty, &x, &y) / fractal_bb_cell(...)  (HD)
 *   fractal_bb_skip_cell(...) / fractal_bb_block_cell(...)  bb with a block-level early exit,
 *     split as the kernels run it: fractal_bb_skip_keeps / fractal_bb_block_keeps (the
 *     block's test) and fractal_bb_skip_thread / fractal_bb_block_thread (a kept block's
 *     thread), reading fractal_bb_fast_make(L) (nbb_anf2: s = 2 membership in 4 logic ops)
 *   fractal_lower_triangular(f)               every cell has x <= y
 *   fractal_bb_skip_applies(f)                lower triangle and s = 2 (bb-skip runs)
 *   fractal_block_cell(L, cx, cy, tx, ty, &x, &y)   the cell, given the block's lambda (cx, cy)
 *   fractal_launch_cell(L, bx, by, tx, ty, &x, &y)   dispatch on L->map
 *
 * Plain C (cc -std=gnu11) and CUDA: nothing here includes a CUDA header. */
#ifndef FRACTALS_FRACTAL_H
#define FRACTALS_FRACTAL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "../common/hd.h"

#define FRACTAL_MAX_K 16   /* H tables hold at most 16 translations */
#define FRACTAL_MAX_S 4    /* fast form packs tau in 2 bits: s <= 4 (Table 1 has s = 2, 3, 4) */
#define FRACTAL_MAX_RHO 32 /* rho x rho threads per block <= 1024 (CUDA limit) */
#define FRACTAL_MAX_N (1u << 28) /* magic division is exact for dividends < 2^32 / 16 */

/* One NBB fractal (section 3.1): k replicas per construction step, scale s, and the
 * translation table H[beta] = (tau_x[beta], tau_y[beta]) in [0, s-1]^2 of eq. (2). */
typedef struct {
    const char *name;
    int k, s;
    int tau_x[FRACTAL_MAX_K], tau_y[FRACTAL_MAX_K];
} nbb_fractal;

/* Table 1 of the paper.  The paper shows the construction steps only as pictures; these
 * are the standard shapes (drawn in fractals/README.md; y grows downwards):
 *   sierpinski-triangle  X.   (eq. 8: H = {(0,0), (0,1), (1,1)})
 *                        XX
 *   candelabra  X.X   h-fractal X.X   candy .XX.   carpet XXX   x-fractal X.X
 *               .X.             XXX         XXXX          X.X             .X.
 *               .X.             X.X         XXXX          XXX             X.X
 *                                           .XX.
 *   vicsek .X.   empty-bottles X.X   cantor-dust X.X  (the Cantor set on row 0)
 *          XXX                 X.X               ...
 *          .X.                 XXX               ...
 * Entries are listed row by row, left to right (that order is beta of eq. 1). */
#define FRACTAL_COUNT 9
static const nbb_fractal FRACTAL_TABLE[FRACTAL_COUNT] = {
    {"sierpinski-triangle", 3, 2, {0, 0, 1}, {0, 1, 1}},
    {"candelabra", 4, 3, {0, 2, 1, 1}, {0, 0, 1, 2}},
    {"h-fractal", 7, 3, {0, 2, 0, 1, 2, 0, 2}, {0, 0, 1, 1, 1, 2, 2}},
    {"candy", 12, 4, {1, 2, 0, 1, 2, 3, 0, 1, 2, 3, 1, 2}, {0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3}},
    {"sierpinski-carpet", 8, 3, {0, 1, 2, 0, 2, 0, 1, 2}, {0, 0, 0, 1, 1, 2, 2, 2}},
    {"x-fractal", 5, 3, {0, 2, 1, 0, 2}, {0, 0, 1, 2, 2}},
    {"vicsek", 5, 3, {1, 0, 1, 2, 1}, {0, 1, 1, 1, 2}},
    {"empty-bottles", 7, 3, {0, 2, 0, 2, 0, 1, 2}, {0, 0, 1, 1, 2, 2, 2}},
    {"cantor-dust", 2, 3, {0, 2}, {0, 0}},
};

static inline const nbb_fractal *fractal_by_name(const char *name)
{
    for (int i = 0; i < FRACTAL_COUNT; i++)
        if (!strcmp(FRACTAL_TABLE[i].name, name)) return &FRACTAL_TABLE[i];
    return NULL;
}

/* "sierpinski-triangle candelabra ..." (for --help and ARG_CHOICE lists). */
static inline const char *fractal_names(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < FRACTAL_COUNT && used + 1 < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s", i ? " " : "", FRACTAL_TABLE[i].name);
        if (w < 0) break;
        used += (size_t)w;
    }
    return buf;
}

/* Hausdorff dimension H = log k / log s (section 3.1, Table 1). */
static inline double fractal_hausdorff(const nbb_fractal *f) { return log((double)f->k) / log((double)f->s); }

/* b^e in 64 bits; saturates at 2^63 instead of overflowing. */
static inline HD uint64_t fractal_pow(uint64_t b, int e)
{
    uint64_t p = 1;
    for (int i = 0; i < e; i++) {
        if (b && p > ((uint64_t)1 << 63) / b) return (uint64_t)1 << 63;
        p *= b;
    }
    return p;
}

/* The e >= 0 with s^e == v, or -1 if v is not a power of s. */
static inline HD int fractal_level_of(int s, uint64_t v)
{
    int e = 0;
    if (v == 0 || s < 2) return -1;
    while (v % (uint64_t)s == 0) {
        v /= (uint64_t)s;
        e++;
    }
    return v == 1 ? e : -1;
}

/* Reference membership (section 3.1): (x, y) is a cell of f at level r iff x, y < s^r and
 * every base-s digit pair (x_l, y_l), l < r, is in H.  Straight digit arithmetic. */
static inline HD int fractal_member(const nbb_fractal *f, uint32_t x, uint32_t y, int r)
{
    uint32_t s = (uint32_t)f->s;
    for (int l = 0; l < r; l++) {
        uint32_t dx = x % s, dy = y % s;
        int found = 0;
        for (int b = 0; b < f->k; b++) found |= (uint32_t)f->tau_x[b] == dx && (uint32_t)f->tau_y[b] == dy;
        if (!found) return 0;
        x /= s;
        y /= s;
    }
    return x == 0 && y == 0;
}

/* Compact parallel space of lambda at block level rb (section 3.1, property 2; section 4):
 * k^ceil(rb/2) blocks along x, k^floor(rb/2) along y. */
static inline HD void lambda_grid(const nbb_fractal *f, int rb, uint64_t *gx, uint64_t *gy)
{
    *gx = fractal_pow((uint64_t)f->k, (rb + 1) / 2);
    *gy = fractal_pow((uint64_t)f->k, rb / 2);
}

/* lambda(omega), eqs. 1-6, written as in the paper: block omega = (wx, wy) of the compact
 * grid -> block coordinates (bx, by) (in blocks) of the embedded fractal at level rb.
 *   eq. 1: beta_mu = ((wx (mu mod 2) + wy ((mu+1) mod 2)) / k^(ceil(mu/2) - 1)) mod k
 *   eq. 2: tau^mu = H[beta_mu]
 *   eq. 3: Delta^mu = tau^mu s^(mu-1)
 *   eqs. 4-6: lambda = sum_{mu=1..rb} Delta^mu */
static inline HD void lambda_map(const nbb_fractal *f, int rb, uint32_t wx, uint32_t wy, uint32_t *bx, uint32_t *by)
{
    uint64_t lx = 0, ly = 0;
    for (int mu = 1; mu <= rb; mu++) {
        uint64_t w = (uint64_t)wx * (uint64_t)(mu % 2) + (uint64_t)wy * (uint64_t)((mu + 1) % 2);
        uint64_t beta = (w / fractal_pow((uint64_t)f->k, (mu + 1) / 2 - 1)) % (uint64_t)f->k; /* eq. 1 */
        uint64_t sp = fractal_pow((uint64_t)f->s, mu - 1);
        lx += (uint64_t)f->tau_x[beta] * sp; /* eqs. 2, 3, 5 */
        ly += (uint64_t)f->tau_y[beta] * sp; /* eqs. 2, 3, 6 */
    }
    *bx = (uint32_t)lx;
    *by = (uint32_t)ly;
}

/* Cell number i (0 <= i < k^r) of f at level r by the construction by replication:
 * digit l of i (base k) picks the translation H[digit] applied at scale s^l (section 3.1). */
static inline HD void fractal_cell_of(const nbb_fractal *f, int r, uint64_t i, uint32_t *x, uint32_t *y)
{
    uint32_t cx = 0, cy = 0, p = 1;
    for (int l = 0; l < r; l++) {
        uint32_t d = (uint32_t)(i % (uint64_t)f->k);
        i /= (uint64_t)f->k;
        cx += (uint32_t)f->tau_x[d] * p;
        cy += (uint32_t)f->tau_y[d] * p;
        p *= (uint32_t)f->s;
    }
    *x = cx;
    *y = cy;
}

/* Enumerates cells i0, i0+1, ... of fractal_cell_of in order, updating the base-k digits
 * like an odometer (amortized O(1) per cell): host references walk k^r cells with it.
 *   fractal_odometer o; fractal_odometer_init(&o, f, r, i0);  ... o.x, o.y ...;
 *   fractal_odometer_next(&o); */
typedef struct {
    const nbb_fractal *f;
    int r;
    uint32_t x, y;
    uint8_t d[40];
    uint32_t p[40];
} fractal_odometer;

static inline void fractal_odometer_init(fractal_odometer *o, const nbb_fractal *f, int r, uint64_t i)
{
    o->f = f;
    o->r = r;
    o->x = o->y = 0;
    uint32_t p = 1;
    for (int l = 0; l < r && l < 40; l++) {
        o->d[l] = (uint8_t)(i % (uint64_t)f->k);
        i /= (uint64_t)f->k;
        o->p[l] = p;
        o->x += (uint32_t)f->tau_x[o->d[l]] * p;
        o->y += (uint32_t)f->tau_y[o->d[l]] * p;
        p *= (uint32_t)f->s;
    }
}

static inline void fractal_odometer_next(fractal_odometer *o)
{
    const nbb_fractal *f = o->f;
    for (int l = 0; l < o->r; l++) {
        int old = o->d[l], nd = old + 1 < f->k ? old + 1 : 0;
        o->d[l] = (uint8_t)nd;
        o->x += ((uint32_t)f->tau_x[nd] - (uint32_t)f->tau_x[old]) * o->p[l];
        o->y += ((uint32_t)f->tau_y[nd] - (uint32_t)f->tau_y[old]) * o->p[l];
        if (nd) return; /* no carry */
    }
}

/* ---- fast forms: what the kernels evaluate ------------------------------------------ */

/* Unsigned division by a small constant d (2 <= d <= 16) without a divide instruction:
 * q = floor(x * M / 2^32) with M = floor(2^32 / d) + 1 is exact for every x < 2^32 / d
 * (the error x (M d - 2^32) / (d 2^32) stays below 1/d); all dividends here are below
 * FRACTAL_MAX_N = 2^28 (checked by fractal_launch_init; tested in the host tests). */
static inline HD uint32_t fractal_magic(uint32_t d) { return (uint32_t)(0xFFFFFFFFu / d) + 1u; }
static inline HD uint32_t fractal_udiv(uint32_t x, uint32_t magic)
{
#ifdef __CUDA_ARCH__
    return __umulhi(x, magic);
#else
    return (uint32_t)(((uint64_t)x * magic) >> 32);
#endif
}

/* A fractal in the form the device uses: H packed 2 bits per entry (hx, hy), the s x s
 * digit-pair membership mask (bit dx + s dy), magic divisors for k and s, and for s = 2 the
 * four digit pairs NOT in H as bit masks (bit-parallel membership over all levels at once). */
typedef struct {
    uint32_t k, s;
    uint32_t hx, hy;        /* tau_x[b] = (hx >> 2b) & 3, tau_y[b] = (hy >> 2b) & 3 (eq. 2) */
    uint32_t cellmask;      /* bit dx + s dy set iff (dx, dy) in H */
    uint32_t magic_k, magic_s;
    uint32_t s2_forbid;     /* s == 2: bit (2 dy + dx) set iff (dx, dy) NOT in H */
    uint32_t s2_f00, s2_f10, s2_f01, s2_f11; /* s == 2: ~0 iff digit pair (dx,dy) NOT in H, else 0 */
} nbb_fast;

static inline nbb_fast nbb_fast_make(const nbb_fractal *f)
{
    nbb_fast F;
    memset(&F, 0, sizeof F);
    F.k = (uint32_t)f->k;
    F.s = (uint32_t)f->s;
    for (int b = 0; b < f->k; b++) {
        F.hx |= (uint32_t)f->tau_x[b] << (2 * b);
        F.hy |= (uint32_t)f->tau_y[b] << (2 * b);
        F.cellmask |= 1u << (f->tau_x[b] + f->s * f->tau_y[b]);
    }
    F.magic_k = fractal_magic(F.k);
    F.magic_s = fractal_magic(F.s);
    if (F.s == 2) {
        F.s2_forbid = ~F.cellmask & 15u;
        F.s2_f00 = (F.s2_forbid & 1u) ? 0xFFFFFFFFu : 0u;
        F.s2_f10 = (F.s2_forbid & 2u) ? 0xFFFFFFFFu : 0u;
        F.s2_f01 = (F.s2_forbid & 4u) ? 0xFFFFFFFFu : 0u;
        F.s2_f11 = (F.s2_forbid & 8u) ? 0xFFFFFFFFu : 0u;
    }
    return F;
}

/* Membership at `levels` levels for x, y < s^levels (callers guarantee the range).
 * s = 2: a digit pair (a, b) not in H occurs at some level iff (x==a bits) & (y==b bits)
 * has a bit set below `levels`: four mask operations replace the digit loop. */
static inline HD int nbb_fast_member(const nbb_fast *F, uint32_t x, uint32_t y, int levels)
{
    if (F->s == 2) { /* each term is one 3-input logic op (LOP3) on the GPU */
        uint32_t m = levels >= 32 ? 0xFFFFFFFFu : (1u << levels) - 1u;
        uint32_t bad = (~x & ~y & F->s2_f00) | (x & ~y & F->s2_f10) | (~x & y & F->s2_f01) | (x & y & F->s2_f11);
        return (bad & m) == 0;
    }
    uint32_t ok = 1;
    for (int l = 0; l < levels; l++) {
        uint32_t qx = fractal_udiv(x, F->magic_s), qy = fractal_udiv(y, F->magic_s);
        uint32_t dx = x - qx * F->s, dy = y - qy * F->s;
        ok &= F->cellmask >> (dx + F->s * dy);
        x = qx;
        y = qy;
    }
    return (int)(ok & 1u);
}

/* lambda(omega) of eqs. 1-6 without division instructions.  Eq. 1 gives odd mu = 2i+1 the
 * digit i (base k) of wx, with weight s^(mu-1) = s^(2i) (eq. 3), and even mu = 2i+2 the
 * digit i of wy, with weight s^(2i+1); mu runs to rb, so wy's digit i counts iff 2i+2 <= rb.
 * Both digit chains advance in the same iteration (independent: instruction-level
 * parallelism), and the four partial sums of eqs. 5-6 are added at the end. */
static inline HD void nbb_fast_lambda(const nbb_fast *F, int rb, uint32_t wx, uint32_t wy, uint32_t *bx, uint32_t *by)
{
    uint32_t xx = 0, xy = 0, yx = 0, yy = 0, p = 1;
    for (int i = 0; 2 * i < rb; i++) {
        uint32_t qx = fractal_udiv(wx, F->magic_k), qy = fractal_udiv(wy, F->magic_k);
        uint32_t bx_ = wx - qx * F->k, by_ = wy - qy * F->k; /* beta_{2i+1}, beta_{2i+2} (eq. 1) */
        wx = qx;
        wy = qy;
        uint32_t py = 2 * i + 1 < rb ? p * F->s : 0u;        /* s^(2i+1), or 0 past mu = rb */
        xx += ((F->hx >> (2 * bx_)) & 3u) * p;                /* eqs. 2, 3, 5 */
        yx += ((F->hy >> (2 * bx_)) & 3u) * p;                /* eqs. 2, 3, 6 */
        xy += ((F->hx >> (2 * by_)) & 3u) * py;
        yy += ((F->hy >> (2 * by_)) & 3u) * py;
        p *= F->s * F->s;
    }
    *bx = xx + xy;
    *by = yx + yy;
}

/* b^e (b^e < 2^32) by repeated squaring: O(log e) multiplications. */
static inline HD uint32_t fractal_pow_sq(uint32_t b, uint32_t e)
{
    uint32_t p = 1;
    while (e) {
        if (e & 1u) p *= b;
        b *= b;
        e >>= 1;
    }
    return p;
}

/* The parallel lambda of section 4 ("O(log log n_b) time with Theta(log n_b / log log n_b)
 * threads"): the rb terms Delta^mu of eqs. 4-6 are independent, so thread mu computes one:
 *   beta_mu = (w / k^(ceil(mu/2) - 1)) mod k, w = wx for odd mu, wy for even (eq. 1),
 *   Delta^mu = (tau_x, tau_y)[beta_mu] s^(mu-1) (eqs. 2-3),
 * with both powers by squaring (O(log mu) = O(log log n_b) steps) and one 32-bit division;
 * the threads then add their terms (eqs. 5-6) in a tree (O(log rb) = O(log log n_b)).  The
 * kernels' lambda_par_map does the adding with one warp reduction. */
static inline HD void lambda_par_term(const nbb_fast *F, int mu, uint32_t wx, uint32_t wy, uint32_t *dx, uint32_t *dy)
{
    uint32_t w = (mu & 1) ? wx : wy;
    uint32_t q = w / fractal_pow_sq(F->k, (uint32_t)(mu + 1) / 2u - 1u);
    uint32_t beta = q - fractal_udiv(q, F->magic_k) * F->k; /* eq. 1 */
    uint32_t sp = fractal_pow_sq(F->s, (uint32_t)mu - 1u);  /* eq. 3 */
    *dx = ((F->hx >> (2 * beta)) & 3u) * sp;                /* eq. 2 */
    *dy = ((F->hy >> (2 * beta)) & 3u) * sp;
}

/* The combine step written serially (host tests; the device adds in a warp reduction). */
static inline HD void lambda_par(const nbb_fast *F, int rb, uint32_t wx, uint32_t wy, uint32_t *bx, uint32_t *by)
{
    uint32_t sx = 0, sy = 0;
    for (int mu = 1; mu <= rb; mu++) {
        uint32_t dx, dy;
        lambda_par_term(F, mu, wx, wy, &dx, &dy);
        sx += dx;
        sy += dy;
    }
    *bx = sx;
    *by = sy;
}

/* ---- launches ---------------------------------------------------------------------- */

/* BB_SKIP and BB_BLOCK (ours, baselines beside the paper's bb): the bounding box's grid, with
 * the early exit a user would write before any per-thread work (fractal_bb_skip_cell,
 * fractal_bb_block_cell). */
typedef enum { FRACTAL_MAP_BB = 0, FRACTAL_MAP_LAMBDA = 1, FRACTAL_MAP_BB_SKIP = 2, FRACTAL_MAP_BB_BLOCK = 3 } fractal_map_kind;

/* Every translation of H has tau_x <= tau_y, so every cell has x <= y (digit by digit,
 * x = sum tau_x s^l <= sum tau_y s^l = y): the fractal lies in the lower triangle of its
 * array, and a block with bx > by holds no cell (the Sierpinski triangle of eq. 8). */
static inline int fractal_lower_triangular(const nbb_fractal *f)
{
    for (int b = 0; b < f->k; b++)
        if (f->tau_x[b] > f->tau_y[b]) return 0;
    return 1;
}

/* bb-skip runs on a fractal in the lower triangle whose cells it can test with the s = 2
 * ANF (nbb_anf2 below): of Table 1, the Sierpinski triangle. */
static inline int fractal_bb_skip_applies(const nbb_fractal *f) { return fractal_lower_triangular(f) && f->s == 2; }

/* Everything a thread needs to find its cell: passed by value to kernels (inside the Map). */
typedef struct {
    nbb_fast F;
    int r, rl, rb;        /* fractal level, level of one block (rho = s^rl), block level */
    uint32_t n, rho;      /* n = s^r */
    uint32_t gx, gy;      /* grid (blocks) */
    int map;              /* fractal_map_kind */
} fractal_launch;

/* Builds the launch of `map` for f at level r with rho x rho blocks.  Returns 0, or -1 with
 * a one-line reason in err (rho not a power of s, rho > n, rho > 32, n too large, grid
 * beyond CUDA's limits).  Memory is not checked here (the program does it). */
static inline int fractal_launch_init(fractal_launch *L, const nbb_fractal *f, int r, uint32_t rho,
                                      fractal_map_kind map, char *err, size_t errsize)
{
    memset(L, 0, sizeof *L);
    if (f->s < 2 || f->s > FRACTAL_MAX_S || f->k < 1 || f->k > FRACTAL_MAX_K) {
        snprintf(err, errsize, "%s: k=%d s=%d outside the supported k <= %d, 2 <= s <= %d", f->name, f->k, f->s,
                 FRACTAL_MAX_K, FRACTAL_MAX_S);
        return -1;
    }
    uint64_t n = fractal_pow((uint64_t)f->s, r);
    if (r < 0 || n > FRACTAL_MAX_N) {
        snprintf(err, errsize, "%s: level r=%d gives n = %d^%d, outside 1..2^28 (r too large)", f->name, r, f->s, r);
        return -1;
    }
    int rl = fractal_level_of(f->s, rho);
    if (rl < 0) {
        snprintf(err, errsize, "rho=%u is not a power of s=%d (%s)", rho, f->s, f->name);
        return -1;
    }
    if (rho > FRACTAL_MAX_RHO) {
        snprintf(err, errsize, "rho=%u: a block of rho x rho threads must have rho <= %d", rho, FRACTAL_MAX_RHO);
        return -1;
    }
    if (rl > r) {
        snprintf(err, errsize, "rho=%u is larger than n = %llu (%s, r=%d)", rho, (unsigned long long)n, f->name, r);
        return -1;
    }
    if (map == FRACTAL_MAP_BB_SKIP && !fractal_lower_triangular(f)) {
        snprintf(err, errsize, "bb-skip needs a fractal in the lower triangle x <= y (%s is not)", f->name);
        return -1;
    }
    if (map == FRACTAL_MAP_BB_SKIP && f->s != 2) {
        snprintf(err, errsize, "bb-skip tests its cells for s = 2 only (%s has s = %d)", f->name, f->s);
        return -1;
    }
    L->F = nbb_fast_make(f);
    L->r = r;
    L->rl = rl;
    L->rb = r - rl;
    L->n = (uint32_t)n;
    L->rho = rho;
    L->map = map;
    uint64_t gx, gy;
    if (map == FRACTAL_MAP_LAMBDA) lambda_grid(f, L->rb, &gx, &gy);
    else gx = gy = n / rho;
    if (gy > 65535 || gx > FRACTAL_MAX_N) {
        snprintf(err, errsize, "%s r=%d rho=%u: grid %llu x %llu exceeds CUDA's limits", f->name, r, rho,
                 (unsigned long long)gx, (unsigned long long)gy);
        return -1;
    }
    L->gx = (uint32_t)gx;
    L->gy = (uint32_t)gy;
    return 0;
}

/* Cell of thread (tx, ty) of block (bx, by) under lambda: block coordinates from eqs. 1-6,
 * local offset kept, filtered by membership of the offset at level rl (section 4). */
/* The cell of local offset (tx, ty) in the block whose lambda is (cx, cy) (in blocks): the
 * tail every lambda-type map shares, however it obtained lambda (here, fractals' shared-memory
 * maps, the tensor-core maps). */
static inline HD int fractal_block_cell(const fractal_launch *L, uint32_t cx, uint32_t cy, uint32_t tx, uint32_t ty,
                                        uint32_t *x, uint32_t *y)
{
    *x = cx * L->rho + tx;
    *y = cy * L->rho + ty;
    return nbb_fast_member(&L->F, tx, ty, L->rl);
}

static inline HD int fractal_lambda_cell(const fractal_launch *L, uint32_t bx, uint32_t by, uint32_t tx, uint32_t ty,
                                         uint32_t *x, uint32_t *y)
{
    uint32_t cx, cy;
    nbb_fast_lambda(&L->F, L->rb, bx, by, &cx, &cy);
    return fractal_block_cell(L, cx, cy, tx, ty, x, y);
}

/* Bounding box: (n/rho)^2 blocks, a membership test per thread (section 4). */
static inline HD int fractal_bb_cell(const fractal_launch *L, uint32_t bx, uint32_t by, uint32_t tx, uint32_t ty,
                                     uint32_t *x, uint32_t *y)
{
    *x = bx * L->rho + tx;
    *y = by * L->rho + ty;
    return nbb_fast_member(&L->F, *x, *y, L->r);
}

/* ---- bb-skip and bb-block (ours): an exit per block, then a short per-thread test ---------
 * Both run on bb's grid and split a thread's work in two: the block's part (does the block
 * hold a cell?  the kernels end a block that does not before any thread does anything else,
 * kernels.cuh) and a kept block's thread part, which reads values made once on the host
 * (fractal_bb_fast) so that it is a few logic operations: at rho = 32 a launch is bound by
 * how fast the SMs start and retire warps, and every instruction of either part is paid once
 * per warp. */

/* Membership for s = 2 at `levels` levels in algebraic normal form: the digit pair (a, b)
 * is forbidden iff t(a, b) = 1, and over GF(2) t(a, b) = t00 ^ a (t00^t10) ^ b (t00^t01)
 * ^ ab (t00^t10^t01^t11), so one bit-parallel expression tests every level at once:
 *   bad = c0 ^ (x & c1) ^ (y & c2) ^ (x & y & c3)   (4 logic operations on the GPU).
 * Above bit `levels` x and y are 0 (x, y < 2^levels), so only c0 needs the level mask. */
typedef struct {
    uint32_t c0, c1, c2, c3; /* all-ones or 0 per coefficient; c0 masked to `levels` bits */
} nbb_anf2;

static inline HD nbb_anf2 nbb_anf2_make(const nbb_fast *F, int levels)
{
    const uint32_t m = levels >= 32 ? 0xFFFFFFFFu : ~(0xFFFFFFFFu << levels); /* bits below `levels` */
    nbb_anf2 A;
    A.c0 = F->s2_f00 & m;
    A.c1 = F->s2_f00 ^ F->s2_f10;
    A.c2 = F->s2_f00 ^ F->s2_f01;
    A.c3 = F->s2_f00 ^ F->s2_f10 ^ F->s2_f01 ^ F->s2_f11;
    return A;
}

/* (x, y) is a cell at the levels A was made for (x, y < 2^levels; s = 2 only). */
static inline HD int nbb_anf2_member(const nbb_anf2 *A, uint32_t x, uint32_t y)
{
    return (A->c0 ^ (x & A->c1) ^ (y & A->c2) ^ (x & y & A->c3)) == 0;
}

/* What bb-skip's and bb-block's threads read besides the launch (passed inside the Map):
 *   cell   bb-skip: the ANF at level r (a cell of the array)
 *   block  bb-block, s = 2: the ANF at level rb (a block of the grid)
 *   offset bb-block: bit tx of offset[ty] set iff the offset (tx, ty) is a cell at level rl,
 *          for every s (rho <= 32 bits a row): one load and one shift instead of rl digits. */
typedef struct {
    nbb_anf2 cell, block;
    uint32_t offset[FRACTAL_MAX_RHO];
} fractal_bb_fast;

/* Row ty of the offset table: bit tx set iff (tx, ty) is a cell at level rl, tx < rho. */
static inline HD uint32_t fractal_bb_offset_row(const fractal_launch *L, uint32_t ty)
{
    uint32_t row = 0;
    for (uint32_t tx = 0; tx < L->rho; tx++) row |= (uint32_t)nbb_fast_member(&L->F, tx, ty, L->rl) << tx;
    return row;
}

/* The ANFs only (s = 2; zero otherwise), the offset table left empty. */
static inline HD fractal_bb_fast fractal_bb_fast_anfs(const fractal_launch *L)
{
    fractal_bb_fast B;
    memset(&B, 0, sizeof B);
    if (L->F.s == 2) {
        B.cell = nbb_anf2_make(&L->F, L->r);
        B.block = nbb_anf2_make(&L->F, L->rb);
    }
    return B;
}

/* Everything the map kind L->map reads (the kernels' Maps keep it). */
static inline HD fractal_bb_fast fractal_bb_fast_make(const fractal_launch *L)
{
    fractal_bb_fast B = fractal_bb_fast_anfs(L);
    if (L->map == FRACTAL_MAP_BB_BLOCK)
        for (uint32_t ty = 0; ty < L->rho; ty++) B.offset[ty] = fractal_bb_offset_row(L, ty);
    return B;
}

/* bb-skip (ours; the authors' gpumaps bbox does the same for the Sierpinski triangle): the
 * bounding box, but a block above the diagonal (bx > by) holds no cell of a fractal in the
 * lower triangle (fractal_lower_triangular; fractal_launch_init also asks for s = 2) and
 * ends first.  The test reads only the block's coordinates: no parameter is loaded on the
 * path of a skipped block's warps (5 instructions, exit included). */
static inline HD int fractal_bb_skip_keeps(uint32_t bx, uint32_t by) { return bx <= by; }

/* A kept block's thread: bb's cell, its membership at level r by the ANF (s = 2). */
static inline HD int fractal_bb_skip_thread(const fractal_launch *L, const fractal_bb_fast *B, uint32_t bx,
                                            uint32_t by, uint32_t tx, uint32_t ty, uint32_t *x, uint32_t *y)
{
    *x = bx * L->rho + tx;
    *y = by * L->rho + ty;
    return nbb_anf2_member(&B->cell, *x, *y);
}

/* bb-block (ours): the bounding box with the strongest early exit of its grid -- a block that
 * is not a cell of the fractal at the block level rb holds no cell (every block that holds
 * one is a copy of the level-rl fractal, section 4) and ends first; in a block that is one,
 * the cell of offset (tx, ty) is a cell iff the offset is one at level rl (as lambda does).
 * The block's test is the same for all its threads (uniform registers on the GPU). */
static inline HD int fractal_bb_block_keeps(const fractal_launch *L, const fractal_bb_fast *B, uint32_t bx, uint32_t by)
{
    return L->F.s == 2 ? nbb_anf2_member(&B->block, bx, by) : nbb_fast_member(&L->F, bx, by, L->rb);
}

static inline HD int fractal_bb_block_thread(const fractal_launch *L, const fractal_bb_fast *B, uint32_t bx,
                                             uint32_t by, uint32_t tx, uint32_t ty, uint32_t *x, uint32_t *y)
{
    *x = bx * L->rho + tx;
    *y = by * L->rho + ty;
    return (int)((B->offset[ty] >> tx) & 1u);
}

/* The two parts together, one thread at a time (fractal_launch_cell: the host's walks, the
 * device test's evaluation), each building only the values it reads; the kernels keep all of
 * fractal_bb_fast_make's in the Map.  x, y are left unset when the block is skipped: callers
 * read them only on 1. */
static inline HD int fractal_bb_skip_cell(const fractal_launch *L, uint32_t bx, uint32_t by, uint32_t tx, uint32_t ty,
                                          uint32_t *x, uint32_t *y)
{
    if (!fractal_bb_skip_keeps(bx, by)) return 0;
    const fractal_bb_fast B = fractal_bb_fast_anfs(L);
    return fractal_bb_skip_thread(L, &B, bx, by, tx, ty, x, y);
}

static inline HD int fractal_bb_block_cell(const fractal_launch *L, uint32_t bx, uint32_t by, uint32_t tx, uint32_t ty,
                                           uint32_t *x, uint32_t *y)
{
    fractal_bb_fast B = fractal_bb_fast_anfs(L);
    if (!fractal_bb_block_keeps(L, &B, bx, by)) return 0;
    B.offset[ty] = fractal_bb_offset_row(L, ty); /* the one row this thread reads */
    return fractal_bb_block_thread(L, &B, bx, by, tx, ty, x, y);
}

static inline HD int fractal_launch_cell(const fractal_launch *L, uint32_t bx, uint32_t by, uint32_t tx, uint32_t ty,
                                         uint32_t *x, uint32_t *y)
{
    switch (L->map) {
    case FRACTAL_MAP_LAMBDA: return fractal_lambda_cell(L, bx, by, tx, ty, x, y);
    case FRACTAL_MAP_BB_SKIP: return fractal_bb_skip_cell(L, bx, by, tx, ty, x, y);
    case FRACTAL_MAP_BB_BLOCK: return fractal_bb_block_cell(L, bx, by, tx, ty, x, y);
    default: return fractal_bb_cell(L, bx, by, tx, ty, x, y);
    }
}

/* Threads launched by L (grid x block). */
static inline uint64_t fractal_launch_threads(const fractal_launch *L)
{
    return (uint64_t)L->gx * L->gy * L->rho * L->rho;
}

#endif
