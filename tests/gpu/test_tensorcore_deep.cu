/* test_tensorcore_deep.cu -- a map-only test of the tensor-core maps up to r_b = 16:
 * no data array, only k_tc_check (every thread's cell against the classic lambda of its
 * logical block, fractal_lambda_cell; exactly 3^r cells).  rho = 8, r = 3 .. 19, i.e. the
 * block level r_b = r - 3 runs 0 .. 16 (test_tensorcore_maps stops at r = 16, r_b = 13):
 *   - v1, mma, mma-warp, redux, redux-warp: every r_b <= 16 (A holds s^0 .. s^15, exact);
 *   - v2, v2-mma, v2-lambda: while the sub-block level r_b + 1 is <= 16;
 *   - v3: while its A entries rho s^(mu-1) are exact halves (tc_level_supported), i.e. to
 *     r = 16; the levels past that are asserted to be refused;
 *   - five other NBB fractals (k = 4, 5, 7, 8; s = 3, rho = 9; candy: k = 12, s = 4, rho = 4
 *     and 16): v1, mma, mma-warp where their warps are whole, redux and redux-warp always,
 *     at every r_b whose powers of s are exact halves (the encodings of section 5 for a
 *     general NBB fractal).
 * SKIP (77) without a usable GPU. */
#include <stdio.h>
#include <stdlib.h>
#include "../../common/testlib.h"
#include "../../common/device.h"
#include "../../tensorcore/kernels.cuh"

#define RHO 8u
#define RB_MAX 16

template <class Map>
static void check(const Map &m, uint64_t members, const char *what, int r)
{
    unsigned long long h[3];
    tc_check_stats(m, 0, h);
    if (h[0] || h[1] != members)
        fprintf(stderr, "%s r=%d: %llu threads differ, %llu cells (want %llu)\n", what, r, h[0], h[1],
                (unsigned long long)members);
    T_EQ_INT(h[0], 0);
    T_EQ_INT(h[1], members);
}

