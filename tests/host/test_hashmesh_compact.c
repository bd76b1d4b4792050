/* Host tests of hashmesh/compact.h (open addressing keyed by the cell, linear probing) and of
 * the corner-refined mesh generator (gen.h): neighbours = the perfect hash of Listing 2 and
 * brute force; remap = the perfect-hash remap (1e-10) on random and corner meshes in both
 * directions (old finer / new finer); adversarial cases: an unbalanced mesh (a coarse cell
 * beside cells 3 levels finer), a table filled to load 1 (every probe of a missing key walks
 * the whole table and must still stop), a 1 x N strip, a single cell; invalid meshes
 * (duplicate, overlap, hole) rejected by amr_validate_compact, valid ones accepted, with the
 * same verdict as the perfect-table validation of gen.h. */
#include "../../common/testlib.h"
#include "../../common/verify.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/baseline.h"
#include "../../hashmesh/compact.h"

/* compact neighbours = perfect (and brute force for small meshes); load: the table's */
static void check_neigh(const amr_mesh *m, double load, int brute)
{
    long n = m->n, W = amr_width(m), H = amr_height(m), cap = ch_capacity(n, load);
    uint64_t *keys = malloc(sizeof(uint64_t) * cap);
    int *vals = malloc(sizeof(int) * cap), *t = malloc(sizeof(int) * W * H);
    int *ref = malloc(sizeof(int) * 4 * n), *got = malloc(sizeof(int) * 4 * n);
    hash_neigh2d_cpu(m->i, m->j, m->lev, n, m->levmax, W, H, t, ref);
    memset(got, 0xAB, sizeof(int) * 4 * n);
    T_EQ_INT(ch_neigh2d_cpu(keys, vals, cap, m->i, m->j, m->lev, n, m->levmax, W, H, got), 0);
    T_CHECK(!verify_exact(got, ref, 4 * n, sizeof(int), "got"));
    if (brute) {
        kbox *b = malloc(sizeof(kbox) * n);
        amr_boxes(m, b);
        brute_neigh2d(m, b, ref);
        T_CHECK(!verify_exact(got, ref, 4 * n, sizeof(int), "got"));
        free(b);
    }
    char why[256];
    T_EQ_INT(amr_validate_compact(m, 0, keys, vals, cap, why, sizeof why), 0);
    free(keys); free(vals); free(t); free(ref); free(got);
}

/* compact remap of old -> new = perfect-hash remap, and the total is conserved */
static void check_remap(const amr_mesh *o, const amr_mesh *nw)
{
    long W = amr_width(o), H = amr_height(o), cap = ch_capacity(o->n, CH_MAX_LOAD);
    uint64_t *keys = malloc(sizeof(uint64_t) * cap);
    int *vals = malloc(sizeof(int) * cap), *t = malloc(sizeof(int) * W * H);
    field f;
    field2d_make(&f, o, 2.0, 0.1, -0.05, 0.7, 13.0);
    double *ref = malloc(sizeof(double) * nw->n), *got = malloc(sizeof(double) * nw->n);
    hash_remap2d_cpu(o->i, o->j, o->lev, o->n, f.mean, f.gx, f.gy, nw->i, nw->j, nw->lev, nw->n, o->levmax, W, H, t, ref);
    memset(got, 0xFF, sizeof(double) * nw->n);
    T_EQ_INT(ch_remap2d_cpu(keys, vals, cap, o->i, o->j, o->lev, o->n, f.mean, f.gx, f.gy, nw->i, nw->j, nw->lev, nw->n,
                            o->levmax, got), 0);
    double worst = 0, tot_old = 0, tot_new = 0;
    for (long b = 0; b < nw->n; b++) {
        double e = fabs(got[b] - ref[b]) / (fabs(ref[b]) + 1);
        if (!(e <= worst)) worst = e;
        tot_new += got[b];
    }
    for (long a = 0; a < o->n; a++) {
        double r = (double)(1L << (o->levmax - o->lev[a]));
        tot_old += f.mean[a] * r * r;
    }
    T_CHECK(worst < 1e-10);
    T_NEAR(tot_new / tot_old, 1.0, 1e-10);
    field_free(&f);
    free(keys); free(vals); free(t); free(ref); free(got);
}

