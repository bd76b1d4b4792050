/* exp_mesh2d.cuh -- the 2D AMR experiments: sort of the cells (Fig. 3.5) and face neighbours
 * (Fig. 3.7, Listing 2); sec. 3.1 (the 2D key i + j w) and sec. 3.2.
 *
 * Every size: a mesh from --seed (coarse square, --refine-frac of it refined up to --levmax,
 * 2:1 balanced, validated), the serial CPU hash result as the reference, every other method
 * run once on poisoned outputs and compared exactly, then timed. */
#ifndef HASHMESH_EXP_MESH2D_CUH
#define HASHMESH_EXP_MESH2D_CUH

#include "harness.cuh"

/* ---------------- the CPU codes on a 2D mesh ---------------- */
typedef struct {
    const amr_mesh *m;
    int *t;              /* the perfect table, W * H buckets (caller-owned) */
    int *idx;            /* output: sorted indices */
    int *nb;             /* output: left, right, bottom, top of each cell */
    qs_cell *qb;         /* qsort buffer */
    kd2 *kd;
    const kbox *boxes;
    int err;             /* a k-D tree or compact hash query failed */
    int threads;         /* the *_omp rows */
    uint32_t *key, *k2;  /* LSD radix */
    int *i2;
    long *hist, *cnt;
    uint64_t *keys;      /* the compact hash (compact.h) */
    int *vals;
    long cap;
} s2_ctx;

static void h_qsort2d(void *p)
{
    s2_ctx *c = (s2_ctx *)p;
    qsort_sort2d(c->m, c->qb, c->idx);
}
static void h_hash_sort2d(void *p) /* Listing 1 with the 2D key (sec. 3.1) */
{
    s2_ctx *c = (s2_ctx *)p;
    hash_sort2d_cpu(c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax, amr_width(c->m), amr_height(c->m), c->t, c->idx);
}
static void h_hash_sort2d_omp(void *p)
{
    s2_ctx *c = (s2_ctx *)p;
    hash_sort2d_omp(c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax, amr_width(c->m), amr_height(c->m), c->t, c->idx,
                    c->threads, c->cnt);
}
static void h_radix_sort2d(void *p) /* LSD radix on the 32-bit 2D key i + j w (sec. 3.1), key generation included */
{
    s2_ctx *c = (s2_ctx *)p;
    const amr_mesh *m = c->m;
    bucket_keys2d(m->i, m->j, m->lev, m->n, m->levmax, amr_width(m), c->key, c->idx, c->threads);
    radix_pairs(c->key, c->idx, c->k2, c->i2, m->n, radix_bits_for(amr_width(m) * amr_height(m)), c->threads, c->hist);
}
static void h_hash_neigh2d(void *p) /* Listing 2: multiple writes, one read per face */
{
    s2_ctx *c = (s2_ctx *)p;
    hash_neigh2d_cpu(c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax, amr_width(c->m), amr_height(c->m), c->t, c->nb);
}
static void h_hash_neigh2d_omp(void *p)
{
    s2_ctx *c = (s2_ctx *)p;
    hash_neigh2d_omp(c->m->i, c->m->j, c->m->lev, c->m->n, c->m->levmax, amr_width(c->m), amr_height(c->m), c->t, c->nb,
                     c->threads);
}
static void h_kd_neigh2d(void *p)
{
    s2_ctx *c = (s2_ctx *)p;
    c->err |= kd2_neigh2d(c->kd, c->m, c->boxes, c->nb);
}
static void h_kd_neigh2d_omp(void *p)
{
    s2_ctx *c = (s2_ctx *)p;
    c->err |= kd2_neigh2d_omp(c->kd, c->m, c->boxes, c->nb, c->threads);
}
static void h_brute_neigh2d(void *p)
{
    s2_ctx *c = (s2_ctx *)p;
    brute_neigh2d(c->m, c->boxes, c->nb);
}
static size_t s2_failed(void *p) /* a query that found no cell (k-D tree stack, compact hash miss) */
{
    s2_ctx *c = (s2_ctx *)p;
    if (c->err) fprintf(stderr, "  a neighbour query failed\n");
    return c->err != 0;
}
static s2_ctx s2_of(const amr_mesh *m, int *t)
{
    s2_ctx c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.t = t;
    c.threads = 1;
    return c;
}

/* ---------------- the mesh on the GPU ---------------- */
static void mesh_to_dev(const amr_mesh *m, gpu_hash_ctx *g)
{
    memset(g, 0, sizeof *g);
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
    const void *p[] = {g->ci, g->cj, g->lev, g->t};
    dev_free_all(p, 4);
}
/* the GPU job's inputs: the cells */
static void job_in_mesh(hm_job *j, const amr_mesh *m, const int *ci, const int *cj, const int *lev)
{
    job_in(j, m->i, ci, sizeof(int) * m->n);
    job_in(j, m->j, cj, sizeof(int) * m->n);
    job_in(j, m->lev, lev, sizeof(int) * m->n);
}

