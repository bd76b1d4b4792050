/* hashmesh.cu -- the experiments of Robey, Nicholaeff, Robey, "Hash-based algorithms for
 * discretized data" (LANL): Fig. 3.3-3.7, 3.9-3.11 and Tables 4.1, 4.2, on one GPU and the
 * host CPU of the same machine.
 *
 *   ./hashmesh --exp=fig3_3 [--quick] [--out=results]     one experiment -> one .dat file
 *
 * Every size of every experiment: inputs from --seed (gen.h) -> the CPU hash result as the
 * reference -> each other method run once and compared (sorts and neighbours: exact index
 * equality; remaps: within 1e-10 relative, totals conserved; table: within 1e-10 of the
 * bisection result) -> timing (bench.h).  A failed check: message, exit 1, no data file.
 * CPU codes are serial (as the paper's CPU reference codes); the GPU codes time only the
 * device work on device-resident inputs (no transfers); tables and scratch are allocated
 * outside the timed region, clearing the table is inside it. */
#include <cub/device/device_radix_sort.cuh>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/verify.h"
#include "gen.h"
#include "hash.h"
#include "baseline.h"
#include "kernels.cuh"

/* ---------------- configuration ---------------- */
typedef struct {
    common_opts c;
    int max_log2, cpu_max, kd_max, brute_max, tab_log2, levmax;
    double frac;
    char gpu[256];
    char cpu[256]; /* host CPU model (/proc/cpuinfo), for the `# cpu:` metadata line */
    int argc;
    char **argv;
    cudaStream_t s;
    size_t l2;
} cfg;

enum { M_MAX = 6 };
typedef struct { /* medians (ms) of one measurement point, by method name; < 0: not run */
    const char *name[M_MAX];
    double ms[M_MAX];
    int k;
    long m; /* 1D sorts: the hash table size m of Listing 1, line 2 */
} results;
static void res_put(results *r, const char *name, double ms)
{
    if (!r || r->k >= M_MAX) return;
    r->name[r->k] = name;
    r->ms[r->k++] = ms;
}
static double res_get(const results *r, const char *name)
{
    for (int k = 0; k < r->k; k++)
        if (!strcmp(r->name[k], name)) return r->ms[k];
    return -1;
}

/* The host CPU's model name (the CPU columns of every figure and Table 4.1 depend on it). */
static void host_cpu_name(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) || !colon) continue;
        colon++;
        while (*colon == ' ' || *colon == '\t') colon++;
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(buf, size, "%s", colon);
        break;
    }
    fclose(f);
}

/* A failure: the open data file (if any) is discarded, exit 1. */
#define FAIL(d, ...)                            \
    do {                                        \
        if (d) datfile_discard(d);              \
        DIE(__VA_ARGS__);                       \
    } while (0)

static int within(long n, int cap_log2) { return n <= (long)(1.1 * (double)(1L << cap_log2)); }

/* CPU timing: the first run is a warm-up that also sizes the measurement (slow baselines
 * get fewer samples so the whole sweep stays within minutes; the reps column says so). */
static bench_stats time_host(bench_host_fn fn, void *ctx, const cfg *r)
{
    double t0 = bench_now_ms();
    fn(ctx);
    double t = bench_now_ms() - t0;
    int reps = r->c.reps, warm = r->c.warmup > 0 ? r->c.warmup - 1 : 0;
    if (t > 1000) { reps = 1; warm = 0; }
    else if (t > 250) { reps = reps < 3 ? reps : 3; warm = 0; }
    else if (t > 40) { reps = reps < 5 ? reps : 5; warm = 0; }
    return bench_host(fn, ctx, warm, reps, r->c.batch ? r->c.batch : (t < 1.0 ? 0 : 1));
}
static bench_stats time_gpu(bench_gpu_fn fn, void *ctx, const cfg *r)
{
    return bench_gpu(fn, ctx, r->s, r->c.warmup, r->c.reps, r->c.batch);
}

static void put_row(datfile *d, long n, double param, const char *method, bench_stats st, results *res)
{
    res_put(res, method, st.median);
    fprintf(stderr, "  n %9ld  param %-6g %-11s %10.4f ms  [%.4f, %.4f]  reps %d batch %d\n", n, param, method, st.median,
            st.min, st.max, st.n, st.batch);
    if (!d) return;
    if (bench_warn_spread(method, st))
        datfile_meta(d, "warning", "spread %.0f%% for %s at n=%ld", 100 * bench_spread(st), method, n);
    datfile_row(d, "%ld %.10g %s %.6f %.6f %.6f %d %d %.3f", n, param, method, st.median, st.min, st.max, st.n, st.batch,
                n / (st.median * 1e-3) / 1e6);
}

static datfile *open_dat(datfile *d, const cfg *r, const char *name, const char *figure, const char *param_meaning)
{
    dat_meta m = dat_meta_of("hashmesh/hashmesh", figure, r->argc, r->argv, r->gpu, &r->c);
    datfile_open(d, r->c.out, name, &m);
    datfile_meta(d, "cpu", "serial C on one core of the GPU host (%s), gcc via nvcc -O3", r->cpu);
    datfile_meta(d, "param", "%s", param_meaning);
    datfile_meta(d, "columns", "median/min/max_ms: time per run; reps: samples; mitems_s: n / median (million/s)");
    datfile_columns(d, "n param method median_ms min_ms max_ms reps batch mitems_s");
    return d;
}

static void *dev_alloc(size_t bytes, const char *what) { return device_alloc_or_usage(bytes, what); }
static void *dev_dup(const void *h, size_t bytes, const char *what)
{
    void *p = dev_alloc(bytes, what);
    CHECK_CUDA(cudaMemcpy(p, h, bytes, cudaMemcpyHostToDevice));
    return p;
}
static void *host_alloc(size_t bytes) { return gen_alloc(bytes); }

static void check_index_range(long n, long m, const char *what)
{
    if (n >= 2147483647L || m >= 2147483647L)
        DIE_USAGE("%s: %ld items / %ld hash buckets overflow the 32-bit indices (limit 2^31 - 1)", what, n, m);
}

/* ================= 1D sort (Fig. 3.3, 3.4, Tables 4.1, 4.2) ================= */
typedef struct {
    const keys1d *k;
    int *t, *idx, *left, *right;
    double *sorted;
    qs_pair *buf;
    kd1 *kd;
} h1_ctx;
static void h_hash_sort1d(void *p)
{
    h1_ctx *c = (h1_ctx *)p;
    hash_sort1d_cpu(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->t, c->k->m, c->idx, c->sorted);
}
static void h_qsort1d(void *p)
{
    h1_ctx *c = (h1_ctx *)p;
    qsort_sort1d(c->k->x, c->k->n, c->buf, c->idx);
}
static void h_hash_neigh1d(void *p)
{
    h1_ctx *c = (h1_ctx *)p;
    hash_neigh1d_cpu(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->t, c->k->m, c->left, c->right);
}
static void h_kd_neigh1d(void *p)
{
    h1_ctx *c = (h1_ctx *)p;
    kd1_neigh1d(c->kd, c->k->x, c->k->n, c->left, c->right);
}
static void h_brute_neigh1d(void *p)
{
    h1_ctx *c = (h1_ctx *)p;
    brute_neigh1d(c->k->x, c->k->n, c->left, c->right);
}

