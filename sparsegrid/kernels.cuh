/* sparsegrid/kernels.cuh -- GPU hierarchization kernels and their host-side launchers.
 *
 *   k_hier_b        thesis version B (section 4.3, Algorithm 2): one launch per dimension,
 *                   one block per work item (slice), the work item in shared memory,
 *                   processed level by level with a barrier per level; work-item metadata
 *                   in constant memory.  Both directions (inverse = dehierarchization).
 *   k_hier_fused    ours: whole tiles in shared memory (several per block), all dimensions
 *                   in one launch; each value is read and written once in global memory.
 *                   Hierarchization needs only nodal values along each line, so every
 *                   dimension is one pass from one shared buffer into the other (the last
 *                   pass writes straight to global memory).
 *   k_dehier_fused  ours, inverse: coarsest level first, in place in shared memory.
 *   k_fused_lines   ours, final form (the default "gpu_fused"): as above, but in each
 *                   dimension a thread owns whole lines and transforms them in registers;
 *                   one shared buffer, both directions.  The two kernels above (point
 *                   codes, "gpu_fused_points") remain for lines longer than 65 points and
 *                   as the first step of the story told in README.md.
 *   k_fused_pipelined  ours, pipelined ("gpu_fused_pipelined"): the arithmetic of
 *                   k_fused_lines in a persistent grid; each block copies its next groups of
 *                   tiles into shared memory with cp.async while it transforms the current
 *                   one, so loads overlap compute and stores.
 *   k_copy          plain copy of the same bytes: the bandwidth reference of the same run.
 * Formulas: sg_surplus / sg_unsurplus of hierarchize.h (thesis 2.3.1). */
#ifndef SPARSEGRID_KERNELS_CUH
#define SPARSEGRID_KERNELS_CUH

#include <stdint.h>
#include "hierarchize.h"
#include "../common/check.h"

#define SG_FUSED_THREADS 256         /* threads per block of the fused kernels */
#define SG_FUSED_TARGET_FLOATS 4096  /* auto tiles per block: about this many floats per block */
#define SG_FUSED_MIN_BLOCKS_PER_SM 4 /* fewer tiles per block when Nt is small, to fill the GPU */
/* Defaults of the pipelined kernel: the fastest configuration measured for 33x33 tiles at
 * 2.15 GB moved on the H200 (git 2a50b1e: 91.6 % of the copy kernel); the bandwidth figure
 * plans each shape by measurement anyway (plan_pipelined in exp_full.cuh). */
#define SG_PIPE_THREADS 128          /* pipelined kernel: threads per block */
#define SG_PIPE_TARGET_FLOATS 8192   /* pipelined kernel: about this many floats per group (32 KiB) */
#define SG_PIPE_STAGES 2             /* pipelined kernel: shared buffers (1 group computed, 1 loading) */
#define SG_PIPE_VSTORE 1             /* pipelined kernel: 0 = stores from registers, 1 = staged 16-byte stores */

/* Version B's work-item metadata (thesis 5.1: "kept in constant memory"): the slices of
 * every dimension, one after the other.  Constant memory is per-module device state; it is
 * written once per tile shape by sg_b_setup() before any launch that reads it. */
__constant__ sg_slice c_slices[SG_B_MAX_SLICES];

/* ---------------------------------------------------------------- version B kernel */

/* Work dimension k; block b: tile b / nslices, slice slice0 + b % nslices.  Threads: m =
 * line in the slice, j = leaf-level position; at level lev the threads j < 2^(lev-1)
 * compute the points i = (2j + 1) h, h = 2^(l_k - lev).  src may equal dst. */
