/* compact.cu -- ./compact: the automaton (ca) and sw, rd of section 6 on COMPACT storage, k^r
 * bytes per state instead of the n x n array (beyond the thesis: its section 7, future work).
 *
 * Neighbours are found through the inverse map (compact.h); the kernels are compact.cuh's.
 * The Sierpinski triangle at r = 22 has 3^22 = 31.4 G cells (2 x 29 GiB of states); its
 * embedded box would be 2^44 cells (16 TiB).  For every level r of the sweep, each case is
 * verified, then timed (common/runcase.h):
 *   ca compact   one step equal to an independent evaluation that finds every neighbour with
 *                the full O(r) inverse (compact_ca_cell_full);
 *   ca embedded  where the embedded ping-pong pair also fits: k_ca under the lambda map (itself
 *                checked against the CPU by ./fractals), and `--steps` steps of both from the
 *                same start (fractal_ca_value of driver.cuh) equal cell by cell after EVERY step;
 *   sw, rd       every compact byte written; the sum equal to a grid-stride sum and, where the
 *                embedded array fits, to the embedded lambda rd over the same values.
 * Any mismatch: message, exit 1, no data file.  Output: fractals_compact_<fractal>.dat. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/experiment.h"
#include "../common/runcase.h"
#include "fractal.h"
#include "compact.h"
#include "kernels.cuh"
#include "driver.cuh"
#include "compact.cuh"

#define COMPACT_MEM_MARGIN (1ull << 30)  /* bytes of device memory left free */
#define EMBEDDED_MAX_CELLS (1ull << 36)  /* embedded n x n array: at most 64 GiB, as ./fractals */

typedef struct {
    common_opts c;
    const char *exp, *fractal;
    int rmin, rmax, steps, embedded_rmax;
    int argc; /* the command line, for the data file's metadata */
    char **argv;
} compact_opts;

/* Embedded side of the comparison: lambda map, ping-pong pair of n x n arrays. */
typedef struct {
    lambda_map_t m;
    uint8_t *d_e[2];
    uint32_t n;
    int cur;
} embedded_state;

/* One level: the compact states, the embedded pair where it fits, and what the checks need.
 * Every run_case of the level has this as its ctx. */
typedef struct {
    compact_state S;
    embedded_state E;
    int emb;        /* the embedded pair exists at this level */
    int steps;      /* --steps: steps compared with the embedded ca */
    uint64_t cells; /* k^r */
    uint64_t seed;
    unsigned long long *d_wrong;
    cudaStream_t stream;
    const char *label;
} compact_level;

static unsigned long long read_count(unsigned long long *d, cudaStream_t stream)
{
    unsigned long long w = 0;
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(&w, d, sizeof w, cudaMemcpyDeviceToHost));
    return w;
}

/* The counter of a check kernel (v->d_wrong): zeroed on the level's stream before the kernel,
 * read back after it (its launch checked first). */
static void wrong_clear(compact_level *v) { CHECK_CUDA(cudaMemsetAsync(v->d_wrong, 0, sizeof *v->d_wrong, v->stream)); }

static unsigned long long wrong_read(compact_level *v)
{
    CHECK_LAUNCH();
    return read_count(v->d_wrong, v->stream);
}

static void embedded_step(void *ctx, cudaStream_t stream)
{
    embedded_state *E = &((compact_level *)ctx)->E;
    k_ca<lambda_map_t><<<E->m.grid, E->m.block, 0, stream>>>(E->m, E->d_e[E->cur], E->d_e[E->cur ^ 1], E->n);
    E->cur ^= 1;
}

/* rho of the embedded lambda step: the largest power of s that is <= 16 and <= n. */
static uint32_t embedded_rho(int s, uint32_t n)
{
    uint32_t rho = 1;
    while (rho * (uint32_t)s <= 16 && rho * (uint32_t)s <= n) rho *= (uint32_t)s;
    return rho;
}

/* ---- ca on compact storage: poison, start state; checked against the full inverse ---- */

