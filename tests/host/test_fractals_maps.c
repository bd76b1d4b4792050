/* test_fractals_maps.c -- fractals/fractal.h on the host (no CUDA).
 *
 *  - Table 1: k, s, Hausdorff dimensions, H inside [0, s-1]^2 without repeats.
 *  - membership from H (fractal_member, nbb_fast_member) == construction by replication
 *    (level r+1 = k copies of level r translated by tau * s^r), every fractal, r = 0..6;
 *    fractal_cell_of enumerates exactly those cells, fractal_odometer in the same order.
 *  - the launches of bb and lambda, every fractal, r = 0..6, every valid rho (powers of s up
 *    to min(n, 32)): simulated thread by thread over exactly the launch grid, both reach the
 *    same k^r cells, each exactly once, and nothing else; the compact grid is
 *    k^ceil(rb/2) x k^floor(rb/2).
 *  - nbb_fast_lambda == lambda_map (eqs. 1-6 written literally) on every block of those
 *    grids and on random blocks of large levels (Sierpinski r = 16 for sw).
 *  - the magic division used on the device is exact for every dividend it can get.
 *  - bb-skip and bb-block as their kernels run (fractal_bb_fast_make once, the block's exit
 *    test, then the thread's part): a block they end holds no cell, the kept threads reach
 *    each cell exactly once; the s = 2 ANF membership == the reference for all 15 H with s = 2.
 *  - fractal_launch_init refuses bad combinations with a reason. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/testlib.h"
#include "../../fractals/fractal.h"

#ifdef TEST_SANITIZE /* make asan: levels and samples thinned (the plain build keeps them) */
#define R_SMALL 5
#define LARGE_SAMPLES 2000
#else
#define R_SMALL 6
#define LARGE_SAMPLES 20000
#endif

/* Construction by replication (section 3.1): grid of side s^r, 1 = cell. */
static uint8_t *build_by_replication(const nbb_fractal *f, int r)
{
    uint64_t n = fractal_pow((uint64_t)f->s, r);
    uint8_t *g = calloc(n * n, 1), *t = calloc(n * n, 1);
    g[0] = 1;
    uint64_t side = 1;
    for (int l = 0; l < r; l++) {
        memset(t, 0, n * n);
        for (int b = 0; b < f->k; b++)
            for (uint64_t y = 0; y < side; y++)
                for (uint64_t x = 0; x < side; x++)
                    if (g[y * n + x]) t[(y + f->tau_y[b] * side) * n + x + f->tau_x[b] * side] = 1;
        memcpy(g, t, n * n);
        side *= (uint64_t)f->s;
    }
    free(t);
    return g;
}

static void test_table(void)
{
    static const struct { const char *name; int k, s; double h; } want[FRACTAL_COUNT] = {
        {"sierpinski-triangle", 3, 2, 1.58}, {"candelabra", 4, 3, 1.26}, {"h-fractal", 7, 3, 1.77},
        {"candy", 12, 4, 1.79}, {"sierpinski-carpet", 8, 3, 1.89}, {"x-fractal", 5, 3, 1.46},
        {"vicsek", 5, 3, 1.46}, {"empty-bottles", 7, 3, 1.77}, {"cantor-dust", 2, 3, 0.63},
    };
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = fractal_by_name(want[i].name);
        T_CHECK(f != NULL);
        if (!f) continue;
        T_EQ_INT(f->k, want[i].k);
        T_EQ_INT(f->s, want[i].s);
        T_NEAR(fractal_hausdorff(f), want[i].h, 0.006); /* Table 1 rounds to 2 decimals */
        int seen[16] = {0};
        for (int b = 0; b < f->k; b++) {
            T_CHECK(f->tau_x[b] >= 0 && f->tau_x[b] < f->s && f->tau_y[b] >= 0 && f->tau_y[b] < f->s);
            int cell = f->tau_x[b] + f->s * f->tau_y[b];
            T_CHECK(!seen[cell]);
            seen[cell] = 1;
        }
    }
    /* eq. 8 of the paper: Sierpinski H = {(0,0), (0,1), (1,1)} */
    const nbb_fractal *s = fractal_by_name("sierpinski-triangle");
    T_CHECK(s->tau_x[0] == 0 && s->tau_y[0] == 0 && s->tau_x[1] == 0 && s->tau_y[1] == 1 && s->tau_x[2] == 1 && s->tau_y[2] == 1);
    T_CHECK(fractal_by_name("nope") == NULL);
    T_EQ_INT(fractal_level_of(3, 27), 3);
    T_EQ_INT(fractal_level_of(3, 1), 0);
    T_EQ_INT(fractal_level_of(2, 24), -1);
    T_EQ_INT(fractal_level_of(4, 8), -1);
}