__global__ void k_hier_b(const float *src, float *dst, sg_geom g, int k, int slice0, int nslices,
                         int inverse)
{
    extern __shared__ float sm[];
    long long tile = blockIdx.x / nslices;
    const sg_slice *s = &c_slices[slice0 + blockIdx.x % nslices];
    const int n = g.n[k], lk = g.l[k], lines = s->nlines, total = lines * n;
    const long long stk = g.stride[k];
    const float *ts = src + tile * g.size;
    float *td = dst + tile * g.size;
    /* load the work item: along the line in dimension 0 (contiguous), across lines else */
    for (int e = threadIdx.x; e < total; e += blockDim.x) {
        int m = k == 0 ? e / n : e % lines, i = k == 0 ? e % n : e / lines;
        sm[m * n + i] = ts[sg_slice_line_offset(s, g.stride, s->first_line + m) + i * stk];
    }
    __syncthreads();
    const int leaf = 1 << (lk - 1), m = threadIdx.x / leaf, j = threadIdx.x % leaf;
    for (int st = 0; st < lk; st++) {
        int lev = inverse ? st + 1 : lk - st; /* Algorithm 1: finest level first */
        int h = 1 << (lk - lev);
        if (m < lines && j < (1 << (lev - 1))) {
            float *x = sm + m * n + (2 * j + 1) * h;
            *x = inverse ? sg_unsurplus(*x, x[-h], x[h]) : sg_surplus(*x, x[-h], x[h]);
        }
        __syncthreads();
    }
    for (int e = threadIdx.x; e < total; e += blockDim.x) {
        int m2 = k == 0 ? e / n : e % lines, i = k == 0 ? e % n : e / lines;
        td[sg_slice_line_offset(s, g.stride, s->first_line + m2) + i * stk] = sm[m2 * n + i];
    }
}

/* ---------------------------------------------------------------- fused kernels */

/* Copies count floats s[0..count) into sm[0..count), 16 bytes per load where possible.
 * The caller placed sm at the same address modulo 16 as s (see sg_smem_pad), so the
 * aligned middle part is also 16-byte aligned in shared memory (conflict-free stores).
 * Several independent 16-byte loads per thread keep enough bytes in flight for HBM. */
__device__ __forceinline__ void sg_load(const float *__restrict__ s, float *sm, int count)
{
    int head = (int)((4 - (((uintptr_t)s >> 2) & 3)) & 3);
    if (head > count) head = count;
    if ((int)threadIdx.x < head) sm[threadIdx.x] = s[threadIdx.x];
    const int body4 = (count - head) >> 2;
    const float4 *s4 = (const float4 *)(s + head);
    float4 *m4 = (float4 *)(sm + head);
#pragma unroll 4
    for (int v = threadIdx.x; v < body4; v += blockDim.x) m4[v] = __ldg(s4 + v);
    for (int e = head + 4 * body4 + threadIdx.x; e < count; e += blockDim.x) sm[e] = s[e];
}

/* Floats to skip at the start of shared memory so that sm + pad == s (mod 16 bytes). */
__device__ __forceinline__ int sg_smem_pad(const float *s) { return (int)(((uintptr_t)s >> 2) & 3); }

/* The start of the fused kernels: this block's tiles (tpb of them, fewer in the last block),
 * tsz floats each and contiguous, copied from src into shared memory sm4 (at sg_smem_pad, by
 * sg_load) and visible to every thread.  Returns where they start in shared memory; *cnt: the
 * number of tiles, *o: where they go in dst. */
__device__ __forceinline__ float *sg_group_load(float4 *sm4, const float *__restrict__ src, float *dst, long long nt,
                                                int tsz, int tpb, int *cnt, float **o)
{
    const long long tile0 = (long long)blockIdx.x * tpb;
    *cnt = (int)min((long long)tpb, nt - tile0);
    const float *s = src + tile0 * tsz;
    *o = dst + tile0 * tsz;
    float *buf = (float *)sm4 + sg_smem_pad(s);
    sg_load(s, buf, *cnt * tsz);
    __syncthreads();
    return buf;
}

/* tpb tiles per block, contiguous in memory: loaded with coalesced reads into buffer 0;
 * dimension k reads buffer k % 2 and writes buffer (k + 1) % 2, the last one writes dst.
 * code[r] (sg_codes) gives each point's neighbour distance per dimension.  Shared memory:
 * 2 * tpb * tile + 8 floats (1 buffer when d = 1). */
__global__ void __launch_bounds__(SG_FUSED_THREADS)
k_hier_fused(const float *__restrict__ src, float *__restrict__ dst, long long nt, sg_geom g,
             const uint32_t *__restrict__ code, int tpb)
{
    extern __shared__ float4 sm4[];
    const int tsz = (int)g.size;
    int cnt;
    float *o;
    float *buf0 = sg_group_load(sm4, src, dst, nt, tsz, tpb, &cnt, &o), *buf1 = (float *)sm4 + 4 + tpb * tsz;
    for (int k = 0; k < g.d; k++) {
        const float *in = (k & 1) ? buf1 : buf0;
        float *out = (k == g.d - 1) ? o : ((k & 1) ? buf0 : buf1);
        const int sh = 8 * k, stk = (int)g.stride[k];
        for (int r = threadIdx.x; r < tsz; r += blockDim.x) {
            uint32_t b = (__ldg(code + r) >> sh) & 0xFFu;
            int off = b == SG_CODE_BOUNDARY ? 0 : stk << b;
            for (int t = 0; t < cnt; t++) {
                int e = t * tsz + r;
                float v = in[e];
                if (off) v = sg_surplus(v, in[e - off], in[e + off]);
                out[e] = v;
            }
        }
        if (k < g.d - 1) __syncthreads();
    }
}

