/* simplex2d.cu -- the program: its experiments (verify, then time), their table, options and main().
 * Navarro et al. arXiv:1609.01490 sections 4-5 (Fig. 3, Fig. 5, Table 1); arXiv:1610.07394 section III.A.
 *
 * EXPERIMENTS (at the end, `--exp=list` prints it) names every experiment, the paper item it
 * reproduces and the function that runs it.  Every timed (map, kernel, n, rho) is a run_case
 * (common/runcase.h): the output poisoned, one run compared with a reference, then timed:
 *   map, dummy          exact coverage of the triangle on the device (k_cover, both variants)
 *   write, edm4d        every matrix cell on the device (value inside, poison outside) plus
 *                       SAMPLE_ROWS rows against the CPU
 *   collision3d/1d      coverage, and the collision count against the CPU's (OpenMP)
 * A float map (lambda-sqrt/-newton/-rsqrt, utm-published) that fails at some n is refused from
 * there on in a sweep (`# refused:` line); any other failure exits 1 and leaves no data file.
 * The maps: map.h.  The kernels: kernels.cuh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <omp.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/experiment.h"
#include "../common/rng.h"
#include "../common/runcase.h"
#include "map.h"
#include "kernels.cuh"

#define SAMPLE_ROWS 16        /* rows of write/edm matrices also compared on the CPU */
#define SPHERE_RMAX 0.02f     /* collision3d radii uniform in [0, RMAX): rare collisions */
#define INTERVAL_RMAX 1e-4f   /* collision1d half-widths uniform in [0, RMAX) */
#define S2_MAX_SWEEP 4096     /* most sizes of one --nmin..--nmax sweep (more: exit 2) */
#define S2_QUICK_NMAX 8192    /* --quick: the Fig. 3 / Fig. 5 sweeps stop here ... */
#define S2_QUICK_NSTEP 2048   /* ... in steps of at least this */
#define S2_MAX_LAYOUT_CELLS (1ull << 26) /* --exp=layout prints one line per cell: keep it sane */
#define S2_FILL_VALUE 7u      /* what the linear fill (coarse experiment) stores */

/* ---- the named sets each experiment measures, rows in this order -------------------------- */
typedef struct {
    const int *v;
    int n;
} s2_set;
#define S2_SET(a) {a, ARGS_COUNT(a)}
/* Fig. 3 (section 4.1): BB, the square-root variants lambda X, N, R, then ours on both grids */
static const int MAPS_FIG3[] = {S2_BB, S2_LAMBDA_SQRT, S2_LAMBDA_NEWTON, S2_LAMBDA_RSQRT, S2_LAMBDA_EXACT_2D,
                                S2_LAMBDA_EXACT};
/* Fig. 5 (section 5): BB, the paper's UTM, REC, RB and lambda (= lambda R), then ours and eq. (5) */
static const int MAPS_FIG5[] = {S2_BB, S2_UTM, S2_UTM_PUBLISHED, S2_REC, S2_RB, S2_LAMBDA_RSQRT, S2_LAMBDA_EXACT_2D,
                                S2_LAMBDA_EXACT, S2_RECURSIVE_2D, S2_RECURSIVE, S2_RECURSIVE_ABOVE, S2_LAMBDA_STRICT};
/* the rho table: every map except utm-published and lambda-strict */
static const int MAPS_RHO[] = {S2_BB, S2_RB, S2_REC, S2_UTM, S2_LAMBDA_SQRT, S2_LAMBDA_NEWTON, S2_LAMBDA_RSQRT,
                               S2_LAMBDA_EXACT_2D, S2_LAMBDA_EXACT, S2_RECURSIVE_2D, S2_RECURSIVE, S2_RECURSIVE_ABOVE};
/* the box against the two exact compact maps (Table 1's sblocks, the coarsened write) */
static const int MAPS_BEST[] = {S2_BB, S2_LAMBDA_EXACT, S2_RECURSIVE};
static const int KERNELS_RHO[] = {S2_K_MAP, S2_K_DUMMY, S2_K_WRITE}; /* one block of rows each */
static const int KERNELS_ALL[] = {S2_K_MAP, S2_K_DUMMY, S2_K_WRITE, S2_K_EDM4D, S2_K_COLLISION3D, S2_K_COLLISION1D};
static const uint32_t RHOS_TABLE[] = {8, 16, 32};

/* The program's options (one struct, handed to every experiment). */
typedef struct {
    common_opts c;
    const char *exp, *map_name, *kernel_name, *dummy_store;
    long long n, rho, nmin, nmax, nstep;
    int map, kernel; /* --map and --kernel as map.h / kernels.cuh values */
    int argc;
    char **argv;     /* for the data files' # cmdline: line */
} s2_opts;

