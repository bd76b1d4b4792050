/* kernels.cuh -- the GPU hash algorithms (Robey, Nicholaeff, Robey, sec. 3, "Parallelized on
 * GPU" paragraphs): one thread per key / cell / query, every thread independent, calling
 * the same HD functions as the CPU code (hash.h).  Pipelines (gpu_*) only enqueue work on a
 * stream, so they can be timed with bench_gpu; tables and scratch are caller-owned.
 *
 * The 1D/2D sort compacts the hash table with a prefix scan (sec. 3.1, Fig. 3.2): here
 * cub::DeviceScan::ExclusiveSum over the flags (bucket >= 0), read through a transform
 * iterator, so no flag array is written and no scan is hand-written.  C++ only for that. */
#ifndef HASHMESH_KERNELS_CUH
#define HASHMESH_KERNELS_CUH

#include <cub/device/device_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <thrust/iterator/transform_iterator.h>
#include "../common/check.h"
#include "hash.h"
#include "gen.h"
#include "compact.h"

#define HM_THREADS 256 /* threads per block of every kernel */

static inline unsigned hm_blocks(long n) { return (unsigned)((n + HM_THREADS - 1) / HM_THREADS); }

/* eq. (2.13), Listing 1 line 9: each key writes its index into its bucket (single write) */
static __global__ void k_scatter1d(const double *__restrict__ x, int n, double xmin, double dmin, int *t)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) t[hash_bucket1d(x[i], xmin, dmin)] = (int)i;
}

/* sec. 3.1: 2D sort key i + j w at the finest level (single write) */
static __global__ void k_scatter2d(const int *__restrict__ ci, const int *__restrict__ cj, const int *__restrict__ lev,
                                   int n, int levmax, long W, int *t)
{
    long c = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (c < n) t[hash_key2d(ci[c], cj[c], lev[c], levmax, W)] = (int)c;
}

/* Listing 1 lines 13-19: non-empty bucket b goes to position off[b] of the sorted output */
static __global__ void k_compact(const int *__restrict__ t, const int *__restrict__ off, long m,
                                 const double *__restrict__ x, int *idx, double *sorted)
{
    long b = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (b >= m) return;
    int k = t[b];
    if (k < 0) return;
    int o = off[b];
    idx[o] = k;
    if (sorted) sorted[o] = x[k];
}

/* sec. 3.2, 1D: multiple reads left and right from the key's own bucket */
static __global__ void k_neigh1d(const double *__restrict__ x, int n, double xmin, double dmin, const int *__restrict__ t,
                                 long m, int *left, int *right)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) hash_neigh1d_read(t, m, hash_bucket1d(x[i], xmin, dmin), (int)i, &left[i], &right[i]);
}

/* Listing 2 lines 12-24: each cell writes every finest bucket it covers (multiple writes) */
static __global__ void k_write2d(const int *__restrict__ ci, const int *__restrict__ cj, const int *__restrict__ lev,
                                 int n, int levmax, long W, int *t)
{
    long c = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    long r = 1L << (levmax - lev[c]), x0 = (long)ci[c] * r, y0 = (long)cj[c] * r;
    for (long y = y0; y < y0 + r; y++)
        for (long x = x0; x < x0 + r; x++) t[y * W + x] = (int)c;
}

/* Listing 2 lines 26-35: one read per face */
static __global__ void k_neigh2d(const int *__restrict__ ci, const int *__restrict__ cj, const int *__restrict__ lev,
                                 int n, int levmax, long W, long H, const int *__restrict__ t, int *nb)
{
    long c = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    int l, r, b, tp;
    hash_neigh2d_read(t, W, H, ci[c], cj[c], lev[c], levmax, &l, &r, &b, &tp);
    nb[4 * c] = l;
    nb[4 * c + 1] = r;
    nb[4 * c + 2] = b;
    nb[4 * c + 3] = tp;
}

/* Listing 3 lines 3-11: old cell a writes its index into every bucket of [lo, hi) */
static __global__ void k_remap1d_write(const int *__restrict__ lo, const int *__restrict__ hi, int n, int *t)
{
    long a = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (a >= n) return;
    for (long k = lo[a]; k < hi[a]; k++) t[k] = (int)a;
}

