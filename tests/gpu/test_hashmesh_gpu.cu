/* GPU tests of hashmesh/kernels.cuh: every GPU hash pipeline against the CPU hash code on
 * the same inputs, at awkward sizes (1, primes, non powers of two, levmax > 1).
 * Sorts and neighbours: bit-identical indices.  Remap: within 1e-10 (FMA contraction on the
 * device), totals conserved.  Table: within 1e-10 of the CPU hash, with queries exactly at each
 * axis maximum (the far corner gives the last table value on both sides).  Exit 77 with no GPU. */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/kernels.cuh"
#include "hashmesh_dev.cuh"

/* running maximum of |got - ref| in which a NaN (an output left at its NaN poison) sticks:
 * `if (!(d <= md)) md = d` would let the next finite difference overwrite it */
static double max_diff(double md, double d) { return isnan(md) || isnan(d) ? NAN : d > md ? d : md; }

static void test_1d(long n, double ratio)
{
    keys1d k;
    keys1d_generate(&k, n, 2.0, 2.0 * ratio, 11 + n);
    int *t = (int *)malloc(sizeof(int) * k.m), *ref = (int *)malloc(sizeof(int) * n);
    int *l = (int *)malloc(sizeof(int) * n), *r = (int *)malloc(sizeof(int) * n);
    double *sorted = (double *)malloc(sizeof(double) * n);
    hash_sort1d_cpu(k.x, n, k.xmin, k.dmin, t, k.m, ref, sorted);
    hash_neigh1d_cpu(k.x, n, k.xmin, k.dmin, t, k.m, l, r);
    gpu_hash_ctx g;
    memset(&g, 0, sizeof g);
    g.n = (int)n; g.m = k.m; g.xmin = k.xmin; g.dmin = k.dmin;
    g.x = (const double *)up(k.x, sizeof(double) * n);
    CHECK_CUDA(cudaMalloc(&g.t, sizeof(int) * k.m));
    CHECK_CUDA(cudaMalloc(&g.off, sizeof(int) * k.m));
    g.tmp_bytes = hm_scan_bytes(k.m);
    CHECK_CUDA(cudaMalloc(&g.tmp, g.tmp_bytes));
    CHECK_CUDA(cudaMalloc(&g.idx, sizeof(int) * n));
    CHECK_CUDA(cudaMalloc(&g.sorted, sizeof(double) * n));
    CHECK_CUDA(cudaMalloc(&g.left, sizeof(int) * n));
    CHECK_CUDA(cudaMalloc(&g.right, sizeof(int) * n));
    CHECK_CUDA(cudaMemset(g.idx, 0xAB, sizeof(int) * n));
    gpu_hash_sort1d(&g, 0);
    T_CHECK(dev_same(g.idx, ref, sizeof(int) * n));
    T_CHECK(dev_same(g.sorted, sorted, sizeof(double) * n));
    gpu_hash_sort1d(&g, 0); /* a second run (the table is dirty) gives the same */
    T_CHECK(dev_same(g.idx, ref, sizeof(int) * n));
    CHECK_CUDA(cudaMemset(g.left, 0xAB, sizeof(int) * n));
    CHECK_CUDA(cudaMemset(g.right, 0xAB, sizeof(int) * n));
    gpu_hash_neigh1d(&g, 0);
    T_CHECK(dev_same(g.left, l, sizeof(int) * n));
    T_CHECK(dev_same(g.right, r, sizeof(int) * n));
    void *fr[] = {(void *)g.x, g.t, g.off, g.tmp, g.idx, g.sorted, g.left, g.right};
    for (int a = 0; a < 8; a++) CHECK_CUDA(cudaFree(fr[a]));
    free(t); free(ref); free(l); free(r); free(sorted);
    keys1d_free(&k);
}

