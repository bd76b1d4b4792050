/* test_fractals_device.cu -- the fractals maps and test kernels on the device.
 *
 *  - every fractal, small levels, every valid rho, maps bb / bb-skip (where it applies) /
 *    bb-block / lambda / lambda-thread / lambda-par:
 *    coverage (each fractal cell reached exactly once, nothing else), sw, rd (exact sum),
 *    ca (4 steps vs the CPU) through fractals/driver.cuh; the sw array is also copied back
 *    and compared with the host's membership for small n;
 *  - the device evaluation of fractal_launch_cell for every map kind (magic division with
 *    __umulhi) equals the host's on random threads of large levels (Sierpinski r = 16). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../common/testlib.h"
#include "../../common/device.h"
#include "../../fractals/fractal.h"
#include "../../fractals/kernels.cuh"
#include "../../fractals/driver.cuh"

static __global__ void k_eval_cells(fractal_launch L, const uint32_t *q, uint32_t *out, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    uint32_t x = 0, y = 0;
    int in = fractal_launch_cell(&L, q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3], &x, &y);
    out[3 * i] = x;
    out[3 * i + 1] = y;
    out[3 * i + 2] = (uint32_t)in;
}

template <class Map>
static void check_map(const Map &m, fractal_problem *p, const char *label, uint8_t *h)
{
    for (int t = 0; t < 3; t++) T_EQ_INT(fractal_check(m, p, t, label), 0);
    if (p->cells <= (1u << 20)) { /* sw result on the host */
        CHECK_CUDA(cudaMemset(p->d_a, 0, p->cells));
        fractal_launch_test(m, p, FRACTAL_SW);
        CHECK_LAUNCH();
        CHECK_CUDA(cudaMemcpy(h, p->d_a, p->cells, cudaMemcpyDeviceToHost));
        long bad = 0;
        for (uint64_t c = 0; c < p->cells; c++)
            bad += h[c] != (fractal_member(&p->f, (uint32_t)(c % p->n), (uint32_t)(c / p->n), p->r) ? FRACTAL_SW_VALUE : 0);
        T_EQ_INT(bad, 0);
    }
}

int main(void)
{
    device_require(0, 8, 0);
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    uint8_t *h = (uint8_t *)malloc(1u << 20);
    char err[256], label[160];
    long configs = 0;
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        int rmax = f->s == 2 ? 10 : f->s == 3 ? 6 : 5;
        for (int r = 0; r <= rmax; r++) {
            fractal_problem p;
            fractal_problem_init(&p, f, r, FRACTAL_TESTS_ALL, 777 + r, s);
            for (uint32_t rho = 1; rho <= p.n && rho <= FRACTAL_MAX_RHO; rho *= (uint32_t)f->s) {
                fractal_launch Lb, Ll;
                T_EQ_INT(fractal_launch_init(&Lb, f, r, rho, FRACTAL_MAP_BB, err, sizeof err), 0);
                T_EQ_INT(fractal_launch_init(&Ll, f, r, rho, FRACTAL_MAP_LAMBDA, err, sizeof err), 0);
                snprintf(label, sizeof label, "%s r=%d rho=%u bb", f->name, r, rho);
                check_map(bb_map::make(Lb), &p, label, h);
                snprintf(label, sizeof label, "%s r=%d rho=%u bb-block", f->name, r, rho);
                check_map(bb_block_map::make(Lb), &p, label, h);
                if (fractal_lower_triangular(f)) {
                    snprintf(label, sizeof label, "%s r=%d rho=%u bb-skip", f->name, r, rho);
                    check_map(bb_skip_map::make(Lb), &p, label, h);
                }
                snprintf(label, sizeof label, "%s r=%d rho=%u lambda", f->name, r, rho);
                check_map(lambda_map_t::make(Ll), &p, label, h);
                snprintf(label, sizeof label, "%s r=%d rho=%u lambda-thread", f->name, r, rho);
                check_map(lambda_thread_map::make(Ll), &p, label, h);
                snprintf(label, sizeof label, "%s r=%d rho=%u lambda-par", f->name, r, rho);
                check_map(lambda_par_map::make(Ll), &p, label, h);
                configs++;
            }
            fractal_problem_free(&p);
        }
    }
    printf("%ld configurations checked\n", configs);
    T_CHECK(configs > 100);

    /* device vs host evaluation on random threads of large levels */
    const int count = 1 << 16;
    uint32_t *hq = (uint32_t *)malloc(16u * count), *ho = (uint32_t *)malloc(12u * count), *dq, *dout;
    CHECK_CUDA(cudaMalloc(&dq, 16u * count));
    CHECK_CUDA(cudaMalloc(&dout, 12u * count));
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        int r = f->s == 2 ? 16 : f->s == 3 ? 10 : 8;
        for (int map = 0; map < 4; map++) {
            fractal_launch L;
            if (map == FRACTAL_MAP_BB_SKIP && !fractal_lower_triangular(f)) continue;
            uint32_t rho = f->s == 4 ? 16 : f->s == 3 ? 27 : 8;
            T_EQ_INT(fractal_launch_init(&L, f, r, rho, (fractal_map_kind)map, err, sizeof err), 0);
            for (int j = 0; j < count; j++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                hq[4 * j] = (uint32_t)((seed >> 33) % L.gx);
                hq[4 * j + 1] = (uint32_t)((seed >> 7) % L.gy);
                hq[4 * j + 2] = (uint32_t)((seed >> 20) % rho);
                hq[4 * j + 3] = (uint32_t)((seed >> 45) % rho);
            }
            CHECK_CUDA(cudaMemcpy(dq, hq, 16u * count, cudaMemcpyHostToDevice));
            k_eval_cells<<<count / 256, 256>>>(L, dq, dout, count);
            CHECK_LAUNCH();
            CHECK_CUDA(cudaMemcpy(ho, dout, 12u * count, cudaMemcpyDeviceToHost));
            long bad = 0;
            for (int j = 0; j < count; j++) {
                uint32_t x = 0, y = 0;
                int in = fractal_launch_cell(&L, hq[4 * j], hq[4 * j + 1], hq[4 * j + 2], hq[4 * j + 3], &x, &y);
                bad += ho[3 * j + 2] != (uint32_t)in || (in && (ho[3 * j] != x || ho[3 * j + 1] != y));
                bad += in && !fractal_member(f, x, y, r);
            }
            T_EQ_INT(bad, 0);
        }
    }
    CHECK_CUDA(cudaFree(dq));
    CHECK_CUDA(cudaFree(dout));
    free(hq);
    free(ho);
    free(h);
    CHECK_CUDA(cudaStreamDestroy(s));
    return T_DONE();
}
