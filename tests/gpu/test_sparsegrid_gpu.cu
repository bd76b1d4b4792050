/* GPU tests of sparsegrid/kernels.cuh: the thesis-style kernel (version B) and the three fused
 * kernels (lines in registers; point codes; pipelined lines with threads, stages, grid caps,
 * direct or staged stores, co-aligned or shifted outputs), hierarchization and dehierarchization, equal the CPU (tuned, itself equal to the
 * float reference) bitwise, for d = 1..4, isotropic and anisotropic tiles, several tile
 * counts and tiles per block; outputs are poisoned (NaN) first; f = prod x_i^2 gives the
 * exact surpluses on the GPU.  Exit 77 without a GPU. */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../sparsegrid/hierarchize.h"
#include "../../sparsegrid/kernels.cuh"
#include "sparsegrid_batch.cuh" /* rnd */

/* variant: SG_VARIANT_LINES / _POINTS / _PIPELINED; the pipelined one with threads per
 * block, stages, at most max_blocks blocks (small: many groups per block) and staged
 * stores (vstore); off: output buffers shifted by this many floats (off = 1: output and
 * input not co-aligned mod 16 bytes, the scalar path of sg_store). */
static void check_shape_ex(const char *dims, long long nt, int tpb, int prodx2, int variant, int threads, int stages,
                           int max_blocks, int vstore, int off)
{
    sg_geom g;
    char err[200];
    T_CHECK(sg_parse_dims(dims, &g, err, sizeof err) == 0);
    long long n = nt * g.size;
    size_t bytes = sizeof(float) * n;
    float *h = (float *)malloc(bytes), *ref = (float *)malloc(bytes), *inv = (float *)malloc(bytes),
          *got = (float *)malloc(bytes);
    for (long long i = 0; i < n; i++) {
        if (prodx2) {
            long long r = i % g.size;
            double f = 1;
            for (int k = 0; k < g.d; k++) { double x = (double)((r / g.stride[k]) % g.n[k]) / (g.n[k] - 1); f *= x * x; }
            h[i] = (float)f;
        } else h[i] = (float)rnd(i + 1000 * nt);
    }
    T_CHECK(sg_cpu_tuned(h, ref, nt, &g, 0, 4) == 0);
    T_CHECK(sg_cpu_tuned(ref, inv, nt, &g, 1, 4) == 0);
    if (prodx2) { /* exact surpluses: boundary values, -4^-lev, products */
        int bad = 0;
        for (long long i = 0; i < n; i++) {
            long long r = i % g.size;
            double c = 1;
            for (int k = 0; k < g.d; k++) {
                long long ix = (r / g.stride[k]) % g.n[k];
                int lev = sg_point_level(ix, g.l[k]);
                c *= lev == 0 ? (ix == 0 ? 0.0 : 1.0) : -ldexp(1.0, -2 * lev);
            }
            bad += ref[i] != (float)c;
        }
        T_EQ_INT(bad, 0);
    }
    sg_b b;
    sg_fused f;
    T_CHECK(sg_b_setup(&b, &g) == 0);
    if (!threads && !stages) T_CHECK(sg_fused_setup(&f, &g, tpb, 0, variant) == 0); /* the defaults */
    else T_CHECK(sg_fused_setup_ex(&f, &g, tpb, 0, variant, 0, threads, stages) == 0);
    f.max_blocks = max_blocks;
    f.vstore = vstore;
    if (variant == SG_VARIANT_LINES) T_CHECK(f.lines == (f.nmax <= 65) && !f.pipe);
    if (variant == SG_VARIANT_PIPELINED) T_CHECK(f.pipe == (f.nmax <= 65) && !f.lines);
    if (variant == SG_VARIANT_POINTS) T_CHECK(!f.lines && !f.pipe);
    const char *vname = f.pipe ? "fused pipelined" : f.lines ? "fused lines" : "fused points";
    float *d_in, *d_out0, *d_back0;
    CHECK_CUDA(cudaMalloc(&d_in, bytes));
    CHECK_CUDA(cudaMalloc(&d_out0, bytes + 16));
    CHECK_CUDA(cudaMalloc(&d_back0, bytes + 16));
    float *d_out = d_out0 + off, *d_back = d_back0 + off;
    CHECK_CUDA(cudaMemcpy(d_in, h, bytes, cudaMemcpyHostToDevice));
    for (int impl = 0; impl < 2; impl++)
        for (int dir = 0; dir < 2; dir++) { /* hierarchization d_in -> d_out, then back into d_back */
            float *src = dir ? d_out : d_in, *dst = dir ? d_back : d_out;
            CHECK_CUDA(cudaMemset(dst, 0xFF, bytes));
            if (impl) sg_fused_run(&f, src, dst, nt, dir, 0);
            else sg_b_run(&b, src, dst, nt, dir, 0);
            CHECK_CUDA(cudaDeviceSynchronize());
            CHECK_CUDA(cudaMemcpy(got, dst, bytes, cudaMemcpyDeviceToHost));
            if (!T_CHECK(memcmp(got, dir ? inv : ref, bytes) == 0))
                fprintf(stderr, "  %s Nt=%lld tpb=%d threads=%d stages=%d max_blocks=%d vstore=%d off=%d: %s %s differs\n",
                        dims, nt, tpb, threads, stages, max_blocks, vstore, off, impl ? vname : "B",
                        dir ? "dehierarchization" : "hierarchization");
        }
    sg_fused_free(&f);
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out0));
    CHECK_CUDA(cudaFree(d_back0));
    free(h); free(ref); free(inv); free(got);
}

