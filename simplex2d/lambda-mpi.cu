/* lambda-mpi.cu -- a triangular domain split across GPUs by lambda: rank r of P computes the
 * blocks omega in [r T / P, (r + 1) T / P) of the lambda-exact map (split.h; Navarro et al.,
 * arXiv:1609.01490, eq. 4) for the write and EDM 4D kernels of section 5, each rank holding its
 * rows of the packed triangle.  One GPU per rank (common/dist.h); no data moves between GPUs
 * (every rank generates the same points), so NCCL is not needed.  --backend=cpu (the default,
 * as for every --backend option of the collection) runs the same split on the host (OpenMP
 * threads per rank, the same per-thread functions, the same checks): a machine without a GPU
 * can try it; the measurements name --backend=gpu (make run-mpi).
 *
 *   common/mpirun.sh -np P simplex2d/lambda-mpi [--backend=cpu|gpu] [--sizes=N,...] [--kernel=both]
 *                                               [--variant=coarse|plain|both] [--rho=16]
 * Variants (the same split, the same layout: block omega at (omega - w0) rho^2 words):
 *   coarse  the coarsened kernels of simplex2d (k_write_coarse in kernels.cuh): 32 x 32 tiles
 *           (the split's blocks, rho = 32) of 8 x 8 threads, 16 cells and four 16-byte stores
 *           per thread; EDM 4D stages the tile's 32 row and 32 column points in shared memory;
 *   plain   one thread per cell, rho x rho threads per block (--rho).
 * Per n: a linear 16-byte fill of each rank's share of the triangle's bytes (the write rate
 * the GPUs reach: pct_of_fill), then per (kernel, variant): the rank's part is poisoned,
 * computed once and verified (on the device every element against its expected value or the
 * poison, on the host every element of a sample of blocks -- all of them for n <= --full-max
 * -- against the host reference), then timed: the barrier-timed step (the slowest rank) and
 * each rank's own kernel time (events), whose max / min is the balance.  A rank whose range
 * is empty (more ranks than blocks) computes nothing and reports 0 blocks.  A size whose part
 * does not fit on every rank's GPU (CPU: half the node's memory over its ranks) is skipped (a
 * '# skipped:' line): "fits on 2 GPUs but not on 1" shows in the data that way.
 * Output: simplex2d_dist_lambda_p<P>.dat (CPU: simplex2d_dist_lambda_cpu_p<P>.dat). */
#include <errno.h>
#include <omp.h>
#include <time.h>
#include <unistd.h>
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
#define TILE 32                  /* coarse: the tile of k_write_coarse, 32 x 32 cells ... */
#define TILE_T 8                 /* ... of 8 x 8 threads, 4 rows x 4 columns each */
#define FILL_VALUE 0x0F1E2D3Cu   /* the linear fill's word */
enum { K_FILL, K_WRITE, K_EDM4D };
enum { V_PLAIN, V_COARSE };
enum { B_GPU, B_CPU };
static const char *KERNEL_NAMES[] = {"fill", "write", "edm4d"};
static const char *VARIANT_NAMES[] = {"plain", "coarse"};

static inline HD uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- the kernels' work, per thread, as HD functions ---- */
/* plain: thread (tx, ty) of block (bi, bj) computes cell (bi rho + ty, bj rho + tx); the
 * slots outside the triangle (strict for EDM) keep their poison. */
static inline HD void plain_cell(int kernel, uint32_t bi, uint32_t bj, uint32_t rho, uint32_t n, uint32_t tx,
                                 uint32_t ty, const float4 *p, uint32_t *blk)
{
    uint32_t i = bi * rho + ty, j = bj * rho + tx;
    if (i >= n) return;
    if (kernel == K_WRITE && j <= i) blk[ty * rho + tx] = s2_write_value(i, j);
    if (kernel == K_EDM4D && j < i) blk[ty * rho + tx] = f32_bits(s2_edm(p[i], p[j]));
}

/* coarse (k_write_coarse's scheme): thread (tx, ty) of tile (bi, bj) computes rows ty + 8 r,
 * r < 4, columns 4 tx .. 4 tx + 3.  Off the diagonal a row is whole (j < bi 32 <= i < n) and
 * goes out as one 16-byte store; the diagonal tile filters per cell.  rows / cols: the tile's
 * points (p + bi 32, p + bj 32; on the GPU staged in shared memory), read by EDM only. */
