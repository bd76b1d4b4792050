/* Host tests of hashmesh/gen.h against what its comments promise, beyond validity
 * (test_hashmesh_gen.c checks the generated inputs are valid):
 *  - the shuffles are uniform Fisher-Yates shuffles: a key may stay where it was (a shuffle
 *    that never leaves one in place is Sattolo's, a single cycle: half the orders of 2 keys);
 *  - clustered keys keep the span below 2^50 dmin however heavy the tail (alpha 0.05);
 *  - amr_generate refines to a level in [1, levmax]: with frac 1 no coarse cell stays at
 *    level 0 and the finest level occurs;
 *  - amr_side_for rounds sqrt(target / cells per coarse cell) to the nearest side;
 *  - amr_validate finds a hole at the very last finest cell and a 2:1 violation on a
 *    domain taller than wide;
 *  - mesh1d_generate returns the length it covered when asked for n cells (L = 0);
 *  - field1d_make / field2d_make give each cell the mean of f over it (a fine midpoint rule)
 *    and the slope of f at its centre (a central difference). */
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* positions p that hold the p-th smallest key: the generators write the keys in ascending
 * order, then shuffle, so these are the shuffle's fixed points */
static long fixed_points(const keys1d *k)
{
    double *s = (double *)malloc(sizeof(double) * (size_t)k->n);
    memcpy(s, k->x, sizeof(double) * (size_t)k->n);
    qsort(s, (size_t)k->n, sizeof *s, cmp_d);
    long f = 0;
    for (long i = 0; i < k->n; i++) f += k->x[i] == s[i];
    free(s);
    return f;
}

static void test_shuffle_uniform(void)
{
    /* two keys: over 64 seeds, both orders occur (Sattolo always swaps) */
    int kept = 0, swapped = 0, ckept = 0, cswapped = 0;
    for (uint64_t seed = 1; seed <= 64; seed++) {
        keys1d k;
        keys1d_generate(&k, 2, 2.0, 4.0, seed);
        if (k.x[0] < k.x[1]) kept++; else swapped++;
        keys1d_free(&k);
        keys1d_clustered(&k, 2, 2.0, 1.5, seed);
        if (k.x[0] < k.x[1]) ckept++; else cswapped++;
        keys1d_free(&k);
    }
    T_CHECK(kept > 16 && swapped > 16);
    T_CHECK(ckept > 16 && cswapped > 16);
    /* 1000 keys, 40 seeds: about one fixed point each (a uniform permutation), none ever
     * for a single cycle */
    long fp = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        keys1d k;
        keys1d_generate(&k, 1000, 2.0, 4.0, seed);
        fp += fixed_points(&k);
        keys1d_free(&k);
    }
    T_CHECK(fp >= 15 && fp <= 80);
}

static void test_clustered_cap(void)
{
    /* alpha 0.05: a gap u^-20 is astronomically large for small u; the cap keeps every key an
     * exact multiple of dmin and the span below 2^50 dmin, so m stays a valid table size */
    double alphas[] = {0.05, 0.1};
    for (int a = 0; a < 2; a++) {
        keys1d k;
        keys1d_clustered(&k, 1000, 2.0, alphas[a], 3 + a);
        T_CHECK(k.xmax < ldexp(2.0, KEYS_MAX_SPAN_LOG2));
        T_CHECK(k.m >= k.n && k.m <= (1L << KEYS_MAX_SPAN_LOG2));
        int ok = 1;
        for (long i = 0; i < k.n; i++) ok &= k.x[i] >= 0 && k.x[i] <= k.xmax && fmod(k.x[i], 2.0) == 0;
        T_CHECK(ok);
        keys1d_free(&k);
    }
}

static void test_amr_levels(void)
{
    int levmaxes[] = {1, 3, 5};
    for (int t = 0; t < 3; t++) {
        int L = levmaxes[t];
        amr_mesh m;
        amr_generate(&m, 8, 6, L, 1.0, 40 + t);
        int lo = L, hi = 0;
        for (long c = 0; c < m.n; c++) {
            if (m.lev[c] < lo) lo = m.lev[c];
            if (m.lev[c] > hi) hi = m.lev[c];
        }
        T_EQ_INT(lo >= 1, 1); /* frac 1: every coarse cell refined to >= 1 */
        T_EQ_INT(hi, L);      /* 48 coarse cells, each at levmax with probability 1/L */
        amr_free(&m);
    }
    /* frac 0: the coarse mesh itself */
    amr_mesh m;
    amr_generate(&m, 5, 3, 4, 0.0, 9);
    T_EQ_INT(m.n, 15);
    amr_free(&m);
}

