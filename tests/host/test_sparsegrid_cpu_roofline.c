/* tests/host/test_sparsegrid_cpu_roofline.c -- the cache-blocked CPU hierarchization
 * (sparsegrid/cpu_blocked.h: V grids interleaved, every pass in cache) against the references,
 * BITWISE, float and double, both directions:
 *   - sparse grids d = 1..6 at every level up to a few thousand points: each grid of the batch
 *     against the pole-wise reference sgs_ref_* (an independent route through sgs_offset) and the
 *     whole batch against the level-wise sgs_cpu_*; batches of 1, V - 1, V, V + 1 and 2 V + 3
 *     grids (partial last blocks), src -> dst and in place, 1 and 3 threads, the default lanes and
 *     1, 3, 5 lanes (a row length that is no vector multiple);
 *   - full grids in subspace order (sgs_init_full) against sgs_ref_*, anisotropic shapes with
 *     level-0 dimensions;
 *   - full grids in the plain layout (sg_cpu_blocked_*) against sg_ref_tile_f/d tile by tile and
 *     (float) the tuned sg_cpu_tuned: the thesis's tiles 33x33, 9x9x9, 9x9x5x5 and awkward ones
 *     (1D, 2-point dimensions, 65x3x2x5);
 *   - both store paths: batches below 4 KiB with plain stores, larger ones streaming, a batch of
 *     exactly 4 KiB streaming (the threshold both sides: sgb_streams, and 4 KiB batches bitwise);
 *   - nothing written past the batch (a poisoned guard after dst), nothing left unwritten
 *     (dst poisoned with NaN before);
 *   - every case again with cpu_blocked_t (sparsegrid/cpu_blocked_t.h: the gather/scatter as vector
 *     transpositions), each instance the CPU has (portable, avx2, avx512f): the same bitwise checks,
 *     also with dst shifted by 1..W-1 values from a vector-aligned address (the streaming scatter's
 *     head, shifted vectors and tail at every alignment). */
#include <math.h>
#define SGB_STREAM_MIN 4096.0 /* batches of 4 KiB and more take the streaming stores, smaller ones not */
#include "../../sparsegrid/cpu_blocked_t.h"
#include "../../common/testlib.h"

#ifdef TEST_SANITIZE
#define NMAX_SCALE 1 /* one level less in each dimension under the sanitizers */
#else
#define NMAX_SCALE 0
#endif

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#define GUARD 37 /* poisoned values after the batch */
static long long paths[2]; /* cpu_blocked_t runs with plain [0] and streaming [1] stores */

/* The batch sizes of a block of V lanes. */
static int batch_sizes(int V, long long *G)
{
    long long c[5] = {1, V - 1, V, V + 1, 2 * V + 3};
    int n = 0;
    for (int i = 0; i < 5; i++) {
        int dup = c[i] < 1;
        for (int j = 0; j < n; j++) dup |= G[j] == c[i];
        if (!dup) G[n++] = c[i];
    }
    return n;
}