/* ---- device buffers, inputs and CPU references ------------------------------------------- */
typedef struct {
    uint32_t *d_mat;           /* n_max^2 words: matrices and coverage counts */
    void *d_in;                /* features / spheres / intervals */
    unsigned long long *d_cnt, *d_wrong;
    uint32_t *d_dummy;
    cudaStream_t st;
    uint64_t seed;
    int unconditional;         /* --dummy-store=unconditional */
} s2_ctx;

static void s2_ctx_open(s2_ctx *x, const s2_opts *o, uint32_t n_max)
{
    memset(x, 0, sizeof *x);
    x->seed = (uint64_t)o->c.seed;
    x->unconditional = !strcmp(o->dummy_store, "unconditional");
    x->d_mat = (uint32_t *)device_alloc_or_usage((size_t)n_max * n_max * 4, "the n x n matrix");
    x->d_in = device_alloc_or_usage((size_t)n_max * sizeof(float4), "the inputs");
    CHECK_CUDA(cudaMalloc(&x->d_cnt, sizeof *x->d_cnt));
    CHECK_CUDA(cudaMalloc(&x->d_wrong, sizeof *x->d_wrong));
    CHECK_CUDA(cudaMalloc(&x->d_dummy, sizeof *x->d_dummy));
    CHECK_CUDA(cudaStreamCreate(&x->st));
}

static void s2_ctx_close(s2_ctx *x)
{
    CHECK_CUDA(cudaFree(x->d_mat));
    CHECK_CUDA(cudaFree(x->d_in));
    CHECK_CUDA(cudaFree(x->d_cnt));
    CHECK_CUDA(cudaFree(x->d_wrong));
    CHECK_CUDA(cudaFree(x->d_dummy));
    CHECK_CUDA(cudaStreamDestroy(x->st));
}

static int s2_is_pair_kernel(int k) { return k == S2_K_EDM4D || k == S2_K_COLLISION3D || k == S2_K_COLLISION1D; }
static int s2_is_matrix_kernel(int k) { return k == S2_K_WRITE || k == S2_K_EDM4D || k == S2_K_COARSE; }

/* Deterministic inputs from the seed (splitmix64, common/rng.h). */
static inline float unit(uint64_t *s) { return (float)(rng_splitmix64(s) >> 40) / 16777216.0f; }

/* The inputs of kernel k at size n (section 5): float4 points/spheres or float2 intervals, on
 * the host and copied to the device, and for the collision kernels the CPU's count of
 * colliding pairs j < i.  Kernels without inputs get none. */
typedef struct {
    void *h_in;
    unsigned long long ref_count;
} s2_inputs;

static unsigned long long cpu_collisions(int k, const void *in, uint32_t n)
{
    unsigned long long c = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : c)
    for (long i = 0; i < (long)n; i++)
        for (long j = 0; j < i; j++)
            c += k == S2_K_COLLISION3D ? s2_hit3(((const float4 *)in)[i], ((const float4 *)in)[j])
                                       : s2_hit1(((const float2 *)in)[i], ((const float2 *)in)[j]);
    return c;
}

/* Host inputs for kernel k at size n: float4 points/spheres or float2 intervals. */
static void *make_inputs(int k, uint32_t n, uint64_t seed, size_t *bytes)
{
    uint64_t s = seed * 1000003ull + n;
    if (k == S2_K_COLLISION1D) {
        float2 *v = (float2 *)calloc(n, sizeof(float2));
        for (uint32_t i = 0; i < n; i++) { v[i].x = unit(&s); v[i].y = INTERVAL_RMAX * unit(&s); }
        *bytes = sizeof(float2) * n;
        return v;
    }
    float4 *v = (float4 *)calloc(n, sizeof(float4));
    for (uint32_t i = 0; i < n; i++) {
        v[i].x = unit(&s); v[i].y = unit(&s); v[i].z = unit(&s);
        v[i].w = k == S2_K_COLLISION3D ? SPHERE_RMAX * unit(&s) : unit(&s);
    }
    *bytes = sizeof(float4) * n;
    return v;
}

static s2_inputs s2_inputs_make(const s2_ctx *x, int k, uint32_t n)
{
    s2_inputs in = {NULL, 0};
    size_t bytes = 0;
    if (!s2_is_pair_kernel(k)) return in;
    in.h_in = make_inputs(k, n, x->seed, &bytes);
    CHECK_CUDA(cudaMemcpy(x->d_in, in.h_in, bytes, cudaMemcpyHostToDevice));
    if (k != S2_K_EDM4D) in.ref_count = cpu_collisions(k, in.h_in, n);
    return in;
}

