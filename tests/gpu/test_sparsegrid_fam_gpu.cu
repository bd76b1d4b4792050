/* GPU tests of sparsegrid/sparse_fam.cuh (k_sparse_fam: the lanes of a warp over the poles of a
 * family, one grid per block in shared memory, bulk copies): batched hierarchization and
 * dehierarchization equal the pole-wise CPU reference sgs_ref_f/d bitwise, d = 1..6, float and
 * double, every level from 1 to the largest whose poles a lane holds (at most 5 levels) and whose
 * grid fits the shared memory of a block, one and two buffers, 1..16 poles a lane, small families
 * grouped in storage order or bank-aware, block sizes 32..1024, batches of
 * 1, 3, 7 and (the sweep's levels d = 4, 5, 6) 41 / 23 grids -- odd counts, so the blocks walk
 * different numbers of grids --, one block walking every grid (its mbarrier phases flip, its
 * buffers are reused), in and out of place, grids starting off a 16-byte boundary (the scalar head
 * and tail).  Outputs are poisoned (NaN) first.  A plan may be refused only for poles longer than
 * 5 levels or buffers that do not fit the shared memory of a block (-1), or, for large blocks, when
 * no block fits an SM (-2).
 *   --small   a few cases (for compute-sanitizer; also with TEST_QUICK=1 in the environment)
 * Exit 77 without a GPU or on a GPU before sm_90 (bulk copies). */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../sparsegrid/sparse_fam.cuh"
#include "sparsegrid_batch.cuh"

/* Plans launched, per d and element size (4, 8): every d runs in both precisions. */
static int launched[SGS_MAXD + 1][2];

/* One plan on the first ngrids grids of b: == the reference, both directions. */
template <typename T>
static void check(batch_t<T> *b, long long ngrids, int threads, int nbuf, int rmax, int max_blocks, int in_place, int offset)
{
    const sgs_grid *g = b->g;
    sgf_gpu s;
    char err[200];
    int lmin = 1 << ((threads / 32 + rmax + nbuf) % 6), pack = (threads / 32 + rmax + offset) % 2; /* rotating */
    int rc = sgf_gpu_setup(&s, g, sizeof(T), threads, nbuf, rmax, lmin, pack, 0, max_blocks, err, sizeof err);
    if (rc == -1) { /* refused: only for long poles, large blocks of long poles, or buffers too large */
        int optin = 0;
        CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
        /* the longest pole of a regular sparse grid of level n: level n (a family whose other levels are
         * at most 1), independently of the plan */
        int mm = g->n < 3 ? 3 : g->n;
        long long need = 16 + (long long)nbuf * ((long long)(sizeof(T) * g->npts + 16 + 15) / 16 * 16);
        T_CHECK(g->n > SGF_MMAX || need > optin || threads > SGF_MAXT(mm));
        return;
    }
    if (rc == -2) {
        printf("  %s d=%d n=%d threads=%d nbuf=%d: refused (%s)\n", sizeof(T) == 4 ? "float" : "double", g->d, g->n, threads,
               nbuf, err);
        T_CHECK(threads >= 512);
        return;
    }
    T_CHECK(rc == 0 && s.blocks >= 1);
    launched[g->d][sizeof(T) == 8]++;
    T *a = b->d_a + offset, *o = in_place ? a : b->d_b + offset;
    for (int inv = 0; inv < 2; inv++) {
        batch_upload(b, ngrids, a, o);
        sgf_gpu_run<T>(&s, a, o, ngrids, inv, 0);
        if (!batch_same(b, ngrids, o, inv))
            printf("  %s d=%d n=%d ngrids=%lld threads=%d nbuf=%d rmax=%d lmin=%d pack=%d max_blocks=%d %s offset %d %s\n",
                   sizeof(T) == 4 ? "float" : "double", g->d, g->n, ngrids, threads, nbuf, rmax, lmin, pack, max_blocks,
                   in_place ? "in place" : "out of place", offset, inv ? "dehierarchization" : "hierarchization");
    }
    sgf_gpu_free(&s);
}

/* One grid and batch: block sizes, buffers, caps and placements rotate with ci. */
template <typename T>
static void check_grid(const sgs_grid *g, long long ngrids, int ci, int small)
{
    batch_t<T> b;
    batch_make(&b, g, ngrids, 9000011ULL * (unsigned long long)(g->d * 31 + g->n) + sizeof(T));
    for (int nbuf = 1; nbuf <= 2; nbuf++) {
        int c = ci + nbuf, threads = 32 << (c % 6);
        check<T>(&b, ngrids, threads, nbuf, 1 << (c % 5), c % 3 ? 0 : 1, c % 2, (c / 2) % 2);
        if (!small) check<T>(&b, ngrids, 64 << (c % 3), nbuf, 1 << ((c + 2) % 5), 1, (c + 1) % 2, (c / 2 + 1) % 2); /* one block */
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
        fprintf(stderr, "SKIP: k_sparse_fam needs bulk copies (sm_90), device is sm_%d.x\n", major);
        return 77;
    }
    char err[200];
    /* levels 1 .. the largest with poles of at most 5 levels (one more: refused) */
    static const int NMAX[SGS_MAXD + 1] = {0, 6, 6, 6, 6, 5, 4};
    static const int NMAX_SMALL[SGS_MAXD + 1] = {0, 3, 3, 2, 2, 2, 2};
    static const long long NG[3] = {1, 3, 7};
    for (int d = 1, ci = 0; d <= SGS_MAXD; d++)
        for (int n = 1; n <= (small ? NMAX_SMALL[d] : NMAX[d]); n++, ci++) {
            sgs_grid g;
            T_CHECK(sgs_init(&g, d, n, err, sizeof err) == 0);
            long long ng = small ? 3 : NG[ci % 3];
            check_grid<float>(&g, ng, ci, small);
            check_grid<double>(&g, ng, ci + 1, small);
            sgs_free(&g);
        }
    /* the sweep's levels (exp_sparse.cuh SPARSE_LEVEL) of d = 4, 5, 6: every block size, 41 / 23 grids */
    static const int LEVEL[SGS_MAXD + 1] = {0, 12, 9, 7, 5, 4, 3};
    for (int d = small ? 6 : 4; d <= SGS_MAXD; d++) {
        sgs_grid g;
        T_CHECK(sgs_init(&g, d, LEVEL[d], err, sizeof err) == 0);
        batch_t<float> bf;
        batch_t<double> bd;
        long long nf = small ? 5 : 41, nd = small ? 3 : 23;
        batch_make(&bf, &g, nf, 31);
        batch_make(&bd, &g, nd, 37);
        for (int th = small ? 256 : 32; th <= (small ? 256 : 1024); th *= 2)
            for (int nbuf = 1; nbuf <= 2; nbuf++)
                for (int rmax = 1; rmax <= 16; rmax *= small ? 16 : 4) {
                    int c = th / 32 + nbuf + rmax;
                    check<float>(&bf, nf, th, nbuf, rmax, c % 3 ? 0 : 3, c % 2, (c / 2) % 2);
                    check<double>(&bd, nd, th, nbuf, rmax, (c + 1) % 3 ? 0 : 2, (c + 1) % 2, (c / 2 + 1) % 2);
                }
        batch_free(&bf);
        batch_free(&bd);
        sgs_free(&g);
    }
    for (int d = 1; d <= SGS_MAXD; d++) /* no d refused wholesale (the refusals above are judged independently) */
        T_CHECK(launched[d][0] > 0 && launched[d][1] > 0);
    return T_DONE();
}
