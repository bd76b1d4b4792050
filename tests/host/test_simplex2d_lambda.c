/* test_simplex2d_lambda.c -- the lambda(omega) family and the recursive map at full scale.
 *
 * 1. tri_row_exact (the name simplex3d uses) against the definition at triangular-number
 *    boundaries up to 2^62; tri_rowcol32 (lambda-exact: one 32-bit product, one compare)
 *    against the definition for every w < 2^32, and its float guess is y or y + 1 there
 *    (the one-sided error map.h's exactness argument bounds analytically).
 * 2. lambda-exact and recursive for every block index of the largest experiment grids
 *    (N = 2^15 and 30720 with rho = 8 and 16, and every m up to 1024): each block of the
 *    triangle hit exactly once.
 * 3. The float maps' first wrong block index (scanning omega = 0, 1, ... against the exact
 *    row): lambda-sqrt 10619135 (last block of row 4607, read as 4608), lambda-newton
 *    1316253 (row 1622, read as 1621);
 *    lambda-rsqrt in host emulation (1 / sqrtf: correctly rounded, unlike the GPU's rsqrtf)
 *    2110485 (row 2054, read as 2053) -- the device's own index is found by tests/gpu. */
#include <stdlib.h>
#include "../../common/testlib.h"
#include "../../simplex2d/map.h"
#include "simplex2d_walk.h"

#ifdef TEST_SANITIZE /* make asan: the exhaustive sweeps sampled, every boundary kept */
#define CHUNK_STEP (1021u << 16) /* one chunk of 2^16 indices in 1021 */
#define NSIZES_SKIP 6            /* only the last two grids */
#define W_STEP 997
#define M_RECURSIVE 300
#else
#define CHUNK_STEP (1u << 16)
#define NSIZES_SKIP 0
#define W_STEP 1
#define M_RECURSIVE 1024
#endif

/* Block coverage of a block map over the whole launch grid: 0 errors expected. */
static long block_coverage(int map, uint32_t n, uint32_t rho, unsigned char *hit)
{
    s2_grid g;
    char err[200];
    if (s2_grid_make(&g, map, n, rho, err, sizeof err)) return 1;
    uint64_t works;
    long bad = s2t_walk_blocks(&g, map, hit, &works);
    for (uint32_t i = 0; i < g.m; i++)
        for (uint32_t j = 0; j <= i; j++) bad += hit[(size_t)i * g.m + j] != 1;
    return bad;
}

