/* sparsegrid/exp_full.cuh -- the full-grid experiments: the thesis's Figs. 5.1-5.3 (many small tiles, CPU vs GPU),
 * then beyond the thesis the bandwidth of large tile sets and the tuning of the pipelined kernel (thesis ch. 4-5).
 *
 * Every timed row goes through full_time() (harness.cuh -> common/runcase.h): the output is
 * poisoned, the implementation runs once and must equal the CPU's result bitwise, then it is
 * timed.  The CPU's result itself is checked against the scalar references (full_reference). */
#ifndef SPARSEGRID_EXP_FULL_CUH
#define SPARSEGRID_EXP_FULL_CUH

#include "harness.cuh"

/* The thesis's three tile shapes (section 5.1). */
static const char *const THESIS_SHAPES[3] = {"33x33", "9x9x9", "9x9x5x5"};

/* Version B and the fused kernel of a variant for one shape (the other plans stay unset). */
static void full_plans_setup(const sg_opts *o, full_plans *p, const char *dims, int variant)
{
    char err[200];
    memset(p, 0, sizeof *p);
    if (sg_parse_dims(dims, &p->g, err, sizeof err)) DIE("%s", err);
    if (sg_b_setup(&p->thesis, &p->g)) DIE("version B cannot plan %s", dims);
    if (sg_fused_setup(&p->fused[variant], &p->g, o->tpb, o->c.device, variant))
        DIE("fused: tile %s does not fit in shared memory", dims);
}

static void full_plans_free(full_plans *p)
{
    for (int v = 0; v < 3; v++) sg_fused_free(&p->fused[v]);
}

/* The n implementations of `checked` on the nt tiles of b, verified but not timed (the
 * directions a figure checks but does not plot); references ready (full_reference). */
static void full_verify_all(const sg_opts *o, const full_impl *checked, int n, const full_plans *p, const batch *b,
                            long long nt)
{
    for (int k = 0; k < n; k++) {
        full_job j = full_job_of(o, &checked[k], p, b, nt, 0);
        run_case c = full_case(&j);
        verify_untimed(&c, o->s);
    }
}

/* ------------------------------------------------------------------ Figs. 5.1 - 5.3 */

/* One figure: the thesis's tile shape and a log-spaced subset of its Nt range (0-terminated). */
typedef struct {
    const char *fig, *dims, *file;
    long long nts[16], quick[8];
} fig5_spec;

static const fig5_spec FIG5[3] = {
    {"5.1", "33x33", "sparsegrid_fig5_1_2d.dat", {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 4000, 7000, 0},
     {1, 10, 100, 1000, 7000, 0}},
    {"5.2", "9x9x9", "sparsegrid_fig5_2_3d.dat", {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 0}, {1, 10, 100, 2500, 0}},
    {"5.3", "9x9x5x5", "sparsegrid_fig5_3_4d.dat", {1, 2, 5, 10, 20, 50, 100, 200, 400, 600, 0}, {1, 10, 100, 600, 0}},
};

/* The rows of Figs. 5.x, in this order for every Nt; each is timed alone and with transfers. */
static const full_impl FIG5_IMPLS[3] = {
    {"cpu_tuned", FULL_CPU_TUNED, 0, 0},                 /* version A */
    {"gpu_thesis", FULL_GPU_THESIS, 0, 0},               /* version B */
    {"gpu_fused", FULL_GPU_FUSED, SG_VARIANT_LINES, 0},  /* ours */
};
/* Checked in every configuration, not timed: dehierarchization on the GPU. */
static const full_impl FIG5_CHECKED[2] = {
    {"gpu_thesis_inverse", FULL_GPU_THESIS, 0, 1},
    {"gpu_fused_inverse", FULL_GPU_FUSED, SG_VARIANT_LINES, 1},
};

