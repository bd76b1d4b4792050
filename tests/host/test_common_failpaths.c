/* test_common_failpaths.c -- common/ on the paths a normal run never takes, each checked by
 * its outcome (exit code, the files left behind, the message), every limit on both sides:
 *
 *  - datfile_commit: a write error that surfaces only at fclose (the metadata still buffered
 *    when the file-size limit, RLIMIT_FSIZE, is hit) and one that surfaced at a row's fflush
 *    (ferror set): exit 1, no data file, no temp file;
 *  - the 32 slots of datfile.h: every commit and discard frees its own slot (96 files opened
 *    and committed one after another, then 96 discarded, all succeed); a slot freed by commit
 *    is the committed file's, not another one's (the other temp file is still removed at exit);
 *    a temp file that could not be opened (its name is a directory) is never removed at exit;
 *  - path limits: datfile_open's "dir/name" of 1023 characters is written, 1024 refused
 *    (exit 2); datfile_mkdirs at 1023 and 1024; --out (args_check_out_dir) at 4095 and 4096;
 *  - bench.h: the auto batch at its clamps (1 ms, 1/4096 ms, 1/8192 ms, 0, < 0), the spread
 *    warning exactly at 10 % and one double past it, the number of calls bench_host makes,
 *    the median and the n - 1 standard deviation of two samples;
 *  - runcase.h: poison before the run, check after it; a failed check (3 wrong elements, or
 *    a single one) exits 1 with the count and times nothing; run_case_try returns the count; a spread above 10 % writes a
 *    `# warning:` line into the data file;
 *  - experiment.h: list (exit 0, every name), the first and the last entry, a prefix, an
 *    unknown, an empty and a missing name (exit 2, every name in one line);
 *  - verify.h: the values it prints for 1-, 2-, 8-byte and other elements (signed);
 *  - args.h: the --help text (defaults, the power-of-two note, choices), the one-line error
 *    with the program's name, flag spellings, the command line cut at its buffer;
 *  - check.h: DIE and DIE_USAGE print exactly "error: <message>" and one newline, exit 1 and 2;
 *  - host.h: host_triad_gbs refuses no elements or no timed pass (exit 2) and checks a small
 *    triad; host_describe is one line naming the logical CPUs and OpenMP threads;
 *  - a leftover .dat.tmp: replaced when a plain file, refused (exit 2) as a symbolic link (the
 *    file it points to keeps its bytes), a FIFO (no hang) or a directory; an output .dat that
 *    is a symbolic link to a writable file is accepted and replaced by a plain file (the
 *    file it pointed to keeps its bytes). */
#include <sys/stat.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../../common/testlib.h"
#include "child.h"
#include "../../common/bench.h"
#include "../../common/datfile.h"
#include "../../common/experiment.h"
#include "../../common/runcase.h"
#include "../../common/verify.h"

static char g_dir[] = "/tmp/test_common_failpaths_XXXXXX";
static dat_meta g_meta;