int main(void)
{
    /* 1a. tri_row_exact at boundaries, small and huge */
    long bad = 0;
    for (uint64_t y = 1; y < 200000; y++) {
        uint64_t t = tri_number(y);
        bad += tri_row_exact(t) != y || tri_row_exact(t - 1) != y - 1 || tri_row_exact(t + y) != y;
    }
    T_EQ_INT(bad, 0);
    bad = 0;
    uint64_t y = 3037000499ull; /* T(y) < 2^62 for y below ~3.037e9 */
    for (int s = 0; s < 190000; s++, y -= 15187) {
        uint64_t t = tri_number(y);
        bad += tri_row_exact(t) != y || tri_row_exact(t - 1) != y - 1;
    }
    T_EQ_INT(bad, 0);
    T_EQ_INT(tri_row_exact(0), 0);
    T_EQ_INT(tri_row_exact(1), 1);
    T_EQ_INT(tri_row_exact(2), 1);
    T_EQ_INT(tri_row_exact(3), 2);

    /* 1b. tri_rowcol32 (lambda-exact's row and column) for EVERY w < 2^32, against the
     * definition in 64-bit integers: T(y) <= w < T(y + 1), j = w - T(y); and its float
     * guess is y or y + 1 (the one-sided error the single compare relies on, map.h) */
    bad = 0;
    long guess_off = 0;
#pragma omp parallel for reduction(+ : bad, guess_off) schedule(static)
    for (uint64_t hi = 0; hi < (1ull << 32); hi += CHUNK_STEP) {
        for (uint64_t w = hi; w < hi + (1u << 16); w++) {
            uint32_t j, y = tri_rowcol32((uint32_t)w, &j);
            uint64_t t = tri_number(y);
            bad += !(t <= w && w < t + y + 1) || j != w - t;
            uint32_t g = (uint32_t)sqrtf(fmaf(2.0f, (float)(uint32_t)w, 1.0f));
            guess_off += g != y && g != y + 1;
        }
    }
    T_EQ_INT(bad, 0);
    T_EQ_INT(guess_off, 0);
    T_EQ_INT(tri_row_exact32(4294967295u), tri_row_exact(4294967295ull));
    /* tri_number32 equals T(y) for every row whose T(y) fits in 32 bits (and a few beyond:
     * T(y) mod 2^32) */
    bad = 0;
    for (uint32_t yy = 0; yy <= 200000; yy++) bad += tri_number32(yy) != (uint32_t)tri_number(yy);
    T_EQ_INT(bad, 0);

    /* 2. every block index of the largest grids the experiments use */
    static const uint32_t sizes[][2] = {{1u << 15, 8}, {1u << 15, 16}, {1u << 15, 32}, {30720, 8},
                                        {30720, 16}, {30720, 32}, {30720 - 1024, 16}, {3 * 1024, 16}};
    unsigned char *hit = malloc(4096u * 4096u);
    for (size_t s = NSIZES_SKIP; s < sizeof sizes / sizeof *sizes; s++) {
        T_EQ_INT(block_coverage(S2_LAMBDA_EXACT, sizes[s][0], sizes[s][1], hit), 0);
        T_EQ_INT(block_coverage(S2_RECURSIVE, sizes[s][0], sizes[s][1], hit), 0);
    }
    /* lambda-exact against tri_row_exact for every omega of the largest grid (m = 4096) */
    bad = 0;
    uint32_t T4096 = (uint32_t)tri_number(4096);
#pragma omp parallel for reduction(+ : bad)
    for (uint32_t w = 0; w < T4096; w += W_STEP) {
        uint32_t bi, bj;
        s2_lambda(S2_LAMBDA_EXACT, w, &bi, &bj);
        bad += bi != tri_row_exact(w) || bj > bi;
    }
    T_EQ_INT(bad, 0);
    free(hit);
    /* the kernel instance recursive launches at m = 2^k (S2_RECURSIVE_POW2) gives the same
     * block for every block index as the general map */
    bad = 0;
    for (uint32_t m = 2; m <= (1u << 12); m *= 2) {
        s2_grid g;
        char err[200];
        T_EQ_INT(s2_grid_make(&g, S2_RECURSIVE, m, 1, err, sizeof err), 0);
        for (uint32_t b = 0; b < g.gx[0]; b++) {
            uint32_t i1 = 0, j1 = 0, i2 = 0, j2 = 0;
            int k1 = s2_map_block(&g, S2_RECURSIVE, 0, b, 0, &i1, &j1);
            int k2 = s2_map_block(&g, S2_RECURSIVE_POW2, 0, b, 0, &i2, &j2);
            bad += k1 != k2 || (k1 && (i1 != i2 || j1 != j2));
        }
    }
    T_EQ_INT(bad, 0);
    /* recursive for every m from 1 to 1024 (rho = 1: n = m) */
    bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        unsigned char *h = malloc(1024 * 1024);
#pragma omp for schedule(dynamic)
        for (uint32_t m = 1; m <= M_RECURSIVE; m++) bad += block_coverage(S2_RECURSIVE, m, 1, h) != 0;
        /* "from above": one orthotope of the next power of two, rows past m filtered */
#pragma omp for schedule(dynamic)
        for (uint32_t m = 1; m <= M_RECURSIVE; m++) bad += block_coverage(S2_RECURSIVE_ABOVE, m, 1, h) != 0;
        free(h);
    }
    T_EQ_INT(bad, 0);

    /* 3. first wrong block index of the float maps */
    uint64_t w_sqrt = s2t_first_wrong(S2_LAMBDA_SQRT, 1ull << 26);
    uint64_t w_newton = s2t_first_wrong(S2_LAMBDA_NEWTON, 1ull << 26);
    uint64_t w_rsqrt = s2t_first_wrong(S2_LAMBDA_RSQRT, 1ull << 26);
    printf("first wrong block index: lambda-sqrt %llu (row %u), lambda-newton %llu (row %u), "
           "lambda-rsqrt host emulation %llu (row %u)\n",
           (unsigned long long)w_sqrt, tri_row_exact(w_sqrt), (unsigned long long)w_newton,
           tri_row_exact(w_newton), (unsigned long long)w_rsqrt, tri_row_exact(w_rsqrt));
    T_EQ_INT(w_sqrt, 10619135);
    T_EQ_INT(tri_row_exact(w_sqrt), 4607); /* last omega of row 4607 read as row 4608 */
    T_EQ_INT(w_newton, 1316253);
    T_EQ_INT(w_rsqrt, 2110485);
    return T_DONE();
}
