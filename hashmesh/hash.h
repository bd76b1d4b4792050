/* hash.h -- the paper's perfect spatial hash, as HD functions (host and device), and the
 * CPU hash algorithms built from them (Robey, Nicholaeff, Robey, "Hash-based algorithms for
 * discretized data", sec. 2.3 and 3).  Plain C under cc; the GPU kernels (kernels.cuh) call
 * the same HD functions, which is why GPU and CPU hash results are bit-identical for the
 * sorts and neighbours (and for remap / table up to the order of the same floating-point
 * operations, i.e. FMA contraction).
 *
 * Conventions: a hash table is an int array, -1 = empty bucket (Listing 1, line 5).
 * 2D tables are row-major at the finest level: bucket (x, y) is t[y * W + x] (W = nx << levmax).
 * CPU functions are serial, like the paper's CPU reference codes; tables are caller-owned
 * (allocated once, outside the timed region; clearing them is part of every call). */
#ifndef HASHMESH_HASH_H
#define HASHMESH_HASH_H

#include <stdlib.h>
#include <string.h>
#include "../common/hd.h"

/* eq. (2.13): b_k = floor((X_i - min X) / dmin); keys are >= min, so truncation = floor. */
static inline HD long hash_bucket1d(double x, double xmin, double dmin)
{
    return (long)((x - xmin) / dmin);
}

/* sec. 3.1, 2D sort key h = i + j * w at the finest level (lower-left finest cell). */
static inline HD long hash_key2d(int i, int j, int lev, int levmax, long w)
{
    int sh = levmax - lev;
    return ((long)j << sh) * w + ((long)i << sh);
}

/* 1D neighbour read (sec. 3.2, "single write, multiple reads"): walk left and right from
 * bucket b to the first non-empty bucket; at the ends of the table the key itself. */
static inline HD void hash_neigh1d_read(const int *t, long m, long b, int self, int *left, int *right)
{
    long k = b - 1;
    while (k >= 0 && t[k] < 0) k--;
    *left = k >= 0 ? t[k] : self;
    k = b + 1;
    while (k < m && t[k] < 0) k++;
    *right = k < m ? t[k] : self;
}

/* 2D neighbour probes (Listing 2, lines 28-34): the finest bucket (x[f], y[f]) just across
 * face f (left, right, bottom, top) at the cell's lower-left end; clamped at the domain edge,
 * where it is the cell itself.  Shared with the distributed code (mesh_partition.h: local tables). */
static inline HD void hash_neigh2d_probe(long W, long H, int i, int j, int lev, int levmax, long x[4], long y[4])
{
    long levmult = 1L << (levmax - lev);
    long ii = (long)i * levmult, jj = (long)j * levmult;
    x[0] = ii - 1 > 0 ? ii - 1 : 0;                     y[0] = jj;
    x[1] = ii + levmult < W - 1 ? ii + levmult : W - 1; y[1] = jj;
    x[2] = ii;                                          y[2] = jj - 1 > 0 ? jj - 1 : 0;
    x[3] = ii;                                          y[3] = jj + levmult < H - 1 ? jj + levmult : H - 1;
}

/* 2D neighbour read (Listing 2): the cell in each probed bucket of the W x H table. */
static inline HD void hash_neigh2d_read(const int *t, long W, long H, int i, int j, int lev, int levmax,
                                        int *left, int *right, int *bottom, int *top)
{
    long x[4], y[4];
    hash_neigh2d_probe(W, H, i, j, lev, levmax, x, y);
    *left = t[y[0] * W + x[0]];
    *right = t[y[1] * W + x[1]];
    *bottom = t[y[2] * W + x[2]];
    *top = t[y[3] * W + x[3]];
}

/* Remap (sec. 3.3, Listing 3) with a linear reconstruction: what one unit bucket centred at
 * (xb, yb) receives from an old cell of mean `mean`, slope (gx, gy) and centre (cx, cy).
 * The midpoint rule is exact for a linear function on a bucket, so summing buckets gives
 * the exact integral of the reconstruction; slope 0 is the paper's piecewise-constant
 * original_values / width of Listing 3, line 20. */
static inline HD double remap_bucket(double mean, double gx, double gy, double xb, double yb, double cx, double cy)
{
    return mean + gx * (xb - cx) + gy * (yb - cy);
}

/* ---------- table look-up (sec. 3.4, Listing 5) ---------- */
/* hash: direct index arithmetic on a uniform axis (Listing 5, lines 2-3 and 8-9), clamped so
 * that slot + 1 exists. */