/* A generated mesh of about `target` cells whose perfect table fits (else exit 2), validated. */
static void make_mesh(const hm_opts *r, long target, uint64_t seed, amr_mesh *m)
{
    int side = mesh_side_checked(r, target);
    double buckets = (double)((long)side << r->levmax) * (double)((long)side << r->levmax);
    amr_generate(m, side, side, r->levmax, r->frac, seed);
    check_index_range(m->n, (long)buckets, "2D mesh");
    char why[256];
    if (amr_validate(m, 1, why, sizeof why)) DIE("generated mesh invalid: %s", why);
}

/* One point of Fig. 3.5 / 3.7: the mesh, its perfect table t (W * H buckets), and the
 * reference and the GPU's copy of the output, nout ints (per_cell a cell). */
typedef struct {
    amr_mesh m;
    long n, W, H, nout;
    int *t, *ref, *got;
} mesh_point;

/* A mesh of about `target` cells, seeded by --seed + target * salt; the point pt gets its n
 * and param (the W * H finest-level buckets). */
static void mesh_point_make(const hm_opts *r, hm_point *pt, const char *what, long target, uint64_t salt, int per_cell,
                            mesh_point *p)
{
    make_mesh(r, target, r->c.seed + (uint64_t)target * salt, &p->m);
    p->n = p->m.n;
    p->W = amr_width(&p->m);
    p->H = amr_height(&p->m);
    p->nout = per_cell * p->n;
    pt->what = what;
    pt->n = p->n;
    pt->param = (double)p->W * p->H;
    p->t = (int *)host_alloc(sizeof(int) * p->W * p->H);
    p->ref = (int *)host_alloc(sizeof(int) * p->nout);
    p->got = (int *)host_alloc(sizeof(int) * p->nout);
}
static void mesh_point_free(mesh_point *p)
{
    free(p->t); free(p->ref); free(p->got);
    amr_free(&p->m);
}

/* The GPU rows of a point: hash_gpu (fn on the device-resident cells g, writing the output
 * `what` to dev, compared with p->ref) and, for best_gpu, hash_gpu_job (cells in, dev out). */
static void mesh_gpu_rows(const hm_opts *r, const hm_point *pt, const mesh_point *p, bench_gpu_fn fn, gpu_hash_ctx *g,
                          const char *what, int *dev, method_set ms)
{
    hm_run(r, pt, gpu_case("hash_gpu", fn, g, out_dev_ints(what, dev, p->got, p->ref, p->nout)));
    if (!ms.best_gpu) return;
    hm_job j;
    job_init(&j, fn, g);
    job_in_mesh(&j, &p->m, g->ci, g->cj, g->lev);
    job_out(&j, what, dev, p->ref, p->nout, sizeof(int));
    job_run(r, pt, &j);
}

/* ================= 2D sort (Fig. 3.5) ================= */
static void sort2d_cpu(const hm_opts *r, const hm_point *pt, const amr_mesh *m, int *t, const int *ref, method_set ms)
{
    long n = m->n, W = amr_width(m), H = amr_height(m);
    s2_ctx c = s2_of(m, t);
    c.idx = (int *)host_alloc(sizeof(int) * n);
    c.qb = (qs_cell *)host_alloc(sizeof(qs_cell) * n);
    hm_case idx = cpu_case("", NULL, &c, out_ints("indices", c.idx, ref, n));
    if (ms.paper_cpu) {
        hm_run(r, pt, with_host(idx, "qsort", h_qsort2d));
        hm_run(r, pt, with_host(idx, "hash_cpu", h_hash_sort2d));
    }
    if (ms.best_cpu && W * H <= 4294967296L) { /* LSD radix on the 2D key, the CPU hash on all cores */
        c.key = (uint32_t *)host_alloc(sizeof(uint32_t) * n);
        c.k2 = (uint32_t *)host_alloc(sizeof(uint32_t) * n);
        c.i2 = (int *)host_alloc(sizeof(int) * n);
        c.hist = (long *)host_alloc(sizeof(long) * (size_t)r->threads << RADIX_MAX_DIGIT_BITS);
        c.cnt = (long *)host_alloc(sizeof(long) * (size_t)r->threads);
        int ths[2], nth = best_thread_counts(r, ths);
        for (int a = 0; a < nth; a++) {
            c.threads = ths[a];
            hm_run(r, pt, with_host(idx, ths[a] == 1 ? "radix32_cpu" : "radix32_cpu_omp", h_radix_sort2d));
        }
        c.threads = r->threads;
        hm_run(r, pt, with_host(idx, "hash_cpu_omp", h_hash_sort2d_omp));
        free(c.key); free(c.k2); free(c.i2); free(c.hist); free(c.cnt);
    }
    free(c.idx);
    free(c.qb);
}

