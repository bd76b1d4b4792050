/* hashmesh/mesh_step.h -- the per-step work of the distributed neighbour finder on one rank
 * (mesh_partition.h steps 4-5) without MPI: plain C, HD where a GPU kernel calls it, so
 * tests/host checks it with cc.  Listing 2 of Robey, Nicholaeff, Robey, "Hash-based algorithms
 * for discretized data", on a window of the finest level (the rank's table).
 *
 *   hm_write_rec       one record's write (Listing 2 lines 12-24), clipped to the window
 *   hm_read_rec        one owned record's four probes, read from the window's table
 *   hm_build_serial    step 4 on one core: clear the window, write owned records, then ghosts
 *   hm_query_serial    step 5 on one core: the four neighbours of every owned record
 *   hm_build_omp       step 4 on `threads` OpenMP threads (parallel clear, parallel write)
 *   hm_query_omp       step 5 on `threads` OpenMP threads (parallel for over owned records)
 *
 * Why the parallel build needs no atomics and equals the serial one bit for bit: the records
 * written are cells of ONE valid mesh (non-overlapping; neighbors-mpi refuses an overlapping
 * file on rank 0 and its generator makes none), each at most once -- a rank's owned cells,
 * and ghosts that other ranks own, each sent to this rank once (hm_touching lists a peer once
 * per cell).  So every bucket of the window is written by at most one record: a perfect hash,
 * the same argument as the GPU's k_dist_write (one thread per record) and hash_write2d_omp in
 * best.h.  The order of the writes then cannot change the table, and the query only reads it.
 * The serial versions are the reference (and --threads=1). */
#ifndef HASHMESH_MESH_STEP_H
#define HASHMESH_MESH_STEP_H

#include <string.h>
#include "../common/hd.h"
#include "hash.h" /* hash_neigh2d_probe */

#define HM_REC 4 /* ints per cell record: i, j, level, global index */

typedef struct { long x0, y0, w, h; } hm_window; /* finest buckets [x0, x0 + w) x [y0, y0 + h) */

/* Step 4, one record: Listing 2's write of the record's global index, clipped to the window. */
static inline HD void hm_write_rec(int *t, hm_window w, int levmax, const int *rec)
{
    long r = 1L << (levmax - rec[2]), x0 = (long)rec[0] * r, y0 = (long)rec[1] * r;
    long xa = x0 > w.x0 ? x0 : w.x0, xb = x0 + r < w.x0 + w.w ? x0 + r : w.x0 + w.w;
    long ya = y0 > w.y0 ? y0 : w.y0, yb = y0 + r < w.y0 + w.h ? y0 + r : w.y0 + w.h;
    for (long y = ya; y < yb; y++)
        for (long x = xa; x < xb; x++) t[(y - w.y0) * w.w + (x - w.x0)] = rec[3];
}

/* Step 5, one owned record: Listing 2's probes looked up in the window's table. */
static inline HD void hm_read_rec(const int *t, hm_window w, long W, long H, int levmax, const int *rec, int *nb)
{
    long x[4], y[4];
    hash_neigh2d_probe(W, H, rec[0], rec[1], rec[2], levmax, x, y);
    for (int f = 0; f < 4; f++) nb[f] = t[(y[f] - w.y0) * w.w + (x[f] - w.x0)];
}

/* Step 4 on one core: t (w.w * w.h ints) cleared to -1, then the nown owned records and the
 * nghost ghost records (HM_REC ints each) written. */
static inline void hm_build_serial(int *t, hm_window w, int levmax, const int *own, long nown, const int *ghost,
                                   long nghost)
{
    memset(t, -1, sizeof(int) * (size_t)(w.w * w.h));
    for (long k = 0; k < nown; k++) hm_write_rec(t, w, levmax, own + HM_REC * k);
    for (long g = 0; g < nghost; g++) hm_write_rec(t, w, levmax, ghost + HM_REC * g);
}
/* Step 5 on one core: nb gets 4 neighbours (global indices) per owned record; W x H: the
 * domain's finest buckets. */
static inline void hm_query_serial(const int *t, hm_window w, long W, long H, int levmax, const int *own, long nown,
                                   int *nb)
{
    for (long k = 0; k < nown; k++) hm_read_rec(t, w, W, H, levmax, own + HM_REC * k, nb + 4 * k);
}

/* Step 4 on `threads` threads (1: the serial loops; without -fopenmp: serial).  The clear is
 * split by rows (static: each thread first-touches its share of the table); owned records and
 * ghosts form one index range c < nown + nghost, handed out in chunks (dynamic: records cover
 * 1 to 4^levmax buckets, so equal counts are not equal work). */
#define HM_BUILD_CHUNK 1024 /* records per chunk of the parallel write */
static inline void hm_build_omp(int *t, hm_window w, int levmax, const int *own, long nown, const int *ghost,
                                long nghost, int threads)
{
    if (threads <= 1) {
        hm_build_serial(t, w, levmax, own, nown, ghost, nghost);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
        for (long y = 0; y < w.h; y++) memset(t + y * w.w, -1, sizeof(int) * (size_t)w.w);
        /* the implicit barrier: every bucket is cleared before any record writes */
#pragma omp for schedule(dynamic, HM_BUILD_CHUNK)
        for (long c = 0; c < nown + nghost; c++)
            hm_write_rec(t, w, levmax, c < nown ? own + HM_REC * c : ghost + HM_REC * (c - nown));
    }
}
/* Step 5 on `threads` threads: each owned record's four reads and writes are its own. */
static inline void hm_query_omp(const int *t, hm_window w, long W, long H, int levmax, const int *own, long nown,
                                int *nb, int threads)
{
    if (threads <= 1) {
        hm_query_serial(t, w, W, H, levmax, own, nown, nb);
        return;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long k = 0; k < nown; k++) hm_read_rec(t, w, W, H, levmax, own + HM_REC * k, nb + 4 * k);
}

#endif
