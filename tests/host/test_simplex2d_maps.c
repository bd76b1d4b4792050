/* test_simplex2d_maps.c -- exact coverage of every simplex2d map (simplex2d/map.h).
 *
 * For every map, every n in 1..300 and every rho in {1, 2, 4, 8, 16, 32}: the launch grid of
 * s2_grid_make is walked exactly as the GPU runs it (every launch, block and thread), each
 * thread's cell from s2_map_cell is counted in a flat 0/1 array, and every cell (i, j),
 * 0 <= j <= i < n, must be hit exactly once and nothing else (s2_map_cell never returns a
 * cell outside the triangle).  The strict variant (j < i) is checked the same way.
 * Also: grid sizes of the lambda maps (m' = ceil(sqrt(m(m+1)/2)) in integers), rec's refusal
 * of n not a multiple of rho, refusal of T(m) >= 2^32, utm's float range (exact up to n = 4096, wrong from 4097). */
#include <stdlib.h>
#include "../../common/testlib.h"
#include "../../simplex2d/map.h"

#define NMAX 300

/* Returns the number of coverage errors of (map, n, rho, strict). */
static long coverage(int map, uint32_t n, uint32_t rho, int strict, unsigned char *hit)
{
    s2_grid g;
    char err[200];
    if (s2_grid_make(&g, map, n, rho, err, sizeof err))
        return (map == S2_REC && n % rho) || (s2_map_is_strict(map) && n < 2) ? 0 : 1000000;
    memset(hit, 0, (size_t)n * n);
    long bad = 0;
    for (uint32_t l = 0; l < g.nlaunch; l++)
        for (uint32_t by = 0; by < g.gy[l]; by++)
            for (uint32_t bx = 0; bx < g.gx[l]; bx++)
                for (uint32_t ty = 0; ty < g.by_threads; ty++)
                    for (uint32_t tx = 0; tx < g.bx_threads; tx++) {
                        uint32_t i, j;
                        if (!s2_map_cell(&g, map, l, bx, by, tx, ty, strict, &i, &j)) continue;
                        if (i >= n || j > i || (strict && j == i)) { bad++; continue; }
                        if (hit[(size_t)i * n + j]++) bad++;
                    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j <= i; j++)
            if (hit[(size_t)i * n + j] != (strict && i == j ? 0 : 1)) bad++;
    return bad;
}

