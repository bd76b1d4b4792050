/* tests/host/test_sparsegrid_sparse.c -- regular sparse grids with boundary (sparsegrid/sparse.h)
 * for d = 1..6 against an independent reference:
 *   - the layout: every sparse point of the full grid (sg_in_sparse) has exactly one offset,
 *     and the offsets 0..N-1 are all used (sgs_point_index / sgs_offset round trip); the work
 *     lists hold every point once per dimension it is not on the boundary of, and the chunk
 *     table finds the segment of every work item;
 *   - functions the sparse space represents exactly: random dyadic surpluses on the sparse
 *     subspaces (zero elsewhere) of the FULL grid, dehierarchized on the full grid, restricted
 *     to the sparse points and hierarchized on the sparse grid give back those surpluses
 *     exactly (double: all values dyadic with few bits), by the pole-wise reference and by
 *     the level-wise work lists (the GPU kernel's order); dehierarchization likewise;
 *   - float: the level-wise lists equal the pole-wise reference bitwise, the batched tuned
 *     CPU version (src != dst, several grids) equals them, the round trip is within 1e-5;
 *   - double vs long double on random (non-dyadic) data: within 1e-13 relative;
 *   - full grids in subspace order (sgs_init_full) == the plain layout's hierarchization
 *     permuted, bitwise, for 15 shapes; double vs long double there too. */
#include <math.h>
#include "../../sparsegrid/sparse.h"
#include "../../common/testlib.h"

/* xorshift: deterministic test data */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Full isotropic grid of level n in d dimensions, every line along every dimension (double). */
static void full_transform(double *u, int d, int n, int inverse)
{
    long long np = (1LL << n) + 1, size = 1;
    for (int j = 0; j < d; j++) size *= np;
    long long inner = 1;
    for (int k = 0; k < d; k++) {
        long long len = np * inner;
        for (long long o = 0; o < size; o += len)
            for (long long x = 0; x < inner; x++) sg_line_d(u + o + x, inner, n, inverse);
        inner *= np;
    }
}

/* long double versions of the 1D transform and of the pole-wise reference */
static void line_ld(long double *u, long long stride, int l, int inverse)
{
    for (int s = 0; s < l; s++) {
        int lev = inverse ? s + 1 : l - s;
        long long h = 1LL << (l - lev);
        for (long long i = h; i < (1LL << l); i += 2 * h) {
            long double *x = u + i * stride, m = 0.5L * (x[-h * stride] + x[h * stride]);
            *x = inverse ? *x + m : *x - m;
        }
    }
}
static long double surplus_ld(long double u, long double a, long double b) { return u - 0.5L * (a + b); }
static long double unsurplus_ld(long double u, long double a, long double b) { return u + 0.5L * (a + b); }
SGS_DEFINE(long double, ld, surplus_ld, unsurplus_ld, line_ld)

