/* test_fractals_compact.c -- fractals/compact.h and the parallel lambda of fractal.h on the
 * host (no CUDA).
 *
 *  - inverse map round trip, every fractal, every r with k^r <= 2^21 and n <= 2^28 (exhaustive):
 *    compact -> embedded -> compact for every i < k^r (literal fractal_index_of and fast
 *    compact_index both give i back); embedded -> compact over the whole n x n array when
 *    n^2 <= 2^22 and a band of s past its right and bottom edges: a cell iff fractal_member
 *    (none in the band: the literal inverse refuses x or y >= n), and then the round trip back.
 *  - compact_digits_cell (block digits + thread digits, as compact.cu splits i) == the
 *    forward map fractal_cell_of, for every i of those levels.
 *  - compact_neighbour == compact_index of the neighbour, all 8 Moore neighbours of every
 *    cell, at those levels.
 *  - the automaton on compact storage (compact_ca_cell and compact_ca_cell_full) == the
 *    automaton on the embedded array, after every one of 6 steps, every fractal, r <= 5.
 *  - the parallel lambda (lambda_par: terms by thread, then summed) == nbb_fast_lambda on
 *    EVERY block while k^rb <= 3^16 (Sierpinski rb <= 16), == eqs. 1-6 (lambda_map) too
 *    while k^rb <= 2^16,
 *    and on random blocks up to the largest rb whose grid the launches allow.
 *  - the launch shape of compact.cuh (compact_launch_init): blocks x threads = k^r at every
 *    level up to n = 2^28 (one block of k^r threads below the block levels), refused past n =
 *    2^28 and at 2^28 blocks or more. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/testlib.h"
#include "../../fractals/fractal.h"
#include "../../fractals/compact.h"

#ifdef TEST_SANITIZE /* make asan: smaller exhaustive ranges, the same boundaries */
#define EXHAUSTIVE_CELLS (1ull << 15)
#define EXHAUSTIVE_BOX (1ull << 16)
#define EXHAUSTIVE_BLOCKS 59049ull /* 3^10 */
#define RANDOM_BLOCKS 5000
#else
#define EXHAUSTIVE_CELLS (1ull << 21)
#define EXHAUSTIVE_BOX (1ull << 22)
#define EXHAUSTIVE_BLOCKS 43046721ull /* 3^16: Sierpinski r_b = 16 exhaustively */
#define RANDOM_BLOCKS 200000
#endif

static void test_round_trip(const nbb_fractal *f)
{
    for (int r = 0;; r++) {
        uint64_t cells = fractal_pow((uint64_t)f->k, r);
        if (cells > EXHAUSTIVE_CELLS || fractal_pow((uint64_t)f->s, r) > FRACTAL_MAX_N) break;
        compact_map C = compact_make(f, r);
        int m = compact_block_levels((uint32_t)f->k);
        if (m > r) m = r;
        uint64_t km = fractal_pow((uint64_t)f->k, m);
        uint32_t sm = (uint32_t)fractal_pow((uint64_t)f->s, m);
        uint64_t bad_lit = 0, bad_fast = 0, bad_split = 0, bad_nb = 0;
        for (uint64_t i = 0; i < cells; i++) {
            uint32_t x, y, bx, by, lx, ly;
            uint64_t j = ~0ull, j2 = ~0ull;
            fractal_cell_of(f, r, i, &x, &y);
            bad_lit += !fractal_index_of(f, r, x, y, &j) || j != i;
            bad_fast += !compact_index(&C, x, y, &j2) || j2 != i;
            compact_digits_cell(&C.F, (uint32_t)(i / km), r - m, sm, &bx, &by);
            compact_digits_cell(&C.F, (uint32_t)(i % km), m, 1u, &lx, &ly);
            bad_split += bx + lx != x || by + ly != y;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    uint32_t nx = x + (uint32_t)dx, ny = y + (uint32_t)dy;
                    uint64_t a = 0, b = 0;
                    int ina = compact_neighbour(&C, i, x, y, nx, ny, &a), inb = compact_index(&C, nx, ny, &b);
                    bad_nb += ina != inb || (ina && a != b);
                }
        }
        T_EQ_INT(bad_lit, 0);
        T_EQ_INT(bad_fast, 0);
        T_EQ_INT(bad_split, 0);
        T_EQ_INT(bad_nb, 0);
        uint64_t n = C.n;
        if (n * n <= EXHAUSTIVE_BOX) { /* embedded -> compact over the whole box, and a band of
                                          s cells past its right and bottom edges (no cell there) */
            uint64_t bad = 0, count = 0;
            for (uint32_t y = 0; y < n + (uint32_t)f->s; y++)
                for (uint32_t x = 0; x < n + (uint32_t)f->s; x++) {
                    uint64_t i = 0, i2 = 0;
                    int in = fractal_index_of(f, r, x, y, &i), in2 = compact_index(&C, x, y, &i2);
                    bad += in != fractal_member(f, x, y, r) || in2 != in || (in && i2 != i);
                    if (in) {
                        uint32_t bx, by;
                        fractal_cell_of(f, r, i, &bx, &by);
                        bad += bx != x || by != y || i >= cells;
                        count++;
                    }
                }
            T_EQ_INT(bad, 0);
            T_EQ_INT(count, cells);
        }
    }
}

