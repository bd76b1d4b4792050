/* fractals/driver.cuh -- one fractal level on the GPU (buffers, inputs, CPU references) and
 * the verify-then-time case of a Map running a work kernel: the tests of section 6 (sw, rd, ca).
 *
 * Reusable by any directory that defines its own Map (tensorcore/ does): include this header
 * and call the templates.  "work" is what the thesis calls the tests (pruebas) of section 6:
 * the kernel that runs after the map (--work=sw|rd|ca).
 *
 *   fractal_problem p;
 *   fractal_problem_init(&p, f, r, FRACTAL_TESTS_ALL, seed, stream);    // or a bit mask
 *   bench_stats st = fractal_measure(map, &p, FRACTAL_SW, "label", &opts, &dat);  // verified, timed
 *   unsigned long long bad = fractal_check(map, &p, FRACTAL_SW, "label");   // 0 = correct (tests)
 *   fractal_problem_free(&p);
 *
 * fractal_measure is common/runcase.h's run_case_time on the case (poison, run once, check,
 * then bench.h); a mismatch exits 1 and no data file is left.  What the checks compare:
 *   sw  (1) the write into an array poisoned with 0: exactly the fractal cells hold 1;
 *       (2) k_cover: every cell of the n x n array is reached by exactly as many threads as
 *           the reference membership (fractal_member, digit by digit) says: 1 or 0.
 *   rd  the sum over fractal cells of a deterministic input in 1..255 on EVERY cell (so a
 *       thread reading a non-fractal cell or a cell twice changes the sum), compared
 *       exactly with a CPU sum over the fractal's cells built by replication.
 *   ca  FRACTAL_CA_CHECK_STEPS steps from a deterministic initial state, compared byte for
 *       byte with a CPU automaton over the same cells.
 * Each check prints what went wrong (stderr) and returns the number of wrong elements. */
#ifndef FRACTALS_DRIVER_CUH
#define FRACTALS_DRIVER_CUH

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/check.h"
#include "../common/bench.h"
#include "../common/args.h"
#include "../common/datfile.h"
#include "../common/runcase.h"
#include "kernels.cuh"

enum { FRACTAL_SW = 0, FRACTAL_RD = 1, FRACTAL_CA = 2 };
#define FRACTAL_TESTS_ALL 7u          /* bit (1 << work) per work kernel: all three */
#define FRACTAL_CA_CHECK_STEPS 4      /* automaton steps compared with the CPU */
#define FRACTAL_SW_VALUE 1            /* the constant sw writes (the buffer is poisoned with 0) */

static inline const char *fractal_work_name(int w) { return w == FRACTAL_SW ? "sw" : w == FRACTAL_RD ? "rd" : "ca"; }

/* Deterministic inputs from the seed (same function on host and device). */
static inline HD uint32_t fractal_hash(uint32_t x, uint32_t y, uint64_t seed)
{
    uint64_t h = ((uint64_t)x << 32 | y) ^ (seed * 0x9E3779B97F4A7C15ull);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return (uint32_t)h;
}
static inline HD uint8_t fractal_rd_value(uint32_t x, uint32_t y, uint64_t seed) { return (uint8_t)(1 + fractal_hash(x, y, seed) % 255u); }
static inline HD uint8_t fractal_ca_value(uint32_t x, uint32_t y, uint64_t seed) { return (uint8_t)((fractal_hash(x, y, seed ^ 0xCAu) >> 7) % 3u == 0); }

/* ---- verification kernels ----------------------------------------------------------- */

/* Counts cells whose byte differs from (member ? 1 : 0), the reference membership. */
static __global__ void k_fractal_check_member(const uint32_t *a, nbb_fractal f, int r, uint32_t n, uint64_t cells,
                                              unsigned long long *wrong)
{
    unsigned long long mine = 0;
    uint64_t words = (cells + 3) / 4;
    for (uint64_t w = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; w < words; w += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t v = a[w];
        for (int b = 0; b < 4; b++) {
            uint64_t c = 4 * w + b;
            if (c >= cells) break;
            uint32_t want = fractal_member(&f, (uint32_t)(c % n), (uint32_t)(c / n), r);
            mine += ((v >> (8 * b)) & 0xFFu) != want;
        }
    }
    if (mine) atomicAdd(wrong, mine);
}

