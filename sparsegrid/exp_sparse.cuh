/* sparsegrid/exp_sparse.cuh -- real regular sparse grids on the GPU, the thesis's future work (ch. 6; the layout of
 * section 2.3.2): batched (de)hierarchization, d = 2..6, GB/s against the copy kernel and the host's triad.
 *
 * One batch is G grids one after another (sparse.h).  Every implementation (k_sparse with
 * computed offsets or the offset table, k_sparse_multi, k_sparse_stream, k_sparse_pipe, k_sparse_clu, the two CPU
 * versions) is one named sparse_impl; each row is verified bitwise against the CPU, then timed (sparse_time,
 * harness.cuh -> common/runcase.h). */
#ifndef SPARSEGRID_EXP_SPARSE_CUH
#define SPARSEGRID_EXP_SPARSE_CUH

#include "harness.cuh"

/* Level of the sparse grid of d dimensions: about 6-14 k points (24-57 KB in float, twice that
 * in double), so several grids fit in the shared memory of an SM. */
static const int SPARSE_LEVEL[SGS_MAXD + 1] = {0, 12, 9, 7, 5, 4, 3};
#define SPARSE_THREADS_N 3
static const int SPARSE_THREADS[SPARSE_THREADS_N] = {128, 256, 512}; /* block sizes of k_sparse and k_sparse_multi */
/* k_sparse_multi configurations (sparse_multi.cuh), each at the SPARSE_THREADS block sizes:
 * {G, U} with G = 0 for the planner's choice (the most grids per block, up to 4, that leave 2
 * blocks per SM by shared memory): ILP only (1 grid, 4 entries in flight), grids only, both. */
#define SPARSE_MULTI_N 3
static const struct { int G, U; } SPARSE_MULTI[SPARSE_MULTI_N] = {{1, 4}, {0, 1}, {0, 2}};
/* k_sparse_stream configurations (sparse_stream.cuh): {M, G, threads, direct store}, M = 0 for
 * the grid's level n capped at SGST_MMAX (one tier per pass: every pole in one task; d = 4..6
 * at SPARSE_LEVEL), M = 3 for nine values per task (two or three tiers for d = 2, 3; 54-64
 * registers, so 32 warps per SM).  Plans that do not fit (shared memory, registers,
 * instantiations) or repeat an earlier one are left out.  The rows its first H200 run showed
 * dominated at every d (the direct store, 1024 threads, M = 4 at 512 threads, M = n at 512
 * threads) are no longer run; the kernels stay (and are tested). */
#define SPARSE_STREAM_N 4
static const struct { int M, G, threads, direct; } SPARSE_STREAM[SPARSE_STREAM_N] = {
    {3, 1, 256, 0}, {3, 1, 512, 0}, {3, 2, 256, 0}, {0, 1, 256, 0}};
/* k_sparse_pipe configurations (sparse_stream.cuh: the walk of sgst_walk2, the tasks in a
 * bank-aware order, bulk copies): {M, G, threads, buffers, pole pairs}, M = 0 as above (at least
 * 3).  Buffers 0: the threads copy (the new walk alone, against k_sparse_stream's row of the same
 * M, G, threads); 1: bulk copies, one buffer (the load waits for the store; the other blocks of
 * the SM overlap it); 2: the next group's load runs while this one is computed (1024 threads for
 * the grids of which only one block of two buffers fits an SM).  Pairs: top
 * tasks of mu <= 3 take two poles (half the index work per item, more bank conflicts).  minb
 * (rows _r6, _r8): the register-capped kernel, 6 or 8 blocks of 256 threads per SM where shared
 * memory lets them in (float grids of d <= 4: the uncapped 47 registers allow 5).  128 threads:
 * more, smaller blocks per SM (a barrier stalls fewer warps). */
#define SPARSE_PIPE_N 15
static const struct { int M, G, threads, nbuf, pairs, minb; } SPARSE_PIPE[SPARSE_PIPE_N] = {
    {3, 1, 256, 0, 0, 0}, {3, 1, 256, 1, 0, 0}, {3, 1, 512, 1, 0, 0}, {3, 1, 256, 2, 0, 0}, {3, 1, 512, 2, 0, 0},
    {3, 1, 1024, 2, 0, 0}, {0, 1, 256, 2, 0, 0}, {3, 2, 256, 2, 0, 0}, {3, 1, 256, 2, 1, 0}, {0, 1, 256, 2, 1, 0},
    {3, 1, 128, 1, 0, 0}, {3, 1, 1024, 1, 0, 0}, {3, 1, 256, 1, 0, 6}, {3, 1, 256, 2, 0, 6}, {3, 1, 256, 1, 0, 8}};
/* k_sparse_clu configurations (sparse_cluster.cuh: one grid over a cluster of two blocks, each
 * holding half of it): {M, threads per block}; the grid gets twice the threads.  128 threads: the
 * float grids of d = 5, 6, where the registers (59 per thread), not the halved shared memory,
 * limit the blocks per SM. */
