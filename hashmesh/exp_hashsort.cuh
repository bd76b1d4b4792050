/* exp_hashsort.cuh -- Table 4.2 of Robey, Nicholaeff, Robey (hash sort vs the fastest GPU
 * sort, sec. 3.1 and 4) extended to 2^27 keys: the paper's GPU hash sort (kernels.cuh
 * gpu_hash_sort1d), CUB's radix sort on the 32-bit bucket index with the least end bit and
 * its key generation timed (kernels.cuh gpu_radix32_sort1d: the strongest baseline, given the
 * same key range as the hash) and the partitioned hash sort (hashsort_part.cuh), on the
 * uniform keys of sec. 3.1 and on clustered keys (gen.h, Pareto gaps, alpha 1.2).  Two rows
 * of the partitioned sort: hash_part_gpu, its automatic plan (the scheme column says which:
 * direct below 2^22 keys, ranked, or two-level for the largest tables), and
 * hash_part_direct_gpu, the direct scheme at every n (the first version of the partitioned
 * sort), so that one run shows the crossover before and after.
 *
 *   exp_sort_scale    -> hashmesh_sort_scale_uniform.dat, hashmesh_sort_scale_clustered.dat
 *                        n = 2^16 .. 2^27 (--quick: .. 2^22); every method writes the indices
 *                        of the keys in sorted order into one buffer, poisoned before its
 *                        correctness run and compared with the CPU hash sort (Listing 1)
 *                        before it is timed (runcase.h: a mismatch exits 1 and writes no file).
 *   exp_sort_cpu      -> hashmesh_sort_cpu_scale.dat: the same keys on the CPU cores (--threads),
 *                        n = 2^21 .. 2^25 (--quick: .. 2^22): the OpenMP LSD radix sort on the
 *                        32-bit bucket index (best.h bucket_keys1d + radix_pairs), Listing 1 on
 *                        all cores (best.h hash_sort1d_omp) and the partitioned hash sort on all
 *                        cores (hashsort_omp.h), indices only, each verified before it is timed.
 *   exp_sort_variants -> hashmesh_sort_variants.dat, hashmesh_sort_cpu_variants.dat: the plan
 *                        choices of the partitioned sorts, each forced one at a time against the
 *                        automatic plan (GPU at 2^22, 2^25 and 2^27 keys, CPU at 2^21; --quick:
 *                        2^22 and 2^20): the evidence the automatic plans are set from.
 *
 * `opts` is hashmesh's options struct (harness.cuh hm_opts: the common options, --threads, the
 * GPU and host names, the stream).  The bytes-per-key model of the three GPU sorts is at the
 * top of hashsort_part.cuh (the model_bytes_key column repeats it per row), the CPU one's at the
 * top of hashsort_omp.h. */
#ifndef HASHMESH_EXP_HASHSORT_CUH
#define HASHMESH_EXP_HASHSORT_CUH

#include "../common/args.h"
#include "../common/bench.h"
#include "../common/check.h"
#include "../common/datfile.h"
#include "../common/device.h"
#include "../common/host.h"
#include "../common/runcase.h"
#include "../common/verify.h"
#include "harness.cuh"
#include "gen.h"
#include "hash.h"
#include "best.h"
#include "kernels.cuh"
#include "hashsort_part.cuh"
#include "hashsort_omp.h"

#define SS_LOG2_MIN 16        /* smallest n of the sweep: 2^16 */
#define SS_LOG2_MAX 27        /* largest: 2^27 keys (1 GiB of doubles) */
#define SS_LOG2_MAX_QUICK 22  /* --quick */
#define SS_ALPHA 1.2          /* clustered keys: Pareto tail index (the hash still led CUB at 2^20 there) */
#define SS_COPY_BYTES (256L << 20) /* the copy ceiling: a 256 MiB device-to-device copy (> L2) */

typedef enum { SS_UNIFORM, SS_CLUSTERED } ss_dist;
static const char *const SS_DIST_NAME[] = {"uniform", "clustered"};

/* One size of one distribution: the keys (host and device), the reference, one output. */
typedef struct {
    keys1d k;
    double *d_x;
    int *ref, *got; /* CPU hash sort (Listing 1); the host copy of a GPU result */
    int *d_idx;     /* the GPU output every method writes */
    int end_bit;    /* bits of the largest bucket index (CUB's end_bit) */
} ss_input;

/* the keys of one size and their reference; device = 0: host only (no device copies) */
static inline void ss_input_make_on(ss_input *in, ss_dist dist, long n, uint64_t seed, int device)
{
    memset(in, 0, sizeof *in);
    if (dist == SS_UNIFORM) keys1d_generate(&in->k, n, 2.0, 4.0, seed + (uint64_t)n * 31); /* sec. 3.1: dmin 2, dmax 4 */
    else keys1d_clustered(&in->k, n, 2.0, SS_ALPHA, seed + (uint64_t)n * 3);
    if (in->k.m >= 4294967296L) DIE("%s keys, n = %ld: %ld buckets exceed the 32-bit index", SS_DIST_NAME[dist], n, in->k.m);
    in->end_bit = radix_bits_for(in->k.m);
    /* the reference: Listing 1 on every core (best.h, tested equal to the serial hash_sort1d_cpu) */
    int threads = best_max_threads();
    int *t = (int *)gen_alloc(sizeof(int) * (size_t)in->k.m);
    long *cnt = (long *)gen_alloc(sizeof(long) * (size_t)threads);
    in->ref = (int *)gen_alloc(sizeof(int) * (size_t)n);
    in->got = (int *)gen_alloc(sizeof(int) * (size_t)n);
    if (hash_sort1d_omp(in->k.x, n, in->k.xmin, in->k.dmin, t, in->k.m, in->ref, NULL, threads, cnt) != n)
        DIE("%s keys, n = %ld: two keys share a bucket", SS_DIST_NAME[dist], n);
    free(t);
    free(cnt);
    if (!device) return;
    in->d_x = (double *)device_alloc_or_usage(sizeof(double) * (size_t)n, "keys");
    CHECK_CUDA(cudaMemcpy(in->d_x, in->k.x, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice));
    in->d_idx = (int *)device_alloc_or_usage(sizeof(int) * (size_t)n, "sorted indices");
}
static inline void ss_input_make(ss_input *in, ss_dist dist, long n, uint64_t seed)
{
    ss_input_make_on(in, dist, n, seed, 1);
}
static inline void ss_input_free(ss_input *in)
{
    if (in->d_x) CHECK_CUDA(cudaFree(in->d_x));
    if (in->d_idx) CHECK_CUDA(cudaFree(in->d_idx));
    free(in->ref);
    free(in->got);
    keys1d_free(&in->k);
}

