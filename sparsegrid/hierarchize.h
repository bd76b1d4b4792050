/* sparsegrid/hierarchize.h -- hierarchization (multi-level splitting) of full grids.
 *
 * Thesis: "Multi-level splitting of full grids on the GPU" (chapters 2, 4, 5); the
 * unidirectional principle of Bungartz & Griebel, Buse/Pflueger/Jacob.
 *
 * A tile is a full grid with n_k = 2^l_k + 1 points in dimension k (boundary included),
 * fp32, dimension 0 fastest; tiles lie contiguously one after another.
 *
 * 1D (thesis section 2.3.1, Algorithm 1): the point i (0 < i < 2^l) lies on level
 * lev = l - ctz(i); its hierarchical neighbours are i - h and i + h with h = 2^ctz(i);
 *     surplus  c_i = u_i - 0.5 (u_{i-h} + u_{i+h})          (hierarchization)
 *     value    u_i = c_i + 0.5 (u_{i-h} + u_{i+h})          (dehierarchization)
 * The boundary points (i = 0, 2^l; "level 0") keep their values.  Hierarchization in
 * place goes finest level first, so that every surplus is computed from nodal values;
 * dehierarchization goes coarsest level first, so the neighbours are nodal again.
 * d dimensions (section 2.3.2): the 1D transform along dimension 0, then 1, ..., d-1
 * (the 1D operators of different dimensions commute; every implementation here uses the
 * same order 0..d-1 in both directions so that all float results agree bitwise).
 *
 * Every implementation computes each value with the same two operations
 * sg_surplus()/sg_unsurplus() in fp32; 0.5f * s is exact, so a fused multiply-add
 * (nvcc, -march=native) gives the same bits as separate operations: the CPU and GPU
 * results are compared bitwise.
 *
 * Contents: geometry and --dims parsing, the scalar references (double and float), the
 * tuned CPU version ("version A", OpenMP over tiles, line blocking), the point codes of
 * the fused GPU kernel, the work items / slices of the thesis-style GPU kernel
 * ("version B", section 4.3), and sparse-grid truncation / evaluation for the error
 * figure.  Plain C: host tests compile it with cc. */
#ifndef SPARSEGRID_HIERARCHIZE_H
#define SPARSEGRID_HIERARCHIZE_H

#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/hd.h"

#define SG_MAXD 4         /* dimensions supported by every implementation */
#define SG_MAX_LEVEL 20   /* n_k = 2^l_k + 1 <= 1048577 */
#define SG_MAX_TILE (1LL << 31) /* points per tile: 32-bit indices inside a tile */
#define SG_LB 16          /* version A: lines blocked together in dimension 0 (AVX-512 width: SG_CPU_TARGETS) */

typedef struct {
    int d;                       /* dimensions, 1..SG_MAXD */
    int n[SG_MAXD];              /* points per dimension, 2^l + 1 */
    int l[SG_MAXD];              /* levels */
    long long stride[SG_MAXD];   /* element stride of dimension k (dimension 0: 1) */
    long long size;              /* points per tile */
} sg_geom;

/* ---------------------------------------------------------------- the paper's formulas */

/* Surplus of a point from its nodal value and its hierarchical neighbours' (thesis 2.3.1:
 * c_i = u_i - 0.5 (u_l + u_r)). */
static inline HD float sg_surplus(float u, float ul, float ur) { return u - 0.5f * (ul + ur); }
/* Its inverse (dehierarchization): u_i = c_i + 0.5 (u_l + u_r). */
static inline HD float sg_unsurplus(float c, float ul, float ur) { return c + 0.5f * (ul + ur); }
static inline HD double sg_surplus_d(double u, double ul, double ur) { return u - 0.5 * (ul + ur); }
static inline HD double sg_unsurplus_d(double c, double ul, double ur) { return c + 0.5 * (ul + ur); }

