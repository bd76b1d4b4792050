/* hashsort_part.cuh -- the partitioned GPU hash sort: its bytes model, buffers and launcher;
 * Robey, Nicholaeff, Robey, sec. 3.1, Listing 1 (the hash sort) with the hash of sec. 2.3.
 * The paper's 1D hash sort (the perfect hash of eq. 2.13) with its
 * table cut into partitions that each fit one block's shared memory.  Index logic, the three
 * schemes (direct, ranked, two-level) and a serial version of each: hashsort_part.h.  Same
 * input and output as gpu_hash_sort1d (kernels.cuh): the keys x with min and dmin, out the
 * input indices in key order (and, direct scheme only, the sorted keys); same precondition:
 * no two keys in one bucket.
 *
 * ---- Bytes and DRAM sectors per key (n double keys, m buckets; uniform keys of sec. 3.1:
 * m = 1.5 n; the clustered keys of gen.h at alpha 1.2: m = 5.4 .. 6.7 n).  A sector is 32
 * bytes; "stores" counts the 32-byte sectors a key's writes touch in L2 (what the L1 sends),
 * "atomics" the global atomics a key costs.  Least possible: read 8 + write 4 = 12 B/key.
 *
 * Paper's hash sort (gpu_hash_sort1d, indices only), table t of m ints:
 *   clear t 4m | k_scatter1d: read x 8n, write t 4n | scan: read t 4m, write off 4m |
 *   k_compact: read t 4m, off 4m, write idx 4n          = 20 m + 16 n
 *   uniform 46 B/key, clustered 140 B/key; once 4m is beyond L2 every random 4-byte write
 *   of the scatter is a 32-byte sector of its own: up to +28 B/key, 1 store sector a key.
 * CUB radix32 (kernels.cuh gpu_radix32_sort1d: k_bucket_keys1d + DeviceRadixSort Onesweep,
 * 8-bit digits, end_bit = ceil(log2 m)): key generation: read x 8, write key 4 + index 4 =
 * 16 | histogram of every digit: read keys 4 | each pass: read key + value 8, write 8 = 16,
 * the writes ranked by digit in shared memory (runs of tile / 256 keys: ~0.3 store sectors a
 * key);  passes P = ceil(end_bit / 8):  = 20 + 16 P: P = 3 (end_bit 17..24) 68 B/key,
 * P = 4 (end_bit 25..32: uniform n >= 2^24, clustered n >= 2^22) 84 B/key.
 * This sort, with P partitions of the scatter pass and tiles of T keys (L = T / P keys of a
 * partition in a tile):
 *   direct     scatter: read x 8, write the entry (slot, index) 8 = 16 | place: read the
 *              entry 8, write idx 4 = 12  ->  28 B/key.  Stores: 1 sector a key (every key of
 *              a warp in another partition), atomics: 1 a key, or min(1, P / T) with the block
 *              histogram.  DRAM sees whole sectors only while the P append fronts stay in L2.
 *              Measured (H200, 2^25..2^27, P 3072..44203): ~720-880 GB/s of these 28 B.
 *   ranked     scatter: the same 16 bytes, but a tile's keys leave partition by partition:
 *              a run of L keys (8 L bytes) touches 8 L / 32 + ~0.75 sectors, so
 *              0.25 + 0.75 / L store sectors a key (1 for L = 1; 0.44 for L = 4; 0.34 for
 *              L = 8) and (P / T)(1 - e^-L) atomics a key; place 12  ->  28 B/key.
 *              Auto: P <= 2048 (HSP_RANK_PARTS_MAX) with T = 8192: L >= 4.
 *   two-level  ranked pass into P1 <= 1024 coarse partitions (16 B, L >= 8), ranked fine pass
 *              into 2^rbits <= 256 fine partitions per coarse one (16 B, tiles of 8192: L =
 *              8192 / 2^rbits >= 32, 0.27 store sectors), place 12  ->  44 B/key, still 1.5x
 *              (P = 3) to 1.9x (P = 4) fewer bytes than CUB and fewer passes than its 4.  Auto
 *              from m > 2048 * 2^15 (uniform n >= 2^26, clustered n >= 2^24).
 * Every array that a pass writes is either written in whole sectors (ranked runs, the place
 * pass's compaction) or an append front that L2 completes; reads are streamed (evict first).
 * Shared memory of the place pass, per key: the int table is cleared (4 W), written (4 per
 * key) and scanned twice (8 W): 12 m / n + 4 bytes a key, 22 at m = 1.5 n but 82 at the
 * clustered keys' m = 6.5 n.  The bitmap place pass (ranked schemes, plan.bitmap) clears and
 * scans W / 32 words instead and never clears the table: 0.4 m / n + 12 bytes a key (index and
 * bit written, index read).  Measured on an H200 it was no faster at the clustered keys' m
 * (about 5 n): shared memory is not what limits the place pass, and the automatic plan scans
 * the int table.
 * Launches: direct and ranked 2, two-level 3 (paper 5, CUB 7-8).
 * The kernels (what each pass does): hashsort_part_kernels.cuh. */