static int exists(const char *p) { return access(p, F_OK) == 0; }

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* stderr to /dev/null while a call prints what the test does not read (spread warnings) */
static int quiet_start(void)
{
    fflush(stderr);
    int saved = dup(2), nul = open("/dev/null", O_WRONLY);
    dup2(nul, 2);
    close(nul);
    return saved;
}
static void quiet_stop(int saved)
{
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

static void path_of(char *buf, size_t size, const char *name) { snprintf(buf, size, "%s/%s", g_dir, name); }

/* ---------------------------------------------------------------- datfile: write errors */
static void commit_fsize(const void *arg)
{
    int rows = *(const int *)arg; /* 0: the error surfaces at fclose; > 0: at a row's fflush */
    signal(SIGXFSZ, SIG_IGN);     /* a write past the limit fails with EFBIG instead */
    struct rlimit rl = {200, 200}; /* less than the metadata lines */
    if (setrlimit(RLIMIT_FSIZE, &rl)) _exit(5);
    datfile d;
    datfile_open(&d, g_dir, "fsize.dat", &g_meta);
    datfile_columns(&d, "n value");
    for (int i = 0; i < rows; i++) datfile_row(&d, "%d %d", i, i);
    datfile_commit(&d);
}

static void test_commit_errors(void)
{
    char path[512], tmp[512], log[512];
    path_of(path, sizeof path, "fsize.dat");
    path_of(tmp, sizeof tmp, "fsize.dat.tmp");
    path_of(log, sizeof log, "log.txt");
    for (int rows = 0; rows <= 1; rows++) {
        T_EQ_INT(in_child(commit_fsize, &rows, log), 1);
        T_CHECK(strstr(slurp(log), "error: write error on ") != NULL);
        T_CHECK(!exists(path)); /* never renamed onto the data file */
        T_CHECK(!exists(tmp));  /* and the temp file removed at exit */
        remove(path);
        remove(tmp);
    }
}

/* ---------------------------------------------------------------- datfile: the slots */
static void many_sequential(const void *arg)
{
    int discard = *(const int *)arg;
    char name[64];
    for (int i = 0; i < 3 * DATFILE_MAX_OPEN; i++) {
        datfile d;
        snprintf(name, sizeof name, "seq%03d.dat", i);
        datfile_open(&d, g_dir, name, &g_meta);
        datfile_columns(&d, "i");
        datfile_row(&d, "%d", i);
        if (discard) datfile_discard(&d);
        else datfile_commit(&d);
    }
    /* then all 32 at once still fit: nothing above held a slot */
    static datfile all[DATFILE_MAX_OPEN];
    for (int i = 0; i < DATFILE_MAX_OPEN; i++) {
        snprintf(name, sizeof name, "all%03d.dat", i);
        datfile_open(&all[i], g_dir, name, &g_meta);
    }
    for (int i = 0; i < DATFILE_MAX_OPEN; i++) datfile_discard(&all[i]);
}

/* open A and B, commit B, die: B stays, A's temp file is removed at exit */
static void commit_one_die(const void *arg)
{
    (void)arg;
    datfile a, b;
    datfile_open(&a, g_dir, "A.dat", &g_meta);
    datfile_open(&b, g_dir, "B.dat", &g_meta);
    datfile_columns(&b, "x");
    datfile_commit(&b);
    DIE("simulated failure with A.dat open");
}

/* the temp file's name is a directory: fopen fails, exit 2 */
static void open_fails(const void *arg)
{
    (void)arg;
    datfile d;
    datfile_open(&d, g_dir, "isdir.dat", &g_meta);
}

/* datfile_open of tmp_kind.dat, then a commit: the child returns (42) or is refused (2) */
static void open_commit(const void *arg)
{
    (void)arg;
    alarm(10); /* a write that waits on a FIFO ends the child by SIGALRM: a failure, not a hang */
    datfile d;
    datfile_open(&d, g_dir, "tmp_kind.dat", &g_meta);
    datfile_columns(&d, "x");
    datfile_row(&d, "1");
    datfile_commit(&d);
}

/* A leftover .dat.tmp: replaced when a plain file; a symbolic link (the write would truncate
 * the file it points to), a FIFO (fopen would wait forever) or a directory is refused, exit 2,
 * and the linked file keeps its bytes. */
static void test_tmp_kinds(void)
{
    char tmp[300], victim[300], got[16] = "";
    path_of(tmp, sizeof tmp, "tmp_kind.dat.tmp");
    path_of(victim, sizeof victim, "victim.txt");
    FILE *f = fopen(victim, "w");
    T_CHECK(f && fputs("keep", f) >= 0 && fclose(f) == 0);
    f = fopen(tmp, "w");
    T_CHECK(f && fclose(f) == 0);
    T_EQ_INT(in_child(open_commit, NULL, NULL), 42);
    T_CHECK(symlink(victim, tmp) == 0);
    T_EQ_INT(in_child(open_commit, NULL, NULL), 2);
    unlink(tmp);
    T_CHECK(mkfifo(tmp, 0600) == 0);
    T_EQ_INT(in_child(open_commit, NULL, NULL), 2);
    unlink(tmp);
    T_CHECK(mkdir(tmp, 0700) == 0);
    T_EQ_INT(in_child(open_commit, NULL, NULL), 2);
    rmdir(tmp);
    /* the output itself a symbolic link to a writable file (e.g. results/x.dat linked to the
     * committed results-ref/x.dat): accepted, the link replaced by the new file, its target
     * untouched */
    char out[300];
    struct stat st;
    path_of(out, sizeof out, "tmp_kind.dat");
    unlink(out);
    T_CHECK(symlink(victim, out) == 0);
    T_EQ_INT(in_child(open_commit, NULL, NULL), 42);
    T_CHECK(lstat(out, &st) == 0 && S_ISREG(st.st_mode));
    f = fopen(victim, "r");
    T_CHECK(f && fgets(got, sizeof got, f) && !strcmp(got, "keep"));
    if (f) fclose(f);
}

static void test_slots(void)
{
    char p[512];
    for (int discard = 0; discard <= 1; discard++) {
        T_EQ_INT(in_child(many_sequential, &discard, NULL), 42);
        int files = 0, tmps = 0;
        for (int i = 0; i < 3 * DATFILE_MAX_OPEN; i++) {
            snprintf(p, sizeof p, "%s/seq%03d.dat", g_dir, i);
            files += exists(p);
            remove(p);
            snprintf(p, sizeof p, "%s/seq%03d.dat.tmp", g_dir, i);
            tmps += exists(p);
            remove(p);
        }
        T_EQ_INT(files, discard ? 0 : 3 * DATFILE_MAX_OPEN);
        T_EQ_INT(tmps, 0);
    }
    T_EQ_INT(in_child(commit_one_die, NULL, NULL), 1);
    path_of(p, sizeof p, "B.dat");
    T_CHECK(exists(p));
    remove(p);
    path_of(p, sizeof p, "A.dat.tmp");
    T_CHECK(!exists(p)); /* still tracked: removed at exit */
    remove(p);
    path_of(p, sizeof p, "A.dat");
    T_CHECK(!exists(p));

    path_of(p, sizeof p, "isdir.dat.tmp");
    T_CHECK(mkdir(p, 0755) == 0);
    T_EQ_INT(in_child(open_fails, NULL, NULL), 2);
    T_CHECK(exists(p)); /* not ours: the exit handler must not remove it */
    rmdir(p);
}

/* ---------------------------------------------------------------- path lengths */
static char g_long[8192];

/* g_dir + "/d/ddd..." of exactly `len` characters (components of at most 200) */
static const char *long_dir(size_t len)
{
    size_t n = (size_t)snprintf(g_long, sizeof g_long, "%s", g_dir);
    while (n < len) {
        size_t part = len - n - 1; /* "/" + part characters */
        if (part > 200) part = 200;
        if (len - n - 1 - part == 1) part--; /* never leave a lone "/" for the last component */
        g_long[n++] = '/';
        memset(g_long + n, 'd', part);
        n += part;
    }
    g_long[n] = '\0';
    return g_long;
}

static void open_long(const void *arg)
{
    size_t total = *(const size_t *)arg; /* strlen(dir "/" name) */
    const char *dir = long_dir(900);
    char name[256];
    size_t nl = total - strlen(dir) - 1;
    memset(name, 'n', nl);
    name[nl] = '\0';
    datfile d;
    datfile_open(&d, dir, name, &g_meta);
    datfile_columns(&d, "x");
    datfile_commit(&d);
    char full[2048];
    snprintf(full, sizeof full, "%s/%s", dir, name);
    if (strlen(full) != total || !exists(full)) _exit(6); /* written where it was asked */
    remove(full);
}

static void mkdirs_long(const void *arg)
{
    size_t len = *(const size_t *)arg;
    datfile_mkdirs(long_dir(len));
    struct stat st;
    if (stat(g_long, &st) || !S_ISDIR(st.st_mode)) _exit(6);
}

static void outdir_long(const void *arg)
{
    args_check_out_dir(long_dir(*(const size_t *)arg));
}

static void outdir_str(const void *arg) { args_check_out_dir((const char *)arg); }

static void rm_tree_d(void) /* the long directories under g_dir (all named d...) */
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "find '%s' -mindepth 1 -maxdepth 1 -type d -name 'd*' -exec rm -rf {} +", g_dir);
    if (system(cmd)) {}
}

