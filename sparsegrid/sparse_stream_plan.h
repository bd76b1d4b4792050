/* sparsegrid/sparse_stream_plan.h -- k_sparse_stream's plan on the host (families, tier lists,
 * records, bank-aware order) and a host replay of a block (thesis ch. 6, Algorithm 1 by poles).
 * Plain C.  The model and the index functions the kernel calls (families, poles, tiers, lists,
 * the per-thread walk) are in sparse_stream.h, the kernels in sparse_stream.cuh; the tests
 * (tests/host/test_sparsegrid_stream.c) build plans and replay blocks with this file. */
#ifndef SPARSEGRID_SPARSE_STREAM_PLAN_H
#define SPARSEGRID_SPARSE_STREAM_PLAN_H

#include "sparse_stream.h"

/* ------------------------------------------------------------------------- the plan (host) */

static inline void sgst_plan_free(sgst_plan *p)
{
    free(p->step);
    free(p->cls);
    free(p->task);
    free(p->item);
    free(p->rec);
    free(p->full);
    memset(p, 0, sizeof *p);
}


/* One family of pass k: the subspace s (l_k = 0), its pole level m, sb, pb and where its
 * offsets off[0..m] start in full[]. */
typedef struct {
    int s, m, sb, pb, fi;
} sgst_family;

/* Growable arrays of the builder. */
static inline int sgst_grow(void **a, int *cap, int need, size_t elem)
{
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 256;
    while (c < need) c *= 2;
    void *b = realloc(*a, elem * (size_t)c);
    if (!b) return -1;
    *a = b;
    *cap = c;
    return 0;
}

/* The shared-memory offsets task ent of class o reads, in the kernel's order (pole 0, then pole 1
 * of a pair task); returns their number (2^mu + 1, or twice that for a pair). */
static inline int sgst_task_reads(const sgst_plan *p, int o, unsigned ent, int *addr)
{
    sgst_rec r = p->rec[ent >> 16];
    int mu = sgst_class_mu(o, p->M), top = sgst_class_top(o), np = (1 << mu) + 1, pb = sgst_rec_pb(&r);
    sgst_task_addr(&r, p->full, ent, mu, top, addr);
    if (!(p->pairs && top && mu <= SGST_PAIRMU && pb > 0)) return np;
    for (int j = 0; j < np; j++) addr[np + j] = addr[j] + sgst_pair_step(pb - 1, sgst_rec_sb(&r) == pb, sgst_top_lev(mu, j));
    return 2 * np;
}

/* Bank-aware order of the tasks [lo, hi) of class o of the list starting at first (any order of
 * a list's tasks gives the same bits).  The lanes of a warp take 32 consecutive tasks of the list,
 * counted from first (B a multiple of 32); each of their shared-memory accesses costs as many
 * wavefronts as the most distinct words one bank holds (4-byte elements: 32 banks over the
 * warp; 8-byte: 16 banks of 8 bytes over each half warp).  Greedy, slot by slot: among the next
 * SGST_PACK_LOOK unplaced tasks (in the family order of the list) the one that raises the
 * group's per-access maximum the fewest times.  Returns -1 when out of memory. */
