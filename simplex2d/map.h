/* simplex2d/map.h -- thread maps for triangular domains (see README.md).
 *
 * (The simplex2d work fills in the rest of this header; simplex3d includes it for the 2D
 * lambda inside a tetrahedral layer, through tri_row_exact() below.) */
#ifndef SIMPLEX2D_MAP_H
#define SIMPLEX2D_MAP_H

#include <stdint.h>
#include <math.h>
#include "../common/hd.h"

/* T(y) = y (y + 1) / 2, the triangular number: cells of the rows 0..y-1 of the triangle. */
static inline HD uint64_t tri_number(uint64_t y) { return y * (y + 1) / 2; }

/* The row of linear index w in the triangle: the largest y with T(y) <= w, for every
 * w < 2^62.  A float guess from eq. (4) of Navarro et al. (y = floor(sqrt(1/4 + 2w) - 1/2))
 * followed by an integer correction against T(y), so the result never depends on float
 * rounding: the guess may be off by a few units for large w, the loops fix it exactly. */
static inline HD uint32_t tri_row_exact(uint64_t w)
{
    uint64_t y = (uint64_t)(sqrtf(0.25f + 2.0f * (float)w) - 0.5f);
    while (y > 0 && tri_number(y) > w) y--;
    while (tri_number(y + 1) <= w) y++;
    return (uint32_t)y;
}

#endif