typedef struct {
    const double *kin;
    double *kout;
    const int *vin;
    int *vout;
    int n;
    void *tmp;
    size_t bytes;
} radix_ctx;
/* CUB DeviceRadixSort (replaces the paper's CUDPP radix sort): keys with their indices */
static void gpu_radix_sort(void *p, cudaStream_t s)
{
    radix_ctx *c = (radix_ctx *)p;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(c->tmp, c->bytes, c->kin, c->kout, c->vin, c->vout, c->n, 0, 64, s));
}

/* which: bit 1 CPU methods, bit 2 GPU methods */
static void measure_sort1d(const cfg *r, long n, double ratio, datfile *d, double param, results *res, int which)
{
    keys1d k;
    keys1d_generate(&k, n, 2.0, 2.0 * ratio, r->c.seed + (uint64_t)n * 31 + (uint64_t)(ratio * 8));
    check_index_range(n, k.m, "1D sort");
    if (res) res->m = k.m;
    int *t = (int *)host_alloc(sizeof(int) * k.m), *ref = (int *)host_alloc(sizeof(int) * n),
        *got = (int *)host_alloc(sizeof(int) * n);
    double *sorted = (double *)host_alloc(sizeof(double) * n);
    h1_ctx hc = {&k, t, ref, NULL, NULL, sorted, NULL, NULL};
    if (hash_sort1d_cpu(k.x, n, k.xmin, k.dmin, t, k.m, ref, sorted) != n) FAIL(d, "1D hash sort: a bucket collision (n %ld)", n);
    for (long i = 1; i < n; i++)
        if (!(sorted[i - 1] < sorted[i])) FAIL(d, "1D hash sort: output not ascending at %ld", i);
    if ((which & 1) && within(n, r->cpu_max)) {
        qs_pair *buf = (qs_pair *)host_alloc(sizeof(qs_pair) * n);
        h1_ctx qc = {&k, NULL, got, NULL, NULL, NULL, buf, NULL};
        h_qsort1d(&qc);
        if (verify_exact(got, ref, n, sizeof(int), "qsort vs CPU hash sort")) FAIL(d, "1D sort: qsort and hash differ");
        put_row(d, n, param, "qsort", time_host(h_qsort1d, &qc, r), res);
        put_row(d, n, param, "hash_cpu", time_host(h_hash_sort1d, &hc, r), res);
        free(buf);
    }
    if (which & 2) {
        gpu_hash_ctx g;
        memset(&g, 0, sizeof g);
        g.n = (int)n;
        g.m = k.m;
        g.xmin = k.xmin;
        g.dmin = k.dmin;
        g.x = (const double *)dev_dup(k.x, sizeof(double) * n, "1D keys");
        g.t = (int *)dev_alloc(sizeof(int) * k.m, "1D hash table");
        g.off = (int *)dev_alloc(sizeof(int) * k.m, "scan output");
        g.tmp_bytes = hm_scan_bytes(k.m);
        g.tmp = dev_alloc(g.tmp_bytes, "scan scratch");
        g.idx = (int *)dev_alloc(sizeof(int) * n, "sorted indices");
        g.sorted = (double *)dev_alloc(sizeof(double) * n, "sorted keys");
        CHECK_CUDA(cudaMemset(g.idx, 0xAB, sizeof(int) * n)); /* poison */
        CHECK_CUDA(cudaMemset(g.sorted, 0xFF, sizeof(double) * n)); /* NaN poison */
        gpu_hash_sort1d(&g, r->s);
        CHECK_CUDA(cudaStreamSynchronize(r->s));
        CHECK_CUDA(cudaMemcpy(got, g.idx, sizeof(int) * n, cudaMemcpyDeviceToHost));
        if (verify_exact(got, ref, n, sizeof(int), "GPU vs CPU hash sort")) FAIL(d, "1D sort: GPU hash differs from CPU hash");
        double *gs = (double *)host_alloc(sizeof(double) * n);
        CHECK_CUDA(cudaMemcpy(gs, g.sorted, sizeof(double) * n, cudaMemcpyDeviceToHost));
        if (verify_exact(gs, sorted, n, sizeof(double), "GPU vs CPU sorted keys")) FAIL(d, "1D sort: GPU keys differ");
        free(gs);
        put_row(d, n, param, "hash_gpu", time_gpu(gpu_hash_sort1d, &g, r), res);

        radix_ctx rc;
        rc.n = (int)n;
        rc.kin = g.x;
        rc.kout = (double *)dev_alloc(sizeof(double) * n, "radix keys out");
        int *iota = (int *)host_alloc(sizeof(int) * n);
        for (long i = 0; i < n; i++) iota[i] = (int)i;
        rc.vin = (const int *)dev_dup(iota, sizeof(int) * n, "radix values");
        rc.vout = (int *)dev_alloc(sizeof(int) * n, "radix values out");
        rc.bytes = 0;
        CHECK_CUDA(cub::DeviceRadixSort::SortPairs(NULL, rc.bytes, rc.kin, rc.kout, rc.vin, rc.vout, rc.n, 0, 64, r->s));
        rc.tmp = dev_alloc(rc.bytes, "radix scratch");
        CHECK_CUDA(cudaMemset(rc.vout, 0xAB, sizeof(int) * n));
        gpu_radix_sort(&rc, r->s);
        CHECK_CUDA(cudaStreamSynchronize(r->s));
        CHECK_CUDA(cudaMemcpy(got, rc.vout, sizeof(int) * n, cudaMemcpyDeviceToHost));
        if (verify_exact(got, ref, n, sizeof(int), "CUB radix vs CPU hash sort")) FAIL(d, "1D sort: CUB radix differs");
        put_row(d, n, param, "radix_gpu", time_gpu(gpu_radix_sort, &rc, r), res);
        free(iota);
        CHECK_CUDA(cudaFree((void *)g.x)); CHECK_CUDA(cudaFree(g.t)); CHECK_CUDA(cudaFree(g.off));
        CHECK_CUDA(cudaFree(g.tmp)); CHECK_CUDA(cudaFree(g.idx)); CHECK_CUDA(cudaFree(g.sorted));
        CHECK_CUDA(cudaFree(rc.kout)); CHECK_CUDA(cudaFree((void *)rc.vin)); CHECK_CUDA(cudaFree(rc.vout));
        CHECK_CUDA(cudaFree(rc.tmp));
    }
    free(t); free(ref); free(got); free(sorted);
    keys1d_free(&k);
}

