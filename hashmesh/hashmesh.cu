/* hashmesh.cu -- the experiments of Robey, Nicholaeff, Robey, "Hash-based algorithms for
 * discretized data" (LANL): Fig. 3.3-3.7, 3.9-3.11 and Tables 4.1, 4.2, on one GPU and the
 * host CPU of the same machine.
 *
 *   ./hashmesh --exp=fig3_3 [--quick] [--out=results]     one experiment -> one .dat file
 *
 * Every size of every experiment: inputs from --seed (gen.h) -> the CPU hash result as the
 * reference -> each other method run once and compared (sorts and neighbours: exact index
 * equality; remaps: within 1e-10 relative, totals conserved; table: within 1e-10 of the
 * bisection result) -> timing (bench.h).  A failed check: message, exit 1, no data file.
 * CPU codes are serial (as the paper's CPU reference codes); the GPU codes time only the
 * device work on device-resident inputs (no transfers); tables and scratch are allocated
 * outside the timed region, clearing the table is inside it. */
#include <cub/device/device_radix_sort.cuh>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/verify.h"
#include "gen.h"
#include "hash.h"
#include "baseline.h"
#include "best.h"
#include "compact.h"
#include "kernels.cuh"

/* ---------------- configuration ---------------- */
typedef struct {
    common_opts c;
    int max_log2, cpu_max, kd_max, brute_max, tab_log2, levmax;
    double frac;
    /* issue 12 (best baselines): best = 1 adds the baselines a user would pick (best.h) and
     * the GPU job rows (transfers included) to every measure_*; threads: OpenMP threads of
     * the *_omp rows; flush_l2: every GPU sample runs after `flush` (2x L2) was overwritten */
    int best, threads, flush_l2, corner_side, corner_radius, lev_max;
    double triad1, triadn, perfect_max_gib, load;
    void *flush;
    size_t flush_bytes;
    char gpu[256];
    char cpu[256]; /* host CPU model (/proc/cpuinfo), for the `# cpu:` metadata line */
    int argc;
    char **argv;
    cudaStream_t s;
    size_t l2;
} cfg;

enum { M_MAX = 24 };
typedef struct { /* medians (ms) of one measurement point, by method name; < 0: not run */
    const char *name[M_MAX];
    double ms[M_MAX];
    int k;
    const char *alg; /* non-NULL: every data row starts with this algorithm name (tab4_1_best) */
    long m; /* 1D sorts: the hash table size m of Listing 1, line 2 */
    int end_bit; /* 1D sorts: bits of the radix32 key */
} results;
static void res_put(results *r, const char *name, double ms)
{
    if (!r || r->k >= M_MAX) return;
    r->name[r->k] = name;
    r->ms[r->k++] = ms;
}
static double res_get(const results *r, const char *name)
{
    for (int k = 0; k < r->k; k++)
        if (!strcmp(r->name[k], name)) return r->ms[k];
    return -1;
}

/* The host CPU's model name (the CPU columns of every figure and Table 4.1 depend on it). */
static void host_cpu_name(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) || !colon) continue;
        colon++;
        while (*colon == ' ' || *colon == '\t') colon++;
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(buf, size, "%s", colon);
        break;
    }
    fclose(f);
}

/* A failure: the open data file (if any) is discarded, exit 1. */
#define FAIL(d, ...)                            \
    do {                                        \
        if (d) datfile_discard(d);              \
        DIE(__VA_ARGS__);                       \
    } while (0)

static int within(long n, int cap_log2) { return n <= (long)(1.1 * (double)(1L << cap_log2)); }

/* CPU timing: the first run is a warm-up that also sizes the measurement (slow baselines
 * get fewer samples so the whole sweep stays within minutes; the reps column says so). */
static bench_stats time_host(bench_host_fn fn, void *ctx, const cfg *r)
{
    double t0 = bench_now_ms();
    fn(ctx);
    double t = bench_now_ms() - t0;
    int reps = r->c.reps, warm = r->c.warmup > 0 ? r->c.warmup - 1 : 0;
    if (t > 250) { reps = reps < 3 ? reps : 3; warm = 0; } /* >= 3 samples at every size (issue 12) */
    else if (t > 40) { reps = reps < 5 ? reps : 5; warm = 0; }
    return bench_host(fn, ctx, warm, reps, r->c.batch ? r->c.batch : (t < 1.0 ? 0 : 1));
}
/* --flush-l2 (cold cache): every sample is ONE run, after r->flush (2x the L2 size) was
 * overwritten on the same stream outside the event pair, so no input or table line is still
 * in L2 from the previous run. */
static bench_stats time_gpu_cold(bench_gpu_fn fn, void *ctx, const cfg *r)
{
    cudaEvent_t a, b;
    CHECK_CUDA(cudaEventCreate(&a));
    CHECK_CUDA(cudaEventCreate(&b));
    int reps = r->c.reps > 0 ? r->c.reps : 1;
    double *ms = (double *)gen_alloc(sizeof(double) * (size_t)reps);
    for (int k = -r->c.warmup; k < reps; k++) {
        CHECK_CUDA(cudaMemsetAsync(r->flush, k & 0xFF, r->flush_bytes, r->s));
        CHECK_CUDA(cudaEventRecord(a, r->s));
        fn(ctx, r->s);
        CHECK_CUDA(cudaEventRecord(b, r->s));
        CHECK_CUDA(cudaEventSynchronize(b));
        float t;
        CHECK_CUDA(cudaEventElapsedTime(&t, a, b));
        if (k >= 0) ms[k] = t;
    }
    bench_stats st = bench_stats_of(ms, reps);
    st.batch = 1;
    free(ms);
    CHECK_CUDA(cudaEventDestroy(a));
    CHECK_CUDA(cudaEventDestroy(b));
    return st;
}
static bench_stats time_gpu(bench_gpu_fn fn, void *ctx, const cfg *r)
{
    if (r->flush_l2) return time_gpu_cold(fn, ctx, r);
    return bench_gpu(fn, ctx, r->s, r->c.warmup, r->c.reps, r->c.batch);
}

/* ---- the GPU "job" (issue 12): host inputs -> device, the pipeline, outputs -> host ----
 * Pinned host copies (cudaMallocHost, made outside the timed region), so the transfers run at
 * the PCIe/NVLink-C2C rate a user with pinned buffers gets.  The job is run once first and its
 * outputs compared bitwise with the pipeline's verified result. */
enum { JOB_MAX = 10 };
typedef struct {
    int nin, nout;
    void *hin[JOB_MAX], *din[JOB_MAX], *hout[JOB_MAX], *dout[JOB_MAX];
    const void *want[JOB_MAX];
    size_t bin[JOB_MAX], bout[JOB_MAX];
    bench_gpu_fn fn;
    void *ctx;
} job_ctx;
static void job_init(job_ctx *j, bench_gpu_fn fn, void *ctx)
{
    memset(j, 0, sizeof *j);
    j->fn = fn;
    j->ctx = ctx;
}
static void job_in(job_ctx *j, const void *host, const void *dev, size_t bytes)
{
    if (j->nin >= JOB_MAX) DIE("job_in: more than %d inputs", JOB_MAX);
    CHECK_CUDA(cudaMallocHost(&j->hin[j->nin], bytes ? bytes : 1));
    memcpy(j->hin[j->nin], host, bytes);
    j->din[j->nin] = (void *)dev;
    j->bin[j->nin++] = bytes;
}
/* want: the host copy of the verified result the job's output must equal bitwise */
static void job_out(job_ctx *j, const void *dev, size_t bytes, const void *want)
{
    if (j->nout >= JOB_MAX) DIE("job_out: more than %d outputs", JOB_MAX);
    CHECK_CUDA(cudaMallocHost(&j->hout[j->nout], bytes ? bytes : 1));
    j->dout[j->nout] = (void *)dev;
    j->want[j->nout] = want;
    j->bout[j->nout++] = bytes;
}
static void gpu_job(void *p, cudaStream_t s)
{
    job_ctx *j = (job_ctx *)p;
    for (int k = 0; k < j->nin; k++) CHECK_CUDA(cudaMemcpyAsync(j->din[k], j->hin[k], j->bin[k], cudaMemcpyHostToDevice, s));
    j->fn(j->ctx, s);
    for (int k = 0; k < j->nout; k++)
        CHECK_CUDA(cudaMemcpyAsync(j->hout[k], j->dout[k], j->bout[k], cudaMemcpyDeviceToHost, s));
}
/* verify (poisoned outputs, bitwise), then time; frees the pinned buffers */
static bench_stats job_measure(job_ctx *j, const cfg *r, const char *what)
{
    for (int k = 0; k < j->nout; k++) memset(j->hout[k], 0xAB, j->bout[k]);
    gpu_job(j, r->s);
    CHECK_CUDA(cudaStreamSynchronize(r->s));
    for (int k = 0; k < j->nout; k++)
        if (memcmp(j->hout[k], j->want[k], j->bout[k])) DIE("%s: the GPU job's output %d differs from the pipeline's", what, k);
    bench_stats st = time_gpu(gpu_job, j, r);
    for (int k = 0; k < j->nin; k++) CHECK_CUDA(cudaFreeHost(j->hin[k]));
    for (int k = 0; k < j->nout; k++) CHECK_CUDA(cudaFreeHost(j->hout[k]));
    return st;
}

/* one untimed run of fn for verification: its output d_out (bytes) poisoned with the byte
 * poison first (0xAB ints, 0xFF NaN doubles), then run on r->s and copied back to h_out */
static void gpu_run_once(bench_gpu_fn fn, void *ctx, const cfg *r, void *d_out, void *h_out, size_t bytes, int poison)
{
    CHECK_CUDA(cudaMemset(d_out, poison, bytes));
    fn(ctx, r->s);
    CHECK_CUDA(cudaStreamSynchronize(r->s));
    CHECK_CUDA(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
}
static void put_row(datfile *d, long n, double param, const char *method, bench_stats st, results *res)
{
    res_put(res, method, st.median);
    fprintf(stderr, "  n %9ld  param %-6g %-11s %10.4f ms  [%.4f, %.4f]  reps %d batch %d\n", n, param, method, st.median,
            st.min, st.max, st.n, st.batch);
    if (!d) return;
    if (bench_warn_spread(method, st))
        datfile_meta(d, "warning", "spread %.0f%% for %s at n=%ld", 100 * bench_spread(st), method, n);
    if (res && res->alg)
        datfile_row(d, "%s %ld %.10g %s %.6f %.6f %.6f %d %d %.3f", res->alg, n, param, method, st.median, st.min, st.max,
                    st.n, st.batch, n / (st.median * 1e-3) / 1e6);
    else
        datfile_row(d, "%ld %.10g %s %.6f %.6f %.6f %d %d %.3f", n, param, method, st.median, st.min, st.max, st.n,
                    st.batch, n / (st.median * 1e-3) / 1e6);
}

/* The host's own memory ceiling, measured once at start-up, on a `# host_triad:` line. */
static void meta_triad(datfile *d, const cfg *r)
{
    datfile_meta(d, "host_triad", "%.2f GB/s one thread, %.2f GB/s %d threads (STREAM-like triad, common/host.h: the "
                 "host's own memory ceiling)", r->triad1, r->triadn, r->threads);
}

static datfile *open_dat(datfile *d, const cfg *r, const char *name, const char *figure, const char *param_meaning)
{
    dat_meta m = dat_meta_of("hashmesh/hashmesh", figure, r->argc, r->argv, r->gpu, &r->c);
    datfile_open(d, r->c.out, name, &m);
    datfile_meta(d, "cpu", "serial C on one core of the GPU host (%s), gcc via nvcc -O3; *_omp rows: %d OpenMP threads",
                 r->cpu, r->threads);
    meta_triad(d, r);
    if (r->flush_l2) datfile_meta(d, "flush_l2", "1: every GPU sample is one cold run after %zu bytes were overwritten", r->flush_bytes);
    datfile_meta(d, "param", "%s", param_meaning);
    datfile_meta(d, "columns", "median/min/max_ms: time per run; reps: samples; mitems_s: n / median (million/s)");
    datfile_columns(d, "n param method median_ms min_ms max_ms reps batch mitems_s");
    return d;
}

static void *dev_alloc(size_t bytes, const char *what) { return device_alloc_or_usage(bytes, what); }
static void *dev_dup(const void *h, size_t bytes, const char *what)
{
    void *p = dev_alloc(bytes, what);
    CHECK_CUDA(cudaMemcpy(p, h, bytes, cudaMemcpyHostToDevice));
    return p;
}
static void *host_alloc(size_t bytes) { return gen_alloc(bytes); }

static void check_index_range(long n, long m, const char *what)
{
    if (n >= 2147483647L || m >= 2147483647L)
        DIE_USAGE("%s: %ld items / %ld hash buckets overflow the 32-bit indices (limit 2^31 - 1)", what, n, m);
}

/* ================= 1D sort (Fig. 3.3, 3.4, Tables 4.1, 4.2) ================= */
typedef struct {
    const keys1d *k;
    int *t, *idx, *left, *right;
    double *sorted;
    qs_pair *buf;
    kd1 *kd;
} h1_ctx;
static void h_hash_sort1d(void *p)
{
    h1_ctx *c = (h1_ctx *)p;
    hash_sort1d_cpu(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->t, c->k->m, c->idx, c->sorted);
}
static void h_qsort1d(void *p)
{
    h1_ctx *c = (h1_ctx *)p;
    qsort_sort1d(c->k->x, c->k->n, c->buf, c->idx);
}
static void h_hash_neigh1d(void *p)
{
    h1_ctx *c = (h1_ctx *)p;
    hash_neigh1d_cpu(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->t, c->k->m, c->left, c->right);
}
static void h_kd_neigh1d(void *p)
{
    h1_ctx *c = (h1_ctx *)p;
    kd1_neigh1d(c->kd, c->k->x, c->k->n, c->left, c->right);
}
static void h_brute_neigh1d(void *p)
{
    h1_ctx *c = (h1_ctx *)p;
    brute_neigh1d(c->k->x, c->k->n, c->left, c->right);
}

typedef struct {
    const double *kin;
    double *kout;
    const int *vin;
    int *vout;
    int n;
    void *tmp;
    size_t bytes;
} radix_ctx;
/* CUB DeviceRadixSort (replaces the paper's CUDPP radix sort): keys with their indices */
static void gpu_radix_sort(void *p, cudaStream_t s)
{
    radix_ctx *c = (radix_ctx *)p;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(c->tmp, c->bytes, c->kin, c->kout, c->vin, c->vout, c->n, 0, 64, s));
}

/* the 64-bit CUB radix of the n device keys d_x (the caller keeps them) with the values
 * 0..n-1, built through the host scratch h_tmp (n ints, overwritten) */
