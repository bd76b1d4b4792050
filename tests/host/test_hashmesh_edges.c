/* test_hashmesh_edges.c -- hashmesh's readers and tables at their edges (hash.h, compact.h,
 * meshio.h, best.h), each limit on both sides, the outcome asserted (value, slot, message),
 * not only a return code.  The tables are heap arrays of exactly their size (the asan build
 * reports a read one past them) and, where a read past the end would go unnoticed in the
 * plain build, also copies followed by NaN, so that such a read changes the value.
 *
 *  - table look-up (Listing 5): the slot of every axis point (k, and n - 2 for the last one,
 *    where the cell [n - 2, n - 1] still holds the query) by hash, linear search and bisection;
 *    queries exactly at each axis maximum and minimum, at every table point and cell centre,
 *    against a bilinear function the interpolation reproduces exactly, and against the
 *    interpolation in the right cell (found by a scan) of a curved function, where a wrong
 *    slot in either direction changes the value; just past the ends (clamped);
 *  - 1D neighbours of the smallest and largest key (the ends of the table): the key itself;
 *  - the mesh reader: a cell line with too few, exactly three and too many integers (four, five,
 *    seven: the parser must not write past its array); the header's largest NX, NY (2^20) and
 *    LEVMAX (24) accepted as far as the range check goes, the next values refused, each with
 *    its own message; (NX << LEVMAX) and (NY << LEVMAX) at 2^30 and 2^31; a hole and an
 *    overlap named by their coordinates and lines;
 *  - compact hash: capacity at load * cap = n exactly; coordinates 2^29 - 1 (fit) and 2^29;
 *  - radix sort passes at 11, 12, 22, 23, 33 bits. */
#include <math.h>
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/compact.h"
#include "../../hashmesh/best.h"
#include "../../hashmesh/meshio.h"

static double *exact_copy(const double *a, long n, int pad) /* n values, then pad NaNs */
{
    double *c = malloc(sizeof(double) * (size_t)(n + pad));
    memcpy(c, a, sizeof(double) * (size_t)n);
    for (int i = 0; i < pad; i++) c[n + i] = NAN;
    return c;
}
static double bilin(double x, double y) { return 3.0 + 0.5 * x - 0.25 * y + 0.125 * x * y; }
/* not bilinear: an interpolation in the wrong cell (an extrapolation) gives another value */
static double curved(double x, double y) { return bilin(x, y) + x * x * y * y; }
/* the bilinear interpolation of table d in the cell that holds (x, y), found by a scan */
static double ref_interp(const double *d, const double *xa, int nx, const double *ya, int ny, double x, double y)
{
    int is = 0, js = 0;
    for (int k = 0; k < nx - 1; k++) if (xa[k] <= x) is = k;
    for (int k = 0; k < ny - 1; k++) if (ya[k] <= y) js = k;
    return tab_bilinear(d, nx, xa, ya, is, js, x, y);
}

