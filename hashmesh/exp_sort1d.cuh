/* exp_sort1d.cuh -- the 1D experiments: sort (Fig. 3.3, 3.4, Table 4.2 and against the best sorts)
 * and neighbours (Fig. 3.6); sec. 3.1 (Listing 1) and sec. 3.2 (1D neighbour hash).
 *
 * Every size: keys from --seed (gen.h), the serial CPU hash result as the reference, every
 * other method run once on poisoned outputs and compared index for index, then timed. */
#ifndef HASHMESH_EXP_SORT1D_CUH
#define HASHMESH_EXP_SORT1D_CUH

#include "harness.cuh"

/* ---------------- the CPU codes on 1D keys ---------------- */
typedef struct {
    const keys1d *k;
    int *t;              /* the perfect hash table, k->m buckets (caller-owned) */
    int *idx;            /* output: sorted indices */
    double *sorted;      /* output: sorted keys (NULL: indices only) */
    int *left, *right;   /* output: neighbours */
    qs_pair *buf;        /* qsort / introsort pairs */
    kd1 *kd;
    uint32_t *key, *k2;  /* LSD radix: bucket indices and scratch */
    int *i2;
    long *hist, *cnt;    /* per-thread histograms and counts */
    int bits, threads;
} s1_ctx;

static void h_qsort1d(void *p)
{
    s1_ctx *c = (s1_ctx *)p;
    qsort_sort1d(c->k->x, c->k->n, c->buf, c->idx);
}
static void h_introsort1d(void *p)
{
    s1_ctx *c = (s1_ctx *)p;
    introsort_sort1d(c->k->x, c->k->n, c->buf, c->idx);
}
static void h_hash_sort1d(void *p) /* Listing 1 */
{
    s1_ctx *c = (s1_ctx *)p;
    hash_sort1d_cpu(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->t, c->k->m, c->idx, c->sorted);
}
static void h_hash_sort1d_omp(void *p)
{
    s1_ctx *c = (s1_ctx *)p;
    hash_sort1d_omp(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->t, c->k->m, c->idx, c->sorted, c->threads, c->cnt);
}
/* LSD radix on the 32-bit bucket index (eq. 2.13), key generation included */
static void h_radix1d(void *p)
{
    s1_ctx *c = (s1_ctx *)p;
    bucket_keys1d(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->key, c->idx, c->threads);
    radix_pairs(c->key, c->idx, c->k2, c->i2, c->k->n, c->bits, c->threads, c->hist);
}
static void h_hash_neigh1d(void *p) /* single write, multiple reads (sec. 3.2) */
{
    s1_ctx *c = (s1_ctx *)p;
    hash_neigh1d_cpu(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->t, c->k->m, c->left, c->right);
}
static void h_hash_neigh1d_omp(void *p)
{
    s1_ctx *c = (s1_ctx *)p;
    hash_neigh1d_omp(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->t, c->k->m, c->left, c->right, c->threads);
}
static void h_kd_neigh1d(void *p)
{
    s1_ctx *c = (s1_ctx *)p;
    kd1_neigh1d(c->kd, c->k->x, c->k->n, c->left, c->right);
}
static void h_kd_neigh1d_omp(void *p)
{
    s1_ctx *c = (s1_ctx *)p;
    kd1_neigh1d_omp(c->kd, c->k->x, c->k->n, c->left, c->right, c->threads);
}
static void h_brute_neigh1d(void *p)
{
    s1_ctx *c = (s1_ctx *)p;
    brute_neigh1d(c->k->x, c->k->n, c->left, c->right);
}
/* neighbours by sorting: radix-sort, then the sorted neighbours */
static void h_radix_neigh1d(void *p)
{
    s1_ctx *c = (s1_ctx *)p;
    radix_neigh1d(c->k->x, c->k->n, c->k->xmin, c->k->dmin, c->bits, c->key, c->idx, c->k2, c->i2, c->hist, c->left,
                  c->right, c->threads);
}

