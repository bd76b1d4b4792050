/* test_fractals_edges.c -- fractals/fractal.h and compact.h at their limits, both sides.
 *
 *  - compact_block_levels(k) = the largest m with k^m <= 1024 (threads per block), every k
 *    from 2 to 1025, the exact powers k^m = 1024 included (k = 2, 4, 32, 1024): a block-level
 *    choice off by one there launches half the threads per block and twice the blocks;
 *  - fractal_level_of at 0, 1, s^e, s^e +- 1 (0 is not a power: -1, and promptly);
 *  - fractal_pow: exact below 2^63, saturated at and past it;
 *  - fractal_launch_init at the largest n = 2^28 (accepted) and the next level (refused), at
 *    the grid limit gridDim.y = 65535 (4^8 = 65536 rows refused, 4^7 accepted; bb with 65536
 *    block rows refused, 32768 accepted), at rho = the largest power of s <= 32 (accepted)
 *    and the next (refused), at k = 16 (accepted) and 17, s = 4 and 5, huge r;
 *  - the lambda grid of every accepted launch is exactly k^ceil(rb/2) x k^floor(rb/2). */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../common/testlib.h"
#include "../../fractals/fractal.h"
#include "../../fractals/compact.h"

static uint64_t ipow(uint64_t b, int e) { uint64_t p = 1; while (e-- > 0) p *= b; return p; }

static int init(const nbb_fractal *f, int r, uint32_t rho, fractal_map_kind map, char *err)
{
    fractal_launch L;
    int rc = fractal_launch_init(&L, f, r, rho, map, err, 256);
    if (rc == 0 && map == FRACTAL_MAP_LAMBDA) { /* the compact grid, exactly */
        uint64_t gx = ipow((uint64_t)f->k, (L.rb + 1) / 2), gy = ipow((uint64_t)f->k, L.rb / 2);
        if (L.gx != gx || L.gy != gy) return 99;
    }
    if (rc == 0 && map == FRACTAL_MAP_BB && (uint64_t)L.gx * L.rho != L.n) return 98;
    return rc;
}

