/* bandwidth.cu -- the GPU's measured memory ceiling (foundation issue, item 2).
 *
 * Every memory-bound experiment in this collection reports GB/s as a fraction of what this
 * program measures on the same GPU, not of a datasheet number.  Three tests, each over a
 * sweep of buffer sizes (sizes below the L2 cache measure the cache, not HBM):
 *   memcpy  cudaMemcpyAsync device-to-device      bytes = 2 * size (read + write)
 *   copy    a 16-byte-per-thread copy kernel      bytes = 2 * size (read + write)
 *   write   a 16-byte-per-thread store kernel     bytes = size
 * Each result is verified on the device (every element compared, poisoned beforehand)
 * before it is timed.  Output: <out>/common_bandwidth.dat, one row per (test, size). */
#include <stdint.h>
#include "check.h"
#include "device.h"
#include "args.h"
#include "bench.h"
#include "datfile.h"

#define POISON_WORD 0xDEADBEEFu

/* The value stored at word i: distinct per word, so a misplaced store is caught. */
static __host__ __device__ inline uint32_t pattern(size_t i, uint32_t salt)
{
    return (uint32_t)(i * 2654435761u) ^ salt;
}

static __global__ void k_fill(uint4 *a, size_t n16, uint32_t salt)
{
    for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < n16; v += (size_t)gridDim.x * blockDim.x)
        a[v] = make_uint4(pattern(4 * v, salt), pattern(4 * v + 1, salt), pattern(4 * v + 2, salt),
                          pattern(4 * v + 3, salt));
}

static __global__ void k_copy(const uint4 *__restrict__ src, uint4 *__restrict__ dst, size_t n16)
{
    for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < n16; v += (size_t)gridDim.x * blockDim.x)
        dst[v] = src[v];
}

/* Counts words that differ from pattern(i, salt). */
static __global__ void k_count_wrong(const uint32_t *a, size_t n, uint32_t salt, unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        mine += a[i] != pattern(i, salt);
    if (mine) atomicAdd(wrong, mine);
}

typedef struct {
    uint4 *src, *dst;
    size_t bytes;
    int blocks, threads;
    uint32_t salt;
} bw_ctx;

static void run_memcpy(void *p, cudaStream_t s)
{
    bw_ctx *c = (bw_ctx *)p;
    CHECK_CUDA(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, s));
}
static void run_copy(void *p, cudaStream_t s)
{
    bw_ctx *c = (bw_ctx *)p;
    k_copy<<<c->blocks, c->threads, 0, s>>>(c->src, c->dst, c->bytes / 16);
}
static void run_write(void *p, cudaStream_t s)
{
    bw_ctx *c = (bw_ctx *)p;
    k_fill<<<c->blocks, c->threads, 0, s>>>(c->dst, c->bytes / 16, c->salt);
}

static unsigned long long count_wrong(bw_ctx *c, uint32_t salt, unsigned long long *d_wrong)
{
    unsigned long long wrong = 0;
    CHECK_CUDA(cudaMemset(d_wrong, 0, sizeof *d_wrong));
    k_count_wrong<<<c->blocks, c->threads>>>((const uint32_t *)c->dst, c->bytes / 4, salt, d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(&wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost));
    return wrong;
}

