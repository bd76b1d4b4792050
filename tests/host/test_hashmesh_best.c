/* Host tests of hashmesh/best.h, the baselines a user would pick instead of the paper's and
 * the CPU hash on all cores: introsort = qsort order; LSD radix (serial and OpenMP, 1..3
 * passes, odd and even pass counts) = the hash order; every *_omp function = its serial
 * counterpart for 1, 2, 3 and 7 threads (uneven chunks); radix-sorted neighbours = hash
 * neighbours; clustered keys (gen.h) distinct and sorted by every method the same way. */
#include "../../common/testlib.h"
#include "../../common/verify.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/baseline.h"
#include "../../hashmesh/best.h"

static const int THREADS[] = {1, 2, 3, 7};

/* every sort of keys k against the serial hash order */
static void check_sorts(const keys1d *k)
{
    long n = k->n, m = k->m;
    int *t = malloc(sizeof(int) * m), *ref = malloc(sizeof(int) * n), *got = malloc(sizeof(int) * n);
    double *sorted = malloc(sizeof(double) * n), *s2 = malloc(sizeof(double) * n);
    qs_pair *buf = malloc(sizeof(qs_pair) * n);
    T_EQ_INT(hash_sort1d_cpu(k->x, n, k->xmin, k->dmin, t, m, ref, sorted), n);
    introsort_sort1d(k->x, n, buf, got);
    T_CHECK(!verify_exact(got, ref, n, sizeof(int), "got"));
    qsort_sort1d(k->x, n, buf, got);
    T_CHECK(!verify_exact(got, ref, n, sizeof(int), "got"));
    if (m <= 4294967296L) {
        int bits = radix_bits_for(m);
        uint32_t *key = malloc(4 * n), *k2 = malloc(4 * n);
        int *i2 = malloc(sizeof(int) * n);
        long *hist = malloc(sizeof(long) * 8 * (1 << RADIX_MAX_DIGIT_BITS));
        for (int a = 0; a < 4; a++) {
            bucket_keys1d(k->x, n, k->xmin, k->dmin, key, got, THREADS[a]);
            radix_pairs(key, got, k2, i2, n, bits, THREADS[a], hist);
            T_CHECK(!verify_exact(got, ref, n, sizeof(int), "got"));
            int asc = 1;
            for (long i = 1; i < n; i++) asc &= key[i - 1] < key[i];
            T_CHECK(asc);
        }
        free(key); free(k2); free(i2); free(hist);
    }
    long cnt[8];
    for (int a = 0; a < 4; a++) {
        memset(got, 0xAB, sizeof(int) * n); /* poison */
        T_EQ_INT(hash_sort1d_omp(k->x, n, k->xmin, k->dmin, t, m, got, s2, THREADS[a], cnt), n);
        T_CHECK(!verify_exact(got, ref, n, sizeof(int), "got"));
        T_CHECK(memcmp(s2, sorted, sizeof(double) * n) == 0);
    }
    free(t); free(ref); free(got); free(sorted); free(s2); free(buf);
}

