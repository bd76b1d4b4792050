/* Host tests of sparsegrid/hierarchize.h: the references, the tuned CPU version (A), and
 * the logic of both GPU kernels replayed on the host (version B's slices, the fused
 * kernel's point codes), for d = 1..4, isotropic and anisotropic tiles.
 *   - round trip dehierarchize(hierarchize(u)) = u (double 1e-12, float 4e-6 |u|max)
 *   - f = prod x_i^2: surpluses known exactly (boundary values; -4^-lev per dimension,
 *     products across dimensions), bitwise in double and float
 *   - d-linear f: zero surpluses except at the corners
 *   - tuned (batch of tiles, 2 threads) == float reference per tile alone, bitwise
 *   - version B slices cover every line of every dimension exactly once, within limits;
 *     thesis's work-item counts (7 per tile for 33x33, 25 for 9x9x9, 100 for 9x9x5x5)
 *   - the replayed kernels == float reference, bitwise, both directions
 *   - sparse grid helpers: additive functions survive truncation, multilinear evaluation */
#include <math.h>
#include <stdint.h>
#include "../../common/testlib.h"
#include "../../sparsegrid/hierarchize.h"

static uint32_t hash32(uint64_t x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return (uint32_t)x;
}
static float rnd(uint64_t i) { return (float)(hash32(i) >> 8) / 8388608.0f - 1.0f; } /* [-1, 1) */

static void coords(const sg_geom *g, long long r, long long *idx)
{
    for (int k = 0; k < g->d; k++) idx[k] = (r / g->stride[k]) % g->n[k];
}

/* version B replayed: slices in constant-memory order, level loop of k_hier_b */
static void replay_b(float *u, const sg_geom *g, int inverse)
{
    static sg_slice sl[SG_B_MAX_SLICES];
    float *sm = malloc(sizeof(float) * SG_B_MAX_FLOATS);
    for (int k = 0; k < g->d; k++) {
        int threads, c = sg_b_plan(g, k, sl, SG_B_MAX_SLICES, &threads);
        int n = g->n[k], lk = g->l[k];
        for (int s = 0; s < c; s++) {
            for (int m = 0; m < sl[s].nlines; m++)
                for (int i = 0; i < n; i++)
                    sm[m * n + i] = u[sg_slice_line_offset(&sl[s], g->stride, sl[s].first_line + m) + i * g->stride[k]];
            int leaf = 1 << (lk - 1);
            for (int st = 0; st < lk; st++) {
                int lev = inverse ? st + 1 : lk - st, h = 1 << (lk - lev);
                for (int t = 0; t < threads; t++) {
                    int m = t / leaf, j = t % leaf;
                    if (m < sl[s].nlines && j < (1 << (lev - 1))) {
                        float *x = sm + m * n + (2 * j + 1) * h;
                        *x = inverse ? sg_unsurplus(*x, x[-h], x[h]) : sg_surplus(*x, x[-h], x[h]);
                    }
                }
            }
            for (int m = 0; m < sl[s].nlines; m++)
                for (int i = 0; i < n; i++)
                    u[sg_slice_line_offset(&sl[s], g->stride, sl[s].first_line + m) + i * g->stride[k]] = sm[m * n + i];
        }
    }
    free(sm);
}

/* fused kernel replayed: ping-pong buffers by point codes (hierarchization), levels in
 * place (dehierarchization) */
static void replay_fused(float *u, const sg_geom *g, int inverse)
{
    uint32_t *code = malloc(sizeof(uint32_t) * g->size);
    float *b1 = malloc(sizeof(float) * g->size);
    sg_codes(g, code);
    for (int k = 0; k < g->d; k++) {
        long long stk = g->stride[k];
        if (!inverse) {
            for (long long r = 0; r < g->size; r++) {
                uint32_t b = (code[r] >> (8 * k)) & 0xFF;
                long long off = b == SG_CODE_BOUNDARY ? 0 : stk << b;
                b1[r] = off ? sg_surplus(u[r], u[r - off], u[r + off]) : u[r];
            }
            memcpy(u, b1, sizeof(float) * g->size);
        } else {
            for (int lev = 1; lev <= g->l[k]; lev++) {
                uint32_t want = g->l[k] - lev;
                long long off = stk << want;
                for (long long r = 0; r < g->size; r++)
                    if (((code[r] >> (8 * k)) & 0xFF) == want) u[r] = sg_unsurplus(u[r], u[r - off], u[r + off]);
            }
        }
    }
    free(code);
    free(b1);
}

