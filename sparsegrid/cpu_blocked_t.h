/* sparsegrid/cpu_blocked_t.h -- "cpu_blocked_t": cpu_blocked (cpu_blocked.h) with its gather and
 * scatter done as vector transpositions; sparse grids and plain full-grid tiles, float and double.
 *
 * Why.  cpu_blocked interleaves V = 64 / elem grids into a thread's buffer (buf[i V + v] = grid v's
 * point i) and updates full-width vectors, but its gather (buf[i V + v] = s[i]) and scatter (one
 * movnti per value) move ONE value per instruction: the same instruction count per point in float
 * and in double, so float, with half the bytes per point, cannot reach the memory's rate.
 *
 * The design.  The passes are cpu_blocked.h's own functions (sgb_sparse_block_*, sgb_full_block_*:
 * the same sg_surplus()/sg_unsurplus() per point in the same order of lists), so the results equal
 * cpu_blocked's and the references bitwise; only the moves differ (cpu_blocked_t_gs.h):
 *   - gather: for every W consecutive points of W grids (W values per vector), W rows are loaded
 *     whole (unaligned), transposed in registers, and W columns stored whole into the buffer
 *     (aligned: a point's V lanes are one cache line);
 *   - scatter: the reverse, W columns loaded, transposed, W rows stored whole: plain unaligned
 *     stores, or, for batches of SGB_STREAM_MIN bytes and more (cpu_blocked's rule), non-temporal
 *     vector stores; those need an aligned address, so each grid's row is stored shifted to its
 *     alignment (each vector: the end of the previous row vector and the start of this one, one
 *     two-source permute), its first and last few values by scalar movnti;
 *   - the last N mod W points of a grid go value by value.
 * Three instances, chosen at run time like hierarchize.h's SG_CPU_TARGETS clones (the same
 * __builtin_cpu_supports order; an explicit dispatch, because intrinsics need a target attribute
 * of their own, which GCC's target_clones cannot give each clone):
 *   avx512f: W = V (16 x 16 floats: unpack, unpack, 2 x shuffle_f32x4 = 64 instructions; 8 x 8
 *            doubles: 24), so one transposition covers a whole block of V grids; permutex2var for
 *            the shifted stream;
 *   avx2:    W = 8 floats / 4 doubles (8 x 8: unpack, shuffle, permute2f128; 4 x 4: unpack,
 *            permute2f128), V / W transposes per V points; permutevar8x32 + blendv for the shift;
 *   portable (non-x86, other compilers, CPUs without AVX2): W = 1, value by value as cpu_blocked.
 * The default lanes only (the test's other lane counts run cpu_blocked's element-wise moves).
 * Instructions per point moved in and out, float on AVX-512: about (16 loads + 64 shuffles + 16
 * stores) / 256 per direction, against 1 load + 1 store per value (cpu_blocked).  Same traffic
 * model (cpu_blocked.h), same threads, blocks, partial last block (unused lanes zero, never
 * written back), src == dst allowed (a block is read whole before it is written).
 * isa (last argument of the entry points): 0 the CPU's best, else one of SGBT_PORTABLE, SGBT_AVX2,
 * SGBT_AVX512 (the tests run each one the CPU has); the store path follows cpu_blocked.h's sgb_streams(). */
#ifndef SPARSEGRID_CPU_BLOCKED_T_H
#define SPARSEGRID_CPU_BLOCKED_T_H

#include <stdint.h>
#include "cpu_blocked.h"

enum { SGBT_PORTABLE = 1, SGBT_AVX2 = 2, SGBT_AVX512 = 3 };

/* ---- portable: W = 1 */
#include "cpu_blocked_t_port.h"
#define SGBT_T float
#define SGBT_SUF f
#define SGBT_VEC float
#define SGBT_STREAM(p, x) sgb_stream_f(p, x)
#include "cpu_blocked_t_gs.h"
#include "cpu_blocked_t_port.h"
#define SGBT_T double
#define SGBT_SUF d
#define SGBT_VEC double
#define SGBT_STREAM(p, x) sgb_stream_d(p, x)
#include "cpu_blocked_t_gs.h"

#if SG_HAVE_CLONES
#include <immintrin.h>
#define SGBT_HAVE_X86 1

