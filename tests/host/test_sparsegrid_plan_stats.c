/* test_sparsegrid_plan_stats.c -- the statistics of k_sparse_stream's / k_sparse_pipe's plan
 * (sparsegrid/sparse_stream_plan.h) that the sweep's '# stream_plan:' and '# pipe_plan:' lines
 * print (lists, barriers, tasks and items per point), against closed forms and a brute-force
 * count over the grid's level vectors written here, not the plan's own bookkeeping:
 *   - items: every point whose level along k is >= 1 gets exactly one new value in pass k, so
 *     items = sum over k of the points with l_k >= 1 (a subspace of levels l holds prod_j
 *     np(l_j) points, np(0) = 2, np(l) = 2^(l-1));
 *   - lists: pass k has ceil(m_k / M) tiers, m_k the longest pole: n for a sparse grid of level n
 *     (l_j = 0 or 1 for every j != k), l_k for a full grid; barriers = lists + 2;
 *   - tasks: the tasks per class add up to the tasks; a task of mu levels updates 2^mu - 1 points
 *     (pairs: two poles), so the items are at most (2^M - 1) tasks (2 (2^M - 1) with pairs) and
 *     at least the tasks; the tasks of class o are those the lists hold in class o (cls[]);
 *   - the plan's limits: M = 0 and M = SGST_MMAX + 1 refused, 1 and SGST_MMAX accepted; the grid
 *     limits of sparse.h at 2^30 points both sides. */
#include "../../common/testlib.h"
#include "../../sparsegrid/sparse_stream_plan.h"

static long long np_of(int l) { return l == 0 ? 2 : 1LL << (l - 1); }

/* the points with l_k >= 1, by brute force over the level vectors 0..n of every dimension */
static long long items_brute(const sgs_grid *g)
{
    int d = g->d, top = g->full ? 0 : g->n;
    int hi[SGS_MAXD];
    for (int j = 0; j < d; j++) hi[j] = g->full ? g->nk[j] : g->n;
    long long total = 0;
    int l[SGS_MAXD] = {0};
    for (;;) {
        int keep = 1, s = 0;
        for (int j = 0; j < d; j++) s += l[j] > 1 ? l[j] : 1;
        if (!g->full) keep = s <= top + d - 1; /* |max(l, 1)|_1 <= n + d - 1 */
        if (keep) {
            long long pts = 1;
            for (int j = 0; j < d; j++) pts *= np_of(l[j]);
            for (int k = 0; k < d; k++) total += l[k] >= 1 ? pts : 0;
        }
        int j = 0;
        while (j < d && l[j] == hi[j]) l[j++] = 0;
        if (j == d) break;
        l[j]++;
    }
    return total;
}

static void check(const sgs_grid *g, int M, int pairs, const char *what)
{
    sgst_plan p;
    char err[200];
    if (!T_CHECK(sgst_plan_build2(&p, g, M, pairs, 0, err, sizeof err) == 0)) { fprintf(stderr, "  %s: %s\n", what, err); return; }
    long long want_items = items_brute(g);
    int want_lists = 0, ok = 1;
    for (int k = 0; k < g->d; k++) {
        int m = g->full ? g->nk[k] : g->n;
        int tiers = (m + M - 1) / M;
        ok &= T_CHECK(p.tiers[k] == tiers);
        want_lists += tiers;
    }
    ok &= T_CHECK(p.items == want_items);
    ok &= T_CHECK(p.nlist == want_lists);
    ok &= T_CHECK(sgst_barriers(&p) == want_lists + 2);
    long long sum = 0;
    for (int o = 0; o <= M + 1; o++) sum += p.tasks_of[o];
    ok &= T_CHECK(sum == p.ntask);
    /* per class: the tasks the kernel's lists hold in class o (cls[]), over every list */
    for (int o = 0; o <= M + 1; o++) {
        long long in = 0;
        for (int l = 0; l < p.nlist && o <= M; l++) in += p.cls[l * (M + 2) + o + 1] - p.cls[l * (M + 2) + o];
        ok &= T_CHECK(p.tasks_of[o] == in);
    }
    ok &= T_CHECK(p.items >= p.ntask && p.items <= (long long)p.ntask * ((1 << M) - 1) * (pairs ? 2 : 1));
    if (!ok)
        fprintf(stderr, "  %s (d %d, n %d, M %d, pairs %d): items %lld (want %lld), lists %d (want %d), tasks %d\n", what,
                g->d, g->n, M, pairs, p.items, want_items, p.nlist, want_lists, p.ntask);
    sgst_plan_free(&p);
}

