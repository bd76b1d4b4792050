/* hashdata.cu -- the paper's other hash algorithms on the user's own files: sort, remap and
 * table look-up (Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data",
 * sec. 3.1 Listing 1, sec. 3.3 Listing 3, sec. 3.4 Listing 5); neighbours: hashmesh/neighbors.
 *
 *   hashdata --op=sort   --in=KEYS --out=FILE                      [--backend=cpu|gpu]
 *   hashdata --op=remap  --in=OLD --new=NEW --values=VALS --out=FILE [--backend=cpu|gpu]
 *   hashdata --op=lookup --table=TABLE --in=QUERIES --out=FILE     [--backend=cpu|gpu]
 *
 * Files are text; blank lines and lines starting with '#' are ignored everywhere.
 *   KEYS     `keys1d DMIN`, then one key per line.  DMIN: the minimum spacing of the keys
 *            (eq. 2.13: bucket = floor((x - min) / DMIN)); two keys in one bucket are an error
 *            (with a DMIN that is not a power of two, keys exactly DMIN apart can round into
 *            one bucket: give a DMIN slightly below the true spacing).
 *            FILE: one line per key in ascending order, `index key` (0-based input index).
 *   OLD/NEW  2D AMR meshes in the format of hashmesh/neighbors (`amr2d NX NY LEVMAX`, then
 *            `i j level` per cell), over the same domain (same header).
 *   VALS     one line per OLD cell, in OLD's order: `mean` or `mean gx gy` (a linear
 *            reconstruction, slopes per finest-level cell width).  FILE: one line per NEW
 *            cell, its mean value (the exact integral of the reconstruction / its area).
 *   TABLE    `table2d NX NY X0 X1 Y0 Y1` (uniform axes, NX, NY >= 2), then NX * NY values,
 *            x fastest, any number per line.  QUERIES: `x y` per line, inside the table.
 *            FILE: one bilinear interpolation per query line.
 * Bad input: ONE line `error: FILE:LINE: ...`, exit 2, FILE not created (every check runs
 * before FILE.tmp is opened; it is renamed onto FILE at the end); the output may not be an
 * input, a directory or a device (common/fileio.h).  --backend=gpu
 * exits 77 (SKIP) without a GPU.  Host-side validation is the hash write itself (as in
 * neighbors): the CPU hash runs first in both backends, the GPU then redoes the work. */
#include <errno.h>
#include <math.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/fileio.h"
#include "gen.h"
#include "hash.h"
#include "meshio.h"
#include "kernels.cuh"

#define HD_MAX_LINE 4095 /* longest accepted line, as meshio */

typedef struct {
    const char *path;
    FILE *f;
    long long ln;
    char buf[HD_MAX_LINE + 1];
} reader;
static void rd_open(reader *r, const char *path)
{
    r->path = path;
    r->ln = 0;
    r->f = fopen(path, "r");
    if (!r->f) DIE_USAGE("cannot read %s: %s", path, strerror(errno));
}
/* the next non-blank, non-comment line, or NULL at the end */
static const char *rd_next(reader *r)
{
    while (fileio_read_line(r->f, r->buf, sizeof r->buf, &r->ln, r->path))
        if (!meshio_skip(r->buf)) return r->buf;
    return NULL;
}
/* up to `most` finite numbers of s into v; their count, or -1 if something else is there */
static int parse_doubles(const char *s, double *v, int most)
{
    int k = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r') s++;
        if (!*s) return k;
        if (k == most) return -1;
        char *end;
        errno = 0;
        double x = strtod(s, &end);
        if (end == s || errno == ERANGE || !isfinite(x) || (*end && *end != ' ' && *end != '\t' && *end != '\r'))
            return -1;
        v[k++] = x;
        s = end;
    }
}
/* a header line `word` followed by exactly `want` numbers */
static void rd_header(reader *r, const char *word, double *v, int want, const char *form)
{
    const char *s = rd_next(r);
    size_t wl = strlen(word);
    while (s && (*s == ' ' || *s == '\t')) s++;
    if (!s || strncmp(s, word, wl) || (s[wl] != ' ' && s[wl] != '\t') || parse_doubles(s + wl, v, want) != want)
        DIE_USAGE("%s:%lld: expected the header '%s'", r->path, s ? r->ln : r->ln + 1, form);
}
static void *grow(void *p, long *cap, size_t elem, const reader *r)
{
    *cap *= 2;
    void *q = realloc(p, elem * (size_t)*cap);
    if (!q) DIE_USAGE("%s:%lld: out of host memory", r->path, r->ln);
    return q;
}
/* The output: opened only after every check passed and the work is done, so a bad input
 * never leaves FILE or FILE.tmp behind; written to FILE.tmp, renamed onto FILE. */
