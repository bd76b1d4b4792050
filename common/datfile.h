/* datfile.h -- the .dat files every figure is drawn from (common/README.md, "Data files").
 *
 * Layout: `# key: value` metadata lines, then ONE bare header row of column names (units in
 * the names: median_ms, gbs, speedup_x), then whitespace-separated rows.  gnuplot reads it
 * with `set datafile columnheaders` and columns by name.
 *
 * The file is written to `<path>.tmp` and renamed onto <path> only by datfile_commit(), so
 * a run that dies (failed verification, crash, Ctrl-C) never leaves a half-written data
 * file behind, and make re-measures it next time.  Files are never appended to.
 *
 *   dat_meta m = dat_meta_of("simplex2d", "Fig. 3 of arXiv:1609.01490", argc, argv, gpu, &c);
 *   datfile d; datfile_open(&d, "results", "simplex2d_fig3_dummy.dat", &m);
 *   datfile_columns(&d, "n map median_ms min_ms max_ms improvement_x");
 *   datfile_row(&d, "%d %s %.6f ...", ...);
 *   datfile_commit(&d);
 *
 * A program that exits between datfile_open() and datfile_commit() (DIE, DIE_USAGE,
 * CHECK_CUDA) leaves nothing behind either: an atexit handler removes every temp file still
 * open.  `# warning:` lines written between rows (datfile_meta) are comments that gnuplot
 * skips; they sit next to the row they qualify.
 *
 * The git revision and the compiler flags come from common.mk (COMMON_GIT_REV,
 * COMMON_BUILD_FLAGS); the date is taken when the file is opened. */
#ifndef COMMON_DATFILE_H
#define COMMON_DATFILE_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "args.h"
#include "host.h"

#ifndef COMMON_GIT_REV
#define COMMON_GIT_REV "unknown"
#endif
#ifndef COMMON_BUILD_FLAGS
#define COMMON_BUILD_FLAGS "unknown"
#endif

typedef struct {
    const char *program; /* e.g. "simplex2d" */
    const char *figure;  /* e.g. "Fig. 3, Navarro et al. arXiv:1609.01490" */
    const char *gpu;     /* device_describe() string, or "none (host only)" */
    char cmdline[1024];
    int warmup, reps, batch, quick;
} dat_meta;

typedef struct {
    FILE *f;
    char path[1024];
    char tmp[1040];
} datfile;

static inline dat_meta dat_meta_of(const char *program, const char *figure, int argc, char **argv,
                                   const char *gpu, const common_opts *c)
{
    dat_meta m;
    memset(&m, 0, sizeof m);
    m.program = program;
    m.figure = figure;
    m.gpu = gpu;
    args_cmdline(argc, argv, m.cmdline, sizeof m.cmdline);
    m.warmup = c->warmup;
    m.reps = c->reps;
    m.batch = c->batch;
    m.quick = c->quick;
    return m;
}

#define DATFILE_MAX_OPEN 32 /* data files open at once in one program */

/* The temp files not yet committed or discarded, removed at exit.  This list is the only
 * mutable static state of the library (function-local): exit handlers take no argument. */
static inline char (*datfile_pending(void))[1040]
{
    static char pending[DATFILE_MAX_OPEN][1040];
    return pending;
}

static inline void datfile_remove_pending(void)
{
    char (*p)[1040] = datfile_pending();
    for (int i = 0; i < DATFILE_MAX_OPEN; i++)
        if (p[i][0]) remove(p[i]);
}

/* track = 1: remember tmp (registering the exit handler once); 0: forget it. */
static inline void datfile_track(const char *tmp, int track)
{
    static int handler_registered;
    char (*p)[1040] = datfile_pending();
    if (track && !handler_registered) handler_registered = !atexit(datfile_remove_pending);
    for (int i = 0; i < DATFILE_MAX_OPEN; i++) {
        if (track && !p[i][0]) {
            snprintf(p[i], sizeof p[i], "%s", tmp);
            return;
        }
        if (!track && !strcmp(p[i], tmp)) {
            p[i][0] = '\0';
            return;
        }
    }
    if (track) DIE("more than %d data files open at once", DATFILE_MAX_OPEN);
}

/* mkdir -p for the directory part of a path. */
static inline void datfile_mkdirs(const char *dir)
{
    char buf[1024];
    if (!dir[0]) return;
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) DIE_USAGE("directory name too long: %.60s...", dir);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) && errno != EEXIST) DIE_USAGE("cannot write --out: cannot create directory %s: %s", buf, strerror(errno));
            *p = '/';
        }
    if (mkdir(buf, 0777) && errno != EEXIST) DIE_USAGE("cannot write --out: cannot create directory %s: %s", buf, strerror(errno));
}

