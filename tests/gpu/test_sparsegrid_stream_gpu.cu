/* GPU tests of sparsegrid/sparse_stream.cuh (k_sparse_stream: whole poles per thread in registers,
 * one barrier per pass and tier): batched hierarchization and dehierarchization of regular
 * sparse grids equal the pole-wise CPU reference sgs_ref_f/d bitwise, d = 1..6 (the task: 2..6),
 * float and double, every level from 1 to the largest that fits the shared memory of a block,
 * every instantiated plan (M = 3, 4, 5 pole levels per task; G = 1, 2 grids per block; staged
 * and direct store) at block sizes 64..1024, batches that are not a multiple of G and smaller
 * than G, 3 blocks walking many groups, in and out of place, grids starting off a 16-byte
 * boundary (the vector copy's scalar head and tail); full grids in subspace order with level 1
 * and 0 in some dimensions (a last dimension of level 0: the direct-store plan falls back to the
 * copy back).  k_sparse_pipe (the walk of sgst_walk2, bulk copies with 1 or 2 buffers, or the
 * threads' copies) on the same cases, block sizes 32..1024, many groups per block (the buffers'
 * mbarrier phases flip), grids off 16-byte boundaries (the scalar head and tail beside the bulk
 * copies), one grid for G = 2, and with pole pairs (G = 1, 1 and 2 buffers; the pair plans' tasks
 * in their bank-aware order).  Outputs are poisoned (NaN) first.  A plan may be refused only when its grids do
 * not fit the shared memory of a block (-1) or its block does not fit an SM (-2).
 *   --small   a few cases (for compute-sanitizer)
 * Exit 77 without a GPU. */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../sparsegrid/sparse_stream.cuh"
#include "sparsegrid_batch.cuh"

/* One plan on the first ngrids grids of b: == the reference, both directions.  nbuf < 0:
 * k_sparse_stream (direct store or not); nbuf >= 0: k_sparse_pipe with nbuf buffers. */
template <typename T>
static void check(batch_t<T> *b, long long ngrids, int M, int G, int threads, int direct, int max_blocks, int in_place,
                  int offset, int nbuf = -1, int pairs = 0, int minb = 0)
{
    const sgs_grid *g = b->g;
    sgst_gpu s;
    char err[200];
    int rc = nbuf < 0 ? sgst_gpu_setup(&s, g, sizeof(T), M, G, threads, direct, 0, max_blocks, err, sizeof err)
                      : sgsp_gpu_setup(&s, g, sizeof(T), M, G, threads, nbuf, pairs, minb, 0, max_blocks, err, sizeof err);
    if (rc == -1) { /* refused: only when the buffers do not fit the shared memory of a block (or no sm_90) */
        int optin = 0, major = 0;
        CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
        CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
        long long need = (long long)G * b->N * (long long)sizeof(T) + 16;
        if (nbuf > 0 && major < 9) return;
        if (nbuf >= 0) { /* 16 bytes of mbarriers, the class bounds, the buffers */
            sgst_plan pl;
            T_CHECK(sgst_plan_build2(&pl, g, M, pairs, 0, err, sizeof err) == 0);
            need = 16 + sgsp_cls_bytes(pl.nlist, M) + (nbuf > 1 ? 2 : 1) * ((need + 15) / 16 * 16);
            sgst_plan_free(&pl);
        }
        T_CHECK(need > optin);
        return;
    }
    if (rc == -2) { /* refused: the block's registers exceed the SM's */
        int regs_sm = 0;
        CHECK_CUDA(cudaDeviceGetAttribute(&regs_sm, cudaDevAttrMaxRegistersPerMultiprocessor, 0));
        printf("  %s d=%d n=%d M=%d G=%d threads=%d: refused (%s)\n", sizeof(T) == 4 ? "float" : "double", g->d, g->n, M,
               G, threads, err);
        T_CHECK(threads >= 512);
        return;
    }
    T_CHECK(rc == 0 && s.per_sm >= 1 && s.blocks >= 1);
    if (minb) T_CHECK(s.regs <= 65536 / (minb * SGSP_CAPT)); /* the cap holds */
    T *a = b->d_a + offset, *o = in_place ? a : b->d_b + offset;
    for (int inv = 0; inv < 2; inv++) {
        batch_upload(b, ngrids, a, o);
        sgst_gpu_run<T>(&s, a, o, ngrids, inv, 0);
        int same = batch_same(b, ngrids, o, inv);
        if (!same)
            printf("  %s d=%d n=%d ngrids=%lld M=%d G=%d threads=%d %s max_blocks=%d %s offset %d %s\n",
                   sizeof(T) == 4 ? "float" : "double", g->d, g->n, ngrids, M, G, threads,
                   nbuf >= 0 ? (nbuf == 0 ? "pipe, threads copy" : nbuf == 1 ? (pairs ? "pipe, 1 buffer, pairs" : "pipe, 1 buffer")
                                : pairs ? "pipe, 2 buffers, pairs" : "pipe, 2 buffers") : direct ? "direct" : "staged",
                   max_blocks, in_place ? "in place" : "out of place", offset, inv ? "dehierarchization" : "hierarchization");
        if (!same && minb) printf("  (register-capped variant, %d blocks per SM)\n", minb);
    }
    sgst_gpu_free(&s);
}

