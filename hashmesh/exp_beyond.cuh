/* exp_beyond.cuh -- past the perfect table, beyond the paper's figures: the levmax sweep (2D
 * neighbours and remap with the compact hash, sec. 3.2-3.3) and clustered 1D keys (sec. 3.1).
 *
 * The perfect table of sec. 2 has one bucket per finest cell of the domain, (side 2^levmax)^2
 * in 2D, whatever the number of cells; with clustered 1D keys it has span / dmin buckets.
 * These experiments show where that stops paying and what the compact hash (compact.h:
 * one entry per cell, open addressing) and the radix sorts do there. */
#ifndef HASHMESH_EXP_BEYOND_CUH
#define HASHMESH_EXP_BEYOND_CUH

#include "harness.cuh"
#include "exp_sort1d.cuh"
#include "exp_mesh2d.cuh"
#include "exp_remap.cuh"

/* bytes of a k-D tree over n cells (kd2_alloc) */
static double kd2_bytes(long n)
{
    long maxnodes = 2 * (n / KD2_LEAF + 1) + 2;
    return (double)n * (sizeof(kbox) + sizeof(int)) + 2.0 * maxnodes * (sizeof(kbox) + 4 * sizeof(int));
}
static size_t gpu_free_bytes(void)
{
    size_t fr = 0, tot = 0;
    CHECK_CUDA(cudaMemGetInfo(&fr, &tot));
    return fr;
}
/* does a perfect table of `bytes` (W * H buckets) fit on the GPU? (80 % of free memory, < 2^40 buckets) */
static int perfect_fits_gpu(double bytes, long W, long H)
{
    return bytes <= 0.8 * (double)gpu_free_bytes() && (double)W * H < 1099511627776.0;
}
static hm_case sized(hm_case k, double table_bytes)
{
    k.table_bytes = table_bytes;
    return k;
}

static void h_ch_neigh2d(void *p) /* compact hash: insert every cell, then the Listing 2 probes by key */
{
    s2_ctx *c = (s2_ctx *)p;
    c->err |= ch_neigh2d_cpu(c->keys, c->vals, c->cap, c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax,
                             amr_width(c->m), amr_height(c->m), c->nb);
}
static void h_ch_remap2d(void *p) /* compact hash: insert the old cells, gather per new cell */
{
    rm_ctx *c = (rm_ctx *)p;
    const chash *h = c->ch;
    c->err |= ch_remap2d_cpu(h->key, h->val, h->cap, c->mo->i, c->mo->j, c->mo->lev, c->mo->n, c->f->mean, c->f->gx,
                             c->f->gy, c->mw->i, c->mw->j, c->mw->lev, c->mw->n, c->mo->levmax, c->out);
}

/* ================= levmax: 2D neighbours ================= */
/* GPU: the compact hash always, the perfect table while it fits */
static void levmax_neigh_gpu(const hm_opts *r, const hm_point *pt, const amr_mesh *m, long cap, const int *ref, int *got)
{
    long n = m->n, W = amr_width(m), H = amr_height(m);
    int L = m->levmax;
    double perfect_bytes = (double)W * (double)H * sizeof(int);
    gpu_ch_ctx g;
    g.n = (int)n; g.levmax = L; g.W = W; g.H = H; g.cap = cap;
    g.ci = (const int *)dev_dup(m->i, sizeof(int) * n, "cells");
    g.cj = (const int *)dev_dup(m->j, sizeof(int) * n, "cells");
    g.lev = (const int *)dev_dup(m->lev, sizeof(int) * n, "cells");
    g.keys = (unsigned long long *)dev_alloc(sizeof(unsigned long long) * cap, "compact keys");
    g.vals = (int *)dev_alloc(sizeof(int) * cap, "compact values");
    g.nb = (int *)dev_alloc(sizeof(int) * 4 * n, "neighbours");
    hm_out u = out_dev_ints("neighbours", g.nb, got, ref, 4 * n);
    hm_run(r, pt, sized(gpu_case("compact_gpu", gpu_ch_neigh2d, &g, u), (double)ch_bytes(cap)));
    if (perfect_fits_gpu(perfect_bytes, W, H)) {
        gpu_hash_ctx p;
        memset(&p, 0, sizeof p);
        p.ci = g.ci; p.cj = g.cj; p.lev = g.lev; p.n = (int)n; p.levmax = L; p.W = W; p.H = H; p.m = W * H;
        p.t = (int *)dev_alloc((size_t)perfect_bytes, "2D perfect hash table");
        p.nb = g.nb;
        hm_run(r, pt, sized(gpu_case("perfect_gpu", gpu_hash_neigh2d, &p, u), perfect_bytes));
        CHECK_CUDA(cudaFree(p.t));
    } else
        fprintf(stderr, "  levmax %d: the perfect table (%.3g GB) does not fit in GPU memory: compact only\n", L,
                perfect_bytes / 1e9);
    const void *fr[] = {g.ci, g.cj, g.lev, g.keys, g.vals, g.nb};
    dev_free_all(fr, 6);
}

