/* test_simplex3d_coverage.c -- every map of simplex3d/map.h covers the tetrahedron exactly.
 *
 * Host emulation of exactly the launch grids the GPU program launches (simplex3d/emulate.h):
 * for n = 1..96 and rho = 1, 2, 4, 8 every cell of D_n = {x <= y <= z < n} is taken by
 * exactly one working thread, and nothing else; lambda-cubic within its exact range, and its
 * failure just past it.  Block level, larger sizes: recursive-o1, recursive-o1-below and
 * recursive-log for every nb up to 160 and nb = 2^k - 1, 2^k, 2^k + 1 up to 513 (and
 * recursive-o1-below to 1025; the
 * non-power-of-two sizes the GPU sweep measures), lambda-exact for every block index of the
 * largest experiment grids (n = 4096, rho = 8 and 4).  The 32-bit arithmetic of the
 * per-thread audit (tet_number32, s3_packed32, s3_lambda_exact_ijk32) equals the 64-bit
 * functions up to its stated limit, which is asserted to be the last exact one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/testlib.h"
#include "../../simplex3d/map.h"
#include "../../simplex3d/emulate.h"

#ifdef TEST_SANITIZE /* make asan: smaller sweeps (the plain build keeps the full ones) */
#define N_CELLS 40
#define NB_BLOCKS 64
#define K_TOP 8
#define NB_LAMBDA_BIG 256
#define RANDOM_IDX 20000
#else
#define N_CELLS 96
#define NB_BLOCKS 160
#define K_TOP 10
#define NB_LAMBDA_BIG 1024
#define RANDOM_IDX 2000000
#endif

typedef struct {
    unsigned char *cnt;
    uint64_t cells;
    long long outside;
} cov_ctx;

static void visit(void *c, uint32_t x, uint32_t y, uint32_t z, uint64_t l, uint64_t b, uint32_t t)
{
    cov_ctx *cc = (cov_ctx *)c;
    (void)l, (void)b, (void)t;
    uint64_t i = s3_packed(x, y, z);
    if (i >= cc->cells) cc->outside++;
    else if (cc->cnt[i] < 255) cc->cnt[i]++;
}

/* 1 iff map covers D_n exactly once with rho. */
static int covers_q(int map, uint32_t n, uint32_t rho, unsigned char *cnt, int quiet)
{
    cov_ctx c = {cnt, tet_number(n), 0};
    memset(cnt, 0, c.cells);
    long long w = s3_emulate(map, n, rho, visit, &c);
    if (w < 0) return 0;
    uint64_t bad = 0;
    for (uint64_t i = 0; i < c.cells; i++) bad += cnt[i] != 1;
    if ((bad || c.outside || (uint64_t)w != c.cells) && !quiet)
        fprintf(stderr, "  %s n=%u rho=%u: %llu cells not covered once, %lld outside, %lld working\n",
                s3_map_name(map), n, rho, (unsigned long long)bad, c.outside, w);
    return !bad && !c.outside && (uint64_t)w == c.cells;
}

static int covers(int map, uint32_t n, uint32_t rho, unsigned char *cnt) { return covers_q(map, n, rho, cnt, 0); }

/* Block level: the map is a bijection of its grid's working blocks onto D_nb. */
static int block_bijection(int map, uint32_t nb)
{
    s3_params p;
    if (s3_plan(map, nb, 1, &p)) return 0;
    uint64_t T = p.tet_blocks, nl;
    unsigned char *seen = (unsigned char *)calloc(T, 1);
    uint32_t *l = s3_launch_list(map, &p, &nl);
    uint64_t bad = 0;
    for (uint64_t li = 0; li < nl; li++) {
        s3_params q = p;
        if (map == S3_RECURSIVE_LOG)
            q.gx = q.gy = q.gz = l[4 * li], q.a0 = l[4 * li + 1], q.b0 = l[4 * li + 2], q.c0 = l[4 * li + 3];
        for (uint32_t iz = 0; iz < q.gz; iz++)
            for (uint32_t iy = 0; iy < q.gy; iy++)
                for (uint32_t ix = 0; ix < q.gx; ix++) {
                    uint32_t bx, by, bz;
                    if (!s3_block(map, &q, ix, iy, iz, &bx, &by, &bz)) continue;
                    if (!s3_cell_inside(bx, by, bz, nb)) { bad++; continue; }
                    uint64_t i = s3_packed(bx, by, bz);
                    if (seen[i]++) bad++;
                }
    }
    for (uint64_t i = 0; i < T; i++) bad += seen[i] != 1;
    free(seen);
    free(l);
    return bad == 0;
}

