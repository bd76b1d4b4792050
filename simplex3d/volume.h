/* simplex3d/volume.h -- parallel-space volumes of [REC] (Navarro, Bustos, Hitschfeld,
 * arXiv:1610.07394): closed forms next to exact enumerations, for the volume program and its
 * test.  Volumes count blocks (cells of side 1); exact integers (unsigned __int128: n^m for
 * n <= 2^15 and m <= 8 needs 120 bits; volume.c refuses larger n).  Host only, plain C. */
#ifndef SIMPLEX3D_VOLUME_H
#define SIMPLEX3D_VOLUME_H

#include <stdint.h>
#include <stdlib.h>

typedef unsigned __int128 vol_t;

static inline vol_t vol_pow(vol_t b, unsigned e)
{
    vol_t r = 1;
    while (e--) r *= b;
    return r;
}

static inline unsigned vol_log(uint64_t n, unsigned s) /* log_s(n) for n = s^k */
{
    unsigned k = 0;
    while (n > 1) n /= s, k++;
    return k;
}

static inline vol_t vol_factorial(unsigned m) { return m <= 1 ? 1 : m * vol_factorial(m - 1); }

/* Eq. (2): V(Delta^m_n) = C(n + m - 1, m) = n (n+1) ... (n+m-1) / m!  (closed form). */
static inline vol_t vol_simplex_closed(unsigned m, uint64_t n)
{
    vol_t c = 1;
    for (unsigned i = 1; i <= m; i++) c = c * (n + i - 1) / i; /* C(n+i-1, i), exact each step */
    return c;
}

/* Eq. (3): V(Delta^{m+1}_n) = sum_{i=1}^{n} V(Delta^m_i), V(Delta^1_i) = i: the simplex as a
 * stack of lower-dimensional simplices, enumerated layer by layer (O(m n)). */
static inline vol_t vol_simplex_enum(unsigned m, uint64_t n)
{
    if (n == 0) return 0;
    vol_t *v = (vol_t *)malloc(sizeof(vol_t) * (n + 1));
    for (uint64_t i = 0; i <= n; i++) v[i] = i; /* m = 1 */
    for (unsigned d = 2; d <= m; d++)
        for (uint64_t i = 1; i <= n; i++) v[i] += v[i - 1]; /* prefix sums: one dimension up */
    vol_t r = v[n];
    free(v);
    return r;
}

/* Eq. (25) enumerated: the recursive orthotope set S^m_n = (n/s)^m + beta S^m_{n/s} (r = 1/s),
 * by walking the recursion tree and adding every orthotope's volume; n = s^k, S_1 = 0. */
static inline vol_t vol_set_enum(unsigned m, uint64_t n, unsigned s, unsigned beta)
{
    if (n < s) return 0;
    vol_t sub = vol_set_enum(m, n / s, s, beta);
    return vol_pow(n / s, m) + beta * sub;
}

/* Eq. (27): V(S^m_n) = (n^m - beta^(log_s n)) / (s^m - beta)   (s^m > beta). */
static inline vol_t vol_set_closed(unsigned m, uint64_t n, unsigned s, unsigned beta)
{
    return (vol_pow(n, m) - vol_pow(beta, vol_log(n, s))) / (vol_pow(s, m) - beta);
}

/* m = 3, beta = 3 ([REC] sec. III.B) enumerated the paper's way: one cube per call, the
 * recursion visited depth first (the number of sub-cubes is returned in *cubes). */
static inline vol_t vol_rec3_enum(uint64_t n, uint64_t *cubes)
{
    if (n < 2) return 0;
    (*cubes)++;
    vol_t h = n / 2;
    return h * h * h + vol_rec3_enum(n / 2, cubes) + vol_rec3_enum(n / 2, cubes) + vol_rec3_enum(n / 2, cubes);
}

/* Eq. (18): V(S^3_n) = (n^3 - 3^(log2 n)) / 5. */
static inline vol_t vol_rec3_closed(uint64_t n) { return (vol_pow(n, 3) - vol_pow(3, vol_log(n, 2))) / 5; }

/* Eq. (22): the alternative set, V(S^3_n) = (n^3 - n) / 6 = V(Delta^3_{n-1}). */
static inline vol_t vol_alt_closed(uint64_t n) { return (vol_pow(n, 3) - n) / 6; }

/* Eq. (24): its container, (n/2) x (n/2) x 3(n-1)/4 = 3 n^2 (n-1) / 16 (as a real volume). */
static inline double vol_container_paper(uint64_t n) { return 3.0 * n * n * (n - 1) / 16.0; }

#endif
