/* sparsegrid/sparse_multi.h -- the index logic of k_sparse_multi (sparse_multi.cuh): several
 * sparse grids per block and several work items per thread in flight.  Plain C
 * with HD functions: the GPU kernel calls exactly these functions, and the host test
 * (tests/host/test_sparsegrid_multi.c) replays a block with them thread by thread.
 *
 * Groups.  A block stages a group of G consecutive grids (grids first .. first + gc - 1,
 * gc = G except for the last group of a batch whose size is not a multiple of G) in shared
 * memory, one after another with pitch N (the grids are contiguous in global memory too, so
 * the group is ONE contiguous span of gc * N values: the staging loads and stores are plain
 * coalesced copies).  Groups go to blocks round robin (group gr, gr + gridDim.x, ...).
 *
 * Work items.  List kl = (k, L) has `count` items per grid; in a group it has gc * count.
 * Item numbering: item i of the group is local item t = i / G of grid gg = i % G
 * (interleaved), and a thread owns the G items of one t at a time: thread tid processes t =
 * tid, tid + B, tid + 2B, ... (B threads), in steps of U consecutive t (t0, t0 + B, ...,
 * t0 + (U-1) B) whose U table entries it loads first, then the 3 U gc shared values, then
 * it computes and stores the U gc results.  Why this order:
 *   - one table entry (x, xl, xr: 6 bytes) serves gc grids: table traffic per grid / G;
 *   - the lanes of a warp hold consecutive t for the same (u, gg): the table loads are
 *     coalesced and the shared accesses are those of k_sparse (consecutive x inside a
 *     segment), so the bank pattern is the existing kernel's, independent of the pitch N;
 *   - a thread has U gc independent updates in flight behind one round of table loads
 *     (instruction-level parallelism), and the block pays d n barriers per G grids.
 *
 * Why loading everything before storing is exact (independence of a list; sparse.h, "Work
 * lists", and sgs_item): an item of list (k, L) writes only its own point x, which has level
 * l_k = L (x lies in a segment = a subspace with l_k = L); it reads xl and xr, the points
 * 2^(n-L) to its left and right on the same pole, whose 1D indices (2w+1) 2^(n-L) -/+ 2^(n-L)
 * = 2w 2^(n-L), (2w+2) 2^(n-L) are even multiples of 2^(n-L), i.e. of level < L in dimension
 * k (sgs_level1): they lie in subspaces with l_k < L (the parent table par[], lev = 0..L-1),
 * never written in list (k, L).  Every point with l_k = L is exactly one item of the list,
 * so no two items write the same x.  Hence the items of a list commute and may be split,
 * reordered or batched in any way, and the grids of a group are disjoint in shared memory.
 * The host test checks this property directly on every list of every grid it tests. */
#ifndef SPARSEGRID_SPARSE_MULTI_H
#define SPARSEGRID_SPARSE_MULTI_H

#include "sparse.h"

#define SGS_MULTI_GMAX 4 /* grids per block: instantiated 1..4 */
#define SGS_MULTI_UMAX 4 /* table entries in flight per thread: instantiated 1, 2, 4 */

#ifdef __CUDA_ARCH__
#define SGS_UNROLL _Pragma("unroll")
#define SGS_LDG(p) __ldg(p)
#else
#define SGS_UNROLL
#define SGS_LDG(p) (*(p))
#endif

/* Groups of G grids in a batch of ngrids: how many (the last one partial when ngrids % G). */
static inline HD long long sgs_multi_groups(long long ngrids, int G) { return (ngrids + G - 1) / G; }

/* Group gr: its first grid and its number of grids gc (1..G). */
static inline HD void sgs_multi_group(long long gr, int G, long long ngrids, long long *first, int *gc)
{
    long long f = gr * G, left = ngrids - f;
    *first = f;
    *gc = left < G ? (int)left : G;
}

/* Table entry e (the table variant's packing, sgs_table_fill): x | xl << 16 and xr. */
static inline HD void sgs_tab_item(const unsigned *tab_xl, const unsigned short *tab_r, int e, int *x, int *xl, int *xr)
{
    unsigned p = SGS_LDG(tab_xl + e);
    *x = (int)(p & 0xFFFFu);
    *xl = (int)(p >> 16);
    *xr = (int)SGS_LDG(tab_r + e);
}

/* Local item t of step j of a thread whose step starts at t0, with B threads per block. */
static inline HD int sgs_multi_t(int t0, int j, int B) { return t0 + j * B; }

/* The offset table of every work item (sgs_find + sgs_item, the computed variant's route),
 * lists one after another: entry base[kl] + t is item t of list kl; x | xl << 16 in xl[],
 * xr in xr[]; base[] has d (n+1) + 1 entries.  Needs npts <= 65536 (16-bit offsets): returns
 * the number of entries, or -1 when the grid is larger.  xl and xr need room for the total
 * of list_count[] (sgs_table_size). */
