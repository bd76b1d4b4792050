/* hashmesh/mesh_partition.h -- a 2D AMR mesh partitioned over P processes and its face
 * neighbours (Listing 2) found per rank, after the paper's open problem (sec. 5: "extensions
 * ... to a heterogeneous MPI layer") and its use of spatial order "to support partitioning
 * across processors" (sec. 3.1).  The generic MPI/NCCL layer (start-up, verdicts, exchange
 * patterns) is ../common/dist.h; this file is what hashmesh builds on it.
 *
 *   1. partition  Morton key of each cell's finest lower-left bucket, sorted with the CPU hash
 *                 sort of Listing 1 (keys are integers: dmin = 1); rank r owns the cells at
 *                 sorted positions [r n / P, (r + 1) n / P).  A cell at level l covers an
 *                 aligned 2^s x 2^s block (s = levmax - l), i.e. the Morton keys
 *                 [key, key + 4^s), so the owner of ANY finest bucket is the rank whose first
 *                 key is the largest one <= the bucket's key (hm_owner).
 *   2. pattern    each rank walks the finest buckets just across its cells' faces; a cell that
 *                 touches rank q's region is sent to q as a ghost (dist_pattern: computed
 *                 once per mesh, reused by every exchange).  The table window is the bounding
 *                 box of the owned cells grown by one bucket: every Listing 2 probe of an owned
 *                 cell lies in it.
 *   3. exchange   records (i, j, level, global index) of the pattern's cells (MPI or NCCL).
 *   4. build      the local perfect hash over the window: owned cells and ghosts write their
 *                 GLOBAL index into every bucket they cover inside the window (Listing 2
 *                 lines 12-24, clipped).
 *   5. query      Listing 2's read, unchanged (hash_neigh2d_probe), in window coordinates:
 *                 the neighbours come out as global cell indices.
 *                 Steps 4-5 are in mesh_step.h (no MPI): serial, and on the rank's OpenMP
 *                 threads with the same table and neighbours bit for bit.
 * The whole mesh is read (or generated) by every rank and steps 1-2 run here on the host
 * (every rank sorts all keys): the reference.  remesh_dist.h runs steps 1-2 distributed (each
 * rank sorts only its share, on its GPU or its host); steps 3-5 are the per-step work (host
 * or GPU). */
#ifndef HASHMESH_MESH_PARTITION_H
#define HASHMESH_MESH_PARTITION_H

#include <stdint.h>
#include "../common/dist.h"
#include "gen.h"
#include "hash.h"
#include "remesh.h"    /* hm_morton, hm_owner: the MPI-free pieces */
#include "mesh_step.h" /* HM_REC, hm_window, steps 4-5 serial and on OpenMP threads */

static inline uint64_t hm_cell_key(const amr_mesh *m, long c)
{
    int s = m->levmax - m->lev[c];
    return hm_morton((long)m->i[c] << s, (long)m->j[c] << s);
}

typedef struct {
    long nown;       /* cells owned by this rank */
    int *own;        /* their global (input) indices, in Morton order */
    int *rec;        /* their records (i, j, level, global index), HM_REC ints each, same order */
    uint64_t *split; /* P + 1 keys: rank q owns the buckets with split[q] <= key < split[q + 1] */
    hm_window win;   /* the local table */
} hm_part;

/* Morton table size (max key + 1): the hash sort's buckets. */
static inline uint64_t hm_sort_buckets(const amr_mesh *m)
{
    uint64_t top = 0;
    for (long c = 0; c < m->n; c++) {
        uint64_t k = hm_cell_key(m, c);
        if (k > top) top = k;
    }
    return top + 1;
}

