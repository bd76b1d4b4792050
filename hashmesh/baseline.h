/* baseline.h -- the comparison-based reference codes the paper measures the hash against
 * (Robey, Nicholaeff, Robey, sec. 3): qsort (sorts), k-D trees (neighbours, remap), brute
 * force (small n), the sort-based 1D remap of Listing 4.  Plain C, serial, host only.
 *
 * k-D trees: built in O(n log n) (median split by quickselect at every level), queried with
 * a fixed-size explicit stack and caller-owned result buffers: no allocation per query.
 *   kd1_*  over 1D points (a balanced implicit BST: the median of each range sits at its
 *          middle): predecessor / successor queries for 1D neighbours.
 *   kd2_*  over axis-aligned integer boxes (cells; a 1D cell is the box [lo, hi) x [0, 1)):
 *          every node keeps the bounding box of its subtree; a query returns the cells whose
 *          box overlaps the query box with positive area. */
#ifndef HASHMESH_BASELINE_H
#define HASHMESH_BASELINE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"
#include "hash.h"

/* ---------- qsort baselines (sec. 3.1) ---------- */
typedef struct {
    double key;
    int idx;
} qs_pair;
static inline int qs_pair_cmp(const void *a, const void *b)
{
    double x = ((const qs_pair *)a)->key, y = ((const qs_pair *)b)->key;
    return (x > y) - (x < y);
}
/* sorts the keys with their indices (buf: n pairs, caller-owned); idx[] gets the order */
static inline void qsort_sort1d(const double *x, long n, qs_pair *buf, int *idx)
{
    for (long i = 0; i < n; i++) {
        buf[i].key = x[i];
        buf[i].idx = (int)i;
    }
    qsort(buf, (size_t)n, sizeof *buf, qs_pair_cmp);
    for (long i = 0; i < n; i++) idx[i] = buf[i].idx;
}

/* 2D: a cell with its shift to the finest level; the comparator orders by (j, i) at the
 * finest level, the same order as the hash key i + j * w (sec. 3.1). */
typedef struct {
    int i, j, sh, idx;
} qs_cell;
static inline int qs_cell_cmp(const void *a, const void *b)
{
    const qs_cell *p = (const qs_cell *)a, *q = (const qs_cell *)b;
    long pj = (long)p->j << p->sh, qj = (long)q->j << q->sh;
    if (pj != qj) return (pj > qj) - (pj < qj);
    long pi = (long)p->i << p->sh, qi = (long)q->i << q->sh;
    return (pi > qi) - (pi < qi);
}
static inline void qsort_sort2d(const amr_mesh *m, qs_cell *buf, int *idx)
{
    for (long c = 0; c < m->n; c++) {
        buf[c].i = m->i[c];
        buf[c].j = m->j[c];
        buf[c].sh = m->levmax - m->lev[c];
        buf[c].idx = (int)c;
    }
    qsort(buf, (size_t)m->n, sizeof *buf, qs_cell_cmp);
    for (long c = 0; c < m->n; c++) idx[c] = buf[c].idx;
}

/* ---------- 1D k-D tree over points ---------- */
typedef struct {
    long n;
    double *key; /* implicit tree: range [lo, hi) has its median at (lo + hi) / 2 */
    int *idx;
} kd1;
static inline void kd1_alloc(kd1 *t, long n)
{
    t->key = (double *)gen_alloc(sizeof(double) * (size_t)n);
    t->idx = (int *)gen_alloc(sizeof(int) * (size_t)n);
}
static inline void kd1_free(kd1 *t)
{
    free(t->key);
    free(t->idx);
}

