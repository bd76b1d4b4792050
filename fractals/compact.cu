/* compact.cu -- the automaton (ca) of section 6 on COMPACT storage: k^r bytes per state
 * instead of the n x n embedded array, neighbours found through the inverse map
 * (compact.h).  Beyond the thesis: its section 7 names storing only the fractal's cells as
 * future work.  The Sierpinski triangle at r = 22 has 3^22 = 31.4 G cells (2 x 29 GiB of
 * states); its embedded box would be 2^44 cells (16 TiB).
 *
 * For every level r of the sweep:
 *   1. the compact state starts from the same deterministic values as the embedded ca
 *      (fractal_ca_value of driver.cuh on each cell (x, y));
 *   2. where the embedded ping-pong pair also fits on the GPU, `--steps` steps of the
 *      compact ca are compared cell by cell with the embedded ca (k_ca of kernels.cuh under
 *      the lambda map, itself checked against the CPU by ./fractals) after EVERY step;
 *   3. at every level, one step is also checked against an independent evaluation that
 *      finds every neighbour with the full O(r) inverse (compact_ca_cell_full);
 *   4. one step is timed (bench.h), and where it fits the embedded lambda step too.
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
#include "fractal.h"
#include "compact.h"
#include "kernels.cuh"
#include "driver.cuh"
#include "compact.cuh"

#define COMPACT_MEM_MARGIN (1ull << 30)  /* bytes of device memory left free */
#define EMBEDDED_MAX_CELLS (1ull << 36)  /* embedded n x n array: at most 64 GiB, as ./fractals */

static unsigned long long read_wrong(unsigned long long *d_wrong, cudaStream_t stream)
{
    unsigned long long w = 0;
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(&w, d_wrong, sizeof w, cudaMemcpyDeviceToHost));
    return w;
}

/* Embedded side of the comparison: lambda map, ping-pong pair of n x n arrays. */
typedef struct {
    lambda_map_t m;
    uint8_t *d_e[2];
    uint32_t n;
    int cur;
} embedded_state;