#define SPARSE_CLU_N 4
static const struct { int M, threads; } SPARSE_CLU[SPARSE_CLU_N] = {{3, 256}, {3, 512}, {3, 128}, {4, 256}};
/* k_sparse_fam configurations (sparse_fam.cuh: a warp's lanes over the poles of a family, one grid
 * per block): {threads, buffers, rmax, lmin, pack}.  One buffer: more blocks (grids) per SM; two: the next
 * grid's load runs while this one is computed (d = 5, 6 in double, where one block fills the shared
 * memory).  rmax: poles of level 1 a lane takes from a task (half as many of level 2, ...), as long
 * as lmin lanes still share a family (lmin 1: the fewest tasks; 8: fewer bank conflicts).  The
 * first six: the best of each d and precision in the first H200 runs; the last two (rows _bank): the
 * same plans with the small families grouped bank-aware (pack, sgf_pack_class), added after those
 * runs.  --fam-plans=T:B:R:L:P,... runs up to SGF_CFG_MAX others instead (sgf_cfg_parse).
 * Grids with poles longer than 5 levels (d = 2, 3 at the sweep's levels) are left out. */
#define SPARSE_FAM_N 8 /* the default configurations; --fam-plans replaces them (sg_opts.fam) */
static_assert(SPARSE_FAM_N <= SGF_CFG_MAX, "the default configurations fit sg_opts.fam");
static const sgf_cfg SPARSE_FAM[SPARSE_FAM_N] = {
    {256, 1, 4, 1, 0}, {128, 1, 4, 8, 0}, {256, 1, 4, 8, 0}, {512, 1, 4, 8, 0}, {512, 2, 4, 8, 0}, {1024, 2, 4, 8, 0},
    {256, 1, 4, 1, 1}, {512, 2, 4, 8, 1}};
#define SPARSE_IMPLS_MAX                                                                                 \
    (1 + 4 * SPARSE_THREADS_N + 4 + 2 * SPARSE_MULTI_N * SPARSE_THREADS_N + 2 * SPARSE_STREAM_N + 2 * SPARSE_PIPE_N + \
     2 * SPARSE_CLU_N + 2 * SGF_CFG_MAX)

/* The GPU plans of one grid: k_sparse (block sizes x {computed offsets, offset table}) and
 * k_sparse_multi (SPARSE_MULTI x block sizes); plans that do not fit are left out. */
typedef struct {
    sgs_dev dv[2 * SPARSE_THREADS_N];
    int ndv;
    sgs_multi mv[SPARSE_MULTI_N * SPARSE_THREADS_N];
    int nmv;
    sgst_gpu sv[SPARSE_STREAM_N];
    int nsv;
    sgst_gpu pv[SPARSE_PIPE_N];
    int npv;
    sgst_gpu cv[SPARSE_CLU_N];
    int ncv;
    sgf_gpu fv[SGF_CFG_MAX];
    int nfv;
} sparse_plans;

/* The k_sparse_stream plans of grid g (SPARSE_STREAM), each described in a # stream_plan: line. */
static void sparse_stream_setup(const sg_opts *o, sparse_plans *p, const sgs_grid *g, size_t elem, datfile *d)
{
    for (int c = 0; c < SPARSE_STREAM_N; c++) {
        int M = SPARSE_STREAM[c].M ? SPARSE_STREAM[c].M : g->n < SGST_MMAX ? g->n : SGST_MMAX, dup = 0;
        if (M < 3) M = 3;
        for (int i = 0; i < p->nsv; i++)
            dup |= p->sv[i].M == M && p->sv[i].G == SPARSE_STREAM[c].G && p->sv[i].threads == SPARSE_STREAM[c].threads &&
                   p->sv[i].direct == SPARSE_STREAM[c].direct;
        if (dup) continue;
        char err[200];
        sgst_gpu *s = p->sv + p->nsv;
        int rc = sgst_gpu_setup(s, g, elem, M, SPARSE_STREAM[c].G, SPARSE_STREAM[c].threads, SPARSE_STREAM[c].direct,
                                o->c.device, o->max_blocks, err, sizeof err);
        if (rc) {
            datfile_meta(d, "stream_plan", "d=%d n=%d: M=%d G=%d %d threads%s left out: %s", g->d, g->n, M,
                         SPARSE_STREAM[c].G, SPARSE_STREAM[c].threads, SPARSE_STREAM[c].direct ? " direct" : "", err);
            continue;
        }
        p->nsv++;
        datfile_meta(d, "stream_plan", "d=%d n=%d: gpu_sparse_stream_m%d_g%d%s, %d threads: %d lists (%d barriers per "
                     "group), %.2f tasks and %.2f items per point, %zu bytes of shared memory per block, %d blocks per SM, "
                     "%d registers per thread, %d blocks launched at most", g->d, g->n, s->M, s->G,
                     s->direct ? "_direct" : "", s->threads, s->nlist, s->nlist + 2 - s->direct, s->tasks_pt, s->items_pt,
                     s->smem, s->per_sm, s->regs, s->blocks);
    }
}