/* On a corner-refined mesh of finest level L: the compact hash is the reference (checked
 * against the k-D tree at every L and the perfect table where it runs); the perfect table
 * runs while it fits (host <= --perfect-max-gib, GPU <= 80 % of free memory). */
static void measure_levmax_neigh(const hm_opts *r, hm_point pt, int L)
{
    amr_mesh m;
    amr_corner_generate(&m, r->corner_side, L, r->corner_radius, r->c.seed + (uint64_t)L * 71);
    long n = m.n, W = amr_width(&m), H = amr_height(&m);
    double perfect_bytes = (double)W * (double)H * sizeof(int);
    check_index_range(n, 0, "corner mesh");
    pt.what = "2D neighbours, levmax";
    pt.n = n;
    snprintf(pt.key, sizeof pt.key, "%d", L);
    s2_ctx c = s2_of(&m, NULL);
    c.cap = ch_capacity(n, r->load);
    c.keys = (uint64_t *)host_alloc(sizeof(uint64_t) * c.cap);
    c.vals = (int *)host_alloc(sizeof(int) * c.cap);
    int *ref = (int *)host_alloc(sizeof(int) * 4 * n), *got = (int *)host_alloc(sizeof(int) * 4 * n);
    int host_perfect = perfect_bytes <= r->perfect_max_gib * 1073741824.0;
    char why[256];
    if (host_perfect ? amr_validate(&m, 1, why, sizeof why) : amr_validate_compact(&m, 1, c.keys, c.vals, c.cap, why, sizeof why))
        DIE("corner mesh (levmax %d) invalid: %s", L, why);
    c.nb = ref;
    h_ch_neigh2d(&c); /* the reference */
    if (c.err) DIE("compact hash: a face found no cell (levmax %d)", L);
    c.nb = got;
    kbox *boxes = (kbox *)host_alloc(sizeof(kbox) * n);
    amr_boxes(&m, boxes);
    c.boxes = boxes;
    kd2 kd;
    kd2_alloc(&kd, n);
    c.kd = &kd;
    c.threads = r->threads;
    hm_case nb = cpu_case("", NULL, &c, out_ints("neighbours", got, ref, 4 * n));
    nb.also = s2_failed;
    hm_run(r, &pt, sized(with_host(nb, "kdtree", h_kd_neigh2d), kd2_bytes(n)));
    if (r->threads > 1) hm_run(r, &pt, sized(with_host(nb, "kdtree_omp", h_kd_neigh2d_omp), kd2_bytes(n)));
    kd2_free(&kd);
    free(boxes);
    hm_run(r, &pt, sized(with_host(nb, "compact_cpu", h_ch_neigh2d), (double)ch_bytes(c.cap)));
    if (host_perfect) {
        c.t = (int *)host_alloc((size_t)perfect_bytes);
        hm_run(r, &pt, sized(with_host(nb, "perfect_cpu", h_hash_neigh2d), perfect_bytes));
        free(c.t);
    }
    levmax_neigh_gpu(r, &pt, &m, c.cap, ref, got);
    free(c.keys); free(c.vals); free(ref); free(got);
    amr_free(&m);
}

