/* sparsegrid/hierarchize.cu -- hierarchize (or dehierarchize) the user's own tiles.
 *
 *   hierarchize --dims=N0xN1x... --tiles=T --in=FILE --out=FILE [--inverse] [--backend=cpu|gpu]
 *
 * FILE: raw little-endian float32, T tiles one after another, N0 the fastest dimension,
 * each Ni = 2^l + 1 (3, 5, 9, 17, 33, ...), 1 to 4 dimensions.  --backend=cpu (default)
 * runs the tuned OpenMP version and needs no GPU; --backend=gpu runs the pipelined fused
 * kernel (lines longer than 65 points: the point-code fused kernel; the one-buffer fused
 * kernel, or the thesis-style one, when a tile does not fit in shared memory) and exits 77 when
 * there is no usable GPU.  Bad dims, a file whose size is not T * prod(Ni) * 4 bytes, a
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

int main(int argc, char **argv)
{
    const char *dims = NULL, *in = NULL, *out = NULL, *backend = "cpu";
    long long tiles = 0;
    int inverse = 0, threads = 0, device = 0, quiet = 0, allow_nonfinite = 0;
    arg_opt opts[] = {
        {"dims", ARG_STR, &dims, "points per dimension, N0xN1x... (each 2^l + 1, N0 fastest)", 0, 0, NULL},
        {"tiles", ARG_LONG, &tiles, "number of tiles T in the file", 1, 9.0e18, NULL},
        {"in", ARG_STR, &in, "input file: T * prod(Ni) float32 values, little-endian", 0, 0, NULL},
        {"out", ARG_STR, &out, "output file (same layout)", 0, 0, NULL},
        {"inverse", ARG_FLAG, &inverse, "dehierarchize: surpluses -> values", 0, 0, NULL},
        {"backend", ARG_CHOICE, &backend, "where to compute", 0, 0, "cpu gpu"},
        {"threads", ARG_INT, &threads, "cpu: OpenMP threads (0: all processors)", 0, 1024, NULL},
        {"device", ARG_INT, &device, "gpu: CUDA device index", 0, 63, NULL},
        {"quiet", ARG_FLAG, &quiet, "no summary line on stderr", 0, 0, NULL},
        {"allow-nonfinite", ARG_FLAG, &allow_nonfinite,
         "accept NaN/Inf input values (they spread to their hierarchical neighbours)", 0, 0, NULL},
    };
    const char *usage = "hierarchize --dims=N0xN1x... --tiles=T --in=FILE --out=FILE [--inverse] [--backend=cpu|gpu]";
    args_parse(argc, argv, opts, ARGS_COUNT(opts), usage,
               "Hierarchizes full grids (2^l+1 points per dimension, boundary included) tile by tile.");
    if (!dims) DIE_USAGE("--dims is required (e.g. --dims=33x33)\nusage: %s", usage);
    if (!tiles) DIE_USAGE("--tiles is required (the number of tiles in the file)\nusage: %s", usage);
    if (!in || !out) DIE_USAGE("--in and --out are required\nusage: %s", usage);
    sg_geom g;
    char err[256];
    if (sg_parse_dims(dims, &g, err, sizeof err)) DIE_USAGE("%s", err);
    if (tiles > (long long)(9.0e18 / 4) / g.size) DIE_USAGE("--tiles=%lld: too much data", tiles);
    long long n = tiles * g.size;
    unsigned long long want = 4ULL * (unsigned long long)n;
    struct stat sb;
    if (stat(in, &sb)) DIE_USAGE("cannot read --in=%s: %s", in, strerror(errno));
    if (!S_ISREG(sb.st_mode)) DIE_USAGE("--in=%s is not a regular file", in);
    if ((unsigned long long)sb.st_size != want)
        DIE_USAGE("--in=%s has %lld bytes; %lld tiles of %s float32 need %llu", in, (long long)sb.st_size, tiles, dims,
                  want);
    const char *ins[] = {in};
    fileio_check_out(out, ins, 1); /* not --in under another name, not a directory, writable */
    FILE *fi = fopen(in, "rb");
    if (!fi) DIE_USAGE("cannot open --in=%s: %s", in, strerror(errno));
    float *h = (float *)malloc(want ? want : 1);
    if (!h) DIE("cannot allocate %llu bytes of host memory", want);
    if (fread(h, 1, want, fi) != want) DIE("short read from %s", in);
    fclose(fi);
    /* NaN/Inf would spread silently to every point that has it as a hierarchical neighbour */
    long long bad = 0, first = -1;
    if (!allow_nonfinite) {
        for (long long i = 0; i < n; i++)
            if (!isfinite(h[i])) { if (first < 0) first = i; bad++; }
        if (bad)
            DIE_USAGE("--in=%s holds %lld non-finite values (NaN/Inf), the first at value %lld (tile %lld, point %lld); "
                      "--allow-nonfinite accepts them", in, bad, first, first / g.size, first % g.size);
    }

    double t0 = bench_now_ms();
    if (!strcmp(backend, "cpu")) {
        if (sg_cpu_tuned(h, h, tiles, &g, inverse, threads ? threads : omp_get_num_procs()))
            DIE("out of host memory");
    } else {
        device_require(device, 7, 5);
        sg_fused f;
        sg_b b;
        float *d_in = (float *)device_alloc_or_usage(2 * want, "input and output tiles");
        float *d_out = d_in + n;
        CHECK_CUDA(cudaMemcpy(d_in, h, want, cudaMemcpyHostToDevice));
        /* the pipelined fused kernel; the one-buffer fused kernel where two stages do not fit */
        if (!sg_fused_setup(&f, &g, 0, device, SG_VARIANT_PIPELINED) || !sg_fused_setup(&f, &g, 0, device, SG_VARIANT_LINES)) {
            sg_fused_run(&f, d_in, d_out, tiles, inverse, 0);
            sg_fused_free(&f);
        } else if (!sg_b_setup(&b, &g)) {
            sg_b_run(&b, d_in, d_out, tiles, inverse, 0);
        } else {
            DIE_USAGE("a %s tile is too large for --backend=gpu (shared memory); use --backend=cpu", dims);
        }
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(h, d_out, want, cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaFree(d_in));
    }
    double ms = bench_now_ms() - t0;

    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *fo = fopen(tmp, "wb");
    if (!fo) DIE_USAGE("cannot write --out=%s: %s", out, strerror(errno));
    if (fwrite(h, 1, want, fo) != want || fclose(fo)) {
        remove(tmp);
        DIE("write error on %s", tmp);
    }
    if (rename(tmp, out)) {
        remove(tmp);
        DIE("cannot rename %s to %s: %s", tmp, out, strerror(errno));
    }
    if (!quiet)
        fprintf(stderr, "%s %lld tiles of %s (%.1f MB) on the %s in %.2f ms -> %s\n",
                inverse ? "dehierarchized" : "hierarchized", tiles, dims, want / 1e6, backend, ms, out);
    free(h);
    return 0;
}