static void fig5_open(const sg_opts *o, datfile *d, const fig5_spec *s, const full_plans *p, size_t bytes)
{
    char figure[200];
    snprintf(figure, sizeof figure, "Fig. %s of the thesis (tiles %s)", s->fig, s->dims);
    dat_meta m = sg_meta(o, figure);
    const sg_fused *f = &p->fused[SG_VARIANT_LINES];
    datfile_open(d, o->c.out, s->file, &m);
    datfile_meta(d, "tile", "%s (%lld points, %lld bytes)", s->dims, p->g.size, p->g.size * 4);
    datfile_meta(d, "cpu", "cpu_tuned on %d OpenMP threads (omp_get_num_procs %d)", o->threads, omp_get_num_procs());
    datfile_meta(d, "fused", "%s, up to %d tiles per block (fewer while Nt < %d blocks per SM), %d threads, %zu bytes shared memory",
                 f->lines ? "k_fused_lines" : "point kernels", f->tpb, SG_FUSED_MIN_BLOCKS_PER_SM, SG_FUSED_THREADS,
                 sg_fused_smem(f, f->tpb, 0));
    datfile_meta(d, "columns", "median_ms/min_ms/max_ms: hierarchization of all Nt tiles, on the device (kernel time) "
                               "or in host memory (cpu); per_tile_ms = median/Nt; speedup_x = t(1)/(t/Nt); total_*: "
                               "with upload and download (pinned host memory; cpu: = kernel time)");
    datfile_meta(d, "cache", "the largest Nt moves %.1f MB (read + write): data may sit in the L2 cache", 2.0 * bytes / 1e6);
    datfile_columns(d, "impl nt tile_points median_ms min_ms max_ms per_tile_ms speedup_x total_ms total_min_ms "
                       "total_max_ms total_speedup_x batch");
}

/* Thesis 5.1: for each Nt, t for all tiles, t/Nt and the speedup t(1)/(t/Nt) (quantities 1-3),
 * kernel time and time with host<->device transfers, of versions A, B and ours. */
static int fig5_run(sg_opts *o, const fig5_spec *s)
{
    sg_use_gpu(o);
    long long nts[16];
    int cnt = 0;
    for (const long long *v = o->c.quick ? s->quick : s->nts; *v; v++)
        if (!o->nt_max || *v <= o->nt_max) nts[cnt++] = *v;
    if (!cnt) DIE_USAGE("--nt-max=%lld: no Nt of Fig. %s is that small", o->nt_max, s->fig);
    full_plans p;
    full_plans_setup(o, &p, s->dims, SG_VARIANT_LINES);
    size_t bytes = sizeof(float) * nts[cnt - 1] * p.g.size;
    batch b;
    batch_alloc(&b, bytes, sizeof(float), 1, o->c.seed); /* pinned: the transfers are timed */
    datfile d;
    fig5_open(o, &d, s, &p, bytes);
    double t1[3] = {0, 0, 0}, t1tot[3] = {0, 0, 0}, last[3] = {0, 0, 0};
    for (int i = 0; i < cnt; i++) {
        long long nt = nts[i];
        full_reference(o, &b, &p.g, nt, 1);
        full_verify_all(o, FIG5_CHECKED, 2, &p, &b, nt);
        for (int k = 0; k < 3; k++) {
            const full_impl *m = &FIG5_IMPLS[k];
            full_job j = full_job_of(o, m, &p, &b, nt, 0);
            bench_stats st = full_time(o, &j, &d), tot = st; /* cpu: total = kernel time */
            if (m->kind != FULL_CPU_TUNED) {
                full_job jt = full_job_of(o, m, &p, &b, nt, 1);
                tot = full_time(o, &jt, &d);
            }
            if (i == 0) { t1[k] = st.median * nt; t1tot[k] = tot.median * nt; }
            double per = st.median / nt;
            datfile_row(&d, "%s %lld %lld %.6f %.6f %.6f %.8f %.3f %.6f %.6f %.6f %.3f %d", m->name, nt, p.g.size,
                        st.median, st.min, st.max, per, t1[k] / per, tot.median, tot.min, tot.max,
                        t1tot[k] / (tot.median / nt), st.batch);
            fprintf(stderr, "fig %s %-10s Nt=%5lld  t=%9.4f ms  t/Nt=%9.6f ms  speedup %6.1fx  with transfers %9.4f ms\n",
                    s->fig, m->name, nt, st.median, per, t1[k] / per, tot.median);
            last[k] = st.median;
        }
    }
    datfile_meta(&d, "result", "at Nt=%lld: gpu_fused %.1fx faster than cpu_tuned (%d threads), gpu_thesis %.2fx (kernel time)",
                 nts[cnt - 1], last[0] / last[2], o->threads, last[0] / last[1]);
    fprintf(stderr, "fig %s at Nt=%lld: gpu_fused is %.1fx the cpu_tuned speed, gpu_thesis %.2fx\n", s->fig,
            nts[cnt - 1], last[0] / last[2], last[0] / last[1]);
    datfile_commit(&d);
    full_plans_free(&p);
    batch_free(&b);
    return 0;
}

