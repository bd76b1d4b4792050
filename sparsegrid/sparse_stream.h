/* sparsegrid/sparse_stream.h -- k_sparse_stream's model and index logic (HD functions, the walk
 * of a thread): sparse-grid (de)hierarchization, whole poles a thread (thesis ch. 6, Algorithm 1).
 * Batched, the poles held in registers (sparse_stream.cuh; the grid, its subspace order and the
 * 1D transform: sparse.h, thesis Algorithm 1 and section 2.3.2).  Plain C with HD functions: the
 * kernel calls exactly these functions; the plan that feeds them and the host replay of a block
 * are in sparse_stream_plan.h, with which tests/host/test_sparsegrid_stream.c replays a block
 * thread by thread.
 *
 * Why (the model; N points per grid, items = points with l_k >= 1 summed over k, I = items / N:
 * 1.67 2.14 2.43 2.70 2.86 for the sweep's d = 2..6 grids).  The copy kernel moves 2 elem bytes
 * per point; on the H100 that is 2.74 TB/s, so 60 % of it is 205 G points/s in float (103 in
 * double): 1.27 (2.55) SM cycles per point at 1.98 GHz, i.e. 163 (326) thread instructions per
 * point at one warp instruction per scheduler and cycle, and 1.27 (2.55) shared-memory
 * wavefronts per point.  Every version here moves exactly the copy's bytes through DRAM (each
 * grid read once into shared memory and written once); the difference is what happens on the SM.
 *   k_sparse / k_sparse_multi (table): per item 6 table bytes from L2 (the table of d = 6 is
 *   240 KB, it does not stay in L1), 3 LDS + 1 STS, about 20 instructions, and d n barriers
 *   per grid, one per list (k, L).  ncu (d = 4, float, k_sparse_multi 256 threads): 1.8 SM
 *   cycles and 135 issued thread instructions per point, 0.58 warp instructions per scheduler
 *   and cycle, most stalls on the table loads (L1TEX scoreboard): latency-bound at 38 % of copy.
 *   k_sparse_stream: per pass k a thread takes a whole pole (or a 2^M-interval piece of a long
 *   one, below) into registers -- 2^mu + 1 LDS, 2^mu - 1 operations, 2^mu - 1 STS -- so one
 *   pass over dimension k needs ONE barrier instead of n, and the per-pole index work (one 4-byte
 *   task entry from L1/L2, one 16-byte family record from L1) is shared by the pole's 2^mu - 1
 *   items; the poles of level 1 (single items, 40 % of the items of d = 6) read their three
 *   offsets as one 8-byte load instead.  Tasks per point (sum over k; M = 5, or n when smaller):
 *   0.20 0.45 0.78 1.15 1.57 for d = 2..6.  Instructions per task, counted in the SASS of the
 *   float kernels (sm_90, the loop of each class, both directions' operations included):
 *   mu = 1: 24, 2: 59, 3: 90, 4: 149, 5: 266 (top), 170 (M = 3) and 363 (M = 5) for the
 *   cut pieces of long poles; the 16-byte copies in and out 2.4 each per point.  Weighted by the
 *   sweep grids' classes: about 26 34 43 52 62 thread instructions per point for d = 2..6 (double:
 *   the same counts), i.e. 16-38 % of the issue slots at 60 % of copy in float (8-19 % in
 *   double); the shared-memory wavefronts per point, replayed on the host from these very
 *   addresses (bank conflicts included), are 0.43-0.69 float / 0.88-1.16 double (M = 3; M = 5:
 *   up to 0.80 / 1.48), 34-63 % of the 60 % budget.  Neither should bind at 60 %; what is left is
 *   latency (entry -> record -> LDS -> STS per task, 32-48 resident warps: registers limit the
 *   blocks) and the tail of each list before its barrier.
 *   What this count left out: the walk around the tasks (sgst_walk: about 50-65 instructions per
 *   list, class and thread, tasks or not; about 60 per point at d = 4 with 256 threads, as much
 *   as the tasks), which profiling showed as twice the instructions modelled; sgst_walk2 below
 *   and k_sparse_pipe (sparse_stream.cuh, with its own model) take it out.
 *
 * Poles and families.  For pass k, a family is a subspace with l_k = 0 together with the
 * subspaces that differ from it only in l_k = 1..m (m = the largest level kept; sparse grid:
 * m = n + d - 1 - sum_{j != k} max(l_j, 1)).  Its P = size / 2 poles p = a + S c (a: the
 * dimensions below k, S = 2^sb points; c: those above) each hold the 2^m + 1 points of a full 1D
 * grid of level m: pole position X = 0 .. 2^m has level lev = m - ctz(X) (0 at X = 0, 2^m) and
 * index w = X >> (ctz(X) + 1) inside its 1D subspace (sgs_level1 / sgs_within1), stored at
 *     off[lev] + a + S (w + np(lev) c) = off[lev] + p + hi (np(lev) - 1) + S w,   hi = S c,
 * where off[lev] is the offset of the family's subspace with l_k = lev: closed form over the
 * level vector, no per-point table.
 *
 * Tiers (long poles).  A thread holds at most 2^M + 1 values (M = 1..SGST_MMAX, a template
 * argument of the kernel).  A pole of level m > M is cut into tiers: tier r holds the positions
 * that are multiples of 2^e (e = r M), i.e. a pole of level ltop = m - e in the same storage
 * (level and index of a position are unchanged), cut into 2^(ltop - mu) segments of 2^mu
 * intervals, mu = min(M, ltop); a task is one segment sigma of one pole: its interior points
 * (levels ltop - mu + 1 .. ltop) are updated from its two endpoints (coarser levels, or the
 * boundary).  Hierarchization needs the original values of coarser points and dehierarchization
 * their new values, so tier r runs before tier r + 1 when hierarchizing and after it when
 * dehierarchizing, with a barrier in between; inside a tier the tasks are independent (each
 * writes only its interior points, which no other task of the tier reads or writes).  A "top"
 * task (ltop <= M: the whole rest of the pole, sigma = 0) has both endpoints on level 0.
 * The passes stay in the CPU's order (k = 0 .. d-1) and every point gets the same operation on
 * the same values, so the result equals the CPU's bitwise, float and double.
 *
 * Lists.  Pass k has tiers[k] lists (one per tier); a list's tasks are sorted by class o:
 * o = 0: non-top tasks (mu = M), o = 1 .. M: top tasks of mu = M + 1 - o -- so a warp mostly
 * runs one class (one compile-time mu) and the largest tasks come first.  A task entry is
 * rec << 16 | q: the family record of this (pass, tier, family) and q = p + P sigma (class M,
 * the single items of the level-1 poles, reads its three offsets from item[] instead).  A record
 * (16 bytes, one vector load) holds sb, log2 P, ltop, the index of the family's offsets off[0..m]
 * in full[], and six 16-bit slots: top tasks slot i = off[i] (i = 0..mu), non-top tasks slot i =
 * off[ltop - M + i] (i = 1..M, the interior levels); non-top endpoints read full[] (lev runtime).
 * 16-bit offsets: grids of at most SGST_MAXPTS points (a grid in shared memory has fewer). */
