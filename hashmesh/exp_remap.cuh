/* exp_remap.cuh -- the remap experiments: 1D (Fig. 3.9, Listings 3 and 4) and 2D AMR (Fig. 3.10);
 * sec. 3.3.
 *
 * A piecewise-linear field (cell mean + slopes) is transferred from an old mesh to a new one.
 * Every method computes the exact integral of that reconstruction over each new cell, so all
 * agree within 1e-10 of the serial CPU hash; the total is conserved; a linear field is
 * reproduced exactly (checked on the CPU hash at every size). */
#ifndef HASHMESH_EXP_REMAP_CUH
#define HASHMESH_EXP_REMAP_CUH

#include "harness.cuh"
#include "exp_mesh2d.cuh"

typedef struct {
    const mesh1d *o, *w;       /* 1D: old and new meshes */
    const amr_mesh *mo, *mw;   /* 2D: old and new meshes */
    const field *f;            /* the field on the old mesh */
    int *t;                    /* the perfect table (1D: L buckets; 2D: W * H) */
    long L;
    kd2 *kd;                   /* k-D tree over the old cells' boxes ob */
    const kbox *ob, *nbx;
    long na, nb;
    int *hits;                 /* k-D tree query results: cap per thread */
    long cap;
    qs_pair *ba, *bb;          /* the sort-based remap's buffers */
    double *out;               /* output: the new cells' values */
    int err;                   /* a k-D tree query overflowed, or the compact hash found no old cell */
    int threads;
    const chash *ch;           /* the compact hash over the old mesh (levmax sweep) */
} rm_ctx;

static void h_hash_remap1d(void *p) /* Listing 3 */
{
    rm_ctx *c = (rm_ctx *)p;
    hash_remap1d_cpu(c->o->lo, c->o->hi, c->o->n, c->f->mean, c->f->gx, c->w->lo, c->w->hi, c->w->n, c->t, c->L, c->out);
}
static void h_hash_remap1d_omp(void *p)
{
    rm_ctx *c = (rm_ctx *)p;
    hash_remap1d_omp(c->o->lo, c->o->hi, c->o->n, c->f->mean, c->f->gx, c->w->lo, c->w->hi, c->w->n, c->t, c->L, c->out,
                     c->threads);
}
static void h_sort_remap1d(void *p) /* Listing 4 */
{
    rm_ctx *c = (rm_ctx *)p;
    sort_remap1d(c->o, c->f->mean, c->f->gx, c->w, c->ba, c->bb, c->out);
}
static void h_hash_remap2d(void *p)
{
    rm_ctx *c = (rm_ctx *)p;
    hash_remap2d_cpu(c->mo->i, c->mo->j, c->mo->lev, c->mo->n, c->f->mean, c->f->gx, c->f->gy, c->mw->i, c->mw->j,
                     c->mw->lev, c->mw->n, c->mo->levmax, amr_width(c->mo), amr_height(c->mo), c->t, c->out);
}
static void h_hash_remap2d_omp(void *p)
{
    rm_ctx *c = (rm_ctx *)p;
    hash_remap2d_omp(c->mo->i, c->mo->j, c->mo->lev, c->mo->n, c->f->mean, c->f->gx, c->f->gy, c->mw->i, c->mw->j,
                     c->mw->lev, c->mw->n, c->mo->levmax, amr_width(c->mo), amr_height(c->mo), c->t, c->out, c->threads);
}
static void h_kd_remap(void *p)
{
    rm_ctx *c = (rm_ctx *)p;
    c->err |= kd2_remap(c->kd, c->ob, c->na, c->f->mean, c->f->gx, c->f->gy, c->nbx, c->nb, c->hits, c->cap, c->out);
}
static void h_kd_remap_omp(void *p)
{
    rm_ctx *c = (rm_ctx *)p;
    c->err |= kd2_remap_omp(c->kd, c->ob, c->na, c->f->mean, c->f->gx, c->f->gy, c->nbx, c->nb, c->hits, c->cap, c->out,
                            c->threads);
}
static void h_brute_remap(void *p)
{
    rm_ctx *c = (rm_ctx *)p;
    brute_remap(c->ob, c->na, c->f->mean, c->f->gx, c->f->gy, c->nbx, c->nb, c->out);
}
static size_t rm_failed(void *p)
{
    rm_ctx *c = (rm_ctx *)p;
    if (c->err) fprintf(stderr, "  a remap query overflowed or found no old cell\n");
    return c->err != 0;
}

