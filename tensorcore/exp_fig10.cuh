/* tensorcore/exp_fig10.cuh -- the Fig. 10 sweep (section 6): every tensor-core map of section 5
 * and ours against fractals' classic lambda, running the work kernels sw, rd, ca of fractals/.
 *
 * For each work kernel, level r and block side rho, every map is verified, then timed
 * (fractals/driver.cuh: fractal_measure, i.e. common/runcase.h): a tensor-core map's cells are
 * first compared with the classic lambda for every thread of every block of its launch
 * (k_tc_check; the classic maps are the reference), then its work kernel with the CPU
 * (coverage + sw output, rd sum, ca steps).  Any mismatch: message, exit 1, no data file.
 * speedup_x = T(lambda) / T(map) as in Fig. 10, lambda = fractals' lambda (once per block,
 * shared memory); speedup_thread_x uses lambda-thread (every thread evaluates eqs. 1-6). */
#ifndef TENSORCORE_EXP_FIG10_CUH
#define TENSORCORE_EXP_FIG10_CUH

enum { M_LAMBDA, M_LAMBDA_THREAD, M_V1, M_V2, M_V3, M_MMA, M_V2_MMA, M_MMA_WARP, M_V2_LAMBDA, M_REDUX, M_REDUX_WARP, M_TABLE, M_COUNT };
static const char *const MAP_NAMES[M_COUNT] = {"lambda", "lambda-thread", "v1", "v2", "v3", "mma", "v2-mma", "mma-warp", "v2-lambda", "redux", "redux-warp", "table"};

/* Per-thread comparison with the classic lambda over the whole launch (k_tc_check): the
 * map_check of a tensor-core map's case. */
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

/* Largest level of a work kernel: --rmax, else the largest whose n x n byte array has at
 * most 2^32 (sw) / 2^30 (rd, ca) cells, as the paper's Fig. 10 (Sierpinski: 16 / 15); 4 less
 * with --quick (Sierpinski; 2 less for s = 3, 4). */
static int tc_rtop(const nbb_fractal *f, int work, int rmax, int quick)
{
    if (rmax >= 0) return rmax;
    uint64_t cells = work == FRACTAL_SW ? 1ull << 32 : 1ull << 30;
    int r = 0;
    while (fractal_pow((uint64_t)f->s * f->s, r + 1) <= cells) r++;
    return r - (quick ? (f->s == 2 ? 4 : 2) : 0);
}

/* Block sides of the sweep: --rho, else 8 16 32 (s = 2, the paper's) and the powers of s
 * nearest them for s = 3 (9 27) and s = 4 (4 16). */
static int tc_rhos(const tc_opts *o, const nbb_fractal *f, uint32_t *rho)
{
    if (strcmp(o->rho, "all")) {
        if (fractal_level_of(f->s, (uint64_t)atoi(o->rho)) < 0) DIE_USAGE("rho=%s is not a power of s=%d (%s)", o->rho, f->s, f->name);
        rho[0] = (uint32_t)atoi(o->rho);
        return 1;
    }
    if (f->s == 2) { rho[0] = 8; rho[1] = 16; rho[2] = 32; return 3; }
    if (f->s == 3) { rho[0] = 9; rho[1] = 27; return 2; }
    rho[0] = 4; rho[1] = 16; return 2;
}

/* Maps that need s = 2: v2's sub-blocks halve the block side, v3 tiles 32 x 32 blocks. */
static int tc_map_needs_s2(int m) { return m == M_V2 || m == M_V3 || m == M_V2_MMA || m == M_V2_LAMBDA; }

/* Do the map's warp-wide instructions see whole warps in blocks of rho x rho threads
 * (mma.h, tc_warp0_whole ...)?  On an H100 exactly the launches this refuses gave wrong
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

static int tc_work_selected(const tc_opts *o, int work) { return !strcmp(o->work, "all") || !strcmp(o->work, fractal_work_name(work)); }

/* Everything a bad option can break, refused (exit 2) before the GPU is touched: the map
 * on this fractal, and a level in rmin..rtop for each selected work kernel (otherwise its
 * data file would hold a header and no row). */
