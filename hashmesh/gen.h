/* gen.h -- seeded, reproducible, validated inputs for every hashmesh experiment.
 *
 * Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data" (LANL), sec. 3.
 *   keys1d_generate   1D keys: start at 0, add gaps uniform in [dmin, dmax] (sec. 3.1:
 *                     dmin 2.0, dmax 4.0), then shuffle.  The gap is never below dmin, so
 *                     the bucket floor((x - min) / dmin) of eq. (2.13) is a perfect hash.
 *   amr_generate      2D AMR mesh (sec. 3.1): a coarse nx x ny mesh, a random level in
 *                     [1, levmax] for a fraction of coarse cells, smoothing until face
 *                     neighbours differ by at most one level, each coarse cell replaced by
 *                     its 2^l x 2^l cells, shuffled.  amr_validate checks coverage and 2:1.
 *   remap1d_generate  two 1D meshes over [0, L) with integer widths in [1, wmax] (the
 *                     integer lattice of Listing 3: every cell edge is a bucket edge).
 *   eos_generate      a smooth equation-of-state-like 51 x 23 (density x temperature)
 *                     pressure table on uniform axes (replaces the non-public Sesame
 *                     oxygen table of sec. 3.4) and normally distributed queries inside it.
 * Plain C (host only); everything returns 0 on success and fills caller-owned structs that
 * the matching *_free releases. */
#ifndef HASHMESH_GEN_H
#define HASHMESH_GEN_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/rng.h"

/* ---------- random numbers: splitmix64 from common/rng.h (one state word, passed explicitly) ---------- */
/* uniform integer in [0, k) (k >= 1; the modulo bias is below 2^-40 for k < 2^24) */
static inline long rng_below(uint64_t *s, long k) { return (long)(rng_splitmix64(s) % (uint64_t)k); }
/* standard normal (Box-Muller) */
static inline double rng_normal(uint64_t *s)
{
    double u1 = rng_unit(s), u2 = rng_unit(s);
    if (u1 < 1e-300) u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static inline void *gen_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "error: out of host memory (%.2f GiB)\n", bytes / 1073741824.0);
        exit(1);
    }
    return p;
}

/* ---------- 1D keys (sec. 3.1) ---------- */
typedef struct {
    long n;
    double *x;               /* the shuffled keys */
    double xmin, xmax, dmin; /* known by design: min, max and minimum gap (Listing 1) */
    long m;                  /* hash table size (max - min) / dmin + 1 (Listing 1, line 2) */
} keys1d;

/* Gaps dmin + (dmax - dmin) * u with u in [2^-20, 1]: above dmin by more than the rounding
 * of x up to 2^30 (exactly dmin when dmax = dmin: then x = k dmin exactly), so no two keys
 * share a bucket.  dmin should be a power of two
 * (2.0 in the paper) so that (x - min) / dmin is exact. */
static inline void keys1d_generate(keys1d *k, long n, double dmin, double dmax, uint64_t seed)
{
    uint64_t s = seed * 0x2545F4914F6CDD1Dull + 1;
    k->n = n;
    k->x = (double *)gen_alloc(sizeof(double) * (size_t)n);
    k->dmin = dmin;
    double x = 0.0, last = 0.0;
    for (long i = 0; i < n; i++) {
        k->x[i] = last = x;
        double u = rng_unit(&s);
        if (u < 1.0 / 1048576) u = 1.0 / 1048576;
        x += dmin + (dmax - dmin) * u;
    }
    k->xmin = 0.0;
    k->xmax = last;
    k->m = (long)((k->xmax - k->xmin) / dmin) + 1;
    for (long i = n - 1; i > 0; i--) { /* Fisher-Yates */
        long r = rng_below(&s, i + 1);
        double t = k->x[i];
        k->x[i] = k->x[r];
        k->x[r] = t;
    }
}
static inline void keys1d_free(keys1d *k) { free(k->x); k->x = NULL; }

/* Clustered 1D keys (non-uniform data, beyond the paper): gaps dmin * floor(u^(-1/alpha)), u uniform
 * in (0, 1] -- a Pareto (heavy-tailed) gap, >= dmin, mostly dmin or 2 dmin with rare huge
 * jumps; alpha <= 1 has no finite mean, so the span (max - min) and with it the perfect table
 * m = span / dmin + 1 grows faster than n.  Keys are integer multiples of dmin (exact doubles;
 * a gap is capped so that the span stays below 2^50 dmin).  Shuffled. */
