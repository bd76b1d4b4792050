/* test_simplex3d_device.cu -- the maps on the device (simplex3d/kernels.cuh), at awkward
 * and experiment sizes (to n = 1032, including nb = 2^k - 1 and 2^k + 1 for every map):
 * atomic counters per cell, every cell of D_n counted exactly once, the written values in a
 * poisoned buffer, both --eval modes and both element-index widths (32-bit instance and
 * 64-bit), the map kernel (no trap) and the empty kernel (nothing written);
 * lambda-exact's block coordinates (64-bit and the audit's 32-bit function) equal the host's
 * for every block index of the largest experiment grid (n = 4096, rho = 8), the 32-bit one
 * also at every 997th index below 2^32; lambda-cubic's first wrong index on this GPU;
 * the coarsened kernels (k_coarse) for every map at awkward sizes and configurations: write
 * and count with strict checks of the whole buffer (inside cells once, every other element
 * untouched), triplet against a double CPU triple loop. */
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <math.h>
#include "../../common/testlib.h"
#include "../../common/device.h"
#include "../../simplex3d/map.h"
#include "../../simplex3d/emulate.h"
#include "../../simplex3d/kernels.cuh"

/* every launch of the map (recursive-log: one per sub-cube), kernels.cuh's dispatch: the map
 * kernel (eval) or, with coarse, write-coarse (k_coarse: lc, ltpm) */
static void launch_each(int map, int eval, int work, const s3_params &p, const s3_args &a, int coarse, uint32_t lc,
                        uint32_t ltpm)
{
    uint64_t nl;
    uint32_t *l = s3_launch_list(map, &p, &nl);
    for (uint64_t i = 0; i < nl; i++) {
        const s3_params q = s3_launch_at(map, &p, l, i);
        if (coarse) s3_launch_coarse(map, work, 0, q, a, lc, ltpm);
        else s3_launch_map(map, eval, work, dim3(q.gx, q.gy, q.gz), 0, q, a);
    }
    free(l);
}
static void launch_any(int map, int eval, int work, const s3_params &p, const s3_args &a)
{
    launch_each(map, eval, work, p, a, 0, 0, 0);
}

/* cells not counted exactly once, plus cells whose written value is wrong (a write into a
 * poisoned buffer), plus elements the empty kernel changed; -1 if the map cannot take the
 * size.  e32 = 0 forces the 64-bit element indices where the 32-bit instance would run (both
 * are checked); the map kernel (no store) runs too: a trap it must never reach would fail the
 * launch. */
static long long coverage(int map, int eval, uint32_t n, uint32_t rho, int e32, uint32_t *d_cnt,
                          unsigned long long *d_wrong)
{
    s3_params p, pb;
    if (s3_plan(map, n, rho, &p)) return -1;
    if (!e32) p.elem32 = 0;
    s3_plan(S3_BB, n, rho, &pb);
    size_t bytes = (size_t)p.tet_blocks * rho * rho * rho * 4;
    CHECK_CUDA(cudaMemset(d_cnt, 0, bytes));
    CHECK_CUDA(cudaMemset(d_wrong, 0, sizeof *d_wrong));
    s3_args a = {};
    a.out = d_cnt, a.wrong = d_wrong, a.magic = ~0ull, a.sentinel = ~0u;
    launch_any(map, eval, S3_COUNT, p, a);
    CHECK_LAUNCH();
    launch_any(S3_BB, 0, S3_CHECK_COUNT, pb, a);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemset(d_cnt, 0xFF, bytes));
    launch_any(map, eval, S3_WRITE, p, a);
    CHECK_LAUNCH();
    launch_any(S3_BB, 0, S3_CHECK_WRITE, pb, a);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemset(d_cnt, 0xFF, bytes));
    launch_any(map, eval, S3_MAP, p, a);
    launch_any(map, eval, S3_EMPTY, p, a);
    launch_any(map, eval, S3_DUMMY, p, a);
    CHECK_LAUNCH();
    k_check_untouched<<<256, 256>>>(d_cnt, bytes / 4, d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaDeviceSynchronize()); /* a trap of the map kernel shows here */
    unsigned long long w = 0;
    CHECK_CUDA(cudaMemcpy(&w, d_wrong, sizeof w, cudaMemcpyDeviceToHost));
    return (long long)w;
}

