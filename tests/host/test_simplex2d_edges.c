/* test_simplex2d_edges.c -- simplex2d/map.h at its boundaries: exact launch shapes, the limits
 * of s2_grid_make on both sides, and the integer corrections of the float guesses over the
 * whole range where they matter (what only the GPU test reached before).
 *
 * 1. Launch shapes.  For every map, every rho and block counts m at the awkward values (1, 2,
 *    the perfect squares T(m) = q^2: m = 1, 8, 49, 288, 1681, 9800, 57121, powers of two and
 *    their neighbours, the largest accepted sizes), the grid equals its closed form: BB m x m,
 *    RB (m + 1) x ceil(m / 2), rec (d 2^k blocks, k + 1 launches), utm ceil(T(n) / rho^2)
 *    threads' blocks in rows of at most 65535, the lambda 2D family m' x m' with m' the
 *    smallest integer with m'^2 >= T(m) (at a perfect square exactly q: no idle row or column),
 *    lambda-exact T(m) x 1, recursive (P/2) x ceil(T(m) / (P/2)) (less than one idle row),
 *    recursive-above T(P) with P the next power of two >= m (no idle block at m = 2^k),
 *    lambda-strict T(ceil((n - 1) / rho)).  A grid that only wastes blocks fails here.
 * 2. Working blocks: for every block map, the blocks of the launch grid that s2_map_block
 *    keeps are exactly the T(m) blocks of the triangle (none past it), every m <= 160 and the
 *    boundary sizes.
 * 3. Limits on both sides: n = 2^20 accepted / 2^20 + 1 refused; T(m) < 2^32 (m = 92681)
 *    accepted / m = 92682 refused with the reason; 1D grids at 2^31 - 1 blocks; the map
 *    number (S2_NMAPS, the internal kernel instance, refused and nameless); rec's launched
 *    blocks summed over all its launches.
 * 4. The integer corrections: utm's row a from the float formula, corrected, at every row
 *    start (and one before and after it) for every n from 4090 to 6200 (the float formula
 *    first errs upwards at n = 4097 and downwards at n = 5795) and for sampled n up to 2^20;
 *    tri_row_exact at every row boundary up to row 2^20 + 1 (the largest triangles). */
#include <stdlib.h>
#include "../../common/testlib.h"
#include "../../simplex2d/map.h"
#include "simplex2d_walk.h"

#ifdef TEST_SANITIZE /* make asan: fewer sizes for the pure-arithmetic sweeps */
#define UTM_DENSE_HI 4200
#define UTM_SAMPLES 6
#else
#define UTM_DENSE_HI 6200
#define UTM_SAMPLES 48
#endif

static const uint32_t RHOS[6] = {1, 2, 4, 8, 16, 32};