#define KEYS_MAX_SPAN_LOG2 50
static inline void keys1d_clustered(keys1d *k, long n, double dmin, double alpha, uint64_t seed)
{
    uint64_t s = seed * 0x2545F4914F6CDD1Dull + 5;
    k->n = n;
    k->x = (double *)gen_alloc(sizeof(double) * (size_t)n);
    k->dmin = dmin;
    double cap = ldexp(1.0, KEYS_MAX_SPAN_LOG2) / (double)(n > 1 ? n : 1); /* per-gap cap, in units of dmin */
    double x = 0.0, last = 0.0;
    for (long i = 0; i < n; i++) {
        k->x[i] = last = x * dmin;
        double u = 1.0 - rng_unit(&s); /* (0, 1] */
        double g = floor(pow(u, -1.0 / alpha));
        if (g > cap) g = floor(cap);
        x += g < 1 ? 1 : g;
    }
    k->xmin = 0.0;
    k->xmax = last;
    k->m = (long)((k->xmax - k->xmin) / dmin) + 1;
    for (long i = n - 1; i > 0; i--) {
        long r = rng_below(&s, i + 1);
        double t = k->x[i];
        k->x[i] = k->x[r];
        k->x[r] = t;
    }
}

/* Keys at chosen buckets (tests of the partition boundaries): every bucket of the ranges
 * [lo[r], lo[r] + len[r]) holds one key 2 b (dmin 2, xmin 0, m = the top bucket + 1), shuffled. */
static inline void keys1d_ranges(keys1d *k, const long *lo, const long *len, int ranges, uint64_t seed)
{
    long n = 0;
    for (int r = 0; r < ranges; r++) n += len[r];
    k->n = n;
    k->x = (double *)gen_alloc(sizeof(double) * (size_t)n);
    k->dmin = 2.0;
    k->xmin = 0.0;
    long i = 0, top = 0;
    for (int r = 0; r < ranges; r++)
        for (long b = lo[r]; b < lo[r] + len[r]; b++) {
            k->x[i++] = 2.0 * (double)b;
            if (b > top) top = b;
        }
    k->xmax = 2.0 * (double)top;
    k->m = top + 1;
    uint64_t s = seed;
    for (long a = n - 1; a > 0; a--) {
        long r = rng_below(&s, a + 1);
        double t = k->x[a];
        k->x[a] = k->x[r];
        k->x[r] = t;
    }
}

/* ---------- 2D AMR mesh (sec. 3.1 and 3.2) ---------- */
typedef struct {
    int nx, ny, levmax; /* coarse cells in x and y, finest level */
    long n;             /* cells */
    int *i, *j, *lev;   /* each cell's coordinates at its own level, and its level */
} amr_mesh;

/* finest-level extent: (nx << levmax) x (ny << levmax) buckets (Listing 2, lines 4-5) */
static inline long amr_width(const amr_mesh *m) { return (long)m->nx << m->levmax; }
static inline long amr_height(const amr_mesh *m) { return (long)m->ny << m->levmax; }

static inline void amr_alloc(amr_mesh *m, long n)
{
    m->n = n;
    m->i = (int *)gen_alloc(sizeof(int) * (size_t)(n ? n : 1));
    m->j = (int *)gen_alloc(sizeof(int) * (size_t)(n ? n : 1));
    m->lev = (int *)gen_alloc(sizeof(int) * (size_t)(n ? n : 1));
}
static inline void amr_free(amr_mesh *m)
{
    free(m->i); free(m->j); free(m->lev);
    m->i = m->j = m->lev = NULL;
    m->n = 0;
}

static inline void amr_shuffle(amr_mesh *m, uint64_t *s)
{
    for (long c = m->n - 1; c > 0; c--) {
        long r = rng_below(s, c + 1), t;
        t = m->i[c]; m->i[c] = m->i[r]; m->i[r] = (int)t;
        t = m->j[c]; m->j[c] = m->j[r]; m->j[r] = (int)t;
        t = m->lev[c]; m->lev[c] = m->lev[r]; m->lev[r] = (int)t;
    }
}

/* Expected cells per coarse cell before smoothing, for sizing a mesh to a target n. */
static inline double amr_cells_per_coarse(int levmax, double frac)
{
    if (levmax == 0) return 1.0;
    double e = 0;
    for (int l = 1; l <= levmax; l++) e += pow(4.0, l) / levmax;
    return (1 - frac) + frac * e;
}

/* frac: probability that a coarse cell is refined (to a uniform random level in
 * [1, levmax]); then smoothing raises levels until face neighbours differ by <= 1. */
