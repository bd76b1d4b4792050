/* harness.cuh -- what every hashmesh experiment shares: the options, allocation, the row writer
 * and the verify-then-time step (common/runcase.h), for the measurements of sec. 3 and 4.
 *
 * An experiment describes each method as a case: the work (a CPU function or a GPU pipeline
 * that only enqueues on a stream), its outputs and their references.  hm_run() then does the
 * contract of common/runcase.h -- poison the outputs, run once, compare (a mismatch: message,
 * exit 1, no data file), time -- and writes the row.  Two timing rules of this program sit on
 * top of runcase.h (see hm_time): slow serial CPU baselines get fewer samples, and with
 * --flush-l2 every GPU sample is one cold run. */
#ifndef HASHMESH_HARNESS_CUH
#define HASHMESH_HARNESS_CUH

#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/verify.h"
#include "../common/runcase.h"
#include "gen.h"
#include "hash.h"
#include "baseline.h"
#include "best.h"
#include "compact.h"
#include "kernels.cuh"

#define LEVMAX_SWEEP_TOP 20 /* --exp=levmax: the sweep's largest finest level by default */
#define HM_RTOL 1e-10       /* remaps and look-ups: |got - ref| <= HM_ATOL + HM_RTOL |ref| */
#define HM_ATOL 1e-9

/* ---------------- options ---------------- */
typedef struct {
    common_opts c;
    const char *exp;
    int max_log2, cpu_max, kd_max, brute_max, tab_log2; /* sweep sizes, caps of the slow baselines */
    int levmax;          /* 2D meshes: finest level; --exp=levmax: the sweep's largest */
    double frac;         /* 2D meshes: fraction of coarse cells refined */
    int threads;         /* OpenMP threads of the *_omp rows */
    int flush_l2;        /* every GPU sample one cold run after overwriting 2x the L2 */
    int corner_side, corner_radius;
    double perfect_max_gib, load;
    /* the run's environment, set by hm_start() once the GPU is known */
    int argc;
    char **argv;
    char gpu[256], cpu[256];
    cudaStream_t s;
    size_t l2;
    int sms;
    void *flush;
    size_t flush_bytes;
    double triad1, triadn; /* the host's memory ceiling, one thread and all threads (GB/s) */
} hm_opts;

