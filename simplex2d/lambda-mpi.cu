/* lambda-mpi.cu -- a triangular domain split across GPUs by lambda (issue 14): rank r of P
 * computes the blocks omega in [r T / P, (r + 1) T / P) of the lambda-exact map (split.h) for
 * the EDM 4D kernel and the write kernel of Navarro et al. (arXiv:1609.01490, sec. 5), each
 * rank holding its rows of the packed triangle.  One GPU per rank (common/dist.h); no data
 * moves between GPUs (every rank generates the same points), so NCCL is not needed.
 *
 *   mpirun -np P simplex2d/lambda-mpi [--sizes=65536,131072,262144,300000] [--kernel=both]
 * Per (kernel, n): the rank's part is poisoned, computed once and verified (on the device
 * every element against its expected value or the poison, on the host every element of a
 * sample of blocks -- all of them for n <= --full-max -- against the host reference), then
 * timed: the barrier-timed step (the slowest rank) and each rank's own kernel time (events),
 * whose max/min is the balance.  A size whose part does not fit on every rank's GPU is skipped
 * (a '# skipped:' line), which is how "fits on 2 GPUs but not on 1" shows in the data.
 * Output: simplex2d_dist_lambda_p<P>.dat. */
#include <errno.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/rng.h"
#include "../common/dist.h"
#include "kernels.cuh"
#include "split.h"

#define MAX_SIZES 16
#define SAMPLE_BLOCKS 64         /* blocks per rank compared on the host (n > --full-max) */
#define PART_CHUNK (1ull << 30)  /* blocks per launch */
#define OMEGA_LIMIT (1ull << 32) /* lambda-exact (tri_rowcol32) numbers blocks w < 2^32 */
enum { K_WRITE, K_EDM4D };

/* write kernel: one block per omega of the rank's range, rho x rho threads (lambda-exact) */
static __global__ void k_part_write(uint64_t w0, uint32_t rho, uint32_t n, uint32_t *out)
{
    uint32_t bj, bi = tri_rowcol32((uint32_t)(w0 + blockIdx.x), &bj);
    uint32_t i = bi * rho + threadIdx.y, j = bj * rho + threadIdx.x;
    if (i < n && j <= i) out[(size_t)blockIdx.x * rho * rho + threadIdx.y * rho + threadIdx.x] = s2_write_value(i, j);
}
/* EDM 4D kernel: the strict triangle j < i */
static __global__ void k_part_edm4d(uint64_t w0, uint32_t rho, uint32_t n, const float4 *__restrict__ p, float *d)
{
    uint32_t bj, bi = tri_rowcol32((uint32_t)(w0 + blockIdx.x), &bj);
    uint32_t i = bi * rho + threadIdx.y, j = bj * rho + threadIdx.x;
    if (i < n && j < i) d[(size_t)blockIdx.x * rho * rho + threadIdx.y * rho + threadIdx.x] = s2_edm(p[i], p[j]);
}

static __global__ void k_part_poison(uint32_t *out, uint64_t nwords)
{
    for (uint64_t e = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; e < nwords; e += (uint64_t)gridDim.x * blockDim.x)
        out[e] = S2_POISON;
}

