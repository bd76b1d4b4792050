/* hd.h -- one macro so that a map written once runs on host and device.
 *
 * HD marks a function __host__ __device__ under nvcc and expands to nothing under a plain
 * C compiler, so the same map.h is unit-tested on the CPU (tests/host, built with cc) and
 * launched on the GPU.  Functions marked HD must also be `static inline` so that several
 * translation units can include them without link clashes. */
#ifndef COMMON_HD_H
#define COMMON_HD_H

#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

#endif