static inline void datfile_meta(datfile *d, const char *key, const char *fmt, ...)
{
    va_list ap;
    fprintf(d->f, "# %s: ", key);
    va_start(ap, fmt);
    vfprintf(d->f, fmt, ap);
    va_end(ap);
    fputc('\n', d->f);
}

/* Whether <dir>/<name> may be (re)written: 0 when it does not exist or is a regular file this
 * process may write; else 2 and the one-line reason in msg.  An existing output that is a
 * directory, read-only or immutable is bad input (exit 2) found before any work, not a failed
 * rename (exit 1) after it.  datfile_open calls it; an MPI program's rank 0 calls it first and
 * passes the verdict to dist_agree, so that every rank exits 2. */
static inline int datfile_check_target(const char *dir, const char *name, char *msg, size_t size)
{
    char path[1100];
    struct stat s;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (stat(path, &s)) return 0;
    if (!S_ISREG(s.st_mode)) snprintf(msg, size, "cannot write %s: it exists and is not a regular file", path);
    else if (access(path, W_OK)) snprintf(msg, size, "cannot write %s: %s (an existing output is replaced only when writable)",
                                          path, strerror(errno));
    else return 0;
    return 2;
}

static inline void datfile_open(datfile *d, const char *dir, const char *name, const dat_meta *m)
{
    datfile_mkdirs(dir);
    if (snprintf(d->path, sizeof d->path, "%s/%s", dir, name) >= (int)sizeof d->path)
        DIE_USAGE("output path too long: %.60s...", dir);
    char why[1200];
    if (datfile_check_target(dir, name, why, sizeof why)) DIE_USAGE("%s", why);
    snprintf(d->tmp, sizeof d->tmp, "%s.tmp", d->path);
    struct stat st; /* a leftover .tmp is replaced only when it is a plain file (fileio_check_out) */
    if (lstat(d->tmp, &st) == 0 && !S_ISREG(st.st_mode))
        DIE_USAGE("cannot write %s: %s exists and is not a regular file (remove it)", d->path, d->tmp);
    datfile_track(d->tmp, 1); /* before the file exists: a refusal here (too many open) leaves none */
    d->f = fopen(d->tmp, "w");
    if (!d->f) {
        datfile_track(d->tmp, 0); /* not ours: never removed at exit */
        DIE_USAGE("cannot write %s: %s", d->tmp, strerror(errno));
    }
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    datfile_meta(d, "program", "%s", m->program);
    datfile_meta(d, "figure", "%s", m->figure);
    datfile_meta(d, "cmdline", "%s", m->cmdline);
    datfile_meta(d, "git", "%s", COMMON_GIT_REV);
    datfile_meta(d, "date", "%s", date);
    datfile_meta(d, "gpu", "%s", m->gpu ? m->gpu : "none");
    char host[256];
    host_describe(host, sizeof host);
    datfile_meta(d, "host", "%s", host);
    datfile_meta(d, "flags", "%s", COMMON_BUILD_FLAGS);
    datfile_meta(d, "timing", "warmup=%d reps=%d batch=%s", m->warmup, m->reps,
                 m->batch ? "fixed (see --batch)" : "auto (batch column)");
    datfile_meta(d, "quick", "%d", m->quick);
}

/* The single header row: column names separated by spaces. */
static inline void datfile_columns(datfile *d, const char *names)
{
    fprintf(d->f, "%s\n", names);
}

static inline void datfile_row(datfile *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(d->f, fmt, ap);
    va_end(ap);
    fputc('\n', d->f);
    fflush(d->f);
}

/* Finish: flush, close, and atomically move <path>.tmp onto <path>. */
static inline void datfile_commit(datfile *d)
{
    int bad = ferror(d->f);
    if (fclose(d->f) || bad) DIE("write error on %s", d->tmp);
    d->f = NULL;
    if (rename(d->tmp, d->path)) DIE("cannot rename %s to %s: %s", d->tmp, d->path, strerror(errno));
    datfile_track(d->tmp, 0);
    fprintf(stderr, "wrote %s\n", d->path);
}

/* Give up: close and delete the temporary file; <path> is left as it was. */
static inline void datfile_discard(datfile *d)
{
    if (d->f) fclose(d->f);
    d->f = NULL;
    remove(d->tmp);
    datfile_track(d->tmp, 0);
}

#endif