static void test_2d(int nx, int ny, int levmax, double frac)
{
    amr_mesh m, m2;
    amr_generate(&m, nx, ny, levmax, frac, 21 + nx);
    amr_generate(&m2, nx, ny, levmax, frac, 22 + ny);
    long n = m.n, W = amr_width(&m), H = amr_height(&m);
    int *t = (int *)malloc(sizeof(int) * W * H), *ref = (int *)malloc(sizeof(int) * 4 * n);
    gpu_hash_ctx g;
    memset(&g, 0, sizeof g);
    g.n = (int)n; g.levmax = levmax; g.W = W; g.H = H; g.m = W * H;
    g.ci = (const int *)up(m.i, sizeof(int) * n);
    g.cj = (const int *)up(m.j, sizeof(int) * n);
    g.lev = (const int *)up(m.lev, sizeof(int) * n);
    CHECK_CUDA(cudaMalloc(&g.t, sizeof(int) * W * H));
    CHECK_CUDA(cudaMalloc(&g.off, sizeof(int) * W * H));
    g.tmp_bytes = hm_scan_bytes(W * H);
    CHECK_CUDA(cudaMalloc(&g.tmp, g.tmp_bytes));
    CHECK_CUDA(cudaMalloc(&g.idx, sizeof(int) * n));
    CHECK_CUDA(cudaMalloc(&g.nb, sizeof(int) * 4 * n));
    /* sort 2D */
    hash_sort2d_cpu(m.i, m.j, m.lev, n, levmax, W, H, t, ref);
    CHECK_CUDA(cudaMemset(g.idx, 0xAB, sizeof(int) * n));
    gpu_hash_sort2d(&g, 0);
    T_CHECK(dev_same(g.idx, ref, sizeof(int) * n));
    /* neighbours 2D */
    hash_neigh2d_cpu(m.i, m.j, m.lev, n, levmax, W, H, t, ref);
    CHECK_CUDA(cudaMemset(g.nb, 0xAB, sizeof(int) * 4 * n));
    gpu_hash_neigh2d(&g, 0);
    T_CHECK(dev_same(g.nb, ref, sizeof(int) * 4 * n));
    /* remap 2D */
    field f;
    field2d_make(&f, &m, 2.0, 0.01, -0.02, 0.5, W / 3.0 + 1);
    double *cr = (double *)malloc(sizeof(double) * m2.n), *gr = (double *)malloc(sizeof(double) * m2.n);
    hash_remap2d_cpu(m.i, m.j, m.lev, n, f.mean, f.gx, f.gy, m2.i, m2.j, m2.lev, m2.n, levmax, W, H, t, cr);
    gpu_remap_ctx rc;
    memset(&rc, 0, sizeof rc);
    rc.na = (int)n; rc.nb = (int)m2.n; rc.levmax = levmax; rc.W = W; rc.H = H;
    rc.oi = g.ci; rc.oj = g.cj; rc.ol = g.lev;
    rc.ni = (const int *)up(m2.i, sizeof(int) * m2.n);
    rc.nj = (const int *)up(m2.j, sizeof(int) * m2.n);
    rc.nl = (const int *)up(m2.lev, sizeof(int) * m2.n);
    rc.mean = (const double *)up(f.mean, sizeof(double) * n);
    rc.gx = (const double *)up(f.gx, sizeof(double) * n);
    rc.gy = (const double *)up(f.gy, sizeof(double) * n);
    rc.t = g.t;
    CHECK_CUDA(cudaMalloc(&rc.out, sizeof(double) * m2.n));
    CHECK_CUDA(cudaMemset(rc.out, 0xFF, sizeof(double) * m2.n));
    gpu_hash_remap2d(&rc, 0);
    CHECK_CUDA(cudaDeviceSynchronize());
    down(gr, rc.out, sizeof(double) * m2.n);
    double md = 0, tc = 0, tg = 0;
    for (long b = 0; b < m2.n; b++) {
        double d = fabs(gr[b] - cr[b]);
        md = max_diff(md, d);
        tc += cr[b];
        tg += gr[b];
    }
    T_NEAR(md, 0, 1e-10);
    T_NEAR(tg, tc, 1e-9 * fabs(tc));
    void *fr[] = {(void *)g.ci, (void *)g.cj, (void *)g.lev, g.t, g.off, g.tmp, g.idx, g.nb, (void *)rc.ni, (void *)rc.nj,
                  (void *)rc.nl, (void *)rc.mean, (void *)rc.gx, (void *)rc.gy, rc.out};
    for (int a = 0; a < 15; a++) CHECK_CUDA(cudaFree(fr[a]));
    free(t); free(ref); free(cr); free(gr);
    field_free(&f);
    amr_free(&m); amr_free(&m2);
}

static void test_remap1d(long n)
{
    mesh1d o, w;
    long L = mesh1d_generate(&o, n, 0, 2, 31 + n);
    mesh1d_generate(&w, 0, L, 2, 32 + n);
    field f;
    field1d_make(&f, &o, 2.0, 0.001, 1.0, L / 4.0 + 1);
    int *t = (int *)malloc(sizeof(int) * L);
    double *cr = (double *)malloc(sizeof(double) * w.n), *gr = (double *)malloc(sizeof(double) * w.n);
    hash_remap1d_cpu(o.lo, o.hi, o.n, f.mean, f.gx, w.lo, w.hi, w.n, t, L, cr);
    gpu_remap_ctx rc;
    memset(&rc, 0, sizeof rc);
    rc.na = (int)o.n; rc.nb = (int)w.n; rc.L = L;
    rc.olo = (const int *)up(o.lo, sizeof(int) * o.n);
    rc.ohi = (const int *)up(o.hi, sizeof(int) * o.n);
    rc.nlo = (const int *)up(w.lo, sizeof(int) * w.n);
    rc.nhi = (const int *)up(w.hi, sizeof(int) * w.n);
    rc.mean = (const double *)up(f.mean, sizeof(double) * o.n);
    rc.gx = (const double *)up(f.gx, sizeof(double) * o.n);
    CHECK_CUDA(cudaMalloc(&rc.t, sizeof(int) * L));
    CHECK_CUDA(cudaMalloc(&rc.out, sizeof(double) * w.n));
    CHECK_CUDA(cudaMemset(rc.out, 0xFF, sizeof(double) * w.n));
    gpu_hash_remap1d(&rc, 0);
    CHECK_CUDA(cudaDeviceSynchronize());
    down(gr, rc.out, sizeof(double) * w.n);
    double md = 0;
    for (long b = 0; b < w.n; b++) {
        double d = fabs(gr[b] - cr[b]);
        md = max_diff(md, d);
    }
    T_NEAR(md, 0, 1e-10);
    void *fr[] = {(void *)rc.olo, (void *)rc.ohi, (void *)rc.nlo, (void *)rc.nhi, (void *)rc.mean, (void *)rc.gx, rc.t, rc.out};
    for (int a = 0; a < 8; a++) CHECK_CUDA(cudaFree(fr[a]));
    free(t); free(cr); free(gr);
    field_free(&f);
    mesh1d_free(&o); mesh1d_free(&w);
}

