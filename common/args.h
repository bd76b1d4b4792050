/* args.h -- a declared option table: `--name=value`, `--flag`, `--help`.
 *
 * Each program declares its options once, as an array of arg_opt; args_parse() fills the
 * variables, checks ranges and choice lists, and prints `--help` (with the defaults, i.e.
 * the values the variables hold before parsing).  Anything it does not understand
 * (unknown option, missing or malformed value, value out of range, a positional argument)
 * is a usage error: ONE line naming the problem and pointing to `--help`, exit 2.
 * The rule, the same for every program: integer bounds are printed as integers; every
 * constraint that --help states is checked here or in the program (never silently clamped);
 * the same fault gives the same exit code everywhere (bad option, bad input file, an --out
 * that cannot be written: 2).
 *
 *   int n = 1024; const char *map = "lambda-exact"; common_opts c = common_opts_default();
 *   arg_opt opts[] = {
 *       COMMON_ARGS(c),
 *       {"n", ARG_LONG, &n, "matrix side", 1, 1 << 20, NULL},
 *       {"map", ARG_CHOICE, &map, "thread map", 0, 0, "bb rb rec lambda-exact"},
 *   };
 *   args_parse(argc, argv, opts, ARGS_COUNT(opts), "simplex2d [options]", "what it does");
 *   common_opts_finish(&c);
 *
 * Types of dst: ARG_INT int*, ARG_LONG long long*, ARG_DOUBLE double*, ARG_STR and
 * ARG_CHOICE const char**, ARG_FLAG int* (--x sets 1, --x=0 / --x=1 also accepted).
 * lo/hi bound ARG_INT/ARG_LONG/ARG_DOUBLE values inclusively; lo > hi means no bound.
 * For ARG_INT/ARG_LONG, choices = ARG_POW2 also requires a power of two (0 passes when the
 * range allows it, as "the default"); --help then says so. */
#ifndef COMMON_ARGS_H
#define COMMON_ARGS_H

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef enum { ARG_INT, ARG_LONG, ARG_DOUBLE, ARG_STR, ARG_CHOICE, ARG_FLAG } arg_kind;

typedef struct {
    const char *name;    /* without the leading "--" */
    arg_kind kind;
    void *dst;
    const char *help;
    double lo, hi;       /* inclusive range for numbers; lo > hi: unbounded */
    const char *choices; /* ARG_CHOICE: space-separated accepted words */
} arg_opt;

#define ARGS_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define ARG_POW2 "pow2" /* in the choices field of an ARG_INT/ARG_LONG: a power of two */

/* The options every main program shares (common/README.md, "The program contract"). warmup/reps of -1
 * mean "the default": 3 and 10, or 1 and 3 with --quick (common/README.md, "Timing"). */
typedef struct {
    int device, warmup, reps, batch, quick, help;
    long long seed;
    const char *out;
} common_opts;

static inline common_opts common_opts_default(void)
{
    common_opts c = {0, -1, -1, 0, 0, 0, 12345, "results"};
    return c;
}

#define COMMON_ARGS(c)                                                                    \
    {"device", ARG_INT, &(c).device, "CUDA device index", 0, 63, NULL},                   \
    {"warmup", ARG_INT, &(c).warmup, "untimed warm-up runs (-1: 3, QUICK 1)", -1, 1000, NULL}, \
    {"reps", ARG_INT, &(c).reps, "timed samples >= 1, median reported (-1: 10, QUICK 3)", -1, 10000, NULL}, \
    {"batch", ARG_INT, &(c).batch, "launches per sample (0: auto, >= ~1 ms per sample)", 0, 100000, NULL}, \
    {"quick", ARG_FLAG, &(c).quick, "small sweep, few reps (make QUICK=1)", 0, 0, NULL},  \
    {"seed", ARG_LONG, &(c).seed, "seed of the input generator", 0, 9.0e18, NULL},        \
    {"out", ARG_STR, &(c).out, "directory for .dat files", 0, 0, NULL}

/* The --out directory (created later by datfile_open) is refused now, exit 2, when a part of
 * it exists and is not a directory, or the deepest existing directory is not writable. */
static inline void args_check_out_dir(const char *dir)
{
    char p[4096];
    if (!dir || !*dir || snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) {
        fprintf(stderr, "error: cannot write --out=%s: empty or too long a path\n", dir ? dir : "");
        exit(2);
    }
    struct stat st;
    size_t len = strlen(p);
    while (len > 1 && p[len - 1] == '/') p[--len] = '\0'; /* "res/" -> "res" */
    int found;
    while (!(found = !stat(p, &st)) && strcmp(p, ".") && strcmp(p, "/")) { /* the deepest existing ancestor */
        char *slash = strrchr(p, '/');
        if (!slash) snprintf(p, sizeof p, ".");
        else if (slash == p) p[1] = '\0';
        else *slash = '\0';
    }
    const char *why = !found ? "cannot be resolved" : !S_ISDIR(st.st_mode) ? "is not a directory"
                    : access(p, W_OK | X_OK) ? "is not writable" : NULL;
    if (why) {
        fprintf(stderr, "error: cannot write --out=%s: %s %s\n", dir, p, why);
        exit(2);
    }
}

static inline void common_opts_finish(common_opts *c)
{
    if (c->reps == 0) {
        fprintf(stderr, "error: --reps=0: at least one timed sample is needed (-1: the default)\n");
        exit(2);
    }
    args_check_out_dir(c->out);
    if (c->warmup < 0) c->warmup = c->quick ? 1 : 3;
    if (c->reps < 0) c->reps = c->quick ? 3 : 10;
}