/* Compares SAMPLE_ROWS rows of the device matrix with the CPU's values; returns mismatches. */
static long cpu_sample_rows(const s2_ctx *x, int k, uint32_t n, const float4 *h_in)
{
    uint32_t *row = (uint32_t *)malloc(sizeof(uint32_t) * n);
    long bad = 0;
    for (int r = 0; r < SAMPLE_ROWS; r++) {
        uint32_t i = r == 0 ? n - 1 : (uint32_t)(((uint64_t)r * 2654435761u) % n);
        CHECK_CUDA(cudaMemcpy(row, x->d_mat + (size_t)i * n, sizeof(uint32_t) * n, cudaMemcpyDeviceToHost));
        for (uint32_t j = 0; j < n; j++) {
            uint32_t e;
            int in = k == S2_K_EDM4D ? j < i : j <= i;
            if (!in) e = S2_POISON;
            else if (k == S2_K_WRITE || k == S2_K_COARSE) e = s2_write_value(i, j);
            else { float f = s2_edm(h_in[i], h_in[j]); memcpy(&e, &f, 4); }
            if (row[j] != e && bad++ < 3) fprintf(stderr, "  cell (%u, %u): got %08x, expected %08x\n", i, j, row[j], e);
        }
    }
    free(row);
    return bad;
}

static __global__ void k_fill_words(uint32_t *a, size_t n, uint32_t v)
{
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < n; t += (size_t)gridDim.x * blockDim.x) a[t] = v;
}

/* Counts the words of a[0, n) that differ from v (the linear fill's check). */
static __global__ void k_count_not(const uint32_t *a, size_t n, uint32_t v, unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < n; t += (size_t)gridDim.x * blockDim.x)
        mine += a[t] != v;
    if (mine) atomicAdd(wrong, mine);
}

static void poison_matrix(uint32_t *d, uint32_t n)
{
    k_fill_words<<<GRID_STRIDE_BLOCKS(16), 256>>>(d, (size_t)n * n, S2_POISON);
    CHECK_LAUNCH();
}

/* ---- one (map, kernel, n, rho) as a run_case: poison, run, check ------------------------- */
typedef struct {
    s2_ctx *x;
    s2_job jb;
    const s2_inputs *in;
    char label[96];
} s2_case;

static void case_poison(void *p)
{
    s2_case *c = (s2_case *)p;
    if (s2_is_matrix_kernel(c->jb.kernel)) poison_matrix(c->x->d_mat, c->jb.g.n);
    else if (s2_is_pair_kernel(c->jb.kernel)) CHECK_CUDA(cudaMemset(c->x->d_cnt, 0, sizeof *c->x->d_cnt));
}

static void case_run(void *p, cudaStream_t st) { s2_run(&((s2_case *)p)->jb, st); }

/* The wrong cells (matrix kernels), or wrongly covered cells, or 1 for a wrong collision count. */
static size_t case_check(void *p)
{
    s2_case *c = (s2_case *)p;
    const s2_grid *g = &c->jb.g;
    const int k = c->jb.kernel;
    const char *mn = s2_map_name(g->map), *kn = s2_kernel_name(k);
    if (s2_is_matrix_kernel(k)) {
        unsigned long long bad = s2_check_matrix(c->x->d_mat, g->n, k == S2_K_EDM4D ? 2 : 1, k == S2_K_EDM4D,
                                                 (const float4 *)c->x->d_in, c->x->d_wrong);
        if (bad) fprintf(stderr, "%s/%s n=%u rho=%u: %llu matrix cells wrong\n", mn, kn, g->n, g->rho, bad);
        if (bad) return bad;
        long b2 = cpu_sample_rows(c->x, k, g->n, (const float4 *)c->in->h_in);
        if (b2) fprintf(stderr, "%s/%s n=%u: %ld cells of the sampled rows differ from the CPU\n", mn, kn, g->n, b2);
        return (size_t)b2;
    }
    unsigned long long got = 0, bad = 0;
    if (s2_is_pair_kernel(k)) CHECK_CUDA(cudaMemcpy(&got, c->x->d_cnt, sizeof got, cudaMemcpyDeviceToHost));
    bad = s2_check_cover(g, c->x->d_mat, c->x->d_wrong); /* the map alone: every cell once */
    if (bad) fprintf(stderr, "%s n=%u rho=%u: %llu cells covered wrongly\n", mn, g->n, g->rho, bad);
    if (bad) return bad;
    if (s2_is_pair_kernel(k) && got != c->in->ref_count) {
        fprintf(stderr, "%s/%s n=%u: %llu collisions, CPU counts %llu\n", mn, kn, g->n, got, c->in->ref_count);
        return 1;
    }
    return 0;
}