/* k_fused_lines replayed on a block of cnt contiguous tiles: each line of dimension k
 * (numbered across the tiles, base (ln / stride) * n * stride + ln % stride) transformed
 * in a private array: lowest set bit = neighbour distance, finest first (inverse:
 * coarsest first). */
static void replay_lines(float *u, long long cnt, const sg_geom *g, int inverse, int threads)
{
    long long total = cnt * g->size;
    for (int k = 0; k < g->d; k++) {
        int n = g->n[k];
        long long stk = g->stride[k], lines = total / n;
        for (int t = 0; t < threads; t++) { /* thread t: lines t, t + threads, ... (sg_line_step) */
          sg_line_pos pos = sg_line_first(t, threads, (int)stk);
          for (long long ln = t; ln < lines; ln += threads) {
            long long base = (long long)pos.q * (n * stk) + pos.r;
            if (pos.q != ln / stk || pos.r != ln % stk) { T_CHECK(0); return; }
            sg_line_step(&pos, (int)stk);
            float v[1025];
            for (int i = 0; i < n; i++) v[i] = u[base + i * stk];
            for (int s = 0; s < 11; s++) {
                int h = inverse ? 1 << (10 - s) : 1 << s;
                for (int i = h; i < n - 1; i += 2 * h)
                    if ((i & -i) == h) v[i] = inverse ? sg_unsurplus(v[i], v[i - h], v[i + h]) : sg_surplus(v[i], v[i - h], v[i + h]);
            }
            for (int i = 0; i < n; i++) u[base + i * stk] = v[i];
          }
        }
    }
}

/* tiles of a batch (src: nt tiles of g, dst: them transformed) that differ bitwise from the
 * float reference applied to each tile alone; tile: scratch for one tile */
static int tiles_differ(const float *src, const float *dst, long long nt, const sg_geom *g, int inv, float *tile)
{
    long long N = g->size;
    int bad = 0;
    for (long long t = 0; t < nt; t++) {
        memcpy(tile, src + t * N, sizeof(float) * N);
        sg_ref_tile_f(tile, g, inv);
        bad += memcmp(tile, dst + t * N, sizeof(float) * N) != 0;
    }
    return bad;
}

static const char *SHAPES[] = {"2", "3", "5", "33", "1025", "3x3", "33x33", "3x17", "2x9", "17x5", "9x9x9",
                               "5x3x17", "2x2x9", "9x9x5x5", "3x5x9x2", "5x5x5x5", "2x2x2x2", "17x3x3x5"};
#define NSHAPES (int)(sizeof SHAPES / sizeof *SHAPES)