/* B3/S23 on the embedded array, the rule of kernels.cuh written plainly. */
static void embedded_step(const nbb_fractal *f, int r, uint32_t n, const uint8_t *in, uint8_t *out)
{
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            if (!fractal_member(f, x, y, r)) {
                out[(size_t)y * n + x] = 0;
                continue;
            }
            uint32_t live = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    long xx = (long)x + dx, yy = (long)y + dy;
                    if ((dx || dy) && xx >= 0 && yy >= 0 && xx < (long)n && yy < (long)n) live += in[(size_t)yy * n + xx];
                }
            uint32_t self = in[(size_t)y * n + x];
            out[(size_t)y * n + x] = (uint8_t)(live == 3 || (self && live == 2));
        }
}

static void test_ca(const nbb_fractal *f)
{
    for (int r = 0; r <= 5; r++) {
        compact_map C = compact_make(f, r);
        uint32_t n = C.n;
        uint64_t cells = fractal_pow((uint64_t)f->k, r);
        uint8_t *e[2] = {calloc((size_t)n * n, 1), calloc((size_t)n * n, 1)};
        uint8_t *c[2] = {malloc(cells), malloc(cells)}, *cf = malloc(cells);
        uint32_t seed = 12345u;
        for (uint64_t i = 0; i < cells; i++) { /* a deterministic, irregular start */
            uint32_t x, y;
            fractal_cell_of(f, r, i, &x, &y);
            seed = seed * 1103515245u + 12345u;
            c[0][i] = (uint8_t)((seed >> 16) % 3u == 0);
            e[0][(size_t)y * n + x] = c[0][i];
        }
        uint64_t bad = 0, bad_full = 0, alive = 0;
        int cur = 0;
        for (int t = 0; t < 6; t++) {
            embedded_step(f, r, n, e[cur], e[cur ^ 1]);
            for (uint64_t i = 0; i < cells; i++) {
                uint32_t x, y;
                fractal_cell_of(f, r, i, &x, &y);
                c[cur ^ 1][i] = compact_ca_cell(&C, c[cur], i, x, y);
                cf[i] = compact_ca_cell_full(&C, c[cur], i, x, y);
            }
            cur ^= 1;
            for (uint64_t i = 0; i < cells; i++) {
                uint32_t x, y;
                fractal_cell_of(f, r, i, &x, &y);
                bad += c[cur][i] != e[cur][(size_t)y * n + x];
                bad_full += cf[i] != c[cur][i];
                alive += c[cur][i];
            }
        }
        T_EQ_INT(bad, 0);
        T_EQ_INT(bad_full, 0);
        if (r == 5 && f->k >= 7) T_CHECK(alive > 0); /* the dense fractals stay alive: the check is not vacuous */
        free(e[0]);
        free(e[1]);
        free(c[0]);
        free(c[1]);
        free(cf);
    }
}

