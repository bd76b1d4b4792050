/* test_tensorcore_limits.c -- tensorcore/mma.h's small functions and limits against oracles
 * written independently of them, both sides of every limit:
 *  - tc_half_exact, tc_round_half against the compiler's own binary16 (_Float16) for every
 *    integer 0 .. 65536 and a few past (65504 exact, 65505 .. 65536 not);
 *  - tc_beta against a digit string built by repeated division; tc_grid_x/y against
 *    k^ceil(rb/2), k^floor(rb/2) at rb = 0 .. 4;
 *  - tc_pows_make: its magic multipliers against floor((2^32 - 1) / k^e) + 1 and its refusal at
 *    k^rb = 2^32 (k = 2, 4, 16) and at the first k^rb past it (k = 3, 12), accepted one below;
 *  - tc_mma_level_ok and tc_level_supported at the last accepted level and the first refused
 *    one (s = 2, 3, 4; scale 1, rho = 8, 32; rb = 16 / 17; rb < 0);
 *  - the mma.sync m16n8k16 register layout (tc_frag_*) against the PTX ISA's table written
 *    out register by register (a layout that is only a bijection, e.g. rows and columns of
 *    two registers swapped, passes test_tensorcore_mma but not this);
 *  - tc_mma_a_value, tc_mma_b_value at col = rb - 1 and rb; tc_lane_digits with valid = 0;
 *    tc_v2_subblock's quadrant order (q = 1 is +x); tc_v3_tiles at rho = 8, 16, 32;
 *  - whole warps (tc_warp0_whole, tc_warps_whole, tc_lanes_first/last_warp) against the lanes
 *    of each warp of rho x rho threads counted one thread at a time, rho = 1 .. 32;
 *  - tc_mma_host counts an inexact A or B entry (2049) and a C entry is added once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/testlib.h"
#include "../../tensorcore/mma.h"

/* binary16 of a non-negative integer: the compiler's conversion where it has _Float16, else
 * round to nearest even on the 11-bit significand by integer arithmetic. */
static double half_of(long v)
{
#ifdef __FLT16_MAX__
    return (double)(_Float16)(double)v;
#else
    if (v <= 2048) return (double)v;
    long sp = 2; /* v in [1024 sp, 2048 sp): spacing sp */
    while (v >= 2048 * sp) sp *= 2;
    long q = v / sp, rem = v % sp;
    if (2 * rem > sp || (2 * rem == sp && (q & 1))) q++;
    double h = (double)(q * sp);
    return h > 65504.0 ? 1.0 / 0.0 : h;
#endif
}

static uint64_t ipow64(uint64_t b, int e)
{
    uint64_t p = 1;
    while (e-- > 0) p *= b;
    return p;
}

static void test_half(void)
{
    long bad_exact = 0, bad_round = 0;
    for (long v = 0; v <= 65536 + 64; v++) {
        double h = half_of(v);
        bad_exact += tc_half_exact((double)v) != (h == (double)v);
        if (v <= 65504) bad_round += tc_round_half((double)v) != h; /* finite range */
    }
    T_EQ_INT(bad_exact, 0);
    T_EQ_INT(bad_round, 0);
    T_CHECK(tc_half_exact(65504.0) && !tc_half_exact(65505.0) && !tc_half_exact(65536.0));
    T_CHECK(tc_half_exact(-2048.0) && !tc_half_exact(-2049.0));
    T_CHECK(tc_round_half(4098.0) == 4096.0 && tc_round_half(4102.0) == 4104.0); /* ties to even */
}

static void test_digits(void)
{
    long bad = 0;
    for (uint32_t k = 2; k <= 12; k++)
        for (uint32_t wx = 0; wx < 300; wx += 7)
            for (uint32_t wy = 0; wy < 300; wy += 11) {
                uint32_t dx[10], dy[10], a = wx, b = wy;
                for (int i = 0; i < 10; i++, a /= k, b /= k) { dx[i] = a % k; dy[i] = b % k; }
                for (int mu = 1; mu <= 16; mu++) /* odd mu: x digit (mu-1)/2; even: y digit mu/2 - 1 */
                    bad += tc_beta(k, wx, wy, mu) != ((mu & 1) ? dx[(mu - 1) / 2] : dy[mu / 2 - 1]);
            }
    T_EQ_INT(bad, 0);
    for (uint32_t k = 2; k <= 5; k++) {
        T_CHECK(tc_grid_x(k, 0) == 1 && tc_grid_y(k, 0) == 1);
        T_CHECK(tc_grid_x(k, 1) == k && tc_grid_y(k, 1) == 1);
        T_CHECK(tc_grid_x(k, 2) == k && tc_grid_y(k, 2) == k);
        T_CHECK(tc_grid_x(k, 3) == k * k && tc_grid_y(k, 3) == k);
        T_CHECK(tc_grid_x(k, 4) == k * k && tc_grid_y(k, 4) == k * k);
    }
}