#ifndef HASHMESH_HASHSORT_PART_CUH
#define HASHMESH_HASHSORT_PART_CUH

#include "hashsort_part_kernels.cuh"

/* ---------------- host side: buffers once, then an enqueue-only launcher ---------------- */
typedef void (*hsp_scatter_kernel)(const double *, int, double, double, int, unsigned, unsigned *, hsp_entry *,
                                   double *, int *, unsigned *);
typedef void (*hsp_rank_kernel)(const hsp_rank_args);
typedef void (*hsp_place_kernel)(const hsp_entry *, const double *, const int *, const unsigned *, int, int, int *,
                                 double *);

template <bool AGG, bool KEYS>
static inline hsp_scatter_kernel hsp_scatter_for(int ipt)
{
    switch (ipt) {
    case 1: return k_part_scatter<1, AGG, KEYS>;
    case 2: return k_part_scatter<2, AGG, KEYS>;
    case 4: return k_part_scatter<4, AGG, KEYS>;
    case 8: return k_part_scatter<8, AGG, KEYS>;
    default: /* 16 keys a thread fit 64 registers only with the block histogram, indices only */
        if constexpr (AGG && !KEYS) return k_part_scatter<16, AGG, KEYS>;
        else return k_part_scatter<8, AGG, KEYS>;
    }
}
template <bool FINE, bool MATCH>
static inline hsp_rank_kernel hsp_rank_ipt(int ipt)
{
    return ipt == 4 ? k_part_rank<4, FINE, MATCH> : ipt == 8 ? k_part_rank<8, FINE, MATCH> : k_part_rank<16, FINE, MATCH>;
}
template <bool FINE>
static inline hsp_rank_kernel hsp_rank_for(int ipt, int match)
{
    return match ? hsp_rank_ipt<FINE, true>(ipt) : hsp_rank_ipt<FINE, false>(ipt);
}

typedef struct {
    hsp_plan plan;
    const double *x; /* keys (device) */
    double xmin, dmin;
    hsp_entry *part;  /* the first pass's regions: parts1 << pw1 entries */
    double *part_x;   /* direct with keys: the same positions, the keys */
    hsp_entry *part2; /* two-level: the fine regions, parts << pw entries */
    unsigned *cnt;    /* parts1 counters, then the blocks-done counter; zero between runs */
    unsigned *done;
    unsigned *cnt2;   /* two-level: parts fine counters (cleared by every run's first pass) */
    int *off;         /* parts1 + 1 offsets */
    int *tstart;      /* two-level: parts1 + 1 tile starts of the fine pass */
    int *idx;         /* out: input indices in key order (n; caller-owned) */
    double *sorted;   /* out: sorted keys (n; caller-owned) or NULL */
    hsp_scatter_kernel scatter;          /* direct */
    hsp_rank_kernel rank1, rank2;        /* ranked: pass 1; two-level: and the fine pass */
    hsp_place_kernel place;
    size_t scatter_smem, rank1_smem, rank2_smem, place_smem;
} gpu_part_ctx;