/* ================= levmax: 2D remap ================= */
/* Between corner-refined meshes of finest level L: old = radius 3/2 R (finer), new = radius R,
 * so a new cell gathers up to four old cells.  The compact hash is the reference (checked
 * against the k-D tree at every L: 1e-10, total conserved); perfect table while it fits. */
static void levmax_remap_gpu(const hm_opts *r, const hm_point *pt, const amr_mesh *mo, const amr_mesh *mw, const field *f,
                             const chash *h, const double *ref, double *got, conserved tot)
{
    long na = mo->n, nb = mw->n, W = amr_width(mo), H = amr_height(mo);
    double perfect_bytes = (double)W * (double)H * sizeof(int);
    gpu_ch_remap_ctx g;
    g.na = (int)na; g.nb = (int)nb; g.levmax = mo->levmax; g.cap = h->cap;
    g.oi = (const int *)dev_dup(mo->i, sizeof(int) * na, "old mesh");
    g.oj = (const int *)dev_dup(mo->j, sizeof(int) * na, "old mesh");
    g.ol = (const int *)dev_dup(mo->lev, sizeof(int) * na, "old mesh");
    g.ni = (const int *)dev_dup(mw->i, sizeof(int) * nb, "new mesh");
    g.nj = (const int *)dev_dup(mw->j, sizeof(int) * nb, "new mesh");
    g.nl = (const int *)dev_dup(mw->lev, sizeof(int) * nb, "new mesh");
    g.mean = (const double *)dev_dup(f->mean, sizeof(double) * na, "field");
    g.gx = (const double *)dev_dup(f->gx, sizeof(double) * na, "field");
    g.gy = (const double *)dev_dup(f->gy, sizeof(double) * na, "field");
    g.keys = (unsigned long long *)dev_alloc(sizeof(unsigned long long) * h->cap, "compact keys");
    g.vals = (int *)dev_alloc(sizeof(int) * h->cap, "compact values");
    g.err = (int *)dev_alloc(sizeof(int), "error flag");
    g.out = (double *)dev_alloc(sizeof(double) * nb, "remap output");
    int gerr = 0;
    const int no_error = 0;
    hm_out u = conserving(out_dev_f64("values", g.out, got, ref, nb, 1), tot.total, tot.scale);
    hm_case k = gpu_case("compact_gpu", gpu_ch_remap2d, &g, u);
    expect_also(&k, out_of("no old cell found", g.err, &gerr, &no_error, 1, sizeof(int), 0, 0)); /* flag reset to 0 */
    hm_run(r, pt, sized(k, (double)ch_bytes(h->cap)));
    if (perfect_fits_gpu(perfect_bytes, W, H)) {
        gpu_remap_ctx p;
        memset(&p, 0, sizeof p);
        p.oi = g.oi; p.oj = g.oj; p.ol = g.ol; p.ni = g.ni; p.nj = g.nj; p.nl = g.nl;
        p.mean = g.mean; p.gx = g.gx; p.gy = g.gy; p.na = (int)na; p.nb = (int)nb; p.levmax = mo->levmax; p.W = W; p.H = H;
        p.t = (int *)dev_alloc((size_t)perfect_bytes, "2D perfect hash table");
        p.out = g.out;
        hm_run(r, pt, sized(gpu_case("perfect_gpu", gpu_hash_remap2d, &p, out_dev_f64("values", g.out, got, ref, nb, 1)),
                            perfect_bytes));
        CHECK_CUDA(cudaFree(p.t));
    }
    const void *fr[] = {g.oi, g.oj, g.ol, g.ni, g.nj, g.nl, g.mean, g.gx, g.gy, g.keys, g.vals, g.err, g.out};
    dev_free_all(fr, 13);
}