/* The case of kernel k with map grid g; the run_case points into c. */
static run_case s2_case_of(s2_case *c, s2_ctx *x, const s2_grid *g, int k, const s2_inputs *in)
{
    memset(c, 0, sizeof *c);
    c->x = x, c->in = in;
    c->jb.g = *g;
    c->jb.kernel = k;
    c->jb.in = x->d_in;
    c->jb.unconditional = x->unconditional;
    c->jb.out = k == S2_K_DUMMY ? (void *)x->d_dummy : s2_is_pair_kernel(k) && k != S2_K_EDM4D ? (void *)x->d_cnt
                                                                                              : (void *)x->d_mat;
    snprintf(c->label, sizeof c->label, "%s/%s n=%u rho=%u", s2_map_name(g->map), s2_kernel_name(k), g->n, g->rho);
    run_case rc = {c->label, c, case_poison, case_run, NULL, case_check};
    return rc;
}

/* ---- the sweep behind Fig. 3, Fig. 5 and the rho table ----------------------------------- */
typedef struct {
    int kernel;
    s2_set maps;
    const uint32_t *ns, *rhos;
    int nn, nrho;
} s2_sweep;

/* GB/s of the bytes the triangle needs: 4 T(n) (write), 4 T(n - 1) (edm4d); nan otherwise. */
static double s2_gbs(int k, uint32_t n, double ms)
{
    if (k == S2_K_WRITE) return 4.0 * tri_number(n) / (ms * 1e-3) / 1e9;
    if (k == S2_K_EDM4D) return 4.0 * tri_number(n - 1) / (ms * 1e-3) / 1e9;
    return NAN;
}

/* For each n, rho and map of the set: verify, time, one row (columns: S2_SWEEP_COLUMNS).
 * I = T_BB / T_map at the same n and rho (BB comes first in every set). */
#define S2_SWEEP_COLUMNS "n rho kernel map launches blocks_launched blocks_needed median_ms min_ms max_ms batch improvement_x gbs"
static void run_sweep(s2_ctx *x, const common_opts *co, const s2_sweep *sw, datfile *d)
{
    const int k = sw->kernel;
    int refused[ARGS_COUNT(RHOS_TABLE)][S2_NMAPS]; /* per rho of the sweep */
    memset(refused, 0, sizeof refused);
    if (sw->nrho > ARGS_COUNT(RHOS_TABLE)) DIE("run_sweep: at most %d block sides", ARGS_COUNT(RHOS_TABLE));
    for (int a = 0; a < sw->nn; a++) {
        const uint32_t n = sw->ns[a];
        s2_inputs in = s2_inputs_make(x, k, n);
        for (int r = 0; r < sw->nrho; r++) {
            const uint32_t rho = sw->rhos[r];
            double t_bb = 0;
            for (int mi = 0; mi < sw->maps.n; mi++) {
                const int map = sw->maps.v[mi];
                s2_grid g;
                char err[256];
                if (refused[r][map]) continue;
                if (s2_map_is_strict(map) && !s2_is_pair_kernel(k)) continue; /* eq. (5) has no diagonal */
                if (s2_grid_make(&g, map, n, rho, err, sizeof err)) {
                    fprintf(stderr, "skip %s at n=%u rho=%u: %s\n", s2_map_name(map), n, rho, err);
                    datfile_meta(d, "skipped", "%s at n=%u rho=%u: %s", s2_map_name(map), n, rho, err);
                    continue;
                }
                s2_case c;
                run_case rc = s2_case_of(&c, x, &g, k, &in);
                bench_stats s;
                size_t bad = run_case_try(&rc, co, x->st, d, &s);
                if (bad && !s2_map_is_float(map)) DIE("verification failed: %s: %zu wrong", rc.label, bad);
                if (bad) { /* a float formula past its exact range: not timed here or beyond */
                    fprintf(stderr, "refused: %s is not exact at n=%u rho=%u (block rows up to %u); not timed from here on\n",
                            s2_map_name(map), n, rho, g.m - 1);
                    datfile_meta(d, "refused", "%s not exact at n=%u rho=%u (m=%u block rows); not timed at this n or above",
                                 s2_map_name(map), n, rho, g.m);
                    refused[r][map] = 1;
                    continue;
                }
                if (map == S2_BB) t_bb = s.median;
                const double impr = t_bb > 0 ? t_bb / s.median : NAN;
                datfile_row(d, "%u %u %s %s %u %llu %u %.6f %.6f %.6f %d %.4f %.1f", n, rho, s2_kernel_name(k),
                            s2_map_name(map), g.nlaunch, (unsigned long long)s2_grid_blocks(&g), g.nblocks_tri,
                            s.median, s.min, s.max, s.batch, impr, s2_gbs(k, n, s.median));
                fprintf(stderr, "%-12s %-13s n=%6u rho=%2u  %9.4f ms  I=%.3f\n", s2_kernel_name(k), s2_map_name(map), n,
                        rho, s.median, impr);
            }
        }
        free(in.h_in);
    }
}

