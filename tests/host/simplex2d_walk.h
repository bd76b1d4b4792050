/* simplex2d_walk.h -- host walks shared by the simplex2d tests (tests/host and tests/gpu):
 * the block grid of a map exactly as the GPU launches it (every launch, every block), and
 * the first block index at which a float lambda map's row is wrong. */
#ifndef TESTS_SIMPLEX2D_WALK_H
#define TESTS_SIMPLEX2D_WALK_H

#include <string.h>
#include "../../simplex2d/map.h"

/* Walks every launch and block of g (map) and counts in hit[bi * m + bj] (m * m bytes,
 * cleared here) the triangle's blocks the working blocks map to.  Returns the working blocks
 * that land outside the triangle (bi >= m or bj > bi) or on a block already hit;
 * *works = the number of working blocks. */
static inline long s2t_walk_blocks(const s2_grid *g, int map, unsigned char *hit, uint64_t *works)
{
    const uint32_t m = g->m;
    memset(hit, 0, (size_t)m * m);
    long bad = 0;
    *works = 0;
    for (uint32_t l = 0; l < g->nlaunch; l++)
        for (uint32_t by = 0; by < g->gy[l]; by++)
            for (uint32_t bx = 0; bx < g->gx[l]; bx++) {
                uint32_t bi, bj;
                if (!s2_map_block(g, map, l, bx, by, &bi, &bj)) continue;
                (*works)++;
                if (bi >= m || bj > bi) { bad++; continue; }
                bad += hit[(size_t)bi * m + bj]++ != 0;
            }
    return bad;
}

/* The first block index w < limit whose row under the lambda map (eq. (4) family, s2_lambda)
 * differs from the exact row tri_row_exact(w); ~0 if there is none below limit. */
static inline uint64_t s2t_first_wrong(int map, uint64_t limit)
{
    for (uint64_t w = 0; w < limit; w++) {
        uint32_t bi, bj;
        s2_lambda(map, (uint32_t)w, &bi, &bj);
        if (bi != tri_row_exact(w)) return w;
    }
    return ~0ull;
}

#endif
