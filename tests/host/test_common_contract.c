/* test_common_contract.c -- the parts of common/'s contract that the other host tests leave
 * to the normal path, each against an oracle that is not the code under test:
 *
 *  - rng.h: splitmix64's published reference outputs (Vigna's splitmix64.c, seed 1234567, the
 *    values other implementations test against) and seed 0's first output; rng_unit's 53 bits
 *    (the top 53 bits of the same word, times 2^-53: below 1, reaching past 1/2);
 *  - args.h: an empty value of a choice option is refused (exit 2), also when the list has
 *    doubled or trailing blanks, as is every word that is not in the list; `-h` prints the help as `--help` does (exit 0, the usage line);
 *  - bench.h: bench_host's samples are milliseconds per run, not per batch (a function that
 *    spins 0.2 ms, batch 8: the median stays near 0.2 ms);
 *  - datfile.h: the `# timing:` line names an automatic batch when --batch is 0 and a fixed
 *    one otherwise; datfile_check_target refuses an existing target that is a FIFO (not a
 *    regular file, not a directory) and a read-only file (as root: in a child that drops to
 *    an unprivileged user, where access(2) sees the mode bits). */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../../common/testlib.h"
#include "child.h"
#include "../../common/rng.h"
#include "../../common/bench.h"
#include "../../common/datfile.h"

static char g_dir[] = "/tmp/test_common_contract_XXXXXX";

static void test_rng(void)
{
    /* the reference sequence of splitmix64.c (Vigna), seed 1234567 */
    static const uint64_t want[5] = {6457827717110365317ull, 3203168211198807973ull, 9817491932198370423ull,
                                     4593380528125082431ull, 16408922859458223821ull};
    uint64_t s = 1234567;
    for (int i = 0; i < 5; i++) T_CHECK(rng_splitmix64(&s) == want[i]);
    T_CHECK(s == 1234567ull + 5 * 0x9E3779B97F4A7C15ull);
    s = 0;
    T_CHECK(rng_splitmix64(&s) == 16294208416658607535ull);
    /* rng_unit: the same word's top 53 bits times 2^-53 */
    s = 1234567;
    double u = rng_unit(&s);
    T_CHECK(u == (double)(want[0] >> 11) / 9007199254740992.0);
    double lo = 1, hi = 0;
    s = 42;
    for (int i = 0; i < 4096; i++) {
        double v = rng_unit(&s);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    T_CHECK(lo >= 0 && lo < 0.01);
    T_CHECK(hi < 1 && hi > 0.99);
}

/* ---- args.h in a child */
typedef struct {
    const char *argv[4];
} argset;

static void parse_args(const void *p)
{
    const argset *a = (const argset *)p;
    int argc = 0;
    while (argc < 4 && a->argv[argc]) argc++;
    const char *map = "bb", *kern = "dummy";
    int n = 16;
    arg_opt opts[] = {
        {"map", ARG_CHOICE, &map, "the map", 0, 0, "bb rb rec"},
        {"kernel", ARG_CHOICE, &kern, "the kernel", 0, 0, "dummy  write "}, /* built by concatenation */
        {"n", ARG_INT, &n, "size", 1, 100, NULL},
    };
    args_parse(argc, (char **)a->argv, opts, ARGS_COUNT(opts), "myprog [options]", "about it");
    printf("map=%s n=%d kernel=%s\n", map, n, kern);
}

static void test_args(void)
{
    char log[256];
    snprintf(log, sizeof log, "%s/args.log", g_dir);
    const char *refused[] = {"--map=", "--map= ", "--map=b", "--map=bbb", "--map=bb rb", "--map=rec "};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        argset a = {{"myprog", refused[i], NULL, NULL}};
        T_EQ_INT(in_child(parse_args, &a, log), 2);
        T_CHECK(strstr(slurp(log), "choose one of: bb rb rec") != NULL);
    }
    /* a list with doubled and trailing blanks holds no empty word */
    const char *refused_k[] = {"--kernel=", "--kernel= ", "--kernel=dummy ", "--kernel=writ"};
    for (size_t i = 0; i < sizeof refused_k / sizeof *refused_k; i++) {
        argset a = {{"myprog", refused_k[i], NULL, NULL}};
        T_EQ_INT(in_child(parse_args, &a, log), 2);
        T_CHECK(strstr(slurp(log), "choose one of: dummy  write ") != NULL);
    }
    argset okk = {{"myprog", "--kernel=write", NULL, NULL}};
    T_EQ_INT(in_child(parse_args, &okk, log), 42);
    T_CHECK(strstr(slurp(log), "kernel=write") != NULL);
    argset ok = {{"myprog", "--map=rec", NULL, NULL}};
    T_EQ_INT(in_child(parse_args, &ok, log), 42);
    T_CHECK(strstr(slurp(log), "map=rec n=16") != NULL);
    /* -h and --help: the help text, exit 0, wherever they stand */
    const char *helps[][3] = {{"-h", NULL, NULL}, {"--n=5", "-h", NULL}, {"--help", NULL, NULL}, {"--map=zz", "-h", NULL}};
    for (int i = 0; i < 4; i++) {
        argset a = {{"myprog", helps[i][0], helps[i][1], NULL}};
        T_EQ_INT(in_child(parse_args, &a, log), 0);
        T_CHECK(strstr(slurp(log), "usage: myprog [options]\nabout it\n") == slurp(log));
    }
    argset h2 = {{"myprog", "-help", NULL, NULL}}; /* not an option: a positional argument */
    T_EQ_INT(in_child(parse_args, &h2, log), 2);
}