/* The sizes --nmin .. --nmax step --nstep (--quick: to S2_QUICK_NMAX); returns the count. */
static int s2_sweep_sizes(const s2_opts *o, uint32_t *ns)
{
    long long nmax = o->nmax, nstep = o->nstep;
    if (o->c.quick && nmax > S2_QUICK_NMAX) nmax = S2_QUICK_NMAX, nstep = nstep < S2_QUICK_NSTEP ? S2_QUICK_NSTEP : nstep;
    int nn = 0;
    for (long long v = o->nmin; v <= nmax && nn < S2_MAX_SWEEP; v += nstep) ns[nn++] = (uint32_t)v;
    return nn;
}

static void s2_open(const s2_opts *o, datfile *d, const char *name, const char *figure)
{
    char gpu[256];
    device_describe(o->c.device, gpu, sizeof gpu);
    dat_meta m = dat_meta_of("simplex2d", figure, o->argc, o->argv, gpu, &o->c);
    datfile_open(d, o->c.out, name, &m);
}

/* ---- the experiments --------------------------------------------------------------------- */

/* One (map, kernel, n, rho): verified, timed, one line on stdout (no data file). */
static int exp_point(void *p)
{
    const s2_opts *o = (const s2_opts *)p;
    s2_ctx x;
    s2_grid g;
    char err[256];
    s2_ctx_open(&x, o, (uint32_t)o->n);
    s2_grid_make(&g, o->map, (uint32_t)o->n, (uint32_t)o->rho, err, sizeof err); /* checked before the GPU */
    s2_inputs in = s2_inputs_make(&x, o->kernel, (uint32_t)o->n);
    s2_case c;
    run_case rc = s2_case_of(&c, &x, &g, o->kernel, &in);
    bench_stats s = run_case_time(&rc, &o->c, x.st, NULL);
    printf("map %s kernel %s n %lld rho %lld: verified; median %.4f ms [%.4f, %.4f], %llu blocks for %u needed\n",
           o->map_name, o->kernel_name, o->n, o->rho, s.median, s.min, s.max, (unsigned long long)s2_grid_blocks(&g),
           g.nblocks_tri);
    free(in.h_in);
    s2_ctx_close(&x);
    return 0;
}

/* Fig. 3 and Fig. 5 share this: one kernel, one map set, the n sweep at --rho. */
static int s2_fig_sweep(const s2_opts *o, int kernel, s2_set maps, const char *name, const char *figure,
                        const char *key, const char *note)
{
    uint32_t ns[S2_MAX_SWEEP];
    const uint32_t rho = (uint32_t)o->rho;
    s2_sweep sw = {kernel, maps, ns, &rho, s2_sweep_sizes(o, ns), 1};
    s2_ctx x;
    datfile d;
    s2_ctx_open(&x, o, ns[sw.nn - 1]);
    s2_open(o, &d, name, figure);
    datfile_meta(&d, key, "%s", note);
    datfile_columns(&d, S2_SWEEP_COLUMNS);
    run_sweep(&x, &o->c, &sw, &d);
    datfile_commit(&d);
    s2_ctx_close(&x);
    return 0;
}

static int exp_fig3(void *p)
{
    const s2_set maps = S2_SET(MAPS_FIG3);
    return s2_fig_sweep((const s2_opts *)p, S2_K_MAP, maps, "simplex2d_fig3_dummy.dat",
                        "Fig. 3 of arXiv:1609.01490 (square-root variants of lambda, zero-work kernel)", "kernel",
                        "map: the map alone, no store (the paper's dummy intent; k_map in kernels.cuh)");
}

static int exp_fig5(void *p)
{
    const s2_opts *o = (const s2_opts *)p;
    const s2_set maps = S2_SET(MAPS_FIG5);
    char name[96];
    snprintf(name, sizeof name, "simplex2d_fig5_%s.dat", o->kernel_name);
    return s2_fig_sweep(o, o->kernel, maps, name, "Fig. 5 of arXiv:1609.01490 (improvement over BB per map and kernel)",
                        "lambda", "the paper's lambda in Fig. 5 is lambda-rsqrt (lambda R); lambda-exact and recursive are ours");
}

/* Every map at rho = 8, 16, 32 and n = --n; the kernels map, dummy and write, one block of rows each. */
static int exp_rho(void *p)
{
    const s2_opts *o = (const s2_opts *)p;
    const uint32_t n = (uint32_t)o->n;
    s2_ctx x;
    datfile d;
    s2_ctx_open(&x, o, n);
    s2_open(o, &d, "simplex2d_tab_rho.dat", "effect of rho at the largest n (README table; no paper figure)");
    datfile_columns(&d, S2_SWEEP_COLUMNS);
    for (int k = 0; k < ARGS_COUNT(KERNELS_RHO); k++) {
        s2_sweep sw = {KERNELS_RHO[k], S2_SET(MAPS_RHO), &n, RHOS_TABLE, 1, ARGS_COUNT(RHOS_TABLE)};
        run_sweep(&x, &o->c, &sw, &d);
    }
    datfile_commit(&d);
    s2_ctx_close(&x);
    return 0;
}