static __global__ void k_fractal_fill_rd(uint8_t *a, uint32_t n, uint64_t cells, uint64_t seed)
{
    for (uint64_t c = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; c < cells; c += (uint64_t)gridDim.x * blockDim.x)
        a[c] = fractal_rd_value((uint32_t)(c % n), (uint32_t)(c / n), seed);
}

static __global__ void k_fractal_fill_ca(uint8_t *a, nbb_fractal f, int r, uint32_t n, uint64_t cells, uint64_t seed)
{
    for (uint64_t c = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; c < cells; c += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t x = (uint32_t)(c % n), y = (uint32_t)(c / n);
        a[c] = fractal_member(&f, x, y, r) ? fractal_ca_value(x, y, seed) : 0;
    }
}

static __global__ void k_fractal_count_diff(const uint8_t *a, const uint8_t *b, uint64_t cells, unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (uint64_t c = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; c < cells; c += (uint64_t)gridDim.x * blockDim.x)
        mine += a[c] != b[c];
    if (mine) atomicAdd(wrong, mine);
}

/* ---- one fractal level -------------------------------------------------------------- */

typedef struct {
    nbb_fractal f;
    int r;
    uint32_t n;
    uint64_t cells;   /* n * n */
    uint64_t members; /* k^r */
    unsigned tests;   /* bit (1 << FRACTAL_xx) for each prepared test */
    uint64_t seed;
    uint8_t *d_a;     /* sw output / coverage counters / ca state */
    uint8_t *d_b;     /* ca state (ping-pong) */
    uint8_t *d_data;  /* rd input */
    uint8_t *d_ref;   /* ca reference after FRACTAL_CA_CHECK_STEPS steps */
    unsigned long long *d_sum, *d_wrong;
    unsigned long long ref_sum;
    int ca_parity;    /* ca timing: which buffer holds the current state */
    cudaStream_t stream;
    int grid_fill;    /* blocks of the grid-stride helper kernels */
} fractal_problem;

/* Device bytes fractal_problem_init will allocate. */
static inline uint64_t fractal_problem_bytes(const nbb_fractal *f, int r, unsigned tests)
{
    uint64_t n = fractal_pow((uint64_t)f->s, r), cells = n * n, b = 64;
    if (tests & (1u << FRACTAL_SW)) b += cells + 4;
    if (tests & (1u << FRACTAL_RD)) b += cells;
    if (tests & (1u << FRACTAL_CA)) b += 3 * cells + 4;
    return b;
}

/* CPU reference of the automaton (same rule as k_ca) over the fractal's cells. */
static inline void fractal_ca_reference(const nbb_fractal *f, int r, uint32_t n, uint64_t seed, int steps, uint8_t *out)
{
    uint64_t cells = (uint64_t)n * n, members = fractal_pow((uint64_t)f->k, r);
    uint8_t *a = (uint8_t *)calloc(cells, 1), *b = (uint8_t *)calloc(cells, 1);
    if (!a || !b) DIE("out of host memory for the automaton reference (%llu bytes)", (unsigned long long)(2 * cells));
    const int64_t chunks = 1024; /* each chunk walks its cells with an odometer */
#pragma omp parallel for schedule(dynamic)
    for (int64_t ch = 0; ch < chunks; ch++) {
        uint64_t i0 = members * (uint64_t)ch / chunks, i1 = members * (uint64_t)(ch + 1) / chunks;
        fractal_odometer o;
        fractal_odometer_init(&o, f, r, i0);
        for (uint64_t i = i0; i < i1; i++, fractal_odometer_next(&o))
            a[(uint64_t)o.y * n + o.x] = fractal_ca_value(o.x, o.y, seed);
    }
    for (int t = 0; t < steps; t++) {
#pragma omp parallel for schedule(dynamic)
        for (int64_t ch = 0; ch < chunks; ch++) {
          uint64_t i0 = members * (uint64_t)ch / chunks, i1 = members * (uint64_t)(ch + 1) / chunks;
          fractal_odometer o;
          fractal_odometer_init(&o, f, r, i0);
          for (uint64_t i = i0; i < i1; i++, fractal_odometer_next(&o)) {
            uint32_t x = o.x, y = o.y;
            uint32_t live = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int64_t xx = (int64_t)x + dx, yy = (int64_t)y + dy;
                    if ((dx || dy) && xx >= 0 && yy >= 0 && xx < n && yy < n) live += a[(uint64_t)yy * n + (uint64_t)xx];
                }
            uint8_t self = a[(uint64_t)y * n + x];
            b[(uint64_t)y * n + x] = (uint8_t)(live == 3 || (self && live == 2));
          }
        }
        uint8_t *tmp = a;
        a = b;
        b = tmp;
    }
    memcpy(out, a, cells);
    free(a);
    free(b);
}