/* write-coarse (k_coarse): strict checks of the whole buffer after a count run (every inside
 * element 1, every other element of the blocks and of a guard zone 0) and after a write into
 * a poisoned buffer (values inside, poison elsewhere).  Returns the wrong elements (count +
 * write), or -1 if the map / configuration cannot take the size. */
#define GUARD_ELEMS 16384
static void launch_coarse(int map, int work, const s3_params &p, const s3_args &a, uint32_t lc, uint32_t ltpm)
{
    launch_each(map, 0, work, p, a, 1, lc, ltpm);
}

static long long coverage_coarse(int map, uint32_t n, uint32_t rho, uint32_t lc, uint32_t ltpm, uint32_t *d_buf,
                                 unsigned long long *d_wrong)
{
    s3_params p;
    if (s3_plan(map, n, rho, &p) || s3_coarse_check(p.lrho, lc, ltpm)) return -1;
    const uint64_t elems = p.tet_blocks * rho * rho * rho, guard_end = elems + GUARD_ELEMS;
    s3_args a = {};
    a.out = d_buf, a.wrong = d_wrong;
    CHECK_CUDA(cudaMemset(d_wrong, 0, sizeof *d_wrong));
    for (int what = 0; what < 2; what++) {
        CHECK_CUDA(cudaMemset(d_buf, what ? 0xFF : 0, guard_end * 4));
        launch_coarse(map, what ? S3_WRITE : S3_COUNT, p, a, lc, ltpm);
        CHECK_LAUNCH();
        k_check_elems<<<1024, 256>>>(p, d_buf, what, guard_end, d_wrong);
        CHECK_LAUNCH();
    }
    unsigned long long w = 0;
    CHECK_CUDA(cudaMemcpy(&w, d_wrong, sizeof w, cudaMemcpyDeviceToHost));
    return (long long)w;
}

/* lambda-exact on the device, 64-bit (exact32 = 0) or 32-bit (1), at w = w0 + stride * i, i < T */
__global__ void k_lambda_exact_all(uint64_t T, uint64_t stride, int exact32, uint32_t *ijk)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < T; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t w = i * stride;
        if (exact32) s3_lambda_exact_ijk32((uint32_t)w, &ijk[3 * i], &ijk[3 * i + 1], &ijk[3 * i + 2]);
        else s3_lambda_exact_ijk(w, &ijk[3 * i], &ijk[3 * i + 1], &ijk[3 * i + 2]);
    }
}

/* The coarsened triplet kernel: its energy against a double CPU triple loop. */
static double triplet_rel_err(int map, uint32_t n, uint32_t rho, uint32_t lc, uint32_t ltpm, double *d_pos, double *d_e,
                              const double *h_pos)
{
    s3_params p;
    if (s3_plan(map, n, rho, &p) || s3_coarse_check(p.lrho, lc, ltpm)) return -1;
    const uint32_t N = n + 2;
    double abs_sum, ref = at_energy_direct(h_pos, N, &abs_sum);
    s3_args a = {};
    a.pos = d_pos, a.npart = N, a.energy = d_e;
    CHECK_CUDA(cudaMemset(d_e, 0, sizeof(double)));
    launch_coarse(map, S3_TRIPLET, p, a, lc, ltpm);
    CHECK_LAUNCH();
    double e = 0;
    CHECK_CUDA(cudaMemcpy(&e, d_e, sizeof e, cudaMemcpyDeviceToHost));
    return fabs(e - ref) / abs_sum;
}