#ifndef SPARSEGRID_SPARSE_STREAM_H
#define SPARSEGRID_SPARSE_STREAM_H

#include "sparse.h"

#define SGST_MMAX 5                        /* pole levels per task: kernels instantiated for M = 1..5 */
#define SGST_PTS ((1 << SGST_MMAX) + 1)    /* values of a task */
#define SGST_GMAX 2                        /* grids per block */
#define SGST_MAXPTS 65536                  /* 16-bit offsets */
#define SGST_PAIRMU 3                      /* pole pairs (sgst_plan.pairs) for top tasks of mu <= 3 */
#define SGST_PPTS ((1 << SGST_PAIRMU) + 1) /* values of one pole of a pair task */

#ifdef __CUDA_ARCH__
#define SGST_UNROLL _Pragma("unroll")
#define SGST_LDG(p) __ldg(p)
#else
#define SGST_UNROLL
#define SGST_LDG(p) (*(p))
#endif
#ifdef __CUDACC__
#define SGST_FI static __forceinline__ __host__ __device__
#else
#define SGST_FI static inline
#endif

/* A family record (see above): w[0] = sb | log2 P << 5 | ltop << 10 | full index << 15,
 * w[1..3] = slots 0..5, two 16-bit offsets per word. */
typedef struct {
    unsigned w[4];
} __attribute__((aligned(16))) sgst_rec;

typedef struct {
    int d, n, M;
    long long npts;
    int nlist;                    /* lists, pass by pass, tier by tier */
    int tiers[SGS_MAXD];          /* lists of pass k (0: no level >= 1 along k) */
    int list0[SGS_MAXD];          /* first list of pass k */
    int last_covers;              /* every family of pass d-1 has m >= 1: its tasks touch every point */
    int *step;                    /* 2 nlist: the kernel's order of the lists, hierarchize then dehierarchize:
                                     l | tier << 8 | pass << 16 (sgst_list_at) */
    int *cls;                     /* nlist (M + 2): tasks of class o of list l: [cls[l(M+2)+o], cls[l(M+2)+o+1]) */
    int ntask;
    unsigned *task;               /* rec << 16 | q */
    unsigned *item;               /* 2 ntask: the offsets of the single items (class M), else 0 */
    int nrec;
    sgst_rec *rec;
    int nfull;
    unsigned short *full;         /* off[0..m] of every family, one after another */
    int pairs;                    /* top tasks of mu <= SGST_PAIRMU take two poles, p and p + P/2 (sgst_pair_step) */
    int packed;                   /* tasks in a bank-aware order for elements of this size (sgst_pack), 0: not */
    int compact;                  /* 4-byte items (sgst_item4; packed plans without pairs, N <= 16384) */
    long long items, tasks_of[SGST_MMAX + 2]; /* statistics: items, tasks per class (all lists) */
} sgst_plan;

