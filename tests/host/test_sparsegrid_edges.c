/* test_sparsegrid_edges.c -- sparsegrid/hierarchize.h and sparse.h where user input and the
 * grids' ends are read.
 *
 *  - --dims parsing: exactly SG_MAXD sizes accepted, one more refused with its message (into an
 *    array of exactly SG_MAXD ints, so a missing guard writes past it: asan); the largest size
 *    2^20 + 1 accepted, 2^20 + 2 and 2^20 + 3 refused as too large; overflowing numbers;
 *  - the evaluations at the domain's far end x = 1 (and 0, and in between): the full-grid
 *    multilinear interpolation and the sparse-grid interpolant sgs_eval reproduce a d-linear
 *    function exactly and every nodal value at its node; the grids are read from arrays of
 *    exactly their size (asan) and from copies followed by NaNs (so a read past the end shows
 *    in the value even without asan);
 *  - sgs_init / sgs_init_full at the largest level 24 (accepted) and 25 (refused), d = 6 and 7,
 *    level 0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../../sparsegrid/sparse.h"
#include "../../common/testlib.h"

static double f_lin(const double *x, int d) /* d-linear: exactly in every space here */
{
    double v = 1;
    for (int j = 0; j < d; j++) v *= 1.0 + 0.5 * j + (j + 2) * x[j];
    return v;
}
static double f_curved(const double *x, int d)
{
    double v = 0;
    for (int j = 0; j < d; j++) v += sin(3 * x[j] + j) * (1 + x[j] * x[j]);
    return v;
}
/* n doubles copied into a fresh array of exactly n (pad = 0) or followed by pad NaNs */
static double *copy_padded(const double *u, long long n, int pad)
{
    double *c = malloc(sizeof(double) * (size_t)(n + pad));
    memcpy(c, u, sizeof(double) * (size_t)n);
    for (int i = 0; i < pad; i++) c[n + i] = NAN;
    return c;
}

static void test_parse(void)
{
    char err[256];
    int *n = malloc(sizeof(int) * SG_MAXD); /* exactly SG_MAXD: a write past it is an asan report */
    T_EQ_INT(sg_parse_sizes("9x9x5x5", n, SG_MAXD, err, sizeof err), 4);
    T_CHECK(n[0] == 9 && n[1] == 9 && n[2] == 5 && n[3] == 5);
    err[0] = '\0';
    T_EQ_INT(sg_parse_sizes("9x9x5x5x3", n, SG_MAXD, err, sizeof err), -1);
    T_CHECK(strstr(err, "at most 4 dimensions") != NULL);
    T_EQ_INT(sg_parse_sizes("3x3x3x3x3x3x3x3", n, SG_MAXD, err, sizeof err), -1);
    T_EQ_INT(sg_parse_sizes("3x3", n, 1, err, sizeof err), -1); /* the caller's bound */
    T_CHECK(strstr(err, "at most 1 dimensions") != NULL);
    T_EQ_INT(sg_parse_sizes("3", n, 1, err, sizeof err), 1);
    /* the largest size: 2^20 + 1 */
    T_EQ_INT(sg_parse_sizes("1048577", n, SG_MAXD, err, sizeof err), 1);
    T_EQ_INT(n[0], 1048577);
    err[0] = '\0';
    T_EQ_INT(sg_parse_sizes("1048578", n, SG_MAXD, err, sizeof err), -1);
    T_CHECK(strstr(err, "too large") != NULL);
    T_EQ_INT(sg_parse_sizes("3x1048579", n, SG_MAXD, err, sizeof err), -1);
    T_CHECK(strstr(err, "dimension 1 is too large") != NULL);
    T_EQ_INT(sg_parse_sizes("99999999999999999999999", n, SG_MAXD, err, sizeof err), -1);
    T_EQ_INT(sg_parse_sizes("9x", n, SG_MAXD, err, sizeof err), -1);
    T_EQ_INT(sg_parse_sizes("x9", n, SG_MAXD, err, sizeof err), -1);
    free(n);
    sg_geom g;
    T_EQ_INT(sg_parse_dims("1048577", &g, err, sizeof err), 0);
    T_EQ_INT(g.l[0], 20);
    T_EQ_INT(g.size, 1048577);
    T_EQ_INT(sg_parse_dims("1048577x1025", &g, err, sizeof err), 0); /* 2^30.0 points */
    T_EQ_INT(sg_parse_dims("1048577x2049", &g, err, sizeof err), -1); /* past 2^31 */
    T_CHECK(strstr(err, "2^31") != NULL);
    T_EQ_INT(sg_parse_dims("1048575", &g, err, sizeof err), -1); /* not 2^l + 1 */
}

/* the multilinear interpolation of the full grid at the corners, edges and inside */
static void test_multilinear(void)
{
    for (int d = 1; d <= 3; d++)
        for (int L = 1; L <= 4; L++) {
            long long n = (1LL << L) + 1, N = 1;
            for (int j = 0; j < d; j++) N *= n;
            double *u = malloc(sizeof(double) * (size_t)N), x[SG_MAXD];
            for (long long r = 0; r < N; r++) {
                long long q = r;
                for (int j = 0; j < d; j++) { x[j] = (double)(q % n) / (double)(n - 1); q /= n; }
                u[r] = f_lin(x, d);
            }
            double *padded = copy_padded(u, N, 64);
            long bad = 0;
            static const double pts[] = {0.0, 1.0, 0.5, 0.999, 0.001, 0.3125};
            for (int a = 0; a < 6; a++)
                for (int b = 0; b < 6; b++) {
                    for (int j = 0; j < d; j++) x[j] = j == 0 ? pts[a] : pts[b];
                    double want = f_lin(x, d);
                    bad += fabs(sg_eval_multilinear(u, d, L, x) - want) > 1e-12 * fabs(want);
                    bad += !(fabs(sg_eval_multilinear(padded, d, L, x) - want) <= 1e-12 * fabs(want));
                }
            for (int j = 0; j < d; j++) x[j] = 1.0; /* the far corner: the last value, exactly */
            bad += sg_eval_multilinear(u, d, L, x) != u[N - 1];
            bad += sg_eval_multilinear(padded, d, L, x) != u[N - 1];
            T_EQ_INT(bad, 0);
            free(u);
            free(padded);
        }
}

