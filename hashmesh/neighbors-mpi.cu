/* neighbors-mpi.cu -- face neighbours of a 2D AMR mesh (Listing 2 of Robey, Nicholaeff,
 * Robey, "Hash-based algorithms for discretized data") over P MPI processes: Morton
 * partition, ghost cells, a local perfect hash per rank, global indices (mesh_partition.h).
 *
 *   common/mpirun.sh -np P hashmesh/neighbors-mpi --in=MESH --out=FILE [--backend=cpu|gpu]
 *       the same mesh file, output file and error lines as hashmesh/neighbors; every rank
 *       reads MESH; rank 0 validates it (as neighbors does) and writes FILE.
 *   common/mpirun.sh -np P hashmesh/neighbors-mpi --exp=scaling [--min-log2= --max-log2= ...]
 *       generated meshes of about 2^k cells: verified against the serial CPU hash (every
 *       cell, every face), then each phase timed -> hashmesh_dist_scaling_<backend>_p<P>.dat
 * --backend=cpu (the default, as for every --backend option of the collection) moves host
 * buffers with MPI and builds and queries each rank's table on the rank's OpenMP threads
 * (--threads=N; 0, the default: OMP_NUM_THREADS where set, else the cores this rank may run
 * on divided by the ranks on its node, dist_init -- so P ranks on a node never start more
 * threads than its cores; 1: the serial loops, the reference; the same neighbours bit for bit,
 * mesh_step.h); --backend=gpu gives each rank its own GPU and
 * moves the ghosts with NCCL (built only where nccl.h and libnccl exist: -DDIST_NCCL).
 * --remesh=both (default) also runs steps 1-2 (partition, ghost pattern) distributed
 * (remesh_dist.h): each rank handles only its share, on its GPU (gpu backend: CUB, NCCL;
 * remesh_gpu.cuh) or its host (cpu backend: MPI); the result must equal the host reference
 * of mesh_partition.h (every owned record, split key, send list and the window) or every rank
 * exits 1.  --exp=scaling times it (partition_dist_ms, pattern_dist_ms, remesh_dist_ms) beside
 * the host's partition_ms and pattern_ms, and on the GPUs also the first design that sorted
 * every cell twice (remesh_sort2_ms, checked the same way). */
#include <errno.h>
#include <sys/stat.h>
#include "../common/check.h"
#include "../common/device.h"
#include "../common/bench.h"
#include "../common/datfile.h"
#include "../common/verify.h"
#include "../common/fileio.h"
#include "mesh_partition.h"
#include "remesh_dist.h"
#include "meshio.h"

/* ---------------- GPU backend: the phases as kernels, the ghosts through NCCL ---------------- */
#ifdef DIST_NCCL
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

#include "remesh_gpu.cuh" /* the distributed remesh's GPU backend */
#endif

typedef struct {
    const dist_ctx *d;
    const amr_mesh *m;
    const hm_part *p;
    const dist_pattern *pat;
    int gpu;
    int threads;                      /* OpenMP threads of the host build and query */
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
        if (ph == PH_BUILD) hm_build_host(r->m, p, r->pat, r->own, r->ghost, r->t, r->threads);
        if (ph == PH_QUERY) hm_query_host(r->m, p, r->own, r->t, r->nb, r->threads);
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
    dist_agree(d, m->n > INT_MAX ? 2 : 0, "%s: %ld cells: the global cell indices are 32-bit ints, at most %d cells", name,
               m->n, INT_MAX);
    dist_agree(d, m->n < d->size ? 2 : 0, "%s: %ld cell(s) for %d ranks: every rank needs at least one cell (run with at most %ld ranks)",
               name, m->n, d->size, m->n);
    double bytes = 4.0 * (double)hm_sort_buckets(m);
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
    double limit = pages > 0 && psz > 0 ? 0.25 * (double)pages * (double)psz : 4.0 * 1073741824.0;
    dist_agree(d, bytes > limit ? 2 : 0, "%s: the Morton hash sort of the partition needs %.2f GiB per rank, more than a quarter of this machine's memory",
               name, bytes / 1073741824.0);
}

static void run_start(hm_run *r, const dist_ctx *d, const amr_mesh *m, hm_part *p, dist_pattern *pat, int gpu,
                      int threads, double *part_ms, double *pattern_ms)
{
    double t0 = dist_time_begin();
    hm_partition(d, m, p);
    *part_ms = dist_time_end(t0);
    t0 = dist_time_begin();
    hm_pattern(d, m, p, pat);
    *pattern_ms = dist_time_end(t0);
    memset(r, 0, sizeof *r);
    r->d = d; r->m = m; r->p = p; r->pat = pat; r->gpu = gpu; r->threads = threads;
    run_setup(r);
}

