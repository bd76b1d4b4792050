/* Host tests of hashmesh/gen.h: the generators are reproducible, valid and as specified
 * (1D gaps in [dmin, dmax], distinct buckets; AMR meshes cover the domain once with 2:1
 * balance; remap meshes tile [0, L); the EOS table and its queries stay inside the axes). */
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/baseline.h"

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_keys(long n, double dmin, double dmax, uint64_t seed)
{
    keys1d k, k2;
    keys1d_generate(&k, n, dmin, dmax, seed);
    keys1d_generate(&k2, n, dmin, dmax, seed);
    T_CHECK(memcmp(k.x, k2.x, sizeof(double) * n) == 0); /* reproducible */
    double *s = (double *)malloc(sizeof(double) * n);
    memcpy(s, k.x, sizeof(double) * n);
    qsort(s, n, sizeof *s, cmp_d);
    T_EQ_INT(s[0] == 0.0, 1);
    T_CHECK(s[n - 1] == k.xmax);
    int gaps_ok = 1, buckets_ok = 1;
    for (long i = 1; i < n; i++) {
        double g = s[i] - s[i - 1];
        if (!(g >= dmin && g <= dmax * (1 + 1e-12))) gaps_ok = 0;
        if (hash_bucket1d(s[i], k.xmin, k.dmin) <= hash_bucket1d(s[i - 1], k.xmin, k.dmin)) buckets_ok = 0;
    }
    T_CHECK(gaps_ok);
    T_CHECK(buckets_ok); /* perfect hash: strictly increasing buckets in key order */
    T_CHECK(hash_bucket1d(k.xmax, k.xmin, k.dmin) == k.m - 1);
    int shuffled = n < 3;
    for (long i = 1; i < n; i++) if (k.x[i] < k.x[i - 1]) shuffled = 1;
    T_CHECK(shuffled);
    free(s);
    keys1d_free(&k);
    keys1d_free(&k2);
}

static void test_amr(int nx, int ny, int levmax, double frac, uint64_t seed)
{
    amr_mesh m;
    char why[256] = "";
    amr_generate(&m, nx, ny, levmax, frac, seed);
    int bad = amr_validate(&m, 1, why, sizeof why);
    if (bad) fprintf(stderr, "amr %dx%d L%d: %s\n", nx, ny, levmax, why);
    T_EQ_INT(bad, 0);
    /* cell count equals the covered area in finest units */
    long area = 0;
    for (long c = 0; c < m.n; c++) area += 1L << (2 * (m.levmax - m.lev[c]));
    T_EQ_INT(area, amr_width(&m) * amr_height(&m));
    /* a broken mesh is rejected: move one cell onto another (overlap and hole) */
    if (m.n > 1) {
        int si = m.i[0], sj = m.j[0], sl = m.lev[0];
        m.i[0] = m.i[1]; m.j[0] = m.j[1]; m.lev[0] = m.lev[1];
        T_EQ_INT(amr_validate(&m, 1, why, sizeof why), 1);
        m.i[0] = si; m.j[0] = sj; m.lev[0] = sl;
        m.i[0] = nx << sl; /* outside */
        T_EQ_INT(amr_validate(&m, 1, why, sizeof why), 1);
        T_CHECK(strstr(why, "outside") != NULL);
        m.i[0] = si;
    }
    amr_free(&m);
}

static void test_balance_violation(void)
{
    /* 2 x 1 coarse cells, levmax 2: left at level 0, right at level 2 -> 2:1 violated */
    amr_mesh m;
    amr_alloc(&m, 17);
    m.nx = 2; m.ny = 1; m.levmax = 2;
    m.i[0] = 0; m.j[0] = 0; m.lev[0] = 0;
    int k = 1;
    for (int b = 0; b < 4; b++)
        for (int a = 0; a < 4; a++) { m.i[k] = 4 + a; m.j[k] = b; m.lev[k] = 2; k++; }
    char why[256];
    T_EQ_INT(amr_validate(&m, 0, why, sizeof why), 0);
    T_EQ_INT(amr_validate(&m, 1, why, sizeof why), 1);
    T_CHECK(strstr(why, "2:1") != NULL);
    amr_free(&m);
}

static void test_mesh1d(long n, int wmax, uint64_t seed)
{
    mesh1d a, b;
    long L = mesh1d_generate(&a, n, 0, wmax, seed);
    long L2 = mesh1d_generate(&b, 0, L, wmax, seed + 1);
    T_EQ_INT(a.n, n);
    T_EQ_INT(L2, L);
    mesh1d *ms[2] = {&a, &b};
    for (int q = 0; q < 2; q++) {
        int *cover = (int *)calloc(L, sizeof(int));
        int ok = 1;
        for (long c = 0; c < ms[q]->n; c++) {
            if (ms[q]->hi[c] - ms[q]->lo[c] < 1 || ms[q]->hi[c] - ms[q]->lo[c] > wmax) ok = 0;
            for (int x = ms[q]->lo[c]; x < ms[q]->hi[c]; x++) cover[x]++;
        }
        for (long x = 0; x < L; x++) if (cover[x] != 1) ok = 0;
        T_CHECK(ok);
        free(cover);
    }
    mesh1d_free(&a);
    mesh1d_free(&b);
}

static void test_eos(void)
{
    eos_table t;
    eos_generate(&t);
    T_NEAR(t.rho[EOS_NRHO - 1], 5.1, 1e-12);
    T_NEAR(t.temp[EOS_NT - 1], 4600, 1e-9);
    int mono = 1;
    for (int j = 0; j < EOS_NT; j++)
        for (int i = 1; i < EOS_NRHO; i++)
            if (t.p[j * EOS_NRHO + i] <= t.p[j * EOS_NRHO + i - 1]) mono = 0;
    T_CHECK(mono); /* pressure grows with density */
    long nq = 100000;
    double *r = malloc(sizeof(double) * nq), *T = malloc(sizeof(double) * nq);
    eos_queries(&t, nq, r, T, 5);
    int inside = 1;
    long central = 0;
    for (long q = 0; q < nq; q++) {
        if (!(r[q] >= t.rho[0] && r[q] < t.rho[EOS_NRHO - 1] && T[q] >= t.temp[0] && T[q] < t.temp[EOS_NT - 1])) inside = 0;
        if (fabs(r[q] - 2.6) < 2.5 / 3) central++;
    }
    T_CHECK(inside);
    /* normal with sd = range/6: about 68% within one sd of the centre */
    T_CHECK(central > 0.6 * nq && central < 0.75 * nq);
    free(r);
    free(T);
}

int main(void)
{
    long ns[] = {1, 2, 3, 17, 1000, 65537};
    for (int a = 0; a < 6; a++) test_keys(ns[a], 2.0, 4.0, 1 + a);
    test_keys(100000, 2.0, 64.0, 9);
    test_keys(100000, 2.0, 2.0, 10); /* ratio 1: every gap exactly dmin (x = 2k, exact) */
    test_amr(1, 1, 0, 0.3, 1);
    test_amr(1, 1, 3, 1.0, 2);
    test_amr(7, 5, 1, 0.3, 3);
    test_amr(13, 11, 2, 0.3, 4);
    test_amr(31, 29, 4, 0.1, 5);
    test_amr(200, 150, 1, 0.3, 6);
    test_amr(64, 64, 6, 0.05, 7);
    test_balance_violation();
    test_mesh1d(1, 2, 1);
    test_mesh1d(97, 2, 2);
    test_mesh1d(10007, 5, 3);
    test_eos();
    return T_DONE();
}