static const int PLAN_M[] = {3, 4, 5, 3, 4};
static const int PLAN_G[] = {1, 1, 1, 2, 2};
#define PLANS 5
/* k_sparse_pipe's instantiations, each with 0, 1, 2 buffers */
static const int PIPE_M[] = {3, 4, 5, 3};
static const int PIPE_G[] = {1, 1, 1, 2};
#define PIPES 4

/* Every plan on one grid: block sizes, caps and placements rotate with ci. */
template <typename T>
static void check_grid(const sgs_grid *g, long long ngrids, int ci, int small)
{
    batch_t<T> b;
    batch_make(&b, g, ngrids, 1000003ULL * (unsigned long long)(g->d * 31 + g->n) + sizeof(T));
    for (int p = 0; p < PLANS; p++)
        for (int direct = 0; direct < 2; direct++) {
            int c = ci + p + direct;
            int maxt = SGST_MAXT(PLAN_G[p], PLAN_M[p]), threads = 64 << (c % 5);
            if (threads > maxt) threads = maxt;
            check<T>(&b, ngrids, PLAN_M[p], PLAN_G[p], threads, direct, c % 3 ? 0 : 3, c % 2, (c / 2) % 2);
            if (!small && PLAN_G[p] == 2) check<T>(&b, 1, PLAN_M[p], 2, 128, direct, 0, 0, 0); /* one grid: fewer than G */
        }
    for (int p = 0; p < (small ? 1 : PIPES); p++) /* --small: M = 3, G = 1 */
        for (int nbuf = 0; nbuf <= 2; nbuf++) {
            int c = ci + p + nbuf, threads = 32 << (c % 6);
            if (threads > SGSP_MAXT(PIPE_G[p], PIPE_M[p], 0)) threads = SGSP_MAXT(PIPE_G[p], PIPE_M[p], 0);
            check<T>(&b, ngrids, PIPE_M[p], PIPE_G[p], threads, 0, c % 3 ? 0 : 2, c % 2, (c / 2) % 2, nbuf);
            if (!small && PIPE_G[p] == 2) check<T>(&b, 1, PIPE_M[p], 2, 64, 0, 0, 0, 1, nbuf); /* fewer than G */
            if (PIPE_G[p] == 1 && nbuf > 0) /* pole pairs */
                check<T>(&b, ngrids, PIPE_M[p], 1, 64 << (c % 4), 0, c % 3 ? 2 : 0, (c + 1) % 2, (c / 2 + 1) % 2, nbuf, 1);
            if (p == 0 && nbuf > 0) /* the register-capped variant (M = 3, G = 1) */
                check<T>(&b, ngrids, 3, 1, 32 << (c % 4), 0, c % 3 ? 0 : 2, c % 2, (c / 2 + 1) % 2, nbuf, 0, c % 2 ? 6 : 8);
        }
    batch_free(&b);
}