int main(void)
{
    const uint32_t rhos[4] = {1, 2, 4, 8};
    unsigned char *cnt = (unsigned char *)malloc(tet_number(200));

    /* 1. cell coverage, n = 1..96, every rho, every map */
    for (int map = 0; map < S3_NMAPS; map++)
        for (int r = 0; r < 4; r++) {
            long ok = 0, tried = 0;
            for (uint32_t n = 1; n <= N_CELLS; n++) {
                s3_params p;
                T_EQ_INT(s3_plan(map, n, rhos[r], &p), 0);
                if (map == S3_LAMBDA_CUBIC && p.tet_blocks > S3_LAMBDA_CUBIC_FIRST_FAIL_HOST) continue;
                tried++;
                ok += covers(map, n, rhos[r], cnt);
            }
            printf("%-14s rho=%u: %ld of %ld sizes covered exactly once\n", s3_map_name(map), rhos[r], ok, tried);
            T_EQ_INT(ok, tried);
            T_CHECK(tried > 0);
        }
    /* recursive-log takes any block count now: launches as for the power of two below */
    s3_params p;
    T_EQ_INT(s3_plan(S3_RECURSIVE_LOG, 24, 8, &p), 0);
    T_EQ_INT(s3_num_launches(S3_RECURSIVE_LOG, 3), 4);
    T_EQ_INT(s3_num_launches(S3_RECURSIVE_LOG, 33), s3_num_launches(S3_RECURSIVE_LOG, 32));
    T_CHECK(covers(S3_RECURSIVE_LOG, 128, 1, cnt));
    T_CHECK(covers(S3_RECURSIVE_LOG, 131, 1, cnt));
    T_CHECK(covers(S3_RECURSIVE_O1B, 131, 1, cnt));
    T_CHECK(covers(S3_RECURSIVE_O1B, 200, 8, cnt));
    T_CHECK(covers(S3_RECURSIVE_O1, 131, 1, cnt));
    T_CHECK(covers(S3_RECURSIVE_O1, 200, 8, cnt));
    T_CHECK(covers(S3_LAMBDA_EXACT, 133, 1, cnt));

    /* 2. lambda-cubic (as published, fp32): exact through nb = 132, wrong at nb = 133 */
    T_CHECK(covers(S3_LAMBDA_CUBIC, 132, 1, cnt));
    T_CHECK(!covers_q(S3_LAMBDA_CUBIC, 133, 1, cnt, 1)); /* expected to fail */
    uint64_t first = 0;
    for (uint64_t w = 0; w < 100000000ull; w++) {
        uint32_t a, b, c, d, e, f;
        s3_lambda_cubic_ijk(w, &a, &b, &c);
        s3_lambda_exact_ijk(w, &d, &e, &f);
        if (a != d || b != e || c != f) { first = w; break; }
    }
    printf("lambda-cubic (eq. 15 + eps, fp32, host): first wrong block index %llu (layer %u)\n",
           (unsigned long long)first, tet_layer_exact(first));
    T_EQ_INT(first, S3_LAMBDA_CUBIC_FIRST_FAIL_HOST);
    /* bare eq. (15) in fp32: wrong already at the exact tetrahedral number 10 = Tet(3) */
    T_EQ_INT(s3_f2u_rz(s3_cubic_root_f32(10)), 2);
    uint64_t first_bare = 0;
    for (uint64_t w = 1; w < 1000; w++)
        if (s3_f2u_rz(s3_cubic_root_f32(w)) != tet_layer_exact(w)) { first_bare = w; break; }
    printf("bare eq. (15), fp32: first wrong omega %llu\n", (unsigned long long)first_bare);
    T_EQ_INT(first_bare, 10);
    /* fp64 cbrt also fails at exact tetrahedral numbers */
    uint64_t first64 = 0;
    for (uint64_t k = 1; k < 100000 && !first64; k++) {
        double x = s3_cubic_root_f64(tet_number(k));
        if ((uint64_t)floor(x) != k) first64 = tet_number(k);
    }
    printf("bare eq. (15), fp64: first wrong tetrahedral number %llu\n", (unsigned long long)first64);
    T_CHECK(first64 > 0 && first64 <= 1330);

    /* 3. block level, larger sizes: every nb <= 160, and 2^k - 1, 2^k, 2^k + 1 to 513 (1025) */
    const int rmaps[3] = {S3_RECURSIVE_O1, S3_RECURSIVE_O1B, S3_RECURSIVE_LOG};
    long nbad = 0, ntried = 0;
    for (uint32_t nb = 1; nb <= NB_BLOCKS; nb++)
        for (int m = 0; m < 3; m++) {
            ntried++;
            if (!block_bijection(rmaps[m], nb)) nbad++, fprintf(stderr, "  %s nb=%u: not a bijection\n", s3_map_name(rmaps[m]), nb);
        }
    for (uint32_t k = 8; k <= K_TOP; k++)
        for (int d = -1; d <= 1; d++)
            for (int m = 0; m < 3; m++) {
                uint32_t nb = (1u << k) + d;
                if (k == 10 && rmaps[m] != S3_RECURSIVE_O1B) continue; /* 180 M blocks each: the new map only */
                ntried++;
                if (!block_bijection(rmaps[m], nb)) nbad++, fprintf(stderr, "  %s nb=%u: not a bijection\n", s3_map_name(rmaps[m]), nb);
            }
    printf("recursive maps: %ld of %ld (map, nb) block grids not a bijection onto D_nb\n", nbad, ntried);
    T_EQ_INT(nbad, 0);
    /* recursive-o1-below: one launch, within recursive-o1's 12.5%% (plus the last layer's
     * padding) at every nb; recursive-o1 rounds nb up: 2^k + 1 costs it ~9 Tet(nb) blocks */
    double worst = 0;
    for (uint32_t nb = 2; nb <= 4096; nb++) {
        s3_plan(S3_RECURSIVE_O1B, nb, 1, &p);
        double ratio = (double)p.gx * p.gy * p.gz / tet_number(nb);
        if (ratio > worst) worst = ratio;
        if (s3_is_pow2(nb)) {
            s3_params q;
            s3_plan(S3_RECURSIVE_O1, nb, 1, &q);
            T_CHECK(q.gx == p.gx && q.gy == p.gy && q.gz == p.gz); /* the same grid as recursive-o1 */
        }
    }
    /* and at nb = 2^k it is recursive-o1 block for block */
    long differ = 0;
    for (uint32_t nb = 1; nb <= 128; nb *= 2) {
        s3_params q;
        s3_plan(S3_RECURSIVE_O1B, nb, 1, &p);
        s3_plan(S3_RECURSIVE_O1, nb, 1, &q);
        for (uint32_t iz = 0; iz < p.gz; iz++)
            for (uint32_t iy = 0; iy < p.gy; iy++)
                for (uint32_t ix = 0; ix < p.gx; ix++) {
                    uint32_t a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
                    int oa = s3_block(S3_RECURSIVE_O1B, &p, ix, iy, iz, &a[0], &a[1], &a[2]);
                    int ob = s3_block(S3_RECURSIVE_O1, &q, ix, iy, iz, &b[0], &b[1], &b[2]);
                    differ += oa != ob || (oa && (a[0] != b[0] || a[1] != b[1] || a[2] != b[2]));
                }
    }
    T_EQ_INT(differ, 0);
    printf("recursive-o1-below: largest grid / Tet(nb) for nb = 2..4096: %.4f\n", worst);
    T_CHECK(worst < 1.35);
    s3_plan(S3_RECURSIVE_O1, 513, 1, &p);
    printf("recursive-o1 at nb = 513: grid / Tet(nb) = %.3f\n", (double)p.gx * p.gy * p.gz / tet_number(513));

    /* 4. lambda-exact: every block index of the largest experiment grids (n = 4096 with
     * rho = 8: nb = 512, and rho = 4: nb = 1024, 180 M block indices) */
    T_CHECK(block_bijection(S3_LAMBDA_EXACT, NB_LAMBDA_BIG / 2));
    T_CHECK(block_bijection(S3_LAMBDA_EXACT, NB_LAMBDA_BIG));
    /* and the layer/row at every layer boundary the CUDA grid can hold (65535^3 indices) */
    uint64_t wmax = 65535ull * 65535ull * 65535ull, badb = 0;
    for (uint64_t k = 1; tet_number(k) - 1 < wmax; k++)
        for (int d = -1; d <= 1; d++) {
            uint64_t w = tet_number(k) + d;
            uint32_t i, j, kk;
            s3_lambda_exact_ijk(w, &i, &j, &kk);
            int ok = tet_number(kk) <= w && w < tet_number(kk + 1) && i <= j && j <= kk &&
                     tet_number(kk) + tri_number(j) + i == w;
            badb += !ok;
        }
    printf("lambda-exact: %llu wrong indices at the layer boundaries below 65535^3\n", (unsigned long long)badb);
    T_EQ_INT(badb, 0);
    /* random indices over the whole range */
    uint64_t s = 88172645463325252ull, badr = 0;
    for (int t = 0; t < RANDOM_IDX; t++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint64_t w = s % wmax;
        uint32_t i, j, kk;
        s3_lambda_exact_ijk(w, &i, &j, &kk);
        badr += !(i <= j && j <= kk && tet_number(kk) + tri_number(j) + i == w);
    }
    T_EQ_INT(badr, 0);

    /* 5. the 32-bit arithmetic of the audit.  tet_number32 exact up to S3_TET32_MAX_K, the
     * last k with Tet(k) < 2^32 */
    uint64_t bad32 = 0;
    for (uint32_t k = 0; k <= S3_TET32_MAX_K; k++) bad32 += tet_number32(k) != tet_number(k);
    T_EQ_INT(bad32, 0);
    T_CHECK(tet_number(S3_TET32_MAX_K) == S3_TET32_MAX_W && S3_TET32_MAX_W < (1ull << 32));
    T_CHECK(tet_number(S3_TET32_MAX_K + 1) >= (1ull << 32));
    /* s3_packed32 at the corners of the largest 32-bit block tetrahedron (nb = MAX_K) */
    for (uint32_t z = S3_TET32_MAX_K - 3; z < S3_TET32_MAX_K; z++)
        for (uint32_t y = 0; y <= z; y += z - y > 3 ? z / 7 : 1)
            T_CHECK(s3_packed32(y / 2, y, z) == s3_packed(y / 2, y, z) && s3_packed32(y, y, z) == s3_packed(y, y, z));
    /* s3_lambda_exact_ijk32 == s3_lambda_exact_ijk at every layer boundary below
     * S3_TET32_MAX_W (+-2), every row boundary of 64 layers, and 4 M random indices */
    bad32 = 0;
    for (uint32_t k = 1; k <= S3_TET32_MAX_K; k++)
        for (int d = -2; d <= 2; d++) {
            uint64_t w = tet_number(k) + d;
            if (w >= S3_TET32_MAX_W) continue;
            uint32_t a, b, c, e, f, g;
            s3_lambda_exact_ijk32((uint32_t)w, &a, &b, &c);
            s3_lambda_exact_ijk(w, &e, &f, &g);
            bad32 += a != e || b != f || c != g;
        }
    for (uint32_t k = S3_TET32_MAX_K - 63; k < S3_TET32_MAX_K; k++)
        for (uint32_t j = 0; j <= k; j++)
            for (int d = -1; d <= 0; d++) {
                uint64_t w = tet_number(k) + tri_number(j) + (uint64_t)(d + (j > 0 ? 0 : 1));
                if (w >= S3_TET32_MAX_W) continue;
                uint32_t a, b, c, e, f, g;
                s3_lambda_exact_ijk32((uint32_t)w, &a, &b, &c);
                s3_lambda_exact_ijk(w, &e, &f, &g);
                bad32 += a != e || b != f || c != g;
            }
    for (int t = 0; t < 2 * RANDOM_IDX; t++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint64_t w = s % S3_TET32_MAX_W;
        uint32_t a, b, c, e, f, g;
        s3_lambda_exact_ijk32((uint32_t)w, &a, &b, &c);
        s3_lambda_exact_ijk(w, &e, &f, &g);
        bad32 += a != e || b != f || c != g;
    }
    printf("lambda-exact 32-bit: %llu indices differ from the 64-bit map\n", (unsigned long long)bad32);
    T_EQ_INT(bad32, 0);
    /* idx32: the plan uses 32-bit indices exactly where they are exact */
    T_EQ_INT(s3_plan(S3_BB, 8 * S3_TET32_MAX_K, 8, &p), 0);
    T_EQ_INT(p.idx32, 1);
    T_EQ_INT(s3_plan(S3_BB, 8 * S3_TET32_MAX_K + 1, 8, &p), 0);
    T_EQ_INT(p.idx32, 0);
    T_EQ_INT(s3_plan(S3_LAMBDA_EXACT, 8 * 2900, 8, &p), 0); /* grid 1598^3 < 2^32 */
    T_EQ_INT(p.idx32, 1);
    T_EQ_INT(s3_plan(S3_LAMBDA_EXACT, 8 * S3_TET32_MAX_K, 8, &p), 0); /* grid 1626^3 > 2^32 */
    T_EQ_INT(p.idx32, 0);
    /* elem32: element indices Tet(nb) rho^3 of the blocked layout below 2^32, the largest
     * n on each side of the limit for rho = 1, 2, 4, 8 (and never without idx32) */
    for (uint32_t rho = 1; rho <= 8; rho *= 2) {
        uint32_t nb = 1;
        while (tet_number(nb + 1) * rho * rho * rho < (1ull << 32)) nb++;
        T_EQ_INT(s3_plan(S3_RECURSIVE_O1, nb * rho, rho, &p), 0);
        T_EQ_INT(p.elem32, nb <= S3_TET32_MAX_K);
        T_EQ_INT(s3_plan(S3_RECURSIVE_O1, nb * rho + 1, rho, &p), 0);
        T_EQ_INT(p.elem32, 0);
    }
    T_EQ_INT(s3_plan(S3_BB, 1024, 8, &p), 0);
    T_EQ_INT(p.elem32, 1);
    T_EQ_INT(s3_plan(S3_BB, 8 * S3_TET32_MAX_K + 1, 8, &p), 0);
    T_EQ_INT(p.elem32, 0);
    free(cnt);
    return T_DONE();
}