/* outputs and scratch for the CPU codes on the n keys k (t: the caller's table, or NULL) */
static s1_ctx s1_alloc(const keys1d *k, int *t, int threads)
{
    long n = k->n;
    s1_ctx c;
    memset(&c, 0, sizeof c);
    c.k = k;
    c.t = t;
    c.idx = (int *)host_alloc(sizeof(int) * n);
    c.sorted = (double *)host_alloc(sizeof(double) * n);
    c.left = (int *)host_alloc(sizeof(int) * n);
    c.right = (int *)host_alloc(sizeof(int) * n);
    c.buf = (qs_pair *)host_alloc(sizeof(qs_pair) * n);
    c.key = (uint32_t *)host_alloc(sizeof(uint32_t) * n);
    c.k2 = (uint32_t *)host_alloc(sizeof(uint32_t) * n);
    c.i2 = (int *)host_alloc(sizeof(int) * n);
    c.hist = (long *)host_alloc(sizeof(long) * (size_t)threads << RADIX_MAX_DIGIT_BITS);
    c.cnt = (long *)host_alloc(sizeof(long) * (size_t)threads);
    c.bits = radix_bits_for(k->m);
    c.threads = 1;
    return c;
}
static void s1_free(s1_ctx *c)
{
    free(c->idx); free(c->sorted); free(c->left); free(c->right); free(c->buf);
    free(c->key); free(c->k2); free(c->i2); free(c->hist); free(c->cnt);
}

/* the radix rows: serial (radix32_cpu), then on all threads (radix32_cpu_omp) */
static void run_radix_rows(const hm_opts *r, const hm_point *pt, s1_ctx *c, hm_case k)
{
    int ths[2], nth = best_thread_counts(r, ths);
    for (int a = 0; a < nth; a++) {
        c->threads = ths[a];
        k.method = ths[a] == 1 ? "radix32_cpu" : "radix32_cpu_omp";
        hm_run(r, pt, k);
    }
}

/* ---------------- the GPU pipelines on 1D keys ---------------- */
typedef struct {
    const double *kin;
    double *kout;
    const int *vin;
    int *vout;
    int n;
    void *tmp;
    size_t bytes;
} radix_ctx;
/* CUB DeviceRadixSort (replaces the paper's CUDPP radix sort): keys with their indices, 64 bits */
static void gpu_radix_sort(void *p, cudaStream_t s)
{
    radix_ctx *c = (radix_ctx *)p;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(c->tmp, c->bytes, c->kin, c->kout, c->vin, c->vout, c->n, 0, 64, s));
}
/* the 64-bit CUB radix of the n device keys d_x (the caller keeps them) with the values 0..n-1 */
static void radix_ctx_make(radix_ctx *rc, const double *d_x, long n, cudaStream_t s)
{
    int *h = (int *)host_alloc(sizeof(int) * n);
    for (long i = 0; i < n; i++) h[i] = (int)i;
    rc->n = (int)n;
    rc->kin = d_x;
    rc->kout = (double *)dev_alloc(sizeof(double) * n, "radix keys out");
    rc->vin = (const int *)dev_dup(h, sizeof(int) * n, "radix values");
    rc->vout = (int *)dev_alloc(sizeof(int) * n, "radix values out");
    rc->bytes = 0;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(NULL, rc->bytes, rc->kin, rc->kout, rc->vin, rc->vout, rc->n, 0, 64, s));
    rc->tmp = dev_alloc(rc->bytes, "radix scratch");
    free(h);
}
static void radix_ctx_free(radix_ctx *rc)
{
    const void *p[] = {rc->kout, rc->vin, rc->vout, rc->tmp};
    dev_free_all(p, 4);
}
/* CUB radix on the 32-bit bucket index of keys k (on the device at d_x, the caller keeps
 * them) over end_bit bits, key generation included */
