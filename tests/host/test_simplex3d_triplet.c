/* test_simplex3d_triplet.c -- the triplet problem of simplex3d: the change of variables
 * (i, j, k) = (x, y + 1, z + 2) of D_{N-2} enumerates every triplet i < j < k < N once, so
 * the Axilrod-Teller energy summed over each map's working threads (host emulation of the
 * launch grid) equals the direct triple loop; and at_energy against the cosine form. */
#include <stdio.h>
#include <stdlib.h>
#include "../../common/testlib.h"
#include "../../simplex3d/map.h"
#include "../../simplex3d/emulate.h"
#include "../../simplex3d/triplet.h"

typedef struct { const double *pos; double e; } ectx;

static void add(void *c, uint32_t x, uint32_t y, uint32_t z, uint64_t l, uint64_t b, uint32_t t)
{
    ectx *e = (ectx *)c;
    const double *p = e->pos;
    uint32_t i = x, j = y + 1, k = z + 2;
    (void)l, (void)b, (void)t;
    e->e += at_energy(p[3 * i], p[3 * i + 1], p[3 * i + 2], p[3 * j], p[3 * j + 1], p[3 * j + 2], p[3 * k],
                      p[3 * k + 1], p[3 * k + 2]);
}

int main(void)
{
    /* at_energy vs the textbook form nu (1 + 3 cos cos cos) / (rij rik rjk)^3 */
    double P[3][3] = {{0, 0, 0}, {1.1, 0.2, -0.3}, {0.4, 1.3, 0.5}};
    double r[3][3], cosv[3];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            r[a][b] = sqrt(pow(P[a][0] - P[b][0], 2) + pow(P[a][1] - P[b][1], 2) + pow(P[a][2] - P[b][2], 2));
    for (int a = 0; a < 3; a++) { /* law of cosines at vertex a */
        int b = (a + 1) % 3, c = (a + 2) % 3;
        cosv[a] = (r[a][b] * r[a][b] + r[a][c] * r[a][c] - r[b][c] * r[b][c]) / (2 * r[a][b] * r[a][c]);
    }
    double ref = (1 + 3 * cosv[0] * cosv[1] * cosv[2]) / pow(r[0][1] * r[0][2] * r[1][2], 3);
    T_NEAR(at_energy(P[0][0], P[0][1], P[0][2], P[1][0], P[1][1], P[1][2], P[2][0], P[2][1], P[2][2]), ref, 1e-12 * fabs(ref));

    for (uint32_t N = 3; N <= 40; N += 37 / 4) {
        double *pos = (double *)malloc(sizeof(double) * 3 * N);
        at_particles(pos, N, 12345);
        double abs_sum, direct = at_energy_direct(pos, N, &abs_sum);
        T_CHECK(abs_sum > 0);
        /* abs_sum is the sum of |E_ijk| (the scale of the relative tolerances): near-collinear
         * triplets of the lattice have E < 0, so it is not the sum itself */
        double want_e = 0, want_abs = 0;
        for (uint32_t i = 0; i < N; i++)
            for (uint32_t j = i + 1; j < N; j++)
                for (uint32_t k = j + 1; k < N; k++) {
                    const double *a = pos + 3 * i, *b = pos + 3 * j, *c = pos + 3 * k;
                    double v = at_energy(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
                    want_e += v;
                    want_abs += fabs(v);
                }
        T_NEAR(direct, want_e, 1e-12 * want_abs);
        T_NEAR(abs_sum, want_abs, 1e-12 * want_abs);
        T_CHECK(abs_sum >= fabs(direct));
        for (int map = 0; map < S3_NMAPS; map++)
            for (uint32_t rho = 1; rho <= 8; rho *= 2) {
                ectx e = {pos, 0};
                if (s3_emulate(map, N - 2, rho, add, &e) < 0) continue;
                T_NEAR(e.e, direct, 1e-12 * abs_sum);
            }
        free(pos);
    }
    return T_DONE();
}
