/* sparsegrid/sparse_fam.h -- k_sparse_fam's plan and index logic: sparse-grid (de)hierarchization
 * with the lanes of a warp over the poles of a family (thesis ch. 6, Algorithm 1 along poles;
 * the grid, its subspace order and the 1D transform: sparse.h, thesis section 2.3.2).  Plain C
 * with HD functions: the kernel (sparse_fam.cuh) calls exactly these functions, and
 * tests/host/test_sparsegrid_fam.c replays every task of a plan lane by lane with them.
 *
 * Why.  k_sparse_pipe (sparse_stream.cuh) gives each thread its own pole task and reads, per
 * task, a 4-byte task entry and a 16-byte family record (the single items of the level-1 poles:
 * a 4-byte item) from L1/L2: at d = 6 that is 26-31 thread instructions per update where the
 * update itself needs 6, and the table of d = 6 (88 KB) misses L1 when three blocks share an SM
 * (NOTES.md, "A reading of the d = 6 profiles").  Here a task is one warp's: the lanes take the
 * poles of one family, or of several families of the same shape when a family has fewer poles
 * than lanes, each lane R of them (see sgf_task).  A lane finds its family record and poles from
 * its lane number; the task (16 bytes, one load per warp) and the record (32 bytes: the byte
 * offsets of the family's subspaces) are loaded a task ahead; nothing is read per pole.  The plan
 * spreads each pass's tasks over the block's warps (sgf_balance).
 *
 * Poles and families (as sparse_stream.h).  For pass k, a family is a subspace with l_k = 0
 * together with the subspaces that differ from it only in l_k = 1..m (m = the largest level
 * kept).  Its P = 2^pb poles p = a + S c (a: the dimensions below k, S = 2^sb points; c: those
 * above) each hold the 2^m + 1 points of a full 1D grid of level m: pole position X = 0 .. 2^m
 * has level lev = m - ctz(X) (0 at X = 0, 2^m) and index w = X >> (ctz(X) + 1) inside its 1D
 * subspace (0, 1 on the boundary), stored at
 *     off[lev] + p + hi (np(lev) - 1) + S w,     hi = S c = p with its low sb bits cleared,
 * off[lev] the offset of the family's subspace with l_k = lev.  A lane holds its pole in
 * registers (2^m + 1 values, m <= SGF_MMAX = 5) and runs Algorithm 1 on it: hierarchizing finest
 * level first (c = u - (u_left + u_right) / 2), dehierarchizing coarsest first, with the same
 * sg_surplus()/sg_unsurplus() as the CPU on the same values, so the result is bitwise the CPU's.
 * Poles are disjoint and a pole's update reads only its own points, so the tasks of a pass are
 * independent: one barrier per pass.  The passes run k = 0 .. d-1 in both directions, as the CPU.
 *
 * Limits (the plan refuses otherwise): m <= 5 (the sweep's grids of d = 4, 5, 6; d = 2, 3 have
 * longer poles, which k_sparse_pipe cuts into tiers), grids of at most 65536 points (more than
 * one block's shared memory holds in either precision), at most 65536 family records (16 bits
 * of a task).
 *
 * Cost (the SASS of the float kernel, sm_90): a pole of level 1 is 14 instructions (3 LDS, 2 FP,
 * 1 STS, the rest its addresses and loop), one of level 3 about 60 for its 7 updates; but every
 * lane of a task also runs the walk (task and record loads, decoding, dispatch), about 45
 * instructions a task, so at d = 6 the kernel executes about as many instructions per point as
 * k_sparse_pipe, and lanes of different families conflict in shared memory.  Measured: better than
 * k_sparse_pipe at d = 5 in double only (NOTES.md, "k_sparse_fam"). */
#ifndef SPARSEGRID_SPARSE_FAM_H
#define SPARSEGRID_SPARSE_FAM_H

#include <stdlib.h>
#include "sparse.h"

#define SGF_MMAX 5                       /* pole levels a lane holds in registers */
#define SGF_PTS ((1 << SGF_MMAX) + 1)    /* values of a pole */
#define SGF_MAXPTS 65536                 /* points: no larger grid fits a block's shared memory */
#define SGF_LANES 32                     /* lanes of a task: one warp */
#define SGF_MAXW 32                      /* warps per block */
#define SGF_PAIRMU 2                     /* a lane runs poles of up to 2 levels two at a time */