static void check_grid(int d, int n)
{
    sgs_grid g;
    char err[200];
    if (sgs_init(&g, d, n, err, sizeof err)) { T_CHECK(0); printf("sgs_init(%d, %d): %s\n", d, n, err); return; }
    long long N = g.npts, np = (1LL << n) + 1, full = 1;
    for (int j = 0; j < d; j++) full *= np;

    /* layout: a bijection between the sparse points of the full grid and 0..N-1 */
    char *seen = (char *)calloc(N, 1);
    long long *where = (long long *)malloc(sizeof(long long) * full), bad = 0, count = 0;
    for (long long p = 0; p < full; p++) {
        long long idx[SGS_MAXD], r = p;
        for (int j = 0; j < d; j++) { idx[j] = r % np; r /= np; }
        long long o = sgs_offset(&g, idx);
        int in = sg_in_sparse(idx, d, n);
        where[p] = o;
        if ((o >= 0) != in || o >= N) { bad++; continue; }
        if (o >= 0) { count++; if (seen[o]++) bad++; }
    }
    for (int s = 0; s < g.nsub; s++)
        for (long long r = 0; r < g.off[s + 1] - g.off[s]; r++) {
            long long idx[SGS_MAXD];
            sgs_point_index(&g, s, r, idx);
            if (sgs_offset(&g, idx) != g.off[s] + r) bad++;
        }
    T_EQ_INT(bad, 0);
    T_EQ_INT(count, N);
    int work = 0;
    for (int kl = 0; kl < d * (n + 1); kl++) work += g.list_count[kl];
    long long want_work = 0; /* each dimension: every point not on its boundary level */
    for (int s = 0; s < g.nsub; s++)
        for (int k = 0; k < d; k++)
            if (g.lev[s * d + k] >= 1) want_work += g.off[s + 1] - g.off[s];
    T_EQ_INT(work, want_work);
    /* the chunk table: sgs_find gives the segment holding every work item of every list */
    long long wrong = 0;
    for (int kl = 0; kl < d * (n + 1); kl++) {
        int first = g.list_first[kl], last = g.list_first[kl + 1] - 1;
        for (int t = 0; t < g.list_count[kl]; t++) {
            int si = sgs_find(g.seg_start, g.chunk, g.list_chunk[kl], last, t);
            int end = si < last ? g.seg_start[si + 1] : g.list_count[kl];
            if (si < first || si > last || g.seg_start[si] > t || t >= end) wrong++;
        }
    }
    T_EQ_INT(wrong, 0);
    /* ... and each chunk entry is itself the segment holding the chunk's first item (also when a
     * segment starts exactly there): sgs_find's forward steps, paid by every work item of the GPU
     * kernel, are then only the segments that start inside the chunk */
    long long stale = 0;
    for (int kl = 0; kl < d * (n + 1); kl++) {
        int last = g.list_first[kl + 1] - 1;
        for (int t = 0; t < g.list_count[kl]; t += SGS_CHUNK) {
            int si = g.chunk[g.list_chunk[kl] + t / SGS_CHUNK];
            int end = si < last ? g.seg_start[si + 1] : g.list_count[kl];
            if (g.seg_start[si] > t || t >= end) stale++;
        }
    }
    T_EQ_INT(stale, 0);

    /* exactly representable: dyadic surpluses on the sparse subspaces only */
    uint64_t st = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(d * 100 + n);
    double *cf = (double *)calloc(full, sizeof(double));
    double *c = (double *)malloc(sizeof(double) * N), *u = (double *)malloc(sizeof(double) * N);
    double *v = (double *)malloc(sizeof(double) * N);
    for (long long p = 0; p < full; p++)
        if (where[p] >= 0) cf[p] = (double)((long long)(rnd(&st) % 33) - 16) * 0.25;
    for (long long p = 0; p < full; p++)
        if (where[p] >= 0) c[where[p]] = cf[p];
    full_transform(cf, d, n, 1); /* nodal values of the function on the full grid */
    for (long long p = 0; p < full; p++)
        if (where[p] >= 0) u[where[p]] = cf[p];
    memcpy(v, u, sizeof(double) * N);
    T_EQ_INT(sgs_ref_d(v, &g, 0), 0);
    long long m1 = 0, m2 = 0, m3 = 0, m4 = 0;
    for (long long i = 0; i < N; i++) m1 += v[i] != c[i];
    memcpy(v, u, sizeof(double) * N);
    sgs_grid_d(v, &g, 0);
    for (long long i = 0; i < N; i++) m2 += v[i] != c[i];
    sgs_grid_d(v, &g, 1);
    for (long long i = 0; i < N; i++) m3 += v[i] != u[i];
    memcpy(v, c, sizeof(double) * N);
    sgs_ref_d(v, &g, 1);
    for (long long i = 0; i < N; i++) m4 += v[i] != u[i];
    T_EQ_INT(m1, 0); /* pole-wise reference == full grid restricted */
    T_EQ_INT(m2, 0); /* level-wise lists == full grid restricted */
    T_EQ_INT(m3, 0); /* level-wise dehierarchization: back to the nodal values */
    T_EQ_INT(m4, 0); /* pole-wise dehierarchization */
    memcpy(v, u, sizeof(double) * N);
    T_EQ_INT(sgs_cpu_shift_d(v, v, 1, &g, 0, 1), 0);
    long long m5 = 0;
    for (long long i = 0; i < N; i++) m5 += v[i] != c[i];
    T_EQ_INT(m5, 0); /* the dimensional shift variant == full grid restricted */
    if (m1 || m2 || m3 || m4) printf("  d=%d n=%d: mismatches ref %lld lists %lld inverse %lld ref-inverse %lld\n", d, n, m1, m2, m3, m4);

    /* float, random data in [1, 2): lists == reference bitwise, batched tuned == both, round trip */
    long long G = 3;
    float *fa = (float *)malloc(sizeof(float) * N * G), *fb = (float *)malloc(sizeof(float) * N * G);
    float *fc = (float *)malloc(sizeof(float) * N * G);
    for (long long i = 0; i < N * G; i++) fa[i] = 1.0f + (float)(rnd(&st) >> 40) / (float)(1 << 24);
    for (int inv = 0; inv < 2; inv++) {
        memcpy(fb, fa, sizeof(float) * N * G);
        for (long long t = 0; t < G; t++) sgs_ref_f(fb + t * N, &g, inv);
        sgs_cpu_f(fa, fc, G, &g, inv, 2);
        T_CHECK(!memcmp(fb, fc, sizeof(float) * N * G));
        memcpy(fc, fa, sizeof(float) * N * G);
        for (long long t = 0; t < G; t++) sgs_grid_f(fc + t * N, &g, inv);
        T_CHECK(!memcmp(fb, fc, sizeof(float) * N * G));
    }
    /* the dimensional shift variant: == the lists bitwise, out of place and in place */
    for (int inv = 0; inv < 2; inv++) {
        sgs_cpu_f(fa, fb, G, &g, inv, 2);
        T_EQ_INT(sgs_cpu_shift_f(fa, fc, G, &g, inv, 2), 0);
        T_CHECK(!memcmp(fb, fc, sizeof(float) * N * G));
        memcpy(fc, fa, sizeof(float) * N * G);
        T_EQ_INT(sgs_cpu_shift_f(fc, fc, G, &g, inv, 2), 0);
        T_CHECK(!memcmp(fb, fc, sizeof(float) * N * G));
    }
    sgs_cpu_f(fa, fb, G, &g, 0, 2);
    sgs_cpu_f(fb, fb, G, &g, 1, 2);
    double worst = 0;
    for (long long i = 0; i < N * G; i++) worst = fmax(worst, fabs((double)fb[i] - fa[i]));
    T_CHECK(worst <= 1e-5);

    /* the GPU kernel's loop replayed on the host: every work item t of every list through
     * sgs_find + sgs_item (as k_sparse does), == the pole-wise reference bitwise */
    for (int inv = 0; inv < 2; inv++) {
        memcpy(fb, fa, sizeof(float) * N);
        memcpy(fc, fa, sizeof(float) * N);
        sgs_ref_f(fb, &g, inv);
        for (int k = 0; k < d; k++)
            for (int s = 1; s <= n; s++) {
                int L = inv ? s : n + 1 - s, kl = k * (n + 1) + L, last = g.list_first[kl + 1] - 1;
                for (int t = 0; t < g.list_count[kl]; t++) {
                    int si = sgs_find(g.seg_start, g.chunk, g.list_chunk[kl], last, t), x, xl, xr;
                    sgs_item(g.seg + si, g.par, n, L, t, &x, &xl, &xr);
                    fc[x] = inv ? sg_unsurplus(fc[x], fc[xl], fc[xr]) : sg_surplus(fc[x], fc[xl], fc[xr]);
                }
            }
        T_CHECK(!memcmp(fb, fc, sizeof(float) * N));
    }

    /* double vs long double on the same random data */
    long double *la = (long double *)malloc(sizeof(long double) * N);
    for (long long i = 0; i < N; i++) { v[i] = fa[i]; la[i] = fa[i]; }
    for (int inv = 0; inv < 2; inv++) {
        sgs_grid_d(v, &g, inv);
        sgs_ref_ld(la, &g, inv);
        double rel = 0, scale = 0;
        for (long long i = 0; i < N; i++) {
            rel = fmax(rel, fabs((double)(v[i] - la[i])));
            scale = fmax(scale, fabs((double)la[i]));
        }
        T_CHECK(rel <= 1e-13 * scale);
    }
    free(la); free(fa); free(fb); free(fc); free(cf); free(c); free(u); free(v); free(seen); free(where);
    sgs_free(&g);
}

