/* sparsegrid/exp_host.cuh -- the host-only experiments (no GPU, no timing): interpolation error of sparse vs full
 * grids (thesis 2.2 and its future work) and the progressive reconstruction of the thesis's Fig. 2.5 (section 2.3).
 *
 * All in double on the CPU with the references of hierarchize.h and sparse.h; the numbers
 * are errors, not times, so they do not depend on the machine. */
#ifndef SPARSEGRID_EXP_HOST_CUH
#define SPARSEGRID_EXP_HOST_CUH

#include "harness.cuh"

/* The smooth test function: a Gaussian bump, f(x) = exp(-|x - 0.3|^2) (bounded mixed
 * derivatives, as sparse grid interpolation needs). */
static double f_test(const double *x, int d)
{
    double s = 0;
    for (int j = 0; j < d; j++) s += (x[j] - 0.3) * (x[j] - 0.3);
    return exp(-s);
}

/* A "real-looking" field with sharp features on [0,1]^d (d = 2, 3): a smooth bump, a plateau
 * with a sharp rim (a disc / ball), a step across a slanted plane and a gentle wave. */
static double f_sharp(const double *x, int d)
{
    static const double disc[3] = {0.65, 0.35, 0.5}, bump[3] = {0.3, 0.6, 0.5};
    double r2 = 0, b2 = 0;
    for (int j = 0; j < d; j++) {
        r2 += (x[j] - disc[j]) * (x[j] - disc[j]);
        b2 += (x[j] - bump[j]) * (x[j] - bump[j]);
    }
    return 0.5 * exp(-b2 / 0.02) + (r2 < 0.18 * 0.18 ? 0.8 : 0.0) + (x[1] > 0.2 + 0.3 * x[0] ? 0.3 : 0.0) +
           0.15 * sin(12 * x[0] + 5 * x[1]);
}

/* Random sample point s in [0,1)^d where the errors are measured (the same for every grid). */
static void sample_point(double *x, int d, int s, long long seed)
{
    for (int j = 0; j < d; j++) x[j] = (mix32((uint64_t)s * 8 + j + 1000003ULL * seed) + 0.5) / 4294967296.0;
}

/* Max and root-mean-square error against f_test over the samples random points of an
 * interpolant: the piecewise d-linear one of the values u on the full grid of level n
 * (sparse == NULL), or the one of the surpluses u of the sparse grid `sparse` (sgs_eval). */
static void sample_errors(const double *u, int dd, int n, const sgs_grid *sparse, int samples, long long seed,
                          double *emax, double *erms)
{
    double m = 0, e2 = 0;
#pragma omp parallel for reduction(max : m) reduction(+ : e2)
    for (int s = 0; s < samples; s++) {
        double x[SGS_MAXD];
        sample_point(x, dd, s, seed);
        double a = fabs((sparse ? sgs_eval(u, sparse, x) : sg_eval_multilinear(u, dd, n, x)) - f_test(x, dd));
        m = fmax(m, a);
        e2 += a * a;
    }
    *emax = m;
    *erms = sqrt(e2 / samples);
}

/* Opens the data file of an error figure of f_test over `samples` random points, up to its
 * column names; columns_fmt (the "columns" metadata) takes the number of samples. */
static void error_open(const sg_opts *o, datfile *d, const char *figure, const char *file, int samples,
                       const char *columns_fmt, const char *columns)
{
    dat_meta m = sg_meta(o, figure);
    datfile_open(d, o->c.out, file, &m);
    datfile_meta(d, "function", "f(x) = exp(-|x - 0.3|^2) on [0,1]^d");
    datfile_meta(d, "columns", columns_fmt, samples);
    datfile_columns(d, columns);
}

/* ------------------------------------------- truncation: the sparse grid inside a full grid */

/* One level L in d dimensions: the full grid's interpolant and the regular sparse grid kept
 * from its surpluses (sum_j max(l_j, 1) <= L + d - 1): max and RMS error over the samples. */