static void test_lambda_par(const nbb_fractal *f)
{
    nbb_fast F = nbb_fast_make(f);
    for (int rb = 0; rb <= 28; rb++) {
        uint64_t gx, gy;
        lambda_grid(f, rb, &gx, &gy);
        if (fractal_pow((uint64_t)f->s, rb) > FRACTAL_MAX_N || gx >= FRACTAL_MAX_N) break;
        uint64_t bad = 0, bad_lit = 0, tried = 0;
        if (gx * gy <= EXHAUSTIVE_BLOCKS) {
            tried = gx * gy;
#pragma omp parallel for schedule(dynamic) reduction(+ : bad, bad_lit)
            for (uint64_t wy = 0; wy < gy; wy++)
                for (uint64_t wx = 0; wx < gx; wx++) {
                    uint32_t px, py, fx, fy;
                    lambda_par(&F, rb, (uint32_t)wx, (uint32_t)wy, &px, &py);
                    nbb_fast_lambda(&F, rb, (uint32_t)wx, (uint32_t)wy, &fx, &fy);
                    bad += px != fx || py != fy;
                    if (gx * gy <= (1u << 16)) {
                        uint32_t lx, ly;
                        lambda_map(f, rb, (uint32_t)wx, (uint32_t)wy, &lx, &ly);
                        bad_lit += px != lx || py != ly;
                    }
                }
        } else {
            uint64_t z = 0x9E3779B97F4A7C15ull ^ (uint64_t)rb;
            for (int t = 0; t < RANDOM_BLOCKS; t++) {
                z ^= z << 13;
                z ^= z >> 7;
                z ^= z << 17;
                uint32_t wx = (uint32_t)(z % gx), wy = (uint32_t)((z >> 32) % gy);
                if (t == 0) wx = (uint32_t)gx - 1, wy = (uint32_t)gy - 1; /* the last block */
                uint32_t px, py, fx, fy, lx, ly;
                lambda_par(&F, rb, wx, wy, &px, &py);
                nbb_fast_lambda(&F, rb, wx, wy, &fx, &fy);
                lambda_map(f, rb, wx, wy, &lx, &ly);
                bad += px != fx || py != fy;
                bad_lit += px != lx || py != ly;
                tried++;
            }
        }
        T_EQ_INT(bad, 0);
        T_EQ_INT(bad_lit, 0);
        T_CHECK(tried > 0);
    }
}

/* The launch shape of compact.cuh's kernels: blocks x threads is exactly the k^r cells of the
 * level (the kernels index cell b k^m + t with no bound test), threads k^m <= 1024 with m the
 * block levels clamped to r (levels below compact_block_levels(k): one block of k^r threads),
 * sm = s^m; refused past n = 2^28, at k^(r - m) >= 2^28 blocks and for r < 0. */
static void test_launch_shape(const nbb_fractal *f)
{
    char err[256];
    compact_launch P;
    int r = 0;
    for (; fractal_pow((uint64_t)f->s, r) <= FRACTAL_MAX_N; r++) {
        int m = compact_block_levels((uint32_t)f->k) < r ? compact_block_levels((uint32_t)f->k) : r;
        if (fractal_pow((uint64_t)f->k, r - m) >= FRACTAL_MAX_N) { /* the block index's magic division */
            T_EQ_INT(compact_launch_init(&P, f, r, err, sizeof err), -1);
            T_CHECK(strstr(err, "blocks, more than 2^28") != NULL);
            continue;
        }
        T_EQ_INT(compact_launch_init(&P, f, r, err, sizeof err), 0);
        T_EQ_INT(P.m, m);
        T_EQ_INT((uint64_t)P.threads * P.blocks, fractal_pow((uint64_t)f->k, r));
        T_EQ_INT(P.threads, fractal_pow((uint64_t)f->k, m));
        T_CHECK(P.threads <= COMPACT_MAX_BLOCK);
        T_EQ_INT(P.sm, fractal_pow((uint64_t)f->s, m));
        T_EQ_INT(P.C.n, fractal_pow((uint64_t)f->s, r));
    }
    T_EQ_INT(compact_launch_init(&P, f, r, err, sizeof err), -1); /* n = s^r > 2^28 */
    T_CHECK(strstr(err, "> 2^28") != NULL);
    T_EQ_INT(compact_launch_init(&P, f, -1, err, sizeof err), -1);
}

int main(void)
{
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        test_round_trip(f);
        test_ca(f);
        test_lambda_par(f);
        test_launch_shape(f);
    }
    /* pow by squaring and the block levels */
    T_EQ_INT(fractal_pow_sq(3, 0), 1);
    T_EQ_INT(fractal_pow_sq(3, 13), 1594323);
    T_EQ_INT(fractal_pow_sq(2, 27), 1u << 27);
    T_EQ_INT(compact_block_levels(3), 6);  /* 729 threads */
    T_EQ_INT(compact_block_levels(8), 3);  /* 512 */
    T_EQ_INT(compact_block_levels(12), 2); /* 144 */
    return T_DONE();
}