/* ---- one method as a run_case: poison the output, run, compare with Listing 1 ---- */
typedef struct {
    ss_input *in;
    void *ctx;                          /* the method's context */
    void (*run)(void *ctx, cudaStream_t s);
    char label[96];
} ss_job;
static inline void ss_poison(void *p)
{
    ss_job *j = (ss_job *)p;
    CHECK_CUDA(cudaMemset(j->in->d_idx, 0xAB, sizeof(int) * (size_t)j->in->k.n));
}
static inline void ss_gpu(void *p, cudaStream_t s)
{
    ss_job *j = (ss_job *)p;
    j->run(j->ctx, s);
}
static inline size_t ss_check(void *p)
{
    ss_job *j = (ss_job *)p;
    size_t n = (size_t)j->in->k.n;
    CHECK_CUDA(cudaMemcpy(j->in->got, j->in->d_idx, sizeof(int) * n, cudaMemcpyDeviceToHost));
    return verify_exact(j->in->got, j->in->ref, n, sizeof(int), j->label);
}
static inline bench_stats ss_measure(ss_input *in, void *ctx, void (*run)(void *, cudaStream_t), const char *method,
                                     const common_opts *o, cudaStream_t s, datfile *d)
{
    ss_job j = {in, ctx, run, ""};
    snprintf(j.label, sizeof j.label, "%s n=%ld", method, in->k.n);
    run_case c = {j.label, &j, ss_poison, ss_gpu, NULL, ss_check};
    return run_case_time(&c, o, s, d);
}

/* ---- the three sorts, each set up, verified, timed and freed ---- */
static inline bench_stats ss_paper_hash(ss_input *in, const common_opts *o, cudaStream_t s, datfile *d)
{
    gpu_hash_ctx g;
    memset(&g, 0, sizeof g);
    g.x = in->d_x;
    g.n = (int)in->k.n;
    g.m = in->k.m;
    g.xmin = in->k.xmin;
    g.dmin = in->k.dmin;
    g.t = (int *)device_alloc_or_usage(sizeof(int) * (size_t)g.m, "paper hash sort: table");
    g.off = (int *)device_alloc_or_usage(sizeof(int) * (size_t)g.m, "paper hash sort: scan output");
    g.tmp_bytes = hm_scan_bytes(g.m);
    g.tmp = device_alloc_or_usage(g.tmp_bytes, "paper hash sort: scan scratch");
    g.idx = in->d_idx; /* g.sorted = NULL: indices only, as the other two */
    bench_stats st = ss_measure(in, &g, gpu_hash_sort1d, "hash_gpu", o, s, d);
    CHECK_CUDA(cudaFree(g.t));
    CHECK_CUDA(cudaFree(g.off));
    CHECK_CUDA(cudaFree(g.tmp));
    return st;
}
static inline bench_stats ss_radix32(ss_input *in, const common_opts *o, cudaStream_t s, datfile *d)
{
    gpu_radix32_ctx q;
    memset(&q, 0, sizeof q);
    size_t n = (size_t)in->k.n;
    q.x = in->d_x;
    q.n = (int)n;
    q.xmin = in->k.xmin;
    q.dmin = in->k.dmin;
    q.end_bit = in->end_bit;
    q.kin = (unsigned *)device_alloc_or_usage(sizeof(unsigned) * n, "radix32 keys");
    q.kout = (unsigned *)device_alloc_or_usage(sizeof(unsigned) * n, "radix32 keys out");
    q.vin = (int *)device_alloc_or_usage(sizeof(int) * n, "radix32 values");
    q.vout = in->d_idx;
    q.tmp_bytes = gpu_radix32_bytes(q.n, q.end_bit);
    q.tmp = device_alloc_or_usage(q.tmp_bytes, "radix32 scratch");
    bench_stats st = ss_measure(in, &q, gpu_radix32_sort1d, "radix32_gpu", o, s, d);
    CHECK_CUDA(cudaFree(q.kin));
    CHECK_CUDA(cudaFree(q.kout));
    CHECK_CUDA(cudaFree(q.vin));
    CHECK_CUDA(cudaFree(q.tmp));
    return st;
}
/* t: NULL for the automatic plan; the plan used is returned in *plan */
static inline bench_stats ss_part_hash(ss_input *in, const hsp_tuning *t, hsp_plan *plan, const char *method,
                                       const common_opts *o, cudaStream_t s, datfile *d)
{
    char why[256];
    if (hsp_plan_make(plan, in->k.n, in->k.m, 0, t, why, sizeof why)) DIE("partitioned hash sort: %s", why);
    gpu_part_ctx c;
    gpu_part_setup(&c, plan, in->d_x, in->k.xmin, in->k.dmin, in->d_idx, NULL);
    bench_stats st = ss_measure(in, &c, gpu_part_sort1d, method, o, s, d);
    gpu_part_free(&c);
    return st;
}