static void truncation_level(const sg_opts *o, datfile *d, int dd, int L, int samples)
{
    int n[SG_MAXD];
    char err[200];
    sg_geom g;
    for (int j = 0; j < dd; j++) n[j] = (1 << L) + 1;
    if (sg_geom_init(&g, dd, n, err, sizeof err)) DIE("%s", err);
    double *full = (double *)malloc(sizeof(double) * g.size), *sp = (double *)malloc(sizeof(double) * g.size);
    if (!full || !sp) DIE("out of host memory");
    long long kept = 0;
#pragma omp parallel for reduction(+ : kept)
    for (long long r = 0; r < g.size; r++) {
        double x[SG_MAXD];
        long long idx[SG_MAXD];
        for (int j = 0; j < dd; j++) { idx[j] = (r / g.stride[j]) % n[j]; x[j] = (double)idx[j] / (n[j] - 1); }
        full[r] = sp[r] = f_test(x, dd);
        kept += sg_in_sparse(idx, dd, L);
    }
    sg_ref_tile_d(sp, &g, 0); /* surpluses */
#pragma omp parallel for
    for (long long r = 0; r < g.size; r++) {
        long long idx[SG_MAXD];
        for (int j = 0; j < dd; j++) idx[j] = (r / g.stride[j]) % n[j];
        if (!sg_in_sparse(idx, dd, L)) sp[r] = 0; /* drop the subspaces beyond the diagonal */
    }
    sg_ref_tile_d(sp, &g, 1); /* the sparse interpolant's values on the full grid */
    double ef, ef_rms, es, es_rms;
    sample_errors(full, dd, L, NULL, samples, o->c.seed, &ef, &ef_rms);
    sample_errors(sp, dd, L, NULL, samples, o->c.seed, &es, &es_rms);
    datfile_row(d, "%d %d %lld %lld %.6e %.6e %.6e %.6e", dd, L, g.size, kept, ef, ef_rms, es, es_rms);
    fprintf(stderr, "error d=%d level=%2d full %9lld points: max %.3e | sparse %8lld points: max %.3e\n", dd, L, g.size,
            ef, kept, es);
    free(full);
    free(sp);
}

/* The thesis's future work, on full grids: how much of the full grid's accuracy the sparse
 * grid inside it keeps, d = 1..4, levels up to 2^22-ish points. */
static int exp_truncation(void *opts)
{
    sg_opts *o = (sg_opts *)opts;
    const int samples = o->c.quick ? 2000 : 20000;
    datfile d;
    error_open(o, &d, "beyond the thesis (its future work): sparse vs full grid interpolation error",
               "sparsegrid_figx2_error.dat", samples,
               "errors over %d random points (max and root mean square) of the piecewise d-linear interpolant on the "
               "full grid of the level and of the regular sparse grid kept from its surpluses (sum_j max(l_j, 1) <= "
               "level + d - 1, boundary included)",
               "d level points_full points_sparse err_full_max err_full_l2 err_sparse_max err_sparse_l2");
    for (int dd = 1; dd <= 4; dd++) {
        int Lmax = (dd == 1 ? 14 : dd == 2 ? 11 : dd == 3 ? 7 : 5) - (o->c.quick ? 2 : 0);
        for (int L = 1; L <= Lmax; L++) truncation_level(o, &d, dd, L, samples);
    }
    datfile_commit(&d);
    return 0;
}

/* ------------------------------------- error vs points of real sparse grids (thesis 2.2) */

/* Least-squares slope of y over x (the fitted convergence rate). */
static double fit_slope(const double *x, const double *y, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) { sx += x[i]; sy += y[i]; sxx += x[i] * x[i]; sxy += x[i] * y[i]; }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/* The regular sparse grid of level n in d dimensions (sparse.h, hierarchized by sgs_cpu_d and
 * evaluated from its surpluses): writes its row, returns the max error; *points its size. */