/* Dehierarchization: one buffer; per dimension, levels coarsest first, a barrier after each. */
__global__ void __launch_bounds__(SG_FUSED_THREADS)
k_dehier_fused(const float *__restrict__ src, float *__restrict__ dst, long long nt, sg_geom g,
               const uint32_t *__restrict__ code, int tpb)
{
    extern __shared__ float4 sm4[];
    const int tsz = (int)g.size;
    int cnt;
    float *o;
    float *sm = sg_group_load(sm4, src, dst, nt, tsz, tpb, &cnt, &o);
    for (int k = 0; k < g.d; k++) {
        const int sh = 8 * k, stk = (int)g.stride[k];
        for (int lev = 1; lev <= g.l[k]; lev++) {
            const uint32_t want = (uint32_t)(g.l[k] - lev); /* log2 h of this level */
            const int off = stk << want;
            for (int r = threadIdx.x; r < tsz; r += blockDim.x) {
                if (((__ldg(code + r) >> sh) & 0xFFu) != want) continue;
                for (int t = 0; t < cnt; t++) {
                    int e = t * tsz + r;
                    sm[e] = sg_unsurplus(sm[e], sm[e - off], sm[e + off]);
                }
            }
            __syncthreads();
        }
    }
    for (int e = threadIdx.x; e < cnt * tsz; e += blockDim.x) o[e] = sm[e];
}

/* One dimension of k_fused_lines / k_fused_pipelined for lines of exactly N points (stride
 * stk): lines = total / N lines of the floats in buf, one line per thread at a time,
 * transformed in registers (see k_fused_lines); written back in place, or to out when
 * last.  Line ln starts at (ln / stk) * N * stk + ln % stk; the quotient and remainder are
 * stepped by sg_line_step (hierarchize.h) instead of dividing for every line.  With N a
 * compile-time constant every loop below is fully unrolled and unpredicated. */
template <int N>
__device__ __forceinline__ void sg_line_pass(float *buf, float *out, int lines, int stk, bool last, int inverse)
{
    float *dstp = last ? out : buf;
    sg_line_pos pos = sg_line_first((int)threadIdx.x, (int)blockDim.x, stk);
    for (int ln = threadIdx.x; ln < lines; ln += blockDim.x) {
        const int base = pos.q * (N * stk) + pos.r;
        sg_line_step(&pos, stk);
        float u[N];
#pragma unroll
        for (int i = 0; i < N; i++) u[i] = buf[base + i * stk];
        if (!inverse) {
#pragma unroll
            for (int lh = 0; (1 << lh) < N - 1; lh++) { /* h = 1, 2, 4, ...: finest first */
                const int h = 1 << lh;
#pragma unroll
                for (int i = h; i < N - 1; i += 2 * h) u[i] = sg_surplus(u[i], u[i - h], u[i + h]);
            }
        } else {
#pragma unroll
            for (int lh = 30; lh >= 0; lh--) { /* h = ..., 4, 2, 1: coarsest first */
                if ((1 << lh) >= N - 1) continue;
                const int h = 1 << lh;
#pragma unroll
                for (int i = h; i < N - 1; i += 2 * h) u[i] = sg_unsurplus(u[i], u[i - h], u[i + h]);
            }
        }
#pragma unroll
        for (int i = 0; i < N; i++)
            if (last || (i > 0 && i < N - 1)) dstp[base + i * stk] = u[i];
    }
}

/* One dimension (n points, stride stk) of the total floats in buf: sg_line_pass for the
 * exact n (2 or 2^l + 1 <= NMAX). */
