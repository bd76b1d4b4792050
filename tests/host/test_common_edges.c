/* test_common_edges.c -- common/ at its counters and limits, each on both sides.
 *
 *  - verify.h: the returned count is exact for 0, 1, 5, 6 and many bad elements (it must not
 *    stop at the reporting cap VERIFY_SHOW = 5), and exactly min(count, 5) elements are printed,
 *    then one summary line; a value exactly at the tolerance passes, the next double does not;
 *  - args.h: every bound of an integer, long and double option accepted at the bound and
 *    refused one step past it (exit 2); an abbreviated or extended option name is unknown;
 *    --reps: -1 (the default) and 1 accepted, 0 refused;
 *  - datfile.h: DATFILE_MAX_OPEN (32) data files open at once work, the 33rd is refused
 *    (exit 1) -- never silently untracked;
 *  - fileio.h: a line of size - 1 bytes fits the buffer, size bytes do not; empty lines and a
 *    lone "\r" read from a buffer of exactly the given size (asan). */
#include <sys/wait.h>
#include <unistd.h>
#include "../../common/testlib.h"
#include "../../common/verify.h"
#include "../../common/datfile.h"
#include "../../common/fileio.h"

/* ---- stderr captured into a file, to count what the verifiers print ---- */
typedef struct {
    int saved;
    FILE *f;
} capture;
static void cap_start(capture *c)
{
    fflush(stderr);
    c->f = tmpfile();
    c->saved = dup(2);
    dup2(fileno(c->f), 2);
}
/* stops capturing; returns the number of lines containing `needle`, *lines = all lines */
static int cap_stop(capture *c, const char *needle, int *lines)
{
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    rewind(c->f);
    char buf[512];
    int hits = 0;
    *lines = 0;
    while (fgets(buf, sizeof buf, c->f)) {
        (*lines)++;
        hits += strstr(buf, needle) != NULL;
    }
    fclose(c->f);
    return hits;
}

/* stops capturing a verifier that returned r for k bad elements: the count is exact (not
 * capped), exactly min(k, VERIFY_SHOW) lines contain `needle`, plus one summary line */
static void cap_check_report(capture *c, size_t r, int k, const char *needle)
{
    int lines, shown = cap_stop(c, needle, &lines);
    T_EQ_INT(r, k);
    T_EQ_INT(shown, k < VERIFY_SHOW ? k : VERIFY_SHOW);
    T_EQ_INT(lines, shown + (k > 0)); /* plus the summary line */
}

