/* sparsegrid/hierarchize.cu -- hierarchize (or dehierarchize) the user's own grids.
 *
 *   hierarchize --dims=N0xN1x... --tiles=T --in=FILE --out=FILE [--inverse] [--backend=cpu|gpu]
 *   hierarchize --sparse=D:N     --tiles=T --in=FILE --out=FILE [--precision=float|double] ...
 *
 * FILE: raw little-endian float32 (or float64 with --precision=double), T grids one after
 * another; a name ending in .npy is read / written as numpy's .npy (npy.h: '<f4' / '<f8', C
 * order, the number of values must match; written with shape (T, N_{d-1}, ..., N_0) for tiles,
 * (T, points) for sparse grids).  --dims: full grids ("tiles"), N0 the fastest dimension, each Ni = 2^l + 1 (3, 5,
 * 9, 17, 33, ...), 1 to 6 dimensions (5-6, and double on the GPU: computed in subspace order
 * with sparse.h's code, the same bits).  --sparse=D:N: regular sparse grids with boundary of
 * level N in D = 1..6 dimensions, in the subspace order of sparse.h (README: the layout).
 * --backend=cpu (default) runs the tuned OpenMP version (full grids in double: the scalar
 * double reference, tile by tile) and needs no GPU; --backend=gpu runs the pipelined fused
 * kernel for full grids (lines longer than 65 points: the point-code fused kernel; the
 * one-buffer fused kernel, or the thesis-style one, when a tile does not fit in shared
 * memory; 1-4 dimensions in float) and k_sparse for sparse grids and for the other full
 * grids (5-6 dimensions, double; plain -> subspace order in the kernel), and exits 77 when
 * there is no usable GPU.  Bad dims, a file whose size is not T * points * element bytes, a
 * missing input, an --out that is the input or cannot be written (common/fileio.h), input
 * holding NaN or Inf (unless --allow-nonfinite): one line, exit 2, and the output file is
 * not created (it is written to FILE.tmp and renamed only when complete). */
#include <errno.h>
#include <omp.h>
#include <sys/stat.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/bench.h"
#include "../common/fileio.h"
#include "hierarchize.h"
#include "kernels.cuh"
#include "sparse.h"
#include "sparse_kernels.cuh"
#include "npy.h"

/* What the file holds: full tiles (g) or sparse grids (sg), of elem-byte values. */
typedef struct {
    int sparse;       /* regular sparse grids (sg) */
    int via_subspace; /* full tiles computed in subspace order (sg = the full grid, perm): 5-6
                         dimensions, and double on the GPU */
    sg_geom g;        /* full tiles of 1-4 dimensions */
    sgs_grid sg;
    long long *perm;  /* via_subspace: sgs_full_perm */
    int d, n[SGS_MAXD]; /* full tiles: points per dimension */
    long long points; /* per grid */
    size_t elem;
} grid_kind;

/* Parses "N0xN1x..." with up to SGS_MAXD dimensions, each 2^l + 1, into levels l[]; returns d,
 * or -1 with a message in err. */
static int parse_dims6(const char *s, int *n, int *l, char *err, size_t errsz)
{
    int d = sg_parse_sizes(s, n, SGS_MAXD, err, errsz);
    for (int k = 0; k < d; k++)
        if ((l[k] = sg_level_of(n[k])) < 0) {
            snprintf(err, errsz, "size %d of dimension %d is not 2^l + 1 (3, 5, 9, 17, 33, ...)", n[k], k);
            return -1;
        }
    return d;
}

/* Full tiles <-> subspace order (sgs_full_perm), tile by tile, OpenMP. */
template <typename T>
static void to_subspace(T *plain, T *sub, long long tiles, const grid_kind *k, int back)
{
    long long N = k->points;
#pragma omp parallel for schedule(static)
    for (long long t = 0; t < tiles; t++)
        for (long long i = 0; i < N; i++) {
            if (back) plain[t * N + k->perm[i]] = sub[t * N + i];
            else sub[t * N + i] = plain[t * N + k->perm[i]];
        }
}

