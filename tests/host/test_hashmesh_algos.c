/* Host tests of the hashmesh algorithms: every CPU hash method against its comparison-based
 * baseline (qsort, k-D tree) and brute force at small n, and against each other at medium n.
 * Sorts and neighbours: exact index equality.  Remaps: totals conserved, exact for linear
 * fields, all methods agree.  Table look-up: hash = linear = bisection = double reference. */
#include "../../common/testlib.h"
#include "../../common/verify.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/baseline.h"

static void test_sort1d(long n, double dmax, int brute)
{
    keys1d k;
    keys1d_generate(&k, n, 2.0, dmax, 100 + n);
    int *t = malloc(sizeof(int) * k.m), *ih = malloc(sizeof(int) * n), *iq = malloc(sizeof(int) * n);
    double *sorted = malloc(sizeof(double) * n);
    qs_pair *buf = malloc(sizeof(qs_pair) * n);
    T_EQ_INT(hash_sort1d_cpu(k.x, n, k.xmin, k.dmin, t, k.m, ih, sorted), n);
    qsort_sort1d(k.x, n, buf, iq);
    T_CHECK(!verify_exact(ih, iq, n, sizeof(int), "ih"));
    int ok = 1;
    for (long i = 1; i < n; i++) if (!(sorted[i - 1] < sorted[i])) ok = 0;
    T_CHECK(ok);
    if (brute) { /* rank by counting */
        int rok = 1;
        for (long i = 0; i < n; i++) {
            long rank = 0;
            for (long q = 0; q < n; q++) rank += k.x[q] < k.x[i];
            if (ih[rank] != i) rok = 0;
        }
        T_CHECK(rok);
    }
    /* 1D neighbours: hash = k-D tree (= brute force) */
    int *lh = malloc(sizeof(int) * n), *rh = malloc(sizeof(int) * n), *lk = malloc(sizeof(int) * n),
        *rk = malloc(sizeof(int) * n);
    hash_neigh1d_cpu(k.x, n, k.xmin, k.dmin, t, k.m, lh, rh);
    kd1 tree;
    tree.key = malloc(sizeof(double) * n);
    tree.idx = malloc(sizeof(int) * n);
    kd1_neigh1d(&tree, k.x, n, lk, rk);
    T_CHECK(!verify_exact(lh, lk, n, sizeof(int), "lh"));
    T_CHECK(!verify_exact(rh, rk, n, sizeof(int), "rh"));
    /* and against the sorted order */
    int nok = 1;
    for (long r = 0; r < n; r++) {
        int c = ih[r];
        if (lh[c] != (r > 0 ? ih[r - 1] : c) || rh[c] != (r < n - 1 ? ih[r + 1] : c)) nok = 0;
    }
    T_CHECK(nok);
    if (brute) {
        brute_neigh1d(k.x, n, lk, rk);
        T_CHECK(!verify_exact(lh, lk, n, sizeof(int), "lh"));
        T_CHECK(!verify_exact(rh, rk, n, sizeof(int), "rh"));
    }
    free(tree.key); free(tree.idx);
    free(lh); free(rh); free(lk); free(rk);
    free(t); free(ih); free(iq); free(sorted); free(buf);
    keys1d_free(&k);
}