/* the sparse-grid interpolant: a d-linear function everywhere, any function at its nodes */
static void test_sgs_eval(void)
{
    char err[256];
    for (int d = 1; d <= 4; d++)
        for (int n = 1; n <= (d <= 2 ? 6 : 4); n++)
            for (int fn = 0; fn < 2; fn++) {
                sgs_grid g;
                if (sgs_init(&g, d, n, err, sizeof err)) { T_CHECK(0); continue; }
                long long N = g.npts, idx[SGS_MAXD];
                double *u = malloc(sizeof(double) * (size_t)N), *nodal = malloc(sizeof(double) * (size_t)N), x[SGS_MAXD];
                for (int s = 0; s < g.nsub; s++)
                    for (long long r = 0; r < g.off[s + 1] - g.off[s]; r++) {
                        sgs_point_index(&g, s, r, idx);
                        for (int j = 0; j < d; j++) x[j] = (double)idx[j] / (double)(1LL << n);
                        u[g.off[s] + r] = nodal[g.off[s] + r] = fn ? f_curved(x, d) : f_lin(x, d);
                    }
                T_EQ_INT(sgs_ref_d(u, &g, 0), 0); /* surpluses */
                double *padded = copy_padded(u, N, 64);
                long bad = 0;
                for (int s = 0; s < g.nsub; s++) /* every node: its nodal value */
                    for (long long r = 0; r < g.off[s + 1] - g.off[s]; r++) {
                        sgs_point_index(&g, s, r, idx);
                        for (int j = 0; j < d; j++) x[j] = (double)idx[j] / (double)(1LL << n);
                        double want = nodal[g.off[s] + r], got = sgs_eval(padded, &g, x);
                        bad += !(fabs(got - want) <= 1e-12 * (1 + fabs(want)));
                    }
                if (fn == 0) { /* between the nodes too */
                    static const double pts[] = {0.0, 1.0, 0.999, 0.37, 0.5};
                    for (int a = 0; a < 5; a++)
                        for (int b = 0; b < 5; b++) {
                            for (int j = 0; j < d; j++) x[j] = j % 2 ? pts[a] : pts[b];
                            double want = f_lin(x, d);
                            bad += !(fabs(sgs_eval(padded, &g, x) - want) <= 1e-12 * fabs(want));
                            bad += !(fabs(sgs_eval(u, &g, x) - want) <= 1e-12 * fabs(want));
                        }
                }
                for (int j = 0; j < d; j++) x[j] = 1.0; /* the far corner from the exact-size array */
                bad += !(fabs(sgs_eval(u, &g, x) - nodal[g.off[0] + (1LL << d) - 1]) <= 1e-12 * (1 + fabs(nodal[0])));
                if (bad) fprintf(stderr, "  sgs_eval d=%d n=%d f%d: %ld wrong values\n", d, n, fn, bad);
                T_EQ_INT(bad, 0);
                free(u);
                free(nodal);
                free(padded);
                sgs_free(&g);
            }
}

static void test_limits(void)
{
    sgs_grid g;
    char err[256];
    T_EQ_INT(sgs_init(&g, 1, 24, err, sizeof err), 0); /* the largest level */
    T_EQ_INT(g.npts, (1LL << 24) + 1);
    sgs_free(&g);
    err[0] = '\0';
    T_EQ_INT(sgs_init(&g, 1, 25, err, sizeof err), -1);
    T_CHECK(strstr(err, "1 to 24") != NULL);
    T_EQ_INT(sgs_init(&g, 1, 0, err, sizeof err), -1);
    T_EQ_INT(sgs_init(&g, 6, 3, err, sizeof err), 0); /* the most dimensions */
    sgs_free(&g);
    T_EQ_INT(sgs_init(&g, 7, 3, err, sizeof err), -1);
    T_EQ_INT(sgs_init(&g, 0, 3, err, sizeof err), -1);
    int nk[SGS_MAXD] = {24, 0};
    T_EQ_INT(sgs_init_full(&g, 1, nk, err, sizeof err), 0);
    T_EQ_INT(g.npts, (1LL << 24) + 1);
    sgs_free(&g);
    nk[0] = 25;
    T_EQ_INT(sgs_init_full(&g, 1, nk, err, sizeof err), -1);
    T_CHECK(strstr(err, "0 to 24") != NULL);
    nk[0] = 3, nk[1] = -1;
    T_EQ_INT(sgs_init_full(&g, 2, nk, err, sizeof err), -1);
    nk[0] = 0, nk[1] = 0;
    T_EQ_INT(sgs_init_full(&g, 2, nk, err, sizeof err), -1); /* nothing to hierarchize */
    nk[0] = 0, nk[1] = 1;
    T_EQ_INT(sgs_init_full(&g, 2, nk, err, sizeof err), 0);
    T_EQ_INT(g.npts, 2 * 3);
    sgs_free(&g);
}

int main(void)
{
    test_parse();
    test_multilinear();
    test_sgs_eval();
    test_limits();
    return T_DONE();
}