/* ------------------------------------------------------------------ HD index functions */

/* Class o of a list: mu and top (see "Lists"). */
SGST_FI int sgst_mod(int a, int b) { return ((a % b) + b) % b; }
SGST_FI int sgst_class_mu(int o, int M) { return o == 0 ? M : M + 1 - o; }
SGST_FI int sgst_class_top(int o) { return o != 0; }

SGST_FI int sgst_rec_sb(const sgst_rec *r) { return (int)(r->w[0] & 31u); }
SGST_FI int sgst_rec_pb(const sgst_rec *r) { return (int)((r->w[0] >> 5) & 31u); }
SGST_FI int sgst_rec_ltop(const sgst_rec *r) { return (int)((r->w[0] >> 10) & 31u); }
SGST_FI int sgst_rec_full(const sgst_rec *r) { return (int)(r->w[0] >> 15); }
SGST_FI int sgst_rec_slot(const sgst_rec *r, int i) { return (int)((r->w[1 + (i >> 1)] >> (16 * (i & 1))) & 0xFFFFu); }

/* The record of entry ent (one 16-byte load on the device). */
SGST_FI sgst_rec sgst_rec_load(const sgst_rec *rec, unsigned ent)
{
#ifdef __CUDA_ARCH__
    uint4 x = __ldg(reinterpret_cast<const uint4 *>(rec + (ent >> 16)));
    sgst_rec r = {{x.x, x.y, x.z, x.w}};
    return r;
#else
    return rec[ent >> 16];
#endif
}

/* np(lev) - 1: the factor of hi = S c in the offset (np(0) = 2, np(lev) = 2^(lev-1)). */
SGST_FI int sgst_npm1(int lev) { return lev == 0 ? 1 : (1 << (lev - 1)) - 1; }

/* Offset of the point (lev, w) of pole p (p = a + hi, hi = S c) of a family whose subspace of
 * level lev is at off:  off + a + S (w + np(lev) c). */
SGST_FI int sgst_pos(int off, int p, int hi, int sb, int lev, int w) { return off + p + hi * sgst_npm1(lev) + (w << sb); }

/* Offset of tier position Y (0 .. 2^ltop) of pole p, level looked up in full[] (non-top endpoints). */
SGST_FI int sgst_end(const unsigned short *full, int fi, int ltop, int p, int hi, int sb, int Y)
{
    int lev = 0, w = Y != 0;
    if (Y != 0 && Y != (1 << ltop)) {
        int z = sgs_ctz(Y);
        lev = ltop - z;
        w = Y >> (z + 1);
    }
    return sgst_pos((int)SGST_LDG(full + fi + lev), p, hi, sb, lev, w);
}

/* Trailing zero bits of j = 1..63 as a chain of compile-time tests: with j a constant (the
 * kernel's unrolled loops) it folds to a constant, so the register arrays below are indexed by
 * constants only. */
SGST_FI int sgst_ctz6(int j) { return j & 1 ? 0 : j & 2 ? 1 : j & 4 ? 2 : j & 8 ? 3 : j & 16 ? 4 : 5; }

/* Where a task's points lie: base[t] = the offset of its first interior point with ctz(j) = t
 * (level ltop - t), the others of that level S apart; e0, e1 = its endpoints. */
typedef struct {
    int base[SGST_MMAX];
    int e0, e1, sb;
} sgst_geo;

/* The geometry of task ent (record r): interior task position j (1 .. 2^MU - 1) is tier
 * position sigma 2^MU + j of its pole, level ltop - ctz(j), index (sigma << (MU - 1 - ctz j)) +
 * (j >> (ctz j + 1)); the endpoints are tier positions sigma 2^MU and (sigma + 1) 2^MU. */