/* Listing 3 lines 13-25 (linear reconstruction, hash.h remap_bucket): new cell b reads its buckets */
static __global__ void k_remap1d_read(const int *__restrict__ olo, const int *__restrict__ ohi,
                                      const double *__restrict__ mean, const double *__restrict__ gx,
                                      const int *__restrict__ nlo, const int *__restrict__ nhi, int nb,
                                      const int *__restrict__ t, double *out)
{
    long b = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (b >= nb) return;
    double s = 0;
    for (long k = nlo[b]; k < nhi[b]; k++) {
        int a = t[k];
        if (a >= 0) s += remap_bucket(mean[a], gx[a], 0, k + 0.5, 0, 0.5 * (olo[a] + ohi[a]), 0);
    }
    out[b] = s;
}

/* sec. 3.3, 2D remap read: new cell b sums the finest buckets it covers */
static __global__ void k_remap2d_read(const int *__restrict__ oi, const int *__restrict__ oj, const int *__restrict__ ol,
                                      const double *__restrict__ mean, const double *__restrict__ gx,
                                      const double *__restrict__ gy, const int *__restrict__ ni,
                                      const int *__restrict__ nj, const int *__restrict__ nl, int nb, int levmax,
                                      long W, const int *__restrict__ t, double *out)
{
    long b = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (b >= nb) return;
    out[b] = remap2d_gather(b, oi, oj, ol, mean, gx, gy, ni, nj, nl, levmax, W, t);
}

/* sec. 3.4, Listing 5 on the GPU: each block first copies the table and both axes into
 * shared memory ("each work-group makes a copy of the data to the local memory space"),
 * then interpolates a grid-stride share of the queries. Dynamic shared memory:
 * (nx * ny + nx + ny) doubles. */
static __global__ void k_table_hash(const double *__restrict__ data, const double *__restrict__ xaxis, int nx,
                                    const double *__restrict__ yaxis, int ny, const double *__restrict__ qx,
                                    const double *__restrict__ qy, long nq, double *out)
{
    extern __shared__ double sh[];
    double *sd = sh, *sx = sh + nx * ny, *sy = sx + nx;
    for (int k = threadIdx.x; k < nx * ny; k += blockDim.x) sd[k] = data[k];
    for (int k = threadIdx.x; k < nx; k += blockDim.x) sx[k] = xaxis[k];
    for (int k = threadIdx.x; k < ny; k += blockDim.x) sy[k] = yaxis[k];
    __syncthreads();
    double xinc = (sx[nx - 1] - sx[0]) / (nx - 1), yinc = (sy[ny - 1] - sy[0]) / (ny - 1);
    for (long q = blockIdx.x * (long)blockDim.x + threadIdx.x; q < nq; q += (long)gridDim.x * blockDim.x) {
        double x = qx[q], y = qy[q];
        int is = tab_slot_hash(x, sx[0], xinc, nx), js = tab_slot_hash(y, sy[0], yinc, ny);
        out[q] = tab_bilinear(sd, nx, sx, sy, is, js, x, y);
    }
}

/* eq. (2.13) as a 32-bit radix key with its index: the input of the "best baseline" radix
 * sort (a user who hashes knows min and dmin, so the bucket index is a 22-bit key at 2^21) */
static __global__ void k_bucket_keys1d(const double *__restrict__ x, int n, double xmin, double dmin, unsigned *key,
                                       int *idx)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i >= n) return;
    key[i] = (unsigned)hash_bucket1d(x[i], xmin, dmin);
    idx[i] = (int)i;
}

/* ---------------- pipelines (enqueue only; caller-owned buffers) ---------------- */
struct hm_is_full { /* the scan's input: 1 for a filled bucket */
    __host__ __device__ int operator()(int v) const { return v >= 0 ? 1 : 0; }
};

/* bytes of CUB scan scratch for a table of m buckets */
static inline size_t hm_scan_bytes(long m)
{
    size_t bytes = 0;
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, thrust::make_transform_iterator((const int *)nullptr, hm_is_full()),
                                             (int *)nullptr, (int)m));
    return bytes;
}
static inline void hm_scan(void *tmp, size_t bytes, const int *t, int *off, long m, cudaStream_t s)
{
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(tmp, bytes, thrust::make_transform_iterator(t, hm_is_full()), off, (int)m, s));
}