static inline HD int tab_slot_hash(double x, double a0, double inc, int n)
{
    int s = (int)((x - a0) / inc);
    return s < 0 ? 0 : s > n - 2 ? n - 2 : s;
}
/* linear search from the start of the axis ("brute force" of sec. 3.4) */
static inline HD int tab_slot_linear(double x, const double *axis, int n)
{
    int k = 0;
    while (k < n - 2 && axis[k + 1] <= x) k++;
    return k;
}
/* bisection (Numerical Recipes' locate, sec. 3.4) */
static inline HD int tab_slot_bisect(double x, const double *axis, int n)
{
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) >> 1;
        if (axis[mid] <= x) lo = mid;
        else hi = mid;
    }
    return lo;
}
/* bilinear interpolation (Listing 5, lines 10-19); data[js * xstride + is] */
static inline HD double tab_bilinear(const double *data, int xstride, const double *xaxis, const double *yaxis,
                                     int is, int js, double x, double y)
{
    double xf = (x - xaxis[is]) / (xaxis[is + 1] - xaxis[is]);
    double yf = (y - yaxis[js]) / (yaxis[js + 1] - yaxis[js]);
    return xf * yf * data[is + 1 + (js + 1) * xstride] + (1.0 - xf) * yf * data[is + (js + 1) * xstride] +
           xf * (1.0 - yf) * data[is + 1 + js * xstride] + (1.0 - xf) * (1.0 - yf) * data[is + js * xstride];
}

/* ================= CPU hash algorithms (serial, host only) ================= */

/* 1D hash sort, Listing 1: idx[] (length n) receives the original indices in key order;
 * sorted[] (may be NULL) the keys. t has m = (max - min) / dmin + 1 entries. Returns count. */
static inline long hash_sort1d_cpu(const double *x, long n, double xmin, double dmin, int *t, long m,
                                   int *idx, double *sorted)
{
    memset(t, -1, sizeof(int) * (size_t)m);
    for (long i = 0; i < n; i++) t[hash_bucket1d(x[i], xmin, dmin)] = (int)i;
    long count = 0;
    for (long b = 0; b < m; b++)
        if (t[b] >= 0) {
            idx[count] = t[b];
            if (sorted) sorted[count] = x[t[b]];
            count++;
        }
    return count;
}

/* 2D hash sort (sec. 3.1): lexicographic (j, i) order at the finest level; t has W * H. */
static inline long hash_sort2d_cpu(const int *ci, const int *cj, const int *lev, long n, int levmax, long W,
                                   long H, int *t, int *idx)
{
    memset(t, -1, sizeof(int) * (size_t)(W * H));
    for (long c = 0; c < n; c++) t[hash_key2d(ci[c], cj[c], lev[c], levmax, W)] = (int)c;
    long count = 0;
    for (long b = 0; b < W * H; b++)
        if (t[b] >= 0) idx[count++] = t[b];
    return count;
}

/* 1D neighbours: single write, multiple reads (sec. 3.2). left/right: index of the next
 * smaller / larger key (the key itself at the ends). */
static inline void hash_neigh1d_cpu(const double *x, long n, double xmin, double dmin, int *t, long m, int *left,
                                    int *right)
{
    memset(t, -1, sizeof(int) * (size_t)m);
    for (long i = 0; i < n; i++) t[hash_bucket1d(x[i], xmin, dmin)] = (int)i;
    for (long i = 0; i < n; i++) hash_neigh1d_read(t, m, hash_bucket1d(x[i], xmin, dmin), (int)i, &left[i], &right[i]);
}

/* 2D write phase of Listing 2 (lines 12-24): every cell writes all finest buckets it covers. */
static inline void hash_write2d_cpu(const int *ci, const int *cj, const int *lev, long n, int levmax, long W, int *t)
{
    for (long c = 0; c < n; c++) {
        long r = 1L << (levmax - lev[c]), x0 = (long)ci[c] * r, y0 = (long)cj[c] * r;
        if (r == 1) t[y0 * W + x0] = (int)c; /* maximally refined: a single bucket */
        else
            for (long y = y0; y < y0 + r; y++)
                for (long x = x0; x < x0 + r; x++) t[y * W + x] = (int)c;
    }
}

/* 2D neighbours, Listing 2: multiple writes, single read per face. nb[4 * c + f] with
 * f = 0 left, 1 right, 2 bottom, 3 top. */
static inline void hash_neigh2d_cpu(const int *ci, const int *cj, const int *lev, long n, int levmax, long W, long H,
                                    int *t, int *nb)
{
    memset(t, -1, sizeof(int) * (size_t)(W * H));
    hash_write2d_cpu(ci, cj, lev, n, levmax, W, t);
    for (long c = 0; c < n; c++)
        hash_neigh2d_read(t, W, H, ci[c], cj[c], lev[c], levmax, &nb[4 * c], &nb[4 * c + 1], &nb[4 * c + 2],
                          &nb[4 * c + 3]);
}