static hm_opts hm_parse(int argc, char **argv)
{
    hm_opts o;
    memset(&o, 0, sizeof o);
    o.c = common_opts_default();
    o.exp = NULL;
    o.cpu_max = 22;
    o.kd_max = 21;
    o.brute_max = 13;
    o.tab_log2 = 21;
    o.levmax = -1;
    o.frac = 0.3;
    o.corner_side = 256;
    o.corner_radius = 16;
    o.perfect_max_gib = 2;
    o.load = CH_MAX_LOAD;
    arg_opt opts[] = {
        COMMON_ARGS(o.c),
        {"exp", ARG_STR, &o.exp, "experiment (--exp=list: the table, no GPU needed)", 0, 0, NULL},
        {"max-log2", ARG_INT, &o.max_log2, "largest size 2^k of the sweeps 2^10, 2^12, ..., 2^24 (0: 24, --quick 18; --quick: at most 18)", 10,
         24, NULL},
        {"cpu-max-log2", ARG_INT, &o.cpu_max, "largest size timed on the CPU (qsort, CPU hash, sort-based)", 4, 26, NULL},
        {"kd-max-log2", ARG_INT, &o.kd_max, "largest size for the k-D tree baselines", 4, 26, NULL},
        {"brute-max-log2", ARG_INT, &o.brute_max, "largest size for the O(n^2) brute force", 2, 18, NULL},
        {"tab-log2", ARG_INT, &o.tab_log2, "Table 4.1 takes the figures' rows nearest 2^k (paper: ~2 million)", 8, 24, NULL},
        {"levmax", ARG_INT, &o.levmax, "finest level: 2D meshes use it (-1: 1, the paper's); --exp=levmax sweeps 0..levmax (-1: 20)",
         -1, 24, NULL},
        {"refine-frac", ARG_DOUBLE, &o.frac, "2D meshes: fraction of coarse cells refined before smoothing", 0, 1, NULL},
        {"threads", ARG_INT, &o.threads, "OpenMP threads of the *_omp baselines (0: all)", 0, 4096, NULL},
        {"flush-l2", ARG_FLAG, &o.flush_l2, "GPU timings cold: each sample one run after overwriting 2x the L2 cache", 0, 1,
         NULL},
        {"corner-side", ARG_INT, &o.corner_side, "levmax: coarse cells per side of the corner-refined mesh", 1, 4096, NULL},
        {"corner-radius", ARG_INT, &o.corner_radius, "levmax: refined radius in cells of each level (>= 2: 2:1 balance)", 2,
         1024, NULL},
        {"perfect-max-gib", ARG_DOUBLE, &o.perfect_max_gib, "levmax, clustered: largest perfect table run on the host (GiB)",
         0, 1024, NULL},
        {"load", ARG_DOUBLE, &o.load, "compact hash load factor (slots = power of two >= cells / load)", 0.05, 1, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "hashmesh --exp=NAME [options]",
               "Perfect spatial hashing (Robey, Nicholaeff, Robey): sort, neighbours, remap, table look-up\n"
               "on the CPU (serial C) and the GPU, against qsort, CUB radix sort, k-D trees and brute force.");
    common_opts_finish(&o.c);
    if (o.c.quick && o.max_log2 > 18) DIE_USAGE("--max-log2=%d: --quick allows at most 18", o.max_log2);
    if (!o.max_log2) o.max_log2 = o.c.quick ? 18 : 24;
    if (o.c.quick) {
        if (o.tab_log2 > 16) o.tab_log2 = 16;
        if (o.kd_max > 16) o.kd_max = 16;
        if (o.brute_max > 11) o.brute_max = 11;
    }
    if (o.threads == 0) o.threads = best_max_threads();
    o.argc = argc;
    o.argv = argv;
    return o;
}

/* The 2D perfect hash table, (side * 2^levmax)^2 buckets, must fit: at most 16 GiB and
 * fewer than 2^31 buckets (32-bit indices; it also bounds the cell count). Else exit 2. */
static int mesh_side_checked(const hm_opts *r, long target)
{
    int side = amr_side_for(target, r->levmax, r->frac);
    double buckets = (double)((long)side << r->levmax) * (double)((long)side << r->levmax);
    if (buckets * sizeof(int) > 16.0 * 1073741824.0 || buckets >= 2147483647.0)
        DIE_USAGE("the 2D perfect hash table, (%d * 2^%d)^2 = %.3g buckets (%.1f GiB), does not fit (limits: 2^31 - 1 "
                  "buckets, 16 GiB): lower --levmax or --max-log2", side, r->levmax, buckets, buckets * 4 / 1073741824.0);
    return side;
}

/* The experiment's own defaults and the refusals that need no GPU (exit 2 before it is touched). */
static void hm_resolve(hm_opts *o, const char *exp)
{
    int sweep = !strcmp(exp, "levmax");
    if (o->levmax < 0) o->levmax = sweep ? LEVMAX_SWEEP_TOP : 1;
    if (sweep && ((long)o->corner_side << o->levmax) >= (1L << CH_COORD_BITS))
        DIE_USAGE("--corner-side=%d << --levmax=%d does not fit the compact key (%d bits per coordinate)", o->corner_side,
                  o->levmax, CH_COORD_BITS);
    if (!strcmp(exp, "fig3_5") || !strcmp(exp, "fig3_7") || !strcmp(exp, "fig3_10")) mesh_side_checked(o, 1L << o->max_log2);
    if (!strcmp(exp, "tab4_1_best")) mesh_side_checked(o, 1L << o->tab_log2);
}

/* The host CPU's model name (the CPU columns of every figure and of Table 4.1 depend on it). */
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

static void *dev_alloc(size_t bytes, const char *what) { return device_alloc_or_usage(bytes, what); }
static void *dev_dup(const void *h, size_t bytes, const char *what)
{
    void *p = dev_alloc(bytes, what);
    CHECK_CUDA(cudaMemcpy(p, h, bytes, cudaMemcpyHostToDevice));
    return p;
}
static void dev_free_all(const void *const *p, int n)
{
    for (int k = 0; k < n; k++) CHECK_CUDA(cudaFree((void *)p[k]));
}
static void *host_alloc(size_t bytes) { return gen_alloc(bytes); }

/* The GPU and host facts every data file records; the stream all GPU work runs on. */
static void hm_start(hm_opts *o)
{
    device_describe(o->c.device, o->gpu, sizeof o->gpu);
    host_cpu_name(o->cpu, sizeof o->cpu);
    struct cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, o->c.device));
    o->l2 = (size_t)prop.l2CacheSize;
    o->sms = prop.multiProcessorCount;
    CHECK_CUDA(cudaStreamCreate(&o->s));
    if (o->flush_l2) {
        o->flush_bytes = 2 * o->l2;
        o->flush = dev_alloc(o->flush_bytes, "L2 flush buffer");
    }
    o->triad1 = host_triad_gbs((size_t)1 << (o->c.quick ? 22 : 25), 1, 3);
    o->triadn = host_triad_gbs((size_t)1 << (o->c.quick ? 22 : 25), o->threads, 3);
}
static void hm_stop(hm_opts *o)
{
    if (o->flush) CHECK_CUDA(cudaFree(o->flush));
    CHECK_CUDA(cudaStreamDestroy(o->s));
}