static void test_membership(void)
{
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        nbb_fast F = nbb_fast_make(f);
        for (int r = 0; r <= R_SMALL; r++) {
            uint64_t n = fractal_pow((uint64_t)f->s, r);
            uint8_t *g = build_by_replication(f, r);
            long bad_ref = 0, bad_fast = 0, count = 0;
            for (uint64_t y = 0; y < n; y++)
                for (uint64_t x = 0; x < n; x++) {
                    int want = g[y * n + x];
                    count += want;
                    bad_ref += fractal_member(f, (uint32_t)x, (uint32_t)y, r) != want;
                    bad_fast += nbb_fast_member(&F, (uint32_t)x, (uint32_t)y, r) != want;
                }
            T_EQ_INT(bad_ref, 0);
            T_EQ_INT(bad_fast, 0);
            T_EQ_INT(count, (long)fractal_pow((uint64_t)f->k, r));
            /* outside the n x n box: never a member */
            T_CHECK(!fractal_member(f, (uint32_t)n, 0, r) && !fractal_member(f, 0, (uint32_t)n, r));
            /* enumeration by replication digits hits every cell once */
            uint8_t *hit = calloc(n * n, 1);
            long dup = 0, outside = 0;
            uint64_t members = fractal_pow((uint64_t)f->k, r);
            for (uint64_t c = 0; c < members; c++) {
                uint32_t x, y;
                fractal_cell_of(f, r, c, &x, &y);
                if (x >= n || y >= n || !g[y * n + x]) { outside++; continue; }
                dup += hit[(uint64_t)y * n + x]++ > 0;
            }
            T_EQ_INT(dup, 0);
            T_EQ_INT(outside, 0);
            /* the odometer walks the same cells in the same order, from any start */
            long odo_bad = 0;
            for (uint64_t start = 0; start < members; start += members / 3 + 1) {
                fractal_odometer o;
                fractal_odometer_init(&o, f, r, start);
                for (uint64_t c = start; c < members; c++, fractal_odometer_next(&o)) {
                    uint32_t x, y;
                    fractal_cell_of(f, r, c, &x, &y);
                    odo_bad += o.x != x || o.y != y;
                }
            }
            T_EQ_INT(odo_bad, 0);
            free(hit);
            free(g);
        }
    }
}

/* Simulates a launch thread by thread; returns 0 when it covers the fractal exactly once. */
static long check_launch(const nbb_fractal *f, const fractal_launch *L, uint8_t *count)
{
    uint64_t n = L->n;
    memset(count, 0, n * n);
    long bad = 0, lambda_mismatch = 0, hits = 0;
    for (uint32_t by = 0; by < L->gy; by++)
        for (uint32_t bx = 0; bx < L->gx; bx++) {
            if (L->map == FRACTAL_MAP_LAMBDA) {
                uint32_t ax, ay, cx, cy;
                lambda_map(f, L->rb, bx, by, &ax, &ay);
                nbb_fast_lambda(&L->F, L->rb, bx, by, &cx, &cy);
                lambda_mismatch += ax != cx || ay != cy;
            }
            for (uint32_t ty = 0; ty < L->rho; ty++)
                for (uint32_t tx = 0; tx < L->rho; tx++) {
                    uint32_t x, y;
                    if (!fractal_launch_cell(L, bx, by, tx, ty, &x, &y)) continue;
                    if (x >= n || y >= n) { bad++; continue; }
                    count[(uint64_t)y * n + x]++;
                    hits++;
                }
        }
    for (uint64_t y = 0; y < n; y++)
        for (uint64_t x = 0; x < n; x++)
            bad += count[y * n + x] != (uint8_t)fractal_member(f, (uint32_t)x, (uint32_t)y, L->r);
    bad += hits != (long)fractal_pow((uint64_t)f->k, L->r);
    return bad + lambda_mismatch;
}