static void radix_ctx_make(radix_ctx *rc, const double *d_x, long n, int *h_tmp, cudaStream_t s)
{
    rc->n = (int)n;
    rc->kin = d_x;
    rc->kout = (double *)dev_alloc(sizeof(double) * n, "radix keys out");
    for (long i = 0; i < n; i++) h_tmp[i] = (int)i;
    rc->vin = (const int *)dev_dup(h_tmp, sizeof(int) * n, "radix values");
    rc->vout = (int *)dev_alloc(sizeof(int) * n, "radix values out");
    rc->bytes = 0;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(NULL, rc->bytes, rc->kin, rc->kout, rc->vin, rc->vout, rc->n, 0, 64, s));
    rc->tmp = dev_alloc(rc->bytes, "radix scratch");
}
static void radix_ctx_free(radix_ctx *rc)
{
    CHECK_CUDA(cudaFree(rc->kout)); CHECK_CUDA(cudaFree((void *)rc->vin)); CHECK_CUDA(cudaFree(rc->vout));
    CHECK_CUDA(cudaFree(rc->tmp));
}
/* CUB radix on the 32-bit bucket index of keys k (on the device at d_x, the caller keeps
 * them) over end_bit bits, key generation included */
static void radix32_ctx_make(gpu_radix32_ctx *q, const keys1d *k, const double *d_x, long n, int end_bit)
{
    q->x = d_x; q->n = (int)n; q->xmin = k->xmin; q->dmin = k->dmin; q->end_bit = end_bit;
    q->kin = (unsigned *)dev_alloc(sizeof(unsigned) * n, "radix32 keys");
    q->kout = (unsigned *)dev_alloc(sizeof(unsigned) * n, "radix32 keys out");
    q->vin = (int *)dev_alloc(sizeof(int) * n, "radix32 values");
    q->vout = (int *)dev_alloc(sizeof(int) * n, "radix32 values out");
    q->tmp_bytes = gpu_radix32_bytes((int)n, end_bit);
    q->tmp = dev_alloc(q->tmp_bytes, "radix32 scratch");
}
static void radix32_ctx_free(gpu_radix32_ctx *q)
{
    CHECK_CUDA(cudaFree(q->kin)); CHECK_CUDA(cudaFree(q->kout)); CHECK_CUDA(cudaFree(q->vin)); CHECK_CUDA(cudaFree(q->vout));
    CHECK_CUDA(cudaFree(q->tmp));
}
/* the GPU hash (Listing 1) of the n keys k, on the device at d_x: fields and the table */
static void hash1d_ctx_make(gpu_hash_ctx *g, const keys1d *k, long n, const double *d_x)
{
    memset(g, 0, sizeof *g);
    g->n = (int)n;
    g->m = k->m;
    g->xmin = k->xmin;
    g->dmin = k->dmin;
    g->x = d_x;
    g->t = (int *)dev_alloc(sizeof(int) * k->m, "1D hash table");
}
/* the sort's buffers (1D or 2D, from g->m and g->n): scan output, CUB scan scratch, indices */
static void hash_sort_bufs(gpu_hash_ctx *g)
{
    g->off = (int *)dev_alloc(sizeof(int) * (size_t)g->m, "scan output");
    g->tmp_bytes = hm_scan_bytes(g->m);
    g->tmp = dev_alloc(g->tmp_bytes, "scan scratch");
    g->idx = (int *)dev_alloc(sizeof(int) * (size_t)g->n, "sorted indices");
}
static void hash_sort_bufs_free(gpu_hash_ctx *g)
{
    CHECK_CUDA(cudaFree(g->off)); CHECK_CUDA(cudaFree(g->tmp)); CHECK_CUDA(cudaFree(g->idx));
}

/* ---- issue 12: the 1D sorts a user would pick (best.h), serial and on all cores ---- */
typedef struct {
    const keys1d *k;
    qs_pair *buf;
    uint32_t *key, *k2;
    int *idx, *i2, *t;
    long *hist, *cnt;
    double *sorted;
    int bits, threads;
    int *left, *right; /* radix-sorted 1D neighbours */
    kd1 *kd;
} bs_ctx;
static void h_introsort1d(void *p)
{
    bs_ctx *c = (bs_ctx *)p;
    introsort_sort1d(c->k->x, c->k->n, c->buf, c->idx);
}
/* key generation included: the keys are the doubles, the radix sort needs the bucket index */
static void h_radix1d(void *p)
{
    bs_ctx *c = (bs_ctx *)p;
    bucket_keys1d(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->key, c->idx, c->threads);
    radix_pairs(c->key, c->idx, c->k2, c->i2, c->k->n, c->bits, c->threads, c->hist);
}
static void h_hash_sort1d_omp(void *p)
{
    bs_ctx *c = (bs_ctx *)p;
    hash_sort1d_omp(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->t, c->k->m, c->idx, c->sorted, c->threads, c->cnt);
}
static void h_radix_neigh1d(void *p)
{
    bs_ctx *c = (bs_ctx *)p;
    radix_neigh1d(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->bits, c->key, c->idx, c->k2, c->i2, c->hist, c->left,
                  c->right, c->threads);
}
static void h_hash_neigh1d_omp(void *p)
{
    bs_ctx *c = (bs_ctx *)p;
    hash_neigh1d_omp(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->t, c->k->m, c->left, c->right, c->threads);
}
static void h_kd_neigh1d_omp(void *p)
{
    bs_ctx *c = (bs_ctx *)p;
    kd1_neigh1d_omp(c->kd, c->k->x, c->k->n, c->left, c->right, c->threads);
}
/* the thread counts of the best rows: 1 (serial), then all (r->threads) if more than one */
static int best_thread_counts(const cfg *r, int *th)
{
    th[0] = 1;
    th[1] = r->threads;
    return r->threads > 1 ? 2 : 1;
}
/* scratch of the radix baselines for n keys and `threads` histograms */
static void bs_alloc(bs_ctx *b, const keys1d *k, long n, int threads)
{
    memset(b, 0, sizeof *b);
    b->k = k;
    b->key = (uint32_t *)host_alloc(sizeof(uint32_t) * n);
    b->k2 = (uint32_t *)host_alloc(sizeof(uint32_t) * n);
    b->idx = (int *)host_alloc(sizeof(int) * n);
    b->i2 = (int *)host_alloc(sizeof(int) * n);
    b->hist = (long *)host_alloc(sizeof(long) * (size_t)threads << RADIX_MAX_DIGIT_BITS);
    b->cnt = (long *)host_alloc(sizeof(long) * (size_t)threads);
    b->threads = 1;
}
static void bs_free(bs_ctx *b)
{
    free(b->key); free(b->k2); free(b->idx); free(b->i2); free(b->hist); free(b->cnt);
}
static void check_ints(datfile *d, const int *got, const int *ref, long n, const char *what)
{
    if (verify_exact(got, ref, n, sizeof(int), what)) FAIL(d, "%s differs", what);
}

/* both 1D neighbour arrays against the reference, reported as "<what> left" / "<what> right" */
static void check_lr(datfile *d, const int *l, const int *lref, const int *rr, const int *rref, long n, const char *what,
                     const char *fail)
{
    char wl[64], wr[64];
    snprintf(wl, sizeof wl, "%s left", what);
    snprintf(wr, sizeof wr, "%s right", what);
    if (verify_exact(l, lref, n, sizeof(int), wl) + verify_exact(rr, rref, n, sizeof(int), wr)) FAIL(d, "%s", fail);
}

/* which: bit 1 the paper's CPU methods (qsort, hash_cpu), bit 2 the GPU methods (hash_gpu,
 * radix_gpu = 64-bit CUB radix), bit 4 the best CPU baselines (introsort, radix32_cpu serial
 * and _omp, hash_cpu, hash_cpu_omp), bit 8 the best GPU rows (radix32_gpu, hash_gpu_job) */
static void measure_sort1d(const cfg *r, long n, double ratio, datfile *d, double param, results *res, int which)
{
    keys1d k;
    keys1d_generate(&k, n, 2.0, 2.0 * ratio, r->c.seed + (uint64_t)n * 31 + (uint64_t)(ratio * 8));
    check_index_range(n, k.m, "1D sort");
    if (res) res->m = k.m;
    int *t = (int *)host_alloc(sizeof(int) * k.m), *ref = (int *)host_alloc(sizeof(int) * n),
        *got = (int *)host_alloc(sizeof(int) * n);
    double *sorted = (double *)host_alloc(sizeof(double) * n);
    h1_ctx hc = {&k, t, ref, NULL, NULL, sorted, NULL, NULL};
    if (hash_sort1d_cpu(k.x, n, k.xmin, k.dmin, t, k.m, ref, sorted) != n) FAIL(d, "1D hash sort: a bucket collision (n %ld)", n);
    for (long i = 1; i < n; i++)
        if (!(sorted[i - 1] < sorted[i])) FAIL(d, "1D hash sort: output not ascending at %ld", i);
    if ((which & 5) && within(n, r->cpu_max)) {
        qs_pair *buf = (qs_pair *)host_alloc(sizeof(qs_pair) * n);
        h1_ctx qc = {&k, NULL, got, NULL, NULL, NULL, buf, NULL};
        if (which & 1) {
            h_qsort1d(&qc);
            if (verify_exact(got, ref, n, sizeof(int), "qsort vs CPU hash sort")) FAIL(d, "1D sort: qsort and hash differ");
            put_row(d, n, param, "qsort", time_host(h_qsort1d, &qc, r), res);
        }
        put_row(d, n, param, "hash_cpu", time_host(h_hash_sort1d, &hc, r), res);
        if (which & 4) {
            bs_ctx b;
            bs_alloc(&b, &k, n, r->threads);
            b.buf = buf;
            b.t = t;
            b.bits = radix_bits_for(k.m);
            b.sorted = (double *)host_alloc(sizeof(double) * n);
            int *keep = b.idx;
            b.idx = got;
            h_introsort1d(&b);
            check_ints(d, got, ref, n, "1D sort: introsort vs CPU hash");
            put_row(d, n, param, "introsort", time_host(h_introsort1d, &b, r), res);
            int ths[2], nth = best_thread_counts(r, ths);
            for (int a = 0; a < nth; a++) {
                int th = b.threads = ths[a];
                memset(got, 0xAB, sizeof(int) * n);
                h_radix1d(&b);
                check_ints(d, got, ref, n, "1D sort: LSD radix (bucket index) vs CPU hash");
                put_row(d, n, param, th == 1 ? "radix32_cpu" : "radix32_cpu_omp", time_host(h_radix1d, &b, r), res);
            }
            b.threads = r->threads;
            memset(got, 0xAB, sizeof(int) * n);
            h_hash_sort1d_omp(&b);
            check_ints(d, got, ref, n, "1D sort: CPU hash on all cores vs serial");
            if (memcmp(b.sorted, sorted, sizeof(double) * n)) FAIL(d, "1D sort: CPU hash on all cores: keys differ");
            put_row(d, n, param, "hash_cpu_omp", time_host(h_hash_sort1d_omp, &b, r), res);
            free(b.sorted);
            b.idx = keep;
            bs_free(&b);
        }
        free(buf);
    }
    if (which & 2) {
        gpu_hash_ctx g;
        hash1d_ctx_make(&g, &k, n, (const double *)dev_dup(k.x, sizeof(double) * n, "1D keys"));
        hash_sort_bufs(&g);
        g.sorted = (double *)dev_alloc(sizeof(double) * n, "sorted keys");
        CHECK_CUDA(cudaMemset(g.sorted, 0xFF, sizeof(double) * n)); /* NaN poison */
        gpu_run_once(gpu_hash_sort1d, &g, r, g.idx, got, sizeof(int) * n, 0xAB);
        if (verify_exact(got, ref, n, sizeof(int), "GPU vs CPU hash sort")) FAIL(d, "1D sort: GPU hash differs from CPU hash");
        double *gs = (double *)host_alloc(sizeof(double) * n);
        CHECK_CUDA(cudaMemcpy(gs, g.sorted, sizeof(double) * n, cudaMemcpyDeviceToHost));
        if (verify_exact(gs, sorted, n, sizeof(double), "GPU vs CPU sorted keys")) FAIL(d, "1D sort: GPU keys differ");
        free(gs);
        put_row(d, n, param, "hash_gpu", time_gpu(gpu_hash_sort1d, &g, r), res);
        if (which & 8) {
            job_ctx j;
            job_init(&j, gpu_hash_sort1d, &g);
            job_in(&j, k.x, g.x, sizeof(double) * n);
            job_out(&j, g.idx, sizeof(int) * n, ref);
            job_out(&j, g.sorted, sizeof(double) * n, sorted);
            put_row(d, n, param, "hash_gpu_job", job_measure(&j, r, "1D sort"), res);
            /* the strongest GPU baseline: CUB radix on the 32-bit bucket index, end_bit = bits needed */
            gpu_radix32_ctx q;
            radix32_ctx_make(&q, &k, g.x, n, radix_bits_for(k.m));
            gpu_run_once(gpu_radix32_sort1d, &q, r, q.vout, got, sizeof(int) * n, 0xAB);
            check_ints(d, got, ref, n, "1D sort: CUB radix on the 32-bit bucket index vs CPU hash");
            put_row(d, n, param, "radix32_gpu", time_gpu(gpu_radix32_sort1d, &q, r), res);
            if (res) res->end_bit = q.end_bit;
            radix32_ctx_free(&q);
        }

        radix_ctx rc;
        radix_ctx_make(&rc, g.x, n, got, r->s);
        gpu_run_once(gpu_radix_sort, &rc, r, rc.vout, got, sizeof(int) * n, 0xAB);
        if (verify_exact(got, ref, n, sizeof(int), "CUB radix vs CPU hash sort")) FAIL(d, "1D sort: CUB radix differs");
        put_row(d, n, param, "radix_gpu", time_gpu(gpu_radix_sort, &rc, r), res);
        radix_ctx_free(&rc);
        hash_sort_bufs_free(&g);
        CHECK_CUDA(cudaFree((void *)g.x)); CHECK_CUDA(cudaFree(g.t)); CHECK_CUDA(cudaFree(g.sorted));
    }
    free(t); free(ref); free(got); free(sorted);
    keys1d_free(&k);
}