static void radix32_ctx_make(gpu_radix32_ctx *q, const keys1d *k, const double *d_x, int end_bit)
{
    long n = k->n;
    q->x = d_x; q->n = (int)n; q->xmin = k->xmin; q->dmin = k->dmin; q->end_bit = end_bit;
    q->kin = (unsigned *)dev_alloc(sizeof(unsigned) * n, "radix32 keys");
    q->kout = (unsigned *)dev_alloc(sizeof(unsigned) * n, "radix32 keys out");
    q->vin = (int *)dev_alloc(sizeof(int) * n, "radix32 values");
    q->vout = (int *)dev_alloc(sizeof(int) * n, "radix32 values out");
    q->tmp_bytes = gpu_radix32_bytes((int)n, end_bit);
    q->tmp = dev_alloc(q->tmp_bytes, "radix32 scratch");
}
static void radix32_ctx_free(gpu_radix32_ctx *q)
{
    const void *p[] = {q->kin, q->kout, q->vin, q->vout, q->tmp};
    dev_free_all(p, 5);
}
/* the GPU hash (Listing 1) of the keys k, on the device at d_x: fields and the table */
static void hash1d_ctx_make(gpu_hash_ctx *g, const keys1d *k, const double *d_x)
{
    memset(g, 0, sizeof *g);
    g->n = (int)k->n;
    g->m = k->m;
    g->xmin = k->xmin;
    g->dmin = k->dmin;
    g->x = d_x;
    g->t = (int *)dev_alloc(sizeof(int) * k->m, "1D hash table");
}
/* the sort's buffers (1D or 2D, from g->m and g->n): scan output, CUB scan scratch, indices */
static void hash_sort_bufs(gpu_hash_ctx *g)
{
    g->off = (int *)dev_alloc(sizeof(int) * (size_t)g->m, "scan output");
    g->tmp_bytes = hm_scan_bytes(g->m);
    g->tmp = dev_alloc(g->tmp_bytes, "scan scratch");
    g->idx = (int *)dev_alloc(sizeof(int) * (size_t)g->n, "sorted indices");
}
static void hash_sort_bufs_free(gpu_hash_ctx *g)
{
    const void *p[] = {g->off, g->tmp, g->idx};
    dev_free_all(p, 3);
}

/* ================= 1D sort (Fig. 3.3, 3.4, Tables 4.1, 4.2) ================= */
static void sort1d_cpu(const hm_opts *r, const hm_point *pt, const keys1d *k, const int *ref, const double *sorted,
                       method_set ms)
{
    long n = k->n;
    int *t = (int *)host_alloc(sizeof(int) * k->m);
    s1_ctx c = s1_alloc(k, t, r->threads);
    hm_case idx = cpu_case("", NULL, &c, out_ints("indices", c.idx, ref, n)); /* writes the indices */
    hm_case both = idx;                                                       /* and the sorted keys */
    expect_also(&both, out_f64("keys", c.sorted, sorted, n, 0));
    if (ms.paper_cpu) hm_run(r, pt, with_host(idx, "qsort", h_qsort1d));
    hm_run(r, pt, with_host(both, "hash_cpu", h_hash_sort1d));
    if (ms.best_cpu) {
        hm_run(r, pt, with_host(idx, "introsort", h_introsort1d));
        run_radix_rows(r, pt, &c, with_host(idx, "", h_radix1d));
        c.threads = r->threads;
        hm_run(r, pt, with_host(both, "hash_cpu_omp", h_hash_sort1d_omp));
    }
    s1_free(&c);
    free(t);
}

/* The GPU hash method fn on the 1D keys, writing outputs a and b: row hash_gpu (the kernels
 * alone), and with --best also the job row (keys in, both outputs back, transfers timed). */
