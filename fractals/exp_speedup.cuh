/* fractals/exp_speedup.cuh -- the speedup sweep: lambda(omega) (sections 3-4) against the bounding
 * box on every fractal of Table 1, running one work kernel of section 6 (--work=sw|rd|ca).
 *
 * For every fractal, level r and block side rho, each map (bb, bb-skip, bb-block, lambda,
 * lambda-thread, lambda-par) is verified against the CPU / brute-force reference and then
 * timed (driver.cuh: fractal_measure).  -> fractals_speedup_<work>.dat (every rho) and
 * fractals_best_<work>.dat (each map at its fastest rho, per level).  bb-skip and bb-block
 * are ours: the paper's bb with the early exits a user would write (kernels.cuh); bb-skip
 * only where it applies (a fractal in the lower triangle: the Sierpinski triangle). */
#ifndef FRACTALS_EXP_SPEEDUP_CUH
#define FRACTALS_EXP_SPEEDUP_CUH

typedef enum { MAP_BB, MAP_BB_SKIP, MAP_BB_BLOCK, MAP_LAMBDA, MAP_LAMBDA_THREAD, MAP_LAMBDA_PAR, MAP_COUNT } fractals_map;
static const char *const MAP_NAMES[MAP_COUNT] = {"bb", "bb-skip", "bb-block", "lambda", "lambda-thread", "lambda-par"};

/* bb-skip runs only on a fractal in the lower triangle with s = 2 (fractal_bb_skip_applies). */
static int speedup_map_applies(fractals_map m, const nbb_fractal *f)
{
    return m != MAP_BB_SKIP || fractal_bb_skip_applies(f);
}

/* The data files of one sweep: every rho (d) and each map's best rho per level (best). */
typedef struct {
    datfile d, best;
    int work;
    uint64_t max_cells; /* largest n*n of the sweep */
} speedup_files;

/* Levels a sweep covers for f: from the smallest with n >= rho to the largest whose n*n
 * array fits max_cells (and FRACTAL_MAX_N), or --r alone, capped by --rmax. */
static void speedup_levels(const fractals_opts *o, const nbb_fractal *f, uint64_t max_cells, int *rlo, int *rhi)
{
    int top = 0;
    while (1) {
        uint64_t n = fractal_pow((uint64_t)f->s, top + 1);
        if (n > FRACTAL_MAX_N || n * n > max_cells) break;
        top++;
    }
    *rlo = o->r >= 0 ? o->r : 0;
    *rhi = o->r >= 0 ? o->r : top;
    if (o->r < 0 && o->rmax >= 0 && o->rmax < *rhi) *rhi = o->rmax;
}

/* An explicit --r / --rho must give a valid launch (exit 2 before the GPU is touched). */
static void speedup_validate(const fractals_opts *o)
{
    char err[256];
    for (int i = 0; i < FRACTAL_COUNT && (o->r >= 0 || o->rho); i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        if (!fractals_selected(o, f)) continue;
        if (o->rho && fractal_level_of(f->s, (uint64_t)o->rho) < 0)
            DIE_USAGE("rho=%lld is not a power of s=%d (%s)", o->rho, f->s, f->name);
        if (o->r < 0) {
            if (o->rho > FRACTAL_MAX_RHO) DIE_USAGE("rho=%lld: a block of rho x rho threads must have rho <= %d", o->rho, FRACTAL_MAX_RHO);
            continue;
        }
        uint32_t rhos[3];
        fractal_launch L;
        int nr = fractals_rhos(o, f, rhos), ok = 0; /* an explicit rho must be valid; of the default set, one must be */
        for (int q = 0; q < nr; q++)
            if (!fractal_launch_init(&L, f, o->r, rhos[q], FRACTAL_MAP_BB, err, sizeof err) &&
                !fractal_launch_init(&L, f, o->r, rhos[q], FRACTAL_MAP_LAMBDA, err, sizeof err)) ok++;
            else if (o->rho) DIE_USAGE("%s", err);
        if (!ok) DIE_USAGE("%s (no rho of the default set fits r=%d; give --rho)", err, o->r);
        uint64_t n = fractal_pow((uint64_t)f->s, o->r);
        if (n * n > (1ull << 36)) DIE_USAGE("%s at r=%d: n*n = %llu cells is more than 64 GiB", f->name, o->r, (unsigned long long)(n * n));
    }
}

/* The largest level of each fractal must fit in device memory: refused here (exit 2) rather
 * than from fractal_problem_init in the middle of the sweep, with the data files half written. */
static void speedup_check_memory(const fractals_opts *o, int work, uint64_t max_cells)
{
    size_t free_b = 0, total_b = 0;
    CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        int rlo, top;
        if (!fractals_selected(o, f)) continue;
        speedup_levels(o, f, max_cells, &rlo, &top);
        uint64_t need = fractal_problem_bytes(f, top, 1u << work);
        if (need > free_b)
            DIE_USAGE("%s at r=%d needs %.2f GiB of device memory, only %.2f GiB free (lower --max-cells or --rmax)", f->name, top,
                      need / 1073741824.0, free_b / 1073741824.0);
    }
}

