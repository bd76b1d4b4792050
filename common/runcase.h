/* runcase.h -- verify, then time: the program contract written once.
 *
 * Every timed number in the collection is measured by run_case(), in this order:
 *   1. poison the outputs (a value no correct run writes, so an unwritten element is caught),
 *   2. run the work once (the correctness run),
 *   3. compare with the reference (the case's check: exact, or within a tolerance it states);
 *      a mismatch prints "verification failed: <label>: N wrong" and exits 1 -- the .dat file
 *      being written is removed (datfile.h), so no row of an unverified run exists,
 *   4. time it with bench.h (warm-ups, then reps samples of batch runs),
 *   5. record a `# warning:` line in the data file when the spread is above 10 %.
 * The caller writes the row: its columns are the experiment's.
 *
 *   run_case c = {.label = "lambda-exact n=4096", .ctx = &job,
 *                 .poison = poison_out, .gpu = launch_write, .check = check_out};
 *   bench_stats s = run_case_time(&c, &o->c, stream, &dat);
 *   datfile_row(&dat, "%u %s %.6f %.6f %.6f %d", n, "lambda-exact", s.median, s.min, s.max, s.batch);
 *
 * CPU baselines set .host instead of .gpu (timed with bench_host, stream ignored).
 * run_case_try() returns the number of wrong elements instead of exiting, for the few sweeps
 * that record a refusal (e.g. a float map past its precision limit) and go on. */
#ifndef COMMON_RUNCASE_H
#define COMMON_RUNCASE_H

#include <stdio.h>
#include <stdlib.h>
#include "args.h"
#include "bench.h"
#include "check.h"
#include "datfile.h"

#ifdef __CUDACC__
typedef cudaStream_t runcase_stream;
#else
typedef void *runcase_stream;
#endif

typedef struct {
    const char *label;                         /* names the case in messages */
    void *ctx;                                 /* handed to every callback */
    void (*poison)(void *ctx);                 /* fill the outputs (NULL: the check reads no output buffer) */
    void (*gpu)(void *ctx, runcase_stream st); /* the timed GPU work: only enqueues on st */
    void (*host)(void *ctx);                   /* or the timed CPU work */
    size_t (*check)(void *ctx);                /* wrong elements after one run; prints the first few */
} run_case;

/* Steps 1-3: poison, run once, compare.  Returns the number of wrong elements (0: verified). */
static inline size_t run_case_verify(const run_case *c, runcase_stream st)
{
    if (!c->check || (!c->gpu && !c->host)) DIE("run_case %s: no work or no check", c->label);
    if (c->poison) c->poison(c->ctx);
#ifdef __CUDACC__
    if (c->gpu) {
        CHECK_CUDA(cudaDeviceSynchronize()); /* the poison is in place before the run */
        c->gpu(c->ctx, st);
        CHECK_LAUNCH();
        CHECK_CUDA(cudaStreamSynchronize(st));
    } else
#endif
    {
        if (!c->host) DIE("run_case %s: GPU work in a program built without nvcc", c->label);
        c->host(c->ctx);
    }
    (void)st;
    return c->check(c->ctx);
}

/* Step 4-5 after a verified run. */
static inline bench_stats run_case_bench(const run_case *c, const common_opts *o, runcase_stream st, datfile *d)
{
    bench_stats s;
#ifdef __CUDACC__
    if (c->gpu) s = bench_gpu(c->gpu, c->ctx, st, o->warmup, o->reps, o->batch);
    else
#endif
        s = bench_host(c->host, c->ctx, o->warmup, o->reps, o->batch);
    (void)st;
    if (bench_warn_spread(c->label, s) && d && d->f)
        datfile_meta(d, "warning", "spread %.0f%% for %s (min %.4g, median %.4g, max %.4g ms)",
                     100 * bench_spread(s), c->label, s.min, s.median, s.max);
    return s;
}

/* The contract: verified or exit 1 (no row), then timed. */
static inline bench_stats run_case_time(const run_case *c, const common_opts *o, runcase_stream st, datfile *d)
{
    size_t bad = run_case_verify(c, st);
    if (bad) {
        fprintf(stderr, "verification failed: %s: %zu wrong\n", c->label, bad);
        exit(1);
    }
    return run_case_bench(c, o, st, d);
}

/* For sweeps that record a refusal and go on: 0 and *s filled when verified and timed,
 * else the number of wrong elements (nothing timed). */
static inline size_t run_case_try(const run_case *c, const common_opts *o, runcase_stream st, datfile *d,
                                  bench_stats *s)
{
    size_t bad = run_case_verify(c, st);
    if (!bad) *s = run_case_bench(c, o, st, d);
    return bad;
}

#endif