/* ---------------- sizes and caps ---------------- */
static int within(long n, int cap_log2) { return n <= (long)(1.1 * (double)(1L << cap_log2)); }

static void check_index_range(long n, long m, const char *what)
{
    if (n >= 2147483647L || m >= 2147483647L)
        DIE_USAGE("%s: %ld items / %ld hash buckets overflow the 32-bit indices (limit 2^31 - 1)", what, n, m);
}

/* The sweep 2^10, 2^12, ..., 2^20, 2^21, 2^22, 2^24 up to --max-log2 (--quick: 2^10, 2^14, 2^16, 2^18). */
static int hm_sizes(const hm_opts *r, long *out)
{
    static const int full[] = {10, 12, 14, 16, 18, 20, 21, 22, 24};
    static const int quick[] = {10, 14, 16, 18};
    const int *s = r->c.quick ? quick : full;
    int k = 0, cnt = r->c.quick ? 4 : 9;
    for (int a = 0; a < cnt; a++)
        if (s[a] <= r->max_log2) out[k++] = 1L << s[a];
    return k;
}

/* the thread counts of the radix rows: 1 (serial), then all (r->threads) if more than one */
static int best_thread_counts(const hm_opts *r, int *th)
{
    th[0] = 1;
    th[1] = r->threads;
    return r->threads > 1 ? 2 : 1;
}

/* Which rows a measurement writes.  The GPU hash (and for the 1D sort the 64-bit CUB radix)
 * always runs; the rest by name:
 *   paper_cpu  the paper's serial CPU codes (qsort, k-D tree, brute force, bisection, CPU hash)
 *   best_cpu   the baselines a user would pick (best.h) and the all-core *_omp rows
 *   best_gpu   the GPU hash with its transfers (hash_gpu_job); 1D sort: CUB radix on 32 bits */
typedef struct {
    int paper_cpu, best_cpu, best_gpu;
} method_set;
static const method_set PAPER = {1, 0, 0};    /* the paper's figures */
static const method_set GPU_ONLY = {0, 0, 0}; /* Table 4.2 */
static const method_set BEST = {0, 1, 1};     /* sort_best: the 1D sort against every sort but qsort */
static const method_set GPU_BEST = {0, 0, 1}; /* Table 4.2 against the 32-bit CUB radix */
static const method_set EVERY = {1, 1, 1};    /* Table 4.1 against the best baselines */