/* device bytes the sort allocates besides its input and outputs */
static inline size_t gpu_part_bytes(const hsp_plan *p)
{
    size_t slots1 = (size_t)p->parts1 << p->pw1, slots2 = p->rbits ? (size_t)p->parts << p->pw : 0;
    return (slots1 + slots2) * sizeof(hsp_entry) + (p->keys ? slots1 * sizeof(double) : 0) +
           sizeof(unsigned) * ((size_t)p->parts1 + 1) + (p->rbits ? sizeof(unsigned) * (size_t)p->parts : 0) +
           sizeof(int) * ((size_t)p->parts1 + 1) * (p->rbits ? 2 : 1);
}

/* shared memory: the limit for the kernel, and the whole carveout (two ranked blocks or
 * three place blocks an SM need more than the default share) */
static inline void hsp_set_smem(const void *k, size_t bytes)
{
    CHECK_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    CHECK_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, (int)cudaSharedmemCarveoutMaxShared));
}

/* Allocates the scratch of plan p (counters cleared, kernels' shared-memory limits set).
 * idx (and sorted, or NULL) are the caller's outputs.  One context per stream: the counters
 * carry state from one run to the next (cleared by the run itself). */
static inline void gpu_part_setup(gpu_part_ctx *c, const hsp_plan *p, const double *d_x, double xmin, double dmin,
                                  int *idx, double *sorted)
{
    if ((sorted != NULL) != (p->keys != 0))
        DIE("gpu_part_setup: the plan is for %s, the call %s sorted keys", p->keys ? "indices and keys" : "indices only",
            sorted ? "asks for" : "gives no buffer for");
    memset(c, 0, sizeof *c);
    c->plan = *p;
    c->x = d_x;
    c->xmin = xmin;
    c->dmin = dmin;
    c->idx = idx;
    c->sorted = sorted;
    size_t slots1 = (size_t)p->parts1 << p->pw1;
    c->part = (hsp_entry *)device_alloc_or_usage(slots1 * sizeof(hsp_entry), "partitioned hash sort: partition buffer");
    if (sorted) c->part_x = (double *)device_alloc_or_usage(slots1 * sizeof(double), "partitioned hash sort: keys buffer");
    c->cnt = (unsigned *)device_alloc_or_usage(sizeof(unsigned) * ((size_t)p->parts1 + 1), "partition counters");
    c->done = c->cnt + p->parts1;
    c->off = (int *)device_alloc_or_usage(sizeof(int) * ((size_t)p->parts1 + 1), "partition offsets");
    CHECK_CUDA(cudaMemset(c->cnt, 0, sizeof(unsigned) * ((size_t)p->parts1 + 1)));
    if (p->rbits) {
        c->part2 = (hsp_entry *)device_alloc_or_usage(((size_t)p->parts << p->pw) * sizeof(hsp_entry),
                                                      "partitioned hash sort: fine partition buffer");
        c->cnt2 = (unsigned *)device_alloc_or_usage(sizeof(unsigned) * (size_t)p->parts, "fine partition counters");
        c->tstart = (int *)device_alloc_or_usage(sizeof(int) * ((size_t)p->parts1 + 1), "fine pass tile starts");
        CHECK_CUDA(cudaMemset(c->cnt2, 0, sizeof(unsigned) * (size_t)p->parts));
    }
    c->place_smem = sizeof(int) << p->pw;
    if (p->scheme == HSP_SCHEME_DIRECT) {
        if (p->aggregate) c->scatter = sorted ? hsp_scatter_for<true, true>(p->ipt) : hsp_scatter_for<true, false>(p->ipt);
        else c->scatter = sorted ? hsp_scatter_for<false, true>(p->ipt) : hsp_scatter_for<false, false>(p->ipt);
        c->scatter_smem = p->aggregate ? sizeof(unsigned) * (size_t)p->parts : 0;
        c->place = sorted ? k_part_place<true, false> : k_part_place<false, false>;
        CHECK_CUDA(cudaFuncSetAttribute((const void *)c->scatter, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)c->scatter_smem));
        hsp_set_smem((const void *)c->place, c->place_smem);
        return;
    }
    c->rank1 = hsp_rank_for<false>(p->ipt, p->match1);
    c->rank1_smem = hsp_rank_smem(p->tile, p->parts1);
    hsp_set_smem((const void *)c->rank1, c->rank1_smem);
    if (p->rbits) {
        c->rank2 = hsp_rank_for<true>(p->ipt2, p->match2);
        c->rank2_smem = hsp_rank_smem(p->tile2, 1L << p->rbits);
        hsp_set_smem((const void *)c->rank2, c->rank2_smem);
    }
    if (p->bitmap) {
        c->place = p->rbits ? k_part_place_bits<true> : k_part_place_bits<false>;
        c->place_smem = (sizeof(int) << p->pw) + sizeof(unsigned) * (size_t)hsp_bit_words(p->pw);
    } else
        c->place = p->rbits ? k_part_place<false, true> : k_part_place<false, false>;
    hsp_set_smem((const void *)c->place, c->place_smem);
}