#ifdef __CUDA_ARCH__
#define SGF_UNROLL _Pragma("unroll")
#else
#define SGF_UNROLL
#endif
#ifdef __CUDACC__
#define SGF_FI static __forceinline__ __host__ __device__
#else
#define SGF_FI static inline
#endif

/* A family record (32 bytes) for elements of E bytes: w[0..3] = o[0..3], w[4] = sE = E S,
 * w[5] = hmask = ~(sE - 1), w[6], w[7] = o[4], o[5]; o[lev] = E off[lev], the byte offset of the
 * family's subspace with l_k = lev. */
typedef struct {
    unsigned w[8];
} __attribute__((aligned(16))) sgf_rec;

/* A task (16 bytes): x = f0 | nl << 16 | m << 24, y = p0, z = pbc | R << 8, w = 0: lane i < nl
 * takes the R poles p0 + (i mod 2^pbc) + r 2^pbc (r = 0 .. R-1) of family f0 + i / 2^pbc, poles
 * of level m.  R > 1 spreads the work around a pole (the task and record loads, the decoding)
 * over R poles. */
typedef struct {
    unsigned x, y, z, w;
} __attribute__((aligned(16))) sgf_task;

typedef struct {
    int d, n, elem, W;       /* dimensions, level, element bytes and warps per block the plan is for */
    long long npts;
    int pass[SGS_MAXD + 1];  /* the tasks of pass k: [pass[k], pass[k + 1]) */
    int *wb;                 /* d (W + 1): warp w's tasks of pass k are [wb[k (W+1) + w], wb[k (W+1) + w + 1]) */
    int ntask, nrec;
    sgf_task *task;
    sgf_rec *rec;
    int rmax, lmin;          /* poles a lane takes from a task: R = min(rmax >> (m - 1), P / lmin), at least 1 */
    int pack;                /* small families grouped into tasks bank-aware (sgf_pack_class), 0: in storage order */
    long long items;         /* updates per grid (points with l_k >= 1, summed over k) */
    long long lanes, lane_poles; /* lane slots of all tasks (32 ntask) and those holding poles */
    long long poles_of[SGF_MMAX + 1]; /* poles of level m */
    double cost, cost_max;   /* the model's cost of all tasks, and the sum over passes of the busiest warp's */
} sgf_plan;

/* ------------------------------------------------------------------ HD index functions */

SGF_FI int sgf_task_nl(sgf_task t) { return (int)((t.x >> 16) & 63u); }
SGF_FI int sgf_task_m(sgf_task t) { return (int)((t.x >> 24) & 7u); }
SGF_FI int sgf_task_pbc(sgf_task t) { return (int)(t.z & 7u); }
SGF_FI int sgf_task_r(sgf_task t) { return (int)(t.z >> 8); }
/* The family record and first pole of lane i of task t (i < nl); its next poles follow 2^pbc apart. */
SGF_FI int sgf_lane_rec(sgf_task t, int i) { return (int)(t.x & 0xFFFFu) + (i >> sgf_task_pbc(t)); }
SGF_FI int sgf_lane_pole(sgf_task t, int i) { return (int)t.y + (i & ((1 << sgf_task_pbc(t)) - 1)); }

SGF_FI unsigned sgf_rec_o(const sgf_rec *r, int lev) { return r->w[lev < 4 ? lev : lev + 2]; }

/* Trailing zero bits of X = 1..63 as compile-time tests (folds to a constant for constant X). */
SGF_FI int sgf_ctz6(int X) { return X & 1 ? 0 : X & 2 ? 1 : X & 4 ? 2 : X & 8 ? 3 : X & 16 ? 4 : 5; }

/* Byte address of pole position X (0 .. 2^MU) of the pole at byte offset pE = E p, hiE = pE & hmask
 * (E hi): o[lev] + E (p + hi (np(lev) - 1) + S w), see the header. */
SGF_FI unsigned sgf_point(const unsigned *o, unsigned pE, unsigned hiE, unsigned sE, int MU, int X)
{
    int lev = 0, w = X != 0;
    if (X != 0 && X != (1 << MU)) {
        int z = sgf_ctz6(X);
        lev = MU - z;
        w = X >> (z + 1);
    }
    unsigned h = lev == 0 ? hiE : (hiE << (lev - 1)) - hiE; /* E hi (np(lev) - 1) */
    return o[lev] + pE + h + (unsigned)w * sE;
}