static void test_sorts(void)
{
    long sizes[] = {1, 2, 3, 17, 1000, 4099, 65537};
    for (int a = 0; a < 7; a++) {
        keys1d k;
        keys1d_generate(&k, sizes[a], 2.0, 4.0, 7 + sizes[a]);
        check_sorts(&k);
        keys1d_free(&k);
    }
    keys1d k; /* dmax = dmin: keys 0, 2, 4, ... in shuffled order, m = n */
    keys1d_generate(&k, 5000, 2.0, 2.0, 3);
    check_sorts(&k);
    keys1d_free(&k);
    /* introsort on adversarial orders: sorted, reversed, all equal keys, organ pipe */
    long n = 5000;
    qs_pair *a = malloc(sizeof(qs_pair) * n);
    for (int pat = 0; pat < 4; pat++) {
        for (long i = 0; i < n; i++) {
            a[i].idx = (int)i;
            a[i].key = pat == 0 ? i : pat == 1 ? n - i : pat == 2 ? 1.0 : (i < n / 2 ? i : n - i);
        }
        introsort_pairs(a, n);
        int ok = 1, perm = 1;
        char *seen = calloc(n, 1);
        for (long i = 0; i < n; i++) {
            if (i && a[i - 1].key > a[i].key) ok = 0;
            if (seen[a[i].idx]++) perm = 0;
        }
        T_CHECK(ok);
        T_CHECK(perm);
        free(seen);
    }
    free(a);
    /* radix bits: the smallest b with 2^b >= m */
    T_EQ_INT(radix_bits_for(1), 1);
    T_EQ_INT(radix_bits_for(2), 1);
    T_EQ_INT(radix_bits_for(3), 2);
    T_EQ_INT(radix_bits_for(1L << 22), 22);
    T_EQ_INT(radix_bits_for((1L << 22) + 1), 23);
    T_EQ_INT(radix_bits_for(1L << 32), 32);       /* keys 0 .. 2^32 - 1 still fit 32 bits */
    T_EQ_INT(radix_bits_for((1L << 32) + 1), 33); /* ... one more does not: callers must refuse */
    T_EQ_INT(radix_bits_for(6300000000L), 33);    /* clustered keys, alpha 0.7 (2.53e4 MB table) */
    T_EQ_INT(radix_passes(22), 2);
    T_EQ_INT(radix_passes(23), 3);
    T_EQ_INT(radix_passes(11), 1);
}

static void test_clustered(void)
{
    double alphas[] = {2.0, 1.0, 0.6};
    for (int a = 0; a < 3; a++) {
        keys1d k;
        keys1d_clustered(&k, 3000, 2.0, alphas[a], 11 + a);
        int ok = 1;
        for (long i = 0; i < k.n; i++) ok &= k.x[i] >= k.xmin && k.x[i] <= k.xmax && fmod(k.x[i], 2.0) == 0;
        T_CHECK(ok);
        T_CHECK(k.m >= k.n);
        if (k.m <= (1L << 28)) check_sorts(&k);
        keys1d_free(&k);
    }
    keys1d k; /* the heavier the tail, the larger the table for the same n */
    keys1d_clustered(&k, 20000, 2.0, 2.0, 1);
    long m2 = k.m;
    keys1d_free(&k);
    keys1d_clustered(&k, 20000, 2.0, 0.7, 1);
    T_CHECK(k.m > 10 * m2);
    keys1d_free(&k);
}