/* Allocates the buffers of the selected tests (exit 2 if they do not fit), builds the
 * inputs and the CPU references. */
static inline void fractal_problem_init(fractal_problem *p, const nbb_fractal *f, int r, unsigned tests, uint64_t seed,
                                        cudaStream_t stream)
{
    memset(p, 0, sizeof *p);
    p->f = *f;
    p->r = r;
    p->n = (uint32_t)fractal_pow((uint64_t)f->s, r);
    p->cells = (uint64_t)p->n * p->n;
    p->members = fractal_pow((uint64_t)f->k, r);
    p->tests = tests;
    p->seed = seed;
    p->stream = stream;
    int dev = 0, sms = 0;
    CHECK_CUDA(cudaGetDevice(&dev));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    p->grid_fill = sms * 8;
    char what[160];
    snprintf(what, sizeof what, "%s at r=%d (n=%u, %d tests)", f->name, r, p->n, (tests & 1) + (tests >> 1 & 1) + (tests >> 2 & 1));
    CHECK_CUDA(cudaMalloc(&p->d_sum, 2 * sizeof(unsigned long long)));
    p->d_wrong = p->d_sum + 1;
    if (tests & ((1u << FRACTAL_SW) | (1u << FRACTAL_CA))) p->d_a = (uint8_t *)device_alloc_or_usage(p->cells + 4, what);
    if (tests & (1u << FRACTAL_CA)) {
        p->d_b = (uint8_t *)device_alloc_or_usage(p->cells + 4, what);
        p->d_ref = (uint8_t *)device_alloc_or_usage(p->cells, what);
        uint8_t *h = (uint8_t *)malloc(p->cells);
        if (!h) DIE("out of host memory (%llu bytes)", (unsigned long long)p->cells);
        fractal_ca_reference(f, r, p->n, seed, FRACTAL_CA_CHECK_STEPS, h);
        CHECK_CUDA(cudaMemcpy(p->d_ref, h, p->cells, cudaMemcpyHostToDevice));
        free(h);
    }
    if (tests & (1u << FRACTAL_RD)) {
        p->d_data = (uint8_t *)device_alloc_or_usage(p->cells, what);
        k_fractal_fill_rd<<<p->grid_fill, 256, 0, stream>>>(p->d_data, p->n, p->cells, seed);
        CHECK_LAUNCH();
        unsigned long long sum = 0;
        const int64_t chunks = 1024;
#pragma omp parallel for reduction(+ : sum) schedule(dynamic)
        for (int64_t ch = 0; ch < chunks; ch++) {
            uint64_t i0 = p->members * (uint64_t)ch / chunks, i1 = p->members * (uint64_t)(ch + 1) / chunks;
            fractal_odometer o;
            fractal_odometer_init(&o, f, r, i0);
            for (uint64_t i = i0; i < i1; i++, fractal_odometer_next(&o)) sum += fractal_rd_value(o.x, o.y, seed);
        }
        p->ref_sum = sum;
    }
    CHECK_CUDA(cudaStreamSynchronize(stream));
}

static inline void fractal_problem_free(fractal_problem *p)
{
    cudaFree(p->d_a);
    cudaFree(p->d_b);
    cudaFree(p->d_data);
    cudaFree(p->d_ref);
    cudaFree(p->d_sum);
    memset(p, 0, sizeof *p);
}