/* bytes a key each sort must move at least (hashsort_part.cuh, top comment): the paper's
 * 20 m + 16 n, CUB's 20 + 16 ceil(end_bit / 8), the partitioned sort's 28 (direct, ranked)
 * or 44 (two-level: a second 16-byte pass) */
static inline double ss_model_bytes(const char *method, const ss_input *in, hsp_scheme scheme)
{
    double n = (double)in->k.n, m = (double)in->k.m;
    if (!strcmp(method, "hash_gpu")) return (20.0 * m + 16.0 * n) / n;
    if (!strcmp(method, "radix32_gpu")) return 20.0 + 16.0 * ((in->end_bit + 7) / 8);
    return scheme == HSP_SCHEME_TWO_LEVEL ? 44.0 : 28.0;
}

/* the copy ceiling: GB/s of a device-to-device copy, bytes read + written */
typedef struct {
    void *a, *b;
    size_t bytes;
} ss_copy;
static inline void ss_copy_run(void *p, cudaStream_t s)
{
    ss_copy *c = (ss_copy *)p;
    CHECK_CUDA(cudaMemcpyAsync(c->b, c->a, c->bytes, cudaMemcpyDeviceToDevice, s));
}
static inline double ss_copy_gbs(const common_opts *o, cudaStream_t s)
{
    ss_copy c = {NULL, NULL, (size_t)SS_COPY_BYTES};
    c.a = device_alloc_or_usage(c.bytes, "copy ceiling");
    c.b = device_alloc_or_usage(c.bytes, "copy ceiling");
    CHECK_CUDA(cudaMemset(c.a, 0x5A, c.bytes));
    bench_stats st = bench_gpu(ss_copy_run, &c, s, o->warmup, o->reps, 1);
    CHECK_CUDA(cudaFree(c.a));
    CHECK_CUDA(cudaFree(c.b));
    return 2.0 * (double)c.bytes / (st.median * 1e-3) / 1e9;
}

#define SS_NMETHODS 4
typedef struct { /* one size's medians, for the speedups and the summary */
    long n, m;
    int end_bit;
    bench_stats st[SS_NMETHODS];
    hsp_scheme scheme[SS_NMETHODS]; /* the partitioned sorts' schemes */
} ss_row;
static const char *const SS_METHODS[SS_NMETHODS] = {"radix32_gpu", "hash_gpu", "hash_part_gpu", "hash_part_direct_gpu"};

static inline void ss_write_rows(datfile *d, const ss_input *in, const ss_row *r)
{
    for (int a = 0; a < SS_NMETHODS; a++) {
        const bench_stats *s = &r->st[a];
        double mb = ss_model_bytes(SS_METHODS[a], in, r->scheme[a]);
        datfile_row(d, "%ld %ld %d %s %s %.6f %.6f %.6f %d %d %.3f %.1f %.1f %.3f", r->n, r->m, r->end_bit, SS_METHODS[a],
                    a >= 2 ? HSP_SCHEME_NAME[r->scheme[a]] : "-", s->median, s->min, s->max, s->n, s->batch,
                    r->n / (s->median * 1e-3) / 1e9, mb, mb * r->n / (s->median * 1e-3) / 1e9,
                    r->st[0].median / s->median);
    }
}

#define SS_TARGET_X 1.2 /* the speedup over radix32_gpu the partitioned sort aims at, at every n */

/* The smallest n at which `method` (1: paper hash, 2: partitioned, 3: partitioned direct) is
 * slower than radix32, the least ratio, and the sizes where it stays below SS_TARGET_X. */
static inline void ss_crossover(datfile *d, const ss_row *rows, int nrow, int method)
{
    long at = -1, worst_n = 0;
    double worst = 1e30;
    char below[256] = "";
    size_t len = 0;
    for (int a = 0; a < nrow; a++) {
        double x = rows[a].st[0].median / rows[a].st[method].median;
        if (x < 1.0 && at < 0) at = rows[a].n;
        if (x < worst) { worst = x; worst_n = rows[a].n; }
        if (x < SS_TARGET_X && len < sizeof below - 24)
            len += (size_t)snprintf(below + len, sizeof below - len, "%s2^%d", len ? " " : "", hsp_ceil_log2(rows[a].n));
    }
    if (at < 0) datfile_meta(d, "crossover", "%s faster than radix32_gpu at every n (least %.3fx at n = %ld); below %.2fx "
                             "at: %s", SS_METHODS[method], worst, worst_n, SS_TARGET_X, len ? below : "none");
    else datfile_meta(d, "crossover", "%s first slower than radix32_gpu at n = %ld (least %.3fx at n = %ld); below %.2fx "
                      "at: %s", SS_METHODS[method], at, worst, worst_n, SS_TARGET_X, below);
}