/* ================= 1D neighbours (Fig. 3.6) ================= */
static void measure_neigh1d(const cfg *r, long n, datfile *d, results *res)
{
    keys1d k;
    keys1d_generate(&k, n, 2.0, 4.0, r->c.seed + (uint64_t)n * 37);
    check_index_range(n, k.m, "1D neighbours");
    int *t = (int *)host_alloc(sizeof(int) * k.m);
    int *lref = (int *)host_alloc(sizeof(int) * n), *rref = (int *)host_alloc(sizeof(int) * n);
    int *l = (int *)host_alloc(sizeof(int) * n), *rr = (int *)host_alloc(sizeof(int) * n);
    h1_ctx hc = {&k, t, NULL, lref, rref, NULL, NULL, NULL};
    h_hash_neigh1d(&hc);
    h1_ctx oc = {&k, NULL, NULL, l, rr, NULL, NULL, NULL};
    if (within(n, r->brute_max)) {
        h_brute_neigh1d(&oc);
        check_lr(d, l, lref, rr, rref, n, "brute", "1D neighbours: brute force and hash differ");
        put_row(d, n, 0, "brute", time_host(h_brute_neigh1d, &oc, r), res);
    }
    if (within(n, r->kd_max)) {
        kd1 kd;
        kd1_alloc(&kd, n);
        oc.kd = &kd;
        h_kd_neigh1d(&oc);
        check_lr(d, l, lref, rr, rref, n, "kd", "1D neighbours: k-D tree and hash differ");
        put_row(d, n, 0, "kdtree", time_host(h_kd_neigh1d, &oc, r), res);
        kd1_free(&kd);
    }
    if (within(n, r->cpu_max)) put_row(d, n, 0, "hash_cpu", time_host(h_hash_neigh1d, &hc, r), res);
    if (r->best && within(n, r->cpu_max)) { /* issue 12: k-D tree queries on all cores, neighbours by radix sort */
        bs_ctx b;
        bs_alloc(&b, &k, n, r->threads);
        b.bits = radix_bits_for(k.m);
        b.left = l;
        b.right = rr;
        b.t = t;
        int ths[2], nth = best_thread_counts(r, ths);
        for (int a = 0; a < nth; a++) {
            b.threads = ths[a];
            memset(l, 0xAB, sizeof(int) * n);
            h_radix_neigh1d(&b);
            check_lr(d, l, lref, rr, rref, n, "radix", "1D neighbours: radix-sorted neighbours and hash differ");
            put_row(d, n, 0, ths[a] == 1 ? "radix32_cpu" : "radix32_cpu_omp", time_host(h_radix_neigh1d, &b, r), res);
        }
        b.threads = r->threads;
        if (r->threads > 1 && within(n, r->kd_max)) {
            kd1 kd;
            kd1_alloc(&kd, n);
            b.kd = &kd;
            memset(l, 0xAB, sizeof(int) * n);
            h_kd_neigh1d_omp(&b);
            check_lr(d, l, lref, rr, rref, n, "kd omp", "1D neighbours: k-D tree on all cores and hash differ");
            put_row(d, n, 0, "kdtree_omp", time_host(h_kd_neigh1d_omp, &b, r), res);
            kd1_free(&kd);
        }
        memset(l, 0xAB, sizeof(int) * n);
        h_hash_neigh1d_omp(&b);
        check_lr(d, l, lref, rr, rref, n, "hash omp", "1D neighbours: CPU hash on all cores and serial differ");
        put_row(d, n, 0, "hash_cpu_omp", time_host(h_hash_neigh1d_omp, &b, r), res);
        bs_free(&b);
    }
    gpu_hash_ctx g;
    hash1d_ctx_make(&g, &k, n, (const double *)dev_dup(k.x, sizeof(double) * n, "1D keys"));
    g.left = (int *)dev_alloc(sizeof(int) * n, "left");
    g.right = (int *)dev_alloc(sizeof(int) * n, "right");
    CHECK_CUDA(cudaMemset(g.right, 0xAB, sizeof(int) * n));
    gpu_run_once(gpu_hash_neigh1d, &g, r, g.left, l, sizeof(int) * n, 0xAB);
    CHECK_CUDA(cudaMemcpy(rr, g.right, sizeof(int) * n, cudaMemcpyDeviceToHost));
    check_lr(d, l, lref, rr, rref, n, "GPU", "1D neighbours: GPU hash differs from CPU hash");
    put_row(d, n, 0, "hash_gpu", time_gpu(gpu_hash_neigh1d, &g, r), res);
    if (r->best) {
        job_ctx j;
        job_init(&j, gpu_hash_neigh1d, &g);
        job_in(&j, k.x, g.x, sizeof(double) * n);
        job_out(&j, g.left, sizeof(int) * n, lref);
        job_out(&j, g.right, sizeof(int) * n, rref);
        put_row(d, n, 0, "hash_gpu_job", job_measure(&j, r, "1D neighbours"), res);
    }
    CHECK_CUDA(cudaFree((void *)g.x)); CHECK_CUDA(cudaFree(g.t)); CHECK_CUDA(cudaFree(g.left)); CHECK_CUDA(cudaFree(g.right));
    free(t); free(lref); free(rref); free(l); free(rr);
    keys1d_free(&k);
}

/* ================= 2D meshes ================= */
/* The 2D perfect hash table, (side * 2^levmax)^2 buckets, must fit: at most 16 GiB and
 * fewer than 2^31 buckets (32-bit indices; it also bounds the cell count). Else exit 2. */
static int mesh_side_checked(const cfg *r, long target)
{
    int side = amr_side_for(target, r->levmax, r->frac);
    double buckets = (double)((long)side << r->levmax) * (double)((long)side << r->levmax);
    if (buckets * sizeof(int) > 16.0 * 1073741824.0 || buckets >= 2147483647.0)
        DIE_USAGE("the 2D perfect hash table, (%d * 2^%d)^2 = %.3g buckets (%.1f GiB), does not fit (limits: 2^31 - 1 "
                  "buckets, 16 GiB): lower --levmax or --max-log2", side, r->levmax, buckets, buckets * 4 / 1073741824.0);
    return side;
}

static void make_mesh(const cfg *r, long target, uint64_t seed, amr_mesh *m, datfile *d)
{
    int side = mesh_side_checked(r, target);
    double buckets = (double)((long)side << r->levmax) * (double)((long)side << r->levmax);
    amr_generate(m, side, side, r->levmax, r->frac, seed);
    check_index_range(m->n, (long)buckets, "2D mesh");
    char why[256];
    if (amr_validate(m, 1, why, sizeof why)) FAIL(d, "generated mesh invalid: %s", why);
}

typedef struct {
    const amr_mesh *m;
    int *t, *idx, *nb;
    qs_cell *qb;
    kd2 *kd;
    const kbox *boxes;
    int err;
    int threads; /* issue 12: the *_omp rows */
    uint32_t *key, *k2;
    int *i2;
    long *hist, *cnt;
    uint64_t *keys; /* issue 12: the compact hash (compact.h) */
    int *vals;
    long cap;
} h2_ctx;
static void h_hash_sort2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    hash_sort2d_cpu(c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax, amr_width(c->m), amr_height(c->m), c->t, c->idx);
}
static void h_qsort2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    qsort_sort2d(c->m, c->qb, c->idx);
}
static void h_hash_neigh2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    hash_neigh2d_cpu(c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax, amr_width(c->m), amr_height(c->m), c->t, c->nb);
}
static void h_kd_neigh2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    c->err |= kd2_neigh2d(c->kd, c->m, c->boxes, c->nb);
}
static void h_radix_sort2d(void *p) /* LSD radix on the 32-bit 2D key i + j w (sec. 3.1), key generation included */
{
    h2_ctx *c = (h2_ctx *)p;
    const amr_mesh *m = c->m;
    bucket_keys2d(m->i, m->j, m->lev, m->n, m->levmax, amr_width(m), c->key, c->idx, c->threads);
    radix_pairs(c->key, c->idx, c->k2, c->i2, m->n, radix_bits_for(amr_width(m) * amr_height(m)), c->threads, c->hist);
}
static void h_hash_sort2d_omp(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    hash_sort2d_omp(c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax, amr_width(c->m), amr_height(c->m), c->t, c->idx,
                    c->threads, c->cnt);
}
static void h_hash_neigh2d_omp(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    hash_neigh2d_omp(c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax, amr_width(c->m), amr_height(c->m), c->t, c->nb,
                     c->threads);
}
static void h_kd_neigh2d_omp(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    c->err |= kd2_neigh2d_omp(c->kd, c->m, c->boxes, c->nb, c->threads);
}
static void h_brute_neigh2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    brute_neigh2d(c->m, c->boxes, c->nb);
}

static void mesh_to_dev(const amr_mesh *m, gpu_hash_ctx *g)
{
    g->n = (int)m->n;
    g->levmax = m->levmax;
    g->W = amr_width(m);
    g->H = amr_height(m);
    g->m = g->W * g->H;
    g->ci = (const int *)dev_dup(m->i, sizeof(int) * m->n, "cells");
    g->cj = (const int *)dev_dup(m->j, sizeof(int) * m->n, "cells");
    g->lev = (const int *)dev_dup(m->lev, sizeof(int) * m->n, "cells");
    g->t = (int *)dev_alloc(sizeof(int) * (size_t)g->m, "2D perfect hash table");
}
static void mesh_dev_free(gpu_hash_ctx *g)
{
    CHECK_CUDA(cudaFree((void *)g->ci)); CHECK_CUDA(cudaFree((void *)g->cj)); CHECK_CUDA(cudaFree((void *)g->lev));
    CHECK_CUDA(cudaFree(g->t));
}

/* Fig. 3.5 */
static void measure_sort2d(const cfg *r, long target, datfile *d, results *res)
{
    amr_mesh m;
    make_mesh(r, target, r->c.seed + (uint64_t)target * 41, &m, d);
    long n = m.n, W = amr_width(&m), H = amr_height(&m);
    int *t = (int *)host_alloc(sizeof(int) * W * H), *ref = (int *)host_alloc(sizeof(int) * n),
        *got = (int *)host_alloc(sizeof(int) * n);
    h2_ctx hc = {&m, t, ref, NULL, NULL, NULL, NULL, 0};
    if (hash_sort2d_cpu(m.i, m.j, m.lev, n, m.levmax, W, H, t, ref) != n) FAIL(d, "2D hash sort: collision");
    if (within(n, r->cpu_max)) {
        qs_cell *qb = (qs_cell *)host_alloc(sizeof(qs_cell) * n);
        h2_ctx qc = {&m, NULL, got, NULL, qb, NULL, NULL, 0};
        h_qsort2d(&qc);
        if (verify_exact(got, ref, n, sizeof(int), "qsort vs hash 2D")) FAIL(d, "2D sort: qsort and hash differ");
        put_row(d, n, (double)W * H, "qsort", time_host(h_qsort2d, &qc, r), res);
        put_row(d, n, (double)W * H, "hash_cpu", time_host(h_hash_sort2d, &hc, r), res);
        free(qb);
        if (r->best && W * H <= 4294967296L) { /* issue 12: LSD radix on the 2D key, CPU hash on all cores */
            h2_ctx b = {&m, t, got, NULL, NULL, NULL, NULL, 0};
            b.key = (uint32_t *)host_alloc(sizeof(uint32_t) * n);
            b.k2 = (uint32_t *)host_alloc(sizeof(uint32_t) * n);
            b.i2 = (int *)host_alloc(sizeof(int) * n);
            b.hist = (long *)host_alloc(sizeof(long) * (size_t)r->threads << RADIX_MAX_DIGIT_BITS);
            b.cnt = (long *)host_alloc(sizeof(long) * (size_t)r->threads);
            int ths[2], nth = best_thread_counts(r, ths);
            for (int a = 0; a < nth; a++) {
                b.threads = ths[a];
                memset(got, 0xAB, sizeof(int) * n);
                h_radix_sort2d(&b);
                check_ints(d, got, ref, n, "2D sort: LSD radix vs CPU hash");
                put_row(d, n, (double)W * H, ths[a] == 1 ? "radix32_cpu" : "radix32_cpu_omp", time_host(h_radix_sort2d, &b, r),
                        res);
            }
            b.threads = r->threads;
            memset(got, 0xAB, sizeof(int) * n);
            h_hash_sort2d_omp(&b);
            check_ints(d, got, ref, n, "2D sort: CPU hash on all cores vs serial");
            put_row(d, n, (double)W * H, "hash_cpu_omp", time_host(h_hash_sort2d_omp, &b, r), res);
            free(b.key); free(b.k2); free(b.i2); free(b.hist); free(b.cnt);
        }
    }
    gpu_hash_ctx g;
    memset(&g, 0, sizeof g);
    mesh_to_dev(&m, &g);
    hash_sort_bufs(&g);
    gpu_run_once(gpu_hash_sort2d, &g, r, g.idx, got, sizeof(int) * n, 0xAB);
    if (verify_exact(got, ref, n, sizeof(int), "GPU vs CPU hash 2D sort")) FAIL(d, "2D sort: GPU hash differs from CPU hash");
    put_row(d, n, (double)W * H, "hash_gpu", time_gpu(gpu_hash_sort2d, &g, r), res);
    if (r->best) {
        job_ctx j;
        job_init(&j, gpu_hash_sort2d, &g);
        job_in(&j, m.i, g.ci, sizeof(int) * n);
        job_in(&j, m.j, g.cj, sizeof(int) * n);
        job_in(&j, m.lev, g.lev, sizeof(int) * n);
        job_out(&j, g.idx, sizeof(int) * n, ref);
        put_row(d, n, (double)W * H, "hash_gpu_job", job_measure(&j, r, "2D sort"), res);
    }
    hash_sort_bufs_free(&g);
    mesh_dev_free(&g);
    free(t); free(ref); free(got);
    amr_free(&m);
}

/* Fig. 3.7 */
static void measure_neigh2d(const cfg *r, long target, datfile *d, results *res)
{
    amr_mesh m;
    make_mesh(r, target, r->c.seed + (uint64_t)target * 43, &m, d);
    long n = m.n, W = amr_width(&m), H = amr_height(&m);
    int *t = (int *)host_alloc(sizeof(int) * W * H), *ref = (int *)host_alloc(sizeof(int) * 4 * n),
        *got = (int *)host_alloc(sizeof(int) * 4 * n);
    kbox *boxes = (kbox *)host_alloc(sizeof(kbox) * n);
    amr_boxes(&m, boxes);
    h2_ctx hc = {&m, t, NULL, ref, NULL, NULL, boxes, 0};
    h_hash_neigh2d(&hc);
    h2_ctx oc = {&m, NULL, NULL, got, NULL, NULL, boxes, 0};
    if (within(n, r->brute_max)) {
        h_brute_neigh2d(&oc);
        if (verify_exact(got, ref, 4 * n, sizeof(int), "brute vs hash 2D neighbours")) FAIL(d, "2D neighbours: brute differs");
        put_row(d, n, (double)W * H, "brute", time_host(h_brute_neigh2d, &oc, r), res);
    }
    if (within(n, r->kd_max)) {
        kd2 kd;
        kd2_alloc(&kd, n);
        oc.kd = &kd;
        h_kd_neigh2d(&oc);
        if (oc.err || verify_exact(got, ref, 4 * n, sizeof(int), "k-D tree vs hash 2D neighbours"))
            FAIL(d, "2D neighbours: k-D tree differs");
        put_row(d, n, (double)W * H, "kdtree", time_host(h_kd_neigh2d, &oc, r), res);
        if (oc.err) FAIL(d, "2D neighbours: k-D tree query failed");
        kd2_free(&kd);
    }
    if (within(n, r->cpu_max)) put_row(d, n, (double)W * H, "hash_cpu", time_host(h_hash_neigh2d, &hc, r), res);
    if (r->best && within(n, r->cpu_max)) { /* issue 12: k-D tree queries and the CPU hash on all cores */
        h2_ctx b = {&m, t, NULL, got, NULL, NULL, boxes, 0};
        b.threads = r->threads;
        if (r->threads > 1 && within(n, r->kd_max)) {
            kd2 kd;
            kd2_alloc(&kd, n);
            b.kd = &kd;
            memset(got, 0xAB, sizeof(int) * 4 * n);
            h_kd_neigh2d_omp(&b);
            if (b.err) FAIL(d, "2D neighbours: k-D tree query failed");
            check_ints(d, got, ref, 4 * n, "2D neighbours: k-D tree on all cores vs CPU hash");
            put_row(d, n, (double)W * H, "kdtree_omp", time_host(h_kd_neigh2d_omp, &b, r), res);
            if (b.err) FAIL(d, "2D neighbours: k-D tree query failed");
            kd2_free(&kd);
        }
        memset(got, 0xAB, sizeof(int) * 4 * n);
        h_hash_neigh2d_omp(&b);
        check_ints(d, got, ref, 4 * n, "2D neighbours: CPU hash on all cores vs serial");
        put_row(d, n, (double)W * H, "hash_cpu_omp", time_host(h_hash_neigh2d_omp, &b, r), res);
    }
    gpu_hash_ctx g;
    memset(&g, 0, sizeof g);
    mesh_to_dev(&m, &g);
    g.nb = (int *)dev_alloc(sizeof(int) * 4 * n, "neighbours");
    gpu_run_once(gpu_hash_neigh2d, &g, r, g.nb, got, sizeof(int) * 4 * n, 0xAB);
    if (verify_exact(got, ref, 4 * n, sizeof(int), "GPU vs CPU hash 2D neighbours"))
        FAIL(d, "2D neighbours: GPU hash differs from CPU hash");
    put_row(d, n, (double)W * H, "hash_gpu", time_gpu(gpu_hash_neigh2d, &g, r), res);
    if (r->best) {
        job_ctx j;
        job_init(&j, gpu_hash_neigh2d, &g);
        job_in(&j, m.i, g.ci, sizeof(int) * n);
        job_in(&j, m.j, g.cj, sizeof(int) * n);
        job_in(&j, m.lev, g.lev, sizeof(int) * n);
        job_out(&j, g.nb, sizeof(int) * 4 * n, ref);
        put_row(d, n, (double)W * H, "hash_gpu_job", job_measure(&j, r, "2D neighbours"), res);
    }
    CHECK_CUDA(cudaFree(g.nb));
    mesh_dev_free(&g);
    free(t); free(ref); free(got); free(boxes);
    amr_free(&m);
}

