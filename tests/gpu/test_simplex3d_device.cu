/* test_simplex3d_device.cu -- the maps on the device (simplex3d/kernels.cuh), at awkward
 * and experiment sizes (to n = 1024): atomic counters per cell, every cell of D_n counted exactly once;
 * lambda-exact's block coordinates equal the host's for every block index of the largest
 * experiment grid (n = 4096, rho = 8); lambda-cubic's first wrong index on this GPU;
 * the write-coarse kernel (k_coarse) for every map at awkward sizes and configurations, with
 * strict checks of the whole buffer (inside cells once, every other element untouched). */
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include "../../common/testlib.h"
#include "../../common/device.h"
#include "../../simplex3d/map.h"
#include "../../simplex3d/emulate.h"
#include "../../simplex3d/kernels.cuh"

template <int MAP, int EVAL>
static void launch(int work, const s3_params &p, const s3_args &a)
{
    dim3 b(p.rho * p.rho * p.rho);
    if (MAP != S3_RECURSIVE_LOG) {
        if (work == S3_COUNT) k_map<MAP, S3_COUNT, EVAL><<<dim3(p.gx, p.gy, p.gz), b>>>(p, a);
        else k_map<MAP, S3_CHECK_COUNT, S3_EVAL_THREAD><<<dim3(p.gx, p.gy, p.gz), b>>>(p, a);
        return;
    }
    uint64_t nl;
    uint32_t *l = s3_launch_list(MAP, &p, &nl);
    for (uint64_t i = 0; i < nl; i++) {
        s3_params q = p;
        q.gx = q.gy = q.gz = l[4 * i], q.a0 = l[4 * i + 1], q.b0 = l[4 * i + 2], q.c0 = l[4 * i + 3];
        k_map<MAP, S3_COUNT, EVAL><<<dim3(q.gx, q.gy, q.gz), b>>>(q, a);
    }
    free(l);
}

static void launch_any(int map, int eval, int work, const s3_params &p, const s3_args &a)
{
#define S3_L(M) (eval ? launch<M, S3_EVAL_BLOCK>(work, p, a) : launch<M, S3_EVAL_THREAD>(work, p, a))
    switch (map) {
    case S3_BB: S3_L(S3_BB); break;
    case S3_LAMBDA_CUBIC: S3_L(S3_LAMBDA_CUBIC); break;
    case S3_LAMBDA_EXACT: S3_L(S3_LAMBDA_EXACT); break;
    case S3_RECURSIVE_LOG: S3_L(S3_RECURSIVE_LOG); break;
    case S3_RECURSIVE_O1: S3_L(S3_RECURSIVE_O1); break;
    }
#undef S3_L
}

/* cells not counted exactly once, or -1 if the map cannot take the size */
static long long coverage(int map, int eval, uint32_t n, uint32_t rho, uint32_t *d_cnt, unsigned long long *d_wrong)
{
    s3_params p, pb;
    if (s3_plan(map, n, rho, &p)) return -1;
    s3_plan(S3_BB, n, rho, &pb);
    size_t bytes = (size_t)p.tet_blocks * rho * rho * rho * 4;
    CHECK_CUDA(cudaMemset(d_cnt, 0, bytes));
    CHECK_CUDA(cudaMemset(d_wrong, 0, sizeof *d_wrong));
    s3_args a = {};
    a.out = d_cnt, a.wrong = d_wrong;
    launch_any(map, eval, S3_COUNT, p, a);
    CHECK_LAUNCH();
    launch_any(S3_BB, 0, S3_CHECK_COUNT, pb, a);
    CHECK_LAUNCH();
    unsigned long long w = 0;
    CHECK_CUDA(cudaMemcpy(&w, d_wrong, sizeof w, cudaMemcpyDeviceToHost));
    return (long long)w;
}

/* write-coarse (k_coarse): strict checks of the whole buffer after a count run (every inside
 * element 1, every other element of the blocks and of a guard zone 0) and after a write into
 * a poisoned buffer (values inside, poison elsewhere).  Returns the wrong elements (count +
 * write), or -1 if the map / configuration cannot take the size. */