/* the total of a field over the old cells (what every remap must conserve) and its scale */
typedef struct {
    double total, scale;
} conserved;

/* The rows of the CPU remaps after the serial hash: the k-D tree's query loop and the CPU
 * hash on all cores (equal to the serial hash bitwise). */
static void remap_best_cpu(const hm_opts *r, const hm_point *pt, const rm_ctx *base, bench_host_fn hash_omp,
                           const double *ref, double *got)
{
    rm_ctx c = *base;
    c.threads = r->threads;
    c.out = got;
    if (r->threads > 1 && within(pt->n, r->kd_max)) {
        kd2 kd;
        kd2_alloc(&kd, c.na);
        c.kd = &kd;
        c.hits = (int *)host_alloc(sizeof(int) * (size_t)c.cap * r->threads);
        hm_case k = cpu_case("kdtree_omp", h_kd_remap_omp, &c, out_f64("values", got, ref, c.nb, 1));
        k.also = rm_failed;
        hm_run(r, pt, k);
        free(c.hits);
        kd2_free(&kd);
    }
    hm_run(r, pt, cpu_case("hash_cpu_omp", hash_omp, &c, out_f64("values", got, ref, c.nb, 0)));
}

/* brute force, k-D tree, (1D) sort-based, CPU hash, and the best CPU rows; oc: the remap
 * with boxes, hits and the output got; hash: the serial CPU hash; sort_based: Listing 4 or NULL */
static void remap_cpu(const hm_opts *r, const hm_point *pt, rm_ctx *oc, bench_host_fn hash, bench_host_fn hash_omp,
                      int sort_based, const double *ref, conserved tot, method_set ms)
{
    long n = pt->n;
    hm_case k = cpu_case("", NULL, oc, out_f64("values", oc->out, ref, oc->nb, 1));
    k.also = rm_failed;
    if (within(n, r->brute_max)) hm_run(r, pt, with_host(k, "brute", h_brute_remap));
    if (within(n, r->kd_max)) {
        kd2 kd;
        kd2_alloc(&kd, oc->na);
        oc->kd = &kd;
        hm_run(r, pt, with_host(k, "kdtree", h_kd_remap));
        kd2_free(&kd);
    }
    if (!within(n, r->cpu_max)) return;
    if (sort_based) {
        oc->ba = (qs_pair *)host_alloc(sizeof(qs_pair) * oc->na);
        oc->bb = (qs_pair *)host_alloc(sizeof(qs_pair) * oc->nb);
        hm_run(r, pt, with_host(k, "sort_based", h_sort_remap1d));
        free(oc->ba);
        free(oc->bb);
    }
    hm_run(r, pt, cpu_case("hash_cpu", hash, oc, conserving(out_f64("values", oc->out, ref, oc->nb, 0), tot.total, tot.scale)));
    if (ms.best_cpu) remap_best_cpu(r, pt, oc, hash_omp, ref, oc->out);
}

/* the GPU hash remap (checked within 1e-10 and for conservation), then the job with its transfers */
static void remap_gpu(const hm_opts *r, const hm_point *pt, gpu_remap_ctx *g, bench_gpu_fn fn, hm_job *j, const double *ref,
                      conserved tot, method_set ms)
{
    double *got = (double *)host_alloc(sizeof(double) * g->nb);
    hm_out u = conserving(out_dev_f64("values", g->out, got, ref, g->nb, 1), tot.total, tot.scale);
    hm_run(r, pt, gpu_case("hash_gpu", fn, g, u));
    if (ms.best_gpu) {
        job_out(j, "values", g->out, got, g->nb, sizeof(double)); /* bitwise = the verified GPU result */
        job_run(r, pt, j);
    }
    free(got);
}