/* ================= 1D neighbours (Fig. 3.6) ================= */
static void measure_neigh1d(const cfg *r, long n, datfile *d, results *res)
{
    keys1d k;
    keys1d_generate(&k, n, 2.0, 4.0, r->c.seed + (uint64_t)n * 37);
    check_index_range(n, k.m, "1D neighbours");
    int *t = (int *)host_alloc(sizeof(int) * k.m);
    int *lref = (int *)host_alloc(sizeof(int) * n), *rref = (int *)host_alloc(sizeof(int) * n);
    int *l = (int *)host_alloc(sizeof(int) * n), *rr = (int *)host_alloc(sizeof(int) * n);
    h1_ctx hc = {&k, t, NULL, lref, rref, NULL, NULL, NULL};
    h_hash_neigh1d(&hc);
    h1_ctx oc = {&k, NULL, NULL, l, rr, NULL, NULL, NULL};
    if (within(n, r->brute_max)) {
        h_brute_neigh1d(&oc);
        if (verify_exact(l, lref, n, sizeof(int), "brute left") + verify_exact(rr, rref, n, sizeof(int), "brute right"))
            FAIL(d, "1D neighbours: brute force and hash differ");
        put_row(d, n, 0, "brute", time_host(h_brute_neigh1d, &oc, r), res);
    }
    if (within(n, r->kd_max)) {
        kd1 kd;
        kd.key = (double *)host_alloc(sizeof(double) * n);
        kd.idx = (int *)host_alloc(sizeof(int) * n);
        oc.kd = &kd;
        h_kd_neigh1d(&oc);
        if (verify_exact(l, lref, n, sizeof(int), "kd left") + verify_exact(rr, rref, n, sizeof(int), "kd right"))
            FAIL(d, "1D neighbours: k-D tree and hash differ");
        put_row(d, n, 0, "kdtree", time_host(h_kd_neigh1d, &oc, r), res);
        free(kd.key);
        free(kd.idx);
    }
    if (within(n, r->cpu_max)) put_row(d, n, 0, "hash_cpu", time_host(h_hash_neigh1d, &hc, r), res);
    gpu_hash_ctx g;
    memset(&g, 0, sizeof g);
    g.n = (int)n;
    g.m = k.m;
    g.xmin = k.xmin;
    g.dmin = k.dmin;
    g.x = (const double *)dev_dup(k.x, sizeof(double) * n, "1D keys");
    g.t = (int *)dev_alloc(sizeof(int) * k.m, "1D hash table");
    g.left = (int *)dev_alloc(sizeof(int) * n, "left");
    g.right = (int *)dev_alloc(sizeof(int) * n, "right");
    CHECK_CUDA(cudaMemset(g.left, 0xAB, sizeof(int) * n));
    CHECK_CUDA(cudaMemset(g.right, 0xAB, sizeof(int) * n));
    gpu_hash_neigh1d(&g, r->s);
    CHECK_CUDA(cudaStreamSynchronize(r->s));
    CHECK_CUDA(cudaMemcpy(l, g.left, sizeof(int) * n, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(rr, g.right, sizeof(int) * n, cudaMemcpyDeviceToHost));
    if (verify_exact(l, lref, n, sizeof(int), "GPU left") + verify_exact(rr, rref, n, sizeof(int), "GPU right"))
        FAIL(d, "1D neighbours: GPU hash differs from CPU hash");
    put_row(d, n, 0, "hash_gpu", time_gpu(gpu_hash_neigh1d, &g, r), res);
    CHECK_CUDA(cudaFree((void *)g.x)); CHECK_CUDA(cudaFree(g.t)); CHECK_CUDA(cudaFree(g.left)); CHECK_CUDA(cudaFree(g.right));
    free(t); free(lref); free(rref); free(l); free(rr);
    keys1d_free(&k);
}

/* ================= 2D meshes ================= */
/* The 2D perfect hash table, (side * 2^levmax)^2 buckets, must fit: at most 16 GiB and
 * fewer than 2^31 buckets (32-bit indices; it also bounds the cell count). Else exit 2. */
static int mesh_side_checked(const cfg *r, long target)
{
    int side = amr_side_for(target, r->levmax, r->frac);
    double buckets = (double)((long)side << r->levmax) * (double)((long)side << r->levmax);
    if (buckets * sizeof(int) > 16.0 * 1073741824.0 || buckets >= 2147483647.0)
        DIE_USAGE("the 2D perfect hash table, (%d * 2^%d)^2 = %.3g buckets (%.1f GiB), does not fit (limits: 2^31 - 1 "
                  "buckets, 16 GiB): lower --levmax or --max-log2", side, r->levmax, buckets, buckets * 4 / 1073741824.0);
    return side;
}

static void make_mesh(const cfg *r, long target, uint64_t seed, amr_mesh *m, datfile *d)
{
    int side = mesh_side_checked(r, target);
    double buckets = (double)((long)side << r->levmax) * (double)((long)side << r->levmax);
    amr_generate(m, side, side, r->levmax, r->frac, seed);
    check_index_range(m->n, (long)buckets, "2D mesh");
    char why[256];
    if (amr_validate(m, 1, why, sizeof why)) FAIL(d, "generated mesh invalid: %s", why);
}

typedef struct {
    const amr_mesh *m;
    int *t, *idx, *nb;
    qs_cell *qb;
    kd2 *kd;
    const kbox *boxes;
    int err;
} h2_ctx;
static void h_hash_sort2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    hash_sort2d_cpu(c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax, amr_width(c->m), amr_height(c->m), c->t, c->idx);
}
static void h_qsort2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    qsort_sort2d(c->m, c->qb, c->idx);
}
static void h_hash_neigh2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    hash_neigh2d_cpu(c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax, amr_width(c->m), amr_height(c->m), c->t, c->nb);
}
static void h_kd_neigh2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    c->err |= kd2_neigh2d(c->kd, c->m, c->boxes, c->nb);
}
static void h_brute_neigh2d(void *p)
{
    h2_ctx *c = (h2_ctx *)p;
    brute_neigh2d(c->m, c->boxes, c->nb);
}

static void mesh_to_dev(const amr_mesh *m, gpu_hash_ctx *g)
{
    g->n = (int)m->n;
    g->levmax = m->levmax;
    g->W = amr_width(m);
    g->H = amr_height(m);
    g->m = g->W * g->H;
    g->ci = (const int *)dev_dup(m->i, sizeof(int) * m->n, "cells");
    g->cj = (const int *)dev_dup(m->j, sizeof(int) * m->n, "cells");
    g->lev = (const int *)dev_dup(m->lev, sizeof(int) * m->n, "cells");
    g->t = (int *)dev_alloc(sizeof(int) * (size_t)g->m, "2D perfect hash table");
}
static void mesh_dev_free(gpu_hash_ctx *g)
{
    CHECK_CUDA(cudaFree((void *)g->ci)); CHECK_CUDA(cudaFree((void *)g->cj)); CHECK_CUDA(cudaFree((void *)g->lev));
    CHECK_CUDA(cudaFree(g->t));
}