/* A full grid in subspace order (thesis Fig. 2.9) == the plain full-grid layout, point for
 * point: the permutation is a bijection, and hierarchizing in subspace order (lists, shift
 * variant, pole-wise reference) equals hierarchizing the plain layout (the full-grid
 * reference of hierarchize.h, d <= 4) and permuting, bitwise, both directions. */
static void check_full(const char *dims)
{
    sg_geom fg;
    sgs_grid g;
    char err[200];
    T_CHECK(sg_parse_dims(dims, &fg, err, sizeof err) == 0);
    T_CHECK(sgs_init_full(&g, fg.d, fg.l, err, sizeof err) == 0);
    long long N = g.npts;
    T_EQ_INT(N, fg.size);
    long long *perm = (long long *)malloc(sizeof(long long) * N);
    char *seen = (char *)calloc(N, 1);
    sgs_full_perm(&g, perm);
    long long bad = 0;
    for (long long i = 0; i < N; i++) {
        if (perm[i] < 0 || perm[i] >= N || seen[perm[i]]) bad++;
        else seen[perm[i]] = 1;
    }
    T_EQ_INT(bad, 0);
    float *u = (float *)malloc(sizeof(float) * N), *a = (float *)malloc(sizeof(float) * N);
    float *b = (float *)malloc(sizeof(float) * N), *c = (float *)malloc(sizeof(float) * N);
    uint64_t st = 12345 + N;
    for (long long i = 0; i < N; i++) u[i] = 1.0f + (float)(rnd(&st) >> 40) / (float)(1 << 24);
    for (int inv = 0; inv < 2; inv++) {
        memcpy(a, u, sizeof(float) * N);
        sg_ref_tile_f(a, &fg, inv); /* plain layout, in place */
        for (long long i = 0; i < N; i++) b[i] = u[perm[i]];
        memcpy(c, b, sizeof(float) * N);
        sgs_grid_f(b, &g, inv);
        long long m = 0;
        for (long long i = 0; i < N; i++) m += memcmp(&b[i], &a[perm[i]], sizeof(float)) != 0;
        T_EQ_INT(m, 0);
        memcpy(b, c, sizeof(float) * N);
        T_EQ_INT(sgs_ref_f(b, &g, inv), 0);
        m = 0;
        for (long long i = 0; i < N; i++) m += memcmp(&b[i], &a[perm[i]], sizeof(float)) != 0;
        T_EQ_INT(m, 0);
        T_EQ_INT(sgs_cpu_shift_f(c, b, 1, &g, inv, 1), 0);
        m = 0;
        for (long long i = 0; i < N; i++) m += memcmp(&b[i], &a[perm[i]], sizeof(float)) != 0;
        T_EQ_INT(m, 0);
        if (m) printf("  full %s %s: %lld mismatches\n", dims, inv ? "inverse" : "forward", m);
    }
    /* double (lists) vs long double (pole-wise) on the same data, in subspace order */
    double *ud = (double *)malloc(sizeof(double) * N);
    long double *ul = (long double *)malloc(sizeof(long double) * N);
    for (long long i = 0; i < N; i++) { ud[i] = u[perm[i]]; ul[i] = u[perm[i]]; }
    for (int inv = 0; inv < 2; inv++) {
        sgs_grid_d(ud, &g, inv);
        T_EQ_INT(sgs_ref_ld(ul, &g, inv), 0);
        double worst = 0, scale = 0;
        for (long long i = 0; i < N; i++) {
            worst = fmax(worst, fabs((double)(ud[i] - ul[i])));
            scale = fmax(scale, fabs((double)ul[i]));
        }
        T_CHECK(worst <= 1e-13 * scale);
    }
    free(ud); free(ul);
    free(u); free(a); free(b); free(c); free(perm); free(seen);
    sgs_free(&g);
}