static void tc_validate(const tc_opts *o, const nbb_fractal *f, const uint32_t *rhos, int nrho)
{
    if (o->rmax >= 0 && o->rmax < o->rmin) DIE_USAGE("--rmax=%d is below --rmin=%d", o->rmax, o->rmin);
    for (int m = 0; m < M_COUNT; m++) {
        if (strcmp(o->map, MAP_NAMES[m])) continue;
        if (f->s != 2 && tc_map_needs_s2(m))
            DIE_USAGE("--map=%s needs s = 2 (v2 halves the block side, v3 tiles 32 x 32 blocks); %s has s=%d", o->map, f->name, f->s);
        int fits = 0;
        for (int q = 0; q < nrho; q++) fits |= tc_map_fits_warps(m, rhos[q], 0);
        if (!fits)
            DIE_USAGE("--map=%s needs whole warps (WMMA, mma.sync) and no block side of the sweep gives them: "
                      "rho = %u%s leaves a partial warp (%s has s=%d)", o->map, rhos[0], nrho > 1 ? " and the others" : "", f->name, f->s);
    }
    for (int work = FRACTAL_SW; work <= FRACTAL_CA; work++) {
        if (!tc_work_selected(o, work)) continue;
        int rtop = tc_rtop(f, work, o->rmax, o->c.quick), any = 0;
        for (int r = o->rmin; r <= rtop; r++)
            for (int q = 0; q < nrho; q++) any |= tc_level_ok(f, r, rhos[q]);
        if (!any)
            DIE_USAGE("work %s: no level r in %d..%d with n >= rho that the fragments hold exactly (adjust "
                      "--rmin/--rmax/--rho)", fractal_work_name(work), o->rmin, rtop);
    }
}

/* The largest level of each selected work kernel must fit in device memory: refused here
 * (exit 2) rather than from fractal_problem_init with a data file half written. */
static void tc_check_memory(const tc_opts *o, const nbb_fractal *f)
{
    size_t free_b = 0, total_b = 0;
    CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
    for (int work = FRACTAL_SW; work <= FRACTAL_CA; work++) {
        if (!tc_work_selected(o, work)) continue;
        int rtop = tc_rtop(f, work, o->rmax, o->c.quick);
        uint64_t need = fractal_problem_bytes(f, rtop, 1u << work);
        if (need > free_b)
            DIE_USAGE("work %s at r=%d needs %.2f GiB of device memory, only %.2f GiB free (lower --rmax)", fractal_work_name(work),
                      rtop, need / 1073741824.0, free_b / 1073741824.0);
    }
}

typedef struct {
    bench_stats st;
    unsigned long long threads, extra;
} map_result;

/* One map, verified (tensor-core maps: every thread against the classic lambda first) and
 * timed.  extra = v2's threads without a sub-block (section 5.2). */
template <bool TENSOR_CORE, class Map>
static map_result tc_measure_map(const Map &m, fractal_problem *p, int work, const common_opts *c, const char *label, datfile *d,
                                 unsigned long long extra = 0)
{
    unsigned long long (*map_check)(const Map &, const fractal_problem *, const char *) = NULL;
    if constexpr (TENSOR_CORE) map_check = tc_check_map<Map>;
    map_result r;
    r.st = fractal_measure(m, p, work, label, c, d, map_check);
    r.threads = (unsigned long long)m.grid.x * m.grid.y * m.block.x * m.block.y;
    r.extra = extra;
    return r;
}