/* Number of trailing zero bits of i > 0. */
/* Line numbering of the fused line kernels: line ln of a dimension with stride stk is
 * (q, r) = (ln / stk, ln % stk).  A thread visits lines first, first + step, ...; instead
 * of dividing for each line it starts with one division and steps q and r (r stays in
 * [0, stk): step = dq * stk + dr with dr < stk, so one carry suffices). */
typedef struct {
    int q, r;   /* ln / stk, ln % stk */
    int dq, dr; /* step / stk, step % stk */
} sg_line_pos;
static inline HD sg_line_pos sg_line_first(int first, int step, int stk)
{
    sg_line_pos p;
    p.q = first / stk;
    p.r = first % stk;
    p.dq = step / stk;
    p.dr = step % stk;
    return p;
}
static inline HD void sg_line_step(sg_line_pos *p, int stk)
{
    p->q += p->dq;
    p->r += p->dr;
    if (p->r >= stk) { p->r -= stk; p->q++; }
}

static inline HD int sg_ctz(long long i)
{
    int z = 0;
    while (!(i & 1)) { i >>= 1; z++; }
    return z;
}

/* Level of point i of a 1D grid of level l: 0 on the boundary, else l - ctz(i). */
static inline HD int sg_point_level(long long i, int l)
{
    if (i == 0 || i == (1LL << l)) return 0;
    return l - sg_ctz(i);
}

/* l with n == 2^l + 1 and 0 <= l <= SG_MAX_LEVEL, or -1. */
static inline int sg_level_of(long long n)
{
    for (int l = 0; l <= SG_MAX_LEVEL; l++)
        if (n == (1LL << l) + 1) return l;
    return -1;
}

/* Fills strides and size from d and n[]; returns 0, or -1 (message in err) when a size is
 * not 2^l + 1 or the tile exceeds SG_MAX_TILE points. */
static inline int sg_geom_init(sg_geom *g, int d, const int *n, char *err, size_t errsz)
{
    memset(g, 0, sizeof *g);
    if (d < 1 || d > SG_MAXD) {
        snprintf(err, errsz, "%d dimensions: 1 to %d are supported", d, SG_MAXD);
        return -1;
    }
    g->d = d;
    g->size = 1;
    for (int k = 0; k < d; k++) {
        g->n[k] = n[k];
        g->l[k] = sg_level_of(n[k]);
        if (g->l[k] < 0) {
            snprintf(err, errsz, "size %d of dimension %d is not 2^l + 1 (3, 5, 9, 17, 33, ...; at most 2^%d + 1)",
                     n[k], k, SG_MAX_LEVEL);
            return -1;
        }
        g->stride[k] = g->size;
        g->size *= n[k];
        if (g->size > SG_MAX_TILE) {
            snprintf(err, errsz, "tile of more than 2^31 points");
            return -1;
        }
    }
    for (int k = d; k < SG_MAXD; k++) { g->n[k] = 1; g->l[k] = -1; g->stride[k] = g->size; }
    return 0;
}

/* Splits "N0xN1x..." into at most maxd sizes n[]; returns the number of sizes, or -1 with a
 * message in err (malformed, too many dimensions, a size beyond 2^SG_MAX_LEVEL + 1).  Whether
 * each size is 2^l + 1 is the caller's check (sg_geom_init, sg_level_of). */
static inline int sg_parse_sizes(const char *s, int *n, int maxd, char *err, size_t errsz)
{
    int d = 0;
    const char *p = s;
    if (!s || !*s) { snprintf(err, errsz, "empty --dims"); return -1; }
    for (;;) {
        char *end;
        if (*p < '0' || *p > '9') { snprintf(err, errsz, "malformed --dims '%s' (want e.g. 33x33 or 9x9x5x5)", s); return -1; }
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (d == maxd) { snprintf(err, errsz, "--dims '%s': at most %d dimensions", s, maxd); return -1; }
        if (errno == ERANGE || v > (1LL << SG_MAX_LEVEL) + 1) {
            snprintf(err, errsz, "size %.*s of dimension %d is too large (at most 2^%d + 1)", (int)(end - p), p, d, SG_MAX_LEVEL);
            return -1;
        }
        n[d++] = (int)v;
        if (*end == '\0') break;
        if (*end != 'x') { snprintf(err, errsz, "malformed --dims '%s' (want e.g. 33x33 or 9x9x5x5)", s); return -1; }
        p = end + 1;
    }
    return d;
}