static double sparse_level_error(const sg_opts *o, datfile *d, int dd, int n, int samples, long long *points)
{
    sgs_grid g;
    char err[200];
    if (sgs_init(&g, dd, n, err, sizeof err)) DIE("%s", err);
    double *c = (double *)malloc(sizeof(double) * g.npts);
    if (!c) DIE("out of host memory");
#pragma omp parallel for schedule(dynamic, 16)
    for (int s = 0; s < g.nsub; s++)
        for (long long r = 0; r < g.off[s + 1] - g.off[s]; r++) {
            long long idx[SGS_MAXD];
            double x[SGS_MAXD];
            sgs_point_index(&g, s, r, idx);
            for (int j = 0; j < dd; j++) x[j] = (double)idx[j] / (double)(1LL << n);
            c[g.off[s] + r] = f_test(x, dd);
        }
    sgs_cpu_d(c, c, 1, &g, 0, 1); /* surpluses */
    double emax, erms;
    sample_errors(c, dd, n, &g, samples, o->c.seed, &emax, &erms);
    datfile_row(d, "%d %d sparse %lld %.6e %.6e", dd, n, g.npts, emax, erms);
    fprintf(stderr, "sparse error d=%d n=%2d sparse %9lld points: max %.3e\n", dd, n, g.npts, emax);
    *points = g.npts;
    free(c);
    sgs_free(&g);
    return emax;
}

/* The full grid of level n (piecewise d-linear), where it stays below 2^22 points (d <= 4). */
static void full_level_error(const sg_opts *o, datfile *d, int dd, int n, int samples)
{
    double full = pow((double)((1LL << n) + 1), dd);
    if (dd > SG_MAXD || full > (double)(1 << 22)) return;
    long long np = (1LL << n) + 1, size = (long long)full;
    double *u = (double *)malloc(sizeof(double) * size);
    if (!u) DIE("out of host memory");
#pragma omp parallel for
    for (long long r = 0; r < size; r++) {
        double x[SG_MAXD];
        long long q = r;
        for (int j = 0; j < dd; j++) { x[j] = (double)(q % np) / (double)(np - 1); q /= np; }
        u[r] = f_test(x, dd);
    }
    double emax, erms;
    sample_errors(u, dd, n, NULL, samples, o->c.seed, &emax, &erms);
    datfile_row(d, "%d %d full %lld %.6e %.6e", dd, n, size, emax, erms);
    free(u);
}

/* Interpolation error vs points of real sparse grids and of full grids, d = 2..5, for the
 * smooth f_test; fitted rates err ~ N^alpha, err / log2(N)^(d-1) ~ N^beta and err / n^(d-1) ~
 * h^gamma over the finer half of the sparse levels (thesis 2.2: O(h^2 log^(d-1) h^-1)). */
