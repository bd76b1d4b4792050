/* sparsegrid/cpu_blocked.h -- CPU hierarchization designed from a byte count: "cpu_blocked", the
 * sparse grids of sparse.h and the full grids of hierarchize.h, float and double.
 *
 * The byte model.  Hierarchization (thesis 2.3.1, Algorithm 1: c_i = u_i - 0.5 (u_{i-h} + u_{i+h})
 * along every dimension in turn, thesis 2.3.2) must read every point once and write it once:
 * 2 x elem bytes per point, the bytes of a copy.  One grid of the experiments (sparse d = 2..6 at
 * sparse.h's levels: 6-14 k points; the thesis's tiles: 729-2025 points) is far smaller than a
 * core's L2 cache, so every pass after the first can run in cache, and DRAM sees only the one
 * read and the one write: such code runs at copy speed if its arithmetic keeps up.  The older
 * CPU versions (sgs_cpu_*, sgs_cpu_shift_*, sg_cpu_tuned) already keep a grid in cache; what they
 * lack is that arithmetic: a list (k = 0, L) of a sparse grid has rows of ONE point (S_0 = 1),
 * so every point costs a scalar update plus the index work of its row (sgs_item), and the
 * thesis's tiles have lines of 2..33 points, shorter than the line blocking's 16.
 *
 * The design.  V = 64 / elem grids (one cache line: 16 floats, 8 doubles) are interleaved into a
 * thread's buffer, buf[i V + v] = grid v's point i ("lanes"); every point of the grid becomes a
 * vector of V values from V different grids, and every row of the level-wise lists (sparse.h) or
 * every line block (hierarchize.h) becomes S V contiguous values: each update is a full-width
 * vector operation, whatever the dimension.  The lists are walked per segment and per index w
 * along k with the other coordinates c stepping by fixed strides (no per-row index arithmetic).
 * The arithmetic is the same sg_surplus()/sg_unsurplus() per point in the same order of lists,
 * so the result equals the references bitwise.  Then the V grids are scattered back.
 *
 *   traffic per point: read elem (the gather) + write elem (the scatter) from DRAM, plus the
 *   write-allocate read of the destination line (normal stores): 3 elem of actual DRAM traffic
 *   for 2 elem counted; the buffer itself (V N elem = 64 N bytes: 0.4-0.9 MB for the sparse
 *   grids, 47-130 KB for the tiles) stays in L2.
 *
 * Threads take blocks of V grids (OpenMP, static); the last block may be partial (its unused
 * lanes are zeros, never written back).  src == dst is allowed (a block is read whole before it
 * is written).  Plain C: host tests compile it with cc. */
#ifndef SPARSEGRID_CPU_BLOCKED_H
#define SPARSEGRID_CPU_BLOCKED_H

#include "sparse.h"

#define SGB_LINE_BYTES 64 /* lanes = SGB_LINE_BYTES / elem grids interleaved (a cache line) */

/* Streaming (non-temporal) stores for the scatter: the destination lines are written whole
 * (64 consecutive values of one grid), so write-combining sends them to memory without the
 * write-allocate read; x86-64 (movnti, baseline SSE2), else a plain store.  Used when the batch
 * has at least SGB_STREAM_MIN bytes (a smaller one may be read again from the cache). */
#ifndef SGB_STREAM_MIN /* (a test sets its own, to run both paths at small sizes) */
#define SGB_STREAM_MIN (8.0 * 1024 * 1024)
#endif
/* The store path of a batch of G grids of N values of elem bytes: streaming stores from
 * SGB_STREAM_MIN bytes on (the batch would not stay in the cache), plain stores below. */
static inline int sgb_streams(long long G, long long N, size_t elem)
{
    return (double)G * N * elem >= SGB_STREAM_MIN;
}
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
static inline void sgb_stream_f(float *p, float v)
{
    int i;
    memcpy(&i, &v, sizeof i);
    _mm_stream_si32((int *)p, i);
}
static inline void sgb_stream_d(double *p, double v)
{
    long long i;
    memcpy(&i, &v, sizeof i);
    _mm_stream_si64((long long *)p, i);
}
static inline void sgb_fence(void) { _mm_sfence(); }
#else
static inline void sgb_stream_f(float *p, float v) { *p = v; }
static inline void sgb_stream_d(double *p, double v) { *p = v; }
static inline void sgb_fence(void) {}
#endif