/* ---- AVX2: W = 8 floats / 4 doubles */
#define SGBT_T2 __attribute__((target("avx2")))
SGBT_T2 static inline __attribute__((always_inline)) void sgbt_tr_f_avx2(__m256 *r)
{
    __m256 t[8], u[8];
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int q = 0; q < 2; q++) {
        u[4 * q + 0] = _mm256_shuffle_ps(t[4 * q], t[4 * q + 2], 0x44);
        u[4 * q + 1] = _mm256_shuffle_ps(t[4 * q], t[4 * q + 2], 0xEE);
        u[4 * q + 2] = _mm256_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0x44);
        u[4 * q + 3] = _mm256_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0xEE);
    }
    for (int c = 0; c < 4; c++) {
        r[c] = _mm256_permute2f128_ps(u[c], u[c + 4], 0x20);
        r[c + 4] = _mm256_permute2f128_ps(u[c], u[c + 4], 0x31);
    }
}
SGBT_T2 static inline __attribute__((always_inline)) void sgbt_tr_d_avx2(__m256d *r)
{
    __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
    __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
    r[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    r[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    r[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    r[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}
/* p[8-a..7] then c[0..7-a]: both permuted by (j - a) mod 8, lanes j < a taken from p. */
SGBT_T2 static inline __attribute__((always_inline)) __m256 sgbt_comb_f_avx2(__m256 p, __m256 c, int a)
{
    __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i idx = _mm256_and_si256(_mm256_add_epi32(iota, _mm256_set1_epi32(8 - a)), _mm256_set1_epi32(7));
    __m256 m = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(a), iota));
    return _mm256_blendv_ps(_mm256_permutevar8x32_ps(c, idx), _mm256_permutevar8x32_ps(p, idx), m);
}
/* The same for 4 doubles, as 8 floats (pairs). */
SGBT_T2 static inline __attribute__((always_inline)) __m256d sgbt_comb_d_avx2(__m256d p, __m256d c, int a)
{
    __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), j = _mm256_srli_epi32(iota, 1);
    __m256i idx = _mm256_or_si256(
        _mm256_slli_epi32(_mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(4 - a)), _mm256_set1_epi32(3)), 1),
        _mm256_and_si256(iota, _mm256_set1_epi32(1)));
    __m256 m = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(a), j));
    __m256 pf = _mm256_permutevar8x32_ps(_mm256_castpd_ps(p), idx), cf = _mm256_permutevar8x32_ps(_mm256_castpd_ps(c), idx);
    return _mm256_castps_pd(_mm256_blendv_ps(cf, pf, m));
}
#define SGBT_W 8
#define SGBT_ISA avx2
#define SGBT_TARGET SGBT_T2
#define SGBT_T float
#define SGBT_SUF f
#define SGBT_VEC __m256
#define SGBT_LOADU(p) _mm256_loadu_ps(p)
#define SGBT_LOADA(p) _mm256_load_ps(p)
#define SGBT_STOREU(p, x) _mm256_storeu_ps(p, x)
#define SGBT_STOREA(p, x) _mm256_store_ps(p, x)
#define SGBT_ZERO() _mm256_setzero_ps()
#define SGBT_STREAM(p, x) _mm256_stream_ps(p, x)
#define SGBT_TRANSPOSE(r) sgbt_tr_f_avx2(r)
#define SGBT_COMBINE(p, c, a) sgbt_comb_f_avx2(p, c, a)
#include "cpu_blocked_t_gs.h"
#define SGBT_W 4
#define SGBT_ISA avx2
#define SGBT_TARGET SGBT_T2
#define SGBT_T double
#define SGBT_SUF d
#define SGBT_VEC __m256d
#define SGBT_LOADU(p) _mm256_loadu_pd(p)
#define SGBT_LOADA(p) _mm256_load_pd(p)
#define SGBT_STOREU(p, x) _mm256_storeu_pd(p, x)
#define SGBT_STOREA(p, x) _mm256_store_pd(p, x)
#define SGBT_ZERO() _mm256_setzero_pd()
#define SGBT_STREAM(p, x) _mm256_stream_pd(p, x)
#define SGBT_TRANSPOSE(r) sgbt_tr_d_avx2(r)
#define SGBT_COMBINE(p, c, a) sgbt_comb_d_avx2(p, c, a)
#include "cpu_blocked_t_gs.h"