SGST_FI void sgst_task_geo(const sgst_rec *r, const unsigned short *full, unsigned ent, int MU, int top, sgst_geo *g)
{
    int sb = sgst_rec_sb(r), pb = sgst_rec_pb(r);
    int q = (int)(ent & 0xFFFFu);
    int p = top ? q : q & ((1 << pb) - 1), sig = top ? 0 : q >> pb; /* top: one segment */
    int ltop = top ? MU : sgst_rec_ltop(r);
    int hi = (p >> sb) << sb;
    g->sb = sb;
    SGST_UNROLL for (int t = 0; t < MU; t++)
        g->base[t] = sgst_pos(sgst_rec_slot(r, MU - t), p, hi, sb, ltop - t, sig << (MU - 1 - t));
    if (top) {
        g->e0 = sgst_pos(sgst_rec_slot(r, 0), p, hi, sb, 0, 0);
        g->e1 = g->e0 + (1 << sb);
    } else {
        int fi = sgst_rec_full(r);
        g->e0 = sgst_end(full, fi, ltop, p, hi, sb, sig << MU);
        g->e1 = sgst_end(full, fi, ltop, p, hi, sb, (sig + 1) << MU);
    }
}

/* Offset of task position j (0 .. 2^MU). */
SGST_FI int sgst_geo_addr(const sgst_geo *g, int MU, int j)
{
    if (j == 0) return g->e0;
    if (j == 1 << MU) return g->e1;
    int t = sgst_ctz6(j);
    return g->base[t] + ((j >> (t + 1)) << g->sb);
}

/* All 2^MU + 1 offsets of task ent in task order (the tests). */
SGST_FI void sgst_task_addr(const sgst_rec *r, const unsigned short *full, unsigned ent, int MU, int top, int *addr)
{
    sgst_geo g;
    sgst_task_geo(r, full, ent, MU, top, &g);
    for (int j = 0; j <= (1 << MU); j++) addr[j] = sgst_geo_addr(&g, MU, j);
}

/* Single items (class M: mu = 1, top -- the poles of level 1, the most numerous tasks for
 * d >= 5): item[2t] = x | xl << 16, item[2t+1] = xr, the three offsets precomputed by
 * sgst_task_addr, one 8-byte load instead of the entry, the record and their decoding. */
SGST_FI void sgst_item_load(const unsigned *item, int t, unsigned *a, unsigned *b)
{
#ifdef __CUDA_ARCH__
    uint2 x = __ldg(reinterpret_cast<const uint2 *>(item) + t);
    *a = x.x;
    *b = x.y;
#else
    *a = item[2 * t];
    *b = item[2 * t + 1];
#endif
}
SGST_FI void sgst_geo_item(unsigned a, unsigned b, sgst_geo *g)
{
    g->base[0] = (int)(a & 0xFFFFu);
    g->e0 = (int)(a >> 16);
    g->e1 = (int)(b & 0xFFFFu); /* the high bits: the pair of a pair plan (sgst_item_pair) */
    g->sb = 0;
}

/* Pole pairs (sgst_plan.pairs).  A top task of mu <= SGST_PAIRMU in a family of P >= 2 poles
 * takes pole p < P/2 and pole p + P/2 (consecutive lanes take consecutive p, so both poles'
 * accesses stay as conflict-free as single poles': the second at a fixed distance); the index
 * work of the task (entry, record, decoding, addresses) then serves twice the items.  From
 * pole p to p + P/2 the offset of a point of level lev grows by (P/2) np(lev), or by P/2 when
 * S = P (no dimension above k: hi = 0 for every pole); sh = log2(P/2), seq = (S == P). */
SGST_FI int sgst_pair_step(int sh, int seq, int lev) { return 1 << (sh + (seq ? 0 : sgs_lbits(lev))); }
/* Level of task position j (0 .. 2^MU) of a top task. */
SGST_FI int sgst_top_lev(int MU, int j) { return j == 0 || j == (1 << MU) ? 0 : MU - sgst_ctz6(j); }
/* An item of a pair plan: the high bits of its second word: pair, sh, seq. */
SGST_FI unsigned sgst_item_pair(int pb, int sb) { return pb > 0 ? 1u << 22 | (unsigned)(sb == pb) << 21 | (unsigned)(pb - 1) << 16 : 0u; }

/* Compact items (sgst_plan.compact: grids of at most 16384 points, no pairs): one 4-byte word
 * x | e0 << 14 | sb << 28, the right endpoint e1 = e0 + 2^sb (a top task's) -- half the bytes
 * of the table that, at d = 6, holds most of the tasks and does not stay in L1. */
SGST_FI unsigned sgst_item4(int x, int e0, int sb) { return (unsigned)x | (unsigned)e0 << 14 | (unsigned)sb << 28; }
SGST_FI void sgst_geo_item4(unsigned a, sgst_geo *g)
{
    g->base[0] = (int)(a & 0x3FFFu);
    g->e0 = (int)((a >> 14) & 0x3FFFu);
    g->e1 = g->e0 + (1 << (a >> 28));
    g->sb = 0;
}