static int exp_fig5_1(void *o) { return fig5_run((sg_opts *)o, &FIG5[0]); }
static int exp_fig5_2(void *o) { return fig5_run((sg_opts *)o, &FIG5[1]); }
static int exp_fig5_3(void *o) { return fig5_run((sg_opts *)o, &FIG5[2]); }

/* ------------------------------------------------------------ bandwidth beyond the L2 */

/* Largest tile set of the bandwidth and tune figures: 2^maxlog bytes (1 GiB; quick 64 MiB). */
static int big_log2(const sg_opts *o) { return o->c.quick ? 26 : 30; }
/* Tiles of a shape in about 2^lg bytes (rounded up). */
static long long tiles_in(int lg, const sg_geom *g) { return (((long long)1 << lg) + g->size * 4 - 1) / (g->size * 4); }

/* A configuration of gpu_fused_pipelined: threads per block, about this many floats per group,
 * stages (shared buffers), staged 16-byte stores (sg_fused.vstore). */
typedef struct {
    int threads, target_floats, stages, staged;
} pipe_config;

/* Sets q up for configuration k on shape g; returns 0, or -1 when it does not fit. */
static int pipe_setup(const sg_opts *o, sg_fused *q, const sg_geom *g, pipe_config k)
{
    if (sg_fused_setup_ex(q, g, o->tpb, o->c.device, SG_VARIANT_PIPELINED, k.target_floats, k.threads, k.stages)) return -1;
    q->vstore = k.staged;
    return 0;
}

/* The candidates of plan_pipelined: the default (SG_PIPE_*) first, 2 stages each. */
static const pipe_config PLAN_CANDIDATES[7] = {
    {SG_PIPE_THREADS, SG_PIPE_TARGET_FLOATS, SG_PIPE_STAGES, SG_PIPE_VSTORE},
    {256, 8192, 2, 0}, {128, 8192, 2, 0}, {256, 4096, 2, 0}, {256, 8192, 2, 1}, {128, 8192, 2, 1}, {256, 4096, 2, 1},
};

/* gpu_fused_pipelined's plan for one tile shape, by measurement (as FFT libraries plan): the
 * fastest PLAN_CANDIDATES configuration on the nt tiles of b (references ready: full_reference),
 * each verified bitwise first; --exp=tune shows the whole space.  The choice goes into p's
 * pipelined plan, its description into desc. */
static void plan_pipelined(const sg_opts *o, full_plans *p, const batch *b, long long nt, char *desc, size_t dlen)
{
    static const full_impl PIPE = {"gpu_fused_pipelined plan", FULL_GPU_FUSED, SG_VARIANT_PIPELINED, 0};
    sg_fused *best = &p->fused[SG_VARIANT_PIPELINED];
    double best_ms = 1e30;
    int tried = 0;
    for (int k = 0; k < 7; k++) {
        const pipe_config *c = &PLAN_CANDIDATES[k];
        if (k > 0 && !memcmp(c, &PLAN_CANDIDATES[0], sizeof *c)) continue; /* the default again */
        sg_fused q;
        if (pipe_setup(o, &q, &p->g, *c)) continue;
        full_job j = full_job_of(o, &PIPE, p, b, nt, 0);
        j.fused = &q;
        snprintf(j.io.label, sizeof j.io.label, "gpu_fused_pipelined plan (%d threads, %d tiles per group, stores %s), Nt=%lld",
                 q.threads, q.tpb, q.vstore ? "staged" : "direct", nt);
        bench_stats st = full_time(o, &j, NULL);
        tried++;
        fprintf(stderr, "plan %lld points x %lld tiles: %3d threads, %2d tiles per group, stores %s: %.4f ms\n", p->g.size,
                nt, q.threads, q.tpb, q.vstore ? "staged" : "direct", st.median);
        if (st.median < best_ms) {
            if (tried > 1) sg_fused_free(best);
            *best = q;
            best_ms = st.median;
        } else {
            sg_fused_free(&q);
        }
    }
    if (!tried) DIE("gpu_fused_pipelined: no configuration fits this device");
    snprintf(desc, dlen, "%d threads, %d tiles per group, %d stages, %s stores, %zu bytes shared memory, %d blocks per SM "
             "resident (persistent grid); the fastest of %d verified configurations at Nt=%lld", best->threads, best->tpb,
             best->stages, best->vstore ? "staged 16-byte" : "direct", sg_fused_smem(best, best->tpb, 0), best->occ, tried, nt);
}