int main(void)
{
    char err[200];
    /* sparse grids: every d, levels up to the plan's 2^16 points */
    static const int NMAX[SGS_MAXD + 1] = {0, 15, 11, 8, 6, 5, 4};
    for (int d = 1; d <= SGS_MAXD; d++)
        for (int n = 1; n <= NMAX[d]; n++) {
            sgs_grid g;
            if (!T_CHECK(sgs_init(&g, d, n, err, sizeof err) == 0)) continue;
            if (g.npts <= SGST_MAXPTS)
                for (int M = 1; M <= SGST_MMAX; M++)
                    for (int pairs = 0; pairs < 2; pairs++) check(&g, M, pairs, "sparse grid");
            sgs_free(&g);
        }
    /* full grids in subspace order, anisotropic, a level 0 dimension among them */
    static const int FULL[][SGS_MAXD + 1] = {{2, 5, 3}, {3, 2, 0, 4}, {1, 12}, {4, 1, 2, 3, 1}, {2, 0, 7}, {6, 1, 1, 2, 1, 1, 2}};
    for (int i = 0; i < (int)(sizeof FULL / sizeof *FULL); i++) {
        sgs_grid g;
        if (!T_CHECK(sgs_init_full(&g, FULL[i][0], FULL[i] + 1, err, sizeof err) == 0)) continue;
        for (int M = 1; M <= SGST_MMAX; M++) check(&g, M, M % 2, "full grid");
        sgs_free(&g);
    }
    /* the plan's M limits, both sides */
    {
        sgs_grid g;
        sgst_plan p;
        T_CHECK(sgs_init(&g, 2, 4, err, sizeof err) == 0);
        T_EQ_INT(sgst_plan_build(&p, &g, 1, err, sizeof err), 0);
        sgst_plan_free(&p);
        T_EQ_INT(sgst_plan_build(&p, &g, SGST_MMAX, err, sizeof err), 0);
        sgst_plan_free(&p);
        T_EQ_INT(sgst_plan_build(&p, &g, 0, err, sizeof err), -1);
        T_EQ_INT(sgst_plan_build(&p, &g, SGST_MMAX + 1, err, sizeof err), -1);
        T_CHECK(strstr(err, "1 to 5 pole levels") != NULL);
        sgs_free(&g);
        /* the largest plan: 1D n = 15 (32769 points) accepted, n = 16 (65537) refused */
        T_CHECK(sgs_init(&g, 1, 16, err, sizeof err) == 0);
        T_EQ_INT(sgst_plan_build(&p, &g, 3, err, sizeof err), -1);
        T_CHECK(strstr(err, "65537 points") != NULL);
        sgs_free(&g);
    }
    /* sparse.h's grid limit: 2^30 points -- (2^20 + 1)(2^9 + 1) accepted, (2^20 + 1)(2^10 + 1) not */
    {
        sgs_grid g;
        int nk[SGS_MAXD] = {20, 9};
        T_EQ_INT(sgs_init_full(&g, 2, nk, err, sizeof err), 0);
        T_EQ_INT(g.npts, 1048577LL * 513);
        sgs_free(&g);
        nk[1] = 10;
        T_EQ_INT(sgs_init_full(&g, 2, nk, err, sizeof err), -1);
        T_CHECK(strstr(err, "more than 2^30 points") != NULL);
    }
    return T_DONE();
}