static inline unsigned long long fractal_read_wrong(fractal_problem *p)
{
    unsigned long long w = 0;
    CHECK_CUDA(cudaStreamSynchronize(p->stream));
    CHECK_CUDA(cudaMemcpy(&w, p->d_wrong, sizeof w, cudaMemcpyDeviceToHost));
    return w;
}

static inline unsigned long long fractal_check_member_bytes(fractal_problem *p)
{
    CHECK_CUDA(cudaMemsetAsync(p->d_wrong, 0, sizeof(unsigned long long), p->stream));
    k_fractal_check_member<<<p->grid_fill, 256, 0, p->stream>>>((const uint32_t *)p->d_a, p->f, p->r, p->n, p->cells, p->d_wrong);
    CHECK_LAUNCH();
    return fractal_read_wrong(p);
}

/* ---- one work kernel under a Map: the verify-then-time case (common/runcase.h) -------- */

/* One launch of the work kernel `work` (sw, rd or ca) with map m. */
template <class Map>
static inline void fractal_launch_test(const Map &m, fractal_problem *p, int work)
{
    switch (work) {
    case FRACTAL_SW: k_sw<Map><<<m.grid, m.block, 0, p->stream>>>(m, p->d_a, p->n, (uint8_t)FRACTAL_SW_VALUE); break;
    case FRACTAL_RD: k_rd<Map><<<m.grid, m.block, 0, p->stream>>>(m, p->d_data, p->n, p->d_sum); break;
    default: {
        uint8_t *in = p->ca_parity ? p->d_b : p->d_a, *out = p->ca_parity ? p->d_a : p->d_b;
        k_ca<Map><<<m.grid, m.block, 0, p->stream>>>(m, in, out, p->n);
        p->ca_parity ^= 1;
    }
    }
}

/* The case: map m running `work` on problem p.  map_check (optional, NULL: none) is a
 * further check of the map itself that the case runs first (tensorcore/ compares every
 * thread of a tensor-core map with the classic lambda). */
template <class Map>
struct fractal_case_ctx {
    Map m;
    fractal_problem *p;
    int work;
    const char *label;
    unsigned long long (*map_check)(const Map &m, const fractal_problem *p, const char *label);
};

/* Poison: sw's output 0 (sw writes FRACTAL_SW_VALUE), rd's sum 0, ca's state the start
 * state of the CPU reference (both ping-pong arrays, step parity 0). */
template <class Map>
static void fractal_case_poison(void *ctx)
{
    fractal_case_ctx<Map> *c = (fractal_case_ctx<Map> *)ctx;
    fractal_problem *p = c->p;
    if (!(p->tests & (1u << c->work))) DIE("%s: work %s was not prepared", c->label, fractal_work_name(c->work));
    if (c->work == FRACTAL_SW) CHECK_CUDA(cudaMemsetAsync(p->d_a, 0, p->cells + 4, p->stream));
    else if (c->work == FRACTAL_RD) CHECK_CUDA(cudaMemsetAsync(p->d_sum, 0, sizeof *p->d_sum, p->stream));
    else {
        k_fractal_fill_ca<<<p->grid_fill, 256, 0, p->stream>>>(p->d_a, p->f, p->r, p->n, p->cells, p->seed);
        CHECK_LAUNCH();
        CHECK_CUDA(cudaMemcpyAsync(p->d_b, p->d_a, p->cells, cudaMemcpyDeviceToDevice, p->stream));
        p->ca_parity = 0;
    }
}

/* The timed work: one launch (ca: one step). */
template <class Map>
static void fractal_case_run(void *ctx, cudaStream_t stream)
{
    fractal_case_ctx<Map> *c = (fractal_case_ctx<Map> *)ctx;
    (void)stream; /* == c->p->stream */
    fractal_launch_test(c->m, c->p, c->work);
}

/* sw after one run: exactly the fractal cells hold FRACTAL_SW_VALUE; then the coverage:
 * k_cover counts the threads reaching each cell, every one must match the reference
 * membership (1 inside the fractal, 0 outside). */