/* Step 1 (caller checked n >= P and that hm_sort_buckets fits in memory). */
static inline void hm_partition(const dist_ctx *d, const amr_mesh *m, hm_part *p)
{
    long n = m->n, mb = (long)hm_sort_buckets(m);
    double *key = (double *)gen_alloc(sizeof(double) * (size_t)n);
    int *t = (int *)gen_alloc(sizeof(int) * (size_t)mb), *order = (int *)gen_alloc(sizeof(int) * (size_t)n);
    for (long c = 0; c < n; c++) key[c] = (double)hm_cell_key(m, c); /* exact: keys < 2^53 */
    if (hash_sort1d_cpu(key, n, 0.0, 1.0, t, mb, order, NULL) != n) {
        fprintf(stderr, "rank %d: two cells share a Morton key (overlapping mesh)\n", d->rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long lo = n * d->rank / d->size, hi = n * (d->rank + 1) / d->size;
    p->nown = hi - lo;
    p->own = (int *)gen_alloc(sizeof(int) * (size_t)p->nown);
    memcpy(p->own, order + lo, sizeof(int) * (size_t)p->nown);
    p->rec = (int *)gen_alloc(sizeof(int) * HM_REC * (size_t)p->nown);
    for (long k = 0; k < p->nown; k++) {
        int c = p->own[k];
        p->rec[HM_REC * k] = m->i[c]; p->rec[HM_REC * k + 1] = m->j[c];
        p->rec[HM_REC * k + 2] = m->lev[c]; p->rec[HM_REC * k + 3] = c;
    }
    p->split = (uint64_t *)gen_alloc(sizeof(uint64_t) * (size_t)(d->size + 1));
    for (int q = 0; q < d->size; q++) p->split[q] = (uint64_t)key[order[n * q / d->size]];
    p->split[d->size] = UINT64_MAX;
    free(key); free(t); free(order);
}

/* The peers (ranks other than `me`) owning a finest bucket just across a face of the cell
 * of record rec; returns how many, each once, in peers[]; seen[] (P entries, 0) is left 0. */
static inline int hm_touching(const amr_mesh *m, const hm_part *p, int P, int me, const int *rec, int *peers, char *seen)
{
    long W = amr_width(m), H = amr_height(m), r = 1L << (m->levmax - rec[2]);
    long x0 = (long)rec[0] * r, y0 = (long)rec[1] * r;
    int np = 0;
    for (long k = 0; k < r; k++) {
        long x[4] = {x0 - 1, x0 + r, x0 + k, x0 + k}, y[4] = {y0 + k, y0 + k, y0 - 1, y0 + r};
        for (int f = 0; f < 4; f++) {
            if (x[f] < 0 || x[f] >= W || y[f] < 0 || y[f] >= H) continue;
            uint64_t key = hm_morton(x[f], y[f]);
            if (key >= p->split[me] && key < p->split[me + 1]) continue; /* mine: no search */
            int q = hm_owner(p->split, P, key);
            if (!seen[q]) { seen[q] = 1; peers[np++] = q; }
        }
    }
    for (int k = 0; k < np; k++) seen[peers[k]] = 0;
    return np;
}

/* Step 2: the ghost pattern (send lists; receive counts by MPI_Alltoall) and the window.
 * Pass 1 (all owned cells, OpenMP threads) flags the cells touching another rank; pass 2
 * lists the flagged ones per peer, in Morton order. */
static inline void hm_pattern(const dist_ctx *d, const amr_mesh *m, hm_part *p, dist_pattern *pat)
{
    int P = d->size, *peers = (int *)gen_alloc(sizeof(int) * (size_t)P), *fill = (int *)gen_alloc(sizeof(int) * (size_t)P);
    char *seen = (char *)calloc((size_t)P, 1), *edge = (char *)gen_alloc((size_t)p->nown + 1);
    dist_pattern_alloc(d, pat);
#pragma omp parallel
    {
        int *tpeers = (int *)gen_alloc(sizeof(int) * (size_t)P);
        char *tseen = (char *)calloc((size_t)P, 1);
#pragma omp for schedule(static)
        for (long k = 0; k < p->nown; k++) edge[k] = hm_touching(m, p, P, d->rank, p->rec + HM_REC * k, tpeers, tseen) > 0;
        free(tpeers); free(tseen);
    }
    for (long k = 0; k < p->nown; k++) /* counts */
        if (edge[k]) {
            int np = hm_touching(m, p, P, d->rank, p->rec + HM_REC * k, peers, seen);
            for (int e = 0; e < np; e++) pat->scount[peers[e]]++;
        }
    for (int q = 0, s = 0; q < P; q++) { fill[q] = s; s += pat->scount[q]; }
    long nsend = fill[P - 1] + pat->scount[P - 1];
    pat->send_idx = (int *)gen_alloc(sizeof(int) * (size_t)(nsend ? nsend : 1));
    for (long k = 0; k < p->nown; k++) /* local indices k, grouped by peer */
        if (edge[k]) {
            int np = hm_touching(m, p, P, d->rank, p->rec + HM_REC * k, peers, seen);
            for (int e = 0; e < np; e++) pat->send_idx[fill[peers[e]]++] = (int)k;
        }
    dist_pattern_finish(d, pat);
    long W = amr_width(m), H = amr_height(m), x0 = W, y0 = H, x1 = 0, y1 = 0;
    for (long k = 0; k < p->nown; k++) {
        const int *rc = p->rec + HM_REC * k;
        long r = 1L << (m->levmax - rc[2]), cx = (long)rc[0] * r, cy = (long)rc[1] * r;
        if (cx < x0) x0 = cx;
        if (cy < y0) y0 = cy;
        if (cx + r > x1) x1 = cx + r;
        if (cy + r > y1) y1 = cy + r;
    }
    x0 = x0 > 0 ? x0 - 1 : 0; y0 = y0 > 0 ? y0 - 1 : 0; /* grown by one bucket, inside the domain */
    x1 = x1 < W ? x1 + 1 : W; y1 = y1 < H ? y1 + 1 : H;
    p->win = (hm_window){x0, y0, x1 - x0, y1 - y0};
    free(peers); free(fill); free(seen); free(edge);
}

/* Steps 3-5 on the host (CPU backend), one function per phase.  own: nown records; ghost:
 * the pattern's nrecv records; sendbuf: nsend records of scratch; t: win.w * win.h ints; nb:
 * 4 neighbours per owned cell; threads: OpenMP threads of the build and query (1: the serial
 * loops of mesh_step.h, the reference). */
static inline void hm_exchange_host(const dist_ctx *d, const dist_pattern *pat, const int *own, int *sendbuf, int *ghost)
{
    for (long s = 0; s < pat->nsend; s++) memcpy(sendbuf + HM_REC * s, own + HM_REC * pat->send_idx[s], sizeof(int) * HM_REC);
    dist_exchange_host(d, pat, HM_REC, sendbuf, ghost);
}
static inline void hm_build_host(const amr_mesh *m, const hm_part *p, const dist_pattern *pat, const int *own,
                                 const int *ghost, int *t, int threads)
{
    hm_build_omp(t, p->win, m->levmax, own, p->nown, ghost, pat->nrecv, threads);
}
static inline void hm_query_host(const amr_mesh *m, const hm_part *p, const int *own, const int *t, int *nb, int threads)
{
    hm_query_omp(t, p->win, amr_width(m), amr_height(m), m->levmax, own, p->nown, nb, threads);
}

/* Rank 0 collects every rank's neighbours into nb_all (4 per cell, input order). */
static inline void hm_gather(const dist_ctx *d, const hm_part *p, const int *nb, long n, int *nb_all)
{
    int cnt = (int)p->nown, *cnts = NULL, *displs = NULL, *gids = NULL, *nbs = NULL;
    if (d->rank == 0) {
        cnts = (int *)gen_alloc(sizeof(int) * 2 * (size_t)d->size);
        displs = cnts + d->size;
        gids = (int *)gen_alloc(sizeof(int) * (size_t)n);
        nbs = (int *)gen_alloc(sizeof(int) * 4 * (size_t)n);
    }
    CHECK_MPI(MPI_Gather(&cnt, 1, MPI_INT, cnts, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (d->rank == 0)
        for (int q = 0, s = 0; q < d->size; q++) { displs[q] = s; s += cnts[q]; }
    CHECK_MPI(MPI_Gatherv(p->own, cnt, MPI_INT, gids, cnts, displs, MPI_INT, 0, MPI_COMM_WORLD));
    MPI_Datatype four; /* a cell's 4 neighbours: counts and offsets in cells stay below 2^31 */
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &four));
    CHECK_MPI(MPI_Type_commit(&four));
    CHECK_MPI(MPI_Gatherv(nb, cnt, four, nbs, cnts, displs, four, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Type_free(&four));
    if (d->rank == 0) {
        for (long k = 0; k < n; k++) memcpy(nb_all + 4 * (size_t)gids[k], nbs + 4 * k, sizeof(int) * 4);
        free(cnts); free(gids); free(nbs);
    }
}

/* Checksum of a mesh (FNV-1a over its header and cells): do all ranks hold the same mesh? */
static inline uint64_t hm_checksum(const amr_mesh *m)
{
    uint64_t h = 1469598103934665603ull;
    long head[4] = {m->nx, m->ny, m->levmax, m->n};
    const int *arr[3] = {m->i, m->j, m->lev};
    for (int k = 0; k < 4; k++) h = (h ^ (uint64_t)head[k]) * 1099511628211ull;
    for (int a = 0; a < 3; a++)
        for (long c = 0; c < m->n; c++) h = (h ^ (uint32_t)arr[a][c]) * 1099511628211ull;
    return h;
}

#endif