/* Table 1's "sblocks" (simultaneous blocks of the whole GPU) for this GPU and our kernels: the
 * occupancy calculator's resident blocks per SM times the SMs (nothing is timed). */
static int exp_sblocks(void *p)
{
    const s2_opts *o = (const s2_opts *)p;
    cudaDeviceProp prop;
    datfile d;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, o->c.device));
    s2_open(o, &d, "simplex2d_tab1_sblocks.dat",
            "Table 1 of arXiv:1609.01490 (sblocks: simultaneous blocks of the GPU), for this GPU and our kernels");
    datfile_meta(&d, "limits", "%d SMs, at most %d threads, %d blocks and %d registers per SM", prop.multiProcessorCount,
                 prop.maxThreadsPerMultiProcessor, prop.maxBlocksPerMultiProcessor, prop.regsPerMultiprocessor);
    datfile_columns(&d, "rho threads_per_block kernel map regs_per_thread blocks_per_sm sblocks");
    for (int r = 0; r < ARGS_COUNT(RHOS_TABLE); r++)
        for (int k = 0; k < ARGS_COUNT(KERNELS_ALL); k++)
            for (int mi = 0; mi < ARGS_COUNT(MAPS_BEST); mi++) {
                const uint32_t rho = RHOS_TABLE[r];
                int regs, nb = s2_occupancy(MAPS_BEST[mi], KERNELS_ALL[k], rho, &regs);
                datfile_row(&d, "%u %u %s %s %d %d %d", rho, rho * rho, s2_kernel_name(KERNELS_ALL[k]),
                            s2_map_name(MAPS_BEST[mi]), regs, nb, nb * prop.multiProcessorCount);
            }
    datfile_commit(&d);
    return 0;
}

/* The reference of the coarse experiment: a linear 16-byte fill of `words` words, checked. */
typedef struct {
    s2_ctx *x;
    size_t words;
} s2_fill;
static void fill_poison(void *p)
{
    const s2_fill *f = (const s2_fill *)p;
    k_fill_words<<<GRID_STRIDE_BLOCKS(16), 256>>>(f->x->d_mat, f->words, S2_POISON);
    CHECK_LAUNCH();
}
static void fill_run(void *p, cudaStream_t st)
{
    const s2_fill *f = (const s2_fill *)p;
    k_fill<<<GRID_STRIDE_BLOCKS(8), 256, 0, st>>>((uint4 *)f->x->d_mat, f->words / 4, S2_FILL_VALUE);
}
static size_t fill_check(void *p)
{
    const s2_fill *f = (const s2_fill *)p;
    unsigned long long wrong = 0;
    CHECK_CUDA(cudaMemset(f->x->d_wrong, 0, sizeof wrong));
    k_count_not<<<GRID_STRIDE_BLOCKS(16), 256>>>(f->x->d_mat, f->words, S2_FILL_VALUE, f->x->d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(&wrong, f->x->d_wrong, sizeof wrong, cudaMemcpyDeviceToHost));
    if (wrong) fprintf(stderr, "linear fill: %llu of %zu words wrong\n", wrong, f->words);
    return wrong;
}

/* The triangular write of bb, lambda-exact and recursive at n = --n, plain (rho = --rho) and
 * coarsened (k_write_coarse: 32 x 32 tiles, 16-byte stores), against a linear fill of the same
 * 4 T(n) bytes: this GPU's write rate (ours; no paper figure). */
