/* tests/host/child.h -- run a function in a forked child and read what it printed (the tests
 * of bad input that exits: DIE_USAGE, a failed commit, args_parse). */
#ifndef TESTS_CHILD_H
#define TESTS_CHILD_H
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* fork; the child runs fn(arg) with stdout and stderr sent to `log` (or /dev/null) and exits
 * 42 when fn returns; the parent returns the child's exit status (-1: killed by a signal) */
static int in_child(void (*fn)(const void *), const void *arg, const char *log)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        const char *to = log ? log : "/dev/null";
        if (!freopen(to, "w", stderr) || !freopen(to, "a", stdout)) _exit(3);
        setvbuf(stdout, NULL, _IONBF, 0);
        fn(arg);
        exit(42);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* the whole text of a file (static buffer; empty when it cannot be read) */
static const char *slurp(const char *path)
{
    static char buf[65536];
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return buf;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}
#endif
