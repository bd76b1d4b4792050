/* fractals.cu -- ./fractals: options, the experiment table, main.  Block-space lambda(omega) vs
 * the bounding box on the embedded NBB fractals of Table 1 (Quezada, sections 3-4 and 6).
 *
 * Paper: F. A. Quezada, "Acelerando ecuaciones de mapeo de hilos de GPU para fractales 2D
 * empotrados utilizando Tensor Cores" (UACh), restating Navarro et al., HPCC 2017 and FGCS
 * 2020.  `./fractals --exp=list` prints the experiments; the GPU one is in exp_speedup.cuh,
 * those computed on the host in exp_host.cuh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/experiment.h"
#include "fractal.h"
#include "kernels.cuh"
#include "driver.cuh"

typedef struct {
    common_opts c;
    const char *exp, *fractal, *work, *map;
    int r, rmax;
    long long rho, max_cells;
    const nbb_fractal *one; /* --fractal=NAME, NULL for all */
    int argc;               /* the command line, for the data files' metadata */
    char **argv;
} fractals_opts;

static int fractals_selected(const fractals_opts *o, const nbb_fractal *f) { return !o->one || o->one == f; }

/* rho values of a sweep: --rho, else section 6's 8, 16, 32 for Sierpinski and, for other
 * fractals, the powers of their s that give 16..1024 threads per block. */
static int fractals_rhos(const fractals_opts *o, const nbb_fractal *f, uint32_t *rho)
{
    if (o->rho) { rho[0] = (uint32_t)o->rho; return 1; }
    if (f->s == 2) { rho[0] = 8; rho[1] = 16; rho[2] = 32; return 3; }
    if (f->s == 3) { rho[0] = 9; rho[1] = 27; return 2; }
    rho[0] = 4; rho[1] = 16; return 2; /* s == 4 */
}

#include "exp_host.cuh"
#include "exp_speedup.cuh"

static const experiment EXPERIMENTS[] = {
    /* name       paper item          what it measures                                              function */
    {"speedup", "Sec. 4, tests of 6", "bb (+ bb-skip, bb-block), lambda, lambda-thread, lambda-par running --work", exp_speedup},
    {"ratio", "Sec. 4, (s^2/k)^rb", "threads and memory of bb over lambda, every level", exp_ratio, EXP_HOST},
    {"shapes", "Table 1", "the cells of each fractal at a small level", exp_shapes, EXP_HOST},
    {"layout", "Figs. 4 and 5", "every thread of bb and lambda: place, cell, block", exp_layout, EXP_HOST},
    {"describe", "Table 1", "k, s, H and the Hausdorff dimension, on stdout", exp_describe, EXP_HOST},
    {"draw", "Table 1", "a fractal at level --r as ASCII, on stdout", exp_draw, EXP_HOST},
    {"launch", "Figs. 4 and 5", "x y block thread of one launch's working threads, stdout", exp_launch, EXP_HOST},
};

int main(int argc, char **argv)
{
    fractals_opts o = {common_opts_default(), NULL, "all", "sw", "all", -1, -1, 0, 0, NULL, argc, argv};
    char names[512], fractal_choices[600];
    fractal_names(names, sizeof names);
    snprintf(fractal_choices, sizeof fractal_choices, "all %s", names);
    arg_opt opts[] = {
        COMMON_ARGS(o.c),
        {"exp", ARG_STR, &o.exp, "experiment to run (list: print the table, no GPU needed)", 0, 0, NULL},
        {"fractal", ARG_CHOICE, &o.fractal, "fractal of Table 1 (all: every one)", 0, 0, fractal_choices},
        {"work", ARG_CHOICE, &o.work, "speedup: the work kernel after the map (the tests of section 6)", 0, 0, "sw rd ca"},
        {"map", ARG_CHOICE, &o.map, "thread map(s) (paper: bb, lambda, lambda-thread)", 0, 0,
         "all paper bb bb-skip bb-block lambda lambda-thread lambda-par"},
        {"r", ARG_INT, &o.r, "fractal level (-1: sweep every level that fits)", -1, 30, NULL},
        {"rmax", ARG_INT, &o.rmax, "largest level of the sweep (-1: by --max-cells)", -1, 30, NULL},
        {"rho", ARG_LONG, &o.rho, "block side rho, a power of s (0: 8 16 32 / 9 27 / 4 16)", 0, 1 << 20, NULL},
        {"max-cells", ARG_LONG, &o.max_cells, "speedup: largest n*n (0: 2^32 for sw, 2^30 rd/ca; quick /256)", 0, 1ll << 40, NULL},
    };
    args_parse(argc, argv, opts, ARGS_COUNT(opts), "fractals --exp=NAME [options]",
               "lambda(omega) vs bounding box on the embedded NBB fractals of Table 1 (Quezada; Navarro et al.).\n"
               "fractals: sierpinski-triangle candelabra h-fractal candy sierpinski-carpet x-fractal vicsek\n"
               "          empty-bottles cantor-dust");
    common_opts_finish(&o.c);
    const experiment *e = experiment_select(EXPERIMENTS, ARGS_COUNT(EXPERIMENTS), o.exp, "fractals");
    o.one = strcmp(o.fractal, "all") ? fractal_by_name(o.fractal) : NULL;
    return e->run(&o); /* the GPU experiment validates its options, then calls device_require */
}
