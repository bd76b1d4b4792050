/* simplex3d.cu -- the program: the speedup sweep over the tetrahedral maps (verify, then time), the layout, their table, main().
 * Navarro et al. arXiv:1609.01490 section 6 (eq. 10-19) and arXiv:1610.07394 sections III.B-III.C (eq. 16-24).
 *
 * EXPERIMENTS (at the end, `--exp=list` prints it) names every experiment.  The six speedup
 * experiments are one sweep with the experiment's kernel: for each n (powers of two, --n or
 * --nlist), each coarse configuration and each map (bb first), a run_case (common/runcase.h):
 *   write, dummy, map (and -coarse)  the written values in a 0xFF-poisoned buffer (dummy,
 *                               map: a write run of the same map), then a count run: every
 *                               cell of D_n exactly once (-coarse: every element of the buffer
 *                               and a guard zone, k_check_elems; otherwise a bb-mapped check)
 *   empty                       the buffer still all poison after the run (it writes nothing)
 *   triplet (and -coarse)       the Axilrod-Teller energy against a double CPU reference
 * then timed (every launch of the map; recursive-log's on --streams streams); one row per
 * (n, map) into <out>/simplex3d_speedup_<kernel>[_perthread][_rho<R>][_nlist].dat with
 * I = T_bb / T_map.  Any mismatch exits 1 and leaves no data file.
 * Domain, maps and their equations: map.h.  Kernels: kernels.cuh.  Host emulation: emulate.h. */
#include <stdint.h>
#include <string.h>
#include <omp.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/experiment.h"
#include "../common/runcase.h"
#include "map.h"
#include "emulate.h"
#include "kernels.cuh"

#define NSTREAMS_MAX 128
#define S3_MAX_SIZES 32       /* sizes of one sweep or --nlist */
#define S3_MAX_CONFIGS 8      /* coarse configurations of one sweep */
#define S3_LAYOUT_NMAX 512    /* --exp=layout prints one line per cell: keep it sane */
/* triplet: largest n (N = n + 2 particles); the double CPU reference checks N^3/6 triplets,
 * 64x the sweep's largest (n = 2048), i.e. minutes on 16 cores instead of hours at n = 65536 */
#define S3_TRIPLET_NMAX 8192
#define S3_GUARD_BYTES ((size_t)1 << 16) /* write-coarse check: untouched zone past the blocks */
#define S3_SPARE_BYTES ((size_t)1 << 30) /* device memory left free beside the cell buffer */

/* The program's options, and what s3_check_options derives from them before the GPU. */
typedef struct {
    common_opts c;
    const char *exp, *mapname, *evalname, *nlist;
    long long n_one, nmin, nmax;
    int rho, nstreams, mblocks, tpm;
    const char *kernel;                      /* the experiment's kernel: its name (write ... triplet-coarse) */
    int work, coarse, eval, map_only;        /* S3_WRITE/DUMMY/TRIPLET, *-coarse, S3_EVAL_*, one map or -1 */
    uint32_t cfg[S3_MAX_CONFIGS][2], ncfg;   /* coarse: (log2 map blocks per CUDA block, log2 threads per map block) */
    long long sizes[S3_MAX_SIZES];
    int nsizes;
    int argc;
    char **argv;                             /* for the data file's # cmdline: line */
} s3_opts;

/* ---- one run of a map: its launches ------------------------------------------------------ */
typedef struct {
    int map, work, eval;
    s3_params p;
    s3_args a;
    const uint32_t *launches; /* recursive-log: (side, a0, b0, c0) per launch */
    uint64_t nl;
    cudaStream_t *streams;
    int nstreams;
    cudaEvent_t fork, *join;
    int coarse;               /* *-coarse: k_coarse with 2^lc map blocks per CUDA block, */
    uint32_t lc, ltpm;        /* 2^ltpm threads per map block */
} run_ctx;

/* One launch of the map over grid p (*-coarse: the coarse grid of ceil(gx / 2^lc) x gy x gz
 * CUDA blocks of 2^(lc + ltpm) threads; otherwise gx x gy x gz blocks of rho^3 threads). */
static void launch_ctx(const run_ctx *c, const s3_params &p, cudaStream_t s)
{
    if (c->coarse) s3_launch_coarse(c->map, c->work, s, p, c->a, c->lc, c->ltpm);
    else s3_launch_map(c->map, c->eval, c->work, dim3(p.gx, p.gy, p.gz), s, p, c->a);
}

/* One run of the map: one launch, or (recursive-log) one launch per sub-cube spread over the
 * streams, forked from and joined back into s (so bench.h's events on s bracket them all). */
static void run_once(void *vc, cudaStream_t s)
{
    run_ctx *c = (run_ctx *)vc;
    if (c->map != S3_RECURSIVE_LOG) {
        launch_ctx(c, c->p, s);
        return;
    }
    CHECK_CUDA(cudaEventRecord(c->fork, s));
    for (int i = 0; i < c->nstreams; i++) CHECK_CUDA(cudaStreamWaitEvent(c->streams[i], c->fork, 0));
    for (uint64_t li = 0; li < c->nl; li++)
        launch_ctx(c, s3_launch_at(c->map, &c->p, c->launches, li), c->streams[li % c->nstreams]);
    for (int i = 0; i < c->nstreams; i++) {
        CHECK_CUDA(cudaEventRecord(c->join[i], c->streams[i]));
        CHECK_CUDA(cudaStreamWaitEvent(s, c->join[i], 0));
    }
}