/* The list of pass k, tier step rr (0 .. tiers[k]-1) in the kernel's order: fine tiers first
 * when hierarchizing, coarse first when dehierarchizing; *tier = the tier's index r. */
SGST_FI int sgst_list_at(const int *list0, const int *tiers, int k, int rr, int inverse, int *tier)
{
    *tier = inverse ? tiers[k] - 1 - rr : rr;
    return list0[k] + *tier;
}

/* ---------------------------------------- the per-thread work, float and double */

/* sgst_line: the 1D transform of a task's values in registers (v[0], v[2^MU]: the endpoints),
 *   hierarchize    ctz(j) = 0 .. MU-1:  v[j] = v[j] - (v[j - h] + v[j + h]) / 2   (finest first)
 *   dehierarchize  ctz(j) = MU-1 .. 0:  v[j] = v[j] + (v[j - h] + v[j + h]) / 2   (coarsest first)
 * h = 2^ctz(j), the operations of sparse.h (same bits).
 * sgst_task: one task on the gc (<= G) grids staged at u + gg pitch: all loads, the transform,
 * the stores of the interior points -- to u (keep_shared) and, when gout is set, to
 * gout + gg gpitch as well, together with the two endpoints of a top task (the last pass of
 * the direct-store variant).
 * sgst_walk: thread tid of B over list l: tasks t = first + tid, + B, ..., class by class (the
 * class loop is unrolled on the device, M being the kernel's template argument, so every class
 * runs its own loop with a compile-time mu), the next task entry loaded one task ahead. */