typedef struct {
    const double *x;  /* keys (1D) */
    const int *ci, *cj, *lev; /* cells (2D) */
    int n, levmax;
    double xmin, dmin;
    long m, W, H;     /* table buckets; 2D: m = W * H */
    int *t, *off;     /* table and scan output (m each) */
    void *tmp;        /* CUB scratch */
    size_t tmp_bytes;
    int *idx;         /* sorted indices (n) */
    double *sorted;   /* sorted keys (n) or NULL */
    int *left, *right, *nb; /* neighbours */
} gpu_hash_ctx;

/* 1D hash sort: clear, scatter, scan, compact (Listing 1 on the GPU) */
static inline void gpu_hash_sort1d(void *p, cudaStream_t s)
{
    gpu_hash_ctx *c = (gpu_hash_ctx *)p;
    CHECK_CUDA(cudaMemsetAsync(c->t, 0xFF, sizeof(int) * (size_t)c->m, s));
    k_scatter1d<<<hm_blocks(c->n), HM_THREADS, 0, s>>>(c->x, c->n, c->xmin, c->dmin, c->t);
    hm_scan(c->tmp, c->tmp_bytes, c->t, c->off, c->m, s);
    k_compact<<<hm_blocks(c->m), HM_THREADS, 0, s>>>(c->t, c->off, c->m, c->x, c->idx, c->sorted);
    CHECK_LAUNCH();
}
/* 2D hash sort: the same with the key i + j w */
static inline void gpu_hash_sort2d(void *p, cudaStream_t s)
{
    gpu_hash_ctx *c = (gpu_hash_ctx *)p;
    CHECK_CUDA(cudaMemsetAsync(c->t, 0xFF, sizeof(int) * (size_t)c->m, s));
    k_scatter2d<<<hm_blocks(c->n), HM_THREADS, 0, s>>>(c->ci, c->cj, c->lev, c->n, c->levmax, c->W, c->t);
    hm_scan(c->tmp, c->tmp_bytes, c->t, c->off, c->m, s);
    k_compact<<<hm_blocks(c->m), HM_THREADS, 0, s>>>(c->t, c->off, c->m, NULL, c->idx, NULL);
    CHECK_LAUNCH();
}
/* 1D neighbours: clear, single write, multiple reads */
static inline void gpu_hash_neigh1d(void *p, cudaStream_t s)
{
    gpu_hash_ctx *c = (gpu_hash_ctx *)p;
    CHECK_CUDA(cudaMemsetAsync(c->t, 0xFF, sizeof(int) * (size_t)c->m, s));
    k_scatter1d<<<hm_blocks(c->n), HM_THREADS, 0, s>>>(c->x, c->n, c->xmin, c->dmin, c->t);
    k_neigh1d<<<hm_blocks(c->n), HM_THREADS, 0, s>>>(c->x, c->n, c->xmin, c->dmin, c->t, c->m, c->left, c->right);
    CHECK_LAUNCH();
}
/* 2D neighbours (Listing 2): clear, multiple writes, single read per face */
static inline void gpu_hash_neigh2d(void *p, cudaStream_t s)
{
    gpu_hash_ctx *c = (gpu_hash_ctx *)p;
    CHECK_CUDA(cudaMemsetAsync(c->t, 0xFF, sizeof(int) * (size_t)c->m, s));
    k_write2d<<<hm_blocks(c->n), HM_THREADS, 0, s>>>(c->ci, c->cj, c->lev, c->n, c->levmax, c->W, c->t);
    k_neigh2d<<<hm_blocks(c->n), HM_THREADS, 0, s>>>(c->ci, c->cj, c->lev, c->n, c->levmax, c->W, c->H, c->t, c->nb);
    CHECK_LAUNCH();
}

/* The strongest GPU sort baseline: key generation (k_bucket_keys1d) + CUB DeviceRadixSort
 * of the 32-bit bucket index with its int index over bits [0, end_bit) only, end_bit =
 * ceil(log2 m).  CUB's Onesweep digits are 8 bits (ONESWEEP_RADIX_BITS of its sm_90
 * tuning): ceil(end_bit / 8) passes instead of the 8 of the 64-bit sort. */