/* Parses "D:N" (e.g. 3:5); returns 0, or -1 with a message in err. */
static int parse_sparse(const char *s, sgs_grid *sg, char *err, size_t errsz)
{
    char *end;
    long d = strtol(s, &end, 10), n;
    if (end == s || *end != ':') { snprintf(err, errsz, "malformed --sparse '%s' (want D:N, e.g. 3:5)", s); return -1; }
    const char *p = end + 1;
    n = strtol(p, &end, 10);
    if (end == p || *end) { snprintf(err, errsz, "malformed --sparse '%s' (want D:N, e.g. 3:5)", s); return -1; }
    if (d < 1 || d > SGS_MAXD || n < 1 || n > SGS_MAXN) {
        snprintf(err, errsz, "--sparse=%s: D from 1 to %d, N from 1 to %d", s, SGS_MAXD, SGS_MAXN);
        return -1;
    }
    return sgs_init(sg, (int)d, (int)n, err, errsz);
}

/* NaN/Inf would spread silently to every point that has it as a hierarchical neighbour. */
template <typename T>
static void refuse_nonfinite(const T *h, long long n, long long points, const char *in)
{
    long long bad = 0, first = -1;
    for (long long i = 0; i < n; i++)
        if (!isfinite(h[i])) { if (first < 0) first = i; bad++; }
    if (bad)
        DIE_USAGE("--in=%s holds %lld non-finite values (NaN/Inf), the first at value %lld (grid %lld, point %lld); "
                  "--allow-nonfinite accepts them", in, bad, first, first / points, first % points);
}

/* The CPU backends: full tiles (float: tuned version A; double: the scalar reference per
 * tile, OpenMP over tiles) or sparse grids (sgs_cpu_f/d). */
static void run_cpu(const grid_kind *k, void *h, long long tiles, int inverse, int threads)
{
    if (k->via_subspace) { /* into subspace order, the sparse-grid CPU code, back */
        void *sub = malloc(k->elem * (size_t)(tiles * k->points));
        if (!sub) DIE("out of host memory");
        if (k->elem == 4) {
            to_subspace((float *)h, (float *)sub, tiles, k, 0);
            sgs_cpu_f((float *)sub, (float *)sub, tiles, &k->sg, inverse, threads);
            to_subspace((float *)h, (float *)sub, tiles, k, 1);
        } else {
            to_subspace((double *)h, (double *)sub, tiles, k, 0);
            sgs_cpu_d((double *)sub, (double *)sub, tiles, &k->sg, inverse, threads);
            to_subspace((double *)h, (double *)sub, tiles, k, 1);
        }
        free(sub);
    } else if (k->sparse) {
        if (k->elem == 4) sgs_cpu_f((float *)h, (float *)h, tiles, &k->sg, inverse, threads);
        else sgs_cpu_d((double *)h, (double *)h, tiles, &k->sg, inverse, threads);
    } else if (k->elem == 4) {
        if (sg_cpu_tuned((float *)h, (float *)h, tiles, &k->g, inverse, threads)) DIE("out of host memory");
    } else {
        double *u = (double *)h;
#pragma omp parallel for schedule(static) num_threads(threads)
        for (long long t = 0; t < tiles; t++) sg_ref_tile_d(u + t * k->g.size, &k->g, inverse);
    }
}