static void test_table(long nq, int blocks)
{
    eos_table e;
    eos_generate(&e);
    double *qx = (double *)malloc(sizeof(double) * nq), *qy = (double *)malloc(sizeof(double) * nq);
    double *cr = (double *)malloc(sizeof(double) * nq), *gr = (double *)malloc(sizeof(double) * nq);
    eos_queries(&e, nq, qx, qy, 41 + nq);
    qx[0] = e.rho[0]; qy[0] = e.temp[0];
    if (nq >= 3) { /* each axis maximum, exactly: the last cell, never a slot past the table */
        qx[nq / 2] = e.rho[EOS_NRHO - 1]; qy[nq / 2] = e.temp[EOS_NT / 2];
        qx[nq - 1] = e.rho[EOS_NRHO - 1]; qy[nq - 1] = e.temp[EOS_NT - 1];
    }
    table_lookup_cpu(TAB_HASH, e.p, e.rho, EOS_NRHO, e.temp, EOS_NT, qx, qy, nq, cr);
    gpu_table_ctx g;
    g.nx = EOS_NRHO; g.ny = EOS_NT; g.nq = nq; g.blocks = blocks;
    g.data = (const double *)up(e.p, sizeof e.p);
    g.xaxis = (const double *)up(e.rho, sizeof e.rho);
    g.yaxis = (const double *)up(e.temp, sizeof e.temp);
    g.qx = (const double *)up(qx, sizeof(double) * nq);
    g.qy = (const double *)up(qy, sizeof(double) * nq);
    CHECK_CUDA(cudaMalloc(&g.out, sizeof(double) * nq));
    CHECK_CUDA(cudaMemset(g.out, 0xFF, sizeof(double) * nq));
    gpu_table_hash(&g, 0);
    CHECK_CUDA(cudaDeviceSynchronize());
    down(gr, g.out, sizeof(double) * nq);
    double md = 0;
    for (long q = 0; q < nq; q++) {
        double d = fabs(gr[q] - cr[q]) / (1 + fabs(cr[q]));
        md = max_diff(md, d);
    }
    T_NEAR(md, 0, 1e-10);
    if (nq >= 3) { /* at the far corner the table's last value, on both sides */
        T_NEAR(gr[nq - 1], e.p[EOS_NT * EOS_NRHO - 1], 1e-12 * fabs(e.p[EOS_NT * EOS_NRHO - 1]));
        T_NEAR(cr[nq - 1], e.p[EOS_NT * EOS_NRHO - 1], 1e-12 * fabs(e.p[EOS_NT * EOS_NRHO - 1]));
    }
    void *fr[] = {(void *)g.data, (void *)g.xaxis, (void *)g.yaxis, (void *)g.qx, (void *)g.qy, g.out};
    for (int a = 0; a < 6; a++) CHECK_CUDA(cudaFree(fr[a]));
    free(qx); free(qy); free(cr); free(gr);
}

int main(void)
{
    device_require(0, 7, 5);
    long ns[] = {1, 2, 3, 31, 1000, 65537, 1000003};
    for (int a = 0; a < 7; a++) test_1d(ns[a], 2.0);
    test_1d(100003, 32.0);
    test_1d(4099, 1.0);
    test_2d(1, 1, 0, 0.3);
    test_2d(1, 1, 3, 1.0);
    test_2d(7, 5, 1, 0.3);
    test_2d(33, 17, 2, 0.3);
    test_2d(500, 300, 1, 0.3);
    test_2d(60, 50, 4, 0.1);
    long rn[] = {1, 2, 100, 100003};
    for (int a = 0; a < 4; a++) test_remap1d(rn[a]);
    test_table(1, 1);
    test_table(1000, 3);
    test_table(1000003, 132 * 8);
    return T_DONE();
}