typedef struct {
    const double *x;
    int n, end_bit;
    double xmin, dmin;
    unsigned *kin, *kout;
    int *vin, *vout;
    void *tmp;
    size_t tmp_bytes;
} gpu_radix32_ctx;
static inline size_t gpu_radix32_bytes(int n, int end_bit)
{
    size_t bytes = 0;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, (const unsigned *)nullptr, (unsigned *)nullptr,
                                               (const int *)nullptr, (int *)nullptr, n, 0, end_bit));
    return bytes;
}
static inline void gpu_radix32_sort1d(void *p, cudaStream_t s)
{
    gpu_radix32_ctx *c = (gpu_radix32_ctx *)p;
    k_bucket_keys1d<<<hm_blocks(c->n), HM_THREADS, 0, s>>>(c->x, c->n, c->xmin, c->dmin, c->kin, c->vin);
    CHECK_LAUNCH();
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(c->tmp, c->tmp_bytes, c->kin, c->kout, c->vin, c->vout, c->n, 0,
                                               c->end_bit, s));
}

/* ---------------- compact hash (compact.h) on the GPU ---------------- */
/* one write per cell: linear probing, a slot claimed by atomicCAS on its key (the mesh is
 * validated before, so keys are distinct) */
static __global__ void k_ch_insert(const int *__restrict__ ci, const int *__restrict__ cj, const int *__restrict__ lev,
                                   int n, unsigned long long *keys, int *vals, long cap)
{
    long c = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    unsigned long long k = ch_pack(lev[c], ci[c], cj[c]);
    long s = (long)(ch_mix(k) & (uint64_t)(cap - 1));
    for (long probe = 0; probe < cap; probe++) {
        unsigned long long prev = atomicCAS(&keys[s], (unsigned long long)CH_EMPTY, k);
        if (prev == (unsigned long long)CH_EMPTY || prev == k) {
            vals[s] = (int)c;
            return;
        }
        s = (s + 1) & (cap - 1);
    }
}
/* the compact table cleared (every key CH_EMPTY, all bytes 0xFF), then the n cells inserted */
static inline void gpu_ch_build(const int *ci, const int *cj, const int *lev, int n, unsigned long long *keys, int *vals,
                                long cap, cudaStream_t s)
{
    CHECK_CUDA(cudaMemsetAsync(keys, 0xFF, sizeof(unsigned long long) * (size_t)cap, s));
    k_ch_insert<<<hm_blocks(n), HM_THREADS, 0, s>>>(ci, cj, lev, n, keys, vals, cap);
}
static __global__ void k_ch_neigh2d(const int *__restrict__ ci, const int *__restrict__ cj, const int *__restrict__ lev,
                                    int n, int levmax, long W, long H, const unsigned long long *__restrict__ keys,
                                    const int *__restrict__ vals, long cap, int *nb)
{
    long c = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    int f[4];
    ch_neigh2d_read((const uint64_t *)keys, vals, cap, W, H, ci[c], cj[c], lev[c], levmax, (int)c, f);
    nb[4 * c] = f[0];
    nb[4 * c + 1] = f[1];
    nb[4 * c + 2] = f[2];
    nb[4 * c + 3] = f[3];
}
typedef struct {
    const int *ci, *cj, *lev;
    int n, levmax;
    long W, H, cap;
    unsigned long long *keys;
    int *vals, *nb;
} gpu_ch_ctx;
/* compact-hash 2D neighbours: clear (keys to CH_EMPTY), insert, read */
static inline void gpu_ch_neigh2d(void *p, cudaStream_t s)
{
    gpu_ch_ctx *c = (gpu_ch_ctx *)p;
    gpu_ch_build(c->ci, c->cj, c->lev, c->n, c->keys, c->vals, c->cap, s);
    k_ch_neigh2d<<<hm_blocks(c->n), HM_THREADS, 0, s>>>(c->ci, c->cj, c->lev, c->n, c->levmax, c->W, c->H, c->keys,
                                                         c->vals, c->cap, c->nb);
    CHECK_LAUNCH();
}

/* compact-hash remap read side: new cell b gathers the old cells over its region
 * (compact.h ch_remap2d_gather); a region that finds no old cell sets *err */
