/* test_tensorcore_maps.cu -- the tensor-core maps (tensorcore/maps.cuh) on the GPU equal the
 * classic lambda for every thread of every block, at every r and rho of the experiments:
 *   - r = log2(rho) .. 16, rho = 8, 16, 32, maps v1 v2 v3 mma mma-warp v2-mma v2-lambda redux redux-warp table: k_tc_check (each
 *     thread's cell vs the classic lambda of its logical block, fractal_lambda_cell) finds 0
 *     differences and exactly 3^r cells;
 *   - r <= 10: every launched thread's (x, y, has_cell) copied to the host and compared with
 *     the host reference lambda_map (eqs. 1-6 literally) + fractal_member, and v2's threads
 *     without a sub-block counted = extra_threads() (section 5.2).
 * SKIP (77) without a usable GPU. */
#include <stdio.h>
#include <stdlib.h>
#include "../../common/testlib.h"
#include "../../common/device.h"
#include "../../tensorcore/kernels.cuh"

/* Device check: 0 differences and k^r cells. */
template <class Map>
static void check_dev(const Map &m, uint64_t members, const char *what, int r, uint32_t rho)
{
    unsigned long long h[3];
    tc_check_stats(m, 0, h);
    if (h[0] || h[1] != members)
        fprintf(stderr, "%s r=%d rho=%u: %llu threads differ, %llu cells (want %llu)\n", what, r, rho, h[0], h[1],
                (unsigned long long)members);
    T_EQ_INT(h[0], 0);
    T_EQ_INT(h[1], members);
}

/* Host check of every launched thread against lambda_map + fractal_member.  sub = logical
 * block side (rho, or rho/2 for v2); returns the threads without a logical block. */
template <class Map>
static unsigned long long check_host(const Map &m, const nbb_fractal *f, const fractal_launch &Llog, int split,
                                     const char *what)
{
    size_t nthreads = (size_t)m.grid.x * m.grid.y * m.block.x * m.block.y;
    uint32_t *d, *h = (uint32_t *)malloc(3 * nthreads * sizeof(uint32_t));
    CHECK_CUDA(cudaMalloc(&d, 3 * nthreads * sizeof(uint32_t)));
    CHECK_CUDA(cudaMemset(d, 0xFF, 3 * nthreads * sizeof(uint32_t))); /* poison */
    k_tc_record<Map><<<m.grid, m.block>>>(m, d);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(h, d, 3 * nthreads * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(d));
    long bad = 0;
    unsigned long long none = 0;
    const uint32_t sub = Llog.rho;
    for (size_t t = 0; t < nthreads; t++) {
        uint32_t tx = t % m.block.x, ty = (t / m.block.x) % m.block.y;
        size_t blk = t / ((size_t)m.block.x * m.block.y);
        uint32_t Bx = blk % m.grid.x, By = blk / m.grid.x;
        /* logical block and offset */
        uint32_t wx = Bx, wy = By, lx = tx, ly = ty;
        if (split) {
            wx = 2 * Bx + tx / sub;
            wy = 2 * By + ty / sub;
            lx = tx % sub;
            ly = ty % sub;
        }
        int want = 0;
        uint32_t ex = 0, ey = 0;
        if (wx < Llog.gx && wy < Llog.gy) {
            uint32_t bx, by;
            lambda_map(f, Llog.rb, wx, wy, &bx, &by);
            ex = bx * sub + lx;
            ey = by * sub + ly;
            want = fractal_member(f, ex, ey, Llog.r);
        } else none++;
        const uint32_t *g = h + 3 * t;
        if (g[2] != (uint32_t)want || (want && (g[0] != ex || g[1] != ey))) {
            if (bad < 5)
                fprintf(stderr, "%s: thread %zu (block %u,%u t %u,%u): got (%u,%u,%u) want (%u,%u,%d)\n", what, t, Bx, By,
                        tx, ty, g[0], g[1], g[2], ex, ey, want);
            bad++;
        }
    }
    free(h);
    T_EQ_INT(bad, 0);
    return none;
}

int main(void)
{
    device_require(0, 8, 0);
    const nbb_fractal *f = fractal_by_name("sierpinski-triangle");
    T_CHECK(f != NULL);
    for (uint32_t rho = 8; rho <= 32; rho *= 2) {
        int p = rho == 8 ? 3 : rho == 16 ? 4 : 5;
        for (int r = p; r <= 16; r++) {
            tc_config cf;
            tc_config_init(&cf, f, r, rho);
            uint64_t members = fractal_pow(3, r);
            tc_v1_map m1 = tc_v1_map::make(cf.L, cf.A1);
            tc_v2_map m2 = tc_v2_map::make(cf.Lsub, cf.A2);
            tc_v3_map m3 = tc_v3_map::make(cf.L, cf.A3, cf.C3);
            tc_mma_map<false> mm = tc_mma_map<false>::make(cf.L);
            tc_mma_map<true> mw = tc_mma_map<true>::make(cf.L);
            tc_v2r_map<false> m2m = tc_v2r_map<false>::make(cf.Lsub);
            tc_v2r_map<true> m2l = tc_v2r_map<true>::make(cf.Lsub);
            tc_redux_map<false> mr = tc_redux_map<false>::make(cf.L);
            tc_redux_map<true> mrw = tc_redux_map<true>::make(cf.L);
            tc_table_map mt = tc_table_map::make(cf.L, cf.tab);
            check_dev(m1, members, "v1", r, rho);
            check_dev(m2, members, "v2", r, rho);
            check_dev(m3, members, "v3", r, rho);
            check_dev(mm, members, "mma", r, rho);
            check_dev(mw, members, "mma-warp", r, rho);
            check_dev(m2m, members, "v2-mma", r, rho);
            check_dev(m2l, members, "v2-lambda", r, rho);
            check_dev(mr, members, "redux", r, rho);
            check_dev(mrw, members, "redux-warp", r, rho);
            check_dev(mt, members, "table", r, rho);
            if (r <= 10) {
                check_host(m1, f, cf.L, 0, "v1");
                unsigned long long none = check_host(m2, f, cf.Lsub, 1, "v2");
                T_EQ_INT(none, m2.extra_threads());
                check_host(m3, f, cf.L, 0, "v3");
                check_host(mm, f, cf.L, 0, "mma");
                check_host(mw, f, cf.L, 0, "mma-warp");
                T_EQ_INT(check_host(m2m, f, cf.Lsub, 1, "v2-mma"), m2m.extra_threads());
                T_EQ_INT(check_host(m2l, f, cf.Lsub, 1, "v2-lambda"), m2l.extra_threads());
                check_host(mr, f, cf.L, 0, "redux");
                check_host(mrw, f, cf.L, 0, "redux-warp");
                check_host(mt, f, cf.L, 0, "table");
            }
            tc_config_free(&cf);
        }
        printf("rho=%u: v1 v2 v3 mma mma-warp v2-mma v2-lambda redux redux-warp table equal lambda for every block, r = %d..16\n", rho, p);
    }
    return T_DONE();
}
