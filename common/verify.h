/* verify.h -- compare a result with its reference and say exactly what differs.
 *
 * Each function returns the number of mismatching elements and prints (stderr) that count
 * and the first VERIFY_SHOW mismatches with their indices, so a failure is diagnosable from
 * the log alone.  A return of 0 prints nothing.
 *
 *   verify_exact(got, ref, n, sizeof *got, "what")         bitwise equality per element
 *   verify_close_f64 / verify_close_f32(got, ref, n, rtol, atol, "what")
 *       |got - ref| <= atol + rtol * |ref|; NaN never passes
 *   verify_unwritten(buf, n, sizeof *buf, &poison, "what")  elements still holding the
 *       poison value a buffer was filled with before the run (unwritten outputs) */
#ifndef COMMON_VERIFY_H
#define COMMON_VERIFY_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#define VERIFY_SHOW 5 /* mismatches printed before "..." */

static inline void verify_print_elem(const unsigned char *p, size_t elem)
{
    long long v = 0;
    if (elem == 1) v = *(const signed char *)p;
    else if (elem == 2) { short s; memcpy(&s, p, 2); v = s; }
    else if (elem == 4) { int s; memcpy(&s, p, 4); v = s; }
    else if (elem == 8) memcpy(&v, p, 8);
    else { fprintf(stderr, "<%zu bytes>", elem); return; }
    fprintf(stderr, "%lld", v);
}

static inline size_t verify_exact(const void *got, const void *ref, size_t n, size_t elem, const char *what)
{
    const unsigned char *g = (const unsigned char *)got, *r = (const unsigned char *)ref;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (memcmp(g + i * elem, r + i * elem, elem) == 0) continue;
        if (bad < VERIFY_SHOW) {
            fprintf(stderr, "  %s[%zu]: got ", what, i);
            verify_print_elem(g + i * elem, elem);
            fprintf(stderr, ", expected ");
            verify_print_elem(r + i * elem, elem);
            fputc('\n', stderr);
        }
        bad++;
    }
    if (bad) fprintf(stderr, "verify: %s: %zu of %zu elements differ\n", what, bad, n);
    return bad;
}

static inline int verify_close_one(double g, double r, double rtol, double atol)
{
    return fabs(g - r) <= atol + rtol * fabs(r); /* false for NaN */
}

/* One element of verify_close_f64/f32: counts it in *bad when outside tolerance and prints
 * the first VERIFY_SHOW such elements. */
static inline void verify_close_count(double g, double r, double rtol, double atol, const char *what,
                                      size_t i, size_t *bad)
{
    if (!verify_close_one(g, r, rtol, atol) && (*bad)++ < VERIFY_SHOW)
        fprintf(stderr, "  %s[%zu]: got %.9g, expected %.9g\n", what, i, g, r);
}

static inline size_t verify_close_report(size_t bad, size_t n, const char *what)
{
    if (bad) fprintf(stderr, "verify: %s: %zu of %zu elements outside tolerance\n", what, bad, n);
    return bad;
}

static inline size_t verify_close_f64(const double *got, const double *ref, size_t n, double rtol,
                                      double atol, const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) verify_close_count(got[i], ref[i], rtol, atol, what, i, &bad);
    return verify_close_report(bad, n, what);
}

static inline size_t verify_close_f32(const float *got, const float *ref, size_t n, double rtol,
                                      double atol, const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) verify_close_count(got[i], ref[i], rtol, atol, what, i, &bad);
    return verify_close_report(bad, n, what);
}

static inline size_t verify_unwritten(const void *buf, size_t n, size_t elem, const void *poison,
                                      const char *what)
{
    const unsigned char *b = (const unsigned char *)buf;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (memcmp(b + i * elem, poison, elem) == 0 && bad++ < VERIFY_SHOW)
            fprintf(stderr, "  %s[%zu]: never written (still the poison value)\n", what, i);
    if (bad) fprintf(stderr, "verify: %s: %zu of %zu elements never written\n", what, bad, n);
    return bad;
}

#endif