static void embedded_step(void *ctx, cudaStream_t stream)
{
    embedded_state *E = (embedded_state *)ctx;
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

static unsigned long long read_sum(unsigned long long *d, cudaStream_t stream) { return read_wrong(d, stream); }

/* sw and rd on compact storage at one level: verify, then time, then one row each.  sw:
 * d_s[0] poisoned with 0, one write, every byte must be FRACTAL_SW_VALUE.  rd: d_s[1] holds
 * fractal_rd_value(x, y) of each cell; the sum must equal a grid-stride sum and, where the
 * embedded array fits (E), the embedded lambda rd over the same values.  Returns 1 on a
 * mismatch (data file discarded). */
static int sw_rd(compact_state *S, embedded_state *E, uint64_t cells, const common_opts *c, cudaStream_t stream,
                 unsigned long long *d_wrong, const char *label, datfile *d, const nbb_fractal *f)
{
    const compact_launch &P = S->P;
    const int grid = GRID_STRIDE_BLOCKS(8);
    CHECK_CUDA(cudaMemsetAsync(S->d_s[0], 0, cells, stream)); /* poison: 0 != FRACTAL_SW_VALUE */
    compact_sw(S, stream);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemsetAsync(d_wrong, 0, sizeof *d_wrong, stream));
    k_compact_count_not<<<grid, 256, 0, stream>>>(S->d_s[0], cells, (uint8_t)FRACTAL_SW_VALUE, d_wrong);
    CHECK_LAUNCH();
    unsigned long long w = read_wrong(d_wrong, stream);
    if (w) {
        fprintf(stderr, "error: %s: sw left %llu compact cells unwritten\n", label, w);
        datfile_discard(d);
        return 1;
    }
    k_compact_init_rd<<<P.blocks, P.threads, 0, stream>>>(P, S->d_s[1], (uint64_t)c->seed);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemsetAsync(d_wrong, 0, sizeof *d_wrong, stream));
    k_compact_sum_check<<<grid, 256, 0, stream>>>(S->d_s[1], cells, d_wrong);
    CHECK_LAUNCH();
    unsigned long long want = read_sum(d_wrong, stream), got, emb_sum = 0;
    CHECK_CUDA(cudaMemsetAsync(S->d_sum, 0, sizeof *S->d_sum, stream));
    compact_rd(S, stream);
    CHECK_LAUNCH();
    got = read_sum(S->d_sum, stream);
    if (E) { /* the same values embedded, summed through the lambda map (k_rd) */
        CHECK_CUDA(cudaMemsetAsync(E->d_e[0], 0, (size_t)E->n * E->n, stream));
        k_compact_scatter<<<P.blocks, P.threads, 0, stream>>>(P, S->d_s[1], E->d_e[0]);
        CHECK_LAUNCH();
        CHECK_CUDA(cudaMemsetAsync(d_wrong, 0, sizeof *d_wrong, stream));
        k_rd<lambda_map_t><<<E->m.grid, E->m.block, 0, stream>>>(E->m, E->d_e[0], E->n, d_wrong);
        CHECK_LAUNCH();
        emb_sum = read_sum(d_wrong, stream);
    }
    if (got != want || want < cells || (E && emb_sum != got)) { /* every value is >= 1 */
        fprintf(stderr, "error: %s: rd sum %llu, grid-stride sum %llu, embedded lambda sum %llu (%s)\n", label, got, want,
                emb_sum, E ? "compared" : "not run");
        datfile_discard(d);
        return 1;
    }
    bench_stats st[2] = {bench_gpu(compact_sw, S, stream, c->warmup, c->reps, c->batch),
                         bench_gpu(compact_rd, S, stream, c->warmup, c->reps, c->batch)};
    const char *names[2] = {"sw", "rd"}, *ver[2] = {"all-set", E ? "embedded" : "sum-check"};
    for (int t = 0; t < 2; t++) {
        if (bench_warn_spread(label, st[t]))
            datfile_meta(d, "warning", "spread %.0f%% for %s %s compact", 100 * bench_spread(st[t]), label, names[t]);
        datfile_row(d, "%s %d %d %d %u %llu %s compact 0 %llu %.6f %.6f %.6f %.4f %s 1 %d", f->name, f->k, f->s, P.C.r,
                    P.C.n, (unsigned long long)cells, names[t], (unsigned long long)cells, st[t].median, st[t].min,
                    st[t].max, st[t].median * 1e6 / (double)cells, ver[t], st[t].batch);
        fprintf(stderr, "  %s %.4f ms", names[t], st[t].median);
    }
    return 0;
}

