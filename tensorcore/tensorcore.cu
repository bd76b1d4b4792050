/* tensorcore.cu -- lambda(omega) with tensor cores vs the classic lambda (Quezada, "Acelerando
 * ecuaciones de mapeo de hilos de GPU para fractales 2D empotrados utilizando Tensor Cores",
 * sections 5 and 6, Fig. 10), on the embedded Sierpinski triangle.
 *
 * For each test (sw, rd, ca: fractals/kernels.cuh), level r and block side rho in {8, 16, 32}:
 *   1. every map's per-thread cells are compared with the classic lambda for every thread of
 *      every block of its launch (k_tc_check; tensor-core maps only: the classic maps are
 *      the reference), and every map's test kernel is checked against the CPU
 *      (fractals/driver.cuh: coverage + sw output, rd sum, ca steps).  Any mismatch: message,
 *      exit 1, the data file is discarded;
 *   2. each map is timed (bench.h); speedup_x = T(lambda) / T(map) as in Fig. 10, with
 *      lambda = fractals' lambda (once per block, shared memory); speedup_thread_x uses
 *      lambda-thread (every thread evaluates eqs. 1-6) instead.
 * Maps: lambda, lambda-thread (fractals/), v1, v2, v3 (paper, WMMA), mma (ours, mma.sync on
 * registers per warp), redux (control without tensor cores), table (lambda looked up: the
 * kernel without the map's arithmetic, for the map-cost measurement).
 * --fractal=NAME runs v1's encoding (v1, mma, mma-warp; controls redux, redux-warp, table)
 * on another NBB fractal of Table 1 (the thesis: the encodings apply to every NBB fractal)
 * at rho = 9, 27 (s = 3) or 4, 16 (s = 4) and the levels whose powers of s are exact halves.
 * Output: <out>/tensorcore_fig10_<test>.dat (Sierpinski), tensorcore_nbb_<fractal>_<test>.dat. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../fractals/driver.cuh"
#include "kernels.cuh"

enum { M_LAMBDA, M_LAMBDA_THREAD, M_V1, M_V2, M_V3, M_MMA, M_V2_MMA, M_MMA_WARP, M_V2_LAMBDA, M_REDUX, M_REDUX_WARP, M_TABLE, M_COUNT };
static const char *const MAP_NAMES[M_COUNT] = {"lambda", "lambda-thread", "v1", "v2", "v3", "mma", "v2-mma", "mma-warp", "v2-lambda", "redux", "redux-warp", "table"};

/* Per-thread comparison with the classic lambda over the whole launch (k_tc_check). */
template <class Map>
static unsigned long long tc_check_map(const Map &m, const fractal_problem *p, const char *label)
{
    unsigned long long h[3];
    tc_check_stats(m, p->stream, h);
    unsigned long long bad = h[0] + (h[1] != p->members);
    if (h[0])
        fprintf(stderr, "error: %s: %llu threads differ from the classic lambda (first bad block %llu = (%llu, %llu))\n",
                label, h[0], h[2], h[2] % m.grid.x, h[2] / m.grid.x);
    if (h[1] != p->members) fprintf(stderr, "error: %s: %llu cells mapped, the fractal has %llu\n", label, h[1], (unsigned long long)p->members);
    return bad;
}

/* Largest level of a test: --rmax, else the largest whose n x n byte array has at most 2^32
 * (sw) / 2^30 (rd, ca) cells, as the paper's Fig. 10 (Sierpinski: 16 / 15); 4 less with
 * --quick (Sierpinski; 2 less for s = 3, 4). */
static int tc_rtop(const nbb_fractal *f, int test, int rmax, int quick)
{
    if (rmax >= 0) return rmax;
    uint64_t cells = test == FRACTAL_SW ? 1ull << 32 : 1ull << 30;
    int r = 0;
    while (fractal_pow((uint64_t)f->s * f->s, r + 1) <= cells) r++;
    return r - (quick ? (f->s == 2 ? 4 : 2) : 0);
}

/* Block sides of the sweep: 8 16 32 (s = 2, the paper's); the powers of s nearest them for
 * s = 3 (9 27) and s = 4 (4 16). */
static int tc_rhos(int s, uint32_t *rho)
{
    if (s == 2) { rho[0] = 8; rho[1] = 16; rho[2] = 32; return 3; }
    if (s == 3) { rho[0] = 9; rho[1] = 27; return 2; }
    rho[0] = 4; rho[1] = 16; return 2;
}

/* Maps that need s = 2: v2's sub-blocks halve the block side, v3 tiles 32 x 32 blocks. */
static int tc_map_needs_s2(int m)
{
    return m == M_V2 || m == M_V3 || m == M_V2_MMA || m == M_V2_LAMBDA;
}