int main(int argc, char **argv)
{
    int small = argc > 1 && !strcmp(argv[1], "--small");
    device_require(0, 7, 5);
    char err[200];
    /* the largest level that fits 227 KiB in float (double: one less for d >= 3, see below) */
    static const int NMAX[SGS_MAXD + 1] = {0, 15, 11, 9, 7, 5, 4};
    static const int NMAX_SMALL[SGS_MAXD + 1] = {0, 5, 4, 3, 3, 2, 2};
    for (int d = 1, ci = 0; d <= SGS_MAXD; d++)
        for (int n = 1; n <= (small ? NMAX_SMALL[d] : NMAX[d]); n++, ci++) {
            sgs_grid g;
            T_CHECK(sgs_init(&g, d, n, err, sizeof err) == 0);
            long long ng = small ? 3 : g.npts > 20000 ? 5 : 9;
            check_grid<float>(&g, ng, ci, small);
            check_grid<double>(&g, ng, ci + 1, small); /* too large for double: every plan refused (-1) */
            sgs_free(&g);
        }
    if (!small) {
        /* the sweep's levels (exp_sparse.cuh SPARSE_LEVEL) at every block size, many groups per block */
        static const int LEVEL[SGS_MAXD + 1] = {0, 12, 9, 7, 5, 4, 3};
        for (int d = 2; d <= SGS_MAXD; d++) {
            sgs_grid g;
            T_CHECK(sgs_init(&g, d, LEVEL[d], err, sizeof err) == 0);
            batch_t<float> bf;
            batch_t<double> bd;
            batch_make(&bf, &g, 41, 17);
            batch_make(&bd, &g, 23, 19);
            for (int th = 64; th <= 1024; th *= 2)
                for (int p = 0; p < PLANS; p++) {
                    if (th > SGST_MAXT(PLAN_G[p], PLAN_M[p])) continue;
                    check<float>(&bf, 41, PLAN_M[p], PLAN_G[p], th, th % 128 == 0, 3, 0, 0);
                    check<double>(&bd, 23, PLAN_M[p], PLAN_G[p], th, th % 128 != 0, 0, 1, 1);
                }
            for (int th = 32; th <= 1024; th *= 2) /* k_sparse_pipe: 3 blocks walk 14 (float) and 8 groups */
                for (int p = 0; p < PIPES; p++)
                    for (int nbuf = 0; nbuf <= 2; nbuf++) {
                        if (th > SGSP_MAXT(PIPE_G[p], PIPE_M[p], 0)) continue;
                        check<float>(&bf, 41, PIPE_M[p], PIPE_G[p], th, 0, 3, nbuf == 1, (th / 32 + nbuf) % 2, nbuf);
                        check<double>(&bd, 23, PIPE_M[p], PIPE_G[p], th, 0, 3, nbuf != 1, (th / 64 + nbuf) % 2, nbuf);
                        if (p == 0 && nbuf > 0 && th <= SGSP_CAPT) { /* register-capped */
                            for (int mb = 6; mb <= 8; mb += 2) {
                                check<float>(&bf, 41, 3, 1, th, 0, 3, nbuf == 1, (th / 64 + nbuf) % 2, nbuf, 0, mb);
                                check<double>(&bd, 23, 3, 1, th, 0, 3, nbuf != 1, (th / 32 + nbuf) % 2, nbuf, 0, mb);
                            }
                        }
                        if (PIPE_G[p] == 1 && nbuf > 0 && th <= SGSP_MAXT(1, PIPE_M[p], 1)) { /* pole pairs */
                            check<float>(&bf, 41, PIPE_M[p], 1, th, 0, 3, nbuf != 1, (th / 64 + nbuf) % 2, nbuf, 1);
                            check<double>(&bd, 23, PIPE_M[p], 1, th, 0, 3, nbuf == 1, (th / 32 + nbuf) % 2, nbuf, 1);
                        }
                    }
            batch_free(&bf);
            batch_free(&bd);
            sgs_free(&g);
        }
    }
    /* full grids in subspace order: level 1 (and 0) in some dimensions */
    static const int FULL[][SGS_MAXD + 1] = {{2, 1, 6}, {3, 1, 3, 1}, {4, 2, 1, 2, 1}, {5, 1, 2, 1, 2, 1},
                                             {6, 1, 1, 2, 1, 1, 2}, {3, 2, 3, 0}, {6, 2, 1, 1, 1, 1, 0}};
    for (size_t i = 0; i < sizeof FULL / sizeof FULL[0]; i++) {
        sgs_grid g;
        T_CHECK(sgs_init_full(&g, FULL[i][0], FULL[i] + 1, err, sizeof err) == 0);
        check_grid<float>(&g, 7, (int)i, small);
        check_grid<double>(&g, 5, (int)i + 1, small);
        sgs_free(&g);
    }
    return T_DONE();
}