int main(void)
{
    static const uint32_t rhos[6] = {1, 2, 4, 8, 16, 32};
    long fails[S2_NMAPS][6];
    memset(fails, 0, sizeof fails);
#pragma omp parallel
    {
        unsigned char *hit = malloc((size_t)NMAX * NMAX);
#pragma omp for schedule(dynamic) collapse(2)
        for (int map = 0; map < S2_NMAPS; map++)
            for (uint32_t n = 1; n <= NMAX; n++)
                for (int r = 0; r < 6; r++) {
                    /* eq. (5) (lambda-strict) has no diagonal: the strict check only, at every n */
                    long b = s2_map_is_strict(map) ? 0 : coverage(map, n, rhos[r], 0, hit);
                    if (n % 7 == 0 || n < 40 || s2_map_is_strict(map)) b += coverage(map, n, rhos[r], 1, hit);
                    if (b) {
#pragma omp atomic
                        fails[map][r] += 1;
#pragma omp critical
                        if (fails[map][r] <= 3)
                            fprintf(stderr, "map %s n=%u rho=%u: %ld coverage errors\n", s2_map_name(map), n, rhos[r], b);
                    }
                }
        free(hit);
    }
    for (int map = 0; map < S2_NMAPS; map++)
        for (int r = 0; r < 6; r++) T_EQ_INT(fails[map][r], 0);

    /* names round-trip, the option list holds them all */
    for (int map = 0; map < S2_NMAPS; map++) T_EQ_INT(s2_map_of(s2_map_name(map)), map);
    T_EQ_INT(s2_map_of("nope"), -1);

    /* lambda grid: m' = ceil(sqrt(m(m+1)/2)), exact in integers */
    s2_grid g;
    char err[200];
    T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_EXACT_2D, 1u << 15, 16, err, sizeof err), 0);
    T_EQ_INT(g.m, 2048);
    T_EQ_INT(g.nblocks_tri, 2098176);
    T_EQ_INT(g.mp, 1449); /* 1448^2 = 2096704 < 2098176 <= 1449^2 */
    T_CHECK((uint64_t)g.mp * g.mp >= g.nblocks_tri && (uint64_t)(g.mp - 1) * (g.mp - 1) < g.nblocks_tri);
    /* ... and ours on a 1D grid of exactly T(m) blocks */
    T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_EXACT, 1u << 15, 16, err, sizeof err), 0);
    T_EQ_INT(g.gx[0], 2098176);
    T_EQ_INT(g.gy[0], 1);
    /* recursive at m = 2^k: the paper's orthotope, m/2 x (m + 1) blocks, no idle block */
    T_EQ_INT(s2_grid_make(&g, S2_RECURSIVE_2D, 1u << 15, 16, err, sizeof err), 0);
    T_EQ_INT(g.gx[0], 1024);
    T_EQ_INT(g.gy[0], 2049);
    T_EQ_INT(s2_grid_blocks(&g), g.nblocks_tri);
    /* eq. (13) branch-free (s2_recursive_pow2, the kernels' form) gives the block of the
     * paper's case form for every (wx, wy) of the orthotopes s = 1 .. 2^12, the two diagonal
     * rows wy = 0 and wy = s included */
    long diff = 0;
    for (uint32_t logs = 0; logs <= 12; logs++) {
        const uint32_t s = 1u << logs, half = s > 1 ? s / 2 : 1;
        for (uint32_t wy = 0; wy <= s; wy++)
            for (uint32_t wx = 0; wx < half; wx++) {
                uint32_t i1, j1, i2, j2;
                s2_recursive_pow2_cases(logs, wx, wy, &i1, &j1);
                s2_recursive_pow2(logs, wx, wy, &i2, &j2);
                diff += i1 != i2 || j1 != j2;
            }
    }
    T_EQ_INT(diff, 0);
    /* ... and the same blocks as one row (1D grid) */
    T_EQ_INT(s2_grid_make(&g, S2_RECURSIVE, 1u << 15, 16, err, sizeof err), 0);
    T_EQ_INT(g.gx[0], 1024 * 2049);
    T_EQ_INT(g.gy[0], 1);
    T_EQ_INT(g.rc_lhalf, 10);
    /* from above: m = 1025 blocks -> the orthotope of P = 2048, 1024 x 2049 blocks, 1D */
    T_EQ_INT(s2_grid_make(&g, S2_RECURSIVE_ABOVE, 1025 * 16, 16, err, sizeof err), 0);
    T_EQ_INT(g.gx[0], 1024 * 2049);
    T_EQ_INT(g.gy[0], 1);
    /* rec: 30720 / 16 = 1920 = 15 * 2^7 -> 7 levels + diagonal pass */
    T_EQ_INT(s2_grid_make(&g, S2_REC, 30720, 16, err, sizeof err), 0);
    T_EQ_INT(g.rec_k, 7);
    T_EQ_INT(g.rec_d, 15);
    T_EQ_INT(g.nlaunch, 8);
    /* bad input */
    T_EQ_INT(s2_grid_make(&g, S2_REC, 100, 16, err, sizeof err), 1);
    T_EQ_INT(s2_grid_make(&g, S2_BB, 0, 16, err, sizeof err), 1);
    T_EQ_INT(s2_grid_make(&g, S2_BB, 64, 3, err, sizeof err), 1);
    T_EQ_INT(s2_grid_make(&g, S2_BB, 64, 64, err, sizeof err), 1);
    T_EQ_INT(s2_grid_make(&g, S2_BB, (1u << 20) + 1, 16, err, sizeof err), 1);
    T_EQ_INT(s2_grid_make(&g, S2_BB, 1u << 20, 1, err, sizeof err), 1); /* gridDim.y > 65535 */
    /* T(m) >= 2^32 block indices: refused, never truncated (n = 2^20, rho = 1 used to give a
     * 725 x 725 lambda grid covering 2^19 of the 2^39 blocks) */
    for (int map = 0; map < S2_NMAPS; map++) {
        T_EQ_INT(s2_grid_make(&g, map, 1u << 20, 1, err, sizeof err), 1);
        T_EQ_INT(s2_grid_make(&g, map, 200000, 2, err, sizeof err), 1);
    }
    /* the largest lambda grid that fits: m' <= 65535 (gridDim.y), so omega < 2^32 */
    T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_EXACT_2D, 92679, 1, err, sizeof err), 0);
    T_CHECK(g.mp <= 65535 && (uint64_t)g.mp * g.mp >= g.nblocks_tri);
    /* the 1D grids stop at 2^31 - 1 blocks: T(65535) = 2147450880 fits, T(65536) does not */
    T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_EXACT, 65535, 1, err, sizeof err), 0);
    T_EQ_INT(g.gx[0], 2147450880u);
    T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_EXACT, 65536, 1, err, sizeof err), 1);
    T_CHECK(strstr(err, "lambda-exact-2d") != NULL);
    T_EQ_INT(s2_grid_make(&g, S2_RECURSIVE, 65535, 1, err, sizeof err), 0); /* 2D: gridDim.y 131070 */
    T_EQ_INT(s2_grid_make(&g, S2_RECURSIVE_2D, 65535, 1, err, sizeof err), 1);
    T_EQ_INT(s2_grid_make(&g, S2_RECURSIVE, 65536, 1, err, sizeof err), 1);

    /* utm: the published float formula (0-based) is exact for n <= 4096 (found by scanning
     * every k of every n from 1 to 4097) and first wrong at n = 4097, k = 4096; checked here
     * at a few sizes.  The maps use the integer-corrected form, exact for all n. */
    static const uint32_t utm_ok[] = {1, 2, 3, 17, 300, 1000, 2047, 3001, 4096};
    for (size_t t = 0; t < sizeof utm_ok / sizeof *utm_ok; t++) {
        uint32_t n = utm_ok[t];
        uint64_t np = (uint64_t)n + 1, T = tri_number(n), bad = 0;
        for (uint64_t k = 0; k < T; k++) {
            uint32_t a = s2_utm_a_float(n, k);
            if (!(s2_utm_start(np, a) <= k && k < s2_utm_start(np, a + 1))) bad++;
        }
        T_EQ_INT(bad, 0);
    }
    {
        uint32_t n = 4097, a = s2_utm_a_float(n, 4096);
        uint64_t np = n + 1;
        T_CHECK(!(s2_utm_start(np, a) <= 4096 && 4096 < s2_utm_start(np, a + 1)));
        uint64_t first = 0;
        for (uint64_t k = 0; k < 4096; k++) {
            uint32_t b = s2_utm_a_float(n, k);
            if (!(s2_utm_start(np, b) <= k && k < s2_utm_start(np, b + 1))) { first = k + 1; break; }
        }
        T_EQ_INT(first, 0); /* k = 4096 is the first wrong index at n = 4097 */
        /* the corrected form is exact there, and at n = 30720 around every 1000th row start */
        uint32_t i, j;
        s2_utm(n, 4096, 1, &i, &j);
        T_CHECK(j == 0 && i == 4096); /* row a = 0 holds k = 0..4096 */
        n = 30720;
        np = n + 1;
        long bad = 0;
        for (uint64_t r = 0; r + 1 < np; r += 997)
            for (int d = -1; d <= 1; d++) {
                uint64_t s = s2_utm_start(np, r);
                if (d < 0 && s == 0) continue;
                uint64_t k = s + d;
                s2_utm(n, k, 1, &i, &j);
                uint64_t a = d < 0 ? r - 1 : r;
                if (j != a || i != (uint32_t)(a + k - s2_utm_start(np, a))) bad++;
            }
        T_EQ_INT(bad, 0);
    }
    return T_DONE();
}