/* the plan of a partitioned sort's row, as a metadata line */
static inline void ss_plan_meta(datfile *d, const hsp_plan *p)
{
    datfile_meta(d, "plan", "n=%ld scheme=%s pw=%d parts=%ld pw1=%d parts1=%ld rbits=%d ipt=%d tiles=%ld ipt2=%d "
                 "tiles2=%ld aggregate=%d match=%d/%d bitmap=%d place_threads=%d", p->n, HSP_SCHEME_NAME[p->scheme], p->pw,
                 p->parts, p->pw1, p->parts1, p->rbits, p->ipt, p->tiles, p->ipt2, p->tiles2, p->aggregate, p->match1,
                 p->match2, p->bitmap, p->place_threads);
}

static inline void ss_sweep(ss_dist dist, int top, const hm_opts *r, double copy_gbs)
{
    const common_opts *o = &r->c;
    cudaStream_t s = r->s;
    char name[96], fig[200];
    snprintf(name, sizeof name, "hashmesh_sort_scale_%s.dat", SS_DIST_NAME[dist]);
    snprintf(fig, sizeof fig, "Table 4.2 extended to 2^%d keys (%s keys): paper GPU hash sort, CUB radix32, "
             "partitioned hash sort (automatic and direct)", top, SS_DIST_NAME[dist]);
    datfile d;
    hm_open(&d, r, name, fig);
    if (dist == SS_UNIFORM) datfile_meta(&d, "keys", "uniform (sec. 3.1): gaps in [dmin, dmax], dmin 2, dmax 4, shuffled");
    else datfile_meta(&d, "keys", "clustered (gen.h): gaps dmin floor(u^(-1/alpha)), alpha %.2f, dmin 2, shuffled", SS_ALPHA);
    datfile_meta(&d, "methods", "hash_gpu: the paper's sort (clear, scatter, CUB scan, compact; indices only); "
                 "radix32_gpu: key generation + CUB DeviceRadixSort::SortPairs of the 32-bit bucket index over "
                 "end_bit bits (Onesweep, 8-bit digits); hash_part_gpu: partitioned hash sort (hashsort_part.cuh), "
                 "automatic plan, its scheme in the scheme column (direct, ranked, two-level); "
                 "hash_part_direct_gpu: the same sort with the direct scheme at every n (its first version)");
    datfile_meta(&d, "output", "every method: the n input indices in key order, compared with the CPU hash sort "
                 "(Listing 1 on every core) before it is timed");
    datfile_meta(&d, "copy_gbs", "%.1f (device-to-device cudaMemcpy of %ld MiB, bytes read + written)", copy_gbs,
                 SS_COPY_BYTES >> 20);
    datfile_meta(&d, "reference", "one-sweep radix sort (Adinets and Merrill 2022): 29.4 G 32-bit keys/s on an A100");
    datfile_meta(&d, "columns", "table_buckets: m; end_bit: CUB's bits; scheme: the partitioned sort's scheme (- for "
                 "the others); gkeys_s: n / median; model_bytes_key: the least bytes a key of the method's passes "
                 "(hashsort_part.cuh); model_gbs: model_bytes_key n / median; speedup_vs_radix32_x: radix32_gpu median "
                 "/ median");
    datfile_columns(&d, "n table_buckets end_bit method scheme median_ms min_ms max_ms reps batch gkeys_s "
                        "model_bytes_key model_gbs speedup_vs_radix32_x");
    int nrow = 0;
    ss_row rows[SS_LOG2_MAX - SS_LOG2_MIN + 1];
    for (int lg = SS_LOG2_MIN; lg <= top; lg++) {
        ss_input in;
        ss_input_make(&in, dist, 1L << lg, (uint64_t)o->seed);
        ss_row *r = &rows[nrow++];
        hsp_plan plan, dplan;
        hsp_tuning direct;
        memset(&direct, 0, sizeof direct);
        direct.scheme = HSP_SCHEME_DIRECT;
        memset(r, 0, sizeof *r);
        r->n = in.k.n;
        r->m = in.k.m;
        r->end_bit = in.end_bit;
        r->st[0] = ss_radix32(&in, o, s, &d);
        r->st[1] = ss_paper_hash(&in, o, s, &d);
        r->st[2] = ss_part_hash(&in, NULL, &plan, "hash_part_gpu", o, s, &d);
        r->st[3] = ss_part_hash(&in, &direct, &dplan, "hash_part_direct_gpu", o, s, &d);
        r->scheme[2] = plan.scheme;
        r->scheme[3] = dplan.scheme;
        ss_plan_meta(&d, &plan);
        if (plan.scheme != HSP_SCHEME_DIRECT) ss_plan_meta(&d, &dplan);
        ss_write_rows(&d, &in, r);
        fprintf(stderr, "  %-9s n 2^%-2d m %11ld end_bit %2d | radix32 %8.4f ms | hash %8.4f ms (%5.2fx) | direct %8.4f "
                "ms (%5.2fx) | part %-9s %8.4f ms (%5.2fx, %6.2f Gkeys/s, %5.0f GB/s model)\n", SS_DIST_NAME[dist], lg,
                r->m, r->end_bit, r->st[0].median, r->st[1].median, r->st[0].median / r->st[1].median, r->st[3].median,
                r->st[0].median / r->st[3].median, HSP_SCHEME_NAME[plan.scheme], r->st[2].median,
                r->st[0].median / r->st[2].median, r->n / (r->st[2].median * 1e-3) / 1e9,
                ss_model_bytes("hash_part_gpu", &in, plan.scheme) * r->n / (r->st[2].median * 1e-3) / 1e9);
        ss_input_free(&in);
    }
    ss_crossover(&d, rows, nrow, 1);
    ss_crossover(&d, rows, nrow, 2);
    ss_crossover(&d, rows, nrow, 3);
    datfile_commit(&d);
}