#define SGST_DEFINE(T, SUF, SURPLUS, UNSURPLUS)                                                         \
    SGST_FI void sgst_line_##SUF(T *v, int MU, int inverse)                                              \
    {                                                                                                    \
        SGST_UNROLL for (int s = 0; s < MU; s++) {                                                       \
            int t = inverse ? MU - 1 - s : s, h = 1 << t;                                                \
            SGST_UNROLL for (int jj = 0; jj < (1 << (MU - 1)); jj++) { /* bound: MU only (unrolls) */    \
                int j = (2 * jj + 1) << t;                                                               \
                if (jj < (1 << (MU - 1 - t)))                                                            \
                    v[j] = inverse ? UNSURPLUS(v[j], v[j - h], v[j + h]) : SURPLUS(v[j], v[j - h], v[j + h]); \
            }                                                                                            \
        }                                                                                                \
    }                                                                                                    \
    SGST_FI void sgst_task_##SUF(T *u, int pitch, int gc, int G, const sgst_geo *g, int MU, int top,      \
                                 int inverse, T *gout, int gpitch, int keep_shared)                      \
    {                                                                                                    \
        sgst_geo geo = *g;                                                                               \
        T v[SGST_GMAX][SGST_PTS];                                                                        \
        int np = (1 << MU) + 1;                                                                          \
        SGST_UNROLL for (int gg = 0; gg < G; gg++)                                                       \
            if (gg < gc)                                                                                 \
                SGST_UNROLL for (int j = 0; j < np; j++) v[gg][j] = u[gg * pitch + sgst_geo_addr(&geo, MU, j)]; \
        SGST_UNROLL for (int gg = 0; gg < G; gg++)                                                       \
            if (gg < gc) sgst_line_##SUF(v[gg], MU, inverse);                                            \
        SGST_UNROLL for (int gg = 0; gg < G; gg++) {                                                     \
            if (gg >= gc) continue;                                                                      \
            SGST_UNROLL for (int j = 1; j < np - 1; j++) {                                               \
                int a = sgst_geo_addr(&geo, MU, j);                                                      \
                if (keep_shared) u[gg * pitch + a] = v[gg][j];                                           \
                if (gout) gout[gg * gpitch + a] = v[gg][j];                                              \
            }                                                                                            \
            if (gout && top) {                                                                           \
                gout[gg * gpitch + geo.e0] = v[gg][0];                                                   \
                gout[gg * gpitch + geo.e1] = v[gg][np - 1];                                              \
            }                                                                                            \
        }                                                                                                \
    }                                                                                                    \
    SGST_FI void sgst_class_##SUF(int o, T *u, int pitch, int gc, int G, int M, const int *c, int first,   \
                                  const unsigned *task, const unsigned *item, const sgst_rec *rec,        \
                                  const unsigned short *full, int tid, int B, int inverse, T *gout,       \
                                  int gpitch, int keep_shared)                                           \
    {                                                                                                    \
        int lo = SGST_LDG(c + o), hi = SGST_LDG(c + o + 1), MU = sgst_class_mu(o, M), top = sgst_class_top(o); \
        int t = lo + sgst_mod(tid - (lo - first), B); /* the list's tasks t = first + tid + i B */        \
        sgst_geo geo;                                                                                    \
        if (o == M) { /* single items (mu = 1, top): the three offsets from item[], no record */         \
            unsigned a = 0, b = 0, na = 0, nb = 0;                                                       \
            if (t < hi) sgst_item_load(item, t, &a, &b);                                                 \
            for (; t < hi; t += B) {                                                                     \
                if (t + B < hi) sgst_item_load(item, t + B, &na, &nb); /* one item ahead */              \
                sgst_geo_item(a, b, &geo);                                                               \
                sgst_task_##SUF(u, pitch, gc, G, &geo, 1, 1, inverse, gout, gpitch, keep_shared);        \
                a = na;                                                                                  \
                b = nb;                                                                                  \
            }                                                                                            \
            return;                                                                                      \
        }                                                                                                \
        const unsigned *tp = task + t;                                                                   \
        unsigned ent = t < hi ? SGST_LDG(tp) : 0u;                                                       \
        for (; t < hi; t += B) {                                                                         \
            tp += B;                                                                                     \
            unsigned nxt = t + B < hi ? SGST_LDG(tp) : 0u; /* one entry ahead */                         \
            sgst_rec r = sgst_rec_load(rec, ent);                                                        \
            sgst_task_geo(&r, full, ent, MU, top, &geo);                                                 \
            sgst_task_##SUF(u, pitch, gc, G, &geo, MU, top, inverse, gout, gpitch, keep_shared);         \
            ent = nxt;                                                                                   \
        }                                                                                                \
    }                                                                                                    \
    SGST_FI void sgst_walk_##SUF(T *u, int pitch, int gc, int G, int M, const int *cls, const unsigned *task, \
                                 const unsigned *item, const sgst_rec *rec, const unsigned short *full,  \
                                 int l, int tid, int B, int inverse, T *gout, int gpitch, int keep_shared) \
    {                                                                                                    \
        const int *c = cls + l * (M + 2);                                                                \
        int first = SGST_LDG(c);                                                                         \
        /* written out class by class: a literal o makes mu a compile-time constant (SGST_MMAX = 5) */   \
        sgst_class_##SUF(0, u, pitch, gc, G, M, c, first, task, item, rec, full, tid, B, inverse, gout, gpitch, keep_shared); \
        if (M >= 1) sgst_class_##SUF(1, u, pitch, gc, G, M, c, first, task, item, rec, full, tid, B, inverse, gout, gpitch, keep_shared); \
        if (M >= 2) sgst_class_##SUF(2, u, pitch, gc, G, M, c, first, task, item, rec, full, tid, B, inverse, gout, gpitch, keep_shared); \
        if (M >= 3) sgst_class_##SUF(3, u, pitch, gc, G, M, c, first, task, item, rec, full, tid, B, inverse, gout, gpitch, keep_shared); \
        if (M >= 4) sgst_class_##SUF(4, u, pitch, gc, G, M, c, first, task, item, rec, full, tid, B, inverse, gout, gpitch, keep_shared); \
        if (M >= 5) sgst_class_##SUF(5, u, pitch, gc, G, M, c, first, task, item, rec, full, tid, B, inverse, gout, gpitch, keep_shared); \
    }

SGST_DEFINE(float, f, sg_surplus, sg_unsurplus)
SGST_DEFINE(double, d, sg_surplus_d, sg_unsurplus_d)

/* The walk of k_sparse_pipe (sparse_stream.cuh), the same tasks per thread as sgst_walk (so the
 * same bits) at a fraction of its cost per list.  sgst_walk pays per class and thread, whether
 * the thread has a task of the class or not, two loads of the class bounds, one entry load that
 * waits for them, and the modulo's integer division twice (about 50-65 instructions in the
 * SASS; M + 1 classes per list, up to 24 per grid: about half of the instructions ncu counted at
 * d = 4).  Here B = 2^bb, c points to the list's class bounds (cls + l (M + 2); the kernel keeps
 * them in shared memory, in the order it runs the lists), the bounds of every class and the
 * first entry (or item) of every class are loaded together (two round trips for the list
 * instead of three per class; sgst_prep2, which the kernel runs for the next list before the
 * barrier that ends this one), the thread's first task of class o is
 * lo + ((first + tid - lo) & (B - 1)), and a class without a task for the thread costs a compare.
 *
 * What a thread needs to start list c: per class its first task t (>= hi: none), the class's end
 * and the first entry (or item: e0, e1).  sgst_prep2 loads it; the kernel calls it for the next
 * list before the barrier that ends this one, so its loads wait there instead of at the start
 * of the list. */
