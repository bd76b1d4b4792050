/* Host tests of hashmesh/mesh_step.h, the per-step work of neighbors-mpi's cpu backend on one
 * rank: the OpenMP build and query (hm_build_omp, hm_query_omp) against the serial loops
 * (hm_build_serial, hm_query_serial), bit for bit -- every bucket of the table and every face
 * of every owned cell -- on 1, 2, 3 and 16 threads, and the serial loops against an
 * independent oracle: the whole mesh's Listing 2 table and neighbours (hash.h's
 * hash_neigh2d_cpu; global indices are the input order).
 * Each simulated rank q of P owns the cells at Morton-sorted positions [n q / P, n (q + 1) / P)
 * (sorted here with qsort, not the hash sort); its window is the owned cells' box grown by
 * one bucket inside the domain; its ghosts are ALL other cells meeting the window (a superset
 * of the real ghost pattern, in shuffled order), so the window's table equals the global one;
 * then every other ghost and no ghost at all (buckets left -1: the clear is compared too).
 * Meshes: generated AMR meshes (levmax 0 to 5, shuffled), one refined towards a corner
 * (levmax 7: records of 1 to 16384 buckets), a 1 x 1 coarse mesh, P up to one cell a rank.
 * The output buffers are poisoned before every run (an unwritten bucket or face shows). */
#include <string.h>
#include <omp.h>
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/remesh.h"
#include "../../hashmesh/mesh_step.h"

static const int THREADS[] = {1, 2, 3, 16};
#define NTHREADS ((int)(sizeof THREADS / sizeof THREADS[0]))

typedef struct { uint64_t key; int c; } keyed;
static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = (const keyed *)a, *y = (const keyed *)b;
    return (x->key > y->key) - (x->key < y->key);
}
static void put_rec(int *rec, const amr_mesh *m, int c)
{
    rec[0] = m->i[c]; rec[1] = m->j[c]; rec[2] = m->lev[c]; rec[3] = c;
}

/* One rank's window: serial build and query, checked against the whole mesh's (gt, gnb; gt
 * NULL: ghosts left out, no oracle), then the OpenMP ones against the serial ones. */
static void check_rank(const amr_mesh *m, hm_window w, const int *own, long nown, const int *ghost, long ng,
                       const int *gt, const int *gnb, int *t, int *tp, int *nb, int *nbp, long *bad_oracle,
                       long *bad_t, long *bad_nb)
{
    long W = amr_width(m), H = amr_height(m);
    memset(t, 0x5A, sizeof(int) * (size_t)(w.w * w.h));
    memset(nb, 0x5A, sizeof(int) * 4 * (size_t)nown);
    hm_build_serial(t, w, m->levmax, own, nown, ghost, ng);
    hm_query_serial(t, w, W, H, m->levmax, own, nown, nb);
    if (gt) { /* all ghosts: the window's table is the whole mesh's, cut out */
        for (long y = 0; y < w.h; y++)
            for (long x = 0; x < w.w; x++) *bad_oracle += t[y * w.w + x] != gt[(y + w.y0) * W + x + w.x0];
        for (long k = 0; k < nown; k++)
            *bad_oracle += memcmp(nb + 4 * k, gnb + 4 * (long)own[HM_REC * k + 3], 4 * sizeof(int)) != 0;
    }
    for (int a = 0; a < NTHREADS; a++) {
        memset(tp, 0xA5, sizeof(int) * (size_t)(w.w * w.h));
        memset(nbp, 0xA5, sizeof(int) * 4 * (size_t)nown);
        hm_build_omp(tp, w, m->levmax, own, nown, ghost, ng, THREADS[a]);
        hm_query_omp(tp, w, W, H, m->levmax, own, nown, nbp, THREADS[a]);
        bad_t[a] += memcmp(tp, t, sizeof(int) * (size_t)(w.w * w.h)) != 0;
        bad_nb[a] += memcmp(nbp, nb, sizeof(int) * 4 * (size_t)nown) != 0;
    }
}

/* One mesh over P simulated ranks: every rank's table and neighbours, serial vs OpenMP, and
 * the serial ones against the whole mesh's (gt: its table, gnb: its neighbours). */
