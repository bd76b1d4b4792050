/* meshio.h -- the mesh file of hashmesh/neighbors: reading and validating it (plain C).
 *
 *   amr2d NX NY LEVMAX          first line: coarse cells in x and y, finest level
 *   i j level                   then one cell per line, coordinates at the cell's own level
 * Blank lines and lines starting with '#' are ignored.  Every problem is reported as ONE
 * line naming the line number (a hole, which belongs to no line, names its location):
 * malformed lines, numbers out of range, a cell outside the domain, overlapping cells, a
 * hole, or a finest-level hash table too large for this machine (checked as soon as the header
 * is read, so a huge header costs nothing).  Lines are read with common/fileio.h's bounded
 * reader: a line over MESHIO_MAX_LINE bytes or a NUL byte (binary data, /dev/zero) exits 2
 * at once naming the line, after at most MESHIO_MAX_LINE + 1 bytes; the number of cells is
 * bounded by the number of finest-level cells (more cells than that must overlap), so no
 * input, not even an endless pipe, makes the reader run or grow without bound.
 * Validation IS the hash write of Listing 2: each cell writes its index into every finest
 * bucket it covers; a bucket written twice is an overlap, a bucket never written a hole. */
#ifndef HASHMESH_MESHIO_H
#define HASHMESH_MESHIO_H

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../common/fileio.h"
#include "gen.h"

#define MESHIO_MAX_NXY 1048576 /* coarse cells per axis */
#define MESHIO_MAX_LEVMAX 24   /* finest level */
#define MESHIO_MAX_LINE 4095   /* longest accepted line (bytes, newline excluded) */

/* Parses the integers of one line into v[0..want-1]; 0 if exactly `want` integers. */
static inline int meshio_ints(const char *s, long long *v, int want)
{
    int got = 0;
    while (1) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
        if (!*s) break;
        if (got == want) return -1;
        char *end;
        errno = 0;
        long long x = strtoll(s, &end, 10);
        if (end == s || errno) return -1;
        if (*end && !isspace((unsigned char)*end)) return -1;
        v[got++] = x;
        s = end;
    }
    return got == want ? 0 : -1;
}

static inline int meshio_skip(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
    return *s == '\0' || *s == '#';
}

static inline int meshio_table_fits(const amr_mesh *m, const char *name, char *err, size_t errsize);
static inline int meshio_check(const amr_mesh *m, const long *line, int *t, const char *name, char *err, size_t errsize);

/* More cells than finest-level cells must overlap (each covers at least one): the cells read
 * so far go through the full check, which names the first overlap as it would for the whole
 * file. */
static inline void meshio_overlap_early(const amr_mesh *m, const long *line, const char *name, char *err, size_t errsize)
{
    int *t = (int *)malloc(sizeof(int) * (size_t)amr_width(m) * (size_t)amr_height(m));
    if (!t || !meshio_check(m, line, t, name, err, errsize))
        snprintf(err, errsize, "%s:%ld: more cells than the %ld x %ld finest-level cells of the domain: cells overlap",
                 name, line[m->n - 1], amr_width(m), amr_height(m));
    free(t);
}

/* Reads a mesh; line[c] = the file line of cell c (caller frees m and *line).
 * Returns 0, or 1 with a one-line reason in err. */
