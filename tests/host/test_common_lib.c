/* test_common_lib.c -- common/bench.h statistics, common/datfile.h (temp file, rename,
 * discard, metadata and header row) and common/verify.h. */
#include <sys/wait.h>
#include <unistd.h>
#include "../../common/testlib.h"
#include "../../common/bench.h"
#include "../../common/datfile.h"
#include "../../common/verify.h"

static void busy(void *ctx)
{
    volatile double *x = (volatile double *)ctx;
    for (int i = 0; i < 20000; i++) *x += 1e-9 * i;
}

static int file_exists(const char *p) { return access(p, F_OK) == 0; }

int main(void)
{
    /* statistics: known samples */
    double s[5] = {5, 1, 4, 2, 3};
    bench_stats st = bench_stats_of(s, 5);
    T_NEAR(st.median, 3, 0);
    T_NEAR(st.min, 1, 0);
    T_NEAR(st.max, 5, 0);
    T_NEAR(st.mean, 3, 1e-12);
    T_NEAR(st.sd, sqrt(2.5), 1e-12);
    double e[4] = {4, 1, 3, 2};
    T_NEAR(bench_stats_of(e, 4).median, 2.5, 0);
    double one[1] = {7};
    st = bench_stats_of(one, 1);
    T_NEAR(st.median, 7, 0);
    T_NEAR(st.sd, 0, 0);
    double w[3] = {1.0, 1.05, 1.3};
    st = bench_stats_of(w, 3);
    T_NEAR(bench_spread(st), 0.3 / 1.05, 1e-12);
    T_EQ_INT(bench_pick_batch(0.01), 100);
    T_EQ_INT(bench_pick_batch(5.0), 1);
    T_EQ_INT(bench_pick_batch(0), BENCH_MAX_BATCH);

    /* host timer: real work takes > 0 time, stats are ordered, batch honoured */
    double acc = 0;
    st = bench_host(busy, &acc, 1, 5, 3);
    T_EQ_INT(st.n, 5);
    T_EQ_INT(st.batch, 3);
    T_CHECK(st.min > 0 && st.min <= st.median && st.median <= st.max);
    T_CHECK(acc > 0);
    st = bench_host(busy, &acc, 0, 3, 0);
    T_CHECK(st.batch >= 1 && st.batch <= BENCH_MAX_BATCH);

    /* datfile: nothing at the final path until commit; metadata, one header row, rows */
    char dir[] = "/tmp/test_common_datXXXXXX";
    T_CHECK(mkdtemp(dir) != NULL);
    char sub[128], path[256], tmp[300];
    snprintf(sub, sizeof sub, "%s/a/b", dir);
    common_opts c = common_opts_default();
    common_opts_finish(&c);
    char *argv[] = {(char *)"prog", (char *)"--n=3"};
    dat_meta m = dat_meta_of("prog", "Fig. 0", 2, argv, "none (host test)", &c);
    datfile d;
    datfile_open(&d, sub, "x.dat", &m);
    snprintf(path, sizeof path, "%s/x.dat", sub);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    datfile_columns(&d, "n median_ms");
    datfile_row(&d, "%d %.3f", 1, 0.5);
    datfile_row(&d, "%d %.3f", 2, 0.25);
    T_CHECK(!file_exists(path) && file_exists(tmp));
    datfile_commit(&d);
    T_CHECK(file_exists(path) && !file_exists(tmp));
    FILE *f = fopen(path, "r");
    char line[512];
    int meta = 0, header = 0, rows = 0, cmd = 0, gpu = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#') {
            meta++;
            cmd += strstr(line, "# cmdline: prog --n=3") == line;
            gpu += strstr(line, "# gpu: none (host test)") == line;
        } else if (!header) {
            header = 1;
            T_CHECK(!strcmp(line, "n median_ms\n"));
        } else rows++;
    }
    if (f) fclose(f);
    T_CHECK(meta >= 9);
    T_EQ_INT(cmd, 1);
    T_EQ_INT(gpu, 1);
    T_EQ_INT(rows, 2);
    /* a discarded file leaves the committed one untouched */
    datfile_open(&d, sub, "x.dat", &m);
    datfile_columns(&d, "garbage");
    datfile_discard(&d);
    T_CHECK(file_exists(path) && !file_exists(tmp));
    f = fopen(path, "r");
    int lines = 0;
    while (f && fgets(line, sizeof line, f)) lines++;
    if (f) fclose(f);
    T_EQ_INT(lines, meta + 3);
    /* a program that dies after datfile_open leaves neither the file nor its temp file */
    remove(path);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        datfile_open(&d, sub, "x.dat", &m);
        datfile_columns(&d, "n median_ms");
        datfile_row(&d, "%d %.3f", 1, 0.5);
        if (!freopen("/dev/null", "w", stderr)) _exit(3);
        DIE("simulated failure after datfile_open");
    }
    int status = 0;
    waitpid(pid, &status, 0);
    T_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    T_CHECK(!file_exists(path) && !file_exists(tmp));
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/a", dir);
    rmdir(sub);
    rmdir(dir);

    /* verify helpers: counts are exact, NaN never passes */
    int a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 2, 0, 4, 0, 6};
    T_EQ_INT(verify_exact(a, a, 6, sizeof *a, "a"), 0);
    T_EQ_INT(verify_exact(a, b, 6, sizeof *a, "a vs b"), 2);
    double x[3] = {1.0, 2.0 + 1e-10, NAN}, y[3] = {1.0, 2.0, 3.0};
    T_EQ_INT(verify_close_f64(x, y, 2, 1e-9, 0, "x"), 0);
    T_EQ_INT(verify_close_f64(x, y, 3, 1e-9, 0, "x"), 1);
    T_EQ_INT(verify_close_f64(x, y, 2, 1e-12, 0, "x"), 1);
    float fx[2] = {1.0f, 1.001f}, fy[2] = {1.0f, 1.0f};
    T_EQ_INT(verify_close_f32(fx, fy, 2, 1e-2, 0, "f"), 0);
    T_EQ_INT(verify_close_f32(fx, fy, 2, 1e-4, 0, "f"), 1);
    unsigned char poison = 0xAB, buf[4] = {0xAB, 1, 0xAB, 2};
    T_EQ_INT(verify_unwritten(buf, 4, 1, &poison, "buf"), 2);
    return T_DONE();
}