static void test_side_for(void)
{
    T_NEAR(amr_cells_per_coarse(0, 0.3), 1.0, 0);
    T_NEAR(amr_cells_per_coarse(2, 0.5), 0.5 + 0.5 * (4 + 16) / 2.0, 1e-12);
    T_NEAR(amr_cells_per_coarse(1, 1.0), 4.0, 1e-12);
    T_EQ_INT(amr_side_for(1000, 0, 0.0), 32); /* sqrt(1000) = 31.62 */
    T_EQ_INT(amr_side_for(990, 0, 0.0), 31);  /* 31.46 */
    T_EQ_INT(amr_side_for(4 * 1000, 1, 1.0), 32);
    T_EQ_INT(amr_side_for(0, 2, 0.5), 1);
    T_EQ_INT(amr_side_for(1, 6, 1.0), 1);
    /* the mesh it sizes holds about the target: at levmax 1 smoothing adds nothing (the
     * estimate is of the cells before smoothing, which raises levels above 1) */
    int side = amr_side_for(200000, 1, 0.3);
    amr_mesh m;
    amr_generate(&m, side, side, 1, 0.3, 5);
    T_CHECK(m.n > 0.97 * 200000 && m.n < 1.03 * 200000);
    amr_free(&m);
}

static void test_validate_edges(void)
{
    char why[256] = "";
    /* 2 x 2 coarse cells at level 0; the last one (top right) missing, then the first */
    amr_mesh m;
    amr_alloc(&m, 3);
    m.nx = 2; m.ny = 2; m.levmax = 0;
    int ci[3] = {0, 1, 0}, cj[3] = {0, 0, 1};
    for (int c = 0; c < 3; c++) { m.i[c] = ci[c]; m.j[c] = cj[c]; m.lev[c] = 0; }
    T_EQ_INT(amr_validate(&m, 1, why, sizeof why), 1);
    T_CHECK(strstr(why, "hole at finest (1, 1)") != NULL);
    m.i[0] = 1; m.j[0] = 1; /* now (0, 0) is missing */
    T_EQ_INT(amr_validate(&m, 1, why, sizeof why), 1);
    T_CHECK(strstr(why, "hole at finest (0, 0)") != NULL);
    amr_free(&m);
    /* 1 x 2 coarse cells (W 4, H 8 at levmax 2): bottom at level 0, top at level 2 */
    amr_alloc(&m, 17);
    m.nx = 1; m.ny = 2; m.levmax = 2;
    m.i[0] = 0; m.j[0] = 0; m.lev[0] = 0;
    int k = 1;
    for (int b = 0; b < 4; b++)
        for (int a = 0; a < 4; a++) { m.i[k] = a; m.j[k] = 4 + b; m.lev[k] = 2; k++; }
    T_EQ_INT(amr_validate(&m, 0, why, sizeof why), 0);
    T_EQ_INT(amr_validate(&m, 1, why, sizeof why), 1);
    T_CHECK(strstr(why, "2:1 balance violated: cell 0 ") != NULL); /* seen from the coarse cell's top face */
    /* the same mesh with the top at level 1 (4 cells) is balanced */
    amr_free(&m);
    amr_alloc(&m, 5);
    m.nx = 1; m.ny = 2; m.levmax = 2;
    m.i[0] = 0; m.j[0] = 0; m.lev[0] = 0;
    for (int c = 1; c < 5; c++) { m.i[c] = (c - 1) & 1; m.j[c] = 2 + ((c - 1) >> 1); m.lev[c] = 1; }
    T_EQ_INT(amr_validate(&m, 1, why, sizeof why), 0);
    amr_free(&m);
    /* wider than tall: 3 x 1 coarse cells, levmax 2, random refinement: valid */
    amr_generate(&m, 3, 1, 2, 0.7, 8);
    T_EQ_INT(amr_validate(&m, 1, why, sizeof why), 0);
    amr_free(&m);
}

