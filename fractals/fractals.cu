/* fractals.cu -- block-space lambda(omega) vs the bounding box on embedded NBB fractals.
 *
 * Paper: F. A. Quezada, "Acelerando ecuaciones de mapeo de hilos de GPU para fractales 2D
 * empotrados utilizando Tensor Cores" (UACh), sections 3-4 and 6 (restating Navarro et al.,
 * HPCC 2017 and FGCS 2020).  For every fractal of Table 1, level r and block size rho, each
 * map (bb, lambda, lambda-thread, lambda-par) runs one test (sw, rd or ca; section 6): first a
 * correctness run against the CPU / brute-force reference (driver.cuh), then timed.
 *
 * Modes without a GPU: --describe, --draw, --layout, --ratios (parallel-space and memory
 * ratios -> fractals_ratio.dat), --shapes (cells of each fractal at a small level ->
 * fractals_shapes.dat), --layouts (every thread of bb and lambda, thesis Figs. 4/5 ->
 * fractals_layout.dat).  Default mode: the speedup sweep -> fractals_speedup_<test>.dat (every
 * rho) and fractals_best_<test>.dat (each map at its fastest rho, per level). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "fractal.h"
#include "kernels.cuh"
#include "driver.cuh"

#define MAX_LAYOUT_THREADS (1ull << 26) /* --layout prints one line per thread: keep it sane */
#define MAX_DRAW_N 243u                  /* --draw: ASCII up to this side */
#define MAX_SHAPES_N 1024u               /* --shapes: one row per cell up to this side */

/* rho values of the sweep (section 6: 8, 16, 32 for Sierpinski; for other fractals the
 * powers of their s that give 16..1024 threads per block). */
static int sweep_rhos(int s, uint32_t *rho)
{
    if (s == 2) { rho[0] = 8; rho[1] = 16; rho[2] = 32; return 3; }
    if (s == 3) { rho[0] = 9; rho[1] = 27; return 2; }
    rho[0] = 4; rho[1] = 16; return 2; /* s == 4 */
}

static void describe(const nbb_fractal *f)
{
    printf("%s: k=%d s=%d H={", f->name, f->k, f->s);
    for (int b = 0; b < f->k; b++) printf("%s(%d,%d)", b ? ", " : "", f->tau_x[b], f->tau_y[b]);
    printf("} hausdorff=log(%d)/log(%d)=%.4f\n", f->k, f->s, fractal_hausdorff(f));
}

static void draw(const nbb_fractal *f, int r)
{
    uint32_t n = (uint32_t)fractal_pow((uint64_t)f->s, r);
    printf("%s r=%d n=%u cells=%llu\n", f->name, r, n, (unsigned long long)fractal_pow((uint64_t)f->k, r));
    for (uint32_t y = 0; y < n; y++) {
        for (uint32_t x = 0; x < n; x++) putchar(fractal_member(f, x, y, r) ? 'X' : '.');
        putchar('\n');
    }
}

static void layout(const fractal_launch *L, const nbb_fractal *f, const char *map)
{
    printf("# fractal=%s map=%s r=%d n=%u rho=%u rb=%d grid=%ux%u block=%ux%u threads=%llu cells=%llu\n", f->name, map,
           L->r, L->n, L->rho, L->rb, L->gx, L->gy, L->rho, L->rho, (unsigned long long)fractal_launch_threads(L),
           (unsigned long long)fractal_pow((uint64_t)f->k, L->r));
    printf("# x y block thread   (block = by * gx + bx, thread = ty * rho + tx)\n");
    for (uint32_t by = 0; by < L->gy; by++)
        for (uint32_t bx = 0; bx < L->gx; bx++)
            for (uint32_t ty = 0; ty < L->rho; ty++)
                for (uint32_t tx = 0; tx < L->rho; tx++) {
                    uint32_t x, y;
                    if (fractal_launch_cell(L, bx, by, tx, ty, &x, &y))
                        printf("%u %u %llu %u\n", x, y, (unsigned long long)by * L->gx + bx, ty * L->rho + tx);
                }
}

