/* GPU test of the fused kernels' launch plan (sparsegrid/kernels.cuh) at the tile-count
 * boundaries, against closed forms, and of the kernels' results there:
 *   - tiles per block (sg_fused_tpb): with K = SG_FUSED_MIN_BLOCKS_PER_SM * SMs blocks wanted,
 *     an automatic plan of t tiles per block keeps t while ceil(nt / t) >= K, i.e. it takes
 *     min(t, floor((nt - 1) / (K - 1))), at least 1; a forced one never changes;
 *   - blocks (sg_fused_blocks): ceil(nt / tpb) groups, the pipelined kernel's persistent grid at
 *     most occupancy * SMs (and max_blocks when set);
 *   - at nt = (K - 1) t, (K - 1) t + 1 (the adaptation's edge) and K t, and at groups = the grid cap - 1,
 *     the cap and the cap + 1 (persistent blocks walking one group more), every kernel's output
 *     equals the CPU's bitwise, the output poisoned (NaN) first, so a block that skips the last
 *     partial group or writes past it is seen.
 * Exit 77 without a GPU. */
#include "../../common/device.h"
#include "../../common/testlib.h"
#include "../../sparsegrid/hierarchize.h"
#include "../../sparsegrid/kernels.cuh"
#include "sparsegrid_batch.cuh" /* rnd */

static long long tpb_want(const sg_fused *f, long long nt)
{
    long long K = (long long)SG_FUSED_MIN_BLOCKS_PER_SM * f->sms;
    if (!f->adapt) return f->tpb;
    long long t = K > 1 ? (nt - 1) / (K - 1) : f->tpb;
    if (t > f->tpb) t = f->tpb;
    return t < 1 ? 1 : t;
}

/* nt tiles of shape g through f (both directions), compared with the CPU; the plan's numbers
 * compared with the closed forms */
static void run_check(const sg_geom *g, sg_fused *f, long long nt, const char *what)
{
    long long tw = tpb_want(f, nt), groups = (nt + tw - 1) / tw, most = (long long)f->occ * f->sms;
    if (f->max_blocks > 0 && f->max_blocks < most) most = f->max_blocks;
    int ok = T_CHECK(sg_fused_tpb(f, nt) == tw);
    ok &= T_CHECK((long long)sg_fused_blocks(f, nt) == (f->pipe && groups > most ? most : groups));
    long long n = nt * g->size;
    size_t bytes = sizeof(float) * (size_t)n;
    float *h = (float *)malloc(bytes), *ref = (float *)malloc(bytes), *inv = (float *)malloc(bytes), *got = (float *)malloc(bytes);
    for (long long i = 0; i < n; i++) h[i] = (float)rnd((unsigned long long)i + 77 * (unsigned long long)nt);
    T_CHECK(sg_cpu_tuned(h, ref, nt, g, 0, 4) == 0);
    T_CHECK(sg_cpu_tuned(ref, inv, nt, g, 1, 4) == 0);
    float *d_in, *d_out, *d_back;
    CHECK_CUDA(cudaMalloc(&d_in, bytes));
    CHECK_CUDA(cudaMalloc(&d_out, bytes + 64)); /* a spare poisoned tail: a store past the end shows */
    CHECK_CUDA(cudaMalloc(&d_back, bytes + 64));
    CHECK_CUDA(cudaMemcpy(d_in, h, bytes, cudaMemcpyHostToDevice));
    float tail[16];
    for (int dir = 0; dir < 2; dir++) {
        float *src = dir ? d_out : d_in, *dst = dir ? d_back : d_out;
        CHECK_CUDA(cudaMemset(dst, 0xFF, bytes + 64));
        sg_fused_run(f, src, dst, nt, dir, 0);
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(got, dst, bytes, cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaMemcpy(tail, dst + n, sizeof tail, cudaMemcpyDeviceToHost));
        ok &= T_CHECK(memcmp(got, dir ? inv : ref, bytes) == 0);
        int untouched = 1;
        for (int k = 0; k < 16; k++) untouched &= tail[k] != tail[k]; /* still NaN */
        ok &= T_CHECK(untouched);
    }
    if (!ok)
        fprintf(stderr, "  %s: nt %lld, tpb %d (want %lld), blocks %u, groups %lld, cap %lld, %s\n", what, nt,
                sg_fused_tpb(f, nt), tw, sg_fused_blocks(f, nt), groups, most,
                f->pipe ? "pipelined" : f->lines ? "lines" : "points");
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_back));
    free(h); free(ref); free(inv); free(got);
}