static void test_launches(void)
{
    char err[256];
    long configs = 0;
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        for (int r = 0; r <= R_SMALL; r++) {
            uint64_t n = fractal_pow((uint64_t)f->s, r);
            uint8_t *count = malloc(n * n);
            for (uint32_t rho = 1; rho <= n && rho <= FRACTAL_MAX_RHO; rho *= (uint32_t)f->s) {
                fractal_launch Lb, Ll;
                T_EQ_INT(fractal_launch_init(&Lb, f, r, rho, FRACTAL_MAP_BB, err, sizeof err), 0);
                T_EQ_INT(fractal_launch_init(&Ll, f, r, rho, FRACTAL_MAP_LAMBDA, err, sizeof err), 0);
                uint64_t gx, gy;
                lambda_grid(f, Ll.rb, &gx, &gy);
                T_EQ_INT(Ll.gx, gx);
                T_EQ_INT(Ll.gy, gy);
                T_EQ_INT((uint64_t)Ll.gx * Ll.gy, fractal_pow((uint64_t)f->k, Ll.rb));
                T_EQ_INT(Ll.gx, fractal_pow((uint64_t)f->k, (Ll.rb + 1) / 2));
                T_EQ_INT((uint64_t)Lb.gx * Lb.gy, (n / rho) * (n / rho));
                T_EQ_INT(check_launch(f, &Lb, count), 0);
                T_EQ_INT(check_launch(f, &Ll, count), 0);
                /* the bb baselines with an early exit: same grid, same cells, exactly once */
                fractal_launch Ls, Lk;
                T_EQ_INT(fractal_launch_init(&Lk, f, r, rho, FRACTAL_MAP_BB_BLOCK, err, sizeof err), 0);
                T_EQ_INT((uint64_t)Lk.gx * Lk.gy, (n / rho) * (n / rho));
                T_EQ_INT(check_launch(f, &Lk, count), 0);
                const int lower = fractal_lower_triangular(f);
                T_EQ_INT(fractal_launch_init(&Ls, f, r, rho, FRACTAL_MAP_BB_SKIP, err, sizeof err), lower ? 0 : -1);
                if (lower) T_EQ_INT(check_launch(f, &Ls, count), 0);
                configs++;
            }
            free(count);
        }
    }
    T_CHECK(configs > 100);
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Large levels: the fast lambda agrees with eqs. 1-6 on random blocks, its blocks are
 * fractal blocks at level rb, and each thread's cell is a member at level r. */
static void test_large(void)
{
    char err[256];
    uint64_t seed = 88172645463325252ull;
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        int r = f->s == 2 ? 16 : f->s == 3 ? 10 : 8;
        for (uint32_t rho = (uint32_t)f->s; rho <= FRACTAL_MAX_RHO; rho *= (uint32_t)f->s) {
            fractal_launch L;
            T_EQ_INT(fractal_launch_init(&L, f, r, rho, FRACTAL_MAP_LAMBDA, err, sizeof err), 0);
            long bad = 0;
            for (int t = 0; t < LARGE_SAMPLES; t++) {
                uint32_t wx = (uint32_t)(rng_next(&seed) % L.gx), wy = (uint32_t)(rng_next(&seed) % L.gy);
                if (t == 0) wx = wy = 0;
                if (t == 1) wx = L.gx - 1, wy = L.gy - 1;
                uint32_t ax, ay, cx, cy;
                lambda_map(f, L.rb, wx, wy, &ax, &ay);
                nbb_fast_lambda(&L.F, L.rb, wx, wy, &cx, &cy);
                bad += ax != cx || ay != cy;
                bad += !fractal_member(f, cx, cy, L.rb);
                uint32_t tx = (uint32_t)(rng_next(&seed) % rho), ty = (uint32_t)(rng_next(&seed) % rho), x, y;
                int in = fractal_lambda_cell(&L, wx, wy, tx, ty, &x, &y);
                bad += in != fractal_member(f, x, y, r);
                bad += x >= L.n || y >= L.n;
            }
            T_EQ_INT(bad, 0);
            /* bb membership at level r against the reference, random cells */
            nbb_fast F = nbb_fast_make(f);
            long badm = 0;
            for (int t = 0; t < 10 * LARGE_SAMPLES; t++) {
                uint32_t x = (uint32_t)(rng_next(&seed) % L.n), y = (uint32_t)(rng_next(&seed) % L.n);
                if (t & 1) { /* bias towards members: a random cell number by replication */
                    fractal_cell_of(f, r, rng_next(&seed) % fractal_pow((uint64_t)f->k, r), &x, &y);
                    x ^= (uint32_t)(t >> 1) & 1;
                    if (x >= L.n) x = 0;
                }
                badm += nbb_fast_member(&F, x, y, r) != fractal_member(f, x, y, r);
            }
            T_EQ_INT(badm, 0);
        }
    }
    /* Sierpinski r=16, rho=8: the compact grid k^7 x k^6 of the paper's largest case */
    fractal_launch L;
    T_EQ_INT(fractal_launch_init(&L, &FRACTAL_TABLE[0], 16, 8, FRACTAL_MAP_LAMBDA, err, sizeof err), 0);
    T_EQ_INT(L.gx, 2187);
    T_EQ_INT(L.gy, 729);
    T_EQ_INT(L.rb, 13);
}

