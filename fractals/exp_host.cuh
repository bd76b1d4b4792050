/* fractals/exp_host.cuh -- the experiments computed on the host (no GPU): Table 1's fractals
 * (k, s, H, pictures), the bb/lambda ratio (section 4) and the thread layouts (Figs. 4 and 5).
 *
 * Included by fractals.cu after fractals_opts; each experiment validates its options before
 * it opens a data file (a refused run leaves no file and exits 2). */
#ifndef FRACTALS_EXP_HOST_CUH
#define FRACTALS_EXP_HOST_CUH

#define MAX_LAYOUT_THREADS (1ull << 26) /* launch / layout: one line per thread, keep it sane */
#define MAX_DRAW_N 243u                  /* draw: ASCII up to this side */
#define MAX_SHAPES_N 1024u               /* shapes: one row per cell up to this side */

/* Metadata of a host-computed data file (no GPU, nothing timed). */
static dat_meta host_meta(const fractals_opts *o, const char *figure, common_opts *hc)
{
    *hc = o->c;
    hc->warmup = hc->reps = 0;
    return dat_meta_of("fractals", figure, o->argc, o->argv, "none (computed on the host)", hc);
}

/* Table 1: k, s, the translations H and the Hausdorff dimension log k / log s. */
static int exp_describe(void *opts)
{
    const fractals_opts *o = (const fractals_opts *)opts;
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        if (!fractals_selected(o, f)) continue;
        printf("%s: k=%d s=%d H={", f->name, f->k, f->s);
        for (int b = 0; b < f->k; b++) printf("%s(%d,%d)", b ? ", " : "", f->tau_x[b], f->tau_y[b]);
        printf("} hausdorff=log(%d)/log(%d)=%.4f\n", f->k, f->s, fractal_hausdorff(f));
    }
    return 0;
}

/* Table 1's pictures as ASCII: X = a cell of the fractal at level --r (default 3). */
static int exp_draw(void *opts)
{
    const fractals_opts *o = (const fractals_opts *)opts;
    int r = o->r < 0 ? 3 : o->r;
    for (int i = 0; i < FRACTAL_COUNT; i++) { /* validate every selected fractal first */
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        if (fractals_selected(o, f) && fractal_pow((uint64_t)f->s, r) > MAX_DRAW_N)
            DIE_USAGE("--exp=draw: %s at r=%d has n = %llu > %u; choose a smaller --r", f->name, r,
                      (unsigned long long)fractal_pow((uint64_t)f->s, r), MAX_DRAW_N);
    }
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        if (!fractals_selected(o, f)) continue;
        uint32_t n = (uint32_t)fractal_pow((uint64_t)f->s, r);
        printf("%s r=%d n=%u cells=%llu\n", f->name, r, n, (unsigned long long)fractal_pow((uint64_t)f->k, r));
        for (uint32_t y = 0; y < n; y++) {
            for (uint32_t x = 0; x < n; x++) putchar(fractal_member(f, x, y, r) ? 'X' : '.');
            putchar('\n');
        }
    }
    return 0;
}

/* One launch of a map (--fractal, --r, --map, --rho): `x y block thread` of every
 * thread that has a cell, after a header naming the launch grid. */
static int exp_launch(void *opts)
{
    const fractals_opts *o = (const fractals_opts *)opts;
    char err[256];
    if (!o->one) DIE_USAGE("--exp=launch needs one --fractal=NAME");
    if (o->r < 0) DIE_USAGE("--exp=launch needs --r=R");
    if (!strcmp(o->map, "all") || !strcmp(o->map, "paper")) DIE_USAGE("--exp=launch needs --map=bb|bb-skip|bb-block|lambda|lambda-thread");
    uint32_t rho = o->rho ? (uint32_t)o->rho : (uint32_t)o->one->s;
    fractal_launch L;
    const fractal_map_kind kind = !strcmp(o->map, "bb")        ? FRACTAL_MAP_BB
                                  : !strcmp(o->map, "bb-skip")  ? FRACTAL_MAP_BB_SKIP
                                  : !strcmp(o->map, "bb-block") ? FRACTAL_MAP_BB_BLOCK
                                                                : FRACTAL_MAP_LAMBDA;
    if (fractal_launch_init(&L, o->one, o->r, rho, kind, err, sizeof err)) DIE_USAGE("%s", err);
    if (fractal_launch_threads(&L) > MAX_LAYOUT_THREADS)
        DIE_USAGE("--exp=launch: %llu threads is too many lines; choose a smaller --r", (unsigned long long)fractal_launch_threads(&L));
    printf("# fractal=%s map=%s r=%d n=%u rho=%u rb=%d grid=%ux%u block=%ux%u threads=%llu cells=%llu\n", o->one->name,
           o->map, L.r, L.n, L.rho, L.rb, L.gx, L.gy, L.rho, L.rho, (unsigned long long)fractal_launch_threads(&L),
           (unsigned long long)fractal_pow((uint64_t)o->one->k, L.r));
    printf("# x y block thread   (block = by * gx + bx, thread = ty * rho + tx)\n");
    for (uint32_t by = 0; by < L.gy; by++)
        for (uint32_t bx = 0; bx < L.gx; bx++)
            for (uint32_t ty = 0; ty < L.rho; ty++)
                for (uint32_t tx = 0; tx < L.rho; tx++) {
                    uint32_t x = 0, y = 0;
                    if (fractal_launch_cell(&L, bx, by, tx, ty, &x, &y))
                        printf("%u %u %llu %u\n", x, y, (unsigned long long)by * L.gx + bx, ty * L.rho + tx);
                }
    return 0;
}