static void test_table(int nx, int ny, double x0, double dx, double y0, double dy)
{
    double *xa = malloc(sizeof(double) * nx), *ya = malloc(sizeof(double) * ny), *d = malloc(sizeof(double) * nx * ny);
    double *dc = malloc(sizeof(double) * nx * ny);
    for (int i = 0; i < nx; i++) xa[i] = x0 + dx * i;
    for (int j = 0; j < ny; j++) ya[j] = y0 + dy * j;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) d[j * nx + i] = bilin(xa[i], ya[j]), dc[j * nx + i] = curved(xa[i], ya[j]);
    /* slots of the axis points: k, and n - 2 at the last point */
    long bad_slot = 0;
    for (int k = 0; k < nx; k++) {
        int want = k < nx - 1 ? k : nx - 2;
        bad_slot += tab_slot_hash(xa[k], x0, dx, nx) != want;
        bad_slot += tab_slot_linear(xa[k], xa, nx) != want;
        bad_slot += tab_slot_bisect(xa[k], xa, nx) != want;
        if (k + 1 < nx) { /* inside the cell: k */
            double xm = xa[k] + 0.5 * dx;
            bad_slot += tab_slot_hash(xm, x0, dx, nx) != k || tab_slot_linear(xm, xa, nx) != k || tab_slot_bisect(xm, xa, nx) != k;
        }
    }
    /* past the ends: the first / last cell (the caller refuses such queries, the slot is clamped) */
    double past = nextafter(xa[nx - 1], INFINITY), before = nextafter(x0, -INFINITY);
    bad_slot += tab_slot_hash(past, x0, dx, nx) != nx - 2 || tab_slot_linear(past, xa, nx) != nx - 2 ||
                tab_slot_bisect(past, xa, nx) != nx - 2;
    bad_slot += tab_slot_hash(xa[nx - 1] + 10 * dx, x0, dx, nx) != nx - 2;
    bad_slot += tab_slot_hash(before, x0, dx, nx) != 0 || tab_slot_linear(before, xa, nx) != 0 ||
                tab_slot_bisect(before, xa, nx) != 0;
    T_EQ_INT(bad_slot, 0);
    /* queries: every table point (the maxima included), the corners, cell centres, edges */
    long nq = 0, cap = (long)(2 * nx) * (2 * ny) + 8;
    double *qx = malloc(sizeof(double) * cap), *qy = malloc(sizeof(double) * cap);
    for (int j = 0; j < 2 * ny - 1; j++)
        for (int i = 0; i < 2 * nx - 1; i++) qx[nq] = x0 + 0.5 * dx * i, qy[nq++] = y0 + 0.5 * dy * j;
    qx[nq] = xa[nx - 1], qy[nq++] = ya[ny - 1]; /* the far corner again, last */
    double *out = malloc(sizeof(double) * nq);
    for (int pad = 0; pad <= 16; pad += 16)
        for (int fn = 0; fn < 2; fn++) { /* bilinear data: exact everywhere; curved: the right cell */
            double *xs = exact_copy(xa, nx, pad), *ys = exact_copy(ya, ny, pad), *ds = exact_copy(fn ? dc : d, (long)nx * ny, pad);
            for (int mth = TAB_HASH; mth <= TAB_BISECT; mth++) {
                for (long q = 0; q < nq; q++) out[q] = NAN;
                table_lookup_cpu(mth, ds, xs, nx, ys, ny, qx, qy, nq, out);
                long bad = 0;
                for (long q = 0; q < nq; q++) {
                    double want = fn ? ref_interp(dc, xa, nx, ya, ny, qx[q], qy[q]) : bilin(qx[q], qy[q]);
                    bad += !(fabs(out[q] - want) <= 1e-12 * (1 + fabs(want)));
                }
                if (bad) fprintf(stderr, "  table %d x %d method %d pad %d f%d: %ld wrong values\n", nx, ny, mth, pad, fn, bad);
                T_EQ_INT(bad, 0);
                T_CHECK(out[nq - 1] == ds[(long)nx * ny - 1]); /* at the far corner: the last value itself */
            }
            free(xs); free(ys); free(ds);
        }
    free(xa); free(ya); free(d); free(dc); free(qx); free(qy); free(out);
}

static int read_str(const char *text, amr_mesh *m, long **line, char *err, size_t es)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    err[0] = '\0';
    int r = meshio_read(f, "s", m, line, err, es);
    fclose(f);
    if (r == 0) { free(*line); amr_free(m); }
    return r;
}

/* the mesh `text` is refused (read_str returns 1) with an error line containing `msg` */
static void mesh_refused(const char *text, const char *msg)
{
    amr_mesh m;
    long *line;
    char err[512];
    int rc = read_str(text, &m, &line, err, sizeof err);
    T_EQ_INT(rc, 1);
    if (!T_CHECK(strstr(err, msg) != NULL) || rc != 1) fprintf(stderr, "    mesh \"%s\": '%s', want '%s'\n", text, err, msg);
}