/* The row name of a k_sparse_pipe plan: gpu_sparse_pipe_m<M>_g<G>_b<NBUF>[_p][_r6|_r8]. */
static void sparse_pipe_name(const sgst_gpu *s, char *name, size_t size)
{
    snprintf(name, size, "gpu_sparse_pipe_m%d_g%d_b%d%s%s", s->M, s->G, s->nbuf, s->pairs ? "_p" : "",
             s->minb == 6 ? "_r6" : s->minb == 8 ? "_r8" : "");
}

/* The k_sparse_pipe plans of grid g (SPARSE_PIPE), each described in a # pipe_plan: line. */
static void sparse_pipe_setup(const sg_opts *o, sparse_plans *p, const sgs_grid *g, size_t elem, datfile *d)
{
    for (int c = 0; c < SPARSE_PIPE_N; c++) {
        int M = SPARSE_PIPE[c].M ? SPARSE_PIPE[c].M : g->n < SGST_MMAX ? g->n : SGST_MMAX, dup = 0;
        if (M < 3) M = 3;
        for (int i = 0; i < p->npv; i++)
            dup |= p->pv[i].M == M && p->pv[i].G == SPARSE_PIPE[c].G && p->pv[i].threads == SPARSE_PIPE[c].threads &&
                   p->pv[i].nbuf == SPARSE_PIPE[c].nbuf && p->pv[i].pairs == SPARSE_PIPE[c].pairs &&
                   p->pv[i].minb == SPARSE_PIPE[c].minb;
        if (dup) continue;
        char err[200];
        sgst_gpu *s = p->pv + p->npv;
        int rc = sgsp_gpu_setup(s, g, elem, M, SPARSE_PIPE[c].G, SPARSE_PIPE[c].threads, SPARSE_PIPE[c].nbuf,
                                SPARSE_PIPE[c].pairs, SPARSE_PIPE[c].minb, o->c.device, o->max_blocks, err, sizeof err);
        if (rc) {
            datfile_meta(d, "pipe_plan", "d=%d n=%d: M=%d G=%d %d threads %d buffers%s%s left out: %s", g->d, g->n, M,
                         SPARSE_PIPE[c].G, SPARSE_PIPE[c].threads, SPARSE_PIPE[c].nbuf, SPARSE_PIPE[c].pairs ? " pairs" : "",
                         SPARSE_PIPE[c].minb ? " register-capped" : "", err);
            continue;
        }
        p->npv++;
        char name[48];
        sparse_pipe_name(s, name, sizeof name);
        datfile_meta(d, "pipe_plan", "d=%d n=%d: %s, %d threads: %d lists (%d barriers per "
                     "group), %.2f tasks and %.2f items per point, %d buffers (%s), %s, %zu bytes of shared memory per "
                     "block, %d blocks per SM, %d registers per thread, %d blocks launched at most", g->d, g->n, name,
                     s->threads, s->nlist, s->nlist + 2, s->tasks_pt, s->items_pt, s->nbuf,
                     s->nbuf ? "bulk copies" : "the threads copy", s->pairs ? "pole pairs" : "single poles", s->smem,
                     s->per_sm, s->regs, s->blocks);
    }
}

/* The k_sparse_clu plans of grid g (SPARSE_CLU), each described in a # clu_plan: line. */
static void sparse_clu_setup(const sg_opts *o, sparse_plans *p, const sgs_grid *g, size_t elem, datfile *d)
{
    for (int c = 0; c < SPARSE_CLU_N; c++) {
        char err[200];
        sgst_gpu *s = p->cv + p->ncv;
        int rc = sgcl_gpu_setup(s, g, elem, SPARSE_CLU[c].M, SPARSE_CLU[c].threads, o->c.device, o->max_blocks, err, sizeof err);
        if (rc) {
            datfile_meta(d, "clu_plan", "d=%d n=%d: M=%d %d threads left out: %s", g->d, g->n, SPARSE_CLU[c].M,
                         SPARSE_CLU[c].threads, err);
            continue;
        }
        p->ncv++;
        datfile_meta(d, "clu_plan", "d=%d n=%d: gpu_sparse_clu_m%d, %d threads per block (%d per grid, a cluster of %d "
                     "blocks): %d lists (%d cluster barriers per grid), %.2f tasks and %.2f items per point, %zu bytes of "
                     "shared memory per block, about %d blocks per SM, %d registers per thread, %d blocks launched at most",
                     g->d, g->n, s->M, s->threads, SGCL_CTAS * s->threads, SGCL_CTAS, s->nlist, s->nlist + 2, s->tasks_pt,
                     s->items_pt, s->smem, s->per_sm, s->regs, s->blocks);
    }
}