static inline int meshio_read(FILE *f, const char *name, amr_mesh *m, long **line, char *err, size_t errsize)
{
    char buf[MESHIO_MAX_LINE + 1];
    long long ln = 0;
    long cap = 1024, n = 0;
    int have_header = 0;
    long long v[4];
    memset(m, 0, sizeof *m);
    *line = NULL;
    int *ci = NULL, *cj = NULL, *cl = NULL;
    long *cline = NULL;
    while (fileio_read_line(f, buf, sizeof buf, &ln, name)) {
        if (meshio_skip(buf)) continue;
        if (!have_header) {
            char word[16];
            int off = 0;
            if (sscanf(buf, " %15s%n", word, &off) != 1 || strcmp(word, "amr2d") || meshio_ints(buf + off, v, 3)) {
                snprintf(err, errsize, "%s:%lld: expected the header 'amr2d NX NY LEVMAX'", name, ln);
                goto fail;
            }
            if (v[0] < 1 || v[0] > MESHIO_MAX_NXY || v[1] < 1 || v[1] > MESHIO_MAX_NXY || v[2] < 0 ||
                v[2] > MESHIO_MAX_LEVMAX) {
                snprintf(err, errsize, "%s:%lld: header out of range (NX, NY in [1, %d], LEVMAX in [0, %d])", name, ln,
                         MESHIO_MAX_NXY, MESHIO_MAX_LEVMAX);
                goto fail;
            }
            if ((v[0] << v[2]) > 2147483647LL || (v[1] << v[2]) > 2147483647LL) {
                snprintf(err, errsize, "%s:%lld: finest level too large: (NX << LEVMAX) and (NY << LEVMAX) must be < 2^31",
                         name, ln);
                goto fail;
            }
            m->nx = (int)v[0];
            m->ny = (int)v[1];
            m->levmax = (int)v[2];
            if (meshio_table_fits(m, name, err, errsize)) goto fail;
            have_header = 1;
            ci = (int *)gen_alloc(sizeof(int) * cap);
            cj = (int *)gen_alloc(sizeof(int) * cap);
            cl = (int *)gen_alloc(sizeof(int) * cap);
            cline = (long *)gen_alloc(sizeof(long) * cap);
            continue;
        }
        if (meshio_ints(buf, v, 3)) {
            snprintf(err, errsize, "%s:%lld: malformed cell line (want three integers 'i j level')", name, ln);
            goto fail;
        }
        if (v[2] < 0 || v[2] > m->levmax) {
            snprintf(err, errsize, "%s:%lld: level %lld out of range [0, %d]", name, ln, v[2], m->levmax);
            goto fail;
        }
        if (v[0] < 0 || v[1] < 0 || v[0] >= ((long long)m->nx << v[2]) || v[1] >= ((long long)m->ny << v[2])) {
            snprintf(err, errsize, "%s:%lld: cell (%lld, %lld) at level %lld is outside the domain (%lld x %lld cells at that level)",
                     name, ln, v[0], v[1], v[2], (long long)m->nx << v[2], (long long)m->ny << v[2]);
            goto fail;
        }
        if (n == cap) {
            cap *= 2; /* each array kept (and freed at fail) if its realloc fails */
            int *ni = (int *)realloc(ci, sizeof(int) * cap);
            if (ni) ci = ni;
            int *nj = (int *)realloc(cj, sizeof(int) * cap);
            if (nj) cj = nj;
            int *nl = (int *)realloc(cl, sizeof(int) * cap);
            if (nl) cl = nl;
            long *nline = (long *)realloc(cline, sizeof(long) * cap);
            if (nline) cline = nline;
            if (!ni || !nj || !nl || !nline) {
                snprintf(err, errsize, "%s:%lld: out of host memory", name, ln);
                goto fail;
            }
        }
        ci[n] = (int)v[0];
        cj[n] = (int)v[1];
        cl[n] = (int)v[2];
        cline[n] = (long)ln;
        n++;
        if ((double)n > (double)amr_width(m) * (double)amr_height(m)) { /* bounds an endless input too */
            amr_mesh part = *m;
            part.n = n; part.i = ci; part.j = cj; part.lev = cl;
            meshio_overlap_early(&part, cline, name, err, errsize);
            goto fail;
        }
    }
    if (!have_header) {
        snprintf(err, errsize, "%s:%lld: empty file (expected the header 'amr2d NX NY LEVMAX')", name, ln + 1);
        goto fail;
    }
    if (n == 0) {
        snprintf(err, errsize, "%s:%lld: no cells after the header", name, ln + 1);
        goto fail;
    }
    m->n = n;
    m->i = ci;
    m->j = cj;
    m->lev = cl;
    *line = cline;
    return 0;
fail:
    free(ci); free(cj); free(cl); free(cline);
    memset(m, 0, sizeof *m);
    return 1;
}

/* Finest-level table size check against host memory (half of physical memory at most). */
static inline int meshio_table_fits(const amr_mesh *m, const char *name, char *err, size_t errsize)
{
    double buckets = (double)amr_width(m) * (double)amr_height(m);
    double bytes = buckets * sizeof(int);
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
    double limit = pages > 0 && psz > 0 ? 0.5 * (double)pages * (double)psz : 8.0 * 1073741824.0;
    if (bytes > limit) {
        snprintf(err, errsize,
                 "%s:1: the perfect hash table needs (NX << LEVMAX) x (NY << LEVMAX) = %.0f buckets (%.2f GiB), more "
                 "than half of this machine's memory (%.2f GiB)",
                 name, buckets, bytes / 1073741824.0, limit / 1073741824.0);
        return 1;
    }
    return 0;
}

/* Writes the mesh into t (W * H ints) and reports overlaps and holes. Returns 0 or 1. */
static inline int meshio_check(const amr_mesh *m, const long *line, int *t, const char *name, char *err, size_t errsize)
{
    long W = amr_width(m), H = amr_height(m);
    memset(t, -1, sizeof(int) * (size_t)(W * H));
    for (long c = 0; c < m->n; c++) {
        long r = 1L << (m->levmax - m->lev[c]), x0 = (long)m->i[c] * r, y0 = (long)m->j[c] * r;
        for (long y = y0; y < y0 + r; y++)
            for (long x = x0; x < x0 + r; x++) {
                int o = t[y * W + x];
                if (o >= 0) {
                    snprintf(err, errsize, "%s:%ld: cell (%d, %d) at level %d overlaps the cell on line %ld", name,
                             line[c], m->i[c], m->j[c], m->lev[c], line[o]);
                    return 1;
                }
                t[y * W + x] = (int)c;
            }
    }
    for (long b = 0; b < W * H; b++)
        if (t[b] < 0) {
            snprintf(err, errsize, "%s:%ld: hole: after the last cell no cell covers the finest-level cell (%ld, %ld) (level %d)", name,
                     line[m->n - 1], b % W, b / W, m->levmax);
            return 1;
        }
    return 0;
}

#endif