/* Options; --quick caps the sweep at 256 MiB. */
static void bw_parse(int argc, char **argv, common_opts *c, long long *max_mib, int *check_device)
{
    arg_opt opts[] = {
        COMMON_ARGS(*c),
        {"check-device", ARG_FLAG, check_device, "only check for a usable GPU: print it, exit 0 (77 without one; make run uses this)", 0, 0, NULL},
        {"max-mib", ARG_LONG, max_mib, "largest buffer in MiB (sweep 1, 4, 16, ... MiB up to this)", 1, 65536, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "bandwidth [options]",
               "Measures device-to-device copy (read+write) and write bandwidth.");
    common_opts_finish(c);
    if (c->quick && *max_mib > 256) *max_mib = 256;
}

static const char *const BW_NAMES[3] = {"memcpy", "copy", "write"};

/* Test t (memcpy, copy, write) at x->bytes: verified first (source holds pattern(salt 1),
 * destination poisoned; a wrong word exits 1 and removes the data file), then timed; one row.
 * Returns its GB/s. */
static double bw_measure(bw_ctx *x, int t, unsigned long long *d_wrong, cudaStream_t s, const common_opts *c,
                         datfile *d, size_t l2)
{
    static const bench_gpu_fn fns[3] = {run_memcpy, run_copy, run_write};
    size_t bytes = x->bytes;
    x->salt = 2;
    k_fill<<<x->blocks, x->threads>>>(x->src, bytes / 16, 1);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemset(x->dst, 0xEF, bytes));
    fns[t](x, s);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaStreamSynchronize(s));
    uint32_t expect = t == 2 ? 2 : 1;
    unsigned long long wrong = count_wrong(x, expect, d_wrong);
    if (wrong) {
        datfile_discard(d);
        DIE("%s of %zu bytes: %llu words wrong", BW_NAMES[t], bytes, wrong);
    }
    bench_stats st = bench_gpu(fns[t], x, s, c->warmup, c->reps, c->batch);
    double moved = (t == 2 ? 1.0 : 2.0) * bytes;
    double gbs = moved / (st.median * 1e-3) / 1e9;
    if (bench_warn_spread(BW_NAMES[t], st))
        datfile_meta(d, "warning", "spread %.0f%% for %s at %zu bytes", 100 * bench_spread(st), BW_NAMES[t], bytes);
    datfile_row(d, "%s %zu %.0f %.6f %.6f %.6f %.1f %d", BW_NAMES[t], bytes, moved, st.median, st.min, st.max, gbs,
                st.batch);
    fprintf(stderr, "%-6s %10.1f MiB  %9.4f ms  %8.1f GB/s%s\n", BW_NAMES[t], bytes / 1048576.0, st.median, gbs,
            bytes <= l2 ? "  (fits in L2)" : "");
    return gbs;
}

/* The sweep 1, 4, 16, ... MiB up to the largest power of 4 <= --max-mib -> common_bandwidth.dat */
static int bw_run(int argc, char **argv, const common_opts *c, long long max_mib, const char *gpu)
{
    struct cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, c->device));
    size_t max_bytes = (size_t)1 << 20;
    while (4 * max_bytes <= ((size_t)max_mib << 20)) max_bytes *= 4;
    bw_ctx x;
    x.src = (uint4 *)device_alloc_or_usage(2 * max_bytes, "two buffers of --max-mib") ;
    x.dst = x.src + max_bytes / 16;
    x.threads = 256;
    x.blocks = prop.multiProcessorCount * 8; /* enough resident warps to saturate HBM */
    unsigned long long *d_wrong;
    CHECK_CUDA(cudaMalloc(&d_wrong, sizeof *d_wrong));
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));

    dat_meta m = dat_meta_of("common/bandwidth", "measured memory ceiling (no paper figure)", argc, argv, gpu, c);
    datfile d;
    datfile_open(&d, c->out, "common_bandwidth.dat", &m);
    datfile_meta(&d, "l2_bytes", "%d", prop.l2CacheSize);
    datfile_meta(&d, "columns", "gbs = bytes / median time; bytes counts reads + writes");
    datfile_columns(&d, "test size_bytes bytes_moved median_ms min_ms max_ms gbs batch");

    double last[3] = {0, 0, 0}; /* GB/s at the largest size: the ceiling */
    for (size_t bytes = (size_t)1 << 20; bytes <= max_bytes; bytes *= 4) {
        x.bytes = bytes;
        for (int t = 0; t < 3; t++) last[t] = bw_measure(&x, t, d_wrong, s, c, &d, (size_t)prop.l2CacheSize);
    }
    datfile_meta(&d, "ceiling", "at the largest size: memcpy %.0f GB/s, copy %.0f GB/s, write %.0f GB/s",
                 last[0], last[1], last[2]);
    datfile_commit(&d);
    printf("largest size: memcpy %.0f GB/s, copy kernel %.0f GB/s (read+write), write %.0f GB/s\n",
           last[0], last[1], last[2]);
    CHECK_CUDA(cudaFree(x.src));
    CHECK_CUDA(cudaFree(d_wrong));
    CHECK_CUDA(cudaStreamDestroy(s));
    return 0;
}

int main(int argc, char **argv)
{
    common_opts c = common_opts_default();
    long long max_mib = 4096;
    int check_device = 0;
    bw_parse(argc, argv, &c, &max_mib, &check_device);
    device_require(c.device, 7, 5);
    char gpu[256];
    device_describe(c.device, gpu, sizeof gpu);
    if (check_device) {
        printf("%s\n", gpu);
        return 0;
    }
    return bw_run(argc, argv, &c, max_mib, gpu);
}