/* The rows of one launch (bb or lambda) for fractals_layout.dat: every launched thread. */
static void layout_rows(datfile *d, const nbb_fractal *f, const fractal_launch *L, const char *map)
{
    for (uint32_t by = 0; by < L->gy; by++)
        for (uint32_t bx = 0; bx < L->gx; bx++)
            for (uint32_t ty = 0; ty < L->rho; ty++)
                for (uint32_t tx = 0; tx < L->rho; tx++) {
                    uint32_t x = 0, y = 0;
                    int works = fractal_launch_cell(L, bx, by, tx, ty, &x, &y);
                    datfile_row(d, "%s %d %u %u %s %u %u %u %u %llu %d", f->name, L->r, L->n, L->rho, map, bx * L->rho + tx,
                                by * L->rho + ty, x, y, (unsigned long long)by * L->gx + bx, works);
                }
}

/* Figs. 4 and 5 of the thesis as data: every thread of the bb and the lambda launch, with its
 * place in the parallel space (block * rho + thread), the cell it maps to, its block and
 * whether it works.  Default: Fig. 5's Sierpinski triangle (r = 6, rho = 8), Fig. 4's Vicsek
 * and the carpet (r = 3, rho = 3); --fractal/--r/--rho override.  -> fractals_layout.dat */
static int exp_layout(void *opts)
{
    const fractals_opts *o = (const fractals_opts *)opts;
    static const char *const FIG[] = {"sierpinski-triangle", "vicsek", "sierpinski-carpet"};
    const nbb_fractal *fs[3];
    int nf = 0, lv[3];
    uint32_t rh[3];
    char err[256];
    fractal_launch L[3][2];
    if (o->one) fs[nf++] = o->one;
    else
        for (int i = 0; i < 3; i++) fs[nf++] = fractal_by_name(FIG[i]);
    for (int i = 0; i < nf; i++) /* validate before the data file is opened */
        for (int map = 0; map < 2; map++) {
            lv[i] = o->r >= 0 ? o->r : fs[i]->s == 2 ? 6 : 3;
            rh[i] = o->rho ? (uint32_t)o->rho : fs[i]->s == 2 ? 8u : (uint32_t)fs[i]->s;
            if (fractal_launch_init(&L[i][map], fs[i], lv[i], rh[i], (fractal_map_kind)map, err, sizeof err)) DIE_USAGE("%s", err);
            if (fractal_launch_threads(&L[i][map]) > MAX_LAYOUT_THREADS)
                DIE_USAGE("--exp=layout: %llu threads is too many rows; choose a smaller --r",
                          (unsigned long long)fractal_launch_threads(&L[i][map]));
        }
    common_opts hc;
    dat_meta m = host_meta(o, "thread layouts of bb and lambda (thesis Figs. 4 and 5)", &hc);
    datfile d;
    datfile_open(&d, o->c.out, "fractals_layout.dat", &m);
    datfile_meta(&d, "columns", "one row per launched thread: (px, py) = its place in the parallel space (block * rho + "
                                "thread), (x, y) = the cell it maps to (x column, y row), block = by * gx + bx, works = 1 "
                                "if (x, y) is a fractal cell it handles");
    datfile_columns(&d, "fractal r n rho map px py x y block works");
    for (int i = 0; i < nf; i++)
        for (int map = 0; map < 2; map++) layout_rows(&d, fs[i], &L[i][map], map ? "lambda" : "bb");
    datfile_commit(&d);
    return 0;
}