static inline void amr_generate(amr_mesh *m, int nx, int ny, int levmax, double frac, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 7;
    long nc = (long)nx * ny;
    int *L = (int *)gen_alloc(sizeof(int) * (size_t)nc);
    for (long c = 0; c < nc; c++)
        L[c] = (levmax > 0 && rng_unit(&s) < frac) ? 1 + (int)rng_below(&s, levmax) : 0;
    for (int changed = 1; changed;) { /* smoothing: raise a cell to (neighbour level - 1) */
        changed = 0;
        for (int cj = 0; cj < ny; cj++)
            for (int ci = 0; ci < nx; ci++) {
                long c = (long)cj * nx + ci;
                int need = L[c];
                if (ci > 0 && L[c - 1] - 1 > need) need = L[c - 1] - 1;
                if (ci < nx - 1 && L[c + 1] - 1 > need) need = L[c + 1] - 1;
                if (cj > 0 && L[c - nx] - 1 > need) need = L[c - nx] - 1;
                if (cj < ny - 1 && L[c + nx] - 1 > need) need = L[c + nx] - 1;
                if (need != L[c]) { L[c] = need; changed = 1; }
            }
    }
    long n = 0;
    for (long c = 0; c < nc; c++) n += 1L << (2 * L[c]);
    m->nx = nx; m->ny = ny; m->levmax = levmax;
    amr_alloc(m, n);
    long k = 0;
    for (int cj = 0; cj < ny; cj++)
        for (int ci = 0; ci < nx; ci++) {
            int l = L[(long)cj * nx + ci], r = 1 << l;
            for (int b = 0; b < r; b++)
                for (int a = 0; a < r; a++) {
                    m->i[k] = ci * r + a;
                    m->j[k] = cj * r + b;
                    m->lev[k] = l;
                    k++;
                }
        }
    free(L);
    amr_shuffle(m, &s);
}

/* A mesh refined towards one corner (where the perfect table blows up): a side x
 * side coarse mesh; a cell (i, j) at level l < levmax is refined when i^2 + j^2 < radius^2
 * (in level-l cells from the corner (0, 0)), so every level adds about (pi/4) radius^2 x 3
 * cells while the finest grid, and the perfect table, grows 4x per level.  radius >= 2 keeps
 * the mesh 2:1 balanced (a level-l region spans radius level-l cells, the next one half that).
 * Shuffled with `seed`. */
static inline void amr_corner_generate(amr_mesh *m, int side, int levmax, int radius, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 13;
    long r2 = (long)radius * radius, n = 0;
    /* count first: level l holds the children of the refined level l-1 cells */
    long refined = 0; /* refined cells at the previous level */
    for (int l = 0; l <= levmax; l++) {
        long cells = l == 0 ? (long)side * side : 4 * refined, ref = 0;
        long ext = l == 0 ? side : (long)side << l; /* level-l cells per row */
        if (l < levmax) /* refined cells at level l: i^2 + j^2 < r2 inside the domain */
            for (long j = 0; j < radius && j < ext; j++)
                for (long i = 0; i < radius && i < ext; i++) ref += i * i + j * j < r2;
        n += cells - ref;
        refined = ref;
    }
    m->nx = m->ny = side;
    m->levmax = levmax;
    amr_alloc(m, n);
    long k = 0;
    for (int l = 0; l <= levmax; l++) {
        long ext = (long)side << l;
        /* level-l cells that exist: inside the refined region of level l-1 (l > 0) or all (l = 0) */
        long jmax = l == 0 ? ext : 2L * radius < ext ? 2L * radius : ext;
        for (long j = 0; j < jmax; j++)
            for (long i = 0; i < (l == 0 ? ext : jmax); i++) {
                if (l > 0 && (i / 2) * (i / 2) + (j / 2) * (j / 2) >= r2) continue; /* parent not refined */
                if (l < levmax && i * i + j * j < r2) continue;                     /* refined further */
                m->i[k] = (int)i;
                m->j[k] = (int)j;
                m->lev[k] = l;
                k++;
            }
    }
    if (k != n) {
        fprintf(stderr, "error: amr_corner_generate counted %ld cells, made %ld\n", n, k);
        exit(1);
    }
    amr_shuffle(m, &s);
}

/* Coarse mesh side for about `target` cells (square coarse mesh). */
static inline int amr_side_for(long target, int levmax, double frac)
{
    double side = sqrt(target / amr_cells_per_coarse(levmax, frac));
    return side < 1 ? 1 : (int)(side + 0.5);
}

/* Validation: every cell inside the domain at its level, the cells cover the finest grid
 * exactly once (no overlap, no hole) and face neighbours differ by at most one level (2:1
 * balance; check_balance = 0 skips that).  Returns 0, or 1 with a reason in why. */