#define SGB_DEFINE(T, SUF, SURPLUS, UNSURPLUS)                                                          \
    /* len contiguous values from their left and right parents (one row of lanes). */                  \
    SG_INLINE void sgb_row_##SUF(T *px, const T *pl, const T *pr, long long len, int inverse)          \
    {                                                                                                  \
        if (inverse) {                                                                                 \
            _Pragma("omp simd") for (long long a = 0; a < len; a++) px[a] = UNSURPLUS(px[a], pl[a], pr[a]); \
        } else {                                                                                       \
            _Pragma("omp simd") for (long long a = 0; a < len; a++) px[a] = SURPLUS(px[a], pl[a], pr[a]); \
        }                                                                                              \
    }                                                                                                  \
    /* Gather nv grids of N points (src, one after another) into buf[i V + v]; lanes nv..V-1 zero. */   \
    SG_INLINE void sgb_gather_##SUF(T *buf, const T *src, long long N, int V, int nv)                  \
    {                                                                                                  \
        if (nv < V) memset(buf, 0, sizeof(T) * (size_t)(N * V));                                       \
        for (long long i0 = 0; i0 < N; i0 += 64) {                                                     \
            long long i1 = i0 + 64 < N ? i0 + 64 : N;                                                  \
            for (int v = 0; v < nv; v++) {                                                             \
                const T *s = src + v * N;                                                              \
                for (long long i = i0; i < i1; i++) buf[i * V + v] = s[i];                             \
            }                                                                                          \
        }                                                                                              \
    }                                                                                                  \
    /* Scatter lanes 0..nv-1 of buf back into nv grids at dst; nt: streaming stores (sgb_stream). */  \
    SG_INLINE void sgb_scatter_##SUF(T *dst, const T *buf, long long N, int V, int nv, int nt)         \
    {                                                                                                  \
        for (long long i0 = 0; i0 < N; i0 += 64) {                                                     \
            long long i1 = i0 + 64 < N ? i0 + 64 : N;                                                  \
            for (int v = 0; v < nv; v++) {                                                             \
                T *t = dst + v * N;                                                                    \
                if (nt) for (long long i = i0; i < i1; i++) sgb_stream_##SUF(t + i, buf[i * V + v]);   \
                else for (long long i = i0; i < i1; i++) t[i] = buf[i * V + v];                        \
            }                                                                                          \
        }                                                                                              \
    }                                                                                                  \
    /* The list (k, L) of a sparse grid on V interleaved grids.  Segment q holds a subspace with       \
     * l_k = L; its point r = a + S (w + np(L) c) (sparse.h) has its neighbours at 1D distance         \
     * h = 2^(n-L) along k, in the subspaces of their levels ll, lr: for a fixed w the rows of the     \
     * successive c lie at fixed strides S np(L), S np(ll), S np(lr) (points), each row S points. */   \
    SG_INLINE void sgb_list_##SUF(T *u, const sgs_grid *g, int k, int L, int V, int inverse)           \
    {                                                                                                  \
        int n = g->n, kl = k * (n + 1) + L, h = 1 << (n - L);                                          \
        for (int si = g->list_first[kl]; si < g->list_first[kl + 1]; si++) {                           \
            const sgs_seg *q = g->seg + si;                                                            \
            long long end = si + 1 < g->list_first[kl + 1] ? q[1].start : g->list_count[kl];           \
            long long S = 1LL << q->sbits, C = (end - q->start) >> (q->sbits + q->wbits);              \
            long long row = S * V, sx = (S << q->wbits) * V;                                           \
            for (int w = 0; w < (1 << q->wbits); w++) {                                                \
                int i = (2 * w + 1) * h, ll = sgs_level1(i - h, n), lr = sgs_level1(i + h, n);         \
                T *px = u + (q->off + (w << q->sbits)) * (long long)V;                                 \
                const T *pl = u + (g->par[q->par + ll] + ((long long)sgs_within1(i - h, n, ll) << q->sbits)) * V; \
                const T *pr = u + (g->par[q->par + lr] + ((long long)sgs_within1(i + h, n, lr) << q->sbits)) * V; \
                long long sl = (S << sgs_lbits(ll)) * V, sr = (S << sgs_lbits(lr)) * V;               \
                for (long long c = 0; c < C; c++, px += sx, pl += sl, pr += sr)                        \
                    sgb_row_##SUF(px, pl, pr, row, inverse);                                           \
            }                                                                                          \
        }                                                                                              \
    }                                                                                                  \
    /* One block of V interleaved sparse grids, all dimensions, level by level (sgs_grid's order). */  \
    SG_INLINE void sgb_sparse_block_##SUF(T *buf, const sgs_grid *g, int V, int inverse)              \
    {                                                                                                  \
        for (int k = 0; k < g->d; k++)                                                                 \
            for (int s = 1; s <= g->n; s++) sgb_list_##SUF(buf, g, k, inverse ? s : g->n + 1 - s, V, inverse); \
    }                                                                                                  \
    /* One block of V interleaved full-grid tiles: dimension k = 0..d-1, every line along k.  The      \
     * lines of one outer block o are neighbours in the dimensions below k, so the points at index     \
     * i along k of all of them are stride[k] V contiguous values (also for k = 0: V values). */       \
    SG_INLINE void sgb_full_block_##SUF(T *buf, const sg_geom *g, int V, int inverse)                  \
    {                                                                                                  \
        for (int k = 0; k < g->d; k++) {                                                               \
            long long inner = g->stride[k] * V, len = g->n[k] * inner, size = g->size * V;             \
            int l = g->l[k];                                                                           \
            for (long long o = 0; o < size; o += len)                                                  \
                for (int s = 0; s < l; s++) {                                                          \
                    int lev = inverse ? s + 1 : l - s; /* hierarchize finest first */                  \
                    long long h = 1LL << (l - lev);                                                    \
                    for (long long i = h; i < g->n[k] - 1; i += 2 * h) {                               \
                        T *x = buf + o + i * inner;                                                    \
                        sgb_row_##SUF(x, x - h * inner, x + h * inner, inner, inverse);                \
                    }                                                                                  \
                }                                                                                      \
        }                                                                                              \
    }                                                                                                  \
    /* One block: gather, every pass, scatter (V a constant in the first branch: the compiler          \
     * specializes the inlined loops for the default lanes; any other V takes the generic code). */   \
    SG_INLINE void sgb_block_v_##SUF(T *buf, const T *src, T *dst, long long N, const void *sg, int kind,   \
                                     int inverse, int V, int nv, int nt)                               \
    {                                                                                                  \
        sgb_gather_##SUF(buf, src, N, V, nv);                                                          \
        if (kind) sgb_full_block_##SUF(buf, (const sg_geom *)sg, V, inverse);                          \
        else sgb_sparse_block_##SUF(buf, (const sgs_grid *)sg, V, inverse);                            \
        sgb_scatter_##SUF(dst, buf, N, V, nv, nt);                                                     \
    }                                                                                                  \
    SG_CPU_TARGETS static void sgb_block_##SUF(T *buf, const T *src, T *dst, long long N, const void *sg, int kind, \
                                               int inverse, int V, int nv, int nt)                     \
    {                                                                                                  \
        if (V == (int)(SGB_LINE_BYTES / sizeof(T)))                                                    \
            sgb_block_v_##SUF(buf, src, dst, N, sg, kind, inverse, (int)(SGB_LINE_BYTES / sizeof(T)), nv, nt); \
        else sgb_block_v_##SUF(buf, src, dst, N, sg, kind, inverse, V, nv, nt);                        \
    }                                                                                                  \
    /* The driver: G grids of N points src -> dst, OpenMP over blocks of V, each block by `block`     \
     * (sgb_block_*, or cpu_blocked_t.h's); kind 0 sparse (sg: an sgs_grid), 1 full (sg: an sg_geom).  \
     * lanes 0: SGB_LINE_BYTES / sizeof(T).  0, or -1 when out of memory. */                           \
    typedef void (*sgb_block_fn_##SUF)(T *, const T *, T *, long long, const void *, int, int, int, int, int); \
    static inline int sgb_drive_##SUF(const T *src, T *dst, long long G, long long N, const void *sg, int kind, \
                                      int inverse, int threads, int lanes, sgb_block_fn_##SUF block)   \
    {                                                                                                  \
        int V = lanes > 0 ? lanes : (int)(SGB_LINE_BYTES / sizeof(T)), fail = 0;                       \
        int nt = sgb_streams(G, N, sizeof(T));                                                         \
        long long blocks = (G + V - 1) / V;                                                            \
        if (threads < 1) threads = 1;                                                                  \
        _Pragma("omp parallel num_threads(threads) reduction(| : fail)")                               \
        {                                                                                              \
            T *buf = (T *)aligned_alloc(64, (sizeof(T) * (size_t)(N * V) + 63) / 64 * 64);             \
            if (!buf) fail = 1;                                                                        \
            else {                                                                                     \
                _Pragma("omp for schedule(static)")                                                    \
                for (long long b = 0; b < blocks; b++) {                                               \
                    int nv = G - b * V < V ? (int)(G - b * V) : V;                                     \
                    block(buf, src + b * V * N, dst + b * V * N, N, sg, kind, inverse, V, nv, nt);     \
                }                                                                                      \
                sgb_fence(); /* the streaming stores are visible before the threads join */            \
            }                                                                                          \
            free(buf);                                                                                 \
        }                                                                                              \
        return fail ? -1 : 0;                                                                          \
    }                                                                                                  \
    static inline int sgb_run_##SUF(const T *src, T *dst, long long G, long long N, const void *sg, int kind, \
                                    int inverse, int threads, int lanes)                               \
    {                                                                                                  \
        return sgb_drive_##SUF(src, dst, G, N, sg, kind, inverse, threads, lanes, sgb_block_##SUF);    \
    }                                                                                                  \
    /* G sparse grids (or full grids in subspace order, sgs_init_full) src -> dst. */                  \
    static inline int sgs_cpu_blocked_##SUF(const T *src, T *dst, long long G, const sgs_grid *g, int inverse, \
                                            int threads, int lanes)                                    \
    {                                                                                                  \
        return sgb_run_##SUF(src, dst, G, g->npts, g, 0, inverse, threads, lanes);                     \
    }                                                                                                  \
    /* nt full-grid tiles (plain layout, dimension 0 fastest) src -> dst. */                           \
    static inline int sg_cpu_blocked_##SUF(const T *src, T *dst, long long nt, const sg_geom *g, int inverse, \
                                           int threads, int lanes)                                     \
    {                                                                                                  \
        return sgb_run_##SUF(src, dst, nt, g->size, g, 1, inverse, threads, lanes);                    \
    }

SGB_DEFINE(float, f, sg_surplus, sg_unsurplus)
SGB_DEFINE(double, d, sg_surplus_d, sg_unsurplus_d)

#endif
