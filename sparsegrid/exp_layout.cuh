/* sparsegrid/exp_layout.cuh -- the thesis's Fig. 2.9 (section 2.3.2): full grids hierarchized in place in the plain
 * layout vs straight into, within and out of the thesis's subspace order (k_sparse, the CPU's dimensional shift).
 *
 * The three thesis tile shapes as full grids; every row verified bitwise against the CPU's
 * full-grid result (permuted where the output is in subspace order) before it is timed. */
#ifndef SPARSEGRID_EXP_LAYOUT_CUH
#define SPARSEGRID_EXP_LAYOUT_CUH

#include "harness.cuh"
#include "exp_full.cuh"

/* sub[t N + i] = plain[t N + perm[i]] for G grids (OpenMP). */
static void permute_to_subspace(const float *plain, float *sub, long long G, const long long *perm, long long N)
{
#pragma omp parallel for schedule(static)
    for (long long t = 0; t < G; t++)
        for (long long i = 0; i < N; i++) sub[t * N + i] = plain[t * N + perm[i]];
}

/* The k_sparse paths between the layouts, each with computed offsets and with the offset table. */
typedef enum { FROM_PLAIN, WITHIN_SUBSPACE, TO_PLAIN } layout_path;
static const struct {
    layout_path path;
    const char *name[2]; /* computed offsets, table */
    const char *layout_in, *layout_out;
} LAYOUT_PATHS[3] = {
    {FROM_PLAIN, {"gpu_subspace_from_plain", "gpu_subspace_from_plain_table"}, "plain", "subspace"},
    {WITHIN_SUBSPACE, {"gpu_subspace", "gpu_subspace_table"}, "subspace", "subspace"},
    {TO_PLAIN, {"gpu_subspace_to_plain_inverse", "gpu_subspace_to_plain_inverse_table"}, "subspace", "plain"},
};

/* One shape in both layouts: the plain batch (b: u, surpluses, their inverse; full_reference)
 * and its subspace-order copies: the nodal values (h_sub) and the surpluses (h_bsur). */
typedef struct {
    full_plans p;       /* g and the pipelined plan */
    sgs_grid g;         /* the same full grid in subspace order (sgs_init_full) */
    long long *perm;    /* sgs_full_perm */
    sgs_dev full[2];    /* k_sparse reading/writing the plain layout: computed offsets, table */
    sgs_dev sub[2];     /* k_sparse within subspace order */
} layout_shape;

static void layout_shape_setup(const sg_opts *o, layout_shape *s, const char *dims)
{
    char err[200];
    memset(s, 0, sizeof *s);
    if (sg_parse_dims(dims, &s->p.g, err, sizeof err) || sgs_init_full(&s->g, s->p.g.d, s->p.g.l, err, sizeof err))
        DIE("%s", err);
    s->perm = (long long *)malloc(sizeof(long long) * s->g.npts);
    if (!s->perm) DIE("out of host memory");
    sgs_full_perm(&s->g, s->perm);
    for (int c = 0; c < 2; c++)
        if (sgs_dev_setup(s->full + c, &s->g, sizeof(float), 256, o->c.device, o->max_blocks, c) ||
            sgs_dev_setup(s->sub + c, &s->g, sizeof(float), 256, o->c.device, o->max_blocks, c) ||
            sgs_dev_use_full_layout(s->full + c, &s->g))
            DIE("layout: cannot plan k_sparse for %s", dims);
}

static void layout_shape_free(layout_shape *s)
{
    for (int c = 0; c < 2; c++) {
        sgs_dev_free(s->full + c);
        sgs_dev_free(s->sub + c);
    }
    free(s->perm);
    sgs_free(&s->g);
}