/* Do the map's warp-wide instructions see whole warps in blocks of rho x rho threads
 * (maps.cuh, tc_warp0_whole ...)?  On an H100 exactly the launches this refuses gave wrong
 * cells (candy at rho = 4: v1, mma; every s = 3 fractal: mma-warp), while the host model of
 * the same fragments is exact for every fractal (tests/host/test_tensorcore_mma.c).  For
 * s = 2 (rho = 8, 16, 32) every map fits. */
static int tc_map_fits_warps(int m, uint32_t rho, int rb)
{
    switch (m) {
    case M_V1: case M_MMA: return tc_warp0_whole(rho);
    case M_MMA_WARP: return tc_warps_whole(rho);
    case M_REDUX: return tc_lanes_first_warp(rho) >= (uint32_t)rb;
    case M_REDUX_WARP: return tc_lanes_last_warp(rho) >= (uint32_t)rb;
    default: return 1; /* the classic maps, table; the s = 2 maps (blocks of 64 to 1024 threads) */
    }
}

/* Can (f, r, rho) run v1's encoding exactly (half powers, fast digits)? */
static int tc_level_ok(const nbb_fractal *f, int r, uint32_t rho)
{
    int rl = fractal_level_of(f->s, rho);
    if (rl < 0 || fractal_pow((uint64_t)f->s, r) < rho) return 0;
    int rb = r - rl;
    if (!tc_level_supported(f, rb, 1) || !tc_mma_level_ok((uint32_t)f->k, rb)) return 0;
    return f->s != 2 || (tc_level_supported(f, rb + 1, 1) && tc_level_supported(f, rb, (int)rho));
}

typedef struct {
    bench_stats st;
    unsigned long long threads, extra;
} map_result;

/* Check (classic-lambda comparison for tensor-core maps, then the test kernel vs the CPU),
 * then time.  Exit 1 on a mismatch (after discarding the data file). */
template <bool compare_lambda, class Map>
static map_result tc_run_map(const Map &m, fractal_problem *p, int test, const common_opts *c, const char *label,
                             datfile *d)
{
    unsigned long long bad = 0;
    if constexpr (compare_lambda) bad = tc_check_map(m, p, label);
    if (!bad) bad = fractal_check(m, p, test, label);
    if (bad) {
        datfile_discard(d);
        DIE("%s: verification failed (%llu wrong); no data written", label, bad);
    }
    map_result r;
    r.st = fractal_time(m, p, test, c);
    r.threads = (unsigned long long)m.grid.x * m.grid.y * m.block.x * m.block.y;
    r.extra = 0;
    return r;
}

static map_result tc_run(int map, const tc_config *cf, fractal_problem *p, int test, const common_opts *c,
                         const char *label, datfile *d)
{
    switch (map) {
    case M_LAMBDA: return tc_run_map<false>(lambda_map_t::make(cf->L), p, test, c, label, d);
    case M_LAMBDA_THREAD: return tc_run_map<false>(lambda_thread_map::make(cf->L), p, test, c, label, d);
    case M_V1: return tc_run_map<true>(tc_v1_map::make(cf->L, cf->A1), p, test, c, label, d);
    case M_V2: {
        tc_v2_map m = tc_v2_map::make(cf->Lsub, cf->A2);
        map_result r = tc_run_map<true>(m, p, test, c, label, d);
        r.extra = m.extra_threads();
        return r;
    }
    case M_V3: return tc_run_map<true>(tc_v3_map::make(cf->L, cf->A3, cf->C3), p, test, c, label, d);
    case M_MMA: return tc_run_map<true>(tc_mma_map<false>::make(cf->L), p, test, c, label, d);
    case M_V2_MMA: {
        tc_v2r_map<false> m = tc_v2r_map<false>::make(cf->Lsub);
        map_result r = tc_run_map<true>(m, p, test, c, label, d);
        r.extra = m.extra_threads();
        return r;
    }
    case M_V2_LAMBDA: {
        tc_v2r_map<true> m = tc_v2r_map<true>::make(cf->Lsub);
        map_result r = tc_run_map<true>(m, p, test, c, label, d);
        r.extra = m.extra_threads();
        return r;
    }
    case M_MMA_WARP: return tc_run_map<true>(tc_mma_map<true>::make(cf->L), p, test, c, label, d);
    case M_REDUX: return tc_run_map<true>(tc_redux_map<false>::make(cf->L), p, test, c, label, d);
    case M_REDUX_WARP: return tc_run_map<true>(tc_redux_map<true>::make(cf->L), p, test, c, label, d);
    default: return tc_run_map<true>(tc_table_map::make(cf->L, cf->tab), p, test, c, label, d);
    }
}