/* Fig. 3.5 */
static void measure_sort2d(const cfg *r, long target, datfile *d, results *res)
{
    amr_mesh m;
    make_mesh(r, target, r->c.seed + (uint64_t)target * 41, &m, d);
    long n = m.n, W = amr_width(&m), H = amr_height(&m);
    int *t = (int *)host_alloc(sizeof(int) * W * H), *ref = (int *)host_alloc(sizeof(int) * n),
        *got = (int *)host_alloc(sizeof(int) * n);
    h2_ctx hc = {&m, t, ref, NULL, NULL, NULL, NULL, 0};
    if (hash_sort2d_cpu(m.i, m.j, m.lev, n, m.levmax, W, H, t, ref) != n) FAIL(d, "2D hash sort: collision");
    if (within(n, r->cpu_max)) {
        qs_cell *qb = (qs_cell *)host_alloc(sizeof(qs_cell) * n);
        h2_ctx qc = {&m, NULL, got, NULL, qb, NULL, NULL, 0};
        h_qsort2d(&qc);
        if (verify_exact(got, ref, n, sizeof(int), "qsort vs hash 2D")) FAIL(d, "2D sort: qsort and hash differ");
        put_row(d, n, (double)W * H, "qsort", time_host(h_qsort2d, &qc, r), res);
        put_row(d, n, (double)W * H, "hash_cpu", time_host(h_hash_sort2d, &hc, r), res);
        free(qb);
    }
    gpu_hash_ctx g;
    memset(&g, 0, sizeof g);
    mesh_to_dev(&m, &g);
    g.off = (int *)dev_alloc(sizeof(int) * (size_t)g.m, "scan output");
    g.tmp_bytes = hm_scan_bytes(g.m);
    g.tmp = dev_alloc(g.tmp_bytes, "scan scratch");
    g.idx = (int *)dev_alloc(sizeof(int) * n, "sorted indices");
    CHECK_CUDA(cudaMemset(g.idx, 0xAB, sizeof(int) * n));
    gpu_hash_sort2d(&g, r->s);
    CHECK_CUDA(cudaStreamSynchronize(r->s));
    CHECK_CUDA(cudaMemcpy(got, g.idx, sizeof(int) * n, cudaMemcpyDeviceToHost));
    if (verify_exact(got, ref, n, sizeof(int), "GPU vs CPU hash 2D sort")) FAIL(d, "2D sort: GPU hash differs from CPU hash");
    put_row(d, n, (double)W * H, "hash_gpu", time_gpu(gpu_hash_sort2d, &g, r), res);
    CHECK_CUDA(cudaFree(g.off)); CHECK_CUDA(cudaFree(g.tmp)); CHECK_CUDA(cudaFree(g.idx));
    mesh_dev_free(&g);
    free(t); free(ref); free(got);
    amr_free(&m);
}

/* Fig. 3.7 */
static void measure_neigh2d(const cfg *r, long target, datfile *d, results *res)
{
    amr_mesh m;
    make_mesh(r, target, r->c.seed + (uint64_t)target * 43, &m, d);
    long n = m.n, W = amr_width(&m), H = amr_height(&m);
    int *t = (int *)host_alloc(sizeof(int) * W * H), *ref = (int *)host_alloc(sizeof(int) * 4 * n),
        *got = (int *)host_alloc(sizeof(int) * 4 * n);
    kbox *boxes = (kbox *)host_alloc(sizeof(kbox) * n);
    amr_boxes(&m, boxes);
    h2_ctx hc = {&m, t, NULL, ref, NULL, NULL, boxes, 0};
    h_hash_neigh2d(&hc);
    h2_ctx oc = {&m, NULL, NULL, got, NULL, NULL, boxes, 0};
    if (within(n, r->brute_max)) {
        h_brute_neigh2d(&oc);
        if (verify_exact(got, ref, 4 * n, sizeof(int), "brute vs hash 2D neighbours")) FAIL(d, "2D neighbours: brute differs");
        put_row(d, n, (double)W * H, "brute", time_host(h_brute_neigh2d, &oc, r), res);
    }
    if (within(n, r->kd_max)) {
        kd2 kd;
        kd2_alloc(&kd, n);
        oc.kd = &kd;
        h_kd_neigh2d(&oc);
        if (oc.err || verify_exact(got, ref, 4 * n, sizeof(int), "k-D tree vs hash 2D neighbours"))
            FAIL(d, "2D neighbours: k-D tree differs");
        put_row(d, n, (double)W * H, "kdtree", time_host(h_kd_neigh2d, &oc, r), res);
        if (oc.err) FAIL(d, "2D neighbours: k-D tree query failed");
        kd2_free(&kd);
    }
    if (within(n, r->cpu_max)) put_row(d, n, (double)W * H, "hash_cpu", time_host(h_hash_neigh2d, &hc, r), res);
    gpu_hash_ctx g;
    memset(&g, 0, sizeof g);
    mesh_to_dev(&m, &g);
    g.nb = (int *)dev_alloc(sizeof(int) * 4 * n, "neighbours");
    CHECK_CUDA(cudaMemset(g.nb, 0xAB, sizeof(int) * 4 * n));
    gpu_hash_neigh2d(&g, r->s);
    CHECK_CUDA(cudaStreamSynchronize(r->s));
    CHECK_CUDA(cudaMemcpy(got, g.nb, sizeof(int) * 4 * n, cudaMemcpyDeviceToHost));
    if (verify_exact(got, ref, 4 * n, sizeof(int), "GPU vs CPU hash 2D neighbours"))
        FAIL(d, "2D neighbours: GPU hash differs from CPU hash");
    put_row(d, n, (double)W * H, "hash_gpu", time_gpu(gpu_hash_neigh2d, &g, r), res);
    CHECK_CUDA(cudaFree(g.nb));
    mesh_dev_free(&g);
    free(t); free(ref); free(got); free(boxes);
    amr_free(&m);
}

/* ================= remaps (Fig. 3.9, 3.10) ================= */
typedef struct {
    const mesh1d *o, *w;
    const amr_mesh *mo, *mw;
    const field *f;
    int *t;
    long L;
    kd2 *kd;
    const kbox *ob, *nbx;
    long na, nb;
    int *hits;
    long cap;
    qs_pair *ba, *bb;
    double *out;
    int err;
} hr_ctx;
static void h_hash_remap1d(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    hash_remap1d_cpu(c->o->lo, c->o->hi, c->o->n, c->f->mean, c->f->gx, c->w->lo, c->w->hi, c->w->n, c->t, c->L, c->out);
}
static void h_sort_remap1d(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    sort_remap1d(c->o, c->f->mean, c->f->gx, c->w, c->ba, c->bb, c->out);
}
static void h_kd_remap(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    c->err |= kd2_remap(c->kd, c->ob, c->na, c->f->mean, c->f->gx, c->f->gy, c->nbx, c->nb, c->hits, c->cap, c->out);
}
static void h_brute_remap(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    brute_remap(c->ob, c->na, c->f->mean, c->f->gx, c->f->gy, c->nbx, c->nb, c->out);
}
static void h_hash_remap2d(void *p)
{
    hr_ctx *c = (hr_ctx *)p;
    hash_remap2d_cpu(c->mo->i, c->mo->j, c->mo->lev, c->mo->n, c->f->mean, c->f->gx, c->f->gy, c->mw->i, c->mw->j,
                     c->mw->lev, c->mw->n, c->mo->levmax, amr_width(c->mo), amr_height(c->mo), c->t, c->out);
}

static void check_remap(datfile *d, const double *got, const double *ref, long nb, const char *what)
{
    if (verify_close_f64(got, ref, nb, 1e-10, 1e-9, what)) FAIL(d, "remap: %s differs", what);
}
static void check_total(datfile *d, const double *out, long nb, double total, double scale, const char *what)
{
    double s = 0;
    for (long b = 0; b < nb; b++) s += out[b];
    if (!(fabs(s - total) <= 1e-10 * scale)) FAIL(d, "remap (%s): total not conserved: %.17g vs %.17g", what, s, total);
}

