/* test_tensorcore_edges.c -- the limits of tensorcore/mma.h, each on both sides.
 *
 *  - tc_half_exact: 0, 2047, 2048, 2049, 4094, 4095, 65503, 65504 (the largest finite half),
 *    65505, 65536, non-integers, negatives;
 *  - tc_level_supported: rb = 16 (a full fragment) accepted, 17 refused; the A entries
 *    rho s^(rb-1) at 2^15 (exact) and 2^16 (not); candy (s = 4) to rb = 8, not 9;
 *  - tc_pows_make / tc_mma_level_ok: the number of blocks k^rb (and k^(ceil(rb/2) + 4)) below
 *    2^32 accepted, exactly 2^32 refused (k = 16: 16^8 = 2^32; k = 2: 2^32), with the magic
 *    divisors exact for every dividend the device gives them at the largest accepted level. */
#include <stdint.h>
#include <string.h>
#include "../../common/testlib.h"
#include "../../tensorcore/mma.h"

int main(void)
{
    /* ---- binary16 exactness ---- */
    T_CHECK(tc_half_exact(0) && tc_half_exact(1) && tc_half_exact(2047) && tc_half_exact(2048));
    T_CHECK(!tc_half_exact(2049) && tc_half_exact(4094) && !tc_half_exact(4095));
    T_CHECK(tc_half_exact(65504.0));  /* 2047 * 2^5: the largest finite half */
    T_CHECK(!tc_half_exact(65503.0)); /* odd, above 2^11 */
    T_CHECK(!tc_half_exact(65505.0) && !tc_half_exact(65536.0) && !tc_half_exact(1e9));
    T_CHECK(tc_half_exact(32768.0) && tc_half_exact(-65504.0) && !tc_half_exact(-2049.0));
    T_CHECK(!tc_half_exact(0.5) && !tc_half_exact(1.25));
    T_EQ_INT((long)tc_round_half(2047.0), 2047);
    T_EQ_INT((long)tc_round_half(2048.0), 2048);
    T_EQ_INT((long)tc_round_half(4097.0), 4096); /* tie to even */
    T_EQ_INT((long)tc_round_half(4099.0), 4100);
    T_EQ_INT((long)tc_round_half(4098.0), 4096); /* spacing 4 from 2^12: 1024.5 -> 1024 */
    T_EQ_INT((long)tc_round_half(4102.0), 4104); /* 1025.5 -> 1026 */

    /* ---- the levels a fragment holds ---- */
    const nbb_fractal *sier = fractal_by_name("sierpinski-triangle"), *candy = fractal_by_name("candy");
    T_CHECK(tc_level_supported(sier, 16, 1));  /* 16 rows: the whole fragment */
    T_CHECK(!tc_level_supported(sier, 17, 1));
    T_CHECK(tc_level_supported(sier, 0, 1) && !tc_level_supported(sier, -1, 1));
    T_CHECK(tc_level_supported(sier, 11, 32));  /* A up to 32 * 2^10 = 2^15 */
    T_CHECK(!tc_level_supported(sier, 12, 32)); /* 32 * 2^11 = 2^16 */
    T_CHECK(tc_level_supported(sier, 13, 8) && !tc_level_supported(sier, 14, 8));
    T_CHECK(tc_level_supported(candy, 8, 1));   /* 4^7 = 2^14 */
    T_CHECK(!tc_level_supported(candy, 9, 1));  /* 4^8 = 2^16 */

    /* ---- block counts below 2^32 ---- */
    tc_pows P;
    T_EQ_INT(tc_pows_make(16, 7, &P), 0);  /* 16^7 = 2^28 */
    T_EQ_INT(tc_pows_make(16, 8, &P), -1); /* 16^8 = 2^32 exactly */
    T_EQ_INT(tc_pows_make(2, 31, &P), 0);
    T_EQ_INT(tc_pows_make(2, 32, &P), -1);
    T_EQ_INT(tc_pows_make(3, 20, &P), 0);  /* 3^20 = 3.5e9 < 2^32 */
    T_EQ_INT(tc_pows_make(3, 21, &P), -1);
    T_CHECK(tc_mma_level_ok(16, 6));  /* 16^(3 + 4) = 2^28 */
    T_CHECK(!tc_mma_level_ok(16, 7)); /* 16^(4 + 4) = 2^32 */
    T_CHECK(!tc_mma_level_ok(16, 8));
    T_CHECK(tc_mma_level_ok(2, 16) && !tc_mma_level_ok(2, 17)); /* 17 rows */
    T_CHECK(tc_mma_level_ok(8, 12) && !tc_mma_level_ok(8, 13)); /* 8^10 = 2^30, 8^11 = 2^33 */
    /* the magic divisors at the largest accepted level of k = 16 (rb = 6; dividends w < 16^3)
     * and of the Sierpinski triangle (rb = 16; w < 3^8): every digit by tc_beta_fast */
    static const int ks[2] = {16, 3}, rbs[2] = {6, 16};
    const nbb_fractal full4 = {"full4", 16, 4, {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3},
                               {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}};
    long bad = 0;
    for (int c = 0; c < 2; c++) {
        const nbb_fractal *f = c ? sier : &full4;
        nbb_fast F = nbb_fast_make(f);
        T_EQ_INT(tc_pows_make((uint32_t)ks[c], rbs[c], &P), 0);
        for (int e = 1; e < 8; e++) {
            uint64_t d = fractal_pow((uint64_t)ks[c], e);
            bad += d < 0xFFFFFFFFull && P.magic[e] != (uint32_t)(0xFFFFFFFFull / d) + 1u;
        }
        uint32_t wmax = (uint32_t)fractal_pow((uint64_t)ks[c], (rbs[c] + 1) / 2);
        for (uint32_t w = 0; w < wmax; w++)
            for (int mu = 1; mu <= rbs[c]; mu++) bad += tc_beta_fast(&F, &P, w, w, mu) != tc_beta((uint32_t)ks[c], w, w, mu);
    }
    T_EQ_INT(bad, 0);
    return T_DONE();
}
