/* sparsegrid/harness.cuh -- what every experiment of sparsegrid.cu shares: options, inputs, buffers, CPU references,
 * and the jobs (one implementation on one batch) that common/runcase.h verifies, then times (thesis 5.1).
 *
 * A job names an implementation, its input, where its output lands and what a correct run
 * leaves there.  run_case (common/runcase.h) poisons that output with NaN, runs the job once,
 * compares the result bitwise with the CPU's (exit 1 and no data file on a mismatch), then
 * times it with bench.h.  Full grids (tiles, hierarchize.h, kernels.cuh) and sparse grids
 * (sparse.h, sparse_kernels.cuh, sparse_multi.cuh, sparse_stream.cuh) each have one job type; both start with the
 * same job_io, so one poison and one check serve every job. */
#ifndef SPARSEGRID_HARNESS_CUH
#define SPARSEGRID_HARNESS_CUH

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/verify.h"
#include "../common/runcase.h"
#include "../common/experiment.h"
#include "../common/host.h"
#include "hierarchize.h"
#include "kernels.cuh"
#include "sparse.h"
#include "sparse_kernels.cuh"
#include "sparse_multi.cuh"
#include "sparse_stream.cuh"
#include "sparse_cluster.cuh"
#include "sparse_fam.cuh"

#define ROUNDTRIP_TOL 4e-6 /* fp32 round trip error / |u|max (tests/host/test_sparsegrid_hier.c) */

/* The program's options (sparsegrid.cu parses them) and the GPU once an experiment asks for it. */
typedef struct {
    common_opts c;
    const char *exp, *precision;
    int threads;        /* CPU threads (0 on the command line: all processors) */
    int tpb;            /* fused kernels: tiles per block (0: auto) */
    int max_blocks;     /* tune, sparse, layout: at most this many blocks (0: all resident) */
    int sparse_d;       /* sparse: only this d (0: 2..6) */
    long long nt_max;   /* Figs. 5.x: cap on Nt; tune/sparse/layout: one batch of this many tiles/grids */
    const char *impls;  /* sparse: only the rows whose impl name starts with one of these comma-separated prefixes */
    const char *fam_plans; /* sparse: --fam-plans as given (NULL: the default configurations) */
    sgf_cfg fam[SGF_CFG_MAX]; /* sparse: the k_sparse_fam configurations to run (main sets them) */
    int nfam;
    int argc;
    char **argv;        /* for the data files' # cmdline: line */
    double triad;       /* bandwidth, layout: the host triad of this run (GB/s; host_triad_gbs) */
    char gpu[256];      /* device_describe(); empty: host only */
    cudaStream_t s;     /* the stream every GPU job runs on */
} sg_opts;

/* The GPU experiments start here: SKIP (exit 77) without a usable GPU. */
static void sg_use_gpu(sg_opts *o)
{
    device_require(o->c.device, 7, 5);
    device_describe(o->c.device, o->gpu, sizeof o->gpu);
    CHECK_CUDA(cudaStreamCreate(&o->s));
}

/* A data file's metadata: this program, the figure it reproduces, the command line, the GPU. */
static dat_meta sg_meta(const sg_opts *o, const char *figure)
{
    return dat_meta_of("sparsegrid", figure, o->argc, o->argv, o->gpu[0] ? o->gpu : "none (host only)", &o->c);
}

static int l2_bytes(const sg_opts *o)
{
    int l2 = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, o->c.device));
    return l2;
}

/* A failed check outside run_case (the CPU against its references): as run_case, exit 1;
 * the data file being written is removed at exit (datfile.h). */
static void verify_fail(const char *what)
{
    fprintf(stderr, "verification failed: %s\n", what);
    exit(1);
}

/* Measures the host triad for the CPU rows of a GB/s file (3 x 2^26 doubles = 3 x 512 MiB, quick
 * 3 x 128 MiB; common/host.h) and writes it as its # triad_gbs: line. */