int main(int argc, char **argv)
{
    common_opts c = common_opts_default();
    const char *test_opt = "all", *map_opt = "all", *rho_opt = "all", *fractal_opt = "sierpinski-triangle";
    int rmin = 0, rmax = -1;
    char names[512];
    fractal_names(names, sizeof names);
    arg_opt opts[] = {
        COMMON_ARGS(c),
        {"test", ARG_CHOICE, &test_opt, "test kernel(s) of section 6", 0, 0, "all sw rd ca"},
        {"map", ARG_CHOICE, &map_opt,
         "map(s) timed besides the baselines lambda, lambda-thread: v1 v2 v3 = paper section 5; "
         "mma, mma-warp, v2-mma = ours (mma.sync on registers: v1's encoding per block / per warp, v2's); "
         "controls without tensor cores: v2-lambda (v2's sub-blocks, classic lambda), redux, redux-warp; "
         "table = lambda looked up (map cost)",
         0, 0, "all lambda v1 v2 v3 mma v2-mma mma-warp v2-lambda redux redux-warp table"},
        {"rho", ARG_CHOICE, &rho_opt, "block side(s) rho (a power of the fractal's s)", 0, 0, "all 4 8 9 16 27 32"},
        {"fractal", ARG_CHOICE, &fractal_opt,
         "NBB fractal (Fig. 10: sierpinski-triangle; s = 3, 4: v1's encoding only, no v2/v3, "
         "levels whose powers of s are exact halves; file tensorcore_nbb_<fractal>_<test>.dat)", 0, 0, names},
        {"rmin", ARG_INT, &rmin, "smallest level r (levels with n < rho are skipped)", 0, 16, NULL},
        {"rmax", ARG_INT, &rmax, "largest level r (-1: 16 for sw, 15 for rd/ca; --quick 12/11)", -1, 16, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "tensorcore [options]",
               "Fig. 10 of Quezada: speedup of the tensor-core maps lambda_tc v1, v2, v3 (and ours: mma) over the\n"
               "classic lambda on the embedded Sierpinski triangle, tests sw, rd, ca, rho = 8, 16, 32.\n"
               "Every map is verified against the classic lambda for every block before it is timed.");
    common_opts_finish(&c);
    if (rmax >= 0 && rmax < rmin) DIE_USAGE("--rmax=%d is below --rmin=%d", rmax, rmin);

    const nbb_fractal *f = fractal_by_name(fractal_opt); /* the paper's case: sierpinski-triangle (section 5) */
    const int fig10 = !strcmp(f->name, "sierpinski-triangle");
    uint32_t rhos[3];
    int nrho = tc_rhos(f->s, rhos);
    if (strcmp(rho_opt, "all")) {
        if (fractal_level_of(f->s, (uint64_t)atoi(rho_opt)) < 0)
            DIE_USAGE("rho=%s is not a power of s=%d (%s)", rho_opt, f->s, f->name);
        rhos[0] = (uint32_t)atoi(rho_opt);
        nrho = 1;
    }
    for (int m = 0; m < M_COUNT; m++) {
        if (strcmp(map_opt, MAP_NAMES[m])) continue;
        if (f->s != 2 && tc_map_needs_s2(m))
            DIE_USAGE("--map=%s needs s = 2 (v2 halves the block side, v3 tiles 32 x 32 blocks); %s has s=%d",
                      map_opt, f->name, f->s);
        int fits = 0;
        for (int q = 0; q < nrho; q++) fits |= tc_map_fits_warps(m, rhos[q], 0);
        if (!fits)
            DIE_USAGE("--map=%s needs whole warps (WMMA, mma.sync) and no block side of the sweep gives them: "
                      "rho = %u%s leaves a partial warp (%s has s=%d)", map_opt, rhos[0], nrho > 1 ? " and the others" : "",
                      f->name, f->s);
    }
    /* every selected test must have at least one (r, rho) the maps can run exactly in
     * rmin..rtop: otherwise its data file would hold a header and no row (refused here) */
    for (int test = FRACTAL_SW; test <= FRACTAL_CA; test++) {
        if (strcmp(test_opt, "all") && strcmp(test_opt, fractal_test_name(test))) continue;
        int rtop = tc_rtop(f, test, rmax, c.quick), any = 0;
        for (int r = rmin; r <= rtop; r++)
            for (int q = 0; q < nrho; q++) any |= tc_level_ok(f, r, rhos[q]);
        if (!any)
            DIE_USAGE("test %s: no level r in %d..%d with n >= rho that the fragments hold exactly (adjust "
                      "--rmin/--rmax/--rho)", fractal_test_name(test), rmin, rtop);
    }
    device_require(c.device, 8, 0); /* mma.sync m16n8k16 and __reduce_add_sync: sm_80+ */
    char gpu[256];
    device_describe(c.device, gpu, sizeof gpu);
    /* the largest level of each selected test must fit in device memory: refused here (exit 2)
     * rather than from fractal_problem_init with a data file half written */
    {
        size_t free_b = 0, total_b = 0;
        CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
        for (int test = FRACTAL_SW; test <= FRACTAL_CA; test++) {
            if (strcmp(test_opt, "all") && strcmp(test_opt, fractal_test_name(test))) continue;
            int rtop = tc_rtop(f, test, rmax, c.quick);
            uint64_t need = fractal_problem_bytes(f, rtop, 1u << test);
            if (need > free_b)
                DIE_USAGE("test %s at r=%d needs %.2f GiB of device memory, only %.2f GiB free (lower --rmax)",
                          fractal_test_name(test), rtop, need / 1073741824.0, free_b / 1073741824.0);
        }
    }
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));

    int nmaps = 0, maps[M_COUNT];
    maps[nmaps++] = M_LAMBDA;
    maps[nmaps++] = M_LAMBDA_THREAD;
    for (int m = M_V1; m < M_COUNT; m++)
        if ((!strcmp(map_opt, "all") || !strcmp(map_opt, MAP_NAMES[m])) && (f->s == 2 || !tc_map_needs_s2(m))) maps[nmaps++] = m;

    for (int test = FRACTAL_SW; test <= FRACTAL_CA; test++) {
        if (strcmp(test_opt, "all") && strcmp(test_opt, fractal_test_name(test))) continue;
        int rtop = tc_rtop(f, test, rmax, c.quick);
        char name[96], fig[200];
        if (fig10) snprintf(name, sizeof name, "tensorcore_fig10_%s.dat", fractal_test_name(test));
        else snprintf(name, sizeof name, "tensorcore_nbb_%s_%s.dat", f->name, fractal_test_name(test));
        snprintf(fig, sizeof fig, "Fig. 10 (%s), Quezada, lambda_tc with tensor cores%s", fractal_test_name(test),
                 fig10 ? "" : " (another NBB fractal: v1's encoding)");
        dat_meta meta = dat_meta_of("tensorcore", fig, argc, argv, gpu, &c);
        datfile d;
        datfile_open(&d, c.out, name, &meta);
        datfile_meta(&d, "fractal", "%s (k=%d, s=%d)", f->name, f->k, f->s);
        datfile_meta(&d, "columns", "median/min/max_ms per launch; speedup_x = lambda median / this map's median "
                                    "(Fig. 10); speedup_thread_x = lambda-thread median / this map's; threads launched; "
                                    "extra_threads = v2 threads without a sub-block (section 5.2)");
        datfile_columns(&d, "fractal r n rho rb map median_ms min_ms max_ms speedup_x speedup_thread_x threads "
                            "extra_threads batch");
        for (int r = rmin; r <= rtop; r++) {
            fractal_problem p;
            fractal_problem_init(&p, f, r, 1u << test, (uint64_t)c.seed, stream);
            for (int q = 0; q < nrho; q++) {
                uint32_t rho = rhos[q];
                if (!tc_level_ok(f, r, rho)) continue; /* n < rho (no lambda launch), or not exact in half */
                tc_config cf;
                tc_config_init(&cf, f, r, rho);
                map_result res[M_COUNT];
                int ran[M_COUNT];
                for (int i = 0; i < nmaps; i++) {
                    char label[160];
                    ran[i] = tc_map_fits_warps(maps[i], rho, cf.L.rb);
                    if (!ran[i]) continue; /* a partial warp: skipped, no row (README) */
                    snprintf(label, sizeof label, "%s r=%d rho=%u map=%s", fractal_test_name(test), r, rho,
                             MAP_NAMES[maps[i]]);
                    res[i] = tc_run(maps[i], &cf, &p, test, &c, label, &d);
                    if (bench_warn_spread(label, res[i].st))
                        datfile_meta(&d, "warning", "spread %.0f%% for %s", 100 * bench_spread(res[i].st), label);
                }
                fprintf(stderr, "%s r=%2d rho=%2u  lambda %.4f ms |", fractal_test_name(test), r, rho, res[0].st.median);
                for (int i = 0; i < nmaps; i++) {
                    if (!ran[i]) continue;
                    const bench_stats s = res[i].st;
                    double sp = res[0].st.median / s.median, spt = res[1].st.median / s.median;
                    datfile_row(&d, "%s %d %u %u %d %s %.6f %.6f %.6f %.4f %.4f %llu %llu %d", f->name, r, cf.L.n, rho,
                                cf.L.rb, MAP_NAMES[maps[i]], s.median, s.min, s.max, sp, spt, res[i].threads,
                                res[i].extra, s.batch);
                    if (i) fprintf(stderr, " %s %.2fx", MAP_NAMES[maps[i]], sp);
                }
                fputc('\n', stderr);
                tc_config_free(&cf);
            }
            fractal_problem_free(&p);
        }
        datfile_commit(&d);
    }
    CHECK_CUDA(cudaStreamDestroy(stream));
    return 0;
}
