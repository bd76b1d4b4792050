/* fractals/compact.h -- COMPACT storage of an NBB fractal, k^r cells (n^H) instead of the n x n
 * array, and the inverse map to it (the thesis's section 7, future work; numbering of 3.1).
 *
 * Plain C + HD (host-testable with cc, used by the kernels of compact.cuh).
 *
 * Paper: F. A. Quezada (UACh), section 7 (future work: "store only the fractal's data"),
 * beyond what the thesis implements.  The numbering is the construction by replication of
 * section 3.1 (the same beta digits as lambda's eq. 1, one per level instead of one per
 * block level):
 *   forward  i -> (x, y):  i = sum_l beta_l k^l (base-k digits),
 *                          x = sum_l tau_x[beta_l] s^l,  y = sum_l tau_y[beta_l] s^l
 *                          (fractal_cell_of in fractal.h);
 *   inverse  (x, y) -> i:  the base-s digit pair (x_l, y_l) of every level must be a pair
 *                          of H (else (x, y) is not a cell); beta_l = H^-1(x_l, y_l) and
 *                          i = sum_l beta_l k^l.
 * A neighbour (x', y') of a cell differs from it only in the levels below the highest
 * carry/borrow of x -> x' and y -> y' (on average about s / (s - 1) levels for +-1), so its
 * compact index is i with those low digits replaced: compact_neighbour does that in
 * O(levels that differ) instead of O(r).
 *
 * API:
 *   fractal_index_of(f, r, x, y, &i)           inverse, written literally (reference)
 *   compact_map C = compact_make(f, r)         inverse digit table + fast form of fractal.h
 *   compact_index(&C, x, y, &i)                inverse without division instructions, O(r)
 *   compact_neighbour(&C, i, x, y, nx, ny, &j) index of cell (nx, ny) from cell i = (x, y)
 *   compact_ca_cell(&C, in, i, x, y)           one B3/S23 step of cell i on compact storage
 *   compact_block_levels(k)                    levels m of one thread block (k^m <= 1024)
 *   compact_launch_init(&P, f, r, err, size)   launch shape of compact.cuh's kernels (host) */
#ifndef FRACTALS_COMPACT_H
#define FRACTALS_COMPACT_H

#include <stdint.h>
#include "fractal.h"

#define COMPACT_MAX_BLOCK 1024u /* threads per block of the compact kernels (CUDA limit) */

/* Inverse map, literal: 1 and *i if (x, y) is a cell of f at level r, else 0. */
static inline HD int fractal_index_of(const nbb_fractal *f, int r, uint32_t x, uint32_t y, uint64_t *i)
{
    uint64_t idx = 0, p = 1;
    for (int l = 0; l < r; l++) {
        uint32_t dx = x % (uint32_t)f->s, dy = y % (uint32_t)f->s;
        int beta = -1;
        for (int b = 0; b < f->k; b++)
            if ((uint32_t)f->tau_x[b] == dx && (uint32_t)f->tau_y[b] == dy) beta = b; /* H^-1 */
        if (beta < 0) return 0;
        idx += (uint64_t)beta * p;
        p *= (uint64_t)f->k;
        x /= (uint32_t)f->s;
        y /= (uint32_t)f->s;
    }
    if (x || y) return 0;
    *i = idx;
    return 1;
}

/* The fractal at level r in the form the compact kernels use. */
typedef struct {
    nbb_fast F;    /* fractal.h's fast form: packed H, cellmask, magic divisors */
    uint64_t inv;  /* 4 bits per digit pair dx + s dy: beta with H[beta] = (dx, dy) */
    int r;
    uint32_t n;    /* s^r */
} compact_map;

static inline compact_map compact_make(const nbb_fractal *f, int r)
{
    compact_map C;
    memset(&C, 0, sizeof C);
    C.F = nbb_fast_make(f);
    for (int b = 0; b < f->k; b++) C.inv |= (uint64_t)b << (4 * (f->tau_x[b] + f->s * f->tau_y[b]));
    C.r = r;
    C.n = (uint32_t)fractal_pow((uint64_t)f->s, r);
    return C;
}

/* H^-1 of digit pair (dx, dy): 1 and *beta if the pair is in H. */
static inline HD int compact_digit(const compact_map *C, uint32_t dx, uint32_t dy, uint32_t *beta)
{
    uint32_t pair = dx + C->F.s * dy;
    *beta = (uint32_t)(C->inv >> (4 * pair)) & 15u;
    return (int)((C->F.cellmask >> pair) & 1u);
}

/* Inverse map without division instructions (x, y < n <= FRACTAL_MAX_N: magic division). */
static inline HD int compact_index(const compact_map *C, uint32_t x, uint32_t y, uint64_t *i)
{
    uint64_t idx = 0, p = 1;
    if (x >= C->n || y >= C->n) return 0;
    for (int l = 0; l < C->r; l++) {
        uint32_t qx = fractal_udiv(x, C->F.magic_s), qy = fractal_udiv(y, C->F.magic_s), beta;
        if (!compact_digit(C, x - qx * C->F.s, y - qy * C->F.s, &beta)) return 0;
        idx += beta * p;
        p *= C->F.k;
        x = qx;
        y = qy;
    }
    *i = idx;
    return 1;
}