int main(void)
{
    device_require(0, 7, 5);
    uint32_t *d_cnt;
    unsigned long long *d_wrong;
    s3_params big;
    s3_plan(S3_BB, 1040, 8, &big); /* the largest size below: n = 1032, nb = 129 */
    CHECK_CUDA(cudaMalloc(&d_cnt, ((size_t)big.tet_blocks * 512 + GUARD_ELEMS) * 4));
    CHECK_CUDA(cudaMalloc(&d_wrong, sizeof *d_wrong));

    /* lambda-cubic's exact range on this GPU */
    unsigned long long first = ~0ull;
    CHECK_CUDA(cudaMemcpy(d_wrong, &first, sizeof first, cudaMemcpyHostToDevice));
    k_cubic_first_fail<<<1024, 256>>>(100000000ull, d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(&first, d_wrong, sizeof first, cudaMemcpyDeviceToHost));
    printf("lambda-cubic: first wrong block index on the GPU %llu (host %llu)\n", first,
           (unsigned long long)S3_LAMBDA_CUBIC_FIRST_FAIL_HOST);
    T_CHECK(first > 1000 && first < 100000000ull);

    /* awkward sizes, and nb = 2^k - 1, 2^k + 1 (the non-power-of-two measurements) */
    const uint32_t sizes[][2] = {{1, 1},   {2, 2},   {7, 2},    {97, 4},   {130, 1}, {255, 8},
                                 {1000, 8}, {1024, 8}, {513, 4}, {1016, 8}, {1032, 8}, {520, 8}, {132, 4}};
    for (int map = 0; map < S3_NMAPS; map++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            uint32_t n = sizes[i][0], rho = sizes[i][1];
            s3_params p;
            T_EQ_INT(s3_plan(map, n, rho, &p), 0);
            if (map == S3_LAMBDA_CUBIC && p.tet_blocks > first) continue;
            for (int eval = 0; eval < 2; eval++)
                for (int e32 = p.elem32; e32 >= 0; e32--) {
                    long long bad = coverage(map, eval, n, rho, e32, d_cnt, d_wrong);
                    printf("%-14s n=%5u rho=%u eval=%s %s: %lld cells not covered exactly once or wrongly written\n",
                           s3_map_name(map), n, rho, eval ? "block" : "thread", e32 ? "32-bit" : "64-bit", bad);
                    T_EQ_INT(bad, 0);
                }
        }

    /* write-coarse: every map, awkward sizes, configurations (log2 map blocks per CUDA block,
     * log2 threads per map block; clipped to rho^3/4 chunks) */
    const uint32_t csizes[][2] = {{2, 2}, {7, 2}, {97, 4}, {64, 8}, {255, 8}, {1000, 8}, {1024, 8}, {513, 4}, {1032, 8}};
    const uint32_t ccfg[][2] = {{0, 7}, {0, 5}, {2, 5}, {4, 5}, {3, 0}, {1, 2}};
    for (int map = 0; map < S3_NMAPS; map++)
        for (size_t i = 0; i < sizeof csizes / sizeof csizes[0]; i++)
            for (size_t k = 0; k < sizeof ccfg / sizeof ccfg[0]; k++) {
                uint32_t n = csizes[i][0], rho = csizes[i][1], lr = 31u - s2_clz(rho);
                uint32_t lc = ccfg[k][0], ltpm = ccfg[k][1] < 3 * lr - 2 ? ccfg[k][1] : 3 * lr - 2;
                s3_params p;
                if (s3_plan(map, n, rho, &p)) continue;
                if (map == S3_LAMBDA_CUBIC && p.tet_blocks > first) continue;
                long long bad = coverage_coarse(map, n, rho, lc, ltpm, d_cnt, d_wrong);
                if (bad < 0) continue;
                printf("write-coarse %-14s n=%5u rho=%u %2ux%-3u: %lld elements wrong\n", s3_map_name(map), n, rho, 1u << lc,
                       1u << ltpm, bad);
                T_EQ_INT(bad, 0);
            }

    /* the coarsened triplet kernel: every map, small sizes, configurations */
    {
        const uint32_t tsizes[][2] = {{13, 2}, {50, 4}, {66, 8}, {130, 8}};
        const uint32_t tcfg[][2] = {{0, 7}, {0, 5}, {2, 5}, {0, 0}, {3, 2}};
        double *d_pos, *d_e, h_pos[3 * 132];
        at_particles(h_pos, 132, 42);
        CHECK_CUDA(cudaMalloc(&d_pos, sizeof h_pos));
        CHECK_CUDA(cudaMalloc(&d_e, sizeof(double)));
        CHECK_CUDA(cudaMemcpy(d_pos, h_pos, sizeof h_pos, cudaMemcpyHostToDevice));
        double worst = 0;
        int cases = 0;
        for (int map = 0; map < S3_NMAPS; map++)
            for (size_t i = 0; i < sizeof tsizes / sizeof tsizes[0]; i++)
                for (size_t k = 0; k < sizeof tcfg / sizeof tcfg[0]; k++) {
                    uint32_t n = tsizes[i][0], rho = tsizes[i][1], lr = 31u - s2_clz(rho);
                    uint32_t ltpm = tcfg[k][1] < 3 * lr - 2 ? tcfg[k][1] : 3 * lr - 2;
                    double r = triplet_rel_err(map, n, rho, tcfg[k][0], ltpm, d_pos, d_e, h_pos);
                    if (r < 0) continue;
                    cases++;
                    if (!(r <= 1e-10)) printf("triplet-coarse %s n=%u rho=%u cfg %ux%u: rel. error %g\n", s3_map_name(map), n,
                                              rho, 1u << tcfg[k][0], 1u << ltpm, r);
                    if (!(r <= worst)) worst = r;
                }
        printf("triplet-coarse: %d (map, n, rho, configuration) cases, worst |E - E_cpu| / sum|E| = %.3g\n", cases, worst);
        T_CHECK(cases > 50 && worst <= 1e-10);
        CHECK_CUDA(cudaFree(d_pos));
        CHECK_CUDA(cudaFree(d_e));
    }

    /* lambda-exact: device == host (64-bit) for every block index of the n = 4096, rho = 8
     * grid, by the 64-bit and the 32-bit device functions, and the 32-bit one at every 997th
     * index up to S3_TET32_MAX_W */
    s3_params p;
    s3_plan(S3_LAMBDA_EXACT, 4096, 8, &p);
    const uint64_t G = (uint64_t)p.gx * p.gy * p.gz, G32 = S3_TET32_MAX_W / 997;
    uint32_t *d_ijk;
    CHECK_CUDA(cudaMalloc(&d_ijk, (G > G32 ? G : G32) * 12));
    std::vector<uint32_t> h(3 * (G > G32 ? G : G32));
    for (int pass = 0; pass < 3; pass++) {
        const uint64_t T = pass < 2 ? G : G32, stride = pass < 2 ? 1 : 997;
        k_lambda_exact_all<<<2048, 256>>>(T, stride, pass > 0, d_ijk);
        CHECK_LAUNCH();
        CHECK_CUDA(cudaMemcpy(h.data(), d_ijk, T * 12, cudaMemcpyDeviceToHost));
        uint64_t diff = 0;
        for (uint64_t i = 0; i < T; i++) {
            uint32_t a, b, c;
            s3_lambda_exact_ijk(i * stride, &a, &b, &c);
            diff += a != h[3 * i] || b != h[3 * i + 1] || c != h[3 * i + 2];
        }
        printf("lambda-exact (%s, %s): %llu of %llu block indices differ between device and host\n",
               pass ? "32-bit" : "64-bit", pass < 2 ? "the n = 4096 grid" : "every 997th to 2^32", (unsigned long long)diff,
               (unsigned long long)T);
        T_EQ_INT(diff, 0);
    }
    CHECK_CUDA(cudaFree(d_ijk));
    CHECK_CUDA(cudaFree(d_cnt));
    CHECK_CUDA(cudaFree(d_wrong));
    return T_DONE();
}
