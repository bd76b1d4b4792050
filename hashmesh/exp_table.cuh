/* exp_table.cuh -- the table look-up experiment (Fig. 3.11, Listing 5): bilinear interpolation in
 * a 51 x 23 equation-of-state table, its interval found by linear search, bisection or a hash; sec. 3.4.
 *
 * Every size: queries from --seed, the double-precision bisection result as the reference;
 * every method within 1e-10 of it (the GPU with FMA contraction too). */
#ifndef HASHMESH_EXP_TABLE_CUH
#define HASHMESH_EXP_TABLE_CUH

#include "harness.cuh"

/* GPU grid: this many blocks per SM, each staging the table in shared memory once and then
 * interpolating a grid-stride share of the queries (sec. 3.4, "each work-group makes a copy") */
#define TABLE_BLOCKS_PER_SM 8

typedef struct {
    const eos_table *e;
    const double *qx, *qy;
    long nq;
    int method;  /* TAB_HASH, TAB_LINEAR or TAB_BISECT (hash.h) */
    double *out;
    int threads; /* > 0: the *_omp rows */
} tb_ctx;
static void h_table(void *p)
{
    tb_ctx *c = (tb_ctx *)p;
    if (c->threads > 0)
        table_lookup_omp(c->method, c->e->p, c->e->rho, EOS_NRHO, c->e->temp, EOS_NT, c->qx, c->qy, c->nq, c->out, c->threads);
    else
        table_lookup_cpu(c->method, c->e->p, c->e->rho, EOS_NRHO, c->e->temp, EOS_NT, c->qx, c->qy, c->nq, c->out);
}

static void table_cpu(const hm_opts *r, const hm_point *pt, const eos_table *e, const double *qx, const double *qy,
                      const double *ref, method_set ms)
{
    long nq = pt->n;
    double *got = (double *)host_alloc(sizeof(double) * nq);
    static const char *serial[3] = {"hash_cpu", "linear", "bisection"}; /* by method: TAB_HASH, TAB_LINEAR, TAB_BISECT */
    static const char *omp[3] = {"hash_cpu_omp", "linear_omp", "bisection_omp"};
    const int order[3] = {TAB_BISECT, TAB_LINEAR, TAB_HASH};
    for (int a = 0; a < 3; a++) {
        tb_ctx c = {e, qx, qy, nq, order[a], got, 0};
        hm_run(r, pt, cpu_case(serial[order[a]], h_table, &c, out_f64("values", got, ref, nq, 1)));
    }
    for (int a = 0; ms.best_cpu && a < 3; a += 2) { /* bisection and the hash on all cores */
        tb_ctx c = {e, qx, qy, nq, order[a], got, r->threads};
        hm_run(r, pt, cpu_case(omp[order[a]], h_table, &c, out_f64("values", got, ref, nq, 1)));
    }
    free(got);
}

static void measure_table(const hm_opts *r, hm_point pt, long nq, method_set ms)
{
    pt.what = "table look-up";
    pt.n = nq;
    pt.param = EOS_NRHO * EOS_NT;
    eos_table e;
    eos_generate(&e);
    double *qx = (double *)host_alloc(sizeof(double) * nq), *qy = (double *)host_alloc(sizeof(double) * nq);
    eos_queries(&e, nq, qx, qy, r->c.seed + (uint64_t)nq);
    double *ref = (double *)host_alloc(sizeof(double) * nq), *got = (double *)host_alloc(sizeof(double) * nq);
    tb_ctx rc = {&e, qx, qy, nq, TAB_BISECT, ref, 0};
    h_table(&rc); /* the double-precision reference: bisection + bilinear */
    if (ms.paper_cpu && within(nq, r->cpu_max)) table_cpu(r, &pt, &e, qx, qy, ref, ms);
    gpu_table_ctx g;
    g.nx = EOS_NRHO; g.ny = EOS_NT; g.nq = nq; g.blocks = r->sms * TABLE_BLOCKS_PER_SM;
    hm_job j, *jp = ms.best_gpu ? &j : NULL;
    job_init(&j, gpu_table_hash, &g);
    g.data = (const double *)dev_dup(e.p, sizeof e.p, "table");
    g.xaxis = (const double *)dev_dup(e.rho, sizeof e.rho, "axis");
    g.yaxis = (const double *)dev_dup(e.temp, sizeof e.temp, "axis");
    g.qx = (const double *)dev_input(jp, qx, sizeof(double) * nq, "queries");
    g.qy = (const double *)dev_input(jp, qy, sizeof(double) * nq, "queries");
    g.out = (double *)dev_alloc(sizeof(double) * nq, "table output");
    hm_run(r, &pt, gpu_case("hash_gpu", gpu_table_hash, &g, out_dev_f64("values", g.out, got, ref, nq, 1)));
    if (ms.best_gpu) {
        job_out(&j, "values", g.out, got, nq, sizeof(double)); /* bitwise = the verified GPU result */
        job_run(r, &pt, &j);
    }
    const void *fr[] = {g.data, g.xaxis, g.yaxis, g.qx, g.qy, g.out};
    dev_free_all(fr, 6);
    free(qx); free(qy); free(ref); free(got);
}

static int exp_fig3_11(void *p)
{
    return hm_figure((const hm_opts *)p, "hashmesh_fig3_11_table.dat", "Fig. 3.11 (table look-up, Listing 5)",
                     "table entries (51 x 23)", measure_table);
}

#endif
