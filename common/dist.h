/* dist.h -- the collection's multi-process layer: MPI starts one process per GPU, NCCL moves
 * GPU buffers between them, MPI moves host buffers (CPU backend).  Header-only; the MPI part
 * is plain C (mpicc), the GPU part needs nvcc and -DDIST_NCCL (and -lnccl).
 *
 *   dist_args_parse(...)          args_parse before MPI_Init, printed by rank 0 only
 *   dist_opts_finish(&c)          common_opts_finish before MPI_Init, printed by rank 0 only
 *   dist_mute_begin/end           other pre-MPI_Init checks, printed by rank 0 only
 *   dist_init(&argc, &argv, &d)   MPI_Init; rank, size, and the rank on its node (-> GPU); the
 *                                 node's cores shared among its ranks' OpenMP threads
 *   CHECK_MPI(call) CHECK_NCCL(call) CHECK_CUDA_RANK(call)
 *                                 every call checked; the error line names the rank
 *   dist_agree(&d, code, fmt...)  collective verdict: if any rank passes code != 0, rank 0
 *                                 prints the lowest failing rank's message as ONE line and
 *                                 every rank finalizes and exits with that code (no hang)
 *   dist_exit(code)               MPI_Finalize, exit(code)
 *   dist_time_begin / dist_time_end   a barrier-timed section: the slowest rank's time
 *   dist_describe_all(&d, mine, out, n)  the `# gpu:` line of all ranks (collective; rank 0)
 *   dist_pattern                  a reusable exchange pattern: per peer, which local records
 *                                 to send, and how many arrive (computed once per mesh)
 *   dist_exchange_host            MPI_Alltoallv of the pattern's records (host buffers)
 *   dist_use_gpu, dist_nccl_init, dist_exchange_nccl   the GPU side (rank -> GPU, NCCL). */
#ifndef COMMON_DIST_H
#define COMMON_DIST_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include "args.h"
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef DIST_NCCL
#include <cuda_runtime.h>
#include <nccl.h>
#endif

typedef struct {
    int rank, size;             /* in MPI_COMM_WORLD */
    int local_rank, local_size; /* among the ranks of this node: rank local_rank uses GPU local_rank */
    int gpu;                    /* this rank's CUDA device, -1 when none is used */
#ifdef DIST_NCCL
    ncclComm_t nccl;
    cudaStream_t stream;
#endif
} dist_ctx;

static inline int dist_rank(void)
{
    int r = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

static inline void dist_exit(int code)
{
    MPI_Finalize();
    exit(code);
}

#define CHECK_MPI(call)                                                                       \
    do {                                                                                      \
        int mpi_e_ = (call);                                                                  \
        if (mpi_e_ != MPI_SUCCESS) {                                                          \
            char mpi_s_[MPI_MAX_ERROR_STRING];                                                \
            int mpi_l_ = 0;                                                                   \
            MPI_Error_string(mpi_e_, mpi_s_, &mpi_l_);                                        \
            fprintf(stderr, "rank %d: %s:%d: MPI error in %s: %s\n", dist_rank(), __FILE__,   \
                    __LINE__, #call, mpi_s_);                                                 \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                     \
        }                                                                                     \
    } while (0)

/* Before MPI_Init an exit ends every rank the plain way (exit 0 for --help, 2 for a bad option
 * or file), so options and the user's files are checked there.  Only the launcher's rank 0
 * (from its environment) prints: dist_mute_begin silences the other ranks' stdout and stderr,
 * dist_mute_end restores them. */
typedef struct { int out, err; } dist_mute;
/* Whether this rank is muted now (function-local state: exit handlers take no argument). */
static inline int *dist_muted(void)
{
    static int muted;
    return &muted;
}
/* A muted rank that exits before MPI_Init waits DIST_MUTED_EXIT_WAIT_MS first: the launcher ends
 * the job at the first non-zero exit, and by then rank 0's one error line must have reached it. */
#define DIST_MUTED_EXIT_WAIT_MS 500
static inline void dist_muted_exit_wait(void)
{
    if (!*dist_muted()) return;
    struct timespec t = {DIST_MUTED_EXIT_WAIT_MS / 1000, (DIST_MUTED_EXIT_WAIT_MS % 1000) * 1000000L};
    nanosleep(&t, NULL);
}
static inline dist_mute dist_mute_begin(void)
{
    static int wait_registered;
    dist_mute m = {-1, -1};
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    if (!r) r = getenv("PMIX_RANK");
    if (!r) r = getenv("PMI_RANK");
    if (!r || atoi(r) == 0) return m;
    if (!wait_registered) wait_registered = !atexit(dist_muted_exit_wait);
    *dist_muted() = 1;
    fflush(stdout);
    fflush(stderr);
    m.out = dup(1);
    m.err = dup(2);
    int nul = open("/dev/null", O_WRONLY);
    dup2(nul, 1);
    dup2(nul, 2);
    close(nul);
    return m;
}
static inline void dist_mute_end(dist_mute m)
{
    if (m.out < 0) return;
    *dist_muted() = 0;
    dup2(m.out, 1);
    dup2(m.err, 2);
    close(m.out);
    close(m.err);
}
static inline void dist_args_parse(int argc, char **argv, const arg_opt *opts, int n, const char *usage,
                                   const char *about)
{
    dist_mute m = dist_mute_begin();
    args_parse(argc, argv, opts, n, usage, about);
    dist_mute_end(m);
}

/* common_opts_finish (args.h: --reps, the --out directory) before MPI_Init, rank 0 printing */
static inline void dist_opts_finish(common_opts *c)
{
    dist_mute m = dist_mute_begin();
    common_opts_finish(c);
    dist_mute_end(m);
}

static inline void dist_init(int *argc, char ***argv, dist_ctx *d)
{
    memset(d, 0, sizeof *d);
    d->gpu = -1;
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        fprintf(stderr, "error: MPI_Init failed\n");
        exit(1);
    }
    /* errors come back to CHECK_MPI (which names the rank) instead of aborting silently */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &d->rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &d->size));
    MPI_Comm node;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    CHECK_MPI(MPI_Comm_rank(node, &d->local_rank));
    CHECK_MPI(MPI_Comm_size(node, &d->local_size));
    CHECK_MPI(MPI_Comm_free(&node));