/* The rows of the bandwidth figure, in this order for every shape and size. */
static const full_impl BANDWIDTH_IMPLS[8] = {
    {"copy", FULL_COPY, 0, 0},
    {"gpu_fused", FULL_GPU_FUSED, SG_VARIANT_LINES, 0},
    {"gpu_fused_inverse", FULL_GPU_FUSED, SG_VARIANT_LINES, 1},
    {"gpu_fused_points", FULL_GPU_FUSED, SG_VARIANT_POINTS, 0},
    {"gpu_fused_pipelined", FULL_GPU_FUSED, SG_VARIANT_PIPELINED, 0},
    {"gpu_fused_pipelined_inverse", FULL_GPU_FUSED, SG_VARIANT_PIPELINED, 1},
    {"gpu_thesis", FULL_GPU_THESIS, 0, 0},
    {"cpu_tuned", FULL_CPU_TUNED, 0, 0},
};
/* Checked at every size, not timed. */
static const full_impl BANDWIDTH_CHECKED[2] = {
    {"gpu_fused_points_inverse", FULL_GPU_FUSED, SG_VARIANT_POINTS, 1},
    {"gpu_thesis_inverse", FULL_GPU_THESIS, 0, 1},
};

/* Opens the data file of a GB/s figure (bandwidth, layout): the program's metadata, the L2
 * size that beyond_l2 compares with, and the CPU rows (cpu_impls) with their threads and ISA. */
static void gbs_open(const sg_opts *o, datfile *d, const char *figure, const char *file, int l2, const char *cpu_impls)
{
    dat_meta m = sg_meta(o, figure);
    datfile_open(d, o->c.out, file, &m);
    datfile_meta(d, "l2_bytes", "%d", l2);
    datfile_meta(d, "cpu", "%s on %d OpenMP threads, %s", cpu_impls, o->threads, sg_cpu_isa());
}

static void bandwidth_open(const sg_opts *o, datfile *d, int l2)
{
    gbs_open(o, d, "beyond the thesis: large Nt, GB/s vs a copy of the same bytes", "sparsegrid_figx1_bandwidth.dat", l2,
             "cpu_tuned");
    datfile_meta(d, "columns", "bytes_moved = 2 * Nt * tile bytes (read + write once); gbs = bytes_moved / median; "
                               "pct_copy = gbs / gbs of the copy kernel at the same size (same run); beyond_l2 = "
                               "bytes_moved > L2 size");
    datfile_columns(d, "shape impl nt bytes_moved median_ms min_ms max_ms gbs pct_copy beyond_l2 batch pct_triad");
}

/* The three shapes from 1 MiB up to >= 1 GiB of tiles: GB/s (read + write once) of every
 * implementation against the copy kernel of the same bytes in the same run. */