typedef struct {
    const char *tmp, *out;
} outfile;
static FILE *out_open(const outfile *of)
{
    FILE *o = fopen(of->tmp, "w");
    if (!o) DIE_USAGE("cannot write %s: %s", of->tmp, strerror(errno));
    return o;
}
static void out_commit(FILE *o, const outfile *of)
{
    if (fclose(o) != 0) {
        remove(of->tmp);
        DIE("write error on %s", of->tmp);
    }
    if (rename(of->tmp, of->out)) {
        remove(of->tmp);
        DIE("cannot rename %s to %s: %s", of->tmp, of->out, strerror(errno));
    }
}
static double host_bytes(void) { return (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE); }

/* ---------------- sort (Listing 1) ---------------- */
static void op_sort(const char *in, const outfile *of, int gpu)
{
    reader r;
    rd_open(&r, in);
    double h[1];
    rd_header(&r, "keys1d", h, 1, "keys1d DMIN");
    double dmin = h[0];
    if (!(dmin > 0)) DIE_USAGE("%s:%lld: DMIN must be positive", in, r.ln);
    long cap = 1024, n = 0;
    double *x = (double *)gen_alloc(sizeof(double) * cap);
    long *line = (long *)gen_alloc(sizeof(long) * cap);
    const char *s;
    while ((s = rd_next(&r))) {
        double v[1];
        if (parse_doubles(s, v, 1) != 1) DIE_USAGE("%s:%lld: malformed key line (want one finite number)", in, r.ln);
        if (n == cap) {
            long c2 = cap;
            x = (double *)grow(x, &c2, sizeof(double), &r);
            line = (long *)grow(line, &cap, sizeof(long), &r);
        }
        x[n] = v[0];
        line[n++] = (long)r.ln;
        if (n >= 2147483647L) DIE_USAGE("%s:%lld: more than 2^31 - 1 keys", in, r.ln);
    }
    fclose(r.f);
    if (n == 0) DIE_USAGE("%s:%lld: no keys after the header", in, r.ln + 1);
    long lo = 0, hi = 0;
    for (long i = 1; i < n; i++) {
        if (x[i] < x[lo]) lo = i;
        if (x[i] > x[hi]) hi = i;
    }
    double span = (x[hi] - x[lo]) / dmin;
    if (span + 1 >= 2147483647.0 || (span + 1) * 4 > 0.5 * host_bytes())
        DIE_USAGE("%s:%ld: the perfect hash table, (max - min) / DMIN + 1 = %.3g buckets (min on line %ld), is too large "
                  "(limits: 2^31 - 1 buckets, half the host memory)", in, line[hi], span + 1, line[lo]);
    long m = (long)span + 1;
    int *t = (int *)gen_alloc(sizeof(int) * m), *idx = (int *)gen_alloc(sizeof(int) * n);
    memset(t, -1, sizeof(int) * m);
    for (long i = 0; i < n; i++) { /* Listing 1's write, checked: a perfect hash has no collision */
        long b = hash_bucket1d(x[i], x[lo], dmin);
        if (t[b] >= 0)
            DIE_USAGE("%s:%ld: key %.17g shares a bucket with the key on line %ld (%.17g): closer than DMIN = %g (keys "
                      "exactly DMIN apart can round into one bucket: give a DMIN slightly below the spacing)",
                      in, line[i], x[i], line[t[b]], x[t[b]], dmin);
        t[b] = (int)i;
    }
    long count = 0;
    for (long b = 0; b < m; b++)
        if (t[b] >= 0) idx[count++] = t[b];
    if (gpu) {
        gpu_hash_ctx g;
        memset(&g, 0, sizeof g);
        g.n = (int)n; g.m = m; g.xmin = x[lo]; g.dmin = dmin;
        g.x = (const double *)device_alloc_or_usage(sizeof(double) * n, "keys");
        g.t = (int *)device_alloc_or_usage(sizeof(int) * m, "hash table");
        g.off = (int *)device_alloc_or_usage(sizeof(int) * m, "scan output");
        g.tmp_bytes = hm_scan_bytes(m);
        g.tmp = device_alloc_or_usage(g.tmp_bytes, "scan scratch");
        g.idx = (int *)device_alloc_or_usage(sizeof(int) * n, "sorted indices");
        CHECK_CUDA(cudaMemcpy((void *)g.x, x, sizeof(double) * n, cudaMemcpyHostToDevice));
        gpu_hash_sort1d(&g, 0);
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(idx, g.idx, sizeof(int) * n, cudaMemcpyDeviceToHost));
        const void *fr[] = {g.x, g.t, g.off, g.tmp, g.idx};
        for (int k = 0; k < 5; k++) CHECK_CUDA(cudaFree((void *)fr[k]));
    }
    FILE *o = out_open(of);
    for (long p = 0; p < n; p++) fprintf(o, "%d %.17g\n", idx[p], x[idx[p]]);
    out_commit(o, of);
    fprintf(stderr, "hashdata sort: %ld keys, %ld buckets\n", n, m);
    free(x); free(line); free(t); free(idx);
}

