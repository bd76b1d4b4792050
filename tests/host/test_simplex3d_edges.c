/* test_simplex3d_edges.c -- simplex3d/map.h at its boundaries: exact launch shapes, limits on
 * both sides, the full-block test, and the layer corrections over the whole range.
 *
 * 1. s3_icbrt_ceil at g^3 - 1, g^3, g^3 + 1 (g up to 2^21), against a bisection.
 * 2. Launch shapes of every map at nb = 1, 2, 3, 2^k - 1, 2^k, 2^k + 1 (to 1025), the 32-bit
 *    index limit 2952, 2953, with rho = 1, 2, 4, 8 and the smallest and largest n of each nb:
 *    bb nb^3; lambda g^3 with g the smallest integer with g^3 >= Tet(nb); recursive-log's
 *    first launch ceil(nb / 2)^3 (and the launch list's); recursive-o1 (N/2)^2 (3N/4 + 2) for
 *    N = the power of two >= nb (N = 1: 1, N = 2: 4); recursive-o1-below: recursive-o1's grid
 *    of the largest power of two <= nb plus the fewest whole layers holding the other pieces;
 *    s3_threads_launched = the blocks of every launch x rho^3.
 * 3. The largest accepted nb of each map (grid dimensions <= 65535) and the next one refused.
 * 4. s3_block_full is exactly "every cell of the block lies in D_n" (so a 16-byte store needs
 *    no mask), every block of n = 1..40, rho = 2, 4, 8: both sides of (bz + 1) rho <= n.
 * 5. tet_layer_exact at every layer boundary (+-2) up to layer 2^20, the whole range of
 *    lambda-exact; tet_layer_exact32 likewise up to its limit Tet(2952). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/testlib.h"
#include "../../simplex3d/map.h"
#include "../../simplex3d/emulate.h"

#ifdef TEST_SANITIZE /* make asan: the arithmetic sweeps thinned */
#define LAYER_STEP 97
#else
#define LAYER_STEP 1
#endif

static uint64_t cbrt_ceil_ref(uint64_t v) /* smallest g with g^3 >= v */
{
    uint64_t lo = 0, hi = 1u << 21;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (mid * mid * mid >= v) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}
static uint32_t pow2_ceil(uint32_t v) { uint32_t p = 1; while (p < v) p *= 2; return p; }
static uint32_t pow2_floor(uint32_t v) { uint32_t p = 1; while (2 * p <= v) p *= 2; return p; }
/* recursive-o1's grid volume for N = 2^k blocks per side */
static uint64_t ro1_blocks(uint64_t N) { return N == 1 ? 1 : N == 2 ? 4 : (N / 2) * (N / 2) * (3 * N / 4 + 2); }
/* recursive-o1-below: blocks of every piece after the first D_P, written from the split
 * D_s = D_P + Tri(P) x r (as P/2 x (P + 1) rows) + P x Tri(r) + D_r, recursively */
static uint64_t ro1b_rest_ref(uint32_t s, int first)
{
    uint32_t P = pow2_floor(s), r = s - P;
    uint64_t v = first ? 0 : ro1_blocks(P);
    if (r == 0) return v;
    return v + (uint64_t)(P / 2) * (P + 1) * r + (uint64_t)P * r * (r + 1) / 2 + ro1b_rest_ref(r, 0);
}

