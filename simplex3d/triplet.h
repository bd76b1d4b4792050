/* simplex3d/triplet.h -- the three-body test problem: Axilrod-Teller triple-dipole energy
 * over all triplets i < j < k of N particles (a problem of the 3-simplex class, [REC] sec. I).
 *
 *   E_ijk = nu (1 + 3 cos g_i cos g_j cos g_k) / (r_ij r_ik r_jk)^3
 * with g_i the angle at particle i of the triangle (i, j, k).  With a = r_j - r_i,
 * b = r_k - r_i, c = r_k - r_j and d2 = |a|^2 |b|^2 |c|^2, the product of the cosines is
 * -(a.b)(a.c)(b.c) / d2, so E = nu (d2 - 3 (a.b)(a.c)(b.c)) / d2^(5/2).
 * Triplet (i, j, k) is the ordered cell (x, y, z) = (i, j - 1, k - 2) of D_{N-2} (map.h).
 * Particles: a jittered cubic lattice (spacing 1, jitter +-0.25), so no pair is closer than
 * 0.5 and the energies stay moderate; built from the seed with splitmix64. */
#ifndef SIMPLEX3D_TRIPLET_H
#define SIMPLEX3D_TRIPLET_H

#include <stdint.h>
#include <math.h>
#include "../common/hd.h"
#include "../common/rng.h"

#define AT_NU 1.0 /* the C9 coefficient; 1 in reduced units */

static inline HD double at_energy(double xi, double yi, double zi, double xj, double yj, double zj,
                                  double xk, double yk, double zk)
{
    double ax = xj - xi, ay = yj - yi, az = zj - zi;
    double bx = xk - xi, by = yk - yi, bz = zk - zi;
    double cx = xk - xj, cy = yk - yj, cz = zk - zj;
    double a2 = ax * ax + ay * ay + az * az, b2 = bx * bx + by * by + bz * bz;
    double c2 = cx * cx + cy * cy + cz * cz;
    double ab = ax * bx + ay * by + az * bz, ac = ax * cx + ay * cy + az * cz;
    double bc = bx * cx + by * cy + bz * cz;
    double d2 = a2 * b2 * c2;
    double r = 1.0 / sqrt(d2);
    double r2 = r * r;
    return AT_NU * (d2 - 3.0 * ab * ac * bc) * r2 * r2 * r;
}

/* pos: 3 N doubles (x0 y0 z0 x1 ...). */
static inline void at_particles(double *pos, uint32_t N, uint64_t seed)
{
    uint32_t L = 1;
    while ((uint64_t)L * L * L < N) L++;
    uint64_t s = seed;
    for (uint32_t p = 0; p < N; p++) {
        uint32_t c[3] = {p % L, (p / L) % L, p / (L * L)};
        for (int d = 0; d < 3; d++)
            pos[3 * p + d] = c[d] + 0.5 * (rng_unit(&s) - 0.5);
    }
}

/* The direct sum over every triplet i < j < k of the N particles (the CPU reference of the
 * triplet kernel, O(N^3), OpenMP); *abs_sum gets the sum of |terms| for relative tolerances. */
static inline double at_energy_direct(const double *pos, uint32_t N, double *abs_sum)
{
    double e = 0.0, ea = 0.0;
#pragma omp parallel for reduction(+ : e, ea) schedule(dynamic, 1)
    for (long i = 0; i < (long)N; i++)
        for (uint32_t j = (uint32_t)i + 1; j < N; j++)
            for (uint32_t k = j + 1; k < N; k++) {
                double v = at_energy(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], pos[3 * j], pos[3 * j + 1],
                                     pos[3 * j + 2], pos[3 * k], pos[3 * k + 1], pos[3 * k + 2]);
                e += v;
                ea += fabs(v);
            }
    *abs_sum = ea;
    return e;
}

#endif