static __global__ void k_ch_remap2d(const unsigned long long *__restrict__ keys, const int *__restrict__ vals, long cap,
                                    int levmax, const int *__restrict__ oi, const int *__restrict__ oj,
                                    const int *__restrict__ ol, const double *__restrict__ mean,
                                    const double *__restrict__ gx, const double *__restrict__ gy,
                                    const int *__restrict__ ni, const int *__restrict__ nj, const int *__restrict__ nl,
                                    int nb, double *out, int *err)
{
    long b = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (b >= nb) return;
    if (ch_remap2d_gather((const uint64_t *)keys, vals, cap, levmax, oi, oj, ol, mean, gx, gy, ni[b], nj[b], nl[b], &out[b]))
        atomicOr(err, 1);
}
typedef struct {
    const int *oi, *oj, *ol, *ni, *nj, *nl;
    const double *mean, *gx, *gy;
    int na, nb, levmax;
    long cap;
    unsigned long long *keys;
    int *vals, *err;
    double *out;
} gpu_ch_remap_ctx;
/* compact-hash 2D remap: clear, insert the old cells, gather per new cell */
static inline void gpu_ch_remap2d(void *p, cudaStream_t s)
{
    gpu_ch_remap_ctx *c = (gpu_ch_remap_ctx *)p;
    gpu_ch_build(c->oi, c->oj, c->ol, c->na, c->keys, c->vals, c->cap, s);
    k_ch_remap2d<<<hm_blocks(c->nb), HM_THREADS, 0, s>>>(c->keys, c->vals, c->cap, c->levmax, c->oi, c->oj, c->ol, c->mean,
                                                          c->gx, c->gy, c->ni, c->nj, c->nl, c->nb, c->out, c->err);
    CHECK_LAUNCH();
}

typedef struct {
    /* old mesh (1D: olo/ohi; 2D: oi/oj/ol) with its field, new mesh, table, output */
    const int *olo, *ohi, *nlo, *nhi;
    const int *oi, *oj, *ol, *ni, *nj, *nl;
    const double *mean, *gx, *gy;
    int na, nb, levmax;
    long L, W, H; /* 1D table: L buckets; 2D: W * H */
    int *t;
    double *out;
} gpu_remap_ctx;

static inline void gpu_hash_remap1d(void *p, cudaStream_t s)
{
    gpu_remap_ctx *c = (gpu_remap_ctx *)p;
    CHECK_CUDA(cudaMemsetAsync(c->t, 0xFF, sizeof(int) * (size_t)c->L, s));
    k_remap1d_write<<<hm_blocks(c->na), HM_THREADS, 0, s>>>(c->olo, c->ohi, c->na, c->t);
    k_remap1d_read<<<hm_blocks(c->nb), HM_THREADS, 0, s>>>(c->olo, c->ohi, c->mean, c->gx, c->nlo, c->nhi, c->nb, c->t,
                                                            c->out);
    CHECK_LAUNCH();
}
static inline void gpu_hash_remap2d(void *p, cudaStream_t s)
{
    gpu_remap_ctx *c = (gpu_remap_ctx *)p;
    CHECK_CUDA(cudaMemsetAsync(c->t, 0xFF, sizeof(int) * (size_t)(c->W * c->H), s));
    k_write2d<<<hm_blocks(c->na), HM_THREADS, 0, s>>>(c->oi, c->oj, c->ol, c->na, c->levmax, c->W, c->t);
    k_remap2d_read<<<hm_blocks(c->nb), HM_THREADS, 0, s>>>(c->oi, c->oj, c->ol, c->mean, c->gx, c->gy, c->ni, c->nj, c->nl,
                                                            c->nb, c->levmax, c->W, c->t, c->out);
    CHECK_LAUNCH();
}

typedef struct {
    const double *data, *xaxis, *yaxis, *qx, *qy;
    int nx, ny, blocks;
    long nq;
    double *out;
} gpu_table_ctx;

static inline void gpu_table_hash(void *p, cudaStream_t s)
{
    gpu_table_ctx *c = (gpu_table_ctx *)p;
    size_t shbytes = sizeof(double) * (size_t)(c->nx * c->ny + c->nx + c->ny);
    long need = (long)hm_blocks(c->nq);
    unsigned blocks = (unsigned)(need < c->blocks ? need : c->blocks);
    k_table_hash<<<blocks, HM_THREADS, shbytes, s>>>(c->data, c->xaxis, c->nx, c->yaxis, c->ny, c->qx, c->qy, c->nq, c->out);
    CHECK_LAUNCH();
}

#endif
