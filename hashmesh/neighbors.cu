/* neighbors.cu -- face neighbours of a user's 2D AMR mesh by perfect spatial hashing
 * (Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data", sec. 3.2,
 * Listing 2).
 *
 *   neighbors --in=MESH --out=FILE [--backend=cpu|gpu]
 *
 * MESH (text): a first line `amr2d NX NY LEVMAX`, then one cell per line `i j level` (the
 * cell's coordinates at its own level); blank lines and `#` comment lines are ignored.
 * FILE: one line per cell, in input order, `left right bottom top` = the 0-based index of
 * the cell containing the finest-level cell just across each face at the cell's lower-left
 * end (Listing 2); at the domain boundary the cell itself.
 * Bad input (malformed line, cell outside the domain, overlapping cells, a hole, a hash
 * table too large, a file over --max-mb, a line over 4095 bytes, binary data such as
 * /dev/zero): one line naming the line number, exit 2, FILE not created.  FILE must not be
 * MESH (also not through ./, a symlink or a hard link), a directory or a device, nor may an
 * existing FILE.tmp be one (a FIFO there would block the write forever), and its
 * directory must be writable (common/fileio.h), all checked before anything is read.  The
 * output is written to FILE.tmp and renamed, so FILE never exists half-written.
 * --backend=cpu needs no GPU; --backend=gpu exits 77 (SKIP) when there is none. */
#include <errno.h>
#include <sys/stat.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/args.h"
#include "../common/fileio.h"
#include "gen.h"
#include "hash.h"
#include "meshio.h"
#include "kernels.cuh"

static void gpu_neighbours(const amr_mesh *m, int *nb)
{
    gpu_hash_ctx g;
    memset(&g, 0, sizeof g);
    g.n = (int)m->n;
    g.levmax = m->levmax;
    g.W = amr_width(m);
    g.H = amr_height(m);
    g.m = g.W * g.H;
    g.ci = (const int *)device_alloc_or_usage(sizeof(int) * m->n, "cells");
    g.cj = (const int *)device_alloc_or_usage(sizeof(int) * m->n, "cells");
    g.lev = (const int *)device_alloc_or_usage(sizeof(int) * m->n, "cells");
    g.t = (int *)device_alloc_or_usage(sizeof(int) * (size_t)g.m, "the finest-level hash table");
    g.nb = (int *)device_alloc_or_usage(sizeof(int) * 4 * (size_t)m->n, "neighbours");
    CHECK_CUDA(cudaMemcpy((void *)g.ci, m->i, sizeof(int) * m->n, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy((void *)g.cj, m->j, sizeof(int) * m->n, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy((void *)g.lev, m->lev, sizeof(int) * m->n, cudaMemcpyHostToDevice));
    gpu_hash_neigh2d(&g, 0);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(nb, g.nb, sizeof(int) * 4 * m->n, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree((void *)g.ci)); CHECK_CUDA(cudaFree((void *)g.cj)); CHECK_CUDA(cudaFree((void *)g.lev));
    CHECK_CUDA(cudaFree(g.t)); CHECK_CUDA(cudaFree(g.nb));
}

int main(int argc, char **argv)
{
    const char *in = "", *out = "", *backend = "cpu";
    int device = 0;
    long long max_mb = 4096;
    arg_opt opts[] = {
        {"in", ARG_STR, &in, "mesh file (amr2d NX NY LEVMAX, then 'i j level' per cell)", 0, 0, NULL},
        {"out", ARG_STR, &out, "output file: 'left right bottom top' per cell", 0, 0, NULL},
        {"backend", ARG_CHOICE, &backend, "where the hash runs", 0, 0, "cpu gpu"},
        {"device", ARG_INT, &device, "CUDA device index (--backend=gpu)", 0, 63, NULL},
        {"max-mb", ARG_LONG, &max_mb, "largest mesh file read, in MB (10^6 bytes)", 1, 1000000, NULL},
    };
    const char *usage = "neighbors --in=MESH --out=FILE [--backend=cpu|gpu]";
    args_parse(argc, argv, opts, ARGS_COUNT(opts), usage,
               "Face neighbours of a 2D AMR mesh by perfect spatial hashing (Listing 2 of Robey et al.).");
    if (!*in || !*out) DIE_USAGE("--in and --out are required (usage: %s)", usage);
    /* the input's and output's problems are bad input too (exit 2), found before any work */
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", out) >= (int)sizeof tmp) DIE_USAGE("--out path too long");
    const char *ins[] = {in};
    fileio_check_size(in, max_mb * 1000000);
    fileio_check_out(out, ins, 1); /* neither FILE nor FILE.tmp may be MESH */
    fileio_check_out(tmp, ins, 1); /* FILE.tmp, opened for writing later: no directory, FIFO or device */
    int gpu = !strcmp(backend, "gpu");
    if (gpu) device_require(device, 7, 5);

    FILE *f = fopen(in, "r");
    if (!f) DIE_USAGE("cannot read %s: %s", in, strerror(errno));
    amr_mesh m;
    long *line = NULL;
    char err[512];
    if (meshio_read(f, in, &m, &line, err, sizeof err)) {
        fclose(f);
        DIE_USAGE("%s", err);
    }
    fclose(f);
    long W = amr_width(&m), H = amr_height(&m);
    int *t = (int *)malloc(sizeof(int) * (size_t)(W * H));
    if (!t) DIE_USAGE("%s:1: cannot allocate the finest-level hash table (%ld x %ld buckets)", in, W, H);
    /* validation = the write phase of Listing 2 (overlaps, holes) */
    if (meshio_check(&m, line, t, in, err, sizeof err)) DIE_USAGE("%s", err);
    int *nb = (int *)gen_alloc(sizeof(int) * 4 * (size_t)m.n);
    if (gpu) gpu_neighbours(&m, nb);
    else
        for (long c = 0; c < m.n; c++) /* the table is already written: Listing 2's read phase */
            hash_neigh2d_read(t, W, H, m.i[c], m.j[c], m.lev[c], m.levmax, &nb[4 * c], &nb[4 * c + 1], &nb[4 * c + 2],
                              &nb[4 * c + 3]);

    FILE *o = fopen(tmp, "w");
    if (!o) DIE_USAGE("cannot write %s: %s", tmp, strerror(errno));
    for (long c = 0; c < m.n; c++) fprintf(o, "%d %d %d %d\n", nb[4 * c], nb[4 * c + 1], nb[4 * c + 2], nb[4 * c + 3]);
    if (fclose(o) != 0) {
        remove(tmp);
        DIE("write error on %s", tmp);
    }
    if (rename(tmp, out)) {
        remove(tmp);
        DIE("cannot rename %s to %s: %s", tmp, out, strerror(errno));
    }
    fprintf(stderr, "neighbors: %ld cells, finest level %ld x %ld, backend %s -> %s\n", m.n, W, H, backend, out);
    free(t); free(nb); free(line);
    amr_free(&m);
    return 0;
}