static void sg_triad_meta(sg_opts *o, datfile *d)
{
    size_t n = (size_t)1 << (o->c.quick ? 24 : 26);
    o->triad = host_triad_gbs(n, o->threads, 5);
    datfile_meta(d, "triad_gbs", "%.1f (a[i] = b[i] + s c[i], 3 arrays x %zu doubles, %d OpenMP threads, best of 5; "
                 "counted 3 x 8 bytes per element: 2 reads + 1 write, write-allocate not counted, as STREAM; "
                 "pct_triad = gbs / triad_gbs for the cpu rows, - for the others)", o->triad, n, o->threads);
}

/* GB/s of `moved` bytes in ms milliseconds. */
static double gbs_of(double moved, double ms) { return moved / (ms * 1e-3) / 1e9; }

/* ------------------------------------------------------------------------------ inputs */

static uint32_t mix32(uint64_t x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return (uint32_t)x;
}
/* Input value i for a seed: uniform in [-1, 1), independent of the thread count, the same numbers
 * in float and double. */
template <typename T>
static void fill_input(T *h, long long n, long long seed)
{
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; i++)
        h[i] = (T)((float)(mix32((uint64_t)seed * 0x9E3779B97F4A7C15ULL + (uint64_t)i) >> 8) / 8388608.0f - 1.0f);
}

/* --------------------------------------------------------------------------- buffers */

/* One batch (Nt tiles or G sparse grids, n values of elem bytes) and its references: the input
 * u, the CPU's surpluses c = H u and the CPU's dehierarchization H^-1 c of them.  Inverse jobs
 * read the surpluses, so every direction has its own input. */
typedef struct {
    long long n;
    size_t elem;
    void *h_in, *h_sur, *h_back; /* u, its surpluses, their dehierarchization (CPU) */
    void *h_out;                 /* CPU output, GPU download (page-locked when transfers are timed) */
    void *d_in, *d_sur, *d_out;  /* u and the surpluses uploaded, the GPU output */
    int pinned;
} batch;

/* Buffers for batches of up to cap bytes; h_in is filled from the seed once (elem-byte values). */
static void batch_alloc(batch *b, size_t cap, size_t elem, int pinned, long long seed)
{
    memset(b, 0, sizeof *b);
    b->elem = elem;
    b->pinned = pinned;
    if (pinned) {
        CHECK_CUDA(cudaMallocHost(&b->h_in, cap));
        CHECK_CUDA(cudaMallocHost(&b->h_out, cap));
    } else {
        b->h_in = malloc(cap);
        b->h_out = malloc(cap);
    }
    b->h_sur = malloc(cap);
    b->h_back = malloc(cap);
    if (!b->h_in || !b->h_out || !b->h_sur || !b->h_back) DIE("out of host memory");
    size_t span = (cap + 255) / 256 * 256; /* 256-byte aligned */
    unsigned char *d = (unsigned char *)device_alloc_or_usage(3 * span, "three buffers of the batch");
    b->d_in = d;
    b->d_sur = d + span;
    b->d_out = d + 2 * span;
    if (elem == sizeof(double)) fill_input((double *)b->h_in, (long long)(cap / elem), seed);
    else fill_input((float *)b->h_in, (long long)(cap / elem), seed);
}

static void batch_free(batch *b)
{
    CHECK_CUDA(cudaFree(b->d_in));
    if (b->pinned) {
        CHECK_CUDA(cudaFreeHost(b->h_in));
        CHECK_CUDA(cudaFreeHost(b->h_out));
    } else {
        free(b->h_in);
        free(b->h_out);
    }
    free(b->h_sur);
    free(b->h_back);
}

/* Uploads the input and the CPU's surpluses of the first n values. */
static void batch_upload(batch *b, long long n)
{
    b->n = n;
    CHECK_CUDA(cudaMemcpy(b->d_in, b->h_in, n * b->elem, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b->d_sur, b->h_sur, n * b->elem, cudaMemcpyHostToDevice));
}

/* ------------------------------------------------------------------------------ jobs */

/* Where a job runs: on the GPU (result in d_out), on the GPU with the upload and download timed
 * as well (result in h_out), or on the CPU (result in h_out). */