int main(int argc, char **argv)
{
    common_opts c = common_opts_default();
    char names[512];
    fractal_names(names, sizeof names);
    const char *fractal = "sierpinski-triangle";
    int rmin = 2, rmax = -1, steps = 4, embedded_rmax = -1;
    arg_opt opts[] = {
        COMMON_ARGS(c),
        {"fractal", ARG_CHOICE, &fractal, "fractal of Table 1", 0, 0, names},
        {"rmin", ARG_INT, &rmin, "smallest level of the sweep", 0, 30, NULL},
        {"rmax", ARG_INT, &rmax, "largest level (-1: the largest whose 2 k^r bytes fit on the GPU)", -1, 30, NULL},
        {"steps", ARG_INT, &steps, "steps compared with the embedded ca after every step", 1, 1000, NULL},
        {"embedded-rmax", ARG_INT, &embedded_rmax, "largest level run embedded too (-1: all that fit)", -1, 30, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "compact [options]",
               "the ca of section 6 on compact storage (k^r cells) through the inverse map, checked against the\n"
               "embedded ca; beyond the thesis (section 7, future work).  Writes fractals_compact_<fractal>.dat.");
    common_opts_finish(&c);
    const nbb_fractal *f = fractal_by_name(fractal);
    char err[256];
    if (rmax >= 0 && rmax < rmin) DIE_USAGE("--rmax=%d is below --rmin=%d", rmax, rmin);
    compact_launch P;
    if (compact_launch_init(&P, f, rmin, err, sizeof err)) DIE_USAGE("%s", err);
    if (rmax >= 0 && compact_launch_init(&P, f, rmax, err, sizeof err)) DIE_USAGE("%s", err);

    device_require(c.device, 8, 0);
    char gpu[256];
    device_describe(c.device, gpu, sizeof gpu);
    size_t free_b = 0, total_b = 0;
    CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
    uint64_t budget = free_b > COMPACT_MEM_MARGIN ? free_b - COMPACT_MEM_MARGIN : 0;
    int top = rmax;
    if (top < 0) { /* the largest level whose two compact states fit */
        top = rmin;
        while (!compact_launch_init(&P, f, top + 1, err, sizeof err) && 2 * fractal_pow((uint64_t)f->k, top + 1) <= budget) top++;
    }
    if (2 * fractal_pow((uint64_t)f->k, top) > budget)
        DIE_USAGE("%s at r=%d needs %.2f GiB for two compact states, only %.2f GiB free (lower --rmax)", f->name, top,
                  2.0 * (double)fractal_pow((uint64_t)f->k, top) / 1073741824.0, free_b / 1073741824.0);
    if (c.quick && rmax < 0 && top > rmin + 8) top = rmin + 8;

    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    unsigned long long *d_wrong, *d_sum;
    CHECK_CUDA(cudaMalloc(&d_wrong, sizeof *d_wrong));
    CHECK_CUDA(cudaMalloc(&d_sum, sizeof *d_sum));

    dat_meta meta = dat_meta_of("compact", "ca on compact storage (k^r cells) vs embedded (n^2), beyond the thesis (section 7)",
                                argc, argv, gpu, &c);
    datfile d;
    char fname[96];
    snprintf(fname, sizeof fname, "fractals_compact_%s.dat", f->name);
    datfile_open(&d, c.out, fname, &meta);
    datfile_meta(&d, "columns", "test ca = one automaton step (B3/S23, only fractal cells count), sw = write every cell, "
                                "rd = sum every cell; storage = compact (k^r bytes per array; ca: neighbours via the inverse "
                                "map; sw/rd: no map) or embedded (n^2 bytes per array, lambda map; ca only); state_bytes = "
                                "the arrays the test uses (ca: both ping-pong states); ns_per_cell = median / k^r; verified: "
                                "embedded = equal to the embedded ca after every one of `steps` steps (rd: equal to the "
                                "embedded lambda rd), full-inverse = one step equal to the O(r)-inverse evaluation, "
                                "sum-check = rd equal to a grid-stride sum, all-set = sw wrote every byte");
    datfile_columns(&d, "fractal k s r n cells test storage rho state_bytes median_ms min_ms max_ms ns_per_cell verified steps batch");

    for (int r = rmin; r <= top; r++) {
        if (compact_launch_init(&P, f, r, err, sizeof err)) DIE("%s", err);
        uint64_t cells = fractal_pow((uint64_t)f->k, r);
        uint64_t n = P.C.n, ecells = n * n;
        compact_state S = {P, {NULL, NULL}, 0, d_sum};
        CHECK_CUDA(cudaMalloc(&S.d_s[0], cells));
        CHECK_CUDA(cudaMalloc(&S.d_s[1], cells));
        CHECK_CUDA(cudaMemsetAsync(S.d_s[1], 0xAB, cells, stream)); /* poison: not a state value */
        k_compact_init<<<P.blocks, P.threads, 0, stream>>>(P, S.d_s[0], (uint64_t)c.seed);
        CHECK_LAUNCH();
        char label[160];
        snprintf(label, sizeof label, "%s r=%d", f->name, r);

        /* (3) one step against the full inverse */
        compact_step(&S, stream);
        CHECK_LAUNCH();
        CHECK_CUDA(cudaMemsetAsync(d_wrong, 0, sizeof *d_wrong, stream));
        k_compact_check_full<<<P.blocks, P.threads, 0, stream>>>(P, S.d_s[0], S.d_s[1], d_wrong);
        CHECK_LAUNCH();
        unsigned long long w = read_wrong(d_wrong, stream);
        if (w) {
            fprintf(stderr, "error: %s: %llu cells of the compact step differ from the full-inverse step\n", label, w);
            datfile_discard(&d);
            return 1;
        }
        const char *verified = "full-inverse";
        int vsteps = 1;

        /* (2) step by step against the embedded ca, where both fit */
        embedded_state E = {};
        uint32_t rho = embedded_rho(f->s, (uint32_t)n);
        int emb = (embedded_rmax < 0 || r <= embedded_rmax) && ecells <= EMBEDDED_MAX_CELLS && 2 * ecells + 2 * cells <= budget;
        if (emb) {
            fractal_launch L;
            if (fractal_launch_init(&L, f, r, rho, FRACTAL_MAP_LAMBDA, err, sizeof err)) DIE("%s", err);
            E.m = lambda_map_t::make(L);
            E.n = (uint32_t)n;
            CHECK_CUDA(cudaMalloc(&E.d_e[0], ecells));
            CHECK_CUDA(cudaMalloc(&E.d_e[1], ecells));
            CHECK_CUDA(cudaMemsetAsync(E.d_e[0], 0, ecells, stream)); /* non-fractal cells: dead forever */
            CHECK_CUDA(cudaMemsetAsync(E.d_e[1], 0, ecells, stream));
            k_compact_init<<<P.blocks, P.threads, 0, stream>>>(P, S.d_s[0], (uint64_t)c.seed); /* restart */
            CHECK_LAUNCH();
            CHECK_CUDA(cudaMemsetAsync(S.d_s[1], 0xAB, cells, stream));
            S.cur = 0;
            k_compact_scatter<<<P.blocks, P.threads, 0, stream>>>(P, S.d_s[0], E.d_e[0]);
            CHECK_LAUNCH();
            for (int t = 1; t <= steps; t++) {
                compact_step(&S, stream);
                embedded_step(&E, stream);
                CHECK_LAUNCH();
                CHECK_CUDA(cudaMemsetAsync(d_wrong, 0, sizeof *d_wrong, stream));
                k_compact_vs_embedded<<<P.blocks, P.threads, 0, stream>>>(P, S.d_s[S.cur], E.d_e[E.cur], d_wrong);
                CHECK_LAUNCH();
                w = read_wrong(d_wrong, stream);
                if (w) {
                    fprintf(stderr, "error: %s: step %d: %llu compact cells differ from the embedded ca\n", label, t, w);
                    datfile_discard(&d);
                    return 1;
                }
            }
            verified = "embedded";
            vsteps = steps;
        }

        /* (4) timing */
        bench_stats st = bench_gpu(compact_step, &S, stream, c.warmup, c.reps, c.batch);
        if (bench_warn_spread(label, st)) datfile_meta(&d, "warning", "spread %.0f%% for %s compact", 100 * bench_spread(st), label);
        datfile_row(&d, "%s %d %d %d %llu %llu ca compact 0 %llu %.6f %.6f %.6f %.4f %s %d %d", f->name, f->k, f->s, r,
                    (unsigned long long)n, (unsigned long long)cells, (unsigned long long)(2 * cells), st.median, st.min,
                    st.max, st.median * 1e6 / (double)cells, verified, vsteps, st.batch);
        fprintf(stderr, "%s r=%2d cells=%-12llu compact %.4f ms (%.3f ns/cell, %s)", f->name, r, (unsigned long long)cells,
                st.median, st.median * 1e6 / (double)cells, verified);
        if (emb) {
            bench_stats se = bench_gpu(embedded_step, &E, stream, c.warmup, c.reps, c.batch);
            if (bench_warn_spread(label, se)) datfile_meta(&d, "warning", "spread %.0f%% for %s embedded", 100 * bench_spread(se), label);
            datfile_row(&d, "%s %d %d %d %llu %llu ca embedded %u %llu %.6f %.6f %.6f %.4f %s %d %d", f->name, f->k, f->s, r,
                        (unsigned long long)n, (unsigned long long)cells, rho, (unsigned long long)(2 * ecells), se.median,
                        se.min, se.max, se.median * 1e6 / (double)cells, "vs-compact", vsteps, se.batch);
            fprintf(stderr, "  embedded %.4f ms", se.median);
        }
        if (sw_rd(&S, emb ? &E : NULL, cells, &c, stream, d_wrong, label, &d, f)) return 1;
        if (emb) {
            CHECK_CUDA(cudaFree(E.d_e[0]));
            CHECK_CUDA(cudaFree(E.d_e[1]));
        }
        fputc('\n', stderr);
        CHECK_CUDA(cudaFree(S.d_s[0]));
        CHECK_CUDA(cudaFree(S.d_s[1]));
    }
    datfile_commit(&d);
    CHECK_CUDA(cudaFree(d_wrong));
    CHECK_CUDA(cudaFree(d_sum));
    CHECK_CUDA(cudaStreamDestroy(stream));
    return 0;
}