static void test_mesh1d_length(void)
{
    long ns[] = {1, 5, 1000};
    for (int t = 0; t < 3; t++) {
        mesh1d a;
        long L = mesh1d_generate(&a, ns[t], 0, 7, 20 + t);
        long sum = 0, top = 0;
        for (long c = 0; c < a.n; c++) {
            sum += a.hi[c] - a.lo[c];
            if (a.hi[c] > top) top = a.hi[c];
        }
        T_EQ_INT(a.n, ns[t]);
        T_EQ_INT(L, sum);
        T_EQ_INT(L, top);
        T_CHECK(L >= ns[t] && L <= 7 * ns[t]);
        mesh1d_free(&a);
    }
    mesh1d b;
    T_EQ_INT(mesh1d_generate(&b, 0, 37, 4, 2), 37); /* L given: returned as covered */
    mesh1d_free(&b);
}

static double f1(double x, double a, double b, double c, double P) { return a + b * x + c * sin(6.283185307179586 * x / P); }
static double f2(double x, double y, double a, double bx, double by, double c, double P)
{
    double w = 6.283185307179586 / P;
    return a + bx * x + by * y + c * sin(w * x) * sin(w * y);
}

static void test_fields(void)
{
    const int S = 200; /* midpoint rule with S (S^2) points a cell: error ~ (w r / S)^2 */
    mesh1d m1;
    mesh1d_generate(&m1, 60, 0, 6, 4);
    field f;
    double a = 1.5, b = 0.02, c = 0.8, P = 23.0;
    field1d_make(&f, &m1, a, b, c, P);
    double emean = 0, egrad = 0;
    for (long k = 0; k < m1.n; k++) {
        double x0 = m1.lo[k], x1 = m1.hi[k], s = 0, h = 1e-5, xc = 0.5 * (x0 + x1);
        for (int q = 0; q < S; q++) s += f1(x0 + (q + 0.5) * (x1 - x0) / S, a, b, c, P);
        emean = fmax(emean, fabs(s / S - f.mean[k]));
        egrad = fmax(egrad, fabs((f1(xc + h, a, b, c, P) - f1(xc - h, a, b, c, P)) / (2 * h) - f.gx[k]));
    }
    T_CHECK(emean < 1e-4);
    T_CHECK(egrad < 1e-6);
    field_free(&f);
    mesh1d_free(&m1);

    amr_mesh m;
    amr_generate(&m, 4, 3, 2, 0.5, 6);
    double bx = 0.1, by = -0.05;
    P = 9.0;
    field2d_make(&f, &m, a, bx, by, c, P);
    emean = egrad = 0;
    for (long k = 0; k < m.n; k++) {
        double r = (double)(1L << (m.levmax - m.lev[k])), x0 = m.i[k] * r, y0 = m.j[k] * r, s = 0, h = 1e-5;
        for (int p = 0; p < S; p++)
            for (int q = 0; q < S; q++) s += f2(x0 + (p + 0.5) * r / S, y0 + (q + 0.5) * r / S, a, bx, by, c, P);
        emean = fmax(emean, fabs(s / ((double)S * S) - f.mean[k]));
        double xc = x0 + 0.5 * r, yc = y0 + 0.5 * r;
        egrad = fmax(egrad, fabs((f2(xc + h, yc, a, bx, by, c, P) - f2(xc - h, yc, a, bx, by, c, P)) / (2 * h) - f.gx[k]));
        egrad = fmax(egrad, fabs((f2(xc, yc + h, a, bx, by, c, P) - f2(xc, yc - h, a, bx, by, c, P)) / (2 * h) - f.gy[k]));
    }
    T_CHECK(emean < 1e-4);
    T_CHECK(egrad < 1e-6);
    field_free(&f);
    amr_free(&m);
}

int main(void)
{
    test_shuffle_uniform();
    test_clustered_cap();
    test_amr_levels();
    test_side_for();
    test_validate_edges();
    test_mesh1d_length();
    test_fields();
    return T_DONE();
}