template <int NMAX>
__device__ __forceinline__ void sg_lines_dim(float *buf, float *out, int total, int n, int stk, bool last, int inverse)
{
    const int lines = total / n;
    switch (n) {
    case 2: sg_line_pass<2>(buf, out, lines, stk, last, inverse); break;
    case 3: sg_line_pass<3>(buf, out, lines, stk, last, inverse); break;
    case 5: if constexpr (NMAX >= 5) sg_line_pass<5>(buf, out, lines, stk, last, inverse); break;
    case 9: if constexpr (NMAX >= 9) sg_line_pass<9>(buf, out, lines, stk, last, inverse); break;
    case 17: if constexpr (NMAX >= 17) sg_line_pass<17>(buf, out, lines, stk, last, inverse); break;
    case 33: if constexpr (NMAX >= 33) sg_line_pass<33>(buf, out, lines, stk, last, inverse); break;
    case 65: if constexpr (NMAX >= 65) sg_line_pass<65>(buf, out, lines, stk, last, inverse); break;
    default: break; /* not a valid line length (sg_geom_init admits only 2^l + 1) */
    }
}

/* Ours, final form: whole tiles in shared memory, one buffer, all dimensions in one
 * launch, and in dimension k each thread owns whole lines along k: it reads the n_k values
 * of its line into registers, applies the 1D scheme there (Algorithm 1: finest level first;
 * dehierarchization coarsest first), and writes them back in place -- no two threads touch
 * one line, so one barrier per dimension suffices, and each value costs one shared load and
 * one store per dimension.  The last dimension writes straight to global memory.  NMAX
 * (>= every n_k, 2^L + 1) bounds the line lengths instantiated (sg_lines_dim); the
 * neighbour distance of point i is its lowest set bit, a compile-time constant after
 * unrolling.  The lines of all cnt tiles of a block are numbered together: tiles are
 * contiguous, so line ln of dimension k starts at (ln / stride_k) * n_k * stride_k + ln %
 * stride_k.  Shared memory: tpb * tile + 4 floats. */
template <int NMAX>
__global__ void __launch_bounds__(SG_FUSED_THREADS)
k_fused_lines(const float *__restrict__ src, float *__restrict__ dst, long long nt, sg_geom g, int tpb, int inverse)
{
    extern __shared__ float4 sm4[];
    const int tsz = (int)g.size;
    int cnt;
    float *o;
    float *buf = sg_group_load(sm4, src, dst, nt, tsz, tpb, &cnt, &o);
    const int total = cnt * tsz;
#pragma unroll
    for (int k = 0; k < SG_MAXD; k++) { /* unrolled: g.n[k], g.stride[k] stay in parameter space */
        if (k >= g.d) break;
        const bool last = k == g.d - 1;
        sg_lines_dim<NMAX>(buf, o, total, g.n[k], (int)g.stride[k], last, inverse);
        if (!last) __syncthreads();
    }
}

/* ---------------------------------------------------------------- pipelined fused kernel */

/* cp.async (sm_80+): global -> shared without registers, completed by groups.  Built for
 * an older GPU (sm_75), the copies are plain loads and stores and the waits are empty. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
/* 4 bytes (.ca) and 16 bytes (.cg: not kept in L1) from global gm to shared sm. */
__device__ __forceinline__ void sg_cp4(float *sm, const float *gm)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((unsigned)__cvta_generic_to_shared(sm)), "l"(gm)
                 : "memory");
}
__device__ __forceinline__ void sg_cp16(float *sm, const float *gm)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(sm)), "l"(gm)
                 : "memory");
}
__device__ __forceinline__ void sg_cp_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
/* Wait until at most `pending` of this thread's committed groups are still in flight. */
__device__ __forceinline__ void sg_cp_wait(int pending)
{
    if (pending <= 0) asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    else if (pending == 1) asm volatile("cp.async.wait_group 1;\n" ::: "memory");
    else if (pending == 2) asm volatile("cp.async.wait_group 2;\n" ::: "memory");
    else asm volatile("cp.async.wait_group 3;\n" ::: "memory");
}
#else /* sm_75: plain copies, nothing to wait for */
__device__ __forceinline__ void sg_cp4(float *sm, const float *gm) { *sm = *gm; }
__device__ __forceinline__ void sg_cp16(float *sm, const float *gm) { *(float4 *)sm = __ldg((const float4 *)gm); }
__device__ __forceinline__ void sg_cp_commit() {}
__device__ __forceinline__ void sg_cp_wait(int) {}
#endif

/* sg_load with cp.async: count floats s[0..count) -> sm[0..count), sm == s (mod 16 bytes);
 * 16-byte copies for the aligned middle, 4-byte copies for the head and tail. */
