/* test_tensorcore_mma.c -- the tensor-core encodings of lambda(omega) (tensorcore/mma.h),
 * built on the host and multiplied with the tensor core's semantics (half inputs checked
 * exact, float accumulation), equal the classic lambda for every block of every level.
 *
 *  - half exactness: every power 2^0..2^15 is an exact half, 2^16 is not representable
 *    exactly as a finite in-range value beyond 65504, 2049 is not exact, and every A entry of
 *    every encoding for r <= 16 (rho = 8, 16, 32) is exact;
 *  - v1 (one MMA per block), v2 (4 sub-blocks per MMA, extra sub-blocks zero) and the `mma`
 *    register layout (mma.sync m16n8k16): D entries == lambda for EVERY compact block, r = 0..16;
 *  - v3 (A full, B replicated, C = offsets): every entry of every tile == the thread's data
 *    coordinate, for every block; full 16 x 16 x 16 products up to r = 13, and for r = 14..16
 *    the rows/columns 0, 7, 8, 15 of D (every D entry is the same dot product plus C);
 *  - accumulating in half instead is wrong from rb = 12 on (2049 -> 2048), as mma.h says;
 *  - v2's extra threads equal (gx + gy + 1) sub-blocks (the compact grid's perimeter);
 *  - v1 and the mma layout on every fractal of Table 1 (s = 2, 3, 4; candy included) at every
 *    level the programs accept: equal lambda (so candy's failure on the GPU is not arithmetic). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/testlib.h"
#include "../../tensorcore/mma.h"

#define R_MAX 16
#ifdef TEST_SANITIZE /* make asan: every encoding at the small levels; the float arithmetic of the
                        large ones stays with the plain build */
#define RB_TOP 12       /* v1 / mma layout over every block up to this level (half accumulation fails at 12) */
#define R_V23 9         /* v2 and v3 up to r = 9 */
#define SAMPLE_BLOCKS (1L << 9)
#else
#define RB_TOP (R_MAX - 2)
#define R_V23 R_MAX
#define SAMPLE_BLOCKS (1L << 16)
#endif

/* D's top-left rows x cols entries of A x B + C, float accumulation in k order. */
static void mma_part(const float *A, const float *B, const float *C, float *D, int rows, int cols)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float acc = C[TC_M * i + j];
            for (int kk = 0; kk < TC_M; kk++) acc += A[TC_M * i + kk] * B[TC_M * j + kk];
            D[TC_M * i + j] = acc;
        }
}

static int log2i(int v) { int p = 0; while ((1 << p) < v) p++; return p; }