typedef struct {
    int t[SGST_MMAX + 1], hi[SGST_MMAX + 1];
    unsigned e0[SGST_MMAX + 1], e1;
} sgst_next;
SGST_FI void sgst_prep2(sgst_next *n, int M, const int *c, const unsigned *task, const unsigned *item, int tid, int bb,
                        int compact)
{
    int cb[SGST_MMAX + 2];
    SGST_UNROLL for (int o = 0; o < SGST_MMAX + 2; o++) cb[o] = o <= M + 1 ? c[o] : 0; /* plain: shared on the device */
    n->e1 = 0u;
    SGST_UNROLL for (int o = 0; o <= SGST_MMAX; o++) {
        n->t[o] = cb[o] + ((cb[0] + tid - cb[o]) & ((1 << bb) - 1)); /* t = first + tid + i B, t >= lo */
        n->hi[o] = o <= M ? cb[o + 1] : 0;
        n->e0[o] = 0u;
        if (o <= M && n->t[o] < n->hi[o]) {
            if (o == M && compact) n->e0[o] = SGST_LDG(item + n->t[o]);
            else if (o == M) sgst_item_load(item, n->t[o], n->e0 + o, &n->e1);
            else n->e0[o] = SGST_LDG(task + n->t[o]);
        }
    }
}

