/* simplex3d/emulate.h -- host emulation of a map's launches (no GPU): used by `--layout`
 * and by the host tests.  It walks exactly the launch grids the GPU program launches
 * (every launch, every block, every thread), applies the same HD map function as the
 * kernels (map.h) and the same thread filter, and calls visit() for each working thread. */
#ifndef SIMPLEX3D_EMULATE_H
#define SIMPLEX3D_EMULATE_H

#include <stdlib.h>
#include "map.h"

typedef void (*s3_visit_fn)(void *ctx, uint32_t x, uint32_t y, uint32_t z, uint64_t launch,
                            uint64_t block, uint32_t thread);

/* The launch list of a map: for single-launch maps one entry {gx, 0, 0, 0} with the grid of
 * p; for recursive-log (side, a0, b0, c0) per sub-cube.  Caller frees. */
static inline uint32_t *s3_launch_list(int map, const s3_params *p, uint64_t *count)
{
    *count = s3_num_launches(map, p->nb);
    uint32_t *l = (uint32_t *)malloc(sizeof(uint32_t) * 4 * (size_t)*count);
    if (!l) return NULL;
    if (map == S3_RECURSIVE_LOG) s3_rlog_launches_rec(p->nb, 0, 0, 0, l, 0);
    else l[0] = p->gx, l[1] = l[2] = l[3] = 0;
    return l;
}

/* Returns the number of working threads, or -1 if the map cannot take this size. */
static inline long long s3_emulate(int map, uint32_t n, uint32_t rho, s3_visit_fn visit, void *ctx)
{
    s3_params p;
    if (s3_plan(map, n, rho, &p)) return -1;
    uint64_t nl;
    uint32_t *l = s3_launch_list(map, &p, &nl);
    if (!l) return -1;
    long long working = 0;
    for (uint64_t li = 0; li < nl; li++) {
        s3_params q = p;
        if (map == S3_RECURSIVE_LOG) {
            q.gx = q.gy = q.gz = l[4 * li];
            q.a0 = l[4 * li + 1], q.b0 = l[4 * li + 2], q.c0 = l[4 * li + 3];
        }
        for (uint32_t iz = 0; iz < q.gz; iz++)
            for (uint32_t iy = 0; iy < q.gy; iy++)
                for (uint32_t ix = 0; ix < q.gx; ix++) {
                    uint32_t bx, by, bz;
                    if (!s3_block(map, &q, ix, iy, iz, &bx, &by, &bz)) continue;
                    uint64_t blk = ix + (uint64_t)q.gx * (iy + (uint64_t)q.gy * iz);
                    for (uint32_t tz = 0; tz < rho; tz++)
                        for (uint32_t ty = 0; ty < rho; ty++)
                            for (uint32_t tx = 0; tx < rho; tx++) {
                                uint32_t x = bx * rho + tx, y = by * rho + ty, z = bz * rho + tz;
                                if (!s3_cell_inside(x, y, z, n)) continue;
                                working++;
                                if (visit) visit(ctx, x, y, z, li, blk, tx + rho * (ty + rho * tz));
                            }
                }
    }
    free(l);
    return working;
}

#endif