static int exp_coarse(void *p)
{
    const s2_opts *o = (const s2_opts *)p;
    const uint32_t n = (uint32_t)o->n;
    const double bytes = 4.0 * tri_number(n);
    const s2_inputs none = {NULL, 0}; /* the write kernels read no inputs */
    s2_ctx x;
    datfile d;
    s2_ctx_open(&x, o, n);
    s2_open(o, &d, "simplex2d_coarse_write.dat",
            "coarsened triangular write vs this GPU's write rate (beyond the paper; no paper figure)");
    datfile_meta(&d, "bytes", "4 T(n) = %.0f bytes written (lower triangle with diagonal)", bytes);
    datfile_columns(&d, "n rho variant map median_ms min_ms max_ms batch improvement_x gbs pct_of_fill");
    s2_fill fc = {&x, (size_t)(bytes / 16) * 4};
    run_case fill = {"linear fill", &fc, fill_poison, fill_run, NULL, fill_check};
    bench_stats sf = run_case_time(&fill, &o->c, x.st, &d);
    const double fill_gbs = bytes / (sf.median * 1e-3) / 1e9;
    datfile_row(&d, "%u 0 fill linear %.6f %.6f %.6f %d nan %.1f 100.0", n, sf.median, sf.min, sf.max, sf.batch, fill_gbs);
    fprintf(stderr, "fill (linear, same bytes)   %9.4f ms  %.0f GB/s\n", sf.median, fill_gbs);
    for (int v = 0; v < 2; v++) { /* plain, then coarse */
        double t_bb = 0;
        for (int mi = 0; mi < ARGS_COUNT(MAPS_BEST); mi++) {
            const uint32_t rho = v ? 32 : (uint32_t)o->rho;
            s2_grid g;
            char err[256];
            if (s2_grid_make(&g, MAPS_BEST[mi], n, rho, err, sizeof err)) DIE_USAGE("%s", err);
            s2_case c;
            run_case rc = s2_case_of(&c, &x, &g, v ? S2_K_COARSE : S2_K_WRITE, &none);
            bench_stats s = run_case_time(&rc, &o->c, x.st, &d);
            if (MAPS_BEST[mi] == S2_BB) t_bb = s.median;
            const double gbs = bytes / (s.median * 1e-3) / 1e9;
            datfile_row(&d, "%u %u %s %s %.6f %.6f %.6f %d %.4f %.1f %.1f", n, rho, v ? "coarse" : "plain",
                        s2_map_name(MAPS_BEST[mi]), s.median, s.min, s.max, s.batch, t_bb / s.median, gbs, 100 * gbs / fill_gbs);
            fprintf(stderr, "%-6s %-13s rho=%2u %9.4f ms  I=%.3f  %.0f GB/s = %.0f%% of fill\n", v ? "coarse" : "plain",
                    s2_map_name(MAPS_BEST[mi]), rho, s.median, t_bb / s.median, gbs, 100 * gbs / fill_gbs);
        }
    }
    datfile_commit(&d);
    s2_ctx_close(&x);
    return 0;
}

/* The cells of every working thread of --map for --n, --rho, evaluated on the host with the
 * device's map function over exactly the GPU's launch grid (no GPU): the papers' Fig. 2 / 4. */
static int exp_layout(void *p)
{
    const s2_opts *o = (const s2_opts *)p;
    const int map = o->map;
    s2_grid g;
    char err[256], cmd[1024];
    s2_grid_make(&g, map, (uint32_t)o->n, (uint32_t)o->rho, err, sizeof err); /* checked before */
    args_cmdline(o->argc, o->argv, cmd, sizeof cmd);
    printf("# program: simplex2d --exp=layout\n# figure: layout of map %s (papers' Fig. 2/4 drawings as data)\n", s2_map_name(map));
    printf("# cmdline: %s\n# git: %s\n# gpu: none (host evaluation of the device map function)\n", cmd, COMMON_GIT_REV);
    printf("# map: %s\n# n: %lld\n# rho: %lld\n# launches: %u\n", s2_map_name(map), o->n, o->rho, g.nlaunch);
    printf("i j launch block thread\n");
    for (uint32_t l = 0; l < g.nlaunch; l++)
        for (uint32_t by = 0; by < g.gy[l]; by++)
            for (uint32_t bx = 0; bx < g.gx[l]; bx++)
                for (uint32_t ty = 0; ty < g.by_threads; ty++)
                    for (uint32_t tx = 0; tx < g.bx_threads; tx++) {
                        uint32_t i, j;
                        if (!s2_map_cell(&g, map, l, bx, by, tx, ty, 0, &i, &j)) continue;
                        printf("%u %u %u %u %u\n", i, j, l, by * g.gx[l] + bx, ty * g.bx_threads + tx);
                    }
    return 0;
}

static const experiment EXPERIMENTS[] = {
    /* name      paper item (arXiv:1609.01490)  what it measures                                  */
    {"fig3", "Fig. 3", "I = T_BB / T_map of the square-root variants of lambda, zero-work kernel, n sweep", exp_fig3},
    {"fig5", "Fig. 5", "I of every map on one --kernel (dummy edm4d collision3d collision1d write map), n sweep", exp_fig5},
    {"sblocks", "Table 1", "sblocks: resident blocks of the whole GPU per rho, kernel and map (nothing timed)", exp_sblocks},
    {"rho", "beyond the paper", "every map at rho = 8, 16, 32 and n = --n: kernels map, dummy, write", exp_rho},
    {"coarse", "beyond the paper", "coarsened triangular write (16-byte stores) vs a linear fill of the same bytes", exp_coarse},
    {"point", "any", "one --map, --kernel, --n, --rho: verified, timed, one line on stdout", exp_point},
    {"layout", "Fig. 2 / Fig. 4", "the cell of every thread of --map for --n, --rho on stdout", exp_layout, EXP_HOST},
};