static void test_meshio(void)
{
    /* meshio_ints into an array of exactly `want` values */
    long long *v = malloc(sizeof(long long) * 3);
    T_EQ_INT(meshio_ints("1 2 3", v, 3), 0);
    T_CHECK(v[0] == 1 && v[1] == 2 && v[2] == 3);
    T_EQ_INT(meshio_ints(" 7\t8 9 \r", v, 3), 0);
    T_EQ_INT(meshio_ints("1 2", v, 3), -1);
    T_EQ_INT(meshio_ints("1 2 3 4", v, 3), -1);
    T_EQ_INT(meshio_ints("1 2 3 4 5", v, 3), -1);
    T_EQ_INT(meshio_ints("1 2 3 4 5 6 7", v, 3), -1);
    T_EQ_INT(meshio_ints("", v, 3), -1);
    T_EQ_INT(meshio_ints("1 2 3x", v, 3), -1);
    free(v);
    amr_mesh m;
    long *line;
    char err[512];
    /* cell lines with too few / too many integers: refused naming the line */
    mesh_refused("amr2d 1 1 0\n0 0\n", "s:2: malformed cell line");
    mesh_refused("amr2d 1 1 0\n0 0 0 0\n", "s:2: malformed cell line");
    mesh_refused("amr2d 1 1 0\n0 0 0 0 0\n", "s:2: malformed cell line");
    mesh_refused("amr2d 1 1 0\n0 0 0 1 2 3 4 5 6 7 8 9\n", "s:2: malformed cell line");
    mesh_refused("amr2d 1 1 0 5\n0 0 0\n", "s:1: expected the header");
    mesh_refused("amr2d 1 1 0 5 6 7\n0 0 0\n", "s:1: expected the header");
    T_EQ_INT(read_str("amr2d 1 1 0\n0 0 0\n", &m, &line, err, sizeof err), 0);
    /* the header's largest values: in range (then: no cells), and one more: out of range */
    mesh_refused("amr2d 1048576 1 0\n", "s:2: no cells after the header");
    mesh_refused("amr2d 1048577 1 0\n", "s:1: header out of range");
    mesh_refused("amr2d 1 1048576 0\n", "no cells after the header");
    mesh_refused("amr2d 1 1048577 0\n", "header out of range");
    mesh_refused("amr2d 0 1 0\n", "header out of range");
    mesh_refused("amr2d 1 1 -1\n", "header out of range");
    /* LEVMAX 24 passes the range check (its table, 2^48 buckets, does not fit); 25 does not */
    mesh_refused("amr2d 1 1 24\n", "s:1: the perfect hash table needs");
    mesh_refused("amr2d 1 1 25\n", "s:1: header out of range");
    T_EQ_INT(read_str("amr2d 2 2 3\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n", &m, &line, err, sizeof err), 0);
    /* the finest level: NX << LEVMAX = 2^30 passes (the table then does not fit), 2^31 does not;
     * the same for NY */
    mesh_refused("amr2d 1048576 1 10\n", "perfect hash table needs");
    mesh_refused("amr2d 1048576 1 11\n", "s:1: finest level too large");
    mesh_refused("amr2d 1 1048576 10\n", "perfect hash table needs");
    mesh_refused("amr2d 1 1048576 11\n", "s:1: finest level too large");
    /* cells at the domain's edge: (NX << level) - 1 inside, NX << level outside */
    T_EQ_INT(read_str("amr2d 2 1 1\n0 0 0\n2 0 1\n3 0 1\n2 1 1\n3 1 1\n", &m, &line, err, sizeof err), 0);
    mesh_refused("amr2d 2 1 1\n0 0 0\n4 0 1\n", "s:3: cell (4, 0) at level 1 is outside the domain (4 x 2 cells");
    mesh_refused("amr2d 2 1 1\n0 0 0\n0 2 1\n", "s:3: cell (0, 2)");
    mesh_refused("amr2d 2 1 1\n0 0 2\n", "s:2: level 2 out of range [0, 1]");
    /* a hole and an overlap, named by coordinates and lines (W = 3, H = 2: not square) */
    const char *holey = "amr2d 3 2 0\n0 0 0\n1 0 0\n2 0 0\n0 1 0\n1 1 0\n";
    T_EQ_INT(read_str(holey, &m, &line, err, sizeof err), 0);
    FILE *f = fmemopen((void *)holey, strlen(holey), "r");
    T_EQ_INT(meshio_read(f, "h", &m, &line, err, sizeof err), 0);
    fclose(f);
    int *t = malloc(sizeof(int) * 6);
    T_EQ_INT(meshio_check(&m, line, t, "h", err, sizeof err), 1);
    T_CHECK(strstr(err, "h:6: hole") != NULL && strstr(err, "finest-level cell (2, 1)") != NULL);
    m.i[4] = 2, m.j[4] = 0; /* line 6 now repeats line 4's cell */
    T_EQ_INT(meshio_check(&m, line, t, "h", err, sizeof err), 1);
    T_CHECK(strstr(err, "h:6: cell (2, 0) at level 0 overlaps the cell on line 4") != NULL);
    free(t); free(line); amr_free(&m);
    /* a full table: n = W * H cells exactly is fine, one more must overlap */
    T_EQ_INT(read_str("amr2d 2 1 0\n0 0 0\n1 0 0\n", &m, &line, err, sizeof err), 0);
    mesh_refused("amr2d 2 1 0\n0 0 0\n1 0 0\n1 0 0\n", "s:4: cell (1, 0) at level 0 overlaps the cell on line 3");
}