static inline void kd1_swap(kd1 *t, long a, long b)
{
    double k = t->key[a]; t->key[a] = t->key[b]; t->key[b] = k;
    int i = t->idx[a]; t->idx[a] = t->idx[b]; t->idx[b] = i;
}
/* quickselect: puts the k-th smallest of [lo, hi) at k, smaller before, larger after */
static inline void kd1_select(kd1 *t, long lo, long hi, long k)
{
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2; /* median of three as pivot */
        if (t->key[mid] < t->key[lo]) kd1_swap(t, mid, lo);
        if (t->key[hi - 1] < t->key[lo]) kd1_swap(t, hi - 1, lo);
        if (t->key[hi - 1] < t->key[mid]) kd1_swap(t, hi - 1, mid);
        double pv = t->key[mid];
        kd1_swap(t, mid, hi - 1);
        long s = lo;
        for (long q = lo; q < hi - 1; q++)
            if (t->key[q] < pv) kd1_swap(t, q, s++);
        kd1_swap(t, s, hi - 1);
        if (s == k) return;
        if (k < s) hi = s;
        else lo = s + 1;
    }
}
static inline void kd1_build_range(kd1 *t, long lo, long hi)
{
    while (hi - lo > 1) {
        long mid = (lo + hi) / 2;
        kd1_select(t, lo, hi, mid);
        kd1_build_range(t, lo, mid);
        lo = mid + 1;
    }
}
/* t->key / t->idx: caller-owned buffers of n (reused between builds) */
static inline void kd1_build(kd1 *t, const double *x, long n)
{
    t->n = n;
    for (long i = 0; i < n; i++) {
        t->key[i] = x[i];
        t->idx[i] = (int)i;
    }
    kd1_build_range(t, 0, n);
}
/* index of the largest key < x (pred = 1) or the smallest key > x (pred = 0); -1 if none */
static inline int kd1_query(const kd1 *t, double x, int pred)
{
    long lo = 0, hi = t->n;
    int best = -1;
    while (hi > lo) {
        long mid = (lo + hi) / 2;
        double v = t->key[mid];
        if (pred ? v < x : v > x) {
            best = t->idx[mid];
            if (pred) lo = mid + 1;
            else hi = mid;
        } else if (pred) hi = mid;
        else lo = mid + 1;
    }
    return best;
}
static inline void kd1_neigh1d(kd1 *t, const double *x, long n, int *left, int *right)
{
    kd1_build(t, x, n);
    for (long i = 0; i < n; i++) {
        int l = kd1_query(t, x[i], 1), r = kd1_query(t, x[i], 0);
        left[i] = l >= 0 ? l : (int)i;
        right[i] = r >= 0 ? r : (int)i;
    }
}
static inline void brute_neigh1d(const double *x, long n, int *left, int *right)
{
    for (long i = 0; i < n; i++) {
        long l = -1, r = -1;
        for (long k = 0; k < n; k++) {
            if (x[k] < x[i] && (l < 0 || x[k] > x[l])) l = k;
            if (x[k] > x[i] && (r < 0 || x[k] < x[r])) r = k;
        }
        left[i] = l >= 0 ? (int)l : (int)i;
        right[i] = r >= 0 ? (int)r : (int)i;
    }
}

/* ---------- 2D k-D tree over integer boxes ---------- */
typedef struct {
    int x0, y0, x1, y1; /* [x0, x1) x [y0, y1) */
} kbox;
#define KD2_LEAF 8      /* cells per leaf */
/* explicit query stack: a depth-first walk holds at most depth + 1 nodes; halving ranges
 * of > KD2_LEAF cells leaves leaves of >= KD2_LEAF / 2, so depth <= log2(n / 4) + 1 <= 31
 * for n < 2^31 */
#define KD2_STACK 128
typedef struct {
    long n, nnodes;
    kbox *box;    /* cell boxes, permuted by the build */
    int *idx;     /* cell index of box[k] */
    kbox *nbb;    /* per node: bounding box of its subtree */
    int *nlo, *nhi, *nleft, *nright; /* per node: range [lo, hi) and children (-1: leaf) */
} kd2;

/* nodes: leaves hold >= KD2_LEAF / 2 cells (a range of > KD2_LEAF is halved), so there are
 * at most n / 4 leaves and n / 2 nodes; 2 * maxnodes below is >= n / 2 + 8 */