int main(void)
{
    /* ---- compact_block_levels ---- */
    long bad = 0;
    for (uint32_t k = 2; k <= 1025; k++) {
        int want = 0;
        for (uint64_t p = k; p <= COMPACT_MAX_BLOCK; p *= k) want++;
        bad += compact_block_levels(k) != want;
    }
    T_EQ_INT(bad, 0);
    T_EQ_INT(compact_block_levels(2), 10);   /* 2^10 = 1024 threads exactly */
    T_EQ_INT(compact_block_levels(4), 5);    /* 4^5 = 1024 */
    T_EQ_INT(compact_block_levels(32), 2);   /* 32^2 = 1024 */
    T_EQ_INT(compact_block_levels(1024), 1);
    T_EQ_INT(compact_block_levels(1025), 0);
    T_EQ_INT(compact_block_levels(5), 4);    /* 625; 3125 > 1024 */
    T_EQ_INT(compact_block_levels(7), 3);    /* 343 */

    /* ---- fractal_level_of (a hang here is a failure: the alarm ends the test) ---- */
    alarm(60);
    T_EQ_INT(fractal_level_of(3, 0), -1);
    T_EQ_INT(fractal_level_of(2, 0), -1);
    alarm(0);
    for (int s = 2; s <= 4; s++)
        for (int e = 0; e <= 18; e++) {
            uint64_t v = ipow((uint64_t)s, e);
            T_EQ_INT(fractal_level_of(s, v), e);
            if (v > 2) T_EQ_INT(fractal_level_of(s, v - 1), -1);
            T_EQ_INT(fractal_level_of(s, v + 1), v + 1 == 2 && s == 2 ? 1 : -1);
        }
    T_EQ_INT(fractal_level_of(1, 1), -1);
    T_EQ_INT(fractal_level_of(0, 8), -1);

    /* ---- fractal_pow: exact below 2^63, saturated from there ---- */
    T_EQ_INT(fractal_pow(2, 62), 1ull << 62);
    T_CHECK(fractal_pow(2, 63) == 1ull << 63);
    T_CHECK(fractal_pow(2, 64) == 1ull << 63);
    T_CHECK(fractal_pow(2, 200) == 1ull << 63);
    T_CHECK(fractal_pow(3, 39) == 4052555153018976267ull); /* < 2^63 */
    T_CHECK(fractal_pow(3, 40) == 1ull << 63);             /* 1.2e19 > 2^63 */
    T_CHECK(fractal_pow(16, 15) == 1ull << 60 && fractal_pow(16, 16) == 1ull << 63);
    T_EQ_INT(fractal_pow(7, 0), 1);
    T_EQ_INT(fractal_pow(0, 3), 0);

    /* ---- fractal_launch_init at the limits ---- */
    char err[256];
    const nbb_fractal diag = {"diagonal", 2, 2, {0, 1}, {0, 1}};             /* k = 2, s = 2 */
    const nbb_fractal diag4 = {"diagonal4", 2, 4, {0, 3}, {0, 3}};           /* k = 2, s = 4 */
    const nbb_fractal full4 = {"full4", 16, 4, {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3},
                               {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}}; /* k = 16 */
    const nbb_fractal k17 = {"k17", 17, 4, {0}, {0}};
    const nbb_fractal s5 = {"s5", 2, 5, {0, 4}, {0, 4}};
    const nbb_fractal s1 = {"s1", 1, 1, {0}, {0}};
    const nbb_fractal *sier = fractal_by_name("sierpinski-triangle"), *cand = fractal_by_name("candelabra");
    /* n = 2^28 is the largest n (magic division): accepted; one level more is refused */
    T_EQ_INT(init(&diag, 28, 32, FRACTAL_MAP_LAMBDA, err), 0); /* rb = 23: 2^12 x 2^11 blocks */
    T_EQ_INT(init(&diag, 29, 32, FRACTAL_MAP_LAMBDA, err), -1);
    T_CHECK(strstr(err, "r too large") != NULL);
    T_EQ_INT(init(&diag4, 14, 16, FRACTAL_MAP_LAMBDA, err), 0); /* 4^14 = 2^28 */
    T_EQ_INT(init(&diag4, 15, 16, FRACTAL_MAP_LAMBDA, err), -1);
    T_EQ_INT(init(&diag, 64, 32, FRACTAL_MAP_LAMBDA, err), -1); /* 2^64: saturated, not wrapped to 0 */
    T_CHECK(strstr(err, "r too large") != NULL);
    T_EQ_INT(init(&diag, 70, 1, FRACTAL_MAP_BB, err), -1);
    T_EQ_INT(init(&diag, -1, 1, FRACTAL_MAP_BB, err), -1);
    /* gridDim.y <= 65535: candelabra (k = 4) at rb = 16 has 4^8 = 65536 block rows */
    T_EQ_INT(init(cand, 15, 1, FRACTAL_MAP_LAMBDA, err), 0);  /* 4^8 x 4^7 */
    T_EQ_INT(init(cand, 16, 1, FRACTAL_MAP_LAMBDA, err), -1); /* 4^8 x 4^8 */
    T_CHECK(strstr(err, "exceeds CUDA's limits") != NULL);
    T_EQ_INT(init(cand, 17, 3, FRACTAL_MAP_LAMBDA, err), -1);
    T_EQ_INT(init(cand, 16, 3, FRACTAL_MAP_LAMBDA, err), 0);
    /* bb: (n / rho) rows of blocks */
    T_EQ_INT(init(sier, 16, 2, FRACTAL_MAP_BB, err), 0);  /* 32768 rows */
    T_EQ_INT(init(sier, 16, 1, FRACTAL_MAP_BB, err), -1); /* 65536 rows */
    T_EQ_INT(init(sier, 17, 2, FRACTAL_MAP_BB, err), -1);
    /* rho: the largest power of s that is <= 32 */
    T_EQ_INT(init(sier, 6, 32, FRACTAL_MAP_LAMBDA, err), 0);
    T_EQ_INT(init(sier, 7, 64, FRACTAL_MAP_LAMBDA, err), -1);
    T_CHECK(strstr(err, "rho <= 32") != NULL);
    T_EQ_INT(init(cand, 4, 27, FRACTAL_MAP_BB, err), 0);
    T_EQ_INT(init(cand, 5, 81, FRACTAL_MAP_BB, err), -1);
    T_EQ_INT(init(&full4, 3, 16, FRACTAL_MAP_LAMBDA, err), 0);
    T_EQ_INT(init(&full4, 4, 64, FRACTAL_MAP_LAMBDA, err), -1);
    T_EQ_INT(init(&full4, 2, 16, FRACTAL_MAP_LAMBDA, err), 0); /* rho = n */
    T_EQ_INT(init(&full4, 1, 16, FRACTAL_MAP_LAMBDA, err), -1); /* rho > n */
    T_CHECK(strstr(err, "larger than n") != NULL);
    /* k and s of the fast form */
    T_EQ_INT(init(&k17, 2, 1, FRACTAL_MAP_BB, err), -1);
    T_EQ_INT(init(&s5, 2, 1, FRACTAL_MAP_BB, err), -1);
    T_EQ_INT(init(&s1, 2, 1, FRACTAL_MAP_BB, err), -1);
    /* the grid of every accepted launch of Table 1 up to the limits is the compact grid */
    long bad_grid = 0, accepted = 0;
    for (int i = 0; i < FRACTAL_COUNT; i++)
        for (int r = 0; r <= 28; r++)
            for (uint32_t rho = 1; rho <= 32; rho *= (uint32_t)FRACTAL_TABLE[i].s) {
                int rc = init(&FRACTAL_TABLE[i], r, rho, FRACTAL_MAP_LAMBDA, err);
                bad_grid += rc > 0;
                accepted += rc == 0;
            }
    T_EQ_INT(bad_grid, 0);
    T_CHECK(accepted > 200);
    return T_DONE();
}