/* ---------------- medians by method (the tables are built from them) ---------------- */
enum { M_MAX = 24 };
typedef struct {
    const char *name[M_MAX];
    double ms[M_MAX];
    int k;
    const char *alg; /* non-NULL: every data row starts with this algorithm name (tab4_1_best) */
    long m;          /* 1D sorts: the hash table size m of Listing 1, line 2 */
    int end_bit;     /* 1D sorts: bits of the radix32 key */
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

/* ---------------- data files and rows ---------------- */
static void meta_triad(datfile *d, const hm_opts *r)
{
    datfile_meta(d, "host_triad", "%.2f GB/s one thread, %.2f GB/s %d threads (STREAM-like triad, common/host.h: the "
                 "host's own memory ceiling)", r->triad1, r->triadn, r->threads);
}
static void hm_open(datfile *d, const hm_opts *r, const char *name, const char *figure)
{
    dat_meta m = dat_meta_of("hashmesh/hashmesh", figure, r->argc, r->argv, r->gpu, &r->c);
    datfile_open(d, r->c.out, name, &m);
}
/* A figure file: n param method median_ms min_ms max_ms reps batch mitems_s */
static void hm_open_fig(datfile *d, const hm_opts *r, const char *name, const char *figure, const char *param_meaning)
{
    hm_open(d, r, name, figure);
    datfile_meta(d, "cpu", "serial C on one core of the GPU host (%s), gcc via nvcc -O3; *_omp rows: %d OpenMP threads",
                 r->cpu, r->threads);
    meta_triad(d, r);
    if (r->flush_l2) datfile_meta(d, "flush_l2", "1: every GPU sample is one cold run after %zu bytes were overwritten", r->flush_bytes);
    datfile_meta(d, "param", "%s", param_meaning);
    datfile_meta(d, "columns", "median/min/max_ms: time per run; reps: samples; mitems_s: n / median (million/s)");
    datfile_columns(d, "n param method median_ms min_ms max_ms reps batch mitems_s");
}

/* Where a measurement's rows go: the figure layout (n param method ...) or, with a key, the
 * levmax / clustered layout (key n method table_bytes ...). */
typedef struct {
    datfile *d;       /* NULL: no row written (Table 4.2 keeps the medians only) */
    results *res;     /* NULL: medians not kept */
    const char *what; /* names the cases in messages, e.g. "1D sort" */
    long n;
    double param;
    char key[24];     /* "" or the first column of the levmax / clustered files ("8", "0.70") */
} hm_point;
static hm_point at(datfile *d, results *res)
{
    hm_point p;
    memset(&p, 0, sizeof p);
    p.d = d;
    p.res = res;
    return p;
}

static void hm_row(const hm_point *p, const char *method, double table_bytes, bench_stats st)
{
    res_put(p->res, method, st.median);
    double rate = p->n / (st.median * 1e-3) / 1e6;
    if (p->key[0]) {
        fprintf(stderr, "  %-8s n %9ld %-16s %10.4f ms  [%.4f, %.4f]  reps %d  table %.3g MB\n", p->key, p->n, method,
                st.median, st.min, st.max, st.n, table_bytes / 1e6);
        if (p->d)
            datfile_row(p->d, "%s %ld %s %.0f %.6f %.6f %.6f %d %d %.3f", p->key, p->n, method, table_bytes, st.median,
                        st.min, st.max, st.n, st.batch, rate);
        return;
    }
    fprintf(stderr, "  n %9ld  param %-6g %-11s %10.4f ms  [%.4f, %.4f]  reps %d batch %d\n", p->n, p->param, method,
            st.median, st.min, st.max, st.n, st.batch);
    if (!p->d) return;
    if (p->res && p->res->alg)
        datfile_row(p->d, "%s %ld %.10g %s %.6f %.6f %.6f %d %d %.3f", p->res->alg, p->n, p->param, method, st.median,
                    st.min, st.max, st.n, st.batch, rate);
    else
        datfile_row(p->d, "%ld %.10g %s %.6f %.6f %.6f %d %d %.3f", p->n, p->param, method, st.median, st.min, st.max,
                    st.n, st.batch, rate);
}

/* ---------------- cases: the work, its outputs, their references ---------------- */
typedef struct {
    const char *what;   /* "indices", "left", ... */
    void *dev;          /* the device buffer the method writes; NULL: it writes got itself */
    void *got;          /* host buffer: the output, or the copy of dev */
    const void *want;   /* the reference */
    size_t n, size;     /* elements, bytes each */
    int poison;         /* byte written over the output before the correctness run */
    int close;          /* 0: bitwise; 1: doubles within HM_RTOL / HM_ATOL */
    int conserve;       /* 1: the sum must also equal total within 1e-10 scale (remaps) */
    double total, scale;
} hm_out;

static hm_out out_of(const char *what, void *dev, void *got, const void *want, size_t n, size_t size, int poison, int close)
{
    hm_out u = {what, dev, got, want, n, size, poison, close, 0, 0.0, 0.0}; /* not conserving */
    return u;
}
/* ints: poisoned with 0xAB bytes, compared exactly; doubles: NaN-poisoned (0xFF bytes) */
static hm_out out_ints(const char *what, int *got, const int *want, long n)
{
    return out_of(what, NULL, got, want, n, sizeof(int), 0xAB, 0);
}
static hm_out out_dev_ints(const char *what, int *dev, int *got, const int *want, long n)
{
    return out_of(what, dev, got, want, n, sizeof(int), 0xAB, 0);
}
static hm_out out_f64(const char *what, double *got, const double *want, long n, int close)
{
    return out_of(what, NULL, got, want, n, sizeof(double), 0xFF, close);
}
static hm_out out_dev_f64(const char *what, double *dev, double *got, const double *want, long n, int close)
{
    return out_of(what, dev, got, want, n, sizeof(double), 0xFF, close);
}
static hm_out conserving(hm_out u, double total, double scale)
{
    u.conserve = 1;
    u.total = total;
    u.scale = scale;
    return u;
}

enum { HM_MAX_OUT = 3 };
typedef struct {
    const char *method;        /* the row's method name */
    bench_host_fn host;        /* the CPU work, or */
    bench_gpu_fn gpu;          /* the GPU work (only enqueues on the stream) */
    void *ctx;
    hm_out out[HM_MAX_OUT];
    int nout;
    size_t (*also)(void *ctx); /* further failures after a run (a query overflow); NULL: none */
    double table_bytes;        /* levmax / clustered rows: the memory of the method's table */
    const char *label;         /* set by hm_run */
} hm_case;

static hm_case case_of(const char *method, bench_host_fn host, bench_gpu_fn gpu, void *ctx, hm_out out)
{
    hm_case k = {method, host, gpu, ctx, {out}, 1, NULL, 0.0, NULL}; /* one output; no also, no table */
    return k;
}
static hm_case cpu_case(const char *method, bench_host_fn fn, void *ctx, hm_out out)
{
    return case_of(method, fn, NULL, ctx, out);
}
static hm_case gpu_case(const char *method, bench_gpu_fn fn, void *ctx, hm_out out)
{
    return case_of(method, NULL, fn, ctx, out);
}
/* the same outputs, another CPU method */
static hm_case with_host(hm_case k, const char *method, bench_host_fn fn)
{
    k.method = method;
    k.host = fn;
    return k;
}
static hm_case *expect_also(hm_case *k, hm_out out)
{
    if (k->nout >= HM_MAX_OUT) DIE("case %s: more than %d outputs", k->method, HM_MAX_OUT);
    k->out[k->nout++] = out;
    return k;
}

/* run_case callbacks (ctx: the hm_case) */
static void hm_poison(void *p)
{
    hm_case *k = (hm_case *)p;
    for (int o = 0; o < k->nout; o++) {
        hm_out *u = &k->out[o];
        if (u->dev) CHECK_CUDA(cudaMemset(u->dev, u->poison, u->n * u->size));
        else memset(u->got, u->poison, u->n * u->size);
    }
}
static void hm_host(void *p)
{
    hm_case *k = (hm_case *)p;
    k->host(k->ctx);
}
static void hm_gpu(void *p, cudaStream_t s)
{
    hm_case *k = (hm_case *)p;
    k->gpu(k->ctx, s);
}
static size_t hm_check(void *p)
{
    hm_case *k = (hm_case *)p;
    size_t bad = 0;
    for (int o = 0; o < k->nout; o++) {
        hm_out *u = &k->out[o];
        if (u->dev) CHECK_CUDA(cudaMemcpy(u->got, u->dev, u->n * u->size, cudaMemcpyDeviceToHost));
        char what[256];
        snprintf(what, sizeof what, "%s: %s", k->label, u->what);
        bad += u->close ? verify_close_f64((const double *)u->got, (const double *)u->want, u->n, HM_RTOL, HM_ATOL, what)
                        : verify_exact(u->got, u->want, u->n, u->size, what);
        if (!u->conserve) continue;
        double s = 0;
        for (size_t b = 0; b < u->n; b++) s += ((const double *)u->got)[b];
        if (!(fabs(s - u->total) <= 1e-10 * u->scale)) {
            fprintf(stderr, "  %s: total not conserved: %.17g vs %.17g\n", what, s, u->total);
            bad++;
        }
    }
    if (k->also) bad += k->also(k->ctx);
    return bad;
}

/* ---------------- timing ---------------- */
/* --flush-l2 (cold cache): every sample is ONE run, after r->flush (2x the L2 size) was
 * overwritten on the same stream outside the event pair, so no input or table line is still
 * in L2 from the previous run. */
static bench_stats bench_gpu_cold(const hm_opts *r, const run_case *c, datfile *d)
{
    cudaEvent_t a, b;
    CHECK_CUDA(cudaEventCreate(&a));
    CHECK_CUDA(cudaEventCreate(&b));
    int reps = r->c.reps > 0 ? r->c.reps : 1;
    double *ms = (double *)host_alloc(sizeof(double) * (size_t)reps);
    for (int k = -r->c.warmup; k < reps; k++) {
        CHECK_CUDA(cudaMemsetAsync(r->flush, k & 0xFF, r->flush_bytes, r->s));
        CHECK_CUDA(cudaEventRecord(a, r->s));
        c->gpu(c->ctx, r->s);
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
    if (bench_warn_spread(c->label, st) && d && d->f)
        datfile_meta(d, "warning", "spread %.0f%% for %s (min %.4g, median %.4g, max %.4g ms)", 100 * bench_spread(st),
                     c->label, st.min, st.median, st.max);
    return st;
}

/* CPU samples: the first warm-up is timed and sizes the measurement, so the slow serial
 * baselines keep the sweep within minutes (the reps column says so): a run over 40 ms gets at
 * most 5 samples, over 250 ms at most 3 (never fewer), and no more warm-up. */
static common_opts host_budget(const hm_opts *r, double first_ms)
{
    common_opts o = r->c;
    o.warmup = o.warmup > 0 ? o.warmup - 1 : 0;
    if (first_ms > 250) {
        o.reps = o.reps < 3 ? o.reps : 3;
        o.warmup = 0;
    } else if (first_ms > 40) {
        o.reps = o.reps < 5 ? o.reps : 5;
        o.warmup = 0;
    }
    if (!o.batch) o.batch = first_ms < 1.0 ? 0 : 1;
    return o;
}

/* The contract of common/runcase.h: verified (else exit 1, no data file) then timed.  A warm
 * GPU case is run_case_time() itself; CPU cases time with host_budget, cold GPU cases with
 * bench_gpu_cold, after the same run_case_verify(). */
static bench_stats hm_time(const hm_opts *r, const run_case *c, datfile *d)
{
    hm_case *k = (hm_case *)c->ctx;
    if (c->gpu && !r->flush_l2) return run_case_time(c, &r->c, r->s, d);
    size_t bad = run_case_verify(c, r->s);
    if (bad) {
        fprintf(stderr, "verification failed: %s: %zu wrong\n", c->label, bad);
        exit(1);
    }
    if (c->gpu) return bench_gpu_cold(r, c, d);
    double t0 = bench_now_ms();
    c->host(c->ctx); /* the first warm-up, timed */
    common_opts o = host_budget(r, bench_now_ms() - t0);
    bench_stats st = run_case_bench(c, &o, r->s, d);
    if (k->also && k->also(k->ctx)) DIE("%s failed while timed", c->label);
    return st;
}

/* One method at one point: verify, time, write its row. */
static bench_stats hm_run(const hm_opts *r, const hm_point *p, hm_case k)
{
    char label[192];
    snprintf(label, sizeof label, "%s%s%s: %s, n %ld", p->what, p->key[0] ? " " : "", p->key, k.method, p->n);
    k.label = label;
    run_case c = {label, &k, hm_poison, k.gpu ? hm_gpu : NULL, k.host ? hm_host : NULL, hm_check};
    bench_stats st = hm_time(r, &c, p->d);
    hm_row(p, k.method, k.table_bytes, st);
    return st;
}

/* ---------------- a figure: one measurement at every size of the sweep ---------------- */
/* What a figure measures at one size n: the rows of the methods of ms at point pt. */
typedef void (*hm_measure_fn)(const hm_opts *r, hm_point pt, long n, method_set ms);

/* The rows of every size of the sweep (hm_sizes) into d, then d committed. */
static int hm_sweep(const hm_opts *r, datfile *d, hm_measure_fn measure, method_set ms)
{
    long ns[16];
    int nn = hm_sizes(r, ns);
    for (int a = 0; a < nn; a++) measure(r, at(d, NULL), ns[a], ms);
    datfile_commit(d);
    return 0;
}

/* A paper figure over the sweep: its file (hm_open_fig), the rows of the paper's methods. */
static int hm_figure(const hm_opts *r, const char *name, const char *figure, const char *param_meaning, hm_measure_fn measure)
{
    datfile d;
    hm_open_fig(&d, r, name, figure, param_meaning);
    return hm_sweep(r, &d, measure, PAPER);
}

/* ---------------- the GPU job: host inputs -> device, the pipeline, outputs -> host ----------------
 * Pinned host copies (cudaMallocHost, made outside the timed region), so the transfers run at
 * the PCIe / NVLink-C2C rate a user with pinned buffers gets.  Its outputs must equal the
 * pipeline's verified result bitwise. */
enum { JOB_MAX = 10 };
typedef struct {
    int nin, nout;
    void *hin[JOB_MAX], *din[JOB_MAX], *dout[HM_MAX_OUT];
    size_t bin[JOB_MAX];
    bench_gpu_fn fn;
    void *ctx;
    hm_case k; /* outputs: the pinned host copies */
} hm_job;
static void job_init(hm_job *j, bench_gpu_fn fn, void *ctx)
{
    memset(j, 0, sizeof *j);
    j->fn = fn;
    j->ctx = ctx;
}
static void job_in(hm_job *j, const void *host, const void *dev, size_t bytes)
{
    if (j->nin >= JOB_MAX) DIE("job_in: more than %d inputs", JOB_MAX);
    CHECK_CUDA(cudaMallocHost(&j->hin[j->nin], bytes ? bytes : 1));
    memcpy(j->hin[j->nin], host, bytes);
    j->din[j->nin] = (void *)dev;
    j->bin[j->nin++] = bytes;
}
/* a device copy of the host input h; also an input of the job j unless j is NULL */
static void *dev_input(hm_job *j, const void *h, size_t bytes, const char *what)
{
    void *d = dev_dup(h, bytes, what);
    if (j) job_in(j, h, d, bytes);
    return d;
}
/* want: the verified result (host) the job's output must equal bitwise */
static void job_out(hm_job *j, const char *what, const void *dev, const void *want, long n, size_t size)
{
    if (j->k.nout >= HM_MAX_OUT) DIE("job_out: more than %d outputs", HM_MAX_OUT);
    void *h;
    CHECK_CUDA(cudaMallocHost(&h, n > 0 ? n * size : 1));
    j->dout[j->k.nout] = (void *)dev;
    j->k.out[j->k.nout++] = out_of(what, NULL, h, want, n, size, 0xAB, 0);
}
static void gpu_job(void *p, cudaStream_t s)
{
    hm_job *j = (hm_job *)p;
    for (int k = 0; k < j->nin; k++) CHECK_CUDA(cudaMemcpyAsync(j->din[k], j->hin[k], j->bin[k], cudaMemcpyHostToDevice, s));
    j->fn(j->ctx, s);
    for (int k = 0; k < j->k.nout; k++)
        CHECK_CUDA(cudaMemcpyAsync(j->k.out[k].got, j->dout[k], j->k.out[k].n * j->k.out[k].size, cudaMemcpyDeviceToHost, s));
}
/* the row hash_gpu_job; frees the pinned buffers */
static void job_run(const hm_opts *r, const hm_point *p, hm_job *j)
{
    j->k.method = "hash_gpu_job";
    j->k.gpu = gpu_job;
    j->k.ctx = j;
    hm_run(r, p, j->k);
    for (int k = 0; k < j->nin; k++) CHECK_CUDA(cudaFreeHost(j->hin[k]));
    for (int k = 0; k < j->k.nout; k++) CHECK_CUDA(cudaFreeHost(j->k.out[k].got));
}

#endif
