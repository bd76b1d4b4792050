/* GPU tests of the issue-12 pipelines of hashmesh/kernels.cuh:
 *   gpu_radix32_sort1d  CUB radix on the 32-bit bucket index (end_bit = bits needed) = the
 *                       CPU hash order, at awkward sizes and for clustered keys (32-bit keys);
 *   gpu_ch_neigh2d      compact-hash neighbours (atomicCAS insert, probing reads) = the CPU
 *                       compact hash (compact.h) = the perfect hash, on random AMR meshes,
 *                       corner-refined meshes up to levmax 16 (a perfect table of 2^48
 *                       buckets: compact only), and at load factor 0.95 (long probe runs).
 * Outputs poisoned before every run; a second run on the dirty table gives the same.
 * Exit 77 with no GPU. */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/best.h"
#include "../../hashmesh/compact.h"
#include "../../hashmesh/kernels.cuh"
#include "hashmesh_dev.cuh"

/* radix32 on keys k vs the CPU hash order (ref computed here) */
static void check_radix32(const keys1d *k)
{
    long n = k->n;
    int *t = (int *)malloc(sizeof(int) * k->m), *ref = (int *)malloc(sizeof(int) * n);
    T_EQ_INT(hash_sort1d_cpu(k->x, n, k->xmin, k->dmin, t, k->m, ref, NULL), n);
    gpu_radix32_ctx q;
    q.x = (const double *)up(k->x, sizeof(double) * n);
    q.n = (int)n; q.xmin = k->xmin; q.dmin = k->dmin; q.end_bit = radix_bits_for(k->m);
    q.kin = (unsigned *)dalloc(4 * n); q.kout = (unsigned *)dalloc(4 * n);
    q.vin = (int *)dalloc(4 * n); q.vout = (int *)dalloc(4 * n);
    q.tmp_bytes = gpu_radix32_bytes((int)n, q.end_bit);
    q.tmp = dalloc(q.tmp_bytes);
    for (int rep = 0; rep < 2; rep++) {
        CHECK_CUDA(cudaMemset(q.vout, 0xAB, 4 * n));
        gpu_radix32_sort1d(&q, 0);
        T_CHECK(dev_same(q.vout, ref, 4 * n));
    }
    unsigned *keys = (unsigned *)malloc(4 * n);
    down(keys, q.kout, 4 * n);
    int asc = 1;
    for (long i = 1; i < n; i++) asc &= keys[i - 1] < keys[i];
    T_CHECK(asc);
    const void *fr[] = {q.x, q.kin, q.kout, q.vin, q.vout, q.tmp};
    for (int a = 0; a < 6; a++) CHECK_CUDA(cudaFree((void *)fr[a]));
    free(t); free(ref); free(keys);
}

/* GPU compact neighbours = CPU compact (= perfect where it fits) */
static void check_compact(const amr_mesh *m, double load)
{
    long n = m->n, W = amr_width(m), H = amr_height(m), cap = ch_capacity(n, load);
    uint64_t *keys = (uint64_t *)malloc(sizeof(uint64_t) * cap);
    int *vals = (int *)malloc(sizeof(int) * cap), *ref = (int *)malloc(sizeof(int) * 4 * n);
    T_EQ_INT(ch_neigh2d_cpu(keys, vals, cap, m->i, m->j, m->lev, n, m->levmax, W, H, ref), 0);
    if ((double)W * H <= 1e8) {
        int *t = (int *)malloc(sizeof(int) * W * H), *p = (int *)malloc(sizeof(int) * 4 * n);
        hash_neigh2d_cpu(m->i, m->j, m->lev, n, m->levmax, W, H, t, p);
        T_CHECK(memcmp(p, ref, sizeof(int) * 4 * n) == 0);
        free(t); free(p);
    }
    gpu_ch_ctx g;
    g.n = (int)n; g.levmax = m->levmax; g.W = W; g.H = H; g.cap = cap;
    g.ci = (const int *)up(m->i, 4 * n); g.cj = (const int *)up(m->j, 4 * n); g.lev = (const int *)up(m->lev, 4 * n);
    g.keys = (unsigned long long *)dalloc(8 * cap);
    g.vals = (int *)dalloc(4 * cap);
    g.nb = (int *)dalloc(16 * n);
    for (int rep = 0; rep < 2; rep++) {
        CHECK_CUDA(cudaMemset(g.nb, 0xAB, 16 * n));
        gpu_ch_neigh2d(&g, 0);
        T_CHECK(dev_same(g.nb, ref, 16 * n));
    }
    const void *fr[] = {g.ci, g.cj, g.lev, g.keys, g.vals, g.nb};
    for (int a = 0; a < 6; a++) CHECK_CUDA(cudaFree((void *)fr[a]));
    free(keys); free(vals); free(ref);
}

int main(void)
{
    device_require(0, 7, 5);
    long sizes[] = {1, 2, 3, 1000, 65537, (1L << 20) + 3};
    for (int a = 0; a < 6; a++) {
        keys1d k;
        keys1d_generate(&k, sizes[a], 2.0, a % 2 ? 2.0 : 6.0, 5 + a);
        check_radix32(&k);
        keys1d_free(&k);
    }
    keys1d c; /* clustered (Pareto gaps, alpha 0.9): 5.2 million buckets, a 23-bit key */
    keys1d_clustered(&c, 100000, 2.0, 0.9, 3);
    if (c.m < 2147483647L) check_radix32(&c);
    T_CHECK(radix_bits_for(c.m) > 20);
    keys1d_free(&c);
    for (int lm = 0; lm <= 3; lm++) {
        amr_mesh m;
        amr_generate(&m, 37, 29, lm, 0.35, 40 + lm);
        check_compact(&m, CH_MAX_LOAD);
        check_compact(&m, 0.95);
        amr_free(&m);
    }
    int levs[] = {0, 3, 7, 16};
    for (int a = 0; a < 4; a++) {
        amr_mesh m;
        amr_corner_generate(&m, 32, levs[a], 8, 9 + a);
        check_compact(&m, CH_MAX_LOAD);
        amr_free(&m);
    }
    return T_DONE();
}