static int exp_sparse_error(void *opts)
{
    sg_opts *o = (sg_opts *)opts;
    const int samples = o->c.quick ? 1000 : 10000;
    datfile d;
    error_open(o, &d, "beyond the thesis (its future work): error vs points, sparse and full grids",
               "sparsegrid_figx5_sparse_error.dat", samples,
               "grid = sparse (regular sparse grid with boundary of level n, hierarchized by sgs_cpu_d, evaluated from "
               "its surpluses) or full (piecewise d-linear on the full grid of level n); errors over %d random points "
               "(max, root mean square)",
               "d level grid points err_max err_l2");
    for (int dd = 2; dd <= 5; dd++) {
        int nmax = (dd == 2 ? 14 : dd == 3 ? 11 : dd == 4 ? 9 : 7) - (o->c.quick ? 3 : 0);
        double lx[24], ly[24], lyl[24], lh[24], lyn[24];
        int nfit = 0;
        for (int n = 1; n <= nmax; n++) {
            long long npts;
            double emax = sparse_level_error(o, &d, dd, n, samples, &npts);
            if (2 * n > nmax) { /* the finer half: the asymptotic rate */
                lx[nfit] = log((double)npts);
                ly[nfit] = log(emax);
                lyl[nfit] = log(emax) - (dd - 1) * log(log2((double)npts));
                lh[nfit] = -n * log(2.0);                          /* log h, h = 2^-n */
                lyn[nfit] = log(emax) - (dd - 1) * log((double)n); /* the bound h^2 n^(d-1) */
                nfit++;
            }
            full_level_error(o, &d, dd, n, samples);
        }
        double alpha = fit_slope(lx, ly, nfit), beta = fit_slope(lx, lyl, nfit), gamma = fit_slope(lh, lyn, nfit);
        datfile_meta(&d, "result", "d=%d: fitted over the finer %d sparse levels: err_max ~ N^%.2f; err_max / log2(N)^%d ~ "
                                   "N^%.2f (the claim: N^-2 log^(d-1) N); err_max / n^%d ~ h^%.2f (h = 2^-n; the "
                                   "bound: h^2 n^(d-1))", dd, nfit, alpha, dd - 1, beta, dd - 1, gamma);
        fprintf(stderr, "sparse error d=%d: err ~ N^%.2f, err/log2(N)^%d ~ N^%.2f, err/n^%d ~ h^%.2f\n", dd, alpha, dd - 1,
                beta, dd - 1, gamma);
    }
    datfile_commit(&d);
    return 0;
}

/* ---------------------------- progressive reconstruction (thesis Fig. 2.5, section 2.3) */

/* The received state r (subspace order) as a picture: every 4th point of the plain 2D grid. */
static void progressive_picture(datfile *p, const sgs_grid *g, const double *r, int stage, long long got, double frac)
{
    long long N = g->npts;
    long long *perm = (long long *)malloc(sizeof(long long) * N);
    double *img = (double *)malloc(sizeof(double) * N);
    if (!perm || !img) DIE("out of host memory");
    sgs_full_perm(g, perm);
    for (long long i = 0; i < N; i++) img[perm[i]] = r[i];
    long long np = (1LL << g->n) + 1;
    for (long long y = 0; y < np; y += 4)
        for (long long x = 0; x < np; x += 4)
            datfile_row(p, "%d %lld %.6f %.4f %.4f %.4g", stage, 4 * got, frac, (double)x / (np - 1), (double)y / (np - 1),
                        img[y * np + x]);
    free(perm);
    free(img);
}

/* One field (sharp: f_sharp, else f_test) on the full grid g in subspace order: hierarchize,
 * round to float32, then after each received subspace dehierarchize what has arrived and
 * write the error row; pictures (the 2D sharp field only) at the last subspace boundary at or
 * below 1/64, 1/16, 1/4 of the bytes, and complete. */