#ifdef TEST_SANITIZE /* make asan: the arithmetic sweeps thinned, the top of the range kept */
#define MAGIC_LOW (1u << 16)
#define MAGIC_RANDOM 20000
#else
#define MAGIC_LOW (1u << 22)
#define MAGIC_RANDOM 2000000
#endif
static void test_magic(void)
{
    long bad = 0;
    for (uint32_t d = 2; d <= 16; d++) {
        uint32_t m = fractal_magic(d);
        for (uint32_t x = 0; x < MAGIC_LOW; x++) bad += fractal_udiv(x, m) != x / d;
        uint64_t seed = 0x1234567u + d;
        for (int t = 0; t < MAGIC_RANDOM; t++) {
            uint32_t x = (uint32_t)(rng_next(&seed) % FRACTAL_MAX_N);
            bad += fractal_udiv(x, m) != x / d;
        }
        for (uint32_t x = FRACTAL_MAX_N - 100000; x < FRACTAL_MAX_N; x++) bad += fractal_udiv(x, m) != x / d;
        /* every multiple of d and its predecessor near the top */
        for (uint32_t q = (FRACTAL_MAX_N - 1) / d; q > (FRACTAL_MAX_N - 1) / d - 100000; q--)
            bad += fractal_udiv(q * d, m) != q || fractal_udiv(q * d - 1, m) != q - 1;
    }
    T_EQ_INT(bad, 0);
}

/* bb-skip's condition: only the Sierpinski triangle of Table 1 lies in the lower triangle, and
 * there the blocks it skips (bx > by) hold no cell while every block it keeps that is a
 * block-level cell does (bb-block keeps exactly those). */
static void test_bb_skip_blocks(void)
{
    for (int i = 0; i < FRACTAL_COUNT; i++)
        T_EQ_INT(fractal_lower_triangular(&FRACTAL_TABLE[i]), !strcmp(FRACTAL_TABLE[i].name, "sierpinski-triangle"));
    const nbb_fractal *s = fractal_by_name("sierpinski-triangle");
    const int rb = 7;
    const uint32_t nb = 1u << rb;
    const nbb_fast F = nbb_fast_make(s);
    long kept = 0, cells = 0, wrong = 0;
    for (uint32_t by = 0; by < nb; by++)
        for (uint32_t bx = 0; bx < nb; bx++) {
            const int member = nbb_fast_member(&F, bx, by, rb);
            wrong += member && bx > by;            /* a skipped block with a cell */
            wrong += member != fractal_member(s, bx, by, rb);
            kept += bx <= by;
            cells += member;
        }
    T_EQ_INT(wrong, 0);
    T_EQ_INT(kept, (long)nb * (nb + 1) / 2);     /* bb-skip: T(nb) blocks do work */
    T_EQ_INT(cells, (long)fractal_pow(3, rb));   /* bb-block: 3^rb blocks do work */
}

/* The s = 2 membership in algebraic normal form (bb-skip's and bb-block's kept path) equals
 * the digit-by-digit reference for every non-empty H of the 15 possible with s = 2 (the
 * table's one and all others; k >= 1, as fractal_launch_init asks), every (x, y) below
 * 2^levels for small levels and random ones up to 2^28. */