static void test_pows(void)
{
    tc_pows P;
    for (uint32_t k = 2; k <= 12; k++) {
        tc_pows_make(k, 0, &P);
        T_EQ_INT(P.magic[0], 0);
        for (int e = 1; e < 8; e++) {
            uint64_t d = ipow64(k, e);
            uint32_t want = d < 0xFFFFFFFFull ? (uint32_t)((0xFFFFFFFFull / d) + 1) : 0;
            T_EQ_INT(P.magic[e], want);
            if (!want) continue;
            /* exact for x d < 2^32: the largest such x, and x = 0 */
            uint32_t x = (uint32_t)(((1ull << 32) - 1) / d);
            T_EQ_INT(fractal_udiv(x, P.magic[e]), x / d);
            T_EQ_INT(fractal_udiv(0, P.magic[e]), 0);
        }
        /* the refusal: k^rb >= 2^32, accepted one level below */
        int last = 0;
        while (ipow64(k, last + 1) < (1ull << 32)) last++;
        T_EQ_INT(tc_pows_make(k, last, &P), 0);
        T_EQ_INT(tc_pows_make(k, last + 1, &P), -1);
    }
    T_EQ_INT(tc_pows_make(2, 31, &P), 0); /* 2^31 */
    T_EQ_INT(tc_pows_make(2, 32, &P), -1); /* exactly 2^32 */
    T_EQ_INT(tc_pows_make(4, 15, &P), 0);
    T_EQ_INT(tc_pows_make(4, 16, &P), -1);
    T_EQ_INT(tc_pows_make(16, 7, &P), 0);
    T_EQ_INT(tc_pows_make(16, 8, &P), -1);
    T_EQ_INT(tc_pows_make(3, 20, &P), 0); /* 3^20 = 3486784401 < 2^32 < 3^21 */
    T_EQ_INT(tc_pows_make(3, 21, &P), -1);
}

static void test_levels(void)
{
    /* tc_mma_level_ok: rb <= 16 and k^(ceil(rb/2) + 4) < 2^32, from a 64-bit oracle */
    for (uint32_t k = 2; k <= 12; k++)
        for (int rb = 0; rb <= 20; rb++) {
            int want = rb <= 16 && ipow64(k, (rb + 1) / 2 + 4) < (1ull << 32);
            T_EQ_INT(tc_mma_level_ok(k, rb), want);
        }
    T_CHECK(tc_mma_level_ok(3, 16) && !tc_mma_level_ok(3, 17));
    T_CHECK(tc_mma_level_ok(12, 8) && !tc_mma_level_ok(12, 9));   /* candy: 12^8 < 2^32 < 12^9 */
    T_CHECK(tc_mma_level_ok(8, 12) && !tc_mma_level_ok(8, 13));   /* carpet: 8^10 = 2^30, 8^11 = 2^33 */
    T_CHECK(tc_mma_level_ok(16, 6) && !tc_mma_level_ok(16, 7));   /* 16^7 = 2^28, 16^8 = 2^32 exactly */

    const nbb_fractal *tri = fractal_by_name("sierpinski-triangle"), *vic = fractal_by_name("vicsek"),
                      *candy = fractal_by_name("candy");
    T_CHECK(tri && vic && candy);
    if (!tri || !vic || !candy) return;
    /* largest entry scale s^(rb-1) an exact half: s = 2: scale 2^(rb-1) <= 2^15 */
    T_CHECK(tc_level_supported(tri, 16, 1) && !tc_level_supported(tri, 17, 1));
    T_CHECK(tc_level_supported(tri, 13, 8) && !tc_level_supported(tri, 14, 8));   /* 8 * 2^12 = 2^15 */
    T_CHECK(tc_level_supported(tri, 11, 32) && !tc_level_supported(tri, 12, 32)); /* 32 * 2^10 = 2^15 */
    T_CHECK(tc_level_supported(tri, 0, 1) && !tc_level_supported(tri, -1, 1));
    T_CHECK(tc_level_supported(vic, 7, 1) && !tc_level_supported(vic, 8, 1));     /* 3^6 = 729; 3^7 = 2187 odd */
    T_CHECK(tc_level_supported(vic, 5, 9) && !tc_level_supported(vic, 6, 9));     /* 9 * 3^4 = 729; 9 * 3^5 */
    T_CHECK(tc_level_supported(candy, 8, 1) && !tc_level_supported(candy, 9, 1)); /* 4^7 = 2^14; 4^8 = 2^16 */
    for (int rb = 0; rb <= 18; rb++) { /* s = 2, 3, 4 against the binary16 oracle */
        const nbb_fractal *fs[3] = {tri, vic, candy};
        for (int i = 0; i < 3; i++) {
            int want = rb <= 16;
            for (int mu = 1; mu <= rb; mu++) {
                uint64_t p = ipow64((uint64_t)fs[i]->s, mu - 1);
                want &= p <= 65504 && half_of((long)p) == (double)p;
            }
            T_EQ_INT(tc_level_supported(fs[i], rb, 1), want);
        }
    }
}