static inline void kd2_alloc(kd2 *t, long n)
{
    long maxnodes = 2 * (n / KD2_LEAF + 1) + 2;
    t->box = (kbox *)gen_alloc(sizeof(kbox) * (size_t)n);
    t->idx = (int *)gen_alloc(sizeof(int) * (size_t)n);
    t->nbb = (kbox *)gen_alloc(sizeof(kbox) * (size_t)maxnodes * 2);
    t->nlo = (int *)gen_alloc(sizeof(int) * (size_t)maxnodes * 2);
    t->nhi = (int *)gen_alloc(sizeof(int) * (size_t)maxnodes * 2);
    t->nleft = (int *)gen_alloc(sizeof(int) * (size_t)maxnodes * 2);
    t->nright = (int *)gen_alloc(sizeof(int) * (size_t)maxnodes * 2);
    t->n = n;
}
static inline void kd2_free(kd2 *t)
{
    free(t->box); free(t->idx); free(t->nbb); free(t->nlo); free(t->nhi); free(t->nleft); free(t->nright);
}
/* twice the centre along an axis (integers stay exact) */
static inline long kd2_c2(const kbox *b, int axis) { return axis ? (long)b->y0 + b->y1 : (long)b->x0 + b->x1; }
static inline void kd2_swap(kd2 *t, long a, long b)
{
    kbox x = t->box[a]; t->box[a] = t->box[b]; t->box[b] = x;
    int i = t->idx[a]; t->idx[a] = t->idx[b]; t->idx[b] = i;
}
static inline void kd2_select(kd2 *t, long lo, long hi, long k, int axis)
{
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (kd2_c2(&t->box[mid], axis) < kd2_c2(&t->box[lo], axis)) kd2_swap(t, mid, lo);
        if (kd2_c2(&t->box[hi - 1], axis) < kd2_c2(&t->box[lo], axis)) kd2_swap(t, hi - 1, lo);
        if (kd2_c2(&t->box[hi - 1], axis) < kd2_c2(&t->box[mid], axis)) kd2_swap(t, hi - 1, mid);
        long pv = kd2_c2(&t->box[mid], axis);
        kd2_swap(t, mid, hi - 1);
        long s = lo;
        for (long q = lo; q < hi - 1; q++)
            if (kd2_c2(&t->box[q], axis) < pv) kd2_swap(t, q, s++);
        kd2_swap(t, s, hi - 1);
        if (s == k) return;
        if (k < s) hi = s;
        else lo = s + 1;
    }
}
static inline int kd2_build_node(kd2 *t, long lo, long hi)
{
    int node = (int)t->nnodes++;
    t->nlo[node] = (int)lo;
    t->nhi[node] = (int)hi;
    kbox bb = t->box[lo];
    for (long k = lo + 1; k < hi; k++) { /* bounding box of the range */
        const kbox *b = &t->box[k];
        if (b->x0 < bb.x0) bb.x0 = b->x0;
        if (b->y0 < bb.y0) bb.y0 = b->y0;
        if (b->x1 > bb.x1) bb.x1 = b->x1;
        if (b->y1 > bb.y1) bb.y1 = b->y1;
    }
    t->nbb[node] = bb;
    if (hi - lo <= KD2_LEAF) {
        t->nleft[node] = t->nright[node] = -1;
        return node;
    }
    int axis = (bb.x1 - bb.x0) >= (bb.y1 - bb.y0) ? 0 : 1; /* split the longer side */
    long mid = (lo + hi) / 2;
    kd2_select(t, lo, hi, mid, axis);
    int l = kd2_build_node(t, lo, mid);
    int r = kd2_build_node(t, mid, hi);
    t->nleft[node] = l;
    t->nright[node] = r;
    return node;
}
static inline void kd2_build(kd2 *t, const kbox *boxes, long n)
{
    t->n = n;
    for (long k = 0; k < n; k++) {
        t->box[k] = boxes[k];
        t->idx[k] = (int)k;
    }
    t->nnodes = 0;
    kd2_build_node(t, 0, n);
}
static inline int kbox_overlap(const kbox *a, const kbox *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}
/* cells overlapping q: up to cap indices into hits; returns the count (-1: more than cap).
 * first_only: stop at the first hit (point location). */