/* Element loads and stores at byte offset a from u (the kernel: u in shared memory). */
SGF_FI float sgf_ld_f(float *u, unsigned a) { return *(const float *)((const char *)u + a); }
SGF_FI double sgf_ld_d(double *u, unsigned a) { return *(const double *)((const char *)u + a); }
SGF_FI void sgf_st_f(float *u, unsigned a, float v) { *(float *)((char *)u + a) = v; }
SGF_FI void sgf_st_d(double *u, unsigned a, double v) { *(double *)((char *)u + a) = v; }

/* The 1D transform of thesis Algorithm 1 on NP poles (1 or 2: at pE and pE + dE) of level MU, in
 * registers: hierarchize (finest level first) or dehierarchize (coarsest first).  MU and NP are
 * constants where the kernel calls it, so the loops unroll and v[] lives in registers; the loads
 * of both poles come before the stores of either (two poles' latencies overlap). */
#define SGF_DEFINE(T, SUF, SURPLUS, UNSURPLUS)                                                        \
    SGF_FI void sgf_pole_##SUF(T *u, const unsigned *o, unsigned pE, unsigned dE, unsigned sE, unsigned hmask, \
                                int MU, int NP, int inverse)                                          \
    {                                                                                                 \
        unsigned a[2][SGF_PTS];                                                                       \
        T v[2][SGF_PTS];                                                                              \
        SGF_UNROLL for (int q = 0; q < NP; q++) {                                                     \
            unsigned qE = pE + (unsigned)q * dE, hiE = qE & hmask;                                    \
            SGF_UNROLL for (int X = 0; X <= (1 << MU); X++) {                                         \
                a[q][X] = sgf_point(o, qE, hiE, sE, MU, X);                                           \
                v[q][X] = sgf_ld_##SUF(u, a[q][X]);                                                   \
            }                                                                                         \
        }                                                                                             \
        SGF_UNROLL for (int q = 0; q < NP; q++) {                                                     \
            if (!inverse) {                                                                           \
                SGF_UNROLL for (int z = 0; z < MU; z++)                                               \
                    SGF_UNROLL for (int X = 1 << z; X < (1 << MU); X += 2 << z)                       \
                        v[q][X] = SURPLUS(v[q][X], v[q][X - (1 << z)], v[q][X + (1 << z)]);           \
            } else {                                                                                  \
                SGF_UNROLL for (int z = MU - 1; z >= 0; z--)                                          \
                    SGF_UNROLL for (int X = 1 << z; X < (1 << MU); X += 2 << z)                       \
                        v[q][X] = UNSURPLUS(v[q][X], v[q][X - (1 << z)], v[q][X + (1 << z)]);         \
            }                                                                                         \
        }                                                                                             \
        SGF_UNROLL for (int q = 0; q < NP; q++)                                                       \
            SGF_UNROLL for (int X = 1; X < (1 << MU); X++) sgf_st_##SUF(u, a[q][X], v[q][X]);         \
    }
SGF_DEFINE(float, f, sg_surplus, sg_unsurplus)
SGF_DEFINE(double, d, sg_surplus_d, sg_unsurplus_d)
#undef SGF_DEFINE

/* ------------------------------------------------------------------------- the plan (host) */

static inline void sgf_plan_free(sgf_plan *p)
{
    free(p->task);
    free(p->rec);
    free(p->wb);
    memset(p, 0, sizeof *p);
}

/* One family of pass k: subspace s (l_k = 0), pole level m, sb, pb, and off[0..m]. */
typedef struct {
    int s, m, sb, pb;
    int off[SGF_MMAX + 1];
} sgf_family;

/* Families of a pass in task order: largest poles first, then most poles, then storage order. */
static int sgf_family_cmp(const void *x, const void *y)
{
    const sgf_family *a = (const sgf_family *)x, *b = (const sgf_family *)y;
    if (a->m != b->m) return b->m - a->m;
    if (a->pb != b->pb) return b->pb - a->pb;
    return a->s - b->s;
}

/* Poles a lane takes from one task of poles of level m in families of 2^pb poles: up to rmax of
 * level 1, rmax / 2 of level 2, ..., as long as at least lmin lanes share a family (the lanes of a
 * family read neighbouring words: fewer bank conflicts than lanes of different families). */