static inline long long sgs_table_size(const sgs_grid *h)
{
    long long total = 0;
    for (int kl = 0; kl < h->d * (h->n + 1); kl++) total += h->list_count[kl];
    return total;
}
static inline int sgs_table_fill(const sgs_grid *h, unsigned *xl, unsigned short *xr, int *base)
{
    if (h->npts > 65536) return -1;
    int lists = h->d * (h->n + 1), e = 0;
    for (int kl = 0; kl < lists; kl++) {
        base[kl] = e;
        int L = kl % (h->n + 1), last = h->list_first[kl + 1] - 1;
        for (int t = 0; t < h->list_count[kl]; t++, e++) {
            int si = sgs_find(h->seg_start, h->chunk, h->list_chunk[kl], last, t), x, l, r;
            sgs_item(h->seg + si, h->par, h->n, L, t, &x, &l, &r);
            xl[e] = (unsigned)x | ((unsigned)l << 16);
            xr[e] = (unsigned short)r;
        }
    }
    base[lists] = e;
    return e;
}

/* Grids per block: the largest G <= gmax whose G grids (G * bytes_per_grid) fit the per-block
 * limit optin and leave at least min_blocks blocks per SM by shared memory (each block also
 * reserves `reserved` bytes: min_blocks * (G * bytes + reserved) <= per_sm).  When not even
 * G = 1 leaves min_blocks blocks, 1 if one grid fits optin; 0 if it does not (not staged). */
static inline int sgs_multi_pick_g(long long bytes_per_grid, int gmax, long long optin, long long per_sm,
                                   long long reserved, int min_blocks)
{
    if (bytes_per_grid > optin) return 0;
    for (int G = gmax; G >= 1; G--)
        if (G * bytes_per_grid <= optin && min_blocks * (G * bytes_per_grid + reserved) <= per_sm) return G;
    return 1;
}

/* One step of one thread in list (k, L) of a group: the U local items t0 + j B (j < U, those
 * below count) of the gc grids staged at u + gg * pitch.  Table loads first, then all shared
 * loads, then the operations and stores (exact: the items of a list are independent, see
 * above).  G and U are compile-time constants in the kernel (template arguments, this
 * function inlined), so the loops unroll and the arrays live in registers. */
#define SGS_MULTI_DEFINE(T, SUF, SURPLUS, UNSURPLUS)                                                     \
    static inline HD void sgs_multi_step_##SUF(T *u, int pitch, int gc, int G, int U, const unsigned *tab_xl, \
                                               const unsigned short *tab_r, int base, int count, int t0, int B, \
                                               int inverse)                                                \
    {                                                                                                     \
        int x[SGS_MULTI_UMAX], xl[SGS_MULTI_UMAX], xr[SGS_MULTI_UMAX];                                    \
        T vx[SGS_MULTI_UMAX][SGS_MULTI_GMAX], vl[SGS_MULTI_UMAX][SGS_MULTI_GMAX], vr[SGS_MULTI_UMAX][SGS_MULTI_GMAX]; \
        SGS_UNROLL for (int j = 0; j < U; j++) {                                                          \
            int t = sgs_multi_t(t0, j, B);                                                                \
            x[j] = xl[j] = xr[j] = -1;                                                                    \
            if (t < count) sgs_tab_item(tab_xl, tab_r, base + t, x + j, xl + j, xr + j);                  \
        }                                                                                                 \
        SGS_UNROLL for (int j = 0; j < U; j++)                                                            \
            SGS_UNROLL for (int gg = 0; gg < G; gg++)                                                     \
                if (x[j] >= 0 && gg < gc) {                                                               \
                    const T *ug = u + gg * pitch;                                                         \
                    vx[j][gg] = ug[x[j]];                                                                 \
                    vl[j][gg] = ug[xl[j]];                                                                \
                    vr[j][gg] = ug[xr[j]];                                                                \
                }                                                                                         \
        SGS_UNROLL for (int j = 0; j < U; j++)                                                            \
            SGS_UNROLL for (int gg = 0; gg < G; gg++)                                                     \
                if (x[j] >= 0 && gg < gc)                                                                 \
                    u[gg * pitch + x[j]] = inverse ? UNSURPLUS(vx[j][gg], vl[j][gg], vr[j][gg])           \
                                                   : SURPLUS(vx[j][gg], vl[j][gg], vr[j][gg]);            \
    }                                                                                                     \
    /* All steps of thread tid (of B) in list kl of a group: t0 = tid, tid + U B, ... */                   \
    static inline HD void sgs_multi_list_##SUF(T *u, int pitch, int gc, int G, int U, const unsigned *tab_xl, \
                                               const unsigned short *tab_r, const int *list_base,          \
                                               const int *list_count, int kl, int tid, int B, int inverse) \
    {                                                                                                     \
        int base = SGS_LDG(list_base + kl), count = SGS_LDG(list_count + kl);                            \
        for (int t0 = tid; t0 < count; t0 += U * B)                                                       \
            sgs_multi_step_##SUF(u, pitch, gc, G, U, tab_xl, tab_r, base, count, t0, B, inverse);         \
    }

SGS_MULTI_DEFINE(float, f, sg_surplus, sg_unsurplus)
SGS_MULTI_DEFINE(double, d, sg_surplus_d, sg_unsurplus_d)

#endif