/* The k_sparse_fam plans of grid g (o->fam: SPARSE_FAM or --fam-plans), each described in a # fam_plan: line. */
static void sparse_fam_setup(const sg_opts *o, sparse_plans *p, const sgs_grid *g, size_t elem, datfile *d)
{
    for (int c = 0; c < o->nfam; c++) {
        char err[200];
        const sgf_cfg *f = o->fam + c;
        sgf_gpu *s = p->fv + p->nfv;
        int rc = sgf_gpu_setup(s, g, elem, f->threads, f->nbuf, f->rmax, f->lmin, f->pack, o->c.device, o->max_blocks, err,
                               sizeof err);
        if (rc) {
            datfile_meta(d, "fam_plan", "d=%d n=%d: %d threads %d buffers rmax %d lmin %d%s left out: %s", g->d, g->n,
                         f->threads, f->nbuf, f->rmax, f->lmin, f->pack ? " packed" : "", err);
            continue;
        }
        p->nfv++;
        datfile_meta(d, "fam_plan", "d=%d n=%d: gpu_sparse_fam_r%d_l%d_b%d%s, %d threads: %d tasks (warp tasks) per grid, %.2f "
                     "updates per point, %.1f%% of the lanes hold poles, poles up to %d levels, modelled balance over the warps "
                     "%.2f, %zu bytes of shared memory per block, %d blocks per SM, %d registers per thread, %d blocks launched "
                     "at most", g->d, g->n, s->rmax, s->lmin, s->nbuf, s->pack ? "_bank" : "", s->threads, s->ntask, s->items_pt,
                     100 * s->lanes_used, s->MM,
                     s->balance, s->smem, s->per_sm, s->regs, s->blocks);
    }
}

static void sparse_plans_setup(const sg_opts *o, sparse_plans *p, const sgs_grid *g, size_t elem, datfile *d)
{
    memset(p, 0, sizeof *p);
    for (int tab = 0; tab < 2; tab++)
        for (int c = 0; c < SPARSE_THREADS_N; c++)
            if (!sgs_dev_setup(p->dv + p->ndv, g, elem, SPARSE_THREADS[c], o->c.device, o->max_blocks, tab)) p->ndv++;
    datfile_meta(d, "plan", "d=%d n=%d: %lld points, %d subspaces, %s, %d resident blocks of 256 threads; %s", g->d, g->n,
                 g->npts, g->nsub, p->dv[1].staged ? "staged in shared memory" : "in global memory", p->dv[1].blocks,
                 p->ndv > SPARSE_THREADS_N ? "computed offsets and offset table" : "computed offsets only (> 65536 points)");
    for (int q = 0; q < SPARSE_MULTI_N; q++)
        for (int c = 0; c < SPARSE_THREADS_N; c++) {
            sgs_multi *m = p->mv + p->nmv;
            if (sgs_multi_setup(m, g, elem, SPARSE_THREADS[c], SPARSE_MULTI[q].G, SPARSE_MULTI[q].U, o->c.device,
                                o->max_blocks))
                continue;
            p->nmv++;
            datfile_meta(d, "multi_plan", "d=%d n=%d: gpu_sparse_multi_g%d_u%d, %d threads: G=%d grids per block "
                         "(%s), U=%d, %zu bytes of shared memory per block, %d blocks per SM (%d grids per SM), "
                         "%d registers per thread, %d blocks launched at most", g->d, g->n, m->G, m->U, m->threads, m->G,
                         SPARSE_MULTI[q].G ? "fixed" : "planned: 2 blocks per SM by shared memory", m->U, m->smem,
                         m->per_sm, m->per_sm * m->G, m->regs, m->blocks);
        }
    if (!p->nmv) datfile_meta(d, "multi_plan", "d=%d n=%d: no k_sparse_multi plan (grid not staged or > 65536 points)", g->d, g->n);
    sparse_stream_setup(o, p, g, elem, d);
    sparse_pipe_setup(o, p, g, elem, d);
    sparse_clu_setup(o, p, g, elem, d);
    sparse_fam_setup(o, p, g, elem, d);
}

static void sparse_plans_free(sparse_plans *p)
{
    for (int c = 0; c < p->ndv; c++) sgs_dev_free(p->dv + c);
    for (int c = 0; c < p->nmv; c++) sgs_multi_free(p->mv + c);
    for (int c = 0; c < p->nsv; c++) sgst_gpu_free(p->sv + c);
    for (int c = 0; c < p->npv; c++) sgst_gpu_free(p->pv + c);
    for (int c = 0; c < p->ncv; c++) sgst_gpu_free(p->cv + c);
    for (int c = 0; c < p->nfv; c++) sgf_gpu_free(p->fv + c);
}

/* Does name start with one of the comma-separated prefixes of impls (NULL or "": every name)? */
static int impl_selected(const char *impls, const char *name)
{
    if (!impls || !*impls || !strcmp(name, "copy")) return 1;
    for (const char *a = impls; *a;) {
        size_t len = strcspn(a, ",");
        if (len && !strncmp(name, a, len)) return 1;
        a += len + (a[len] == ',');
    }
    return 0;
}

