/* hashmesh/remesh_gpu.cuh -- the GPU backend of remesh_dist.h: the Morton partition and the
 * ghost pattern of each rank's share on its own GPU (CUB radix sort and select, NCCL for the
 * cells that change rank), after the paper's open problem of an MPI layer (sec. 5).
 *
 * Cost model per call (n / P cells a rank): keys (k_rm_keys, 32-bit up to a 2^16 x 2^16
 * domain, else 64-bit).  EACH CELL IS SORTED ONCE, by its owner: at P > 1 the slice's keys
 * stay in input order; the split search counts them by histogram (k_rm_hist: one read of
 * the keys a round, at most HMR_HIST_PROBES counts, so ceil(end_bit / b) rounds: 3 for
 * 28-bit keys at P = 2 and 4), each round one copy of the counts and one MPI_Allreduce; the
 * owner runs: counted by the search's last round already, the slice grouped by owner (one 1-byte
 * CUB radix pass); each cell goes to its owner through NCCL as ONE packed key (Morton key and
 * level, hm_pack_cell: 4 bytes up to end_bit + level bits = 32) and its global index, 8 bytes
 * instead of a 16-byte record; the owner sorts these pairs as they arrive (CUB radix sort
 * over end_bit + level bits, 30 for the 28-bit keys at levmax 2: still 4 passes of 8 bits)
 * and unpacks them into its records (k_rm_unpack).  At P = 1 the slice is sorted right away
 * and lands in place.  (--remesh-sort=both keeps the first
 * design as the baseline: every rank sorts its slice before the search -- lower bounds on
 * sorted keys, HM_RM_PROBES counts a round -- the records travel as 16 bytes, and the owner
 * sorts again: two sorts of every cell at P > 1.)  The pattern: one
 * pass over the owned cells (k_rm_touch: masks, per-peer counts, bounding box), a CUB select
 * of the cells touching a peer and one block per peer writing its list in order; one copy of
 * the counts and box.  Every buffer is carved out of ONE device allocation made before the
 * remesh (hm_rm_gpu_init), the pinned host staging likewise; CUB's temporary storage is
 * sized there once.  Host <-> device copies per call: per search round its bin edges and
 * counts, the split keys (for the owners, for the masks), the pattern's counts and box;
 * synchronizations: one per round, one for the pattern, one at the end of the partition. */
#ifndef HASHMESH_REMESH_GPU_CUH
#define HASHMESH_REMESH_GPU_CUH

#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include "remesh_dist.h"

#define HMR_THREADS 256
#define HMR_HIST_PROBES 4096 /* counts a round over unsorted keys: a block's histogram, 16 KiB of shared memory */
#define HMR_HIST_THREADS 512

typedef struct {
    unsigned long long box[4];                  /* min x, min y, max x end, max y end of the owned cells */
    unsigned long long count[HM_RM_MAX_RANKS];  /* cells to send to each peer */
    int nedge;                                  /* owned cells touching any peer */
} hmr_info;

typedef struct {
    int wide;                    /* 64-bit keys (end_bit > 32), else 32-bit */
    int sender_sorts;            /* the baseline: sort the slice before the search too */
    int lb;                      /* level bits of a packed cell (hm_pack_cell) */
    int packed;                  /* this call's cells travel as packed keys (the slice was not sorted) */
    int hist_grid;               /* blocks of k_rm_hist */
    int grid;                    /* blocks of the grid-stride pattern kernel */
    cudaStream_t s;
    char *arena;                 /* the one device allocation */
    int *ijl;                    /* the input slice: i, j, level, ns each */
    void *ka, *kb;               /* keys, CUB double buffer */
    int *va, *vb;                /* their indices */
    void *key_sorted;            /* where the last sort left the keys ... */
    int *val_sorted;             /* ... and the indices */
    int *send, *recv, *own;      /* records (i, j, level, global index) */
    uint64_t *mask;              /* per owned cell: the peers across its faces */
    unsigned char *flag;         /* mask != 0 */
    int *edge, *sidx;            /* owned cells touching a peer; the send lists */
    uint64_t *d_base, *d_split;  /* P + 1 each */
    long long *d_cnt;            /* HM_RM_PROBES */
    unsigned *part;              /* k_rm_hist's per-block histograms, hist_grid x HMR_HIST_PROBES */
    unsigned char *oa, *ob;      /* owners, CUB double buffer of the grouping pass */
    hmr_info *info;
    char *pinned;                /* host staging: */
    hmr_info *h_info;
    long long *h_cnt;
    uint64_t *h_base;
    void *tmp;                   /* CUB's temporary storage */
    size_t tmp_bytes;
} hm_rm_gpu;