static inline HD void coarse_cells(int kernel, uint32_t bi, uint32_t bj, uint32_t n, uint32_t tx, uint32_t ty,
                                   const float4 *rows, const float4 *cols, uint32_t *tile)
{
    uint32_t j = bj * TILE + 4 * tx;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (uint32_t r = 0; r < TILE / TILE_T; r++) {
        uint32_t y = ty + TILE_T * r, i = bi * TILE + y;
        if (i >= n) break;
        uint32_t *row = tile + y * TILE + 4 * tx, v[4];
        if (bi != bj) {
            for (uint32_t c = 0; c < 4; c++)
                v[c] = kernel == K_WRITE ? s2_write_value(i, j + c) : f32_bits(s2_edm(rows[y], cols[4 * tx + c]));
            *(uint4 *)row = make_uint4(v[0], v[1], v[2], v[3]);
        } else {
            for (uint32_t c = 0; c < 4; c++) {
                if (kernel == K_WRITE && j + c <= i) row[c] = s2_write_value(i, j + c);
                if (kernel == K_EDM4D && j + c < i) row[c] = f32_bits(s2_edm(rows[y], cols[4 * tx + c]));
            }
        }
    }
}

/* ---- GPU kernels: one block per omega of the launch's range [w0, w0 + gridDim.x) ---- */
template <int K>
static __global__ void k_part_plain(uint64_t w0, uint32_t rho, uint32_t n, const float4 *__restrict__ p, uint32_t *out)
{
    uint32_t bj, bi = tri_rowcol32((uint32_t)(w0 + blockIdx.x), &bj);
    plain_cell(K, bi, bj, rho, n, threadIdx.x, threadIdx.y, p, out + (size_t)blockIdx.x * rho * rho);
}
template <int K>
static __global__ void __launch_bounds__(TILE_T *TILE_T) k_part_coarse(uint64_t w0, uint32_t n, const float4 *__restrict__ p,
                                                                       uint32_t *out)
{
    __shared__ float4 pts[2 * TILE]; /* EDM: the tile's row points, then its column points */
    uint32_t bj, bi = tri_rowcol32((uint32_t)(w0 + blockIdx.x), &bj);
    if (K == K_EDM4D) {
        uint32_t t = threadIdx.y * TILE_T + threadIdx.x, g = t < TILE ? bi * TILE + t : bj * TILE + (t - TILE);
        if (g < n) pts[t] = p[g];
        __syncthreads();
    }
    coarse_cells(K, bi, bj, n, threadIdx.x, threadIdx.y, pts, pts + TILE, out + (size_t)blockIdx.x * TILE * TILE);
}

static __global__ void k_part_poison(uint32_t *out, uint64_t nwords)
{
    for (uint64_t e = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; e < nwords; e += (uint64_t)gridDim.x * blockDim.x)
        out[e] = S2_POISON;
}

/* The expected word of local element e: the kernel's value inside its domain, else poison
 * (fill: FILL_VALUE in the first fill_words words). */
static inline HD uint32_t part_expect(int kernel, uint64_t w0, uint64_t e, uint32_t rho, uint32_t n, const float4 *p,
                                      uint64_t fill_words)
{
    if (kernel == K_FILL) return e < fill_words ? FILL_VALUE : S2_POISON;
    uint32_t i, j;
    if (!s2_split_cell(w0, e, rho, n, &i, &j)) return S2_POISON;
    if (kernel == K_WRITE) return s2_write_value(i, j);
    return j == i ? S2_POISON : f32_bits(s2_edm(p[i], p[j]));
}
static __global__ void k_part_check(int kernel, uint64_t w0, uint64_t nelem, uint32_t rho, uint32_t n,
                                    const float4 *__restrict__ p, uint64_t fill_words, const uint32_t *__restrict__ out,
                                    unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (uint64_t e = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; e < nelem; e += (uint64_t)gridDim.x * blockDim.x)
        mine += out[e] != part_expect(kernel, w0, e, rho, n, p, fill_words);
    if (mine) atomicAdd(bad, mine);
}