/* Parses "N0xN1x..." (e.g. 9x9x5x5, at most SG_MAXD sizes); returns 0, or -1 with a message in err. */
static inline int sg_parse_dims(const char *s, sg_geom *g, char *err, size_t errsz)
{
    int n[SG_MAXD], d = sg_parse_sizes(s, n, SG_MAXD, err, errsz);
    return d < 0 ? -1 : sg_geom_init(g, d, n, err, errsz);
}

/* ------------------------------------------------------------- scalar references */

/* 1D transform, in place, of the line u[0], u[stride], ..., u[2^l stride] (Algorithm 1). */
static inline void sg_line_d(double *u, long long stride, int l, int inverse)
{
    for (int s = 0; s < l; s++) {
        int lev = inverse ? s + 1 : l - s;         /* hierarchize finest first */
        long long h = 1LL << (l - lev);            /* distance to the hierarchical neighbours */
        for (long long i = h; i < (1LL << l); i += 2 * h) {
            double *x = u + i * stride;
            *x = inverse ? sg_unsurplus_d(*x, x[-h * stride], x[h * stride])
                         : sg_surplus_d(*x, x[-h * stride], x[h * stride]);
        }
    }
}
static inline void sg_line_f(float *u, long long stride, int l, int inverse)
{
    for (int s = 0; s < l; s++) {
        int lev = inverse ? s + 1 : l - s;
        long long h = 1LL << (l - lev);
        for (long long i = h; i < (1LL << l); i += 2 * h) {
            float *x = u + i * stride;
            *x = inverse ? sg_unsurplus(*x, x[-h * stride], x[h * stride])
                         : sg_surplus(*x, x[-h * stride], x[h * stride]);
        }
    }
}

/* The transform of one dimension k of a tile: every line along k. */
static inline void sg_ref_dim_d(double *u, const sg_geom *g, int k, int inverse)
{
    long long inner = g->stride[k], len = g->n[k] * inner;
    for (long long o = 0; o < g->size; o += len)
        for (long long x = 0; x < inner; x++) sg_line_d(u + o + x, inner, g->l[k], inverse);
}
static inline void sg_ref_dim_f(float *u, const sg_geom *g, int k, int inverse)
{
    long long inner = g->stride[k], len = g->n[k] * inner;
    for (long long o = 0; o < g->size; o += len)
        for (long long x = 0; x < inner; x++) sg_line_f(u + o + x, inner, g->l[k], inverse);
}

/* The CPU reference in double: one tile, all dimensions 0..d-1 (unidirectional principle). */
static inline void sg_ref_tile_d(double *u, const sg_geom *g, int inverse)
{
    for (int k = 0; k < g->d; k++) sg_ref_dim_d(u, g, k, inverse);
}
/* The same in float: the bitwise reference of every fp32 implementation. */
static inline void sg_ref_tile_f(float *u, const sg_geom *g, int inverse)
{
    for (int k = 0; k < g->d; k++) sg_ref_dim_f(u, g, k, inverse);
}

