/* sparsegrid/exp_roofline.cuh -- the CPU versions against the host's own memory ceiling (host only, no GPU):
 * --exp=cpu-roofline, sparse grids d = 2..6 and the thesis's full-grid tiles, float and double.
 *
 * Hierarchization is memory-bound: a grid is small enough to stay in a core's cache for all its
 * passes, so the least DRAM traffic is one read and one write of every point (cpu_blocked.h:
 * the byte model).  Each row is verified bitwise against the references (common/runcase.h: NaN
 * poison, one run, compare, exit 1 on a mismatch), then timed on all OpenMP threads, and its
 * GB/s (2 x bytes: read + write once) is set against a STREAM-like triad measured in the same
 * run (common/host.h: 3 arrays x 2^26 doubles = 3 x 512 MiB, beyond any last-level cache). */
#ifndef SPARSEGRID_EXP_ROOFLINE_CUH
#define SPARSEGRID_EXP_ROOFLINE_CUH

#include "harness.cuh"
#include "exp_full.cuh"
#include "exp_sparse.cuh"
#include "cpu_blocked.h"
#include "cpu_blocked_t.h"

/* The CPU versions: the older ones (baselines, as they are) and cpu_blocked. */
typedef enum {
    ROOF_SGS_TUNED,   /* sgs_cpu_*: level-wise lists, OpenMP over grids (sparse or subspace order) */
    ROOF_SGS_SHIFT,   /* sgs_cpu_shift_*: the thesis's dimensional shift (sparse or subspace order) */
    ROOF_SGS_BLOCKED, /* sgs_cpu_blocked_*: V grids interleaved (sparse or subspace order) */
    ROOF_FULL_TUNED,  /* sg_cpu_tuned: version A, plain layout, float only */
    ROOF_FULL_BLOCKED, /* sg_cpu_blocked_*: V tiles interleaved, plain layout */
    ROOF_SGS_BLOCKED_T, /* sgs_cpu_blocked_tr_*: cpu_blocked, gather/scatter by vector transposes (sparse) */
    ROOF_FULL_BLOCKED_T /* sg_cpu_blocked_tr_*: the same, plain layout */
} roof_kind;
static const char *const ROOF_NAME[7] = {"cpu_tuned",   "cpu_shift",     "cpu_blocked",  "cpu_tuned",
                                         "cpu_blocked", "cpu_blocked_t", "cpu_blocked_t"};

typedef struct {
    job_io io; /* first: run_case's poison and check (harness.cuh) */
    roof_kind kind;
    const sgs_grid *sg; /* ROOF_SGS_* */
    const sg_geom *fg;  /* ROOF_FULL_* */
    long long G;
    int inverse, threads;
} roof_job;