static void hash1d_gpu_rows(const hm_opts *r, const hm_point *pt, const keys1d *k, bench_gpu_fn fn, gpu_hash_ctx *g,
                            hm_out a, hm_out b, method_set ms)
{
    hm_case h = gpu_case("hash_gpu", fn, g, a);
    expect_also(&h, b);
    hm_run(r, pt, h);
    if (!ms.best_gpu) return;
    hm_job j;
    job_init(&j, fn, g);
    job_in(&j, k->x, g->x, sizeof(double) * k->n);
    job_out(&j, a.what, a.dev, a.want, (long)a.n, a.size);
    job_out(&j, b.what, b.dev, b.want, (long)b.n, b.size);
    job_run(r, pt, &j);
}

static void sort1d_gpu(const hm_opts *r, const hm_point *pt, const keys1d *k, const int *ref, const double *sorted,
                       method_set ms)
{
    long n = k->n;
    int *got = (int *)host_alloc(sizeof(int) * n);
    double *gs = (double *)host_alloc(sizeof(double) * n);
    gpu_hash_ctx g;
    hash1d_ctx_make(&g, k, (const double *)dev_dup(k->x, sizeof(double) * n, "1D keys"));
    hash_sort_bufs(&g);
    g.sorted = (double *)dev_alloc(sizeof(double) * n, "sorted keys");
    hash1d_gpu_rows(r, pt, k, gpu_hash_sort1d, &g, out_dev_ints("indices", g.idx, got, ref, n),
                    out_dev_f64("keys", g.sorted, gs, sorted, n, 0), ms);
    if (ms.best_gpu) {
        /* the strongest GPU baseline: CUB radix on the 32-bit bucket index, end_bit = bits needed */
        gpu_radix32_ctx q;
        radix32_ctx_make(&q, k, g.x, radix_bits_for(k->m));
        hm_run(r, pt, gpu_case("radix32_gpu", gpu_radix32_sort1d, &q, out_dev_ints("indices", q.vout, got, ref, n)));
        if (pt->res) pt->res->end_bit = q.end_bit;
        radix32_ctx_free(&q);
    }
    radix_ctx rc;
    radix_ctx_make(&rc, g.x, n, r->s);
    hm_run(r, pt, gpu_case("radix_gpu", gpu_radix_sort, &rc, out_dev_ints("indices", rc.vout, got, ref, n)));
    radix_ctx_free(&rc);
    hash_sort_bufs_free(&g);
    const void *p[] = {g.x, g.t, g.sorted};
    dev_free_all(p, 3);
    free(got);
    free(gs);
}

/* n keys with gaps in [2, 2 ratio] (Fig. 3.3: ratio 2; Fig. 3.4: 1..32).  The serial CPU hash
 * sort (Listing 1) is the reference: no bucket collision, keys strictly ascending. */
static void measure_sort1d(const hm_opts *r, hm_point pt, long n, double ratio, method_set ms)
{
    keys1d k;
    keys1d_generate(&k, n, 2.0, 2.0 * ratio, r->c.seed + (uint64_t)n * 31 + (uint64_t)(ratio * 8));
    check_index_range(n, k.m, "1D sort");
    pt.what = "1D sort";
    pt.n = n;
    pt.param = ratio;
    if (pt.res) pt.res->m = k.m;
    int *t = (int *)host_alloc(sizeof(int) * k.m), *ref = (int *)host_alloc(sizeof(int) * n);
    double *sorted = (double *)host_alloc(sizeof(double) * n);
    if (hash_sort1d_cpu(k.x, n, k.xmin, k.dmin, t, k.m, ref, sorted) != n) DIE("1D hash sort: a bucket collision (n %ld)", n);
    for (long i = 1; i < n; i++)
        if (!(sorted[i - 1] < sorted[i])) DIE("1D hash sort: output not ascending at %ld", i);
    free(t);
    if ((ms.paper_cpu || ms.best_cpu) && within(n, r->cpu_max)) sort1d_cpu(r, &pt, &k, ref, sorted, ms);
    sort1d_gpu(r, &pt, &k, ref, sorted, ms);
    free(ref);
    free(sorted);
    keys1d_free(&k);
}

