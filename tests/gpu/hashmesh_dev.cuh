/* hashmesh_dev.cuh -- device buffers for the hashmesh GPU tests (test_hashmesh_gpu.cu,
 * test_hashmesh_gpubest.cu): a host array copied up, a bare allocation, a copy down, and a
 * device output compared bytewise with the host reference after the GPU has finished. */
#ifndef TESTS_HASHMESH_DEV_CUH
#define TESTS_HASHMESH_DEV_CUH

#include <stdlib.h>
#include <string.h>
#include "../../common/check.h"

/* a device copy of bytes of h (at least one byte allocated) */
static inline void *up(const void *h, size_t bytes)
{
    void *p = NULL;
    CHECK_CUDA(cudaMalloc(&p, bytes ? bytes : 1));
    if (bytes) CHECK_CUDA(cudaMemcpy(p, h, bytes, cudaMemcpyHostToDevice));
    return p;
}

static inline void *dalloc(size_t bytes)
{
    void *p = NULL;
    CHECK_CUDA(cudaMalloc(&p, bytes ? bytes : 1));
    return p;
}

static inline void down(void *h, const void *d, size_t bytes)
{
    CHECK_CUDA(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
}

/* waits for the device, then: 1 iff the bytes at d equal those of the host's ref */
static inline int dev_same(const void *d, const void *ref, size_t bytes)
{
    CHECK_CUDA(cudaDeviceSynchronize());
    void *h = malloc(bytes ? bytes : 1);
    down(h, d, bytes);
    int same = memcmp(h, ref, bytes) == 0;
    free(h);
    return same;
}

#endif