static void test_neigh1d_ends(void)
{
    /* keys 0, 2, 6, 8 (dmin 2): buckets 0, 1, 3, 4 of a table of m = 5 -- both ends used */
    double x[4] = {6, 0, 8, 2};
    long m = 5;
    int *t = malloc(sizeof(int) * (size_t)m), left[4], right[4];
    hash_neigh1d_cpu(x, 4, 0.0, 2.0, t, m, left, right);
    T_CHECK(left[1] == 1 && right[1] == 3); /* the smallest key: itself on the left */
    T_CHECK(left[2] == 0 && right[2] == 2); /* the largest key: itself on the right */
    T_CHECK(left[0] == 3 && right[0] == 2 && left[3] == 1 && right[3] == 0);
    int idx[4];
    T_EQ_INT(hash_sort1d_cpu(x, 4, 0.0, 2.0, t, m, idx, NULL), 4);
    T_CHECK(idx[0] == 1 && idx[1] == 3 && idx[2] == 0 && idx[3] == 2);
    free(t);
}

static void test_compact_limits(void)
{
    T_EQ_INT(ch_capacity(0, 0.5), 16);
    T_EQ_INT(ch_capacity(8, 0.5), 16);  /* 16 * 0.5 = 8: exactly at the load factor */
    T_EQ_INT(ch_capacity(9, 0.5), 32);
    T_EQ_INT(ch_capacity(16, 0.5), 32);
    T_EQ_INT(ch_capacity(17, 0.5), 64);
    T_EQ_INT(ch_capacity(16, 1.0), 16);
    T_EQ_INT(ch_capacity(17, 1.0), 32);
    T_EQ_INT(ch_capacity(1L << 20, 0.5), 1L << 21);
    long cap = 16;
    uint64_t *keys = malloc(sizeof(uint64_t) * cap);
    int *vals = malloc(sizeof(int) * cap);
    int ci[2] = {(1 << CH_COORD_BITS) - 1, 0}, cj[2] = {0, (1 << CH_COORD_BITS) - 1}, lev[2] = {20, 20};
    T_EQ_INT(ch_build_cpu(keys, vals, cap, ci, cj, lev, 2), 0); /* the largest coordinates */
    T_EQ_INT(ch_find(keys, vals, cap, ch_pack(20, (1 << CH_COORD_BITS) - 1, 0)), 0);
    T_EQ_INT(ch_find(keys, vals, cap, ch_pack(20, 0, (1 << CH_COORD_BITS) - 1)), 1);
    ci[0] = 1 << CH_COORD_BITS;
    T_EQ_INT(ch_build_cpu(keys, vals, cap, ci, cj, lev, 2), 1); /* one more does not fit the key */
    ci[0] = 0, cj[1] = 1 << CH_COORD_BITS;
    T_EQ_INT(ch_build_cpu(keys, vals, cap, ci, cj, lev, 2), 1);
    ci[0] = -1, cj[1] = 0;
    T_EQ_INT(ch_build_cpu(keys, vals, cap, ci, cj, lev, 2), 1);
    free(keys);
    free(vals);
}

int main(void)
{
    test_table(5, 4, 0.0, 1.0, 10.0, 2.0);
    test_table(2, 2, -1.0, 0.5, 0.0, 0.25); /* the smallest table: one cell */
    test_table(51, 23, 0.125, 0.125, 200.0, 200.0); /* the EOS table's shape (Listing 5), dyadic axes: exact slots */
    test_table(3, 17, 0.0, 2.0, -4.0, 0.5);
    test_neigh1d_ends();
    test_meshio();
    test_compact_limits();
    /* radix passes of <= 11 bits: ceil(bits / 11) */
    for (int b = 1; b <= 62; b++) T_EQ_INT(radix_passes(b), (b + 10) / 11);
    T_EQ_INT(radix_passes(11), 1);
    T_EQ_INT(radix_passes(12), 2);
    T_EQ_INT(radix_passes(22), 2);
    T_EQ_INT(radix_passes(23), 3);
    T_EQ_INT(radix_passes(33), 3);
    return T_DONE();
}