static void test_anf2(void)
{
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    long bad = 0;
    for (uint32_t h = 1; h < 16; h++) {
        nbb_fractal f = {"anf", 0, 2, {0}, {0}};
        for (int p = 0; p < 4; p++)
            if (h >> p & 1u) f.tau_x[f.k] = p & 1, f.tau_y[f.k] = p >> 1, f.k++;
        const nbb_fast F = nbb_fast_make(&f);
        for (int levels = 0; levels <= 6; levels++) {
            const nbb_anf2 A = nbb_anf2_make(&F, levels);
            for (uint32_t y = 0; y < (1u << levels); y++)
                for (uint32_t x = 0; x < (1u << levels); x++) bad += nbb_anf2_member(&A, x, y) != fractal_member(&f, x, y, levels);
        }
        for (int levels = 7; levels <= 28; levels++) {
            const nbb_anf2 A = nbb_anf2_make(&F, levels);
            for (int t = 0; t < 2000; t++) {
                uint32_t x = (uint32_t)(rng_next(&seed) >> 40) & ((1u << levels) - 1u);
                uint32_t y = (uint32_t)(rng_next(&seed) >> 40) & ((1u << levels) - 1u);
                if (t & 1) x &= y; /* many members of the triangle-like H */
                bad += nbb_anf2_member(&A, x, y) != fractal_member(&f, x, y, levels);
            }
        }
    }
    T_EQ_INT(bad, 0);
}

/* bb-skip and bb-block as the kernels run them: fractal_bb_fast_make once per launch, the
 * block's test, then each thread of a kept block.  Every block ended by the test holds no
 * cell of bb (no thread of it has one), and the kept threads reach each cell exactly once. */
static long check_exit_launch(const nbb_fractal *f, fractal_launch L, fractal_map_kind kind, uint8_t *count)
{
    L.map = kind;
    const fractal_bb_fast B = fractal_bb_fast_make(&L);
    const uint64_t n = L.n;
    memset(count, 0, n * n);
    long bad = 0, hits = 0;
    for (uint32_t by = 0; by < L.gy; by++)
        for (uint32_t bx = 0; bx < L.gx; bx++) {
            const int keeps = kind == FRACTAL_MAP_BB_SKIP ? fractal_bb_skip_keeps(bx, by) : fractal_bb_block_keeps(&L, &B, bx, by);
            for (uint32_t ty = 0; ty < L.rho; ty++)
                for (uint32_t tx = 0; tx < L.rho; tx++) {
                    uint32_t x, y;
                    if (!keeps) { /* ended: bb would find no cell here */
                        bad += fractal_bb_cell(&L, bx, by, tx, ty, &x, &y);
                        continue;
                    }
                    const int in = kind == FRACTAL_MAP_BB_SKIP ? fractal_bb_skip_thread(&L, &B, bx, by, tx, ty, &x, &y)
                                                                : fractal_bb_block_thread(&L, &B, bx, by, tx, ty, &x, &y);
                    if (!in) continue;
                    if (x >= n || y >= n) { bad++; continue; }
                    count[(uint64_t)y * n + x]++;
                    hits++;
                }
        }
    for (uint64_t y = 0; y < n; y++)
        for (uint64_t x = 0; x < n; x++) bad += count[y * n + x] != (uint8_t)fractal_member(f, (uint32_t)x, (uint32_t)y, L.r);
    return bad + (hits != (long)fractal_pow((uint64_t)f->k, L.r));
}