static void measure_levmax_remap(const hm_opts *r, hm_point pt, int L)
{
    amr_mesh mo, mw;
    amr_corner_generate(&mo, r->corner_side, L, r->corner_radius + r->corner_radius / 2, r->c.seed + (uint64_t)L * 73);
    amr_corner_generate(&mw, r->corner_side, L, r->corner_radius, r->c.seed + (uint64_t)L * 79);
    long na = mo.n, nb = mw.n, W = amr_width(&mo), H = amr_height(&mo);
    double perfect_bytes = (double)W * (double)H * sizeof(int);
    pt.what = "2D remap, levmax";
    pt.n = nb;
    snprintf(pt.key, sizeof pt.key, "%d", L);
    field f;
    field2d_make(&f, &mo, 2.0, 1.0 / W, -0.5 / H, 1.0, W / 5.0 + 3.0);
    conserved tot = {0, 0};
    for (long a = 0; a < na; a++) {
        double ar = (double)(1L << (mo.levmax - mo.lev[a])) * (double)(1L << (mo.levmax - mo.lev[a]));
        tot.total += f.mean[a] * ar;
        tot.scale += fabs(f.mean[a]) * ar;
    }
    chash h;
    h.cap = ch_capacity(na, r->load);
    h.key = (uint64_t *)host_alloc(sizeof(uint64_t) * h.cap);
    h.val = (int *)host_alloc(sizeof(int) * h.cap);
    char why[256];
    if (amr_validate_compact(&mw, 1, h.key, h.val, h.cap, why, sizeof why)) DIE("corner mesh (new, levmax %d): %s", L, why);
    if (amr_validate_compact(&mo, 1, h.key, h.val, h.cap, why, sizeof why)) DIE("corner mesh (old, levmax %d): %s", L, why);
    double *ref = (double *)host_alloc(sizeof(double) * nb), *got = (double *)host_alloc(sizeof(double) * nb);
    rm_ctx c;
    memset(&c, 0, sizeof c);
    c.mo = &mo; c.mw = &mw; c.f = &f; c.out = ref; c.na = na; c.nb = nb; c.ch = &h;
    h_ch_remap2d(&c); /* the reference */
    if (c.err) DIE("compact remap: a region found no old cell (levmax %d)", L);
    kbox *ob = (kbox *)host_alloc(sizeof(kbox) * na), *nbx = (kbox *)host_alloc(sizeof(kbox) * nb);
    amr_boxes(&mo, ob);
    amr_boxes(&mw, nbx);
    int hits[64];
    kd2 kd;
    kd2_alloc(&kd, na);
    c.kd = &kd; c.ob = ob; c.nbx = nbx; c.hits = hits; c.cap = 64; c.out = got;
    hm_case k = cpu_case("", NULL, &c, out_f64("values", got, ref, nb, 1));
    k.also = rm_failed;
    hm_run(r, &pt, sized(with_host(k, "kdtree", h_kd_remap), kd2_bytes(na)));
    kd2_free(&kd);
    free(ob); free(nbx);
    hm_case kc = cpu_case("compact_cpu", h_ch_remap2d, &c, conserving(out_f64("values", got, ref, nb, 1), tot.total, tot.scale));
    kc.also = rm_failed;
    hm_run(r, &pt, sized(kc, (double)ch_bytes(h.cap)));
    if (perfect_bytes <= r->perfect_max_gib * 1073741824.0) {
        c.t = (int *)host_alloc((size_t)perfect_bytes);
        hm_run(r, &pt, sized(with_host(k, "perfect_cpu", h_hash_remap2d), perfect_bytes));
        free(c.t);
    }
    levmax_remap_gpu(r, &pt, &mo, &mw, &f, &h, ref, got, tot);
    free(h.key); free(h.val); free(ref); free(got);
    field_free(&f);
    amr_free(&mo);
    amr_free(&mw);
}

/* ================= clustered 1D keys ================= */
/* Pareto gaps of tail index alpha: the perfect table holds m = span / dmin + 1 buckets, which
 * outgrows n as alpha falls.  Introsort is the reference order; the hash (CPU, GPU) runs while
 * its table fits (host <= --perfect-max-gib, < 2^31 buckets, device <= 80 % free); the radix
 * sorts on the bucket index while it fits 32 bits. */