/* Figs. 4 and 5 of the thesis as data: every thread of the bb and the lambda launch, with
 * its place in the parallel space (px, py) = (block * rho + thread), the cell it maps to
 * (x, y), its block and whether it works.  Default: Fig. 5's Sierpinski triangle (r = 6,
 * rho = 8), Fig. 4's Vicsek and the carpet (r = 3, rho = 3); --fractal/--r/--rho override. */
static int write_layouts(const nbb_fractal *one, int r, uint32_t rho_opt, const common_opts *c, int argc, char **argv)
{
    static const char *const FIG[] = {"sierpinski-triangle", "vicsek", "sierpinski-carpet"};
    const nbb_fractal *fs[FRACTAL_COUNT];
    int nf = 0, lv[FRACTAL_COUNT];
    uint32_t rh[FRACTAL_COUNT];
    char err[256];
    if (one) fs[nf++] = one;
    else
        for (int i = 0; i < 3; i++) fs[nf++] = fractal_by_name(FIG[i]);
    for (int i = 0; i < nf; i++) { /* validate before the data file is opened */
        lv[i] = r >= 0 ? r : fs[i]->s == 2 ? 6 : 3;
        rh[i] = rho_opt ? rho_opt : fs[i]->s == 2 ? 8u : (uint32_t)fs[i]->s;
        fractal_launch L;
        for (int map = 0; map < 2; map++) {
            if (fractal_launch_init(&L, fs[i], lv[i], rh[i], (fractal_map_kind)map, err, sizeof err)) DIE_USAGE("%s", err);
            if (fractal_launch_threads(&L) > MAX_LAYOUT_THREADS)
                DIE_USAGE("--layouts: %llu threads is too many rows; choose a smaller --r", (unsigned long long)fractal_launch_threads(&L));
        }
    }
    common_opts hc = *c;
    hc.warmup = hc.reps = 0;
    dat_meta m = dat_meta_of("fractals", "thread layouts of bb and lambda (thesis Figs. 4 and 5)", argc, argv,
                             "none (computed on the host)", &hc);
    datfile d;
    datfile_open(&d, c->out, "fractals_layout.dat", &m);
    datfile_meta(&d, "columns", "one row per launched thread: (px, py) = its place in the parallel space (block * rho + "
                                "thread), (x, y) = the cell it maps to (x column, y row), block = by * gx + bx, works = 1 "
                                "if (x, y) is a fractal cell it handles");
    datfile_columns(&d, "fractal r n rho map px py x y block works");
    for (int i = 0; i < nf; i++)
        for (int map = 0; map < 2; map++) {
            fractal_launch L;
            fractal_launch_init(&L, fs[i], lv[i], rh[i], (fractal_map_kind)map, err, sizeof err); /* valid: checked */
            for (uint32_t by = 0; by < L.gy; by++)
                for (uint32_t bx = 0; bx < L.gx; bx++)
                    for (uint32_t ty = 0; ty < L.rho; ty++)
                        for (uint32_t tx = 0; tx < L.rho; tx++) {
                            uint32_t x, y;
                            int works = fractal_launch_cell(&L, bx, by, tx, ty, &x, &y);
                            datfile_row(&d, "%s %d %u %u %s %u %u %u %u %llu %d", fs[i]->name, L.r, L.n, L.rho,
                                        map ? "lambda" : "bb", bx * L.rho + tx, by * L.rho + ty, x, y,
                                        (unsigned long long)by * L.gx + bx, works);
                        }
        }
    datfile_commit(&d);
    return 0;
}

/* Levels a sweep covers for f: from the smallest with n >= rho to the largest whose n*n
 * array fits max_cells (and FRACTAL_MAX_N). */
static int max_level(const nbb_fractal *f, uint64_t max_cells)
{
    int r = 0;
    while (1) {
        uint64_t n = fractal_pow((uint64_t)f->s, r + 1);
        if (n > FRACTAL_MAX_N || n * n > max_cells) return r;
        r++;
    }
}