__device__ __forceinline__ void sg_load_async(const float *s, float *sm, int count)
{
    int head = (int)((4 - (((uintptr_t)s >> 2) & 3)) & 3);
    if (head > count) head = count;
    if ((int)threadIdx.x < head) sg_cp4(sm + threadIdx.x, s + threadIdx.x);
    const int body4 = (count - head) >> 2;
    for (int v = threadIdx.x; v < body4; v += blockDim.x) sg_cp16(sm + head + 4 * v, s + head + 4 * v);
    for (int e = head + 4 * body4 + threadIdx.x; e < count; e += blockDim.x) sg_cp4(sm + e, s + e);
}

/* Copies count floats sm[0..count) -> o[0..count): 16-byte stores for the aligned middle
 * when o == sm (mod 16 bytes) -- always so when dst == src (mod 16), see sg_smem_pad --,
 * 4-byte stores otherwise and for the head and tail.  Every warp store covers whole
 * 32-byte sectors (except at the ends). */
__device__ __forceinline__ void sg_store(const float *sm, float *o, int count)
{
    if ((((uintptr_t)o ^ (uintptr_t)sm) & 15) != 0) { /* not co-aligned: scalar, still coalesced */
        for (int e = threadIdx.x; e < count; e += blockDim.x) o[e] = sm[e];
        return;
    }
    int head = (int)((4 - (((uintptr_t)o >> 2) & 3)) & 3);
    if (head > count) head = count;
    if ((int)threadIdx.x < head) o[threadIdx.x] = sm[threadIdx.x];
    const int body4 = (count - head) >> 2;
    const float4 *m4 = (const float4 *)(sm + head);
    float4 *o4 = (float4 *)(o + head);
    for (int v = threadIdx.x; v < body4; v += blockDim.x) o4[v] = m4[v];
    for (int e = head + 4 * body4 + threadIdx.x; e < count; e += blockDim.x) o[e] = sm[e];
}

/* Floats of one pipeline stage: tpb tiles plus up to 3 floats of alignment pad, a multiple
 * of 4 (so every stage starts 16-byte aligned). */
static __host__ __device__ __forceinline__ int sg_stage_floats(int tpb, int tsz) { return (tpb * tsz + 3 + 3) & ~3; }

/* Ours, pipelined ("gpu_fused_pipelined"): the transform of k_fused_lines (sg_lines_dim,
 * identical arithmetic), but a persistent grid in which each block walks over groups of tpb
 * contiguous tiles (group q = blockIdx.x, + gridDim.x, ...) with `stages` shared buffers:
 * while it transforms group q (and stores it from registers), the cp.async copies of the
 * next stages - 1 groups are already in flight, so memory is never idle for the block.
 * Each value is still read once and written once in global memory.  vstore = 0: the last
 * dimension's pass writes global memory from registers (4-byte stores, as k_fused_lines);
 * vstore = 1: it stays in shared memory and the group is stored by sg_store (16-byte
 * stores, one more barrier).  Shared memory: stages * sg_stage_floats(tpb, tile) floats. */
template <int NMAX>
__global__ void __launch_bounds__(SG_FUSED_THREADS)
k_fused_pipelined(const float *__restrict__ src, float *__restrict__ dst, long long nt, sg_geom g, int tpb, int stages,
                  int vstore, int inverse)
{
    extern __shared__ float4 sm4[];
    const int tsz = (int)g.size, sfl = sg_stage_floats(tpb, tsz);
    const long long ngroups = (nt + tpb - 1) / tpb, gsz = (long long)tpb * tsz, G = gridDim.x;
    long long q = blockIdx.x;
    for (int s = 0; s < stages - 1; s++) { /* prologue: the first stages - 1 groups */
        long long qs = q + s * G;
        if (qs < ngroups) {
            const float *p = src + qs * gsz;
            sg_load_async(p, (float *)sm4 + s * sfl + sg_smem_pad(p), (int)(min((long long)tpb, nt - qs * tpb) * tsz));
        }
        sg_cp_commit();
    }
    for (int it = 0; q < ngroups; q += G, it++) {
        long long qn = q + (long long)(stages - 1) * G; /* into the stage freed by the last iteration */
        if (qn < ngroups) {
            const float *p = src + qn * gsz;
            sg_load_async(p, (float *)sm4 + ((it + stages - 1) % stages) * sfl + sg_smem_pad(p),
                          (int)(min((long long)tpb, nt - qn * tpb) * tsz));
        }
        sg_cp_commit();
        sg_cp_wait(stages - 1); /* this thread's copies of group q are done */
        __syncthreads();        /* ... and everybody's */
        const float *s = src + q * gsz;
        float *buf = (float *)sm4 + (it % stages) * sfl + sg_smem_pad(s), *o = dst + q * gsz;
        const int total = (int)(min((long long)tpb, nt - q * tpb) * tsz);
#pragma unroll
        for (int k = 0; k < SG_MAXD; k++) {
            if (k >= g.d) break;
            const bool last = k == g.d - 1 && !vstore; /* vstore: the last pass stays in place too */
            sg_lines_dim<NMAX>(buf, o, total, g.n[k], (int)g.stride[k], last, inverse);
            __syncthreads(); /* the last one: the stage may be refilled in the next iteration */
        }
        if (vstore) { /* staged store: the whole group from shared memory, 16 bytes per thread */
            sg_store(buf, o, total);
            __syncthreads();
        }
    }
    sg_cp_wait(0);
}

