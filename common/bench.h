/* bench.h -- how every number in this collection is measured (common/README.md, "Timing").
 *
 * A measurement is: `warmup` untimed runs, then `reps` samples; each sample times `batch`
 * back-to-back runs and is divided by `batch`.  Reported: median (the headline), min, max,
 * mean, sd, all in ms per run.  GPU samples are cudaEvent pairs recorded on the work's own
 * stream with nothing synchronizing inside the window; host samples use CLOCK_MONOTONIC.
 *
 *   bench_stats bench_host(fn, ctx, warmup, reps, batch)
 *   bench_stats bench_gpu(fn, ctx, stream, warmup, reps, batch)    (nvcc only)
 *   batch = 0 picks a batch so that one sample lasts at least BENCH_MIN_SAMPLE_MS
 *   (short kernels are otherwise dominated by event resolution and launch latency).
 *   bench_spread(s) = (max - min) / median; bench_warn_spread() prints a warning above 10%. */
#ifndef COMMON_BENCH_H
#define COMMON_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include "check.h"

#define BENCH_MIN_SAMPLE_MS 1.0 /* auto batch: a sample spans at least this long */
#define BENCH_MAX_BATCH 4096    /* auto batch never exceeds this */
#define BENCH_SPREAD_WARN 0.10  /* common/README.md "Timing": warn when (max-min)/median > 10% */

typedef struct {
    double median, min, max, mean, sd; /* ms per run */
    int n;                             /* samples */
    int batch;                         /* runs per sample */
} bench_stats;

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Statistics of n samples (the array is sorted in place). sd is the sample sd (n - 1). */
static inline bench_stats bench_stats_of(double *s, int n)
{
    bench_stats r;
    memset(&r, 0, sizeof r);
    r.n = n;
    r.batch = 1;
    if (n <= 0) return r;
    qsort(s, (size_t)n, sizeof *s, bench_cmp_double);
    r.min = s[0];
    r.max = s[n - 1];
    r.median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++) sum += s[i];
    r.mean = sum / n;
    for (int i = 0; i < n; i++) sq += (s[i] - r.mean) * (s[i] - r.mean);
    r.sd = n > 1 ? sqrt(sq / (n - 1)) : 0.0;
    return r;
}

static inline double bench_spread(bench_stats s)
{
    return s.median > 0 ? (s.max - s.min) / s.median : 0.0;
}

/* Prints a warning on stderr when the spread exceeds 10%; returns 1 if it did. */
static inline int bench_warn_spread(const char *label, bench_stats s)
{
    if (bench_spread(s) <= BENCH_SPREAD_WARN) return 0;
    fprintf(stderr, "warning: %s: spread %.0f%% (min %.4g, median %.4g, max %.4g ms)\n", label,
            100 * bench_spread(s), s.min, s.median, s.max);
    return 1;
}

static inline double bench_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static inline int bench_pick_batch(double one_run_ms)
{
    if (one_run_ms <= 0) return BENCH_MAX_BATCH;
    double b = ceil(BENCH_MIN_SAMPLE_MS / one_run_ms);
    return b < 1 ? 1 : b > BENCH_MAX_BATCH ? BENCH_MAX_BATCH : (int)b;
}

typedef void (*bench_host_fn)(void *ctx);

static inline bench_stats bench_host(bench_host_fn fn, void *ctx, int warmup, int reps, int batch)
{
    if (reps < 1) reps = 1;
    for (int i = 0; i < warmup; i++) fn(ctx);
    if (batch <= 0) {
        double t0 = bench_now_ms();
        fn(ctx);
        batch = bench_pick_batch(bench_now_ms() - t0);
    }
    double *s = (double *)malloc(sizeof(double) * (size_t)reps);
    if (!s) DIE("out of host memory");
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now_ms();
        for (int b = 0; b < batch; b++) fn(ctx);
        s[r] = (bench_now_ms() - t0) / batch;
    }
    bench_stats st = bench_stats_of(s, reps);
    st.batch = batch;
    free(s);
    return st;
}

#ifdef __CUDACC__
/* fn must only enqueue work on `stream` (kernel launches, async copies) and must not
 * synchronize: the sample is the time between two events on that stream. */
typedef void (*bench_gpu_fn)(void *ctx, cudaStream_t stream);

static inline bench_stats bench_gpu(bench_gpu_fn fn, void *ctx, cudaStream_t stream, int warmup,
                                    int reps, int batch)
{
    cudaEvent_t e0, e1;
    float ms = 0;
    if (reps < 1) reps = 1;
    CHECK_CUDA(cudaEventCreate(&e0));
    CHECK_CUDA(cudaEventCreate(&e1));
    for (int i = 0; i < warmup; i++) fn(ctx, stream);
    CHECK_LAUNCH();
    if (batch <= 0) {
        CHECK_CUDA(cudaEventRecord(e0, stream));
        fn(ctx, stream);
        CHECK_CUDA(cudaEventRecord(e1, stream));
        CHECK_CUDA(cudaEventSynchronize(e1));
        CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        batch = bench_pick_batch(ms);
    }
    double *s = (double *)malloc(sizeof(double) * (size_t)reps);
    if (!s) DIE("out of host memory");
    for (int r = 0; r < reps; r++) {
        CHECK_CUDA(cudaEventRecord(e0, stream));
        for (int b = 0; b < batch; b++) fn(ctx, stream);
        CHECK_CUDA(cudaEventRecord(e1, stream));
        CHECK_CUDA(cudaEventSynchronize(e1));
        CHECK_LAUNCH();
        CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        s[r] = (double)ms / batch;
    }
    CHECK_CUDA(cudaEventDestroy(e0));
    CHECK_CUDA(cudaEventDestroy(e1));
    bench_stats st = bench_stats_of(s, reps);
    st.batch = batch;
    free(s);
    return st;
}
#endif /* __CUDACC__ */

#endif