static inline int sgf_poles_per_lane(int rmax, int lmin, int m, int pb)
{
    int r = rmax >> (m - 1);
    if (r < 1) r = 1;
    while (r > 1 && r * lmin > (1 << pb)) r >>= 1;
    return r;
}

/* A task's cost for spreading a pass over the warps, in rough thread instructions of one lane: the
 * walk, then R poles of level m (addresses, 2^m + 1 loads, the transform, 2^m - 1 stores).  These
 * are the estimates the plan was built with; the SASS read afterwards (float, sm_90) gives about
 * 45 for the walk, 14 for a pole of level 1 and 60 for one of level 3 (NOTES.md): only the
 * ratios matter here. */
#define SGF_TASK_COST 25
static inline double sgf_task_cost(int m, int R)
{
    static const int POLE[SGF_MMAX + 1] = {0, 13, 25, 44, 85, 170};
    return SGF_TASK_COST + (double)R * POLE[m];
}

/* Orders the tasks [lo, hi) of one pass for W warps: each task, in the order given (the families'
 * order: longest poles first), to the warp with the least cost so far -- a greedy balance close to
 * longest-processing-time-first, not exactly it, since R makes a task of short poles cost as much as
 * one of longer poles -- then grouped by warp, each warp's in that order; wb[0..W] = the warps'
 * bounds.  Returns the busiest warp's cost, or -1 (no memory). */
static inline double sgf_balance(sgf_task *task, int lo, int hi, int W, int *wb)
{
    int n = hi - lo;
    double *load = (double *)calloc((size_t)W, sizeof(double)), worst = 0;
    int *owner = (int *)malloc(sizeof(int) * (size_t)(n + 1)), *cnt = (int *)calloc((size_t)W + 1, sizeof(int));
    sgf_task *tmp = (sgf_task *)malloc(sizeof(sgf_task) * (size_t)(n + 1));
    if (!load || !owner || !cnt || !tmp) { free(load); free(owner); free(cnt); free(tmp); return -1; }
    for (int i = 0; i < n; i++) {
        const sgf_task *t = task + lo + i;
        int best = 0;
        for (int w = 1; w < W; w++)
            if (load[w] < load[best]) best = w;
        load[best] += sgf_task_cost(sgf_task_m(*t), sgf_task_r(*t));
        owner[i] = best;
        cnt[best + 1]++;
    }
    for (int w = 0; w < W; w++) {
        cnt[w + 1] += cnt[w];
        if (load[w] > worst) worst = load[w];
    }
    for (int w = 0; w <= W; w++) wb[w] = lo + cnt[w];
    for (int i = 0; i < n; i++) tmp[cnt[owner[i]]++] = task[lo + i];
    memcpy(task + lo, tmp, sizeof(sgf_task) * (size_t)n);
    free(load); free(owner); free(cnt); free(tmp);
    return worst;
}

/* Bank-aware grouping of the n families fam[0..n) of one class (pole level m, 2^pbc lanes a family,
 * R poles a lane, 32 / 2^pbc families a task; any grouping gives the same bits): the tasks take the
 * families in the order returned, 32 / 2^pbc at a time, so the order is built group by group,
 * each slot getting, among the next SGF_PACK_LOOK unplaced families, the one that raises the
 * fewest of the group's warp accesses to a larger bank maximum (sgf_wavefronts' rule: 32 banks of
 * 4 bytes, or 16 banks of 8 bytes per half warp).  Returns -1 when out of memory. */