typedef enum { ON_GPU, ON_GPU_WITH_TRANSFERS, ON_CPU } job_place;

/* What run_case's poison and check need of any job; every job struct starts with it. */
typedef struct {
    char label[160];            /* names the job in messages */
    job_place place;
    const void *h_src, *d_src;  /* the input on the host (CPU, uploads) and on the device */
    void *h_out, *d_out;        /* the output; a GPU result is downloaded into h_out to be checked */
    const void *expect;         /* what a correct run leaves in the output (host) */
    long long n;
    size_t elem;
} job_io;

/* A job's input and output in batch b: hierarchization reads u, dehierarchization the surpluses;
 * a correct result is the CPU's. */
static job_io job_on(const batch *b, job_place place, int inverse)
{
    job_io io;
    memset(&io, 0, sizeof io);
    io.place = place;
    io.h_src = inverse ? b->h_sur : b->h_in;
    io.d_src = inverse ? b->d_sur : b->d_in;
    io.h_out = b->h_out;
    io.d_out = place == ON_CPU ? NULL : b->d_out;
    io.expect = inverse ? b->h_back : b->h_sur;
    io.n = b->n;
    io.elem = b->elem;
    return io;
}

/* run_case's poison: NaN (all bits set) wherever the result will land. */
static void job_poison(void *p)
{
    job_io *io = (job_io *)p;
    size_t bytes = io->n * io->elem;
    if (io->d_out) CHECK_CUDA(cudaMemset(io->d_out, 0xFF, bytes));
    if (io->place != ON_GPU) memset(io->h_out, 0xFF, bytes);
}

/* run_case's check: the result equals the expected one bitwise; returns the wrong elements. */
static size_t job_check(void *p)
{
    job_io *io = (job_io *)p;
    if (io->place == ON_GPU)
        CHECK_CUDA(cudaMemcpy(io->h_out, io->d_out, io->n * io->elem, cudaMemcpyDeviceToHost));
    /* bitwise equal as a whole: no wrong element (one memcmp, ~8x faster than verify_exact's one
     * call per element on 256 MiB); otherwise verify_exact counts and prints them */
    if (!memcmp(io->h_out, io->expect, io->n * io->elem)) return 0;
    return verify_exact(io->h_out, io->expect, io->n, io->elem, io->label);
}

/* A job as run_case wants it: the check is job_check; the work gpu or host by its place. */
static run_case job_case(job_io *io, void (*gpu)(void *, cudaStream_t), void (*host)(void *))
{
    run_case c;
    memset(&c, 0, sizeof c);
    c.label = io->label;
    c.ctx = io; /* the job struct, whose first member io is */
    c.poison = job_poison;
    c.check = job_check;
    if (io->place == ON_CPU) c.host = host;
    else c.gpu = gpu;
    return c;
}

/* Verified, not timed (a direction an experiment checks but does not plot): as run_case_time's
 * first half, exit 1 on a mismatch. */
static void verify_untimed(const run_case *c, cudaStream_t s)
{
    size_t bad = run_case_verify(c, s);
    if (bad) {
        fprintf(stderr, "verification failed: %s: %zu wrong\n", c->label, bad);
        exit(1);
    }
}

/* k_copy of a job's bytes: the memory ceiling of the same run (GB/s columns: pct_copy). */
static void run_copy(const job_io *io, cudaStream_t s)
{
    long long nf = io->n * (long long)(io->elem / sizeof(float));
    k_copy<<<GRID_STRIDE_BLOCKS(8), 256, 0, s>>>((const float *)io->d_src, (float *)io->d_out, nf);
    CHECK_LAUNCH();
}

/* ------------------------------------------------------------------ full-grid jobs (tiles) */

/* The implementations of full-grid hierarchization (thesis ch. 4 and 5; README: the story). */
typedef enum {
    FULL_COPY,       /* k_copy of the same bytes, the ceiling */
    FULL_CPU_TUNED,  /* "version A": OpenMP over tiles, vectorized (sg_cpu_tuned) */
    FULL_GPU_THESIS, /* "version B": one launch per dimension (k_hier_b) */
    FULL_GPU_FUSED   /* ours: all dimensions in one launch (a sg_fused plan: lines, points, pipelined) */
} full_kind;