#define SGST_PACK_LOOK 64
static inline int sgst_pack(sgst_plan *p, int first, int lo, int hi, int o, int elem)
{
    int n = hi - lo, L = elem == 8 ? 16 : 32, nb = elem == 8 ? 16 : 32, na = 2 * ((1 << sgst_class_mu(o, p->M)) + 1);
    if (n < 2) return 0;
    unsigned *src = (unsigned *)malloc(sizeof(unsigned) * (size_t)n);
    int *addr = (int *)malloc(sizeof(int) * (size_t)n * (size_t)na), *cnt = (int *)malloc(sizeof(int) * (size_t)(na * nb));
    int *mx = (int *)malloc(sizeof(int) * (size_t)na), *nacc = (int *)malloc(sizeof(int) * (size_t)n);
    char *used = (char *)calloc((size_t)n, 1);
    if (!src || !addr || !cnt || !mx || !nacc || !used) { free(src); free(addr); free(cnt); free(mx); free(nacc); free(used); return -1; }
    memcpy(src, p->task + lo, sizeof(unsigned) * (size_t)n);
    for (int i = 0; i < n; i++) nacc[i] = sgst_task_reads(p, o, src[i], addr + (size_t)i * na);
    int scan = 0; /* the first unplaced task */
    for (int pos = lo; pos < hi; pos++) {
        if (pos == lo || (pos - first) % L == 0) { /* a new group of lanes */
            memset(cnt, 0, sizeof(int) * (size_t)(na * nb));
            memset(mx, 0, sizeof(int) * (size_t)na);
        }
        while (used[scan]) scan++;
        int best = -1, bestc = 1 << 30;
        for (int i = scan, seen = 0; i < n && seen < SGST_PACK_LOOK; i++) {
            if (used[i]) continue;
            seen++;
            int cost = 0;
            const int *a = addr + (size_t)i * na;
            for (int x = 0; x < nacc[i]; x++) cost += cnt[x * nb + a[x] % nb] + 1 > mx[x];
            if (cost < bestc) { bestc = cost; best = i; }
            if (!cost) break;
        }
        used[best] = 1;
        p->task[pos] = src[best];
        const int *a = addr + (size_t)best * na;
        for (int x = 0; x < nacc[best]; x++) {
            int *cc = cnt + x * nb + a[x] % nb;
            if (++*cc > mx[x]) mx[x] = *cc;
        }
    }
    free(src); free(addr); free(cnt); free(mx); free(nacc); free(used);
    return 0;
}

/* The plan of grid g (sparse or full, sparse.h) for tasks of at most M pole levels (1..SGST_MMAX),
 * with pole pairs or not (k_sparse_pipe: sgst_pair_step), its tasks in a bank-aware order for
 * elements of elem bytes (4, 8; 0: in family order, sgst_pack).  Returns 0, or -1 with a message
 * in err. */
