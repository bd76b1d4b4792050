/* test_simplex2d_cover.cu -- the simplex2d maps and kernels on the device.
 *  1. exact coverage (every cell of the triangle once, strict variant too) for every map at
 *     awkward small n and rho, and at every experiment size n = 1024 .. 30720 step 1024
 *     (rho = 16); lambda-exact and recursive also at n = 2^15 with rho = 8 (m = 4096, the
 *     largest grid the experiments use).  Float maps: the first n where they fail is printed.
 *     The kernels' branch-free eq. (13) against the paper's case form, every (wx, wy) of the
 *     orthotopes of 2^0 .. 2^12 blocks.
 *  2. the first wrong block index of the float lambda maps on the device: lambda-sqrt and
 *     lambda-newton must equal the host's (same roundings), lambda-rsqrt (hardware rsqrtf)
 *     is printed and must lie between the Newton and sqrtf ones.
 *  3. kernel results against CPU references at small n: write and edm4d (whole matrix),
 *     collision3d / collision1d counts, for several maps. */
#include <stdlib.h>
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../simplex2d/map.h"
#include "../../simplex2d/kernels.cuh"
#include "../host/simplex2d_walk.h"

__global__ void k_first_wrong(int map, uint32_t limit, unsigned long long *first)
{
    for (uint64_t w64 = blockIdx.x * blockDim.x + threadIdx.x; w64 < limit; w64 += gridDim.x * blockDim.x) {
        uint32_t bi, bj, w = (uint32_t)w64;
        switch (map) {
        case S2_LAMBDA_SQRT: s2_lambda(S2_LAMBDA_SQRT, w, &bi, &bj); break;
        case S2_LAMBDA_NEWTON: s2_lambda(S2_LAMBDA_NEWTON, w, &bi, &bj); break;
        case S2_LAMBDA_RSQRT: s2_lambda(S2_LAMBDA_RSQRT, w, &bi, &bj); break;
        default: s2_lambda(S2_LAMBDA_EXACT, w, &bi, &bj); break;
        }
        /* independent of every map: T(bi) <= w < T(bi + 1) in 64-bit integers */
        if (!(tri_number(bi) <= w && w < tri_number((uint64_t)bi + 1))) atomicMin(first, (unsigned long long)w);
    }
}

/* Counts the (wx, wy) of the orthotopes s = 2^logs, logs = 0 .. 12, where the kernels'
 * branch-free eq. (13) (s2_recursive_pow2: bfind on the device) differs from the paper's
 * case form. */
__global__ void k_recursive_pow2_diff(unsigned long long *diff)
{
    unsigned long long bad = 0;
    for (uint32_t logs = 0; logs <= 12; logs++) {
        const uint32_t s = 1u << logs, half = s > 1 ? s / 2 : 1;
        for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < half * (s + 1); t += gridDim.x * blockDim.x) {
            uint32_t i1, j1, i2, j2, wx = t % half, wy = t / half;
            s2_recursive_pow2_cases(logs, wx, wy, &i1, &j1);
            s2_recursive_pow2(logs, wx, wy, &i2, &j2);
            bad += i1 != i2 || j1 != j2;
        }
    }
    if (bad) atomicAdd(diff, bad);
}

static unsigned long long device_first_wrong(int map, uint32_t limit)
{
    unsigned long long *d, h = ~0ull;
    CHECK_CUDA(cudaMalloc(&d, sizeof h));
    CHECK_CUDA(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    k_first_wrong<<<GRID_STRIDE_BLOCKS(8), 256>>>(map, limit, d);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(d));
    return h;
}