static int exp_bandwidth(void *opts)
{
    sg_opts *o = (sg_opts *)opts;
    sg_use_gpu(o);
    int maxlog = big_log2(o), l2 = l2_bytes(o);
    batch b;
    batch_alloc(&b, ((size_t)1 << maxlog) + (size_t)4 * 2025 * 4, sizeof(float), 0, o->c.seed);
    datfile d;
    bandwidth_open(o, &d, l2);
    sg_triad_meta(o, &d);
    for (int s = 0; s < 3; s++) {
        full_plans p;
        full_plans_setup(o, &p, THESIS_SHAPES[s], SG_VARIANT_LINES);
        if (sg_fused_setup(&p.fused[SG_VARIANT_POINTS], &p.g, o->tpb, o->c.device, SG_VARIANT_POINTS))
            DIE("cannot plan %s", THESIS_SHAPES[s]);
        char plan[300];
        long long nt_big = tiles_in(maxlog, &p.g);
        full_reference(o, &b, &p.g, nt_big, 0);
        plan_pipelined(o, &p, &b, nt_big, plan, sizeof plan);
        datfile_meta(&d, "fused", "%s: gpu_fused %d tiles per block, %d threads; gpu_fused_pipelined %s", THESIS_SHAPES[s],
                     p.fused[SG_VARIANT_LINES].tpb, p.fused[SG_VARIANT_LINES].threads, plan);
        double big_pct = 0, big_pct_pipe = 0;
        for (int lg = 20; lg <= maxlog; lg += 2) {
            long long nt = tiles_in(lg, &p.g);
            double moved = 2.0 * nt * p.g.size * 4, copy_gbs = 0;
            full_reference(o, &b, &p.g, nt, 0);
            full_verify_all(o, BANDWIDTH_CHECKED, 2, &p, &b, nt);
            for (int k = 0; k < 8; k++) {
                const full_impl *m = &BANDWIDTH_IMPLS[k];
                full_job j = full_job_of(o, m, &p, &b, nt, 0);
                bench_stats st = full_time(o, &j, &d);
                double gbs = gbs_of(moved, st.median);
                if (m->kind == FULL_COPY) copy_gbs = gbs;
                char pt[32] = "-";
                if (m->kind == FULL_CPU_TUNED) snprintf(pt, sizeof pt, "%.1f", 100 * gbs / o->triad);
                datfile_row(&d, "%s %s %lld %.0f %.6f %.6f %.6f %.1f %.1f %d %d %s", THESIS_SHAPES[s], m->name, nt, moved,
                            st.median, st.min, st.max, gbs, 100 * gbs / copy_gbs, moved > l2, st.batch, pt);
                fprintf(stderr, "bandwidth %-8s %-27s Nt=%8lld %8.1f MB  %9.4f ms  %7.1f GB/s  %5.1f%% of copy%s\n",
                        THESIS_SHAPES[s], m->name, nt, moved / 1e6, st.median, gbs, 100 * gbs / copy_gbs,
                        moved > l2 ? "" : "  (fits in L2)");
                if (!strcmp(m->name, "gpu_fused")) big_pct = 100 * gbs / copy_gbs;
                if (!strcmp(m->name, "gpu_fused_pipelined")) big_pct_pipe = 100 * gbs / copy_gbs;
            }
        }
        datfile_meta(&d, "result", "%s: at the largest Nt gpu_fused reaches %.1f%%, gpu_fused_pipelined %.1f%% of the copy kernel",
                     THESIS_SHAPES[s], big_pct, big_pct_pipe);
        full_plans_free(&p);
    }
    datfile_commit(&d);
    batch_free(&b);
    return 0;
}

/* ------------------------------------------- tuning of the pipelined kernel (>= 1 GiB) */

/* The space of --exp=tune: threads x floats per group x (stages, store mode); QUICK: the
 * default threads and floats with each of the three modes. */
static const int TUNE_THREADS[2] = {128, 256};
static const int TUNE_FLOATS[3] = {2048, 4096, 8192};
static const struct { int stages, staged; } TUNE_MODES[3] = {{2, 0}, {2, 1}, {3, 0}};

static void tune_open(const sg_opts *o, datfile *d)
{
    dat_meta m = sg_meta(o, "beyond the thesis: tuning of gpu_fused_pipelined at >= 1 GiB of tiles");
    datfile_open(d, o->c.out, "sparsegrid_figx3_tune.dat", &m);
    datfile_meta(d, "defaults", "gpu_fused_pipelined: %d threads, about %d floats per group, %d stages, %s stores",
                 SG_PIPE_THREADS, SG_PIPE_TARGET_FLOATS, SG_PIPE_STAGES, SG_PIPE_VSTORE ? "staged" : "direct");
    datfile_meta(d, "columns", "threads per block, tiles_per_group (floats ~ target_floats), stages (shared buffers), "
                               "staged (1: the group stored from shared memory with 16-byte stores, 0: the last "
                               "pass stores from registers), smem_bytes per block, blocks_per_sm resident (grid = that x SMs, persistent; copy and "
                               "gpu_fused: 0), gbs = bytes_moved / median (read + write once), pct_copy vs the copy "
                               "kernel of the same bytes; inv_*: dehierarchization");
    datfile_columns(d, "shape impl threads target_floats tiles_per_group stages staged smem_bytes blocks_per_sm nt bytes_moved "
                       "median_ms gbs pct_copy inv_median_ms inv_gbs inv_pct_copy batch");
}

/* One row of the tune figure: plan f (gpu_fused, or a pipelined configuration c) timed in both
 * directions, each verified first. */