/* One timed row of the layout figure. */
static void layout_row(datfile *d, const char *shape, const char *impl, const char *lin, const char *lout, int threads,
                       long long nt, double moved, bench_stats st, double copy_gbs, int l2, double triad = 0)
{
    double gbs = gbs_of(moved, st.median), pct = copy_gbs > 0 ? 100 * gbs / copy_gbs : 100.0;
    char pt[32] = "-"; /* pct_triad: the cpu rows (triad > 0) */
    if (triad > 0) snprintf(pt, sizeof pt, "%.1f", 100 * gbs / triad);
    datfile_row(d, "%s %s %s %s %d %lld %.0f %.6f %.6f %.6f %.1f %.1f %d %d %s", shape, impl, lin, lout, threads, nt, moved,
                st.median, st.min, st.max, gbs, pct, moved > l2, st.batch, pt);
    fprintf(stderr, "layout %-8s %-30s %-8s -> %-8s Nt=%8lld %8.1f MB %9.4f ms %7.1f GB/s %5.1f%% of copy\n", shape, impl,
            lin, lout, nt, moved / 1e6, st.median, gbs, pct);
}

static void layout_open(const sg_opts *o, datfile *d, int l2)
{
    gbs_open(o, d, "Fig. 2.9 of the thesis: full grids in place vs in subspace order", "sparsegrid_figx7_layout.dat", l2,
             "cpu_tuned / cpu_shift");
    datfile_meta(d, "columns", "layout_in/layout_out: plain = the full grid, dimension 0 fastest; subspace = the thesis's "
                               "subspace order (sparse.h, sgs_init_full); bytes_moved = 2 * Nt * tile bytes; pct_copy = "
                               "gbs / copy kernel of the same bytes");
    datfile_columns(d, "shape impl layout_in layout_out threads nt bytes_moved median_ms min_ms max_ms gbs pct_copy beyond_l2 batch pct_triad");
}

/* The rows of one shape at one batch size, in the order of the data file. */
static void layout_batch(const sg_opts *o, datfile *d, const char *shape, layout_shape *s, const batch *b,
                         const batch *in_sub, const batch *from_plain, long long nt, int l2)
{
    static const full_impl COPY = {"copy", FULL_COPY, 0, 0},
                           PIPE[2] = {{"gpu_fused_pipelined", FULL_GPU_FUSED, SG_VARIANT_PIPELINED, 0},
                                      {"gpu_fused_pipelined_inverse", FULL_GPU_FUSED, SG_VARIANT_PIPELINED, 1}},
                           CPU = {"cpu_tuned", FULL_CPU_TUNED, 0, 0};
    double moved = 2.0 * b->n * sizeof(float);
    full_job j = full_job_of(o, &COPY, &s->p, b, nt, 0);
    bench_stats st = full_time(o, &j, d);
    double copy_gbs = gbs_of(moved, st.median);
    layout_row(d, shape, "copy", "plain", "plain", 256, nt, moved, st, copy_gbs, l2);
    for (int inv = 0; inv < 2; inv++) { /* in place, plain layout */
        j = full_job_of(o, &PIPE[inv], &s->p, b, nt, 0);
        st = full_time(o, &j, d);
        layout_row(d, shape, PIPE[inv].name, "plain", "plain", s->p.fused[SG_VARIANT_PIPELINED].threads, nt, moved, st,
                   copy_gbs, l2);
    }
    for (int c = 0; c < 2; c++) /* k_sparse: computed offsets, then the table */
        for (int k = 0; k < 3; k++) {
            sparse_impl m;
            memset(&m, 0, sizeof m);
            snprintf(m.name, sizeof m.name, "%s", LAYOUT_PATHS[k].name[c]);
            m.kind = SPARSE_GPU;
            m.inverse = LAYOUT_PATHS[k].path == TO_PLAIN;
            m.threads = 256;
            m.dv = (LAYOUT_PATHS[k].path == WITHIN_SUBSPACE ? s->sub : s->full) + c;
            sparse_job sj = sparse_job_of(&m, &s->g, LAYOUT_PATHS[k].path == FROM_PLAIN ? from_plain : in_sub, nt);
            st = sparse_time<float>(o, &sj, d);
            layout_row(d, shape, m.name, LAYOUT_PATHS[k].layout_in, LAYOUT_PATHS[k].layout_out, 256, nt, moved, st,
                       copy_gbs, l2);
        }
    j = full_job_of(o, &CPU, &s->p, b, nt, 0);
    st = full_time(o, &j, d);
    layout_row(d, shape, "cpu_tuned", "plain", "plain", o->threads, nt, moved, st, copy_gbs, l2, o->triad);
    sparse_impl shift;
    memset(&shift, 0, sizeof shift);
    snprintf(shift.name, sizeof shift.name, "cpu_shift");
    shift.kind = SPARSE_CPU_SHIFT;
    shift.threads = o->threads;
    sparse_job sj = sparse_job_of(&shift, &s->g, in_sub, nt);
    st = sparse_time<float>(o, &sj, d);
    layout_row(d, shape, "cpu_shift", "subspace", "subspace", o->threads, nt, moved, st, copy_gbs, l2, o->triad);
}