static void ca_compact_poison(void *ctx)
{
    compact_level *v = (compact_level *)ctx;
    CHECK_CUDA(cudaMemsetAsync(v->S.d_s[1], 0xAB, v->cells, v->stream)); /* not a state value */
    k_compact_init<<<v->S.P.blocks, v->S.P.threads, 0, v->stream>>>(v->S.P, v->S.d_s[0], v->seed);
    CHECK_LAUNCH();
    v->S.cur = 0;
}

static void ca_compact_step(void *ctx, cudaStream_t stream) { compact_step(&((compact_level *)ctx)->S, stream); }

static size_t ca_compact_check(void *ctx)
{
    compact_level *v = (compact_level *)ctx;
    wrong_clear(v);
    k_compact_check_full<<<v->S.P.blocks, v->S.P.threads, 0, v->stream>>>(v->S.P, v->S.d_s[0], v->S.d_s[1], v->d_wrong);
    unsigned long long w = wrong_read(v);
    if (w) fprintf(stderr, "error: %s: %llu cells of the compact step differ from the full-inverse step\n", v->label, w);
    return (size_t)w;
}

/* ---- ca embedded: both restarted from the same state, equal after every step ---------- */

static void ca_embedded_poison(void *ctx)
{
    compact_level *v = (compact_level *)ctx;
    size_t ecells = (size_t)v->E.n * v->E.n;
    CHECK_CUDA(cudaMemsetAsync(v->E.d_e[0], 0, ecells, v->stream)); /* non-fractal cells: dead forever */
    CHECK_CUDA(cudaMemsetAsync(v->E.d_e[1], 0, ecells, v->stream));
    ca_compact_poison(ctx);
    k_compact_scatter<<<v->S.P.blocks, v->S.P.threads, 0, v->stream>>>(v->S.P, v->S.d_s[0], v->E.d_e[0]);
    CHECK_LAUNCH();
    v->E.cur = 0;
}

/* After the embedded step of the run: the compact step, compare; then `steps` - 1 more
 * steps of both, compared after each. */
static size_t ca_embedded_check(void *ctx)
{
    compact_level *v = (compact_level *)ctx;
    const compact_launch &P = v->S.P;
    for (int t = 1; t <= v->steps; t++) {
        if (t > 1) embedded_step(ctx, v->stream);
        compact_step(&v->S, v->stream);
        CHECK_LAUNCH();
        wrong_clear(v);
        k_compact_vs_embedded<<<P.blocks, P.threads, 0, v->stream>>>(P, v->S.d_s[v->S.cur], v->E.d_e[v->E.cur], v->d_wrong);
        unsigned long long w = wrong_read(v);
        if (w) {
            fprintf(stderr, "error: %s: step %d: %llu compact cells differ from the embedded ca\n", v->label, t, w);
            return (size_t)w;
        }
    }
    return 0;
}

/* ---- sw and rd on compact storage (no map: cell i is byte i) -------------------------- */

static void sw_poison(void *ctx)
{
    compact_level *v = (compact_level *)ctx;
    CHECK_CUDA(cudaMemsetAsync(v->S.d_s[0], 0, v->cells, v->stream)); /* 0 != FRACTAL_SW_VALUE */
}

static void sw_run(void *ctx, cudaStream_t stream) { compact_sw(&((compact_level *)ctx)->S, stream); }

static size_t sw_check(void *ctx)
{
    compact_level *v = (compact_level *)ctx;
    wrong_clear(v);
    k_compact_count_not<<<GRID_STRIDE_BLOCKS(8), 256, 0, v->stream>>>(v->S.d_s[0], v->cells, (uint8_t)FRACTAL_SW_VALUE, v->d_wrong);
    unsigned long long w = wrong_read(v);
    if (w) fprintf(stderr, "error: %s: sw left %llu compact cells unwritten\n", v->label, w);
    return (size_t)w;
}

/* rd's input: fractal_rd_value(x, y) of each cell (the embedded rd's values); the sum 0. */
static void rd_poison(void *ctx)
{
    compact_level *v = (compact_level *)ctx;
    k_compact_init_rd<<<v->S.P.blocks, v->S.P.threads, 0, v->stream>>>(v->S.P, v->S.d_s[1], v->seed);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemsetAsync(v->S.d_sum, 0, sizeof *v->S.d_sum, v->stream));
}