#ifdef _OPENMP
    /* OpenMP threads per rank: the cores this rank may run on, shared with the other ranks of
     * its node, unless OMP_NUM_THREADS says otherwise.  By default every rank would start one
     * thread per core it sees, and mpirun binds ranks per socket beyond 2 ranks: 5 ranks on a
     * 64-core node then spin 160 threads on 32 cores each socket. */
    if (!getenv("OMP_NUM_THREADS")) {
        int t = omp_get_num_procs() / d->local_size;
        omp_set_num_threads(t > 0 ? t : 1);
    }
#endif
}

/* Collective: each rank gives its verdict (0 = fine).  Code 77 is printed as "SKIP: ...". */
static inline void dist_agree(const dist_ctx *d, int code, const char *fmt, ...)
{
    int me = code ? d->rank : d->size, first = 0;
    CHECK_MPI(MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    if (first == d->size) return;
    char msg[1024] = "";
    if (d->rank == first) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
    }
    CHECK_MPI(MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, first, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Bcast(&code, 1, MPI_INT, first, MPI_COMM_WORLD));
    if (d->rank == 0) {
        if (code == 77) fprintf(stderr, "SKIP: %s\n", msg); /* on stderr, as device_require's */
        else fprintf(stderr, "error: %s\n", msg);
    }
    dist_exit(code);
}

/* A barrier-timed section (ms): every rank starts together, the time is the slowest rank's.
 * GPU work must be synchronized before dist_time_end. */
static inline double dist_time_begin(void)
{
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    return MPI_Wtime();
}
static inline double dist_time_end(double t0)
{
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    return (MPI_Wtime() - t0) * 1e3;
}

/* The `# gpu:` metadata of a multi-GPU run (collective; the result is on rank 0): every rank
 * passes its own description (device_describe); "P x NAME (...)" when all ranks have the
 * same, otherwise "P GPUs: rank 0: ...; rank 1: ...". */
#define DIST_DESC_LEN 256
static inline void dist_describe_all(const dist_ctx *d, const char *mine, char *out, size_t outsz)
{
    char own[DIST_DESC_LEN];
    snprintf(own, sizeof own, "%s", mine);
    char *all = d->rank == 0 ? (char *)malloc((size_t)DIST_DESC_LEN * d->size) : NULL;
    dist_agree(d, d->rank == 0 && !all ? 1 : 0, "rank 0: out of host memory");
    CHECK_MPI(MPI_Gather(own, DIST_DESC_LEN, MPI_CHAR, all, DIST_DESC_LEN, MPI_CHAR, 0, MPI_COMM_WORLD));
    if (d->rank != 0) return;
    int same = 1;
    for (int q = 1; q < d->size; q++) same &= !strcmp(all, all + (size_t)DIST_DESC_LEN * q);
    if (same) {
        snprintf(out, outsz, "%d x %s", d->size, all);
    } else {
        int len = snprintf(out, outsz, "%d GPUs:", d->size);
        for (int q = 0; q < d->size && len < (int)outsz; q++)
            len += snprintf(out + len, outsz - len, " rank %d: %s;", q, all + (size_t)DIST_DESC_LEN * q);
    }
    free(all);
}

/* Exchange pattern of fixed-size records (rec ints each): to peer q go the local records
 * send_idx[sdispl[q] .. sdispl[q] + scount[q]); from peer q arrive rcount[q] records at
 * rdispl[q] of the receive buffer.  Counts are in records. */
typedef struct {
    int *scount, *sdispl, *rcount, *rdispl; /* size entries each */
    int *send_idx;                          /* nsend local record indices */
    long nsend, nrecv;
} dist_pattern;