#define SGF_PACK_LOOK 64
static inline int sgf_pack_class(sgf_family *fam, int n, int m, int pbc, int R, int elem)
{
    int L = 1 << pbc, per = SGF_LANES / L, ni = R * ((1 << m) + 1), nb = elem == 8 ? 16 : 32;
    if (per < 2 || n < 3) return 0;
    unsigned *word = (unsigned *)malloc(sizeof(unsigned) * (size_t)n * (size_t)ni * (size_t)L);
    int *cnt = (int *)malloc(sizeof(int) * (size_t)ni * 2 * (size_t)nb), *mx = (int *)malloc(sizeof(int) * (size_t)ni * 2);
    char *used = (char *)calloc((size_t)n, 1);
    sgf_family *out = (sgf_family *)malloc(sizeof(sgf_family) * (size_t)n);
    if (!word || !cnt || !mx || !used || !out) { free(word); free(cnt); free(mx); free(used); free(out); return -1; }
    for (int h = 0; h < n; h++) { /* the words family h's lanes j touch in access k = r (2^m + 1) + X */
        unsigned o[SGF_MMAX + 1] = {0}, sE = (unsigned)elem << fam[h].sb, hm = ~(sE - 1u);
        for (int lev = 0; lev <= m; lev++) o[lev] = (unsigned)(elem * fam[h].off[lev]);
        for (int r = 0; r < R; r++)
            for (int X = 0; X <= (1 << m); X++)
                for (int j = 0; j < L; j++) {
                    unsigned pE = (unsigned)(elem * (j + r * L));
                    word[((size_t)h * ni + r * ((1 << m) + 1) + X) * L + j] = sgf_point(o, pE, pE & hm, sE, m, X) / (unsigned)elem;
                }
    }
    int scan = 0;
    for (int pos = 0; pos < n; pos++) {
        int slot = pos % per;
        if (slot == 0) { memset(cnt, 0, sizeof(int) * (size_t)ni * 2 * (size_t)nb); memset(mx, 0, sizeof(int) * (size_t)ni * 2); }
        while (used[scan]) scan++;
        int best = -1, bestc = 1 << 30;
        for (int h = scan, seen = 0; h < n && seen < SGF_PACK_LOOK; h++) {
            if (used[h]) continue;
            seen++;
            int cost = 0;
            for (int k = 0; k < ni; k++)
                for (int j = 0; j < L; j++) {
                    int lane = slot * L + j, half = elem == 8 ? lane / 16 : 0;
                    unsigned w = word[((size_t)h * ni + k) * L + j];
                    /* a lane of the same family in the same bank counts once more as well */
                    int c = cnt[(k * 2 + half) * nb + (int)(w % (unsigned)nb)] + 1;
                    for (int q = 0; q < j; q++)
                        if ((elem == 8 ? (slot * L + q) / 16 : 0) == half && word[((size_t)h * ni + k) * L + q] % (unsigned)nb == w % (unsigned)nb) c++;
                    cost += c > mx[k * 2 + half];
                }
            if (cost < bestc) { bestc = cost; best = h; }
            if (!cost) break;
        }
        used[best] = 1;
        out[pos] = fam[best];
        for (int k = 0; k < ni; k++)
            for (int j = 0; j < L; j++) {
                int lane = slot * L + j, half = elem == 8 ? lane / 16 : 0;
                int *c = cnt + (k * 2 + half) * nb + (int)(word[((size_t)best * ni + k) * L + j] % (unsigned)nb);
                if (++*c > mx[k * 2 + half]) mx[k * 2 + half] = *c;
            }
    }
    memcpy(fam, out, sizeof(sgf_family) * (size_t)n);
    free(word); free(cnt); free(mx); free(used); free(out);
    return 0;
}

/* The plan of grid g (sparse.h: sparse, or full in subspace order) for elements of elem bytes (4,
 * 8) and blocks of W warps, a lane taking up to rmax poles of level 1 from a task (rmax / 2 of
 * level 2, ...; a power of two, 1..16) while at least lmin lanes share a family (1..32, a power of
 * two; sgf_poles_per_lane), the families that share tasks grouped bank-aware when pack is set
 * (sgf_pack_class).  Returns 0, or -1 with a message in err (poles longer than SGF_MMAX levels,
 * more than SGF_MAXPTS points, an option out of range, out of memory). */