/* The instance of the kernel template K for lines of at most nmax points (3, 5, 9, 17, 33,
 * 65), or NULL: the one list of line lengths the fused kernels are compiled for. */
#define SG_NMAX_INSTANCE(K, nmax)                                                               \
    switch (nmax) {                                                                             \
    case 3: return K<3>;                                                                        \
    case 5: return K<5>;                                                                        \
    case 9: return K<9>;                                                                        \
    case 17: return K<17>;                                                                      \
    case 33: return K<33>;                                                                      \
    case 65: return K<65>;                                                                      \
    default: return NULL;                                                                       \
    }

typedef void (*sg_lines_fn)(const float *, float *, long long, sg_geom, int, int);
static sg_lines_fn sg_lines_instance(int nmax) { SG_NMAX_INSTANCE(k_fused_lines, nmax) }

typedef void (*sg_pipe_fn)(const float *, float *, long long, sg_geom, int, int, int, int);
static sg_pipe_fn sg_pipe_instance(int nmax) { SG_NMAX_INSTANCE(k_fused_pipelined, nmax) }

/* The same bytes copied (16 bytes per thread where aligned): the ceiling of this run. */
__global__ void k_copy(const float *__restrict__ src, float *__restrict__ dst, long long n)
{
    long long n4 = n / 4, i0 = blockIdx.x * (long long)blockDim.x + threadIdx.x, step = (long long)gridDim.x * blockDim.x;
    for (long long v = i0; v < n4; v += step) ((float4 *)dst)[v] = ((const float4 *)src)[v];
    for (long long v = 4 * n4 + i0; v < n; v += step) dst[v] = src[v];
}

/* ---------------------------------------------------------------- host launchers */

typedef struct {
    sg_geom g;
    int first[SG_MAXD], count[SG_MAXD], threads[SG_MAXD]; /* slices of each dimension */
    size_t smem[SG_MAXD];
} sg_b;

/* Plans version B for g and uploads the slices to constant memory.  Returns 0, or -1 when
 * the tile exceeds the thesis's limits (a line longer than a block) or the metadata space. */
static int sg_b_setup(sg_b *p, const sg_geom *g)
{
    sg_slice *host = (sg_slice *)malloc(sizeof(sg_slice) * SG_B_MAX_SLICES); /* staging */
    int used = 0;
    if (!host) DIE("out of host memory");
    memset(p, 0, sizeof *p);
    p->g = *g;
    for (int k = 0; k < g->d; k++) {
        int c = sg_b_plan(g, k, host + used, SG_B_MAX_SLICES - used, &p->threads[k]);
        if (c < 0) { free(host); return -1; }
        p->first[k] = used;
        p->count[k] = c;
        int maxl = 0;
        for (int i = 0; i < c; i++) maxl = host[used + i].nlines > maxl ? host[used + i].nlines : maxl;
        p->smem[k] = sizeof(float) * (size_t)maxl * g->n[k];
        used += c;
    }
    if (used) CHECK_CUDA(cudaMemcpyToSymbol(c_slices, host, sizeof(sg_slice) * used));
    free(host);
    return 0;
}

/* Version B: nt tiles src -> dst (one launch per dimension; src is read by the first). */
static void sg_b_run(const sg_b *p, const float *src, float *dst, long long nt, int inverse, cudaStream_t st)
{
    const float *in = src;
    for (int k = 0; k < p->g.d; k++) {
        if (!p->count[k]) continue;
        k_hier_b<<<(unsigned)(nt * p->count[k]), p->threads[k], p->smem[k], st>>>(in, dst, p->g, k, p->first[k],
                                                                                  p->count[k], inverse);
        CHECK_LAUNCH();
        in = dst;
    }
    if (in == src && src != dst) /* every dimension has level 0: nothing but the copy */
        CHECK_CUDA(cudaMemcpyAsync(dst, src, sizeof(float) * nt * p->g.size, cudaMemcpyDeviceToDevice, st));
}