static inline int sgst_plan_build2(sgst_plan *p, const sgs_grid *g, int M, int pairs, int elem, char *err, size_t errsz)
{
    memset(p, 0, sizeof *p);
    p->pairs = pairs;
    p->packed = elem;
    p->compact = elem && !pairs && g->npts <= 16384;
    if (M < 1 || M > SGST_MMAX) { snprintf(err, errsz, "M = %d: 1 to %d pole levels per task", M, SGST_MMAX); return -1; }
    if (g->npts > SGST_MAXPTS) { snprintf(err, errsz, "%lld points: the 16-bit offsets reach %d", g->npts, SGST_MAXPTS); return -1; }
    int d = g->d, n = g->n;
    p->d = d;
    p->n = n;
    p->M = M;
    p->npts = g->npts;
    p->last_covers = 1;
    int cap_task = 0, cap_rec = 0, cap_full = 0, cap_cls = 0, ntask = 0;
    sgst_family *fam = (sgst_family *)malloc(sizeof(sgst_family) * (size_t)(g->nsub + 1));
    unsigned *tmp = NULL; /* the tasks of one list before sorting by class */
    int cap_tmp = 0;
    if (!fam) goto oom;
    for (int k = 0; k < d; k++) {
        /* the families of pass k */
        int nf = 0, mmax = 0;
        for (int s = 0; s < g->nsub; s++) {
            const int *ls = g->lev + (long long)s * d;
            if (ls[k] != 0) continue;
            int l[SGS_MAXD], m = 0;
            memcpy(l, ls, sizeof(int) * d);
            for (l[k] = 1; sgs_subspace(g, l) >= 0; l[k]++) m++;
            if (m == 0) { /* only the boundary along k: nothing to do, but pass d-1 misses it */
                if (k == d - 1) p->last_covers = 0;
                continue;
            }
            sgst_family *f = fam + nf++;
            f->s = s;
            f->m = m;
            f->sb = 0;
            f->pb = 0;
            for (int j = 0; j < d; j++) {
                if (j < k) f->sb += sgs_lbits(ls[j]);
                if (j != k) f->pb += sgs_lbits(ls[j]);
            }
            f->fi = p->nfull;
            if (sgst_grow((void **)&p->full, &cap_full, p->nfull + m + 1, sizeof(unsigned short))) goto oom;
            for (l[k] = 0; l[k] <= m; l[k]++) p->full[p->nfull++] = (unsigned short)g->off[sgs_subspace(g, l)];
            if (m > mmax) mmax = m;
        }
        if (p->nlist + (mmax + M - 1) / M > 255) { snprintf(err, errsz, "more than 255 lists"); goto fail; }
        if (p->nfull >= (1 << 17)) { snprintf(err, errsz, "too many family offsets (%d) for the 17-bit index", p->nfull); goto fail; }
        p->tiers[k] = (mmax + M - 1) / M;
        p->list0[k] = p->nlist;
        for (int r = 0; r < p->tiers[k]; r++) {
            int e = r * M, l = p->nlist++, nt = 0;
            if (sgst_grow((void **)&p->cls, &cap_cls, p->nlist * (M + 2), sizeof(int))) goto oom;
            for (int i = 0; i < nf; i++) {
                const sgst_family *f = fam + i;
                if (f->m <= e) continue;
                int ltop = f->m - e, mu = ltop < M ? ltop : M, top = ltop <= M;
                int two = pairs && top && mu <= SGST_PAIRMU && f->pb > 0; /* tasks of two poles */
                long long nq = ((1LL << f->pb) << (ltop - mu)) >> two;
                if (p->nrec >= 65536 || nq > 65536) { snprintf(err, errsz, "a task entry overflows 16 bits"); goto fail; }
                int ri = p->nrec++;
                if (sgst_grow((void **)&p->rec, &cap_rec, p->nrec, sizeof(sgst_rec))) goto oom;
                sgst_rec *rc = p->rec + ri;
                unsigned short sl[6] = {0, 0, 0, 0, 0, 0};
                for (int s = 0; s <= mu; s++) sl[s] = top ? p->full[f->fi + s] : s ? p->full[f->fi + ltop - M + s] : p->full[f->fi];
                rc->w[0] = (unsigned)f->sb | (unsigned)f->pb << 5 | (unsigned)ltop << 10 | (unsigned)f->fi << 15;
                rc->w[1] = sl[0] | (unsigned)sl[1] << 16;
                rc->w[2] = sl[2] | (unsigned)sl[3] << 16;
                rc->w[3] = sl[4] | (unsigned)sl[5] << 16;
                int o = top ? M + 1 - mu : 0;
                if (sgst_grow((void **)&tmp, &cap_tmp, nt + (int)nq, sizeof(unsigned))) goto oom;
                for (long long q = 0; q < nq; q++) tmp[nt++] = (unsigned)ri << 16 | (unsigned)q;
                p->items += (nq << two) * ((1 << mu) - 1);
                p->tasks_of[o] += nq;
            }
            /* sort by class (stable): class o of entry = class of its record */
            if (sgst_grow((void **)&p->task, &cap_task, ntask + nt, sizeof(unsigned))) goto oom;
            int *c = p->cls + l * (M + 2);
            for (int o = 0; o <= M; o++) {
                c[o] = ntask;
                for (int i = 0; i < nt; i++) {
                    const sgst_rec *rc = p->rec + (tmp[i] >> 16);
                    int ltop = sgst_rec_ltop(rc), mu = ltop < M ? ltop : M, oo = ltop <= M ? M + 1 - mu : 0;
                    if (oo == o) p->task[ntask++] = tmp[i];
                }
            }
            c[M + 1] = ntask;
            if (elem)
                for (int o = 0; o <= M; o++)
                    if (sgst_pack(p, c[0], c[o], c[o + 1], o, elem)) goto oom;
        }
    }
    p->ntask = ntask;
    p->step = (int *)malloc(sizeof(int) * (2 * p->nlist + 1));
    p->item = (unsigned *)calloc(2 * (size_t)ntask + 2, sizeof(unsigned));
    if (!p->step || !p->item) goto oom;
    for (int l = 0; l < p->nlist; l++) /* the single items: class M of every list */
        for (int t = p->cls[l * (M + 2) + M]; t < p->cls[l * (M + 2) + M + 1]; t++) {
            int a[3];
            sgst_rec r = p->rec[p->task[t] >> 16];
            sgst_task_addr(&r, p->full, p->task[t], 1, 1, a);
            if (p->compact) {
                p->item[t] = sgst_item4(a[1], a[0], sgst_rec_sb(&r));
                continue;
            }
            p->item[2 * t] = (unsigned)a[1] | (unsigned)a[0] << 16;
            p->item[2 * t + 1] = (unsigned)a[2] | (pairs && 1 <= SGST_PAIRMU ? sgst_item_pair(sgst_rec_pb(&r), sgst_rec_sb(&r)) : 0u);
        }
    for (int inv = 0, i = 0; inv < 2; inv++)
        for (int k = 0; k < d; k++)
            for (int rr = 0; rr < p->tiers[k]; rr++) {
                int r, l = sgst_list_at(p->list0, p->tiers, k, rr, inv, &r);
                p->step[i++] = l | r << 8 | k << 16;
            }
    free(fam);
    free(tmp);
    return 0;
oom:
    snprintf(err, errsz, "out of memory");
fail:
    free(fam);
    free(tmp);
    sgst_plan_free(p);
    return -1;
}