static inline int sgf_plan_build(sgf_plan *p, const sgs_grid *g, int rmax, int lmin, int elem, int W, int pack, char *err,
                                 size_t errsz)
{
    memset(p, 0, sizeof *p);
    if (rmax < 1 || rmax > 16 || (rmax & (rmax - 1))) { snprintf(err, errsz, "%d poles per lane (1, 2, 4, 8 or 16)", rmax); return -1; }
    if (lmin < 1 || lmin > 32 || (lmin & (lmin - 1))) { snprintf(err, errsz, "%d lanes per family (1, 2, 4, 8, 16 or 32)", lmin); return -1; }
    if (elem != 4 && elem != 8) { snprintf(err, errsz, "element size %d (4 or 8)", elem); return -1; }
    if (W < 1 || W > SGF_MAXW) { snprintf(err, errsz, "%d warps per block (1 to %d)", W, SGF_MAXW); return -1; }
    if (g->npts > SGF_MAXPTS) {
        snprintf(err, errsz, "%lld points: more than a block's shared memory holds (at most %d are planned)", g->npts, SGF_MAXPTS);
        return -1;
    }
    int d = g->d;
    p->d = d;
    p->n = g->n;
    p->elem = elem;
    p->W = W;
    p->npts = g->npts;
    p->rmax = rmax;
    p->lmin = lmin;
    p->pack = pack;
    /* at most nsub families a pass; tasks: at most one per family plus one per 32 poles */
    sgf_family *fam = (sgf_family *)malloc(sizeof(sgf_family) * (size_t)(g->nsub + 1));
    p->rec = (sgf_rec *)calloc((size_t)d * (size_t)g->nsub + 1, sizeof(sgf_rec));
    p->task = (sgf_task *)calloc((size_t)d * ((size_t)g->nsub + (size_t)(g->npts / SGF_LANES)) + 1, sizeof(sgf_task));
    p->wb = (int *)calloc((size_t)d * (size_t)(W + 1), sizeof(int));
    if (!fam || !p->rec || !p->task || !p->wb) goto oom;
    for (int k = 0; k < d; k++) {
        int nf = 0;
        for (int s = 0; s < g->nsub; s++) {
            const int *ls = g->lev + (long long)s * d;
            if (ls[k] != 0) continue;
            int l[SGS_MAXD], m = 0;
            memcpy(l, ls, sizeof(int) * d);
            for (l[k] = 1; sgs_subspace(g, l) >= 0; l[k]++) m++;
            if (m == 0) continue; /* only the boundary along k: nothing to do */
            if (m > SGF_MMAX) {
                free(fam);
                sgf_plan_free(p);
                snprintf(err, errsz, "poles of level %d along dimension %d: a lane holds at most %d levels", m, k, SGF_MMAX);
                return -1;
            }
            sgf_family *f = fam + nf++;
            f->s = s;
            f->m = m;
            f->sb = f->pb = 0;
            for (int j = 0; j < d; j++) {
                if (j < k) f->sb += sgs_lbits(ls[j]);
                if (j != k) f->pb += sgs_lbits(ls[j]);
            }
            for (l[k] = 0; l[k] <= m; l[k]++) f->off[l[k]] = (int)g->off[sgs_subspace(g, l)];
        }
        qsort(fam, (size_t)nf, sizeof *fam, sgf_family_cmp);
        for (int i = 0, j; pack && i < nf; i = j) { /* each class (m, pb) of families that share tasks */
            for (j = i; j < nf && fam[j].m == fam[i].m && fam[j].pb == fam[i].pb; j++) {}
            int R = sgf_poles_per_lane(rmax, lmin, fam[i].m, fam[i].pb), rb = 0;
            while ((1 << rb) < R) rb++;
            if (fam[i].pb - rb < 5 && sgf_pack_class(fam + i, j - i, fam[i].m, fam[i].pb - rb, R, elem)) goto oom;
        }
        p->pass[k] = p->ntask;
        for (int i = 0; i < nf;) {
            const sgf_family *f = fam + i;
            int R = sgf_poles_per_lane(rmax, lmin, f->m, f->pb), rb = 0;
            while ((1 << rb) < R) rb++;
            int pbc = f->pb - rb < 5 ? f->pb - rb : 5, per = SGF_LANES >> pbc, cnt = 0; /* lanes a family, families a task */
            while (cnt < per && i + cnt < nf && fam[i + cnt].m == f->m && fam[i + cnt].pb == f->pb) cnt++;
            int r0 = p->nrec;
            if (r0 + cnt > 65536) { snprintf(err, errsz, "more than 65536 family records"); goto fail; }
            for (int c = 0; c < cnt; c++) {
                const sgf_family *h = fam + i + c;
                sgf_rec *rc = p->rec + p->nrec++;
                for (int lev = 0; lev <= h->m; lev++) rc->w[lev < 4 ? lev : lev + 2] = (unsigned)(elem * h->off[lev]);
                rc->w[4] = (unsigned)elem << h->sb;
                rc->w[5] = ~(rc->w[4] - 1u);
                p->items += (long long)(1 << h->pb) * ((1 << h->m) - 1);
                p->poles_of[h->m] += 1LL << h->pb;
            }
            for (long long p0 = 0; p0 < (1LL << f->pb); p0 += (long long)R << pbc) {
                sgf_task *t = p->task + p->ntask++;
                t->x = (unsigned)r0 | (unsigned)(cnt << pbc) << 16 | (unsigned)f->m << 24;
                t->y = (unsigned)p0;
                t->z = (unsigned)pbc | (unsigned)R << 8;
                p->lane_poles += cnt << pbc;
                p->cost += sgf_task_cost(f->m, R);
            }
            i += cnt;
        }
        double worst = sgf_balance(p->task, p->pass[k], p->ntask, W, p->wb + k * (W + 1));
        if (worst < 0) goto oom;
        p->cost_max += worst;
    }
    p->pass[d] = p->ntask;
    p->lanes = (long long)SGF_LANES * p->ntask;
    free(fam);
    return 0;
oom:
    snprintf(err, errsz, "out of host memory");
fail:
    free(fam);
    sgf_plan_free(p);
    return -1;
}