static void progressive_field(datfile *d, datfile *p, const sgs_grid *g, int sharp, int pictures)
{
    int dd = g->d;
    long long N = g->npts;
    double *u = (double *)malloc(sizeof(double) * N), *c = (double *)malloc(sizeof(double) * N),
           *r = (double *)malloc(sizeof(double) * N);
    if (!u || !c || !r) DIE("out of host memory");
    for (int s = 0; s < g->nsub; s++) /* nodal values, in subspace order */
        for (long long q = 0; q < g->off[s + 1] - g->off[s]; q++) {
            long long idx[SGS_MAXD];
            double x[SGS_MAXD];
            sgs_point_index(g, s, q, idx);
            for (int j = 0; j < dd; j++) x[j] = (double)idx[j] / (double)(1LL << g->n);
            u[g->off[s] + q] = sharp ? f_sharp(x, dd) : f_test(x, dd);
        }
    memcpy(c, u, sizeof(double) * N);
    sgs_cpu_d(c, c, 1, g, 0, 1);
    for (long long i = 0; i < N; i++) c[i] = (double)(float)c[i]; /* sent as float32 */
    const double stage_at[3] = {1.0 / 64, 1.0 / 16, 1.0 / 4};
    int stage = 0;
    for (int s = 1; s <= g->nsub; s++) {
        long long got = g->off[s];
        memcpy(r, c, sizeof(double) * got);
        memset(r + got, 0, sizeof(double) * (N - got));
        sgs_cpu_d(r, r, 1, g, 1, 1);
        double emax = 0, e2 = 0;
        for (long long i = 0; i < N; i++) {
            double a = fabs(r[i] - u[i]);
            emax = fmax(emax, a);
            e2 += a * a;
        }
        double frac = (double)got / N;
        datfile_row(d, "%s %d %lld %d %lld %lld %.6f %.6e %.6e", sharp ? "sharp" : "smooth", dd, N, s, 4 * got, 4 * N,
                    frac, emax, sqrt(e2 / N));
        int take = pictures && (s == g->nsub || (stage < 3 && frac <= stage_at[stage] &&
                                                 (double)g->off[s + 1] / N > stage_at[stage]));
        if (take) {
            progressive_picture(p, g, r, s == g->nsub ? 3 : stage, got, frac);
            if (s < g->nsub) stage++;
        }
    }
    fprintf(stderr, "progressive %s d=%d: %lld points, %d subspaces\n", sharp ? "sharp" : "smooth", dd, N, g->nsub);
    free(u);
    free(c);
    free(r);
}

/* The thesis's Fig. 2.5 scenario: a full grid hierarchized into subspace order (coarse to fine
 * by |l|_1, sparse.h), sent subspace by subspace as float32; the receiver dehierarchizes what
 * it has (missing surpluses = 0).  Error at the grid points vs bytes received, for the smooth
 * f_test and f_sharp in 2D (257^2) and 3D (33^3); pictures of the 2D sharp field. */
static int exp_progressive(void *opts)
{
    sg_opts *o = (sg_opts *)opts;
    dat_meta m = sg_meta(o, "Fig. 2.5 of the thesis: progressive reconstruction from a subspace-ordered stream");
    datfile d, p;
    datfile_open(&d, o->c.out, "sparsegrid_figx6_progressive.dat", &m);
    datfile_meta(&d, "stream", "surpluses of a full grid in subspace order (coarse to fine by |l|_1), float32; after each "
                               "subspace the receiver dehierarchizes with the missing surpluses = 0");
    datfile_meta(&d, "functions", "smooth: exp(-|x - 0.3|^2); sharp: bump + disc/ball plateau with a sharp rim + step "
                                  "across a slanted plane + wave (f_sharp)");
    datfile_columns(&d, "function d grid_points subspaces_received bytes_received bytes_total fraction err_max err_rms");
    dat_meta mp = sg_meta(o, "Fig. 2.5 of the thesis: progressive reconstruction, pictures");
    datfile_open(&p, o->c.out, "sparsegrid_figx6_progressive_pictures.dat", &mp);
    datfile_meta(&p, "grid", "2D sharp field, 257 x 257 points, every 4th point in each direction");
    datfile_columns(&p, "stage bytes_received fraction x y value");
    for (int dd = 2; dd <= 3; dd++)
        for (int sharp = 0; sharp < 2; sharp++) {
            int nk[SGS_MAXD] = {0};
            for (int j = 0; j < dd; j++) nk[j] = dd == 2 ? (o->c.quick ? 6 : 8) : (o->c.quick ? 4 : 5);
            sgs_grid g;
            char err[200];
            if (sgs_init_full(&g, dd, nk, err, sizeof err)) DIE("%s", err);
            progressive_field(&d, &p, &g, sharp, dd == 2 && sharp);
            sgs_free(&g);
        }
    datfile_commit(&d);
    datfile_commit(&p);
    return 0;
}

#endif