static void test_mesh2d(int nx, int ny, int levmax, double frac, int brute)
{
    amr_mesh m;
    amr_generate(&m, nx, ny, levmax, frac, 1000 + nx * 7 + levmax);
    long n = m.n, W = amr_width(&m), H = amr_height(&m);
    int *t = malloc(sizeof(int) * W * H), *ih = malloc(sizeof(int) * n), *iq = malloc(sizeof(int) * n);
    qs_cell *qb = malloc(sizeof(qs_cell) * n);
    T_EQ_INT(hash_sort2d_cpu(m.i, m.j, m.lev, n, levmax, W, H, t, ih), n);
    qsort_sort2d(&m, qb, iq);
    T_CHECK(!verify_exact(ih, iq, n, sizeof(int), "ih"));
    /* neighbours: hash (Listing 2) = k-D tree = brute force */
    int *nh = malloc(sizeof(int) * 4 * n), *nk = malloc(sizeof(int) * 4 * n);
    kbox *boxes = malloc(sizeof(kbox) * n);
    amr_boxes(&m, boxes);
    hash_neigh2d_cpu(m.i, m.j, m.lev, n, levmax, W, H, t, nh);
    kd2 tree;
    kd2_alloc(&tree, n);
    T_EQ_INT(kd2_neigh2d(&tree, &m, boxes, nk), 0);
    T_CHECK(!verify_exact(nh, nk, 4 * n, sizeof(int), "nh"));
    if (brute) {
        brute_neigh2d(&m, boxes, nk);
        T_CHECK(!verify_exact(nh, nk, 4 * n, sizeof(int), "nh"));
    }
    /* semantic check: the neighbour touches the face (or is the cell at the boundary) */
    int sem = 1;
    for (long c = 0; c < n; c++) {
        kbox b = boxes[c];
        for (int f = 0; f < 4; f++) {
            int o = nh[4 * c + f];
            kbox q = boxes[o];
            int edge = (f == 0 && b.x0 == 0) || (f == 1 && b.x1 == W) || (f == 2 && b.y0 == 0) || (f == 3 && b.y1 == H);
            if (edge) { if (o != c) sem = 0; continue; }
            int touch = f == 0 ? q.x1 == b.x0 : f == 1 ? q.x0 == b.x1 : f == 2 ? q.y1 == b.y0 : q.y0 == b.y1;
            int lowleft = f < 2 ? (q.y0 <= b.y0 && b.y0 < q.y1) : (q.x0 <= b.x0 && b.x0 < q.x1);
            if (!touch || !lowleft) sem = 0;
        }
    }
    T_CHECK(sem);
    /* 2D remap onto a second mesh over the same domain */
    amr_mesh m2;
    amr_generate(&m2, nx, ny, levmax, frac, 5000 + nx);
    field fl, fs;
    field2d_make(&fl, &m, 1.5, 0.25, -0.125, 0, 1); /* linear */
    field2d_make(&fs, &m, 2.0, 0.01, 0.02, 0.7, W / 3.0 + 1); /* non-linear */
    double *oh = malloc(sizeof(double) * m2.n), *ok = malloc(sizeof(double) * m2.n), *ob = malloc(sizeof(double) * m2.n);
    kbox *nboxes = malloc(sizeof(kbox) * m2.n);
    amr_boxes(&m2, nboxes);
    long cap = (4L << (2 * levmax)) + 64;
    int *hits = malloc(sizeof(int) * cap);
    for (int which = 0; which < 2; which++) {
        field *f = which ? &fs : &fl;
        hash_remap2d_cpu(m.i, m.j, m.lev, n, f->mean, f->gx, f->gy, m2.i, m2.j, m2.lev, m2.n, levmax, W, H, t, oh);
        T_EQ_INT(kd2_remap(&tree, boxes, n, f->mean, f->gx, f->gy, nboxes, m2.n, hits, cap, ok), 0);
        double told = 0, tnew = 0, scale = 0, maxd = 0;
        for (long a = 0; a < n; a++) {
            double ar = (double)(boxes[a].x1 - boxes[a].x0) * (boxes[a].y1 - boxes[a].y0);
            told += f->mean[a] * ar;
            scale += fabs(f->mean[a]) * ar;
        }
        for (long b = 0; b < m2.n; b++) {
            tnew += oh[b];
            double d = fabs(oh[b] - ok[b]);
            if (d > maxd) maxd = d;
        }
        T_NEAR(tnew, told, 1e-12 * scale); /* conservation */
        T_NEAR(maxd, 0, 1e-9);
        if (brute) {
            brute_remap(boxes, n, f->mean, f->gx, f->gy, nboxes, m2.n, ob);
            double mb = 0;
            for (long b = 0; b < m2.n; b++) if (fabs(oh[b] - ob[b]) > mb) mb = fabs(oh[b] - ob[b]);
            T_NEAR(mb, 0, 1e-9);
        }
        if (!which) { /* exact for a linear field: new mean = f(new centre) */
            double me = 0;
            for (long b = 0; b < m2.n; b++) {
                double ar = (double)(nboxes[b].x1 - nboxes[b].x0) * (nboxes[b].y1 - nboxes[b].y0);
                double xc = 0.5 * (nboxes[b].x0 + nboxes[b].x1), yc = 0.5 * (nboxes[b].y0 + nboxes[b].y1);
                double e = fabs(oh[b] / ar - (1.5 + 0.25 * xc - 0.125 * yc));
                if (e > me) me = e;
            }
            T_NEAR(me, 0, 1e-9);
        }
    }
    free(hits); free(nboxes); free(oh); free(ok); free(ob);
    field_free(&fl); field_free(&fs);
    amr_free(&m2);
    kd2_free(&tree);
    free(boxes); free(nh); free(nk);
    free(t); free(ih); free(iq); free(qb);
    amr_free(&m);
}