/* ================= remaps (Fig. 3.9, 3.10) ================= */
typedef struct {
    const mesh1d *o, *w;
    const amr_mesh *mo, *mw;
    const field *f;
    int *t;
    long L;
    kd2 *kd;
    const kbox *ob, *nbx;
    long na, nb;
    int *hits;
    long cap;
    qs_pair *ba, *bb;
    double *out;
    int err;
    int threads; /* issue 12: the *_omp rows (hits: threads * cap ints there) */
    const chash *ch; /* issue 12: the compact hash over the old mesh (levmax sweep) */
} hr_ctx;
static void h_hash_remap1d(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    hash_remap1d_cpu(c->o->lo, c->o->hi, c->o->n, c->f->mean, c->f->gx, c->w->lo, c->w->hi, c->w->n, c->t, c->L, c->out);
}
static void h_sort_remap1d(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    sort_remap1d(c->o, c->f->mean, c->f->gx, c->w, c->ba, c->bb, c->out);
}
static void h_kd_remap(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    c->err |= kd2_remap(c->kd, c->ob, c->na, c->f->mean, c->f->gx, c->f->gy, c->nbx, c->nb, c->hits, c->cap, c->out);
}
static void h_kd_remap_omp(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    c->err |= kd2_remap_omp(c->kd, c->ob, c->na, c->f->mean, c->f->gx, c->f->gy, c->nbx, c->nb, c->hits, c->cap, c->out,
                            c->threads);
}
static void h_hash_remap1d_omp(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    hash_remap1d_omp(c->o->lo, c->o->hi, c->o->n, c->f->mean, c->f->gx, c->w->lo, c->w->hi, c->w->n, c->t, c->L, c->out,
                     c->threads);
}
static void h_hash_remap2d_omp(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    hash_remap2d_omp(c->mo->i, c->mo->j, c->mo->lev, c->mo->n, c->f->mean, c->f->gx, c->f->gy, c->mw->i, c->mw->j,
                     c->mw->lev, c->mw->n, c->mo->levmax, amr_width(c->mo), amr_height(c->mo), c->t, c->out, c->threads);
}
static void h_brute_remap(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    brute_remap(c->ob, c->na, c->f->mean, c->f->gx, c->f->gy, c->nbx, c->nb, c->out);
}
static void h_hash_remap2d(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    hash_remap2d_cpu(c->mo->i, c->mo->j, c->mo->lev, c->mo->n, c->f->mean, c->f->gx, c->f->gy, c->mw->i, c->mw->j,
                     c->mw->lev, c->mw->n, c->mo->levmax, amr_width(c->mo), amr_height(c->mo), c->t, c->out);
}

static void check_remap(datfile *d, const double *got, const double *ref, long nb, const char *what)
{
    if (verify_close_f64(got, ref, nb, 1e-10, 1e-9, what)) FAIL(d, "remap: %s differs", what);
}
static void check_total(datfile *d, const double *out, long nb, double total, double scale, const char *what)
{
    double s = 0;
    for (long b = 0; b < nb; b++) s += out[b];
    if (!(fabs(s - total) <= 1e-10 * scale)) FAIL(d, "remap (%s): total not conserved: %.17g vs %.17g", what, s, total);
}

/* issue 12: the k-D tree remap's query loop and the CPU hash remap on all cores */
static void remap_best_cpu(const cfg *r, const hr_ctx *base, bench_host_fn hash_omp, long n, double param,
                           const double *ref, double *got, long nbn, datfile *d, results *res)
{
    hr_ctx b = *base;
    b.threads = r->threads;
    b.out = got;
    if (r->threads > 1 && within(n, r->kd_max)) {
        kd2 kd;
        kd2_alloc(&kd, b.na);
        b.kd = &kd;
        b.hits = (int *)host_alloc(sizeof(int) * (size_t)b.cap * r->threads);
        memset(got, 0xFF, sizeof(double) * nbn);
        h_kd_remap_omp(&b);
        if (b.err) FAIL(d, "remap: k-D tree query overflow");
        check_remap(d, got, ref, nbn, "k-D tree on all cores vs CPU hash remap");
        put_row(d, n, param, "kdtree_omp", time_host(h_kd_remap_omp, &b, r), res);
        free(b.hits);
        kd2_free(&kd);
    }
    b.f = base->f;
    memset(got, 0xFF, sizeof(double) * nbn);
    hash_omp(&b);
    if (memcmp(got, ref, sizeof(double) * nbn)) FAIL(d, "remap: CPU hash on all cores differs from serial");
    put_row(d, n, param, "hash_cpu_omp", time_host(hash_omp, &b, r), res);
}

static void measure_remap1d(const cfg *r, long n, datfile *d, results *res)
{
    mesh1d o, w;
    long L = mesh1d_generate(&o, n, 0, 2, r->c.seed + (uint64_t)n * 47);
    mesh1d_generate(&w, 0, L, 2, r->c.seed + (uint64_t)n * 53);
    check_index_range(n + w.n, L, "1D remap");
    field f, fl;
    field1d_make(&f, &o, 2.0, 1.0 / L, 1.0, L / 7.0 + 3.0); /* non-constant, non-linear */
    field1d_make(&fl, &o, 1.0, 0.5, 0, 1);                   /* linear: must be exact */
    double total = 0, scale = 0;
    for (long a = 0; a < o.n; a++) {
        total += f.mean[a] * (o.hi[a] - o.lo[a]);
        scale += fabs(f.mean[a]) * (o.hi[a] - o.lo[a]);
    }
    int *t = (int *)host_alloc(sizeof(int) * L);
    double *ref = (double *)host_alloc(sizeof(double) * w.n), *got = (double *)host_alloc(sizeof(double) * w.n);
    hr_ctx hc;
    memset(&hc, 0, sizeof hc);
    hc.o = &o; hc.w = &w; hc.f = &fl; hc.t = t; hc.L = L; hc.out = got; hc.na = o.n; hc.nb = w.n;
    h_hash_remap1d(&hc); /* exactness for a linear field */
    for (long b = 0; b < w.n; b++) {
        double xc = 0.5 * (w.lo[b] + w.hi[b]), e = got[b] / (w.hi[b] - w.lo[b]) - (1.0 + 0.5 * xc);
        if (!(fabs(e) <= 1e-12 * (1 + 0.5 * L))) FAIL(d, "1D remap not exact for a linear field at new cell %ld", b);
    }
    hc.f = &f;
    hc.out = ref;
    h_hash_remap1d(&hc);
    check_total(d, ref, w.n, total, scale, "CPU hash");
    kbox *ob = (kbox *)host_alloc(sizeof(kbox) * o.n), *nbx = (kbox *)host_alloc(sizeof(kbox) * w.n);
    mesh1d_boxes(&o, ob);
    mesh1d_boxes(&w, nbx);
    int hits[64];
    hr_ctx oc = hc;
    oc.out = got; oc.ob = ob; oc.nbx = nbx; oc.hits = hits; oc.cap = 64;
    if (within(n, r->brute_max)) {
        h_brute_remap(&oc);
        check_remap(d, got, ref, w.n, "brute force vs CPU hash 1D remap");
        put_row(d, n, (double)L, "brute", time_host(h_brute_remap, &oc, r), res);
    }
    if (within(n, r->kd_max)) {
        kd2 kd;
        kd2_alloc(&kd, o.n);
        oc.kd = &kd;
        h_kd_remap(&oc);
        if (oc.err) FAIL(d, "1D remap: k-D tree query overflow");
        check_remap(d, got, ref, w.n, "k-D tree vs CPU hash 1D remap");
        put_row(d, n, (double)L, "kdtree", time_host(h_kd_remap, &oc, r), res);
        kd2_free(&kd);
    }
    if (within(n, r->cpu_max)) {
        oc.ba = (qs_pair *)host_alloc(sizeof(qs_pair) * o.n);
        oc.bb = (qs_pair *)host_alloc(sizeof(qs_pair) * w.n);
        h_sort_remap1d(&oc);
        check_remap(d, got, ref, w.n, "sort-based (Listing 4) vs CPU hash 1D remap");
        put_row(d, n, (double)L, "sort_based", time_host(h_sort_remap1d, &oc, r), res);
        free(oc.ba);
        free(oc.bb);
        put_row(d, n, (double)L, "hash_cpu", time_host(h_hash_remap1d, &hc, r), res);
        if (r->best) remap_best_cpu(r, &oc, h_hash_remap1d_omp, n, (double)L, ref, got, w.n, d, res);
    }
    gpu_remap_ctx g;
    memset(&g, 0, sizeof g);
    g.na = (int)o.n; g.nb = (int)w.n; g.L = L;
    g.olo = (const int *)dev_dup(o.lo, sizeof(int) * o.n, "old mesh");
    g.ohi = (const int *)dev_dup(o.hi, sizeof(int) * o.n, "old mesh");
    g.nlo = (const int *)dev_dup(w.lo, sizeof(int) * w.n, "new mesh");
    g.nhi = (const int *)dev_dup(w.hi, sizeof(int) * w.n, "new mesh");
    g.mean = (const double *)dev_dup(f.mean, sizeof(double) * o.n, "field");
    g.gx = (const double *)dev_dup(f.gx, sizeof(double) * o.n, "field");
    g.t = (int *)dev_alloc(sizeof(int) * L, "1D remap hash table");
    g.out = (double *)dev_alloc(sizeof(double) * w.n, "remap output");
    gpu_run_once(gpu_hash_remap1d, &g, r, g.out, got, sizeof(double) * w.n, 0xFF);
    check_remap(d, got, ref, w.n, "GPU vs CPU hash 1D remap");
    check_total(d, got, w.n, total, scale, "GPU hash");
    put_row(d, n, (double)L, "hash_gpu", time_gpu(gpu_hash_remap1d, &g, r), res);
    if (r->best) {
        job_ctx j;
        job_init(&j, gpu_hash_remap1d, &g);
        job_in(&j, o.lo, g.olo, sizeof(int) * o.n);
        job_in(&j, o.hi, g.ohi, sizeof(int) * o.n);
        job_in(&j, w.lo, g.nlo, sizeof(int) * w.n);
        job_in(&j, w.hi, g.nhi, sizeof(int) * w.n);
        job_in(&j, f.mean, g.mean, sizeof(double) * o.n);
        job_in(&j, f.gx, g.gx, sizeof(double) * o.n);
        job_out(&j, g.out, sizeof(double) * w.n, got);
        put_row(d, n, (double)L, "hash_gpu_job", job_measure(&j, r, "1D remap"), res);
    }
    CHECK_CUDA(cudaFree((void *)g.olo)); CHECK_CUDA(cudaFree((void *)g.ohi)); CHECK_CUDA(cudaFree((void *)g.nlo));
    CHECK_CUDA(cudaFree((void *)g.nhi)); CHECK_CUDA(cudaFree((void *)g.mean)); CHECK_CUDA(cudaFree((void *)g.gx));
    CHECK_CUDA(cudaFree(g.t)); CHECK_CUDA(cudaFree(g.out));
    free(t); free(ref); free(got); free(ob); free(nbx);
    field_free(&f); field_free(&fl);
    mesh1d_free(&o); mesh1d_free(&w);
}