typedef struct {
    const dist_ctx *d;
    int backend, kernel, variant;
    uint32_t n, rho;     /* rho: the split's block side (TILE for coarse) */
    uint64_t w0, w1;     /* this rank's blocks */
    uint64_t fill_words; /* fill: words written (the rank's cells of the triangle, 16-byte multiple) */
    float4 *p;           /* points (device; CPU backend: host) */
    uint32_t *out;       /* the part, (w1 - w0) rho^2 words (device; CPU backend: host) */
    cudaStream_t st;
    cudaEvent_t e0, e1;
} part_run;

/* ---- CPU backend: the same per-thread functions, a block per loop iteration (OpenMP) ---- */
static void cpu_part(const part_run *r)
{
    long nb = (long)(r->w1 - r->w0);
    uint32_t rho = r->rho, n = r->n;
    if (r->kernel == K_FILL) {
#pragma omp parallel for schedule(static)
        for (long t = 0; t < (long)r->fill_words / 4; t++) ((uint4 *)r->out)[t] = make_uint4(FILL_VALUE, FILL_VALUE, FILL_VALUE, FILL_VALUE);
        return;
    }
#pragma omp parallel for schedule(static)
    for (long b = 0; b < nb; b++) {
        uint32_t bj, bi = tri_rowcol32((uint32_t)(r->w0 + b), &bj);
        uint32_t *blk = r->out + (size_t)b * rho * rho;
        if (r->variant == V_PLAIN) {
            for (uint32_t ty = 0; ty < rho; ty++)
                for (uint32_t tx = 0; tx < rho; tx++) plain_cell(r->kernel, bi, bj, rho, n, tx, ty, r->p, blk);
        } else {
            for (uint32_t ty = 0; ty < TILE_T; ty++)
                for (uint32_t tx = 0; tx < TILE_T; tx++)
                    coarse_cells(r->kernel, bi, bj, n, tx, ty, r->p + bi * TILE, r->p + bj * TILE, blk);
        }
    }
}
static void cpu_poison(uint32_t *out, uint64_t nwords)
{
#pragma omp parallel for schedule(static)
    for (long e = 0; e < (long)nwords; e++) out[e] = S2_POISON;
}
static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* The rank's blocks in launches of at most PART_CHUNK blocks (a 1D grid holds < 2^31); a
 * rank with no blocks (more ranks than blocks) launches nothing. */
static void part_launch(const part_run *r)
{
    if (r->backend == B_CPU) {
        cpu_part(r);
        return;
    }
    if (r->kernel == K_FILL) {
        if (r->fill_words) k_fill<<<GRID_STRIDE_BLOCKS(8), 256, 0, r->st>>>((uint4 *)r->out, r->fill_words / 4, FILL_VALUE);
        CHECK_CUDA_RANK(cudaGetLastError());
        return;
    }
    dim3 block(r->rho, r->rho);
    for (uint64_t w = r->w0; w < r->w1; w += PART_CHUNK) {
        unsigned nb = (unsigned)(r->w1 - w < PART_CHUNK ? r->w1 - w : PART_CHUNK);
        uint32_t *o = r->out + (size_t)(w - r->w0) * r->rho * r->rho;
        if (r->variant == V_COARSE && r->kernel == K_WRITE) k_part_coarse<K_WRITE><<<nb, dim3(TILE_T, TILE_T), 0, r->st>>>(w, r->n, r->p, o);
        if (r->variant == V_COARSE && r->kernel == K_EDM4D) k_part_coarse<K_EDM4D><<<nb, dim3(TILE_T, TILE_T), 0, r->st>>>(w, r->n, r->p, o);
        if (r->variant == V_PLAIN && r->kernel == K_WRITE) k_part_plain<K_WRITE><<<nb, block, 0, r->st>>>(w, r->rho, r->n, r->p, o);
        if (r->variant == V_PLAIN && r->kernel == K_EDM4D) k_part_plain<K_EDM4D><<<nb, block, 0, r->st>>>(w, r->rho, r->n, r->p, o);
        CHECK_CUDA_RANK(cudaGetLastError());
    }
}

