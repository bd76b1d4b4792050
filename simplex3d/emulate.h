/* simplex3d/emulate.h -- host emulation of a map's launches (no GPU), for `--exp=layout` and the host tests:
 * the maps of arXiv:1609.01490 sec. 6 and arXiv:1610.07394 sec. III.B-C (map.h), thread by thread.
 * It walks exactly the launch grids the GPU program launches
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

/* The parameters of launch li of list l (s3_launch_list): p itself for a single-launch map;
 * for recursive-log p with the sub-cube's grid (side^3 blocks) and origin (a0, b0, c0). */
static inline s3_params s3_launch_at(int map, const s3_params *p, const uint32_t *l, uint64_t li)
{
    s3_params q = *p;
    if (map == S3_RECURSIVE_LOG) {
        q.gx = q.gy = q.gz = l[4 * li];
        q.a0 = l[4 * li + 1], q.b0 = l[4 * li + 2], q.c0 = l[4 * li + 3];
    }
    return q;
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
        const s3_params q = s3_launch_at(map, &p, l, li);
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


/* write-coarse (k_coarse in kernels.cuh): walks the coarse grid(s) of every launch, every
 * thread, every chunk exactly as the kernel does and calls visit(ctx, element, vector) for each
 * element the kernel writes (vector: 1 if written by a 16-byte store of the whole chunk).
 * Returns the number of elements written, or -1 for a map that cannot take the size or an
 * invalid configuration. */
typedef void (*s3_visit_elem_fn)(void *ctx, uint64_t elem, int vector);

static inline long long s3_emulate_coarse(int map, uint32_t n, uint32_t rho, uint32_t lc, uint32_t ltpm,
                                          s3_visit_elem_fn visit, void *ctx)
{
    s3_params p;
    if (s3_plan(map, n, rho, &p)) return -1;
    if (s3_coarse_check(p.lrho, lc, ltpm)) return -1;
    uint64_t nl;
    uint32_t *l = s3_launch_list(map, &p, &nl);
    if (!l) return -1;
    const uint32_t lr = p.lrho, nch = 1u << (3 * lr - 2), tpm = 1u << ltpm, nthr = 1u << (lc + ltpm);
    long long written = 0;
    for (uint64_t li = 0; li < nl; li++) {
        const s3_params q = s3_launch_at(map, &p, l, li);
        const uint32_t cgx = (q.gx + (1u << lc) - 1) >> lc;
        for (uint32_t iz = 0; iz < q.gz; iz++)
            for (uint32_t iy = 0; iy < q.gy; iy++)
                for (uint32_t jx = 0; jx < cgx; jx++)
                    for (uint32_t t = 0; t < nthr; t++) {
                        uint32_t bx, by, bz;
                        if (!s3_coarse_block(map, &q, lc, ltpm, jx, iy, iz, t, &bx, &by, &bz)) continue;
                        const int full = s3_block_full(bx, by, bz, rho, n);
                        const uint64_t base = s3_packed(bx, by, bz) << (3 * lr);
                        for (uint32_t ch = t & (tpm - 1); ch < nch; ch += tpm) {
                            const uint64_t e = base + 4 * ch;
                            const uint32_t mask = full ? 0xFu : s3_chunk_mask(bx, by, bz, lr, n, ch);
                            for (uint32_t k = 0; k < 4; k++)
                                if ((mask >> k) & 1u) {
                                    written++;
                                    if (visit) visit(ctx, e + k, mask == 0xFu);
                                }
                        }
                    }
    }
    free(l);
    return written;
}

#endif
