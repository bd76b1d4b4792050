/* test_tensorcore_sw.cu -- the work kernel sw (fractals/kernels.cuh, k_sw) launched with every
 * tensor-core map of tensorcore/maps.cuh and every control writes exactly the fractal's cells,
 * element by element, into a POISONED array with poisoned guard zones before and after it:
 *   - every cell of the n x n array holds the written value iff the host's fractal_member
 *     (base-s digits, fractals/fractal.h) says it is a cell, the poison otherwise; the member
 *     count is k^r (closed form); the 4 KiB before and after the array keep the poison, so a
 *     store past the last block's cells or before the first fails even where the value it
 *     writes would be right;
 *   - Sierpinski (s = 2) at rho = 8, 16, 32, r = log2(rho) .. 10: the compact grid is
 *     3^ceil(rb/2) x 3^floor(rb/2) blocks, odd, so v2's launch of 2 rho x 2 rho blocks over it
 *     has a last row and column of blocks with extra sub-blocks (section 5.2: the grid is not
 *     a multiple of the block), and v3 at rho = 8 runs one 16 x 16 tile for 64 threads;
 *   - s = 3 and s = 4 fractals (v1's encoding only): vicsek and candelabra at rho = 9 and 27
 *     (81 and 729 threads: the last warp has 17 or 25 lanes), candy at rho = 4 and 16; each map
 *     runs only where the program runs it (whole warps: tc_warp0_whole, tc_warps_whole, lanes
 *     per digit for the redux controls).
 * A wrong fragment index, a missing __syncthreads (a thread reading the shared lambda before
 * warp 0 stored it), a sub-block guard dropped or an out-of-bounds store at the last block
 * each leave a wrong or an extra cell.  TEST_QUICK=1 in the environment (the compute-sanitizer
 * runs of tests/run.sh) stops at r = 7 (s = 2) and at the smallest two levels of the others.
 * SKIP (77) without a usable GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/testlib.h"
#include "../../common/device.h"
#include "../../tensorcore/kernels.cuh"

#define POISON 0xA5u
#define VALUE 1u
#define GUARD 4096u

static uint8_t *d_buf, *h_buf, *want; /* device: GUARD + n*n + GUARD; host copy; expected cells */
static size_t buf_cap;
static long maps_run;

/* The expected array of (f, r): VALUE at every member cell, POISON elsewhere; returns k^r
 * checked against the count. */
static void expect_cells(const nbb_fractal *f, int r, uint32_t n)
{
    uint64_t members = 0;
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            int m = fractal_member(f, x, y, r);
            want[(size_t)y * n + x] = (uint8_t)(m ? VALUE : POISON);
            members += m != 0;
        }
    T_EQ_INT(members, fractal_pow((uint64_t)f->k, r));
}

template <class Map>
static void sw_check(const Map &m, const nbb_fractal *f, int r, uint32_t n, uint32_t rho, const char *what)
{
    const size_t cells = (size_t)n * n, total = cells + 2 * GUARD;
    CHECK_CUDA(cudaMemset(d_buf, POISON, total));
    k_sw<Map><<<m.grid, m.block>>>(m, d_buf + GUARD, n, (uint8_t)VALUE);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(h_buf, d_buf, total, cudaMemcpyDeviceToHost));
    long bad = 0, guard = 0;
    for (size_t g = 0; g < GUARD; g++) guard += (h_buf[g] != POISON) + (h_buf[GUARD + cells + g] != POISON);
    for (size_t c = 0; c < cells; c++) {
        const uint8_t got = h_buf[GUARD + c];
        if (got != want[c]) {
            if (bad < 4)
                fprintf(stderr, "%s %s r=%d rho=%u: cell (%zu, %zu) holds 0x%02x, want 0x%02x\n", f->name, what, r, rho, c % n,
                        c / n, got, want[c]);
            bad++;
        }
    }
    if (guard) fprintf(stderr, "%s %s r=%d rho=%u: %ld bytes written outside the array\n", f->name, what, r, rho, guard);
    T_EQ_INT(bad, 0);
    T_EQ_INT(guard, 0);
    maps_run++;
}