static void clustered_cpu(const hm_opts *r, const hm_point *pt, const keys1d *k, const int *ref, double tbytes)
{
    long n = k->n;
    int fits_host = tbytes <= r->perfect_max_gib * 1073741824.0 && k->m < 2147483647L;
    s1_ctx c = s1_alloc(k, NULL, r->threads);
    free(c.sorted);
    c.sorted = NULL; /* indices only */
    hm_case idx = sized(cpu_case("", NULL, &c, out_ints("indices", c.idx, ref, n)), tbytes);
    hm_run(r, pt, with_host(idx, "introsort", h_introsort1d));
    if (c.bits <= 32) run_radix_rows(r, pt, &c, with_host(idx, "", h_radix1d));
    if (fits_host) {
        c.t = (int *)host_alloc((size_t)tbytes);
        c.threads = r->threads;
        hm_run(r, pt, with_host(idx, "hash_cpu", h_hash_sort1d));
        hm_run(r, pt, with_host(idx, "hash_cpu_omp", h_hash_sort1d_omp));
        free(c.t);
    } else
        fprintf(stderr, "  alpha %s: perfect table of %ld buckets (%.3g GB) over the host limit: no CPU hash\n", pt->key,
                k->m, tbytes / 1e9);
    s1_free(&c);
}

/* GPU: the 64-bit CUB radix (the paper-style baseline) always, radix32 and the hash while they fit */
static void clustered_gpu(const hm_opts *r, const hm_point *pt, const keys1d *k, const int *ref, double tbytes)
{
    long n = k->n;
    int bits = radix_bits_for(k->m);
    int *got = (int *)host_alloc(sizeof(int) * n);
    double *dx = (double *)dev_dup(k->x, sizeof(double) * n, "keys");
    radix_ctx rc;
    radix_ctx_make(&rc, dx, n, r->s);
    hm_run(r, pt, sized(gpu_case("radix_gpu", gpu_radix_sort, &rc, out_dev_ints("indices", rc.vout, got, ref, n)), tbytes));
    radix_ctx_free(&rc);
    if (bits <= 32) {
        gpu_radix32_ctx q;
        radix32_ctx_make(&q, k, dx, bits);
        hm_run(r, pt, sized(gpu_case("radix32_gpu", gpu_radix32_sort1d, &q, out_dev_ints("indices", q.vout, got, ref, n)), tbytes));
        radix32_ctx_free(&q);
    }
    if (k->m < 2147483647L && 2.0 * tbytes <= 0.8 * (double)gpu_free_bytes()) {
        gpu_hash_ctx g;
        hash1d_ctx_make(&g, k, dx);
        hash_sort_bufs(&g); /* g.sorted = NULL: indices only */
        hm_run(r, pt, sized(gpu_case("hash_gpu", gpu_hash_sort1d, &g, out_dev_ints("indices", g.idx, got, ref, n)), tbytes));
        hash_sort_bufs_free(&g);
        CHECK_CUDA(cudaFree(g.t));
    } else
        fprintf(stderr, "  alpha %s: GPU hash table of %ld buckets does not fit: no GPU hash\n", pt->key, k->m);
    CHECK_CUDA(cudaFree(dx));
    free(got);
}

static void measure_clustered(const hm_opts *r, hm_point pt, double alpha, long n)
{
    keys1d k;
    keys1d_clustered(&k, n, 2.0, alpha, r->c.seed + (uint64_t)(alpha * 1000) + (uint64_t)n * 3);
    pt.what = "clustered keys, alpha";
    pt.n = n;
    snprintf(pt.key, sizeof pt.key, "%.2f", alpha);
    double tbytes = (double)k.m * sizeof(int);
    int *ref = (int *)host_alloc(sizeof(int) * n);
    qs_pair *buf = (qs_pair *)host_alloc(sizeof(qs_pair) * n);
    introsort_sort1d(k.x, n, buf, ref); /* the reference order */
    free(buf);
    for (long i = 1; i < n; i++)
        if (!(k.x[ref[i - 1]] < k.x[ref[i]])) DIE("clustered keys: introsort output not ascending at %ld", i);
    clustered_cpu(r, &pt, &k, ref, tbytes);
    clustered_gpu(r, &pt, &k, ref, tbytes);
    free(ref);
    keys1d_free(&k);
}