static void impl_add(sparse_impl *list, int *n, sparse_kind kind, int inverse, int threads, const sgs_dev *dv,
                     const sgs_multi *mv, const char *name, const char *impls)
{
    if (!impl_selected(impls, name)) return;
    sparse_impl *m = list + (*n)++;
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%.39s%s", name, inverse ? "_inverse" : ""); /* 47 characters at most */
    m->kind = kind;
    m->inverse = inverse;
    m->threads = threads;
    m->dv = dv;
    m->mv = mv;
}

/* The rows of one batch, in the order of the data files: copy; k_sparse's plans forward, then
 * inverse; the CPU lists and the dimensional shift, each forward and inverse; k_sparse_multi's
 * plans forward, then inverse; k_sparse_stream's plans forward, then inverse; k_sparse_pipe's plans
 * forward, then inverse (each group added
 * after the others, whose rows stayed as they were).  impls (--sparse-impls) keeps only the
 * rows whose name starts with one of its prefixes (and copy). */
static int sparse_impls(sparse_impl *list, const sparse_plans *p, int threads, const char *impls)
{
    int n = 0;
    impl_add(list, &n, SPARSE_COPY, 0, 0, NULL, NULL, "copy", impls);
    for (int inv = 0; inv < 2; inv++)
        for (int c = 0; c < p->ndv; c++)
            impl_add(list, &n, SPARSE_GPU, inv, p->dv[c].threads, p->dv + c, NULL,
                     p->dv[c].table ? "gpu_sparse_table" : "gpu_sparse", impls);
    for (int shift = 0; shift < 2; shift++)
        for (int inv = 0; inv < 2; inv++)
            impl_add(list, &n, shift ? SPARSE_CPU_SHIFT : SPARSE_CPU_TUNED, inv, threads, NULL, NULL,
                     shift ? "cpu_shift" : "cpu_tuned", impls);
    for (int inv = 0; inv < 2; inv++)
        for (int c = 0; c < p->nmv; c++) {
            char name[48];
            snprintf(name, sizeof name, "gpu_sparse_multi_g%d_u%d", p->mv[c].G, p->mv[c].U);
            impl_add(list, &n, SPARSE_GPU_MULTI, inv, p->mv[c].threads, NULL, p->mv + c, name, impls);
        }
    for (int inv = 0; inv < 2; inv++)
        for (int c = 0; c < p->nsv; c++) {
            char name[48];
            snprintf(name, sizeof name, "gpu_sparse_stream_m%d_g%d%s", p->sv[c].M, p->sv[c].G,
                     p->sv[c].direct ? "_direct" : "");
            int before = n;
            impl_add(list, &n, SPARSE_GPU_STREAM, inv, p->sv[c].threads, NULL, NULL, name, impls);
            if (n > before) list[n - 1].sv = p->sv + c;
        }
    for (int inv = 0; inv < 2; inv++)
        for (int c = 0; c < p->npv; c++) {
            char name[48];
            sparse_pipe_name(p->pv + c, name, sizeof name);
            int before = n;
            impl_add(list, &n, SPARSE_GPU_PIPE, inv, p->pv[c].threads, NULL, NULL, name, impls);
            if (n > before) list[n - 1].sv = p->pv + c;
        }
    for (int inv = 0; inv < 2; inv++)
        for (int c = 0; c < p->ncv; c++) {
            char name[48];
            snprintf(name, sizeof name, "gpu_sparse_clu_m%d", p->cv[c].M);
            int before = n;
            impl_add(list, &n, SPARSE_GPU_CLU, inv, p->cv[c].threads, NULL, NULL, name, impls);
            if (n > before) list[n - 1].sv = p->cv + c;
        }
    for (int inv = 0; inv < 2; inv++)
        for (int c = 0; c < p->nfv; c++) {
            char name[48];
            snprintf(name, sizeof name, "gpu_sparse_fam_r%d_l%d_b%d%s", p->fv[c].rmax, p->fv[c].lmin, p->fv[c].nbuf,
                     p->fv[c].pack ? "_bank" : "");
            int before = n;
            impl_add(list, &n, SPARSE_GPU_FAM, inv, p->fv[c].threads, NULL, NULL, name, impls);
            if (n > before) list[n - 1].fv = p->fv + c;
        }
    return n;
}

/* The references of a batch of G grids (b->h_in): h_sur = cpu_tuned(u), equal to the pole-wise
 * reference bitwise on the first 8 grids; h_back = its inverse, which must return u within
 * 2e-5 (float) / 1e-13 (double) |u|max.  Then u and the surpluses are uploaded. */