static void sgs_cpu_blocked_t(const float *s, float *d, long long G, const sgs_grid *g, int inv, int th)
{
    if (sgs_cpu_blocked_f(s, d, G, g, inv, th, 0)) DIE("out of host memory");
}
static void sgs_cpu_blocked_t(const double *s, double *d, long long G, const sgs_grid *g, int inv, int th)
{
    if (sgs_cpu_blocked_d(s, d, G, g, inv, th, 0)) DIE("out of host memory");
}
static void sg_cpu_blocked_t(const float *s, float *d, long long nt, const sg_geom *g, int inv, int th)
{
    if (sg_cpu_blocked_f(s, d, nt, g, inv, th, 0)) DIE("out of host memory");
}
static void sg_cpu_blocked_t(const double *s, double *d, long long nt, const sg_geom *g, int inv, int th)
{
    if (sg_cpu_blocked_d(s, d, nt, g, inv, th, 0)) DIE("out of host memory");
}
static void sgs_cpu_blocked_tr_t(const float *s, float *d, long long G, const sgs_grid *g, int inv, int th)
{
    if (sgs_cpu_blocked_tr_f(s, d, G, g, inv, th, 0, 0)) DIE("out of host memory");
}
static void sgs_cpu_blocked_tr_t(const double *s, double *d, long long G, const sgs_grid *g, int inv, int th)
{
    if (sgs_cpu_blocked_tr_d(s, d, G, g, inv, th, 0, 0)) DIE("out of host memory");
}
static void sg_cpu_blocked_tr_t(const float *s, float *d, long long nt, const sg_geom *g, int inv, int th)
{
    if (sg_cpu_blocked_tr_f(s, d, nt, g, inv, th, 0, 0)) DIE("out of host memory");
}
static void sg_cpu_blocked_tr_t(const double *s, double *d, long long nt, const sg_geom *g, int inv, int th)
{
    if (sg_cpu_blocked_tr_d(s, d, nt, g, inv, th, 0, 0)) DIE("out of host memory");
}
static void sg_cpu_tuned_t(const float *s, float *d, long long nt, const sg_geom *g, int inv, int th)
{
    if (sg_cpu_tuned(s, d, nt, g, inv, th)) DIE("out of host memory");
}
static void sg_cpu_tuned_t(const double *, double *, long long, const sg_geom *, int, int)
{
    DIE("cpu_tuned (version A) computes in float only");
}
static void sg_ref_tile_t(float *u, const sg_geom *g, int inv) { sg_ref_tile_f(u, g, inv); }
static void sg_ref_tile_t(double *u, const sg_geom *g, int inv) { sg_ref_tile_d(u, g, inv); }

template <typename T>
static void roof_host(void *p)
{
    roof_job *j = (roof_job *)p;
    const T *src = (const T *)j->io.h_src;
    T *dst = (T *)j->io.h_out;
    switch (j->kind) {
    case ROOF_SGS_TUNED: sgs_cpu_t(src, dst, j->G, j->sg, j->inverse, j->threads); break;
    case ROOF_SGS_SHIFT: sgs_cpu_shift_t(src, dst, j->G, j->sg, j->inverse, j->threads); break;
    case ROOF_SGS_BLOCKED: sgs_cpu_blocked_t(src, dst, j->G, j->sg, j->inverse, j->threads); break;
    case ROOF_FULL_TUNED: sg_cpu_tuned_t(src, dst, j->G, j->fg, j->inverse, j->threads); break;
    case ROOF_FULL_BLOCKED: sg_cpu_blocked_t(src, dst, j->G, j->fg, j->inverse, j->threads); break;
    case ROOF_SGS_BLOCKED_T: sgs_cpu_blocked_tr_t(src, dst, j->G, j->sg, j->inverse, j->threads); break;
    case ROOF_FULL_BLOCKED_T: sg_cpu_blocked_tr_t(src, dst, j->G, j->fg, j->inverse, j->threads); break;
    }
}

/* The buffers of one batch: u, its surpluses c (the reference), H^-1 c (the inverse's
 * reference) and the output every row writes. */
typedef struct {
    void *u, *c, *back, *out;
    size_t cap;
} roof_bufs;

/* The references of G grids: c = H u, back = H^-1 c, by the scalar tile references (plain full
 * grids, every tile) or by sgs_cpu_* checked against the pole-wise sgs_ref_* on the first 8
 * grids (sparse grids, subspace order; as --exp=sparse does). */