/* the sweeps' 1D sort: dmax/dmin = 2 (dmin = 2, dmax = 4 as in the paper, Fig. 3.3) */
static void measure_sort1d_paper(const hm_opts *r, hm_point pt, long n, method_set ms)
{
    measure_sort1d(r, pt, n, 2.0, ms);
}

/* ================= 1D neighbours (Fig. 3.6) ================= */
static hm_case neigh1d_cpu_case(const char *method, bench_host_fn fn, s1_ctx *c, const int *lref, const int *rref)
{
    hm_case k = cpu_case(method, fn, c, out_ints("left", c->left, lref, c->k->n));
    expect_also(&k, out_ints("right", c->right, rref, c->k->n));
    return k;
}

static void neigh1d_cpu(const hm_opts *r, const hm_point *pt, const keys1d *k, const int *lref, const int *rref,
                        method_set ms)
{
    long n = k->n;
    int *t = (int *)host_alloc(sizeof(int) * k->m);
    s1_ctx c = s1_alloc(k, t, r->threads);
    kd1 kd;
    kd1_alloc(&kd, within(n, r->kd_max) ? n : 1);
    c.kd = &kd;
    if (within(n, r->brute_max)) hm_run(r, pt, neigh1d_cpu_case("brute", h_brute_neigh1d, &c, lref, rref));
    if (within(n, r->kd_max)) hm_run(r, pt, neigh1d_cpu_case("kdtree", h_kd_neigh1d, &c, lref, rref));
    if (within(n, r->cpu_max)) hm_run(r, pt, neigh1d_cpu_case("hash_cpu", h_hash_neigh1d, &c, lref, rref));
    if (ms.best_cpu && within(n, r->cpu_max)) { /* neighbours by radix sort, k-D tree queries and the hash on all cores */
        run_radix_rows(r, pt, &c, neigh1d_cpu_case("", h_radix_neigh1d, &c, lref, rref));
        c.threads = r->threads;
        if (r->threads > 1 && within(n, r->kd_max))
            hm_run(r, pt, neigh1d_cpu_case("kdtree_omp", h_kd_neigh1d_omp, &c, lref, rref));
        hm_run(r, pt, neigh1d_cpu_case("hash_cpu_omp", h_hash_neigh1d_omp, &c, lref, rref));
    }
    kd1_free(&kd);
    s1_free(&c);
    free(t);
}

static void neigh1d_gpu(const hm_opts *r, const hm_point *pt, const keys1d *k, const int *lref, const int *rref,
                        method_set ms)
{
    long n = k->n;
    int *l = (int *)host_alloc(sizeof(int) * n), *rr = (int *)host_alloc(sizeof(int) * n);
    gpu_hash_ctx g;
    hash1d_ctx_make(&g, k, (const double *)dev_dup(k->x, sizeof(double) * n, "1D keys"));
    g.left = (int *)dev_alloc(sizeof(int) * n, "left");
    g.right = (int *)dev_alloc(sizeof(int) * n, "right");
    hash1d_gpu_rows(r, pt, k, gpu_hash_neigh1d, &g, out_dev_ints("left", g.left, l, lref, n),
                    out_dev_ints("right", g.right, rr, rref, n), ms);
    const void *p[] = {g.x, g.t, g.left, g.right};
    dev_free_all(p, 4);
    free(l);
    free(rr);
}

/* n keys with gaps in [2, 4]; the serial CPU hash's neighbours are the reference */
static void measure_neigh1d(const hm_opts *r, hm_point pt, long n, method_set ms)
{
    keys1d k;
    keys1d_generate(&k, n, 2.0, 4.0, r->c.seed + (uint64_t)n * 37);
    check_index_range(n, k.m, "1D neighbours");
    pt.what = "1D neighbours";
    pt.n = n;
    pt.param = 0;
    int *t = (int *)host_alloc(sizeof(int) * k.m);
    int *lref = (int *)host_alloc(sizeof(int) * n), *rref = (int *)host_alloc(sizeof(int) * n);
    hash_neigh1d_cpu(k.x, n, k.xmin, k.dmin, t, k.m, lref, rref);
    free(t);
    if (within(n, r->brute_max) || within(n, r->kd_max) || within(n, r->cpu_max)) neigh1d_cpu(r, &pt, &k, lref, rref, ms);
    neigh1d_gpu(r, &pt, &k, lref, rref, ms);
    free(lref);
    free(rref);
    keys1d_free(&k);
}

