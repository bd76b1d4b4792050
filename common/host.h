/* host.h -- the CPU side of a measurement: which CPU, how many threads, and its own memory
 * ceiling, so a CPU baseline is judged against the host it ran on (C, no CUDA needed).
 *
 *   char h[256]; host_describe(h, sizeof h);          // "# host:" metadata (datfile.h writes it)
 *   double gbs = host_triad_gbs(1 << 27, 0, 5);       // STREAM-like triad, all OpenMP threads
 *
 * host_triad_gbs() runs a[i] = b[i] + s * c[i] over three double arrays of n elements
 * (24 n bytes moved per pass: two reads, one write; write-allocate traffic not counted, as in
 * STREAM) with `threads` OpenMP threads (0 = omp_get_max_threads()), first touched by the same
 * threads so pages sit near the cores that use them; returns the best of `reps` passes in GB/s
 * (STREAM reports the best too: the ceiling, not the typical).  The result is checked (every
 * element) before it is returned; a wrong sum exits 1. */
#ifndef COMMON_HOST_H
#define COMMON_HOST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "check.h"

static inline int host_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* "<CPU model>, <logical CPUs> logical CPUs, <OpenMP threads> OpenMP threads". */
static inline void host_describe(char *buf, size_t size)
{
    char model[160] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (!strncmp(line, "model name", 10)) {
                const char *p = strchr(line, ':');
                if (p) {
                    p++;
                    while (*p == ' ' || *p == '\t') p++;
                    snprintf(model, sizeof model, "%s", p);
                    model[strcspn(model, "\n")] = '\0';
                }
                break;
            }
        }
        fclose(f);
    }
    long ncpu = 1;
#ifdef _SC_NPROCESSORS_ONLN
    ncpu = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    snprintf(buf, size, "%s, %ld logical CPUs, %d OpenMP threads", model, ncpu, host_threads());
}

static inline double host_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* STREAM-like triad a = b + s c over n doubles per array; best of reps passes, GB/s. */
static inline double host_triad_gbs(size_t n, int threads, int reps)
{
    if (n == 0 || reps < 1) DIE_USAGE("host_triad_gbs: n and reps must be positive");
    if (threads <= 0) threads = host_threads();
    double *a = (double *)malloc(n * sizeof(double));
    double *b = (double *)malloc(n * sizeof(double));
    double *c = (double *)malloc(n * sizeof(double));
    if (!a || !b || !c) DIE_USAGE("host_triad_gbs: cannot allocate 3 x %zu doubles", n);
    const double s = 3.0;
    long long nn = (long long)n;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long long i = 0; i < nn; i++) {
        a[i] = -1.0; /* poison: an unwritten element fails the check */
        b[i] = (double)(i & 1023);
        c[i] = 0.5;
    }
    double best = 1e30;
    for (int r = 0; r < reps + 1; r++) { /* pass 0 warms up, untimed */
        double t0 = host_seconds();
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long long i = 0; i < nn; i++) a[i] = b[i] + s * c[i];
        double t = host_seconds() - t0;
        if (r > 0 && t < best) best = t;
    }
    long long bad = 0;
    for (long long i = 0; i < nn; i++)
        if (a[i] != (double)(i & 1023) + 1.5) bad++;
    free(a);
    free(b);
    free(c);
    if (bad) DIE("host_triad_gbs: %lld of %zu elements wrong", bad, n);
    return 3.0 * sizeof(double) * (double)n / best / 1e9;
}

#endif