static void test_remap1d(long n, int wmax, int brute)
{
    mesh1d o, w;
    long L = mesh1d_generate(&o, n, 0, wmax, 77 + n);
    mesh1d_generate(&w, 0, L, wmax, 78 + n);
    field fl, fs;
    field1d_make(&fl, &o, 3.0, -0.5, 0, 1);
    field1d_make(&fs, &o, 3.0, 0.001, 1.0, L / 5.0 + 1);
    int *t = malloc(sizeof(int) * L);
    double *oh = malloc(sizeof(double) * w.n), *os = malloc(sizeof(double) * w.n), *ok = malloc(sizeof(double) * w.n),
           *ob = malloc(sizeof(double) * w.n);
    qs_pair *ba = malloc(sizeof(qs_pair) * o.n), *bb = malloc(sizeof(qs_pair) * w.n);
    kbox *obox = malloc(sizeof(kbox) * o.n), *nbox = malloc(sizeof(kbox) * w.n);
    mesh1d_boxes(&o, obox);
    mesh1d_boxes(&w, nbox);
    kd2 tree;
    kd2_alloc(&tree, o.n);
    int hits[64];
    for (int which = 0; which < 2; which++) {
        field *f = which ? &fs : &fl;
        hash_remap1d_cpu(o.lo, o.hi, o.n, f->mean, f->gx, w.lo, w.hi, w.n, t, L, oh);
        sort_remap1d(&o, f->mean, f->gx, &w, ba, bb, os);
        T_EQ_INT(kd2_remap(&tree, obox, o.n, f->mean, f->gx, NULL, nbox, w.n, hits, 64, ok), 0);
        double told = 0, tnew = 0, scale = 0, d1 = 0, d2 = 0;
        for (long a = 0; a < o.n; a++) {
            told += f->mean[a] * (o.hi[a] - o.lo[a]);
            scale += fabs(f->mean[a]) * (o.hi[a] - o.lo[a]);
        }
        for (long b = 0; b < w.n; b++) {
            tnew += oh[b];
            if (fabs(oh[b] - os[b]) > d1) d1 = fabs(oh[b] - os[b]);
            if (fabs(oh[b] - ok[b]) > d2) d2 = fabs(oh[b] - ok[b]);
        }
        T_NEAR(tnew, told, 1e-12 * scale);
        T_NEAR(d1, 0, 1e-9);
        T_NEAR(d2, 0, 1e-9);
        if (brute) {
            brute_remap(obox, o.n, f->mean, f->gx, NULL, nbox, w.n, ob);
            double d3 = 0;
            for (long b = 0; b < w.n; b++) if (fabs(oh[b] - ob[b]) > d3) d3 = fabs(oh[b] - ob[b]);
            T_NEAR(d3, 0, 1e-9);
        }
        if (!which) {
            double me = 0;
            for (long b = 0; b < w.n; b++) {
                double xc = 0.5 * (w.lo[b] + w.hi[b]);
                double e = fabs(oh[b] / (w.hi[b] - w.lo[b]) - (3.0 - 0.5 * xc));
                if (e > me) me = e;
            }
            T_NEAR(me, 0, 1e-9 * (1 + L));
        }
    }
    kd2_free(&tree);
    free(obox); free(nbox); free(ba); free(bb);
    free(t); free(oh); free(os); free(ok); free(ob);
    field_free(&fl); field_free(&fs);
    mesh1d_free(&o); mesh1d_free(&w);
}