/* The plan without pole pairs (k_sparse_stream's). */
static inline int sgst_plan_build(sgst_plan *p, const sgs_grid *g, int M, char *err, size_t errsz)
{
    return sgst_plan_build2(p, g, M, 0, 0, err, errsz);
}

/* Barriers per grid group of the staged kernel: after the load, after every list, after the store. */
static inline int sgst_barriers(const sgst_plan *p) { return p->nlist + 2; }

/* ------------------------------------------------ the block, replayed on the host (tests) */

/* One group of gc grids at u (pitch N) through every list of the plan, threads 0..B-1 one
 * after another in each list (reverse: B-1..0), as the kernel runs it between its barriers;
 * direct: the last pass writes gout (pitch N) as the direct-store kernel does (keep_shared in
 * its coarse tiers when dehierarchizing), otherwise gout stays untouched. */
#define SGST_REPLAY_DEFINE(T, SUF)                                                                       \
    static inline void sgst_replay_##SUF(T *u, int gc, int G, const sgst_plan *p, int B, int inverse,   \
                                         int reverse, int direct, T *gout)                               \
    {                                                                                                    \
        int N = (int)p->npts;                                                                            \
        for (int i = 0; i < p->nlist; i++) {                                                             \
            int st = p->step[inverse * p->nlist + i], l = st & 255, r = (st >> 8) & 255, k = st >> 16;   \
            int last = direct && k == p->d - 1;                                                          \
            for (int b = 0; b < B; b++)                                                                  \
                sgst_walk_##SUF(u, N, gc, G, p->M, p->cls, p->task, p->item, p->rec, p->full, l,         \
                                reverse ? B - 1 - b : b, B, inverse, last ? gout : (T *)0, N,            \
                                !last || (inverse && r > 0));                                            \
        }                                                                                                \
    }
SGST_REPLAY_DEFINE(float, f)
SGST_REPLAY_DEFINE(double, d)

/* The same through sgst_walk2 (k_sparse_pipe): B = 2^bb threads, staged only, the plan's pairs. */
#define SGST_REPLAY2_DEFINE(T, SUF)                                                                      \
    static inline void sgst_replay2_##SUF(T *u, int gc, int G, const sgst_plan *p, int bb, int inverse, int reverse) \
    {                                                                                                    \
        int N = (int)p->npts, B = 1 << bb;                                                               \
        for (int i = 0; i < p->nlist; i++) {                                                             \
            int l = p->step[inverse * p->nlist + i] & 255;                                               \
            for (int b = 0; b < B; b++)                                                                  \
                sgst_walk2_##SUF(u, N, gc, G, p->M, p->cls + l * (p->M + 2), p->task, p->item, p->rec,   \
                                 p->full, reverse ? B - 1 - b : b, bb, inverse, p->pairs, p->compact);   \
        }                                                                                                \
    }
SGST_REPLAY2_DEFINE(float, f)
SGST_REPLAY2_DEFINE(double, d)


#endif