/* A named implementation: the rows' impl column. */
typedef struct {
    const char *name;
    full_kind kind;
    int variant; /* FULL_GPU_FUSED: SG_VARIANT_LINES / _POINTS / _PIPELINED (the plan used) */
    int inverse; /* dehierarchization */
} full_impl;

/* A tile shape and its GPU plans. */
typedef struct {
    sg_geom g;
    sg_b thesis;
    sg_fused fused[3]; /* indexed by SG_VARIANT_*; set up by the experiment that uses them */
} full_plans;

typedef struct {
    job_io io; /* first */
    full_kind kind;
    const sg_geom *g;
    const sg_b *thesis;
    const sg_fused *fused;
    long long nt;
    int inverse, threads;
} full_job;

static void full_gpu(void *p, cudaStream_t s)
{
    full_job *j = (full_job *)p;
    const float *src = (const float *)j->io.d_src;
    float *dst = (float *)j->io.d_out;
    size_t bytes = j->io.n * sizeof(float);
    if (j->io.place == ON_GPU_WITH_TRANSFERS) /* the thesis's version B includes the transfers */
        CHECK_CUDA(cudaMemcpyAsync((void *)src, j->io.h_src, bytes, cudaMemcpyHostToDevice, s));
    switch (j->kind) {
    case FULL_COPY: run_copy(&j->io, s); break;
    case FULL_GPU_THESIS: sg_b_run(j->thesis, src, dst, j->nt, j->inverse, s); break;
    case FULL_GPU_FUSED: sg_fused_run(j->fused, src, dst, j->nt, j->inverse, s); break;
    case FULL_CPU_TUNED: DIE("full_gpu: cpu_tuned is not a GPU job");
    }
    if (j->io.place == ON_GPU_WITH_TRANSFERS)
        CHECK_CUDA(cudaMemcpyAsync(j->io.h_out, dst, bytes, cudaMemcpyDeviceToHost, s));
}

static void full_host(void *p)
{
    full_job *j = (full_job *)p;
    if (sg_cpu_tuned((const float *)j->io.h_src, (float *)j->io.h_out, j->nt, j->g, j->inverse, j->threads))
        DIE("out of host memory");
}

/* Implementation m on the nt tiles of batch b; transfers: time the upload and download too. */
static full_job full_job_of(const sg_opts *o, const full_impl *m, const full_plans *p, const batch *b, long long nt,
                            int transfers)
{
    full_job j;
    memset(&j, 0, sizeof j);
    j.io = job_on(b, m->kind == FULL_CPU_TUNED ? ON_CPU : transfers ? ON_GPU_WITH_TRANSFERS : ON_GPU, m->inverse);
    if (m->kind == FULL_COPY) j.io.expect = j.io.h_src;
    j.kind = m->kind;
    j.g = &p->g;
    j.thesis = &p->thesis;
    j.fused = &p->fused[m->variant];
    j.nt = nt;
    j.inverse = m->inverse;
    j.threads = o->threads;
    snprintf(j.io.label, sizeof j.io.label, "%s%s, tiles %lld points, Nt=%lld", m->name,
             transfers ? " with transfers" : "", p->g.size, nt);
    return j;
}

static run_case full_case(full_job *j) { return job_case(&j->io, full_gpu, full_host); }

/* Verified, then timed (common/runcase.h). */
static bench_stats full_time(const sg_opts *o, full_job *j, datfile *d)
{
    run_case c = full_case(j);
    return run_case_time(&c, &o->c, o->s, d);
}

/* The references of a batch of nt tiles (b->h_in): h_sur = cpu_tuned(u), h_back = its inverse,
 * which must return u within ROUNDTRIP_TOL |u|max; with scalar_ref, every tile of h_sur equals
 * the scalar float reference bitwise and tile 0 the double reference within 1e-5 |c|max.  Then
 * u and the surpluses are uploaded. */