/* Table 4.2 extended: the three sorts from 2^16 to 2^27 keys (--quick: 2^22), uniform and
 * clustered keys. */
static int exp_sort_scale(void *opts)
{
    const hm_opts *r = (const hm_opts *)opts;
    double copy_gbs = ss_copy_gbs(&r->c, r->s);
    fprintf(stderr, "sort_scale: copy ceiling %.1f GB/s (read + write)\n", copy_gbs);
    const int top = r->c.quick ? SS_LOG2_MAX_QUICK : SS_LOG2_MAX;
    ss_sweep(SS_UNIFORM, top, r, copy_gbs);
    ss_sweep(SS_CLUSTERED, top, r, copy_gbs);
    return 0;
}

/* ================= the CPU sorts on all cores (exp_sort_cpu) ================= */
#define SC_LOG2_MIN 21       /* the CPU sweep: 2^21 .. 2^25 keys (the sizes the claim is about) */
#define SC_LOG2_MAX 25
#define SC_LOG2_MAX_QUICK 22
typedef enum { SC_RADIX, SC_HASH_OMP, SC_PART_OMP, SC_NMETHODS } sc_method;
static const char *const SC_METHODS[SC_NMETHODS] = {"radix32_cpu_omp", "hash_cpu_omp", "hash_part_cpu_omp"};
typedef struct {
    const ss_input *in;
    int threads, bits;
    sc_method which;
    uint32_t *key, *k2; /* LSD radix: bucket indices and scratch */
    int *i2, *t, *out;  /* radix scratch, Listing 1's table, the output every method writes */
    long *hist, *cnt;
    hsp_omp part;
} sc_job;
static inline void sc_run(void *p)
{
    sc_job *j = (sc_job *)p;
    const keys1d *k = &j->in->k;
    if (j->which == SC_RADIX) { /* key generation included, as radix32_gpu's */
        bucket_keys1d(k->x, k->n, k->xmin, k->dmin, j->key, j->out, j->threads);
        radix_pairs(j->key, j->out, j->k2, j->i2, k->n, j->bits, j->threads, j->hist);
    } else if (j->which == SC_HASH_OMP)
        hash_sort1d_omp(k->x, k->n, k->xmin, k->dmin, j->t, k->m, j->out, NULL, j->threads, j->cnt);
    else
        hsp_sort_omp(&j->part, k->x, k->xmin, k->dmin, j->out, NULL);
}
static inline void sc_poison(void *p)
{
    sc_job *j = (sc_job *)p;
    memset(j->out, 0xAB, sizeof(int) * (size_t)j->in->k.n);
}
static inline size_t sc_check(void *p)
{
    sc_job *j = (sc_job *)p;
    return verify_exact(j->out, j->in->ref, (size_t)j->in->k.n, sizeof(int), SC_METHODS[j->which]);
}
/* the partitioned sort of j's keys with width pw and chunk (0: automatic) on `threads` threads */
static inline int sc_part_setup(sc_job *j, int threads, int pw, long chunk, char *why, size_t whysize)
{
    hsp_omp_free(&j->part);
    return hsp_omp_setup(&j->part, j->in->k.n, j->in->k.m, threads, pw, chunk, why, whysize);
}
static inline void sc_job_make(sc_job *j, const ss_input *in, int threads)
{
    long n = in->k.n, m = in->k.m;
    char why[256];
    memset(j, 0, sizeof *j);
    j->in = in;
    j->threads = threads;
    j->bits = radix_bits_for(m);
    j->key = (uint32_t *)gen_alloc(sizeof(uint32_t) * (size_t)n);
    j->k2 = (uint32_t *)gen_alloc(sizeof(uint32_t) * (size_t)n);
    j->i2 = (int *)gen_alloc(sizeof(int) * (size_t)n);
    j->out = (int *)gen_alloc(sizeof(int) * (size_t)n);
    j->hist = (long *)gen_alloc(sizeof(long) * ((size_t)threads << RADIX_MAX_DIGIT_BITS));
    j->cnt = (long *)gen_alloc(sizeof(long) * (size_t)threads);
    j->t = (int *)gen_alloc(sizeof(int) * (size_t)m);
    if (sc_part_setup(j, threads, 0, 0, why, sizeof why)) DIE("partitioned CPU hash sort: %s", why);
}
static inline void sc_job_free(sc_job *j)
{
    hsp_omp_free(&j->part);
    free(j->key); free(j->k2); free(j->i2); free(j->out); free(j->hist); free(j->cnt); free(j->t);
    memset(j, 0, sizeof *j);
}
/* one CPU method of j, verified and timed; `label` names it in messages */
static inline bench_stats sc_time(sc_job *j, sc_method which, const char *label, const common_opts *o, datfile *d)
{
    j->which = which;
    run_case c = {label, j, sc_poison, NULL, sc_run, sc_check};
    return run_case_time(&c, o, 0, d);
}
static inline void sc_meta(datfile *d, const hm_opts *r)
{
    datfile_meta(d, "keys", "uniform (sec. 3.1, dmin 2, dmax 4) and clustered (gen.h, alpha %.2f), shuffled", SS_ALPHA);
    datfile_meta(d, "cpu", "%s; %d OpenMP threads (--threads)", r->cpu, r->threads);
    meta_triad(d, r);
    datfile_meta(d, "methods", "radix32_cpu_omp: bucket_keys1d + radix_pairs (LSD, 11-bit digits at most, key generation "
                 "timed); hash_cpu_omp: Listing 1 on all cores (hash_sort1d_omp); hash_part_cpu_omp: the partitioned hash "
                 "sort on all cores (hashsort_omp.h); indices only, each verified against Listing 1 before it is timed");
}