/* ---- bench.h: milliseconds per run */
static void spin_02ms(void *ctx)
{
    int *calls = (int *)ctx;
    double t0 = bench_now_ms();
    while (bench_now_ms() - t0 < 0.2) {
    }
    ++*calls;
}

static void test_bench_per_run(void)
{
    int calls = 0;
    bench_stats s = bench_host(spin_02ms, &calls, 0, 5, 8);
    T_EQ_INT(s.batch, 8);
    T_EQ_INT(calls, 40);
    T_CHECK(s.min >= 0.2);      /* every run spins at least 0.2 ms */
    T_CHECK(s.median < 1.0);    /* per run: ~0.2 ms; per batch of 8 would be >= 1.6 ms */
}

/* ---- datfile.h */
static void test_timing_line(void)
{
    for (int batch = 0; batch <= 5; batch += 5) {
        common_opts c = common_opts_default();
        c.warmup = 2, c.reps = 7, c.batch = batch;
        char *argv[] = {(char *)"prog", NULL};
        dat_meta m = dat_meta_of("prog", "fig", 1, argv, NULL, &c);
        datfile d;
        datfile_open(&d, g_dir, "timing.dat", &m);
        datfile_columns(&d, "a");
        datfile_commit(&d);
        char path[256];
        snprintf(path, sizeof path, "%s/timing.dat", g_dir);
        const char *t = slurp(path);
        T_CHECK(strstr(t, batch ? "\n# timing: warmup=2 reps=7 batch=fixed (see --batch)\n"
                                : "\n# timing: warmup=2 reps=7 batch=auto (batch column)\n") != NULL);
        T_CHECK(strstr(t, "\n# gpu: none\n") != NULL);
    }
}

static void check_readonly(const void *p)
{
    const char *dir = (const char *)p;
    if (geteuid() == 0 && (setgid(65534) || setuid(65534))) exit(5);
    char msg[512] = "";
    int r = datfile_check_target(dir, "ro.dat", msg, sizeof msg);
    printf("r=%d %s\n", r, msg);
    exit(r == 2 && strstr(msg, "ro.dat") && strstr(msg, "only when writable") ? 0 : 1);
}

static void test_check_target(void)
{
    char path[256], msg[512];
    /* a FIFO: exists, is not a regular file */
    snprintf(path, sizeof path, "%s/fifo.dat", g_dir);
    T_CHECK(mkfifo(path, 0666) == 0);
    msg[0] = '\0';
    T_EQ_INT(datfile_check_target(g_dir, "fifo.dat", msg, sizeof msg), 2);
    T_CHECK(strstr(msg, "is not a regular file") != NULL);
    /* a directory, and a missing file and a writable one (accepted) */
    snprintf(path, sizeof path, "%s/sub.dat", g_dir);
    T_CHECK(mkdir(path, 0777) == 0);
    T_EQ_INT(datfile_check_target(g_dir, "sub.dat", msg, sizeof msg), 2);
    T_EQ_INT(datfile_check_target(g_dir, "missing.dat", msg, sizeof msg), 0);
    snprintf(path, sizeof path, "%s/rw.dat", g_dir);
    FILE *f = fopen(path, "w");
    T_CHECK(f && fclose(f) == 0);
    T_EQ_INT(datfile_check_target(g_dir, "rw.dat", msg, sizeof msg), 0);
    /* read-only: refused for a user that access(2) holds to the mode bits */
    snprintf(path, sizeof path, "%s/ro.dat", g_dir);
    f = fopen(path, "w");
    T_CHECK(f && fclose(f) == 0);
    T_CHECK(chmod(path, 0444) == 0);
    T_CHECK(chmod(g_dir, 0755) == 0);
    char log[256];
    snprintf(log, sizeof log, "%s/ro.log", g_dir);
    int rc = in_child(check_readonly, g_dir, log);
    if (rc == 5) fprintf(stderr, "note: cannot drop to an unprivileged user: the read-only case is not checked\n");
    else T_EQ_INT(rc, 0);
    T_CHECK(chmod(g_dir, 0700) == 0);
}

int main(void)
{
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_rng();
    test_args();
    test_bench_per_run();
    test_timing_line();
    test_check_target();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd)) fprintf(stderr, "note: could not remove %s\n", g_dir);
    return T_DONE();
}