static void tune_row(const sg_opts *o, datfile *d, const char *shape, full_plans *p, const sg_fused *f,
                     const pipe_config *c, const batch *b, long long nt, double copy_gbs)
{
    const char *name = c ? "gpu_fused_pipelined" : "gpu_fused";
    double moved = 2.0 * b->n * sizeof(float);
    bench_stats st[2];
    for (int inv = 0; inv < 2; inv++) {
        full_impl m = {name, FULL_GPU_FUSED, SG_VARIANT_LINES, inv};
        full_job j = full_job_of(o, &m, p, b, nt, 0);
        j.fused = f;
        snprintf(j.io.label, sizeof j.io.label, "%s %s (%d threads, %d tiles per group, %d stages, staged %d) %s", name,
                 shape, f->threads, f->tpb, c ? f->stages : 1, c ? c->staged : 0,
                 inv ? "dehierarchization" : "hierarchization");
        st[inv] = full_time(o, &j, d);
    }
    double gbs = gbs_of(moved, st[0].median), igbs = gbs_of(moved, st[1].median);
    int staged = c ? c->staged : 0;
    datfile_row(d, "%s %s %d %d %d %d %d %zu %d %lld %.0f %.6f %.1f %.1f %.6f %.1f %.1f %d", shape, name, f->threads,
                c ? c->target_floats : 0, f->tpb, c ? f->stages : 1, staged, sg_fused_smem(f, f->tpb, 0), c ? f->occ : 0,
                nt, moved, st[0].median, gbs, 100 * gbs / copy_gbs, st[1].median, igbs, 100 * igbs / copy_gbs, st[0].batch);
    fprintf(stderr, "tune %-8s %-20s threads %3d tiles/group %3d stages %d staged %d blocks/SM %2d: %7.1f GB/s %5.1f%% | "
            "inverse %7.1f GB/s %5.1f%% of copy (%.1f GB/s)\n", shape, name, f->threads, f->tpb, c ? f->stages : 1, staged,
            c ? f->occ : 0, gbs, 100 * gbs / copy_gbs, igbs, 100 * igbs / copy_gbs, copy_gbs);
}

/* For each shape, at about 1 GiB of tiles (quick: 64 MiB; --nt-max: that Nt): the copy kernel
 * and gpu_fused as references, then gpu_fused_pipelined over threads per block x floats per
 * group x stages; every configuration verified bitwise (both directions) against the CPU
 * before it is timed.  The defaults SG_PIPE_* come from this sweep. */
static int exp_tune(void *opts)
{
    static const full_impl COPY = {"copy", FULL_COPY, 0, 0};
    sg_opts *o = (sg_opts *)opts;
    sg_use_gpu(o);
    int maxlog = big_log2(o);
    size_t cap = o->nt_max ? (size_t)o->nt_max * 2025 * 4 : ((size_t)1 << maxlog) + (size_t)4 * 2025 * 4;
    batch b;
    batch_alloc(&b, cap, sizeof(float), 0, o->c.seed);
    datfile d;
    tune_open(o, &d);
    for (int s = 0; s < 3; s++) {
        const char *shape = THESIS_SHAPES[s];
        full_plans p;
        full_plans_setup(o, &p, shape, SG_VARIANT_LINES);
        long long nt = o->nt_max ? o->nt_max : tiles_in(maxlog, &p.g);
        double moved = 2.0 * nt * p.g.size * sizeof(float);
        full_reference(o, &b, &p.g, nt, 0);
        full_job cj = full_job_of(o, &COPY, &p, &b, nt, 0);
        bench_stats cs = full_time(o, &cj, &d);
        double copy_gbs = gbs_of(moved, cs.median);
        datfile_row(&d, "%s copy 0 0 0 0 0 0 0 %lld %.0f %.6f %.1f 100.0 %.6f %.1f 100.0 %d", shape, nt, moved, cs.median,
                    copy_gbs, cs.median, copy_gbs, cs.batch);
        tune_row(o, &d, shape, &p, &p.fused[SG_VARIANT_LINES], NULL, &b, nt, copy_gbs);
        for (int t = 0; t < (o->c.quick ? 1 : 2); t++)
            for (int f = 0; f < (o->c.quick ? 1 : 3); f++)
                for (int k = 0; k < 3; k++) {
                    pipe_config c = {o->c.quick ? SG_PIPE_THREADS : TUNE_THREADS[t],
                                     o->c.quick ? SG_PIPE_TARGET_FLOATS : TUNE_FLOATS[f], TUNE_MODES[k].stages,
                                     TUNE_MODES[k].staged};
                    sg_fused q;
                    if (pipe_setup(o, &q, &p.g, c)) {
                        fprintf(stderr, "tune %s: %d threads, %d floats, %d stages do not fit\n", shape, c.threads,
                                c.target_floats, c.stages);
                        continue;
                    }
                    q.max_blocks = o->max_blocks;
                    tune_row(o, &d, shape, &p, &q, &c, &b, nt, copy_gbs);
                    sg_fused_free(&q);
                }
        full_plans_free(&p);
    }
    datfile_commit(&d);
    batch_free(&b);
    return 0;
}

#endif
