/* neighbors-mpi.cu -- face neighbours of a 2D AMR mesh (Listing 2 of Robey, Nicholaeff,
 * Robey, "Hash-based algorithms for discretized data") over P MPI processes: Morton
 * partition, ghost cells, a local perfect hash per rank, global indices (mesh_partition.h).
 *
 *   mpirun -np P hashmesh/neighbors-mpi --in=MESH --out=FILE [--backend=cpu|gpu]
 *       the same mesh file, output file and error lines as hashmesh/neighbors; every rank
 *       reads MESH; rank 0 validates it (as neighbors does) and writes FILE.
 *   mpirun -np P hashmesh/neighbors-mpi --exp=scaling [--min-log2= --max-log2= ...]
 *       generated meshes of about 2^k cells: verified against the serial CPU hash (every
 *       cell, every face), then each phase timed -> hashmesh_dist_scaling_<backend>_p<P>.dat
 * --backend=cpu moves host buffers with MPI; --backend=gpu gives each rank its own GPU and
 * moves the ghosts with NCCL (built only where nccl.h and libnccl exist: -DDIST_NCCL).
 * With --backend=gpu, --exp=scaling also times step 1 (the partition) on the GPUs
 * (partition_gpu_ms): each rank computes the Morton keys of its slice of the input and sorts
 * them (CUB), the P - 1 split keys are found by a distributed binary search over the key
 * values, the cells move to their owners through NCCL and are sorted again; the result must
 * equal the host partition's (every owned index, every split key) or the run fails. */
#include <errno.h>
#include <sys/stat.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/verify.h"
#include "../common/fileio.h"
#include "mesh_partition.h"
#include "meshio.h"

/* ---------------- GPU backend: the phases as kernels, the ghosts through NCCL ---------------- */
#ifdef DIST_NCCL
#include <cub/cub.cuh>
#define HMD_THREADS 256
static unsigned hmd_blocks(long n) { return (unsigned)((n + HMD_THREADS - 1) / HMD_THREADS); }

static __global__ void k_dist_pack(const int *__restrict__ own, const int *__restrict__ idx, long nsend, int *send)
{
    long s = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (s < nsend)
        for (int f = 0; f < HM_REC; f++) send[HM_REC * s + f] = own[HM_REC * (long)idx[s] + f];
}
/* Listing 2 write (clipped): owned records first, then ghosts, one thread each */
static __global__ void k_dist_write(const int *__restrict__ own, long nown, const int *__restrict__ ghost, long nghost,
                                    int *t, hm_window w, int levmax)
{
    long c = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (c < nown) hm_write_rec(t, w, levmax, own + HM_REC * c);
    else if (c < nown + nghost) hm_write_rec(t, w, levmax, ghost + HM_REC * (c - nown));
}
static __global__ void k_dist_read(const int *__restrict__ own, long nown, const int *__restrict__ t, hm_window w,
                                   long W, long H, int levmax, int *nb)
{
    long c = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (c < nown) hm_read_rec(t, w, W, H, levmax, own + HM_REC * c, nb + 4 * c);
}

/* ---- step 1 on the GPUs: the Morton partition of mesh_partition.h without the whole mesh
 * on one processor.  Each rank's GPU sees only its slice of the input, then its share. */