static void test_path_limits(void)
{
    size_t at = sizeof ((datfile *)0)->path - 1, past = at + 1; /* 1023, 1024 */
    T_EQ_INT(at, 1023);
    T_EQ_INT(in_child(open_long, &at, NULL), 42);
    T_EQ_INT(in_child(open_long, &past, NULL), 2);
    rm_tree_d();
    T_EQ_INT(in_child(mkdirs_long, &at, NULL), 42);
    rm_tree_d();
    T_EQ_INT(in_child(mkdirs_long, &past, NULL), 2);
    rm_tree_d();
    size_t oat = 4095, opast = 4096; /* args_check_out_dir's buffer of 4096 */
    T_EQ_INT(in_child(outdir_long, &oat, NULL), 42);
    T_EQ_INT(in_child(outdir_long, &opast, NULL), 2);
    /* a component that is a file: refused; a trailing slash: accepted */
    char p[512], q[600];
    path_of(p, sizeof p, "plainfile");
    FILE *f = fopen(p, "w");
    if (f) fclose(f);
    snprintf(q, sizeof q, "%s/sub", p);
    T_EQ_INT(in_child(outdir_str, q, NULL), 2);
    T_EQ_INT(in_child(outdir_str, p, NULL), 2);
    snprintf(q, sizeof q, "%s/new/", g_dir);
    T_EQ_INT(in_child(outdir_str, q, NULL), 42);
    T_EQ_INT(in_child(outdir_str, "", NULL), 2);
    remove(p);
}