static void measure_remap1d(const cfg *r, long n, datfile *d, results *res)
{
    mesh1d o, w;
    long L = mesh1d_generate(&o, n, 0, 2, r->c.seed + (uint64_t)n * 47);
    mesh1d_generate(&w, 0, L, 2, r->c.seed + (uint64_t)n * 53);
    check_index_range(n + w.n, L, "1D remap");
    field f, fl;
    field1d_make(&f, &o, 2.0, 1.0 / L, 1.0, L / 7.0 + 3.0); /* non-constant, non-linear */
    field1d_make(&fl, &o, 1.0, 0.5, 0, 1);                   /* linear: must be exact */
    double total = 0, scale = 0;
    for (long a = 0; a < o.n; a++) {
        total += f.mean[a] * (o.hi[a] - o.lo[a]);
        scale += fabs(f.mean[a]) * (o.hi[a] - o.lo[a]);
    }
    int *t = (int *)host_alloc(sizeof(int) * L);
    double *ref = (double *)host_alloc(sizeof(double) * w.n), *got = (double *)host_alloc(sizeof(double) * w.n);
    hr_ctx hc;
    memset(&hc, 0, sizeof hc);
    hc.o = &o; hc.w = &w; hc.f = &fl; hc.t = t; hc.L = L; hc.out = got; hc.na = o.n; hc.nb = w.n;
    h_hash_remap1d(&hc); /* exactness for a linear field */
    for (long b = 0; b < w.n; b++) {
        double xc = 0.5 * (w.lo[b] + w.hi[b]), e = got[b] / (w.hi[b] - w.lo[b]) - (1.0 + 0.5 * xc);
        if (!(fabs(e) <= 1e-12 * (1 + 0.5 * L))) FAIL(d, "1D remap not exact for a linear field at new cell %ld", b);
    }
    hc.f = &f;
    hc.out = ref;
    h_hash_remap1d(&hc);
    check_total(d, ref, w.n, total, scale, "CPU hash");
    kbox *ob = (kbox *)host_alloc(sizeof(kbox) * o.n), *nbx = (kbox *)host_alloc(sizeof(kbox) * w.n);
    mesh1d_boxes(&o, ob);
    mesh1d_boxes(&w, nbx);
    int hits[64];
    hr_ctx oc = hc;
    oc.out = got; oc.ob = ob; oc.nbx = nbx; oc.hits = hits; oc.cap = 64;
    if (within(n, r->brute_max)) {
        h_brute_remap(&oc);
        check_remap(d, got, ref, w.n, "brute force vs CPU hash 1D remap");
        put_row(d, n, (double)L, "brute", time_host(h_brute_remap, &oc, r), res);
    }
    if (within(n, r->kd_max)) {
        kd2 kd;
        kd2_alloc(&kd, o.n);
        oc.kd = &kd;
        h_kd_remap(&oc);
        if (oc.err) FAIL(d, "1D remap: k-D tree query overflow");
        check_remap(d, got, ref, w.n, "k-D tree vs CPU hash 1D remap");
        put_row(d, n, (double)L, "kdtree", time_host(h_kd_remap, &oc, r), res);
        kd2_free(&kd);
    }
    if (within(n, r->cpu_max)) {
        oc.ba = (qs_pair *)host_alloc(sizeof(qs_pair) * o.n);
        oc.bb = (qs_pair *)host_alloc(sizeof(qs_pair) * w.n);
        h_sort_remap1d(&oc);
        check_remap(d, got, ref, w.n, "sort-based (Listing 4) vs CPU hash 1D remap");
        put_row(d, n, (double)L, "sort_based", time_host(h_sort_remap1d, &oc, r), res);
        free(oc.ba);
        free(oc.bb);
        put_row(d, n, (double)L, "hash_cpu", time_host(h_hash_remap1d, &hc, r), res);
    }
    gpu_remap_ctx g;
    memset(&g, 0, sizeof g);
    g.na = (int)o.n; g.nb = (int)w.n; g.L = L;
    g.olo = (const int *)dev_dup(o.lo, sizeof(int) * o.n, "old mesh");
    g.ohi = (const int *)dev_dup(o.hi, sizeof(int) * o.n, "old mesh");
    g.nlo = (const int *)dev_dup(w.lo, sizeof(int) * w.n, "new mesh");
    g.nhi = (const int *)dev_dup(w.hi, sizeof(int) * w.n, "new mesh");
    g.mean = (const double *)dev_dup(f.mean, sizeof(double) * o.n, "field");
    g.gx = (const double *)dev_dup(f.gx, sizeof(double) * o.n, "field");
    g.t = (int *)dev_alloc(sizeof(int) * L, "1D remap hash table");
    g.out = (double *)dev_alloc(sizeof(double) * w.n, "remap output");
    CHECK_CUDA(cudaMemset(g.out, 0xFF, sizeof(double) * w.n)); /* NaN poison */
    gpu_hash_remap1d(&g, r->s);
    CHECK_CUDA(cudaStreamSynchronize(r->s));
    CHECK_CUDA(cudaMemcpy(got, g.out, sizeof(double) * w.n, cudaMemcpyDeviceToHost));
    check_remap(d, got, ref, w.n, "GPU vs CPU hash 1D remap");
    check_total(d, got, w.n, total, scale, "GPU hash");
    put_row(d, n, (double)L, "hash_gpu", time_gpu(gpu_hash_remap1d, &g, r), res);
    CHECK_CUDA(cudaFree((void *)g.olo)); CHECK_CUDA(cudaFree((void *)g.ohi)); CHECK_CUDA(cudaFree((void *)g.nlo));
    CHECK_CUDA(cudaFree((void *)g.nhi)); CHECK_CUDA(cudaFree((void *)g.mean)); CHECK_CUDA(cudaFree((void *)g.gx));
    CHECK_CUDA(cudaFree(g.t)); CHECK_CUDA(cudaFree(g.out));
    free(t); free(ref); free(got); free(ob); free(nbx);
    field_free(&f); field_free(&fl);
    mesh1d_free(&o); mesh1d_free(&w);
}