/* The distributed remesh (remesh_dist.h) on this backend's processors: the input slice
 * uploaded (GPU), one first call, checked against the host reference p, pat (every rank exits
 * 1 on a mismatch), then `reps` more calls with each step barrier-timed (medians, ms). */
typedef struct { double part, pattern, remesh, remesh_min, remesh_max, first, upload, gpu_mib; } remesh_times;
static remesh_times remesh_dist_run(const dist_ctx *d, const amr_mesh *m, const hm_part *p, const dist_pattern *pat,
                                    int gpu, int sender_sorts, int reps)
{
    remesh_times t = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    hm_rm w;
    hm_rm_init(&w, d, m);
#ifdef DIST_NCCL
    if (gpu) hm_rm_gpu_init(&w, sender_sorts);
#else
    (void)sender_sorts;
#endif
    if (!gpu) hm_rm_host_init(&w);
    double t0 = dist_time_begin();
    w.ops->upload(&w);
    double up = dist_time_end(t0);
    t.upload = gpu ? up : NAN;
    t0 = dist_time_begin();
    hm_rm_partition(&w);
    hm_rm_pattern(&w);
    t.first = dist_time_end(t0);
    char why[256] = "";
    int bad = hm_rm_differs(&w, p, pat, why, sizeof why);
    dist_agree(d, bad, "rank %d: the distributed remesh (%s) differs from the host's at n = %ld: %s", d->rank,
               w.ops->name, m->n, why);
    if (reps > 0) {
        double *s = (double *)gen_alloc(sizeof(double) * 3 * (size_t)reps);
        for (int rep = 0; rep < reps; rep++) {
            t0 = dist_time_begin();
            hm_rm_partition(&w);
            s[rep] = dist_time_end(t0);
            t0 = dist_time_begin();
            hm_rm_pattern(&w);
            s[reps + rep] = dist_time_end(t0);
            s[2 * reps + rep] = s[rep] + s[reps + rep];
        }
        bench_stats a = bench_stats_of(s, reps), b = bench_stats_of(s + reps, reps), c = bench_stats_of(s + 2 * reps, reps);
        t.part = a.median; t.pattern = b.median;
        t.remesh = c.median; t.remesh_min = c.min; t.remesh_max = c.max;
        free(s);
    }
#ifdef DIST_NCCL
    if (gpu) { /* this GPU's memory in use while the remesh's and the step's buffers both exist */
        size_t avail, total;
        CHECK_CUDA_RANK(cudaMemGetInfo(&avail, &total));
        t.gpu_mib = (double)(total - avail) / (1024.0 * 1024.0);
    }
#endif
    hm_rm_free(&w);
    return t;
}

/* The rank's OpenMP threads: --threads=N (N > 0) for every OpenMP region of the rank, else
 * dist_init's choice (OMP_NUM_THREADS where set, else the cores this rank may run on divided
 * by the ranks on its node).  from: where the number came from, for the .dat. */
static int rank_threads(const dist_ctx *d, int want, char *from, size_t size)
{
#ifdef _OPENMP
    const char *env = getenv("OMP_NUM_THREADS");
    if (want > 0) omp_set_num_threads(want);
    if (want > 0) snprintf(from, size, "--threads=%d", want);
    else if (env) snprintf(from, size, "OMP_NUM_THREADS=%s", env);
    else snprintf(from, size, "%d cores visible / %d rank(s) on the node", omp_get_num_procs(), d->local_size);
    return omp_get_max_threads();
#else
    (void)d; (void)want;
    snprintf(from, size, "a build without OpenMP");
    return 1;
#endif
}
static int rank_cores(void)
{
#ifdef _OPENMP
    return omp_get_num_procs();
#else
    return 1;
#endif
}

/* ---------------- user mode: --in=MESH --out=FILE ---------------- */
static int user_mode(dist_ctx *d, const char *in, const char *out, int gpu, int threads, int remesh_dist)
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
    run_start(&r, d, &m, &p, &pat, gpu, threads, &part_ms, &pattern_ms);
    if (remesh_dist) remesh_dist_run(d, &m, &p, &pat, gpu, 0, 0); /* checked equal to the host's, or exit 1 */
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
        fprintf(stderr, "neighbors-mpi: %ld cells on %d ranks (%s, %d thread(s) a rank), largest share %ld cells -> %s\n",
                m.n, d->size, gpu ? "gpu" : "cpu", threads, (m.n + d->size - 1) / d->size, out);
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