/* ---- AVX-512F: W = 16 floats / 8 doubles = V */
#define SGBT_T5 __attribute__((target("avx512f")))
/* (the maskz forms with a full mask: the same instructions, but GCC 12's unmasked ones start from
 * _mm512_undefined_*, which g++ -Wall flags as maybe uninitialized once inlined) */
SGBT_T5 static inline __attribute__((always_inline)) void sgbt_tr_f_avx512(__m512 *r)
{
    __m512 t[16], u[16];
    for (int i = 0; i < 8; i++) { /* pairs of rows interleaved */
        t[2 * i] = _mm512_maskz_unpacklo_ps(0xFFFF, r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_maskz_unpackhi_ps(0xFFFF, r[2 * i], r[2 * i + 1]);
    }
    for (int q = 0; q < 4; q++) { /* 4 x 4 within each 128-bit lane: u[4q + c] holds columns c + 4L */
        u[4 * q + 0] = _mm512_castpd_ps(_mm512_maskz_unpacklo_pd(0xFF, _mm512_castps_pd(t[4 * q]), _mm512_castps_pd(t[4 * q + 2])));
        u[4 * q + 1] = _mm512_castpd_ps(_mm512_maskz_unpackhi_pd(0xFF, _mm512_castps_pd(t[4 * q]), _mm512_castps_pd(t[4 * q + 2])));
        u[4 * q + 2] = _mm512_castpd_ps(_mm512_maskz_unpacklo_pd(0xFF, _mm512_castps_pd(t[4 * q + 1]), _mm512_castps_pd(t[4 * q + 3])));
        u[4 * q + 3] = _mm512_castpd_ps(_mm512_maskz_unpackhi_pd(0xFF, _mm512_castps_pd(t[4 * q + 1]), _mm512_castps_pd(t[4 * q + 3])));
    }
    for (int h = 0; h < 2; h++) /* 128-bit lanes across rows 0-7 and 8-15 */
        for (int c = 0; c < 4; c++) {
            t[8 * h + c] = _mm512_maskz_shuffle_f32x4(0xFFFF, u[8 * h + c], u[8 * h + c + 4], 0x88);
            t[8 * h + c + 4] = _mm512_maskz_shuffle_f32x4(0xFFFF, u[8 * h + c], u[8 * h + c + 4], 0xDD);
        }
    for (int k = 0; k < 8; k++) {
        r[k] = _mm512_maskz_shuffle_f32x4(0xFFFF, t[k], t[k + 8], 0x88);
        r[k + 8] = _mm512_maskz_shuffle_f32x4(0xFFFF, t[k], t[k + 8], 0xDD);
    }
}
SGBT_T5 static inline __attribute__((always_inline)) void sgbt_tr_d_avx512(__m512d *r)
{
    __m512d t[8], u[8];
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm512_maskz_unpacklo_pd(0xFF, r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_maskz_unpackhi_pd(0xFF, r[2 * i], r[2 * i + 1]);
    }
    for (int h = 0; h < 2; h++) {
        u[4 * h + 0] = _mm512_maskz_shuffle_f64x2(0xFF, t[4 * h], t[4 * h + 2], 0x88);
        u[4 * h + 1] = _mm512_maskz_shuffle_f64x2(0xFF, t[4 * h + 1], t[4 * h + 3], 0x88);
        u[4 * h + 2] = _mm512_maskz_shuffle_f64x2(0xFF, t[4 * h], t[4 * h + 2], 0xDD);
        u[4 * h + 3] = _mm512_maskz_shuffle_f64x2(0xFF, t[4 * h + 1], t[4 * h + 3], 0xDD);
    }
    for (int c = 0; c < 4; c++) {
        r[c] = _mm512_maskz_shuffle_f64x2(0xFF, u[c], u[c + 4], 0x88);
        r[c + 4] = _mm512_maskz_shuffle_f64x2(0xFF, u[c], u[c + 4], 0xDD);
    }
}
#define SGBT_W 16
#define SGBT_ISA avx512
#define SGBT_TARGET SGBT_T5
#define SGBT_T float
#define SGBT_SUF f
#define SGBT_VEC __m512
#define SGBT_LOADU(p) _mm512_loadu_ps(p)
#define SGBT_LOADA(p) _mm512_load_ps(p)
#define SGBT_STOREU(p, x) _mm512_storeu_ps(p, x)
#define SGBT_STOREA(p, x) _mm512_store_ps(p, x)
#define SGBT_ZERO() _mm512_setzero_ps()
#define SGBT_STREAM(p, x) _mm512_stream_ps(p, x)
#define SGBT_TRANSPOSE(r) sgbt_tr_f_avx512(r)
#define SGBT_COMBINE(p, c, a)                                                                          \
    _mm512_permutex2var_ps(p, _mm512_add_epi32(_mm512_set1_epi32(16 - (a)),                           \
                                               _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)), c)