/* double-precision reference: locate by exhaustive scan, interpolate */
static void test_table(long nq)
{
    eos_table e;
    eos_generate(&e);
    double *r = malloc(sizeof(double) * nq), *T = malloc(sizeof(double) * nq);
    double *o[3];
    eos_queries(&e, nq, r, T, 3);
    /* add the awkward points: exactly on axis values, the first and last interval */
    if (nq >= 6) {
        r[0] = e.rho[0]; T[0] = e.temp[0];
        r[1] = e.rho[17]; T[1] = e.temp[11];
        r[2] = nextafter(e.rho[EOS_NRHO - 1], 0); T[2] = nextafter(e.temp[EOS_NT - 1], 0);
        r[3] = e.rho[EOS_NRHO - 2]; T[3] = e.temp[EOS_NT - 2];
    }
    for (int mth = 0; mth < 3; mth++) {
        o[mth] = malloc(sizeof(double) * nq);
        table_lookup_cpu(mth, e.p, e.rho, EOS_NRHO, e.temp, EOS_NT, r, T, nq, o[mth]);
    }
    double md = 0, mf = 0;
    for (long q = 0; q < nq; q++) {
        int is = 0, js = 0;
        for (int k = 0; k < EOS_NRHO - 1; k++) if (e.rho[k] <= r[q]) is = k;
        for (int k = 0; k < EOS_NT - 1; k++) if (e.temp[k] <= T[q]) js = k;
        double ref = tab_bilinear(e.p, EOS_NRHO, e.rho, e.temp, is, js, r[q], T[q]);
        for (int mth = 0; mth < 3; mth++)
            if (fabs(o[mth][q] - ref) > md) md = fabs(o[mth][q] - ref);
        /* the interpolant is close to the smooth EOS: the table resolves it */
        double rel = fabs(ref - eos_pressure(r[q], T[q])) / fabs(eos_pressure(r[q], T[q]));
        if (rel > mf) mf = rel;
    }
    T_NEAR(md, 0, 1e-9);
    T_CHECK(mf < 0.05);
    for (int mth = 0; mth < 3; mth++) free(o[mth]);
    free(r); free(T);
}

int main(void)
{
    long ns[] = {1, 2, 3, 5, 17, 64, 257, 1000};
    for (int a = 0; a < 8; a++) test_sort1d(ns[a], 4.0, 1);
    test_sort1d(3001, 64.0, 1);
    test_sort1d(200003, 4.0, 0);
    test_sort1d(100000, 64.0, 0);
    test_mesh2d(1, 1, 0, 0.3, 1);
    test_mesh2d(1, 1, 2, 1.0, 1);
    test_mesh2d(3, 2, 1, 0.5, 1);
    test_mesh2d(9, 7, 1, 0.3, 1);
    test_mesh2d(13, 17, 2, 0.3, 1);
    test_mesh2d(11, 10, 3, 0.2, 1);
    test_mesh2d(300, 280, 1, 0.3, 0);
    test_mesh2d(90, 70, 3, 0.1, 0);
    long rn[] = {1, 2, 7, 100, 1001};
    for (int a = 0; a < 5; a++) test_remap1d(rn[a], 2, 1);
    test_remap1d(500, 5, 1);
    test_remap1d(300000, 2, 0);
    test_table(1);
    test_table(100000);
    return T_DONE();
}