static void speedup_open(const fractals_opts *o, const char *gpu, speedup_files *F)
{
    const char *w = fractal_work_name(F->work);
    char fig[200], name[64];
    snprintf(fig, sizeof fig, "speedup of lambda over bb, work %s (Quezada section 6; Navarro et al. FGCS 2020)", w);
    dat_meta meta = dat_meta_of("fractals", fig, o->argc, o->argv, gpu, &o->c);
    snprintf(name, sizeof name, "fractals_speedup_%s.dat", w);
    datfile_open(&F->d, o->c.out, name, &meta);
    datfile_meta(&F->d, "columns", "median_ms/min_ms/max_ms per launch; speedup_x = bb median / this map's median "
                                   "(same fractal, r, rho); threads = launched threads; cells = k^r");
    datfile_meta(&F->d, "maps", "bb-skip: bb whose blocks above the diagonal (bx > by) return first, only for fractals in "
                                "the lower triangle x <= y; bb-block: bb whose blocks that are not a cell of the fractal at "
                                "the block level return first (ours, baselines beside the paper's bb)");
    if (F->work == FRACTAL_CA) datfile_meta(&F->d, "rule", "B3/S23 on the Moore neighbourhood, non-fractal cells always dead");
    datfile_columns(&F->d, "fractal k s r n rho rb map median_ms min_ms max_ms speedup_x threads blocks cells batch");
    snprintf(name, sizeof name, "fractals_best_%s.dat", w);
    datfile_open(&F->best, o->c.out, name, &meta);
    datfile_meta(&F->best, "columns", "for each map its fastest rho (best_rho, median_ms) and bb's fastest (bb_rho, bb_ms); "
                                      "speedup_x = bb_ms / median_ms (best block size against best block size)");
    datfile_columns(&F->best, "fractal k s r n map best_rho median_ms bb_rho bb_ms speedup_x");
}

/* One map at one (level, rho): verified, then timed. */
static bench_stats speedup_measure(fractals_map map, const fractal_launch *Lb, const fractal_launch *Ll, fractal_problem *p,
                                   const fractals_opts *o, speedup_files *F, const char *label)
{
    switch (map) {
    case MAP_BB: return fractal_measure(bb_map::make(*Lb), p, F->work, label, &o->c, &F->d);
    case MAP_BB_SKIP: return fractal_measure(bb_skip_map::make(*Lb), p, F->work, label, &o->c, &F->d);
    case MAP_BB_BLOCK: return fractal_measure(bb_block_map::make(*Lb), p, F->work, label, &o->c, &F->d);
    case MAP_LAMBDA: return fractal_measure(lambda_map_t::make(*Ll), p, F->work, label, &o->c, &F->d);
    case MAP_LAMBDA_THREAD: return fractal_measure(lambda_thread_map::make(*Ll), p, F->work, label, &o->c, &F->d);
    default: return fractal_measure(lambda_par_map::make(*Ll), p, F->work, label, &o->c, &F->d);
    }
}

static void speedup_format(char *buf, size_t size, double x)
{
    if (isnan(x)) snprintf(buf, size, "NaN");
    else snprintf(buf, size, "%.4f", x);
}

/* Every selected map at (f, level p->r, rho): one row each; best_ms / best_rho track each
 * map's fastest rho.  speedup_x needs bb in the selection (else NaN). */
static void speedup_rho(const fractals_opts *o, speedup_files *F, fractal_problem *p, uint32_t rho, const fractals_map *maps,
                        int nmaps, double *best_ms, uint32_t *best_rho)
{
    const nbb_fractal *f = &p->f;
    fractal_launch Lb, Ll;
    char err[256];
    if (fractal_launch_init(&Lb, f, p->r, rho, FRACTAL_MAP_BB, err, sizeof err)) return;
    if (fractal_launch_init(&Ll, f, p->r, rho, FRACTAL_MAP_LAMBDA, err, sizeof err)) return;
    double bb_ms = NAN;
    fprintf(stderr, "%-19s %s r=%2d n=%-8u rho=%2u:", f->name, fractal_work_name(F->work), p->r, Lb.n, rho);
    for (int mi = 0; mi < nmaps; mi++) {
        char label[200], sp[32];
        if (!speedup_map_applies(maps[mi], f)) continue;
        snprintf(label, sizeof label, "%s r=%d rho=%u map=%s work=%s", f->name, p->r, rho, MAP_NAMES[maps[mi]],
                 fractal_work_name(F->work));
        bench_stats st = speedup_measure(maps[mi], &Lb, &Ll, p, o, F, label);
        const fractal_launch *Lm = maps[mi] <= MAP_BB_BLOCK ? &Lb : &Ll; /* the bb kinds: bb's grid */
        if (maps[mi] == MAP_BB) bb_ms = st.median;
        if (st.median < best_ms[mi]) {
            best_ms[mi] = st.median;
            best_rho[mi] = rho;
        }
        speedup_format(sp, sizeof sp, bb_ms / st.median);
        datfile_row(&F->d, "%s %d %d %d %u %u %d %s %.6f %.6f %.6f %s %llu %llu %llu %d", f->name, f->k, f->s, p->r, Lb.n, rho,
                    Lb.rb, MAP_NAMES[maps[mi]], st.median, st.min, st.max, sp, (unsigned long long)fractal_launch_threads(Lm),
                    (unsigned long long)Lm->gx * Lm->gy, (unsigned long long)p->members, st.batch);
        fprintf(stderr, "  %s %.4f ms", MAP_NAMES[maps[mi]], st.median);
        if (!isnan(bb_ms / st.median) && maps[mi] != MAP_BB) fprintf(stderr, " (x%.1f)", bb_ms / st.median);
    }
    fputc('\n', stderr);
}

