/* sparsegrid/sparsegrid.cu -- the thesis's experiments (chapter 5) and ours beyond it.
 *
 *   --fig=5.1        33x33 tiles, Nt = 1..7000      -> sparsegrid_fig5_1_2d.dat
 *   --fig=5.2        9x9x9 tiles, Nt = 1..2500      -> sparsegrid_fig5_2_3d.dat
 *   --fig=5.3        9x9x5x5 tiles, Nt = 1..600     -> sparsegrid_fig5_3_4d.dat
 *        per implementation (cpu_tuned = version A, gpu_thesis = version B, gpu_fused =
 *        ours): t for all tiles, t/Nt, speedup t(1)/(t/Nt) (thesis 5.1, quantities 1-3),
 *        kernel time and total time with host<->device transfers (pinned memory).
 *   --fig=bandwidth  the three shapes up to >= 1 GiB of tiles: GB/s (read + write) of each
 *        implementation against a copy kernel of the same bytes in the same run
 *                                                   -> sparsegrid_figx1_bandwidth.dat
 *        (gpu_fused_pipelined planned per shape by measurement: plan_pipelined)
 *   --fig=tune       gpu_fused_pipelined at >= 1 GiB over threads x floats per group x
 *        (stages, staged stores), both directions       -> sparsegrid_figx3_tune.dat
 *   --fig=error      (host only, no GPU) the thesis's future work: the regular sparse grid
 *        kept from the hierarchized full grid, interpolation error vs number of points
 *                                                   -> sparsegrid_figx2_error.dat
 *   --fig=sparse     real regular sparse grids (sparse.h, sparse_kernels.cuh), d = 2..6,
 *        batched, --precision=float|double: GB/s of cpu_tuned and gpu_sparse (3 block
 *        sizes, both directions; k_sparse_multi of sparse_multi.cuh: G grids per block, U
 *        table entries in flight, rows gpu_sparse_multi_g<G>_u<U>) vs the copy kernel and
 *        the host triad
 *                                                   -> sparsegrid_figx4_sparse_<precision>.dat
 *   --fig=sparse-error  (host only) error vs points of real sparse grids and full grids,
 *        d = 2..5, with fitted rates                -> sparsegrid_figx5_sparse_error.dat
 *   --fig=layout     thesis Fig. 2.9: the three tile shapes hierarchized in place (plain
 *        layout) vs straight into / within / out of subspace order (k_sparse, cpu_shift)
 *                                                   -> sparsegrid_figx7_layout.dat
 *   --fig=progressive  (host only) thesis Fig. 2.5: a full grid sent subspace by subspace
 *        (coarse to fine), error vs bytes received, pictures at three stages
 *                            -> sparsegrid_figx6_progressive.dat, ..._progressive_pictures.dat
 * Every configuration is verified before it is timed: the tuned CPU result equals the
 * float scalar reference bitwise (and the double reference within 1e-5), both GPU versions
 * equal the CPU bitwise (outputs poisoned with NaN first), and dehierarchization (fused
 * and thesis-style) equals the CPU's bitwise and returns the input within 4e-6 |u|max. */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/verify.h"
#include "hierarchize.h"
#include "kernels.cuh"
#include "sparse.h"
#include "sparse_kernels.cuh"
#include "sparse_multi.cuh"
#include "../common/host.h"

#define ROUNDTRIP_TOL 4e-6 /* fp32 round trip error / |u|max (tests/host/test_sparsegrid_hier.c) */

static uint32_t mix32(uint64_t x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return (uint32_t)x;
}
/* Input value i for a seed: uniform in [-1, 1), independent of the thread count. */
static void fill_input(float *h, long long n, long long seed)
{
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; i++)
        h[i] = (float)(mix32((uint64_t)seed * 0x9E3779B97F4A7C15ULL + (uint64_t)i) >> 8) / 8388608.0f - 1.0f;
}

typedef struct {
    const sg_geom *g;
    sg_b *b;
    sg_fused *f;
    const float *d_in;
    float *d_out;
    const float *h_in;
    float *h_out;
    long long nt;
    int inverse, threads;
} run_ctx;

static void run_cpu(void *p)
{
    run_ctx *c = (run_ctx *)p;
    if (sg_cpu_tuned(c->h_in, c->h_out, c->nt, c->g, c->inverse, c->threads)) DIE("out of host memory");
}
static void run_b(void *p, cudaStream_t s)
{
    run_ctx *c = (run_ctx *)p;
    sg_b_run(c->b, c->d_in, c->d_out, c->nt, c->inverse, s);
}
static void run_fused(void *p, cudaStream_t s)
{
    run_ctx *c = (run_ctx *)p;
    sg_fused_run(c->f, c->d_in, c->d_out, c->nt, c->inverse, s);
}
static void run_copy(void *p, cudaStream_t s)
{
    run_ctx *c = (run_ctx *)p;
    k_copy<<<GRID_STRIDE_BLOCKS(8), 256, 0, s>>>(c->d_in, c->d_out, c->nt * c->g->size);
    CHECK_LAUNCH();
}
/* upload, transform, download (the thesis's version B includes the transfers) */
static void run_total(void *p, cudaStream_t s, bench_gpu_fn kernel)
{
    run_ctx *c = (run_ctx *)p;
    size_t bytes = sizeof(float) * c->nt * c->g->size;
    CHECK_CUDA(cudaMemcpyAsync((void *)c->d_in, c->h_in, bytes, cudaMemcpyHostToDevice, s));
    kernel(p, s);
    CHECK_CUDA(cudaMemcpyAsync(c->h_out, c->d_out, bytes, cudaMemcpyDeviceToHost, s));
}
static void run_b_total(void *p, cudaStream_t s) { run_total(p, s, run_b); }
static void run_fused_total(void *p, cudaStream_t s) { run_total(p, s, run_fused); }

typedef struct {
    int threads, tpb, max_blocks;
    int sparse_d; /* --fig=sparse: only this d (0: 2..6) */
    common_opts c;
    long long nt_max;
    datfile *d;
    cudaStream_t s;
    char gpu[256];
} env;

static void fail(env *e, const char *what)
{
    datfile_discard(e->d);
    DIE("verification failed: %s", what);
}

/* One direction of the GPU check: version B and every fused variant transform d_src into a
 * poisoned (NaN) d_dst, and each result must equal the CPU's ref bitwise. */
static void verify_gpu_direction(env *e, sg_b *b, sg_fused *const *fv, const char *const *fnames, int nf,
                                 long long nt, const float *d_src, float *d_dst, int inverse, const float *ref,
                                 float *h_gpu, long long n)
{
    size_t bytes = sizeof(float) * n;
    char what[160];
    for (int impl = 0; impl <= nf; impl++) { /* the last leaves its result in d_dst */
        CHECK_CUDA(cudaMemset(d_dst, 0xFF, bytes)); /* poison: NaN */
        if (impl == 0) sg_b_run(b, d_src, d_dst, nt, inverse, e->s);
        else sg_fused_run(fv[impl - 1], d_src, d_dst, nt, inverse, e->s);
        CHECK_CUDA(cudaStreamSynchronize(e->s));
        CHECK_CUDA(cudaMemcpy(h_gpu, d_dst, bytes, cudaMemcpyDeviceToHost));
        snprintf(what, sizeof what, "%s %s, Nt=%lld", impl ? fnames[impl - 1] : "gpu_thesis",
                 inverse ? "dehierarchization" : "hierarchization", nt);
        if (verify_exact(h_gpu, ref, n, sizeof(float), what)) fail(e, what);
    }
}

/* The correctness run of one configuration: CPU tuned vs references, version B and the nf
 * fused variants fv[] (names fnames[]; both directions) vs the CPU.  h_cpu receives the
 * CPU hierarchization of h_in, d_out the GPU's (of the last variant). */