/* ================= the experiments ================= */
static int exp_fig3_3(void *p)
{
    return hm_figure((const hm_opts *)p, "hashmesh_fig3_3_sort1d.dat", "Fig. 3.3 (1D sort: qsort, CPU hash, GPU hash, radix)",
                     "dmax/dmin (2 here; dmin = 2, dmax = 4 as in the paper)", measure_sort1d_paper);
}

static int exp_fig3_4(void *p)
{
    const hm_opts *r = (const hm_opts *)p;
    datfile d;
    hm_open_fig(&d, r, "hashmesh_fig3_4_sort_ratio.dat", "Fig. 3.4 (1D sort vs dmax/dmin)",
                "dmax/dmin (dmin = 2): the hash table grows with the ratio");
    const double ratios[] = {1, 2, 4, 8, 16, 32};
    for (int a = 0; a < 6; a++) measure_sort1d(r, at(&d, NULL), r->c.quick ? 1L << 14 : 1L << 20, ratios[a], PAPER);
    datfile_commit(&d);
    return 0;
}

static int exp_fig3_6(void *p)
{
    return hm_figure((const hm_opts *)p, "hashmesh_fig3_6_neigh1d.dat", "Fig. 3.6 (1D neighbours)", "unused (0)",
                     measure_neigh1d);
}

/* The 1D sort against the sorts a user would pick (best.h), one core and all cores */
static int exp_sort_best(void *p)
{
    const hm_opts *r = (const hm_opts *)p;
    datfile d;
    hm_open_fig(&d, r, r->flush_l2 ? "hashmesh_sort_best_cold.dat" : "hashmesh_sort_best.dat",
                "beyond the paper: 1D sort vs the best baselines (introsort, LSD radix on the bucket index, CUB radix 32-bit)",
                "dmax/dmin (2, as Fig. 3.3)");
    datfile_meta(&d, "methods", "introsort, radix32_cpu, hash_cpu: one core; *_omp: %d threads; radix_gpu: CUB 64-bit keys "
                 "(the paper-style baseline); radix32_gpu: CUB on the 32-bit bucket index, end_bit = ceil(log2 m), key "
                 "generation included; hash_gpu_job: with host<->device transfers (pinned)", r->threads);
    return hm_sweep(r, &d, measure_sort1d_paper, BEST);
}

/* The GPU sorts' medians at the Table 4.2 sizes up to --max-log2 (measured and verified
 * before the table is written).  Returns the number of sizes. */
static int sort1d_medians(const hm_opts *r, const int *lg, int cnt, method_set ms, results *row, long *n)
{
    int nrow = 0;
    for (int a = 0; a < cnt; a++) {
        if (lg[a] > r->max_log2) continue;
        memset(&row[nrow], 0, sizeof row[nrow]);
        n[nrow] = 1L << lg[a];
        measure_sort1d(r, at(NULL, &row[nrow]), n[nrow], 2.0, ms);
        nrow++;
    }
    return nrow;
}
/* 1 when the hash sort's n (8 + 8 + 4 + 4) + 8 m bytes (keys in / out, indices in / out,
 * table and scan output) fit in the L2 cache: an estimate */
static int sort_fits_l2(const hm_opts *r, long n, long m) { return (size_t)n * (8 + 8 + 4 + 4) + (size_t)m * 8 <= r->l2; }