/* The three thesis tile shapes as full grids, hierarchized (a) in place in the plain layout
 * (gpu_fused_pipelined, planned as in --exp=bandwidth; cpu_tuned) and (b) straight from the
 * plain layout into subspace order and back (k_sparse with the permutation, computed offsets
 * and offset table), or (c) within subspace order (k_sparse; cpu_shift, the thesis's
 * dimensional shift); 4 MiB (inside the L2) and 256 MiB of input per batch. */
static int exp_layout(void *opts)
{
    sg_opts *o = (sg_opts *)opts;
    sg_use_gpu(o);
    int lgs[2] = {22, o->c.quick ? 24 : 28}; /* input bytes: 4 MiB (inside the L2) and 256 MiB */
    size_t cap = ((size_t)1 << lgs[1]) + (size_t)4 * 4 * 2025;
    if (o->nt_max && (size_t)o->nt_max * 2025 * 4 > cap) cap = (size_t)o->nt_max * 2025 * 4; /* 2025: the largest tile */
    batch b; /* the plain layout: u, its surpluses (h_sur, d_sur), their dehierarchization */
    batch_alloc(&b, cap, sizeof(float), 0, o->c.seed);
    float *h_sub = (float *)malloc(cap), *h_bsur = (float *)malloc(cap);
    if (!h_sub || !h_bsur) DIE("out of host memory");
    size_t span = (cap + 255) / 256 * 256;
    unsigned char *d_buf = (unsigned char *)device_alloc_or_usage(2 * span, "two more tile buffers");
    float *d_sub = (float *)d_buf, *d_bsur = (float *)(d_buf + span);
    int l2 = l2_bytes(o);
    datfile d;
    layout_open(o, &d, l2);
    sg_triad_meta(o, &d);
    for (int si = 0; si < 3; si++) {
        layout_shape s;
        layout_shape_setup(o, &s, THESIS_SHAPES[si]);
        long long N = s.g.npts;
        for (int li = 0; li < 2; li++) {
            long long nt = o->nt_max ? o->nt_max : (((long long)1 << lgs[li]) + N * 4 - 1) / (N * 4);
            char plan[300];
            full_reference(o, &b, &s.p.g, nt, 0);
            plan_pipelined(o, &s.p, &b, nt, plan, sizeof plan);
            if (li == 1) datfile_meta(&d, "fused", "%s: gpu_fused_pipelined %s", THESIS_SHAPES[si], plan);
            /* subspace order: the input (in_sub's u) and the surpluses (the output of every path into it) */
            permute_to_subspace((const float *)b.h_sur, h_bsur, nt, s.perm, N);
            permute_to_subspace((const float *)b.h_in, h_sub, nt, s.perm, N);
            CHECK_CUDA(cudaMemcpy(d_sub, h_sub, b.n * sizeof(float), cudaMemcpyHostToDevice));
            CHECK_CUDA(cudaMemcpy(d_bsur, h_bsur, b.n * sizeof(float), cudaMemcpyHostToDevice));
            batch in_sub = b; /* subspace order in; dehierarchization back into the plain layout */
            in_sub.h_in = h_sub, in_sub.d_in = d_sub, in_sub.h_sur = h_bsur, in_sub.d_sur = d_bsur;
            batch from_plain = b; /* the plain layout in, subspace order out */
            from_plain.h_sur = h_bsur;
            layout_batch(o, &d, THESIS_SHAPES[si], &s, &b, &in_sub, &from_plain, nt, l2);
            sg_fused_free(&s.p.fused[SG_VARIANT_PIPELINED]);
            if (o->nt_max) break;
        }
        layout_shape_free(&s);
    }
    datfile_commit(&d);
    CHECK_CUDA(cudaFree(d_buf));
    free(h_sub);
    free(h_bsur);
    batch_free(&b);
    return 0;
}

#endif