static void measure_remap2d(const cfg *r, long target, datfile *d, results *res)
{
    amr_mesh mo, mw;
    make_mesh(r, target, r->c.seed + (uint64_t)target * 59, &mo, d);
    make_mesh(r, target, r->c.seed + (uint64_t)target * 61 + 1, &mw, d);
    long n = mo.n, W = amr_width(&mo), H = amr_height(&mo);
    field f, fl;
    field2d_make(&f, &mo, 2.0, 1.0 / W, -0.5 / H, 1.0, W / 5.0 + 3.0);
    field2d_make(&fl, &mo, 1.0, 0.25, -0.125, 0, 1);
    double total = 0, scale = 0;
    for (long a = 0; a < n; a++) {
        double ar = (double)(1L << (2 * (mo.levmax - mo.lev[a])));
        total += f.mean[a] * ar;
        scale += fabs(f.mean[a]) * ar;
    }
    int *t = (int *)host_alloc(sizeof(int) * W * H);
    double *ref = (double *)host_alloc(sizeof(double) * mw.n), *got = (double *)host_alloc(sizeof(double) * mw.n);
    hr_ctx hc;
    memset(&hc, 0, sizeof hc);
    hc.mo = &mo; hc.mw = &mw; hc.f = &fl; hc.t = t; hc.out = got; hc.na = n; hc.nb = mw.n;
    h_hash_remap2d(&hc);
    for (long b = 0; b < mw.n; b++) {
        double rr = (double)(1L << (mw.levmax - mw.lev[b]));
        double xc = (mw.i[b] + 0.5) * rr, yc = (mw.j[b] + 0.5) * rr;
        double e = got[b] / (rr * rr) - (1.0 + 0.25 * xc - 0.125 * yc);
        if (!(fabs(e) <= 1e-12 * (1 + 0.25 * W + 0.125 * H))) FAIL(d, "2D remap not exact for a linear field at %ld", b);
    }
    hc.f = &f;
    hc.out = ref;
    h_hash_remap2d(&hc);
    check_total(d, ref, mw.n, total, scale, "CPU hash 2D");
    kbox *ob = (kbox *)host_alloc(sizeof(kbox) * n), *nbx = (kbox *)host_alloc(sizeof(kbox) * mw.n);
    amr_boxes(&mo, ob);
    amr_boxes(&mw, nbx);
    long cap = (4L << (2 * mo.levmax)) + 64;
    int *hits = (int *)host_alloc(sizeof(int) * cap);
    hr_ctx oc = hc;
    oc.out = got; oc.ob = ob; oc.nbx = nbx; oc.hits = hits; oc.cap = cap;
    if (within(n, r->brute_max)) {
        h_brute_remap(&oc);
        check_remap(d, got, ref, mw.n, "brute force vs CPU hash 2D remap");
        put_row(d, n, (double)W * H, "brute", time_host(h_brute_remap, &oc, r), res);
    }
    if (within(n, r->kd_max)) {
        kd2 kd;
        kd2_alloc(&kd, n);
        oc.kd = &kd;
        h_kd_remap(&oc);
        if (oc.err) FAIL(d, "2D remap: k-D tree query overflow");
        check_remap(d, got, ref, mw.n, "k-D tree vs CPU hash 2D remap");
        put_row(d, n, (double)W * H, "kdtree", time_host(h_kd_remap, &oc, r), res);
        kd2_free(&kd);
    }
    if (within(n, r->cpu_max)) put_row(d, n, (double)W * H, "hash_cpu", time_host(h_hash_remap2d, &hc, r), res);
    gpu_remap_ctx g;
    memset(&g, 0, sizeof g);
    g.na = (int)n; g.nb = (int)mw.n; g.levmax = mo.levmax; g.W = W; g.H = H;
    g.oi = (const int *)dev_dup(mo.i, sizeof(int) * n, "old mesh");
    g.oj = (const int *)dev_dup(mo.j, sizeof(int) * n, "old mesh");
    g.ol = (const int *)dev_dup(mo.lev, sizeof(int) * n, "old mesh");
    g.ni = (const int *)dev_dup(mw.i, sizeof(int) * mw.n, "new mesh");
    g.nj = (const int *)dev_dup(mw.j, sizeof(int) * mw.n, "new mesh");
    g.nl = (const int *)dev_dup(mw.lev, sizeof(int) * mw.n, "new mesh");
    g.mean = (const double *)dev_dup(f.mean, sizeof(double) * n, "field");
    g.gx = (const double *)dev_dup(f.gx, sizeof(double) * n, "field");
    g.gy = (const double *)dev_dup(f.gy, sizeof(double) * n, "field");
    g.t = (int *)dev_alloc(sizeof(int) * W * H, "2D perfect hash table");
    g.out = (double *)dev_alloc(sizeof(double) * mw.n, "remap output");
    CHECK_CUDA(cudaMemset(g.out, 0xFF, sizeof(double) * mw.n));
    gpu_hash_remap2d(&g, r->s);
    CHECK_CUDA(cudaStreamSynchronize(r->s));
    CHECK_CUDA(cudaMemcpy(got, g.out, sizeof(double) * mw.n, cudaMemcpyDeviceToHost));
    check_remap(d, got, ref, mw.n, "GPU vs CPU hash 2D remap");
    check_total(d, got, mw.n, total, scale, "GPU hash 2D");
    put_row(d, n, (double)W * H, "hash_gpu", time_gpu(gpu_hash_remap2d, &g, r), res);
    const void *fr[] = {g.oi, g.oj, g.ol, g.ni, g.nj, g.nl, g.mean, g.gx, g.gy, g.t, g.out};
    for (int k = 0; k < 11; k++) CHECK_CUDA(cudaFree((void *)fr[k]));
    free(t); free(ref); free(got); free(ob); free(nbx); free(hits);
    field_free(&f); field_free(&fl);
    amr_free(&mo); amr_free(&mw);
}

/* ================= table look-up (Fig. 3.11) ================= */
/* GPU grid: this many blocks per SM, each staging the table in shared memory once and then
 * interpolating a grid-stride share of the queries (sec. 3.4, "each work-group makes a copy") */
#define TABLE_BLOCKS_PER_SM 8
typedef struct {
    const eos_table *e;
    const double *qx, *qy;
    long nq;
    int method;
    double *out;
} ht_ctx;
static void h_table(void *p)
{
    ht_ctx *c = (ht_ctx *)p;
    table_lookup_cpu(c->method, c->e->p, c->e->rho, EOS_NRHO, c->e->temp, EOS_NT, c->qx, c->qy, c->nq, c->out);
}

static void measure_table(const cfg *r, long nq, datfile *d, results *res, int sms)
{
    eos_table e;
    eos_generate(&e);
    double *qx = (double *)host_alloc(sizeof(double) * nq), *qy = (double *)host_alloc(sizeof(double) * nq);
    eos_queries(&e, nq, qx, qy, r->c.seed + (uint64_t)nq);
    double *ref = (double *)host_alloc(sizeof(double) * nq), *got = (double *)host_alloc(sizeof(double) * nq);
    ht_ctx rc = {&e, qx, qy, nq, TAB_BISECT, ref};
    h_table(&rc); /* the double-precision reference: bisection + bilinear */
    const char *names[3] = {"hash_cpu", "linear", "bisection"};
    if (within(nq, r->cpu_max))
        for (int mth = 2; mth >= 0; mth--) {
            ht_ctx c = {&e, qx, qy, nq, mth, got};
            h_table(&c);
            if (verify_close_f64(got, ref, nq, 1e-10, 1e-9, names[mth])) FAIL(d, "table: %s differs", names[mth]);
            put_row(d, nq, EOS_NRHO * EOS_NT, names[mth], time_host(h_table, &c, r), res);
        }
    gpu_table_ctx g;
    g.nx = EOS_NRHO; g.ny = EOS_NT; g.nq = nq; g.blocks = sms * TABLE_BLOCKS_PER_SM;
    g.data = (const double *)dev_dup(e.p, sizeof e.p, "table");
    g.xaxis = (const double *)dev_dup(e.rho, sizeof e.rho, "axis");
    g.yaxis = (const double *)dev_dup(e.temp, sizeof e.temp, "axis");
    g.qx = (const double *)dev_dup(qx, sizeof(double) * nq, "queries");
    g.qy = (const double *)dev_dup(qy, sizeof(double) * nq, "queries");
    g.out = (double *)dev_alloc(sizeof(double) * nq, "table output");
    CHECK_CUDA(cudaMemset(g.out, 0xFF, sizeof(double) * nq));
    gpu_table_hash(&g, r->s);
    CHECK_CUDA(cudaStreamSynchronize(r->s));
    CHECK_CUDA(cudaMemcpy(got, g.out, sizeof(double) * nq, cudaMemcpyDeviceToHost));
    if (verify_close_f64(got, ref, nq, 1e-10, 1e-9, "GPU hash table")) FAIL(d, "table: GPU hash differs");
    put_row(d, nq, EOS_NRHO * EOS_NT, "hash_gpu", time_gpu(gpu_table_hash, &g, r), res);
    const void *fr[] = {g.data, g.xaxis, g.yaxis, g.qx, g.qy, g.out};
    for (int k = 0; k < 6; k++) CHECK_CUDA(cudaFree((void *)fr[k]));
    free(qx); free(qy); free(ref); free(got);
}