/* Listing 3, read side, for one new cell covering the unit buckets [lo, hi): the sum of what
 * the old cells wrote into them (remap_bucket: the old cell's mass over each bucket) */
static inline double remap1d_gather(const int *t, long lo, long hi, const int *olo, const int *ohi, const double *mean,
                                    const double *gx)
{
    double s = 0;
    for (long k = lo; k < hi; k++) {
        int a = t[k];
        if (a >= 0) s += remap_bucket(mean[a], gx[a], 0, k + 0.5, 0, 0.5 * (olo[a] + ohi[a]), 0);
    }
    return s;
}
/* 1D remap, Listing 3 (multiple write, multiple read): old cells write their index into
 * every unit bucket of [lo, hi); each new cell sums what its buckets receive.  out[b] is
 * the integral (mass) over new cell b; t has L entries (the domain length). */
static inline void hash_remap1d_cpu(const int *olo, const int *ohi, long na, const double *mean, const double *gx,
                                    const int *nlo, const int *nhi, long nb, int *t, long L, double *out)
{
    memset(t, -1, sizeof(int) * (size_t)L);
    for (long a = 0; a < na; a++)
        for (long k = olo[a]; k < ohi[a]; k++) t[k] = (int)a;
    for (long b = 0; b < nb; b++) out[b] = remap1d_gather(t, nlo[b], nhi[b], olo, ohi, mean, gx);
}

/* 2D remap (sec. 3.3): the same on the finest level of two AMR meshes over one domain. */
/* Listing 3, read side, for one new cell b: the sum over the finest-level buckets b covers
 * of the old cell's field found in each (multiple reads).  Shared by the CPU loop below and
 * the GPU kernel k_remap2d_read (one thread per new cell). */
static inline HD double remap2d_gather(long b, const int *oi, const int *oj, const int *ol, const double *mean,
                                       const double *gx, const double *gy, const int *ni, const int *nj,
                                       const int *nl, int levmax, long W, const int *t)
{
    long r = 1L << (levmax - nl[b]), x0 = (long)ni[b] * r, y0 = (long)nj[b] * r;
    double s = 0;
    for (long y = y0; y < y0 + r; y++)
        for (long x = x0; x < x0 + r; x++) {
            int a = t[y * W + x];
            if (a < 0) continue;
            double ra = (double)(1L << (levmax - ol[a]));
            s += remap_bucket(mean[a], gx[a], gy[a], x + 0.5, y + 0.5, (oi[a] + 0.5) * ra, (oj[a] + 0.5) * ra);
        }
    return s;
}

static inline void hash_remap2d_cpu(const int *oi, const int *oj, const int *ol, long na, const double *mean,
                                    const double *gx, const double *gy, const int *ni, const int *nj, const int *nl,
                                    long nb, int levmax, long W, long H, int *t, double *out)
{
    memset(t, -1, sizeof(int) * (size_t)(W * H));
    hash_write2d_cpu(oi, oj, ol, na, levmax, W, t);
    for (long b = 0; b < nb; b++) out[b] = remap2d_gather(b, oi, oj, ol, mean, gx, gy, ni, nj, nl, levmax, W, t);
}

/* Table look-up of nq (rho, T) queries; method 0 hash, 1 linear search, 2 bisection. */
enum { TAB_HASH = 0, TAB_LINEAR = 1, TAB_BISECT = 2 };
static inline void table_lookup_cpu(int method, const double *data, const double *xaxis, int nx,
                                    const double *yaxis, int ny, const double *qx, const double *qy, long nq,
                                    double *out)
{
    double xinc = (xaxis[nx - 1] - xaxis[0]) / (nx - 1), yinc = (yaxis[ny - 1] - yaxis[0]) / (ny - 1);
    for (long q = 0; q < nq; q++) {
        int is, js;
        if (method == TAB_HASH) {
            is = tab_slot_hash(qx[q], xaxis[0], xinc, nx);
            js = tab_slot_hash(qy[q], yaxis[0], yinc, ny);
        } else if (method == TAB_LINEAR) {
            is = tab_slot_linear(qx[q], xaxis, nx);
            js = tab_slot_linear(qy[q], yaxis, ny);
        } else {
            is = tab_slot_bisect(qx[q], xaxis, nx);
            js = tab_slot_bisect(qy[q], yaxis, ny);
        }
        out[q] = tab_bilinear(data, nx, xaxis, yaxis, is, js, qx[q], qy[q]);
    }
}

#endif
