/* hashmesh.cu -- the experiments of Robey, Nicholaeff, Robey, "Hash-based algorithms for
 * discretized data": Fig. 3.3-3.7, 3.9-3.11 and Tables 4.1, 4.2, on one GPU and its host CPU.
 *
 *   ./hashmesh --exp=list                                 the table below (no GPU needed)
 *   ./hashmesh --exp=fig3_3 [--quick] [--out=results]     one experiment -> its .dat file(s)
 *
 * Every size of every experiment: inputs from --seed (gen.h) -> the serial CPU hash result as
 * the reference -> each other method run once on poisoned outputs and compared (sorts and
 * neighbours: exact indices; remaps: 1e-10 relative, totals conserved; table: 1e-10 of
 * bisection) -> timing (harness.cuh, common/runcase.h).  A failed check: message, exit 1, no
 * data file.  CPU codes are serial like the paper's (the *_omp rows use every core); GPU codes
 * time the device work on device-resident inputs (hash_gpu_job: with the transfers); tables
 * and scratch are allocated outside the timed region, clearing the table is inside it. */
#include "../common/experiment.h"
#include "harness.cuh"     /* options, allocation, cases, timing, rows */
#include "exp_sort1d.cuh"  /* 1D sort and neighbours: Fig. 3.3, 3.4, 3.6, Table 4.2 */
#include "exp_mesh2d.cuh"  /* 2D AMR sort and neighbours: Fig. 3.5, 3.7 */
#include "exp_remap.cuh"   /* 1D and 2D remap: Fig. 3.9, 3.10 */
#include "exp_table.cuh"   /* table look-up: Fig. 3.11 */
#include "exp_tab4_1.cuh"  /* Table 4.1, from the figures and against the best baselines */
#include "exp_beyond.cuh"  /* past the perfect table: levmax sweep, clustered keys */
#include "exp_hashsort.cuh" /* Table 4.2 to 2^27: the partitioned hash sort vs CUB radix */

static const experiment EXPERIMENTS[] = {
    /* name         paper item           what it measures                                                 function */
    {"fig3_3",      "Fig. 3.3",          "1D sort vs n: qsort, CPU hash, GPU hash, CUB radix",              exp_fig3_3},
    {"fig3_4",      "Fig. 3.4",          "1D sort vs dmax/dmin (1..32) at n = 2^20",                         exp_fig3_4},
    {"fig3_5",      "Fig. 3.5",          "2D sort of AMR cells: qsort, CPU hash, GPU hash",                  exp_fig3_5},
    {"fig3_6",      "Fig. 3.6",          "1D neighbours: brute force, k-D tree, CPU hash, GPU hash",         exp_fig3_6},
    {"fig3_7",      "Fig. 3.7",          "2D neighbours (Listing 2): brute force, k-D tree, hash",           exp_fig3_7},
    {"fig3_9",      "Fig. 3.9",          "1D remap: brute, k-D tree, sort-based (Listing 4), hash (3)",      exp_fig3_9},
    {"fig3_10",     "Fig. 3.10",         "2D remap: brute force, k-D tree, CPU hash, GPU hash",              exp_fig3_10},
    {"fig3_11",     "Fig. 3.11",         "table look-up (Listing 5): linear, bisection, hash",               exp_fig3_11},
    {"tab4_1",      "Table 4.1",         "speed-ups at ~2 million, read from the figures' data",             exp_tab4_1, EXP_HOST},
    {"tab4_2",      "Table 4.2",         "GPU hash sort vs CUB radix sort (64-bit keys)",                    exp_tab4_2},
    {"sort_best",   "Fig. 3.3, beyond",  "1D sort vs introsort, LSD radix (1 core, all), CUB radix 32/64",   exp_sort_best},
    {"tab4_1_best", "Table 4.1, beyond", "Table 4.1 against the best one-core and all-core baselines",       exp_tab4_1_best},
    {"tab4_2_best", "Table 4.2, beyond", "Table 4.2 against CUB radix on the 32-bit bucket index",           exp_tab4_2_best},
    {"levmax",      "sec. 3.2, beyond",  "2D neighbours, remap vs levmax: perfect, compact hash, k-D tree",  exp_levmax},
    {"clustered",   "sec. 3.1, beyond",  "1D sort of clustered keys: where the perfect table blows up",     exp_clustered},
    {"sort_scale",  "Table 4.2, beyond", "GPU sorts to 2^27, uniform and clustered: partitioned hash vs CUB", exp_sort_scale},
    {"sort_cpu",    "Table 4.2, beyond", "CPU sorts on all cores, 2^21..2^25: partitioned hash vs LSD radix",  exp_sort_cpu},
    {"sort_variants", "Table 4.2, beyond", "the partitioned sorts' plan choices, one at a time (GPU, CPU)",   exp_sort_variants},
};

int main(int argc, char **argv)
{
    hm_opts o = hm_parse(argc, argv);                /* args.h table; --help, bad options: exit 2 */
    const experiment *e = experiment_select(EXPERIMENTS, ARGS_COUNT(EXPERIMENTS), o.exp, "hashmesh");
    hm_resolve(&o, e->name);                         /* its defaults; tables that cannot fit: exit 2 */
    if (e->host) return e->run(&o);                  /* tab4_1 reads the figures' data: no GPU */
    device_require(o.c.device, 7, 5);                /* no GPU: SKIP, exit 77 */
    hm_start(&o);                                    /* stream, L2 size, host triad, metadata names */
    int rc = e->run(&o);
    hm_stop(&o);
    return rc;
}