/* One precision: T, SUF; REF(u, grid) hierarchizes one grid in place (the independent route). */
#define CHECK_DEFINE(T, SUF)                                                                            \
    /* G grids of N points: in -> out by cpu_blocked (kind 0 sparse, 1 plain full grid), compared     \
     * with want (the reference of every grid); returns the mismatching values. */                     \
    static long long run1_##SUF(const T *in, const T *want, long long G, long long N, const void *sg, int kind, \
                                int inverse, int threads, int lanes, int in_place, int tr, int shift)  \
    {                                                                                                  \
        T *mem = (T *)aligned_alloc(64, (sizeof(T) * (size_t)(G * N + GUARD + 16) + 63) / 64 * 64);    \
        T *out = mem + shift; /* shift values past a 64-byte boundary */                               \
        memset(out, 0xFF, sizeof(T) * (size_t)(G * N + GUARD)); /* NaN: unwritten values fail */       \
        if (in_place) memcpy(out, in, sizeof(T) * (size_t)(G * N));                                    \
        const T *src = in_place ? out : in;                                                            \
        int rc = tr ? (kind ? sg_cpu_blocked_tr_##SUF(src, out, G, (const sg_geom *)sg, inverse, threads, lanes, tr) \
                            : sgs_cpu_blocked_tr_##SUF(src, out, G, (const sgs_grid *)sg, inverse, threads, lanes, tr)) \
               : kind ? sg_cpu_blocked_##SUF(src, out, G, (const sg_geom *)sg, inverse, threads, lanes) \
                      : sgs_cpu_blocked_##SUF(src, out, G, (const sgs_grid *)sg, inverse, threads, lanes); \
        long long bad = rc != 0;                                                                       \
        if (tr) { /* the store path: streaming from SGB_STREAM_MIN bytes on, plain below */            \
            int nt_want = (double)G * N * sizeof(T) >= SGB_STREAM_MIN;                                 \
            bad += sgb_streams(G, N, sizeof(T)) != nt_want;                                            \
            paths[nt_want]++;                                                                          \
        }                                                                                              \
        if (memcmp(out, want, sizeof(T) * (size_t)(G * N))) /* bitwise */                              \
            for (long long i = 0; i < G * N; i++) bad += memcmp(out + i, want + i, sizeof(T)) != 0;    \
        unsigned char ff[sizeof(T)];                                                                   \
        memset(ff, 0xFF, sizeof ff);                                                                   \
        for (int i = 0; i < GUARD; i++) bad += memcmp(out + G * N + i, ff, sizeof(T)) != 0;            \
        free(mem);                                                                                     \
        return bad;                                                                                    \
    }                                                                                                  \
    /* cpu_blocked, then cpu_blocked_t in every instance the CPU has (dst shifted by 0 and by an      \
     * alignment that varies with the case); the sum of the mismatches. */                             \
    static long long run_##SUF(const T *in, const T *want, long long G, long long N, const void *sg, int kind, \
                               int inverse, int threads, int lanes, int in_place)                      \
    {                                                                                                  \
        long long bad = run1_##SUF(in, want, G, N, sg, kind, inverse, threads, lanes, in_place, 0, 0);  \
        int W = (int)(SGB_LINE_BYTES / sizeof(T));                                                     \
        for (int tr = SGBT_PORTABLE; tr <= sgbt_isa_best(); tr++) {                                    \
            long long b0 = run1_##SUF(in, want, G, N, sg, kind, inverse, threads, lanes, in_place, tr, 0); \
            int sh = 1 + (int)((G * 7 + N + 3 * tr + inverse) % (W - 1));                              \
            long long b1 = run1_##SUF(in, want, G, N, sg, kind, inverse, threads, lanes, in_place, tr, sh); \
            if (b0 || b1) printf("  cpu_blocked_t %s: %lld wrong at dst aligned, %lld at dst + %d\n",     \
                                 sgbt_isa_name(tr), b0, b1, sh);                                       \
            bad += b0 + b1;                                                                            \
        }                                                                                              \
        return bad;                                                                                    \
    }                                                                                                  \
    /* Random data for G grids of N points (uniform in [-1, 1), not dyadic: every rounding shows). */  \
    static T *random_##SUF(long long n, uint64_t seed)                                                 \
    {                                                                                                  \
        T *u = (T *)malloc(sizeof(T) * (size_t)n);                                                     \
        uint64_t st = seed | 1;                                                                        \
        for (long long i = 0; i < n; i++) u[i] = (T)((double)(rnd(&st) >> 11) / 4503599627370496.0 - 1.0); \
        return u;                                                                                      \
    }                                                                                                  \
    /* Sparse grid (or full grid in subspace order) g: every batch size, direction, lane count. */    \
    static void check_sparse_##SUF(const sgs_grid *g, const char *what)                                \
    {                                                                                                  \
        int V0 = (int)(SGB_LINE_BYTES / sizeof(T)), lanes[4] = {0, 1, 3, 5};                           \
        long long N = g->npts, Gs[5];                                                                  \
        int nG = batch_sizes(V0, Gs);                                                                  \
        long long Gmax = Gs[nG - 1];                                                                   \
        T *u = random_##SUF(Gmax * N, 0x5EED0000ULL + 977 * g->d + 31 * g->n + N);                     \
        for (int inv = 0; inv < 2; inv++) {                                                            \
            T *want = (T *)malloc(sizeof(T) * (size_t)(Gmax * N)), *lw = (T *)malloc(sizeof(T) * (size_t)(Gmax * N)); \
            memcpy(want, u, sizeof(T) * (size_t)(Gmax * N));                                           \
            for (long long t = 0; t < Gmax; t++) T_EQ_INT(sgs_ref_##SUF(want + t * N, g, inv), 0);     \
            sgs_cpu_##SUF(u, lw, Gmax, g, inv, 2); /* the level-wise lists agree with the poles */     \
            T_CHECK(!memcmp(lw, want, sizeof(T) * (size_t)(Gmax * N)));                                \
            for (int gi = 0; gi < nG; gi++)                                                            \
                for (int li = 0; li < 4; li++)                                                         \
                    for (int ip = 0; ip < 2; ip++) {                                                   \
                        int th = (gi + li + ip) % 2 ? 3 : 1;                                           \
                        long long bad = run_##SUF(u, want, Gs[gi], N, g, 0, inv, th, lanes[li], ip);   \
                        T_EQ_INT(bad, 0);                                                              \
                        if (bad) printf("  %s %s d=%d n=%d G=%lld lanes=%d threads=%d %s%s: %lld wrong\n", #T, what, \
                                        g->d, g->n, Gs[gi], lanes[li], th, inv ? "inverse" : "forward",  \
                                        ip ? " in place" : "", bad);                                  \
                    }                                                                                  \
            free(want);                                                                                \
            free(lw);                                                                                  \
        }                                                                                              \
        free(u);                                                                                       \
    }

CHECK_DEFINE(float, f)
CHECK_DEFINE(double, d)

/* Plain full grids: both precisions against the scalar tile references; float also against the
 * tuned version A. */
static void check_full(const char *dims)
{
    sg_geom g;
    char err[200];
    if (sg_parse_dims(dims, &g, err, sizeof err)) { T_CHECK(0); printf("%s: %s\n", dims, err); return; }
    long long N = g.size;
    for (int inv = 0; inv < 2; inv++) {
        long long Gs[5];
        int nG = batch_sizes(16, Gs), lanes[3] = {0, 3, 1};
        long long Gmax = Gs[nG - 1];
        float *uf = random_f(Gmax * N, 0xF011ULL + N), *wf = (float *)malloc(sizeof(float) * Gmax * N);
        double *ud = random_d(Gmax * N, 0xD011ULL + N), *wd = (double *)malloc(sizeof(double) * Gmax * N);
        memcpy(wf, uf, sizeof(float) * Gmax * N);
        memcpy(wd, ud, sizeof(double) * Gmax * N);
        for (long long t = 0; t < Gmax; t++) {
            sg_ref_tile_f(wf + t * N, &g, inv);
            sg_ref_tile_d(wd + t * N, &g, inv);
        }
        float *tf = (float *)malloc(sizeof(float) * Gmax * N);
        T_EQ_INT(sg_cpu_tuned(uf, tf, Gmax, &g, inv, 2), 0);
        T_CHECK(!memcmp(tf, wf, sizeof(float) * Gmax * N)); /* version A agrees with the reference */
        free(tf);
        for (int gi = 0; gi < nG; gi++)
            for (int li = 0; li < 3; li++)
                for (int ip = 0; ip < 2; ip++) {
                    int th = (gi + ip) % 2 ? 3 : 1;
                    long long bf = run_f(uf, wf, Gs[gi], N, &g, 1, inv, th, lanes[li], ip);
                    long long bd = run_d(ud, wd, Gs[gi], N, &g, 1, inv, th, lanes[li], ip);
                    T_EQ_INT(bf, 0);
                    T_EQ_INT(bd, 0);
                    if (bf || bd)
                        printf("  full %s G=%lld lanes=%d %s%s: %lld float, %lld double wrong\n", dims, Gs[gi],
                               lanes[li], inv ? "inverse" : "forward", ip ? " in place" : "", bf, bd);
                }
        free(uf);
        free(wf);
        free(ud);
        free(wd);
    }
}

int main(void)
{
    /* sparse grids: every level up to the largest below ~4000 points (one less under asan) */
    static const int NMAX[SGS_MAXD + 1] = {0, 10, 7, 5, 4, 3, 3};
    for (int d = 1; d <= SGS_MAXD; d++)
        for (int n = 1; n <= NMAX[d] - (NMAX_SCALE && NMAX[d] > 2); n++) {
            sgs_grid g;
            char err[200];
            if (sgs_init(&g, d, n, err, sizeof err)) { T_CHECK(0); printf("sgs_init(%d, %d): %s\n", d, n, err); continue; }
            check_sparse_f(&g, "sparse");
            check_sparse_d(&g, "sparse");
            sgs_free(&g);
        }
    /* full grids in subspace order (the layout of the thesis's Fig. 2.9), with level-0 dimensions */
    static const int NK[][4] = {{5, 0, 0, 0}, {3, 3, 0, 0}, {5, 0, 2, 0}, {3, 3, 3, 0}, {3, 3, 2, 2}, {0, 4, 1, 0}};
    static const int ND[] = {1, 2, 3, 3, 4, 3};
    for (int i = 0; i < 6; i++) {
        sgs_grid g;
        char err[200];
        if (sgs_init_full(&g, ND[i], NK[i], err, sizeof err)) { T_CHECK(0); printf("%s\n", err); continue; }
        check_sparse_f(&g, "full in subspace order");
        check_sparse_d(&g, "full in subspace order");
        sgs_free(&g);
    }
    /* plain full grids: the thesis's tiles and awkward ones */
    static const char *const DIMS[] = {"3", "33", "2x2", "2x9", "33x33", "9x9x9", "9x9x5x5", "65x3x2x5", "5x2x17"};
    for (int i = 0; i < (int)(sizeof DIMS / sizeof DIMS[0]); i++) check_full(DIMS[i]);
    /* the store path at its threshold: a batch of exactly SGB_STREAM_MIN bytes streams, one value
     * less does not (cpu_blocked.h: "from SGB_STREAM_MIN bytes on"); and such batches (2x2 tiles:
     * 256 floats / 128 doubles = 4 KiB, one tile less) give the reference's bits on both paths */
    T_EQ_INT(sgb_streams(1, 1024, sizeof(float)), 1);
    T_EQ_INT(sgb_streams(1, 1023, sizeof(float)), 0);
    T_EQ_INT(sgb_streams(16, 32, sizeof(double)), 1);
    T_EQ_INT(sgb_streams(16, 32, sizeof(float)), 0);
    {
        sg_geom g;
        char err[200];
        T_EQ_INT(sg_parse_dims("2x2", &g, err, sizeof err), 0);
        float *uf = random_f(1024, 0xB0DULL), *wf = (float *)malloc(sizeof(float) * 1024);
        double *ud = random_d(512, 0xB0DDULL), *wd = (double *)malloc(sizeof(double) * 512);
        for (int inv = 0; inv < 2; inv++) {
            memcpy(wf, uf, sizeof(float) * 1024);
            memcpy(wd, ud, sizeof(double) * 512);
            for (int t = 0; t < 256; t++) sg_ref_tile_f(wf + 4 * t, &g, inv);
            for (int t = 0; t < 128; t++) sg_ref_tile_d(wd + 4 * t, &g, inv);
            long long before = paths[1];
            T_EQ_INT(run_f(uf, wf, 256, 4, &g, 1, inv, 2, 0, 0), 0);
            T_EQ_INT(run_f(uf, wf, 255, 4, &g, 1, inv, 1, 0, 1), 0);
            T_EQ_INT(run_d(ud, wd, 128, 4, &g, 1, inv, 2, 0, 1), 0);
            T_EQ_INT(run_d(ud, wd, 127, 4, &g, 1, inv, 1, 0, 0), 0);
            T_CHECK(paths[1] - before == 4 * sgbt_isa_best()); /* the 4 KiB batches, each instance, 2 shifts */
        }
        free(uf);
        free(wf);
        free(ud);
        free(wd);
    }
    T_CHECK(paths[0] > 100 && paths[1] > 100); /* both store paths of cpu_blocked_t ran */
    printf("cpu_blocked_t: %lld runs with plain stores, %lld streaming; instances 1..%d (%s)\n", paths[0], paths[1],
           sgbt_isa_best(), sgbt_isa_name(sgbt_isa_best()));
    return T_DONE();
}
