/* test_tensorcore_deep.cu -- a map-only test of the tensor-core maps up to r_b = 16 (issue 15):
 * no data array, only k_tc_check (every thread's cell against the classic lambda of its
 * logical block, fractal_lambda_cell; exactly 3^r cells).  rho = 8, r = 3 .. 19, i.e. the
 * block level r_b = r - 3 runs 0 .. 16 (test_tensorcore_maps stops at r = 16, r_b = 13):
 *   - v1, mma, mma-warp, redux, redux-warp: every r_b <= 16 (A holds s^0 .. s^15, exact);
 *   - v2, v2-mma, v2-lambda: while the sub-block level r_b + 1 is <= 16;
 *   - v3: while its A entries rho s^(mu-1) are exact halves (tc_level_supported), i.e. to
 *     r = 16; the levels past that are asserted to be refused;
 *   - four other NBB fractals (k = 4, 5, 7, 8; s = 3): v1, mma and redux
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
     * encoding (WMMA v1, mma, mma-warp) and the redux control, rho = 9 (s = 3) or 4 (s = 4),
     * at every r_b whose powers s^(mu-1) are exact halves (s = 3: 3^6 = 729 < 2048 < 3^7,
     * so r_b <= 7; s = 4: 4^7 = 2^14, r_b <= 8) and whose grid stays below 2^24 blocks.
     * Not v2 (it halves the block side: s = 2 only) nor v3 (32 x 32 blocks of 4 tiles). */
    /* candy (k = 12) is left out and refused by the program: v1 and mma gave wrong cells at
     * every level on an H100; mma-warp needs whole warps (rho^2 = 81 or 16 here) and gave
     * wrong cells for every one of these fractals, so it is refused for s != 2 */
    static const char *const OTHERS[] = {"candelabra", "vicsek", "sierpinski-carpet", "h-fractal"};
    for (int i = 0; i < 4; i++) {
        const nbb_fractal *g = fractal_by_name(OTHERS[i]);
        uint32_t rho = g->s == 3 ? 9u : 4u;
        int rl = fractal_level_of(g->s, rho), top = -1;
        for (int rb = 0; rb <= RB_MAX; rb++) {
            fractal_launch L;
            int r = rb + rl;
            if (!tc_level_supported(g, rb, 1) || !tc_mma_level_ok((uint32_t)g->k, rb)) break;
            if (fractal_launch_init(&L, g, r, rho, FRACTAL_MAP_LAMBDA, err, sizeof err)) break;
            if ((uint64_t)L.gx * L.gy > (1u << 24)) break;
            uint64_t members = fractal_pow((uint64_t)g->k, r);
            char what[96];
            tc_upload_powers(g, rb, A1);
            snprintf(what, sizeof what, "%s v1", g->name);
            check(tc_v1_map::make(L, A1), members, what, r);
            snprintf(what, sizeof what, "%s mma", g->name);
            check(tc_mma_map<false>::make(L), members, what, r);
            snprintf(what, sizeof what, "%s redux", g->name);
            check(tc_redux_map<false>::make(L), members, what, r);
            top = rb;
        }
        printf("%s (k=%d, s=%d, rho=%u): v1, mma, redux checked to r_b = %d\n", g->name, g->k, g->s, rho, top);
        T_CHECK(top >= 5); /* at least r_b = 5 */
    }
    CHECK_CUDA(cudaFree(A1));
    CHECK_CUDA(cudaFree(C3));
    return T_DONE();
}