/* The tuned CPU code (version A, the sparse-grid CPU versions) is compiled for three vector
 * widths (GCC function multi-versioning: one clone per target, the loader's resolver picks
 * the widest the CPU supports, the default clone is the SSE2 fallback), so the binary really
 * holds AVX-512 code without building everything with -march; sg_cpu_isa() names the one used.
 * SG_INLINE forces the helpers into each clone. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define SG_CPU_TARGETS __attribute__((target_clones("avx512f", "avx2", "default")))
#define SG_INLINE static inline __attribute__((always_inline)) /* compiled inside each clone */
#define SG_HAVE_CLONES 1
#else
#define SG_CPU_TARGETS
#define SG_INLINE static inline
#define SG_HAVE_CLONES 0
#endif
static inline const char *sg_cpu_isa(void)
{
#if SG_HAVE_CLONES
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return "avx512f clone (16 floats / 8 doubles per vector)";
    if (__builtin_cpu_supports("avx2")) return "avx2 clone (8 floats / 4 doubles per vector)";
    return "default clone (SSE2, 4 floats / 2 doubles per vector)";
#else
    return "one build (no function multi-versioning on this compiler)";
#endif
}

/* ------------------------------------------------ version A: tuned CPU (thesis 5.1) */

/* Dimension 0 of one tile with line blocking: SG_LB neighbouring lines are transposed into
 * buf (n0 x SG_LB), the 1D scheme runs on vectors of SG_LB lines, and they go back; this is
 * the role of the thesis's dimensional shift (section 2.3.2). */
SG_INLINE void sg_tuned_dim0(float *u, const sg_geom *g, int inverse, float *buf)
{
    int n = g->n[0], l = g->l[0];
    long long lines = g->size / n;
    for (long long L0 = 0; L0 < lines; L0 += SG_LB) {
        int nb = lines - L0 < SG_LB ? (int)(lines - L0) : SG_LB;
        float *t = u + L0 * n;
        for (int b = 0; b < nb; b++)
            for (int i = 0; i < n; i++) buf[i * SG_LB + b] = t[b * n + i];
        for (int s = 0; s < l; s++) {
            int lev = inverse ? s + 1 : l - s;
            int h = 1 << (l - lev);
            for (int i = h; i < n - 1; i += 2 * h) {
                float *x = buf + i * SG_LB, *xl = x - h * SG_LB, *xr = x + h * SG_LB;
                if (inverse) {
#pragma omp simd
                    for (int b = 0; b < SG_LB; b++) x[b] = sg_unsurplus(x[b], xl[b], xr[b]);
                } else {
#pragma omp simd
                    for (int b = 0; b < SG_LB; b++) x[b] = sg_surplus(x[b], xl[b], xr[b]);
                }
            }
        }
        for (int b = 0; b < nb; b++)
            for (int i = 0; i < n; i++) t[b * n + i] = buf[i * SG_LB + b];
    }
}

/* Dimension k >= 1: the lines along k that are neighbours in the lower dimensions are
 * contiguous rows of stride[k] floats, so the stencil runs on whole rows (vectorized). */
SG_INLINE void sg_tuned_dimk(float *u, const sg_geom *g, int k, int inverse)
{
    long long inner = g->stride[k], len = g->n[k] * inner;
    int l = g->l[k];
    for (long long o = 0; o < g->size; o += len)
        for (int s = 0; s < l; s++) {
            int lev = inverse ? s + 1 : l - s;
            long long h = 1LL << (l - lev);
            for (long long i = h; i < g->n[k] - 1; i += 2 * h) {
                float *x = u + o + i * inner, *xl = x - h * inner, *xr = x + h * inner;
                if (inverse) {
#pragma omp simd
                    for (long long b = 0; b < inner; b++) x[b] = sg_unsurplus(x[b], xl[b], xr[b]);
                } else {
#pragma omp simd
                    for (long long b = 0; b < inner; b++) x[b] = sg_surplus(x[b], xl[b], xr[b]);
                }
            }
        }
}

/* One tile in place, all dimensions, by the calling thread (data stays cached). */
SG_CPU_TARGETS static void sg_tuned_tile(float *u, const sg_geom *g, int inverse, float *buf)
{
    if (g->l[0] > 0) {
        if (g->d == 1) sg_line_f(u, 1, g->l[0], inverse); /* one line: nothing to block */
        else sg_tuned_dim0(u, g, inverse, buf);
    }
    for (int k = 1; k < g->d; k++)
        if (g->l[k] > 0) sg_tuned_dimk(u, g, k, inverse);
}