#include "cpu_blocked_t_gs.h"
#define SGBT_W 8
#define SGBT_ISA avx512
#define SGBT_TARGET SGBT_T5
#define SGBT_T double
#define SGBT_SUF d
#define SGBT_VEC __m512d
#define SGBT_LOADU(p) _mm512_loadu_pd(p)
#define SGBT_LOADA(p) _mm512_load_pd(p)
#define SGBT_STOREU(p, x) _mm512_storeu_pd(p, x)
#define SGBT_STOREA(p, x) _mm512_store_pd(p, x)
#define SGBT_ZERO() _mm512_setzero_pd()
#define SGBT_STREAM(p, x) _mm512_stream_pd(p, x)
#define SGBT_TRANSPOSE(r) sgbt_tr_d_avx512(r)
#define SGBT_COMBINE(p, c, a)                                                                          \
    _mm512_permutex2var_pd(p, _mm512_add_epi64(_mm512_set1_epi64(8 - (a)), _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7)), c)
#include "cpu_blocked_t_gs.h"
#else
#define SGBT_HAVE_X86 0
#endif

/* The widest instance the CPU has. */
static inline int sgbt_isa_best(void)
{
#if SGBT_HAVE_X86
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") ? SGBT_AVX512 : __builtin_cpu_supports("avx2") ? SGBT_AVX2 : SGBT_PORTABLE;
#else
    return SGBT_PORTABLE;
#endif
}
/* The instance a run uses: want if the CPU has it, else the widest. */
static inline int sgbt_isa(int want)
{
    int best = sgbt_isa_best();
    return want >= SGBT_PORTABLE && want <= best ? want : best;
}
static inline const char *sgbt_isa_name(int isa)
{
    return isa == SGBT_AVX512 ? "avx512f (16 x 16 floats / 8 x 8 doubles per transpose)"
           : isa == SGBT_AVX2 ? "avx2 (8 x 8 floats / 4 x 4 doubles per transpose)"
                              : "portable (value by value)";
}

#if SGBT_HAVE_X86
#define SGBT_PICK(SUF, isa) (isa == SGBT_AVX512 ? sgbt_block_##SUF##_avx512 : isa == SGBT_AVX2 ? sgbt_block_##SUF##_avx2 : sgbt_block_##SUF##_port)
#else
#define SGBT_PICK(SUF, isa) sgbt_block_##SUF##_port
#endif

/* The driver: cpu_blocked's (sgb_drive_*), with the block of the chosen instance. */
#define SGBT_DEFINE(T, SUF)                                                                             \
    static inline int sgbt_run_##SUF(const T *src, T *dst, long long G, long long N, const void *sg, int kind, \
                                     int inverse, int threads, int lanes, int want_isa)                \
    {                                                                                                  \
        return sgb_drive_##SUF(src, dst, G, N, sg, kind, inverse, threads, lanes, SGBT_PICK(SUF, sgbt_isa(want_isa))); \
    }                                                                                                  \
    /* G sparse grids (or full grids in subspace order, sgs_init_full) src -> dst. */                  \
    static inline int sgs_cpu_blocked_tr_##SUF(const T *src, T *dst, long long G, const sgs_grid *g, int inverse, \
                                               int threads, int lanes, int isa)                        \
    {                                                                                                  \
        return sgbt_run_##SUF(src, dst, G, g->npts, g, 0, inverse, threads, lanes, isa);               \
    }                                                                                                  \
    /* nt full-grid tiles (plain layout, dimension 0 fastest) src -> dst. */                           \
    static inline int sg_cpu_blocked_tr_##SUF(const T *src, T *dst, long long nt, const sg_geom *g, int inverse, \
                                              int threads, int lanes, int isa)                         \
    {                                                                                                  \
        return sgbt_run_##SUF(src, dst, nt, g->size, g, 1, inverse, threads, lanes, isa);              \
    }

SGBT_DEFINE(float, f)
SGBT_DEFINE(double, d)

#endif