static void measure_remap2d(const cfg *r, long target, datfile *d, results *res)
{
    amr_mesh mo, mw;
    make_mesh(r, target, r->c.seed + (uint64_t)target * 59, &mo, d);
    make_mesh(r, target, r->c.seed + (uint64_t)target * 61 + 1, &mw, d);
    long n = mo.n, W = amr_width(&mo), H = amr_height(&mo);
    field f, fl;
    field2d_make(&f, &mo, 2.0, 1.0 / W, -0.5 / H, 1.0, W / 5.0 + 3.0);
    field2d_make(&fl, &mo, 1.0, 0.25, -0.125, 0, 1);
    double total = 0, scale = 0;
    for (long a = 0; a < n; a++) {
        double ar = (double)(1L << (2 * (mo.levmax - mo.lev[a])));
        total += f.mean[a] * ar;
        scale += fabs(f.mean[a]) * ar;
    }
    int *t = (int *)host_alloc(sizeof(int) * W * H);
    double *ref = (double *)host_alloc(sizeof(double) * mw.n), *got = (double *)host_alloc(sizeof(double) * mw.n);
    hr_ctx hc;
    memset(&hc, 0, sizeof hc);
    hc.mo = &mo; hc.mw = &mw; hc.f = &fl; hc.t = t; hc.out = got; hc.na = n; hc.nb = mw.n;
    h_hash_remap2d(&hc);
    for (long b = 0; b < mw.n; b++) {
        double rr = (double)(1L << (mw.levmax - mw.lev[b]));
        double xc = (mw.i[b] + 0.5) * rr, yc = (mw.j[b] + 0.5) * rr;
        double e = got[b] / (rr * rr) - (1.0 + 0.25 * xc - 0.125 * yc);
        if (!(fabs(e) <= 1e-12 * (1 + 0.25 * W + 0.125 * H))) FAIL(d, "2D remap not exact for a linear field at %ld", b);
    }
    hc.f = &f;
    hc.out = ref;
    h_hash_remap2d(&hc);
    check_total(d, ref, mw.n, total, scale, "CPU hash 2D");
    kbox *ob = (kbox *)host_alloc(sizeof(kbox) * n), *nbx = (kbox *)host_alloc(sizeof(kbox) * mw.n);
    amr_boxes(&mo, ob);
    amr_boxes(&mw, nbx);
    long cap = (4L << (2 * mo.levmax)) + 64;
    int *hits = (int *)host_alloc(sizeof(int) * cap);
    hr_ctx oc = hc;
    oc.out = got; oc.ob = ob; oc.nbx = nbx; oc.hits = hits; oc.cap = cap;
    if (within(n, r->brute_max)) {
        h_brute_remap(&oc);
        check_remap(d, got, ref, mw.n, "brute force vs CPU hash 2D remap");
        put_row(d, n, (double)W * H, "brute", time_host(h_brute_remap, &oc, r), res);
    }
    if (within(n, r->kd_max)) {
        kd2 kd;
        kd2_alloc(&kd, n);
        oc.kd = &kd;
        h_kd_remap(&oc);
        if (oc.err) FAIL(d, "2D remap: k-D tree query overflow");
        check_remap(d, got, ref, mw.n, "k-D tree vs CPU hash 2D remap");
        put_row(d, n, (double)W * H, "kdtree", time_host(h_kd_remap, &oc, r), res);
        kd2_free(&kd);
    }
    if (within(n, r->cpu_max)) put_row(d, n, (double)W * H, "hash_cpu", time_host(h_hash_remap2d, &hc, r), res);
    if (r->best && within(n, r->cpu_max)) remap_best_cpu(r, &oc, h_hash_remap2d_omp, n, (double)W * H, ref, got, mw.n, d, res);
    gpu_remap_ctx g;
    memset(&g, 0, sizeof g);
    g.na = (int)n; g.nb = (int)mw.n; g.levmax = mo.levmax; g.W = W; g.H = H;
    g.oi = (const int *)dev_dup(mo.i, sizeof(int) * n, "old mesh");
    g.oj = (const int *)dev_dup(mo.j, sizeof(int) * n, "old mesh");
    g.ol = (const int *)dev_dup(mo.lev, sizeof(int) * n, "old mesh");
    g.ni = (const int *)dev_dup(mw.i, sizeof(int) * mw.n, "new mesh");
    g.nj = (const int *)dev_dup(mw.j, sizeof(int) * mw.n, "new mesh");
    g.nl = (const int *)dev_dup(mw.lev, sizeof(int) * mw.n, "new mesh");
    g.mean = (const double *)dev_dup(f.mean, sizeof(double) * n, "field");
    g.gx = (const double *)dev_dup(f.gx, sizeof(double) * n, "field");
    g.gy = (const double *)dev_dup(f.gy, sizeof(double) * n, "field");
    g.t = (int *)dev_alloc(sizeof(int) * W * H, "2D perfect hash table");
    g.out = (double *)dev_alloc(sizeof(double) * mw.n, "remap output");
    gpu_run_once(gpu_hash_remap2d, &g, r, g.out, got, sizeof(double) * mw.n, 0xFF);
    check_remap(d, got, ref, mw.n, "GPU vs CPU hash 2D remap");
    check_total(d, got, mw.n, total, scale, "GPU hash 2D");
    put_row(d, n, (double)W * H, "hash_gpu", time_gpu(gpu_hash_remap2d, &g, r), res);
    if (r->best) {
        job_ctx j;
        job_init(&j, gpu_hash_remap2d, &g);
        job_in(&j, mo.i, g.oi, sizeof(int) * n);
        job_in(&j, mo.j, g.oj, sizeof(int) * n);
        job_in(&j, mo.lev, g.ol, sizeof(int) * n);
        job_in(&j, mw.i, g.ni, sizeof(int) * mw.n);
        job_in(&j, mw.j, g.nj, sizeof(int) * mw.n);
        job_in(&j, mw.lev, g.nl, sizeof(int) * mw.n);
        job_in(&j, f.mean, g.mean, sizeof(double) * n);
        job_in(&j, f.gx, g.gx, sizeof(double) * n);
        job_in(&j, f.gy, g.gy, sizeof(double) * n);
        job_out(&j, g.out, sizeof(double) * mw.n, got);
        put_row(d, n, (double)W * H, "hash_gpu_job", job_measure(&j, r, "2D remap"), res);
    }
    const void *fr[] = {g.oi, g.oj, g.ol, g.ni, g.nj, g.nl, g.mean, g.gx, g.gy, g.t, g.out};
    for (int k = 0; k < 11; k++) CHECK_CUDA(cudaFree((void *)fr[k]));
    free(t); free(ref); free(got); free(ob); free(nbx); free(hits);
    field_free(&f); field_free(&fl);
    amr_free(&mo); amr_free(&mw);
}

/* ================= table look-up (Fig. 3.11) ================= */
/* GPU grid: this many blocks per SM, each staging the table in shared memory once and then
 * interpolating a grid-stride share of the queries (sec. 3.4, "each work-group makes a copy") */
#define TABLE_BLOCKS_PER_SM 8
typedef struct {
    const eos_table *e;
    const double *qx, *qy;
    long nq;
    int method;
    double *out;
    int threads; /* issue 12: > 0 = the *_omp rows */
} ht_ctx;
static void h_table(void *p)
{
    ht_ctx *c = (ht_ctx *)p;
    if (c->threads > 0)
        table_lookup_omp(c->method, c->e->p, c->e->rho, EOS_NRHO, c->e->temp, EOS_NT, c->qx, c->qy, c->nq, c->out, c->threads);
    else
        table_lookup_cpu(c->method, c->e->p, c->e->rho, EOS_NRHO, c->e->temp, EOS_NT, c->qx, c->qy, c->nq, c->out);
}

static void measure_table(const cfg *r, long nq, datfile *d, results *res, int sms)
{
    eos_table e;
    eos_generate(&e);
    double *qx = (double *)host_alloc(sizeof(double) * nq), *qy = (double *)host_alloc(sizeof(double) * nq);
    eos_queries(&e, nq, qx, qy, r->c.seed + (uint64_t)nq);
    double *ref = (double *)host_alloc(sizeof(double) * nq), *got = (double *)host_alloc(sizeof(double) * nq);
    ht_ctx rc = {&e, qx, qy, nq, TAB_BISECT, ref};
    h_table(&rc); /* the double-precision reference: bisection + bilinear */
    const char *names[3] = {"hash_cpu", "linear", "bisection"};
    if (within(nq, r->cpu_max))
        for (int mth = 2; mth >= 0; mth--) {
            ht_ctx c = {&e, qx, qy, nq, mth, got};
            h_table(&c);
            if (verify_close_f64(got, ref, nq, 1e-10, 1e-9, names[mth])) FAIL(d, "table: %s differs", names[mth]);
            put_row(d, nq, EOS_NRHO * EOS_NT, names[mth], time_host(h_table, &c, r), res);
        }
    if (r->best && within(nq, r->cpu_max)) { /* issue 12: bisection and the hash on all cores */
        const char *omp_names[3] = {"hash_cpu_omp", "linear_omp", "bisection_omp"};
        for (int mth = 2; mth >= 0; mth -= 2) {
            ht_ctx c = {&e, qx, qy, nq, mth, got, r->threads};
            memset(got, 0xFF, sizeof(double) * nq);
            h_table(&c);
            if (verify_close_f64(got, ref, nq, 1e-10, 1e-9, omp_names[mth])) FAIL(d, "table: %s differs", omp_names[mth]);
            put_row(d, nq, EOS_NRHO * EOS_NT, omp_names[mth], time_host(h_table, &c, r), res);
        }
    }
    gpu_table_ctx g;
    g.nx = EOS_NRHO; g.ny = EOS_NT; g.nq = nq; g.blocks = sms * TABLE_BLOCKS_PER_SM;
    g.data = (const double *)dev_dup(e.p, sizeof e.p, "table");
    g.xaxis = (const double *)dev_dup(e.rho, sizeof e.rho, "axis");
    g.yaxis = (const double *)dev_dup(e.temp, sizeof e.temp, "axis");
    g.qx = (const double *)dev_dup(qx, sizeof(double) * nq, "queries");
    g.qy = (const double *)dev_dup(qy, sizeof(double) * nq, "queries");
    g.out = (double *)dev_alloc(sizeof(double) * nq, "table output");
    gpu_run_once(gpu_table_hash, &g, r, g.out, got, sizeof(double) * nq, 0xFF);
    if (verify_close_f64(got, ref, nq, 1e-10, 1e-9, "GPU hash table")) FAIL(d, "table: GPU hash differs");
    put_row(d, nq, EOS_NRHO * EOS_NT, "hash_gpu", time_gpu(gpu_table_hash, &g, r), res);
    if (r->best) {
        job_ctx j;
        job_init(&j, gpu_table_hash, &g);
        job_in(&j, qx, g.qx, sizeof(double) * nq);
        job_in(&j, qy, g.qy, sizeof(double) * nq);
        job_out(&j, g.out, sizeof(double) * nq, got);
        put_row(d, nq, EOS_NRHO * EOS_NT, "hash_gpu_job", job_measure(&j, r, "table"), res);
    }
    const void *fr[] = {g.data, g.xaxis, g.yaxis, g.qx, g.qy, g.out};
    for (int k = 0; k < 6; k++) CHECK_CUDA(cudaFree((void *)fr[k]));
    free(qx); free(qy); free(ref); free(got);
}

/* ================= Table 4.1 from the figures' data ================= */
typedef struct {
    long n;
    double ref, cpu, gpu;
} tab_row;
/* The row set (ref method, hash_cpu, hash_gpu) at the n nearest `target` (log distance)
 * among the sizes where all three were measured. Returns 0 on success. */
static int tab_find(const char *path, const char *ref, long target, tab_row *out)
{
    FILE *f = fopen(path, "r");
    if (!f) return 1;
    char line[1024];
    enum { CAP = 64 };
    tab_row rows[CAP];
    int nr = 0, header = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        if (!header) { header = 1; continue; } /* n param method median_ms ... */
        long n;
        double param, ms;
        char method[64];
        if (sscanf(line, "%ld %lf %63s %lf", &n, &param, method, &ms) != 4) continue;
        int k = 0;
        while (k < nr && rows[k].n != n) k++;
        if (k == nr) {
            if (nr == CAP) continue;
            rows[nr].n = n;
            rows[nr].ref = rows[nr].cpu = rows[nr].gpu = -1;
            nr++;
        }
        if (!strcmp(method, ref)) rows[k].ref = ms;
        if (!strcmp(method, "hash_cpu")) rows[k].cpu = ms;
        if (!strcmp(method, "hash_gpu")) rows[k].gpu = ms;
    }
    fclose(f);
    int best = -1;
    for (int k = 0; k < nr; k++) {
        if (rows[k].ref <= 0 || rows[k].cpu <= 0 || rows[k].gpu <= 0) continue;
        if (best < 0 || fabs(log((double)rows[k].n / target)) < fabs(log((double)rows[best].n / target))) best = k;
    }
    if (best < 0) return 1;
    *out = rows[best];
    return 0;
}

/* ================= issue 12: past the perfect table ================= */
/* one row of the levmax / clustered files: an extra key column and the memory of the table */
static void put_row_mem(datfile *d, const char *key_fmt, double key, long n, const char *method, double bytes,
                        bench_stats st)
{
    char k[64];
    snprintf(k, sizeof k, key_fmt, key);
    fprintf(stderr, "  %-8s n %9ld %-16s %10.4f ms  [%.4f, %.4f]  reps %d  table %.3g MB\n", k, n, method, st.median,
            st.min, st.max, st.n, bytes / 1e6);
    if (bench_warn_spread(method, st))
        datfile_meta(d, "warning", "spread %.0f%% for %s at %s", 100 * bench_spread(st), method, k);
    datfile_row(d, "%s %ld %s %.0f %.6f %.6f %.6f %d %d %.3f", k, n, method, bytes, st.median, st.min, st.max, st.n,
                st.batch, n / (st.median * 1e-3) / 1e6);
}
static void h_ch_neigh2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    c->err |= ch_neigh2d_cpu(c->keys, c->vals, c->cap, c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax,
                             amr_width(c->m), amr_height(c->m), c->nb);
}
/* bytes of a k-D tree over n cells (kd2_alloc) */
static double kd2_bytes(long n)
{
    long maxnodes = 2 * (n / KD2_LEAF + 1) + 2;
    return (double)n * (sizeof(kbox) + sizeof(int)) + 2.0 * maxnodes * (sizeof(kbox) + 4 * sizeof(int));
}
static size_t gpu_free_bytes(void)
{
    size_t fr = 0, tot = 0;
    CHECK_CUDA(cudaMemGetInfo(&fr, &tot));
    return fr;
}

/* 2D neighbours on a corner-refined mesh of finest level L: perfect table (while it fits:
 * host <= --perfect-max-gib, device <= 80% of free memory, < 2^40 buckets), compact hash,
 * k-D tree (serial and all cores); all equal to the compact result, which is checked
 * against the k-D tree at every L and against the perfect table where it runs. */
