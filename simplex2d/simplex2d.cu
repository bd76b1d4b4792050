/* simplex2d.cu -- GPU thread maps for triangular domains (Navarro, Bustos, Hitschfeld,
 * arXiv:1609.01490; the O(1) recursive map of arXiv:1610.07394, section III.A).
 *
 * Modes (--exp):
 *   point   one (map, kernel, n, rho): verify, time, print one line (no data file)
 *   fig3    zero-work kernel (map), bb + the lambda square-root variants, n sweep
 *                                                                         -> simplex2d_fig3_dummy.dat
 *   fig5    one kernel (--kernel), bb utm rec rb lambda-rsqrt lambda-exact recursive, n sweep
 *                                                                         -> simplex2d_fig5_<kernel>.dat
 *   rho     every map, kernels map, dummy and write, rho in {8, 16, 32} at --n -> simplex2d_tab_rho.dat
 *   coarse  write kernels at --n: plain (bb, lambda-exact, recursive), coarsened, and a linear
 *           16-byte fill of the same bytes (this GPU's write rate)     -> simplex2d_coarse_write.dat
 *   --layout (no GPU): the cells each thread of --map covers for --n, --rho, on stdout.
 * Every (map, n) is verified before it is timed: exact coverage of the triangle on the
 * device (map, dummy, collisions), or every matrix cell compared on the device plus sampled rows
 * against the CPU (write, edm4d), or the collision count against the CPU's.  A float map
 * (lambda-sqrt/-newton/-rsqrt) that is wrong at some n is not timed there or beyond
 * (`# refused:` line); any other mismatch is an error (exit 1, no data file). */
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
#include "../common/rng.h"
#include "map.h"
#include "kernels.cuh"

#define SAMPLE_ROWS 16        /* rows of write/edm matrices also compared on the CPU */
#define SPHERE_RMAX 0.02f     /* collision3d radii uniform in [0, RMAX): rare collisions */
#define INTERVAL_RMAX 1e-4f   /* collision1d half-widths uniform in [0, RMAX) */
#define S2_MAX_SWEEP 4096     /* most sizes of one --nmin..--nmax sweep (more: exit 2) */
#define S2_MAX_LAYOUT_CELLS (1ull << 26) /* --layout prints one line per cell: keep it sane */

typedef struct {
    uint32_t n_max;
    uint32_t *d_mat;           /* n_max^2 words: matrices and coverage counts */
    void *d_in;                /* features / spheres / intervals */
    unsigned long long *d_cnt, *d_wrong;
    uint32_t *d_dummy;
    cudaStream_t st;
    common_opts *c;
    int unconditional;         /* --dummy-store=unconditional */
} s2_ctx;

/* Deterministic inputs from the seed (splitmix64, common/rng.h). */
static inline float unit(uint64_t *s) { return (float)(rng_splitmix64(s) >> 40) / 16777216.0f; }

/* Host inputs for kernel k at size n: float4 points/spheres or float2 intervals. */
static void *make_inputs(int k, uint32_t n, uint64_t seed, size_t *bytes)
{
    uint64_t s = seed * 1000003ull + n;
    if (k == S2_K_COLLISION1D) {
        float2 *v = (float2 *)malloc(sizeof(float2) * n);
        for (uint32_t i = 0; i < n; i++) { v[i].x = unit(&s); v[i].y = INTERVAL_RMAX * unit(&s); }
        *bytes = sizeof(float2) * n;
        return v;
    }
    float4 *v = (float4 *)malloc(sizeof(float4) * n);
    for (uint32_t i = 0; i < n; i++) {
        v[i].x = unit(&s); v[i].y = unit(&s); v[i].z = unit(&s);
        v[i].w = k == S2_K_COLLISION3D ? SPHERE_RMAX * unit(&s) : unit(&s);
    }
    *bytes = sizeof(float4) * n;
    return v;
}

/* CPU reference: number of colliding pairs j < i. */
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