/* One run of the rank's work, synchronized: its own time in ms (CUDA events; CPU: the clock). */
static double part_once(const part_run *r)
{
    if (r->backend == B_CPU) {
        double t0 = now_ms();
        cpu_part(r);
        return now_ms() - t0;
    }
    float ms = 0;
    CHECK_CUDA_RANK(cudaEventRecord(r->e0, r->st));
    part_launch(r);
    CHECK_CUDA_RANK(cudaEventRecord(r->e1, r->st));
    CHECK_CUDA_RANK(cudaStreamSynchronize(r->st));
    CHECK_CUDA_RANK(cudaEventElapsedTime(&ms, r->e0, r->e1));
    return ms;
}

/* Cells of the triangle (strict: j < i) in the blocks [w0, w1) of side rho: whole block rows
 * with a partial row at each end; off the diagonal a block holds min(rho, n - bi rho) full
 * rows, the diagonal block a small triangle. */
static uint64_t part_cells(uint64_t w0, uint64_t w1, uint32_t rho, uint32_t n, int strict)
{
    uint64_t cells = 0;
    for (uint64_t w = w0; w < w1;) {
        uint64_t bi = tri_row_exact(w), row0 = tri_number(bi), end = row0 + bi + 1 < w1 ? row0 + bi + 1 : w1;
        uint64_t h = n - bi * rho < rho ? n - bi * rho : rho, offdiag = (end < row0 + bi + 1 ? end : row0 + bi) - w;
        cells += offdiag * h * rho;
        if (end == row0 + bi + 1) cells += strict ? h * (h - 1) / 2 : h * (h + 1) / 2;
        w = end;
    }
    return cells;
}