/* ================= Table 4.1 from the figures' data ================= */
typedef struct {
    long n;
    double ref, cpu, gpu;
} tab_row;
/* The row set (ref method, hash_cpu, hash_gpu) at the n nearest `target` (log distance)
 * among the sizes where all three were measured. Returns 0 on success. */
static int tab_find(const char *path, const char *ref, long target, tab_row *out)
{
    FILE *f = fopen(path, "r");
    if (!f) return 1;
    char line[1024];
    enum { CAP = 64 };
    tab_row rows[CAP];
    int nr = 0, header = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        if (!header) { header = 1; continue; } /* n param method median_ms ... */
        long n;
        double param, ms;
        char method[64];
        if (sscanf(line, "%ld %lf %63s %lf", &n, &param, method, &ms) != 4) continue;
        int k = 0;
        while (k < nr && rows[k].n != n) k++;
        if (k == nr) {
            if (nr == CAP) continue;
            rows[nr].n = n;
            rows[nr].ref = rows[nr].cpu = rows[nr].gpu = -1;
            nr++;
        }
        if (!strcmp(method, ref)) rows[k].ref = ms;
        if (!strcmp(method, "hash_cpu")) rows[k].cpu = ms;
        if (!strcmp(method, "hash_gpu")) rows[k].gpu = ms;
    }
    fclose(f);
    int best = -1;
    for (int k = 0; k < nr; k++) {
        if (rows[k].ref <= 0 || rows[k].cpu <= 0 || rows[k].gpu <= 0) continue;
        if (best < 0 || fabs(log((double)rows[k].n / target)) < fabs(log((double)rows[best].n / target))) best = k;
    }
    if (best < 0) return 1;
    *out = rows[best];
    return 0;
}

/* ================= sweeps ================= */
static int sizes(const cfg *r, long *out)
{
    static const int full[] = {10, 12, 14, 16, 18, 20, 21, 22, 24};
    static const int quick[] = {10, 14, 16, 18};
    const int *s = r->c.quick ? quick : full;
    int k = 0, cnt = r->c.quick ? 4 : 9;
    for (int a = 0; a < cnt; a++)
        if (s[a] <= r->max_log2) out[k++] = 1L << s[a];
    return k;
}