static int shape_bad(int map, uint32_t n, uint32_t rho)
{
    s3_params p;
    if (s3_plan(map, n, rho, &p)) { fprintf(stderr, "  %s n=%u rho=%u refused\n", s3_map_name(map), n, rho); return 1; }
    uint64_t nb = (n + rho - 1) / rho, gx = 0, gy = 0, gz = 0, blocks = 0;
    uint64_t nl;
    uint32_t *l = s3_launch_list(map, &p, &nl);
    switch (map) {
    case S3_BB: gx = gy = gz = nb; break;
    case S3_LAMBDA_CUBIC:
    case S3_LAMBDA_EXACT: gx = gy = gz = cbrt_ceil_ref(tet_number(nb)); break;
    case S3_RECURSIVE_LOG: gx = gy = gz = nb > 1 ? nb / 2 + nb % 2 : 1; break;
    case S3_RECURSIVE_O1: {
        uint64_t N = pow2_ceil((uint32_t)nb);
        gx = gy = N >= 2 ? N / 2 : 1;
        gz = ro1_blocks(N) / (gx * gy);
        break;
    }
    case S3_RECURSIVE_O1B: {
        uint64_t P = pow2_floor((uint32_t)nb), h = P >= 2 ? P / 2 : 1, rest = ro1b_rest_ref((uint32_t)nb, 1);
        gx = gy = h;
        gz = ro1_blocks(P) / (h * h) + rest / (h * h) + (rest % (h * h) != 0); /* the fewest layers */
        break;
    }
    }
    for (uint64_t i = 0; i < nl; i++) blocks += map == S3_RECURSIVE_LOG ? (uint64_t)l[4 * i] * l[4 * i] * l[4 * i] : gx * gy * gz;
    int bad = p.gx != gx || p.gy != gy || p.gz != gz || p.nb != nb || p.tet_blocks != tet_number(nb);
    if (map == S3_RECURSIVE_LOG) bad |= l[0] != gx; /* the first launch is the largest cube */
    bad |= s3_threads_launched(map, &p) != blocks * rho * rho * rho;
    if (bad)
        fprintf(stderr, "  %s n=%u rho=%u: grid %u x %u x %u (threads %llu), closed form %llu x %llu x %llu (threads %llu)\n",
                s3_map_name(map), n, rho, p.gx, p.gy, p.gz, (unsigned long long)s3_threads_launched(map, &p),
                (unsigned long long)gx, (unsigned long long)gy, (unsigned long long)gz,
                (unsigned long long)(blocks * rho * rho * rho));
    free(l);
    return bad;
}

/* the largest nb in [lo, hi) that map accepts at rho = 1, by bisection (accepts are a prefix) */
static uint32_t largest_accepted(int map, uint32_t lo, uint32_t hi)
{
    s3_params p;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s3_plan(map, mid, 1, &p) == 0) lo = mid;
        else hi = mid;
    }
    return lo;
}