/* Table 4.2: GPU hash sort vs the fastest general-purpose GPU sort */
static int exp_tab4_2(void *p)
{
    const hm_opts *r = (const hm_opts *)p;
    static const int lg_full[] = {16, 18, 20, 21, 22, 23, 24}, lg_quick[] = {14, 16};
    results row[7];
    long n[7];
    int nrow = sort1d_medians(r, r->c.quick ? lg_quick : lg_full, r->c.quick ? 2 : 7, GPU_ONLY, row, n);
    datfile d;
    hm_open(&d, r, "hashmesh_tab4_2_hash_vs_radix.dat", "Table 4.2 (GPU hash sort vs fastest general-purpose GPU sort)");
    datfile_meta(&d, "baseline", "CUB DeviceRadixSort::SortPairs (double keys, int indices, 64 bits) replaces CUDPP radix");
    datfile_meta(&d, "l2_bytes", "%zu", r->l2);
    datfile_meta(&d, "fits_l2", "1 when n (8 + 8 + 4 + 4) + 8 table_buckets bytes fit in l2_bytes (an estimate)");
    datfile_meta(&d, "paper", "NVIDIA (Tesla C2050) hash vs CUDPP radix: 2.68x; ATI hash: 3.57x (at about 2 million keys)");
    datfile_columns(&d, "n table_buckets fits_l2 gpu_hash_ms radix_ms speedup_x paper_nvidia_x");
    for (int a = 0; a < nrow; a++) {
        double h = res_get(&row[a], "hash_gpu"), rad = res_get(&row[a], "radix_gpu");
        datfile_row(&d, "%ld %ld %d %.6f %.6f %.3f %.2f", n[a], row[a].m, sort_fits_l2(r, n[a], row[a].m), h, rad, rad / h,
                    2.68);
    }
    datfile_commit(&d);
    return 0;
}

/* Table 4.2 against CUB radix on the 32-bit bucket index (and with transfers) */
static int exp_tab4_2_best(void *p)
{
    const hm_opts *r = (const hm_opts *)p;
    static const int lg_full[] = {16, 18, 19, 20, 21, 22, 23, 24}, lg_quick[] = {14, 16};
    results row[8];
    long n[8];
    int nrow = sort1d_medians(r, r->c.quick ? lg_quick : lg_full, r->c.quick ? 2 : 8, GPU_BEST, row, n);
    datfile d;
    hm_open(&d, r, r->flush_l2 ? "hashmesh_tab4_2_best_cold.dat" : "hashmesh_tab4_2_best.dat",
            "beyond the paper: Table 4.2 against the strongest GPU radix sort");
    datfile_meta(&d, "baselines", "radix64: CUB SortPairs of the double keys, all 64 bits (Table 4.2 as in the paper); "
                 "radix32: CUB SortPairs of the 32-bit bucket index over end_bit bits, key generation included");
    datfile_meta(&d, "l2_bytes", "%zu", r->l2);
    datfile_meta(&d, "fits_l2", "1 when the hash sort's n (8 + 8 + 4 + 4) + 8 table_buckets bytes fit in l2_bytes");
    datfile_meta(&d, "flush_l2", "%d (1: every sample one cold run)", r->flush_l2);
    datfile_columns(&d, "n table_buckets end_bit fits_l2 hash_ms hash_job_ms radix64_ms radix32_ms hash_vs_radix64_x "
                        "hash_vs_radix32_x");
    for (int a = 0; a < nrow; a++) {
        const results *q = &row[a];
        double h = res_get(q, "hash_gpu"), r64 = res_get(q, "radix_gpu"), r32 = res_get(q, "radix32_gpu");
        datfile_row(&d, "%ld %ld %d %d %.6f %.6f %.6f %.6f %.3f %.3f", n[a], q->m, q->end_bit, sort_fits_l2(r, n[a], q->m), h,
                    res_get(q, "hash_gpu_job"), r64, r32, r64 / h, r32 / h);
    }
    datfile_commit(&d);
    return 0;
}

#endif