static void test_verify(void)
{
    static const int counts[] = {0, 1, 4, 5, 6, 7, 20, 100};
    for (size_t t = 0; t < sizeof counts / sizeof *counts; t++) {
        int k = counts[t], n = 100, lines;
        unsigned char poison = 0xAB, *buf = malloc(n);
        int *got = malloc(sizeof(int) * n), *ref = malloc(sizeof(int) * n);
        double *gd = malloc(sizeof(double) * n), *rd = malloc(sizeof(double) * n);
        float *gf = malloc(sizeof(float) * n), *rf = malloc(sizeof(float) * n);
        for (int i = 0; i < n; i++) {
            int bad = (i * 37) % n < k; /* k bad elements spread over the array */
            buf[i] = bad ? poison : (unsigned char)i;
            ref[i] = i, got[i] = bad ? -i - 1 : i;
            rd[i] = i, gd[i] = bad ? i + 0.5 : i;
            rf[i] = (float)i, gf[i] = bad ? (float)i + 0.5f : (float)i;
        }
        char want[64];
        capture c;
        cap_start(&c);
        size_t r = verify_unwritten(buf, n, 1, &poison, "buf");
        cap_check_report(&c, r, k, "never written (still the poison value)");
        snprintf(want, sizeof want, "verify: buf: %d of %d elements never written", k, n);
        cap_start(&c);
        verify_unwritten(buf, n, 1, &poison, "buf");
        T_EQ_INT(cap_stop(&c, want, &lines), k > 0);

        cap_start(&c);
        r = verify_exact(got, ref, n, sizeof *got, "x");
        cap_check_report(&c, r, k, "expected");
        cap_start(&c);
        r = verify_close_f64(gd, rd, n, 0, 0.25, "d");
        cap_check_report(&c, r, k, "expected");
        cap_start(&c);
        r = verify_close_f32(gf, rf, n, 0, 0.25, "f");
        cap_check_report(&c, r, k, "expected");
        free(buf); free(got); free(ref); free(gd); free(rd); free(gf); free(rf);
    }
    /* exactly at the tolerance passes, one double more does not */
    double r1 = 1.0, g1 = 1.25, g2 = nextafter(1.25, 2.0), g3 = 0.75;
    T_EQ_INT(verify_close_f64(&g1, &r1, 1, 0, 0.25, "tol"), 0);
    T_EQ_INT(verify_close_f64(&g3, &r1, 1, 0, 0.25, "tol"), 0);
    capture c;
    int lines;
    cap_start(&c);
    T_EQ_INT(verify_close_f64(&g2, &r1, 1, 0, 0.25, "tol"), 1);
    cap_stop(&c, "", &lines);
    double r4 = 4.0, g5 = 5.0, g5b = nextafter(5.0, 6.0);
    T_EQ_INT(verify_close_f64(&g5, &r4, 1, 0.25, 0, "rtol"), 0); /* |5 - 4| = 0.25 * 4 */
    cap_start(&c);
    T_EQ_INT(verify_close_f64(&g5b, &r4, 1, 0.25, 0, "rtol"), 1);
    cap_stop(&c, "", &lines);
    float rf = 1.0f, gf = 1.5f;
    T_EQ_INT(verify_close_f32(&gf, &rf, 1, 0, 0.5, "f"), 0);
}