int main(void)
{
    /* full grids in subspace order: the shapes of test_sparsegrid_hier.c */
    const char *full[] = {"3", "5", "1025", "3x3", "33x33", "17x5", "5x17", "65x3", "9x9x9", "3x5x9", "17x3x3",
                          "9x9x5x5", "5x5x5x5", "3x9x3x5", "129x129"};
    for (size_t i = 0; i < sizeof full / sizeof full[0]; i++) check_full(full[i]);
    /* d = 1..6, every n whose full grid stays below ~0.6 M points */
    static const int nmax[7] = {0, 10, 8, 5, 4, 3, 3};
    for (int d = 1; d <= 6; d++)
        for (int n = 1; n <= nmax[d]; n++) check_grid(d, n);
    /* point counts of the regular sparse grid with boundary (independent: counted above via
     * sg_in_sparse; here the known closed values for d = 2: (n - 1) 2^n + 5 2^n ... spot checks) */
    sgs_grid g;
    char err[200];
    T_EQ_INT(sgs_init(&g, 2, 11, err, sizeof err), 0);
    T_EQ_INT(g.npts, 28673); /* = the 28673 sparse points of the error figure (README, d=2, L=11) */
    sgs_free(&g);
    T_EQ_INT(sgs_init(&g, 4, 5, err, sizeof err), 0);
    T_EQ_INT(g.npts, 7681);  /* d=4, L=5: 7681 (README) */
    sgs_free(&g);
    T_CHECK(sgs_init(&g, 7, 2, err, sizeof err) == -1);
    T_CHECK(sgs_init(&g, 2, 0, err, sizeof err) == -1);
    return T_DONE();
}