static void measure_levmax(const cfg *r, int L, datfile *d)
{
    amr_mesh m;
    amr_corner_generate(&m, r->corner_side, L, r->corner_radius, r->c.seed + (uint64_t)L * 71);
    long n = m.n, W = amr_width(&m), H = amr_height(&m);
    double perfect_bytes = (double)W * (double)H * sizeof(int);
    check_index_range(n, 0, "corner mesh");
    long cap = ch_capacity(n, r->load);
    uint64_t *keys = (uint64_t *)host_alloc(sizeof(uint64_t) * cap);
    int *vals = (int *)host_alloc(sizeof(int) * cap), *ref = (int *)host_alloc(sizeof(int) * 4 * n),
        *got = (int *)host_alloc(sizeof(int) * 4 * n);
    int host_perfect = perfect_bytes <= r->perfect_max_gib * 1073741824.0;
    char why[256];
    if (host_perfect ? amr_validate(&m, 1, why, sizeof why) : amr_validate_compact(&m, 1, keys, vals, cap, why, sizeof why))
        FAIL(d, "corner mesh (levmax %d) invalid: %s", L, why);
    h2_ctx c = {&m, NULL, NULL, ref, NULL, NULL, NULL, 0};
    c.keys = keys; c.vals = vals; c.cap = cap; c.threads = r->threads;
    h_ch_neigh2d(&c);
    if (c.err) FAIL(d, "compact hash: a face found no cell (levmax %d)", L);
    c.nb = got;
    kbox *boxes = (kbox *)host_alloc(sizeof(kbox) * n);
    amr_boxes(&m, boxes);
    c.boxes = boxes;
    kd2 kd;
    kd2_alloc(&kd, n);
    c.kd = &kd;
    memset(got, 0xAB, sizeof(int) * 4 * n);
    h_kd_neigh2d(&c);
    if (c.err) FAIL(d, "k-D tree query failed (levmax %d)", L);
    check_ints(d, got, ref, 4 * n, "corner mesh: compact hash vs k-D tree");
    put_row_mem(d, "%.0f", L, n, "kdtree", kd2_bytes(n), time_host(h_kd_neigh2d, &c, r));
    if (r->threads > 1) {
        memset(got, 0xAB, sizeof(int) * 4 * n);
        h_kd_neigh2d_omp(&c);
        if (c.err) FAIL(d, "k-D tree query failed (levmax %d)", L);
        check_ints(d, got, ref, 4 * n, "corner mesh: compact hash vs k-D tree on all cores");
        put_row_mem(d, "%.0f", L, n, "kdtree_omp", kd2_bytes(n), time_host(h_kd_neigh2d_omp, &c, r));
    }
    if (c.err) FAIL(d, "k-D tree query failed (levmax %d)", L);
    kd2_free(&kd);
    free(boxes);
    put_row_mem(d, "%.0f", L, n, "compact_cpu", (double)ch_bytes(cap), time_host(h_ch_neigh2d, &c, r));
    if (c.err) FAIL(d, "compact hash failed while timed (levmax %d)", L);
    if (host_perfect) {
        c.t = (int *)host_alloc((size_t)perfect_bytes);
        memset(got, 0xAB, sizeof(int) * 4 * n);
        h_hash_neigh2d(&c);
        check_ints(d, got, ref, 4 * n, "corner mesh: perfect vs compact hash");
        put_row_mem(d, "%.0f", L, n, "perfect_cpu", perfect_bytes, time_host(h_hash_neigh2d, &c, r));
        free(c.t);
    }
    /* GPU: compact always, perfect while the table fits */
    gpu_ch_ctx g;
    g.n = (int)n; g.levmax = L; g.W = W; g.H = H; g.cap = cap;
    g.ci = (const int *)dev_dup(m.i, sizeof(int) * n, "cells");
    g.cj = (const int *)dev_dup(m.j, sizeof(int) * n, "cells");
    g.lev = (const int *)dev_dup(m.lev, sizeof(int) * n, "cells");
    g.keys = (unsigned long long *)dev_alloc(sizeof(unsigned long long) * cap, "compact keys");
    g.vals = (int *)dev_alloc(sizeof(int) * cap, "compact values");
    g.nb = (int *)dev_alloc(sizeof(int) * 4 * n, "neighbours");
    gpu_run_once(gpu_ch_neigh2d, &g, r, g.nb, got, sizeof(int) * 4 * n, 0xAB);
    check_ints(d, got, ref, 4 * n, "corner mesh: GPU vs CPU compact hash");
    put_row_mem(d, "%.0f", L, n, "compact_gpu", (double)ch_bytes(cap), time_gpu(gpu_ch_neigh2d, &g, r));
    if (perfect_bytes <= 0.8 * (double)gpu_free_bytes() && (double)W * H < 1099511627776.0) {
        gpu_hash_ctx p;
        memset(&p, 0, sizeof p);
        p.ci = g.ci; p.cj = g.cj; p.lev = g.lev; p.n = (int)n; p.levmax = L; p.W = W; p.H = H; p.m = W * H;
        p.t = (int *)dev_alloc((size_t)perfect_bytes, "2D perfect hash table");
        p.nb = g.nb;
        gpu_run_once(gpu_hash_neigh2d, &p, r, g.nb, got, sizeof(int) * 4 * n, 0xAB);
        check_ints(d, got, ref, 4 * n, "corner mesh: GPU perfect vs compact hash");
        put_row_mem(d, "%.0f", L, n, "perfect_gpu", perfect_bytes, time_gpu(gpu_hash_neigh2d, &p, r));
        CHECK_CUDA(cudaFree(p.t));
    } else
        fprintf(stderr, "  levmax %d: the perfect table (%.3g GB) does not fit in GPU memory: compact only\n", L,
                perfect_bytes / 1e9);
    const void *fr[] = {g.ci, g.cj, g.lev, g.keys, g.vals, g.nb};
    for (int k = 0; k < 6; k++) CHECK_CUDA(cudaFree((void *)fr[k]));
    free(keys); free(vals); free(ref); free(got);
    amr_free(&m);
}

/* 2D remap on corner-refined meshes of finest level L: old = radius 3/2 R (finer), new =
 * radius R, so a new cell gathers up to four old cells.  Compact hash (the reference, checked
 * against the k-D tree at every L: 1e-10, total conserved), perfect table while it fits, GPU. */
static void h_ch_remap2d(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    const chash *h = c->ch;
    c->err |= ch_remap2d_cpu(h->key, h->val, h->cap, c->mo->i, c->mo->j, c->mo->lev, c->mo->n, c->f->mean, c->f->gx,
                             c->f->gy, c->mw->i, c->mw->j, c->mw->lev, c->mw->n, c->mo->levmax, c->out);
}
static void measure_levmax_remap(const cfg *r, int L, datfile *d)
{
    amr_mesh mo, mw;
    amr_corner_generate(&mo, r->corner_side, L, r->corner_radius + r->corner_radius / 2, r->c.seed + (uint64_t)L * 73);
    amr_corner_generate(&mw, r->corner_side, L, r->corner_radius, r->c.seed + (uint64_t)L * 79);
    long na = mo.n, nb = mw.n, W = amr_width(&mo), H = amr_height(&mo);
    double perfect_bytes = (double)W * (double)H * sizeof(int);
    field f;
    field2d_make(&f, &mo, 2.0, 1.0 / W, -0.5 / H, 1.0, W / 5.0 + 3.0);
    double total = 0, scale = 0;
    for (long a = 0; a < na; a++) {
        double ar = (double)(1L << (mo.levmax - mo.lev[a])) * (double)(1L << (mo.levmax - mo.lev[a]));
        total += f.mean[a] * ar;
        scale += fabs(f.mean[a]) * ar;
    }
    chash h;
    h.cap = ch_capacity(na, r->load);
    h.key = (uint64_t *)host_alloc(sizeof(uint64_t) * h.cap);
    h.val = (int *)host_alloc(sizeof(int) * h.cap);
    char why[256];
    if (amr_validate_compact(&mw, 1, h.key, h.val, h.cap, why, sizeof why)) FAIL(d, "corner mesh (new, levmax %d): %s", L, why);
    if (amr_validate_compact(&mo, 1, h.key, h.val, h.cap, why, sizeof why)) FAIL(d, "corner mesh (old, levmax %d): %s", L, why);
    double *ref = (double *)host_alloc(sizeof(double) * nb), *got = (double *)host_alloc(sizeof(double) * nb);
    hr_ctx c;
    memset(&c, 0, sizeof c);
    c.mo = &mo; c.mw = &mw; c.f = &f; c.out = ref; c.na = na; c.nb = nb; c.ch = &h;
    h_ch_remap2d(&c);
    if (c.err) FAIL(d, "compact remap: a region found no old cell (levmax %d)", L);
    check_total(d, ref, nb, total, scale, "compact hash remap");
    kbox *ob = (kbox *)host_alloc(sizeof(kbox) * na), *nbx = (kbox *)host_alloc(sizeof(kbox) * nb);
    amr_boxes(&mo, ob);
    amr_boxes(&mw, nbx);
    int hits[64];
    kd2 kd;
    kd2_alloc(&kd, na);
    c.kd = &kd; c.ob = ob; c.nbx = nbx; c.hits = hits; c.cap = 64; c.out = got;
    memset(got, 0xFF, sizeof(double) * nb);
    h_kd_remap(&c);
    if (c.err) FAIL(d, "k-D tree remap: query overflow (levmax %d)", L);
    check_remap(d, got, ref, nb, "corner meshes: k-D tree vs compact hash remap");
    put_row_mem(d, "%.0f", L, nb, "kdtree", kd2_bytes(na), time_host(h_kd_remap, &c, r));
    kd2_free(&kd);
    free(ob); free(nbx);
    put_row_mem(d, "%.0f", L, nb, "compact_cpu", (double)ch_bytes(h.cap), time_host(h_ch_remap2d, &c, r));
    if (c.err) FAIL(d, "remap failed while timed (levmax %d)", L);
    if (perfect_bytes <= r->perfect_max_gib * 1073741824.0) {
        c.t = (int *)host_alloc((size_t)perfect_bytes);
        memset(got, 0xFF, sizeof(double) * nb);
        h_hash_remap2d(&c);
        check_remap(d, got, ref, nb, "corner meshes: perfect vs compact hash remap");
        put_row_mem(d, "%.0f", L, nb, "perfect_cpu", perfect_bytes, time_host(h_hash_remap2d, &c, r));
        free(c.t);
    }
    gpu_ch_remap_ctx g;
    g.na = (int)na; g.nb = (int)nb; g.levmax = L; g.cap = h.cap;
    g.oi = (const int *)dev_dup(mo.i, sizeof(int) * na, "old mesh");
    g.oj = (const int *)dev_dup(mo.j, sizeof(int) * na, "old mesh");
    g.ol = (const int *)dev_dup(mo.lev, sizeof(int) * na, "old mesh");
    g.ni = (const int *)dev_dup(mw.i, sizeof(int) * nb, "new mesh");
    g.nj = (const int *)dev_dup(mw.j, sizeof(int) * nb, "new mesh");
    g.nl = (const int *)dev_dup(mw.lev, sizeof(int) * nb, "new mesh");
    g.mean = (const double *)dev_dup(f.mean, sizeof(double) * na, "field");
    g.gx = (const double *)dev_dup(f.gx, sizeof(double) * na, "field");
    g.gy = (const double *)dev_dup(f.gy, sizeof(double) * na, "field");
    g.keys = (unsigned long long *)dev_alloc(sizeof(unsigned long long) * h.cap, "compact keys");
    g.vals = (int *)dev_alloc(sizeof(int) * h.cap, "compact values");
    g.err = (int *)dev_alloc(sizeof(int), "error flag");
    g.out = (double *)dev_alloc(sizeof(double) * nb, "remap output");
    CHECK_CUDA(cudaMemset(g.err, 0, sizeof(int)));
    CHECK_CUDA(cudaMemset(g.out, 0xFF, sizeof(double) * nb));
    gpu_ch_remap2d(&g, r->s);
    CHECK_CUDA(cudaStreamSynchronize(r->s));
    int gerr = 0;
    CHECK_CUDA(cudaMemcpy(&gerr, g.err, sizeof(int), cudaMemcpyDeviceToHost));
    if (gerr) FAIL(d, "GPU compact remap: a region found no old cell (levmax %d)", L);
    CHECK_CUDA(cudaMemcpy(got, g.out, sizeof(double) * nb, cudaMemcpyDeviceToHost));
    check_remap(d, got, ref, nb, "corner meshes: GPU vs CPU compact hash remap");
    check_total(d, got, nb, total, scale, "GPU compact hash remap");
    put_row_mem(d, "%.0f", L, nb, "compact_gpu", (double)ch_bytes(h.cap), time_gpu(gpu_ch_remap2d, &g, r));
    if (perfect_bytes <= 0.8 * (double)gpu_free_bytes() && (double)W * H < 1099511627776.0) {
        gpu_remap_ctx p;
        memset(&p, 0, sizeof p);
        p.oi = g.oi; p.oj = g.oj; p.ol = g.ol; p.ni = g.ni; p.nj = g.nj; p.nl = g.nl;
        p.mean = g.mean; p.gx = g.gx; p.gy = g.gy; p.na = (int)na; p.nb = (int)nb; p.levmax = L; p.W = W; p.H = H;
        p.t = (int *)dev_alloc((size_t)perfect_bytes, "2D perfect hash table");
        p.out = g.out;
        gpu_run_once(gpu_hash_remap2d, &p, r, g.out, got, sizeof(double) * nb, 0xFF);
        check_remap(d, got, ref, nb, "corner meshes: GPU perfect vs compact hash remap");
        put_row_mem(d, "%.0f", L, nb, "perfect_gpu", perfect_bytes, time_gpu(gpu_hash_remap2d, &p, r));
        CHECK_CUDA(cudaFree(p.t));
    }
    const void *fr[] = {g.oi, g.oj, g.ol, g.ni, g.nj, g.nl, g.mean, g.gx, g.gy, g.keys, g.vals, g.err, g.out};
    for (int k = 0; k < 13; k++) CHECK_CUDA(cudaFree((void *)fr[k]));
    free(h.key); free(h.val); free(ref); free(got);
    field_free(&f);
    amr_free(&mo);
    amr_free(&mw);
}

/* Clustered 1D keys (Pareto gaps of tail index alpha): the perfect table holds m = span /
 * dmin + 1 buckets, which outgrows n as alpha falls.  Introsort is the reference order;
 * the hash (CPU, GPU) runs while its table fits (host <= --perfect-max-gib, < 2^31 buckets,
 * device <= 80% free); the radix sorts on the bucket index while it fits 32 bits. */
static void measure_clustered(const cfg *r, double alpha, long n, datfile *d)
{
    keys1d k;
    keys1d_clustered(&k, n, 2.0, alpha, r->c.seed + (uint64_t)(alpha * 1000) + (uint64_t)n * 3);
    double tbytes = (double)k.m * sizeof(int);
    int bits = radix_bits_for(k.m);
    int fits_host = tbytes <= r->perfect_max_gib * 1073741824.0 && k.m < 2147483647L;
    int *ref = (int *)host_alloc(sizeof(int) * n), *got = (int *)host_alloc(sizeof(int) * n);
    bs_ctx b;
    bs_alloc(&b, &k, n, r->threads);
    b.buf = (qs_pair *)host_alloc(sizeof(qs_pair) * n);
    b.bits = bits;
    int *keep = b.idx;
    b.idx = ref;
    h_introsort1d(&b);
    for (long i = 1; i < n; i++)
        if (!(k.x[ref[i - 1]] < k.x[ref[i]])) FAIL(d, "clustered keys: introsort output not ascending at %ld", i);
    b.idx = got;
    put_row_mem(d, "%.2f", alpha, n, "introsort", tbytes, time_host(h_introsort1d, &b, r));
    if (bits <= 32) {
        int ths[2], nth = best_thread_counts(r, ths);
        for (int a = 0; a < nth; a++) {
            b.threads = ths[a];
            memset(got, 0xAB, sizeof(int) * n);
            h_radix1d(&b);
            check_ints(d, got, ref, n, "clustered keys: LSD radix vs introsort");
            put_row_mem(d, "%.2f", alpha, n, ths[a] == 1 ? "radix32_cpu" : "radix32_cpu_omp", tbytes, time_host(h_radix1d, &b, r));
        }
    }
    if (fits_host) {
        int *t = (int *)host_alloc((size_t)tbytes);
        h1_ctx hc = {&k, t, got, NULL, NULL, NULL, NULL, NULL};
        memset(got, 0xAB, sizeof(int) * n);
        if (hash_sort1d_cpu(k.x, n, k.xmin, k.dmin, t, k.m, got, NULL) != n) FAIL(d, "clustered keys: bucket collision");
        check_ints(d, got, ref, n, "clustered keys: CPU hash vs introsort");
        put_row_mem(d, "%.2f", alpha, n, "hash_cpu", tbytes, time_host(h_hash_sort1d, &hc, r));
        b.t = t;
        b.threads = r->threads;
        b.sorted = NULL;
        memset(got, 0xAB, sizeof(int) * n);
        h_hash_sort1d_omp(&b);
        check_ints(d, got, ref, n, "clustered keys: CPU hash on all cores vs introsort");
        put_row_mem(d, "%.2f", alpha, n, "hash_cpu_omp", tbytes, time_host(h_hash_sort1d_omp, &b, r));
        free(t);
    } else
        fprintf(stderr, "  alpha %.2f: perfect table of %ld buckets (%.3g GB) over the host limit: no CPU hash\n", alpha,
                k.m, tbytes / 1e9);
    /* GPU: the 64-bit CUB radix of the paper-style baseline always, radix32 and the hash while they fit */
    double *dx = (double *)dev_dup(k.x, sizeof(double) * n, "keys");
    radix_ctx rc;
    radix_ctx_make(&rc, dx, n, got, r->s);
    gpu_run_once(gpu_radix_sort, &rc, r, rc.vout, got, sizeof(int) * n, 0xAB);
    check_ints(d, got, ref, n, "clustered keys: CUB radix (64-bit) vs introsort");
    put_row_mem(d, "%.2f", alpha, n, "radix_gpu", tbytes, time_gpu(gpu_radix_sort, &rc, r));
    radix_ctx_free(&rc);
    if (bits <= 32) {
        gpu_radix32_ctx q;
        radix32_ctx_make(&q, &k, dx, n, bits);
        gpu_run_once(gpu_radix32_sort1d, &q, r, q.vout, got, sizeof(int) * n, 0xAB);
        check_ints(d, got, ref, n, "clustered keys: CUB radix on the bucket index vs introsort");
        put_row_mem(d, "%.2f", alpha, n, "radix32_gpu", tbytes, time_gpu(gpu_radix32_sort1d, &q, r));
        radix32_ctx_free(&q);
    }
    if (k.m < 2147483647L && 2.0 * tbytes <= 0.8 * (double)gpu_free_bytes()) {
        gpu_hash_ctx g;
        hash1d_ctx_make(&g, &k, n, dx);
        hash_sort_bufs(&g); /* g.sorted = NULL: indices only */
        gpu_run_once(gpu_hash_sort1d, &g, r, g.idx, got, sizeof(int) * n, 0xAB);
        check_ints(d, got, ref, n, "clustered keys: GPU hash vs introsort");
        put_row_mem(d, "%.2f", alpha, n, "hash_gpu", tbytes, time_gpu(gpu_hash_sort1d, &g, r));
        hash_sort_bufs_free(&g);
        CHECK_CUDA(cudaFree(g.t));
    } else
        fprintf(stderr, "  alpha %.2f: GPU hash table of %ld buckets does not fit: no GPU hash\n", alpha, k.m);
    CHECK_CUDA(cudaFree(dx));
    free(b.buf);
    b.idx = keep;
    bs_free(&b);
    free(ref); free(got);
    keys1d_free(&k);
}