/* From the send side (scount, send_idx filled), learn the receive side: one MPI_Alltoall. */
static inline void dist_pattern_finish(const dist_ctx *d, dist_pattern *p)
{
    CHECK_MPI(MPI_Alltoall(p->scount, 1, MPI_INT, p->rcount, 1, MPI_INT, MPI_COMM_WORLD));
    p->nsend = p->nrecv = 0;
    for (int q = 0; q < d->size; q++) {
        p->sdispl[q] = (int)p->nsend;
        p->rdispl[q] = (int)p->nrecv;
        p->nsend += p->scount[q];
        p->nrecv += p->rcount[q];
    }
}

static inline void dist_pattern_alloc(const dist_ctx *d, dist_pattern *p)
{
    memset(p, 0, sizeof *p);
    p->scount = (int *)calloc((size_t)d->size * 4, sizeof(int));
    if (!p->scount) {
        fprintf(stderr, "rank %d: out of host memory\n", d->rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    p->sdispl = p->scount + d->size;
    p->rcount = p->sdispl + d->size;
    p->rdispl = p->rcount + d->size;
}
static inline void dist_pattern_free(dist_pattern *p)
{
    free(p->scount);
    free(p->send_idx);
    memset(p, 0, sizeof *p);
}

/* Host exchange: sendbuf holds the packed records (nsend x rec ints) in pattern order. */
static inline void dist_exchange_host(const dist_ctx *d, const dist_pattern *p, int rec, const int *sendbuf,
                                      int *recvbuf)
{
    /* counts and offsets in records (one MPI type of `rec` ints), so that they stay below 2^31
     * where the same counts in ints would not */
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(rec, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Alltoallv(sendbuf, p->scount, p->sdispl, t, recvbuf, p->rcount, p->rdispl, t, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Type_free(&t));
}

#ifdef __CUDACC__
#define CHECK_CUDA_RANK(call)                                                                 \
    do {                                                                                      \
        cudaError_t cu_e_ = (call);                                                           \
        if (cu_e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "rank %d: %s:%d: CUDA error in %s: %s (%s)\n", dist_rank(),       \
                    __FILE__, __LINE__, #call, cudaGetErrorName(cu_e_),                       \
                    cudaGetErrorString(cu_e_));                                               \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                     \
        }                                                                                     \
    } while (0)

/* Rank -> GPU: local rank k uses device k.  No GPU on any rank: SKIP (77) everywhere; a rank
 * without a GPU of its own (more ranks on a node than GPUs): one line, exit 2 everywhere. */
static inline void dist_use_gpu(dist_ctx *d)
{
    int count = 0, most = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
    (void)cudaGetLastError();
    CHECK_MPI(MPI_Allreduce(&count, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    dist_agree(d, most == 0 ? 77 : 0, "no usable CUDA device on any rank");
    dist_agree(d, d->local_rank >= count ? 2 : 0,
               "rank %d has no GPU: it is rank %d of %d on its node, which has %d GPU(s); start at most one rank per GPU",
               d->rank, d->local_rank, d->local_size, count);
    d->gpu = d->local_rank;
    CHECK_CUDA_RANK(cudaSetDevice(d->gpu));
}
#endif

#ifdef DIST_NCCL
#define CHECK_NCCL(call)                                                                      \
    do {                                                                                      \
        ncclResult_t nc_e_ = (call);                                                          \
        if (nc_e_ != ncclSuccess) {                                                           \
            fprintf(stderr, "rank %d: %s:%d: NCCL error in %s: %s\n", dist_rank(), __FILE__,  \
                    __LINE__, #call, ncclGetErrorString(nc_e_));                              \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                     \
        }                                                                                     \
    } while (0)

/* One NCCL communicator over all ranks: rank 0's unique id travels by MPI_Bcast. */
static inline void dist_nccl_init(dist_ctx *d)
{
    ncclUniqueId id;
    if (d->rank == 0) CHECK_NCCL(ncclGetUniqueId(&id));
    CHECK_MPI(MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
    CHECK_NCCL(ncclCommInitRank(&d->nccl, d->size, id, d->rank));
    CHECK_CUDA_RANK(cudaStreamCreate(&d->stream));
}
static inline void dist_nccl_free(dist_ctx *d)
{
    CHECK_NCCL(ncclCommDestroy(d->nccl));
    CHECK_CUDA_RANK(cudaStreamDestroy(d->stream));
}

/* Device exchange on d->stream: the same pattern, one ncclSend/ncclRecv per peer with
 * records, all in one group (no deadlock whatever the order).  Enqueues only. */
static inline void dist_exchange_nccl(const dist_ctx *d, const dist_pattern *p, int rec, const int *d_send,
                                      int *d_recv)
{
    CHECK_NCCL(ncclGroupStart());
    for (int q = 0; q < d->size; q++) {
        if (p->scount[q])
            CHECK_NCCL(ncclSend(d_send + (size_t)p->sdispl[q] * rec, (size_t)p->scount[q] * rec, ncclInt32, q, d->nccl,
                                d->stream));
        if (p->rcount[q])
            CHECK_NCCL(ncclRecv(d_recv + (size_t)p->rdispl[q] * rec, (size_t)p->rcount[q] * rec, ncclInt32, q, d->nccl,
                                d->stream));
    }
    CHECK_NCCL(ncclGroupEnd());
}
#endif

#endif