static inline void gpu_part_free(gpu_part_ctx *c)
{
    CHECK_CUDA(cudaFree(c->part));
    if (c->part_x) CHECK_CUDA(cudaFree(c->part_x));
    if (c->part2) CHECK_CUDA(cudaFree(c->part2));
    if (c->cnt2) CHECK_CUDA(cudaFree(c->cnt2));
    if (c->tstart) CHECK_CUDA(cudaFree(c->tstart));
    CHECK_CUDA(cudaFree(c->cnt));
    CHECK_CUDA(cudaFree(c->off));
    memset(c, 0, sizeof *c);
}

/* the ranked passes' arguments */
static inline hsp_rank_args hsp_rank_args_first(const gpu_part_ctx *c)
{
    const hsp_plan *p = &c->plan;
    hsp_rank_args a;
    memset(&a, 0, sizeof a);
    a.x = c->x;
    a.n = (int)p->n;
    a.xmin = c->xmin;
    a.dmin = c->dmin;
    a.shift = p->pw1;
    a.bins = (unsigned)p->parts1;
    a.cnt = c->cnt;
    a.dst = c->part;
    a.done = c->done;
    a.off = c->off;
    a.tstart_out = c->tstart;
    a.tile2 = (unsigned)(p->tile2 ? p->tile2 : 1);
    a.clear = c->cnt2;
    a.clear_len = p->rbits ? p->parts : 0;
    return a;
}
static inline hsp_rank_args hsp_rank_args_fine(const gpu_part_ctx *c)
{
    const hsp_plan *p = &c->plan;
    hsp_rank_args a;
    memset(&a, 0, sizeof a);
    a.src = c->part;
    a.src_off = c->off;
    a.tstart = c->tstart;
    a.src_parts = p->parts1;
    a.src_pw = p->pw1;
    a.shift = p->pw;
    a.bins = 1u << p->rbits;
    a.cnt = c->cnt2;
    a.dst = c->part2;
    return a;
}

/* The sort: two launches on stream s (two-level: three), nothing else (bench_gpu-compatible). */
static inline void gpu_part_sort1d(void *p, cudaStream_t s)
{
    gpu_part_ctx *c = (gpu_part_ctx *)p;
    const hsp_plan *q = &c->plan;
    if (q->scheme == HSP_SCHEME_DIRECT) {
        c->scatter<<<(unsigned)q->tiles, HSP_SCATTER_THREADS, c->scatter_smem, s>>>(
            c->x, (int)q->n, c->xmin, c->dmin, q->pw, (unsigned)q->parts, c->cnt, c->part, c->part_x, c->off, c->done);
        CHECK_LAUNCH();
    } else {
        c->rank1<<<(unsigned)q->tiles, HSP_SCATTER_THREADS, c->rank1_smem, s>>>(hsp_rank_args_first(c));
        CHECK_LAUNCH();
        if (q->rbits) {
            c->rank2<<<(unsigned)q->tiles2, HSP_SCATTER_THREADS, c->rank2_smem, s>>>(hsp_rank_args_fine(c));
            CHECK_LAUNCH();
        }
    }
    c->place<<<(unsigned)q->parts, q->place_threads, c->place_smem, s>>>(q->rbits ? c->part2 : c->part, c->part_x, c->off,
                                                                          c->cnt2, q->rbits, q->pw, c->idx, c->sorted);
    CHECK_LAUNCH();
}

#endif