static inline int amr_validate(const amr_mesh *m, int check_balance, char *why, size_t whysize)
{
    long W = amr_width(m), H = amr_height(m);
    if (m->n < 1) { snprintf(why, whysize, "empty mesh"); return 1; }
    int *t = (int *)gen_alloc(sizeof(int) * (size_t)(W * H));
    memset(t, -1, sizeof(int) * (size_t)(W * H));
    int bad = 0;
    for (long c = 0; c < m->n && !bad; c++) {
        int l = m->lev[c];
        if (l < 0 || l > m->levmax || m->i[c] < 0 || m->j[c] < 0 || (long)m->i[c] >= ((long)m->nx << l) ||
            (long)m->j[c] >= ((long)m->ny << l)) {
            snprintf(why, whysize, "cell %ld (i %d, j %d, level %d) outside the domain", c, m->i[c], m->j[c], l);
            bad = 1;
            break;
        }
        long r = 1L << (m->levmax - l), x0 = m->i[c] * r, y0 = m->j[c] * r;
        for (long y = y0; y < y0 + r && !bad; y++)
            for (long x = x0; x < x0 + r; x++) {
                if (t[y * W + x] >= 0) {
                    snprintf(why, whysize, "cells %d and %ld overlap at finest (%ld, %ld)", t[y * W + x], c, x, y);
                    bad = 1;
                    break;
                }
                t[y * W + x] = (int)c;
            }
    }
    for (long b = 0; b < W * H && !bad; b++)
        if (t[b] < 0) {
            snprintf(why, whysize, "hole at finest (%ld, %ld)", b % W, b / W);
            bad = 1;
        }
    for (long c = 0; c < m->n && !bad && check_balance; c++) {
        int l = m->lev[c];
        long r = 1L << (m->levmax - l), x0 = m->i[c] * r, y0 = m->j[c] * r;
        for (long k = 0; k < r && !bad; k++) {
            long nb[4] = {x0 > 0 ? t[(y0 + k) * W + x0 - 1] : -1, x0 + r < W ? t[(y0 + k) * W + x0 + r] : -1,
                          y0 > 0 ? t[(y0 - 1) * W + x0 + k] : -1, y0 + r < H ? t[(y0 + r) * W + x0 + k] : -1};
            for (int f = 0; f < 4; f++)
                if (nb[f] >= 0 && abs(m->lev[nb[f]] - l) > 1) {
                    snprintf(why, whysize, "2:1 balance violated: cell %ld (level %d) touches cell %ld (level %d)",
                             c, l, nb[f], m->lev[nb[f]]);
                    bad = 1;
                }
        }
    }
    free(t);
    return bad;
}

/* ---------- 1D remap meshes (sec. 3.3, Listing 3 and 4) ---------- */
typedef struct {
    long n;
    int *lo, *hi; /* cell [lo, hi) in lattice units (bucket width 1) */
} mesh1d;

static inline void mesh1d_free(mesh1d *m) { free(m->lo); free(m->hi); m->lo = m->hi = NULL; }

/* Cells of integer width in [1, wmax] covering [0, L) (the last one cut to fit), shuffled.
 * L = 0: n cells, L becomes their total length. Returns L. */
static inline long mesh1d_generate(mesh1d *m, long n, long L, int wmax, uint64_t seed)
{
    uint64_t s = seed * 0xD1B54A32D192ED03ull + 3;
    long cap = L > 0 ? L : n;
    int *lo = (int *)gen_alloc(sizeof(int) * (size_t)cap), *hi = (int *)gen_alloc(sizeof(int) * (size_t)cap);
    long k = 0, x = 0;
    while (L > 0 ? x < L : k < n) {
        long w = 1 + rng_below(&s, wmax);
        if (L > 0 && x + w > L) w = L - x;
        lo[k] = (int)x;
        hi[k] = (int)(x + w);
        x += w;
        k++;
    }
    for (long c = k - 1; c > 0; c--) {
        long r = rng_below(&s, c + 1);
        int t = lo[c]; lo[c] = lo[r]; lo[r] = t;
        t = hi[c]; hi[c] = hi[r]; hi[r] = t;
    }
    m->n = k;
    m->lo = lo;
    m->hi = hi;
    return x;
}

/* A field to transfer: per old cell its mean and slope (a piecewise-linear reconstruction;
 * slope 0 everywhere is the paper's piecewise-constant Listing 3). */
typedef struct {
    double *mean, *gx, *gy; /* gy only in 2D */
} field;

static inline void field_free(field *f) { free(f->mean); free(f->gx); free(f->gy); f->mean = f->gx = f->gy = NULL; }