/* One level of one fractal: every rho, then each map's row at its best rho. */
static void speedup_level(const fractals_opts *o, speedup_files *F, const nbb_fractal *f, int lv, const fractals_map *maps,
                          int nmaps, cudaStream_t stream)
{
    uint32_t rhos[3];
    int nr = fractals_rhos(o, f, rhos), any = 0;
    char err[256];
    fractal_launch L;
    for (int q = 0; q < nr; q++) any |= !fractal_launch_init(&L, f, lv, rhos[q], FRACTAL_MAP_BB, err, sizeof err);
    if (!any) return; /* no rho fits this level (n < rho) */
    fractal_problem p;
    fractal_problem_init(&p, f, lv, 1u << F->work, (uint64_t)o->c.seed, stream);
    double best_ms[MAP_COUNT];
    uint32_t best_rho[MAP_COUNT];
    for (int mi = 0; mi < MAP_COUNT; mi++) best_ms[mi] = INFINITY, best_rho[mi] = 0;
    for (int q = 0; q < nr; q++) speedup_rho(o, F, &p, rhos[q], maps, nmaps, best_ms, best_rho);
    int bb_i = -1;
    for (int mi = 0; mi < nmaps; mi++)
        if (maps[mi] == MAP_BB) bb_i = mi;
    for (int mi = 0; mi < nmaps; mi++) {
        if (!best_rho[mi]) continue;
        double bbm = bb_i >= 0 ? best_ms[bb_i] : NAN;
        char sp[32];
        speedup_format(sp, sizeof sp, bbm / best_ms[mi]);
        datfile_row(&F->best, "%s %d %d %d %u %s %u %.6f %u %.6f %s", f->name, f->k, f->s, lv, p.n, MAP_NAMES[maps[mi]],
                    best_rho[mi], best_ms[mi], bb_i >= 0 ? best_rho[bb_i] : 0u, isnan(bbm) ? 0.0 : bbm, sp);
    }
    fractal_problem_free(&p);
}

/* The experiment: validate, then every selected fractal, level and rho. */
static int exp_speedup(void *opts)
{
    const fractals_opts *o = (const fractals_opts *)opts;
    speedup_files F;
    F.work = !strcmp(o->work, "sw") ? FRACTAL_SW : !strcmp(o->work, "rd") ? FRACTAL_RD : FRACTAL_CA;
    F.max_cells = o->max_cells ? (uint64_t)o->max_cells : (F.work == FRACTAL_SW ? 1ull << 32 : 1ull << 30) >> (o->c.quick ? 8 : 0);
    fractals_map maps[MAP_COUNT] = {MAP_BB, MAP_BB_SKIP, MAP_BB_BLOCK, MAP_LAMBDA, MAP_LAMBDA_THREAD, MAP_LAMBDA_PAR};
    int nmaps = MAP_COUNT;
    if (!strcmp(o->map, "paper")) { /* --map=paper: the paper's maps (bb, lambda, lambda-thread) */
        maps[0] = MAP_BB, maps[1] = MAP_LAMBDA, maps[2] = MAP_LAMBDA_THREAD;
        nmaps = 3;
    }
    for (int m = 0; m < MAP_COUNT && strcmp(o->map, "all") && strcmp(o->map, "paper"); m++)
        if (!strcmp(o->map, MAP_NAMES[m])) { /* --map=NAME: that map alone */
            maps[0] = (fractals_map)m;
            nmaps = 1;
        }
    speedup_validate(o);

    device_require(o->c.device, 8, 0); /* __reduce_add_sync: sm_80 */
    char gpu[256];
    device_describe(o->c.device, gpu, sizeof gpu);
    speedup_check_memory(o, F.work, F.max_cells);
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    speedup_open(o, gpu, &F);
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        int rlo, rhi;
        if (!fractals_selected(o, f)) continue;
        speedup_levels(o, f, F.max_cells, &rlo, &rhi);
        for (int lv = rlo; lv <= rhi; lv++) speedup_level(o, &F, f, lv, maps, nmaps, stream);
    }
    datfile_commit(&F.d);
    datfile_commit(&F.best);
    CHECK_CUDA(cudaStreamDestroy(stream));
    return 0;
}

#endif