/* The CPU side of Table 4.2 extended: the three sorts on r->threads threads, 2^21 .. 2^25 keys
 * (--quick: 2^22), both distributions -> hashmesh_sort_cpu_scale.dat */
static int exp_sort_cpu(void *opts)
{
    const hm_opts *r = (const hm_opts *)opts;
    const common_opts *o = &r->c;
    const int threads = r->threads, top = o->quick ? SC_LOG2_MAX_QUICK : SC_LOG2_MAX;
    datfile d;
    hm_open(&d, r, "hashmesh_sort_cpu_scale.dat",
            "Table 4.2 extended, CPU: the 1D sorts on all cores (LSD radix, Listing 1, partitioned hash)");
    sc_meta(&d, r);
    datfile_meta(&d, "columns", "dist: uniform or clustered; table_buckets: m; pw, parts: the partitioned sort's; median_ms "
                 "min_ms max_ms over reps runs (the spread); mkeys_s: n / median; speedup_vs_radix_x: radix32_cpu_omp "
                 "median / median");
    datfile_columns(&d, "dist n table_buckets bits pw parts method threads median_ms min_ms max_ms reps batch mkeys_s "
                        "speedup_vs_radix_x");
    for (int dist = 0; dist < 2; dist++)
        for (int lg = SC_LOG2_MIN; lg <= top; lg++) {
            ss_input in;
            sc_job j;
            ss_input_make_on(&in, (ss_dist)dist, 1L << lg, (uint64_t)o->seed, 0);
            sc_job_make(&j, &in, threads);
            bench_stats st[SC_NMETHODS];
            char label[96];
            for (int a = 0; a < SC_NMETHODS; a++) {
                snprintf(label, sizeof label, "%s %s n=%ld", SC_METHODS[a], SS_DIST_NAME[dist], in.k.n);
                st[a] = sc_time(&j, (sc_method)a, label, o, &d);
            }
            for (int a = 0; a < SC_NMETHODS; a++)
                datfile_row(&d, "%s %ld %ld %d %d %ld %s %d %.6f %.6f %.6f %d %d %.1f %.3f", SS_DIST_NAME[dist], in.k.n,
                            in.k.m, j.bits, j.part.pw, j.part.parts, SC_METHODS[a], threads, st[a].median, st[a].min,
                            st[a].max, st[a].n, st[a].batch, in.k.n / (st[a].median * 1e-3) / 1e6,
                            st[SC_RADIX].median / st[a].median);
            fprintf(stderr, "  cpu %-9s n 2^%d m %10ld bits %2d | radix %8.3f ms [%.3f, %.3f] | hash_omp %8.3f ms (%5.2fx) "
                    "| part_omp %8.3f ms [%.3f, %.3f] (%5.2fx radix, %5.2fx hash_omp)\n", SS_DIST_NAME[dist], lg, in.k.m,
                    j.bits, st[0].median, st[0].min, st[0].max, st[1].median, st[0].median / st[1].median, st[2].median,
                    st[2].min, st[2].max, st[0].median / st[2].median, st[1].median / st[2].median);
            sc_job_free(&j);
            ss_input_free(&in);
        }
    datfile_commit(&d);
    return 0;
}

/* ================= the plan choices, one at a time (exp_sort_variants) ================= */
typedef struct {
    char name[24];
    hsp_tuning t;
} sv_variant;
static inline int sv_add(sv_variant *v, int nv, const char *name, hsp_scheme sc, int pw, int coarse_pw, int ipt, int ipt2,
                         hsp_match match, hsp_bitmap bitmap)
{
    memset(&v[nv], 0, sizeof v[nv]);
    snprintf(v[nv].name, sizeof v[nv].name, "%s", name);
    v[nv].t.scheme = sc;
    v[nv].t.pw = pw;
    v[nv].t.coarse_pw = coarse_pw;
    v[nv].t.ipt = ipt;
    v[nv].t.ipt2 = ipt2;
    v[nv].t.match = match;
    v[nv].t.bitmap = bitmap;
    return nv + 1;
}
/* The GPU variants of one input: the automatic plan, each scheme forced, and each choice of
 * the ranked and two-level plans moved one step from its automatic value (widths +-1, keys a
 * thread 8, match and the bitmap on).  Returns how many (at most 16). */