static void full_reference(const sg_opts *o, batch *b, const sg_geom *g, long long nt, int scalar_ref)
{
    long long n = nt * g->size;
    const float *u = (const float *)b->h_in;
    float *c = (float *)b->h_sur, *back = (float *)b->h_back;
    if (sg_cpu_tuned(u, c, nt, g, 0, o->threads)) DIE("out of host memory");
    if (scalar_ref) {
        float *t = (float *)malloc(sizeof(float) * g->size);
        double *td = (double *)malloc(sizeof(double) * g->size);
        if (!t || !td) DIE("out of host memory");
        for (long long i = 0; i < nt; i++) {
            memcpy(t, u + i * g->size, sizeof(float) * g->size);
            sg_ref_tile_f(t, g, 0);
            if (memcmp(t, c + i * g->size, sizeof(float) * g->size)) verify_fail("cpu tuned != float reference");
        }
        double maxc = 0, err = 0;
        for (long long r = 0; r < g->size; r++) td[r] = u[r];
        sg_ref_tile_d(td, g, 0);
        for (long long r = 0; r < g->size; r++) maxc = fmax(maxc, fabs(td[r]));
        for (long long r = 0; r < g->size; r++) err = fmax(err, fabs(td[r] - c[r]));
        if (err > 1e-5 * maxc) verify_fail("cpu tuned differs from the double reference by more than 1e-5 |c|max");
        free(t);
        free(td);
    }
    if (sg_cpu_tuned(c, back, nt, g, 1, o->threads)) DIE("out of host memory");
    double maxu = 0, err = 0;
#pragma omp parallel for reduction(max : maxu, err)
    for (long long i = 0; i < n; i++) {
        maxu = fmax(maxu, fabs(u[i]));
        err = fmax(err, fabs(back[i] - u[i]));
    }
    if (err > ROUNDTRIP_TOL * maxu) verify_fail("round trip dehierarchize(hierarchize(u)) != u");
    batch_upload(b, n);
}

/* --------------------------------------------------------------------- sparse-grid jobs */

/* The implementations of sparse-grid hierarchization (README: "Real sparse grids on the GPU"). */
typedef enum {
    SPARSE_COPY,             /* k_copy of the same bytes */
    SPARSE_GPU,              /* k_sparse: one grid per block (a sgs_dev plan: computed offsets or table) */
    SPARSE_GPU_MULTI,        /* k_sparse_multi: G grids per block, U table entries in flight (sgs_multi) */
    SPARSE_CPU_TUNED,        /* OpenMP over grids, level-wise lists (sgs_cpu_f/d) */
    SPARSE_CPU_SHIFT,        /* the thesis's dimensional shift (sgs_cpu_shift_f/d) */
    SPARSE_GPU_STREAM,       /* k_sparse_stream: whole poles per thread, one barrier per pass (sgst_gpu) */
    SPARSE_GPU_PIPE,         /* k_sparse_pipe: the same tasks, a cheaper walk, bulk copies (sgst_gpu, pipe) */
    SPARSE_GPU_CLU,          /* k_sparse_clu: the same tasks, one grid over a cluster of two blocks (sgst_gpu) */
    SPARSE_GPU_FAM           /* k_sparse_fam: a warp's lanes over the poles of a family (sgf_gpu) */
} sparse_kind;

/* A named implementation; name is the rows' impl column. */
typedef struct {
    char name[48];
    sparse_kind kind;
    int inverse, threads;
    const sgs_dev *dv;   /* SPARSE_GPU */
    const sgs_multi *mv; /* SPARSE_GPU_MULTI */
    const sgst_gpu *sv;  /* SPARSE_GPU_STREAM, SPARSE_GPU_PIPE, SPARSE_GPU_CLU */
    const sgf_gpu *fv;   /* SPARSE_GPU_FAM */
} sparse_impl;