static void test_shape(const char *dims)
{
    sg_geom g;
    char err[200];
    T_CHECK(sg_parse_dims(dims, &g, err, sizeof err) == 0);
    long long N = g.size, idx[SG_MAXD];
    double *ud = malloc(sizeof(double) * N), *vd = malloc(sizeof(double) * N);
    float *uf = malloc(sizeof(float) * N), *vf = malloc(sizeof(float) * N), *wf = malloc(sizeof(float) * N);

    /* round trips */
    double maxu = 0, e_d = 0, e_f = 0;
    for (long long r = 0; r < N; r++) { uf[r] = rnd(r + 77 * N); ud[r] = uf[r]; maxu = fmax(maxu, fabs(ud[r])); }
    memcpy(vd, ud, sizeof(double) * N);
    memcpy(vf, uf, sizeof(float) * N);
    sg_ref_tile_d(vd, &g, 0);
    sg_ref_tile_f(vf, &g, 0);
    sg_ref_tile_d(vd, &g, 1);
    sg_ref_tile_f(vf, &g, 1);
    for (long long r = 0; r < N; r++) { e_d = fmax(e_d, fabs(vd[r] - ud[r])); e_f = fmax(e_f, fabs(vf[r] - uf[r])); }
    T_CHECK(e_d <= 1e-12 * maxu);
    /* fp32 round trip: each of the d 1D round trips adds O(l) ulps of the largest partial
     * values (up to 2^d |u|max); 4e-6 |u|max holds with margin up to l = 10, d = 4 */
    if (!T_CHECK(e_f <= 4e-6 * maxu)) fprintf(stderr, "  %s: float round trip error %g\n", dims, e_f);

    /* f = prod x^2: exact surpluses */
    int bad_d = 0, bad_f = 0;
    for (long long r = 0; r < N; r++) {
        coords(&g, r, idx);
        double f = 1;
        for (int k = 0; k < g.d; k++) { double x = (double)idx[k] / (g.n[k] - 1); f *= x * x; }
        ud[r] = f;
        uf[r] = (float)f;
    }
    sg_ref_tile_d(ud, &g, 0);
    sg_ref_tile_f(uf, &g, 0);
    memcpy(vf, uf, sizeof(float) * N);
    for (long long r = 0; r < N; r++) {
        coords(&g, r, idx);
        double c = 1;
        for (int k = 0; k < g.d; k++) {
            int lev = sg_point_level(idx[k], g.l[k]);
            if (lev == 0) c *= idx[k] == 0 ? 0.0 : 1.0;
            else c *= -ldexp(1.0, -2 * lev); /* -4^-lev */
        }
        bad_d += ud[r] != c;
        float cf = (float)c;
        bad_f += cf == 0 ? uf[r] != 0 : memcmp(&uf[r], &cf, sizeof cf) != 0; /* +-0 alike */
    }
    if (!T_CHECK(bad_d == 0) || !T_CHECK(bad_f == 0)) fprintf(stderr, "  shape %s: prod x^2 surpluses\n", dims);

    /* d-linear: sum over subsets S of a_S prod_{j in S} x_j with dyadic a_S */
    for (long long r = 0; r < N; r++) {
        coords(&g, r, idx);
        double f = 0;
        for (int S = 0; S < (1 << g.d); S++) {
            double t = (double)((S * 5 + 3) % 11 - 5) * 0.25;
            for (int k = 0; k < g.d; k++)
                if (S >> k & 1) t *= (double)idx[k] / (g.n[k] - 1);
            f += t;
        }
        ud[r] = f;
        uf[r] = (float)f;
        vd[r] = f;
    }
    sg_ref_tile_d(ud, &g, 0);
    sg_ref_tile_f(uf, &g, 0);
    int bad_lin = 0, bad_linf = 0;
    for (long long r = 0; r < N; r++) {
        coords(&g, r, idx);
        int corner = 1;
        for (int k = 0; k < g.d; k++) corner &= idx[k] == 0 || idx[k] == g.n[k] - 1;
        if (corner) { bad_lin += ud[r] != vd[r]; bad_linf += uf[r] != (float)vd[r]; }
        else { bad_lin += ud[r] != 0.0; bad_linf += fabsf(uf[r]) > 1e-6f; }
    }
    if (!T_CHECK(bad_lin == 0) || !T_CHECK(bad_linf == 0)) fprintf(stderr, "  shape %s: d-linear\n", dims);

    /* replayed kernels and the tuned version vs the float reference, both directions */
    for (int inv = 0; inv < 2; inv++) {
        for (long long r = 0; r < N; r++) uf[r] = rnd(r + 3 * N + inv);
        memcpy(vf, uf, sizeof(float) * N);
        memcpy(wf, uf, sizeof(float) * N);
        sg_ref_tile_f(uf, &g, inv);
        replay_fused(vf, &g, inv);
        if (!T_CHECK(memcmp(uf, vf, sizeof(float) * N) == 0)) fprintf(stderr, "  %s inv=%d: fused replay differs\n", dims, inv);
        if (g.l[0] <= 10) {
            replay_b(wf, &g, inv);
            if (!T_CHECK(memcmp(uf, wf, sizeof(float) * N) == 0)) fprintf(stderr, "  %s inv=%d: B replay differs\n", dims, inv);
        }
    }

    /* tuned batch == each tile alone (reference), bitwise, both directions, in and out of place */
    long long nt = N > 5000 ? 3 : 7;
    float *src = malloc(sizeof(float) * N * nt), *dst = malloc(sizeof(float) * N * nt);
    for (int inv = 0; inv < 2; inv++) {
        for (long long i = 0; i < N * nt; i++) src[i] = rnd(i * 7 + inv);
        T_CHECK(sg_cpu_tuned(src, dst, nt, &g, inv, 2) == 0);
        if (!T_CHECK(tiles_differ(src, dst, nt, &g, inv, vf) == 0)) fprintf(stderr, "  %s inv=%d: tuned differs\n", dims, inv);
        T_CHECK(sg_cpu_tuned(src, src, nt, &g, inv, 1) == 0); /* in place, 1 thread */
        T_CHECK(memcmp(src, dst, sizeof(float) * N * nt) == 0);
    }

    /* the lines kernel replayed on the whole batch of tiles == each tile alone */
    if (g.l[0] <= 10)
        for (int inv = 0; inv < 2; inv++) {
            for (long long i = 0; i < N * nt; i++) src[i] = rnd(i * 5 + inv);
            memcpy(dst, src, sizeof(float) * N * nt);
            replay_lines(dst, nt, &g, inv, inv ? 128 : 256);
            if (!T_CHECK(tiles_differ(src, dst, nt, &g, inv, vf) == 0)) fprintf(stderr, "  %s inv=%d: lines replay differs\n", dims, inv);
        }

    /* version B plan: each line along k in exactly one slice, limits respected */
    static sg_slice sl[SG_B_MAX_SLICES];
    for (int k = 0; k < g.d && g.l[0] <= 10; k++) {
        int threads, c = sg_b_plan(&g, k, sl, SG_B_MAX_SLICES, &threads);
        if (g.l[k] == 0) { T_EQ_INT(c, 0); continue; }
        T_CHECK(c > 0);
        T_CHECK(threads <= SG_B_MAX_THREADS && threads % 32 == 0);
        int *hits = calloc((size_t)N, sizeof(int)), badc = 0;
        for (int s = 0; s < c; s++) {
            T_CHECK(sl[s].nlines * g.n[k] <= SG_B_MAX_FLOATS);
            T_CHECK(sl[s].nlines << (g.l[k] - 1) <= threads);
            for (int m = 0; m < sl[s].nlines; m++) {
                long long off = sg_slice_line_offset(&sl[s], g.stride, sl[s].first_line + m);
                for (int i = 0; i < g.n[k]; i++) hits[off + i * g.stride[k]]++;
            }
        }
        for (long long r = 0; r < N; r++) badc += hits[r] != 1;
        if (!T_CHECK(badc == 0)) fprintf(stderr, "  %s dim %d: slices do not partition the tile\n", dims, k);
        free(hits);
    }
    free(ud); free(vd); free(uf); free(vf); free(wf); free(src); free(dst);
}

