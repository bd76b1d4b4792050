/* test_common_testlib.c -- common/testlib.h itself: every other test trusts its verdict, so a
 * checker that passes a failed check hides every bug it was written to catch.  Each case runs
 * in a forked child (child.h) with the counters reset, and is judged by its exit status and
 * the text it printed, as tests/run.sh judges a test:
 *   - one failed check among passing ones: T_DONE returns 1 (exit 1), "1 failed" printed;
 *   - only passing checks: 0, "N passed, 0 failed"; no check at all: 1, "no checks ran";
 *   - T_NEAR: at the tolerance passes, one ulp past fails, a NaN (got or expected) fails,
 *     tol 0 passes only equality; T_EQ_INT compares the full 64 bits (2^32 + 1 != 1);
 *   - T_CHECK counts a nonzero value as true and returns the verdict;
 *   - T_SKIP exits 77 (counted as skipped), whatever ran before it. */
#include <string.h>
#include "../../common/testlib.h"
#include "child.h"

static char LOG[64]; /* per process: the plain and the sanitizer build may run at once */

/* in a child: the counters at zero, stdout onto stderr's open file (one offset: child.h opens
 * the log twice, and the two opens would overwrite each other's text) */
static void reset(void)
{
    t_counts()[0] = t_counts()[1] = 0;
    fflush(stdout);
    dup2(fileno(stderr), fileno(stdout));
}

static void one_failure(const void *arg)
{
    (void)arg;
    reset();
    T_CHECK(1);
    T_EQ_INT(3, 3);
    T_CHECK(2 + 2 == 5);
    T_NEAR(1.0, 1.0, 0);
    exit(T_DONE());
}
static void all_pass(const void *arg)
{
    (void)arg;
    reset();
    T_CHECK(7); /* nonzero: true */
    T_EQ_INT(-1, -1);
    T_NEAR(1.0, 1.25, 0.25); /* exactly at the tolerance */
    T_NEAR(2.0, 2.0, 0);
    exit(T_DONE());
}
static void no_checks(const void *arg)
{
    (void)arg;
    reset();
    exit(T_DONE());
}
/* arg: which single check (expected to fail) to run after one passing check */
static void single(const void *arg)
{
    int which = *(const int *)arg;
    reset();
    T_CHECK(1);
    switch (which) {
    case 0: T_NEAR(NAN, 0.0, 1.0); break;
    case 1: T_NEAR(0.0, NAN, 1.0); break;
    case 2: T_NEAR(1.0, nextafter(1.25, 2.0), 0.25); break;
    case 3: T_NEAR(1.0, nextafter(1.0, 2.0), 0); break;
    case 4: T_EQ_INT(4294967297LL, 1); break;
    case 5: T_NEAR(INFINITY, INFINITY, 1.0); break; /* inf - inf is NaN: not near */
    default: T_CHECK(0); break;
    }
    exit(T_DONE());
}
static void skip_after_failure(const void *arg)
{
    (void)arg;
    reset();
    T_CHECK(0);
    T_SKIP("no device");
}

int main(void)
{
    snprintf(LOG, sizeof LOG, "/tmp/test_common_testlib.%d.log", (int)getpid());
    int rc = in_child(one_failure, NULL, LOG);
    const char *out = slurp(LOG);
    T_EQ_INT(rc, 1);
    T_CHECK(strstr(out, "3 passed, 1 failed") != NULL);
    T_CHECK(strstr(out, "FAILED: 2 + 2 == 5") != NULL);

    rc = in_child(all_pass, NULL, LOG);
    T_EQ_INT(rc, 0);
    T_CHECK(strstr(slurp(LOG), "4 passed, 0 failed") != NULL);

    rc = in_child(no_checks, NULL, LOG);
    T_EQ_INT(rc, 1);
    T_CHECK(strstr(slurp(LOG), "no checks ran") != NULL);

    for (int which = 0; which <= 6; which++) {
        rc = in_child(single, &which, LOG);
        if (rc != 1) fprintf(stderr, "case %d: exit %d\n", which, rc);
        T_EQ_INT(rc, 1);
        T_CHECK(strstr(slurp(LOG), "1 passed, 1 failed") != NULL);
    }

    rc = in_child(skip_after_failure, NULL, LOG);
    T_EQ_INT(rc, 77);
    T_CHECK(strstr(slurp(LOG), "SKIP: no device") != NULL);

    /* T_CHECK returns its verdict (the tests branch on it) */
    T_EQ_INT(T_CHECK(1), 1);
    remove(LOG);
    return T_DONE();
}