/* ---------------- remap (Listing 3, linear reconstruction) ---------------- */
static void read_mesh(const char *path, amr_mesh *m, long **line, int *t)
{
    FILE *f = fopen(path, "r");
    if (!f) DIE_USAGE("cannot read %s: %s", path, strerror(errno));
    char err[512];
    if (meshio_read(f, path, m, line, err, sizeof err)) DIE_USAGE("%s", err);
    fclose(f);
    if (t && meshio_check(m, *line, t, path, err, sizeof err)) DIE_USAGE("%s", err);
}
static void op_remap(const char *in, const char *nw, const char *vals, const outfile *of, int gpu)
{
    amr_mesh mo, mn;
    long *lo_line, *ln_line;
    read_mesh(in, &mo, &lo_line, NULL);
    long W = amr_width(&mo), H = amr_height(&mo);
    int *t = (int *)malloc(sizeof(int) * (size_t)(W * H));
    if (!t) DIE_USAGE("%s:1: cannot allocate the finest-level hash table (%ld x %ld buckets)", in, W, H);
    char err[512];
    if (meshio_check(&mo, lo_line, t, in, err, sizeof err)) DIE_USAGE("%s", err);
    read_mesh(nw, &mn, &ln_line, NULL);
    if (mn.nx != mo.nx || mn.ny != mo.ny || mn.levmax != mo.levmax)
        DIE_USAGE("%s:1: header 'amr2d %d %d %d' differs from %s's 'amr2d %d %d %d' (remap needs one domain and finest "
                  "level)", nw, mn.nx, mn.ny, mn.levmax, in, mo.nx, mo.ny, mo.levmax);
    { /* the new mesh is validated with its own table (then freed) */
        int *t2 = (int *)malloc(sizeof(int) * (size_t)(W * H));
        if (!t2) DIE_USAGE("%s:1: cannot allocate a second finest-level table", nw);
        if (meshio_check(&mn, ln_line, t2, nw, err, sizeof err)) DIE_USAGE("%s", err);
        free(t2);
    }
    double *mean = (double *)gen_alloc(sizeof(double) * mo.n), *gx = (double *)gen_alloc(sizeof(double) * mo.n),
           *gy = (double *)gen_alloc(sizeof(double) * mo.n);
    reader r;
    rd_open(&r, vals);
    long k = 0;
    const char *s;
    while ((s = rd_next(&r))) {
        double v[3];
        int c = parse_doubles(s, v, 3);
        if (c != 1 && c != 3) DIE_USAGE("%s:%lld: malformed value line (want 'mean' or 'mean gx gy')", vals, r.ln);
        if (k == mo.n) DIE_USAGE("%s:%lld: more values than the %ld cells of %s", vals, r.ln, mo.n, in);
        mean[k] = v[0];
        gx[k] = c == 3 ? v[1] : 0;
        gy[k] = c == 3 ? v[2] : 0;
        k++;
    }
    fclose(r.f);
    if (k < mo.n) DIE_USAGE("%s:%lld: %ld values for the %ld cells of %s", vals, r.ln + 1, k, mo.n, in);
    double *out = (double *)gen_alloc(sizeof(double) * mn.n);
    /* t holds Listing 3's write already (meshio_check wrote every old cell's buckets) */
    for (long b = 0; b < mn.n; b++)
        out[b] = remap2d_gather(b, mo.i, mo.j, mo.lev, mean, gx, gy, mn.i, mn.j, mn.lev, mo.levmax, W, t);
    if (gpu) {
        gpu_remap_ctx g;
        memset(&g, 0, sizeof g);
        g.na = (int)mo.n; g.nb = (int)mn.n; g.levmax = mo.levmax; g.W = W; g.H = H;
        const void *hs[9] = {mo.i, mo.j, mo.lev, mn.i, mn.j, mn.lev, mean, gx, gy};
        size_t bs[9] = {4 * (size_t)mo.n, 4 * (size_t)mo.n, 4 * (size_t)mo.n, 4 * (size_t)mn.n, 4 * (size_t)mn.n,
                        4 * (size_t)mn.n, 8 * (size_t)mo.n, 8 * (size_t)mo.n, 8 * (size_t)mo.n};
        void *ds[9];
        for (int a = 0; a < 9; a++) {
            ds[a] = device_alloc_or_usage(bs[a], "remap input");
            CHECK_CUDA(cudaMemcpy(ds[a], hs[a], bs[a], cudaMemcpyHostToDevice));
        }
        g.oi = (const int *)ds[0]; g.oj = (const int *)ds[1]; g.ol = (const int *)ds[2];
        g.ni = (const int *)ds[3]; g.nj = (const int *)ds[4]; g.nl = (const int *)ds[5];
        g.mean = (const double *)ds[6]; g.gx = (const double *)ds[7]; g.gy = (const double *)ds[8];
        g.t = (int *)device_alloc_or_usage(sizeof(int) * (size_t)(W * H), "finest-level hash table");
        g.out = (double *)device_alloc_or_usage(sizeof(double) * mn.n, "remap output");
        gpu_hash_remap2d(&g, 0);
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(out, g.out, sizeof(double) * mn.n, cudaMemcpyDeviceToHost));
        for (int a = 0; a < 9; a++) CHECK_CUDA(cudaFree(ds[a]));
        CHECK_CUDA(cudaFree(g.t)); CHECK_CUDA(cudaFree(g.out));
    }
    FILE *o = out_open(of);
    for (long b = 0; b < mn.n; b++) {
        double rr = (double)(1L << (mn.levmax - mn.lev[b]));
        fprintf(o, "%.17g\n", out[b] / (rr * rr));
    }
    out_commit(o, of);
    fprintf(stderr, "hashdata remap: %ld old cells -> %ld new cells, finest level %ld x %ld\n", mo.n, mn.n, W, H);
    free(t); free(mean); free(gx); free(gy); free(out); free(lo_line); free(ln_line);
    amr_free(&mo);
    amr_free(&mn);
}

