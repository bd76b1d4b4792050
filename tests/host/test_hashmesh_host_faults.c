/* Faulty inputs of two hashmesh host paths, and what each must report:
 *  - compact.h: ch_neigh2d_cpu returns 1 when any one face -- the top face alone, the bottom
 *    face alone -- finds no cell (a hole), and leaves -1 there; amr_validate_compact names a
 *    cell lying inside its own parent as such (not as a hole or a coverage error).
 *  - hashsort_omp.h: a partition fuller than its region (keys sharing buckets, the perfect
 *    hash's precondition broken) while the LAST partition a chunk reserves is not: the extra
 *    keys are dropped and every other partition comes out exactly (its keys in bucket order
 *    at its offset), on 1 and 2 threads. */
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/compact.h"
#include "../../hashmesh/hashsort_omp.h"
#include "hashmesh_overfull_keys.h"

static void test_compact_holes(void)
{
    /* 1 x 2 coarse cells at levmax 0 (W 1, H 2), one of them present */
    int bottom_only[2] = {0, 1};
    for (int t = 0; t < 2; t++) {
        int ci = 0, cj = bottom_only[t] ? 0 : 1, lev = 0, nb[4] = {7, 7, 7, 7};
        uint64_t keys[16];
        int vals[16];
        T_EQ_INT(ch_neigh2d_cpu(keys, vals, 16, &ci, &cj, &lev, 1, 0, 1, 2, nb), 1);
        T_EQ_INT(nb[0], 0); /* left and right: the domain edge, the cell itself */
        T_EQ_INT(nb[1], 0);
        T_EQ_INT(nb[2], bottom_only[t] ? 0 : -1); /* bottom: edge, or the missing cell */
        T_EQ_INT(nb[3], bottom_only[t] ? -1 : 0); /* top: the missing cell, or edge */
    }
    /* both present: no hole */
    int ci[2] = {0, 0}, cj[2] = {0, 1}, lev[2] = {0, 0}, nb[8];
    uint64_t keys[16];
    int vals[16];
    T_EQ_INT(ch_neigh2d_cpu(keys, vals, 16, ci, cj, lev, 2, 0, 1, 2, nb), 0);
    T_EQ_INT(nb[3], 1);
    T_EQ_INT(nb[4 + 2], 0);
}

static void test_compact_nested(void)
{
    /* 2 x 1 coarse cells at levmax 1; a level-1 cell inside the level-0 cell (0, 0), its
     * parent: every face finds a cell, only the area (9 of 8) and the nesting are wrong */
    amr_mesh m;
    amr_alloc(&m, 3);
    m.nx = 2; m.ny = 1; m.levmax = 1;
    int ci[3] = {1, 0, 1}, cj[3] = {1, 0, 0}, cl[3] = {1, 0, 0};
    for (int c = 0; c < 3; c++) { m.i[c] = ci[c]; m.j[c] = cj[c]; m.lev[c] = cl[c]; }
    uint64_t keys[64];
    int vals[64];
    char why[256] = "";
    T_EQ_INT(amr_validate_compact(&m, 1, keys, vals, 64, why, sizeof why), 1);
    T_CHECK(strstr(why, "cell 0 lies inside a coarser cell (level 0)") != NULL);
    /* levmax 2: a level-2 cell inside a level-1 cell (its parent), itself inside nothing */
    amr_free(&m);
    amr_alloc(&m, 6);
    m.nx = 1; m.ny = 1; m.levmax = 2;
    int di[6] = {0, 1, 0, 1, 1}, dj[6] = {0, 0, 1, 1, 1}, dl[6] = {1, 1, 1, 1, 2};
    m.n = 5;
    for (int c = 0; c < 5; c++) { m.i[c] = di[c]; m.j[c] = dj[c]; m.lev[c] = dl[c]; }
    T_EQ_INT(amr_validate_compact(&m, 0, keys, vals, 64, why, sizeof why), 1);
    T_CHECK(strstr(why, "cell 4 lies inside a coarser cell (level 1)") != NULL);
    m.n = 6;
    amr_free(&m);
}

/* partition 0 overfull (1000 buckets + 100 keys sharing them, W = 1024), partitions 1 and 3
 * exact, partition 2 empty: the last partition a chunk reserves (3, with no rotation) fits */
static void check_omp_overfull(int threads, long chunk, uint64_t seed)
{
    region r[3] = {{0, 1000, 100}, {1024, 500, 0}, {3072, 50, 0}};
    double *x;
    long n = make_keys(&x, r, 3, seed);
    hsp_omp c;
    char why[256];
    if (!T_CHECK(hsp_omp_setup(&c, n, 4096, threads, 10, chunk, why, sizeof why) == 0)) {
        fprintf(stderr, "  %s\n", why);
        free(x);
        return;
    }
    int *idx = (int *)gen_alloc(sizeof(int) * (size_t)n), *at = (int *)gen_alloc(sizeof(int) * 4096);
    for (long i = 0; i < n; i++) idx[i] = -7;
    for (long b = 0; b < 4096; b++) at[b] = -1;
    for (long i = 0; i < n; i++)
        if (x[i] - floor(x[i]) == 0.25) at[(long)x[i]] = (int)i; /* the distinct key of bucket b */
    long w = hsp_sort_omp(&c, x, 0.0, 1.0, idx, NULL);
    T_CHECK(w >= 500 + 50 && w < n);
    T_EQ_INT(c.off[1], 1100);
    T_EQ_INT(c.off[2], 1600);
    T_EQ_INT(c.off[3], 1600);
    T_EQ_INT(c.off[4], n);
    long bad = 0;
    for (long t = 0; t < 500; t++) bad += idx[1100 + t] != at[1024 + t];
    for (long t = 0; t < 50; t++) bad += idx[1600 + t] != at[3072 + t];
    long badp0 = 0; /* partition 0: what it wrote are keys of its buckets, in bucket order */
    double last = -1;
    for (long t = 0; t < 1100 && idx[t] != -7; t++) {
        badp0 += !(idx[t] >= 0 && idx[t] < n && x[idx[t]] < 1000 && floor(x[idx[t]]) > last);
        if (idx[t] >= 0 && idx[t] < n) last = floor(x[idx[t]]);
    }
    if (bad || badp0)
        fprintf(stderr, "  omp overfull (threads %d, chunk %ld): %ld wrong in partitions 1 and 3, %ld in 0\n",
                threads, chunk, bad, badp0);
    T_EQ_INT(bad, 0);
    T_EQ_INT(badp0, 0);
    hsp_omp_free(&c);
    free(idx);
    free(at);
    free(x);
}

int main(void)
{
    test_compact_holes();
    test_compact_nested();
    check_omp_overfull(1, 0, 1);
    check_omp_overfull(1, 0, 2);
    check_omp_overfull(2, 0, 3);
    return T_DONE();
}