/* Lets fn launch with up to bytes of dynamic shared memory.  The limit is per kernel, not
 * per plan, so it is only ever raised: a later plan with less shared memory must not break
 * an earlier one that uses the same kernel (e.g. several pipelined plans of one shape). */
static void sg_raise_smem(const void *fn, size_t bytes)
{
    cudaFuncAttributes a;
    CHECK_CUDA(cudaFuncGetAttributes(&a, fn));
    if ((size_t)a.maxDynamicSharedSizeBytes < bytes)
        CHECK_CUDA(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
}

/* Variants of the fused kernel (sg_fused_setup's `variant`). */
#define SG_VARIANT_LINES 0     /* k_fused_lines: "gpu_fused" */
#define SG_VARIANT_POINTS 1    /* k_hier_fused / k_dehier_fused: "gpu_fused_points" */
#define SG_VARIANT_PIPELINED 2 /* k_fused_pipelined: "gpu_fused_pipelined" */

typedef struct {
    sg_geom g;
    int lines;               /* 1: k_fused_lines<nmax>; 0: k_hier_fused / k_dehier_fused */
    int pipe;                /* 1: k_fused_pipelined<nmax> (persistent grid, cp.async stages) */
    int nmax;                /* register array of the line kernels: 2^L + 1 >= every n_k */
    int tpb;                 /* tiles per block (pipelined: per group; the most, fewer for small Nt) */
    int threads;             /* threads per block */
    int stages;              /* pipelined: shared buffers (groups in flight + 1) */
    int occ;                 /* pipelined: resident blocks per SM at tpb (occupancy calculator) */
    int max_blocks;          /* pipelined: at most this many blocks (0: occ * sms; tests set it small) */
    int vstore;              /* pipelined: 1 = staged 16-byte stores from shared memory (sg_store) */
    int sms;                 /* multiprocessors of the device */
    int adapt;               /* tiles per block chosen automatically: fewer for small Nt */
    uint32_t *d_code;        /* point codes (sg_codes) for the point kernels */
} sg_fused;

/* Shared memory of one launch with tpb tiles per block. */
static size_t sg_fused_smem(const sg_fused *p, int tpb, int inverse)
{
    if (p->pipe) return (size_t)p->stages * sg_stage_floats(tpb, (int)p->g.size) * sizeof(float);
    int nbuf = (!p->lines && !inverse && p->g.d > 1) ? 2 : 1;
    return ((size_t)nbuf * tpb * p->g.size + 8) * sizeof(float);
}

/* Plans the fused kernels: variant (SG_VARIANT_POINTS forces the point-code kernels;
 * otherwise the line kernels whenever every n_k <= 65, else the point kernels), tiles per
 * block (tpb_req, or 0 for about target_floats floats per block; 0: SG_FUSED_TARGET_FLOATS
 * or SG_PIPE_TARGET_FLOATS), threads per block (0: the variant's default) and, for the
 * pipelined variant, stages (0: SG_PIPE_STAGES; 2..4).  Returns 0, or -1 when a tile does
 * not fit the shared memory of a block on this device. */
static int sg_fused_setup_ex(sg_fused *p, const sg_geom *g, int tpb_req, int dev, int variant, int target_floats,
                             int threads, int stages)
{
    int optin = 0;
    memset(p, 0, sizeof *p);
    p->g = *g;
    int maxn = 0;
    for (int k = 0; k < g->d; k++) maxn = g->n[k] > maxn ? g->n[k] : maxn;
    p->nmax = 3;
    while (p->nmax < maxn) p->nmax = 2 * p->nmax - 1;
    p->lines = variant != SG_VARIANT_POINTS && sg_lines_instance(p->nmax) != NULL;
    p->pipe = variant == SG_VARIANT_PIPELINED && p->lines;
    if (p->pipe) p->lines = 0;
    p->threads = p->pipe ? (threads > 0 ? threads : SG_PIPE_THREADS) : SG_FUSED_THREADS;
    if (p->threads > SG_FUSED_THREADS) p->threads = SG_FUSED_THREADS;
    p->stages = stages >= 2 && stages <= 4 ? stages : SG_PIPE_STAGES;
    p->vstore = SG_PIPE_VSTORE; /* callers may change it after setup */
    if (target_floats <= 0) target_floats = p->pipe ? SG_PIPE_TARGET_FLOATS : SG_FUSED_TARGET_FLOATS;
    CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    int tpb = tpb_req > 0 ? tpb_req : (int)(target_floats / g->size);
    if (tpb < 1) tpb = 1;
    while (tpb > 1 && sg_fused_smem(p, tpb, 0) > (size_t)optin) tpb--;
    if (sg_fused_smem(p, tpb, 0) > (size_t)optin) return -1;
    p->tpb = tpb;
    p->adapt = tpb_req <= 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&p->sms, cudaDevAttrMultiProcessorCount, dev));
    if (p->pipe) {
        sg_pipe_fn fn = sg_pipe_instance(p->nmax);
        sg_raise_smem((const void *)fn, sg_fused_smem(p, tpb, 0));
        CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&p->occ, fn, p->threads, sg_fused_smem(p, tpb, 0)));
        if (p->occ < 1) return -1;
    } else if (p->lines) {
        sg_raise_smem((const void *)sg_lines_instance(p->nmax), sg_fused_smem(p, tpb, 0));
    } else {
        sg_raise_smem((const void *)k_hier_fused, sg_fused_smem(p, tpb, 0));
        sg_raise_smem((const void *)k_dehier_fused, sg_fused_smem(p, tpb, 1));
    }
    uint32_t *h = (uint32_t *)malloc(sizeof(uint32_t) * g->size);
    if (!h) DIE("out of host memory");
    sg_codes(g, h);
    CHECK_CUDA(cudaMalloc(&p->d_code, sizeof(uint32_t) * g->size));
    CHECK_CUDA(cudaMemcpy(p->d_code, h, sizeof(uint32_t) * g->size, cudaMemcpyHostToDevice));
    free(h);
    return 0;
}