typedef struct {
    const char *name;
    int kind; /* 0 bb, 1 lambda (per block), 2 lambda-thread, 3 lambda-par */
} map_choice;

/* One (map, launch) measurement: check, then time.  Returns 0 and fills st, or exits. */
template <class Map>
static int measure(const Map &m, fractal_problem *p, int test, const common_opts *c, const char *label, bench_stats *st)
{
    if (fractal_check(m, p, test, label)) return 1;
    *st = fractal_time(m, p, test, c);
    return 0;
}

int main(int argc, char **argv)
{
    common_opts c = common_opts_default();
    char names[512], fractal_choices[600];
    fractal_names(names, sizeof names);
    snprintf(fractal_choices, sizeof fractal_choices, "all %s", names);
    const char *fractal = "all", *test = "sw", *map = "all";
    int r = -1, rmax = -1, describe_mode = 0, draw_mode = 0, layout_mode = 0, ratios_mode = 0, shapes_mode = 0;
    int layouts_mode = 0;
    long long rho_opt = 0, max_cells = 0;
    arg_opt opts[] = {
        COMMON_ARGS(c),
        {"fractal", ARG_CHOICE, &fractal, "fractal of Table 1 (all: every one)", 0, 0, fractal_choices},
        {"test", ARG_CHOICE, &test, "work after the map (section 6)", 0, 0, "sw rd ca"},
        {"map", ARG_CHOICE, &map, "thread map(s)", 0, 0, "all bb lambda lambda-thread lambda-par"},
        {"r", ARG_INT, &r, "fractal level (-1: sweep every level that fits)", -1, 30, NULL},
        {"rmax", ARG_INT, &rmax, "largest level of the sweep (-1: by --max-cells)", -1, 30, NULL},
        {"rho", ARG_LONG, &rho_opt, "block side rho, a power of s (0: 8 16 32 / 9 27 / 4 16)", 0, 1 << 20, NULL},
        {"max-cells", ARG_LONG, &max_cells, "sweep: largest n*n (0: 2^32 for sw, 2^30 rd/ca; quick /256)", 0, 1ll << 40, NULL},
        {"describe", ARG_FLAG, &describe_mode, "print k, s, H and the Hausdorff dimension (no GPU)", 0, 0, NULL},
        {"draw", ARG_FLAG, &draw_mode, "print the fractal at level --r as ASCII (no GPU)", 0, 0, NULL},
        {"layout", ARG_FLAG, &layout_mode, "print `x y block thread` of every working thread (no GPU)", 0, 0, NULL},
        {"layouts", ARG_FLAG, &layouts_mode, "write fractals_layout.dat: every thread of bb and lambda (Figs. 4/5; no GPU)", 0, 0, NULL},
        {"ratios", ARG_FLAG, &ratios_mode, "write fractals_ratio.dat: bb/lambda parallel space and memory (no GPU)", 0, 0, NULL},
        {"shapes", ARG_FLAG, &shapes_mode, "write fractals_shapes.dat: cells of each fractal at a small level (no GPU)", 0, 0, NULL},
    };
    const char *usage = "fractals [options]";
    args_parse(argc, argv, opts, ARGS_COUNT(opts), usage,
               "lambda(omega) vs bounding box on the embedded NBB fractals of Table 1 (Quezada; Navarro et al.).\n"
               "fractals: sierpinski-triangle candelabra h-fractal candy sierpinski-carpet x-fractal vicsek\n"
               "          empty-bottles cantor-dust");
    common_opts_finish(&c);
    if (describe_mode + draw_mode + layout_mode + layouts_mode + ratios_mode + shapes_mode > 1)
        DIE_USAGE("--describe, --draw, --layout, --layouts, --ratios and --shapes are exclusive: choose one");
    int all = !strcmp(fractal, "all");
    const nbb_fractal *one = all ? NULL : fractal_by_name(fractal);
    int test_id = !strcmp(test, "sw") ? FRACTAL_SW : !strcmp(test, "rd") ? FRACTAL_RD : FRACTAL_CA;
    char err[256];

    if (describe_mode) {
        for (int i = 0; i < FRACTAL_COUNT; i++)
            if (all || one == &FRACTAL_TABLE[i]) describe(&FRACTAL_TABLE[i]);
        return 0;
    }
    if (draw_mode) {
        int rd = r < 0 ? 3 : r;
        for (int i = 0; i < FRACTAL_COUNT; i++) {
            const nbb_fractal *f = &FRACTAL_TABLE[i];
            if (!all && one != f) continue;
            if (fractal_pow((uint64_t)f->s, rd) > MAX_DRAW_N)
                DIE_USAGE("--draw: %s at r=%d has n = %llu > %u; choose a smaller --r", f->name, rd,
                          (unsigned long long)fractal_pow((uint64_t)f->s, rd), MAX_DRAW_N);
            draw(f, rd);
        }
        return 0;
    }
    if (layout_mode) {
        if (all) DIE_USAGE("--layout needs one --fractal=NAME");
        if (r < 0) DIE_USAGE("--layout needs --r=R");
        if (!strcmp(map, "all")) DIE_USAGE("--layout needs --map=bb|lambda|lambda-thread");
        uint32_t rho = rho_opt ? (uint32_t)rho_opt : (uint32_t)one->s;
        fractal_launch L;
        if (fractal_launch_init(&L, one, r, rho, strcmp(map, "bb") ? FRACTAL_MAP_LAMBDA : FRACTAL_MAP_BB, err, sizeof err))
            DIE_USAGE("%s", err);
        if (fractal_launch_threads(&L) > MAX_LAYOUT_THREADS)
            DIE_USAGE("--layout: %llu threads is too many lines; choose a smaller --r",
                      (unsigned long long)fractal_launch_threads(&L));
        layout(&L, one, map);
        return 0;
    }
    if (layouts_mode) return write_layouts(all ? NULL : one, r, (uint32_t)rho_opt, &c, argc, argv);
    if (ratios_mode || shapes_mode) {
        /* validate before the data file is opened (no .tmp left behind, no empty file) */
        for (int i = 0; i < FRACTAL_COUNT; i++) {
            const nbb_fractal *f = &FRACTAL_TABLE[i];
            if (!all && one != f) continue;
            if (ratios_mode && rho_opt && fractal_level_of(f->s, (uint64_t)rho_opt) < 0)
                DIE_USAGE("rho=%lld is not a power of s=%d (%s)", rho_opt, f->s, f->name);
            if (ratios_mode && rho_opt > FRACTAL_MAX_RHO)
                DIE_USAGE("rho=%lld: a block of rho x rho threads must have rho <= %d", rho_opt, FRACTAL_MAX_RHO);
            uint64_t n = fractal_pow((uint64_t)f->s, r >= 0 ? r : (f->s == 2 ? 5 : 3));
            if (shapes_mode && n > MAX_SHAPES_N)
                DIE_USAGE("--shapes: %s at r=%d has n = %llu > %u; choose a smaller --r", f->name, r, (unsigned long long)n,
                          MAX_SHAPES_N);
        }
        common_opts hc = c;
        hc.warmup = hc.reps = 0;
        dat_meta m = dat_meta_of("fractals", ratios_mode ? "parallel space and memory ratio bb/lambda, section 4 ((s^2/k)^rb)"
                                                         : "pictures of Table 1 (cells at a small level)",
                                 argc, argv, "none (computed on the host)", &hc);
        datfile d;
        if (ratios_mode) {
            datfile_open(&d, c.out, "fractals_ratio.dat", &m);
            datfile_meta(&d, "columns", "space_ratio_x = bb threads / lambda threads = (n/rho)^2 / k^rb = (s^2/k)^rb; "
                                        "memory_ratio_x = n^2 / k^r (embedded array / fractal cells)");
            datfile_columns(&d, "fractal k s hausdorff r n rho rb bb_blocks lambda_blocks space_ratio_x memory_ratio_x");
            for (int i = 0; i < FRACTAL_COUNT; i++) {
                const nbb_fractal *f = &FRACTAL_TABLE[i];
                if (!all && one != f) continue;
                uint32_t rhos[3];
                int nr = rho_opt ? 1 : sweep_rhos(f->s, rhos);
                if (rho_opt) rhos[0] = (uint32_t)rho_opt;
                for (int q = 0; q < nr; q++)
                    for (int lv = 0; lv <= 24; lv++) {
                        fractal_launch Lb, Ll;
                        if (fractal_launch_init(&Lb, f, lv, rhos[q], FRACTAL_MAP_BB, err, sizeof err)) continue;
                        if (fractal_launch_init(&Ll, f, lv, rhos[q], FRACTAL_MAP_LAMBDA, err, sizeof err)) continue;
                        double bbb = (double)Lb.gx * Lb.gy, lb = (double)Ll.gx * Ll.gy;
                        double n = (double)Lb.n;
                        datfile_row(&d, "%s %d %d %.4f %d %u %u %d %.0f %.0f %.6g %.6g", f->name, f->k, f->s, fractal_hausdorff(f), lv,
                                    Lb.n, rhos[q], Lb.rb, bbb, lb, bbb / lb, n * n / pow((double)f->k, lv));
                    }
            }
        } else {
            datfile_open(&d, c.out, "fractals_shapes.dat", &m);
            datfile_meta(&d, "columns", "one row per cell (x = column, y = row, row 0 on top) of each fractal at level r");
            datfile_columns(&d, "fractal r n x y");
            for (int i = 0; i < FRACTAL_COUNT; i++) {
                const nbb_fractal *f = &FRACTAL_TABLE[i];
                if (!all && one != f) continue;
                int lv = r >= 0 ? r : (f->s == 2 ? 5 : 3);
                uint64_t n = fractal_pow((uint64_t)f->s, lv); /* <= MAX_SHAPES_N, checked above */
                for (uint32_t y = 0; y < n; y++)
                    for (uint32_t x = 0; x < n; x++)
                        if (fractal_member(f, x, y, lv)) datfile_row(&d, "%s %d %llu %u %u", f->name, lv, (unsigned long long)n, x, y);
            }
        }
        datfile_commit(&d);
        return 0;
    }

    /* ---- the sweep: validate everything before touching the GPU ---- */
    if (!max_cells) max_cells = (test_id == FRACTAL_SW ? 1ll << 32 : 1ll << 30) >> (c.quick ? 8 : 0);
    if (r >= 0 || rho_opt) { /* explicit level / rho: a bad combination is a usage error */
        for (int i = 0; i < FRACTAL_COUNT; i++) {
            const nbb_fractal *f = &FRACTAL_TABLE[i];
            if (!all && one != f) continue;
            fractal_launch L;
            if (rho_opt && fractal_level_of(f->s, (uint64_t)rho_opt) < 0)
                DIE_USAGE("rho=%lld is not a power of s=%d (%s)", rho_opt, f->s, f->name);
            if (r >= 0) {
                uint32_t rhos[3];
                int nr = rho_opt ? 1 : sweep_rhos(f->s, rhos);
                if (rho_opt) rhos[0] = (uint32_t)rho_opt;
                int ok = 0; /* an explicit rho must be valid; of the default set, one must be */
                for (int q = 0; q < nr; q++)
                    if (!fractal_launch_init(&L, f, r, rhos[q], FRACTAL_MAP_BB, err, sizeof err) &&
                        !fractal_launch_init(&L, f, r, rhos[q], FRACTAL_MAP_LAMBDA, err, sizeof err)) ok++;
                    else if (rho_opt) DIE_USAGE("%s", err);
                if (!ok) DIE_USAGE("%s (no rho of the default set fits r=%d; give --rho)", err, r);
                uint64_t n = fractal_pow((uint64_t)f->s, r);
                if (n * n > (1ull << 36)) DIE_USAGE("%s at r=%d: n*n = %llu cells is more than 64 GiB", f->name, r, (unsigned long long)(n * n));
            } else if (rho_opt > FRACTAL_MAX_RHO) {
                DIE_USAGE("rho=%lld: a block of rho x rho threads must have rho <= %d", rho_opt, FRACTAL_MAX_RHO);
            }
        }
    }

    device_require(c.device, 8, 0); /* __reduce_add_sync: sm_80 */
    char gpu[256];
    device_describe(c.device, gpu, sizeof gpu);
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));

    /* the largest level of each fractal must fit in device memory: refuse it here (exit 2)
     * rather than from fractal_problem_init in the middle of the sweep, with the data
     * files half written */
    {
        size_t free_b = 0, total_b = 0;
        CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
        for (int i = 0; i < FRACTAL_COUNT; i++) {
            const nbb_fractal *f = &FRACTAL_TABLE[i];
            if (!all && one != f) continue;
            int top = r >= 0 ? r : max_level(f, (uint64_t)max_cells);
            if (r < 0 && rmax >= 0 && rmax < top) top = rmax;
            uint64_t need = fractal_problem_bytes(f, top, 1u << test_id);
            if (need > free_b)
                DIE_USAGE("%s at r=%d needs %.2f GiB of device memory, only %.2f GiB free (lower --max-cells or --rmax)",
                          f->name, top, need / 1073741824.0, free_b / 1073741824.0);
        }
    }

    map_choice maps[4] = {{"bb", 0}, {"lambda", 1}, {"lambda-thread", 2}, {"lambda-par", 3}};
    int nmaps = 4;
    if (strcmp(map, "all")) {
        for (int i = 0; i < 4; i++)
            if (!strcmp(maps[i].name, map)) maps[0] = maps[i];
        nmaps = 1;
    }

    char fig[200], fname[64];
    snprintf(fig, sizeof fig, "speedup of lambda over bb, test %s (Quezada section 6; Navarro et al. FGCS 2020)", test);
    snprintf(fname, sizeof fname, "fractals_speedup_%s.dat", test);
    dat_meta meta = dat_meta_of("fractals", fig, argc, argv, gpu, &c);
    datfile d;
    datfile_open(&d, c.out, fname, &meta);
    datfile_meta(&d, "columns", "median_ms/min_ms/max_ms per launch; speedup_x = bb median / this map's median "
                                "(same fractal, r, rho); threads = launched threads; cells = k^r");
    if (test_id == FRACTAL_CA) datfile_meta(&d, "rule", "B3/S23 on the Moore neighbourhood, non-fractal cells always dead");
    datfile_columns(&d, "fractal k s r n rho rb map median_ms min_ms max_ms speedup_x threads blocks cells batch");
    /* the best block size of each map, per level: fractals_best_<test>.dat */
    char bname[64];
    snprintf(bname, sizeof bname, "fractals_best_%s.dat", test);
    datfile db;
    datfile_open(&db, c.out, bname, &meta);
    datfile_meta(&db, "columns", "for each map its fastest rho (best_rho, median_ms) and bb's fastest (bb_rho, bb_ms); "
                                 "speedup_x = bb_ms / median_ms (best block size against best block size)");
    datfile_columns(&db, "fractal k s r n map best_rho median_ms bb_rho bb_ms speedup_x");

    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        if (!all && one != f) continue;
        uint32_t rhos[3];
        int nr = rho_opt ? 1 : sweep_rhos(f->s, rhos);
        if (rho_opt) rhos[0] = (uint32_t)rho_opt;
        int rlo = r >= 0 ? r : 0, rhi = r >= 0 ? r : max_level(f, (uint64_t)max_cells);
        if (r < 0 && rmax >= 0 && rmax < rhi) rhi = rmax;
        for (int lv = rlo; lv <= rhi; lv++) {
            /* any rho valid at this level? */
            int any = 0;
            fractal_launch L;
            for (int q = 0; q < nr; q++) any |= !fractal_launch_init(&L, f, lv, rhos[q], FRACTAL_MAP_BB, err, sizeof err);
            if (!any) continue;
            fractal_problem p;
            fractal_problem_init(&p, f, lv, 1u << test_id, (uint64_t)c.seed, stream);
            double best_ms[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
            uint32_t best_rho[4] = {0, 0, 0, 0};
            for (int q = 0; q < nr; q++) {
                fractal_launch Lb, Ll;
                if (fractal_launch_init(&Lb, f, lv, rhos[q], FRACTAL_MAP_BB, err, sizeof err)) continue;
                if (fractal_launch_init(&Ll, f, lv, rhos[q], FRACTAL_MAP_LAMBDA, err, sizeof err)) continue;
                double bb_ms = NAN;
                fprintf(stderr, "%-19s %s r=%2d n=%-8u rho=%2u:", f->name, test, lv, Lb.n, rhos[q]);
                for (int mi = 0; mi < nmaps; mi++) {
                    char label[200];
                    snprintf(label, sizeof label, "%s r=%d rho=%u map=%s test=%s", f->name, lv, rhos[q], maps[mi].name, test);
                    bench_stats st;
                    int bad;
                    const fractal_launch *Lm = maps[mi].kind == 0 ? &Lb : &Ll;
                    if (maps[mi].kind == 0) bad = measure(bb_map::make(Lb), &p, test_id, &c, label, &st);
                    else if (maps[mi].kind == 1) bad = measure(lambda_map_t::make(Ll), &p, test_id, &c, label, &st);
                    else if (maps[mi].kind == 2) bad = measure(lambda_thread_map::make(Ll), &p, test_id, &c, label, &st);
                    else bad = measure(lambda_par_map::make(Ll), &p, test_id, &c, label, &st);
                    if (bad) {
                        datfile_discard(&d);
                        datfile_discard(&db);
                        fprintf(stderr, "\nverification failed: no data file written\n");
                        return 1;
                    }
                    if (maps[mi].kind == 0) bb_ms = st.median;
                    if (st.median < best_ms[mi]) {
                        best_ms[mi] = st.median;
                        best_rho[mi] = rhos[q];
                    }
                    if (bench_warn_spread(label, st))
                        datfile_meta(&d, "warning", "spread %.0f%% for %s", 100 * bench_spread(st), label);
                    double sp = bb_ms / st.median;
                    char spbuf[32];
                    if (isnan(sp)) snprintf(spbuf, sizeof spbuf, "NaN");
                    else snprintf(spbuf, sizeof spbuf, "%.4f", sp);
                    datfile_row(&d, "%s %d %d %d %u %u %d %s %.6f %.6f %.6f %s %llu %llu %llu %d", f->name, f->k, f->s, lv, Lb.n,
                                rhos[q], Lb.rb, maps[mi].name, st.median, st.min, st.max, spbuf, (unsigned long long)fractal_launch_threads(Lm),
                                (unsigned long long)Lm->gx * Lm->gy, (unsigned long long)p.members, st.batch);
                    fprintf(stderr, "  %s %.4f ms", maps[mi].name, st.median);
                    if (!isnan(sp) && maps[mi].kind) fprintf(stderr, " (x%.1f)", sp);
                }
                fputc('\n', stderr);
            }
            int bb_i = -1;
            for (int mi = 0; mi < nmaps; mi++)
                if (maps[mi].kind == 0) bb_i = mi;
            for (int mi = 0; mi < nmaps; mi++) {
                if (!best_rho[mi]) continue;
                double bbm = bb_i >= 0 ? best_ms[bb_i] : NAN;
                char spbuf[32];
                if (isnan(bbm)) snprintf(spbuf, sizeof spbuf, "NaN");
                else snprintf(spbuf, sizeof spbuf, "%.4f", bbm / best_ms[mi]);
                datfile_row(&db, "%s %d %d %d %u %s %u %.6f %u %.6f %s", f->name, f->k, f->s, lv, p.n, maps[mi].name,
                            best_rho[mi], best_ms[mi], bb_i >= 0 ? best_rho[bb_i] : 0u, isnan(bbm) ? 0.0 : bbm, spbuf);
            }
            fractal_problem_free(&p);
        }
    }
    datfile_commit(&d);
    datfile_commit(&db);
    CHECK_CUDA(cudaStreamDestroy(stream));
    return 0;
}
