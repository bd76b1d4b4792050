/* testlib.h -- the few assertions the tests need (tests/host, tests/gpu).
 *
 *   T_CHECK(cond)         T_EQ_INT(got, expected)      T_NEAR(got, expected, tol)
 *   T_SKIP("reason")      prints SKIP on stderr and exits 77 (tests/run.sh counts it as skipped)
 *   return T_DONE();      prints "<file>: N passed, N failed", returns 0 iff none failed
 *
 * A test that checks nothing is a defect: T_DONE() fails a test that ran zero checks.
 * The pass/fail counters live in one function-local static (t_counts), not in file-scope
 * globals; a test is one process, so that is all the state needed. */
#ifndef COMMON_TESTLIB_H
#define COMMON_TESTLIB_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define T_SHOW_FAILS 20 /* failures printed in full before they are only counted */

static inline long *t_counts(void)
{
    static long counts[2]; /* [0] passed, [1] failed */
    return counts;
}

static inline int t_record(int ok, const char *file, int line, const char *text)
{
    long *c = t_counts();
    c[ok ? 0 : 1]++;
    if (!ok && c[1] <= T_SHOW_FAILS) fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, text);
    return ok;
}

#define T_CHECK(cond) t_record(!!(cond), __FILE__, __LINE__, #cond)

#define T_EQ_INT(got, expected)                                                          \
    do {                                                                                 \
        long long t_g_ = (long long)(got), t_e_ = (long long)(expected);                 \
        if (!t_record(t_g_ == t_e_, __FILE__, __LINE__, #got " == " #expected)          \
            && t_counts()[1] <= T_SHOW_FAILS)                                            \
            fprintf(stderr, "    got %lld, expected %lld\n", t_g_, t_e_);               \
    } while (0)

#define T_NEAR(got, expected, tol)                                                       \
    do {                                                                                 \
        double t_g_ = (double)(got), t_e_ = (double)(expected);                          \
        if (!t_record(fabs(t_g_ - t_e_) <= (tol), __FILE__, __LINE__,                   \
                      #got " ~= " #expected) && t_counts()[1] <= T_SHOW_FAILS)           \
            fprintf(stderr, "    got %.10g, expected %.10g (tol %g)\n", t_g_, t_e_,     \
                    (double)(tol));                                                      \
    } while (0)

#define T_SKIP(reason)                                                                   \
    do {                                                                                 \
        fprintf(stderr, "SKIP: %s\n", reason);                                           \
        exit(77);                                                                        \
    } while (0)

static inline int t_done(const char *file)
{
    long *c = t_counts();
    if (c[0] + c[1] == 0) {
        fprintf(stderr, "%s: no checks ran\n", file);
        return 1;
    }
    printf("%s: %ld passed, %ld failed\n", file, c[0], c[1]);
    return c[1] ? 1 : 0;
}
#define T_DONE() t_done(__FILE__)

#endif