static void rd_run(void *ctx, cudaStream_t stream) { compact_rd(&((compact_level *)ctx)->S, stream); }

static size_t rd_check(void *ctx)
{
    compact_level *v = (compact_level *)ctx;
    unsigned long long got = read_count(v->S.d_sum, v->stream), want, emb_sum = 0;
    wrong_clear(v);
    k_compact_sum_check<<<GRID_STRIDE_BLOCKS(8), 256, 0, v->stream>>>(v->S.d_s[1], v->cells, v->d_wrong);
    want = wrong_read(v);
    if (v->emb) { /* the same values embedded, summed through the lambda map (k_rd) */
        embedded_state *E = &v->E;
        CHECK_CUDA(cudaMemsetAsync(E->d_e[0], 0, (size_t)E->n * E->n, v->stream));
        k_compact_scatter<<<v->S.P.blocks, v->S.P.threads, 0, v->stream>>>(v->S.P, v->S.d_s[1], E->d_e[0]);
        CHECK_LAUNCH();
        wrong_clear(v);
        k_rd<lambda_map_t><<<E->m.grid, E->m.block, 0, v->stream>>>(E->m, E->d_e[0], E->n, v->d_wrong);
        emb_sum = wrong_read(v);
    }
    if (got == want && want >= v->cells && (!v->emb || emb_sum == got)) return 0; /* every value is >= 1 */
    fprintf(stderr, "error: %s: rd sum %llu, grid-stride sum %llu, embedded lambda sum %llu (%s)\n", v->label, got, want, emb_sum,
            v->emb ? "compared" : "not run");
    return 1;
}

/* ---- the sweep ---------------------------------------------------------------------------- */

/* One row of fractals_compact_<fractal>.dat. */
static void compact_row(datfile *d, const nbb_fractal *f, const compact_level *v, const char *test, const char *storage,
                        uint32_t rho, uint64_t state_bytes, bench_stats s, const char *verified, int steps)
{
    datfile_row(d, "%s %d %d %d %llu %llu %s %s %u %llu %.6f %.6f %.6f %.4f %s %d %d", f->name, f->k, f->s, v->S.P.C.r,
                (unsigned long long)v->S.P.C.n, (unsigned long long)v->cells, test, storage, rho, (unsigned long long)state_bytes,
                s.median, s.min, s.max, s.median * 1e6 / (double)v->cells, verified, steps, s.batch);
}