/* Section 4: bb launches (s^2/k)^rb times the threads of lambda; the embedded array holds
 * n^2 / k^r times the fractal's cells.  Every level up to 24, every rho of the sweep (or
 * --rho).  -> fractals_ratio.dat */
static int exp_ratio(void *opts)
{
    const fractals_opts *o = (const fractals_opts *)opts;
    char err[256];
    for (int i = 0; i < FRACTAL_COUNT; i++) { /* validate before the data file is opened */
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        if (!fractals_selected(o, f)) continue;
        if (o->rho && fractal_level_of(f->s, (uint64_t)o->rho) < 0)
            DIE_USAGE("rho=%lld is not a power of s=%d (%s)", o->rho, f->s, f->name);
        if (o->rho > FRACTAL_MAX_RHO) DIE_USAGE("rho=%lld: a block of rho x rho threads must have rho <= %d", o->rho, FRACTAL_MAX_RHO);
    }
    common_opts hc;
    dat_meta m = host_meta(o, "parallel space and memory ratio bb/lambda, section 4 ((s^2/k)^rb)", &hc);
    datfile d;
    datfile_open(&d, o->c.out, "fractals_ratio.dat", &m);
    datfile_meta(&d, "columns", "space_ratio_x = bb threads / lambda threads = (n/rho)^2 / k^rb = (s^2/k)^rb; "
                                "memory_ratio_x = n^2 / k^r (embedded array / fractal cells)");
    datfile_columns(&d, "fractal k s hausdorff r n rho rb bb_blocks lambda_blocks space_ratio_x memory_ratio_x");
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        if (!fractals_selected(o, f)) continue;
        uint32_t rhos[3];
        int nr = fractals_rhos(o, f, rhos);
        for (int q = 0; q < nr; q++)
            for (int lv = 0; lv <= 24; lv++) {
                fractal_launch Lb, Ll;
                if (fractal_launch_init(&Lb, f, lv, rhos[q], FRACTAL_MAP_BB, err, sizeof err)) continue;
                if (fractal_launch_init(&Ll, f, lv, rhos[q], FRACTAL_MAP_LAMBDA, err, sizeof err)) continue;
                double bbb = (double)Lb.gx * Lb.gy, lb = (double)Ll.gx * Ll.gy, n = (double)Lb.n;
                datfile_row(&d, "%s %d %d %.4f %d %u %u %d %.0f %.0f %.6g %.6g", f->name, f->k, f->s, fractal_hausdorff(f), lv,
                            Lb.n, rhos[q], Lb.rb, bbb, lb, bbb / lb, n * n / pow((double)f->k, lv));
            }
    }
    datfile_commit(&d);
    return 0;
}

/* Table 1's pictures as data: every cell of each fractal at --r (default 5 for s = 2, else 3).
 * -> fractals_shapes.dat */
static int exp_shapes(void *opts)
{
    const fractals_opts *o = (const fractals_opts *)opts;
    for (int i = 0; i < FRACTAL_COUNT; i++) { /* validate before the data file is opened */
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        uint64_t n = fractal_pow((uint64_t)f->s, o->r >= 0 ? o->r : (f->s == 2 ? 5 : 3));
        if (fractals_selected(o, f) && n > MAX_SHAPES_N)
            DIE_USAGE("--exp=shapes: %s at r=%d has n = %llu > %u; choose a smaller --r", f->name, o->r, (unsigned long long)n,
                      MAX_SHAPES_N);
    }
    common_opts hc;
    dat_meta m = host_meta(o, "pictures of Table 1 (cells at a small level)", &hc);
    datfile d;
    datfile_open(&d, o->c.out, "fractals_shapes.dat", &m);
    datfile_meta(&d, "columns", "one row per cell (x = column, y = row, row 0 on top) of each fractal at level r");
    datfile_columns(&d, "fractal r n x y");
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        if (!fractals_selected(o, f)) continue;
        int lv = o->r >= 0 ? o->r : (f->s == 2 ? 5 : 3);
        uint64_t n = fractal_pow((uint64_t)f->s, lv); /* <= MAX_SHAPES_N, checked above */
        for (uint32_t y = 0; y < n; y++)
            for (uint32_t x = 0; x < n; x++)
                if (fractal_member(f, x, y, lv)) datfile_row(&d, "%s %d %llu %u %u", f->name, lv, (unsigned long long)n, x, y);
    }
    datfile_commit(&d);
    return 0;
}

#endif