/* ================= 1D remap (Fig. 3.9) ================= */
static void measure_remap1d(const hm_opts *r, hm_point pt, long n, method_set ms)
{
    mesh1d o, w;
    long L = mesh1d_generate(&o, n, 0, 2, r->c.seed + (uint64_t)n * 47);
    mesh1d_generate(&w, 0, L, 2, r->c.seed + (uint64_t)n * 53);
    check_index_range(n + w.n, L, "1D remap");
    pt.what = "1D remap";
    pt.n = n;
    pt.param = (double)L;
    field f, fl;
    field1d_make(&f, &o, 2.0, 1.0 / L, 1.0, L / 7.0 + 3.0); /* non-constant, non-linear */
    field1d_make(&fl, &o, 1.0, 0.5, 0, 1);                   /* linear: must be exact */
    conserved tot = {0, 0};
    for (long a = 0; a < o.n; a++) {
        tot.total += f.mean[a] * (o.hi[a] - o.lo[a]);
        tot.scale += fabs(f.mean[a]) * (o.hi[a] - o.lo[a]);
    }
    double *ref = (double *)host_alloc(sizeof(double) * w.n), *got = (double *)host_alloc(sizeof(double) * w.n);
    rm_ctx c;
    memset(&c, 0, sizeof c);
    c.o = &o; c.w = &w; c.f = &fl; c.t = (int *)host_alloc(sizeof(int) * L); c.L = L; c.out = got; c.na = o.n; c.nb = w.n;
    h_hash_remap1d(&c); /* exactness for a linear field */
    for (long b = 0; b < w.n; b++) {
        double xc = 0.5 * (w.lo[b] + w.hi[b]), e = got[b] / (w.hi[b] - w.lo[b]) - (1.0 + 0.5 * xc);
        if (!(fabs(e) <= 1e-12 * (1 + 0.5 * L))) DIE("1D remap not exact for a linear field at new cell %ld", b);
    }
    c.f = &f;
    c.out = ref;
    h_hash_remap1d(&c); /* the reference */
    kbox *ob = (kbox *)host_alloc(sizeof(kbox) * o.n), *nbx = (kbox *)host_alloc(sizeof(kbox) * w.n);
    mesh1d_boxes(&o, ob);
    mesh1d_boxes(&w, nbx);
    int hits[64];
    c.out = got; c.ob = ob; c.nbx = nbx; c.hits = hits; c.cap = 64;
    remap_cpu(r, &pt, &c, h_hash_remap1d, h_hash_remap1d_omp, 1, ref, tot, ms);
    gpu_remap_ctx g; /* the inputs on the device, pinned copies for the job where it runs */
    memset(&g, 0, sizeof g);
    g.na = (int)o.n; g.nb = (int)w.n; g.L = L;
    hm_job j, *jp = ms.best_gpu ? &j : NULL;
    job_init(&j, gpu_hash_remap1d, &g);
    g.olo = (const int *)dev_input(jp, o.lo, sizeof(int) * o.n, "old mesh");
    g.ohi = (const int *)dev_input(jp, o.hi, sizeof(int) * o.n, "old mesh");
    g.nlo = (const int *)dev_input(jp, w.lo, sizeof(int) * w.n, "new mesh");
    g.nhi = (const int *)dev_input(jp, w.hi, sizeof(int) * w.n, "new mesh");
    g.mean = (const double *)dev_input(jp, f.mean, sizeof(double) * o.n, "field");
    g.gx = (const double *)dev_input(jp, f.gx, sizeof(double) * o.n, "field");
    g.t = (int *)dev_alloc(sizeof(int) * L, "1D remap hash table");
    g.out = (double *)dev_alloc(sizeof(double) * w.n, "remap output");
    remap_gpu(r, &pt, &g, gpu_hash_remap1d, &j, ref, tot, ms);
    const void *fr[] = {g.olo, g.ohi, g.nlo, g.nhi, g.mean, g.gx, g.t, g.out};
    dev_free_all(fr, 8);
    free(c.t); free(ref); free(got); free(ob); free(nbx);
    field_free(&f); field_free(&fl);
    mesh1d_free(&o); mesh1d_free(&w);
}