int main(void)
{
    device_require(0, 7, 5);
    (void)sg_b_setup; /* version B is not planned by tiles (test_sparsegrid_gpu.cu runs it) */
    (void)sg_b_run;
    const char *shapes[] = {"33x33", "9x9x9", "9x9x5x5", "17x3x3x5"};
    for (int s = 0; s < 4; s++) {
        sg_geom g;
        char err[200];
        T_CHECK(sg_parse_dims(shapes[s], &g, err, sizeof err) == 0);
        for (int v = 0; v < 3; v++) {
            sg_fused f;
            if (!T_CHECK(sg_fused_setup(&f, &g, 0, 0, v) == 0)) continue;
            T_CHECK(f.adapt == 1);
            long long K = (long long)SG_FUSED_MIN_BLOCKS_PER_SM * f.sms, t = f.tpb;
            /* the plan alone, around every boundary: ceil(nt / t') falls below K from nt = (K - 1) t' */
            for (long long tt = 1; tt <= t; tt++)
                for (long long c = K - 1; c <= K; c++)
                    for (long long nt = c * tt - 2; nt <= c * tt + 2; nt++)
                        if (nt >= 1 && !T_CHECK(sg_fused_tpb(&f, nt) == tpb_want(&f, nt)))
                            fprintf(stderr, "  %s variant %d: nt %lld: tpb %d, want %lld\n", shapes[s], v, nt,
                                    sg_fused_tpb(&f, nt), tpb_want(&f, nt));
            T_EQ_INT(sg_fused_tpb(&f, 1), 1);
            T_EQ_INT(sg_fused_tpb(&f, K * t), t);
            T_EQ_INT(sg_fused_tpb(&f, (K - 1) * t + 1), t);
            if (t > 1) T_EQ_INT(sg_fused_tpb(&f, (K - 1) * t), t - 1);
            /* the kernels at the adaptation's edge */
            run_check(&g, &f, (K - 1) * t, shapes[s]);
            run_check(&g, &f, (K - 1) * t + 1, shapes[s]);
            run_check(&g, &f, K * t, shapes[s]);
            if (f.pipe) { /* the persistent grid: a small cap, groups = cap - 1, cap, cap + 1 */
                f.max_blocks = 5;
                for (long long gr = 4; gr <= 6; gr++) {
                    long long nt = gr * tpb_want(&f, gr * f.tpb);
                    run_check(&g, &f, nt, shapes[s]);
                    run_check(&g, &f, nt - 1, shapes[s]);
                }
                /* and the device's own cap: occupancy * SMs groups, and one more */
                f.max_blocks = 0;
                long long most = (long long)f.occ * f.sms;
                run_check(&g, &f, most * f.tpb, shapes[s]);
                run_check(&g, &f, most * f.tpb + 1, shapes[s]);
            }
            sg_fused_free(&f);
        }
        /* a forced tiles-per-block is never adapted */
        sg_fused f;
        T_CHECK(sg_fused_setup(&f, &g, 3, 0, SG_VARIANT_PIPELINED) == 0);
        T_EQ_INT(f.adapt, 0);
        T_EQ_INT(sg_fused_tpb(&f, 1), 3);
        run_check(&g, &f, 7, shapes[s]);
        sg_fused_free(&f);
    }
    return T_DONE();
}