static int scaling_mode(dist_ctx *d, int gpu, int threads, const char *threads_from, int remesh_dist, int argc,
                        char **argv, const common_opts *co, int lo2, int hi2, int levmax, double frac)
{
    int cores = rank_cores(), lo_hi[4] = {-threads, threads, -cores, cores}, most[4]; /* min and max over ranks */
    CHECK_MPI(MPI_Allreduce(lo_hi, most, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
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
    char why[1200] = ""; /* an existing .dat that cannot be replaced: exit 2 on every rank, before any work */
    dist_agree(d, d->rank == 0 ? datfile_check_target(co->out, name, why, sizeof why) : 0, "%s", why);
    if (d->rank == 0) {
        dat_meta meta = dat_meta_of("hashmesh/neighbors-mpi", "distributed Listing 2 (beyond the paper)", argc,
                                    argv, gpus, co);
        datfile_open(&df, co->out, name, &meta);
        datfile_meta(&df, "ranks", "%d (%s backend: %s)", d->size, gpu ? "gpu" : "cpu", gpu ? "NCCL" : "MPI");
        datfile_meta(&df, "mesh", "levmax %d, refine fraction %g, seed %lld", levmax, frac, (long long)co->seed);
        datfile_meta(&df, "threads", "%d to %d OpenMP threads a rank (column threads: rank 0's; from %s), %d rank(s) on "
                     "rank 0's node, %d to %d cores visible to a rank (an mpirun that binds each rank to one core leaves "
                     "1: --bind-to none); %s", -most[0], most[1], threads_from, d->local_size, -most[2], most[3],
                     gpu ? "the build and query run on the GPU, the threads serve the host reference"
                         : "the cpu backend's build and query run on them (1: the serial loops)");
        datfile_meta(&df, "remesh", "partition_ms, pattern_ms: steps 1 and 2 on the host, every rank sorting all keys "
                                    "(the reference, timed once); partition_dist_ms, pattern_dist_ms: the same steps distributed "
                                    "(remesh_dist.h), each rank its own share %s, checked equal to the reference, median of "
                                    "reps after a first call (remesh_dist_first_ms, both steps%s); remesh_dist_ms: both steps, "
                                    "median [min, max] of reps; remesh_sort2_ms: the same with the first GPU design (every "
                                    "rank sorts its slice before the split search, the owner sorts again: two sorts of every "
                                    "cell at P > 1; gpu backend only); upload_ms: the input slices copied to the GPUs before the "
                                    "remesh, not part of it; gpu_mem_max_mib: the most GPU memory in use on any rank (cudaMemGetInfo: "
                                    "total - free, the CUDA context and NCCL included) after the remesh runs, while its buffers and "
                                    "the step's exist; nan: not run",
                     gpu ? "on its GPU (CUB radix sort and select, NCCL)" : "on its host (MPI)",
                     gpu ? ": it also pays the first NCCL connection between GPUs" : "");
        datfile_columns(&df, "n ranks partition_ms pattern_ms exchange_ms build_ms query_ms total_ms total_min_ms "
                             "total_max_ms ghosts_max exchange_bytes_max window_buckets_max domain_buckets partition_dist_ms "
                             "pattern_dist_ms remesh_dist_ms remesh_dist_min_ms remesh_dist_max_ms remesh_dist_first_ms "
                             "remesh_sort2_ms upload_ms reps gpu_mem_max_mib threads");
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
        run_start(&r, d, &m, &p, &pat, gpu, threads, &part_ms, &pattern_ms);
        remesh_times rt = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN}, rt2 = rt;
        if (remesh_dist) rt = remesh_dist_run(d, &m, &p, &pat, gpu, 0, co->reps);
        if (remesh_dist && gpu) rt2 = remesh_dist_run(d, &m, &p, &pat, gpu, 1, co->reps); /* the baseline, checked too */
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
        double mem = fmax(rt.gpu_mib, rt2.gpu_mib), mem_max = NAN; /* fmax ignores a nan: nan only where neither ran */
        CHECK_MPI(MPI_Reduce(&mem, &mem_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
        if (d->rank == 0) {
            double ph_ms[PH_N];
            for (int ph = 0; ph < PH_N; ph++) ph_ms[ph] = median_of(s + ph * co->reps, co->reps);
            bench_stats tot = bench_stats_of(s + PH_N * co->reps, co->reps);
            datfile_row(&df, "%ld %d %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %ld %ld %ld %ld %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %d %.0f %d",
                        m.n, d->size, part_ms, pattern_ms, ph_ms[0], ph_ms[1], ph_ms[2], tot.median, tot.min, tot.max,
                        most[0], most[1], most[2], W * H, rt.part, rt.pattern, rt.remesh, rt.remesh_min, rt.remesh_max,
                        rt.first, rt2.remesh, rt.upload, co->reps, mem_max, threads);
            bench_warn_spread("total", tot);
            fprintf(stderr, "n %ld, %d ranks x %d threads (%s): remesh on the host: partition %.2f pattern %.2f | distributed: partition %.3f "
                            "pattern %.3f (first call %.2f; sorting twice %.3f) | %s %.3f %s %.3f %s %.3f | step %.3f ms\n",
                    m.n, d->size, threads, gpu ? "gpu" : "cpu", part_ms, pattern_ms, rt.part, rt.pattern, rt.first, rt2.remesh, PHASE_NAMES[0],
                    ph_ms[0], PHASE_NAMES[1], ph_ms[1], PHASE_NAMES[2], ph_ms[2], tot.median);
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
    int threads_opt = 0;
    common_opts co = common_opts_default(); /* --device and --batch do not apply: rank k uses GPU k */
    arg_opt opts[] = {
        {"in", ARG_STR, &in, "mesh file (amr2d NX NY LEVMAX, then 'i j level' per cell)", 0, 0, NULL},
        {"out", ARG_STR, &out, "output file 'left right bottom top' per cell (--exp=scaling: directory, default results)", 0, 0, NULL},
        {"backend", ARG_CHOICE, &backend, "cpu: MPI on host buffers; gpu: one GPU per rank, NCCL", 0, 0, "cpu gpu"},
        {"threads", ARG_INT, &threads_opt, "cpu backend: OpenMP threads a rank builds and queries its table on (0: "
         "OMP_NUM_THREADS, else the rank's cores / ranks on its node; 1: the serial loops)", 0, 4096, NULL},
        {"max-mb", ARG_LONG, &max_mb, "largest mesh file read, in MB (10^6 bytes)", 1, 1000000, NULL},
        {"exp", ARG_CHOICE, &exp, "none: the --in/--out tool; scaling: generated meshes, verified, timed", 0, 0, "none scaling"},
        {"min-log2", ARG_INT, &lo2, "scaling: smallest mesh, about 2^k cells", 4, 30, NULL},
        {"max-log2", ARG_INT, &hi2, "scaling: largest mesh, about 2^k cells (2^30: 1.26 G cells; global indices are 32-bit)", 4, 30, NULL},
        {"levmax", ARG_INT, &levmax, "scaling: finest level of the generated meshes", 0, 12, NULL},
        {"refine-frac", ARG_DOUBLE, &frac, "scaling: fraction of coarse cells refined", 0, 1, NULL},
        {"remesh", ARG_CHOICE, &remesh, "both = partition and ghost pattern on the host (the reference) and distributed "
         "on the ranks' GPUs (gpu) or hosts (cpu), checked equal (scaling: both timed); host = the host's only", 0, 0, "both host"},
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
    if (!strcmp(exp, "scaling") && lo2 > hi2) { /* an empty sweep would write a .dat without rows */
        dist_mute_begin(); /* rank 0 prints; every rank exits 2 before MPI_Init */
        DIE_USAGE("--min-log2=%d is larger than --max-log2=%d: no mesh size to measure", lo2, hi2);
    }
    if (!strcmp(exp, "none")) { /* the tool's input and output, checked as hashmesh/neighbors does */
        dist_mute mute = dist_mute_begin();
        if (!*in || !*out) DIE_USAGE("--in and --out are required (usage: neighbors-mpi --in=MESH --out=FILE)");
        char tmp[4096];
        if (snprintf(tmp, sizeof tmp, "%s.tmp", out) >= (int)sizeof tmp) DIE_USAGE("--out path too long");
        const char *ins[] = {in}, *base;
        fileio_check_size(in, max_mb * 1000000);
        fileio_check_out(out, ins, 1); /* neither FILE nor FILE.tmp may be MESH */
        fileio_check_out(tmp, ins, 1); /* FILE.tmp, opened for writing later: no directory, FIFO or device */
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
    int remesh_dist = !strcmp(remesh, "both");
    dist_agree(&d, remesh_dist && d.size > HM_RM_MAX_RANKS ? 2 : 0,
               "--remesh=both: the distributed remesh keeps one bit per peer, so at most %d ranks (use --remesh=host)",
               HM_RM_MAX_RANKS);
    char threads_from[128];
    int threads = rank_threads(&d, threads_opt, threads_from, sizeof threads_from);
    int rc = !strcmp(exp, "scaling")
                 ? scaling_mode(&d, gpu, threads, threads_from, remesh_dist, argc, argv, &co, lo2, hi2, levmax, frac)
                 : user_mode(&d, in, out, gpu, threads, remesh_dist);
#ifdef DIST_NCCL
    if (gpu) dist_nccl_free(&d);
#endif
    dist_exit(rc);
}