/* Version A: nt tiles src -> dst (dst may equal src), OpenMP over tiles with nthreads
 * threads (at least 1).  Returns 0, or -1 when out of memory. */
static inline int sg_cpu_tuned(const float *src, float *dst, long long nt, const sg_geom *g,
                               int inverse, int nthreads)
{
    int fail = 0;
    if (nthreads < 1) nthreads = 1;
#pragma omp parallel num_threads(nthreads) reduction(| : fail)
    {
        float *buf = (float *)malloc(sizeof(float) * (size_t)g->n[0] * SG_LB);
        if (!buf) fail = 1;
        else {
#pragma omp for schedule(static)
            for (long long t = 0; t < nt; t++) {
                float *u = dst + t * g->size;
                if (src != dst) memcpy(u, src + t * g->size, sizeof(float) * (size_t)g->size);
                sg_tuned_tile(u, g, inverse, buf);
            }
        }
        free(buf);
    }
    return fail ? -1 : 0;
}

/* --------------------------------------------------- the fused GPU kernel's point codes */

#define SG_CODE_BOUNDARY 0xFFu /* the point does not change in this dimension */

/* code[r] of point r of a tile: byte k = log2 of the distance h to its hierarchical
 * neighbours in dimension k (ctz of its index), or SG_CODE_BOUNDARY on the boundary.
 * The kernels thereby need no integer division per point. */
static inline void sg_codes(const sg_geom *g, uint32_t *code)
{
    for (long long r = 0; r < g->size; r++) {
        uint32_t c = 0xFFFFFFFFu;
        for (int k = 0; k < g->d; k++) {
            long long i = (r / g->stride[k]) % g->n[k];
            uint32_t b = (i == 0 || i == g->n[k] - 1) ? SG_CODE_BOUNDARY : (uint32_t)sg_ctz(i);
            c = (c & ~(0xFFu << (8 * k))) | (b << (8 * k));
        }
        code[r] = c;
    }
}

/* ------------------------------------- version B: work items and slices (thesis 4.3) */

/* Thesis section 4.3: in the work dimension k the hierarchical trees are the lines along k;
 * a work item is the set of lines whose other coordinates lie in one subspace of each
 * other dimension (the left boundary, the right boundary, or level 1..l_j).  Work items too
 * large for a block are cut into slices of whole lines.  Limits as in the thesis: at most
 * SG_B_MAX_THREADS threads (one per leaf-level point of each line) and SG_B_MAX_FLOATS
 * floats of shared memory per block. */
#define SG_B_MAX_THREADS 512
#define SG_B_MAX_FLOATS 4096
#define SG_B_MAX_SLICES 1000 /* constant memory holds this many slice descriptions */

typedef struct {
    int first_line, nlines;      /* the lines [first_line, first_line + nlines) of the item */
    int start[SG_MAXD], step[SG_MAXD], cnt[SG_MAXD]; /* per other dimension j: coordinates
                                    start + c * step, c < cnt (dimension k: 0, 0, 1) */
} sg_slice;

/* Element offset (inside the tile) of point 0 of line m of slice s (dimension 0 fastest
 * in the mixed-radix line index). */
static inline HD long long sg_slice_line_offset(const sg_slice *s, const long long *stride, int m)
{
    long long off = 0;
    for (int j = 0; j < SG_MAXD; j++) {
        int c = m % s->cnt[j];
        m /= s->cnt[j];
        off += (long long)(s->start[j] + c * s->step[j]) * stride[j];
    }
    return off;
}

/* The slices of work dimension k.  Returns their count (0 when l_k == 0: nothing to do),
 * or -1 when a line does not fit a block or there are more than max slices; *threads is
 * the block size (the largest slice's nlines * leaf width, a multiple of 32). */
