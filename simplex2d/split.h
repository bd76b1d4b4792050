/* simplex2d/split.h -- a triangular domain split across P processes by lambda (README, last section).
 * Beyond the papers: the block numbering omega of arXiv:1609.01490 eq. (4), cut into P ranges.
 *
 * The lambda maps of Navarro et al. (arXiv:1609.01490, eq. 4) number the T(m) = m (m + 1) / 2
 * blocks of the m x m lower-triangular block matrix (m = ceil(n / rho)) by omega, row by row.
 * Rank r of P takes the contiguous range omega in [r T / P, (r + 1) T / P): every rank gets
 * T / P blocks up to one, i.e. equal work, with no load-balancing logic -- no box map of the
 * triangle (row blocks, bounding boxes) gives that.  A contiguous omega range is a run of
 * whole block rows with a partial row at each end, so a rank stores "its rows of the packed
 * triangle": block omega at offset (omega - w0) rho^2, cell (ty, tx) at ty rho + tx.
 * Plain C; lambda-exact (tri_rowcol32 in map.h) turns omega into the block (row, column). */
#ifndef SIMPLEX2D_SPLIT_H
#define SIMPLEX2D_SPLIT_H

#include <stdint.h>
#include "map.h"

/* Blocks of the triangle of side n at block size rho: T(m), m = ceil(n / rho). */
static inline uint64_t s2_split_blocks(uint64_t n, uint32_t rho)
{
    uint64_t m = (n + rho - 1) / rho;
    return m * (m + 1) / 2;
}

/* Rank r's block range [*w0, *w1) of T blocks over P ranks. */
static inline void s2_split_range(uint64_t T, int P, int r, uint64_t *w0, uint64_t *w1)
{
    *w0 = T * (uint64_t)r / (uint64_t)P;
    *w1 = T * (uint64_t)(r + 1) / (uint64_t)P;
}

/* Cell (i, j) of local element e (block w0 + e / rho^2) by lambda-exact; 0 when the cell is
 * outside the triangle of side n (j > i, or i >= n): those elements are never written. */
static inline HD int s2_split_cell(uint64_t w0, uint64_t e, uint32_t rho, uint32_t n, uint32_t *i, uint32_t *j)
{
    uint32_t bj, bi = tri_rowcol32((uint32_t)(w0 + e / ((uint64_t)rho * rho)), &bj);
    uint32_t t = (uint32_t)(e % ((uint64_t)rho * rho));
    *i = bi * rho + t / rho;
    *j = bj * rho + t % rho;
    return *i < n && *j <= *i;
}

#endif