static unsigned hmr_blocks(long n) { return (unsigned)((n + HMR_THREADS - 1) / HMR_THREADS); }

/* Morton key and local index of each cell of the input slice (step 1) */
template <typename K>
static __global__ void k_rm_keys(const int *__restrict__ i, const int *__restrict__ j, const int *__restrict__ lev,
                                 long n, int levmax, K *key, int *idx)
{
    long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (t >= n) return;
    int s = levmax - lev[t];
    key[t] = (K)hm_morton((long)i[t] << s, (long)j[t] << s);
    idx[t] = (int)t;
}
/* the same from received records (step 4) */
template <typename K>
static __global__ void k_rm_rec_keys(const int4 *__restrict__ rec, long n, int levmax, K *key, int *idx)
{
    long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (t >= n) return;
    int4 r = rec[t];
    int s = levmax - r.z;
    key[t] = (K)hm_morton((long)r.x << s, (long)r.y << s);
    idx[t] = (int)t;
}
/* cnt[p] = sorted keys < base[p >> b] + ((p mod 2^b) << shift), one probe a thread (step 2) */
template <typename K>
static __global__ void k_rm_count_lt(const K *__restrict__ key, long n, const uint64_t *__restrict__ base, long np,
                                     int shift, int b, long long *cnt)
{
    long p = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (p >= np) return;
    uint64_t x = base[p >> b] + ((uint64_t)(p & ((1L << b) - 1)) << shift);
    long lo = 0, hi = n;
    while (lo < hi) { /* hm_count_lt on K-bit keys */
        long mid = lo + (hi - lo) / 2;
        if ((uint64_t)key[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    cnt[p] = lo;
}
/* Step 2 on keys in input order: one block's histogram of the round bins (hm_round_bin) of
 * every target, in shared memory -- the lanes of a warp with the same bin add once
 * (__match_any_sync: input order is spatially coherent, many neighbours share a bin) -- then
 * written to part[block]; k_rm_hist_sum adds the blocks, the host takes prefix sums. */
template <typename K>
static __global__ void k_rm_hist(const K *__restrict__ key, long n, const uint64_t *__restrict__ base, int nb, int shift,
                                 int b, unsigned *part)
{
    __shared__ unsigned h[HMR_HIST_PROBES];
    __shared__ uint64_t sbase[HM_RM_MAX_RANKS];
    int nj = 1 << b, nbins = nb << b, lane = threadIdx.x & 31;
    for (int i = threadIdx.x; i < nbins; i += blockDim.x) h[i] = 0;
    for (int q = threadIdx.x; q < nb; q += blockDim.x) sbase[q] = base[q];
    __syncthreads();
    long stride = (long)gridDim.x * blockDim.x;
    for (long t0 = blockIdx.x * (long)blockDim.x + threadIdx.x - lane; t0 < n; t0 += stride) { /* warp-uniform trips */
        long t = t0 + lane;
        uint64_t k = t < n ? (uint64_t)key[t] : 0;
        for (int q = 0; q < nb; q++) {
            int bin = t < n ? hm_round_bin(k, sbase[q], shift, nj) : nj;
            unsigned same = __match_any_sync(0xffffffffu, bin);
            if (bin < nj && lane == __ffs(same) - 1) atomicAdd(&h[(q << b) + bin], (unsigned)__popc(same));
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < nbins; i += blockDim.x) part[(long)blockIdx.x * nbins + i] = h[i];
}
static __global__ void k_rm_hist_sum(const unsigned *__restrict__ part, int blocks, int nbins, long long *cnt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nbins) return;
    long long s = 0;
    for (int g = 0; g < blocks; g++) s += part[(long)g * nbins + i];
    cnt[i] = s;
}
/* Step 3 on keys in input order: each cell's owner (hm_owner), the 1-byte key of the grouping sort */
template <typename K>
static __global__ void k_rm_owner(const K *__restrict__ key, long n, const uint64_t *__restrict__ split, int P,
                                  unsigned char *owner)
{
    __shared__ uint64_t ssplit[HM_RM_MAX_RANKS + 1];
    for (int q = threadIdx.x; q <= P; q += blockDim.x) ssplit[q] = split[q];
    __syncthreads();
    long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (t < n) owner[t] = (unsigned char)hm_owner(ssplit, P, (uint64_t)key[t]);
}

/* the records of the slice in the order of idx (key order, or grouped by owner) (step 3) */
static __global__ void k_rm_gather_send(const int *__restrict__ i, const int *__restrict__ j, const int *__restrict__ lev,
                                        const int *__restrict__ idx, long n, long c0, int4 *send)
{
    long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (t >= n) return;
    int s = idx[t];
    send[t] = make_int4(i[s], j[s], lev[s], (int)(c0 + s));
}
/* Step 3, the slice in input order: each cell as ONE packed key (Morton key and level,
 * hm_pack_cell) and its global index, in the order of idx (grouped by owner; NULL: as is) --
 * 8 bytes a cell on the wire instead of a 16-byte record, and the owner sorts them as they come */
template <typename K>
static __global__ void k_rm_pack_send(const int *__restrict__ i, const int *__restrict__ j, const int *__restrict__ lev,
                                      const int *__restrict__ idx, long n, long c0, int levmax, int lb, K *pk, int *gidx)
{
    long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (t >= n) return;
    int s = idx ? idx[t] : (int)t;
    pk[t] = (K)hm_pack_cell(i[s], j[s], lev[s], levmax, lb);
    gidx[t] = (int)(c0 + s);
}
/* Step 4 after the owner's sort of the packed keys: the owned records in key order */
template <typename K>
static __global__ void k_rm_unpack(const K *__restrict__ pk, const int *__restrict__ gidx, long n, int levmax, int lb, int4 *own)
{
    long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (t >= n) return;
    int i, j, l;
    hm_unpack_cell((uint64_t)pk[t], levmax, lb, &i, &j, &l);
    own[t] = make_int4(i, j, l, gidx[t]);
}
/* own[t] = recv[idx[t]] (step 4) */
static __global__ void k_rm_gather_rec(const int4 *__restrict__ recv, const int *__restrict__ idx, long n, int4 *own)
{
    long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (t < n) own[t] = recv[idx[t]];
}
static __global__ void k_rm_touch_init(hmr_info *info)
{
    int t = threadIdx.x;
    if (t < HM_RM_MAX_RANKS) info->count[t] = 0;
    if (t < 2) info->box[t] = ~0ull;
    else if (t < 4) info->box[t] = 0;
    if (t == 0) info->nedge = 0;
}
/* Step 5, grid-stride over the owned cells: the peer mask (remesh.h), its flag, per-peer
 * counts and the bounding box (shared memory, then one global atomic per block and value). */
static __global__ void k_rm_touch(const int4 *__restrict__ own, long n, long W, long H, int levmax,
                                  const uint64_t *__restrict__ split, int P, int me, uint64_t *mask,
                                  unsigned char *flag, hmr_info *info)
{
    __shared__ uint64_t ssplit[HM_RM_MAX_RANKS + 1];
    __shared__ unsigned int scount[HM_RM_MAX_RANKS];
    __shared__ unsigned long long sbox[4];
    for (int q = threadIdx.x; q <= P; q += blockDim.x) ssplit[q] = split[q];
    for (int q = threadIdx.x; q < P; q += blockDim.x) scount[q] = 0;
    if (threadIdx.x < 4) sbox[threadIdx.x] = threadIdx.x < 2 ? ~0ull : 0ull;
    __syncthreads();
    unsigned long long b[4] = {~0ull, ~0ull, 0ull, 0ull};
    for (long c = blockIdx.x * (long)blockDim.x + threadIdx.x; c < n; c += (long)gridDim.x * blockDim.x) {
        int4 r4 = own[c];
        int r[4] = {r4.x, r4.y, r4.z, r4.w};
        uint64_t mk = hm_touch_mask(W, H, levmax, ssplit, P, me, r);
        mask[c] = mk;
        flag[c] = mk != 0;
        for (int q = 0; q < P && (mk >> q); q++)
            if ((mk >> q) & 1) atomicAdd(&scount[q], 1u);
        unsigned long long s = 1ull << (levmax - r[2]), x0 = (unsigned long long)r[0] * s, y0 = (unsigned long long)r[1] * s;
        b[0] = min(b[0], x0); b[1] = min(b[1], y0); b[2] = max(b[2], x0 + s); b[3] = max(b[3], y0 + s);
    }
    for (int o = 16; o > 0; o /= 2) { /* warp reduction of the box */
        b[0] = min(b[0], __shfl_down_sync(0xffffffffu, b[0], o));
        b[1] = min(b[1], __shfl_down_sync(0xffffffffu, b[1], o));
        b[2] = max(b[2], __shfl_down_sync(0xffffffffu, b[2], o));
        b[3] = max(b[3], __shfl_down_sync(0xffffffffu, b[3], o));
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMin(&sbox[0], b[0]); atomicMin(&sbox[1], b[1]);
        atomicMax(&sbox[2], b[2]); atomicMax(&sbox[3], b[3]);
    }
    __syncthreads();
    for (int q = threadIdx.x; q < P; q += blockDim.x)
        if (scount[q]) atomicAdd(&info->count[q], (unsigned long long)scount[q]);
    if (threadIdx.x == 0) {
        atomicMin(&info->box[0], sbox[0]); atomicMin(&info->box[1], sbox[1]);
        atomicMax(&info->box[2], sbox[2]); atomicMax(&info->box[3], sbox[3]);
    }
}
/* Step 5's send lists: block q writes peer q's list (the selected edge cells with bit q, in
 * ascending order) at the offset of the counts of the peers before it. */
static __global__ void k_rm_group(const int *__restrict__ edge, const hmr_info *__restrict__ info,
                                  const uint64_t *__restrict__ mask, int me, int *sidx)
{
    typedef cub::BlockScan<int, HMR_THREADS> scan_t;
    __shared__ typename scan_t::TempStorage ts;
    int q = blockIdx.x;
    if (q == me || info->count[q] == 0) return; /* the same for the whole block */
    long off = 0;
    for (int p = 0; p < q; p++) off += (long)info->count[p];
    int nedge = info->nedge;
    for (int e0 = 0; e0 < nedge; e0 += HMR_THREADS) {
        int e = e0 + threadIdx.x, pos, tot;
        int f = e < nedge && ((mask[edge[e]] >> q) & 1);
        scan_t(ts).ExclusiveSum(f, pos, tot);
        if (f) sidx[off + pos] = edge[e];
        off += tot;
        __syncthreads(); /* ts is reused */
    }
}

/* dist_exchange_nccl with the rank's own part copied on its GPU instead of sent to itself */
static void hmr_exchange(const dist_ctx *d, const dist_pattern *pat, int rec, const int *d_send, int *d_recv)
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

/* CUB's radix sort of (ka, va) pairs over the low end_bit bits, in the double buffers */
template <typename K>
static void hmr_sort(hm_rm_gpu *g, long n, int end_bit)
{
    cub::DoubleBuffer<K> k((K *)g->ka, (K *)g->kb);
    cub::DoubleBuffer<int> v(g->va, g->vb);
    size_t bytes = g->tmp_bytes;
    if (n) CHECK_CUDA_RANK(cub::DeviceRadixSort::SortPairs(g->tmp, bytes, k, v, (int)n, 0, end_bit, g->s));
    g->key_sorted = k.Current();
    g->val_sorted = v.Current();
}
template <typename K>
static size_t hmr_sort_bytes(hm_rm_gpu *g, long n, int end_bit)
{
    cub::DoubleBuffer<K> k((K *)g->ka, (K *)g->kb);
    cub::DoubleBuffer<int> v(g->va, g->vb);
    size_t bytes = 0;
    CHECK_CUDA_RANK(cub::DeviceRadixSort::SortPairs(NULL, bytes, k, v, (int)n, 0, end_bit, g->s));
    return bytes;
}

/* ---- the backend's operations (remesh_dist.h's hm_rm_ops) ---- */
static void hm_rmg_upload(hm_rm *w)
{
    hm_rm_gpu *g = (hm_rm_gpu *)w->impl;
    const amr_mesh *m = w->m;
    size_t b = sizeof(int) * (size_t)w->ns;
    CHECK_CUDA_RANK(cudaMemcpyAsync(g->ijl, m->i + w->c0, b, cudaMemcpyHostToDevice, g->s));
    CHECK_CUDA_RANK(cudaMemcpyAsync(g->ijl + w->ns, m->j + w->c0, b, cudaMemcpyHostToDevice, g->s));
    CHECK_CUDA_RANK(cudaMemcpyAsync(g->ijl + 2 * w->ns, m->lev + w->c0, b, cudaMemcpyHostToDevice, g->s));
    CHECK_CUDA_RANK(cudaStreamSynchronize(g->s));
}
static void hm_rmg_keys_sort(hm_rm *w)
{
    hm_rm_gpu *g = (hm_rm_gpu *)w->impl;
    long n = w->ns;
    if (g->wide) k_rm_keys<uint64_t><<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>(g->ijl, g->ijl + n, g->ijl + 2 * n, n, w->m->levmax, (uint64_t *)g->ka, g->va);
    else k_rm_keys<uint32_t><<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>(g->ijl, g->ijl + n, g->ijl + 2 * n, n, w->m->levmax, (uint32_t *)g->ka, g->va);
    CHECK_CUDA_RANK(cudaGetLastError());
    w->sorted = w->d->size == 1 || g->sender_sorts; /* else each cell is sorted once, by its owner */
    g->key_sorted = g->ka;
    g->val_sorted = g->va;
    if (!w->sorted) return;
    if (g->wide) hmr_sort<uint64_t>(g, n, w->end_bit);
    else hmr_sort<uint32_t>(g, n, w->end_bit);
}
/* step 2's counts from keys in input order: per-block histograms, summed, prefix sums here */
static void hmr_count_hist(hm_rm *w, int nb, int shift, int b, long long *cnt)
{
    hm_rm_gpu *g = (hm_rm_gpu *)w->impl;
    int nbins = nb << b, nj = 1 << b;
    unsigned grid = (unsigned)((w->ns + HMR_HIST_THREADS - 1) / HMR_HIST_THREADS);
    if (grid > (unsigned)g->hist_grid) grid = (unsigned)g->hist_grid;
    if (grid == 0) grid = 1; /* a rank with no cells still writes its (zero) counts */
    if (g->wide) k_rm_hist<uint64_t><<<grid, HMR_HIST_THREADS, 0, g->s>>>((const uint64_t *)g->ka, w->ns, g->d_base, nb, shift, b, g->part);
    else k_rm_hist<uint32_t><<<grid, HMR_HIST_THREADS, 0, g->s>>>((const uint32_t *)g->ka, w->ns, g->d_base, nb, shift, b, g->part);
    CHECK_CUDA_RANK(cudaGetLastError());
    k_rm_hist_sum<<<(nbins + HMR_THREADS - 1) / HMR_THREADS, HMR_THREADS, 0, g->s>>>(g->part, (int)grid, nbins, g->d_cnt);
    CHECK_CUDA_RANK(cudaGetLastError());
    CHECK_CUDA_RANK(cudaMemcpyAsync(g->h_cnt, g->d_cnt, sizeof(long long) * (size_t)nbins, cudaMemcpyDeviceToHost, g->s));
    CHECK_CUDA_RANK(cudaStreamSynchronize(g->s));
    for (int q = 0; q < nb; q++) { /* C[j] = keys in bins 0 .. j (hm_round_bin) */
        long long run = 0;
        for (int j = 0; j < nj; j++) cnt[(q << b) + j] = run += g->h_cnt[(q << b) + j];
    }
}
static void hm_rmg_count_lt(hm_rm *w, const uint64_t *base, int nb, int shift, int b, long long *cnt)
{
    hm_rm_gpu *g = (hm_rm_gpu *)w->impl;
    long np = (long)nb << b;
    memcpy(g->h_base, base, sizeof(uint64_t) * (size_t)nb);
    CHECK_CUDA_RANK(cudaMemcpyAsync(g->d_base, g->h_base, sizeof(uint64_t) * (size_t)nb, cudaMemcpyHostToDevice, g->s));
    if (!w->sorted) { /* keys in input order: by histogram */
        hmr_count_hist(w, nb, shift, b, cnt);
        return;
    }
    if (g->wide) k_rm_count_lt<uint64_t><<<hmr_blocks(np), HMR_THREADS, 0, g->s>>>((const uint64_t *)g->key_sorted, w->ns, g->d_base, np, shift, b, g->d_cnt);
    else k_rm_count_lt<uint32_t><<<hmr_blocks(np), HMR_THREADS, 0, g->s>>>((const uint32_t *)g->key_sorted, w->ns, g->d_base, np, shift, b, g->d_cnt);
    CHECK_CUDA_RANK(cudaGetLastError());
    CHECK_CUDA_RANK(cudaMemcpyAsync(g->h_cnt, g->d_cnt, sizeof(long long) * (size_t)np, cudaMemcpyDeviceToHost, g->s));
    CHECK_CUDA_RANK(cudaStreamSynchronize(g->s));
    memcpy(cnt, g->h_cnt, sizeof(long long) * (size_t)np);
}
/* the unsorted slice's indices grouped by owner (stable: ascending within a group), in val_sorted */
static void hmr_group_by_owner(hm_rm *w)
{
    hm_rm_gpu *g = (hm_rm_gpu *)w->impl;
    long n = w->ns;
    int P = w->d->size, bits = 1;
    while ((1 << bits) < P) bits++;
    memcpy(g->h_base, w->split, sizeof(uint64_t) * (size_t)(P + 1));
    CHECK_CUDA_RANK(cudaMemcpyAsync(g->d_split, g->h_base, sizeof(uint64_t) * (size_t)(P + 1), cudaMemcpyHostToDevice, g->s));
    if (g->wide) k_rm_owner<uint64_t><<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>((const uint64_t *)g->ka, n, g->d_split, P, g->oa);
    else k_rm_owner<uint32_t><<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>((const uint32_t *)g->ka, n, g->d_split, P, g->oa);
    CHECK_CUDA_RANK(cudaGetLastError());
    cub::DoubleBuffer<unsigned char> k(g->oa, g->ob);
    cub::DoubleBuffer<int> v(g->va, g->vb);
    size_t bytes = g->tmp_bytes;
    if (n) CHECK_CUDA_RANK(cub::DeviceRadixSort::SortPairs(g->tmp, bytes, k, v, (int)n, 0, bits, g->s));
    g->val_sorted = v.Current();
}
static void hm_rmg_send(hm_rm *w, const dist_pattern *x, int direct)
{
    hm_rm_gpu *g = (hm_rm_gpu *)w->impl;
    long n = w->ns;
    int me = w->d->rank;
    /* every cell stays (P = 1, or a mesh already partitioned): gathered straight into place; no
     * peer sends to or expects from this rank, so skipping its NCCL calls is safe */
    int stay = x->scount[me] == n && x->rcount[me] == w->nown;
    g->packed = !w->sorted;
    if (g->packed) { /* packed keys and global indices; they arrive in ka, va for the owner's sort */
        if (!stay) hmr_group_by_owner(w);
        const int *idx = stay ? NULL : g->val_sorted;
        size_t kbytes = (g->wide ? 8 : 4) * (size_t)n; /* the send buffer holds 16 n bytes: keys, then indices */
        void *sk = stay ? g->ka : (void *)g->send;
        int *sg = stay ? g->va : (int *)((char *)g->send + kbytes);
        if (g->wide) k_rm_pack_send<uint64_t><<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>(g->ijl, g->ijl + n, g->ijl + 2 * n, idx, n, w->c0, w->m->levmax, g->lb, (uint64_t *)sk, sg);
        else k_rm_pack_send<uint32_t><<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>(g->ijl, g->ijl + n, g->ijl + 2 * n, idx, n, w->c0, w->m->levmax, g->lb, (uint32_t *)sk, sg);
        CHECK_CUDA_RANK(cudaGetLastError());
        if (stay) return;
        hmr_exchange(w->d, x, g->wide ? 2 : 1, (const int *)sk, (int *)g->ka);
        hmr_exchange(w->d, x, 1, sg, g->va);
        return;
    }
    int4 *to = (int4 *)(direct ? g->own : g->recv);
    k_rm_gather_send<<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>(g->ijl, g->ijl + n, g->ijl + 2 * n, g->val_sorted, n, w->c0,
                                                               stay ? to : (int4 *)g->send);
    CHECK_CUDA_RANK(cudaGetLastError());
    if (!stay) hmr_exchange(w->d, x, HM_REC, g->send, (int *)to);
}
static void hm_rmg_sort_owned(hm_rm *w)
{
    hm_rm_gpu *g = (hm_rm_gpu *)w->impl;
    long n = w->nown;
    if (g->packed) { /* the packed keys sort as the Morton keys (no two cells share one) */
        if (g->wide) hmr_sort<uint64_t>(g, n, w->end_bit + g->lb);
        else hmr_sort<uint32_t>(g, n, w->end_bit + g->lb);
        if (g->wide) k_rm_unpack<uint64_t><<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>((const uint64_t *)g->key_sorted, g->val_sorted, n, w->m->levmax, g->lb, (int4 *)g->own);
        else k_rm_unpack<uint32_t><<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>((const uint32_t *)g->key_sorted, g->val_sorted, n, w->m->levmax, g->lb, (int4 *)g->own);
        CHECK_CUDA_RANK(cudaGetLastError());
        return;
    }
    if (g->wide) k_rm_rec_keys<uint64_t><<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>((const int4 *)g->recv, n, w->m->levmax, (uint64_t *)g->ka, g->va);
    else k_rm_rec_keys<uint32_t><<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>((const int4 *)g->recv, n, w->m->levmax, (uint32_t *)g->ka, g->va);
    CHECK_CUDA_RANK(cudaGetLastError());
    if (g->wide) hmr_sort<uint64_t>(g, n, w->end_bit);
    else hmr_sort<uint32_t>(g, n, w->end_bit);
    k_rm_gather_rec<<<hmr_blocks(n), HMR_THREADS, 0, g->s>>>((const int4 *)g->recv, g->val_sorted, n, (int4 *)g->own);
    CHECK_CUDA_RANK(cudaGetLastError());
}
static void hm_rmg_touch(hm_rm *w, long long *count, uint64_t *box)
{
    hm_rm_gpu *g = (hm_rm_gpu *)w->impl;
    int P = w->d->size, me = w->d->rank;
    long n = w->nown;
    memcpy(g->h_base, w->split, sizeof(uint64_t) * (size_t)(P + 1));
    CHECK_CUDA_RANK(cudaMemcpyAsync(g->d_split, g->h_base, sizeof(uint64_t) * (size_t)(P + 1), cudaMemcpyHostToDevice, g->s));
    k_rm_touch_init<<<1, HM_RM_MAX_RANKS, 0, g->s>>>(g->info);
    unsigned grid = hmr_blocks(n) < (unsigned)g->grid ? hmr_blocks(n) : (unsigned)g->grid;
    k_rm_touch<<<grid, HMR_THREADS, 0, g->s>>>((const int4 *)g->own, n, w->W, w->H, w->m->levmax, g->d_split, P, me, g->mask, g->flag, g->info);
    CHECK_CUDA_RANK(cudaGetLastError());
    size_t bytes = g->tmp_bytes;
    CHECK_CUDA_RANK(cub::DeviceSelect::Flagged(g->tmp, bytes, thrust::counting_iterator<int>(0), g->flag, g->edge, &g->info->nedge, (int)n, g->s));
    k_rm_group<<<P, HMR_THREADS, 0, g->s>>>(g->edge, g->info, g->mask, me, g->sidx);
    CHECK_CUDA_RANK(cudaGetLastError());
    CHECK_CUDA_RANK(cudaMemcpyAsync(g->h_info, g->info, sizeof(hmr_info), cudaMemcpyDeviceToHost, g->s));
    CHECK_CUDA_RANK(cudaStreamSynchronize(g->s));
    for (int q = 0; q < P; q++) count[q] = (long long)g->h_info->count[q];
    for (int k = 0; k < 4; k++) box[k] = g->h_info->box[k];
}
static void hm_rmg_sync(hm_rm *w) { CHECK_CUDA_RANK(cudaStreamSynchronize(((hm_rm_gpu *)w->impl)->s)); }
static void hm_rmg_fetch(hm_rm *w, int *rec, int *send_idx)
{
    hm_rm_gpu *g = (hm_rm_gpu *)w->impl;
    CHECK_CUDA_RANK(cudaMemcpy(rec, g->own, sizeof(int) * HM_REC * (size_t)w->nown, cudaMemcpyDeviceToHost));
    if (w->pat.nsend) CHECK_CUDA_RANK(cudaMemcpy(send_idx, g->sidx, sizeof(int) * (size_t)w->pat.nsend, cudaMemcpyDeviceToHost));
}
static void hm_rmg_release(hm_rm *w)
{
    hm_rm_gpu *g = (hm_rm_gpu *)w->impl;
    if (!g) return;
    if (g->arena) CHECK_CUDA_RANK(cudaFree(g->arena));
    if (g->pinned) CHECK_CUDA_RANK(cudaFreeHost(g->pinned));
    free(g);
    w->impl = NULL;
}
static const hm_rm_ops HM_RM_GPU = {"gpu", hm_rmg_upload, hm_rmg_keys_sort, hm_rmg_count_lt, hm_rmg_send,
                                    hm_rmg_sort_owned, hm_rmg_touch, hm_rmg_sync, hm_rmg_fetch, hm_rmg_release};

/* offset of the next buffer of `bytes` in the arena (256-byte aligned) */
static size_t hmr_carve(size_t *top, size_t bytes)
{
    size_t at = *top;
    *top += (bytes + 255) / 256 * 256;
    return at;
}

/* The backend's buffers for a share of w->ns cells: one device allocation (checked against
 * the free memory on every rank: exit 2 everywhere if one rank lacks it), one pinned one. */
static void hm_rm_gpu_init(hm_rm *w, int sender_sorts)
{
    hm_rm_gpu *g = (hm_rm_gpu *)calloc(1, sizeof *g);
    dist_agree(w->d, g ? 0 : 1, "rank %d: out of host memory", w->d->rank);
    w->impl = g;
    w->ops = &HM_RM_GPU;
    g->s = w->d->stream;
    g->lb = hm_level_bits(w->m->levmax);
    dist_agree(w->d, w->end_bit + g->lb > 64 ? 2 : 0, "the GPU remesh packs a cell's %d key bits and %d level bits into 64: the domain is too large",
               w->end_bit, g->lb);
    g->wide = w->end_bit + g->lb > 32; /* the keys, and the packed cells (key and level) of the exchange */
    g->sender_sorts = sender_sorts;
    int P = w->d->size, sms = 0;
    if (P > 1 && !sender_sorts) w->probes = HMR_HIST_PROBES; /* a histogram of the unsorted keys per round */
    CHECK_CUDA_RANK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, w->d->gpu));
    g->grid = 8 * (sms > 0 ? sms : 1);
    g->hist_grid = 4 * (sms > 0 ? sms : 1);
    size_t n = (size_t)(w->ns ? w->ns : 1), ksz = g->wide ? 8 : 4, peers = (size_t)(P > 1 ? P - 1 : 1), top = 0;
    size_t o_ijl = hmr_carve(&top, 3 * n * sizeof(int)), o_ka = hmr_carve(&top, n * ksz), o_kb = hmr_carve(&top, n * ksz);
    size_t o_va = hmr_carve(&top, n * sizeof(int)), o_vb = hmr_carve(&top, n * sizeof(int));
    size_t o_send = hmr_carve(&top, n * HM_REC * sizeof(int)), o_recv = hmr_carve(&top, n * HM_REC * sizeof(int));
    size_t o_own = hmr_carve(&top, n * HM_REC * sizeof(int)), o_mask = hmr_carve(&top, n * sizeof(uint64_t));
    size_t o_flag = hmr_carve(&top, n), o_edge = hmr_carve(&top, n * sizeof(int)), o_sidx = hmr_carve(&top, n * peers * sizeof(int));
    size_t o_base = hmr_carve(&top, sizeof(uint64_t) * (size_t)(P + 1)), o_split = hmr_carve(&top, sizeof(uint64_t) * (size_t)(P + 1));
    size_t o_cnt = hmr_carve(&top, sizeof(long long) * HM_RM_PROBES), o_info = hmr_carve(&top, sizeof(hmr_info));
    size_t o_part = hmr_carve(&top, sizeof(unsigned) * HMR_HIST_PROBES * (size_t)g->hist_grid);
    size_t o_oa = hmr_carve(&top, n), o_ob = hmr_carve(&top, n);
    /* CUB's temporary storage: the largest of the sorts' and the select's (queries need no memory) */
    size_t sort_b = 0;
    for (int bits = w->end_bit; bits <= w->end_bit + g->lb; bits += g->lb ? g->lb : 1) { /* keys; packed cells */
        size_t b = g->wide ? hmr_sort_bytes<uint64_t>(g, (long)n, bits) : hmr_sort_bytes<uint32_t>(g, (long)n, bits);
        if (b > sort_b) sort_b = b;
    }
    size_t sel_b = 0, own_b = 0;
    CHECK_CUDA_RANK(cub::DeviceSelect::Flagged(NULL, sel_b, thrust::counting_iterator<int>(0), (unsigned char *)NULL, (int *)NULL, (int *)NULL, (int)n, g->s));
    cub::DoubleBuffer<unsigned char> ko(NULL, NULL);
    cub::DoubleBuffer<int> vo(NULL, NULL);
    CHECK_CUDA_RANK(cub::DeviceRadixSort::SortPairs(NULL, own_b, ko, vo, (int)n, 0, 8, g->s));
    g->tmp_bytes = sort_b > sel_b ? sort_b : sel_b;
    if (own_b > g->tmp_bytes) g->tmp_bytes = own_b;
    size_t o_tmp = hmr_carve(&top, g->tmp_bytes);
    size_t free_b = 0, total_b = 0;
    CHECK_CUDA_RANK(cudaMemGetInfo(&free_b, &total_b));
    dist_agree(w->d, top + ((size_t)64 << 20) > free_b ? 2 : 0,
               "rank %d: the GPU remesh needs %.2f GiB of device memory, %.2f GiB are free (--remesh=host leaves it out)",
               w->d->rank, top / 1073741824.0, free_b / 1073741824.0);
    CHECK_CUDA_RANK(cudaMalloc((void **)&g->arena, top));
    char *a = g->arena;
    g->ijl = (int *)(a + o_ijl); g->ka = a + o_ka; g->kb = a + o_kb; g->va = (int *)(a + o_va); g->vb = (int *)(a + o_vb);
    g->send = (int *)(a + o_send); g->recv = (int *)(a + o_recv); g->own = (int *)(a + o_own);
    g->mask = (uint64_t *)(a + o_mask); g->flag = (unsigned char *)(a + o_flag); g->edge = (int *)(a + o_edge);
    g->sidx = (int *)(a + o_sidx); g->d_base = (uint64_t *)(a + o_base); g->d_split = (uint64_t *)(a + o_split);
    g->d_cnt = (long long *)(a + o_cnt); g->info = (hmr_info *)(a + o_info); g->tmp = a + o_tmp;
    g->part = (unsigned *)(a + o_part);
    g->oa = (unsigned char *)(a + o_oa); g->ob = (unsigned char *)(a + o_ob);
    size_t ptop = 0, p_info = hmr_carve(&ptop, sizeof(hmr_info)), p_cnt = hmr_carve(&ptop, sizeof(long long) * HM_RM_PROBES);
    size_t p_base = hmr_carve(&ptop, sizeof(uint64_t) * (size_t)(P + 1));
    CHECK_CUDA_RANK(cudaMallocHost((void **)&g->pinned, ptop));
    g->h_info = (hmr_info *)(g->pinned + p_info);
    g->h_cnt = (long long *)(g->pinned + p_cnt);
    g->h_base = (uint64_t *)(g->pinned + p_base);
}

#endif
