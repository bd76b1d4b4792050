/* test_fractals_compact_device.cu -- the automaton on COMPACT storage (fractals/compact.cuh)
 * on the device.
 *
 *  - every fractal, every level with n <= 2^12 (and k^r <= 2^24): the compact start state
 *    copied back equals fractal_ca_value on the host's forward map (fractal_cell_of) for
 *    every cell; then 6 steps of the compact ca, after EVERY step equal to the embedded ca
 *    (k_ca under the lambda map, itself checked against the CPU in test_fractals_device)
 *    on every compact cell, and equal to the independent full-inverse evaluation;
 *  - a liveness check: the dense fractals still have live cells after 6 steps (a dead
 *    automaton would make the comparison vacuous);
 *  - sw and rd on compact storage: every byte written; the sum equal to the host's sum of
 *    fractal_rd_value over the cells (forward map on the host). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../common/testlib.h"
#include "../../common/device.h"
#include "../../fractals/fractal.h"
#include "../../fractals/kernels.cuh"
#include "../../fractals/driver.cuh"
#include "../../fractals/compact.cuh"

#define STEPS 6
#define MAX_N (1u << 12)
#define MAX_CELLS (1ull << 24)

static unsigned long long read_count(unsigned long long *d)
{
    unsigned long long w = 0;
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(&w, d, sizeof w, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemset(d, 0, sizeof w));
    return w;
}

int main(void)
{
    device_require(0, 8, 0);
    const uint64_t seed = 4242;
    char err[256];
    long configs = 0;
    unsigned long long *d_w;
    CHECK_CUDA(cudaMalloc(&d_w, sizeof *d_w));
    CHECK_CUDA(cudaMemset(d_w, 0, sizeof *d_w));
    for (int fi = 0; fi < FRACTAL_COUNT; fi++) {
        const nbb_fractal *f = &FRACTAL_TABLE[fi];
        for (int r = 0;; r++) {
            uint64_t n = fractal_pow((uint64_t)f->s, r), cells = fractal_pow((uint64_t)f->k, r);
            if (n > MAX_N || cells > MAX_CELLS) break;
            compact_launch P;
            T_EQ_INT(compact_launch_init(&P, f, r, err, sizeof err), 0);
            compact_state S = {P, {NULL, NULL}, 0};
            uint8_t *d_e[2];
            CHECK_CUDA(cudaMalloc(&S.d_s[0], cells));
            CHECK_CUDA(cudaMalloc(&S.d_s[1], cells));
            CHECK_CUDA(cudaMalloc(&d_e[0], n * n));
            CHECK_CUDA(cudaMalloc(&d_e[1], n * n));
            CHECK_CUDA(cudaMemset(d_e[0], 0, n * n));
            CHECK_CUDA(cudaMemset(d_e[1], 0, n * n));
            CHECK_CUDA(cudaMemset(S.d_s[1], 0xAB, cells));
            k_compact_init<<<P.blocks, P.threads>>>(P, S.d_s[0], seed);
            CHECK_LAUNCH();
            /* the start state against the host's forward map */
            uint8_t *h = (uint8_t *)malloc(cells);
            CHECK_CUDA(cudaMemcpy(h, S.d_s[0], cells, cudaMemcpyDeviceToHost));
            long bad = 0;
            for (uint64_t i = 0; i < cells; i++) {
                uint32_t x, y;
                fractal_cell_of(f, r, i, &x, &y);
                bad += h[i] != fractal_ca_value(x, y, seed);
            }
            T_EQ_INT(bad, 0);
            k_compact_scatter<<<P.blocks, P.threads>>>(P, S.d_s[0], d_e[0]);
            CHECK_LAUNCH();
            uint32_t rho = 1;
            while (rho * (uint32_t)f->s <= n && rho * (uint32_t)f->s <= 16) rho *= (uint32_t)f->s;
            fractal_launch L;
            T_EQ_INT(fractal_launch_init(&L, f, r, rho, FRACTAL_MAP_LAMBDA, err, sizeof err), 0);
            lambda_map_t m = lambda_map_t::make(L);
            int ecur = 0;
            unsigned long long diff = 0, diff_full = 0;
            for (int t = 0; t < STEPS; t++) {
                compact_step(&S, 0);
                k_ca<lambda_map_t><<<m.grid, m.block>>>(m, d_e[ecur], d_e[ecur ^ 1], (uint32_t)n);
                ecur ^= 1;
                CHECK_LAUNCH();
                k_compact_vs_embedded<<<P.blocks, P.threads>>>(P, S.d_s[S.cur], d_e[ecur], d_w);
                CHECK_LAUNCH();
                diff += read_count(d_w);
                k_compact_check_full<<<P.blocks, P.threads>>>(P, S.d_s[S.cur ^ 1], S.d_s[S.cur], d_w);
                CHECK_LAUNCH();
                diff_full += read_count(d_w);
            }
            if (diff || diff_full) fprintf(stderr, "%s r=%d: %llu cells differ from embedded, %llu from full inverse\n", f->name, r, diff, diff_full);
            T_EQ_INT(diff, 0);
            T_EQ_INT(diff_full, 0);
            CHECK_CUDA(cudaMemcpy(h, S.d_s[S.cur], cells, cudaMemcpyDeviceToHost));
            long alive = 0;
            for (uint64_t i = 0; i < cells; i++) alive += h[i];
            if (f->k >= 7 && cells >= 4096) T_CHECK(alive > 0); /* the dense fractals */
            /* sw and rd on compact storage against the host */
            CHECK_CUDA(cudaMalloc(&S.d_sum, sizeof *S.d_sum));
            CHECK_CUDA(cudaMemset(S.d_s[0], 0, cells));
            compact_sw(&S, 0);
            CHECK_LAUNCH();
            CHECK_CUDA(cudaMemcpy(h, S.d_s[0], cells, cudaMemcpyDeviceToHost));
            long unset = 0;
            for (uint64_t i = 0; i < cells; i++) unset += h[i] != FRACTAL_SW_VALUE;
            T_EQ_INT(unset, 0);
            k_compact_init_rd<<<P.blocks, P.threads>>>(P, S.d_s[1], seed);
            CHECK_LAUNCH();
            CHECK_CUDA(cudaMemset(S.d_sum, 0, sizeof *S.d_sum));
            compact_rd(&S, 0);
            CHECK_LAUNCH();
            unsigned long long got = read_count(S.d_sum), want = 0;
            for (uint64_t i = 0; i < cells; i++) {
                uint32_t x, y;
                fractal_cell_of(f, r, i, &x, &y);
                want += fractal_rd_value(x, y, seed);
            }
            T_EQ_INT(got, want);
            CHECK_CUDA(cudaFree(S.d_sum));
            free(h);
            CHECK_CUDA(cudaFree(S.d_s[0]));
            CHECK_CUDA(cudaFree(S.d_s[1]));
            CHECK_CUDA(cudaFree(d_e[0]));
            CHECK_CUDA(cudaFree(d_e[1]));
            configs++;
        }
    }
    printf("%ld levels checked\n", configs);
    T_CHECK(configs > 40);
    CHECK_CUDA(cudaFree(d_w));
    return T_DONE();
}
