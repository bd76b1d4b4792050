/* sparsegrid/sparsegrid.cu -- the thesis's experiments and ours beyond it: options, the experiment table, main().
 * Thesis "Multi-level splitting of full grids on the GPU", chapters 2, 4, 5 (and the future work of chapter 6).
 *
 *   ./sparsegrid --exp=list          the experiments (no GPU needed)
 *   ./sparsegrid --exp=fig5_1        one of them -> results/<its .dat file>
 *
 * Reading order: this file; harness.cuh (inputs, CPU references, the verified-then-timed jobs);
 * exp_full.cuh (Figs. 5.1-5.3, bandwidth, tune); exp_sparse.cuh (real sparse grids on the GPU);
 * exp_layout.cuh (Fig. 2.9); exp_host.cuh (error figures and Fig. 2.5, host only); exp_roofline.cuh (the CPU
 * versions against the host triad, host only).  The
 * algorithms themselves: hierarchize.h (formulas, CPU versions), kernels.cuh (GPU kernels for
 * full grids), sparse.h / sparse_kernels.cuh / sparse_multi.cuh / sparse_stream.{h,cuh} (sparse grids).
 *
 * Every timed row is verified first (common/runcase.h): the tuned CPU result equals the float
 * scalar reference bitwise (and the double reference within 1e-5), every GPU version equals
 * the CPU bitwise on NaN-poisoned output, in both directions, and dehierarchization returns
 * the input within 4e-6 |u|max.  A mismatch exits 1 and leaves no data file. */
#include "harness.cuh"
#include "exp_full.cuh"
#include "exp_sparse.cuh"
#include "exp_layout.cuh"
#include "exp_host.cuh"
#include "exp_roofline.cuh"

static const experiment EXPERIMENTS[] = {
    /* name           paper item                   what it measures                                            function */
    {"fig5_1",       "Fig. 5.1",                  "33x33 tiles, Nt = 1..7000: CPU (A) vs GPU thesis-style (B) vs GPU fused", exp_fig5_1},
    {"fig5_2",       "Fig. 5.2",                  "9x9x9 tiles, Nt = 1..2500: the same three",                exp_fig5_2},
    {"fig5_3",       "Fig. 5.3",                  "9x9x5x5 tiles, Nt = 1..600: the same three",               exp_fig5_3},
    {"bandwidth",    "beyond the thesis",         "3 shapes up to >= 1 GiB of tiles: GB/s vs a copy kernel",  exp_bandwidth},
    {"tune",         "beyond the thesis",         "pipelined fused kernel: threads x floats per group x stages", exp_tune},
    {"sparse",       "ch. 6 (future work)",       "real sparse grids d = 2..6 on GPU and CPU: GB/s vs copy / triad", exp_sparse},
    {"layout",       "Fig. 2.9",                  "full grids in place vs into / within / out of subspace order", exp_layout},
    {"truncation",   "ch. 6 (future work)",       "error of the sparse grid kept from a full grid", exp_truncation, EXP_HOST},
    {"sparse-error", "section 2.2",               "error vs points, sparse and full grids, fitted rates", exp_sparse_error, EXP_HOST},
    {"progressive",  "Fig. 2.5",                  "reconstruction from a subspace-ordered stream", exp_progressive, EXP_HOST},
    {"cpu-roofline", "beyond the thesis",         "CPU versions (cpu_blocked: cache-blocked) vs the host triad, float and double", exp_cpu_roofline, EXP_HOST},
};

static sg_opts parse_options(int argc, char **argv)
{
    sg_opts o;
    memset(&o, 0, sizeof o);
    o.c = common_opts_default();
    o.precision = "float";
    o.argc = argc;
    o.argv = argv;
    arg_opt opts[] = {
        COMMON_ARGS(o.c),
        {"exp", ARG_STR, &o.exp, "experiment (--exp=list: the table)", 0, 0, NULL},
        {"sparse-d", ARG_INT, &o.sparse_d, "sparse: only this dimension (0: d = 2..6)", 0, SGS_MAXD, NULL},
        {"precision", ARG_CHOICE, &o.precision, "sparse: float or double", 0, 0, "float double"},
        {"threads", ARG_INT, &o.threads, "CPU threads of cpu_tuned (0: all processors)", 0, 1024, NULL},
        {"tiles-per-block", ARG_INT, &o.tpb, "fused kernels: tiles per block (0: auto)", 0, 4096, NULL},
        {"nt-max", ARG_LONG, &o.nt_max, "fig5_*: only Nt up to this (0: the thesis's range); tune, layout: Nt (0: 1 GiB / 4 and 256 MiB); sparse: one batch of this many grids (0: 1/4 MiB .. 256 MiB)", 0, 1000000, NULL},
        {"sparse-impls", ARG_STR, &o.impls, "sparse: only the rows whose impl name starts with one of these comma-separated prefixes, e.g. gpu_sparse_multi_g1,gpu_sparse_stream (copy always; default: every row)", 0, 0, NULL},
        {"fam-plans", ARG_STR, &o.fam_plans, "sparse: the k_sparse_fam configurations T:B:R:L:P[,...] (threads, buffers, rmax, lmin, pack; at most 8) instead of the default eight, e.g. 256:1:8:1:1", 0, 0, NULL},
        {"max-blocks", ARG_INT, &o.max_blocks, "tune, sparse, layout: launch at most N blocks (0: all resident; small values make each block walk many tiles/grids)", 0, 1000000, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "sparsegrid --exp=NAME [options]",
               "Hierarchization of full and sparse grids (thesis ch. 5): CPU tuned vs GPU thesis-style vs GPU fused.");
    common_opts_finish(&o.c);
    if (o.threads == 0) o.threads = omp_get_num_procs();
    return o;
}

int main(int argc, char **argv)
{
    sg_opts o = parse_options(argc, argv);
    const experiment *e = experiment_select(EXPERIMENTS, ARGS_COUNT(EXPERIMENTS), o.exp, "sparsegrid");
    if (strcmp(o.precision, "float") && strcmp(e->name, "sparse"))
        DIE_USAGE("--precision=%s: only --exp=sparse computes in double (the full-grid figures are float32)", o.precision);
    if (o.fam_plans) {
        char err[200];
        if (strcmp(e->name, "sparse")) DIE_USAGE("--fam-plans: only --exp=sparse runs k_sparse_fam");
        o.nfam = sgf_cfg_parse(o.fam_plans, o.fam, SGF_CFG_MAX, err, sizeof err);
        if (o.nfam < 0) DIE_USAGE("--fam-plans=%s: %s", o.fam_plans, err);
    } else {
        o.nfam = SPARSE_FAM_N;
        memcpy(o.fam, SPARSE_FAM, sizeof SPARSE_FAM);
    }
    int rc = e->run(&o); /* the GPU experiments start with sg_use_gpu(); the host-only ones never touch a GPU */
    if (o.s) CHECK_CUDA(cudaStreamDestroy(o.s));
    return rc;
}