/* ---------------------------------------------------------------- bench.h */
static int g_calls;
static void count_call(void *ctx)
{
    (void)ctx;
    g_calls++;
}

static void test_bench(void)
{
    T_EQ_INT(bench_pick_batch(1.0), 1);
    T_EQ_INT(bench_pick_batch(2.0), 1);
    T_EQ_INT(bench_pick_batch(0.5), 2);
    T_EQ_INT(bench_pick_batch(0.3), 4);              /* ceil(3.33) */
    T_EQ_INT(bench_pick_batch(1.0 / 4096), 4096);    /* exactly the clamp */
    T_EQ_INT(bench_pick_batch(1.0 / 4095), 4095);
    T_EQ_INT(bench_pick_batch(1.0 / 8192), BENCH_MAX_BATCH);
    T_EQ_INT(bench_pick_batch(0), BENCH_MAX_BATCH);
    T_EQ_INT(bench_pick_batch(-1), BENCH_MAX_BATCH);
    T_EQ_INT(BENCH_MAX_BATCH, 4096);

    bench_stats s;
    memset(&s, 0, sizeof s);
    s.median = 1.0, s.min = 0.0, s.max = BENCH_SPREAD_WARN; /* spread exactly 10 %: no warning */
    T_NEAR(bench_spread(s), 0.10, 0);
    T_EQ_INT(bench_warn_spread("x", s), 0);
    s.max = nextafter(BENCH_SPREAD_WARN, 1.0);
    int q = quiet_start();
    int warned = bench_warn_spread("x", s);
    quiet_stop(q);
    T_EQ_INT(warned, 1);
    s.median = 0, s.max = 5; /* no median: spread 0 */
    T_NEAR(bench_spread(s), 0, 0);

    double two[2] = {3, 1}; /* median (1 + 3) / 2, sd with n - 1: sqrt(2) */
    s = bench_stats_of(two, 2);
    T_NEAR(s.median, 2, 0);
    T_NEAR(s.sd, sqrt(2.0), 1e-15);
    T_NEAR(s.mean, 2, 0);
    T_EQ_INT(s.n, 2);
    T_EQ_INT(s.batch, 1);
    double six[6] = {6, 5, 4, 3, 2, 1};
    T_NEAR(bench_stats_of(six, 6).median, 3.5, 0);
    s = bench_stats_of(six, 0);
    T_EQ_INT(s.n, 0);
    T_NEAR(s.median, 0, 0);

    /* calls: warmup + reps * batch; with batch = 0 one more (the calibration run) */
    g_calls = 0;
    s = bench_host(count_call, NULL, 2, 3, 4);
    T_EQ_INT(g_calls, 2 + 3 * 4);
    T_EQ_INT(s.n, 3);
    T_EQ_INT(s.batch, 4);
    g_calls = 0;
    s = bench_host(count_call, NULL, 1, 2, 0);
    T_EQ_INT(g_calls, 1 + 1 + 2 * s.batch);
    T_CHECK(s.batch >= 1 && s.batch <= BENCH_MAX_BATCH);
    g_calls = 0;
    s = bench_host(count_call, NULL, 0, 0, 1); /* reps < 1: one sample */
    T_EQ_INT(g_calls, 1);
    T_EQ_INT(s.n, 1);
}

/* ---------------------------------------------------------------- runcase.h */
typedef struct {
    int poisoned, ran, checked, order_ok, bad, slow_call, calls;
    double slow_ms;
} rc_ctx;