template <typename T>
static void roof_reference(roof_bufs *b, const sgs_grid *sg, const sg_geom *fg, long long G)
{
    const T *u = (const T *)b->u;
    T *c = (T *)b->c, *back = (T *)b->back;
    long long N = sg ? sg->npts : fg->size;
    if (sg) {
        sgs_cpu_t(u, c, G, sg, 0, omp_get_max_threads());
        T *t = (T *)malloc(sizeof(T) * N);
        if (!t) DIE("out of host memory");
        for (long long i = 0; i < G && i < 8; i++) {
            memcpy(t, u + i * N, sizeof(T) * N);
            if (sgs_ref_t(t, sg, 0)) DIE("sparse reference: out of memory");
            if (memcmp(t, c + i * N, sizeof(T) * N)) verify_fail("cpu_tuned (lists) != pole-wise reference");
        }
        free(t);
        sgs_cpu_t(c, back, G, sg, 1, omp_get_max_threads());
    } else {
        memcpy(c, u, sizeof(T) * G * N);
#pragma omp parallel for schedule(static)
        for (long long t = 0; t < G; t++) sg_ref_tile_t(c + t * N, fg, 0);
        memcpy(back, c, sizeof(T) * G * N);
#pragma omp parallel for schedule(static)
        for (long long t = 0; t < G; t++) sg_ref_tile_t(back + t * N, fg, 1);
    }
}

/* The best pct_triad of the old versions and of cpu_blocked, [inverse], for the # result: lines. */
typedef struct {
    double old_pct[2], new_pct[2], t_pct[2]; /* t: cpu_blocked_t (has_t: its rows ran) */
    int has_t;
    const char *old_name[2];
} roof_best;

/* One verified, timed row. */
template <typename T>
static void roof_row(const sg_opts *o, datfile *d, roof_bufs *b, roof_kind kind, const char *layout, const char *shape,
                     const sgs_grid *sg, const sg_geom *fg, long long G, int inverse, double triad, roof_best *best)
{
    long long N = sg ? sg->npts : fg->size;
    roof_job j;
    memset(&j, 0, sizeof j);
    j.io.place = ON_CPU;
    j.io.h_src = inverse ? b->c : b->u;
    j.io.h_out = b->out;
    j.io.expect = inverse ? b->back : b->c;
    j.io.n = G * N;
    j.io.elem = sizeof(T);
    j.kind = kind;
    j.sg = sg;
    j.fg = fg;
    j.G = G;
    j.inverse = inverse;
    j.threads = o->threads;
    const char *prec = sizeof(T) == 8 ? "double" : "float";
    snprintf(j.io.label, sizeof j.io.label, "%s%s, %s %s %s, %lld grids, %d threads", ROOF_NAME[kind],
             inverse ? "_inverse" : "", prec, layout, shape, G, o->threads);
    run_case c = job_case(&j.io, NULL, roof_host<T>);
    bench_stats st = run_case_time(&c, &o->c, o->s, d);
    double moved = 2.0 * G * N * sizeof(T), gbs = gbs_of(moved, st.median), pct = 100 * gbs / triad;
    char impl[48];
    snprintf(impl, sizeof impl, "%s%s", ROOF_NAME[kind], inverse ? "_inverse" : "");
    datfile_row(d, "%s %s %s %d %lld %lld %s %d %.0f %.6f %.6f %.6f %.1f %.1f %d", prec, layout, shape,
                sg ? sg->n : 0, N, G, impl, o->threads, moved, st.median, st.min, st.max, gbs, pct, st.batch);
    fprintf(stderr, "cpu-roofline %-6s %-8s %-8s %-20s grids=%7lld %8.1f MB %9.3f ms %6.1f GB/s %5.1f%% of triad\n",
            prec, layout, shape, impl, G, moved / 1e6, st.median, gbs, pct);
    int blocked = kind == ROOF_SGS_BLOCKED || kind == ROOF_FULL_BLOCKED;
    if (kind == ROOF_SGS_BLOCKED_T || kind == ROOF_FULL_BLOCKED_T) best->t_pct[inverse] = pct, best->has_t = 1;
    else if (blocked) best->new_pct[inverse] = fmax(best->new_pct[inverse], pct);
    else if (pct > best->old_pct[inverse]) {
        best->old_pct[inverse] = pct;
        best->old_name[inverse] = ROOF_NAME[kind];
    }
}