static inline int sg_b_plan(const sg_geom *g, int k, sg_slice *out, int max, int *threads)
{
    int lk = g->l[k];
    *threads = 0;
    if (lk == 0) return 0;
    int leaf = 1 << (lk - 1);
    if (leaf > SG_B_MAX_THREADS || g->n[k] > SG_B_MAX_FLOATS) return -1;
    int lps = SG_B_MAX_THREADS / leaf;
    if (SG_B_MAX_FLOATS / g->n[k] < lps) lps = SG_B_MAX_FLOATS / g->n[k];
    /* subspaces per dimension: 2 boundary ones and one per level */
    int nsub[SG_MAXD], sub[SG_MAXD] = {0, 0, 0, 0}, items = 1;
    for (int j = 0; j < SG_MAXD; j++) {
        nsub[j] = (j < g->d && j != k) ? 2 + g->l[j] : 1;
        items *= nsub[j];
    }
    int ns = 0, maxl = 0;
    for (int it = 0; it < items; it++) {
        sg_slice s;
        memset(&s, 0, sizeof s);
        int rem = it, lines = 1;
        for (int j = 0; j < SG_MAXD; j++) {
            sub[j] = rem % nsub[j];
            rem /= nsub[j];
            if (j >= g->d || j == k) { s.start[j] = 0; s.step[j] = 0; s.cnt[j] = 1; }
            else if (sub[j] == 0) { s.start[j] = 0; s.step[j] = 0; s.cnt[j] = 1; }
            else if (sub[j] == 1) { s.start[j] = g->n[j] - 1; s.step[j] = 0; s.cnt[j] = 1; }
            else { /* level lev = sub - 1: odd multiples of 2^(l_j - lev) */
                int lev = sub[j] - 1;
                s.start[j] = 1 << (g->l[j] - lev);
                s.step[j] = 2 * s.start[j];
                s.cnt[j] = 1 << (lev - 1);
            }
            lines *= s.cnt[j];
        }
        for (int f = 0; f < lines; f += lps) {
            if (ns == max) return -1;
            s.first_line = f;
            s.nlines = lines - f < lps ? lines - f : lps;
            if (s.nlines > maxl) maxl = s.nlines;
            out[ns++] = s;
        }
    }
    *threads = (maxl * leaf + 31) / 32 * 32;
    return ns;
}

/* -------------------------------------------- sparse grids (thesis chapter 2, future work) */

/* Is the point with per-dimension indices idx[] of an isotropic full grid of level L in
 * d dimensions a point of the regular sparse grid of level L with boundary?  The
 * subspace of levels lev_j is kept when sum_j max(lev_j, 1) <= L + d - 1 (thesis 2.2,
 * |l|_1 <= n + d - 1; the boundary points count as level 1, the usual boundary grid). */
static inline int sg_in_sparse(const long long *idx, int d, int L)
{
    int sum = 0;
    for (int j = 0; j < d; j++) {
        int lev = sg_point_level(idx[j], L);
        sum += lev < 1 ? 1 : lev;
    }
    return sum <= L + d - 1;
}

/* Piecewise d-linear interpolation at x[] in [0,1]^d of nodal values u on the isotropic
 * full grid of level L (2^L + 1 points per dimension). */
static inline double sg_eval_multilinear(const double *u, int d, int L, const double *x)
{
    long long n = (1LL << L) + 1, base = 0, stride = 1, cellstr[SG_MAXD];
    double w[SG_MAXD];
    for (int j = 0; j < d; j++) {
        double p = x[j] * (double)(n - 1);
        long long c = (long long)p;
        if (c >= n - 1) c = n - 2;
        if (c < 0) c = 0;
        w[j] = p - (double)c;
        base += c * stride;
        cellstr[j] = stride;
        stride *= n;
    }
    double sum = 0;
    for (int corner = 0; corner < (1 << d); corner++) {
        double wt = 1;
        long long off = base;
        for (int j = 0; j < d; j++) {
            int b = (corner >> j) & 1;
            wt *= b ? w[j] : 1 - w[j];
            off += b * cellstr[j];
        }
        sum += wt * u[off];
    }
    return sum;
}

#endif
