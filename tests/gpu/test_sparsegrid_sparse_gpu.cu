/* GPU tests of sparsegrid/sparse_kernels.cuh: batched hierarchization and dehierarchization of
 * regular sparse grids with boundary (d = 1..6) on the GPU equal the pole-wise CPU reference
 * bitwise (float and double), computed offsets and the offset table, staged in shared memory and in global memory, with block
 * sizes 64..512, grid caps that make a block walk many grids, in place and out of place;
 * full grids straight from the plain layout into subspace order and back (== the full-grid
 * CPU version permuted); outputs are poisoned (NaN) first.  k_sparse_multi (sparse_multi.cuh:
 * G grids per block, U table entries in flight per thread) likewise: d = 1..6, float and
 * double, G = 1..4 and auto, U = 1, 2, 4, block sizes 64..512, batches not a multiple of G
 * and smaller than G, few blocks walking many groups, in and out of place, both directions.
 * Exit 77 without a GPU. */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../sparsegrid/hierarchize.h"
#include "../../sparsegrid/sparse.h"
#include "../../sparsegrid/sparse_kernels.cuh"
#include "../../sparsegrid/sparse_multi.cuh"
#include "sparsegrid_batch.cuh"

template <typename T>
static void check(int d, int n, long long G, int threads, int max_blocks, int global, int in_place, int table = 0)
{
    sgs_grid g;
    char err[200];
    T_CHECK(sgs_init(&g, d, n, err, sizeof err) == 0);
    batch_t<T> b;
    batch_make(&b, &g, G, 77 * G + n);
    sgs_dev dv;
    T_CHECK(sgs_dev_setup(&dv, &g, sizeof(T), threads, 0, max_blocks, table) == 0);
    if (global) { dv.staged = 0; dv.smem = 0; } /* force the in-global-memory path */
    for (int inv = 0; inv < 2; inv++) {
        T *dst = in_place ? b.d_a : b.d_b;
        batch_upload(&b, G, b.d_a, dst);
        sgs_dev_run<T>(&dv, b.d_a, dst, G, inv, 0);
        if (!batch_same(&b, G, dst, inv))
            printf("  %s d=%d n=%d G=%lld threads=%d max_blocks=%d %s %s %s %s\n", sizeof(T) == 4 ? "float" : "double", d, n,
                   G, threads, max_blocks, global ? "global" : "staged", table ? "table" : "computed", in_place ? "in place" : "out of place",
                   inv ? "dehierarchization" : "hierarchization");
    }
    sgs_dev_free(&dv);
    batch_free(&b);
    sgs_free(&g);
}

/* k_sparse_multi with G grids per block (0: the planner's choice) and U entries in flight: ==
 * the pole-wise reference bitwise.  A plan refused is accepted only when G grids do not fit
 * the shared memory of a block (-1) or a block's registers exceed the SM's (-2). */
template <typename T>
static void check_multi(int d, int n, long long ngrids, int threads, int G, int U, int max_blocks, int in_place)
{
    sgs_grid g;
    char err[200];
    T_CHECK(sgs_init(&g, d, n, err, sizeof err) == 0);
    long long N = g.npts;
    sgs_multi m;
    int rc = sgs_multi_setup(&m, &g, sizeof(T), threads, G, U, 0, max_blocks);
    if (rc == -2) { /* refused by registers: must really exceed the SM's register file */
        int regs_sm = 0;
        CHECK_CUDA(cudaDeviceGetAttribute(&regs_sm, cudaDevAttrMaxRegistersPerMultiprocessor, 0));
        T_CHECK((long long)m.regs * threads > regs_sm);
        printf("  multi %s d=%d G=%d U=%d threads=%d: refused, %d registers x %d threads > %d\n",
               sizeof(T) == 4 ? "float" : "double", d, m.G, m.U, threads, m.regs, threads, regs_sm);
        sgs_free(&g);
        return;
    }
    if (rc) {
        int optin = 0;
        CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
        T_CHECK(G > 0 && (long long)G * N * (long long)sizeof(T) > optin);
        sgs_free(&g);
        return;
    }
    T_CHECK(m.G >= 1 && m.G <= SGS_MULTI_GMAX && (G == 0 || m.G == G) && m.per_sm >= 1);
    batch_t<T> b;
    batch_make(&b, &g, ngrids, 31 * ngrids + 7 * n + d);
    for (int inv = 0; inv < 2; inv++) {
        T *dst = in_place ? b.d_a : b.d_b;
        batch_upload(&b, ngrids, b.d_a, dst);
        sgs_multi_run<T>(&m, b.d_a, dst, ngrids, inv, 0);
        if (!batch_same(&b, ngrids, dst, inv))
            printf("  multi %s d=%d n=%d ngrids=%lld threads=%d G=%d (asked %d) U=%d max_blocks=%d %s %s\n",
                   sizeof(T) == 4 ? "float" : "double", d, n, ngrids, threads, m.G, G, U, max_blocks,
                   in_place ? "in place" : "out of place", inv ? "dehierarchization" : "hierarchization");
    }
    sgs_multi_free(&m);
    batch_free(&b);
    sgs_free(&g);
}

/* Full grids straight into subspace order and back: the plain layout (dims) hierarchized by
 * k_sparse with the permutation == the CPU's full-grid hierarchization permuted, bitwise;
 * dehierarchization from subspace order back into the plain layout likewise. */