static void check_shape(const char *dims, long long nt, int tpb, int prodx2, int variant)
{
    check_shape_ex(dims, nt, tpb, prodx2, variant, 0, 0, 0, 0, 0);
}

int main(void)
{
    device_require(0, 7, 5);
    const char *shapes[] = {"2", "3", "33", "1025", "3x3", "33x33", "3x17", "2x9", "129x129", "65x65", "9x9x9", "5x3x17",
                            "2x2x9", "9x9x5x5", "3x5x9x2", "17x17x17", "5x5x5x5", "17x3x3x5"};
    long long nts[] = {1, 7, 300};
    int tpbs[] = {0, 1, 3};
    for (int s = 0; s < (int)(sizeof shapes / sizeof *shapes); s++)
        for (int i = 0; i < 3; i++)
            for (int t = 0; t < 3; t++)
                for (int v = 0; v < 3; v++) {
                    if (v < 2) check_shape(shapes[s], nts[i], tpbs[t], 0, v);
                    else { /* pipelined: threads, stages and a grid cap rotating over the cases */
                        int c = s + i + t;
                        check_shape_ex(shapes[s], nts[i], tpbs[t], 0, v, c % 2 ? 128 : 256, 2 + c % 3, c % 4 < 2 ? 0 : 3,
                                       (c / 2) % 2, c % 5 == 0);
                    }
                }
    /* the pipelined kernel on the thesis's shapes: every threads x stages, full and capped grids */
    const char *thesis[] = {"33x33", "9x9x9", "9x9x5x5"};
    for (int s = 0; s < 3; s++)
        for (int th = 128; th <= 256; th += 128)
            for (int st = 2; st <= 4; st++)
                for (int mb = 0; mb <= 7; mb += 7)
                    for (int vs = 0; vs < 2; vs++) {
                        check_shape_ex(thesis[s], 1000, 0, 0, SG_VARIANT_PIPELINED, th, st, mb, vs, 0);
                        check_shape_ex(thesis[s], 301, 4, 0, SG_VARIANT_PIPELINED, th, st, mb, vs, mb ? 1 : 0);
                    }
    { /* two plans of one kernel: the one with less shared memory set up last must not break the
       * other (the per-kernel shared memory limit is only raised; a bug found on the H200) */
        sg_geom g;
        char err[200];
        T_CHECK(sg_parse_dims("33x33", &g, err, sizeof err) == 0);
        sg_fused big, small;
        T_CHECK(sg_fused_setup_ex(&big, &g, 0, 0, SG_VARIANT_PIPELINED, 16384, 128, 2) == 0);
        T_CHECK(sg_fused_setup_ex(&small, &g, 0, 0, SG_VARIANT_PIPELINED, 2048, 256, 2) == 0);
        T_CHECK(sg_fused_smem(&big, big.tpb, 0) > sg_fused_smem(&small, small.tpb, 0));
        long long nt = 20000, n = nt * g.size;
        float *h = (float *)malloc(sizeof(float) * n), *ref = (float *)malloc(sizeof(float) * n),
              *got = (float *)malloc(sizeof(float) * n), *d_in, *d_out;
        for (long long i = 0; i < n; i++) h[i] = (float)rnd(i + 77);
        T_CHECK(sg_cpu_tuned(h, ref, nt, &g, 0, 4) == 0);
        CHECK_CUDA(cudaMalloc(&d_in, sizeof(float) * n));
        CHECK_CUDA(cudaMalloc(&d_out, sizeof(float) * n));
        CHECK_CUDA(cudaMemcpy(d_in, h, sizeof(float) * n, cudaMemcpyHostToDevice));
        for (int which = 0; which < 2; which++) {
            CHECK_CUDA(cudaMemset(d_out, 0xFF, sizeof(float) * n));
            sg_fused_run(which ? &small : &big, d_in, d_out, nt, 0, 0); /* big first: launched after small's setup */
            CHECK_CUDA(cudaDeviceSynchronize());
            CHECK_CUDA(cudaMemcpy(got, d_out, sizeof(float) * n, cudaMemcpyDeviceToHost));
            T_CHECK(memcmp(got, ref, sizeof(float) * n) == 0);
        }
        sg_fused_free(&big);
        sg_fused_free(&small);
        CHECK_CUDA(cudaFree(d_in));
        CHECK_CUDA(cudaFree(d_out));
        free(h); free(ref); free(got);
    }
    for (int v = 0; v < 3; v++) {
        check_shape("33x33", 5, 0, 1, v);
        check_shape("9x9x5x5", 5, 0, 1, v);
        check_shape("9x9x9", 3, 2, 1, v);
        check_shape("1025", 2, 0, 1, v);
        check_shape("65x3", 4, 0, 1, v);
    }
    return T_DONE();
}