static void roof_result(datfile *d, const char *prec, const char *layout, const char *shape, const roof_best *r)
{
    char t[80] = "";
    if (r->has_t) snprintf(t, sizeof t, "; cpu_blocked_t %.1f%% (inverse %.1f%%)", r->t_pct[0], r->t_pct[1]);
    datfile_meta(d, "result", "%s %s %s: cpu_blocked %.1f%% of triad (inverse %.1f%%); best older version %s %.1f%% "
                 "(inverse %s %.1f%%)%s", prec, layout, shape, r->new_pct[0], r->new_pct[1],
                 r->old_name[0] ? r->old_name[0] : "none", r->old_pct[0], r->old_name[1] ? r->old_name[1] : "none",
                 r->old_pct[1], t);
}

/* One precision: sparse grids d = dlo..dhi at --exp=sparse's levels, then the three thesis tiles
 * in the plain layout and in subspace order; every batch holds `bytes` of input (or --nt-max grids). */
template <typename T>
static void roof_precision(const sg_opts *o, datfile *d, roof_bufs *b, size_t bytes, double triad)
{
    const char *prec = sizeof(T) == 8 ? "double" : "float";
    int dlo = o->sparse_d ? o->sparse_d : 2, dhi = o->sparse_d ? o->sparse_d : SGS_MAXD;
    fill_input((T *)b->u, (long long)(b->cap / sizeof(T)), o->c.seed);
    for (int dd = dlo; dd <= dhi; dd++) {
        sgs_grid g;
        char err[200], shape[16];
        if (sgs_init(&g, dd, SPARSE_LEVEL[dd], err, sizeof err)) DIE("%s", err);
        long long G = o->nt_max ? o->nt_max : (long long)((bytes + g.npts * sizeof(T) - 1) / (g.npts * sizeof(T)));
        snprintf(shape, sizeof shape, "d%d", dd);
        roof_reference<T>(b, &g, NULL, G);
        roof_best best;
        memset(&best, 0, sizeof best);
        for (int inv = 0; inv < 2; inv++) {
            for (int k = ROOF_SGS_TUNED; k <= ROOF_SGS_BLOCKED; k++)
                roof_row<T>(o, d, b, (roof_kind)k, "sparse", shape, &g, NULL, G, inv, triad, &best);
            roof_row<T>(o, d, b, ROOF_SGS_BLOCKED_T, "sparse", shape, &g, NULL, G, inv, triad, &best);
        }
        roof_result(d, prec, "sparse", shape, &best);
        sgs_free(&g);
    }
    if (o->sparse_d) return;
    for (int s = 0; s < 3; s++) {
        sg_geom fg;
        sgs_grid g;
        char err[200];
        if (sg_parse_dims(THESIS_SHAPES[s], &fg, err, sizeof err) || sgs_init_full(&g, fg.d, fg.l, err, sizeof err))
            DIE("%s", err);
        long long N = fg.size, G = o->nt_max ? o->nt_max : (long long)((bytes + N * sizeof(T) - 1) / (N * sizeof(T)));
        roof_best best;
        memset(&best, 0, sizeof best);
        roof_reference<T>(b, NULL, &fg, G); /* the plain layout */
        for (int inv = 0; inv < 2; inv++) {
            if (sizeof(T) == 4) roof_row<T>(o, d, b, ROOF_FULL_TUNED, "plain", THESIS_SHAPES[s], NULL, &fg, G, inv, triad, &best);
            roof_row<T>(o, d, b, ROOF_FULL_BLOCKED, "plain", THESIS_SHAPES[s], NULL, &fg, G, inv, triad, &best);
            roof_row<T>(o, d, b, ROOF_FULL_BLOCKED_T, "plain", THESIS_SHAPES[s], NULL, &fg, G, inv, triad, &best);
        }
        roof_result(d, prec, "plain", THESIS_SHAPES[s], &best);
        memset(&best, 0, sizeof best);
        roof_reference<T>(b, &g, NULL, G); /* subspace order (the thesis's Fig. 2.9): the same grid, permuted */
        for (int inv = 0; inv < 2; inv++)
            for (int k = ROOF_SGS_TUNED; k <= ROOF_SGS_BLOCKED; k++)
                roof_row<T>(o, d, b, (roof_kind)k, "subspace", THESIS_SHAPES[s], &g, NULL, G, inv, triad, &best);
        roof_result(d, prec, "subspace", THESIS_SHAPES[s], &best);
        sgs_free(&g);
    }
}