static void check_full(const char *dims, long long G, int threads, int table)
{
    sg_geom fg;
    sgs_grid g;
    char err[200];
    T_CHECK(sg_parse_dims(dims, &fg, err, sizeof err) == 0);
    T_CHECK(sgs_init_full(&g, fg.d, fg.l, err, sizeof err) == 0);
    long long N = g.npts, cnt = G * N;
    size_t bytes = sizeof(float) * cnt;
    float *h = (float *)malloc(bytes), *plain = (float *)malloc(bytes), *sub = (float *)malloc(bytes),
          *got = (float *)malloc(bytes);
    long long *perm = (long long *)malloc(sizeof(long long) * N);
    sgs_full_perm(&g, perm);
    for (long long i = 0; i < cnt; i++) h[i] = (float)rnd(i + 5 * N);
    sgs_dev dv;
    T_CHECK(sgs_dev_setup(&dv, &g, sizeof(float), threads, 0, 3, table) == 0);
    T_CHECK(sgs_dev_use_full_layout(&dv, &g) == 0);
    float *d_a, *d_b;
    CHECK_CUDA(cudaMalloc(&d_a, bytes));
    CHECK_CUDA(cudaMalloc(&d_b, bytes));
    for (int inv = 0; inv < 2; inv++) {
        T_CHECK(sg_cpu_tuned(h, plain, G, &fg, inv, 2) == 0); /* the plain layout on the CPU */
        for (long long t = 0; t < G; t++)
            for (long long i = 0; i < N; i++) sub[t * N + i] = (inv ? h : plain)[t * N + perm[i]];
        /* forward: plain in, subspace order out; inverse: subspace order in, plain out */
        CHECK_CUDA(cudaMemcpy(d_a, inv ? sub : h, bytes, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemset(d_b, 0xFF, bytes));
        sgs_dev_run<float>(&dv, d_a, d_b, G, inv, 0);
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(got, d_b, bytes, cudaMemcpyDeviceToHost));
        int same = !memcmp(got, inv ? plain : sub, bytes);
        T_CHECK(same);
        if (!same) printf("  full %s G=%lld threads=%d %s %s\n", dims, G, threads, table ? "table" : "computed", inv ? "inverse" : "forward");
    }
    sgs_dev_free(&dv);
    CHECK_CUDA(cudaFree(d_a));
    CHECK_CUDA(cudaFree(d_b));
    free(h); free(plain); free(sub); free(got); free(perm);
    sgs_free(&g);
}

int main(void)
{
    device_require(0, 7, 5);
    static const int nmax[7] = {0, 10, 8, 6, 5, 4, 3};
    for (int d = 1; d <= 6; d++)
        for (int n = 1; n <= nmax[d]; n++) {
            check<float>(d, n, 7, 256, 0, 0, 0);
            check<double>(d, n, 5, 128, 0, 0, 0);
            check<float>(d, n, 3, 64, 0, 1, 0);
            check<float>(d, n, 4, 256, 0, 0, 0, 1);  /* offset table */
            check<double>(d, n, 3, 128, 0, 1, 1, 1); /* offset table, global memory, in place */
        }
    /* block sizes, few blocks walking many grids, in place, both paths */
    int th[4] = {64, 128, 256, 512};
    for (int i = 0; i < 4; i++) {
        check<float>(3, 6, 300, th[i], 7, 0, 0);
        check<float>(4, 5, 50, th[i], 3, 0, 1);
        check<double>(6, 3, 40, th[i], 5, 0, 1);
        check<float>(2, 9, 20, th[i], 4, 1, 1);
        check<float>(5, 4, 30, th[i], 3, 0, 0, 1);
    }
    /* k_sparse_multi: every d and level, both precisions, rotating over G, U, block sizes */
    for (int d = 1, ci = 0; d <= 6; d++)
        for (int n = 1; n <= nmax[d]; n++, ci++) {
            int G = 1 + ci % 4, U = 1 << (ci % 3), th = 64 << (ci % 4);
            check_multi<float>(d, n, 2 * G + 1, th, G, U, 0, ci % 2);       /* last group partial (G > 1) */
            check_multi<double>(d, n, G + 2, 512 >> (ci % 4), 0, 4 >> (ci % 3), 3, (ci + 1) % 2);
            check_multi<float>(d, n, 1, 128, 4, 2, 0, 0);                   /* one grid, fewer than G */
        }
    /* the sweep's levels (exp_sparse.cuh SPARSE_LEVEL): every G and U, several block sizes,
     * 3 blocks walking many groups, batches not a multiple of G */
    static const int level[7] = {0, 12, 9, 7, 5, 4, 3};
    for (int d = 1; d <= 6; d++)
        for (int G = 0; G <= 4; G++)
            for (int U = 1; U <= 4; U *= 2) {
                check_multi<float>(d, level[d], 37, 128 << (G % 3), G, U, 3, G % 2);
                check_multi<double>(d, level[d], 23, 512 >> (U / 2), G, U, 0, U % 2);
            }
    const char *full[] = {"33x33", "9x9x9", "9x9x5x5", "17x5", "3x9x3x5", "129x129"};
    for (int i = 0; i < 6; i++) {
        check_full(full[i], 40, 256, 0);
        check_full(full[i], 17, 128, 1);
    }
    /* a grid too large for shared memory: the global path chosen by the planner */
    {
        sgs_grid g;
        char err[200];
        T_CHECK(sgs_init(&g, 2, 14, err, sizeof err) == 0);
        sgs_dev dv;
        T_CHECK(sgs_dev_setup(&dv, &g, sizeof(float), 256, 0, 0, 0) == 0);
        T_CHECK(!dv.staged);
        sgs_dev_free(&dv);
        T_CHECK(sgs_dev_setup(&dv, &g, sizeof(float), 256, 0, 0, 1) == -1); /* > 65536 points: no table */
        sgs_dev_free(&dv);
        sgs_free(&g);
        check<float>(2, 14, 3, 256, 0, 0, 0);
    }
    return T_DONE();
}