template <typename T>
static void sparse_reference(const sg_opts *o, batch *b, const sgs_grid *g, long long G)
{
    long long n = G * g->npts;
    const T *u = (const T *)b->h_in;
    T *c = (T *)b->h_sur, *back = (T *)b->h_back;
    sgs_cpu_t(u, c, G, g, 0, o->threads);
    T *t = (T *)malloc(sizeof(T) * g->npts);
    if (!t) DIE("out of host memory");
    for (long long i = 0; i < G && i < 8; i++) {
        memcpy(t, u + i * g->npts, sizeof(T) * g->npts);
        if (sgs_ref_t(t, g, 0)) DIE("sparse reference: out of memory");
        if (memcmp(t, c + i * g->npts, sizeof(T) * g->npts)) verify_fail("sparse cpu_tuned != pole-wise reference");
    }
    free(t);
    sgs_cpu_t(c, back, G, g, 1, o->threads);
    double maxu = 0, err = 0, tol = sizeof(T) == 4 ? 2e-5 : 1e-13;
#pragma omp parallel for reduction(max : maxu, err)
    for (long long i = 0; i < n; i++) {
        maxu = fmax(maxu, fabs((double)u[i]));
        err = fmax(err, fabs((double)back[i] - (double)u[i]));
    }
    if (err > tol * maxu) verify_fail("sparse round trip dehierarchize(hierarchize(u)) != u");
    batch_upload(b, n);
}

/* The best row of each kind at the largest batch, for the # result: lines. */
typedef struct {
    double gpu[2], cpu[2], cpu_gbs[2], multi[2], stream[2], pipe[2], clu[2], fam[2]; /* % of the ceiling, [inverse] */
    const sparse_impl *gpu_at[2], *cpu_at[2], *multi_at[2], *stream_at[2], *pipe_at[2], *clu_at[2], *fam_at[2];
} sparse_best;

static void sparse_note_best(sparse_best *r, const sparse_impl *m, double pct, double gbs)
{
    int i = m->inverse;
    if (m->kind == SPARSE_GPU && pct > r->gpu[i]) { r->gpu[i] = pct; r->gpu_at[i] = m; }
    if (m->kind == SPARSE_GPU_MULTI && pct > r->multi[i]) { r->multi[i] = pct; r->multi_at[i] = m; }
    if (m->kind == SPARSE_GPU_STREAM && pct > r->stream[i]) { r->stream[i] = pct; r->stream_at[i] = m; }
    if (m->kind == SPARSE_GPU_PIPE && pct > r->pipe[i]) { r->pipe[i] = pct; r->pipe_at[i] = m; }
    if (m->kind == SPARSE_GPU_CLU && pct > r->clu[i]) { r->clu[i] = pct; r->clu_at[i] = m; }
    if (m->kind == SPARSE_GPU_FAM && pct > r->fam[i]) { r->fam[i] = pct; r->fam_at[i] = m; }
    if ((m->kind == SPARSE_CPU_TUNED || m->kind == SPARSE_CPU_SHIFT) && pct > r->cpu[i]) {
        r->cpu[i] = pct;
        r->cpu_gbs[i] = gbs;
        r->cpu_at[i] = m;
    }
}