/* The GPU backends; full grids in double are refused (exit 2) before this is called. */
static void run_gpu(const grid_kind *k, void *h, long long tiles, int inverse, int device, const char *what)
{
    device_require(device, 7, 5);
    size_t want = k->elem * (size_t)(tiles * k->points);
    unsigned char *d_in = (unsigned char *)device_alloc_or_usage(2 * want, "input and output grids");
    unsigned char *d_out = d_in + want;
    CHECK_CUDA(cudaMemcpy(d_in, h, want, cudaMemcpyHostToDevice));
    if (k->sparse || k->via_subspace) { /* the offset table where a grid has at most 65536 points */
        sgs_dev dv;
        if (sgs_dev_setup(&dv, &k->sg, k->elem, 256, device, 0, 1)) sgs_dev_setup(&dv, &k->sg, k->elem, 256, device, 0, 0);
        void *sub = NULL;
        if (k->via_subspace) { /* plain -> subspace order on the GPU, back on the host */
            if (sgs_dev_use_full_layout(&dv, &k->sg))
                DIE_USAGE("a %s tile does not fit in shared memory for --backend=gpu in %s; use --backend=cpu", what,
                          k->elem == 8 ? "double" : "5-6 dimensions");
            sub = malloc(want);
            if (!sub) DIE("out of host memory");
            if (inverse) { /* the surpluses into subspace order first */
                if (k->elem == 4) to_subspace((float *)h, (float *)sub, tiles, k, 0);
                else to_subspace((double *)h, (double *)sub, tiles, k, 0);
                CHECK_CUDA(cudaMemcpy(d_in, sub, want, cudaMemcpyHostToDevice));
            }
        }
        if (k->elem == 4) sgs_dev_run<float>(&dv, (const float *)d_in, (float *)d_out, tiles, inverse, 0);
        else sgs_dev_run<double>(&dv, (const double *)d_in, (double *)d_out, tiles, inverse, 0);
        CHECK_CUDA(cudaDeviceSynchronize());
        sgs_dev_free(&dv);
        if (k->via_subspace && !inverse) { /* the surpluses came back in subspace order */
            CHECK_CUDA(cudaMemcpy(sub, d_out, want, cudaMemcpyDeviceToHost));
            if (k->elem == 4) to_subspace((float *)h, (float *)sub, tiles, k, 1);
            else to_subspace((double *)h, (double *)sub, tiles, k, 1);
            free(sub);
            CHECK_CUDA(cudaFree(d_in));
            return;
        }
        free(sub);
    } else {
        sg_fused f;
        sg_b b;
        const float *fi = (const float *)d_in;
        float *fo = (float *)d_out;
        /* the pipelined fused kernel; the one-buffer fused kernel where two stages do not fit */
        if (!sg_fused_setup(&f, &k->g, 0, device, SG_VARIANT_PIPELINED) ||
            !sg_fused_setup(&f, &k->g, 0, device, SG_VARIANT_LINES)) {
            sg_fused_run(&f, fi, fo, tiles, inverse, 0);
            sg_fused_free(&f);
        } else if (!sg_b_setup(&b, &k->g)) {
            sg_b_run(&b, fi, fo, tiles, inverse, 0);
        } else {
            DIE_USAGE("a %s tile is too large for --backend=gpu (shared memory); use --backend=cpu", what);
        }
        CHECK_CUDA(cudaDeviceSynchronize());
    }
    CHECK_CUDA(cudaMemcpy(h, d_out, want, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(d_in));
}

/* The options of the tool, after args_parse and the required-option checks. */
typedef struct {
    const char *dims, *sparse, *in, *out, *backend, *precision;
    long long tiles;
    int inverse, threads, device, quiet, allow_nonfinite;
} hz_opts;

static hz_opts hz_parse(int argc, char **argv)
{
    hz_opts o = {NULL, NULL, NULL, NULL, "cpu", "float", 0, 0, 0, 0, 0, 0};
    arg_opt opts[] = {
        {"dims", ARG_STR, &o.dims, "full grids: points per dimension, N0xN1x... (each 2^l + 1, N0 fastest, d <= 6)", 0, 0, NULL},
        {"sparse", ARG_STR, &o.sparse, "sparse grids: D:N = dimension 1..6 and level (subspace order, README)", 0, 0, NULL},
        {"tiles", ARG_LONG, &o.tiles, "number of grids (tiles) T in the file", 1, 9.0e18, NULL},
        {"in", ARG_STR, &o.in, "input file: T grids of raw little-endian values (.npy: numpy's format)", 0, 0, NULL},
        {"out", ARG_STR, &o.out, "output file (same layout; .npy: numpy's format)", 0, 0, NULL},
        {"precision", ARG_CHOICE, &o.precision, "value type in the files", 0, 0,
         "float double"},
        {"inverse", ARG_FLAG, &o.inverse, "dehierarchize: surpluses -> values", 0, 0, NULL},
        {"backend", ARG_CHOICE, &o.backend, "where to compute", 0, 0, "cpu gpu"},
        {"threads", ARG_INT, &o.threads, "cpu: OpenMP threads (0: all processors)", 0, 1024, NULL},
        {"device", ARG_INT, &o.device, "gpu: CUDA device index", 0, 63, NULL},
        {"quiet", ARG_FLAG, &o.quiet, "no summary line on stderr", 0, 0, NULL},
        {"allow-nonfinite", ARG_FLAG, &o.allow_nonfinite,
         "accept NaN/Inf input values (they spread to their hierarchical neighbours)", 0, 0, NULL},
    };
    const char *usage = "hierarchize --dims=N0xN1x...|--sparse=D:N --tiles=T --in=FILE --out=FILE [--inverse] "
                        "[--precision=float|double] [--backend=cpu|gpu]";
    args_parse(argc, argv, opts, ARGS_COUNT(opts), usage,
               "Hierarchizes full grids (2^l+1 points per dimension, boundary included) or regular sparse grids "
               "with boundary, grid by grid.");
    if (!o.dims == !o.sparse) DIE_USAGE("give exactly one of --dims (full grids, e.g. 33x33) and --sparse (e.g. 3:5); usage: %s", usage);
    if (!o.tiles) DIE_USAGE("--tiles is required (the number of grids in the file); usage: %s", usage);
    if (!o.in || !o.out) DIE_USAGE("--in and --out are required; usage: %s", usage);
    return o;
}

/* The grids of --dims or --sparse (and --precision, --backend): their geometry and size. */
static grid_kind hz_kind(const hz_opts *o)
{
    grid_kind k;
    memset(&k, 0, sizeof k);
    char err[256];
    k.sparse = o->sparse != NULL;
    k.elem = strcmp(o->precision, "double") ? 4 : 8;
    if (k.sparse) {
        if (parse_sparse(o->sparse, &k.sg, err, sizeof err)) DIE_USAGE("%s", err);
        k.points = k.sg.npts;
    } else {
        int lv[SGS_MAXD];
        k.d = parse_dims6(o->dims, k.n, lv, err, sizeof err);
        if (k.d < 0) DIE_USAGE("%s", err);
        /* 1-4 dimensions: the full-grid code (float on the GPU); 5-6 dimensions, and double on
         * the GPU: the full grid in subspace order (sparse.h), bitwise the same result */
        k.via_subspace = k.d > SG_MAXD || (k.elem == 8 && !strcmp(o->backend, "gpu"));
        if (!k.via_subspace) {
            if (sg_geom_init(&k.g, k.d, k.n, err, sizeof err)) DIE_USAGE("%s", err);
            k.points = k.g.size;
        } else {
            if (sgs_init_full(&k.sg, k.d, lv, err, sizeof err)) DIE_USAGE("--dims=%s: %s", o->dims, err);
            k.points = k.sg.npts;
            k.perm = (long long *)malloc(sizeof(long long) * k.points);
            if (!k.perm) DIE("out of host memory");
            sgs_full_perm(&k.sg, k.perm);
        }
    }
    if (o->tiles > (long long)(9.0e18 / k.elem) / k.points) DIE_USAGE("--tiles=%lld: too much data", o->tiles);
    return k;
}

/* --in checked against the grids (size, or the .npy header), --out checked, then the n values
 * (want bytes) read; non-finite values refused unless --allow-nonfinite. */
static void *hz_read(const hz_opts *o, const grid_kind *k, long long n, unsigned long long want)
{
    const char *in = o->in, *what = o->dims ? o->dims : o->sparse;
    char err[256];
    struct stat sb;
    if (stat(in, &sb)) DIE_USAGE("cannot read --in=%s: %s", in, strerror(errno));
    if (!S_ISREG(sb.st_mode)) DIE_USAGE("--in=%s is not a regular file", in);
    FILE *fi = fopen(in, "rb");
    if (!fi) DIE_USAGE("cannot open --in=%s: %s", in, strerror(errno));
    if (npy_is_npy_name(in)) { /* .npy: dtype, C order and the number of values must fit */
        npy_info ni;
        if (npy_read_header(fi, (long long)sb.st_size, &ni, err, sizeof err)) DIE_USAGE("--in=%s: %s", in, err);
        if ((size_t)ni.elem != k->elem)
            DIE_USAGE("--in=%s holds float%d values; use --precision=%s", in, 8 * ni.elem, ni.elem == 8 ? "double" : "float");
        if (ni.count != n)
            DIE_USAGE("--in=%s holds %lld values; %lld %s of %s (%lld points each) need %lld", in, ni.count, o->tiles,
                      k->sparse ? "sparse grids" : "tiles", what, k->points, n);
    } else if ((unsigned long long)sb.st_size != want) {
        DIE_USAGE("--in=%s has %lld bytes; %lld %s of %s (%lld points each) in %s need %llu", in, (long long)sb.st_size,
                  o->tiles, k->sparse ? "sparse grids" : "tiles", what, k->points, o->precision, want);
    }
    const char *ins[] = {in};
    fileio_check_out(o->out, ins, 1); /* not --in under another name, not a directory, writable */
    void *h = malloc(want ? want : 1);
    if (!h) DIE("cannot allocate %llu bytes of host memory", want);
    if (fread(h, 1, want, fi) != want) DIE("short read from %s", in);
    fclose(fi);
    if (!o->allow_nonfinite) {
        if (k->elem == 4) refuse_nonfinite((const float *)h, n, k->points, in);
        else refuse_nonfinite((const double *)h, n, k->points, in);
    }
    return h;
}

/* The result to --out.tmp (with the .npy header when --out ends in .npy), renamed onto --out. */
static void hz_write(const hz_opts *o, const grid_kind *k, const void *h, unsigned long long want)
{
    const char *out = o->out;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *fo = fopen(tmp, "wb");
    if (!fo) DIE_USAGE("cannot write --out=%s: %s", out, strerror(errno));
    int bad_header = 0;
    if (npy_is_npy_name(out)) { /* shape (T, N_{d-1}, ..., N_0) for tiles, (T, points) for sparse grids */
        long long shape[SGS_MAXD + 1];
        int nd = 1;
        shape[0] = o->tiles;
        if (k->sparse) shape[nd++] = k->points;
        else
            for (int j = k->d - 1; j >= 0; j--) shape[nd++] = k->n[j];
        bad_header = npy_write_header(fo, (int)k->elem, nd, shape);
    }
    if (bad_header || fwrite(h, 1, want, fo) != want || fclose(fo)) {
        remove(tmp);
        DIE("write error on %s", tmp);
    }
    if (rename(tmp, out)) {
        remove(tmp);
        DIE("cannot rename %s to %s: %s", tmp, out, strerror(errno));
    }
}

int main(int argc, char **argv)
{
    hz_opts o = hz_parse(argc, argv);
    grid_kind k = hz_kind(&o);
    const char *what = o.dims ? o.dims : o.sparse;
    long long n = o.tiles * k.points;
    unsigned long long want = k.elem * (unsigned long long)n;
    void *h = hz_read(&o, &k, n, want);

    double t0 = bench_now_ms();
    if (!strcmp(o.backend, "cpu")) run_cpu(&k, h, o.tiles, o.inverse, o.threads ? o.threads : omp_get_num_procs());
    else run_gpu(&k, h, o.tiles, o.inverse, o.device, what);
    double ms = bench_now_ms() - t0;

    hz_write(&o, &k, h, want);
    if (!o.quiet)
        fprintf(stderr, "%s %lld %s of %s (%s, %.1f MB) on the %s in %.2f ms -> %s\n",
                o.inverse ? "dehierarchized" : "hierarchized", o.tiles, k.sparse ? "sparse grids" : "tiles", what,
                o.precision, want / 1e6, o.backend, ms, o.out);
    if (k.sparse || k.via_subspace) sgs_free(&k.sg);
    free(k.perm);
    free(h);
    return 0;
}
