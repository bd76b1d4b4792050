/* test_hashmesh_baseline.c -- the k-D tree's overlap query (hashmesh/baseline.h) at its
 * caller-owned buffer: the remap baselines hand it a fixed buffer of `cap` hits, and a query
 * that overlaps more cells than that must say so (-1; kd2_remap: 1) without writing past it.
 *   - 8 x 8 unit cells; a query over a 3 x 3 block: cap 9 -> the 9 cells (each once), cap 8
 *     -> -1 with the slot after the buffer untouched, cap 1 with first_only -> one of them;
 *   - a box that only touches cells along an edge or a corner overlaps none (0 hits);
 *   - kd2_remap over the same cells: a new cell of side 3 with cap 8 -> 1 (refused), cap 9 ->
 *     0 and the brute-force integrals. */
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/baseline.h"

enum { S = 8, N = S * S };

int main(void)
{
    kbox cells[N];
    for (int j = 0; j < S; j++)
        for (int i = 0; i < S; i++) {
            kbox b = {i, j, i + 1, j + 1};
            cells[j * S + i] = b;
        }
    kd2 t;
    kd2_alloc(&t, N);
    kd2_build(&t, cells, N);

    kbox q = {2, 3, 5, 6}; /* cells i = 2..4, j = 3..5 */
    int *hits = malloc(sizeof(int) * 10);
    for (int k = 0; k < 10; k++) hits[k] = -7;
    T_EQ_INT(kd2_query(&t, &q, hits, 9, 0), 9);
    int seen[N] = {0}, inside = 1;
    for (int k = 0; k < 9; k++) {
        int c = hits[k], i = c % S, j = c / S;
        if (c < 0 || c >= N || i < 2 || i > 4 || j < 3 || j > 5) inside = 0;
        else seen[c]++;
    }
    T_CHECK(inside);
    int once = 1;
    for (int j = 3; j <= 5; j++)
        for (int i = 2; i <= 4; i++) once &= seen[j * S + i] == 1;
    T_CHECK(once);
    T_EQ_INT(hits[9], -7);

    for (int k = 0; k < 10; k++) hits[k] = -7;
    T_EQ_INT(kd2_query(&t, &q, hits, 8, 0), -1); /* one cell more than the buffer holds */
    T_EQ_INT(hits[8], -7);
    T_EQ_INT(hits[9], -7);
    T_EQ_INT(kd2_query(&t, &q, hits, 1, 1), 1); /* point location: the first hit suffices */
    T_CHECK(hits[0] >= 0 && hits[0] < N);

    kbox edge = {5, 3, 6, 6}, corner = {-1, -1, 0, 0}, outside = {S, 0, S + 2, S};
    T_EQ_INT(kd2_query(&t, &edge, hits, 9, 0), 3); /* column i = 5, j = 3..5 */
    kbox touch = {3, 8, 5, 9};                     /* above the top row: touches only */
    T_EQ_INT(kd2_query(&t, &touch, hits, 9, 0), 0);
    T_EQ_INT(kd2_query(&t, &corner, hits, 9, 0), 0);
    T_EQ_INT(kd2_query(&t, &outside, hits, 9, 0), 0);

    /* the remap: one new cell of side 3 over 9 old cells */
    double mean[N], gx[N], gy[N];
    for (int c = 0; c < N; c++) {
        mean[c] = 1.0 + c;
        gx[c] = 0.25 * (c % 3);
        gy[c] = -0.5 * (c % 5);
    }
    kbox nb[2] = {{2, 3, 5, 6}, {0, 0, 1, 1}};
    double out[2] = {-1, -1}, ref[2];
    T_EQ_INT(kd2_remap(&t, cells, N, mean, gx, gy, nb, 2, hits, 8, out), 1);
    T_EQ_INT(kd2_remap(&t, cells, N, mean, gx, gy, nb, 2, hits, 9, out), 0);
    brute_remap(cells, N, mean, gx, gy, nb, 2, ref);
    T_NEAR(out[0], ref[0], 1e-12 * fabs(ref[0]));
    T_NEAR(out[1], ref[1], 1e-12 * fabs(ref[1]));
    T_NEAR(ref[1], mean[0], 1e-12); /* a new cell equal to an old one: its mean */
    free(hits);
    kd2_free(&t);
    return T_DONE();
}