/* Compact index j of (nx, ny), given that cell i is (x, y) (a cell of the fractal): the
 * digits of both agree above the highest level where x, nx or y, ny differ, so only the
 * levels below it are looked up (H^-1) and replaced in i.  Returns 0 if (nx, ny) is outside
 * the n x n array or not a cell. */
static inline HD int compact_neighbour(const compact_map *C, uint64_t i, uint32_t x, uint32_t y, uint32_t nx,
                                       uint32_t ny, uint64_t *j)
{
    if (nx >= C->n || ny >= C->n) return 0;
    uint64_t p = 1;
    while (x != nx || y != ny) { /* ends: both are < s^r, so the quotients meet by level r */
        uint32_t qx = fractal_udiv(x, C->F.magic_s), qy = fractal_udiv(y, C->F.magic_s);
        uint32_t qnx = fractal_udiv(nx, C->F.magic_s), qny = fractal_udiv(ny, C->F.magic_s);
        uint32_t bo, bn;
        compact_digit(C, x - qx * C->F.s, y - qy * C->F.s, &bo); /* (x, y) is a cell: in H */
        if (!compact_digit(C, nx - qnx * C->F.s, ny - qny * C->F.s, &bn)) return 0;
        i += ((uint64_t)bn - bo) * p; /* replace digit beta_l (unsigned wrap-around is exact) */
        p *= C->F.k;
        x = qx;
        y = qy;
        nx = qnx;
        ny = qny;
    }
    *j = i;
    return 1;
}

/* One step of the automaton of kernels.cuh (B3/S23 on the Moore neighbourhood, only fractal
 * cells count, cells outside the array are dead) for compact cell i = (x, y). */
static inline HD uint8_t compact_ca_cell(const compact_map *C, const uint8_t *in, uint64_t i, uint32_t x, uint32_t y)
{
    uint32_t live = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            uint64_t j;
            if ((dx || dy) && compact_neighbour(C, i, x, y, x + (uint32_t)dx, y + (uint32_t)dy, &j)) live += in[j];
        }
    uint32_t self = in[i];
    return (uint8_t)(live == 3 || (self && live == 2)); /* B3/S23 */
}

/* The same step with every neighbour's index from the full inverse (compact_index, O(r)):
 * an independent path, used to check compact_neighbour where no embedded array fits. */
static inline HD uint8_t compact_ca_cell_full(const compact_map *C, const uint8_t *in, uint64_t i, uint32_t x, uint32_t y)
{
    uint32_t live = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            uint64_t j;
            if ((dx || dy) && compact_index(C, x + (uint32_t)dx, y + (uint32_t)dy, &j)) live += in[j];
        }
    uint32_t self = in[i];
    return (uint8_t)(live == 3 || (self && live == 2));
}

/* Levels m handled inside one block: the largest m with k^m <= COMPACT_MAX_BLOCK. */
static inline HD int compact_block_levels(uint32_t k)
{
    int m = 0;
    uint64_t p = k;
    while (p <= COMPACT_MAX_BLOCK) {
        p *= k;
        m++;
    }
    return m;
}

/* Cell of the levels lo..lo+levels-1 of index q (its base-k digits), as an offset scaled by
 * s^lo: with magic division (q < FRACTAL_MAX_N). */
static inline HD void compact_digits_cell(const nbb_fast *F, uint32_t q, int levels, uint32_t scale, uint32_t *x,
                                          uint32_t *y)
{
    uint32_t cx = 0, cy = 0;
    for (int l = 0; l < levels; l++) {
        uint32_t nq = fractal_udiv(q, F->magic_k), beta = q - nq * F->k;
        cx += ((F->hx >> (2 * beta)) & 3u) * scale;
        cy += ((F->hy >> (2 * beta)) & 3u) * scale;
        scale *= F->s;
        q = nq;
    }
    *x = cx;
    *y = cy;
}

/* Launch shape of the compact kernels: block b (of k^(r-m)) and thread t (of k^m) own cell
 * i = b k^m + t; the top r - m digits of i are the block's (computed once per block), the
 * low m digits the thread's. */
typedef struct {
    compact_map C;
    int m;            /* levels inside a block */
    uint32_t sm;      /* s^m: scale of the block's digits */
    uint32_t threads; /* k^m */
    uint32_t blocks;  /* k^(r-m) */
} compact_launch;

static inline int compact_launch_init(compact_launch *P, const nbb_fractal *f, int r, char *err, size_t errsize)
{
    memset(P, 0, sizeof *P);
    if (r < 0 || fractal_pow((uint64_t)f->s, r) > FRACTAL_MAX_N) {
        snprintf(err, errsize, "%s: r=%d gives n = %d^%d > 2^28", f->name, r, f->s, r);
        return -1;
    }
    P->C = compact_make(f, r);
    P->m = compact_block_levels((uint32_t)f->k);
    if (P->m > r) P->m = r;
    P->sm = (uint32_t)fractal_pow((uint64_t)f->s, P->m);
    P->threads = (uint32_t)fractal_pow((uint64_t)f->k, P->m);
    uint64_t blocks = fractal_pow((uint64_t)f->k, r - P->m);
    if (blocks >= FRACTAL_MAX_N) { /* magic division of the block index */
        snprintf(err, errsize, "%s: r=%d needs %llu blocks, more than 2^28", f->name, r, (unsigned long long)blocks);
        return -1;
    }
    P->blocks = (uint32_t)blocks;
    return 0;
}

#endif