int main(void)
{
    /* ---- 1. the exact ceiling cube root ---- */
    long bad = 0;
    for (uint64_t g = 1; g < (1u << 21); g += g < 4096 ? 1 : g / 1021) {
        uint64_t c = g * g * g;
        bad += s3_icbrt_ceil(c) != g || s3_icbrt_ceil(c + 1) != g + 1 || s3_icbrt_ceil(c - 1) != cbrt_ceil_ref(c - 1);
    }
    T_EQ_INT(bad, 0);
    T_EQ_INT(s3_icbrt_ceil(1), 1);
    T_EQ_INT(s3_icbrt_ceil(2), 2);
    T_EQ_INT(s3_icbrt_ceil(8), 2);
    T_EQ_INT(s3_icbrt_ceil(9), 3);

    /* ---- 2. launch shapes ---- */
    static const uint32_t nbs[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129,
                                   255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 2951, 2952, 2953};
    static const uint32_t rhos[] = {1, 2, 4, 8};
    long bad_shape = 0, shapes = 0;
    for (int map = 0; map < S3_NMAPS; map++)
        for (int r = 0; r < 4; r++)
            for (size_t a = 0; a < sizeof nbs / sizeof *nbs; a++)
                for (int lo = 0; lo < 2; lo++) {
                    uint32_t rho = rhos[r], nb = nbs[a], n = lo ? (nb - 1) * rho + 1 : nb * rho;
                    shapes++;
                    bad_shape += shape_bad(map, n, rho);
                }
    T_EQ_INT(bad_shape, 0);
    T_EQ_INT(shapes, S3_NMAPS * 4 * 32 * 2);
    /* every nb up to 300 for the maps with a closed form in nb alone */
    for (uint32_t nb = 1; nb <= 300; nb++)
        for (int map = 0; map < S3_NMAPS; map++) bad_shape += shape_bad(map, nb, 1);
    T_EQ_INT(bad_shape, 0);
    /* the one perfect cube among the tetrahedral numbers: Tet(1) = 1, a 1 x 1 x 1 grid */
    {
        s3_params p;
        T_EQ_INT(s3_plan(S3_LAMBDA_EXACT, 1, 1, &p), 0);
        T_CHECK(p.gx == 1 && p.gy == 1 && p.gz == 1);
        T_EQ_INT(s3_plan(S3_LAMBDA_EXACT, 2, 1, &p), 0); /* Tet(2) = 4: 2^3 */
        T_CHECK(p.gx == 2 && p.gy == 2 && p.gz == 2);
        T_EQ_INT(s3_plan(S3_RECURSIVE_LOG, 2 * 8, 8, &p), 0); /* nb = 2: one cube of side 1 */
        T_CHECK(p.gx == 1);
    }

    /* ---- 3. the largest accepted sizes (gridDim.y, gridDim.z <= 65535), both sides ---- */
    {
        s3_params p;
        T_EQ_INT(s3_plan(S3_BB, 65535, 1, &p), 0);
        T_EQ_INT(s3_plan(S3_BB, 65536, 1, &p), -1);
        T_EQ_INT(s3_plan(S3_RECURSIVE_LOG, 131070, 1, &p), 0); /* first cube 65535 */
        T_EQ_INT(p.gz, 65535);
        T_EQ_INT(s3_plan(S3_RECURSIVE_LOG, 131071, 1, &p), -1);
        T_EQ_INT(s3_plan(S3_RECURSIVE_O1, 65536, 1, &p), 0); /* N = 2^16: 3N/4 + 2 = 49154 layers */
        T_EQ_INT(p.gz, 49154);
        T_EQ_INT(s3_plan(S3_RECURSIVE_O1, 65537, 1, &p), -1); /* N = 2^17 */
        uint32_t top = largest_accepted(S3_LAMBDA_EXACT, 1, 200000);
        T_CHECK(cbrt_ceil_ref(tet_number(top)) <= 65535 && cbrt_ceil_ref(tet_number(top + 1)) > 65535);
        T_EQ_INT(s3_plan(S3_LAMBDA_EXACT, top, 1, &p), 0);
        T_EQ_INT(p.gz, cbrt_ceil_ref(tet_number(top)));
        T_EQ_INT(s3_plan(S3_LAMBDA_EXACT, top + 1, 1, &p), -1);
        T_EQ_INT(s3_plan(S3_BB, 0, 1, &p), -1);
        T_EQ_INT(s3_plan(S3_BB, 8, 3, &p), -1); /* rho not a power of two */
        T_EQ_INT(s3_plan(S3_BB, 8, 0, &p), -1);
    }

    /* ---- 4. s3_block_full == every cell inside, both sides of (bz + 1) rho <= n ---- */
    long bad_full = 0, fulls = 0;
    for (uint32_t lr = 1; lr <= 3; lr++) {
        uint32_t rho = 1u << lr;
        for (uint32_t n = 1; n <= 40; n++) {
            uint32_t nb = (n + rho - 1) / rho;
            for (uint32_t bz = 0; bz < nb; bz++)
                for (uint32_t by = 0; by <= bz; by++)
                    for (uint32_t bx = 0; bx <= by; bx++) {
                        int all = 1;
                        for (uint32_t t = 0; t < rho * rho * rho && all; t++) {
                            uint32_t x, y, z;
                            s3_elem_cell(bx, by, bz, lr, t, &x, &y, &z);
                            all = s3_cell_inside(x, y, z, n);
                        }
                        fulls += all;
                        bad_full += s3_block_full(bx, by, bz, rho, n) != all;
                    }
        }
    }
    T_EQ_INT(bad_full, 0);
    T_CHECK(fulls > 1000);
    T_CHECK(s3_block_full(0, 1, 2, 4, 12) && !s3_block_full(0, 1, 2, 4, 11)); /* (bz + 1) rho = n exactly */

    /* ---- 5. the layer corrections over the whole range ---- */
    long bad_layer = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad_layer)
    for (uint64_t k = 2; k <= (1u << 20); k += LAYER_STEP) { /* layers k - 1, k hold >= 3 blocks */
        uint64_t t = tet_number(k);
        for (int d = -2; d <= 2; d++) bad_layer += tet_layer_exact(t + (uint64_t)(int64_t)d) != (d < 0 ? k - 1 : k);
    }
    T_EQ_INT(bad_layer, 0);
    T_EQ_INT(S3_LAMBDA_EXACT_MAX_W, tet_number(1u << 20)); /* the documented limit of lambda-exact */
    T_EQ_INT(tet_layer_exact(S3_LAMBDA_EXACT_MAX_W - 1), (1u << 20) - 1);
    bad_layer = 0;
    for (uint32_t k = 1; k <= S3_TET32_MAX_K; k++)
        for (int d = -2; d <= 2; d++) {
            uint64_t w = tet_number(k) + (uint64_t)(int64_t)d;
            if (w >= S3_TET32_MAX_W) continue;
            bad_layer += tet_layer_exact32((uint32_t)w) != tet_layer_exact(w);
        }
    T_EQ_INT(bad_layer, 0);
    T_EQ_INT(tet_layer_exact32((uint32_t)(S3_TET32_MAX_W - 1)), S3_TET32_MAX_K - 1);
    return T_DONE();
}