#define SGST_DEFINE2(T, SUF)                                                                             \
    /* a top task of a pair plan: pole p at geo and, if pair, pole p + P/2 (sgst_pair_step) */           \
    SGST_FI void sgst_task2_##SUF(T *u, int pitch, int gc, int G, const sgst_geo *g, int MU, int inverse, \
                                  int pair, int sh, int seq)                                             \
    {                                                                                                    \
        sgst_geo geo = *g;                                                                               \
        T v[SGST_GMAX][2][SGST_PPTS];                                                                    \
        int np = (1 << MU) + 1, st[SGST_PAIRMU + 1];                                                     \
        SGST_UNROLL for (int lev = 0; lev <= SGST_PAIRMU; lev++) st[lev] = pair ? sgst_pair_step(sh, seq, lev) : 0; \
        SGST_UNROLL for (int gg = 0; gg < G; gg++)                                                       \
            if (gg < gc)                                                                                 \
                SGST_UNROLL for (int j = 0; j < np; j++) {                                               \
                    int a = gg * pitch + sgst_geo_addr(&geo, MU, j);                                     \
                    v[gg][0][j] = u[a];                                                                  \
                    if (pair) v[gg][1][j] = u[a + st[sgst_top_lev(MU, j)]];                              \
                }                                                                                        \
        SGST_UNROLL for (int gg = 0; gg < G; gg++)                                                       \
            if (gg < gc) {                                                                               \
                sgst_line_##SUF(v[gg][0], MU, inverse);                                                  \
                if (pair) sgst_line_##SUF(v[gg][1], MU, inverse);                                        \
            }                                                                                            \
        SGST_UNROLL for (int gg = 0; gg < G; gg++)                                                       \
            if (gg < gc)                                                                                 \
                SGST_UNROLL for (int j = 1; j < np - 1; j++) {                                           \
                    int a = gg * pitch + sgst_geo_addr(&geo, MU, j);                                     \
                    u[a] = v[gg][0][j];                                                                  \
                    if (pair) u[a + st[sgst_top_lev(MU, j)]] = v[gg][1][j];                              \
                }                                                                                        \
    }                                                                                                    \
    SGST_FI void sgst_class2_##SUF(int o, T *u, int pitch, int gc, int G, int M, int t, int hi, unsigned e0, \
                                   unsigned e1, int B, const unsigned *task, const unsigned *item,        \
                                   const sgst_rec *rec, const unsigned short *full, int inverse, int pairs, \
                                   int compact)                                                          \
    {                                                                                                    \
        int MU = sgst_class_mu(o, M), top = sgst_class_top(o), paired = pairs && top && MU <= SGST_PAIRMU; \
        sgst_geo geo;                                                                                    \
        if (o == M && compact) { /* 4-byte items: e0 = the first */                                      \
            unsigned a = e0, na = 0;                                                                     \
            for (; t < hi; t += B) {                                                                     \
                if (t + B < hi) na = SGST_LDG(item + (t + B)); /* one item ahead */                      \
                sgst_geo_item4(a, &geo);                                                                 \
                sgst_task_##SUF(u, pitch, gc, G, &geo, 1, 1, inverse, (T *)0, 0, 1);                     \
                a = na;                                                                                  \
            }                                                                                            \
            return;                                                                                      \
        }                                                                                                \
        if (o == M) { /* single items: e0, e1 = the first item */                                        \
            unsigned a = e0, b = e1, na = 0, nb = 0;                                                     \
            for (; t < hi; t += B) {                                                                     \
                if (t + B < hi) sgst_item_load(item, t + B, &na, &nb); /* one item ahead */              \
                sgst_geo_item(a, b, &geo);                                                               \
                if (paired)                                                                              \
                    sgst_task2_##SUF(u, pitch, gc, G, &geo, 1, inverse, (int)(b >> 22) & 1, (int)(b >> 16) & 31, \
                                     (int)(b >> 21) & 1);                                                \
                else                                                                                     \
                    sgst_task_##SUF(u, pitch, gc, G, &geo, 1, 1, inverse, (T *)0, 0, 1);                 \
                a = na;                                                                                  \
                b = nb;                                                                                  \
            }                                                                                            \
            return;                                                                                      \
        }                                                                                                \
        unsigned ent = e0; /* the first entry */                                                         \
        for (; t < hi; t += B) {                                                                         \
            unsigned nxt = t + B < hi ? SGST_LDG(task + t + B) : 0u; /* one entry ahead */               \
            sgst_rec r = sgst_rec_load(rec, ent);                                                        \
            sgst_task_geo(&r, full, ent, MU, top, &geo);                                                 \
            if (paired) {                                                                                \
                int pb = sgst_rec_pb(&r);                                                                \
                sgst_task2_##SUF(u, pitch, gc, G, &geo, MU, inverse, pb > 0, pb - 1, sgst_rec_sb(&r) == pb); \
            } else {                                                                                     \
                sgst_task_##SUF(u, pitch, gc, G, &geo, MU, top, inverse, (T *)0, 0, 1);                  \
            }                                                                                            \
            ent = nxt;                                                                                   \
        }                                                                                                \
    }                                                                                                    \
    SGST_FI void sgst_run2_##SUF(const sgst_next *n, T *u, int pitch, int gc, int G, int M, const unsigned *task, \
                                 const unsigned *item, const sgst_rec *rec, const unsigned short *full, int bb, \
                                 int inverse, int pairs, int compact)                                    \
    {                                                                                                    \
        int B = 1 << bb;                                                                                 \
        /* class by class with a literal o (a compile-time mu on the device) */                          \
        if (n->t[0] < n->hi[0]) sgst_class2_##SUF(0, u, pitch, gc, G, M, n->t[0], n->hi[0], n->e0[0], n->e1, B, task, item, rec, full, inverse, pairs, compact); \
        if (M >= 1 && n->t[1] < n->hi[1]) sgst_class2_##SUF(1, u, pitch, gc, G, M, n->t[1], n->hi[1], n->e0[1], n->e1, B, task, item, rec, full, inverse, pairs, compact); \
        if (M >= 2 && n->t[2] < n->hi[2]) sgst_class2_##SUF(2, u, pitch, gc, G, M, n->t[2], n->hi[2], n->e0[2], n->e1, B, task, item, rec, full, inverse, pairs, compact); \
        if (M >= 3 && n->t[3] < n->hi[3]) sgst_class2_##SUF(3, u, pitch, gc, G, M, n->t[3], n->hi[3], n->e0[3], n->e1, B, task, item, rec, full, inverse, pairs, compact); \
        if (M >= 4 && n->t[4] < n->hi[4]) sgst_class2_##SUF(4, u, pitch, gc, G, M, n->t[4], n->hi[4], n->e0[4], n->e1, B, task, item, rec, full, inverse, pairs, compact); \
        if (M >= 5 && n->t[5] < n->hi[5]) sgst_class2_##SUF(5, u, pitch, gc, G, M, n->t[5], n->hi[5], n->e0[5], n->e1, B, task, item, rec, full, inverse, pairs, compact); \
    }                                                                                                    \
    SGST_FI void sgst_walk2_##SUF(T *u, int pitch, int gc, int G, int M, const int *c, const unsigned *task, \
                                  const unsigned *item, const sgst_rec *rec, const unsigned short *full, \
                                  int tid, int bb, int inverse, int pairs, int compact)                  \
    {                                                                                                    \
        sgst_next n;                                                                                     \
        sgst_prep2(&n, M, c, task, item, tid, bb, compact);                                              \
        sgst_run2_##SUF(&n, u, pitch, gc, G, M, task, item, rec, full, bb, inverse, pairs, compact);     \
    }

SGST_DEFINE2(float, f)
SGST_DEFINE2(double, d)

#endif