/* The shared-memory wavefronts of one warp access at the byte addresses a[0..31] (lanes with
 * on[i] = 0 access nothing) for elements of elem bytes: 4 bytes, the most distinct words one of the
 * 32 banks holds; 8 bytes, the same over each half warp with 16 banks of 8 bytes, summed. */
static inline int sgf_wavefronts(const unsigned *a, const int *on, int elem)
{
    int total = 0, halves = elem == 8 ? 2 : 1, nb = elem == 8 ? 16 : 32, lanes = SGF_LANES / halves;
    for (int h = 0; h < halves; h++) {
        int worst = 0;
        for (int b = 0; b < nb; b++) {
            unsigned words[SGF_LANES];
            int nw = 0;
            for (int i = h * lanes; i < (h + 1) * lanes; i++) {
                if (!on[i] || (int)((a[i] / (unsigned)elem) % (unsigned)nb) != b) continue;
                int seen = 0;
                for (int j = 0; j < nw; j++) seen |= words[j] == a[i] / (unsigned)elem;
                if (!seen) words[nw++] = a[i] / (unsigned)elem;
            }
            if (nw > worst) worst = nw;
        }
        total += worst;
    }
    return total;
}

/* The model of the kernel's shared-memory traffic: the wavefronts of every warp load and store
 * of one grid (the lanes of a task run their R poles in step: one warp instruction per pole
 * r and pole position X), as the GPU counts them when no other access interferes. */
static inline void sgf_plan_wavefronts(const sgf_plan *p, double *loads, double *stores)
{
    *loads = *stores = 0;
    for (int t = 0; t < p->ntask; t++) {
        sgf_task tk = p->task[t];
        int m = sgf_task_m(tk), nl = sgf_task_nl(tk), on[SGF_LANES];
        unsigned a[SGF_LANES];
        for (int r = 0; r < sgf_task_r(tk); r++)
            for (int X = 0; X <= (1 << m); X++) {
                for (int i = 0; i < SGF_LANES; i++) {
                    on[i] = i < nl;
                    a[i] = 0;
                    if (!on[i]) continue;
                    const sgf_rec *rc = p->rec + sgf_lane_rec(tk, i);
                    unsigned o[SGF_MMAX + 1], pE = (unsigned)(p->elem * (sgf_lane_pole(tk, i) + (r << sgf_task_pbc(tk))));
                    for (int lev = 0; lev <= SGF_MMAX; lev++) o[lev] = sgf_rec_o(rc, lev);
                    a[i] = sgf_point(o, pE, pE & rc->w[5], rc->w[4], m, X);
                }
                int w = sgf_wavefronts(a, on, p->elem);
                *loads += w;
                if (X > 0 && X < (1 << m)) *stores += w;
            }
    }
}

/* ------------------------------------------------------------- the sweep's configurations */

/* One k_sparse_fam configuration of the sweep (exp_sparse.cuh): threads per block, bulk-copy
 * buffers, and the plan's rmax, lmin and pack (sgf_plan_build). */
typedef struct { int threads, nbuf, rmax, lmin, pack; } sgf_cfg;
#define SGF_CFG_MAX 8 /* configurations one sweep runs at most */