template <class Map>
static unsigned long long fractal_check_sw(fractal_case_ctx<Map> *c)
{
    fractal_problem *p = c->p;
    unsigned long long wrong = fractal_check_member_bytes(p);
    if (wrong) {
        fprintf(stderr, "error: %s: sw: %llu cells wrong after the write\n", c->label, wrong);
        return wrong;
    }
    CHECK_CUDA(cudaMemsetAsync(p->d_a, 0, p->cells + 4, p->stream));
    k_cover<Map><<<c->m.grid, c->m.block, 0, p->stream>>>(c->m, (uint32_t *)p->d_a, p->n);
    CHECK_LAUNCH();
    wrong = fractal_check_member_bytes(p);
    if (wrong) fprintf(stderr, "error: %s: coverage: %llu cells not reached exactly once (or reached outside the fractal)\n", c->label, wrong);
    return wrong;
}

/* rd after one run: the sum equals the CPU sum over the fractal's cells exactly. */
static inline unsigned long long fractal_check_rd(fractal_problem *p, const char *label)
{
    unsigned long long got = 0;
    CHECK_CUDA(cudaStreamSynchronize(p->stream));
    CHECK_CUDA(cudaMemcpy(&got, p->d_sum, sizeof got, cudaMemcpyDeviceToHost));
    if (got == p->ref_sum) return 0;
    fprintf(stderr, "error: %s: rd: sum %llu, expected %llu\n", label, got, p->ref_sum);
    return 1;
}

/* ca after one step: FRACTAL_CA_CHECK_STEPS - 1 more steps, then byte for byte equal to the
 * CPU automaton after FRACTAL_CA_CHECK_STEPS steps. */
template <class Map>
static unsigned long long fractal_check_ca(fractal_case_ctx<Map> *c)
{
    fractal_problem *p = c->p;
    for (int t = 1; t < FRACTAL_CA_CHECK_STEPS; t++) {
        fractal_launch_test(c->m, p, FRACTAL_CA);
        CHECK_LAUNCH();
    }
    CHECK_CUDA(cudaMemsetAsync(p->d_wrong, 0, sizeof(unsigned long long), p->stream));
    k_fractal_count_diff<<<p->grid_fill, 256, 0, p->stream>>>(p->ca_parity ? p->d_b : p->d_a, p->d_ref, p->cells, p->d_wrong);
    CHECK_LAUNCH();
    unsigned long long wrong = fractal_read_wrong(p);
    if (wrong) fprintf(stderr, "error: %s: ca: %llu cells differ from the CPU after %d steps\n", c->label, wrong, FRACTAL_CA_CHECK_STEPS);
    return wrong;
}

/* The case's check after one run: the map's own check (if any), then the work's. */
template <class Map>
static size_t fractal_case_check(void *ctx)
{
    fractal_case_ctx<Map> *c = (fractal_case_ctx<Map> *)ctx;
    unsigned long long bad = c->map_check ? c->map_check(c->m, c->p, c->label) : 0;
    if (!bad) bad = c->work == FRACTAL_SW ? fractal_check_sw(c) : c->work == FRACTAL_RD ? fractal_check_rd(c->p, c->label)
                                                                                           : fractal_check_ca(c);
    return (size_t)bad;
}

template <class Map>
static inline run_case fractal_case(fractal_case_ctx<Map> *c)
{
    run_case rc = {c->label, c, fractal_case_poison<Map>, fractal_case_run<Map>, NULL, fractal_case_check<Map>};
    return rc;
}

/* Correctness run of `work` for map m: the number of wrong elements (0 = pass), the reason
 * on stderr.  `label` names the configuration in the message. */
template <class Map>
static inline unsigned long long fractal_check(const Map &m, fractal_problem *p, int work, const char *label)
{
    fractal_case_ctx<Map> c = {m, p, work, label, NULL};
    run_case rc = fractal_case(&c);
    return run_case_verify(&rc, p->stream);
}

/* Verified, then timed (ms per launch): run_case_time, so a mismatch exits 1 with no data
 * file (the spread warning goes into d). */
template <class Map>
static inline bench_stats fractal_measure(const Map &m, fractal_problem *p, int work, const char *label, const common_opts *o,
                                          datfile *d,
                                          unsigned long long (*map_check)(const Map &, const fractal_problem *, const char *) = NULL)
{
    fractal_case_ctx<Map> c = {m, p, work, label, map_check};
    run_case rc = fractal_case(&c);
    return run_case_time(&rc, o, p->stream, d);
}

#endif