static map_result tc_measure(int map, const tc_config *cf, fractal_problem *p, int work, const common_opts *c, const char *label,
                             datfile *d)
{
    switch (map) {
    case M_LAMBDA: return tc_measure_map<false>(lambda_map_t::make(cf->L), p, work, c, label, d);
    case M_LAMBDA_THREAD: return tc_measure_map<false>(lambda_thread_map::make(cf->L), p, work, c, label, d);
    case M_V1: return tc_measure_map<true>(tc_v1_map::make(cf->L, cf->A1), p, work, c, label, d);
    case M_V2: {
        tc_v2_map m = tc_v2_map::make(cf->Lsub, cf->A2);
        return tc_measure_map<true>(m, p, work, c, label, d, m.extra_threads());
    }
    case M_V3: return tc_measure_map<true>(tc_v3_map::make(cf->L, cf->A3, cf->C3), p, work, c, label, d);
    case M_MMA: return tc_measure_map<true>(tc_mma_map<false>::make(cf->L), p, work, c, label, d);
    case M_V2_MMA: {
        tc_v2r_map<false> m = tc_v2r_map<false>::make(cf->Lsub);
        return tc_measure_map<true>(m, p, work, c, label, d, m.extra_threads());
    }
    case M_V2_LAMBDA: {
        tc_v2r_map<true> m = tc_v2r_map<true>::make(cf->Lsub);
        return tc_measure_map<true>(m, p, work, c, label, d, m.extra_threads());
    }
    case M_MMA_WARP: return tc_measure_map<true>(tc_mma_map<true>::make(cf->L), p, work, c, label, d);
    case M_REDUX: return tc_measure_map<true>(tc_redux_map<false>::make(cf->L), p, work, c, label, d);
    case M_REDUX_WARP: return tc_measure_map<true>(tc_redux_map<true>::make(cf->L), p, work, c, label, d);
    default: return tc_measure_map<true>(tc_table_map::make(cf->L, cf->tab), p, work, c, label, d);
    }
}

/* The data file of one work kernel: tensorcore_fig10_<work>.dat (Sierpinski) or
 * tensorcore_nbb_<fractal>_<work>.dat. */
static void tc_open(const tc_opts *o, const nbb_fractal *f, int fig10, int work, const char *gpu, datfile *d)
{
    char name[96], fig[200];
    const char *w = fractal_work_name(work);
    if (fig10) snprintf(name, sizeof name, "tensorcore_fig10_%s.dat", w);
    else snprintf(name, sizeof name, "tensorcore_nbb_%s_%s.dat", f->name, w);
    snprintf(fig, sizeof fig, "Fig. 10 (%s), Quezada, lambda_tc with tensor cores%s", w, fig10 ? "" : " (another NBB fractal: v1's encoding)");
    dat_meta meta = dat_meta_of("tensorcore", fig, o->argc, o->argv, gpu, &o->c);
    datfile_open(d, o->c.out, name, &meta);
    datfile_meta(d, "fractal", "%s (k=%d, s=%d)", f->name, f->k, f->s);
    datfile_meta(d, "columns", "median/min/max_ms per launch; speedup_x = lambda median / this map's median "
                               "(Fig. 10); speedup_thread_x = lambda-thread median / this map's; threads launched; "
                               "extra_threads = v2 threads without a sub-block (section 5.2)");
    datfile_columns(d, "fractal r n rho rb map median_ms min_ms max_ms speedup_x speedup_thread_x threads extra_threads batch");
}

/* One (work, level, rho): every map that fits its warps, then one row each (maps[0] and
 * maps[1] are lambda and lambda-thread, the baselines of speedup_x, speedup_thread_x). */