/* Morton key (hm_cell_key) and global index of cell c0 + t of the rank's input slice */
static __global__ void k_part_keys(const int *__restrict__ i, const int *__restrict__ j, const int *__restrict__ lev,
                                   long n, int levmax, long c0, uint64_t *key, int *gid)
{
    long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (t >= n) return;
    int s = levmax - lev[t];
    key[t] = hm_morton((long)i[t] << s, (long)j[t] << s);
    gid[t] = (int)(c0 + t);
}
/* cnt[q] = number of sorted keys <= x[q] (upper bound), one thread per probe */
static __global__ void k_part_count_le(const uint64_t *__restrict__ key, long n, const uint64_t *__restrict__ x, int nx,
                                       long long *cnt)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= nx) return;
    long lo = 0, hi = n;
    while (lo < hi) {
        long mid = (lo + hi) / 2;
        if (key[mid] <= x[q]) lo = mid + 1;
        else hi = mid;
    }
    cnt[q] = lo;
}
/* CUB's radix sort of (key, index) pairs over the key's low end_bit bits; temp grows as needed */
typedef struct { void *tmp; size_t tmp_bytes; } hmd_sorter;
static void hmd_sort(hmd_sorter *so, const uint64_t *k_in, uint64_t *k_out, const int *v_in, int *v_out, long n,
                     int end_bit, cudaStream_t s)
{
    size_t need = 0;
    CHECK_CUDA_RANK(cub::DeviceRadixSort::SortPairs(NULL, need, k_in, k_out, v_in, v_out, (int)n, 0, end_bit, s));
    if (need > so->tmp_bytes) {
        if (so->tmp) CHECK_CUDA_RANK(cudaFree(so->tmp));
        so->tmp = device_alloc_or_usage(need, "the partition's sort buffer");
        so->tmp_bytes = need;
    }
    CHECK_CUDA_RANK(cub::DeviceRadixSort::SortPairs(so->tmp, need, k_in, k_out, v_in, v_out, (int)n, 0, end_bit, s));
}
/* Counts of the sorted keys <= x[0 .. nx) on the device, into h_cnt (host). */
static void hmd_count_le(const uint64_t *d_key, long n, const uint64_t *h_x, int nx, uint64_t *d_x, long long *d_cnt,
                         long long *h_cnt, cudaStream_t s)
{
    CHECK_CUDA_RANK(cudaMemcpyAsync(d_x, h_x, sizeof(uint64_t) * nx, cudaMemcpyHostToDevice, s));
    k_part_count_le<<<(nx + 63) / 64, 64, 0, s>>>(d_key, n, d_x, nx, d_cnt);
    CHECK_CUDA_RANK(cudaGetLastError());
    CHECK_CUDA_RANK(cudaMemcpyAsync(h_cnt, d_cnt, sizeof(long long) * nx, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA_RANK(cudaStreamSynchronize(s));
}

/* dist_exchange_nccl with the rank's own part copied on its GPU instead of sent to itself */
static void hmd_exchange(const dist_ctx *d, const dist_pattern *pat, int rec, const int *d_send, int *d_recv)
{
    CHECK_NCCL(ncclGroupStart());
    for (int q = 0; q < d->size; q++) {
        size_t sc = (size_t)pat->scount[q] * rec, rc = (size_t)pat->rcount[q] * rec;
        const int *sp = d_send + (size_t)pat->sdispl[q] * rec;
        int *rp = d_recv + (size_t)pat->rdispl[q] * rec;
        if (q == d->rank) {
            if (sc) CHECK_CUDA_RANK(cudaMemcpyAsync(rp, sp, sizeof(int) * sc, cudaMemcpyDeviceToDevice, d->stream));
            continue;
        }
        if (sc) CHECK_NCCL(ncclSend(sp, sc, ncclInt32, q, d->nccl, d->stream));
        if (rc) CHECK_NCCL(ncclRecv(rp, rc, ncclInt32, q, d->nccl, d->stream));
    }
    CHECK_NCCL(ncclGroupEnd());
}

/* Step 1 on the GPUs; the same hm_part as hm_partition (owned indices in Morton order, their
 * records, the P + 1 split keys), but each GPU handles n / P cells only:
 *   1. keys of the rank's input slice [r n / P, (r + 1) n / P) and a local sort (CUB);
 *   2. split key q = the key at global sorted position n q / P: the smallest x with
 *      #{keys <= x} > n q / P over all ranks -- a binary search over the key values, all
 *      P - 1 at once, one MPI_Allreduce of P - 1 counts per step (keys are distinct: the
 *      mesh has no overlapping cells);
 *   3. each rank sends its sorted keys in [split[q], split[q + 1]) to q (NCCL, one group);
 *   4. the received runs sorted again (CUB): the owned cells in Morton order. */
static void hm_partition_gpu(dist_ctx *d, const amr_mesh *m, hm_part *p)
{
    cudaStream_t s = d->stream;
    int P = d->size, nx = P > 1 ? P - 1 : 1;
    long n = m->n, c0 = n * d->rank / P, c1 = n * (d->rank + 1) / P, ns = c1 - c0;
    long side = amr_width(m) > amr_height(m) ? amr_width(m) : amr_height(m);
    int end_bit = 0;
    while ((1L << (end_bit / 2)) < side) end_bit += 2; /* keys < 4^ceil(log2 side) */
    if (end_bit == 0) end_bit = 2;
    int *d_ijl = (int *)device_alloc_or_usage(sizeof(int) * 3 * (size_t)(ns ? ns : 1), "the partition's cells");
    uint64_t *d_key = (uint64_t *)device_alloc_or_usage(sizeof(uint64_t) * 2 * (size_t)(ns ? ns : 1), "the partition's keys");
    int *d_gid = (int *)device_alloc_or_usage(sizeof(int) * 2 * (size_t)(ns ? ns : 1), "the partition's indices");
    uint64_t *d_x = (uint64_t *)device_alloc_or_usage(sizeof(uint64_t) * nx, "split probes");
    long long *d_cnt = (long long *)device_alloc_or_usage(sizeof(long long) * nx, "split counts");
    hmd_sorter so = {NULL, 0};
    CHECK_CUDA_RANK(cudaMemcpyAsync(d_ijl, m->i + c0, sizeof(int) * ns, cudaMemcpyHostToDevice, s));
    CHECK_CUDA_RANK(cudaMemcpyAsync(d_ijl + ns, m->j + c0, sizeof(int) * ns, cudaMemcpyHostToDevice, s));
    CHECK_CUDA_RANK(cudaMemcpyAsync(d_ijl + 2 * ns, m->lev + c0, sizeof(int) * ns, cudaMemcpyHostToDevice, s));
    if (ns) k_part_keys<<<hmd_blocks(ns), HMD_THREADS, 0, s>>>(d_ijl, d_ijl + ns, d_ijl + 2 * ns, ns, m->levmax, c0, d_key + ns, d_gid + ns);
    CHECK_CUDA_RANK(cudaGetLastError());
    if (ns) hmd_sort(&so, d_key + ns, d_key, d_gid + ns, d_gid, ns, end_bit, s); /* sorted slice: d_key, d_gid */
    /* 2. the split keys */
    uint64_t *lo = (uint64_t *)gen_alloc(sizeof(uint64_t) * 3 * nx), *hi = lo + nx, *mid = hi + nx;
    long long *cnt = (long long *)gen_alloc(sizeof(long long) * 2 * nx), *all = cnt + nx;
    for (int q = 0; q < nx; q++) { lo[q] = 0; hi[q] = (end_bit >= 64 ? ~0ull : (1ull << end_bit) - 1); }
    for (int more = P > 1; more;) { /* invariant: the wanted key is in [lo, hi] */
        for (int q = 0; q < nx; q++) mid[q] = lo[q] + (hi[q] - lo[q]) / 2;
        hmd_count_le(d_key, ns, mid, nx, d_x, d_cnt, cnt, s);
        CHECK_MPI(MPI_Allreduce(cnt, all, nx, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
        more = 0;
        for (int q = 0; q < nx; q++) {
            if (all[q] > n * (q + 1) / P) hi[q] = mid[q];
            else lo[q] = mid[q] + 1;
            more |= lo[q] < hi[q];
        }
    }
    p->split = (uint64_t *)gen_alloc(sizeof(uint64_t) * (size_t)(P + 1));
    uint64_t first = ~0ull, gfirst = 0; /* split[0]: the smallest key, as the host partition has it */
    if (ns) CHECK_CUDA_RANK(cudaMemcpy(&first, d_key, sizeof first, cudaMemcpyDeviceToHost));
    CHECK_MPI(MPI_Allreduce(&first, &gfirst, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD));
    p->split[0] = gfirst;
    for (int q = 1; q < P; q++) p->split[q] = lo[q - 1];
    p->split[P] = UINT64_MAX;
    /* 3. to the owners: the local sorted keys are grouped by owner already */
    dist_pattern pat;
    dist_pattern_alloc(d, &pat);
    long long prev = 0;
    for (int q = 0; q < P; q++) {
        long long upto = ns;
        if (q + 1 < P) { /* keys < split[q + 1] = keys <= split[q + 1] - 1 */
            uint64_t x = p->split[q + 1] - 1;
            hmd_count_le(d_key, ns, &x, 1, d_x, d_cnt, &upto, s);
        }
        pat.scount[q] = (int)(upto - prev);
        prev = upto;
    }
    dist_pattern_finish(d, &pat);
    p->nown = pat.nrecv;
    long want = n * (d->rank + 1) / P - n * d->rank / P;
    dist_agree(d, p->nown != want ? 1 : 0, "rank %d: the GPU partition gave it %ld cells, want %ld", d->rank, p->nown, want);
    uint64_t *r_key = (uint64_t *)device_alloc_or_usage(sizeof(uint64_t) * 2 * (size_t)(want ? want : 1), "the owned keys");
    int *r_gid = (int *)device_alloc_or_usage(sizeof(int) * 2 * (size_t)(want ? want : 1), "the owned indices");
    hmd_exchange(d, &pat, 2, (const int *)d_key, (int *)(r_key + want));
    hmd_exchange(d, &pat, 1, d_gid, r_gid + want);
    /* 4. the P sorted runs received, sorted into one */
    if (want) hmd_sort(&so, r_key + want, r_key, r_gid + want, r_gid, want, end_bit, s);
    p->own = (int *)gen_alloc(sizeof(int) * (size_t)(want ? want : 1));
    CHECK_CUDA_RANK(cudaMemcpyAsync(p->own, r_gid, sizeof(int) * want, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA_RANK(cudaStreamSynchronize(s));
    p->rec = (int *)gen_alloc(sizeof(int) * HM_REC * (size_t)(want ? want : 1));
    for (long k = 0; k < want; k++) {
        int c = p->own[k];
        p->rec[HM_REC * k] = m->i[c]; p->rec[HM_REC * k + 1] = m->j[c];
        p->rec[HM_REC * k + 2] = m->lev[c]; p->rec[HM_REC * k + 3] = c;
    }
    dist_pattern_free(&pat);
    free(lo); free(cnt);
    void *bufs[] = {d_ijl, d_key, d_gid, d_x, d_cnt, r_key, r_gid, so.tmp};
    for (int b = 0; b < 8; b++) if (bufs[b]) CHECK_CUDA_RANK(cudaFree(bufs[b]));
}

/* The GPU partition, barrier-timed, checked against the host partition p (identical owned
 * indices and split keys on every rank); returns its time in ms. */
static double partition_gpu_checked(dist_ctx *d, const amr_mesh *m, const hm_part *p)
{
    hm_part g;
    memset(&g, 0, sizeof g);
    double t0 = dist_time_begin();
    hm_partition_gpu(d, m, &g);
    double ms = dist_time_end(t0);
    int bad = g.nown != p->nown || memcmp(g.own, p->own, sizeof(int) * (size_t)p->nown) ||
              memcmp(g.split, p->split, sizeof(uint64_t) * (size_t)(d->size + 1));
    dist_agree(d, bad, "rank %d: the GPU partition differs from the host partition (n = %ld)", d->rank, m->n);
    free(g.own); free(g.rec); free(g.split);
    return ms;
}
#endif

typedef struct {
    const dist_ctx *d;
    const amr_mesh *m;
    const hm_part *p;
    const dist_pattern *pat;
    int gpu;
    int *own, *send, *ghost, *t, *nb; /* host or device buffers */
    int *sidx;                        /* device copy of pat->send_idx (GPU) */
} hm_run;

static void *run_alloc(const hm_run *r, size_t bytes, const char *what)
{
#ifdef DIST_NCCL
    if (r->gpu) return device_alloc_or_usage(bytes ? bytes : 4, what);
#endif
    (void)r; (void)what;
    return gen_alloc(bytes);
}
static void run_free(const hm_run *r, void *x)
{
#ifdef DIST_NCCL
    if (r->gpu) { CHECK_CUDA_RANK(cudaFree(x)); return; }
#endif
    (void)r;
    free(x);
}

/* Buffers of steps 3-5; the owned records (and on the GPU the send list) copied once. */
static void run_setup(hm_run *r)
{
    const hm_part *p = r->p;
    size_t rec = sizeof(int) * HM_REC;
    r->send = (int *)run_alloc(r, rec * (size_t)r->pat->nsend, "ghost send buffer");
    r->ghost = (int *)run_alloc(r, rec * (size_t)r->pat->nrecv, "ghost cells");
    r->t = (int *)run_alloc(r, sizeof(int) * (size_t)(p->win.w * p->win.h), "the local perfect hash table");
    r->nb = (int *)run_alloc(r, sizeof(int) * 4 * (size_t)p->nown, "neighbours");
    if (!r->gpu) {
        r->own = p->rec;
        memset(r->nb, 0xFF, sizeof(int) * 4 * (size_t)p->nown); /* poison: -1 is no cell */
        return;
    }
#ifdef DIST_NCCL
    r->own = (int *)run_alloc(r, rec * (size_t)p->nown, "owned cells");
    r->sidx = (int *)run_alloc(r, sizeof(int) * (size_t)r->pat->nsend, "ghost send list");
    CHECK_CUDA_RANK(cudaMemcpy(r->own, p->rec, rec * (size_t)p->nown, cudaMemcpyHostToDevice));
    CHECK_CUDA_RANK(cudaMemcpy(r->sidx, r->pat->send_idx, sizeof(int) * (size_t)r->pat->nsend, cudaMemcpyHostToDevice));
    CHECK_CUDA_RANK(cudaMemset(r->nb, 0xFF, sizeof(int) * 4 * (size_t)p->nown)); /* poison: -1 is no cell */
#endif
}
static void run_teardown(hm_run *r)
{
    if (r->gpu) run_free(r, r->own); /* on the host it is the partition's p->rec */
    run_free(r, r->send); run_free(r, r->ghost); run_free(r, r->t); run_free(r, r->nb);
    if (r->gpu) run_free(r, r->sidx);
}

enum { PH_EXCHANGE, PH_BUILD, PH_QUERY, PH_N };
static const char *PHASE_NAMES[PH_N] = {"exchange", "build", "query"};

/* One phase of the step; the GPU's work is enqueued on d->stream (caller synchronizes). */
static void run_phase(hm_run *r, int ph)
{
    const hm_part *p = r->p;
    if (!r->gpu) {
        if (ph == PH_EXCHANGE) hm_exchange_host(r->d, r->pat, r->own, r->send, r->ghost);
        if (ph == PH_BUILD) hm_build_host(r->m, p, r->pat, r->own, r->ghost, r->t);
        if (ph == PH_QUERY) hm_query_host(r->m, p, r->own, r->t, r->nb);
        return;
    }
#ifdef DIST_NCCL
    cudaStream_t s = r->d->stream;
    long nown = p->nown, ns = r->pat->nsend, nr = r->pat->nrecv;
    if (ph == PH_EXCHANGE) {
        if (ns) k_dist_pack<<<hmd_blocks(ns), HMD_THREADS, 0, s>>>(r->own, r->sidx, ns, r->send);
        dist_exchange_nccl(r->d, r->pat, HM_REC, r->send, r->ghost);
    }
    if (ph == PH_BUILD) {
        CHECK_CUDA_RANK(cudaMemsetAsync(r->t, 0xFF, sizeof(int) * (size_t)(p->win.w * p->win.h), s));
        k_dist_write<<<hmd_blocks(nown + nr), HMD_THREADS, 0, s>>>(r->own, nown, r->ghost, nr, r->t, p->win, r->m->levmax);
    }
    if (ph == PH_QUERY)
        k_dist_read<<<hmd_blocks(nown), HMD_THREADS, 0, s>>>(r->own, nown, r->t, p->win, amr_width(r->m),
                                                              amr_height(r->m), r->m->levmax, r->nb);
    CHECK_CUDA_RANK(cudaGetLastError());
#endif
}
static void run_sync(const hm_run *r)
{
#ifdef DIST_NCCL
    if (r->gpu) CHECK_CUDA_RANK(cudaStreamSynchronize(r->d->stream));
#endif
    (void)r;
}

/* The correctness run: steps 3-5 once, then every rank's neighbours to rank 0 (nb_all). */
static void run_once_and_gather(hm_run *r, int *nb_all)
{
    for (int ph = 0; ph < PH_N; ph++) run_phase(r, ph);
    run_sync(r);
    int *nb = r->nb;
    if (r->gpu) {
        nb = (int *)gen_alloc(sizeof(int) * 4 * (size_t)r->p->nown);
#ifdef DIST_NCCL
        CHECK_CUDA_RANK(cudaMemcpy(nb, r->nb, sizeof(int) * 4 * (size_t)r->p->nown, cudaMemcpyDeviceToHost));
#endif
    }
    hm_gather(r->d, r->p, nb, r->m->n, nb_all);
    if (nb != r->nb) free(nb);
}

/* Checks common to both modes: enough cells for the ranks, the partition's table fits. */
static void check_mesh_for_ranks(const dist_ctx *d, const amr_mesh *m, const char *name)
{
    dist_agree(d, m->n < d->size ? 2 : 0, "%s: %ld cell(s) for %d ranks: every rank needs at least one cell (run with at most %ld ranks)",
               name, m->n, d->size, m->n);
    double bytes = 4.0 * (double)hm_sort_buckets(m);
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
    double limit = pages > 0 && psz > 0 ? 0.25 * (double)pages * (double)psz : 4.0 * 1073741824.0;
    dist_agree(d, bytes > limit ? 2 : 0, "%s: the Morton hash sort of the partition needs %.2f GiB per rank, more than a quarter of this machine's memory",
               name, bytes / 1073741824.0);
}

static void run_start(hm_run *r, const dist_ctx *d, const amr_mesh *m, hm_part *p, dist_pattern *pat, int gpu,
                      double *part_ms, double *pattern_ms)
{
    double t0 = dist_time_begin();
    hm_partition(d, m, p);
    *part_ms = dist_time_end(t0);
    t0 = dist_time_begin();
    hm_pattern(d, m, p, pat);
    *pattern_ms = dist_time_end(t0);
    memset(r, 0, sizeof *r);
    r->d = d; r->m = m; r->p = p; r->pat = pat; r->gpu = gpu;
    run_setup(r);
}

/* ---------------- user mode: --in=MESH --out=FILE ---------------- */
static int user_mode(dist_ctx *d, const char *in, const char *out, int gpu)
{
    char tmp[4096], err[512]; /* --in, --out and the path lengths were checked before MPI_Init */
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = fopen(in, "r");
    dist_agree(d, f ? 0 : 2, "cannot read %s: %s", in, strerror(errno));
    amr_mesh m;
    long *line = NULL;
    int bad = meshio_read(f, in, &m, &line, err, sizeof err);
    fclose(f);
    dist_agree(d, bad ? 2 : 0, "%s", err);
    uint64_t mine = hm_checksum(&m), first = mine;
    CHECK_MPI(MPI_Bcast(&first, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD));
    dist_agree(d, mine != first ? 2 : 0, "%s: rank %d read a different mesh than rank 0: every rank must read the same file",
               in, d->rank);
    if (d->rank == 0) { /* validation as in neighbors: the hash write of Listing 2 on the whole mesh */
        bad = meshio_table_fits(&m, in, err, sizeof err);
        if (!bad) {
            int *t = (int *)malloc(sizeof(int) * (size_t)(amr_width(&m) * amr_height(&m)));
            if (!t) bad = snprintf(err, sizeof err, "%s:1: cannot allocate the finest-level hash table", in) > 0;
            else bad = meshio_check(&m, line, t, in, err, sizeof err);
            free(t);
        }
    }
    dist_agree(d, bad ? 2 : 0, "%s", err);
    check_mesh_for_ranks(d, &m, in);

    hm_part p;
    dist_pattern pat;
    hm_run r;
    double part_ms, pattern_ms;
    run_start(&r, d, &m, &p, &pat, gpu, &part_ms, &pattern_ms);
    int *nb_all = d->rank == 0 ? (int *)gen_alloc(sizeof(int) * 4 * (size_t)m.n) : NULL;
    run_once_and_gather(&r, nb_all);
    bad = 0;
    if (d->rank == 0) {
        FILE *o = fopen(tmp, "w");
        bad = !o;
        for (long c = 0; o && c < m.n; c++)
            fprintf(o, "%d %d %d %d\n", nb_all[4 * c], nb_all[4 * c + 1], nb_all[4 * c + 2], nb_all[4 * c + 3]);
        if (o && fclose(o)) bad = 1;
        if (!bad && rename(tmp, out)) bad = 1;
        if (bad) { snprintf(err, sizeof err, "cannot write %s: %s", out, strerror(errno)); remove(tmp); }
    }
    dist_agree(d, bad, "%s", err);
    if (d->rank == 0)
        fprintf(stderr, "neighbors-mpi: %ld cells on %d ranks (%s), largest share %ld cells -> %s\n", m.n, d->size,
                gpu ? "gpu" : "cpu", (m.n + d->size - 1) / d->size, out);
    run_teardown(&r);
    free(nb_all); free(line);
    dist_pattern_free(&pat);
    free(p.own); free(p.rec); free(p.split);
    amr_free(&m);
    return 0;
}

/* ---------------- --exp=scaling: verified, then each phase timed ---------------- */
static double median_of(double *s, int n)
{
    bench_stats b = bench_stats_of(s, n);
    return b.median;
}

/* Coarse sides nx = 2^a and ny = 2^a or 2^(a+1) for about `target` cells: on such domains the
 * Morton order's halves and quarters are rectangles, so each rank's table window is about
 * 1/P of the domain (on other sides a Morton range can span most of the domain's box). */
static void pow2_sides(long target, int levmax, double frac, int *nx, int *ny)
{
    double area = target / amr_cells_per_coarse(levmax, frac); /* coarse cells wanted */
    int a = 0;
    while ((double)(1L << (2 * a + 2)) <= area) a++;
    *nx = 1 << a;
    *ny = (double)(1L << (2 * a + 1)) <= area * 1.41 ? 2 << a : 1 << a;
}

static int scaling_mode(dist_ctx *d, int gpu, int remesh_gpu, int argc, char **argv, const common_opts *co, int lo2,
                        int hi2, int levmax, double frac)
{
    char gpus[2048] = "none (host only, MPI)";
#ifdef DIST_NCCL
    if (gpu) { /* the gpu line names every rank's GPU */
        char mine[DIST_DESC_LEN];
        device_describe(d->gpu, mine, sizeof mine);
        dist_describe_all(d, mine, gpus, sizeof gpus);
    }
#endif
    datfile df;
    char name[128];
    snprintf(name, sizeof name, "hashmesh_dist_scaling_%s_p%d.dat", gpu ? "gpu" : "cpu", d->size);
    if (d->rank == 0) {
        dat_meta meta = dat_meta_of("hashmesh/neighbors-mpi", "distributed Listing 2 (beyond the paper)", argc,
                                    argv, gpus, co);
        datfile_open(&df, co->out, name, &meta);
        datfile_meta(&df, "ranks", "%d (%s backend: %s)", d->size, gpu ? "gpu" : "cpu", gpu ? "NCCL" : "MPI");
        datfile_meta(&df, "mesh", "levmax %d, refine fraction %g, seed %lld", levmax, frac, (long long)co->seed);
        datfile_meta(&df, "remesh", "partition_ms, pattern_ms: steps 1 and 2 on the host (every rank sorts all keys); "
                                    "partition_gpu_ms: step 1 on the GPUs (nan with the cpu backend), checked equal to the host's");
        datfile_columns(&df, "n ranks partition_ms pattern_ms exchange_ms build_ms query_ms total_ms total_min_ms "
                             "total_max_ms ghosts_max exchange_bytes_max window_buckets_max domain_buckets partition_gpu_ms reps");
    }
    for (int k = lo2; k <= hi2; k++) {
        amr_mesh m;
        int nx, ny;
        pow2_sides(1L << k, levmax, frac, &nx, &ny);
        amr_generate(&m, nx, ny, levmax, frac, (uint64_t)co->seed + k);
        check_mesh_for_ranks(d, &m, "generated mesh");
        hm_part p;
        dist_pattern pat;
        hm_run r;
        double part_ms, pattern_ms;
        run_start(&r, d, &m, &p, &pat, gpu, &part_ms, &pattern_ms);
        double part_gpu_ms = NAN;
#ifdef DIST_NCCL
        if (gpu && remesh_gpu) part_gpu_ms = partition_gpu_checked(d, &m, &p);
#endif
        (void)remesh_gpu;
        long W = amr_width(&m), H = amr_height(&m);
        int *nb_all = NULL;
        long bad = 0;
        if (d->rank == 0) nb_all = (int *)gen_alloc(sizeof(int) * 4 * (size_t)m.n);
        run_once_and_gather(&r, nb_all);
        if (d->rank == 0) { /* every cell, every face, against the serial CPU hash (hash.h) */
            int *ref = (int *)gen_alloc(sizeof(int) * 4 * (size_t)m.n), *t = (int *)gen_alloc(sizeof(int) * (size_t)(W * H));
            hash_neigh2d_cpu(m.i, m.j, m.lev, m.n, levmax, W, H, t, ref);
            bad = (long)verify_exact(nb_all, ref, 4 * (size_t)m.n, sizeof(int), "distributed neighbours");
            free(ref); free(t);
        }
        dist_agree(d, bad ? 1 : 0, "verification failed at n = %ld on %d ranks: no data written", m.n, d->size);
        double *s = (double *)gen_alloc(sizeof(double) * (size_t)co->reps * (PH_N + 1));
        for (int w = 0; w < co->warmup; w++)
            for (int ph = 0; ph < PH_N; ph++) run_phase(&r, ph);
        run_sync(&r);
        for (int rep = 0; rep < co->reps; rep++) {
            for (int ph = 0; ph < PH_N; ph++) { /* each phase alone, barrier-timed */
                double t0 = dist_time_begin();
                run_phase(&r, ph);
                run_sync(&r);
                s[ph * co->reps + rep] = dist_time_end(t0);
            }
            double t0 = dist_time_begin(); /* the whole step, no barrier inside */
            for (int ph = 0; ph < PH_N; ph++) run_phase(&r, ph);
            run_sync(&r);
            s[PH_N * co->reps + rep] = dist_time_end(t0);
        }
        long mine[3] = {pat.nrecv, (pat.nsend + pat.nrecv) * HM_REC * 4, p.win.w * p.win.h}, most[3];
        CHECK_MPI(MPI_Reduce(mine, most, 3, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD));
        if (d->rank == 0) {
            double ph_ms[PH_N];
            for (int ph = 0; ph < PH_N; ph++) ph_ms[ph] = median_of(s + ph * co->reps, co->reps);
            bench_stats tot = bench_stats_of(s + PH_N * co->reps, co->reps);
            datfile_row(&df, "%ld %d %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %ld %ld %ld %ld %.4f %d", m.n, d->size, part_ms,
                        pattern_ms, ph_ms[0], ph_ms[1], ph_ms[2], tot.median, tot.min, tot.max, most[0], most[1],
                        most[2], W * H, part_gpu_ms, co->reps);
            bench_warn_spread("total", tot);
            fprintf(stderr, "n %ld, %d ranks (%s): partition %.2f (GPUs: %.2f) pattern %.2f | %s %.3f %s %.3f %s %.3f | step %.3f ms\n",
                    m.n, d->size, gpu ? "gpu" : "cpu", part_ms, part_gpu_ms, pattern_ms, PHASE_NAMES[0], ph_ms[0],
                    PHASE_NAMES[1], ph_ms[1], PHASE_NAMES[2], ph_ms[2], tot.median);
        }
        free(s); free(nb_all);
        run_teardown(&r);
        dist_pattern_free(&pat);
        free(p.own); free(p.rec); free(p.split);
        amr_free(&m);
    }
    if (d->rank == 0) datfile_commit(&df);
    return 0;
}

int main(int argc, char **argv)
{
    const char *in = "", *out = "", *backend = "cpu", *exp = "none", *remesh = "both";
    int lo2 = 16, hi2 = 20, levmax = 2;
    double frac = 0.3;
    long long max_mb = 4096;
    common_opts co = common_opts_default(); /* --device and --batch do not apply: rank k uses GPU k */
    arg_opt opts[] = {
        {"in", ARG_STR, &in, "mesh file (amr2d NX NY LEVMAX, then 'i j level' per cell)", 0, 0, NULL},
        {"out", ARG_STR, &out, "output file 'left right bottom top' per cell (--exp=scaling: directory, default results)", 0, 0, NULL},
        {"backend", ARG_CHOICE, &backend, "cpu: MPI on host buffers; gpu: one GPU per rank, NCCL", 0, 0, "cpu gpu"},
        {"max-mb", ARG_LONG, &max_mb, "largest mesh file read, in MB (10^6 bytes)", 1, 1000000, NULL},
        {"exp", ARG_CHOICE, &exp, "none: the --in/--out tool; scaling: generated meshes, verified, timed", 0, 0, "none scaling"},
        {"min-log2", ARG_INT, &lo2, "scaling: smallest mesh, about 2^k cells", 4, 28, NULL},
        {"max-log2", ARG_INT, &hi2, "scaling: largest mesh, about 2^k cells", 4, 28, NULL},
        {"levmax", ARG_INT, &levmax, "scaling: finest level of the generated meshes", 0, 12, NULL},
        {"refine-frac", ARG_DOUBLE, &frac, "scaling: fraction of coarse cells refined", 0, 1, NULL},
        {"remesh", ARG_CHOICE, &remesh, "scaling, gpu backend: both = the partition on the host and on the GPUs (checked "
         "equal, both timed); host = on the host only", 0, 0, "both host"},
        {"warmup", ARG_INT, &co.warmup, "scaling: untimed warm-up steps (-1: 3, QUICK 1)", -1, 1000, NULL},
        {"reps", ARG_INT, &co.reps, "scaling: timed steps, median reported (-1: 10, QUICK 3)", -1, 10000, NULL},
        {"quick", ARG_FLAG, &co.quick, "fewer reps (make QUICK=1)", 0, 0, NULL},
        {"seed", ARG_LONG, &co.seed, "scaling: seed of the mesh generator", 0, 9.0e18, NULL},
    };
    dist_args_parse(argc, argv, opts, ARGS_COUNT(opts), "neighbors-mpi --in=MESH --out=FILE [--backend=cpu|gpu]   (under mpirun -np P)",
                    "Face neighbours of a 2D AMR mesh over MPI ranks: Morton partition, ghost cells, local perfect hash.");
    /* Every check of the options and files runs before MPI_Init, on every rank, printed by rank
     * 0 only: a bad input gives one line and the same exit code everywhere, and nothing hangs. */
    char out_dir[4096];
    co.out = *out ? out : "results"; /* --exp=scaling: the .dat directory */
    if (!strcmp(exp, "none")) { /* the tool's input and output, checked as hashmesh/neighbors does */
        dist_mute mute = dist_mute_begin();
        if (!*in || !*out) DIE_USAGE("--in and --out are required (usage: neighbors-mpi --in=MESH --out=FILE)");
        char tmp[4096];
        if (snprintf(tmp, sizeof tmp, "%s.tmp", out) >= (int)sizeof tmp) DIE_USAGE("--out path too long");
        const char *ins[] = {in}, *base;
        fileio_check_size(in, max_mb * 1000000);
        fileio_check_out(out, ins, 1); /* neither FILE nor FILE.tmp may be MESH */
        fileio_split(out, out_dir, sizeof out_dir, &base);
        co.out = out_dir; /* FILE's directory: checked writable already */
        dist_mute_end(mute);
    }
    dist_opts_finish(&co);
    dist_ctx d;
    dist_init(&argc, &argv, &d);
    int gpu = !strcmp(backend, "gpu");
#ifdef DIST_NCCL
    if (gpu) {
        dist_use_gpu(&d);
        dist_nccl_init(&d);
    }
#else
    dist_agree(&d, gpu ? 2 : 0, "--backend=gpu: this build has no NCCL (nccl.h and libnccl were not found at build time)");
#endif
    int rc = !strcmp(exp, "scaling") ? scaling_mode(&d, gpu, !strcmp(remesh, "both"), argc, argv, &co, lo2, hi2, levmax, frac)
                                     : user_mode(&d, in, out, gpu);
#ifdef DIST_NCCL
    if (gpu) dist_nccl_free(&d);
#endif
    dist_exit(rc);
}