static void test_exit_launches(void)
{
    char err[256];
    long configs = 0;
    for (int i = 0; i < FRACTAL_COUNT; i++) {
        const nbb_fractal *f = &FRACTAL_TABLE[i];
        for (int r = 0; r <= R_SMALL; r++) {
            const uint64_t n = fractal_pow((uint64_t)f->s, r);
            uint8_t *count = malloc(n * n);
            for (uint32_t rho = 1; rho <= n && rho <= FRACTAL_MAX_RHO; rho *= (uint32_t)f->s) {
                fractal_launch Lb;
                T_EQ_INT(fractal_launch_init(&Lb, f, r, rho, FRACTAL_MAP_BB, err, sizeof err), 0);
                T_EQ_INT(check_exit_launch(f, Lb, FRACTAL_MAP_BB_BLOCK, count), 0);
                if (fractal_lower_triangular(f)) T_EQ_INT(check_exit_launch(f, Lb, FRACTAL_MAP_BB_SKIP, count), 0);
                configs++;
            }
            free(count);
        }
    }
    T_CHECK(configs > 100);
    /* the Sierpinski triangle at r = 8, rho = 32 as well (rho = 32 is the case timed against gpumaps) */
    uint8_t *count = malloc(256 * 256);
    fractal_launch Lb;
    T_EQ_INT(fractal_launch_init(&Lb, &FRACTAL_TABLE[0], 8, 32, FRACTAL_MAP_BB, err, sizeof err), 0);
    T_EQ_INT(check_exit_launch(&FRACTAL_TABLE[0], Lb, FRACTAL_MAP_BB_SKIP, count), 0);
    T_EQ_INT(check_exit_launch(&FRACTAL_TABLE[0], Lb, FRACTAL_MAP_BB_BLOCK, count), 0);
    free(count);
}

static void test_errors(void)
{
    char err[256];
    fractal_launch L;
    const nbb_fractal *s = fractal_by_name("sierpinski-triangle"), *c = fractal_by_name("sierpinski-carpet");
    T_EQ_INT(fractal_launch_init(&L, s, 5, 3, FRACTAL_MAP_BB, err, sizeof err), -1);
    T_CHECK(strstr(err, "not a power") != NULL);
    T_EQ_INT(fractal_launch_init(&L, c, 5, 8, FRACTAL_MAP_LAMBDA, err, sizeof err), -1);
    T_EQ_INT(fractal_launch_init(&L, s, 3, 16, FRACTAL_MAP_LAMBDA, err, sizeof err), -1);
    T_CHECK(strstr(err, "larger than n") != NULL);
    T_EQ_INT(fractal_launch_init(&L, s, 10, 64, FRACTAL_MAP_BB, err, sizeof err), -1);
    T_CHECK(strstr(err, "rho <= 32") != NULL);
    T_EQ_INT(fractal_launch_init(&L, s, 29, 8, FRACTAL_MAP_BB, err, sizeof err), -1);
    T_EQ_INT(fractal_launch_init(&L, s, 24, 8, FRACTAL_MAP_LAMBDA, err, sizeof err), 0); /* grid 3^11 x 3^10 */
    T_EQ_INT(fractal_launch_init(&L, s, 25, 8, FRACTAL_MAP_LAMBDA, err, sizeof err), -1); /* 3^11 rows of blocks > 65535 */
    T_EQ_INT(fractal_launch_init(&L, s, 0, 1, FRACTAL_MAP_LAMBDA, err, sizeof err), 0);
    T_EQ_INT(L.gx * L.gy, 1);
    T_EQ_INT(fractal_launch_init(&L, s, 0, 2, FRACTAL_MAP_LAMBDA, err, sizeof err), -1);
    /* bb at r=20 with rho=8: 131072 blocks along y exceeds 65535 */
    T_EQ_INT(fractal_launch_init(&L, s, 20, 8, FRACTAL_MAP_BB, err, sizeof err), -1);
    T_CHECK(strstr(err, "grid") != NULL);
    /* bb-skip tests its cells with the s = 2 ANF: a fractal in the lower triangle with s = 3 is refused */
    const nbb_fractal low3 = {"lower-3", 6, 3, {0, 0, 1, 0, 1, 2}, {0, 1, 1, 2, 2, 2}};
    T_EQ_INT(fractal_lower_triangular(&low3), 1);
    T_EQ_INT(fractal_launch_init(&L, &low3, 3, 3, FRACTAL_MAP_BB_SKIP, err, sizeof err), -1);
    T_CHECK(strstr(err, "s = 2 only") != NULL);
    T_EQ_INT(fractal_launch_init(&L, &low3, 3, 3, FRACTAL_MAP_BB_BLOCK, err, sizeof err), 0);
}

int main(void)
{
    test_table();
    test_membership();
    test_launches();
    test_large();
    test_magic();
    test_bb_skip_blocks();
    test_anf2();
    test_exit_launches();
    test_errors();
    return T_DONE();
}