/* ---------------- table look-up (Listing 5) ---------------- */
#define HD_MAX_TABLE 16777216L /* table entries (NX * NY) */
static void op_lookup(const char *table, const char *in, const outfile *of, int gpu)
{
    reader r;
    rd_open(&r, table);
    double h[6];
    rd_header(&r, "table2d", h, 6, "table2d NX NY X0 X1 Y0 Y1");
    if (h[0] != floor(h[0]) || h[1] != floor(h[1]) || h[0] < 2 || h[1] < 2 || h[0] * h[1] > HD_MAX_TABLE)
        DIE_USAGE("%s:%lld: NX and NY must be integers >= 2 with NX * NY <= %ld", table, r.ln, HD_MAX_TABLE);
    if (!(h[3] > h[2]) || !(h[5] > h[4])) DIE_USAGE("%s:%lld: the axes need X0 < X1 and Y0 < Y1", table, r.ln);
    int nx = (int)h[0], ny = (int)h[1];
    long ne = (long)nx * ny, k = 0;
    double *data = (double *)gen_alloc(sizeof(double) * ne), *xa = (double *)gen_alloc(sizeof(double) * nx),
           *ya = (double *)gen_alloc(sizeof(double) * ny);
    for (int i = 0; i < nx; i++) xa[i] = h[2] + (h[3] - h[2]) * i / (nx - 1);
    for (int j = 0; j < ny; j++) ya[j] = h[4] + (h[5] - h[4]) * j / (ny - 1);
    const char *s;
    while ((s = rd_next(&r))) {
        double v[HD_MAX_LINE / 2];
        int c = parse_doubles(s, v, HD_MAX_LINE / 2);
        if (c < 0) DIE_USAGE("%s:%lld: malformed table line (want finite numbers)", table, r.ln);
        if (k + c > ne) DIE_USAGE("%s:%lld: more than NX * NY = %ld table values", table, r.ln, ne);
        memcpy(data + k, v, sizeof(double) * c);
        k += c;
    }
    fclose(r.f);
    if (k < ne) DIE_USAGE("%s:%lld: %ld table values, NX * NY = %ld needed", table, r.ln + 1, k, ne);
    rd_open(&r, in);
    long cap = 1024, nq = 0;
    double *qx = (double *)gen_alloc(sizeof(double) * cap), *qy = (double *)gen_alloc(sizeof(double) * cap);
    while ((s = rd_next(&r))) {
        double v[2];
        if (parse_doubles(s, v, 2) != 2) DIE_USAGE("%s:%lld: malformed query line (want 'x y')", in, r.ln);
        if (v[0] < h[2] || v[0] > h[3] || v[1] < h[4] || v[1] > h[5])
            DIE_USAGE("%s:%lld: query (%g, %g) outside the table [%g, %g] x [%g, %g]", in, r.ln, v[0], v[1], h[2], h[3], h[4],
                      h[5]);
        if (nq == cap) {
            long c2 = cap;
            qx = (double *)grow(qx, &c2, sizeof(double), &r);
            qy = (double *)grow(qy, &cap, sizeof(double), &r);
        }
        qx[nq] = v[0];
        qy[nq++] = v[1];
        if (nq >= 2147483647L) DIE_USAGE("%s:%lld: more than 2^31 - 1 queries", in, r.ln);
    }
    fclose(r.f);
    if (nq == 0) DIE_USAGE("%s:%lld: no queries", in, r.ln + 1);
    double *out = (double *)gen_alloc(sizeof(double) * nq);
    if (!gpu) table_lookup_cpu(TAB_HASH, data, xa, nx, ya, ny, qx, qy, nq, out);
    else {
        if (sizeof(double) * (size_t)(ne + nx + ny) > 48 * 1024)
            DIE_USAGE("%s:1: --backend=gpu stages the table in 48 KiB of shared memory: NX * NY + NX + NY <= 6144", table);
        gpu_table_ctx g;
        g.nx = nx; g.ny = ny; g.nq = nq; g.blocks = 1024;
        const void *hs[5] = {data, xa, ya, qx, qy};
        size_t bs[5] = {8 * (size_t)ne, 8 * (size_t)nx, 8 * (size_t)ny, 8 * (size_t)nq, 8 * (size_t)nq};
        void *ds[5];
        for (int a = 0; a < 5; a++) {
            ds[a] = device_alloc_or_usage(bs[a], "table input");
            CHECK_CUDA(cudaMemcpy(ds[a], hs[a], bs[a], cudaMemcpyHostToDevice));
        }
        g.data = (const double *)ds[0]; g.xaxis = (const double *)ds[1]; g.yaxis = (const double *)ds[2];
        g.qx = (const double *)ds[3]; g.qy = (const double *)ds[4];
        g.out = (double *)device_alloc_or_usage(sizeof(double) * nq, "table output");
        gpu_table_hash(&g, 0);
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(out, g.out, sizeof(double) * nq, cudaMemcpyDeviceToHost));
        for (int a = 0; a < 5; a++) CHECK_CUDA(cudaFree(ds[a]));
        CHECK_CUDA(cudaFree(g.out));
    }
    FILE *o = out_open(of);
    for (long q = 0; q < nq; q++) fprintf(o, "%.17g\n", out[q]);
    out_commit(o, of);
    fprintf(stderr, "hashdata lookup: %ld queries in a %d x %d table\n", nq, nx, ny);
    free(data); free(xa); free(ya); free(qx); free(qy); free(out);
}