/* Parses "T:B:R:L:P[,T:B:R:L:P ...]" (the option --fam-plans) into cfg: T threads per block (a
 * multiple of 32, 32..1024), B buffers (1, 2), R = rmax (1, 2, 4, 8, 16), L = lmin (1, 2, 4, 8,
 * 16, 32), P = pack (0, 1).  Returns the count (1..max), or -1 with a message in err: an empty
 * or malformed entry, a field out of range, more than max entries.  Whether a configuration
 * fits a grid (shared memory, pole levels) is decided later, per grid, by sgf_gpu_setup. */
static inline int sgf_cfg_parse(const char *s, sgf_cfg *cfg, int max, char *err, size_t errsz)
{
    static const int lo[5] = {32, 1, 1, 1, 0}, hi[5] = {1024, 2, 16, 32, 1};
    static const char *name[5] = {"threads", "buffers", "rmax", "lmin", "pack"};
    int n = 0;
    const char *q = s;
    for (;;) {
        int v[5];
        for (int f = 0; f < 5; f++) {
            char *end;
            if (*q < '0' || *q > '9') {
                snprintf(err, errsz, "entry %d: expected T:B:R:L:P (five numbers), got '%.40s'", n + 1, q);
                return -1;
            }
            long x = strtol(q, &end, 10);
            if (x < lo[f] || x > hi[f]) {
                snprintf(err, errsz, "entry %d: %s %.*s out of range (%d to %d)", n + 1, name[f], (int)(end - q), q, lo[f], hi[f]);
                return -1;
            }
            v[f] = (int)x;
            q = end;
            if (f < 4 && *q++ != ':') {
                snprintf(err, errsz, "entry %d: expected T:B:R:L:P (five numbers separated by ':')", n + 1);
                return -1;
            }
        }
        if (v[0] % 32) { snprintf(err, errsz, "entry %d: %d threads is not a multiple of 32", n + 1, v[0]); return -1; }
        if (v[2] & (v[2] - 1)) { snprintf(err, errsz, "entry %d: rmax %d is not a power of two", n + 1, v[2]); return -1; }
        if (v[3] & (v[3] - 1)) { snprintf(err, errsz, "entry %d: lmin %d is not a power of two", n + 1, v[3]); return -1; }
        if (n == max) { snprintf(err, errsz, "more than %d configurations", max); return -1; }
        cfg[n].threads = v[0];
        cfg[n].nbuf = v[1];
        cfg[n].rmax = v[2];
        cfg[n].lmin = v[3];
        cfg[n].pack = v[4];
        n++;
        if (*q == 0) return n;
        if (*q++ != ',') { snprintf(err, errsz, "entry %d: expected ',' or the end after T:B:R:L:P", n); return -1; }
    }
}

/* One grid u hierarchized (or dehierarchized) by the plan's tasks, lane by lane, in the order
 * given: the kernel's work without the threads (the host test's replay). */
#define SGF_REPLAY(T, SUF)                                                                            \
    static inline void sgf_replay_##SUF(T *u, const sgf_plan *p, int inverse)                        \
    {                                                                                                 \
        for (int t = 0; t < p->ntask; t++) {                                                          \
            sgf_task tk = p->task[t];                                                                 \
            for (int i = 0; i < sgf_task_nl(tk); i++) {                                               \
                const sgf_rec *r = p->rec + sgf_lane_rec(tk, i);                                      \
                unsigned o[SGF_MMAX + 1];                                                             \
                for (int lev = 0; lev <= SGF_MMAX; lev++) o[lev] = sgf_rec_o(r, lev);                 \
                for (int q = 0, np; q < sgf_task_r(tk); q += np) { /* as the kernel: pairs, then one */ \
                    np = sgf_task_m(tk) <= SGF_PAIRMU && sgf_task_r(tk) - q >= 2 ? 2 : 1;             \
                    sgf_pole_##SUF(u, o, (unsigned)(p->elem * (sgf_lane_pole(tk, i) + (q << sgf_task_pbc(tk)))), \
                                   (unsigned)p->elem << sgf_task_pbc(tk), r->w[4], r->w[5], sgf_task_m(tk), np, inverse); \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
    }
SGF_REPLAY(float, f)
SGF_REPLAY(double, d)
#undef SGF_REPLAY

#endif
