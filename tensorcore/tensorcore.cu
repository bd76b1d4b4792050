/* tensorcore.cu -- ./tensorcore: options, the experiment table, main.  lambda(omega) computed with
 * tensor cores (Quezada, section 5) against the classic lambda: Fig. 10 of section 6.
 *
 * Paper: F. A. Quezada, "Acelerando ecuaciones de mapeo de hilos de GPU para fractales 2D
 * empotrados utilizando Tensor Cores" (UACh).  Built on fractals/: the fractals, the classic
 * lambda, the work kernels sw, rd, ca and their verify-then-time driver come from there; this
 * directory adds the tensor-core maps (maps.cuh, mma.h) and the sweep (exp_fig10.cuh).
 * Maps: lambda, lambda-thread (fractals/), v1, v2, v3 (paper, WMMA), mma, v2-mma, mma-warp
 * (ours, mma.sync on registers), controls without tensor cores v2-lambda, redux, redux-warp,
 * and table (lambda looked up: the kernel without the map's arithmetic, the map's cost).
 * `./tensorcore --exp=list` prints the experiments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/experiment.h"
#include "../fractals/driver.cuh"
#include "kernels.cuh"

typedef struct {
    common_opts c;
    const char *exp, *work, *map, *rho, *fractal;
    int rmin, rmax;
    int argc; /* the command line, for the data files' metadata */
    char **argv;
} tc_opts;

#include "exp_fig10.cuh"

static const experiment EXPERIMENTS[] = {
    /* name    paper item                 what it measures                                              function */
    {"fig10", "Fig. 10 (section 6)", "T(lambda) / T(map), every map, Sierpinski, rho = 8 16 32, --work", exp_fig10},
    {"nbb", "Sec. 5, other fractals", "v1's encoding on --fractal=NAME (s = 3, 4), rho = 9 27 or 4 16, --work", exp_nbb},
};

int main(int argc, char **argv)
{
    tc_opts o = {common_opts_default(), NULL, "all", "all", "all", "sierpinski-triangle", 0, -1, argc, argv};
    char names[512];
    fractal_names(names, sizeof names);
    arg_opt opts[] = {
        COMMON_ARGS(o.c),
        {"exp", ARG_STR, &o.exp, "experiment to run (list: print the table, no GPU needed)", 0, 0, NULL},
        {"work", ARG_CHOICE, &o.work, "work kernel(s) after the map (the tests of section 6)", 0, 0, "all sw rd ca"},
        {"map", ARG_CHOICE, &o.map,
         "map(s) timed besides the baselines lambda, lambda-thread: v1 v2 v3 = paper section 5; "
         "mma, mma-warp, v2-mma = ours (mma.sync on registers: v1's encoding per block / per warp, v2's); "
         "controls without tensor cores: v2-lambda (v2's sub-blocks, classic lambda), redux, redux-warp; "
         "table = lambda looked up (map cost)",
         0, 0, "all lambda v1 v2 v3 mma v2-mma mma-warp v2-lambda redux redux-warp table"},
        {"rho", ARG_CHOICE, &o.rho, "block side(s) rho (a power of the fractal's s)", 0, 0, "all 4 8 9 16 27 32"},
        {"fractal", ARG_CHOICE, &o.fractal,
         "NBB fractal (fig10: sierpinski-triangle; nbb: another one, s = 3, 4: v1's encoding only, no v2/v3, "
         "levels whose powers of s are exact halves; file tensorcore_nbb_<fractal>_<work>.dat)", 0, 0, names},
        {"rmin", ARG_INT, &o.rmin, "smallest level r (levels with n < rho are skipped)", 0, 16, NULL},
        {"rmax", ARG_INT, &o.rmax, "largest level r (-1: 16 for sw, 15 for rd/ca; --quick 12/11)", -1, 16, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "tensorcore --exp=NAME [options]",
               "Fig. 10 of Quezada: speedup of the tensor-core maps lambda_tc v1, v2, v3 (and ours: mma) over the\n"
               "classic lambda on the embedded Sierpinski triangle, work kernels sw, rd, ca, rho = 8, 16, 32.\n"
               "Every map is verified against the classic lambda for every block before it is timed.");
    common_opts_finish(&o.c);
    const experiment *e = experiment_select(EXPERIMENTS, ARGS_COUNT(EXPERIMENTS), o.exp, "tensorcore");
    return e->run(&o); /* validates its options, then calls device_require */
}
