/* Host tests of hashmesh/meshio.h (the reader behind hashmesh/neighbors): a generated AMR
 * mesh written in the file format reads back identically, validates, and its Listing 2
 * neighbours from the validation table equal the k-D tree's; line numbers of errors. */
#include "../../common/testlib.h"
#include "../../hashmesh/gen.h"
#include "../../hashmesh/hash.h"
#include "../../hashmesh/baseline.h"
#include "../../hashmesh/meshio.h"

static int read_str(const char *text, amr_mesh *m, long **line, char *err, size_t es)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int r = meshio_read(f, "s", m, line, err, es);
    fclose(f);
    return r;
}

static void roundtrip(int nx, int ny, int levmax, double frac)
{
    amr_mesh g, m;
    amr_generate(&g, nx, ny, levmax, frac, 7 + nx);
    char path[] = "/tmp/test_hashmesh_meshio_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# generated\namr2d %d %d %d\n", nx, ny, levmax);
    for (long c = 0; c < g.n; c++) fprintf(f, "%d %d %d\n", g.i[c], g.j[c], g.lev[c]);
    fclose(f);
    f = fopen(path, "r");
    long *line;
    char err[512];
    T_EQ_INT(meshio_read(f, path, &m, &line, err, sizeof err), 0);
    fclose(f);
    remove(path);
    T_EQ_INT(m.n, g.n);
    T_CHECK(!memcmp(m.i, g.i, sizeof(int) * g.n) && !memcmp(m.j, g.j, sizeof(int) * g.n) &&
            !memcmp(m.lev, g.lev, sizeof(int) * g.n));
    T_EQ_INT(line[0], 3);
    T_EQ_INT(line[m.n - 1], m.n + 2);
    long W = amr_width(&m), H = amr_height(&m);
    int *t = malloc(sizeof(int) * W * H), *nb = malloc(sizeof(int) * 4 * m.n), *nk = calloc(4 * m.n, sizeof(int));
    T_EQ_INT(meshio_table_fits(&m, path, err, sizeof err), 0);
    T_EQ_INT(meshio_check(&m, line, t, path, err, sizeof err), 0);
    for (long c = 0; c < m.n; c++)
        hash_neigh2d_read(t, W, H, m.i[c], m.j[c], m.lev[c], m.levmax, &nb[4 * c], &nb[4 * c + 1], &nb[4 * c + 2], &nb[4 * c + 3]);
    kbox *b = malloc(sizeof(kbox) * m.n);
    amr_boxes(&m, b);
    kd2 tree;
    kd2_alloc(&tree, m.n);
    T_EQ_INT(kd2_neigh2d(&tree, &m, b, nk), 0);
    T_CHECK(!memcmp(nb, nk, sizeof(int) * 4 * m.n));
    /* swap one cell for a copy of another: overlap reported on the later line */
    if (m.n > 2) {
        m.i[2] = m.i[1]; m.j[2] = m.j[1]; m.lev[2] = m.lev[1];
        T_EQ_INT(meshio_check(&m, line, t, "x", err, sizeof err), 1);
        T_CHECK(strstr(err, "x:5: ") == err && strstr(err, "line 4") != NULL);
    }
    kd2_free(&tree);
    free(t); free(nb); free(nk); free(b); free(line);
    amr_free(&m); amr_free(&g);
}

int main(void)
{
    amr_mesh m;
    long *line;
    char err[512];
    T_EQ_INT(read_str("amr2d 1 1 0\n0 0 0\n", &m, &line, err, sizeof err), 0);
    T_EQ_INT(m.n, 1);
    free(line); amr_free(&m);
    T_EQ_INT(read_str("\n\n# c\namr2d 2 2 0\n0 0 0\n1 0 0 x\n", &m, &line, err, sizeof err), 1);
    T_CHECK(strstr(err, "s:6: malformed") != NULL);
    T_EQ_INT(read_str("amr2d 2 2 0\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n2 0 0\n", &m, &line, err, sizeof err), 1);
    T_CHECK(strstr(err, "s:6: cell (2, 0)") != NULL);
    T_EQ_INT(read_str("amr2d 2 2 3000000000\n", &m, &line, err, sizeof err), 1);
    T_CHECK(strstr(err, "s:1: header out of range") != NULL);
    T_EQ_INT(read_str("amr2d 2 2 0\n99999999999999999999 0 0\n", &m, &line, err, sizeof err), 1);
    T_CHECK(strstr(err, "s:2: malformed") != NULL);
    T_EQ_INT(read_str("amr2d 2 2\n", &m, &line, err, sizeof err), 1);
    T_CHECK(strstr(err, "s:1: expected the header") != NULL);
    roundtrip(1, 1, 0, 0);
    roundtrip(3, 2, 1, 0.5);
    roundtrip(17, 9, 3, 0.2);
    roundtrip(120, 100, 2, 0.3);
    return T_DONE();
}