int main(void)
{
    device_require(0, 7, 5);
    uint32_t nbig = 1u << 15;
    uint32_t *cnt;
    unsigned long long *d_wrong, *d_count;
    CHECK_CUDA(cudaMalloc(&cnt, (size_t)nbig * nbig * 4));
    CHECK_CUDA(cudaMalloc(&d_wrong, 8));
    CHECK_CUDA(cudaMalloc(&d_count, 8));
    char err[256];
    s2_grid g;

    /* 1a. small awkward sizes, every map and rho */
    static const uint32_t small[] = {1, 2, 3, 7, 31, 33, 64, 100, 127, 257, 1000, 1031};
    static const uint32_t rhos[] = {1, 2, 4, 8, 16, 32};
    for (int map = 0; map < S2_NMAPS; map++)
        for (size_t a = 0; a < sizeof small / sizeof *small; a++)
            for (int r = 0; r < 6; r++) {
                if (s2_grid_make(&g, map, small[a], rhos[r], err, sizeof err)) {
                    T_CHECK((map == S2_REC && small[a] % rhos[r]) || (s2_map_is_strict(map) && small[a] < 2));
                    continue;
                }
                unsigned long long bad = s2_check_cover(&g, cnt, d_wrong);
                if (bad) fprintf(stderr, "%s n=%u rho=%u: %llu wrong\n", s2_map_name(map), small[a], rhos[r], bad);
                T_EQ_INT(bad, 0);
            }
    /* 1b. every experiment size (rho = 16) */
    for (int map = 0; map < S2_NMAPS; map++) {
        uint32_t first_fail = 0;
        for (uint32_t n = 1024; n <= 30720; n += 1024) {
            T_EQ_INT(s2_grid_make(&g, map, n, 16, err, sizeof err), 0);
            unsigned long long bad = s2_check_cover(&g, cnt, d_wrong);
            if (s2_map_is_float(map)) {
                if (bad && !first_fail) first_fail = n;
            } else {
                if (bad) fprintf(stderr, "%s n=%u rho=16: %llu wrong\n", s2_map_name(map), n, bad);
                T_EQ_INT(bad, 0);
            }
        }
        if (s2_map_is_float(map) && first_fail) printf("%s (rho=16): first wrong experiment size n=%u\n", s2_map_name(map), first_fail);
        else if (s2_map_is_float(map)) printf("%s (rho=16): exact at every experiment size\n", s2_map_name(map));
    }
    /* 1c. the largest grid: n = 2^15, rho = 8 (m = 4096) and rho = 16, 32 */
    for (int r = 3; r < 6; r++) {
        T_EQ_INT(s2_grid_make(&g, S2_LAMBDA_EXACT, nbig, rhos[r], err, sizeof err), 0);
        T_EQ_INT(s2_check_cover(&g, cnt, d_wrong), 0);
        T_EQ_INT(s2_grid_make(&g, S2_RECURSIVE, nbig, rhos[r], err, sizeof err), 0);
        T_EQ_INT(s2_check_cover(&g, cnt, d_wrong), 0);
    }

    /* 1d. eq. (13) branch-free on the device == the paper's case form, every (wx, wy) */
    unsigned long long pdiff = 0;
    CHECK_CUDA(cudaMemset(d_wrong, 0, sizeof pdiff));
    k_recursive_pow2_diff<<<64, 256>>>(d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(&pdiff, d_wrong, sizeof pdiff, cudaMemcpyDeviceToHost));
    T_EQ_INT(pdiff, 0);

    /* 2. first wrong block index on the device */
    uint32_t lim = 1u << 26;
    unsigned long long ws = device_first_wrong(S2_LAMBDA_SQRT, lim), wn = device_first_wrong(S2_LAMBDA_NEWTON, lim);
    unsigned long long wr = device_first_wrong(S2_LAMBDA_RSQRT, lim), we = device_first_wrong(S2_LAMBDA_EXACT, 0xFFFFFFFFu);
    printf("device first wrong block index: lambda-sqrt %llu (row %u), lambda-newton %llu (row %u), "
           "lambda-rsqrt %llu (row %u), lambda-exact %s\n", ws, tri_row_exact(ws), wn, tri_row_exact(wn), wr,
           tri_row_exact(wr), we == ~0ull ? "none below 2^32" : "WRONG");
    T_EQ_INT(ws, s2t_first_wrong(S2_LAMBDA_SQRT, lim));
    T_EQ_INT(wn, s2t_first_wrong(S2_LAMBDA_NEWTON, lim));
    T_CHECK(wr > wn && wr < ws); /* between Newton's and sqrtf's, as the header says */
    T_CHECK(we == ~0ull); /* lambda-exact (rsqrtf guess + correction): every w < 2^32 */

    /* 3. kernels against CPU references */
    static const int maps[] = {S2_BB, S2_RB, S2_REC, S2_UTM, S2_LAMBDA_RSQRT, S2_LAMBDA_EXACT, S2_RECURSIVE};
    uint32_t n = 1536;
    float4 *h = (float4 *)malloc(sizeof(float4) * n), *d_p;
    float2 *h1 = (float2 *)malloc(sizeof(float2) * n), *d_p1;
    uint64_t s = 99;
    for (uint32_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        h[i] = make_float4((s >> 40) / 16777216.0f, ((s >> 20) & 0xFFFFF) / 1048576.0f, (s & 0xFFFFF) / 1048576.0f,
                           0.05f * ((s >> 8) & 0xFFF) / 4096.0f);
        h1[i] = make_float2(h[i].x, 0.001f * h[i].y);
    }
    CHECK_CUDA(cudaMalloc(&d_p, sizeof(float4) * n));
    CHECK_CUDA(cudaMalloc(&d_p1, sizeof(float2) * n));
    CHECK_CUDA(cudaMemcpy(d_p, h, sizeof(float4) * n, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_p1, h1, sizeof(float2) * n, cudaMemcpyHostToDevice));
    unsigned long long c3 = 0, c1 = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < i; j++) { c3 += s2_hit3(h[i], h[j]); c1 += s2_hit1(h1[i], h1[j]); }
    printf("CPU reference: %llu sphere collisions, %llu interval collisions among %u objects\n", c3, c1, n);
    T_CHECK(c3 > 100 && c1 > 100);
    uint32_t *hm = (uint32_t *)malloc(sizeof(uint32_t) * n * n);
    for (size_t mi = 0; mi < sizeof maps / sizeof *maps; mi++)
        for (int r = 2; r < 6; r++) {
            T_EQ_INT(s2_grid_make(&g, maps[mi], n, rhos[r], err, sizeof err), 0);
            s2_job jb;
            memset(&jb, 0, sizeof jb);
            jb.g = g;
            for (int k = S2_K_WRITE; k <= S2_K_COLLISION1D; k++) {
                jb.kernel = k;
                jb.in = k == S2_K_COLLISION1D ? (const void *)d_p1 : (const void *)d_p;
                jb.out = k >= S2_K_COLLISION3D ? (void *)d_count : (void *)cnt;
                CHECK_CUDA(cudaMemset(cnt, 0xEF, (size_t)n * n * 4));
                CHECK_CUDA(cudaMemset(d_count, 0, 8));
                s2_run(&jb, 0);
                CHECK_CUDA(cudaDeviceSynchronize());
                if (k >= S2_K_COLLISION3D) {
                    unsigned long long got;
                    CHECK_CUDA(cudaMemcpy(&got, d_count, 8, cudaMemcpyDeviceToHost));
                    T_EQ_INT(got, k == S2_K_COLLISION3D ? c3 : c1);
                    continue;
                }
                CHECK_CUDA(cudaMemcpy(hm, cnt, sizeof(uint32_t) * n * n, cudaMemcpyDeviceToHost));
                long bad = 0;
                for (uint32_t i = 0; i < n; i++)
                    for (uint32_t j = 0; j < n; j++) {
                        uint32_t e = 0xEFEFEFEFu;
                        if (k == S2_K_WRITE && j <= i) e = s2_write_value(i, j);
                        if (k == S2_K_EDM4D && j < i) { float f = s2_edm(h[i], h[j]); memcpy(&e, &f, 4); }
                        bad += hm[(size_t)i * n + j] != e;
                    }
                if (bad) fprintf(stderr, "%s rho=%u kernel %s: %ld cells differ from the CPU\n", s2_map_name(maps[mi]), rhos[r], s2_kernel_name(k), bad);
                T_EQ_INT(bad, 0);
            }
        }
    /* the coarsened write (rho = 32 tiles), n a multiple of 4 and not of 32 */
    for (int mi = 0; mi < 3; mi++) {
        int mp = mi == 0 ? S2_BB : mi == 1 ? S2_LAMBDA_EXACT : S2_RECURSIVE;
        uint32_t nc = 1500;
        T_EQ_INT(s2_grid_make(&g, mp, nc, 32, err, sizeof err), 0);
        s2_job jb;
        memset(&jb, 0, sizeof jb);
        jb.g = g;
        jb.kernel = S2_K_COARSE;
        jb.out = cnt;
        CHECK_CUDA(cudaMemset(cnt, 0xEF, (size_t)nc * nc * 4));
        s2_run(&jb, 0);
        CHECK_CUDA(cudaMemcpy(hm, cnt, sizeof(uint32_t) * nc * nc, cudaMemcpyDeviceToHost));
        long bad = 0;
        for (uint32_t i = 0; i < nc; i++)
            for (uint32_t j = 0; j < nc; j++) bad += hm[(size_t)i * nc + j] != (j <= i ? s2_write_value(i, j) : 0xEFEFEFEFu);
        T_EQ_INT(bad, 0);
    }
    free(h); free(h1); free(hm);
    CHECK_CUDA(cudaFree(cnt));
    return T_DONE();
}
