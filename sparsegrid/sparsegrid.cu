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
    datfile_meta(&d, "cpu", "cpu_tuned on %d OpenMP threads", e->threads);
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

int main(int argc, char **argv)
{
    env e;
    memset(&e, 0, sizeof e);
    e.c = common_opts_default();
    const char *fig = "5.1";
    long long nt_max = 0;
    arg_opt opts[] = {
        COMMON_ARGS(e.c),
        {"fig", ARG_CHOICE, &fig, "experiment", 0, 0, "5.1 5.2 5.3 bandwidth tune error"},
        {"threads", ARG_INT, &e.threads, "CPU threads of cpu_tuned (0: all processors)", 0, 1024, NULL},
        {"tiles-per-block", ARG_INT, &e.tpb, "fused kernel: tiles per block (0: auto)", 0, 4096, NULL},
        {"nt-max", ARG_LONG, &nt_max, "Figs. 5.x: only Nt up to this (0: the thesis's range); tune: Nt (0: 1 GiB)", 0, 1000000, NULL},
        {"max-blocks", ARG_INT, &e.max_blocks, "tune: pipelined kernel launches at most N blocks (0: all resident; small values test the pipeline)", 0, 1000000, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "sparsegrid [options]",
               "Hierarchization of full grids (thesis ch. 5): CPU tuned vs GPU thesis-style vs GPU fused.");
    common_opts_finish(&e.c);
    if (e.threads == 0) e.threads = omp_get_num_procs();

    if (!strcmp(fig, "error")) { /* host only: no GPU needed */
        fig_error(&e, argc, argv);
        return 0;
    }
    device_require(e.c.device, 7, 5);
    device_describe(e.c.device, e.gpu, sizeof e.gpu);
    CHECK_CUDA(cudaStreamCreate(&e.s));
    e.nt_max = nt_max;
    if (!strcmp(fig, "bandwidth")) {
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