static void test_neigh_remap_table(void)
{
    /* 1D neighbours: omp hash, omp k-D tree, radix-sorted = serial hash */
    long n = 20011;
    keys1d k;
    keys1d_generate(&k, n, 2.0, 6.0, 5);
    int *t = malloc(sizeof(int) * k.m), *l0 = malloc(sizeof(int) * n), *r0 = malloc(sizeof(int) * n),
        *l1 = malloc(sizeof(int) * n), *r1 = malloc(sizeof(int) * n), *i2 = malloc(sizeof(int) * n),
        *ix = malloc(sizeof(int) * n);
    uint32_t *key = malloc(4 * n), *k2 = malloc(4 * n);
    long *hist = malloc(sizeof(long) * 8 * (1 << RADIX_MAX_DIGIT_BITS));
    hash_neigh1d_cpu(k.x, n, k.xmin, k.dmin, t, k.m, l0, r0);
    kd1 tree;
    tree.key = malloc(sizeof(double) * n);
    tree.idx = malloc(sizeof(int) * n);
    for (int a = 0; a < 4; a++) {
        memset(l1, 0xAB, sizeof(int) * n);
        hash_neigh1d_omp(k.x, n, k.xmin, k.dmin, t, k.m, l1, r1, THREADS[a]);
        T_CHECK(!verify_exact(l1, l0, n, sizeof(int), "l1") && !verify_exact(r1, r0, n, sizeof(int), "r1"));
        memset(l1, 0xAB, sizeof(int) * n);
        kd1_neigh1d_omp(&tree, k.x, n, l1, r1, THREADS[a]);
        T_CHECK(!verify_exact(l1, l0, n, sizeof(int), "l1") && !verify_exact(r1, r0, n, sizeof(int), "r1"));
        memset(l1, 0xAB, sizeof(int) * n);
        radix_neigh1d(k.x, n, k.xmin, k.dmin, radix_bits_for(k.m), key, ix, k2, i2, hist, l1, r1, THREADS[a]);
        T_CHECK(!verify_exact(l1, l0, n, sizeof(int), "l1") && !verify_exact(r1, r0, n, sizeof(int), "r1"));
    }
    free(t); free(l0); free(r0); free(l1); free(r1); free(i2); free(ix); free(key); free(k2); free(hist);
    free(tree.key); free(tree.idx);
    keys1d_free(&k);

    /* 2D: sort, neighbours (hash and k-D tree), remap on all cores = serial */
    amr_mesh m, mn;
    amr_generate(&m, 23, 23, 3, 0.4, 9);
    amr_generate(&mn, 23, 23, 3, 0.4, 10);
    long W = amr_width(&m), H = amr_height(&m), nc = m.n;
    int *tt = malloc(sizeof(int) * W * H), *s0 = malloc(sizeof(int) * nc), *s1 = malloc(sizeof(int) * nc);
    int *nb0 = malloc(sizeof(int) * 4 * nc), *nb1 = malloc(sizeof(int) * 4 * nc);
    uint32_t *kk = malloc(4 * nc), *kk2 = malloc(4 * nc);
    int *ii2 = malloc(sizeof(int) * nc);
    long *hh = malloc(sizeof(long) * 8 * (1 << RADIX_MAX_DIGIT_BITS)), cnt[8];
    hash_sort2d_cpu(m.i, m.j, m.lev, nc, m.levmax, W, H, tt, s0);
    hash_neigh2d_cpu(m.i, m.j, m.lev, nc, m.levmax, W, H, tt, nb0);
    kbox *bx = malloc(sizeof(kbox) * nc), *nbx = malloc(sizeof(kbox) * mn.n);
    amr_boxes(&m, bx);
    amr_boxes(&mn, nbx);
    kd2 kt;
    kd2_alloc(&kt, nc > mn.n ? nc : mn.n);
    field f;
    field2d_make(&f, &m, 1.0, 0.3, -0.2, 0.5, 40.0);
    double *o0 = malloc(sizeof(double) * mn.n), *o1 = malloc(sizeof(double) * mn.n);
    hash_remap2d_cpu(m.i, m.j, m.lev, nc, f.mean, f.gx, f.gy, mn.i, mn.j, mn.lev, mn.n, m.levmax, W, H, tt, o0);
    long cap = 4096;
    int *hits = malloc(sizeof(int) * 8 * cap);
    for (int a = 0; a < 4; a++) {
        int th = THREADS[a];
        memset(s1, 0xAB, sizeof(int) * nc);
        T_EQ_INT(hash_sort2d_omp(m.i, m.j, m.lev, nc, m.levmax, W, H, tt, s1, th, cnt), nc);
        T_CHECK(!verify_exact(s1, s0, nc, sizeof(int), "s1"));
        bucket_keys2d(m.i, m.j, m.lev, nc, m.levmax, W, kk, s1, th);
        radix_pairs(kk, s1, kk2, ii2, nc, radix_bits_for(W * H), th, hh);
        T_CHECK(!verify_exact(s1, s0, nc, sizeof(int), "s1"));
        memset(nb1, 0xAB, sizeof(int) * 4 * nc);
        hash_neigh2d_omp(m.i, m.j, m.lev, nc, m.levmax, W, H, tt, nb1, th);
        T_CHECK(!verify_exact(nb1, nb0, 4 * nc, sizeof(int), "nb1"));
        memset(nb1, 0xAB, sizeof(int) * 4 * nc);
        T_EQ_INT(kd2_neigh2d_omp(&kt, &m, bx, nb1, th), 0);
        T_CHECK(!verify_exact(nb1, nb0, 4 * nc, sizeof(int), "nb1"));
        memset(o1, 0xFF, sizeof(double) * mn.n);
        hash_remap2d_omp(m.i, m.j, m.lev, nc, f.mean, f.gx, f.gy, mn.i, mn.j, mn.lev, mn.n, m.levmax, W, H, tt, o1, th);
        T_CHECK(memcmp(o1, o0, sizeof(double) * mn.n) == 0);
        memset(o1, 0xFF, sizeof(double) * mn.n);
        T_EQ_INT(kd2_remap_omp(&kt, bx, nc, f.mean, f.gx, f.gy, nbx, mn.n, hits, cap, o1, th), 0);
        double worst = 0;
        for (long b = 0; b < mn.n; b++) {
            double e = fabs(o1[b] - o0[b]) / (fabs(o0[b]) + 1);
            if (!(e <= worst)) worst = e; /* NaN (poison left) counts as worst */
        }
        T_CHECK(worst < 1e-10);
    }
    /* an invalid mesh (a hole: one cell's box shrunk to nothing): a face query across the hole
     * finds no cell, and every thread count reports it (returns 1) as the serial tree does */
    kbox *hb = malloc(sizeof(kbox) * nc);
    memcpy(hb, bx, sizeof(kbox) * nc);
    long hole = nc / 2;
    hb[hole].x1 = hb[hole].x0;
    hb[hole].y1 = hb[hole].y0;
    T_EQ_INT(kd2_neigh2d(&kt, &m, hb, nb1), 1);
    for (int a = 0; a < 4; a++) T_EQ_INT(kd2_neigh2d_omp(&kt, &m, hb, nb1, THREADS[a]), 1);
    free(hb);
    free(tt); free(s0); free(s1); free(nb0); free(nb1); free(kk); free(kk2); free(ii2); free(hh);
    free(bx); free(nbx); free(o0); free(o1); free(hits);
    kd2_free(&kt);
    field_free(&f);

    /* 1D remap and table on all cores = serial (bitwise: the same operations per item) */
    mesh1d ma, mb;
    long L = mesh1d_generate(&ma, 3001, 0, 7, 1);
    mesh1d_generate(&mb, 0, L, 5, 2);
    field g;
    field1d_make(&g, &ma, 1.0, 0.01, 0.3, 50.0);
    int *t1 = malloc(sizeof(int) * L);
    double *r0d = malloc(sizeof(double) * mb.n), *r1d = malloc(sizeof(double) * mb.n);
    hash_remap1d_cpu(ma.lo, ma.hi, ma.n, g.mean, g.gx, mb.lo, mb.hi, mb.n, t1, L, r0d);
    eos_table e;
    eos_generate(&e);
    long nq = 10007;
    double *qx = malloc(sizeof(double) * nq), *qy = malloc(sizeof(double) * nq), *p0 = malloc(sizeof(double) * nq),
           *p1 = malloc(sizeof(double) * nq);
    eos_queries(&e, nq, qx, qy, 4);
    table_lookup_cpu(TAB_BISECT, e.p, e.rho, EOS_NRHO, e.temp, EOS_NT, qx, qy, nq, p0);
    for (int a = 0; a < 4; a++) {
        memset(r1d, 0xFF, sizeof(double) * mb.n);
        hash_remap1d_omp(ma.lo, ma.hi, ma.n, g.mean, g.gx, mb.lo, mb.hi, mb.n, t1, L, r1d, THREADS[a]);
        T_CHECK(memcmp(r1d, r0d, sizeof(double) * mb.n) == 0);
        memset(p1, 0xFF, sizeof(double) * nq);
        table_lookup_omp(TAB_BISECT, e.p, e.rho, EOS_NRHO, e.temp, EOS_NT, qx, qy, nq, p1, THREADS[a]);
        T_CHECK(memcmp(p1, p0, sizeof(double) * nq) == 0);
    }
    free(t1); free(r0d); free(r1d); free(qx); free(qy); free(p0); free(p1);
    field_free(&g);
    mesh1d_free(&ma);
    mesh1d_free(&mb);
    amr_free(&m);
    amr_free(&mn);
}

int main(void)
{
    test_sorts();
    test_clustered();
    test_neigh_remap_table();
    return T_DONE();
}