/* ---- options ----------------------------------------------------------------------------- */
static s2_opts s2_parse_options(int argc, char **argv)
{
    s2_opts o;
    memset(&o, 0, sizeof o);
    o.c = common_opts_default();
    o.map_name = "lambda-exact", o.kernel_name = "write", o.dummy_store = "conditional";
    o.n = 4096, o.rho = 16, o.nmin = 1024, o.nmax = 30720, o.nstep = 1024;
    o.argc = argc, o.argv = argv;
    arg_opt opts[] = {
        COMMON_ARGS(o.c),
        {"exp", ARG_STR, &o.exp, "experiment (required; --exp=list prints the table)", 0, 0, NULL},
        {"map", ARG_CHOICE, &o.map_name, "thread map (point, layout)", 0, 0, S2_MAP_NAMES},
        {"kernel", ARG_CHOICE, &o.kernel_name, "test kernel (point, fig5)", 0, 0, S2_KERNEL_NAMES},
        {"dummy-store", ARG_CHOICE, &o.dummy_store, "dummy kernel's store: conditional (never taken) or the paper's unconditional one", 0, 0,
         "conditional unconditional"},
        {"n", ARG_LONG, &o.n, "matrix side (point, rho, coarse, layout)", 1, 1 << 20, NULL},
        {"rho", ARG_LONG, &o.rho, "block side: 1 2 4 8 16 32 (point, fig3, fig5, coarse, layout)", 1, 32, ARG_POW2},
        {"nmin", ARG_LONG, &o.nmin, "sweep: first n", 1, 1 << 20, NULL},
        {"nmax", ARG_LONG, &o.nmax, "sweep: last n", 1, 1 << 20, NULL},
        {"nstep", ARG_LONG, &o.nstep, "sweep: step of n", 1, 1 << 20, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "simplex2d --exp=NAME [options]",
               "Thread maps for triangular domains (--map) on the papers' test kernels (--kernel): verified,\n"
               "then timed; --exp picks the figure or table (--exp=list, README).");
    common_opts_finish(&o.c);
    o.map = s2_map_of(o.map_name);
    while (o.kernel < S2_NKERNELS && strcmp(s2_kernel_name(o.kernel), o.kernel_name)) o.kernel++;
    return o;
}

/* What experiment `run` needs of the options, checked before the GPU and before any data file
 * is opened (one error line, exit 2). */
static void s2_check_options(const s2_opts *o, int (*run)(void *))
{
    if (o->nmin > o->nmax) DIE_USAGE("--nmin=%lld > --nmax=%lld", o->nmin, o->nmax);
    if ((run == exp_fig3 || run == exp_fig5) && (o->nmax - o->nmin) / o->nstep + 1 > S2_MAX_SWEEP)
        DIE_USAGE("--nmin=%lld --nmax=%lld --nstep=%lld: %lld sizes, at most %d", o->nmin, o->nmax, o->nstep,
                  (o->nmax - o->nmin) / o->nstep + 1, S2_MAX_SWEEP);
    if (run == exp_point && s2_map_is_strict(o->map) && !s2_is_pair_kernel(o->kernel))
        DIE_USAGE("--map=%s (eq. 5, no diagonal) serves the pair kernels only: --kernel=edm4d, collision3d or collision1d", o->map_name);
    if (run == exp_coarse && o->n % 4) DIE_USAGE("--exp=coarse needs n a multiple of 4 (16-byte rows), got %lld", o->n);
    if (run == exp_point || run == exp_layout) {
        s2_grid g;
        char err[256];
        if (s2_grid_make(&g, o->map, (uint32_t)o->n, (uint32_t)o->rho, err, sizeof err)) DIE_USAGE("%s", err);
    }
    if (run == exp_layout && tri_number((uint64_t)o->n) > S2_MAX_LAYOUT_CELLS)
        DIE_USAGE("--exp=layout: n=%lld gives %llu lines (at most %llu); choose a smaller --n", o->n,
                  (unsigned long long)tri_number((uint64_t)o->n), (unsigned long long)S2_MAX_LAYOUT_CELLS);
}

int main(int argc, char **argv)
{
    s2_opts o = s2_parse_options(argc, argv); /* --help; a bad value: one line, exit 2 */
    const experiment *e = experiment_select(EXPERIMENTS, ARGS_COUNT(EXPERIMENTS), o.exp, "simplex2d");
    s2_check_options(&o, e->run);
    if (!e->host) device_require(o.c.device, 7, 5); /* layout runs on the host */
    return e->run(&o);
}