/* Verification of the rank's part after one poisoned run: the number of wrong words. */
static unsigned long long part_verify(const part_run *r, const float4 *h_p, uint32_t full_max, uint64_t seed)
{
    uint64_t per = (uint64_t)r->rho * r->rho, nblk = r->w1 - r->w0, nelem = nblk * per;
    if (r->backend == B_CPU) { /* every element, as the device check does on the GPU */
        unsigned long long bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
        for (long e = 0; e < (long)nelem; e++) bad += r->out[e] != part_expect(r->kernel, r->w0, e, r->rho, r->n, h_p, r->fill_words);
        for (uint64_t e = 0, shown = 0; bad && e < nelem && shown < 5; e++) {
            uint32_t want = part_expect(r->kernel, r->w0, e, r->rho, r->n, h_p, r->fill_words);
            if (r->out[e] != want && ++shown)
                fprintf(stderr, "rank %d: %s: block %llu element %llu: got 0x%08x want 0x%08x\n", r->d->rank,
                        KERNEL_NAMES[r->kernel], (unsigned long long)(r->w0 + e / per), (unsigned long long)(e % per),
                        r->out[e], want);
        }
        return bad;
    }
    unsigned long long *d_bad, bad = 0;
    CHECK_CUDA_RANK(cudaMalloc(&d_bad, sizeof *d_bad));
    CHECK_CUDA_RANK(cudaMemset(d_bad, 0, sizeof *d_bad));
    k_part_check<<<GRID_STRIDE_BLOCKS(8), 256>>>(r->kernel, r->w0, nelem, r->rho, r->n, r->p, r->fill_words, r->out, d_bad);
    CHECK_CUDA_RANK(cudaGetLastError());
    CHECK_CUDA_RANK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
    CHECK_CUDA_RANK(cudaFree(d_bad));
    if (bad) fprintf(stderr, "rank %d: device check: %llu wrong words\n", r->d->rank, bad);
    /* host: every block (n <= full_max) or a sample: the first, the last, and random ones */
    uint64_t ns = r->n <= full_max ? nblk : (nblk < SAMPLE_BLOCKS ? nblk : SAMPLE_BLOCKS);
    uint32_t *h = (uint32_t *)malloc(sizeof(uint32_t) * per);
    uint64_t st = seed * 0x9E3779B97F4A7C15ull + (uint64_t)r->d->rank;
    unsigned long long hbad = 0;
    for (uint64_t s = 0; s < ns && h; s++) {
        uint64_t b = ns == nblk ? s : s == 0 ? 0 : s == 1 ? nblk - 1 : rng_splitmix64(&st) % nblk;
        CHECK_CUDA_RANK(cudaMemcpy(h, r->out + b * per, sizeof(uint32_t) * per, cudaMemcpyDeviceToHost));
        for (uint64_t t = 0; t < per; t++) {
            uint32_t want = part_expect(r->kernel, r->w0, b * per + t, r->rho, r->n, h_p, r->fill_words);
            if (h[t] != want && hbad++ < 5)
                fprintf(stderr, "rank %d: %s: block %llu element %llu: got 0x%08x want 0x%08x\n", r->d->rank,
                        KERNEL_NAMES[r->kernel], (unsigned long long)(r->w0 + b), (unsigned long long)t, h[t], want);
        }
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

typedef struct {
    const char *kernel, *variant, *backend;
    int rho, full_max;
    common_opts co;
} lm_opts;

/* Poison, one verified run, warm-up, timed runs; rank 0 writes the row.  *fill_gbs_rank: the
 * fill's GB/s per working rank (set by the fill, read by the kernels for pct_of_fill). */
static void run_one(part_run *r, const lm_opts *o, const float4 *h_p, uint64_t T, datfile *df, double *fill_gbs_rank)
{
    const dist_ctx *d = r->d;
    const common_opts *co = &o->co;
    uint64_t nblk = r->w1 - r->w0, words = nblk * r->rho * r->rho;
    const char *kname = KERNEL_NAMES[r->kernel], *vname = r->kernel == K_FILL ? "linear" : VARIANT_NAMES[r->variant];
    if (r->backend == B_CPU) cpu_poison(r->out, words); /* every word S2_POISON */
    else k_part_poison<<<GRID_STRIDE_BLOCKS(8), 256, 0, r->st>>>(r->out, words);
    if (r->backend == B_GPU) CHECK_CUDA_RANK(cudaGetLastError());
    part_once(r);
    unsigned long long bad = part_verify(r, h_p, (uint32_t)o->full_max, (uint64_t)co->seed);
    dist_agree(d, bad ? 1 : 0, "rank %d: %s (%s) at n = %u: %llu wrong words: verification failed, no data written", d->rank,
               kname, vname, r->n, bad);
    for (int w = 0; w < co->warmup; w++) part_launch(r);
    if (r->backend == B_GPU) CHECK_CUDA_RANK(cudaStreamSynchronize(r->st));
    double *tot = (double *)malloc(sizeof(double) * 2 * co->reps), *own = tot + co->reps;
    dist_agree(d, tot ? 0 : 1, "rank %d: out of host memory", d->rank);
    for (int rep = 0; rep < co->reps; rep++) {
        double t0 = dist_time_begin();
        own[rep] = part_once(r);
        tot[rep] = dist_time_end(t0);
    }
    bench_stats ts = bench_stats_of(tot, co->reps);
    int idle = nblk == 0, nidle = 0;
    double me = bench_stats_of(own, co->reps).median, lo = 0, hi = 0;
    double me_lo = idle ? 1e300 : me, me_hi = idle ? 0 : me; /* idle ranks: not in the min / max */
    unsigned long long bmine[2] = {nblk, ~nblk}, bext[2] = {0, 0}, bytes_me, bytes = 0;
    bytes_me = 4 * (r->kernel == K_FILL ? r->fill_words : part_cells(r->w0, r->w1, r->rho, r->n, r->kernel == K_EDM4D));
    CHECK_MPI(MPI_Reduce(&me_lo, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Reduce(&me_hi, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Reduce(bmine, bext, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD)); /* max of blocks, of ~blocks */
    CHECK_MPI(MPI_Reduce(&idle, &nidle, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&bytes_me, &bytes, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
    unsigned long long want = 4 * (r->kernel == K_EDM4D ? tri_number(r->n - 1) : tri_number(r->n)); /* the ranks' cells add up */
    dist_agree(d, r->kernel != K_FILL && bytes != want ? 1 : 0, "%s at n = %u: the ranks' parts hold %llu bytes of the triangle, "
               "want %llu (part_cells)", kname, r->n, bytes, want);
    free(tot);
    if (d->rank != 0) return;
    unsigned long long bmax = bext[0], bmin = ~bext[1];
    double gbs = bytes / (ts.median * 1e6), gbs_rank = gbs / (d->size - nidle);
    if (r->kernel == K_FILL) *fill_gbs_rank = gbs_rank;
    double pct = *fill_gbs_rank > 0 ? 100 * gbs_rank / *fill_gbs_rank : NAN; /* nan: nothing to fill (n < 3) */
    datfile_row(df, "%s %s %u %u %d %d %llu %llu %llu %.3f %.4f %.4f %.4f %.4f %.4f %.4f %.1f %.1f %.1f %d", kname, vname, r->n,
                r->rho, d->size, nidle, (unsigned long long)T, bmin, bmax, bmax * r->rho * r->rho * 4.0 / 1073741824.0,
                ts.median, ts.min, ts.max, lo, hi, hi / lo, gbs, gbs_rank, pct, co->reps);
    if (bench_warn_spread(kname, ts))
        datfile_meta(df, "warning", "spread %.0f%% (%s %s n = %u)", 100 * bench_spread(ts), kname, vname, r->n);
    fprintf(stderr, "%-5s %-6s n = %u on %d rank(s) (%d idle): %.3f ms (ranks %.3f .. %.3f ms, balance %.3f), %.0f GB/s per rank = %.0f%% of fill\n",
            kname, vname, r->n, d->size, nidle, ts.median, lo, hi, hi / lo, gbs_rank, pct);
}

/* One size: the points, the fill, then every (kernel, variant) asked for. */
static void run_size(const dist_ctx *d, const lm_opts *o, int backend, uint32_t n, datfile *df, cudaStream_t st,
                     cudaEvent_t e0, cudaEvent_t e1)
{
    float4 *h_p = (float4 *)malloc(sizeof(float4) * n);
    dist_agree(d, h_p ? 0 : 1, "rank %d: out of host memory", d->rank);
    uint64_t s = (uint64_t)o->co.seed * 0xD1B54A32D192ED03ull + n;
    for (uint32_t i = 0; i < n; i++)
        h_p[i] = make_float4((float)rng_unit(&s), (float)rng_unit(&s), (float)rng_unit(&s), (float)rng_unit(&s));
    int vlo = !strcmp(o->variant, "coarse") ? V_COARSE : V_PLAIN, vhi = !strcmp(o->variant, "plain") ? V_PLAIN : V_COARSE;
    part_run r[2];
    size_t bytes[2], most = 0, free_b = 0, total_b = 0;
    for (int v = vlo; v <= vhi; v++) {
        part_run *x = &r[v];
        memset(x, 0, sizeof *x);
        x->d = d; x->backend = backend; x->n = n; x->variant = v; x->st = st; x->e0 = e0; x->e1 = e1;
        x->rho = v == V_COARSE ? TILE : (uint32_t)o->rho;
        s2_split_range(s2_split_blocks(n, x->rho), d->size, d->rank, &x->w0, &x->w1);
        bytes[v] = (size_t)(x->w1 - x->w0) * x->rho * x->rho * 4;
        if (bytes[v] > most) most = bytes[v];
    }
    if (backend == B_GPU) {
        CHECK_CUDA_RANK(cudaMemGetInfo(&free_b, &total_b));
    } else { /* half the node's memory, shared by its ranks */
        long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
        free_b = pages > 0 && psz > 0 ? (size_t)pages * (size_t)psz / 2 / (size_t)d->local_size : (size_t)1 << 30;
    }
    int fits = most + sizeof(float4) * (size_t)n + ((size_t)512 << 20) <= free_b, all_fit = 0;
    CHECK_MPI(MPI_Allreduce(&fits, &all_fit, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    if (!all_fit) {
        if (d->rank == 0) {
            const char *where = backend == B_GPU ? "GPU(s)" : "ranks' share of host memory";
            fprintf(stderr, "n = %u: %.1f GiB per rank does not fit on %d %s: skipped\n", n, most / 1073741824.0, d->size, where);
            datfile_meta(df, "skipped", "n = %u: its part (%.1f GiB per rank) does not fit on %d %s", n, most / 1073741824.0,
                         d->size, where);
        }
        free(h_p);
        return;
    }
    float4 *d_p = h_p; /* CPU: the host points and a host part */
    uint32_t *d_out;
    if (backend == B_GPU) {
        CHECK_CUDA_RANK(cudaMalloc(&d_p, sizeof(float4) * n));
        CHECK_CUDA_RANK(cudaMalloc(&d_out, most ? most : 16)); /* an idle rank's part is empty */
        CHECK_CUDA_RANK(cudaMemcpy(d_p, h_p, sizeof(float4) * n, cudaMemcpyHostToDevice));
    } else {
        d_out = (uint32_t *)aligned_alloc(16, most ? (most + 15) / 16 * 16 : 16);
        dist_agree(d, d_out ? 0 : 1, "rank %d: cannot allocate %.1f GiB of host memory for its part", d->rank, most / 1073741824.0);
    }
    double fill_gbs_rank = 0;
    part_run f = r[vhi]; /* the fill: this rank's cells of the triangle, as one linear 16-byte store stream */
    f.kernel = K_FILL; f.p = d_p; f.out = d_out;
    f.fill_words = part_cells(f.w0, f.w1, f.rho, n, 0) / 4 * 4;
    run_one(&f, o, h_p, s2_split_blocks(n, f.rho), df, &fill_gbs_rank);
    for (int kern = K_WRITE; kern <= K_EDM4D; kern++) {
        if (strcmp(o->kernel, "both") && strcmp(o->kernel, KERNEL_NAMES[kern])) continue;
        for (int v = vhi; v >= vlo; v--) { /* coarse first */
            r[v].kernel = kern; r[v].p = d_p; r[v].out = d_out;
            run_one(&r[v], o, h_p, s2_split_blocks(n, r[v].rho), df, &fill_gbs_rank);
        }
    }
    if (backend == B_GPU) {
        CHECK_CUDA_RANK(cudaFree(d_p));
        CHECK_CUDA_RANK(cudaFree(d_out));
    } else {
        free(d_out);
    }
    free(h_p);
}

/* The .dat file of rank 0: refused on every rank (exit 2, before any work) when an existing file
 * cannot be replaced; then its metadata and columns. */
static void open_dat(dist_ctx *d, const lm_opts *o, int backend, int argc, char **argv, const char *gpus, datfile *df)
{
    char name[64];
    snprintf(name, sizeof name, "simplex2d_dist_lambda_%sp%d.dat", backend == B_CPU ? "cpu_" : "", d->size);
    char why[1200] = ""; /* an existing .dat that cannot be replaced: exit 2 on every rank, before any work */
    dist_agree(d, d->rank == 0 ? datfile_check_target(o->co.out, name, why, sizeof why) : 0, "%s", why);
    if (d->rank == 0) {
        dat_meta meta = dat_meta_of("simplex2d/lambda-mpi", "lambda split across GPUs (beyond the paper)", argc, argv, gpus, &o->co);
        datfile_open(df, o->co.out, name, &meta);
        datfile_meta(df, "map", "lambda-exact, one block per omega, 1D grid; rank r: omega in [r T/P, (r+1) T/P)");
        datfile_meta(df, "backend", "%s", backend == B_GPU ? "gpu (one GPU per rank)" : "cpu (OpenMP threads per rank; the "
                                                                                      "GPU's per-thread functions, a block per iteration)");
        datfile_meta(df, "variants", "coarse: 32 x 32 tiles (rho = 32) of 8 x 8 threads, 16-byte stores; plain: rho x rho "
                                      "threads, one cell each; fill (linear): each rank's cells of the triangle as one "
                                      "16-byte store stream (the write rate its GPU reaches)");
        datfile_meta(df, "rank_time", "rank_min_ms, rank_max_ms: fastest and slowest rank's own kernel time (median, CUDA "
                                       "events; CPU: the clock) over the ranks with work; balance_x = rank_max_ms / rank_min_ms");
        datfile_meta(df, "rates", "gbs: bytes of the triangle (4 per cell) / total_ms; gbs_per_rank = gbs / ranks with "
                                   "work; pct_of_fill = gbs_per_rank / the fill row's gbs_per_rank");
        datfile_columns(df, "kernel variant n rho ranks ranks_idle blocks_total blocks_min blocks_max part_gib_max total_ms "
                             "total_min_ms total_max_ms rank_min_ms rank_max_ms balance_x gbs gbs_per_rank pct_of_fill reps");
    }
}

int main(int argc, char **argv)
{
    const char *sizes = "";
    lm_opts o = {"both", "coarse", "cpu", 16, 4096, common_opts_default()};
    common_opts *co = &o.co;
    arg_opt opts[] = {
        {"sizes", ARG_STR, &sizes, "comma-separated n (side of the triangle), each in [2, 2^20] (default: GPU 65536,131072,"
         "262144,300000; CPU 1000,4096,16384)", 0, 0, NULL},
        {"backend", ARG_CHOICE, &o.backend, "cpu: OpenMP threads per rank, no GPU; gpu: one GPU per rank (the measurements: "
         "make run-mpi)", 0, 0, "cpu gpu"},
        {"kernel", ARG_CHOICE, &o.kernel, "kernels to run", 0, 0, "both write edm4d"},
        {"variant", ARG_CHOICE, &o.variant, "coarse: 32 x 32 tiles, 8 x 8 threads, 16-byte stores; plain: a thread per cell", 0,
         0, "coarse plain both"},
        {"rho", ARG_INT, &o.rho, "block side rho of the plain variant: 1 2 4 8 16 32, as simplex2d (rho x rho threads; coarse: 32)", 1, 32, ARG_POW2},
        {"full-max", ARG_INT, &o.full_max, "largest n whose parts are compared on the host in full", 0, 1 << 20, NULL},
        {"warmup", ARG_INT, &co->warmup, "untimed runs (-1: 3, QUICK 1)", -1, 1000, NULL},
        {"reps", ARG_INT, &co->reps, "timed runs, median reported (-1: 10, QUICK 3)", -1, 10000, NULL},
        {"quick", ARG_FLAG, &co->quick, "fewer reps", 0, 0, NULL},
        {"seed", ARG_LONG, &co->seed, "seed of the points", 0, 9.0e18, NULL},
        {"out", ARG_STR, &co->out, "directory for the .dat file", 0, 0, NULL},
    };
    dist_args_parse(argc, argv, opts, ARGS_COUNT(opts),
                    "lambda-mpi [--sizes=N,N,...] [--kernel=both] [--variant=coarse]   (under mpirun -np P)",
                    "EDM 4D and write kernels on a triangle split across GPUs by lambda-exact block ranges.");
    dist_opts_finish(co);
    int backend = !strcmp(o.backend, "cpu") ? B_CPU : B_GPU;
    if (!*sizes) sizes = backend == B_CPU ? "1000,4096,16384" : "65536,131072,262144,300000";
    dist_ctx d;
    dist_init(&argc, &argv, &d);
    uint32_t nv[MAX_SIZES];
    int ns = parse_sizes(sizes, nv);
    dist_agree(&d, ns < 1 ? 2 : 0, "--sizes=%s: want up to %d comma-separated integers in [2, 1048576]", sizes, MAX_SIZES);
    /* more ranks than blocks is allowed: a rank with an empty range computes nothing, takes
     * part in every collective and reports 0 blocks (the ranks_idle column) */
    for (int k = 0; k < ns; k++)
        dist_agree(&d, strcmp(o.variant, "coarse") && s2_split_blocks(nv[k], o.rho) > OMEGA_LIMIT ? 2 : 0,
                   "n = %u at rho = %d has %llu blocks: lambda-exact numbers at most 2^32 (use a larger --rho)", nv[k],
                   o.rho, (unsigned long long)s2_split_blocks(nv[k], o.rho));
    char mine[DIST_DESC_LEN], gpus[2048];
    if (backend == B_GPU) {
        dist_use_gpu(&d);
        device_describe(d.gpu, mine, sizeof mine);
        dist_describe_all(&d, mine, gpus, sizeof gpus);
    } else {
        int t = omp_get_max_threads(), tmin = 0, tmax = 0;
        CHECK_MPI(MPI_Reduce(&t, &tmin, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Reduce(&t, &tmax, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD));
        if (tmin == tmax) snprintf(gpus, sizeof gpus, "none (host only: %d ranks x %d OpenMP threads)", d.size, tmin);
        else snprintf(gpus, sizeof gpus, "none (host only: %d ranks x %d..%d OpenMP threads)", d.size, tmin, tmax);
    }
    datfile df;
    open_dat(&d, &o, backend, argc, argv, gpus, &df);
    cudaStream_t st = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    if (backend == B_GPU) {
        CHECK_CUDA_RANK(cudaStreamCreate(&st));
        CHECK_CUDA_RANK(cudaEventCreate(&e0));
        CHECK_CUDA_RANK(cudaEventCreate(&e1));
    }
    for (int k = 0; k < ns; k++) run_size(&d, &o, backend, nv[k], &df, st, e0, e1);
    if (d.rank == 0) datfile_commit(&df);
    dist_exit(0);
}