static void test_random_meshes(void)
{
    int sides[] = {1, 2, 5, 16, 37};
    for (int a = 0; a < 5; a++)
        for (int lm = 0; lm <= 4; lm++) {
            amr_mesh m, m2;
            amr_generate(&m, sides[a], sides[a], lm, 0.35, 100 * a + lm);
            check_neigh(&m, CH_MAX_LOAD, m.n <= 3000);
            check_neigh(&m, 0.9, 0);
            amr_generate(&m2, sides[a], sides[a], lm, 0.35, 100 * a + lm + 50);
            check_remap(&m, &m2);
            check_remap(&m2, &m);
            amr_free(&m);
            amr_free(&m2);
        }
    amr_mesh s; /* a 1 x 40 strip */
    amr_generate(&s, 40, 1, 3, 0.5, 8);
    check_neigh(&s, CH_MAX_LOAD, 1);
    amr_free(&s);
}

static void test_corner_meshes(void)
{
    for (int lm = 0; lm <= 6; lm++)
        for (int radius = 2; radius <= 6; radius += 4) {
            amr_mesh m;
            amr_corner_generate(&m, 8, lm, radius, lm);
            char why[256];
            int bad = amr_validate(&m, 1, why, sizeof why);
            if (bad) fprintf(stderr, "  corner mesh levmax %d radius %d: %s\n", lm, radius, why);
            T_EQ_INT(bad, 0);
            check_neigh(&m, CH_MAX_LOAD, m.n <= 2000);
            amr_mesh r; /* remap between a corner mesh and a random mesh of the same domain */
            amr_generate(&r, 8, 8, lm, 0.4, 77 + lm);
            check_remap(&m, &r);
            check_remap(&r, &m);
            amr_free(&r);
            amr_free(&m);
        }
    /* cells per level stay bounded while the finest grid grows 4x per level */
    amr_mesh a, b;
    amr_corner_generate(&a, 16, 10, 8, 1);
    amr_corner_generate(&b, 16, 20, 8, 1);
    T_CHECK(b.n < 2 * a.n);
    long cap = ch_capacity(b.n, CH_MAX_LOAD);
    uint64_t *keys = malloc(sizeof(uint64_t) * cap);
    int *vals = malloc(sizeof(int) * cap), *nb = malloc(sizeof(int) * 4 * b.n);
    char why[256];
    T_EQ_INT(amr_validate_compact(&b, 1, keys, vals, cap, why, sizeof why), 0);
    /* levmax 20 (a perfect table of 2^48 buckets): neighbours by compact hash = brute force
     * over the cells (k-D-free check: the face cell contains the query point) */
    T_EQ_INT(ch_neigh2d_cpu(keys, vals, cap, b.i, b.j, b.lev, b.n, b.levmax, amr_width(&b), amr_height(&b), nb), 0);
    int ok = 1;
    for (long c = 0; c < b.n && ok; c++) {
        kbox bc = amr_box(&b, c);
        long qx[4] = {bc.x0 - 1, bc.x1, bc.x0, bc.x0}, qy[4] = {bc.y0, bc.y0, bc.y0 - 1, bc.y1};
        for (int f = 0; f < 4; f++) {
            int want = (int)c;
            if (qx[f] >= 0 && qx[f] < amr_width(&b) && qy[f] >= 0 && qy[f] < amr_height(&b)) {
                want = -1;
                for (long k = 0; k < b.n; k++) {
                    kbox q = amr_box(&b, k);
                    if (q.x0 <= qx[f] && qx[f] < q.x1 && q.y0 <= qy[f] && qy[f] < q.y1) { want = (int)k; break; }
                }
            }
            if (nb[4 * c + f] != want) ok = 0;
        }
    }
    T_CHECK(ok);
    free(keys); free(vals); free(nb);
    amr_free(&a);
    amr_free(&b);
}