static void verify_config(env *e, const sg_geom *g, sg_b *b, sg_fused *const *fv, const char *const *fnames, int nf,
                          long long nt, const float *h_in, float *h_cpu, float *h_tmp, float *h_gpu, float *d_in,
                          float *d_out, float *d_back, int full_ref)
{
    long long n = nt * g->size;
    size_t bytes = sizeof(float) * n;
    if (sg_cpu_tuned(h_in, h_cpu, nt, g, 0, e->threads)) DIE("out of host memory");
    if (full_ref) { /* every tile against the scalar float reference; tile 0 against double */
        float *t = (float *)malloc(sizeof(float) * g->size);
        double *td = (double *)malloc(sizeof(double) * g->size);
        if (!t || !td) DIE("out of host memory");
        for (long long i = 0; i < nt; i++) {
            memcpy(t, h_in + i * g->size, sizeof(float) * g->size);
            sg_ref_tile_f(t, g, 0);
            if (memcmp(t, h_cpu + i * g->size, sizeof(float) * g->size)) fail(e, "cpu tuned != float reference");
        }
        double maxc = 0, err = 0;
        for (long long r = 0; r < g->size; r++) td[r] = h_in[r];
        sg_ref_tile_d(td, g, 0);
        for (long long r = 0; r < g->size; r++) maxc = fmax(maxc, fabs(td[r]));
        for (long long r = 0; r < g->size; r++) err = fmax(err, fabs(td[r] - h_cpu[r]));
        if (err > 1e-5 * maxc) fail(e, "cpu tuned differs from the double reference by more than 1e-5 |c|max");
        free(t);
        free(td);
    }
    CHECK_CUDA(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    verify_gpu_direction(e, b, fv, fnames, nf, nt, d_in, d_out, 0, h_cpu, h_gpu, n); /* surpluses left in d_out */
    /* dehierarchization of the surpluses: bitwise vs the CPU, and back to the input */
    if (sg_cpu_tuned(h_cpu, h_tmp, nt, g, 1, e->threads)) DIE("out of host memory");
    double maxu = 0, err = 0;
#pragma omp parallel for reduction(max : maxu, err)
    for (long long i = 0; i < n; i++) {
        maxu = fmax(maxu, fabs(h_in[i]));
        err = fmax(err, fabs(h_tmp[i] - h_in[i]));
    }
    if (err > ROUNDTRIP_TOL * maxu) fail(e, "round trip dehierarchize(hierarchize(u)) != u");
    verify_gpu_direction(e, b, fv, fnames, nf, nt, d_out, d_back, 1, h_tmp, h_gpu, n);
}

static void note_spread(env *e, const char *label, bench_stats st)
{
    if (bench_warn_spread(label, st)) datfile_meta(e->d, "warning", "spread %.0f%% for %s", 100 * bench_spread(st), label);
}

/* ------------------------------------------------------------------ Figs. 5.1 - 5.3 */
static void fig5(env *e, const char *figname, const char *dims, const long long *nts, int cnt, const char *file,
                 int argc, char **argv)
{
    sg_geom g;
    char err[200];
    if (sg_parse_dims(dims, &g, err, sizeof err)) DIE("%s", err);
    long long ntmax = 0;
    for (int i = 0; i < cnt; i++) ntmax = nts[i] > ntmax ? nts[i] : ntmax;
    size_t bytes = sizeof(float) * ntmax * g.size;
    sg_b b;
    sg_fused f;
    if (sg_b_setup(&b, &g)) DIE("version B cannot plan %s", dims);
    if (sg_fused_setup(&f, &g, e->tpb, e->c.device, 0)) DIE("fused: tile %s does not fit in shared memory", dims);
    float *h_in, *h_gpu, *h_cpu = (float *)malloc(bytes), *h_tmp = (float *)malloc(bytes), *h_cpu_t = (float *)malloc(bytes);
    if (!h_cpu || !h_tmp || !h_cpu_t) DIE("out of host memory");
    CHECK_CUDA(cudaMallocHost(&h_in, bytes));
    CHECK_CUDA(cudaMallocHost(&h_gpu, bytes));
    size_t span = (bytes + 255) / 256 * 64; /* floats per buffer, 256-byte aligned */
    float *d_in = (float *)device_alloc_or_usage(3 * span * sizeof(float), "three tile buffers");
    float *d_out = d_in + span, *d_back = d_out + span;
    fill_input(h_in, ntmax * g.size, e->c.seed);

    char figure[200];
    snprintf(figure, sizeof figure, "Fig. %s of the thesis (tiles %s)", figname, dims);
    dat_meta m = dat_meta_of("sparsegrid", figure, argc, argv, e->gpu, &e->c);
    datfile d;
    e->d = &d;
    datfile_open(&d, e->c.out, file, &m);
    datfile_meta(&d, "tile", "%s (%lld points, %lld bytes)", dims, g.size, g.size * 4);
    datfile_meta(&d, "cpu", "cpu_tuned on %d OpenMP threads (omp_get_num_procs %d)", e->threads, omp_get_num_procs());
    datfile_meta(&d, "fused", "%s, up to %d tiles per block (fewer while Nt < %d blocks per SM), %d threads, %zu bytes shared memory",
                 f.lines ? "k_fused_lines" : "point kernels", f.tpb, SG_FUSED_MIN_BLOCKS_PER_SM, SG_FUSED_THREADS,
                 sg_fused_smem(&f, f.tpb, 0));
    datfile_meta(&d, "columns", "median_ms/min_ms/max_ms: hierarchization of all Nt tiles, on the device (kernel time) "
                                "or in host memory (cpu); per_tile_ms = median/Nt; speedup_x = t(1)/(t/Nt); total_*: "
                                "with upload and download (pinned host memory; cpu: = kernel time)");
    datfile_meta(&d, "cache", "the largest Nt moves %.1f MB (read + write): data may sit in the L2 cache", 2.0 * bytes / 1e6);
    datfile_columns(&d, "impl nt tile_points median_ms min_ms max_ms per_tile_ms speedup_x total_ms total_min_ms "
                        "total_max_ms total_speedup_x batch");
    const char *names[3] = {"cpu_tuned", "gpu_thesis", "gpu_fused"};
    double t1[3] = {0, 0, 0}, t1tot[3] = {0, 0, 0}, last[3] = {0, 0, 0};
    for (int i = 0; i < cnt; i++) {
        long long nt = nts[i];
        sg_fused *fv[1] = {&f};
        const char *fn[1] = {"gpu_fused"};
        verify_config(e, &g, &b, fv, fn, 1, nt, h_in, h_cpu, h_tmp, h_gpu, d_in, d_out, d_back, 1);
        run_ctx x = {&g, &b, &f, d_in, d_out, h_in, h_cpu_t, nt, 0, e->threads};
        for (int impl = 0; impl < 3; impl++) {
            bench_stats st, tot;
            char label[96];
            snprintf(label, sizeof label, "%s Nt=%lld", names[impl], nt);
            if (impl == 0) {
                x.h_out = h_cpu_t;
                st = bench_host(run_cpu, &x, e->c.warmup, e->c.reps, e->c.batch);
                tot = st;
            } else {
                x.h_out = h_gpu;
                st = bench_gpu(impl == 1 ? run_b : run_fused, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
                tot = bench_gpu(impl == 1 ? run_b_total : run_fused_total, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
            }
            note_spread(e, label, st);
            if (i == 0) { t1[impl] = st.median * nt; t1tot[impl] = tot.median * nt; }
            double per = st.median / nt;
            datfile_row(&d, "%s %lld %lld %.6f %.6f %.6f %.8f %.3f %.6f %.6f %.6f %.3f %d", names[impl], nt, g.size,
                        st.median, st.min, st.max, per, t1[impl] / per, tot.median, tot.min, tot.max,
                        t1tot[impl] / (tot.median / nt), st.batch);
            fprintf(stderr, "fig %s %-10s Nt=%5lld  t=%9.4f ms  t/Nt=%9.6f ms  speedup %6.1fx  with transfers %9.4f ms\n",
                    figname, names[impl], nt, st.median, per, t1[impl] / per, tot.median);
            last[impl] = st.median;
        }
    }
    datfile_meta(&d, "result", "at Nt=%lld: gpu_fused %.1fx faster than cpu_tuned (%d threads), gpu_thesis %.2fx (kernel time)",
                 nts[cnt - 1], last[0] / last[2], e->threads, last[0] / last[1]);
    fprintf(stderr, "fig %s at Nt=%lld: gpu_fused is %.1fx the cpu_tuned speed, gpu_thesis %.2fx\n", figname,
            nts[cnt - 1], last[0] / last[2], last[0] / last[1]);
    datfile_commit(&d);
    sg_fused_free(&f);
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFreeHost(h_in));
    CHECK_CUDA(cudaFreeHost(h_gpu));
    free(h_cpu);
    free(h_tmp);
    free(h_cpu_t);
}

/* ------------------------------------------------------------ bandwidth beyond the L2 */

/* gpu_fused_pipelined's plan for one tile shape, by measurement (as FFT libraries plan):
 * the fastest of a few configurations (threads per block x floats per group x staged
 * stores; 2 stages) on
 * nt tiles, each verified bitwise against the CPU first.  The default (SG_PIPE_*) is the
 * first candidate; --fig=tune shows the whole space.  desc receives the choice. */
static void plan_pipelined(env *e, const sg_geom *g, sg_fused *best, long long nt, const float *h_in, float *h_cpu,
                           float *h_gpu, float *d_in, float *d_out, char *desc, size_t dlen)
{
    /* threads per block, floats per group, staged stores (sg_store); the default first */
    static const int cand[7][3] = {{SG_PIPE_THREADS, SG_PIPE_TARGET_FLOATS, SG_PIPE_VSTORE}, {256, 8192, 0}, {128, 8192, 0},
                                   {256, 4096, 0}, {256, 8192, 1}, {128, 8192, 1}, {256, 4096, 1}};
    long long n = nt * g->size;
    size_t bytes = sizeof(float) * n;
    char what[160];
    double best_ms = 1e30;
    int have = 0;
    if (sg_cpu_tuned(h_in, h_cpu, nt, g, 0, e->threads)) DIE("out of host memory");
    CHECK_CUDA(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    int tried = 0;
    for (int c = 0; c < 7; c++) {
        sg_fused q;
        if (c > 0 && cand[c][0] == cand[0][0] && cand[c][1] == cand[0][1] && cand[c][2] == cand[0][2]) continue;
        if (sg_fused_setup_ex(&q, g, e->tpb, e->c.device, SG_VARIANT_PIPELINED, cand[c][1], cand[c][0], SG_PIPE_STAGES))
            continue;
        q.vstore = cand[c][2];
        CHECK_CUDA(cudaMemset(d_out, 0xFF, bytes));
        sg_fused_run(&q, d_in, d_out, nt, 0, e->s);
        CHECK_CUDA(cudaStreamSynchronize(e->s));
        CHECK_CUDA(cudaMemcpy(h_gpu, d_out, bytes, cudaMemcpyDeviceToHost));
        snprintf(what, sizeof what, "gpu_fused_pipelined plan (%d threads, %d tiles per group, stores %s), Nt=%lld", q.threads,
                 q.tpb, q.vstore ? "staged" : "direct", nt);
        if (verify_exact(h_gpu, h_cpu, n, sizeof(float), what)) fail(e, what);
        run_ctx x = {g, NULL, &q, d_in, d_out, h_in, h_gpu, nt, 0, e->threads};
        bench_stats st = bench_gpu(run_fused, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
        tried++;
        fprintf(stderr, "plan %lld points x %lld tiles: %3d threads, %2d tiles per group, stores %s: %.4f ms\n", g->size, nt,
                q.threads, q.tpb, q.vstore ? "staged" : "direct", st.median);
        if (st.median < best_ms) {
            if (have) sg_fused_free(best);
            *best = q;
            best_ms = st.median;
            have = 1;
        } else {
            sg_fused_free(&q);
        }
    }
    if (!have) DIE("gpu_fused_pipelined: no configuration fits this device");
    snprintf(desc, dlen, "%d threads, %d tiles per group, %d stages, %s stores, %zu bytes shared memory, %d blocks per SM "
             "resident (persistent grid); the fastest of %d verified configurations at Nt=%lld", best->threads, best->tpb,
             best->stages, best->vstore ? "staged 16-byte" : "direct", sg_fused_smem(best, best->tpb, 0), best->occ, tried,
             nt);
}

static void fig_bandwidth(env *e, int argc, char **argv)
{
    const char *shapes[3] = {"33x33", "9x9x9", "9x9x5x5"};
    int maxlog = e->c.quick ? 26 : 30; /* largest tile set: 2^maxlog bytes (1 GiB; quick 64 MiB) */
    size_t cap = ((size_t)1 << maxlog) + (size_t)4 * 2025 * 4;
    float *h_in = (float *)malloc(cap), *h_cpu = (float *)malloc(cap), *h_tmp = (float *)malloc(cap),
          *h_gpu = (float *)malloc(cap);
    if (!h_in || !h_cpu || !h_tmp || !h_gpu) DIE("out of host memory");
    size_t span = (cap + 255) / 256 * 64; /* floats per buffer, 256-byte aligned */
    float *d_in = (float *)device_alloc_or_usage(3 * span * sizeof(float), "three tile buffers of 1 GiB");
    float *d_out = d_in + span, *d_back = d_out + span;
    fill_input(h_in, (long long)(cap / 4), e->c.seed);
    int l2 = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, e->c.device));

    dat_meta m = dat_meta_of("sparsegrid", "beyond the thesis: large Nt, GB/s vs a copy of the same bytes", argc, argv,
                             e->gpu, &e->c);
    datfile d;
    e->d = &d;
    datfile_open(&d, e->c.out, "sparsegrid_figx1_bandwidth.dat", &m);
    datfile_meta(&d, "l2_bytes", "%d", l2);
    datfile_meta(&d, "cpu", "cpu_tuned on %d OpenMP threads, %s", e->threads, sg_cpu_isa());
    datfile_meta(&d, "columns", "bytes_moved = 2 * Nt * tile bytes (read + write once); gbs = bytes_moved / median; "
                                "pct_copy = gbs / gbs of the copy kernel at the same size (same run); beyond_l2 = "
                                "bytes_moved > L2 size");
    datfile_columns(&d, "shape impl nt bytes_moved median_ms min_ms max_ms gbs pct_copy beyond_l2 batch");
    const char *names[8] = {"copy", "gpu_fused", "gpu_fused_inverse", "gpu_fused_points", "gpu_fused_pipelined",
                            "gpu_fused_pipelined_inverse", "gpu_thesis", "cpu_tuned"};
    for (int s = 0; s < 3; s++) {
        sg_geom g;
        char err[200];
        sg_parse_dims(shapes[s], &g, err, sizeof err);
        sg_b b;
        sg_fused f, fp, fq;
        memset(&fq, 0, sizeof fq);
        if (sg_b_setup(&b, &g) || sg_fused_setup(&f, &g, e->tpb, e->c.device, SG_VARIANT_LINES) ||
            sg_fused_setup(&fp, &g, e->tpb, e->c.device, SG_VARIANT_POINTS))
            DIE("cannot plan %s", shapes[s]);
        char plan[300];
        long long nt_big = (((long long)1 << maxlog) + g.size * 4 - 1) / (g.size * 4);
        plan_pipelined(e, &g, &fq, nt_big, h_in, h_cpu, h_gpu, d_in, d_out, plan, sizeof plan);
        datfile_meta(&d, "fused", "%s: gpu_fused %d tiles per block, %d threads; gpu_fused_pipelined %s", shapes[s], f.tpb,
                     f.threads, plan);
        double big_pct = 0, big_pct_pipe = 0;
        for (int lg = 20; lg <= maxlog; lg += 2) {
            long long nt = (((long long)1 << lg) + g.size * 4 - 1) / (g.size * 4);
            double moved = 2.0 * nt * g.size * 4;
            sg_fused *fv[3] = {&fp, &fq, &f};
            const char *fn[3] = {"gpu_fused_points", "gpu_fused_pipelined", "gpu_fused"};
            verify_config(e, &g, &b, fv, fn, 3, nt, h_in, h_cpu, h_tmp, h_gpu, d_in, d_out, d_back, 0);
            run_ctx x = {&g, &b, &f, d_in, d_out, h_in, h_tmp, nt, 0, e->threads};
            double copy_gbs = 0;
            for (int impl = 0; impl < 8; impl++) {
                bench_stats st;
                x.inverse = impl == 2 || impl == 5;
                x.d_in = x.inverse ? d_out : d_in; /* dehierarchize the surpluses */
                x.d_out = x.inverse ? d_back : d_out;
                x.f = impl == 3 ? &fp : (impl == 4 || impl == 5) ? &fq : &f;
                if (impl == 0) st = bench_gpu(run_copy, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
                else if (impl <= 5) st = bench_gpu(run_fused, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
                else if (impl == 6) st = bench_gpu(run_b, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
                else st = bench_host(run_cpu, &x, e->c.warmup, e->c.reps, e->c.batch);
                double gbs = moved / (st.median * 1e-3) / 1e9;
                if (impl == 0) copy_gbs = gbs;
                char label[96];
                snprintf(label, sizeof label, "%s %s Nt=%lld", shapes[s], names[impl], nt);
                note_spread(e, label, st);
                datfile_row(&d, "%s %s %lld %.0f %.6f %.6f %.6f %.1f %.1f %d %d", shapes[s], names[impl], nt, moved,
                            st.median, st.min, st.max, gbs, 100 * gbs / copy_gbs, moved > l2, st.batch);
                fprintf(stderr, "bandwidth %-8s %-27s Nt=%8lld %8.1f MB  %9.4f ms  %7.1f GB/s  %5.1f%% of copy%s\n",
                        shapes[s], names[impl], nt, moved / 1e6, st.median, gbs, 100 * gbs / copy_gbs,
                        moved > l2 ? "" : "  (fits in L2)");
                if (impl == 1) big_pct = 100 * gbs / copy_gbs;
                if (impl == 4) big_pct_pipe = 100 * gbs / copy_gbs;
            }
        }
        datfile_meta(&d, "result", "%s: at the largest Nt gpu_fused reaches %.1f%%, gpu_fused_pipelined %.1f%% of the copy kernel",
                     shapes[s], big_pct, big_pct_pipe);
        sg_fused_free(&f);
        sg_fused_free(&fp);
        sg_fused_free(&fq);
    }
    datfile_commit(&d);
    CHECK_CUDA(cudaFree(d_in));
    free(h_in);
    free(h_cpu);
    free(h_tmp);
    free(h_gpu);
}

/* ------------------------------------------- tuning of the pipelined kernel (>= 1 GiB) */

/* Time run_fused with x (its f, d_in, d_out, inverse set by the caller). */
static bench_stats time_fused(env *e, run_ctx *x) { return bench_gpu(run_fused, x, e->s, e->c.warmup, e->c.reps, e->c.batch); }

/* For each shape, at about 1 GiB of tiles (quick: 64 MiB; --nt-max: that Nt): the copy
 * kernel and gpu_fused as references, then gpu_fused_pipelined over threads per block x
 * floats per group x stages; every configuration verified bitwise (both directions)
 * against the CPU before it is timed.  The defaults SG_PIPE_* come from this sweep. */
static void fig_tune(env *e, int argc, char **argv)
{
    const char *shapes[3] = {"33x33", "9x9x9", "9x9x5x5"};
    /* threads x floats per group x (stages, staged stores): (2, direct), (2, staged), (3, direct) */
    const int threads_l[2] = {128, 256}, target_l[3] = {2048, 4096, 8192}, stages_l[3] = {2, 2, 3}, vstore_l[3] = {0, 1, 0};
    int maxlog = e->c.quick ? 26 : 30;
    size_t cap = ((size_t)1 << maxlog) + (size_t)4 * 2025 * 4;
    if (e->nt_max) cap = (size_t)e->nt_max * 2025 * 4;
    float *h_in = (float *)malloc(cap), *h_cpu = (float *)malloc(cap), *h_tmp = (float *)malloc(cap),
          *h_gpu = (float *)malloc(cap);
    if (!h_in || !h_cpu || !h_tmp || !h_gpu) DIE("out of host memory");
    size_t span = (cap + 255) / 256 * 64;
    float *d_in = (float *)device_alloc_or_usage(3 * span * sizeof(float), "three tile buffers of 1 GiB");
    float *d_out = d_in + span, *d_back = d_out + span;
    fill_input(h_in, (long long)(cap / 4), e->c.seed);

    dat_meta m = dat_meta_of("sparsegrid", "beyond the thesis: tuning of gpu_fused_pipelined at >= 1 GiB of tiles", argc,
                             argv, e->gpu, &e->c);
    datfile d;
    e->d = &d;
    datfile_open(&d, e->c.out, "sparsegrid_figx3_tune.dat", &m);
    datfile_meta(&d, "defaults", "gpu_fused_pipelined: %d threads, about %d floats per group, %d stages, %s stores",
                 SG_PIPE_THREADS, SG_PIPE_TARGET_FLOATS, SG_PIPE_STAGES, SG_PIPE_VSTORE ? "staged" : "direct");
    datfile_meta(&d, "columns", "threads per block, tiles_per_group (floats ~ target_floats), stages (shared buffers), "
                                "staged (1: the group stored from shared memory with 16-byte stores, 0: the last "
                                "pass stores from registers), smem_bytes per block, blocks_per_sm resident (grid = that x SMs, persistent; copy and "
                                "gpu_fused: 0), gbs = bytes_moved / median (read + write once), pct_copy vs the copy "
                                "kernel of the same bytes; inv_*: dehierarchization");
    datfile_columns(&d, "shape impl threads target_floats tiles_per_group stages staged smem_bytes blocks_per_sm nt bytes_moved "
                        "median_ms gbs pct_copy inv_median_ms inv_gbs inv_pct_copy batch");
    for (int s = 0; s < 3; s++) {
        sg_geom g;
        char err[200];
        sg_parse_dims(shapes[s], &g, err, sizeof err);
        long long nt = e->nt_max ? e->nt_max : (((long long)1 << maxlog) + g.size * 4 - 1) / (g.size * 4);
        long long n = nt * g.size;
        size_t bytes = sizeof(float) * n;
        double moved = 2.0 * bytes;
        sg_b b;
        sg_fused f;
        if (sg_b_setup(&b, &g) || sg_fused_setup(&f, &g, e->tpb, e->c.device, SG_VARIANT_LINES)) DIE("cannot plan %s", shapes[s]);
        sg_fused *fv[1] = {&f};
        const char *fn[1] = {"gpu_fused"};
        /* h_cpu: surpluses, h_tmp: their dehierarchization (CPU); d_out: the surpluses */
        verify_config(e, &g, &b, fv, fn, 1, nt, h_in, h_cpu, h_tmp, h_gpu, d_in, d_out, d_back, 0);
        run_ctx x = {&g, &b, &f, d_in, d_back, h_in, h_tmp, nt, 0, e->threads};
        bench_stats cs = bench_gpu(run_copy, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
        double copy_gbs = moved / (cs.median * 1e-3) / 1e9;
        datfile_row(&d, "%s copy 0 0 0 0 0 0 0 %lld %.0f %.6f %.1f 100.0 %.6f %.1f 100.0 %d", shapes[s], nt, moved, cs.median,
                    copy_gbs, cs.median, copy_gbs, cs.batch);
        int nconf = e->c.quick ? 3 : 18; /* quick: the default threads and floats with each of the 3 */
        for (int c = -1; c < nconf; c++) {
            sg_fused q;
            sg_fused *p = &f;
            int th = 0, tf = 0, stg = 0, vs = 0;
            if (c >= 0) {
                th = e->c.quick ? SG_PIPE_THREADS : threads_l[c / 9];
                tf = e->c.quick ? SG_PIPE_TARGET_FLOATS : target_l[(c / 3) % 3];
                stg = stages_l[c % 3];
                vs = vstore_l[c % 3];
                if (sg_fused_setup_ex(&q, &g, e->tpb, e->c.device, SG_VARIANT_PIPELINED, tf, th, stg)) {
                    fprintf(stderr, "tune %s: %d threads, %d floats, %d stages do not fit\n", shapes[s], th, tf, stg);
                    continue;
                }
                q.max_blocks = e->max_blocks;
                q.vstore = vs;
                p = &q;
                char what[160];
                snprintf(what, sizeof what, "gpu_fused_pipelined %s (%d threads, %d tiles per group, %d stages, staged %d) %s",
                         shapes[s], th, q.tpb, stg, vs, "hierarchization");
                for (int inv = 0; inv < 2; inv++) {
                    CHECK_CUDA(cudaMemset(d_back, 0xFF, bytes));
                    sg_fused_run(p, inv ? d_out : d_in, d_back, nt, inv, e->s);
                    CHECK_CUDA(cudaStreamSynchronize(e->s));
                    CHECK_CUDA(cudaMemcpy(h_gpu, d_back, bytes, cudaMemcpyDeviceToHost));
                    if (inv)
                        snprintf(what, sizeof what, "gpu_fused_pipelined %s (%d threads, %d tiles per group, %d stages, staged %d) %s",
                                 shapes[s], th, q.tpb, stg, vs, "dehierarchization");
                    if (verify_exact(h_gpu, inv ? h_tmp : h_cpu, n, sizeof(float), what)) fail(e, what);
                }
            }
            x.f = p;
            x.inverse = 0, x.d_in = d_in;
            bench_stats st = time_fused(e, &x);
            x.inverse = 1, x.d_in = d_out;
            bench_stats si = time_fused(e, &x);
            double gbs = moved / (st.median * 1e-3) / 1e9, igbs = moved / (si.median * 1e-3) / 1e9;
            char label[96];
            snprintf(label, sizeof label, "%s %s %d/%d/%d/%d", shapes[s], c < 0 ? "gpu_fused" : "pipelined", th, tf, stg, vs);
            note_spread(e, label, st);
            datfile_row(&d, "%s %s %d %d %d %d %d %zu %d %lld %.0f %.6f %.1f %.1f %.6f %.1f %.1f %d", shapes[s],
                        c < 0 ? "gpu_fused" : "gpu_fused_pipelined", p->threads, tf, p->tpb, c < 0 ? 1 : p->stages, vs,
                        sg_fused_smem(p, p->tpb, 0), c < 0 ? 0 : p->occ, nt, moved, st.median, gbs, 100 * gbs / copy_gbs,
                        si.median, igbs, 100 * igbs / copy_gbs, st.batch);
            fprintf(stderr, "tune %-8s %-20s threads %3d tiles/group %3d stages %d staged %d blocks/SM %2d: %7.1f GB/s %5.1f%% | inverse %7.1f GB/s %5.1f%% of copy (%.1f GB/s)\n",
                    shapes[s], c < 0 ? "gpu_fused" : "gpu_fused_pipelined", p->threads, p->tpb, c < 0 ? 1 : p->stages, vs,
                    c < 0 ? 0 : p->occ, gbs, 100 * gbs / copy_gbs, igbs, 100 * igbs / copy_gbs, copy_gbs);
            if (c >= 0) sg_fused_free(&q);
        }
        sg_fused_free(&f);
    }
    datfile_commit(&d);
    CHECK_CUDA(cudaFree(d_in));
    free(h_in);
    free(h_cpu);
    free(h_tmp);
    free(h_gpu);
}

/* ------------------------------------------------- sparse grid error (host only, double) */

/* The smooth test function: a Gaussian bump, f(x) = exp(-|x - 0.3|^2) (bounded mixed
 * derivatives, as sparse grid interpolation needs). */
static double f_test(const double *x, int d)
{
    double s = 0;
    for (int j = 0; j < d; j++) s += (x[j] - 0.3) * (x[j] - 0.3);
    return exp(-s);
}

static void fig_error(env *e, int argc, char **argv)
{
    dat_meta m = dat_meta_of("sparsegrid", "beyond the thesis (its future work): sparse vs full grid interpolation error",
                             argc, argv, "none (host only)", &e->c);
    datfile d;
    e->d = &d;
    datfile_open(&d, e->c.out, "sparsegrid_figx2_error.dat", &m);
    const int samples = e->c.quick ? 2000 : 20000;
    datfile_meta(&d, "function", "f(x) = exp(-|x - 0.3|^2) on [0,1]^d");
    datfile_meta(&d, "columns", "errors over %d random points (max and root mean square) of the piecewise d-linear "
                                "interpolant on the full grid of the level and of the regular sparse grid kept "
                                "from its surpluses (sum_j max(l_j, 1) <= level + d - 1, boundary included)", samples);
    datfile_columns(&d, "d level points_full points_sparse err_full_max err_full_l2 err_sparse_max err_sparse_l2");
    for (int dd = 1; dd <= 4; dd++) {
        int Lmax = dd == 1 ? 14 : dd == 2 ? 11 : dd == 3 ? 7 : 5;
        if (e->c.quick) Lmax -= 2;
        for (int L = 1; L <= Lmax; L++) {
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
            double ef = 0, ef2 = 0, es = 0, es2 = 0;
            for (int s = 0; s < samples; s++) {
                double x[SG_MAXD];
                for (int j = 0; j < dd; j++) x[j] = (mix32((uint64_t)s * 8 + j + 1000003ULL * e->c.seed) + 0.5) / 4294967296.0;
                double fx = f_test(x, dd), a = fabs(sg_eval_multilinear(full, dd, L, x) - fx),
                       b = fabs(sg_eval_multilinear(sp, dd, L, x) - fx);
                ef = fmax(ef, a); ef2 += a * a;
                es = fmax(es, b); es2 += b * b;
            }
            datfile_row(&d, "%d %d %lld %lld %.6e %.6e %.6e %.6e", dd, L, g.size, kept, ef, sqrt(ef2 / samples), es,
                        sqrt(es2 / samples));
            fprintf(stderr, "error d=%d level=%2d full %9lld points: max %.3e | sparse %8lld points: max %.3e\n", dd, L,
                    g.size, ef, kept, es);
            free(full);
            free(sp);
        }
    }
    datfile_commit(&d);
}

/* ------------------------------ regular sparse grids on the GPU (thesis ch. 6, future work) */

/* C++ overloads of sparse.h's float/double functions, for the templates below. */
static void sgs_cpu_t(const float *s, float *d, long long G, const sgs_grid *g, int inv, int th) { sgs_cpu_f(s, d, G, g, inv, th); }
static void sgs_cpu_t(const double *s, double *d, long long G, const sgs_grid *g, int inv, int th) { sgs_cpu_d(s, d, G, g, inv, th); }
static void sgs_cpu_shift_t(const float *s, float *d, long long G, const sgs_grid *g, int inv, int th)
{
    if (sgs_cpu_shift_f(s, d, G, g, inv, th)) DIE("out of host memory");
}
static void sgs_cpu_shift_t(const double *s, double *d, long long G, const sgs_grid *g, int inv, int th)
{
    if (sgs_cpu_shift_d(s, d, G, g, inv, th)) DIE("out of host memory");
}
static int sgs_ref_t(float *u, const sgs_grid *g, int inv) { return sgs_ref_f(u, g, inv); }
static int sgs_ref_t(double *u, const sgs_grid *g, int inv) { return sgs_ref_d(u, g, inv); }

/* Level of the sparse grid of d dimensions in the bandwidth figure: about 6-14 k points (24-57
 * KB in float, twice that in double), so several grids fit in the shared memory of an SM. */
static const int SPARSE_LEVEL[SGS_MAXD + 1] = {0, 12, 9, 7, 5, 4, 3};
#define SPARSE_THREADS_N 3
static const int SPARSE_THREADS[SPARSE_THREADS_N] = {128, 256, 512}; /* k_sparse block sizes tried */
/* k_sparse_multi configurations (sparse_multi.cuh), each at the SPARSE_THREADS block sizes:
 * {G, U} with G = 0 for the planner's choice (the most grids per block, up to 4, that leave 2
 * blocks per SM by shared memory): ILP only (1 grid, 4 entries in flight), grids only, both. */
#define SPARSE_MULTI_N 3
static const int SPARSE_MULTI[SPARSE_MULTI_N][2] = {{1, 4}, {0, 1}, {0, 2}};

template <typename T>
struct sparse_ctx {
    const sgs_grid *g;
    const sgs_dev *dv;
    const T *d_in, *h_in;
    T *d_out, *h_out;
    long long G;
    int inverse, threads, shift;
    const sgs_multi *mv; /* k_sparse_multi rows: the plan */
};
template <typename T>
static void run_sparse_gpu(void *p, cudaStream_t s)
{
    sparse_ctx<T> *c = (sparse_ctx<T> *)p;
    sgs_dev_run<T>(c->dv, c->d_in, c->d_out, c->G, c->inverse, s);
}
template <typename T>
static void run_sparse_multi(void *p, cudaStream_t s)
{
    sparse_ctx<T> *c = (sparse_ctx<T> *)p;
    sgs_multi_run<T>(c->mv, c->d_in, c->d_out, c->G, c->inverse, s);
}
template <typename T>
static void run_sparse_cpu(void *p)
{
    sparse_ctx<T> *c = (sparse_ctx<T> *)p;
    if (c->shift) sgs_cpu_shift_t(c->h_in, c->h_out, c->G, c->g, c->inverse, c->threads);
    else sgs_cpu_t(c->h_in, c->h_out, c->G, c->g, c->inverse, c->threads);
}
template <typename T>
static void run_sparse_copy(void *p, cudaStream_t s)
{
    sparse_ctx<T> *c = (sparse_ctx<T> *)p;
    long long nf = c->G * c->g->npts * (long long)(sizeof(T) / sizeof(float));
    k_copy<<<GRID_STRIDE_BLOCKS(8), 256, 0, s>>>((const float *)c->d_in, (float *)c->d_out, nf);
    CHECK_LAUNCH();
}

/* Input value i: uniform in [-1, 1), the same numbers in both precisions. */
template <typename T>
static void fill_input_t(T *h, long long n, long long seed)
{
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; i++)
        h[i] = (T)((float)(mix32((uint64_t)seed * 0x9E3779B97F4A7C15ULL + (uint64_t)i) >> 8) / 8388608.0f - 1.0f);
}

/* The correctness run of one batch: the tuned CPU equals the pole-wise reference on the first
 * grids bitwise, the dimensional-shift CPU version equals it on all grids in both directions; every GPU configuration equals the CPU bitwise on poisoned (NaN) output, in
 * both directions (k_sparse's configurations dv and k_sparse_multi's mv); dehierarchization returns the
 * input (float 2e-5, double 1e-13 |u|max).  Leaves the surpluses in d_out. */
template <typename T>
static void verify_sparse(env *e, const sgs_grid *g, const sgs_dev *dv, int ndv, const sgs_multi *mv, int nmv, long long G,
                          const T *h_in, T *h_cpu, T *h_tmp, T *h_gpu, T *d_in, T *d_out, T *d_back)
{
    long long n = G * g->npts;
    size_t bytes = sizeof(T) * n;
    char what[160];
    sgs_cpu_t(h_in, h_cpu, G, g, 0, e->threads);
    T *t = (T *)malloc(sizeof(T) * g->npts);
    if (!t) DIE("out of host memory");
    for (long long i = 0; i < G && i < 8; i++) {
        memcpy(t, h_in + i * g->npts, sizeof(T) * g->npts);
        if (sgs_ref_t(t, g, 0)) DIE("sparse reference: out of memory");
        if (memcmp(t, h_cpu + i * g->npts, sizeof(T) * g->npts)) fail(e, "sparse cpu_tuned != pole-wise reference");
    }
    free(t);
    sgs_cpu_shift_t(h_in, h_tmp, G, g, 0, e->threads);
    if (memcmp(h_tmp, h_cpu, sizeof(T) * n)) fail(e, "sparse cpu_shift != cpu_tuned (hierarchization)");
    sgs_cpu_t(h_cpu, h_tmp, G, g, 1, e->threads);
    sgs_cpu_shift_t(h_cpu, h_gpu, G, g, 1, e->threads);
    if (memcmp(h_tmp, h_gpu, sizeof(T) * n)) fail(e, "sparse cpu_shift != cpu_tuned (dehierarchization)");
    double maxu = 0, err = 0, tol = sizeof(T) == 4 ? 2e-5 : 1e-13;
#pragma omp parallel for reduction(max : maxu, err)
    for (long long i = 0; i < n; i++) {
        maxu = fmax(maxu, fabs((double)h_in[i]));
        err = fmax(err, fabs((double)h_tmp[i] - (double)h_in[i]));
    }
    if (err > tol * maxu) fail(e, "sparse round trip dehierarchize(hierarchize(u)) != u");
    CHECK_CUDA(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    for (int inv = 0; inv < 2; inv++)
        for (int c = 0; c < ndv; c++) {
            T *dst = inv ? d_back : d_out;
            CHECK_CUDA(cudaMemset(dst, 0xFF, bytes)); /* poison: NaN */
            sgs_dev_run<T>(dv + c, inv ? d_out : d_in, dst, G, inv, e->s);
            CHECK_CUDA(cudaStreamSynchronize(e->s));
            CHECK_CUDA(cudaMemcpy(h_gpu, dst, bytes, cudaMemcpyDeviceToHost));
            snprintf(what, sizeof what, "gpu_sparse %d threads %s, d=%d n=%d, %lld grids", dv[c].threads,
                     inv ? "dehierarchization" : "hierarchization", g->d, g->n, G);
            if (verify_exact(h_gpu, inv ? h_tmp : h_cpu, n, sizeof(T), what)) fail(e, what);
        }
    for (int inv = 0; inv < 2; inv++)
        for (int c = 0; c < nmv; c++) {
            T *dst = inv ? d_back : d_out;
            CHECK_CUDA(cudaMemset(dst, 0xFF, bytes)); /* poison: NaN */
            sgs_multi_run<T>(mv + c, inv ? d_out : d_in, dst, G, inv, e->s);
            CHECK_CUDA(cudaStreamSynchronize(e->s));
            CHECK_CUDA(cudaMemcpy(h_gpu, dst, bytes, cudaMemcpyDeviceToHost));
            snprintf(what, sizeof what, "gpu_sparse_multi G=%d U=%d %d threads %s, d=%d n=%d, %lld grids", mv[c].G, mv[c].U,
                     mv[c].threads, inv ? "dehierarchization" : "hierarchization", g->d, g->n, G);
            if (verify_exact(h_gpu, inv ? h_tmp : h_cpu, n, sizeof(T), what)) fail(e, what);
        }
}

/* GB/s of batched sparse-grid (de)hierarchization, d = 2..6, against the copy kernel of the
 * same bytes (GPU) and the host's STREAM-like triad (CPU, common/host.h). */
template <typename T>
static void fig_sparse(env *e, int argc, char **argv, const char *prec)
{
    int maxlog = e->c.quick ? 24 : 28; /* input bytes of the largest batch: 256 MiB (quick 16 MiB) */
    int dlo = e->sparse_d ? e->sparse_d : 2, dhi = e->sparse_d ? e->sparse_d : SGS_MAXD;
    size_t cap = ((size_t)1 << maxlog) + 8 * sizeof(T) * 16384;
    if (e->nt_max) { /* --nt-max: one batch of exactly that many grids */
        cap = 0;
        for (int dd = dlo; dd <= dhi; dd++) {
            sgs_grid g;
            char err[200];
            if (sgs_init(&g, dd, SPARSE_LEVEL[dd], err, sizeof err)) DIE("%s", err);
            if ((size_t)(e->nt_max * g.npts * sizeof(T)) > cap) cap = e->nt_max * g.npts * sizeof(T);
            sgs_free(&g);
        }
    }
    T *h_in = (T *)malloc(cap), *h_cpu = (T *)malloc(cap), *h_tmp = (T *)malloc(cap), *h_gpu = (T *)malloc(cap);
    if (!h_in || !h_cpu || !h_tmp || !h_gpu) DIE("out of host memory");
    size_t span = (cap + 255) / 256 * 256; /* bytes per buffer, 256-byte aligned */
    unsigned char *d_buf = (unsigned char *)device_alloc_or_usage(3 * span, "three buffers of sparse grids");
    T *d_in = (T *)d_buf, *d_out = (T *)(d_buf + span), *d_back = (T *)(d_buf + 2 * span);
    fill_input_t(h_in, (long long)(cap / sizeof(T)), e->c.seed);
    int l2 = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, e->c.device));
    double triad = host_triad_gbs(1LL << (e->c.quick ? 24 : 26), e->threads, 5);
    fprintf(stderr, "sparse: host triad %.1f GB/s on %d threads\n", triad, e->threads);

    char figure[160], file[96];
    snprintf(figure, sizeof figure, "beyond the thesis (its future work): batched regular sparse grids, %s", prec);
    snprintf(file, sizeof file, "sparsegrid_figx4_sparse_%s.dat", prec);
    dat_meta m = dat_meta_of("sparsegrid", figure, argc, argv, e->gpu, &e->c);
    datfile d;
    e->d = &d;
    datfile_open(&d, e->c.out, file, &m);
    datfile_meta(&d, "l2_bytes", "%d", l2);
    datfile_meta(&d, "host_triad_gbs", "%.1f (STREAM-like triad, %d threads, best of 5; common/host.h)", triad, e->threads);
    datfile_meta(&d, "cpu", "cpu_tuned on %d OpenMP threads (OpenMP over grids, level-wise lists, rows vectorized), %s",
                 e->threads, sg_cpu_isa());
    datfile_meta(&d, "grid", "regular sparse grid with boundary, sum_j max(l_j,1) <= n + d - 1, subspace order; "
                             "grids one after another");
    datfile_meta(&d, "columns", "bytes_moved = 2 * grids * points * %zu (read + write once); gbs = bytes_moved / median; "
                                "pct_ceiling = gbs / copy kernel of the same bytes (gpu rows) or / host_triad_gbs (cpu "
                                "rows); threads = block size (gpu) or OpenMP threads (cpu)", sizeof(T));
    datfile_columns(&d, "d level points grids impl threads bytes_moved median_ms min_ms max_ms gbs pct_ceiling beyond_l2 batch");
    for (int dd = dlo; dd <= dhi; dd++) {
        sgs_grid g;
        char err[200];
        if (sgs_init(&g, dd, SPARSE_LEVEL[dd], err, sizeof err)) DIE("%s", err);
        /* configurations: block sizes x {computed offsets, offset table} */
        sgs_dev dv[2 * SPARSE_THREADS_N];
        int nconf = 0;
        for (int tab = 0; tab < 2; tab++)
            for (int c = 0; c < SPARSE_THREADS_N; c++)
                if (!sgs_dev_setup(dv + nconf, &g, sizeof(T), SPARSE_THREADS[c], e->c.device, e->max_blocks, tab)) nconf++;
        datfile_meta(&d, "plan", "d=%d n=%d: %lld points, %d subspaces, %s, %d resident blocks of 256 threads; %s", dd,
                     g.n, g.npts, g.nsub, dv[1].staged ? "staged in shared memory" : "in global memory", dv[1].blocks,
                     nconf > SPARSE_THREADS_N ? "computed offsets and offset table" : "computed offsets only (> 65536 points)");
        /* k_sparse_multi: G grids per block, U table entries in flight per thread (sparse_multi.cuh) */
        sgs_multi mv[SPARSE_MULTI_N * SPARSE_THREADS_N];
        int nmulti = 0;
        for (int q = 0; q < SPARSE_MULTI_N; q++)
            for (int c = 0; c < SPARSE_THREADS_N; c++)
                if (!sgs_multi_setup(mv + nmulti, &g, sizeof(T), SPARSE_THREADS[c], SPARSE_MULTI[q][0], SPARSE_MULTI[q][1],
                                     e->c.device, e->max_blocks)) {
                    const sgs_multi *p = mv + nmulti++;
                    datfile_meta(&d, "multi_plan", "d=%d n=%d: gpu_sparse_multi_g%d_u%d, %d threads: G=%d grids per block "
                                 "(%s), U=%d, %zu bytes of shared memory per block, %d blocks per SM (%d grids per SM), "
                                 "%d registers per thread, %d blocks launched at most", dd, g.n, p->G, p->U, p->threads,
                                 p->G, SPARSE_MULTI[q][0] ? "fixed" : "planned: 2 blocks per SM by shared memory", p->U,
                                 p->smem, p->per_sm, p->per_sm * p->G, p->regs, p->blocks);
                }
        if (!nmulti) datfile_meta(&d, "multi_plan", "d=%d n=%d: no k_sparse_multi plan (grid not staged or > 65536 points)", dd, g.n);
        double best[2] = {0, 0}, cpu_pct[2] = {0, 0}, cpu_gbs[2] = {0, 0};
        int best_t[2] = {0, 0}, best_tab[2] = {0, 0};
        double mbest[2] = {0, 0}; /* k_sparse_multi: best % of copy at the largest batch, and which plan */
        int mbest_i[2] = {-1, -1};
        const char *cpu_best[2] = {"none", "none"};
        for (int lg = maxlog % 3 + 18; lg <= maxlog; lg += 3) { /* input bytes 2^lg, 8x apart, up to 2^maxlog */
            long long G = (((long long)1 << lg) + g.npts * (long long)sizeof(T) - 1) / (g.npts * (long long)sizeof(T));
            if (e->nt_max) G = e->nt_max;
            double moved = 2.0 * G * g.npts * sizeof(T);
            verify_sparse<T>(e, &g, dv, nconf, mv, nmulti, G, h_in, h_cpu, h_tmp, h_gpu, d_in, d_out, d_back);
            sparse_ctx<T> x = {&g, dv, d_in, h_in, d_out, h_tmp, G, 0, e->threads, 0, NULL};
            bench_stats st = bench_gpu(run_sparse_copy<T>, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
            double copy_gbs = moved / (st.median * 1e-3) / 1e9;
            int last = lg + 3 > maxlog || e->nt_max;
            for (int impl = 0; impl < 2 * nconf + 5; impl++) { /* copy, GPU configs x 2 directions, CPU 2 x 2 */
                const char *name;
                int threads = 0, cpu = impl > 2 * nconf;
                if (impl == 0) { name = "copy"; }
                else if (!cpu) {
                    int c = (impl - 1) % nconf;
                    x.inverse = impl > nconf;
                    x.dv = dv + c;
                    x.d_in = x.inverse ? d_out : d_in; /* dehierarchize the surpluses */
                    x.d_out = x.inverse ? d_back : d_out;
                    name = dv[c].table ? (x.inverse ? "gpu_sparse_table_inverse" : "gpu_sparse_table")
                                       : (x.inverse ? "gpu_sparse_inverse" : "gpu_sparse");
                    threads = dv[c].threads;
                    st = bench_gpu(run_sparse_gpu<T>, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
                } else {
                    int c = impl - 2 * nconf - 1; /* 0, 1: lists; 2, 3: dimensional shift */
                    x.inverse = c % 2;
                    x.shift = c >= 2;
                    x.h_in = x.inverse ? h_cpu : h_in;
                    name = x.shift ? (x.inverse ? "cpu_shift_inverse" : "cpu_shift")
                                   : (x.inverse ? "cpu_tuned_inverse" : "cpu_tuned");
                    threads = e->threads;
                    st = bench_host(run_sparse_cpu<T>, &x, e->c.warmup, e->c.reps, e->c.batch);
                }
                double gbs = moved / (st.median * 1e-3) / 1e9;
                double pct = 100 * gbs / (cpu ? triad : copy_gbs);
                char label[128];
                snprintf(label, sizeof label, "sparse %s d=%d %s/%d grids=%lld", prec, dd, name, threads, G);
                note_spread(e, label, st);
                datfile_row(&d, "%d %d %lld %lld %s %d %.0f %.6f %.6f %.6f %.1f %.1f %d %d", dd, g.n, g.npts, G, name,
                            threads, moved, st.median, st.min, st.max, gbs, pct, moved > l2, st.batch);
                fprintf(stderr, "sparse %s d=%d n=%d %-24s %3d grids=%8lld %8.1f MB %9.4f ms %7.1f GB/s %5.1f%% of %s%s\n",
                        prec, dd, g.n, name, threads, G, moved / 1e6, st.median, gbs, pct, cpu ? "triad" : "copy",
                        moved > l2 ? "" : "  (fits in L2)");
                if (last && impl >= 1 && !cpu) {
                    int inv = impl > nconf;
                    if (pct > best[inv]) { best[inv] = pct; best_t[inv] = threads; best_tab[inv] = x.dv->table; }
                }
                if (last && cpu && pct > cpu_pct[x.inverse]) {
                    cpu_pct[x.inverse] = pct;
                    cpu_gbs[x.inverse] = gbs;
                    cpu_best[x.inverse] = name;
                }
            }
            /* k_sparse_multi rows (after the rows above, which stay as they were): both directions */
            for (int r = 0; r < 2 * nmulti; r++) {
                const sgs_multi *p = mv + r % nmulti;
                char name[64];
                x.inverse = r >= nmulti;
                x.mv = p;
                x.d_in = x.inverse ? d_out : d_in;
                x.d_out = x.inverse ? d_back : d_out;
                snprintf(name, sizeof name, "gpu_sparse_multi_g%d_u%d%s", p->G, p->U, x.inverse ? "_inverse" : "");
                st = bench_gpu(run_sparse_multi<T>, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
                double gbs = moved / (st.median * 1e-3) / 1e9, pct = 100 * gbs / copy_gbs;
                char label[128];
                snprintf(label, sizeof label, "sparse %s d=%d %s/%d grids=%lld", prec, dd, name, p->threads, G);
                note_spread(e, label, st);
                datfile_row(&d, "%d %d %lld %lld %s %d %.0f %.6f %.6f %.6f %.1f %.1f %d %d", dd, g.n, g.npts, G, name,
                            p->threads, moved, st.median, st.min, st.max, gbs, pct, moved > l2, st.batch);
                fprintf(stderr, "sparse %s d=%d n=%d %-28s %3d grids=%8lld %8.1f MB %9.4f ms %7.1f GB/s %5.1f%% of copy%s\n",
                        prec, dd, g.n, name, p->threads, G, moved / 1e6, st.median, gbs, pct,
                        moved > l2 ? "" : "  (fits in L2)");
                if (last && pct > mbest[x.inverse]) { mbest[x.inverse] = pct; mbest_i[x.inverse] = r % nmulti; }
            }
            if (e->nt_max) break;
        }
        for (int inv = 0; inv < 2 && nmulti; inv++)
            if (mbest_i[inv] >= 0)
                datfile_meta(&d, "multi_result", "d=%d n=%d at the largest batch: best gpu_sparse_multi%s %.1f%% of copy "
                             "(G=%d, U=%d, %d threads, %d blocks per SM); best k_sparse (the result line) %.1f%%", dd, g.n,
                             inv ? " (inverse)" : "", mbest[inv], mv[mbest_i[inv]].G, mv[mbest_i[inv]].U,
                             mv[mbest_i[inv]].threads, mv[mbest_i[inv]].per_sm, best[inv]);
        datfile_meta(&d, "result", "d=%d n=%d at the largest batch: best gpu_sparse %.1f%% of copy (%d threads, %s), inverse "
                                   "%.1f%% (%d threads, %s); best CPU %s %.1f GB/s = %.1f%% of the host triad, inverse %s "
                                   "%.1f GB/s = %.1f%%", dd, g.n, best[0], best_t[0], best_tab[0] ? "table" : "computed",
                     best[1], best_t[1], best_tab[1] ? "table" : "computed", cpu_best[0], cpu_gbs[0], cpu_pct[0],
                     cpu_best[1], cpu_gbs[1], cpu_pct[1]);
        fprintf(stderr, "sparse %s d=%d: gpu %.1f%% / %.1f%% of copy, cpu %.1f%% / %.1f%% of triad\n", prec, dd, best[0],
                best[1], cpu_pct[0], cpu_pct[1]);
        for (int c = 0; c < nconf; c++) sgs_dev_free(dv + c);
        for (int c = 0; c < nmulti; c++) sgs_multi_free(mv + c);
        sgs_free(&g);
    }
    datfile_commit(&d);
    CHECK_CUDA(cudaFree(d_buf));
    free(h_in);
    free(h_cpu);
    free(h_tmp);
    free(h_gpu);
}

/* Least-squares slope of y over x (the fitted convergence rate). */
static double fit_slope(const double *x, const double *y, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) { sx += x[i]; sy += y[i]; sxx += x[i] * x[i]; sxy += x[i] * y[i]; }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/* Interpolation error vs points of real sparse grids (sparse.h, hierarchized in double) and of
 * full grids, for the smooth f_test; fitted rates err ~ N^alpha and err / log2(N)^(d-1) ~
 * N^beta over the finer half of the sparse levels (host only). */
static void fig_sparse_error(env *e, int argc, char **argv)
{
    dat_meta m = dat_meta_of("sparsegrid", "beyond the thesis (its future work): error vs points, sparse and full grids",
                             argc, argv, "none (host only)", &e->c);
    datfile d;
    e->d = &d;
    datfile_open(&d, e->c.out, "sparsegrid_figx5_sparse_error.dat", &m);
    const int samples = e->c.quick ? 1000 : 10000;
    datfile_meta(&d, "function", "f(x) = exp(-|x - 0.3|^2) on [0,1]^d");
    datfile_meta(&d, "columns", "grid = sparse (regular sparse grid with boundary of level n, hierarchized by "
                                "sgs_cpu_d, evaluated from its surpluses) or full (piecewise d-linear on the full grid of "
                                "level n); errors over %d random points (max, root mean square)", samples);
    datfile_columns(&d, "d level grid points err_max err_l2");
    for (int dd = 2; dd <= 5; dd++) {
        int nmax = (dd == 2 ? 14 : dd == 3 ? 11 : dd == 4 ? 9 : 7) - (e->c.quick ? 3 : 0);
        double lx[24], ly[24], lyl[24], lh[24], lyn[24];
        int nfit = 0;
        for (int n = 1; n <= nmax; n++) {
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
            double emax = 0, e2 = 0;
#pragma omp parallel for reduction(max : emax) reduction(+ : e2)
            for (int s = 0; s < samples; s++) {
                double x[SGS_MAXD];
                for (int j = 0; j < dd; j++) x[j] = (mix32((uint64_t)s * 8 + j + 1000003ULL * e->c.seed) + 0.5) / 4294967296.0;
                double a = fabs(sgs_eval(c, &g, x) - f_test(x, dd));
                emax = fmax(emax, a);
                e2 += a * a;
            }
            datfile_row(&d, "%d %d sparse %lld %.6e %.6e", dd, n, g.npts, emax, sqrt(e2 / samples));
            fprintf(stderr, "sparse error d=%d n=%2d sparse %9lld points: max %.3e\n", dd, n, g.npts, emax);
            if (2 * n > nmax) { /* the finer half: the asymptotic rate */
                lx[nfit] = log((double)g.npts);
                ly[nfit] = log(emax);
                lyl[nfit] = log(emax) - (dd - 1) * log(log2((double)g.npts));
                lh[nfit] = -n * log(2.0);                  /* log h, h = 2^-n */
                lyn[nfit] = log(emax) - (dd - 1) * log((double)n); /* the bound h^2 n^(d-1) */
                nfit++;
            }
            free(c);
            sgs_free(&g);
            /* the full grid of the same level where it stays below 2^22 points (d <= 4) */
            double full = pow((double)((1LL << n) + 1), dd);
            if (dd <= SG_MAXD && full <= (double)(1 << 22)) {
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
                double fmx = 0, f2 = 0;
#pragma omp parallel for reduction(max : fmx) reduction(+ : f2)
                for (int s = 0; s < samples; s++) {
                    double x[SG_MAXD];
                    for (int j = 0; j < dd; j++) x[j] = (mix32((uint64_t)s * 8 + j + 1000003ULL * e->c.seed) + 0.5) / 4294967296.0;
                    double a = fabs(sg_eval_multilinear(u, dd, n, x) - f_test(x, dd));
                    fmx = fmax(fmx, a);
                    f2 += a * a;
                }
                datfile_row(&d, "%d %d full %lld %.6e %.6e", dd, n, size, fmx, sqrt(f2 / samples));
                free(u);
            }
        }
        double alpha = fit_slope(lx, ly, nfit), beta = fit_slope(lx, lyl, nfit), gamma = fit_slope(lh, lyn, nfit);
        datfile_meta(&d, "result", "d=%d: fitted over the finer %d sparse levels: err_max ~ N^%.2f; err_max / log2(N)^%d ~ "
                                   "N^%.2f (the claim: N^-2 log^(d-1) N); err_max / n^%d ~ h^%.2f (h = 2^-n; the "
                                   "bound: h^2 n^(d-1))", dd, nfit, alpha, dd - 1, beta, dd - 1, gamma);
        fprintf(stderr, "sparse error d=%d: err ~ N^%.2f, err/log2(N)^%d ~ N^%.2f, err/n^%d ~ h^%.2f\n", dd, alpha, dd - 1,
                beta, dd - 1, gamma);
    }
    datfile_commit(&d);
}

/* --------------------- layouts: in-place full grid vs the thesis's subspace order (Fig. 2.9) */

/* sub[t N + i] = plain[t N + perm[i]] for G grids (OpenMP). */
static void permute_to_subspace(const float *plain, float *sub, long long G, const long long *perm, long long N)
{
#pragma omp parallel for schedule(static)
    for (long long t = 0; t < G; t++)
        for (long long i = 0; i < N; i++) sub[t * N + i] = plain[t * N + perm[i]];
}

/* One timed row of the layout figure. */
static void layout_row(env *e, datfile *d, const char *shape, const char *impl, const char *lin, const char *lout,
                       int threads, long long nt, double moved, bench_stats st, double copy_gbs, int l2)
{
    double gbs = moved / (st.median * 1e-3) / 1e9;
    char label[128];
    snprintf(label, sizeof label, "layout %s %s Nt=%lld", shape, impl, nt);
    note_spread(e, label, st);
    datfile_row(d, "%s %s %s %s %d %lld %.0f %.6f %.6f %.6f %.1f %.1f %d %d", shape, impl, lin, lout, threads, nt, moved,
                st.median, st.min, st.max, gbs, copy_gbs > 0 ? 100 * gbs / copy_gbs : 100.0, moved > l2, st.batch);
    fprintf(stderr, "layout %-8s %-30s %-8s -> %-8s Nt=%8lld %8.1f MB %9.4f ms %7.1f GB/s %5.1f%% of copy\n", shape, impl,
            lin, lout, nt, moved / 1e6, st.median, gbs, copy_gbs > 0 ? 100 * gbs / copy_gbs : 100.0);
}

/* The thesis's three tile shapes as full grids, hierarchized (a) in place in the plain layout
 * (gpu_fused_pipelined, planned as in --fig=bandwidth; cpu_tuned) and (b) straight from the
 * plain layout into subspace order and back (k_sparse with the permutation, computed offsets
 * and offset table), or (c) within subspace order (k_sparse; cpu_shift, the thesis's
 * dimensional shift).  Every result verified bitwise against the CPU's full-grid version
 * (permuted where the output is in subspace order) before it is timed. */
static void fig_layout(env *e, int argc, char **argv)
{
    const char *shapes[3] = {"33x33", "9x9x9", "9x9x5x5"};
    int lgs[2] = {22, e->c.quick ? 24 : 28}; /* input bytes: 4 MiB (inside the L2) and 256 MiB */
    size_t cap = ((size_t)1 << lgs[1]) + (size_t)4 * 4 * 2025;
    float *h_in = (float *)malloc(cap), *h_sub = (float *)malloc(cap), *h_a = (float *)malloc(cap),
          *h_b = (float *)malloc(cap), *h_c = (float *)malloc(cap), *h_gpu = (float *)malloc(cap);
    if (!h_in || !h_sub || !h_a || !h_b || !h_c || !h_gpu) DIE("out of host memory");
    size_t span = (cap + 255) / 256 * 64; /* floats per buffer, 256-byte aligned */
    float *d_in = (float *)device_alloc_or_usage(4 * span * sizeof(float), "four tile buffers");
    float *d_sub = d_in + span, *d_out = d_sub + span, *d_back = d_out + span;
    fill_input(h_in, (long long)(cap / 4), e->c.seed);
    int l2 = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, e->c.device));
    dat_meta m = dat_meta_of("sparsegrid", "Fig. 2.9 of the thesis: full grids in place vs in subspace order", argc, argv,
                             e->gpu, &e->c);
    datfile d;
    e->d = &d;
    datfile_open(&d, e->c.out, "sparsegrid_figx7_layout.dat", &m);
    datfile_meta(&d, "l2_bytes", "%d", l2);
    datfile_meta(&d, "cpu", "cpu_tuned / cpu_shift on %d OpenMP threads, %s", e->threads, sg_cpu_isa());
    datfile_meta(&d, "columns", "layout_in/layout_out: plain = the full grid, dimension 0 fastest; subspace = the thesis's "
                                "subspace order (sparse.h, sgs_init_full); bytes_moved = 2 * Nt * tile bytes; pct_copy = "
                                "gbs / copy kernel of the same bytes");
    datfile_columns(&d, "shape impl layout_in layout_out threads nt bytes_moved median_ms min_ms max_ms gbs pct_copy beyond_l2 batch");
    for (int si = 0; si < 3; si++) {
        sg_geom fg;
        sgs_grid g;
        char err[200];
        if (sg_parse_dims(shapes[si], &fg, err, sizeof err) || sgs_init_full(&g, fg.d, fg.l, err, sizeof err)) DIE("%s", err);
        long long N = g.npts, *perm = (long long *)malloc(sizeof(long long) * N);
        if (!perm) DIE("out of host memory");
        sgs_full_perm(&g, perm);
        sgs_dev full[2], sub[2]; /* computed / table; with and without the permutation */
        for (int c = 0; c < 2; c++) {
            if (sgs_dev_setup(full + c, &g, sizeof(float), 256, e->c.device, e->max_blocks, c) ||
                sgs_dev_setup(sub + c, &g, sizeof(float), 256, e->c.device, e->max_blocks, c) ||
                sgs_dev_use_full_layout(full + c, &g))
                DIE("layout: cannot plan k_sparse for %s", shapes[si]);
        }
        for (int li = 0; li < 2; li++) {
            long long nt = (((long long)1 << lgs[li]) + N * 4 - 1) / (N * 4);
            if (e->nt_max) nt = e->nt_max;
            long long n = nt * N;
            size_t bytes = sizeof(float) * n;
            double moved = 2.0 * bytes;
            char what[160], plan[300];
            sg_fused fq;
            plan_pipelined(e, &fg, &fq, nt, h_in, h_a, h_gpu, d_in, d_out, plan, sizeof plan); /* verified; h_a = surpluses */
            if (li == 1) datfile_meta(&d, "fused", "%s: gpu_fused_pipelined %s", shapes[si], plan);
            /* the references: surpluses in subspace order (h_b), the input in subspace order (h_sub),
             * the plain layout's dehierarchization of the plain surpluses (h_c) */
            permute_to_subspace(h_a, h_b, nt, perm, N);
            permute_to_subspace(h_in, h_sub, nt, perm, N);
            if (sg_cpu_tuned(h_a, h_c, nt, &fg, 1, e->threads)) DIE("out of host memory");
            CHECK_CUDA(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
            CHECK_CUDA(cudaMemcpy(d_sub, h_sub, bytes, cudaMemcpyHostToDevice));
            for (int c = 0; c < 2; c++)
                for (int k = 0; k < 3; k++) { /* plain -> subspace; subspace -> subspace; subspace -> plain (inverse) */
                    const sgs_dev *dv = k == 0 ? full + c : k == 1 ? sub + c : full + c;
                    CHECK_CUDA(cudaMemset(k == 2 ? d_back : d_out, 0xFF, bytes));
                    if (k == 2) CHECK_CUDA(cudaMemcpy(d_out, h_b, bytes, cudaMemcpyHostToDevice));
                    sgs_dev_run<float>(dv, k == 0 ? d_in : k == 1 ? d_sub : d_out, k == 2 ? d_back : d_out, nt, k == 2, e->s);
                    CHECK_CUDA(cudaStreamSynchronize(e->s));
                    CHECK_CUDA(cudaMemcpy(h_gpu, k == 2 ? d_back : d_out, bytes, cudaMemcpyDeviceToHost));
                    snprintf(what, sizeof what, "layout %s k_sparse %s %s, Nt=%lld", shapes[si], c ? "table" : "computed",
                             k == 0 ? "plain -> subspace" : k == 1 ? "subspace -> subspace" : "subspace -> plain (inverse)", nt);
                    if (verify_exact(h_gpu, k == 2 ? h_c : h_b, n, sizeof(float), what)) fail(e, what);
                }
            if (sgs_cpu_shift_f(h_sub, h_gpu, nt, &g, 0, e->threads)) DIE("out of host memory");
            if (memcmp(h_gpu, h_b, bytes)) fail(e, "layout: cpu_shift in subspace order != cpu_tuned permuted");
            /* timing */
            run_ctx x = {&fg, NULL, &fq, d_in, d_out, h_in, h_gpu, nt, 0, e->threads};
            bench_stats st = bench_gpu(run_copy, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
            double copy_gbs = moved / (st.median * 1e-3) / 1e9;
            layout_row(e, &d, shapes[si], "copy", "plain", "plain", 256, nt, moved, st, copy_gbs, l2);
            st = bench_gpu(run_fused, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
            layout_row(e, &d, shapes[si], "gpu_fused_pipelined", "plain", "plain", fq.threads, nt, moved, st, copy_gbs, l2);
            x.inverse = 1;
            x.d_in = d_out;
            x.d_out = d_back;
            st = bench_gpu(run_fused, &x, e->s, e->c.warmup, e->c.reps, e->c.batch);
            layout_row(e, &d, shapes[si], "gpu_fused_pipelined_inverse", "plain", "plain", fq.threads, nt, moved, st, copy_gbs, l2);
            for (int c = 0; c < 2; c++) {
                sparse_ctx<float> y = {&g, full + c, d_in, h_sub, d_out, h_gpu, nt, 0, e->threads, 1};
                const char *nm[3][2] = {{"gpu_subspace_from_plain", "gpu_subspace_from_plain_table"},
                                        {"gpu_subspace", "gpu_subspace_table"},
                                        {"gpu_subspace_to_plain_inverse", "gpu_subspace_to_plain_inverse_table"}};
                for (int k = 0; k < 3; k++) {
                    y.dv = k == 1 ? sub + c : full + c;
                    y.d_in = k == 0 ? d_in : k == 1 ? d_sub : d_out;
                    y.d_out = k == 2 ? d_back : d_out;
                    y.inverse = k == 2;
                    st = bench_gpu(run_sparse_gpu<float>, &y, e->s, e->c.warmup, e->c.reps, e->c.batch);
                    layout_row(e, &d, shapes[si], nm[k][c], k == 0 ? "plain" : "subspace", k == 2 ? "plain" : "subspace", 256,
                               nt, moved, st, copy_gbs, l2);
                }
            }
            x.inverse = 0;
            x.h_in = h_in;
            x.h_out = h_gpu;
            st = bench_host(run_cpu, &x, e->c.warmup, e->c.reps, e->c.batch);
            layout_row(e, &d, shapes[si], "cpu_tuned", "plain", "plain", e->threads, nt, moved, st, copy_gbs, l2);
            sparse_ctx<float> y = {&g, sub, d_sub, h_sub, d_out, h_gpu, nt, 0, e->threads, 1};
            st = bench_host(run_sparse_cpu<float>, &y, e->c.warmup, e->c.reps, e->c.batch);
            layout_row(e, &d, shapes[si], "cpu_shift", "subspace", "subspace", e->threads, nt, moved, st, copy_gbs, l2);
            sg_fused_free(&fq);
            if (e->nt_max) break;
        }
        for (int c = 0; c < 2; c++) {
            sgs_dev_free(full + c);
            sgs_dev_free(sub + c);
        }
        free(perm);
        sgs_free(&g);
    }
    datfile_commit(&d);
    CHECK_CUDA(cudaFree(d_in));
    free(h_in); free(h_sub); free(h_a); free(h_b); free(h_c); free(h_gpu);
}

/* ---------------------------- progressive reconstruction (thesis Fig. 2.5, section 2.3) */

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

/* The thesis's Fig. 2.5 scenario: a full grid hierarchized into subspace order (coarse to fine
 * by |l|_1, sparse.h), sent subspace by subspace as float32; after each received subspace the
 * receiver dehierarchizes what it has (missing surpluses = 0).  Error at the grid points vs
 * bytes received, for the smooth f_test and f_sharp in 2D (257^2) and 3D (33^3); pictures of
 * the 2D sharp field at three stages and complete (every 4th point).  Host only. */
static void fig_progressive(env *e, int argc, char **argv)
{
    dat_meta m = dat_meta_of("sparsegrid", "Fig. 2.5 of the thesis: progressive reconstruction from a subspace-ordered stream",
                             argc, argv, "none (host only)", &e->c);
    datfile d, p;
    e->d = &d;
    datfile_open(&d, e->c.out, "sparsegrid_figx6_progressive.dat", &m);
    datfile_meta(&d, "stream", "surpluses of a full grid in subspace order (coarse to fine by |l|_1), float32; after each "
                               "subspace the receiver dehierarchizes with the missing surpluses = 0");
    datfile_meta(&d, "functions", "smooth: exp(-|x - 0.3|^2); sharp: bump + disc/ball plateau with a sharp rim + step "
                                  "across a slanted plane + wave (f_sharp)");
    datfile_columns(&d, "function d grid_points subspaces_received bytes_received bytes_total fraction err_max err_rms");
    dat_meta mp = dat_meta_of("sparsegrid", "Fig. 2.5 of the thesis: progressive reconstruction, pictures", argc, argv,
                              "none (host only)", &e->c);
    datfile_open(&p, e->c.out, "sparsegrid_figx6_progressive_pictures.dat", &mp);
    datfile_meta(&p, "grid", "2D sharp field, 257 x 257 points, every 4th point in each direction");
    datfile_columns(&p, "stage bytes_received fraction x y value");
    for (int dd = 2; dd <= 3; dd++)
        for (int fn = 0; fn < 2; fn++) {
            int nk[SGS_MAXD] = {0};
            for (int j = 0; j < dd; j++) nk[j] = dd == 2 ? (e->c.quick ? 6 : 8) : (e->c.quick ? 4 : 5);
            sgs_grid g;
            char err[200];
            if (sgs_init_full(&g, dd, nk, err, sizeof err)) DIE("%s", err);
            long long N = g.npts;
            double *u = (double *)malloc(sizeof(double) * N), *c = (double *)malloc(sizeof(double) * N),
                   *r = (double *)malloc(sizeof(double) * N);
            if (!u || !c || !r) DIE("out of host memory");
            for (int s = 0; s < g.nsub; s++) /* nodal values, in subspace order */
                for (long long q = 0; q < g.off[s + 1] - g.off[s]; q++) {
                    long long idx[SGS_MAXD];
                    double x[SGS_MAXD];
                    sgs_point_index(&g, s, q, idx);
                    for (int j = 0; j < dd; j++) x[j] = (double)idx[j] / (double)(1LL << g.n);
                    u[g.off[s] + q] = fn ? f_sharp(x, dd) : f_test(x, dd);
                }
            memcpy(c, u, sizeof(double) * N);
            sgs_cpu_d(c, c, 1, &g, 0, 1);
            for (long long i = 0; i < N; i++) c[i] = (double)(float)c[i]; /* sent as float32 */
            const double stage_at[3] = {1.0 / 64, 1.0 / 16, 1.0 / 4};
            int stage = 0;
            for (int s = 1; s <= g.nsub; s++) {
                long long got = g.off[s];
                memcpy(r, c, sizeof(double) * got);
                memset(r + got, 0, sizeof(double) * (N - got));
                sgs_cpu_d(r, r, 1, &g, 1, 1);
                double emax = 0, e2 = 0;
                for (long long i = 0; i < N; i++) {
                    double a = fabs(r[i] - u[i]);
                    emax = fmax(emax, a);
                    e2 += a * a;
                }
                double frac = (double)got / N;
                datfile_row(&d, "%s %d %lld %d %lld %lld %.6f %.6e %.6e", fn ? "sharp" : "smooth", dd, N, s, 4 * got,
                            4 * N, frac, emax, sqrt(e2 / N));
                /* pictures: the last subspace boundary at or below each stage fraction, and complete */
                int take = dd == 2 && fn == 1 &&
                           (s == g.nsub || (stage < 3 && frac <= stage_at[stage] && (double)g.off[s + 1] / N > stage_at[stage]));
                if (take) {
                    long long *perm = (long long *)malloc(sizeof(long long) * N);
                    double *img = (double *)malloc(sizeof(double) * N);
                    if (!perm || !img) DIE("out of host memory");
                    sgs_full_perm(&g, perm);
                    for (long long i = 0; i < N; i++) img[perm[i]] = r[i];
                    long long np = (1LL << g.n) + 1;
                    for (long long y = 0; y < np; y += 4)
                        for (long long x = 0; x < np; x += 4)
                            datfile_row(&p, "%d %lld %.6f %.4f %.4f %.4g", s == g.nsub ? 3 : stage, 4 * got, frac,
                                        (double)x / (np - 1), (double)y / (np - 1), img[y * np + x]);
                    free(perm);
                    free(img);
                    if (s < g.nsub) stage++;
                }
            }
            fprintf(stderr, "progressive %s d=%d: %lld points, %d subspaces\n", fn ? "sharp" : "smooth", dd, N, g.nsub);
            free(u);
            free(c);
            free(r);
            sgs_free(&g);
        }
    datfile_commit(&d);
    datfile_commit(&p);
}

int main(int argc, char **argv)
{
    env e;
    memset(&e, 0, sizeof e);
    e.c = common_opts_default();
    const char *fig = "5.1", *precision = "float";
    long long nt_max = 0;
    arg_opt opts[] = {
        COMMON_ARGS(e.c),
        {"fig", ARG_CHOICE, &fig, "experiment", 0, 0, "5.1 5.2 5.3 bandwidth tune error sparse sparse-error progressive layout"},
        {"sparse-d", ARG_INT, &e.sparse_d, "sparse: only this dimension (0: d = 2..6)", 0, SGS_MAXD, NULL},
        {"precision", ARG_CHOICE, &precision, "sparse: float or double", 0, 0, "float double"},
        {"threads", ARG_INT, &e.threads, "CPU threads of cpu_tuned (0: all processors)", 0, 1024, NULL},
        {"tiles-per-block", ARG_INT, &e.tpb, "fused kernel: tiles per block (0: auto)", 0, 4096, NULL},
        {"nt-max", ARG_LONG, &nt_max, "Figs. 5.x: only Nt up to this (0: the thesis's range); tune: Nt (0: 1 GiB); sparse: one batch of this many grids (0: 1/4 MiB .. 256 MiB)", 0, 1000000, NULL},
        {"max-blocks", ARG_INT, &e.max_blocks, "tune, sparse: launch at most N blocks (0: all resident; small values make each block walk many tiles/grids)", 0, 1000000, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "sparsegrid [options]",
               "Hierarchization of full grids (thesis ch. 5): CPU tuned vs GPU thesis-style vs GPU fused.");
    common_opts_finish(&e.c);
    if (e.threads == 0) e.threads = omp_get_num_procs();

    if (strcmp(precision, "float") && strcmp(fig, "sparse"))
        DIE_USAGE("--precision=%s: only --fig=sparse computes in double (the full-grid figures are float32)", precision);
    if (!strcmp(fig, "error")) { /* host only: no GPU needed */
        fig_error(&e, argc, argv);
        return 0;
    }
    if (!strcmp(fig, "sparse-error")) { /* host only */
        fig_sparse_error(&e, argc, argv);
        return 0;
    }
    if (!strcmp(fig, "progressive")) { /* host only */
        fig_progressive(&e, argc, argv);
        return 0;
    }
    device_require(e.c.device, 7, 5);
    device_describe(e.c.device, e.gpu, sizeof e.gpu);
    CHECK_CUDA(cudaStreamCreate(&e.s));
    e.nt_max = nt_max;
    if (!strcmp(fig, "layout")) {
        fig_layout(&e, argc, argv);
    } else if (!strcmp(fig, "sparse")) {
        if (!strcmp(precision, "double")) fig_sparse<double>(&e, argc, argv, precision);
        else fig_sparse<float>(&e, argc, argv, precision);
    } else if (!strcmp(fig, "bandwidth")) {
        fig_bandwidth(&e, argc, argv);
    } else if (!strcmp(fig, "tune")) {
        fig_tune(&e, argc, argv);
    } else {
        /* log-spaced subsets of the thesis's ranges (section 5.1: 1..7000, 1..2500, 1..600) */
        static const long long n1[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 4000, 7000};
        static const long long n2[] = {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500};
        static const long long n3[] = {1, 2, 5, 10, 20, 50, 100, 200, 400, 600};
        static const long long q1[] = {1, 10, 100, 1000, 7000}, q2[] = {1, 10, 100, 2500}, q3[] = {1, 10, 100, 600};
        int which = fig[2] - '1';
        const long long *lists[3][2] = {{n1, q1}, {n2, q2}, {n3, q3}};
        int counts[3][2] = {{13, 5}, {11, 4}, {10, 4}};
        const char *dims[3] = {"33x33", "9x9x9", "9x9x5x5"};
        const char *files[3] = {"sparsegrid_fig5_1_2d.dat", "sparsegrid_fig5_2_3d.dat", "sparsegrid_fig5_3_4d.dat"};
        long long nts[16];
        int cnt = 0;
        for (int i = 0; i < counts[which][e.c.quick]; i++) {
            long long v = lists[which][e.c.quick][i];
            if (!nt_max || v <= nt_max) nts[cnt++] = v;
        }
        fig5(&e, fig, dims[which], nts, cnt, files[which], argc, argv);
    }
    CHECK_CUDA(cudaStreamDestroy(e.s));
    return 0;
}