static inline long kd2_query(const kd2 *t, const kbox *q, int *hits, long cap, int first_only)
{
    int stack[KD2_STACK];
    int sp = 0;
    long nh = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        int node = stack[--sp];
        if (!kbox_overlap(&t->nbb[node], q)) continue;
        if (t->nleft[node] < 0) {
            for (int k = t->nlo[node]; k < t->nhi[node]; k++)
                if (kbox_overlap(&t->box[k], q)) {
                    if (nh >= cap) return -1;
                    hits[nh++] = t->idx[k];
                    if (first_only) return nh;
                }
        } else {
            if (sp + 2 > KD2_STACK) return -1; /* cannot happen for a median-split tree */
            stack[sp++] = t->nright[node];
            stack[sp++] = t->nleft[node];
        }
    }
    return nh;
}

static inline kbox amr_box(const amr_mesh *m, long c)
{
    int r = 1 << (m->levmax - m->lev[c]);
    kbox b = {m->i[c] * r, m->j[c] * r, (m->i[c] + 1) * r, (m->j[c] + 1) * r};
    return b;
}
static inline void amr_boxes(const amr_mesh *m, kbox *b)
{
    for (long c = 0; c < m->n; c++) b[c] = amr_box(m, c);
}

/* the four faces (left, right, bottom, top) of cell c with box b into nb4[0..3]: the cell
 * found by a point query at the finest cell just across the face at its lower-left end, c
 * itself at the domain boundary.  A face whose query finds no cell is left unwritten; with
 * stop the function returns 1 there at once, else after the other faces; 0: all found. */
static inline int kd2_cell_faces(const kd2 *t, kbox b, long c, long W, long H, int *nb4, int stop)
{
    int qx[4] = {b.x0 - 1, b.x1, b.x0, b.x0}, qy[4] = {b.y0, b.y0, b.y0 - 1, b.y1};
    int err = 0;
    for (int f = 0; f < 4; f++) {
        int hit;
        if (qx[f] < 0 || qx[f] >= W || qy[f] < 0 || qy[f] >= H) {
            nb4[f] = (int)c;
            continue;
        }
        kbox q = {qx[f], qy[f], qx[f] + 1, qy[f] + 1};
        if (kd2_query(t, &q, &hit, 1, 1) == 1) nb4[f] = hit;
        else if (stop) return 1;
        else err = 1;
    }
    return err;
}

/* 2D neighbours with the k-D tree: each face's query is the finest cell just across it at
 * the lower-left end (the same rule as Listing 2), located by a point query. */
static inline int kd2_neigh2d(kd2 *t, const amr_mesh *m, const kbox *boxes, int *nb)
{
    long W = amr_width(m), H = amr_height(m);
    kd2_build(t, boxes, m->n);
    for (long c = 0; c < m->n; c++)
        if (kd2_cell_faces(t, boxes[c], c, W, H, &nb[4 * c], 1)) return 1;
    return 0;
}
static inline void brute_neigh2d(const amr_mesh *m, const kbox *boxes, int *nb)
{
    long W = amr_width(m), H = amr_height(m);
    for (long c = 0; c < m->n; c++) {
        kbox b = boxes[c];
        int qx[4] = {b.x0 - 1, b.x1, b.x0, b.x0}, qy[4] = {b.y0, b.y0, b.y0 - 1, b.y1};
        for (int f = 0; f < 4; f++) {
            nb[4 * c + f] = (int)c;
            if (qx[f] < 0 || qx[f] >= W || qy[f] < 0 || qy[f] >= H) continue;
            kbox q = {qx[f], qy[f], qx[f] + 1, qy[f] + 1};
            for (long k = 0; k < m->n; k++)
                if (kbox_overlap(&boxes[k], &q)) { nb[4 * c + f] = (int)k; break; }
        }
    }
}

