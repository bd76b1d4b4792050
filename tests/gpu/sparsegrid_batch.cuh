/* sparsegrid_batch.cuh -- the batches the sparse-grid GPU tests run (test_sparsegrid_sparse_gpu.cu,
 * test_sparsegrid_stream_gpu.cu; rnd also test_sparsegrid_gpu.cu): deterministic inputs, the
 * pole-wise CPU reference of both directions (sgs_ref_f/d, sparse.h), device buffers with one
 * spare element (a grid may start at offset 1), the inputs copied up with the output
 * poisoned, and the output compared bitwise with the reference. */
#ifndef TESTS_SPARSEGRID_BATCH_CUH
#define TESTS_SPARSEGRID_BATCH_CUH

#include <stdlib.h>
#include <string.h>
#include "../../common/check.h"
#include "../../common/testlib.h"
#include "../../sparsegrid/sparse.h"

/* input value i: a mixed 64-bit hash, 24 bits of it in [-1, 1) (exact in float) */
static inline double rnd(unsigned long long i)
{
    i ^= i >> 33; i *= 0xff51afd7ed558ccdULL; i ^= i >> 33; i *= 0xc4ceb9fe1a85ec53ULL; i ^= i >> 33;
    return (double)((unsigned)i >> 8) / 8388608.0 - 1.0;
}
static inline int ref_t(float *u, const sgs_grid *g, int inv) { return sgs_ref_f(u, g, inv); }
static inline int ref_t(double *u, const sgs_grid *g, int inv) { return sgs_ref_d(u, g, inv); }

/* One grid, its batch of ngrids inputs and their references (both directions). */
template <typename T>
struct batch_t {
    const sgs_grid *g;
    long long ngrids, N;
    T *h, *want[2], *got;
    T *d_a, *d_b; /* device buffers with one extra element: tests at offset 1 too */
};

template <typename T>
static void batch_make(batch_t<T> *b, const sgs_grid *g, long long ngrids, unsigned long long seed)
{
    b->g = g;
    b->ngrids = ngrids;
    b->N = g->npts;
    size_t cnt = (size_t)(ngrids * b->N), bytes = sizeof(T) * cnt;
    b->h = (T *)malloc(bytes);
    b->got = (T *)malloc(bytes);
    for (size_t i = 0; i < cnt; i++) b->h[i] = (T)rnd(i + seed);
    for (int inv = 0; inv < 2; inv++) {
        b->want[inv] = (T *)malloc(bytes);
        memcpy(b->want[inv], b->h, bytes);
        for (long long t = 0; t < ngrids; t++) T_CHECK(ref_t(b->want[inv] + t * b->N, g, inv) == 0);
    }
    CHECK_CUDA(cudaMalloc(&b->d_a, bytes + sizeof(T)));
    CHECK_CUDA(cudaMalloc(&b->d_b, bytes + sizeof(T)));
}

template <typename T>
static void batch_free(batch_t<T> *b)
{
    free(b->h);
    free(b->got);
    free(b->want[0]);
    free(b->want[1]);
    CHECK_CUDA(cudaFree(b->d_a));
    CHECK_CUDA(cudaFree(b->d_b));
}

/* Before a run on the first ngrids grids from a (in d_a) into o: the inputs copied to a, and
 * unless o is a (in place) all of d_b poisoned (NaN). */
template <typename T>
static void batch_upload(batch_t<T> *b, long long ngrids, T *a, const T *o)
{
    size_t bytes = sizeof(T) * (size_t)(ngrids * b->N);
    CHECK_CUDA(cudaMemcpy(a, b->h, bytes, cudaMemcpyHostToDevice));
    if (o != a) CHECK_CUDA(cudaMemset(b->d_b, 0xFF, bytes + sizeof(T))); /* poison: NaN */
}

/* After it: waits for the device, copies o back; 1 iff equal to the reference of direction
 * inv bitwise (a check). */
template <typename T>
static int batch_same(batch_t<T> *b, long long ngrids, const T *o, int inv)
{
    size_t bytes = sizeof(T) * (size_t)(ngrids * b->N);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(b->got, o, bytes, cudaMemcpyDeviceToHost));
    int same = !memcmp(b->got, b->want[inv], bytes);
    T_CHECK(same);
    return same;
}

#endif