/* Runs c with another work and waits for it. */
static void run_work(const run_ctx *c, int work, cudaStream_t s)
{
    run_ctx k = *c;
    k.work = work;
    run_once(&k, s);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaStreamSynchronize(s));
}

/* The per-cell check kernel `work` (S3_CHECK_COUNT / S3_CHECK_WRITE), launched with the bb map
 * over the cells of D_n; returns the mismatch count. */
static unsigned long long run_check(const run_ctx *c, int work, cudaStream_t s, unsigned long long *d_wrong)
{
    run_ctx k = *c;
    s3_plan(S3_BB, c->p.n, c->p.rho, &k.p);
    k.map = S3_BB, k.work = work, k.eval = S3_EVAL_THREAD, k.coarse = 0;
    k.a.wrong = d_wrong;
    unsigned long long wrong = 0;
    CHECK_CUDA(cudaMemsetAsync(d_wrong, 0, sizeof wrong, s));
    run_once(&k, s);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpyAsync(&wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    return wrong;
}

/* *-coarse: the strict check of the whole buffer and its guard zone (k_check_elems) after a
 * count (what = 0) or write (what = 1) run; returns the mismatches. */
static unsigned long long run_check_elems(const run_ctx *c, int what, uint64_t guard_end, cudaStream_t s,
                                          unsigned long long *d_wrong)
{
    unsigned long long wrong = 0;
    CHECK_CUDA(cudaMemsetAsync(d_wrong, 0, sizeof wrong, s));
    k_check_elems<<<GRID_STRIDE_BLOCKS(16), 256, 0, s>>>(c->p, c->a.out, what, guard_end, d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpyAsync(&wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    return wrong;
}

/* ---- one (n, configuration, map) as a run_case: poison, run, check ----------------------- */
typedef struct {
    run_ctx rc;                 /* rc.work: the timed work */
    cudaStream_t s;
    unsigned long long *d_wrong;
    size_t span;                /* bytes poisoned and checked: the blocks (+ the guard zone, *-coarse) */
    double e_ref, e_abs;        /* triplet: the CPU's energy and sum of |E| */
    char label[64];
} s3_case;

static void case_poison(void *p)
{
    s3_case *k = (s3_case *)p;
    if (k->rc.work == S3_TRIPLET) CHECK_CUDA(cudaMemsetAsync(k->rc.a.energy, 0, sizeof(double), k->s));
    else CHECK_CUDA(cudaMemsetAsync(k->rc.a.out, 0xFF, k->span, k->s)); /* no value s3_elem_value takes */
}

static void case_run(void *p, cudaStream_t s) { run_once(&((s3_case *)p)->rc, s); }

/* The values of a write run (dummy: a write run of the same map made here), then a count run:
 * every cell exactly once.  Returns the wrong elements. */
static size_t case_check_cells(s3_case *k)
{
    const run_ctx *c = &k->rc;
    const uint64_t guard_end = k->span / 4;
    if (c->work != S3_WRITE) {
        case_poison(k);
        run_work(c, S3_WRITE, k->s);
    }
    unsigned long long wrong = c->coarse ? run_check_elems(c, 1, guard_end, k->s, k->d_wrong)
                                         : run_check(c, S3_CHECK_WRITE, k->s, k->d_wrong);
    if (wrong) {
        fprintf(stderr, "FAILED: %s: %llu elements hold a wrong value\n", k->label, wrong);
        return wrong;
    }
    CHECK_CUDA(cudaMemsetAsync(c->a.out, 0, k->span, k->s));
    run_work(c, S3_COUNT, k->s);
    wrong = c->coarse ? run_check_elems(c, 0, guard_end, k->s, k->d_wrong)
                      : run_check(c, S3_CHECK_COUNT, k->s, k->d_wrong);
    if (wrong) fprintf(stderr, "FAILED: %s: %llu elements not counted exactly once / touched outside D_n\n", k->label, wrong);
    return wrong;
}

/* empty: the run left every element of the span poisoned (the kernel writes nothing). */
static size_t case_check_untouched(s3_case *k)
{
    unsigned long long wrong = 0;
    CHECK_CUDA(cudaMemsetAsync(k->d_wrong, 0, sizeof wrong, k->s));
    k_check_untouched<<<GRID_STRIDE_BLOCKS(16), 256, 0, k->s>>>(k->rc.a.out, k->span / 4, k->d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpyAsync(&wrong, k->d_wrong, sizeof wrong, cudaMemcpyDeviceToHost, k->s));
    CHECK_CUDA(cudaStreamSynchronize(k->s));
    if (wrong) fprintf(stderr, "FAILED: %s: the empty kernel changed %llu elements\n", k->label, wrong);
    return wrong;
}

static size_t case_check(void *p)
{
    s3_case *k = (s3_case *)p;
    if (k->rc.work == S3_EMPTY) return case_check_untouched(k);
    if (k->rc.work != S3_TRIPLET) return case_check_cells(k);
    double e = 0;
    CHECK_CUDA(cudaMemcpy(&e, k->rc.a.energy, sizeof e, cudaMemcpyDeviceToHost));
    if (fabs(e - k->e_ref) <= 1e-10 * k->e_abs) return 0;
    fprintf(stderr, "FAILED: %s: energy %.15g, CPU reference %.15g (sum |E| %.6g)\n", k->label, e, k->e_ref, k->e_abs);
    return 1;
}

/* ---- the speedup sweep ------------------------------------------------------------------- */
/* What the sweep holds on the GPU. */
typedef struct {
    cudaStream_t s, streams[NSTREAMS_MAX];
    cudaEvent_t fork, join[NSTREAMS_MAX];
    uint32_t *d_out;            /* the blocked cell buffer (dummy, write) for the largest size */
    size_t out_bytes;
    unsigned long long *d_wrong;
    double *d_energy, *d_pos, *h_pos;
    double e_ref, e_abs;        /* triplet at the current n */
    unsigned long long cubic_first; /* lambda-cubic's first wrong block index here (~0: none below wscan) */
    uint64_t wscan;
    double ceiling;             /* write: this GPU's write rate over the same buffer, GB/s */
} s3_gpu;

static size_t s3_cell_bytes(uint32_t n, int rho)
{
    s3_params p;
    s3_plan(S3_BB, n, (uint32_t)rho, &p);
    return (size_t)p.tet_blocks * rho * rho * rho * 4;
}

/* Streams, the cell buffer for the largest size that fits (sizes that do not are dropped, or
 * refused when given by --n), the check counter and the energy. */
static void s3_gpu_open(s3_opts *o, s3_gpu *g)
{
    memset(g, 0, sizeof *g);
    CHECK_CUDA(cudaStreamCreate(&g->s));
    for (int i = 0; i < o->nstreams; i++) {
        CHECK_CUDA(cudaStreamCreateWithFlags(&g->streams[i], cudaStreamNonBlocking));
        CHECK_CUDA(cudaEventCreateWithFlags(&g->join[i], cudaEventDisableTiming));
    }
    CHECK_CUDA(cudaEventCreateWithFlags(&g->fork, cudaEventDisableTiming));
    size_t free_b = 0, total_b = 0;
    CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
    if (o->work != S3_TRIPLET) {
        int keep = 0;
        for (int i = 0; i < o->nsizes; i++) {
            const size_t bytes = s3_cell_bytes((uint32_t)o->sizes[i], o->rho);
            if (bytes + S3_SPARE_BYTES > free_b) {
                if (o->n_one)
                    DIE_USAGE("n=%lld: the cell buffer needs %.2f GiB (+1 GiB spare), only %.2f GiB free", o->sizes[i],
                              bytes / 1073741824.0, free_b / 1073741824.0);
                fprintf(stderr, "n=%lld: the cell buffer (%.1f GiB) does not fit in %.1f GiB: size skipped\n",
                        o->sizes[i], bytes / 1073741824.0, free_b / 1073741824.0);
                continue;
            }
            o->sizes[keep++] = o->sizes[i];
            if (bytes > g->out_bytes) g->out_bytes = bytes;
        }
        o->nsizes = keep;
        if (!o->nsizes) DIE_USAGE("no size of the sweep fits in device memory");
        g->d_out = (uint32_t *)device_alloc_or_usage(g->out_bytes + S3_GUARD_BYTES, "the cell buffer");
    }
    CHECK_CUDA(cudaMalloc(&g->d_wrong, sizeof *g->d_wrong));
    CHECK_CUDA(cudaMalloc(&g->d_energy, sizeof *g->d_energy));
}

/* lambda-cubic's exact range on this GPU: the first block index below the sweep's largest
 * grid where the fp32 Cardano root of [NL] eq. (15) differs from lambda-exact. */
static void s3_cubic_range(const s3_opts *o, s3_gpu *g)
{
    for (int i = 0; i < o->nsizes; i++) {
        s3_params p;
        s3_plan(S3_BB, (uint32_t)o->sizes[i], (uint32_t)o->rho, &p);
        if (p.tet_blocks > g->wscan) g->wscan = p.tet_blocks;
    }
    g->cubic_first = ~0ull;
    CHECK_CUDA(cudaMemcpy(g->d_wrong, &g->cubic_first, sizeof g->cubic_first, cudaMemcpyHostToDevice));
    k_cubic_first_fail<<<1024, 256>>>(g->wscan, g->d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(&g->cubic_first, g->d_wrong, sizeof g->cubic_first, cudaMemcpyDeviceToHost));
    if (g->cubic_first != ~0ull)
        fprintf(stderr, "lambda-cubic: first wrong block index on this GPU: %llu (host fp32: %llu)\n", g->cubic_first,
                (unsigned long long)S3_LAMBDA_CUBIC_FIRST_FAIL_HOST);
}

/* The write ceiling: 16-byte stores over the whole cell buffer (k_fill16), checked, then timed. */
typedef struct {
    uint4 *a;
    size_t n16;
    cudaStream_t s;
    unsigned long long *d_wrong;
} s3_fill;
static void fill_poison(void *p) { CHECK_CUDA(cudaMemsetAsync(((s3_fill *)p)->a, 0xFF, ((s3_fill *)p)->n16 * 16, ((s3_fill *)p)->s)); }
static void fill_run(void *p, cudaStream_t st) { k_fill16<<<GRID_STRIDE_BLOCKS(8), 256, 0, st>>>(((s3_fill *)p)->a, ((s3_fill *)p)->n16); }
static size_t fill_check(void *p)
{
    s3_fill *f = (s3_fill *)p;
    unsigned long long wrong = 0;
    CHECK_CUDA(cudaMemset(f->d_wrong, 0, sizeof wrong));
    k_check_fill16<<<GRID_STRIDE_BLOCKS(8), 256>>>(f->a, f->n16, f->d_wrong);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpy(&wrong, f->d_wrong, sizeof wrong, cudaMemcpyDeviceToHost));
    return wrong;
}

static void s3_write_ceiling(const s3_opts *o, s3_gpu *g, datfile *d)
{
    s3_fill f = {(uint4 *)g->d_out, g->out_bytes / 16, g->s, g->d_wrong};
    run_case fill = {"write ceiling (16-byte fill)", &f, fill_poison, fill_run, NULL, fill_check};
    common_opts auto_batch = o->c;
    auto_batch.batch = 0; /* a sample of >= 1 ms whatever --batch says */
    bench_stats st = run_case_time(&fill, &auto_batch, g->s, d);
    g->ceiling = f.n16 * 16.0 / (st.median * 1e-3) / 1e9;
    datfile_meta(d, "write_ceiling", "%.0f GB/s (16-byte stores over %.2f GiB on this GPU)", g->ceiling,
                 g->out_bytes / 1073741824.0);
    fprintf(stderr, "write ceiling: %.0f GB/s\n", g->ceiling);
}

/* The data file and its metadata: file name from the kernel, --eval, --rho and --nlist. */
static void s3_open(const s3_opts *o, const s3_gpu *g, datfile *d)
{
    char fname[128], fig[256], gpu[256], rhos[16] = "";
    if (o->rho != 8) snprintf(rhos, sizeof rhos, "_rho%d", o->rho);
    snprintf(fname, sizeof fname, "simplex3d_speedup_%s%s%s%s.dat", o->kernel, o->eval == S3_EVAL_THREAD ? "_perthread" : "",
             rhos, *o->nlist ? "_nlist" : "");
    if (o->coarse)
        snprintf(fig, sizeof fig, "ours (not in the papers): %s kernel coarsened, the maps of [NL] sec. 6 and [REC] sec. III.B-C",
                 o->kernel);
    else
        snprintf(fig, sizeof fig, "I = T_bb / T_map, %s kernel: [NL] arXiv:1609.01490 sec. 6 eq. 18-19; [REC] arXiv:1610.07394 sec. III.B-C",
                 o->kernel);
    device_describe(o->c.device, gpu, sizeof gpu);
    dat_meta m = dat_meta_of("simplex3d", fig, o->argc, o->argv, gpu, &o->c);
    datfile_open(d, o->c.out, fname, &m);
    datfile_meta(d, "domain", "ordered form 0 <= x <= y <= z < n, Tet(n) = n(n+1)(n+2)/6 cells; blocks of rho^3 threads");
    if (o->coarse)
        datfile_meta(d, "coarse", "%s: mblocks map blocks (rho^3 cells each, same launch grids as the per-cell kernels) per CUDA "
                     "block along the grid's x axis, tpm threads per map block, each thread evaluates the map (write: stores "
                     "16-byte chunks; dummy: the same chunk loop without stores; triplet: strided cells, warp sums); bb coarsened "
                     "the same way; speedup_x = T_bb / T_map at the same n and configuration", o->kernel);
    else
        datfile_meta(d, "eval", "%s", o->eval == S3_EVAL_BLOCK ? "map evaluated once per block (thread 0, broadcast through shared memory)"
                                                            : "map evaluated by every thread (as in [NL]'s 2D kernels)");
    datfile_meta(d, "timed", "kernel time of one run of the map (all launches of recursive-log, on %d streams)", o->nstreams);
    if (g->cubic_first != ~0ull)
        datfile_meta(d, "lambda_cubic_first_wrong", "block index %llu on this GPU (host fp32: %llu)", g->cubic_first,
                     (unsigned long long)S3_LAMBDA_CUBIC_FIRST_FAIL_HOST);
    else
        datfile_meta(d, "lambda_cubic_first_wrong", "none below %llu on this GPU", (unsigned long long)g->wscan);
}

/* triplet: N = n + 2 particles on the host and the device, and the double CPU reference. */
static void s3_triplet_inputs(const s3_opts *o, s3_gpu *g, uint32_t n)
{
    const uint32_t N = n + 2;
    g->h_pos = (double *)realloc(g->h_pos, sizeof(double) * 3 * N);
    at_particles(g->h_pos, N, (uint64_t)o->c.seed);
    if (g->d_pos) CHECK_CUDA(cudaFree(g->d_pos));
    CHECK_CUDA(cudaMalloc(&g->d_pos, sizeof(double) * 3 * N));
    CHECK_CUDA(cudaMemcpy(g->d_pos, g->h_pos, sizeof(double) * 3 * N, cudaMemcpyHostToDevice));
    const double t0 = bench_now_ms();
    g->e_ref = at_energy_direct(g->h_pos, N, &g->e_abs);
    fprintf(stderr, "triplet N=%u: CPU reference E = %.12g (%.1f s, %d threads)\n", N, g->e_ref,
            (bench_now_ms() - t0) / 1e3, omp_get_max_threads());
}

/* bb's time and threads at the current n and configuration: the reference of every row. */
typedef struct {
    double t_bb;
    uint64_t threads_bb;
} s3_ref;

/* One row: the map's launch counts, space efficiency, time, I, GB/s (write), us per launch. */
static void s3_row(const s3_opts *o, const s3_gpu *g, datfile *d, const s3_case *k, bench_stats st, s3_ref *ref)
{
    const run_ctx *c = &k->rc;
    const uint32_t n = c->p.n;
    const uint64_t cells = tet_number(n), cblocks = o->coarse ? s3_coarse_blocks(c->map, &c->p, c->lc) : 0;
    const uint64_t threads = o->coarse ? cblocks << (c->lc + c->ltpm) : s3_threads_launched(c->map, &c->p);
    const uint64_t launches = c->nl + (c->map != S3_RECURSIVE_LOG);
    if (c->map == S3_BB) ref->t_bb = st.median, ref->threads_bb = threads;
    const double gbs = o->work == S3_WRITE ? cells * 4.0 / (st.median * 1e-3) / 1e9 : NAN;
    const double I = ref->t_bb > 0 ? ref->t_bb / st.median : NAN;
    char extra[96] = "";
    if (o->coarse) snprintf(extra, sizeof extra, " %u %u %llu", 1u << c->lc, 1u << c->ltpm, (unsigned long long)cblocks);
    datfile_row(d, "%s %u %d %u %s %llu %llu %llu %.6f %.4f %.6f %.6f %.6f %d %.4f %.2f %.2f %.3f%s", o->kernel, n, o->rho,
                c->p.nb, s3_map_name(c->map), (unsigned long long)launches, (unsigned long long)threads,
                (unsigned long long)cells, (double)cells / threads, ref->threads_bb ? (double)ref->threads_bb / threads : NAN,
                st.median, st.min, st.max, st.batch, I, gbs, o->work == S3_WRITE ? 100 * gbs / g->ceiling : NAN,
                1e3 * st.median / (double)launches, extra);
    if (o->coarse)
        fprintf(stderr, "%-8s n=%5u %-14s %2ux%-3u %10.4f ms  I=%6.3f  %6.0f GB/s (%.0f%%)\n", o->kernel, n,
                s3_map_name(c->map), 1u << c->lc, 1u << c->ltpm, st.median, I, gbs, 100 * gbs / g->ceiling);
    else
        fprintf(stderr, "%-8s n=%5u %-14s %10.4f ms  I=%6.3f\n", o->kernel, n, s3_map_name(c->map), st.median, I);
}

/* One map at size n and configuration ci: skipped where it cannot run or is known wrong,
 * else verified (exit 1 on a mismatch), timed, one row. */
static void s3_measure(const s3_opts *o, s3_gpu *g, datfile *d, uint32_t n, uint32_t ci, int map, s3_ref *ref)
{
    s3_case k;
    memset(&k, 0, sizeof k);
    run_ctx *c = &k.rc;
    c->map = map, c->work = o->work, c->eval = o->eval;
    c->coarse = o->coarse, c->lc = o->cfg[ci][0], c->ltpm = o->cfg[ci][1];
    c->streams = g->streams, c->nstreams = o->nstreams, c->fork = g->fork, c->join = g->join;
    if (s3_plan(map, n, (uint32_t)o->rho, &c->p)) {
        fprintf(stderr, "n=%u %s: skipped (grid past the CUDA limits)\n", n, s3_map_name(map));
        return;
    }
    if (map == S3_RECURSIVE_O1B && o->map_only != map && s3_is_pow2(c->p.nb)) return; /* = recursive-o1 there */
    if (map == S3_LAMBDA_CUBIC && g->cubic_first != ~0ull && c->p.tet_blocks > g->cubic_first) {
        fprintf(stderr, "n=%u lambda-cubic: skipped (block indices past %llu, where the float formula is wrong)\n", n,
                g->cubic_first);
        datfile_meta(d, "skipped", "lambda-cubic at n=%u: its grid holds block indices past its exact range", n);
        return;
    }
    uint32_t *launches = map == S3_RECURSIVE_LOG ? s3_launch_list(map, &c->p, &c->nl) : NULL;
    c->launches = launches;
    c->a.out = g->d_out, c->a.magic = ~0ull, c->a.sentinel = ~0u, c->a.pos = g->d_pos, c->a.npart = n + 2, c->a.energy = g->d_energy;
    k.s = g->s, k.d_wrong = g->d_wrong, k.e_ref = g->e_ref, k.e_abs = g->e_abs;
    k.span = (size_t)c->p.tet_blocks * o->rho * o->rho * o->rho * 4 + (o->coarse ? S3_GUARD_BYTES : 0);
    if (o->coarse) snprintf(k.label, sizeof k.label, "%s n=%u %ux%u", s3_map_name(map), n, 1u << c->lc, 1u << c->ltpm);
    else snprintf(k.label, sizeof k.label, "%s n=%u", s3_map_name(map), n);
    run_case rc = {k.label, &k, case_poison, case_run, NULL, case_check};
    bench_stats st = run_case_time(&rc, &o->c, g->s, d);
    s3_row(o, g, d, &k, st, ref);
    free(launches);
}

#define S3_COLUMNS "kernel n rho nb map launches threads_launched cells space_eff space_bound_x " \
                   "median_ms min_ms max_ms batch speedup_x gbs pct_ceiling us_per_launch"

/* The speedup experiments ([NL] eq. 18-19, [REC] eq. 24 and ours): I = T_bb / T_map of every
 * map (or bb and --map) for every size and configuration, with the experiment's kernel. */
static int exp_speedup(void *p)
{
    s3_opts *o = (s3_opts *)p;
    s3_gpu g;
    datfile d;
    s3_gpu_open(o, &g);
    s3_cubic_range(o, &g);
    s3_open(o, &g, &d);
    if (o->work == S3_WRITE) s3_write_ceiling(o, &g, &d);
    datfile_columns(&d, o->coarse ? S3_COLUMNS " mblocks tpm cuda_blocks" : S3_COLUMNS);
    for (int si = 0; si < o->nsizes; si++) {
        const uint32_t n = (uint32_t)o->sizes[si];
        if (o->work == S3_TRIPLET) s3_triplet_inputs(o, &g, n);
        for (uint32_t ci = 0; ci < o->ncfg; ci++) {
            s3_ref ref = {0, 0};
            for (int map = 0; map < S3_NMAPS; map++)
                if (o->map_only < 0 || map == o->map_only || map == S3_BB) s3_measure(o, &g, &d, n, ci, map, &ref);
        }
    }
    datfile_commit(&d);
    free(g.h_pos);
    return 0;
}

/* One z-slice per line: x y z launch block thread of every working thread of --map, for --n
 * and --rho, by host emulation of exactly the launch grid(s) (no GPU): [NL] Fig. 7, [REC] Fig. 5-7. */
static int exp_layout(void *p)
{
    const s3_opts *o = (const s3_opts *)p;
    const int map = o->map_only;
    const uint32_t n = (uint32_t)o->n_one, rho = (uint32_t)o->rho;
    s3_params prm;
    if (s3_plan(map, n, rho, &prm))
        DIE_USAGE("--map=%s cannot take n=%u rho=%u (grid past the CUDA limits)", s3_map_name(map), n, rho);
    if (map == S3_LAMBDA_CUBIC && prm.tet_blocks > S3_LAMBDA_CUBIC_FIRST_FAIL_HOST)
        fprintf(stderr, "warning: lambda-cubic is wrong from block index %llu on: this layout misplaces blocks\n",
                (unsigned long long)S3_LAMBDA_CUBIC_FIRST_FAIL_HOST);
    char cmd[1024];
    args_cmdline(o->argc, o->argv, cmd, sizeof cmd);
    printf("# program: simplex3d --exp=layout\n# cmdline: %s\n# git: %s\n# gpu: none (host emulation of the launch grid)\n", cmd,
           COMMON_GIT_REV);
    printf("# map: %s  n: %u  rho: %u  blocks per side: %u  launches: %llu  threads launched: %llu  cells: %llu\n",
           s3_map_name(map), n, rho, prm.nb, (unsigned long long)s3_num_launches(map, prm.nb),
           (unsigned long long)s3_threads_launched(map, &prm), (unsigned long long)tet_number(n));
    printf("# domain: ordered form 0 <= x <= y <= z < n; block = linear block index within the launch\n");
    printf("x y z launch block thread\n");
    s3_emulate(map, n, rho, [](void *, uint32_t x, uint32_t y, uint32_t z, uint64_t l, uint64_t b, uint32_t t) {
        printf("%u %u %u %llu %llu %u\n", x, y, z, (unsigned long long)l, (unsigned long long)b, t);
    }, NULL);
    return 0;
}

static const experiment EXPERIMENTS[] = {
    /* name  paper item ([NL] arXiv:1609.01490, [REC] arXiv:1610.07394)  what it measures; the
     * six speedup experiments are one sweep, with the kernel the name says */
    {"write", "[NL] eq. 18-19 (3D)", "I = T_bb / T_map vs n: one thread writes each cell (the headline)", exp_speedup},
    {"dummy", "[NL] sec. 4.1, in 3D", "I vs n: the map's cost only (a store that never happens)", exp_speedup},
    {"map", "[NL] sec. 4.1, in 3D", "I vs n: the map alone, no store (a trap that never happens)", exp_speedup},
    {"empty", "beyond the papers", "I vs n: an empty kernel on the map's grid (the launch alone)", exp_speedup},
    {"triplet", "[REC] sec. I", "I vs n: Axilrod-Teller energy of N = n + 2 particles", exp_speedup},
    {"write-coarse", "beyond the papers", "I vs n: several map blocks per CUDA block, 16-byte stores", exp_speedup},
    {"dummy-coarse", "beyond the papers", "I vs n: the coarsened kernel's loop without its stores", exp_speedup},
    {"triplet-coarse", "beyond the papers", "I vs n: the coarsened triplet kernel (strided cells, warp sums)", exp_speedup},
    {"layout", "[NL] Fig. 7, [REC] 5-7", "x y z launch block thread of --map for --n, --rho on stdout", exp_layout, EXP_HOST},
};

/* ---- options ----------------------------------------------------------------------------- */
static s3_opts s3_parse_options(int argc, char **argv)
{
    s3_opts o;
    memset(&o, 0, sizeof o);
    o.c = common_opts_default();
    o.mapname = "all", o.evalname = "block", o.nlist = "";
    o.rho = 8, o.nstreams = 32;
    o.argc = argc, o.argv = argv;
    arg_opt opts[] = {
        COMMON_ARGS(o.c),
        {"exp", ARG_STR, &o.exp, "experiment (required; --exp=list prints the table): the kernel of the sweep, or layout", 0, 0, NULL},
        {"map", ARG_CHOICE, &o.mapname, "thread map (all: every map, bb first; layout: one map)", 0, 0, "all " S3_MAP_CHOICES},
        {"n", ARG_LONG, &o.n_one, "cells per side (triplet: n + 2 particles); 0: the sweep", 0, 65536, NULL},
        {"nmin", ARG_LONG, &o.nmin, "sweep: smallest n, powers of two (0: 256 write/dummy, 128 triplet; quick: half)", 0, 65536, ARG_POW2},
        {"nmax", ARG_LONG, &o.nmax, "sweep: largest n (0: 4096 write/dummy, 2048 triplet; quick: 512/256)", 0, 65536, NULL},
        {"nlist", ARG_STR, &o.nlist, "comma-separated sizes n (any n <= 65536, at most 32) instead of the sweep; file name ends in _nlist", 0, 0, NULL},
        {"rho", ARG_INT, &o.rho, "threads per block side: 1, 2, 4 or 8 (rho^3 threads)", 1, 8, ARG_POW2},
        {"eval", ARG_CHOICE, &o.evalname, "where the map is evaluated: once per block (thread 0, shared memory) or in every thread", 0, 0, "block thread"},
        {"streams", ARG_INT, &o.nstreams, "recursive-log: streams its launches are spread over", 1, NSTREAMS_MAX, NULL},
        {"mblocks", ARG_INT, &o.mblocks, "*-coarse: map blocks per CUDA block, a power of two (0: the sweep of configurations)", 0, 1024, ARG_POW2},
        {"tpm", ARG_INT, &o.tpm, "*-coarse: threads per map block, a power of two <= rho^3/4 (0: the sweep)", 0, 128, ARG_POW2},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "simplex3d --exp=NAME [options]",
               "Thread maps for tetrahedral domains: bb, lambda-cubic (as published), lambda-exact (ours),\n"
               "recursive-log (one launch per sub-cube), recursive-o1 (eq. 23, one launch).\n"
               "recursive-o1-below (ours: any n from below, one launch).\n"
               "Times the dummy, write, triplet kernel or their coarsened forms (ours: several map blocks per\n"
               "CUDA block; write-coarse: 16-byte stores; bb coarsened the same way) over n and writes\n"
               "I = T_bb / T_map; --exp=layout prints a map's threads (no GPU).");
    common_opts_finish(&o.c);
    o.map_only = strcmp(o.mapname, "all") ? s3_map_of(o.mapname) : -1;
    o.eval = !strcmp(o.evalname, "block") ? S3_EVAL_BLOCK : S3_EVAL_THREAD;
    return o;
}

/* *-coarse: the configurations (--mblocks, --tpm pick one; else the sweep 1 x rho^3/4, 1 x 32,
 * 2 x 32, 4 x 32, 16 x 32 with the threads per map block clipped to rho^3/4). */
static void s3_coarse_configs(s3_opts *o)
{
    if (o->rho < 2) DIE_USAGE("--exp=%s needs rho >= 2 (16-byte chunks of rho^3 elements)", o->kernel);
    if (o->eval != S3_EVAL_BLOCK) DIE_USAGE("--exp=%s always evaluates the map per thread: leave --eval out", o->kernel);
    const uint32_t lr = 31u - s2_clz((uint32_t)o->rho), lnch = 3 * lr - 2;
    if (o->mblocks || o->tpm) {
        o->cfg[0][0] = o->mblocks ? 31u - s2_clz((uint32_t)o->mblocks) : 0;
        o->cfg[0][1] = o->tpm ? 31u - s2_clz((uint32_t)o->tpm) : lnch;
    } else {
        const uint32_t l32 = lnch < 5 ? lnch : 5, sw[5][2] = {{0, lnch}, {0, l32}, {1, l32}, {2, l32}, {4, l32}};
        o->ncfg = 0;
        for (int i = 0; i < 5; i++) {
            int dup = 0;
            for (uint32_t j = 0; j < o->ncfg; j++) dup |= o->cfg[j][0] == sw[i][0] && o->cfg[j][1] == sw[i][1];
            if (!dup) o->cfg[o->ncfg][0] = sw[i][0], o->cfg[o->ncfg][1] = sw[i][1], o->ncfg++;
        }
    }
    for (uint32_t i = 0; i < o->ncfg; i++)
        if (s3_coarse_check(lr, o->cfg[i][0], o->cfg[i][1]))
            DIE_USAGE("%s: %u map blocks per CUDA block x %u threads per map block is not valid for rho=%d "
                      "(threads per map block <= rho^3/4, at most 1024 threads per CUDA block)",
                      o->kernel, 1u << o->cfg[i][0], 1u << o->cfg[i][1], o->rho);
}

/* The sizes: --n, --nlist (any n, e.g. nb = 2^k + 1) or the power-of-two sweep. */
static void s3_sizes(s3_opts *o)
{
    if (o->n_one && *o->nlist) DIE_USAGE("--n and --nlist: give one of them");
    if (o->n_one) {
        o->sizes[o->nsizes++] = o->n_one;
    } else if (*o->nlist) {
        for (const char *q = o->nlist; *q;) {
            char *end;
            long long v = strtoll(q, &end, 10);
            if (end == q || v < 1 || v > 65536 || (*end && (*end != ',' || !end[1])) || o->nsizes == S3_MAX_SIZES)
                DIE_USAGE("--nlist=%s: up to %d comma-separated sizes 1..65536 expected", o->nlist, S3_MAX_SIZES);
            o->sizes[o->nsizes++] = v;
            q = *end ? end + 1 : end;
        }
    } else {
        const int tri = o->work == S3_TRIPLET;
        long long lo = o->nmin ? o->nmin : (tri ? 128 : 256), hi = o->nmax ? o->nmax : (tri ? 2048 : 4096);
        if (o->c.quick) {
            if (!o->nmin) lo /= 2;
            if (!o->nmax) hi = tri ? 256 : 512;
        }
        if (lo > hi) DIE_USAGE("--nmin=%lld > --nmax=%lld", lo, hi);
        for (long long v = lo; v <= hi && o->nsizes < S3_MAX_SIZES; v *= 2) o->sizes[o->nsizes++] = v;
    }
    for (int i = 0; i < o->nsizes; i++) {
        s3_params p;
        if (s3_plan(S3_BB, (uint32_t)o->sizes[i], (uint32_t)o->rho, &p)) DIE_USAGE("n=%lld too large for the CUDA grid", o->sizes[i]);
        if (o->work == S3_TRIPLET && o->sizes[i] > S3_TRIPLET_NMAX)
            DIE_USAGE("triplet: n=%lld: the O(N^3) CPU reference takes too long; use n <= %d", o->sizes[i], S3_TRIPLET_NMAX);
    }
}

/* What experiment e needs of the options, checked before the GPU and before any data file is
 * opened (one error line, exit 2); fills the kernel, configurations and sizes. */
static void s3_check_options(s3_opts *o, const experiment *e)
{
    if (e->run == exp_layout) {
        if (o->map_only < 0) DIE_USAGE("--exp=layout needs one --map (not all)");
        if (o->n_one < 1) DIE_USAGE("--exp=layout needs --n >= 1");
        if (o->n_one > S3_LAYOUT_NMAX) DIE_USAGE("--exp=layout: n=%lld prints too much; use n <= %d", o->n_one, S3_LAYOUT_NMAX);
        return;
    }
    o->kernel = e->name;
    o->coarse = strstr(o->kernel, "-coarse") != NULL;
    o->work = !strncmp(o->kernel, "dummy", 5) ? S3_DUMMY
              : !strncmp(o->kernel, "write", 5) ? S3_WRITE
              : !strcmp(o->kernel, "map")       ? S3_MAP
              : !strcmp(o->kernel, "empty")     ? S3_EMPTY
                                                : S3_TRIPLET;
    o->ncfg = 1; /* the per-cell kernels: one "configuration" */
    if (o->coarse) s3_coarse_configs(o);
    s3_sizes(o);
}

int main(int argc, char **argv)
{
    s3_opts o = s3_parse_options(argc, argv); /* --help; a bad value: one line, exit 2 */
    const experiment *e = experiment_select(EXPERIMENTS, ARGS_COUNT(EXPERIMENTS), o.exp, "simplex3d");
    s3_check_options(&o, e);
    if (!e->host) device_require(o.c.device, 7, 5); /* layout runs on the host */
    return e->run(&o);
}