/* smallest q with q^2 >= x, by bisection (independent of s2_isqrt_ceil) */
static uint64_t ceil_sqrt_ref(uint64_t x)
{
    uint64_t lo = 0, hi = 1ull << 32;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (mid * mid >= x) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

static uint32_t pow2_floor(uint32_t m) { uint32_t p = 1; while (2 * p <= m) p *= 2; return p; }
static uint32_t pow2_ceil(uint32_t m) { uint32_t p = 1; while (p < m) p *= 2; return p; }

/* The closed form of map's grid for n, rho: 0 if g matches it (or the map refuses the size
 * for a reason checked elsewhere), else prints the difference and returns 1. */
static int shape_ok(int map, uint32_t n, uint32_t rho)
{
    s2_grid g;
    char err[256];
    if (s2_grid_make(&g, map, n, rho, err, sizeof err)) return 1; /* callers pass accepted sizes */
    uint64_t m = (n + rho - 1) / rho, T = m * (m + 1) / 2;
    uint64_t gx = 0, gy = 0; /* expected, single-launch maps */
    switch (map) {
    case S2_BB: gx = m, gy = m; break;
    case S2_RB: gx = m + 1, gy = m / 2 + m % 2; break;
    case S2_REC: {
        uint32_t k = 0;
        while (m % 2 == 0 && m > 1 && k < 22) m /= 2, k++; /* m = d 2^k */
        if (g.nlaunch != k + 1 || g.rec_k != k || g.rec_d != m) goto bad;
        for (uint32_t l = 0; l <= k; l++) {
            uint64_t s = l ? (uint64_t)m << (l - 1) : m, rows = l ? s << (k - l) : m << k;
            if (g.gx[l] != s || g.gy[l] != rows) goto bad;
        }
        return 0;
    }
    case S2_UTM:
    case S2_UTM_PUBLISHED: {
        uint64_t cells = (uint64_t)n * (n + 1) / 2, per = (uint64_t)rho * rho, blocks = cells / per + (cells % per != 0);
        gx = blocks < 65535 ? blocks : 65535;
        gy = blocks / gx + (blocks % gx != 0);
        if (g.bx_threads != rho * rho || g.by_threads != 1) goto bad;
        break;
    }
    case S2_LAMBDA_EXACT: gx = T, gy = 1; break;
    case S2_LAMBDA_STRICT: {
        uint64_t ms = (n - 1 + rho - 1) / rho;
        gx = ms * (ms + 1) / 2, gy = 1;
        if (g.m != ms) goto bad;
        break;
    }
    case S2_RECURSIVE:
    case S2_RECURSIVE_2D: {
        uint64_t half = pow2_floor((uint32_t)m) / 2;
        if (half == 0) half = 1;
        uint64_t rows = T / half + (T % half != 0);
        if (map == S2_RECURSIVE) gx = half * rows, gy = 1;
        else gx = half, gy = rows;
        break;
    }
    case S2_RECURSIVE_ABOVE: {
        uint64_t P = pow2_ceil((uint32_t)m);
        gx = P > 1 ? P / 2 * (P + 1) : 1, gy = 1;
        break;
    }
    default: { /* the lambda family on the paper's m' x m' grid */
        uint64_t q = ceil_sqrt_ref(T);
        gx = gy = q;
        if (g.mp != q) goto bad;
        break;
    }
    }
    if (g.nlaunch != 1 || g.gx[0] != gx || g.gy[0] != gy || s2_grid_blocks(&g) != gx * gy) goto bad;
    return 0;
bad:
    fprintf(stderr, "  %s n=%u rho=%u: grid %u x %u (%u launches) differs from the closed form %llu x %llu\n",
            s2_map_name(map), n, rho, g.gx[0], g.gy[0], g.nlaunch, (unsigned long long)gx, (unsigned long long)gy);
    return 1;
}

/* working blocks of a block map = T(m) exactly, each block of the triangle once */
static long working_blocks_bad(int map, uint32_t n, uint32_t rho, unsigned char *hit, size_t hitsz)
{
    s2_grid g;
    char err[256];
    if (s2_grid_make(&g, map, n, rho, err, sizeof err)) return 1;
    uint64_t m = g.m, T = (uint64_t)m * (m + 1) / 2, works;
    if ((uint64_t)m * m > hitsz) return 1;
    long bad = s2t_walk_blocks(&g, map, hit, &works);
    if (works != T) {
        fprintf(stderr, "  %s n=%u rho=%u: %llu working blocks, T(m) = %llu\n", s2_map_name(map), n, rho,
                (unsigned long long)works, (unsigned long long)T);
        bad++;
    }
    return bad;
}

/* utm: s2_utm (corrected) at the row starts of n: rows [a0, a1), k = S(a) - 1, S(a), S(a) + 1 */
static long utm_rows_bad(uint32_t n, uint64_t a0, uint64_t a1)
{
    uint64_t np = (uint64_t)n + 1, T = tri_number(n);
    long bad = 0;
    for (uint64_t a = a0; a < a1 && a + 1 < np; a++) {
        uint64_t s = s2_utm_start(np, a), next = s2_utm_start(np, a + 1);
        for (int d = -1; d <= 1; d++) {
            if ((d < 0 && s == 0) || s + d >= T) continue;
            uint64_t k = s + d, row = d < 0 ? a - 1 : a, rs = d < 0 ? s2_utm_start(np, a - 1) : s;
            uint32_t i, j;
            s2_utm(n, k, 1, &i, &j);
            bad += j != row || i != (uint32_t)(row + k - rs) || i >= n || j > i;
            (void)next;
        }
    }
    return bad;
}

int main(void)
{
    /* ---- 1. launch shapes at the boundary sizes ---- */
    static const uint32_t ms[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 48, 49, 50, 255, 256, 257, 287, 288, 289,
                                  1023, 1024, 1025, 1680, 1681, 1682, 4096, 9799, 9800, 9801, 32768};
    long bad_shape = 0, shapes = 0;
    for (int map = 0; map < S2_NMAPS; map++)
        for (int r = 0; r < 6; r++)
            for (size_t a = 0; a < sizeof ms / sizeof *ms; a++)
                for (int lo = 0; lo < 2; lo++) {
                    uint32_t rho = RHOS[r], m = ms[a];
                    uint64_t n = lo ? (uint64_t)(m - 1) * rho + 1 : (uint64_t)m * rho; /* smallest, largest n of m */
                    if (n > (1u << 20) || n == 0) continue;
                    if (map == S2_REC && n % rho) continue;
                    if (map == S2_LAMBDA_STRICT && n < 2) continue;
                    s2_grid g;
                    char err[256];
                    if (s2_grid_make(&g, map, (uint32_t)n, rho, err, sizeof err)) continue; /* limits: part 3 */
                    shapes++;
                    bad_shape += shape_ok(map, (uint32_t)n, rho);
                }
    T_EQ_INT(bad_shape, 0);
    T_CHECK(shapes > 2000);
    /* the perfect squares T(m) = q^2: m' = q exactly (a ceiling root that rounds up wastes a
     * row and a column of m' + 1 blocks there) */
    static const uint32_t sq_m[] = {1, 8, 49, 288, 1681, 9800, 57121};
    static const uint32_t sq_q[] = {1, 6, 35, 204, 1189, 6930, 40391};
    for (int t = 0; t < 7; t++) {
        s2_grid g;
        char err[256];
        T_EQ_INT((uint64_t)sq_q[t] * sq_q[t], tri_number(sq_m[t]));
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_EXACT_2D, sq_m[t], 1, err, sizeof err), 0);
        T_EQ_INT(g.mp, sq_q[t]);
        T_EQ_INT(g.gx[0], sq_q[t]);
        T_EQ_INT(s2_grid_blocks(&g), g.nblocks_tri); /* not a single idle block */
        if (sq_m[t] * 32 <= (1u << 20)) {
            T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_SQRT, sq_m[t] * 32, 32, err, sizeof err), 0);
            T_EQ_INT(g.mp, sq_q[t]);
        }
        T_EQ_INT(s2_isqrt_ceil((uint64_t)sq_q[t] * sq_q[t]), sq_q[t]);
        T_EQ_INT(s2_isqrt_ceil((uint64_t)sq_q[t] * sq_q[t] + 1), sq_q[t] + 1);
        if (sq_q[t] > 1) T_EQ_INT(s2_isqrt_ceil((uint64_t)sq_q[t] * sq_q[t] - 1), sq_q[t]);
    }
    /* s2_isqrt_ceil against the bisection at q^2 - 1, q^2, q^2 + 1 past the 32-bit range of T(m) */
    long bad_sqrt = 0;
    for (uint64_t q = 1; q < (1ull << 17); q += q < 5000 ? 1 : q / 4099) { /* x up to 2^34 > T(m) */
        uint64_t x = q * q;
        bad_sqrt += s2_isqrt_ceil(x) != q || s2_isqrt_ceil(x + 1) != q + 1 || s2_isqrt_ceil(x - 1) != ceil_sqrt_ref(x - 1);
    }
    T_EQ_INT(bad_sqrt, 0);
    T_EQ_INT(s2_isqrt_ceil(0), 0);
    T_EQ_INT(s2_isqrt_ceil(1), 1);
    /* recursive-above at m = 2^k: the orthotope of P = m, T(m) blocks, none idle; at 2^k + 1
     * the next power of two */
    for (uint32_t m = 1; m <= 4096; m *= 2) {
        s2_grid g;
        char err[256];
        T_EQ_INT(s2_grid_make(&g, S2_RECURSIVE_ABOVE, m * 8, 8, err, sizeof err), 0);
        T_EQ_INT(s2_grid_blocks(&g), tri_number(m));
        T_EQ_INT(s2_grid_make(&g, S2_RECURSIVE_ABOVE, m * 8 + 1, 8, err, sizeof err), 0);
        T_EQ_INT(s2_grid_blocks(&g), tri_number(2 * m));
    }
    /* lambda-strict: m = ceil((n - 1) / rho); at n - 1 = a multiple of rho no extra block row */
    {
        s2_grid g;
        char err[256];
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_STRICT, 33, 32, err, sizeof err), 0);
        T_EQ_INT(g.m, 1);
        T_EQ_INT(g.gx[0], 1);
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_STRICT, 34, 32, err, sizeof err), 0);
        T_EQ_INT(g.gx[0], 3);
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_STRICT, 2, 1, err, sizeof err), 0);
        T_EQ_INT(g.gx[0], 1);
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_STRICT, 1, 1, err, sizeof err), 1);
    }
    /* utm: blocks in full rows of 65535; the last row partly filled, never a whole idle row */
    {
        s2_grid g;
        char err[256];
        T_EQ_INT(s2_grid_make(&g, S2_UTM, 65535, 1, err, sizeof err), 0); /* T(n) = 65535 * 32768 */
        T_EQ_INT(g.gx[0], 65535);
        T_EQ_INT(g.gy[0], 32768);
        T_EQ_INT(s2_grid_make(&g, S2_UTM, 65536, 1, err, sizeof err), 0); /* 65535 * 32769 + 1 blocks */
        T_EQ_INT(g.gy[0], 32770);
        T_EQ_INT(s2_grid_make(&g, S2_UTM, 361, 1, err, sizeof err), 0); /* T(361) = 65341 < 65535 */
        T_EQ_INT(g.gx[0], 65341);
        T_EQ_INT(g.gy[0], 1);
        T_EQ_INT(s2_grid_make(&g, S2_UTM, 362, 1, err, sizeof err), 0); /* 65703 = 65535 + 168 */
        T_EQ_INT(g.gx[0], 65535);
        T_EQ_INT(g.gy[0], 2);
    }

    /* ---- 2. working blocks = the T(m) blocks of the triangle ---- */
    size_t hitsz = 1100u * 1100u;
    unsigned char *hit = malloc(hitsz);
    long bad_work = 0;
    for (int map = 0; map < S2_NMAPS; map++) {
        if (s2_map_is_utm(map)) continue;
        for (uint32_t m = 1; m <= 160; m++) bad_work += working_blocks_bad(map, map == S2_LAMBDA_STRICT ? m + 1 : m, 1, hit, hitsz) != 0;
        static const uint32_t big[] = {255, 256, 257, 288, 511, 512, 513, 1023, 1024, 1025};
        for (size_t b = 0; b < sizeof big / sizeof *big; b++) {
            uint32_t n = big[b] * 4 - (map == S2_REC ? 0 : 3) + (map == S2_LAMBDA_STRICT ? 1 : 0);
            bad_work += working_blocks_bad(map, n, 4, hit, hitsz) != 0;
        }
    }
    T_EQ_INT(bad_work, 0);
    free(hit);

    /* ---- 3. limits, both sides ---- */
    {
        s2_grid g;
        char err[256];
        T_EQ_INT(s2_grid_make(&g, S2_BB, 1u << 20, 32, err, sizeof err), 0); /* the largest n */
        T_EQ_INT(g.m, 32768);
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_EXACT, 1u << 20, 32, err, sizeof err), 0);
        T_EQ_INT(g.gx[0], tri_number(32768));
        T_EQ_INT(s2_grid_make(&g, S2_BB, (1u << 20) + 1, 32, err, sizeof err), 1);
        T_CHECK(strstr(err, "too large") != NULL);
        T_EQ_INT(s2_grid_make(&g, S2_BB, 1, 1, err, sizeof err), 0); /* the smallest */
        T_EQ_INT(g.gx[0] * g.gy[0], 1);
        /* T(m) in 32 bits: m = 92681 is the last block count (T = 4294930221) */
        T_CHECK(tri_number(92681) <= UINT32_MAX && tri_number(92682) > UINT32_MAX);
        T_EQ_INT(s2_grid_make(&g, S2_RB, 92681, 1, err, sizeof err), 0);
        T_EQ_INT(g.nblocks_tri, tri_number(92681));
        T_EQ_INT(g.gx[0], 92682);
        T_EQ_INT(g.gy[0], 46341);
        T_EQ_INT(s2_grid_make(&g, S2_RB, 92682, 1, err, sizeof err), 1);
        T_CHECK(strstr(err, "overflow 32 bits") != NULL);
        T_EQ_INT(s2_grid_make(&g, S2_RB, 92681 * 8, 8, err, sizeof err), 0);
        T_EQ_INT(s2_grid_make(&g, S2_RB, 92681 * 8 + 1, 8, err, sizeof err), 1);
        /* the 1D grids: T(65535) = 2147450880 <= 2^31 - 1 blocks, T(65536) is not */
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_STRICT, 65536, 1, err, sizeof err), 0);
        T_EQ_INT(g.gx[0], 2147450880u);
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_STRICT, 65537, 1, err, sizeof err), 1);
        /* the lambda 2D grid: m' <= 65535 (gridDim.y), so T(m) <= 65535^2: m = 92679 */
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_EXACT_2D, 92679, 1, err, sizeof err), 0);
        T_EQ_INT(g.mp, 65535);
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_EXACT_2D, 92680, 1, err, sizeof err), 1);
        /* rho: exactly the powers of two 1..32 */
        for (uint32_t rho = 0; rho <= 64; rho++) {
            int ok = rho == 1 || rho == 2 || rho == 4 || rho == 8 || rho == 16 || rho == 32;
            T_EQ_INT(s2_grid_make(&g, S2_BB, 64, rho, err, sizeof err), ok ? 0 : 1);
        }
        /* map: exactly the S2_NMAPS maps of --map; S2_RECURSIVE_POW2 (= S2_NMAPS) is a kernel
         * instance that s2_run picks, not a map with a grid of its own, and has no --map name */
        T_EQ_INT(s2_grid_make(&g, S2_NMAPS, 64, 8, err, sizeof err), 1);
        T_CHECK(strstr(err, "unknown map") != NULL);
        T_EQ_INT(s2_grid_make(&g, -1, 64, 8, err, sizeof err), 1);
        T_EQ_INT(s2_grid_make(&g, S2_NMAPS - 1, 64, 8, err, sizeof err), 0);
        T_CHECK(!strcmp(s2_map_name(S2_NMAPS), "?"));
        T_CHECK(!strcmp(s2_map_name(-1), "?"));
        T_CHECK(!strcmp(s2_map_name(S2_NMAPS - 1), "lambda-strict"));
        T_EQ_INT(s2_map_of("?"), -1);
        /* rec's launched blocks (the efficiency columns) count every launch: m = d 2^k, the
         * diagonal pass d x d 2^k, level l s x s 2^(k - l) with s = d 2^(l - 1): for d = 1 the
         * T(m) blocks exactly (m = 8: 8 + 4 + 8 + 16 = 36), for d = 3, k = 2 (m = 12) the T(12)
         * = 78 blocks plus the 4 x 3 idle ones above the small diagonals, 90 */
        T_EQ_INT(s2_grid_make(&g, S2_REC, 8, 1, err, sizeof err), 0);
        T_EQ_INT(g.nlaunch, 4);
        T_EQ_INT(s2_grid_blocks(&g), 36);
        T_EQ_INT(s2_grid_make(&g, S2_REC, 12 * 16, 16, err, sizeof err), 0);
        T_EQ_INT(g.nlaunch, 3);
        T_EQ_INT(s2_grid_blocks(&g), 90);
        T_EQ_INT(s2_grid_make(&g, S2_REC, 1024 * 4, 4, err, sizeof err), 0); /* m = 2^10: 11 launches */
        T_EQ_INT(g.nlaunch, 11);
        T_EQ_INT(s2_grid_blocks(&g), tri_number(1024));
    }

    /* ---- 4a. utm's corrections: every row start of every n in [4090, UTM_DENSE_HI] ---- */
    long bad_utm = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : bad_utm)
    for (uint32_t n = 4090; n <= UTM_DENSE_HI; n++) bad_utm += utm_rows_bad(n, 0, n);
    T_EQ_INT(bad_utm, 0);
    /* ... where the formula alone errs: upwards first at n = 4097, downwards at n = 5795 */
    {
        uint32_t n = 4097;
        T_EQ_INT(s2_utm_a_float(n, 4096), 1); /* row 0 holds k = 0 .. 4096 */
        uint32_t i, j;
        s2_utm(n, 4096, 1, &i, &j);
        T_CHECK(j == 0 && i == 4096);
        n = 5795;
        uint64_t k = 16777257ull, np = n + 1;
        T_CHECK(s2_utm_start(np, 5613) <= k && k < s2_utm_start(np, 5614));
        T_EQ_INT(s2_utm_a_float(n, k), 5612);
        s2_utm(n, k, 1, &i, &j);
        T_EQ_INT(j, 5613);
        T_EQ_INT(i, 5613 + k - s2_utm_start(np, 5613));
    }
    /* 4b. sampled n up to 2^20 (utm serves every n <= 2^20): all rows of each */
    uint32_t samples[UTM_SAMPLES + 4];
    int ns = 0;
    for (int t = 0; t < UTM_SAMPLES; t++) { /* geometric from 6200 to 2^20, odd offsets */
        double x = 6200.0 * pow((double)(1u << 20) / 6200.0, (t + 0.5) / UTM_SAMPLES);
        samples[ns++] = (uint32_t)x | 1u;
    }
    samples[ns++] = 1u << 20;
    samples[ns++] = (1u << 20) - 1;
    samples[ns++] = 1u << 19;
    samples[ns++] = 92681;
    bad_utm = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : bad_utm)
    for (int t = 0; t < ns; t++) bad_utm += utm_rows_bad(samples[t], 0, samples[t]);
    T_EQ_INT(bad_utm, 0);
    /* the utm maps end at the last cell: k = T(n) - 1 is cell (n - 1, n - 1), k >= T(n) no cell */
    {
        s2_grid g;
        char err[256];
        T_EQ_INT(s2_grid_make(&g, S2_UTM, 1u << 20, 32, err, sizeof err), 0);
        uint64_t last = tri_number(1u << 20) - 1, per = 32 * 32, blk = last / per;
        uint32_t i = 0, j = 0;
        T_CHECK(s2_map_cell(&g, S2_UTM, 0, (uint32_t)(blk % g.gx[0]), (uint32_t)(blk / g.gx[0]), (uint32_t)(last % per), 0, 0, &i, &j));
        T_EQ_INT(i, (1u << 20) - 1);
        T_EQ_INT(j, (1u << 20) - 1);
        long extra = 0;
        uint64_t end = (uint64_t)g.gx[0] * g.gy[0] * per; /* the threads launched */
        for (uint64_t k = last + 1; k < end; k += k < last + 4 * per ? 1 : (end - last) / 977 + 1) {
            uint64_t b = k / per;
            extra += s2_map_cell(&g, S2_UTM, 0, (uint32_t)(b % g.gx[0]), (uint32_t)(b / g.gx[0]), (uint32_t)(k % per), 0, 0, &i, &j);
        }
        uint64_t b = (end - 1) / per;
        extra += s2_map_cell(&g, S2_UTM, 0, (uint32_t)(b % g.gx[0]), (uint32_t)(b / g.gx[0]), (uint32_t)((end - 1) % per), 0, 0, &i, &j);
        T_EQ_INT(extra, 0);
    }

    /* ---- 4c. tri_row_exact at every row boundary up to row 2^20 + 1 ---- */
    long bad_row = 0;
#pragma omp parallel for reduction(+ : bad_row)
    for (uint64_t y = 1; y <= (1u << 20) + 1; y++) {
        uint64_t t = tri_number(y);
        bad_row += tri_row_exact(t) != y || tri_row_exact(t - 1) != y - 1 || tri_row_exact(t + y) != y;
    }
    T_EQ_INT(bad_row, 0);
    return T_DONE();
}