static inline int sv_gpu_variants(const ss_input *in, sv_variant *v)
{
    const hsp_scheme R = HSP_SCHEME_RANKED, T = HSP_SCHEME_TWO_LEVEL;
    const hsp_match MA = HSP_MATCH_AUTO;
    const hsp_bitmap BA = HSP_BITMAP_AUTO;
    const int rpw = hsp_auto_pw(in->k.m, HSP_TARGET_PARTS, HSP_PW_MIN, HSP_PW_LIMIT); /* the ranked scheme's width */
    hsp_plan two;
    hsp_tuning tt;
    char why[256];
    memset(&tt, 0, sizeof tt);
    tt.scheme = T;
    const int cpw = hsp_plan_make(&two, in->k.n, in->k.m, 0, &tt, why, sizeof why) ? 0 : two.pw1; /* its coarse width */
    int nv = 0;
    nv = sv_add(v, nv, "auto", HSP_SCHEME_AUTO, 0, 0, 0, 0, MA, BA);
    nv = sv_add(v, nv, "direct", HSP_SCHEME_DIRECT, 0, 0, 0, 0, MA, BA);
    nv = sv_add(v, nv, "ranked", R, 0, 0, 0, 0, MA, BA);
    nv = sv_add(v, nv, "ranked_pw-1", R, rpw - 1, 0, 0, 0, MA, BA);
    if (rpw < HSP_PW_LIMIT) nv = sv_add(v, nv, "ranked_pw+1", R, rpw + 1, 0, 0, 0, MA, BA);
    nv = sv_add(v, nv, "ranked_ipt8", R, 0, 0, 8, 0, MA, BA);
    nv = sv_add(v, nv, "ranked_match", R, 0, 0, 0, 0, HSP_MATCH_ON, BA);
    nv = sv_add(v, nv, "ranked_bitmap", R, 0, 0, 0, 0, MA, HSP_BITMAP_ON);
    nv = sv_add(v, nv, "two", T, 0, 0, 0, 0, MA, BA);
    nv = sv_add(v, nv, "two_match", T, 0, 0, 0, 0, HSP_MATCH_ON, BA);
    nv = sv_add(v, nv, "two_bitmap", T, 0, 0, 0, 0, MA, HSP_BITMAP_ON);
    if (cpw > HSP_FINE_PW + 1) nv = sv_add(v, nv, "two_fine15", T, HSP_FINE_PW + 1, cpw, 0, 0, MA, BA);
    nv = sv_add(v, nv, "two_fine13", T, HSP_FINE_PW - 1, cpw, 0, 0, MA, BA);
    if (cpw) nv = sv_add(v, nv, "two_coarse+1", T, 0, cpw + 1, 0, 0, MA, BA);
    if (cpw > HSP_FINE_PW + 1) nv = sv_add(v, nv, "two_coarse-1", T, 0, cpw - 1, 0, 0, MA, BA);
    nv = sv_add(v, nv, "two_ipt2_8", T, 0, 0, 0, 8, MA, BA);
    return nv;
}

#define SV_SIZES 3 /* GPU: 2^22 (ranked), 2^25 (ranked / two-level), 2^27 (two-level) */
static inline void sv_gpu(const hm_opts *r)
{
    const common_opts *o = &r->c;
    static const int full[SV_SIZES] = {22, 25, 27}, quick[SV_SIZES] = {20, 22, 0};
    datfile d;
    hm_open(&d, r, "hashmesh_sort_variants.dat", "Table 4.2 extended: the partitioned GPU sort's plan choices, one at a time");
    datfile_meta(&d, "keys", "uniform (sec. 3.1, dmin 2, dmax 4) and clustered (gen.h, alpha %.2f), shuffled", SS_ALPHA);
    datfile_meta(&d, "variants", "auto: the automatic plan (hashsort_part.h hsp_plan_make); direct, ranked, two: the "
                 "scheme forced, the rest automatic; _pw+-1: the ranked width; _ipt8: 8 keys a thread of the first pass; "
                 "_match: ranking by __match_any_sync in every ranked pass; _bitmap: the occupancy-bitmap place pass; "
                 "two_fine13/15: the fine width, coarse as automatic; two_coarse+-1: the coarse width; two_ipt2_8: 8 keys "
                 "a thread of the fine pass; a plan the scheme refuses is a '# refused:' line");
    datfile_meta(&d, "columns", "variant: radix32_gpu and hash_gpu (the baselines) or the partitioned sort's; scheme .. "
                 "bitmap: its plan (- for the baselines); gkeys_s: n / median; speedup_vs_radix32_x: radix32_gpu median / "
                 "median");
    datfile_columns(&d, "dist n table_buckets end_bit variant scheme pw parts pw1 parts1 ipt ipt2 match1 match2 bitmap "
                        "median_ms min_ms max_ms reps batch gkeys_s speedup_vs_radix32_x");
    for (int a = 0; a < SV_SIZES; a++) {
        const int lg = o->quick ? quick[a] : full[a];
        if (!lg) continue;
        for (int dist = 0; dist < 2; dist++) {
            ss_input in;
            ss_input_make(&in, (ss_dist)dist, 1L << lg, (uint64_t)o->seed);
            bench_stats rx = ss_radix32(&in, o, r->s, &d), hx = ss_paper_hash(&in, o, r->s, &d);
            const bench_stats *base[2] = {&rx, &hx};
            const char *bname[2] = {"radix32_gpu", "hash_gpu"};
            for (int b = 0; b < 2; b++)
                datfile_row(&d, "%s %ld %ld %d %s - - - - - - - - - - %.6f %.6f %.6f %d %d %.3f %.3f", SS_DIST_NAME[dist],
                            in.k.n, in.k.m, in.end_bit, bname[b], base[b]->median, base[b]->min, base[b]->max, base[b]->n,
                            base[b]->batch, in.k.n / (base[b]->median * 1e-3) / 1e9, rx.median / base[b]->median);
            sv_variant v[16];
            const int nv = sv_gpu_variants(&in, v);
            for (int k = 0; k < nv; k++) {
                hsp_plan p;
                char why[256], label[64];
                if (hsp_plan_make(&p, in.k.n, in.k.m, 0, &v[k].t, why, sizeof why)) {
                    datfile_meta(&d, "refused", "%s %s n=%ld: %s", v[k].name, SS_DIST_NAME[dist], in.k.n, why);
                    continue;
                }
                snprintf(label, sizeof label, "hash_part_gpu %s", v[k].name);
                bench_stats st = ss_part_hash(&in, &v[k].t, &p, label, o, r->s, &d);
                datfile_row(&d, "%s %ld %ld %d %s %s %d %ld %d %ld %d %d %d %d %d %.6f %.6f %.6f %d %d %.3f %.3f",
                            SS_DIST_NAME[dist], in.k.n, in.k.m, in.end_bit, v[k].name, HSP_SCHEME_NAME[p.scheme], p.pw,
                            p.parts, p.pw1, p.parts1, p.ipt, p.ipt2, p.match1, p.match2, p.bitmap, st.median, st.min,
                            st.max, st.n, st.batch, in.k.n / (st.median * 1e-3) / 1e9, rx.median / st.median);
                fprintf(stderr, "  variants %-9s n 2^%d %-13s %-9s %8.4f ms (%5.2fx radix32)\n", SS_DIST_NAME[dist], lg,
                        v[k].name, HSP_SCHEME_NAME[p.scheme], st.median, rx.median / st.median);
            }
            ss_input_free(&in);
        }
    }
    datfile_commit(&d);
}