/* ---------- remap baselines (sec. 3.3) ---------- */
/* The integral of old cell a's linear reconstruction over the overlap of boxes a and b. */
static inline double remap_overlap(const kbox *a, const kbox *b, double mean, double gx, double gy)
{
    int x0 = a->x0 > b->x0 ? a->x0 : b->x0, x1 = a->x1 < b->x1 ? a->x1 : b->x1;
    int y0 = a->y0 > b->y0 ? a->y0 : b->y0, y1 = a->y1 < b->y1 ? a->y1 : b->y1;
    if (x1 <= x0 || y1 <= y0) return 0;
    double area = (double)(x1 - x0) * (y1 - y0);
    return area * remap_bucket(mean, gx, gy, 0.5 * (x0 + x1), 0.5 * (y0 + y1), 0.5 * (a->x0 + a->x1),
                               0.5 * (a->y0 + a->y1));
}
/* k-D tree remap: tree over the old cells, one overlap query per new cell.  hits: caller
 * buffer of cap entries (a new cell of side s overlaps at most s^2 + 4 s old cells). */
static inline int kd2_remap(kd2 *t, const kbox *oldb, long na, const double *mean, const double *gx,
                            const double *gy, const kbox *newb, long nb, int *hits, long cap, double *out)
{
    kd2_build(t, oldb, na);
    for (long b = 0; b < nb; b++) {
        long nh = kd2_query(t, &newb[b], hits, cap, 0);
        if (nh < 0) return 1;
        double s = 0;
        for (long h = 0; h < nh; h++) {
            int a = hits[h];
            s += remap_overlap(&oldb[a], &newb[b], mean[a], gx[a], gy ? gy[a] : 0);
        }
        out[b] = s;
    }
    return 0;
}
static inline void brute_remap(const kbox *oldb, long na, const double *mean, const double *gx, const double *gy,
                               const kbox *newb, long nb, double *out)
{
    for (long b = 0; b < nb; b++) {
        double s = 0;
        for (long a = 0; a < na; a++) s += remap_overlap(&oldb[a], &newb[b], mean[a], gx[a], gy ? gy[a] : 0);
        out[b] = s;
    }
}
static inline void mesh1d_boxes(const mesh1d *m, kbox *b)
{
    for (long c = 0; c < m->n; c++) {
        kbox x = {m->lo[c], 0, m->hi[c], 1};
        b[c] = x;
    }
}

/* Sort-based 1D remap (Listing 4): order both meshes by position (qsort), then one sweep
 * over the merged cell boundaries; every overlap [max lo, min hi) transfers its integral.
 * bufa / bufb: caller-owned pair buffers of na / nb. */
static inline void sort_remap1d(const mesh1d *o, const double *mean, const double *gx, const mesh1d *nw,
                                qs_pair *bufa, qs_pair *bufb, double *out)
{
    for (long a = 0; a < o->n; a++) { bufa[a].key = o->lo[a]; bufa[a].idx = (int)a; }
    for (long b = 0; b < nw->n; b++) { bufb[b].key = nw->lo[b]; bufb[b].idx = (int)b; out[b] = 0; }
    qsort(bufa, (size_t)o->n, sizeof *bufa, qs_pair_cmp);
    qsort(bufb, (size_t)nw->n, sizeof *bufb, qs_pair_cmp);
    long a = 0, b = 0;
    while (a < o->n && b < nw->n) {
        int ia = bufa[a].idx, ib = bufb[b].idx;
        int alo = o->lo[ia], ahi = o->hi[ia], blo = nw->lo[ib], bhi = nw->hi[ib];
        int x0 = alo > blo ? alo : blo, x1 = ahi < bhi ? ahi : bhi;
        if (x1 > x0) out[ib] += (x1 - x0) * remap_bucket(mean[ia], gx[ia], 0, 0.5 * (x0 + x1), 0, 0.5 * (alo + ahi), 0);
        if (ahi <= bhi) a++;
        if (bhi <= ahi) b++;
    }
}

#endif
