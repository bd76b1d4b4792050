/* experiment.h -- the experiment table every main program dispatches through.
 *
 * A program lists its experiments once, each a function with the paper item it reproduces
 * and one line saying what it measures; main() parses options, looks the --exp name up here
 * and calls the function.  `--exp=list` prints the table and exits 0 without touching a GPU,
 * so a user can see what a program does on any machine.
 *
 *   static const experiment EXPERIMENTS[] = {
 *       {"fig3", "Fig. 3", "zero-work map cost, I = T_bb / T_map", exp_fig3},
 *       {"layout", "Fig. 2", "the cell of every thread, on stdout", exp_layout, EXP_HOST},
 *       ...
 *   };
 *   const experiment *e = experiment_select(EXPERIMENTS, ARGS_COUNT(EXPERIMENTS), o.exp, "simplex2d");
 *   if (!e->host) device_require(o.c.device, 7, 5);
 *   return e->run(&o);
 *
 * `host` is the one marker of an experiment that needs no GPU (EXP_HOST; left out: EXP_GPU):
 * --exp=list prints it as the column `host` or `GPU` in every program, and main() calls
 * device_require (exit 77 without a GPU) only for the GPU ones.
 *
 * An experiment's function receives the program's own options struct (one per program) as
 * `void *` and returns the program's exit code (0 ok; a failed verification exits 1 from
 * inside run_case(), see runcase.h). */
#ifndef COMMON_EXPERIMENT_H
#define COMMON_EXPERIMENT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXP_GPU = 0, EXP_HOST = 1 };

typedef struct {
    const char *name;       /* the --exp=NAME value */
    const char *paper_item; /* "Fig. 3", "Table 4.2", or "beyond the paper" */
    const char *about;      /* one line: what it measures */
    int (*run)(void *opts); /* the program's options struct */
    int host;               /* EXP_HOST: runs without a GPU; EXP_GPU (0, the default): needs one */
} experiment;

/* The table as `--exp=list` prints it: name, `GPU` or `host`, paper item, one line. */
static inline void experiment_print(FILE *f, const experiment *t, int n, const char *program)
{
    fprintf(f, "%s experiments (--exp=NAME):\n", program);
    for (int i = 0; i < n; i++)
        fprintf(f, "  %-18s %-4s %-24s %s\n", t[i].name, t[i].host ? "host" : "GPU", t[i].paper_item, t[i].about);
}

/* The experiment called `name`.  "list" prints the table on stdout and exits 0; a missing or
 * unknown name prints one error line naming the choices and exits 2 (bad usage). */
static inline const experiment *experiment_select(const experiment *t, int n, const char *name,
                                                  const char *program)
{
    if (name && !strcmp(name, "list")) {
        experiment_print(stdout, t, n, program);
        exit(0);
    }
    for (int i = 0; name && i < n; i++)
        if (!strcmp(t[i].name, name)) return &t[i];
    fprintf(stderr, "error: %s --exp=%s: ", program, name ? name : "");
    fprintf(stderr, name && *name ? "no such experiment (one of:" : "an experiment is required (one of:");
    for (int i = 0; i < n; i++) fprintf(stderr, " %s", t[i].name);
    fprintf(stderr, "; --exp=list describes them)\n");
    exit(2);
}

#endif