/* The CPU variants at one size: the automatic plan, its width -1 .. +2, chunks of 2^14 and
 * 2^17 keys, half the threads */
static inline void sv_cpu(const hm_opts *r)
{
    const common_opts *o = &r->c;
    const int lg = o->quick ? 20 : SC_LOG2_MIN, threads = r->threads;
    datfile d;
    hm_open(&d, r, "hashmesh_sort_cpu_variants.dat", "Table 4.2 extended, CPU: the partitioned sort's plan choices");
    sc_meta(&d, r);
    datfile_meta(&d, "variants", "auto: the automatic plan (hashsort_omp.h hsp_omp_setup); pw-1 .. pw+2: the width; "
                 "chunk16k, chunk128k: keys a thread ranks at a time; threads_half: half the threads");
    datfile_meta(&d, "columns", "variant: radix32_cpu_omp and hash_cpu_omp (the baselines) or the partitioned sort's; pw, "
                 "parts, chunk, threads: its plan; speedup_vs_radix_x: radix32_cpu_omp median / median");
    datfile_columns(&d, "dist n table_buckets variant pw parts chunk threads median_ms min_ms max_ms reps batch mkeys_s "
                        "speedup_vs_radix_x");
    for (int dist = 0; dist < 2; dist++) {
        ss_input in;
        sc_job j;
        char label[96], why[256];
        ss_input_make_on(&in, (ss_dist)dist, 1L << lg, (uint64_t)o->seed, 0);
        sc_job_make(&j, &in, threads);
        const int apw = j.part.pw;
        bench_stats rx = {0}, st;
        for (int a = 0; a < SC_PART_OMP; a++) {
            snprintf(label, sizeof label, "%s %s n=%ld", SC_METHODS[a], SS_DIST_NAME[dist], in.k.n);
            st = sc_time(&j, (sc_method)a, label, o, &d);
            if (a == SC_RADIX) rx = st;
            datfile_row(&d, "%s %ld %ld %s - - - %d %.6f %.6f %.6f %d %d %.1f %.3f", SS_DIST_NAME[dist], in.k.n, in.k.m,
                        SC_METHODS[a], threads, st.median, st.min, st.max, st.n, st.batch,
                        in.k.n / (st.median * 1e-3) / 1e6, rx.median / st.median);
        }
        const struct {
            const char *name;
            int pw;
            long chunk;
            int threads;
        } v[] = {{"auto", 0, 0, threads},          {"pw-1", apw - 1, 0, threads},      {"pw+1", apw + 1, 0, threads},
                 {"pw+2", apw + 2, 0, threads},    {"chunk16k", 0, 16384, threads},   {"chunk128k", 0, 131072, threads},
                 {"threads_half", 0, 0, threads / 2 > 0 ? threads / 2 : 1}};
        for (int k = 0; k < (int)(sizeof v / sizeof v[0]); k++) {
            if (sc_part_setup(&j, v[k].threads, v[k].pw, v[k].chunk, why, sizeof why)) {
                datfile_meta(&d, "refused", "%s %s n=%ld: %s", v[k].name, SS_DIST_NAME[dist], in.k.n, why);
                continue;
            }
            snprintf(label, sizeof label, "hash_part_cpu_omp %s %s n=%ld", v[k].name, SS_DIST_NAME[dist], in.k.n);
            st = sc_time(&j, SC_PART_OMP, label, o, &d);
            datfile_row(&d, "%s %ld %ld %s %d %ld %ld %d %.6f %.6f %.6f %d %d %.1f %.3f", SS_DIST_NAME[dist], in.k.n, in.k.m,
                        v[k].name, j.part.pw, j.part.parts, j.part.chunk, j.part.threads, st.median, st.min, st.max, st.n,
                        st.batch, in.k.n / (st.median * 1e-3) / 1e6, rx.median / st.median);
            fprintf(stderr, "  cpu variants %-9s n 2^%d %-12s pw %2d chunk %6ld threads %2d: %8.3f ms (%5.2fx radix)\n",
                    SS_DIST_NAME[dist], lg, v[k].name, j.part.pw, j.part.chunk, j.part.threads, st.median,
                    rx.median / st.median);
        }
        sc_job_free(&j);
        ss_input_free(&in);
    }
    datfile_commit(&d);
}

/* The plan choices of the partitioned sorts, each forced one at a time (beyond the paper: the
 * evidence behind the automatic plans) -> hashmesh_sort_variants.dat, hashmesh_sort_cpu_variants.dat */
static int exp_sort_variants(void *opts)
{
    const hm_opts *r = (const hm_opts *)opts;
    sv_gpu(r);
    sv_cpu(r);
    return 0;
}

#endif
