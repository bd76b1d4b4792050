/* GPU tests of sparsegrid/sparse_cluster.cuh (k_sparse_clu: one sparse grid split across the two
 * blocks of a cluster, the halves in each block's shared memory, the other half reached through
 * distributed shared memory): batched hierarchization and dehierarchization equal the pole-wise
 * CPU reference sgs_ref_f/d bitwise, d = 2..6, float and double, every level from 1 (the smallest
 * grids, where a half may hold no 16-byte vector at all) to the largest whose half fits the shared
 * memory of a block, M = 3 and 4 pole levels per task, block sizes 32..512, batches of 1, 3, 7
 * and (the sweep's levels) 41 / 23 grids -- odd counts, so the clusters walk different numbers
 * of grids and the last grid is alone --, one cluster walking every grid (its mbarrier phase
 * flips, its buffer is reused), in and out of place, grids starting off a 16-byte boundary (the
 * scalar head and tail of each half).  Outputs are poisoned (NaN) first.  A plan may be refused
 * only when its half grid does not fit the shared memory of a block (-1) or its cluster does not
 * fit the GPU (-2, large blocks only).
 *   --small   a few cases (for compute-sanitizer; also with TEST_QUICK=1 in the environment)
 * Exit 77 without a GPU or on a GPU without clusters (before sm_90). */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../sparsegrid/sparse_cluster.cuh"
#include "sparsegrid_batch.cuh"

/* One plan on the first ngrids grids of b: == the reference, both directions. */
template <typename T>
static void check(batch_t<T> *b, long long ngrids, int M, int threads, int max_blocks, int in_place, int offset)
{
    const sgs_grid *g = b->g;
    sgst_gpu s;
    char err[200];
    int rc = sgcl_gpu_setup(&s, g, sizeof(T), M, threads, 0, max_blocks, err, sizeof err);
    if (rc == -1) { /* refused: only when the half grid and the class bounds do not fit a block */
        int optin = 0;
        CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
        sgst_plan pl;
        T_CHECK(sgst_plan_build2(&pl, g, M, 0, 0, err, sizeof err) == 0);
        long long need = 16 + sgsp_cls_bytes(pl.nlist, M) + (long long)sgcl_bufelems(g->npts, sgcl_split_of(g), sizeof(T)) * (long long)sizeof(T);
        sgst_plan_free(&pl);
        T_CHECK(need > optin);
        return;
    }
    if (rc == -2) {
        printf("  %s d=%d n=%d M=%d threads=%d: refused (%s)\n", sizeof(T) == 4 ? "float" : "double", g->d, g->n, M, threads,
               err);
        T_CHECK(threads >= 256);
        return;
    }
    T_CHECK(rc == 0 && s.blocks >= SGCL_CTAS && s.blocks % SGCL_CTAS == 0);
    T *a = b->d_a + offset, *o = in_place ? a : b->d_b + offset;
    for (int inv = 0; inv < 2; inv++) {
        batch_upload(b, ngrids, a, o);
        sgcl_gpu_run<T>(&s, a, o, ngrids, inv, 0);
        if (!batch_same(b, ngrids, o, inv))
            printf("  %s d=%d n=%d ngrids=%lld M=%d threads=%d max_blocks=%d %s offset %d %s\n",
                   sizeof(T) == 4 ? "float" : "double", g->d, g->n, ngrids, M, threads, max_blocks,
                   in_place ? "in place" : "out of place", offset, inv ? "dehierarchization" : "hierarchization");
    }
    sgst_gpu_free(&s);
}

/* Both instantiations on one grid and batch: block sizes, caps and placements rotate with ci. */
template <typename T>
static void check_grid(const sgs_grid *g, long long ngrids, int ci, int small)
{
    batch_t<T> b;
    batch_make(&b, g, ngrids, 7000003ULL * (unsigned long long)(g->d * 31 + g->n) + sizeof(T));
    for (int M = 3; M <= (small ? 3 : 4); M++) {
        int c = ci + M, threads = 32 << (c % 5);
        check<T>(&b, ngrids, M, threads, c % 3 ? 0 : SGCL_CTAS, c % 2, (c / 2) % 2);
        if (!small) check<T>(&b, ngrids, M, 64 << (c % 3), SGCL_CTAS, (c + 1) % 2, (c / 2 + 1) % 2); /* one cluster */
    }
    batch_free(&b);
}

int main(int argc, char **argv)
{
    const char *quick = getenv("TEST_QUICK"); /* tests/run.sh sets it for its compute-sanitizer pass */
    int small = (argc > 1 && !strcmp(argv[1], "--small")) || (quick && !strcmp(quick, "1"));
    device_require(0, 7, 5);
    int major = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    if (major < 9) {
        fprintf(stderr, "SKIP: k_sparse_clu needs thread-block clusters (sm_90), device is sm_%d.x\n", major);
        return 77;
    }
    char err[200];
    /* levels 1 .. the largest whose half fits 227 KiB in double (the sweep's levels and one more) */
    static const int NMAX[SGS_MAXD + 1] = {0, 15, 11, 8, 6, 5, 4};
    static const int NMAX_SMALL[SGS_MAXD + 1] = {0, 5, 3, 2, 2, 2, 2};
    static const long long NG[3] = {1, 3, 7};
    for (int d = 2, ci = 0; d <= SGS_MAXD; d++)
        for (int n = 1; n <= (small ? NMAX_SMALL[d] : NMAX[d]); n++, ci++) {
            sgs_grid g;
            T_CHECK(sgs_init(&g, d, n, err, sizeof err) == 0);
            long long ng = small ? 3 : NG[ci % 3];
            check_grid<float>(&g, ng, ci, small);
            check_grid<double>(&g, ng, ci + 1, small);
            sgs_free(&g);
        }
    /* the sweep's levels (exp_sparse.cuh SPARSE_LEVEL): every block size, 41 / 23 grids over few clusters */
    static const int LEVEL[SGS_MAXD + 1] = {0, 12, 9, 7, 5, 4, 3};
    for (int d = small ? 4 : 2; d <= (small ? 4 : SGS_MAXD); d++) {
        sgs_grid g;
        T_CHECK(sgs_init(&g, d, LEVEL[d], err, sizeof err) == 0);
        batch_t<float> bf;
        batch_t<double> bd;
        long long nf = small ? 5 : 41, nd = small ? 3 : 23;
        batch_make(&bf, &g, nf, 23);
        batch_make(&bd, &g, nd, 29);
        for (int th = small ? 128 : 32; th <= (small ? 128 : SGCL_MAXT); th *= 2)
            for (int M = 3; M <= 4; M++) {
                check<float>(&bf, nf, M, th, 3 * SGCL_CTAS, (th / 32 + M) % 2, (th / 64 + M) % 2);
                check<double>(&bd, nd, M, th, th % 128 ? 0 : 2 * SGCL_CTAS, (th / 64 + M) % 2, (th / 32 + M) % 2);
            }
        batch_free(&bf);
        batch_free(&bd);
        sgs_free(&g);
    }
    return T_DONE();
}