static __global__ void k_fill_words(uint32_t *a, size_t n, uint32_t v)
{
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < n; t += (size_t)gridDim.x * blockDim.x) a[t] = v;
}
static void poison(uint32_t *d, uint32_t n)
{
    k_fill_words<<<GRID_STRIDE_BLOCKS(16), 256>>>(d, (size_t)n * n, S2_POISON);
    CHECK_LAUNCH();
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

/* Verifies job jb (map g, kernel k) at size n; returns 0 if right. */
static int verify_job(s2_ctx *x, s2_job *jb, const void *h_in, unsigned long long ref_count)
{
    const s2_grid *g = &jb->g;
    uint32_t n = g->n;
    int k = jb->kernel;
    if (k == S2_K_WRITE || k == S2_K_EDM4D || k == S2_K_COARSE) {
        poison(x->d_mat, n);
        s2_run(jb, x->st);
        CHECK_CUDA(cudaStreamSynchronize(x->st));
        unsigned long long bad = s2_check_matrix(x->d_mat, n, k == S2_K_EDM4D ? 2 : 1, k == S2_K_EDM4D,
                                                 (const float4 *)x->d_in, x->d_wrong);
        if (bad) {
            fprintf(stderr, "%s/%s n=%u rho=%u: %llu matrix cells wrong\n", s2_map_name(g->map), s2_kernel_name(k), n, g->rho, bad);
            return 1;
        }
        long b2 = cpu_sample_rows(x, k, n, (const float4 *)h_in);
        if (b2) fprintf(stderr, "%s/%s n=%u: %ld cells of the sampled rows differ from the CPU\n", s2_map_name(g->map), s2_kernel_name(k), n, b2);
        return b2 != 0;
    }
    /* dummy and collisions: exact coverage of the map on the device */
    unsigned long long bad = s2_check_cover(g, x->d_mat, x->d_wrong);
    if (bad) {
        fprintf(stderr, "%s n=%u rho=%u: %llu cells covered wrongly\n", s2_map_name(g->map), n, g->rho, bad);
        return 1;
    }
    if (k == S2_K_COLLISION3D || k == S2_K_COLLISION1D) {
        unsigned long long got = 0;
        CHECK_CUDA(cudaMemset(x->d_cnt, 0, sizeof got));
        s2_run(jb, x->st);
        CHECK_CUDA(cudaMemcpyAsync(&got, x->d_cnt, sizeof got, cudaMemcpyDeviceToHost, x->st));
        CHECK_CUDA(cudaStreamSynchronize(x->st));
        if (got != ref_count) {
            fprintf(stderr, "%s/%s n=%u: %llu collisions, CPU counts %llu\n", s2_map_name(g->map), s2_kernel_name(k), n, got, ref_count);
            return 1;
        }
    }
    return 0;
}

static void job_of(s2_ctx *x, s2_job *jb, const s2_grid *g, int k)
{
    memset(jb, 0, sizeof *jb);
    jb->g = *g;
    jb->kernel = k;
    jb->in = x->d_in;
    jb->unconditional = x->unconditional;
    jb->out = k == S2_K_DUMMY ? (void *)x->d_dummy
            : (k == S2_K_COLLISION3D || k == S2_K_COLLISION1D) ? (void *)x->d_cnt : (void *)x->d_mat;
}

/* One sweep: for each n (and rho) and map: verify, time, write a row.  Returns 0. */
typedef struct {
    int kernel;
    const int *maps;
    int nmaps;
    const uint32_t *ns;
    int nn;
    const uint32_t *rhos;
    int nrho;
    int more;        /* rows of another kernel follow an earlier sweep's: no header row */
} s2_sweep;

static void run_sweep(s2_ctx *x, const s2_sweep *sw, datfile *d)
{
    int k = sw->kernel;
    int dead[8][S2_NMAPS];
    memset(dead, 0, sizeof dead);
    if (!sw->more)
        datfile_columns(d, "n rho kernel map launches blocks_launched blocks_needed median_ms min_ms max_ms batch improvement_x gbs");
    for (int a = 0; a < sw->nn; a++) {
        uint32_t n = sw->ns[a];
        size_t in_bytes = 0;
        void *h_in = NULL;
        unsigned long long ref = 0;
        if (k == S2_K_EDM4D || k == S2_K_COLLISION3D || k == S2_K_COLLISION1D) {
            h_in = make_inputs(k, n, (uint64_t)x->c->seed, &in_bytes);
            CHECK_CUDA(cudaMemcpy(x->d_in, h_in, in_bytes, cudaMemcpyHostToDevice));
            if (k != S2_K_EDM4D) ref = cpu_collisions(k, h_in, n);
        }
        for (int r = 0; r < sw->nrho; r++) {
            uint32_t rho = sw->rhos[r];
            double t_bb = 0;
            for (int mi = 0; mi < sw->nmaps; mi++) {
                int map = sw->maps[mi];
                s2_grid g;
                char err[256];
                if (dead[r][map]) continue;
                if (s2_map_is_strict(map) && k != S2_K_EDM4D && k != S2_K_COLLISION3D && k != S2_K_COLLISION1D)
                    continue; /* eq. (5) has no diagonal: pair kernels only */
                if (s2_grid_make(&g, map, n, rho, err, sizeof err)) {
                    fprintf(stderr, "skip %s at n=%u rho=%u: %s\n", s2_map_name(map), n, rho, err);
                    datfile_meta(d, "skipped", "%s at n=%u rho=%u: %s", s2_map_name(map), n, rho, err);
                    continue;
                }
                s2_job jb;
                job_of(x, &jb, &g, k);
                if (verify_job(x, &jb, h_in, ref)) {
                    if (s2_map_is_float(map)) {
                        fprintf(stderr, "refused: %s is not exact at n=%u rho=%u (block rows up to %u); not timed from here on\n",
                                s2_map_name(map), n, rho, g.m - 1);
                        datfile_meta(d, "refused", "%s not exact at n=%u rho=%u (m=%u block rows); not timed at this n or above",
                                     s2_map_name(map), n, rho, g.m);
                        dead[r][map] = 1;
                        continue;
                    }
                    datfile_discard(d);
                    DIE("verification failed: map %s, kernel %s, n=%u, rho=%u", s2_map_name(map), s2_kernel_name(k), n, rho);
                }
                bench_stats s = bench_gpu(s2_run, &jb, x->st, x->c->warmup, x->c->reps, x->c->batch);
                char label[96];
                snprintf(label, sizeof label, "%s/%s n=%u rho=%u", s2_map_name(map), s2_kernel_name(k), n, rho);
                if (bench_warn_spread(label, s))
                    datfile_meta(d, "warning", "spread %.0f%% for %s", 100 * bench_spread(s), label);
                if (map == S2_BB) t_bb = s.median;
                double impr = t_bb > 0 ? t_bb / s.median : NAN;
                double gbs = k == S2_K_WRITE ? 4.0 * tri_number(n) / (s.median * 1e-3) / 1e9
                           : k == S2_K_EDM4D ? 4.0 * tri_number(n - 1) / (s.median * 1e-3) / 1e9 : NAN;
                datfile_row(d, "%u %u %s %s %u %llu %u %.6f %.6f %.6f %d %.4f %.1f", n, rho, s2_kernel_name(k),
                            s2_map_name(map), g.nlaunch, (unsigned long long)s2_grid_blocks(&g), g.nblocks_tri,
                            s.median, s.min, s.max, s.batch, impr, gbs);
                fprintf(stderr, "%-12s %-13s n=%6u rho=%2u  %9.4f ms  I=%.3f\n", s2_kernel_name(k), s2_map_name(map), n, rho,
                        s.median, impr);
            }
        }
        free(h_in);
    }
}

/* --layout: the cells of every working thread, evaluated with the device's map function
 * over exactly the launch grid of the GPU run. */
static int print_layout(int map, uint32_t n, uint32_t rho, int argc, char **argv)
{
    s2_grid g;
    char err[256], cmd[1024];
    if (s2_grid_make(&g, map, n, rho, err, sizeof err)) DIE_USAGE("%s", err);
    if (tri_number(n) > S2_MAX_LAYOUT_CELLS)
        DIE_USAGE("--layout: n=%u gives %llu lines (at most %llu); choose a smaller --n", n,
                  (unsigned long long)tri_number(n), (unsigned long long)S2_MAX_LAYOUT_CELLS);
    args_cmdline(argc, argv, cmd, sizeof cmd);
    printf("# program: simplex2d --layout\n# figure: layout of map %s (papers' Fig. 2/4 drawings as data)\n", s2_map_name(map));
    printf("# cmdline: %s\n# git: %s\n# gpu: none (host evaluation of the device map function)\n", cmd, COMMON_GIT_REV);
    printf("# map: %s\n# n: %u\n# rho: %u\n# launches: %u\n", s2_map_name(map), n, rho, g.nlaunch);
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

int main(int argc, char **argv)
{
    common_opts c = common_opts_default();
    const char *exp = "point", *map_name = "lambda-exact", *kernel_name = "write", *dummy_store = "conditional";
    long long n = 4096, rho = 16, nmin = 1024, nmax = 30720, nstep = 1024;
    int layout = 0;
    arg_opt opts[] = {
        COMMON_ARGS(c),
        {"exp", ARG_CHOICE, &exp, "experiment", 0, 0, "point fig3 fig5 rho coarse sblocks"},
        {"map", ARG_CHOICE, &map_name, "thread map (point, --layout)", 0, 0, S2_MAP_NAMES},
        {"kernel", ARG_CHOICE, &kernel_name, "test kernel (point, fig5)", 0, 0, S2_KERNEL_NAMES},
        {"dummy-store", ARG_CHOICE, &dummy_store, "dummy kernel's store: conditional (never taken) or the paper's unconditional one", 0, 0,
         "conditional unconditional"},
        {"n", ARG_LONG, &n, "matrix side (point, rho, coarse, --layout)", 1, 1 << 20, NULL},
        {"rho", ARG_LONG, &rho, "block side: 1 2 4 8 16 32 (point, fig3, fig5, --layout)", 1, 32, ARG_POW2},
        {"nmin", ARG_LONG, &nmin, "sweep: first n", 1, 1 << 20, NULL},
        {"nmax", ARG_LONG, &nmax, "sweep: last n", 1, 1 << 20, NULL},
        {"nstep", ARG_LONG, &nstep, "sweep: step of n", 1, 1 << 20, NULL},
        {"layout", ARG_FLAG, &layout, "print `i j launch block thread` per working thread (no GPU)", 0, 0, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "simplex2d [options]",
               "Thread maps for triangular domains (--map) on the papers' test kernels (--kernel): verified,\n"
               "then timed; --exp picks the figure or table (README).");
    common_opts_finish(&c);
    int map = s2_map_of(map_name);
    int kernel = 0;
    while (kernel < S2_NKERNELS && strcmp(s2_kernel_name(kernel), kernel_name)) kernel++;
    if (n < 1) DIE_USAGE("--n=%lld: n must be at least 1", n);
    if (rho != 1 && rho != 2 && rho != 4 && rho != 8 && rho != 16 && rho != 32)
        DIE_USAGE("--rho=%lld not supported (1, 2, 4, 8, 16 or 32)", rho);
    if (!layout && !strcmp(exp, "point") && s2_map_is_strict(map) && kernel != S2_K_EDM4D && kernel != S2_K_COLLISION3D &&
        kernel != S2_K_COLLISION1D)
        DIE_USAGE("--map=%s (eq. 5, no diagonal) serves the pair kernels only: --kernel=edm4d, collision3d or collision1d", map_name);
    if (nmin > nmax) DIE_USAGE("--nmin=%lld > --nmax=%lld", nmin, nmax);
    if ((!strcmp(exp, "fig3") || !strcmp(exp, "fig5")) && (nmax - nmin) / nstep + 1 > S2_MAX_SWEEP)
        DIE_USAGE("--nmin=%lld --nmax=%lld --nstep=%lld: %lld sizes, at most %d", nmin, nmax, nstep,
                  (nmax - nmin) / nstep + 1, S2_MAX_SWEEP);
    /* before the GPU and before any data file is opened (no half-written .tmp) */
    if (!strcmp(exp, "coarse") && n % 4) DIE_USAGE("--exp=coarse needs n a multiple of 4 (16-byte rows), got %lld", n);
    {
        s2_grid g;
        char err[256];
        if (s2_grid_make(&g, map, (uint32_t)n, (uint32_t)rho, err, sizeof err)) DIE_USAGE("%s", err);
    }
    if (layout) return print_layout(map, (uint32_t)n, (uint32_t)rho, argc, argv);
    if (c.quick && !strcmp(exp, "fig3") && nmax > 8192) nmax = 8192, nstep = nstep < 2048 ? 2048 : nstep;
    if (c.quick && !strcmp(exp, "fig5") && nmax > 8192) nmax = 8192, nstep = nstep < 2048 ? 2048 : nstep;

    device_require(c.device, 7, 5);
    char gpu[256];
    device_describe(c.device, gpu, sizeof gpu);

    /* sizes and the largest buffer */
    uint32_t ns[S2_MAX_SWEEP];
    int nn = 0;
    uint32_t rhos_sweep[1] = {(uint32_t)rho}, rhos_tab[3] = {8, 16, 32};
    if (!strcmp(exp, "fig3") || !strcmp(exp, "fig5"))
        for (long long v = nmin; v <= nmax && nn < S2_MAX_SWEEP; v += nstep) ns[nn++] = (uint32_t)v;
    else ns[nn++] = (uint32_t)n;
    uint32_t n_max = 0;
    for (int a = 0; a < nn; a++) n_max = ns[a] > n_max ? ns[a] : n_max;

    s2_ctx x;
    memset(&x, 0, sizeof x);
    x.c = &c;
    x.n_max = n_max;
    x.unconditional = !strcmp(dummy_store, "unconditional");
    x.d_mat = (uint32_t *)device_alloc_or_usage((size_t)n_max * n_max * 4, "the n x n matrix");
    x.d_in = device_alloc_or_usage((size_t)n_max * sizeof(float4), "the inputs");
    CHECK_CUDA(cudaMalloc(&x.d_cnt, sizeof *x.d_cnt));
    CHECK_CUDA(cudaMalloc(&x.d_wrong, sizeof *x.d_wrong));
    CHECK_CUDA(cudaMalloc(&x.d_dummy, sizeof *x.d_dummy));
    CHECK_CUDA(cudaStreamCreate(&x.st));

    if (!strcmp(exp, "point")) {
        s2_grid g;
        char err[256];
        s2_grid_make(&g, map, (uint32_t)n, (uint32_t)rho, err, sizeof err);
        size_t bytes = 0;
        void *h_in = NULL;
        unsigned long long ref = 0;
        if (kernel == S2_K_EDM4D || kernel == S2_K_COLLISION3D || kernel == S2_K_COLLISION1D) {
            h_in = make_inputs(kernel, (uint32_t)n, (uint64_t)c.seed, &bytes);
            CHECK_CUDA(cudaMemcpy(x.d_in, h_in, bytes, cudaMemcpyHostToDevice));
            if (kernel != S2_K_EDM4D) ref = cpu_collisions(kernel, h_in, (uint32_t)n);
        }
        s2_job jb;
        job_of(&x, &jb, &g, kernel);
        if (verify_job(&x, &jb, h_in, ref)) DIE("verification failed: map %s, kernel %s, n=%lld, rho=%lld", map_name, kernel_name, n, rho);
        bench_stats s = bench_gpu(s2_run, &jb, x.st, c.warmup, c.reps, c.batch);
        printf("map %s kernel %s n %lld rho %lld: verified; median %.4f ms [%.4f, %.4f], %llu blocks for %u needed\n",
               map_name, kernel_name, n, rho, s.median, s.min, s.max, (unsigned long long)s2_grid_blocks(&g), g.nblocks_tri);
        free(h_in);
        return 0;
    }

    dat_meta m = dat_meta_of("simplex2d", "", argc, argv, gpu, &c);
    datfile d;
    s2_sweep sw;
    memset(&sw, 0, sizeof sw);
    sw.ns = ns;
    sw.nn = nn;
    if (!strcmp(exp, "fig3")) {
        static const int maps[] = {S2_BB, S2_LAMBDA_SQRT, S2_LAMBDA_NEWTON, S2_LAMBDA_RSQRT, S2_LAMBDA_EXACT_2D, S2_LAMBDA_EXACT};
        m.figure = "Fig. 3 of arXiv:1609.01490 (square-root variants of lambda, zero-work kernel)";
        datfile_open(&d, c.out, "simplex2d_fig3_dummy.dat", &m);
        datfile_meta(&d, "kernel", "map: the map alone, no store (the paper's dummy intent; k_map in kernels.cuh)");
        sw.kernel = S2_K_MAP;
        sw.maps = maps;
        sw.nmaps = 6;
        sw.rhos = rhos_sweep;
        sw.nrho = 1;
        run_sweep(&x, &sw, &d);
    } else if (!strcmp(exp, "fig5")) {
        static const int maps[] = {S2_BB, S2_UTM, S2_UTM_PUBLISHED, S2_REC, S2_RB, S2_LAMBDA_RSQRT, S2_LAMBDA_EXACT_2D,
                                   S2_LAMBDA_EXACT, S2_RECURSIVE_2D, S2_RECURSIVE, S2_RECURSIVE_ABOVE, S2_LAMBDA_STRICT};
        char name[96];
        m.figure = "Fig. 5 of arXiv:1609.01490 (improvement over BB per map and kernel)";
        snprintf(name, sizeof name, "simplex2d_fig5_%s.dat", kernel_name);
        datfile_open(&d, c.out, name, &m);
        datfile_meta(&d, "lambda", "the paper's lambda in Fig. 5 is lambda-rsqrt (lambda R); lambda-exact and recursive are ours");
        sw.kernel = kernel;
        sw.maps = maps;
        sw.nmaps = 12;
        sw.rhos = rhos_sweep;
        sw.nrho = 1;
        run_sweep(&x, &sw, &d);
    } else if (!strcmp(exp, "rho")) {
        static const int maps[] = {S2_BB, S2_RB, S2_REC, S2_UTM, S2_LAMBDA_SQRT, S2_LAMBDA_NEWTON, S2_LAMBDA_RSQRT,
                                   S2_LAMBDA_EXACT_2D, S2_LAMBDA_EXACT, S2_RECURSIVE_2D, S2_RECURSIVE, S2_RECURSIVE_ABOVE};
        static const int kernels[] = {S2_K_MAP, S2_K_DUMMY, S2_K_WRITE}; /* one block of rows each */
        m.figure = "effect of rho at the largest n (README table; no paper figure)";
        datfile_open(&d, c.out, "simplex2d_tab_rho.dat", &m);
        sw.maps = maps;
        sw.nmaps = 12;
        sw.rhos = rhos_tab;
        sw.nrho = 3;
        for (int k = 0; k < 3; k++) {
            sw.kernel = kernels[k];
            sw.more = k > 0;
            run_sweep(&x, &sw, &d);
        }
    } else if (!strcmp(exp, "sblocks")) { /* the paper's Table 1 column "sblocks", for this GPU */
        static const int maps[] = {S2_BB, S2_LAMBDA_EXACT, S2_RECURSIVE};
        static const int kernels[] = {S2_K_MAP, S2_K_DUMMY, S2_K_WRITE, S2_K_EDM4D, S2_K_COLLISION3D, S2_K_COLLISION1D};
        cudaDeviceProp p;
        CHECK_CUDA(cudaGetDeviceProperties(&p, c.device));
        m.figure = "Table 1 of arXiv:1609.01490 (sblocks: simultaneous blocks of the GPU), for this GPU and our kernels";
        datfile_open(&d, c.out, "simplex2d_tab1_sblocks.dat", &m);
        datfile_meta(&d, "limits", "%d SMs, at most %d threads, %d blocks and %d registers per SM",
                     p.multiProcessorCount, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor, p.regsPerMultiprocessor);
        datfile_columns(&d, "rho threads_per_block kernel map regs_per_thread blocks_per_sm sblocks");
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 6; k++)
                for (int mi = 0; mi < 3; mi++) {
                    int regs, nb = s2_occupancy(maps[mi], kernels[k], rhos_tab[r], &regs);
                    datfile_row(&d, "%u %u %s %s %d %d %d", rhos_tab[r], rhos_tab[r] * rhos_tab[r], s2_kernel_name(kernels[k]),
                                s2_map_name(maps[mi]), regs, nb, nb * p.multiProcessorCount);
                }
    } else { /* coarse */
        m.figure = "coarsened triangular write vs this GPU's write rate (issue goal; no paper figure)";
        datfile_open(&d, c.out, "simplex2d_coarse_write.dat", &m);
        datfile_meta(&d, "bytes", "4 T(n) = %.0f bytes written (lower triangle with diagonal)", 4.0 * tri_number((uint64_t)n));
        datfile_columns(&d, "n rho variant map median_ms min_ms max_ms batch improvement_x gbs pct_of_fill");
        double bytes = 4.0 * tri_number((uint64_t)n);
        /* the reference: a linear 16-byte fill of the same number of bytes */
        struct fillctx { uint4 *p; size_t n16; } fc = {(uint4 *)x.d_mat, (size_t)(bytes / 16)};
        auto fill = [](void *p, cudaStream_t st) {
            struct fillctx *f = (struct fillctx *)p;
            k_fill<<<GRID_STRIDE_BLOCKS(8), 256, 0, st>>>(f->p, f->n16, 7u);
        };
        bench_stats sf = bench_gpu(fill, &fc, x.st, c.warmup, c.reps, c.batch);
        double fill_gbs = bytes / (sf.median * 1e-3) / 1e9;
        datfile_row(&d, "%lld 0 fill linear %.6f %.6f %.6f %d nan %.1f 100.0", n, sf.median, sf.min, sf.max, sf.batch, fill_gbs);
        fprintf(stderr, "fill (linear, same bytes)   %9.4f ms  %.0f GB/s\n", sf.median, fill_gbs);
        static const int maps[] = {S2_BB, S2_LAMBDA_EXACT, S2_RECURSIVE};
        double t_bb = 0, t_bb_c = 0;
        for (int v = 0; v < 2; v++)
            for (int mi = 0; mi < 3; mi++) {
                s2_grid g;
                char err[256];
                uint32_t r = v ? 32 : (uint32_t)rho;
                if (s2_grid_make(&g, maps[mi], (uint32_t)n, r, err, sizeof err)) {
                    datfile_discard(&d);
                    DIE_USAGE("%s", err);
                }
                s2_job jb;
                job_of(&x, &jb, &g, v ? S2_K_COARSE : S2_K_WRITE);
                if (verify_job(&x, &jb, NULL, 0)) {
                    datfile_discard(&d);
                    DIE("verification failed: %s write (%s)", s2_map_name(maps[mi]), v ? "coarse" : "plain");
                }
                bench_stats s = bench_gpu(s2_run, &jb, x.st, c.warmup, c.reps, c.batch);
                double *tb = v ? &t_bb_c : &t_bb;
                if (maps[mi] == S2_BB) *tb = s.median;
                double gbs = bytes / (s.median * 1e-3) / 1e9;
                datfile_row(&d, "%lld %u %s %s %.6f %.6f %.6f %d %.4f %.1f %.1f", n, r, v ? "coarse" : "plain", s2_map_name(maps[mi]),
                            s.median, s.min, s.max, s.batch, *tb / s.median, gbs, 100 * gbs / fill_gbs);
                fprintf(stderr, "%-6s %-13s rho=%2u %9.4f ms  I=%.3f  %.0f GB/s = %.0f%% of fill\n", v ? "coarse" : "plain",
                        s2_map_name(maps[mi]), r, s.median, *tb / s.median, gbs, 100 * gbs / fill_gbs);
            }
    }
    datfile_commit(&d);
    CHECK_CUDA(cudaFree(x.d_mat));
    CHECK_CUDA(cudaFree(x.d_in));
    CHECK_CUDA(cudaFree(x.d_cnt));
    CHECK_CUDA(cudaFree(x.d_wrong));
    CHECK_CUDA(cudaFree(x.d_dummy));
    CHECK_CUDA(cudaStreamDestroy(x.st));
    return 0;
}