static void sparse_write_best(datfile *d, const sgs_grid *g, const sparse_best *r, const char *prec)
{
    for (int inv = 0; inv < 2; inv++)
        if (r->stream_at[inv]) {
            const sparse_impl *m = r->stream_at[inv];
            double old = r->gpu[inv] > r->multi[inv] ? r->gpu[inv] : r->multi[inv];
            datfile_meta(d, "stream_result", "d=%d n=%d at the largest batch: best gpu_sparse_stream%s %.1f%% of copy "
                         "(%s, %d threads, %d blocks per SM); best of k_sparse and k_sparse_multi %.1f%%", g->d, g->n,
                         inv ? " (inverse)" : "", r->stream[inv], m->name, m->threads, m->sv->per_sm, old);
            fprintf(stderr, "sparse %s d=%d: best stream%s %.1f%% of copy (%s, %d threads), older kernels %.1f%%\n", prec,
                    g->d, inv ? " inverse" : "", r->stream[inv], m->name, m->threads, old);
        }
    for (int inv = 0; inv < 2; inv++)
        if (r->pipe_at[inv]) {
            const sparse_impl *m = r->pipe_at[inv];
            datfile_meta(d, "pipe_result", "d=%d n=%d at the largest batch: best gpu_sparse_pipe%s %.1f%% of copy "
                         "(%s, %d threads, %d blocks per SM); best gpu_sparse_stream %.1f%%", g->d, g->n,
                         inv ? " (inverse)" : "", r->pipe[inv], m->name, m->threads, m->sv->per_sm, r->stream[inv]);
            fprintf(stderr, "sparse %s d=%d: best pipe%s %.1f%% of copy (%s, %d threads), best stream %.1f%%\n", prec,
                    g->d, inv ? " inverse" : "", r->pipe[inv], m->name, m->threads, r->stream[inv]);
        }
    for (int inv = 0; inv < 2; inv++)
        if (r->clu_at[inv]) {
            const sparse_impl *m = r->clu_at[inv];
            datfile_meta(d, "clu_result", "d=%d n=%d at the largest batch: best gpu_sparse_clu%s %.1f%% of copy "
                         "(%s, %d threads per block, about %d blocks per SM); best gpu_sparse_pipe %.1f%%", g->d, g->n,
                         inv ? " (inverse)" : "", r->clu[inv], m->name, m->threads, m->sv->per_sm, r->pipe[inv]);
            fprintf(stderr, "sparse %s d=%d: best clu%s %.1f%% of copy (%s, %d threads), best pipe %.1f%%\n", prec, g->d,
                    inv ? " inverse" : "", r->clu[inv], m->name, m->threads, r->pipe[inv]);
        }
    for (int inv = 0; inv < 2; inv++)
        if (r->fam_at[inv]) {
            const sparse_impl *m = r->fam_at[inv];
            datfile_meta(d, "fam_result", "d=%d n=%d at the largest batch: best gpu_sparse_fam%s %.1f%% of copy "
                         "(%s, %d threads, %d blocks per SM); best gpu_sparse_pipe %.1f%%", g->d, g->n,
                         inv ? " (inverse)" : "", r->fam[inv], m->name, m->threads, m->fv->per_sm, r->pipe[inv]);
            fprintf(stderr, "sparse %s d=%d: best fam%s %.1f%% of copy (%s, %d threads), best pipe %.1f%%\n", prec, g->d,
                    inv ? " inverse" : "", r->fam[inv], m->name, m->threads, r->pipe[inv]);
        }
    for (int inv = 0; inv < 2; inv++)
        if (r->multi_at[inv]) {
            const sgs_multi *m = r->multi_at[inv]->mv;
            datfile_meta(d, "multi_result", "d=%d n=%d at the largest batch: best gpu_sparse_multi%s %.1f%% of copy "
                         "(G=%d, U=%d, %d threads, %d blocks per SM); best k_sparse (the result line) %.1f%%", g->d, g->n,
                         inv ? " (inverse)" : "", r->multi[inv], m->G, m->U, m->threads, m->per_sm, r->gpu[inv]);
        }
    int t[2], tab[2];
    for (int i = 0; i < 2; i++) {
        t[i] = r->gpu_at[i] ? r->gpu_at[i]->threads : 0;
        tab[i] = r->gpu_at[i] ? r->gpu_at[i]->dv->table : 0;
    }
    datfile_meta(d, "result", "d=%d n=%d at the largest batch: best gpu_sparse %.1f%% of copy (%d threads, %s), inverse "
                              "%.1f%% (%d threads, %s); best CPU %s %.1f GB/s = %.1f%% of the host triad, inverse %s "
                              "%.1f GB/s = %.1f%%", g->d, g->n, r->gpu[0], t[0], tab[0] ? "table" : "computed",
                 r->gpu[1], t[1], tab[1] ? "table" : "computed", r->cpu_at[0] ? r->cpu_at[0]->name : "none",
                 r->cpu_gbs[0], r->cpu[0], r->cpu_at[1] ? r->cpu_at[1]->name : "none", r->cpu_gbs[1], r->cpu[1]);
    fprintf(stderr, "sparse %s d=%d: gpu %.1f%% / %.1f%% of copy, cpu %.1f%% / %.1f%% of triad\n", prec, g->d, r->gpu[0],
            r->gpu[1], r->cpu[0], r->cpu[1]);
}

static void sparse_open(const sg_opts *o, datfile *d, size_t elem, double triad, int l2)
{
    char figure[160], file[96];
    snprintf(figure, sizeof figure, "beyond the thesis (its future work): batched regular sparse grids, %s", o->precision);
    snprintf(file, sizeof file, "sparsegrid_figx4_sparse_%s.dat", o->precision);
    dat_meta m = sg_meta(o, figure);
    datfile_open(d, o->c.out, file, &m);
    datfile_meta(d, "l2_bytes", "%d", l2);
    datfile_meta(d, "host_triad_gbs", "%.1f (STREAM-like triad, %d threads, best of 5; common/host.h)", triad, o->threads);
    datfile_meta(d, "cpu", "cpu_tuned on %d OpenMP threads (OpenMP over grids, level-wise lists, rows vectorized), %s",
                 o->threads, sg_cpu_isa());
    datfile_meta(d, "grid", "regular sparse grid with boundary, sum_j max(l_j,1) <= n + d - 1, subspace order; "
                            "grids one after another");
    datfile_meta(d, "columns", "bytes_moved = 2 * grids * points * %zu (read + write once); gbs = bytes_moved / median; "
                               "pct_ceiling = gbs / copy kernel of the same bytes (gpu rows) or / host_triad_gbs (cpu "
                               "rows); threads = block size (gpu) or OpenMP threads (cpu)", elem);
    datfile_columns(d, "d level points grids impl threads bytes_moved median_ms min_ms max_ms gbs pct_ceiling beyond_l2 batch");
}