/* The expected word of local element e: the kernel's value inside its domain, else poison. */
static inline HD uint32_t part_expect(int kernel, uint64_t w0, uint64_t e, uint32_t rho, uint32_t n, const float4 *p)
{
    uint32_t i, j;
    if (!s2_split_cell(w0, e, rho, n, &i, &j)) return S2_POISON;
    if (kernel == K_WRITE) return s2_write_value(i, j);
    if (j == i) return S2_POISON;
    float f = s2_edm(p[i], p[j]);
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static __global__ void k_part_check(int kernel, uint64_t w0, uint64_t nelem, uint32_t rho, uint32_t n,
                                    const float4 *__restrict__ p, const uint32_t *__restrict__ out, unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (uint64_t e = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; e < nelem; e += (uint64_t)gridDim.x * blockDim.x)
        mine += out[e] != part_expect(kernel, w0, e, rho, n, p);
    if (mine) atomicAdd(bad, mine);
}

typedef struct {
    const dist_ctx *d;
    int kernel;
    uint32_t n, rho;
    uint64_t w0, w1; /* this rank's blocks */
    float4 *p;       /* device points */
    uint32_t *out;   /* device part: (w1 - w0) rho^2 words */
} part_run;

/* The rank's blocks in launches of at most PART_CHUNK blocks (a 1D grid holds < 2^31); a
 * rank with no blocks (more ranks than blocks) launches nothing. */
static void part_launch(const part_run *r, cudaStream_t s)
{
    dim3 block(r->rho, r->rho);
    for (uint64_t w = r->w0; w < r->w1; w += PART_CHUNK) {
        unsigned nb = (unsigned)(r->w1 - w < PART_CHUNK ? r->w1 - w : PART_CHUNK);
        size_t off = (size_t)(w - r->w0) * r->rho * r->rho;
        if (r->kernel == K_WRITE) k_part_write<<<nb, block, 0, s>>>(w, r->rho, r->n, r->out + off);
        else k_part_edm4d<<<nb, block, 0, s>>>(w, r->rho, r->n, r->p, (float *)r->out + off);
        CHECK_CUDA_RANK(cudaGetLastError());
    }
}

/* Verification of the rank's part after one poisoned run: the number of wrong words. */
static unsigned long long part_verify(const part_run *r, const float4 *h_p, uint32_t full_max, uint64_t seed)
{
    uint64_t per = (uint64_t)r->rho * r->rho, nelem = (r->w1 - r->w0) * per;
    unsigned long long *d_bad, bad = 0;
    CHECK_CUDA_RANK(cudaMalloc(&d_bad, sizeof *d_bad));
    CHECK_CUDA_RANK(cudaMemset(d_bad, 0, sizeof *d_bad));
    k_part_check<<<GRID_STRIDE_BLOCKS(8), 256>>>(r->kernel, r->w0, nelem, r->rho, r->n, r->p, r->out, d_bad);
    CHECK_CUDA_RANK(cudaGetLastError());
    CHECK_CUDA_RANK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
    CHECK_CUDA_RANK(cudaFree(d_bad));
    if (bad) fprintf(stderr, "rank %d: device check: %llu wrong words\n", r->d->rank, bad);
    /* host: every block (n <= full_max) or a sample: the first, the last, and random ones */
    uint64_t nblk = r->w1 - r->w0, ns = r->n <= full_max ? nblk : (nblk < SAMPLE_BLOCKS ? nblk : SAMPLE_BLOCKS);
    uint32_t *h = (uint32_t *)malloc(sizeof(uint32_t) * per);
    uint64_t st = seed * 0x9E3779B97F4A7C15ull + (uint64_t)r->d->rank;
    unsigned long long hbad = 0;
    for (uint64_t s = 0; s < ns && h; s++) {
        uint64_t b = ns == nblk ? s : s == 0 ? 0 : s == 1 ? nblk - 1 : rng_splitmix64(&st) % nblk;
        CHECK_CUDA_RANK(cudaMemcpy(h, r->out + b * per, sizeof(uint32_t) * per, cudaMemcpyDeviceToHost));
        for (uint64_t t = 0; t < per; t++)
            if (h[t] != part_expect(r->kernel, r->w0, b * per + t, r->rho, r->n, h_p) && hbad++ < 5)
                fprintf(stderr, "rank %d: block %llu element %llu: got 0x%08x want 0x%08x\n", r->d->rank,
                        (unsigned long long)(r->w0 + b), (unsigned long long)t, h[t],
                        part_expect(r->kernel, r->w0, b * per + t, r->rho, r->n, h_p));
    }
    free(h);
    return bad + hbad;
}

static int parse_sizes(const char *s, uint32_t *v)
{
    int k = 0;
    while (*s) {
        char *end;
        errno = 0;
        unsigned long x = strtoul(s, &end, 10);
        if (end == s || errno || x < 2 || x > 1048576 || k == MAX_SIZES || (*end && *end != ',')) return -1;
        v[k++] = (uint32_t)x;
        s = *end ? end + 1 : end;
    }
    return k;
}

int main(int argc, char **argv)
{
    const char *sizes = "65536,131072,262144,300000", *kernel = "both";
    int rho = 16, full_max = 4096;
    common_opts co = common_opts_default();
    arg_opt opts[] = {
        {"sizes", ARG_STR, &sizes, "comma-separated n (side of the triangle), each in [2, 2^20]", 0, 0, NULL},
        {"kernel", ARG_CHOICE, &kernel, "kernels to run", 0, 0, "both write edm4d"},
        {"rho", ARG_INT, &rho, "block side rho (rho x rho threads)", 1, 32, NULL},
        {"full-max", ARG_INT, &full_max, "largest n whose parts are compared on the host in full", 0, 1 << 20, NULL},
        {"warmup", ARG_INT, &co.warmup, "untimed runs (-1: 3, QUICK 1)", -1, 1000, NULL},
        {"reps", ARG_INT, &co.reps, "timed runs, median reported (-1: 10, QUICK 3)", -1, 10000, NULL},
        {"quick", ARG_FLAG, &co.quick, "fewer reps", 0, 0, NULL},
        {"seed", ARG_LONG, &co.seed, "seed of the points", 0, 9.0e18, NULL},
        {"out", ARG_STR, &co.out, "directory for the .dat file", 0, 0, NULL},
    };
    dist_args_parse(argc, argv, opts, ARGS_COUNT(opts), "lambda-mpi [--sizes=N,N,...] [--kernel=both]   (under mpirun -np P)",
                    "EDM 4D and write kernels on a triangle split across GPUs by lambda-exact block ranges.");
    common_opts_finish(&co);
    dist_ctx d;
    dist_init(&argc, &argv, &d);
    uint32_t nv[MAX_SIZES];
    int ns = parse_sizes(sizes, nv);
    dist_agree(&d, ns < 1 ? 2 : 0, "--sizes=%s: want up to %d comma-separated integers in [2, 1048576]", sizes, MAX_SIZES);
    /* more ranks than blocks is allowed: a rank with an empty range computes nothing, takes
     * part in every collective and reports 0 blocks (the ranks_idle column) */
    for (int k = 0; k < ns; k++)
        dist_agree(&d, s2_split_blocks(nv[k], rho) > OMEGA_LIMIT ? 2 : 0,
                   "n = %u at rho = %d has %llu blocks: lambda-exact numbers at most 2^32 (use a larger --rho)", nv[k],
                   rho, (unsigned long long)s2_split_blocks(nv[k], rho));
    dist_use_gpu(&d);

    char mine[DIST_DESC_LEN], gpus[2048];
    device_describe(d.gpu, mine, sizeof mine);
    dist_describe_all(&d, mine, gpus, sizeof gpus);
    datfile df;
    char name[64];
    snprintf(name, sizeof name, "simplex2d_dist_lambda_p%d.dat", d.size);
    if (d.rank == 0) {
        dat_meta meta = dat_meta_of("simplex2d/lambda-mpi", "issue 14: lambda split across GPUs (no paper figure)", argc,
                                    argv, gpus, &co);
        datfile_open(&df, co.out, name, &meta);
        datfile_meta(&df, "map", "lambda-exact, one block per omega, 1D grid; rank r: omega in [r T/P, (r+1) T/P)");
        datfile_meta(&df, "rank_time", "rank_min_ms, rank_max_ms: fastest and slowest rank's own kernel time (median, CUDA "
                                       "events) over the ranks with work; balance_x = rank_max_ms / rank_min_ms");
        datfile_columns(&df, "kernel n rho ranks ranks_idle blocks_total blocks_min blocks_max part_gib_max total_ms "
                             "total_min_ms total_max_ms rank_min_ms rank_max_ms balance_x gbs reps");
    }
    cudaStream_t st;
    CHECK_CUDA_RANK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CHECK_CUDA_RANK(cudaEventCreate(&e0));
    CHECK_CUDA_RANK(cudaEventCreate(&e1));
    for (int k = 0; k < ns; k++) {
        uint32_t n = nv[k];
        float4 *h_p = (float4 *)malloc(sizeof(float4) * n);
        dist_agree(&d, h_p ? 0 : 1, "rank %d: out of host memory", d.rank);
        uint64_t s = (uint64_t)co.seed * 0xD1B54A32D192ED03ull + n;
        for (uint32_t i = 0; i < n; i++)
            h_p[i] = make_float4((float)rng_unit(&s), (float)rng_unit(&s), (float)rng_unit(&s), (float)rng_unit(&s));
        uint64_t T = s2_split_blocks(n, rho);
        part_run r = {&d, 0, n, (uint32_t)rho, 0, 0, NULL, NULL};
        s2_split_range(T, d.size, d.rank, &r.w0, &r.w1);
        uint64_t nblk = r.w1 - r.w0;
        size_t bytes = (size_t)nblk * rho * rho * 4, free_b = 0, total_b = 0;
        CHECK_CUDA_RANK(cudaMemGetInfo(&free_b, &total_b));
        int fits = bytes + sizeof(float4) * (size_t)n + ((size_t)512 << 20) <= free_b, all_fit = 0;
        CHECK_MPI(MPI_Allreduce(&fits, &all_fit, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
        if (!all_fit) {
            if (d.rank == 0) {
                fprintf(stderr, "n = %u: %.1f GiB per rank does not fit on %d GPU(s): skipped\n", n, bytes / 1073741824.0, d.size);
                datfile_meta(&df, "skipped", "n = %u: its part (%.1f GiB per rank) does not fit on %d GPU(s)", n,
                             bytes / 1073741824.0, d.size);
            }
            free(h_p);
            continue;
        }
        CHECK_CUDA_RANK(cudaMalloc(&r.p, sizeof(float4) * n));
        CHECK_CUDA_RANK(cudaMalloc(&r.out, bytes ? bytes : 16)); /* an idle rank's part is empty */
        CHECK_CUDA_RANK(cudaMemcpy(r.p, h_p, sizeof(float4) * n, cudaMemcpyHostToDevice));
        for (int kern = K_WRITE; kern <= K_EDM4D; kern++) {
            if (strcmp(kernel, "both") && strcmp(kernel, kern == K_WRITE ? "write" : "edm4d")) continue;
            const char *kname = kern == K_WRITE ? "write" : "edm4d";
            r.kernel = kern;
            k_part_poison<<<GRID_STRIDE_BLOCKS(8), 256, 0, st>>>(r.out, bytes / 4); /* every word S2_POISON */
            CHECK_CUDA_RANK(cudaGetLastError());
            part_launch(&r, st);
            CHECK_CUDA_RANK(cudaStreamSynchronize(st));
            unsigned long long bad = part_verify(&r, h_p, (uint32_t)full_max, (uint64_t)co.seed);
            dist_agree(&d, bad ? 1 : 0, "rank %d: %s at n = %u: %llu wrong words: verification failed, no data written", d.rank,
                       kname, n, bad);
            for (int w = 0; w < co.warmup; w++) part_launch(&r, st);
            CHECK_CUDA_RANK(cudaStreamSynchronize(st));
            double *tot = (double *)malloc(sizeof(double) * 2 * co.reps), *own = tot + co.reps;
            for (int rep = 0; rep < co.reps; rep++) {
                double t0 = dist_time_begin();
                CHECK_CUDA_RANK(cudaEventRecord(e0, st));
                part_launch(&r, st);
                CHECK_CUDA_RANK(cudaEventRecord(e1, st));
                CHECK_CUDA_RANK(cudaStreamSynchronize(st));
                tot[rep] = dist_time_end(t0);
                float ms = 0;
                CHECK_CUDA_RANK(cudaEventElapsedTime(&ms, e0, e1));
                own[rep] = ms;
            }
            bench_stats ts = bench_stats_of(tot, co.reps);
            double me = bench_stats_of(own, co.reps).median, lo = 0, hi = 0;
            double me_lo = nblk ? me : 1e300, me_hi = nblk ? me : 0; /* idle ranks: not in the min/max */
            CHECK_MPI(MPI_Reduce(&me_lo, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Reduce(&me_hi, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
            unsigned long long bmine[2] = {nblk, ~nblk}, bext[2] = {0, 0}; /* max of blocks and of ~blocks */
            CHECK_MPI(MPI_Reduce(bmine, bext, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD));
            int idle = nblk == 0, nidle = 0;
            CHECK_MPI(MPI_Reduce(&idle, &nidle, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
            if (d.rank == 0) {
                uint64_t cells = kern == K_WRITE ? (uint64_t)n * (n + 1) / 2 : (uint64_t)n * (n - 1) / 2;
                unsigned long long bmax = bext[0], bmin = ~bext[1];
                datfile_row(&df, "%s %u %d %d %d %llu %llu %llu %.3f %.4f %.4f %.4f %.4f %.4f %.4f %.1f %d", kname, n, rho,
                            d.size, nidle, (unsigned long long)T, bmin, bmax, bmax * rho * rho * 4.0 / 1073741824.0,
                            ts.median, ts.min, ts.max, lo, hi, hi / lo, cells * 4.0 / (ts.median * 1e6), co.reps);
                bench_warn_spread(kname, ts);
                fprintf(stderr, "%s n = %u on %d rank(s): %.3f ms (ranks %.3f .. %.3f ms, balance %.3f)\n", kname, n,
                        d.size, ts.median, lo, hi, hi / lo);
            }
            free(tot);
        }
        CHECK_CUDA_RANK(cudaFree(r.p));
        CHECK_CUDA_RANK(cudaFree(r.out));
        free(h_p);
    }
    if (d.rank == 0) datfile_commit(&df);
    dist_exit(0);
}