int main(void)
{
    { /* sg_line_first / sg_line_step == (ln / stk, ln % stk) for every stride up to 4100 */
        int bad = 0;
        static const int steps[] = {1, 32, 96, 128, 256};
        for (int stk = 1; stk <= 4100; stk++)
            for (int si = 0; si < 5; si++)
                for (int first = 0; first < steps[si]; first += 7) {
                    sg_line_pos p = sg_line_first(first, steps[si], stk);
                    for (int ln = first; ln < first + 40 * steps[si]; ln += steps[si]) {
                        bad += p.q != ln / stk || p.r != ln % stk;
                        sg_line_step(&p, stk);
                    }
                }
        T_EQ_INT(bad, 0);
    }

    /* sizes and parsing */
    T_EQ_INT(sg_level_of(2), 0);
    T_EQ_INT(sg_level_of(3), 1);
    T_EQ_INT(sg_level_of(33), 5);
    T_EQ_INT(sg_level_of(1025), 10);
    T_EQ_INT(sg_level_of(1), -1);
    T_EQ_INT(sg_level_of(0), -1);
    T_EQ_INT(sg_level_of(4), -1);
    T_EQ_INT(sg_level_of(32), -1);
    T_EQ_INT(sg_level_of((1LL << SG_MAX_LEVEL) + 1), SG_MAX_LEVEL);
    T_EQ_INT(sg_level_of((1LL << (SG_MAX_LEVEL + 1)) + 1), -1);
    sg_geom g;
    char err[200];
    T_CHECK(sg_parse_dims("9x9x5x5", &g, err, sizeof err) == 0);
    T_EQ_INT(g.d, 4);
    T_EQ_INT(g.size, 2025);
    T_EQ_INT(g.stride[2], 81);
    T_EQ_INT(g.l[3], 2);
    const char *bad[] = {"", "x", "33x", "x33", "33xx33", "10", "33x10", "0", "1", "33,33", "9x9x9x9x9", "-3",
                         "33 x33", "65537x65537x3", "3x"};
    for (int i = 0; i < (int)(sizeof bad / sizeof *bad); i++)
        if (!T_CHECK(sg_parse_dims(bad[i], &g, err, sizeof err) == -1)) fprintf(stderr, "  accepted '%s'\n", bad[i]);

    /* the thesis's work-item counts (section 5.1: 49000 for 7000 tiles 33x33, 62500 for
     * 2500 tiles 9x9x9, 60000 for 600 tiles 9x9x5x5) */
    static sg_slice sl[SG_B_MAX_SLICES];
    int th, maxc;
    const char *tshape[3] = {"33x33", "9x9x9", "9x9x5x5"};
    int want[3] = {7, 25, 100};
    for (int s = 0; s < 3; s++) {
        sg_parse_dims(tshape[s], &g, err, sizeof err);
        maxc = 0;
        for (int k = 0; k < g.d; k++) { int c = sg_b_plan(&g, k, sl, SG_B_MAX_SLICES, &th); maxc = c > maxc ? c : maxc; }
        T_EQ_INT(maxc, want[s]);
    }

    /* work items of more lines than one block takes: cut into slices within both limits
     * (threads: SG_B_MAX_THREADS; shared floats: SG_B_MAX_FLOATS), every line in one slice */
    {
        const char *big[] = {"3x1025x5", "5x257x17", "9x65x65"};
        for (int s = 0; s < 3; s++) {
            T_CHECK(sg_parse_dims(big[s], &g, err, sizeof err) == 0);
            for (int k = 0; k < g.d; k++) {
                int c = sg_b_plan(&g, k, sl, SG_B_MAX_SLICES, &th), over = th > SG_B_MAX_THREADS;
                long long lines = 0;
                if (!T_CHECK(c > 0)) continue;
                for (int i = 0; i < c; i++) {
                    over += (sl[i].nlines << (g.l[k] - 1)) > SG_B_MAX_THREADS || sl[i].nlines * g.n[k] > SG_B_MAX_FLOATS;
                    lines += sl[i].nlines;
                }
                T_EQ_INT(lines, g.size / g.n[k]);
                if (!T_CHECK(over == 0)) fprintf(stderr, "  %s dim %d: %d threads, a slice over a block's limits\n", big[s], k, th);
            }
        }
    }

    for (int s = 0; s < NSHAPES; s++) test_shape(SHAPES[s]);

    /* sparse grids: counts, additive functions need no truncated subspace */
    for (int d = 1; d <= 3; d++)
        for (int L = 1; L <= (d == 1 ? 8 : d == 2 ? 6 : 4); L++) {
            int n[SG_MAXD];
            for (int k = 0; k < d; k++) n[k] = (1 << L) + 1;
            sg_geom_init(&g, d, n, err, sizeof err);
            long long idx[SG_MAXD], kept = 0;
            double *u = malloc(sizeof(double) * g.size), *v = malloc(sizeof(double) * g.size), e = 0;
            for (long long r = 0; r < g.size; r++) {
                coords(&g, r, idx);
                double f = 0;
                for (int k = 0; k < d; k++) { double x = (double)idx[k] / (n[k] - 1); f += sin(3 * x + k) ; }
                u[r] = v[r] = f;
            }
            sg_ref_tile_d(u, &g, 0);
            for (long long r = 0; r < g.size; r++) {
                coords(&g, r, idx);
                if (sg_in_sparse(idx, d, L)) kept++;
                else u[r] = 0;
            }
            sg_ref_tile_d(u, &g, 1);
            for (long long r = 0; r < g.size; r++) e = fmax(e, fabs(u[r] - v[r]));
            T_CHECK(e < 1e-12);
            if (d == 1 || L == 1) T_EQ_INT(kept, g.size); /* 1D and level 1: the whole grid */
            else T_CHECK(kept < g.size);
            /* evaluation: at the nodes the nodal values, in between linear */
            double x[SG_MAXD];
            for (int k = 0; k < d; k++) x[k] = 1.0 / (n[k] - 1);
            T_NEAR(sg_eval_multilinear(v, d, L, x), v[d == 1 ? 1 : d == 2 ? 1 + n[0] : 1 + n[0] + n[0] * n[0]], 1e-12);
            free(u);
            free(v);
        }
    /* regular sparse grid with boundary, d = 2, level 2: 5x5 minus the 4 points of level (2,2) */
    {
        long long idx[2], kept = 0;
        for (idx[1] = 0; idx[1] < 5; idx[1]++)
            for (idx[0] = 0; idx[0] < 5; idx[0]++) kept += sg_in_sparse(idx, 2, 2);
        T_EQ_INT(kept, 21);
    }
    double lin[4] = {1, 3, 5, 7}; /* 2x2 grid of level 0? use level 1 3x3 bilinear instead */
    (void)lin;
    return T_DONE();
}