/* PTX ISA, mma.m16n8k16 with .f16 A/B and .f32 C/D: groupID g = lane >> 2, t = lane % 4.
 * A: a0 a1 (row g, cols 2t, 2t+1), a2 a3 (row g+8, same cols), a4 a5 (row g, cols 2t+8,
 * 2t+9), a6 a7 (row g+8, cols 2t+8, 2t+9).  B: b0 b1 (rows 2t, 2t+1, col g), b2 b3 (rows 2t+8,
 * 2t+9, col g).  C: c0 c1 (row g, cols 2t, 2t+1), c2 c3 (row g+8, same cols). */
static void test_frag(void)
{
    static const int AR[8] = {0, 0, 8, 8, 0, 0, 8, 8}, AC[8] = {0, 1, 0, 1, 8, 9, 8, 9};
    static const int BR[4] = {0, 1, 8, 9}, CR[4] = {0, 0, 8, 8}, CC[4] = {0, 1, 0, 1};
    long bad = 0;
    for (int lane = 0; lane < 32; lane++) {
        int g = lane / 4, t = lane % 4;
        for (int i = 0; i < 8; i++) bad += tc_frag_a_row(lane, i) != g + AR[i] || tc_frag_a_col(lane, i) != 2 * t + AC[i];
        for (int i = 0; i < 4; i++) {
            bad += tc_frag_b_row(lane, i) != 2 * t + BR[i] || tc_frag_b_col(lane, i) != g;
            bad += tc_frag_c_row(lane, i) != g + CR[i] || tc_frag_c_col(lane, i) != 2 * t + CC[i];
        }
    }
    T_EQ_INT(bad, 0);
    /* A values: row 0 = s^col below rb, 0 from col = rb on */
    T_EQ_INT(tc_mma_a_value(2, 16, 3, 5), 32768.0f); /* lane 3, a5: row 0, col 15 */
    T_EQ_INT(tc_mma_a_value(2, 15, 3, 5), 0.0f);
    T_EQ_INT(tc_mma_a_value(2, 15, 3, 4), 16384.0f); /* col 14 = rb - 1 */
    T_EQ_INT(tc_mma_a_value(3, 2, 0, 1), 3.0f);
    T_EQ_INT(tc_mma_a_value(3, 1, 0, 1), 0.0f);
    T_EQ_INT(tc_mma_a_value(2, 16, 4, 0), 0.0f);     /* lane 4: row 1 */
    T_EQ_INT(tc_mma_a_value(2, 16, 0, 2), 0.0f);     /* a2: row 8 */
    /* B values: column g = 0 (tau_x), 1 (tau_y), others 0; rows >= rb are 0.  Block (2, 0)
     * at rb = 1: beta_1 = 2, tau = (1, 1) (eq. 8) */
    const nbb_fractal *tri = fractal_by_name("sierpinski-triangle");
    if (!tri) return;
    T_EQ_INT(tc_mma_b_value(tri, 1, 2, 0, 0, 0), 1.0f); /* lane 0: col 0, row 0 */
    T_EQ_INT(tc_mma_b_value(tri, 1, 2, 0, 4, 0), 1.0f); /* lane 4: col 1 */
    T_EQ_INT(tc_mma_b_value(tri, 1, 2, 0, 8, 0), 0.0f); /* lane 8: col 2 */
    T_EQ_INT(tc_mma_b_value(tri, 1, 1, 0, 0, 0), 0.0f); /* beta 1: tau = (0, 1) */
    T_EQ_INT(tc_mma_b_value(tri, 1, 1, 0, 4, 0), 1.0f);
    T_EQ_INT(tc_mma_b_value(tri, 1, 2, 0, 0, 1), 0.0f); /* row 1 = rb */
    T_EQ_INT(tc_mma_b_value(tri, 2, 0, 2, 0, 1), 1.0f); /* rb = 2, row 1: beta_2 = w_y % 3 = 2 */
}

