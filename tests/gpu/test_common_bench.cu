/* test_common_bench.cu -- bench.h times a real kernel on the GPU, and the kernel's result is
 * checked: y = a*x + y over 2^22 floats, every element compared with the host.  Also checks
 * device_require/device_describe.  SKIP (77) without a usable GPU. */
#include "../../common/testlib.h"
#include "../../common/check.h"
#include "../../common/device.h"
#include "../../common/bench.h"
#include "../../common/verify.h"

static __global__ void k_axpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

typedef struct { int n; float *x, *y; } axpy_ctx;

static void launch(void *p, cudaStream_t s)
{
    axpy_ctx *c = (axpy_ctx *)p;
    k_axpy<<<(c->n + 255) / 256, 256, 0, s>>>(c->n, 1.0f, c->x, c->y);
}

int main(void)
{
    device_require(0, 7, 5);
    char desc[256];
    device_describe(0, desc, sizeof desc);
    T_CHECK(strstr(desc, "sm_") != NULL);

    const int n = 1 << 22;
    float *h_x = (float *)malloc(n * sizeof(float)), *h_y = (float *)malloc(n * sizeof(float));
    float *ref = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) { h_x[i] = (float)(i % 1000); h_y[i] = (float)(i % 7); }
    axpy_ctx c = {n, NULL, NULL};
    CHECK_CUDA(cudaMalloc(&c.x, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&c.y, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(c.x, h_x, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(c.y, h_y, n * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));

    /* each launch adds x once: after warmup + reps*batch launches y = y0 + k*x (exact in
     * float: all values stay integers below 2^24) */
    int warmup = 2, reps = 5, batch = 4;
    bench_stats st = bench_gpu(launch, &c, s, warmup, reps, batch);
    CHECK_CUDA(cudaStreamSynchronize(s));
    int k = warmup + reps * batch;
    for (int i = 0; i < n; i++) ref[i] = h_y[i] + (float)k * h_x[i];
    CHECK_CUDA(cudaMemcpy(h_y, c.y, n * sizeof(float), cudaMemcpyDeviceToHost));
    T_EQ_INT(verify_close_f32(h_y, ref, n, 0, 0, "y"), 0);
    T_EQ_INT(st.n, reps);
    T_EQ_INT(st.batch, batch);
    T_CHECK(st.min > 0 && st.min <= st.median && st.median <= st.max);
    /* 2^22 floats, 12 bytes each moved: a kernel faster than 50 TB/s is a timing bug */
    T_CHECK(st.median > 12.0 * n / 50e12 * 1e3);
    printf("axpy 2^22: median %.4f ms (%.0f GB/s)\n", st.median, 12.0 * n / (st.median * 1e-3) / 1e9);

    bench_stats a = bench_gpu(launch, &c, s, 0, 3, 0); /* auto batch */
    T_CHECK(a.batch >= 1 && a.median > 0);
    CHECK_CUDA(cudaFree(c.x));
    CHECK_CUDA(cudaFree(c.y));
    CHECK_CUDA(cudaStreamDestroy(s));
    free(h_x); free(h_y); free(ref);
    return T_DONE();
}