static void rc_poison(void *p)
{
    rc_ctx *c = (rc_ctx *)p;
    c->poisoned++;
    if (c->ran) c->order_ok = 0; /* poisoned after the run */
}
static void rc_host(void *p)
{
    rc_ctx *c = (rc_ctx *)p;
    c->ran++;
    if (!c->poisoned) c->order_ok = 0;
    if (c->slow_ms > 0) { /* one slow call among the timed ones: a spread far above 10 % */
        double t0 = bench_now_ms(), ms = ++c->calls == c->slow_call ? 10 * c->slow_ms : c->slow_ms;
        while (bench_now_ms() - t0 < ms) {}
    }
}
static size_t rc_check(void *p)
{
    rc_ctx *c = (rc_ctx *)p;
    c->checked++;
    if (c->ran != 1) c->order_ok = 0; /* checked after exactly one run */
    return (size_t)c->bad;
}

static void rc_time_bad(const void *arg)
{
    (void)arg;
    rc_ctx c = {0, 0, 0, 1, 3, 0, 0, 0};
    run_case rc = {"bad case", &c, rc_poison, NULL, rc_host, rc_check};
    common_opts o = common_opts_default();
    o.warmup = 0, o.reps = 1, o.batch = 1;
    run_case_time(&rc, &o, NULL, NULL);
}

static void rc_time_one_bad(const void *arg) /* a single wrong element fails as surely as many */
{
    (void)arg;
    rc_ctx c = {0, 0, 0, 1, 1, 0, 0, 0};
    run_case rc = {"one bad", &c, rc_poison, NULL, rc_host, rc_check};
    common_opts o = common_opts_default();
    o.warmup = 0, o.reps = 1, o.batch = 1;
    run_case_time(&rc, &o, NULL, NULL);
}

static void rc_no_check(const void *arg)
{
    (void)arg;
    rc_ctx c = {0, 0, 0, 1, 0, 0, 0, 0};
    run_case rc = {"no check", &c, rc_poison, NULL, rc_host, NULL};
    run_case_verify(&rc, NULL);
}

static void test_runcase(void)
{
    common_opts o = common_opts_default();
    o.warmup = 1, o.reps = 2, o.batch = 3;
    rc_ctx c = {0, 0, 0, 1, 0, 0, 0, 0};
    run_case rc = {"good", &c, rc_poison, NULL, rc_host, rc_check};
    T_EQ_INT(run_case_verify(&rc, NULL), 0);
    T_EQ_INT(c.poisoned, 1);
    T_EQ_INT(c.ran, 1);
    T_EQ_INT(c.checked, 1);
    T_EQ_INT(c.order_ok, 1);
    memset(&c, 0, sizeof c);
    c.order_ok = 1;
    int q = quiet_start();
    bench_stats s = run_case_time(&rc, &o, NULL, NULL);
    quiet_stop(q);
    T_EQ_INT(c.ran, 1 + 1 + 2 * 3); /* the verified run, then warmup + reps * batch */
    T_EQ_INT(s.n, 2);
    T_EQ_INT(s.batch, 3);
    T_EQ_INT(c.order_ok, 1);
    /* try: a bad check is returned and nothing is timed */
    memset(&c, 0, sizeof c);
    c.order_ok = 1, c.bad = 7;
    bench_stats untouched;
    memset(&untouched, 0, sizeof untouched);
    untouched.n = -5;
    q = quiet_start();
    T_EQ_INT(run_case_try(&rc, &o, NULL, NULL, &untouched), 7);
    quiet_stop(q);
    T_EQ_INT(c.ran, 1);
    T_EQ_INT(untouched.n, -5);
    memset(&c, 0, sizeof c);
    c.order_ok = 1;
    q = quiet_start();
    T_EQ_INT(run_case_try(&rc, &o, NULL, NULL, &untouched), 0);
    quiet_stop(q);
    T_EQ_INT(untouched.n, 2);
    T_EQ_INT(c.ran, 1 + 1 + 2 * 3);

    char log[512];
    path_of(log, sizeof log, "rc.log");
    T_EQ_INT(in_child(rc_time_bad, NULL, log), 1);
    T_CHECK(strstr(slurp(log), "verification failed: bad case: 3 wrong") != NULL);
    T_EQ_INT(in_child(rc_no_check, NULL, NULL), 1);
    T_EQ_INT(in_child(rc_time_one_bad, NULL, log), 1);
    T_CHECK(strstr(slurp(log), "verification failed: one bad: 1 wrong") != NULL);

    /* a spread above 10 %: a `# warning:` line in the data file, naming the case */
    datfile d;
    datfile_open(&d, g_dir, "spread.dat", &g_meta);
    datfile_columns(&d, "x");
    memset(&c, 0, sizeof c);
    c.order_ok = 1, c.slow_ms = 0.2, c.slow_call = 4; /* run 1 verified, 2 warm-up, 3.. timed */
    run_case sc = {"spready", &c, rc_poison, NULL, rc_host, rc_check};
    o.warmup = 1, o.reps = 3, o.batch = 1;
    q = quiet_start();
    run_case_time(&sc, &o, NULL, &d);
    datfile_commit(&d);
    quiet_stop(q);
    char p[512];
    path_of(p, sizeof p, "spread.dat");
    T_CHECK(strstr(slurp(p), "# warning: spread ") != NULL && strstr(slurp(p), " for spready (min ") != NULL);
    remove(p);
}