int main(void)
{
    device_require(0, 8, 0);
    const nbb_fractal *f = fractal_by_name("sierpinski-triangle");
    char err[256];
    __half *A1, *A2, *A3;
    float *C3;
    CHECK_CUDA(cudaMalloc(&A1, 3 * TC_M * TC_M * sizeof(__half)));
    A2 = A1 + TC_M * TC_M;
    A3 = A2 + TC_M * TC_M;
    CHECK_CUDA(cudaMalloc(&C3, 8 * TC_M * TC_M * sizeof(float)));
    int deepest = -1, v2_deepest = -1, v3_deepest = -1;
    for (int rb = 0; rb <= RB_MAX; rb++) {
        int r = rb + 3;
        fractal_launch L, Lsub;
        T_EQ_INT(fractal_launch_init(&L, f, r, RHO, FRACTAL_MAP_LAMBDA, err, sizeof err), 0);
        T_EQ_INT(fractal_launch_init(&Lsub, f, r, RHO / 2, FRACTAL_MAP_LAMBDA, err, sizeof err), 0);
        uint64_t members = fractal_pow(3, r);
        T_CHECK(tc_level_supported(f, rb, 1));
        tc_upload_powers(f, rb, A1);
        check(tc_v1_map::make(L, A1), members, "v1", r);
        check(tc_mma_map<false>::make(L), members, "mma", r);
        check(tc_mma_map<true>::make(L), members, "mma-warp", r);
        check(tc_redux_map<false>::make(L), members, "redux", r);
        check(tc_redux_map<true>::make(L), members, "redux-warp", r);
        deepest = rb;
        if (tc_level_supported(f, Lsub.rb, 1) && tc_mma_level_ok(3, Lsub.rb)) {
            tc_upload_powers(f, Lsub.rb, A2);
            check(tc_v2_map::make(Lsub, A2), members, "v2", r);
            check(tc_v2r_map<false>::make(Lsub), members, "v2-mma", r);
            check(tc_v2r_map<true>::make(Lsub), members, "v2-lambda", r);
            v2_deepest = rb;
        }
        if (tc_level_supported(f, rb, (int)RHO)) {
            tc_upload_v3(f, rb, (int)RHO, A3, C3);
            check(tc_v3_map::make(L, A3, C3), members, "v3", r);
            v3_deepest = rb;
        }
    }
    printf("checked to r_b = %d (v1, mma, mma-warp, redux, redux-warp), %d (v2, v2-mma, v2-lambda), %d (v3)\n", deepest,
           v2_deepest, v3_deepest);
    T_EQ_INT(deepest, RB_MAX);
    T_EQ_INT(v2_deepest, RB_MAX - 1); /* sub-block level rb + 1 <= 16 */
    T_EQ_INT(v3_deepest, 13);         /* rho 2^(rb-1) <= 2^15: r <= 16 */

    /* Other NBB fractals (the thesis: the encodings apply to every NBB fractal): v1's
     * encoding (WMMA v1, mma, mma-warp) and the redux controls, rho = 9 (s = 3) or 4 and 16
     * (s = 4, candy), at every r_b whose powers s^(mu-1) are exact halves (s = 3: 3^6 = 729 <
     * 2048 < 3^7, so r_b <= 7; s = 4: 4^7 = 2^14, r_b <= 8) and whose grid stays below 2^24
     * blocks.  Not v2 (it halves the block side: s = 2 only) nor v3 (32 x 32 blocks of 4 tiles).
     * A map runs only where its warps are whole (maps.cuh, tc_warp0_whole ...: the program's
     * rule): v1 and mma not at rho = 4 (16 threads), mma-warp not at rho = 9 (81 threads) --
     * on an H100 exactly those launches gave wrong cells.  The redux maps name only the lanes
     * that exist, so they run at every rho (a partial warp included). */
    static const struct { const char *name; uint32_t rho; } OTHERS[] = {
        {"candelabra", 9}, {"vicsek", 9}, {"sierpinski-carpet", 9}, {"h-fractal", 9}, {"candy", 4}, {"candy", 16}};
    for (int i = 0; i < 6; i++) {
        const nbb_fractal *g = fractal_by_name(OTHERS[i].name);
        const uint32_t rho = OTHERS[i].rho;
        int rl = fractal_level_of(g->s, rho), top = -1, tc_runs = 0;
        for (int rb = 0; rb <= RB_MAX; rb++) {
            fractal_launch L;
            int r = rb + rl;
            if (!tc_level_supported(g, rb, 1) || !tc_mma_level_ok((uint32_t)g->k, rb)) break;
            if (fractal_launch_init(&L, g, r, rho, FRACTAL_MAP_LAMBDA, err, sizeof err)) break;
            if ((uint64_t)L.gx * L.gy > (1u << 24)) break;
            uint64_t members = fractal_pow((uint64_t)g->k, r);
            char what[96];
            if (tc_warp0_whole(rho)) {
                tc_upload_powers(g, rb, A1);
                snprintf(what, sizeof what, "%s rho=%u v1", g->name, rho);
                check(tc_v1_map::make(L, A1), members, what, r);
                snprintf(what, sizeof what, "%s rho=%u mma", g->name, rho);
                check(tc_mma_map<false>::make(L), members, what, r);
                tc_runs++;
            }
            if (tc_warps_whole(rho)) {
                snprintf(what, sizeof what, "%s rho=%u mma-warp", g->name, rho);
                check(tc_mma_map<true>::make(L), members, what, r);
            }
            T_CHECK(tc_lanes_last_warp(rho) >= (uint32_t)rb); /* a lane per digit in every warp */
            snprintf(what, sizeof what, "%s rho=%u redux", g->name, rho);
            check(tc_redux_map<false>::make(L), members, what, r);
            snprintf(what, sizeof what, "%s rho=%u redux-warp", g->name, rho);
            check(tc_redux_map<true>::make(L), members, what, r);
            top = rb;
        }
        printf("%s (k=%d, s=%d, rho=%u): %s redux, redux-warp checked to r_b = %d\n", g->name, g->k, g->s, rho,
               tc_warps_whole(rho) ? "v1, mma, mma-warp," : tc_warp0_whole(rho) ? "v1, mma," : "", top);
        T_CHECK(top >= 5);                        /* at least r_b = 5 */
        T_CHECK(tc_runs > 0 || rho * rho < 32);   /* the tensor-core maps ran wherever warp 0 is whole */
    }
    CHECK_CUDA(cudaFree(A1));
    CHECK_CUDA(cudaFree(C3));
    return T_DONE();
}