/* Is word one of the space-separated words of list? */
static inline int args_in_list(const char *word, const char *list)
{
    size_t len = strlen(word);
    const char *p = list;
    while (*p) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if ((size_t)(e - p) == len && len > 0 && strncmp(p, word, len) == 0) return 1;
        p = e;
    }
    return 0;
}

static inline int args_is_integer(const arg_opt *o) { return o->kind == ARG_INT || o->kind == ARG_LONG; }

static inline int args_pow2(const arg_opt *o)
{
    return args_is_integer(o) && o->choices && !strcmp(o->choices, ARG_POW2);
}

static inline void args_format_value(const arg_opt *o, char *buf, size_t size)
{
    switch (o->kind) {
    case ARG_INT: snprintf(buf, size, "%d", *(int *)o->dst); break;
    case ARG_LONG: snprintf(buf, size, "%lld", *(long long *)o->dst); break;
    case ARG_DOUBLE: snprintf(buf, size, "%g", *(double *)o->dst); break;
    case ARG_FLAG: snprintf(buf, size, "%s", *(int *)o->dst ? "on" : "off"); break;
    default: snprintf(buf, size, "%s", *(const char **)o->dst ? *(const char **)o->dst : ""); break;
    }
}

static inline void args_help(const arg_opt *opts, int n, const char *usage, const char *about)
{
    printf("usage: %s\n%s\n\noptions (default in brackets):\n", usage, about ? about : "");
    for (int i = 0; i < n; i++) {
        char def[128], name[64];
        args_format_value(&opts[i], def, sizeof def);
        snprintf(name, sizeof name, "--%s%s", opts[i].name, opts[i].kind == ARG_FLAG ? "" : "=V");
        printf("  %-20s %s%s [%s]\n", name, opts[i].help, args_pow2(&opts[i]) && !strstr(opts[i].help, "power") ? " (a power of two)" : "", def);
        if (opts[i].kind == ARG_CHOICE) printf("  %-20s   one of: %s\n", "", opts[i].choices);
    }
}

/* ONE line: the problem, then where the options are listed (the usage's first word). */
static inline void args_fail(const char *usage, const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "error: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (see '%.*s --help')\n", (int)strcspn(usage, " "), usage);
    exit(2);
}

/* Parses one value into o->dst; returns 0 on success. */
static inline int args_set(const arg_opt *o, const char *v)
{
    char *end = NULL;
    errno = 0;
    switch (o->kind) {
    case ARG_INT:
    case ARG_LONG: {
        long long x = strtoll(v, &end, 10); /* decimal only: "010" is 10, not 8 */
        if (errno || end == v || *end) return -1;
        if (o->lo <= o->hi && ((double)x < o->lo || (double)x > o->hi)) return -2;
        if (args_pow2(o) && x != 0 && (x < 0 || (x & (x - 1)))) return -4;
        if (o->kind == ARG_INT) *(int *)o->dst = (int)x;
        else *(long long *)o->dst = x;
        return 0;
    }
    case ARG_DOUBLE: {
        double x = strtod(v, &end);
        if (errno || end == v || *end || !isfinite(x)) return -1;
        if (o->lo <= o->hi && (x < o->lo || x > o->hi)) return -2;
        *(double *)o->dst = x;
        return 0;
    }
    case ARG_FLAG:
        if (!strcmp(v, "1") || !strcmp(v, "on") || !strcmp(v, "yes")) *(int *)o->dst = 1;
        else if (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no")) *(int *)o->dst = 0;
        else return -1;
        return 0;
    case ARG_CHOICE:
        if (!args_in_list(v, o->choices)) return -3;
        *(const char **)o->dst = v;
        return 0;
    default:
        if (!*v) return -1;
        *(const char **)o->dst = v;
        return 0;
    }
}

static inline void args_parse(int argc, char **argv, const arg_opt *opts, int n,
                              const char *usage, const char *about)
{
    /* --help anywhere wins, and prints the defaults (nothing has been parsed yet). */
    for (int a = 1; a < argc; a++)
        if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
            args_help(opts, n, usage, about);
            exit(0);
        }
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (strncmp(arg, "--", 2) != 0) args_fail(usage, "unexpected argument '%s'%s", arg, "");
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const arg_opt *o = NULL;
        for (int i = 0; i < n; i++)
            if (strlen(opts[i].name) == len && !strncmp(opts[i].name, name, len)) o = &opts[i];
        if (!o) args_fail(usage, "unknown option '%s'%s", arg, "");
        if (!eq) {
            if (o->kind != ARG_FLAG) args_fail(usage, "option '%s' needs a value (--%s=V)", arg, o->name);
            *(int *)o->dst = 1;
            continue;
        }
        int r = args_set(o, eq + 1);
        if (r == -2) {
            char range[96];
            if (args_is_integer(o)) snprintf(range, sizeof range, "[%.0f, %.0f]", o->lo, o->hi);
            else snprintf(range, sizeof range, "[%g, %g]", o->lo, o->hi);
            args_fail(usage, "value of '%s' out of range %s", arg, range);
        }
        if (r == -3) args_fail(usage, "'%s': choose one of: %s", arg, o->choices);
        if (r == -4) args_fail(usage, "value of '%s' is not a power of two%s", arg, "");
        if (r) args_fail(usage, "malformed value in '%s'%s", arg, "");
    }
}

/* The command line as one string, for the `# cmdline:` metadata line. */
static inline void args_cmdline(int argc, char **argv, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int a = 0; a < argc && used + 1 < size; a++) {
        int w = snprintf(buf + used, size - used, "%s%s", a ? " " : "", argv[a]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

#endif