/* ================= 2D remap (Fig. 3.10) ================= */
static void measure_remap2d(const hm_opts *r, hm_point pt, long target, method_set ms)
{
    amr_mesh mo, mw;
    make_mesh(r, target, r->c.seed + (uint64_t)target * 59, &mo);
    make_mesh(r, target, r->c.seed + (uint64_t)target * 61 + 1, &mw);
    long n = mo.n, W = amr_width(&mo), H = amr_height(&mo);
    pt.what = "2D remap";
    pt.n = n;
    pt.param = (double)W * H;
    field f, fl;
    field2d_make(&f, &mo, 2.0, 1.0 / W, -0.5 / H, 1.0, W / 5.0 + 3.0);
    field2d_make(&fl, &mo, 1.0, 0.25, -0.125, 0, 1);
    conserved tot = {0, 0};
    for (long a = 0; a < n; a++) {
        double ar = (double)(1L << (2 * (mo.levmax - mo.lev[a])));
        tot.total += f.mean[a] * ar;
        tot.scale += fabs(f.mean[a]) * ar;
    }
    double *ref = (double *)host_alloc(sizeof(double) * mw.n), *got = (double *)host_alloc(sizeof(double) * mw.n);
    rm_ctx c;
    memset(&c, 0, sizeof c);
    c.mo = &mo; c.mw = &mw; c.f = &fl; c.t = (int *)host_alloc(sizeof(int) * W * H); c.out = got; c.na = n; c.nb = mw.n;
    h_hash_remap2d(&c); /* exactness for a linear field */
    for (long b = 0; b < mw.n; b++) {
        double rr = (double)(1L << (mw.levmax - mw.lev[b]));
        double xc = (mw.i[b] + 0.5) * rr, yc = (mw.j[b] + 0.5) * rr;
        double e = got[b] / (rr * rr) - (1.0 + 0.25 * xc - 0.125 * yc);
        if (!(fabs(e) <= 1e-12 * (1 + 0.25 * W + 0.125 * H))) DIE("2D remap not exact for a linear field at %ld", b);
    }
    c.f = &f;
    c.out = ref;
    h_hash_remap2d(&c); /* the reference */
    kbox *ob = (kbox *)host_alloc(sizeof(kbox) * n), *nbx = (kbox *)host_alloc(sizeof(kbox) * mw.n);
    amr_boxes(&mo, ob);
    amr_boxes(&mw, nbx);
    long cap = (4L << (2 * mo.levmax)) + 64;
    c.hits = (int *)host_alloc(sizeof(int) * cap);
    c.out = got; c.ob = ob; c.nbx = nbx; c.cap = cap;
    remap_cpu(r, &pt, &c, h_hash_remap2d, h_hash_remap2d_omp, 0, ref, tot, ms);
    gpu_remap_ctx g; /* the inputs on the device, pinned copies for the job where it runs */
    memset(&g, 0, sizeof g);
    g.na = (int)n; g.nb = (int)mw.n; g.levmax = mo.levmax; g.W = W; g.H = H;
    hm_job j, *jp = ms.best_gpu ? &j : NULL;
    job_init(&j, gpu_hash_remap2d, &g);
    g.oi = (const int *)dev_input(jp, mo.i, sizeof(int) * n, "old mesh");
    g.oj = (const int *)dev_input(jp, mo.j, sizeof(int) * n, "old mesh");
    g.ol = (const int *)dev_input(jp, mo.lev, sizeof(int) * n, "old mesh");
    g.ni = (const int *)dev_input(jp, mw.i, sizeof(int) * mw.n, "new mesh");
    g.nj = (const int *)dev_input(jp, mw.j, sizeof(int) * mw.n, "new mesh");
    g.nl = (const int *)dev_input(jp, mw.lev, sizeof(int) * mw.n, "new mesh");
    g.mean = (const double *)dev_input(jp, f.mean, sizeof(double) * n, "field");
    g.gx = (const double *)dev_input(jp, f.gx, sizeof(double) * n, "field");
    g.gy = (const double *)dev_input(jp, f.gy, sizeof(double) * n, "field");
    g.t = (int *)dev_alloc(sizeof(int) * W * H, "2D perfect hash table");
    g.out = (double *)dev_alloc(sizeof(double) * mw.n, "remap output");
    remap_gpu(r, &pt, &g, gpu_hash_remap2d, &j, ref, tot, ms);
    const void *fr[] = {g.oi, g.oj, g.ol, g.ni, g.nj, g.nl, g.mean, g.gx, g.gy, g.t, g.out};
    dev_free_all(fr, 11);
    free(c.t); free(ref); free(got); free(ob); free(nbx); free(c.hits);
    field_free(&f); field_free(&fl);
    amr_free(&mo); amr_free(&mw);
}

/* ================= the experiments ================= */
static int exp_fig3_9(void *p)
{
    return hm_figure((const hm_opts *)p, "hashmesh_fig3_9_remap1d.dat", "Fig. 3.9 (1D remap, Listings 3 and 4)",
                     "domain length L (buckets)", measure_remap1d);
}

static int exp_fig3_10(void *p)
{
    return hm_figure((const hm_opts *)p, "hashmesh_fig3_10_remap2d.dat", "Fig. 3.10 (2D remap)",
                     "finest-level hash buckets W*H", measure_remap2d);
}

#endif
