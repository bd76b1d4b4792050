/* test_simplex3d_volume.c -- simplex3d/volume.h: the closed forms of [REC] (eq. 2, 18, 22,
 * 27) agree with exact enumeration, and the limits the paper states (eq. 4, 19, 24, 29). */
#include <stdio.h>
#include "../../common/testlib.h"
#include "../../simplex3d/volume.h"
#include "../../simplex3d/map.h"

/* brute force: lattice points of the corner simplex x_1 + ... + x_m < n */
static uint64_t brute(unsigned m, uint64_t n)
{
    if (m == 0) return 1;
    uint64_t c = 0;
    for (uint64_t x = 0; x < n; x++) c += brute(m - 1, n - x);
    return c;
}

int main(void)
{
    /* eq. (2) vs eq. (3) vs brute force */
    for (unsigned m = 1; m <= 5; m++)
        for (uint64_t n = 0; n <= 14; n++) {
            T_EQ_INT((uint64_t)vol_simplex_closed(m, n), brute(m, n));
            T_EQ_INT((uint64_t)vol_simplex_enum(m, n), brute(m, n));
        }
    for (uint64_t n = 1; n <= 4096; n++) {
        T_CHECK(vol_simplex_enum(3, n) == vol_simplex_closed(3, n));
        T_CHECK(vol_simplex_closed(3, n) == tet_number(n));
    }
    for (unsigned m = 2; m <= 8; m++)
        for (uint64_t n = 2; n <= 4096; n *= 2) {
            T_CHECK(vol_simplex_enum(m, n) == vol_simplex_closed(m, n));
            T_CHECK(vol_set_enum(m, n, 2, 2) == vol_set_closed(m, n, 2, 2)); /* eq. (27) */
            T_CHECK(vol_set_enum(m, n, 2, 2) >= vol_simplex_closed(m, n - 1)); /* covers, eq. (28) */
        }
    for (unsigned s = 2; s <= 5; s++)
        for (unsigned beta = 2; beta < 30 && beta < s * s * s * s; beta += 3)
            for (uint64_t n = s; n <= 100000; n *= s) T_CHECK(vol_set_enum(4, n, s, beta) == vol_set_closed(4, n, s, beta));
    for (uint64_t n = 2; n <= 4096; n *= 2) {
        uint64_t cubes = 0;
        T_CHECK(vol_rec3_enum(n, &cubes) == vol_rec3_closed(n));        /* eq. (18) */
        /* our recursive-log launches: these cubes plus the 3^k side-1 leaves */
        T_EQ_INT(cubes + (uint64_t)vol_pow(3, vol_log(n, 2)), s3_num_launches(S3_RECURSIVE_LOG, n));
        T_CHECK(vol_set_enum(3, n, 2, 2) == vol_alt_closed(n));         /* eq. (21)-(22) */
        T_CHECK(vol_alt_closed(n) == vol_simplex_closed(3, n - 1));      /* = V(Delta^3_{n-1}) */
    }
    /* the limits */
    uint64_t n = 1u << 20;
    double tet = (double)vol_simplex_closed(3, n);
    T_NEAR((double)n * n * n / tet - 1, 5.0, 1e-4);                          /* eq. (4): m! - 1 */
    T_NEAR((double)vol_rec3_closed(n) / tet - 1, 0.2, 1e-4);                 /* eq. (19): 1/5 */
    T_NEAR(vol_container_paper(n) / (double)vol_simplex_closed(3, n - 1) - 1, 2.0 / 16, 1e-4); /* eq. (24) */
    double lim[9] = {0, 0, 0, 0, 5.0 / 7, 3, 0, 39, 0};
    for (unsigned m = 4; m <= 7; m += (m == 5 ? 2 : 1)) {                      /* eq. (28)-(29) */
        uint64_t big = 1u << 14;
        double r = (double)vol_set_closed(m, big, 2, 2) / (double)vol_simplex_closed(m, big - 1) - 1;
        T_NEAR(r, lim[m], 2e-3 * (1 + lim[m]));
    }
    /* our recursive-o1 grid: 12.5% extra in the limit (eq. 24's 2/16 plus the diagonal plane) */
    s3_params p;
    s3_plan(S3_RECURSIVE_O1, 1u << 14, 1, &p);
    T_NEAR((double)s3_threads_launched(S3_RECURSIVE_O1, &p) / (double)tet_number(1u << 14) - 1, 0.125, 1e-3);
    return T_DONE();
}