/* Bytes per buffer: the largest batch (2^maxlog input bytes), or --nt-max grids of the largest d. */
static size_t sparse_capacity(const sg_opts *o, size_t elem, int maxlog, int dlo, int dhi)
{
    if (!o->nt_max) return ((size_t)1 << maxlog) + 8 * elem * 16384;
    size_t cap = 0;
    for (int dd = dlo; dd <= dhi; dd++) {
        sgs_grid g;
        char err[200];
        if (sgs_init(&g, dd, SPARSE_LEVEL[dd], err, sizeof err)) DIE("%s", err);
        if ((size_t)(o->nt_max * g.npts * elem) > cap) cap = o->nt_max * g.npts * elem;
        sgs_free(&g);
    }
    return cap;
}

/* Every implementation on batches of 2^18.. 2^maxlog input bytes (8x apart; --nt-max: one batch
 * of that many grids) of the grid g. */
template <typename T>
static void sparse_sweep_d(const sg_opts *o, datfile *d, batch *b, const sgs_grid *g, int maxlog, double triad, int l2)
{
    sparse_plans p;
    sparse_plans_setup(o, &p, g, sizeof(T), d);
    sparse_impl list[SPARSE_IMPLS_MAX];
    int nimpl = sparse_impls(list, &p, o->threads, o->impls);
    sparse_best best;
    memset(&best, 0, sizeof best);
    for (int lg = maxlog % 3 + 18; lg <= maxlog; lg += 3) {
        long long G = o->nt_max ? o->nt_max : (((long long)1 << lg) + g->npts * (long long)sizeof(T) - 1) / (g->npts * (long long)sizeof(T));
        double moved = 2.0 * G * g->npts * sizeof(T), copy_gbs = 0;
        int last = lg + 3 > maxlog || o->nt_max;
        sparse_reference<T>(o, b, g, G);
        for (int k = 0; k < nimpl; k++) {
            const sparse_impl *m = &list[k];
            sparse_job j = sparse_job_of(m, g, b, G);
            bench_stats st = sparse_time<T>(o, &j, d);
            int cpu = m->kind == SPARSE_CPU_TUNED || m->kind == SPARSE_CPU_SHIFT;
            double gbs = gbs_of(moved, st.median);
            if (m->kind == SPARSE_COPY) copy_gbs = gbs;
            double pct = 100 * gbs / (cpu ? triad : copy_gbs);
            datfile_row(d, "%d %d %lld %lld %s %d %.0f %.6f %.6f %.6f %.1f %.1f %d %d", g->d, g->n, g->npts, G, m->name,
                        m->threads, moved, st.median, st.min, st.max, gbs, pct, moved > l2, st.batch);
            fprintf(stderr, "sparse %s d=%d n=%d %-28s %3d grids=%8lld %8.1f MB %9.4f ms %7.1f GB/s %5.1f%% of %s%s\n",
                    o->precision, g->d, g->n, m->name, m->threads, G, moved / 1e6, st.median, gbs, pct,
                    cpu ? "triad" : "copy", moved > l2 ? "" : "  (fits in L2)");
            if (last) sparse_note_best(&best, m, pct, gbs);
        }
        if (o->nt_max) break;
    }
    sparse_write_best(d, g, &best, o->precision);
    sparse_plans_free(&p);
}

/* GB/s of batched sparse-grid (de)hierarchization, d = 2..6 (--sparse-d: one d), against the
 * copy kernel of the same bytes (GPU) and the host's STREAM-like triad (CPU, common/host.h). */
template <typename T>
static int sparse_run(sg_opts *o)
{
    sg_use_gpu(o);
    int maxlog = o->c.quick ? 24 : 28; /* input bytes of the largest batch: 256 MiB (quick 16 MiB) */
    int dlo = o->sparse_d ? o->sparse_d : 2, dhi = o->sparse_d ? o->sparse_d : SGS_MAXD;
    batch b;
    batch_alloc(&b, sparse_capacity(o, sizeof(T), maxlog, dlo, dhi), sizeof(T), 0, o->c.seed);
    int l2 = l2_bytes(o);
    double triad = host_triad_gbs(1LL << (o->c.quick ? 24 : 26), o->threads, 5);
    fprintf(stderr, "sparse: host triad %.1f GB/s on %d threads\n", triad, o->threads);
    datfile d;
    sparse_open(o, &d, sizeof(T), triad, l2);
    for (int dd = dlo; dd <= dhi; dd++) {
        sgs_grid g;
        char err[200];
        if (sgs_init(&g, dd, SPARSE_LEVEL[dd], err, sizeof err)) DIE("%s", err);
        sparse_sweep_d<T>(o, &d, &b, &g, maxlog, triad, l2);
        sgs_free(&g);
    }
    datfile_commit(&d);
    batch_free(&b);
    return 0;
}

static int exp_sparse(void *opts)
{
    sg_opts *o = (sg_opts *)opts;
    return strcmp(o->precision, "double") ? sparse_run<float>(o) : sparse_run<double>(o);
}

#endif