/* Level r: allocate, verify and time ca (compact, and embedded where it fits), sw, rd. */
static void compact_measure_level(const compact_opts *o, const nbb_fractal *f, int r, uint64_t budget, compact_level *v, datfile *d)
{
    char err[256], label[160];
    compact_launch P;
    if (compact_launch_init(&P, f, r, err, sizeof err)) DIE("%s", err);
    uint64_t n = P.C.n, ecells = n * n;
    v->cells = fractal_pow((uint64_t)f->k, r);
    v->S.P = P;
    CHECK_CUDA(cudaMalloc(&v->S.d_s[0], v->cells));
    CHECK_CUDA(cudaMalloc(&v->S.d_s[1], v->cells));
    snprintf(label, sizeof label, "%s r=%d", f->name, r);
    v->label = label;
    uint32_t rho = embedded_rho(f->s, (uint32_t)n);
    v->emb = (o->embedded_rmax < 0 || r <= o->embedded_rmax) && ecells <= EMBEDDED_MAX_CELLS && 2 * ecells + 2 * v->cells <= budget;
    if (v->emb) {
        fractal_launch L;
        if (fractal_launch_init(&L, f, r, rho, FRACTAL_MAP_LAMBDA, err, sizeof err)) DIE("%s", err);
        v->E.m = lambda_map_t::make(L);
        v->E.n = (uint32_t)n;
        CHECK_CUDA(cudaMalloc(&v->E.d_e[0], ecells));
        CHECK_CUDA(cudaMalloc(&v->E.d_e[1], ecells));
    }
    run_case ca = {label, v, ca_compact_poison, ca_compact_step, NULL, ca_compact_check};
    run_case emb = {label, v, ca_embedded_poison, embedded_step, NULL, ca_embedded_check};
    run_case sw = {label, v, sw_poison, sw_run, NULL, sw_check}, rd = {label, v, rd_poison, rd_run, NULL, rd_check};
    bench_stats sc = run_case_time(&ca, &o->c, v->stream, d), se = {};
    if (v->emb) se = run_case_time(&emb, &o->c, v->stream, d);
    const char *verified = v->emb ? "embedded" : "full-inverse";
    int vsteps = v->emb ? o->steps : 1;
    compact_row(d, f, v, "ca", "compact", 0, 2 * v->cells, sc, verified, vsteps);
    fprintf(stderr, "%s r=%2d cells=%-12llu compact %.4f ms (%.3f ns/cell, %s)", f->name, r, (unsigned long long)v->cells, sc.median,
            sc.median * 1e6 / (double)v->cells, verified);
    if (v->emb) {
        compact_row(d, f, v, "ca", "embedded", rho, 2 * ecells, se, "vs-compact", vsteps);
        fprintf(stderr, "  embedded %.4f ms", se.median);
    }
    bench_stats ss = run_case_time(&sw, &o->c, v->stream, d), sr = run_case_time(&rd, &o->c, v->stream, d);
    compact_row(d, f, v, "sw", "compact", 0, v->cells, ss, "all-set", 1);
    compact_row(d, f, v, "rd", "compact", 0, v->cells, sr, v->emb ? "embedded" : "sum-check", 1);
    fprintf(stderr, "  sw %.4f ms  rd %.4f ms\n", ss.median, sr.median);
    if (v->emb) {
        CHECK_CUDA(cudaFree(v->E.d_e[0]));
        CHECK_CUDA(cudaFree(v->E.d_e[1]));
    }
    CHECK_CUDA(cudaFree(v->S.d_s[0]));
    CHECK_CUDA(cudaFree(v->S.d_s[1]));
}

/* The largest level of the sweep: --rmax, else the largest whose two compact states fit
 * the budget (--quick: at most rmin + 8).  Exit 2 if the top level does not fit. */
static int compact_top(const compact_opts *o, const nbb_fractal *f, uint64_t budget, size_t free_b)
{
    compact_launch P;
    char err[256];
    int top = o->rmax;
    if (top < 0) {
        top = o->rmin;
        while (!compact_launch_init(&P, f, top + 1, err, sizeof err) && 2 * fractal_pow((uint64_t)f->k, top + 1) <= budget) top++;
    }
    if (2 * fractal_pow((uint64_t)f->k, top) > budget)
        DIE_USAGE("%s at r=%d needs %.2f GiB for two compact states, only %.2f GiB free (lower --rmax)", f->name, top,
                  2.0 * (double)fractal_pow((uint64_t)f->k, top) / 1073741824.0, free_b / 1073741824.0);
    if (o->c.quick && o->rmax < 0 && top > o->rmin + 8) top = o->rmin + 8;
    return top;
}

static void compact_open(const compact_opts *o, const nbb_fractal *f, const char *gpu, datfile *d)
{
    dat_meta meta = dat_meta_of("compact", "ca on compact storage (k^r cells) vs embedded (n^2), beyond the thesis (section 7)",
                                o->argc, o->argv, gpu, &o->c);
    char fname[96];
    snprintf(fname, sizeof fname, "fractals_compact_%s.dat", f->name);
    datfile_open(d, o->c.out, fname, &meta);
    datfile_meta(d, "columns", "test ca = one automaton step (B3/S23, only fractal cells count), sw = write every cell, "
                               "rd = sum every cell; storage = compact (k^r bytes per array; ca: neighbours via the inverse "
                               "map; sw/rd: no map) or embedded (n^2 bytes per array, lambda map; ca only); state_bytes = "
                               "the arrays the test uses (ca: both ping-pong states); ns_per_cell = median / k^r; verified: "
                               "embedded = equal to the embedded ca after every one of `steps` steps (rd: equal to the "
                               "embedded lambda rd), full-inverse = one step equal to the O(r)-inverse evaluation, "
                               "sum-check = rd equal to a grid-stride sum, all-set = sw wrote every byte");
    datfile_columns(d, "fractal k s r n cells test storage rho state_bytes median_ms min_ms max_ms ns_per_cell verified steps batch");
}