/* C++ overloads of sparse.h's float/double functions, for the templates below. */
static void sgs_cpu_t(const float *s, float *d, long long G, const sgs_grid *g, int inv, int th) { sgs_cpu_f(s, d, G, g, inv, th); }
static void sgs_cpu_t(const double *s, double *d, long long G, const sgs_grid *g, int inv, int th) { sgs_cpu_d(s, d, G, g, inv, th); }
static void sgs_cpu_shift_t(const float *s, float *d, long long G, const sgs_grid *g, int inv, int th)
{
    if (sgs_cpu_shift_f(s, d, G, g, inv, th)) DIE("out of host memory");
}
static void sgs_cpu_shift_t(const double *s, double *d, long long G, const sgs_grid *g, int inv, int th)
{
    if (sgs_cpu_shift_d(s, d, G, g, inv, th)) DIE("out of host memory");
}
static int sgs_ref_t(float *u, const sgs_grid *g, int inv) { return sgs_ref_f(u, g, inv); }
static int sgs_ref_t(double *u, const sgs_grid *g, int inv) { return sgs_ref_d(u, g, inv); }

typedef struct {
    job_io io; /* first */
    const sparse_impl *m;
    const sgs_grid *g;
    long long G;
} sparse_job;

template <typename T>
static void sparse_gpu(void *p, cudaStream_t s)
{
    sparse_job *j = (sparse_job *)p;
    const T *src = (const T *)j->io.d_src;
    T *dst = (T *)j->io.d_out;
    switch (j->m->kind) {
    case SPARSE_COPY: run_copy(&j->io, s); break;
    case SPARSE_GPU: sgs_dev_run<T>(j->m->dv, src, dst, j->G, j->m->inverse, s); break;
    case SPARSE_GPU_MULTI: sgs_multi_run<T>(j->m->mv, src, dst, j->G, j->m->inverse, s); break;
    case SPARSE_GPU_STREAM:
    case SPARSE_GPU_PIPE: sgst_gpu_run<T>(j->m->sv, src, dst, j->G, j->m->inverse, s); break;
    case SPARSE_GPU_CLU: sgcl_gpu_run<T>(j->m->sv, src, dst, j->G, j->m->inverse, s); break;
    case SPARSE_GPU_FAM: sgf_gpu_run<T>(j->m->fv, src, dst, j->G, j->m->inverse, s); break;
    default: DIE("sparse_gpu: %s is not a GPU job", j->m->name);
    }
}

template <typename T>
static void sparse_host(void *p)
{
    sparse_job *j = (sparse_job *)p;
    const T *src = (const T *)j->io.h_src;
    T *dst = (T *)j->io.h_out;
    if (j->m->kind == SPARSE_CPU_SHIFT) sgs_cpu_shift_t(src, dst, j->G, j->g, j->m->inverse, j->m->threads);
    else sgs_cpu_t(src, dst, j->G, j->g, j->m->inverse, j->m->threads);
}

/* Implementation m on the G grids g of batch b. */
static sparse_job sparse_job_of(const sparse_impl *m, const sgs_grid *g, const batch *b, long long G)
{
    sparse_job j;
    memset(&j, 0, sizeof j);
    int cpu = m->kind == SPARSE_CPU_TUNED || m->kind == SPARSE_CPU_SHIFT;
    j.io = job_on(b, cpu ? ON_CPU : ON_GPU, m->inverse);
    if (m->kind == SPARSE_COPY) j.io.expect = j.io.h_src;
    j.m = m;
    j.g = g;
    j.G = G;
    snprintf(j.io.label, sizeof j.io.label, "%.47s, %d threads, d=%d n=%d, %lld grids, %s", m->name, m->threads, g->d, g->n,
             G, b->elem == sizeof(double) ? "double" : "float");
    return j;
}

template <typename T>
static run_case sparse_case(sparse_job *j) { return job_case(&j->io, sparse_gpu<T>, sparse_host<T>); }

template <typename T>
static bench_stats sparse_time(const sg_opts *o, sparse_job *j, datfile *d)
{
    run_case c = sparse_case<T>(j);
    return run_case_time(&c, &o->c, o->s, d);
}

#endif