/* f(x) = a + b x + c sin(2 pi x / period): mean over [lo, hi) exact, slope at the centre. */
static inline void field1d_make(field *f, const mesh1d *m, double a, double b, double c, double period)
{
    f->mean = (double *)gen_alloc(sizeof(double) * (size_t)m->n);
    f->gx = (double *)gen_alloc(sizeof(double) * (size_t)m->n);
    f->gy = NULL;
    double w = 6.283185307179586 / period;
    for (long k = 0; k < m->n; k++) {
        double x0 = m->lo[k], x1 = m->hi[k], xc = 0.5 * (x0 + x1);
        double s = c != 0 ? c * (cos(w * x0) - cos(w * x1)) / (w * (x1 - x0)) : 0;
        f->mean[k] = a + b * xc + s;
        f->gx[k] = b + c * w * cos(w * xc);
    }
}

/* f(x, y) = a + bx x + by y + c sin(2 pi x / P) sin(2 pi y / P) on an AMR mesh (finest units). */
static inline void field2d_make(field *f, const amr_mesh *m, double a, double bx, double by, double c, double period)
{
    f->mean = (double *)gen_alloc(sizeof(double) * (size_t)m->n);
    f->gx = (double *)gen_alloc(sizeof(double) * (size_t)m->n);
    f->gy = (double *)gen_alloc(sizeof(double) * (size_t)m->n);
    double w = 6.283185307179586 / period;
    for (long k = 0; k < m->n; k++) {
        double r = (double)(1L << (m->levmax - m->lev[k]));
        double x0 = m->i[k] * r, y0 = m->j[k] * r, x1 = x0 + r, y1 = y0 + r;
        double xc = x0 + 0.5 * r, yc = y0 + 0.5 * r;
        double sx = (cos(w * x0) - cos(w * x1)) / (w * r), sy = (cos(w * y0) - cos(w * y1)) / (w * r);
        f->mean[k] = a + bx * xc + by * yc + c * sx * sy;
        f->gx[k] = bx + c * w * cos(w * xc) * sin(w * yc);
        f->gy[k] = by + c * w * sin(w * xc) * cos(w * yc);
    }
}

/* ---------- EOS-like table (sec. 3.4) ---------- */
#define EOS_NRHO 51 /* density axis points (Listing 5: density_axis[50]) */
#define EOS_NT 23   /* temperature axis points (Listing 5: temp_axis[22]) */
typedef struct {
    double rho[EOS_NRHO], temp[EOS_NT];
    double p[EOS_NT * EOS_NRHO]; /* p[jt * EOS_NRHO + ir]: xstride = EOS_NRHO (Listing 5) */
} eos_table;

/* Pressure of a stiffened ideal gas with a cold curve: smooth, monotone, EOS-like:
 * p = rho R T + K ((rho/rho0)^gamma - 1) with R = 0.26 (O2-like), K = 1, gamma = 3, rho0 = 1.14.
 * Uniform axes: rho in [0.1, 5.1] g/cc, T in [200, 4600] K (Listing 5 uses uniform intervals). */
static inline double eos_pressure(double rho, double T)
{
    double q = rho / 1.14;
    return rho * 0.26 * T + (q * q * q - 1.0);
}
static inline void eos_generate(eos_table *t)
{
    for (int i = 0; i < EOS_NRHO; i++) t->rho[i] = 0.1 + 0.1 * i;
    for (int j = 0; j < EOS_NT; j++) t->temp[j] = 200.0 + 200.0 * j;
    for (int j = 0; j < EOS_NT; j++)
        for (int i = 0; i < EOS_NRHO; i++) t->p[j * EOS_NRHO + i] = eos_pressure(t->rho[i], t->temp[j]);
}
/* Queries normally distributed around the table centre (sd = range / 6), redrawn until
 * inside [axis[0], axis[last]) so that most interpolations are in the middle (sec. 3.4). */
static inline void eos_queries(const eos_table *t, long nq, double *rho, double *temp, uint64_t seed)
{
    uint64_t s = seed * 0xA0761D6478BD642Full + 11;
    double r0 = t->rho[0], r1 = t->rho[EOS_NRHO - 1], t0 = t->temp[0], t1 = t->temp[EOS_NT - 1];
    for (long q = 0; q < nq; q++) {
        double r, T;
        do r = 0.5 * (r0 + r1) + (r1 - r0) / 6 * rng_normal(&s); while (!(r >= r0 && r < r1));
        do T = 0.5 * (t0 + t1) + (t1 - t0) / 6 * rng_normal(&s); while (!(T >= t0 && T < t1));
        rho[q] = r;
        temp[q] = T;
    }
}

#endif