/* The experiment: every level from --rmin to the largest that fits, one data file. */
static int exp_storage(void *opts)
{
    const compact_opts *o = (const compact_opts *)opts;
    const nbb_fractal *f = fractal_by_name(o->fractal);
    char err[256], gpu[256];
    compact_launch P;
    if (o->rmax >= 0 && o->rmax < o->rmin) DIE_USAGE("--rmax=%d is below --rmin=%d", o->rmax, o->rmin);
    if (compact_launch_init(&P, f, o->rmin, err, sizeof err)) DIE_USAGE("%s", err);
    if (o->rmax >= 0 && compact_launch_init(&P, f, o->rmax, err, sizeof err)) DIE_USAGE("%s", err);

    device_require(o->c.device, 8, 0);
    device_describe(o->c.device, gpu, sizeof gpu);
    size_t free_b = 0, total_b = 0;
    CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
    uint64_t budget = free_b > COMPACT_MEM_MARGIN ? free_b - COMPACT_MEM_MARGIN : 0;
    int top = compact_top(o, f, budget, free_b);
    compact_level v = {};
    v.steps = o->steps;
    v.seed = (uint64_t)o->c.seed;
    CHECK_CUDA(cudaStreamCreate(&v.stream));
    CHECK_CUDA(cudaMalloc(&v.d_wrong, sizeof *v.d_wrong));
    CHECK_CUDA(cudaMalloc(&v.S.d_sum, sizeof *v.S.d_sum));
    datfile d;
    compact_open(o, f, gpu, &d);
    for (int r = o->rmin; r <= top; r++) compact_measure_level(o, f, r, budget, &v, &d);
    datfile_commit(&d);
    CHECK_CUDA(cudaFree(v.d_wrong));
    CHECK_CUDA(cudaFree(v.S.d_sum));
    CHECK_CUDA(cudaStreamDestroy(v.stream));
    return 0;
}

static const experiment EXPERIMENTS[] = {
    /* name      paper item              what it measures                                          function */
    {"storage", "Sec. 7 (future work)", "ca, sw, rd on the k^r cells alone vs the embedded n x n array", exp_storage},
};

int main(int argc, char **argv)
{
    compact_opts o = {common_opts_default(), NULL, "sierpinski-triangle", 2, -1, 4, -1, argc, argv};
    char names[512];
    fractal_names(names, sizeof names);
    arg_opt opts[] = {
        COMMON_ARGS(o.c),
        {"exp", ARG_STR, &o.exp, "experiment to run (list: print the table, no GPU needed)", 0, 0, NULL},
        {"fractal", ARG_CHOICE, &o.fractal, "fractal of Table 1", 0, 0, names},
        {"rmin", ARG_INT, &o.rmin, "smallest level of the sweep", 0, 30, NULL},
        {"rmax", ARG_INT, &o.rmax, "largest level (-1: the largest whose 2 k^r bytes fit on the GPU)", -1, 30, NULL},
        {"steps", ARG_INT, &o.steps, "steps compared with the embedded ca after every step", 1, 1000, NULL},
        {"embedded-rmax", ARG_INT, &o.embedded_rmax, "largest level run embedded too (-1: all that fit)", -1, 30, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "compact --exp=NAME [options]",
               "the ca of section 6 on compact storage (k^r cells) through the inverse map, checked against the\n"
               "embedded ca; beyond the thesis (section 7, future work).  Writes fractals_compact_<fractal>.dat.");
    common_opts_finish(&o.c);
    const experiment *e = experiment_select(EXPERIMENTS, ARGS_COUNT(EXPERIMENTS), o.exp, "compact");
    return e->run(&o); /* validates its options, then calls device_require */
}
