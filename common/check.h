/* check.h -- fail loudly and early.
 *
 * DIE(...)        runtime error: message on stderr, exit 1.
 * DIE_USAGE(...)  bad input or bad options: message on stderr, exit 2 (common/README.md,
 *                 "Exit codes").
 * CHECK_CUDA(x)   every CUDA runtime call: prints file:line, the call's text, the error's
 *                 name and description, then exits 1.
 * CHECK_LAUNCH()  after every kernel launch: cudaGetLastError; compiled with -DDEBUG_SYNC
 *                 (make DEBUG=1) it also synchronizes so that an asynchronous fault is
 *                 reported at the launch that caused it, not at a later call. */
#ifndef COMMON_CHECK_H
#define COMMON_CHECK_H

#include <stdio.h>
#include <stdlib.h>

/* DIE and DIE_USAGE: "error: <printf message>" and a newline on stderr, then exit(code).
 * A macro, not a function: the message must be a string literal ("error: " is pasted in
 * front of it), and the compiler sees the exit where the macro stands. */
#define DIE_WITH(code, ...)                                        \
    do {                                                           \
        fprintf(stderr, "error: " __VA_ARGS__);                    \
        fputc('\n', stderr);                                       \
        exit(code);                                                \
    } while (0)

#define DIE(...) DIE_WITH(1, __VA_ARGS__)
#define DIE_USAGE(...) DIE_WITH(2, __VA_ARGS__)

#ifdef __CUDACC__
#include <cuda_runtime.h>

#define CHECK_CUDA(call)                                                        \
    do {                                                                        \
        cudaError_t check_err_ = (call);                                        \
        if (check_err_ != cudaSuccess) {                                        \
            fprintf(stderr, "%s:%d: CUDA error in %s: %s (%s)\n", __FILE__,     \
                    __LINE__, #call, cudaGetErrorName(check_err_),              \
                    cudaGetErrorString(check_err_));                            \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#ifdef DEBUG_SYNC
#define CHECK_LAUNCH()                                                          \
    do {                                                                        \
        CHECK_CUDA(cudaGetLastError());                                         \
        CHECK_CUDA(cudaDeviceSynchronize());                                    \
    } while (0)
#else
#define CHECK_LAUNCH() CHECK_CUDA(cudaGetLastError())
#endif

/* cudaMalloc that refuses, with exit 2, a buffer the device cannot hold: bad input
 * (a size too large for this GPU), not a runtime failure. */
static inline void *device_alloc_or_usage(size_t bytes, const char *what)
{
    void *p = NULL;
    size_t free_b = 0, total_b = 0;
    CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
    /* keep a margin: the runtime needs some memory of its own, and an allocation of exactly
     * the free amount fails inside cudaMalloc (exit 1) instead of here (exit 2) */
    const size_t margin = (size_t)64 << 20;
    if (bytes + margin > free_b)
        DIE_USAGE("%s needs %.2f GiB of device memory, only %.2f GiB free", what,
                  bytes / 1073741824.0, free_b / 1073741824.0);
    CHECK_CUDA(cudaMalloc(&p, bytes ? bytes : 1));
    return p;
}
#endif /* __CUDACC__ */

#endif