/* --exp=cpu-roofline: every CPU version against the host triad of the same run, float and double. */
static int exp_cpu_roofline(void *opts)
{
    sg_opts *o = (sg_opts *)opts;
    size_t bytes = (size_t)1 << (o->c.quick ? 24 : 28); /* input per batch: 256 MiB (quick 16 MiB) */
    size_t cap = bytes + 8 * 16384 * sizeof(double);      /* + a partial grid of the largest kind */
    if (o->nt_max) cap = 0;
    for (int dd = 2; o->nt_max && dd <= SGS_MAXD; dd++) {
        sgs_grid g;
        char err[200];
        if (sgs_init(&g, dd, SPARSE_LEVEL[dd], err, sizeof err)) DIE("%s", err);
        size_t need = (size_t)o->nt_max * (g.npts > 2025 ? g.npts : 2025) * sizeof(double);
        cap = need > cap ? need : cap;
        sgs_free(&g);
    }
    size_t triad_n = (size_t)1 << (o->c.quick ? 24 : 26);
    double triad = host_triad_gbs(triad_n, o->threads, 5);
    fprintf(stderr, "cpu-roofline: host triad %.1f GB/s on %d threads\n", triad, o->threads);
    roof_bufs b;
    b.cap = cap;
    b.u = malloc(cap), b.c = malloc(cap), b.back = malloc(cap), b.out = malloc(cap);
    if (!b.u || !b.c || !b.back || !b.out) DIE("out of host memory");
    char host[256];
    host_describe(host, sizeof host);
    dat_meta m = sg_meta(o, "beyond the thesis: the CPU versions against the host's triad bandwidth");
    datfile d;
    datfile_open(&d, o->c.out, "sparsegrid_figx9_cpu_roofline.dat", &m);
    datfile_meta(&d, "host", "%s", host);
    datfile_meta(&d, "triad_gbs", "%.1f (a[i] = b[i] + s c[i], 3 arrays x %zu doubles = 3 x %zu MiB, %d OpenMP threads, "
                 "best of 5; counted 3 x 8 bytes per element: 2 reads + 1 write, write-allocate not counted, as STREAM)",
                 triad, triad_n, triad_n * 8 >> 20, o->threads);
    datfile_meta(&d, "cpu", "%s; cpu_blocked: %d floats / %d doubles interleaved per block (cpu_blocked.h); "
                 "cpu_blocked_t: the same, gather/scatter by vector transposes, %s (cpu_blocked_t.h)", sg_cpu_isa(),
                 SGB_LINE_BYTES / 4, SGB_LINE_BYTES / 8, sgbt_isa_name(sgbt_isa(0)));
    datfile_meta(&d, "columns", "layout: sparse (regular sparse grid with boundary of level `level`, subspace order), plain "
                 "(the full-grid tile, dimension 0 fastest), subspace (the same tile in subspace order); bytes_moved = 2 * "
                 "grids * points * elem (read + write once; write-allocate not counted, as in the triad); gbs = "
                 "bytes_moved / median; pct_triad = gbs / triad_gbs; threads = OpenMP threads");
    datfile_columns(&d, "precision layout shape level points grids impl threads bytes_moved median_ms min_ms max_ms gbs "
                        "pct_triad batch");
    roof_precision<float>(o, &d, &b, bytes, triad);
    roof_precision<double>(o, &d, &b, bytes, triad);
    datfile_commit(&d);
    free(b.u);
    free(b.c);
    free(b.back);
    free(b.out);
    return 0;
}

#endif