/* ---- args: each parse in a child (args_parse exits); its exit status, 42 if it returned ---- */
static int parse(const char *a1, const char *a2)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr) || !freopen("/dev/null", "w", stdout)) _exit(3);
        int n = 16;
        long long big = 5;
        double x = 0.5;
        const char *name = "none";
        common_opts c = common_opts_default();
        c.out = "/tmp";
        arg_opt opts[] = {
            COMMON_ARGS(c),
            {"n", ARG_INT, &n, "size", 1, 1000, NULL},
            {"big", ARG_LONG, &big, "big size", 0, 1e15, NULL},
            {"x", ARG_DOUBLE, &x, "a real", 0, 1, NULL},
            {"name", ARG_STR, &name, "a name", 0, 0, NULL},
            {"nb", ARG_INT, &n, "another size", -5, 5, NULL},
        };
        char *argv[4] = {(char *)"prog", (char *)a1, (char *)a2, NULL};
        args_parse(a2 ? 3 : 2, argv, opts, ARGS_COUNT(opts), "prog [options]", "test");
        common_opts_finish(&c);
        _exit(42);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_args(void)
{
    static const struct { const char *arg; int rc; } cases[] = {
        {"--n=1", 42}, {"--n=0", 2}, {"--n=1000", 42}, {"--n=1001", 2},
        {"--nb=-5", 42}, {"--nb=-6", 2}, {"--nb=5", 42}, {"--nb=6", 2},
        {"--big=0", 42}, {"--big=-1", 2}, {"--big=1000000000000000", 42}, {"--big=1000000000000001", 2},
        {"--x=0", 42}, {"--x=1", 42}, {"--x=-1e-300", 2}, {"--x=1.0000000001", 2}, {"--x=0.9999999999", 42},
        {"--name=abc", 42}, {"--nam=abc", 2}, {"--na=abc", 2}, {"--names=abc", 2}, {"--n", 2},
        {"--reps=1", 42}, {"--reps=-1", 42}, {"--reps=0", 2}, {"--reps=-2", 2},
        {"--device=63", 42}, {"--device=64", 2}, {"--warmup=1000", 42}, {"--warmup=1001", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int rc = parse(cases[i].arg, NULL);
        if (rc != cases[i].rc) fprintf(stderr, "  %s: exit %d, want %d\n", cases[i].arg, rc, cases[i].rc);
        T_EQ_INT(rc, cases[i].rc);
    }
    T_EQ_INT(parse("--n=5", "--nb=0"), 42);
}

/* ---- datfile: 32 open at once, the 33rd refused ---- */
static void test_datfile_limit(void)
{
    char dir[] = "/tmp/test_common_edges_XXXXXX";
    T_CHECK(mkdtemp(dir) != NULL);
    common_opts c = common_opts_default();
    c.warmup = 1, c.reps = 1;
    char *argv[] = {(char *)"prog"};
    dat_meta m = dat_meta_of("prog", "none", 1, argv, "none (host test)", &c);
    for (int extra = 0; extra <= 1; extra++) {
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            if (!freopen("/dev/null", "w", stderr)) _exit(3);
            static datfile d[DATFILE_MAX_OPEN + 1];
            char name[64];
            for (int i = 0; i < DATFILE_MAX_OPEN + extra; i++) {
                snprintf(name, sizeof name, "f%02d.dat", i);
                datfile_open(&d[i], dir, name, &m);
            }
            for (int i = 0; i < DATFILE_MAX_OPEN + extra; i++) datfile_discard(&d[i]);
            _exit(42);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        T_EQ_INT(WIFEXITED(st) ? WEXITSTATUS(st) : -1, extra ? 1 : 42);
        /* nothing is left behind either way (discarded, or removed at exit) */
        char p[128];
        int left = 0;
        for (int i = 0; i <= DATFILE_MAX_OPEN; i++) {
            snprintf(p, sizeof p, "%s/f%02d.dat.tmp", dir, i);
            left += access(p, F_OK) == 0;
            remove(p);
        }
        T_EQ_INT(left, 0);
    }
    rmdir(dir);
}

/* ---- fileio_read_line: the buffer's size on both sides, empty lines from an exact buffer ---- */
static int read_all(const char *path, size_t size)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr)) _exit(3);
        FILE *f = fopen(path, "r");
        char *buf = malloc(size);
        long long ln = 0;
        while (fileio_read_line(f, buf, size, &ln, path)) {}
        free(buf);
        fclose(f);
        _exit(42);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_read_line(void)
{
    char path[] = "/tmp/test_common_edges_lineXXXXXX";
    int fd = mkstemp(path);
    FILE *w = fdopen(fd, "w");
    fputs("\n\r\n1234567\n\n", w); /* empty, lone CR, 7 bytes, empty */
    fclose(w);
    T_EQ_INT(read_all(path, 8), 42);
    T_EQ_INT(read_all(path, 7), 2);
    FILE *f = fopen(path, "r");
    char *buf = malloc(8); /* exactly 8: buf[-1] or buf[8] would be an asan report */
    long long ln = 0;
    T_CHECK(fileio_read_line(f, buf, 8, &ln, path) && buf[0] == '\0' && ln == 1);
    T_CHECK(fileio_read_line(f, buf, 8, &ln, path) && buf[0] == '\0' && ln == 2);
    T_CHECK(fileio_read_line(f, buf, 8, &ln, path) && !strcmp(buf, "1234567") && ln == 3);
    T_CHECK(fileio_read_line(f, buf, 8, &ln, path) && buf[0] == '\0' && ln == 4);
    T_CHECK(fileio_read_line(f, buf, 8, &ln, path) == NULL && ln == 4);
    fclose(f);
    free(buf);
    remove(path);
}

int main(void)
{
    test_verify();
    test_args();
    test_datfile_limit();
    test_read_line();
    return T_DONE();
}
