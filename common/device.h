/* device.h -- pick the GPU, or explain why there is none (CUDA only).
 *
 * device_require(dev, cc_major, cc_minor)
 *   - no driver (cudaErrorInsufficientDriver with cudaDriverGetVersion = 0: the count is
 *     then left unwritten), no device (cudaErrorNoDevice) or a count of 0: prints
 *     "SKIP: no NVIDIA GPU/driver found (...)" on stderr and exits 77, so tests and make
 *     targets can tell "nothing to run on" from "wrong result"; a driver that IS installed
 *     but older than the runtime (cudaErrorInsufficientDriver, version > 0) and any other
 *     error of cudaGetDeviceCount is a broken setup: one line naming it, exit 1;
 *   - dev out of range: usage error, exit 2;
 *   - compute capability below cc_major.cc_minor (what the program needs, e.g. 7.0 for
 *     WMMA): exit 1 with the reason;
 *   - the binary holds no code for this GPU (built with ARCH=sm_100 and run on sm_90):
 *     one line naming `make ARCH=sm_XY` for this GPU, exit 1.  This is detected by asking
 *     the runtime for a tiny probe kernel's attributes, which fails with
 *     cudaErrorNoKernelImageForDevice exactly when no SASS or JIT-able PTX matches.
 * device_describe(dev, buf, size) -> "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB,
 *   driver 13.0, runtime 13.0)", used for the `# gpu:` metadata line of .dat files. */
#ifndef COMMON_DEVICE_H
#define COMMON_DEVICE_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#include "check.h"

/* Grid of grid-stride helper kernels (fill, copy, checks): per_sm blocks for each of the
 * H100/H200's 132 SMs keep enough loads and stores in flight to saturate HBM.  The kernels
 * stride over the grid, so this is correct on any GPU; it is a constant (not a device query)
 * so that the timed reference kernels launch exactly as when the reference data was taken. */
#define GRID_STRIDE_BLOCKS(per_sm) (132 * (per_sm))

static __global__ void k_device_probe(int *p)
{
    if (p) *p = 1;
}

static inline void device_require(int dev, int cc_major, int cc_minor)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    int driver = 0, runtime = 0;
    if (e == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0 &&
        cudaRuntimeGetVersion(&runtime) == cudaSuccess)
        DIE("the NVIDIA driver (CUDA %d.%d) is older than this program's CUDA runtime %d.%d: update the driver",
            driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
        fprintf(stderr, "SKIP: no NVIDIA GPU/driver found (%s)\n",
                e == cudaSuccess ? "device count is 0" : cudaGetErrorName(e));
        exit(77);
    }
    /* Any other failure (initialization error, driver/runtime mismatch, ...) on a machine
     * that has a driver is a broken GPU setup, not a GPU-less machine: fail, never skip. */
    if (e != cudaSuccess)
        DIE("cudaGetDeviceCount failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
    if (dev < 0 || dev >= count)
        DIE_USAGE("--device=%d out of range: this machine has %d CUDA device(s)", dev, count);
    CHECK_CUDA(cudaSetDevice(dev));

    struct cudaDeviceProp p;
    CHECK_CUDA(cudaGetDeviceProperties(&p, dev));
    if (p.major < cc_major || (p.major == cc_major && p.minor < cc_minor))
        DIE("%s has compute capability %d.%d; this program needs %d.%d or newer", p.name,
            p.major, p.minor, cc_major, cc_minor);

    struct cudaFuncAttributes fa;
    e = cudaFuncGetAttributes(&fa, k_device_probe);
    if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction) {
        (void)cudaGetLastError();
        fprintf(stderr,
                "error: this binary was built for a different GPU than %s (compute capability "
                "%d.%d); rebuild with: make clean && make ARCH=sm_%d%d\n",
                p.name, p.major, p.minor, p.major, p.minor);
        exit(1);
    }
    CHECK_CUDA(e);
}

static inline void device_describe(int dev, char *buf, size_t size)
{
    struct cudaDeviceProp p;
    int drv = 0, rt = 0;
    CHECK_CUDA(cudaGetDeviceProperties(&p, dev));
    CHECK_CUDA(cudaDriverGetVersion(&drv));
    CHECK_CUDA(cudaRuntimeGetVersion(&rt));
    snprintf(buf, size, "%.160s (sm_%d%d, %d SMs, %.1f GiB, L2 %d MiB, driver %d.%d, runtime %d.%d)",
             p.name, p.major, p.minor, p.multiProcessorCount,
             p.totalGlobalMem / 1073741824.0, p.l2CacheSize >> 20, drv / 1000,
             (drv % 1000) / 10, rt / 1000, (rt % 1000) / 10);
}

#endif