static void check_mesh(const amr_mesh *m, int P, const int *gt, const int *gnb, const char *what)
{
    long n = m->n, W = amr_width(m), H = amr_height(m);
    keyed *ord = (keyed *)gen_alloc(sizeof(keyed) * (size_t)n);
    for (long c = 0; c < n; c++) {
        int s = m->levmax - m->lev[c];
        ord[c].key = hm_morton((long)m->i[c] << s, (long)m->j[c] << s);
        ord[c].c = (int)c;
    }
    qsort(ord, (size_t)n, sizeof *ord, cmp_keyed);
    int *own = (int *)gen_alloc(sizeof(int) * HM_REC * (size_t)n), *ghost = (int *)gen_alloc(sizeof(int) * HM_REC * (size_t)n);
    int *t = (int *)gen_alloc(sizeof(int) * (size_t)(W * H)), *tp = (int *)gen_alloc(sizeof(int) * (size_t)(W * H));
    int *nb = (int *)gen_alloc(sizeof(int) * 4 * (size_t)n), *nbp = (int *)gen_alloc(sizeof(int) * 4 * (size_t)n);
    char *mine = (char *)gen_alloc((size_t)n);
    long empty = 0, bad_oracle = 0, bad_t[NTHREADS] = {0}, bad_nb[NTHREADS] = {0};
    for (int q = 0; q < P; q++) {
        long lo = n * q / P, hi = n * (q + 1) / P, nown = hi - lo, ng = 0;
        long x0 = W, y0 = H, x1 = 0, y1 = 0;
        for (long k = 0; k < nown; k++) {
            int c = ord[lo + k].c;
            long r = 1L << (m->levmax - m->lev[c]), cx = (long)m->i[c] * r, cy = (long)m->j[c] * r;
            put_rec(own + HM_REC * k, m, c);
            if (cx < x0) x0 = cx;
            if (cy < y0) y0 = cy;
            if (cx + r > x1) x1 = cx + r;
            if (cy + r > y1) y1 = cy + r;
        }
        x0 = x0 > 0 ? x0 - 1 : 0; y0 = y0 > 0 ? y0 - 1 : 0;
        x1 = x1 < W ? x1 + 1 : W; y1 = y1 < H ? y1 + 1 : H;
        hm_window w = {x0, y0, x1 - x0, y1 - y0};
        memset(mine, 0, (size_t)n);
        for (long k = 0; k < nown; k++) mine[ord[lo + k].c] = 1;
        for (long c = 0; c < n; c++) { /* the input order is shuffled: so are the ghosts */
            long r = 1L << (m->levmax - m->lev[c]), cx = (long)m->i[c] * r, cy = (long)m->j[c] * r;
            if (!mine[c] && cx < x1 && cx + r > x0 && cy < y1 && cy + r > y0) put_rec(ghost + HM_REC * ng++, m, (int)c);
        }
        for (int v = 0; v < 3; v++) { /* all ghosts; every other one (buckets left -1); none */
            long ngv = v == 0 ? ng : v == 1 ? ng / 2 : 0;
            if (v == 1)
                for (long g = 0; g < ngv; g++) memcpy(ghost + HM_REC * g, ghost + HM_REC * 2 * g, sizeof(int) * HM_REC);
            check_rank(m, w, own, nown, ghost, ngv, v == 0 ? gt : NULL, gnb, t, tp, nb, nbp, &bad_oracle, bad_t, bad_nb);
        }
        for (long b = 0; b < w.w * w.h; b++) empty += t[b] == -1; /* no ghosts: the clear shows */
    }
    if (P > 1 && !T_CHECK(empty > 0)) fprintf(stderr, "  %s, P = %d: no bucket left -1: the clear is not tested\n", what, P);
    if (!T_CHECK(bad_oracle == 0)) fprintf(stderr, "  %s, P = %d: %ld serial buckets/cells differ from the whole mesh's\n", what, P, bad_oracle);
    for (int a = 0; a < NTHREADS; a++) {
        if (!T_CHECK(bad_t[a] == 0)) fprintf(stderr, "  %s, P = %d, %d threads: %ld ranks' tables differ from the serial ones\n", what, P, THREADS[a], bad_t[a]);
        if (!T_CHECK(bad_nb[a] == 0)) fprintf(stderr, "  %s, P = %d, %d threads: %ld ranks' neighbours differ from the serial ones\n", what, P, THREADS[a], bad_nb[a]);
    }
    free(ord); free(own); free(ghost); free(t); free(tp); free(nb); free(nbp); free(mine);
}

static void check_ranks(const amr_mesh *m, const int *Ps, int nP, const char *what)
{
    long W = amr_width(m), H = amr_height(m);
    int *gt = (int *)gen_alloc(sizeof(int) * (size_t)(W * H)), *gnb = (int *)gen_alloc(sizeof(int) * 4 * (size_t)m->n);
    hash_neigh2d_cpu(m->i, m->j, m->lev, m->n, m->levmax, W, H, gt, gnb);
    for (int k = 0; k < nP; k++)
        if (Ps[k] <= m->n) check_mesh(m, Ps[k], gt, gnb, what);
    free(gt); free(gnb);
}

int main(void)
{
    /* OpenMP really forks here (else every "parallel" run above is the serial one) */
    int team = 0;
#pragma omp parallel num_threads(3)
#pragma omp single
    team = omp_get_num_threads();
    T_EQ_INT(team, 3);

    const int Ps[] = {1, 2, 3, 4, 7};
    struct { int nx, ny, levmax; double frac; } g[] = {
        {16, 16, 0, 0.0}, {9, 6, 2, 0.3}, {16, 8, 3, 0.5}, {13, 5, 4, 0.4}, {7, 11, 5, 0.2}, {32, 32, 2, 0.3},
    };
    char what[96];
    for (int k = 0; k < (int)(sizeof g / sizeof g[0]); k++) {
        amr_mesh m;
        amr_generate(&m, g[k].nx, g[k].ny, g[k].levmax, g[k].frac, 100 + (uint64_t)k);
        snprintf(what, sizeof what, "mesh %dx%d levmax %d (%ld cells)", g[k].nx, g[k].ny, g[k].levmax, m.n);
        check_ranks(&m, Ps, 5, what);
        amr_free(&m);
    }
    amr_mesh m; /* refined towards a corner: records of 1 to 4^7 buckets */
    amr_corner_generate(&m, 4, 7, 3, 5);
    snprintf(what, sizeof what, "corner mesh levmax 7 (%ld cells)", m.n);
    check_ranks(&m, Ps, 5, what);
    amr_free(&m);
    amr_generate(&m, 1, 1, 2, 1.0, 3); /* one coarse cell refined: one cell a rank at P = n */
    int one[] = {1, (int)m.n};
    snprintf(what, sizeof what, "1x1 mesh (%ld cells)", m.n);
    check_ranks(&m, one, 2, what);
    amr_free(&m);
    return T_DONE();
}