static void measure_sort2d(const hm_opts *r, hm_point pt, long target, method_set ms)
{
    mesh_point p;
    mesh_point_make(r, &pt, "2D sort", target, 41, 1, &p);
    const amr_mesh *m = &p.m;
    if (hash_sort2d_cpu(m->i, m->j, m->lev, p.n, m->levmax, p.W, p.H, p.t, p.ref) != p.n) DIE("2D hash sort: collision");
    if (within(p.n, r->cpu_max)) sort2d_cpu(r, &pt, m, p.t, p.ref, ms);
    gpu_hash_ctx g;
    mesh_to_dev(m, &g);
    hash_sort_bufs(&g);
    mesh_gpu_rows(r, &pt, &p, gpu_hash_sort2d, &g, "indices", g.idx, ms);
    hash_sort_bufs_free(&g);
    mesh_dev_free(&g);
    mesh_point_free(&p);
}

/* ================= 2D neighbours (Fig. 3.7) ================= */
static void neigh2d_cpu(const hm_opts *r, const hm_point *pt, const amr_mesh *m, int *t, const kbox *boxes, const int *ref,
                        method_set ms)
{
    long n = m->n;
    s2_ctx c = s2_of(m, t);
    c.nb = (int *)host_alloc(sizeof(int) * 4 * n);
    c.boxes = boxes;
    kd2 kd;
    kd2_alloc(&kd, within(n, r->kd_max) ? n : 1);
    c.kd = &kd;
    hm_case nb = cpu_case("", NULL, &c, out_ints("neighbours", c.nb, ref, 4 * n));
    nb.also = s2_failed;
    if (within(n, r->brute_max)) hm_run(r, pt, with_host(nb, "brute", h_brute_neigh2d));
    if (within(n, r->kd_max)) hm_run(r, pt, with_host(nb, "kdtree", h_kd_neigh2d));
    if (within(n, r->cpu_max)) hm_run(r, pt, with_host(nb, "hash_cpu", h_hash_neigh2d));
    if (ms.best_cpu && within(n, r->cpu_max)) { /* k-D tree queries and the CPU hash on all cores */
        c.threads = r->threads;
        if (r->threads > 1 && within(n, r->kd_max)) hm_run(r, pt, with_host(nb, "kdtree_omp", h_kd_neigh2d_omp));
        hm_run(r, pt, with_host(nb, "hash_cpu_omp", h_hash_neigh2d_omp));
    }
    kd2_free(&kd);
    free(c.nb);
}

static void measure_neigh2d(const hm_opts *r, hm_point pt, long target, method_set ms)
{
    mesh_point p;
    mesh_point_make(r, &pt, "2D neighbours", target, 43, 4, &p);
    const amr_mesh *m = &p.m;
    long n = p.n;
    kbox *boxes = (kbox *)host_alloc(sizeof(kbox) * n);
    amr_boxes(m, boxes);
    hash_neigh2d_cpu(m->i, m->j, m->lev, n, m->levmax, p.W, p.H, p.t, p.ref);
    if (within(n, r->brute_max) || within(n, r->kd_max) || within(n, r->cpu_max)) neigh2d_cpu(r, &pt, m, p.t, boxes, p.ref, ms);
    gpu_hash_ctx g;
    mesh_to_dev(m, &g);
    g.nb = (int *)dev_alloc(sizeof(int) * 4 * n, "neighbours");
    mesh_gpu_rows(r, &pt, &p, gpu_hash_neigh2d, &g, "neighbours", g.nb, ms);
    CHECK_CUDA(cudaFree(g.nb));
    mesh_dev_free(&g);
    free(boxes);
    mesh_point_free(&p);
}

/* ================= the experiments ================= */
static int exp_fig3_5(void *p)
{
    return hm_figure((const hm_opts *)p, "hashmesh_fig3_5_sort2d.dat", "Fig. 3.5 (2D sort of AMR cells)",
                     "finest-level hash buckets W*H", measure_sort2d);
}

static int exp_fig3_7(void *p)
{
    return hm_figure((const hm_opts *)p, "hashmesh_fig3_7_neigh2d.dat", "Fig. 3.7 (2D neighbours, Listing 2)",
                     "finest-level hash buckets W*H", measure_neigh2d);
}

#endif