/* ================= sweeps ================= */
static int sizes(const cfg *r, long *out)
{
    static const int full[] = {10, 12, 14, 16, 18, 20, 21, 22, 24};
    static const int quick[] = {10, 14, 16, 18};
    const int *s = r->c.quick ? quick : full;
    int k = 0, cnt = r->c.quick ? 4 : 9;
    for (int a = 0; a < cnt; a++)
        if (s[a] <= r->max_log2) out[k++] = 1L << s[a];
    return k;
}

int main(int argc, char **argv)
{
    cfg r;
    memset(&r, 0, sizeof r);
    r.c = common_opts_default();
    const char *exp = "fig3_3";
    r.max_log2 = 0; /* 0: 24, --quick 18 */
    r.cpu_max = 22;
    r.kd_max = 21;
    r.brute_max = 13;
    r.tab_log2 = 21;
    r.levmax = 1;
    r.frac = 0.3;
    r.threads = 0;
    r.corner_side = 256;
    r.corner_radius = 16;
    r.lev_max = 20;
    r.perfect_max_gib = 2;
    r.load = CH_MAX_LOAD;
    arg_opt opts[] = {
        COMMON_ARGS(r.c),
        {"exp", ARG_CHOICE, &exp, "experiment (one .dat file each)", 0, 0,
         "fig3_3 fig3_4 fig3_5 fig3_6 fig3_7 fig3_9 fig3_10 fig3_11 tab4_1 tab4_2 sort_best tab4_1_best tab4_2_best "
         "levmax clustered"},
        {"max-log2", ARG_INT, &r.max_log2, "largest size 2^k of the sweeps 2^10, 2^12, ..., 2^24 (0: 24, --quick 18; --quick: at most 18)", 10,
         24, NULL},
        {"cpu-max-log2", ARG_INT, &r.cpu_max, "largest size timed on the CPU (qsort, CPU hash, sort-based)", 4, 26, NULL},
        {"kd-max-log2", ARG_INT, &r.kd_max, "largest size for the k-D tree baselines", 4, 26, NULL},
        {"brute-max-log2", ARG_INT, &r.brute_max, "largest size for the O(n^2) brute force", 2, 18, NULL},
        {"tab-log2", ARG_INT, &r.tab_log2, "Table 4.1 takes the figures' rows nearest 2^k (paper: ~2 million)", 8, 24, NULL},
        {"levmax", ARG_INT, &r.levmax, "2D meshes: finest level (paper: 1)", 0, 16, NULL},
        {"refine-frac", ARG_DOUBLE, &r.frac, "2D meshes: fraction of coarse cells refined before smoothing", 0, 1, NULL},
        {"threads", ARG_INT, &r.threads, "OpenMP threads of the *_omp baselines (0: all)", 0, 4096, NULL},
        {"flush-l2", ARG_FLAG, &r.flush_l2, "GPU timings cold: each sample one run after overwriting 2x the L2 cache", 0, 1,
         NULL},
        {"corner-side", ARG_INT, &r.corner_side, "levmax: coarse cells per side of the corner-refined mesh", 1, 4096, NULL},
        {"corner-radius", ARG_INT, &r.corner_radius, "levmax: refined radius in cells of each level (>= 2: 2:1 balance)", 2,
         1024, NULL},
        {"lev-max", ARG_INT, &r.lev_max, "levmax: the sweep's largest finest level", 0, 24, NULL},
        {"perfect-max-gib", ARG_DOUBLE, &r.perfect_max_gib, "levmax, clustered: largest perfect table run on the host (GiB)",
         0, 1024, NULL},
        {"load", ARG_DOUBLE, &r.load, "compact hash load factor (slots = power of two >= cells / load)", 0.05, 1, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "hashmesh --exp=NAME [options]",
               "Perfect spatial hashing (Robey, Nicholaeff, Robey): sort, neighbours, remap, table look-up\n"
               "on the CPU (serial C) and the GPU, against qsort, CUB radix sort, k-D trees and brute force.");
    common_opts_finish(&r.c);
    if (r.c.quick && r.max_log2 > 18) DIE_USAGE("--max-log2=%d: --quick allows at most 18", r.max_log2);
    if (!r.max_log2) r.max_log2 = r.c.quick ? 18 : 24;
    if (r.c.quick) {
        if (r.tab_log2 > 16) r.tab_log2 = 16;
        if (r.kd_max > 16) r.kd_max = 16;
        if (r.brute_max > 11) r.brute_max = 11;
    }
    r.argc = argc;
    r.argv = argv;
    if (r.threads == 0) r.threads = best_max_threads();
    if (!strcmp(exp, "levmax") && ((long)r.corner_side << r.lev_max) >= (1L << CH_COORD_BITS))
        DIE_USAGE("--corner-side=%d << --lev-max=%d does not fit the compact key (%d bits per coordinate)", r.corner_side,
                  r.lev_max, CH_COORD_BITS);
    r.best = !strcmp(exp, "sort_best") || !strcmp(exp, "tab4_1_best") || !strcmp(exp, "tab4_2_best");
    if (!strcmp(exp, "fig3_5") || !strcmp(exp, "fig3_7") || !strcmp(exp, "fig3_10"))
        mesh_side_checked(&r, 1L << r.max_log2); /* bad sizes are refused before the GPU is needed */
    device_require(r.c.device, 7, 5);
    device_describe(r.c.device, r.gpu, sizeof r.gpu);
    host_cpu_name(r.cpu, sizeof r.cpu);
    struct cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, r.c.device));
    r.l2 = (size_t)prop.l2CacheSize;
    CHECK_CUDA(cudaStreamCreate(&r.s));
    if (r.flush_l2) {
        r.flush_bytes = 2 * r.l2;
        r.flush = dev_alloc(r.flush_bytes, "L2 flush buffer");
    }
    /* the host's memory ceiling (common/host.h), for every file's metadata */
    r.triad1 = host_triad_gbs((size_t)1 << (r.c.quick ? 22 : 25), 1, 3);
    r.triadn = host_triad_gbs((size_t)1 << (r.c.quick ? 22 : 25), r.threads, 3);

    long ns[16];
    int nn = sizes(&r, ns);
    datfile df;
    datfile *d = &df;
    if (!strcmp(exp, "fig3_3")) {
        open_dat(d, &r, "hashmesh_fig3_3_sort1d.dat", "Fig. 3.3 (1D sort: qsort, CPU hash, GPU hash, radix)",
                 "dmax/dmin (2 here; dmin = 2, dmax = 4 as in the paper)");
        for (int a = 0; a < nn; a++) measure_sort1d(&r, ns[a], 2.0, d, 2.0, NULL, 3);
    } else if (!strcmp(exp, "fig3_4")) {
        open_dat(d, &r, "hashmesh_fig3_4_sort_ratio.dat", "Fig. 3.4 (1D sort vs dmax/dmin)",
                 "dmax/dmin (dmin = 2): the hash table grows with the ratio");
        long n = r.c.quick ? 1L << 14 : 1L << 20;
        double ratios[] = {1, 2, 4, 8, 16, 32};
        for (int a = 0; a < 6; a++) measure_sort1d(&r, n, ratios[a], d, ratios[a], NULL, 3);
    } else if (!strcmp(exp, "fig3_5")) {
        open_dat(d, &r, "hashmesh_fig3_5_sort2d.dat", "Fig. 3.5 (2D sort of AMR cells)", "finest-level hash buckets W*H");
        for (int a = 0; a < nn; a++) measure_sort2d(&r, ns[a], d, NULL);
    } else if (!strcmp(exp, "fig3_6")) {
        open_dat(d, &r, "hashmesh_fig3_6_neigh1d.dat", "Fig. 3.6 (1D neighbours)", "unused (0)");
        for (int a = 0; a < nn; a++) measure_neigh1d(&r, ns[a], d, NULL);
    } else if (!strcmp(exp, "fig3_7")) {
        open_dat(d, &r, "hashmesh_fig3_7_neigh2d.dat", "Fig. 3.7 (2D neighbours, Listing 2)", "finest-level hash buckets W*H");
        for (int a = 0; a < nn; a++) measure_neigh2d(&r, ns[a], d, NULL);
    } else if (!strcmp(exp, "fig3_9")) {
        open_dat(d, &r, "hashmesh_fig3_9_remap1d.dat", "Fig. 3.9 (1D remap, Listings 3 and 4)", "domain length L (buckets)");
        for (int a = 0; a < nn; a++) measure_remap1d(&r, ns[a], d, NULL);
    } else if (!strcmp(exp, "fig3_10")) {
        open_dat(d, &r, "hashmesh_fig3_10_remap2d.dat", "Fig. 3.10 (2D remap)", "finest-level hash buckets W*H");
        for (int a = 0; a < nn; a++) measure_remap2d(&r, ns[a], d, NULL);
    } else if (!strcmp(exp, "fig3_11")) {
        open_dat(d, &r, "hashmesh_fig3_11_table.dat", "Fig. 3.11 (table look-up, Listing 5)", "table entries (51 x 23)");
        for (int a = 0; a < nn; a++) measure_table(&r, ns[a], d, NULL, prop.multiProcessorCount);
    } else if (!strcmp(exp, "sort_best")) { /* issue 12: the 1D sort against the sorts a user would pick */
        open_dat(d, &r, r.flush_l2 ? "hashmesh_sort_best_cold.dat" : "hashmesh_sort_best.dat",
                 "issue 12: 1D sort vs the best baselines (introsort, LSD radix on the bucket index, CUB radix 32-bit)",
                 "dmax/dmin (2, as Fig. 3.3)");
        datfile_meta(d, "methods", "introsort, radix32_cpu, hash_cpu: one core; *_omp: %d threads; radix_gpu: CUB 64-bit keys "
                     "(the paper-style baseline); radix32_gpu: CUB on the 32-bit bucket index, end_bit = ceil(log2 m), key "
                     "generation included; hash_gpu_job: with host<->device transfers (pinned)", r.threads);
        for (int a = 0; a < nn; a++) measure_sort1d(&r, ns[a], 2.0, d, 2.0, NULL, 2 | 4 | 8);
    } else if (!strcmp(exp, "tab4_2_best")) { /* issue 12: Table 4.2 against CUB radix on the 32-bit bucket index */
        static const int lg_full[] = {16, 18, 19, 20, 21, 22, 23, 24}, lg_quick[] = {14, 16};
        const int *lg = r.c.quick ? lg_quick : lg_full;
        int cnt = r.c.quick ? 2 : 8, nrow = 0;
        results row[8];
        long rn[8];
        for (int a = 0; a < cnt; a++) {
            if (lg[a] > r.max_log2) continue;
            memset(&row[nrow], 0, sizeof row[nrow]);
            rn[nrow] = 1L << lg[a];
            measure_sort1d(&r, rn[nrow], 2.0, NULL, 2.0, &row[nrow], 2 | 8);
            nrow++;
        }
        dat_meta m = dat_meta_of("hashmesh/hashmesh", "issue 12: Table 4.2 against the strongest GPU radix sort", argc, argv,
                                 r.gpu, &r.c);
        datfile_open(d, r.c.out, r.flush_l2 ? "hashmesh_tab4_2_best_cold.dat" : "hashmesh_tab4_2_best.dat", &m);
        datfile_meta(d, "baselines", "radix64: CUB SortPairs of the double keys, all 64 bits (Table 4.2 as in the paper); "
                     "radix32: CUB SortPairs of the 32-bit bucket index over end_bit bits, key generation included");
        datfile_meta(d, "l2_bytes", "%zu", r.l2);
        datfile_meta(d, "fits_l2", "1 when the hash sort's n (8 + 8 + 4 + 4) + 8 table_buckets bytes fit in l2_bytes");
        datfile_meta(d, "flush_l2", "%d (1: every sample one cold run)", r.flush_l2);
        datfile_columns(d, "n table_buckets end_bit fits_l2 hash_ms hash_job_ms radix64_ms radix32_ms hash_vs_radix64_x "
                           "hash_vs_radix32_x");
        for (int a = 0; a < nrow; a++) {
            const results *q = &row[a];
            double h = res_get(q, "hash_gpu"), r64 = res_get(q, "radix_gpu"), r32 = res_get(q, "radix32_gpu");
            int fits = (size_t)rn[a] * (8 + 8 + 4 + 4) + (size_t)q->m * 8 <= r.l2;
            datfile_row(d, "%ld %ld %d %d %.6f %.6f %.6f %.6f %.3f %.3f", rn[a], q->m, q->end_bit, fits, h,
                        res_get(q, "hash_gpu_job"), r64, r32, r64 / h, r32 / h);
        }
    } else if (!strcmp(exp, "tab4_1_best")) { /* issue 12: Table 4.1 against the best serial and all-core baselines */
        const char *alg[7] = {"Sort", "Sort2D", "Neighbor", "Neighbor2D", "Remap", "Remap2D", "Table"};
        const char *paper_ref[7] = {"qsort", "qsort", "kdtree", "kdtree", "kdtree", "kdtree", "bisection"};
        /* candidates, one core / all cores (the best of each is named in the row) */
        const char *serial[7][3] = {{"qsort", "introsort", "radix32_cpu"}, {"qsort", "radix32_cpu", NULL},
                                    {"kdtree", "radix32_cpu", NULL},        {"kdtree", NULL, NULL},
                                    {"kdtree", "sort_based", NULL},         {"kdtree", NULL, NULL},
                                    {"bisection", "linear", NULL}};
        const char *omp[7][2] = {{"radix32_cpu_omp", NULL}, {"radix32_cpu_omp", NULL}, {"kdtree_omp", "radix32_cpu_omp"},
                                 {"kdtree_omp", NULL},      {"kdtree_omp", NULL},      {"kdtree_omp", NULL},
                                 {"bisection_omp", NULL}};
        long n = 1L << r.tab_log2;
        datfile dt; /* every method's time (an algorithm column first), then the table */
        results res[7];
        for (int a = 0; a < 7; a++) {
            memset(&res[a], 0, sizeof res[a]);
            res[a].alg = alg[a];
        }
        dat_meta mt = dat_meta_of("hashmesh/hashmesh", "issue 12: the times behind hashmesh_tab4_1_best.dat", argc, argv,
                                  r.gpu, &r.c);
        datfile_open(&dt, r.c.out, r.flush_l2 ? "hashmesh_tab4_1_best_times_cold.dat" : "hashmesh_tab4_1_best_times.dat", &mt);
        datfile_meta(&dt, "cpu", "%s; *_omp rows: %d OpenMP threads", r.cpu, r.threads);
        meta_triad(&dt, &r);
        datfile_meta(&dt, "flush_l2", "%d", r.flush_l2);
        datfile_meta(&dt, "param", "as the figure files: 1D sort dmax/dmin; 2D buckets W*H; 1D remap L; table entries");
        datfile_columns(&dt, "algorithm n param method median_ms min_ms max_ms reps batch mitems_s");
        measure_sort1d(&r, n, 2.0, &dt, 2.0, &res[0], 15);
        measure_sort2d(&r, n, &dt, &res[1]);
        measure_neigh1d(&r, n, &dt, &res[2]);
        measure_neigh2d(&r, n, &dt, &res[3]);
        measure_remap1d(&r, n, &dt, &res[4]);
        measure_remap2d(&r, n, &dt, &res[5]);
        measure_table(&r, n, &dt, &res[6], prop.multiProcessorCount);
        datfile_commit(&dt);
        dat_meta m = dat_meta_of("hashmesh/hashmesh", "issue 12: Table 4.1 against the best baselines (one core, all cores)",
                                 argc, argv, r.gpu, &r.c);
        datfile_open(d, r.c.out, r.flush_l2 ? "hashmesh_tab4_1_best_cold.dat" : "hashmesh_tab4_1_best.dat", &m);
        datfile_meta(d, "cpu", "%s; all-core columns: %d OpenMP threads", r.cpu, r.threads);
        meta_triad(d, &r);
        datfile_meta(d, "flush_l2", "%d", r.flush_l2);
        datfile_meta(d, "n", "about 2^%d (2D: the mesh nearest it; every column's n is the row's)", r.tab_log2);
        datfile_meta(d, "best", "best_serial: fastest of the one-core baselines measured (the paper's reference included); "
                     "best_omp: fastest of those and the all-core baselines; gpu_ms: device work only; gpu_job_ms: with "
                     "host<->device transfers of inputs and outputs (pinned)");
        datfile_columns(d, "algorithm paper_ref paper_ref_ms best_serial best_serial_ms best_omp best_omp_ms hash_cpu_ms "
                           "hash_cpu_omp_ms gpu_ms gpu_job_ms cpu_hash_vs_paper_ref_x cpu_hash_vs_best_serial_x "
                           "hash_omp_vs_best_omp_x gpu_vs_best_omp_x gpu_job_vs_best_omp_x gpu_vs_paper_ref_x");
        for (int a = 0; a < 7; a++) {
            const results *q = &res[a];
            const char *bs = NULL, *bo = NULL;
            double bsm = -1, bom = -1;
            for (int c = 0; c < 3; c++) {
                double v = serial[a][c] ? res_get(q, serial[a][c]) : -1;
                if (v > 0 && (bsm < 0 || v < bsm)) { bsm = v; bs = serial[a][c]; }
            }
            bo = bs;
            bom = bsm;
            for (int c = 0; c < 2; c++) {
                double v = omp[a][c] ? res_get(q, omp[a][c]) : -1;
                if (v > 0 && (bom < 0 || v < bom)) { bom = v; bo = omp[a][c]; }
            }
            double pr = res_get(q, paper_ref[a]), hc = res_get(q, "hash_cpu"), ho = res_get(q, "hash_cpu_omp"),
                   g = res_get(q, "hash_gpu"), gj = res_get(q, "hash_gpu_job");
            if (!bs || pr <= 0 || hc <= 0 || ho <= 0 || g <= 0 || gj <= 0)
                FAIL(d, "Table 4.1 best: %s lacks a measurement (sizes above the --cpu-max-log2/--kd-max-log2 caps?)", alg[a]);
            datfile_row(d, "%s %s %.6f %s %.6f %s %.6f %.6f %.6f %.6f %.6f %.2f %.2f %.2f %.2f %.2f %.1f", alg[a], paper_ref[a],
                        pr, bs, bsm, bo, bom, hc, ho, g, gj, pr / hc, bsm / hc, bom / ho, bom / g, bom / gj, pr / g);
            fprintf(stderr, "  %-10s CPU hash %6.2fx %s (paper-style %6.2fx %s); all cores: hash %6.2fx %s; GPU %7.1fx, "
                            "GPU job %6.1fx %s\n", alg[a], bsm / hc, bs, pr / hc, paper_ref[a], bom / ho, bo, bom / g,
                    bom / gj, bo);
        }
    } else if (!strcmp(exp, "levmax")) { /* issue 12: perfect vs compact vs k-D tree as the finest level grows */
        dat_meta m = dat_meta_of("hashmesh/hashmesh", "issue 12: 2D neighbours vs levmax (perfect table, compact hash, "
                                 "k-D tree) on a corner-refined mesh", argc, argv, r.gpu, &r.c);
        datfile_open(d, r.c.out, "hashmesh_levmax_neigh.dat", &m);
        datfile_meta(d, "mesh", "corner-refined: %d x %d coarse cells, refined where i^2 + j^2 < %d^2 (cells of each level) "
                     "up to levmax", r.corner_side, r.corner_side, r.corner_radius);
        datfile_meta(d, "cpu", "%s; *_omp rows: %d OpenMP threads", r.cpu, r.threads);
        meta_triad(d, &r);
        datfile_meta(d, "table_bytes", "perfect: 4 (side 2^levmax)^2; compact: 12 x slots (load factor %.2f); kdtree: "
                     "boxes + nodes", r.load);
        datfile_meta(d, "limits", "perfect table on the host up to %.1f GiB, on the GPU up to 80%% of free memory",
                     r.perfect_max_gib);
        datfile_columns(d, "levmax n method table_bytes median_ms min_ms max_ms reps batch mitems_s");
        int top = r.c.quick ? (r.lev_max < 8 ? r.lev_max : 8) : r.lev_max;
        for (int L = 0; L <= top; L += (L < 8 ? 1 : 2)) measure_levmax(&r, L, d);
        datfile_commit(d);
        m = dat_meta_of("hashmesh/hashmesh", "issue 12: 2D remap vs levmax (perfect table, compact hash, k-D tree) between "
                        "two corner-refined meshes", argc, argv, r.gpu, &r.c);
        datfile_open(d, r.c.out, "hashmesh_levmax_remap.dat", &m);
        datfile_meta(d, "mesh", "old: %d x %d coarse cells refined where i^2 + j^2 < %d^2; new: the same with radius %d; "
                     "n = new cells", r.corner_side, r.corner_side, r.corner_radius + r.corner_radius / 2, r.corner_radius);
        datfile_meta(d, "cpu", "%s", r.cpu);
        meta_triad(d, &r);
        datfile_meta(d, "table_bytes", "perfect: 4 (side 2^levmax)^2; compact: 12 x slots (load factor %.2f); kdtree: "
                     "boxes + nodes of the old mesh", r.load);
        datfile_columns(d, "levmax n method table_bytes median_ms min_ms max_ms reps batch mitems_s");
        for (int L = 0; L <= top; L += (L < 8 ? 1 : 2)) measure_levmax_remap(&r, L, d);
    } else if (!strcmp(exp, "clustered")) { /* issue 12: heavy-tailed gaps blow the perfect table up */
        dat_meta m = dat_meta_of("hashmesh/hashmesh", "issue 12: 1D sort of clustered keys (Pareto gaps)", argc, argv,
                                 r.gpu, &r.c);
        datfile_open(d, r.c.out, "hashmesh_clustered_sort.dat", &m);
        datfile_meta(d, "keys", "gaps dmin floor(u^(-1/alpha)), dmin = 2, u uniform in (0, 1]: alpha <= 1 has no mean gap");
        datfile_meta(d, "cpu", "%s; *_omp rows: %d OpenMP threads", r.cpu, r.threads);
        meta_triad(d, &r);
        datfile_meta(d, "table_bytes", "on every row: the perfect table these keys need, 4 m bytes (the GPU hash also "
                     "allocates a scan output of the same size)");
        datfile_columns(d, "alpha n method table_bytes median_ms min_ms max_ms reps batch mitems_s");
        long n = r.c.quick ? 1L << 14 : 1L << 20;
        const double alphas[] = {2.0, 1.5, 1.2, 1.0, 0.8, 0.7, 0.6}, alphas_quick[] = {2.0, 1.0, 0.8};
        for (int a = 0; a < (r.c.quick ? 3 : 7); a++) measure_clustered(&r, r.c.quick ? alphas_quick[a] : alphas[a], n, d);
    } else if (!strcmp(exp, "tab4_2")) {
        /* measured (and verified) first, written after: a failed check inside measure_sort1d
         * then leaves no half-written hashmesh_tab4_2_*.dat.tmp behind */
        static const int lg_full[] = {16, 18, 20, 21, 22, 23, 24}, lg_quick[] = {14, 16};
        const int *lg = r.c.quick ? lg_quick : lg_full;
        int cnt = r.c.quick ? 2 : 7, nrow = 0;
        struct {
            long n, m;
            double hash_ms, radix_ms;
        } row[7];
        for (int a = 0; a < cnt; a++) {
            if (lg[a] > r.max_log2) continue;
            results res;
            memset(&res, 0, sizeof res);
            row[nrow].n = 1L << lg[a];
            measure_sort1d(&r, row[nrow].n, 2.0, NULL, 2.0, &res, 2);
            row[nrow].m = res.m;
            row[nrow].hash_ms = res_get(&res, "hash_gpu");
            row[nrow].radix_ms = res_get(&res, "radix_gpu");
            nrow++;
        }
        dat_meta m = dat_meta_of("hashmesh/hashmesh", "Table 4.2 (GPU hash sort vs fastest general-purpose GPU sort)",
                                 argc, argv, r.gpu, &r.c);
        datfile_open(d, r.c.out, "hashmesh_tab4_2_hash_vs_radix.dat", &m);
        datfile_meta(d, "baseline", "CUB DeviceRadixSort::SortPairs (double keys, int indices, 64 bits) replaces CUDPP radix");
        datfile_meta(d, "l2_bytes", "%zu", r.l2);
        datfile_meta(d, "fits_l2", "1 when n (8 + 8 + 4 + 4) + 8 table_buckets bytes fit in l2_bytes (an estimate)");
        datfile_meta(d, "paper", "NVIDIA (Tesla C2050) hash vs CUDPP radix: 2.68x; ATI hash: 3.57x (at about 2 million keys)");
        datfile_columns(d, "n table_buckets fits_l2 gpu_hash_ms radix_ms speedup_x paper_nvidia_x");
        for (int a = 0; a < nrow; a++) {
            int fits = (size_t)row[a].n * (8 + 8 + 4 + 4) + (size_t)row[a].m * 8 <= r.l2;
            datfile_row(d, "%ld %ld %d %.6f %.6f %.3f %.2f", row[a].n, row[a].m, fits, row[a].hash_ms, row[a].radix_ms,
                        row[a].radix_ms / row[a].hash_ms, 2.68);
        }
    } else { /* tab4_1: from the figures' data at the size nearest 2^tab-log2 */
        dat_meta m = dat_meta_of("hashmesh/hashmesh", "Table 4.1 (algorithm speed-ups at about 2 million elements)", argc,
                                 argv, r.gpu, &r.c);
        const char *alg[7] = {"Sort", "Sort2D", "Neighbor", "Neighbor2D", "Remap", "Remap2D", "Table"};
        const char *src[7] = {"hashmesh_fig3_3_sort1d.dat", "hashmesh_fig3_5_sort2d.dat", "hashmesh_fig3_6_neigh1d.dat",
                              "hashmesh_fig3_7_neigh2d.dat", "hashmesh_fig3_9_remap1d.dat", "hashmesh_fig3_10_remap2d.dat",
                              "hashmesh_fig3_11_table.dat"};
        const char *refm[7] = {"qsort", "qsort", "kdtree", "kdtree", "kdtree", "kdtree", "bisection"};
        const double paper[7][3] = {{4.16, 21.5, 89.3}, {16.2, 26.2, 424.1}, {54.4, 16.6, 903.5}, {75.5, 19.1, 1444.0},
                                    {18.4, 26.9, 495.2}, {13.6, 42.2, 574.0}, {2.44, 55.7, 136.2}};
        tab_row rows[7];
        for (int a = 0; a < 7; a++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", r.c.out, src[a]);
            if (tab_find(path, refm[a], 1L << r.tab_log2, &rows[a]))
                DIE("Table 4.1 needs %s with %s, hash_cpu and hash_gpu rows (make the figures first)", path, refm[a]);
        }
        datfile_open(d, r.c.out, "hashmesh_tab4_1_speedups.dat", &m);
        datfile_meta(d, "source", "the rows of the Fig. 3.3/3.5/3.6/3.7/3.9/3.10/3.11 data at the size nearest 2^%d", r.tab_log2);
        datfile_meta(d, "reference", "Sort, Sort2D: qsort; Neighbor, Remap (1D, 2D): k-D tree; Table: bisection");
        datfile_meta(d, "cpu", "serial C on one core of the GPU host (%s)", r.cpu);
        datfile_meta(d, "paper", "columns paper_*: Table 4.1, NVIDIA Tesla C2050 GPU vs one AMD Opteron 6168 core");
        datfile_columns(d, "algorithm n ref_method ref_ms cpu_hash_ms gpu_hash_ms cpu_hash_vs_ref_x gpu_vs_cpu_hash_x "
                           "gpu_vs_ref_x paper_cpu_hash_vs_ref_x paper_gpu_vs_cpu_hash_x paper_gpu_vs_ref_x");
        for (int a = 0; a < 7; a++) {
            tab_row *t = &rows[a];
            datfile_row(d, "%s %ld %s %.6f %.6f %.6f %.2f %.2f %.1f %.2f %.1f %.1f", alg[a], t->n, refm[a], t->ref, t->cpu,
                        t->gpu, t->ref / t->cpu, t->cpu / t->gpu, t->ref / t->gpu, paper[a][0], paper[a][1], paper[a][2]);
            fprintf(stderr, "  %-10s n %8ld: CPU hash %7.2fx over %s (paper %.2f), GPU %7.1fx over CPU hash (paper %.1f), "
                            "%8.1fx over %s (paper %.1f)\n",
                    alg[a], t->n, t->ref / t->cpu, refm[a], paper[a][0], t->cpu / t->gpu, paper[a][1], t->ref / t->gpu,
                    refm[a], paper[a][2]);
        }
    }
    datfile_commit(d);
    CHECK_CUDA(cudaStreamDestroy(r.s));
    return 0;
}