int main(int argc, char **argv)
{
    cfg r;
    memset(&r, 0, sizeof r);
    r.c = common_opts_default();
    const char *exp = "fig3_3";
    r.max_log2 = 0; /* 0: 24, --quick 18 */
    r.cpu_max = 22;
    r.kd_max = 21;
    r.brute_max = 13;
    r.tab_log2 = 21;
    r.levmax = 1;
    r.frac = 0.3;
    arg_opt opts[] = {
        COMMON_ARGS(r.c),
        {"exp", ARG_CHOICE, &exp, "experiment (one .dat file each)", 0, 0,
         "fig3_3 fig3_4 fig3_5 fig3_6 fig3_7 fig3_9 fig3_10 fig3_11 tab4_1 tab4_2"},
        {"max-log2", ARG_INT, &r.max_log2, "largest size 2^k of the sweeps 2^10, 2^12, ..., 2^24 (0: 24, --quick 18; --quick: at most 18)", 10,
         24, NULL},
        {"cpu-max-log2", ARG_INT, &r.cpu_max, "largest size timed on the CPU (qsort, CPU hash, sort-based)", 4, 26, NULL},
        {"kd-max-log2", ARG_INT, &r.kd_max, "largest size for the k-D tree baselines", 4, 26, NULL},
        {"brute-max-log2", ARG_INT, &r.brute_max, "largest size for the O(n^2) brute force", 2, 18, NULL},
        {"tab-log2", ARG_INT, &r.tab_log2, "Table 4.1 takes the figures' rows nearest 2^k (paper: ~2 million)", 8, 24, NULL},
        {"levmax", ARG_INT, &r.levmax, "2D meshes: finest level (paper: 1)", 0, 16, NULL},
        {"refine-frac", ARG_DOUBLE, &r.frac, "2D meshes: fraction of coarse cells refined before smoothing", 0, 1, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "hashmesh --exp=NAME [options]",
               "Perfect spatial hashing (Robey, Nicholaeff, Robey): sort, neighbours, remap, table look-up\n"
               "on the CPU (serial C) and the GPU, against qsort, CUB radix sort, k-D trees and brute force.");
    common_opts_finish(&r.c);
    if (r.c.quick && r.max_log2 > 18) DIE_USAGE("--max-log2=%d: --quick allows at most 18", r.max_log2);
    if (!r.max_log2) r.max_log2 = r.c.quick ? 18 : 24;
    if (r.c.quick) {
        if (r.tab_log2 > 16) r.tab_log2 = 16;
        if (r.kd_max > 16) r.kd_max = 16;
        if (r.brute_max > 11) r.brute_max = 11;
    }
    r.argc = argc;
    r.argv = argv;
    if (!strcmp(exp, "fig3_5") || !strcmp(exp, "fig3_7") || !strcmp(exp, "fig3_10"))
        mesh_side_checked(&r, 1L << r.max_log2); /* bad sizes are refused before the GPU is needed */
    device_require(r.c.device, 7, 5);
    device_describe(r.c.device, r.gpu, sizeof r.gpu);
    host_cpu_name(r.cpu, sizeof r.cpu);
    struct cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, r.c.device));
    r.l2 = (size_t)prop.l2CacheSize;
    CHECK_CUDA(cudaStreamCreate(&r.s));

    long ns[16];
    int nn = sizes(&r, ns);
    datfile df;
    datfile *d = &df;
    if (!strcmp(exp, "fig3_3")) {
        open_dat(d, &r, "hashmesh_fig3_3_sort1d.dat", "Fig. 3.3 (1D sort: qsort, CPU hash, GPU hash, radix)",
                 "dmax/dmin (2 here; dmin = 2, dmax = 4 as in the paper)");
        for (int a = 0; a < nn; a++) measure_sort1d(&r, ns[a], 2.0, d, 2.0, NULL, 3);
    } else if (!strcmp(exp, "fig3_4")) {
        open_dat(d, &r, "hashmesh_fig3_4_sort_ratio.dat", "Fig. 3.4 (1D sort vs dmax/dmin)",
                 "dmax/dmin (dmin = 2): the hash table grows with the ratio");
        long n = r.c.quick ? 1L << 14 : 1L << 20;
        double ratios[] = {1, 2, 4, 8, 16, 32};
        for (int a = 0; a < 6; a++) measure_sort1d(&r, n, ratios[a], d, ratios[a], NULL, 3);
    } else if (!strcmp(exp, "fig3_5")) {
        open_dat(d, &r, "hashmesh_fig3_5_sort2d.dat", "Fig. 3.5 (2D sort of AMR cells)", "finest-level hash buckets W*H");
        for (int a = 0; a < nn; a++) measure_sort2d(&r, ns[a], d, NULL);
    } else if (!strcmp(exp, "fig3_6")) {
        open_dat(d, &r, "hashmesh_fig3_6_neigh1d.dat", "Fig. 3.6 (1D neighbours)", "unused (0)");
        for (int a = 0; a < nn; a++) measure_neigh1d(&r, ns[a], d, NULL);
    } else if (!strcmp(exp, "fig3_7")) {
        open_dat(d, &r, "hashmesh_fig3_7_neigh2d.dat", "Fig. 3.7 (2D neighbours, Listing 2)", "finest-level hash buckets W*H");
        for (int a = 0; a < nn; a++) measure_neigh2d(&r, ns[a], d, NULL);
    } else if (!strcmp(exp, "fig3_9")) {
        open_dat(d, &r, "hashmesh_fig3_9_remap1d.dat", "Fig. 3.9 (1D remap, Listings 3 and 4)", "domain length L (buckets)");
        for (int a = 0; a < nn; a++) measure_remap1d(&r, ns[a], d, NULL);
    } else if (!strcmp(exp, "fig3_10")) {
        open_dat(d, &r, "hashmesh_fig3_10_remap2d.dat", "Fig. 3.10 (2D remap)", "finest-level hash buckets W*H");
        for (int a = 0; a < nn; a++) measure_remap2d(&r, ns[a], d, NULL);
    } else if (!strcmp(exp, "fig3_11")) {
        open_dat(d, &r, "hashmesh_fig3_11_table.dat", "Fig. 3.11 (table look-up, Listing 5)", "table entries (51 x 23)");
        for (int a = 0; a < nn; a++) measure_table(&r, ns[a], d, NULL, prop.multiProcessorCount);
    } else if (!strcmp(exp, "tab4_2")) {
        /* measured (and verified) first, written after: a failed check inside measure_sort1d
         * then leaves no half-written hashmesh_tab4_2_*.dat.tmp behind */
        static const int lg_full[] = {16, 18, 20, 21, 22, 23, 24}, lg_quick[] = {14, 16};
        const int *lg = r.c.quick ? lg_quick : lg_full;
        int cnt = r.c.quick ? 2 : 7, nrow = 0;
        struct {
            long n, m;
            double hash_ms, radix_ms;
        } row[7];
        for (int a = 0; a < cnt; a++) {
            if (lg[a] > r.max_log2) continue;
            results res;
            memset(&res, 0, sizeof res);
            row[nrow].n = 1L << lg[a];
            measure_sort1d(&r, row[nrow].n, 2.0, NULL, 2.0, &res, 2);
            row[nrow].m = res.m;
            row[nrow].hash_ms = res_get(&res, "hash_gpu");
            row[nrow].radix_ms = res_get(&res, "radix_gpu");
            nrow++;
        }
        dat_meta m = dat_meta_of("hashmesh/hashmesh", "Table 4.2 (GPU hash sort vs fastest general-purpose GPU sort)",
                                 argc, argv, r.gpu, &r.c);
        datfile_open(d, r.c.out, "hashmesh_tab4_2_hash_vs_radix.dat", &m);
        datfile_meta(d, "baseline", "CUB DeviceRadixSort::SortPairs (double keys, int indices, 64 bits) replaces CUDPP radix");
        datfile_meta(d, "l2_bytes", "%zu", r.l2);
        datfile_meta(d, "fits_l2", "1 when n (8 + 8 + 4 + 4) + 8 table_buckets bytes fit in l2_bytes (an estimate)");
        datfile_meta(d, "paper", "NVIDIA (Tesla C2050) hash vs CUDPP radix: 2.68x; ATI hash: 3.57x (at about 2 million keys)");
        datfile_columns(d, "n table_buckets fits_l2 gpu_hash_ms radix_ms speedup_x paper_nvidia_x");
        for (int a = 0; a < nrow; a++) {
            int fits = (size_t)row[a].n * (8 + 8 + 4 + 4) + (size_t)row[a].m * 8 <= r.l2;
            datfile_row(d, "%ld %ld %d %.6f %.6f %.3f %.2f", row[a].n, row[a].m, fits, row[a].hash_ms, row[a].radix_ms,
                        row[a].radix_ms / row[a].hash_ms, 2.68);
        }
    } else { /* tab4_1: from the figures' data at the size nearest 2^tab-log2 */
        dat_meta m = dat_meta_of("hashmesh/hashmesh", "Table 4.1 (algorithm speed-ups at about 2 million elements)", argc,
                                 argv, r.gpu, &r.c);
        const char *alg[7] = {"Sort", "Sort2D", "Neighbor", "Neighbor2D", "Remap", "Remap2D", "Table"};
        const char *src[7] = {"hashmesh_fig3_3_sort1d.dat", "hashmesh_fig3_5_sort2d.dat", "hashmesh_fig3_6_neigh1d.dat",
                              "hashmesh_fig3_7_neigh2d.dat", "hashmesh_fig3_9_remap1d.dat", "hashmesh_fig3_10_remap2d.dat",
                              "hashmesh_fig3_11_table.dat"};
        const char *refm[7] = {"qsort", "qsort", "kdtree", "kdtree", "kdtree", "kdtree", "bisection"};
        const double paper[7][3] = {{4.16, 21.5, 89.3}, {16.2, 26.2, 424.1}, {54.4, 16.6, 903.5}, {75.5, 19.1, 1444.0},
                                    {18.4, 26.9, 495.2}, {13.6, 42.2, 574.0}, {2.44, 55.7, 136.2}};
        tab_row rows[7];
        for (int a = 0; a < 7; a++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", r.c.out, src[a]);
            if (tab_find(path, refm[a], 1L << r.tab_log2, &rows[a]))
                DIE("Table 4.1 needs %s with %s, hash_cpu and hash_gpu rows (make the figures first)", path, refm[a]);
        }
        datfile_open(d, r.c.out, "hashmesh_tab4_1_speedups.dat", &m);
        datfile_meta(d, "source", "the rows of the Fig. 3.3/3.5/3.6/3.7/3.9/3.10/3.11 data at the size nearest 2^%d", r.tab_log2);
        datfile_meta(d, "reference", "Sort, Sort2D: qsort; Neighbor, Remap (1D, 2D): k-D tree; Table: bisection");
        datfile_meta(d, "cpu", "serial C on one core of the GPU host (%s)", r.cpu);
        datfile_meta(d, "paper", "columns paper_*: Table 4.1, NVIDIA Tesla C2050 GPU vs one AMD Opteron 6168 core");
        datfile_columns(d, "algorithm n ref_method ref_ms cpu_hash_ms gpu_hash_ms cpu_hash_vs_ref_x gpu_vs_cpu_hash_x "
                           "gpu_vs_ref_x paper_cpu_hash_vs_ref_x paper_gpu_vs_cpu_hash_x paper_gpu_vs_ref_x");
        for (int a = 0; a < 7; a++) {
            tab_row *t = &rows[a];
            datfile_row(d, "%s %ld %s %.6f %.6f %.6f %.2f %.2f %.1f %.2f %.1f %.1f", alg[a], t->n, refm[a], t->ref, t->cpu,
                        t->gpu, t->ref / t->cpu, t->cpu / t->gpu, t->ref / t->gpu, paper[a][0], paper[a][1], paper[a][2]);
            fprintf(stderr, "  %-10s n %8ld: CPU hash %7.2fx over %s (paper %.2f), GPU %7.1fx over CPU hash (paper %.1f), "
                            "%8.1fx over %s (paper %.1f)\n",
                    alg[a], t->n, t->ref / t->cpu, refm[a], paper[a][0], t->cpu / t->gpu, paper[a][1], t->ref / t->gpu,
                    refm[a], paper[a][2]);
        }
    }
    datfile_commit(d);
    CHECK_CUDA(cudaStreamDestroy(r.s));
    return 0;
}