int main(int argc, char **argv)
{
    const char *op = "", *in = "", *out = "", *nw = "", *vals = "", *table = "", *backend = "cpu";
    int device = 0;
    long long max_mb = 4096;
    arg_opt opts[] = {
        {"op", ARG_CHOICE, &op, "what to do", 0, 0, "sort remap lookup"},
        {"in", ARG_STR, &in, "sort: KEYS; remap: the OLD mesh; lookup: QUERIES", 0, 0, NULL},
        {"new", ARG_STR, &nw, "remap: the NEW mesh", 0, 0, NULL},
        {"values", ARG_STR, &vals, "remap: one 'mean' or 'mean gx gy' per OLD cell", 0, 0, NULL},
        {"table", ARG_STR, &table, "lookup: the table (table2d NX NY X0 X1 Y0 Y1, then NX*NY values)", 0, 0, NULL},
        {"out", ARG_STR, &out, "output file", 0, 0, NULL},
        {"backend", ARG_CHOICE, &backend, "where the hash runs", 0, 0, "cpu gpu"},
        {"device", ARG_INT, &device, "CUDA device index (--backend=gpu)", 0, 63, NULL},
        {"max-mb", ARG_LONG, &max_mb, "largest input file read, in MB (10^6 bytes)", 1, 1000000, NULL},
    };
    const char *usage = "hashdata --op=sort|remap|lookup --in=FILE --out=FILE [--new= --values= | --table=] "
                        "[--backend=cpu|gpu]";
    args_parse(argc, argv, opts, ARGS_COUNT(opts), usage,
               "The paper's hash sort, remap and table look-up (Robey et al.) on your own files.");
    if (!*op || !*in || !*out) DIE_USAGE("--op, --in and --out are required (usage: %s)", usage);
    int is_sort = !strcmp(op, "sort"), is_remap = !strcmp(op, "remap");
    if (is_remap && (!*nw || !*vals)) DIE_USAGE("--op=remap needs --new and --values");
    if (!is_sort && !is_remap && !*table) DIE_USAGE("--op=lookup needs --table");
    if ((is_sort && (*nw || *vals || *table)) || (is_remap && *table) || (!is_sort && !is_remap && (*nw || *vals)))
        DIE_USAGE("--op=%s does not take %s", op, is_remap ? "--table" : is_sort ? "--new, --values or --table" : "--new or --values");
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", out) >= (int)sizeof tmp) DIE_USAGE("--out path too long");
    const char *ins[3] = {in, NULL, NULL};
    int nin = 1;
    if (is_remap) { ins[nin++] = nw; ins[nin++] = vals; }
    else if (!is_sort) ins[nin++] = table;
    for (int a = 0; a < nin; a++) fileio_check_size(ins[a], max_mb * 1000000);
    fileio_check_out(out, ins, nin);
    fileio_check_out(tmp, ins, nin); /* FILE.tmp, written first, must not be an input either */
    int gpu = !strcmp(backend, "gpu");
    if (gpu) device_require(device, 7, 5);

    outfile of = {tmp, out};
    if (is_sort) op_sort(in, &of, gpu);
    else if (is_remap) op_remap(in, nw, vals, &of, gpu);
    else op_lookup(table, in, &of, gpu);
    return 0;
}