static void test_lanes_and_blocks(void)
{
    const nbb_fractal *tri = fractal_by_name("sierpinski-triangle");
    if (!tri) return;
    nbb_fast F = nbb_fast_make(tri);
    tc_pows P;
    tc_pows_make(3, 16, &P);
    long bad = 0, nonzero = 0;
    for (uint32_t w = 0; w < 6561; w += 13)
        for (uint32_t t = 0; t < 4; t++)
            for (uint32_t c = 0; c < 2; c++) {
                uint32_t v[4], u[4];
                tc_lane_digits(&F, &P, 16, w, 6560 - w, t, c, 0, v);
                tc_lane_digits(&F, &P, 16, w, 6560 - w, t, c, 1, u);
                for (int i = 0; i < 4; i++) { bad += v[i] != 0; nonzero += u[i] != 0; }
                /* mu = 2t + 10 <= rb = 16 for t <= 3: the last digit at rb, not past it */
                tc_lane_digits(&F, &P, 2 * (int)t + 9, w, 6560 - w, t, c, 1, v);
                bad += v[0] != u[0] || v[1] != u[1] || v[2] != u[2] || v[3] != 0;
            }
    T_EQ_INT(bad, 0);
    T_CHECK(nonzero > 0);
    /* v2's quadrants: q = 0 (0, 0), 1 (+x), 2 (+y), 3 (+x, +y) of (2 Wx, 2 Wy) */
    static const int QX[4] = {0, 1, 0, 1}, QY[4] = {0, 0, 1, 1};
    for (int q = 0; q < 4; q++) {
        uint32_t wx, wy;
        tc_v2_subblock(5, 7, q, &wx, &wy);
        T_CHECK(wx == 10u + QX[q] && wy == 14u + QY[q]);
    }
    T_EQ_INT(tc_v3_tiles(32), 4);
    T_EQ_INT(tc_v3_tiles(16), 1);
    T_EQ_INT(tc_v3_tiles(8), 1);
    /* warps of rho x rho threads, one thread at a time */
    for (uint32_t rho = 1; rho <= 32; rho++) {
        uint32_t lanes[32] = {0}, nthreads = rho * rho, nw = (nthreads + 31) / 32;
        for (uint32_t th = 0; th < nthreads; th++) lanes[th / 32]++;
        int all = 1;
        for (uint32_t w = 0; w < nw; w++) all &= lanes[w] == 32;
        T_EQ_INT(tc_warp0_whole(rho), lanes[0] == 32);
        T_EQ_INT(tc_warps_whole(rho), all);
        T_EQ_INT(tc_lanes_first_warp(rho), lanes[0]);
        T_EQ_INT(tc_lanes_last_warp(rho), lanes[nw - 1]);
    }
    T_CHECK(!tc_warp0_whole(5) && tc_warp0_whole(6)); /* 25 and 36 threads */
    /* tc_mma_host: inexact entries counted, C added once */
    float A[256], B[256], C[256], D[256];
    tc_zero(A); tc_zero(B); tc_zero(C);
    A[0] = 2049.0f; B[0] = 1.0f; C[0] = 5.0f;
    T_EQ_INT(tc_mma_host(A, B, C, D), 1);
    T_EQ_INT(D[0], 2054.0f);
    B[1] = 2049.0f;
    T_EQ_INT(tc_mma_host(A, B, C, D), 2);
    A[0] = 2048.0f; B[1] = 3.0f;
    T_EQ_INT(tc_mma_host(A, B, C, D), 0);
}

int main(void)
{
    test_half();
    test_digits();
    test_pows();
    test_levels();
    test_frag();
    test_lanes_and_blocks();
    return T_DONE();
}