static void tc_rho(const tc_opts *o, fractal_problem *p, int work, uint32_t rho, const int *maps, int nmaps, datfile *d)
{
    tc_config cf;
    tc_config_init(&cf, &p->f, p->r, rho);
    map_result res[M_COUNT];
    int ran[M_COUNT];
    for (int i = 0; i < nmaps; i++) {
        char label[160];
        ran[i] = tc_map_fits_warps(maps[i], rho, cf.L.rb);
        if (!ran[i]) continue; /* a partial warp: skipped, no row (README) */
        snprintf(label, sizeof label, "%s r=%d rho=%u map=%s", fractal_work_name(work), p->r, rho, MAP_NAMES[maps[i]]);
        res[i] = tc_measure(maps[i], &cf, p, work, &o->c, label, d);
    }
    fprintf(stderr, "%s r=%2d rho=%2u  lambda %.4f ms |", fractal_work_name(work), p->r, rho, res[0].st.median);
    for (int i = 0; i < nmaps; i++) {
        if (!ran[i]) continue;
        const bench_stats s = res[i].st;
        double sp = res[0].st.median / s.median, spt = res[1].st.median / s.median;
        datfile_row(d, "%s %d %u %u %d %s %.6f %.6f %.6f %.4f %.4f %llu %llu %d", p->f.name, p->r, cf.L.n, rho, cf.L.rb,
                    MAP_NAMES[maps[i]], s.median, s.min, s.max, sp, spt, res[i].threads, res[i].extra, s.batch);
        if (i) fprintf(stderr, " %s %.2fx", MAP_NAMES[maps[i]], sp);
    }
    fputc('\n', stderr);
    tc_config_free(&cf);
}

/* The sweep of fig10 and nbb: validate, then each selected work kernel, level and rho. */
static int tc_sweep(const tc_opts *o, const nbb_fractal *f, int fig10)
{
    uint32_t rhos[3];
    int nrho = tc_rhos(o, f, rhos);
    tc_validate(o, f, rhos, nrho);
    device_require(o->c.device, 8, 0); /* mma.sync m16n8k16 and __reduce_add_sync: sm_80+ */
    char gpu[256];
    device_describe(o->c.device, gpu, sizeof gpu);
    tc_check_memory(o, f);
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    int nmaps = 0, maps[M_COUNT];
    maps[nmaps++] = M_LAMBDA;
    maps[nmaps++] = M_LAMBDA_THREAD;
    for (int m = M_V1; m < M_COUNT; m++)
        if ((!strcmp(o->map, "all") || !strcmp(o->map, MAP_NAMES[m])) && (f->s == 2 || !tc_map_needs_s2(m))) maps[nmaps++] = m;
    for (int work = FRACTAL_SW; work <= FRACTAL_CA; work++) {
        if (!tc_work_selected(o, work)) continue;
        datfile d;
        tc_open(o, f, fig10, work, gpu, &d);
        int rtop = tc_rtop(f, work, o->rmax, o->c.quick);
        for (int r = o->rmin; r <= rtop; r++) {
            fractal_problem p;
            fractal_problem_init(&p, f, r, 1u << work, (uint64_t)o->c.seed, stream);
            for (int q = 0; q < nrho; q++)
                if (tc_level_ok(f, r, rhos[q])) tc_rho(o, &p, work, rhos[q], maps, nmaps, &d); /* else n < rho, or not exact in half */
            fractal_problem_free(&p);
        }
        datfile_commit(&d);
    }
    CHECK_CUDA(cudaStreamDestroy(stream));
    return 0;
}

/* Fig. 10: the Sierpinski triangle (section 5 writes lambda_tc for it), rho = 8, 16, 32. */
static int exp_fig10(void *opts)
{
    const tc_opts *o = (const tc_opts *)opts;
    const nbb_fractal *f = fractal_by_name(o->fractal);
    if (strcmp(f->name, "sierpinski-triangle"))
        DIE_USAGE("--exp=fig10 is the Sierpinski triangle; %s: --exp=nbb --fractal=%s", f->name, f->name);
    return tc_sweep(o, f, 1);
}

/* v1's encoding on another NBB fractal of Table 1 (the thesis: the encodings apply to every
 * NBB fractal): v1, mma, mma-warp and the controls redux, redux-warp, table, at rho = 9, 27
 * (s = 3) or 4, 16 (s = 4) and the levels whose powers of s are exact halves. */
static int exp_nbb(void *opts)
{
    const tc_opts *o = (const tc_opts *)opts;
    const nbb_fractal *f = fractal_by_name(o->fractal);
    if (!strcmp(f->name, "sierpinski-triangle"))
        DIE_USAGE("--exp=nbb needs --fractal=NAME of another fractal than Fig. 10's sierpinski-triangle (--exp=fig10)");
    return tc_sweep(o, f, 0);
}

#endif