/* a 2 x 1 coarse mesh: left cell level 0, right coarse cell refined fully to level 3 (not
 * 2:1 balanced: the probe order must walk 3 levels) */
static void test_unbalanced_and_full(void)
{
    amr_mesh m;
    amr_alloc(&m, 1 + 64);
    m.nx = 2; m.ny = 1; m.levmax = 3;
    m.i[0] = 0; m.j[0] = 0; m.lev[0] = 0;
    long k = 1;
    for (int j = 0; j < 8; j++)
        for (int i = 8; i < 16; i++) { m.i[k] = i; m.j[k] = j; m.lev[k] = 3; k++; }
    char why[256];
    T_EQ_INT(amr_validate(&m, 0, why, sizeof why), 0);
    check_neigh(&m, CH_MAX_LOAD, 1);
    /* load factor 1: 64 slots for 64 cells (drop the coarse cell: probes for missing keys
     * scan every slot and must stop) */
    long cap = 64;
    uint64_t keys[64];
    int vals[64];
    T_EQ_INT(ch_build_cpu(keys, vals, cap, m.i + 1, m.j + 1, m.lev + 1, 64), 0);
    T_EQ_INT(ch_find(keys, vals, cap, ch_pack(0, 0, 0)), -1);
    T_EQ_INT(ch_find(keys, vals, cap, ch_pack(3, 9, 2)), 1 + 2 * 8 + 1 - 1); /* cell (9, 2): index 1 + 2*8 + 1 */
    T_EQ_INT(ch_locate(keys, vals, cap, 3, 3, 3, 0), -1);
    /* invalid meshes */
    uint64_t kk[256];
    int vv[256];
    m.lev[5] = 3; m.i[5] = m.i[6]; m.j[5] = m.j[6]; /* duplicate */
    T_EQ_INT(amr_validate_compact(&m, 0, kk, vv, 256, why, sizeof why), 1);
    T_EQ_INT(ch_build_cpu(kk, vv, 256, m.i, m.j, m.lev, m.n), 1);
    amr_free(&m);
    amr_mesh o; /* overlap: a level-1 cell inside the level-0 cell */
    amr_generate(&o, 3, 3, 1, 0.0, 1);
    o.lev[0] = 1; o.i[0] = 1; o.j[0] = 1; /* replaces a level-0 cell: a hole and a cell inside another */
    int want = amr_validate(&o, 0, why, sizeof why);
    T_EQ_INT(want, 1);
    T_EQ_INT(amr_validate_compact(&o, 0, kk, vv, 256, why, sizeof why), 1);
    amr_free(&o);
    amr_mesh h; /* hole: the last cell removed */
    amr_generate(&h, 4, 4, 2, 0.5, 2);
    h.n--;
    T_EQ_INT(amr_validate(&h, 0, why, sizeof why), 1);
    T_EQ_INT(amr_validate_compact(&h, 0, kk, vv, 256, why, sizeof why), 1);
    h.n++;
    amr_free(&h);
    amr_mesh one; /* a single cell */
    amr_generate(&one, 1, 1, 0, 0.0, 3);
    check_neigh(&one, CH_MAX_LOAD, 1);
    amr_free(&one);
    /* capacity: power of two, load factor respected */
    T_EQ_INT(ch_capacity(1, 0.5), 16);
    T_EQ_INT(ch_capacity(1000, 0.5), 2048);
    T_EQ_INT(ch_capacity(1024, 0.5), 2048);
    T_EQ_INT(ch_capacity(1025, 0.5), 4096);
}

int main(void)
{
    test_random_meshes();
    test_corner_meshes();
    test_unbalanced_and_full();
    return T_DONE();
}
