/* test_common_args.c -- common/args.h: values, ranges, choices, flags, and that every kind
 * of bad input ends in exit 2 (run in a child process, since args_parse exits). */
#include <sys/wait.h>
#include <unistd.h>
#include "../../common/testlib.h"
#include "../../common/args.h"

typedef struct {
    int n, flag;
    long long big, p2;
    double x;
    const char *map, *name;
    common_opts c;
} vals;

/* Parses argv (NULL-terminated, argv[0] included) into v; in a child when `child`,
 * returning the exit status (or -1 if args_parse returned normally). */
static int parse(vals *v, const char **argv_in, int child)
{
    int argc = 0;
    char *argv[32];
    while (argv_in[argc]) { argv[argc] = (char *)argv_in[argc]; argc++; }
    v->n = 16; v->flag = 0; v->big = 5; v->p2 = 0; v->x = 0.5; v->map = "bb"; v->name = "none";
    v->c = common_opts_default();
    arg_opt opts[] = {
        COMMON_ARGS(v->c),
        {"n", ARG_INT, &v->n, "size", 1, 1000, NULL},
        {"big", ARG_LONG, &v->big, "big size", 0, 1e15, NULL},
        {"p2", ARG_LONG, &v->p2, "a power of two", 0, 4096, ARG_POW2},
        {"x", ARG_DOUBLE, &v->x, "a real", 0, 1, NULL},
        {"map", ARG_CHOICE, &v->map, "map", 0, 0, "bb rb lambda-exact"},
        {"name", ARG_STR, &v->name, "a name", 0, 0, NULL},
        {"flag", ARG_FLAG, &v->flag, "a flag", 0, 0, NULL},
    };
    if (!child) {
        args_parse(argc, argv, opts, ARGS_COUNT(opts), "test [options]", "test");
        return -1;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr) || !freopen("/dev/null", "w", stdout)) _exit(3);
        args_parse(argc, argv, opts, ARGS_COUNT(opts), "test [options]", "test");
        _exit(42); /* parsed without exiting */
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -2;
}

int main(void)
{
    vals v;
    const char *ok[] = {"prog", "--n=999", "--big=123456789012", "--x=0.25", "--map=lambda-exact",
                        "--name=abc", "--flag", "--quick", "--reps=007", "--seed=16", NULL};
    parse(&v, ok, 0);
    T_EQ_INT(v.n, 999);
    T_EQ_INT(v.big, 123456789012LL);
    T_NEAR(v.x, 0.25, 0);
    T_CHECK(!strcmp(v.map, "lambda-exact"));
    T_CHECK(!strcmp(v.name, "abc"));
    T_EQ_INT(v.flag, 1);
    T_EQ_INT(v.c.quick, 1);
    T_EQ_INT(v.c.seed, 16);
    common_opts_finish(&v.c);
    T_EQ_INT(v.c.reps, 7);   /* explicit value kept */
    T_EQ_INT(v.c.warmup, 1); /* quick default */

    const char *defaults[] = {"prog", NULL};
    parse(&v, defaults, 0);
    common_opts_finish(&v.c);
    T_EQ_INT(v.c.warmup, 3);
    T_EQ_INT(v.c.reps, 10);
    T_EQ_INT(v.n, 16);

    /* --warmup=0 (no warm-up run) is a value of its own, kept: only -1 means the default */
    const char *nowarm[] = {"prog", "--warmup=0", NULL};
    parse(&v, nowarm, 0);
    common_opts_finish(&v.c);
    T_EQ_INT(v.c.warmup, 0);
    T_EQ_INT(v.c.reps, 10);
    const char *nowarmq[] = {"prog", "--warmup=0", "--quick", NULL};
    parse(&v, nowarmq, 0);
    common_opts_finish(&v.c);
    T_EQ_INT(v.c.warmup, 0);
    T_EQ_INT(v.c.reps, 3);

    const char *p2[] = {"prog", "--p2=256", NULL};
    parse(&v, p2, 0);
    T_EQ_INT(v.p2, 256);
    const char *p2zero[] = {"prog", "--p2=0", NULL}; /* 0 = the default, allowed by the range */
    T_EQ_INT(parse(&v, p2zero, 1), 42);

    const char *flag0[] = {"prog", "--flag=0", NULL};
    parse(&v, flag0, 0);
    T_EQ_INT(v.flag, 0);

    /* bad input: each must exit 2 */
    const char *bad[][4] = {
        {"prog", "--bogus=1", NULL},   {"prog", "--n=0", NULL},      {"prog", "--n=1001", NULL},
        {"prog", "--n=12abc", NULL},   {"prog", "--n=", NULL},       {"prog", "--n", NULL},
        {"prog", "--map=lambda", NULL}, {"prog", "--x=nan", NULL},   {"prog", "--x=2", NULL},
        {"prog", "positional", NULL},  {"prog", "--flag=maybe", NULL}, {"prog", "--name=", NULL},
        {"prog", "--big=99999999999999999999", NULL}, {"prog", "-n", "3", NULL},
        {"prog", "--n=0x10", NULL},
        {"prog", "--p2=300", NULL},     {"prog", "--p2=-4", NULL},    {"prog", "--p2=8192", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = parse(&v, bad[i], 1);
        if (rc != 2) fprintf(stderr, "  case %zu (%s) exited %d\n", i, bad[i][1], rc);
        T_EQ_INT(rc, 2);
    }
    const char *help[] = {"prog", "--n=5", "--help", NULL};
    T_EQ_INT(parse(&v, help, 1), 0);
    const char *fine[] = {"prog", "--n=1000", NULL};
    T_EQ_INT(parse(&v, fine, 1), 42);

    T_CHECK(args_in_list("rb", "bb rb rec"));
    T_CHECK(!args_in_list("r", "bb rb rec"));
    T_CHECK(!args_in_list("", "bb rb rec"));
    char buf[64];
    args_cmdline(3, (char **)ok, buf, sizeof buf);
    T_CHECK(!strcmp(buf, "prog --n=999 --big=123456789012"));
    return T_DONE();
}