#define GUARD_ELEMS 16384
template <int MAP>
static void launch_coarse(int work, const s3_params &p, const s3_args &a, uint32_t lc, uint32_t ltpm)
{
    uint64_t nl;
    uint32_t *l = s3_launch_list(MAP, &p, &nl);
    for (uint64_t i = 0; i < nl; i++) {
        s3_params q = p;
        if (MAP == S3_RECURSIVE_LOG)
            q.gx = q.gy = q.gz = l[4 * i], q.a0 = l[4 * i + 1], q.b0 = l[4 * i + 2], q.c0 = l[4 * i + 3];
        dim3 g((q.gx + (1u << lc) - 1) >> lc, q.gy, q.gz), b(1u << (lc + ltpm));
        if (work == S3_COUNT) k_coarse<MAP, S3_COUNT><<<g, b>>>(q, a, lc, ltpm);
        else k_coarse<MAP, S3_WRITE><<<g, b>>>(q, a, lc, ltpm);
    }
    free(l);
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
        switch (map) {
        case S3_BB: launch_coarse<S3_BB>(what ? S3_WRITE : S3_COUNT, p, a, lc, ltpm); break;
        case S3_LAMBDA_CUBIC: launch_coarse<S3_LAMBDA_CUBIC>(what ? S3_WRITE : S3_COUNT, p, a, lc, ltpm); break;
        case S3_LAMBDA_EXACT: launch_coarse<S3_LAMBDA_EXACT>(what ? S3_WRITE : S3_COUNT, p, a, lc, ltpm); break;
        case S3_RECURSIVE_LOG: launch_coarse<S3_RECURSIVE_LOG>(what ? S3_WRITE : S3_COUNT, p, a, lc, ltpm); break;
        case S3_RECURSIVE_O1: launch_coarse<S3_RECURSIVE_O1>(what ? S3_WRITE : S3_COUNT, p, a, lc, ltpm); break;
        }
        CHECK_LAUNCH();
        k_check_elems<<<1024, 256>>>(p, d_buf, what, guard_end, d_wrong);
        CHECK_LAUNCH();
    }
    unsigned long long w = 0;
    CHECK_CUDA(cudaMemcpy(&w, d_wrong, sizeof w, cudaMemcpyDeviceToHost));
    return (long long)w;
}

__global__ void k_lambda_exact_all(uint64_t T, uint32_t *ijk)
{
    for (uint64_t w = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; w < T; w += (uint64_t)gridDim.x * blockDim.x)
        s3_lambda_exact_ijk(w, &ijk[3 * w], &ijk[3 * w + 1], &ijk[3 * w + 2]);
}

int main(void)
{
    device_require(0, 7, 5);
    uint32_t *d_cnt;
    unsigned long long *d_wrong;
    s3_params big;
    s3_plan(S3_BB, 1024, 8, &big);
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

    const uint32_t sizes[][2] = {{1, 1}, {2, 2}, {7, 2}, {97, 4}, {130, 1}, {255, 8}, {1000, 8}, {1024, 8}, {513, 4}};
    for (int map = 0; map < S3_NMAPS; map++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            uint32_t n = sizes[i][0], rho = sizes[i][1];
            s3_params p;
            if (s3_plan(map, n, rho, &p)) continue; /* recursive-log: powers of two only */
            if (map == S3_LAMBDA_CUBIC && p.tet_blocks > first) continue;
            for (int eval = 0; eval < 2; eval++) {
                long long bad = coverage(map, eval, n, rho, d_cnt, d_wrong);
                printf("%-14s n=%5u rho=%u eval=%s: %lld cells not covered exactly once\n", s3_map_name(map), n, rho,
                       eval ? "block" : "thread", bad);
                T_EQ_INT(bad, 0);
            }
        }

    /* write-coarse: every map, awkward sizes, configurations (log2 map blocks per CUDA block,
     * log2 threads per map block; clipped to rho^3/4 chunks) */
    const uint32_t csizes[][2] = {{2, 2}, {7, 2}, {97, 4}, {64, 8}, {255, 8}, {1000, 8}, {1024, 8}, {513, 4}};
    const uint32_t ccfg[][2] = {{0, 7}, {0, 5}, {2, 5}, {4, 5}, {3, 0}, {1, 2}};
    for (int map = 0; map < S3_NMAPS; map++)
        for (size_t i = 0; i < sizeof csizes / sizeof csizes[0]; i++)
            for (size_t k = 0; k < sizeof ccfg / sizeof ccfg[0]; k++) {
                uint32_t n = csizes[i][0], rho = csizes[i][1], lr = 31u - s3_clz32(rho);
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

    /* lambda-exact: device == host for every block index of the n = 4096, rho = 8 grid */
    s3_params p;
    s3_plan(S3_LAMBDA_EXACT, 4096, 8, &p);
    uint64_t G = (uint64_t)p.gx * p.gy * p.gz;
    uint32_t *d_ijk;
    CHECK_CUDA(cudaMalloc(&d_ijk, G * 12));
    k_lambda_exact_all<<<2048, 256>>>(G, d_ijk);
    CHECK_LAUNCH();
    std::vector<uint32_t> h(3 * G);
    CHECK_CUDA(cudaMemcpy(h.data(), d_ijk, G * 12, cudaMemcpyDeviceToHost));
    uint64_t diff = 0;
    for (uint64_t w = 0; w < G; w++) {
        uint32_t i, j, k;
        s3_lambda_exact_ijk(w, &i, &j, &k);
        diff += i != h[3 * w] || j != h[3 * w + 1] || k != h[3 * w + 2];
    }
    printf("lambda-exact: %llu of %llu block indices differ between device and host\n", (unsigned long long)diff,
           (unsigned long long)G);
    T_EQ_INT(diff, 0);
    CHECK_CUDA(cudaFree(d_ijk));
    CHECK_CUDA(cudaFree(d_cnt));
    CHECK_CUDA(cudaFree(d_wrong));
    return T_DONE();
}