int main(void)
{
    const nbb_fractal *fp = fractal_by_name("sierpinski-triangle");
    T_CHECK(fp != NULL);
    if (!fp) return T_DONE();
    nbb_fractal f = *fp;
    /* the paper's H (eq. 8): tau = (floor(beta/2), beta - floor(beta/2)) */
    for (int b = 0; b < 3; b++) T_CHECK(f.tau_x[b] == b / 2 && f.tau_y[b] == b - b / 2);

    /* the one-digit fast form (device maps) equals eq. (1) for every w of the compact grid
     * at rb = 16 (w < 3^8) and every mu, for every fractal of Table 1 with k^16 < 2^32 */
    for (int fi = 0; fi < FRACTAL_COUNT; fi++) {
        const nbb_fractal *g = &FRACTAL_TABLE[fi];
        int rbmax = 16;
        while (fractal_pow((uint64_t)g->k, rbmax) >= ((uint64_t)1 << 32)) rbmax--;
        tc_pows P;
        T_EQ_INT(tc_pows_make((uint32_t)g->k, rbmax, &P), 0);
        nbb_fast F = nbb_fast_make(g);
        uint32_t wmax = (uint32_t)fractal_pow((uint64_t)g->k, (rbmax + 1) / 2);
        long bad = 0;
        for (uint32_t w = 0; w < wmax; w++)
            for (int mu = 1; mu <= rbmax; mu++) {
                uint32_t b = tc_beta_fast(&F, &P, w, w, mu);
                bad += b != tc_beta((uint32_t)g->k, w, w, mu);
                bad += tc_tau_fast(&F, b, 0) != (uint32_t)g->tau_x[b] || tc_tau_fast(&F, b, 1) != (uint32_t)g->tau_y[b];
            }
        T_EQ_INT(bad, 0);
    }

    /* ---- half exactness facts used in mma.h ---- */
    for (int e = 0; e <= 15; e++) T_CHECK(tc_half_exact((double)(1 << e)));
    T_CHECK(!tc_half_exact(65536.0));
    T_CHECK(tc_half_exact(2048.0) && !tc_half_exact(2049.0) && tc_half_exact(2050.0));
    T_CHECK(tc_round_half(2049.0) == 2048.0 && tc_round_half(2051.0) == 2052.0);
    T_CHECK(tc_round_half(4097.0) == 4096.0 && tc_round_half(4099.0) == 4100.0);
    for (int p = 3; p <= 5; p++)
        for (int r = 0; r <= R_MAX; r++) {
            int rb = r > p ? r - p : 0;
            T_CHECK(tc_level_supported(&f, rb, 1));
            T_CHECK(tc_level_supported(&f, rb, 1 << p)); /* v3: rho * 2^(rb-1) = n/2 <= 2^15 */
            T_CHECK(tc_level_supported(&f, rb + 1, 1));  /* v2: sub-block level */
        }
    T_CHECK(!tc_level_supported(&f, 17, 1));          /* 17 rows do not fit a fragment */
    T_CHECK(!tc_level_supported(&f, 14, 8));          /* r = 17, rho = 8: 8 * 2^13 = 2^16 > 65504 */

    long bad_v1 = 0, bad_v2 = 0, bad_v3 = 0, bad_mma = 0, inexact = 0, blocks = 0;
    int half_fails_at = -1;
    for (int rb = 0; rb <= RB_TOP; rb++) { /* rb <= 14: v2 sub-blocks at r = 16, rho = 8 */
        uint32_t gx = tc_grid_x(3, rb), gy = tc_grid_y(3, rb);
        long nb = (long)gx * gy;
        blocks += nb;
        /* the A fragments do not depend on the block: check their exactness once */
        float A[256], B[256], C[256], D[256];
        nbb_fast F = nbb_fast_make(&f);
        tc_pows P;
        T_EQ_INT(tc_pows_make(3, rb, &P), 0);
        tc_v1_encode(&f, rb, 0, 0, A, B, C);
        inexact += tc_mma_host(A, B, C, D);
        float amma[256] = {0};
        for (int lane = 0; lane < 32; lane++)
            for (int i = 0; i < 8; i++)
                amma[TC_M * tc_frag_a_row(lane, i) + tc_frag_a_col(lane, i)] = tc_mma_a_value(2, rb, lane, i);
        for (int i = 0; i < 256; i++) inexact += A[i] != amma[i]; /* == v1's A */
        long v1 = 0, mm = 0, hf = 0;
#pragma omp parallel for reduction(+ : v1, mm, hf) schedule(static)
        for (long w = 0; w < nb; w++) {
            uint32_t wx = (uint32_t)(w % gx), wy = (uint32_t)(w / gx), ex, ey;
            float a[256], b[256], c[256], d[256];
            if (rb == R_MAX - 2) { /* rb = 14 only for v2-mma's sub-blocks: its lane digits */
                for (int lane = 0; lane < 8; lane++) {
                    uint32_t v[4];
                    tc_lane_digits(&F, &P, rb, wx, wy, (uint32_t)(lane & 3), (uint32_t)(lane >> 2), 1, v);
                    for (int i = 0; i < 4; i++) mm += (float)v[i] != tc_mma_b_value(&f, rb, wx, wy, lane, i);
                }
                continue;
            }
            lambda_map(&f, rb, wx, wy, &ex, &ey);
            /* v1 */
            tc_v1_encode(&f, rb, wx, wy, a, b, c);
            mma_part(a, b, c, d, 1, 2);
            v1 += d[0] != (float)ex || d[1] != (float)ey;
            /* half accumulation (wrong): count blocks where it differs */
            if (rb >= 11 && (w % 97) == 0) {
                tc_mma_host_halfacc(a, b, c, d);
                hf += d[0] != (float)ex || d[1] != (float)ey;
            }
            /* mma.sync register layout: every lane's registers scattered into A and B (A does
             * not depend on the block: scattered once per level into amma; B: lanes 0..7 carry
             * columns 0, 1, the others are zero -- checked on every lane up to rb = 10) */
            memcpy(a, amma, sizeof a);
            memset(b, 0, sizeof b); memset(c, 0, sizeof c);
            int lanes = rb <= 10 ? 32 : 8;
            for (int lane = 0; lane < lanes; lane++)
                for (int i = 0; i < 4; i++)
                    b[TC_M * tc_frag_b_col(lane, i) + tc_frag_b_row(lane, i)] = tc_mma_b_value(&f, rb, wx, wy, lane, i);
            mma_part(a, b, c, d, 1, 2);
            /* lane 0 holds c0 = D[row(0,0)][col(0,0)], c1 = D[row(0,1)][col(0,1)] */
            mm += d[TC_M * tc_frag_c_row(0, 0) + tc_frag_c_col(0, 0)] != (float)ex ||
                  d[TC_M * tc_frag_c_row(0, 1) + tc_frag_c_col(0, 1)] != (float)ey;
            /* the device's per-lane digits (tc_lane_digits, fast divisions) give the same B */
            for (int lane = 0; lane < 8; lane++) {
                uint32_t v[4];
                tc_lane_digits(&F, &P, rb, wx, wy, (uint32_t)(lane & 3), (uint32_t)(lane >> 2), 1, v);
                for (int i = 0; i < 4; i++) mm += v[i] != (uint32_t)b[TC_M * tc_frag_b_col(lane, i) + tc_frag_b_row(lane, i)];
            }
        }
        bad_v1 += v1;
        bad_mma += mm;
        if (hf && half_fails_at < 0) half_fails_at = rb;
        if (rb <= 10) T_EQ_INT(hf, 0);
    }
    T_EQ_INT(inexact, 0);
    T_EQ_INT(bad_v1, 0);
    T_EQ_INT(bad_mma, 0);
    T_EQ_INT(half_fails_at, 12); /* half accumulation breaks exactly from rb = 12 */
    printf("v1 and mma layout: %ld blocks, rb = 0..%d (device lane digits also rb = 14 when it is run), all equal lambda\n", blocks, RB_TOP < R_MAX - 2 ? RB_TOP : R_MAX - 3);

    /* mma.sync layouts: each (row, col) of A (16x16), B (16x8), C (16x8) held exactly once */
    {
        int ca[256] = {0}, cb[128] = {0}, cc[128] = {0};
        for (int lane = 0; lane < 32; lane++) {
            for (int i = 0; i < 8; i++) ca[16 * tc_frag_a_row(lane, i) + tc_frag_a_col(lane, i)]++;
            for (int i = 0; i < 4; i++) cb[8 * tc_frag_b_row(lane, i) + tc_frag_b_col(lane, i)]++;
            for (int i = 0; i < 4; i++) cc[8 * tc_frag_c_row(lane, i) + tc_frag_c_col(lane, i)]++;
        }
        int ok = 1;
        for (int i = 0; i < 256; i++) ok &= ca[i] == 1;
        for (int i = 0; i < 128; i++) ok &= cb[i] == 1 && cc[i] == 1;
        T_CHECK(ok);
    }

    /* ---- v2 and v3 for every r and rho ---- */
    long extra_ok = 1;
    for (int rho = 8; rho <= 32; rho *= 2) {
        int p = log2i(rho);
        for (int r = 0; r <= R_V23; r++) {
            int rb = r > p ? r - p : 0;
            /* v2: sub-blocks of rho/2 at level rb2 = max(0, r - p + 1) */
            int rb2 = r > p - 1 ? r - p + 1 : 0;
            uint32_t g2x = tc_grid_x(3, rb2), g2y = tc_grid_y(3, rb2);
            uint32_t Gx = (g2x + 1) / 2, Gy = (g2y + 1) / 2;
            long extra_sub = 4L * Gx * Gy - (long)g2x * g2y;
            if (rb2 >= 1) extra_ok &= extra_sub == (long)g2x + g2y + 1;
            long v2 = 0;
#pragma omp parallel for reduction(+ : v2) schedule(static)
            for (long W = 0; W < (long)Gx * Gy; W++) {
                float a[256], b[256], c[256], d[256];
                uint32_t Wx = (uint32_t)(W % Gx), Wy = (uint32_t)(W / Gx);
                tc_v2_encode(&f, rb2, Wx, Wy, a, b, c);
                mma_part(a, b, c, d, 1, 8);
                for (int q = 0; q < 4; q++) {
                    uint32_t wx, wy, ex = 0, ey = 0;
                    tc_v2_subblock(Wx, Wy, q, &wx, &wy);
                    if (wx < g2x && wy < g2y) lambda_map(&f, rb2, wx, wy, &ex, &ey);
                    v2 += d[2 * q] != (float)ex || d[2 * q + 1] != (float)ey;
                }
            }
            bad_v2 += v2;

            /* v3: thread coordinates, every tile of every block */
            uint32_t gx = tc_grid_x(3, rb), gy = tc_grid_y(3, rb);
            int tiles = tc_v3_tiles(rho), side = rho < 16 ? rho : 16;
            int full = r <= 13;
            long v3 = 0;
            float A[256], B[256], C[256], D[256];
            tc_v3_encode(&f, rb, rho, 0, 0, 0, 0, A, B, C);
            inexact += tc_mma_host(A, B, C, D);
#pragma omp parallel for reduction(+ : v3) schedule(static)
            for (long w = 0; w < (long)gx * gy; w++) {
                float a[256], b[256], c[256], d[256];
                uint32_t wx = (uint32_t)(w % gx), wy = (uint32_t)(w / gx), ex, ey;
                lambda_map(&f, rb, wx, wy, &ex, &ey);
                for (int t = 0; t < tiles; t++)
                    for (int co = 0; co < 2; co++) {
                        tc_v3_encode(&f, rb, rho, wx, wy, t, co, a, b, c);
                        mma_part(a, b, c, d, 16, 16);
                        (void)full;
                        for (int i = 0; i < side; i++)
                            for (int j = 0; j < side; j++) {
                                if (!full && !((i % 8 == 0 || i % 8 == 7) || (j % 8 == 0 || j % 8 == 7))) continue;
                                uint32_t want = co ? ey * rho + 16 * (t >> 1) + i : ex * rho + 16 * (t & 1) + j;
                                v3 += d[TC_M * i + j] != (float)want;
                            }
                    }
            }
            bad_v3 += v3;
        }
    }
    T_EQ_INT(inexact, 0);
    T_EQ_INT(bad_v2, 0);
    T_EQ_INT(bad_v3, 0);
    T_CHECK(extra_ok);
    printf("v2 and v3: rho = 8, 16, 32, r = 0..%d, every block equals lambda\n", R_V23);

    /* ---- v1's encoding on every NBB fractal of Table 1 (candy included) ----
     * WMMA v1 and the mma.sync register layout (A from tc_mma_a_value, B from the device's
     * per-lane digits tc_lane_digits) at every level the programs accept (tc_level_supported
     * and tc_mma_level_ok).  Every block while the grid has <= 2^16 blocks, else a strided
     * sample of 2^16 blocks (an odd stride through the grid) plus the last block.
     * On an H100 v1 and mma gave wrong cells for candy (k = 12, s = 4) at rho = 4; this
     * shows the arithmetic is exact there too, so the failure lies in what the host cannot
     * model: a rho = 4 block has 16 threads, and WMMA / mma.sync (.aligned) need all 32 lanes
     * of the warp (README, "Differences"). */
    long other_bad = 0, other_blocks = 0;
    int candy_top = -1;
    for (int fi = 0; fi < FRACTAL_COUNT; fi++) {
        const nbb_fractal *g = &FRACTAL_TABLE[fi];
        nbb_fast F = nbb_fast_make(g);
        for (int rb = 0; rb <= TC_MAX_RB; rb++) {
            if (!tc_level_supported(g, rb, 1) || !tc_mma_level_ok((uint32_t)g->k, rb)) break;
            tc_pows P;
            T_EQ_INT(tc_pows_make((uint32_t)g->k, rb, &P), 0);
            float amma[256] = {0};
            for (int lane = 0; lane < 32; lane++)
                for (int i = 0; i < 8; i++)
                    amma[TC_M * tc_frag_a_row(lane, i) + tc_frag_a_col(lane, i)] = tc_mma_a_value(g->s, rb, lane, i);
            uint32_t gx = tc_grid_x((uint32_t)g->k, rb), gy = tc_grid_y((uint32_t)g->k, rb);
            const long nb = (long)gx * gy, want = SAMPLE_BLOCKS;
            const long stride = nb <= want ? 1 : (nb / want) | 1, count = nb <= want ? nb : want + 1;
            long bad = 0;
#pragma omp parallel for reduction(+ : bad) schedule(static)
            for (long s = 0; s < count; s++) {
                const long w = s < count - 1 || nb <= want ? (s * stride) % nb : nb - 1;
                uint32_t wx = (uint32_t)(w % gx), wy = (uint32_t)(w / gx), ex, ey;
                float a[256], b[256], c[256], d[256];
                lambda_map(g, rb, wx, wy, &ex, &ey); /* eqs. 1-6, the reference */
                tc_v1_encode(g, rb, wx, wy, a, b, c);
                bad += tc_mma_host(a, b, c, d) != 0; /* every A, B entry an exact half */
                bad += d[0] != (float)ex || d[1] != (float)ey;
                memset(b, 0, sizeof b);
                for (int lane = 0; lane < 8; lane++) { /* lanes 0..7 hold B's columns 0, 1 */
                    uint32_t v[4];
                    tc_lane_digits(&F, &P, rb, wx, wy, (uint32_t)(lane & 3), (uint32_t)(lane >> 2), 1, v);
                    for (int i = 0; i < 4; i++) b[TC_M * tc_frag_b_col(lane, i) + tc_frag_b_row(lane, i)] = (float)v[i];
                }
                bad += tc_mma_host(amma, b, c, d) != 0;
                bad += d[TC_M * tc_frag_c_row(0, 0) + tc_frag_c_col(0, 0)] != (float)ex ||
                       d[TC_M * tc_frag_c_row(0, 1) + tc_frag_c_col(0, 1)] != (float)ey;
            }
            other_bad += bad;
            other_blocks += count;
            if (!strcmp(g->name, "candy")) candy_top = rb;
        }
    }
    T_EQ_INT(other_bad, 0);
    T_EQ_INT(candy_top, 8); /* candy: A holds 4^0 .. 4^7 = 2^14 exactly; r_b = 9 would need 4^8 = 2^16 */
    printf("v1 and mma layout on all %d fractals of Table 1: %ld blocks, all equal lambda (candy to r_b = %d)\n",
           FRACTAL_COUNT, other_blocks, candy_top);
    return T_DONE();
}