/* ================= the experiments ================= */
/* 2D neighbours and remap vs levmax: perfect table, compact hash, k-D tree (time and memory) */
static int exp_levmax(void *p)
{
    const hm_opts *r = (const hm_opts *)p;
    int top = r->c.quick ? (r->levmax < 8 ? r->levmax : 8) : r->levmax;
    datfile d;
    hm_open(&d, r, "hashmesh_levmax_neigh.dat", "beyond the paper: 2D neighbours vs levmax (perfect table, compact hash, "
            "k-D tree) on a corner-refined mesh");
    datfile_meta(&d, "mesh", "corner-refined: %d x %d coarse cells, refined where i^2 + j^2 < %d^2 (cells of each level) "
                 "up to levmax", r->corner_side, r->corner_side, r->corner_radius);
    datfile_meta(&d, "cpu", "%s; *_omp rows: %d OpenMP threads", r->cpu, r->threads);
    meta_triad(&d, r);
    datfile_meta(&d, "table_bytes", "perfect: 4 (side 2^levmax)^2; compact: 12 x slots (load factor %.2f); kdtree: "
                 "boxes + nodes", r->load);
    datfile_meta(&d, "limits", "perfect table on the host up to %.1f GiB, on the GPU up to 80%% of free memory",
                 r->perfect_max_gib);
    datfile_columns(&d, "levmax n method table_bytes median_ms min_ms max_ms reps batch mitems_s");
    for (int L = 0; L <= top; L += (L < 8 ? 1 : 2)) measure_levmax_neigh(r, at(&d, NULL), L);
    datfile_commit(&d);
    hm_open(&d, r, "hashmesh_levmax_remap.dat", "beyond the paper: 2D remap vs levmax (perfect table, compact hash, "
            "k-D tree) between two corner-refined meshes");
    datfile_meta(&d, "mesh", "old: %d x %d coarse cells refined where i^2 + j^2 < %d^2; new: the same with radius %d; "
                 "n = new cells", r->corner_side, r->corner_side, r->corner_radius + r->corner_radius / 2, r->corner_radius);
    datfile_meta(&d, "cpu", "%s", r->cpu);
    meta_triad(&d, r);
    datfile_meta(&d, "table_bytes", "perfect: 4 (side 2^levmax)^2; compact: 12 x slots (load factor %.2f); kdtree: "
                 "boxes + nodes of the old mesh", r->load);
    datfile_columns(&d, "levmax n method table_bytes median_ms min_ms max_ms reps batch mitems_s");
    for (int L = 0; L <= top; L += (L < 8 ? 1 : 2)) measure_levmax_remap(r, at(&d, NULL), L);
    datfile_commit(&d);
    return 0;
}

/* 1D sort of clustered keys (Pareto gaps): heavy tails blow the perfect table up */
static int exp_clustered(void *p)
{
    const hm_opts *r = (const hm_opts *)p;
    datfile d;
    hm_open(&d, r, "hashmesh_clustered_sort.dat", "beyond the paper: 1D sort of clustered keys (Pareto gaps)");
    datfile_meta(&d, "keys", "gaps dmin floor(u^(-1/alpha)), dmin = 2, u uniform in (0, 1]: alpha <= 1 has no mean gap");
    datfile_meta(&d, "cpu", "%s; *_omp rows: %d OpenMP threads", r->cpu, r->threads);
    meta_triad(&d, r);
    datfile_meta(&d, "table_bytes", "on every row: the perfect table these keys need, 4 m bytes (the GPU hash also "
                 "allocates a scan output of the same size)");
    datfile_columns(&d, "alpha n method table_bytes median_ms min_ms max_ms reps batch mitems_s");
    long n = r->c.quick ? 1L << 14 : 1L << 20;
    static const double alphas[] = {2.0, 1.5, 1.2, 1.0, 0.8, 0.7, 0.6}, alphas_quick[] = {2.0, 1.0, 0.8};
    for (int a = 0; a < (r->c.quick ? 3 : 7); a++) measure_clustered(r, at(&d, NULL), r->c.quick ? alphas_quick[a] : alphas[a], n);
    datfile_commit(&d);
    return 0;
}

#endif