/* ---------------------------------------------------------------- experiment.h */
static int e_a(void *o) { (void)o; return 11; }
static int e_b(void *o) { (void)o; return 12; }
static int e_c(void *o) { (void)o; return 13; }
static const experiment EXPS[] = {
    {.name = "fig3", .paper_item = "Fig. 3", .about = "first", .run = e_a},
    {.name = "fig3b", .paper_item = "Fig. 3b", .about = "second", .run = e_b},
    {.name = "last", .paper_item = "beyond the paper", .about = "third", .run = e_c, .host = EXP_HOST},
};

static void select_child(const void *arg)
{
    const char *name = (const char *)arg;
    const experiment *e = experiment_select(EXPS, 3, name, "prog");
    _exit(50 + e->run(NULL));
}

static void test_experiment(void)
{
    char log[512];
    path_of(log, sizeof log, "exp.log");
    T_EQ_INT(in_child(select_child, "fig3", NULL), 61);
    T_EQ_INT(in_child(select_child, "fig3b", NULL), 62);
    T_EQ_INT(in_child(select_child, "last", NULL), 63);
    T_EQ_INT(in_child(select_child, "list", log), 0);
    const char *t = slurp(log);
    T_EQ_INT(count_lines(t), 4);
    T_CHECK(strstr(t, "prog experiments (--exp=NAME):") == t);
    T_CHECK(strstr(t, "  fig3 ") && strstr(t, "  fig3b ") && strstr(t, "  last ") && strstr(t, "beyond the paper"));
    /* the one marker column, right after the name: GPU (the default) or host */
    T_CHECK(strstr(t, "  fig3b              GPU  Fig. 3b ") != NULL);
    T_CHECK(strstr(t, "  last               host beyond the paper ") != NULL);
    static const char *bad[] = {"fig", "fig3c", "LAST", "", NULL};
    for (int i = 0; i < 5; i++) {
        T_EQ_INT(in_child(select_child, bad[i], log), 2);
        t = slurp(log);
        T_EQ_INT(count_lines(t), 1);
        T_CHECK(strstr(t, "error: prog --exp=") == t);
        T_CHECK(strstr(t, " fig3 fig3b last;") != NULL);
        T_CHECK(strstr(t, bad[i] && *bad[i] ? "no such experiment" : "an experiment is required") != NULL);
    }
}

/* ---------------------------------------------------------------- verify.h's printed values */
static void verify_child(const void *arg)
{
    int which = *(const int *)arg;
    if (which == 1) {
        signed char g[2] = {1, -1}, r[2] = {1, 5};
        verify_exact(g, r, 2, 1, "c");
    } else if (which == 2) {
        short g[2] = {-3, 2}, r[2] = {7, 2};
        verify_exact(g, r, 2, 2, "s");
    } else if (which == 8) {
        long long g[1] = {-(1LL << 40)}, r[1] = {(1LL << 40) + 1};
        verify_exact(g, r, 1, 8, "l");
    } else {
        unsigned char g[3] = {1, 2, 3}, r[3] = {1, 2, 4};
        verify_exact(g, r, 1, 3, "t");
    }
}

static void test_verify_print(void)
{
    char log[512];
    path_of(log, sizeof log, "verify.log");
    int w = 1;
    in_child(verify_child, &w, log);
    T_CHECK(strstr(slurp(log), "  c[1]: got -1, expected 5\nverify: c: 1 of 2 elements differ\n") != NULL);
    w = 2;
    in_child(verify_child, &w, log);
    T_CHECK(strstr(slurp(log), "  s[0]: got -3, expected 7\nverify: s: 1 of 2 elements differ\n") != NULL);
    w = 8;
    in_child(verify_child, &w, log);
    T_CHECK(strstr(slurp(log), "  l[0]: got -1099511627776, expected 1099511627777\n") != NULL);
    w = 3;
    in_child(verify_child, &w, log);
    T_CHECK(strstr(slurp(log), "  t[0]: got <3 bytes>, expected <3 bytes>\n") != NULL);
}