/* Every map the program would run for (f, r, rho). */
static void check_level(const nbb_fractal *f, int r, uint32_t rho)
{
    tc_config cf;
    tc_config_init(&cf, f, r, rho);
    const uint32_t n = cf.L.n;
    const int rb = cf.L.rb;
    sw_check(lambda_map_t::make(cf.L), f, r, n, rho, "lambda");
    sw_check(lambda_thread_map::make(cf.L), f, r, n, rho, "lambda-thread");
    if (tc_warp0_whole(rho)) {
        sw_check(tc_v1_map::make(cf.L, cf.A1), f, r, n, rho, "v1");
        sw_check(tc_mma_map<false>::make(cf.L), f, r, n, rho, "mma");
    }
    if (tc_warps_whole(rho)) sw_check(tc_mma_map<true>::make(cf.L), f, r, n, rho, "mma-warp");
    if (tc_lanes_first_warp(rho) >= (uint32_t)rb) sw_check(tc_redux_map<false>::make(cf.L), f, r, n, rho, "redux");
    if (tc_lanes_last_warp(rho) >= (uint32_t)rb) sw_check(tc_redux_map<true>::make(cf.L), f, r, n, rho, "redux-warp");
    sw_check(tc_table_map::make(cf.L, cf.tab), f, r, n, rho, "table");
    if (cf.has_v2v3) {
        tc_v2_map m2 = tc_v2_map::make(cf.Lsub, cf.A2);
        /* the launch covers the logical grid, with extra sub-blocks where it is odd */
        T_CHECK(2ull * m2.grid.x >= cf.Lsub.gx && 2ull * (m2.grid.x - 1) < cf.Lsub.gx);
        T_CHECK(2ull * m2.grid.y >= cf.Lsub.gy && 2ull * (m2.grid.y - 1) < cf.Lsub.gy);
        sw_check(m2, f, r, n, rho, "v2");
        sw_check(tc_v3_map::make(cf.L, cf.A3, cf.C3), f, r, n, rho, "v3");
        sw_check(tc_v2r_map<false>::make(cf.Lsub), f, r, n, rho, "v2-mma");
        sw_check(tc_v2r_map<true>::make(cf.Lsub), f, r, n, rho, "v2-lambda");
    }
    tc_config_free(&cf);
}

int main(void)
{
    device_require(0, 8, 0);
    const char *q = getenv("TEST_QUICK");
    const int quick = q && *q && strcmp(q, "0");
    const int rtop2 = quick ? 7 : 10;
    buf_cap = (size_t)1 << 20; /* n <= 1024 (2^10, 4^5) or 729 (3^6) */
    CHECK_CUDA(cudaMalloc(&d_buf, buf_cap + 2 * GUARD));
    h_buf = (uint8_t *)malloc(buf_cap + 2 * GUARD);
    want = (uint8_t *)malloc(buf_cap);
    T_CHECK(h_buf && want);

    const nbb_fractal *f = fractal_by_name("sierpinski-triangle");
    for (int r = 3; r <= rtop2; r++) {
        expect_cells(f, r, 1u << r);
        for (uint32_t rho = 8; rho <= 32 && rho <= (1u << r); rho *= 2) check_level(f, r, rho);
    }
    printf("sierpinski-triangle: r = 3..%d, rho = 8, 16, 32: every map's sw cells exact, guards untouched\n", rtop2);

    static const struct { const char *name; uint32_t rho; int rmin, rmax; } OTHERS[] = {
        {"vicsek", 9, 2, 6}, {"candelabra", 27, 3, 6}, {"candy", 4, 1, 5}, {"candy", 16, 2, 5}};
    for (int i = 0; i < 4; i++) {
        const nbb_fractal *g = fractal_by_name(OTHERS[i].name);
        T_CHECK(g != NULL);
        if (!g) continue;
        const int rmax = quick ? OTHERS[i].rmin + 1 : OTHERS[i].rmax;
        for (int r = OTHERS[i].rmin; r <= rmax; r++) {
            const uint32_t n = (uint32_t)fractal_pow((uint64_t)g->s, r);
            expect_cells(g, r, n);
            check_level(g, r, OTHERS[i].rho);
        }
        printf("%s (k=%d, s=%d) rho=%u: r = %d..%d exact\n", g->name, g->k, g->s, OTHERS[i].rho, OTHERS[i].rmin, rmax);
    }
    printf("%ld sw launches compared cell by cell\n", maps_run);
    T_CHECK(maps_run > 100);
    CHECK_CUDA(cudaFree(d_buf));
    free(h_buf);
    free(want);
    return T_DONE();
}
