/* test_simplex2d_split.c -- the lambda split of lambda-mpi (simplex2d/split.h), exhaustively for
 * small triangles and rank counts, and at the experiment sizes:
 *  1. the ranges [r T / P, (r + 1) T / P) are disjoint, cover [0, T) and hold floor or ceil
 *     of T / P blocks each (equal work: max - min <= 1 block);
 *  2. through lambda-exact, every cell (i, j) of the triangle 0 <= j <= i < n is the image of
 *     exactly one local element of exactly one rank, and no element maps outside it
 *     (s2_split_cell returns 0 there), for n not a multiple of rho too; element e holds cell
 *     (i, j) at e = (omega - w0) rho^2 + (i mod rho) rho + j mod rho, omega = T(i / rho) + j / rho
 *     (checked through that inverse, which does not use lambda);
 *  3. at n = 300000, rho = 16 (the 2-GPU size): T < 2^32 (lambda-exact's range) and the two
 *     ranks' blocks differ by at most one. */
#include <stdlib.h>
#include "../../common/testlib.h"
#include "../../simplex2d/split.h"

static void check_cover(uint32_t n, uint32_t rho, int P)
{
    uint64_t T = s2_split_blocks(n, rho), prev = 0, lo = T, hi = 0;
    unsigned char *hit = (unsigned char *)calloc((size_t)n * n, 1);
    long outside = 0, bad_cell = 0;
    for (int r = 0; r < P; r++) {
        uint64_t w0, w1;
        s2_split_range(T, P, r, &w0, &w1);
        T_CHECK(w0 == prev);
        prev = w1;
        if (w1 - w0 < lo) lo = w1 - w0;
        if (w1 - w0 > hi) hi = w1 - w0;
        for (uint64_t e = 0; e < (w1 - w0) * rho * rho; e++) {
            uint32_t i, j;
            if (!s2_split_cell(w0, e, rho, n, &i, &j)) { outside++; continue; }
            /* the layout, by the inverse: block (i / rho, j / rho) is omega = T(i / rho) + j / rho */
            uint64_t back = (tri_number(i / rho) + j / rho - w0) * rho * rho + (i % rho) * rho + j % rho;
            if (i >= n || j > i || back != e) bad_cell++;
            else hit[(size_t)i * n + j]++;
        }
    }
    T_CHECK(prev == T);
    T_CHECK(hi - lo <= 1);
    long wrong = bad_cell;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j <= i; j++) wrong += hit[(size_t)i * n + j] != 1;
    if (!T_CHECK(wrong == 0)) fprintf(stderr, "n %u rho %u P %d: %ld cells not hit exactly once\n", n, rho, P, wrong);
    /* the unwritten elements are exactly the block slots outside the triangle */
    T_CHECK((uint64_t)outside == T * rho * rho - (uint64_t)n * (n + 1) / 2);
    free(hit);
}

int main(void)
{
    uint32_t ns[] = {1, 2, 3, 7, 16, 17, 31, 33, 64, 100, 127, 250};
    uint32_t rhos[] = {1, 2, 4, 8, 16};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof rhos / sizeof *rhos; b++)
            for (int P = 1; P <= 7; P++)
                if (s2_split_blocks(ns[a], rhos[b]) >= (uint64_t)P) check_cover(ns[a], rhos[b], P);
    uint64_t T = s2_split_blocks(300000, 16), w0, w1, v0, v1;
    T_CHECK(T < ((uint64_t)1 << 32));
    s2_split_range(T, 2, 0, &w0, &w1);
    s2_split_range(T, 2, 1, &v0, &v1);
    T_CHECK(w1 == v0 && v1 == T && (v1 - v0) - (w1 - w0) <= 1);
    return T_DONE();
}