/* ---------------------------------------------------------------- args.h's texts */
static void args_child(const void *arg)
{
    const char *a1 = (const char *)arg;
    int n = 16, flag = 0;
    long long p2 = 64;
    const char *map = "rb";
    double x = 0.5;
    arg_opt opts[] = {
        {"n", ARG_INT, &n, "size", 1, 1000, NULL},
        {"p2", ARG_LONG, &p2, "a size", 0, 4096, ARG_POW2},
        {"map", ARG_CHOICE, &map, "thread map", 0, 0, "bb rb lambda-exact"},
        {"x", ARG_DOUBLE, &x, "a real", 0, 1, NULL},
        {"flag", ARG_FLAG, &flag, "a flag", 0, 0, NULL},
    };
    char *argv[] = {(char *)"prog", (char *)a1, NULL};
    args_parse(2, argv, opts, ARGS_COUNT(opts), "myprog [options]", "about it");
    printf("n=%d p2=%lld map=%s x=%g flag=%d\n", n, p2, map, x, flag);
}

static void test_args_texts(void)
{
    char log[512];
    path_of(log, sizeof log, "args.log");
    T_EQ_INT(in_child(args_child, "--help", log), 0);
    const char *t = slurp(log);
    T_CHECK(strstr(t, "usage: myprog [options]\nabout it\n") == t);
    T_CHECK(strstr(t, "  --n=V                size [16]\n") != NULL);
    T_CHECK(strstr(t, "  --p2=V               a size (a power of two) [64]\n") != NULL);
    T_CHECK(strstr(t, "  --map=V              thread map [rb]\n") != NULL);
    T_CHECK(strstr(t, "one of: bb rb lambda-exact\n") != NULL);
    T_CHECK(strstr(t, "  --x=V                a real [0.5]\n") != NULL);
    T_CHECK(strstr(t, "  --flag               a flag [off]\n") != NULL);
    static const struct { const char *arg, *out; } ok[] = {
        {"--flag=yes", "flag=1"}, {"--flag=on", "flag=1"}, {"--flag=1", "flag=1"},
        {"--flag=no", "flag=0"}, {"--flag=off", "flag=0"}, {"--map=lambda-exact", "map=lambda-exact"},
        {"--map=bb", "map=bb"}, {"--p2=4096", "p2=4096"}, {"--p2=1", "p2=1"}, {"--n=010", "n=10"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        T_EQ_INT(in_child(args_child, ok[i].arg, log), 42);
        T_CHECK(strstr(slurp(log), ok[i].out) != NULL);
    }
    static const struct { const char *arg, *msg; } bad[] = {
        {"--n=1001", "error: value of '--n=1001' out of range [1, 1000] (see 'myprog --help')\n"},
        {"--x=1.5", "error: value of '--x=1.5' out of range [0, 1] (see 'myprog --help')\n"},
        {"--map=lambda", "error: '--map=lambda': choose one of: bb rb lambda-exact (see 'myprog --help')\n"},
        {"--p2=96", "error: value of '--p2=96' is not a power of two (see 'myprog --help')\n"},
        {"--p2=8192", "out of range [0, 4096]"},
        {"--nope", "error: unknown option '--nope' (see 'myprog --help')\n"},
        {"--n", "error: option '--n' needs a value (--n=V) (see 'myprog --help')\n"},
        {"stray", "error: unexpected argument 'stray' (see 'myprog --help')\n"},
        {"--flag=2", "error: malformed value in '--flag=2' (see 'myprog --help')\n"},
        {"--x=inf", "malformed value"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        T_EQ_INT(in_child(args_child, bad[i].arg, log), 2);
        t = slurp(log);
        T_EQ_INT(count_lines(t), 1);
        if (!strstr(t, bad[i].msg)) fprintf(stderr, "  %s: got '%s'\n", bad[i].arg, t);
        T_CHECK(strstr(t, bad[i].msg) != NULL);
    }
    /* the command line, cut at its buffer */
    char *argv[] = {(char *)"prog", (char *)"--n=999", (char *)"--x=1"};
    char buf[32];
    args_cmdline(3, argv, buf, 13);
    T_CHECK(!strcmp(buf, "prog --n=999"));
    args_cmdline(3, argv, buf, 12);
    T_CHECK(!strcmp(buf, "prog --n=99"));
    args_cmdline(3, argv, buf, sizeof buf);
    T_CHECK(!strcmp(buf, "prog --n=999 --x=1"));
    args_cmdline(0, argv, buf, sizeof buf);
    T_CHECK(!strcmp(buf, ""));
}

/* ---------------------------------------------------------------- check.h */
static void die_child(const void *arg)
{
    if (*(const int *)arg == 2) DIE_USAGE("bad value %d for --%s", 7, "n");
    DIE("cannot open %s", "x.dat");
}

static void test_check_die(void)
{
    /* DIE: exactly "error: <message>" and ONE newline on stderr, exit 1; DIE_USAGE: the same,
     * exit 2 (a caller's `one line` test, and a log read line by line, rely on the newline) */
    char log[512];
    path_of(log, sizeof log, "die.log");
    const int one = 1, two = 2;
    T_EQ_INT(in_child(die_child, &one, log), 1);
    T_CHECK(!strcmp(slurp(log), "error: cannot open x.dat\n"));
    T_EQ_INT(in_child(die_child, &two, log), 2);
    T_CHECK(!strcmp(slurp(log), "error: bad value 7 for --n\n"));
}

/* ---------------------------------------------------------------- host.h */
static void triad_args(const void *arg)
{
    const int *v = (const int *)arg; /* n, reps */
    host_triad_gbs((size_t)v[0], 1, v[1]);
}

static void test_host(void)
{
    /* a triad needs elements and at least one timed pass: else a usage error (exit 2), never
     * a bandwidth from no measurement (best stays 1e30 s: ~0 GB/s) */
    const int zero_reps[2] = {1024, 0}, neg_reps[2] = {1024, -1}, zero_n[2] = {0, 3}, fine[2] = {1024, 1};
    T_EQ_INT(in_child(triad_args, zero_reps, NULL), 2);
    T_EQ_INT(in_child(triad_args, neg_reps, NULL), 2);
    T_EQ_INT(in_child(triad_args, zero_n, NULL), 2);
    T_EQ_INT(in_child(triad_args, fine, NULL), 42);
    double gbs = host_triad_gbs(1 << 16, 1, 2);
    T_CHECK(gbs > 0 && isfinite(gbs));
    /* reps = 1: exactly one timed pass after the untimed warm-up, a real bandwidth (any
     * machine moves 1.5 MiB in well under a second: > 0.001 GB/s), not the 1e30 s of none */
    gbs = host_triad_gbs(1 << 16, 1, 1);
    T_CHECK(gbs > 1e-3 && isfinite(gbs));
    /* "<model>, <n> logical CPUs, <t> OpenMP threads": one line (a `# host:` metadata line) */
    char h[256];
    host_describe(h, sizeof h);
    T_CHECK(strchr(h, '\n') == NULL);
    T_CHECK(strstr(h, " logical CPUs, ") != NULL);
    T_CHECK(strstr(h, " OpenMP threads") != NULL);
    /* the model is /proc/cpuinfo's "model name" (not the numeric "model" line above it) */
    FILE *ci = fopen("/proc/cpuinfo", "r");
    char line[512], want[160] = "unknown CPU";
    while (ci && fgets(line, sizeof line, ci))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            const char *v = strchr(line, ':') + 1;
            while (*v == ' ' || *v == '\t') v++;
            snprintf(want, sizeof want, "%s", v);
            want[strcspn(want, "\n")] = '\0';
            break;
        }
    if (ci) fclose(ci);
    T_CHECK(!strncmp(h, want, strlen(want)) && !strncmp(h + strlen(want), ", ", 2));
}

int main(void)
{
    T_CHECK(mkdtemp(g_dir) != NULL);
    common_opts c = common_opts_default();
    c.warmup = 1, c.reps = 1;
    static char *argv[] = {(char *)"prog"};
    g_meta = dat_meta_of("prog", "none", 1, argv, "none (host test)", &c);
    test_commit_errors();
    test_slots();
    test_tmp_kinds();
    test_path_limits();
    test_bench();
    test_runcase();
    test_experiment();
    test_verify_print();
    test_args_texts();
    test_check_die();
    test_host();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd)) {}
    return T_DONE();
}