/* The variant with its default tiles per block, threads and stages. */
static int sg_fused_setup(sg_fused *p, const sg_geom *g, int tpb_req, int dev, int variant)
{
    return sg_fused_setup_ex(p, g, tpb_req, dev, variant, 0, 0, 0);
}

static void sg_fused_free(sg_fused *p)
{
    if (p->d_code) CHECK_CUDA(cudaFree(p->d_code));
    p->d_code = NULL;
}

/* Tiles per block for nt tiles: the planned number; if it was chosen automatically, fewer
 * when that would leave fewer than SG_FUSED_MIN_BLOCKS_PER_SM blocks per multiprocessor. */
static int sg_fused_tpb(const sg_fused *p, long long nt)
{
    int tpb = p->tpb;
    while (p->adapt && tpb > 1 && (nt + tpb - 1) / tpb < (long long)SG_FUSED_MIN_BLOCKS_PER_SM * p->sms) tpb--;
    return tpb;
}

/* Blocks of one launch for nt tiles (pipelined: at most the resident blocks, persistent). */
static unsigned sg_fused_blocks(const sg_fused *p, long long nt)
{
    int tpb = sg_fused_tpb(p, nt);
    long long groups = (nt + tpb - 1) / tpb, most = (long long)p->occ * p->sms;
    if (p->max_blocks > 0 && p->max_blocks < most) most = p->max_blocks;
    return (unsigned)(p->pipe && groups > most ? most : groups);
}

/* Fused: nt tiles src -> dst (src != dst), one launch. */
static void sg_fused_run(const sg_fused *p, const float *src, float *dst, long long nt, int inverse, cudaStream_t st)
{
    int tpb = sg_fused_tpb(p, nt);
    unsigned blocks = sg_fused_blocks(p, nt);
    size_t smem = sg_fused_smem(p, tpb, inverse);
    if (p->pipe)
        sg_pipe_instance(p->nmax)<<<blocks, p->threads, smem, st>>>(src, dst, nt, p->g, tpb, p->stages, p->vstore, inverse);
    else if (p->lines)
        sg_lines_instance(p->nmax)<<<blocks, SG_FUSED_THREADS, smem, st>>>(src, dst, nt, p->g, tpb, inverse);
    else if (inverse)
        k_dehier_fused<<<blocks, SG_FUSED_THREADS, smem, st>>>(src, dst, nt, p->g, p->d_code, tpb);
    else
        k_hier_fused<<<blocks, SG_FUSED_THREADS, smem, st>>>(src, dst, nt, p->g, p->d_code, tpb);
    CHECK_LAUNCH();
}

#endif
